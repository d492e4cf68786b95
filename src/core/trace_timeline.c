/*
 * trace_timeline.c -- the timeline's repairs before an analysis:
 * duplicates dropped, overlaps on one stream counted (rli_trace_tidy_timeline).
 */
#include "core/trace_impl.h"

#include <math.h>
#include <stdlib.h>

/* ---- the timeline's repairs -------------------------------------------------
 * A profiler may write an event twice (the same kernel on the same stream
 * with the same start and duration), and a clock problem can make two
 * kernels of one stream overlap, which a stream cannot do (it runs its
 * kernels one after another: CUDA C++ Programming Guide, "Streams"). A
 * duplicate is dropped from every figure (once: it leaves the model); an
 * overlap is counted and merged (the busy time is a union). */
typedef struct kref {
  double s, e;
  uint32_t name, i, inst;
  int32_t dev;
  uint16_t stream;
  int16_t kind;
} kref;

static int cmp_kref(const void *pa, const void *pb) {
  const kref *a = pa, *b = pb;
  if (a->dev != b->dev) return a->dev < b->dev ? -1 : 1;
  if (a->stream != b->stream) return a->stream < b->stream ? -1 : 1;
  if (a->s != b->s) return a->s < b->s ? -1 : 1;
  if (a->e != b->e) return a->e < b->e ? -1 : 1;
  if (a->name != b->name) return a->name < b->name ? -1 : 1;
  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}

/* One kernel of the timeline, in the order of cmp_kref; prev: the one
 * before it in that order when on the same device and stream, else NULL.
 * Returns 1 when it is a duplicate (to drop). */
typedef struct tidy_st {
  double end;
  int64_t *overlaps;
  double *overlap_s;
} tidy_st;

static int tidy_one(rl_trace *t, tidy_st *st, const kref *r, const kref *prev) {
  int same = prev != NULL;
  if (same && r->s == prev->s && r->e == prev->e && r->name == prev->name &&
      r->kind == prev->kind && t->nlaunch == 0) {
    if (r->inst == RLI_UNLINKED && t->unlinked > 0) t->unlinked--;
    t->dups++;
    t->dup_s += r->e - r->s;
    return 1;
  }
  /* more than 1 ns into the previous kernels of its stream (the files'
   * resolution: Kineto's ts has 3 decimals of a microsecond) */
  if (same && r->stream != 0 && !t->cpu && st->end - r->s > 1e-9) { /* a CPU op starts before its callee ends: its self time is no interval */
    (*st->overlaps)++;
    *st->overlap_s += fmin(r->e, st->end) - r->s;
  }
  st->end = same ? fmax(st->end, r->e) : r->e;
  return 0;
}

static void kref_from(const rl_trace *t, const kst *o, size_t i, kref *r) {
  rli_kernel k;
  kdec(t, o, &k);
  r->s = k.start_s;
  r->e = k.start_s + k.dur_s;
  r->name = k.name;
  r->i = (uint32_t)i;
  r->inst = k.inst;
  r->dev = k.device;
  r->stream = k.stream;
  r->kind = k.kind;
}

static void kref_of(rl_trace *t, size_t i, kref *r) { kref_from(t, kat(t, i), i, r); }

/* (on the decoded kernels: rli_kwide) */
static int cmp_kref_idx(const void *ctx, uint32_t a, uint32_t b) {
  const rl_trace *t = ctx;
  kref x, y;
  kref_from(t, &t->kw[a], a, &x);
  kref_from(t, &t->kw[b], b, &y);
  return cmp_kref(&x, &y);
}

/* The (device, stream) pairs of the timed kernels, sorted, when there are
 * at most RLI_TIDY_PAIRS of them and each one's kernels come in the order
 * of cmp_kref already (then that order needs no sort and no copy of the
 * timeline); 0 otherwise. */
#define RLI_TIDY_PAIRS 16
static size_t tidy_pairs(rl_trace *t, kref *last) {
  size_t np = 0, cur = 0;
  for (size_t i = 0; i < t->nk; i++) {
    if (kat(t, i)->dur_s < 0) continue;
    kref r;
    kref_of(t, i, &r);
    if (!np || last[cur].dev != r.dev || last[cur].stream != r.stream) {
      for (cur = 0; cur < np; cur++)
        if (last[cur].dev == r.dev && last[cur].stream == r.stream) break;
      if (cur == np) {
        if (np == RLI_TIDY_PAIRS) return 0;
        last[np++] = r;
        continue;
      }
    }
    if (cmp_kref(&last[cur], &r) > 0) return 0;
    last[cur] = r;
  }
  qsort(last, np, sizeof *last, cmp_kref);
  return np;
}

rl_status rli_trace_tidy_timeline(rl_trace *t, int64_t *overlaps, double *overlap_s, rl_error *err) {
  *overlaps = 0;
  *overlap_s = 0;
  if (t->no_timeline || t->nk == 0 || t->nk >= RLI_NONE) return RL_OK;
  tidy_st st = {0, overlaps, overlap_s};
  uint8_t *drop = NULL;
  kref pairs[RLI_TIDY_PAIRS];
  size_t np = tidy_pairs(t, pairs);
  if (np) {
    /* in order already: one pass per (device, stream) */
    for (size_t p = 0; p < np; p++) {
      kref prev, r;
      int have = 0;
      for (size_t i = 0; i < t->nk; i++) {
        if (kat(t, i)->dur_s < 0) continue;
        kref_of(t, i, &r);
        if (r.dev != pairs[p].dev || r.stream != pairs[p].stream) continue;
        if (tidy_one(t, &st, &r, have ? &prev : NULL)) {
          if (!drop && !(drop = calloc(t->nk, 1)))
            return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
          drop[i] = 1;
        }
        prev = r;
        have = 1;
      }
    }
  } else {
    /* sorted through an index, on the kernels decoded */
    uint32_t *v = rli_kwide(t) ? malloc(sizeof *v * t->nk) : NULL;
    if (!v) return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
    size_t n = 0;
    for (size_t i = 0; i < t->nk; i++)
      if (t->kw[i].dur_s >= 0) v[n++] = (uint32_t)i;
    if (!rli_sort_idx(v, n, cmp_kref_idx, t)) {
      free(v);
      return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
    }
    kref prev, r;
    for (size_t j = 0; j < n; j++) {
      kref_of(t, v[j], &r);
      int same = j > 0 && r.dev == prev.dev && r.stream == prev.stream;
      if (tidy_one(t, &st, &r, same ? &prev : NULL)) {
        if (!drop && !(drop = calloc(t->nk, 1))) {
          free(v);
          return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
        }
        drop[r.i] = 1;
      }
      prev = r;
    }
    free(v);
  }
  if (drop) {
    int ok = rli_krebuild(t, drop);
    free(drop);
    if (!ok) return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
  }
  return RL_OK;
}
