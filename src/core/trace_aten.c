/*
 * trace_aten.c -- F and Q of one call of a PyTorch (ATen) op from the
 * shapes the profiler recorded (`Input Dims`, `Input type`, `Concrete
 * Inputs` with record_shapes=True), through the core's op cost model
 * (src/core/ops.c states every formula and its source). And the mapping
 * from the device names profilers write to the hardware database.
 *
 * Argument layouts are those of ATen's native_functions.yaml:
 *   mm(self[M,K], mat2[K,N])                       matmul M,N,K
 *   addmm(bias, mat1[M,K], mat2[K,N], beta, alpha) matmul + bias
 *   bmm(self[B,M,K], mat2[B,K,N])                  matmul, batch B
 *   baddbmm(self, batch1[B,M,K], batch2[B,K,N],..) matmul, batch B, + bias
 *   matmul(a[...,M,K], b[...,K,N] or b[K,N])       batch = prod of a's
 *                                                  leading dims (b 2-D:
 *                                                  folded into M)
 *   linear(input[...,K], weight[N,K], bias[N]?)    linear, M = prod(...)
 *   conv2d / convolution / _convolution(input[N,C,H,W], weight[Co,C/g,kh,kw],
 *     bias, stride, padding, dilation, (transposed, output_padding,) groups)
 *   cudnn_convolution(input, weight, padding, stride, dilation, groups, ...)
 *                                                  stride, padding, groups
 *                                                  from `Concrete Inputs`
 *   layer_norm / native_layer_norm(input[..., N], normalized_shape, ...)
 *   softmax / _softmax(input, dim, ...)            rows x last dim
 *   add sub mul div (and _ forms) gelu silu relu   elementwise; broadcast
 *     operands are read once at their own size: F = n_out * f,
 *     Q = sum of input bytes + output bytes (ideal traffic, ops.c)
 *   copy_(self, src)                               copy, src format read
 *   embedding(weight[V,D], indices[...])           embedding
 *   scaled_dot_product_attention and the flash/efficient/cudnn variants
 *     (query[B,H,T,d], key[B,Hkv,S,d], value, ...): fused attention; the
 *     causal flag from `Concrete Inputs` (sdpa: argument 5; the _flash /
 *     _efficient / _cudnn forms: argument 4, 5 or 6 as listed below).
 */
#include "core/trace_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double numel(const rli_aten_args *a, int i) {
  if (i >= a->n_in || a->ndim[i] < 0) return -1;
  double n = 1;
  for (int d = 0; d < a->ndim[i]; d++) n *= a->dims[i][d];
  return n;
}

/* the i-th input is a tensor of rank r (r < 0: any rank >= 1) */
static int is_tensor(const rli_aten_args *a, int i, int r) {
  if (i >= a->n_in || a->ndim[i] < 0) return 0;
  if (r < 0) return a->ndim[i] >= 1;
  return a->ndim[i] == r;
}

static int32_t type_at(const rli_aten_args *a, int i) {
  if (i >= a->n_types) return -1;
  return rli_torch_dtype(a->types[i]);
}

/* "[1, 1]" or "1" -> the first value; -1 when absent */
static double concrete_num(const rli_aten_args *a, int i, int which) {
  if (i >= a->n_concrete || !a->concrete[i][0]) return -1;
  const char *p = a->concrete[i];
  for (int k = 0; k <= which; k++) {
    while (*p && (*p < '0' || *p > '9') && *p != '-') p++;
    if (!*p) return -1;
    char *end;
    double v = strtod(p, &end);
    if (end == p) return -1;
    if (k == which) return v;
    p = end;
  }
  return -1;
}

static int concrete_bool(const rli_aten_args *a, int i) {
  if (i >= a->n_concrete) return -1;
  if (strcmp(a->concrete[i], "True") == 0 || strcmp(a->concrete[i], "true") == 0 ||
      strcmp(a->concrete[i], "1") == 0)
    return 1;
  if (strcmp(a->concrete[i], "False") == 0 || strcmp(a->concrete[i], "false") == 0 ||
      strcmp(a->concrete[i], "0") == 0)
    return 0;
  return -1;
}

static const char *strip_ns(const char *name) {
  if (strncmp(name, "aten::", 6) == 0) return name + 6;
  return name;
}

static int from_op(const rl_op *op, rli_cost *c, char *why, size_t cap) {
  rl_cost rc;
  rl_error e;
  if (rl_op_cost(op, &rc, &e) != RL_OK) {
    snprintf(why, cap, "shapes do not fit the cost model: %s", e.msg);
    return 0;
  }
  c->flops = rc.flops;
  c->bytes = rc.bytes;
  c->tensor = rc.tensor;
  c->dtype = op->dtype;
  c->reason = 0;
  c->coll = -1;
  return 1;
}

static int fail(char *why, size_t cap, const char *fmt, ...) RLI_PRINTF(3, 4);
static int fail(char *why, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, cap, fmt, ap);
  va_end(ap);
  return 0;
}

/* S by nccl-tests' convention from record_param_comms' element counts:
 * the all-gather's output, everything else's input (a receive: output). */
int rli_coll_from_args(const rli_aten_args *a, rli_cost *c, char *why, size_t cap) {
  int32_t kind = rli_coll_kind(a->coll_name);
  if (kind < 0) {
    memset(c, 0, sizeof *c);
    c->reason = RL_REASON_NO_MODEL;
    snprintf(why, cap, "collective '%s' has no bandwidth model", a->coll_name);
    return 0;
  }
  double es = rli_torch_type_bytes(a->coll_dtype);
  double ne = kind == RLI_COLL_ALLGATHER ? a->out_nelems
              : kind == RLI_COLL_SENDRECV ? fmax(a->in_nelems, a->out_nelems)
              : a->in_nelems != -1 ? a->in_nelems : a->out_nelems;
  if (!(es > 0) || ne == -1) {
    memset(c, 0, sizeof *c);
    c->reason = RL_REASON_COLL_NO_SIZE;
    snprintf(why, cap, "%s: message size not recorded (%s)", rli_coll_name(kind),
             ne == -1 ? "no msg nelems" : "unknown dtype");
    return 0;
  }
  int ok = rli_coll_cost(kind, ne * es, a->group_size, c, why, cap);
  if (ok && a->coll_dtype[0]) c->dtype = rli_torch_dtype(a->coll_dtype);
  return ok;
}

/* A collective op: nccl:* (ProcessGroupNCCL's record_function, Input Dims
 * of the tensor it sends), c10d::* (the tensors as listed in
 * native_functions-style schemas: _allgather_base_(output, input),
 * _reduce_scatter_base_(output, input), alltoall_base_(output, input, ...))
 * and record_param_comms (its "Collective name" args, PyTorch 2.1+). */
static int coll_op(const char *full, const rli_aten_args *a, rli_cost *c, char *why,
                   size_t cap) {
  if (a->has_coll) return rli_coll_from_args(a, c, why, cap);
  c->reason = RL_REASON_COLL_NO_SIZE;
  int32_t kind = rli_coll_kind(full);
  if (kind < 0) {
    if (strcmp(full, "record_param_comms") != 0) {
      c->reason = RL_REASON_NO_MODEL;
      return fail(why, cap, "%s: not a collective with a bandwidth model", full);
    }
    return fail(why, cap, "collective size not recorded (record_param_comms without args)");
  }
  if (!a->has_dims) return fail(why, cap, "collective size not recorded (no shapes)");
  int i = 0;
  if (!strncmp(full, "c10d::", 6) && (kind == RLI_COLL_REDUCESCATTER || kind == RLI_COLL_ALLTOALL))
    i = 1; /* (output, input): S is the input */
  if (i < a->n_in && a->ndim[i] == RLI_ATEN_LIST)
    return fail(why, cap, "collective size not recorded (a tensor list: its shapes are recorded, "
                          "its element type is not)");
  if (i >= a->n_in || a->ndim[i] < 0 || (i < a->n_types && !strcmp(a->types[i], "TensorList")))
    return fail(why, cap, "collective size not recorded (a tensor list: PyTorch records no "
                          "shapes inside it)");
  double es = i < a->n_types ? rli_torch_type_bytes(a->types[i]) : 0;
  if (!(es > 0))
    return fail(why, cap, "collective size not recorded (element type '%s')",
                i < a->n_types ? a->types[i] : "");
  /* c10d::_allgather_base_(output, input) and _reduce_scatter_base_(output,
   * input) record both tensors: the group size is the ratio of their sizes
   * (the gathered output is n inputs; the scattered input n outputs) */
  double n = -1;
  if (!strncmp(full, "c10d::", 6) && (kind == RLI_COLL_ALLGATHER || kind == RLI_COLL_REDUCESCATTER) &&
      a->n_in >= 2 && a->ndim[0] >= 1 && a->ndim[1] >= 1 &&
      !(a->n_types >= 2 && (!strcmp(a->types[0], "TensorList") || !strcmp(a->types[1], "TensorList")))) {
    double big = numel(a, kind == RLI_COLL_ALLGATHER ? 0 : 1);
    double one = numel(a, kind == RLI_COLL_ALLGATHER ? 1 : 0);
    if (!(one > 0 && big >= one && fmod(big, one) == 0)) {
      c->reason = RL_REASON_SHAPES;
      return fail(why, cap, "%s: output and input sizes (%g, %g elements) are no group's", full,
                  numel(a, 0), numel(a, 1));
    }
    n = big / one;
  }
  int ok = rli_coll_cost(kind, numel(a, i) * es, n, c, why, cap);
  /* nccl:_all_gather_base / nccl:all_gather record the input: S = n x it */
  if (ok && kind == RLI_COLL_ALLGATHER && !strncmp(full, "nccl:", 5)) c->per_rank = 1;
  if (ok && i < a->n_types) c->dtype = rli_torch_dtype(a->types[i]);
  return ok;
}

/* Compiled regions: torch.compile's autograd functions and Inductor's
 * graph calls; their kernels are Triton's or fused, no shapes apply. */
static int compiled(const char *n) {
  return strstr(n, "CompiledFunction") || strstr(n, "CompiledFxGraph") ||
         strstr(n, "torch-compiled") || strstr(n, "Torch-Compiled") || !strncmp(n, "triton_", 7);
}

/* ---- the handlers ---------------------------------------------------------- */

/* What a handler sees: the op's name, its recorded arguments, the format of
 * its first floating-point tensor (dt, s bytes per element), and where to
 * put the cost or the reason. */
typedef struct aten_ctx {
  const char *full;
  const char *base; /* without "aten::" and an in-place '_' */
  const rli_aten_args *a;
  int32_t dt;
  double s;
  rli_cost *c;
  char *why;
  size_t cap;
} aten_ctx;

typedef struct aten_def aten_def;
typedef int (*aten_fn)(const aten_ctx *x, const aten_def *d);
struct aten_def {
  const char *name; /* base name; the table is sorted by it */
  aten_fn fn;
  double f;         /* FLOPs per element (elementwise, reductions, norms) */
  int i0, i1, i2;   /* argument positions, as the handler says */
};

/* F and Q given directly (RL_OP_KERNEL): tensor 1 puts F on the tensor peak */
static int kernel_cost(const aten_ctx *x, double F, double Q, int tensor) {
  rl_op op = rl_op_init(RL_OP_KERNEL, x->dt);
  op.flops = F;
  op.bytes = Q;
  if (!from_op(&op, x->c, x->why, x->cap)) return 0;
  x->c->tensor = tensor;
  return 1;
}

/* bytes per element of input i: its recorded type, else the op's */
static double tb(const aten_ctx *x, int i) {
  double b = i < x->a->n_types ? rli_torch_type_bytes(x->a->types[i]) : 0;
  return b > 0 ? b : x->s;
}

/* the elements of input i, or -1 */
static double ne(const aten_ctx *x, int i) { return numel(x->a, i); }

/* concrete list element `which` of input i; a one-element list broadcasts */
static double cval(const rli_aten_args *a, int i, int which) {
  double v = concrete_num(a, i, which);
  return v >= 0 || which == 0 ? v : concrete_num(a, i, 0);
}

