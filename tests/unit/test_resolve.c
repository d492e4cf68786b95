/*
 * test_resolve.c -- the resolve API (include/roofline.h, "Resolving what a
 * caller gave"): the device, the roof, the collectives' latencies and the
 * inference setup, with figures worked out here by hand from the rules the
 * header states, and the parameters its messages name.
 */
#include "harness.h"
#include "core/strlit.h"
#include "roofline.h"

#include <string.h>

/* A device of round figures: only a bf16 tensor peak (no fp16), a vector
 * fp32 peak, 1 TB/s, 80 GB, 400 GB/s links with a 1 us hop. */
static rl_hw toy(void) {
  rl_hw hw;
  memset(&hw, 0, sizeof hw);
  strcpy(hw.id, "toy");
  hw.peak[RL_PEAK_BF16] = 400e12;
  hw.peak[RL_PEAK_FP32] = 50e12;
  hw.mem_bw = 1e12;
  hw.mem_bytes = 80e9;
  hw.interconnect_bw = 400e9;
  hw.link_latency_s = 1e-6;
  hw.sparsity = 1;
  return hw;
}

static void test_spell(void) {
  char b[128];
  rl_msg_spell("`link_bw` applies with `tp`, `pp` or `ep` N > 1 only", "--", '-', b, sizeof b);
  CHECK_STR(b, "--link-bw applies with --tp, --pp or --ep N > 1 only");
  rl_msg_spell("`comm_latency` must be >= 0", "", '_', b, sizeof b);
  CHECK_STR(b, "comm_latency must be >= 0");
  /* only a backquoted parameter name is spelled: other backquotes stay */
  rl_msg_spell("see `roofline hw list`; `Bad` `a`", "--", '-', b, sizeof b);
  CHECK_STR(b, "see `roofline hw list`; `Bad` --a");
  rl_msg_spell("unclosed `tp", "--", '-', b, sizeof b);
  CHECK_STR(b, "unclosed `tp");
  /* the length needed, as snprintf; a short buffer is cut and terminated */
  char s[6];
  CHECK(rl_msg_spell("`link_bw` x", "--", '-', s, sizeof s) == strlen("--link-bw x"));
  CHECK_STR(s, "--lin");
  CHECK(rl_msg_spell("`tp`", "--", '-', NULL, 0) == 4);
}

static void test_comm_latency(void) {
  rl_hw hw = toy();
  /* an all-reduce: the floor (issue 25), 0.5 us over a link with a latency;
   * NCCL's ring: 6.6 us + 2 (8 - 1) x 1 us; a send 6.6 + 1; an all-to-all
   * over 4: 6.6 + 3 */
  CHECK_NEAR(rl_comm_latency(&hw, RL_COMM_ALLREDUCE, 8), 0.5e-6, 1e-15);
  CHECK(rl_comm_latency(&hw, RL_COMM_ALLREDUCE, 8) == rl_allreduce_floor(&hw));
  CHECK_NEAR(rl_comm_latency(&hw, RL_COMM_ALLREDUCE_NCCL, 8), 20.6e-6, 1e-12);
  CHECK(rl_comm_latency(&hw, RL_COMM_ALLREDUCE_NCCL, 1) == 0);
  CHECK_NEAR(rl_comm_latency(&hw, RL_COMM_SEND, 2), 7.6e-6, 1e-12);
  CHECK_NEAR(rl_comm_latency(&hw, RL_COMM_ALLTOALL, 4), 9.6e-6, 1e-12);
  CHECK(rl_comm_latency(&hw, RL_COMM_ALLREDUCE, 1) == 0);
  CHECK(rl_comm_latency(&hw, RL_COMM_ALLTOALL, 1) == 0);
  CHECK(rl_comm_latency(&hw, 99, 8) == 0);
  hw.link_latency_s = 0;
  CHECK(rl_comm_latency(&hw, RL_COMM_ALLREDUCE, 8) == 0 && rl_allreduce_floor(&hw) == 0);
  CHECK(rl_comm_latency(&hw, RL_COMM_ALLREDUCE_NCCL, 8) == 0);
  CHECK(rl_comm_latency(&hw, RL_COMM_SEND, 2) == 0);
}

