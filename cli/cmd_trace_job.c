/*
 * cmd_trace_job.c -- `roofline trace DIR | FILES | GLOB`: the traces of every
 * rank of a distributed job, read by worker threads (or, in
 * build/roofline-mpi, by MPI processes: cli_job_mpi), one row per rank,
 * the stragglers, the collectives' busbw with and without the wait, and
 * the spread of the top kernels' time across ranks.
 */
#include "cli.h"
#include "charts.h"

#include <math.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const cli_job_runner *cli_job_mpi = NULL;

static size_t json_fn(void *p, char *buf, size_t cap) { return rl_job_json(p, buf, cap); }

static const char *pct(char *b, size_t cap, double v) {
  if (isfinite(v)) snprintf(b, cap, "%.2f%%", 100 * v);
  else snprintf(b, cap, "-");
  return b;
}

static const char *base(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* The matched collectives by process group and kind: busbw with and
 * without the wait, against the link. */
static void print_colls(cli_ctx *ctx, const rl_job *j) {
  int32_t nc = 0;
  const rl_job_coll *c = rl_job_colls(j, &nc);
  if (!nc) return;
  FILE *o = ctx->out;
  fputs("\ncollectives by process group and kind, by the transfer's gain (busbw with the wait, and\n"
        "without it: a slow rank opens a gap between the two and is last in most; a slow link\n"
        "keeps both low, no gap):\n", o);
  const char *h[] = {"group", "kind", "ranks", "count", "bytes", "time", "no wait", "waited",
                     "busbw", "no wait", "of link", "gain", "last rank"};
  cli_table *tb = cli_table_new(13, h);
  for (int32_t i = 0; i < nc; i++) {
    char v[13][64];
    snprintf(v[0], 64, "%.40s", c[i].group);
    snprintf(v[1], 64, "%s", c[i].kind);
    snprintf(v[2], 64, "%d", (int)c[i].ranks);
    snprintf(v[3], 64, "%d", (int)c[i].count);
    if (c[i].bytes > 0) cli_q(v[4], 64, c[i].bytes, RL_UNIT_BYTES);
    else snprintf(v[4], 64, "-");
    cli_q(v[5], 64, c[i].time_s, RL_UNIT_SECONDS);
    cli_q(v[6], 64, c[i].time_nowait_s, RL_UNIT_SECONDS);
    cli_q(v[7], 64, c[i].waited_s, RL_UNIT_SECONDS);
    if (c[i].busbw > 0) {
      cli_q(v[8], 64, c[i].busbw, RL_UNIT_BYTES_S);
      cli_q(v[9], 64, c[i].busbw_nowait, RL_UNIT_BYTES_S);
    } else {
      snprintf(v[8], 64, "-");
      snprintf(v[9], 64, "-");
    }
    if (c[i].busbw > 0 && c[i].link_bw > 0)
      snprintf(v[10], 64, "%.1f/%.1f%%", 100 * c[i].busbw / c[i].link_bw, 100 * c[i].busbw_nowait / c[i].link_bw);
    else
      snprintf(v[10], 64, "-");
    if (isfinite(c[i].gain_s)) cli_q(v[11], 64, c[i].gain_s, RL_UNIT_SECONDS);
    else snprintf(v[11], 64, "-");
    snprintf(v[12], 64, "%d (%d of %d)", (int)c[i].last_rank, (int)c[i].last_count, (int)c[i].count);
    const char *cells[13];
    for (int k = 0; k < 13; k++) cells[k] = v[k];
    cli_table_row(tb, cells);
  }
  cli_table_print(ctx, tb);
  cli_table_free(tb);
  if (c[0].link_bw > 0) {
    char b[48];
    fprintf(o, "  of link: busbw with / without the wait over the link (%s, one direction of the\n"
               "  device's interconnect); gain: the transfer's (no wait) above its time at the link's\n"
               "  roof, the wait left out\n", cli_q(b, sizeof b, c[0].link_bw, RL_UNIT_BYTES_S));
  }
}

static void print_text(cli_ctx *ctx, const rl_job *j, int hta) {
  FILE *o = ctx->out;
  const rl_job_totals *t = rl_job_get_totals(j);
  char b1[48], b2[48], b3[48], p1[16], p2[16], p3[16], p4[16];
  fprintf(o, "job        %d file%s, %d rank%s analysed", (int)t->files, t->files == 1 ? "" : "s",
          (int)t->ranks, t->ranks == 1 ? "" : "s");
  if (t->world_size) fprintf(o, " of world size %d", (int)t->world_size);
  if (t->failed) fprintf(o, ", %d failed", (int)t->failed);
  fputc('\n', o);
  fprintf(o, "figures    %s\n",
          hta ? "HTA's own (--hta): last ProfilerStep dropped, timestamps rounded inward"
              : "HTA's definitions over every event of each file (--hta: HTA's own event set)");
  fprintf(o, "GPU span   %s over all ranks: idle %s, compute %s, non-compute %s; "
             "comm/compute overlap %s\n",
          cli_q(b1, sizeof b1, t->span_s, RL_UNIT_SECONDS), pct(p1, sizeof p1, t->idle_share),
          pct(p2, sizeof p2, t->compute_share), pct(p3, sizeof p3, t->non_compute_share),
          pct(p4, sizeof p4, t->overlap));
  int32_t nn = rl_job_notes(j);
  for (int32_t i = 0; i < nn; i++) fprintf(o, "note       %s\n", rl_job_note(j, i));
  int32_t nr = 0;
  const rl_job_rank *r = rl_job_ranks(j, &nr);
  fputs("\nper rank (shares of the rank's GPU span; host wait + kernel wait + other idle = idle; roofline: bound time):\n", o);
  const char *hdr[] = {"rank", "file", "GPU time", "span", "idle", "compute", "non-comp",
                       "overlap", "host wait", "kernel wait", "other idle", "collectives",
                       "waited", "compute-bound", "memory-bound", "overhead", "coverage", "gain"};
  cli_table *tb = cli_table_new(18, hdr);
  for (int32_t i = 0; i < nr; i++) {
    char c[18][64];
    snprintf(c[0], 64, "%d", (int)r[i].rank);
    snprintf(c[1], 64, "%.40s", base(r[i].file));
    if (r[i].has_roofline) cli_q(c[2], 64, r[i].roof.gpu_time_s, RL_UNIT_SECONDS);
    else snprintf(c[2], 64, "-");
    cli_q(c[3], 64, r[i].span_s, RL_UNIT_SECONDS);
    pct(c[4], 64, r[i].idle_share);
    pct(c[5], 64, r[i].compute_share);
    pct(c[6], 64, r[i].non_compute_share);
    pct(c[7], 64, r[i].overlap);
    cli_q(c[8], 64, r[i].idle_host_wait_s, RL_UNIT_SECONDS);
    cli_q(c[9], 64, r[i].idle_kernel_wait_s, RL_UNIT_SECONDS);
    cli_q(c[10], 64, r[i].idle_other_s, RL_UNIT_SECONDS);
    snprintf(c[11], 64, "%d", (int)r[i].collectives);
    cli_q(c[12], 64, r[i].waited_s, RL_UNIT_SECONDS);
    if (r[i].has_roofline) {
      cli_q(c[13], 64, r[i].roof.compute_s, RL_UNIT_SECONDS);
      cli_q(c[14], 64, r[i].roof.memory_s, RL_UNIT_SECONDS);
      cli_q(c[15], 64, r[i].roof.overhead_s, RL_UNIT_SECONDS);
      pct(c[16], 64, r[i].roof.coverage);
      cli_q(c[17], 64, r[i].roof.gain_s, RL_UNIT_SECONDS);
    } else {
      for (int k = 13; k < 18; k++) snprintf(c[k], 64, "-");
    }
    const char *cells[18];
    for (int k = 0; k < 18; k++) cells[k] = c[k];
    cli_table_row(tb, cells);
  }
  cli_table_print(ctx, tb);
  cli_table_free(tb);
  int32_t ns = 0;
  const rl_job_straggler *s = rl_job_stragglers(j, &ns);
  fprintf(o, "\nstragglers (the other ranks' wait in collectives this rank started last):\n");
  if (!t->matched) fputs("  (no collectives matched across ranks)\n", o);
  else if (!ns) fputs("  (none: no rank waited)\n", o);
  for (int32_t i = 0; i < ns && i < 10; i++)
    fprintf(o, "  rank %-5d others waited %s (last in %d of %d collectives)\n", (int)s[i].rank,
            cli_q(b1, sizeof b1, s[i].others_waited_s, RL_UNIT_SECONDS), (int)s[i].collectives,
            (int)t->matched);
  if (t->matched) {
    fprintf(o, "collectives %d matched across ranks; the ranks' wait in them %s\n", (int)t->matched,
            cli_q(b1, sizeof b1, t->waited_s, RL_UNIT_SECONDS));
    if (t->busbw > 0)
      fprintf(o, "busbw      %s with the wait (the ranks' mean kernel time), %s without it (the last "
                 "rank's): waiting is %.1f%% of the collectives' time\n",
              cli_q(b2, sizeof b2, t->busbw, RL_UNIT_BYTES_S),
              cli_q(b3, sizeof b3, t->busbw_nowait, RL_UNIT_BYTES_S),
              100 * (1 - t->busbw / t->busbw_nowait));
    else
      fputs("busbw      unknown: the traces give no message sizes (In msg nelems, Kineto 2024+)\n", o);
    print_colls(ctx, j);
  }
  int32_t nsp = 0;
  const rl_job_spread *sp = rl_job_spreads(j, &nsp);
  if (nsp) {
    fprintf(o, "\nkernel time across ranks (top %d kernels by total time):\n", (int)nsp);
    const char *h2[] = {"kernel", "total", "min", "rank", "median", "max", "rank", "ranks"};
    cli_table *t2 = cli_table_new(8, h2);
    for (int32_t i = 0; i < nsp; i++) {
      char c[8][64];
      rl_kernel_display_name(sp[i].name, c[0], 48, 0);
      cli_q(c[1], 64, sp[i].total_s, RL_UNIT_SECONDS);
      cli_q(c[2], 64, sp[i].min_s, RL_UNIT_SECONDS);
      snprintf(c[3], 64, "%d", (int)sp[i].min_rank);
      cli_q(c[4], 64, sp[i].median_s, RL_UNIT_SECONDS);
      cli_q(c[5], 64, sp[i].max_s, RL_UNIT_SECONDS);
      snprintf(c[6], 64, "%d", (int)sp[i].max_rank);
      snprintf(c[7], 64, "%d", (int)sp[i].ranks);
      const char *cells[8];
      for (int k = 0; k < 8; k++) cells[k] = c[k];
      cli_table_row(t2, cells);
    }
    cli_table_print(ctx, t2);
    cli_table_free(t2);
  }
}

/* --csv: the per-rank table in base units, one record per rank (the
 * roofline columns empty for a rank whose roofline was not computed). */
static void print_csv(cli_ctx *ctx, const rl_job *j) {
  static const char *const hdr[] = {
      "rank", "file", "gpu_time_s", "hta_span_s", "idle_fraction", "compute_fraction", "non_compute_fraction",
      "overlap_fraction", "idle_host_wait_s", "idle_kernel_wait_s", "idle_other_s", "job_collectives", "waited_s",
      "compute_bound_s", "memory_bound_s", "overhead_s", "coverage_fraction", "gain_s"};
  enum { NC = (int)(sizeof hdr / sizeof hdr[0]) };
  cli_csv_row(ctx, hdr, NC);
  int32_t nr = 0;
  const rl_job_rank *r = rl_job_ranks(j, &nr);
  for (int32_t i = 0; i < nr; i++) {
    char c[NC][40];
    const double nan = (double)NAN;
    const int roof = r[i].has_roofline != 0;
    const double v[NC] = {r[i].rank, 0, roof ? r[i].roof.gpu_time_s : nan, r[i].span_s, r[i].idle_share,
                          r[i].compute_share, r[i].non_compute_share, r[i].overlap, r[i].idle_host_wait_s,
                          r[i].idle_kernel_wait_s, r[i].idle_other_s, r[i].collectives, r[i].waited_s,
                          roof ? r[i].roof.compute_s : nan, roof ? r[i].roof.memory_s : nan,
                          roof ? r[i].roof.overhead_s : nan, roof ? r[i].roof.coverage : nan,
                          roof ? r[i].roof.gain_s : nan};
    const char *cells[NC];
    for (int k = 0; k < NC; k++) cells[k] = cli_csv_num(c[k], sizeof c[k], v[k]);
    cells[1] = r[i].file;
    cli_csv_row(ctx, cells, NC);
  }
}

/* What the job's files, read and analysed, leave to print. */
typedef struct job_files {
  char **paths, **skipped;  /* the traces found, and the files passed over */
  int32_t np, nsk;
} job_files;

/* ---- resolve: the files (on the process that prints, under MPI) ------------ */
static int resolve(cli_ctx *ctx, const char *const *args, int nargs, job_files *f) {
  rl_error e;
  rl_status st = cli_job_mpi ? cli_job_mpi->list(cli_job_mpi->ctx, args, nargs, &f->paths, &f->np, &f->skipped,
                                                 &f->nsk, &e)
                             : rl_job_find_files(args, nargs, &f->paths, &f->np, &f->skipped, &f->nsk, &e);
  return st ? cli_fail(ctx, st, &e) : CLI_OK;
}

/* ---- compute: read every file (threads or MPI processes), then the job ----- */
/* A worker reads its files one after another: each file's arrays are freed
 * before the next file's are allocated. glibc gives the freed memory back
 * to the kernel (it trims a heap whose free top exceeds twice its mmap
 * threshold, and unmaps a chunk it mapped), so every file faulted its
 * memory in again, page by page: 17,600 page faults for an 8-rank job of
 * 558 MB read by one worker, against 2,000 for one of its files alone, and
 * a page fault costs ~7 us in this guest (perf: 11% of a read's CPU time).
 * For a job, the process keeps what it freed (trim above 1 GiB) and maps
 * only chunks above 32 MiB, glibc's own ceiling for its dynamic threshold
 * (mallopt(3): M_MMAP_THRESHOLD, M_TRIM_THRESHOLD; setting either turns
 * the dynamic adjustment off, so both are set): the next file reuses the
 * pages. Measured in docs/performance.md ("A job of many ranks"). Set here,
 * in the command, not in the library: it is the process's allocator. */
static void keep_freed_memory(int32_t files) {
#ifdef __GLIBC__
  if (files < 2) return;
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#else
  (void)files;
#endif
}

/* *printer: 0 on an MPI process that only reads (it prints nothing) */
static int compute(cli_ctx *ctx, const cli_job_opts *jo, const job_files *f, rl_job **out, int *printer) {
  rl_job_opts o = rl_job_opts_init();
  o.launch_overhead_s = jo->overhead;
  o.hw = jo->hw;
  o.hta = jo->hta;
  o.model = jo->model;
  if (jo->top > 0) o.top = jo->top;
  rl_job *j = *out = rl_job_new(&o, f->np);
  if (!j) return cli_error(ctx, "out of memory");
  int threads = jo->threads;
  /* under MPI, -j 0 (every CPU) is the runner's: the node's CPUs among its processes */
  if (threads <= 0 && !cli_job_mpi) {
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    threads = c > 0 ? (int)c : 1;
  }
  *printer = 1;
  keep_freed_memory(f->np);
  if (cli_job_mpi) *printer = cli_job_mpi->read(cli_job_mpi->ctx, j, (const char *const *)f->paths, f->np, threads);
  else rl_job_read_all(j, (const char *const *)f->paths, f->np, threads);
  if (!*printer) return CLI_OK;
  rl_error e;
  rl_status st = rl_job_finish(j, &e);
  return st ? cli_fail(ctx, st, &e) : CLI_OK;
}

/* ---- print: the files passed over and failed (stderr), then the report ----- */
static int print(cli_ctx *ctx, const cli_job_opts *jo, const job_files *f, rl_job *j) {
  int rc = CLI_OK;
  int32_t nf = 0;
  const rl_job_rank *fl = rl_job_failures(j, &nf);
  if (rl_job_get_totals(j)->ranks == 0) {
    /* no rank read: an error, not an empty report -- one line, nothing on
     * stdout, exit 2 (the first reason; the count of the rest) */
    const char *why = nf ? fl[0].error : rl_job_notes(j) ? rl_job_note(j, 0) : NULL;
    char first[600];
    if (why) snprintf(first, sizeof first, "%s", why);
    else if (f->nsk) snprintf(first, sizeof first, "%s: not a trace", f->skipped[0]);
    else snprintf(first, sizeof first, "no trace files");
    int32_t others = f->np + f->nsk - 1;
    return cli_error(ctx, "no trace could be read: %s%s%.0d%s", first, others > 0 ? " (and " : "",
                     others > 0 ? (int)others : 0, others > 0 ? (others == 1 ? " other file)" : " other files)") : "");
  }
  for (int32_t i = 0; i < f->nsk; i++) {
    struct stat sb;
    int known = stat(f->skipped[i], &sb) == 0;
    fprintf(ctx->err, "roofline trace: %s: skipped: %s\n", f->skipped[i],
            !known || S_ISREG(sb.st_mode) ? "not a trace (*.json, *.json.gz)"
            : S_ISDIR(sb.st_mode)         ? "a folder (not searched: name it to read its traces)"
                                          : "not a regular file (a FIFO, a device or a socket is never opened)");
  }
  for (int32_t i = 0; i < nf; i++) fprintf(ctx->err, "roofline trace: %s\n", fl[i].error);
  if (ctx->json) {
    const char *cmd = ctx->cmd;
    ctx->cmd = "trace job"; /* its own document: docs/schema/trace-job.json */
    rc = cli_print_json(ctx, json_fn, j);
    ctx->cmd = cmd;
  }
  else if (ctx->csv) print_csv(ctx, j);
  else print_text(ctx, j, jo->hta);
  if (!rc && nf) rc = CLI_USAGE;
  if (!rc && rl_job_get_totals(j)->ranks == 0) rc = CLI_USAGE;
  return rc;
}

/* resolve (the files) -> compute (read, rl_job_finish) -> print */
int cli_trace_job(cli_ctx *ctx, const char *const *args, int nargs, const cli_job_opts *jo) {
  job_files f = {NULL, NULL, 0, 0};
  rl_job *j = NULL;
  int printer = 0;
  int rc = resolve(ctx, args, nargs, &f);
  if (!rc) rc = compute(ctx, jo, &f, &j, &printer);
  if (!rc && printer) rc = print(ctx, jo, &f, j);
  rl_job_free(j);
  rl_job_free_list(f.paths, f.np);
  rl_job_free_list(f.skipped, f.nsk);
  return rc;
}
