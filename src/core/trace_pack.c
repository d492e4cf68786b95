/*
 * trace_pack.c -- the packed encoding of one kernel in a block of the
 * kernel store (trace_store.c): a tag byte, then what differs from the
 * kernel before it, as varints, and its times as integer codes where they
 * give the doubles back exactly.
 */
#include "core/trace_impl.h"

#include <math.h>
#include <string.h>

/* The kernels are kept in blocks of KB_N consecutive ones, each block a
 * string of bytes: per kernel a tag byte, then only what differs from the
 * kernel before it in the block, as LEB128 varints (zigzag for signed
 * differences): the (name, op) and (device, stream, kind) pair ids and the
 * cost, each when it changed, the op instance (the tag says "the same" or
 * "one more", else the difference), then the times as integer codes N, D
 * when the doubles are exactly what a reader computes from such integers:
 *   codec 0 (Kineto, ts and dur in us with 3 decimals; origin the reader's,
 *           one per block): start = (N / 1000 - origin) x 1e-6,
 *           dur = (D / 1000) x 1e-6;
 *   codec 1 (nsys, integer ns): start = N x 1e-9, dur = D x 1e-9;
 * N as the difference from the kernel before, D likewise or "the same
 * duration" in the tag. Any other time (fractional ns, out of range, NaN)
 * is kept as its two doubles (16 bytes). Every code is decoded before it
 * is kept and compared bit for bit with the double it stands for, so each
 * kernel comes back exactly as it was added. On one stream the kernels of
 * a trace come nearly in order, so N takes 2 or 3 bytes: 4 to 6 bytes a
 * kernel where the record was 32. Kernels are read through a cache of one
 * decoded block (kat); a block changed there (rli_trace_kernel_set, at
 * linking) is encoded again when the cache moves on. */
enum {
  KT_CODEC0 = 0, KT_CODEC1 = 1, KT_WIDE = 2, KT_TMASK = 3,
  KT_DSAME = 1 << 2, KT_NO = 1 << 3, KT_DSK = 1 << 4, KT_COST = 1 << 5,
  KT_INST_NEXT = 1 << 6, KT_INST_DIFF = 2 << 6, KT_IMASK = 3 << 6
};

void rli_kenc_reset(kenc *e) {
  e->n = e->d = 0;
  e->no = e->dsk = 0;
  e->cost = e->inst = RLI_NONE;
  e->dur = 0;
  e->codec = -1;
}

static uint64_t zz32(uint32_t d) { return (uint64_t)(uint32_t)(d << 1 ^ ((d >> 31) ? UINT32_MAX : 0)); }
static uint32_t unzz32(uint64_t u) { return (uint32_t)(u >> 1) ^ (0 - (uint32_t)(u & 1)); }

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* the doubles the readers compute from the codes */
static double kt_start(int codec, int64_t n, double origin) {
  return codec == KT_CODEC0 ? ((double)n / 1000.0 - origin) * 1e-6 : (double)n * 1e-9;
}
static double kt_dur(int codec, int64_t d) {
  return codec == KT_CODEC0 ? ((double)d / 1000.0) * 1e-6 : (double)d * 1e-9;
}

/* The code of x (the start when start, else a duration) under codec, or 0
 * when no integer gives x back exactly. */
static int kt_code(int codec, int start, double x, double origin, int64_t *code) {
  double g;
  if (codec == KT_CODEC0) {
    if (start && !isfinite(origin)) return 0;
    g = start ? (x * 1e6 + origin) * 1000.0 : x * 1e9;
  } else {
    g = x * 1e9;
  }
  if (!(g > -9e18 && g < 9e18)) return 0;
  int64_t c = (int64_t)(g < 0 ? g - 0.5 : g + 0.5);
  for (int k = 0; k < 3; k++) {
    int64_t t = k == 0 ? c : k == 1 ? c - 1 : c + 1;
    if (same_bits(start ? kt_start(codec, t, origin) : kt_dur(codec, t), x)) {
      *code = t;
      return 1;
    }
  }
  return 0;
}

