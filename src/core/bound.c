/*
 * bound.c -- the roofline bound of one kernel, its verdict, its JSON
 * record, and the Transformer-layer table (`roofline layer`).
 *
 * Williams, Waterman & Patterson, "Roofline: An Insightful Visual
 * Performance Model for Multicore Architectures", CACM 52(4), 2009:
 *   attainable FLOP/s = min(peak, bandwidth x I),  I = F / Q
 *   time >= max(F / peak, Q / bandwidth)  (perfect overlap of the two)
 *   ridge point I* = peak / bandwidth.
 * The overhead regime (He, "Making Deep Learning Go Brrrr From First
 * Principles", 2022): a kernel whose bound is below the launch overhead is
 * overhead-bound whatever its intensity.
 */
#include "core/internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *rl_bound_name(int32_t bound) {
  switch (bound) {
  case RL_BOUND_MEMORY: return "memory";
  case RL_BOUND_COMPUTE: return "compute";
  case RL_BOUND_OVERHEAD: return "overhead";
  case RL_BOUND_NETWORK: return "network";
  default: return NULL;
  }
}

rl_status rl_roofline(double flops, double bytes, const rl_roof *roof,
                      double measured_s, rl_result *out, rl_error *err) {
  if (!roof || !out) return rli_fail(err, RL_EINVAL, "no roof");
  if (isnan(flops) || isnan(bytes)) return rli_fail(err, RL_EINVAL, "FLOPs or bytes is NaN");
  if (!isfinite(flops) || flops < 0)
    return rli_fail(err, RL_EINVAL, "FLOPs must be finite and >= 0 (got %g)", flops);
  if (!isfinite(bytes) || bytes < 0)
    return rli_fail(err, RL_EINVAL, "bytes must be finite and >= 0 (got %g)", bytes);
  if (flops == 0 && bytes == 0)
    return rli_fail(err, RL_EINVAL, "a kernel needs FLOPs or bytes > 0");
  rl_status st = rli_check_size(roof->peak, "peak FLOP/s", err);
  if (st != RL_OK) return st;
  st = rli_check_size(roof->bandwidth, "memory bandwidth", err);
  if (st != RL_OK) return st;
  if (isnan(measured_s) || isinf(measured_s))
    return rli_fail(err, RL_EINVAL, "measured time must be a finite number of seconds");
  if (isnan(roof->launch_overhead_s) || roof->launch_overhead_s < 0)
    return rli_fail(err, RL_EINVAL, "launch overhead must be >= 0");
  memset(out, 0, sizeof *out);
  out->flops = flops;
  out->bytes = bytes;
  out->intensity = bytes > 0 ? flops / bytes : (double)INFINITY;
  out->peak = roof->peak;
  out->bandwidth = roof->bandwidth;
  out->ridge = roof->peak / roof->bandwidth;
  out->compute_time_s = flops / roof->peak;
  out->memory_time_s = bytes / roof->bandwidth;
  out->time_s = fmax(out->compute_time_s, out->memory_time_s);
  out->attainable = bytes > 0 ? fmin(roof->peak, roof->bandwidth * out->intensity) : roof->peak;
  out->peak_fraction = out->attainable / roof->peak;
  out->bound = out->compute_time_s >= out->memory_time_s ? RL_BOUND_COMPUTE : RL_BOUND_MEMORY;
  out->launch_overhead_s = roof->launch_overhead_s;
  if (roof->launch_overhead_s > 0 && out->time_s < roof->launch_overhead_s)
    out->bound = RL_BOUND_OVERHEAD;
  if (measured_s > 0) {
    out->has_measured = 1;
    out->measured_s = measured_s;
    out->achieved = flops / measured_s;
    out->roof_fraction = out->time_s / measured_s;
  } else if (measured_s < 0) {
    return rli_fail(err, RL_EINVAL, "measured time must be > 0 (got %g s)", measured_s);
  }
  const double v[] = {out->ridge, out->compute_time_s, out->memory_time_s, out->time_s, out->attainable,
                      out->peak_fraction, out->achieved, out->roof_fraction, bytes > 0 ? out->intensity : 0};
  return rli_check_finite(v, sizeof v / sizeof v[0], err,
                          "F = %g FLOP, Q = %g B, peak %g FLOP/s, bandwidth %g B/s, measured %g s", flops,
                          bytes, roof->peak, roof->bandwidth, measured_s);
}