/* -- GEMMs ------------------------------------------------------------------ */
static int h_mm(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  int o = d->i0; /* addmm: (bias, mat1, mat2) */
  if (!is_tensor(a, o, 2) || !is_tensor(a, o + 1, 2))
    return fail(x->why, x->cap, "%s: expected two 2-D operands", x->full);
  rl_op op = rl_op_init(RL_OP_MATMUL, x->dt);
  op.m = a->dims[o][0];
  op.k = a->dims[o][1];
  op.n = a->dims[o + 1][1];
  if (a->dims[o + 1][0] != op.k) return fail(x->why, x->cap, "%s: inner dimensions differ", x->full);
  if (o && is_tensor(a, 0, -1)) op.flags |= RL_OP_BIAS;
  return from_op(&op, x->c, x->why, x->cap);
}

static int h_bmm(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  int o = d->i0; /* baddbmm: (self, batch1, batch2) */
  if (!is_tensor(a, o, 3) || !is_tensor(a, o + 1, 3))
    return fail(x->why, x->cap, "%s: expected two 3-D operands", x->full);
  rl_op op = rl_op_init(RL_OP_MATMUL, x->dt);
  op.batch = a->dims[o][0];
  op.m = a->dims[o][1];
  op.k = a->dims[o][2];
  op.n = a->dims[o + 1][2];
  if (a->dims[o + 1][1] != op.k) return fail(x->why, x->cap, "%s: inner dimensions differ", x->full);
  if (o) op.flags |= RL_OP_BIAS;
  return from_op(&op, x->c, x->why, x->cap);
}

static int h_matmul(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  if (!is_tensor(a, 0, -1) || !is_tensor(a, 1, -1) || a->ndim[0] < 2 || a->ndim[1] < 2)
    return fail(x->why, x->cap, "%s: vector operands are not modelled", x->full);
  int ra = a->ndim[0], rb = a->ndim[1];
  rl_op op = rl_op_init(RL_OP_MATMUL, x->dt);
  op.k = a->dims[0][ra - 1];
  op.n = a->dims[1][rb - 1];
  if (a->dims[1][rb - 2] != op.k) return fail(x->why, x->cap, "%s: inner dimensions differ", x->full);
  if (rb == 2) {
    op.m = numel(a, 0) / op.k;
  } else {
    op.m = a->dims[0][ra - 2];
    op.batch = numel(a, 0) / (op.m * op.k);
  }
  return from_op(&op, x->c, x->why, x->cap);
}

static int h_linear(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  if (!is_tensor(a, 0, -1) || !is_tensor(a, 1, 2))
    return fail(x->why, x->cap, "%s: expected input and 2-D weight", x->full);
  rl_op op = rl_op_init(RL_OP_LINEAR, x->dt);
  int32_t wt = type_at(a, 1);
  if (wt >= 0 && wt != x->dt) op.weight_dtype = wt;
  op.k = a->dims[0][a->ndim[0] - 1];
  op.n = a->dims[1][0];
  if (a->dims[1][1] != op.k) return fail(x->why, x->cap, "%s: weight does not match the input", x->full);
  op.m = numel(a, 0) / op.k;
  if (is_tensor(a, 2, 1)) op.flags |= RL_OP_BIAS;
  return from_op(&op, x->c, x->why, x->cap);
}

/* -- convolution --------------------------------------------------------------
 * N-d convolution, input [N, C_in, i_1..i_r], weight [C_out, C_in/g, k_1..k_r]
 * (transposed: [C_in, C_out/g, k..]). Output size (PyTorch Conv2d /
 * ConvTranspose2d documentation):
 *   o_j = floor((i_j + 2 p_j - d_j (k_j - 1) - 1) / s_j) + 1
 *   transposed: o_j = (i_j - 1) s_j - 2 p_j + d_j (k_j - 1) + op_j + 1
 * F = 2 x MACs, MACs = N C_out prod(o) (C_in/g) prod(k) (transposed:
 * N C_in prod(i) (C_out/g) prod(k)), the count of torch.utils.flop_counter's
 * conv_flop_count; + N C_out prod(o) for a bias. Q = s (input + weight +
 * output (+ bias)). The backward (convolution_backward) computes the data
 * gradient and the weight gradient with the forward's MACs each (the two
 * transposed convolutions of the chain rule), the bias gradient as a sum
 * over grad_output: F = 2 MACs per gradient asked for (output_mask) + the
 * bias sum; Q: data grad reads grad_output and weight, writes grad_input;
 * weight grad reads grad_output and input, writes grad_weight; bias grad
 * reads grad_output.
 *
 * Argument positions (native_functions.yaml), in the table as i0 = stride,
 * i1 = padding, i2 = groups, and these by name:
 *   conv1d/2d/3d(input, weight, bias, stride, padding, dilation, groups)
 *   conv_transpose1d/2d/3d(input, weight, bias, stride, padding,
 *     output_padding, groups, dilation)
 *   convolution(input, weight, bias, stride, padding, dilation, transposed,
 *     output_padding, groups); _convolution: the same, then flags
 *   cudnn_convolution(self, weight, padding, stride, dilation, groups, ...)
 *   cudnn_convolution_transpose(self, weight, padding, output_padding,
 *     stride, dilation, groups, ...)
 *   mkldnn_convolution / miopen_convolution(self, weight, bias, padding,
 *     stride, dilation, groups, ...)
 */
typedef struct conv_geo {
  int r;                       /* spatial rank */
  double N, cin, cout, g;
  double in[3], k[3], out[3];
  int transposed;
} conv_geo;

static double conv_macs(const conv_geo *q) {
  double pi = 1, po = 1, pk = 1;
  for (int j = 0; j < q->r; j++) { pi *= q->in[j]; po *= q->out[j]; pk *= q->k[j]; }
  return q->transposed ? q->N * q->cin * pi * (q->cout / q->g) * pk
                       : q->N * q->cout * po * (q->cin / q->g) * pk;
}

static double prod3(const double *v, int r) {
  double p = 1;
  for (int j = 0; j < r; j++) p *= v[j];
  return p;
}

/* input [N, C, i..] at 0 and weight at 1: the geometry but the output */
static int conv_shapes(const aten_ctx *x, int in_i, int w_i, int transposed, double g, conv_geo *q) {
  const rli_aten_args *a = x->a;
  int r = is_tensor(a, in_i, -1) ? a->ndim[in_i] - 2 : -1;
  if (r < 1 || r > 3 || !is_tensor(a, w_i, r + 2))
    return fail(x->why, x->cap, "%s: expected a 3-D to 5-D input and a weight of the same rank",
                x->full);
  memset(q, 0, sizeof *q);
  q->r = r;
  q->transposed = transposed;
  q->g = g;
  q->N = a->dims[in_i][0];
  q->cin = a->dims[in_i][1];
  for (int j = 0; j < r; j++) {
    q->in[j] = a->dims[in_i][2 + j];
    q->k[j] = a->dims[w_i][2 + j];
  }
  if (transposed) {
    q->cout = a->dims[w_i][1] * g;
    if (a->dims[w_i][0] != q->cin)
      return fail(x->why, x->cap, "%s: weight channels do not match the input", x->full);
  } else {
    q->cout = a->dims[w_i][0];
    if (a->dims[w_i][1] * g != q->cin)
      return fail(x->why, x->cap, "%s: weight channels do not match the input", x->full);
  }
  return 1;
}

static int h_conv(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  const char *b = x->base;
  int tr_at = -1, op_at = -1, dil_at = -1, transposed = 0, bias_at = 2;
  if (!strcmp(b, "convolution") || !strcmp(b, "_convolution")) { dil_at = 5; tr_at = 6; op_at = 7; }
  else if (!strncmp(b, "conv_transpose", 14)) { transposed = 1; op_at = 5; dil_at = 7; }
  else if (!strcmp(b, "cudnn_convolution_transpose")) { transposed = 1; op_at = 3; dil_at = 5; bias_at = -1; }
  else if (!strcmp(b, "cudnn_convolution")) { dil_at = 4; bias_at = -1; }
  else if (!strncmp(b, "conv", 4)) dil_at = 5;
  else dil_at = 5; /* mkldnn / miopen: (self, weight, bias, padding, stride, dilation, groups) */
  if (tr_at >= 0) {
    int t = concrete_bool(a, tr_at);
    if (t < 0 && a->n_concrete > 0)
      return fail(x->why, x->cap, "%s: transposed flag not recorded", x->full);
    transposed = t == 1;
  }
  double g = concrete_num(a, d->i2, 0);
  if (cval(a, d->i0, 0) <= 0 || cval(a, d->i1, 0) < 0 || g <= 0)
    return fail(x->why, x->cap, "%s: stride, padding or groups not recorded (Concrete Inputs)",
                x->full);
  conv_geo q;
  if (!conv_shapes(x, 0, 1, transposed, g, &q)) return 0;
  for (int j = 0; j < q.r; j++) {
    double st = cval(a, d->i0, j), pd = cval(a, d->i1, j);
    double dl = dil_at >= 0 && cval(a, dil_at, j) > 0 ? cval(a, dil_at, j) : 1;
    double opd = op_at >= 0 && cval(a, op_at, j) > 0 ? cval(a, op_at, j) : 0;
    if (!(st > 0) || pd < 0)
      return fail(x->why, x->cap, "%s: stride or padding not recorded for every dimension", x->full);
    q.out[j] = transposed ? (q.in[j] - 1) * st - 2 * pd + dl * (q.k[j] - 1) + opd + 1
                          : floor((q.in[j] + 2 * pd - dl * (q.k[j] - 1) - 1) / st) + 1;
    if (!(q.out[j] >= 1))
      return fail(x->why, x->cap, "%s: the recorded sizes give no output", x->full);
  }
  double macs = conv_macs(&q), outn = q.N * q.cout * prod3(q.out, q.r);
  double wn = numel(a, 1), bias = bias_at >= 0 && is_tensor(a, bias_at, 1) ? q.cout : 0;
  double F = 2 * macs + (bias > 0 ? outn : 0);
  double Q = tb(x, 0) * (numel(a, 0) + outn) + tb(x, 1) * wn + (bias > 0 ? tb(x, bias_at) * bias : 0);
  return kernel_cost(x, F, Q, 1);
}

/* A forward convolution recorded with its input and weight but without
 * stride or padding (2021-2023 traces have no Concrete Inputs): its output
 * size comes from elsewhere, the grad_output of the backward op of the same
 * autograd node (the trace reader links them by sequence number). The
 * groups follow from the shapes: weight[1] = C_in / g. */
static int conv_fwd_layout(const char *full, int *tr) {
  const char *b = strip_ns(full);
  *tr = !strncmp(b, "conv_transpose", 14) || !strcmp(b, "cudnn_convolution_transpose");
  return !strncmp(b, "conv1d", 6) || !strncmp(b, "conv2d", 6) || !strncmp(b, "conv3d", 6) ||
         *tr || !strcmp(b, "convolution") || !strcmp(b, "_convolution") ||
         !strcmp(b, "cudnn_convolution") || !strcmp(b, "mkldnn_convolution") ||
         !strcmp(b, "miopen_convolution");
}

int rli_aten_conv_needs_output(const char *full, const rli_aten_args *a) {
  int tr;
  if (!a->has_dims || !conv_fwd_layout(full, &tr) || tr) return 0;
  if (!is_tensor(a, 0, -1) || a->ndim[0] < 3 || a->ndim[0] > 5 || !is_tensor(a, 1, a->ndim[0]))
    return 0;
  if (a->n_concrete > 0) return 0; /* recorded: the ordinary model applies */
  return a->ndim[0] - 2;
}

int rli_aten_conv_inferred(const char *full, const rli_aten_args *a, const double *go, int nd,
                           rli_cost *c, char *why, size_t cap) {
  memset(c, 0, sizeof *c);
  c->dtype = -1;
  c->coll = -1;
  c->why = RLI_NONE;
  c->reason = RL_REASON_SHAPES;
  int r = rli_aten_conv_needs_output(full, a);
  if (!r || nd != r + 2) return fail(why, cap, "%s: no convolution to infer", full);
  int32_t dt = type_at(a, 0);
  if (dt < 0) {
    c->reason = RL_REASON_NO_ROOF;
    return fail(why, cap, "%s: no floating-point roof for this type", full);
  }
  double g = a->dims[1][1] > 0 ? a->dims[0][1] / a->dims[1][1] : 0;
  if (!(g >= 1) || g != floor(g) || go[0] != a->dims[0][0] || go[1] != a->dims[1][0])
    return fail(why, cap, "%s: the backward's grad_output does not match it", full);
  aten_ctx x = {full, strip_ns(full), a, dt, rl_dtype_bytes(dt), c, why, cap};
  conv_geo q;
  if (!conv_shapes(&x, 0, 1, 0, g, &q)) return 0;
  for (int j = 0; j < r; j++) q.out[j] = go[2 + j];
  double outn = q.N * q.cout * prod3(q.out, r), bias = is_tensor(a, 2, 1) ? q.cout : 0;
  double F = 2 * conv_macs(&q) + (bias > 0 ? outn : 0);
  double Q = x.s * (numel(a, 0) + outn + numel(a, 1) + bias);
  return kernel_cost(&x, F, Q, 1);
}

