/*
 * trace_json.c -- the JSON record of a trace's analysis (rl_trace_json):
 * the summary, the rows per kernel and per op, the collectives and the
 * fusion candidates. Each is a field table (core/record.h), which is also
 * its record in docs/schema/trace.json (make gen).
 */
#include "core/trace_impl.h"
#include "core/record.h"

#include <math.h>
#include <string.h>

/* ---- the row record ------------------------------------------------------
 *
 * One row of rows (per kernel) or ops (per op): a field table
 * (core/record.h) that the document's rows and ops are written by, and tools/gen_tables.py makes the
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
 * model: wrong hardware, wrong shapes or a timer problem. So does a time at
 * the roof (each execution at least its bound and the floor, the shortest
 * kernel) above the measured one: some execution ran faster than its bound
 * (a 2021 profiler's integer-microsecond durations: a 4.4 us memset of 4 MiB
 * recorded as 4 us, 1.05 TB/s on a 900 GB/s V100). cli/cmd_trace.c's CSV
 * says the same. */
static double row_above_roof(const void *rec) {
  const rl_trace_row *r = rec;
  return r->has_cost && r->has_time &&
         (r->roof_fraction > 1 || r->at_roof_s > r->time_s * (1 + 1e-9) + 1e-15);
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
/* a CPU trace's row with bytes: the cache level bounding them */
static int row_has_level(const void *rec) { return ((const rl_trace_row *)rec)->level >= 0; }

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
        "faster than its DRAM roof that the L2 explains: the cache-aware roof)", RLI_F_ENUM, RLI_AT(rl_trace_row, roof),
        .name = rl_trace_roof_name, .n_names = RL_TRACE_ROOF_L2 + 1},
    {"level", NULL, "CPU traces: the memory level whose roof bounds its bytes (l1, l2, l3, dram): the one its "
     "working set fits in (per core for L1 and L2, times the threads); present only for CPU rows with bytes",
     RLI_F_ENUM, RLI_AT(rl_trace_row, level), .present = row_has_level, .name = rl_level_name,
     .n_names = RL_LEVEL_COUNT},
    {"working_set", "B", "CPU traces: the distinct bytes one execution touches (the largest of the row's), "
     "which chose level; present with level", RLI_F_NUM, RLI_AT(rl_trace_row, working_set),
     .present = row_has_level},
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

/* ---- the collectives, the fusion candidates, the uncovered time ------- */

static int coll_sized(const void *rec) { return ((const rl_trace_coll *)rec)->msg_bytes >= 0; }
static double coll_bytes(const void *rec) {
  const rl_trace_coll *c = rec;
  return (double)c->count * c->msg_bytes;
}
static int coll_has_dtype(const void *rec) { return ((const rl_trace_coll *)rec)->dtype[0] != 0; }
static int coll_algbw_known(const void *rec) {
  const rl_trace_coll *c = rec;
  return c->msg_bytes >= 0 && c->time_s > 0;
}
/* busbw needs the group size n (its factor) */
static int coll_busbw_known(const void *rec) {
  const rl_trace_coll *c = rec;
  return c->msg_bytes >= 0 && c->ranks >= 1 && c->time_s > 0;
}
static int coll_has_link(const void *rec) { return ((const rl_trace_coll *)rec)->link_bw > 0; }
static int coll_roof_known(const void *rec) {
  const rl_trace_coll *c = rec;
  return c->msg_bytes >= 0 && c->ranks >= 1 && c->link_bw > 0;
}

