/*
 * measure_kernels.c -- the kernels `roofline measure` times: FMA peaks,
 * STREAM-style bandwidth loops and the clock chain, each compiled for
 * AVX-512, AVX2+FMA and plain C with per-function target attributes and
 * chosen at run time (__builtin_cpu_supports), so no global -march flag.
 *
 * Peak kernels: acc = acc * x + y on independent accumulators, enough of
 * them to cover FMA latency x FMA ports (Zen 4: 4 cycles x 2 ports = 8
 * needed; we use 12), as the Empirical Roofline Toolkit and likwid-bench's
 * peakflops kernels do. The FMA+add kernels put independent adds beside
 * the FMAs, for cores with separate FP adders (AMD Zen: 2 FMA + 2 FADD
 * pipes, Software Optimization Guide for AMD Family 19h, sec. 2.11).
 * BF16: vdpbf16ps (AVX512-BF16), 2 products per FP32 lane, 4 FLOP/lane.
 * Bandwidth kernels: STREAM's Copy and Triad (McCalpin, stream.c), its Add,
 * and likwid-bench's "load" (a read-only sum); non-temporal variants use
 * streaming stores (_mm512_stream_pd) that skip the write-allocate read.
 * The kernels are not instrumented by the sanitizers: their bounds are
 * fixed by the caller, and instrumenting them would measure the sanitizer.
 */
#include "measure_kernels.h"

#include <math.h>

#if defined(__x86_64__) || defined(__i386__)
#define RLI_X86 1
#include <immintrin.h>
#else
#define RLI_X86 0
#endif

#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define NOSAN __attribute__((no_sanitize("address", "undefined")))
#else
#define NOSAN
#endif
#define AVX512 __attribute__((target("avx512f"))) NOSAN
#define AVX512BF16 __attribute__((target("avx512f,avx512bf16"))) NOSAN
#define AVX2 __attribute__((target("avx2,fma"))) NOSAN

int rli_isa(void) {
#if RLI_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return RLI_ISA_AVX512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return RLI_ISA_AVX2;
#endif
  return RLI_ISA_SCALAR;
}

int rli_has_bf16(void) {
#if RLI_X86
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bf16");
#else
  return 0;
#endif
}

const char *rli_isa_name(int isa) {
  return isa == RLI_ISA_AVX512 ? "avx512" : isa == RLI_ISA_AVX2 ? "avx2" : "scalar";
}

/* ---- peak kernels ------------------------------------------------------ */
#define R12(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11)
#define R8(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7)
#define R6(M) M(0) M(1) M(2) M(3) M(4) M(5)

#if RLI_X86
/* generic body over the macros T (vector type), SET, FMAV, ADDV */
#define DECL(j) T a##j = SET(1.0 + 0.01 * (j));
#define STEP(j) a##j = FMAV(a##j, x, y);
#define SUM(j) s = ADDV(s, a##j);
#define FMA_BODY(REDUCE)                                                     \
  T x = SET(0.999999), y = SET(1e-6);                                       \
  R12(DECL)                                                                 \
  for (int64_t i = 0; i < iters; i++) { R12(STEP) }                          \
  T s = a0;                                                                  \
  R12(SUM)                                                                   \
  return REDUCE(s);

static AVX512 double red512d(__m512d v) { return _mm512_reduce_add_pd(v); }
static AVX512 double red512s(__m512 v) { return (double)_mm512_reduce_add_ps(v); }
static AVX2 double red256d(__m256d v) {
  double t[4];
  _mm256_storeu_pd(t, v);
  return t[0] + t[1] + t[2] + t[3];
}
static AVX2 double red256s(__m256 v) {
  float t[8];
  _mm256_storeu_ps(t, v);
  double s = 0;
  for (int i = 0; i < 8; i++) s += (double)t[i];
  return s;
}