static void test_hw(void) {
  rl_hw hw;
  rl_error e;
  rl_hw_req r = {NULL, 0, 0, 0, 1};
  CHECK(rl_hw_resolve(&r, NULL, 0, &hw, &e) == RL_OK);
  CHECK_STR(hw.id, RL_DEFAULT_HW);
  r = (rl_hw_req){NULL, 500e12, 2e12, 0, 1}; /* peak and bw describe one */
  CHECK(rl_hw_resolve(&r, NULL, 0, &hw, &e) == RL_OK);
  CHECK_STR(hw.id, "custom");
  CHECK(hw.peak[RL_PEAK_FP8] == 500e12 && hw.peak[RL_PEAK_FP64] == 500e12 && hw.mem_bw == 2e12);
  CHECK_STR(hw.name, "device described by `peak` and `bw`");
  r = (rl_hw_req){"h100", 0, 1e12, 40e9, 0};
  CHECK(rl_hw_resolve(&r, NULL, 0, &hw, &e) == RL_OK);
  CHECK(hw.mem_bw == 1e12 && hw.mem_bytes == 40e9);
  r = (rl_hw_req){NULL, 500e12, 0, 0, 0};
  CHECK(rl_hw_resolve(&r, NULL, 0, &hw, &e) == RL_EINVAL);
  CHECK_STR(e.msg, "`hw` ID is required (or describe a device with `peak` and `bw`)");
  r = (rl_hw_req){"h900", 0, 0, 0, 0};
  CHECK(rl_hw_resolve(&r, NULL, 0, &hw, &e) == RL_ENOTFOUND);
  CHECK(RLI_STARTS(e.msg, "`hw`: unknown hardware 'h900'"));
  r = (rl_hw_req){"h100", 0, -1, 0, 0};
  CHECK(rl_hw_resolve(&r, NULL, 0, &hw, &e) == RL_EINVAL);
  /* the user's devices come first */
  rl_hw mine = toy();
  r = (rl_hw_req){"toy", 0, 0, 0, 0};
  CHECK(rl_hw_resolve(&r, &mine, 1, &hw, &e) == RL_OK && hw.mem_bw == 1e12);
}

static void test_roof(void) {
  rl_hw hw = toy();
  rl_roof roof;
  rl_error e;
  int32_t used = -1;
  rl_roof_req r = rl_roof_req_init();
  CHECK(r.dtype == RL_BF16 && r.tensor == 1 && r.peak == 0 && !r.overhead_given);
  CHECK(rl_roof_resolve(&hw, &r, &roof, &used, &e) == RL_OK);
  CHECK(roof.peak == 400e12 && roof.bandwidth == 1e12 && roof.peak_kind == RL_PEAK_BF16);
  CHECK(roof.launch_overhead_s == RL_DEFAULT_LAUNCH_OVERHEAD_S && used == RL_BF16);
  /* fp16: none on this device; with stand_in bf16's */
  r.dtype = RL_FP16;
  CHECK(rl_roof_resolve(&hw, &r, &roof, &used, &e) == RL_EUNSUPPORTED);
  CHECK_STR(e.msg, "toy has no fp16 tensor peak in the database (give `peak`)");
  r.stand_in = 1;
  CHECK(rl_roof_resolve(&hw, &r, &roof, &used, &e) == RL_OK);
  CHECK(roof.peak == 400e12 && used == RL_BF16);
  /* the 2:4 sparse peak: twice the dense one */
  r = rl_roof_req_init();
  r.sparse = 1;
  CHECK(rl_roof_resolve(&hw, &r, &roof, NULL, &e) == RL_OK && roof.peak == 800e12 && roof.sparse == 1);
  /* a given peak: the device's bandwidth, peak kind -1; not with sparse */
  r.peak = 1e15;
  CHECK(rl_roof_resolve(&hw, &r, &roof, NULL, &e) == RL_EINVAL);
  CHECK_STR(e.msg, "`sparse` and `peak` exclude each other (give the sparse figure as `peak`)");
  r.sparse = 0;
  r.overhead_given = 1;
  r.overhead_s = 0;
  CHECK(rl_roof_resolve(&hw, &r, &roof, NULL, &e) == RL_OK);
  CHECK(roof.peak == 1e15 && roof.peak_kind == -1 && roof.bandwidth == 1e12 && roof.launch_overhead_s == 0);
  r.overhead_s = -1e-6;
  CHECK(rl_roof_resolve(&hw, &r, &roof, NULL, &e) == RL_EINVAL);
  CHECK_STR(e.msg, "`overhead` must be >= 0");
  /* a vector op of fp32 */
  r = rl_roof_req_init();
  r.dtype = RL_FP32;
  r.tensor = 0;
  CHECK(rl_roof_resolve(&hw, &r, &roof, NULL, &e) == RL_OK && roof.peak == 50e12);
}

