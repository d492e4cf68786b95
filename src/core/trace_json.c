/*
 * trace_json.c -- the JSON record of a trace's analysis (rl_trace_json):
 * the summary, the rows per kernel and per op, the collectives and the
 * fusion candidates. A row's keys are a field table (core/record.h), which
 * is also its record in docs/schema/trace.json.
 */
#include "core/trace_impl.h"
#include "core/record.h"

#include <math.h>

static void num_or_null(rli_out *o, const char *key, int known, double v) {
  rli_out_printf(o, ",\"%s\":", key);
  if (known && isfinite(v)) rli_out_num(o, v);
  else rli_out_puts(o, "null");
}

/* ---- the row record ------------------------------------------------------
 *
 * One row of rows (per kernel) or ops (per op): a field table
 * (core/record.h) that rows_json walks, and tools/gen_tables.py makes the
 * row record of docs/schema/trace.json from. */

static int row_timed(const void *rec) { return ((const rl_trace_row *)rec)->has_time != 0; }
static int row_costed(const void *rec) { return ((const rl_trace_row *)rec)->has_cost != 0; }
static int row_costed_timed(const void *rec) {
  const rl_trace_row *r = rec;
  return r->has_cost && r->has_time;
}
/* FLOPs not counted (RL_TRACE_LOWER_NOFLOPS): flops and intensity null */
static int row_flops_known(const void *rec) {
  const rl_trace_row *r = rec;
  return !(r->lower_bound & RL_TRACE_LOWER_NOFLOPS) && (r->has_cost || r->flops > 0);
}
static int row_intensity_known(const void *rec) {
  const rl_trace_row *r = rec;
  return !(r->lower_bound & RL_TRACE_LOWER_NOFLOPS) && r->has_cost && r->bytes > 0;
}
/* bytes from below (a Triton launch, a compiled region): the roof fraction
 * is at least, the gain at most what is given */
static int row_bytes_lower(const void *rec) {
  const rl_trace_row *r = rec;
  return r->has_cost && (r->lower_bound & RL_TRACE_LOWER_BYTES);
}
static double row_true(const void *rec) { (void)rec; return 1; }
/* which rule chose the roof: the kernel's name or the op's dtype */
static const char *roof_source_name(int32_t k) {
  static const char *const names[] = {"kernel_name", "op_dtype"};
  return k >= 0 && k < 2 ? names[k] : NULL;
}
static double row_roof_source(const void *rec) {
  const rl_trace_row *r = rec;
  return r->peak_kind < 0 ? -1 : r->peak_from_kernel ? 0 : 1;
}
/* faster than its roof (roof_fraction > 1, a negative gain) contradicts the
 * model: wrong hardware, wrong shapes or a timer problem */
static double row_above_roof(const void *rec) {
  const rl_trace_row *r = rec;
  return r->has_cost && r->has_time && r->roof_fraction > 1;
}
static int row_dtype_known(const void *rec) {
  const rl_trace_row *r = rec;
  return r->dtype >= 0 && (r->roof == RL_TRACE_ROOF_CHIP || r->roof == RL_TRACE_ROOF_L2);
}
static int row_has_family(const void *rec) {
  const rl_trace_row *r = rec;
  return r->family && r->family[0];
}
static int row_has_reason(const void *rec) { return ((const rl_trace_row *)rec)->reason >= 0; }
/* an Nsight Compute launch: the hierarchical figures */
static int row_launch(const void *rec) { return ((const rl_trace_row *)rec)->launch_id >= 0; }
static int row_fractions(const void *rec) {
  const rl_trace_row *r = rec;
  return r->binding_level >= 0 || r->compute_fraction > 0;
}
static int row_binding(const void *rec) { return ((const rl_trace_row *)rec)->binding_level >= 0; }
static int row_has_note(const void *rec) { return ((const rl_trace_row *)rec)->note != NULL; }
static int row_has_why(const void *rec) { return ((const rl_trace_row *)rec)->why != NULL; }

#define LAUNCH(key, unit, m, fl, doc) \
  {key, unit, doc, RLI_F_NUM, .flags = fl, RLI_AT(rl_trace_row, m), .present = row_launch}
