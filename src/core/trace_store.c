/*
 * trace_store.c -- the kernel store: the trace's kernels in blocks of
 * KB_N, each block packed (trace_pack.c, which describes the encoding),
 * read and changed through a cache of one decoded block (kat, in
 * trace_impl.h); the (name, op) and (device, stream, kind) pairs as ids
 * (kpair); appending, rebuilding without dropped kernels, every kernel
 * decoded at once for the analysis' sorts (rli_kwide); stream ids and the
 * ncu launches beside the kernels.
 */
#include "core/trace_impl.h"

#include <stdlib.h>
#include <string.h>

static uint32_t kpair_id(kpair *p, uint64_t key) {
  if (p->n && p->last == key) return p->lastid;
  if ((p->n + 1) * 2 > p->mapcap) {
    size_t nc = p->mapcap ? p->mapcap * 2 : 64;
    uint32_t *m = malloc(sizeof *m * nc);
    if (!m) return RLI_NONE;
    memset(m, 0xff, sizeof *m * nc);
    for (size_t i = 0; i < p->n; i++) {
      size_t h = (size_t)rli_hash(&p->key[i], sizeof p->key[i]) & (nc - 1);
      while (m[h] != RLI_NONE) h = (h + 1) & (nc - 1);
      m[h] = (uint32_t)i;
    }
    free(p->map);
    p->map = m;
    p->mapcap = nc;
  }
  size_t h = (size_t)rli_hash(&key, sizeof key) & (p->mapcap - 1);
  while (p->map[h] != RLI_NONE && p->key[p->map[h]] != key) h = (h + 1) & (p->mapcap - 1);
  if (p->map[h] == RLI_NONE) {
    if (p->n >= RLI_NONE - 1 || !rli_grow((void **)&p->key, sizeof *p->key, p->n + 1, &p->cap))
      return RLI_NONE;
    p->key[p->n] = key;
    p->map[h] = (uint32_t)p->n++;
  }
  p->last = key;
  p->lastid = p->map[h];
  return p->lastid;
}

static int kst_set(rl_trace *t, kst *o, const rli_kernel *k) {
  o->start_s = k->start_s;
  o->dur_s = k->dur_s;
  o->cost = k->cost;
  o->inst = k->inst;
  o->no = kpair_id(&t->nop, (uint64_t)k->name << 32 | k->op);
  o->dsk = kpair_id(&t->dsk, (uint64_t)(uint32_t)k->device << 32 | (uint32_t)k->stream << 16 |
                                 (uint16_t)k->kind);
  return o->no != RLI_NONE && o->dsk != RLI_NONE;
}

static size_t kblock_n(const rl_trace *t, size_t b) {
  size_t n = t->nk - (b << KB_SHIFT);
  return n < KB_N ? n : KB_N;
}

static void kblock_decode(const rl_trace *t, size_t b, kst *out) {
  kenc e;
  rli_kenc_reset(&e);
  const uint8_t *p = t->kb[b].data;
  for (size_t i = 0, n = kblock_n(t, b); i < n; i++) p = rli_kdec_one(&e, t->kb[b].origin, p, &out[i]);
}

/* Block b encoded again from n kernels (the cache); the append state
 * follows when it is the last block. 0: out of memory (b unchanged). */
static int kblock_encode(rl_trace *t, size_t b, const kst *k, size_t n) {
  kenc e;
  rli_kenc_reset(&e);
  uint8_t *p = t->kscratch;
  for (size_t i = 0; i < n; i++) p = rli_kenc_one(&e, t->kb[b].origin, &k[i], p);
  size_t len = (size_t)(p - t->kscratch);
  kblock *blk = &t->kb[b];
  if (len > blk->cap || (b + 1 < t->nkb && len < blk->cap)) {
    /* a full block is kept at its size; the last may still grow */
    size_t cap = b + 1 < t->nkb ? len : len + KENC_MAX * 4;
    uint8_t *d = realloc(blk->data, cap ? cap : 1);
    if (!d) return 0;
    blk->data = d;
    blk->cap = (uint32_t)cap;
  }
  memcpy(blk->data, t->kscratch, len);
  blk->len = (uint32_t)len;
  if (b + 1 == t->nkb) t->kenc = e;
  return 1;
}

static int kflush(rl_trace *t) {
  if (!t->kdirty) return 1;
  t->kdirty = 0;
  if (kblock_encode(t, t->kcb, t->kc, kblock_n(t, t->kcb))) return 1;
  t->kfail = 1; /* the change is lost: the run ends with out of memory */
  return 0;
}

