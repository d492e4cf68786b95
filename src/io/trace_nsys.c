/*
 * trace_nsys.c -- Nsight Systems SQLite exports (`nsys export --type
 * sqlite`): kernel names, times and the gaps between them.
 *
 * Schema (shared/docs/trace-formats.md section 4; checked on a 2025.1
 * export, schema 3.17.1): CUPTI_ACTIVITY_KIND_KERNEL(start, end in ns,
 * deviceId, correlationId, demangledName -> StringIds); the launch call in
 * CUPTI_ACTIVITY_KIND_RUNTIME (same correlationId, globalTid); the op is
 * the innermost NVTX push/pop or start/end range (NVTX_EVENTS eventType 59
 * or 60; text or textId -> StringIds) on the launching thread that
 * contains the launch call, the same rule as the Kineto reader's. The
 * device from TARGET_INFO_GPU (name, totalMemory, computeMajor/Minor).
 * nsys records no FLOPs or bytes: every kernel is listed with its time and
 * says so. The file is opened read-only; nothing is written to it.
 *
 * Bounded work (docs/reliability.md): only tables are read (a view, which
 * may be recursive and never end, is refused), a progress handler stops
 * any statement past a budget of SQLite VM steps proportional to the
 * file's size, and the launch -> NVTX range match (exports have no index
 * on these tables; a correlated subquery was O(kernels x ranges)) is a
 * sort and a sweep: O((K + N) log N).
 */