int rl_above_roof(const rl_result *r) {
  return r && r->has_measured && r->roof_fraction > 1;
}

size_t rl_verdict(const rl_result *r, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  if (!r) return rli_out_end(&o);
  char t[32], lo[32];
  rl_format_quantity(r->time_s, RL_UNIT_SECONDS, t, sizeof t);
  double pct = 100 * r->roof_fraction;
  if (r->has_measured && r->roof_fraction > 1.02) {
    /* %.0f of an absurd fraction (a time of 1e-300 s) would print hundreds
     * of digits: past a million percent, three significant ones */
    rli_out_printf(&o,
                   pct < 1e6 ? "faster than its roof (%.0f%%): the FLOP or byte count, or the peak, is "
                               "wrong for this kernel (sparse peak? data resident in L2?)"
                             : "faster than its roof (%.3g%%): the FLOP or byte count, or the peak, is "
                               "wrong for this kernel (sparse peak? data resident in L2?)", pct);
    return rli_out_end(&o);
  }
  switch (r->bound) {
  case RL_BOUND_OVERHEAD:
    rl_format_quantity(r->launch_overhead_s, RL_UNIT_SECONDS, lo, sizeof lo);
    rli_out_printf(&o,
                   "overhead-bound: its roofline time (%s) is below the launch overhead (%s); "
                   "only more work per launch (batching, fusion, CUDA graphs) helps", t, lo);
    break;
  case RL_BOUND_MEMORY:
    if (!r->has_measured)
      rli_out_printf(&o,
                     "memory-bound (intensity %.3g < ridge %.3g FLOP/B): only moving fewer "
                     "bytes (fusion, a smaller format) makes it faster; faster arithmetic "
                     "changes nothing", r->intensity, r->ridge);
    else if (r->roof_fraction >= 0.8)
      rli_out_printf(&o,
                     "memory-bound at %.0f%% of its roof: only moving fewer bytes, e.g. by "
                     "fusion, makes it substantially faster", pct);
    else
      rli_out_printf(&o,
                     "memory-bound at %.0f%% of its roof: up to %.1fx from reaching full "
                     "bandwidth (coalesced, vectorized access), beyond that only fewer bytes",
                     pct, 1 / r->roof_fraction);
    break;
  case RL_BOUND_COMPUTE:
    if (!r->has_measured)
      rli_out_printf(&o,
                     "compute-bound (intensity %.4g > ridge %.3g FLOP/B): fewer bytes would "
                     "not help; its time is set by the arithmetic", r->intensity, r->ridge);
    else if (r->roof_fraction >= 0.8)
      rli_out_printf(&o,
                     "compute-bound at %.0f%% of the peak: near the flat roof; only less "
                     "arithmetic or a faster format helps", pct);
    else
      rli_out_printf(&o,
                     "compute-bound at %.0f%% of the peak: up to %.1fx left in the arithmetic "
                     "(tile shapes, tensor-core use, occupancy)", pct, 1 / r->roof_fraction);
    break;
  default: break;
  }
  return rli_out_end(&o);
}

