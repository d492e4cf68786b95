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
 * together, not to one; a run of pre-window kernels that ran as all of
 * them takes it as one call: below), shapes of different formats or roofs, or
 * collectives of different kinds, element types or group sizes.
 */
#include "core/trace_impl.h"

#include <stdio.h>
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

/* One op instance's word on a (its kernels' signature, or a run's
 * sequence): its cost when usable, else a lends nothing. */
static void inst_add(rl_trace *t, sig_acc *a, uint32_t inst, uint32_t op) {
  a->n++;
  if (a->bad) return;
  const rli_cost *c = t->inst[inst].cost < t->ncost ? &t->cost[t->inst[inst].cost] : NULL;
  if (!c || !usable(c)) { a->bad = 1; return; }
  if (a->cost == RLI_NONE) {
    a->cost = t->inst[inst].cost;
    a->flops = c->flops;
    a->bytes = c->bytes;
    a->dtype = c->dtype;
    a->tensor = c->tensor;
    a->op = op;
    a->ops = 1;
    a->lower = c->lower;
    return;
  }
  if (!same_kind(c, &t->cost[a->cost])) { a->bad = 1; return; }
  if (t->inst[inst].cost != a->cost) a->several = 1;
  if (c->flops < a->flops) a->flops = c->flops;
  if (c->bytes < a->bytes) a->bytes = c->bytes;
  if (op != a->op) a->ops = 2;
  a->lower |= c->lower;
}

/* One in-window kernel's word on signature a: its op's, when the kernel
 * is that op's only one (inst_add), else a lends nothing. */
