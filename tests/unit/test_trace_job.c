/*
 * test_trace_job.c -- the cross-rank analysis on hand-made timelines:
 * HTA's kernel types by name, the temporal breakdown, overlap and idle
 * kinds of one rank against figures worked out by hand (with and without
 * HTA's last-step filter and rounding), summaries through bytes and back,
 * and the straggler, wait and notes of a hand-made 3-rank job. The real
 * fixtures against HTA's own figures are in tests/golden/trace_job.golden.
 */
#include "core/trace_job.h"
#include "core/trace_internal.h"
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void test_kernel_types(void) {
  CHECK(rli_hta_kernel_type("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)") == RLI_K_COMM);
  CHECK(rli_hta_kernel_type("ncclDevKernel_AllGather_RING_LL") == RLI_K_COMM);
  CHECK(rli_hta_kernel_type("void foo::ncclKernel_x") == RLI_K_COMM);
  CHECK(rli_hta_kernel_type("Memcpy DtoD (Device -> Device)") == RLI_K_MEM);
  CHECK(rli_hta_kernel_type("Memset (Device)") == RLI_K_MEM);
  CHECK(rli_hta_kernel_type("void at::native::vectorized_elementwise_kernel<4>") == RLI_K_COMP);
  CHECK(rli_hta_kernel_type("Context Sync") == RLI_K_OTHER);
  CHECK(rli_hta_kernel_type("Stream Wait Event") == RLI_K_OTHER);
  CHECK(rli_hta_kernel_type("cudaLaunchKernel") == RLI_K_OTHER);
  CHECK(rli_hta_kernel_type("sm80_xmma_gemm") == RLI_K_COMP);
  CHECK(rli_hta_kernel_cat("gpu_memcpy") && rli_hta_kernel_cat("kernel") && !rli_hta_kernel_cat("cuda_runtime"));
}

static rli_gev gev(double ts, double end, int stream, int type, int64_t corr) {
  rli_gev g;
  memset(&g, 0, sizeof g);
  g.ts = ts;
  g.end = end;
  g.stream = stream;
  g.type = (uint8_t)type;
  g.corr = corr;
  g.kcat = 1;
  g.kernel = 1;
  g.name = 0;
  return g;
}

/* stream 7: compute [0,10] (launched at -5), compute [5.5,15.5] (launched
 * at 12: host wait), memcpy [25,30] (launched at 1: a 9.5 gap, kernel
 * wait under 30); stream 9: comm [12,20]. */
static void fill(rli_rankraw *r, rli_gev *g, rli_cev *c, rli_step *s, char **names) {
  memset(r, 0, sizeof *r);
  g[0] = gev(0, 10, 7, RLI_K_COMP, 1);
  g[1] = gev(5.5, 15.5, 7, RLI_K_COMP, 2);
  g[2] = gev(25, 30, 7, RLI_K_MEM, 3);
  g[3] = gev(12, 20, 9, RLI_K_COMM, 4);
  c[0] = (rli_cev){-5, 1};
  c[1] = (rli_cev){12, 2};
  c[2] = (rli_cev){1, 3};
  c[3] = (rli_cev){4, 4};
  s[0] = (rli_step){-10, 10, 5};
  s[1] = (rli_step){3, 40, 6}; /* the last step starts at 3: launches 2 and 4 after it */
  r->g = g;
  r->ng = 4;
  r->c = c;
  r->nc = 4;
  r->s = s;
  r->ns = 2;
  r->names = names;
  r->nnames = 1;
}

