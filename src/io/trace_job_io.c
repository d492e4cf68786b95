/*
 * trace_job_io.c -- the files of a distributed job: which files (a folder,
 * files, a glob), reading one rank's Kineto trace into the compact arrays
 * of the cross-rank analysis (src/core/trace_job.c) while the roofline
 * reader takes the same single pass, and reading many at once on worker
 * threads (POSIX threads; each worker holds one file's arrays at a time,
 * the summaries it leaves are small).
 */
#include "core/trace_job.h"
#include "io/trace_io.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- collecting one file's events -------------------------------------------- */
typedef struct coll_ctx {
  rli_rankraw *raw;
  uint32_t *map; /* kernel name hash table: ids, UINT32_MAX empty */
  size_t mapcap;
} coll_ctx;

static uint32_t name_id(coll_ctx *c, const char *s) {
  rli_rankraw *r = c->raw;
  if ((r->nnames + 1) * 2 > c->mapcap) {
    size_t nc = c->mapcap ? c->mapcap * 2 : 1024;
    uint32_t *m = malloc(nc * sizeof *m);
    if (!m) return UINT32_MAX;
    for (size_t i = 0; i < nc; i++) m[i] = UINT32_MAX;
    for (size_t i = 0; i < r->nnames; i++) {
      size_t h = (size_t)rli_hash(r->names[i], strlen(r->names[i])) & (nc - 1);
      while (m[h] != UINT32_MAX) h = (h + 1) & (nc - 1);
      m[h] = (uint32_t)i;
    }
    free(c->map);
    c->map = m;
    c->mapcap = nc;
  }
  size_t h = (size_t)rli_hash(s, strlen(s)) & (c->mapcap - 1);
  while (c->map[h] != UINT32_MAX) {
    if (!strcmp(r->names[c->map[h]], s)) return c->map[h];
    h = (h + 1) & (c->mapcap - 1);
  }
  if (!rli_grow((void **)&r->names, sizeof *r->names, r->nnames + 1, &r->capnames)) return UINT32_MAX;
  size_t l = strlen(s);
  char *d = malloc(l + 1);
  if (!d) return UINT32_MAX;
  memcpy(d, s, l + 1);
  r->names[r->nnames] = d;
  c->map[h] = (uint32_t)r->nnames;
  return (uint32_t)r->nnames++;
}

/* The collective of an NCCL kernel before the trace's analysis names it:
 * "Collective name", else the kernel's name (ncclKernel_AllReduce_...,
 * ncclDevKernel_AllGather_...); rli_coll_kind reads both. */
static int32_t coll_kind(const char *coll, const char *name) {
  int32_t k = coll[0] ? rli_coll_kind(coll) : -1;
  return k >= 0 ? k : rli_coll_kind(name);
}