/* "[True, True, False]" -> bits; -1 when not recorded */
static int mask3(const rli_aten_args *a, int i) {
  if (i >= a->n_concrete || a->concrete[i][0] != '[') return -1;
  int m = 0, k = 0;
  for (const char *p = a->concrete[i]; *p && k < 3; p++) {
    if (*p == 'T' || *p == 't' || *p == '1') { m |= 1 << k; k++; while (*p && *p != ',' && *p != ']') p++; if (!*p) break; }
    else if (*p == 'F' || *p == 'f' || *p == '0') { k++; while (*p && *p != ',' && *p != ']') p++; if (!*p) break; }
  }
  return k == 3 ? m : -1;
}

/* convolution_backward(grad_output, input, weight, bias_sizes, stride,
 * padding, dilation, transposed, output_padding, groups, output_mask):
 * every size is recorded, grad_output gives the output. cudnn_convolution_
 * backward_input(self_size, grad_output, weight, padding, stride, dilation,
 * groups, ...) and _weight(weight_size, grad_output, self, ...) (2021):
 * the size argument is an int list in Concrete Inputs. */
static int h_conv_bwd(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  const char *b = x->base;
  if (!strcmp(b, "convolution_backward")) {
    int t = concrete_bool(a, 7);
    double g = concrete_num(a, 9, 0);
    /* not recorded (no Concrete Inputs): a plain convolution, whose groups
     * the shapes give (weight[1] = C_in / g) */
    if (g <= 0 && t < 0 && is_tensor(a, 1, -1) && is_tensor(a, 2, -1) && a->ndim[1] >= 3 &&
        a->dims[2][1] > 0)
      g = a->dims[1][1] / a->dims[2][1];
    if (!(g >= 1) || g != floor(g))
      return fail(x->why, x->cap, "%s: groups not recorded (Concrete Inputs)", x->full);
    conv_geo q;
    if (!conv_shapes(x, 1, 2, t == 1, g, &q)) return 0;
    if (!is_tensor(a, 0, q.r + 2)) return fail(x->why, x->cap, "%s: grad_output of another rank", x->full);
    for (int j = 0; j < q.r; j++) q.out[j] = a->dims[0][2 + j];
    if ((t == 1 ? a->dims[0][1] != q.cout : a->dims[0][1] != q.cout) || a->dims[0][0] != q.N)
      return fail(x->why, x->cap, "%s: grad_output does not match the weight", x->full);
    int m = mask3(a, 10);
    if (m < 0) m = 3; /* not recorded: input and weight gradients */
    double macs = conv_macs(&q), go = numel(a, 0), in = numel(a, 1), w = numel(a, 2);
    double F = 0, Q = 0, s = x->s;
    if (m & 1) { F += 2 * macs; Q += s * (go + w + in); }
    if (m & 2) { F += 2 * macs; Q += s * (go + in + w); }
    if (m & 4) { F += go; Q += s * (go + q.cout); }
    if (!m) return fail(x->why, x->cap, "%s: no gradient asked for (output_mask)", x->full);
    return kernel_cost(x, F, Q, (m & 3) != 0);
  }
  /* the 2021 pair: grad_output at 1, weight (input) or input (weight) at 2 */
  int data = strstr(b, "_input") != NULL;
  if (!is_tensor(a, 1, -1) || !is_tensor(a, 2, a->ndim[1]) || a->ndim[1] < 3 || a->ndim[1] > 5)
    return fail(x->why, x->cap, "%s: expected grad_output and a %s of its rank", x->full,
                data ? "weight" : "input");
  int r = a->ndim[1] - 2;
  double sz[5], n = 1;
  for (int j = 0; j < r + 2; j++) {
    sz[j] = concrete_num(a, 0, j);
    if (!(sz[j] >= 1))
      return fail(x->why, x->cap, "%s: the %s size not recorded (Concrete Inputs)", x->full,
                  data ? "input" : "weight");
    n *= sz[j];
  }
  double go = numel(a, 1), other = numel(a, 2);
  /* MACs = grad_output elements x weight[1:] (non-transposed) */
  double wk = 1;
  if (data) for (int j = 1; j < r + 2; j++) wk *= a->dims[2][j];
  else for (int j = 1; j < r + 2; j++) wk *= sz[j];
  double F = 2 * go * wk, Q = x->s * (go + other + n);
  return kernel_cost(x, F, Q, 1);
}

/* -- normalization -------------------------------------------------------------
 * Batch norm (Ioffe & Szegedy 2015, Algorithm 1): per element, training:
 * mean 1, variance 3, normalize 2, affine 2 = 8 FLOPs (the layer norm count
 * of ops.c); inference (running statistics): normalize 2, affine 2 = 4.
 * Q = 2ns (x read, y written) + per channel C: weight, bias, running mean
 * and variance read, (training) the saved mean and inverse std written.
 * Backward (the same paper's gradient: dx = g/sigma (dy - mean(dy) - xhat
 * mean(dy xhat))): xhat 2, sum(dy) 1, sum(dy xhat) 2, dx 4 = 9 FLOPs per
 * element; Q = 3ns (x and dy read, dx written) + 4C (weight, saved stats
 * read; dweight, dbias written). Layer and group norm backward add the
 * dweight / dbias sums over rows: 12 per element.
 * i0 = the input, i1 = the weight, i2 = training flag (-1: the op says).
 */
static int h_bn(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  if (!is_tensor(a, d->i0, -1) || a->ndim[d->i0] < 2)
    return fail(x->why, x->cap, "%s: expected an input [N, C, ...]", x->full);
  double n = numel(a, d->i0), C = a->dims[d->i0][1];
  int train = d->i2 >= 0 ? concrete_bool(a, d->i2) != 0 : 0;
  double f = d->f > 0 ? d->f : train ? 8 : 4;
  double sw = is_tensor(a, d->i1, 1) ? tb(x, d->i1) : x->s;
  double Q = x->s * n * (d->f >= 9 ? 3 : 2) + sw * C * (d->f >= 9 ? 4 : train ? 6 : 4);
  return kernel_cost(x, f * n, Q, 0);
}

/* native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd,
 * weight, bias, output_mask); native_group_norm(input, weight, bias, N, C,
 * HxW, group, eps) and its backward(grad_out, input, mean, rstd, weight, N,
 * C, HxW, group, output_mask): per element f = d->f, Q = k ns + 3 (or 2)
 * parameters of i1's size */
static int h_norm_rows(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  if (!is_tensor(a, d->i0, -1)) return fail(x->why, x->cap, "%s: no input shape", x->full);
  double n = numel(a, d->i0);
  double p = is_tensor(a, d->i1, -1) ? numel(a, d->i1) : 0;
  int bwd = d->f >= 9;
  double Q = x->s * n * (bwd ? 3 : 2) + (p > 0 ? tb(x, d->i1) * p * (bwd ? 3 : 2) : 0);
  return kernel_cost(x, d->f * n, Q, 0);
}

static int h_rows(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  const char *b = x->base;
  if (!is_tensor(a, 0, -1)) return fail(x->why, x->cap, "%s: no input shape", x->full);
  int kind = d->i0;
  rl_op op = rl_op_init(kind, x->dt);
  double cols = a->dims[0][a->ndim[0] - 1];
  /* the weight (layer_norm: argument 2; rms_norm: argument 2) gives the
   * normalized size */
  if (kind != RL_OP_SOFTMAX && is_tensor(a, 2, -1)) cols = numel(a, 2);
  (void)b;
  if (!(cols > 0)) return fail(x->why, x->cap, "%s: empty input", x->full);
  op.n = cols;
  op.m = numel(a, 0) / cols;
  if (op.m != floor(op.m))
    return fail(x->why, x->cap, "%s: normalized shape does not divide the input", x->full);
  return from_op(&op, x->c, x->why, x->cap);
}

/* -- elementwise ------------------------------------------------------------------
 * Activations through ops.c's kinds (relu, gelu, silu); the rest as F = f n,
 * Q = input bytes + output bytes (ideal traffic, ops.c), where f counts one
 * FLOP per arithmetic operation and per transcendental (exp, log, tanh, erf,
 * sqrt: one FLOP each, as ops.c):
 *   sigmoid 4 (neg, exp, add, divide), tanh, exp, log, sqrt, neg, abs ... 1,
 *   clamp 2, hardtanh 2, leaky_relu 2 (compare, scale), elu 4, softplus 3
 *   (exp, add, log), mish 5 (softplus, tanh, multiply), hardswish 5,
 *   hardsigmoid 4.
 * Backward activations (formulas of PyTorch's tools/autograd/derivatives.yaml
 * and ATen's kernels) read grad_output and the saved input or output, write
 * grad_input: Q = 3ns;
 *   threshold_backward 1 (select), sigmoid_backward 3 (g y (1 - y)),
 *   tanh_backward 3 (g (1 - y^2)), hardtanh / leaky_relu_backward 2,
 *   gelu_backward 8 erf form (Phi(x) + x phi(x): erf, exp, 6 arithmetic),
 *   12 tanh form, silu_backward 9 (sigmoid 4, g s (1 + x (1 - s)) 5),
 *   elu_backward 4, softplus_backward 4, mish_backward 10,
 *   hardswish_backward 4, hardsigmoid_backward 2,
 *   _softmax_backward_data 4 (y (g - sum(g y))), _log_softmax_backward_data
 *   4 (g - exp(y) sum(g)), mse_loss_backward 3.
 * Binary and n-ary (add, where, masked_fill, comparisons, addcmul, lerp ...):
 *   F = f x output elements, Q = every tensor input at its own size and
 *   type + the output (broadcast operands read once at their size);
 *   comparisons and logical_and/or/xor/not write a bool (1 B);
 *   nan_to_num 3 (its three tests, NaN, +inf and -inf, each a select).
 * Dropout (native_dropout): F = 3n (draw, compare, scale), Q = 2ns + n
 *   (the bool mask); its backward 2n, Q = 2ns + n.
 */
static int h_act(const aten_ctx *x, const aten_def *d) {
  double e = ne(x, 0);
  if (!(e > 0)) return fail(x->why, x->cap, "%s: no input shape", x->full);
  int32_t kind = d->i0;
  /* gelu's approximate argument: "none" (erf, the default) or "tanh" */
  if (kind == RL_OP_GELU_ERF && x->a->n_concrete > 1 && strstr(x->a->concrete[1], "tanh"))
    kind = RL_OP_GELU_TANH;
  rl_op op = rl_op_init(kind, x->dt);
  op.n = e;
  return from_op(&op, x->c, x->why, x->cap);
}

/* n-ary elementwise: d->f FLOPs per output element; i0: 1 when the output
 * is a bool; i1: the number of leading tensor arguments to count (0: all) */
static int h_elt(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  double nout = 0, q = 0;
  int tensors = 0, last = d->i1 > 0 ? d->i1 : a->n_in;
  for (int i = 0; i < a->n_in && i < last; i++) {
    double e = numel(a, i);
    /* a Scalar; a 0-d tensor (dims [], a tensor type: a step counter) is one element */
    if (e < 0 || (a->ndim[i] == 0 && !(i < a->n_types && rli_torch_type_bytes(a->types[i]) > 0)))
      continue;
    q += e * tb(x, i);
    if (e > nout) nout = e;
    tensors++;
  }
  if (!tensors || !(nout > 0)) return fail(x->why, x->cap, "%s: no tensor operand", x->full);
  q += nout * (d->i0 == 1 ? 1 : x->s);
  if (d->i2 == 1) q += nout; /* native_dropout: the mask it writes */
  return kernel_cost(x, d->f * nout, q, 0);
}

