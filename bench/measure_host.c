/*
 * measure_host.c -- `roofline measure` on this machine, checked: the
 * benchmark of the host that used to be a unit test (it takes a minute or
 * more on a loaded 2-core machine, so it is not part of `make check`).
 *
 * One thread, two working sets per level (L1, L2, L3 when the machine
 * reports one, DRAM), the peaks: every figure positive and finite, each
 * outer level no faster than the inner one within the measured spreads (an
 * inversion is measured again, up to three times, before it fails), no
 * peak above 1.1 x its theoretical value (the measured clock x the lanes x
 * the units), the clock between 100 MHz and 10 GHz and under 2.5 x the
 * rated one, and the JSON record without nan or inf.
 *
 * Run: make bench-measure-host (builds build/bench/measure_host and runs
 * it from the repository root). Exit status 0 when every check held.
 */
#include "harness.h"

#include <roofline.h>
#include <stdlib.h>
#include <string.h>

/* Sanitizer builds instrument the timing loops around the (uninstrumented)
 * kernels, so the per-call cost swamps the short L1 samples there: the
 * level order is checked only in plain builds. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define RL_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define RL_TEST_SANITIZED 1
#endif
#endif
#ifndef RL_TEST_SANITIZED
#define RL_TEST_SANITIZED 0
#endif

/* 1 when each outer level is no faster than the inner one, within the
 * spreads; prints the first inversion. */
static int levels_ordered(const rl_levels *lv) {
  int prev = -1;
  for (int k = 0; k < RL_LEVEL_COUNT; k++) {
    if (!lv->found[k]) continue;
    if (prev >= 0) {
      double slack = 1 + lv->spread[prev] + lv->spread[k] + 0.10;
      if (!(lv->bw[prev] * slack >= lv->bw[k])) {
        fprintf(stderr, "  %s %g < %s %g\n", rl_level_name(prev), lv->bw[prev], rl_level_name(k), lv->bw[k]);
        return 0;
      }
    }
    prev = k;
  }
  return 1;
}

static void test_real_machine(void) {
  /* two working sets per level, one thread: L1, L2, L3, DRAM */
  rl_cpu_info cpu;
  rl_error e;
  CHECK(rl_cpu_probe(&cpu, NULL, NULL, &e) == RL_OK);
  CHECK(cpu.cpus >= 1);
  CHECK(cpu.measured_hz > 1e8 && cpu.measured_hz < 1e10);
  /* A chain the core can fold (add-immediate on Golden Cove) times a clock
   * several times the rated one; no turbo reaches 2.5x the base clock. */
  if (cpu.nominal_hz > 0) CHECK(cpu.measured_hz < 2.5 * cpu.nominal_hz);
  double ws[8];
  int n = 0;
  double l1 = cpu.cache[0] > 0 ? cpu.cache[0] : 32768, l2 = cpu.cache[1] > 0 ? cpu.cache[1] : 1 << 20;
  double l3 = cpu.cache[2] > 0 ? cpu.cache[2] : 8 << 20;
  ws[n++] = l1 / 4;
  ws[n++] = l1 / 2;
  ws[n++] = l2 / 4;
  ws[n++] = l2 / 2;
  if (cpu.cache[2] > 0) {
    ws[n++] = l3 / 8;
    ws[n++] = l3 / 4;
  }
  ws[n++] = 4 * l3 > 64e6 ? 4 * l3 : 64e6;
  ws[n++] = 8 * l3 > 128e6 ? 8 * l3 : 128e6;
  rl_measure_opts o;
  memset(&o, 0, sizeof o);
  o.threads = 1;
  o.quick = 1;
  o.parts = RL_MEASURE_PEAK | RL_MEASURE_READ;
  o.ws = ws;
  o.n_ws = n;
  rl_measurement *m = calloc(1, sizeof *m);
  /* On a shared machine one sample can be disturbed: an inversion of the
   * level order is measured again, and fails only when it persists over
   * three measurements. */
  int ordered = 0;
  for (int attempt = 0; attempt < 3 && !ordered; attempt++) {
    CHECK(rl_measure(&o, m, &e) == RL_OK);
    ordered = RL_TEST_SANITIZED || levels_ordered(&m->bandwidth_1t);
  }
  CHECK(ordered);
  for (int k = 0; k < RL_PK_COUNT; k++) {
    if (m->peak.flops[k] == 0) continue;
    CHECK(isfinite(m->peak.flops[k]) && m->peak.flops[k] > 0);
    CHECK(m->peak.theory[k] > 0);
    CHECK(m->peak.flops[k] <= 1.1 * m->peak.theory[k]);
    if (m->peak.flops[k] > 1.1 * m->peak.theory[k])
      fprintf(stderr, "  peak %s %g above theory %g\n", rl_peak_kernel_name(k), m->peak.flops[k], m->peak.theory[k]);
  }
  CHECK(m->peak.flops[RL_PK_FP64_FMA] > 0 && m->peak.flops[RL_PK_FP32_FMA] > 0);
  const rl_levels *lv = &m->bandwidth_1t;
  for (int k = 0; k < RL_LEVEL_COUNT; k++)
    if (lv->found[k]) CHECK(isfinite(lv->bw[k]) && lv->bw[k] > 0);
  CHECK(lv->found[RL_LEVEL_L1] && lv->found[RL_LEVEL_DRAM]);
  CHECK(m->tick_s > 0 && m->wall_s > 0);
  CHECK(isfinite(m->spread_median));
  size_t need = rl_measure_json(m, NULL, 0);
  char *js = malloc(need + 1);
  rl_measure_json(m, js, need + 1);
  CHECK(strstr(js, "nan") == NULL && strstr(js, "inf\"") == NULL);
  free(js);
  free(m);
}

int main(void) {
  RUN(test_real_machine);
  return harness_report("measure_host");
}
