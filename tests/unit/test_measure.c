/*
 * test_measure.c -- `roofline measure` without depending on the machine's
 * speed: statistics, STREAM byte counts, plateau detection and levels on
 * made-up sweeps, the sampling discipline on made-up sample series (a
 * preempted first sample, too few clean samples, the timer's overhead),
 * the benchmark runner with an injected clock and injected kernel timings, the analysis (roofs, fractions), JSON, the hardware row
 * round trip, bad input through the CLI; and, on the real machine, only
 * cheap checks that cannot flake (the clock against a multiply chain; two
 * threads over three small working sets). The whole machine measured (every
 * level in order, every peak under its theoretical value) benchmarks the
 * host, so it is bench/measure_host.c (`make bench-measure-host`).
 */
#include "harness.h"
#include "cli.h"
#include "core/internal.h"

#include <stdlib.h>
#include <string.h>

static void test_stats(void) {
  double x[] = {3, 1, 2, 10, 4};
  rl_stats s;
  rl_error e;
  CHECK(rl_stats_of(x, 5, &s, &e) == RL_OK);
  CHECK_NEAR(s.min, 1, 1e-12);
  CHECK_NEAR(s.median, 3, 1e-12);
  CHECK_NEAR(s.max, 10, 1e-12);
  CHECK_NEAR(s.mean, 4, 1e-12);
  CHECK_NEAR(s.spread, 9, 1e-12);
  CHECK(s.n == 5);
  double y[] = {2, 4};
  CHECK(rl_stats_of(y, 2, &s, &e) == RL_OK);
  CHECK_NEAR(s.median, 3, 1e-12);
  CHECK(rl_stats_of(y, 0, &s, &e) == RL_EINVAL);
  double bad[] = {1, (double)NAN};
  CHECK(rl_stats_of(bad, 2, &s, &e) == RL_EINVAL);
  CHECK(strstr(e.msg, "sample 1") != NULL);
}

static void test_traffic(void) {
  double b, f;
  rl_error e;
  /* STREAM: copy 16 B, triad 24 B per double element; read 8; add 12 in fp32 */
  CHECK(rl_bw_traffic(RL_BW_READ, 1000, 8, &b, &f, &e) == RL_OK);
  CHECK_NEAR(b, 8000, 1e-12);
  CHECK_NEAR(f, 1000, 1e-12);
  CHECK(rl_bw_traffic(RL_BW_COPY, 1000, 8, &b, &f, &e) == RL_OK);
  CHECK_NEAR(b, 16000, 1e-12);
  CHECK_NEAR(f, 0, 1e-12);
  CHECK(rl_bw_traffic(RL_BW_TRIAD, 1000, 8, &b, &f, &e) == RL_OK);
  CHECK_NEAR(b, 24000, 1e-12);
  CHECK_NEAR(f, 2000, 1e-12);
  CHECK(rl_bw_traffic(RL_BW_ADD, 1000, 4, &b, &f, &e) == RL_OK);
  CHECK_NEAR(b, 12000, 1e-12);
  CHECK_NEAR(f, 1000, 1e-12);
  CHECK(rl_bw_traffic(7, 1000, 8, &b, &f, &e) == RL_ENOTFOUND);
  CHECK(rl_bw_traffic(RL_BW_READ, 0, 8, &b, &f, &e) == RL_EINVAL);
  CHECK(rl_bw_kernel_arrays(RL_BW_TRIAD) == 3);
  CHECK_STR(rl_bw_kernel_name(RL_BW_COPY), "copy");
  CHECK_STR(rl_level_name(RL_LEVEL_DRAM), "dram");
  CHECK_STR(rl_peak_kernel_name(RL_PK_FP32_FMA_ADD), "fp32_fma_add");
}

/* A staircase like a real CPU's: 200 GB/s to 32 KiB, 100 to 1 MiB, 80 to
 * 32 MiB, 25 beyond, with transition points and +-3% noise. */
#define NS 24
static void staircase(double *ws, double *bw) {
  static const double noise[] = {1.00, 1.03, 0.98, 1.01, 0.97, 1.02};
  for (int i = 0; i < NS; i++) {
    ws[i] = 4096.0 * pow(2, i * 0.75);
    double v = ws[i] <= 32768 ? 200e9 : ws[i] <= 1048576 ? 100e9 : ws[i] <= 33554432 ? 80e9 : 25e9;
    if (ws[i] > 32768 && ws[i] < 60000) v = 150e9;      /* transition L1 -> L2 */
    if (ws[i] > 33554432 && ws[i] < 60e6) v = 45e9;     /* transition L3 -> DRAM */
    bw[i] = v * noise[i % 6];
  }
}

static void test_plateaus(void) {
  double ws[NS], bw[NS];
  staircase(ws, bw);
  rl_plateau pl[16];
  int32_t n = 0;
  rl_error e;
  CHECK(rl_find_plateaus(ws, bw, NS, 0.15, 2, pl, 16, &n, &e) == RL_OK);
  CHECK(n == 4);
  CHECK_NEAR(pl[0].value, 200e9, 0.04);
  CHECK_NEAR(pl[1].value, 100e9, 0.04);
  CHECK_NEAR(pl[2].value, 80e9, 0.04);
  CHECK_NEAR(pl[n - 1].value, 25e9, 0.04);
  CHECK(pl[0].spread < 0.1);
  double cache[3] = {32768, 1048576, 33554432};
  rl_levels lv;
  CHECK(rl_bw_levels(ws, bw, NS, cache, 0.15, &lv, &e) == RL_OK);
  CHECK_NEAR(lv.bw[RL_LEVEL_L1], 200e9, 0.04);
  CHECK_NEAR(lv.bw[RL_LEVEL_L2], 100e9, 0.04);
  CHECK_NEAR(lv.bw[RL_LEVEL_L3], 80e9, 0.04);
  CHECK_NEAR(lv.bw[RL_LEVEL_DRAM], 25e9, 0.04);
  for (int k = 0; k < 4; k++) CHECK(lv.found[k] == 1);
  /* a level without a plateau: one point in L2 only -> median, found 2 */
  double ws2[] = {8192, 16384, 262144, 67108864, 134217728};
  double bw2[] = {200e9, 201e9, 100e9, 25e9, 25.5e9};
  double cache2[3] = {32768, 1048576, 0};
  CHECK(rl_bw_levels(ws2, bw2, 5, cache2, 0.15, &lv, &e) == RL_OK);
  CHECK(lv.found[RL_LEVEL_L2] == 2);
  CHECK_NEAR(lv.bw[RL_LEVEL_L2], 100e9, 1e-12);
  CHECK(lv.found[RL_LEVEL_L3] == 0);
  CHECK_NEAR(lv.bw[RL_LEVEL_DRAM], 25.25e9, 1e-9);
  /* bad sweeps */
  double desc[] = {2, 1};
  CHECK(rl_find_plateaus(desc, bw2, 2, 0.15, 2, pl, 16, &n, &e) == RL_EINVAL);
  CHECK(rl_find_plateaus(ws2, bw2, 5, 0, 2, pl, 16, &n, &e) == RL_EINVAL);
}

/* ---- the runner with an injected clock and injected kernel timings ---- */
typedef struct fake {
  double t;          /* the fake clock, s */
  double tick;       /* each reading advances it by this */
  const double *cost; /* seconds per repetition, one entry per call */
  int ncost, calls;
  int fail_at;       /* call index whose check fails, -1 none */
} fake;

static double fake_clock(void *u) {
  fake *f = u;
  f->t += f->tick;
  return f->t;
}