/* writes only: fill_, zero_, the *_like factories: Q = n s, F = 0 */
static int h_fill(const aten_ctx *x, const aten_def *d) {
  (void)d;
  double e = ne(x, 0);
  if (!(e > 0)) return fail(x->why, x->cap, "%s: no tensor shape", x->full);
  return kernel_cost(x, 0, e * tb(x, 0), 0);
}

/* reductions (sum, mean, amax, norm, var ...): F = f n, Q = n s: the input
 * read once; the output (far smaller, its dims not always recorded) is not
 * counted */
static int h_reduce(const aten_ctx *x, const aten_def *d) {
  double e = ne(x, 0);
  if (!(e > 0)) return fail(x->why, x->cap, "%s: no input shape", x->full);
  return kernel_cost(x, d->f * e, e * tb(x, 0), 0);
}

/* -- data movement -------------------------------------------------------------- */
static int h_copy(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  double e = numel(a, 0);
  if (!(e > 0)) return fail(x->why, x->cap, "%s: no destination shape", x->full);
  rl_op op = rl_op_init(RL_OP_COPY, x->dt);
  int32_t st = type_at(a, 1);
  if (st < 0 && a->n_types > 1 && a->ndim[1] > 0) {
    /* integer source: bytes still move, F = 0 */
    double ib = rli_torch_type_bytes(a->types[1]);
    if (ib > 0) return kernel_cost(x, 0, e * (x->s + ib), 0);
  }
  if (st >= 0 && st != x->dt) op.weight_dtype = st;
  op.n = e;
  return from_op(&op, x->c, x->why, x->cap);
}

/* clone, contiguous, _to_copy(self, dtype, ...): read and write n; the
 * target type of _to_copy from its dtype code when recorded (c10's
 * ScalarType numbering: 5 Half, 6 Float, 7 Double, 15 BFloat16, ...) */
static int h_clone(const aten_ctx *x, const aten_def *d) {
  (void)d;
  double e = ne(x, 0);
  if (!(e > 0)) return fail(x->why, x->cap, "%s: no input shape", x->full);
  double so = tb(x, 0);
  if (!strcmp(x->base, "_to_copy")) {
    static const double code_bytes[] = {1, 1, 2, 4, 8, 2, 4, 8, 4, 8, 16, 1, 0, 0, 0, 2};
    double c = concrete_num(x->a, 1, 0);
    if (c >= 0 && c < 16 && code_bytes[(int)c] > 0) so = code_bytes[(int)c];
  }
  return kernel_cost(x, 0, e * (tb(x, 0) + so), 0);
}

static int h_embedding(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  if (!is_tensor(a, 0, 2) || !is_tensor(a, 1, -1))
    return fail(x->why, x->cap, "%s: expected weight and indices", x->full);
  rl_op op = rl_op_init(RL_OP_EMBEDDING, x->dt);
  op.m = numel(a, 1);
  op.n = a->dims[0][1];
  return from_op(&op, x->c, x->why, x->cap);
}

/* embedding_dense_backward(grad_output [.., D], indices, num_weights, ...):
 * F = one add per gradient element, Q = grad_output + int64 indices + the
 * weight gradient written once (num_weights x D) */
static int h_embedding_bwd(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  double V = concrete_num(a, 2, 0);
  if (!is_tensor(a, 0, -1) || !is_tensor(a, 1, -1) || !(V >= 1))
    return fail(x->why, x->cap, "%s: grad_output, indices or num_weights not recorded", x->full);
  double go = numel(a, 0), D = a->dims[0][a->ndim[0] - 1];
  return kernel_cost(x, go, x->s * go + tb(x, 1) * numel(a, 1) + x->s * V * D, 0);
}

/* gather(self, dim, index) reads index and the gathered values, writes
 * them; index_select(self, dim, index): out = self / size(dim) x index;
 * scatter(_add)(self, dim, index, src): reads src and index, writes (and
 * for _add reads) self at those places; index_copy_ / index_add_(self,
 * dim, index [k], source, ...): reads source and index, writes (and for
 * _add reads, one add per element) self where source goes; index_put_(self,
 * indices, values): values and one int64 index per value. */
static int h_index(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  const char *b = x->base;
  double s = x->s;
  if (!strcmp(b, "gather")) {
    double n = numel(a, 2);
    if (!(n > 0)) return fail(x->why, x->cap, "%s: no index shape", x->full);
    return kernel_cost(x, 0, n * (2 * s + tb(x, 2)), 0);
  }
  if (!strcmp(b, "index_select")) {
    double dim = concrete_num(a, 1, 0), n = numel(a, 2);
    if (!is_tensor(a, 0, -1) || !(n >= 0)) return fail(x->why, x->cap, "%s: no shapes", x->full);
    if (dim < 0) dim += a->ndim[0];
    if (!(dim >= 0 && dim < a->ndim[0]))
      return fail(x->why, x->cap, "%s: dim not recorded (Concrete Inputs)", x->full);
    double out = numel(a, 0) / a->dims[0][(int)dim] * n;
    return kernel_cost(x, 0, 2 * out * s + n * tb(x, 2), 0);
  }
  if (!strcmp(b, "index_copy") || !strcmp(b, "index_add")) {
    double n = numel(a, 3), k = numel(a, 2);
    if (!(n > 0) || !(k > 0)) return fail(x->why, x->cap, "%s: no index or source shape", x->full);
    int add = b[6] == 'a';
    return kernel_cost(x, add ? n : 0, n * (add ? 3 : 2) * s + k * tb(x, 2), 0);
  }
  if (!strncmp(b, "scatter", 7)) {
    double n = numel(a, 3) > 0 ? numel(a, 3) : numel(a, 2);
    if (!(n > 0)) return fail(x->why, x->cap, "%s: no index shape", x->full);
    int add = strstr(b, "add") != NULL || strstr(b, "reduce") != NULL;
    return kernel_cost(x, add ? n : 0, n * ((add ? 3 : 2) * s + tb(x, 2)), 0);
  }
  /* index_put_(self, indices, values, accumulate) */
  double n = numel(a, 2);
  if (!(n > 0)) return fail(x->why, x->cap, "%s: no values shape", x->full);
  int acc = concrete_bool(a, 3) == 1;
  return kernel_cost(x, acc ? n : 0, n * ((acc ? 3 : 2) * s + 8), 0);
}

/* -- FBGEMM (fbgemm_gpu's sparse and TBE ops, as torchrec calls them) ---------------
 * Data movement on index and length tensors, F = 0: the bytes each op must
 * read and write by its definition in fbgemm_gpu (fbgemm_gpu/src/sparse_ops/,
 * the op schemas in sparse_ops_cpu.cpp), each recorded input read once and
 * each output written once; scratch (the offsets its kernels scan into) is
 * not counted, as for the ATen models.
 * permute_{1D,2D}_sparse_data(permute [T], lengths [T, B] or [T*B],
 *   indices [N], weights? [N], ...): reads permute, lengths, indices and
 *   weights; writes permuted lengths, indices and weights of the same sizes.
 * asynchronous_{complete,exclusive,inclusive}_cumsum(t [N]): reads N,
 *   writes N (+1 for complete).
 * bounds_check_indices(rows_per_table, indices, offsets, mode, warning,
 *   weights?, ...): reads its tensors (fixes out-of-range indices in place,
 *   which valid input never needs).
 * permute_pooled_embs(_auto_grad)(pooled_embs [B, D], offset_dim_list,
 *   permute_list, inv_offset_dim_list, inv_permute_list): reads and writes
 *   B x D, reads the four lists; its backward (the autograd node
 *   PermutePooledEmbsFunction, shape of the gradient [B, D]) moves the same.
 * The quantize ops (fbgemm_gpu/src/quantize_ops/), F not counted (a few
 * operations per element against 3 to 6 bytes: memory-bound, as the
 * integer ops below):
 *   FloatToFP8RowwiseQuantized(input [rows, D], forward): reads the input,
 *     writes rows x (D rounded up to 4 + 8) bytes (the FP8 values and two
 *     floats of row scale, quantize_fp8_rowwise.cu's output_columns);
 *   FP8RowwiseQuantizedToFloat(input [rows, C] uint8, forward(,
 *     output_dtype)): reads it, writes rows x (C rounded up to 4 - 8)
 *     values, fp32 in the two-argument schema (fbgemm_gpu of 2023), else of
 *     output_dtype (SparseType: 0 FP32, 1 FP16, 5 BF16; Concrete Inputs);
 *   FloatToHFP8Quantized(input, ebits, bias, max_pos) and
 *     HFP8QuantizedToFloat(input, ebits, bias): one byte per float
 *     (quantize_hfp8.cu): reads n, writes n, 4 B on the float side. */
static double in_bytes(const aten_ctx *x, int from, int to) {
  double q = 0;
  for (int i = from; i < x->a->n_in && i < to; i++) {
    double n = numel(x->a, i);
    if (n > 0 && x->a->ndim[i] > 0) q += n * tb(x, i);
  }
  return q;
}
static int h_fbgemm(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  const char *b = x->base;
  if (d->i0 == 1) { /* permute_{1D,2D}_sparse_data */
    if (!is_tensor(a, 0, 1) || !is_tensor(a, 1, -1) || !is_tensor(a, 2, 1))
      return fail(x->why, x->cap, "%s: expected permute, lengths and indices", x->full);
    double w = is_tensor(a, 3, 1) ? numel(a, 3) * tb(x, 3) : 0;
    return kernel_cost(x, 0, in_bytes(x, 0, 1) + 2 * (in_bytes(x, 1, 3) + w), 0);
  }
  if (d->i0 == 2) { /* cumsum */
    double n = numel(a, 0);
    if (!is_tensor(a, 0, 1)) return fail(x->why, x->cap, "%s: expected a 1-D tensor", x->full);
    return kernel_cost(x, 0, tb(x, 0) * (2 * n + (strstr(b, "complete") ? 1 : 0)), 0);
  }
  if (d->i0 == 3) { /* bounds_check_indices */
    if (!is_tensor(a, 1, 1) || !is_tensor(a, 2, 1))
      return fail(x->why, x->cap, "%s: expected indices and offsets", x->full);
    return kernel_cost(x, 0, in_bytes(x, 0, a->n_in), 0);
  }
  if (d->i0 >= 5 && d->i0 <= 8) { /* the quantize ops */
    double n = numel(a, 0);
    if (!is_tensor(a, 0, -1) || !(n >= 0)) return fail(x->why, x->cap, "%s: no input shape", x->full);
    double cols = a->dims[0][a->ndim[0] - 1], rows = cols > 0 ? n / cols : 0;
    double c4 = ceil(cols / 4) * 4, in = n * tb(x, 0);
    if (d->i0 == 5) return kernel_cost(x, 0, in + rows * (c4 + 8), 0);
    if (d->i0 == 7) return kernel_cost(x, 0, in + n, 0);
    if (d->i0 == 8) return kernel_cost(x, 0, in + 4 * n, 0);
    double ob = 4;
    if (a->n_in >= 3) {
      double sd = concrete_num(a, 2, 0);
      ob = sd == 0 ? 4 : sd == 1 || sd == 5 ? 2 : 0;
      if (!(ob > 0)) return fail(x->why, x->cap, "%s: output_dtype not recorded (Concrete Inputs)", x->full);
    }
    if (!(c4 > 8)) return fail(x->why, x->cap, "%s: rows of %g bytes hold no values", x->full, cols);
    return kernel_cost(x, 0, in + rows * (c4 - 8) * ob, 0);
  }
  /* permute_pooled_embs and its backward */
  if (!is_tensor(a, 0, 2)) return fail(x->why, x->cap, "%s: expected pooled embeddings [B, D]", x->full);
  double e = numel(a, 0);
  return kernel_cost(x, 0, 2 * e * tb(x, 0) + in_bytes(x, 1, a->n_in), 0);
}

/* -- pooling -----------------------------------------------------------------------
 * max_pool{1,2,3}d_with_indices(self, kernel_size, stride, padding,
 * dilation, ceil_mode); avg_pool{1,2,3}d(self, kernel_size, stride,
 * padding, ceil_mode, ...): the output size as PyTorch's MaxPool2d /
 * AvgPool2d documentation gives it (floor, or ceil with ceil_mode; stride
 * defaults to the kernel size). F = output elements x window (compares or
 * adds); Q = input + output (+ int64 indices for max). Backward: F = the
 * gradient elements routed, Q = grad_output (+ indices) + grad_input
 * written. adaptive_avg_pool: F = input + output elements, Q = input +
 * output (output_size from Concrete Inputs, else not counted).
 */
