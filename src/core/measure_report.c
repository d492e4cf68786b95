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
#include "core/record.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- the JSON record ---------------------------------------------------
 *
 * One field table per record (core/record.h): the writer walks them, and
 * tools/gen_tables.py makes docs/schema/measure.json from them. A list, or
 * a map that leaves figures out, is written by its row's put function. */

static const rli_field stats_fields[] = {
    {"min", "s", "shortest sample", RLI_F_NUM, RLI_AT(rl_stats, min)},
    {"median", "s", "median sample", RLI_F_NUM, RLI_AT(rl_stats, median)},
    {"max", "s", "longest sample", RLI_F_NUM, RLI_AT(rl_stats, max)},
    {"spread", NULL, "(max - min) / min, a fraction; 0 for one sample", RLI_F_NUM, RLI_AT(rl_stats, spread)},
    {"n", NULL, "timed samples", RLI_F_INT, RLI_AT(rl_stats, n)},
};
static RLI_RECORD(stats_record, "measure_stats", "the time of one figure's timed repeats", stats_fields);

/* "simd": the space-separated extensions as a list */
static void put_simd(rli_out *o, const void *rec, const rli_field *f) {
  char word[32];
  const char *p = (const char *)rec + f->off;
  int first = 1;
  rli_out_puts(o, "[");
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
  rli_out_puts(o, "]");
}

static const rli_field cpu_fields[] = {
    {"vendor", NULL, "CPUID vendor (\"AuthenticAMD\", \"GenuineIntel\")", RLI_F_TEXT, RLI_AT(rl_cpu_info, vendor)},
    {"model", NULL, "CPUID brand string", RLI_F_TEXT, RLI_AT(rl_cpu_info, model)},
    {"uarch", NULL, "microarchitecture (\"Zen 4\"), \"\" when unknown", RLI_F_TEXT, RLI_AT(rl_cpu_info, uarch)},
    {"family", NULL, "CPUID family", RLI_F_INT, RLI_AT(rl_cpu_info, family)},
    {"model_id", NULL, "CPUID model", RLI_F_INT, RLI_AT(rl_cpu_info, model_id)},
    {"cpus", NULL, "CPUs this process may run on", RLI_F_INT, RLI_AT(rl_cpu_info, cpus)},
    {"isa", NULL, "widest vector extension used (\"avx512\", \"avx2\", \"sse2\")", RLI_F_TEXT, RLI_AT(rl_cpu_info, isa)},
    {"simd", NULL, "vector extensions found", RLI_F_STR, RLI_LIST, RLI_AT(rl_cpu_info, simd), .put = put_simd},
    {"cache_bytes", "B", "capacity of one instance of each cache level; null when there is none", RLI_F_NUM,
     RLI_MAP, RLI_NULL_NONPOS, RLI_AT(rl_cpu_info, cache), .put = rli_put_num_map, .name = rl_level_name,
     .n_names = 3},
    {"cache_shared_cpus", NULL, "CPUs sharing one instance of each cache level", RLI_F_INT, RLI_MAP,
     RLI_AT(rl_cpu_info, cache_shared), .put = rli_put_int_map, .name = rl_level_name, .n_names = 3},
    {"mem_bytes", "B", "physical memory", RLI_F_NUM, .flags = RLI_NULL_NONPOS, RLI_AT(rl_cpu_info, mem_bytes)},
    {"nominal_hz", "Hz", "clock as the OS reports it", RLI_F_NUM, .flags = RLI_NULL_NONPOS,
     RLI_AT(rl_cpu_info, nominal_hz)},
    {"measured_hz", "Hz", "clock timed with a dependent chain of integer adds", RLI_F_NUM,
     .flags = RLI_NULL_NONPOS, RLI_AT(rl_cpu_info, measured_hz)},
    {"flop_per_cycle", NULL,
     "theoretical FLOP per cycle and core of each peak kernel (lanes x units x 2 for an FMA), from the "
     "microarchitecture",
     RLI_F_NUM, RLI_MAP, RLI_NULL_NONPOS, RLI_AT(rl_cpu_info, flop_per_cycle), .put = rli_put_num_map,
     .name = rl_peak_kernel_name, .n_names = RL_PK_COUNT},
};
static RLI_RECORD(cpu_record, "measure_cpu", "the machine as probed", cpu_fields);

