/*
 * trace_coll.c -- collectives and kernel families in a profiled run.
 *
 * Collectives (NCCL kernels) are measured as nccl-tests measures them
 * (github.com/NVIDIA/nccl-tests, doc/PERFORMANCE.md):
 *   algbw = S / t
 *   busbw = algbw x factor, factor = 2(n-1)/n for all-reduce, (n-1)/n for
 *           all-gather, reduce-scatter and all-to-all, 1 for broadcast,
 *           reduce and send/recv,
 * where S is the all-reduce's buffer, the all-gather's output, the
 * reduce-scatter's input, the all-to-all's send buffer, the broadcast's or
 * reduce's buffer, the message sent. busbw is the bandwidth each link would
 * carry with the ring algorithm (Patarasuk & Yuan 2009) and does not depend
 * on n, so it compares with the bandwidth of one link direction: the roof of
 * a collective of S bytes is factor x S / link. A group of one rank moves
 * nothing over the network (factor 0).
 *
 * Kernel families are read from the kernel's name: the prefixes of the
 * libraries that write them (cuBLAS/cuBLASLt "sm80_xmma_gemm", "ampere_",
 * "nvjet", CUTLASS "cutlass::"; cuDNN "cudnn::", "implicit_convolve";
 * Triton/Inductor "triton_poi_", "triton_red_", "triton_per_", "triton_tem_"
 * (torch/_inductor/codegen naming); NCCL "ncclKernel", "ncclDevKernel";
 * ATen's "elementwise_kernel", "reduce_kernel", "multi_tensor_apply_kernel").
 */
#include "core/trace_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const coll_names[RLI_COLL_COUNT] = {
    "allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "reduce", "sendrecv"};

const char *rli_coll_name(int32_t kind) {
  return kind >= 0 && kind < RLI_COLL_COUNT ? coll_names[kind] : "collective";
}

int32_t rli_coll_kind(const char *name) {
  if (!name) return -1;
  /* lower case, without ':' '_' '-' and the namespaces */
  char b[64];
  size_t n = 0;
  if (RLI_STARTS(name, "nccl:")) name += RLI_LEN("nccl:");
  else if (RLI_STARTS(name, "c10d::")) name += RLI_LEN("c10d::");
  else if (RLI_STARTS(name, "gloo:")) return -1; /* not NCCL kernels */
  for (const char *p = name; *p && n + 1 < sizeof b; p++) {
    char c = *p;
    if (c == '_' || c == '-' || c == ':' || c == ' ') continue;
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    b[n++] = c;
  }
  b[n] = 0;
  /* an NCCL kernel's name: ncclKernel_AllReduce_RING_LL_Sum_float,
   * ncclDevKernel_AllGather_RING_LL(...) */
  const char *q = b;
  if (RLI_STARTS(q, "ncclkernel")) q += RLI_LEN("ncclkernel");
  else if (RLI_STARTS(q, "nccldevkernel")) q += RLI_LEN("nccldevkernel");
  static const struct { const char *p; int32_t k; } pre[] = {
      {"allreduce", RLI_COLL_ALLREDUCE},       {"allgather", RLI_COLL_ALLGATHER},
      {"reducescatter", RLI_COLL_REDUCESCATTER}, {"alltoall", RLI_COLL_ALLTOALL},
      {"broadcast", RLI_COLL_BROADCAST},       {"sendrecv", RLI_COLL_SENDRECV},
      {"send", RLI_COLL_SENDRECV},             {"recv", RLI_COLL_SENDRECV}};
  for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
    if (!strncmp(q, pre[i].p, strlen(pre[i].p))) return pre[i].k;
  if (!strcmp(q, "reduce") || !strcmp(q, "reducebase") || (q != b && RLI_STARTS(q, "reduce")))
    return RLI_COLL_REDUCE;
  return -1;
}