#define T __m512d
#define SET _mm512_set1_pd
#define FMAV _mm512_fmadd_pd
#define ADDV _mm512_add_pd
static AVX512 double fma64_avx512(int64_t iters) { FMA_BODY(red512d) }
#undef T
#undef SET
#undef FMAV
#undef ADDV
#define T __m512
#define SET(v) _mm512_set1_ps((float)(v))
#define FMAV _mm512_fmadd_ps
#define ADDV _mm512_add_ps
static AVX512 double fma32_avx512(int64_t iters) { FMA_BODY(red512s) }
#undef T
#undef SET
#undef FMAV
#undef ADDV
#define T __m256d
#define SET _mm256_set1_pd
#define FMAV _mm256_fmadd_pd
#define ADDV _mm256_add_pd
static AVX2 double fma64_avx2(int64_t iters) { FMA_BODY(red256d) }
#undef T
#undef SET
#undef FMAV
#undef ADDV
#define T __m256
#define SET(v) _mm256_set1_ps((float)(v))
#define FMAV _mm256_fmadd_ps
#define ADDV _mm256_add_ps
static AVX2 double fma32_avx2(int64_t iters) { FMA_BODY(red256s) }
#undef T
#undef SET
#undef FMAV
#undef ADDV
#undef DECL
#undef STEP
#undef SUM

/* FMA + add: 8 FMA chains and 8 (AVX-512) or 6 (AVX2: 16 registers) add
 * chains. */
#define DECLF(j) T f##j = SET(1.0 + 0.01 * (j));
#define DECLA(j) T d##j = SET(0.5 + 0.01 * (j));
#define SUMF(j) s = ADDV(s, f##j);
#define SUMA(j) s = ADDV(s, d##j);
#define STEPF(j) f##j = FMAV(f##j, x, y);
#define STEPA(j) d##j = ADDV(d##j, y);
#define FMA_ADD_BODY(RA, REDUCE)                                              \
  T x = SET(0.999999), y = SET(1e-6);                                       \
  R8(DECLF) RA(DECLA)                                                       \
  for (int64_t i = 0; i < iters; i++) { R8(STEPF) RA(STEPA) }                \
  T s = f0;                                                                  \
  R8(SUMF) RA(SUMA)                                                          \
  return REDUCE(s);

static AVX512 double fma_add64_avx512(int64_t iters) {
#define T __m512d
#define SET _mm512_set1_pd
#define FMAV _mm512_fmadd_pd
#define ADDV _mm512_add_pd
  FMA_ADD_BODY(R8, red512d)
#undef T
#undef SET
#undef FMAV
#undef ADDV
}
static AVX512 double fma_add32_avx512(int64_t iters) {
#define T __m512
#define SET(v) _mm512_set1_ps((float)(v))
#define FMAV _mm512_fmadd_ps
#define ADDV _mm512_add_ps
  FMA_ADD_BODY(R8, red512s)
#undef T
#undef SET
#undef FMAV
#undef ADDV
}
static AVX2 double fma_add64_avx2(int64_t iters) {
#define T __m256d
#define SET _mm256_set1_pd
#define FMAV _mm256_fmadd_pd
#define ADDV _mm256_add_pd
  FMA_ADD_BODY(R6, red256d)
#undef T
#undef SET
#undef FMAV
#undef ADDV
}
static AVX2 double fma_add32_avx2(int64_t iters) {
#define T __m256
#define SET(v) _mm256_set1_ps((float)(v))
#define FMAV _mm256_fmadd_ps
#define ADDV _mm256_add_ps
  FMA_ADD_BODY(R6, red256s)
#undef T
#undef SET
#undef FMAV
#undef ADDV
}

static AVX512BF16 double bf16_dot_avx512(int64_t iters) {
  __m512bh x = _mm512_cvtne2ps_pbh(_mm512_set1_ps(0.5f), _mm512_set1_ps(0.25f));
  __m512bh y = _mm512_cvtne2ps_pbh(_mm512_set1_ps(1e-3f), _mm512_set1_ps(2e-3f));
#define DECLB(j) __m512 a##j = _mm512_set1_ps(1.0f);
#define STEPB(j) a##j = _mm512_dpbf16_ps(a##j, x, y);
#define SUMB(j) s = _mm512_add_ps(s, a##j);
  R12(DECLB)
  for (int64_t i = 0; i < iters; i++) { R12(STEPB) }
  __m512 s = _mm512_setzero_ps();
  R12(SUMB)
  return (double)_mm512_reduce_add_ps(s);
}
#endif /* RLI_X86 */