static int fake_kernel(void *u, int64_t reps) {
  fake *f = u;
  double c = f->cost[f->calls < f->ncost ? f->calls : f->ncost - 1];
  f->t += c * (double)reps;
  return f->calls++ == f->fail_at;
}

static void test_bench(void) {
  double cost[] = {1e-6};
  fake f = {0, 1e-9, cost, 1, 0, -1};
  rl_bench_spec bs;
  memset(&bs, 0, sizeof bs);
  bs.kernel = fake_kernel;
  bs.arg = &f;
  bs.clock = fake_clock;
  bs.clock_user = &f;
  bs.min_time_s = 1e-3;
  bs.repeats = 5;
  rl_bench_result r;
  rl_error e;
  CHECK(rl_bench_run(&bs, &r, &e) == RL_OK);
  CHECK_NEAR(r.tick_s, 1e-9, 1e-6);
  CHECK(r.reps >= 1000); /* grown until a sample lasts 1 ms */
  CHECK_NEAR(r.per_rep.min, 1e-6, 1e-3);
  CHECK(r.per_rep.n == 5);
  CHECK(r.per_rep.spread < 1e-3);
  /* injected noise: the timed samples cost 1, 1.5, 1, 3, 1.2 us */
  double noisy[] = {1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6, 1e-6};
  f = (fake){0, 1e-9, noisy, 12, 0, -1};
  CHECK(rl_bench_run(&bs, &r, &e) == RL_OK);
  int calib = f.calls - 5; /* calibration and warm-up calls */
  double n2[32];
  for (int i = 0; i < 32; i++) n2[i] = 1e-6;
  n2[calib + 1] = 1.5e-6;
  n2[calib + 3] = 3e-6;
  n2[calib + 4] = 1.2e-6;
  f = (fake){0, 1e-9, n2, 32, 0, -1};
  CHECK(rl_bench_run(&bs, &r, &e) == RL_OK);
  CHECK_NEAR(r.per_rep.min, 1e-6, 1e-3);
  CHECK_NEAR(r.per_rep.median, 1.2e-6, 1e-3);
  CHECK_NEAR(r.per_rep.max, 3e-6, 1e-3);
  CHECK_NEAR(r.per_rep.spread, 2, 1e-2);
  /* a failed result check */
  f = (fake){0, 1e-9, cost, 1, 0, 3};
  CHECK(rl_bench_run(&bs, &r, &e) == RL_EINVAL);
  CHECK(strstr(e.msg, "check") != NULL);
  /* a clock that never advances */
  f = (fake){0, 0, cost, 1, 0, -1};
  bs.kernel = fake_kernel;
  CHECK(rl_bench_run(&bs, &r, &e) == RL_EINVAL);
  CHECK(rl_clock_tick(fake_clock, &f) == 0);
  /* the real clock */
  double tick = rl_clock_tick(NULL, NULL);
  CHECK(tick > 0 && tick < 1e-3);
}

/* ---- the sampling discipline on made-up series (measure_sample.c) ------ */
/* Feeds the sampler a machine whose kernel costs `per` s a repetition;
 * the samples listed in `bad` (by index, calibration included) are
 * preempted: they last `extra` s longer and are marked clean or not as
 * `seen` says. Returns the samples taken. */
static int feed(rli_sampler *s, double per, const int *bad, int nbad, double extra, int seen, int clean_after) {
  int i = 0;
  for (; i < 1000; i++) {
    double dt = per * (double)s->reps;
    int clean = 1, b = 0;
    for (int j = 0; j < nbad; j++) b |= bad[j] == i;
    if (b) {
      dt += extra;
      clean = !seen;
    }
    if (clean_after >= 0 && i >= clean_after) clean = 0; /* a busy machine from then on */
    if (!rli_sampler_add(s, dt, clean)) return i + 1;
  }
  return i;
}

static void test_sampler(void) {
  rl_stats t;
  rl_error e;
  rli_sampler s;
  const double per = 34e-9, min_time = 1e-3, ovh = 2 * 29e-9;
  /* a quiet machine: calibrated to >= 1 ms, 5 clean samples, trusted */
  rli_sampler_init(&s, min_time, ovh, 5, 15);
  int n = feed(&s, per, NULL, 0, 0, 0, -1);
  CHECK(rli_sampler_result(&s, &t, &e) == RL_OK);
  CHECK(t.disturbed == 0 && t.n == 5);
  CHECK_NEAR(t.min, per, 1e-9);
  CHECK((double)s.reps * per >= min_time);
  CHECK(n > 5 && n < 15);
  /* the first sample (1 repetition) preempted for 2.5 ms, and seen: it
   * does not end the calibration */
  int first[] = {0};
  rli_sampler_init(&s, min_time, ovh, 5, 15);
  feed(&s, per, first, 1, 2.5e-3, 1, -1);
  CHECK(rli_sampler_result(&s, &t, &e) == RL_OK);
  CHECK(t.disturbed == 0 && (double)s.reps * per >= min_time);
  CHECK_NEAR(t.min, per, 1e-9);
  CHECK(s.recalibrations == 0);
  /* ... and not seen (a vCPU held by the hypervisor looks clean): the
   * samples after it, 34 ns against a 1 ms calibration, send the sampler
   * back to calibrating */
  rli_sampler_init(&s, min_time, ovh, 5, 15);
  feed(&s, per, first, 1, 2.5e-3, 0, -1);
  CHECK(rli_sampler_result(&s, &t, &e) == RL_OK);
  CHECK(s.recalibrations == 1);
  CHECK(t.disturbed == 0 && (double)s.reps * per >= min_time && t.n == 5);
  CHECK_NEAR(t.min, per, 1e-9);
  /* the same with the calibration fooled four times over: after the
   * third recalibration the short samples are timed, and marked: the
   * timer is above 1% of them */
  rli_sampler_init(&s, min_time, ovh, 5, 15);
  rli_sampler_add(&s, 2.5e-3, 1); /* fooled at reps = 1 */
  CHECK(s.calibrated && s.reps == 1);
  for (int r = 0; r < 3; r++) {
    rli_sampler_add(&s, 1e-6, 1); /* too short: back to calibrating, reps x 100 */
    CHECK(!s.calibrated);
    rli_sampler_add(&s, 2.5e-3, 1); /* fooled again */
    CHECK(s.calibrated);
  }
  CHECK(s.recalibrations == 3 && s.reps == 1000000);
  while (rli_sampler_add(&s, 1e-6, 1)) {}
  CHECK(s.reps == 1000000 && s.n_clean == 5);
  CHECK(rli_sampler_result(&s, &t, &e) == RL_OK);
  CHECK(t.disturbed == RL_DISTURB_TIMER);
  /* too few clean samples: a machine busy from the first timed sample on
   * but one (calibrated at the 4th sample: 1, 100, 10^4, 35294 reps) */
  rli_sampler_init(&s, min_time, ovh, 5, 15);
  n = feed(&s, per, NULL, 0, 0, 0, 5);
  CHECK(rli_sampler_result(&s, &t, &e) == RL_OK);
  CHECK(t.disturbed == RL_DISTURB_FEW_CLEAN && t.n == 1);
  CHECK(s.tries == 30 && n == 4 + 30); /* bounded: 3 x repeats, then on to 6 x for 3 clean */
  CHECK_NEAR(t.min, per, 1e-9);
  /* two clean samples among preempted ones (seen): still too few; the
   * figure is over those two */
  int bad[64], nb = 0;
  for (int i = 5; i < 64; i++)
    if (i != 7) bad[nb++] = i;
  rli_sampler_init(&s, min_time, ovh, 5, 15);
  feed(&s, per, bad, nb, 5e-4, 1, -1);
  CHECK(rli_sampler_result(&s, &t, &e) == RL_OK);
  CHECK(t.disturbed == RL_DISTURB_FEW_CLEAN && t.n == 2 && s.n_clean == 2);
  CHECK_NEAR(t.min, per, 1e-9);
  /* three clean: enough, found past the 15 tries */
  nb = 0;
  for (int i = 5; i < 64; i++)
    if (i != 7 && i != 20) bad[nb++] = i;
  rli_sampler_init(&s, min_time, ovh, 5, 15);
  feed(&s, per, bad, nb, 5e-4, 1, -1);
  CHECK(rli_sampler_result(&s, &t, &e) == RL_OK);
  CHECK(t.disturbed == 0 && s.n_clean == 3 && s.tries == 17);
  /* the timer: a tick of 10 us against 1 ms samples is 2% of them */
  rli_sampler_init(&s, min_time, 2e-5, 5, 15);
  feed(&s, per, NULL, 0, 0, 0, -1);
  CHECK(rli_sampler_result(&s, &t, &e) == RL_OK);
  CHECK(t.disturbed == RL_DISTURB_TIMER);
  /* nothing timed: an error, never a figure */
  rli_sampler_init(&s, min_time, ovh, 5, 15);
  CHECK(rli_sampler_result(&s, &t, &e) == RL_EINVAL);
}

