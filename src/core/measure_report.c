/*
 * measure_report.c -- a measurement as JSON and as a hardware entry.
 *
 * Exports rl_measure_json (every figure in base units: FLOP/s, B/s, s, B;
 * a figure that was not measured is null) and rl_measure_to_hw (the
 * measured machine as an rl_hw, which rl_hw_csv in hw.c writes in
 * data/hardware.csv's format for `roofline op ... --hw-file FILE`), and
 * rl_measurement_sizeof for bindings.
 * Pure: no clock, no I/O.
 */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void num_or_null(rli_out *o, double v) {
  if (v > 0 && isfinite(v)) rli_out_num(o, v);
  else rli_out_puts(o, "null");
}

static void stats_json(rli_out *o, const rl_stats *t) {
  rli_out_puts(o, "{\"min\":");
  rli_out_num(o, t->min);
  rli_out_puts(o, ",\"median\":");
  rli_out_num(o, t->median);
  rli_out_puts(o, ",\"max\":");
  rli_out_num(o, t->max);
  rli_out_puts(o, ",\"spread\":");
  rli_out_num(o, t->spread);
  rli_out_printf(o, ",\"n\":%d}", (int)t->n);
}

static void peaks_json(rli_out *o, const rl_peak_set *p, int theory) {
  rli_out_puts(o, "{");
  int first = 1;
  for (int k = 0; k < RL_PK_COUNT; k++) {
    if (!(p->flops[k] > 0)) continue;
    rli_out_printf(o, "%s\"%s\":", first ? "" : ",", rl_peak_kernel_name(k));
    num_or_null(o, theory ? p->theory[k] : p->flops[k]);
    first = 0;
  }
  rli_out_puts(o, "}");
}

static void peak_stats_json(rli_out *o, const rl_peak_set *p) {
  rli_out_puts(o, "{");
  int first = 1;
  for (int k = 0; k < RL_PK_COUNT; k++) {
    if (!(p->flops[k] > 0)) continue;
    rli_out_printf(o, "%s\"%s\":", first ? "" : ",", rl_peak_kernel_name(k));
    stats_json(o, &p->t[k]);
    first = 0;
  }
  rli_out_puts(o, "}");
}

static void reasons_json(rli_out *o, uint32_t why) {
  static const struct { uint32_t bit; const char *name; } reasons[] = {
      {RL_DISTURB_BELOW_1T, "below_1_thread"},
      {RL_DISTURB_BELOW_HALF, "below_half_theoretical"},
      {RL_DISTURB_FEW_CLEAN, "few_clean_samples"},
      {RL_DISTURB_TIMER, "timer_overhead"}};
  rli_out_puts(o, "\"reasons\":[");
  int first = 1;
  for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
    if (why & reasons[i].bit) {
      rli_out_printf(o, "%s\"%s\"", first ? "" : ",", reasons[i].name);
      first = 0;
    }
  rli_out_puts(o, "]}");
}

/* The figures rl_measure_analyze marked unreliable: peaks, bandwidth
 * levels (all threads, then one thread), points */
