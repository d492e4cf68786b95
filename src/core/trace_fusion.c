/*
 * trace_fusion.c -- the fusion candidates: runs of small consecutive
 * kernels of one nn.Module, op or kernel name, and what fusing each would
 * save at most (rli_trace_find_fusions, rl_trace_fusions).
 */
#include "core/trace_impl.h"

#include <stdlib.h>
#include <string.h>

/* ---- fusion candidates ---------------------------------------------------
 * A kernel is small when it is overhead-bound (its bound time is below the
 * overhead cut, the launch overhead) or shorter than the cut. Runs of two or more consecutive small
 * kernels of one nn.Module (the innermost around their ops, where the trace
 * records modules: with_stack=True), else of one op, else of one kernel
 * name, in start order per device
 * (ncu: launch order), could be one kernel or one CUDA graph replay; what
 * that saves is at most their time minus the one floor that remains (runs
 * that take less than one floor save nothing and are left out).
 * Runs are summed per module (op, name) and ranked by that saving. */
static int cmp_fusion(const void *pa, const void *pb) {
  const rl_trace_fusion *a = pa, *b = pb;
  if (a->saving_s != b->saving_s) return a->saving_s < b->saving_s ? 1 : -1;
  if (a->kernels != b->kernels) return a->kernels < b->kernels ? 1 : -1;
  return strcmp(a->name, b->name);
}

typedef struct frun {
  uint32_t key;
  int32_t by_op;
  int64_t n;
  double time;
} frun;

static int fusion_add(rl_trace *t, tmap *m, size_t *cap, const frun *r, double floor_s) {
  if (r->n < 2 || !(r->time > floor_s)) return 1; /* a run below one floor saves nothing */
  if (((size_t)t->nfusion + 1) * 2 > m->cap) {
    size_t nc = m->cap ? m->cap * 2 : 64;
    uint32_t *sl = malloc(sizeof *sl * nc);
    if (!sl) return 0;
    memset(sl, 0xff, sizeof *sl * nc);
    for (int32_t i = 0; i < t->nfusion; i++) {
      size_t h = (size_t)key3((uint32_t)(uintptr_t)t->fusion[i].name,
                              (uint32_t)t->fusion[i].by_op, 0) & (nc - 1);
      while (sl[h] != RLI_NONE) h = (h + 1) & (nc - 1);
      sl[h] = (uint32_t)i;
    }
    free(m->slot);
    m->slot = sl;
    m->cap = nc;
  }
  size_t h = (size_t)key3(r->key, (uint32_t)r->by_op, 0) & (m->cap - 1);
  while (m->slot[h] != RLI_NONE) {
    rl_trace_fusion *f = &t->fusion[m->slot[h]];
    if ((uint32_t)(uintptr_t)f->name == r->key && f->by_op == r->by_op) break;
    h = (h + 1) & (m->cap - 1);
  }
  rl_trace_fusion *f;
  if (m->slot[h] == RLI_NONE) {
    if (!rli_grow((void **)&t->fusion, sizeof *t->fusion, (size_t)t->nfusion + 1, cap)) return 0;
    m->slot[h] = (uint32_t)t->nfusion;
    f = &t->fusion[t->nfusion++];
    memset(f, 0, sizeof *f);
    f->name = (const char *)(uintptr_t)r->key; /* an id until the end */
    f->by_op = r->by_op;
  } else {
    f = &t->fusion[m->slot[h]];
  }
  f->runs++;
  f->kernels += r->n;
  f->time_s += r->time;
  f->saving_s += r->time - floor_s;
  return 1;
}

/* (on the decoded kernels: rli_kwide) */
static int cmp_korder_idx(const void *ctx, uint32_t a, uint32_t b) {
  const rl_trace *t = ctx;
  const kst *x = &t->kw[a], *y = &t->kw[b];
  int32_t xd = (int32_t)(uint32_t)(t->dsk.key[x->dsk] >> 32), yd = (int32_t)(uint32_t)(t->dsk.key[y->dsk] >> 32);
  if (xd != yd) return xd < yd ? -1 : 1;
  if (x->start_s != y->start_s) return x->start_s < y->start_s ? -1 : 1;
  return (a > b) - (a < b);
}

