/*
 * test_trace.c -- the trace readers and analysis: ATen op costs against
 * hand-computed F and Q, kernel-to-op linking on crafted traces (nesting,
 * two threads, legacy 2021 categories, multi-kernel ops, missing launches),
 * gzip in memory and cut at every length, mutated inputs (error or success,
 * never a crash), an ncu raw page, and the CLI's one-line error contract.
 * The real fixtures' figures are in tests/golden/trace.golden.
 */
#include "core/trace_internal.h"
#include "io/json_scan.h"
#include "cli.h"
#include "harness.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static rli_aten_args args(int n, const int *ndim, const double (*dims)[4], const char *const *types) {
  rli_aten_args a;
  memset(&a, 0, sizeof a);
  a.has_dims = 1;
  a.n_in = n;
  a.n_types = n;
  for (int i = 0; i < n; i++) {
    a.ndim[i] = ndim[i];
    for (int d = 0; d < ndim[i] && d < 4; d++) a.dims[i][d] = dims[i][d];
    snprintf(a.types[i], sizeof a.types[i], "%s", types[i]);
  }
  return a;
}

static void test_aten(void) {
  rli_cost c;
  char why[200];
  /* mm: (4096 x 64)(64 x 2798) fp32: F = 2MNK, Q = 4(MK + KN + MN) */
  {
    int nd[] = {2, 2};
    double d[][4] = {{4096, 64}, {64, 2798}};
    const char *t[] = {"float", "float"};
    rli_aten_args a = args(2, nd, d, t);
    CHECK(rli_aten_cost("aten::mm", &a, &c, why, sizeof why) == 1);
    CHECK_NEAR(c.flops, 2.0 * 4096 * 2798 * 64, 1e-12);
    CHECK_NEAR(c.bytes, 4.0 * (4096 * 64 + 64 * 2798 + 4096 * 2798), 1e-12);
    CHECK(c.tensor == 1 && c.dtype == RL_FP32);
  }
  /* addmm(bias[64], x[4096,100], w[100,64]): + MN bias adds, + bias read */
  {
    int nd[] = {1, 2, 2, 0, 0};
    double d[][4] = {{64}, {4096, 100}, {100, 64}, {0}, {0}};
    const char *t[] = {"float", "float", "float", "Scalar", "Scalar"};
    rli_aten_args a = args(5, nd, d, t);
    CHECK(rli_aten_cost("aten::addmm", &a, &c, why, sizeof why) == 1);
    CHECK_NEAR(c.flops, 2.0 * 4096 * 64 * 100 + 4096 * 64, 1e-12);
    CHECK_NEAR(c.bytes, 4.0 * (4096 * 100 + 100 * 64 + 4096 * 64 + 64), 1e-12);
  }
  /* linear bf16 [2, 512, 1024] x [4096, 1024]^T: M = 1024 tokens */
  {
    int nd[] = {3, 2};
    double d[][4] = {{2, 512, 1024}, {4096, 1024}};
    const char *t[] = {"c10::BFloat16", "c10::BFloat16"};
    rli_aten_args a = args(2, nd, d, t);
    CHECK(rli_aten_cost("aten::linear", &a, &c, why, sizeof why) == 1);
    CHECK_NEAR(c.flops, 2.0 * 1024 * 1024 * 4096, 1e-12);
    CHECK_NEAR(c.bytes, 2.0 * (1024 * 1024 + 1024 * 4096 + 1024 * 4096), 1e-12);
    CHECK(c.dtype == RL_BF16);
  }
  /* bmm [8, 128, 64] x [8, 64, 256] fp16 */
  {
    int nd[] = {3, 3};
    double d[][4] = {{8, 128, 64}, {8, 64, 256}};
    const char *t[] = {"c10::Half", "c10::Half"};
    rli_aten_args a = args(2, nd, d, t);
    CHECK(rli_aten_cost("aten::bmm", &a, &c, why, sizeof why) == 1);
    CHECK_NEAR(c.flops, 8 * 2.0 * 128 * 256 * 64, 1e-12);
  }
  /* add with a broadcast bias: F = n_out, Q = (n + row + n) * 4 */
  {
    int nd[] = {2, 1, 0};
    double d[][4] = {{100, 64}, {64}, {0}};
    const char *t[] = {"float", "float", "Scalar"};
    rli_aten_args a = args(3, nd, d, t);
    CHECK(rli_aten_cost("aten::add_", &a, &c, why, sizeof why) == 1);
    CHECK_NEAR(c.flops, 6400, 1e-12);
    CHECK_NEAR(c.bytes, 4.0 * (6400 + 64 + 6400), 1e-12);
    CHECK(c.tensor == 0);
  }
  /* layer_norm [32, 768] fp32 with weight [768]: F = 8mn */
  {
    int nd[] = {2, 1, 1, 1};
    double d[][4] = {{32, 768}, {1}, {768}, {768}};
    const char *t[] = {"float", "ScalarList", "float", "float"};
    rli_aten_args a = args(4, nd, d, t);
    a.ndim[1] = -1;
    CHECK(rli_aten_cost("aten::layer_norm", &a, &c, why, sizeof why) == 1);
    CHECK_NEAR(c.flops, 8.0 * 32 * 768, 1e-12);
  }
  /* conv2d needs stride and padding: without Concrete Inputs, it says why */
  {
    int nd[] = {4, 4, 1};
    double d[][4] = {{32, 64, 56, 56}, {64, 64, 3, 3}, {64}};
    const char *t[] = {"float", "float", "float"};
    rli_aten_args a = args(3, nd, d, t);
    CHECK(rli_aten_cost("aten::conv2d", &a, &c, why, sizeof why) == 0);
    CHECK(strstr(why, "stride, padding or groups not recorded") != NULL);
    a.n_concrete = 7;
    snprintf(a.concrete[3], sizeof a.concrete[3], "[1, 1]");
    snprintf(a.concrete[4], sizeof a.concrete[4], "[1, 1]");
    snprintf(a.concrete[5], sizeof a.concrete[5], "[1, 1]");
    snprintf(a.concrete[6], sizeof a.concrete[6], "1");
    CHECK(rli_aten_cost("aten::conv2d", &a, &c, why, sizeof why) == 1);
    /* 2 N Co Ho Wo Ci kh kw + bias adds */
    CHECK_NEAR(c.flops, 2.0 * 32 * 64 * 56 * 56 * 64 * 9 + 32.0 * 64 * 56 * 56, 1e-12);
  }
  /* sdpa causal [2, 16, 1024, 64], GQA with 4 KV heads */
  {
    int nd[] = {4, 4, 4};
    double d[][4] = {{2, 16, 1024, 64}, {2, 4, 1024, 64}, {2, 4, 1024, 64}};
    const char *t[] = {"c10::BFloat16", "c10::BFloat16", "c10::BFloat16"};
    rli_aten_args a = args(3, nd, d, t);
    CHECK(rli_aten_cost("aten::scaled_dot_product_attention", &a, &c, why, sizeof why) == 0);
    a.n_concrete = 6;
    snprintf(a.concrete[5], sizeof a.concrete[5], "True");
    CHECK(rli_aten_cost("aten::scaled_dot_product_attention", &a, &c, why, sizeof why) == 1);
    double pairs = 1024.0 * 1024 / 2;
    CHECK_NEAR(c.flops, 2 * 16 * (4 * pairs * 64 + 5 * pairs), 1e-12);
    CHECK_NEAR(c.bytes, 2 * 2.0 * (2 * 16 * 1024 * 64 + 2 * 4 * 1024 * 64), 1e-12);
  }
  /* unknown op, integer type, no shapes */
  {
    int nd[] = {1};
    double d[][4] = {{10}};
    const char *t[] = {"long int"};
    rli_aten_args a = args(1, nd, d, t);
    CHECK(rli_aten_cost("aten::_cdist_forward", &a, &c, why, sizeof why) == 0);
    CHECK(strstr(why, "no cost model for aten::_cdist_forward") != NULL);
    CHECK(c.reason == RL_REASON_NO_MODEL);
    /* zero_ on int64 writes 10 x 8 B: the memory roof, no FLOP roof needed */
    CHECK(rli_aten_cost("aten::zero_", &a, &c, why, sizeof why) == 1);
    CHECK(c.bytes == 80 && c.flops == 0 && c.roof == RLI_ROOF_HBM);
    /* integer arithmetic: its bytes on the memory roof (read 10 x 8, write 10 x 8), F not counted */
    CHECK(rli_aten_cost("aten::mul", &a, &c, why, sizeof why) == 1);
    CHECK(c.bytes == 160 && c.flops == 0 && c.roof == RLI_ROOF_HBM);
    CHECK(rli_aten_cost("aten::sum", &a, &c, why, sizeof why) == 1);
    CHECK(c.bytes == 80 && c.flops == 0 && c.roof == RLI_ROOF_HBM);
    /* a GEMM on integers has no roof in the database */
    CHECK(rli_aten_cost("aten::mm", &a, &c, why, sizeof why) == 0);
    CHECK(strstr(why, "no floating-point roof") != NULL);
    /* an optimizer step annotation with kernels right under it: tensor lists */
    CHECK(rli_aten_cost("Optimizer.step#FusedAdam.step", &a, &c, why, sizeof why) == 0);
    CHECK(c.reason == RL_REASON_LISTS && strstr(why, "tensor lists") != NULL);
    a.has_dims = 0;
    CHECK(rli_aten_cost("aten::mm", &a, &c, why, sizeof why) == 0);
    CHECK(strstr(why, "record_shapes") != NULL);
  }
  /* index_add_ / index_copy_(self, dim, index [k], source), nan_to_num, logical_and on bools */
  {
    int nd[] = {1, 0, 1, 1};
    double d[][4] = {{755000}, {0}, {1024}, {1024}};
    const char *t[] = {"float", "Scalar", "long", "float"};
    rli_aten_args a = args(4, nd, d, t);
    CHECK(rli_aten_cost("aten::index_add_", &a, &c, why, sizeof why) == 1);
    CHECK(c.flops == 1024 && c.bytes == 1024 * 3 * 4 + 1024 * 8);
    CHECK(rli_aten_cost("aten::index_copy_", &a, &c, why, sizeof why) == 1);
    CHECK(c.flops == 0 && c.bytes == 1024 * 2 * 4 + 1024 * 8);
    a.ndim[3] = -1;
    CHECK(rli_aten_cost("aten::index_copy_", &a, &c, why, sizeof why) == 0 && c.reason == RL_REASON_SHAPES);
    int nd2[] = {2, 0};
    double d2[][4] = {{2048, 96}, {0}};
    const char *t2[] = {"float", "Scalar"};
    a = args(2, nd2, d2, t2);
    CHECK(rli_aten_cost("aten::nan_to_num", &a, &c, why, sizeof why) == 1);
    CHECK(c.flops == 3 * 2048 * 96 && c.bytes == 2 * 4 * 2048 * 96);
    int nd3[] = {1, 1, 1};
    double d3[][4] = {{2048}, {2048}, {2048}};
    const char *t3[] = {"bool", "bool", "bool"};
    a = args(3, nd3, d3, t3);
    CHECK(rli_aten_cost("aten::logical_and", &a, &c, why, sizeof why) == 1);
    CHECK(c.flops == 0 && c.bytes == 3 * 2048 && c.roof == RLI_ROOF_HBM);
  }
  /* FBGEMM's quantize ops (fbgemm_gpu/src/quantize_ops/) */
  {
    int nd[] = {2, 0, 0};
    double d[][4] = {{1000, 30}, {0}, {0}};
    const char *t[] = {"float", "Scalar", "Scalar"};
    rli_aten_args a = args(2, nd, d, t);
    /* 1000 rows of 30 floats -> rows of 32 + 8 bytes */
    CHECK(rli_aten_cost("fbgemm::FloatToFP8RowwiseQuantized", &a, &c, why, sizeof why) == 1);
    CHECK(c.flops == 0 && c.bytes == 1000 * 30 * 4 + 1000 * 40);
    CHECK(rli_aten_cost("fbgemm::FloatToHFP8Quantized", &a, &c, why, sizeof why) == 1);
    CHECK(c.bytes == 30000 * 5);
    /* rows of 40 bytes back to 32 fp32 values (the two-argument schema) */
    a.dims[0][1] = 40;
    snprintf(a.types[0], sizeof a.types[0], "unsigned char");
    CHECK(rli_aten_cost("fbgemm::FP8RowwiseQuantizedToFloat", &a, &c, why, sizeof why) == 1);
    CHECK(c.bytes == 40000 + 1000 * 32 * 4 && c.roof == RLI_ROOF_HBM);
    CHECK(rli_aten_cost("fbgemm::HFP8QuantizedToFloat", &a, &c, why, sizeof why) == 1);
    CHECK(c.bytes == 40000 * 5);
    /* with output_dtype: 1 (FP16) from Concrete Inputs, else not recorded */
    a.n_in = a.n_types = 3;
    CHECK(rli_aten_cost("fbgemm::FP8RowwiseQuantizedToFloat", &a, &c, why, sizeof why) == 0);
    CHECK(strstr(why, "output_dtype") != NULL);
    a.n_concrete = 3;
    snprintf(a.concrete[2], sizeof a.concrete[2], "1");
    CHECK(rli_aten_cost("fbgemm::FP8RowwiseQuantizedToFloat", &a, &c, why, sizeof why) == 1);
    CHECK(c.bytes == 40000 + 1000 * 32 * 2);
    /* rows too short to hold a value */
    a.dims[0][1] = 8;
    CHECK(rli_aten_cost("fbgemm::FP8RowwiseQuantizedToFloat", &a, &c, why, sizeof why) == 0);
  }
  /* tensor lists with their shapes (PyTorch 2.x): costs in elements, resolved by the kernel */
  {
    int nd[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    double d[13][4] = {{0}};
    const char *t[] = {"TensorList", "TensorList", "TensorList", "TensorList", "TensorList",
                       "TensorList", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar",
                       "Scalar", "Scalar"};
    rli_aten_args a = args(13, nd, d, t);
    /* 2021-2023: [] for every list: sizes not recorded */
    CHECK(rli_aten_cost("aten::_fused_adam_", &a, &c, why, sizeof why) == 0);
    CHECK(c.reason == RL_REASON_LISTS && strstr(why, "tensor lists") != NULL);
    CHECK(rli_aten_cost("aten::cat", &a, &c, why, sizeof why) == 0 && c.reason == RL_REASON_LISTS);
    for (int i = 0; i < 4; i++) { a.ndim[i] = RLI_ATEN_LIST; a.list_len[i] = 3; a.list_elems[i] = 1000; }
    a.ndim[5] = RLI_ATEN_LIST; a.list_len[5] = 3; a.list_elems[5] = 3; /* the step counters */
    /* Adam, no weight decay recorded: F = 13 N, Q = 7 N elements */
    CHECK(rli_aten_cost("aten::_fused_adam_", &a, &c, why, sizeof why) == 1);
    CHECK(c.flops == 13000 && c.bytes == 7000 && c.per_elem == RLI_ELEM_FLOAT && c.dtype == -1);
    /* AdamW with weight decay 0.01 and amsgrad (the fifth list not empty): 13 + 1 + 1, 9 N */
    a.n_concrete = 13;
    snprintf(a.concrete[9], sizeof a.concrete[9], "0.01");
    a.ndim[4] = RLI_ATEN_LIST; a.list_len[4] = 3; a.list_elems[4] = 1000;
    CHECK(rli_aten_cost("aten::_fused_adamw_", &a, &c, why, sizeof why) == 1);
    CHECK(c.flops == 15000 && c.bytes == 9000);
    /* Adam's weight decay is 2 per element */
    CHECK(rli_aten_cost("aten::_fused_adam_", &a, &c, why, sizeof why) == 1 && c.flops == 16000);
    /* a list of another size than the parameters' */
    a.list_elems[2] = 999;
    CHECK(rli_aten_cost("aten::_fused_adam_", &a, &c, why, sizeof why) == 0);
    CHECK(c.reason == RL_REASON_SHAPES && strstr(why, "does not match") != NULL);
    a.list_elems[2] = 1000;
    /* a list with an unusable shape (the reader's ndim -1) */
    a.ndim[3] = -1;
    CHECK(rli_aten_cost("aten::_fused_adam_", &a, &c, why, sizeof why) == 0 && c.reason == RL_REASON_SHAPES);
    a.ndim[3] = RLI_ATEN_LIST;
    /* SGD with momentum buffers (third list), weight decay 0, not the first step: 2 + 3, Q 5 N */
    a.n_concrete = 10;
    snprintf(a.concrete[3], sizeof a.concrete[3], "0");
    snprintf(a.concrete[9], sizeof a.concrete[9], "False");
    CHECK(rli_aten_cost("aten::_fused_sgd_", &a, &c, why, sizeof why) == 1);
    CHECK(c.flops == 5000 && c.bytes == 5000);
    /* foreach: addcmul_(self[], t1[], t2[], value) reads 3 lists, writes one: F 3 N, Q 4 N */
    rli_aten_args b = a;
    b.n_in = b.n_types = 4;
    snprintf(b.types[3], sizeof b.types[3], "Scalar");
    b.ndim[3] = 0;
    CHECK(rli_aten_cost("aten::_foreach_addcmul_", &b, &c, why, sizeof why) == 1);
    CHECK(c.flops == 3000 && c.bytes == 4000 && c.per_elem == RLI_ELEM_FLOAT);
    /* norm: reads the list, writes one element per tensor; zero_: writes; copy_: 2 N moved */
    b.n_in = b.n_types = 1;
    CHECK(rli_aten_cost("aten::_foreach_norm", &b, &c, why, sizeof why) == 1);
    CHECK(c.flops == 2000 && c.bytes == 1003);
    CHECK(rli_aten_cost("aten::_foreach_zero_", &b, &c, why, sizeof why) == 1);
    CHECK(c.flops == 0 && c.bytes == 1000 && c.per_elem == RLI_ELEM_MOVE);
    CHECK(rli_aten_cost("aten::_foreach_frobnicate_", &b, &c, why, sizeof why) == 0);
    CHECK(c.reason == RL_REASON_NO_MODEL);
    CHECK(rli_aten_cost("aten::cat", &b, &c, why, sizeof why) == 1);
    CHECK(c.flops == 0 && c.bytes == 2000 && c.per_elem == RLI_ELEM_MOVE);
    /* the element type from the kernel */
    rli_cost in = c, out;
    CHECK(rli_list_cost(&in, "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, "
                             "unsigned int, 1, 128, 1>(float*)", &out, why, sizeof why) == 1);
    CHECK(out.bytes == 8000 && out.flops == 0 && out.roof == RLI_ROOF_HBM && out.per_elem == 0);
    CHECK(rli_list_cost(&in, "CatArrayBatchedCopy_aligned16_contig<at::native::(anonymous "
                             "namespace)::OpaqueType<8>, unsigned int, 2, 128, 1>", &out, why,
                        sizeof why) == 1);
    CHECK(out.bytes == 16000 && strstr(why, "8 B") != NULL);
    b.n_in = b.n_types = 4;
    CHECK(rli_aten_cost("aten::_foreach_addcmul_", &b, &c, why, sizeof why) == 1);
    in = c;
    CHECK(rli_list_cost(&in, "multi_tensor_apply_kernel<TensorListMetadata<3>, "
                             "PointwiseOpScalarFunctor<c10::BFloat16, 3, 3, 0>, ...>", &out, why,
                        sizeof why) == 1);
    CHECK(out.dtype == RL_BF16 && out.bytes == 2 * in.bytes && out.flops == in.flops &&
          out.roof == RLI_ROOF_CHIP);
    CHECK(rli_list_cost(&in, "Cijk_Ailk_Bjlk_SB", &out, why, sizeof why) == 0);
    CHECK(strstr(why, "no element type") != NULL);
  }
}

/* Multi-tensor-apply kernels bounded from their grid (trace_mta.c): E =
 * max(0, G - T) x 65536 + min(G, T) elements a list; the names and grids
 * the rule refuses, each with its reason and never a NaN. */
static void test_mta(void) {
  rli_cost c;
  char why[400];
  const char *apex = "void multi_tensor_apply_kernel<TensorListMetadata<4>, AdamFunctor<float>, float, "
                     "adamMode_t, float>(int, int volatile*, TensorListMetadata<4>, AdamFunctor<float>)";
  /* apex Adam, depth 4: T = 36, 7 lists of 4 B, 13 FLOPs an element */
  CHECK(rli_mta_cost(apex, 320, &c, why, sizeof why) == 1);
  CHECK(c.bytes == (284.0 * 65536 + 36) * 7 * 4 && c.flops == 13 * (284.0 * 65536 + 36));
  CHECK(c.dtype == RL_FP32 && c.roof == RLI_ROOF_CHIP && c.lower == RLI_LOWER_BYTES);
  CHECK(rli_mta_cost(apex, 10, &c, why, sizeof why) == 1 && c.bytes == 280 && c.flops == 130);
  /* ATen, the 4 KB layout (T = 64 at depth 2), a scalar-list metadata (depth its second argument),
   * the 32 KB one (T = 448), a name without the flag above 320 blocks (32 KB: T = 448, 2240 blocks) */
#define ATEN "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::"
  CHECK(rli_mta_cost(ATEN "TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor"
                          "<float, 2, 2, 0>, std::plus<float>, float>(...)", 200, &c, why, sizeof why) == 1);
  CHECK(c.bytes == (136.0 * 65536 + 64) * 2 * 4 && c.flops == 0 && c.roof == RLI_ROOF_HBM &&
        c.lower == (RLI_LOWER_BYTES | RLI_LOWER_NOFLOPS));
  CHECK(rli_mta_cost(ATEN "TensorListScalarListMetadata<float, 1>, UnaryOpFunctor<c10::Half, 1, 1, 0>>", 120,
                     &c, why, sizeof why) == 1);
  CHECK(c.bytes == (10.0 * 65536 + 110) * 1 * 2);
  CHECK(rli_mta_cost(ATEN "TensorListMetadata<2, true>, BinaryOpListAlphaFunctor<float, 2, 2, 0>>", 1000, &c,
                     why, sizeof why) == 1);
  CHECK(c.bytes == (552.0 * 65536 + 448) * 2 * 4);
  CHECK(rli_mta_cost(ATEN "TensorListMetadata<2>, BinaryOpListAlphaFunctor<float, 2, 2, 0>>", 1000, &c, why,
                     sizeof why) == 1);
  CHECK(c.bytes == (552.0 * 65536 + 448) * 2 * 4);
  /* ATen's fused AdamW on bf16 at depth 5 (amsgrad): 9 lists of 2 B, T = 30 */
  CHECK(rli_mta_cost(ATEN "FusedOptimizerTensorListMetadata<5, false>, at::native::(anonymous namespace)::"
                          "FusedAdamMathFunctor<c10::BFloat16, 5, (at::native::ADAM_MODE)1, true>, double*>",
                     40, &c, why, sizeof why) == 1);
  CHECK(c.bytes == (10.0 * 65536 + 30) * 9 * 2 && c.dtype == RL_BF16 && c.flops == 13 * (10.0 * 65536 + 30));
  /* not a multi-tensor kernel of a known scheme: the rule says nothing */
  CHECK(rli_mta_cost("void transformer_engine::multi_tensor_apply_kernel<TensorListMetadata<4>, "
                     "AdamFunctor<float>>", 10, &c, why, sizeof why) == -1);
  CHECK(rli_mta_cost("elementwise_kernel<float>", 10, &c, why, sizeof why) == -1);
  CHECK(rli_mta_cost(NULL, 10, &c, why, sizeof why) == -1);
  /* refused: grids of no block, too many, not whole, NaN; depths 0 and 7; the 4 KB layout past 320
   * blocks; the 32 KB past 2240; no element type; no metadata; an unbalanced name */
  const double grids[] = {0, -3, 1e12, 2.5, 321, nan(""), HUGE_VAL};
  for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++) {
    CHECK(rli_mta_cost(apex, grids[i], &c, why, sizeof why) == 0);
    CHECK(strstr(why, "launch grid") != NULL && c.reason == RL_REASON_SHAPES && c.bytes < 0);
  }
  CHECK(rli_mta_cost(ATEN "TensorListMetadata<2, false>, BinaryOpListAlphaFunctor<float, 2, 2, 0>>", 321, &c,
                     why, sizeof why) == 0);
  CHECK(rli_mta_cost(ATEN "TensorListMetadata<2, true>, BinaryOpListAlphaFunctor<float, 2, 2, 0>>", 2241, &c,
                     why, sizeof why) == 0);
  CHECK(rli_mta_cost("multi_tensor_apply_kernel<TensorListMetadata<7>, AdamFunctor<float>>", 10, &c, why,
                     sizeof why) == 0 && strstr(why, "depth 7") != NULL);
  CHECK(rli_mta_cost("multi_tensor_apply_kernel<TensorListMetadata<6>, ScaleFunctor<float, float>>", 30, &c,
                     why, sizeof why) == 1 && c.bytes == (6.0 * 65536 + 24) * 6 * 4);
  CHECK(rli_mta_cost(ATEN "TensorListMetadata<6>, BinaryOpListAlphaFunctor<float, 2, 2, 0>>", 10, &c, why,
                     sizeof why) == 0);
  CHECK(rli_mta_cost(ATEN "TensorListMetadata<0>, BinaryOpListAlphaFunctor<float, 2, 2, 0>>", 10, &c, why,
                     sizeof why) == 0 && strstr(why, "depth 0") != NULL);
  CHECK(rli_mta_cost(ATEN "TensorListMetadata<x>, BinaryOpListAlphaFunctor<float, 2, 2, 0>>", 10, &c, why,
                     sizeof why) == 0);
  CHECK(rli_mta_cost(ATEN "TensorListMetadata<2, maybe>, BinaryOpListAlphaFunctor<float, 2, 2, 0>>", 10, &c,
                     why, sizeof why) == 0);
  CHECK(rli_mta_cost(ATEN "TensorListMetadata<1>, NoTypeFunctor<1, 1>>", 10, &c, why, sizeof why) == 0 &&
        strstr(why, "no element type") != NULL);
  CHECK(rli_mta_cost("multi_tensor_apply_kernel<TensorListMetadata<4>>", 10, &c, why, sizeof why) == 0);
  CHECK(rli_mta_cost("multi_tensor_apply_kernel<Something<4>, AdamFunctor<float>>", 10, &c, why, sizeof why) == 0);
  CHECK(rli_mta_cost("multi_tensor_apply_kernel<TensorListMetadata<4, AdamFunctor<float>", 10, &c, why,
                     sizeof why) == 0);
#undef ATEN
}

