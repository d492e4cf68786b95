/*
 * cmd_measure.c -- `roofline measure`: the empirical roofline of this CPU
 * (peak FLOP/s, bandwidth of every cache level and DRAM), with OpenBLAS
 * matrix products and an elementwise add placed on it. The measuring is
 * rl_measure (src/io/measure.c); this file parses flags and prints.
 */
#include "cli.h"
#include "outfile.h"
#include "plot_common.h"
#include "charts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: roofline measure [--quick] [--threads N] [--kernel LIST] [--ws LIST]\n"
    "                        [--save-hw FILE [--id ID]] [--plot FILE.svg] [--term]\n"
    "                        [--json|--csv]\n"
    "\n"
    "Measures this machine's roofline, as likwid-bench, STREAM and the Empirical\n"
    "Roofline Toolkit do, and places real work on it:\n"
    "  - the CPU: model, SIMD extensions (CPUID), caches (sysfs), the clock measured\n"
    "    with a chain of dependent adds (not read from /proc/cpuinfo);\n"
    "  - peak FLOP/s of FP64 and FP32 FMA kernels at the widest SIMD width (chosen\n"
    "    at run time), the BF16 dot product where AVX512-BF16 exists, and the\n"
    "    higher FMA+add ceiling of cores with separate adders; 1 thread and all,\n"
    "    beside the theoretical peak (measured clock x lanes x units);\n"
    "  - bandwidth of read-only, copy and triad kernels over working sets from L1\n"
    "    to 8 x the last-level cache, the plateaus found automatically: L1, L2, L3\n"
    "    and DRAM, 1 thread and all, pinned (STREAM byte counting: write-allocate\n"
    "    traffic not counted; non-temporal stores past the LLC where faster);\n"
    "  - OpenBLAS sgemm and dgemm, n = 16..4096 (--quick: ..1024), and an FP32 add\n"
    "    of growing size: F, Q, intensity, achieved FLOP/s, the measured roof at\n"
    "    that intensity (level the data fits in) and the fraction reached.\n"
    "Each figure is the best of several timed repeats after a warm-up, on at least\n"
    "3 samples the scheduler left alone, each at least 100 x the timer's overhead;\n"
    "a figure short of that, or disturbed, is taken again or marked UNRELIABLE ('!').\n"
    "The spread of the repeats is reported, with a warning when the machine is\n"
    "noisy. Progress goes to stderr. OpenBLAS is loaded for the gemm part only\n"
    "(libopenblas.so.0, or the library $ROOFLINE_OPENBLAS names).\n"
    "\n"
    "flags:\n"
    "@--quick\n"
    "@--threads\n"
    "@--kernel\n"
    "@--ws\n"
    "@--save-hw\n"
    "@--id\n"
    "@--plot\n"
    "@--term\n"
    "@--json\n"
    "@--csv\n"
    "\n"
    "examples:\n"
    "  roofline measure --quick\n"
    "  roofline measure --save-hw my-cpu.csv && roofline op matmul --m 4096 --n 4096 \\\n"
    "      --k 4096 --dtype fp32 --hw measured-cpu --hw-file my-cpu.csv\n";

/* a progress line names parameters as the library's messages do (`quick`):
 * spelled as flags */
static void on_progress(void *user, const char *line) {
  cli_ctx *ctx = user;
  char spelled[2 * RL_ERROR_MSG_MAX];
  fprintf(ctx->err, "roofline measure: %s\n", cli_spell(line, spelled, sizeof spelled));
  fflush(ctx->err);
}

static size_t json_fn(void *arg, char *buf, size_t cap) {
  return rl_measure_json(arg, buf, cap);
}

static const char *lvl_label[RL_LEVEL_COUNT] = {"L1", "L2", "L3", "DRAM"};