size_t rl_result_json(const char *op, const char *hw, const char *dtype,
                      const rl_roof *roof, const rl_result *r,
                      const char *extra, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  if (!r) return rli_out_end(&o);
  rli_out_puts(&o, "{\"op\":");
  rli_out_str(&o, op ? op : "kernel");
  rli_out_puts(&o, ",\"hw\":");
  if (hw) rli_out_str(&o, hw); else rli_out_puts(&o, "null");
  rli_out_puts(&o, ",\"dtype\":");
  if (dtype) rli_out_str(&o, dtype); else rli_out_puts(&o, "null");
#define NUM(k, v) do { rli_out_puts(&o, ",\"" k "\":"); rli_out_num(&o, v); } while (0)
  NUM("flops", r->flops);
  NUM("bytes", r->bytes);
  NUM("intensity", r->intensity);
  NUM("peak", r->peak);
  rli_out_puts(&o, ",\"peak_kind\":");
  if (roof && roof->peak_kind >= 0) rli_out_str(&o, rl_peak_name(roof->peak_kind));
  else rli_out_puts(&o, "\"user\"");
  rli_out_printf(&o, ",\"sparse\":%s", roof && roof->sparse ? "true" : "false");
  NUM("bandwidth", r->bandwidth);
  NUM("ridge", r->ridge);
  rli_out_puts(&o, ",\"bound\":");
  rli_out_str(&o, rl_bound_name(r->bound));
  NUM("time_s", r->time_s);
  NUM("compute_time_s", r->compute_time_s);
  NUM("memory_time_s", r->memory_time_s);
  NUM("attainable", r->attainable);
  NUM("peak_fraction", r->peak_fraction);
  if (roof) {
    NUM("launch_overhead_s", roof->launch_overhead_s);
    rli_out_printf(&o, ",\"peak_measured\":%s,\"bandwidth_measured\":%s",
                   (roof->measured & RL_ROOF_MEASURED_PEAK) ? "true" : "false",
                   (roof->measured & RL_ROOF_MEASURED_BW) ? "true" : "false");
  }
  if (r->has_measured) {
    NUM("measured_s", r->measured_s);
    NUM("achieved", r->achieved);
    NUM("roof_fraction", r->roof_fraction);
  }
#undef NUM
  char v[400];
  rl_verdict(r, v, sizeof v);
  rli_out_puts(&o, ",\"verdict\":");
  rli_out_str(&o, v);
  if (extra && *extra) {
    rli_out_puts(&o, ",");
    rli_out_puts(&o, extra);
  }
  rli_out_puts(&o, "}");
  return rli_out_end(&o);
}

rl_layer_shape rl_layer_default(void) {
  rl_layer_shape s;
  s.rows = 4096;
  s.d = 4096;
  s.batches[0] = 1;
  s.batches[1] = 128;
  s.batches[2] = 512;
  s.seq = 4096;
  s.head_dim = 128;
  s.dtype = RL_BF16;
  return s;
}

rl_status rl_layer_ops(const rl_layer_shape *sh, rl_op *ops,
                       char (*labels)[RL_LABEL_MAX], int32_t cap, int32_t *n,
                       rl_error *err) {
  if (!sh || !ops || !labels || !n) return rli_fail(err, RL_EINVAL, "no output");
  if (cap < RL_LAYER_OPS) return rli_fail(err, RL_EINVAL, "need room for %d ops", RL_LAYER_OPS);
  if (rl_dtype_bytes(sh->dtype) <= 0) return rli_fail(err, RL_EINVAL, "invalid dtype");
  int32_t i = 0;
  static const int32_t elem[3] = {RL_OP_ADD, RL_OP_SOFTMAX, RL_OP_LAYERNORM};
  for (int k = 0; k < 3; k++, i++) {
    ops[i] = rl_op_init(elem[k], sh->dtype);
    if (elem[k] == RL_OP_ADD) ops[i].n = sh->rows * sh->d;
    else { ops[i].m = sh->rows; ops[i].n = sh->d; }
    snprintf(labels[i], RL_LABEL_MAX, "%s", rl_op_name(elem[k]));
  }
  for (int k = 0; k < 3; k++, i++) {
    ops[i] = rl_op_init(RL_OP_LINEAR, sh->dtype);
    ops[i].m = sh->batches[k];
    ops[i].k = sh->d;
    ops[i].n = sh->d;
    snprintf(labels[i], RL_LABEL_MAX, "linear B=%.0f", sh->batches[k]);
  }
  for (int k = 0; k < 2; k++, i++) {
    ops[i] = rl_op_init(RL_OP_ATTENTION, sh->dtype);
    ops[i].seq = sh->seq;
    ops[i].head_dim = sh->head_dim;
    if (k) ops[i].flags = RL_OP_FUSED;
    snprintf(labels[i], RL_LABEL_MAX, "attention %s", rl_attn_impl_name(k ? RL_ATTN_IMPL_FUSED : RL_ATTN_IMPL_NAIVE));
  }
  /* validate every shape now, so callers get one clear error */
  for (int32_t j = 0; j < i; j++) {
    rl_cost c;
    rl_status st = rl_op_cost(&ops[j], &c, err);
    if (st != RL_OK) return st;
  }
  *n = i;
  return RL_OK;
}