/* A kernel name's template arguments, one reader (rli_kernel_targs) for the element type of a
 * tensor-list op's kernel (rli_list_cost) and a multi-tensor-apply kernel's metadata and functor
 * (rli_mta_cost). Real names, from the fixtures named beside them, whole and cut short at every
 * length: a cut name gives the whole name's answer or none, never another type (a lower bound
 * stays one); an argument the name ends in is not read ("Functor<float" may be of float2). */
static void test_kernel_targs(void) {
  static const struct {
    const char *name; /* as the fixture writes it */
    double G;         /* a grid the mta rule accepts */
    double elem;      /* rli_list_cost's bytes an element */
    double mta;       /* rli_mta_cost's bytes at G (-1: the rule does not apply) */
    const char *whole; /* the text whose last character ends the type's argument */
  } k[] = {
      /* pytorch_kineto_2023_a100_ddp_input_dims.json.gz: apex's FusedAdam, T = 36, 7 lists */
      {"void multi_tensor_apply_kernel<TensorListMetadata<4>, AdamFunctor<float>, float, float, float, float, "
       "float, float, float, float, adamMode_t, float, int, int, int>(int, int volatile*, "
       "TensorListMetadata<4>, AdamFunctor<float>, float, float, float, float, float, float, float, float, "
       "adamMode_t, float, int, int, int)", 40, 4, (4.0 * 65536 + 36) * 7 * 4, "AdamFunctor<float>"},
      /* pytorch_kineto_2023_ddp128_sampled_input_dims.json.gz: _foreach_add_, T = 64, 2 lists */
      {"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
       "namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, "
       "2, 2, 0>, std::plus<float>, float>(at::native::(anonymous namespace)::TensorListMetadata<2>, "
       "at::native::(anonymous namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float)",
       100, 4, (36.0 * 65536 + 64) * 2 * 4, "BinaryOpListAlphaFunctor<float,"},
      /* pytorch_kineto_2026_mi300x_sglang_decode_graph_replay.json.gz: a copy of long to int, T = 64, the
       * smallest type of the functor's (4 B) for the rule, the first (int) for the op */
      {"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
       "namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::CopyFunctor<int, long, 2, 1, 1>, "
       "at::native::Copy<int, long> >(at::native::(anonymous namespace)::TensorListMetadata<2>, "
       "at::native::(anonymous namespace)::CopyFunctor<int, long, 2, 1, 1>, at::native::Copy<int, long>)",
       10, 4, (0.0 + 10) * 2 * 4, "CopyFunctor<int,"},
      /* pytorch_kineto_2024_a100_ddp_nccl.json.gz: cat of 8-byte elements */
      {"void at::native::(anonymous namespace)::CatArrayBatchedCopy_aligned16_contig<at::native::(anonymous "
       "namespace)::OpaqueType<8u>, unsigned int, 1, 128, 1>(at::native::(anonymous namespace)::OpaqueType<8u>*, "
       "at::native::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous "
       "namespace)::OpaqueType<8u>, unsigned int, 128, 1>, at::native::(anonymous "
       "namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)", 1, 8, -1, "OpaqueType<8u>,"},
      /* pytorch_kineto_2023_a100_ddp_input_dims.json.gz: cat of long */
      {"void at::native::(anonymous namespace)::CatArrayBatchedCopy<long, unsigned int, 2, 128, 1>(long*, "
       "at::native::(anonymous namespace)::CatArrInputTensorMetadata<long, unsigned int, 128, 1>, "
       "at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)", 1, 8, -1,
       "CatArrayBatchedCopy<long,"},
      /* aten_ops.json: ATen's fused Adam as the 2023 profiler names it, no metadata (the rule refuses) */
      {"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<FusedAdamMathFunctor<float, 4>>", 10, 4,
       0, "FusedAdamMathFunctor<float,"}};
  rli_cost in, out, c;
  char why[400], cut[600];
  rli_cost_init(&in, RL_REASON_LISTS);
  in.flops = in.bytes = 1000;
  in.per_elem = RLI_ELEM_FLOAT;
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    size_t len = strlen(k[i].name);
    CHECK(len < sizeof cut);
    CHECK(rli_list_cost(&in, k[i].name, &out, why, sizeof why) == 1 && out.bytes == 1000 * k[i].elem);
    int32_t dt = out.dtype;
    int r = rli_mta_cost(k[i].name, k[i].G, &c, why, sizeof why);
    CHECK(k[i].mta < 0 ? r == -1 : k[i].mta == 0 ? r == 0 : r == 1 && c.bytes == k[i].mta);
    int list_cut = 0, mta_cut = 0; /* the cut names that still give the answer */
    for (size_t n = 0; n < len; n++) {
      memcpy(cut, k[i].name, n);
      cut[n] = 0;
      int lr = rli_list_cost(&in, cut, &out, why, sizeof why);
      CHECK(lr == 0 || (lr == 1 && out.bytes == 1000 * k[i].elem && out.dtype == dt));
      list_cut += lr == 1;
      int mr = rli_mta_cost(cut, k[i].G, &c, why, sizeof why);
      CHECK(mr <= 0 || (k[i].mta > 0 && c.bytes == k[i].mta));
      CHECK(mr == 1 || c.bytes < 0);
      mta_cut += mr == 1;
    }
    /* once the first argument's end (its ',' or the list's '>') is read, the type is given; once the
     * functor is whole, the rule's */
    size_t whole_at = (size_t)(strstr(k[i].name, k[i].whole) - k[i].name) + strlen(k[i].whole);
    CHECK(list_cut == (int)(len - whole_at));
    CHECK(k[i].mta > 0 ? mta_cut > 0 : mta_cut == 0);
  }
  /* cut where an argument ends but its ',' is not written: no type, not the type its beginning spells */
  const char *adam = k[0].name;
  size_t at = (size_t)(strstr(adam, "AdamFunctor<float") - adam) + strlen("AdamFunctor<float");
  memcpy(cut, adam, at);
  cut[at] = 0;
  CHECK(rli_list_cost(&in, cut, &out, why, sizeof why) == 0 && strstr(why, "no element type") != NULL);
  CHECK(rli_mta_cost(cut, 40, &c, why, sizeof why) == 0 && strstr(why, "cut short") != NULL);
  /* the functor whole (its ',' read), the kernel's other arguments cut: the rule reads all it needs */
  memcpy(cut, adam, at + 2);
  cut[at + 2] = 0;
  CHECK(rli_mta_cost(cut, 40, &c, why, sizeof why) == 1 && c.bytes == k[0].mta && c.flops == 13 * (4.0 * 65536 + 36));
  CHECK(rli_list_cost(&in, "CatArrayBatchedCopy<at::native::(anonymous namespace)::OpaqueType<1", &out, why,
                      sizeof why) == 0);
  /* the reader itself: arguments trimmed, nested lists and parentheses kept, a cut list not closed */
  rli_targ a[4];
  int closed;
  CHECK(rli_kernel_targs("<c10::BFloat16, 4, (at::native::ADAM_MODE)1, false>", a, 4, &closed) == 4 && closed);
  CHECK(a[0].n == 13 && !memcmp(a[0].s, "c10::BFloat16", 13) && a[2].n == 24 && a[3].n == 5);
  CHECK(rli_kernel_targs("<std::plus<float>, float>(x)", a, 4, &closed) == 2 && closed && a[0].n == 16);
  CHECK(rli_kernel_targs("<float, 2, 2", a, 4, &closed) == 2 && !closed);
  CHECK(rli_kernel_targs("<float, 2, 2, 0, 1>", a, 4, &closed) == 4 && !closed);
  CHECK(rli_kernel_targs("<float", a, 4, &closed) == 0 && !closed);
  CHECK(rli_kernel_targs("float>", a, 4, &closed) == -1 && !closed);
  char nm[32];
  rli_targ t = {"at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4>", 66};
  const char *lt = rli_kernel_targ_name(&t, nm, sizeof nm);
  CHECK(!strcmp(nm, "FusedAdamMathFunctor") && lt && !strcmp(lt, "<float, 4>"));
  t.s = "float";
  t.n = 5;
  CHECK(rli_kernel_targ_name(&t, nm, sizeof nm) == NULL && !strcmp(nm, "float"));
}

/* The device a trace names -> the hardware id (NULL: none). Names as the
 * drivers report them (CUDA cudaDeviceProp.name, which Kineto writes in
 * deviceProperties and nvidia-smi prints; ROCm's marketing name), the
 * fixtures' names, and each branch the matcher must keep apart: A100 by its
 * name's memory or by the memory the trace gives (PCIe under 60 GB is the
 * 40 GB card, not in the table), V100 PCIe (not in the table), "a10" not
 * catching "a100", "l4" not catching "l40s". */
static void test_device_names(void) {
  static const struct { const char *name; double mem; const char *id; } cases[] = {
      {"NVIDIA A100-SXM4-80GB", 0, "nvidia-a100-sxm4-80gb"},
      {"NVIDIA A100-SXM4-80GB", 85e9, "nvidia-a100-sxm4-80gb"},
      {"NVIDIA A100-SXM4-80GB", 40e9, "nvidia-a100-sxm4-80gb"},
      {"NVIDIA A100-SXM4-40GB", 0, "nvidia-a100-sxm4-40gb"},
      {"NVIDIA A100-SXM4-40GB", 85e9, "nvidia-a100-sxm4-40gb"},
      {"NVIDIA A100-PG509-200", 42297524224.0, "nvidia-a100-sxm4-40gb"},
      {"A100-PG509-200", 40e9, "nvidia-a100-sxm4-40gb"},
      {"A100-PG509-200", 80e9, "nvidia-a100-sxm4-80gb"},
      {"A100-PG509-200", 60e9, "nvidia-a100-sxm4-80gb"},
      {"A100-PG509-200", 0, NULL},
      {"NVIDIA A100-PG509-200", 0, NULL},
      {"NVIDIA A100-SXM4", 0, NULL},
      {"NVIDIA A100-SXM4", 81e9, "nvidia-a100-sxm4-80gb"},
      {"NVIDIA A100 80GB PCIe", 0, "nvidia-a100-pcie-80gb"},
      {"NVIDIA A100 80GB PCIe", 85e9, "nvidia-a100-pcie-80gb"},
      {"NVIDIA A100-PCIE-40GB", 40e9, NULL},
      {"NVIDIA A100-PCIE-40GB", 0, "nvidia-a100-pcie-80gb"},
      {"NVIDIA A100 PCIe", 59.9e9, NULL},
      {"NVIDIA H100 80GB HBM3", 0, "nvidia-h100-sxm5"},
      {"NVIDIA H100 80GB HBM3", 85e9, "nvidia-h100-sxm5"},
      {"NVIDIA H100", 0, "nvidia-h100-sxm5"},
      {"NVIDIA H100 PCIe", 0, "nvidia-h100-pcie"},
      {"NVIDIA H100 NVL", 0, "nvidia-h100-nvl"},
      {"NVIDIA H200", 0, "nvidia-h200-sxm"},
      {"NVIDIA H200 NVL", 0, "nvidia-h200-nvl"},
      {"NVIDIA B200", 0, "nvidia-b200-hgx"},
      {"NVIDIA GB200", 0, "nvidia-gb200-gpu"},
      /* words start a token (issue 24): a GH200 (HBM3 4.0 TB/s, HBM3e 4.9) is
       * no H200 SXM (4.8 TB/s) nor an H100; which GH200, the memory the trace
       * reports decides (96 GB HBM3, 144 GB HBM3e); "480GB" is the Grace's
       * LPDDR5X, either way: without the memory, no device */
      {"NVIDIA GH200 480GB", 102e9, "nvidia-gh200-96gb"},
      {"NVIDIA GH200 480GB", 150.7e9, "nvidia-gh200-144gb"},
      {"NVIDIA GH200 480GB", 0, NULL},
      {"NVIDIA GH200 144G HBM3e", 0, "nvidia-gh200-144gb"},
      {"NVIDIA GH200 144G HBM3e", 150.7e9, "nvidia-gh200-144gb"},
      {"NVIDIA GH100", 0, NULL},
      {"NVIDIA H800", 0, "nvidia-h800-sxm"},
      {"NVIDIA H800", 85e9, "nvidia-h800-sxm"},
      {"NVIDIA H800 PCIe", 0, NULL},
      {"NVIDIA H20", 102e9, "nvidia-h20"},
      {"NVIDIA H20", 0, NULL},          /* a 96 GB and a 141 GB H20 exist */
      {"NVIDIA H20", 150e9, NULL},
      {"NVIDIA H200", 150e9, "nvidia-h200-sxm"}, /* "h20" starts "H200": the H20's rule says !h200 */
      {"NVIDIA L20", 0, "nvidia-l20"},
      {"NVIDIA L20", 48e9, "nvidia-l20"},
      {"NVIDIA A800-SXM4-80GB", 85e9, "nvidia-a800-sxm4-80gb"},
      {"NVIDIA A800-SXM4-80GB", 0, "nvidia-a800-sxm4-80gb"},
      {"NVIDIA A800 80GB PCIe", 0, NULL},
      {"NVIDIA A800 40GB Active", 0, NULL},
      {"AMD Instinct MI210", 0, "amd-mi210"},
      {"AMD Instinct MI300A", 0, "amd-mi300a"},
      {"NVIDIA H200-NVL", 0, "nvidia-h200-nvl"},
      {"AMD Instinct MI250X / MI250", 0, "amd-mi250x-gcd"},
      {"Tesla V100-SXM2-32GB", 0, "nvidia-v100-sxm2"},
      {"Tesla V100-SXM2-16GB", 16e9, "nvidia-v100-sxm2"},
      {"Tesla V100-PCIE-16GB", 0, NULL},
      {"Tesla V100-PCIE-32GB", 32e9, NULL},
      {"NVIDIA A10", 0, "nvidia-a10"},
      {"NVIDIA A10G", 0, "nvidia-a10"},
      {"NVIDIA L4", 0, "nvidia-l4"},
      {"L4", 0, "nvidia-l4"},
      {"l4", 0, "nvidia-l4"},
      {"L4 PCIe", 0, NULL},        /* today's rules: " l4" or the whole name */
      {"L40", 0, NULL},
      {"NVIDIA A100 80GB 40GB", 0, "nvidia-a100-sxm4-80gb"},
      {"NVIDIA L40S", 0, "nvidia-l40s"},
      {"L40S", 0, "nvidia-l40s"},
      {"NVIDIA L40", 0, NULL}, /* an L40 is not an L4 (the database has no L40 row) */
      {"Tesla T4", 0, "nvidia-t4"},
      {"NVIDIA GeForce RTX 4090", 0, "nvidia-rtx-4090"},
      {"NVIDIA GeForce RTX 3090", 0, "nvidia-rtx-3090"},
      {"AMD Instinct MI300X", 0, "amd-mi300x"},
      {"AMD Instinct MI325X", 0, "amd-mi325x"},
      /* a trace sees one GCD of an MI250X (two GCDs, each a device); one GCD
       * of an MI250 has an MI210's CUs, clock and HBM: its roofs */
      {"AMD Instinct MI250X", 0, "amd-mi250x-gcd"},
      {"AMD Instinct MI250", 0, "amd-mi210"},
      {"NVIDIA GeForce RTX 4080", 0, NULL},
      {"NVIDIA A30", 0, NULL},
      {"Quantum Widget", 0, NULL},
      {"", 0, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *got = rli_device_hw_id_name(cases[i].name, cases[i].mem);
    int ok = cases[i].id ? got && strcmp(got, cases[i].id) == 0 : got == NULL;
    if (!ok) fprintf(stderr, "device '%s' mem %g: got %s, want %s\n", cases[i].name, cases[i].mem,
                     got ? got : "none", cases[i].id ? cases[i].id : "none");
    CHECK(ok);
  }
  CHECK(rli_device_hw_id_name(NULL, 0) == NULL && rli_device_hw_id(NULL) == NULL);
  /* ROCm traces whose name says nothing: the gfx arch (HIP's major.minor),
   * compute units, warp and memory in deviceProperties name the device, by
   * the cc=, sms=, warp= terms of the rows' rules (a table, data/hardware.csv) */
  static const struct { const char *name; double mem; int32_t ma, mi, sms, warp; const char *id; } props[] = {
      {"", 206158430208.0, 9, 4, 304, 64, "amd-mi300x"},              /* 192 GiB */
      {"AMD Radeon Graphics", 206158430208.0, 9, 4, 304, 64, "amd-mi300x"},
      {"", 274877906944.0, 9, 4, 304, 64, "amd-mi325x"},              /* 256 GiB */
      {"", 0, 9, 4, 304, 64, NULL},                                  /* memory unknown */
      {"", 128e9, 9, 4, 228, 64, "amd-mi300a"},
      {"", 0, 9, 4, 228, 64, "amd-mi300a"},
      {"", 68702699520.0, 9, 0, 110, 64, "amd-mi250x-gcd"},
      {"AMD Radeon Graphics", 68702699520.0, 9, 0, 104, 64, "amd-mi210"}, /* the MI250 fixture */
      {"", 68702699520.0, 9, 0, 120, 64, NULL},                       /* an MI100 (gfx908): no row */
      {"", 206158430208.0, 9, 4, 304, 32, NULL},                      /* warp 32: not AMD */
      {"", 206158430208.0, 9, 4, 38, 64, NULL},                       /* an MI300X in CPX mode: one XCD */
      {"", 85e9, 9, 0, 132, 32, NULL},                                /* an unnamed H100: no rule by properties */
      {"", 0, 0, 0, 0, 0, NULL},
      {"AMD Instinct MI300X", 0, 9, 4, 304, 64, "amd-mi300x"},
  };
  for (size_t i = 0; i < sizeof props / sizeof props[0]; i++) {
    rli_devdesc d = {props[i].name, props[i].mem, props[i].ma, props[i].mi, props[i].sms, props[i].warp};
    const char *got = rli_device_hw_id(&d);
    int ok = props[i].id ? got && strcmp(got, props[i].id) == 0 : got == NULL;
    if (!ok) fprintf(stderr, "device '%s' %d.%d %d CUs warp %d mem %g: got %s, want %s\n", props[i].name,
                     props[i].ma, props[i].mi, props[i].sms, props[i].warp, props[i].mem,
                     got ? got : "none", props[i].id ? props[i].id : "none");
    CHECK(ok);
  }
  /* every built-in rule is well formed, and every id a rule gives is a row */
  int with_rules = 0;
  for (int32_t i = 0; i < rl_hw_count(); i++) {
    rl_hw h;
    CHECK(rl_hw_get(i, &h) == RL_OK);
    size_t len = 0;
    const char *bad = rli_device_rules_bad(h.profiler_names, &len);
    if (bad) fprintf(stderr, "%s: malformed rule '%.*s'\n", h.id, (int)len, bad);
    CHECK(bad == NULL);
    with_rules += h.profiler_names[0] != 0;
  }
  CHECK(with_rules == 28);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    rl_hw h;
    rl_error e;
    if (cases[i].id) CHECK(rl_hw_find(cases[i].id, NULL, 0, &h, &e) == RL_OK && strcmp(h.id, cases[i].id) == 0);
  }
  static const char *const malformed[] = {"a100 <60", ">60GB", "<GB", "<0GB", "<6x0GB", "cc=9", "cc=x.4",
                                          "cc=0.4", "sms=", "sms=0", "sms=3o4", "warp=-1", "cus=304", "=cc=9.4",
                                          "!", "^", "=", "!!a", "^!a", "=^a", "^=a", "a;", ";a", "a; ;b", " "};
  for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
    size_t len = 0;
    CHECK(rli_device_rules_bad(malformed[i], &len) != NULL);
  }
  size_t len = 0;
  const char *bad = rli_device_rules_bad("h100 pcie; a100 >=6O0GB !pcie", &len);
  CHECK(bad && len == 19 && strncmp(bad, " a100 >=6O0GB !pcie", len) == 0);
  CHECK(rli_device_rules_bad("", &len) == NULL && rli_device_rules_bad("^l4 !l40s; !<60GB a100", &len) == NULL);
  CHECK(rli_device_rules_bad("mi300x; cc=9.4 sms=304 warp=64 >=150GB <230GB; !cc=9.0", &len) == NULL);
  /* the CSV reader refuses a malformed rule, naming it */
  static const char csv[] = "id,profiler_names,bandwidth_tbs\nmy-gpu,my gpu; !<6OGB,1\n";
  rl_hw row;
  rl_error e;
  int32_t n = 0;
  CHECK(rl_hw_parse_csv(csv, sizeof csv - 1, &row, 1, &n, &e) == RL_EPARSE);
  CHECK(strstr(e.msg, "column 'profiler_names'") && strstr(e.msg, "rule ' !<6OGB' is malformed"));
}

