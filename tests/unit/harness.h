/*
 * harness.h -- a tiny test harness for the C unit tests (after cmark's
 * api_test/harness.h and Redis's testhelp.h).
 *
 *   static void test_units(void) { CHECK(x == 1); CHECK_NEAR(v, 3.35e12, 1e-9); }
 *   int main(void) { RUN(test_units); return harness_report("units"); }
 *
 * Prints each failure with file and line, and ends with the plain line
 * "units: N passed, M failed"; exits non-zero when anything failed.
 */
#ifndef RL_HARNESS_H
#define RL_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int harness_passed, harness_failed;

#define CHECK(cond)                                                           \
  do {                                                                        \
    if (cond) harness_passed++;                                               \
    else {                                                                    \
      harness_failed++;                                                       \
      fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond);      \
    }                                                                         \
  } while (0)

/* |got - want| <= rel * |want| (or <= rel when want == 0) */
#define CHECK_NEAR(got, want, rel)                                            \
  do {                                                                        \
    double g_ = (got), w_ = (want), r_ = (rel);                               \
    double tol_ = w_ == 0 ? r_ : r_ * fabs(w_);                               \
    if (isfinite(g_) && fabs(g_ - w_) <= tol_) harness_passed++;              \
    else {                                                                    \
      harness_failed++;                                                       \
      fprintf(stderr, "%s:%d: FAILED: %s = %.10g, want %.10g (rel %g)\n",     \
              __FILE__, __LINE__, #got, g_, w_, r_);                          \
    }                                                                         \
  } while (0)

#define CHECK_STR(got, want)                                                  \
  do {                                                                        \
    const char *g_ = (got), *w_ = (want);                                     \
    if (g_ && w_ && strcmp(g_, w_) == 0) harness_passed++;                    \
    else {                                                                    \
      harness_failed++;                                                       \
      fprintf(stderr, "%s:%d: FAILED: %s = \"%s\", want \"%s\"\n", __FILE__,  \
              __LINE__, #got, g_ ? g_ : "(null)", w_ ? w_ : "(null)");        \
    }                                                                         \
  } while (0)

#define RUN(fn) fn()

static inline int harness_report(const char *suite) {
  printf("%s: %d passed, %d failed\n", suite, harness_passed, harness_failed);
  return harness_failed ? 1 : 0;
}

#endif