static void print_text(cli_ctx *ctx, const rl_measurement *m) {
  FILE *o = ctx->out;
  const rl_cpu_info *c = &m->cpu;
  char b1[48], b2[48], b3[48];
  fprintf(o, "machine\n");
  fprintf(o, "  cpu        %s%s%s%s, family %d model %d, %d CPU%s, %d measuring thread%s\n",
          c->model, c->uarch[0] ? " (" : "", c->uarch, c->uarch[0] ? ")" : "", (int)c->family,
          (int)c->model_id, (int)c->cpus, c->cpus == 1 ? "" : "s", (int)m->threads,
          m->threads == 1 ? "" : "s");
  fprintf(o, "  simd       %s (kernels: %s)\n", c->simd[0] ? c->simd : "none found", c->isa);
  fprintf(o, "  caches    ");
  for (int k = 0; k < 3; k++)
    if (c->cache[k] > 0)
      fprintf(o, " %s %s (per %d CPU%s)%s", lvl_label[k], cli_q(b1, sizeof b1, c->cache[k], RL_UNIT_BYTES),
              (int)c->cache_shared[k], c->cache_shared[k] == 1 ? "" : "s", k < 2 && c->cache[k + 1] > 0 ? "," : "");
  fprintf(o, "\n  clock      %sHz measured, %sHz reported by the OS\n",
          cli_q(b1, sizeof b1, c->measured_hz, RL_UNIT_COUNT), cli_q(b2, sizeof b2, c->nominal_hz, RL_UNIT_COUNT));
  fprintf(o, "  memory     %s\n", cli_q(b1, sizeof b1, c->mem_bytes, RL_UNIT_BYTES));
  fprintf(o, "  timing     tick %s; best of %d repeats after a warm-up; spread of repeats: median %.1f%%, max %.0f%%%s\n",
          cli_q(b1, sizeof b1, m->tick_s, RL_UNIT_SECONDS), (int)m->repeats, 100 * m->spread_median,
          100 * m->spread_max, m->noisy ? " (NOISY)" : "");
  fprintf(o, "  took       %s\n", cli_q(b1, sizeof b1, m->wall_s, RL_UNIT_SECONDS));

  if (m->parts & RL_MEASURE_PEAK) {
    char t1[48];
    snprintf(t1, sizeof t1, "%d threads", (int)m->threads);
    const char *hdr[] = {"peak", "1 thread", "theoretical", t1, "theoretical", "of theory"};
    cli_table *t = cli_table_new(6, hdr);
    static const char *names[RL_PK_COUNT] = {"fp64 FMA", "fp32 FMA", "bf16 dot (fp32 acc)",
                                             "fp64 FMA+add", "fp32 FMA+add"};
    for (int k = 0; k < RL_PK_COUNT; k++) {
      if (!(m->peak.flops[k] > 0)) continue;
      char c1[48], c2[48], c3[48], c4[48], c5[32];
      snprintf(c5, sizeof c5, "%.0f%%", m->peak.theory[k] > 0 ? 100 * m->peak.flops[k] / m->peak.theory[k] : 0);
      cli_q(c1, 48, m->peak_1t.flops[k], RL_UNIT_FLOP_S);
      cli_q(c3, 48, m->peak.flops[k], RL_UNIT_FLOP_S);
      if (m->peak_unreliable_1t[k]) strncat(c1, " !", 47 - strlen(c1));
      if (m->peak_unreliable[k]) strncat(c3, " !", 47 - strlen(c3));
      const char *row[] = {names[k], c1, cli_q(c2, 48, m->peak_1t.theory[k], RL_UNIT_FLOP_S), c3,
                           cli_q(c4, 48, m->peak.theory[k], RL_UNIT_FLOP_S), c5};
      cli_table_row(t, row);
    }
    fputc('\n', o);
    cli_table_print(ctx, t);
    cli_table_free(t);
  }
  if (m->n_unreliable > 0)
    fprintf(o, "  '!' UNRELIABLE: a disturbed sample (all threads below 1 thread, a peak below half its theoretical\n"
               "  value, fewer than 3 clean samples, or the timer above 1%% of a sample) after %d retake%s; not this\n"
               "  machine's figure: measure again on a quiet machine\n",
            (int)m->retakes, m->retakes == 1 ? "" : "s");
  int any_bw = 0;
  for (int k = 0; k < 3; k++) any_bw |= m->sweep[0][k].kernel >= 0;
  if (any_bw) {
    const char *hdr[] = {"bandwidth", "read 1t", "read all", "copy 1t", "copy all", "triad 1t", "triad all"};
    cli_table *t = cli_table_new(7, hdr);
    for (int l = 0; l < RL_LEVEL_COUNT; l++) {
      char cells[6][48];
      const char *row[7] = {lvl_label[l]};
      for (int k = 0; k < 3; k++)
        for (int cfg = 1; cfg >= 0; cfg--) {
          const rl_sweep *s = &m->sweep[cfg][k];
          char *cell = cells[k * 2 + (1 - cfg)];
          if (s->kernel < 0 || !(s->levels.bw[l] > 0)) snprintf(cell, 48, "-");
          else {
            cli_q(cell, 48, s->levels.bw[l], RL_UNIT_BYTES_S);
            if (s->levels.spread[l] > 0.15 || s->levels.found[l] == 2) {
              size_t n = strlen(cell);
              snprintf(cell + n, 48 - n, "%s", s->levels.found[l] == 2 ? " *" : " ~");
            }
            if (s->levels.unreliable[l]) strncat(cell, " !", 47 - strlen(cell));
          }
          row[1 + k * 2 + (1 - cfg)] = cell;
        }
      cli_table_row(t, row);
    }
    fputc('\n', o);
    cli_table_print(ctx, t);
    cli_table_free(t);
    fprintf(o, "  STREAM counting (read 8, copy 16, triad 24 B per element; write-allocate not counted);\n"
               "  best sample; '~' plateau spread > 15%%, '*' no plateau found (median of the level's points)\n");
  }
  if (m->n_points > 0) {
    int above = 0;
    const char *hdr[] = {"op", "n", "FLOPs", "bytes", "intensity", "level", "achieved", "roof", "of roof"};
    cli_table *t = cli_table_new(9, hdr);
    for (int32_t i = 0; i < m->n_points; i++) {
      const rl_measure_point *p = &m->points[i];
      char cc[8][48];
      snprintf(cc[0], 48, "%.0f", p->n);
      cli_q(cc[1], 48, p->flops, RL_UNIT_FLOP);
      cli_q(cc[2], 48, p->bytes, RL_UNIT_BYTES);
      cli_q(cc[3], 48, p->intensity, RL_UNIT_FLOP_PER_BYTE);
      cli_q(cc[4], 48, p->achieved, RL_UNIT_FLOP_S);
      if (p->t.disturbed) strncat(cc[4], " !", 47 - strlen(cc[4]));
      if (p->roof > 0) {
        cli_q(cc[5], 48, p->roof, RL_UNIT_FLOP_S);
        size_t n = strlen(cc[5]);
        snprintf(cc[5] + n, 48 - n, " (%s)", p->bound == RL_BOUND_COMPUTE ? "flat" : "slant");
        snprintf(cc[6], 48, "%.0f%%%s", 100 * p->roof_fraction, p->roof_fraction > 1 ? " ^" : "");
        above += p->roof_fraction > 1;
      } else {
        snprintf(cc[5], 48, "-");
        snprintf(cc[6], 48, "-");
      }
      const char *row[] = {p->op, cc[0], cc[1], cc[2], cc[3], lvl_label[p->level], cc[4], cc[5], cc[6]};
      cli_table_row(t, row);
    }
    fputc('\n', o);
    cli_table_print(ctx, t);
    cli_table_free(t);
    fprintf(o, "  ideal F and Q (matmul F = 2n^3, Q = 3sn^2; add F = n, Q = 12n B in fp32); roof = min(peak, bandwidth of\n"
               "  the level Q fits in x intensity): the FMA peak and the best bandwidth measured at that level; %d threads\n",
            (int)m->threads);
    if (above)
      fprintf(o, "  ^ %d op(s) faster than the best the bandwidth kernels reached at their level: that figure is\n"
                 "    below what the level can do (a loop that does not saturate it, or too few or disturbed\n"
                 "    samples: --quick takes 5 of 1 ms), so the op's fraction is not a bound\n",
              above);
  }
  (void)b3;
}

