/*
 * dtype.c -- number formats: names and bytes per element.
 *
 * Bytes per element, from the formats' widths: fp64 8, fp32 4, fp16 2
 * (IEEE 754-2008 binary64/32/16), tf32 4 (a 19-bit format stored in fp32
 * registers and memory: NVIDIA A100 whitepaper), bf16 2, fp8 1 (OCP 8-bit
 * floating point, E4M3/E5M2), int8 1, fp4 0.5, int4 0.5 (packed two to a
 * byte; scales of block formats are not counted).
 *
 * Block-scaled weight storage (rl_wfmt: how a checkpoint stores weights,
 * scales counted): a d_in x d_out matrix in blocks of b weights along its
 * input dimension, each block one scale of s bits, is
 *   d_in d_out e / 8 + d_out ceil(d_in / b) s / 8 bytes
 * (e the element's bits). MXFP4: e = 4 (E2M1), b = 32, s = 8 (E8M0), 4.25
 * bits a weight when b divides d_in: OCP Microscaling Formats (MX) v1.0
 * Specification, 2023, section 5 (the MXFP4 row of the concrete formats'
 * table); the format of gpt-oss' MoE weights (OpenAI, gpt-oss-120b &
 * gpt-oss-20b Model Card, 2025, arXiv 2508.10925: "MoE weights quantized
 * to MXFP4"; the checkpoints' *_blocks of 16 bytes = 32 values and one
 * uint8 *_scales per block). NVFP4: e = 4 (E2M1), b = 16, s = 8 (an FP8
 * E4M3 scale) and one FP32 scale per tensor, left out (a lower bound):
 * NVIDIA, "Introducing NVFP4 for Efficient and Accurate Low-Precision
 * Inference", 2025.
 */
#include "core/internal.h"

#include <math.h>
#include <string.h>

static const struct {
  const char *name;
  double bytes;
} dtypes[RL_DTYPE_COUNT] = {
    {"fp64", 8}, {"fp32", 4}, {"tf32", 4}, {"bf16", 2}, {"fp16", 2},
    {"fp8", 1},  {"int8", 1}, {"fp4", 0.5}, {"int4", 0.5},
};

static const struct {
  const char *alias;
  int32_t dtype;
} dtype_aliases[] = {
    {"float64", RL_FP64}, {"double", RL_FP64},   {"float32", RL_FP32},
    {"float", RL_FP32},   {"bfloat16", RL_BF16}, {"float16", RL_FP16},
    {"half", RL_FP16},    {"e4m3", RL_FP8},      {"e5m2", RL_FP8},
    {"float8", RL_FP8},   {"fp8_e4m3", RL_FP8},  {"fp8_e5m2", RL_FP8},
    {"nvfp4", RL_FP4},    {"mxfp4", RL_FP4},     {"uint8", RL_INT8},
};

static const struct {
  const char *name;
  int32_t dtype;     /* the elements' format */
  double block;      /* weights per scale */
  double scale_bits; /* one scale */
} wfmts[RL_WFMT_COUNT] = {
    [RL_WFMT_DTYPE] = {"dtype", -1, 0, 0},
    [RL_WFMT_MXFP4] = {"mxfp4", RL_FP4, 32, 8},
    [RL_WFMT_NVFP4] = {"nvfp4", RL_FP4, 16, 8},
};

static int wfmt_ok(int32_t f) { return f > RL_WFMT_DTYPE && f < RL_WFMT_COUNT; }

const char *rl_wfmt_name(int32_t f) { return f >= 0 && f < RL_WFMT_COUNT ? wfmts[f].name : NULL; }
int32_t rl_wfmt_dtype(int32_t f) { return wfmt_ok(f) ? wfmts[f].dtype : -1; }
double rl_wfmt_block(int32_t f) { return wfmt_ok(f) ? wfmts[f].block : 0; }
double rl_wfmt_scale_bits(int32_t f) { return wfmt_ok(f) ? wfmts[f].scale_bits : 0; }