static const rli_field coll_fields[] = {
    {"kind", NULL, "the collective: allreduce, allgather, reducescatter, broadcast, reduce, alltoall, "
     "sendrecv, ... (a job's collectives name it the same)", RLI_F_STR, RLI_AT(rl_trace_coll, name)},
    {"dtype", NULL, "element type as recorded; null when unknown", RLI_F_STR, RLI_AT(rl_trace_coll, dtype),
     .flags = RLI_NULLABLE, .known = coll_has_dtype},
    {"ranks", NULL, "group size n", RLI_F_INT, RLI_AT(rl_trace_coll, ranks)},
    {"ranks_guess", NULL, "n is the job's world size (the trace does not record the group's)", RLI_F_BOOL,
     RLI_AT(rl_trace_coll, ranks_guess)},
    {"count", NULL, "kernel executions", RLI_F_INT, RLI_AT(rl_trace_coll, count)},
    {"msg_bytes", "B", "message size S of one call; null when unknown", RLI_F_NUM,
     RLI_AT(rl_trace_coll, msg_bytes), .known = coll_sized},
    {"bytes", "B", "the sum of S over the calls (count x msg_bytes), as a job's collectives give it; null when "
     "unknown", RLI_F_NUM, .get = coll_bytes, .known = coll_sized},
    {"measured_s", "s", "measured time: the sum of its kernels' durations", RLI_F_NUM,
     RLI_AT(rl_trace_coll, time_s)},
    {"algbw", "B/s", "count x S / measured_s (nccl-tests' algbw); null without S or a time", RLI_F_NUM,
     RLI_AT(rl_trace_coll, algbw), .known = coll_algbw_known},
    {"busbw", "B/s", "algbw x the collective's factor in n (nccl-tests' busbw); null without S, n or a time",
     RLI_F_NUM, RLI_AT(rl_trace_coll, busbw), .known = coll_busbw_known},
    {"link_bw", "B/s", "the roof: the device's interconnect, one direction; null when unknown", RLI_F_NUM,
     RLI_AT(rl_trace_coll, link_bw), .known = coll_has_link},
    {"roof_fraction", NULL, "busbw / link_bw; null without S, n or a link figure", RLI_F_NUM,
     RLI_AT(rl_trace_coll, roof_fraction), .known = coll_roof_known},
    {"gain_s", "s", "measured time the roof says could be saved: max(0, measured_s - count x the time of one "
     "call at the roof, never below the floor); null without S, n or a link figure", RLI_F_NUM,
     RLI_AT(rl_trace_coll, gain_s), .known = coll_roof_known},
};
static RLI_RECORD(coll_record, "trace_collective", "the collectives of one kind, message size and group size",
                  coll_fields);

/* by: what name is (rl_trace_fusion's by_op: 2 module, 1 op, 0 kernel) */
static const char *fusion_by_name(int32_t k) {
  static const char *const names[] = {"kernel", "op", "module"};
  return k >= 0 && k < 3 ? names[k] : NULL;
}
static double fusion_by(const void *rec) {
  int32_t b = ((const rl_trace_fusion *)rec)->by_op;
  return b == 2 ? 2 : b ? 1 : 0;
}

static const rli_field fusion_fields[] = {
    {"name", NULL, "the nn.Module, the op, or the kernel name", RLI_F_STR, RLI_AT(rl_trace_fusion, name)},
    {"by", NULL, "what name is: an nn.Module (module, where the trace records them: with_stack=True), an op "
     "(op) or a kernel name (kernel)", RLI_F_ENUM, .get = fusion_by, .name = fusion_by_name, .n_names = 3},
    {"runs", NULL, "runs found", RLI_F_INT, RLI_AT(rl_trace_fusion, runs)},
    {"kernels", NULL, "kernel executions in them", RLI_F_INT, RLI_AT(rl_trace_fusion, kernels)},
    {"measured_s", "s", "their measured time", RLI_F_NUM, RLI_AT(rl_trace_fusion, time_s)},
    {"saving_s", "s", "measured time minus one floor per run", RLI_F_NUM, RLI_AT(rl_trace_fusion, saving_s)},
};
static RLI_RECORD(fusion_record, "trace_fusion",
                  "a fusion candidate: runs of two or more consecutive small kernels of one module, op or kernel",
                  fusion_fields);

static const rli_field uncovered_fields[] = {
    {"reason", NULL, "why F and Q are unknown", RLI_F_ENUM, RLI_AT(rl_trace_uncovered, reason),
     .name = rl_trace_reason_name, .n_names = RL_REASON_COUNT},
    {"measured_s", "s", "GPU time without F and Q for that reason", RLI_F_NUM,
     RLI_AT(rl_trace_uncovered, time_s)},
};
static RLI_RECORD(uncovered_record, "trace_uncovered", "GPU time without a roof, for one reason",
                  uncovered_fields);