/* A peak set's kernels that were measured: best FLOP/s (put_peaks), the
 * theoretical figure (put_theory) or the time's statistics (put_peak_stats) */
static void peak_map(rli_out *o, const rl_peak_set *p, const rli_field *f, int what) {
  int first = 1;
  rli_out_puts(o, "{");
  for (int32_t k = 0; k < RL_PK_COUNT; k++) {
    if (!(p->flops[k] > 0)) continue;
    rli_map_key(o, f, k, &first);
    if (what == 2) {
      rli_record_write(o, f->sub, &p->t[k]);
    } else {
      double v = what ? p->theory[k] : p->flops[k];
      if (v > 0 && isfinite(v)) rli_out_num(o, v);
      else rli_out_puts(o, "null");
    }
  }
  rli_out_puts(o, "}");
}
static const rl_peak_set *peak_set(const void *rec, const rli_field *f) {
  return (const rl_peak_set *)(const void *)((const char *)rec + f->off);
}
static void put_peaks(rli_out *o, const void *rec, const rli_field *f) { peak_map(o, peak_set(rec, f), f, 0); }
static void put_theory(rli_out *o, const void *rec, const rli_field *f) { peak_map(o, peak_set(rec, f), f, 1); }
static void put_peak_stats(rli_out *o, const void *rec, const rli_field *f) { peak_map(o, peak_set(rec, f), f, 2); }

/* A level's spread where a plateau or a median was found, else null */
static void put_level_spread(rli_out *o, const void *rec, const rli_field *f) {
  const rl_levels *lv = (const rl_levels *)(const void *)((const char *)rec + f->off);
  int first = 1;
  rli_out_puts(o, "{");
  for (int32_t k = 0; k < RL_LEVEL_COUNT; k++) {
    rli_map_key(o, f, k, &first);
    if (lv->found[k]) rli_out_num(o, lv->spread[k]);
    else rli_out_puts(o, "null");
  }
  rli_out_puts(o, "}");
}

static const rli_field sweep_point_fields[] = {
    {"ws", "B", "working set of all arrays of all threads", RLI_F_NUM, RLI_AT(rl_sweep_point, ws)},
    {"bytes", "B", "memory traffic Q counted per repetition", RLI_F_NUM, RLI_AT(rl_sweep_point, bytes)},
    {"bw", "B/s", "bandwidth: bytes / the shortest repetition", RLI_F_NUM, RLI_AT(rl_sweep_point, bw)},
    {"nt", NULL, "non-temporal stores", RLI_F_BOOL, RLI_AT(rl_sweep_point, nt)},
    {"measured_s_stats", NULL, "the time of one repetition", RLI_F_OBJ, RLI_AT(rl_sweep_point, t),
     .sub = &stats_record},
};
static RLI_RECORD(sweep_point_record, "measure_sweep_point", "one working set of a bandwidth sweep",
                  sweep_point_fields);

static const rli_field sweep_fields[] = {
    {"kernel", NULL, "bandwidth kernel", RLI_F_ENUM, RLI_AT(rl_sweep, kernel), .name = rl_bw_kernel_name,
     .n_names = RL_BW_KERNEL_COUNT},
    {"threads", NULL, "threads that ran it", RLI_F_INT, RLI_AT(rl_sweep, threads)},
    {"cache_capacity", "B", "cache capacity available to these threads at each level; null when there is none",
     RLI_F_NUM, RLI_MAP, RLI_NULL_NONPOS, RLI_AT(rl_sweep, cache), .put = rli_put_num_map,
     .name = rl_level_name, .n_names = 3},
    {"levels", "B/s", "bandwidth of each level's plateau; null when not found", RLI_F_NUM, RLI_MAP,
     RLI_NULL_NONPOS, RLI_AT(rl_sweep, levels.bw), .put = rli_put_num_map, .name = rl_level_name,
     .n_names = RL_LEVEL_COUNT},
    {"points", NULL, "the working sets, smallest first", RLI_F_OBJ, RLI_ARRAY(rl_sweep, p, n),
     .sub = &sweep_point_record},
};
static RLI_RECORD(sweep_record, "measure_sweep", "a bandwidth sweep over working sets", sweep_fields);