/* Encode k after the state e (the kernel before it in its block) into p;
 * returns the end. */
uint8_t *rli_kenc_one(kenc *e, double origin, const kst *k, uint8_t *p) {
  uint8_t *tag = p++;
  unsigned t = 0;
  int64_t n = 0, d = 0;
  int codec = KT_WIDE;
  for (int c = KT_CODEC0; c <= KT_CODEC1 && codec == KT_WIDE; c++) {
    if (!kt_code(c, 1, k->start_s, origin, &n)) continue;
    if (c == e->codec && same_bits(k->dur_s, e->dur)) d = e->d; /* most often */
    else if (!kt_code(c, 0, k->dur_s, origin, &d)) continue;
    codec = c;
  }
  t |= (unsigned)codec;
  if (k->no != e->no) { t |= KT_NO; p = rli_varint_put(p, zz32(k->no - e->no)); }
  if (k->dsk != e->dsk) { t |= KT_DSK; p = rli_varint_put(p, zz32(k->dsk - e->dsk)); }
  if (k->cost != e->cost) { t |= KT_COST; p = rli_varint_put(p, zz32(k->cost - e->cost)); }
  if (k->inst == e->inst + 1) t |= KT_INST_NEXT;
  else if (k->inst != e->inst) { t |= KT_INST_DIFF; p = rli_varint_put(p, zz32(k->inst - e->inst)); }
  if (codec == KT_WIDE) {
    memcpy(p, &k->start_s, 8);
    memcpy(p + 8, &k->dur_s, 8);
    p += 16;
  } else {
    p = rli_varint_put(p, rli_zigzag((uint64_t)n - (uint64_t)e->n));
    if (d == e->d) t |= KT_DSAME;
    else p = rli_varint_put(p, rli_zigzag((uint64_t)d - (uint64_t)e->d));
    e->n = n;
    e->d = d;
    e->dur = k->dur_s;
    e->codec = codec;
  }
  e->no = k->no;
  e->dsk = k->dsk;
  e->cost = k->cost;
  e->inst = k->inst;
  *tag = (uint8_t)t;
  return p;
}

const uint8_t *rli_kdec_one(kenc *e, double origin, const uint8_t *p, kst *k) {
  unsigned t = *p++;
  uint64_t u;
  if (t & KT_NO) { p = rli_varint_get(p, &u); e->no += unzz32(u); }
  if (t & KT_DSK) { p = rli_varint_get(p, &u); e->dsk += unzz32(u); }
  if (t & KT_COST) { p = rli_varint_get(p, &u); e->cost += unzz32(u); }
  if ((t & KT_IMASK) == KT_INST_NEXT) e->inst++;
  else if ((t & KT_IMASK) == KT_INST_DIFF) { p = rli_varint_get(p, &u); e->inst += unzz32(u); }
  int codec = (int)(t & KT_TMASK);
  if (codec == KT_WIDE) {
    memcpy(&k->start_s, p, 8);
    memcpy(&k->dur_s, p + 8, 8);
    p += 16;
  } else {
    p = rli_varint_get(p, &u);
    e->n = (int64_t)((uint64_t)e->n + rli_unzigzag(u));
    if (!(t & KT_DSAME)) {
      p = rli_varint_get(p, &u);
      e->d = (int64_t)((uint64_t)e->d + rli_unzigzag(u));
      e->codec = -1;
    }
    if (codec != e->codec) { /* else the same duration as the kernel before */
      e->dur = kt_dur(codec, e->d);
      e->codec = codec;
    }
    k->start_s = kt_start(codec, e->n, origin);
    k->dur_s = e->dur;
  }
  k->no = e->no;
  k->dsk = e->dsk;
  k->cost = e->cost;
  k->inst = e->inst;
  return p;
}