/* Plain C: mul and add (the compiler may fuse them). */
static double fma64_c(int64_t iters) {
  double a[12], x = 0.999999, y = 1e-6, s = 0;
  for (int j = 0; j < 12; j++) a[j] = 1.0 + 0.01 * j;
  for (int64_t i = 0; i < iters; i++)
    for (int j = 0; j < 12; j++) a[j] = a[j] * x + y;
  for (int j = 0; j < 12; j++) s += a[j];
  return s;
}
static double fma32_c(int64_t iters) {
  float a[12], x = 0.999999f, y = 1e-6f;
  double s = 0;
  for (int j = 0; j < 12; j++) a[j] = 1.0f + 0.01f * (float)j;
  for (int64_t i = 0; i < iters; i++)
    for (int j = 0; j < 12; j++) a[j] = a[j] * x + y;
  for (int j = 0; j < 12; j++) s += (double)a[j];
  return s;
}

double rli_peak_kernel(int k, int isa, int64_t iters, double *fpi) {
  /* FLOPs per iteration: chains x lanes x (2 per FMA, 1 per add) */
#if RLI_X86
  if (isa == RLI_ISA_AVX512) {
    switch (k) {
    case 0: *fpi = 12 * 8 * 2; return fma64_avx512(iters);
    case 1: *fpi = 12 * 16 * 2; return fma32_avx512(iters);
    case 2:
      if (!rli_has_bf16()) return -1;
      *fpi = 12 * 16 * 4;
      return bf16_dot_avx512(iters);
    case 3: *fpi = 8 * 8 * 2 + 8 * 8; return fma_add64_avx512(iters);
    case 4: *fpi = 8 * 16 * 2 + 8 * 16; return fma_add32_avx512(iters);
    default: return -1;
    }
  }
  if (isa == RLI_ISA_AVX2) {
    switch (k) {
    case 0: *fpi = 12 * 4 * 2; return fma64_avx2(iters);
    case 1: *fpi = 12 * 8 * 2; return fma32_avx2(iters);
    case 3: *fpi = 8 * 4 * 2 + 6 * 4; return fma_add64_avx2(iters);
    case 4: *fpi = 8 * 8 * 2 + 6 * 8; return fma_add32_avx2(iters);
    default: return -1;
    }
  }
#else
  (void)isa;
#endif
  switch (k) {
  case 0: *fpi = 12 * 2; return fma64_c(iters);
  case 1: *fpi = 12 * 2; return fma32_c(iters);
  default: return -1;
  }
}