/* The chart (charts.c) as SVG or terminal text (cols x rows, 0: the
 * default; colour when asked). */
static char *chart_text(const rl_measurement *m, int term, int cols, int rows, uint32_t flags, size_t *len) {
  chart_data *c = malloc(sizeof *c);
  if (!c) return NULL;
  if (chart_measure(m, c)) { free(c); return NULL; }
  rl_plot pl = chart_plot(c);
  pl.width = cols;
  pl.height = rows;
  pl.flags |= flags;
  size_t need = term ? rl_plot_term(&pl, NULL, 0) : rl_plot_svg(&pl, NULL, 0);
  char *text = malloc(need + 1);
  if (text) {
    if (term) {
      rl_plot_term(&pl, text, need + 1);
      chart_term_spell(text);
    }
    else rl_plot_svg(&pl, text, need + 1);
    *len = need;
  }
  free(c);
  return text;
}

/* One row per measured figure, every figure in base units: the peaks
 * (figure "peak", per kernel and thread count), the bandwidth of each
 * level (figure "bandwidth", per kernel and thread count) and the points
 * (figure "point": the matrix products and adds). A cell that does not
 * apply to the row's figure is empty. */
static void print_csv(cli_ctx *ctx, const rl_measurement *m) {
  static const char *const hdr[] = {"figure",     "kernel",         "level",          "threads",
                                    "n",          "flops",          "bytes",          "intensity_flop_per_byte",
                                    "measured_s", "flop_per_s",     "bytes_per_s",    "theoretical_flop_per_s",
                                    "roof_flop_per_s", "roof_fraction", "spread_fraction", "plateau",
                                    "unreliable"};
  enum { N = sizeof hdr / sizeof hdr[0] };
  cli_csv_row(ctx, hdr, N);
  char num[N][40];
#define NUM(i, v) (cli_csv_num(num[i], sizeof num[i], (v)))
  for (int one = 0; one < 2; one++) {
    const rl_peak_set *ps = one ? &m->peak_1t : &m->peak;
    for (int k = 0; k < RL_PK_COUNT; k++) {
      if (!(ps->flops[k] > 0)) continue;
      uint32_t bad = one ? m->peak_unreliable_1t[k] : m->peak_unreliable[k];
      const char *row[N] = {"peak", rl_peak_kernel_name(k), NULL, NUM(3, one ? 1 : m->threads), NULL, NULL, NULL,
                            NULL, NUM(8, ps->t[k].min), NUM(9, ps->flops[k]), NULL,
                            ps->theory[k] > 0 ? NUM(11, ps->theory[k]) : NULL, NULL, NULL,
                            NUM(14, ps->t[k].spread), NULL, bad ? "true" : "false"};
      cli_csv_row(ctx, row, N);
    }
  }
  for (int one = 0; one < 2; one++)
    for (int k = 0; k < 3; k++) {
      const rl_sweep *sw = &m->sweep[one][k];
      if (sw->kernel < 0) continue;
      for (int l = 0; l < RL_LEVEL_COUNT; l++) {
        if (!(sw->levels.bw[l] > 0)) continue;
        const char *row[N] = {"bandwidth", rl_bw_kernel_name(sw->kernel), rl_level_name(l), NUM(3, sw->threads),
                              NULL, NULL, NULL, NULL, NULL, NULL, NUM(10, sw->levels.bw[l]), NULL, NULL, NULL,
                              NUM(14, sw->levels.spread[l]), sw->levels.found[l] == 1 ? "true" : "false",
                              sw->levels.unreliable[l] ? "true" : "false"};
        cli_csv_row(ctx, row, N);
      }
    }
  for (int32_t i = 0; i < m->n_points; i++) {
    const rl_measure_point *p = &m->points[i];
    int roof = p->roof > 0;
    const char *row[N] = {"point", p->op, rl_level_name(p->level), NUM(3, p->threads), NUM(4, p->n),
                          NUM(5, p->flops), NUM(6, p->bytes), NUM(7, p->intensity), NUM(8, p->t.min),
                          NUM(9, p->achieved), NULL, NULL, roof ? NUM(12, p->roof) : NULL,
                          roof ? NUM(13, p->roof_fraction) : NULL, NUM(14, p->t.spread), NULL,
                          p->t.disturbed ? "true" : "false"};
    cli_csv_row(ctx, row, N);
  }
#undef NUM
}

