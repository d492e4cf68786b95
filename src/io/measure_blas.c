/*
 * measure_blas.c -- OpenBLAS for the gemm part of `roofline measure`,
 * loaded at run time with dlopen (POSIX dlopen/dlsym, The Open Group Base
 * Specifications Issue 7).
 *
 * Linked at build time, OpenBLAS and its libgfortran cost every process
 * about 8 M instructions before main (the dynamic loader relocating their
 * symbols, measured with callgrind: bench/cli-latency), for a library only
 * `measure` uses. Loaded here, a query that does not measure never maps it.
 * The CBLAS entry points are OpenBLAS's (cblas_sgemm, cblas_dgemm: the
 * reference CBLAS interface, netlib.org/blas/blast-forum, Annex B) and its
 * openblas_set_num_threads.
 *
 * Which library: $ROOFLINE_OPENBLAS when set (a path or a soname: only
 * that one is tried), else libopenblas.so.0 (the runtime package, Debian's
 * libopenblas0), else libopenblas.so (the development link).
 */
#include "measure_kernels.h"
#include "core/internal.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* dlsym returns an object pointer; POSIX guarantees it converts to a
 * function pointer (XSH 2.12.3), which the copy spells out. */
static int sym(void *h, const char *name, void *fn, size_t size) {
  void *p = dlsym(h, name);
  if (!p) return 0;
  memcpy(fn, &p, size);
  return 1;
}

rl_status rli_blas_load(rli_blas *b, rl_error *err) {
  memset(b, 0, sizeof *b);
  const char *env = getenv("ROOFLINE_OPENBLAS");
  static const char *const names[] = {"libopenblas.so.0", "libopenblas.so"};
  const char *tried = env && env[0] ? env : names[0];
  char why[256] = "";
  void *h = dlopen(tried, RTLD_NOW | RTLD_LOCAL);
  if (!h) { /* the first failure says the most: keep its text */
    const char *e = dlerror();
    rli_strlcpy(why, e ? e : tried, sizeof why);
  }
  for (size_t i = 1; !h && !(env && env[0]) && i < sizeof names / sizeof names[0]; i++)
    h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return rli_fail(err, RL_EUNSUPPORTED,
                    "the gemm part needs OpenBLAS, which could not be loaded (%s): install it (Debian/Ubuntu: "
                    "libopenblas0), point ROOFLINE_OPENBLAS at it, or measure without gemm (`kernel` peak,bandwidth,add)",
                    why);
  static const char *const fns[] = {"cblas_sgemm", "cblas_dgemm", "openblas_set_num_threads"};
  int ok[3] = {sym(h, fns[0], &b->sgemm, sizeof b->sgemm), sym(h, fns[1], &b->dgemm, sizeof b->dgemm),
               sym(h, fns[2], &b->set_num_threads, sizeof b->set_num_threads)};
  for (int i = 0; i < 3; i++)
    if (!ok[i]) {
      memset(b, 0, sizeof *b);
      return rli_fail(err, RL_EUNSUPPORTED, "%s has no %s: the gemm part needs OpenBLAS's CBLAS",
                      env && env[0] ? env : "the OpenBLAS library loaded", fns[i]);
    }
  return RL_OK;
}
