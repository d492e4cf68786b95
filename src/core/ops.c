/*
 * ops.c -- the op cost model: FLOPs F and ideal memory traffic Q of each
 * operation of a Transformer (and a few more that traces contain).
 *
 * Ideal traffic counts each input read once and each output written once,
 * what a well-written kernel achieves (NVIDIA, "GPU Performance Background
 * User's Guide", arithmetic intensity; the first seed's "intensity of a
 * Transformer's operations"). s is bytes per element (rl_dtype_bytes).
 * A multiply-add counts as 2 FLOPs; exp, tanh, erf, rsqrt count as one
 * FLOP each (the first seed's convention: "we count exp as one FLOP").
 *
 *   add, sub, mul, div   F = n            Q = 3ns        (first seed, "Elementwise")
 *   relu                 F = n            Q = 2ns
 *   gelu (tanh form)     F = 9n: x^3 (2), *0.044715, +x, *sqrt(2/pi), tanh,
 *                        +1, *x, *0.5     Q = 2ns        (seed: "8 to 20")
 *   gelu (erf form)      F = 5n: /sqrt2, erf, +1, *x, *0.5
 *   silu                 F = 4n: neg, exp, +1, divide
 *   softmax (m rows x n) F = 5mn: max, subtract, exp, sum, divide
 *                        Q = 2mns                        (first seed)
 *   layernorm            F = 8mn: mean 1, variance 3, normalize 2, affine 2
 *                        Q = 2mns + 2ns (gamma, beta read once) (first seed)
 *   rmsnorm              F = 4mn: square, sum, scale, gain
 *                        Q = 2mns + ns (gain read once)  (Zhang & Sennrich 2019)
 *   matmul (m x k)(k x n), b batches
 *                        F = 2bmnk        Q = b(s_a mk + s_b kn + s_a mn)
 *                        (first seed; NVIDIA "Matrix Multiplication
 *                        Background User's Guide")
 *   linear (m tokens, d_in = k, d_out = n)
 *                        F = 2mkn (+ mn bias)
 *                        Q = s mk + s_w kn + s mn (+ s_w n bias):
 *                        weights read once per call (first seed: I ~ B)
 *   attention, one head, T queries, T_kv keys, head width d (the first
 *   seed's count, per head, times batch):
 *     naive              F = 4 T T_kv d + 5 T T_kv  (two matmuls + softmax)
 *                        Q = s(T d + T_kv d + T T_kv)        scores
 *                          + s(2 T T_kv)                     softmax
 *                          + s(T T_kv + T_kv d + T d)        A V
 *     fused              Q = s(2 T d + 2 T_kv d * r): Q read, O written, K
 *                        and V read r times, r = ceil(T / tile) when a
 *                        query tile is given, else 1 (Dao et al. 2022,
 *                        FlashAttention, Theorem 2 counts the same re-reads)
 *     GQA                K and V belong to kv_heads <= heads heads and are
 *                        counted once per KV head (ideal traffic).
 *     causal             convention: half the score FLOPs (both matmuls and
 *                        the softmax), as FlashAttention's benchmarks count
 *                        them; traffic unchanged (a naive kernel still
 *                        writes the full T x T_kv scores).
 *   conv2d               F = 2 N C_out H_o W_o (C_in/g) kh kw
 *                        Q = s N C_in H W + s_w C_out (C_in/g) kh kw
 *                          + s N C_out H_o W_o
 *   copy                 F = 0, Q = n(s_src + s_dst), s_src from weight_dtype
 *   embedding            F = 0, Q = m n s_w (rows gathered) + m n s + 8m
 *                        (int64 indices)
 *   kernel               F and Q as given
 *
 * Every size is a double: products that would overflow 64-bit integers
 * are exact enough in floating point, and a result above 1e300 is refused.
 */
#include "core/internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const op_names[RL_OP_KIND_COUNT] = {
    "add",     "mul",       "sub",      "div",    "relu",   "gelu-tanh",
    "gelu-erf", "silu",     "softmax",  "layernorm", "rmsnorm", "matmul",
    "linear",  "attention", "conv2d",   "copy",   "embedding", "kernel"};

static const struct {
  const char *alias;
  int32_t kind;
} op_aliases[] = {
    {"gelu", RL_OP_GELU_TANH}, {"gelu_tanh", RL_OP_GELU_TANH},
    {"gelu_erf", RL_OP_GELU_ERF}, {"bmm", RL_OP_MATMUL}, {"mm", RL_OP_MATMUL},
    {"gemm", RL_OP_MATMUL},    {"layer_norm", RL_OP_LAYERNORM},
    {"layer-norm", RL_OP_LAYERNORM}, {"rms_norm", RL_OP_RMSNORM},
    {"rms-norm", RL_OP_RMSNORM}, {"attn", RL_OP_ATTENTION},
    {"sdpa", RL_OP_ATTENTION}, {"conv", RL_OP_CONV2D},
    {"convolution", RL_OP_CONV2D}, {"swish", RL_OP_SILU},
    {"elementwise", RL_OP_ADD},
};