/* ---- parse: the flags, checked, into measure_opts -------------------------- */
typedef struct measure_opts {
  rl_measure_opts mo;
  double ws[RL_MEASURE_MAX_WS]; /* --ws, in mo.ws */
  const char *save_hw, *id, *plot;
  int term;
} measure_opts;

static int parse(cli_ctx *ctx, int argc, char **argv, measure_opts *o) {
  memset(o, 0, sizeof *o);
  int quick = 0, threads = 0;
  const char *kernel = NULL, *ws_list = NULL;
  cli_opt opts[] = {{"quick", OPT_FLAG, &quick, 0},
                    {"threads", OPT_INT, &threads, 0},
                    {"kernel", OPT_STR, &kernel, 0},
                    {"ws", OPT_STR, &ws_list, 0},
                    {"save-hw", OPT_STR, &o->save_hw, 0},
                    {"id", OPT_STR, &o->id, 0},
                    {"plot", OPT_STR, &o->plot, 0},
                    {"term", OPT_FLAG, &o->term, 0},
                    {NULL, OPT_FLAG, NULL, 0}};
  int rc = cli_parse(ctx, argc, argv, opts, NULL, 0, NULL);
  if (rc) return rc;
  if (cli_seen(opts, "threads") && threads < 1)
    return cli_error(ctx, "--threads must be >= 1 (default: every CPU)");
  if (o->id && !o->save_hw) return cli_error(ctx, "--id goes with --save-hw");
  if (o->id) { /* what --save-hw writes must read back: the id through the reader's own rules */
    char probe[3 * RL_HW_ID_MAX + 64];
    size_t k = (size_t)snprintf(probe, sizeof probe, "id,name,fp64,bandwidth_tbs\n\"");
    for (const char *p = o->id; *p && k + 4 < sizeof probe; p++) {
      if (*p == '"') probe[k++] = '"';
      probe[k++] = *p;
    }
    snprintf(probe + k, sizeof probe - k, "\",x,1,1\n");
    rl_hw row;
    int32_t n = 0;
    rl_error pe;
    if (rl_hw_parse_csv(probe, strlen(probe), &row, 1, &n, &pe)) {
      /* the probe's line number is no part of the flag's message */
      const char *m = RLI_STARTS(pe.msg, "line 2: ") || RLI_STARTS(pe.msg, "line 2, ") ? pe.msg + RLI_LEN("line 2: ")
                                                                                      : pe.msg;
      return cli_error(ctx, "--id: %s", m);
    }
  }
  if ((rc = plot_svg_path(ctx, "--plot", o->plot))) return rc;
  if (o->term && (ctx->json || ctx->csv)) return cli_error(ctx, "--term and --%s exclude each other", ctx->json ? "json" : "csv");
  rl_error e;
  o->mo.threads = threads;
  o->mo.quick = quick;
  if (kernel && rl_measure_parts_parse(kernel, &o->mo.parts, &e)) return cli_error(ctx, "--kernel: %s", e.msg);
  if (ws_list) {
    char buf[1024], *items[RL_MEASURE_MAX_WS];
    int n = cli_split_list(ctx, "--ws", ws_list, buf, sizeof buf, items, RL_MEASURE_MAX_WS);
    if (n < 0) return CLI_USAGE;
    for (int i = 0; i < n; i++) {
      if ((rc = cli_quantity(ctx, "ws", items[i], RL_UNIT_BYTES, &o->ws[i], ""))) return rc;
      if (!(o->ws[i] > 0)) return cli_error(ctx, "--ws: working sets must be > 0");
      if (rl_param_check("ws", RL_UNIT_BYTES, o->ws[i], &e)) return cli_fail(ctx, RL_ERANGE, &e);
    }
    o->mo.ws = o->ws;
    o->mo.n_ws = n;
  }
  if (o->save_hw) { /* the id is checked before measuring */
    rl_measurement dummy;
    memset(&dummy, 0, sizeof dummy);
    dummy.peak.flops[RL_PK_FP32_FMA] = 1;
    dummy.bandwidth.bw[RL_LEVEL_DRAM] = 1;
    dummy.threads = 1;
    rl_hw probe_hw;
    if (rl_measure_to_hw(&dummy, o->id, &probe_hw, &e)) return cli_error(ctx, "--id: %s", e.msg);
  }
  return CLI_OK;
}

