/*
 * cmd_trace.c -- `roofline trace FILE`: every kernel of a PyTorch (Kineto)
 * trace, an Nsight Compute CSV or an Nsight Systems SQLite export under
 * its roof, ranked by the time still to gain (the usual profiling order,
 * step 3).
 */
#include "cli.h"
#include "cli_llm.h"
#include "charts.h"
#include "outfile.h"
#include "plot_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char help[] =
    "usage: roofline trace FILE [--hw ID] [--top N] [--overhead T] [--format F]\n"
    "                           [--cpu] [--threads N] [--capture CAPTURE] [--model NAME]\n"
    "                           [--plot out.svg] [--json | --csv]\n"
    "       roofline trace DIR | FILE... | 'GLOB' [-j N] [--hta] [--hw ID] [--top N]\n"
    "                           [--model NAME] [--json]\n"
    "\n"
    "Reads a profiler's file and puts each kernel under its roof:\n"
    "  PyTorch profiler traces (.json, .json.gz; Kineto, 2021 to today's format):\n"
    "      each kernel linked to the op that launched it (correlation id -> launch\n"
    "      call -> innermost enclosing CPU op); F and Q from the op's recorded shapes\n"
    "      (record_shapes=True) for 205 ATen ops: GEMMs, convolution and its\n"
    "      backward in every spelling, batch/layer/group/RMS norm and backward,\n"
    "      activations and backward, dropout, pooling, reductions, losses,\n"
    "      copies and indexing, fused attention forward and backward, fused\n"
    "      optimizers and _foreach_ lists; for 12 FBGEMM ops; for the serving\n"
    "      engines' and kernel libraries' custom ops of data/custom_ops.csv\n"
    "      (vLLM, SGLang, aiter, FlashAttention, TensorRT-LLM, ...); Triton\n"
    "      launches and compiled regions with shapes: their bytes from below\n"
    "      (each tensor once), against the memory roof\n"
    "  PyTorch CPU profiles (cpu_op events, no GPU kernels; or --cpu): every ATen\n"
    "      op call a kernel with its self time (its duration less the ops it\n"
    "      called), its thread its stream, F and Q from the same op models (its\n"
    "      own share: a dispatcher whose callees do its work has none), under this\n"
    "      machine's measured roofs: its FLOPs on the peak of its format, its bytes\n"
    "      on the roof of the cache level its working set fits in (L1, L2, L3,\n"
    "      DRAM), for the threads it ran with\n"
    "  Nsight Compute CSV (ncu --csv, details or raw page): F and Q measured\n"
    "      (SASS FLOP counters, tensor-pipe counts, dram__bytes.sum); one row per\n"
    "      launch and the hierarchical roofline: bytes and intensity at L1, L2 and\n"
    "      DRAM, the binding level and its roof fraction, ncu's speed of light\n"
    "      beside ours (flagged > 20 points apart), occupancy, waves per SM (tail)\n"
    "  Nsight Systems SQLite (nsys export --type sqlite): kernel times, gaps, and\n"
    "      the NVTX range around each launch as its op; no F or Q\n"
    "\n"
    "Every report starts with the coverage: the share of GPU time (kernels and\n"
    "copies) under a roof, and why the rest is not, in the report's words: 'no\n"
    "shapes recorded', 'compiled region', 'tensor lists: sizes not recorded',\n"
    "'no cost model for the op', 'launched before the profiling window', 'launch\n"
    "inside no CPU op', 'collective size not recorded', 'no roof for it in the\n"
    "database', 'shapes or sizes not usable', 'times only (the profiler counts\n"
    "no FLOPs or bytes)', 'refuted by the run: fewer bytes than counted' (bytes\n"
    "counted from below that a call took too little time to move, even from the\n"
    "L2), 'other'.\n"
    "Collectives (NCCL kernels) get nccl-tests' algbw and busbw from their message\n"
    "size (record_param_comms args or the nccl:* op's shapes) against the\n"
    "device's interconnect, in their own table; memcpy and memset are rows of\n"
    "their own (bytes against HBM, or the host link).\n"
    "\n"
    "Per kernel (by kernel name and op) and per op: count, time, F, Q, intensity,\n"
    "bound, bound time max(F/peak, Q/bw), fraction of the roof and the gain still\n"
    "possible, ranked by gain: time - max(bound time, floor) per execution, where\n"
    "the floor is the least time any kernel takes (the launch overhead; for ncu the\n"
    "shortest launch in the export, at most the overhead). Overhead-bound kernels\n"
    "(bound time below the floor) gain nothing alone; runs of consecutive small\n"
    "kernels of one op (of one nn.Module where the trace records modules:\n"
    "with_stack=True) are listed as fusion candidates instead (saving: their time\n"
    "minus one floor per run). Kernels whose F and Q cannot be derived are listed\n"
    "with their time and the reason. Totals: GPU busy share of the span; time in\n"
    "compute-bound, memory-bound and overhead (kernels shorter than the floor,\n"
    "overhead-bound kernels, and the GPU's idle gaps). Busy: some GPU busy, never\n"
    "more than the span. Repairs, said in a 'repaired' line: an event given twice\n"
    "is dropped, kernels overlapping on one stream are merged in the busy time, a\n"
    "kernel ending before it starts is dropped.\n"
    "\n"
    "flags:\n"
    "@--hw\n"
    "@--bw\n"
    "@--top\n"
    "@--overhead\n"
    "@--format\n"
    "@--capture\n"
    "@--model\n"
    "@--plot\n"
    "@--cpu\n"
    "@--threads\n"
    "  --json, --csv  machine-readable output (CSV: the kernel rows; of a job: a row per rank)\n"
    "\n"
    "A distributed job (a folder, several files or a glob of Kineto traces, one\n"
    "per rank; rank and world size from each file's distributedInfo): one row\n"
    "per rank with its GPU time, the roofline regimes and gain, and Holistic\n"
    "Trace Analysis' figures (idle, compute and non-compute shares of the GPU\n"
    "span; idle time waiting for the host, for the previous kernel, other;\n"
    "the share of communication that overlaps computation); the stragglers\n"
    "(collectives matched across ranks by their order on their process group:\n"
    "the others' wait for the rank that started last), the collectives' busbw\n"
    "with and without that wait (per process group and kind: a slow rank opens\n"
    "a gap between the two, a slow link does not), and the spread of the top\n"
    "kernels' time across ranks. Wrong world sizes, duplicate or missing\n"
    "ranks, different steps and clock offsets (aligned on the first\n"
    "collective) are named.\n"
    "@--jobs\n"
    "@--hta\n"
    "  build/roofline-mpi (make mpi): mpirun -n P build/roofline-mpi trace DIR\n"
    "                 spreads the files over P processes, same output\n"
    "\n"
    "examples:\n"
    "  roofline trace rank0.pt.trace.json.gz\n"
    "  roofline trace report.csv --hw a100-40gb --top 5\n"
    "  roofline trace report.sqlite --json\n"
    "  roofline trace cpu.trace.json.gz --hw measured --hw-file my-cpu.csv\n"
    "  roofline trace traces/ -j 8\n";

typedef struct json_arg {
  const rl_trace *t;
  const rl_hw *hw;
  const rl_trace_summary *s;
  int32_t top;
} json_arg;

static size_t json_fn(void *p, char *buf, size_t cap) {
  json_arg *a = p;
  return rl_trace_json(a->t, a->hw, a->s, a->top, buf, cap);
}