/* The runner (rl_bench_run) on a clock that costs 30 ns a reading and a
 * kernel of 34 ns whose first call is preempted for 3 ms: without the
 * sampler's rules it would time 1-repetition samples, each 64 ns (the
 * clock's cost counted twice as much as the work). */
static void test_bench_preempted(void) {
  double cost[64];
  cost[0] = 3e-3;
  for (int i = 1; i < 64; i++) cost[i] = 34e-9;
  fake f = {0, 30e-9, cost, 64, 0, -1};
  rl_bench_spec bs;
  memset(&bs, 0, sizeof bs);
  bs.kernel = fake_kernel;
  bs.arg = &f;
  bs.clock = fake_clock;
  bs.clock_user = &f;
  bs.min_time_s = 1e-3;
  bs.repeats = 5;
  rl_bench_result r;
  rl_error e;
  CHECK(rl_bench_run(&bs, &r, &e) == RL_OK);
  CHECK(r.reps >= 1000 && r.per_rep.disturbed == 0);
  CHECK_NEAR(r.per_rep.min, 34e-9, 0.01);
}

/* ---- the analysis on an injected measurement --------------------------- */
static void fake_measurement(rl_measurement *m) {
  memset(m, 0, sizeof *m);
  snprintf(m->cpu.model, sizeof m->cpu.model, "Test CPU");
  snprintf(m->cpu.vendor, sizeof m->cpu.vendor, "TestVendor");
  snprintf(m->cpu.simd, sizeof m->cpu.simd, "avx2 fma avx512f");
  m->cpu.cache[0] = 32768;
  m->cpu.cache[1] = 1048576;
  m->cpu.cache[2] = 33554432;
  m->cpu.cache_shared[0] = m->cpu.cache_shared[1] = 1;
  m->cpu.cache_shared[2] = 2;
  m->cpu.mem_bytes = 16e9;
  m->cpu.measured_hz = 3.5e9;
  m->threads = 1;
  m->repeats = 5;
  m->parts = RL_MEASURE_ALL;
  m->peak.flops[RL_PK_FP32_FMA] = 100e9;
  m->peak.flops[RL_PK_FP64_FMA] = 50e9;
  m->peak.theory[RL_PK_FP32_FMA] = 112e9;
  m->peak.t[RL_PK_FP32_FMA].spread = 0.01;
  m->peak_1t = m->peak;
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < 3; k++) m->sweep[t][k].kernel = -1;
  double ws[NS], bw[NS];
  staircase(ws, bw);
  for (int t = 0; t < 2; t++) {
    rl_sweep *s = &m->sweep[t][RL_BW_READ];
    s->kernel = RL_BW_READ;
    s->threads = 1;
    rl_cache_capacity(&m->cpu, 1, s->cache);
    s->n = NS;
    for (int i = 0; i < NS; i++) {
      s->p[i].ws = ws[i];
      s->p[i].bytes = ws[i];
      s->p[i].bw = bw[i];
      s->p[i].t.min = ws[i] / bw[i];
      s->p[i].t.spread = 0.02;
    }
  }
  /* an add of 1 Mi floats (12.6 MB: L3) at 5 GFLOP/s and a matmul */
  rl_measure_point *p = &m->points[0];
  snprintf(p->op, sizeof p->op, "add");
  p->dtype = RL_FP32;
  p->threads = 1;
  p->n = 1048576;
  p->flops = 1048576;
  p->bytes = 12 * 1048576.0;
  p->intensity = p->flops / p->bytes;
  p->t.min = p->flops / 5e9;
  p->achieved = 5e9;
  p = &m->points[1];
  snprintf(p->op, sizeof p->op, "sgemm");
  p->dtype = RL_FP32;
  p->threads = 1;
  p->n = 1024;
  p->flops = 2.0 * 1024 * 1024 * 1024;
  p->bytes = 3 * 4.0 * 1024 * 1024;
  p->intensity = p->flops / p->bytes;
  p->t.min = p->flops / 90e9;
  p->achieved = 90e9;
  m->n_points = 2;
}

/* An op's bandwidth roof is the best measured at its level: the plateau's
 * figure (a median) or a faster sweep point of the level, never less than
 * what the machine was seen to do; a faster point of another level does
 * not count */
static void test_roof_best_of_level(void) {
  rl_measurement *m = calloc(1, sizeof *m);
  fake_measurement(m);
  rl_error e;
  CHECK(rl_measure_analyze(m, &e) == RL_OK);
  double l3 = m->bandwidth.bw[RL_LEVEL_L3];
  rl_sweep *s = &m->sweep[0][RL_BW_READ];
  int in_l3 = -1, in_dram = -1;
  for (int i = 0; i < s->n; i++) {
    if (in_l3 < 0 && s->p[i].ws > 2 * 1048576.0 && s->p[i].ws <= 8 * 1048576.0) in_l3 = i;
    if (s->p[i].ws > 4 * 33554432.0) in_dram = i;
  }
  CHECK(in_l3 >= 0 && in_dram >= 0);
  if (in_l3 >= 0 && in_dram >= 0) {
    s->p[in_l3].bw = 1.3 * l3;
    s->p[in_dram].bw = 3 * l3;
    m->sweep[1][RL_BW_READ] = *s;
    CHECK(rl_measure_analyze(m, &e) == RL_OK);
    const rl_measure_point *a = &m->points[0];
    CHECK(a->level == RL_LEVEL_L3);
    CHECK_NEAR(a->bandwidth, 1.3 * l3, 1e-12);
    CHECK_NEAR(a->roof, 1.3 * l3 / 12, 1e-9);
  }
  free(m);
}