/* ---- the idle record ------------------------------------------------------
 *
 * The GPU's idle time (rl_trace_get_idle): its share of the span, whether
 * it is the headline, the biggest gaps with the host ops during them. */
static const rli_field gap_op_fields[] = {
    {"name", NULL, "the host op", RLI_F_STR, RLI_AT(rl_trace_gap_op, name)},
    {"overlap_s", "s", "its calls' time inside the gap (summed over threads, so it can exceed the gap)",
     RLI_F_NUM, RLI_AT(rl_trace_gap_op, overlap_s)},
};
static RLI_RECORD(gap_op_record, "trace_gap_op", "a host op during an idle gap", gap_op_fields);

static const rli_field gap_fields[] = {
    {"start_s", "s", "its start, from the span's start (the first GPU event's)", RLI_F_NUM,
     RLI_AT(rl_trace_gap, start_s)},
    {"length_s", "s", "how long no GPU ran a kernel or copy", RLI_F_NUM, RLI_AT(rl_trace_gap, length_s)},
    {"ops", NULL,
     "the host ops during it (Kineto's cpu_op and user annotations at the deepest level of nesting that covers "
     "half the gap), most time inside it first; at most 3, none when the file records none then",
     RLI_F_OBJ, RLI_ARRAY(rl_trace_gap, ops, nops), .sub = &gap_op_record},
};
static RLI_RECORD(gap_record, "trace_gap", "one idle gap of the GPUs", gap_fields);

static const rli_field idle_fields[] = {
    {"share", NULL, "idle_s / span_s: the share of the span when no GPU ran a kernel or copy; null without a span",
     RLI_F_NUM, RLI_AT(rl_trace_idle, share)},
    {"headline", NULL,
     "share >= 0.2 (RL_TRACE_IDLE_HEADLINE): the idle time is the headline, printed before the kernel tables",
     RLI_F_BOOL, RLI_AT(rl_trace_idle, headline)},
    {"host_ops", NULL, "the file records host ops (Kineto's cpu_op), so the gaps can name them", RLI_F_BOOL,
     RLI_AT(rl_trace_idle, host_ops)},
    {"gaps", NULL, "the biggest idle gaps, largest first (at most 5)", RLI_F_OBJ,
     RLI_ARRAY(rl_trace_idle, gaps, ngaps), .sub = &gap_record},
};
static RLI_RECORD(idle_record, "trace_idle",
                  "the GPU's idle time: the headline when large, the biggest gaps and the host ops during them",
                  idle_fields);

/* ---- the document ----------------------------------------------------------
 *
 * What rl_trace_json writes, gathered in one struct for its field table:
 * the trace's names, a copy of the summary, the lists (the first top of
 * each, all when top <= 0) and their lengths. */
/* A CPU trace's processor and threads (its kernels are the CPU ops). */
typedef struct trace_cpu {
  const char *model; /* NULL when the file names none */
  int32_t threads;   /* 0: unknown */
} trace_cpu;

static int cpu_threads_known(const void *rec) { return ((const trace_cpu *)rec)->threads > 0; }
static const rli_field cpu_fields[] = {
    {"model", NULL, "the processor the file names (cpu_model); null when none", RLI_F_STR,
     RLI_AT(trace_cpu, model), .flags = RLI_NULLABLE},
    {"threads", NULL, "the intra-op threads the ops ran with (the file's intra_op_threads, or --threads); null "
     "when unknown", RLI_F_INT, RLI_AT(trace_cpu, threads), .flags = RLI_NULLABLE, .known = cpu_threads_known},
};
static RLI_RECORD(cpu_record, "trace_cpu", "a CPU trace's processor and threads", cpu_fields);