static const rli_field row_fields[] = {
    {"name", NULL, "kernel name (ops: the op)", RLI_F_STR, RLI_AT(rl_trace_row, name)},
    {"op", NULL, "the launching op; \"\" when unknown", RLI_F_STR, RLI_AT(rl_trace_row, op)},
    {"count", NULL, "executions (ops: calls of the op)", RLI_F_INT, RLI_AT(rl_trace_row, count)},
    {"kernels", NULL, "kernel executions in the row", RLI_F_INT, RLI_AT(rl_trace_row, kernels)},
    {"measured_s", "s", "measured time: the sum of its kernels' durations", RLI_F_NUM, RLI_AT(rl_trace_row, time_s),
        .known = row_timed},
    {"flops", "FLOP", "floating-point operations F, summed over executions", RLI_F_NUM, RLI_AT(rl_trace_row, flops),
        .known = row_flops_known},
    {"bytes", "B", "memory traffic Q, summed over executions", RLI_F_NUM, RLI_AT(rl_trace_row, bytes), .known = row_costed},
    {"intensity", "FLOP/B", "arithmetic intensity F/Q", RLI_F_NUM, RLI_AT(rl_trace_row, intensity), .known = row_intensity_known},
    {"bytes_lower_bound", NULL,
     "bytes (and so the time at the roof) are a lower bound (a Triton launch, a compiled region): the roof "
     "fraction is at least, the gain at most what is given; present only then",
     RLI_F_BOOL, .get = row_true, .present = row_bytes_lower},
    {"bound", NULL, "what limits it: compute, memory, overhead (network for collectives); null when unknown", RLI_F_ENUM, RLI_AT(rl_trace_row, bound), .flags = RLI_NULLABLE, .name = rl_bound_name, .n_names = RL_BOUND_NETWORK + 1},
    {"peak_kind", NULL, "which peak of the device its roof is; null when unknown", RLI_F_ENUM, RLI_AT(rl_trace_row, peak_kind),
        .flags = RLI_NULLABLE, .name = rl_peak_name, .n_names = RL_PEAK_COUNT},
    {"roof_source", NULL,
     "which rule chose peak_kind: the format the kernel's name says its tensor cores ran (kernel_name: TF32, "
     "fp8, int8, fp4 GEMM/convolution/attention kernels) or the op's dtype (op_dtype); null without a chip roof",
     RLI_F_ENUM, .flags = RLI_NULLABLE, .get = row_roof_source, .name = roof_source_name, .n_names = 2},
    {"time_s", "s", "the roofline lower bound max(F/peak, Q/bandwidth), summed over executions", RLI_F_NUM, RLI_AT(rl_trace_row, bound_time_s), .known = row_costed},
    {"roof_fraction", NULL, "the bound's share of the measured time (time_s / measured_s)", RLI_F_NUM, RLI_AT(rl_trace_row, roof_fraction), .known = row_costed_timed},
    {"at_roof_s", "s", "the roofline bound, never below the floor, summed over executions", RLI_F_NUM, RLI_AT(rl_trace_row, at_roof_s), .known = row_costed},
    {"gain_s", "s", "measured time the roof says could be saved: max(0, measured_s - at_roof_s)", RLI_F_NUM, RLI_AT(rl_trace_row, gain_s), .known = row_costed_timed},
    {"above_roof", NULL, "faster than its roof: the model's F, Q or peak is wrong for it", RLI_F_BOOL,
     .get = row_above_roof},
    {"measured", NULL, "F and Q from hardware counters", RLI_F_BOOL, RLI_AT(rl_trace_row, measured)},
    {"dtype", NULL, "number format of F (its roof); null when none or not a chip or L2 roof", RLI_F_ENUM, RLI_AT(rl_trace_row, dtype),
        .known = row_dtype_known, .name = rl_dtype_name, .n_names = RL_DTYPE_COUNT},
    {"roof", NULL, "the roof it is measured against: the chip's peak and memory, the network link (collectives), memory "
        "bandwidth (device copies, memsets), the host link, or the chip's peak and its L2 bandwidth (a row "
        "faster than its DRAM roof whose bytes of one run fit the L2)", RLI_F_ENUM, RLI_AT(rl_trace_row, roof),
        .name = rl_trace_roof_name, .n_names = RL_TRACE_ROOF_L2 + 1},
    {"family", NULL, "kernel family from the name (\"GEMM library\", \"Triton pointwise\", \"NCCL\", ...)", RLI_F_STR, RLI_AT(rl_trace_row, family), .present = row_has_family},
    {"reason", NULL, "why F and Q are unknown", RLI_F_ENUM, RLI_AT(rl_trace_row, reason), .present = row_has_reason,
        .name = rl_trace_reason_name, .n_names = RL_REASON_COUNT},
    {"launch_id", NULL, "Nsight Compute: the launch's ID", RLI_F_INT, RLI_AT(rl_trace_row, launch_id), .present = row_launch},
    LAUNCH("l1_bytes", "B", l1_bytes, RLI_NULL_NEG, "bytes through L1 (l1tex__t_bytes.sum)"),
    LAUNCH("l2_bytes", "B", l2_bytes, RLI_NULL_NEG, "bytes through L2 (lts__t_bytes.sum)"),
    LAUNCH("dram_bytes", "B", dram_bytes, RLI_NULL_NEG, "bytes to and from DRAM (dram__bytes.sum)"),
    LAUNCH("l1_intensity", "FLOP/B", l1_intensity, RLI_NULL_NEG, "F / l1_bytes"),
    LAUNCH("l2_intensity", "FLOP/B", l2_intensity, RLI_NULL_NEG, "F / l2_bytes"),
    LAUNCH("dram_intensity", "FLOP/B", dram_intensity, RLI_NULL_NEG, "F / dram_bytes"),
    LAUNCH("l1_bandwidth", "B/s", l1_bw, RLI_NULL_NONPOS, "the L1 roof used"),
    LAUNCH("l2_bandwidth", "B/s", l2_bw, RLI_NULL_NONPOS, "the L2 roof used"),
    LAUNCH("dram_bandwidth", "B/s", dram_bw, RLI_NULL_NONPOS, "the DRAM roof used"),
    LAUNCH("compute_peak", "FLOP/s", compute_peak, RLI_NULL_NONPOS, "the flat roof used"),
    {"binding_level", NULL, "the level whose roof is lowest at its intensity", RLI_F_ENUM, RLI_AT(rl_trace_row, binding_level),
        .flags = RLI_NULLABLE, .present = row_launch, .name = rl_level_name, .n_names = RL_LEVEL_COUNT},
    {"binding_fraction", NULL, "max(F/peak, bytes/bandwidth at each level) / measured time", RLI_F_NUM, RLI_AT(rl_trace_row, binding_fraction), .present = row_launch, .known = row_fractions},
    {"compute_fraction", NULL, "(F/peak) / measured time", RLI_F_NUM, RLI_AT(rl_trace_row, compute_fraction),
        .present = row_launch, .known = row_fractions},
    {"memory_fraction", NULL, "largest bytes/bandwidth over the levels / measured time", RLI_F_NUM, RLI_AT(rl_trace_row, memory_fraction), .present = row_launch, .known = row_binding},
    LAUNCH("sol_compute", NULL, sol_compute, RLI_NULL_NEG, "Nsight Compute's sm__throughput, fraction of peak"),
    LAUNCH("sol_memory", NULL, sol_memory, RLI_NULL_NEG,
           "Nsight Compute's gpu__compute_memory_throughput, fraction of peak"),
    {"sol_disagree", NULL, "ncu's speed of light and our fractions differ by more than 20 points", RLI_F_BOOL, RLI_AT(rl_trace_row, sol_disagree), .present = row_launch},
    LAUNCH("occupancy_theoretical", NULL, occupancy_theoretical, RLI_NULL_NEG, "theoretical occupancy, a "
           "fraction"),
    LAUNCH("occupancy_achieved", NULL, occupancy_achieved, RLI_NULL_NEG, "achieved occupancy, a fraction"),
    LAUNCH("waves_per_sm", NULL, waves, RLI_NULL_NEG, "waves per SM"),
    {"tail_effect", NULL, "less than one full wave (idle SMs)", RLI_F_BOOL, RLI_AT(rl_trace_row, tail), .present = row_launch},
    {"flops_source", NULL, "how F was counted", RLI_F_STR, RLI_AT(rl_trace_row, flops_source), .flags = RLI_NULLABLE,
        .present = row_launch},
    {"note", NULL, "what the hierarchical figures lack (ncu); how F and Q were found when not plainly", RLI_F_STR, RLI_AT(rl_trace_row, note), .present = row_has_note},
    {"why", NULL, "why F and Q (or the time) are unknown", RLI_F_STR, RLI_AT(rl_trace_row, why), .present = row_has_why},
};
#undef LAUNCH
RLI_RECORD(rli_trace_row_record, "trace_row", "one row of rows (per kernel) or ops (per op)", row_fields);

static void rows_json(rli_out *o, const rl_trace_row *rows, int32_t n, int32_t top) {
  if (top > 0 && n > top) n = top;
  for (int32_t i = 0; i < n; i++) {
    if (i) rli_out_puts(o, ",");
    rli_record_write(o, &rli_trace_row_record, &rows[i]);
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
