/*
 * comm.c -- the time of a collective (all-reduce, all-gather,
 * reduce-scatter) over n ranks, and its share of a training step.
 *
 * Exports rl_coll_name, rl_coll_parse, rl_coll_cfg_init, rl_collective and
 * rl_allreduce_floor (the header says where its figure comes from).
 *
 * Traffic per rank for S bytes (Patarasuk & Yuan 2009, "Bandwidth optimal
 * all-reduce algorithms for clusters of workstations", JPDC 69(2): the
 * ring reaches the lower bound 2(n-1)S/n for an all-reduce; all-gather and
 * reduce-scatter move (n-1)S/n). nccl-tests (doc/PERFORMANCE.md) defines
 * algbw = S / t and busbw = algbw x factor, with factor 2(n-1)/n for an
 * all-reduce and (n-1)/n for the other two, S being the all-reduce's
 * buffer, the all-gather's output and the reduce-scatter's input. busbw
 * does not depend on n, so it compares with a link's bandwidth; hence
 *   t = factor x S / busbw + alpha x steps        (steps: 2(n-1) or n-1)
 * Two levels (g ranks per node, m = n/g nodes): reduce-scatter inside the
 * node, an all-reduce of S/g across nodes by each rank (rail-aligned NICs),
 * an all-gather inside the node:
 *   t = 2(g-1)/g S / busbw_intra + 2(m-1)/m (S/g) / busbw_inter
 * Step share: time / step with no overlap. DDP buckets
 * the gradients (PyTorch: 25 MiB) and starts each bucket's all-reduce when
 * the backward pass has produced it; with the gradients appearing evenly
 * over the backward time, the exposed time is what is left after the
 * backward pass ends. FSDP / ZeRO-3 move about 1.5 times DDP's bytes
 * (Rajbhandari et al. 2020: all-gather in the forward and the backward,
 * reduce-scatter of the gradients, 3 x (n-1)/n S against 2 x (n-1)/n S).
 */
#include "core/internal.h"

#include <math.h>
#include <string.h>

static const char *const names[] = {"allreduce", "allgather", "reducescatter"};

const char *rl_coll_name(int32_t kind) {
  if (kind < 0 || kind > RL_COLL_REDUCESCATTER) return NULL;
  return names[kind];
}

rl_status rl_coll_parse(const char *name, int32_t *kind, rl_error *err) {
  static const struct { const char *a; int32_t k; } alias[] = {
      {"allreduce", RL_COLL_ALLREDUCE},         {"all-reduce", RL_COLL_ALLREDUCE},
      {"all_reduce", RL_COLL_ALLREDUCE},        {"ar", RL_COLL_ALLREDUCE},
      {"allgather", RL_COLL_ALLGATHER},         {"all-gather", RL_COLL_ALLGATHER},
      {"all_gather", RL_COLL_ALLGATHER},        {"ag", RL_COLL_ALLGATHER},
      {"reducescatter", RL_COLL_REDUCESCATTER}, {"reduce-scatter", RL_COLL_REDUCESCATTER},
      {"reduce_scatter", RL_COLL_REDUCESCATTER}, {"rs", RL_COLL_REDUCESCATTER},
  };
  if (!name || !*name) return rli_fail(err, RL_EINVAL, "empty collective name");
  for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
    if (rli_strcasecmp(name, alias[i].a) == 0) { *kind = alias[i].k; return RL_OK; }
  return rli_fail(err, RL_ENOTFOUND, "unknown collective '%s' (allreduce allgather reducescatter)", name);
}

rl_coll_cfg rl_coll_cfg_init(void) {
  rl_coll_cfg c;
  memset(&c, 0, sizeof c);
  c.kind = RL_COLL_ALLREDUCE;
  return c;
}

static int nonneg(double x) { return isfinite(x) && x >= 0; }