#include "io/trace_io.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* SQLite is loaded at run time (dlopen, once per process: pthread_once),
 * on the first Nsight Systems export read. Linked at build time, the
 * loader's relocating of libsqlite3 cost every process about 1.05 M
 * instructions before main, 80% of a query's whole start-up (callgrind:
 * bench/cli-latency). The sqlite3_* calls below go through this table
 * (the #defines), with the types of sqlite3.h's own prototypes. */
#define RLI_SQLITE_FNS(X)                                                                      \
  X(bind_text) X(close) X(column_double) X(column_int) X(column_int64) X(column_text)           \
  X(column_type) X(deserialize) X(errmsg) X(finalize) X(free) X(limit) X(malloc64) X(open_v2)  \
  X(prepare_v2) X(progress_handler) X(reset) X(step)
static struct {
#define RLI_SQ_FIELD(f) __typeof__(sqlite3_##f) *f;
  RLI_SQLITE_FNS(RLI_SQ_FIELD)
#undef RLI_SQ_FIELD
} sq;
static char sq_why[300]; /* why SQLite could not be loaded; "" when it was */
static pthread_once_t sq_once = PTHREAD_ONCE_INIT;

static void sq_load(void) {
  static const char *const names[] = {"libsqlite3.so.0", "libsqlite3.so"};
  void *h = NULL;
  for (size_t i = 0; i < sizeof names / sizeof names[0] && !h; i++) {
    h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h && i == 0) {
      const char *e = dlerror();
      snprintf(sq_why, sizeof sq_why, "%s", e ? e : names[0]);
    }
  }
  if (!h) return;
  sq_why[0] = 0;
#define RLI_SQ_SYM(f)                                                                  \
  if (!sq_why[0]) {                                                                     \
    void *p = dlsym(h, "sqlite3_" #f);                                                  \
    if (p) memcpy(&sq.f, &p, sizeof p);                                                 \
    else snprintf(sq_why, sizeof sq_why, "%s has no sqlite3_%s", names[0], #f);         \
  }
  RLI_SQLITE_FNS(RLI_SQ_SYM)
#undef RLI_SQ_SYM
}

#define sqlite3_bind_text sq.bind_text
#define sqlite3_close sq.close
#define sqlite3_column_double sq.column_double
#define sqlite3_column_int sq.column_int
#define sqlite3_column_int64 sq.column_int64
#define sqlite3_column_text sq.column_text
#define sqlite3_column_type sq.column_type
#define sqlite3_deserialize sq.deserialize
#define sqlite3_errmsg sq.errmsg
#define sqlite3_finalize sq.finalize
#define sqlite3_free sq.free
#define sqlite3_limit sq.limit
#define sqlite3_malloc64 sq.malloc64
#define sqlite3_open_v2 sq.open_v2
#define sqlite3_prepare_v2 sq.prepare_v2
#define sqlite3_progress_handler sq.progress_handler
#define sqlite3_reset sq.reset
#define sqlite3_step sq.step

/* 1: a table of that name; 2: a view (never read); 0: none; -1: error. */
static int has_table(sqlite3 *db, const char *name) {
  sqlite3_stmt *q;
  int found = 0;
  if (sqlite3_prepare_v2(db, "SELECT type FROM sqlite_master WHERE type IN ('table','view') AND name = ?",
                         -1, &q, NULL) != SQLITE_OK)
    return -1;
  sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
  int r = sqlite3_step(q);
  if (r == SQLITE_ROW) {
    const unsigned char *ty = sqlite3_column_text(q, 0);
    found = ty && strcmp((const char *)ty, "table") == 0 ? 1 : 2;
  } else if (r != SQLITE_DONE) {
    found = -1;
  }
  sqlite3_finalize(q);
  return found;
}

/* SQLite's progress handler: a non-zero return interrupts the statement. */
typedef struct budget {
  int64_t left; /* calls left (one per PROGRESS_OPS VM steps) */
} budget;
#define PROGRESS_OPS 10000
#define NSYS_STEPS_MIN 1e8
#define NSYS_STEPS_PER_BYTE 2000.0
static int progress(void *arg) {
  budget *b = arg;
  return --b->left < 0;
}

/* ---- the launch -> NVTX range match --------------------------------------
 * The op of a kernel is the text of the range on its launching thread with
 * n.start <= launch.start and n.end >= launch.end of the latest start (then
 * the earliest end, then the first read): what
 *   SELECT ... WHERE n.globalTid = r.globalTid AND n.start <= r.start AND
 *   n.end >= r.end ORDER BY n.start DESC, n.end ASC LIMIT 1
 * gives. Ranges come sorted by (thread, start); launches are sorted by
 * (thread, start) and swept: a range joins when its start is reached, in
 * a Fenwick tree over its thread's ends (reversed, so that "end >= b" is a
 * prefix) keeping the best range of each prefix. */
typedef struct nv_range { int64_t tid, start, end; uint32_t text, seq; } nv_range;
typedef struct nv_query { int64_t tid, a, b; } nv_query;

static int better(const nv_range *r, uint32_t x, uint32_t y) {
  if (y == UINT32_MAX) return 1;
  if (r[x].start != r[y].start) return r[x].start > r[y].start;
  if (r[x].end != r[y].end) return r[x].end < r[y].end;
  return x < y;
}

static int cmp_query(const void *ctx, uint32_t a, uint32_t b) {
  const nv_query *q = ctx;
  if (q[a].tid != q[b].tid) return q[a].tid < q[b].tid ? -1 : 1;
  if (q[a].a != q[b].a) return q[a].a < q[b].a ? -1 : 1;
  return a < b ? -1 : a > b;
}

static int cmp_range(const void *a, const void *b) {
  const nv_range *x = a, *y = b;
  if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

/* op[i] for each query (UINT32_MAX: none valid, RLI_NONE: no range). 0:
 * out of memory. */
static int nv_match(const nv_range *r, size_t nr, const nv_query *q, const unsigned char *valid, size_t nq,
                    uint32_t *op) {
  uint32_t *ord = malloc((nq ? nq : 1) * sizeof *ord);
  int64_t *ends = malloc((nr ? nr : 1) * sizeof *ends);
  uint32_t *fw = malloc((nr + 1) * sizeof *fw);
  if (!ord || !ends || !fw) { free(ord); free(ends); free(fw); return 0; }
  size_t m = 0;
  for (size_t i = 0; i < nq; i++) {
    op[i] = RLI_NONE;
    if (valid[i]) ord[m++] = (uint32_t)i;
  }
  if (m && !rli_sort_idx(ord, m, cmp_query, q)) { free(ord); free(ends); free(fw); return 0; }
  size_t ri = 0, qi = 0;
  while (qi < m) {
    int64_t tid = q[ord[qi]].tid;
    while (ri < nr && r[ri].tid < tid) ri++;
    size_t r0 = ri, r1 = ri;
    while (r1 < nr && r[r1].tid == tid) r1++;
    size_t ne = r1 - r0;
    for (size_t k = 0; k < ne; k++) ends[k] = r[r0 + k].end;
    qsort(ends, ne, sizeof *ends, cmp_i64);
    for (size_t k = 0; k <= ne; k++) fw[k] = UINT32_MAX;
    size_t next = r0;
    for (; qi < m && q[ord[qi]].tid == tid; qi++) {
      const nv_query *Q = &q[ord[qi]];
      for (; next < r1 && r[next].start <= Q->a; next++) {
        /* position of its end, reversed: the largest end is 1 */
        size_t lo = 0, hi = ne;
        while (lo < hi) { size_t mid = (lo + hi) / 2; if (ends[mid] < r[next].end) lo = mid + 1; else hi = mid; }
        for (size_t p = ne - lo; p <= ne; p += p & (~p + 1))
          if (better(r, (uint32_t)next, fw[p])) fw[p] = (uint32_t)next;
      }
      /* ends >= b: the first index with ends[i] >= b, reversed */
      size_t lo = 0, hi = ne;
      while (lo < hi) { size_t mid = (lo + hi) / 2; if (ends[mid] < Q->b) lo = mid + 1; else hi = mid; }
      uint32_t best = UINT32_MAX;
      for (size_t p = ne - lo; p > 0; p -= p & (~p + 1))
        if (fw[p] != UINT32_MAX && better(r, fw[p], best)) best = fw[p];
      if (best != UINT32_MAX) op[ord[qi]] = r[best].text;
    }
    ri = r1;
  }
  free(ord);
  free(ends);
  free(fw);
  return 1;
}

static int has_column(sqlite3 *db, const char *table, const char *colname) {
  char sql[160];
  snprintf(sql, sizeof sql, "SELECT 1 FROM pragma_table_info('%s') WHERE name = ?", table);
  sqlite3_stmt *q;
  if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK) return 0;
  sqlite3_bind_text(q, 1, colname, -1, SQLITE_STATIC);
  int found = sqlite3_step(q) == SQLITE_ROW;
  sqlite3_finalize(q);
  return found;
}

static rl_status db_fail(rl_error *err, sqlite3 *db, const char *label, const char *what) {
  return rli_fail(err, RL_EPARSE, "%s: %s: %s", label, what, db ? sqlite3_errmsg(db) : "");
}

/* The NVTX push/pop and start/end ranges with a thread, a start and an
 * end, sorted by (thread, start). */
static rl_status read_ranges(rl_trace *t, sqlite3 *db, const char *label, nv_range **out, size_t *nout,
                             rl_error *err) {
  sqlite3_stmt *q = NULL;
  nv_range *r = NULL;
  size_t n = 0, cap = 0;
  *out = NULL;
  *nout = 0;
  if (sqlite3_prepare_v2(db, "SELECT n.globalTid, n.start, n.end, COALESCE(n.text, ns.value) FROM NVTX_EVENTS n "
                             "LEFT JOIN StringIds ns ON ns.id = n.textId WHERE n.eventType IN (59, 60)",
                         -1, &q, NULL) != SQLITE_OK)
    return db_fail(err, db, label, "unexpected NVTX_EVENTS layout");
  int rc;
  while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
    if (sqlite3_column_type(q, 0) != SQLITE_INTEGER || sqlite3_column_type(q, 1) != SQLITE_INTEGER ||
        sqlite3_column_type(q, 2) != SQLITE_INTEGER)
      continue; /* no thread, start or end: contains nothing */
    const unsigned char *txt = sqlite3_column_text(q, 3);
    if (!rli_grow((void **)&r, sizeof *r, n + 1, &cap) || n >= UINT32_MAX - 1) {
      free(r);
      sqlite3_finalize(q);
      return rli_fail(err, RL_ENOMEM, "%s: out of memory", label);
    }
    uint32_t id = txt ? rli_trace_str(t, (const char *)txt, strlen((const char *)txt)) : RLI_NONE;
    r[n] = (nv_range){sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2), id,
                      (uint32_t)n};
    n++;
  }
  sqlite3_finalize(q);
  if (rc != SQLITE_DONE) {
    free(r);
    return db_fail(err, db, label, "reading NVTX_EVENTS failed");
  }
  if (n) qsort(r, n, sizeof *r, cmp_range);
  *out = r;
  *nout = n;
  return RL_OK;
}