/* A crafted modern trace: thread 1 runs aten::linear > aten::addmm, whose
 * launch (corr 10) starts kernel gemm; thread 2 runs aten::mm launching two
 * kernels (corr 20, 21); corr 30's launch is outside any op; corr 40 has no
 * launch event. Times in us. */
static const char modern[] =
    "{\"schemaVersion\":1,\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA H100 80GB HBM3\","
    "\"totalGlobalMem\":85000000000,\"computeMajor\":9,\"computeMinor\":0}],\n"
    "\"traceEvents\":[\n"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::linear\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":50,"
    "\"args\":{\"Input Dims\":[[4096,1024],[1024,1024],[1024]],\"Input type\":[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\"]}},\n"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::addmm\",\"pid\":1,\"tid\":1,\"ts\":110,\"dur\":30,"
    "\"args\":{\"Input Dims\":[[1024],[4096,1024],[1024,1024],[],[]],\"Input type\":[\"c10::BFloat16\",\"c10::BFloat16\",\"c10::BFloat16\",\"Scalar\",\"Scalar\"]}},\n"
    "{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"x.py(1): f\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":90,\"args\":{\"Python id\":3}},\n"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":\"t2\",\"ts\":100,\"dur\":40,"
    "\"args\":{\"Input Dims\":[[2048,2048],[2048,2048]],\"Input type\":[\"c10::BFloat16\",\"c10::BFloat16\"]}},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":120,\"dur\":5,\"args\":{\"correlation\":10}},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":\"t2\",\"ts\":110,\"dur\":5,\"args\":{\"correlation\":20}},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cuLaunchKernel\",\"pid\":1,\"tid\":\"t2\",\"ts\":120,\"dur\":5,\"args\":{\"correlation\":21}},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":300,\"dur\":5,\"args\":{\"correlation\":30}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":1000,\"dur\":100,\"args\":{\"correlation\":10,\"device\":0}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm2\",\"pid\":0,\"tid\":7,\"ts\":1150,\"dur\":50,\"args\":{\"correlation\":20}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"reduce\",\"pid\":0,\"tid\":7,\"ts\":1200,\"dur\":10,\"args\":{\"correlation\":21}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"tiny\",\"pid\":0,\"tid\":7,\"ts\":1300,\"dur\":2.5,\"args\":{\"correlation\":30}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"early\",\"pid\":0,\"tid\":8,\"ts\":1050,\"dur\":20,\"args\":{\"correlation\":40}},\n"
    "{\"ph\":\"f\",\"id\":10,\"pid\":0,\"tid\":7,\"ts\":1000,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"bp\":\"e\"},\n"
    "{\"name\":\"Record Window End\",\"ph\":\"i\",\"s\":\"g\",\"pid\":\"\",\"tid\":\"\",\"ts\":5000}\n"
    "],\"traceName\":\"x.json\"}\n";

static const rl_trace_row *row_named(const rl_trace *t, int32_t g, const char *name) {
  int32_t n;
  const rl_trace_row *r = rl_trace_rows(t, g, &n);
  for (int32_t i = 0; i < n; i++)
    if (!strcmp(r[i].name, name)) return &r[i];
  return NULL;
}

static void check_modern(rl_trace *t) {
  rl_hw hw;
  rl_error e;
  CHECK(rl_trace_hw(t, &hw, &e) == RL_OK);
  CHECK_STR(hw.id, "nvidia-h100-sxm5");
  rl_trace_summary s;
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  CHECK(s.kernels == 5);
  CHECK_NEAR(s.gpu_time_s, 182.5e-6, 1e-12);
  CHECK_NEAR(s.span_s, 302.5e-6, 1e-12);
  /* busy: [1000,1100] + [1150,1210] + [1300,1302.5]; "early" overlaps */
  CHECK_NEAR(s.busy_s, 162.5e-6, 1e-12);
  CHECK_NEAR(s.idle_s, 140e-6, 1e-12);
  CHECK_NEAR(s.short_s, 2.5e-6, 1e-12);
  const rl_trace_row *g = row_named(t, RL_TRACE_BY_KERNEL, "gemm");
  CHECK(g && !strcmp(g->op, "aten::addmm") && g->has_cost);
  if (g) {
    double F = 2.0 * 4096 * 1024 * 1024 + 4096.0 * 1024;
    CHECK_NEAR(g->flops, F, 1e-12);
    CHECK_NEAR(g->bound_time_s, F / hw.peak[RL_PEAK_BF16], 1e-9);
    CHECK_NEAR(g->gain_s, 100e-6 - g->bound_time_s, 1e-9);
    CHECK(g->bound == RL_BOUND_COMPUTE);
  }
  const rl_trace_row *g2 = row_named(t, RL_TRACE_BY_KERNEL, "gemm2");
  CHECK(g2 && !g2->has_cost && g2->why && strstr(g2->why, "several kernels"));
  const rl_trace_row *mm = row_named(t, RL_TRACE_BY_OP, "aten::mm");
  CHECK(mm && mm->count == 1 && mm->kernels == 2 && mm->has_cost);
  if (mm) {
    CHECK_NEAR(mm->flops, 2.0 * 2048 * 2048 * 2048, 1e-12);
    CHECK_NEAR(mm->time_s, 60e-6, 1e-12);
  }
  const rl_trace_row *tiny = row_named(t, RL_TRACE_BY_KERNEL, "tiny");
  CHECK(tiny && tiny->why && strstr(tiny->why, "inside no CPU op"));
  /* kernels launched before the window: one row, said as such */
  const rl_trace_row *early = row_named(t, RL_TRACE_BY_KERNEL, "(kernels launched before the profiling window)");
  CHECK(early && early->why && strstr(early->why, "no launch call"));
  rl_trace_info info;
  rl_trace_get_info(t, &info);
  CHECK(info.unlinked == 2);
  CHECK(info.events == 15);
  char buf[8192];
  size_t n = rl_trace_json(t, &hw, &s, 0, buf, sizeof buf);
  CHECK(n < sizeof buf && strstr(buf, "\"gpu_time_s\":0.0001825") != NULL);
  CHECK(strstr(buf, "nan") == NULL && strstr(buf, "inf") == NULL);
}

static size_t gzip_mem(const char *in, size_t n, unsigned char *out, size_t cap) {
  z_stream z;
  memset(&z, 0, sizeof z);
  deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  z.next_in = (unsigned char *)(uintptr_t)in;
  z.avail_in = (uInt)n;
  z.next_out = out;
  z.avail_out = (uInt)cap;
  deflate(&z, Z_FINISH);
  size_t r = cap - z.avail_out;
  deflateEnd(&z);
  return r;
}

static void test_link(void) {
  rl_error e;
  rl_trace *t = rl_trace_new(-1);
  CHECK(rl_trace_read_buffer(t, modern, strlen(modern), RL_TRACE_AUTO, "modern.json", &e) == RL_OK);
  check_modern(t);
  rl_trace_free(t);
  /* the same as gzip, in memory */
  unsigned char gz[8192];
  size_t gn = gzip_mem(modern, strlen(modern), gz, sizeof gz);
  t = rl_trace_new(-1);
  CHECK(rl_trace_read_buffer(t, gz, gn, RL_TRACE_AUTO, "modern.json.gz", &e) == RL_OK);
  check_modern(t);
  rl_trace_free(t);
  /* cut anywhere: an error naming the input, never a crash */
  int errs = 0;
  for (size_t cut = 1; cut < gn; cut++) {
    t = rl_trace_new(-1);
    e.msg[0] = 0;
    if (rl_trace_read_buffer(t, gz, cut, RL_TRACE_AUTO, "cut.gz", &e) != RL_OK &&
        strstr(e.msg, "cut.gz"))
      errs++;
    rl_trace_free(t);
  }
  CHECK(errs == (int)gn - 1);
  errs = 0;
  size_t ml = strlen(modern);
  for (size_t cut = 1; cut + 2 < ml; cut += 7) {
    t = rl_trace_new(-1);
    e.msg[0] = 0;
    if (rl_trace_read_buffer(t, modern, cut, RL_TRACE_KINETO, "cut.json", &e) != RL_OK &&
        strstr(e.msg, "cut.json: byte "))
      errs++;
    rl_trace_free(t);
  }
  CHECK(errs == (int)((ml - 3) / 7) + 1);
}

/* 2021 legacy categories, string tids, "external id" */
static void test_legacy(void) {
  static const char legacy[] =
      "[{\"ph\":\"X\",\"cat\":\"Operator\",\"name\":\"aten::relu_\",\"pid\":5,\"tid\":\"25738\",\"ts\":10,\"dur\":20,"
      "\"args\":{\"Input Dims\":[[128,256]],\"Input type\":[\"float\"],\"external id\":3}},"
      "{\"ph\":\"X\",\"cat\":\"Runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":5,\"tid\":\"25738\",\"ts\":12,\"dur\":4,"
      "\"args\":{\"correlation\":77,\"external id\":3}},"
      "{\"ph\":\"X\",\"cat\":\"Kernel\",\"name\":\"relu_kernel\",\"pid\":0,\"tid\":\"stream 7\",\"ts\":30,\"dur\":10,"
      "\"args\":{\"correlation\":77,\"device\":0}}]";
  rl_error e;
  rl_trace *t = rl_trace_new(-1);
  CHECK(rl_trace_read_buffer(t, legacy, strlen(legacy), RL_TRACE_AUTO, "legacy.json", &e) == RL_OK);
  rl_hw hw;
  CHECK(rl_trace_hw(t, &hw, &e) == RL_ENOTFOUND && strstr(e.msg, "give `hw` ID"));
  CHECK(rl_hw_find("v100", NULL, 0, &hw, &e) == RL_OK);
  rl_trace_summary s;
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  const rl_trace_row *r = row_named(t, RL_TRACE_BY_KERNEL, "relu_kernel");
  CHECK(r && !strcmp(r->op, "aten::relu_") && r->has_cost);
  if (r) {
    CHECK_NEAR(r->flops, 128.0 * 256, 1e-12);
    CHECK_NEAR(r->bytes, 2 * 4.0 * 128 * 256, 1e-12);
    CHECK(r->bound == RL_BOUND_OVERHEAD); /* 0.29 us of traffic < 4 us */
  }
  rl_trace_free(t);
}

/* An ncu raw page (one row per launch, units row) with gpu__time_duration */
static void test_ncu_raw(void) {
  static const char raw[] =
      "==PROF== Connected to process 1\n"
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\","
      "\"dram__bytes.sum\",\"gpu__time_duration.sum\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"sm__ops_path_tensor_src_bf16_dst_fp32.sum\"\n"
      "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"Mbyte\",\"usecond\",\"inst\",\"\"\n"
      "\"0\",\"9\",\"py\",\"h\",\"void gemm<1, 2>(int, float)\",\"1\",\"7\",\"(128, 1, 1)\",\"(132, 1, 1)\",\"0\",\"9.0\",\"1.5\",\"2.5\",\"0\",\"1,000,000,000\"\n"
      "\"1\",\"9\",\"py\",\"h\",\"axpy\",\"1\",\"7\",\"(128, 1, 1)\",\"(132, 1, 1)\",\"0\",\"9.0\",\"30\",\"10\",\"1000000\",\"0\"\n";
  rl_error e;
  rl_trace *t = rl_trace_new(-1);
  CHECK(rl_trace_read_buffer(t, raw, strlen(raw), RL_TRACE_AUTO, "raw.csv", &e) == RL_OK);
  rl_hw hw;
  rl_hw_find("h100", NULL, 0, &hw, &e);
  rl_trace_summary s;
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  CHECK(s.kernels == 2 && !s.has_span);
  CHECK_NEAR(s.gpu_time_s, 12.5e-6, 1e-12);
  const rl_trace_row *g = row_named(t, RL_TRACE_BY_KERNEL, "void gemm<1, 2>(int, float)");
  CHECK(g && g->measured && g->has_cost);
  if (g) {
    CHECK_NEAR(g->flops, 1e9, 1e-12);
    CHECK_NEAR(g->bytes, 1.5e6, 1e-12); /* 1.5 MB in 2.5 us: 600 GB/s, below the H100's 3.35 TB/s */
  }
  const rl_trace_row *a = row_named(t, RL_TRACE_BY_KERNEL, "axpy");
  CHECK(a && a->has_cost && a->bound == RL_BOUND_MEMORY);
  if (a) CHECK_NEAR(a->flops, 2e6, 1e-12);
  rl_trace_free(t);
}

/* Gains respect the floor on every real fixture and every overhead: never
 * below zero, never above the time minus one floor per execution, none for
 * overhead-bound rows; fusion savings likewise bounded */
static void check_gain_bounds(rl_trace *t, const rl_trace_summary *s) {
  for (int g = 0; g < 2; g++) {
    int32_t n = 0;
    const rl_trace_row *r = rl_trace_rows(t, g, &n);
    for (int32_t i = 0; i < n; i++) {
      if (!r[i].has_cost) continue;
      double fl = (double)r[i].count * s->floor_s;
      CHECK(r[i].at_roof_s >= r[i].bound_time_s * (1 - 1e-12));
      CHECK(r[i].count == 0 || r[i].at_roof_s >= fl * (1 - 1e-12) || r[i].why);
      if (!r[i].has_time) continue;
      /* a bound is a lower bound: no time at the roof (floor included)
       * above the measured time unless the row is above its roof */
      CHECK(r[i].roof_fraction > 1 || r[i].at_roof_s <= r[i].time_s * (1 + 1e-9) + 1e-15);
      CHECK(r[i].gain_s >= 0);
      CHECK(r[i].gain_s <= fmax(0, r[i].time_s - fl) * (1 + 1e-12) + 1e-15);
      CHECK(r[i].gain_s <= fmax(0, r[i].time_s - r[i].at_roof_s) * (1 + 1e-12) + 1e-15);
      if (r[i].bound == RL_BOUND_OVERHEAD) CHECK(r[i].gain_s == 0);
      /* on the L2 roof only when faster than DRAM allows and its bytes of
       * one run fit the L2 */
      if (r[i].roof == RL_TRACE_ROOF_L2) CHECK(r[i].note && strstr(r[i].note, "cache-resident"));
    }
  }
  int32_t nf = 0;
  const rl_trace_fusion *f = rl_trace_fusions(t, &nf);
  double sum = 0;
  for (int32_t i = 0; i < nf; i++) {
    CHECK(f[i].runs >= 1 && f[i].kernels >= 2 * f[i].runs);
    CHECK(f[i].saving_s >= 0);
    CHECK(f[i].saving_s <= f[i].time_s - (double)f[i].runs * s->floor_s + 1e-12);
    CHECK(i == 0 || f[i].saving_s <= f[i - 1].saving_s);
    sum += f[i].saving_s;
  }
  CHECK_NEAR(s->fusion_s, sum, 1e-9);
  CHECK(s->gain_s >= 0 && s->gain_s <= s->gpu_time_s);
}

/* An Nsight Compute export names no device: a device whose DRAM bandwidth is
 * over 10% below a rate the file measured is refused, naming devices that fit
 * (issue 24); the real export's rates (at most a few hundred GB/s) fit a T4 */
static void test_ncu_hw_check(void) {
  rl_error e;
  rl_trace *t = rl_trace_new(-1);
  CHECK(rl_trace_read_file(t, "tests/fixtures/traces/bad/ncu_fast_dram.csv", RL_TRACE_AUTO, &e) == RL_OK);
  rl_hw hw;
  rl_trace_summary s;
  CHECK(rl_hw_find("t4", NULL, 0, &hw, &e) == RL_OK);
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_EINVAL);
  CHECK(strstr(e.msg, "1.95 TB/s") && strstr(e.msg, "nvidia-a100-pcie-80gb (1.935 TB/s)") &&
        strstr(e.msg, "scale_kernel"));
  /* 1.95 TB/s is within 10% of an A100 PCIe 80GB's 1.935 and of 1.8 (1.98) */
  CHECK(rl_hw_find("a100-pcie", NULL, 0, &hw, &e) == RL_OK);
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  hw.mem_bw = 1.78e12; /* 1.95 / 1.78 = 1.096 */
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  hw.mem_bw = 1.77e12; /* 1.102 */
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_EINVAL);
  rl_trace_free(t);
  t = rl_trace_new(-1);
  CHECK(rl_trace_read_file(t, "tests/fixtures/traces/ncu_details_sm80_bert_flashattn.csv", RL_TRACE_AUTO, &e) == RL_OK);
  CHECK(rl_hw_find("t4", NULL, 0, &hw, &e) == RL_OK);
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  rl_trace_free(t);
}