static void acc_add(rl_trace *t, sig_acc *a, const rli_kernel *k, const uint32_t *per,
                    uint32_t i0) {
  if (k->inst < t->ninst && k->cost == RLI_NONE && per[k->inst - i0] == 1) {
    inst_add(t, a, k->inst, k->op);
    return;
  }
  a->n++;
  a->bad = 1;
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

/* ---- runs of pre-window kernels: one call of a multi-kernel op ----------
 * An op that launched several kernels has one F and one Q for all of them,
 * which no one of its kernels can take alone (above). A run of pre-window
 * kernels can: consecutive kernels of one stream (the same device), none
 * of them in the window or costed already, whose signatures are, in order,
 * those of all the kernels of an in-window op instance with F and Q (its
 * kernels on one stream, in their start order) ran as one call of that op.
 * The run takes the op's F and Q once, as one instance whose cost its
 * kernels share (the analysis' path for any op of several kernels).
 * Several in-window instances of that sequence (one op or several): the
 * smallest F and the smallest Q, under one roof and format as above; any of
 * them without a usable cost (or of another roof, format or collective):
 * the run lends nothing. A pre-window kernel without a grid speaks by its
 * name alone (an in-window kernel's sequence element matches it by its
 * name-alone signature, as above). Copies and memsets are their own ops
 * (an in-window op's are not among its kernels): a stream's runs are of
 * its kernels, copies between them skipped. Each stream is read from its
 * first kernel on: at each pre-window kernel the longest in-window
 * sequence that the kernels from it match decides (all the sequences of
 * that length that match, together); a run that lends is skipped past, one
 * that does not lends nothing and the scan moves past it too; no match:
 * the next kernel. */
typedef struct run_k {
  int32_t dev;
  uint32_t stream;
  double s;
  uint32_t key; /* the instance (instances' list) or 0 (streams' list) */
  size_t i;
} run_k;

static int by_run_k(const void *x, const void *y) {
  const run_k *a = x, *b = y;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  if (a->dev != b->dev) return a->dev < b->dev ? -1 : 1;
  if (a->stream != b->stream) return a->stream < b->stream ? -1 : 1;
  if (a->s != b->s) return a->s < b->s ? -1 : 1;
  return a->i < b->i ? -1 : a->i > b->i;
}

/* An instance's sequence of kernel signatures: seq[0 .. len). */
typedef struct run_seq {
  const uint32_t *seq;
  uint32_t len, inst, op;
} run_seq;

/* the longest first; the same sequences together */
static int by_seq(const void *x, const void *y) {
  const run_seq *a = x, *b = y;
  if (a->len != b->len) return a->len > b->len ? -1 : 1;
  int c = memcmp(a->seq, b->seq, sizeof *a->seq * a->len);
  if (c) return c;
  return a->inst < b->inst ? -1 : a->inst > b->inst;
}

/* A sequence's first signature (or the name-alone signature it also
 * matches) and its instances in the sorted list. */
typedef struct run_first {
  uint32_t key, len;
  size_t q, r; /* the sequence's instances: sq[q .. r) */
} run_first;

static int by_first(const void *x, const void *y) {
  const run_first *a = x, *b = y;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  if (a->len != b->len) return a->len > b->len ? -1 : 1;
  return a->q < b->q ? -1 : a->q > b->q;
}

static int pre_window(const rl_trace *t, const rli_kernel *k) {
  return k->inst == RLI_UNLINKED && k->cost != RLI_NONE && k->cost < t->ncost &&
         t->cost[k->cost].reason == RL_REASON_PRE_WINDOW;
}

static int64_t infer_runs(rl_trace *t, size_t k0, size_t n, const uint32_t *sig,
                          const uint32_t *alias, const uint32_t *per, uint32_t i0, uint32_t i1,
                          int *oom) {
  if (i0 >= i1 || !per) return 0;
  rli_kernel k;
  size_t nm = 0, npre = 0;
  for (size_t i = 0; i < n; i++) {
    if (!rli_trace_kernel_get(t, k0 + i, &k)) continue;
    if (k.inst < t->ninst && k.inst >= i0 && k.inst < i1 && k.cost == RLI_NONE && per[k.inst - i0] > 1)
      nm++;
    else if (pre_window(t, &k) && sig[i] != RLI_NONE)
      npre++;
  }
  if (!nm || !npre) return 0;
  run_k *mk = malloc(sizeof *mk * nm);
  run_k *sk = malloc(sizeof *sk * n);
  uint32_t *seqs = malloc(sizeof *seqs * nm);
  run_seq *sq = malloc(sizeof *sq * nm);
  if (!mk || !sk || !seqs || !sq) goto fail;
  /* the multi-kernel instances' kernels, by instance, in start order */
  nm = 0;
  size_t ns = 0;
  for (size_t i = 0; i < n; i++) {
    if (!rli_trace_kernel_get(t, k0 + i, &k)) continue;
    run_k r = {k.device, k.stream, k.start_s, 0, i};
    if (k.inst < t->ninst && k.inst >= i0 && k.inst < i1 && k.cost == RLI_NONE && per[k.inst - i0] > 1) {
      r.key = k.inst;
      mk[nm++] = r;
    }
    r.key = 0;
    if (k.kind == RLI_K_KERNEL) sk[ns++] = r; /* copies are their own ops */
  }
  qsort(mk, nm, sizeof *mk, by_run_k);
  qsort(sk, ns, sizeof *sk, by_run_k);
  /* one sequence per instance whose kernels all have a signature and ran
   * on one stream (a run is of one stream) */
  size_t nq = 0, off = 0;
  for (size_t a = 0; a < nm;) {
    size_t b = a;
    int ok = 1;
    while (b < nm && mk[b].key == mk[a].key) {
      if (sig[mk[b].i] == RLI_NONE || mk[b].dev != mk[a].dev || mk[b].stream != mk[a].stream) ok = 0;
      b++;
    }
    if (ok && b - a <= UINT32_MAX) {
      for (size_t j = a; j < b; j++) seqs[off + j - a] = sig[mk[j].i];
      rli_kernel kk;
      sq[nq].op = rli_trace_kernel_get(t, k0 + mk[a].i, &kk) ? kk.op : RLI_NONE;
      sq[nq].seq = seqs + off;
      sq[nq].len = (uint32_t)(b - a);
      sq[nq].inst = mk[a].key;
      nq++;
      off += b - a;
    }
    a = b;
  }
  free(mk);
  mk = NULL;
  qsort(sq, nq, sizeof *sq, by_seq);
  /* the distinct sequences by their first signature, the longest first */
  run_first *fi = malloc(sizeof *fi * 2 * (nq ? nq : 1));
  if (!fi) goto fail;
  size_t nf = 0;
  for (size_t q = 0; q < nq;) {
    size_t r = q + 1;
    while (r < nq && sq[r].len == sq[q].len && !memcmp(sq[r].seq, sq[q].seq, sizeof *sq[q].seq * sq[q].len))
      r++;
    uint32_t w = sq[q].seq[0];
    fi[nf++] = (run_first){w, sq[q].len, q, r};
    if (alias && alias[w] != RLI_NONE && alias[w] != w) fi[nf++] = (run_first){alias[w], sq[q].len, q, r};
    q = r;
  }
  qsort(fi, nf, sizeof *fi, by_first);
  int64_t done = 0;
  size_t stretch = 0; /* the end of the stretch of pre-window kernels p is in */
  /* each stream, from its first kernel */
  for (size_t p = 0; p < ns && !*oom;) {
    rli_kernel kp;
    if (!rli_trace_kernel_get(t, k0 + sk[p].i, &kp) || !pre_window(t, &kp) || sig[sk[p].i] == RLI_NONE) {
      p++;
      continue;
    }
    /* how many pre-window kernels follow on this stream, from p: the
     * stretch they make is found once, at its first kernel */
    if (p >= stretch) {
      stretch = p;
      while (stretch < ns && sk[stretch].dev == sk[p].dev && sk[stretch].stream == sk[p].stream) {
        rli_kernel kq;
        if (!rli_trace_kernel_get(t, k0 + sk[stretch].i, &kq) || !pre_window(t, &kq) ||
            sig[sk[stretch].i] == RLI_NONE)
          break;
        stretch++;
      }
    }
    size_t avail = stretch - p;
    sig_acc acc;
    memset(&acc, 0, sizeof acc);
    acc.cost = acc.op = RLI_NONE;
    uint32_t len = 0;
    /* the sequences whose first signature is this kernel's */
    size_t lo = 0, hi = nf;
    uint32_t s0 = sig[sk[p].i];
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (fi[mid].key < s0) lo = mid + 1;
      else hi = mid;
    }
    for (size_t f = lo; f < nf && fi[f].key == s0; f++) {
      size_t q = fi[f].q, r = fi[f].r;
      if (len && sq[q].len < len) break; /* the longest match decides */
      int match = sq[q].len <= avail, named = 0;
      for (uint32_t j = 0; j < sq[q].len && match; j++) {
        uint32_t s = sig[sk[p + j].i], w = sq[q].seq[j];
        if (s == w) continue;
        if (alias && w < UINT32_MAX && alias[w] == s) named = 1;
        else match = 0;
      }
      if (match) {
        len = sq[q].len;
        if (named) acc.named = 1;
        for (size_t x = q; x < r; x++) inst_add(t, &acc, sq[x].inst, sq[x].op);
      }
    }
    if (!len) { p++; continue; }
    if (acc.bad || acc.cost == RLI_NONE) { p += len; continue; }
    char why[320];
    snprintf(why, sizeof why,
             acc.named ? "inferred: name (a run of kernels before the window, the trace recording no grid "
                         "for them, ran in order as the kernel names of all of an in-window op's kernels, %s: "
                         "one call, %s once for the run's kernels together)"
                       : "inferred: signature (a run of kernels before the window ran in order as the kernel "
                         "names, grids and blocks of all of an in-window op's kernels, %s: one call, %s once "
                         "for the run's kernels together)",
             acc.several ? "under several op shapes" : "under one op shape",
             acc.several ? "the smallest F and the smallest Q of them" : "its F and Q");
    uint32_t nid = why_text(t, why);
    if (nid == RLI_NONE) { *oom = 1; break; }
    rli_cost c = t->cost[acc.cost];
    c.flops = acc.flops;
    c.bytes = acc.bytes;
    c.why = RLI_NONE;
    c.note = nid + 1;
    c.reason = 0;
    c.lower = acc.lower;
    uint32_t cid = rli_trace_cost(t, &c);
    uint32_t inst = cid == RLI_NONE ? RLI_NONE : rli_trace_new_inst(t, cid);
    if (inst == RLI_NONE) { *oom = 1; break; }
    rl_error e2;
    for (uint32_t j = 0; j < len; j++) {
      rli_kernel kq;
      if (!rli_trace_kernel_get(t, k0 + sk[p + j].i, &kq)) continue;
      kq.cost = RLI_NONE;
      kq.inst = inst;
      kq.op = acc.ops == 1 ? acc.op : RLI_NONE;
      if (rli_trace_kernel_set(t, k0 + sk[p + j].i, &kq, &e2) != RL_OK) { *oom = 1; break; }
      done++;
    }
    p += len;
  }
  free(fi);
  free(sk);
  free(seqs);
  free(sq);
  return done;
fail:
  free(mk);
  free(sk);
  free(seqs);
  free(sq);
  *oom = 1;
  return 0;
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
  /* the pre-window kernels take their signature's cost */
  uint32_t *lent = malloc(sizeof *lent * nsig);
  if (!lent) { free(acc); free(per); free(alias); *oom = 1; return 0; }
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
  if (!*oom) done += infer_runs(t, k0, n, sig, alias, per, i0, i1, oom);
  free(per);
  free(alias);
  return done;
}