static int on_event(void *ctx, const rli_kev *e) {
  coll_ctx *c = ctx;
  rli_rankraw *r = c->raw;
  int gpu = e->stream >= 0;
  int sync = !strcmp(e->name, "Event Sync") || !strcmp(e->name, "Context Sync");
  if (RLI_STARTS(e->name, "ProfilerStep#") && !(gpu && e->corr >= 0)) {
    char *end;
    long long n = strtoll(e->name + 13, &end, 10);
    if (end != e->name + 13) {
      if (!rli_grow((void **)&r->s, sizeof *r->s, r->ns + 1, &r->caps)) return -1;
      r->s[r->ns++] = (rli_step){e->ts, e->dur, n};
    }
  }
  /* a collective kernel: every one the trace's analysis may count (also
   * one without a stream, which HTA's timeline leaves out) */
  int kcat = !strcmp(e->cat, "kernel") || !strcmp(e->cat, "Kernel");
  if (kcat && e->kidx >= 0 && (rli_hta_kernel_type(e->name) == RLI_K_COMM || e->coll[0])) {
    if (!rli_grow((void **)&r->col, sizeof *r->col, r->ncol + 1, &r->capcol)) return -1;
    rli_coll *k = &r->col[r->ncol++];
    memset(k, 0, sizeof *k);
    k->ts = e->ts;
    k->end = e->ts + e->dur;
    /* kind, S and n from the trace's own analysis after reading
     * (coll_from_trace); until then what the event says */
    k->kind = coll_kind(e->coll, e->name);
    k->bytes = 0;
    k->group_size = e->group_size > 0 && e->group_size < INT32_MAX ? (int32_t)e->group_size : 0;
    k->kidx = e->kidx;
    if (e->pg[0]) snprintf(k->group, sizeof k->group, "group %s", e->pg);
    else snprintf(k->group, sizeof k->group, "stream %d", e->stream < 0 ? -1 : e->stream < INT32_MAX ? (int)e->stream : INT32_MAX);
  } else if (kcat && e->kidx >= 0) {
    if (!rli_grow((void **)&r->kr, sizeof *r->kr, r->nkr + 1, &r->capkr)) return -1;
    r->kr[r->nkr++] = (rli_kref){e->ts, e->ts + e->dur, e->kidx,
                                 e->stream < 0 ? -1 : e->stream < INT32_MAX ? (int32_t)e->stream : INT32_MAX};
  }
  if (!gpu) {
    if (e->corr >= 0 && !sync) {
      if (!rli_grow((void **)&r->c, sizeof *r->c, r->nc + 1, &r->capc)) return -1;
      r->c[r->nc++] = (rli_cev){e->ts, e->corr};
    }
    return 0;
  }
  if (!rli_grow((void **)&r->g, sizeof *r->g, r->ng + 1, &r->capg)) return -1;
  rli_gev *g = &r->g[r->ng];
  g->ts = e->ts;
  g->end = e->ts + e->dur;
  g->corr = e->corr;
  g->stream = e->stream < INT32_MAX ? (int32_t)e->stream : INT32_MAX;
  g->type = (uint8_t)rli_hta_kernel_type(e->name);
  g->kcat = (uint8_t)rli_hta_kernel_cat(e->cat);
  g->kernel = !strcmp(e->cat, "kernel") || !strcmp(e->cat, "Kernel");
  g->pad = 0;
  g->name = UINT32_MAX;
  if (g->kernel && (g->name = name_id(c, e->name)) == UINT32_MAX) return -1;
  r->ng++;
  return 0;
}

/* Each collective kernel's kind, S and n as the single-trace analysis
 * counts them (rli_trace_kernel_coll: the record_param_comms args, the
 * nccl:* op that launched it, the c10d op's group), so that a rank of a
 * job and the same file alone agree; a kernel that analysis does not
 * count as a collective (no size: launched before the window, no op)
 * keeps the kind its name says and no size. */
static int coll_from_trace(rl_trace *t, rli_rankraw *r) {
  /* kernels of other names that it counts (launched by a collective op) */
  for (size_t i = 0; i < r->nkr; i++) {
    int32_t kind;
    double S, n;
    int guess;
    if (!rli_trace_kernel_coll(t, (size_t)r->kr[i].kidx, &kind, &S, &n, &guess)) continue;
    if (!rli_grow((void **)&r->col, sizeof *r->col, r->ncol + 1, &r->capcol)) return -1;
    rli_coll *k = &r->col[r->ncol++];
    memset(k, 0, sizeof *k);
    k->ts = r->kr[i].ts;
    k->end = r->kr[i].end;
    k->kind = -1;
    k->kidx = r->kr[i].kidx;
    snprintf(k->group, sizeof k->group, "stream %d", (int)r->kr[i].stream);
  }
  for (size_t i = 0; i < r->ncol; i++) {
    rli_coll *c = &r->col[i];
    int32_t kind;
    double S, n;
    int guess;
    if (c->kidx < 0 || !rli_trace_kernel_coll(t, (size_t)c->kidx, &kind, &S, &n, &guess)) continue;
    if (kind >= 0) c->kind = kind;
    c->bytes = S > 0 ? S : 0;
    c->group_size = n >= 1 && n < INT32_MAX ? (int32_t)n : 0;
  }
  return 0;
}

static void on_meta(void *ctx, const char *key, double v) {
  rli_rankraw *r = ((coll_ctx *)ctx)->raw;
  if (!strcmp(key, "rank")) { r->rank = v; r->has_rank = 1; }
  else if (!strcmp(key, "world_size")) { r->world = v; r->has_world = 1; }
  else if (!strcmp(key, "baseTimeNanoseconds")) r->base_ns = v;
}

static void raw_free(rli_rankraw *r) {
  for (size_t i = 0; i < r->nnames; i++) free(r->names[i]);
  free(r->names);
  free(r->g);
  free(r->c);
  free(r->s);
  free(r->col);
  free(r->kr);
  memset(r, 0, sizeof *r);
}