static void test_analyze(void) {
  rl_measurement *m = calloc(1, sizeof *m);
  fake_measurement(m);
  rl_error e;
  CHECK(rl_measure_analyze(m, &e) == RL_OK);
  CHECK_NEAR(m->bandwidth.bw[RL_LEVEL_L1], 200e9, 0.04);
  CHECK_NEAR(m->bandwidth.bw[RL_LEVEL_DRAM], 25e9, 0.04);
  const rl_measure_point *a = &m->points[0], *g = &m->points[1];
  CHECK(a->level == RL_LEVEL_L3);
  CHECK(a->bound == RL_BOUND_MEMORY);
  /* the best measured at L3: its fastest point (80 GB/s x the staircase's
   * 1.03), above the plateau's figure */
  CHECK(a->bandwidth >= m->bandwidth.bw[RL_LEVEL_L3]);
  CHECK_NEAR(a->roof, 80e9 * 1.03 / 12, 1e-9);
  CHECK_NEAR(a->roof_fraction, 5e9 / a->roof, 1e-9);
  CHECK_NEAR(a->roof_dram, m->bandwidth.bw[RL_LEVEL_DRAM] / 12, 1e-9);
  CHECK(g->bound == RL_BOUND_COMPUTE);
  CHECK_NEAR(g->roof, 100e9, 1e-12);
  CHECK_NEAR(g->roof_fraction, 0.9, 1e-9);
  CHECK(!m->noisy);
  CHECK_NEAR(m->spread_median, 0.02, 1e-9);
  /* noisy */
  for (int i = 0; i < NS; i++) m->sweep[0][0].p[i].t.spread = m->sweep[1][0].p[i].t.spread = 0.4;
  CHECK(rl_measure_analyze(m, &e) == RL_OK);
  CHECK(m->noisy);
  /* JSON: the keys of docs/schema/measure.json, base units */
  size_t need = rl_measure_json(m, NULL, 0);
  char *js = malloc(need + 1);
  CHECK(rl_measure_json(m, js, need + 1) == need);
  CHECK(strstr(js, "\"peak\":{\"fp64\":50000000000,\"fp32\":100000000000}") != NULL);
  CHECK(strstr(js, "\"measured_s_stats\":{\"min\":") != NULL);
  CHECK(strstr(js, "\"peak_1t\":{") != NULL);
  CHECK(strstr(js, "\"bandwidth\":{\"l1\":") != NULL);
  CHECK(strstr(js, "\"bandwidth_1t\":{\"l1\":") != NULL);
  CHECK(strstr(js, "\"points\":[{\"op\":\"add\"") != NULL);
  CHECK(strstr(js, "\"roof_fraction\":") != NULL);
  CHECK(strstr(js, "\"intensity\":") != NULL);
  CHECK(strstr(js, "nan") == NULL && strstr(js, "inf") == NULL);
  free(js);
  /* the hardware row reads back */
  rl_hw hw, back;
  CHECK(rl_measure_to_hw(m, "my-cpu", &hw, &e) == RL_OK);
  /* the source says how it was measured without a front end's flags */
  CHECK(rl_hw_measured(&hw) && strstr(hw.source, "--") == NULL);
  int32_t was_quick = m->quick;
  m->quick = 1;
  rl_hw quick_hw;
  CHECK(rl_measure_to_hw(m, "my-cpu", &quick_hw, &e) == RL_OK);
  CHECK(strncmp(quick_hw.source, "roofline measure (quick): ", 26) == 0 && strstr(quick_hw.source, "--") == NULL);
  m->quick = was_quick;
  char row[2048];
  size_t len = rl_hw_csv(&hw, 1, row, sizeof row);
  CHECK(len < sizeof row);
  int32_t n = 0;
  CHECK(rl_hw_parse_csv(row, len, &back, 1, &n, &e) == RL_OK);
  CHECK(n == 1);
  CHECK_STR(back.id, "my-cpu");
  CHECK_NEAR(back.peak[RL_PEAK_FP32], 100e9, 1e-5);
  CHECK_NEAR(back.peak[RL_PEAK_FP64], 50e9, 1e-5);
  CHECK_NEAR(back.mem_bw, hw.mem_bw, 1e-5);
  CHECK_NEAR(back.l1_bw, hw.l1_bw, 1e-5);
  CHECK_NEAR(back.l2_bytes, 33554432, 1e-5);
  CHECK(rl_measure_to_hw(m, "bad id", &hw, &e) == RL_EINVAL);
  CHECK(strstr(hw.source, RL_HW_LEFT_OUT) == NULL);
  /* --save-hw and disturbed samples: a figure that stayed disturbed is left
   * out of the row and named in its source; without a clean peak or a
   * clean DRAM bandwidth there is no row */
  m->peak_unreliable[RL_PK_FP64_FMA] = RL_DISTURB_BELOW_1T;
  m->bandwidth.unreliable[RL_LEVEL_L2] = RL_DISTURB_BELOW_HALF;
  CHECK(rl_measure_to_hw(m, "my-cpu", &hw, &e) == RL_OK);
  CHECK(hw.peak[RL_PEAK_FP64] == 0);
  CHECK_NEAR(hw.peak[RL_PEAK_FP32], 100e9, 1e-9);
  CHECK(hw.l2_bw == 0 && hw.l1_bw > 0 && hw.mem_bw > 0);
  CHECK(strstr(hw.source, RL_HW_LEFT_OUT " fp64 peak, L2 bandwidth") != NULL);
  len = rl_hw_csv(&hw, 1, row, sizeof row);
  CHECK(rl_hw_parse_csv(row, len, &back, 1, &n, &e) == RL_OK);
  CHECK(back.peak[RL_PEAK_FP64] == 0 && back.l2_bw == 0); /* unknown in the file too */
  m->peak_unreliable[RL_PK_FP32_FMA] = RL_DISTURB_BELOW_1T;
  CHECK(rl_measure_to_hw(m, "my-cpu", &hw, &e) == RL_EINVAL);
  CHECK(strstr(e.msg, "FP32 and FP64 peaks stayed disturbed") != NULL);
  m->peak_unreliable[RL_PK_FP32_FMA] = 0;
  m->bandwidth.unreliable[RL_LEVEL_DRAM] = RL_DISTURB_BELOW_1T;
  CHECK(rl_measure_to_hw(m, "my-cpu", &hw, &e) == RL_EINVAL);
  CHECK(strstr(e.msg, "DRAM bandwidth stayed disturbed") != NULL);
  free(m);
}

/* A disturbed sample (seen on a shared 2-core machine: the 2-thread
 * FP64 peak 8.3 GFLOP/s, the 1-thread one 59) */