static const char *pct(char *buf, size_t cap, double part, double whole) {
  if (whole > 0) snprintf(buf, cap, "%.1f%%", 100 * part / whole);
  else snprintf(buf, cap, "-");
  return buf;
}

/* The first lines of every report: the share of GPU time under a roof,
 * and why the rest is not. */
static void print_coverage(cli_ctx *ctx, const rl_trace_summary *s, int cpu) {
  FILE *o = ctx->out;
  char b1[48], b2[48], p1[16];
  if (!s->has_time) {
    fputs("coverage   unknown: the file gives no kernel times\n", o);
  } else {
    fprintf(o, "coverage   %s of %s %s time under a roof (%s)\n",
            cli_q(b1, sizeof b1, s->covered_s, RL_UNIT_SECONDS),
            cli_q(b2, sizeof b2, s->gpu_time_s, RL_UNIT_SECONDS), cpu ? "CPU op" : "GPU",
            pct(p1, sizeof p1, s->covered_s, s->gpu_time_s));
    for (int32_t i = 0; i < s->n_uncovered; i++)
      fprintf(o, "  %-9s %s: %s (%s)\n", i ? "" : "rest", rl_trace_reason_name(s->uncovered[i].reason),
              cli_q(b1, sizeof b1, s->uncovered[i].time_s, RL_UNIT_SECONDS),
              pct(p1, sizeof p1, s->uncovered[i].time_s, s->gpu_time_s));
  }
  if (s->no_shapes)
    fputs("shapes     not recorded: profile with record_shapes=True for the F and Q of the ATen ops\n", o);
}

static void print_colls(cli_ctx *ctx, const rl_trace_coll *c, int32_t n, int32_t top) {
  const char *hdr[] = {"collective", "dtype", "ranks", "count", "size", "time", "algbw", "busbw",
                       "roof %", "gain"};
  cli_table *t = cli_table_new(10, hdr);
  cli_table_optional(t, 6, 1); /* a narrow terminal: algbw, then the count, give way */
  cli_table_optional(t, 3, 2);
  int guess = 0, one = 0;
  for (int32_t i = 0; i < n && i < top; i++) {
    char x[10][64];
    snprintf(x[0], 64, "%s", c[i].name);
    snprintf(x[1], 64, "%s", c[i].dtype[0] ? c[i].dtype : "-");
    if (c[i].ranks > 0) snprintf(x[2], 64, "%d%s", (int)c[i].ranks, c[i].ranks_guess ? "?" : "");
    else snprintf(x[2], 64, "-");
    guess |= c[i].ranks_guess;
    one |= c[i].ranks == 1;
    snprintf(x[3], 64, "%lld", (long long)c[i].count);
    int known = c[i].msg_bytes >= 0, bw = known && c[i].ranks > 0;
    if (known) cli_q(x[4], 64, c[i].msg_bytes, RL_UNIT_BYTES);
    else snprintf(x[4], 64, "-");
    cli_q(x[5], 64, c[i].time_s, RL_UNIT_SECONDS);
    if (known) cli_q(x[6], 64, c[i].algbw, RL_UNIT_BYTES_S);
    else snprintf(x[6], 64, "-");
    if (bw) cli_q(x[7], 64, c[i].busbw, RL_UNIT_BYTES_S);
    else snprintf(x[7], 64, "-");
    if (bw && c[i].link_bw > 0) {
      snprintf(x[8], 64, "%.1f%%", 100 * c[i].roof_fraction);
      cli_q(x[9], 64, c[i].gain_s, RL_UNIT_SECONDS);
    } else {
      snprintf(x[8], 64, "-");
      snprintf(x[9], 64, "-");
    }
    const char *cells[10];
    for (int k = 0; k < 10; k++) cells[k] = x[k];
    cli_table_row(t, cells);
  }
  cli_table_print(ctx, t);
  cli_table_free(t);
  if (n > top) fprintf(ctx->out, "  ... and %d more\n", (int)(n - top));
  if (guess)
    fputs("  ?: group size not recorded; the job's world size (distributedInfo) stands in\n", ctx->out);
  if (one) fputs("  a group of 1 rank moves nothing over the network: its busbw is 0\n", ctx->out);
}

/* The rows with F, Q and a time, ranked by gain; collectives (network-bound
 * rows) are left to their own table: their time includes waiting. */