static rl_status failed(rl_job *j, int32_t i, const char *path, rl_status st, const rl_error *e) {
  rl_job_rank r;
  memset(&r, 0, sizeof r);
  rli_strlcpy(r.file, path, sizeof r.file);
  r.status = (int32_t)st;
  rli_strlcpy(r.error, e->msg, sizeof r.error);
  rl_error e2;
  rli_job_set(j, i, &r, NULL, 0, NULL, 0, &e2);
  return st;
}

/* A file whose first bytes are no JSON (nor gzip) is skipped, not failed:
 * 1 then, with its slot set */
static int not_trace(rl_job *j, int32_t i, const char *path, const unsigned char *head, size_t n,
                     rl_error *err) {
  size_t k = 0;
  if (n >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF) k = 3;
  while (k < n && (head[k] == ' ' || head[k] == '\n' || head[k] == '\r' || head[k] == '\t')) k++;
  int gz = n >= 2 && head[0] == 0x1f && head[1] == 0x8b;
  if (!(n > 0 && !gz && (k >= n || (head[k] != '{' && head[k] != '[')))) return 0;
  rli_fail(err, RL_EPARSE, "%s: not a Kineto trace (no JSON text, no gzip)", path);
  rl_job_rank r;
  memset(&r, 0, sizeof r);
  rli_strlcpy(r.file, path, sizeof r.file);
  r.status = RL_EPARSE;
  r.not_trace = 1;
  rli_strlcpy(r.error, err->msg, sizeof r.error);
  rl_error e2;
  rli_job_set(j, i, &r, NULL, 0, NULL, 0, &e2);
  return 1;
}

/* Slot i from the source s (a file or memory), named path; capture: the
 * rank's CUDA-graph captures (its RUN.capture.json(.gz)), or NULL */
static rl_status read_src(rl_job *j, int32_t i, const char *path, rli_src *s, const char *capture,
                          rl_error *err) {
  const rl_job_opts *o = rli_job_opts(j);
  rl_trace *t = rl_trace_new(o->launch_overhead_s);
  if (!t) {
    rli_src_close(s);
    return failed(j, i, path, rli_fail(err, RL_ENOMEM, "%s: out of memory", path), err);
  }
  if (o->model) {
    rl_status mst = rl_trace_set_model(t, o->model, err);
    if (mst) {
      rli_src_close(s);
      rl_trace_free(t);
      return failed(j, i, path, mst, err);
    }
  }
  if (capture) {
    rl_status cst = rl_trace_read_capture(t, capture, err);
    if (cst) {
      rli_src_close(s);
      rl_trace_free(t);
      return failed(j, i, path, cst, err);
    }
  }
  rli_rankraw raw;
  memset(&raw, 0, sizeof raw);
  coll_ctx cc = {&raw, NULL, 0};
  rli_ksink sink = {&cc, on_event, on_meta};
  s->sink = &sink;
  rl_status st = rli_read_kineto(t, s, err);
  rli_src_close(s);
  free(cc.map);
  if (st) {
    rl_trace_free(t);
    raw_free(&raw);
    return failed(j, i, path, st, err);
  }
  rl_trace_info info;
  rl_trace_get_info(t, &info);
  if (info.cpu) { /* the job's figures are GPU time, collectives and waits */
    rl_trace_free(t);
    raw_free(&raw);
    return failed(j, i, path,
                  rli_fail(err, RL_EINVAL,
                           "%s: a CPU profile (cpu_ops, no GPU kernels): a folder job analyses GPU "
                           "ranks; analyse it alone (roofline trace FILE)", path),
                  err);
  }
  rl_job_rank r;
  memset(&r, 0, sizeof r);
  rli_strlcpy(r.file, path, sizeof r.file);
  r.has_dist = raw.has_rank;
  r.rank = raw.has_rank && raw.rank >= 0 && raw.rank < 1e9 ? (int32_t)raw.rank : -1;
  r.world_size = raw.has_world && raw.world > 0 && raw.world < 1e9 ? (int32_t)raw.world : 0;
  r.base_ns = raw.base_ns;
  if (coll_from_trace(t, &raw)) { /* before the analysis repairs the timeline */
    rl_trace_free(t);
    raw_free(&raw);
    return failed(j, i, path, rli_fail(err, RL_ENOMEM, "%s: out of memory", path), err);
  }
  rli_strlcpy(r.device, info.device, sizeof r.device);
  r.graph_matched = info.graph_matched;
  r.graph_unmatched = info.graph_unmatched;
  r.graph_unreplayed = info.graph_unreplayed;
  rl_hw hw;
  rl_error e2;
  int have_hw = 0;
  if (o->hw) { hw = *o->hw; have_hw = 1; }
  else have_hw = rl_trace_hw(t, &hw, &e2) == RL_OK;
  if (have_hw && rl_trace_analyze(t, &hw, &r.roof, &e2) == RL_OK) {
    r.has_roofline = 1;
    rli_strlcpy(r.hw_id, hw.id, sizeof r.hw_id);
  }
  rl_trace_free(t);
  rli_coll *cols;
  rli_kstat *ks;
  size_t ncol, nks;
  st = rli_job_rank_figures(&raw, o->hta, o->kernel_wait_s * 1e6, &r, &cols, &ncol, &ks, &nks, err);
  raw_free(&raw);
  if (st) return failed(j, i, path, st, err);
  return rli_job_set(j, i, &r, cols, ncol, ks, nks, err);
}