/* ---- compute: the measurement (progress on stderr), its warnings ---------- */
static int compute(cli_ctx *ctx, measure_opts *o, rl_measurement *m) {
  rl_error e;
  o->mo.progress = on_progress;
  o->mo.progress_user = ctx;
  rl_status st = rl_measure(&o->mo, m, &e);
  /* bad input is 2; an environment failure (no memory, no threads) 1 */
  if (st) return cli_fail(ctx, st, &e);
  if (m->n_unreliable > 0)
    fprintf(ctx->err, "roofline measure: warning: %d figure%s stayed disturbed after %d retake%s and %s marked "
                      "unreliable ('!')\n",
            (int)m->n_unreliable, m->n_unreliable == 1 ? "" : "s", (int)m->retakes, m->retakes == 1 ? "" : "s",
            m->n_unreliable == 1 ? "is" : "are");
  if (m->noisy)
    fprintf(ctx->err, "roofline measure: warning: the machine was noisy (repeats spread by %.0f%% at the median, "
                      "%.0f%% at worst); figures are best samples, rerun on a quiet machine to trust them\n",
            100 * m->spread_median, 100 * m->spread_max);
  return CLI_OK;
}

/* ---- print: --save-hw, the report, --plot and --term ---------------------- */
static int save_hw(cli_ctx *ctx, const measure_opts *o, const rl_measurement *m, cli_outfile *hwf) {
  rl_hw hw;
  rl_error e;
  if (rl_measure_to_hw(m, o->id, &hw, &e)) {
    cli_outfile_abort(hwf);
    return cli_error(ctx, "--save-hw: %s", e.msg);
  }
  size_t need = rl_hw_csv(&hw, 1, NULL, 0);
  char *text = malloc(need + 1);
  if (!text) {
    cli_outfile_abort(hwf);
    return cli_error(ctx, "out of memory");
  }
  rl_hw_csv(&hw, 1, text, need + 1);
  int rc = cli_outfile_commit(ctx, hwf, text, need);
  free(text);
  if (rc) return rc;
  fprintf(ctx->err, "roofline measure: wrote %s (id %s): use --hw %s --hw-file %s\n", o->save_hw, hw.id, hw.id,
          o->save_hw);
  const char *lo = strstr(hw.source, RL_HW_LEFT_OUT);
  if (lo)
    fprintf(ctx->err, "roofline measure: warning: --save-hw: %s not written as the machine's: "
                      "measure again on a quiet machine for them\n", lo + strlen(RL_HW_LEFT_OUT) + 1);
  return CLI_OK;
}

