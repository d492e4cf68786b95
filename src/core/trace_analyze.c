/*
 * trace_analyze.c -- the roofline analysis of a trace (rl_trace_analyze):
 * each kernel's regime, the rows per kernel and per op, the collectives
 * table, the totals (busy, idle, coverage); the results' accessors.
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
#include "core/trace_impl.h"
#include "core/trace_job.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct group {
  uint32_t name, op, cost;
  uint32_t launch;  /* ncu: the kernel's index (one row per launch); RLI_NONE */
  int32_t prec;     /* the format its kernels' names say they ran, -1
                       (rli_kernel_precision) */
  int64_t count, kernels;
  double time;      /* sum of known durations */
  int64_t timed;    /* executions with a duration */
  int64_t untimed;  /* executions with no time at all (a kernel of zero
                       duration; an op instance none of whose kernels has
                       a time) */
} group;

enum { ROW_NOTES = 4 };
typedef struct row_acc {
  rl_trace_row row;
  double known_time, compute_t, memory_t;
  int64_t known_count, unknown_count;
  uint32_t why, note; /* note: 1 + string id, 0 none */
  /* the notes of its groups with F and Q (1 + string id, 0 none), the
   * first ROW_NOTES distinct ones with their calls; note_more: the calls of
   * any other */
  uint32_t notes[ROW_NOTES];
  int64_t note_n[ROW_NOTES], note_more;
  int32_t nnotes;
  int32_t reason;
  uint32_t launch, cost; /* ncu: the launch and its cost; RLI_NONE */
} row_acc;

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

typedef struct cost_eval {
  int known;
  int from_kernel; /* the roof is the kernel name's format, not the op's */
  double flops, bytes, compute_t, memory_t, bound_t; /* per execution */
  int32_t peak_kind;
  uint32_t why;
  int32_t reason;
  int32_t level;   /* CPU traces: the rl_level bounding its bytes; -1 */
  double ws;       /* CPU traces: its working set, B; -1 */
} cost_eval;

/* CPU traces: the time Q bytes with working set W (the distinct bytes one
 * call touches: rli_aten_working_set) take at best on the machine's
 * memory levels -- the cache-aware roofline (Ilic, Pratas and Sousa,
 * "Cache-aware roofline model", IEEE CAL 2014), one roof per level, the
 * op on the roof of the level its working set fits in, as Intel Advisor's
 * CPU roofline places loops. The capacities: L1 and L2 per core times the
 * threads (hw l1_kb, l2_core_kb), the last level shared (l2_mb); the
 * bandwidths measured for that many threads (l1/l2/l3_bandwidth, bandwidth).
 * Level k is the first whose capacity holds W (DRAM past the last); a level
 * without a bandwidth figure lends the nearest faster one's (a lower bound
 * stays one). The bound is a lower bound on the time:
 *   max(Q / B_fast, max(0, W - C_faster) / B_k)
 * every byte moved passes the fastest level with a figure (B_fast, at most
 * the L1's), and of the working set, what the faster levels cannot hold
 * (C_faster: the largest capacity above level k) comes from level k or
 * beyond, at level k's bandwidth at best. (Bounding all of Q by level k's
 * bandwidth, as a plain level choice would, is no bound: the part of an
 * in-place AdamW update that the L2 still holds from the op before ran
 * faster than L3's bandwidth allows, issue 26's truth check.) */
static double cpu_memory_time(const rl_trace *t, const rl_hw *hw, double Q, double W, int32_t *level) {
  double n = t->threads > 0 ? t->threads : 1;
  double C[RL_LEVEL_COUNT] = {hw->l1_bytes * n, 0, 0, 0};
  double B[RL_LEVEL_COUNT] = {hw->l1_bw, hw->l2_bw, hw->l3_bw, hw->mem_bw};
  if (hw->l2_core_bytes > 0) {
    C[RL_LEVEL_L2] = hw->l2_core_bytes * n;
    C[RL_LEVEL_L3] = hw->l2_bytes;
  } else {
    C[RL_LEVEL_L2] = hw->l2_bytes; /* the L2 is the last level */
  }
  if (!(W > 0)) W = Q;
  int32_t k = RL_LEVEL_DRAM;
  for (int32_t i = 0; i < RL_LEVEL_DRAM; i++)
    if (C[i] > 0 && W <= C[i]) { k = i; break; }
  double bk = 0, bfast = 0, cfaster = 0;
  for (int32_t i = k; i >= 0 && !(bk > 0); i--) bk = B[i];
  for (int32_t i = 0; i <= k; i++) if (B[i] > bfast) bfast = B[i];
  for (int32_t i = 0; i < k; i++) if (C[i] > cfaster) cfaster = C[i];
  if (!(bk > 0)) bk = hw->mem_bw;
  if (!(bfast > 0)) bfast = bk;
  *level = k;
  if (!(bk > 0)) return -1;
  return fmax(Q / bfast, fmax(0, W - cfaster) / bk);
}

/* prec >= 0: the format the kernel's name says its tensor cores ran
 * (rli_kernel_precision), whose roof replaces the op dtype's where the
 * device has that peak */
