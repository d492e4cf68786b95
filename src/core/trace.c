/*
 * trace.c -- the pure model of a profiled run: kernel executions, the ops
 * that launched them and their costs, and the roofline analysis of it all.
 * No I/O: the readers in src/io/trace_*.c fill the model.
 *
 * Per group of kernels (same kernel name and launching op, or same op):
 *   bound time  = sum over executions of max(F/peak, Q/bandwidth)
 *                 (Williams, Waterman & Patterson, "Roofline", CACM 52(4),
 *                 2009: time >= max of the compute and the memory time)
 *   roof_fraction = bound time / measured time
 *   gain        = measured time - bound time (what perfect execution at
 *                 the roof would still save: Williams et al. 2009's
 *                 gap between a point and the roof above it)
 *   bound       = compute when sum F/peak >= sum Q/bw, else memory; and
 *                 overhead when the bound time of one execution is below
 *                 the launch overhead (He, "Making Deep Learning Go Brrrr
 *                 From First Principles", 2022: the three regimes).
 * Totals: busy = the union of kernel intervals per device; idle = span -
 * busy (HTA's "idle time" of the GPU); the overhead regime is the time of
 * kernels shorter than the launch overhead, of overhead-bound kernels, and
 * the idle gaps.
 *
 * An op that launched several kernels keeps its F and Q on its op row; its
 * kernels' rows say so instead of splitting them (where the FLOPs went
 * between a GEMM and its split-K reduction is not in the trace).
 *
 * Tensor-pipe instruction counts (Nsight Compute, no sm__ops_path_tensor
 * metric) become FLOPs by the FLOPs of one warp-level MMA instruction:
 * 512 on sm_7x (HMMA.884, 2*8*8*4), 4096 on sm_8x (HMMA.16816, 2*16*8*16;
 * checked on the ncu fixture's in-projection GEMM: 6144 instructions =
 * 2*64*768*256 FLOPs). Unknown for other architectures.
 */
#include "core/trace_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct inst_rec {
  uint32_t cost, op;
  uint32_t module; /* innermost nn.Module around it; RLI_NONE */
} inst_rec;

typedef struct group {
  uint32_t name, op, cost;
  uint32_t launch;  /* ncu: the kernel's index (one row per launch); RLI_NONE */
  int64_t count, kernels;
  double time;      /* sum of known durations */
  int64_t timed;    /* executions with a duration */
} group;

typedef struct row_acc {
  rl_trace_row row;
  double known_time, compute_t, memory_t;
  int64_t known_count, unknown_count;
  uint32_t why, note; /* note: 1 + string id, 0 none */
  int32_t reason;
  uint32_t launch, cost; /* ncu: the launch and its cost; RLI_NONE */
} row_acc;

/* A kernel decoded (rli_kernel is 40 bytes): its name and op, and its
 * device, stream and kind, are ids of distinct pairs (kpair: few in any
 * trace). The trace keeps kernels encoded in blocks (kblock, "the kernel
 * store" below), a few bytes each. */
typedef struct kst {
  double start_s, dur_s;
  uint32_t no;   /* (name, op): kpair id in nop */
  uint32_t cost, inst;
  uint32_t dsk;  /* (device, stream, kind): kpair id in dsk */
} kst;

/* KB_N consecutive kernels, encoded (the kernel store below). */
#define KB_SHIFT 8
#define KB_N ((size_t)1 << KB_SHIFT)
typedef struct kblock {
  uint8_t *data;
  uint32_t len, cap;
  double origin; /* the time codec's origin (us) for this block; NaN none */
} kblock;

/* The encoder's state: the previous kernel of the block. */
typedef struct kenc {
  int64_t n, d;              /* its start and duration codes */
  uint32_t no, dsk, cost, inst;
  double dur;                /* the duration d stands for */
  int codec;                 /* under this codec; -1 none */
} kenc;

/* A set of distinct 64-bit keys, each with its id (its index). */
typedef struct kpair {
  uint64_t *key;
  size_t n, cap;
  uint32_t *map;
  size_t mapcap;
  uint64_t last;   /* the last key asked for and its id: most kernels */
  uint32_t lastid; /* repeat the one before */
} kpair;

struct rl_trace {
  double overhead;
  int overhead_given; /* 1: the caller chose it (--overhead) */
  /* strings */
  char **str;
  uint32_t nstr, capstr;
  uint32_t *shash;
  uint32_t shcap;
  char *arena;
  size_t arena_left;
  char **blocks;
  size_t nblocks, capblocks;
  /* costs */
  rli_cost *cost;
  uint32_t ncost, capcost;
  uint32_t *chash;
  uint32_t chcap;
  /* op instances and kernels */
  inst_rec *inst;
  uint32_t ninst, capinst;
  kblock *kb;      /* the kernels, KB_N per block */
  size_t nk, nkb, capkb;
  kenc kenc;       /* after the last kernel added */
  double torigin;  /* the reader's time origin (rli_trace_time_origin); NaN */
  kst *kc;         /* the cache: one block decoded */
  size_t kcb;      /* its block; SIZE_MAX none */
  int kdirty;      /* the cache was changed (rli_trace_kernel_set) */
  int kfail;       /* out of memory while encoding a block again */
  uint8_t *kscratch; /* one block encoded */
  kst *kw;         /* the analysis' fallback: every kernel decoded */
  size_t ntimed;   /* kernels with dur_s >= 0 */
  kpair nop, dsk;
  rli_ncu_launch *launch; /* ncu: one per kernel */
  size_t nlaunch, caplaunch;
  /* file facts */
  char format[16];
  char device[RL_HW_TEXT_MAX];
  double mem_bytes;
  int32_t cc_major, cc_minor;
  int64_t events, unlinked;
  int no_timeline;
  /* the timeline's repairs: streams by id, kernels dropped */
  int64_t *streams; /* raw id of stream id i + 1 */
  uint32_t nstreams, capstreams;
  uint32_t *stmap;
  uint32_t stcap;
  int64_t dups, backwards; /* duplicates (tidy_timeline), ends before start */
  double dup_s;
  /* last analysis */
  int32_t no_shapes, world;
  rl_trace_row *rows[2];
  int32_t nrows[2];
  rl_trace_coll *colls;
  int32_t ncolls;
  rl_trace_fusion *fusion;
  int32_t nfusion;
  char **whybuf; /* texts made during analysis */
  size_t nwhy;
};


rl_trace *rl_trace_new(double launch_overhead_s) {
  rl_trace *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->overhead_given = launch_overhead_s >= 0 && isfinite(launch_overhead_s);
  t->overhead = t->overhead_given ? launch_overhead_s : RL_DEFAULT_LAUNCH_OVERHEAD_S;
  t->torigin = NAN;
  t->kcb = SIZE_MAX;
  rli_strlcpy(t->format, "unknown", sizeof t->format);
  return t;
}

static void free_analysis(rl_trace *t) {
  for (int g = 0; g < 2; g++) {
    free(t->rows[g]);
    t->rows[g] = NULL;
    t->nrows[g] = 0;
  }
  free(t->colls);
  t->colls = NULL;
  t->ncolls = 0;
  free(t->fusion);
  t->fusion = NULL;
  t->nfusion = 0;
  for (size_t i = 0; i < t->nwhy; i++) free(t->whybuf[i]);
  free(t->whybuf);
  t->whybuf = NULL;
  t->nwhy = 0;
}

void rl_trace_free(rl_trace *t) {
  if (!t) return;
  free_analysis(t);
  for (size_t i = 0; i < t->nblocks; i++) free(t->blocks[i]);
  free(t->blocks);
  free(t->str);
  free(t->shash);
  free(t->cost);
  free(t->chash);
  free(t->inst);
  for (size_t b = 0; b < t->nkb; b++) free(t->kb[b].data);
  free(t->kb);
  free(t->kc);
  free(t->kscratch);
  free(t->kw);
  free(t->nop.key);
  free(t->nop.map);
  free(t->dsk.key);
  free(t->dsk.map);
  free(t->launch);
  free(t->streams);
  free(t->stmap);
  free(t);
}


/* ---- strings ---------------------------------------------------------- */
static char *arena_alloc(rl_trace *t, size_t n) {
  if (n > 4096) { /* big strings get their own block */
    size_t cb = t->capblocks;
    if (!rli_grow((void **)&t->blocks, sizeof(char *), t->nblocks + 1, &cb)) return NULL;
    t->capblocks = cb;
    char *b = malloc(n);
    if (b) t->blocks[t->nblocks++] = b;
    return b;
  }
  if (n > t->arena_left) {
    size_t cb = t->capblocks;
    if (!rli_grow((void **)&t->blocks, sizeof(char *), t->nblocks + 1, &cb)) return NULL;
    t->capblocks = cb;
    char *b = malloc(65536);
    if (!b) return NULL;
    t->blocks[t->nblocks++] = b;
    t->arena = b;
    t->arena_left = 65536;
  }
  char *r = t->arena;
  t->arena += n;
  t->arena_left -= n;
  return r;
}

/* Copy s, replacing bytes that are not valid UTF-8 by '?' and control
 * characters by spaces, so that every name prints as valid JSON and text. */
static void copy_clean(char *d, const char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x80) {
      d[i] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
      i++;
      continue;
    }
    size_t len = c >= 0xF0 && c < 0xF5 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (c >= 0xF5) len = 0;
    int ok = len > 0 && i + len <= n;
    for (size_t j = 1; ok && j < len; j++)
      if (((unsigned char)s[i + j] & 0xC0) != 0x80) ok = 0;
    if (ok && len == 3) {
      unsigned char c1 = (unsigned char)s[i + 1];
      if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0)) ok = 0;
    }
    if (ok && len == 4) {
      unsigned char c1 = (unsigned char)s[i + 1];
      if ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90)) ok = 0;
    }
    if (!ok) { d[i++] = '?'; continue; }
    memcpy(d + i, s + i, len);
    i += len;
  }
}