typedef struct trace_doc {
  const char *format, *device, *hw; /* device, hw: NULL when none */
  int32_t is_cpu;
  trace_cpu cpu;
  rl_trace_summary s;
  const rl_trace_uncovered *uncovered; /* s.uncovered */
  char floor_source[256];           /* the parameter it names spelled as a key */
  int64_t unlinked;
  int64_t graph_matched, graph_unmatched; /* CUDA-graph replays (trace_graph.c) */
  int64_t graph_unreplayed;
  const char *model;                /* rl_trace_set_model's id; NULL none */
  const rl_trace_row *rows, *ops;
  const rl_trace_coll *colls;
  const rl_trace_fusion *fusion;
  rl_trace_idle idle;               /* rl_trace_get_idle's; share NaN before an analysis */
  int32_t rows_total, ops_total, colls_total, fusion_total; /* in all */
  int32_t rows_shown, ops_shown, colls_shown, fusion_shown; /* written */
} trace_doc;

static int doc_timed(const void *rec) { return ((const trace_doc *)rec)->s.has_time != 0; }
static int doc_spanned(const void *rec) { return ((const trace_doc *)rec)->s.has_span != 0; }
/* a CPU trace keeps its span (no busy or idle time: a self time is no interval) */
static int doc_span(const void *rec) {
  const trace_doc *d = rec;
  return d->s.has_span || (d->is_cpu && d->s.has_time);
}
static int doc_cpu(const void *rec) { return ((const trace_doc *)rec)->is_cpu; }
static double doc_shapes(const void *rec) { return !((const trace_doc *)rec)->s.no_shapes; }

/* a figure of the summary: always written (null when not finite), null
 * without kernel times (TIMED), null without a timeline (SPANNED) */