/* The export as a read-only database: the file at path, or the len bytes
 * at mem; each value's length and every statement's VM steps bounded
 * (bud: a budget by the file's size). *dbp is set, also on failure (the
 * caller closes it). */
static rl_status open_db(const char *path, const void *mem, size_t len, const char *label, budget *bud,
                         sqlite3 **dbp, rl_error *err) {
  sqlite3 *db = NULL;
  if (path) {
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
    *dbp = db;
    if (rc != SQLITE_OK) return db_fail(err, db, label, "cannot open as SQLite");
  } else {
    int rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, NULL);
    *dbp = db;
    if (rc != SQLITE_OK) return db_fail(err, db, label, "cannot open SQLite");
    unsigned char *image = sqlite3_malloc64(len);
    if (!image) return rli_fail(err, RL_ENOMEM, "%s: out of memory", label);
    memcpy(image, mem, len);
    /* the database owns image from here, also when this fails */
    if (sqlite3_deserialize(db, "main", image, (sqlite3_int64)len, (sqlite3_int64)len,
                            SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY) != SQLITE_OK)
      return db_fail(err, db, label, "not an SQLite database");
  }
  /* bound the work a corrupt or hostile file can cause: the length of a
   * value, and the VM steps of every statement (NSYS_STEPS_PER_BYTE a byte
   * of the file, at least NSYS_STEPS_MIN: a real export takes a few
   * hundredth of that; a recursive trigger or a cross join does not) */
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 24);
  double size = (double)len;
  struct stat sb;
  if (path && stat(path, &sb) == 0) size = (double)sb.st_size;
  bud->left = (int64_t)((NSYS_STEPS_MIN + NSYS_STEPS_PER_BYTE * size) / PROGRESS_OPS);
  sqlite3_progress_handler(db, PROGRESS_OPS, progress, bud);
  return RL_OK;
}