static void test_rank_figures(void) {
  rli_rankraw raw;
  rli_gev g[4];
  rli_cev c[4];
  rli_step s[2];
  char nm[] = "k";
  char *names[1] = {nm};
  fill(&raw, g, c, s, names);
  rl_job_rank r;
  memset(&r, 0, sizeof r);
  rli_coll *cols;
  rli_kstat *ks;
  size_t ncol, nks;
  rl_error e;
  CHECK(rli_job_rank_figures(&raw, 0, 30, &r, &cols, &ncol, &ks, &nks, &e) == RL_OK);
  /* span 30; union [0,20] + [25,30] = 25: idle 5; compute [0,15.5]: 15.5 */
  CHECK_NEAR(r.span_s, 30e-6, 1e-12);
  CHECK_NEAR(r.idle_share, 5.0 / 30, 1e-12);
  CHECK_NEAR(r.compute_share, 15.5 / 30, 1e-12);
  CHECK_NEAR(r.non_compute_share, 9.5 / 30, 1e-12);
  /* comm [12,20] n compute [0,15.5] = 3.5 of 8 */
  CHECK_NEAR(r.overlap, 3.5 / 8, 1e-12);
  /* HTA's per stream: stream 7 gaps -4.5 (host wait: launch 12 > 10; no
   * negative idle), 9.5 (kernel wait) */
  CHECK_NEAR(r.stream_idle_host_wait_s, 0, 1e-12);
  CHECK_NEAR(r.stream_idle_kernel_wait_s, 9.5e-6, 1e-12);
  /* the rank's idle time: one gap [20,25], ended by the memcpy launched at
   * 1, before the GPU went idle: kernel wait 5 = idle */
  CHECK_NEAR(r.idle_host_wait_s, 0, 1e-12);
  CHECK_NEAR(r.idle_kernel_wait_s, 5e-6, 1e-12);
  CHECK_NEAR(r.idle_other_s, 0, 1e-12);
  CHECK_NEAR(r.idle_host_wait_s + r.idle_kernel_wait_s + r.idle_other_s, r.idle_s, 1e-15);
  CHECK(r.steps == 2 && r.step_first == 5 && r.step_last == 6);
  CHECK(nks == 1 && ks[0].count == 4);
  free(ks[0].name);
  free(ks);
  free(cols);
  /* HTA: launches at or after the last step (3) drop their GPU events
   * (corr 2 and 4): left compute [0,10] and memcpy [25,30]: span 30, busy
   * 15, compute 10, no comm; the memcpy's gap 15 (launch 1 < 10). */
  memset(&r, 0, sizeof r);
  CHECK(rli_job_rank_figures(&raw, 1, 30, &r, &cols, &ncol, &ks, &nks, &e) == RL_OK);
  CHECK_NEAR(r.idle_share, 15.0 / 30, 1e-12);
  CHECK_NEAR(r.compute_share, 10.0 / 30, 1e-12);
  CHECK(isnan(r.overlap));
  CHECK_NEAR(r.stream_idle_kernel_wait_s, 15e-6, 1e-12);
  CHECK_NEAR(r.idle_kernel_wait_s, 15e-6, 1e-12);
  /* HTA rounds inward: [5.5,15.5] -> [6,15] */
  for (size_t i = 0; i < nks; i++) free(ks[i].name);
  free(ks);
  free(cols);
  raw.ns = 1; /* one step: no filter */
  memset(&r, 0, sizeof r);
  CHECK(rli_job_rank_figures(&raw, 1, 30, &r, &cols, &ncol, &ks, &nks, &e) == RL_OK);
  CHECK_NEAR(r.compute_share, 15.0 / 30, 1e-12);
  /* a negative gap counts as HTA counts it: -4 (6 - 10), host wait */
  CHECK_NEAR(r.stream_idle_host_wait_s, -4e-6, 1e-12);
  /* the rank's: [0,20] busy, the gap [20,25] a kernel wait */
  CHECK_NEAR(r.idle_host_wait_s, 0, 1e-12);
  CHECK_NEAR(r.idle_kernel_wait_s, 5e-6, 1e-12);
  for (size_t i = 0; i < nks; i++) free(ks[i].name);
  free(ks);
  free(cols);
}

/* Three streams idle at the same moment, each waiting for the host: HTA's
 * per-stream host wait sums to more than the span (60 of 40 us: the
 * "host wait 1.124 s on a 660.6 ms span" of a real job); the rank's host
 * wait is the one gap [10,30], 20 us, never above the span or the idle
 * time. */
static void test_idle_union(void) {
  rli_gev g[6];
  rli_cev c[6];
  for (int k = 0; k < 3; k++) {
    g[2 * k] = gev(0, 10, 7 + k, RLI_K_COMP, 10 * k + 1);
    g[2 * k + 1] = gev(30, 40, 7 + k, RLI_K_COMP, 10 * k + 2);
    c[2 * k] = (rli_cev){-1, 10 * k + 1};
    c[2 * k + 1] = (rli_cev){20 + k, 10 * k + 2}; /* after the GPU went idle at 10 */
  }
  char nm[] = "k";
  char *names[1] = {nm};
  rli_rankraw raw;
  memset(&raw, 0, sizeof raw);
  raw.g = g;
  raw.ng = 6;
  raw.c = c;
  raw.nc = 6;
  raw.names = names;
  raw.nnames = 1;
  for (int hta = 0; hta < 2; hta++) {
    rl_job_rank r;
    memset(&r, 0, sizeof r);
    rli_coll *cols;
    rli_kstat *ks;
    size_t ncol, nks;
    rl_error e;
    CHECK(rli_job_rank_figures(&raw, hta, 30, &r, &cols, &ncol, &ks, &nks, &e) == RL_OK);
    CHECK_NEAR(r.span_s, 40e-6, 1e-12);
    CHECK_NEAR(r.idle_s, 20e-6, 1e-12);
    CHECK_NEAR(r.stream_idle_host_wait_s, 60e-6, 1e-12);
    CHECK_NEAR(r.idle_host_wait_s, 20e-6, 1e-12);
    CHECK(r.idle_host_wait_s <= r.span_s);
    CHECK_NEAR(r.idle_kernel_wait_s + r.idle_other_s, 0, 1e-12);
    for (size_t i = 0; i < nks; i++) free(ks[i].name);
    free(ks);
    free(cols);
  }
}