static void test_infer(void) {
  rl_hw hw = toy();
  rl_model m;
  rl_error e;
  CHECK(rl_model_find("llama3-8b", &m, &e) == RL_OK);
  rl_infer_req q = rl_infer_req_init();
  rl_infer_cfg cfg;
  rl_roof roof;
  rl_infer_info info;
  CHECK(rl_infer_setup(&m, &hw, &q, &cfg, &roof, &info, &e) == RL_OK);
  CHECK(cfg.tp == 1 && cfg.link_bw == 0 && cfg.comm_latency_s == 0 && cfg.mem_bytes == 80e9);
  CHECK(roof.peak == 400e12 && info.dtype == RL_BF16 && info.peak_dtype == RL_BF16);
  /* fp16 compute stands in on bf16's peak */
  q.dtype = RL_FP16;
  CHECK(rl_infer_setup(&m, &hw, &q, &cfg, &roof, &info, &e) == RL_OK);
  CHECK(info.dtype == RL_FP16 && info.peak_dtype == RL_BF16 && cfg.act_dtype == RL_FP16);
  /* tp 4: half the 400 GB/s, the all-reduce floor 0.5 us (issue 25);
   * "nccl": NCCL's ring latency 6.6 + 2 x 3 x 1 us */
  q = rl_infer_req_init();
  q.tp = 4;
  q.compute_eff = 0.5;
  CHECK(rl_infer_setup(&m, &hw, &q, &cfg, &roof, &info, &e) == RL_OK);
  CHECK(cfg.link_bw == 200e9 && info.comm_latency_default == 1);
  CHECK_NEAR(cfg.comm_latency_s, 0.5e-6, 1e-12);
  q.comm_latency_given = 2;
  CHECK(rl_infer_setup(&m, &hw, &q, &cfg, &roof, &info, &e) == RL_OK);
  CHECK_NEAR(cfg.comm_latency_s, 12.6e-6, 1e-12);
  CHECK(info.comm_latency_default == 0);
  q.comm_latency_given = 3;
  CHECK(rl_infer_setup(&m, &hw, &q, &cfg, &roof, &info, &e) == RL_EINVAL);
  q.comm_latency_given = 0;
  CHECK(roof.peak == 200e12 && roof.compute_eff == 0.5 && roof.bw_eff == 1);
  q.comm_latency_given = 1;
  q.comm_latency = 2e-6;
  q.link_bw_given = 1;
  q.link_bw = 1e11;
  q.pp = 2;
  q.ep = 1;
  CHECK(rl_infer_setup(&m, &hw, &q, &cfg, &roof, &info, &e) == RL_OK);
  CHECK(cfg.comm_latency_s == 2e-6 && cfg.link_bw == 1e11 && info.comm_latency_default == 0);
  CHECK_NEAR(cfg.p2p_latency_s, 7.6e-6, 1e-12);
  /* tried at smaller degrees (plan): no link, no latencies at 1 */
  rl_infer_degrees(&cfg, &hw, &q, 1, 1, 1);
  CHECK(cfg.tp == 1 && cfg.link_bw == 0 && cfg.comm_latency_s == 0 && cfg.p2p_latency_s == 0);
  /* the parameters its messages name */
  static const struct { int what; const char *msg; } bad[] = {
      {0, "`tp` must be >= 1 (got 0)"},
      {1, "`link_bw` applies with `tp`, `pp` or `ep` N > 1 only"},
      {2, "`comm_latency` applies with `tp` N > 1 only"},
      {3, "`microbatches` applies with `pp` N > 1 only"},
      {4, "`microbatches` must be a whole number >= 1 and <= 4096 (got 0)"},
      {5, "`compute_eff` must be a fraction in (0, 1] (got 1.5)"},
      {6, "`tp` 2: toy has no interconnect figure; give `link_bw`"},
      {7, "`comm_latency` must be >= 0"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    rl_hw h = toy();
    q = rl_infer_req_init();
    switch (bad[i].what) {
    case 0: q.tp = 0; break;
    case 1: q.link_bw_given = 1, q.link_bw = 1e9; break;
    case 2: q.comm_latency_given = 1; break;
    case 3: q.microbatches_given = 1, q.microbatches = 2; break;
    case 4: q.microbatches_given = 1, q.pp = 2; break;
    case 5: q.compute_eff = 1.5; break;
    case 6: q.tp = 2, h.interconnect_bw = 0; break;
    case 7: q.tp = 2, q.comm_latency_given = 1, q.comm_latency = -1; break;
    }
    CHECK(rl_infer_setup(&m, &h, &q, &cfg, &roof, NULL, &e) == RL_EINVAL);
    CHECK_STR(e.msg, bad[i].msg);
  }
}

static void test_fraction(void) {
  double v;
  rl_error e;
  CHECK(rl_fraction_parse("70%", &v, &e) == RL_OK && v == 0.7);
  CHECK(rl_fraction_parse("0.25", &v, &e) == RL_OK && v == 0.25);
  CHECK(rl_fraction_parse("1", &v, &e) == RL_OK && v == 1);
  CHECK(rl_fraction_parse("0%", &v, &e) == RL_EINVAL);
  CHECK_STR(e.msg, "must be a fraction in (0, 1] (got 0%)");
  CHECK(rl_fraction_parse("most", &v, &e) == RL_EPARSE);
  CHECK_STR(e.msg, "'most' is not a number");
}

int main(void) {
  RUN(test_spell);
  RUN(test_comm_latency);
  RUN(test_hw);
  RUN(test_roof);
  RUN(test_infer);
  RUN(test_fraction);
  return harness_report("resolve");
}
