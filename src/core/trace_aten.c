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

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int32_t rli_torch_dtype(const char *t) {
  static const struct { const char *name; int32_t dt; } map[] = {
      {"float", RL_FP32},        {"double", RL_FP64},     {"c10::Half", RL_FP16},
      {"c10::BFloat16", RL_BF16}, {"c10::Float8_e4m3fn", RL_FP8},
      {"c10::Float8_e5m2", RL_FP8}, {"c10::Float8_e4m3fnuz", RL_FP8},
      {"c10::Float8_e5m2fnuz", RL_FP8}, {"Half", RL_FP16}, {"BFloat16", RL_BF16},
      {"Float", RL_FP32},        {"Double", RL_FP64}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(t, map[i].name) == 0) return map[i].dt;
  return -1;
}

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
  if (i >= a->n_in || a->ndim[i] < 0 || (i < a->n_types && !strcmp(a->types[i], "TensorList")))
    return fail(why, cap, "collective size not recorded (a tensor list: PyTorch records no "
                          "shapes inside it)");
  double es = i < a->n_types ? rli_torch_type_bytes(a->types[i]) : 0;
  if (!(es > 0))
    return fail(why, cap, "collective size not recorded (element type '%s')",
                i < a->n_types ? a->types[i] : "");
  int ok = rli_coll_cost(kind, numel(a, i) * es, -1, c, why, cap);
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
  /* in-place and out= forms: add_ -> add */
  if (nl && nl < sizeof base) {
    memcpy(base, n, nl + 1);
    if (nl > 1 && base[nl - 1] == '_' && base[0] != '_') base[nl - 1] = 0;
  } else {
    base[0] = 0;
  }
  static const char *const known[] = {
      "mm", "addmm", "bmm", "baddbmm", "matmul", "linear", "conv2d", "convolution",
      "_convolution", "cudnn_convolution", "layer_norm", "native_layer_norm", "softmax",
      "_softmax", "add", "sub", "mul", "div", "gelu", "silu", "relu", "copy", "embedding",
      "scaled_dot_product_attention", "_scaled_dot_product_flash_attention",
      "_scaled_dot_product_efficient_attention", "_scaled_dot_product_cudnn_attention",
      "_flash_attention_forward", "_efficient_attention_forward", NULL};
  int k = -1;
  for (int i = 0; known[i]; i++)
    if (strcmp(base, known[i]) == 0) { k = i; break; }
  if (k < 0 && strstr(n, "flash_attn") == NULL) {
    c->reason = RL_REASON_NO_MODEL;
    return fail(why, cap, "no cost model for %s", full);
  }
  if (!a->has_dims) {
    c->reason = RL_REASON_NO_SHAPES;
    return fail(why, cap, "no shapes recorded for it (record_shapes=True)");
  }
  int32_t dt = type_at(a, 0);
  if (strcmp(base, "addmm") == 0 || strcmp(base, "baddbmm") == 0) dt = type_at(a, 1);
  if (dt < 0) {
    for (int i = 0; i < a->n_types && dt < 0; i++)
      if (a->ndim[i] > 0) dt = type_at(a, i);
    if (dt < 0) {
      snprintf(why, cap, "%s on %s: no floating-point roof for this type", full,
               a->n_types ? a->types[0] : "an unknown type");
      c->reason = RL_REASON_NO_ROOF;
      return 0;
    }
  }
  rl_op op;
  if (!strcmp(base, "mm") || !strcmp(base, "addmm")) {
    int o = base[0] == 'a';
    if (!is_tensor(a, o, 2) || !is_tensor(a, o + 1, 2)) return fail(why, cap, "%s: expected two 2-D operands", full);
    op = rl_op_init(RL_OP_MATMUL, dt);
    op.m = a->dims[o][0];
    op.k = a->dims[o][1];
    op.n = a->dims[o + 1][1];
    if (a->dims[o + 1][0] != op.k) return fail(why, cap, "%s: inner dimensions differ", full);
    if (o && is_tensor(a, 0, -1)) op.flags |= RL_OP_BIAS;
    return from_op(&op, c, why, cap);
  }
  if (!strcmp(base, "bmm") || !strcmp(base, "baddbmm")) {
    int o = base[0] == 'b' && base[1] == 'a';
    if (!is_tensor(a, o, 3) || !is_tensor(a, o + 1, 3)) return fail(why, cap, "%s: expected two 3-D operands", full);
    op = rl_op_init(RL_OP_MATMUL, dt);
    op.batch = a->dims[o][0];
    op.m = a->dims[o][1];
    op.k = a->dims[o][2];
    op.n = a->dims[o + 1][2];
    if (a->dims[o + 1][1] != op.k) return fail(why, cap, "%s: inner dimensions differ", full);
    if (o) op.flags |= RL_OP_BIAS;
    return from_op(&op, c, why, cap);
  }
  if (!strcmp(base, "matmul")) {
    if (!is_tensor(a, 0, -1) || !is_tensor(a, 1, -1) || a->ndim[0] < 2 || a->ndim[1] < 2)
      return fail(why, cap, "%s: vector operands are not modelled", full);
    int ra = a->ndim[0], rb = a->ndim[1];
    op = rl_op_init(RL_OP_MATMUL, dt);
    op.k = a->dims[0][ra - 1];
    op.n = a->dims[1][rb - 1];
    if (a->dims[1][rb - 2] != op.k) return fail(why, cap, "%s: inner dimensions differ", full);
    if (rb == 2) {
      op.m = numel(a, 0) / op.k;
    } else {
      op.m = a->dims[0][ra - 2];
      op.batch = numel(a, 0) / (op.m * op.k);
    }
    return from_op(&op, c, why, cap);
  }
  if (!strcmp(base, "linear")) {
    if (!is_tensor(a, 0, -1) || !is_tensor(a, 1, 2)) return fail(why, cap, "%s: expected input and 2-D weight", full);
    op = rl_op_init(RL_OP_LINEAR, dt);
    int32_t wt = type_at(a, 1);
    if (wt >= 0 && wt != dt) op.weight_dtype = wt;
    op.k = a->dims[0][a->ndim[0] - 1];
    op.n = a->dims[1][0];
    if (a->dims[1][1] != op.k) return fail(why, cap, "%s: weight does not match the input", full);
    op.m = numel(a, 0) / op.k;
    if (is_tensor(a, 2, 1)) op.flags |= RL_OP_BIAS;
    return from_op(&op, c, why, cap);
  }
  if (!strcmp(base, "conv2d") || !strcmp(base, "convolution") || !strcmp(base, "_convolution") ||
      !strcmp(base, "cudnn_convolution")) {
    if (!is_tensor(a, 0, 4) || !is_tensor(a, 1, 4)) return fail(why, cap, "%s: only 2-D convolutions are modelled", full);
    int cud = base[0] == 'c' && base[1] == 'u';
    int i_stride = cud ? 3 : 3, i_pad = cud ? 2 : 4, i_dil = 5 - (cud ? 1 : 0);
    int i_groups = cud ? 5 : !strcmp(base, "conv2d") ? 6 : 8;
    if (cud) i_dil = 4;
    double sh = concrete_num(a, i_stride, 0), sw = concrete_num(a, i_stride, 1);
    double ph = concrete_num(a, i_pad, 0), pw = concrete_num(a, i_pad, 1);
    double dil = concrete_num(a, i_dil, 0), g = concrete_num(a, i_groups, 0);
    if (sh <= 0 || ph < 0 || g <= 0)
      return fail(why, cap, "%s: stride, padding or groups not recorded (Concrete Inputs)", full);
    if (sw > 0 && sw != sh) return fail(why, cap, "%s: unequal strides are not modelled", full);
    if (pw >= 0 && pw != ph) return fail(why, cap, "%s: unequal padding is not modelled", full);
    if (dil > 1 || concrete_num(a, i_dil, 1) > 1) return fail(why, cap, "%s: dilated convolutions are not modelled", full);
    if (!cud && strcmp(base, "conv2d") != 0 && concrete_bool(a, 6) == 1)
      return fail(why, cap, "%s: transposed convolutions are not modelled", full);
    op = rl_op_init(RL_OP_CONV2D, dt);
    op.batch = a->dims[0][0];
    op.c_in = a->dims[0][1];
    op.h = a->dims[0][2];
    op.w = a->dims[0][3];
    op.c_out = a->dims[1][0];
    op.kh = a->dims[1][2];
    op.kw = a->dims[1][3];
    op.stride = sh;
    op.pad = ph;
    op.groups = g;
    if (!cud && is_tensor(a, 2, 1)) op.flags |= RL_OP_BIAS;
    if (a->dims[1][1] * g != op.c_in) return fail(why, cap, "%s: weight channels do not match the input", full);
    return from_op(&op, c, why, cap);
  }
  if (!strcmp(base, "layer_norm") || !strcmp(base, "native_layer_norm") ||
      !strcmp(base, "softmax") || !strcmp(base, "_softmax")) {
    if (!is_tensor(a, 0, -1)) return fail(why, cap, "%s: no input shape", full);
    int ln = base[0] == 'l' || base[0] == 'n';
    op = rl_op_init(ln ? RL_OP_LAYERNORM : RL_OP_SOFTMAX, dt);
    double cols = a->dims[0][a->ndim[0] - 1];
    if (ln && is_tensor(a, 2, -1)) cols = numel(a, 2); /* the weight: normalized size */
    if (!(cols > 0)) return fail(why, cap, "%s: empty input", full);
    op.n = cols;
    op.m = numel(a, 0) / cols;
    if (op.m != floor(op.m)) return fail(why, cap, "%s: normalized shape does not divide the input", full);
    return from_op(&op, c, why, cap);
  }
  if (!strcmp(base, "add") || !strcmp(base, "sub") || !strcmp(base, "mul") ||
      !strcmp(base, "div")) {
    double nout = 0, q = 0;
    int tensors = 0;
    for (int i = 0; i < a->n_in && i < 2; i++) {
      double e = numel(a, i);
      if (e < 0 || a->ndim[i] == 0) continue; /* a scalar */
      int32_t t = type_at(a, i);
      double s = rl_dtype_bytes(t >= 0 ? t : dt);
      q += e * s;
      if (e > nout) nout = e;
      tensors++;
    }
    if (!tensors || !(nout > 0)) return fail(why, cap, "%s: no tensor operand", full);
    q += nout * rl_dtype_bytes(dt);
    op = rl_op_init(RL_OP_KERNEL, dt);
    op.flops = nout;
    op.bytes = q;
    return from_op(&op, c, why, cap);
  }
  if (!strcmp(base, "gelu") || !strcmp(base, "silu") || !strcmp(base, "relu")) {
    double e = numel(a, 0);
    if (!(e > 0)) return fail(why, cap, "%s: no input shape", full);
    int32_t kind = base[0] == 's' ? RL_OP_SILU : base[0] == 'r' ? RL_OP_RELU : RL_OP_GELU_ERF;
    /* gelu's approximate argument: "none" (erf, the default) or "tanh" */
    if (kind == RL_OP_GELU_ERF && a->n_concrete > 1 && strstr(a->concrete[1], "tanh"))
      kind = RL_OP_GELU_TANH;
    op = rl_op_init(kind, dt);
    op.n = e;
    return from_op(&op, c, why, cap);
  }
  if (!strcmp(base, "copy")) {
    double e = numel(a, 0);
    if (!(e > 0)) return fail(why, cap, "%s: no destination shape", full);
    op = rl_op_init(RL_OP_COPY, dt);
    int32_t st = type_at(a, 1);
    if (st < 0 && a->n_types > 1 && a->ndim[1] > 0) {
      /* integer source: bytes still move, F = 0 */
      static const struct { const char *n; double b; } ib[] = {
          {"long int", 8}, {"long", 8}, {"int", 4}, {"short int", 2}, {"bool", 1},
          {"unsigned char", 1}, {"signed char", 1}};
      for (size_t i = 0; i < sizeof ib / sizeof ib[0]; i++)
        if (!strcmp(a->types[1], ib[i].n)) {
          op = rl_op_init(RL_OP_KERNEL, dt);
          op.flops = 0;
          op.bytes = e * (rl_dtype_bytes(dt) + ib[i].b);
          return from_op(&op, c, why, cap);
        }
    }
    if (st >= 0 && st != dt) op.weight_dtype = st;
    op.n = e;
    return from_op(&op, c, why, cap);
  }
  if (!strcmp(base, "embedding")) {
    if (!is_tensor(a, 0, 2) || !is_tensor(a, 1, -1)) return fail(why, cap, "%s: expected weight and indices", full);
    op = rl_op_init(RL_OP_EMBEDDING, dt);
    op.m = numel(a, 1);
    op.n = a->dims[0][1];
    return from_op(&op, c, why, cap);
  }
  /* attention: query [B, H, T, d], key [B, Hkv, S, d] */
  if (!is_tensor(a, 0, 4) || !is_tensor(a, 1, 4)) return fail(why, cap, "%s: expected 4-D query and key", full);
  int causal_at = -1;
  if (!strcmp(base, "scaled_dot_product_attention")) causal_at = 5;
  else if (!strcmp(base, "_scaled_dot_product_flash_attention")) causal_at = 4;
  else if (!strcmp(base, "_scaled_dot_product_efficient_attention")) causal_at = 6;
  else if (!strcmp(base, "_scaled_dot_product_cudnn_attention")) causal_at = 6;
  int causal = causal_at >= 0 ? concrete_bool(a, causal_at) : -1;
  if (causal < 0) return fail(why, cap, "%s: causal flag not recorded (Concrete Inputs)", full);
  op = rl_op_init(RL_OP_ATTENTION, dt);
  op.flags = RL_OP_FUSED | (causal ? RL_OP_CAUSAL : 0);
  op.batch = a->dims[0][0];
  op.heads = a->dims[0][1];
  op.seq = a->dims[0][2];
  op.head_dim = a->dims[0][3];
  op.kv_heads = a->dims[1][1];
  op.seq_kv = a->dims[1][2];
  return from_op(&op, c, why, cap);
}