#define SUM(key, unit, m, doc) {key, unit, doc, RLI_F_NUM, RLI_AT(trace_doc, s.m)}
#define TIMED(key, unit, m, doc) {key, unit, doc, RLI_F_NUM, RLI_AT(trace_doc, s.m), .known = doc_timed}
#define SPANNED(key, unit, m, doc) {key, unit, doc, RLI_F_NUM, RLI_AT(trace_doc, s.m), .known = doc_spanned}
#define COUNT(key, m, doc) {key, NULL, doc, RLI_F_INT, RLI_AT(trace_doc, s.m)}
static const rli_field doc_fields[] = {
    {"format", NULL, "the profiler's format: kineto, ncu or nsys", RLI_F_STR, RLI_AT(trace_doc, format)},
    {"device", NULL, "the device as the file names it; null when none", RLI_F_STR, RLI_AT(trace_doc, device),
     .flags = RLI_NULLABLE},
    {"hw", NULL, "hardware id of the roofs (data/hardware.csv), \"custom\" for a device given by its figures; "
     "null when none", RLI_F_STR, RLI_AT(trace_doc, hw), .flags = RLI_NULLABLE},
    {"cpu", NULL, "a CPU trace (the CPU ops of a PyTorch profile are its kernels): the processor the file names "
     "and the intra-op threads its ops ran with; null for other traces", RLI_F_OBJ, RLI_AT(trace_doc, cpu),
     .flags = RLI_NULLABLE, .known = doc_cpu, .sub = &cpu_record},
    COUNT("kernels", kernels, "kernel executions"),
    TIMED("gpu_time_s", "s", gpu_time_s, "sum of the kernels' durations; null when the file gives no times"),
    {"span_s", "s", "first kernel start to last kernel end (a CPU trace: first op to last); null without a "
     "timeline (ncu)", RLI_F_NUM, RLI_AT(trace_doc, s.span_s), .known = doc_span},
    SPANNED("idle_s", "s", idle_s, "span - busy (no GPU busy); null without a timeline"),
    SPANNED("busy_s", "s", busy_s, "union of the kernel intervals of all devices (some GPU busy), never above "
            "span_s; null without a timeline"),
    SPANNED("busy_share", NULL, busy_share, "busy_s / span_s; null without a timeline"),
    {"idle", NULL, "the GPU's idle time: the headline when large, the biggest gaps and the host ops during them",
     RLI_F_OBJ, RLI_AT(trace_doc, idle), .sub = &idle_record},
    COUNT("devices", devices, "distinct devices among the timed kernels; busy_s is the time some of them was "
          "busy, so busy_s <= span_s"),
    COUNT("duplicates_dropped", duplicates, "events given twice (same device, stream, name, start and "
          "duration): dropped from every figure"),
    SUM("duplicate_s", "s", duplicate_s, "their time"),
    COUNT("overlapping_merged", overlapping, "kernels starting over 1 ns before the previous ones of their "
          "stream end (a clock problem): merged in busy_s, kept in gpu_time_s"),
    SUM("overlap_s", "s", overlap_s, "the time they overlap"),
    COUNT("ends_before_start_dropped", ends_before_start, "kernels ending before they start: dropped"),
    COUNT("zero_duration_untimed", zero_duration, "kernels the file gives a duration under 1 ps (0 included): "
          "kept with no time, left out of every time figure and roof %"),
    TIMED("compute_bound_s", "s", compute_s, "kernel time in compute-bound kernels (the roofline regime)"),
    TIMED("memory_bound_s", "s", memory_s, "kernel time in memory-bound kernels (the roofline regime)"),
    TIMED("overhead_s", "s", overhead_s, "short or overhead-bound kernels; the GPU's idle time is apart (idle_s, "
          "idle), not in it"),
    TIMED("short_s", "s", short_s, "of which kernels shorter than the overhead"),
    TIMED("unknown_s", "s", unknown_s, "kernel time with no F and Q"),
    TIMED("gain_s", "s", gain_s, "measured time the roof says could be saved: the kernel rows' gains summed"),
    TIMED("fusion_s", "s", fusion_s, "what fusing the fusion candidates' runs could save"),
    SUM("launch_overhead_s", "s", launch_overhead_s, "the launch overhead assumed per kernel"),
    TIMED("covered_s", "s", covered_s, "GPU time with F and Q (or bytes) and a roof"),
    TIMED("coverage", NULL, coverage, "covered_s / gpu_time_s, 0..1"),
    {"uncovered", NULL, "the GPU time without a roof by reason, largest first", RLI_F_OBJ,
     RLI_ITEMS(trace_doc, uncovered, s.n_uncovered),
     .sub = &uncovered_record},
    {"shapes_recorded", NULL, "the ops were recorded with their shapes", RLI_F_BOOL, .get = doc_shapes},
    COUNT("copies", copies, "memcpy and memset executions (in gpu_time_s)"),
    TIMED("copy_s", "s", copy_s, "their time"),
    COUNT("collective_kernels", collectives, "collective kernel executions: those whose op is a collective and those whose name says so (NCCL, RCCL, HCCL), as a job counts a rank's job_collectives; the collectives table holds those with a size"),
    TIMED("collective_s", "s", collective_s, "their time"),
    TIMED("network_s", "s", network_s, "collective time at or above the overhead (its regime: the "
          "interconnect)"),
    SUM("floor_s", "s", floor_s, "the least time a kernel takes at its roof: the launch overhead, lowered to "
        "the shortest kernel the file times"),
    SUM("overhead_cut_s", "s", overhead_cut_s, "kernels (or bounds) shorter than this are overhead-bound: the "
        "launch overhead (ncu: the floor)"),
    {"floor_source", NULL, "where floor_s comes from", RLI_F_TEXT, RLI_AT(trace_doc, floor_source)},
    {"unlinked", NULL, "kernels whose launching op the trace does not link", RLI_F_INT,
     RLI_AT(trace_doc, unlinked)},
    {"graph_kernels_matched", NULL, "kernels of CUDA-graph replays (cudaGraphLaunch, hipGraphLaunch) given "
     "the op of their capture's launch, matched by kernel name in order", RLI_F_INT,
     RLI_AT(trace_doc, graph_matched)},
    {"graph_kernels_unmatched", NULL, "kernels of CUDA-graph replays no capture matched (the reason is on "
     "their rows)", RLI_F_INT, RLI_AT(trace_doc, graph_unmatched)},
    {"graph_launches_unreplayed", NULL, "launches of the captures of matched replays that have no kernel in "
     "their replay: a replay whose kernels are its capture's first launches, the trace missing its last "
     "records", RLI_F_INT, RLI_AT(trace_doc, graph_unreplayed)},
    {"model", NULL, "the model the trace ran, as --model named it: the MoE ops recorded with only their hidden "
     "states and router logits (vLLM's moe_forward) take their experts from it; null when none was named",
     RLI_F_STR, RLI_AT(trace_doc, model), .flags = RLI_NULLABLE},
    {"rows_total", NULL, "kernel rows in all", RLI_F_INT, RLI_AT(trace_doc, rows_total)},
    {"rows", NULL, "one row per kernel (name and launching op), ranked by gain; the first top (all when not "
     "given)", RLI_F_OBJ, RLI_ITEMS(trace_doc, rows, rows_shown), .sub = &rli_trace_row_record},
    {"ops_total", NULL, "op rows in all", RLI_F_INT, RLI_AT(trace_doc, ops_total)},
    {"ops", NULL, "one row per op, ranked by gain; the first top (all when not given)", RLI_F_OBJ,
     RLI_ITEMS(trace_doc, ops, ops_shown),
     .sub = &rli_trace_row_record},
    {"collectives_total", NULL, "collective rows in all", RLI_F_INT, RLI_AT(trace_doc, colls_total)},
    {"collectives", NULL, "the collectives by kind, message size and group size (nccl-tests' conventions), by "
     "time; the first top (all when not given)", RLI_F_OBJ, RLI_ITEMS(trace_doc, colls, colls_shown),
     .sub = &coll_record},
    {"fusion_total", NULL, "fusion candidates in all", RLI_F_INT, RLI_AT(trace_doc, fusion_total)},
    {"fusion", NULL, "runs of consecutive small kernels of one module, op (or kernel name), by saving; the "
     "first top (all when not given)", RLI_F_OBJ, RLI_ITEMS(trace_doc, fusion, fusion_shown),
     .sub = &fusion_record},
};
#undef SUM
#undef TIMED
#undef SPANNED
#undef COUNT
RLI_RECORD(rli_trace_record, "trace", "roofline trace: one trace's kernels under their roofs", doc_fields);