rl_status rl_job_read(rl_job *j, int32_t i, const char *path, rl_error *err) {
  rl_error scratch;
  if (!err) err = &scratch;
  if (!j || !path || i < 0 || i >= rli_job_size(j))
    return rli_fail(err, RL_EINVAL, "rl_job_read: no job, slot or path");
  FILE *pf = fopen(path, "rb");
  if (pf) {
    unsigned char head[256];
    size_t n = fread(head, 1, sizeof head, pf);
    fclose(pf);
    if (not_trace(j, i, path, head, n, err)) return RL_EPARSE;
  }
  rli_src s;
  rl_status st = rli_src_open_file(&s, path, err);
  if (st) return failed(j, i, path, st, err);
  char cap[4096];
  return read_src(j, i, path, &s, rl_job_capture_of(path, cap, sizeof cap) ? cap : NULL, err);
}

rl_status rl_job_read_buffer(rl_job *j, int32_t i, const char *name, const void *data, size_t len,
                             rl_error *err) {
  rl_error scratch;
  if (!err) err = &scratch;
  if (!j || !name || (!data && len) || i < 0 || i >= rli_job_size(j))
    return rli_fail(err, RL_EINVAL, "rl_job_read_buffer: no job, slot, name or data");
  if (not_trace(j, i, name, data, len < 256 ? len : 256, err)) return RL_EPARSE;
  rli_src s;
  rli_src_open_mem(&s, data, len, name);
  return read_src(j, i, name, &s, NULL, err);
}

/* ---- many files on worker threads -------------------------------------------- */
typedef struct pool {
  rl_job *j;
  const char *const *paths;
  const int32_t *order;
  int32_t n, next, failed;
  pthread_mutex_t mu;
} pool;

static void *worker(void *arg) {
  pool *p = arg;
  for (;;) {
    pthread_mutex_lock(&p->mu);
    int32_t k = p->next < p->n ? p->order[p->next++] : -1;
    pthread_mutex_unlock(&p->mu);
    if (k < 0) return NULL;
    rl_error e;
    if (rl_job_read(p->j, k, p->paths[k], &e) != RL_OK) {
      pthread_mutex_lock(&p->mu);
      p->failed++;
      pthread_mutex_unlock(&p->mu);
    }
  }
}

int32_t rl_job_order_by_size(const char *const *paths, int32_t n, int32_t *order) {
  double *sz = malloc(sizeof *sz * ((size_t)n + 1));
  if (!sz) {
    for (int32_t i = 0; i < n; i++) order[i] = i;
    return n;
  }
  for (int32_t i = 0; i < n; i++) {
    struct stat stt;
    sz[i] = stat(paths[i], &stt) == 0 ? (double)stt.st_size : 0;
    order[i] = i;
  }
  /* largest first, file order among equals (insertion sort: n is small) */
  for (int32_t a = 1; a < n; a++) {
    int32_t x = order[a], b = a;
    while (b > 0 && sz[order[b - 1]] < sz[x]) { order[b] = order[b - 1]; b--; }
    order[b] = x;
  }
  free(sz);
  return n;
}