static void test_disturbed(void) {
  const uint32_t both = RL_DISTURB_BELOW_1T | RL_DISTURB_BELOW_HALF;
  CHECK(rl_measure_disturbed(8.3e9, 59e9, 2, 118e9) == both);
  CHECK(rl_measure_disturbed(110e9, 59e9, 2, 118e9) == 0);
  CHECK(rl_measure_disturbed(59e9, 59e9, 2, 118e9) == 0); /* equal: not below */
  CHECK(rl_measure_disturbed(58e9, 59e9, 2, 0) == RL_DISTURB_BELOW_1T);
  CHECK(rl_measure_disturbed(70e9, 59e9, 2, 150e9) == RL_DISTURB_BELOW_HALF);
  CHECK(rl_measure_disturbed(40e9, 50e9, 1, 0) == 0);     /* one thread: no 1t rule */
  CHECK(rl_measure_disturbed(40e9, 0, 1, 100e9) == RL_DISTURB_BELOW_HALF);
  CHECK(rl_measure_disturbed(0, 59e9, 2, 118e9) == 0);    /* not measured */

  rl_measurement *m = calloc(1, sizeof *m);
  fake_measurement(m);
  m->threads = 2;
  m->peak_1t.flops[RL_PK_FP64_FMA] = 59e9;
  m->peak_1t.theory[RL_PK_FP64_FMA] = 59e9;
  m->peak.flops[RL_PK_FP64_FMA] = 8.3e9;
  m->peak.theory[RL_PK_FP64_FMA] = 118e9;
  m->peak.flops[RL_PK_FP32_FMA] = 200e9;
  m->peak.theory[RL_PK_FP32_FMA] = 224e9;
  rl_sweep *s = &m->sweep[0][RL_BW_READ];
  s->threads = 2;
  for (int i = 0; i < s->n; i++) /* DRAM with two threads at half of one */
    if (s->p[i].ws > 4 * m->cpu.cache[2]) s->p[i].bw *= 0.5;
  rl_error e;
  CHECK(rl_measure_analyze(m, &e) == RL_OK);
  CHECK(m->peak_unreliable[RL_PK_FP64_FMA] == both);
  CHECK(m->peak_unreliable[RL_PK_FP32_FMA] == 0);
  CHECK(m->peak_unreliable_1t[RL_PK_FP64_FMA] == 0);
  CHECK(s->levels.unreliable[RL_LEVEL_DRAM] == RL_DISTURB_BELOW_1T);
  CHECK(m->bandwidth.unreliable[RL_LEVEL_DRAM] == RL_DISTURB_BELOW_1T);
  CHECK(s->levels.unreliable[RL_LEVEL_L1] == 0);
  CHECK(m->n_unreliable == 2);
  m->retakes = 3;
  size_t need = rl_measure_json(m, NULL, 0);
  char *js = malloc(need + 1);
  CHECK(rl_measure_json(m, js, need + 1) == need);
  CHECK(strstr(js, "\"retakes\":3,\"unreliable\":[{\"figure\":\"peak\",\"kernel\":\"fp64\",\"threads\":2,"
                   "\"reasons\":[\"below_1_thread\",\"below_half_theoretical\"]},"
                   "{\"figure\":\"bandwidth\",\"kernel\":\"read\",\"level\":\"dram\",\"threads\":2,"
                   "\"reasons\":[\"below_1_thread\"]}]") != NULL);
  free(js);
  /* a retake that came out right clears the mark */
  m->peak.flops[RL_PK_FP64_FMA] = 112e9;
  for (int i = 0; i < s->n; i++)
    if (s->p[i].ws > 4 * m->cpu.cache[2]) s->p[i].bw *= 2;
  CHECK(rl_measure_analyze(m, &e) == RL_OK);
  CHECK(m->peak_unreliable[RL_PK_FP64_FMA] == 0);
  CHECK(m->bandwidth.unreliable[RL_LEVEL_DRAM] == 0);
  CHECK(m->n_unreliable == 0);
  need = rl_measure_json(m, NULL, 0);
  js = malloc(need + 1);
  CHECK(rl_measure_json(m, js, need + 1) == need);
  CHECK(strstr(js, "\"unreliable\":[]") != NULL);
  free(js);
  free(m);
}

/* Which points of a sweep rl_measure takes again (rl_sweep_retake): a dip
 * below both neighbours, and the points of an all-thread level below the
 * one-thread level; nothing on a clean staircase. */
static void test_sweep_retake(void) {
  rl_measurement *m = calloc(1, sizeof *m);
  fake_measurement(m);
  rl_sweep *s = &m->sweep[0][RL_BW_READ], *one = &m->sweep[1][RL_BW_READ];
  uint8_t again[RL_MEASURE_MAX_WS];
  CHECK(rl_sweep_retake(s, NULL, 0.15, again) == 0); /* transitions are no dips */
  CHECK(rl_sweep_retake(s, one, 0.15, again) == 0);  /* one thread: no 1t rule */
  for (int i = 0; i < s->n; i++) CHECK(again[i] == 0);
  /* a dip in the L2 plateau (point 9: 101 GB/s, its neighbours 98 and 97) */
  double l2 = s->p[9].bw;
  CHECK(s->p[9].ws > 32768 && s->p[9].ws <= 1048576);
  s->p[9].bw = 0.9 * l2; /* within 15% of the lower neighbour: kept */
  CHECK(rl_sweep_retake(s, NULL, 0.15, again) == 0);
  s->p[9].bw = 0.6 * l2;
  CHECK(rl_sweep_retake(s, NULL, 0.15, again) == 1);
  CHECK(again[9] == 1 && again[8] == 0 && again[10] == 0);
  s->p[10].nt = 1; /* a neighbour with other stores: not compared */
  CHECK(rl_sweep_retake(s, NULL, 0.15, again) == 0);
  s->p[10].nt = 0;
  s->p[9].bw = l2; /* the retake came out right */
  CHECK(rl_sweep_retake(s, NULL, 0.15, again) == 0);
  /* the first and last points have one neighbour: never a dip */
  s->p[0].bw *= 0.5;
  s->p[s->n - 1].bw *= 0.5;
  CHECK(rl_sweep_retake(s, NULL, 0.15, again) == 0);
  s->p[0].bw *= 2;
  s->p[s->n - 1].bw *= 2;
  /* two threads whose DRAM level is below one thread's: every DRAM point */
  s->threads = 2;
  int dram = 0;
  for (int i = 0; i < s->n; i++) {
    s->p[i].bw *= s->p[i].ws > 60e6 ? 0.7 : 1.9;
    dram += s->p[i].ws > 60e6;
  }
  CHECK(dram >= 3);
  CHECK(rl_sweep_retake(s, one, 0.15, again) == dram);
  for (int i = 0; i < s->n; i++) CHECK(again[i] == (s->p[i].ws > 60e6));
  CHECK(rl_sweep_retake(s, NULL, 0.15, again) == 0); /* without the 1t sweep */
  for (int i = 0; i < s->n; i++)
    if (s->p[i].ws > 60e6) s->p[i].bw *= 1.9 / 0.7; /* retaken: above one thread */
  CHECK(rl_sweep_retake(s, one, 0.15, again) == 0);
  s->kernel = -1; /* not measured */
  CHECK(rl_sweep_retake(s, one, 0.15, again) == 0);
  CHECK(rl_sweep_retake(NULL, one, 0.15, again) == 0);
  free(m);
}

/* The configuration bench/measure-vs-likwid runs: one working set (`--ws
 * 32000B`, 2 threads: the L1 copy; `--ws 1000000000B`: the DRAM triad), so
 * each sweep has one point. The point is still a level, and an all-thread
 * level below the one-thread one is still retaken and, if it stays so,
 * marked unreliable. */
