/*
 * measure_kernels.h -- the SIMD kernels of `roofline measure` (private,
 * prefix rli_). Each exists for AVX-512, AVX2+FMA and plain C; the caller
 * picks one at run time with rli_isa(), so one binary serves every x86-64
 * CPU. Arrays are 64-byte aligned and n is a multiple of RLI_BW_UNROLL.
 */
#ifndef RL_MEASURE_KERNELS_H
#define RL_MEASURE_KERNELS_H

#include "roofline.h"

#include <stddef.h>
#include <stdint.h>

enum { RLI_ISA_SCALAR = 0, RLI_ISA_AVX2 = 1, RLI_ISA_AVX512 = 2 };
#define RLI_BW_UNROLL 64 /* elements per iteration of every bandwidth loop */

/* The widest kernels this CPU (and OS) can run; 1 when AVX512-BF16 is
 * there. */
int rli_isa(void);
int rli_has_bf16(void);
const char *rli_isa_name(int isa);

/* Peak kernel k (rl_peak_kernel) for `iters` iterations; returns a
 * checksum (finite and > 0 when the arithmetic ran right) and the FLOPs of
 * one iteration in *flops_per_iter. A kernel the CPU lacks returns -1. */
double rli_peak_kernel(int k, int isa, int64_t iters, double *flops_per_iter);

/* Bandwidth kernels (STREAM's and likwid's). nt: non-temporal stores. */
double rli_bw_read(int isa, const double *a, size_t n);
void rli_bw_copy(int isa, int nt, double *c, const double *a, size_t n);
void rli_bw_triad(int isa, int nt, double *c, const double *a,
                  const double *b, double q, size_t n);
void rli_add_f32(int isa, float *c, const float *a, const float *b, size_t n);

/* A dependent chain of 32 x iters integer adds (one cycle each): times
 * the core clock. Returns the sum so it cannot be optimized away. */
uint64_t rli_add_chain(uint64_t iters);

/* OpenBLAS's CBLAS, loaded at run time (measure_blas.c): only the gemm
 * part of `roofline measure` uses it, so no other command pays for
 * loading it. Row-major, no transposes (CblasRowMajor = 101,
 * CblasNoTrans = 111). */
enum { RLI_CBLAS_ROW_MAJOR = 101, RLI_CBLAS_NO_TRANS = 111 };
typedef struct rli_blas {
  void (*sgemm)(int order, int ta, int tb, int m, int n, int k, float alpha,
                const float *a, int lda, const float *b, int ldb, float beta,
                float *c, int ldc);
  void (*dgemm)(int order, int ta, int tb, int m, int n, int k, double alpha,
                const double *a, int lda, const double *b, int ldb,
                double beta, double *c, int ldc);
  void (*set_num_threads)(int n);
} rli_blas;
/* dlopen OpenBLAS (ROOFLINE_OPENBLAS, else libopenblas.so.0, else
 * libopenblas.so) and fill b; RL_EUNSUPPORTED with a one-line message
 * naming the library and what to do when it or a symbol is missing. The
 * library stays loaded (its threads keep running; it is never closed). */
rl_status rli_blas_load(rli_blas *b, rl_error *err);

#endif