static void print_rows(cli_ctx *ctx, const rl_trace_row *rows, int32_t n, int32_t top, int by_op) {
  const char *hdr_k[] = {"#", "kernel", "op", "count", "time", "FLOPs", "bytes", "FLOP/B",
                         "bound", "at roof", "roof %", "gain"};
  const char *hdr_o[] = {"#", "op", "calls", "kernels", "time", "FLOPs", "bytes", "FLOP/B",
                         "bound", "at roof", "roof %", "gain"};
  cli_table *t = cli_table_new(12, by_op ? hdr_o : hdr_k);
  /* a narrow terminal: F and Q give way first (their ratio stays), then the roof time */
  cli_table_optional(t, 5, 1);
  cli_table_optional(t, 6, 2);
  cli_table_optional(t, 9, 3);
  int shown = 0, above = 0, l2 = 0, lower = 0, net = 0, cpu_level = 0;
  /* the notes of the rows marked ^, each distinct one once with its rows */
  enum { NOTES = 8 };
  const char *note[NOTES];
  char note_rows[NOTES][64];
  int nnote = 0, note_more = 0;
  for (int32_t i = 0; i < n && shown < top; i++) {
    const rl_trace_row *r = &rows[i];
    if (!r->has_cost || !r->has_time) continue;
    if (r->bound == RL_BOUND_NETWORK) { net++; continue; }
    char c[12][64];
    snprintf(c[0], 64, "%d", shown + 1);
    rl_kernel_display_name(r->name, c[1], by_op ? 40 : 44, RL_NAME_MARK_TEMPLATES);
    if (by_op) {
      snprintf(c[2], 64, "%lld", (long long)r->count);
      snprintf(c[3], 64, "%lld", (long long)r->kernels);
    } else {
      rl_kernel_display_name(r->op[0] ? r->op : "-", c[2], 28, RL_NAME_MARK_TEMPLATES);
      snprintf(c[3], 64, "%lld", (long long)r->count);
    }
    /* bytes from below: >= on bytes, the time at the roof and the roof
     * fraction, <= on the gain */
    int lb = (r->lower_bound & RL_TRACE_LOWER_BYTES) != 0, nof = (r->lower_bound & RL_TRACE_LOWER_NOFLOPS) != 0;
    const char *ge = lb ? ">=" : "", *le = lb ? "<=" : "";
    char q[48];
    lower += lb;
    cli_q(c[4], 64, r->time_s, RL_UNIT_SECONDS);
    if (nof) snprintf(c[5], 64, "-");
    else cli_q(c[5], 64, r->flops, RL_UNIT_FLOP);
    snprintf(c[6], 64, "%s%s", ge, cli_q(q, sizeof q, r->bytes, RL_UNIT_BYTES));
    if (r->bytes > 0 && !nof) snprintf(c[7], 64, "%.3g", r->intensity);
    else snprintf(c[7], 64, "-");
    int on_l2 = r->roof == RL_TRACE_ROOF_L2;
    /* a CPU op bound by its bytes: the level whose roof it is */
    static const char *const lvn[] = {"/L1", "/L2", "/L3", "/DRAM"};
    const char *lv = r->level >= 0 && r->level < 4 && r->bound == RL_BOUND_MEMORY ? lvn[r->level] : "";
    cpu_level += *lv != 0;
    snprintf(c[8], 64, "%s%s%s%s%s", rl_bound_name(r->bound), on_l2 ? "/L2" : "", lv, r->why ? "*" : "",
             r->note && r->launch_id < 0 && !on_l2 ? "^" : "");
    if (r->note && r->launch_id < 0 && !on_l2) {
      int k = 0;
      while (k < nnote && strcmp(note[k], r->note)) k++;
      if (k == nnote && nnote < NOTES) {
        note[nnote] = r->note;
        note_rows[nnote++][0] = 0;
      }
      if (k < nnote) {
        size_t l = strlen(note_rows[k]);
        snprintf(note_rows[k] + l, sizeof note_rows[k] - l, "%s%d", l ? ", " : "", shown + 1);
      } else {
        note_more++;
      }
    }
    l2 += on_l2;
    snprintf(c[9], 64, "%s%s", ge, cli_q(q, sizeof q, r->at_roof_s, RL_UNIT_SECONDS));
    snprintf(c[10], 64, "%s%.1f%%%s", ge, 100 * r->roof_fraction, r->roof_fraction > 1 ? "!" : "");
    above += r->roof_fraction > 1;
    snprintf(c[11], 64, "%s%s", r->gain_s > 0 ? le : "", cli_q(q, sizeof q, r->gain_s, RL_UNIT_SECONDS));
    const char *cells[12];
    for (int k = 0; k < 12; k++) cells[k] = c[k];
    cli_table_row(t, cells);
    shown++;
  }
  if (shown) cli_table_print(ctx, t);
  else if (net) fputs("  (none but collectives: their own table below)\n", ctx->out);
  else fputs("  (none: no F and Q could be derived; see below)\n", ctx->out);
  if (above)
    fprintf(ctx->out, "  !: %d row(s) faster than their roof (a negative gain), which the model rules out: the\n"
                      "     hardware (--hw), the shapes or the timer is wrong for them\n", above);
  if (cpu_level)
    fputs("  /L1, /L2, /L3, /DRAM: the memory level whose roof bounds the op's bytes, the one its working\n"
          "  set fits in\n", ctx->out);
  if (l2)
    fprintf(ctx->out, "  /L2: %d row(s) faster than DRAM allows that the L2 explains (cache-resident): on the\n"
                      "     cache-aware roof, every byte through the L2 and DRAM only for what the L2 cannot\n"
                      "     hold as a run starts and ends (the device's L2 size and bandwidth in the database)\n", l2);
  if (nnote == 1 && !note_more) fprintf(ctx->out, "  ^ %s\n", note[0]);
  else
    for (int k = 0; k < nnote; k++) fprintf(ctx->out, "  ^ row %s: %s\n", note_rows[k], note[k]);
  if (note_more) fprintf(ctx->out, "  ^ %d more row(s) with other notes: --json gives each row's note\n", note_more);
  if (lower)
    fputs("  >=: bytes counted from below (each tensor once), so the time at the roof and the roof\n"
          "      fraction are at least, the gain at most the figure; -: FLOPs not counted\n", ctx->out);
  cli_table_free(t);
}

static void print_unknown(cli_ctx *ctx, const rl_trace_row *rows, int32_t n, int32_t top) {
  const char *hdr[] = {"kernel", "op", "count", "time", "FLOPs", "family", "why no roofline"};
  cli_table *t = cli_table_new(7, hdr);
  int shown = 0, more = 0;
  double rest = 0;
  for (int32_t i = 0; i < n; i++) {
    const rl_trace_row *r = &rows[i];
    if (r->has_cost && r->has_time) continue;
    if (shown >= top) { more++; rest += r->has_time ? r->time_s : 0; continue; }
    char c[7][200];
    rl_kernel_display_name(r->name, c[0], 44, RL_NAME_MARK_TEMPLATES);
    rl_kernel_display_name(r->op[0] ? r->op : "-", c[1], 28, RL_NAME_MARK_TEMPLATES);
    snprintf(c[2], 200, "%lld", (long long)r->count);
    if (r->has_time) cli_q(c[3], 200, r->time_s, RL_UNIT_SECONDS);
    else snprintf(c[3], 200, "-");
    if (r->flops > 0) cli_q(c[4], 200, r->flops, RL_UNIT_FLOP);
    else snprintf(c[4], 200, "-");
    snprintf(c[5], 200, "%s", r->family && r->family[0] ? r->family : "-");
    snprintf(c[6], 200, "%.160s", r->why ? r->why : "");
    const char *cells[7] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6]};
    cli_table_row(t, cells);
    shown++;
  }
  if (shown) {
    fputs("\nwithout a roofline (by time):\n", ctx->out);
    cli_table_print(ctx, t);
    if (more) {
      char b[48];
      fprintf(ctx->out, "  ... and %d more (%s)\n", more, cli_q(b, sizeof b, rest, RL_UNIT_SECONDS));
    }
  }
  cli_table_free(t);
}

static void opt_q(char *b, size_t cap, double v, rl_unit u) {
  if (v >= 0) cli_q(b, cap, v, u);
  else snprintf(b, cap, "-");
}

static void opt_pct(char *b, size_t cap, double a, double c) {
  if (a >= 0 && c >= 0) snprintf(b, cap, "%.0f/%.0f%%", 100 * a, 100 * c);
  else snprintf(b, cap, "-");
}

/* a and b alike but for their numbers ("0.96 waves" ~ "0.11 waves") */
static int same_shape(const char *a, size_t na, const char *b, size_t nb) {
  size_t i = 0, j = 0;
  for (;;) {
    while (i < na && ((a[i] >= '0' && a[i] <= '9') || a[i] == '.')) i++;
    while (j < nb && ((b[j] >= '0' && b[j] <= '9') || b[j] == '.')) j++;
    if (i == na || j == nb) return i == na && j == nb;
    if (a[i++] != b[j++]) return 0;
  }
}

/* Nsight Compute: one row per launch, the hierarchical roofline, speed of
 * light beside our fractions, occupancy and waves */