const char *rl_op_name(int32_t kind) {
  if (kind < 0 || kind >= RL_OP_KIND_COUNT) return NULL;
  return op_names[kind];
}

rl_status rl_op_parse(const char *name, int32_t *kind, rl_error *err) {
  if (!name || !*name) return rli_fail(err, RL_EINVAL, "empty op name");
  for (int32_t i = 0; i < RL_OP_KIND_COUNT; i++)
    if (rli_strcasecmp(name, op_names[i]) == 0) { *kind = i; return RL_OK; }
  for (size_t i = 0; i < sizeof op_aliases / sizeof op_aliases[0]; i++)
    if (rli_strcasecmp(name, op_aliases[i].alias) == 0) {
      *kind = op_aliases[i].kind;
      return RL_OK;
    }
  return rli_fail(err, RL_ENOTFOUND,
                  "unknown op '%s' (add mul sub div relu gelu-tanh gelu-erf silu "
                  "softmax layernorm rmsnorm matmul linear attention conv2d copy "
                  "embedding kernel)", name);
}

rl_op rl_op_init(int32_t kind, int32_t dtype) {
  rl_op op;
  memset(&op, 0, sizeof op);
  op.kind = kind;
  op.dtype = dtype;
  op.weight_dtype = -1;
  return op;
}

/* A size that must be a whole number > 0. */
static rl_status need(double x, const char *what, rl_error *err) {
  rl_status st = rli_check_size(x, what, err);
  if (st != RL_OK) return st;
  if (x != floor(x)) return rli_fail(err, RL_EINVAL, "%s must be a whole number (got %g)", what, x);
  return RL_OK;
}

/* An optional size: 0 means `dflt`. */
static rl_status opt(double x, double dflt, const char *what, double *out, rl_error *err) {
  if (x == 0) { *out = dflt; return RL_OK; }
  rl_status st = need(x, what, err);
  if (st == RL_OK) *out = x;
  return st;
}

#define TRY(x) do { rl_status st_ = (x); if (st_ != RL_OK) return st_; } while (0)

static rl_status dtype_bytes(int32_t dt, const char *what, double *s, rl_error *err) {
  *s = rl_dtype_bytes(dt);
  if (*s <= 0) return rli_fail(err, RL_EINVAL, "invalid %s (%d)", what, (int)dt);
  return RL_OK;
}

/* The size fields each kind reads; a non-zero value in any other field is
 * refused, so that a misplaced size is an error rather than ignored. */
static const char *fields_of(int32_t kind) {
  switch (kind) {
  case RL_OP_SOFTMAX: case RL_OP_LAYERNORM: case RL_OP_RMSNORM: case RL_OP_EMBEDDING:
    return " m n ";
  case RL_OP_MATMUL: return " batch m n k ";
  case RL_OP_LINEAR: return " m n k ";
  case RL_OP_ATTENTION: return " batch seq seq_kv head_dim heads kv_heads tile ";
  case RL_OP_CONV2D: return " batch c_in c_out h w kh kw stride pad groups ";
  case RL_OP_KERNEL: return " flops bytes ";
  default: return " n ";
  }
}

static rl_status check_fields(const rl_op *op, rl_error *err) {
  const struct { const char *name; double v; } f[] = {
      {"batch", op->batch}, {"m", op->m}, {"n", op->n}, {"k", op->k}, {"seq", op->seq},
      {"seq_kv", op->seq_kv}, {"head_dim", op->head_dim}, {"heads", op->heads},
      {"kv_heads", op->kv_heads}, {"tile", op->tile}, {"c_in", op->c_in},
      {"c_out", op->c_out}, {"h", op->h}, {"w", op->w}, {"kh", op->kh}, {"kw", op->kw},
      {"stride", op->stride}, {"pad", op->pad}, {"groups", op->groups},
      {"flops", op->flops}, {"bytes", op->bytes}};
  const char *used = fields_of(op->kind);
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    if (f[i].v == 0) continue;
    char word[16];
    snprintf(word, sizeof word, " %s ", f[i].name);
    if (!strstr(used, word))
      return rli_fail(err, RL_EINVAL, "%s does not apply to %s", f[i].name, op_names[op->kind]);
  }
  uint32_t fl = op->flags;
  if ((fl & (RL_OP_FUSED | RL_OP_CAUSAL)) && op->kind != RL_OP_ATTENTION)
    return rli_fail(err, RL_EINVAL, "fused/causal apply to attention only");
  if ((fl & RL_OP_BIAS) && op->kind != RL_OP_MATMUL && op->kind != RL_OP_LINEAR &&
      op->kind != RL_OP_CONV2D)
    return rli_fail(err, RL_EINVAL, "bias applies to matmul, linear and conv2d only");
  if (fl & ~(RL_OP_FUSED | RL_OP_CAUSAL | RL_OP_BIAS))
    return rli_fail(err, RL_EINVAL, "unknown op flags 0x%x", (unsigned)fl);
  return RL_OK;
}

