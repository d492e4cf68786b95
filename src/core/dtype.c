/*
 * dtype.c -- number formats: names and bytes per element.
 *
 * Bytes per element, from the formats' widths: fp64 8, fp32 4, fp16 2
 * (IEEE 754-2008 binary64/32/16), tf32 4 (a 19-bit format stored in fp32
 * registers and memory: NVIDIA A100 whitepaper), bf16 2, fp8 1 (OCP 8-bit
 * floating point, E4M3/E5M2), int8 1, fp4 0.5, int4 0.5 (packed two to a
 * byte; scales of block formats are not counted).
 */
#include "core/internal.h"

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