static void print_hier(cli_ctx *ctx, const rl_trace_row *rows, int32_t n, int32_t top) {
  int any = 0;
  for (int32_t i = 0; i < n; i++) any |= rows[i].launch_id >= 0;
  if (!any) return;
  FILE *o = ctx->out;
  fprintf(o, "\nhierarchical roofline (Nsight Compute, per launch; top %d):\n", top);
  const char *hdr[] = {"ID", "kernel", "L1 bytes", "L2 bytes", "DRAM bytes", "FLOP/B L1", "L2",
                       "DRAM", "binds", "of roof", "SOL c/m", "ours c/m", "occ th/ach", "waves", "flags"};
  cli_table *t = cli_table_new(15, hdr);
  /* a narrow terminal: waves, occupancy, the L1 and L2 bytes, their
   * intensities, then the SOL and our fractions give way */
  static const int gives_way[] = {13, 12, 2, 3, 5, 6, 10, 11};
  for (int k = 0; k < 8; k++) cli_table_optional(t, gives_way[k], k + 1);
  int shown = 0, notes = 0;
  for (int32_t i = 0; i < n && shown < top; i++) {
    const rl_trace_row *r = &rows[i];
    if (r->launch_id < 0) continue;
    char c[15][64];
    snprintf(c[0], 64, "%lld", (long long)r->launch_id);
    rl_kernel_display_name(r->name, c[1], 32, RL_NAME_MARK_TEMPLATES);
    opt_q(c[2], 64, r->l1_bytes, RL_UNIT_BYTES);
    opt_q(c[3], 64, r->l2_bytes, RL_UNIT_BYTES);
    opt_q(c[4], 64, r->dram_bytes, RL_UNIT_BYTES);
    const double in[3] = {r->l1_intensity, r->l2_intensity, r->dram_intensity};
    for (int k = 0; k < 3; k++)
      if (in[k] >= 0) snprintf(c[5 + k], 64, "%.3g", in[k]);
      else snprintf(c[5 + k], 64, "-");
    snprintf(c[8], 64, "%s", r->binding_level >= 0 ? rl_level_name(r->binding_level) : "-");
    if (r->binding_level >= 0 || r->compute_fraction > 0)
      snprintf(c[9], 64, "%.1f%%", 100 * r->binding_fraction);
    else
      snprintf(c[9], 64, "-");
    opt_pct(c[10], 64, r->sol_compute, r->sol_memory);
    if (r->binding_level >= 0 || r->compute_fraction > 0)
      opt_pct(c[11], 64, r->compute_fraction, r->memory_fraction);
    else
      snprintf(c[11], 64, "-");
    opt_pct(c[12], 64, r->occupancy_theoretical, r->occupancy_achieved);
    if (r->waves >= 0) snprintf(c[13], 64, "%.2f", r->waves);
    else snprintf(c[13], 64, "-");
    snprintf(c[14], 64, "%s%s%s", r->sol_disagree ? "SOL" : "", r->sol_disagree && r->tail ? "," : "",
             r->tail ? "tail" : "");
    const char *cells[15];
    for (int k = 0; k < 15; k++) cells[k] = c[k];
    cli_table_row(t, cells);
    shown++;
    notes += r->note != NULL;
  }
  cli_table_print(ctx, t);
  cli_table_free(t);
  fputs("  binds: the level whose roof is lowest at its intensity; of roof: max(F/peak, bytes/bw\n"
        "  at each level) / time. SOL: ncu's compute (sm__throughput) and memory\n"
        "  (gpu__compute_memory_throughput) % of peak; ours: F/peak and the largest bytes/bw over\n"
        "  time. flags: SOL = more than 20 points apart; tail = under one full wave.\n", o);
  if (notes) {
    /* the notes repeat from launch to launch: print each distinct one once */
    fputs("  notes:\n", o);
    const char *seen[64];
    size_t seen_len[64];
    int ns = 0;
    shown = 0;
    for (int32_t i = 0; i < n && shown < top; i++) {
      if (rows[i].launch_id < 0) continue;
      shown++;
      if (!rows[i].note) continue;
      const char *p = rows[i].note;
      while (*p) {
        const char *e = strstr(p, "; ");
        size_t len = e ? (size_t)(e - p) : strlen(p);
        int dup = 0;
        /* per-launch figures (clock, waves, SOL) make each note distinct:
         * compare them without their numbers */
        for (int k = 0; k < ns && !dup; k++) dup = same_shape(seen[k], seen_len[k], p, len);
        if (!dup && ns < 64) {
          seen_len[ns] = len;
          seen[ns++] = p;
          fprintf(o, "    ID %lld: %.*s\n", (long long)rows[i].launch_id, (int)len, p);
        }
        p += len;
        if (*p) p += 2;
      }
    }
  }
}

static void print_fusions(cli_ctx *ctx, const rl_trace *t, int32_t top) {
  int32_t n = 0;
  const rl_trace_fusion *f = rl_trace_fusions(t, &n);
  if (!n) return;
  int mods = 0;
  for (int32_t i = 0; i < n; i++) mods |= f[i].by_op == 2;
  fprintf(ctx->out, "\nfusion candidates (runs of consecutive small kernels of one %s; top %d):\n",
          mods ? "nn.Module, else one op" : "op", top);
  const char *hdr[] = {"#", mods ? "module, op or kernel" : "op or kernel", "runs", "kernels", "time", "saving"};
  cli_table *tb = cli_table_new(6, hdr);
  for (int32_t i = 0; i < n && i < top; i++) {
    char c[6][64];
    snprintf(c[0], 64, "%d", (int)i + 1);
    rl_kernel_display_name(f[i].name, c[1], 44, RL_NAME_MARK_TEMPLATES);
    snprintf(c[2], 64, "%lld", (long long)f[i].runs);
    snprintf(c[3], 64, "%lld", (long long)f[i].kernels);
    cli_q(c[4], 64, f[i].time_s, RL_UNIT_SECONDS);
    cli_q(c[5], 64, f[i].saving_s, RL_UNIT_SECONDS);
    const char *cells[6] = {c[0], c[1], c[2], c[3], c[4], c[5]};
    cli_table_row(tb, cells);
  }
  cli_table_print(ctx, tb);
  cli_table_free(tb);
}

/* A separator and the number when known (cli_csv_num: empty when not finite). */
static void csv_num(FILE *f, int known, double v) { fprintf(f, ",%s", known ? CLI_CSV_NUM(v) : ""); }

static void print_csv(cli_ctx *ctx, const rl_trace_row *rows, int32_t n, int32_t top) {
  FILE *f = ctx->out;
  fputs("name,op,count,measured_s,flops,bytes,intensity_flop_per_byte,bound,roof,time_s,roof_fraction,at_roof_s,"
        "gain_s,above_roof,measured,why,bytes_lower_bound,level,working_set_bytes\n", f);
  if (top > 0 && n > top) n = top;
  for (int32_t i = 0; i < n; i++) {
    const rl_trace_row *r = &rows[i];
    cli_csv_field(f, r->name);
    fputc(',', f);
    cli_csv_field(f, r->op);
    fprintf(f, ",%lld", (long long)r->count);
    csv_num(f, r->has_time, r->time_s);
    int nof = (r->lower_bound & RL_TRACE_LOWER_NOFLOPS) != 0;
    csv_num(f, !nof && (r->has_cost || r->flops > 0), r->flops);
    csv_num(f, r->has_cost, r->bytes);
    csv_num(f, !nof && r->has_cost && r->bytes > 0, r->intensity);
    fprintf(f, ",%s", r->bound >= 0 ? rl_bound_name(r->bound) : "");
    fprintf(f, ",%s", rl_trace_roof_name(r->roof));
    csv_num(f, r->has_cost, r->bound_time_s);
    csv_num(f, r->has_cost && r->has_time, r->roof_fraction);
    csv_num(f, r->has_cost, r->at_roof_s);
    csv_num(f, r->has_cost && r->has_time, r->gain_s);
    /* faster than its roof, or a time at the roof above the measured one:
     * the model rules it out (JSON's above_roof, src/core/trace_json.c) */
    fprintf(f, ",%s", r->has_cost && r->has_time &&
                              (r->roof_fraction > 1 || r->at_roof_s > r->time_s * (1 + 1e-9) + 1e-15)
                          ? "true" : "false");
    fprintf(f, ",%s,", r->measured ? "true" : "false");
    cli_csv_field(f, r->why ? r->why : "");
    fprintf(f, ",%s", r->has_cost && (r->lower_bound & RL_TRACE_LOWER_BYTES) ? "true" : "false");
    /* CPU traces: the cache level that bounds its bytes, and the working set that chose it */
    fprintf(f, ",%s", r->level >= 0 ? rl_level_name(r->level) : "");
    csv_num(f, r->level >= 0, r->working_set);
    fputc('\n', f);
  }
}