double rli_coll_factor(int32_t kind, double n) {
  if (!(n > 1)) return 0; /* one rank: nothing crosses the network */
  switch (kind) {
  case RLI_COLL_ALLREDUCE: return 2 * (n - 1) / n;
  case RLI_COLL_ALLGATHER:
  case RLI_COLL_REDUCESCATTER:
  case RLI_COLL_ALLTOALL: return (n - 1) / n;
  default: return 1;
  }
}

int rli_coll_cost(int32_t kind, double S, double n, rli_cost *c, char *why, size_t cap) {
  memset(c, 0, sizeof *c);
  c->dtype = -1;
  c->why = RLI_NONE;
  c->reason = RL_REASON_SHAPES;
  c->roof = RLI_ROOF_NET;
  c->coll = kind;
  if (kind < 0 || kind >= RLI_COLL_COUNT) {
    snprintf(why, cap, "not a collective NCCL runs");
    c->reason = RL_REASON_NO_MODEL;
    return 0;
  }
  /* 1e15 B: beyond the memory of any device, so not a real message */
  if (!(S >= 0) || !(S < 1e15)) {
    snprintf(why, cap, "%s of %g bytes: the message size is %s", coll_names[kind], S,
             S < 0 ? "negative" : "absurd");
    return 0;
  }
  if (n >= 0 && (!(n >= 1) || n != floor(n) || n > 1e7)) {
    snprintf(why, cap, "%s: group size %g is not a rank count", coll_names[kind], n);
    return 0;
  }
  c->flops = 0;
  c->bytes = S;
  c->ranks = n > 0 ? (int32_t)n : 0;
  c->reason = 0;
  return 1;
}


/* ---- kernel families ------------------------------------------------------ */
static int has(const char *s, const char *needle) { return strstr(s, needle) != NULL; }

/* "gemm" that is not the tail of "fbgemm" (FBGEMM's sparse and embedding
 * kernels carry fbgemm_gpu:: in their names and are not GEMMs) */
static int has_gemm(const char *s) {
  for (const char *p = strstr(s, "gemm"); p; p = strstr(p + 4, "gemm"))
    if (p - s < 2 || p[-2] != 'f' || p[-1] != 'b') return 1;
  return 0;
}

const char *rli_kernel_family(const char *name) {
  if (!name || !*name) return "other";
  const char *s = name;
  if (RLI_STARTS(s, "void ")) s += RLI_LEN("void ");
  if (RLI_STARTS(s, "Memcpy")) return "memcpy";
  if (RLI_STARTS(s, "Memset")) return "memset";
  if (has(s, "nccl")) return "NCCL";
  if (RLI_STARTS(s, "triton_")) {
    const char *k = s + RLI_LEN("triton_");
    if (RLI_STARTS(k, "poi")) return "Triton pointwise";
    if (RLI_STARTS(k, "red")) return "Triton reduction";
    if (RLI_STARTS(k, "per")) return "Triton persistent reduction";
    if (RLI_STARTS(k, "tem") || RLI_STARTS(k, "mm")) return "Triton template (GEMM)";
    return "Triton";
  }
  if (has(s, "flash") || has(s, "fmha") || has(s, "attention") || has(s, "Attention"))
    return "attention";
  if (has(s, "cudnn") || has(s, "implicit_convolve") || has(s, "convolve") ||
      has(s, "winograd") || has(s, "fft2d") || has(s, "bn_fw") || has(s, "bn_bw"))
    return "cuDNN / convolution";
  if (has_gemm(s) || has(s, "cutlass") || has(s, "xmma") || has(s, "nvjet") ||
      has(s, "gemv") || has(s, "cublas") || RLI_STARTS(s, "ampere_") ||
      RLI_STARTS(s, "sm80_") || RLI_STARTS(s, "sm90_") || RLI_STARTS(s, "volta_") ||
      RLI_STARTS(s, "bmm_")) /* TensorRT-LLM's batched GEMMs */
    return "GEMM library (cuBLAS/CUTLASS)";
  if (has(s, "multi_tensor_apply") || has(s, "fused_adam") || has(s, "FusedAdam"))
    return "multi-tensor (optimizer, _foreach_)";
  if (has(s, "fbgemm")) return "FBGEMM";
  if (has(s, "reduce_kernel") || has(s, "Reduce")) return "ATen reduction";
  if (has(s, "softmax") || has(s, "Softmax")) return "softmax";
  if (has(s, "norm") || has(s, "Norm")) return "normalization";
  if (has(s, "elementwise_kernel") || has(s, "Functor")) return "ATen elementwise";
  if (has(s, "index") || has(s, "scatter") || has(s, "gather") || has(s, "embedding") ||
      has(s, "Embedding"))
    return "indexing / embedding";
  if (has(s, "Copy") || has(s, "copy") || has(s, "cat")) return "copy / cat";
  return "other";
}

