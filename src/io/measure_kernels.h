/*
 * measure_kernels.h -- the SIMD kernels of `roofline measure` (private,
 * prefix rli_). Each exists for AVX-512, AVX2+FMA and plain C; the caller
 * picks one at run time with rli_isa(), so one binary serves every x86-64
 * CPU. Arrays are 64-byte aligned and n is a multiple of RLI_BW_UNROLL.
 */
#ifndef RL_MEASURE_KERNELS_H
#define RL_MEASURE_KERNELS_H

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

#endif