static int rehash_str(rl_trace *t) {
  uint32_t nc = t->shcap ? t->shcap * 2 : 1024;
  uint32_t *h = malloc(sizeof *h * nc);
  if (!h) return 0;
  memset(h, 0xff, sizeof *h * nc);
  for (uint32_t id = 0; id < t->nstr; id++) {
    const char *s = t->str[id];
    uint64_t x = rli_hash(s, strlen(s));
    uint32_t i = (uint32_t)x & (nc - 1);
    while (h[i] != RLI_NONE) i = (i + 1) & (nc - 1);
    h[i] = id;
  }
  free(t->shash);
  t->shash = h;
  t->shcap = nc;
  return 1;
}

uint32_t rli_trace_str(rl_trace *t, const char *s, size_t len) {
  if ((size_t)t->nstr * 2 + 2 > t->shcap && !rehash_str(t)) return RLI_NONE;
  /* hash the cleaned text: printable ASCII is its own clean copy; else
   * clean a copy (on the stack when short) */
  char small[512];
  size_t a = 0;
  while (a < len && (unsigned char)s[a] >= 0x20 && (unsigned char)s[a] < 0x7f) a++;
  char *clean;
  if (a == len) {
    clean = (char *)(uintptr_t)s; /* read only below */
  } else {
    clean = len < sizeof small ? small : malloc(len + 1);
    if (!clean) return RLI_NONE;
    copy_clean(clean, s, len);
    clean[len] = 0;
  }
  uint64_t x = rli_hash(clean, len);
  uint32_t i = (uint32_t)x & (t->shcap - 1);
  while (t->shash[i] != RLI_NONE) {
    const char *o = t->str[t->shash[i]];
    if (strlen(o) == len && memcmp(o, clean, len) == 0) {
      if (clean != small && clean != s) free(clean);
      return t->shash[i];
    }
    i = (i + 1) & (t->shcap - 1);
  }
  size_t cs = t->capstr;
  char *d = NULL;
  if (rli_grow((void **)&t->str, sizeof(char *), (size_t)t->nstr + 1, &cs)) d = arena_alloc(t, len + 1);
  t->capstr = (uint32_t)cs;
  if (!d) { if (clean != small && clean != s) free(clean); return RLI_NONE; }
  memcpy(d, clean, len);
  d[len] = 0;
  if (clean != small && clean != s) free(clean);
  t->str[t->nstr] = d;
  t->shash[i] = t->nstr;
  return t->nstr++;
}

const char *rli_trace_strat(const rl_trace *t, uint32_t id) {
  return id < t->nstr ? t->str[id] : "";
}

/* ---- costs -------------------------------------------------------------- */
static int cost_eq(const rli_cost *a, const rli_cost *b) {
  return a->flops == b->flops && a->bytes == b->bytes && a->tensor_inst == b->tensor_inst &&
         a->dtype == b->dtype && a->tensor == b->tensor && a->measured == b->measured &&
         a->why == b->why && a->note == b->note && a->reason == b->reason && a->roof == b->roof &&
         a->coll == b->coll && a->ranks == b->ranks && a->per_rank == b->per_rank &&
         a->per_elem == b->per_elem;
}

static uint64_t cost_hash(const rli_cost *c) {
  double v[3] = {c->flops, c->bytes, c->tensor_inst};
  int32_t w[11] = {c->dtype, c->tensor, c->measured, (int32_t)c->why, c->reason, c->roof,
                   c->coll, c->ranks, c->per_rank, (int32_t)c->note, c->per_elem};
  return rli_hash(v, sizeof v) ^ (rli_hash(w, sizeof w) * 31);
}

uint32_t rli_trace_cost(rl_trace *t, const rli_cost *c) {
  if ((size_t)t->ncost * 2 + 2 > t->chcap) {
    uint32_t nc = t->chcap ? t->chcap * 2 : 256;
    uint32_t *h = malloc(sizeof *h * nc);
    if (!h) return RLI_NONE;
    memset(h, 0xff, sizeof *h * nc);
    for (uint32_t id = 0; id < t->ncost; id++) {
      uint32_t i = (uint32_t)cost_hash(&t->cost[id]) & (nc - 1);
      while (h[i] != RLI_NONE) i = (i + 1) & (nc - 1);
      h[i] = id;
    }
    free(t->chash);
    t->chash = h;
    t->chcap = nc;
  }
  rli_cost k = *c;
  if (k.flops == 0) k.flops = 0; /* fold -0 */
  uint32_t i = (uint32_t)cost_hash(&k) & (t->chcap - 1);
  while (t->chash[i] != RLI_NONE) {
    if (cost_eq(&t->cost[t->chash[i]], &k)) return t->chash[i];
    i = (i + 1) & (t->chcap - 1);
  }
  size_t cc = t->capcost;
  if (!rli_grow((void **)&t->cost, sizeof *t->cost, (size_t)t->ncost + 1, &cc)) return RLI_NONE;
  t->capcost = (uint32_t)cc;
  t->cost[t->ncost] = k;
  t->chash[i] = t->ncost;
  return t->ncost++;
}

uint32_t rli_trace_cost_why(rl_trace *t, const char *why) {
  return rli_trace_cost_reason(t, RL_REASON_OTHER, why);
}

uint32_t rli_trace_cost_reason(rl_trace *t, int32_t reason, const char *why) {
  rli_cost c;
  memset(&c, 0, sizeof c);
  c.flops = c.bytes = -1;
  c.dtype = -1;
  c.coll = -1;
  c.reason = reason;
  c.why = rli_trace_str(t, why, strlen(why));
  if (c.why == RLI_NONE) return RLI_NONE;
  return rli_trace_cost(t, &c);
}

uint32_t rli_trace_new_inst(rl_trace *t, uint32_t cost) {
  size_t ci = t->capinst;
  if (t->ninst == RLI_NONE - 1 ||
      !rli_grow((void **)&t->inst, sizeof *t->inst, (size_t)t->ninst + 1, &ci))
    return RLI_NONE;
  t->capinst = (uint32_t)ci;
  t->inst[t->ninst].cost = cost;
  t->inst[t->ninst].op = RLI_NONE;
  t->inst[t->ninst].module = RLI_NONE;
  return t->ninst++;
}

void rli_trace_inst_module(rl_trace *t, uint32_t inst, uint32_t module) {
  if (inst < t->ninst) t->inst[inst].module = module;
}

/* ---- kernels ------------------------------------------------------------ */
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

/* ---- the kernel store --------------------------------------------------------
 * The kernels are kept in blocks of KB_N consecutive ones, each block a
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
#define KENC_MAX 64 /* bytes of one kernel at most: 1 + 4 x 5 + 2 x 10 + 16 */