static void test_one_point_sweeps(void) {
  rl_measurement *m = calloc(1, sizeof *m);
  fake_measurement(m);
  m->threads = 2;
  m->peak_1t.flops[RL_PK_FP32_FMA] = 50e9; /* the peaks: not disturbed */
  m->peak_1t.flops[RL_PK_FP64_FMA] = 25e9;
  m->peak_1t.theory[RL_PK_FP32_FMA] = 56e9;
  static const struct { int kernel; double ws, bw1, bw2; int level; } c[] = {
      {RL_BW_COPY, 32000, 300e9, 250e9, RL_LEVEL_L1},     /* 2 threads below 1 */
      {RL_BW_TRIAD, 1e9, 20e9, 15e9, RL_LEVEL_DRAM},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    for (int t = 0; t < 2; t++)
      for (int k = 0; k < 3; k++) m->sweep[t][k].kernel = -1;
    rl_sweep *one = &m->sweep[1][c[i].kernel], *all = &m->sweep[0][c[i].kernel];
    one->kernel = all->kernel = c[i].kernel;
    one->threads = 1;
    all->threads = 2;
    rl_cache_capacity(&m->cpu, 1, one->cache);
    rl_cache_capacity(&m->cpu, 2, all->cache);
    one->n = all->n = 1;
    one->p[0].ws = all->p[0].ws = c[i].ws;
    one->p[0].bw = c[i].bw1;
    all->p[0].bw = c[i].bw2;
    one->p[0].t.min = all->p[0].t.min = 1e-3;
    uint8_t again[RL_MEASURE_MAX_WS];
    CHECK(rl_sweep_retake(all, one, 0.15, again) == 1 && again[0] == 1);
    rl_error e;
    CHECK(rl_measure_analyze(m, &e) == RL_OK);
    CHECK(all->levels.found[c[i].level]);
    CHECK(all->levels.unreliable[c[i].level] == RL_DISTURB_BELOW_1T);
    all->p[0].bw = 2 * c[i].bw1; /* retaken: above one thread */
    CHECK(rl_sweep_retake(all, one, 0.15, again) == 0);
    CHECK(rl_measure_analyze(m, &e) == RL_OK && all->levels.unreliable[c[i].level] == 0);
  }
  free(m);
}

static void test_parts(void) {
  uint32_t p = 0;
  rl_error e;
  CHECK(rl_measure_parts_parse("peak,read", &p, &e) == RL_OK);
  CHECK(p == (RL_MEASURE_PEAK | RL_MEASURE_READ));
  CHECK(rl_measure_parts_parse("bandwidth", &p, &e) == RL_OK);
  CHECK(p == (RL_MEASURE_READ | RL_MEASURE_COPY | RL_MEASURE_TRIAD));
  CHECK(rl_measure_parts_parse("peak,bogus", &p, &e) == RL_ENOTFOUND);
  CHECK(strstr(e.msg, "unknown kernel 'bogus'") != NULL);
  CHECK(rl_measure_parts_parse("peak,", &p, &e) == RL_EINVAL);
}

/* ---- bad input through the CLI: one line on stderr, exit 2 -------------- */
static void cli_bad(const char *const *args, int argc, const char *want) {
  char *out = NULL, *err = NULL;
  size_t no = 0, ne = 0;
  FILE *fo = open_memstream(&out, &no), *fe = open_memstream(&err, &ne);
  char *argv[16];
  argv[0] = (char *)"roofline";
  for (int i = 0; i < argc; i++) argv[i + 1] = (char *)(uintptr_t)args[i];
  int rc = cli_main(argc + 1, argv, fo, fe);
  fclose(fo);
  fclose(fe);
  CHECK(rc == 2);
  CHECK(no == 0);
  CHECK(strstr(err, want) != NULL);
  int lines = 0;
  for (const char *p = err; *p; p++) lines += *p == '\n';
  CHECK(lines == 1);
  if (rc != 2 || !strstr(err, want)) fprintf(stderr, "  stderr: %s", err);
  free(out);
  free(err);
}

static void test_cli_errors(void) {
  const char *a1[] = {"measure", "--threads", "0"};
  cli_bad(a1, 3, "--threads must be >= 1");
  const char *a2[] = {"measure", "--kernel", "fft"};
  cli_bad(a2, 3, "unknown kernel 'fft'");
  const char *a3[] = {"measure", "--ws", "1PB"};
  cli_bad(a3, 3, "does not fit in this machine's memory");
  const char *a4[] = {"measure", "--threads", "100000"};
  cli_bad(a4, 3, "threads asked");
  const char *a5[] = {"measure", "--ws", "32KiB,oops"};
  cli_bad(a5, 3, "--ws");
  const char *a6[] = {"measure", "--id", "x"};
  cli_bad(a6, 3, "--id goes with --save-hw");
  const char *a7[] = {"measure", "--save-hw", "/nonexistent-dir/x.csv"};
  cli_bad(a7, 3, "--save-hw");
}

/* ---- the real machine: cheap checks that cannot flake -------------------
 * (the measurement of the whole machine, every level and every peak, is a
 * benchmark of the host: bench/measure_host.c, `make bench-measure-host`) */

#if defined(__x86_64__)
/* A second clock: a chain of dependent 64-bit multiplies, 3 cycles each on
 * every x86-64 core of the last fifteen years (Agner Fog, Instruction
 * tables: IMUL r64,r64 latency 3 from Nehalem and Zen on). */
static int imul_kernel(void *arg, int64_t reps) {
  uint64_t x = 3, m = 5, it = (uint64_t)reps * 1000u;
  __asm__ volatile("1:\n\t"
                   ".rept 32\n\t"
                   "imul %2, %0\n\t"
                   ".endr\n\t"
                   "dec %1\n\t"
                   "jnz 1b\n\t"
                   : "+r"(x), "+r"(it)
                   : "r"(m)
                   : "cc");
  *(uint64_t *)arg += x;
  return 0;
}
#endif

/* The clock rl_cpu_probe measures (a chain of dependent adds, one per
 * cycle) agrees with the multiply chain's: a core that folds some adds
 * (recent Intel cores fold adds of an immediate at rename, which made the
 * clock read 10.7 GHz, 4 x too fast, and every peak below half its
 * "theoretical" value) would read faster than the multiplies. The two
 * clocks are taken one after the other, so on a shared host a frequency
 * change or a preemption between them can part them: the pair is retaken
 * (up to five times) and one agreeing pair passes; a core that folds adds
 * reads fast in every pair. */
static void test_clock(void) {
#if defined(__x86_64__)
  double add_hz = 0, imul_hz = 0;
  int agree = 0;
  for (int attempt = 0; attempt < 5 && !agree; attempt++) {
    rl_cpu_info cpu;
    rl_error e;
    CHECK(rl_cpu_probe(&cpu, NULL, NULL, &e) == RL_OK);
    uint64_t sink = 0;
    rl_bench_spec bs;
    memset(&bs, 0, sizeof bs);
    bs.kernel = imul_kernel;
    bs.arg = &sink;
    bs.min_time_s = 3e-4;
    bs.repeats = 21;
    rl_bench_result br;
    CHECK(rl_bench_run(&bs, &br, &e) == RL_OK);
    add_hz = cpu.measured_hz;
    imul_hz = 3 * 32000.0 / br.per_rep.min;
    agree = add_hz > 0.75 * imul_hz && add_hz < 1.33 * imul_hz;
    if (!agree) fprintf(stderr, "  attempt %d: add chain %g Hz, imul chain %g Hz\n", attempt + 1, add_hz, imul_hz);
  }
  CHECK(agree);
#endif
}

/* Two threads, when there are two CPUs: the pool's start barrier, futex
 * waits and per-thread stamps run (and run under the sanitizers); only
 * checks that cannot flake. */