kst *rli_kat_load(rl_trace *t, size_t i) {
  if (t->kw) return &t->kw[i];
  size_t b = i >> KB_SHIFT;
  kflush(t);
  kblock_decode(t, b, t->kc);
  t->kcb = b;
  return &t->kc[i & (KB_N - 1)];
}

/* Append one kernel. */
static int kappend(rl_trace *t, const kst *k) {
  if (!t->kc) {
    t->kc = malloc(sizeof *t->kc * KB_N);
    t->kscratch = malloc(KENC_MAX * KB_N);
    if (!t->kc || !t->kscratch) return 0;
  }
  if ((t->nk & (KB_N - 1)) == 0) {
    if (t->nkb && t->kcb == t->nkb - 1 && !kflush(t)) return 0;
    if (!rli_grow((void **)&t->kb, sizeof *t->kb, t->nkb + 1, &t->capkb)) return 0;
    kblock *nb = &t->kb[t->nkb];
    nb->data = malloc(KENC_MAX * 4);
    if (!nb->data) return 0;
    nb->len = 0;
    nb->cap = KENC_MAX * 4;
    nb->origin = t->torigin;
    if (t->nkb) { /* the block before is full: keep it at its size */
      kblock *pb = &t->kb[t->nkb - 1];
      uint8_t *d = realloc(pb->data, pb->len ? pb->len : 1);
      if (d) { pb->data = d; pb->cap = pb->len; }
    }
    t->nkb++;
    rli_kenc_reset(&t->kenc);
  }
  size_t b = t->nkb - 1;
  if (t->kcb == b) { /* the cache holds the last block: it is about to change */
    if (!kflush(t)) return 0;
    t->kcb = SIZE_MAX;
  }
  kblock *blk = &t->kb[b];
  if (blk->len + KENC_MAX > blk->cap) {
    size_t cap = (size_t)blk->cap * 2;
    uint8_t *d = realloc(blk->data, cap);
    if (!d) return 0;
    blk->data = d;
    blk->cap = (uint32_t)cap;
  }
  uint8_t *e = rli_kenc_one(&t->kenc, blk->origin, k, blk->data + blk->len);
  blk->len = (uint32_t)(e - blk->data);
  t->nk++;
  if (k->dur_s >= 0) t->ntimed++;
  return 1;
}

/* The kernel store anew from the kernels not dropped (drop[i]), block by
 * block (each old block freed once read). */
int rli_krebuild(rl_trace *t, const uint8_t *drop) {
  kflush(t);
  kblock *old = t->kb;
  size_t nold = t->nkb, nk = t->nk;
  kst *buf = malloc(sizeof *buf * KB_N);
  if (!buf) return 0;
  t->kb = NULL;
  t->nkb = t->capkb = 0;
  t->nk = 0;
  t->ntimed = 0;
  t->kcb = SIZE_MAX;
  kst *w = t->kw;
  t->kw = NULL;
  double origin = t->torigin;
  int ok = 1;
  for (size_t b = 0; b < nold; b++) {
    size_t n = nk - (b << KB_SHIFT) < KB_N ? nk - (b << KB_SHIFT) : KB_N;
    const kst *src = w ? w + (b << KB_SHIFT) : buf;
    if (!w) {
      kenc e;
      rli_kenc_reset(&e);
      const uint8_t *p = old[b].data;
      for (size_t i = 0; i < n; i++) p = rli_kdec_one(&e, old[b].origin, p, &buf[i]);
    }
    for (size_t i = 0; i < n && ok; i++) {
      if (drop[(b << KB_SHIFT) + i]) continue;
      /* a new block takes the codec's origin of its first kernel (one
       * that came under another origin may then be kept wide) */
      t->torigin = old[b].origin;
      ok = kappend(t, &src[i]);
    }
    free(old[b].data);
  }
  free(old);
  free(buf);
  t->torigin = origin;
  if (w) {
    /* the fallback copy follows the store */
    size_t j = 0;
    for (size_t i = 0; i < nk; i++)
      if (!drop[i]) w[j++] = w[i];
    t->kw = w;
  }
  return ok;
}

/* Every kernel decoded, for the analysis' sorted-index fallbacks; 0: out
 * of memory. */
int rli_kwide(rl_trace *t) {
  if (t->kw) return 1;
  kflush(t);
  kst *w = malloc(sizeof *w * (t->nk ? t->nk : 1));
  if (!w) return 0;
  for (size_t b = 0; b < t->nkb; b++) kblock_decode(t, b, w + (b << KB_SHIFT));
  t->kw = w;
  return 1;
}