static void unreliable_json(rli_out *o, const rl_measurement *m) {
  int first = 1;
  rli_out_puts(o, "[");
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < RL_PK_COUNT; k++) {
      uint32_t why = t ? m->peak_unreliable_1t[k] : m->peak_unreliable[k];
      if (!why || (t && m->threads == 1)) continue;
      rli_out_printf(o, "%s{\"figure\":\"peak\",\"kernel\":\"%s\",\"threads\":%d,", first ? "" : ",",
                     rl_peak_kernel_name(k), t ? 1 : (int)m->threads);
      reasons_json(o, why);
      first = 0;
    }
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < 3; k++)
      for (int l = 0; l < RL_LEVEL_COUNT; l++) {
        const rl_sweep *s = &m->sweep[t][k];
        if (s->kernel < 0 || !s->levels.unreliable[l] || (t && m->threads == 1)) continue;
        rli_out_printf(o, "%s{\"figure\":\"bandwidth\",\"kernel\":\"%s\",\"level\":\"%s\",\"threads\":%d,",
                       first ? "" : ",", rl_bw_kernel_name(s->kernel), rl_level_name(l), (int)s->threads);
        reasons_json(o, s->levels.unreliable[l]);
        first = 0;
      }
  for (int32_t i = 0; i < m->n_points && i < RL_MEASURE_MAX_POINTS; i++) {
    const rl_measure_point *p = &m->points[i];
    if (!p->t.disturbed) continue;
    rli_out_printf(o, "%s{\"figure\":\"point\",\"kernel\":", first ? "" : ",");
    rli_out_str(o, p->op);
    rli_out_printf(o, ",\"n\":");
    rli_out_num(o, p->n);
    rli_out_printf(o, ",\"threads\":%d,", (int)p->threads);
    reasons_json(o, p->t.disturbed);
    first = 0;
  }
  rli_out_puts(o, "]");
}

static void levels_json(rli_out *o, const rl_levels *lv, int what) {
  rli_out_puts(o, "{");
  for (int k = 0; k < RL_LEVEL_COUNT; k++) {
    rli_out_printf(o, "%s\"%s\":", k ? "," : "", rl_level_name(k));
    if (what == 0) num_or_null(o, lv->bw[k]);
    else if (lv->found[k]) rli_out_num(o, lv->spread[k]);
    else rli_out_puts(o, "null");
  }
  rli_out_puts(o, "}");
}

/* "cpu": the machine as probed */
static void cpu_json(rli_out *o, const rl_cpu_info *c) {
  rli_out_puts(o, "{\"vendor\":");
  rli_out_str(o, c->vendor);
  rli_out_puts(o, ",\"model\":");
  rli_out_str(o, c->model);
  rli_out_puts(o, ",\"uarch\":");
  rli_out_str(o, c->uarch);
  rli_out_printf(o, ",\"family\":%d,\"model_id\":%d,\"cpus\":%d,\"isa\":",
                 (int)c->family, (int)c->model_id, (int)c->cpus);
  rli_out_str(o, c->isa);
  rli_out_puts(o, ",\"simd\":[");
  {
    char word[32];
    const char *p = c->simd;
    int first = 1;
    while (*p) {
      size_t n = strcspn(p, " ");
      if (n && n < sizeof word) {
        memcpy(word, p, n);
        word[n] = 0;
        if (!first) rli_out_puts(o, ",");
        rli_out_str(o, word);
        first = 0;
      }
      p += n;
      while (*p == ' ') p++;
    }
  }
  rli_out_puts(o, "],\"cache_bytes\":{");
  for (int k = 0; k < 3; k++) {
    rli_out_printf(o, "%s\"%s\":", k ? "," : "", rl_level_name(k));
    num_or_null(o, c->cache[k]);
  }
  rli_out_puts(o, "},\"cache_shared_cpus\":{");
  for (int k = 0; k < 3; k++)
    rli_out_printf(o, "%s\"%s\":%d", k ? "," : "", rl_level_name(k),
                   (int)c->cache_shared[k]);
  rli_out_puts(o, "},\"mem_bytes\":");
  num_or_null(o, c->mem_bytes);
  rli_out_puts(o, ",\"nominal_hz\":");
  num_or_null(o, c->nominal_hz);
  rli_out_puts(o, ",\"measured_hz\":");
  num_or_null(o, c->measured_hz);
  rli_out_puts(o, ",\"flop_per_cycle\":{");
  for (int k = 0; k < RL_PK_COUNT; k++) {
    rli_out_printf(o, "%s\"%s\":", k ? "," : "", rl_peak_kernel_name(k));
    num_or_null(o, c->flop_per_cycle[k]);
  }
  rli_out_puts(o, "}}");
}

