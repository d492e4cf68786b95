/*
 * trace_job.c -- the traces of every rank of a distributed job: per-rank
 * timeline figures and the cross-rank analysis (pure: the arrays come from
 * src/io/trace_job_io.c).
 *
 * Per rank, the definitions of Holistic Trace Analysis (HTA; source:
 * github.com/facebookresearch/HolisticTraceAnalysis,
 * hta/analyzers/breakdown_analysis.py get_temporal_breakdown and
 * _analyze_idle_time_for_stream, hta/analyzers/communication_analysis.py
 * get_comm_comp_overlap, hta/utils/utils.py merge_kernel_intervals,
 * hta/common/trace.py _filter_irrelevant_gpu_kernels,
 * hta/common/trace_parser.py round_down_time_stamps):
 *   GPU events: args "stream" >= 0; their union merged by start time;
 *   span ("kernel_time") = last merged end - first start; idle = span -
 *   union; compute = union of COMPUTATION kernels; non-compute = span -
 *   compute - idle; overlap = |union(comp) n union(comm)| / |union(comm)|.
 *   Idle kinds per stream, kernel categories only, sorted by start: the gap
 *   before a kernel is host wait when its launch call (same correlation)
 *   started after the previous kernel's end, kernel wait when not and the
 *   gap is under consecutive_kernel_delay (30 us), other otherwise.
 *   HTA drops, when there are two ProfilerSteps or more, the host events
 *   from the last step's start on and every GPU event whose correlation is
 *   not among the host events kept; and rounds fractional timestamps
 *   inward (start up, end down). Our default keeps every event, keeps the
 *   microsecond fractions, and counts a negative gap (overlapping kernels
 *   on one stream) as no idle time; `hta` reproduces HTA.
 *
 * Across ranks: collectives matched by their order on their process
 * group; the last to start is the one the others waited for (each other
 * rank's wait: the start difference, at most its own kernel time).
 * busbw per nccl-tests (doc/PERFORMANCE.md): algbw x 2(n-1)/n for
 * all-reduce, (n-1)/n for all-gather, reduce-scatter and all-to-all, 1 for
 * broadcast, reduce and send/receive; with the wait (the ranks' mean
 * kernel time) and without it (the last rank's kernel time), for the job
 * and per process group and collective kind.
 */
#include "core/trace_job.h"
#include "core/trace_internal.h"
#include "core/record.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- HTA's name patterns ----------------------------------------------------- */
static int starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

int rli_hta_kernel_type(const char *n) {
  /* CommunicateKernelGroupingPattern: ^nccl.* | ^hip | ^hccl | .*ncclKernel.* */
  if (starts(n, "nccl") || starts(n, "hip") || starts(n, "hccl") || strstr(n, "ncclKernel"))
    return RLI_K_COMM;
  /* MemoryKernelGroupingPattern: ^(hip)?Memcpy | ^(hip)?Memset | ^dma */
  if (starts(n, "Memcpy") || starts(n, "Memset") || starts(n, "dma")) return RLI_K_MEM;
  /* ComputeKernelGroupingPattern, inverted */
  static const char *const pre[] = {"nccl", "Stream Wait Event", "runFunction", "hip",
                                    "job_exe", "packet", "pe_exe", "cpum_exe_subgraph", "hccl",
                                    "collective_subgraph_execution"};
  for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
    if (starts(n, pre[i])) return RLI_K_OTHER;
  if (strstr(n, "Memcpy") || strstr(n, "Memset") || strstr(n, "dma") || strstr(n, "Sync"))
    return RLI_K_OTHER;
  if (starts(n, "cuda") && strstr(n + 4, "LaunchKernel")) return RLI_K_OTHER;
  return RLI_K_COMP;
}

int rli_hta_kernel_cat(const char *c) {
  return !strcmp(c, "kernel") || !strcmp(c, "Kernel") || !strcmp(c, "gpu_memset") ||
         !strcmp(c, "Memset") || !strcmp(c, "gpu_memcpy") || !strcmp(c, "Memcpy") ||
         !strcmp(c, "mtia_ccp_events");
}

/* ---- one rank ------------------------------------------------------------------ */
typedef struct iv {
  double s, e;
} iv;

static int cmp_iv(const void *a, const void *b) {
  const iv *x = a, *y = b;
  return x->s < y->s ? -1 : x->s > y->s;
}

/* merge_kernel_intervals: sort by start; an interval starting after the
 * running maximum end opens a new group. In place; returns the count. */
static size_t merge(iv *v, size_t n) {
  if (!n) return 0;
  qsort(v, n, sizeof *v, cmp_iv);
  size_t m = 0;
  for (size_t i = 1; i < n; i++) {
    if (v[i].s > v[m].e) v[++m] = v[i];
    else if (v[i].e > v[m].e) v[m].e = v[i].e;
  }
  return m + 1;
}

static double covered(const iv *v, size_t n) {
  double t = 0;
  for (size_t i = 0; i < n; i++) t += v[i].e - v[i].s;
  return t;
}

/* |a n b| of two merged, sorted interval lists */
static double intersect(const iv *a, size_t na, const iv *b, size_t nb) {
  double t = 0;
  size_t i = 0, k = 0;
  while (i < na && k < nb) {
    double s = a[i].s > b[k].s ? a[i].s : b[k].s;
    double e = a[i].e < b[k].e ? a[i].e : b[k].e;
    if (e > s) t += e - s;
    if (a[i].e < b[k].e) i++;
    else k++;
  }
  return t;
}

static int cmp_cev(const void *a, const void *b) {
  const rli_cev *x = a, *y = b;
  if (x->corr != y->corr) return x->corr < y->corr ? -1 : 1;
  return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static const rli_cev *find_corr(const rli_cev *c, size_t n, int64_t corr) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (c[mid].corr < corr) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && c[lo].corr == corr ? &c[lo] : NULL;
}

typedef struct gsort {
  double ts, end, rt; /* rt: its launch call's start, NaN none */
  int32_t stream;
  uint32_t order;
} gsort;