/* ---- device names -------------------------------------------------------- */
static int has(const char *hay, const char *needle) {
  size_t n = strlen(needle);
  for (; *hay; hay++)
    if (rli_strncasecmp(hay, needle, n) == 0) return 1;
  return 0;
}

const char *rli_device_hw_id(const char *name, double mem) {
  if (!name || !*name) return NULL;
  if (has(name, "gb200")) return "nvidia-gb200-gpu";
  if (has(name, "b200")) return "nvidia-b200-hgx";
  if (has(name, "h200")) return has(name, "nvl") ? "nvidia-h200-nvl" : "nvidia-h200-sxm";
  if (has(name, "h100")) {
    if (has(name, "pcie")) return "nvidia-h100-pcie";
    if (has(name, "nvl")) return "nvidia-h100-nvl";
    return "nvidia-h100-sxm5"; /* "H100 80GB HBM3" is the SXM5 part */
  }
  if (has(name, "a100")) {
    if (has(name, "pcie")) return mem > 0 && mem < 60e9 ? NULL : "nvidia-a100-pcie-80gb";
    if (has(name, "80gb")) return "nvidia-a100-sxm4-80gb";
    if (has(name, "40gb")) return "nvidia-a100-sxm4-40gb";
    /* SXM4 boards (A100-SXM4, A100-PG509-200): by memory */
    if (mem > 0) return mem < 60e9 ? "nvidia-a100-sxm4-40gb" : "nvidia-a100-sxm4-80gb";
    return NULL;
  }
  if (has(name, "v100")) return has(name, "pcie") ? NULL : "nvidia-v100-sxm2";
  if (has(name, "l40s")) return "nvidia-l40s";
  if (has(name, "a10") && !has(name, "a100")) return "nvidia-a10";
  if (has(name, " l4") || !rli_strcasecmp(name, "l4")) return "nvidia-l4";
  if (has(name, "t4")) return "nvidia-t4";
  if (has(name, "4090")) return "nvidia-rtx-4090";
  if (has(name, "3090")) return "nvidia-rtx-3090";
  if (has(name, "mi300x")) return "amd-mi300x";
  if (has(name, "mi325x")) return "amd-mi325x";
  if (has(name, "mi250")) return "amd-mi250x";
  return NULL;
}