static void eval_cost(rl_trace *t, const rl_hw *hw, const rli_cost *c, double factor,
                      int32_t prec, cost_eval *e) {
  memset(e, 0, sizeof *e);
  e->peak_kind = -1;
  e->level = -1;
  e->ws = -1;
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
  if (F == 0 && c->bytes == 0 && !t->cpu) {
    e->why = why_text(t, "the counters show neither FLOPs nor DRAM bytes");
    return;
  }
  int32_t pk = c->dtype >= 0 ? rl_hw_peak_for(hw, c->dtype, c->tensor) : -1;
  if (t->cpu) {
    /* a CPU op: its FLOPs on its format's peak, its bytes on the roof of
     * the level its working set fits in (cpu_memory_time); no FLOPs (a
     * copy, a dispatcher) need no peak */
    rl_roof cr;
    double peak = pk >= 0 && rl_hw_roof(hw, pk, 0, &cr, NULL) == RL_OK ? cr.peak : 0;
    if (F > 0 && !(peak > 0)) {
      char buf[160];
      snprintf(buf, sizeof buf, "%s has no %s peak", hw->id,
               c->dtype >= 0 ? rl_dtype_name(c->dtype) : "(unknown format)");
      e->why = why_text(t, buf);
      e->reason = RL_REASON_NO_ROOF;
      return;
    }
    int32_t lv = -1;
    double mt = c->bytes > 0 ? cpu_memory_time(t, hw, c->bytes, c->ws, &lv) : 0;
    if (mt < 0) {
      e->why = why_text(t, "no memory bandwidth for it");
      e->reason = RL_REASON_NO_ROOF;
      return;
    }
    e->known = 1;
    e->flops = F;
    e->bytes = c->bytes;
    e->compute_t = F > 0 ? F / peak : 0;
    e->memory_t = mt;
    e->bound_t = fmax(e->compute_t, e->memory_t);
    e->peak_kind = F > 0 ? pk : -1;
    e->level = c->bytes > 0 ? lv : -1;
    e->ws = c->bytes > 0 ? (c->ws > 0 && c->ws < c->bytes ? c->ws : c->bytes) : 0;
    e->why = RLI_NONE;
    e->reason = -1;
    return;
  }
  rl_roof roof;
  if (prec >= 0 && F > 0) {
    int32_t kp = rl_hw_peak_for(hw, prec, 1);
    if (kp >= 0 && rl_hw_roof(hw, kp, 0, &roof, NULL) == RL_OK && roof.peak > 0 &&
        roof.bandwidth > 0) {
      pk = kp;
      e->from_kernel = 1;
    }
  }
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

/* Cache-resident data: a row on its chip roof that ran faster than DRAM
 * allows (roof fraction > 1, memory-bound) is placed on the cache-aware
 * roof -- the roofline of each memory level (Ilic, Pratas and Sousa,
 * "Cache-aware roofline model", IEEE CAL 2014; Yang, Kurth and Williams,
 * "Hierarchical roofline analysis for GPUs", 2020). Every byte a run moves
 * passes through the L2, and at most what the L2 holds (C) can be there
 * when the run starts (a tensor the kernel before it just wrote) and at
 * most C of what it writes can still be there, not yet written back, when
 * it ends; so a run of Q bytes takes at least
 *   max(Q / bw_L2, max(0, Q - 2C) / bw_DRAM)         (cache_floor)
 * and a row of n runs at least max(Q_row / bw_L2, max(0, Q_row - 2Cn) /
 * bw_DRAM) (the sum of the runs' floors is at least that: max(0, .) is
 * convex). Its FLOPs stay against its format's peak. A row whose bytes of
 * one run fit the L2 is placed there; one whose runs are larger is placed
 * there only when the cache explains its time (else it stays on DRAM's roof
 * above 100% and is flagged above_roof like any other). The L2 figures are
 * the database's l2_mb and l2_bandwidth_tbs, with their sources. */
static double cache_floor(const rl_hw *hw, double Q, double n) {
  return fmax(Q / hw->l2_bw, fmax(0, Q - 2 * hw->l2_bytes * n) / hw->mem_bw);
}

static void l2_place(rl_trace *t, const rl_hw *hw, row_acc *r, rl_trace_row *o, double floor_s,
                     double cut_s) {
  if ((o->roof != RL_TRACE_ROOF_CHIP && o->roof != RL_TRACE_ROOF_HBM) || o->launch_id >= 0 ||
      !(hw->l2_bw > hw->mem_bw) ||
      !(hw->l2_bytes > 0) || !(hw->mem_bw > 0) || r->known_count <= 0)
    return;
  double n = (double)r->known_count;
  double Q = r->memory_t * hw->mem_bw;
  double per_run = Q / n;
  double mem_c = cache_floor(hw, Q, n);
  double bound = fmax(r->compute_t, mem_c);
  int partly = !(per_run <= hw->l2_bytes);
  if (partly && !(bound <= r->known_time)) return;
  o->roof = RL_TRACE_ROOF_L2;
  o->bound_time_s = bound;
  o->at_roof_s = fmax(o->bound_time_s, n * floor_s);
  o->bound = r->compute_t >= mem_c ? RL_BOUND_COMPUTE : RL_BOUND_MEMORY;
  if (cut_s > 0 && o->bound_time_s / n < cut_s) o->bound = RL_BOUND_OVERHEAD;
  o->roof_fraction = o->bound_time_s / r->known_time;
  {
    char b1[32], b2[32], b3[32], b4[32], buf[320];
    rl_format_quantity(per_run, RL_UNIT_BYTES, b1, sizeof b1);
    rl_format_quantity(hw->l2_bytes, RL_UNIT_BYTES, b2, sizeof b2);
    rl_format_quantity(hw->l2_bw, RL_UNIT_BYTES_S, b3, sizeof b3);
    if (!partly) {
      snprintf(buf, sizeof buf, "cache-resident: %s a run fits the %s L2 and it ran faster than "
                                "DRAM allows: on the L2 roof (%s)", b1, b2, b3);
    } else if (per_run > 2 * hw->l2_bytes) {
      rl_format_quantity(per_run - 2 * hw->l2_bytes, RL_UNIT_BYTES, b4, sizeof b4);
      snprintf(buf, sizeof buf, "partly cache-resident: %s a run, more than the %s L2, ran faster "
                                "than DRAM allows: on the cache-aware roof (all of it through the "
                                "L2 at %s, at least %s of it from DRAM)", b1, b2, b3, b4);
    } else {
      snprintf(buf, sizeof buf, "cache-resident: %s a run, at most twice the %s L2 (what it can "
                                "hold as a run starts and as it ends), ran faster than DRAM "
                                "allows: on the L2 roof (%s)", b1, b2, b3);
    }
    /* after the row's own note (a compiled region's bytes from below) */
    char *both = NULL;
    if (r->note) {
      const char *own = t->str[r->note - 1];
      size_t len = strlen(own) + strlen(buf) + 3;
      if ((both = malloc(len)) != NULL) snprintf(both, len, "%s; %s", own, buf);
    }
    uint32_t id = why_text(t, both ? both : buf);
    free(both);
    if (id != RLI_NONE) r->note = id + 1;
  }
}

/* A group's note (1 + string id, 0 none) for its calls into its row. */
static void note_add(row_acc *r, uint32_t note, int64_t calls) {
  for (int32_t k = 0; k < r->nnotes; k++)
    if (r->notes[k] == note) {
      r->note_n[k] += calls;
      return;
    }
  if (r->nnotes == ROW_NOTES) {
    r->note_more += calls;
    return;
  }
  r->notes[r->nnotes] = note;
  r->note_n[r->nnotes++] = calls;
}

/* The row's note: the one its calls share; where they differ (calls of
 * one op under other shapes, some inferred and some not) each with how many
 * calls had it, so that no call's note stands for them all. */
static void note_merge(rl_trace *t, row_acc *r) {
  if (r->nnotes == 1 && !r->note_more) {
    r->note = r->notes[0];
    return;
  }
  if (r->nnotes == 0) return;
  int64_t all = r->note_more;
  for (int32_t k = 0; k < r->nnotes; k++) all += r->note_n[k];
  char buf[1200];
  rli_out o;
  rli_out_init(&o, buf, sizeof buf);
  rli_out_printf(&o, "notes differ by call:");
  for (int32_t k = 0; k < r->nnotes; k++)
    rli_out_printf(&o, "%s %lld of %lld calls: %s", k ? ";" : "", (long long)r->note_n[k], (long long)all,
                   r->notes[k] ? t->str[r->notes[k] - 1] : "no note");
  if (r->note_more) rli_out_printf(&o, "; %lld of %lld calls: other notes", (long long)r->note_more, (long long)all);
  rli_out_end(&o);
  uint32_t id = why_text(t, buf);
  r->note = id == RLI_NONE ? 0 : id + 1;
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

/* (on the decoded kernels: rli_kwide) */
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

/* Merge groups into rows keyed by (name, op). */
static rl_status build_rows(rl_trace *t, const rl_hw *hw, double factor, double floor_s,
                            double cut_s, const group *g, size_t ng, int by_op, rl_trace_row **out,
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
      r->row.level = -1;
      r->row.working_set = -1;
      r->why = RLI_NONE;
      r->reason = -1;
      r->launch = kl;
      r->cost = gr->cost;
    } else {
      r = &acc[map[h]];
    }
    cost_eval e;
    eval_cost(t, hw, &t->cost[gr->cost], factor, gr->prec, &e);
    r->row.count += gr->count;
    r->row.kernels += gr->kernels;
    r->row.time_s += gr->time;
    if (gr->timed) r->row.has_time = 1;
    if (e.known) {
      /* the times at the roof sum over the executions with a time: one of
       * zero duration (a 2021 profiler's `dur: 0`, kept untimed) adds its F
       * and Q but no time, measured or at the roof (its floor would be set
       * against no measured time); a group with no time at all (counter
       * ranges) keeps them all */
      int64_t ct = gr->untimed < gr->count ? gr->count - gr->untimed : gr->count;
      double n = (double)gr->count, nt = (double)ct;
      r->row.has_cost = 1;
      r->row.flops += n * e.flops;
      r->row.bytes += n * e.bytes;
      r->row.bound_time_s += nt * e.bound_t;
      r->row.at_roof_s += nt * fmax(e.bound_t, floor_s);
      r->compute_t += nt * e.compute_t;
      r->memory_t += nt * e.memory_t;
      r->known_time += gr->time;
      r->known_count += ct;
      if (e.peak_kind >= 0 || r->row.peak_kind < 0) r->row.peak_kind = e.peak_kind;
      if (e.level > r->row.level) r->row.level = e.level;
      if (e.ws > r->row.working_set) r->row.working_set = e.ws;
      r->row.peak_from_kernel = e.from_kernel;
      r->row.dtype = t->cost[gr->cost].dtype;
      r->row.roof = t->cost[gr->cost].roof;
      note_add(r, t->cost[gr->cost].note, gr->count);
      r->row.lower_bound |= t->cost[gr->cost].lower;
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
    note_merge(t, r);
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
    rli_trace_hier_row(t, hw, factor, o, r->launch < t->nlaunch ? &t->launch[r->launch] : NULL,
             r->cost < t->ncost ? &t->cost[r->cost] : NULL);
    if (o->has_cost) {
      double per = o->bound_time_s / (double)r->known_count;
      o->bound = o->roof == RL_TRACE_ROOF_NET        ? RL_BOUND_NETWORK
                 : r->compute_t >= r->memory_t ? RL_BOUND_COMPUTE
                                               : RL_BOUND_MEMORY;
      if (cut_s > 0 && per < cut_s) o->bound = RL_BOUND_OVERHEAD;
      o->intensity = o->bytes > 0 ? o->flops / o->bytes : 0;
      if (o->has_time && r->known_time > 0) {
        o->roof_fraction = o->bound_time_s / r->known_time;
        if (o->roof_fraction > 1 && o->bound == RL_BOUND_MEMORY && !t->cpu) l2_place(t, hw, r, o, floor_s, cut_s);
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
                       uint32_t cost, uint32_t launch, int32_t prec) {
  if ((*ng + 1) * 2 > m->cap) {
    size_t nc = m->cap ? m->cap * 2 : 256;
    uint32_t *s = malloc(sizeof *s * nc);
    if (!s) return NULL;
    memset(s, 0xff, sizeof *s * nc);
    for (size_t i = 0; i < *ng; i++) {
      size_t h = (size_t)(key3((*g)[i].name, (*g)[i].op, (*g)[i].cost) ^ (*g)[i].launch ^
                          (uint32_t)((*g)[i].prec + 1)) & (nc - 1);
      while (s[h] != RLI_NONE) h = (h + 1) & (nc - 1);
      s[h] = (uint32_t)i;
    }
    free(m->slot);
    m->slot = s;
    m->cap = nc;
  }
  size_t h = (size_t)(key3(name, op, cost) ^ launch ^ (uint32_t)(prec + 1)) & (m->cap - 1);
  while (m->slot[h] != RLI_NONE) {
    group *x = &(*g)[m->slot[h]];
    if (x->name == name && x->op == op && x->cost == cost && x->launch == launch && x->prec == prec)
      return x;
    h = (h + 1) & (m->cap - 1);
  }
  if (!rli_grow((void **)g, sizeof **g, *ng + 1, capg)) return NULL;
  group *x = &(*g)[*ng];
  memset(x, 0, sizeof *x);
  x->name = name;
  x->op = op;
  x->cost = cost;
  x->launch = launch;
  x->prec = prec;
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

/* A collective cost's S (the nccl-tests message size; -1 unknown), n (the
 * group size, the world size standing in; < 1 unknown) and whether n is
 * that guess: the figures of the collectives table and of a job's ranks. */
static void coll_figures(const rl_trace *t, const rli_cost *k, double *S, double *n, int *guess) {
  *n = coll_n(t, k);
  *S = k->bytes >= 0 && *n >= 1 ? coll_S(t, k) : -1;
  if (!k->per_rank && k->bytes >= 0) *S = k->bytes;
  *guess = k->ranks == 0 && *n >= 1;
}

int rli_trace_kernel_coll(rl_trace *t, size_t i, int32_t *kind, double *S, double *n, int *guess) {
  rli_kernel k;
  if (!rli_trace_kernel_get(t, i, &k)) return 0;
  uint32_t c = kernel_rc(t, &k, RLI_NONE);
  if (c >= t->ncost || t->cost[c].roof != RLI_ROOF_NET) return 0;
  *kind = t->cost[c].coll;
  coll_figures(t, &t->cost[c], S, n, guess);
  return 1;
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
    double n, S;
    int guess;
    coll_figures(t, k, &S, &n, &guess);
    o->ranks = (int32_t)n;
    o->ranks_guess = guess;
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

/* The state of one analysis (rl_trace_analyze), through its steps below. */
typedef struct an {
  rl_trace *t;
  const rl_hw *hw;
  rl_trace_summary *out;
  double floor_s, factor;
  double cut_s;   /* the overhead cut (an_floor) */
  /* the cost of a kernel of a multi-kernel op, of a kernel without an op,
   * and the row name of kernels launched before the profiling window */
  uint32_t shared, nolink, prewin;
  /* per op instance: its kernels, their time, the timed ones */
  int64_t *inst_n, *inst_timed;
  int8_t *inst_prec;  /* per op instance: its kernels' format, -1 */
  int8_t *name_prec;  /* per string id (kernel names): rli_kernel_precision
                         + 2, 0 not yet known */
  uint8_t *name_comm; /* per string id: 2 a collective's kernel by its name
                         (rli_hta_kernel_type), 1 not, 0 not yet known */
  uint32_t nname_prec;
  double *inst_t;
  /* per cost: the regime an execution of it is in, and why it is unknown */
  int8_t *regime, *reason;
  uint32_t nregime;
  double unc[RL_REASON_COUNT]; /* time not covered, by reason */
  group *kg, *og; /* the kernel groups and the op groups */
  size_t nkg, nog, capk, capo;
  tmap km, om;
  int32_t *devs;  /* the distinct devices of the timed kernels, sorted */
  size_t ndevs, capdevs;
  int many_devs;  /* past RLI_MAX_DEVS (or out of memory): found by a sort */
  size_t niv;     /* timed kernels */
  int in_order;   /* the timed kernels come by start */
  uint32_t *iv;   /* timed kernels by (start, end), when not in order */
  /* costs refuted by the run for one op (an_refute): (op, cost) and the
   * cost that replaces it in this analysis; per cost, whether any is */
  struct refuted { uint32_t op, cost, repl; } *ref;
  size_t nref, capref;
  uint8_t *refuted;
  uint32_t nrefuted;
} an;

/* The floor and the overhead cut. The floor is the least time a kernel can
 * take at its roof: no kernel of the trace ran faster than it, so no row's
 * time at its roof (count x max(bound, floor)) exceeds its measured time
 * unless its bound does (then the row is above its roof and says so). It is
 * the launch overhead, lowered to the shortest kernel the file times: the
 * launch overhead is a CPU-side cost (He 2022), and GPU kernels and copies
 * of a microsecond or two run below it. The overhead cut classifies the
 * regimes: a kernel shorter than the launch overhead (or whose bound is) is
 * overhead-bound. ncu times each launch alone, so there the cut is the floor. */
static void an_floor(rl_trace *t, rl_trace_summary *out, double *cut) {
  double shortest = -1;
  for (size_t i = 0; i < t->nk; i++) {
    double d = kat(t, i)->dur_s;
    if (d > 0 && (shortest < 0 || d < shortest)) shortest = d;
  }
  out->floor_s = *cut = t->overhead;
  out->floor_source = t->overhead_given ? "the launch overhead given (`overhead`)"
                                        : "the default launch overhead (He 2022: a few us)";
  if (shortest > 0 && shortest < out->floor_s) {
    out->floor_s = shortest;
    if (t->no_timeline) {
      out->floor_source = "the shortest launch in the export (measured by Nsight Compute)";
      if (!t->overhead_given) *cut = shortest;
    } else {
      out->floor_source = "the shortest kernel in the trace (no kernel ran faster; the launch "
                          "overhead is a CPU-side cost)";
    }
  }
  out->overhead_cut_s = *cut;
}

/* The regime of a covered cost whose FLOPs were not counted (a Triton
 * launch, a compiled region): under a roof by its bytes, but whether
 * compute or memory bounds it is not known (the regimes' "no F/Q"). */
#define REG_NO_F 100

/* Per cost: the regime of one execution, or why it is unknown. */
static void an_regimes(an *a) {
  rl_trace *t = a->t;
  a->nregime = t->ncost;
  for (uint32_t c = 0; c < a->nregime; c++) {
    cost_eval e;
    eval_cost(t, a->hw, &t->cost[c], a->factor, -1, &e);
    a->regime[c] = (int8_t)(!e.known ? -1
                            : (a->cut_s > 0 && e.bound_t < a->cut_s) ? RL_BOUND_OVERHEAD
                            : t->cost[c].roof == RLI_ROOF_NET ? RL_BOUND_NETWORK
                            : (t->cost[c].lower & RLI_LOWER_NOFLOPS) ? REG_NO_F
                            : e.compute_t >= e.memory_t ? RL_BOUND_COMPUTE
                                                        : RL_BOUND_MEMORY);
    a->reason[c] = (int8_t)(e.known ? -1 : e.reason >= 0 && e.reason < RL_REASON_COUNT
                                               ? e.reason : RL_REASON_OTHER);
  }
}

/* Per op instance: its kernels and their time (a kernel with its own cost,
 * counters or a collective's size, is its own op instance), and its op. */
/* The format a kernel name says its tensor cores ran, once per name. */
static int32_t name_prec(an *a, uint32_t name) {
  if (name >= a->nname_prec) return -1;
  if (!a->name_prec[name]) a->name_prec[name] = (int8_t)(rli_kernel_precision(a->t->str[name]) + 2);
  return a->name_prec[name] - 2;
}

/* HTA's test of a kernel's name, once per name */
static int name_comm(an *a, uint32_t name) {
  if (name >= a->nname_prec) return rli_hta_kernel_type(a->t->str[name]) == RLI_K_COMM;
  if (!a->name_comm[name]) a->name_comm[name] = rli_hta_kernel_type(a->t->str[name]) == RLI_K_COMM ? 2 : 1;
  return a->name_comm[name] == 2;
}

static void an_insts(an *a) {
  rl_trace *t = a->t;
  for (size_t i = 0; i < t->nk; i++) {
    const kst *k = kat(t, i);
    if (k->inst != RLI_NONE && k->inst < t->ninst && k->cost == RLI_NONE) {
      int32_t p = name_prec(a, (uint32_t)(t->nop.key[k->no] >> 32));
      if (p >= 0 && a->inst_prec[k->inst] < 0) a->inst_prec[k->inst] = (int8_t)p;
      a->inst_n[k->inst]++;
      if (k->dur_s >= 0) {
        a->inst_t[k->inst] += k->dur_s;
        a->inst_timed[k->inst]++;
      }
      t->inst[k->inst].op = (uint32_t)t->nop.key[k->no];
    }
  }
}

/* The cost an op's cost stands for in this analysis: its replacement when
 * the run refuted it (an_refute). */
static uint32_t an_cost(const an *a, uint32_t op, uint32_t c) {
  if (c < a->nrefuted && a->refuted[c])
    for (size_t i = 0; i < a->nref; i++)
      if (a->ref[i].op == op && a->ref[i].cost == c) return a->ref[i].repl;
  return c;
}

/* Bytes counted from below (RLI_LOWER_BYTES: a compiled region's recorded
 * inputs, a Triton launch's tensor arguments, a custom op's, a
 * multi-tensor-apply kernel's from its launch grid) assume that
 * every tensor the op was given is read in full. The run can refute that:
 * a call (all its kernels timed) or a kernel with a cost of its own that
 * took less than its bound even with its data in the L2 -- max(F/peak,
 * cache_floor(Q)), the least time any run can take (l2_place) -- read less
 * than Q (a compiled forward is given the tensors it saves for the backward;
 * a region's GEMMs read theirs under ops of their own). Such a cost has no
 * bound: it goes uncovered under a reason of its own (RL_REASON_REFUTED,
 * whatever kind of op it is) with the figures that refute it, never a row
 * above its roof. A margin of 10% and 1 us per kernel (the profilers'
 * microsecond timestamps) keeps a run at its roof from refuting it. The
 * trace is not changed: the refutation holds for this analysis's device. */
static void refutes(an *a, uint32_t op, uint32_t c, double time_s, double kernels) {
  rl_trace *t = a->t;
  const rl_hw *hw = a->hw;
  if (c >= a->nrefuted || !(t->cost[c].lower & RLI_LOWER_BYTES) || t->cost[c].roof == RLI_ROOF_NET ||
      !(time_s >= 0) || !(hw->l2_bw > 0) || !(hw->l2_bytes > 0) || !(hw->mem_bw > 0))
    return;
  if (an_cost(a, op, c) != c) return; /* refuted already */
  cost_eval e;
  eval_cost(t, hw, &t->cost[c], a->factor, -1, &e);
  if (!e.known || !(e.bytes > 0)) return;
  double least = fmax(e.compute_t, cache_floor(hw, e.bytes, 1));
  if (!(1.1 * time_s + 1e-6 * kernels < least)) return;
  char b1[32], b2[32], b3[32], buf[480];
  rl_format_quantity(time_s, RL_UNIT_SECONDS, b1, sizeof b1);
  rl_format_quantity(e.bytes, RL_UNIT_BYTES, b2, sizeof b2);
  rl_format_quantity(least, RL_UNIT_SECONDS, b3, sizeof b3);
  snprintf(buf, sizeof buf,
           "refuted by the run: a call took %s, less than moving %s allows even from the L2 (%s); "
           "those bytes assume every tensor it was given is read in full, and some were not: no "
           "bound", b1, b2, b3);
  uint32_t repl = rli_trace_cost_reason(t, RL_REASON_REFUTED, buf);
  if (repl == RLI_NONE || !rli_grow((void **)&a->ref, sizeof *a->ref, a->nref + 1, &a->capref)) {
    t->kfail = 1; /* out of memory: the analysis fails (rl_trace_analyze) */
    return;
  }
  a->ref[a->nref++] = (struct refuted){op, c, repl};
  a->refuted[c] = 1;
}

static void an_refute(an *a) {
  rl_trace *t = a->t;
  for (uint32_t i = 0; i < t->ninst; i++)
    if (a->inst_n[i] > 0 && a->inst_timed[i] == a->inst_n[i])
      refutes(a, t->inst[i].op, t->inst[i].cost, a->inst_t[i], (double)a->inst_n[i]);
  for (size_t i = 0; i < t->nk; i++) {
    rli_kernel k;
    kget(t, i, &k);
    if (k.cost != RLI_NONE && k.dur_s >= 0) refutes(a, k.op, k.cost, k.dur_s, 1);
  }
}

/* A timed kernel in the summary's times: GPU, copies, collectives, covered
 * or not (by reason), and its regime's; the devices, and whether the timed
 * kernels come by start. rc: the cost it counts under (kernel_rc). */
static void an_timed(an *a, const rli_kernel *k, uint32_t rc, int coll, double *prev_s, int32_t prec) {
  rl_trace *t = a->t;
  rl_trace_summary *out = a->out;
  out->gpu_time_s += k->dur_s;
  if (k->kind != RLI_K_KERNEL) out->copy_s += k->dur_s;
  if (coll) out->collective_s += k->dur_s;
  out->has_time = 1;
  if (a->niv && k->start_s < *prev_s) a->in_order = 0;
  *prev_s = k->start_s;
  a->niv++;
  if (!a->many_devs && !dev_add(&a->devs, &a->ndevs, &a->capdevs, k->device)) a->many_devs = 1;
  int r = rc < t->ncost ? a->regime[rc] : -1;
  /* the regime on the kernel's own roof: the format its name says its
   * tensor cores ran (TF32, fp8, ...), as its row, not the op's dtype */
  if (r >= 0 && prec >= 0 && t->cost[rc].roof == RLI_ROOF_CHIP) {
    cost_eval e;
    eval_cost(t, a->hw, &t->cost[rc], a->factor, prec, &e);
    if (e.known && e.from_kernel)
      r = (a->cut_s > 0 && e.bound_t < a->cut_s) ? RL_BOUND_OVERHEAD
          : e.compute_t >= e.memory_t              ? RL_BOUND_COMPUTE
                                                   : RL_BOUND_MEMORY;
  }
  if (r >= 0) out->covered_s += k->dur_s;
  else a->unc[rc < t->ncost ? a->reason[rc] : RL_REASON_OTHER] += k->dur_s;
  if (k->dur_s < a->cut_s) r = -2;
  if (r == -2) { out->short_s += k->dur_s; out->overhead_s += k->dur_s; }
  else if (r == RL_BOUND_OVERHEAD) out->overhead_s += k->dur_s;
  else if (r == RL_BOUND_COMPUTE) out->compute_s += k->dur_s;
  else if (r == RL_BOUND_MEMORY) out->memory_s += k->dur_s;
  else if (r == RL_BOUND_NETWORK) out->network_s += k->dur_s;
  else out->unknown_s += k->dur_s;
}

/* Each kernel into its group (its name and op, and cost; ncu: one row per
 * launch, each with its own counters, grid and clock), a kernel without
 * an op instance into its op's group too; the summary's counts. */
static rl_status an_kernels(an *a, rl_error *err) {
  rl_trace *t = a->t;
  rl_trace_summary *out = a->out;
  a->in_order = 1;
  double prev_s = 0;
  int per_launch = t->nlaunch == t->nk && t->nk < RLI_NONE;
  for (size_t i = 0; i < t->nk; i++) {
    rli_kernel kk, *k = &kk;
    kget(t, i, k);
    int has_inst = k->inst != RLI_NONE && k->inst < t->ninst && k->cost == RLI_NONE;
    /* a kernel of a multi-kernel op: the op's F and Q stay on the op's
     * row; an op without F and Q lends its kernels its reason */
    uint32_t ic = has_inst ? an_cost(a, k->op, t->inst[k->inst].cost) : RLI_NONE;
    uint32_t cost = k->cost != RLI_NONE ? an_cost(a, k->op, k->cost)
                    : has_inst ? (a->inst_n[k->inst] == 1 || ic >= t->ncost || a->regime[ic] < 0
                                      ? ic : a->shared)
                               : a->nolink;
    uint32_t rc = an_cost(a, k->op, kernel_rc(t, k, a->nolink));
    /* kernels launched before the window: one row, said as such */
    uint32_t gname = cost < t->ncost && a->regime[cost] < 0 && a->reason[cost] == RL_REASON_PRE_WINDOW
                         ? a->prewin : k->name;
    int32_t prec = gname == k->name ? name_prec(a, k->name) : -1;
    group *x = group_at(&a->kg, &a->nkg, &a->capk, &a->km, gname, k->op, cost,
                        per_launch ? (uint32_t)i : RLI_NONE, prec);
    if (!x) return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
    x->count++;
    x->kernels++;
    if (k->kind == RLI_K_KERNEL) out->kernels++;
    else out->copies++;
    /* a collective kernel: one whose cost is a collective's, or one whose
     * name says so (HTA's pattern: NCCL, RCCL, HCCL), as a job counts its
     * ranks' (trace_job_io.c); one launched before the window has no size
     * and is not in the collectives table */
    int coll = (rc < t->ncost && t->cost[rc].roof == RLI_ROOF_NET) ||
               (k->kind == RLI_K_KERNEL && k->name < t->nstr && name_comm(a, k->name));
    if (coll) out->collectives++;
    if (k->dur_s >= 0) {
      x->time += k->dur_s;
      x->timed++;
      an_timed(a, k, rc, coll, &prev_s, prec);
    } else {
      x->untimed++;
    }
    if (!has_inst) {
      /* copies are their own ops: the op that asked for one (copy_, a
       * backward op's memset) has its own row for its kernels */
      /* a CPU trace's kernels are ops: by their own name */
      group *y = group_at(&a->og, &a->nog, &a->capo, &a->om, k->kind != RLI_K_KERNEL || t->cpu ? k->name : k->op,
                          RLI_NONE, cost, RLI_NONE, prec);
      if (!y) return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
      y->count++;
      y->kernels++;
      if (k->dur_s >= 0) { y->time += k->dur_s; y->timed++; }
      else y->untimed++;
    }
  }
  return RL_OK;
}

/* The coverage, and the time not covered by reason, most first. */
static void an_uncovered(an *a) {
  rl_trace_summary *out = a->out;
  out->coverage = out->gpu_time_s > 0 ? out->covered_s / out->gpu_time_s : 0;
  for (int r = 0; r < RL_REASON_COUNT; r++)
    if (a->unc[r] > 0) {
      out->uncovered[out->n_uncovered].reason = r;
      out->uncovered[out->n_uncovered++].time_s = a->unc[r];
    }
  qsort(out->uncovered, (size_t)out->n_uncovered, sizeof out->uncovered[0], cmp_uncov);
}

/* The op instances that launched kernels into their ops' groups. */
static rl_status an_op_groups(an *a, rl_error *err) {
  rl_trace *t = a->t;
  for (uint32_t i = 0; i < t->ninst; i++) {
    if (!a->inst_n[i]) continue;
    group *y = group_at(&a->og, &a->nog, &a->capo, &a->om, t->inst[i].op, RLI_NONE,
                        an_cost(a, t->inst[i].op, t->inst[i].cost), RLI_NONE, a->inst_prec[i]);
    if (!y) return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
    y->count++;
    y->kernels += a->inst_n[i];
    y->time += a->inst_t[i];
    if (!a->inst_timed[i]) y->untimed++;
    y->timed += a->inst_timed[i];
  }
  return RL_OK;
}

/* The devices: distinct ids among the timed kernels (by a sort when there
 * were too many to keep as they came). */
static rl_status an_devices(an *a, rl_error *err) {
  rl_trace *t = a->t;
  if (a->many_devs) {
    free(a->devs);
    a->devs = malloc(sizeof *a->devs * (a->niv ? a->niv : 1));
    if (!a->devs) return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
    a->ndevs = 0;
    for (size_t i = 0; i < t->nk; i++)
      if (kat(t, i)->dur_s >= 0) a->devs[a->ndevs++] = (int32_t)(uint32_t)(t->dsk.key[kat(t, i)->dsk] >> 32);
    qsort(a->devs, a->ndevs, sizeof *a->devs, cmp_i32);
    size_t w = 0;
    for (size_t i = 0; i < a->ndevs; i++)
      if (i == 0 || a->devs[i] != a->devs[i - 1]) a->devs[w++] = a->devs[i];
    a->ndevs = w;
  }
  a->out->devices = (int32_t)a->ndevs;
  return RL_OK;
}

/* Keep gap [s, s + len] among the RL_TRACE_GAPS largest of idle (largest
 * first; the earlier of equal ones first). */
static void keep_gap(rl_trace_idle *idle, double s, double len) {
  int32_t n = idle->ngaps, i = n;
  if (!(len > 0)) return;
  while (i > 0 && idle->gaps[i - 1].length_s < len) i--;
  if (i >= RL_TRACE_GAPS) return;
  if (n == RL_TRACE_GAPS) n--;
  memmove(&idle->gaps[i + 1], &idle->gaps[i], sizeof idle->gaps[0] * (size_t)(n - i));
  memset(&idle->gaps[i], 0, sizeof idle->gaps[0]);
  idle->gaps[i].start_s = s;
  idle->gaps[i].length_s = len;
  idle->ngaps = n + 1;
}

typedef struct name_t {
  uint32_t name;
  double s;
} name_t;
static int cmp_name_t(const void *pa, const void *pb) {
  const name_t *x = pa, *y = pb;
  return x->name < y->name ? -1 : x->name > y->name;
}
static int cmp_name_t_time(const void *pa, const void *pb) {
  const name_t *x = pa, *y = pb;
  if (x->s != y->s) return x->s < y->s ? 1 : -1;
  return x->name < y->name ? -1 : x->name > y->name;
}

/* The host ops during each gap (absolute [g0, g0 + len]), at the deepest
 * level of nesting whose ops still cover half the gap (summed over the
 * threads; the outermost level when none does): below "## forward ##"
 * covering a whole gap, the aten::linear and aten::layer_norm it ran. Per
 * op name, their calls' time inside the gap, the RL_TRACE_GAP_OPS largest. */
#define GAP_DEPTHS (RLI_HOST_DEPTH_MAX + 1)
/* How much of [g0, g1] the host op h covers (> 0 when it overlaps):
 * fmin(g1, end) - fmax(g0, start) without the calls (the times are finite:
 * the reader checked them; only o > 0 is used, so a zero's sign does not
 * matter) */
static inline double hop_overlap(double g0, double g1, const rli_host_op *h) {
  double e = h->start_s + (double)h->dur_s;
  double hi = e < g1 ? e : g1, lo = h->start_s > g0 ? h->start_s : g0;
  return hi - lo;
}
static rl_status gap_ops(rl_trace *t, double first, rl_error *err) {
  rl_trace_idle *idle = &t->idle;
  if (!t->nhop) return RL_OK;
  name_t *v = malloc(sizeof *v * t->nhop);
  if (!v) return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
  for (int32_t g = 0; g < idle->ngaps; g++) {
    rl_trace_gap *gp = &idle->gaps[g];
    double g0 = first + gp->start_s, g1 = g0 + gp->length_s;
    double cover[GAP_DEPTHS] = {0};
    for (size_t i = 0; i < t->nhop; i++) {
      const rli_host_op *h = &t->hop[i];
      double o = hop_overlap(g0, g1, h);
      if (o > 0) cover[h->name_depth >> 28] += o;
    }
    uint32_t d = 0;
    for (uint32_t k = 1; k < GAP_DEPTHS; k++)
      if (cover[k] >= 0.5 * gp->length_s) d = k;
    size_t n = 0;
    for (size_t i = 0; i < t->nhop; i++) {
      const rli_host_op *h = &t->hop[i];
      double o = hop_overlap(g0, g1, h);
      if (o > 0 && h->name_depth >> 28 == d) v[n++] = (name_t){h->name_depth & ((1u << 28) - 1), o};
    }
    if (!n) continue;
    qsort(v, n, sizeof *v, cmp_name_t);
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
      if (w && v[w - 1].name == v[i].name) v[w - 1].s += v[i].s;
      else v[w++] = v[i];
    }
    qsort(v, w, sizeof *v, cmp_name_t_time);
    for (size_t i = 0; i < w && gp->nops < RL_TRACE_GAP_OPS; i++) {
      gp->ops[gp->nops].name = rli_trace_strat(t, v[i].name);
      gp->ops[gp->nops++].overlap_s = v[i].s;
    }
  }
  free(v);
  return RL_OK;
}

/* busy time: the union of the kernel intervals of all devices (the time
 * some GPU of the trace was busy), so busy + idle = span; in start order
 * (any order of equal starts gives the same union), through an index
 * sorted by (start, end) when the kernels do not come so; the biggest gaps
 * (keep_gap) and the host ops during them (gap_ops) */
static rl_status an_busy(an *a, rl_error *err) {
  rl_trace *t = a->t;
  rl_trace_summary *out = a->out;
  size_t niv = a->niv;
  if (!a->in_order) {
    a->iv = rli_kwide(t) ? malloc(sizeof *a->iv * niv) : NULL;
    if (!a->iv) return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
    size_t n = 0;
    for (size_t i = 0; i < t->nk; i++)
      if (t->kw[i].dur_s >= 0) a->iv[n++] = (uint32_t)i;
    if (!rli_sort_idx(a->iv, niv, cmp_ivl_idx, t))
      return rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
  }
  const uint32_t *iv = a->iv;
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
        keep_gap(&t->idle, ce - first, ks - ce);
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
  t->idle_done = 1;
  t->idle.host_ops = t->nhop > 0;
  if (t->cpu && out->has_span) {
    /* a CPU op's self time is no interval of the timeline (its callees
     * run inside it): the span stays, no busy or idle time */
    out->has_span = 0;
    out->busy_s = out->idle_s = out->busy_share = 0;
    t->idle.share = (double)NAN;
    t->idle.ngaps = 0;
    return RL_OK;
  }
  if (!out->has_span) {
    out->span_s = out->busy_s = out->idle_s = out->busy_share = 0;
    t->idle.share = (double)NAN;
    t->idle.ngaps = 0;
    return RL_OK;
  }
  /* idle time is its own figure (the headline when large), not overhead */
  t->idle.share = out->span_s > 0 ? out->idle_s / out->span_s : 0;
  t->idle.headline = t->idle.share >= RL_TRACE_IDLE_HEADLINE;
  return gap_ops(t, first, err);
}

/* The tables: rows by kernel and by op, the collectives, the gain, the
 * fusion candidates. */
static rl_status an_tables(an *a, rl_error *err) {
  rl_trace *t = a->t;
  rl_trace_summary *out = a->out;
  rl_status st = build_rows(t, a->hw, a->factor, a->floor_s, a->cut_s, a->kg, a->nkg, 0, &t->rows[0], &t->nrows[0], err);
  if (st == RL_OK)
    st = build_rows(t, a->hw, a->factor, a->floor_s, a->cut_s, a->og, a->nog, 1, &t->rows[1], &t->nrows[1], err);
  if (st == RL_OK) st = build_colls(t, a->hw, a->nolink, a->floor_s, err);
  if (st == RL_OK)
    for (int32_t i = 0; i < t->nrows[0]; i++)
      /* rows with F and Q: not those whose FLOPs were not counted (a
       * Triton launch's, a compiled region's bytes alone bound their gain
       * from above only loosely; their rows give it) */
      if (t->rows[0][i].has_cost && t->rows[0][i].has_time &&
          !(t->rows[0][i].lower_bound & RL_TRACE_LOWER_NOFLOPS))
        out->gain_s += t->rows[0][i].gain_s;
  if (st == RL_OK)
    st = rli_trace_find_fusions(t, a->regime, a->nregime, a->cut_s, a->floor_s, a->devs, a->ndevs, &out->fusion_s, err);
  return st;
}

/* A device slower than the file: Nsight Compute measured a kernel's DRAM
 * traffic (dram__bytes.sum, Nsight Compute's Kernel Profiling Guide) over
 * its time, so no device whose DRAM bandwidth is below that rate ran it.
 * The tolerance, 10%: the bytes are counted in the DRAM clock domain and
 * the time (gpu__time_duration) by the GPU's timer, at a resolution of
 * tens of ns (a few % of a microsecond kernel), and ncu's DRAM throughput
 * tops out near 90-93% of the datasheet figure (its dram__throughput
 * pct_of_peak): a rate 10% above a device's datasheet bandwidth is no
 * measurement on that device. The message names the devices that fit,
 * slowest first. */
static rl_status check_dram(const rl_trace *t, const rl_hw *hw, rl_error *err) {
  const double tol = 1.10;
  if (!(t->dram_max > 0) || !(hw->mem_bw > 0) || t->dram_max <= hw->mem_bw * tol) return RL_OK;
  char fit[200] = "", b1[32], b2[32];
  int nfit = 0;
  double last = 0;
  for (int k = 0; k < 3; k++) {
    /* the next slowest device above the rate */
    double best = 0;
    int32_t bi = -1;
    for (int32_t i = 0; i < rl_hw_count(); i++) {
      rl_hw h;
      if (rl_hw_get(i, &h) != RL_OK || !(h.mem_bw * tol >= t->dram_max) || h.mem_bw <= last) continue;
      if (strcmp(h.vendor, "NVIDIA") != 0) continue; /* Nsight Compute profiles NVIDIA GPUs */
      if (bi < 0 || h.mem_bw < best) best = h.mem_bw, bi = i;
    }
    if (bi < 0) break;
    rl_hw h;
    rl_hw_get(bi, &h);
    /* every device of that bandwidth */
    for (int32_t i = 0; i < rl_hw_count(); i++) {
      rl_hw g;
      if (rl_hw_get(i, &g) != RL_OK || g.mem_bw != best || strcmp(g.vendor, "NVIDIA") != 0 || nfit >= 3)
        continue;
      rl_format_quantity(g.mem_bw, RL_UNIT_BYTES_S, b1, sizeof b1);
      size_t l = strlen(fit);
      snprintf(fit + l, sizeof fit - l, "%s%s (%s)", nfit ? ", " : "", g.id, b1);
      nfit++;
    }
    last = best;
  }
  rl_format_quantity(t->dram_max, RL_UNIT_BYTES_S, b1, sizeof b1);
  rl_format_quantity(hw->mem_bw, RL_UNIT_BYTES_S, b2, sizeof b2);
  return rli_fail(err, RL_EINVAL,
                  "`hw` %s: its DRAM bandwidth, %s, is below what the file measured: launch %lld "
                  "(%s) moved DRAM bytes at %s, over 10%% above it; %s%s",
                  hw->id, b2, (long long)t->dram_max_launch, t->dram_max_kernel, b1,
                  nfit ? "devices that fit: " : "no device in the database fits", fit);
}

rl_status rl_trace_analyze(rl_trace *t, const rl_hw *hw, rl_trace_summary *out,
                           rl_error *err) {
  if (!t || !hw || !out) return rli_fail(err, RL_EINVAL, "no trace or no device");
  if (t->nk == 0) return rli_fail(err, RL_EPARSE, "the trace holds no GPU kernels (nor CPU ops)");
  if (t->kfail) return rli_fail(err, RL_ENOMEM, "out of memory after %zu kernels", t->nk);
  rl_status hst = check_dram(t, hw, err);
  if (hst) return hst;
  if ((hst = rli_trace_check_cpu_hw(t, hw, err)) != RL_OK) return hst;
  rli_trace_free_analysis(t);
  memset(out, 0, sizeof *out);
  rl_status tst = rli_trace_tidy_timeline(t, &out->overlapping, &out->overlap_s, err);
  if (tst) return tst;
  out->duplicates = t->dups;
  out->duplicate_s = t->dup_s;
  out->ends_before_start = t->backwards;
  out->zero_duration = t->zero_dur;
  out->launch_overhead_s = t->overhead;
  out->no_shapes = t->no_shapes;
  an a;
  memset(&a, 0, sizeof a);
  an_floor(t, out, &a.cut_s);
  a.t = t;
  a.hw = hw;
  a.out = out;
  a.floor_s = out->floor_s;
  a.factor = tensor_factor(t, hw);
  rl_status st = RL_OK;
  a.shared = rli_trace_cost_why(t, "its op launched several kernels: the op's F and Q "
                                   "are on the op's row, not split between them");
  a.nolink = rli_trace_cost_reason(t, RL_REASON_NO_OP, "no launching op is known for it");
  a.prewin = why_text(t, "(kernels launched before the profiling window)");
  a.inst_n = calloc(t->ninst ? t->ninst : 1, sizeof *a.inst_n);
  a.inst_t = calloc(t->ninst ? t->ninst : 1, sizeof *a.inst_t);
  a.inst_timed = calloc(t->ninst ? t->ninst : 1, sizeof *a.inst_timed);
  a.inst_prec = malloc(t->ninst ? t->ninst : 1);
  if (a.inst_prec) memset(a.inst_prec, 0xff, t->ninst ? t->ninst : 1);
  a.nname_prec = t->nstr;
  a.name_prec = calloc(t->nstr ? t->nstr : 1, 1);
  a.name_comm = calloc(t->nstr ? t->nstr : 1, 1);
  a.nrefuted = t->ncost;
  a.refuted = calloc(t->ncost + 2, 1);
  if (!a.inst_n || !a.inst_t || !a.inst_timed || !a.inst_prec || !a.name_prec || !a.name_comm || !a.refuted ||
      a.shared == RLI_NONE || a.nolink == RLI_NONE || a.prewin == RLI_NONE) {
    st = rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
    goto done;
  }
  an_insts(&a);
  an_refute(&a);
  /* per cost, with the costs the refutations added */
  a.regime = malloc(t->ncost + 2);
  a.reason = malloc(t->ncost + 2);
  if (!a.regime || !a.reason || t->kfail) {
    st = rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
    goto done;
  }
  an_regimes(&a);
  if ((st = an_kernels(&a, err)) != RL_OK) goto done;
  an_uncovered(&a);
  if ((st = an_op_groups(&a, err)) != RL_OK) goto done;
  if ((st = an_devices(&a, err)) != RL_OK) goto done;
  if ((st = an_busy(&a, err)) != RL_OK) goto done;
  st = an_tables(&a, err);
done:
  kwide_free(t);
  if (st == RL_OK && t->kfail) st = rli_fail(err, RL_ENOMEM, "out of memory in the analysis");
  free(a.inst_n);
  free(a.inst_t);
  free(a.inst_timed);
  free(a.inst_prec);
  free(a.name_prec);
  free(a.name_comm);
  free(a.iv);
  free(a.devs);
  free(a.regime);
  free(a.reason);
  free(a.refuted);
  free(a.ref);
  free(a.kg);
  free(a.og);
  free(a.km.slot);
  free(a.om.slot);
  return st;
}
const rl_trace_row *rl_trace_rows(const rl_trace *t, int32_t group_by, int32_t *n) {
  if (n) *n = 0;
  if (!t || group_by < 0 || group_by > 1) return NULL;
  if (n) *n = t->nrows[group_by];
  return t->rows[group_by];
}

void rli_trace_free_analysis(rl_trace *t) {
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
  memset(&t->idle, 0, sizeof t->idle);
  t->idle_done = 0;
  for (size_t i = 0; i < t->nwhy; i++) free(t->whybuf[i]);
  free(t->whybuf);
  t->whybuf = NULL;
  t->nwhy = 0;
}