static int print_charts(cli_ctx *ctx, const measure_opts *o, const rl_measurement *m) {
  size_t len = 0;
  if (o->plot) {
    char *svg = chart_text(m, 0, 0, 0, 0, &len);
    if (!svg) return cli_error(ctx, "--plot: nothing to draw (measure the peak and a bandwidth kernel)");
    int rc = plot_write(ctx, "--plot", o->plot, svg, len);
    free(svg);
    if (rc) return rc;
    fprintf(ctx->err, "roofline measure: wrote %s\n", o->plot);
  }
  if (o->term) {
    int cols = 0, rows = 0;
    FILE *out = cli_raw_out(ctx); /* a drawing at the terminal's size, not prose */
    chart_term_size(out, &cols, &rows);
    char *txt = chart_text(m, 1, cols, rows, chart_term_color(out, 0) ? RL_PLOT_COLOR : 0u, &len);
    if (txt) {
      fputc('\n', out);
      fputs(txt, out);
      free(txt);
    }
  }
  return CLI_OK;
}

/* parse -> (open --save-hw) -> compute -> print */
static int run(cli_ctx *ctx, int argc, char **argv) {
  measure_opts o;
  int rc = parse(ctx, argc, argv, &o);
  if (rc) return rc;
  /* the file is opened (a temporary one beside it) before measuring, so
   * a path that cannot be written fails at once */
  cli_outfile hwf;
  if (o.save_hw && (rc = cli_outfile_open(ctx, &hwf, "--save-hw", o.save_hw)) != CLI_OK) return rc;
  rl_measurement *m = calloc(1, sizeof *m);
  if (!m) rc = cli_error(ctx, "out of memory");
  else rc = compute(ctx, &o, m);
  if (rc) {
    if (o.save_hw) cli_outfile_abort(&hwf);
    free(m);
    return rc;
  }
  if (o.save_hw) rc = save_hw(ctx, &o, m, &hwf);
  if (rc == CLI_OK) {
    if (ctx->json) rc = cli_print_json(ctx, json_fn, m);
    else if (ctx->csv) print_csv(ctx, m);
    else print_text(ctx, m);
  }
  if (rc == CLI_OK) rc = print_charts(ctx, &o, m);
  free(m);
  return rc;
}

const cli_command cmd_measure = {"measure", run,
                                 "measure this CPU's roofline (peaks, cache/DRAM bandwidth) and place matmuls and an add on it",
                                 help, 0};