rl_status rl_op_cost(const rl_op *op, rl_cost *out, rl_error *err) {
  if (!op || !out) return rli_fail(err, RL_EINVAL, "no op");
  if (op->kind < 0 || op->kind >= RL_OP_KIND_COUNT)
    return rli_fail(err, RL_EINVAL, "invalid op kind %d", (int)op->kind);
  TRY(check_fields(op, err));
  double s, sw;
  TRY(dtype_bytes(op->dtype, "dtype", &s, err));
  if (op->weight_dtype >= 0) TRY(dtype_bytes(op->weight_dtype, "weight dtype", &sw, err));
  else sw = s;
  double F = 0, Q = 0;
  int tensor = 0;
  int bias = (op->flags & RL_OP_BIAS) != 0;
  switch (op->kind) {
  case RL_OP_ADD: case RL_OP_MUL: case RL_OP_SUB: case RL_OP_DIV:
    TRY(need(op->n, "n (elements)", err));
    F = op->n;
    Q = 3 * op->n * s;
    break;
  case RL_OP_RELU: case RL_OP_GELU_TANH: case RL_OP_GELU_ERF: case RL_OP_SILU: {
    static const double per[] = {1, 9, 5, 4};
    TRY(need(op->n, "n (elements)", err));
    F = per[op->kind - RL_OP_RELU] * op->n;
    Q = 2 * op->n * s;
    break;
  }
  case RL_OP_SOFTMAX: case RL_OP_LAYERNORM: case RL_OP_RMSNORM: {
    TRY(need(op->m, "rows", err));
    TRY(need(op->n, "cols", err));
    double e = op->m * op->n;
    if (op->kind == RL_OP_SOFTMAX) { F = 5 * e; Q = 2 * e * s; }
    else if (op->kind == RL_OP_LAYERNORM) { F = 8 * e; Q = 2 * e * s + 2 * op->n * sw; }
    else { F = 4 * e; Q = 2 * e * s + op->n * sw; }
    break;
  }
  case RL_OP_MATMUL: {
    double b;
    TRY(need(op->m, "m", err));
    TRY(need(op->n, "n", err));
    TRY(need(op->k, "k", err));
    TRY(opt(op->batch, 1, "batch", &b, err));
    F = b * (2 * op->m * op->n * op->k + (bias ? op->m * op->n : 0));
    Q = b * (s * op->m * op->k + sw * op->k * op->n + s * op->m * op->n) +
        (bias ? sw * op->n : 0);
    tensor = 1;
    break;
  }
  case RL_OP_LINEAR:
    TRY(need(op->m, "tokens", err));
    TRY(need(op->k, "d_in", err));
    TRY(need(op->n, "d_out", err));
    F = 2 * op->m * op->k * op->n + (bias ? op->m * op->n : 0);
    Q = s * op->m * op->k + sw * op->k * op->n + s * op->m * op->n +
        (bias ? sw * op->n : 0);
    tensor = 1;
    break;
  case RL_OP_ATTENTION: {
    double b, h, hkv, tkv, T = op->seq, d = op->head_dim;
    TRY(need(T, "seq", err));
    TRY(need(d, "head_dim", err));
    TRY(opt(op->batch, 1, "batch", &b, err));
    TRY(opt(op->heads, 1, "heads", &h, err));
    TRY(opt(op->kv_heads, h, "kv_heads", &hkv, err));
    TRY(opt(op->seq_kv, T, "seq_kv", &tkv, err));
    if (hkv > h) return rli_fail(err, RL_EINVAL, "kv_heads (%g) exceeds heads (%g)", hkv, h);
    if (fmod(h, hkv) != 0)
      return rli_fail(err, RL_EINVAL, "heads (%g) is not a multiple of kv_heads (%g)", h, hkv);
    double pairs = T * tkv * ((op->flags & RL_OP_CAUSAL) ? 0.5 : 1.0);
    F = b * h * (4 * pairs * d + 5 * pairs);
    if (op->flags & RL_OP_FUSED) {
      double r = 1;
      if (op->tile != 0) {
        TRY(need(op->tile, "tile", err));
        r = ceil(T / op->tile);
      }
      Q = b * s * (2 * h * T * d + 2 * hkv * tkv * d * r);
    } else {
      if (op->tile != 0)
        return rli_fail(err, RL_EINVAL, "a tile size applies to fused attention only (add --fused)");
      Q = b * s * (h * (2 * T * d + 4 * T * tkv) + 2 * hkv * tkv * d);
    }
    tensor = 1;
    break;
  }
  case RL_OP_CONV2D: {
    double N, stride, pad = op->pad, g;
    TRY(opt(op->batch, 1, "batch", &N, err));
    TRY(need(op->c_in, "c_in", err));
    TRY(need(op->c_out, "c_out", err));
    TRY(need(op->h, "h", err));
    TRY(need(op->w, "w", err));
    TRY(need(op->kh, "kh", err));
    TRY(need(op->kw, "kw", err));
    TRY(opt(op->stride, 1, "stride", &stride, err));
    TRY(opt(op->groups, 1, "groups", &g, err));
    if (pad < 0 || pad != floor(pad) || !isfinite(pad))
      return rli_fail(err, RL_EINVAL, "pad must be a whole number >= 0");
    if (fmod(op->c_in, g) != 0 || fmod(op->c_out, g) != 0)
      return rli_fail(err, RL_EINVAL, "c_in and c_out must be multiples of groups");
    double ho = floor((op->h + 2 * pad - op->kh) / stride) + 1;
    double wo = floor((op->w + 2 * pad - op->kw) / stride) + 1;
    if (ho < 1 || wo < 1)
      return rli_fail(err, RL_EINVAL, "the kernel (%gx%g) is larger than the padded input", op->kh, op->kw);
    double wts = op->c_out * (op->c_in / g) * op->kh * op->kw;
    F = 2 * N * op->c_out * ho * wo * (op->c_in / g) * op->kh * op->kw +
        (bias ? N * op->c_out * ho * wo : 0);
    Q = s * N * op->c_in * op->h * op->w + sw * wts + s * N * op->c_out * ho * wo +
        (bias ? sw * op->c_out : 0);
    tensor = 1;
    break;
  }
  case RL_OP_COPY:
    TRY(need(op->n, "n (elements)", err));
    F = 0;
    Q = op->n * (s + sw);
    break;
  case RL_OP_EMBEDDING:
    TRY(need(op->m, "rows (tokens gathered)", err));
    TRY(need(op->n, "cols (embedding width)", err));
    F = 0;
    Q = op->m * op->n * (sw + s) + 8 * op->m;
    break;
  case RL_OP_KERNEL:
    if (isnan(op->flops) || isnan(op->bytes))
      return rli_fail(err, RL_EINVAL, "flops and bytes must be numbers, not NaN");
    if (op->flops < 0 || !isfinite(op->flops) || op->flops >= 1e30)
      return rli_fail(err, RL_EINVAL, "flops must be finite and >= 0 (got %g)", op->flops);
    TRY(rli_check_size(op->bytes, "bytes", err));
    F = op->flops;
    Q = op->bytes;
    break;
  default:
    return rli_fail(err, RL_EINVAL, "invalid op kind %d", (int)op->kind);
  }
  if (!isfinite(F) || !isfinite(Q) || F > 1e300 || Q > 1e300)
    return rli_fail(err, RL_ERANGE, "%s: sizes so large that FLOPs or bytes overflow",
                    op_names[op->kind]);
  out->flops = F;
  out->bytes = Q;
  out->intensity = Q > 0 ? F / Q : 0;
  out->tensor = tensor;
  out->peak = -1;
  return RL_OK;
}