/* The top kernels with F, Q and a time on the roofs of their formats
 * (charts.c), as SVG. */
static int write_plot(cli_ctx *ctx, const char *path, const char *trace, const rl_hw *hw,
                      const rl_trace *t, const rl_trace_row *rows, int32_t n, int32_t top) {
  chart_data *c = malloc(sizeof *c);
  if (!c) return cli_error(ctx, "out of memory");
  if (chart_trace_all(hw, t, rows, n, top, trace, c)) {
    free(c);
    return cli_error(ctx, "--plot: no kernel of %s has F, Q and a time to place", trace);
  }
  rl_plot pl = chart_plot(c);
  size_t len = rl_plot_svg(&pl, NULL, 0);
  char *svg = malloc(len + 1);
  if (!svg) { free(c); return cli_error(ctx, "out of memory"); }
  rl_plot_svg(&pl, svg, len + 1);
  free(c);
  int rc = cli_write_file(ctx, "--plot", path, svg, len);
  free(svg);
  return rc;
}

/* ---- parse: the flags, checked; one trace or a job ------------------------- */
typedef struct trace_opts {
  const char *hw_id, *format, *plot;
  double bw, overhead;     /* 0: the device's; < 0: the default */
  int top, jobs, hta;      /* 0: the default */
  const char **pos;        /* the files, folders or globs (malloc'd) */
  int np;
  int job;                 /* several traces, a folder, a glob, -j or --hta */
  int32_t fmt;             /* one trace: --format, or RL_TRACE_AUTO */
  int cpu, threads;        /* --cpu; --threads N (0: the trace's) */
  const char *capture;     /* --capture: the run's CUDA-graph captures */
  cli_model_flags mf;      /* --model: the model the trace ran (MoE ops) */
  rl_model model;
  int has_model;
} trace_opts;