rl_status rl_wfmt_parse(const char *name, int32_t *fmt, rl_error *err) {
  if (!name || !*name) return rli_fail(err, RL_EINVAL, "empty weight format");
  for (int32_t i = RL_WFMT_DTYPE + 1; i < RL_WFMT_COUNT; i++)
    if (rli_strcasecmp(name, wfmts[i].name) == 0) {
      *fmt = i;
      return RL_OK;
    }
  return rli_fail(err, RL_EINVAL, "'%s' is not a block-scaled weight format (mxfp4 nvfp4)", name);
}

double rl_wfmt_matrix_bytes(int32_t f, double d_in, double d_out) {
  if (!wfmt_ok(f)) return 0;
  double e = rl_dtype_bytes(wfmts[f].dtype);
  return d_in * d_out * e + d_out * ceil(d_in / wfmts[f].block) * wfmts[f].scale_bits / 8;
}

double rl_dtype_bytes(int32_t dtype) {
  if (dtype < 0 || dtype >= RL_DTYPE_COUNT) return 0;
  return dtypes[dtype].bytes;
}

const char *rl_dtype_name(int32_t dtype) {
  if (dtype < 0 || dtype >= RL_DTYPE_COUNT) return NULL;
  return dtypes[dtype].name;
}

rl_status rl_dtype_parse(const char *name, int32_t *dtype, rl_error *err) {
  if (!name || !*name) return rli_fail(err, RL_EINVAL, "empty dtype");
  for (int32_t i = 0; i < RL_DTYPE_COUNT; i++)
    if (rli_strcasecmp(name, dtypes[i].name) == 0) {
      *dtype = i;
      return RL_OK;
    }
  for (size_t i = 0; i < sizeof dtype_aliases / sizeof dtype_aliases[0]; i++)
    if (rli_strcasecmp(name, dtype_aliases[i].alias) == 0) {
      *dtype = dtype_aliases[i].dtype;
      return RL_OK;
    }
  return rli_fail(err, RL_ENOTFOUND,
                  "unknown dtype '%s' (fp64 fp32 tf32 bf16 fp16 fp8 int8 fp4 int4)",
                  name);
}

static const char *const peak_names[RL_PEAK_COUNT] = {
    "fp64", "fp64_tensor", "fp32", "tf32", "bf16",
    "fp16", "fp8",         "int8", "fp4",  "vec16", "int4"};

const char *rl_peak_name(int32_t peak) {
  if (peak < 0 || peak >= RL_PEAK_COUNT) return NULL;
  return peak_names[peak];
}

rl_status rl_peak_parse(const char *name, int32_t *peak, rl_error *err) {
  if (!name || !*name) return rli_fail(err, RL_EINVAL, "empty format");
  for (int32_t i = 0; i < RL_PEAK_COUNT; i++)
    if (rli_strcasecmp(name, peak_names[i]) == 0) {
      *peak = i;
      return RL_OK;
    }
  if (rli_strcasecmp(name, "fp64-tensor") == 0) { *peak = RL_PEAK_FP64_TENSOR; return RL_OK; }
  int32_t dt;
  if (rl_dtype_parse(name, &dt, NULL) == RL_OK) {
    static const int32_t map[RL_DTYPE_COUNT] = {
        RL_PEAK_FP64, RL_PEAK_FP32, RL_PEAK_TF32, RL_PEAK_BF16, RL_PEAK_FP16,
        RL_PEAK_FP8,  RL_PEAK_INT8, RL_PEAK_FP4,  RL_PEAK_INT4};
    if (map[dt] >= 0) {
      *peak = map[dt];
      return RL_OK;
    }
  }
  return rli_fail(err, RL_ENOTFOUND,
                  "unknown format '%s' (fp64 fp64_tensor fp32 tf32 bf16 fp16 "
                  "fp8 int8 fp4 vec16 int4)",
                  name);
}