static void test_gain_bounds(void) {
  static const char *const files[][2] = {
      {"tests/fixtures/traces/pytorch_kineto_2024_a100_ddp_nccl.json.gz", NULL},
      {"tests/fixtures/traces/pytorch_kineto_2023_a100_ddp_input_dims.json.gz", NULL},
      {"tests/fixtures/traces/ncu_details_sm80_bert_flashattn.csv", "a100-40gb"},
      {"tests/fixtures/traces/nsys_2025.1_h200_nvfuser_cross_entropy.sqlite", NULL},
      /* every other GPU fixture (issue 24's invariants: no time at the roof
       * above the measured time without the above-roof flag, any row, floors
       * included), the L2 placement among them (ddp128's cache-resident add_) */
      {"tests/fixtures/traces/pytorch_kineto_2023_ddp128_sampled_input_dims.json.gz", "a100-sxm4-80gb"},
      {"tests/fixtures/traces/pytorch_kineto_2023_a100_cupti_flop_counters.json.gz", NULL},
      {"tests/fixtures/traces/pytorch_kineto_2024_a100_inductor_triton_launch.json.gz", NULL},
      {"tests/fixtures/traces/pytorch_kineto_2024_mi250_rocm6.2_foreach_shapes.json.gz", NULL},
      {"tests/fixtures/traces/pytorch_kineto_2024_gh200_props_from_a100_inductor.json.gz", NULL},
      {"tests/fixtures/traces/pytorch_kineto_2024_mi300x_noname_props_from_mi250.json.gz", NULL},
      {"tests/fixtures/traces/shapes_training_step.json", NULL},
      {"tests/fixtures/traces/aten_ops.json", NULL},
      {"tests/fixtures/traces/promotion_ops.json", NULL}};
  const double overheads[] = {-1, 0, 1e-6, 10e-6};
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++)
    for (size_t o = 0; o < sizeof overheads / sizeof overheads[0]; o++) {
      rl_error e;
      rl_trace *t = rl_trace_new(overheads[o]);
      CHECK(rl_trace_read_file(t, files[f][0], RL_TRACE_AUTO, &e) == RL_OK);
      rl_hw hw;
      CHECK((files[f][1] ? rl_hw_find(files[f][1], NULL, 0, &hw, &e) : rl_trace_hw(t, &hw, &e)) == RL_OK);
      rl_trace_summary s;
      CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
      /* the overhead given is the cut of the regimes; the floor is it,
       * lowered to the shortest kernel timed */
      if (overheads[o] >= 0) CHECK(s.overhead_cut_s == overheads[o] && s.floor_s <= overheads[o]);
      check_gain_bounds(t, &s);
      rl_trace_free(t);
    }
}

/* Fusion runs on an ncu raw page: three consecutive small launches of
 * "k", a large kernel, "k" again alone (no run); the floor is the shortest
 * launch (2 us) */
static void test_fusion(void) {
  static const char raw[] =
      "\"ID\",\"Kernel Name\",\"dram__bytes.sum\",\"gpu__time_duration.sum\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
      "\"\",\"\",\"byte\",\"nsecond\",\"inst\"\n"
      "\"0\",\"k\",\"1000\",\"3000\",\"10\"\n"
      "\"1\",\"k\",\"1000\",\"2000\",\"10\"\n"
      "\"2\",\"k\",\"1000\",\"5000\",\"10\"\n"
      "\"3\",\"big\",\"10,000,000,000\",\"9000000\",\"0\"\n"
      "\"4\",\"k\",\"1000\",\"4000\",\"10\"\n";
  rl_error e;
  rl_trace *t = rl_trace_new(-1);
  CHECK(rl_trace_read_buffer(t, raw, strlen(raw), RL_TRACE_NCU, "fusion.csv", &e) == RL_OK);
  rl_hw hw;
  rl_hw_find("h100", NULL, 0, &hw, &e);
  rl_trace_summary s;
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  CHECK_NEAR(s.floor_s, 2e-6, 1e-12);
  CHECK(strstr(s.floor_source, "shortest launch") != NULL);
  int32_t nf = 0;
  const rl_trace_fusion *f = rl_trace_fusions(t, &nf);
  CHECK(nf == 1);
  if (nf == 1) {
    CHECK(!strcmp(f[0].name, "k") && !f[0].by_op && f[0].runs == 1 && f[0].kernels == 3);
    CHECK_NEAR(f[0].time_s, 10e-6, 1e-12);
    CHECK_NEAR(f[0].saving_s, 8e-6, 1e-12);
  }
  const rl_trace_row *k = row_named(t, RL_TRACE_BY_KERNEL, "k");
  CHECK(k && k->bound == RL_BOUND_OVERHEAD && k->gain_s == 0);
  if (k) CHECK_NEAR(k->at_roof_s, 2e-6, 1e-12); /* ncu: one row per launch */
  const rl_trace_row *b = row_named(t, RL_TRACE_BY_KERNEL, "big");
  CHECK(b && b->bound == RL_BOUND_MEMORY);
  if (b) CHECK_NEAR(b->gain_s, 9e-3 - 1e10 / hw.mem_bw, 1e-9);
  check_gain_bounds(t, &s);
  rl_trace_free(t);
  /* an overhead given by the caller is the floor: no run below it here */
  t = rl_trace_new(0);
  CHECK(rl_trace_read_buffer(t, raw, strlen(raw), RL_TRACE_NCU, "fusion.csv", &e) == RL_OK);
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  CHECK(s.floor_s == 0 && strstr(s.floor_source, "given"));
  rl_trace_fusions(t, &nf);
  CHECK(nf == 0);
  rl_trace_free(t);
}

/* The hierarchical roofline from an ncu raw page with the roofline
 * sections' peak_sustained rates: roofs from the export, the binding level,
 * speed of light beside ours, occupancy and waves; a launch without the L1
 * and L2 counters gets a DRAM-only row with a note, not an error */
static void test_ncu_hier(void) {
  static const char raw[] =
      "\"ID\",\"Kernel Name\",\"CC\",\"gpu__time_duration.sum\",\"dram__bytes.sum\",\"lts__t_bytes.sum\",\"l1tex__t_bytes.sum\","
      "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"sm__cycles_elapsed.avg.per_second\","
      "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained\",\"dram__bytes.sum.peak_sustained\","
      "\"dram__cycles_elapsed.avg.per_second\",\"lts__t_bytes.sum.peak_sustained\",\"lts__cycles_elapsed.avg.per_second\","
      "\"l1tex__t_bytes.sum.peak_sustained\",\"l1tex__cycles_elapsed.avg.per_second\","
      "\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed\","
      "\"launch__waves_per_multiprocessor\",\"sm__warps_active.avg.pct_of_peak_sustained_active\","
      "\"sm__maximum_warps_per_active_cycle_pct\"\n"
      "\"\",\"\",\"\",\"usecond\",\"byte\",\"byte\",\"byte\",\"inst\",\"cycle/second\",\"inst/cycle\",\"byte/cycle\",\"cycle/second\","
      "\"byte/cycle\",\"cycle/second\",\"byte/cycle\",\"cycle/second\",\"%\",\"%\",\"\",\"%\",\"%\"\n"
      "\"0\",\"k\",\"9.0\",\"100\",\"100,000,000\",\"400,000,000\",\"1,000,000,000\",\"500,000,000\",\"1,500,000,000\","
      "\"16,896\",\"1,000\",\"2,000,000,000\",\"5,000\",\"1,500,000,000\",\"20,000\",\"1,500,000,000\",\"20\",\"90\",\"0.5\",\"40\",\"50\"\n"
      "\"1\",\"m\",\"9.0\",\"10\",\"1,000,000\",\"n/a\",\"n/a\",\"1,000\",\"1,500,000,000\","
      "\"16,896\",\"1,000\",\"2,000,000,000\",\"5,000\",\"1,500,000,000\",\"20,000\",\"1,500,000,000\",\"1\",\"5\",\"3\",\"\",\"\"\n";
  rl_error e;
  rl_trace *t = rl_trace_new(-1);
  CHECK(rl_trace_read_buffer(t, raw, strlen(raw), RL_TRACE_AUTO, "hier.csv", &e) == RL_OK);
  rl_hw hw;
  rl_hw_find("h100", NULL, 0, &hw, &e);
  rl_trace_summary s;
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  const rl_trace_row *k = row_named(t, RL_TRACE_BY_KERNEL, "k");
  CHECK(k != NULL);
  if (k) {
    double peak = 2 * 16896 * 1.5e9, bw[3] = {20000 * 1.5e9, 5000 * 1.5e9, 1000 * 2e9};
    CHECK(k->launch_id == 0);
    CHECK_NEAR(k->compute_peak, peak, 1e-12);
    CHECK_NEAR(k->l1_bw, bw[0], 1e-12);
    CHECK_NEAR(k->l2_bw, bw[1], 1e-12);
    CHECK_NEAR(k->dram_bw, bw[2], 1e-12);
    CHECK_NEAR(k->l1_bytes, 1e9, 1e-12);
    CHECK_NEAR(k->l2_bytes, 4e8, 1e-12);
    CHECK_NEAR(k->dram_bytes, 1e8, 1e-12);
    CHECK_NEAR(k->l1_intensity, 1.0, 1e-12);
    CHECK_NEAR(k->l2_intensity, 2.5, 1e-12);
    CHECK_NEAR(k->dram_intensity, 10.0, 1e-12);
    CHECK(k->binding_level == RL_LEVEL_L2); /* 4e8 / 7.5e12 > 1e8 / 2e12 > 1e9 / 3e13 */
    CHECK_NEAR(k->binding_fraction, 4e8 / bw[1] / 100e-6, 1e-12);
    CHECK_NEAR(k->compute_fraction, 1e9 / peak / 100e-6, 1e-12);
    CHECK_NEAR(k->memory_fraction, 4e8 / bw[1] / 100e-6, 1e-12);
    CHECK_NEAR(k->sol_compute, 0.20, 1e-12);
    CHECK_NEAR(k->sol_memory, 0.90, 1e-12);
    CHECK(k->sol_disagree == 1); /* memory: 90% against 53% */
    CHECK(k->tail == 1);
    CHECK_NEAR(k->waves, 0.5, 1e-12);
    CHECK_NEAR(k->occupancy_achieved, 0.40, 1e-12);
    CHECK_NEAR(k->occupancy_theoretical, 0.50, 1e-12);
    CHECK(k->note && strstr(k->note, "20 points") && !strstr(k->note, "DRAM only"));
    CHECK(k->flops_source && strstr(k->flops_source, "SASS FP counters ("));
  }
  const rl_trace_row *m = row_named(t, RL_TRACE_BY_KERNEL, "m");
  CHECK(m != NULL);
  if (m) {
    CHECK(m->l1_bytes < 0 && m->l2_bytes < 0 && m->l1_intensity < 0 && m->l2_intensity < 0);
    CHECK(m->binding_level == RL_LEVEL_DRAM);
    CHECK(m->note && strstr(m->note, "l1tex__t_bytes.sum or lts__t_bytes.sum in the export: DRAM only"));
    CHECK(m->tail == 0 && !m->sol_disagree && m->occupancy_achieved < 0);
  }
  char buf[16384];
  size_t n = rl_trace_json(t, &hw, &s, 0, buf, sizeof buf);
  CHECK(n < sizeof buf && strstr(buf, "\"binding_level\":\"l2\"") && strstr(buf, "\"l1_bytes\":null"));
  CHECK(strstr(buf, "\"sol_disagree\":true") && strstr(buf, "\"tail_effect\":true"));
  rl_trace_free(t);
}

/* Fusion candidates by nn.Module where the trace records the module
 * hierarchy (with_stack=True: python_function events "nn.Module: X"):
 * consecutive small kernels of different ops inside one module are one
 * run of that module, keyed by its innermost module; kernels outside any
 * module keep the op key. Without the module events the same kernels are
 * runs of one op each (no run of two: nothing to fuse). */
static void test_fusion_modules(void) {
  static const char head[] =
      "{\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA H100 80GB HBM3\",\"totalGlobalMem\":85000000000,"
      "\"computeMajor\":9,\"computeMinor\":0}],\"traceEvents\":[\n";
  static const char mods[] =
      "{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"nn.Module: Block_0\",\"pid\":1,\"tid\":1,\"ts\":90,\"dur\":200},\n"
      "{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"nn.Module: LayerNorm_0\",\"pid\":1,\"tid\":1,\"ts\":95,\"dur\":60},\n"
      "{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"torch/nn/modules/module.py(1501): _call_impl\",\"pid\":1,\"tid\":1,\"ts\":96,\"dur\":58},\n"
      "{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"nn.Module: LayerNorm_1\",\"pid\":1,\"tid\":1,\"ts\":160,\"dur\":60},\n";
  static const char ops[] =
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mul\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":10},\n"
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::add\",\"pid\":1,\"tid\":1,\"ts\":120,\"dur\":10},\n"
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::rsqrt\",\"pid\":1,\"tid\":1,\"ts\":140,\"dur\":10},\n"
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mul\",\"pid\":1,\"tid\":1,\"ts\":170,\"dur\":10},\n"
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::add\",\"pid\":1,\"tid\":1,\"ts\":190,\"dur\":10},\n"
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mul\",\"pid\":1,\"tid\":1,\"ts\":300,\"dur\":10},\n"
      "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mul\",\"pid\":1,\"tid\":1,\"ts\":320,\"dur\":10},\n";
  static const char gpu[] =
      "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":102,\"dur\":2,\"args\":{\"correlation\":1}},\n"
      "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":122,\"dur\":2,\"args\":{\"correlation\":2}},\n"
      "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":142,\"dur\":2,\"args\":{\"correlation\":3}},\n"
      "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":172,\"dur\":2,\"args\":{\"correlation\":4}},\n"
      "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":192,\"dur\":2,\"args\":{\"correlation\":5}},\n"
      "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":302,\"dur\":2,\"args\":{\"correlation\":6}},\n"
      "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":322,\"dur\":2,\"args\":{\"correlation\":7}},\n"
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"mul_kernel\",\"pid\":0,\"tid\":7,\"ts\":1000,\"dur\":3,\"args\":{\"correlation\":1,\"device\":0}},\n"
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"add_kernel\",\"pid\":0,\"tid\":7,\"ts\":1004,\"dur\":3,\"args\":{\"correlation\":2,\"device\":0}},\n"
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"rsqrt_kernel\",\"pid\":0,\"tid\":7,\"ts\":1008,\"dur\":3,\"args\":{\"correlation\":3,\"device\":0}},\n"
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"mul_kernel\",\"pid\":0,\"tid\":7,\"ts\":1012,\"dur\":3,\"args\":{\"correlation\":4,\"device\":0}},\n"
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"add_kernel\",\"pid\":0,\"tid\":7,\"ts\":1016,\"dur\":3,\"args\":{\"correlation\":5,\"device\":0}},\n"
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"mul_kernel\",\"pid\":0,\"tid\":7,\"ts\":1020,\"dur\":3,\"args\":{\"correlation\":6,\"device\":0}},\n"
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"mul_kernel\",\"pid\":0,\"tid\":7,\"ts\":1024,\"dur\":3,\"args\":{\"correlation\":7,\"device\":0}}\n"
      "]}\n";
  char buf[8192];
  for (int with = 0; with < 2; with++) {
    snprintf(buf, sizeof buf, "%s%s%s%s", head, with ? mods : "", ops, gpu);
    rl_trace *t = rl_trace_new(-1);
    rl_error e;
    CHECK(rl_trace_read_buffer(t, buf, strlen(buf), RL_TRACE_KINETO, "modules.json", &e) == RL_OK);
    rl_hw hw;
    rl_hw_find("h100", NULL, 0, &hw, &e);
    rl_trace_summary s;
    CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
    int32_t nf = 0;
    const rl_trace_fusion *f = rl_trace_fusions(t, &nf);
    /* the kernels keep their ops either way */
    CHECK(row_named(t, RL_TRACE_BY_OP, "aten::mul") && row_named(t, RL_TRACE_BY_OP, "aten::add"));
    if (with) {
      /* LayerNorm_0: mul, add, rsqrt (3 kernels, 9 us); LayerNorm_1: mul, add
       * (2, 6 us); the two muls outside any module: one run of the op */
      CHECK(nf == 3);
      for (int32_t i = 0; i < nf; i++) {
        if (!strcmp(f[i].name, "nn.Module: LayerNorm_0")) {
          CHECK(f[i].by_op == 2 && f[i].runs == 1 && f[i].kernels == 3);
          CHECK_NEAR(f[i].saving_s, 9e-6 - s.floor_s, 1e-9);
        } else if (!strcmp(f[i].name, "nn.Module: LayerNorm_1")) {
          CHECK(f[i].by_op == 2 && f[i].kernels == 2);
          CHECK_NEAR(f[i].saving_s, 6e-6 - s.floor_s, 1e-9);
        } else {
          CHECK(!strcmp(f[i].name, "aten::mul") && f[i].by_op == 1 && f[i].kernels == 2);
        }
      }
      size_t n = rl_trace_json(t, &hw, &s, 0, buf, sizeof buf);
      CHECK(n < sizeof buf && strstr(buf, "\"by\":\"module\""));
    } else {
      /* by op only: the last two muls are the one run */
      CHECK(nf == 1 && nf && !strcmp(f[0].name, "aten::mul") && f[0].kernels == 2 && f[0].by_op == 1);
    }
    rl_trace_free(t);
  }
}

/* Random byte mutations of valid inputs: each read ends in RL_OK or an
 * error whose message names the input (ASan/UBSan watch the rest). The
 * mutations (a fixed seed) must reach both ends: some inputs refused, and
 * some still read, analysed and written as JSON without a nan or inf; a
 * reader that took everything, or refused everything, fails here. */
static void test_mutations(void) {
  static const char *const inputs[] = {modern, NULL};
  unsigned seed = 12345;
  int bad = 0, refused = 0, analysed = 0;
  for (int k = 0; inputs[k]; k++) {
    size_t n = strlen(inputs[k]);
    char *buf = malloc(n);
    for (int it = 0; it < 1500; it++) {
      memcpy(buf, inputs[k], n);
      int flips = 1 + (int)(seed % 4);
      for (int f = 0; f < flips; f++) {
        seed = seed * 1103515245u + 12345u;
        size_t at = (seed >> 8) % n;
        seed = seed * 1103515245u + 12345u;
        static const char pool[] = "{}[],:\"\\0123456789.eE-+ tnfax\x01\xff";
        buf[at] = pool[(seed >> 8) % (sizeof pool - 1)];
      }
      rl_trace *t = rl_trace_new(-1);
      rl_error e;
      e.msg[0] = 0;
      rl_status st = rl_trace_read_buffer(t, buf, n, RL_TRACE_AUTO, "mut", &e);
      if (st != RL_OK && !strstr(e.msg, "mut")) bad++;
      if (st != RL_OK) refused++;
      if (st == RL_OK) {
        rl_hw hw;
        rl_hw_find("h100", NULL, 0, &hw, &e);
        rl_trace_summary s;
        if (rl_trace_analyze(t, &hw, &s, &e) == RL_OK) {
          char out[16384];
          rl_trace_json(t, &hw, &s, 0, out, sizeof out);
          if (strstr(out, "nan") || strstr(out, ":inf")) bad++;
          analysed++;
        }
      }
      rl_trace_free(t);
    }
    free(buf);
  }
  CHECK(bad == 0);
  CHECK(refused > 0 && analysed > 0);
  if (!(refused > 0 && analysed > 0))
    fprintf(stderr, "  mutations: %d refused, %d analysed of 1500\n", refused, analysed);
}

/* The CLI: exactly one line on stderr, nothing on stdout, exit 2 */
/* The tokenizer's fast paths (json_scan.h/.c) against the plain reading:
 * numbers (SWAR digits) bit-identical to strtod; integers read without the
 * double; the validating skip over the window, its fallback and its
 * messages. Each text is read from memory through a fresh tokenizer. */
typedef struct js_case {
  rli_src s;
  rli_js p;
  rl_error err;
} js_case;

static int js_start(js_case *c, const char *text) {
  memset(c, 0, sizeof *c);
  rli_src_open_mem(&c->s, text, strlen(text), "t");
  return rli_js_open(&c->p, &c->s, &c->err);
}

static void js_end(js_case *c) {
  rli_js_close(&c->p);
  rli_src_close(&c->s);
}

