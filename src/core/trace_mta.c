/*
 * trace_mta.c -- multi-tensor-apply kernels (NVIDIA apex's FusedAdam and
 * amp_C ops; ATen's _foreach_ ops and fused optimizers) bounded from their
 * launch grid when the sizes of their tensor lists are not recorded: the
 * 2021-2023 profilers record a TensorList argument as [], apex's amp_C ops
 * are no ATen ops at all, and a kernel launched before the profiling window
 * has no op. The kernel's name and its grid are enough.
 *
 * The scheme (NVIDIA/apex csrc/multi_tensor_apply.cuh, 2019 to 2025;
 * pytorch/pytorch aten/src/ATen/native/cuda/MultiTensorApply.cuh): the
 * host walks the tensors of the lists, cuts each into chunks of C elements
 * and gives every chunk one thread block; it launches
 * multi_tensor_apply_kernel when the blocks reach depth_to_max_blocks, when
 * the tensors reach depth_to_max_tensors[depth - 1] (at a tensor's last
 * chunk), or at the end. A tensor cut by a launch goes on in the next one,
 * so in every launch only the last chunk of each of its tensors can be
 * partial. A launch of G blocks (grid.x) holding at most T tensors thus
 * processes at least
 *     E = max(0, G - T) C + min(G, T)
 * elements of each of its lists (each tensor at least one element, all but
 * one chunk of it full), whatever the tensors were. The constants:
 *   - apex: depth_to_max_tensors {110, 64, 48, 36, 30} (depth 1-5; depth 6,
 *     24, since 2023), depth_to_max_blocks 320 for every depth; C is the
 *     caller's: apex's multi_tensor_applier is MultiTensorApply(2048 * 32)
 *     (apex/multi_tensor_apply/__init__.py), C = 65536, which FusedAdam,
 *     FusedLAMB and amp's unscale use. The kernel is
 *     multi_tensor_apply_kernel<TensorListMetadata<depth>, Functor, ...>
 *     in the global namespace.
 *   - ATen: kChunkSize = 65536; with 4 KB of kernel parameters (the
 *     releases before pytorch/pytorch PR #134373 of 2024, names
 *     TensorListMetadata<depth>; after it <depth, false>)
 *     depth_to_max_tensors {110, 64, 48, 36, 30} and 320 blocks; with 32 KB
 *     (that PR's runtime choice, names <depth, true>; later sources choose
 *     it when built with CUDA 13 and name it <depth>) {770, 448, 336, 252,
 *     210} and 2240 blocks. A name without the flag is taken as the 4 KB layout up to
 *     320 blocks and as the 32 KB one above (only it launches more): a
 *     CUDA 13 build's last launch of a list of at most 320 blocks is read
 *     as a 4 KB one, which may count more elements than it held; the
 *     refutation (trace_analyze.c) judges it against the time it took. The
 *     metadata types TensorListMetadata, FusedOptimizerTensorListMetadata
 *     and TensorListScalarListMetadata<scalar, depth> (whose launches hold
 *     fewer tensors, depth_to_max_tensors_scalarlist {96, 64, ...}: the
 *     larger T leaves E a lower bound) are read.
 *
 * Q = E x L x s, s the smallest element size among the functor's template
 * arguments (AdamFunctor<float>: 4 B; AdamFunctor<c10::Half, float>: 2),
 * L the lists the functor must touch: the Adam functors, apex's
 * AdamFunctor (csrc/multi_tensor_adam.cu: g, p, m, v read, p, m, v written
 * on every call, its noop-flag test commented out) and ATen's
 * FusedAdamMathFunctor (fused_adam_utils.cuh: param, grad, exp_avg,
 * exp_avg_sq and, at depth 5, max_exp_avg_sq read, all but grad written),
 * L = 2 depth - 1 and F = RLI_ADAM_FLOPS x E on the vector peak of that
 * element type (weight decay, amsgrad and maximize add FLOPs the name does
 * not say: the smallest is taken); any other functor, L = depth (each list
 * read once), F not counted (RLI_LOWER_NOFLOPS: the memory roof). Q is a
 * lower bound (RLI_LOWER_BYTES). A kernel that skipped its work (ATen's
 * fused Adam on an overflow, apex's capturable functors on the noop flag)
 * is refuted by its time (an_refute). A name or grid that does not fit the
 * scheme (no block, more blocks than a launch holds, a depth no
 * TensorListMetadata has, no element type) leaves the kernel uncovered
 * with the reason.
 */
