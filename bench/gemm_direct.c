/*
 * gemm_direct.c -- OpenBLAS called directly, for bench/measure-vs-likwid:
 * the GFLOP/s of cblas_sgemm and cblas_dgemm (row-major, n x n, F = 2n^3)
 * with plain timing: a warm-up call, then the best of 7 batches, each batch
 * enough back-to-back calls to last about 2 ms, so that a small matrix's
 * ~0.2 us call is not timed against a ~20 ns clock tick. The sizes up to
 * 1024 are timed in three passes over the list, at three moments, each
 * keeping its best pass, so that one side's single window inside another
 * process's burst does not decide a ratio, as `roofline measure` times
 * them (src/io/measure.c, measure_gemm). Prints "sgemm N FLOP/s" lines. Not part of the library.
 *
 *   cc -O2 bench/gemm_direct.c -lopenblas -o build/gemm_direct
 *   build/gemm_direct THREADS N...
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { ROW = 101, NT = 111, MAX_N = 64, PASSES = 3, AGAIN_MAX_N = 1024 };
extern void cblas_sgemm(int, int, int, int, int, int, float, const float *, int,
                        const float *, int, float, float *, int);
extern void cblas_dgemm(int, int, int, int, int, int, double, const double *, int,
                        const double *, int, double, double *, int);
extern void openblas_set_num_threads(int);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* FLOP/s of one size and type: best of 7 batches of ~2 ms */
static double time_one(int dp, int n) {
  size_t e = (size_t)n * (size_t)n;
  double *A = malloc(e * 8), *B = malloc(e * 8), *C = malloc(e * 8);
  if (!A || !B || !C) exit(1);
  for (size_t i = 0; i < e; i++) {
    if (dp) { A[i] = 1; B[i] = 1; }
    else { ((float *)A)[i] = 1; ((float *)B)[i] = 1; }
  }
  double flops = 2.0 * n * n * (double)n, best = 1e30;
  int calls = 1;
  for (int b = -1; b < 7; b++) {
    double t0 = now();
    for (int c = 0; c < calls; c++) {
      if (dp) cblas_dgemm(ROW, NT, NT, n, n, n, 1.0, A, n, B, n, 0.0, C, n);
      else cblas_sgemm(ROW, NT, NT, n, n, n, 1.0f, (float *)A, n, (float *)B, n, 0.0f, (float *)C, n);
    }
    double t = (now() - t0) / calls;
    if (b < 0) { /* the warm-up sizes the batches */
      calls = (int)(2e-3 / (t > 1e-9 ? t : 1e-9)) + 1;
      if (calls > 100000) calls = 100000;
      continue;
    }
    if (t < best) best = t;
  }
  free(A);
  free(B);
  free(C);
  return flops / best;
}

int main(int argc, char **argv) {
  if (argc < 3 || argc - 2 > MAX_N) {
    fprintf(stderr, "usage: gemm_direct THREADS N... (at most %d sizes)\n", MAX_N);
    return 2;
  }
  openblas_set_num_threads(atoi(argv[1]));
  int nn = argc - 2, ns[MAX_N];
  double best[MAX_N][2] = {{0}};
  for (int a = 0; a < nn; a++) {
    ns[a] = atoi(argv[a + 2]);
    if (ns[a] < 1) {
      fprintf(stderr, "gemm_direct: bad size '%s'\n", argv[a + 2]);
      return 2;
    }
  }
  for (int pass = 0; pass < PASSES; pass++)
    for (int a = 0; a < nn; a++)
      for (int dp = 0; dp < 2; dp++) {
        if (pass && ns[a] > AGAIN_MAX_N) continue;
        double f = time_one(dp, ns[a]);
        if (f > best[a][dp]) best[a][dp] = f;
      }
  for (int a = 0; a < nn; a++)
    for (int dp = 0; dp < 2; dp++) printf("%s %d %.6g\n", dp ? "dgemm" : "sgemm", ns[a], best[a][dp]);
  return 0;
}
