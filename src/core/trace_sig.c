/*
 * trace_sig.c -- kernels launched before the profiling window, costed by
 * their signature. A kernel whose launch call fell before the window (the
 * profiler saw the kernel run, not the call) has no op; the same kernel
 * launched inside the window, with the same launch geometry, does. A
 * kernel's signature is its name with its grid and block (the name alone
 * where the trace gives no geometry, as ROCm's); this file gives a
 * pre-window kernel the F and Q of the in-window kernels of its signature:
 * one op shape behind it, that shape's; several (GEMMs of different K can
 * share a grid), the smallest F and the smallest Q among them, so the
 * figure stays a lower bound for any of them.
 *
 * The roof comes with the figures: an op on the chip's roof (F on its
 * format's peak, Q on the memory), one on the memory roof alone (F = 0:
 * integer moves, a compiled region's recorded inputs read once, a Triton
 * launch's tensors), or a collective on the link (Q: the message size S,
 * kind, element type and group size as the in-window op recorded them). A
 * collective's grid is NCCL's channel count, which NCCL picks by the
 * message size and the algorithm: it does not give the size, only that
 * the kernel ran as in-window collectives of that signature did, so the
 * smallest S among them is taken, as the smallest F and Q are for ops.
 *
 * A kernel whose event records no grid or block has the name alone for its
 * signature. ROCm traces of PyTorch >= 2.6 give an in-window kernel the
 * grid and block of its launch call (roctracer's API record carries them)
 * and a pre-window kernel, whose call the profiler did not see, none: such
 * a kernel takes what every in-window kernel of its name says, whatever
 * their grids, the smallest F and the smallest Q among them (the rule for
 * several shapes behind one signature: a lower bound whichever of them it
 * ran), and its note says that the name alone matched.
 *
 * A signature lends nothing (its pre-window kernels stay uncovered) when
 * any in-window kernel of it could bound less: one whose op has no F or Q
 * (or counters, elements of unknown type), one inside no op, one of an op
 * that launched several kernels (the op's F and Q belong to all of them
 * together, not to one), shapes of different formats or roofs, or
 * collectives of different kinds, element types or group sizes.
 */
#include "core/trace_impl.h"

#include <stdlib.h>
#include <string.h>

typedef struct sig_acc {
  double flops, bytes;    /* the smallest seen */
  uint32_t cost;          /* the first cost; RLI_NONE none yet */
  uint32_t op;            /* the op label when one; RLI_NONE */
  int32_t dtype, tensor;
  int32_t lower;          /* RLI_LOWER_* of any of them */
  int64_t n;              /* in-window kernels */
  uint8_t bad, several, ops; /* ops: 1 one label, 2 several */
  uint8_t named;          /* a kernel with a grid came in by its name alone */
} sig_acc;

static int usable(const rli_cost *c) {
  if (c->why != RLI_NONE || !(c->flops >= 0) || !(c->bytes >= 0) || c->measured ||
      c->per_elem != RLI_ELEM_NONE || c->tensor_inst != 0)
    return 0;
  if (c->roof == RLI_ROOF_NET) return c->coll >= 0 && c->coll < RLI_COLL_COUNT;
  return c->roof == RLI_ROOF_CHIP || c->roof == RLI_ROOF_HBM;
}

/* Two usable costs that one signature may lend the smaller figures of:
 * the same roof, format and, for collectives, kind and group. */
static int same_kind(const rli_cost *a, const rli_cost *b) {
  if (a->roof != b->roof || a->dtype != b->dtype || a->tensor != b->tensor) return 0;
  if (a->roof != RLI_ROOF_NET) return 1;
  return a->coll == b->coll && a->ranks == b->ranks && a->per_rank == b->per_rank;
}

/* One in-window kernel's word on signature a: its op's cost when the
 * kernel is that op's only one and the cost usable, else a lends nothing. */