static int point_has_roof(const void *rec) { return ((const rl_measure_point *)rec)->roof > 0; }
/* faster than the best the bandwidth kernels reached at its level: the
 * run's figure is below what the level can do there */
static double point_above_roof(const void *rec) {
  const rl_measure_point *p = rec;
  return p->roof > 0 && p->roof_fraction > 1;
}

static const rli_field point_fields[] = {
    {"op", NULL, "operation kind or label (sgemm, dgemm, add)", RLI_F_TEXT, RLI_AT(rl_measure_point, op)},
    {"dtype", NULL, "number format of the compute", RLI_F_ENUM, RLI_AT(rl_measure_point, dtype),
     .name = rl_dtype_name, .n_names = RL_DTYPE_COUNT},
    {"threads", NULL, "threads that ran it", RLI_F_INT, RLI_AT(rl_measure_point, threads)},
    {"n", NULL, "matrix order, or elements", RLI_F_NUM, RLI_AT(rl_measure_point, n)},
    {"flops", "FLOP", "floating-point operations F (rl_op_cost)", RLI_F_NUM, RLI_AT(rl_measure_point, flops)},
    {"bytes", "B", "memory traffic Q (rl_op_cost)", RLI_F_NUM, RLI_AT(rl_measure_point, bytes)},
    {"intensity", "FLOP/B", "arithmetic intensity F/Q", RLI_F_NUM, RLI_AT(rl_measure_point, intensity)},
    {"measured_s", "s", "shortest call", RLI_F_NUM, RLI_AT(rl_measure_point, t.min)},
    {"achieved", "FLOP/s", "F / measured_s", RLI_F_NUM, RLI_AT(rl_measure_point, achieved)},
    {"roof", "FLOP/s", "min(peak, bandwidth x intensity): the measured roof at its level", RLI_F_NUM,
     .flags = RLI_NULL_NONPOS, RLI_AT(rl_measure_point, roof)},
    {"roof_dram", "FLOP/s", "the classic roof: min(peak, DRAM bandwidth x intensity)", RLI_F_NUM,
     .flags = RLI_NULL_NONPOS, RLI_AT(rl_measure_point, roof_dram)},
    {"roof_fraction", NULL, "achieved / roof", RLI_F_NUM, RLI_AT(rl_measure_point, roof_fraction),
     .known = point_has_roof},
    {"above_roof", NULL, "faster than the best the bandwidth kernels reached at its level: that figure is "
     "below what the level can do (a loop that does not saturate it, or too few or disturbed samples)",
     RLI_F_BOOL, .get = point_above_roof},
    {"level", NULL, "the memory level Q fits in", RLI_F_ENUM, RLI_AT(rl_measure_point, level),
     .name = rl_level_name, .n_names = RL_LEVEL_COUNT},
    {"bound", NULL, "what limits it: compute or memory", RLI_F_ENUM, RLI_AT(rl_measure_point, bound),
     .name = rl_bound_name, .n_names = RL_BOUND_NETWORK + 1},
    {"peak", "FLOP/s", "the measured FMA peak of its format", RLI_F_NUM, .flags = RLI_NULL_NONPOS,
     RLI_AT(rl_measure_point, peak)},
    {"bandwidth", "B/s", "the best bandwidth any kernel (read, copy, triad) reached at its level", RLI_F_NUM,
     .flags = RLI_NULL_NONPOS, RLI_AT(rl_measure_point, bandwidth)},
    {"measured_s_stats", NULL, "the time of one call", RLI_F_OBJ, RLI_AT(rl_measure_point, t),
     .sub = &stats_record},
};
static RLI_RECORD(point_record, "measure_point", "a matrix product or an add on the measured roofline",
                  point_fields);