/* skip the value of text; "" and the offset after it, or the message */
static const char *js_skip(const char *text, uint64_t *at) {
  static char m[RL_ERROR_MSG_MAX];
  js_case *c = calloc(1, sizeof *c);
  if (!c || !js_start(c, text)) { free(c); return "no memory"; }
  m[0] = 0;
  if (setjmp(c->p.jb)) {
    snprintf(m, sizeof m, "%s", c->err.msg);
  } else {
    rli_js_skip(&c->p, 0);
    *at = rli_js_here(&c->p);
  }
  js_end(c);
  free(c);
  return m;
}

/* the number at the start of text: 1 and its value, type and end, or 0 */
static int js_num(const char *text, double *v, int *isint, size_t *end) {
  js_case *c = calloc(1, sizeof *c);
  volatile int ok = 0;
  if (c && js_start(c, text)) {
    if (!setjmp(c->p.jb)) {
      *v = rli_js_number(&c->p, isint);
      *end = c->p.pos;
      ok = 1;
    }
    js_end(c);
  }
  free(c);
  return ok;
}

/* rli_js_int at the start of text: its answer (-1 an error), value, end */
static int js_int(const char *text, int64_t *v, size_t *end) {
  js_case *c = calloc(1, sizeof *c);
  volatile int r = -1;
  if (c && js_start(c, text)) {
    if (!setjmp(c->p.jb)) {
      rli_js_ws(&c->p); /* the window filled, as the reader has it */
      r = rli_js_int(&c->p, v);
      *end = c->p.pos;
    }
    js_end(c);
  }
  free(c);
  return r;
}

static void test_json_scan(void) {
  /* numbers: every length of integer and fraction part, signs */
  unsigned long long seed = 29;
  int bad = 0;
  for (int t = 0; t < 3000; t++) {
    char tok[64];
    size_t n = 0;
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    int ni = 1 + (int)((seed >> 33) % 19), nf = (int)((seed >> 40) % 12);
    if (seed >> 62 & 1) tok[n++] = '-';
    for (int i = 0; i < ni; i++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      tok[n++] = (char)('0' + (i == 0 && ni > 1 ? 1 + (int)((seed >> 35) % 9) : (int)((seed >> 35) % 10)));
    }
    if (nf) {
      tok[n++] = '.';
      for (int i = 0; i < nf; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        tok[n++] = (char)('0' + (int)((seed >> 35) % 10));
      }
    }
    tok[n] = 0;
    char text[80];
    snprintf(text, sizeof text, "%s,", tok);
    int isint = -1;
    double v = 0, w = strtod(tok, NULL);
    size_t end = 0;
    if (!js_num(text, &v, &isint, &end) || memcmp(&v, &w, sizeof v) != 0 || end != n || isint != !nf) {
      if (bad++ < 5) fprintf(stderr, "  number %s: %.17g want %.17g, end %zu, isint %d\n", tok, v, w, end, isint);
    }
    /* with 80 bytes after it in the window: the inline decimal
     * (rli_js_dec) where it takes the number, the same value and end */
    char padded[200];
    snprintf(padded, sizeof padded, "%s,%100s", tok, "");
    isint = -1;
    v = 0;
    if (!js_num(padded, &v, &isint, &end) || memcmp(&v, &w, sizeof v) != 0 || end != n || isint != !nf) {
      if (bad++ < 5) fprintf(stderr, "  padded number %s: %.17g want %.17g, end %zu, isint %d\n", tok, v, w, end, isint);
    }
    /* a plain integer of at most 15 digits goes the integer way */
    int64_t iv = 0;
    int want = !nf && ni <= 15;
    int took = js_int(text, &iv, &end);
    if (took != want || (want && (iv != (int64_t)w || end != n))) {
      if (bad++ < 5) fprintf(stderr, "  integer %s: %d want %d, %lld\n", tok, took, want, (long long)iv);
    }
  }
  CHECK(bad == 0);
  /* what rli_js_dec leaves to the general number (an error there): a
   * leading zero, no digit, nothing after the point, an exponent, more
   * digits than it takes */
  {
    const char *num[] = {"01", "-", "-.5", "1.", "1.5e3", "00.5", "1.5.5", "12345678901234567890.5",
                         "1234567890123456.5", "1.12345678", "9007199254740993.1", "0", "-0", "0.5"};
    const int good[] = {0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1};
    for (size_t i = 0; i < sizeof num / sizeof *num; i++) {
      char padded[200];
      snprintf(padded, sizeof padded, "%s,%100s", num[i], "");
      double v = 0, w = strtod(num[i], NULL);
      int isint;
      size_t end = 0;
      int ok = js_num(padded, &v, &isint, &end);
      CHECK(ok == good[i]);
      if (ok && good[i]) CHECK(memcmp(&v, &w, sizeof v) == 0 && end == strlen(num[i]));
      if (ok != good[i]) fprintf(stderr, "  decimal %s: %d\n", num[i], ok);
    }
  }
  /* what rli_js_int leaves to rli_js_number */
  const char *notint[] = {"01,", "-,", "1.5,", "1e3,", "1234567890123456,", "-0.0,", "7"};
  for (size_t i = 0; i < sizeof notint / sizeof *notint; i++) {
    int64_t iv;
    size_t end = 9;
    CHECK(js_int(notint[i], &iv, &end) == 0 && end == 0);
  }
  /* skipped values: where each ends, or what is wrong with it */
  struct { const char *text; long at; const char *err; } sk[] = {
    {"{\"a\": [1, -2.5e+3, true, null, false, \"x\\\"\\u00e9\\n\"], \"b\": {}} ,", 62, ""},
    {"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]] ", 129, ""},
    {"\"a string of more than thirty-two bytes, scanned 32 at a time\" ", 62, ""},
    {"{\"a\" 1}", 0, "t: byte 5: expected ':' after a key, found '1'"},
    {"[1 2]", 0, "t: byte 3: expected ',' or ']' in an array, found '2'"},
    {"{\"a\": 01}", 0, "t: byte 6: malformed number"},
    {"{\"a\": \"\\x\"}", 0, "t: byte 7: bad escape in a string"},
    {"{\"a\": \"\\u12g4\"}", 0, "t: byte 7: bad \\u escape"},
    {"[1, {\"b\": [tru]}]", 0, "t: byte 11: expected a value (a string, number, object, array, true, false or null)"},
    {"{\"a\": [1, 2", 0, "t: byte 11: the text ends where ',' or ']' in an array was expected (truncated file?)"},
    {"[\"a\tb\"]", 0, "t: byte 3: control character inside a string"},
  };
  for (size_t i = 0; i < sizeof sk / sizeof *sk; i++) {
    uint64_t at = 0;
    const char *m = js_skip(sk[i].text, &at);
    CHECK(strcmp(m, sk[i].err) == 0);
    if (strcmp(m, sk[i].err)) fprintf(stderr, "  skip %zu: \"%s\"\n", i, m);
    if (!sk[i].err[0]) CHECK(at == (uint64_t)sk[i].at);
    if (!sk[i].err[0] && at != (uint64_t)sk[i].at) fprintf(stderr, "  skip %zu: ends at %llu\n", i, (unsigned long long)at);
  }
  /* nesting: 64 levels past the fast skip's stack, 512 the reader's limit */
  for (int d = 60; d <= 520; d += (d < 70 ? 1 : d < 505 ? 100 : 1)) {
    char *t = malloc((size_t)d * 2 + 4);
    if (!t) break;
    memset(t, '[', (size_t)d);
    t[d] = '0';
    memset(t + d + 1, ']', (size_t)d);
    memcpy(t + 2 * d + 1, " ,", 3);
    uint64_t at = 0;
    const char *m = js_skip(t, &at);
    if (d <= 512) CHECK(m[0] == 0 && at == (uint64_t)(2 * d + 1));
    else CHECK(strstr(m, "nesting deeper than 512 levels") != NULL);
    free(t);
  }
}

static void test_cli_error(void) {
  char *o = NULL, *er = NULL;
  size_t on = 0, en = 0;
  FILE *out = open_memstream(&o, &on), *err = open_memstream(&er, &en);
  char *argv[] = {"roofline", "trace", "tests/fixtures/traces/bad/invalid.json", NULL};
  int rc = cli_main(3, argv, out, err);
  fclose(out);
  fclose(err);
  CHECK(rc == 2);
  CHECK(on == 0);
  int lines = 0;
  for (size_t i = 0; i < en; i++) lines += er[i] == '\n';
  CHECK(lines == 1);
  CHECK(strstr(er, "invalid.json: byte 68:") != NULL);
  free(o);
  free(er);
}

/* --plot writes an SVG with the top kernels (the linked ops' names) */
static void test_cli_plot(void) {
  char path[] = "/tmp/rl_trace_plot_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  close(fd);
  char *o = NULL, *er = NULL;
  size_t on = 0, en = 0;
  FILE *out = open_memstream(&o, &on), *err = open_memstream(&er, &en);
  char *argv[] = {"roofline", "trace", "tests/fixtures/traces/pytorch_kineto_2023_a100_ddp_input_dims.json.gz",
                  "--plot", path, "--top", "4", NULL};
  int rc = cli_main(7, argv, out, err);
  fclose(out);
  fclose(err);
  CHECK(rc == 0 && en == 0);
  FILE *f = fopen(path, "rb");
  char buf[65536];
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f) fclose(f);
  buf[n] = 0;
  CHECK(n > 1000 && strstr(buf, "<svg") && strstr(buf, "</svg>"));
  CHECK(strstr(buf, "elementwise_kernel") != NULL);
  remove(path);
  free(o);
  free(er);
}

/* collectives: the spellings of every PyTorch era, nccl-tests' factors,
 * S by convention, and unusable figures said, not fatal */
static void test_coll(void) {
  static const struct { const char *n; int32_t k; } sp[] = {
      {"nccl:all_reduce", RLI_COLL_ALLREDUCE}, {"allreduce", RLI_COLL_ALLREDUCE},
      {"c10d::allreduce_", RLI_COLL_ALLREDUCE}, {"nccl:_all_gather_base", RLI_COLL_ALLGATHER},
      {"_allgather_base", RLI_COLL_ALLGATHER}, {"all_gather_into_tensor", RLI_COLL_ALLGATHER},
      {"reduce_scatter_tensor", RLI_COLL_REDUCESCATTER}, {"nccl:_reduce_scatter_base", RLI_COLL_REDUCESCATTER},
      {"nccl:all_to_all", RLI_COLL_ALLTOALL}, {"alltoall_base", RLI_COLL_ALLTOALL},
      {"broadcast", RLI_COLL_BROADCAST}, {"nccl:reduce", RLI_COLL_REDUCE}, {"send", RLI_COLL_SENDRECV},
      {"nccl:recv 0<-1", RLI_COLL_SENDRECV}, {"barrier", -1}, {"gloo:all_reduce", -1}};
  for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++) CHECK(rli_coll_kind(sp[i].n) == sp[i].k);
  CHECK_NEAR(rli_coll_factor(RLI_COLL_ALLREDUCE, 8), 2.0 * 7 / 8, 1e-15);
  CHECK_NEAR(rli_coll_factor(RLI_COLL_ALLGATHER, 8), 7.0 / 8, 1e-15);
  CHECK_NEAR(rli_coll_factor(RLI_COLL_ALLTOALL, 4), 3.0 / 4, 1e-15);
  CHECK(rli_coll_factor(RLI_COLL_BROADCAST, 4) == 1 && rli_coll_factor(RLI_COLL_ALLREDUCE, 1) == 0);
  rli_aten_args a;
  memset(&a, 0, sizeof a);
  a.has_coll = 1;
  snprintf(a.coll_name, sizeof a.coll_name, "allgather");
  snprintf(a.coll_dtype, sizeof a.coll_dtype, "BFloat16");
  a.in_nelems = 1000;
  a.out_nelems = 8000;
  a.group_size = 8;
  rli_cost c;
  char why[160];
  /* all-gather: S is the output, 8000 x 2 B */
  CHECK(rli_coll_from_args(&a, &c, why, sizeof why) == 1);
  CHECK(c.bytes == 16000 && c.ranks == 8 && c.roof == RLI_ROOF_NET && c.dtype == RL_BF16);
  snprintf(a.coll_name, sizeof a.coll_name, "reduce_scatter_tensor");
  CHECK(rli_coll_from_args(&a, &c, why, sizeof why) == 1 && c.bytes == 2000);
  a.group_size = 0;
  CHECK(rli_coll_from_args(&a, &c, why, sizeof why) == 0 && c.reason == RL_REASON_SHAPES);
  CHECK(strstr(why, "group size 0") != NULL);
  a.group_size = -1; /* not recorded: the world size stands in later */
  CHECK(rli_coll_from_args(&a, &c, why, sizeof why) == 1 && c.ranks == 0);
  a.in_nelems = -7;
  CHECK(rli_coll_from_args(&a, &c, why, sizeof why) == 0 && strstr(why, "negative"));
  a.in_nelems = 1e18;
  CHECK(rli_coll_from_args(&a, &c, why, sizeof why) == 0 && strstr(why, "absurd"));
  snprintf(a.coll_dtype, sizeof a.coll_dtype, "Quaternion");
  a.in_nelems = 10;
  CHECK(rli_coll_from_args(&a, &c, why, sizeof why) == 0 && c.reason == RL_REASON_COLL_NO_SIZE);
  /* nccl:* ops: S from Input Dims; a tensor list has no recorded size */
  {
    int nd[] = {2};
    double d[][4] = {{8192, 384}};
    const char *t[] = {"float"};
    rli_aten_args b = args(1, nd, d, t);
    CHECK(rli_aten_cost("nccl:_all_gather_base", &b, &c, why, sizeof why) == 1);
    CHECK(c.bytes == 8192.0 * 384 * 4 && c.per_rank == 1 && c.ranks == 0);
    CHECK(rli_aten_cost("nccl:all_reduce", &b, &c, why, sizeof why) == 1 && c.per_rank == 0);
    int nd2[] = {-1};
    const char *t2[] = {"TensorList"};
    rli_aten_args l = args(1, nd2, d, t2);
    CHECK(rli_aten_cost("c10d::allreduce_", &l, &c, why, sizeof why) == 0);
    CHECK(c.reason == RL_REASON_COLL_NO_SIZE);
    /* PyTorch 2.x: the list's shapes, still no element type */
    l.ndim[0] = RLI_ATEN_LIST;
    l.list_len[0] = 2;
    l.list_elems[0] = 100;
    CHECK(rli_aten_cost("c10d::allreduce_", &l, &c, why, sizeof why) == 0);
    CHECK(c.reason == RL_REASON_COLL_NO_SIZE && strstr(why, "element type is not") != NULL);
  }
  CHECK_STR(rli_kernel_family("triton_poi_fused_add_0"), "Triton pointwise");
  CHECK_STR(rli_kernel_family("triton_red_fused_sum_1"), "Triton reduction");
  CHECK_STR(rli_kernel_family("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"), "NCCL");
  CHECK_STR(rli_kernel_family("sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x32"), "GEMM library (cuBLAS/CUTLASS)");
  CHECK_STR(rli_kernel_family("void cudnn::bn_bw_1C11_kernel_new<float>()"), "cuDNN / convolution");
  /* FBGEMM's kernels are not GEMMs, though "fbgemm" ends in "gemm" */
  CHECK_STR(rli_kernel_family("void fbgemm_gpu::_block_bucketize_sparse_features_cuda_kernel2<false, false, false, int, int, decltype(nullptr)>(int, int, int const*)"), "FBGEMM");
  CHECK_STR(rli_kernel_family("void split_embedding_codegen_forward_unweighted_kernel<float, float, float, false, long, 1ul, 16ul>(fbgemm_gpu::FixedDivisor, long)"), "FBGEMM");
  CHECK_STR(rli_kernel_family("void fbgemm_gpu::f8f8bf16_rowwise_gemm_kernel<128>()"), "GEMM library (cuBLAS/CUTLASS)");
  CHECK_STR(rli_kernel_family("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>()"), "ATen elementwise");
  /* the kernel's own name, not its template arguments or parameters:
   * real names from public profiles (nsys/Kineto kernel tables posted in
   * PyTorch, SGLang, vLLM, DeepEP and TensorRT-LLM issues and reports) */
  static const struct { const char *name, *own, *family; } fam[] = {
      {"void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(c10::BFloat16*, unsigned long, unsigned int**, unsigned long, unsigned long)",
       "(anonymous namespace)::multimem_all_reduce_kernel", "collective (not NCCL)"},
      {"void <unnamed>::multimem_all_reduce_kernel<c10::BFloat16, (int)16>(T1 *, unsigned long, unsigned int **, unsigned long, unsigned long)",
       "<unnamed>::multimem_all_reduce_kernel", "collective (not NCCL)"},
      {"void flashinfer::trtllm_allreduce_fusion::allreduce_fusion_kernel_oneshot_lamport<(flashinfer::trtllm_allreduce_fusion::AllReduceFusionPattern)1, __nv_bfloat16, 8, false, false>(flashinfer::trtllm_allreduce_fusion::AllReduceFusionParams<__nv_bfloat16>)",
       "flashinfer::trtllm_allreduce_fusion::allreduce_fusion_kernel_oneshot_lamport", "collective (not NCCL)"},
      {"void tensorrt_llm::kernels::quantize_with_block_size<(tensorrt_llm::BlockScaleQuantizationType)2, __nv_bfloat16, 32, true, false, false, false, std::integral_constant<bool, false> >(int, int, int, int, __nv_bfloat16 const*, float const*, void*, unsigned int*, flashinfer::QuantizationSFLayout)",
       "tensorrt_llm::kernels::quantize_with_block_size", "quantize / dequantize"},
      {"void moe::dev::finalize::finalizeKernel<moe::dev::finalize::KernelParams<cutlass::bfloat16_t, cutlass::bfloat16_t, 4, true> >(moe::dev::finalize::KernelParams<cutlass::bfloat16_t, cutlass::bfloat16_t, 4, true>)",
       "moe::dev::finalize::finalizeKernel", "MoE routing / finalize"},
      {"void moe::dev::routing::routingCustom::routingIndicesBlockKernel<moe::dev::routing::routingCustom::KernelParams<__nv_bfloat16, __nv_bfloat16, 128, 4, moe::dev::routing::TopKExpertSelect<moe::dev::routing::NoOpPreprocess, moe::dev::routing::SoftmaxPostprocess> > >(int)",
       "moe::dev::routing::routingCustom::routingIndicesBlockKernel", "MoE routing / finalize"},
      {"void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*, long*, float*, int*, int*, int4 const*, float const*, long const*, float const*, bool const*, int const*, int, int, int, int, int, int, int, int, void**, int, int, int)",
       "deep_ep::intranode::dispatch", "all-to-all (MoE dispatch/combine)"},
      {"void deep_ep::intranode::combine<__nv_bfloat16, (int)8, (int)768, (int)4096>(T1 *, float *, int, int)",
       "deep_ep::intranode::combine", "all-to-all (MoE dispatch/combine)"},
      {"void dpsk::ep::internode::dispatch_ll", "dpsk::ep::internode::dispatch_ll", "all-to-all (MoE dispatch/combine)"},
      {"void cutlass::device_kernel<at::cuda::detail::enable_3x_kernel_for_sm9x<cutlass::gemm::kernel::GemmUniversal<> > >(int)",
       "cutlass::device_kernel", "GEMM library (cuBLAS/CUTLASS)"},
      {"void splitKreduce_kernel<32, 16, int, float, float, float, float, true, false, false>(cublasSplitKParams<float>, float const*, float*)",
       "splitKreduce_kernel", "GEMM library (cuBLAS/CUTLASS)"},
      {"fmhaSm100fKernel_QkvBfloat16OBfloat16H64PagedKvCausalP64MultiCtasKvVarSeqQ8Kv128StaticSwapsAbForGen",
       "fmhaSm100fKernel_QkvBfloat16OBfloat16H64PagedKvCausalP64MultiCtasKvVarSeqQ8Kv128StaticSwapsAbForGen", "attention"},
      {"void at::native::<unnamed>::distribution_elementwise_grid_stride_kernel<float, (int)4, void at::native::templates::cuda::normal_and_transform<float, float>(int)>(long, at::PhiloxCudaState, T3, T4)",
       "at::native::<unnamed>::distribution_elementwise_grid_stride_kernel", "ATen elementwise"},
      {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<(unsigned long)4096>)",
       "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "NCCL"},
      {"Memcpy HtoD (Pageable -> Device)", "Memcpy HtoD", "memcpy"},
  };
  for (size_t i = 0; i < sizeof fam / sizeof fam[0]; i++) {
    char own[256];
    rli_kernel_own_name(fam[i].name, own, sizeof own);
    CHECK_STR(own, fam[i].own);
    CHECK_STR(rli_kernel_family(fam[i].name), fam[i].family);
  }
  /* the format a kernel's tensor cores ran, from its name (issue 24): the
   * fixtures' TF32 GEMMs and convolutions, fp32 SIMT GEMMs, quantized GEMMs;
   * an elementwise conversion kernel says nothing */
  CHECK(rli_kernel_precision("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x128_32x3_nn_align1>(cutlass_80_tensorop_s1688gemm_256x128_32x3_nn_align1::Params)") == RL_TF32);
  CHECK(rli_kernel_precision("sm80_xmma_dgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer") == RL_TF32);
  CHECK(rli_kernel_precision("ampere_tf32_s1688gemm_tf32_128x128_32x3_nn") == RL_TF32);
  CHECK(rli_kernel_precision("_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS_10tfloat32_tEEE") == RL_TF32);
  CHECK(rli_kernel_precision("ampere_sgemm_128x64_nn") == -1);
  CHECK(rli_kernel_precision("sm90_xmma_gemm_e4m3e4m3_e4m3f32_f32_tn_n_tilesize128x128x64") == RL_FP8);
  CHECK(rli_kernel_precision("void fbgemm_gpu::f8f8bf16_rowwise_gemm_kernel<128>()") == RL_FP8);
  CHECK(rli_kernel_precision("bmm_MxE4m3_MxE2m1E4m3_Fp32_t128x8x256u2_s6_et64x8_m64x8x32_cga1x1x1_16dp256b_rM_TN_transOut_schedS_batchN_sm100f") == RL_FP8);
  CHECK(rli_kernel_precision("void cutlass::device_kernel<nvfp4_gemm_sm100>()") == RL_FP4);
  CHECK(rli_kernel_precision("void cutlass::Kernel<cutlass_80_tensorop_i16832gemm_s8_256x128_64x3_tn_align16>()") == RL_INT8);
  CHECK(rli_kernel_precision("sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x32") == -1);
  CHECK(rli_kernel_precision("void at::native::vectorized_elementwise_kernel<4, fbgemm_gpu::_float_to_hfp8_gpu(at::Tensor const&, long, long, double)::{lambda(float)#1}>()") == -1);
  CHECK(rli_kernel_precision("") == -1);
}