/* a rank with collectives on "group 0" starting at `starts` (duration 10) */
static void put_rank(rl_job *j, int32_t slot, int32_t rank, const double *starts, int n, double base) {
  rl_job_rank r;
  memset(&r, 0, sizeof r);
  snprintf(r.file, sizeof r.file, "rank%d.json", (int)rank);
  r.rank = rank;
  r.has_dist = 1;
  r.world_size = 4;
  r.base_ns = base;
  r.steps = 1;
  rli_coll *c = calloc((size_t)n, sizeof *c);
  for (int i = 0; i < n; i++) {
    c[i].ts = starts[i];
    c[i].end = starts[i] + 10;
    c[i].kind = RLI_COLL_ALLREDUCE;
    c[i].bytes = 1e6;
    c[i].group_size = 3;
    snprintf(c[i].group, sizeof c[i].group, "group 0");
  }
  rli_kstat *ks = calloc(1, sizeof *ks);
  ks[0].name = malloc(8);
  strcpy(ks[0].name, "gemm");
  ks[0].time_s = 1e-3 * (rank + 1);
  ks[0].count = 3;
  rl_error e;
  CHECK(rli_job_set(j, slot, &r, c, (size_t)n, ks, 1, &e) == RL_OK);
}

static void test_job(void) {
  rl_job_opts o = rl_job_opts_init();
  rl_job *j = rl_job_new(&o, 4);
  /* rank 2 starts each collective 4 us late; the others wait 4 us each */
  double a[2] = {100, 200}, b[2] = {100, 200}, late[2] = {104, 204};
  put_rank(j, 0, 0, a, 2, 0);
  put_rank(j, 1, 2, late, 2, 0);
  put_rank(j, 2, 1, b, 2, 0);
  put_rank(j, 3, 1, b, 2, 0); /* a duplicate of rank 1 */
  /* through bytes and back */
  size_t n = rl_job_pack(j, 1, NULL, 0);
  unsigned char *buf = malloc(n);
  CHECK(rl_job_pack(j, 1, buf, n) == n);
  rl_error e;
  CHECK(rl_job_unpack(j, 1, buf, n, &e) == RL_OK);
  CHECK(rl_job_unpack(j, 1, buf, n - 3, &e) == RL_EPARSE);
  CHECK(rl_job_unpack(j, 1, buf, n, &e) == RL_OK);
  free(buf);
  CHECK(rl_job_finish(j, &e) == RL_OK);
  int32_t nr = 0, ns = 0, nsp = 0;
  const rl_job_rank *r = rl_job_ranks(j, &nr);
  CHECK(nr == 3 && r[0].rank == 0 && r[1].rank == 1 && r[2].rank == 2);
  const rl_job_straggler *s = rl_job_stragglers(j, &ns);
  CHECK(ns == 1 && s[0].rank == 2 && s[0].collectives == 2);
  CHECK_NEAR(s[0].others_waited_s, 4 * 4e-6, 1e-9);
  const rl_job_totals *t = rl_job_get_totals(j);
  CHECK(t->matched == 2);
  /* busbw: 2 x 2(3-1)/3 x 1 MB over the mean (10) and the last rank's (10) times */
  CHECK_NEAR(t->busbw, 2 * 4.0 / 3 * 1e6 / 20e-6, 1e-9);
  const rl_job_spread *sp = rl_job_spreads(j, &nsp);
  CHECK(nsp == 1 && sp[0].min_rank == 0 && sp[0].max_rank == 2);
  CHECK_NEAR(sp[0].median_s, 2e-3, 1e-12);
  int dup = 0, miss = 0;
  for (int32_t i = 0; i < rl_job_notes(j); i++) {
    dup |= strstr(rl_job_note(j, i), "duplicate rank 1") != NULL;
    miss |= strstr(rl_job_note(j, i), "missing rank 3 of world size 4") != NULL;
  }
  CHECK(dup && miss);
  size_t jl = rl_job_json(j, NULL, 0);
  char *js = malloc(jl + 1);
  CHECK(rl_job_json(j, js, jl + 1) == jl);
  CHECK(strstr(js, "\"stragglers\":[{\"rank\":2,") != NULL);
  free(js);
  rl_job_free(j);
  /* clocks: base times differ; rank 1's clock 1000 us ahead: aligned */
  j = rl_job_new(&o, 2);
  double c0[1] = {100}, c1[1] = {1102};
  put_rank(j, 0, 0, c0, 1, 5e9);
  put_rank(j, 1, 1, c1, 1, 4e9);
  CHECK(rl_job_finish(j, &e) == RL_OK);
  r = rl_job_ranks(j, &nr);
  CHECK(rl_job_get_totals(j)->aligned == 1);
  CHECK_NEAR(r[1].clock_offset_s, 1002e-6, 1e-12);
  /* aligned on the ends: both collectives end together, nobody waited */
  CHECK(rl_job_get_totals(j)->waited_s < 1e-12);
  rl_job_free(j);
}

int main(void) {
  RUN(test_kernel_types);
  RUN(test_rank_figures);
  RUN(test_idle_union);
  RUN(test_job);
  return harness_report("trace_job");
}
