/*
 * trace_aten.c -- F and Q of one call of a PyTorch (ATen) op from the
 * shapes the profiler recorded (`Input Dims`, `Input type`, `Concrete
 * Inputs` with record_shapes=True), through the core's op cost model
 * (src/core/ops.c states every formula and its source): a row of the table
 * at the end that names an op kind (.op) reads the shapes into an rl_op and
 * takes F and Q from rl_op_cost, so `roofline op KIND` and the trace's row
 * cannot disagree; the other rows' formulas (ops the op model does not
 * have: backward ops, norms of other kinds, pooling, ...) are stated with
 * their handlers below.
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
 *     Q = sum of input bytes + output bytes (ideal traffic, ops.c); the
 *     output in the operands' promoted type (torch.result_type), an
 *     in-place form's in its destination's
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

/* The distinct elements of input i: a dimension of stride 0 (`expand`ed
 * indices, a broadcast scalar: PyTorch's Input Strides, >= 2.1) repeats
 * the same elements, so memory holds, and an op must read, only the
 * product of the other dimensions (an [15360, 4096] index of strides
 * [1, 0] is 15360 int64s). The compulsory bytes of reading it are those
 * elements once; numel when no strides were recorded. -1 as numel. */
static double distinct(const rli_aten_args *a, int i) {
  if (i >= a->n_in || a->ndim[i] < 0) return -1;
  int z = i < a->n_str && a->str_rank[i] == a->ndim[i] ? a->str_zero[i] : 0;
  double n = 1;
  for (int d = 0; d < a->ndim[i]; d++)
    if (!(z & (1 << d))) n *= a->dims[i][d];
  return n;
}

/* Input Strides that cannot be a shaped input's: another rank than its
 * Input Dims, a stride negative or not a number. 0 with why. */
static int strides_fit(const char *full, const rli_aten_args *a, char *why, size_t cap);

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
  if (RLI_STARTS(name, "aten::")) return name + RLI_LEN("aten::");
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

/* why an op is left uncovered, formatted into why; 0 (trace_internal.h) */
int rli_why_fail(char *why, size_t cap, const char *fmt, ...) {
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
      return rli_why_fail(why, cap, "%s: not a collective with a bandwidth model", full);
    }
    return rli_why_fail(why, cap, "collective size not recorded (record_param_comms without args)");
  }
  if (!a->has_dims) return rli_why_fail(why, cap, "collective size not recorded (no shapes)");
  int i = 0;
  if (RLI_STARTS(full, "c10d::") && (kind == RLI_COLL_REDUCESCATTER || kind == RLI_COLL_ALLTOALL))
    i = 1; /* (output, input): S is the input */
  if (i < a->n_in && a->ndim[i] == RLI_ATEN_LIST)
    return rli_why_fail(why, cap, "collective size not recorded (a tensor list: its shapes are recorded, "
                          "its element type is not)");
  if (i >= a->n_in || a->ndim[i] < 0 || (i < a->n_types && !strcmp(a->types[i], "TensorList")))
    return rli_why_fail(why, cap, "collective size not recorded (a tensor list: PyTorch records no "
                          "shapes inside it)");
  double es = i < a->n_types ? rli_torch_type_bytes(a->types[i]) : 0;
  if (!(es > 0))
    return rli_why_fail(why, cap, "collective size not recorded (element type '%s')",
                i < a->n_types ? a->types[i] : "");
  /* c10d::_allgather_base_(output, input) and _reduce_scatter_base_(output,
   * input) record both tensors: the group size is the ratio of their sizes
   * (the gathered output is n inputs; the scattered input n outputs) */
  double n = -1;
  if (RLI_STARTS(full, "c10d::") && (kind == RLI_COLL_ALLGATHER || kind == RLI_COLL_REDUCESCATTER) &&
      a->n_in >= 2 && a->ndim[0] >= 1 && a->ndim[1] >= 1 &&
      !(a->n_types >= 2 && (!strcmp(a->types[0], "TensorList") || !strcmp(a->types[1], "TensorList")))) {
    double big = numel(a, kind == RLI_COLL_ALLGATHER ? 0 : 1);
    double one = numel(a, kind == RLI_COLL_ALLGATHER ? 1 : 0);
    if (!(one > 0 && big >= one && fmod(big, one) == 0)) {
      c->reason = RL_REASON_SHAPES;
      return rli_why_fail(why, cap, "%s: output and input sizes (%g, %g elements) are no group's", full,
                  numel(a, 0), numel(a, 1));
    }
    n = big / one;
  }
  int ok = rli_coll_cost(kind, numel(a, i) * es, n, c, why, cap);
  /* nccl:_all_gather_base / nccl:all_gather record the input: S = n x it */
  if (ok && kind == RLI_COLL_ALLGATHER && RLI_STARTS(full, "nccl:")) c->per_rank = 1;
  if (ok && i < a->n_types) c->dtype = rli_torch_dtype(a->types[i]);
  return ok;
}

/* Compiled regions: torch.compile's autograd functions and Inductor's
 * graph calls; their kernels are Triton's or fused, no shapes apply. */
static int compiled(const char *n) {
  return strstr(n, "CompiledFunction") || strstr(n, "CompiledFxGraph") ||
         strstr(n, "torch-compiled") || strstr(n, "Torch-Compiled") || RLI_STARTS(n, "triton_");
}

/* ---- Triton launches and compiled regions: bytes from below ----------------
 * PyTorch 2.x records one CPU op per Inductor kernel launch, named as the
 * kernel (torch/_inductor/runtime/triton_heuristics.py wraps the launch in
 * a record_function with the launch's arguments: `Input Dims` and `Input
 * type` of each tensor argument, `Concrete Inputs` of the scalars). Inductor
 * passes a kernel its buffers first, then its sizes, the iteration ranges
 * last (torch/_inductor/codegen/triton.py: `xnumel` for a pointwise kernel,
 * `xnumel, rnumel` for a reduction). What the launch must move at least:
 * each tensor argument once (an in/out buffer once, not read and written),
 * never more than its size, and no more elements than the launch iterates
 * over: min(numel, xnumel x rnumel) elements of each, at its element size.
 * So Q is a lower bound (RLI_LOWER_BYTES): a kernel that reads a tensor
 * twice, or a reduction's partial results, moves more. The iteration range
 * is the product of the last scalar (pointwise, `triton_poi_`) or the last
 * two (`triton_red_`, `triton_per_`): a tiled pointwise kernel's ynumel
 * left out makes the range smaller, so the bound only looser. FLOPs are
 * not counted (nothing in the launch says them; RLI_LOWER_NOFLOPS: the
 * memory roof bounds it) except for a GEMM template (`triton_tem_` named
 * after mm, addmm, bmm or baddbmm): 2 M N K from the shapes of its
 * arguments, A [.., M, K], B [.., K, N] and an output [.., M, N] (the
 * smallest such product where several pairs fit; Inductor's mm templates,
 * torch/_inductor/kernel/mm.py, take A, B and write one output).
 * A launch whose range is 0, negative, not a whole number or absurd (past
 * 1e15), or not recorded at all (a tensor's whole size is then no bound:
 * the launch may touch part of it; a GEMM template's operands and output
 * are read and written whole), is left uncovered with its reason. */
static int triton_numel(const rli_aten_args *a, int i, double *v) {
  if (i >= a->n_concrete || !a->concrete[i][0]) return 0;
  char *end;
  *v = strtod(a->concrete[i], &end);
  return end != a->concrete[i] && *end == 0;
}

static int is_scalar_arg(const rli_aten_args *a, int i) {
  return i < a->n_types && (!strcmp(a->types[i], "Scalar") || !strcmp(a->types[i], "int") ||
                            !strcmp(a->types[i], "long int"));
}

/* A name's word (between '_') equal to w */
static int has_word(const char *name, const char *w) {
  size_t wl = strlen(w);
  for (const char *p = name; (p = strstr(p, w)) != NULL; p++)
    if ((p == name || p[-1] == '_') && (p[wl] == '_' || p[wl] == 0)) return 1;
  return 0;
}

/* 2 M N K of the fewest FLOPs among the GEMMs the tensor shapes allow; -1 none */
static double template_gemm(const rli_aten_args *a, int32_t *dt) {
  double best = -1;
  int n = a->n_in < RLI_ATEN_MAX_IN ? a->n_in : RLI_ATEN_MAX_IN;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      int r = a->ndim[i];
      if (i == j || (r != 2 && r != 3) || a->ndim[j] != r) continue;
      const double *A = a->dims[i], *B = a->dims[j];
      if (A[r - 1] != B[r - 2] || (r == 3 && A[0] != B[0])) continue;
      for (int l = 0; l < n; l++) {
        const double *C = a->dims[l];
        if (l == i || l == j || a->ndim[l] != r || C[r - 2] != A[r - 2] || C[r - 1] != B[r - 1] ||
            (r == 3 && C[0] != A[0]))
          continue;
        double f = 2 * (r == 3 ? A[0] : 1) * A[r - 2] * B[r - 1] * A[r - 1];
        if (best < 0 || f < best) {
          best = f;
          *dt = type_at(a, i);
        }
      }
    }
  return best;
}

static int triton_launch(const char *full, const rli_aten_args *a, rli_cost *c, char *why,
                         size_t cap) {
  c->reason = RL_REASON_SHAPES;
  if (a->more_n)
    return rli_why_fail(why, cap, "Triton launch with %d arguments: more than the %d read",
                a->n_in + a->more_n, RLI_ATEN_MAX_IN);
  int red = RLI_STARTS(full, "triton_red_") || RLI_STARTS(full, "triton_per_");
  /* the iteration range: the last one (pointwise) or two (reductions)
   * integer scalars */
  double range = 1;
  int want = red ? 2 : 1, got = 0;
  int n = a->n_in < RLI_ATEN_MAX_IN ? a->n_in : RLI_ATEN_MAX_IN;
  for (int i = n - 1; i >= 0 && got < want; i--) {
    if (!is_scalar_arg(a, i)) continue;
    double v;
    if (!triton_numel(a, i, &v)) {
      if (i < a->n_concrete && a->concrete[i][0])
        return rli_why_fail(why, cap, "Triton launch: its size argument '%.40s' is not a number",
                    a->concrete[i]);
      range = -1; /* not recorded: no range */
      break;
    }
    const char *nm = red && got == 0 ? "rnumel" : "xnumel";
    if (v == 0) return rli_why_fail(why, cap, "Triton launch with %s 0 (an empty launch: nothing moved)", nm);
    if (!(v > 0 && v <= 1e15 && v == floor(v)))
      return rli_why_fail(why, cap, "Triton launch with %s %g: not a size", nm, v);
    range *= v;
    got++;
  }
  if (got == 0) range = -1;
  double f = -1;
  int32_t gdt = -1;
  if (RLI_STARTS(full, "triton_tem_") && (has_word(full, "mm") || has_word(full, "addmm") ||
                                          has_word(full, "bmm") || has_word(full, "baddbmm")))
    f = template_gemm(a, &gdt);
  /* without its range a tensor argument may be touched in part (a gather
   * from an embedding table reads the rows its indices name): its whole
   * size bounds nothing from below, but for a GEMM, which reads its
   * operands and writes its output whole */
  if (range < 0 && !(f > 0 && gdt >= 0))
    return rli_why_fail(why, cap, "Triton launch without its iteration range (%s) recorded: its bytes "
                "cannot be bounded from below", red ? "xnumel, rnumel" : "xnumel");
  double q = 0;
  int32_t dt = -1;
  int tensors = 0;
  for (int i = 0; i < n; i++) {
    if (a->ndim[i] < 0 || is_scalar_arg(a, i) || i >= a->n_types) continue;
    double es = rli_torch_type_bytes(a->types[i]);
    if (!(es > 0)) continue;
    double m = numel(a, i);
    if (range > 0 && m > range) m = range;
    q += m * es;
    tensors++;
    if (dt < 0) dt = rli_torch_dtype(a->types[i]);
  }
  if (!tensors || !(q > 0))
    return rli_why_fail(why, cap, "Triton launch without a tensor argument of known size and type");
  c->bytes = q;
  c->lower = RLI_LOWER_BYTES;
  c->coll = -1;
  c->reason = 0;
  if (f > 0 && gdt >= 0) {
    c->flops = f;
    c->tensor = 1;
    c->dtype = gdt;
    c->roof = RLI_ROOF_CHIP;
    return 1;
  }
  c->flops = 0;
  c->lower |= RLI_LOWER_NOFLOPS;
  c->roof = RLI_ROOF_HBM;
  c->dtype = -1;
  return 1;
}