/* The tables an export must have; which optional ones it has: the runtime
 * API calls (the launches), NVTX ranges with their threads (the ops). */
static rl_status check_tables(sqlite3 *db, const char *label, int *runtime, int *nvtx, rl_error *err) {
  int hk = has_table(db, "CUPTI_ACTIVITY_KIND_KERNEL");
  if (hk < 0) return db_fail(err, db, label, "not a readable SQLite database");
  if (hk == 2)
    return rli_fail(err, RL_EPARSE, "%s: CUPTI_ACTIVITY_KIND_KERNEL is a view, not a table: not read (an "
                    "Nsight Systems export holds tables)", label);
  if (!hk)
    return rli_fail(err, RL_EPARSE, "%s: no CUPTI_ACTIVITY_KIND_KERNEL table: not an Nsight Systems "
                    "export, or the capture recorded no kernels (nsys profile -t cuda)", label);
  if (has_table(db, "StringIds") != 1 || !has_column(db, "CUPTI_ACTIVITY_KIND_KERNEL", "demangledName"))
    return rli_fail(err, RL_EPARSE, "%s: an Nsight Systems export without StringIds or "
                    "demangledName: an export schema older than 2021 is not supported", label);
  *runtime = has_table(db, "CUPTI_ACTIVITY_KIND_RUNTIME") == 1;
  *nvtx = *runtime && has_table(db, "NVTX_EVENTS") == 1 && has_column(db, "NVTX_EVENTS", "textId") &&
          has_column(db, "NVTX_EVENTS", "globalTid");
  return RL_OK;
}

/* The device: the first GPU of TARGET_INFO_GPU, where the export has it. */
static void read_device(rl_trace *t, sqlite3 *db) {
  sqlite3_stmt *q = NULL;
  if (has_table(db, "TARGET_INFO_GPU") != 1 || !has_column(db, "TARGET_INFO_GPU", "computeMajor")) return;
  if (sqlite3_prepare_v2(db, "SELECT name, totalMemory, computeMajor, computeMinor FROM "
                             "TARGET_INFO_GPU ORDER BY id LIMIT 1", -1, &q, NULL) == SQLITE_OK &&
      sqlite3_step(q) == SQLITE_ROW) {
    const unsigned char *nm = sqlite3_column_text(q, 0);
    rli_trace_set_device(t, nm ? (const char *)nm : "", sqlite3_column_double(q, 1), sqlite3_column_int(q, 2),
                         sqlite3_column_int(q, 3));
  }
  sqlite3_finalize(q);
}