static void acc_add(rl_trace *t, sig_acc *a, const rli_kernel *k, const uint32_t *per,
                    uint32_t i0) {
  a->n++;
  if (a->bad) return;
  int one = k->inst < t->ninst && k->cost == RLI_NONE && per[k->inst - i0] == 1;
  const rli_cost *c = one && t->inst[k->inst].cost < t->ncost ? &t->cost[t->inst[k->inst].cost] : NULL;
  if (!c || !usable(c)) { a->bad = 1; return; }
  if (a->cost == RLI_NONE) {
    a->cost = t->inst[k->inst].cost;
    a->flops = c->flops;
    a->bytes = c->bytes;
    a->dtype = c->dtype;
    a->tensor = c->tensor;
    a->op = k->op;
    a->ops = 1;
    a->lower = c->lower;
    return;
  }
  if (!same_kind(c, &t->cost[a->cost])) { a->bad = 1; return; }
  if (t->inst[k->inst].cost != a->cost) a->several = 1;
  if (c->flops < a->flops) a->flops = c->flops;
  if (c->bytes < a->bytes) a->bytes = c->bytes;
  if (k->op != a->op) a->ops = 2;
  a->lower |= c->lower;
}

static int by_name(const void *x, const void *y) {
  const uint32_t *a = x, *b = y;
  return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* Per signature with a grid or block: the name-alone signature of its
 * kernel name (RLI_NONE none), which its in-window kernels also speak to. */
static uint32_t *bare_alias(const uint32_t *signame, const uint8_t *sigbare, uint32_t nsig,
                            int *oom) {
  uint32_t nb = 0;
  for (uint32_t s = 0; s < nsig; s++) nb += sigbare[s] != 0;
  if (!nb || nb == nsig) return NULL;
  uint32_t *pair = malloc(sizeof *pair * 2 * nb);
  uint32_t *alias = malloc(sizeof *alias * nsig);
  if (!pair || !alias) {
    free(pair);
    free(alias);
    *oom = 1;
    return NULL;
  }
  nb = 0;
  for (uint32_t s = 0; s < nsig; s++)
    if (sigbare[s]) {
      pair[2 * nb] = signame[s];
      pair[2 * nb + 1] = s;
      nb++;
    }
  qsort(pair, nb, sizeof *pair * 2, by_name);
  for (uint32_t s = 0; s < nsig; s++) {
    alias[s] = RLI_NONE;
    if (sigbare[s]) continue;
    const uint32_t *f = bsearch(&signame[s], pair, nb, sizeof *pair * 2, by_name);
    if (f) alias[s] = f[1];
  }
  free(pair);
  return alias;
}

int64_t rli_trace_infer_signature(rl_trace *t, size_t k0, size_t n, const uint32_t *sig,
                                  const uint32_t *signame, const uint8_t *sigbare, uint32_t nsig,
                                  int *oom) {
  *oom = 0;
  if (!nsig || !n) return 0;
  uint32_t i0 = RLI_NONE, i1 = 0; /* the op instances of these kernels */
  int64_t pre = 0;
  rli_kernel k;
  for (size_t i = 0; i < n; i++) {
    if (!rli_trace_kernel_get(t, k0 + i, &k)) continue;
    if (k.inst == RLI_UNLINKED && sig[i] != RLI_NONE && k.cost != RLI_NONE &&
        t->cost[k.cost].reason == RL_REASON_PRE_WINDOW)
      pre++;
    if (k.inst < t->ninst && k.cost == RLI_NONE) {
      if (k.inst < i0) i0 = k.inst;
      if (k.inst + 1 > i1) i1 = k.inst + 1;
    }
  }
  if (!pre) return 0;
  sig_acc *acc = calloc(nsig, sizeof *acc);
  uint32_t *per = i0 < i1 ? calloc(i1 - i0, sizeof *per) : NULL;
  if (!acc || (i0 < i1 && !per)) {
    free(acc);
    free(per);
    *oom = 1;
    return 0;
  }
  for (uint32_t s = 0; s < nsig; s++) acc[s].cost = acc[s].op = RLI_NONE;
  uint32_t *alias = signame && sigbare ? bare_alias(signame, sigbare, nsig, oom) : NULL;
  if (*oom) {
    free(acc);
    free(per);
    return 0;
  }
  /* kernels per op instance */
  for (size_t i = 0; i < n; i++)
    if (rli_trace_kernel_get(t, k0 + i, &k) && k.inst < t->ninst && k.cost == RLI_NONE)
      per[k.inst - i0]++;
  /* what each signature's in-window kernels say */
  for (size_t i = 0; i < n; i++) {
    if (sig[i] == RLI_NONE || sig[i] >= nsig || !rli_trace_kernel_get(t, k0 + i, &k)) continue;
    if (k.inst == RLI_UNLINKED && k.cost != RLI_NONE &&
        t->cost[k.cost].reason == RL_REASON_PRE_WINDOW)
      continue;
    acc_add(t, &acc[sig[i]], &k, per, i0);
    if (alias && alias[sig[i]] != RLI_NONE) {
      acc[alias[sig[i]]].named = 1;
      acc_add(t, &acc[alias[sig[i]]], &k, per, i0);
    }
  }
  free(per);
  free(alias);
  /* the pre-window kernels take their signature's cost */
  uint32_t *lent = malloc(sizeof *lent * nsig);
  if (!lent) { free(acc); *oom = 1; return 0; }
  memset(lent, 0xff, sizeof *lent * nsig);
  int64_t done = 0;
  rl_error e2;
  for (size_t i = 0; i < n; i++) {
    uint32_t s = sig[i];
    if (s == RLI_NONE || s >= nsig || acc[s].bad || acc[s].cost == RLI_NONE) continue;
    if (!rli_trace_kernel_get(t, k0 + i, &k) || k.inst != RLI_UNLINKED || k.cost == RLI_NONE ||
        t->cost[k.cost].reason != RL_REASON_PRE_WINDOW)
      continue;
    if (lent[s] == RLI_NONE) {
      sig_acc *a = &acc[s];
      int net = t->cost[a->cost].roof == RLI_ROOF_NET;
      const char *why =
          a->named ? (net ? (a->several ? "inferred: name (the trace records no grid for it; its kernel name ran "
                                          "in the window, under any grid, as collectives of one kind and "
                                          "several sizes: the smallest of them)"
                                        : "inferred: name (the trace records no grid for it; its kernel name ran "
                                          "in the window, under any grid, as collectives of one kind and one "
                                          "size: that size)")
                      : a->several ? "inferred: name (the trace records no grid for it; its kernel name ran "
                                     "in the window, under any grid, under several op shapes: the smallest F "
                                     "and the smallest Q of them)"
                                   : "inferred: name (the trace records no grid for it; its kernel name ran "
                                     "in the window, under any grid, under one op shape: its F and Q)")
          : net ? (a->several ? "inferred: signature (its kernel name, grid and block ran in the window "
                              "as collectives of one kind and several sizes: the smallest of them)"
                            : "inferred: signature (its kernel name, grid and block ran in the window "
                              "as collectives of one kind and one size: that size)")
          : a->several ? "inferred: signature (its kernel name, grid and block ran "
                         "in the window under several op shapes: the smallest F "
                         "and the smallest Q of them)"
                       : "inferred: signature (its kernel name, grid and block ran "
                         "in the window under one op shape: its F and Q)";
      uint32_t nid = why_text(t, why);
      if (nid == RLI_NONE) { *oom = 1; break; }
      /* the first cost's roof, format and collective; the smallest figures */
      rli_cost c = t->cost[a->cost];
      c.flops = a->flops;
      c.bytes = a->bytes;
      c.why = RLI_NONE;
      c.note = nid + 1;
      c.reason = 0;
      c.lower = a->lower;
      lent[s] = rli_trace_cost(t, &c);
      if (lent[s] == RLI_NONE) { *oom = 1; break; }
    }
    k.cost = lent[s];
    k.inst = RLI_NONE;
    k.op = acc[s].ops == 1 ? acc[s].op : RLI_NONE;
    if (rli_trace_kernel_set(t, k0 + i, &k, &e2) != RL_OK) { *oom = 1; break; }
    done++;
  }
  free(lent);
  free(acc);
  return done;
}