static void test_real_threads(void) {
  rl_cpu_info cpu;
  rl_error e;
  CHECK(rl_cpu_probe(&cpu, NULL, NULL, &e) == RL_OK);
  if (cpu.cpus < 2) return;
  double ws[3] = {4e3, 8e3, 16e3};
  rl_measure_opts o;
  memset(&o, 0, sizeof o);
  o.threads = 2;
  o.quick = 1;
  o.parts = RL_MEASURE_READ | RL_MEASURE_TRIAD;
  o.ws = ws;
  o.n_ws = 3;
  rl_measurement *m = calloc(1, sizeof *m);
  CHECK(rl_measure(&o, m, &e) == RL_OK);
  CHECK(m->threads == 2);
  /* copy alone: the arena carved into its two arrays (a and c) */
  rl_measurement *mc = calloc(1, sizeof *mc);
  o.parts = RL_MEASURE_COPY;
  CHECK(rl_measure(&o, mc, &e) == RL_OK);
  CHECK(mc->sweep[0][RL_BW_COPY].n == 3 && mc->sweep[0][RL_BW_COPY].p[0].bw > 0);
  free(mc);
  for (int k = 0; k < 3; k += 2) {
    const rl_sweep *s = &m->sweep[0][k];
    CHECK(s->threads == 2 && s->n == 3);
    for (int i = 0; i < s->n; i++) {
      CHECK(isfinite(s->p[i].bw) && s->p[i].bw > 0);
      CHECK(s->p[i].t.min > 0 && s->p[i].t.min <= s->p[i].t.median && s->p[i].t.median <= s->p[i].t.max);
    }
  }
  free(m);
}

/* Every kernel's arrays are carved from one arena the size of the largest
 * working set (src/io/measure.c): each sweep, on one thread and on all,
 * must reach the working sets asked for (to a loop's rounding: 64
 * elements per array and thread), not stop where the arena ran out, and
 * every kernel's check must pass on what the kernels before it left in
 * the arena (read sums ones; copy, triad and the add compare their
 * output). 6.29 MB: past the 4 MiB where the arena goes on huge pages,
 * and just under three of them, so that rounding the arena up to a huge
 * page does not hide a shortfall. */
static void test_arena_sizes(void) {
  rl_cpu_info cpu;
  rl_error e;
  CHECK(rl_cpu_probe(&cpu, NULL, NULL, &e) == RL_OK);
  int threads = cpu.cpus >= 2 ? 2 : 1;
  double ws[2] = {8e3, 6.29e6};
  rl_measure_opts o;
  memset(&o, 0, sizeof o);
  o.threads = threads;
  o.quick = 1;
  o.parts = RL_MEASURE_READ | RL_MEASURE_COPY | RL_MEASURE_TRIAD;
  o.ws = ws;
  o.n_ws = 2;
  rl_measurement *m = calloc(1, sizeof *m);
  if (!m) { CHECK(0); return; }
  CHECK(rl_measure(&o, m, &e) == RL_OK);
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < 3; k++) {
      const rl_sweep *s = &m->sweep[t][k];
      int thr = t ? 1 : threads;
      double slack = (double)thr * rl_bw_kernel_arrays(k) * 64 * sizeof(double);
      CHECK(s->n == 2 && s->threads == thr);
      if (s->n != 2) continue;
      CHECK(s->p[1].ws <= ws[1] && s->p[1].ws > ws[1] - slack);
      if (!(s->p[1].ws > ws[1] - slack))
        fprintf(stderr, "  %s %d thread(s): largest working set %g B of %g\n", rl_bw_kernel_name(k), thr,
                s->p[1].ws, ws[1]);
    }
  /* the add to 4 Mi floats (--quick: three arrays of 16 MiB in all)
   * after the sweeps, in what they left of the same arena */
  memset(m, 0, sizeof *m);
  o.parts |= RL_MEASURE_ADD;
  ws[1] = 2e6;
  CHECK(rl_measure(&o, m, &e) == RL_OK);
  int adds = 0;
  for (int32_t i = 0; i < m->n_points; i++)
    if (strcmp(m->points[i].op, "add") == 0) {
      adds++;
      CHECK(m->points[i].achieved > 0);
    }
  CHECK(adds == 6);
  free(m);
}

/* tests/data/hw_measured.csv is a row in the exact format `roofline
 * measure --save-hw` writes (rl_measure_to_hw, then rl_hw_csv with its
 * header): the tests that read a measured row with --hw-file use it. This
 * writes the row of fixed figures and compares it with the file byte for
 * byte, so that the two cannot drift apart (a column added to the hardware
 * schema changes both: regenerate the file from the text printed here). */
static void test_saved_row_format(void) {
  rl_measurement *m = calloc(1, sizeof *m);
  if (!m) { CHECK(0); return; }
  snprintf(m->cpu.vendor, sizeof m->cpu.vendor, "GenuineIntel");
  snprintf(m->cpu.model, sizeof m->cpu.model, "Test CPU 8-core");
  m->threads = 8;
  m->quick = 1;
  m->repeats = 5;
  m->cpu.mem_bytes = 64e9;
  m->cpu.cache[2] = 32 * 1048576.0;
  m->cpu.measured_hz = 3.5e9;
  m->peak.flops[RL_PK_FP64_FMA] = 0.5e12;
  m->peak.flops[RL_PK_FP32_FMA] = 1e12;
  m->bandwidth.bw[RL_LEVEL_DRAM] = 50e9;
  m->bandwidth.bw[RL_LEVEL_L1] = 2e12;
  m->bandwidth.bw[RL_LEVEL_L2] = 1e12;
  m->bandwidth.bw[RL_LEVEL_L3] = 400e9;
  rl_hw hw;
  rl_error e;
  CHECK(rl_measure_to_hw(m, "measured-cpu", &hw, &e) == RL_OK);
  CHECK(rl_hw_measured(&hw));
  char want[4096];
  size_t len = rl_hw_csv(&hw, 1, want, sizeof want);
  CHECK(len < sizeof want);
  char got[4096];
  size_t n = 0;
  FILE *f = fopen("tests/data/hw_measured.csv", "rb");
  CHECK(f != NULL);
  if (f) {
    n = fread(got, 1, sizeof got - 1, f);
    fclose(f);
  }
  got[n] = 0;
  /* the file is the row --save-hw writes: read back and written again it is
   * the writer's row to the byte (a figure newer than the file, a column it
   * lacks, reads as unknown, as in the row) */
  rl_hw file;
  int32_t nf = 0;
  char again[4096];
  CHECK(rl_hw_parse_csv(got, n, &file, 1, &nf, &e) == RL_OK && nf == 1);
  size_t alen = nf == 1 ? rl_hw_csv(&file, 1, again, sizeof again) : 0;
  CHECK(alen == len && memcmp(again, want, len) == 0);
  if (alen != len || memcmp(again, want, len) != 0)
    fprintf(stderr, "  tests/data/hw_measured.csv should read:\n%s", want);
  /* read back, it is still a measured row: a CPU whose fp32 peak stands in
   * for a bf16 model's matmuls, both roofs marked measured */
  rl_hw back;
  int32_t k = 0;
  CHECK(rl_hw_parse_csv(want, len, &back, 1, &k, &e) == RL_OK && k == 1);
  CHECK(rl_hw_measured(&back));
  CHECK(rl_hw_peak_for(&back, RL_BF16, 1) == RL_PEAK_FP32);
  CHECK(rl_hw_peak_for(&back, RL_FP8, 1) == -1);
  rl_roof roof;
  CHECK(rl_hw_roof(&back, RL_PEAK_FP32, 0, &roof, &e) == RL_OK);
  CHECK(roof.measured == (RL_ROOF_MEASURED_PEAK | RL_ROOF_MEASURED_BW));
  CHECK(roof.compute_eff == 1 && roof.bw_eff == 1);
  /* a datasheet row is not measured, and a GPU without a bf16 peak has none */
  rl_hw h100;
  CHECK(rl_hw_find("h100", NULL, 0, &h100, &e) == RL_OK);
  CHECK(!rl_hw_measured(&h100) && !rl_hw_measured(NULL));
  CHECK(rl_hw_roof(&h100, RL_PEAK_BF16, 0, &roof, &e) == RL_OK && roof.measured == 0);
  h100.peak[RL_PEAK_BF16] = h100.peak[RL_PEAK_FP16] = 0;
  CHECK(rl_hw_peak_for(&h100, RL_BF16, 1) == -1);
  free(m);
}