/* The ATen models on the hand-made training step (make_shapes.py): every
 * op's F and Q as golden_figures.py computes them from the raw file. */
static void test_shapes(void) {
  static const struct { const char *op; double F, Q; } want[] = {
      {"aten::cudnn_convolution", 3699376128, 38830080},
      {"aten::convolution_backward", 7398752256, 77660160},
      {"aten::cudnn_batch_norm", 25690112, 25693184},
      {"aten::cudnn_batch_norm_backward", 28901376, 38537216},
      {"aten::relu_", 3211264, 25690112},
      {"aten::threshold_backward", 3211264, 38535168},
      {"aten::max_pool2d_with_indices", 7225344, 22478848},
      {"aten::max_pool2d_with_indices_backward", 802816, 22478848},
      {"aten::_adaptive_avg_pool2d", 806912, 3227648},
      {"aten::_log_softmax", 160000, 256000},
      {"aten::_log_softmax_backward_data", 128000, 384000},
      {"aten::nll_loss_forward", 32, 384},
      {"aten::nll_loss_backward", 32, 128256},
      {"aten::native_layer_norm_backward", 301989888, 150999552},
      {"aten::gelu_backward", 805306368, 603979776},
      {"aten::native_dropout", 75497472, 125829120},
      {"aten::_scaled_dot_product_flash_attention_backward", 4.378853376e+10, 134217728},
      {"aten::embedding_dense_backward", 25165824, 127860736},
      {"aten::sum", 262144, 1048576},
      {"aten::fill_", 0, 9216},
      {"aten::zero_", 0, 8192},
      {"aten::where", 4096, 53248},
      {"aten::addmm", 131104000, 8586144},
      /* autograd nodes without shapes, from their forward op's */
      {"AddmmBackward0", 262176000, 17296288},
      {"ReluBackward0", 3211264, 38535168}};
  rl_trace *t = rl_trace_new(-1);
  rl_error e;
  CHECK(rl_trace_read_file(t, "tests/fixtures/traces/shapes_training_step.json", 0, &e) == RL_OK);
  rl_hw hw;
  rl_trace_summary s;
  CHECK(rl_trace_hw(t, &hw, &e) == RL_OK && rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const rl_trace_row *r = row_named(t, RL_TRACE_BY_OP, want[i].op);
    CHECK(r && r->has_cost);
    if (!r || !r->has_cost) { fprintf(stderr, "  no F and Q for %s\n", want[i].op); continue; }
    CHECK_NEAR(r->flops, want[i].F, 1e-12);
    CHECK_NEAR(r->bytes, want[i].Q, 1e-12);
  }
  /* all but the tensor-list op: 3.8 of 3.9 ms */
  CHECK_NEAR(s.coverage, 3.8 / 3.9, 1e-9);
  CHECK(s.n_uncovered == 1 && s.uncovered[0].reason == RL_REASON_LISTS);
  rl_trace_free(t);
  /* the handler table is sorted for its binary search */
  for (size_t i = 1; rli_aten_name(i); i++) CHECK(strcmp(rli_aten_name(i - 1), rli_aten_name(i)) < 0);
}

/* A failed check that says what is wrong. */
__attribute__((format(printf, 1, 2))) static void fail_msg(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "test_trace: FAILED: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  harness_failed++;
}

/* Every golden file's text, one after another (NULL when none is read). */
static char *golden_text(void) {
  DIR *d = opendir("tests/golden");
  if (!d) return NULL;
  char *all = NULL;
  size_t n = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    size_t l = strlen(de->d_name);
    if (l < 8 || strcmp(de->d_name + l - 7, ".golden") != 0) continue;
    char path[512];
    snprintf(path, sizeof path, "tests/golden/%s", de->d_name);
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0) {
      char *m = realloc(all, n + k + 1);
      if (!m) break;
      all = m;
      memcpy(all + n, buf, k);
      n += k;
      all[n] = 0;
    }
    fclose(f);
  }
  closedir(d);
  return all;
}

/* Does a golden case expect an op row of this name ("name=aten::add", or
 * its in-place form "aten::add_"), ending at a space or the line's end? */
static int golden_names(const char *text, const char *full) {
  char key[200];
  snprintf(key, sizeof key, "name=%s", full);
  size_t kl = strlen(key);
  for (const char *p = text; (p = strstr(p, key)) != NULL; p += kl) {
    const char *e = p + kl;
    if (*e == '_') e++;
    if (*e == ' ' || *e == '\n' || *e == 0) return 1;
  }
  return 0;
}

/* Every row of the ATen table: a name, a handler with a formula, an op
 * kind that exists, the op model's formula for every name it knows (the
 * trace's aten::gelu and `roofline op gelu` from one formula), finite
 * FLOPs per element, and a golden case (tests/golden/aten.golden). */
static void test_aten_table(void) {
  char *gold = golden_text();
  CHECK(gold != NULL);
  size_t rows = 0;
  rli_aten_row r;
  for (size_t i = 0; rli_aten_row_info(i, &r); i++, rows++) {
    if (!r.name || !*r.name) { fail_msg("ATen row %zu has no name", i); continue; }
    if (!r.formula) fail_msg("ATen row '%s' has no handler with a formula (formulas[])", r.name);
    if (r.kind >= 0 && !rl_op_name(r.kind)) fail_msg("ATen row '%s': op kind %d does not exist", r.name, (int)r.kind);
    if (!isfinite(r.per_elem) || r.per_elem < 0)
      fail_msg("ATen row '%s': FLOPs per element %g", r.name, r.per_elem);
    int32_t k;
    rl_error e;
    if (rl_op_parse(r.name, &k, &e) == RL_OK && k != RL_OP_KERNEL) {
      /* gelu: the erf form unless the call asks for tanh (h_act picks) */
      int same = r.kind == k || (k == RL_OP_GELU_TANH && r.kind == RL_OP_GELU_ERF);
      if (!same)
        fail_msg("ATen row '%s' is the op model's '%s' but costs by %s", r.name, rl_op_name(k),
                 r.kind >= 0 ? rl_op_name(r.kind) : "its own formula");
    }
    char full[160];
    snprintf(full, sizeof full, "%s%s", strchr(r.name, ':') ? "" : "aten::", r.name);
    if (gold && !golden_names(gold, full))
      fail_msg("ATen row '%s' has no golden case (an ops.N.name=%s expectation in tests/golden/)",
               r.name, full);
  }
  CHECK(rows > 100);
  free(gold);

  /* the op kind's formula, through rl_op_cost, gives a routed row's F and
   * Q: the same call costed both ways */
  char why[256];
  rli_cost c;
  rl_cost oc;
  rl_error err;
  {
    int nd[2] = {2, 2};
    double d[2][4] = {{64, 512}, {64, 512}};
    const char *t[2] = {"float", "float"};
    rli_aten_args a = args(2, nd, d, t);
    static const struct { const char *name; int32_t kind; } bin[] = {
        {"aten::add", RL_OP_ADD}, {"aten::sub", RL_OP_SUB}, {"aten::mul_", RL_OP_MUL},
        {"aten::div", RL_OP_DIV}};
    for (size_t i = 0; i < sizeof bin / sizeof bin[0]; i++) {
      rl_op op = rl_op_init(bin[i].kind, RL_FP32);
      op.n = 64 * 512;
      CHECK(rl_op_cost(&op, &oc, &err) == RL_OK);
      CHECK(rli_aten_cost(bin[i].name, &a, &c, why, sizeof why) == 1);
      CHECK(c.flops == oc.flops && c.bytes == oc.bytes);
    }
    /* a broadcast operand is read once at its size: Q below 3ns */
    a.dims[1][0] = 1;
    CHECK(rli_aten_cost("aten::add", &a, &c, why, sizeof why) == 1);
    CHECK(c.flops == 64 * 512 && c.bytes == 4.0 * (64 * 512 * 2 + 512));
  }
  {
    /* conv2d(input [8,16,32,32], weight [32,16,3,3], bias [32], stride 2, padding 1) */
    int nd[7] = {4, 4, 1, 0, 0, 0, 0};
    double d[7][4] = {{8, 16, 32, 32}, {32, 16, 3, 3}, {32}};
    const char *t[7] = {"c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "ScalarList", "ScalarList", "ScalarList", "Scalar"};
    rli_aten_args a = args(7, nd, d, t);
    a.n_concrete = 7;
    snprintf(a.concrete[3], sizeof a.concrete[3], "[2, 2]");
    snprintf(a.concrete[4], sizeof a.concrete[4], "[1, 1]");
    snprintf(a.concrete[5], sizeof a.concrete[5], "[1, 1]");
    snprintf(a.concrete[6], sizeof a.concrete[6], "1");
    rl_op op = rl_op_init(RL_OP_CONV2D, RL_BF16);
    op.batch = 8, op.c_in = 16, op.h = 32, op.w = 32, op.c_out = 32, op.kh = 3, op.kw = 3;
    op.stride = 2, op.pad = 1, op.flags = RL_OP_BIAS;
    CHECK(rl_op_cost(&op, &oc, &err) == RL_OK);
    CHECK(rli_aten_cost("aten::conv2d", &a, &c, why, sizeof why) == 1);
    CHECK(c.flops == oc.flops && c.bytes == oc.bytes && c.tensor == 1);
    /* dilation 2: no conv2d of ops.c describes it; the N-d formula (output 15 x 15) */
    snprintf(a.concrete[5], sizeof a.concrete[5], "[2, 2]");
    CHECK(rli_aten_cost("aten::conv2d", &a, &c, why, sizeof why) == 1);
    CHECK(c.flops == 2.0 * 8 * 32 * 15 * 15 * 16 * 9 + 8 * 32 * 15 * 15);
  }
}

/* A 2023-style trace: no Concrete Inputs, so the forward convolution's
 * stride and padding are unknown; its output size comes from the backward
 * op of the same autograd node (Sequence number 7): grad_output
 * [8, 32, 16, 16]. */
static const char conv_seq[] =
    "{\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA A100-SXM4-80GB\"}],\"traceEvents\":[\n"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::convolution\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":50,"
    "\"args\":{\"Sequence number\":7,\"Input Dims\":[[8,16,32,32],[32,16,3,3],[],[],[],[],[],[],[]],"
    "\"Input type\":[\"float\",\"float\",\"\",\"ScalarList\",\"ScalarList\",\"ScalarList\",\"Scalar\",\"ScalarList\",\"Scalar\"]}},\n"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::cudnn_convolution\",\"pid\":1,\"tid\":1,\"ts\":110,\"dur\":30,"
    "\"args\":{\"Input Dims\":[[8,16,32,32],[32,16,3,3],[],[],[],[]],"
    "\"Input type\":[\"float\",\"float\",\"ScalarList\",\"ScalarList\",\"ScalarList\",\"Scalar\"]}},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":115,\"dur\":5,\"args\":{\"correlation\":1}},\n"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"autograd::engine::evaluate_function: ConvolutionBackward0\",\"pid\":1,\"tid\":1,\"ts\":500,\"dur\":100,"
    "\"args\":{\"Sequence number\":7}},\n"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"ConvolutionBackward0\",\"pid\":1,\"tid\":1,\"ts\":505,\"dur\":90,"
    "\"args\":{\"Sequence number\":7}},\n"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::convolution_backward\",\"pid\":1,\"tid\":1,\"ts\":510,\"dur\":80,"
    "\"args\":{\"Input Dims\":[[8,32,16,16],[8,16,32,32],[32,16,3,3],[],[],[],[],[],[],[],[]],"
    "\"Input type\":[\"float\",\"float\",\"float\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"]}},\n"
    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":520,\"dur\":5,\"args\":{\"correlation\":2}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"fwd\",\"pid\":0,\"tid\":7,\"ts\":1000,\"dur\":50,\"args\":{\"correlation\":1}},\n"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"bwd\",\"pid\":0,\"tid\":7,\"ts\":1100,\"dur\":90,\"args\":{\"correlation\":2}}\n"
    "]}\n";

