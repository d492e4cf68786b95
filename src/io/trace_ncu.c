/*
 * trace_ncu.c -- a streaming reader of Nsight Compute CSV exports
 * (`ncu --csv`, the details page: one row per launch and metric, or the
 * raw page: one row per launch, a units row under the header).
 *
 * Layouts and quirks (shared/docs/trace-formats.md section 3): ==PROF==
 * and application lines before the header (the first line starting with
 * "ID"); RFC 4180 quoting; metric rows one field shorter than rule rows;
 * thousands separators; units that vary by version (byte/Kbyte/...,
 * nsecond/ns/usecond, cycle/second/hz/Ghz); "n/a".
 *
 * Per launch, measured points, not estimates (trace-formats.md 3.5-3.6,
 * Nsight Compute's roofline section files):
 *   Q    = dram__bytes.sum (or dram__bytes_read.sum + dram__bytes_write.sum)
 *   F    = dadd + dmul + 2 dfma + fadd + fmul + 2 ffma
 *          + 2 hadd + 2 hmul + 4 hfma     (sm__sass_thread_inst_executed_
 *                                          op_*_pred_on.sum; ncu's half
 *                                          roofline weights, packed half2)
 *          + sum of sm__ops_path_tensor_*.sum when present, else
 *          sm__inst_executed_pipe_tensor.sum x FLOPs per MMA instruction of
 *          the architecture (see trace.c)
 *   time = gpu__time_duration.sum, else the SOL section's Duration, else
 *          sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second.
 * The roof used is that of the dominant class of FLOPs (tensor: the fp16
 * tensor peak; else fp64, fp32 or vector fp16). ncu replays kernels one by
 * one, so the file has no timeline: no span and no idle time.
 *
 * Per launch, for the hierarchical roofline (trace.c): l1tex__t_bytes.sum
 * and lts__t_bytes.sum; the roofs, when the export has the roofline
 * sections' rates, as value per cycle x cycles per second (the section
 * files: *_pred_on.sum.peak_sustained x 2 for FMA, x 4 for HFMA2, x
 * sm__cycles_elapsed.avg.per_second; l1tex__t_bytes.sum.peak_sustained or
 * l1tex__lsu_writeback_active*.sum.peak_sustained x 128 B, x
 * l1tex__cycles_elapsed.avg.per_second; lts__t_bytes.sum.peak_sustained or
 * lts__lts2xbar_cycles_active.sum.peak_sustained x 32 B, x
 * lts__cycles_elapsed.avg.per_second; dram__bytes.sum.peak_sustained x
 * dram__cycles_elapsed.avg.per_second; the fastest
 * sm__ops_path_tensor_*.sum.peak_sustained); speed of light
 * (sm__throughput / gpu__compute_memory_throughput
 * .avg.pct_of_peak_sustained_elapsed, or the SOL section's "Compute (SM)
 * Throughput" / "Memory Throughput" in %); occupancy (Occupancy section or
 * sm__maximum_warps_per_active_cycle_pct, sm__warps_active.avg.pct_of_
 * peak_sustained_active); waves per SM (Launch Statistics or
 * launch__waves_per_multiprocessor).
 */
#include "io/trace_io.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct csv {
  rli_src *src;
  rl_error *err;
  char *buf;
  size_t cap, pos, len;
  int eof;
  int64_t line;       /* current physical line (1-based) */
  char *f;            /* fields, NUL-separated */
  size_t fcap, flen;
  size_t *off;        /* field offsets */
  size_t noff, capoff;
} csv;

static int fill(csv *c) {
  if (c->eof) return 0;
  long r = rli_src_read(c->src, c->buf, c->cap, c->err);
  if (r < 0) return -1;
  c->pos = 0;
  c->len = (size_t)r;
  if (r == 0) c->eof = 1;
  return r > 0;
}

static int getc_(csv *c) {
  if (c->pos == c->len) {
    int r = fill(c);
    if (r < 0) return -2;
    if (r == 0) return -1;
  }
  return (unsigned char)c->buf[c->pos++];
}

#define FIELD_MAX ((size_t)256 << 20) /* one record's text: past it, not an export */

/* Append ch to the record. 0, -1 out of memory, -2 past FIELD_MAX. */
static int fput(csv *c, char ch) {
  if (c->flen + 2 > FIELD_MAX) return -2;
  if (!rli_grow((void **)&c->f, 1, c->flen + 2, &c->fcap)) return -1;
  c->f[c->flen++] = ch;
  return 0;
}

static int fnew(csv *c) {
  if (!rli_grow((void **)&c->off, sizeof *c->off, c->noff + 1, &c->capoff)) return -1;
  c->off[c->noff++] = c->flen;
  return 0;
}

