/*
 * trace_impl.h -- the inside of the trace model (struct rl_trace and the
 * kernel store's records), shared by the files of src/core that make the
 * model and by no one else: the readers in src/io see it through
 * trace_internal.h only. What each file holds:
 *   trace.c           the model's life and the facts of its file
 *   trace_pool.c      the string pool (interned, cleaned names)
 *   trace_cost.c      the cost table (interned rli_cost) and op instances
 *   trace_store.c     the kernel store: blocks, the one-block cache (kat)
 *   trace_pack.c      the packed encoding of one kernel in a block
 *   trace_timeline.c  the timeline's repairs (duplicates, overlaps)
 *   trace_hier.c      the hierarchical roofline of one ncu launch
 *   trace_fusion.c    the fusion candidates
 *   trace_graph.c     CUDA-graph replays matched to their capture
 *   trace_analyze.c   the analysis: regimes, rows, collectives, totals
 *   trace_json.c      the JSON record of an analysis
 * Prefix rli_ for what links across these files; the small helpers are
 * static inline here.
 */
#ifndef RL_TRACE_IMPL_H
#define RL_TRACE_IMPL_H

#include "core/trace_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A capture (trace_graph.c): its launches gl[first .. first + n - 1]. */
typedef struct rli_gcapture {
  size_t first, n;
  int64_t pid;
  int external, unnamed;
} rli_gcapture;

typedef struct inst_rec {
  uint32_t cost, op;
  uint32_t module; /* innermost nn.Module around it; RLI_NONE */
} inst_rec;

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

#define KENC_MAX 64 /* bytes of one kernel at most: 1 + 4 x 5 + 2 x 10 + 16 */

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
  int32_t sms, warp; /* the device's SMs (CUs) and warp size; 0 unknown */
  double dram_max;   /* the highest DRAM rate a kernel was measured at, B/s; 0 none */
  int64_t dram_max_launch;
  char dram_max_kernel[48];
  int64_t events, unlinked;
  int no_timeline;
  /* CPU traces (the CPU ops of a PyTorch profile as the kernels) */
  int32_t cpu_mode;    /* rl_trace_set_cpu: 1 the CPU ops even with GPU kernels */
  int32_t cpu;         /* 1: the kernels are CPU ops */
  int32_t threads;     /* intra-op threads (file or rl_trace_set_threads); 0 */
  int32_t threads_given;
  char cpu_model[80];  /* the processor the file names; "" */
  char cpu_vendor[16]; /* its CPUID vendor ("AuthenticAMD"); "" */
  int32_t cpu_family, cpu_model_id; /* its CPUID family and model; -1 */
  /* the model the trace ran (rl_trace_set_model): MoE ops' experts */
  rli_moe moe;
  char model_id[RL_MODEL_ID_MAX];
  /* the timeline's repairs: streams by id, kernels dropped */
  int64_t *streams; /* raw id of stream id i + 1 */
  uint32_t nstreams, capstreams;
  uint32_t *stmap;
  uint32_t stcap;
  int64_t dups, backwards; /* duplicates (rli_trace_tidy_timeline), ends before start */
  int64_t zero_dur;        /* durations under 1 ps read: kept untimed (rli_trace_add) */
  double dup_s;
  /* CUDA-graph captures (trace_graph.c) and the replays matched */
  rli_glaunch *gl;
  size_t ngl, capgl;
  rli_gcapture *gcap;
  size_t ngcap, capgcap;
  char gsource[256];
  int64_t graph_matched, graph_unmatched, graph_unreplayed;
  /* last analysis */
  int32_t no_shapes, world;
  rl_trace_row *rows[2];
  int32_t nrows[2];
  rl_trace_coll *colls;
  int32_t ncolls;
  rl_trace_fusion *fusion;
  int32_t nfusion;
  rl_trace_idle idle; /* the GPU's idle time: the biggest gaps */
  int idle_done;      /* idle holds the last analysis' */
  /* host ops (rli_trace_host_op): the outermost op on its thread, for the
   * ops during the idle gaps */
  rli_host_op *hop;
  size_t nhop, caphop;
  char **whybuf; /* texts made during analysis */
  size_t nwhy;
};