static int h_pool(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  int maxp = d->i0 == 1;
  if (!is_tensor(a, 0, -1) || a->ndim[0] < 3)
    return fail(x->why, x->cap, "%s: expected an input [N, C, ...]", x->full);
  int nd = a->ndim[0];
  int r = !strncmp(x->base + (maxp ? 8 : 8), "1d", 2) ? 1 : strstr(x->base, "3d") ? 3 : 2;
  if (r > nd - 1) return fail(x->why, x->cap, "%s: input of too small a rank", x->full);
  double out = numel(a, 0), win = 1;
  int ceil_at = maxp ? 5 : 4;
  for (int j = 0; j < r; j++) {
    double i = a->dims[0][nd - r + j], k = cval(a, 1, j);
    double st = cval(a, 2, j), pd = cval(a, 3, j);
    double dl = maxp && cval(a, 4, j) > 0 ? cval(a, 4, j) : 1;
    if (!(k >= 1)) return fail(x->why, x->cap, "%s: kernel size not recorded (Concrete Inputs)", x->full);
    if (!(st >= 1)) st = k;
    if (pd < 0) pd = 0;
    double v = (i + 2 * pd - dl * (k - 1) - 1) / st;
    double o = (concrete_bool(a, ceil_at) == 1 ? ceil(v) : floor(v)) + 1;
    if (!(o >= 1)) return fail(x->why, x->cap, "%s: the recorded sizes give no output", x->full);
    out = out / i * o;
    win *= k;
  }
  double Q = x->s * (numel(a, 0) + out) + (maxp ? 8 * out : 0);
  return kernel_cost(x, out * win, Q, 0);
}

static int h_pool_bwd(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  /* (grad_output, self, ...); max: indices last recorded tensor */
  double go = numel(a, 0), in = numel(a, 1);
  if (!(go > 0) || !(in > 0)) return fail(x->why, x->cap, "%s: no shapes", x->full);
  double Q = x->s * (go + in) + (d->i0 == 1 ? 8 * go : 0);
  return kernel_cost(x, d->i0 == 2 ? in : go, Q, 0);
}

static int h_adaptive(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  if (!is_tensor(a, 0, -1) || a->ndim[0] < 2) return fail(x->why, x->cap, "%s: no input shape", x->full);
  double in = numel(a, 0), out = a->dims[0][0] * (a->ndim[0] > 3 ? a->dims[0][1] : 1);
  int r = strstr(x->base, "3d") ? 3 : strstr(x->base, "1d") ? 1 : 2;
  for (int j = 0; j < r; j++) {
    double o = cval(a, 1, j);
    if (!(o >= 1)) { out = 0; break; }
    out *= o;
  }
  return kernel_cost(x, in + out, x->s * (in + out), 0);
}

/* -- losses ---------------------------------------------------------------------------
 * nll_loss_forward(self [N, C], target [N], weight, reduction, ignore_index):
 * one gather and add per target, Q = targets (int64) + the gathered values;
 * nll_loss_backward(grad_output, self, target, ...): writes grad_input
 * (zeros and the scattered -weights): Q = self s + targets. mse_loss
 * (self, target): F = 3n (subtract, square, sum), Q = 2ns. */
static int h_nll(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  int bwd = d->i0 == 1;
  int ti = bwd ? 2 : 1, si = bwd ? 1 : 0;
  double t = numel(a, ti), sn = numel(a, si);
  if (!(t > 0) || !(sn > 0)) return fail(x->why, x->cap, "%s: no shapes", x->full);
  double Q = bwd ? x->s * sn + tb(x, ti) * t : (x->s + tb(x, ti)) * t;
  return kernel_cost(x, t, Q, 0);
}

/* -- attention --------------------------------------------------------------------------
 * Forward through ops.c's fused attention. Backward (FlashAttention-2, Dao
 * 2023, section 3.2: five matmuls against the forward's two): F = 2.5 x
 * the forward's F (causal: half, as forward); Q = s (4 T d per query head:
 * Q, O, dO read, dQ written; 4 T_kv d per KV head: K, V read, dK, dV
 * written), times batch. Layouts: _scaled_dot_product_* [B, H, T, d];
 * _flash_attention_* and _efficient_attention_* [B, T, H, d] (as
 * flash-attn). i0: query's argument, i1: the causal flag's (-1: none
 * recorded), i2: 1 for [B, T, H, d], 2 for a backward in that layout, 3
 * for a backward in [B, H, T, d]. _efficient_attention's custom_mask_type
 * (0 none, 1 or 2 causal) stands for the flag.
 */
static int h_attn(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  int qi = d->i0, ki = qi + 1;
  if (!is_tensor(a, qi, 4) || !is_tensor(a, ki, 4))
    return fail(x->why, x->cap, "%s: expected 4-D query and key", x->full);
  int bthd = d->i2 == 1 || d->i2 == 2, bwd = d->i2 >= 2;
  int causal = -1;
  if (d->i1 >= 0) {
    causal = concrete_bool(a, d->i1);
    if (causal < 0 && strstr(x->base, "efficient_attention") && !strstr(x->base, "scaled")) {
      double m = concrete_num(a, d->i1, 0);
      causal = m < 0 ? -1 : m > 0;
    }
  }
  if (causal < 0) return fail(x->why, x->cap, "%s: causal flag not recorded (Concrete Inputs)", x->full);
  rl_op op = rl_op_init(RL_OP_ATTENTION, x->dt);
  op.flags = RL_OP_FUSED | (causal ? RL_OP_CAUSAL : 0);
  op.batch = a->dims[qi][0];
  op.heads = a->dims[qi][bthd ? 2 : 1];
  op.seq = a->dims[qi][bthd ? 1 : 2];
  op.head_dim = a->dims[qi][3];
  op.kv_heads = a->dims[ki][bthd ? 2 : 1];
  op.seq_kv = a->dims[ki][bthd ? 1 : 2];
  if (!bwd) return from_op(&op, x->c, x->why, x->cap);
  rli_cost fw;
  if (!from_op(&op, &fw, x->why, x->cap)) return 0;
  double Q = x->s * op.batch * (4 * op.seq * op.head_dim * op.heads +
                                4 * op.seq_kv * op.head_dim * op.kv_heads);
  return kernel_cost(x, 2.5 * fw.flops, Q, 1);
}

/* -- tensor lists -----------------------------------------------------------------
 * PyTorch 2.x records a TensorList argument's shapes nested in Input Dims
 * ([[a, b], [c]]); the 2021-2023 profilers record [] (sizes not recorded).
 * Neither records the element type inside a list (Input type
 * "TensorList"): these handlers count elements (per_elem), and the reader
 * takes the element type from the kernel the op launched (rli_list_cost).
 * N: the elements of the first list.
 *   cat(tensors[], dim), stack(tensors[], dim): every input read, an output
 *     of as many elements written: Q = 2 N elements, F = 0 (movement).
 *   _foreach_<op>(self[], other[] or scalars, ...): <op> applied to each
 *     tensor of the lists (native_functions.yaml); on the fast path
 *     (multi_tensor_apply, ATen's ForeachFunctors.cuh) the lists hold
 *     tensors of one type and of the same sizes. F = f N, f being <op>'s
 *     in this table; Q = every tensor list read (N each) + the result
 *     written (N; a reduction, _foreach_norm, _foreach_max, writes one
 *     element per tensor); zero_ writes N (F = 0); copy_ reads src and
 *     writes self (2 N, F = 0).
 *   _fused_adam(w)_(self[], grads[], exp_avgs[], exp_avg_sqs[],
 *     max_exp_avg_sqs[], state_steps[], lr, beta1, beta2, weight_decay,
 *     eps, amsgrad, maximize, grad_scale, found_inf): per element the
 *     update of torch/optim/adam.py (_single_tensor_adam, which the fused
 *     kernel of ATen's fused_adam_utils.cuh implements):
 *       m = lerp(m, g, 1 - beta1)                       3
 *       v = beta2 v + (1 - beta2) g g                   4
 *       denom = sqrt(v) / sqrt(bias_correction2) + eps  3
 *       p = p - step_size m / denom                     3
 *     = 13; + 2 for Adam's weight decay (g = g + wd p), + 1 for AdamW's
 *     (p = p (1 - lr wd)) when the recorded weight_decay is not 0; + 1 with
 *     amsgrad (v_max = max(v_max, v): the fifth list not empty); + 1 with
 *     maximize (g = -g). Q: p, g, m, v read, p, m, v written: 7 N (amsgrad:
 *     v_max read and written, 9 N). The step counters (one fp32 scalar per
 *     tensor), grad_scale and found_inf are left out.
 *   _fused_sgd_(self[], grads[], momentum_buffer_list[], weight_decay,
 *     momentum, lr, dampening, nesterov, maximize, is_first_step, ...):
 *     torch/optim/sgd.py (_single_tensor_sgd): g = g + wd p (2, when wd is
 *     recorded and not 0); with momentum buffers (the third list not
 *     empty) buf = momentum buf + (1 - dampening) g (3; the first step
 *     copies g: 0) and nesterov g = g + momentum buf (2); p = p - lr g (2);
 *     maximize g = -g (1). Q: p, g read, p written (3 N), + the buffer read
 *     and written (2 N; on the first step written only, 1 N).
 */
static int is_list_type(const rli_aten_args *a, int i) {
  return i < a->n_types && !strcmp(a->types[i], "TensorList");
}

/* the elements of tensor list i: a recorded list's, 0 for an empty one
 * (in a trace that records lists), -1 when it is no list */
static double list_elems(const rli_aten_args *a, int i) {
  if (i >= a->n_in) return -1;
  if (a->ndim[i] == RLI_ATEN_LIST) return a->list_elems[i];
  if (a->ndim[i] == 0 && is_list_type(a, i)) return 0;
  return -1;
}

/* 1 when the op's tensor lists have their shapes recorded (one of them
 * nested) and all are usable; 0 with the reason */
static int lists_recorded(const aten_ctx *x) {
  const rli_aten_args *a = x->a;
  int nested = 0;
  for (int i = 0; i < a->n_in; i++) {
    if (a->ndim[i] == RLI_ATEN_LIST) nested = 1;
    else if (a->ndim[i] < 0 && is_list_type(a, i)) {
      x->c->reason = RL_REASON_SHAPES;
      return fail(x->why, x->cap, "%s: tensor list %d has a shape with a negative or unreadable "
                                  "dimension", x->full, i);
    }
  }
  if (!nested) {
    x->c->reason = RL_REASON_LISTS;
    return fail(x->why, x->cap, "%s: tensor lists (the profiler records no shapes or element "
                                "type inside them)", x->full);
  }
  return 1;
}

/* F and the element accesses of an op on tensor lists; the reader gives
 * them the launching kernel's element type */
static int elem_cost(const aten_ctx *x, double F, double elems, int32_t per_elem) {
  rli_cost *c = x->c;
  c->flops = F;
  c->bytes = elems;
  c->dtype = -1;
  c->tensor = 0;
  c->reason = 0;
  c->coll = -1;
  c->roof = RLI_ROOF_CHIP;
  c->per_elem = per_elem;
  return 1;
}

/* list i must hold N elements in as many tensors as list 0 */
static int same_list(const aten_ctx *x, int i, double N) {
  const rli_aten_args *a = x->a;
  if (a->ndim[i] == RLI_ATEN_LIST && a->ndim[0] == RLI_ATEN_LIST && a->list_len[i] == a->list_len[0] &&
      a->list_elems[i] == N)
    return 1;
  x->c->reason = RL_REASON_SHAPES;
  return fail(x->why, x->cap, "%s: tensor list %d (%g elements) does not match the first (%g)",
              x->full, i, list_elems(a, i), N);
}

/* N, the elements of the first list, once the lists are recorded; -1 with
 * why */
static double first_list(const aten_ctx *x) {
  if (!lists_recorded(x)) return -1;
  double N = list_elems(x->a, 0);
  if (x->a->ndim[0] != RLI_ATEN_LIST || !(N > 0)) {
    fail(x->why, x->cap, "%s: no tensors in its first list", x->full);
    return -1;
  }
  return N;
}