int32_t rl_job_read_list(rl_job *j, const char *const *paths, const int32_t *idx, int32_t n,
                         int32_t threads) {
  if (!j || n <= 0) return 0;
  pool p;
  p.j = j;
  p.paths = paths;
  p.order = idx;
  p.n = n;
  p.next = 0;
  p.failed = 0;
  pthread_mutex_init(&p.mu, NULL);
  if (threads < 1) threads = 1;
  if (threads > n) threads = n;
  pthread_t *th = malloc(sizeof *th * (size_t)threads);
  int32_t started = 0;
  for (int32_t i = 1; th && i < threads; i++)
    if (pthread_create(&th[started], NULL, worker, &p) == 0) started++;
  worker(&p); /* this thread works too */
  for (int32_t i = 0; i < started; i++) pthread_join(th[i], NULL);
  free(th);
  pthread_mutex_destroy(&p.mu);
  return p.failed;
}

int32_t rl_job_read_all(rl_job *j, const char *const *paths, int32_t n, int32_t threads) {
  if (!j || n <= 0) return 0;
  int32_t *order = malloc(sizeof *order * ((size_t)n + 1));
  if (!order) return n;
  rl_job_order_by_size(paths, n, order);
  int32_t f = rl_job_read_list(j, paths, order, n, threads);
  free(order);
  return f;
}

/* ---- which files ------------------------------------------------------------------ */
/* natural order: "rank2" before "rank10" */
static int natcmp(const char *a, const char *b) {
  while (*a && *b) {
    if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
      const char *x = a, *y = b;
      while (*x == '0') x++;
      while (*y == '0') y++;
      size_t lx = 0, ly = 0;
      while (x[lx] >= '0' && x[lx] <= '9') lx++;
      while (y[ly] >= '0' && y[ly] <= '9') ly++;
      if (lx != ly) return lx < ly ? -1 : 1;
      int c = strncmp(x, y, lx);
      if (c) return c;
      a = x + lx;
      b = y + ly;
      continue;
    }
    if (*a != *b) return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
    a++;
    b++;
  }
  return *a ? 1 : *b ? -1 : 0;
}

static int cmp_nat(const void *a, const void *b) {
  return natcmp(*(const char *const *)a, *(const char *const *)b);
}

static int is_trace_name(const char *n) {
  size_t l = strlen(n);
  return (l > 5 && !strcmp(n + l - 5, ".json")) || (l > 8 && !strcmp(n + l - 8, ".json.gz"));
}

/* The length of a trace file's name without .json or .json.gz; 0 when not
 * a trace's name */
static size_t stem_len(const char *n) {
  size_t l = strlen(n);
  if (l > 8 && !strcmp(n + l - 8, ".json.gz")) return l - 8;
  if (l > 5 && !strcmp(n + l - 5, ".json")) return l - 5;
  return 0;
}

#define CAPTURE_EXT ".capture"

/* NAME.capture.json(.gz): the CUDA-graph captures of NAME.json(.gz) */
static int is_capture_name(const char *n) {
  size_t l = stem_len(n), c = strlen(CAPTURE_EXT);
  return l > c && !strncmp(n + l - c, CAPTURE_EXT, c);
}

int rl_job_capture_of(const char *path, char *out, size_t cap) {
  size_t l = stem_len(path);
  if (!l || is_capture_name(path)) return 0;
  static const char *const ext[] = {CAPTURE_EXT ".json.gz", CAPTURE_EXT ".json"};
  for (int k = 0; k < 2; k++) {
    if (l + strlen(ext[k]) + 1 > cap) return 0;
    memcpy(out, path, l);
    strcpy(out + l, ext[k]);
    struct stat sb;
    if (stat(out, &sb) == 0 && S_ISREG(sb.st_mode)) return 1;
  }
  return 0;
}

typedef struct strv {
  char **v;
  int32_t n;
  size_t cap;
} strv;

static int push(strv *s, const char *a, const char *b) {
  if (!rli_grow((void **)&s->v, sizeof *s->v, (size_t)s->n + 1, &s->cap)) return -1;
  size_t la = strlen(a), lb = b ? strlen(b) : 0;
  char *d = malloc(la + lb + 2);
  if (!d) return -1;
  memcpy(d, a, la);
  if (b) {
    d[la] = '/';
    memcpy(d + la + 1, b, lb + 1);
  } else {
    d[la] = 0;
  }
  s->v[s->n++] = d;
  return 0;
}