rl_status rl_linear_min_batch(double d_in, double d_out, int32_t dtype,
                              int32_t weight_dtype, int bias, double ridge,
                              double *batch, rl_error *err) {
  TRY(need(d_in, "d_in", err));
  TRY(need(d_out, "d_out", err));
  TRY(rli_check_size(ridge, "ridge point", err));
  double s = rl_dtype_bytes(dtype);
  double sw = weight_dtype >= 0 ? rl_dtype_bytes(weight_dtype) : s;
  if (s <= 0 || sw <= 0) return rli_fail(err, RL_EINVAL, "invalid dtype");
  double k = d_in, n = d_out;
  /* I(B) = B(2kn + b n) / (B s(k + n) + sw(kn + b n)), increasing in B,
   * tending to (2kn + bn) / (s(k + n)). */
  double fpt = 2 * k * n + (bias ? n : 0);  /* FLOPs per token */
  double qpt = s * (k + n);                  /* bytes per token */
  double qw = sw * (k * n + (bias ? n : 0)); /* weight bytes */
  if (fpt / qpt <= ridge) { *batch = 0; return RL_OK; }
  double B = ceil(ridge * qw / (fpt - ridge * qpt));
  if (B < 1) B = 1;
  /* guard against rounding at the boundary */
  while (B > 1 && (B - 1) * fpt / ((B - 1) * qpt + qw) >= ridge) B--;
  while (B * fpt / (B * qpt + qw) < ridge) B++;
  *batch = B;
  return RL_OK;
}