static int h_cat(const aten_ctx *x, const aten_def *d) {
  (void)d;
  double N = first_list(x);
  return N > 0 && elem_cost(x, 0, 2 * N, RLI_ELEM_MOVE);
}

static const aten_def *aten_find(const char *base);

static int h_foreach(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  char op[64];
  snprintf(op, sizeof op, "%s", x->base + 9); /* after "_foreach_" */
  size_t l = strlen(op);
  if (l > 1 && op[l - 1] == '_') op[l - 1] = 0;
  const aten_def *e = aten_find(op);
  if (!e || !(e->fn == h_elt || e->fn == h_reduce || e->fn == h_fill || e->fn == h_copy)) {
    x->c->reason = RL_REASON_NO_MODEL;
    return fail(x->why, x->cap, "no cost model for %s", x->full);
  }
  double N = first_list(x);
  if (!(N > 0)) return 0;
  if (e->fn == h_fill) return elem_cost(x, 0, N, RLI_ELEM_MOVE);
  double reads = 0;
  for (int i = 0; i < a->n_in; i++) {
    if (list_elems(a, i) < 0) continue;
    if (!same_list(x, i, N)) return 0;
    reads += N;
  }
  if (e->fn == h_copy) return elem_cost(x, 0, 2 * N, RLI_ELEM_MOVE);
  double writes = e->fn == h_reduce ? a->list_len[0] : N;
  return elem_cost(x, e->f * N, reads + writes, RLI_ELEM_FLOAT);
}

/* a recorded float argument, or -1 when absent */
static double cnum(const rli_aten_args *a, int i) {
  return i < a->n_concrete && a->concrete[i][0] ? concrete_num(a, i, 0) : -1;
}

static int h_adam(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  double N = first_list(x);
  if (!(N > 0)) return 0;
  for (int i = 1; i < 4; i++)
    if (!same_list(x, i, N)) return 0;
  int ams = list_elems(a, 4) > 0;
  if (ams && !same_list(x, 4, N)) return 0;
  double f = 13 + (ams ? 1 : 0) + (concrete_bool(a, 12) == 1 ? 1 : 0);
  if (cnum(a, 9) > 0) f += strstr(x->base, "adamw") ? 1 : 2; /* weight_decay */
  return elem_cost(x, f * N, (ams ? 9 : 7) * N, RLI_ELEM_FLOAT);
}

static int h_sgd(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  double N = first_list(x);
  if (!(N > 0)) return 0;
  if (!same_list(x, 1, N)) return 0;
  int mom = list_elems(a, 2) > 0;
  if (mom && !same_list(x, 2, N)) return 0;
  int first = concrete_bool(a, 9) == 1;
  double f = 2 + (concrete_bool(a, 8) == 1 ? 1 : 0);
  if (cnum(a, 3) > 0) f += 2; /* weight_decay */
  double q = 3 * N;
  if (mom) {
    f += (first ? 0 : 3) + (concrete_bool(a, 7) == 1 ? 2 : 0);
    q += first ? N : 2 * N;
  }
  return elem_cost(x, f * N, q, RLI_ELEM_FLOAT);
}

int rli_list_cost(const rli_cost *in, const char *kernel, rli_cost *out, char *why, size_t cap) {
  *out = *in;
  out->per_elem = RLI_ELEM_NONE;
  /* the first template argument of the functor (multi_tensor_apply's
   * BinaryOpListAlphaFunctor<float, ...>, FusedAdamMathFunctor<c10::Half,
   * ...>) or of the cat kernel (CatArrayBatchedCopy<float, ...>,
   * CatArrayBatchedCopy_aligned16_contig<OpaqueType<4>, ...>) */
  const char *p = strstr(kernel, "Functor<");
  if (p) p += 8;
  else if ((p = strstr(kernel, "CatArrayBatchedCopy")) != NULL && (p = strchr(p, '<')) != NULL) p++;
  char t[128] = "";
  if (p) {
    size_t n = 0;
    int depth = 0;
    while (p[n] && n < sizeof t - 1 && (depth || (p[n] != ',' && p[n] != '>'))) {
      if (p[n] == '<') depth++;
      if (p[n] == '>') depth--;
      t[n] = p[n];
      n++;
    }
    t[n] = 0;
  }
  /* namespaces off: at::native::(anonymous namespace)::OpaqueType<4u> */
  const char *w = t;
  for (const char *q = t; *q; q++)
    if (q[0] == ':' && q[1] == ':') w = q + 2;
  static const struct { const char *name; int32_t dt; double bytes; } types[] = {
      {"float", RL_FP32, 4},  {"double", RL_FP64, 8}, {"Half", RL_FP16, 2},
      {"__half", RL_FP16, 2}, {"BFloat16", RL_BF16, 2}, {"__nv_bfloat16", RL_BF16, 2},
      {"long", -1, 8},        {"long int", -1, 8},    {"int", -1, 4},
      {"short", -1, 2},       {"signed char", -1, 1}, {"unsigned char", -1, 1},
      {"bool", -1, 1}};
  int32_t dt = -1;
  double es = 0;
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (!strcmp(w, types[i].name)) { dt = types[i].dt; es = types[i].bytes; }
  if (!strncmp(w, "OpaqueType<", 11)) {
    char *end;
    double v = strtod(w + 11, &end);
    if (end != w + 11 && v >= 1 && v <= 16) es = v;
  }
  if (!(es > 0))
    return fail(why, cap, "tensor lists: shapes recorded, but no element type (none in the "
                          "profile, none in the kernel's name)");
  out->bytes = in->bytes * es;
  if (in->per_elem == RLI_ELEM_MOVE || dt < 0) {
    /* bytes alone on the memory roof (integers: as the integer ops) */
    out->flops = in->per_elem == RLI_ELEM_MOVE ? in->flops : 0;
    out->dtype = -1;
    out->roof = RLI_ROOF_HBM;
  } else {
    out->dtype = dt;
  }
  if (dt >= 0)
    snprintf(why, cap, "element type %s from the kernel's name (the profiler records none inside "
                       "a tensor list)", w);
  else
    snprintf(why, cap, "elements of %g B (%s) from the kernel's name (the profiler records no "
                       "element type inside a tensor list)", es, w);
  return 1;
}