size_t rl_trace_json(const rl_trace *t, const rl_hw *hw, const rl_trace_summary *s,
                     int32_t top, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  if (!t || !s) return rli_out_end(&o);
  trace_doc doc, *d = &doc;
  memset(d, 0, sizeof *d);
  d->format = t->format;
  d->device = t->device[0] ? t->device : NULL;
  d->hw = hw ? hw->id : NULL;
  d->is_cpu = t->cpu;
  d->cpu.model = t->cpu_model[0] ? t->cpu_model : NULL;
  d->cpu.threads = t->threads;
  d->s = *s;
  /* the parameter it may name (`overhead`), as a record names it */
  rl_msg_spell(s->floor_source ? s->floor_source : "", "", '_', d->floor_source, sizeof d->floor_source);
  d->unlinked = t->unlinked;
  d->graph_matched = t->graph_matched;
  d->graph_unmatched = t->graph_unmatched;
  d->graph_unreplayed = t->graph_unreplayed;
  d->model = t->model_id[0] ? t->model_id : NULL;
  d->uncovered = d->s.uncovered;
  d->rows = t->rows[0], d->rows_total = d->rows_shown = t->nrows[0];
  d->ops = t->rows[1], d->ops_total = d->ops_shown = t->nrows[1];
  d->colls = t->colls, d->colls_total = d->colls_shown = t->ncolls;
  d->fusion = t->fusion, d->fusion_total = d->fusion_shown = t->nfusion;
  const rl_trace_idle *idle = rl_trace_get_idle(t);
  if (idle) d->idle = *idle;
  else d->idle.share = (double)NAN;
  if (top > 0) {
    int32_t *shown[] = {&d->rows_shown, &d->ops_shown, &d->colls_shown, &d->fusion_shown};
    for (int i = 0; i < 4; i++)
      if (*shown[i] > top) *shown[i] = top;
  }
  rli_record_write(&o, &rli_trace_record, d);
  return rli_out_end(&o);
}