/* ---- the precision a kernel ran at ------------------------------------------
 * GEMM, convolution and attention kernels name the format their tensor
 * cores ran, whatever the op's nominal dtype: an fp32 matmul or convolution
 * with TF32 enabled (PyTorch's default for cuDNN convolutions; matmuls with
 * allow_tf32) runs cuBLAS/CUTLASS/cuDNN TF32 kernels, and quantized GEMMs
 * run fp8, int8 or fp4 kernels. The table below is the one place for these
 * names (first match wins, on the lower-cased name); each pattern is how the
 * library spells the format: CUTLASS's generated names ("tensorop_s1688gemm":
 * fp32 operands on the m16n8k8 TF32 MMA; "tensorop_i16832gemm": the
 * m16n8k32 int8 MMA; "tfloat32_t", "float_e4m3_t",
 * "float_e2m1_t" element types; CUTLASS docs, media/docs/functionality.md),
 * cuBLAS/cuDNN's ("ampere_..._tf32_...", "sm80_xmma_..._tf32f32_...",
 * "..._e4m3..."), FBGEMM's ("f8f8bf16_rowwise"), TensorRT-LLM's and FlashInfer's ("nvfp4", "mxfp4",
 * "bmm_MxE4m3_MxE2m1": an fp8 x fp4 MMA, which Blackwell runs at its fp8
 * rate, NVIDIA Blackwell architecture technical brief, kind::f8f6f4). Only
 * kernels of the tensor-core families are read: "hfp8" in an elementwise
 * conversion kernel's name says nothing about a roof. */
/* needle (lower case) in s, ignoring the case of s */
static int has_nocase(const char *s, const char *needle) {
  for (; *s; s++) {
    size_t i = 0;
    while (needle[i] && (s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]) == needle[i]) i++;
    if (!needle[i]) return 1;
  }
  return 0;
}

static const struct {
  const char *pattern;
  int32_t dtype;
} precisions[] = {
    {"nvfp4", RL_FP4},       {"mxfp4", RL_FP4},   {"e4m3", RL_FP8},      {"e5m2", RL_FP8},
    {"fp8", RL_FP8},         {"f8f8", RL_FP8},    {"e2m1", RL_FP4},    {"fp4", RL_FP4},       {"tensorop_i8", RL_INT8}, {"tensorop_i16832", RL_INT8},
    {"imma", RL_INT8},       {"int8", RL_INT8},   {"_i8i8", RL_INT8},    {"tf32", RL_TF32},
    {"tfloat32", RL_TF32},   {"tensorop_s1688", RL_TF32},
};

int32_t rli_kernel_precision(const char *name) {
  const char *fam = rli_kernel_family(name);
  if (strcmp(fam, "GEMM library (cuBLAS/CUTLASS)") && strcmp(fam, "cuDNN / convolution") &&
      strcmp(fam, "attention") && strcmp(fam, "Triton template (GEMM)"))
    return -1;
  for (size_t i = 0; i < sizeof precisions / sizeof precisions[0]; i++)
    if (has_nocase(name, precisions[i].pattern)) return precisions[i].dtype;
  return -1;
}