/* ---- bandwidth kernels ------------------------------------------------- */
#if RLI_X86
static AVX512 double read_avx512(const double *a, size_t n) {
  __m512d s0 = _mm512_setzero_pd(), s1 = s0, s2 = s0, s3 = s0, s4 = s0,
          s5 = s0, s6 = s0, s7 = s0;
  for (size_t i = 0; i < n; i += 64) {
    s0 = _mm512_add_pd(s0, _mm512_load_pd(a + i));
    s1 = _mm512_add_pd(s1, _mm512_load_pd(a + i + 8));
    s2 = _mm512_add_pd(s2, _mm512_load_pd(a + i + 16));
    s3 = _mm512_add_pd(s3, _mm512_load_pd(a + i + 24));
    s4 = _mm512_add_pd(s4, _mm512_load_pd(a + i + 32));
    s5 = _mm512_add_pd(s5, _mm512_load_pd(a + i + 40));
    s6 = _mm512_add_pd(s6, _mm512_load_pd(a + i + 48));
    s7 = _mm512_add_pd(s7, _mm512_load_pd(a + i + 56));
  }
  s0 = _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(s0, s1), _mm512_add_pd(s2, s3)),
                     _mm512_add_pd(_mm512_add_pd(s4, s5), _mm512_add_pd(s6, s7)));
  return _mm512_reduce_add_pd(s0);
}
static AVX2 double read_avx2(const double *a, size_t n) {
  __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0, s4 = s0,
          s5 = s0, s6 = s0, s7 = s0;
  for (size_t i = 0; i < n; i += 32) {
    s0 = _mm256_add_pd(s0, _mm256_load_pd(a + i));
    s1 = _mm256_add_pd(s1, _mm256_load_pd(a + i + 4));
    s2 = _mm256_add_pd(s2, _mm256_load_pd(a + i + 8));
    s3 = _mm256_add_pd(s3, _mm256_load_pd(a + i + 12));
    s4 = _mm256_add_pd(s4, _mm256_load_pd(a + i + 16));
    s5 = _mm256_add_pd(s5, _mm256_load_pd(a + i + 20));
    s6 = _mm256_add_pd(s6, _mm256_load_pd(a + i + 24));
    s7 = _mm256_add_pd(s7, _mm256_load_pd(a + i + 28));
  }
  s0 = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(s0, s1), _mm256_add_pd(s2, s3)),
                     _mm256_add_pd(_mm256_add_pd(s4, s5), _mm256_add_pd(s6, s7)));
  return red256d(s0);
}
static AVX512 void copy_avx512(double *c, const double *a, size_t n, int nt) {
  if (nt) {
    for (size_t i = 0; i < n; i += 32) {
      _mm512_stream_pd(c + i, _mm512_load_pd(a + i));
      _mm512_stream_pd(c + i + 8, _mm512_load_pd(a + i + 8));
      _mm512_stream_pd(c + i + 16, _mm512_load_pd(a + i + 16));
      _mm512_stream_pd(c + i + 24, _mm512_load_pd(a + i + 24));
    }
    _mm_sfence();
    return;
  }
  for (size_t i = 0; i < n; i += 32) {
    _mm512_store_pd(c + i, _mm512_load_pd(a + i));
    _mm512_store_pd(c + i + 8, _mm512_load_pd(a + i + 8));
    _mm512_store_pd(c + i + 16, _mm512_load_pd(a + i + 16));
    _mm512_store_pd(c + i + 24, _mm512_load_pd(a + i + 24));
  }
}
static AVX2 void copy_avx2(double *c, const double *a, size_t n, int nt) {
  if (nt) {
    for (size_t i = 0; i < n; i += 16) {
      _mm256_stream_pd(c + i, _mm256_load_pd(a + i));
      _mm256_stream_pd(c + i + 4, _mm256_load_pd(a + i + 4));
      _mm256_stream_pd(c + i + 8, _mm256_load_pd(a + i + 8));
      _mm256_stream_pd(c + i + 12, _mm256_load_pd(a + i + 12));
    }
    _mm_sfence();
    return;
  }
  for (size_t i = 0; i < n; i += 16) {
    _mm256_store_pd(c + i, _mm256_load_pd(a + i));
    _mm256_store_pd(c + i + 4, _mm256_load_pd(a + i + 4));
    _mm256_store_pd(c + i + 8, _mm256_load_pd(a + i + 8));
    _mm256_store_pd(c + i + 12, _mm256_load_pd(a + i + 12));
  }
}
static AVX512 void triad_avx512(double *c, const double *a, const double *b,
                                double q, size_t n, int nt) {
  __m512d s = _mm512_set1_pd(q);
#define TRIAD512(o, ST) ST(c + i + o, _mm512_fmadd_pd(s, _mm512_load_pd(b + i + o), _mm512_load_pd(a + i + o)));
  if (nt) {
    for (size_t i = 0; i < n; i += 32) {
      TRIAD512(0, _mm512_stream_pd) TRIAD512(8, _mm512_stream_pd)
      TRIAD512(16, _mm512_stream_pd) TRIAD512(24, _mm512_stream_pd)
    }
    _mm_sfence();
    return;
  }
  for (size_t i = 0; i < n; i += 32) {
    TRIAD512(0, _mm512_store_pd) TRIAD512(8, _mm512_store_pd)
    TRIAD512(16, _mm512_store_pd) TRIAD512(24, _mm512_store_pd)
  }
#undef TRIAD512
}
static AVX2 void triad_avx2(double *c, const double *a, const double *b,
                            double q, size_t n, int nt) {
  __m256d s = _mm256_set1_pd(q);
#define TRIAD256(o, ST) ST(c + i + o, _mm256_fmadd_pd(s, _mm256_load_pd(b + i + o), _mm256_load_pd(a + i + o)));
  if (nt) {
    for (size_t i = 0; i < n; i += 16) {
      TRIAD256(0, _mm256_stream_pd) TRIAD256(4, _mm256_stream_pd)
      TRIAD256(8, _mm256_stream_pd) TRIAD256(12, _mm256_stream_pd)
    }
    _mm_sfence();
    return;
  }
  for (size_t i = 0; i < n; i += 16) {
    TRIAD256(0, _mm256_store_pd) TRIAD256(4, _mm256_store_pd)
    TRIAD256(8, _mm256_store_pd) TRIAD256(12, _mm256_store_pd)
  }
#undef TRIAD256
}
static AVX512 void add_avx512(float *c, const float *a, const float *b, size_t n) {
  for (size_t i = 0; i < n; i += 64) {
    _mm512_store_ps(c + i, _mm512_add_ps(_mm512_load_ps(a + i), _mm512_load_ps(b + i)));
    _mm512_store_ps(c + i + 16, _mm512_add_ps(_mm512_load_ps(a + i + 16), _mm512_load_ps(b + i + 16)));
    _mm512_store_ps(c + i + 32, _mm512_add_ps(_mm512_load_ps(a + i + 32), _mm512_load_ps(b + i + 32)));
    _mm512_store_ps(c + i + 48, _mm512_add_ps(_mm512_load_ps(a + i + 48), _mm512_load_ps(b + i + 48)));
  }
}
static AVX2 void add_avx2(float *c, const float *a, const float *b, size_t n) {
  for (size_t i = 0; i < n; i += 32) {
    _mm256_store_ps(c + i, _mm256_add_ps(_mm256_load_ps(a + i), _mm256_load_ps(b + i)));
    _mm256_store_ps(c + i + 8, _mm256_add_ps(_mm256_load_ps(a + i + 8), _mm256_load_ps(b + i + 8)));
    _mm256_store_ps(c + i + 16, _mm256_add_ps(_mm256_load_ps(a + i + 16), _mm256_load_ps(b + i + 16)));
    _mm256_store_ps(c + i + 24, _mm256_add_ps(_mm256_load_ps(a + i + 24), _mm256_load_ps(b + i + 24)));
  }
}
#endif /* RLI_X86 */