/* torch.compile's autograd function (CompiledFunction, and its backward
 * node CompiledFunctionBackward; PyTorch 2.0-2.2 traces, which record no
 * op per Inductor kernel): one op whose kernels read at least its recorded
 * inputs, each once (AOTAutograd passes the compiled graph its parameters
 * and activations, torch/_functorch/aot_autograd.py; the backward its
 * output gradients). Q = their bytes, a lower bound (outputs and saved
 * activations are not recorded); F not counted. Inputs past the first
 * RLI_ATEN_MAX_IN are counted at the smallest element size recorded. An op
 * the region calls with shapes of its own (aten::mm from
 * extern_kernels.mm) keeps its kernels: they link to it, not here. */
static int compiled_region(const char *full, const rli_aten_args *a, rli_cost *c, char *why,
                           size_t cap) {
  c->reason = RL_REASON_SHAPES;
  int n = a->n_in < RLI_ATEN_MAX_IN ? a->n_in : RLI_ATEN_MAX_IN;
  double q = 0, least = a->more_type_bytes;
  for (int i = 0; i < n; i++) {
    if (a->ndim[i] == RLI_ATEN_LIST) continue; /* no element type inside */
    if (a->ndim[i] < 0 && i < a->n_types && rli_torch_type_bytes(a->types[i]) > 0)
      return rli_why_fail(why, cap, "%s: input %d's shape is not usable", full, i);
    if (a->ndim[i] < 0 || i >= a->n_types) continue;
    double es = rli_torch_type_bytes(a->types[i]);
    if (es > 0) q += numel(a, i) * es;
    if (es > 0 && (least == 0 || es < least)) least = es;
  }
  if (a->more_bad) return rli_why_fail(why, cap, "%s: an input's shape is not usable", full);
  q += a->more_elems * least;
  if (!(q > 0))
    return rli_why_fail(why, cap, "%s: no input of known size and type recorded", full);
  c->bytes = q;
  c->flops = 0;
  c->lower = RLI_LOWER_BYTES | RLI_LOWER_NOFLOPS;
  c->roof = RLI_ROOF_HBM;
  c->dtype = -1;
  c->coll = -1;
  c->reason = 0;
  return 1;
}