/* "unreliable": one item per figure rl_measure_analyze marked */
typedef struct unreliable_item {
  int32_t figure; /* 0 peak, 1 bandwidth, 2 point */
  int32_t level;  /* bandwidth: rl_level; else -1 */
  const char *kernel;
  double n;       /* point: its size */
  int32_t threads;
  uint32_t why;   /* RL_DISTURB_* */
} unreliable_item;

static const char *figure_name(int32_t k) {
  static const char *const names[] = {"peak", "bandwidth", "point"};
  return k >= 0 && k < 3 ? names[k] : NULL;
}
/* the RL_DISTURB_* bits in order */
static const uint32_t reason_bits[] = {RL_DISTURB_BELOW_1T, RL_DISTURB_BELOW_HALF, RL_DISTURB_FEW_CLEAN,
                                       RL_DISTURB_TIMER};
static const char *reason_name(int32_t k) {
  static const char *const names[] = {"below_1_thread", "below_half_theoretical", "few_clean_samples",
                                      "timer_overhead"};
  return k >= 0 && k < 4 ? names[k] : NULL;
}
static void put_reasons(rli_out *o, const void *rec, const rli_field *f) {
  const unreliable_item *u = rec;
  int first = 1;
  rli_out_puts(o, "[");
  for (int32_t k = 0; k < f->n_names; k++)
    if (u->why & reason_bits[k]) {
      if (!first) rli_out_puts(o, ",");
      rli_out_str(o, f->name(k));
      first = 0;
    }
  rli_out_puts(o, "]");
}
static int is_bandwidth(const void *rec) { return ((const unreliable_item *)rec)->figure == 1; }
static int is_point(const void *rec) { return ((const unreliable_item *)rec)->figure == 2; }

static const rli_field unreliable_fields[] = {
    {"figure", NULL, "what kind of figure", RLI_F_ENUM, RLI_AT(unreliable_item, figure), .name = figure_name,
     .n_names = 3},
    {"kernel", NULL, "the peak or bandwidth kernel, or the point's op (sgemm, dgemm, add)", RLI_F_STR,
     RLI_AT(unreliable_item, kernel)},
    {"level", NULL, "the bandwidth's memory level (figure bandwidth)", RLI_F_ENUM, RLI_AT(unreliable_item, level),
     .present = is_bandwidth, .name = rl_level_name, .n_names = RL_LEVEL_COUNT},
    {"n", NULL, "the point's size (figure point)", RLI_F_NUM, RLI_AT(unreliable_item, n), .present = is_point},
    {"threads", NULL, "threads the figure was timed on", RLI_F_INT, RLI_AT(unreliable_item, threads)},
    {"reasons", NULL, "why it is not the machine's", RLI_F_ENUM, RLI_LIST, .put = put_reasons,
     .name = reason_name, .n_names = 4},
};
static RLI_RECORD(unreliable_record, "measure_unreliable", "a figure that is not the machine's",
                  unreliable_fields);

/* The figures rl_measure_analyze marked unreliable: peaks, bandwidth
 * levels (all threads, then one thread), points */
static void put_unreliable(rli_out *o, const void *rec, const rli_field *f) {
  const rl_measurement *m = rec;
  int first = 1;
  rli_out_puts(o, "[");
#define ITEM(...)                                  \
  do {                                             \
    unreliable_item u_ = {__VA_ARGS__};            \
    if (!first) rli_out_puts(o, ",");              \
    rli_record_write(o, f->sub, &u_);              \
    first = 0;                                     \
  } while (0)
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < RL_PK_COUNT; k++) {
      uint32_t why = t ? m->peak_unreliable_1t[k] : m->peak_unreliable[k];
      if (!why || (t && m->threads == 1)) continue;
      ITEM(0, -1, rl_peak_kernel_name(k), 0, t ? 1 : m->threads, why);
    }
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < 3; k++)
      for (int l = 0; l < RL_LEVEL_COUNT; l++) {
        const rl_sweep *s = &m->sweep[t][k];
        if (s->kernel < 0 || !s->levels.unreliable[l] || (t && m->threads == 1)) continue;
        ITEM(1, l, rl_bw_kernel_name(s->kernel), 0, s->threads, s->levels.unreliable[l]);
      }
  for (int32_t i = 0; i < m->n_points && i < RL_MEASURE_MAX_POINTS; i++) {
    const rl_measure_point *p = &m->points[i];
    if (p->t.disturbed) ITEM(2, -1, p->op, p->n, p->threads, p->t.disturbed);
  }