/* tests/data/measure_record.json is the record rl_measure_json writes for
 * a measurement with every part filled: peaks with and without their
 * theoretical figures, sweeps of all threads and of one, points with and
 * without a roof, a figure of each kind marked unreliable, null figures.
 * The figures are made up (this pins the format, not a machine); the
 * writer's text is compared with the file byte for byte, and
 * tests/cli/run_cli_tests.py validates the file against
 * docs/schema/measure.json and checks that it holds every key the schema
 * names (the schema is generated from the same field tables). A change to
 * the record changes both: regenerate the file from the text printed here,
 * or with RL_WRITE_FIXTURES=1. */
static void test_record_format(void) {
  rl_measurement *m = calloc(1, sizeof *m);
  if (!m) { CHECK(0); return; }
  rl_cpu_info *c = &m->cpu;
  snprintf(c->vendor, sizeof c->vendor, "AuthenticAMD");
  snprintf(c->model, sizeof c->model, "Test CPU \"16-core\"");
  snprintf(c->uarch, sizeof c->uarch, "Zen 4");
  snprintf(c->simd, sizeof c->simd, "sse2 avx2 fma avx512f");
  snprintf(c->isa, sizeof c->isa, "avx512");
  c->family = 25, c->model_id = 97, c->cpus = 4;
  c->cache[0] = 32768, c->cache[1] = 1048576; /* no L3: null */
  c->cache_shared[0] = c->cache_shared[1] = 2;
  c->mem_bytes = 64e9, c->nominal_hz = 4.5e9, c->measured_hz = 4.4e9;
  c->flop_per_cycle[RL_PK_FP64_FMA] = 16, c->flop_per_cycle[RL_PK_FP32_FMA] = 32;
  m->threads = 4, m->quick = 1, m->tick_s = 2.5e-8, m->repeats = 3;
  rl_peak_set *ps[2] = {&m->peak, &m->peak_1t};
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < 2; k++) {
      ps[t]->flops[k] = (k ? 281.6e9 : 140.8e9) / (t ? 4 : 1);
      ps[t]->theory[k] = t && k ? 0 : (k ? 281.6e9 : 140.8e9) / (t ? 4 : 1) * 1.1; /* a null */
      ps[t]->t[k] = (rl_stats){.min = 0.001, .median = 0.00105, .max = 0.0012, .spread = 0.2, .n = 3};
    }
  m->peak_unreliable[RL_PK_FP64_FMA] = RL_DISTURB_BELOW_1T | RL_DISTURB_BELOW_HALF;
  m->peak_unreliable_1t[RL_PK_FP32_FMA] = RL_DISTURB_TIMER;
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < 3; k++) {
      rl_sweep *w = &m->sweep[t][k];
      w->kernel = k == RL_BW_COPY ? -1 : k; /* copy did not run */
      w->threads = t ? 1 : 4;
      w->cache[0] = 32768.0 * w->threads, w->cache[1] = 1048576.0 * w->threads;
      w->n = 2;
      for (int i = 0; i < 2; i++) {
        rl_sweep_point *p = &w->p[i];
        p->ws = i ? 1048576 : 16384, p->bytes = p->ws * 64, p->nt = k == RL_BW_TRIAD && i;
        p->t = (rl_stats){.min = 1e-5 * (i + 1), .median = 1.1e-5 * (i + 1), .max = 1.3e-5 * (i + 1),
                          .spread = 0.3, .n = 3};
        p->bw = p->bytes / p->t.min;
      }
      w->levels.bw[RL_LEVEL_L1] = w->p[0].bw, w->levels.found[RL_LEVEL_L1] = 1;
      w->levels.bw[RL_LEVEL_L2] = w->p[1].bw, w->levels.found[RL_LEVEL_L2] = 2;
      w->levels.spread[RL_LEVEL_L1] = 0.01, w->levels.spread[RL_LEVEL_L2] = 0.02;
    }
  m->sweep[0][RL_BW_READ].levels.unreliable[RL_LEVEL_L2] = RL_DISTURB_FEW_CLEAN;
  m->bandwidth = m->sweep[0][RL_BW_READ].levels;
  m->bandwidth_1t = m->sweep[1][RL_BW_READ].levels;
  m->n_points = 2;
  for (int i = 0; i < 2; i++) {
    rl_measure_point *p = &m->points[i];
    snprintf(p->op, sizeof p->op, i ? "sgemm" : "add");
    p->dtype = i ? RL_FP32 : RL_FP64, p->threads = 4, p->n = i ? 512 : 1e6;
    p->flops = i ? 2.0 * 512 * 512 * 512 : 1e6, p->bytes = i ? 3.0 * 512 * 512 * 4 : 24e6;
    p->intensity = p->flops / p->bytes;
    p->t = (rl_stats){.min = 0.002, .median = 0.0021, .max = 0.0025, .spread = 0.25, .n = 3,
                      .disturbed = i ? 0 : RL_DISTURB_FEW_CLEAN};
    p->achieved = p->flops / p->t.min, p->level = i ? RL_LEVEL_L2 : RL_LEVEL_DRAM;
    p->bound = i ? RL_BOUND_COMPUTE : RL_BOUND_MEMORY;
    p->peak = i ? 281.6e9 : 0; /* the add has no peak of its format: null */
    p->bandwidth = i ? 0 : 20e9;
    p->roof = i ? 281.6e9 : 0; /* no roof: roof_fraction null */
    p->roof_dram = i ? 281.6e9 : p->intensity * 20e9;
    p->roof_fraction = i ? p->achieved / p->roof : 0;
  }
  m->spread_median = 0.02, m->spread_max = 0.3, m->noisy = 0, m->retakes = 1, m->wall_s = 1.5;
  size_t need = rl_measure_json(m, NULL, 0);
  char *want = malloc(need + 2);
  CHECK(want != NULL && rl_measure_json(m, want, need + 1) == need);
  if (want) {
    want[need] = '\n', want[need + 1] = 0;
    const char *path = "tests/data/measure_record.json";
    if (getenv("RL_WRITE_FIXTURES")) {
      FILE *w = fopen(path, "wb");
      if (w) fputs(want, w), fclose(w);
    }
    char *got = calloc(1, need + 64);
    size_t n = 0;
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (f && got) n = fread(got, 1, need + 63, f), fclose(f);
    else if (f) fclose(f);
    CHECK(got && n == need + 1 && memcmp(got, want, n) == 0);
    if (!got || n != need + 1 || memcmp(got, want, n) != 0)
      fprintf(stderr, "  %s should read (or run with RL_WRITE_FIXTURES=1):\n%s", path, want);
    free(got);
  }
  free(want);
  free(m);
}

int main(void) {
  RUN(test_stats);
  RUN(test_traffic);
  RUN(test_plateaus);
  RUN(test_bench);
  RUN(test_sampler);
  RUN(test_bench_preempted);
  RUN(test_analyze);
  RUN(test_roof_best_of_level);
  RUN(test_saved_row_format);
  RUN(test_record_format);
  RUN(test_disturbed);
  RUN(test_sweep_retake);
  RUN(test_one_point_sweeps);
  RUN(test_parts);
  RUN(test_cli_errors);
  RUN(test_clock);
  RUN(test_real_threads);
  RUN(test_arena_sizes);
  return harness_report("measure");
}