static void test_conv_seq(void) {
  rl_trace *t = rl_trace_new(-1);
  rl_error e;
  CHECK(rl_trace_read_buffer(t, conv_seq, strlen(conv_seq), 0, "conv_seq", &e) == RL_OK);
  rl_hw hw;
  rl_trace_summary s;
  CHECK(rl_trace_hw(t, &hw, &e) == RL_OK && rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  /* forward: 2 N C_out H_o W_o (C_in/g) kh kw with H_o = W_o = 16 from the
   * backward; Q = 4 (input + output + weight) */
  const rl_trace_row *f = row_named(t, RL_TRACE_BY_OP, "aten::cudnn_convolution");
  CHECK(f && f->has_cost && f->note && strstr(f->note, "inferred"));
  if (f && f->has_cost) {
    CHECK_NEAR(f->flops, 2.0 * 8 * 32 * 16 * 16 * 16 * 9, 1e-12);
    CHECK_NEAR(f->bytes, 4.0 * (8 * 16 * 32 * 32 + 8 * 32 * 16 * 16 + 32 * 16 * 9), 1e-12);
  }
  /* backward without Concrete Inputs: groups from the shapes, data and
   * weight gradients, each with the forward's MACs */
  const rl_trace_row *b = row_named(t, RL_TRACE_BY_OP, "aten::convolution_backward");
  CHECK(b && b->has_cost && !b->note);
  if (b && b->has_cost) {
    CHECK_NEAR(b->flops, 2 * 2.0 * 8 * 32 * 16 * 16 * 16 * 9, 1e-12);
    CHECK_NEAR(b->bytes, 2 * 4.0 * (8 * 32 * 16 * 16 + 32 * 16 * 9 + 8 * 16 * 32 * 32), 1e-12);
  }
  CHECK_NEAR(s.coverage, 1.0, 1e-12);
  rl_trace_free(t);
}

/* The same forward convolution with no backward (an inference trace): its
 * output size from the first input of the op that starts first after the
 * whole call (conv2d > convolution > cudnn_convolution), here
 * cudnn_batch_norm's [8, 32, 16, 16]; its F and Q must equal those the
 * backward's grad_output gives in conv_seq. In conv_bad the next op's
 * input has 16 channels, not the weight's 32, and in conv_far its spatial
 * size (40) no stride and padding of at most kernel - 1 can give from 32
 * with a 3x3 kernel: both left uncovered. */
#define CONV_FWD(next_dims) \
  "{\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA A100-SXM4-80GB\"}],\"traceEvents\":[\n" \
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::conv2d\",\"pid\":1,\"tid\":1,\"ts\":95,\"dur\":60," \
  "\"args\":{\"Input Dims\":[[8,16,32,32],[32,16,3,3],[],[],[],[],[]]," \
  "\"Input type\":[\"float\",\"float\",\"\",\"ScalarList\",\"ScalarList\",\"ScalarList\",\"Scalar\"]}},\n" \
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::convolution\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":50," \
  "\"args\":{\"Input Dims\":[[8,16,32,32],[32,16,3,3],[],[],[],[],[],[],[]]," \
  "\"Input type\":[\"float\",\"float\",\"\",\"ScalarList\",\"ScalarList\",\"ScalarList\",\"Scalar\",\"ScalarList\",\"Scalar\"]}},\n" \
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::cudnn_convolution\",\"pid\":1,\"tid\":1,\"ts\":110,\"dur\":30," \
  "\"args\":{\"Input Dims\":[[8,16,32,32],[32,16,3,3],[],[],[],[]]," \
  "\"Input type\":[\"float\",\"float\",\"ScalarList\",\"ScalarList\",\"ScalarList\",\"Scalar\"]}},\n" \
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":115,\"dur\":5,\"args\":{\"correlation\":1}},\n" \
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::reshape\",\"pid\":1,\"tid\":1,\"ts\":142,\"dur\":3," \
  "\"args\":{\"Input Dims\":[[32],[]],\"Input type\":[\"float\",\"ScalarList\"]}},\n" \
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::cudnn_batch_norm\",\"pid\":1,\"tid\":1,\"ts\":160,\"dur\":20," \
  "\"args\":{\"Input Dims\":[" next_dims ",[32],[32],[32],[32],[],[],[]]," \
  "\"Input type\":[\"float\",\"float\",\"float\",\"float\",\"float\",\"Scalar\",\"Scalar\",\"Scalar\"]}},\n" \
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"fwd\",\"pid\":0,\"tid\":7,\"ts\":1000,\"dur\":50,\"args\":{\"correlation\":1}}\n" \
  "]}\n"
static const char conv_cons[] = CONV_FWD("[8,32,16,16]");
static const char conv_bad[] = CONV_FWD("[8,16,16,16]");
static const char conv_far[] = CONV_FWD("[8,32,40,40]");

static void test_conv_consumer(void) {
  static const struct { const char *text; int covered; } cases[] = {
      {conv_cons, 1}, {conv_bad, 0}, {conv_far, 0}};
  /* the F and Q conv_seq's backward gives */
  rl_trace *t = rl_trace_new(-1);
  rl_error e;
  rl_hw hw;
  rl_trace_summary s;
  CHECK(rl_trace_read_buffer(t, conv_seq, strlen(conv_seq), 0, "conv_seq", &e) == RL_OK);
  CHECK(rl_trace_hw(t, &hw, &e) == RL_OK && rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  const rl_trace_row *ref = row_named(t, RL_TRACE_BY_OP, "aten::cudnn_convolution");
  CHECK(ref && ref->has_cost);
  double F = ref && ref->has_cost ? ref->flops : -1, Q = ref && ref->has_cost ? ref->bytes : -1;
  rl_trace_free(t);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    t = rl_trace_new(-1);
    CHECK(rl_trace_read_buffer(t, cases[i].text, strlen(cases[i].text), 0, "conv_cons", &e) == RL_OK);
    CHECK(rl_trace_hw(t, &hw, &e) == RL_OK && rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
    const rl_trace_row *f = row_named(t, RL_TRACE_BY_OP, "aten::cudnn_convolution");
    CHECK(f && f->has_cost == cases[i].covered);
    if (cases[i].covered && f && f->has_cost) {
      CHECK(f->note && strstr(f->note, "the op after it (aten::cudnn_batch_norm)"));
      CHECK_NEAR(f->flops, F, 1e-12);
      CHECK_NEAR(f->bytes, Q, 1e-12);
    }
    rl_trace_free(t);
  }
}

/* Autograd nodes whose kernels run right under them (no shaped op of
 * their own): each takes its backward's cost from the forward op of the
 * same Sequence number whose name it names. AddmmBackward0 (seq 5) from
 * aten::addmm's [64] + [32, 128] x [128, 64]; ReluBackward0 (seq 6) from
 * aten::relu_'s [32, 64]; MmBackward0 (seq 9) has two aten::mm with seq 9
 * (two forward threads): ambiguous, left uncovered; MulBackward0 (seq 5)
 * names no forward op of seq 5: left uncovered. */
#define NODE_OP(name, tid, ts, dur, args) \
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"" name "\",\"pid\":1,\"tid\":" #tid ",\"ts\":" #ts \
  ",\"dur\":" #dur ",\"args\":{" args "}},\n"
#define NODE_LAUNCH(tid, ts, corr) \
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":" #tid \
  ",\"ts\":" #ts ",\"dur\":2,\"args\":{\"correlation\":" #corr "}},\n"
#define NODE_KERNEL(name, ts, corr) \
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" name "\",\"pid\":0,\"tid\":7,\"ts\":" #ts \
  ",\"dur\":10,\"args\":{\"correlation\":" #corr "}}"
static const char node_seq[] =
    "{\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA A100-SXM4-80GB\"}],\"traceEvents\":[\n"
    NODE_OP("aten::addmm", 1, 100, 20, "\"Sequence number\":5,\"Fwd thread id\":0,"
            "\"Input Dims\":[[64],[32,128],[128,64],[],[]],"
            "\"Input type\":[\"float\",\"float\",\"float\",\"Scalar\",\"Scalar\"]")
    NODE_LAUNCH(1, 105, 1)
    NODE_OP("aten::relu_", 1, 130, 10, "\"Sequence number\":6,\"Fwd thread id\":0,"
            "\"Input Dims\":[[32,64]],\"Input type\":[\"float\"]")
    NODE_LAUNCH(1, 132, 2)
    NODE_OP("aten::mm", 1, 150, 10, "\"Sequence number\":9,\"Fwd thread id\":0,"
            "\"Input Dims\":[[32,32],[32,32]],\"Input type\":[\"float\",\"float\"]")
    NODE_OP("aten::mm", 2, 152, 10, "\"Sequence number\":9,\"Fwd thread id\":0,"
            "\"Input Dims\":[[64,64],[64,64]],\"Input type\":[\"float\",\"float\"]")
    NODE_OP("autograd::engine::evaluate_function: ReluBackward0", 3, 500, 30,
            "\"Sequence number\":6,\"Fwd thread id\":1")
    NODE_OP("ReluBackward0", 3, 502, 20, "\"Sequence number\":6,\"Fwd thread id\":1")
    NODE_LAUNCH(3, 505, 3)
    NODE_OP("AddmmBackward0", 3, 540, 40, "\"Sequence number\":5,\"Fwd thread id\":1")
    NODE_LAUNCH(3, 545, 4)
    NODE_LAUNCH(3, 560, 5)
    NODE_OP("MmBackward0", 3, 600, 20, "\"Sequence number\":9,\"Fwd thread id\":1")
    NODE_LAUNCH(3, 605, 6)
    NODE_OP("MulBackward0", 3, 640, 20, "\"Sequence number\":5,\"Fwd thread id\":1")
    NODE_LAUNCH(3, 645, 7)
    NODE_KERNEL("gemm_fwd", 1000, 1) ",\n" NODE_KERNEL("relu_fwd", 1100, 2) ",\n"
    NODE_KERNEL("relu_bwd", 1200, 3) ",\n" NODE_KERNEL("gemm_dgrad", 1300, 4) ",\n"
    NODE_KERNEL("gemm_wgrad", 1400, 5) ",\n" NODE_KERNEL("mm_bwd", 1500, 6) ",\n"
    NODE_KERNEL("mul_bwd", 1600, 7) "\n"
    "]}\n";

static void test_node_seq(void) {
  rl_trace *t = rl_trace_new(-1);
  rl_error e;
  CHECK(rl_trace_read_buffer(t, node_seq, strlen(node_seq), 0, "node_seq", &e) == RL_OK);
  rl_hw hw;
  rl_trace_summary s;
  CHECK(rl_trace_hw(t, &hw, &e) == RL_OK && rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  /* addmm's backward (derivatives.yaml): G [32, 64] x B^T [64, 128] and
   * A^T [128, 32] x G, 2mnk FLOPs and (mk + kn + mn) 4 B each, and the
   * bias's gradient: G summed over its 32 rows (32 x 64 adds, G read, 64
   * floats written) */
  const rl_trace_row *a = row_named(t, RL_TRACE_BY_OP, "AddmmBackward0");
  CHECK(a && a->has_cost && a->note && strstr(a->note, "forward op aten::addmm"));
  if (a && a->has_cost) {
    CHECK_NEAR(a->flops, 2 * 2.0 * 32 * 64 * 128 + 32 * 64, 1e-12);
    CHECK_NEAR(a->bytes, 2 * 4.0 * (32 * 64 + 64 * 128 + 128 * 32) + 4.0 * 32 * 64 + 4.0 * 64, 1e-12);
  }
  /* relu's: threshold_backward(G, result, 0): one select per element, G
   * and the result read, grad_input written */
  const rl_trace_row *r = row_named(t, RL_TRACE_BY_OP, "ReluBackward0");
  CHECK(r && r->has_cost && r->note && strstr(r->note, "aten::relu_"));
  if (r && r->has_cost) {
    CHECK_NEAR(r->flops, 32.0 * 64, 1e-12);
    CHECK_NEAR(r->bytes, 3 * 4.0 * 32 * 64, 1e-12);
  }
  const rl_trace_row *m = row_named(t, RL_TRACE_BY_OP, "MmBackward0");
  CHECK(m && !m->has_cost);
  const rl_trace_row *u = row_named(t, RL_TRACE_BY_OP, "MulBackward0");
  CHECK(u && !u->has_cost);
  /* covered: the two forward kernels and the three of the linked nodes */
  CHECK_NEAR(s.coverage, 5.0 / 7, 1e-12);
  rl_trace_free(t);
  /* the names */
  CHECK(rli_aten_node_of("AddmmBackward0", "aten::addmm"));
  CHECK(rli_aten_node_of("LogSoftmaxBackward0", "aten::_log_softmax"));
  CHECK(rli_aten_node_of("ReluBackward0", "aten::relu_"));
  CHECK(!rli_aten_node_of("AddmmBackward0", "aten::mm"));
  CHECK(!rli_aten_node_of("MmBackward0", "aten::addmm"));
  CHECK(!rli_aten_node_of("autograd::engine::evaluate_function: MmBackward0", "aten::mm"));
  CHECK(!rli_aten_is_node("Backward0"));
  CHECK(!rli_aten_is_node("ConvolutionBackward"));
}

/* The timeline in order (one pass per stream and device, no copy: the
 * repairs, the busy-time union and the fusion runs) and the
 * same events reversed (through a sorted index) give the same repairs,
 * busy time and fusion runs: 2 devices x 2 streams, a duplicate, an
 * overlap on one stream, a kernel of another stream inside it (no equal
 * starts across streams: those keep file order). */
static void timeline_json(int reversed, char *out, size_t cap, rl_trace_summary *s) {
  static const char *const k[] = {
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"a\",\"pid\":0,\"tid\":7,\"ts\":10,\"dur\":2,\"args\":{\"device\":0,\"stream\":7}}",
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"a\",\"pid\":0,\"tid\":7,\"ts\":10,\"dur\":2,\"args\":{\"device\":0,\"stream\":7}}",
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"a\",\"pid\":0,\"tid\":7,\"ts\":11,\"dur\":3,\"args\":{\"device\":0,\"stream\":7}}",
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"b\",\"pid\":0,\"tid\":8,\"ts\":11.5,\"dur\":1,\"args\":{\"device\":0,\"stream\":8}}",
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"c\",\"pid\":1,\"tid\":7,\"ts\":20,\"dur\":1,\"args\":{\"device\":1,\"stream\":7}}",
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"c\",\"pid\":1,\"tid\":7,\"ts\":21,\"dur\":1,\"args\":{\"device\":1,\"stream\":7}}",
      "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"c\",\"pid\":1,\"tid\":9,\"ts\":30,\"dur\":1,\"args\":{\"device\":1,\"stream\":9}}"};
  enum { NK = sizeof k / sizeof k[0] };
  char buf[4096];
  size_t n = (size_t)snprintf(buf, sizeof buf, "{\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA A100-SXM4-80GB\"}],\"traceEvents\":[");
  for (int i = 0; i < NK; i++)
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? "," : "", k[reversed ? NK - 1 - i : i]);
  snprintf(buf + n, sizeof buf - n, "]}");
  rl_error e;
  rl_trace *t = rl_trace_new(-1);
  CHECK(rl_trace_read_buffer(t, buf, strlen(buf), RL_TRACE_KINETO, "order.json", &e) == RL_OK);
  rl_hw hw;
  rl_hw_find("a100-80gb", NULL, 0, &hw, &e);
  CHECK(rl_trace_analyze(t, &hw, s, &e) == RL_OK);
  int32_t nf = 0;
  const rl_trace_fusion *f = rl_trace_fusions(t, &nf);
  snprintf(out, cap, "fusion %d %lld %lld", (int)nf, nf ? (long long)f[0].runs : 0LL,
           nf ? (long long)f[0].kernels : 0LL);
  rl_trace_free(t);
}

static void test_timeline_order(void) {
  char a[200], b[200];
  rl_trace_summary sa, sb;
  timeline_json(0, a, sizeof a, &sa);
  timeline_json(1, b, sizeof b, &sb);
  CHECK(!strcmp(a, b));
  CHECK(sa.duplicates == 1 && sb.duplicates == 1);
  CHECK(sa.overlapping == 1 && sb.overlapping == 1);
  CHECK(sa.devices == 2 && sb.devices == 2);
  CHECK_NEAR(sa.busy_s, 7e-6, 1e-15);
  CHECK_NEAR(sb.busy_s, 7e-6, 1e-15);
  CHECK_NEAR(sa.span_s, 21e-6, 1e-15);
  CHECK_NEAR(sb.span_s, 21e-6, 1e-15);
  /* the floor is the shortest kernel, 1 us: the run a,a (5 us, the
   * duplicate dropped) saves 4 us, the run c,c,c of device 1 (3 us) 2 us */
  CHECK_NEAR(sa.floor_s, 1e-6, 1e-15);
  CHECK_NEAR(sa.fusion_s, 6e-6, 1e-15);
  CHECK_NEAR(sb.fusion_s, 6e-6, 1e-15);
  CHECK(sa.kernels == 6 && sb.kernels == 6);
}

/* The kernel store (trace.c) against the wide record: random kernels, each
 * time a Kineto one ((N / 1000 - origin) x 1e-6), an nsys one (N x 1e-9),
 * near 2^63 ns, fractional ns, -0, NaN, infinities or random bits; starts
 * that go back and jump by 2^40 ns; ids that repeat, step by one or jump;
 * then set anew in random order (linking) and read back in reverse. Every
 * field must come back bit for bit. */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) {
  rnd_state ^= rnd_state << 13;
  rnd_state ^= rnd_state >> 7;
  rnd_state ^= rnd_state << 17;
  return rnd_state;
}

static int same_kernel(const rli_kernel *a, const rli_kernel *b) {
  return !memcmp(&a->start_s, &b->start_s, sizeof a->start_s) &&
         !memcmp(&a->dur_s, &b->dur_s, sizeof a->dur_s) && a->name == b->name && a->op == b->op &&
         a->cost == b->cost && a->inst == b->inst && a->device == b->device &&
         a->kind == b->kind && a->stream == b->stream;
}

static double rnd_time(int start, double origin, int64_t *n) {
  uint64_t r = rnd() % 12;
  if (r < 4) { /* nearly in order, sometimes back, sometimes a huge gap */
    uint64_t g = rnd() % 8;
    *n += g == 0 ? -(int64_t)(rnd() % 5000) : g == 1 ? (int64_t)1 << 40 : (int64_t)(rnd() % 4000);
    return start ? ((double)*n / 1000.0 - origin) * 1e-6 : ((double)(*n & 0xffffff) / 1000.0) * 1e-6;
  }
  if (r < 6) return (double)(int64_t)(rnd() % 4000000) * 1e-9;              /* nsys */
  if (r == 6) return (double)(INT64_MAX - (int64_t)(rnd() % 4096)) * 1e-9;    /* near 2^63 ns */
  if (r == 7) return ((double)(rnd() % 100000000) + 0.37) * 1e-12;           /* fractional ns */
  if (r == 8) return start ? -0.0 : -1.0;
  if (r == 9) {
    double v[3] = {(double)NAN, HUGE_VAL, -HUGE_VAL};
    return v[rnd() % 3];
  }
  uint64_t bits = rnd();
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

static void rnd_kernel(rl_trace *t, rli_kernel *k, double origin, int64_t *n, int i) {
  static const uint32_t special[] = {RLI_NONE, RLI_UNLINKED, 0, 1, 0x7fffffffu};
  k->start_s = rnd_time(1, origin, n);
  k->dur_s = rnd_time(0, origin, n);
  char name[16];
  snprintf(name, sizeof name, "k%d", (int)(rnd() % 5));
  k->name = rli_trace_str(t, name, strlen(name));
  k->op = rnd() % 3 ? RLI_NONE : rli_trace_str(t, "op", 2);
  k->cost = rnd() % 4 ? RLI_NONE : special[rnd() % 5];
  uint64_t r = rnd() % 4;
  k->inst = r == 0 ? (uint32_t)i : r == 1 ? (uint32_t)i / 8 : special[rnd() % 5];
  k->device = rnd() % 4 ? (int32_t)(rnd() % 3) : (int32_t)(uint32_t)rnd();
  k->stream = (uint16_t)(rnd() % 3 ? 7 : rnd());
  k->kind = (int16_t)(rnd() % 3);
}

static void test_kernel_store(void) {
  enum { N = 3000 };
  rli_kernel *want = malloc(sizeof *want * N);
  rl_trace *t = rl_trace_new(-1);
  rl_error e;
  int64_t n = 1700000000000000ll; /* ns, as Kineto's ts */
  double origin = 1700000000000.0;
  rli_trace_time_origin(t, origin);
  int ok = 1;
  for (int i = 0; i < N; i++) {
    if (i == N / 2) { /* a second file: another origin from the middle of a block */
      origin = 12345.678;
      n = 12345678;
      rli_trace_time_origin(t, origin);
    }
    rnd_kernel(t, &want[i], origin, &n, i);
    if (rli_trace_add(t, &want[i], &e) != RL_OK) ok = 0;
    /* a duration under 1 ps is kept as no time (rli_trace_add) */
    if (want[i].dur_s >= 0 && want[i].dur_s < 1e-12) want[i].dur_s = -1;
  }
  CHECK(ok && rli_trace_nkernels(t) == N);
  int same = 0;
  rli_kernel k;
  for (int i = 0; i < N; i++) same += rli_trace_kernel_get(t, (size_t)i, &k) && same_kernel(&k, &want[i]);
  CHECK(same == N);
  /* set anew (what linking changes, and times too), in random order */
  for (int j = 0; j < N; j++) {
    int i = (int)(rnd() % N);
    want[i].op = rnd() % 2 ? RLI_NONE : (uint32_t)(rnd() % 7);
    want[i].inst = rnd() % 2 ? (uint32_t)rnd() : want[i].inst + 1;
    want[i].cost = rnd() % 2 ? want[i].cost : RLI_NONE;
    if (rnd() % 5 == 0) want[i].start_s = rnd_time(1, origin, &n);
    if (rli_trace_kernel_set(t, (size_t)i, &want[i], &e) != RL_OK) ok = 0;
  }
  CHECK(ok);
  same = 0;
  for (int i = N - 1; i >= 0; i--) same += rli_trace_kernel_get(t, (size_t)i, &k) && same_kernel(&k, &want[i]);
  CHECK(same == N);
  CHECK(!rli_trace_kernel_get(t, N, &k));
  /* appended after the sets: the last block was encoded again */
  rnd_kernel(t, &want[0], origin, &n, 0);
  CHECK(rli_trace_add(t, &want[0], &e) == RL_OK);
  CHECK(rli_trace_kernel_get(t, N, &k) && same_kernel(&k, &want[0]));
  rl_trace_free(t);
  free(want);
}

/* The launch calls packed (ids increasing), in two runs of increasing
 * ids (one launch out of order), and in 16-byte records (past 256 runs
 * they are unpacked): the same links. Launches with fractional-ns times
 * and ids past 32 bits are kept wide in all; two kernels of a CUDA graph
 * share a launch. */
static void launch_trace(int disorder, char *out, size_t cap) {
  char *buf = malloc(400000);
  size_t n = (size_t)snprintf(buf, 400000, "{\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA A100-SXM4-80GB\"}],\"traceEvents\":[");
  const char *ops[] = {"aten::mm", "aten::add", "aten::relu"};
  for (int i = 0; i < 400; i++) {
    double ts = 1700000000000.0 + 10.0 * i;
    long long corr = i < 300 ? 5 + 3 * i : (1ll << 32) + i; /* past 32 bits at the end */
    if (i % 4 == 0)
      n += (size_t)snprintf(buf + n, 400000 - n,
                            "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"%s\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":39},",
                            ops[(i / 4) % 3], 1 + (i / 4) % 2, ts);
    n += (size_t)snprintf(buf + n, 400000 - n,
                          "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":%d,\"ts\":%.*f,\"dur\":%s,\"args\":{\"correlation\":%lld}},",
                          1 + (i / 4) % 2, i % 7 == 3 ? 5 : 3, ts + 1.0001, i % 5 ? "0.500" : "1.25", corr);
  }
  for (int j = 0; j < (disorder == 1 ? 1 : disorder == 2 ? 300 : 0); j++) /* ids no kernel has */
    n += (size_t)snprintf(buf + n, 400000 - n,
                          "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":1700000000000.5,\"dur\":1,\"args\":{\"correlation\":%d}},",
                          3 * (300 - j));
  for (int i = 0; i < 400; i++) {
    long long corr = i < 300 ? 5 + 3 * i : (1ll << 32) + i;
    if (i % 9 == 8) corr -= 3; /* a graph's second kernel: the launch before */
    n += (size_t)snprintf(buf + n, 400000 - n,
                          "%s{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k%d\",\"pid\":0,\"tid\":7,\"ts\":%.3f,\"dur\":3,\"args\":{\"device\":0,\"stream\":7,\"correlation\":%lld}}",
                          i ? "," : "", i % 3, 1700000000000.0 + 10.0 * i + 4, corr);
  }
  snprintf(buf + n, 400000 - n, "]}");
  rl_error e;
  rl_trace *t = rl_trace_new(-1);
  CHECK(rl_trace_read_buffer(t, buf, strlen(buf), RL_TRACE_KINETO, "launch.json", &e) == RL_OK);
  rl_hw hw;
  rl_hw_find("a100-80gb", NULL, 0, &hw, &e);
  rl_trace_summary s;
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  rl_trace_json(t, &hw, &s, 0, out, cap);
  rl_trace_free(t);
  free(buf);
}

static void test_launch_pack(void) {
  size_t cap = 1 << 20;
  char *a = malloc(cap), *b = malloc(cap);
  launch_trace(0, a, cap);
  launch_trace(1, b, cap);
  CHECK(!strcmp(a, b));
  launch_trace(2, b, cap);
  CHECK(!strcmp(a, b));
  CHECK(strstr(a, "\"unlinked\":0,") != NULL);
  CHECK(strstr(a, "\"ops_total\":3,") != NULL);
  free(a);
  free(b);
}

/* Custom ops (data/custom_ops.csv, src/core/trace_custom.c): the kinds the
 * fixtures do not reach, figures by hand from each kind's formula. */
static void set_concrete(rli_aten_args *a, int n, const char *const *v) {
  a->n_concrete = n;
  for (int i = 0; i < n; i++) snprintf(a->concrete[i], sizeof a->concrete[i], "%s", v[i]);
}

static void test_custom(void) {
  rli_cost c;
  char why[320], note[320];
  /* the table is sorted for its binary search, each name found */
  for (size_t i = 0; rli_custom_name(i); i++) {
    CHECK(rli_custom_has(rli_custom_name(i)));
    if (i) CHECK(strcmp(rli_custom_name(i - 1), rli_custom_name(i)) < 0);
  }
  CHECK(!rli_custom_has("aten::mm") && !rli_custom_has("_C::no_such_op"));
  /* SGLang's kernel_shape_profiler names end in a counter, which the lookup drops */
  CHECK(rli_custom_has("sglang_profiler::attention_paged_attention_ragged_100"));
  CHECK(rli_custom_has("sglang_profiler::attention_paged_attention_ragged_7"));
  CHECK(!rli_custom_has("sglang_profiler::attention_paged_attention_ragged_"));
  CHECK(!rli_custom_has("sglang_profiler::attention_paged_attention_ragged_x1"));
  CHECK(!rli_custom_has("sglang_profiler::_3") && !rli_custom_has("aiter::rms_norm_3"));
  /* paged_attention_v1(out, query [4, 32, 128], key_cache, value_cache, ..., block_tables,
   * seq_lens [4]): the context not recorded: F = T H (4 d + 5), Q = q + out + seq_lens */
  {
    int nd[] = {3, 3, 4, 4, 0, 0, 2, 1};
    double d[][4] = {{4, 32, 128}, {4, 32, 128}, {1000, 8, 16, 16}, {1000, 8, 128, 16}, {0}, {0}, {4, 64}, {4}};
    const char *t[] = {"c10::Half", "c10::Half", "c10::Half", "c10::Half", "Scalar", "Scalar", "int", "int"};
    rli_aten_args a = args(8, nd, d, t);
    CHECK(rli_aten_cost("_C::paged_attention_v1", &a, &c, why, sizeof why) == 1);
    CHECK_NEAR(c.flops, 4.0 * 32 * (4 * 128 + 5), 1e-12);
    CHECK_NEAR(c.bytes, 2.0 * 2 * 4 * 32 * 128 + 4 * 4, 1e-12);
    CHECK(c.lower == RLI_LOWER_BYTES && c.tensor == 1 && c.dtype == RL_FP16 && strstr(why, "context"));
  }
  /* xformers dense [2, 256, 8, 64], mask type 0 (none), no seqstart: 2 x 256 x 256 pairs x 8 x 261 */
  {
    int nd[] = {4, 4, 4, 0, 0, 0, 0, 0, 0, 0};
    double d[][4] = {{2, 256, 8, 64}, {2, 256, 8, 64}, {2, 256, 8, 64}};
    const char *t[] = {"c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "", "", "", "Scalar", "Scalar", "Scalar", "Scalar"};
    rli_aten_args a = args(10, nd, d, t);
    const char *cv[] = {"", "", "", "", "", "", "", "0.", "False", "0"};
    set_concrete(&a, 10, cv);
    CHECK(rli_custom_cost("xformers::efficient_attention_forward_cutlass", &a, NULL, &c, why, sizeof why,
                          note, sizeof note) == 1);
    CHECK_NEAR(c.flops, 2.0 * 256 * 256 * 8 * 261, 1e-12);
    CHECK_NEAR(c.bytes, 4.0 * 2 * 256 * 8 * 64 * 2, 1e-12);
    CHECK(c.lower == 0 && note[0] == 0);
    /* mask type 1: causal, half the pairs */
    snprintf(a.concrete[9], sizeof a.concrete[9], "1");
    CHECK(rli_custom_cost("xformers::efficient_attention_forward_cutlass", &a, NULL, &c, why, sizeof why,
                          note, sizeof note) == 1);
    CHECK_NEAR(c.flops, 2.0 * 256 * 256 / 2 * 8 * 261, 1e-12);
  }
  /* vllm::moe_forward(hidden_states [8, 3072] bf16, router_logits [8, 32] bf16, layer_name): without
   * the model uncovered, naming --model; with gpt-oss-20b's sizes (d 2880, d_ff 2880, E 32, k 4,
   * gated) F = 2 x 8 x 4 x 3 x 2880^2, Q = 8 x 2880 x 2 x 2 + 8 x 32 x 2 + 4 x 3 x 2880^2 / 2 (4
   * bits: 2880 is no multiple of 256); d 1024 and d_ff 512 (multiples of 256): 1.5625 bits; over a
   * world of 4 a quarter of F and of the weights; moe_forward_shared with 1 shared expert: 5
   * experts' F and weights, two outputs; E or d the trace contradicts: -1 */
  {
    int nd[] = {2, 2, 0};
    double d[][4] = {{8, 3072}, {8, 32}};
    const char *t[] = {"c10::BFloat16", "c10::BFloat16", ""};
    rli_aten_args a = args(3, nd, d, t);
    CHECK(rli_custom_moe("vllm::moe_forward") && rli_custom_moe("vllm::moe_forward_shared") &&
          !rli_custom_moe("_C::rms_norm"));
    CHECK(rli_custom_cost("vllm::moe_forward", &a, NULL, &c, why, sizeof why, note, sizeof note) == 0);
    CHECK(c.reason == RL_REASON_SHAPES && strstr(why, "--model NAME"));
    rli_moe m = {.d = 2880, .d_ff = 2880, .experts = 32, .active = 4, .shared = 0, .gated = 1, .world = 0,
                 .id = "gpt-oss-20b"};
    CHECK(rli_custom_cost("vllm::moe_forward", &a, &m, &c, why, sizeof why, note, sizeof note) == 1);
    double W = 4.0 * 3 * 2880 * 2880 / 2;
    CHECK_NEAR(c.flops, 2.0 * 8 * 4 * 3 * 2880 * 2880, 1e-12);
    CHECK_NEAR(c.bytes, 8.0 * 2880 * 2 * 2 + 8 * 32 * 2 + W, 1e-12);
    CHECK(c.lower == RLI_LOWER_BYTES && c.tensor == 1 && c.dtype == RL_BF16);
    CHECK(strstr(note, "experts from --model gpt-oss-20b") && strstr(note, "padded 2880 -> 3072") &&
          strstr(note, "at 4 bits") && !strstr(note, "share"));
    m.world = 4;
    CHECK(rli_custom_cost("vllm::moe_forward", &a, &m, &c, why, sizeof why, note, sizeof note) == 1);
    CHECK_NEAR(c.flops, 2.0 * 8 * 4 * 3 * 2880 * 2880 / 4, 1e-12);
    CHECK_NEAR(c.bytes, 8.0 * 2880 * 2 * 2 + 8 * 32 * 2 + W / 4, 1e-12);
    CHECK(strstr(note, "a 1/4 share"));
    m.world = 1;
    m.d = 1024, m.d_ff = 512;
    CHECK(rli_custom_cost("vllm::moe_forward", &a, &m, &c, why, sizeof why, note, sizeof note) == 1);
    CHECK_NEAR(c.bytes, 8.0 * 1024 * 2 * 2 + 8 * 32 * 2 + 4.0 * 3 * 1024 * 512 * 1.5625 / 8, 1e-12);
    m.d_ff = 2880; /* gate and up's rows of 1024: 1.5625 bits; down's of 2880: 4 */
    CHECK(rli_custom_cost("vllm::moe_forward", &a, &m, &c, why, sizeof why, note, sizeof note) == 1);
    CHECK_NEAR(c.bytes, 8.0 * 1024 * 2 * 2 + 8 * 32 * 2 + 4.0 * 1024 * 2880 * (2 * 1.5625 + 4) / 8, 1e-12);
    CHECK(strstr(note, "1.5625 (gate, up) and 4 (down) bits"));
    m.d = 2880;
    m.shared = 1;
    m.gated = 0;
    CHECK(rli_custom_cost("vllm::moe_forward_shared", &a, &m, &c, why, sizeof why, note, sizeof note) == 1);
    CHECK_NEAR(c.flops, 2.0 * 8 * 5 * 2 * 2880 * 2880, 1e-12);
    CHECK_NEAR(c.bytes, 8.0 * 2880 * 2 * 3 + 8 * 32 * 2 + 5.0 * 2 * 2880 * 2880 / 2, 1e-12);
    m.experts = 128;
    CHECK(rli_custom_cost("vllm::moe_forward", &a, &m, &c, why, sizeof why, note, sizeof note) == -1);
    CHECK(strstr(why, "router logits over 32 experts, but --model gpt-oss-20b has 128"));
    CHECK(rli_aten_cost_moe("vllm::moe_forward", &a, &m, &c, why, sizeof why) == -1);
    m.experts = 32;
    m.d = 4096;
    CHECK(rli_custom_cost("vllm::moe_forward", &a, &m, &c, why, sizeof why, note, sizeof note) == -1);
    CHECK(strstr(why, "hidden states 3072 wide, narrower than --model gpt-oss-20b's d_model 4096"));
    m.d = 2880;
    a.dims[1][0] = 7; /* logits of 7 tokens for 8 hidden states: not this op's shapes */
    CHECK(rli_custom_cost("vllm::moe_forward", &a, &m, &c, why, sizeof why, note, sizeof note) == 0);
    CHECK(c.reason == RL_REASON_SHAPES && strstr(why, "8 tokens of hidden states, 7 of router logits"));
    /* rl_trace_set_model: a dense model refused, an MoE one named in the info; NULL clears */
    rl_trace *tm = rl_trace_new(-1);
    rl_model mm;
    rl_error me;
    rl_trace_info ti;
    CHECK(rl_model_find("llama3-8b", &mm, &me) == RL_OK);
    CHECK(rl_trace_set_model(tm, &mm, &me) == RL_EINVAL && strstr(me.msg, "is dense (no experts)"));
    CHECK(rl_model_find("gpt-oss-120b", &mm, &me) == RL_OK);
    CHECK(rl_trace_set_model(tm, &mm, &me) == RL_OK);
    rl_trace_get_info(tm, &ti);
    CHECK_STR(ti.model, "gpt-oss-120b");
    CHECK(rl_trace_set_model(tm, NULL, &me) == RL_OK);
    rl_trace_get_info(tm, &ti);
    CHECK_STR(ti.model, "");
    rl_trace_free(tm);
  }
  /* mha_batch_prefill on a 4-D paged cache [pages, 16, 8, 64] (NHD or HND: at least one token per
   * page index, 8 x 64 elements per token), 2 sequences of 64 queries, 10 page indices, causal:
   * equal lengths, S = 10 < T = 128 keys: refused; 200 page indices: pairs = 128 x 200 / 2 - 128^2 / 4 */
  {
    int nd[] = {3, 4, 4, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0};
    double d[][4] = {{128, 8, 64}, {500, 16, 8, 64}, {500, 16, 8, 64}, {3}, {3}, {10}};
    const char *t[] = {"c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "int", "int", "int",
                       "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar"};
    rli_aten_args a = args(14, nd, d, t);
    const char *cv[] = {"", "", "", "", "", "", "64", "64", "0.", "0.125", "0.", "False", "True", "-1"};
    set_concrete(&a, 14, cv);
    CHECK(rli_aten_cost("aiter::mha_batch_prefill", &a, &c, why, sizeof why) == 0);
    CHECK(c.reason == RL_REASON_SHAPES && strstr(why, "causal with 10 key tokens for 128"));
    a.dims[5][0] = 200;
    CHECK(rli_aten_cost("aiter::mha_batch_prefill", &a, &c, why, sizeof why) == 1);
    CHECK_NEAR(c.flops, (128.0 * 200 / 2 - 128.0 * 128 / 4) * 8 * 261, 1e-12);
    CHECK_NEAR(c.bytes, 2.0 * 2 * 128 * 8 * 64 + 3 * 4 + 200 * 4 + 2.0 * 200 * 8 * 64 * 2, 1e-12);
    CHECK(c.lower == RLI_LOWER_BYTES && strstr(why, "one token per page"));
    /* a sliding window: at least one key per query */
    snprintf(a.concrete[13], sizeof a.concrete[13], "32");
    CHECK(rli_aten_cost("aiter::mha_batch_prefill", &a, &c, why, sizeof why) == 1);
    CHECK_NEAR(c.flops, 128.0 * 8 * 261, 1e-12);
    CHECK(strstr(why, "sliding window") != NULL);
  }
  /* rotary with no key (Tensor!? None) and a half-width rotary: q [16, 512] read and written at half */
  {
    int nd[] = {1, 2, 0, 0, 2, 0};
    double d[][4] = {{16}, {16, 512}, {0}, {0}, {4096, 32}, {0}};
    const char *t[] = {"long int", "c10::BFloat16", "", "Scalar", "c10::BFloat16", "Scalar"};
    rli_aten_args a = args(6, nd, d, t);
    const char *cv[] = {"", "", "", "64", "", "True"};
    set_concrete(&a, 6, cv);
    CHECK(rli_aten_cost("_C::rotary_embedding", &a, &c, why, sizeof why) == 1);
    CHECK_NEAR(c.flops, 3.0 * 16 * 512 / 2, 1e-12);
    CHECK_NEAR(c.bytes, 16.0 * 8 + 2.0 * 16 * 512 * 2 / 2, 1e-12);
  }
  /* vLLM's custom all-reduce(fa, inp [1024, 4096] bf16, out, ...): a collective of 8 MiB */
  {
    int nd[] = {0, 2, 2, 0, 0};
    double d[][4] = {{0}, {1024, 4096}, {1024, 4096}};
    const char *t[] = {"Scalar", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"};
    rli_aten_args a = args(5, nd, d, t);
    CHECK(rli_aten_cost("_C_custom_ar::all_reduce", &a, &c, why, sizeof why) == 1);
    CHECK(c.roof == RLI_ROOF_NET && c.coll == RLI_COLL_ALLREDUCE && c.bytes == 1024.0 * 4096 * 2);
    /* without shapes: said so */
    a.has_dims = 0;
    CHECK(rli_aten_cost("_C_custom_ar::all_reduce", &a, &c, why, sizeof why) == 0);
    CHECK(c.reason == RL_REASON_NO_SHAPES);
  }
}

/* rl_kernel_display_name against tests/data/kernel_display_names.tsv
 * (real names from the fixtures, each with its expected table cell or chart
 * label); and what the display keeps is the kernel's own name. */
static void test_display_names(void) {
  FILE *f = fopen("tests/data/kernel_display_names.tsv", "rb");
  CHECK(f != NULL);
  if (!f) return;
  char line[8192]; /* mangled names run to 2,000 bytes */
  int cases = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    if (!line[0] || line[0] == '#') continue;
    char *mode = line, *cap = strchr(mode, '\t'), *name = cap ? strchr(cap + 1, '\t') : NULL,
         *want = name ? strchr(name + 1, '\t') : NULL;
    CHECK(want != NULL);
    if (!want) continue;
    *cap++ = 0, *name++ = 0, *want++ = 0;
    int32_t flags = !strcmp(mode, "table") ? RL_NAME_MARK_TEMPLATES : !strcmp(mode, "label") ? RL_NAME_LAST : 0;
    CHECK(flags || !strcmp(mode, "plain"));
    size_t w = (size_t)atoi(cap);
    char out[256];
    CHECK(w > 0 && w <= sizeof out);
    memset(out, 'x', sizeof out);
    size_t n = rl_kernel_display_name(name, out, w, flags);
    CHECK_STR(out, want);
    CHECK(strlen(out) < w && (w == sizeof out || out[w] == 'x')); /* nothing past cap */
    /* the length returned is the uncut name's: want when it was not cut */
    CHECK(strstr(want, "...") ? n >= w : n == strlen(want));
    cases++;
  }
  fclose(f);
  CHECK(cases >= 35);
  /* a cap of 0 writes nothing, NULL is "", small caps stay inside */
  char b[8] = "keep";
  CHECK(rl_kernel_display_name("void f<int>(int)", b, 0, 0) == 1 && !strcmp(b, "keep"));
  CHECK(rl_kernel_display_name(NULL, b, sizeof b, 0) == 0 && !strcmp(b, ""));
  CHECK(rl_kernel_display_name("aten::convolution", b, 4, 0) == 17 && !strcmp(b, "ate"));
  CHECK(rl_kernel_display_name("aten::convolution", b, 5, 0) == 17 && !strcmp(b, "a..."));
  /* a name longer than the display's own buffer (512 bytes) */
  char big[1400], got[1400];
  memcpy(big, "void ns::", 9);
  memset(big + 9, 'k', 1000);
  memcpy(big + 1009, "<int>(int)", 11);
  CHECK(rl_kernel_display_name(big, got, sizeof got, RL_NAME_MARK_TEMPLATES) == 1006);
  CHECK(strlen(got) == 1006 && !strcmp(got + 1004, "<>") && !strncmp(got, "ns::kkk", 7));
  CHECK(rl_kernel_display_name(big, got, sizeof got, RL_NAME_LAST) == 1000 && got[0] == 'k' && strlen(got) == 1000);
}

/* One name through the three modes at a cap of its own, from a buffer of
 * exactly its size (so that ASan sees a read past its NUL): nothing
 * written past cap, the output NUL-terminated, its length the one
 * returned when it fits. Returns 1 when all held. */
static int display_holds(const char *name, size_t len, size_t cap) {
  char *s = malloc(len + 1), out[320];
  if (!s) return 0;
  memcpy(s, name, len);
  s[len] = 0;
  int ok = 1;
  for (int32_t flags = 0; flags <= RL_NAME_LAST; flags++) {
    memset(out, 'x', sizeof out);
    size_t n = rl_kernel_display_name(s, out, cap, flags);
    if (out[cap] != 'x' || (cap && (!memchr(out, 0, cap) || (n < cap && strlen(out) != n)))) ok = 0;
  }
  free(s);
  return ok;
}

static uint64_t xorshift(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

/* rl_kernel_display_name on cut and garbage names: every prefix of the
 * table's mangled names, those names with random bytes changed, inserted
 * or deleted, and random strings of the mangling's letters and of any
 * bytes (ROOFLINE_NAME_FUZZ=N of each kind; 100,000 by default, a few
 * seconds under ASan). Under `make SAN=1` ASan and UBSan check every read;
 * here each call keeps inside its cap. */
static void test_display_names_random(void) {
  FILE *f = fopen("tests/data/kernel_display_names.tsv", "rb");
  CHECK(f != NULL);
  if (!f) return;
  static char names[64][4096];
  size_t nn = 0, bad = 0, runs = 0;
  char line[8192];
  while (fgets(line, sizeof line, f) && nn < 64) {
    char *name = strchr(line, '\t');
    name = name ? strchr(name + 1, '\t') : NULL;
    if (!name || strncmp(name + 1, "_Z", 2)) continue;
    name++;
    size_t n = strcspn(name, "\t");
    if (n >= sizeof names[0]) continue;
    memcpy(names[nn], name, n);
    names[nn++][n] = 0;
  }
  fclose(f);
  CHECK(nn >= 20);
  for (size_t i = 0; i < nn; i++)
    for (size_t k = 0; k <= strlen(names[i]); k++, runs++) bad += !display_holds(names[i], k, k % 300);
  const char *env = getenv("ROOFLINE_NAME_FUZZ");
  long count = env ? atol(env) : 100000;
  uint64_t x = 0x9e3779b97f4a7c15u;
  static const char letters[] = "_ZNIEJLXSTDFAMPRKOCVBUGYabcdefhijlmnostvwxyz0123456789";
  char buf[4200];
  for (long r = 0; r < count; r++) {
    /* a table name changed in up to 8 places */
    const char *src = names[xorshift(&x) % nn];
    size_t len = strlen(src);
    memcpy(buf, src, len + 1);
    for (int e = (int)(xorshift(&x) % 8) + 1; e > 0; e--) {
      size_t at = len ? xorshift(&x) % len : 0;
      uint64_t what = xorshift(&x);
      char ch = what & 64 ? letters[(what >> 8) % (sizeof letters - 1)] : (char)(1 + (what >> 8) % 255);
      if (what % 3 == 0 && len + 1 < sizeof buf) { /* insert */
        memmove(buf + at + 1, buf + at, len - at + 1);
        buf[at] = ch;
        len++;
      } else if (what % 3 == 1 && len) { /* delete */
        memmove(buf + at, buf + at + 1, len - at);
        len--;
      } else if (len) {
        buf[at] = ch;
      }
    }
    bad += !display_holds(buf, len, xorshift(&x) % 300);
    /* random letters of the mangling after _Z, and random bytes */
    len = xorshift(&x) % 96;
    buf[0] = '_', buf[1] = 'Z';
    for (size_t i = 2; i < len; i++) buf[i] = letters[xorshift(&x) % (sizeof letters - 1)];
    bad += !display_holds(buf, len < 2 ? 2 : len, xorshift(&x) % 300);
    len = xorshift(&x) % 64;
    for (size_t i = 0; i < len; i++) buf[i] = (char)(1 + xorshift(&x) % 255);
    bad += !display_holds(buf, len, xorshift(&x) % 300);
    runs += 3;
  }
  /* nesting past the reader's depth (pointers to pointers, arguments in
   * arguments, 60,000 deep): the reading ends at the class's arguments */
  static const char *const deep[] = {"P", "INS_1aI"};
  for (size_t k = 0; k < 2; k++) {
    size_t unit = strlen(deep[k]), n = 0;
    char *d = malloc(60000 * unit + 32), got[64];
    CHECK(d != NULL);
    if (!d) break;
    n += (size_t)sprintf(d, "_ZN2ck4KernI");
    for (int i = 0; i < 60000; i++, n += unit) memcpy(d + n, deep[k], unit);
    strcpy(d + n, "iE3runEv");
    CHECK(rl_kernel_display_name(d, got, sizeof got, RL_NAME_MARK_TEMPLATES) == 10 && !strcmp(got, "ck::Kern<>"));
    free(d);
  }
  if (bad) fprintf(stderr, "rl_kernel_display_name: %zu of %zu random names wrote past the cap or lost the NUL\n", bad, runs);
  CHECK(bad == 0 && runs > (size_t)count);
}

int main(void) {
  RUN(test_kernel_store);
  RUN(test_launch_pack);
  RUN(test_timeline_order);
  RUN(test_aten);
  RUN(test_aten_table);
  RUN(test_mta);
  RUN(test_kernel_targs);
  RUN(test_custom);
  RUN(test_device_names);
  RUN(test_conv_seq);
  RUN(test_node_seq);
  RUN(test_conv_consumer);
  RUN(test_shapes);
  RUN(test_coll);
  RUN(test_link);
  RUN(test_legacy);
  RUN(test_ncu_raw);
  RUN(test_gain_bounds);
  RUN(test_ncu_hw_check);
  RUN(test_fusion);
  RUN(test_fusion_modules);
  RUN(test_ncu_hier);
  RUN(test_mutations);
  RUN(test_json_scan);
  RUN(test_cli_error);
  RUN(test_cli_plot);
  RUN(test_display_names);
  RUN(test_display_names_random);
  return harness_report("trace");
}