/* The ops of the kernels: a first pass over the kernel statement q (the
 * same order as the second) reads the launches, matched to the NVTX ranges
 * by a sweep; *ops_out[i] the op of row i (of *nq_out). q is reset. */
static rl_status launch_ops(rl_trace *t, sqlite3 *db, sqlite3_stmt *q, const char *label, uint32_t **ops_out,
                            size_t *nq_out, rl_error *err) {
  nv_range *ranges = NULL;
  size_t nranges = 0, nq = 0, capq = 0, capv = 0;
  nv_query *qs = NULL;
  unsigned char *qvalid = NULL;
  uint32_t *ops = NULL;
  rl_status st = read_ranges(t, db, label, &ranges, &nranges, err);
  if (st != RL_OK) return st;
  int r0;
  while ((r0 = sqlite3_step(q)) == SQLITE_ROW) {
    if (!rli_grow((void **)&qs, sizeof *qs, nq + 1, &capq) ||
        !rli_grow((void **)&qvalid, sizeof *qvalid, nq + 1, &capv) || nq >= UINT32_MAX - 1) {
      st = rli_fail(err, RL_ENOMEM, "%s: out of memory", label);
      goto out;
    }
    qvalid[nq] = sqlite3_column_type(q, 4) == SQLITE_INTEGER && sqlite3_column_type(q, 5) == SQLITE_INTEGER &&
                 sqlite3_column_type(q, 6) == SQLITE_INTEGER;
    qs[nq] = (nv_query){sqlite3_column_int64(q, 5), sqlite3_column_int64(q, 4), sqlite3_column_int64(q, 6)};
    nq++;
  }
  if (r0 != SQLITE_DONE) {
    st = db_fail(err, db, label, "reading the kernel table failed");
    goto out;
  }
  ops = malloc((nq ? nq : 1) * sizeof *ops);
  if (!ops || !nv_match(ranges, nranges, qs, qvalid, nq, ops)) {
    free(ops);
    ops = NULL;
    st = rli_fail(err, RL_ENOMEM, "%s: out of memory", label);
    goto out;
  }
  sqlite3_reset(q);
  *ops_out = ops;
  *nq_out = nq;
out:
  free(ranges);
  free(qs);
  free(qvalid);
  return st;
}

/* The kernels: the rows of q (by start), each with its op (ops[row], of
 * nq; ops may be NULL), into t. */