#include "core/trace_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MTA_CHUNK 65536.0
#define MTA_MAX_ARGS 16

enum { MTA_APEX, MTA_ATEN };

static const int apex_tensors[6] = {110, 64, 48, 36, 30, 24};
static const int aten_tensors_4k[5] = {110, 64, 48, 36, 30};
static const int aten_tensors_32k[5] = {770, 448, 336, 252, 210};
#define MTA_BLOCKS_4K 320
#define MTA_BLOCKS_32K 2240

/* a whole number written in decimal (an 'u' suffix allowed), else -1 */
static long whole(const rli_targ *a) {
  long v = 0;
  size_t i = 0;
  if (!a->n) return -1;
  for (; i < a->n && a->s[i] >= '0' && a->s[i] <= '9'; i++) {
    v = v * 10 + (a->s[i] - '0');
    if (v > 1000000) return -1;
  }
  if (i < a->n && (a->s[i] == 'u' || a->s[i] == 'U')) i++;
  return i == a->n && i > 0 ? v : -1;
}

static int is_word(const rli_targ *a, const char *w) { return a->n == strlen(w) && !memcmp(a->s, w, a->n); }

int rli_mta_cost(const char *kernel, double G, rli_cost *c, char *why, size_t cap) {
  char own[512], meta[96], fun[96];
  rli_cost_init(c, RL_REASON_SHAPES);
  c->flops = c->bytes = -1;
  const char *lt = kernel ? strstr(kernel, "multi_tensor_apply_kernel<") : NULL;
  if (!lt) return -1; /* most kernels: the name alone says no */
  rli_kernel_own_name(kernel, own, sizeof own);
  int scheme = !strcmp(own, "multi_tensor_apply_kernel")                                  ? MTA_APEX
               : !strcmp(own, "at::native::(anonymous namespace)::multi_tensor_apply_kernel") ? MTA_ATEN
                                                                                            : -1;
  if (scheme < 0) return -1;
  const char *who = scheme == MTA_APEX ? "apex's multi_tensor_apply" : "ATen's multi_tensor_apply";
  /* the metadata and the functor, each read whole: a name cut short after
   * them (in the kernel's other arguments or its parameters) says all the
   * rule reads (rli_kernel_targs) */
  rli_targ a[MTA_MAX_ARGS], m[MTA_MAX_ARGS], f[MTA_MAX_ARGS];
  int closed;
  int na = rli_kernel_targs(lt + RLI_LEN("multi_tensor_apply_kernel"), a, MTA_MAX_ARGS, &closed);
  if (na < 2)
    return rli_why_fail(why, cap, "multi-tensor kernel: its name gives no tensor-list metadata and "
                                  "functor%s", closed || na < 0 ? "" : " (it ends before they do: cut short)");
  /* the metadata: its depth and the kernel-parameter layout */
  const char *mlt = rli_kernel_targ_name(&a[0], meta, sizeof meta);
  int nm = mlt ? rli_kernel_targs(mlt, m, MTA_MAX_ARGS, &closed) : -1;
  if (!closed) nm = -1;
  int di = !strcmp(meta, "TensorListMetadata") || !strcmp(meta, "FusedOptimizerTensorListMetadata") ? 0
           : !strcmp(meta, "TensorListScalarListMetadata")                                          ? 1
                                                                                                    : -1;
  if (di < 0 || nm <= di || (scheme == MTA_APEX && (di != 0 || nm != 1)))
    return rli_why_fail(why, cap, "multi-tensor kernel: no tensor-list metadata of %s's in its name "
                                  "(%.60s)", who, meta);
  long d = whole(&m[di]);
  int dmax = scheme == MTA_APEX ? 6 : 5;
  if (d < 1 || d > dmax)
    return rli_why_fail(why, cap, "multi-tensor kernel: %s has no tensor-list metadata of depth "
                                  "%.*s (1 to %d)", who, (int)m[di].n, m[di].s, dmax);
  int large = -1; /* ATen: the 32 KB layout; -1 not said */
  if (nm > di + 1) {
    if (nm > di + 2 || !(is_word(&m[di + 1], "true") || is_word(&m[di + 1], "false")))
      return rli_why_fail(why, cap, "multi-tensor kernel: metadata %s with arguments ATen's has not",
                          meta);
    large = is_word(&m[di + 1], "true");
  }
  /* the grid */
  double maxb = scheme == MTA_ATEN && large != 0 ? MTA_BLOCKS_32K : MTA_BLOCKS_4K;
  if (!(G >= 1 && G <= maxb && G == floor(G)))
    return rli_why_fail(why, cap, "multi-tensor kernel: a launch grid of %g blocks, where %s launches "
                                  "1 to %g (one block per chunk)", G, who, maxb);
  if (scheme == MTA_ATEN && large < 0) large = G > MTA_BLOCKS_4K;
  double T = scheme == MTA_APEX ? apex_tensors[d - 1] : large ? aten_tensors_32k[d - 1]
                                                              : aten_tensors_4k[d - 1];
  /* the functor: its name and element types, every argument read (one
   * left unread could be the smallest) */
  const char *flt = rli_kernel_targ_name(&a[1], fun, sizeof fun);
  int nf = flt ? rli_kernel_targs(flt, f, MTA_MAX_ARGS, &closed) : 0;
  if (nf > 0 && !closed)
    return rli_why_fail(why, cap, "multi-tensor kernel: its functor %.60s has more than %d template "
                                  "arguments", fun, MTA_MAX_ARGS);
  double s = 0;
  int32_t dt = -1;
  for (int i = 0; i < nf; i++) {
    char ty[96];
    if (f[i].n >= sizeof ty) continue;
    memcpy(ty, f[i].s, f[i].n);
    ty[f[i].n] = 0;
    int32_t t1;
    double s1 = rli_kernel_elem_type(ty, &t1, NULL);
    if (s1 > 0 && (s == 0 || s1 < s || (s1 == s && dt < 0))) { s = s1; dt = t1; }
  }
  if (!(s > 0))
    return rli_why_fail(why, cap, "multi-tensor kernel: its functor %.60s names no element type", fun);
  int adam = ((scheme == MTA_APEX && !strcmp(fun, "AdamFunctor")) || !strcmp(fun, "FusedAdamMathFunctor")) &&
             dt >= 0;
  double E = fmax(0, G - T) * MTA_CHUNK + fmin(G, T);
  double L = adam ? 2.0 * (double)d - 1 : (double)d;
  c->bytes = E * L * s;
  c->coll = -1;
  c->reason = 0;
  c->lower = RLI_LOWER_BYTES;
  if (adam) {
    c->flops = RLI_ADAM_FLOPS * E;
    c->dtype = dt;
    c->tensor = 0;
    c->roof = RLI_ROOF_CHIP;
  } else {
    c->flops = 0;
    c->dtype = -1;
    c->lower |= RLI_LOWER_NOFLOPS;
    c->roof = RLI_ROOF_HBM;
  }
  char fl[64];
  if (adam) snprintf(fl, sizeof fl, "; %d FLOPs an element (Adam's update)", RLI_ADAM_FLOPS);
  else snprintf(fl, sizeof fl, "; FLOPs not counted");
  snprintf(why, cap,
           "elements inferred from the launch grid (%s: one block per chunk of %g elements, at most %g "
           "tensors a launch): at least max(0, G - %g) x %g + min(G, %g) in each of %g list%s of %g B, "
           "G its blocks%s",
           who, MTA_CHUNK, T, T, MTA_CHUNK, T, L, L == 1 ? "" : "s", s, fl);
  return 1;
}