static NOSAN double read_c(const double *a, size_t n) {
  double s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (size_t i = 0; i < n; i += 8)
    for (int j = 0; j < 8; j++) s[j] += a[i + (size_t)j];
  return s[0] + s[1] + s[2] + s[3] + s[4] + s[5] + s[6] + s[7];
}

double rli_bw_read(int isa, const double *a, size_t n) {
#if RLI_X86
  if (isa == RLI_ISA_AVX512) return read_avx512(a, n);
  if (isa == RLI_ISA_AVX2) return read_avx2(a, n);
#endif
  (void)isa;
  return read_c(a, n);
}

void rli_bw_copy(int isa, int nt, double *c, const double *a, size_t n) {
#if RLI_X86
  if (isa == RLI_ISA_AVX512) { copy_avx512(c, a, n, nt); return; }
  if (isa == RLI_ISA_AVX2) { copy_avx2(c, a, n, nt); return; }
#endif
  (void)isa;
  (void)nt;
  for (size_t i = 0; i < n; i++) c[i] = a[i];
}

void rli_bw_triad(int isa, int nt, double *c, const double *a,
                  const double *b, double q, size_t n) {
#if RLI_X86
  if (isa == RLI_ISA_AVX512) { triad_avx512(c, a, b, q, n, nt); return; }
  if (isa == RLI_ISA_AVX2) { triad_avx2(c, a, b, q, n, nt); return; }
#endif
  (void)isa;
  (void)nt;
  for (size_t i = 0; i < n; i++) c[i] = a[i] + q * b[i];
}

void rli_add_f32(int isa, float *c, const float *a, const float *b, size_t n) {
#if RLI_X86
  if (isa == RLI_ISA_AVX512) { add_avx512(c, a, b, n); return; }
  if (isa == RLI_ISA_AVX2) { add_avx2(c, a, b, n); return; }
#endif
  (void)isa;
  for (size_t i = 0; i < n; i++) c[i] = a[i] + b[i];
}

uint64_t rli_add_chain(uint64_t iters) {
  uint64_t x = 0;
#if defined(__x86_64__)
  if (iters == 0) return 0;
  /* Register-register adds: Intel's Golden Cove and later cores fold a
   * dependent chain of add-immediate instructions in the renamer (several
   * per cycle), so `add $1, reg` timed a 9-17 GHz "clock" on a Sapphire
   * Rapids-class guest; an add of a register has one cycle of latency on
   * every x86-64 core (Agner Fog, "Instruction tables"; Intel optimization
   * manual, Golden Cove section). */
  uint64_t one = 1;
  __asm__ volatile("1:\n\t"
                   ".rept 32\n\t"
                   "add %2, %0\n\t"
                   ".endr\n\t"
                   "dec %1\n\t"
                   "jnz 1b\n\t"
                   : "+r"(x), "+r"(iters)
                   : "r"(one)
                   : "cc");
#else
  volatile uint64_t v = 0;
  for (uint64_t i = 0; i < iters * 32; i++) v = v + 1;
  x = v;
#endif
  return x;
}