const char *rli_aten_lower_note(const char *full, const rli_cost *c) {
  if (!c->lower || rli_custom_has(full)) return NULL; /* a custom op's note: rli_aten_cost's */
  if (RLI_STARTS(full, "triton_"))
    return c->lower & RLI_LOWER_NOFLOPS
               ? "Triton launch: bytes at least its tensor arguments once, min(numel, xnumel x "
                 "rnumel) elements each; FLOPs not counted"
               : "Triton GEMM template: 2 M N K from its arguments' shapes; bytes at least its "
                 "tensor arguments once";
  return "compiled region: bytes at least its recorded inputs read once; FLOPs not counted";
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

/* The layouts of attention's query and key (aten_def.layout). */
enum { ATTN_BHTD, ATTN_BTHD, ATTN_BTHD_BWD, ATTN_BHTD_BWD };
/* Which op of a family a row is (aten_def.variant). */
enum {
  POOL_MAX = 1, POOL_AVG = 2,                    /* h_pool, h_pool_bwd */
  NLL_FWD = 0, NLL_BWD = 1,                      /* h_nll */
  FB_PERMUTE = 1, FB_CUMSUM, FB_BOUNDS, FB_POOLED, FB_TO_FP8, FB_FROM_FP8, FB_TO_HFP8,
  FB_FROM_HFP8                                   /* h_fbgemm */
};
#define NO_ARG (-1)
/* An op kind as a row's `op`: 0 (a row that leaves it out) is none. */
#define OP(kind) ((kind) + 1)

/* One row of the table, in designated initializers: the name and handler,
 * then what that handler reads (a member a row leaves out is 0). */
struct aten_def {
  const char *name;   /* base name; the table is sorted by it */
  aten_fn fn;
  int32_t op;         /* OP(RL_OP_*): the op kind whose formula (ops.c, through
                         rl_op_cost) gives F and Q; 0: the handler's own */
  double f;           /* FLOPs per element when no op kind gives them
                         (elementwise, reductions, norms; 0: the handler's) */
  int operand;        /* mm/bmm: the first matrix (addmm, baddbmm: 1);
                         norms: the input; attention: the query */
  int weight;         /* norms: the weight (parameters) */
  int flag;           /* batch norm: training; attention: causal (NO_ARG:
                         not recorded, the op says) */
  int stride, padding, groups; /* convolution: their arguments */
  int layout;         /* attention: ATTN_* */
  int tensors;        /* elementwise: the leading arguments that are
                         operands (0: all) */
  int bool_out;       /* elementwise: the output is a bool (1 B) */
  int mask;           /* elementwise: it also writes a bool mask (dropout) */
  int variant;        /* pooling, losses, FBGEMM: which op (POOL_*, NLL_*, FB_*) */
};

/* the op kind of a row, -1 for none */
static int32_t kind_of(const aten_def *d) { return d->op - 1; }

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

/* PyTorch's type promotion (torch.result_type; "Type promotion" in the
 * torch.Tensor docs, https://pytorch.org/docs/stable/tensor_attributes.html
 * #type-promotion-doc; c10/core/ScalarType.h promoteTypes): the result type
 * of an elementwise op over operands [0, last). The category of a tensor
 * (bool < integer < floating) decides first; within floating types the
 * wider one wins, and bf16 with fp16 is fp32. Dimensioned tensors decide;
 * a zero-dim tensor counts only when its category is above theirs (an fp32
 * 0-d tensor with a bf16 tensor stays bf16; with an int64 tensor it is
 * fp32); Scalars (wrapped numbers: their type is not recorded) are left
 * out. fp8 formats promote with nothing but themselves (PyTorch refuses the
 * mix): a mix returns -1, as a result that is not floating does (the
 * caller keeps the first operand's format). */
static int32_t float_rank(int32_t dt) {
  return dt == RL_FP64 ? 4 : dt == RL_FP32 ? 3 : dt == RL_BF16 || dt == RL_FP16 ? 2 : dt == RL_FP8 ? 1 : 0;
}
static int32_t promote_float(int32_t a, int32_t b) {
  if (a < 0) return b;
  if (b < 0 || a == b) return a;
  if (a == RL_FP8 || b == RL_FP8) return -2; /* no implicit promotion with fp8 */
  if (float_rank(a) == 2 && float_rank(b) == 2) return RL_FP32; /* bf16 with fp16 */
  return float_rank(a) >= float_rank(b) ? a : b;
}
static int32_t result_type(const rli_aten_args *a, int last) {
  int32_t dimf = -1, zerof = -1;
  int dimcat = -1; /* the highest category of the dimensioned tensors: 0 bool, 1 integer, 2 floating */
  for (int i = 0; i < a->n_in && i < last && i < a->n_types; i++) {
    if (a->ndim[i] < 0) continue;
    int32_t dt = rli_torch_dtype(a->types[i]);
    double b = rli_torch_type_bytes(a->types[i]);
    int cat = dt >= 0 ? 2 : b > 0 ? (strcmp(a->types[i], "bool") == 0 || strcmp(a->types[i], "Bool") == 0 ? 0 : 1) : -1;
    if (cat < 0) continue; /* a Scalar, or a type not known */
    if (a->ndim[i] > 0) {
      if (cat > dimcat) dimcat = cat;
      if (cat == 2) dimf = promote_float(dimf, dt);
    } else if (cat == 2) {
      zerof = promote_float(zerof, dt);
    }
    if (dimf == -2 || zerof == -2) return -1;
  }
  if (dimf >= 0) return dimf;
  if (dimcat < 2 && zerof >= 0) return zerof;
  return -1;
}

/* concrete list element `which` of input i; a one-element list broadcasts */
static double cval(const rli_aten_args *a, int i, int which) {
  double v = concrete_num(a, i, which);
  return v >= 0 || which == 0 ? v : concrete_num(a, i, 0);
}

/* -- GEMMs ------------------------------------------------------------------ */
static int h_mm(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  int o = d->operand; /* addmm: (bias, mat1, mat2) */
  if (!is_tensor(a, o, 2) || !is_tensor(a, o + 1, 2))
    return rli_why_fail(x->why, x->cap, "%s: expected two 2-D operands", x->full);
  rl_op op = rl_op_init(RL_OP_MATMUL, x->dt);
  op.m = a->dims[o][0];
  op.k = a->dims[o][1];
  op.n = a->dims[o + 1][1];
  if (a->dims[o + 1][0] != op.k) return rli_why_fail(x->why, x->cap, "%s: inner dimensions differ", x->full);
  if (o && is_tensor(a, 0, -1)) op.flags |= RL_OP_BIAS;
  return from_op(&op, x->c, x->why, x->cap);
}

static int h_bmm(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  int o = d->operand; /* baddbmm: (self, batch1, batch2) */
  if (!is_tensor(a, o, 3) || !is_tensor(a, o + 1, 3))
    return rli_why_fail(x->why, x->cap, "%s: expected two 3-D operands", x->full);
  rl_op op = rl_op_init(RL_OP_MATMUL, x->dt);
  op.batch = a->dims[o][0];
  op.m = a->dims[o][1];
  op.k = a->dims[o][2];
  op.n = a->dims[o + 1][2];
  if (a->dims[o + 1][1] != op.k) return rli_why_fail(x->why, x->cap, "%s: inner dimensions differ", x->full);
  if (o) op.flags |= RL_OP_BIAS;
  return from_op(&op, x->c, x->why, x->cap);
}

static int h_matmul(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  if (!is_tensor(a, 0, -1) || !is_tensor(a, 1, -1) || a->ndim[0] < 2 || a->ndim[1] < 2)
    return rli_why_fail(x->why, x->cap, "%s: vector operands are not modelled", x->full);
  int ra = a->ndim[0], rb = a->ndim[1];
  rl_op op = rl_op_init(RL_OP_MATMUL, x->dt);
  op.k = a->dims[0][ra - 1];
  op.n = a->dims[1][rb - 1];
  if (a->dims[1][rb - 2] != op.k) return rli_why_fail(x->why, x->cap, "%s: inner dimensions differ", x->full);
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
    return rli_why_fail(x->why, x->cap, "%s: expected input and 2-D weight", x->full);
  rl_op op = rl_op_init(RL_OP_LINEAR, x->dt);
  int32_t wt = type_at(a, 1);
  if (wt >= 0 && wt != x->dt) op.weight_dtype = wt;
  op.k = a->dims[0][a->ndim[0] - 1];
  op.n = a->dims[1][0];
  if (a->dims[1][1] != op.k) return rli_why_fail(x->why, x->cap, "%s: weight does not match the input", x->full);
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
 * Argument positions (native_functions.yaml), in the table as .stride,
 * .padding, .groups, and these by name:
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
    return rli_why_fail(x->why, x->cap, "%s: expected a 3-D to 5-D input and a weight of the same rank",
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
      return rli_why_fail(x->why, x->cap, "%s: weight channels do not match the input", x->full);
  } else {
    q->cout = a->dims[w_i][0];
    if (a->dims[w_i][1] * g != q->cin)
      return rli_why_fail(x->why, x->cap, "%s: weight channels do not match the input", x->full);
  }
  return 1;
}

static int h_conv(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  const char *b = x->base;
  int tr_at = -1, op_at = -1, dil_at = -1, transposed = 0, bias_at = 2;
  if (!strcmp(b, "convolution") || !strcmp(b, "_convolution")) { dil_at = 5; tr_at = 6; op_at = 7; }
  else if (RLI_STARTS(b, "conv_transpose")) { transposed = 1; op_at = 5; dil_at = 7; }
  else if (!strcmp(b, "cudnn_convolution_transpose")) { transposed = 1; op_at = 3; dil_at = 5; bias_at = -1; }
  else if (!strcmp(b, "cudnn_convolution")) { dil_at = 4; bias_at = -1; }
  else if (RLI_STARTS(b, "conv")) dil_at = 5;
  else dil_at = 5; /* mkldnn / miopen: (self, weight, bias, padding, stride, dilation, groups) */
  if (tr_at >= 0) {
    int t = concrete_bool(a, tr_at);
    if (t < 0 && a->n_concrete > 0)
      return rli_why_fail(x->why, x->cap, "%s: transposed flag not recorded", x->full);
    transposed = t == 1;
  }
  double g = concrete_num(a, d->groups, 0);
  if (cval(a, d->stride, 0) <= 0 || cval(a, d->padding, 0) < 0 || g <= 0)
    return rli_why_fail(x->why, x->cap, "%s: stride, padding or groups not recorded (Concrete Inputs)",
                x->full);
  conv_geo q;
  if (!conv_shapes(x, 0, 1, transposed, g, &q)) return 0;
  /* ops.c's conv2d: 2-D, one stride, one padding, no dilation, no size 0 */
  int plain = q.r == 2 && !transposed && q.N >= 1 && q.cin >= 1 && q.cout >= 1 &&
              q.in[0] >= 1 && q.in[1] >= 1 && q.k[0] >= 1 && q.k[1] >= 1;
  double st0 = cval(a, d->stride, 0), pd0 = cval(a, d->padding, 0);
  for (int j = 0; j < q.r; j++) {
    double st = cval(a, d->stride, j), pd = cval(a, d->padding, j);
    double dl = dil_at >= 0 && cval(a, dil_at, j) > 0 ? cval(a, dil_at, j) : 1;
    double opd = op_at >= 0 && cval(a, op_at, j) > 0 ? cval(a, op_at, j) : 0;
    if (!(st > 0) || pd < 0)
      return rli_why_fail(x->why, x->cap, "%s: stride or padding not recorded for every dimension", x->full);
    q.out[j] = transposed ? (q.in[j] - 1) * st - 2 * pd + dl * (q.k[j] - 1) + opd + 1
                          : floor((q.in[j] + 2 * pd - dl * (q.k[j] - 1) - 1) / st) + 1;
    if (!(q.out[j] >= 1))
      return rli_why_fail(x->why, x->cap, "%s: the recorded sizes give no output", x->full);
    if (dl != 1 || st != st0 || pd != pd0) plain = 0;
  }
  double wn = numel(a, 1), bias = bias_at >= 0 && is_tensor(a, bias_at, 1) ? q.cout : 0;
  /* a 2-D convolution that ops.c's conv2d describes (formats included: its
   * input and output in the op's, the weight and bias in one) is costed by
   * that formula; the N-d one below is its generalization */
  int32_t wt = type_at(a, 1);
  double sw = wt >= 0 ? rl_dtype_bytes(wt) : x->s;
  if (kind_of(d) == RL_OP_CONV2D && plain && tb(x, 0) == x->s && tb(x, 1) == sw &&
      (bias == 0 || tb(x, bias_at) == sw)) {
    rl_op op = rl_op_init(RL_OP_CONV2D, x->dt);
    if (wt >= 0 && wt != x->dt) op.weight_dtype = wt;
    op.batch = q.N;
    op.c_in = q.cin;
    op.c_out = q.cout;
    op.h = q.in[0];
    op.w = q.in[1];
    op.kh = q.k[0];
    op.kw = q.k[1];
    op.stride = st0;
    op.pad = pd0;
    op.groups = g;
    if (bias > 0) op.flags |= RL_OP_BIAS;
    return from_op(&op, x->c, x->why, x->cap);
  }
  double macs = conv_macs(&q), outn = q.N * q.cout * prod3(q.out, q.r);
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
  *tr = RLI_STARTS(b, "conv_transpose") || !strcmp(b, "cudnn_convolution_transpose");
  return RLI_STARTS(b, "conv1d") || RLI_STARTS(b, "conv2d") || RLI_STARTS(b, "conv3d") ||
         *tr || !strcmp(b, "convolution") || !strcmp(b, "_convolution") ||
         !strcmp(b, "cudnn_convolution") || !strcmp(b, "mkldnn_convolution") ||
         !strcmp(b, "miopen_convolution");
}

int rli_aten_conv_needs_output(const char *full, const rli_aten_args *a) {
  int tr;
  if (!a->has_dims || !conv_fwd_layout(full, &tr) || tr) return 0;
  if (!is_tensor(a, 0, -1) || a->ndim[0] < 3 || a->ndim[0] > 5 || !is_tensor(a, 1, a->ndim[0]))
    return 0;
  /* stride or padding recorded (arguments 3 and 4 in every spelling):
   * the ordinary model applies; Concrete Inputs of empty strings (PyTorch
   * 1.13 records no int lists) are no record */
  for (int i = 3; i < 5 && i < a->n_concrete; i++)
    if (cval(a, i, 0) >= 0) return 0;
  return a->ndim[0] - 2;
}

int rli_aten_conv_inferred(const char *full, const rli_aten_args *a, const double *go, int nd,
                           rli_cost *c, char *why, size_t cap) {
  rli_cost_init(c, RL_REASON_SHAPES);
  int r = rli_aten_conv_needs_output(full, a);
  if (!r || nd != r + 2) return rli_why_fail(why, cap, "%s: no convolution to infer", full);
  int32_t dt = type_at(a, 0);
  if (dt < 0) {
    c->reason = RL_REASON_NO_ROOF;
    return rli_why_fail(why, cap, "%s: no floating-point roof for this type", full);
  }
  double g = a->dims[1][1] > 0 ? a->dims[0][1] / a->dims[1][1] : 0;
  if (!(g >= 1) || g != floor(g) || go[0] != a->dims[0][0] || go[1] != a->dims[1][0])
    return rli_why_fail(why, cap, "%s: the backward's grad_output does not match it", full);
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
      return rli_why_fail(x->why, x->cap, "%s: groups not recorded (Concrete Inputs)", x->full);
    conv_geo q;
    if (!conv_shapes(x, 1, 2, t == 1, g, &q)) return 0;
    if (!is_tensor(a, 0, q.r + 2)) return rli_why_fail(x->why, x->cap, "%s: grad_output of another rank", x->full);
    for (int j = 0; j < q.r; j++) q.out[j] = a->dims[0][2 + j];
    if ((t == 1 ? a->dims[0][1] != q.cout : a->dims[0][1] != q.cout) || a->dims[0][0] != q.N)
      return rli_why_fail(x->why, x->cap, "%s: grad_output does not match the weight", x->full);
    int m = mask3(a, 10);
    if (m < 0) m = 3; /* not recorded: input and weight gradients */
    double macs = conv_macs(&q), go = numel(a, 0), in = numel(a, 1), w = numel(a, 2);
    double F = 0, Q = 0, s = x->s;
    if (m & 1) { F += 2 * macs; Q += s * (go + w + in); }
    if (m & 2) { F += 2 * macs; Q += s * (go + in + w); }
    if (m & 4) { F += go; Q += s * (go + q.cout); }
    if (!m) return rli_why_fail(x->why, x->cap, "%s: no gradient asked for (output_mask)", x->full);
    return kernel_cost(x, F, Q, (m & 3) != 0);
  }
  /* the 2021 pair: grad_output at 1, weight (input) or input (weight) at 2 */
  int data = strstr(b, "_input") != NULL;
  if (!is_tensor(a, 1, -1) || !is_tensor(a, 2, a->ndim[1]) || a->ndim[1] < 3 || a->ndim[1] > 5)
    return rli_why_fail(x->why, x->cap, "%s: expected grad_output and a %s of its rank", x->full,
                data ? "weight" : "input");
  int r = a->ndim[1] - 2;
  double sz[5], n = 1;
  /* the size: an int list in Concrete Inputs (PyTorch 1.11+), or (1.8-1.10,
   * recorded as an empty list) the shape of the tensor it sizes, which the
   * reader takes from the enclosing cudnn_convolution_backward */
  int shaped = a->ndim[0] == r + 2;
  for (int j = 0; j < r + 2; j++) {
    sz[j] = shaped ? a->dims[0][j] : concrete_num(a, 0, j);
    if (!(sz[j] >= 1))
      return rli_why_fail(x->why, x->cap, "%s: the %s size not recorded (not in Concrete Inputs, and no enclosing "
                  "aten::cudnn_convolution_backward on its thread holds it)", x->full,
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
 * .operand = the input, .weight = the weight, .flag = the training flag
 * (NO_ARG: the op says).
 */
static int h_bn(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  if (!is_tensor(a, d->operand, -1) || a->ndim[d->operand] < 2)
    return rli_why_fail(x->why, x->cap, "%s: expected an input [N, C, ...]", x->full);
  double n = numel(a, d->operand), C = a->dims[d->operand][1];
  int train = d->flag >= 0 ? concrete_bool(a, d->flag) != 0 : 0;
  double f = d->f > 0 ? d->f : train ? 8 : 4;
  double sw = is_tensor(a, d->weight, 1) ? tb(x, d->weight) : x->s;
  double Q = x->s * n * (d->f >= 9 ? 3 : 2) + sw * C * (d->f >= 9 ? 4 : train ? 6 : 4);
  return kernel_cost(x, f * n, Q, 0);
}

/* native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd,
 * weight, bias, output_mask); native_group_norm(input, weight, bias, N, C,
 * HxW, group, eps) and its backward(grad_out, input, mean, rstd, weight, N,
 * C, HxW, group, output_mask): per element f = d->f, Q = k ns + 3 (or 2)
 * parameters of .weight's size */
static int h_norm_rows(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  if (!is_tensor(a, d->operand, -1)) return rli_why_fail(x->why, x->cap, "%s: no input shape", x->full);
  double n = numel(a, d->operand);
  double p = is_tensor(a, d->weight, -1) ? numel(a, d->weight) : 0;
  int bwd = d->f >= 9;
  double Q = x->s * n * (bwd ? 3 : 2) + (p > 0 ? tb(x, d->weight) * p * (bwd ? 3 : 2) : 0);
  return kernel_cost(x, d->f * n, Q, 0);
}

static int h_rows(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  const char *b = x->base;
  if (!is_tensor(a, 0, -1)) return rli_why_fail(x->why, x->cap, "%s: no input shape", x->full);
  int32_t kind = kind_of(d);
  rl_op op = rl_op_init(kind, x->dt);
  double cols = a->dims[0][a->ndim[0] - 1];
  /* the weight (layer_norm: argument 2; rms_norm: argument 2) gives the
   * normalized size */
  if (kind != RL_OP_SOFTMAX && is_tensor(a, 2, -1)) cols = numel(a, 2);
  (void)b;
  if (!(cols > 0)) return rli_why_fail(x->why, x->cap, "%s: empty input", x->full);
  op.n = cols;
  op.m = numel(a, 0) / cols;
  if (op.m != floor(op.m))
    return rli_why_fail(x->why, x->cap, "%s: normalized shape does not divide the input", x->full);
  return from_op(&op, x->c, x->why, x->cap);
}

/* -- elementwise ------------------------------------------------------------------
 * Activations (relu, gelu, silu) and add, sub (rsub), mul, div through ops.c's
 * kinds (rl_op_cost: F = n, Q = 3ns for two full operands); the rest as F = f n,
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
  if (!(e > 0)) return rli_why_fail(x->why, x->cap, "%s: no input shape", x->full);
  int32_t kind = kind_of(d);
  /* gelu's approximate argument: "none" (erf, the default) or "tanh" */
  if (kind == RL_OP_GELU_ERF && x->a->n_concrete > 1 && strstr(x->a->concrete[1], "tanh"))
    kind = RL_OP_GELU_TANH;
  rl_op op = rl_op_init(kind, x->dt);
  op.n = e;
  return from_op(&op, x->c, x->why, x->cap);
}

/* n-ary elementwise: F per output element from the row's op kind (add,
 * sub, mul, div: ops.c's formula, through rl_op_cost) or its f; Q from the
 * op kind's formula when its operands are two tensors of the output's size
 * and format (Q = 3ns), else each operand at its own size and type + the
 * output (the same ideal-traffic rule: a broadcast operand read once, a
 * Scalar not from memory). bool_out: the output is a bool; tensors: the
 * leading arguments that are operands (0: all); mask: it writes a bool mask
 * too (native_dropout). */
static int h_elt(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  double nout = 0, q = 0;
  int tensors = 0, full = 0, last = d->tensors > 0 ? d->tensors : a->n_in;
  for (int i = 0; i < a->n_in && i < last; i++) {
    double e = numel(a, i);
    /* a Scalar; a 0-d tensor (dims [], a tensor type: a step counter) is one element */
    if (e < 0 || (a->ndim[i] == 0 && !(i < a->n_types && rli_torch_type_bytes(a->types[i]) > 0)))
      continue;
    q += distinct(a, i) * tb(x, i);
    if (e > nout) nout = e;
    tensors++;
  }
  if (!tensors || !(nout > 0)) return rli_why_fail(x->why, x->cap, "%s: no tensor operand", x->full);
  q += nout * (d->bool_out ? 1 : x->s);
  if (d->mask) q += nout; /* native_dropout: the mask it writes */
  if (kind_of(d) < 0) return kernel_cost(x, d->f * nout, q, 0);
  for (int i = 0; i < a->n_in && i < last; i++)
    full += distinct(a, i) == nout && a->ndim[i] > 0 && type_at(a, i) == x->dt;
  rl_op op = rl_op_init(kind_of(d), x->dt);
  op.n = nout;
  rli_cost oc;
  if (!from_op(&op, &oc, x->why, x->cap)) return 0;
  return kernel_cost(x, oc.flops, tensors == 2 && full == 2 && !d->bool_out && !d->mask ? oc.bytes : q,
                     0);
}

/* FLOPs per element of an elementwise or reduction row: its op kind's
 * formula for one element (ops.c, through rl_op_cost), else its f */
static double per_elem(const aten_def *d) {
  if (kind_of(d) < 0) return d->f;
  rl_op op = rl_op_init(kind_of(d), RL_FP32);
  op.n = 1;
  rl_cost rc;
  rl_error e;
  return rl_op_cost(&op, &rc, &e) == RL_OK ? rc.flops : (double)NAN;
}

/* writes only: fill_, zero_, the *_like factories: Q = n s, F = 0 */
static int h_fill(const aten_ctx *x, const aten_def *d) {
  (void)d;
  double e = ne(x, 0);
  if (!(e > 0)) return rli_why_fail(x->why, x->cap, "%s: no tensor shape", x->full);
  return kernel_cost(x, 0, e * tb(x, 0), 0);
}

/* reductions (sum, mean, amax, norm, var ...): F = f n, Q = n s: the input
 * read once; the output (far smaller, its dims not always recorded) is not
 * counted */
static int h_reduce(const aten_ctx *x, const aten_def *d) {
  double e = ne(x, 0);
  if (!(e > 0)) return rli_why_fail(x->why, x->cap, "%s: no input shape", x->full);
  return kernel_cost(x, d->f * e, distinct(x->a, 0) * tb(x, 0), 0);
}

/* -- data movement -------------------------------------------------------------- */
static int h_copy(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  double e = numel(a, 0);
  if (!(e > 0)) return rli_why_fail(x->why, x->cap, "%s: no destination shape", x->full);
  rl_op op = rl_op_init(RL_OP_COPY, x->dt);
  int32_t st = type_at(a, 1);
  if (st < 0 && a->n_types > 1 && a->ndim[1] > 0) {
    /* integer source: bytes still move, F = 0 */
    double ib = rli_torch_type_bytes(a->types[1]);
    if (ib > 0) return kernel_cost(x, 0, e * x->s + distinct(a, 1) * ib, 0);
  }
  if (st >= 0 && st != x->dt) op.weight_dtype = st;
  op.n = e;
  double src = distinct(a, 1);
  if (src >= 0 && src < numel(a, 1)) /* an expanded source: its elements read once */
    return kernel_cost(x, 0, e * x->s + src * tb(x, 1), 0);
  return from_op(&op, x->c, x->why, x->cap);
}

/* clone, contiguous, _to_copy(self, dtype, ...): read and write n; the
 * target type of _to_copy from its dtype code when recorded (c10's
 * ScalarType numbering: 5 Half, 6 Float, 7 Double, 15 BFloat16, ...) */
/* bytes of an element of c10's ScalarType code (c10/core/ScalarType.h: 0
 * Byte, 1 Char, 2 Short, 3 Int, 4 Long, 5 Half, 6 Float, 7 Double, 8
 * ComplexHalf, 9 ComplexFloat, 10 ComplexDouble, 11 Bool, 15 BFloat16), as
 * a dtype argument records it in Concrete Inputs; 0 when not recorded or
 * another code */
static double code_bytes(const rli_aten_args *a, int i) {
  static const double bytes[] = {1, 1, 2, 4, 8, 2, 4, 8, 4, 8, 16, 1, 0, 0, 0, 2};
  if (i >= a->n_concrete || !a->concrete[i][0]) return 0;
  char *end;
  double c = strtod(a->concrete[i], &end);
  if (*end || !(c >= 0 && c < 16) || c != floor(c)) return 0;
  return bytes[(int)c];
}

static int h_clone(const aten_ctx *x, const aten_def *d) {
  (void)d;
  double e = ne(x, 0);
  if (!(e > 0)) return rli_why_fail(x->why, x->cap, "%s: no input shape", x->full);
  double so = tb(x, 0);
  if (!strcmp(x->base, "_to_copy") && code_bytes(x->a, 1) > 0) so = code_bytes(x->a, 1);
  return kernel_cost(x, 0, distinct(x->a, 0) * tb(x, 0) + e * so, 0);
}

/* cumsum / cumprod(self, dim, dtype) (native_functions.yaml): F = n (one
 * add or multiply per element), Q = self read once (its distinct elements)
 * + the output written: n elements of the dtype argument's type when it is
 * recorded, else of self's (an integer self's output is int64, never
 * smaller: a lower bound) */
static int h_scan(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  if (!is_tensor(a, 0, -1)) return rli_why_fail(x->why, x->cap, "%s: no input shape", x->full);
  double e = numel(a, 0), so = code_bytes(a, 2) > 0 ? code_bytes(a, 2) : tb(x, 0);
  return kernel_cost(x, d->f * e, distinct(a, 0) * tb(x, 0) + e * so, 0);
}

/* a Concrete Input that is a whole number: 1 with *v */
static int concrete_value(const rli_aten_args *a, int i, double *v) {
  if (i >= a->n_concrete || !a->concrete[i][0]) return 0;
  char *end;
  *v = strtod(a->concrete[i], &end);
  return !*end && isfinite(*v);
}

/* upsample_nearest{1,2,3}d and _upsample_nearest_exact{1,2,3}d(self [N, C,
 * spatial...], output_size, scales...) (native_functions.yaml; the .vec
 * overload: (input, output_size?, scale_factors?)): a gather, F = 0; every
 * input element read once and every output element written once, Q = in +
 * out at self's size. The output's spatial sizes from output_size when
 * recorded, else floor(in x scale) from scale_factors (PyTorch's
 * upsample compute_output_size) */
static int h_upsample(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  int r = is_tensor(a, 0, -1) ? a->ndim[0] - 2 : 0;
  if (r < 1 || r > 3) return rli_why_fail(x->why, x->cap, "%s: expected an input [N, C, 1 to 3 sizes]", x->full);
  double out = a->dims[0][0] * a->dims[0][1];
  int sized = concrete_num(a, 1, r - 1) >= 0;
  for (int k = 0; k < r; k++) {
    double o = sized ? concrete_num(a, 1, k) : floor(a->dims[0][2 + k] * concrete_num(a, 2, k));
    if (!sized && !(concrete_num(a, 2, r - 1) > 0))
      return rli_why_fail(x->why, x->cap, "%s: neither output_size nor scale_factors recorded", x->full);
    if (!(o >= 1 && o <= 1e9)) return rli_why_fail(x->why, x->cap, "%s: an output size of %g", x->full, o);
    out *= o;
  }
  return kernel_cost(x, 0, distinct(a, 0) * tb(x, 0) + out * tb(x, 0), 0);
}

/* arange's overloads (native_functions.yaml), told apart by their count of
 * arguments: arange(end, dtype, layout, device, pin_memory) 5,
 * arange.start(start, end, dtype, ...) 6, arange.start_step(start, end,
 * step, dtype, ...) 7, arange.start_out(start, end, step, out) 4. It writes
 * ceil((end - start) / step) elements and reads nothing: Q = n x the
 * element size (the out tensor's type; else the dtype code recorded; else
 * int64 when start, end and step are whole numbers, float32 otherwise:
 * torch.arange's inference), F = 0. Its bounds from Concrete Inputs
 * (PyTorch 2.x) */
static int h_arange(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  int n_in = a->n_in, start = n_in != 5, has_step = n_in == 7 || n_in == 4;
  int dti = n_in == 5 ? 1 : n_in == 6 ? 2 : 3;
  if (n_in < 4 || n_in > 7)
    return rli_why_fail(x->why, x->cap, "%s: %d arguments: none of arange's overloads", x->full, n_in);
  double lo = 0, hi, step = 1, es = 0;
  if (!(start ? concrete_value(a, 0, &lo) && concrete_value(a, 1, &hi) : concrete_value(a, 0, &hi)))
    return rli_why_fail(x->why, x->cap, "%s: its bounds not recorded (Concrete Inputs)", x->full);
  if (has_step && a->concrete[2][0] && !concrete_value(a, 2, &step))
    return rli_why_fail(x->why, x->cap, "%s: a step that is not a number", x->full);
  if (n_in == 4 && a->ndim[3] >= 1 && a->n_types > 3) es = rli_torch_type_bytes(a->types[3]);
  if (!(es > 0)) es = code_bytes(a, dti);
  if (!(es > 0)) es = lo == floor(lo) && hi == floor(hi) && step == floor(step) ? 8 : 4;
  double n = step != 0 ? ceil((hi - lo) / step) : -1;
  if (!(n >= 1 && n <= 1e15))
    return rli_why_fail(x->why, x->cap, "%s: %g to %g by %g: not a size", x->full, lo, hi, step);
  return kernel_cost(x, 0, n * es, 0);
}

static int h_embedding(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  if (!is_tensor(a, 0, 2) || !is_tensor(a, 1, -1))
    return rli_why_fail(x->why, x->cap, "%s: expected weight and indices", x->full);
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
    return rli_why_fail(x->why, x->cap, "%s: grad_output, indices or num_weights not recorded", x->full);
  double go = numel(a, 0), D = a->dims[0][a->ndim[0] - 1];
  return kernel_cost(x, go, x->s * go + tb(x, 1) * numel(a, 1) + x->s * V * D, 0);
}

/* gather(self, dim, index) reads index (its distinct elements: an
 * expanded index once per row, distinct() above) and the gathered values, writes
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
    if (!(n > 0)) return rli_why_fail(x->why, x->cap, "%s: no index shape", x->full);
    return kernel_cost(x, 0, n * 2 * s + distinct(a, 2) * tb(x, 2), 0);
  }
  if (!strcmp(b, "index_select")) {
    double dim = concrete_num(a, 1, 0), n = numel(a, 2);
    if (!is_tensor(a, 0, -1) || !(n >= 0)) return rli_why_fail(x->why, x->cap, "%s: no shapes", x->full);
    if (dim < 0) dim += a->ndim[0];
    if (!(dim >= 0 && dim < a->ndim[0]))
      return rli_why_fail(x->why, x->cap, "%s: dim not recorded (Concrete Inputs)", x->full);
    double out = numel(a, 0) / a->dims[0][(int)dim] * n;
    return kernel_cost(x, 0, 2 * out * s + n * tb(x, 2), 0);
  }
  if (!strcmp(b, "index_copy") || !strcmp(b, "index_add")) {
    double n = numel(a, 3), k = numel(a, 2);
    if (!(n > 0) || !(k > 0)) return rli_why_fail(x->why, x->cap, "%s: no index or source shape", x->full);
    int add = b[6] == 'a';
    return kernel_cost(x, add ? n : 0, n * (add ? 3 : 2) * s + k * tb(x, 2), 0);
  }
  if (RLI_STARTS(b, "scatter")) {
    double n = numel(a, 3) > 0 ? numel(a, 3) : numel(a, 2);
    if (!(n > 0)) return rli_why_fail(x->why, x->cap, "%s: no index shape", x->full);
    int add = strstr(b, "add") != NULL || strstr(b, "reduce") != NULL;
    return kernel_cost(x, add ? n : 0, n * (add ? 3 : 2) * s + distinct(a, 2) * tb(x, 2), 0);
  }
  /* index_put_(self, indices, values, accumulate) */
  double n = numel(a, 2);
  if (!(n > 0)) return rli_why_fail(x->why, x->cap, "%s: no values shape", x->full);
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
  if (d->variant == FB_PERMUTE) { /* permute_{1D,2D}_sparse_data */
    if (!is_tensor(a, 0, 1) || !is_tensor(a, 1, -1) || !is_tensor(a, 2, 1))
      return rli_why_fail(x->why, x->cap, "%s: expected permute, lengths and indices", x->full);
    double w = is_tensor(a, 3, 1) ? numel(a, 3) * tb(x, 3) : 0;
    return kernel_cost(x, 0, in_bytes(x, 0, 1) + 2 * (in_bytes(x, 1, 3) + w), 0);
  }
  if (d->variant == FB_CUMSUM) {
    double n = numel(a, 0);
    if (!is_tensor(a, 0, 1)) return rli_why_fail(x->why, x->cap, "%s: expected a 1-D tensor", x->full);
    return kernel_cost(x, 0, tb(x, 0) * (2 * n + (strstr(b, "complete") ? 1 : 0)), 0);
  }
  if (d->variant == FB_BOUNDS) {
    if (!is_tensor(a, 1, 1) || !is_tensor(a, 2, 1))
      return rli_why_fail(x->why, x->cap, "%s: expected indices and offsets", x->full);
    return kernel_cost(x, 0, in_bytes(x, 0, a->n_in), 0);
  }
  if (d->variant >= FB_TO_FP8 && d->variant <= FB_FROM_HFP8) { /* the quantize ops */
    double n = numel(a, 0);
    if (!is_tensor(a, 0, -1) || !(n >= 0)) return rli_why_fail(x->why, x->cap, "%s: no input shape", x->full);
    double cols = a->dims[0][a->ndim[0] - 1], rows = cols > 0 ? n / cols : 0;
    double c4 = ceil(cols / 4) * 4, in = n * tb(x, 0);
    if (d->variant == FB_TO_FP8) return kernel_cost(x, 0, in + rows * (c4 + 8), 0);
    if (d->variant == FB_TO_HFP8) return kernel_cost(x, 0, in + n, 0);
    if (d->variant == FB_FROM_HFP8) return kernel_cost(x, 0, in + 4 * n, 0);
    double ob = 4;
    if (a->n_in >= 3) {
      double sd = concrete_num(a, 2, 0);
      ob = sd == 0 ? 4 : sd == 1 || sd == 5 ? 2 : 0;
      if (!(ob > 0)) return rli_why_fail(x->why, x->cap, "%s: output_dtype not recorded (Concrete Inputs)", x->full);
    }
    if (!(c4 > 8)) return rli_why_fail(x->why, x->cap, "%s: rows of %g bytes hold no values", x->full, cols);
    return kernel_cost(x, 0, in + rows * (c4 - 8) * ob, 0);
  }
  /* permute_pooled_embs and its backward */
  if (!is_tensor(a, 0, 2)) return rli_why_fail(x->why, x->cap, "%s: expected pooled embeddings [B, D]", x->full);
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
  int maxp = d->variant == POOL_MAX;
  if (!is_tensor(a, 0, -1) || a->ndim[0] < 3)
    return rli_why_fail(x->why, x->cap, "%s: expected an input [N, C, ...]", x->full);
  int nd = a->ndim[0];
  int r = RLI_STARTS(x->base + (maxp ? RLI_LEN("max_pool") : RLI_LEN("avg_pool")), "1d") ? 1 : strstr(x->base, "3d") ? 3 : 2;
  if (r > nd - 1) return rli_why_fail(x->why, x->cap, "%s: input of too small a rank", x->full);
  double out = numel(a, 0), win = 1;
  int ceil_at = maxp ? 5 : 4;
  for (int j = 0; j < r; j++) {
    double i = a->dims[0][nd - r + j], k = cval(a, 1, j);
    double st = cval(a, 2, j), pd = cval(a, 3, j);
    double dl = maxp && cval(a, 4, j) > 0 ? cval(a, 4, j) : 1;
    if (!(k >= 1)) return rli_why_fail(x->why, x->cap, "%s: kernel size not recorded (Concrete Inputs)", x->full);
    if (!(st >= 1)) st = k;
    if (pd < 0) pd = 0;
    double v = (i + 2 * pd - dl * (k - 1) - 1) / st;
    double o = (concrete_bool(a, ceil_at) == 1 ? ceil(v) : floor(v)) + 1;
    if (!(o >= 1)) return rli_why_fail(x->why, x->cap, "%s: the recorded sizes give no output", x->full);
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
  if (!(go > 0) || !(in > 0)) return rli_why_fail(x->why, x->cap, "%s: no shapes", x->full);
  double Q = x->s * (go + in) + (d->variant == POOL_MAX ? 8 * go : 0);
  return kernel_cost(x, d->variant == POOL_AVG ? in : go, Q, 0);
}

static int h_adaptive(const aten_ctx *x, const aten_def *d) {
  (void)d;
  const rli_aten_args *a = x->a;
  if (!is_tensor(a, 0, -1) || a->ndim[0] < 2) return rli_why_fail(x->why, x->cap, "%s: no input shape", x->full);
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
  int bwd = d->variant == NLL_BWD;
  int ti = bwd ? 2 : 1, si = bwd ? 1 : 0;
  double t = numel(a, ti), sn = numel(a, si);
  if (!(t > 0) || !(sn > 0)) return rli_why_fail(x->why, x->cap, "%s: no shapes", x->full);
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
 * flash-attn). .operand: query's argument, .flag: the causal flag's,
 * .layout: ATTN_BHTD, ATTN_BTHD or their backward (ATTN_*_BWD).
 * _efficient_attention's custom_mask_type
 * (0 none, 1 or 2 causal) stands for the flag.
 */
static int h_attn(const aten_ctx *x, const aten_def *d) {
  const rli_aten_args *a = x->a;
  int qi = d->operand, ki = qi + 1;
  if (!is_tensor(a, qi, 4) || !is_tensor(a, ki, 4))
    return rli_why_fail(x->why, x->cap, "%s: expected 4-D query and key", x->full);
  int bthd = d->layout == ATTN_BTHD || d->layout == ATTN_BTHD_BWD;
  int bwd = d->layout == ATTN_BTHD_BWD || d->layout == ATTN_BHTD_BWD;
  int causal = -1;
  if (d->flag >= 0) {
    causal = concrete_bool(a, d->flag);
    if (causal < 0 && strstr(x->base, "efficient_attention") && !strstr(x->base, "scaled")) {
      double m = concrete_num(a, d->flag, 0);
      causal = m < 0 ? -1 : m > 0;
    }
  }
  if (causal < 0) return rli_why_fail(x->why, x->cap, "%s: causal flag not recorded (Concrete Inputs)", x->full);
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
      return rli_why_fail(x->why, x->cap, "%s: tensor list %d has a shape with a negative or unreadable "
                                  "dimension", x->full, i);
    }
  }
  if (!nested) {
    x->c->reason = RL_REASON_LISTS;
    return rli_why_fail(x->why, x->cap, "%s: tensor lists (the profiler records no shapes or element "
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
  return rli_why_fail(x->why, x->cap, "%s: tensor list %d (%g elements) does not match the first (%g)",
              x->full, i, list_elems(a, i), N);
}

/* N, the elements of the first list, once the lists are recorded; -1 with
 * why */
static double first_list(const aten_ctx *x) {
  if (!lists_recorded(x)) return -1;
  double N = list_elems(x->a, 0);
  if (x->a->ndim[0] != RLI_ATEN_LIST || !(N > 0)) {
    rli_why_fail(x->why, x->cap, "%s: no tensors in its first list", x->full);
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
    return rli_why_fail(x->why, x->cap, "no cost model for %s", x->full);
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
  return elem_cost(x, per_elem(e) * N, reads + writes, RLI_ELEM_FLOAT);
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
  double f = RLI_ADAM_FLOPS + (ams ? 1 : 0) + (concrete_bool(a, 12) == 1 ? 1 : 0);
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

double rli_kernel_elem_type(const char *t, int32_t *dt, const char **base) {
  /* namespaces off: at::native::(anonymous namespace)::OpaqueType<4u> */
  const char *w = t;
  for (const char *q = t; *q; q++)
    if (q[0] == ':' && q[1] == ':') w = q + 2;
  if (base) *base = w;
  static const struct { const char *name; int32_t dt; double bytes; } types[] = {
      {"float", RL_FP32, 4},  {"double", RL_FP64, 8}, {"Half", RL_FP16, 2},
      {"__half", RL_FP16, 2}, {"BFloat16", RL_BF16, 2}, {"__nv_bfloat16", RL_BF16, 2},
      {"long", -1, 8},        {"long int", -1, 8},    {"int", -1, 4},
      {"short", -1, 2},       {"signed char", -1, 1}, {"unsigned char", -1, 1},
      {"bool", -1, 1}};
  *dt = -1;
  double es = 0;
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (!strcmp(w, types[i].name)) { *dt = types[i].dt; es = types[i].bytes; }
  if (RLI_STARTS(w, "OpaqueType<")) {
    char *end;
    const char *n = w + RLI_LEN("OpaqueType<");
    double v = strtod(n, &end);
    if (end != n && v >= 1 && v <= 16) es = v;
  }
  return es;
}

int rli_list_cost(const rli_cost *in, const char *kernel, rli_cost *out, char *why, size_t cap) {
  *out = *in;
  out->per_elem = RLI_ELEM_NONE;
  /* the first template argument of the functor (multi_tensor_apply's
   * BinaryOpListAlphaFunctor<float, ...>, FusedAdamMathFunctor<c10::Half,
   * ...>) or of the cat kernel (CatArrayBatchedCopy<float, ...>,
   * CatArrayBatchedCopy_aligned16_contig<OpaqueType<4>, ...>) */
  const char *p = strstr(kernel, "Functor<");
  if (p) p += RLI_LEN("Functor");
  else if ((p = strstr(kernel, "CatArrayBatchedCopy")) != NULL) p = strchr(p, '<');
  /* read whole (rli_kernel_targs): a name cut short inside the argument
   * gives no type, not the type its beginning spells */
  char t[128] = "";
  rli_targ a;
  int closed;
  if (p && rli_kernel_targs(p, &a, 1, &closed) == 1 && a.n < sizeof t) {
    memcpy(t, a.s, a.n);
    t[a.n] = 0;
  }
  int32_t dt = -1;
  const char *w = t;
  double es = rli_kernel_elem_type(t, &dt, &w);
  if (!(es > 0))
    return rli_why_fail(why, cap, "tensor lists: shapes recorded, but no element type (none in the "
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

/* Sorted by name (bsearch; test_trace checks the order, and that every
 * row has a handler with a formula and every name the op model knows an op
 * kind). */
static const aten_def table[] = {
    {.name = "_adaptive_avg_pool2d", .fn = h_adaptive},
    {.name = "_adaptive_avg_pool2d_backward", .fn = h_pool_bwd, .variant = POOL_AVG},
    {.name = "_adaptive_avg_pool3d", .fn = h_adaptive},
    {.name = "_cat", .fn = h_cat},
    {.name = "_convolution", .fn = h_conv, .op = OP(RL_OP_CONV2D), .stride = 3, .padding = 4,
     .groups = 8},
    {.name = "_efficient_attention_backward", .fn = h_attn, .op = OP(RL_OP_ATTENTION), .operand = 1,
     .flag = 14, .layout = ATTN_BTHD_BWD},
    {.name = "_efficient_attention_forward", .fn = h_attn, .op = OP(RL_OP_ATTENTION), .flag = 9,
     .layout = ATTN_BTHD},
    {.name = "_flash_attention_backward", .fn = h_attn, .op = OP(RL_OP_ATTENTION), .operand = 1,
     .flag = 11, .layout = ATTN_BTHD_BWD},
    {.name = "_flash_attention_forward", .fn = h_attn, .op = OP(RL_OP_ATTENTION), .flag = 8,
     .layout = ATTN_BTHD},
    {.name = "_fused_adam", .fn = h_adam},
    {.name = "_fused_adam_", .fn = h_adam},
    {.name = "_fused_adamw", .fn = h_adam},
    {.name = "_fused_adamw_", .fn = h_adam},
    {.name = "_fused_sgd", .fn = h_sgd},
    {.name = "_fused_sgd_", .fn = h_sgd},
    {.name = "_log_softmax", .fn = h_rows, .op = OP(RL_OP_SOFTMAX)},
    {.name = "_log_softmax_backward_data", .fn = h_elt, .f = 4, .tensors = 2},
    {.name = "_native_batch_norm_legit", .fn = h_bn, .operand = 0, .weight = 1, .flag = 5},
    {.name = "_native_batch_norm_legit_no_training", .fn = h_bn, .f = 4, .operand = 0, .weight = 1,
     .flag = NO_ARG},
    {.name = "_scaled_dot_product_cudnn_attention", .fn = h_attn, .op = OP(RL_OP_ATTENTION),
     .flag = 6, .layout = ATTN_BHTD},
    {.name = "_scaled_dot_product_cudnn_attention_backward", .fn = h_attn,
     .op = OP(RL_OP_ATTENTION), .operand = 1, .flag = 14, .layout = ATTN_BHTD_BWD},
    {.name = "_scaled_dot_product_efficient_attention", .fn = h_attn, .op = OP(RL_OP_ATTENTION),
     .flag = 6, .layout = ATTN_BHTD},
    {.name = "_scaled_dot_product_efficient_attention_backward", .fn = h_attn,
     .op = OP(RL_OP_ATTENTION), .operand = 1, .flag = 11, .layout = ATTN_BHTD_BWD},
    {.name = "_scaled_dot_product_flash_attention", .fn = h_attn, .op = OP(RL_OP_ATTENTION),
     .flag = 4, .layout = ATTN_BHTD},
    {.name = "_scaled_dot_product_flash_attention_backward", .fn = h_attn,
     .op = OP(RL_OP_ATTENTION), .operand = 1, .flag = 11, .layout = ATTN_BHTD_BWD},
    {.name = "_softmax", .fn = h_rows, .op = OP(RL_OP_SOFTMAX)},
    {.name = "_softmax_backward_data", .fn = h_elt, .f = 4, .tensors = 2},
    {.name = "_to_copy", .fn = h_clone},
    {.name = "_upsample_nearest_exact1d", .fn = h_upsample},
    {.name = "_upsample_nearest_exact2d", .fn = h_upsample},
    {.name = "_upsample_nearest_exact3d", .fn = h_upsample},
    {.name = "abs", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "adaptive_avg_pool2d", .fn = h_adaptive},
    {.name = "add", .fn = h_elt, .op = OP(RL_OP_ADD), .tensors = 2},
    {.name = "addcdiv", .fn = h_elt, .f = 3, .tensors = 3},
    {.name = "addcmul", .fn = h_elt, .f = 3, .tensors = 3},
    {.name = "addmm", .fn = h_mm, .op = OP(RL_OP_MATMUL), .operand = 1},
    {.name = "amax", .fn = h_reduce, .f = 1},
    {.name = "amin", .fn = h_reduce, .f = 1},
    {.name = "arange", .fn = h_arange},
    {.name = "argmax", .fn = h_reduce, .f = 1},
    {.name = "argmin", .fn = h_reduce, .f = 1},
    {.name = "avg_pool1d", .fn = h_pool, .variant = POOL_AVG},
    {.name = "avg_pool2d", .fn = h_pool, .variant = POOL_AVG},
    {.name = "avg_pool2d_backward", .fn = h_pool_bwd, .variant = POOL_AVG},
    {.name = "avg_pool3d", .fn = h_pool, .variant = POOL_AVG},
    {.name = "avg_pool3d_backward", .fn = h_pool_bwd, .variant = POOL_AVG},
    {.name = "baddbmm", .fn = h_bmm, .op = OP(RL_OP_MATMUL), .operand = 1},
    {.name = "batch_norm", .fn = h_bn, .operand = 0, .weight = 1, .flag = 5},
    {.name = "bmm", .fn = h_bmm, .op = OP(RL_OP_MATMUL)},
    {.name = "cat", .fn = h_cat},
    {.name = "ceil", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "clamp", .fn = h_elt, .f = 2, .tensors = 1},
    {.name = "clamp_max", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "clamp_min", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "clone", .fn = h_clone},
    {.name = "contiguous", .fn = h_clone},
    {.name = "conv1d", .fn = h_conv, .op = OP(RL_OP_CONV2D), .stride = 3, .padding = 4,
     .groups = 6},
    {.name = "conv2d", .fn = h_conv, .op = OP(RL_OP_CONV2D), .stride = 3, .padding = 4,
     .groups = 6},
    {.name = "conv3d", .fn = h_conv, .op = OP(RL_OP_CONV2D), .stride = 3, .padding = 4,
     .groups = 6},
    {.name = "conv_transpose1d", .fn = h_conv, .op = OP(RL_OP_CONV2D), .stride = 3, .padding = 4,
     .groups = 6},
    {.name = "conv_transpose2d", .fn = h_conv, .op = OP(RL_OP_CONV2D), .stride = 3, .padding = 4,
     .groups = 6},
    {.name = "conv_transpose3d", .fn = h_conv, .op = OP(RL_OP_CONV2D), .stride = 3, .padding = 4,
     .groups = 6},
    {.name = "convolution", .fn = h_conv, .op = OP(RL_OP_CONV2D), .stride = 3, .padding = 4,
     .groups = 8},
    {.name = "convolution_backward", .fn = h_conv_bwd},
    {.name = "copy", .fn = h_copy, .op = OP(RL_OP_COPY)},
    {.name = "cos", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "cudnn_batch_norm", .fn = h_bn, .operand = 0, .weight = 1, .flag = 5},
    {.name = "cudnn_batch_norm_backward", .fn = h_bn, .f = 9, .operand = 0, .weight = 2,
     .flag = NO_ARG},
    {.name = "cudnn_convolution", .fn = h_conv, .op = OP(RL_OP_CONV2D), .stride = 3, .padding = 2,
     .groups = 5},
    {.name = "cudnn_convolution_backward_input", .fn = h_conv_bwd},
    {.name = "cudnn_convolution_backward_weight", .fn = h_conv_bwd},
    {.name = "cudnn_convolution_transpose", .fn = h_conv, .op = OP(RL_OP_CONV2D), .stride = 4,
     .padding = 2, .groups = 6},
    {.name = "cumprod", .fn = h_scan, .f = 1},
    {.name = "cumsum", .fn = h_scan, .f = 1},
    {.name = "div", .fn = h_elt, .op = OP(RL_OP_DIV), .tensors = 2},
    {.name = "elu", .fn = h_elt, .f = 4, .tensors = 1},
    {.name = "elu_backward", .fn = h_elt, .f = 4, .tensors = 2},
    {.name = "embedding", .fn = h_embedding, .op = OP(RL_OP_EMBEDDING)},
    {.name = "embedding_dense_backward", .fn = h_embedding_bwd},
    {.name = "empty_like", .fn = h_fill},
    {.name = "eq", .fn = h_elt, .f = 1, .bool_out = 1, .tensors = 2},
    {.name = "erf", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "exp", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "exp2", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "expm1", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "fbgemm::FP8RowwiseQuantizedToFloat", .fn = h_fbgemm, .variant = FB_FROM_FP8},
    {.name = "fbgemm::FloatToFP8RowwiseQuantized", .fn = h_fbgemm, .variant = FB_TO_FP8},
    {.name = "fbgemm::FloatToHFP8Quantized", .fn = h_fbgemm, .variant = FB_TO_HFP8},
    {.name = "fbgemm::HFP8QuantizedToFloat", .fn = h_fbgemm, .variant = FB_FROM_HFP8},
    {.name = "fbgemm::asynchronous_complete_cumsum", .fn = h_fbgemm, .variant = FB_CUMSUM},
    {.name = "fbgemm::asynchronous_exclusive_cumsum", .fn = h_fbgemm, .variant = FB_CUMSUM},
    {.name = "fbgemm::asynchronous_inclusive_cumsum", .fn = h_fbgemm, .variant = FB_CUMSUM},
    {.name = "fbgemm::bounds_check_indices", .fn = h_fbgemm, .variant = FB_BOUNDS},
    {.name = "fbgemm::permute_1D_sparse_data", .fn = h_fbgemm, .variant = FB_PERMUTE},
    {.name = "fbgemm::permute_2D_sparse_data", .fn = h_fbgemm, .variant = FB_PERMUTE},
    {.name = "fbgemm::permute_pooled_embs", .fn = h_fbgemm, .variant = FB_POOLED},
    {.name = "fbgemm::permute_pooled_embs_auto_grad", .fn = h_fbgemm, .variant = FB_POOLED},
    {.name = "fill", .fn = h_fill},
    {.name = "floor", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "full_like", .fn = h_fill},
    {.name = "gather", .fn = h_index},
    {.name = "ge", .fn = h_elt, .f = 1, .bool_out = 1, .tensors = 2},
    {.name = "gelu", .fn = h_act, .op = OP(RL_OP_GELU_ERF)},
    {.name = "gelu_backward", .fn = h_elt, .f = 8, .tensors = 2},
    {.name = "gt", .fn = h_elt, .f = 1, .bool_out = 1, .tensors = 2},
    {.name = "hardsigmoid", .fn = h_elt, .f = 4, .tensors = 1},
    {.name = "hardsigmoid_backward", .fn = h_elt, .f = 2, .tensors = 2},
    {.name = "hardswish", .fn = h_elt, .f = 5, .tensors = 1},
    {.name = "hardswish_backward", .fn = h_elt, .f = 4, .tensors = 2},
    {.name = "hardtanh", .fn = h_elt, .f = 2, .tensors = 1},
    {.name = "hardtanh_backward", .fn = h_elt, .f = 2, .tensors = 2},
    {.name = "index_add", .fn = h_index},
    {.name = "index_copy", .fn = h_index},
    {.name = "index_put", .fn = h_index},
    {.name = "index_select", .fn = h_index},
    {.name = "layer_norm", .fn = h_rows, .op = OP(RL_OP_LAYERNORM)},
    {.name = "le", .fn = h_elt, .f = 1, .bool_out = 1, .tensors = 2},
    {.name = "leaky_relu", .fn = h_elt, .f = 2, .tensors = 1},
    {.name = "leaky_relu_backward", .fn = h_elt, .f = 2, .tensors = 2},
    {.name = "lerp", .fn = h_elt, .f = 3, .tensors = 3},
    {.name = "linalg_vector_norm", .fn = h_reduce, .f = 2},
    {.name = "linear", .fn = h_linear, .op = OP(RL_OP_LINEAR)},
    {.name = "log", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "log10", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "log1p", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "log2", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "log_softmax", .fn = h_rows, .op = OP(RL_OP_SOFTMAX)},
    {.name = "logical_and", .fn = h_elt, .f = 1, .bool_out = 1, .tensors = 2},
    {.name = "logical_not", .fn = h_elt, .f = 1, .bool_out = 1, .tensors = 1},
    {.name = "logical_or", .fn = h_elt, .f = 1, .bool_out = 1, .tensors = 2},
    {.name = "logical_xor", .fn = h_elt, .f = 1, .bool_out = 1, .tensors = 2},
    {.name = "logsumexp", .fn = h_reduce, .f = 3},
    {.name = "lt", .fn = h_elt, .f = 1, .bool_out = 1, .tensors = 2},
    {.name = "masked_fill", .fn = h_elt, .f = 1, .tensors = 2},
    {.name = "matmul", .fn = h_matmul, .op = OP(RL_OP_MATMUL)},
    {.name = "max", .fn = h_reduce, .f = 1},
    {.name = "max_pool1d_with_indices", .fn = h_pool, .variant = POOL_MAX},
    {.name = "max_pool2d_with_indices", .fn = h_pool, .variant = POOL_MAX},
    {.name = "max_pool2d_with_indices_backward", .fn = h_pool_bwd, .variant = POOL_MAX},
    {.name = "max_pool3d_with_indices", .fn = h_pool, .variant = POOL_MAX},
    {.name = "max_pool3d_with_indices_backward", .fn = h_pool_bwd, .variant = POOL_MAX},
    {.name = "maximum", .fn = h_elt, .f = 1, .tensors = 2},
    {.name = "mean", .fn = h_reduce, .f = 1},
    {.name = "min", .fn = h_reduce, .f = 1},
    {.name = "minimum", .fn = h_elt, .f = 1, .tensors = 2},
    {.name = "miopen_batch_norm", .fn = h_bn, .operand = 0, .weight = 1, .flag = 5},
    {.name = "miopen_batch_norm_backward", .fn = h_bn, .f = 9, .operand = 0, .weight = 2,
     .flag = NO_ARG},
    {.name = "miopen_convolution", .fn = h_conv, .op = OP(RL_OP_CONV2D), .stride = 4, .padding = 3,
     .groups = 6},
    {.name = "mish", .fn = h_elt, .f = 5, .tensors = 1},
    {.name = "mish_backward", .fn = h_elt, .f = 10, .tensors = 2},
    {.name = "mkldnn_convolution", .fn = h_conv, .op = OP(RL_OP_CONV2D), .stride = 4, .padding = 3,
     .groups = 6},
    {.name = "mm", .fn = h_mm, .op = OP(RL_OP_MATMUL)},
    {.name = "mse_loss", .fn = h_elt, .f = 3, .tensors = 2},
    {.name = "mse_loss_backward", .fn = h_elt, .f = 3, .tensors = 3},
    {.name = "mul", .fn = h_elt, .op = OP(RL_OP_MUL), .tensors = 2},
    {.name = "nan_to_num", .fn = h_elt, .f = 3, .tensors = 1},
    {.name = "nansum", .fn = h_reduce, .f = 1},
    {.name = "native_batch_norm", .fn = h_bn, .operand = 0, .weight = 1, .flag = 5},
    {.name = "native_batch_norm_backward", .fn = h_bn, .f = 9, .operand = 1, .weight = 2,
     .flag = NO_ARG},
    {.name = "native_dropout", .fn = h_elt, .f = 3, .tensors = 1, .mask = 1},
    {.name = "native_dropout_backward", .fn = h_elt, .f = 2, .tensors = 2},
    {.name = "native_group_norm", .fn = h_norm_rows, .f = 8, .operand = 0, .weight = 1},
    {.name = "native_group_norm_backward", .fn = h_norm_rows, .f = 12, .operand = 1, .weight = 4},
    {.name = "native_layer_norm", .fn = h_rows, .op = OP(RL_OP_LAYERNORM)},
    {.name = "native_layer_norm_backward", .fn = h_norm_rows, .f = 12, .operand = 1, .weight = 5},
    {.name = "ne", .fn = h_elt, .f = 1, .bool_out = 1, .tensors = 2},
    {.name = "neg", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "nll_loss2d_backward", .fn = h_nll, .variant = NLL_BWD},
    {.name = "nll_loss2d_forward", .fn = h_nll, .variant = NLL_FWD},
    {.name = "nll_loss_backward", .fn = h_nll, .variant = NLL_BWD},
    {.name = "nll_loss_forward", .fn = h_nll, .variant = NLL_FWD},
    {.name = "norm", .fn = h_reduce, .f = 2},
    {.name = "normal", .fn = h_fill},
    {.name = "ones_like", .fn = h_fill},
    {.name = "pow", .fn = h_elt, .f = 1, .tensors = 2},
    {.name = "prod", .fn = h_reduce, .f = 1},
    {.name = "reciprocal", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "relu", .fn = h_act, .op = OP(RL_OP_RELU)},
    {.name = "rms_norm", .fn = h_rows, .op = OP(RL_OP_RMSNORM)},
    {.name = "round", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "rsqrt", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "rsub", .fn = h_elt, .op = OP(RL_OP_SUB), .tensors = 2},
    {.name = "scaled_dot_product_attention", .fn = h_attn, .op = OP(RL_OP_ATTENTION), .flag = 5,
     .layout = ATTN_BHTD},
    {.name = "scatter", .fn = h_index},
    {.name = "scatter_add", .fn = h_index},
    {.name = "scatter_reduce", .fn = h_index},
    {.name = "sgn", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "sigmoid", .fn = h_elt, .f = 4, .tensors = 1},
    {.name = "sigmoid_backward", .fn = h_elt, .f = 3, .tensors = 2},
    {.name = "sign", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "silu", .fn = h_act, .op = OP(RL_OP_SILU)},
    {.name = "silu_backward", .fn = h_elt, .f = 9, .tensors = 2},
    {.name = "sin", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "softmax", .fn = h_rows, .op = OP(RL_OP_SOFTMAX)},
    {.name = "softplus", .fn = h_elt, .f = 3, .tensors = 1},
    {.name = "softplus_backward", .fn = h_elt, .f = 4, .tensors = 2},
    {.name = "sqrt", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "square", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "stack", .fn = h_cat},
    {.name = "std", .fn = h_reduce, .f = 3},
    {.name = "std_mean", .fn = h_reduce, .f = 3},
    {.name = "sub", .fn = h_elt, .op = OP(RL_OP_SUB), .tensors = 2},
    {.name = "sum", .fn = h_reduce, .f = 1},
    {.name = "tanh", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "tanh_backward", .fn = h_elt, .f = 3, .tensors = 2},
    {.name = "threshold", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "threshold_backward", .fn = h_elt, .f = 1, .tensors = 2},
    {.name = "trunc", .fn = h_elt, .f = 1, .tensors = 1},
    {.name = "upsample_nearest1d", .fn = h_upsample},
    {.name = "upsample_nearest2d", .fn = h_upsample},
    {.name = "upsample_nearest3d", .fn = h_upsample},
    {.name = "var", .fn = h_reduce, .f = 3},
    {.name = "var_mean", .fn = h_reduce, .f = 3},
    {.name = "where", .fn = h_elt, .f = 1, .tensors = 3},
    {.name = "zero", .fn = h_fill},
    {.name = "zeros_like", .fn = h_fill},
};

const char *rli_aten_name(size_t i) {
  return i < sizeof table / sizeof table[0] ? table[i].name : NULL;
}

/* Each handler's formula in words (the comment above it states it in full,
 * with its source). */
static const struct {
  aten_fn fn;
  const char *formula;
} formulas[] = {
    {h_mm, "matmul (ops.c), M, N, K from the two 2-D operands, + bias"},
    {h_bmm, "matmul (ops.c), batched, from the two 3-D operands, + bias"},
    {h_matmul, "matmul (ops.c), leading dims as batch"},
    {h_linear, "linear (ops.c), tokens = prod(input dims but the last)"},
    {h_conv, "conv2d (ops.c) when 2-D, one stride and padding, no dilation; else the N-d "
             "convolution, 2 MACs + bias, input + weight + output bytes"},
    {h_conv_bwd, "convolution backward: 2 MACs per gradient asked for + the bias sum"},
    {h_bn, "batch norm: 8 (training) or 4 (inference) FLOPs per element, 9 backward"},
    {h_norm_rows, "layer / group norm: f FLOPs per element, 2 (3 backward) passes + parameters"},
    {h_rows, "softmax / layernorm / rmsnorm (ops.c), rows x the normalized size"},
    {h_act, "relu / gelu / silu (ops.c), gelu's approximate argument picking the form"},
    {h_elt, "elementwise: f (or the op kind's) FLOPs per output element, operands at their "
            "own size + the output"},
    {h_fill, "writes only: n elements"},
    {h_reduce, "reduction: f FLOPs per input element, the input read once"},
    {h_copy, "copy (ops.c): n elements read in the source's format, written in the op's"},
    {h_clone, "copy: n elements read and written (_to_copy: in its target format)"},
    {h_scan, "cumulative sum / product: f FLOPs per element, the input read and the output written once"},
    {h_upsample, "nearest upsampling: the input read and the output (output_size or scales) written once"},
    {h_arange, "arange: writes ceil((end - start) / step) elements"},
    {h_embedding, "embedding (ops.c): the rows gathered + int64 indices"},
    {h_embedding_bwd, "embedding backward: one add per gradient element"},
    {h_index, "gather / scatter / index_*: the values moved and their indices"},
    {h_fbgemm, "FBGEMM: the bytes each op reads and writes by its definition"},
    {h_pool, "pooling: output elements x window, input + output (+ int64 indices)"},
    {h_pool_bwd, "pooling backward: the gradient routed"},
    {h_adaptive, "adaptive average pooling: input + output elements"},
    {h_nll, "nll loss: one gather and add per target"},
    {h_attn, "attention (ops.c, fused); backward 2.5x the forward's FLOPs (FlashAttention-2)"},
    {h_cat, "cat / stack on tensor lists: every element read and written"},
    {h_adam, "fused Adam(W): 13 FLOPs per element (+ weight decay, amsgrad, maximize)"},
    {h_sgd, "fused SGD: torch.optim.sgd's update per element"},
};

int rli_aten_row_info(size_t i, rli_aten_row *out) {
  if (i >= sizeof table / sizeof table[0]) return 0;
  const aten_def *d = &table[i];
  out->name = d->name;
  out->kind = kind_of(d);
  out->formula = NULL;
  for (size_t k = 0; k < sizeof formulas / sizeof formulas[0]; k++)
    if (d->fn && formulas[k].fn == d->fn) out->formula = formulas[k].formula;
  out->per_elem = d->fn == h_elt || d->fn == h_reduce ? per_elem(d) : 0;
  return 1;
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
         fn == h_fbgemm || fn == h_elt || fn == h_reduce || fn == h_scan || fn == h_upsample;
}

static int strides_fit(const char *full, const rli_aten_args *a, char *why, size_t cap) {
  for (int i = 0; i < a->n_str && i < a->n_in; i++) {
    if (a->ndim[i] <= 0) continue; /* a Scalar, a list, a 0-d tensor: nothing to expand */
    if (a->str_rank[i] == RLI_STR_BAD)
      return rli_why_fail(why, cap, "%s: Input Strides of argument %d: a stride negative or not a number", full, i);
    if (a->str_rank[i] != a->ndim[i])
      return rli_why_fail(why, cap, "%s: Input Strides of argument %d: %d strides for a tensor of rank %d", full, i,
                  a->str_rank[i] < 0 ? 0 : a->str_rank[i], a->ndim[i]);
  }
  return 1;
}

int rli_aten_cost(const char *full, const rli_aten_args *a, rli_cost *c, char *why,
                  size_t cap) {
  return rli_aten_cost_moe(full, a, NULL, c, why, cap);
}

int rli_aten_cost_moe(const char *full, const rli_aten_args *a, const rli_moe *moe, rli_cost *c,
                      char *why, size_t cap) {
  rli_cost_init(c, 0);
  if (RLI_STARTS(full, "nccl:") || RLI_STARTS(full, "c10d::") ||
      !strcmp(full, "record_param_comms"))
    return coll_op(full, a, c, why, cap);
  /* serving engines' custom ops: data/custom_ops.csv (trace_custom.c) */
  if (rli_custom_has(full)) {
    char note[320];
    int ok = rli_custom_cost(full, a, moe, c, why, cap, note, sizeof note);
    if (ok > 0) snprintf(why, cap, "%s", note);
    return ok;
  }
  if (RLI_STARTS(full, "triton_") && a->has_dims) return triton_launch(full, a, c, why, cap);
  if ((!strcmp(full, "CompiledFunction") || !strcmp(full, "CompiledFunctionBackward")) &&
      a->has_dims)
    return compiled_region(full, a, c, why, cap);
  if (compiled(full)) {
    c->reason = RL_REASON_COMPILED;
    return rli_why_fail(why, cap, "compiled region: no shapes per kernel (Nsight Compute measures them)");
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
  static const aten_def foreach_def = {.name = "_foreach_", .fn = h_foreach};
  if (!d && RLI_STARTS(n, "_foreach_")) d = &foreach_def;
  if (!d && strstr(n, "CppNode<fbgemm_gpu::PermutePooledEmbsFunction"))
    d = bsearch("fbgemm::permute_pooled_embs", table, sizeof table / sizeof table[0],
                sizeof table[0], cmp_def);
  if (!d && strstr(n, "flash_attn")) d = bsearch("_flash_attention_forward", table,
                                                 sizeof table / sizeof table[0], sizeof table[0], cmp_def);
  if (!d && !strcmp(base, "index") && RLI_STARTS(full, "aten::")) {
    /* index(self, indices): the indices are a list of optional tensors,
     * which the profiler does not record: the elements it gathers (its
     * output) are unknown, and self is not read whole */
    c->reason = RL_REASON_SHAPES;
    return rli_why_fail(why, cap, "%s: its indices (a list of optional tensors) are not recorded: what "
                                  "it gathers is unknown", full);
  }
  if (!d && RLI_STARTS(full, "Optimizer.step#")) {
    /* torch.optim's step annotation: kernels right under it were launched
     * by no ATen op (apex's fused optimizers, a C++ extension) on the
     * parameter lists, whose sizes the profiler does not record */
    c->reason = RL_REASON_LISTS;
    return rli_why_fail(why, cap, "%s: launched by an optimizer step with no ATen op, on tensor lists "
                          "whose sizes are not recorded", full);
  }
  if (!d) {
    c->reason = RL_REASON_NO_MODEL;
    return rli_why_fail(why, cap, "no cost model for %s", full);
  }
  if (!a->has_dims) {
    c->reason = RL_REASON_NO_SHAPES;
    return rli_why_fail(why, cap, "no shapes recorded for it (record_shapes=True)");
  }
  if (!strides_fit(full, a, why, cap)) return 0;
  if (on_lists(d->fn)) {
    aten_ctx lx = {full, base, a, -1, 0, c, why, cap};
    return d->fn(&lx, d);
  }
  int32_t dt = type_at(a, 0);
  if (d->fn == h_mm || d->fn == h_bmm) dt = type_at(a, d->operand);
  if (d->fn == h_conv_bwd || d->fn == h_nll || d->fn == h_attn) dt = type_at(a, 1);
  if (dt < 0)
    for (int i = 0; i < a->n_types && dt < 0; i++)
      if (a->ndim[i] > 0) dt = type_at(a, i);
  /* the output of a binary or n-ary elementwise op takes the operands'
   * promoted type (bf16 [1,512,4096] x fp32 [1,512,1] writes fp32), an
   * in-place one (add_, mul_, ...) its destination's: the first operand */
  int inplace = nl > 1 && n[nl - 1] == '_' && n[0] != '_';
  if (d->fn == h_elt && !inplace && !d->bool_out && !d->mask && d->tensors != 1) {
    int32_t rt = result_type(a, d->tensors > 0 ? d->tensors : a->n_in);
    if (rt >= 0) dt = rt;
  }
  aten_ctx x = {full, base, a, dt, 0, c, why, cap};
  if (d->fn == h_scan && !is_tensor(a, 0, -1))
    /* PyTorch 2.0's profiler records some cumsum calls as [[], [n], dim,
     * dtype]: not cumsum(self, dim, dtype)'s layout */
    return rli_why_fail(why, cap, "%s: argument 0 is no tensor (cumsum(self, dim, dtype) expected)", full);
  if (d->fn == h_arange) { /* writes only, whatever its type: the memory roof */
    x.dt = RL_FP32;
    x.s = 4;
    if (!d->fn(&x, d)) return 0;
    c->flops = 0;
    c->dtype = -1;
    c->roof = RLI_ROOF_HBM;
    return 1;
  }
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
  return d < n && d > RLI_LEN("Backward") && RLI_ENDS(name, d, "Backward") &&
         !RLI_STARTS(name, "autograd::");
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
    return rli_why_fail(why, cap, "%s: expected two %d-D operands", op, r);
  const double *A = fa->dims[ia], *B = fa->dims[ib];
  double bt = batched ? A[0] : 1, m = A[r - 2], k = A[r - 1], n = B[r - 1];
  if (B[r - 2] != k || (batched && B[0] != bt)) return rli_why_fail(why, cap, "%s: inner dimensions differ", op);
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
  rli_cost_init(c, RL_REASON_SHAPES);
  int i = bwd_find(fwd);
  if (i < 0) return rli_why_fail(why, cap, "%s: no backward model", fwd);
  if (!fa->has_dims) return rli_why_fail(why, cap, "%s: no shapes recorded", fwd);
  rli_aten_args *w = calloc(1, sizeof *w);
  if (!w) return rli_why_fail(why, cap, "out of memory");
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
      ok = rli_why_fail(why, cap, "%s: no input shape", fwd);
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
      ok = rli_why_fail(why, cap, "%s: expected weight and indices", fwd);
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

/* ---- the working set of a CPU op ------------------------------------------ */
/* The distinct bytes one call touches, for the cache level whose roof
 * bounds it (trace_analyze.c, CPU traces): its tensor inputs, each
 * (shape, type) once (two arguments of one shape and type may be one
 * tensor, as AdamW's addcmul_(exp_avg_sq, grad, grad): counted once, the
 * smaller working set, so the faster level, so never a higher bound), and
 * what Q moves beyond reading its inputs once (its output); an in-place
 * op (add_, addcmul_: its output is its first input) touches its inputs
 * only. Never above Q, the traffic; 0 when Q is unknown. Its traffic Q
 * counts a tensor once per read or write; the working set, once. */
double rli_aten_working_set(const char *full, const rli_aten_args *a, double Q) {
  if (!(Q > 0) || !a || !a->has_dims) return Q > 0 ? Q : 0;
  double all = 0, distinct = 0;
  for (int i = 0; i < a->n_in && i < RLI_ATEN_MAX_IN; i++) {
    if (a->ndim[i] < 0 || a->ndim[i] > RLI_ATEN_MAX_DIM) continue;
    double tb = i < a->n_types ? rli_torch_type_bytes(a->types[i]) : 0;
    if (!(tb > 0)) continue;
    double n = tb;
    for (int d = 0; d < a->ndim[i]; d++) n *= a->dims[i][d];
    all += n;
    int dup = 0;
    for (int j = 0; j < i && !dup; j++) {
      if (a->ndim[j] != a->ndim[i] || j >= a->n_types || strcmp(a->types[j], a->types[i]) != 0) continue;
      int same = 1;
      for (int d = 0; d < a->ndim[i]; d++)
        if (a->dims[j][d] != a->dims[i][d]) same = 0;
      dup = same;
    }
    if (!dup) distinct += n;
  }
  const char *n = strip_ns(full);
  size_t nl = strlen(n);
  int inplace = nl > 1 && n[nl - 1] == '_' && n[0] != '_';
  double ws = inplace ? distinct : distinct + fmax(0, Q - all);
  return ws > 0 && ws < Q ? ws : Q;
}

/* ---- pooling without its kernel size (PyTorch 1.13 records no int lists) ----
 * A 2-D pooling op whose kernel size the profiler did not record
 * (max_pool2d_with_indices, avg_pool2d) still has a true lower bound once
 * its output size is known (the backward's grad_output, by sequence number,
 * as for convolutions): it writes each output once (max: its value and its
 * int64 index). Its reads and compares depend on the window and stride,
 * not recorded, and are not counted: Q is a lower bound (RLI_LOWER_BYTES),
 * F = 0 stands for at least nothing. */
static int pool_kind(const char *full) {
  const char *n = strip_ns(full);
  if (!strcmp(n, "max_pool2d_with_indices")) return 1;
  if (!strcmp(n, "avg_pool2d")) return 2;
  return 0;
}

int rli_aten_pool_needs_output(const char *full, const rli_aten_args *a) {
  if (!a->has_dims || !pool_kind(full) || a->n_in < 1) return 0;
  if (a->ndim[0] != 4 && a->ndim[0] != 3) return 0;
  if (a->n_concrete > 1 && cval(a, 1, 0) >= 1) return 0; /* recorded: the model applies */
  return 2;
}

int rli_aten_pool_inferred(const char *full, const rli_aten_args *a, const double *out, int nd,
                           rli_cost *c, char *why, size_t cap) {
  rli_cost_init(c, RL_REASON_SHAPES);
  int k = pool_kind(full);
  if (!rli_aten_pool_needs_output(full, a) || nd != a->ndim[0])
    return rli_why_fail(why, cap, "%s: no pooling to infer", full);
  double n = 1;
  for (int d = 0; d < nd; d++) {
    if (!(out[d] >= 1)) return rli_why_fail(why, cap, "%s: no output size", full);
    if (d < nd - 2 ? out[d] != a->dims[0][d] : out[d] > a->dims[0][d] + 1)
      return rli_why_fail(why, cap, "%s: the backward's grad_output does not fit its input", full);
    n *= out[d];
  }
  int32_t dt = type_at(a, 0);
  double s = a->n_types > 0 ? rli_torch_type_bytes(a->types[0]) : 0;
  if (dt < 0 || !(s > 0)) return rli_why_fail(why, cap, "%s: element type not recorded", full);
  c->flops = 0;
  c->bytes = n * (s + (k == 1 ? 8 : 0));
  c->dtype = dt;
  c->lower = RLI_LOWER_BYTES;
  c->ws = c->bytes;
  return 1;
}

/* ---- ops that move no data -------------------------------------------------
 * Views, allocations and metadata (a CPU trace times them: they launch no
 * GPU kernel): F = Q = 0 exactly. empty* allocates without touching the
 * memory; the views return a tensor over the same storage (PyTorch's
 * "Tensor Views" documentation lists them); to/contiguous without a copy
 * return self (a copy shows as their callee, _to_copy or clone). */
int rli_aten_no_data(const char *full) {
  static const char *const names[] = {
      "_reshape_alias", "_unsafe_view", "alias", "as_strided", "as_strided_", "chunk", "contiguous",
      "detach", "detach_", "empty", "empty_like", "empty_strided", "expand", "expand_as", "flatten",
      "lift_fresh", "narrow", "new_empty", "new_empty_strided", "numpy_T", "permute", "reshape",
      "resize_", "resolve_conj", "resolve_neg", "result_type", "select", "set_", "slice", "split",
      "split_with_sizes", "squeeze", "squeeze_", "t", "to", "transpose", "unbind", "unflatten",
      "unsqueeze", "unsqueeze_", "view", "view_as"};
  if (!RLI_STARTS(full, "aten::")) return 0;
  const char *n = full + RLI_LEN("aten::");
  size_t lo = 0, hi = sizeof names / sizeof names[0];
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(n, names[mid]);
    if (!c) return 1;
    if (c < 0) hi = mid;
    else lo = mid + 1;
  }
  return 0;
}