/* Sorted by name (bsearch; test_trace checks the order). */
#define E(n, fn, f, i0, i1, i2) {n, fn, f, i0, i1, i2}
static const aten_def table[] = {
    E("_adaptive_avg_pool2d", h_adaptive, 0, 0, 0, 0),
    E("_adaptive_avg_pool2d_backward", h_pool_bwd, 0, 2, 0, 0),
    E("_adaptive_avg_pool3d", h_adaptive, 0, 0, 0, 0),
    E("_cat", h_cat, 0, 0, 0, 0),
    E("_convolution", h_conv, 0, 3, 4, 8),
    E("_efficient_attention_backward", h_attn, 0, 1, 14, 2),
    E("_efficient_attention_forward", h_attn, 0, 0, 9, 1),
    E("_flash_attention_backward", h_attn, 0, 1, 11, 2),
    E("_flash_attention_forward", h_attn, 0, 0, 8, 1),
    E("_fused_adam", h_adam, 0, 0, 0, 0),
    E("_fused_adam_", h_adam, 0, 0, 0, 0),
    E("_fused_adamw", h_adam, 0, 0, 0, 0),
    E("_fused_adamw_", h_adam, 0, 0, 0, 0),
    E("_fused_sgd", h_sgd, 0, 0, 0, 0),
    E("_fused_sgd_", h_sgd, 0, 0, 0, 0),
    E("_log_softmax", h_rows, 0, RL_OP_SOFTMAX, 0, 0),
    E("_log_softmax_backward_data", h_elt, 4, 0, 2, 0),
    E("_native_batch_norm_legit", h_bn, 0, 0, 1, 5),
    E("_native_batch_norm_legit_no_training", h_bn, 4, 0, 1, -1),
    E("_scaled_dot_product_cudnn_attention", h_attn, 0, 0, 6, 0),
    E("_scaled_dot_product_cudnn_attention_backward", h_attn, 0, 1, 14, 3),
    E("_scaled_dot_product_efficient_attention", h_attn, 0, 0, 6, 0),
    E("_scaled_dot_product_efficient_attention_backward", h_attn, 0, 1, 11, 3),
    E("_scaled_dot_product_flash_attention", h_attn, 0, 0, 4, 0),
    E("_scaled_dot_product_flash_attention_backward", h_attn, 0, 1, 11, 3),
    E("_softmax", h_rows, 0, RL_OP_SOFTMAX, 0, 0),
    E("_softmax_backward_data", h_elt, 4, 0, 2, 0),
    E("_to_copy", h_clone, 0, 0, 0, 0),
    E("abs", h_elt, 1, 0, 1, 0),
    E("adaptive_avg_pool2d", h_adaptive, 0, 0, 0, 0),
    E("add", h_elt, 1, 0, 2, 0),
    E("addcdiv", h_elt, 3, 0, 3, 0),
    E("addcmul", h_elt, 3, 0, 3, 0),
    E("addmm", h_mm, 0, 1, 0, 0),
    E("amax", h_reduce, 1, 0, 0, 0),
    E("amin", h_reduce, 1, 0, 0, 0),
    E("argmax", h_reduce, 1, 0, 0, 0),
    E("argmin", h_reduce, 1, 0, 0, 0),
    E("avg_pool1d", h_pool, 0, 0, 0, 0),
    E("avg_pool2d", h_pool, 0, 0, 0, 0),
    E("avg_pool2d_backward", h_pool_bwd, 0, 2, 0, 0),
    E("avg_pool3d", h_pool, 0, 0, 0, 0),
    E("avg_pool3d_backward", h_pool_bwd, 0, 2, 0, 0),
    E("baddbmm", h_bmm, 0, 1, 0, 0),
    E("batch_norm", h_bn, 0, 0, 1, 5),
    E("bmm", h_bmm, 0, 0, 0, 0),
    E("cat", h_cat, 0, 0, 0, 0),
    E("ceil", h_elt, 1, 0, 1, 0),
    E("clamp", h_elt, 2, 0, 1, 0),
    E("clamp_max", h_elt, 1, 0, 1, 0),
    E("clamp_min", h_elt, 1, 0, 1, 0),
    E("clone", h_clone, 0, 0, 0, 0),
    E("contiguous", h_clone, 0, 0, 0, 0),
    E("conv1d", h_conv, 0, 3, 4, 6),
    E("conv2d", h_conv, 0, 3, 4, 6),
    E("conv3d", h_conv, 0, 3, 4, 6),
    E("conv_transpose1d", h_conv, 0, 3, 4, 6),
    E("conv_transpose2d", h_conv, 0, 3, 4, 6),
    E("conv_transpose3d", h_conv, 0, 3, 4, 6),
    E("convolution", h_conv, 0, 3, 4, 8),
    E("convolution_backward", h_conv_bwd, 0, 0, 0, 0),
    E("copy", h_copy, 0, 0, 0, 0),
    E("cos", h_elt, 1, 0, 1, 0),
    E("cudnn_batch_norm", h_bn, 0, 0, 1, 5),
    E("cudnn_batch_norm_backward", h_bn, 9, 0, 2, -1),
    E("cudnn_convolution", h_conv, 0, 3, 2, 5),
    E("cudnn_convolution_backward_input", h_conv_bwd, 0, 0, 0, 0),
    E("cudnn_convolution_backward_weight", h_conv_bwd, 0, 0, 0, 0),
    E("cudnn_convolution_transpose", h_conv, 0, 4, 2, 6),
    E("div", h_elt, 1, 0, 2, 0),
    E("elu", h_elt, 4, 0, 1, 0),
    E("elu_backward", h_elt, 4, 0, 2, 0),
    E("embedding", h_embedding, 0, 0, 0, 0),
    E("embedding_dense_backward", h_embedding_bwd, 0, 0, 0, 0),
    E("empty_like", h_fill, 0, 0, 0, 0),
    E("eq", h_elt, 1, 1, 2, 0),
    E("erf", h_elt, 1, 0, 1, 0),
    E("exp", h_elt, 1, 0, 1, 0),
    E("exp2", h_elt, 1, 0, 1, 0),
    E("expm1", h_elt, 1, 0, 1, 0),
    E("fbgemm::FP8RowwiseQuantizedToFloat", h_fbgemm, 0, 6, 0, 0),
    E("fbgemm::FloatToFP8RowwiseQuantized", h_fbgemm, 0, 5, 0, 0),
    E("fbgemm::FloatToHFP8Quantized", h_fbgemm, 0, 7, 0, 0),
    E("fbgemm::HFP8QuantizedToFloat", h_fbgemm, 0, 8, 0, 0),
    E("fbgemm::asynchronous_complete_cumsum", h_fbgemm, 0, 2, 0, 0),
    E("fbgemm::asynchronous_exclusive_cumsum", h_fbgemm, 0, 2, 0, 0),
    E("fbgemm::asynchronous_inclusive_cumsum", h_fbgemm, 0, 2, 0, 0),
    E("fbgemm::bounds_check_indices", h_fbgemm, 0, 3, 0, 0),
    E("fbgemm::permute_1D_sparse_data", h_fbgemm, 0, 1, 0, 0),
    E("fbgemm::permute_2D_sparse_data", h_fbgemm, 0, 1, 0, 0),
    E("fbgemm::permute_pooled_embs", h_fbgemm, 0, 4, 0, 0),
    E("fbgemm::permute_pooled_embs_auto_grad", h_fbgemm, 0, 4, 0, 0),
    E("fill", h_fill, 0, 0, 0, 0),
    E("floor", h_elt, 1, 0, 1, 0),
    E("full_like", h_fill, 0, 0, 0, 0),
    E("gather", h_index, 0, 0, 0, 0),
    E("ge", h_elt, 1, 1, 2, 0),
    E("gelu", h_act, 0, RL_OP_GELU_ERF, 0, 0),
    E("gelu_backward", h_elt, 8, 0, 2, 0),
    E("gt", h_elt, 1, 1, 2, 0),
    E("hardsigmoid", h_elt, 4, 0, 1, 0),
    E("hardsigmoid_backward", h_elt, 2, 0, 2, 0),
    E("hardswish", h_elt, 5, 0, 1, 0),
    E("hardswish_backward", h_elt, 4, 0, 2, 0),
    E("hardtanh", h_elt, 2, 0, 1, 0),
    E("hardtanh_backward", h_elt, 2, 0, 2, 0),
    E("index_add", h_index, 0, 0, 0, 0),
    E("index_copy", h_index, 0, 0, 0, 0),
    E("index_put", h_index, 0, 0, 0, 0),
    E("index_select", h_index, 0, 0, 0, 0),
    E("layer_norm", h_rows, 0, RL_OP_LAYERNORM, 0, 0),
    E("le", h_elt, 1, 1, 2, 0),
    E("leaky_relu", h_elt, 2, 0, 1, 0),
    E("leaky_relu_backward", h_elt, 2, 0, 2, 0),
    E("lerp", h_elt, 3, 0, 3, 0),
    E("linalg_vector_norm", h_reduce, 2, 0, 0, 0),
    E("linear", h_linear, 0, 0, 0, 0),
    E("log", h_elt, 1, 0, 1, 0),
    E("log10", h_elt, 1, 0, 1, 0),
    E("log1p", h_elt, 1, 0, 1, 0),
    E("log2", h_elt, 1, 0, 1, 0),
    E("log_softmax", h_rows, 0, RL_OP_SOFTMAX, 0, 0),
    E("logical_and", h_elt, 1, 1, 2, 0),
    E("logical_not", h_elt, 1, 1, 1, 0),
    E("logical_or", h_elt, 1, 1, 2, 0),
    E("logical_xor", h_elt, 1, 1, 2, 0),
    E("logsumexp", h_reduce, 3, 0, 0, 0),
    E("lt", h_elt, 1, 1, 2, 0),
    E("masked_fill", h_elt, 1, 0, 2, 0),
    E("matmul", h_matmul, 0, 0, 0, 0),
    E("max", h_reduce, 1, 0, 0, 0),
    E("max_pool1d_with_indices", h_pool, 0, 1, 0, 0),
    E("max_pool2d_with_indices", h_pool, 0, 1, 0, 0),
    E("max_pool2d_with_indices_backward", h_pool_bwd, 0, 1, 0, 0),
    E("max_pool3d_with_indices", h_pool, 0, 1, 0, 0),
    E("max_pool3d_with_indices_backward", h_pool_bwd, 0, 1, 0, 0),
    E("maximum", h_elt, 1, 0, 2, 0),
    E("mean", h_reduce, 1, 0, 0, 0),
    E("min", h_reduce, 1, 0, 0, 0),
    E("minimum", h_elt, 1, 0, 2, 0),
    E("miopen_batch_norm", h_bn, 0, 0, 1, 5),
    E("miopen_batch_norm_backward", h_bn, 9, 0, 2, -1),
    E("miopen_convolution", h_conv, 0, 4, 3, 6),
    E("mish", h_elt, 5, 0, 1, 0),
    E("mish_backward", h_elt, 10, 0, 2, 0),
    E("mkldnn_convolution", h_conv, 0, 4, 3, 6),
    E("mm", h_mm, 0, 0, 0, 0),
    E("mse_loss", h_elt, 3, 0, 2, 0),
    E("mse_loss_backward", h_elt, 3, 0, 3, 0),
    E("mul", h_elt, 1, 0, 2, 0),
    E("nan_to_num", h_elt, 3, 0, 1, 0),
    E("nansum", h_reduce, 1, 0, 0, 0),
    E("native_batch_norm", h_bn, 0, 0, 1, 5),
    E("native_batch_norm_backward", h_bn, 9, 1, 2, -1),
    E("native_dropout", h_elt, 3, 0, 1, 1),
    E("native_dropout_backward", h_elt, 2, 0, 2, 0),
    E("native_group_norm", h_norm_rows, 8, 0, 1, 0),
    E("native_group_norm_backward", h_norm_rows, 12, 1, 4, 0),
    E("native_layer_norm", h_rows, 0, RL_OP_LAYERNORM, 0, 0),
    E("native_layer_norm_backward", h_norm_rows, 12, 1, 5, 0),
    E("ne", h_elt, 1, 1, 2, 0),
    E("neg", h_elt, 1, 0, 1, 0),
    E("nll_loss2d_backward", h_nll, 0, 1, 0, 0),
    E("nll_loss2d_forward", h_nll, 0, 0, 0, 0),
    E("nll_loss_backward", h_nll, 0, 1, 0, 0),
    E("nll_loss_forward", h_nll, 0, 0, 0, 0),
    E("norm", h_reduce, 2, 0, 0, 0),
    E("ones_like", h_fill, 0, 0, 0, 0),
    E("pow", h_elt, 1, 0, 2, 0),
    E("prod", h_reduce, 1, 0, 0, 0),
    E("reciprocal", h_elt, 1, 0, 1, 0),
    E("relu", h_act, 0, RL_OP_RELU, 0, 0),
    E("rms_norm", h_rows, 0, RL_OP_RMSNORM, 0, 0),
    E("round", h_elt, 1, 0, 1, 0),
    E("rsqrt", h_elt, 1, 0, 1, 0),
    E("rsub", h_elt, 1, 0, 2, 0),
    E("scaled_dot_product_attention", h_attn, 0, 0, 5, 0),
    E("scatter", h_index, 0, 0, 0, 0),
    E("scatter_add", h_index, 0, 0, 0, 0),
    E("scatter_reduce", h_index, 0, 0, 0, 0),
    E("sgn", h_elt, 1, 0, 1, 0),
    E("sigmoid", h_elt, 4, 0, 1, 0),
    E("sigmoid_backward", h_elt, 3, 0, 2, 0),
    E("sign", h_elt, 1, 0, 1, 0),
    E("silu", h_act, 0, RL_OP_SILU, 0, 0),
    E("silu_backward", h_elt, 9, 0, 2, 0),
    E("sin", h_elt, 1, 0, 1, 0),
    E("softmax", h_rows, 0, RL_OP_SOFTMAX, 0, 0),
    E("softplus", h_elt, 3, 0, 1, 0),
    E("softplus_backward", h_elt, 4, 0, 2, 0),
    E("sqrt", h_elt, 1, 0, 1, 0),
    E("square", h_elt, 1, 0, 1, 0),
    E("stack", h_cat, 0, 0, 0, 0),
    E("std", h_reduce, 3, 0, 0, 0),
    E("std_mean", h_reduce, 3, 0, 0, 0),
    E("sub", h_elt, 1, 0, 2, 0),
    E("sum", h_reduce, 1, 0, 0, 0),
    E("tanh", h_elt, 1, 0, 1, 0),
    E("tanh_backward", h_elt, 3, 0, 2, 0),
    E("threshold", h_elt, 1, 0, 1, 0),
    E("threshold_backward", h_elt, 1, 0, 2, 0),
    E("trunc", h_elt, 1, 0, 1, 0),
    E("var", h_reduce, 3, 0, 0, 0),
    E("var_mean", h_reduce, 3, 0, 0, 0),
    E("where", h_elt, 1, 0, 3, 0),
    E("zero", h_fill, 0, 0, 0, 0),
    E("zeros_like", h_fill, 0, 0, 0, 0),
};
#undef E

const char *rli_aten_name(size_t i) {
  return i < sizeof table / sizeof table[0] ? table[i].name : NULL;
}

static int cmp_def(const void *k, const void *e) {
  return strcmp((const char *)k, ((const aten_def *)e)->name);
}

static const aten_def *aten_find(const char *base) {
  return bsearch(base, table, sizeof table / sizeof table[0], sizeof table[0], cmp_def);
}

static int on_lists(aten_fn fn) {
  return fn == h_cat || fn == h_foreach || fn == h_adam || fn == h_sgd;
}

/* Ops that only move or write bytes: integer types need no FLOP roof. So
 * do elementwise ops and reductions on integers (sum of int64 lengths,
 * add_ on a step counter): the database has no integer-ALU peak, and at
 * a few operations per 8 or more bytes they are memory-bound on any GPU,
 * so their bytes over the memory bandwidth (a lower bound on the time) is
 * their roof; F is not counted. */
static int movement(aten_fn fn) {
  return fn == h_fill || fn == h_clone || fn == h_copy || fn == h_index || fn == h_embedding ||
         fn == h_fbgemm || fn == h_elt || fn == h_reduce;
}

int rli_aten_cost(const char *full, const rli_aten_args *a, rli_cost *c, char *why,
                  size_t cap) {
  memset(c, 0, sizeof *c);
  c->dtype = -1;
  c->coll = -1;
  c->why = RLI_NONE;
  if (!strncmp(full, "nccl:", 5) || !strncmp(full, "c10d::", 6) ||
      !strcmp(full, "record_param_comms"))
    return coll_op(full, a, c, why, cap);
  if (compiled(full)) {
    c->reason = RL_REASON_COMPILED;
    return fail(why, cap, "compiled region: no shapes per kernel (Nsight Compute measures them)");
  }
  c->reason = RL_REASON_SHAPES;
  const char *n = strip_ns(full);
  size_t nl = strlen(n);
  char base[64];
  /* in-place forms: add_ -> add */
  if (nl && nl < sizeof base) {
    memcpy(base, n, nl + 1);
    if (nl > 1 && base[nl - 1] == '_' && base[0] != '_') base[nl - 1] = 0;
  } else {
    base[0] = 0;
  }
  const aten_def *d = aten_find(base);
  static const aten_def foreach_def = {"_foreach_", h_foreach, 0, 0, 0, 0};
  if (!d && !strncmp(n, "_foreach_", 9)) d = &foreach_def;
  if (!d && strstr(n, "CppNode<fbgemm_gpu::PermutePooledEmbsFunction"))
    d = bsearch("fbgemm::permute_pooled_embs", table, sizeof table / sizeof table[0],
                sizeof table[0], cmp_def);
  if (!d && strstr(n, "flash_attn")) d = bsearch("_flash_attention_forward", table,
                                                 sizeof table / sizeof table[0], sizeof table[0], cmp_def);
  if (!d && !strncmp(full, "Optimizer.step#", 15)) {
    /* torch.optim's step annotation: kernels right under it were launched
     * by no ATen op (apex's fused optimizers, a C++ extension) on the
     * parameter lists, whose sizes the profiler does not record */
    c->reason = RL_REASON_LISTS;
    return fail(why, cap, "%s: launched by an optimizer step with no ATen op, on tensor lists "
                          "whose sizes are not recorded", full);
  }
  if (!d) {
    c->reason = RL_REASON_NO_MODEL;
    return fail(why, cap, "no cost model for %s", full);
  }
  if (!a->has_dims) {
    c->reason = RL_REASON_NO_SHAPES;
    return fail(why, cap, "no shapes recorded for it (record_shapes=True)");
  }
  if (on_lists(d->fn)) {
    aten_ctx lx = {full, base, a, -1, 0, c, why, cap};
    return d->fn(&lx, d);
  }
  int32_t dt = type_at(a, 0);
  if (d->fn == h_mm || d->fn == h_bmm) dt = type_at(a, d->i0);
  if (d->fn == h_conv_bwd || d->fn == h_nll || d->fn == h_attn) dt = type_at(a, 1);
  if (dt < 0)
    for (int i = 0; i < a->n_types && dt < 0; i++)
      if (a->ndim[i] > 0) dt = type_at(a, i);
  aten_ctx x = {full, base, a, dt, 0, c, why, cap};
  if (dt < 0) {
    /* moving integers: bytes against the memory, no FLOP roof needed */
    if (movement(d->fn) && a->n_types && rli_torch_type_bytes(a->types[0]) > 0) {
      x.dt = RL_FP32; /* any format: F = 0, only the bandwidth counts */
      x.s = rli_torch_type_bytes(a->types[0]);
      if (!d->fn(&x, d)) return 0;
      c->flops = 0;
      c->dtype = -1;
      c->roof = RLI_ROOF_HBM;
      return 1;
    }
    snprintf(why, cap, "%s on %s: no floating-point roof for this type", full,
             a->n_types ? a->types[0] : "an unknown type");
    c->reason = RL_REASON_NO_ROOF;
    return 0;
  }
  x.s = rl_dtype_bytes(dt);
  return d->fn(&x, d);
}