/* ",peak" .. ",bandwidth_spread_1t": the peaks and the levels */
static void peaks_levels_json(rli_out *o, const rl_measurement *m) {
  rli_out_puts(o, ",\"peak\":");
  peaks_json(o, &m->peak, 0);
  rli_out_puts(o, ",\"peak_1t\":");
  peaks_json(o, &m->peak_1t, 0);
  rli_out_puts(o, ",\"peak_theoretical\":");
  peaks_json(o, &m->peak, 1);
  rli_out_puts(o, ",\"peak_theoretical_1t\":");
  peaks_json(o, &m->peak_1t, 1);
  rli_out_puts(o, ",\"peak_measured_s_stats\":");
  peak_stats_json(o, &m->peak);
  rli_out_puts(o, ",\"peak_measured_s_stats_1t\":");
  peak_stats_json(o, &m->peak_1t);
  rli_out_puts(o, ",\"bandwidth\":");
  levels_json(o, &m->bandwidth, 0);
  rli_out_puts(o, ",\"bandwidth_1t\":");
  levels_json(o, &m->bandwidth_1t, 0);
  rli_out_puts(o, ",\"bandwidth_spread\":");
  levels_json(o, &m->bandwidth, 1);
  rli_out_puts(o, ",\"bandwidth_spread_1t\":");
  levels_json(o, &m->bandwidth_1t, 1);
}

/* "sweeps": every bandwidth sweep with its levels and points */
static void sweeps_json(rli_out *o, const rl_measurement *m) {
  rli_out_puts(o, "[");
  int first = 1;
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < 3; k++) {
      const rl_sweep *s = &m->sweep[t][k];
      if (s->kernel < 0 || s->n <= 0) continue;
      rli_out_printf(o, "%s{\"kernel\":\"%s\",\"threads\":%d,\"cache_capacity\":{",
                     first ? "" : ",", rl_bw_kernel_name(s->kernel), (int)s->threads);
      first = 0;
      for (int l = 0; l < 3; l++) {
        rli_out_printf(o, "%s\"%s\":", l ? "," : "", rl_level_name(l));
        num_or_null(o, s->cache[l]);
      }
      rli_out_puts(o, "},\"levels\":");
      levels_json(o, &s->levels, 0);
      rli_out_puts(o, ",\"points\":[");
      for (int32_t i = 0; i < s->n && i < RL_MEASURE_MAX_WS; i++) {
        const rl_sweep_point *p = &s->p[i];
        rli_out_puts(o, i ? ",{\"ws\":" : "{\"ws\":");
        rli_out_num(o, p->ws);
        rli_out_puts(o, ",\"bytes\":");
        rli_out_num(o, p->bytes);
        rli_out_puts(o, ",\"bw\":");
        rli_out_num(o, p->bw);
        rli_out_printf(o, ",\"nt\":%s,\"measured_s_stats\":", p->nt ? "true" : "false");
        stats_json(o, &p->t);
        rli_out_puts(o, "}");
      }
      rli_out_puts(o, "]}");
    }
  rli_out_puts(o, "]");
}