/* The fusion runs: the kernels in the order of (device, start, index);
 * devs: the sorted distinct devices of the timed kernels (ndevs, or 0
 * when not counted so). Without a copy of the timeline when each device's
 * kernels come by start (one pass per device), else through an index. */
rl_status rli_trace_find_fusions(rl_trace *t, const int8_t *regime, uint32_t nregime,
                                 double cut_s, double floor_s, const int32_t *devs, size_t ndevs,
                                 double *total,
                                 rl_error *err) {
  tmap m = {NULL, 0};
  size_t cap = 0;
  uint32_t *o = NULL;
  size_t n = 0;
  double last_s[16];
  int seen[16] = {0};
  int in_order = ndevs >= 1 && ndevs <= 16;
  for (size_t i = 0, d = 0; in_order && i < t->nk; i++) {
    rli_kernel kk, *k = &kk;
    if (kat(t, i)->dur_s < 0) continue;
    kget(t, i, k);
    if (devs[d] != k->device)
      for (d = 0; d < ndevs && devs[d] != k->device; d++) {}
    if (seen[d] && k->start_s < last_s[d]) in_order = 0;
    seen[d] = 1;
    last_s[d] = k->start_s;
  }
  if (!in_order) {
    o = rli_kwide(t) ? malloc(sizeof *o * (t->nk ? t->nk : 1)) : NULL;
    if (!o) return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
    n = 0;
    for (size_t i = 0; i < t->nk; i++)
      if (t->kw[i].dur_s >= 0) o[n++] = (uint32_t)i;
    if (!rli_sort_idx(o, n, cmp_korder_idx, t)) {
      free(o);
      return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
    }
  }
  frun cur = {RLI_NONE, 0, 0, 0};
  int ok = 1;
  int32_t prev_dev = 0;
  size_t j = 0; /* kernels taken in order */
  for (size_t d = 0; d < (o ? 1 : ndevs) && ok; d++)
    for (size_t x = 0; x < (o ? n : t->nk) && ok; x++) {
      rli_kernel kk, *k = &kk;
      if (kat(t, o ? o[x] : x)->dur_s < 0) continue;
      kget(t, o ? o[x] : x, k);
      if (!o && k->device != devs[d]) continue;
      int has_inst = k->inst != RLI_NONE && k->inst < t->ninst;
      uint32_t rc = has_inst ? t->inst[k->inst].cost : k->cost;
      /* kernels only: copies and collectives are not fused into kernels */
      int small = k->kind == RLI_K_KERNEL && (rc >= t->ncost || t->cost[rc].roof != RLI_ROOF_NET) &&
                  (k->dur_s < cut_s || (rc < nregime && regime[rc] == RL_BOUND_OVERHEAD));
      uint32_t mod = has_inst ? t->inst[k->inst].module : RLI_NONE;
      uint32_t key = mod != RLI_NONE ? mod : k->op != RLI_NONE ? k->op : k->name;
      int32_t by_op = mod != RLI_NONE ? 2 : k->op != RLI_NONE;
      int same_dev = j > 0 && prev_dev == k->device;
      prev_dev = k->device;
      j++;
      if (small && same_dev && cur.n && cur.key == key && cur.by_op == by_op) {
        cur.n++;
        cur.time += k->dur_s;
        continue;
      }
      ok = fusion_add(t, &m, &cap, &cur, floor_s);
      cur.n = 0;
      if (small && key != RLI_NONE) {
        cur.key = key;
        cur.by_op = by_op;
        cur.n = 1;
        cur.time = k->dur_s;
      }
    }
  if (ok) ok = fusion_add(t, &m, &cap, &cur, floor_s);
  free(o);
  free(m.slot);
  if (!ok) return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
  *total = 0;
  for (int32_t i = 0; i < t->nfusion; i++) {
    t->fusion[i].name = t->str[(uint32_t)(uintptr_t)t->fusion[i].name];
    *total += t->fusion[i].saving_s;
  }
  if (t->nfusion > 1) qsort(t->fusion, (size_t)t->nfusion, sizeof *t->fusion, cmp_fusion);
  return RL_OK;
}

const rl_trace_fusion *rl_trace_fusions(const rl_trace *t, int32_t *n) {
  if (n) *n = t ? t->nfusion : 0;
  return t ? t->fusion : NULL;
}
