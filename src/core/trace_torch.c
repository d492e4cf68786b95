/*
 * trace_torch.c -- PyTorch's names of element types, as profilers record
 * them: the C++ spellings of Input types ("float", "c10::Half", "long
 * int") and record_param_comms' ScalarType names ("Float", "BFloat16",
 * "Long"); their bytes (c10/core/ScalarType.h) and the rl_dtype of their
 * roof. Shared by the ATen op costs (trace_aten.c) and the readers.
 */
#include "core/trace_internal.h"

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

double rli_torch_type_bytes(const char *t) {
  static const struct { const char *n; double b; } map[] = {
      {"float", 4},          {"Float", 4},         {"double", 8},      {"Double", 8},
      {"c10::Half", 2},      {"Half", 2},          {"c10::BFloat16", 2}, {"BFloat16", 2},
      {"long int", 8},       {"long", 8},          {"Long", 8},        {"int", 4},
      {"Int", 4},            {"short int", 2},     {"short", 2},       {"Short", 2},
      {"signed char", 1},    {"Char", 1},          {"unsigned char", 1}, {"Byte", 1},
      {"bool", 1},           {"Bool", 1},          {"c10::Float8_e4m3fn", 1},
      {"Float8_e4m3fn", 1},  {"c10::Float8_e5m2", 1}, {"Float8_e5m2", 1},
      {"c10::complex<float>", 8}, {"ComplexFloat", 8}, {"c10::complex<double>", 16},
      {"ComplexDouble", 16}};
  if (!t) return 0;
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (!strcmp(t, map[i].n)) return map[i].b;
  return 0;
}