static int cmp_gsort(const void *a, const void *b) {
  const gsort *x = a, *y = b;
  if (x->stream != y->stream) return x->stream < y->stream ? -1 : 1;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_coll_ts(const void *a, const void *b) {
  const rli_coll *x = a, *y = b;
  int g = strcmp(x->group, y->group);
  if (g) return g;
  return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int cmp_kstat_name(const void *a, const void *b) {
  return strcmp(((const rli_kstat *)a)->name, ((const rli_kstat *)b)->name);
}

static double rup(double x) { return ceil(x); }
static double rdown(double x) { return floor(x); }

/* rli_job_rank_figures, the profiler steps: how many distinct, the first
 * and last; returns the start of the last one (HTA: rounded up). */
static double rank_steps(const rli_rankraw *raw, int hta, rl_job_rank *r) {
  double last_step = -HUGE_VAL;
  int64_t smin = INT64_MAX, smax = INT64_MIN;
  size_t distinct = 0;
  for (size_t i = 0; i < raw->ns; i++) {
    const rli_step *s = &raw->s[i];
    double ts = hta ? rup(s->ts) : s->ts;
    if (ts > last_step) last_step = ts;
    if (s->n < smin) smin = s->n;
    if (s->n > smax) smax = s->n;
    int seen = 0;
    for (size_t k = 0; k < i && !seen; k++) seen = raw->s[k].n == s->n;
    if (!seen) distinct++;
  }
  r->steps = (int32_t)distinct;
  r->step_first = distinct ? (int32_t)smin : 0;
  r->step_last = distinct ? (int32_t)smax : 0;
  return last_step;
}

/* The rank's idle time (the span minus the union of its GPU events) by
 * kind, each gap between busy stretches classed by the event that ends it,
 * as HTA classes a gap on one stream: host wait when its launch call
 * started after the GPU went idle (the GPU waited for the host), kernel
 * wait when not and the gap is under kw, other otherwise. The three sum to
 * the rank's idle time, so none exceeds the span (HTA's per-stream figures,
 * summed over the streams, count a moment once per idle stream: the
 * stream_ figures below). ev: the kept GPU events (rt: the launch call's
 * start, NaN none), sorted here by start. */
static int cmp_gsort_ts(const void *a, const void *b) {
  const gsort *x = a, *y = b;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  /* of events starting together, the one launched first decides */
  int xn = isnan(x->rt), yn = isnan(y->rt);
  if (xn != yn) return xn - yn;
  if (!xn && x->rt != y->rt) return x->rt < y->rt ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static void rank_idle_union(gsort *ev, size_t n, double kw, rl_job_rank *r) {
  double us = 1e-6, hw = 0, kwt = 0, oth = 0;
  qsort(ev, n, sizeof *ev, cmp_gsort_ts);
  double busy_end = n ? ev[0].end : 0;
  for (size_t i = 1; i < n; i++) {
    if (ev[i].ts > busy_end) {
      double gap = ev[i].ts - busy_end;
      if (!isnan(ev[i].rt) && ev[i].rt > busy_end) hw += gap;
      else if (gap < kw) kwt += gap;
      else oth += gap;
    }
    if (ev[i].end > busy_end) busy_end = ev[i].end;
  }
  r->idle_host_wait_s = hw * us;
  r->idle_kernel_wait_s = kwt * us;
  r->idle_other_s = oth * us;
}

/* HTA's idle time between kernels on each stream, by kind: the host late
 * (the launch came after the previous kernel ended), a short wait (< kw),
 * other; summed over the streams. gs: the kernels, sorted here by stream
 * and start. */
static void rank_idle_kinds(gsort *gs, size_t ngs, int hta, double kw, rl_job_rank *r) {
  double us = 1e-6;
  qsort(gs, ngs, sizeof *gs, cmp_gsort);
  double hw = 0, kwt = 0, oth = 0;
  for (size_t i = 1; i < ngs; i++) {
    if (gs[i].stream != gs[i - 1].stream) continue;
    double prev_end = gs[i - 1].end;
    double gap = gs[i].ts - prev_end;
    if (!hta && gap < 0) gap = 0;
    if (!isnan(gs[i].rt) && gs[i].rt > prev_end) hw += gap;
    else if (gap < kw) kwt += gap;
    else oth += gap;
  }
  r->stream_idle_host_wait_s = hw * us;
  r->stream_idle_kernel_wait_s = kwt * us;
  r->stream_idle_other_s = oth * us;
}

/* The collectives, by group and start, and their time; NULL when out of
 * memory. */
static rli_coll *rank_colls(const rli_rankraw *raw, rl_job_rank *r, size_t *ncol_out) {
  double us = 1e-6;
  rli_coll *cols = malloc(sizeof *cols * (raw->ncol + 1));
  if (!cols) return NULL;
  size_t ncol = 0;
  double ctime = 0;
  for (size_t i = 0; i < raw->ncol; i++) cols[ncol++] = raw->col[i];
  for (size_t i = 0; i < ncol; i++) ctime += cols[i].end - cols[i].ts;
  qsort(cols, ncol, sizeof *cols, cmp_coll_ts);
  r->collectives = (int32_t)ncol;
  r->coll_time_s = ctime * us;
  *ncol_out = ncol;
  return cols;
}

/* The kernels' time and count per name (kept events only), sorted by
 * name, each name its own copy; NULL when out of memory. */
static rli_kstat *rank_kernels(const rli_rankraw *raw, const unsigned char *keep, size_t *nks_out) {
  double us = 1e-6;
  size_t ng = raw->ng;
  rli_kstat *ks = calloc(raw->nnames + 1, sizeof *ks);
  if (!ks) return NULL;
  for (size_t i = 0; i < ng; i++) {
    const rli_gev *g = &raw->g[i];
    if (!keep[i] || !g->kernel || g->name >= raw->nnames) continue;
    ks[g->name].time_s += (g->end - g->ts) * us;
    ks[g->name].count++;
  }
  size_t nks = 0;
  for (size_t i = 0; i < raw->nnames; i++) {
    if (!ks[i].count) continue;
    char *nm = malloc(strlen(raw->names[i]) + 1);
    if (!nm) {
      for (size_t k = 0; k < nks; k++) free(ks[k].name);
      free(ks);
      return NULL;
    }
    strcpy(nm, raw->names[i]);
    ks[nks] = ks[i];
    ks[nks++].name = nm;
  }
  qsort(ks, nks, sizeof *ks, cmp_kstat_name);
  *nks_out = nks;
  return ks;
}

rl_status rli_job_rank_figures(const rli_rankraw *raw, int hta, double kw, rl_job_rank *r,
                               rli_coll **cols_out, size_t *ncol_out, rli_kstat **ks_out,
                               size_t *nks_out, rl_error *err) {
  *cols_out = NULL;
  *ks_out = NULL;
  *ncol_out = *nks_out = 0;
  size_t ng = raw->ng, nc = raw->nc;
  rli_cev *c = malloc(sizeof *c * (nc + 1));
  iv *all = malloc(sizeof *all * (ng + 1));
  iv *comp = malloc(sizeof *comp * (ng + 1));
  iv *comm = malloc(sizeof *comm * (ng + 1));
  gsort *gs = malloc(sizeof *gs * (ng + 1));
  gsort *ev = malloc(sizeof *ev * (ng + 1));
  unsigned char *keep = malloc(ng + 1);
  if (!c || !all || !comp || !comm || !gs || !ev || !keep) {
    free(c); free(all); free(comp); free(comm); free(gs); free(ev); free(keep);
    return rli_fail(err, RL_ENOMEM, "out of memory");
  }
  double last_step = rank_steps(raw, hta, r);
  size_t distinct = (size_t)r->steps;
  int filter = hta && distinct >= 2;
  /* host events: rounded, kept before the last step when filtering */
  size_t nk = 0;
  for (size_t i = 0; i < nc; i++) {
    rli_cev e = raw->c[i];
    if (hta) e.ts = rup(e.ts);
    if (filter && !(e.ts < last_step)) continue;
    c[nk++] = e;
  }
  qsort(c, nk, sizeof *c, cmp_cev);
  size_t na = 0, ncp = 0, ncm = 0, ngs = 0;
  double nev = 0;
  for (size_t i = 0; i < ng; i++) {
    const rli_gev *g = &raw->g[i];
    double ts = g->ts, end = g->end;
    if (hta) { ts = rup(g->ts); end = rdown(g->end); }
    keep[i] = 1;
    if (filter) {
      if (g->corr >= 0) keep[i] = find_corr(c, nk, g->corr) != NULL;
      else keep[i] = ts < last_step; /* a host-side event to HTA */
    }
    if (!keep[i]) continue;
    nev++;
    const rli_cev *l = g->corr >= 0 ? find_corr(c, nk, g->corr) : NULL;
    ev[na] = (gsort){ts, end, l ? l->ts : (double)NAN, g->stream, (uint32_t)i};
    all[na++] = (iv){ts, end};
    if (g->type == RLI_K_COMP) comp[ncp++] = (iv){ts, end};
    if (g->type == RLI_K_COMM) comm[ncm++] = (iv){ts, end};
    if (g->kcat) gs[ngs++] = ev[na - 1];
  }
  r->events = nev;
  rank_idle_union(ev, na, kw, r);
  free(ev);
  na = merge(all, na);
  ncp = merge(comp, ncp);
  ncm = merge(comm, ncm);
  double span = na ? all[na - 1].e - all[0].s : 0;
  double busy = covered(all, na);
  double cpt = covered(comp, ncp), cmt = covered(comm, ncm);
  double us = 1e-6;
  r->span_s = span * us;
  r->idle_s = (span - busy) * us;
  r->compute_s = cpt * us;
  r->non_compute_s = (span - cpt - (span - busy)) * us;
  r->idle_share = span > 0 ? (span - busy) / span : (double)NAN;
  r->compute_share = span > 0 ? cpt / span : (double)NAN;
  r->non_compute_share = span > 0 ? r->non_compute_s / r->span_s : (double)NAN;
  r->comm_s = cmt * us;
  r->overlap = ncm && cmt > 0 ? intersect(comp, ncp, comm, ncm) / cmt : (double)NAN;
  rank_idle_kinds(gs, ngs, hta, kw, r);
  free(c); free(all); free(comp); free(comm); free(gs);
  size_t ncol = 0;
  rli_coll *cols = rank_colls(raw, r, &ncol);
  if (!cols) { free(keep); return rli_fail(err, RL_ENOMEM, "out of memory"); }
  size_t nks = 0;
  rli_kstat *ks = rank_kernels(raw, keep, &nks);
  free(keep);
  if (!ks) { free(cols); return rli_fail(err, RL_ENOMEM, "out of memory"); }
  *cols_out = cols;
  *ncol_out = ncol;
  *ks_out = ks;
  *nks_out = nks;
  return RL_OK;
}

/* ---- the job ------------------------------------------------------------------ */
typedef struct slot {
  rl_job_rank r;
  rli_coll *col;
  size_t ncol;
  rli_kstat *ks;
  size_t nks;
  int filled;
} slot;

#define MAX_NOTES 64

struct rl_job {
  rl_job_opts o;
  slot *s;
  int32_t n;
  rl_job_rank *ranks; /* result rows, by rank */
  int32_t nranks;
  rl_job_totals tot;
  rl_job_straggler *str;
  int32_t nstr;
  rl_job_spread *spr;
  int32_t nspr;
  rl_job_coll *jc; /* by process group and kind */
  int32_t njc;
  size_t capjc;
  rl_job_rank *fail; /* the files that failed, in file order */
  int32_t nfail;
  char *notes[MAX_NOTES];
  int32_t nnotes;
};

rl_job_opts rl_job_opts_init(void) {
  rl_job_opts o;
  memset(&o, 0, sizeof o);
  o.launch_overhead_s = -1;
  o.kernel_wait_s = 30e-6;
  o.top = 10;
  return o;
}

rl_job *rl_job_new(const rl_job_opts *o, int32_t n) {
  if (n < 0) return NULL;
  rl_job *j = calloc(1, sizeof *j);
  if (!j) return NULL;
  j->o = o ? *o : rl_job_opts_init();
  j->s = calloc((size_t)n + 1, sizeof *j->s);
  if (!j->s) { free(j); return NULL; }
  j->n = n;
  return j;
}

static void free_slot(slot *s) {
  for (size_t k = 0; k < s->nks; k++) free(s->ks[k].name);
  free(s->ks);
  free(s->col);
  s->ks = NULL;
  s->col = NULL;
  s->nks = s->ncol = 0;
}

static void clear_results(rl_job *j) {
  free(j->ranks);
  free(j->str);
  free(j->spr);
  free(j->jc);
  j->jc = NULL;
  j->njc = 0;
  j->capjc = 0;
  free(j->fail);
  j->fail = NULL;
  j->nfail = 0;
  for (int32_t i = 0; i < j->nnotes; i++) free(j->notes[i]);
  j->ranks = NULL;
  j->str = NULL;
  j->spr = NULL;
  j->nranks = j->nstr = j->nspr = j->nnotes = 0;
}

void rl_job_free(rl_job *j) {
  if (!j) return;
  for (int32_t i = 0; i < j->n; i++) free_slot(&j->s[i]);
  free(j->s);
  clear_results(j);
  free(j);
}

const rl_job_opts *rli_job_opts(const rl_job *j) { return &j->o; }
int32_t rli_job_size(const rl_job *j) { return j->n; }

rl_status rli_job_set(rl_job *j, int32_t i, const rl_job_rank *r, rli_coll *cols, size_t ncol,
                      rli_kstat *ks, size_t nks, rl_error *err) {
  if (!j || i < 0 || i >= j->n) return rli_fail(err, RL_EINVAL, "no such slot %d", (int)i);
  slot *s = &j->s[i];
  free_slot(s);
  s->r = *r;
  s->col = cols;
  s->ncol = ncol;
  s->ks = ks;
  s->nks = nks;
  s->filled = 1;
  return RL_OK;
}

/* ---- packing: the summary as bytes ---------------------------------------- */
#define PACK_MAGIC 0x524c4a31u /* "RLJ1" */

typedef struct wbuf {
  unsigned char *b;
  size_t cap, len;
} wbuf;

static void put(wbuf *w, const void *p, size_t n) {
  if (w->len + n <= w->cap) memcpy(w->b + w->len, p, n);
  w->len += n;
}

size_t rl_job_pack(const rl_job *j, int32_t i, void *buf, size_t cap) {
  if (!j || i < 0 || i >= j->n) return 0;
  const slot *s = &j->s[i];
  wbuf w = {buf, buf ? cap : 0, 0};
  uint32_t magic = PACK_MAGIC;
  uint64_t nc = s->ncol, nk = s->nks;
  put(&w, &magic, sizeof magic);
  put(&w, &s->r, sizeof s->r);
  put(&w, &nc, sizeof nc);
  if (nc) put(&w, s->col, sizeof *s->col * nc);
  put(&w, &nk, sizeof nk);
  for (size_t k = 0; k < nk; k++) {
    uint32_t l = (uint32_t)strlen(s->ks[k].name);
    put(&w, &s->ks[k].time_s, sizeof(double));
    put(&w, &s->ks[k].count, sizeof(int64_t));
    put(&w, &l, sizeof l);
    put(&w, s->ks[k].name, l);
  }
  return w.len;
}

typedef struct rbuf {
  const unsigned char *b;
  size_t len, pos;
} rbuf;

static int get(rbuf *r, void *p, size_t n) {
  if (r->len - r->pos < n) return -1;
  memcpy(p, r->b + r->pos, n);
  r->pos += n;
  return 0;
}

rl_status rl_job_unpack(rl_job *j, int32_t i, const void *buf, size_t len, rl_error *err) {
  if (!j || i < 0 || i >= j->n || (!buf && len))
    return rli_fail(err, RL_EINVAL, "rl_job_unpack: no job, slot or bytes");
  rbuf r = {buf, len, 0};
  uint32_t magic = 0;
  rl_job_rank rk;
  uint64_t nc = 0, nk = 0;
  if (get(&r, &magic, sizeof magic) || magic != PACK_MAGIC || get(&r, &rk, sizeof rk) ||
      get(&r, &nc, sizeof nc) || nc > (len - r.pos) / sizeof(rli_coll))
    return rli_fail(err, RL_EPARSE, "rank summary %d: not a summary of this build", (int)i);
  rk.file[sizeof rk.file - 1] = 0;
  rk.error[sizeof rk.error - 1] = 0;
  rk.device[sizeof rk.device - 1] = 0;
  rk.hw_id[sizeof rk.hw_id - 1] = 0;
  rli_coll *col = malloc(sizeof *col * (nc + 1));
  if (!col) return rli_fail(err, RL_ENOMEM, "out of memory");
  if (nc) get(&r, col, sizeof *col * nc);
  for (uint64_t k = 0; k < nc; k++) col[k].group[sizeof col[k].group - 1] = 0;
  if (get(&r, &nk, sizeof nk) || nk > (len - r.pos) / 20) {
    free(col);
    return rli_fail(err, RL_EPARSE, "rank summary %d: truncated", (int)i);
  }
  rli_kstat *ks = calloc(nk + 1, sizeof *ks);
  if (!ks) { free(col); return rli_fail(err, RL_ENOMEM, "out of memory"); }
  for (uint64_t k = 0; k < nk; k++) {
    uint32_t l = 0;
    if (get(&r, &ks[k].time_s, sizeof(double)) || get(&r, &ks[k].count, sizeof(int64_t)) ||
        get(&r, &l, sizeof l) || l > len - r.pos || !(ks[k].name = malloc((size_t)l + 1))) {
      for (uint64_t q = 0; q < k; q++) free(ks[q].name);
      free(ks); free(col);
      return rli_fail(err, RL_EPARSE, "rank summary %d: truncated", (int)i);
    }
    get(&r, ks[k].name, l);
    ks[k].name[l] = 0;
  }
  return rli_job_set(j, i, &rk, col, nc, ks, nk, err);
}

/* ---- the cross-rank analysis ----------------------------------------------- */
static void note(rl_job *j, const char *fmt, ...) RLI_PRINTF(2, 3);
static void note(rl_job *j, const char *fmt, ...) {
  if (j->nnotes >= MAX_NOTES) return;
  char b[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  char *p = malloc(strlen(b) + 1);
  if (!p) return;
  strcpy(p, b);
  j->notes[j->nnotes++] = p;
}

/* "0-3, 5, 9" into b */
static void ranges(char *b, size_t cap, const int32_t *v, int32_t n) {
  size_t l = 0;
  b[0] = 0;
  for (int32_t i = 0; i < n && l + 24 < cap;) {
    int32_t k = i;
    while (k + 1 < n && v[k + 1] == v[k] + 1) k++;
    if (k > i) l += (size_t)snprintf(b + l, cap - l, "%s%d-%d", l ? ", " : "", (int)v[i], (int)v[k]);
    else l += (size_t)snprintf(b + l, cap - l, "%s%d", l ? ", " : "", (int)v[i]);
    i = k + 1;
  }
}

static int cmp_rank_slot(const void *a, const void *b) {
  const slot *x = *(const slot *const *)a, *y = *(const slot *const *)b;
  if (x->r.rank != y->r.rank) return x->r.rank < y->r.rank ? -1 : 1;
  return 0; /* stable order kept by the index tie-break below */
}

/* by the transfer's gain (known first), then by time */
static int cmp_jc(const void *a, const void *b) {
  const rl_job_coll *x = a, *y = b;
  int kx = isfinite(x->gain_s), ky = isfinite(y->gain_s);
  if (kx != ky) return ky - kx;
  if (kx && x->gain_s != y->gain_s) return x->gain_s > y->gain_s ? -1 : 1;
  if (x->time_s != y->time_s) return x->time_s > y->time_s ? -1 : 1;
  int c = strcmp(x->group, y->group);
  return c ? c : strcmp(x->kind, y->kind);
}

/* The collectives of one kind on one group, summed while matching. */
typedef struct jc_acc {
  rl_job_coll c;
  double bus;      /* sum of factor x S */
  double roof;     /* sum of factor x S / link: the transfers at the link's roof */
  int32_t *last;   /* per slot: collectives it started last */
} jc_acc;

static int cmp_str(const void *a, const void *b) {
  const rl_job_straggler *x = a, *y = b;
  if (x->others_waited_s != y->others_waited_s) return x->others_waited_s > y->others_waited_s ? -1 : 1;
  return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int cmp_spread(const void *a, const void *b) {
  const rl_job_spread *x = a, *y = b;
  if (x->total_s != y->total_s) return x->total_s > y->total_s ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* rl_job_finish, phase 1: the files that read as traces, sorted by rank
 * (distributedInfo, else the file order), one file per rank (the first
 * keeps it); the others are noted or counted as failed. Returns how many
 * are kept; *nok: before duplicates were left out, *nodist: how many have
 * no distributedInfo. */
static int32_t usable_ranks(rl_job *j, slot **ok, int32_t *nok_out, int32_t *nodist_out) {
  int32_t n = j->n;
  int32_t nok = 0, nodist = 0;
  for (int32_t i = 0; i < n; i++) {
    slot *s = &j->s[i];
    if (s->filled && s->r.not_trace) {
      note(j, "%s: not a Kineto trace, skipped", s->r.file);
      continue;
    }
    if (!s->filled || s->r.status) {
      j->tot.failed++;
      if (s->filled) j->fail[j->nfail++] = s->r;
      continue;
    }
    if (!s->r.has_dist) { s->r.rank = i; nodist++; }
    s->r.duplicate = 0;
    s->r.clock_offset_s = s->r.others_waited_s = s->r.waited_s = 0;
    s->r.last_in = 0;
    ok[nok++] = s;
  }
  if (nodist)
    note(j, "%d of %d files have no distributedInfo: their rank is their place in the file order",
         (int)nodist, (int)nok);
  /* stable sort by rank (insertion: the file order breaks ties) */
  for (int32_t a = 1; a < nok; a++) {
    slot *x = ok[a];
    int32_t b = a;
    while (b > 0 && cmp_rank_slot(&ok[b - 1], &x) > 0) { ok[b] = ok[b - 1]; b--; }
    ok[b] = x;
  }
  /* duplicates: the first file keeps the rank */
  int32_t m = 0;
  for (int32_t a = 0; a < nok; a++) {
    if (m && ok[m - 1]->r.rank == ok[a]->r.rank) {
      ok[a]->r.duplicate = 1;
      note(j, "duplicate rank %d: %s and %s both claim it; %s is left out", (int)ok[a]->r.rank,
           ok[m - 1]->r.file, ok[a]->r.file, ok[a]->r.file);
      continue;
    }
    ok[m++] = ok[a];
  }
  *nok_out = nok;
  *nodist_out = nodist;
  return m;
}

/* Phase 2: the world size (the most common one), the ranks it misses and
 * those outside it. */
static void world_size(rl_job *j, slot *const *ok, int32_t m, int32_t nok, int32_t nodist) {
  int32_t world = 0, best = 0;
  for (int32_t a = 0; a < m; a++) {
    if (!ok[a]->r.has_dist || ok[a]->r.world_size <= 0) continue;
    int32_t c = 0;
    for (int32_t b = 0; b < m; b++) c += ok[b]->r.has_dist && ok[b]->r.world_size == ok[a]->r.world_size;
    if (c > best) { best = c; world = ok[a]->r.world_size; }
  }
  for (int32_t a = 0; a < m; a++)
    if (ok[a]->r.has_dist && ok[a]->r.world_size > 0 && ok[a]->r.world_size != world)
      note(j, "world size disagrees: %s (rank %d) says %d, %d files say %d", ok[a]->r.file,
           (int)ok[a]->r.rank, (int)ok[a]->r.world_size, (int)best, (int)world);
  if (!world && nodist == nok) world = m;
  j->tot.world_size = world;
  if (world > 0) {
    int32_t *miss = malloc(sizeof *miss * ((size_t)world + 1));
    int32_t nm = 0;
    if (miss) {
      for (int32_t r = 0, a = 0; r < world; r++) {
        while (a < m && ok[a]->r.rank < r) a++;
        if (a >= m || ok[a]->r.rank != r) miss[nm++] = r;
      }
      if (nm) {
        char b[512];
        ranges(b, sizeof b, miss, nm);
        note(j, "missing rank%s %s of world size %d: the job is analysed without %s", nm > 1 ? "s" : "",
             b, (int)world, nm > 1 ? "them" : "it");
      }
      free(miss);
    }
    for (int32_t a = 0; a < m; a++)
      if (ok[a]->r.rank >= world || ok[a]->r.rank < 0)
        note(j, "%s: rank %d is outside world size %d", ok[a]->r.file, (int)ok[a]->r.rank, (int)world);
  }
}

/* Phase 3: ranks that traced different profiler steps. */
static void check_steps(rl_job *j, slot *const *ok, int32_t m) {
  for (int32_t a = 1; a < m; a++) {
    const rl_job_rank *x = &ok[0]->r, *y = &ok[a]->r;
    if (x->steps != y->steps || x->step_first != y->step_first || x->step_last != y->step_last) {
      note(j, "different steps: rank %d traced ProfilerStep#%d-%d (%d), rank %d #%d-%d (%d)",
           (int)x->rank, (int)x->step_first, (int)x->step_last, (int)x->steps, (int)y->rank,
           (int)y->step_first, (int)y->step_last, (int)y->steps);
      break;
    }
  }
}

/* Phase 4: the clocks, aligned on the end of the first collective when
 * the files' base times differ. Returns 0 (same clocks), 1 (aligned) or
 * -1 (no collective to align on: no cross-rank waits). */
static int align_clocks(rl_job *j, slot **ok, int32_t m) {
  int differ = 0;
  for (int32_t a = 1; a < m; a++) differ |= ok[a]->r.base_ns != ok[0]->r.base_ns;
  if (differ && m > 1) {
    const slot *ref = ok[0];
    const rli_coll *first = NULL;
    for (size_t k = 0; k < ref->ncol; k++)
      if (!first || ref->col[k].ts < first->ts) first = &ref->col[k];
    if (!first) {
      note(j, "the files' clocks differ (baseTimeNanoseconds) and rank %d has no collective to "
              "align on: cross-rank waits are not computed", (int)ref->r.rank);
      differ = -1;
    } else {
      /* its place on its group */
      size_t seq = 0;
      for (size_t k = 0; k < ref->ncol; k++)
        if (!strcmp(ref->col[k].group, first->group) && ref->col[k].ts < first->ts) seq++;
      double maxoff = 0;
      int all = 1;
      for (int32_t a = 0; a < m; a++) {
        slot *s = ok[a];
        size_t q = 0;
        const rli_coll *mine = NULL;
        for (size_t k = 0; k < s->ncol && !mine; k++)
          if (!strcmp(s->col[k].group, first->group) && q++ == seq) mine = &s->col[k];
        if (!mine) { all = 0; continue; }
        double off = mine->end - first->end;
        s->r.clock_offset_s = off * 1e-6;
        if (fabs(off) > maxoff) maxoff = fabs(off);
        for (size_t k = 0; k < s->ncol; k++) { s->col[k].ts -= off; s->col[k].end -= off; }
      }
      j->tot.aligned = 1;
      note(j, "the files' clocks differ (baseTimeNanoseconds): ranks aligned on the end of the "
              "first collective (offsets up to %.6g s)%s", maxoff * 1e-6,
           all ? "" : "; ranks without it are not aligned");
    }
  }
  return differ;
}

/* Phase 5: the link the collectives run over: the device's interconnect,
 * one direction. */
static double coll_link(const rl_job *j, slot *const *ok, int32_t m) {
  double link = 0;
  if (j->o.hw) link = j->o.hw->interconnect_bw / 2;
  for (int32_t a = 0; a < m && link == 0 && !j->o.hw; a++) {
    rl_hw hw;
    if (ok[a]->r.has_roofline && rl_hw_find(ok[a]->r.hw_id, NULL, 0, &hw, NULL) == RL_OK)
      link = hw.interconnect_bw / 2;
  }
  return link;
}

/* Phase 5: the collectives matched by their order on each process group
 * (groups in name order; each slot's collectives are sorted by group):
 * the waits, the straggler of each, one row per group and kind. */
static rl_status match_collectives(rl_job *j, slot **ok, int32_t m, double link, rl_error *err) {
  size_t *pos = calloc((size_t)m + 1, sizeof *pos);
  size_t *cnt = calloc((size_t)m + 1, sizeof *cnt);
  /* one accumulator per kind, the last for a kernel of no known kind */
  jc_acc acc[RLI_COLL_COUNT + 1];
  int32_t *lastv = calloc((size_t)(RLI_COLL_COUNT + 1) * ((size_t)m + 1), sizeof *lastv);
  if (!pos || !cnt || !lastv) {
    free(pos); free(cnt); free(lastv);
    return rli_fail(err, RL_ENOMEM, "out of memory");
  }
  /* groups in rank 0's order of first appearance; each slot's collectives are sorted by group */
  for (;;) {
    /* the next group: the smallest name not yet done on any rank */
    const char *g = NULL;
    for (int32_t a = 0; a < m; a++)
      if (pos[a] < ok[a]->ncol && (!g || strcmp(ok[a]->col[pos[a]].group, g) < 0))
        g = ok[a]->col[pos[a]].group;
    if (!g) break;
    char grp[64];
    rli_strlcpy(grp, g, sizeof grp);
    size_t mn = SIZE_MAX, mx = 0;
    int32_t have = 0;
    for (int32_t a = 0; a < m; a++) {
      cnt[a] = 0;
      while (pos[a] + cnt[a] < ok[a]->ncol && !strcmp(ok[a]->col[pos[a] + cnt[a]].group, grp)) cnt[a]++;
      if (cnt[a]) {
        have++;
        if (cnt[a] < mn) mn = cnt[a];
        if (cnt[a] > mx) mx = cnt[a];
      }
    }
    if (mn != mx)
      note(j, "collectives on %s: the ranks ran %zu to %zu of them; the first %zu are matched", grp,
           mn, mx, mn);
    memset(acc, 0, sizeof acc);
    memset(lastv, 0, sizeof *lastv * (size_t)(RLI_COLL_COUNT + 1) * ((size_t)m + 1));
    for (int32_t q = 0; q <= RLI_COLL_COUNT; q++) acc[q].last = lastv + (size_t)q * ((size_t)m + 1);
    if (have > 1) {
      for (size_t k = 0; k < mn; k++) {
        int32_t last = -1;
        double sum = 0;
        int32_t nr = 0;
        for (int32_t a = 0; a < m; a++) {
          if (!cnt[a]) continue;
          const rli_coll *c = &ok[a]->col[pos[a] + k];
          if (last < 0 || c->ts > ok[last]->col[pos[last] + k].ts) last = a;
          sum += c->end - c->ts;
          nr++;
        }
        const rli_coll *lc = &ok[last]->col[pos[last] + k];
        double waited = 0;
        for (int32_t a = 0; a < m; a++) {
          if (!cnt[a] || a == last) continue;
          const rli_coll *c = &ok[a]->col[pos[a] + k];
          double w = lc->ts - c->ts, d = c->end - c->ts;
          if (w > d) w = d;
          if (w < 0) w = 0;
          waited += w;
          ok[a]->r.waited_s += w * 1e-6;
        }
        ok[last]->r.others_waited_s += waited * 1e-6;
        ok[last]->r.last_in++;
        j->tot.waited_s += waited * 1e-6;
        j->tot.matched++;
        double nn = lc->group_size > 0 ? lc->group_size : nr;
        double fb = lc->kind >= 0 ? rli_coll_factor(lc->kind, nn) * lc->bytes : 0;
        if (fb > 0) {
          j->tot.coll_bytes += fb;
          j->tot.coll_time_s += sum / nr * 1e-6;
          j->tot.coll_time_nowait_s += (lc->end - lc->ts) * 1e-6;
        }
        jc_acc *q = &acc[lc->kind >= 0 && lc->kind < RLI_COLL_COUNT ? lc->kind : RLI_COLL_COUNT];
        q->c.count++;
        if (nn > q->c.ranks) q->c.ranks = (int32_t)nn;
        q->c.bytes += lc->bytes;
        q->c.time_s += sum / nr * 1e-6;
        q->c.time_nowait_s += (lc->end - lc->ts) * 1e-6;
        q->c.waited_s += waited * 1e-6;
        q->bus += fb > 0 ? fb : 0;
        q->roof += fb > 0 && link > 0 ? fb / link : 0;
        q->last[last]++;
      }
    }
    /* this group's kinds, each one row */
    for (int32_t q = 0; q <= RLI_COLL_COUNT; q++) {
      jc_acc *x = &acc[q];
      if (!x->c.count) continue;
      if (!rli_grow((void **)&j->jc, sizeof *j->jc, (size_t)j->njc + 1, &j->capjc)) break;
      rl_job_coll *c = &j->jc[j->njc++];
      *c = x->c;
      rli_strlcpy(c->group, grp, sizeof c->group);
      c->kind = rli_coll_name(q < RLI_COLL_COUNT ? q : -1);
      c->link_bw = link;
      if (x->bus > 0 && c->time_s > 0) c->busbw = x->bus / c->time_s;
      if (x->bus > 0 && c->time_nowait_s > 0) c->busbw_nowait = x->bus / c->time_nowait_s;
      c->at_roof_s = c->gain_s = (double)NAN;
      if (x->bus > 0 && link > 0) {
        c->at_roof_s = x->roof;
        c->gain_s = fmax(0, c->time_nowait_s - x->roof);
      }
      for (int32_t a = 0; a < m; a++)
        if (x->last[a] > c->last_count) c->last_count = x->last[a], c->last_rank = ok[a]->r.rank;
    }
    for (int32_t a = 0; a < m; a++) pos[a] += cnt[a];
  }
  free(pos);
  free(cnt);
  free(lastv);
  return RL_OK;
}

/* Phase 6: the rows, by rank, and the job's totals. */
static void totals(rl_job *j, slot *const *ok, int32_t m) {
  double span = 0, idle = 0, cp = 0, ov = 0, cm = 0;
  for (int32_t a = 0; a < m; a++) {
    const rl_job_rank *r = &ok[a]->r;
    j->ranks[j->nranks++] = *r;
    if (r->has_roofline) j->tot.gpu_time_s += r->roof.gpu_time_s;
    span += r->span_s;
    idle += r->idle_s;
    cp += r->compute_s;
    j->tot.non_compute_s += r->non_compute_s;
    cm += r->comm_s;
    if (isfinite(r->overlap)) ov += r->overlap * r->comm_s;
  }
  j->tot.ranks = m;
  j->tot.span_s = span;
  j->tot.idle_s = idle;
  j->tot.compute_s = cp;
  j->tot.comm_s = cm;
  j->tot.idle_share = span > 0 ? idle / span : (double)NAN;
  j->tot.compute_share = span > 0 ? cp / span : (double)NAN;
  j->tot.non_compute_share = span > 0 ? j->tot.non_compute_s / span : (double)NAN;
  j->tot.overlap = cm > 0 ? ov / cm : (double)NAN;
}

/* Phase 7: the stragglers, the ranks the others waited for, longest first. */
static void stragglers(rl_job *j, slot *const *ok, int32_t m) {
  j->str = calloc((size_t)m + 1, sizeof *j->str);
  if (j->str) {
    for (int32_t a = 0; a < m; a++)
      if (ok[a]->r.others_waited_s > 0)
        j->str[j->nstr++] = (rl_job_straggler){ok[a]->r.rank, ok[a]->r.others_waited_s, ok[a]->r.last_in};
    qsort(j->str, (size_t)j->nstr, sizeof *j->str, cmp_str);
  }
}

/* Phase 8: the spread of each kernel's total time over the ranks (names
 * sorted in every slot, merged), the top ones; vals: room for m values. */
static void kernel_spread(rl_job *j, slot *const *ok, int32_t m, double *vals) {
  size_t *kp = calloc((size_t)m + 1, sizeof *kp);
  size_t cap = 0;
  if (kp && rli_grow((void **)&j->spr, sizeof *j->spr, 64, &cap)) {
    for (;;) {
      const char *nm = NULL;
      for (int32_t a = 0; a < m; a++)
        if (kp[a] < ok[a]->nks && (!nm || strcmp(ok[a]->ks[kp[a]].name, nm) < 0)) nm = ok[a]->ks[kp[a]].name;
      if (!nm) break;
      rl_job_spread sp;
      memset(&sp, 0, sizeof sp);
      sp.name = nm;
      sp.min_s = HUGE_VAL;
      sp.max_s = -HUGE_VAL;
      int32_t nv = 0;
      for (int32_t a = 0; a < m; a++) {
        if (kp[a] >= ok[a]->nks || strcmp(ok[a]->ks[kp[a]].name, nm)) continue;
        double t = ok[a]->ks[kp[a]].time_s;
        vals[nv++] = t;
        sp.total_s += t;
        if (t < sp.min_s) { sp.min_s = t; sp.min_rank = ok[a]->r.rank; }
        if (t > sp.max_s) { sp.max_s = t; sp.max_rank = ok[a]->r.rank; }
      }
      qsort(vals, (size_t)nv, sizeof *vals, cmp_dbl);
      sp.median_s = nv % 2 ? vals[nv / 2] : (vals[nv / 2 - 1] + vals[nv / 2]) / 2;
      sp.ranks = nv;
      for (int32_t a = 0; a < m; a++)
        if (kp[a] < ok[a]->nks && !strcmp(ok[a]->ks[kp[a]].name, sp.name)) kp[a]++;
      if (!rli_grow((void **)&j->spr, sizeof *j->spr, (size_t)j->nspr + 1, &cap)) break;
      j->spr[j->nspr++] = sp;
    }
    qsort(j->spr, (size_t)j->nspr, sizeof *j->spr, cmp_spread);
    int32_t top = j->o.top > 0 ? j->o.top : 10;
    if (j->nspr > top) j->nspr = top;
  }
  free(kp);
}

rl_status rl_job_finish(rl_job *j, rl_error *err) {
  if (!j) return rli_fail(err, RL_EINVAL, "no job");
  clear_results(j);
  memset(&j->tot, 0, sizeof j->tot);
  j->tot.files = j->n;
  int32_t n = j->n;
  slot **ok = malloc(sizeof *ok * ((size_t)n + 1));
  j->ranks = calloc((size_t)n + 1, sizeof *j->ranks);
  j->fail = calloc((size_t)n + 1, sizeof *j->fail);
  if (!ok || !j->ranks || !j->fail) { free(ok); return rli_fail(err, RL_ENOMEM, "out of memory"); }
  int32_t nok = 0, nodist = 0;
  int32_t m = usable_ranks(j, ok, &nok, &nodist);
  world_size(j, ok, m, nok, nodist);
  check_steps(j, ok, m);
  int differ = align_clocks(j, ok, m);
  double *vals = malloc(sizeof *vals * ((size_t)m + 1));
  if (!vals) { free(ok); return rli_fail(err, RL_ENOMEM, "out of memory"); }
  double link = coll_link(j, ok, m);
  if (m > 1 && differ >= 0) {
    rl_status st = match_collectives(j, ok, m, link, err);
    if (st) { free(vals); free(ok); return st; }
  }
  if (j->njc > 1) qsort(j->jc, (size_t)j->njc, sizeof *j->jc, cmp_jc);
  if (j->tot.coll_time_s > 0) j->tot.busbw = j->tot.coll_bytes / j->tot.coll_time_s;
  if (j->tot.coll_time_nowait_s > 0) j->tot.busbw_nowait = j->tot.coll_bytes / j->tot.coll_time_nowait_s;
  totals(j, ok, m);
  stragglers(j, ok, m);
  kernel_spread(j, ok, m, vals);
  free(vals);
  free(ok);
  return RL_OK;
}

const rl_job_rank *rl_job_ranks(const rl_job *j, int32_t *n) {
  if (n) *n = j ? j->nranks : 0;
  return j ? j->ranks : NULL;
}
const rl_job_rank *rl_job_failures(const rl_job *j, int32_t *n) {
  if (n) *n = j ? j->nfail : 0;
  return j ? j->fail : NULL;
}
const rl_job_totals *rl_job_get_totals(const rl_job *j) { return j ? &j->tot : NULL; }
const rl_job_straggler *rl_job_stragglers(const rl_job *j, int32_t *n) {
  if (n) *n = j ? j->nstr : 0;
  return j ? j->str : NULL;
}
const rl_job_spread *rl_job_spreads(const rl_job *j, int32_t *n) {
  if (n) *n = j ? j->nspr : 0;
  return j ? j->spr : NULL;
}
const rl_job_coll *rl_job_colls(const rl_job *j, int32_t *n) {
  if (n) *n = j ? j->njc : 0;
  return j ? j->jc : NULL;
}
const char *rl_job_note(const rl_job *j, int32_t i) {
  return j && i >= 0 && i < j->nnotes ? j->notes[i] : NULL;
}
int32_t rl_job_notes(const rl_job *j) { return j ? j->nnotes : 0; }

/* ---- JSON ------------------------------------------------------------------------
 *
 * One field table per record (core/record.h): rl_job_json walks them, and
 * tools/gen_tables.py makes docs/schema/trace-job.json from them. */

/* "job": the totals over the ranks */
static const rli_field totals_fields[] = {
    {"files", NULL, "trace files given or found", RLI_F_INT, RLI_AT(rl_job_totals, files)},
    {"ranks", NULL, "ranks analysed (failed files and duplicate ranks left out)", RLI_F_INT,
     RLI_AT(rl_job_totals, ranks)},
    {"failed", NULL, "files that could not be read", RLI_F_INT, RLI_AT(rl_job_totals, failed)},
    {"world_size", NULL,
     "world size (the most common distributedInfo.world_size; the ranks analysed when none); 0 unknown",
     RLI_F_INT, RLI_AT(rl_job_totals, world_size)},
    {"gpu_time_s", "s", "sum over ranks of the single-trace GPU time", RLI_F_NUM,
     RLI_AT(rl_job_totals, gpu_time_s)},
    {"hta_span_s", "s", "sum over ranks of HTA's GPU span (hta_span_s of the ranks)", RLI_F_NUM,
     RLI_AT(rl_job_totals, span_s)},
    {"hta_idle_s", "s", "sum over ranks of HTA's idle time in that span", RLI_F_NUM, RLI_AT(rl_job_totals, idle_s)},
    {"hta_compute_s", "s", "sum over ranks of the union of computation kernels", RLI_F_NUM,
     RLI_AT(rl_job_totals, compute_s)},
    {"hta_non_compute_s", "s", "sum over ranks of hta_span_s - hta_compute_s - hta_idle_s", RLI_F_NUM,
     RLI_AT(rl_job_totals, non_compute_s)},
    {"comm_s", "s", "sum over ranks of the union of communication kernels", RLI_F_NUM,
     RLI_AT(rl_job_totals, comm_s)},
    {"idle_share", NULL, "hta_idle_s / hta_span_s", RLI_F_NUM, RLI_AT(rl_job_totals, idle_share)},
    {"compute_share", NULL, "hta_compute_s / hta_span_s", RLI_F_NUM, RLI_AT(rl_job_totals, compute_share)},
    {"non_compute_share", NULL, "hta_non_compute_s / hta_span_s", RLI_F_NUM,
     RLI_AT(rl_job_totals, non_compute_share)},
    {"overlap", NULL,
     "communication time overlapping computation over communication time, all ranks; null without "
     "communication",
     RLI_F_NUM, RLI_AT(rl_job_totals, overlap)},
    {"collectives_matched", NULL, "collectives matched across ranks by their order on their process group",
     RLI_F_INT, RLI_AT(rl_job_totals, matched)},
    {"waited_s", "s", "the ranks' wait for the last rank to start each matched collective, summed", RLI_F_NUM,
     RLI_AT(rl_job_totals, waited_s)},
    {"coll_bytes", "B", "sum of busbw factor x message size over the matched collectives with a size",
     RLI_F_NUM, RLI_AT(rl_job_totals, coll_bytes)},
    {"busbw", "B/s",
     "bus bandwidth over the matched collectives with the wait (the ranks' mean kernel time); null without "
     "message sizes",
     RLI_F_NUM, .flags = RLI_NULL_NONPOS, RLI_AT(rl_job_totals, busbw)},
    {"busbw_no_wait", "B/s",
     "the same without the wait (the last rank's kernel time); null without message sizes", RLI_F_NUM,
     .flags = RLI_NULL_NONPOS, RLI_AT(rl_job_totals, busbw_nowait)},
    {"clocks_aligned", NULL,
     "true when the files' clocks differed and the ranks were aligned on the end of their first collective",
     RLI_F_BOOL, RLI_AT(rl_job_totals, aligned)},
};
static RLI_RECORD(totals_record, "trace_job_totals", "totals over the ranks", totals_fields);

/* A rank's single-trace keys as `trace FILE --json` writes them: null where
 * it says null (no device, no kernel times, no timeline) */
static int has_roofline(const void *rec) { return ((const rl_job_rank *)rec)->has_roofline != 0; }
static int has_times(const void *rec) {
  const rl_job_rank *r = rec;
  return r->has_roofline && r->roof.has_time;
}
static int has_span(const void *rec) {
  const rl_job_rank *r = rec;
  return r->has_roofline && r->roof.has_span;
}
static int has_device(const void *rec) { return ((const rl_job_rank *)rec)->device[0] != 0; }
static double rank_kernel_count(const void *rec) {
  const rl_job_rank *r = rec;
  return r->has_roofline ? (double)r->roof.kernels : 0;
}
#define ROOF(key, unit, m, when, doc) \
  {key, unit, doc, RLI_F_NUM, RLI_AT(rl_job_rank, roof.m), .known = when}
static const rli_field rank_fields[] = {
    {"rank", NULL, "rank (distributedInfo.rank, else the file's place in the file order)", RLI_F_INT,
     RLI_AT(rl_job_rank, rank)},
    {"file", NULL, "the trace file", RLI_F_TEXT, RLI_AT(rl_job_rank, file)},
    {"device", NULL, "the device as the file names it; null when none", RLI_F_TEXT,
     RLI_AT(rl_job_rank, device), .known = has_device},
    {"hw", NULL, "hardware id of the roofline figures; null when the device is unknown", RLI_F_TEXT,
     RLI_AT(rl_job_rank, hw_id), .known = has_roofline},
    {"kernels", NULL, "kernel executions (single-trace); 0 without a device", RLI_F_INT, .get = rank_kernel_count},
    {"graph_kernels_matched", NULL,
     "kernels of CUDA-graph replays given the op of their captured launch (its capture in the file, or in "
     "RUN.capture.json(.gz) beside it), as trace FILE's",
     RLI_F_INT, RLI_AT(rl_job_rank, graph_matched)},
    {"graph_kernels_unmatched", NULL, "kernels of CUDA-graph replays not matched to a capture, as trace FILE's",
     RLI_F_INT, RLI_AT(rl_job_rank, graph_unmatched)},
    {"graph_launches_unreplayed", NULL,
     "launches of the captures of matched replays with no kernel in their replay, as trace FILE's", RLI_F_INT,
     RLI_AT(rl_job_rank, graph_unreplayed)},
    ROOF("gpu_time_s", "s", gpu_time_s, has_times, "single-trace GPU time (kernels and copies)"),
    ROOF("span_s", "s", span_s, has_span, "single-trace span: last end - first start of its kernels and copies"),
    ROOF("idle_s", "s", idle_s, has_span, "single-trace idle time: span_s - busy_s"),
    ROOF("busy_s", "s", busy_s, has_span, "single-trace union of kernel intervals"),
    ROOF("busy_share", NULL, busy_share, has_span, "single-trace busy share of the span"),
    ROOF("compute_bound_s", "s", compute_s, has_times, "kernel time in compute-bound kernels"),
    ROOF("memory_bound_s", "s", memory_s, has_times, "kernel time in memory-bound kernels"),
    ROOF("overhead_s", "s", overhead_s, has_times, "short or overhead-bound kernels (idle time apart: idle_s)"),
    ROOF("unknown_s", "s", unknown_s, has_times, "kernel time without F and Q"),
    ROOF("gain_s", "s", gain_s, has_times, "time still to gain if every kernel with F and Q ran at its roof"),
    ROOF("covered_s", "s", covered_s, has_times, "GPU time under a roof"),
    ROOF("coverage", NULL, coverage, has_times, "covered_s / gpu_time_s"),
    {"hta_span_s", "s",
     "HTA's GPU span: last end - first start of HTA's GPU events (every event with a stream, host ops "
     "recorded with one included; HTA's event set and rounding when the job asked for them: hta)",
     RLI_F_NUM, RLI_AT(rl_job_rank, span_s)},
    {"hta_idle_s", "s", "hta_span_s - union of HTA's GPU events", RLI_F_NUM, RLI_AT(rl_job_rank, idle_s)},
    {"hta_compute_s", "s", "union of the computation kernels (HTA's name patterns)", RLI_F_NUM,
     RLI_AT(rl_job_rank, compute_s)},
    {"hta_non_compute_s", "s", "hta_span_s - hta_compute_s - hta_idle_s", RLI_F_NUM,
     RLI_AT(rl_job_rank, non_compute_s)},
    {"idle_share", NULL, "hta_idle_s / hta_span_s (HTA's idle_time)", RLI_F_NUM, RLI_AT(rl_job_rank, idle_share)},
    {"compute_share", NULL, "hta_compute_s / hta_span_s (HTA's compute_time)", RLI_F_NUM,
     RLI_AT(rl_job_rank, compute_share)},
    {"non_compute_share", NULL, "hta_non_compute_s / hta_span_s (HTA's non_compute_time)", RLI_F_NUM,
     RLI_AT(rl_job_rank, non_compute_share)},
    {"overlap", NULL,
     "communication time overlapping computation over communication time (HTA's comp_comm_overlap); null "
     "without communication",
     RLI_F_NUM, RLI_AT(rl_job_rank, overlap)},
    {"idle_host_wait_s", "s",
     "the rank's idle time (span minus the union of its GPU events) whose gap ends at an event launched after "
     "the GPU went idle (the GPU waited for the host); host, kernel wait and other sum to hta_idle_s",
     RLI_F_NUM, RLI_AT(rl_job_rank, idle_host_wait_s)},
    {"idle_kernel_wait_s", "s", "the rank's other idle gaps under 30 us (HTA's consecutive_kernel_delay)",
     RLI_F_NUM, RLI_AT(rl_job_rank, idle_kernel_wait_s)},
    {"idle_other_s", "s", "the rank's remaining idle gaps", RLI_F_NUM, RLI_AT(rl_job_rank, idle_other_s)},
    {"stream_idle_host_wait_s", "s",
     "HTA's idle-time breakdown per stream, summed over the streams: host wait (a moment idle on two streams "
     "counts twice, so it can exceed the span)",
     RLI_F_NUM, RLI_AT(rl_job_rank, stream_idle_host_wait_s)},
    {"stream_idle_kernel_wait_s", "s", "HTA's kernel wait per stream, summed over the streams", RLI_F_NUM,
     RLI_AT(rl_job_rank, stream_idle_kernel_wait_s)},
    {"stream_idle_other_s", "s", "HTA's other idle time per stream, summed over the streams", RLI_F_NUM,
     RLI_AT(rl_job_rank, stream_idle_other_s)},
    {"job_collectives", NULL,
     "the rank's collective kernels, as its single trace's collective_kernels counts them (kernels whose name "
     "says so, NCCL, and kernels counted as collectives by their op); matched across ranks by order",
     RLI_F_INT, RLI_AT(rl_job_rank, collectives)},
    {"job_collective_s", "s", "their summed duration", RLI_F_NUM, RLI_AT(rl_job_rank, coll_time_s)},
    {"waited_s", "s", "this rank's wait for the last rank in matched collectives", RLI_F_NUM,
     RLI_AT(rl_job_rank, waited_s)},
    {"others_waited_s", "s", "the other ranks' wait for this rank", RLI_F_NUM,
     RLI_AT(rl_job_rank, others_waited_s)},
    {"clock_offset_s", "s", "subtracted from its collectives to align its clock", RLI_F_NUM,
     RLI_AT(rl_job_rank, clock_offset_s)},
    {"steps", NULL, "distinct ProfilerStep#N annotations", RLI_F_INT, RLI_AT(rl_job_rank, steps)},
};
#undef ROOF
static RLI_RECORD(rank_record, "trace_job_rank", "one rank's figures", rank_fields);

static const rli_field straggler_fields[] = {
    {"rank", NULL, "rank", RLI_F_INT, RLI_AT(rl_job_straggler, rank)},
    {"others_waited_s", "s", "the other ranks' wait for it", RLI_F_NUM,
     RLI_AT(rl_job_straggler, others_waited_s)},
    {"collectives", NULL, "matched collectives it started last", RLI_F_INT,
     RLI_AT(rl_job_straggler, collectives)},
};
static RLI_RECORD(straggler_record, "trace_job_straggler", "a rank the others waited for", straggler_fields);

static const rli_field spread_fields[] = {
    {"name", NULL, "kernel name", RLI_F_STR, RLI_AT(rl_job_spread, name)},
    {"total_s", "s", "its time over every rank", RLI_F_NUM, RLI_AT(rl_job_spread, total_s)},
    {"min_s", "s", "the least of one rank", RLI_F_NUM, RLI_AT(rl_job_spread, min_s)},
    {"median_s", "s", "median over the ranks that ran it", RLI_F_NUM, RLI_AT(rl_job_spread, median_s)},
    {"max_s", "s", "the most of one rank", RLI_F_NUM, RLI_AT(rl_job_spread, max_s)},
    {"min_rank", NULL, "rank of the least", RLI_F_INT, RLI_AT(rl_job_spread, min_rank)},
    {"max_rank", NULL, "rank of the most", RLI_F_INT, RLI_AT(rl_job_spread, max_rank)},
    {"ranks", NULL, "ranks that ran it", RLI_F_INT, RLI_AT(rl_job_spread, ranks)},
};
static RLI_RECORD(spread_record, "trace_job_spread", "a kernel's time per rank", spread_fields);

static const rli_field coll_fields[] = {
    {"group", NULL, "process group (\"group NAME\" from Process Group Name), else \"stream N\"", RLI_F_TEXT,
     RLI_AT(rl_job_coll, group)},
    {"kind", NULL, "allreduce, allgather, reducescatter, broadcast, reduce, alltoall, sendrecv or other",
     RLI_F_STR, RLI_AT(rl_job_coll, kind)},
    {"ranks", NULL, "group size n: recorded, else the ranks that ran them", RLI_F_INT, RLI_AT(rl_job_coll, ranks)},
    {"count", NULL, "collectives matched across ranks", RLI_F_INT, RLI_AT(rl_job_coll, count)},
    {"bytes", "B", "sum of their message sizes S; null without message sizes", RLI_F_NUM,
     .flags = RLI_NULL_NONPOS, RLI_AT(rl_job_coll, bytes)},
    {"measured_s", "s", "the ranks' mean kernel time, summed", RLI_F_NUM, RLI_AT(rl_job_coll, time_s)},
    {"no_wait_s", "s", "the last-arriving rank's kernel time, summed", RLI_F_NUM,
     RLI_AT(rl_job_coll, time_nowait_s)},
    {"waited_s", "s", "the other ranks' wait for the last one in them", RLI_F_NUM, RLI_AT(rl_job_coll, waited_s)},
    {"busbw", "B/s", "nccl-tests busbw with the wait (the ranks' mean kernel time); null without message sizes",
     RLI_F_NUM, .flags = RLI_NULL_NONPOS, RLI_AT(rl_job_coll, busbw)},
    {"busbw_no_wait", "B/s", "the same without the wait (the last rank's kernel time); null without message "
     "sizes", RLI_F_NUM, .flags = RLI_NULL_NONPOS, RLI_AT(rl_job_coll, busbw_nowait)},
    {"link_bw", "B/s", "the device's interconnect, one direction; null unknown", RLI_F_NUM,
     .flags = RLI_NULL_NONPOS, RLI_AT(rl_job_coll, link_bw)},
    {"at_roof_s", "s", "the transfers at the link's roof: sum of factor x S / link_bw; null without sizes or a "
     "link figure", RLI_F_NUM, RLI_AT(rl_job_coll, at_roof_s)},
    {"gain_s", "s", "the transfer's gain: no_wait_s - at_roof_s (>= 0), the wait left out; rows are ranked by it",
     RLI_F_NUM, RLI_AT(rl_job_coll, gain_s)},
    {"last_rank", NULL, "the rank that started them last most often", RLI_F_INT, RLI_AT(rl_job_coll, last_rank)},
    {"last_in", NULL, "in that many of them", RLI_F_INT, RLI_AT(rl_job_coll, last_count)},
};
static RLI_RECORD(coll_record, "trace_job_collective", "the matched collectives of one kind on one process group",
                  coll_fields);

static const rli_field failed_fields[] = {
    {"file", NULL, "the trace file", RLI_F_TEXT, RLI_AT(rl_job_rank, file)},
    {"error", NULL, "the one-line error", RLI_F_TEXT, RLI_AT(rl_job_rank, error)},
};
static RLI_RECORD(failed_record, "trace_job_failed", "a file that could not be read", failed_fields);

static void put_overlap(rli_out *o, const void *rec, const rli_field *f) {
  const rl_job *j = rec;
  (void)f;
  rli_out_puts(o, "[");
  for (int32_t i = 0; i < j->nranks; i++) {
    if (i) rli_out_puts(o, ",");
    rli_out_num(o, j->ranks[i].overlap);
  }
  rli_out_puts(o, "]");
}
static void put_notes(rli_out *o, const void *rec, const rli_field *f) {
  const rl_job *j = rec;
  (void)f;
  rli_out_puts(o, "[");
  for (int32_t i = 0; i < j->nnotes; i++) {
    if (i) rli_out_puts(o, ",");
    rli_out_str(o, j->notes[i]);
  }
  rli_out_puts(o, "]");
}

static const rli_field job_fields[] = {
    {"hta", NULL, "true when the job asked for HTA's own event set and rounding", RLI_F_BOOL, RLI_AT(rl_job, o.hta)},
    {"job", NULL, "totals over the ranks", RLI_F_OBJ, RLI_AT(rl_job, tot), .sub = &totals_record},
    {"ranks", NULL, "one object per rank, by rank", RLI_F_OBJ, RLI_ITEMS(rl_job, ranks, nranks),
     .sub = &rank_record},
    {"stragglers", NULL, "ranks the others waited for, largest wait first", RLI_F_OBJ,
     RLI_ITEMS(rl_job, str, nstr), .sub = &straggler_record},
    {"overlap", NULL, "per rank (in the order of ranks), the overlap; null without communication", RLI_F_NUM,
     RLI_LIST, .put = put_overlap},
    {"spread", NULL, "the top kernels by total time over ranks: their time per rank", RLI_F_OBJ,
     RLI_ITEMS(rl_job, spr, nspr), .sub = &spread_record},
    {"collectives", NULL,
     "the matched collectives by process group and kind, largest time first: a slow rank opens a gap between "
     "busbw and busbw_no_wait, a slow link keeps both low",
     RLI_F_OBJ, RLI_ITEMS(rl_job, jc, njc), .sub = &coll_record},
    {"failed", NULL, "files that could not be read", RLI_F_OBJ, RLI_ITEMS(rl_job, fail, nfail),
     .sub = &failed_record},
    {"notes", NULL,
     "findings about the input, one line each (world sizes, duplicate or missing ranks, steps, clocks)",
     RLI_F_STR, RLI_LIST, .put = put_notes},
};
RLI_RECORD(rli_job_record, "trace_job", "roofline trace job: a job's ranks", job_fields);

size_t rl_job_json(const rl_job *j, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  if (!j) rli_out_puts(&o, "null");
  else rli_record_write(&o, &rli_job_record, j);
  return rli_out_end(&o);
}