void rl_job_free_list(char **v, int32_t n) {
  for (int32_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

rl_status rl_job_find_files(const char *const *args, int32_t nargs, char ***paths, int32_t *np,
                            char ***skipped, int32_t *nskipped, rl_error *err) {
  strv out = {NULL, 0, 0}, skip = {NULL, 0, 0};
  rl_status st = RL_OK;
  for (int32_t i = 0; i < nargs && st == RL_OK; i++) {
    const char *a = args[i];
    struct stat sb;
    if (stat(a, &sb) == 0 && S_ISDIR(sb.st_mode)) {
      DIR *d = opendir(a);
      if (!d) { st = rli_fail(err, RL_EIO, "%s: %s", a, strerror(errno)); break; }
      strv names = {NULL, 0, 0};
      struct dirent *de;
      while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        if (push(&names, de->d_name, NULL)) { st = rli_fail(err, RL_ENOMEM, "out of memory"); break; }
      }
      closedir(d);
      if (names.n) qsort(names.v, (size_t)names.n, sizeof *names.v, cmp_nat);
      for (int32_t k = 0; k < names.n && st == RL_OK; k++) {
        size_t la = strlen(a);
        char *full = malloc(la + strlen(names.v[k]) + 2);
        if (!full) { st = rli_fail(err, RL_ENOMEM, "out of memory"); break; }
        snprintf(full, la + strlen(names.v[k]) + 2, "%s%s%s", a,
                 la && a[la - 1] == '/' ? "" : "/", names.v[k]);
        struct stat fs;
        int reg = stat(full, &fs) == 0 && S_ISREG(fs.st_mode);
        /* a rank's capture file (RUN.capture.json beside RUN.json) is read
         * with its rank (rl_job_capture_of), not as a rank of its own */
        if (reg && is_capture_name(names.v[k])) {
          free(full);
          continue;
        }
        if (push(reg && is_trace_name(names.v[k]) ? &out : &skip, full, NULL))
          st = rli_fail(err, RL_ENOMEM, "out of memory");
        free(full);
      }
      rl_job_free_list(names.v, names.n);
    } else if (stat(a, &sb) == 0) {
      /* a FIFO, a device, a socket named: passed over, never opened */
      if (push(S_ISREG(sb.st_mode) ? &out : &skip, a, NULL)) st = rli_fail(err, RL_ENOMEM, "out of memory");
    } else if (strpbrk(a, "*?[")) {
      glob_t g;
      int rc = glob(a, 0, NULL, &g);
      if (rc == GLOB_NOMATCH) {
        st = rli_fail(err, RL_EIO, "%s: no file matches", a);
      } else if (rc != 0) {
        st = rli_fail(err, RL_EIO, "%s: cannot expand", a);
      } else {
        for (size_t k = 0; k < g.gl_pathc && st == RL_OK; k++) {
          /* only regular files: a folder, a FIFO or a device matched is
           * passed over (a FIFO opened for reading waits for a writer) */
          struct stat gs;
          int reg = stat(g.gl_pathv[k], &gs) == 0 && S_ISREG(gs.st_mode);
          const char *base = strrchr(g.gl_pathv[k], '/');
          if (reg && is_capture_name(base ? base + 1 : g.gl_pathv[k])) continue; /* read with its rank */
          if (push(reg ? &out : &skip, g.gl_pathv[k], NULL)) st = rli_fail(err, RL_ENOMEM, "out of memory");
        }
        globfree(&g);
      }
    } else {
      st = rli_fail(err, RL_EIO, "%s: %s", a, strerror(errno));
    }
  }
  if (st == RL_OK && out.n == 0)
    st = rli_fail(err, RL_EIO, "%s: is a directory with no trace files (*.json, *.json.gz)",
                  nargs ? args[0] : "(nothing)");
  if (st) {
    rl_job_free_list(out.v, out.n);
    rl_job_free_list(skip.v, skip.n);
    *paths = NULL;
    *np = 0;
    if (skipped) *skipped = NULL;
    if (nskipped) *nskipped = 0;
    return st;
  }
  *paths = out.v;
  *np = out.n;
  if (skipped) *skipped = skip.v;
  else rl_job_free_list(skip.v, skip.n);
  if (nskipped) *nskipped = skip.n;
  return RL_OK;
}