static rl_status read_kernels(rl_trace *t, sqlite3 *db, sqlite3_stmt *q, const char *label,
                              const uint32_t *ops, size_t nq, rl_error *err) {
  rl_status st;
  uint32_t no_cost = rli_trace_cost_reason(t, RL_REASON_TIMES_ONLY,
                                          "Nsight Systems records no FLOPs or bytes (profile "
                                          "the kernel with ncu, or use a PyTorch trace with shapes)");
  if (no_cost == RLI_NONE) return rli_fail(err, RL_ENOMEM, "%s: out of memory", label);
  int64_t n = 0, rowno = 0, unlinked = 0;
  sqlite3_int64 origin = 0;
  int r;
  while ((r = sqlite3_step(q)) == SQLITE_ROW) {
    rowno++;
    if (sqlite3_column_type(q, 0) != SQLITE_INTEGER || sqlite3_column_type(q, 1) != SQLITE_INTEGER)
      return rli_fail(err, RL_EPARSE, "%s: CUPTI_ACTIVITY_KIND_KERNEL row %lld: start or end is not "
                      "an integer", label, (long long)rowno);
    sqlite3_int64 s0 = sqlite3_column_int64(q, 0), s1 = sqlite3_column_int64(q, 1);
    if (s1 < s0) { /* said in the summary, left out of every figure */
      rli_trace_drop_backwards(t);
      continue;
    }
    /* differences in unsigned arithmetic: exact for any two int64 in
     * order, also near 2^63 or across 0 (a double holds 2^63 only to 2 us) */
    uint64_t dur = (uint64_t)s1 - (uint64_t)s0;
    if (dur > (uint64_t)1e15)
      return rli_fail(err, RL_EPARSE, "%s: CUPTI_ACTIVITY_KIND_KERNEL row %lld: a duration of %llu ns "
                      "(start %lld, end %lld) is absurd", label, (long long)rowno,
                      (unsigned long long)dur, (long long)s0, (long long)s1);
    if (n == 0) origin = s0; /* rows come by start */
    rli_kernel k;
    memset(&k, 0, sizeof k);
    const unsigned char *nm = sqlite3_column_text(q, 3);
    k.name = rli_trace_str(t, nm ? (const char *)nm : "(unnamed)", nm ? strlen((const char *)nm) : 9);
    k.start_s = (double)((uint64_t)s0 - (uint64_t)origin) * 1e-9;
    k.dur_s = (double)dur * 1e-9;
    k.device = sqlite3_column_int(q, 2);
    k.stream = sqlite3_column_type(q, 7) == SQLITE_INTEGER ? rli_trace_stream(t, sqlite3_column_int64(q, 7)) : 0;
    k.cost = no_cost;
    k.inst = RLI_NONE;
    k.op = RLI_NONE;
    if (sqlite3_column_type(q, 4) == SQLITE_NULL) { unlinked++; k.inst = RLI_UNLINKED; }
    /* rows are the first pass's, in its order (rowno - 1) */
    if (ops && rowno - 1 < (int64_t)nq) k.op = ops[rowno - 1];
    if (k.name == RLI_NONE) return rli_fail(err, RL_ENOMEM, "%s: out of memory", label);
    if ((st = rli_trace_add(t, &k, err)) != RL_OK) return st;
    n++;
  }
  if (r != SQLITE_DONE)
    return db_fail(err, db, label, r == SQLITE_INTERRUPT ? "the queries took more steps than a file of this "
                                                           "size can need (a hostile or corrupt export)"
                                                         : "reading the kernel table failed");
  if (n == 0)
    return rli_fail(err, RL_EPARSE, "%s: the CUPTI_ACTIVITY_KIND_KERNEL table is %s", label,
                    rowno ? "all kernels that end before they start" : "empty");
  rli_trace_set_format(t, "nsys");
  rli_trace_count_events(t, n);
  rli_trace_set_unlinked(t, unlinked);
  return RL_OK;
}

rl_status rli_read_nsys(rl_trace *t, const char *path, const void *mem, size_t len,
                        const char *label, rl_error *err) {
  sqlite3 *db = NULL;
  sqlite3_stmt *q = NULL;
  uint32_t *ops = NULL;
  size_t nq = 0;
  budget bud = {0};
  int runtime = 0, nvtx = 0;
  if (pthread_once(&sq_once, sq_load) != 0 || sq_why[0] || !sq.step)
    return rli_fail(err, RL_EUNSUPPORTED, "%s: reading an Nsight Systems export needs SQLite, which could not "
                    "be loaded (%s): install it (Debian/Ubuntu: libsqlite3-0)", label,
                    sq_why[0] ? sq_why : "pthread_once failed");
  rl_status st = open_db(path, mem, len, label, &bud, &db, err);
  if (st == RL_OK) st = check_tables(db, label, &runtime, &nvtx, err);
  if (st != RL_OK) goto out;
  read_device(t, db);
  char sql[1200];
  snprintf(sql, sizeof sql,
           "SELECT k.start, k.end, k.deviceId, s.value, %s, %s, %s FROM CUPTI_ACTIVITY_KIND_KERNEL k "
           "LEFT JOIN StringIds s ON s.id = k.demangledName %s ORDER BY k.start",
           runtime ? "r.start" : "NULL", nvtx ? "r.globalTid, r.end" : "NULL, NULL",
           has_column(db, "CUPTI_ACTIVITY_KIND_KERNEL", "streamId") ? "k.streamId" : "NULL",
           runtime ? "LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId" : "");
  if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK) {
    st = db_fail(err, db, label, "unexpected kernel table layout");
    goto out;
  }
  if (nvtx && (st = launch_ops(t, db, q, label, &ops, &nq, err)) != RL_OK) goto out;
  st = read_kernels(t, db, q, label, ops, nq, err);
out:
  free(ops);
  if (q) sqlite3_finalize(q);
  if (db) sqlite3_close(db);
  return st;
}