/* Read one record. Returns 1, 0 at the end, -1 on error (err set). */
static int record(csv *c, rl_status *st) {
  c->flen = 0;
  c->noff = 0;
  int ch = getc_(c);
  if (ch == -2) { *st = RL_EPARSE; return -1; }
  if (ch == -1) return 0;
  c->line++;
  int64_t start = c->line;
  int fr = 0; /* fput's or fnew's failure */
  if ((fr = fnew(c))) goto nomem;
  if (start == 1 && ch == 0xEF) {
    /* a UTF-8 byte-order mark (a Windows export's first bytes) is no text */
    int b1 = getc_(c), b2 = b1 == 0xBB ? getc_(c) : -3;
    if (b1 == 0xBB && b2 == 0xBF) {
      ch = getc_(c);
      if (ch == -2) { *st = RL_EPARSE; return -1; }
      if (ch == -1) return 0;
    } else {
      if ((fr = fput(c, (char)0xEF))) goto nomem;
      if (b1 >= 0 && b2 != -3 && (fr = fput(c, (char)b1))) goto nomem;
      ch = b2 == -3 ? b1 : b2;
      if (ch == -2) { *st = RL_EPARSE; return -1; }
    }
  }
  int quoted = 0, inq = 0;
  for (;; ch = getc_(c)) {
    if (ch == -2) { *st = RL_EPARSE; return -1; }
    if (ch == -1) {
      if (inq) {
        *st = RL_ETRUNCATED;
        rli_fail(c->err, RL_ETRUNCATED, "%s: line %lld: a quoted field is not closed (truncated file?)",
                 c->src->label, (long long)start);
        return -1;
      }
      break;
    }
    if (inq) {
      if (ch == '"') {
        int n = getc_(c);
        if (n == '"') { if ((fr = fput(c, '"'))) goto nomem; continue; }
        inq = 0;
        if (n == -2) { *st = RL_EPARSE; return -1; }
        if (n == -1) break;
        ch = n;
      } else {
        if (ch == '\n') c->line++;
        if ((fr = fput(c, (char)ch))) goto nomem;
        continue;
      }
    }
    if (ch == '"' && !quoted && c->flen == c->off[c->noff - 1]) { quoted = inq = 1; continue; }
    if (ch == ',') {
      if ((fr = fput(c, 0)) || (fr = fnew(c))) goto nomem;
      quoted = 0;
      continue;
    }
    if (ch == '\n') break;
    if (ch == '\r') continue;
    if ((fr = fput(c, (char)ch))) goto nomem;
  }
  if ((fr = fput(c, 0))) goto nomem;
  return 1;
nomem:
  if (fr == -2) { /* the cap, not the machine: bad input (/dev/zero, a binary file) */
    *st = RL_ERANGE;
    rli_fail(c->err, RL_ERANGE, "%s: line %lld: a record longer than %zu MiB: not an Nsight Compute export",
             c->src->label, (long long)c->line, FIELD_MAX >> 20);
    return -1;
  }
  *st = RL_ENOMEM;
  rli_fail(c->err, RL_ENOMEM, "%s: line %lld: out of memory", c->src->label, (long long)c->line);
  return -1;
}

static const char *fld(const csv *c, int i) {
  return i >= 0 && (size_t)i < c->noff ? c->f + c->off[i] : "";
}

/* ---- metrics of one launch ---------------------------------------------- */
/* Metrics beyond F, Q and time, by raw name or by the label of the
 * section that carries them (trace-formats.md 3.2, 3.5; Nsight Compute's
 * SpeedOfLight_Hierarchical*RooflineChart, LaunchStats and Occupancy
 * sections). kind: 'B' bytes, 'p' percent, 'P' percent with the "%" unit
 * required (section labels shared with other units), 'n' count, 'c' per
 * cycle, 'h' Hz. */