#undef ITEM
  rli_out_puts(o, "]");
}

/* "sweeps": every bandwidth sweep that ran, all threads first */
static void put_sweeps(rli_out *o, const void *rec, const rli_field *f) {
  const rl_measurement *m = rec;
  int first = 1;
  rli_out_puts(o, "[");
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < 3; k++) {
      const rl_sweep *s = &m->sweep[t][k];
      if (s->kernel < 0 || s->n <= 0) continue;
      if (!first) rli_out_puts(o, ",");
      rli_record_write(o, f->sub, s);
      first = 0;
    }
  rli_out_puts(o, "]");
}

/* STREAM's byte counting: a store's write-allocate read is not counted */
static double never(const void *rec) { (void)rec; return 0; }

#define PEAKS(key, m, fn, doc) \
  {key, "FLOP/s", doc, RLI_F_NUM, RLI_MAP, RLI_NULL_NONPOS, RLI_AT(rl_measurement, m), .put = fn, \
   .name = rl_peak_kernel_name, .n_names = RL_PK_COUNT}
#define LEVELS(key, m, doc) \
  {key, "B/s", doc, RLI_F_NUM, RLI_MAP, RLI_NULL_NONPOS, RLI_AT(rl_measurement, m.bw), \
   .put = rli_put_num_map, .name = rl_level_name, .n_names = RL_LEVEL_COUNT}
#define SPREADS(key, m, doc) \
  {key, NULL, doc, RLI_F_NUM, RLI_MAP, RLI_NULLABLE, RLI_AT(rl_measurement, m), .put = put_level_spread, \
   .name = rl_level_name, .n_names = RL_LEVEL_COUNT}