static int is_dir(const char *p) {
  struct stat sb;
  return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int parse_flags(cli_ctx *ctx, int argc, char **argv, trace_opts *o) {
  cli_opt opts[] = {{"hw", OPT_STR, &o->hw_id, 0},         {"bw", OPT_BYTES_S, &o->bw, 0},
                    {"top", OPT_INT, &o->top, 0},           {"overhead", OPT_SECONDS, &o->overhead, 0},
                    {"format", OPT_STR, &o->format, 0},     {"plot", OPT_STR, &o->plot, 0},
                    {"jobs", OPT_INT, &o->jobs, 0},         {"hta", OPT_FLAG, &o->hta, 0},
                    {"cpu", OPT_FLAG, &o->cpu, 0},          {"threads", OPT_INT, &o->threads, 0},
                    {"capture", OPT_STR, &o->capture, 0},   {"model", OPT_STR, &o->mf.model, 0},
                    {NULL, 0, NULL, 0}};
  int rc = cli_parse(ctx, argc, argv, opts, o->pos, argc, &o->np);
  if (rc) return rc;
  if (o->mf.model) {
    /* the model the trace ran: its MoE ops' experts (rl_trace_set_model) */
    if ((rc = cli_resolve_model(ctx, opts, &o->mf, &o->model))) return rc;
    rl_trace *probe = rl_trace_new(-1);
    rl_error me;
    rl_status ms = probe ? rl_trace_set_model(probe, &o->model, &me) : RL_ENOMEM;
    rl_trace_free(probe);
    if (ms == RL_ENOMEM) return cli_error(ctx, "out of memory");
    if (ms) return cli_error(ctx, "--model: %s", CLI_SPELL(me.msg));
    o->has_model = 1;
  }
  if (o->np < 1) return cli_error(ctx, "which file? e.g. roofline trace rank0.pt.trace.json.gz");
  const int top_seen = cli_seen(opts, "top"), overhead_seen = cli_seen(opts, "overhead"),
            bw_seen = cli_seen(opts, "bw"), jobs_seen = cli_seen(opts, "jobs");
  const char *first = o->pos[0];
  o->job = o->np > 1 || is_dir(first) || jobs_seen || o->hta || (strpbrk(first, "*?[") && access(first, F_OK) != 0);
  if (jobs_seen && o->jobs < 1) return cli_error(ctx, "-j must be >= 1");
  if (cli_seen(opts, "threads") && (o->threads < 1 || o->threads > 4096))
    return cli_error(ctx, "--threads must be 1..4096");
  if (top_seen && o->top < 1) return cli_error(ctx, "--top must be >= 1");
  if (overhead_seen && !(o->overhead >= 0)) return cli_error(ctx, "--overhead must be >= 0");
  if (bw_seen && !(o->bw > 0)) return cli_error(ctx, "--bw must be > 0");
  if ((rc = plot_svg_path(ctx, "--plot", o->plot))) return rc;
  if (o->job) {
    if (o->plot) return cli_error(ctx, "--plot takes one trace, not a job of several");
    if (o->cpu || o->threads) return cli_error(ctx, "--cpu and --threads take one trace, not a job of several");
    if (o->capture)
      return cli_error(ctx, "--capture takes one trace; in a folder, name each rank's capture "
                            "RUN.capture.json(.gz) beside RUN.json(.gz)");
    int32_t jf = RL_TRACE_AUTO;
    if (o->format && (rl_trace_format_parse(o->format, &jf, NULL) || jf != RL_TRACE_KINETO))
      return cli_error(ctx, "a job of several traces reads PyTorch (Kineto) traces only, not --format %s", o->format);
    return CLI_OK;
  }
  o->fmt = RL_TRACE_AUTO;
  if (o->format) {
    rl_error fe;
    if (rl_trace_format_parse(o->format, &o->fmt, &fe)) return cli_error(ctx, "--format: %s", fe.msg);
  }
  if (o->capture && o->cpu) return cli_error(ctx, "--capture matches GPU kernels: not with --cpu");
  if (o->has_model && o->fmt != RL_TRACE_AUTO && o->fmt != RL_TRACE_KINETO)
    return cli_error(ctx, "--model costs the MoE ops of PyTorch (Kineto) traces, not --format %s", o->format);
  if (o->capture && o->fmt != RL_TRACE_AUTO && o->fmt != RL_TRACE_KINETO)
    return cli_error(ctx, "--capture reads PyTorch (Kineto) traces, not --format %s", o->format);
  return CLI_OK;
}

/* "-j N" and "-jN" are --jobs */
static int parse(cli_ctx *ctx, int argc, char **argv, trace_opts *o) {
  memset(o, 0, sizeof *o);
  o->overhead = -1;
  char **av = malloc(sizeof *av * ((size_t)argc + 1));
  char *buf = malloc(64 * ((size_t)argc + 1));
  o->pos = malloc(sizeof *o->pos * ((size_t)argc + 1));
  int rc = CLI_OK;
  if (!av || !buf || !o->pos) {
    rc = cli_error(ctx, "out of memory");
  } else {
    for (int i = 0; i < argc; i++) {
      av[i] = argv[i];
      if (i && RLI_STARTS(argv[i], "-j")) {
        if (argv[i][RLI_LEN("-j")]) snprintf(av[i] = buf + 64 * i, 64, "--jobs=%.50s", argv[i] + RLI_LEN("-j"));
        else av[i] = (char *)"--jobs";
      }
    }
    av[argc] = NULL;
    rc = parse_flags(ctx, argc, av, o); /* what it keeps points into argv, not av or buf */
  }
  free(av);
  free(buf);
  return rc;
}

/* The device --hw names, its bandwidth replaced by --bw when given. */
static int flag_hw(cli_ctx *ctx, const trace_opts *o, rl_hw *hw) {
  cli_hw_flags hf;
  cli_hw_flags_init(&hf);
  hf.hw = o->hw_id;
  hf.bw = o->bw;
  return cli_resolve_hw(ctx, &hf, 0, hw);
}

/* ---- a job: the device, then the job analysis (cmd_trace_job.c) ------------- */
static int run_job(cli_ctx *ctx, const trace_opts *to) {
  rl_hw hw;
  cli_job_opts o = {NULL, to->overhead, to->top, to->jobs, to->hta, to->has_model ? &to->model : NULL};
  if (to->hw_id) {
    int rc = flag_hw(ctx, to, &hw);
    if (rc) return rc;
    o.hw = &hw;
  }
  return cli_trace_job(ctx, to->pos, to->np, &o);
}

/* ---- one trace: resolve (read it, its device), compute, print -------------- */
typedef struct trace_one {
  rl_trace *t;
  const char *path;        /* as printed: "standard input" for - */
  rl_hw hw;
  rl_trace_summary s;
  rl_trace_info info;
  const rl_trace_row *rk, *ro; /* by kernel, by op */
  int32_t nk, no;
} trace_one;

/* A CPU trace's roofs: --hw measured (or no --hw): the --hw-file row
 * `roofline measure --save-hw` wrote for its processor and threads, else
 * this machine measured now (--quick, the peak and read kernels, with the
 * trace's threads; figures the measurement marks disturbed kept: low, they
 * only raise a bound), said on stderr; --hw ID: that row (the analysis
 * refuses one that is no CPU, or measured on another CPU or thread count). */
static int cpu_hw(cli_ctx *ctx, const trace_opts *o, trace_one *x) {
  rl_error e;
  if (o->hw_id && strcmp(o->hw_id, "measured") != 0) {
    int rc = flag_hw(ctx, o, &x->hw);
    if (!rc && o->bw > 0) x->hw.mem_bw = o->bw;
    return rc;
  }
  int any = 0;
  for (int32_t i = 0; i < ctx->n_extra; i++) any |= rl_hw_measured(&ctx->extra[i]);
  if (any) {
    if (rl_trace_measured_hw(x->t, ctx->extra, ctx->n_extra, &x->hw, &e))
      return cli_error(ctx, "%s: --hw-file: %s", x->path, CLI_SPELL(e.msg));
    if (o->bw > 0) x->hw.mem_bw = o->bw;
    return CLI_OK;
  }
#ifdef __EMSCRIPTEN__ /* the page measures nothing (no threads, no timer to trust) */
  return cli_error(ctx, "%s: a CPU profile needs this machine's roofs: --hw-file with a row of roofline measure "
                   "--save-hw", x->path);
#else
  rl_trace_info info;
  rl_trace_get_info(x->t, &info);
  int32_t threads = info.threads > 0 ? info.threads : 1;
  rl_measurement *m = calloc(1, sizeof *m);
  if (!m) return cli_error(ctx, "out of memory");
  rl_measure_opts mo;
  memset(&mo, 0, sizeof mo);
  mo.threads = threads;
  mo.quick = 1;
  mo.parts = RL_MEASURE_PEAK | RL_MEASURE_READ;
  fprintf(ctx->err, "roofline trace: measuring this machine with %d thread%s (measure --quick --kernel "
                    "peak,read; save a row with roofline measure --save-hw and give --hw-file to skip this)\n",
          (int)threads, threads == 1 ? "" : "s");
  rl_status st = rl_measure(&mo, m, &e);
  if (!st) {
    /* keep the disturbed figures: a low figure only raises a bound */
    memset(m->peak_unreliable, 0, sizeof m->peak_unreliable);
    memset(m->bandwidth.unreliable, 0, sizeof m->bandwidth.unreliable);
    st = rl_measure_to_hw(m, "measured", &x->hw, &e);
  }
  free(m);
  if (st) return cli_error(ctx, "%s: measuring this machine: %s", x->path, CLI_SPELL(e.msg));
  if (o->bw > 0) x->hw.mem_bw = o->bw;
  return CLI_OK;
#endif
}

static int resolve(cli_ctx *ctx, const trace_opts *o, trace_one *x) {
  x->path = o->pos[0];
  x->t = rl_trace_new(o->overhead);
  if (!x->t) return cli_error(ctx, "out of memory");
  if (o->cpu) rl_trace_set_cpu(x->t, 1);
  if (o->threads) rl_trace_set_threads(x->t, o->threads);
  rl_error e;
  rl_status st;
  int rc;
  if (o->has_model && (st = rl_trace_set_model(x->t, &o->model, &e))) return cli_fail(ctx, st, &e);
  if (o->capture) {
    cli_note_input(ctx, -1, o->capture);
    if ((st = rl_trace_read_capture(x->t, o->capture, &e))) return cli_fail(ctx, st, &e);
  }
  if (strcmp(x->path, "-") == 0) { /* standard input: read whole, then parsed from memory */
    char *text = NULL;
    size_t len = 0;
    if ((rc = cli_read_file(ctx, x->path, (size_t)((uint64_t)1 << 36 < SIZE_MAX ? (uint64_t)1 << 36 : SIZE_MAX), &text, &len))) return rc;
    x->path = "standard input";
    st = rl_trace_read_buffer(x->t, text, len, o->fmt, x->path, &e);
    free(text);
  } else {
    cli_note_input(ctx, -1, x->path);
    st = rl_trace_read_file(x->t, x->path, o->fmt, &e);
  }
  if (st) return cli_fail(ctx, st, &e);
  rl_trace_info info;
  rl_trace_get_info(x->t, &info);
  if (info.cpu) return cpu_hw(ctx, o, x);
  if (o->cpu) return cli_error(ctx, "%s: --cpu: no CPU ops in it (a PyTorch profile's cpu_op events)", x->path);
  if (o->hw_id) return flag_hw(ctx, o, &x->hw);
  if (rl_trace_hw(x->t, &x->hw, &e)) return cli_error(ctx, "%s: %s", x->path, CLI_SPELL(e.msg));
  if (o->bw > 0) x->hw.mem_bw = o->bw;
  return CLI_OK;
}

static int compute(cli_ctx *ctx, trace_one *x) {
  rl_error e;
  if (rl_trace_analyze(x->t, &x->hw, &x->s, &e)) return cli_error(ctx, "%s: %s", x->path, CLI_SPELL(e.msg));
  rl_trace_get_info(x->t, &x->info); /* after the analysis, which drops duplicate events */
  x->rk = rl_trace_rows(x->t, RL_TRACE_BY_KERNEL, &x->nk);
  x->ro = rl_trace_rows(x->t, RL_TRACE_BY_OP, &x->no);
  return CLI_OK;
}

/* The report's head: the file, coverage, device, counts, time, regimes. */
static void print_head(cli_ctx *ctx, const trace_opts *to, const trace_one *x) {
  const rl_trace_summary *s = &x->s;
  const rl_trace_info *info = &x->info;
  FILE *o = ctx->out;
  char b1[48], b2[48], b3[48], b4[48], p1[16], p2[16], p3[16], p4[16];
  fprintf(o, "trace      %s (%s, %lld events)\n", x->path, info->format, (long long)info->events);
  print_coverage(ctx, s, info->cpu);
  if (info->cpu) {
    fprintf(o, "cpu        %s, %d intra-op thread%s%s; roofs: %s (%s)\n",
            info->cpu_model[0] ? info->cpu_model : "(not named)", (int)info->threads,
            info->threads == 1 ? "" : "s", to->threads ? " (--threads)" : "", x->hw.id, x->hw.name);
    fprintf(o, "ops        %lld op calls, each with its self time (its duration less the ops it called)\n",
            (long long)s->kernels);
    if (s->has_time)
      fprintf(o, "CPU time   %s (the ops' self times), span %s\n", cli_q(b1, sizeof b1, s->gpu_time_s, RL_UNIT_SECONDS),
              cli_q(b2, sizeof b2, s->span_s, RL_UNIT_SECONDS));
  } else if (info->device[0])
    fprintf(o, "device     %s -> %s%s\n", info->device, x->hw.id, to->hw_id ? " (--hw)" : "");
  else if (to->hw_id)
    fprintf(o, "device     %s (--hw; the file names no device)\n", x->hw.id);
  else
    fprintf(o, "device     %s (the file names none: its properties, compute capability %d.%d and "
               "%s, fit this row's profiler rule)\n", x->hw.id, (int)info->cc_major, (int)info->cc_minor,
            cli_q(b1, sizeof b1, info->device_mem_bytes, RL_UNIT_BYTES));
  if (!info->cpu) fprintf(o, "kernels    %lld", (long long)s->kernels);
  if (!info->cpu) {
    if (info->unlinked) fprintf(o, " (%lld without a launching op)", (long long)info->unlinked);
    if (info->graph_matched || info->graph_unmatched)
      fprintf(o, "; CUDA-graph replays: %lld kernels matched to their capture, %lld not",
              (long long)info->graph_matched, (long long)info->graph_unmatched);
    if (info->graph_unreplayed)
      fprintf(o, " (%lld captured launch%s with no kernel in the replay: its last record%s missing)",
              (long long)info->graph_unreplayed, info->graph_unreplayed == 1 ? "" : "es",
              info->graph_unreplayed == 1 ? "" : "s");
    if (s->copies) fprintf(o, "; %lld memcpy/memset (%s)", (long long)s->copies, cli_q(b1, sizeof b1, s->copy_s, RL_UNIT_SECONDS));
    if (s->collectives) {
      fprintf(o, "; %lld collective kernels (%s)", (long long)s->collectives, cli_q(b1, sizeof b1, s->collective_s, RL_UNIT_SECONDS));
      /* those without a size (launched before the window, no collective op
       * recorded) are counted, as a job counts them, but not in the table */
      int32_t ncl = 0;
      const rl_trace_coll *cl = rl_trace_colls(x->t, &ncl);
      int64_t sized = 0;
      for (int32_t i = 0; i < ncl; i++) sized += cl[i].count;
      if (sized < s->collectives)
        fprintf(o, ", %lld without a size (not in the collectives table)", (long long)(s->collectives - sized));
    }
    fputc('\n', o);
  }
  if (!s->has_time) {
    fputs("GPU time   unknown: the file gives no kernel times (CUPTI range profiler)\n", o);
    return;
  }
  if (!info->cpu)
    fprintf(o, "GPU time   %s (sum of kernel and copy durations)\n", cli_q(b1, sizeof b1, s->gpu_time_s, RL_UNIT_SECONDS));
  if (info->cpu) {
    /* an op's self time is no interval: no busy or idle time */
  } else if (s->has_span)
    fprintf(o, "span       %s: GPU busy %s (%s), idle %s (%s)\n",
            cli_q(b1, sizeof b1, s->span_s, RL_UNIT_SECONDS), cli_q(b2, sizeof b2, s->busy_s, RL_UNIT_SECONDS),
            pct(p1, sizeof p1, s->busy_share, 1), cli_q(b3, sizeof b3, s->idle_s, RL_UNIT_SECONDS),
            pct(p2, sizeof p2, s->idle_s, s->span_s));
  else
    fputs("span       unknown (ncu replays kernels one by one: no timeline)\n", o);
  if (s->has_span && s->devices > 1)
    fprintf(o, "           busy: some of the %d devices busy; idle: none busy\n", (int)s->devices);
  if (s->duplicates || s->overlapping || s->ends_before_start || s->zero_duration) {
    fputs("repaired  ", o);
    const char *sep = " ";
    if (s->duplicates) {
      fprintf(o, "%s%lld duplicate event%s dropped (%s)", sep, (long long)s->duplicates,
              s->duplicates == 1 ? "" : "s", cli_q(b1, sizeof b1, s->duplicate_s, RL_UNIT_SECONDS));
      sep = "; ";
    }
    if (s->overlapping) {
      fprintf(o, "%s%lld kernel%s overlapping the one before on %s stream (%s, merged in busy time)",
              sep, (long long)s->overlapping, s->overlapping == 1 ? "" : "s",
              s->overlapping == 1 ? "its" : "their", cli_q(b1, sizeof b1, s->overlap_s, RL_UNIT_SECONDS));
      sep = "; ";
    }
    if (s->ends_before_start)
      fprintf(o, "%s%lld kernel%s ending before %s start dropped", sep, (long long)s->ends_before_start,
              s->ends_before_start == 1 ? "" : "s", s->ends_before_start == 1 ? "its" : "their");
    if (s->zero_duration) {
      if (s->ends_before_start) sep = "; ";
      fprintf(o, "%s%lld kernel%s of zero duration (under 1 ps) left out of the times", sep,
              (long long)s->zero_duration, s->zero_duration == 1 ? "" : "s");
    }
    fputc('\n', o);
  }
  /* the GPU's time by regime; its idle time is apart (the span's line, the
   * idle headline), not overhead */
  double whole = s->compute_s + s->memory_s + s->network_s + s->overhead_s + s->unknown_s;
  char b5[48], p5[16];
  fprintf(o, "regimes    compute %s (%s), memory %s (%s), network %s (%s), overhead %s (%s), no F/Q %s (%s)\n",
          cli_q(b1, sizeof b1, s->compute_s, RL_UNIT_SECONDS), pct(p1, sizeof p1, s->compute_s, whole),
          cli_q(b2, sizeof b2, s->memory_s, RL_UNIT_SECONDS), pct(p2, sizeof p2, s->memory_s, whole),
          cli_q(b5, sizeof b5, s->network_s, RL_UNIT_SECONDS), pct(p5, sizeof p5, s->network_s, whole),
          cli_q(b3, sizeof b3, s->overhead_s, RL_UNIT_SECONDS), pct(p3, sizeof p3, s->overhead_s, whole),
          cli_q(b4, sizeof b4, s->unknown_s, RL_UNIT_SECONDS), pct(p4, sizeof p4, s->unknown_s, whole));
  fprintf(o, "overhead   kernels shorter than %s: %s; overhead-bound kernels: %s\n",
          cli_q(b1, sizeof b1, s->overhead_cut_s, RL_UNIT_SECONDS),
          cli_q(b2, sizeof b2, s->short_s, RL_UNIT_SECONDS),
          cli_q(b3, sizeof b3, s->overhead_s - s->short_s, RL_UNIT_SECONDS));
  fprintf(o, "floor      %s per kernel: %s\n", cli_q(b1, sizeof b1, s->floor_s, RL_UNIT_SECONDS),
          CLI_SPELL(s->floor_source));
  fprintf(o, "gain       %s if every kernel with F and Q ran at its roof (never below the floor;\n"
             "           overhead-bound kernels gain only by fusion)\n",
          cli_q(b1, sizeof b1, s->gain_s, RL_UNIT_SECONDS));
  /* the collectives' part: an upper bound, their time includes waiting */
  double net_gain = 0;
  for (int32_t i = 0; i < x->nk; i++)
    if (x->rk[i].has_cost && x->rk[i].has_time && x->rk[i].bound == RL_BOUND_NETWORK) net_gain += x->rk[i].gain_s;
  if (net_gain > 0)
    fprintf(o, "           of which %s in collectives, at most: their time includes waiting for the\n"
               "           slowest rank (trace DIR of every rank splits the two)\n",
            cli_q(b1, sizeof b1, net_gain, RL_UNIT_SECONDS));
  int32_t nfu = 0;
  rl_trace_fusions(x->t, &nfu);
  fprintf(o, "fusion     %s from fusing %d kind%s of runs of small kernels (one floor left per run)\n",
          cli_q(b1, sizeof b1, s->fusion_s, RL_UNIT_SECONDS), (int)nfu, nfu == 1 ? "" : "s");
}

/* The idle headline (rl_trace_get_idle): when no GPU ran a kernel or copy
 * for RL_TRACE_IDLE_HEADLINE of the span or more, before the kernel tables:
 * the share, the biggest gaps and the host ops during them. */
static void print_idle(cli_ctx *ctx, const trace_one *x) {
  const rl_trace_idle *d = rl_trace_get_idle(x->t);
  if (!d || !d->headline) return;
  FILE *o = ctx->out;
  char b1[48], b2[48], p1[16];
  fprintf(o, "\nGPU idle %s of the span (%s of %s): no kernel or copy ran. No kernel's roof tunes\n"
             "this time: the host did not keep the GPU fed (Python and launch overhead, data loading,\n"
             "a synchronising call). The biggest gaps, with the host ops running during them:\n",
          pct(p1, sizeof p1, d->share, 1), cli_q(b1, sizeof b1, x->s.idle_s, RL_UNIT_SECONDS),
          cli_q(b2, sizeof b2, x->s.span_s, RL_UNIT_SECONDS));
  const char *hdr[] = {"at", "gap", "host ops during it (time inside the gap)"};
  cli_table *t = cli_table_new(3, hdr);
  for (int32_t i = 0; i < d->ngaps; i++) {
    const rl_trace_gap *g = &d->gaps[i];
    char c0[48], c1[48], c2[512];
    cli_q(c0, sizeof c0, g->start_s, RL_UNIT_SECONDS);
    cli_q(c1, sizeof c1, g->length_s, RL_UNIT_SECONDS);
    size_t l = 0;
    c2[0] = 0;
    for (int32_t k = 0; k < g->nops && l < sizeof c2; k++) {
      char q[48];
      int w = snprintf(c2 + l, sizeof c2 - l, "%s%s %s", k ? ", " : "", g->ops[k].name,
                       cli_q(q, sizeof q, g->ops[k].overlap_s, RL_UNIT_SECONDS));
      if (w < 0) break;
      l += (size_t)w;
    }
    if (!g->nops) snprintf(c2, sizeof c2, "%s", d->host_ops ? "(no host op recorded then)" : "(the file records no host ops)");
    const char *cells[3] = {c0, c1, c2};
    cli_table_row(t, cells);
  }
  cli_table_print(ctx, t);
  cli_table_free(t);
}

static void print_text(cli_ctx *ctx, const trace_opts *to, const trace_one *x) {
  const int top = to->top > 0 ? to->top : 10;
  FILE *o = ctx->out;
  print_head(ctx, to, x);
  print_idle(ctx, x);
  if (x->info.cpu)
    fprintf(o, "\nop calls by gain (by op and the op that called it; top %d; * = partly without F and Q):\n", top);
  else
    fprintf(o, "\nkernels by gain (top %d; * = partly without F and Q):\n", top);
  print_rows(ctx, x->rk, x->nk, top, 0);
  print_hier(ctx, x->rk, x->nk, top);
  int32_t ncoll = 0;
  const rl_trace_coll *cl = rl_trace_colls(x->t, &ncoll);
  if (ncoll) {
    char b1[48];
    fprintf(o, "\ncollectives by time (nccl-tests busbw against the %s link, one direction):\n",
            cli_q(b1, sizeof b1, cl[0].link_bw, RL_UNIT_BYTES_S));
    print_colls(ctx, cl, ncoll, top);
    fputs("  time: the NCCL kernels' own, which includes waiting for the slowest rank to arrive:\n"
          "  an upper bound on the transfer, and gain one on what a faster link saves\n"
          "  (trace DIR of every rank splits the two)\n", o);
  }
  int any_op = 0;
  for (int32_t i = 0; i < x->no; i++)
    if (x->ro[i].has_cost && x->ro[i].has_time && x->ro[i].bound != RL_BOUND_NETWORK &&
        strcmp(x->ro[i].name, "(no op)") != 0)
      any_op = 1;
  if (any_op) {
    fprintf(o, "\nops by gain (top %d):\n", top);
    print_rows(ctx, x->ro, x->no, top, 1);
  }
  print_fusions(ctx, x->t, top);
  print_unknown(ctx, x->rk, x->nk, top);
}

static int print(cli_ctx *ctx, const trace_opts *o, const trace_one *x) {
  int rc = o->plot ? cli_output_check(ctx, "--plot", o->plot) : CLI_OK; /* not over the trace */
  if (rc) return rc;
  if (ctx->json) {
    json_arg a = {x->t, &x->hw, &x->s, o->top};
    rc = cli_print_json(ctx, json_fn, &a);
  } else if (ctx->csv) {
    print_csv(ctx, x->rk, x->nk, o->top);
  } else {
    print_text(ctx, o, x);
  }
  /* --plot after the report: a chart that cannot be written leaves the
   * report printed, with the one error line (and exit status) after it */
  if (rc == CLI_OK && o->plot)
    rc = write_plot(ctx, o->plot, x->path, &x->hw, x->t, x->rk, x->nk, o->top > 0 ? o->top : 10);
  return rc;
}

/* parse -> a job (cmd_trace_job.c), or one trace: resolve (read it, its
 * device) -> compute (rl_trace_analyze) -> print (and --plot) */
static int run(cli_ctx *ctx, int argc, char **argv) {
  trace_opts o;
  int rc = parse(ctx, argc, argv, &o);
  if (!rc && o.job) {
    rc = run_job(ctx, &o);
  } else if (!rc) {
    trace_one x;
    memset(&x, 0, sizeof x);
    rc = resolve(ctx, &o, &x);
    if (!rc) rc = compute(ctx, &x);
    if (!rc) rc = print(ctx, &o, &x);
    rl_trace_free(x.t);
  }
  free(o.pos);
  return rc;
}

const cli_command cmd_trace = {"trace", run,
                               "kernels of a PyTorch, ncu or nsys profile under their roofs, by gain",
                               help, 17};
