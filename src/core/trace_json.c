/*
 * trace_json.c -- the JSON record of a trace's analysis (rl_trace_json):
 * the summary, the rows per kernel and per op, the collectives and the
 * fusion candidates.
 */
#include "core/trace_impl.h"

#include <math.h>

static void num_or_null(rli_out *o, const char *key, int known, double v) {
  rli_out_printf(o, ",\"%s\":", key);
  if (known && isfinite(v)) rli_out_num(o, v);
  else rli_out_puts(o, "null");
}

static void rows_json(rli_out *o, const rl_trace_row *rows, int32_t n, int32_t top) {
  if (top > 0 && n > top) n = top;
  for (int32_t i = 0; i < n; i++) {
    const rl_trace_row *r = &rows[i];
    rli_out_puts(o, i ? ",{\"name\":" : "{\"name\":");
    rli_out_str(o, r->name);
    rli_out_puts(o, ",\"op\":");
    rli_out_str(o, r->op);
    rli_out_printf(o, ",\"count\":%lld,\"kernels\":%lld", (long long)r->count, (long long)r->kernels);
    num_or_null(o, "measured_s", r->has_time, r->time_s);
    int nof = (r->lower_bound & RL_TRACE_LOWER_NOFLOPS) != 0;
    num_or_null(o, "flops", !nof && (r->has_cost || r->flops > 0), r->flops);
    num_or_null(o, "bytes", r->has_cost, r->bytes);
    num_or_null(o, "intensity", !nof && r->has_cost && r->bytes > 0, r->intensity);
    /* bytes from below (a Triton launch, a compiled region): the roof
     * fraction is at least, the gain at most what is given */
    if (r->has_cost && (r->lower_bound & RL_TRACE_LOWER_BYTES))
      rli_out_puts(o, ",\"bytes_lower_bound\":true");
    rli_out_puts(o, ",\"bound\":");
    if (r->bound >= 0) rli_out_str(o, rl_bound_name(r->bound));
    else rli_out_puts(o, "null");
    rli_out_puts(o, ",\"peak_kind\":");
    if (r->peak_kind >= 0) rli_out_str(o, rl_peak_name(r->peak_kind));
    else rli_out_puts(o, "null");
    /* which rule chose the roof: the kernel's name or the op's dtype */
    rli_out_puts(o, ",\"roof_source\":");
    if (r->peak_kind >= 0) rli_out_str(o, r->peak_from_kernel ? "kernel_name" : "op_dtype");
    else rli_out_puts(o, "null");
    num_or_null(o, "time_s", r->has_cost, r->bound_time_s);
    num_or_null(o, "roof_fraction", r->has_cost && r->has_time, r->roof_fraction);
    num_or_null(o, "at_roof_s", r->has_cost, r->at_roof_s);
    num_or_null(o, "gain_s", r->has_cost && r->has_time, r->gain_s);
    /* faster than its roof (roof_fraction > 1, a negative gain) contradicts
     * the model: wrong hardware, wrong shapes or a timer problem */
    rli_out_printf(o, ",\"above_roof\":%s", r->has_cost && r->has_time && r->roof_fraction > 1 ? "true" : "false");
    rli_out_printf(o, ",\"measured\":%s", r->measured ? "true" : "false");
    rli_out_puts(o, ",\"dtype\":");
    if (r->dtype >= 0 && (r->roof == RL_TRACE_ROOF_CHIP || r->roof == RL_TRACE_ROOF_L2))
      rli_out_str(o, rl_dtype_name(r->dtype));
    else rli_out_puts(o, "null");
    rli_out_puts(o, ",\"roof\":");
    rli_out_str(o, rl_trace_roof_name(r->roof));
    if (r->family && r->family[0]) {
      rli_out_puts(o, ",\"family\":");
      rli_out_str(o, r->family);
    }
    if (r->reason >= 0) {
      rli_out_puts(o, ",\"reason\":");
      rli_out_str(o, rl_trace_reason_name(r->reason));
    }
    if (r->launch_id >= 0) {
      rli_out_printf(o, ",\"launch_id\":%lld", (long long)r->launch_id);
      num_or_null(o, "l1_bytes", r->l1_bytes >= 0, r->l1_bytes);
      num_or_null(o, "l2_bytes", r->l2_bytes >= 0, r->l2_bytes);
      num_or_null(o, "dram_bytes", r->dram_bytes >= 0, r->dram_bytes);
      num_or_null(o, "l1_intensity", r->l1_intensity >= 0, r->l1_intensity);
      num_or_null(o, "l2_intensity", r->l2_intensity >= 0, r->l2_intensity);
      num_or_null(o, "dram_intensity", r->dram_intensity >= 0, r->dram_intensity);
      num_or_null(o, "l1_bandwidth", r->l1_bw > 0, r->l1_bw);
      num_or_null(o, "l2_bandwidth", r->l2_bw > 0, r->l2_bw);
      num_or_null(o, "dram_bandwidth", r->dram_bw > 0, r->dram_bw);
      num_or_null(o, "compute_peak", r->compute_peak > 0, r->compute_peak);
      rli_out_puts(o, ",\"binding_level\":");
      if (r->binding_level >= 0) rli_out_str(o, rl_level_name(r->binding_level));
      else rli_out_puts(o, "null");
      int fr = r->binding_level >= 0 || r->compute_fraction > 0;
      num_or_null(o, "binding_fraction", fr, r->binding_fraction);
      num_or_null(o, "compute_fraction", fr, r->compute_fraction);
      num_or_null(o, "memory_fraction", fr && r->binding_level >= 0, r->memory_fraction);
      num_or_null(o, "sol_compute", r->sol_compute >= 0, r->sol_compute);
      num_or_null(o, "sol_memory", r->sol_memory >= 0, r->sol_memory);
      rli_out_printf(o, ",\"sol_disagree\":%s", r->sol_disagree ? "true" : "false");
      num_or_null(o, "occupancy_theoretical", r->occupancy_theoretical >= 0, r->occupancy_theoretical);
      num_or_null(o, "occupancy_achieved", r->occupancy_achieved >= 0, r->occupancy_achieved);
      num_or_null(o, "waves_per_sm", r->waves >= 0, r->waves);
      rli_out_printf(o, ",\"tail_effect\":%s", r->tail ? "true" : "false");
      rli_out_puts(o, ",\"flops_source\":");
      if (r->flops_source) rli_out_str(o, r->flops_source);
      else rli_out_puts(o, "null");
    }
    if (r->note) {
      rli_out_puts(o, ",\"note\":");
      rli_out_str(o, r->note);
    }
    if (r->why) {
      rli_out_puts(o, ",\"why\":");
      rli_out_str(o, r->why);
    }
    rli_out_puts(o, "}");
  }
}