void rli_trace_time_origin(rl_trace *t, double origin_us) { t->torigin = origin_us; }

rl_status rli_trace_add(rl_trace *t, const rli_kernel *k, rl_error *err) {
  kst o;
  kwide_free(t);
  rli_kernel z;
  if (k->dur_s >= 0 && k->dur_s < rl_range_get(RL_QTY_TIME)->min) {
    /* a duration under 1 ps (0: a timer's rounding, 1e-300 s) times nothing:
     * the kernel is kept (its launch, its F and Q, an ncu launch's metrics)
     * with no time, and counted (rl_trace_summary.zero_duration) */
    z = *k;
    z.dur_s = -1;
    k = &z;
    t->zero_dur++;
  }
  if (!kst_set(t, &o, k) || !kappend(t, &o))
    return rli_fail(err, RL_ENOMEM, "out of memory after %zu kernels", t->nk);
  return RL_OK;
}

rl_status rli_trace_add_launch(rl_trace *t, const rli_ncu_launch *m, rl_error *err) {
  if (t->nk == 0) return rli_fail(err, RL_EINVAL, "no kernel for the launch's metrics");
  if (!rli_grow((void **)&t->launch, sizeof *t->launch, t->nk, &t->caplaunch))
    return rli_fail(err, RL_ENOMEM, "out of memory after %zu kernels", t->nk);
  for (size_t i = t->nlaunch; i + 1 < t->nk; i++) { /* none should be missing */
    memset(&t->launch[i], 0, sizeof t->launch[i]);
    t->launch[i].id = -1;
  }
  t->launch[t->nk - 1] = *m;
  t->nlaunch = t->nk;
  return RL_OK;
}

uint16_t rli_trace_stream(rl_trace *t, int64_t raw) {
  if (raw < 0) return 0;
  if ((t->nstreams + 1) * 2 > t->stcap) {
    if (t->nstreams >= 65535) {
      /* past 65535 streams: look it up only */
      if (!t->stcap) return 0;
    } else {
      uint32_t nc = t->stcap ? t->stcap * 2 : 64;
      uint32_t *m = malloc(sizeof *m * nc);
      if (!m) return 0;
      memset(m, 0xff, sizeof *m * nc);
      for (uint32_t i = 0; i < t->nstreams; i++) {
        uint32_t h = (uint32_t)rli_hash(&t->streams[i], sizeof t->streams[i]) & (nc - 1);
        while (m[h] != RLI_NONE) h = (h + 1) & (nc - 1);
        m[h] = i;
      }
      free(t->stmap);
      t->stmap = m;
      t->stcap = nc;
    }
  }
  uint32_t h = (uint32_t)rli_hash(&raw, sizeof raw) & (t->stcap - 1);
  while (t->stmap[h] != RLI_NONE) {
    if (t->streams[t->stmap[h]] == raw) return (uint16_t)(t->stmap[h] + 1);
    h = (h + 1) & (t->stcap - 1);
  }
  if (t->nstreams >= 65535 || (t->nstreams + 1) * 2 > t->stcap) return 0;
  size_t cap = t->capstreams;
  if (!rli_grow((void **)&t->streams, sizeof *t->streams, (size_t)t->nstreams + 1, &cap)) return 0;
  t->capstreams = (uint32_t)cap;
  t->streams[t->nstreams] = raw;
  t->stmap[h] = t->nstreams;
  return (uint16_t)++t->nstreams;
}

void rli_trace_drop_backwards(rl_trace *t) { t->backwards++; }

int rli_trace_kernel_get(rl_trace *t, size_t i, rli_kernel *k) {
  if (i >= t->nk) return 0;
  kget(t, i, k);
  return 1;
}

rl_status rli_trace_kernel_set(rl_trace *t, size_t i, const rli_kernel *k, rl_error *err) {
  if (i >= t->nk) return rli_fail(err, RL_EINVAL, "no kernel %zu", i);
  kst o;
  if (t->kfail || !kst_set(t, &o, k))
    return rli_fail(err, RL_ENOMEM, "out of memory after %zu kernels", t->nk);
  kwide_free(t);
  kst *p = kat(t, i);
  if (t->kfail) return rli_fail(err, RL_ENOMEM, "out of memory after %zu kernels", t->nk);
  if (p->dur_s >= 0) t->ntimed--;
  if (o.dur_s >= 0) t->ntimed++;
  *p = o;
  t->kdirty = 1;
  return RL_OK;
}
size_t rli_trace_nkernels(const rl_trace *t) { return t->nk; }