/* ---- the kernels of a trace --------------------------------------------- */

/* The kernel's cost now: its own, or its op instance's. */
static const rli_cost *now_cost(const rl_trace *t, const rli_kernel *k) {
  if (k->cost == RLI_NONE && k->inst < t->ninst) {
    uint32_t c = t->inst[k->inst].cost;
    return c < t->ncost ? &t->cost[c] : NULL;
  }
  return k->cost < t->ncost ? &t->cost[k->cost] : NULL;
}

/* Whether the rule may apply to signature s: a grid, and a name that says
 * multi_tensor_apply_kernel (rli_mta_cost decides the rest). */
static int may_apply(const rl_trace *t, const double *grid_x, const uint32_t *sig_name, uint32_t s) {
  const char *nm = rli_trace_strat(t, sig_name[s]);
  return grid_x[s] >= 0 && nm && strstr(nm, "multi_tensor_apply_kernel<");
}

int64_t rli_trace_multi_tensor(rl_trace *t, size_t k0, size_t n, const uint32_t *sig,
                               const double *grid_x, const uint32_t *sig_name, uint32_t nsig, int *oom) {
  *oom = 0;
  if (!nsig || !n || !sig || !grid_x || !sig_name) return 0;
  /* the signatures the rule may apply to: in most traces none, and no
   * kernel is read */
  uint32_t s0 = 0;
  while (s0 < nsig && !may_apply(t, grid_x, sig_name, s0)) s0++;
  if (s0 == nsig) return 0;
  /* per signature: its cost (RLI_NONE not yet; RLI_UNLINKED: the rule
   * does not apply), or its refusal's text */
  uint32_t *sc = malloc(sizeof *sc * nsig);
  uint32_t *rw = malloc(sizeof *rw * nsig);
  if (!sc || !rw) {
    free(sc);
    free(rw);
    *oom = 1;
    return 0;
  }
  memset(rw, 0xff, sizeof *rw * nsig);
  for (uint32_t q = 0; q < nsig; q++)
    sc[q] = q >= s0 && may_apply(t, grid_x, sig_name, q) ? RLI_NONE : RLI_UNLINKED;
  int64_t done = 0;
  rli_kernel k;
  rl_error e2;
  char why[400], both[900];
  for (size_t i = 0; i < n; i++) {
    uint32_t s = sig[i];
    if (s >= nsig || sc[s] == RLI_UNLINKED || !rli_trace_kernel_get(t, k0 + i, &k) ||
        k.kind != RLI_K_KERNEL || k.name != sig_name[s])
      continue;
    const rli_cost *now = now_cost(t, &k);
    if (now && now->why == RLI_NONE) continue; /* its op bounds it: that stays */
    if (sc[s] == RLI_NONE && rw[s] == RLI_NONE) {
      const char *name = rli_trace_strat(t, k.name);
      rli_cost c;
      int r = rli_mta_cost(name, grid_x[s], &c, why, sizeof why);
      if (r < 0) { sc[s] = RLI_UNLINKED; continue; }
      uint32_t nid = why_text(t, why);
      if (nid == RLI_NONE) { *oom = 1; break; }
      if (r > 0) {
        c.note = nid + 1;
        sc[s] = rli_trace_cost(t, &c);
        if (sc[s] == RLI_NONE) { *oom = 1; break; }
      } else {
        rw[s] = nid;
      }
    }
    int unlinked = k.inst == RLI_UNLINKED;
    if (sc[s] != RLI_NONE) {
      k.cost = sc[s];
      if (unlinked) {
        k.inst = RLI_NONE;
        done++;
      }
    } else {
      /* refused: the reason it had, and the rule's */
      const char *was = now && now->why != RLI_NONE ? rli_trace_strat(t, now->why) : NULL;
      snprintf(both, sizeof both, "%s%s%s", was ? was : "", was ? "; " : "", rli_trace_strat(t, rw[s]));
      uint32_t c = rli_trace_cost_reason(t, now ? now->reason : RL_REASON_SHAPES, both);
      if (c == RLI_NONE) { *oom = 1; break; }
      k.cost = c;
    }
    if (rli_trace_kernel_set(t, k0 + i, &k, &e2) != RL_OK) { *oom = 1; break; }
  }
  free(sc);
  free(rw);
  return done;
}