size_t rl_trace_json(const rl_trace *t, const rl_hw *hw, const rl_trace_summary *s,
                     int32_t top, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  if (!t || !s) return rli_out_end(&o);
  rli_out_puts(&o, "{\"format\":");
  rli_out_str(&o, t->format);
  rli_out_puts(&o, ",\"device\":");
  if (t->device[0]) rli_out_str(&o, t->device);
  else rli_out_puts(&o, "null");
  rli_out_puts(&o, ",\"hw\":");
  if (hw) rli_out_str(&o, hw->id);
  else rli_out_puts(&o, "null");
  rli_out_printf(&o, ",\"kernels\":%lld", (long long)s->kernels);
  int ht = s->has_time;
  num_or_null(&o, "gpu_time_s", ht, s->gpu_time_s);
  num_or_null(&o, "span_s", s->has_span, s->span_s);
  num_or_null(&o, "idle_s", s->has_span, s->idle_s);
  num_or_null(&o, "busy_s", s->has_span, s->busy_s);
  num_or_null(&o, "busy_share", s->has_span, s->busy_share);
  /* what the timeline's repairs merged or dropped (rli_trace_tidy_timeline) */
  rli_out_printf(&o, ",\"devices\":%d,\"duplicates_dropped\":%lld", (int)s->devices,
                 (long long)s->duplicates);
  num_or_null(&o, "duplicate_s", 1, s->duplicate_s);
  rli_out_printf(&o, ",\"overlapping_merged\":%lld", (long long)s->overlapping);
  num_or_null(&o, "overlap_s", 1, s->overlap_s);
  rli_out_printf(&o, ",\"ends_before_start_dropped\":%lld", (long long)s->ends_before_start);
  rli_out_printf(&o, ",\"zero_duration_untimed\":%lld", (long long)s->zero_duration);
  num_or_null(&o, "compute_s", ht, s->compute_s);
  num_or_null(&o, "memory_s", ht, s->memory_s);
  num_or_null(&o, "overhead_s", ht, s->overhead_s);
  num_or_null(&o, "short_s", ht, s->short_s);
  num_or_null(&o, "unknown_s", ht, s->unknown_s);
  num_or_null(&o, "gain_s", ht, s->gain_s);
  num_or_null(&o, "fusion_s", ht, s->fusion_s);
  num_or_null(&o, "launch_overhead_s", 1, s->launch_overhead_s);
  num_or_null(&o, "covered_s", ht, s->covered_s);
  num_or_null(&o, "coverage", ht, s->coverage);
  rli_out_puts(&o, ",\"uncovered\":[");
  for (int32_t i = 0; i < s->n_uncovered; i++) {
    rli_out_puts(&o, i ? ",{\"reason\":" : "{\"reason\":");
    rli_out_str(&o, rl_trace_reason_name(s->uncovered[i].reason));
    num_or_null(&o, "measured_s", 1, s->uncovered[i].time_s);
    rli_out_puts(&o, "}");
  }
  rli_out_printf(&o, "],\"shapes_recorded\":%s", s->no_shapes ? "false" : "true");
  rli_out_printf(&o, ",\"copies\":%lld", (long long)s->copies);
  num_or_null(&o, "copy_s", ht, s->copy_s);
  rli_out_printf(&o, ",\"collective_kernels\":%lld", (long long)s->collectives);
  num_or_null(&o, "collective_s", ht, s->collective_s);
  num_or_null(&o, "network_s", ht, s->network_s);
  num_or_null(&o, "floor_s", 1, s->floor_s);
  num_or_null(&o, "overhead_cut_s", 1, s->overhead_cut_s);
  rli_out_puts(&o, ",\"floor_source\":");
  {
    /* the parameter it may name (`overhead`), as a record names it */
    char fs[256];
    rl_msg_spell(s->floor_source ? s->floor_source : "", "", '_', fs, sizeof fs);
    rli_out_str(&o, fs);
  }
  rli_out_printf(&o, ",\"unlinked\":%lld", (long long)t->unlinked);
  rli_out_printf(&o, ",\"rows_total\":%d,\"rows\":[", (int)t->nrows[0]);
  rows_json(&o, t->rows[0], t->nrows[0], top);
  rli_out_printf(&o, "],\"ops_total\":%d,\"ops\":[", (int)t->nrows[1]);
  rows_json(&o, t->rows[1], t->nrows[1], top);
  rli_out_printf(&o, "],\"collectives_total\":%d,\"collectives\":[", (int)t->ncolls);
  int32_t nc = top > 0 && t->ncolls > top ? top : t->ncolls;
  for (int32_t i = 0; i < nc; i++) {
    const rl_trace_coll *c = &t->colls[i];
    rli_out_puts(&o, i ? ",{\"name\":" : "{\"name\":");
    rli_out_str(&o, c->name);
    rli_out_puts(&o, ",\"dtype\":");
    if (c->dtype[0]) rli_out_str(&o, c->dtype);
    else rli_out_puts(&o, "null");
    rli_out_printf(&o, ",\"ranks\":%d,\"ranks_guess\":%s,\"count\":%lld", (int)c->ranks,
                   c->ranks_guess ? "true" : "false", (long long)c->count);
    int known = c->msg_bytes >= 0, bw = known && c->ranks >= 1;
    num_or_null(&o, "msg_bytes", known, c->msg_bytes);
    num_or_null(&o, "measured_s", 1, c->time_s);
    num_or_null(&o, "algbw", known && c->time_s > 0, c->algbw);
    num_or_null(&o, "busbw", bw && c->time_s > 0, c->busbw);
    num_or_null(&o, "link_bw", c->link_bw > 0, c->link_bw);
    num_or_null(&o, "roof_fraction", bw && c->link_bw > 0, c->roof_fraction);
    num_or_null(&o, "gain_s", bw && c->link_bw > 0, c->gain_s);
    rli_out_puts(&o, "}");
  }
  rli_out_puts(&o, "]");
  rli_out_printf(&o, ",\"fusion_total\":%d,\"fusion\":[", (int)t->nfusion);
  int32_t nf = top > 0 && t->nfusion > top ? top : t->nfusion;
  for (int32_t i = 0; i < nf; i++) {
    const rl_trace_fusion *f = &t->fusion[i];
    rli_out_puts(&o, i ? ",{\"name\":" : "{\"name\":");
    rli_out_str(&o, f->name);
    rli_out_printf(&o, ",\"by\":\"%s\",\"runs\":%lld,\"kernels\":%lld", f->by_op == 2 ? "module" : f->by_op ? "op" : "kernel",
                   (long long)f->runs, (long long)f->kernels);
    num_or_null(&o, "measured_s", 1, f->time_s);
    num_or_null(&o, "saving_s", 1, f->saving_s);
    rli_out_puts(&o, "}");
  }
  rli_out_puts(&o, "]}");
  return rli_out_end(&o);
}