/* One point (a matrix product or an add) on the measured roofline */
static void point_json(rli_out *o, const rl_measure_point *p) {
  rli_out_puts(o, "{\"op\":");
  rli_out_str(o, p->op);
  rli_out_printf(o, ",\"dtype\":\"%s\",\"threads\":%d,\"n\":",
                 rl_dtype_name(p->dtype) ? rl_dtype_name(p->dtype) : "?",
                 (int)p->threads);
  rli_out_num(o, p->n);
  rli_out_puts(o, ",\"flops\":");
  rli_out_num(o, p->flops);
  rli_out_puts(o, ",\"bytes\":");
  rli_out_num(o, p->bytes);
  rli_out_puts(o, ",\"intensity\":");
  rli_out_num(o, p->intensity);
  rli_out_puts(o, ",\"measured_s\":");
  rli_out_num(o, p->t.min);
  rli_out_puts(o, ",\"achieved\":");
  rli_out_num(o, p->achieved);
  rli_out_puts(o, ",\"roof\":");
  num_or_null(o, p->roof);
  rli_out_puts(o, ",\"roof_dram\":");
  num_or_null(o, p->roof_dram);
  rli_out_puts(o, ",\"roof_fraction\":");
  if (p->roof > 0) rli_out_num(o, p->roof_fraction);
  else rli_out_puts(o, "null");
  rli_out_printf(o, ",\"level\":\"%s\",\"bound\":\"%s\",\"peak\":",
                 rl_level_name(p->level) ? rl_level_name(p->level) : "?",
                 rl_bound_name(p->bound) ? rl_bound_name(p->bound) : "?");
  num_or_null(o, p->peak);
  rli_out_puts(o, ",\"bandwidth\":");
  num_or_null(o, p->bandwidth);
  rli_out_puts(o, ",\"measured_s_stats\":");
  stats_json(o, &p->t);
  rli_out_puts(o, "}");
}

size_t rl_measure_json(const rl_measurement *m, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  rli_out_puts(&o, "{\"cpu\":");
  cpu_json(&o, &m->cpu);
  rli_out_printf(&o, ",\"threads\":%d,\"quick\":%s,\"tick_s\":", (int)m->threads,
                 m->quick ? "true" : "false");
  rli_out_num(&o, m->tick_s);
  rli_out_printf(&o, ",\"repeats\":%d", (int)m->repeats);
  peaks_levels_json(&o, m);
  rli_out_puts(&o, ",\"write_allocate_counted\":false,\"sweeps\":");
  sweeps_json(&o, m);
  rli_out_puts(&o, ",\"points\":[");
  for (int32_t i = 0; i < m->n_points && i < RL_MEASURE_MAX_POINTS; i++) {
    if (i) rli_out_puts(&o, ",");
    point_json(&o, &m->points[i]);
  }
  rli_out_puts(&o, "],\"spread_median\":");
  rli_out_num(&o, m->spread_median);
  rli_out_puts(&o, ",\"spread_max\":");
  rli_out_num(&o, m->spread_max);
  rli_out_printf(&o, ",\"noisy\":%s,\"retakes\":%d,\"unreliable\":", m->noisy ? "true" : "false",
                 (int)m->retakes);
  unreliable_json(&o, m);
  rli_out_puts(&o, ",\"wall_s\":");
  rli_out_num(&o, m->wall_s);
  rli_out_puts(&o, "}");
  return rli_out_end(&o);
}

/* The source of a measured row begins with this (rl_hw_measured). */
#define MEASURED_SOURCE "roofline measure"

int rl_hw_measured(const rl_hw *hw) {
  return hw && strncmp(hw->source, MEASURED_SOURCE, strlen(MEASURED_SOURCE)) == 0;
}