/* ---- a backward from its forward's shapes ----------------------------------
 * An autograd node (MmBackward0, ReluBackward0, ...) whose kernels run under
 * no op of its own with shapes: its cost from the shapes of the forward op
 * that created it (the trace reader links them by sequence number), as the
 * backward ops of PyTorch's tools/autograd/derivatives.yaml for that op,
 * each through this file's model of that backward op:
 *   mm(A [m,k], B [k,n]): grad_A = G B^T, grad_B = A^T G (mm_mat1_backward,
 *     mm_mat2_backward): two GEMMs, each with the forward's F;
 *   addmm(bias, A, B): the same, and grad_bias = G summed to the bias's
 *     shape (maybe_multiply(grad, beta) through sum_to) when it broadcast;
 *   bmm(A [b,m,k], B [b,k,n]): grad_A = G B^T, grad_B = A^T G, batched;
 *   relu: threshold_backward(G, result, 0); sigmoid, tanh:
 *     *_backward(G, result); gelu, silu, hardtanh, leaky_relu, elu,
 *     softplus, mish, hardswish, hardsigmoid: *_backward(G, self);
 *   _softmax, _log_softmax: _softmax_backward_data / _log_softmax_backward_data
 *     (G, result);
 *   embedding(weight [V,D], indices): embedding_dense_backward(G [indices..,
 *     D], indices, num_weights = V).
 * G has the forward output's shape. */
enum { BW_MM, BW_ADDMM, BW_BMM, BW_ELT, BW_EMB };
static const struct {
  const char *fwd, *bwd;
  int kind;
} bwd_map[] = {
    {"_log_softmax", "aten::_log_softmax_backward_data", BW_ELT},
    {"_softmax", "aten::_softmax_backward_data", BW_ELT},
    {"addmm", NULL, BW_ADDMM},
    {"bmm", NULL, BW_BMM},
    {"elu", "aten::elu_backward", BW_ELT},
    {"embedding", "aten::embedding_dense_backward", BW_EMB},
    {"gelu", "aten::gelu_backward", BW_ELT},
    {"hardsigmoid", "aten::hardsigmoid_backward", BW_ELT},
    {"hardswish", "aten::hardswish_backward", BW_ELT},
    {"hardtanh", "aten::hardtanh_backward", BW_ELT},
    {"leaky_relu", "aten::leaky_relu_backward", BW_ELT},
    {"mish", "aten::mish_backward", BW_ELT},
    {"mm", NULL, BW_MM},
    {"relu", "aten::threshold_backward", BW_ELT},
    {"sigmoid", "aten::sigmoid_backward", BW_ELT},
    {"silu", "aten::silu_backward", BW_ELT},
    {"softplus", "aten::softplus_backward", BW_ELT},
    {"tanh", "aten::tanh_backward", BW_ELT},
};

/* the base name: no "aten::", no in-place '_' */
static size_t fwd_base(const char *full, char *out, size_t cap) {
  const char *n = strip_ns(full);
  size_t nl = strlen(n);
  if (!nl || nl >= cap) return 0;
  memcpy(out, n, nl + 1);
  if (nl > 1 && out[nl - 1] == '_' && out[0] != '_') out[--nl] = 0;
  return nl;
}

static int bwd_find(const char *full) {
  char b[64];
  if (!fwd_base(full, b, sizeof b)) return -1;
  for (size_t i = 0; i < sizeof bwd_map / sizeof bwd_map[0]; i++)
    if (!strcmp(b, bwd_map[i].fwd)) return (int)i;
  return -1;
}

int rli_aten_has_bwd(const char *fwd) { return bwd_find(fwd) >= 0; }

int rli_aten_is_node(const char *name) {
  size_t n = strlen(name), d = n;
  while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9') d--;
  return d < n && d > 8 && !memcmp(name + d - 8, "Backward", 8) &&
         strncmp(name, "autograd::", 10) != 0;
}

int rli_aten_node_of(const char *node, const char *fwd) {
  if (!rli_aten_is_node(node)) return 0;
  char b[64];
  size_t bl = fwd_base(fwd, b, sizeof b), d = strlen(node);
  if (!bl) return 0;
  while (node[d - 1] >= '0' && node[d - 1] <= '9') d--;
  d -= 8; /* "Backward" */
  /* AddmmBackward0 ~ addmm, LogSoftmaxBackward0 ~ _log_softmax: letters
   * alike but for case, the forward's underscores left out */
  size_t i = 0;
  for (size_t j = 0; j < bl; j++) {
    if (b[j] == '_') continue;
    if (i >= d || tolower((unsigned char)node[i]) != tolower((unsigned char)b[j])) return 0;
    i++;
  }
  return i == d;
}

static void set_shape(rli_aten_args *a, int i, const double *dims, int nd, const char *type) {
  a->ndim[i] = nd;
  for (int d = 0; d < nd; d++) a->dims[i][d] = dims[d];
  rli_strlcpy(a->types[i], type, sizeof a->types[i]);
}

/* the sum of two GEMMs' costs: (G [.., m, n], B^T [.., n, k]) and
 * (A^T [.., k, m], G [.., m, n]) */
static int two_gemms(const char *op, const rli_aten_args *fa, int ia, int ib, int batched,
                     rli_aten_args *w, rli_cost *c, char *why, size_t cap) {
  int r = batched ? 3 : 2;
  if (!is_tensor(fa, ia, r) || !is_tensor(fa, ib, r))
    return fail(why, cap, "%s: expected two %d-D operands", op, r);
  const double *A = fa->dims[ia], *B = fa->dims[ib];
  double bt = batched ? A[0] : 1, m = A[r - 2], k = A[r - 1], n = B[r - 1];
  if (B[r - 2] != k || (batched && B[0] != bt)) return fail(why, cap, "%s: inner dimensions differ", op);
  const char *ta = ia < fa->n_types ? fa->types[ia] : "", *tb2 = ib < fa->n_types ? fa->types[ib] : "";
  double g[3], bT[3], aT[3];
  int o = batched;
  g[0] = bT[0] = aT[0] = bt;
  g[o] = m, g[o + 1] = n;
  bT[o] = n, bT[o + 1] = k;
  aT[o] = k, aT[o + 1] = m;
  const char *name = batched ? "aten::bmm" : "aten::mm";
  rli_cost c2;
  memset(w, 0, sizeof *w);
  w->has_dims = w->has_types = 1;
  w->n_in = w->n_types = 2;
  set_shape(w, 0, g, r, ta);
  set_shape(w, 1, bT, r, tb2);
  if (!rli_aten_cost(name, w, c, why, cap)) return 0;
  set_shape(w, 0, aT, r, ta);
  set_shape(w, 1, g, r, ta);
  if (!rli_aten_cost(name, w, &c2, why, cap)) return 0;
  c->flops += c2.flops;
  c->bytes += c2.bytes;
  return 1;
}

int rli_aten_bwd_cost(const char *fwd, const rli_aten_args *fa, rli_cost *c, char *why,
                      size_t cap) {
  memset(c, 0, sizeof *c);
  c->dtype = -1;
  c->coll = -1;
  c->why = RLI_NONE;
  c->reason = RL_REASON_SHAPES;
  int i = bwd_find(fwd);
  if (i < 0) return fail(why, cap, "%s: no backward model", fwd);
  if (!fa->has_dims) return fail(why, cap, "%s: no shapes recorded", fwd);
  rli_aten_args *w = calloc(1, sizeof *w);
  if (!w) return fail(why, cap, "out of memory");
  int ok = 0;
  const char *t0 = fa->n_types > 0 ? fa->types[0] : "";
  switch (bwd_map[i].kind) {
  case BW_MM: ok = two_gemms(fwd, fa, 0, 1, 0, w, c, why, cap); break;
  case BW_BMM: ok = two_gemms(fwd, fa, 0, 1, 1, w, c, why, cap); break;
  case BW_ADDMM:
    ok = two_gemms(fwd, fa, 1, 2, 0, w, c, why, cap);
    if (ok && is_tensor(fa, 0, -1) && numel(fa, 0) < fa->dims[1][0] * fa->dims[2][1]) {
      /* the broadcast bias: G summed over its rows */
      double g[2] = {fa->dims[1][0], fa->dims[2][1]};
      rli_cost cs;
      memset(w, 0, sizeof *w);
      w->has_dims = w->has_types = 1;
      w->n_in = w->n_types = 1;
      set_shape(w, 0, g, 2, fa->n_types > 1 ? fa->types[1] : "");
      ok = rli_aten_cost("aten::sum", w, &cs, why, cap);
      if (ok) { /* reads G (cs.bytes), writes the bias's gradient */
        double es = cs.bytes / (g[0] * g[1]);
        c->flops += cs.flops;
        c->bytes += cs.bytes + numel(fa, 0) * es;
      }
    }
    break;
  case BW_ELT:
    if (!is_tensor(fa, 0, -1) || fa->ndim[0] < 1) {
      ok = fail(why, cap, "%s: no input shape", fwd);
      break;
    }
    w->has_dims = w->has_types = 1;
    w->n_in = w->n_types = 2;
    set_shape(w, 0, fa->dims[0], fa->ndim[0], t0);
    set_shape(w, 1, fa->dims[0], fa->ndim[0], t0);
    ok = rli_aten_cost(bwd_map[i].bwd, w, c, why, cap);
    break;
  case BW_EMB: {
    if (!is_tensor(fa, 0, 2) || !is_tensor(fa, 1, -1) || fa->ndim[1] + 1 > RLI_ATEN_MAX_DIM) {
      ok = fail(why, cap, "%s: expected weight and indices", fwd);
      break;
    }
    double g[RLI_ATEN_MAX_DIM];
    int r = fa->ndim[1];
    for (int d = 0; d < r; d++) g[d] = fa->dims[1][d];
    g[r] = fa->dims[0][1];
    w->has_dims = w->has_types = 1;
    w->n_in = w->n_types = w->n_concrete = 3;
    set_shape(w, 0, g, r + 1, t0);
    set_shape(w, 1, fa->dims[1], r, fa->n_types > 1 ? fa->types[1] : "");
    set_shape(w, 2, g, 0, "Scalar");
    snprintf(w->concrete[2], sizeof w->concrete[2], "%.0f", fa->dims[0][0]);
    ok = rli_aten_cost(bwd_map[i].bwd, w, c, why, cap);
    break;
  }
  }
  free(w);
  return ok;
}