enum {
  X_L1, X_L2, X_SOL_SM, X_SOL_MEM, X_OCC_T, X_OCC_A, X_WAVES,
  X_L1_PS, X_L1_WB_PS, X_L2_PS, X_L2_XBAR_PS, X_DRAM_PS, X_L1_HZ, X_L2_HZ, X_DRAM_HZ,
  X_PK_DFMA, X_PK_FFMA, X_PK_HFMA, X_PK_TENSOR, NX
};
static const struct { const char *name; char kind; int x; } xmetrics[] = {
    {"l1tex__t_bytes.sum", 'B', X_L1},
    {"lts__t_bytes.sum", 'B', X_L2},
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 'p', X_SOL_SM},
    {"Compute (SM) Throughput", 'P', X_SOL_SM},
    {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", 'p', X_SOL_MEM},
    {"Memory Throughput", 'P', X_SOL_MEM},
    {"sm__maximum_warps_per_active_cycle_pct", 'p', X_OCC_T},
    {"Theoretical Occupancy", 'P', X_OCC_T},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", 'p', X_OCC_A},
    {"Achieved Occupancy", 'P', X_OCC_A},
    {"launch__waves_per_multiprocessor", 'n', X_WAVES},
    {"Waves Per SM", 'n', X_WAVES},
    {"l1tex__t_bytes.sum.peak_sustained", 'c', X_L1_PS},
    {"l1tex__lsu_writeback_active.sum.peak_sustained", 'c', X_L1_WB_PS},
    {"l1tex__lsu_writeback_active_mem_lg.sum.peak_sustained", 'c', X_L1_WB_PS},
    {"l1tex__lsu_writeback_active_mem_lgds.sum.peak_sustained", 'c', X_L1_WB_PS},
    {"lts__t_bytes.sum.peak_sustained", 'c', X_L2_PS},
    {"lts__lts2xbar_cycles_active.sum.peak_sustained", 'c', X_L2_XBAR_PS},
    {"dram__bytes.sum.peak_sustained", 'c', X_DRAM_PS},
    {"l1tex__cycles_elapsed.avg.per_second", 'h', X_L1_HZ},
    {"lts__cycles_elapsed.avg.per_second", 'h', X_L2_HZ},
    {"dram__cycles_elapsed.avg.per_second", 'h', X_DRAM_HZ},
    {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained", 'c', X_PK_DFMA},
    {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained", 'c', X_PK_DFMA},
    {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained", 'c', X_PK_FFMA},
    {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained", 'c', X_PK_FFMA},
    {"sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained", 'c', X_PK_HFMA},
    {"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained", 'c', X_PK_HFMA},
};

typedef struct launch {
  char *name;
  int64_t id;
  int64_t line;
  double dram, dram_r, dram_w, gtime, sol_dur, cycles, rate, tensor_inst, tensor_ops;
  double dram_ps; /* dram__bytes.sum.per_second: the DRAM rate ncu measured */
  double ctr[9];
  int has_dram, has_dram_rw, has_gtime, has_sol, has_cycles, has_rate, has_ti, has_to, has_ctr;
  int has_dram_ps;
  /* the hierarchical roofline, speed of light, occupancy: < 0 absent */
  double x[NX];
} launch;

static const char *const ctr_names[9] = {"dadd", "dmul", "dfma", "fadd", "fmul", "ffma",
                                         "hadd", "hmul", "hfma"};

/* multiplier of a unit to base units of `kind` ('B' bytes, 't' ns, 'h' Hz,
 * 'n' plain count); < 0 when unknown */
static double unit_scale(const char *u, char kind) {
  while (*u == ' ') u++;
  if (!*u) return 1;
  if (kind == 'B') {
    static const struct { const char *n; double m; } t[] = {
        {"byte", 1}, {"Kbyte", 1e3}, {"Mbyte", 1e6}, {"Gbyte", 1e9}, {"Tbyte", 1e12},
        {"Kibyte", 1024}, {"Mibyte", 1048576}, {"Gibyte", 1073741824.0}, {"B", 1},
        {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) if (!strcmp(u, t[i].n)) return t[i].m;
    return -1;
  }
  if (kind == 't') {
    static const struct { const char *n; double m; } t[] = {
        {"nsecond", 1}, {"ns", 1}, {"usecond", 1e3}, {"us", 1e3}, {"msecond", 1e6},
        {"ms", 1e6}, {"second", 1e9}, {"s", 1e9}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) if (!strcmp(u, t[i].n)) return t[i].m;
    return -1;
  }
  if (kind == 'h') {
    static const struct { const char *n; double m; } t[] = {
        {"cycle/second", 1}, {"hz", 1}, {"Hz", 1}, {"cycle/usecond", 1e6}, {"Mhz", 1e6},
        {"MHz", 1e6}, {"cycle/nsecond", 1e9}, {"Ghz", 1e9}, {"GHz", 1e9},
        {"cycle/msecond", 1e3}, {"Khz", 1e3}, {"kHz", 1e3}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) if (!strcmp(u, t[i].n)) return t[i].m;
    return -1;
  }
  if (kind == 'r') {
    static const struct { const char *n; double m; } t[] = {
        {"byte/second", 1}, {"Kbyte/second", 1e3}, {"Mbyte/second", 1e6}, {"Gbyte/second", 1e9},
        {"Tbyte/second", 1e12}, {"B/s", 1}, {"KB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}, {"TB/s", 1e12}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) if (!strcmp(u, t[i].n)) return t[i].m;
    return -1;
  }
  if (kind == 'p' || kind == 'P') return !strcmp(u, "%") ? 1 : -1;
  if (kind == 'c') {
    static const char *const t[] = {"byte/cycle", "inst/cycle", "op/cycle", "ops/cycle",
                                    "cycle", "cycle/cycle", "warp/cycle"};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) if (!strcmp(u, t[i])) return 1;
    return -1;
  }
  /* counts: inst, cycle, with an optional K/M/G prefix */
  double m = 1;
  if ((u[0] == 'K' || u[0] == 'M' || u[0] == 'G') && u[1]) {
    m = u[0] == 'K' ? 1e3 : u[0] == 'M' ? 1e6 : 1e9;
    u++;
  }
  if (!strcmp(u, "inst") || !strcmp(u, "cycle") || !strcmp(u, "op") || !strcmp(u, "ops") ||
      !strcmp(u, "")) return m;
  return -1;
}

typedef struct ncu {
  csv c;
  rl_trace *t;
  launch cur;
  int have;
  int64_t kernels, rows;
  int32_t cc_major, cc_minor;
  int no_time;
} ncu;

/* parse a value; 0 absent ("", n/a), 1 ok, -1 error (message set) */
static int value(ncu *n, const char *metric, const char *v, double *out) {
  char tmp[96];
  size_t j = 0;
  while (*v == ' ') v++;
  if (!*v || !strcmp(v, "n/a") || !strcmp(v, "N/A") || !strcmp(v, "-")) return 0;
  for (const char *s = v; *s; s++) {
    if (*s == ',') continue; /* thousands separator */
    if (j + 1 >= sizeof tmp) break;
    tmp[j++] = *s;
  }
  tmp[j] = 0;
  char *end;
  double x = strtod(tmp, &end);
  while (*end == ' ') end++;
  if (end == tmp || *end || isnan(x)) {
    rli_fail(n->c.err, RL_EPARSE, "%s: line %lld: metric %s: '%.40s' is not a number",
             n->c.src->label, (long long)n->c.line, metric, v);
    return -1;
  }
  if (!(fabs(x) < 1e30)) {
    rli_fail(n->c.err, RL_EPARSE, "%s: line %lld: metric %s: %.40s is out of range",
             n->c.src->label, (long long)n->c.line, metric, v);
    return -1;
  }
  if (x < 0) {
    rli_fail(n->c.err, RL_EPARSE, "%s: line %lld: metric %s: negative value %.40s",
             n->c.src->label, (long long)n->c.line, metric, v);
    return -1;
  }
  *out = x;
  return 1;
}

/* A clock rate (cycles per second) no GPU has: below 1 MHz or above
 * 100 GHz (a time computed from it would be absurd or not finite). 0 stays
 * "not measured". */
static int clock_ok(ncu *n, const char *metric, const char *unit, const char *val, double hz) {
  if (hz == 0 || (hz >= 1e6 && hz <= 1e11)) return 1;
  rli_fail(n->c.err, RL_EPARSE,
           "%s: line %lld: metric %s: %.40s %.20s is not a clock rate (1 MHz to 100 GHz)",
           n->c.src->label, (long long)n->c.line, metric, val, unit);
  return 0;
}

static int metric(ncu *n, const char *name, const char *unit, const char *val) {
  launch *l = &n->cur;
  char kind = 0;
  double *dst = NULL;
  int *flag = NULL;
  int ci = -1;
  for (size_t i = 0; i < sizeof xmetrics / sizeof xmetrics[0]; i++) {
    if (strcmp(name, xmetrics[i].name) != 0) continue;
    char k = xmetrics[i].kind;
    /* a section label with another unit is another metric of that name */
    if (k == 'P' && strcmp(unit, "%") != 0) return 0;
    double v;
    int r = value(n, name, val, &v);
    if (r <= 0) return r;
    double m = k == 'p' && !*unit ? 1 : unit_scale(unit, k);
    if (m < 0) {
      rli_fail(n->c.err, RL_EPARSE, "%s: line %lld: metric %s: unknown unit '%.30s'",
               n->c.src->label, (long long)n->c.line, name, unit);
      return -1;
    }
    if (k == 'h' && !clock_ok(n, name, unit, val, v * m)) return -1;
    l->x[xmetrics[i].x] = k == 'p' || k == 'P' ? v * m / 100 : v * m;
    return 0;
  }
  if (RLI_STARTS(name, "sm__ops_path_tensor_") && strstr(name, ".sum.peak_sustained") &&
      !strcmp(strstr(name, ".sum.peak_sustained"), ".sum.peak_sustained")) {
    double v;
    int r = value(n, name, val, &v);
    if (r <= 0) return r;
    if (unit_scale(unit, 'c') < 0) {
      rli_fail(n->c.err, RL_EPARSE, "%s: line %lld: metric %s: unknown unit '%.30s'",
               n->c.src->label, (long long)n->c.line, name, unit);
      return -1;
    }
    if (v > l->x[X_PK_TENSOR]) l->x[X_PK_TENSOR] = v; /* the fastest variant */
    return 0;
  }
  if (!strcmp(name, "dram__bytes.sum")) { kind = 'B'; dst = &l->dram; flag = &l->has_dram; }
  else if (!strcmp(name, "dram__bytes_read.sum")) { kind = 'B'; dst = &l->dram_r; flag = &l->has_dram_rw; }
  else if (!strcmp(name, "dram__bytes_write.sum")) { kind = 'B'; dst = &l->dram_w; flag = &l->has_dram_rw; }
  else if (!strcmp(name, "dram__bytes.sum.per_second")) { kind = 'r'; dst = &l->dram_ps; flag = &l->has_dram_ps; }
  else if (!strcmp(name, "gpu__time_duration.sum")) { kind = 't'; dst = &l->gtime; flag = &l->has_gtime; }
  else if (!strcmp(name, "Duration")) { kind = 't'; dst = &l->sol_dur; flag = &l->has_sol; }
  else if (!strcmp(name, "sm__cycles_elapsed.avg")) { kind = 'n'; dst = &l->cycles; flag = &l->has_cycles; }
  else if (!strcmp(name, "sm__cycles_elapsed.avg.per_second")) { kind = 'h'; dst = &l->rate; flag = &l->has_rate; }
  else if (!strcmp(name, "sm__inst_executed_pipe_tensor.sum")) { kind = 'n'; dst = &l->tensor_inst; flag = &l->has_ti; }
  else if (RLI_STARTS(name, "sm__ops_path_tensor_")) {
    size_t ln = strlen(name);
    if (ln < 4 || strcmp(name + ln - 4, ".sum") != 0) return 0;
    kind = 'n';
    flag = &l->has_to;
  } else {
    const char *op = NULL;
    if (RLI_STARTS(name, RLI_SASS_SMSP)) op = name + RLI_LEN(RLI_SASS_SMSP);
    else if (RLI_STARTS(name, RLI_SASS_SM)) op = name + RLI_LEN(RLI_SASS_SM);
    if (!op) return 0;
    for (int i = 0; i < 9; i++) {
      size_t nl = strlen(ctr_names[i]);
      if (!strncmp(op, ctr_names[i], nl) && !strcmp(op + nl, "_pred_on.sum")) ci = i;
    }
    if (ci < 0) return 0;
    kind = 'n';
    flag = &l->has_ctr;
  }
  double v;
  int r = value(n, name, val, &v);
  if (r <= 0) return r;
  double m = unit_scale(unit, kind);
  if (m < 0) {
    rli_fail(n->c.err, RL_EPARSE, "%s: line %lld: metric %s: unknown unit '%.30s'",
             n->c.src->label, (long long)n->c.line, name, unit);
    return -1;
  }
  v *= m;
  if (kind == 'h' && !clock_ok(n, name, unit, val, v)) return -1;
  if (ci >= 0) l->ctr[ci] += v;
  else if (dst == NULL) l->tensor_ops += v;
  else if (dst == &l->dram_r || dst == &l->dram_w) *dst += v;
  else *dst = v;
  *flag = 1;
  return 0;
}

static rl_status emit(ncu *n) {
  launch *l = &n->cur;
  if (!n->have) return RL_OK;
  n->have = 0;
  rl_trace *t = n->t;
  rli_kernel k;
  memset(&k, 0, sizeof k);
  k.op = RLI_NONE;
  k.inst = RLI_NONE;
  k.name = rli_trace_str(t, l->name ? l->name : "", l->name ? strlen(l->name) : 0);
  double ns = l->has_gtime ? l->gtime : l->has_sol ? l->sol_dur
              : l->has_cycles && l->has_rate && l->rate > 0 ? l->cycles / l->rate * 1e9 : -1;
  if (!(ns < 1e18)) /* over 30 years: the cycles or the clock is wrong */
    return rli_fail(n->c.err, RL_EPARSE, "%s: launch %lld: a time of %g ns (%s) is out of range",
                    n->c.src->label, (long long)l->id, ns,
                    l->has_gtime ? "gpu__time_duration.sum" : l->has_sol ? "Duration"
                                 : "sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second");
  k.dur_s = ns >= 0 ? ns * 1e-9 : -1;
  if (ns < 0) n->no_time++;
  k.start_s = 0;
  rli_cost c;
  memset(&c, 0, sizeof c);
  c.why = RLI_NONE;
  c.measured = 1;
  double fd = l->ctr[0] + l->ctr[1] + 2 * l->ctr[2];
  double ff = l->ctr[3] + l->ctr[4] + 2 * l->ctr[5];
  double fh = 2 * l->ctr[6] + 2 * l->ctr[7] + 4 * l->ctr[8];
  double ft = l->has_to ? l->tensor_ops : 0;
  c.flops = l->has_ctr || l->has_to ? fd + ff + fh + ft : (l->has_ti ? 0 : -1);
  if (!l->has_to && l->has_ti) c.tensor_inst = l->tensor_inst;
  double tensor_guess = ft > 0 ? ft : c.tensor_inst * 4096;
  if (tensor_guess > 0 && tensor_guess >= fd && tensor_guess >= ff && tensor_guess >= fh) {
    c.dtype = RL_FP16;
    c.tensor = 1;
  } else {
    c.dtype = fd > ff && fd > fh ? RL_FP64 : fh > ff ? RL_FP16 : RL_FP32;
    c.tensor = 0;
  }
  c.bytes = l->has_dram ? l->dram : l->has_dram_rw ? l->dram_r + l->dram_w : -1;
  if (c.flops < 0 || c.bytes < 0) {
    const char *w = c.flops < 0 && c.bytes < 0 ? "no FLOP counters and no dram__bytes metric in the export"
                    : c.flops < 0 ? "no FLOP counters (sm__sass_thread_inst_executed_op_*) in the export"
                                  : "no dram__bytes metric in the export";
    c.why = rli_trace_str(t, w, strlen(w));
  }
  k.cost = rli_trace_cost(t, &c);
  /* the DRAM rate the file measured: ncu's own, else bytes over the time */
  if (l->has_dram_ps) rli_trace_note_dram(t, l->dram_ps, l->name, l->id);
  if (c.bytes > 0 && k.dur_s > 0) rli_trace_note_dram(t, c.bytes / k.dur_s, l->name, l->id);
  free(l->name);
  l->name = NULL;
  if (k.name == RLI_NONE || k.cost == RLI_NONE)
    return rli_fail(n->c.err, RL_ENOMEM, "%s: out of memory", n->c.src->label);
  n->kernels++;
  rl_status st = rli_trace_add(t, &k, n->c.err);
  if (st != RL_OK) return st;
  /* peaks = value per cycle x cycles per second (Nsight Compute's roofline
   * section files: FMA x 2 FLOPs, HFMA2 x 4; L1 writeback cycles x 128 B,
   * L2-to-crossbar cycles x 32 B) */
  const double *x = l->x;
  rli_ncu_launch m;
  memset(&m, 0, sizeof m);
  m.id = l->id;
  m.l1_bytes = x[X_L1];
  m.l2_bytes = x[X_L2];
  m.sol_sm = x[X_SOL_SM];
  m.sol_mem = x[X_SOL_MEM];
  m.occ_theory = x[X_OCC_T];
  m.occ_achieved = x[X_OCC_A];
  m.waves = x[X_WAVES];
  m.sm_hz = l->has_rate ? l->rate : 0;
  if (x[X_L1_HZ] > 0)
    m.bw[0] = x[X_L1_PS] > 0 ? x[X_L1_PS] * x[X_L1_HZ] : x[X_L1_WB_PS] > 0 ? x[X_L1_WB_PS] * 128 * x[X_L1_HZ] : 0;
  if (x[X_L2_HZ] > 0)
    m.bw[1] = x[X_L2_PS] > 0 ? x[X_L2_PS] * x[X_L2_HZ] : x[X_L2_XBAR_PS] > 0 ? x[X_L2_XBAR_PS] * 32 * x[X_L2_HZ] : 0;
  if (x[X_DRAM_HZ] > 0 && x[X_DRAM_PS] > 0) m.bw[2] = x[X_DRAM_PS] * x[X_DRAM_HZ];
  if (m.sm_hz > 0) {
    if (x[X_PK_DFMA] > 0) m.peak[0] = 2 * x[X_PK_DFMA] * m.sm_hz;
    if (x[X_PK_FFMA] > 0) m.peak[1] = 2 * x[X_PK_FFMA] * m.sm_hz;
    if (x[X_PK_HFMA] > 0) m.peak[2] = 4 * x[X_PK_HFMA] * m.sm_hz;
    if (x[X_PK_TENSOR] > 0) m.peak[3] = x[X_PK_TENSOR] * m.sm_hz;
  }
  m.tensor_src = ft > 0 ? 1 : c.tensor_inst > 0 ? 2 : 0;
  return rli_trace_add_launch(t, &m, n->c.err);
}

static int start_launch(ncu *n, const char *idtext, const char *name) {
  char *end;
  double id = strtod(idtext, &end);
  if (end == idtext || *end || !(id >= 0 && id < 1e15)) {
    rli_fail(n->c.err, RL_EPARSE, "%s: line %lld: ID '%.30s' is not a launch number",
             n->c.src->label, (long long)n->c.line, idtext);
    return -1;
  }
  memset(&n->cur, 0, sizeof n->cur);
  for (int i = 0; i < NX; i++) n->cur.x[i] = -1;
  n->cur.id = (int64_t)id;
  n->cur.line = n->c.line;
  size_t l = strlen(name);
  n->cur.name = malloc(l + 1);
  if (!n->cur.name) {
    rli_fail(n->c.err, RL_ENOMEM, "%s: out of memory", n->c.src->label);
    return -1;
  }
  memcpy(n->cur.name, name, l + 1);
  n->have = 1;
  return 0;
}

static int col(const csv *c, const char *name) {
  for (size_t i = 0; i < c->noff; i++)
    if (!strcmp(c->f + c->off[i], name)) return (int)i;
  return -1;
}

static void parse_cc(ncu *n, const char *s) {
  int a = 0, b = 0;
  if (sscanf(s, "%d.%d", &a, &b) == 2 && a > 0 && a < 100 && b >= 0 && b < 100) {
    n->cc_major = a;
    n->cc_minor = b;
  }
}

/* The columns of the header the reader uses; -1 absent. */
typedef struct cols {
  int name, mname, unit, val, cc;
  int n; /* fields in the header */
} cols;

/* 1. the header: the first record whose first field is "ID" */
static rl_status find_header(ncu *n) {
  rl_status st = RL_OK;
  int64_t skipped = 0;
  for (;;) {
    int r = record(&n->c, &st);
    if (r < 0) return st;
    if (r == 0)
      return rli_fail(n->c.err, RL_EPARSE,
                      "%s: line %lld: no Nsight Compute header (a line starting with \"ID\") in "
                      "%lld lines: not an ncu --csv export",
                      n->c.src->label, (long long)n->c.line, (long long)skipped);
    if (!strcmp(fld(&n->c, 0), "ID")) return RL_OK;
    skipped++;
  }
}

/* A raw page (--page raw): one row per launch and a column per metric,
 * the column names in the header and their units in the row after it
 * (or no units row: base units). */
static rl_status read_raw(ncu *n, const cols *k) {
  rl_error *err = n->c.err;
  const char *label = n->c.src->label;
  int ncols = k->n;
  rl_status st = RL_OK;
  /* keep the column names, then read the units row */
  char **names = calloc((size_t)ncols, sizeof *names);
  char **units = calloc((size_t)ncols, sizeof *units);
  if (!names || !units) { free(names); free(units); return rli_fail(err, RL_ENOMEM, "out of memory"); }
  for (int i = 0; i < ncols; i++) names[i] = strdup(fld(&n->c, i));
  for (int i = 0; i < ncols; i++)
    if (!names[i]) {
      for (int j = 0; j < ncols; j++) free(names[j]);
      free(names);
      free(units);
      return rli_fail(err, RL_ENOMEM, "%s: out of memory", label);
    }
  int r = record(&n->c, &st);
  if (r <= 0) {
    if (r == 0) st = rli_fail(err, RL_EPARSE, "%s: line %lld: the raw page ends after its header "
                              "(no units row, no launches)", label, (long long)n->c.line);
    for (int i = 0; i < ncols; i++) free(names[i]);
    free(names);
    free(units);
    return st;
  }
  for (int i = 0; i < ncols; i++) units[i] = strdup(fld(&n->c, i));
  for (int i = 0; i < ncols; i++)
    if (!units[i]) units[i] = NULL; /* treated as no unit below */
  if (fld(&n->c, 0)[0] != 0) {
    /* no units row: this row is a launch; treat units as base */
    for (int i = 0; i < ncols; i++) { free(units[i]); units[i] = NULL; }
    goto raw_row;
  }
  for (;;) {
    r = record(&n->c, &st);
    if (r < 0) break;
    if (r == 0) break;
  raw_row:
    if (RLI_STARTS(fld(&n->c, 0), "==") || (n->c.noff == 1 && !fld(&n->c, 0)[0])) continue;
    n->rows++;
    if ((int)n->c.noff < ncols) {
      st = rli_fail(err, RL_EPARSE, "%s: line %lld: %zu fields where the header has %d",
                    label, (long long)n->c.line, n->c.noff, ncols);
      break;
    }
    if (start_launch(n, fld(&n->c, 0), fld(&n->c, k->name)) < 0) { st = RL_EPARSE; break; }
    if (k->cc >= 0) parse_cc(n, fld(&n->c, k->cc));
    int bad = 0;
    for (int i = 0; i < ncols && !bad; i++)
      if (metric(n, names[i], units[i] ? units[i] : "", fld(&n->c, i)) < 0) bad = 1;
    if (bad) { st = RL_EPARSE; break; }
    if ((st = emit(n)) != RL_OK) break;
  }
  for (int i = 0; i < ncols; i++) { free(names[i]); free(units[i]); }
  free(names);
  free(units);
  return st;
}

/* A details page (the default --page details): one row per metric of a
 * launch (ID, Kernel Name, Metric Name, Metric Unit, Metric Value), the
 * rows of one launch together. */
static rl_status read_details(ncu *n, const cols *k) {
  rl_error *err = n->c.err;
  const char *label = n->c.src->label;
  rl_status st = RL_OK;
  int64_t cur_id = -1;
  for (;;) {
    int r = record(&n->c, &st);
    if (r < 0) return st;
    if (r == 0) break;
    if (RLI_STARTS(fld(&n->c, 0), "==") || (n->c.noff == 1 && !fld(&n->c, 0)[0])) continue;
    n->rows++;
    if ((int)n->c.noff <= k->val)
      return rli_fail(err, RL_EPARSE, "%s: line %lld: %zu fields, too few for a metric row of "
                      "the %d-column header", label, (long long)n->c.line, n->c.noff, k->n);
    const char *idt = fld(&n->c, 0);
    char *end;
    double idv = strtod(idt, &end);
    if (end == idt || *end)
      return rli_fail(err, RL_EPARSE, "%s: line %lld: ID '%.30s' is not a launch number",
                      label, (long long)n->c.line, idt);
    if (!n->have || (int64_t)idv != cur_id) {
      if ((st = emit(n)) != RL_OK) return st;
      if (start_launch(n, idt, fld(&n->c, k->name)) < 0) return RL_EPARSE;
      cur_id = (int64_t)idv;
    }
    if (k->cc >= 0) parse_cc(n, fld(&n->c, k->cc));
    const char *mn = fld(&n->c, k->mname);
    if (!*mn) continue; /* a rule row */
    if (metric(n, mn, k->unit >= 0 ? fld(&n->c, k->unit) : "", fld(&n->c, k->val)) < 0)
      return RL_EPARSE;
  }
  return emit(n);
}

rl_status rli_read_ncu(rl_trace *t, rli_src *s, rl_error *err) {
  rl_error scratch;
  if (!err) err = &scratch;
  ncu *n = calloc(1, sizeof *n);
  if (!n) return rli_fail(err, RL_ENOMEM, "%s: out of memory", s->label);
  n->t = t;
  n->c.src = s;
  n->c.err = err;
  n->c.cap = 1u << 18;
  n->c.buf = malloc(n->c.cap);
  rl_status st = RL_OK;
  if (!n->c.buf) { st = rli_fail(err, RL_ENOMEM, "%s: out of memory", s->label); goto out; }
  if ((st = find_header(n)) != RL_OK) goto out;
  int64_t hline = n->c.line;
  cols k = {col(&n->c, "Kernel Name"), col(&n->c, "Metric Name"), col(&n->c, "Metric Unit"),
            col(&n->c, "Metric Value"), col(&n->c, "CC"), (int)n->c.noff};
  if (k.name < 0) {
    st = rli_fail(err, RL_EPARSE, "%s: line %lld: the header has no \"Kernel Name\" column: not "
                  "an ncu --csv export", s->label, (long long)hline);
    goto out;
  }
  if ((k.mname >= 0) != (k.val >= 0)) {
    st = rli_fail(err, RL_EPARSE, "%s: line %lld: a details-page header needs both \"Metric "
                  "Name\" and \"Metric Value\"", s->label, (long long)hline);
    goto out;
  }
  int details = k.mname >= 0 && k.val >= 0;
  if ((st = details ? read_details(n, &k) : read_raw(n, &k)) != RL_OK) goto out;
  if (n->kernels == 0) {
    st = rli_fail(err, RL_EPARSE, "%s: line %lld: the header is followed by no kernel launches",
                  s->label, (long long)n->c.line);
    goto out;
  }
  rli_trace_set_format(t, "ncu");
  rli_trace_set_no_timeline(t);
  rli_trace_count_events(t, n->rows);
  if (n->cc_major) rli_trace_set_device(t, NULL, 0, n->cc_major, n->cc_minor);
out:
  free(n->cur.name);
  free(n->c.buf);
  free(n->c.f);
  free(n->c.off);
  free(n);
  return st;
}