rl_status rl_measure_to_hw(const rl_measurement *m, const char *id,
                           rl_hw *out, rl_error *err) {
  if (!m || !out) return rli_fail(err, RL_EINVAL, "no measurement");
  if (id && (!*id || strlen(id) >= RL_HW_ID_MAX || strpbrk(id, " ,\"\n")))
    return rli_fail(err, RL_EINVAL, "hardware id '%.60s' must be 1..%d characters without spaces or commas",
                    id, RL_HW_ID_MAX - 1);
  const rl_peak_set *p = &m->peak;
  if (!(p->flops[RL_PK_FP32_FMA] > 0) && !(p->flops[RL_PK_FP64_FMA] > 0))
    return rli_fail(err, RL_EINVAL, "no peak was measured (run with the peak kernel)");
  if (!(m->bandwidth.bw[RL_LEVEL_DRAM] > 0))
    return rli_fail(err, RL_EINVAL, "no DRAM bandwidth was measured (run with the read kernel)");
  /* A figure that stayed disturbed after its retakes (rl_measure_analyze)
   * is not the machine's: it is left out of the row (unknown there) and
   * the row's source says so; without a clean FP32 or FP64 peak, or a
   * clean DRAM bandwidth, there is no row to write. */
  double pk[3] = {p->flops[RL_PK_FP64_FMA], p->flops[RL_PK_FP32_FMA], p->flops[RL_PK_BF16_DOT]};
  const int32_t pki[3] = {RL_PK_FP64_FMA, RL_PK_FP32_FMA, RL_PK_BF16_DOT};
  static const char *const pkn[3] = {"fp64 peak", "fp32 peak", "bf16 peak"};
  double bw[4];
  static const char *const bwn[4] = {"L1 bandwidth", "L2 bandwidth", "L3 bandwidth", "DRAM bandwidth"};
  const int32_t lv[4] = {RL_LEVEL_L1, RL_LEVEL_L2, RL_LEVEL_L3, RL_LEVEL_DRAM};
  char left[200] = "";
  size_t nl = 0;
  for (int i = 0; i < 3; i++)
    if (pk[i] > 0 && m->peak_unreliable[pki[i]]) {
      pk[i] = 0;
      nl += (size_t)snprintf(left + nl, sizeof left - nl, "%s%s", nl ? ", " : "", pkn[i]);
    }
  for (int i = 0; i < 4; i++) {
    bw[i] = m->bandwidth.bw[lv[i]];
    if (bw[i] > 0 && m->bandwidth.unreliable[lv[i]]) {
      bw[i] = 0;
      if (nl < sizeof left)
        nl += (size_t)snprintf(left + nl, sizeof left - nl, "%s%s", nl ? ", " : "", bwn[i]);
    }
  }
  if (!(pk[0] > 0) && !(pk[1] > 0))
    return rli_fail(err, RL_EINVAL, "the FP32 and FP64 peaks stayed disturbed after %d retake%s (another "
                    "process took the cores): no hardware row written; measure again on a quiet machine",
                    (int)m->retakes, m->retakes == 1 ? "" : "s");
  if (!(bw[3] > 0))
    return rli_fail(err, RL_EINVAL, "the DRAM bandwidth stayed disturbed (another process took the cores): "
                    "no hardware row written; measure again on a quiet machine");
  memset(out, 0, sizeof *out);
  rli_strlcpy(out->id, id ? id : "measured-cpu", sizeof out->id);
  rli_strlcpy(out->vendor, m->cpu.vendor, sizeof out->vendor);
  snprintf(out->name, sizeof out->name, "%.60s (measured, %d threads)",
           m->cpu.model[0] ? m->cpu.model : "CPU", (int)m->threads);
  rli_strlcpy(out->form_factor, "CPU", sizeof out->form_factor);
  out->peak[RL_PEAK_FP64] = pk[0];
  out->peak[RL_PEAK_FP32] = pk[1];
  out->peak[RL_PEAK_BF16] = pk[2];
  out->mem_bytes = m->cpu.mem_bytes;
  out->mem_bw = bw[3];
  out->l1_bw = bw[0];
  out->l2_bw = bw[1];
  out->l3_bw = bw[2];
  out->l2_bytes = m->cpu.cache[2] > 0 ? m->cpu.cache[2] : m->cpu.cache[1];
  out->boost_hz = m->cpu.measured_hz;
  snprintf(out->source, sizeof out->source,
           MEASURED_SOURCE "%s: FMA peaks with %d threads; bandwidth of the "
           "read kernel, best of %d (STREAM byte counting); clock measured",
           m->quick ? " --quick" : "", (int)m->threads, (int)m->repeats);
  if (nl) {
    size_t l = strlen(out->source);
    snprintf(out->source + l, sizeof out->source - l, "; " RL_HW_LEFT_OUT " %s", left);
  }
  return RL_OK;
}

size_t rl_measurement_sizeof(void) { return sizeof(rl_measurement); }