rl_status rl_collective(const rl_coll_cfg *c, rl_coll_result *out, rl_error *err) {
  if (!c || !out) return rli_fail(err, RL_EINVAL, "no configuration or result");
  if (c->kind < RL_COLL_ALLREDUCE || c->kind > RL_COLL_REDUCESCATTER)
    return rli_fail(err, RL_EINVAL, "unknown collective %d", (int)c->kind);
  if (rli_check_max(c->bytes, 1e18, "bytes", err) || rli_check_max(c->ranks, 1e8, "ranks", err)) return RL_ERANGE;
  /* the same ceiling as a hardware figure (hw.c), and times up to 30 years:
   * beyond them a result is a number no machine gives */
  if (rli_check_max(c->busbw, 1e30, "bus bandwidth (B/s)", err) ||
      rli_check_max(c->inter_busbw, 1e30, "bus bandwidth across nodes (B/s)", err) ||
      rli_check_max(c->latency_s, 1e9, "latency (s)", err) ||
      rli_check_max(c->step_time_s, 1e9, "step time (s)", err) ||
      rli_check_max(c->backward_time_s, 1e9, "backward time (s)", err) ||
      rli_check_max(c->bucket_bytes, 1e18, "bucket size (B)", err))
    return RL_ERANGE;
  if (!rli_positive(c->bytes) || c->bytes > 1e18)
    return rli_fail(err, RL_EINVAL, "bytes must be > 0 (got %g)", c->bytes);
  double n = c->ranks;
  if (!isfinite(n) || n != floor(n) || n > 1e8)
    return rli_fail(err, RL_EINVAL, "ranks must be a whole number >= 2 (got %g)", n);
  if (n < 2) return rli_fail(err, RL_EINVAL, "a collective needs at least 2 ranks (got %g): one rank communicates nothing", n);
  if (!rli_positive(c->busbw)) return rli_fail(err, RL_EINVAL, "bus bandwidth must be > 0 (got %g)", c->busbw);
  if (!nonneg(c->latency_s)) return rli_fail(err, RL_EINVAL, "latency must be >= 0");
  if (!nonneg(c->step_time_s)) return rli_fail(err, RL_EINVAL, "step time must be >= 0");
  if (!nonneg(c->backward_time_s)) return rli_fail(err, RL_EINVAL, "backward time must be >= 0");
  if (!nonneg(c->bucket_bytes)) return rli_fail(err, RL_EINVAL, "bucket size must be >= 0");
  if (c->backward_time_s > 0 && !(c->step_time_s > 0))
    return rli_fail(err, RL_EINVAL, "a backward time needs a step time");
  if (c->step_time_s > 0 && c->backward_time_s > c->step_time_s)
    return rli_fail(err, RL_EINVAL, "the backward time (%g s) exceeds the step time (%g s)",
                    c->backward_time_s, c->step_time_s);
  double g = c->ranks_per_node;
  if (!nonneg(g) || g != floor(g)) return rli_fail(err, RL_EINVAL, "ranks per node must be a whole number");
  int two = g > 0 && g < n;
  if (g > 0) {
    if (c->kind != RL_COLL_ALLREDUCE)
      return rli_fail(err, RL_EINVAL, "the two-level algorithm is modelled for an all-reduce only");
    if (fmod(n, g) != 0) return rli_fail(err, RL_EINVAL, "ranks per node (%g) does not divide the ranks (%g)", g, n);
    if (two && !rli_positive(c->inter_busbw))
      return rli_fail(err, RL_EINVAL, "a two-level all-reduce needs the bus bandwidth across nodes (> 0)");
  } else if (c->inter_busbw != 0) {
    return rli_fail(err, RL_EINVAL, "a bus bandwidth across nodes needs the ranks per node");
  }
  memset(out, 0, sizeof *out);
  double S = c->bytes;
  double factor = c->kind == RL_COLL_ALLREDUCE ? 2 * (n - 1) / n : (n - 1) / n;
  double steps = c->kind == RL_COLL_ALLREDUCE ? 2 * (n - 1) : (n - 1);
  out->factor = factor;
  out->bytes_per_rank = factor * S;
  if (two) {
    double m = n / g;
    out->intra_time_s = 2 * (g - 1) / g * S / c->busbw + c->latency_s * 2 * (g - 1);
    out->inter_time_s = 2 * (m - 1) / m * (S / g) / c->inter_busbw + c->latency_s * 2 * (m - 1);
    out->latency_time_s = c->latency_s * (2 * (g - 1) + 2 * (m - 1));
    out->bandwidth_time_s = out->intra_time_s + out->inter_time_s - out->latency_time_s;
  } else {
    out->bandwidth_time_s = factor * S / c->busbw;
    out->latency_time_s = c->latency_s * steps;
  }
  out->time_s = out->bandwidth_time_s + out->latency_time_s;
  out->algbw = S / out->time_s;
  out->busbw = out->algbw * factor;
  const double v[] = {out->time_s, out->algbw, out->busbw, out->intra_time_s, out->inter_time_s,
                      out->bandwidth_time_s, out->latency_time_s};
  rl_status fin = rli_check_finite(v, sizeof v / sizeof v[0], err,
                                   "S = %g B, %g ranks, busbw %g B/s, inter-node busbw %g B/s, latency %g s",
                                   S, n, c->busbw, c->inter_busbw, c->latency_s);
  if (fin) return fin;
  double step = c->step_time_s;
  if (step > 0) {
    out->step_fraction = out->time_s / step;
    out->step_fraction_added = out->time_s / (step + out->time_s);
    if (c->kind != RL_COLL_ALLREDUCE) return RL_OK;
    /* DDP: buckets ready evenly over the backward pass, each all-reduced
     * in turn as soon as it is ready and the previous one is done. */
    double tb = c->backward_time_s > 0 ? c->backward_time_s : step * 2.0 / 3.0;
    double bucket = c->bucket_bytes > 0 ? c->bucket_bytes : 25.0 * 1024 * 1024;
    double K = ceil(S / bucket);
    if (K > 1e6) K = 1e6;
    double tk = out->time_s / K, finish = 0;
    if (K <= 1) {
      finish = tb + out->time_s;
    } else {
      /* bucket i (1..K) is ready at i tb / K; the link is busy until
       * `finish`. Closed form of the recurrence finish = max(finish,
       * ready) + tk: with tk >= tb/K the link never idles after the first
       * bucket, otherwise each bucket ends tk after it is ready. */
      if (tk >= tb / K) finish = tb / K + K * tk;
      else finish = tb + tk;
    }
    out->ddp_exposed_s = finish - tb > 0 ? finish - tb : 0;
    out->ddp_fraction = out->ddp_exposed_s / step;
    out->fsdp_time_s = 1.5 * out->time_s;
    out->fsdp_fraction = out->fsdp_time_s / step;
    const double w[] = {out->step_fraction, out->step_fraction_added, out->ddp_exposed_s, out->ddp_fraction,
                        out->fsdp_time_s, out->fsdp_fraction};
    return rli_check_finite(w, sizeof w / sizeof w[0], err, "collective %g s, step %g s, backward %g s",
                            out->time_s, step, c->backward_time_s);
  }
  return RL_OK;
}

double rl_allreduce_floor(const rl_hw *hw) {
  return hw && hw->link_latency_s > 0 ? RL_ALLREDUCE_FLOOR_NVLINK_S : 0;
}