static const rli_field measure_fields[] = {
    {"cpu", NULL, "the machine as probed", RLI_F_OBJ, RLI_AT(rl_measurement, cpu), .sub = &cpu_record},
    {"threads", NULL, "threads of the all-threads figures", RLI_F_INT, RLI_AT(rl_measurement, threads)},
    {"quick", NULL, "a quick measurement (fewer repeats and working sets)", RLI_F_BOOL,
     RLI_AT(rl_measurement, quick)},
    {"tick_s", "s", "the clock's granularity", RLI_F_NUM, RLI_AT(rl_measurement, tick_s)},
    {"repeats", NULL, "timed repeats of each figure", RLI_F_INT, RLI_AT(rl_measurement, repeats)},
    PEAKS("peak", peak, put_peaks, "best rate of each peak kernel that ran, all threads"),
    PEAKS("peak_1t", peak_1t, put_peaks, "best rate of each peak kernel that ran, one thread"),
    PEAKS("peak_theoretical", peak, put_theory,
          "theoretical rate of each peak kernel that ran: measured clock x FLOP/cycle x cores, all threads; "
          "null when the microarchitecture is not known"),
    PEAKS("peak_theoretical_1t", peak_1t, put_theory, "as peak_theoretical, one core"),
    {"peak_measured_s_stats", NULL, "the time of each peak kernel's timed repeats, all threads", RLI_F_OBJ,
     RLI_MAP, RLI_AT(rl_measurement, peak), .put = put_peak_stats, .sub = &stats_record,
     .name = rl_peak_kernel_name, .n_names = RL_PK_COUNT},
    {"peak_measured_s_stats_1t", NULL, "as peak_measured_s_stats, one thread", RLI_F_OBJ, RLI_MAP,
     RLI_AT(rl_measurement, peak_1t), .put = put_peak_stats, .sub = &stats_record,
     .name = rl_peak_kernel_name, .n_names = RL_PK_COUNT},
    LEVELS("bandwidth", bandwidth, "the read kernel's bandwidth at each memory level, all threads; null when "
           "no plateau was found"),
    LEVELS("bandwidth_1t", bandwidth_1t, "as bandwidth, one thread"),
    SPREADS("bandwidth_spread", bandwidth, "relative spread of each level's points, a fraction; null when the "
            "level was not found"),
    SPREADS("bandwidth_spread_1t", bandwidth_1t, "as bandwidth_spread, one thread"),
    {"write_allocate_counted", NULL,
     "whether a store's write-allocate read is in the bytes (never: STREAM's byte counting)", RLI_F_BOOL,
     .get = never},
    {"sweeps", NULL, "every bandwidth sweep that ran (all threads first, then one thread)", RLI_F_OBJ, RLI_LIST,
     .put = put_sweeps, .sub = &sweep_record},
    {"points", NULL, "matrix products and adds on the measured roofline", RLI_F_OBJ,
     RLI_ARRAY(rl_measurement, points, n_points), .sub = &point_record},
    {"spread_median", NULL, "median relative spread of every timed figure, a fraction", RLI_F_NUM,
     RLI_AT(rl_measurement, spread_median)},
    {"spread_max", NULL, "largest relative spread of a timed figure, a fraction", RLI_F_NUM,
     RLI_AT(rl_measurement, spread_max)},
    {"noisy", NULL, "spread_median above 5%: the machine was busy", RLI_F_BOOL, RLI_AT(rl_measurement, noisy)},
    {"retakes", NULL, "disturbed figures taken again", RLI_F_INT, RLI_AT(rl_measurement, retakes)},
    {"unreliable", NULL,
     "figures that are not the machine's: all threads below one thread, or a peak below half its theoretical "
     "value, still so after their retakes; or timed on fewer than 3 clean samples, or on samples so short "
     "that the timer's overhead is above 1% of them",
     RLI_F_OBJ, RLI_LIST, .put = put_unreliable, .sub = &unreliable_record},
    {"wall_s", "s", "how long the measurement took", RLI_F_NUM, RLI_AT(rl_measurement, wall_s)},
};
#undef PEAKS
#undef LEVELS
#undef SPREADS
RLI_RECORD(rli_measure_record, "measure", "roofline measure: the machine's measured roofline", measure_fields);

size_t rl_measure_json(const rl_measurement *m, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  rli_record_write(&o, &rli_measure_record, m);
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
  /* one instance (a core's, its SMT siblings sharing it), for the cache
   * level a CPU trace's op fits in; without an L3 the L2 is the last
   * level (l2_bytes) */
  out->l1_bytes = m->cpu.cache[0] > 0 ? m->cpu.cache[0] : 0;
  out->l2_core_bytes = m->cpu.cache[2] > 0 && m->cpu.cache[1] > 0 ? m->cpu.cache[1] : 0;
  out->boost_hz = m->cpu.measured_hz;
  snprintf(out->source, sizeof out->source,
           MEASURED_SOURCE "%s: FMA peaks with %d threads; bandwidth of the "
           "read kernel, best of %d (STREAM byte counting); clock measured",
           m->quick ? " (quick)" : "", (int)m->threads, (int)m->repeats);
  if (m->cpu.family > 0) { /* what a CPU trace's processor is checked against */
    size_t l = strlen(out->source);
    snprintf(out->source + l, sizeof out->source - l, "; CPUID family %d model %d", (int)m->cpu.family,
             (int)m->cpu.model_id);
  }
  if (nl) {
    size_t l = strlen(out->source);
    snprintf(out->source + l, sizeof out->source - l, "; " RL_HW_LEFT_OUT " %s", left);
  }
  return RL_OK;
}

size_t rl_measurement_sizeof(void) { return sizeof(rl_measurement); }