/* ---- the string pool (trace_pool.c) ------------------------------------ */
/* Copy s, replacing bytes that are not valid UTF-8 by '?' and control
 * characters by spaces, so that every name prints as valid JSON and text. */
void rli_copy_clean(char *d, const char *s, size_t n);
static inline uint32_t why_text(rl_trace *t, const char *s) {
  return rli_trace_str(t, s, strlen(s));
}

/* ---- costs (trace_cost.c) ---------------------------------------------- */
/* A collective's group size and message size S: n recorded, else the
 * world size (guess); S = n x bytes when bytes is one rank's share. */
static inline double coll_n(const rl_trace *t, const rli_cost *c) {
  return c->ranks > 0 ? c->ranks : t->world;
}
static inline double coll_S(const rl_trace *t, const rli_cost *c) {
  return c->per_rank ? c->bytes * coll_n(t, c) : c->bytes;
}

/* ---- the packed encoding (trace_pack.c) ------------------------------- */
void rli_kenc_reset(kenc *e);
/* Encode k after the state e (the kernel before it in its block) into p;
 * returns the end. */
uint8_t *rli_kenc_one(kenc *e, double origin, const kst *k, uint8_t *p);
/* Decode the kernel at p after the state e into k; returns the end. */
const uint8_t *rli_kdec_one(kenc *e, double origin, const uint8_t *p, kst *k);

/* ---- the kernel store (trace_store.c) ---------------------------------- */
/* Kernel i, decoded (valid until the next call for another block). */
kst *rli_kat_load(rl_trace *t, size_t i);
static inline kst *kat(rl_trace *t, size_t i) {
  if (!t->kw && (i >> KB_SHIFT) == t->kcb) return &t->kc[i & (KB_N - 1)];
  return rli_kat_load(t, i);
}

/* The kernel i as readers and the analysis see it. */
static inline void kdec(const rl_trace *t, const kst *o, rli_kernel *k) {
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

static inline void kget(rl_trace *t, size_t i, rli_kernel *k) { kdec(t, kat(t, i), k); }

/* Every kernel decoded (t->kw), for the analysis' sorted-index fallbacks;
 * 0: out of memory. */
int rli_kwide(rl_trace *t);
static inline void kwide_free(rl_trace *t) {
  free(t->kw);
  t->kw = NULL;
}

/* The kernel store anew from the kernels not dropped (drop[i]), block by
 * block (each old block freed once read). */
int rli_krebuild(rl_trace *t, const uint8_t *drop);

/* ---- the analysis' parts ---------------------------------------------- */
/* open-addressing map of (a, b, c) triples to an index */
typedef struct tmap {
  uint32_t *slot;
  size_t cap;
} tmap;

static inline uint64_t key3(uint32_t a, uint32_t b, uint32_t c) {
  uint32_t v[3] = {a, b, c};
  return rli_hash(v, sizeof v);
}

/* Free the captures (trace_graph.c). */
void rli_trace_graph_free(rl_trace *t);
/* Free the results of the last analysis (trace_analyze.c). */
void rli_trace_free_analysis(rl_trace *t);
/* Drop duplicates, count overlaps (trace_timeline.c). */
rl_status rli_trace_tidy_timeline(rl_trace *t, int64_t *overlaps, double *overlap_s, rl_error *err);
/* The hierarchical-roofline fields of row o of one ncu launch (trace_hier.c). */
void rli_trace_hier_row(rl_trace *t, const rl_hw *hw, double factor, rl_trace_row *o,
                        const rli_ncu_launch *m, const rli_cost *c);
/* The fusion candidates, t->fusion, and their total saving (trace_fusion.c):
 * runs of kernels shorter than cut_s or overhead-bound; each run leaves one
 * floor_s. */
rl_status rli_trace_find_fusions(rl_trace *t, const int8_t *regime, uint32_t nregime,
                                 double cut_s, double floor_s, const int32_t *devs, size_t ndevs, double *total,
                                 rl_error *err);

#endif