static void kenc_reset(kenc *e) {
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
static uint8_t *kenc_one(kenc *e, double origin, const kst *k, uint8_t *p) {
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

static const uint8_t *kdec_one(kenc *e, double origin, const uint8_t *p, kst *k) {
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

static size_t kblock_n(const rl_trace *t, size_t b) {
  size_t n = t->nk - (b << KB_SHIFT);
  return n < KB_N ? n : KB_N;
}

static void kblock_decode(const rl_trace *t, size_t b, kst *out) {
  kenc e;
  kenc_reset(&e);
  const uint8_t *p = t->kb[b].data;
  for (size_t i = 0, n = kblock_n(t, b); i < n; i++) p = kdec_one(&e, t->kb[b].origin, p, &out[i]);
}

/* Block b encoded again from n kernels (the cache); the append state
 * follows when it is the last block. 0: out of memory (b unchanged). */
static int kblock_encode(rl_trace *t, size_t b, const kst *k, size_t n) {
  kenc e;
  kenc_reset(&e);
  uint8_t *p = t->kscratch;
  for (size_t i = 0; i < n; i++) p = kenc_one(&e, t->kb[b].origin, &k[i], p);
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

/* Kernel i, decoded (valid until the next call for another block). */
static kst *kat_load(rl_trace *t, size_t i) {
  if (t->kw) return &t->kw[i];
  size_t b = i >> KB_SHIFT;
  kflush(t);
  kblock_decode(t, b, t->kc);
  t->kcb = b;
  return &t->kc[i & (KB_N - 1)];
}

static inline kst *kat(rl_trace *t, size_t i) {
  if (!t->kw && (i >> KB_SHIFT) == t->kcb) return &t->kc[i & (KB_N - 1)];
  return kat_load(t, i);
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
    kenc_reset(&t->kenc);
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
  uint8_t *e = kenc_one(&t->kenc, blk->origin, k, blk->data + blk->len);
  blk->len = (uint32_t)(e - blk->data);
  t->nk++;
  if (k->dur_s >= 0) t->ntimed++;
  return 1;
}

/* The kernel store anew from the kernels not dropped (drop[i]), block by
 * block (each old block freed once read). */
static int krebuild(rl_trace *t, const uint8_t *drop) {
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
      kenc_reset(&e);
      const uint8_t *p = old[b].data;
      for (size_t i = 0; i < n; i++) p = kdec_one(&e, old[b].origin, p, &buf[i]);
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

/* The kernel i as readers and the analysis see it. */
static void kdec(const rl_trace *t, const kst *o, rli_kernel *k) {
  uint64_t no = t->nop.key[o->no], dsk = t->dsk.key[o->dsk];
  k->start_s = o->start_s;
  k->dur_s = o->dur_s;
  k->name = (uint32_t)(no >> 32);
  k->op = (uint32_t)no;
  k->cost = o->cost;
  k->inst = o->inst;
  k->device = (int32_t)(uint32_t)(dsk >> 32);
  k->stream = (uint16_t)(dsk >> 16);
  k->kind = (int16_t)(uint16_t)dsk;
}

static void kget(rl_trace *t, size_t i, rli_kernel *k) { kdec(t, kat(t, i), k); }

/* Every kernel decoded, for the analysis' sorted-index fallbacks; 0: out
 * of memory. */
static int kwide(rl_trace *t) {
  if (t->kw) return 1;
  kflush(t);
  kst *w = malloc(sizeof *w * (t->nk ? t->nk : 1));
  if (!w) return 0;
  for (size_t b = 0; b < t->nkb; b++) kblock_decode(t, b, w + (b << KB_SHIFT));
  t->kw = w;
  return 1;
}

static void kwide_free(rl_trace *t) {
  free(t->kw);
  t->kw = NULL;
}

void rli_trace_time_origin(rl_trace *t, double origin_us) { t->torigin = origin_us; }

rl_status rli_trace_add(rl_trace *t, const rli_kernel *k, rl_error *err) {
  kst o;
  kwide_free(t);
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

void rli_trace_set_format(rl_trace *t, const char *format) {
  rli_strlcpy(t->format, format, sizeof t->format);
}

void rli_trace_set_device(rl_trace *t, const char *name, double mem_bytes,
                          int32_t cc_major, int32_t cc_minor) {
  if (name) {
    size_t n = strlen(name);
    if (n >= sizeof t->device) n = sizeof t->device - 1;
    copy_clean(t->device, name, n);
    t->device[n] = 0;
  }
  t->mem_bytes = mem_bytes;
  t->cc_major = cc_major;
  t->cc_minor = cc_minor;
}

void rli_trace_count_events(rl_trace *t, int64_t n) { t->events += n; }
void rli_trace_set_no_timeline(rl_trace *t) { t->no_timeline = 1; }
void rli_trace_set_unlinked(rl_trace *t, int64_t n) { t->unlinked = n; }
void rli_trace_set_no_shapes(rl_trace *t, int32_t no_shapes) { t->no_shapes = no_shapes; }
void rli_trace_set_world(rl_trace *t, int32_t world) { t->world = world > 0 ? world : 0; }

/* A collective's group size and message size S: n recorded, else the
 * world size (guess); S = n x bytes when bytes is one rank's share. */
static double coll_n(const rl_trace *t, const rli_cost *c) {
  return c->ranks > 0 ? c->ranks : t->world;
}
static double coll_S(const rl_trace *t, const rli_cost *c) {
  return c->per_rank ? c->bytes * coll_n(t, c) : c->bytes;
}

const rli_cost *rli_trace_cost_get(const rl_trace *t, uint32_t id) {
  return t && id < t->ncost ? &t->cost[id] : NULL;
}

const char *rl_trace_roof_name(int32_t roof) {
  static const char *const n[] = {"chip", "network", "hbm", "host"};
  return roof >= 0 && roof < 4 ? n[roof] : "unknown";
}

const char *rl_trace_reason_name(int32_t reason) {
  static const char *const n[RL_REASON_COUNT] = {
      "no shapes recorded", "compiled region", "no cost model for the op",
      "launched before the profiling window", "launch inside no CPU op",
      "collective size not recorded", "no roof for it in the database",
      "shapes or sizes not usable", "other", "tensor lists: sizes not recorded"};
  return reason >= 0 && reason < RL_REASON_COUNT ? n[reason] : "unknown";
}

rl_status rl_trace_get_info(const rl_trace *t, rl_trace_info *out) {
  if (!t || !out) return RL_EINVAL;
  memset(out, 0, sizeof *out);
  rli_strlcpy(out->format, t->format, sizeof out->format);
  rli_strlcpy(out->device, t->device, sizeof out->device);
  out->device_mem_bytes = t->mem_bytes;
  out->cc_major = t->cc_major;
  out->cc_minor = t->cc_minor;
  out->kernels = (int64_t)t->nk;
  out->unlinked = t->unlinked;
  out->events = t->events;
  out->has_time = t->ntimed > 0;
  return RL_OK;
}

rl_status rl_trace_hw(const rl_trace *t, rl_hw *out, rl_error *err) {
  if (!t || !out) return rli_fail(err, RL_EINVAL, "no trace");
  if (!t->device[0])
    return rli_fail(err, RL_ENOTFOUND, "the %s file names no device: give --hw ID", t->format);
  const char *id = rli_device_hw_id(t->device, t->mem_bytes);
  if (!id)
    return rli_fail(err, RL_ENOTFOUND,
                    "device '%s' is not in the hardware database: give --hw ID", t->device);
  return rl_hw_find(id, NULL, 0, out, err);
}

/* ---- analysis ------------------------------------------------------------- */
/* FLOPs of one tensor-pipe warp instruction for the architecture. */
static double tensor_factor(const rl_trace *t, const rl_hw *hw) {
  int cc = t->cc_major;
  if (cc == 0 && hw) {
    static const struct { const char *frag; int cc; } fam[] = {
        {"v100", 7}, {"t4", 7}, {"a100", 8}, {"a10", 8}, {"a30", 8}, {"a40", 8},
        {"rtx-30", 8}, {"rtx-40", 8}, {"l4", 8}, {"l40", 8}};
    for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++)
      if (strstr(hw->id, fam[i].frag)) { cc = fam[i].cc; break; }
  }
  return cc == 7 ? 512 : cc == 8 ? 4096 : 0;
}

static uint32_t why_text(rl_trace *t, const char *s) {
  return rli_trace_str(t, s, strlen(s));
}

typedef struct cost_eval {
  int known;
  double flops, bytes, compute_t, memory_t, bound_t; /* per execution */
  int32_t peak_kind;
  uint32_t why;
  int32_t reason;
} cost_eval;

static void eval_cost(rl_trace *t, const rl_hw *hw, const rli_cost *c, double factor,
                      cost_eval *e) {
  memset(e, 0, sizeof *e);
  e->peak_kind = -1;
  e->why = c->why;
  e->reason = c->why != RLI_NONE ? c->reason : RL_REASON_OTHER;
  if (c->roof != RLI_ROOF_CHIP) {
    char buf[160];
    double bw = c->roof == RLI_ROOF_NET ? hw->interconnect_bw / 2
                : c->roof == RLI_ROOF_HBM ? hw->mem_bw : hw->host_bw;
    if (c->bytes < 0) {
      if (e->why == RLI_NONE) e->why = why_text(t, "bytes unknown");
      return;
    }
    if (c->roof == RLI_ROOF_NET && coll_n(t, c) < 1) {
      e->why = why_text(t, "group size not recorded (no Group size, no distributedInfo)");
      e->reason = RL_REASON_COLL_NO_SIZE;
      return;
    }
    if (!(bw > 0)) {
      snprintf(buf, sizeof buf, "%s has no %s figure in the database", hw->id,
               c->roof == RLI_ROOF_NET ? "interconnect" : c->roof == RLI_ROOF_HBM
                                                              ? "memory bandwidth"
                                                              : "host-link (PCIe) bandwidth");
      e->why = why_text(t, buf);
      e->reason = RL_REASON_NO_ROOF;
      return;
    }
    double S = c->roof == RLI_ROOF_NET ? coll_S(t, c) : c->bytes;
    double moved = c->roof == RLI_ROOF_NET ? S * rli_coll_factor(c->coll, coll_n(t, c)) : S;
    e->known = 1;
    e->flops = 0;
    e->bytes = S;
    e->memory_t = e->bound_t = moved / bw;
    e->why = RLI_NONE;
    e->reason = -1;
    return;
  }
  double F = c->flops;
  if (c->tensor_inst > 0) {
    if (factor <= 0) {
      e->why = why_text(t, "tensor-pipe instruction counts, but no FLOPs per instruction known "
                           "for this architecture (ncu sm__ops_path_tensor metrics needed)");
      e->reason = RL_REASON_NO_ROOF;
      return;
    }
    F = (F > 0 ? F : 0) + c->tensor_inst * factor;
  }
  if (F < 0 || c->bytes < 0) {
    if (e->why == RLI_NONE) e->why = why_text(t, "F and Q unknown");
    return;
  }
  if (F == 0 && c->bytes == 0) {
    e->why = why_text(t, "the counters show neither FLOPs nor DRAM bytes");
    return;
  }
  int32_t pk = c->dtype >= 0 ? rl_hw_peak_for(hw, c->dtype, c->tensor) : -1;
  rl_roof roof;
  if (pk < 0 || rl_hw_roof(hw, pk, 0, &roof, NULL) != RL_OK || !(roof.peak > 0) ||
      !(roof.bandwidth > 0)) {
    char buf[160];
    snprintf(buf, sizeof buf, "%s has no %s %s peak in the database", hw->id,
             c->dtype >= 0 ? rl_dtype_name(c->dtype) : "(unknown format)",
             c->tensor ? "tensor" : "vector");
    e->why = why_text(t, buf);
    e->reason = RL_REASON_NO_ROOF;
    return;
  }
  e->known = 1;
  e->flops = F;
  e->bytes = c->bytes;
  e->compute_t = F / roof.peak;
  e->memory_t = c->bytes / roof.bandwidth;
  e->bound_t = fmax(e->compute_t, e->memory_t);
  e->peak_kind = pk;
  e->why = RLI_NONE;
  e->reason = -1;
}

/* open-addressing map of (a, b, c) triples to an index */
typedef struct tmap {
  uint32_t *slot;
  size_t cap;
} tmap;

static uint64_t key3(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t v[3] = {a, b, c};
  return rli_hash(v, sizeof v);
}

static int cmp_rows(const void *pa, const void *pb) {
  const rl_trace_row *a = pa, *b = pb;
  int ga = a->has_cost && a->has_time, gb = b->has_cost && b->has_time;
  if (ga != gb) return gb - ga;
  if (ga && a->gain_s != b->gain_s) return a->gain_s < b->gain_s ? 1 : -1;
  if (a->time_s != b->time_s) return a->time_s < b->time_s ? 1 : -1;
  if (a->flops != b->flops) return a->flops < b->flops ? 1 : -1;
  int c = strcmp(a->name, b->name);
  return c ? c : strcmp(a->op, b->op);
}

/* (on the decoded kernels: kwide) */
static int cmp_ivl_idx(const void *ctx, uint32_t a, uint32_t b) {
  const kst *x = &((const rl_trace *)ctx)->kw[a], *y = &((const rl_trace *)ctx)->kw[b];
  if (x->start_s != y->start_s) return x->start_s < y->start_s ? -1 : 1;
  double xe = x->start_s + x->dur_s, ye = y->start_s + y->dur_s;
  if (xe != ye) return xe < ye ? -1 : 1;
  return (a > b) - (a < b);
}

/* Add d to the sorted set of distinct devices (*v, *n): 1, or 0 when out
 * of memory or past RLI_MAX_DEVS devices (then counted by a sort). */
#define RLI_MAX_DEVS 256
static int dev_add(int32_t **v, size_t *n, size_t *cap, int32_t d) {
  if (*n && (*v)[*n - 1] == d) return 1; /* the common case: as before */
  size_t lo = 0, hi = *n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if ((*v)[mid] < d) lo = mid + 1;
    else hi = mid;
  }
  if (lo < *n && (*v)[lo] == d) return 1;
  if (*n >= RLI_MAX_DEVS || !rli_grow((void **)v, sizeof **v, *n + 1, cap)) return 0;
  memmove(*v + lo + 1, *v + lo, (*n - lo) * sizeof **v);
  (*v)[lo] = d;
  (*n)++;
  return 1;
}

static int cmp_i32(const void *pa, const void *pb) {
  int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
  return (a > b) - (a < b);
}

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
  if (same && r->stream != 0 && st->end - r->s > 1e-9) {
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

/* (on the decoded kernels: kwide) */
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

static rl_status tidy_timeline(rl_trace *t, int64_t *overlaps, double *overlap_s, rl_error *err) {
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
    uint32_t *v = kwide(t) ? malloc(sizeof *v * t->nk) : NULL;
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
    int ok = krebuild(t, drop);
    free(drop);
    if (!ok) return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
  }
  return RL_OK;
}

/* ---- the hierarchical roofline of one ncu launch ----------------------------
 * Nsight Compute's hierarchical roofline (the SpeedOfLight_Hierarchical*
 * RooflineChart sections; Yang, Kurth & Williams, "Hierarchical Roofline
 * analysis for GPUs", CCPE 32(20), 2020): the kernel's F against the bytes
 * it moved at each level, L1 (l1tex__t_bytes.sum), L2 (lts__t_bytes.sum)
 * and DRAM (dram__bytes.sum), each under that level's bandwidth roof. The
 * level whose roof is lowest at its intensity binds: with the same F, the
 * one with the largest bytes / bandwidth. Roofs: the export's
 * *.peak_sustained rates when present (at the profiled clock), else the
 * database's, the compute peak and the L1 and L2 figures (bytes per clock x
 * boost clock) scaled to the profiled SM clock (ncu locks clocks to base
 * by default), DRAM as it is. Speed of light: ncu's own sm__throughput and
 * gpu__compute_memory_throughput percentages beside our compute and memory
 * fractions; more than 20 points apart is flagged (sm__throughput also
 * counts non-FLOP pipes and issue slots, so a kernel busy with integer or
 * address arithmetic is flagged too: our F misses that work). Waves per SM
 * below 1: the grid does not fill the GPU once (idle SMs for the whole
 * kernel: the tail effect at its extreme). */
static void hier_row(rl_trace *t, const rl_hw *hw, double factor, rl_trace_row *o,
                     const rli_ncu_launch *m, const rli_cost *c) {
  o->launch_id = -1;
  o->l1_bytes = o->l2_bytes = o->dram_bytes = -1;
  o->l1_intensity = o->l2_intensity = o->dram_intensity = -1;
  o->binding_level = -1;
  o->sol_compute = o->sol_memory = -1;
  o->occupancy_theoretical = o->occupancy_achieved = o->waves = -1;
  if (!m || !c || m->id < 0) return;
  o->launch_id = m->id;
  o->l1_bytes = m->l1_bytes;
  o->l2_bytes = m->l2_bytes;
  o->dram_bytes = c->bytes;
  o->sol_compute = m->sol_sm;
  o->sol_memory = m->sol_mem;
  o->occupancy_theoretical = m->occ_theory;
  o->occupancy_achieved = m->occ_achieved;
  o->waves = m->waves;
  o->tail = m->waves >= 0 && m->waves < 1;
  char fs[200];
  if (m->tensor_src == 1)
    snprintf(fs, sizeof fs, "SASS FP counters + sm__ops_path_tensor_* (tensor ops as counted)");
  else if (m->tensor_src == 2 && factor > 0)
    snprintf(fs, sizeof fs, "SASS FP counters + sm__inst_executed_pipe_tensor x %.0f FLOP (%s)",
             factor, factor == 4096 ? "one sm_8x HMMA.16816: 2x16x8x16" : "one sm_7x HMMA.884: 2x8x8x4");
  else if (m->tensor_src == 2)
    snprintf(fs, sizeof fs, "sm__inst_executed_pipe_tensor without FLOPs per instruction documented "
                            "for this architecture: tensor work not counted");
  else
    snprintf(fs, sizeof fs, "SASS FP counters (dadd+dmul+2dfma, fadd+fmul+2ffma, 2hadd+2hmul+4hfma)");
  uint32_t fid = why_text(t, fs);
  o->flops_source = fid == RLI_NONE ? NULL : rli_trace_strat(t, fid);
  char note[600];
  size_t nn = 0;
  note[0] = 0;
#define NOTE(...) do { if (nn < sizeof note) nn += (size_t)snprintf(note + nn, sizeof note - nn, \
      "%s", nn ? "; " : ""); if (nn < sizeof note) nn += (size_t)snprintf(note + nn, sizeof note - nn, __VA_ARGS__); } while (0)
  /* the roofs */
  double scale = m->sm_hz > 0 && hw->boost_hz > 0 ? m->sm_hz / hw->boost_hz : 1;
  int cls = c->tensor ? 3 : c->dtype == RL_FP64 ? 0 : c->dtype == RL_FP32 ? 1 : 2;
  double peak = m->peak[cls];
  int from_db = 0;
  if (!(peak > 0)) {
    int32_t pk = c->dtype >= 0 ? rl_hw_peak_for(hw, c->dtype, c->tensor) : -1;
    peak = pk >= 0 ? hw->peak[pk] * scale : 0;
    from_db = 1;
  }
  double bw[3] = {m->bw[0], m->bw[1], m->bw[2]};
  if (!(bw[0] > 0)) { bw[0] = hw->l1_bw * scale; from_db = 1; }
  if (!(bw[1] > 0)) { bw[1] = hw->l2_bw * scale; from_db = 1; }
  if (!(bw[2] > 0)) { bw[2] = hw->mem_bw; from_db = 1; }
  o->compute_peak = peak;
  o->l1_bw = bw[0];
  o->l2_bw = bw[1];
  o->dram_bw = bw[2];
  if (from_db && scale != 1)
    NOTE("roofs not in the export: the database's, compute, L1 and L2 scaled to the profiled SM "
         "clock %.3g GHz (%.0f%% of boost)", m->sm_hz / 1e9, 100 * scale);
  if (m->l1_bytes < 0 || m->l2_bytes < 0)
    NOTE("no %s in the export: DRAM only", m->l1_bytes < 0 && m->l2_bytes < 0
             ? "l1tex__t_bytes.sum or lts__t_bytes.sum" : m->l1_bytes < 0 ? "l1tex__t_bytes.sum"
             : "lts__t_bytes.sum");
  double bytes[3] = {o->l1_bytes, o->l2_bytes, o->dram_bytes};
  static const int32_t lv[3] = {RL_LEVEL_L1, RL_LEVEL_L2, RL_LEVEL_DRAM};
  static const char *const lname[3] = {"L1", "L2", "DRAM"};
  double F = o->has_cost ? o->flops : -1;
  double tmax = -1;
  const char *nobw[3];
  int nnobw = 0;
  for (int l = 0; l < 3; l++) {
    if (bytes[l] < 0) continue;
    if (F >= 0 && bytes[l] > 0) {
      double I = F / bytes[l];
      if (l == 0) o->l1_intensity = I;
      else if (l == 1) o->l2_intensity = I;
      else o->dram_intensity = I;
    }
    if (!(bw[l] > 0)) {
      nobw[nnobw++] = lname[l];
      continue;
    }
    double tl = bytes[l] / bw[l];
    if (tl > tmax) { tmax = tl; o->binding_level = lv[l]; }
  }
  if (nnobw)
    NOTE("no %s%s%s bandwidth for %s (not in the export or the database): not placed", nobw[0],
         nnobw > 1 ? " or " : "", nnobw > 1 ? nobw[1] : "", hw->id);
  if (o->tail)
    NOTE("tail effect: %.2f waves, less than one full wave (SMs idle for the whole kernel)", m->waves);
  if (F >= 0 && o->has_time && o->time_s > 0 && peak > 0) {
    double ct = F / peak;
    o->compute_fraction = ct / o->time_s;
    o->memory_fraction = tmax > 0 ? tmax / o->time_s : 0;
    o->binding_fraction = fmax(ct, tmax) / o->time_s;
    int dc = m->sol_sm >= 0 && fabs(m->sol_sm - o->compute_fraction) > 0.2;
    int dm = m->sol_mem >= 0 && tmax >= 0 && fabs(m->sol_mem - o->memory_fraction) > 0.2;
    if (dc || dm) {
      o->sol_disagree = 1;
      NOTE("ncu's speed of light (compute %.0f%%, memory %.0f%%) and ours (%.0f%%, %.0f%%) differ "
           "by more than 20 points: our F or Q, or the roof, is off for this kernel",
           100 * m->sol_sm, 100 * m->sol_mem, 100 * o->compute_fraction, 100 * o->memory_fraction);
    }
  }
#undef NOTE
  if (nn) {
    uint32_t id = why_text(t, note);
    o->note = id == RLI_NONE ? NULL : rli_trace_strat(t, id);
  }
}

/* Merge groups into rows keyed by (name, op). */
static rl_status build_rows(rl_trace *t, const rl_hw *hw, double factor, double floor_s,
                            const group *g, size_t ng, int by_op, rl_trace_row **out,
                            int32_t *nout, rl_error *err) {
  row_acc *acc = calloc(ng ? ng : 1, sizeof *acc);
  size_t mcap = 64;
  while (mcap < ng * 2 + 2) mcap *= 2;
  uint32_t *map = malloc(sizeof *map * mcap);
  if (!acc || !map) {
    free(acc);
    free(map);
    return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
  }
  memset(map, 0xff, sizeof *map * mcap);
  size_t nacc = 0;
  for (size_t i = 0; i < ng; i++) {
    const group *gr = &g[i];
    /* op groups carry the op label in `name` */
    uint32_t kn = gr->name, ko = by_op ? RLI_NONE : gr->op, kl = by_op ? RLI_NONE : gr->launch;
    size_t h = (size_t)key3(kn, ko, kl) & (mcap - 1);
    while (map[h] != RLI_NONE) {
      row_acc *r = &acc[map[h]];
      if (kn == (uint32_t)(uintptr_t)r->row.name && ko == (uint32_t)(uintptr_t)r->row.op &&
          kl == r->launch)
        break;
      h = (h + 1) & (mcap - 1);
    }
    row_acc *r;
    if (map[h] == RLI_NONE) {
      map[h] = (uint32_t)nacc;
      r = &acc[nacc++];
      r->row.name = (const char *)(uintptr_t)kn; /* ids until the end */
      r->row.op = (const char *)(uintptr_t)ko;
      r->row.bound = -1;
      r->row.peak_kind = -1;
      r->row.dtype = -1;
      r->row.reason = -1;
      r->why = RLI_NONE;
      r->reason = -1;
      r->launch = kl;
      r->cost = gr->cost;
    } else {
      r = &acc[map[h]];
    }
    cost_eval e;
    eval_cost(t, hw, &t->cost[gr->cost], factor, &e);
    r->row.count += gr->count;
    r->row.kernels += gr->kernels;
    r->row.time_s += gr->time;
    if (gr->timed) r->row.has_time = 1;
    if (e.known) {
      double n = (double)gr->count;
      r->row.has_cost = 1;
      r->row.flops += n * e.flops;
      r->row.bytes += n * e.bytes;
      r->row.bound_time_s += n * e.bound_t;
      r->row.at_roof_s += n * fmax(e.bound_t, floor_s);
      r->compute_t += n * e.compute_t;
      r->memory_t += n * e.memory_t;
      r->known_time += gr->time;
      r->known_count += gr->count;
      r->row.peak_kind = e.peak_kind;
      r->row.dtype = t->cost[gr->cost].dtype;
      r->row.roof = t->cost[gr->cost].roof;
      if (t->cost[gr->cost].note) r->note = t->cost[gr->cost].note;
      if (t->cost[gr->cost].measured) r->row.measured = 1;
    } else {
      r->unknown_count += gr->count;
      if (r->why == RLI_NONE) { r->why = e.why; r->reason = e.reason; }
      /* a measured FLOP count without bytes still shows its FLOPs */
      if (!r->row.has_cost && t->cost[gr->cost].flops > 0 && t->cost[gr->cost].bytes < 0) {
        r->row.flops += (double)gr->count * t->cost[gr->cost].flops;
        r->row.measured = t->cost[gr->cost].measured;
      }
    }
  }
  rl_trace_row *rows = calloc(nacc ? nacc : 1, sizeof *rows);
  if (!rows) {
    free(acc);
    free(map);
    return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
  }
  for (size_t i = 0; i < nacc; i++) {
    row_acc *r = &acc[i];
    rl_trace_row *o = &rows[i];
    *o = r->row;
    uint32_t kn = (uint32_t)(uintptr_t)r->row.name, ko = (uint32_t)(uintptr_t)r->row.op;
    o->name = kn == RLI_NONE ? (by_op ? "(no op)" : "") : t->str[kn];
    o->op = ko == RLI_NONE ? "" : t->str[ko];
    o->why = NULL;
    o->family = by_op ? "" : rli_kernel_family(o->name);
    if (r->unknown_count) {
      if (!o->has_cost) {
        o->reason = r->reason;
        o->why = r->why != RLI_NONE ? t->str[r->why] : "F and Q unknown";
      } else {
        char buf[400];
        snprintf(buf, sizeof buf, "%lld of %lld without F and Q (%s); F, Q and gain cover the rest",
                 (long long)r->unknown_count, (long long)(r->unknown_count + r->known_count),
                 r->why != RLI_NONE ? t->str[r->why] : "unknown");
        uint32_t id = why_text(t, buf);
        o->why = id == RLI_NONE ? "partly unknown" : t->str[id];
      }
    }
    if (!o->has_time && !o->why) o->why = "the file gives no kernel times";
    hier_row(t, hw, factor, o, r->launch < t->nlaunch ? &t->launch[r->launch] : NULL,
             r->cost < t->ncost ? &t->cost[r->cost] : NULL);
    if (o->has_cost) {
      double per = o->bound_time_s / (double)r->known_count;
      o->bound = o->roof == RL_TRACE_ROOF_NET        ? RL_BOUND_NETWORK
                 : r->compute_t >= r->memory_t ? RL_BOUND_COMPUTE
                                               : RL_BOUND_MEMORY;
      if (floor_s > 0 && per < floor_s) o->bound = RL_BOUND_OVERHEAD;
      o->intensity = o->bytes > 0 ? o->flops / o->bytes : 0;
      if (o->has_time && r->known_time > 0) {
        o->roof_fraction = o->bound_time_s / r->known_time;
        /* at the roof, but never below the floor; an overhead-bound row
         * gains only by fusion (rl_trace_fusions) */
        o->gain_s = o->bound == RL_BOUND_OVERHEAD ? 0 : fmax(0, r->known_time - o->at_roof_s);
      }
    }
  }
  /* the why texts may have moved the string table: names were resolved
   * after every why_text call of the loop above except the partial ones,
   * so resolve them again */
  for (size_t i = 0; i < nacc; i++) {
    uint32_t kn = (uint32_t)(uintptr_t)acc[i].row.name, ko = (uint32_t)(uintptr_t)acc[i].row.op;
    rows[i].name = kn == RLI_NONE ? (by_op ? "(no op)" : "") : t->str[kn];
    rows[i].op = ko == RLI_NONE ? "" : t->str[ko];
    rows[i].family = by_op ? "" : rli_kernel_family(rows[i].name);
    if (acc[i].note) rows[i].note = t->str[acc[i].note - 1];
  }
  qsort(rows, nacc, sizeof *rows, cmp_rows);
  free(acc);
  free(map);
  *out = rows;
  *nout = (int32_t)nacc;
  return RL_OK;
}

/* Find or add the group (a, b, c) in (g, ng) through the map. */
static group *group_at(group **g, size_t *ng, size_t *capg, tmap *m, uint32_t name, uint32_t op,
                       uint32_t cost, uint32_t launch) {
  if ((*ng + 1) * 2 > m->cap) {
    size_t nc = m->cap ? m->cap * 2 : 256;
    uint32_t *s = malloc(sizeof *s * nc);
    if (!s) return NULL;
    memset(s, 0xff, sizeof *s * nc);
    for (size_t i = 0; i < *ng; i++) {
      size_t h = (size_t)(key3((*g)[i].name, (*g)[i].op, (*g)[i].cost) ^ (*g)[i].launch) & (nc - 1);
      while (s[h] != RLI_NONE) h = (h + 1) & (nc - 1);
      s[h] = (uint32_t)i;
    }
    free(m->slot);
    m->slot = s;
    m->cap = nc;
  }
  size_t h = (size_t)(key3(name, op, cost) ^ launch) & (m->cap - 1);
  while (m->slot[h] != RLI_NONE) {
    group *x = &(*g)[m->slot[h]];
    if (x->name == name && x->op == op && x->cost == cost && x->launch == launch) return x;
    h = (h + 1) & (m->cap - 1);
  }
  if (!rli_grow((void **)g, sizeof **g, *ng + 1, capg)) return NULL;
  group *x = &(*g)[*ng];
  memset(x, 0, sizeof *x);
  x->name = name;
  x->op = op;
  x->cost = cost;
  x->launch = launch;
  m->slot[h] = (uint32_t)(*ng)++;
  return x;
}

static int cmp_coll(const void *pa, const void *pb) {
  const rl_trace_coll *a = pa, *b = pb;
  if (a->time_s != b->time_s) return a->time_s < b->time_s ? 1 : -1;
  if (a->msg_bytes != b->msg_bytes) return a->msg_bytes < b->msg_bytes ? 1 : -1;
  return strcmp(a->name, b->name);
}

static int cmp_uncov(const void *pa, const void *pb) {
  const rl_trace_uncovered *a = pa, *b = pb;
  if (a->time_s != b->time_s) return a->time_s < b->time_s ? 1 : -1;
  return a->reason - b->reason;
}

/* The cost a kernel is counted under for its regime and the collectives:
 * its op instance's, else its own, else `nolink`'s. */
static uint32_t kernel_rc(const rl_trace *t, const rli_kernel *k, uint32_t nolink) {
  int has_inst = k->inst != RLI_NONE && k->inst < t->ninst && k->cost == RLI_NONE;
  return has_inst ? t->inst[k->inst].cost : k->cost != RLI_NONE ? k->cost : nolink;
}

/* The collectives table: the kernels whose cost is a collective, grouped
 * by that cost (kind, S, n). */
static rl_status build_colls(rl_trace *t, const rl_hw *hw, uint32_t nolink, double floor_s,
                              rl_error *err) {
  int64_t *cnt = calloc(t->ncost + 1, sizeof *cnt);
  double *tm = calloc(t->ncost + 1, sizeof *tm);
  if (!cnt || !tm) {
    free(cnt);
    free(tm);
    return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
  }
  size_t nc = 0;
  for (size_t i = 0; i < t->nk; i++) {
    rli_kernel k;
    kget(t, i, &k);
    uint32_t c = kernel_rc(t, &k, nolink);
    if (c >= t->ncost || t->cost[c].roof != RLI_ROOF_NET || k.dur_s < 0) continue;
    if (!cnt[c]++) nc++;
    tm[c] += k.dur_s;
  }
  t->colls = calloc(nc ? nc : 1, sizeof *t->colls);
  if (!t->colls) {
    free(cnt);
    free(tm);
    return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
  }
  double link = hw->interconnect_bw / 2;
  for (uint32_t c = 0; c < t->ncost; c++) {
    if (!cnt[c]) continue;
    const rli_cost *k = &t->cost[c];
    rl_trace_coll *o = &t->colls[t->ncolls++];
    o->name = rli_coll_name(k->coll);
    o->dtype = k->dtype >= 0 ? rl_dtype_name(k->dtype) : "";
    double n = coll_n(t, k), S = k->bytes >= 0 && n >= 1 ? coll_S(t, k) : -1;
    if (!k->per_rank && k->bytes >= 0) S = k->bytes;
    o->ranks = (int32_t)n;
    o->ranks_guess = k->ranks == 0 && n >= 1;
    o->count = cnt[c];
    o->msg_bytes = S;
    o->time_s = tm[c];
    if (S >= 0 && tm[c] > 0) {
      o->algbw = (double)cnt[c] * S / tm[c];
      o->busbw = n >= 1 ? o->algbw * rli_coll_factor(k->coll, n) : 0;
    }
    o->link_bw = link > 0 ? link : 0;
    if (link > 0 && S >= 0 && n >= 1) {
      o->roof_fraction = o->busbw / link;
      /* at the link's roof, but no call below the floor */
      double per = S * rli_coll_factor(k->coll, n) / link;
      o->gain_s = fmax(0, tm[c] - (double)cnt[c] * fmax(per, floor_s));
    }
  }
  qsort(t->colls, (size_t)t->ncolls, sizeof *t->colls, cmp_coll);
  free(cnt);
  free(tm);
  return RL_OK;
}

const rl_trace_coll *rl_trace_colls(const rl_trace *t, int32_t *n) {
  if (n) *n = t ? t->ncolls : 0;
  return t ? t->colls : NULL;
}

/* ---- fusion candidates ---------------------------------------------------
 * A kernel is small when it is overhead-bound (its bound time is below the
 * floor) or shorter than the floor. Runs of two or more consecutive small
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

/* (on the decoded kernels: kwide) */
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
static rl_status find_fusions(rl_trace *t, const int8_t *regime, uint32_t nregime,
                              double floor_s, const int32_t *devs, size_t ndevs, double *total,
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
    o = kwide(t) ? malloc(sizeof *o * (t->nk ? t->nk : 1)) : NULL;
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
                  (k->dur_s < floor_s || (rc < nregime && regime[rc] == RL_BOUND_OVERHEAD));
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

rl_status rl_trace_analyze(rl_trace *t, const rl_hw *hw, rl_trace_summary *out,
                           rl_error *err) {
  if (!t || !hw || !out) return rli_fail(err, RL_EINVAL, "no trace or no device");
  if (t->nk == 0) return rli_fail(err, RL_EPARSE, "the trace holds no GPU kernels");
  if (t->kfail) return rli_fail(err, RL_ENOMEM, "out of memory after %zu kernels", t->nk);
  free_analysis(t);
  memset(out, 0, sizeof *out);
  rl_status tst = tidy_timeline(t, &out->overlapping, &out->overlap_s, err);
  if (tst) return tst;
  out->duplicates = t->dups;
  out->duplicate_s = t->dup_s;
  out->ends_before_start = t->backwards;
  out->launch_overhead_s = t->overhead;
  out->no_shapes = t->no_shapes;
  out->floor_s = t->overhead;
  out->floor_source = t->overhead_given ? "the launch overhead given (--overhead)"
                                        : "the default launch overhead (He 2022: a few us)";
  if (t->no_timeline && !t->overhead_given) {
    /* ncu times each kernel alone: its floor is the shortest launch of the
     * export (measured at the profiled clock), at most the overhead */
    double shortest = -1;
    for (size_t i = 0; i < t->nk; i++)
      if (kat(t, i)->dur_s > 0 && (shortest < 0 || kat(t, i)->dur_s < shortest)) shortest = kat(t, i)->dur_s;
    if (shortest > 0 && shortest < out->floor_s) {
      out->floor_s = shortest;
      out->floor_source = "the shortest launch in the export (measured by Nsight Compute)";
    }
  }
  double floor_s = out->floor_s;
  double factor = tensor_factor(t, hw);
  rl_status st = RL_OK;
  uint32_t shared = rli_trace_cost_why(t, "its op launched several kernels: the op's F and Q "
                                         "are on the op's row, not split between them");
  uint32_t nolink = rli_trace_cost_reason(t, RL_REASON_NO_OP, "no launching op is known for it");
  uint32_t prewin = why_text(t, "(kernels launched before the profiling window)");
  int64_t *inst_n = calloc(t->ninst ? t->ninst : 1, sizeof *inst_n);
  double *inst_t = calloc(t->ninst ? t->ninst : 1, sizeof *inst_t);
  int64_t *inst_timed = calloc(t->ninst ? t->ninst : 1, sizeof *inst_timed);
  uint32_t *iv = NULL; /* timed kernels by (start, end), when not in order */
  int32_t *devs = NULL;
  size_t ndevs = 0, capdevs = 0;
  /* per cost: the regime an execution of it is in, and why it is unknown */
  int8_t *regime = malloc(t->ncost + 2);
  int8_t *reason = malloc(t->ncost + 2);
  double unc[RL_REASON_COUNT] = {0};
  group *kg = NULL, *og = NULL;
  size_t nkg = 0, nog = 0, capk = 0, capo = 0;
  tmap km = {NULL, 0}, om = {NULL, 0};
  if (!inst_n || !inst_t || !inst_timed || !regime || !reason ||
      shared == RLI_NONE || nolink == RLI_NONE || prewin == RLI_NONE) {
    st = rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
    goto done;
  }
  uint32_t nregime = t->ncost;
  for (uint32_t c = 0; c < nregime; c++) {
    cost_eval e;
    eval_cost(t, hw, &t->cost[c], factor, &e);
    regime[c] = (int8_t)(!e.known ? -1
                         : (floor_s > 0 && e.bound_t < floor_s) ? RL_BOUND_OVERHEAD
                         : t->cost[c].roof == RLI_ROOF_NET ? RL_BOUND_NETWORK
                         : e.compute_t >= e.memory_t ? RL_BOUND_COMPUTE
                                                     : RL_BOUND_MEMORY);
    reason[c] = (int8_t)(e.known ? -1 : e.reason >= 0 && e.reason < RL_REASON_COUNT
                                            ? e.reason : RL_REASON_OTHER);
  }
  /* a kernel with its own cost (counters, a collective's size) is its own
   * op instance */
  for (size_t i = 0; i < t->nk; i++) {
    const kst *k = kat(t, i);
    if (k->inst != RLI_NONE && k->inst < t->ninst && k->cost == RLI_NONE) {
      inst_n[k->inst]++;
      if (k->dur_s >= 0) {
        inst_t[k->inst] += k->dur_s;
        inst_timed[k->inst]++;
      }
      t->inst[k->inst].op = (uint32_t)t->nop.key[k->no];
    }
  }
  size_t niv = 0;
  int in_order = 1; /* the timed kernels come by start */
  int many_devs = 0;
  double prev_s = 0;
  /* ncu: one row per launch (each has its own counters, grid and clock) */
  int per_launch = t->nlaunch == t->nk && t->nk < RLI_NONE;
  for (size_t i = 0; i < t->nk; i++) {
    rli_kernel kk, *k = &kk;
    kget(t, i, k);
    int has_inst = k->inst != RLI_NONE && k->inst < t->ninst && k->cost == RLI_NONE;
    /* a kernel of a multi-kernel op: the op's F and Q stay on the op's
     * row; an op without F and Q lends its kernels its reason */
    uint32_t ic = has_inst ? t->inst[k->inst].cost : RLI_NONE;
    uint32_t cost = k->cost != RLI_NONE ? k->cost
                    : has_inst ? (inst_n[k->inst] == 1 || ic >= t->ncost || regime[ic] < 0 ? ic
                                                                                         : shared)
                               : nolink;
    uint32_t rc = kernel_rc(t, k, nolink);
    /* kernels launched before the window: one row, said as such */
    uint32_t gname = cost < t->ncost && regime[cost] < 0 && reason[cost] == RL_REASON_PRE_WINDOW
                         ? prewin : k->name;
    group *x = group_at(&kg, &nkg, &capk, &km, gname, k->op, cost,
                        per_launch ? (uint32_t)i : RLI_NONE);
    if (!x) { st = rli_fail(err, RL_ENOMEM, "out of memory in the analysis"); goto done; }
    x->count++;
    x->kernels++;
    if (k->kind == RLI_K_KERNEL) out->kernels++;
    else out->copies++;
    int coll = rc < t->ncost && t->cost[rc].roof == RLI_ROOF_NET;
    if (coll) out->collectives++;
    if (k->dur_s >= 0) {
      x->time += k->dur_s;
      x->timed++;
      out->gpu_time_s += k->dur_s;
      if (k->kind != RLI_K_KERNEL) out->copy_s += k->dur_s;
      if (coll) out->collective_s += k->dur_s;
      out->has_time = 1;
      if (niv && k->start_s < prev_s) in_order = 0;
      prev_s = k->start_s;
      niv++;
      if (!many_devs && !dev_add(&devs, &ndevs, &capdevs, k->device)) many_devs = 1;
      int r = rc < t->ncost ? regime[rc] : -1;
      if (r >= 0) out->covered_s += k->dur_s;
      else unc[rc < t->ncost ? reason[rc] : RL_REASON_OTHER] += k->dur_s;
      if (k->dur_s < floor_s) r = -2;
      if (r == -2) { out->short_s += k->dur_s; out->overhead_s += k->dur_s; }
      else if (r == RL_BOUND_OVERHEAD) out->overhead_s += k->dur_s;
      else if (r == RL_BOUND_COMPUTE) out->compute_s += k->dur_s;
      else if (r == RL_BOUND_MEMORY) out->memory_s += k->dur_s;
      else if (r == RL_BOUND_NETWORK) out->network_s += k->dur_s;
      else out->unknown_s += k->dur_s;
    }
    if (!has_inst) {
      /* copies are their own ops: the op that asked for one (copy_, a
       * backward op's memset) has its own row for its kernels */
      group *y = group_at(&og, &nog, &capo, &om, k->kind != RLI_K_KERNEL ? k->name : k->op,
                          RLI_NONE, k->cost != RLI_NONE ? k->cost : nolink, RLI_NONE);
      if (!y) { st = rli_fail(err, RL_ENOMEM, "out of memory in the analysis"); goto done; }
      y->count++;
      y->kernels++;
      if (k->dur_s >= 0) { y->time += k->dur_s; y->timed++; }
    }
  }
  out->coverage = out->gpu_time_s > 0 ? out->covered_s / out->gpu_time_s : 0;
  for (int r = 0; r < RL_REASON_COUNT; r++)
    if (unc[r] > 0) {
      out->uncovered[out->n_uncovered].reason = r;
      out->uncovered[out->n_uncovered++].time_s = unc[r];
    }
  qsort(out->uncovered, (size_t)out->n_uncovered, sizeof out->uncovered[0], cmp_uncov);
  for (uint32_t i = 0; i < t->ninst; i++) {
    if (!inst_n[i]) continue;
    group *y = group_at(&og, &nog, &capo, &om, t->inst[i].op, RLI_NONE, t->inst[i].cost, RLI_NONE);
    if (!y) { st = rli_fail(err, RL_ENOMEM, "out of memory in the analysis"); goto done; }
    y->count++;
    y->kernels += inst_n[i];
    y->time += inst_t[i];
    y->timed += inst_timed[i];
  }
  /* the devices: distinct ids among the timed kernels */
  if (many_devs) {
    free(devs);
    devs = malloc(sizeof *devs * (niv ? niv : 1));
    if (!devs) { st = rli_fail(err, RL_ENOMEM, "out of memory in the analysis"); goto done; }
    ndevs = 0;
    for (size_t i = 0; i < t->nk; i++)
      if (kat(t, i)->dur_s >= 0) devs[ndevs++] = (int32_t)(uint32_t)(t->dsk.key[kat(t, i)->dsk] >> 32);
    qsort(devs, ndevs, sizeof *devs, cmp_i32);
    size_t w = 0;
    for (size_t i = 0; i < ndevs; i++)
      if (i == 0 || devs[i] != devs[i - 1]) devs[w++] = devs[i];
    ndevs = w;
  }
  out->devices = (int32_t)ndevs;
  /* busy time: the union of the kernel intervals of all devices (the time
   * some GPU of the trace was busy), so busy + idle = span; in start order
   * (any order of equal starts gives the same union), through an index
   * sorted by (start, end) when the kernels do not come so */
  if (!in_order) {
    iv = kwide(t) ? malloc(sizeof *iv * niv) : NULL;
    if (!iv) { st = rli_fail(err, RL_ENOMEM, "out of memory in the analysis"); goto done; }
    size_t n = 0;
    for (size_t i = 0; i < t->nk; i++)
      if (t->kw[i].dur_s >= 0) iv[n++] = (uint32_t)i;
    if (!rli_sort_idx(iv, niv, cmp_ivl_idx, t)) {
      st = rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
      goto done;
    }
  }
  double first = 0, last = 0;
  if (niv) {
    double cs = 0, ce = 0;
    size_t j = 0;
    for (size_t i = 0; i < (iv ? niv : t->nk); i++) {
      const kst *k = kat(t, iv ? iv[i] : i);
      if (k->dur_s < 0) continue;
      double ks = k->start_s, ke = k->start_s + k->dur_s;
      if (j++ == 0) {
        first = cs = ks;
        ce = ke;
      } else if (ks > ce) {
        out->busy_s += ce - cs;
        cs = ks;
        ce = ke;
      } else if (ke > ce) {
        ce = ke;
      }
    }
    out->busy_s += ce - cs;
    last = ce;
  }
  out->span_s = last - first;
  if (out->busy_s > out->span_s) out->busy_s = out->span_s; /* rounding only */
  out->idle_s = out->span_s - out->busy_s;
  out->busy_share = out->span_s > 0 ? out->busy_s / out->span_s : 0;
  out->has_span = out->has_time && !t->no_timeline;
  if (out->has_span) {
    out->overhead_s += out->idle_s;
  } else {
    out->span_s = out->busy_s = out->idle_s = out->busy_share = 0;
  }
  /* rows */
  st = build_rows(t, hw, factor, floor_s, kg, nkg, 0, &t->rows[0], &t->nrows[0], err);
  if (st == RL_OK)
    st = build_rows(t, hw, factor, floor_s, og, nog, 1, &t->rows[1], &t->nrows[1], err);
  if (st == RL_OK) st = build_colls(t, hw, nolink, floor_s, err);
  if (st == RL_OK)
    for (int32_t i = 0; i < t->nrows[0]; i++)
      if (t->rows[0][i].has_cost && t->rows[0][i].has_time) out->gain_s += t->rows[0][i].gain_s;
  if (st == RL_OK)
    st = find_fusions(t, regime, nregime, floor_s, devs, ndevs, &out->fusion_s, err);
done:
  kwide_free(t);
  if (st == RL_OK && t->kfail) st = rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
  free(inst_n);
  free(inst_t);
  free(inst_timed);
  free(iv);
  free(devs);
  free(regime);
  free(reason);
  free(kg);
  free(og);
  free(km.slot);
  free(om.slot);
  return st;
}

const rl_trace_fusion *rl_trace_fusions(const rl_trace *t, int32_t *n) {
  if (n) *n = t ? t->nfusion : 0;
  return t ? t->fusion : NULL;
}

const rl_trace_row *rl_trace_rows(const rl_trace *t, int32_t group_by, int32_t *n) {
  if (n) *n = 0;
  if (!t || group_by < 0 || group_by > 1) return NULL;
  if (n) *n = t->nrows[group_by];
  return t->rows[group_by];
}

/* ---- JSON ------------------------------------------------------------------ */
static void num_or_null(rli_out *o, const char *key, int known, double v) {
  rli_out_printf(o, ",\"%s\":", key);
  if (known && isfinite(v)) rli_out_num(o, v);
  else rli_out_puts(o, "null");
}

static void rows_json(rli_out *o, const rl_trace_row *rows, int32_t n, int32_t top) {
  if (top > 0 && n > top) n = top;
  for (int32_t i = 0; i < n; i++) {
    const rl_trace_row *r = &rows[i];
    rli_out_puts(o, i ? ",{\"name\":" : "{\"name\":");
    rli_out_str(o, r->name);
    rli_out_puts(o, ",\"op\":");
    rli_out_str(o, r->op);
    rli_out_printf(o, ",\"count\":%lld,\"kernels\":%lld", (long long)r->count, (long long)r->kernels);
    num_or_null(o, "measured_s", r->has_time, r->time_s);
    num_or_null(o, "flops", r->has_cost || r->flops > 0, r->flops);
    num_or_null(o, "bytes", r->has_cost, r->bytes);
    num_or_null(o, "intensity", r->has_cost && r->bytes > 0, r->intensity);
    rli_out_puts(o, ",\"bound\":");
    if (r->bound >= 0) rli_out_str(o, rl_bound_name(r->bound));
    else rli_out_puts(o, "null");
    rli_out_puts(o, ",\"peak_kind\":");
    if (r->peak_kind >= 0) rli_out_str(o, rl_peak_name(r->peak_kind));
    else rli_out_puts(o, "null");
    num_or_null(o, "time_s", r->has_cost, r->bound_time_s);
    num_or_null(o, "roof_fraction", r->has_cost && r->has_time, r->roof_fraction);
    num_or_null(o, "at_roof_s", r->has_cost, r->at_roof_s);
    num_or_null(o, "gain_s", r->has_cost && r->has_time, r->gain_s);
    /* faster than its roof (roof_fraction > 1, a negative gain) contradicts
     * the model: wrong hardware, wrong shapes or a timer problem */
    rli_out_printf(o, ",\"above_roof\":%s", r->has_cost && r->has_time && r->roof_fraction > 1 ? "true" : "false");
    rli_out_printf(o, ",\"measured\":%s", r->measured ? "true" : "false");
    rli_out_puts(o, ",\"dtype\":");
    if (r->dtype >= 0 && r->roof == RL_TRACE_ROOF_CHIP) rli_out_str(o, rl_dtype_name(r->dtype));
    else rli_out_puts(o, "null");
    rli_out_puts(o, ",\"roof\":");
    rli_out_str(o, rl_trace_roof_name(r->roof));
    if (r->family && r->family[0]) {
      rli_out_puts(o, ",\"family\":");
      rli_out_str(o, r->family);
    }
    if (r->reason >= 0) {
      rli_out_puts(o, ",\"reason\":");
      rli_out_str(o, rl_trace_reason_name(r->reason));
    }
    if (r->launch_id >= 0) {
      rli_out_printf(o, ",\"launch_id\":%lld", (long long)r->launch_id);
      num_or_null(o, "l1_bytes", r->l1_bytes >= 0, r->l1_bytes);
      num_or_null(o, "l2_bytes", r->l2_bytes >= 0, r->l2_bytes);
      num_or_null(o, "dram_bytes", r->dram_bytes >= 0, r->dram_bytes);
      num_or_null(o, "l1_intensity", r->l1_intensity >= 0, r->l1_intensity);
      num_or_null(o, "l2_intensity", r->l2_intensity >= 0, r->l2_intensity);
      num_or_null(o, "dram_intensity", r->dram_intensity >= 0, r->dram_intensity);
      num_or_null(o, "l1_bandwidth", r->l1_bw > 0, r->l1_bw);
      num_or_null(o, "l2_bandwidth", r->l2_bw > 0, r->l2_bw);
      num_or_null(o, "dram_bandwidth", r->dram_bw > 0, r->dram_bw);
      num_or_null(o, "compute_peak", r->compute_peak > 0, r->compute_peak);
      rli_out_puts(o, ",\"binding_level\":");
      if (r->binding_level >= 0) rli_out_str(o, rl_level_name(r->binding_level));
      else rli_out_puts(o, "null");
      int fr = r->binding_level >= 0 || r->compute_fraction > 0;
      num_or_null(o, "binding_fraction", fr, r->binding_fraction);
      num_or_null(o, "compute_fraction", fr, r->compute_fraction);
      num_or_null(o, "memory_fraction", fr && r->binding_level >= 0, r->memory_fraction);
      num_or_null(o, "sol_compute", r->sol_compute >= 0, r->sol_compute);
      num_or_null(o, "sol_memory", r->sol_memory >= 0, r->sol_memory);
      rli_out_printf(o, ",\"sol_disagree\":%s", r->sol_disagree ? "true" : "false");
      num_or_null(o, "occupancy_theoretical", r->occupancy_theoretical >= 0, r->occupancy_theoretical);
      num_or_null(o, "occupancy_achieved", r->occupancy_achieved >= 0, r->occupancy_achieved);
      num_or_null(o, "waves_per_sm", r->waves >= 0, r->waves);
      rli_out_printf(o, ",\"tail_effect\":%s", r->tail ? "true" : "false");
      rli_out_puts(o, ",\"flops_source\":");
      if (r->flops_source) rli_out_str(o, r->flops_source);
      else rli_out_puts(o, "null");
    }
    if (r->note) {
      rli_out_puts(o, ",\"note\":");
      rli_out_str(o, r->note);
    }
    if (r->why) {
      rli_out_puts(o, ",\"why\":");
      rli_out_str(o, r->why);
    }
    rli_out_puts(o, "}");
  }
}

size_t rl_trace_json(const rl_trace *t, const rl_hw *hw, const rl_trace_summary *s,
                     int32_t top, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  if (!t || !s) return rli_out_end(&o);
  rli_out_puts(&o, "{\"format\":");
  rli_out_str(&o, t->format);
  rli_out_puts(&o, ",\"device\":");
  if (t->device[0]) rli_out_str(&o, t->device);
  else rli_out_puts(&o, "null");
  rli_out_puts(&o, ",\"hw\":");
  if (hw) rli_out_str(&o, hw->id);
  else rli_out_puts(&o, "null");
  rli_out_printf(&o, ",\"kernels\":%lld", (long long)s->kernels);
  int ht = s->has_time;
  num_or_null(&o, "gpu_time_s", ht, s->gpu_time_s);
  num_or_null(&o, "span_s", s->has_span, s->span_s);
  num_or_null(&o, "idle_s", s->has_span, s->idle_s);
  num_or_null(&o, "busy_s", s->has_span, s->busy_s);
  num_or_null(&o, "busy_share", s->has_span, s->busy_share);
  /* what the timeline's repairs merged or dropped (tidy_timeline) */
  rli_out_printf(&o, ",\"devices\":%d,\"duplicates_dropped\":%lld", (int)s->devices,
                 (long long)s->duplicates);
  num_or_null(&o, "duplicate_s", 1, s->duplicate_s);
  rli_out_printf(&o, ",\"overlapping_merged\":%lld", (long long)s->overlapping);
  num_or_null(&o, "overlap_s", 1, s->overlap_s);
  rli_out_printf(&o, ",\"ends_before_start_dropped\":%lld", (long long)s->ends_before_start);
  num_or_null(&o, "compute_s", ht, s->compute_s);
  num_or_null(&o, "memory_s", ht, s->memory_s);
  num_or_null(&o, "overhead_s", ht, s->overhead_s);
  num_or_null(&o, "short_s", ht, s->short_s);
  num_or_null(&o, "unknown_s", ht, s->unknown_s);
  num_or_null(&o, "gain_s", ht, s->gain_s);
  num_or_null(&o, "fusion_s", ht, s->fusion_s);
  num_or_null(&o, "launch_overhead_s", 1, s->launch_overhead_s);
  num_or_null(&o, "covered_s", ht, s->covered_s);
  num_or_null(&o, "coverage", ht, s->coverage);
  rli_out_puts(&o, ",\"uncovered\":[");
  for (int32_t i = 0; i < s->n_uncovered; i++) {
    rli_out_puts(&o, i ? ",{\"reason\":" : "{\"reason\":");
    rli_out_str(&o, rl_trace_reason_name(s->uncovered[i].reason));
    num_or_null(&o, "measured_s", 1, s->uncovered[i].time_s);
    rli_out_puts(&o, "}");
  }
  rli_out_printf(&o, "],\"shapes_recorded\":%s", s->no_shapes ? "false" : "true");
  rli_out_printf(&o, ",\"copies\":%lld", (long long)s->copies);
  num_or_null(&o, "copy_s", ht, s->copy_s);
  rli_out_printf(&o, ",\"collective_kernels\":%lld", (long long)s->collectives);
  num_or_null(&o, "collective_s", ht, s->collective_s);
  num_or_null(&o, "network_s", ht, s->network_s);
  num_or_null(&o, "floor_s", 1, s->floor_s);
  rli_out_puts(&o, ",\"floor_source\":");
  rli_out_str(&o, s->floor_source ? s->floor_source : "");
  rli_out_printf(&o, ",\"unlinked\":%lld", (long long)t->unlinked);
  rli_out_printf(&o, ",\"rows_total\":%d,\"rows\":[", (int)t->nrows[0]);
  rows_json(&o, t->rows[0], t->nrows[0], top);
  rli_out_printf(&o, "],\"ops_total\":%d,\"ops\":[", (int)t->nrows[1]);
  rows_json(&o, t->rows[1], t->nrows[1], top);
  rli_out_printf(&o, "],\"collectives_total\":%d,\"collectives\":[", (int)t->ncolls);
  int32_t nc = top > 0 && t->ncolls > top ? top : t->ncolls;
  for (int32_t i = 0; i < nc; i++) {
    const rl_trace_coll *c = &t->colls[i];
    rli_out_puts(&o, i ? ",{\"name\":" : "{\"name\":");
    rli_out_str(&o, c->name);
    rli_out_puts(&o, ",\"dtype\":");
    if (c->dtype[0]) rli_out_str(&o, c->dtype);
    else rli_out_puts(&o, "null");
    rli_out_printf(&o, ",\"ranks\":%d,\"ranks_guess\":%s,\"count\":%lld", (int)c->ranks,
                   c->ranks_guess ? "true" : "false", (long long)c->count);
    int known = c->msg_bytes >= 0, bw = known && c->ranks >= 1;
    num_or_null(&o, "msg_bytes", known, c->msg_bytes);
    num_or_null(&o, "measured_s", 1, c->time_s);
    num_or_null(&o, "algbw", known && c->time_s > 0, c->algbw);
    num_or_null(&o, "busbw", bw && c->time_s > 0, c->busbw);
    num_or_null(&o, "link_bw", c->link_bw > 0, c->link_bw);
    num_or_null(&o, "roof_fraction", bw && c->link_bw > 0, c->roof_fraction);
    num_or_null(&o, "gain_s", bw && c->link_bw > 0, c->gain_s);
    rli_out_puts(&o, "}");
  }
  rli_out_puts(&o, "]");
  rli_out_printf(&o, ",\"fusion_total\":%d,\"fusion\":[", (int)t->nfusion);
  int32_t nf = top > 0 && t->nfusion > top ? top : t->nfusion;
  for (int32_t i = 0; i < nf; i++) {
    const rl_trace_fusion *f = &t->fusion[i];
    rli_out_puts(&o, i ? ",{\"name\":" : "{\"name\":");
    rli_out_str(&o, f->name);
    rli_out_printf(&o, ",\"by\":\"%s\",\"runs\":%lld,\"kernels\":%lld", f->by_op == 2 ? "module" : f->by_op ? "op" : "kernel",
                   (long long)f->runs, (long long)f->kernels);
    num_or_null(&o, "measured_s", 1, f->time_s);
    num_or_null(&o, "saving_s", 1, f->saving_s);
    rli_out_puts(&o, "}");
  }
  rli_out_puts(&o, "]}");
  return rli_out_end(&o);
}
