/*
 * test_llm.c -- the models, decode/prefill, MFU/HFU and collective
 * calculators against worked figures (Meta's Llama 3 configuration, PaLM's MFU
 * definition, nccl-tests' busbw; tests/golden/llm.golden names each), and their
 * refusal of bad input.
 */
#include "harness.h"
#include "roofline.h"

#include <math.h>
#include <string.h>

static rl_model find(const char *id) {
  rl_model m;
  rl_error e;
  if (rl_model_find(id, &m, &e) != RL_OK) {
    fprintf(stderr, "model %s: %s\n", id, e.msg);
    return rl_model_init();
  }
  return m;
}

static rl_roof h100(int sparse) {
  rl_hw hw;
  rl_roof r;
  memset(&r, 0, sizeof r);
  if (rl_hw_find("h100", NULL, 0, &hw, NULL) != RL_OK) return r;
  rl_hw_roof(&hw, RL_PEAK_BF16, sparse ? RL_ROOF_SPARSE : 0, &r, NULL);
  return r;
}

/* A 7B teaching model (Llama-style, d 4096, 32 layers), given by flags. */
static rl_model teaching_7b(void) {
  rl_model m = rl_model_init();
  m.params = 7e9;
  m.layers = 32;
  m.heads = 32;
  m.kv_heads = 8;
  m.head_dim = 128;
  return m;
}

static void test_params(void) {
  rl_param_count p;
  rl_model m = find("llama3-8b");
  CHECK(rl_model_params(&m, &p, NULL) == RL_OK);
  CHECK_NEAR(p.total, 8030261248.0, 1e-12);
  CHECK(p.derived == 1);
  m = find("gpt2-124m");
  CHECK(rl_model_params(&m, &p, NULL) == RL_OK);
  CHECK_NEAR(p.total, 124439808.0, 1e-12);
  m = find("llama2-7b");
  CHECK(rl_model_params(&m, &p, NULL) == RL_OK);
  CHECK_NEAR(p.total, 6738415616.0, 1e-12);
  m = find("mixtral-8x7b");
  CHECK(rl_model_params(&m, &p, NULL) == RL_OK);
  CHECK_NEAR(p.total, 46.7e9, 0.005);
  CHECK_NEAR(p.active, 12.9e9, 0.005);
  /* every built-in model matches its published count to 0.5% */
  for (int32_t i = 0; i < rl_model_count(); i++) {
    CHECK(rl_model_get(i, &m) == RL_OK);
    CHECK(rl_model_params(&m, &p, NULL) == RL_OK);
    CHECK(m.published_params > 0);
    CHECK_NEAR(p.total, m.published_params, 0.005);
    CHECK(m.source[0] != 0);
  }
  /* KV cache: 2 x 32 x 8 x 128 x 2 = 128 KiB per token */
  double kv;
  m = find("llama3-8b");
  CHECK(rl_model_kv_bytes_per_token(&m, RL_BF16, &kv, NULL) == RL_OK);
  CHECK_NEAR(kv, 131072, 0);
  CHECK_NEAR(kv * 4096, 0.5 * 1024 * 1024 * 1024, 0);
}

static void test_find(void) {
  rl_model m;
  rl_error e;
  CHECK(rl_model_find("LLAMA3-8B", &m, &e) == RL_OK);
  CHECK(rl_model_find("8x7b", &m, &e) == RL_OK);
  CHECK_STR(m.id, "mixtral-8x7b");
  CHECK(rl_model_find("mixtral", &m, &e) == RL_EAMBIGUOUS);
  CHECK(strstr(e.msg, "mixtral-8x22b") != NULL);
  /* Hugging Face ids, whole and case-insensitively */
  CHECK(rl_model_find("deepseek-ai/deepseek-v3", &m, &e) == RL_OK);
  CHECK_STR(m.id, "deepseek-v3");
  CHECK(rl_model_find("meta-llama/Llama-2-7b", &m, &e) == RL_ENOTFOUND);
  CHECK(strstr(e.msg, "Hugging Face id") != NULL);
  CHECK(rl_model_find("llama", &m, &e) == RL_EAMBIGUOUS);
  CHECK(rl_model_find("lama3-8c", &m, &e) == RL_ENOTFOUND);
  CHECK(strstr(e.msg, "llama3-8b") != NULL);
}

static void test_decode_llama3_8b(void) {
  rl_model m = find("llama3-8b");
  rl_roof r = h100(0);
  rl_infer_cfg c = rl_infer_cfg_init();
  c.embedding = RL_EMBED_FULL; /* the worked example reads all 16 GB */
  c.mem_bytes = 80e9;
  double b[2] = {1, 1024};
  rl_decode_row rows[2];
  rl_decode_summary s;
  rl_error e;
  CHECK(rl_decode(&m, &c, &r, b, 2, rows, &s, &e) == RL_OK);
  CHECK_NEAR(s.weights_bytes, 16e9, 0.01);          /* about 16 GB */
  CHECK_NEAR(rows[0].step_time_s, 4.8e-3, 0.01);    /* 4.8 ms */
  CHECK_NEAR(rows[0].tokens_per_s, 210, 0.01);      /* about 210 tokens/s */
  CHECK(rows[0].bound == RL_BOUND_MEMORY);
  CHECK_NEAR(s.ridge_batch, 300, 0.02);             /* about 300 */
  CHECK(rows[1].bound == RL_BOUND_COMPUTE);
  /* gathered rows: the 1.05 GB table is not read in full */
  c.embedding = RL_EMBED_GATHERED;
  CHECK(rl_decode(&m, &c, &r, b, 1, rows, &s, &e) == RL_OK);
  CHECK_NEAR(rows[0].weight_bytes, 16060522496.0 - 1050673152.0 + 8192, 1e-9);
  CHECK(rows[0].step_time_s < 4.6e-3);
  /* with a 4096-token context */
  c.embedding = RL_EMBED_FULL;
  c.context = 4096;
  CHECK(rl_decode(&m, &c, &r, b, 1, rows, &s, &e) == RL_OK);
  CHECK_NEAR(s.kv_bytes_per_token, 131072, 0);
  CHECK_NEAR(s.kv_bytes_per_seq, 0.5 * 1073741824.0, 0);
  CHECK_NEAR(s.asymptotic_intensity, 34, 0.01);
  CHECK_NEAR(s.max_batch, 119, 0);                  /* about 120 in 64 GB */
}

static void test_decode_teaching_7b(void) {
  rl_model m = teaching_7b();
  rl_roof r = h100(0);
  rl_infer_cfg c = rl_infer_cfg_init();
  c.mem_bytes = 80e9;
  double b[2] = {1, 128};
  rl_decode_row rows[2];
  rl_decode_summary s;
  CHECK(rl_decode(&m, &c, &r, b, 1, rows, &s, NULL) == RL_OK);
  CHECK_NEAR(rows[0].step_time_s, 4.18e-3, 0.002);
  CHECK_NEAR(rows[0].tokens_per_s, 239, 0.003);
  CHECK_NEAR(rows[0].compute_time_s, 0.014e-3, 0.02);
  CHECK_NEAR(s.ridge_batch, 295, 0.002);
  c.context = 4096;
  CHECK(rl_decode(&m, &c, &r, b, 2, rows, &s, NULL) == RL_OK);
  CHECK_NEAR(s.attention_flops_per_token, 2.15e9, 0.002);
  CHECK_NEAR(s.attention_intensity, 4, 1e-12);
  CHECK_NEAR(s.asymptotic_intensity, 30, 0.005);
  CHECK_NEAR(rows[1].memory_bytes / 1073741824.0, 77, 0.002);
  /* 77 GiB is 82.7 GB: more than the 80 GB (decimal) of the database's
   * H100, so it does not fit there; it does in 80 GiB */
  CHECK(rows[1].fits == 0);
  CHECK_NEAR(s.max_batch, 122, 0);
  c.mem_bytes = 80.0 * 1073741824.0;
  CHECK(rl_decode(&m, &c, &r, b, 2, rows, &s, NULL) == RL_OK);
  CHECK(rows[1].fits == 1);
}

static void test_decode_tp_and_errors(void) {
  rl_model m = find("llama3-70b");
  rl_roof r = h100(0);
  rl_infer_cfg c = rl_infer_cfg_init();
  c.mem_bytes = 80e9;
  c.context = 1024;
  double b[1] = {8};
  rl_decode_row row;
  rl_decode_summary s;
  rl_error e;
  CHECK(rl_decode(&m, &c, &r, b, 1, &row, &s, &e) == RL_OK);
  CHECK(s.weights_fit == 0);
  CHECK(row.fits == 0);
  CHECK_NEAR(s.devices_needed, 2, 0);
  c.tp = 4;
  CHECK(rl_decode(&m, &c, &r, b, 1, &row, &s, &e) == RL_EINVAL); /* no link bandwidth */
  c.link_bw = 450e9;
  CHECK(rl_decode(&m, &c, &r, b, 1, &row, &s, &e) == RL_OK);
  CHECK(s.weights_fit == 1);
  CHECK(row.comm_time_s > 0);
  c.tp = 1;
  double bad[1] = {0};
  CHECK(rl_decode(&m, &c, &r, bad, 1, &row, &s, &e) == RL_EINVAL);
  CHECK(strstr(e.msg, "batch") != NULL);
  c.context = -1;
  CHECK(rl_decode(&m, &c, &r, b, 1, &row, &s, &e) == RL_EINVAL);
  CHECK(strstr(e.msg, "context") != NULL);
  rl_model none = rl_model_init();
  c.context = 1;
  CHECK(rl_decode(&none, &c, &r, b, 1, &row, &s, &e) == RL_EINVAL);
  CHECK(strstr(e.msg, "layers") != NULL);
}

/* A batch that does not fit names the smallest degree at which it does:
 * that degree fits, every valid smaller one does not, and a row that
 * fits names none. */
static void test_decode_fit_degree(void) {
  rl_model m = find("llama3.1-70b");
  rl_roof r = h100(0);
  rl_infer_cfg c = rl_infer_cfg_init();
  c.mem_bytes = 80e9;
  c.context = 4096;
  c.link_bw = 450e9;
  double b[2] = {1, 32};
  rl_decode_row rows[2];
  rl_decode_summary s;
  rl_error e;
  CHECK(rl_decode(&m, &c, &r, b, 2, rows, &s, &e) == RL_OK);
  CHECK(rows[1].fits == 0 && rows[1].ep_fit == 0);
  double d = rows[1].tp_fit;
  CHECK(d > 1 && fmod(m.heads, d) == 0);
  CHECK(d >= s.tp_needed); /* the batch needs at least what the weights do */
  for (int32_t t = 1; t <= (int32_t)d; t++) {
    if (fmod(m.heads, t) != 0) continue;
    c.tp = t;
    rl_decode_row row;
    CHECK(rl_decode(&m, &c, &r, b + 1, 1, &row, NULL, &e) == RL_OK);
    CHECK(row.fits == (t == (int32_t)d));
    CHECK(row.tp_fit == (row.fits ? 0 : d));
  }
  /* nothing fits a batch whose caches alone exceed every degree's memory */
  c.tp = 1;
  double huge[1] = {1e7};
  rl_decode_row row;
  CHECK(rl_decode(&m, &c, &r, huge, 1, &row, NULL, &e) == RL_OK);
  CHECK(row.fits == 0 && row.tp_fit == 0 && row.ep_fit == 0);
  /* without a capacity there is nothing to fit */
  c.mem_bytes = 0;
  CHECK(rl_decode(&m, &c, &r, b + 1, 1, &row, NULL, &e) == RL_OK);
  CHECK(row.fits == 1 && row.tp_fit == 0);
}

/* Pipeline and expert parallelism: the identities a hand check gives. */
static void test_pipeline(void) {
  const char *ids[] = {"llama3-70b", "deepseek-v3", "gemma2-27b", "mixtral-8x7b", "gpt2"};
  rl_roof r = h100(0);
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    rl_model m = find(ids[i]);
    rl_infer_cfg c = rl_infer_cfg_init();
    c.context = 4096;
    c.link_bw = 450e9;
    c.p2p_latency_s = 7.2e-6;
    double one = 1;
    rl_decode_row r1, r2;
    rl_decode_summary s1;
    rl_stage st[8];
    int32_t n;
    CHECK(rl_decode(&m, &c, &r, &one, 1, &r1, &s1, NULL) == RL_OK);
    /* pp 1 and pp 0 are one stage: the same figures, bit for bit */
    c.pp = 1;
    rl_decode_row r0;
    CHECK(rl_decode(&m, &c, &r, &one, 1, &r0, NULL, NULL) == RL_OK);
    CHECK(memcmp(&r0, &r1, sizeof r0) == 0);
    CHECK(rl_stages(&m, &c, st, 8, &n, NULL) == RL_OK && n == 1 && st[0].weights_bytes == s1.weights_bytes);
    /* the stages hold every layer once and every weight once */
    for (int32_t pp = 2; pp <= 5; pp++) {
      c.pp = pp;
      CHECK(rl_stages(&m, &c, st, 8, &n, NULL) == RL_OK && n == pp);
      double layers = 0, w = 0, lo = 1e9, hi = 0;
      for (int32_t k = 0; k < n; k++) {
        CHECK_NEAR(st[k].first_layer, layers, 0);
        layers += st[k].layers;
        w += st[k].weights_bytes;
        if (st[k].layers < lo) lo = st[k].layers;
        if (st[k].layers > hi) hi = st[k].layers;
      }
      CHECK_NEAR(layers, m.layers, 0);
      CHECK(hi - lo <= 1 && st[n - 1].layers == lo);
      CHECK_NEAR(w, s1.weights_bytes, 1e-12);
    }
    /* pp 2 at B = 1 (one micro-batch): the stages in turn plus one send
     * of d activations; memory-bound stages sum to the whole model's bound */
    c.pp = 2;
    CHECK(rl_decode(&m, &c, &r, &one, 1, &r2, NULL, NULL) == RL_OK);
    rl_model k;
    CHECK(rl_model_check(&m, &k, NULL) == RL_OK);
    double send = k.d_model * rl_dtype_bytes(k.dtype) / 450e9 + 7.2e-6;
    CHECK_NEAR(r2.p2p_time_s, send, 1e-12);
    CHECK_NEAR(r2.microbatches, 1, 0);
    CHECK(r1.bound == RL_BOUND_MEMORY && r2.bound == RL_BOUND_MEMORY);
    CHECK_NEAR(r2.step_time_s, r1.step_time_s + send, 1e-9);
    CHECK_NEAR(r2.bytes, r1.bytes, 1e-12);
    CHECK_NEAR(r2.flops, r1.flops, 1e-12);
    CHECK(r2.stage_time_max_s < r2.step_time_s && r2.stage_time_max_s > r2.step_time_s / 2 - send);
  }
  /* prefill, one micro-batch over 2 stages: pp 1's time + one send of the
   * b p d activations; m equal micro-batches over p equal stages leave
   * the bubble (p-1)/(m+p-1) (GPipe); the model given by its count has
   * no output layer to make the last stage longer */
  rl_model m = find("llama3-8b");
  rl_infer_cfg c = rl_infer_cfg_init();
  c.context = 1024;
  c.batch = 4;
  c.link_bw = 450e9;
  rl_prefill_result p1, p2;
  CHECK(rl_prefill(&m, &c, &r, NULL, 0, &p1, NULL) == RL_OK);
  c.pp = 2;
  c.microbatches = 1;
  CHECK(rl_prefill(&m, &c, &r, NULL, 0, &p2, NULL) == RL_OK);
  CHECK_NEAR(p2.ttft_s, p1.ttft_s + 4 * 1024 * 4096 * 2 / 450e9, 1e-9);
  CHECK_NEAR(p2.bubble_fraction, 0.5, 0.01);
  rl_model u = rl_model_init();
  u.params = 8e9;
  u.layers = 32;
  u.heads = 32;
  u.head_dim = 128;
  c.link_bw = 1e300; /* sends of no cost: the stages are equal */
  for (int32_t pp = 2; pp <= 8; pp *= 2)
    for (double mb = 1; mb <= 16; mb *= 2) {
      c.pp = pp;
      c.microbatches = mb;
      c.batch = 16;
      CHECK(rl_prefill(&u, &c, &r, NULL, 0, &p2, NULL) == RL_OK);
      CHECK_NEAR(p2.bubble_fraction, (pp - 1) / (mb + pp - 1), 1e-9);
      CHECK_NEAR(p2.microbatches, mb, 0);
    }
  /* bad input */
  rl_error e;
  c = rl_infer_cfg_init();
  c.context = 8;
  c.link_bw = 450e9;
  c.pp = 33;
  CHECK(rl_prefill(&m, &c, &r, NULL, 0, &p2, &e) == RL_EINVAL && strstr(e.msg, "exceeds the 32 layers"));
  c.pp = -1;
  CHECK(rl_prefill(&m, &c, &r, NULL, 0, &p2, &e) == RL_EINVAL && strstr(e.msg, "pp must be"));
  c.pp = 1;
  c.microbatches = 2;
  CHECK(rl_prefill(&m, &c, &r, NULL, 0, &p2, &e) == RL_EINVAL && strstr(e.msg, "microbatches apply with pp > 1"));
  c.microbatches = 0;
  c.ep = 2;
  CHECK(rl_prefill(&m, &c, &r, NULL, 0, &p2, &e) == RL_EINVAL && strstr(e.msg, "no experts"));
  rl_model x = find("mixtral-8x7b");
  c.ep = 3;
  CHECK(rl_prefill(&x, &c, &r, NULL, 0, &p2, &e) == RL_EINVAL && strstr(e.msg, "does not divide the 8 experts"));
  c.ep = 2;
  c.tp = 4;
  CHECK(rl_prefill(&x, &c, &r, NULL, 0, &p2, &e) == RL_EINVAL && strstr(e.msg, "multiple of tp 4"));
  c.tp = 1;
  c.link_bw = 0;
  CHECK(rl_prefill(&x, &c, &r, NULL, 0, &p2, &e) == RL_EINVAL && strstr(e.msg, "link bandwidth"));
  /* expert parallelism over all 8 experts (tp 1): each device holds the
   * attention and one whole expert a layer; its FLOPs per token do not
   * change (uniform routing), the all-to-alls move (7/8) of B/8 x 2 x d */
  c = rl_infer_cfg_init();
  c.context = 1024;
  c.link_bw = 450e9;
  double b8 = 64;
  rl_decode_row d1, d8;
  rl_decode_summary s1, s8;
  CHECK(rl_decode(&x, &c, &r, &b8, 1, &d1, &s1, NULL) == RL_OK);
  c.ep = 8;
  CHECK(rl_decode(&x, &c, &r, &b8, 1, &d8, &s8, NULL) == RL_OK);
  rl_model k;
  CHECK(rl_model_check(&x, &k, NULL) == RL_OK);
  double expert = 3 * k.d_model * k.d_ff * 2; /* bf16 */
  CHECK_NEAR(s8.weights_bytes, s1.weights_bytes - 7 * k.layers * expert, 1e-12);
  CHECK_NEAR(d8.flops * 8, d1.flops, 1e-12);
  CHECK_NEAR(d8.a2a_time_s, k.layers * 2 * (7.0 / 8 * (8 * 2 * k.d_model * 2) / 450e9), 1e-12);
  CHECK_NEAR(d8.kv_bytes * 8, d1.kv_bytes, 1e-12);
}

static void test_prefill(void) {
  rl_model m = find("llama3-8b");
  rl_roof r = h100(0);
  rl_infer_cfg c = rl_infer_cfg_init();
  c.context = 2048;
  c.new_tokens = 128;
  rl_prefill_op ops[RL_PREFILL_OPS];
  rl_prefill_result res;
  rl_error e;
  CHECK(rl_prefill(&m, &c, &r, ops, RL_PREFILL_OPS, &res, &e) == RL_OK);
  CHECK(res.n_ops == 9);
  /* the non-embedding matmuls at 2 FLOPs per parameter per token, plus the
   * memory-bound activation, norms and adds (~16%) */
  CHECK(res.ttft_s > 2 * 6.98e9 * 2048 / r.peak);
  CHECK(res.ttft_s < 2 * 6.98e9 * 2048 / r.peak * 1.2);
  CHECK(ops[0].bound == RL_BOUND_COMPUTE);  /* qkv projection at 2048 tokens */
  CHECK(strstr(ops[4].name, "activation") != NULL);
  /* SiLU(gate) x up: 5 FLOPs and 3 x 2 B per element of d_ff, all layers */
  CHECK(fabs(ops[4].flops - 5.0 * 2048 * 14336 * 32) < 1);
  CHECK(fabs(ops[4].bytes - 6.0 * 2048 * 14336 * 32) < 1);
  CHECK(ops[8].bound == RL_BOUND_MEMORY);   /* output layer, last token only */
  CHECK(res.e2e_time_s > res.ttft_s + 127 * 4e-3);
  c.context = 0;
  CHECK(rl_prefill(&m, &c, &r, ops, RL_PREFILL_OPS, &res, &e) == RL_EINVAL);
  /* latent attention (DeepSeek-V3: 61 layers, 128 heads, r 512, rope 64,
   * nope 128, v 128, fp8) in prefill: the expanded form serving engines use
   * for prompts. The kv up projection decompresses K and V per head
   * (2 x 1024 x 512 x 128 (128 + 128) FLOPs a layer), and attention runs over
   * d_qk 192 and d_v 128: 2 (192 + 128) + 5 FLOPs per score and head, Q, K,
   * V and O of 1024 x 128 heads read or written once; the absorbed form
   * would cost 2 (2 x 512 + 64) + 5 per score, 3.4 times as many */
  rl_model ds = find("deepseek-v3");
  c = rl_infer_cfg_init();
  c.context = 1024;
  CHECK(rl_prefill(&ds, &c, &r, ops, RL_PREFILL_OPS, &res, &e) == RL_OK);
  double pairs = 1024.0 * 1024 / 2;
  CHECK(strcmp(ops[3].name, "kv up projection") == 0);
  CHECK(fabs(ops[3].flops - 61 * 2.0 * 1024 * 512 * 128 * 256) < 1);
  CHECK(strstr(ops[4].name, "attention (latent") != NULL);
  CHECK(fabs(ops[4].flops - 61 * 128 * pairs * (2 * (192 + 128) + 5)) < 1);
  CHECK(fabs(ops[4].bytes - 61 * 1.0 * 128 * 1024 * (2 * 192 + 2 * 128)) < 1);
  CHECK(ops[4].flops * 3.3 < 61 * 128 * pairs * (2 * (2 * 512 + 64) + 5));
}

/* One decode step op by op (rl_decode_ops). The convention: the ops add
 * up to at least the step's FLOPs and bytes (they add softmax, norms,
 * residual adds and each op's activation traffic) and are bounded one by
 * one, so the sum of their bounds is >= rl_decode's whole-step bound
 * max(F/peak, Q/bw) + all-reduces. Checked over every built-in model, batch
 * sizes, contexts (0, inside and past a sliding window), both embedding
 * conventions, tensor parallelism and weight formats. */
static void test_decode_ops(void) {
  rl_roof r = h100(0);
  rl_error e;
  int checked = 0, bad = 0;
  const double batches[] = {1, 7, 64, 1024}, contexts[] = {0, 1, 4096, 100000};
  for (int32_t i = 0; i < rl_model_count(); i++) {
    rl_model m;
    CHECK(rl_model_get(i, &m) == RL_OK);
    for (int tp = 1; tp <= 8; tp *= 8)
      for (int bi = 0; bi < 4; bi++)
        for (int ti = 0; ti < 4; ti++)
          for (int v = 0; v < 4; v++) {
            rl_infer_cfg c = rl_infer_cfg_init();
            c.context = contexts[ti];
            c.tp = tp;
            c.link_bw = 450e9;
            c.comm_latency_s = 8e-6;
            c.embedding = v == 1 ? RL_EMBED_FULL : RL_EMBED_GATHERED;
            if (v == 2) c.weight_dtype = RL_INT4;
            if (v == 3) { c.weight_dtype = RL_FP8; c.kv_dtype = RL_FP8; c.quantize_all = 1; }
            rl_decode_row row;
            if (rl_decode(&m, &c, &r, &batches[bi], 1, &row, NULL, &e) != RL_OK) continue; /* tp vs heads */
            rl_prefill_op ops[RL_PREFILL_OPS];
            int32_t n = 0;
            CHECK(rl_decode_ops(&m, &c, &r, batches[bi], ops, RL_PREFILL_OPS, &n, &e) == RL_OK);
            double F = 0, Q = 0, t = 0, comm = 0;
            for (int32_t k = 0; k < n; k++) {
              /* a library label names no command-line flag (Python shows it too) */
              CHECK(strstr(ops[k].name, "--") == NULL);
              t += ops[k].time_s;
              if (ops[k].bound == RL_BOUND_NETWORK) comm += ops[k].time_s;
              else { F += ops[k].flops; Q += ops[k].bytes; }
            }
            int ok = F >= row.flops * (1 - 1e-12) && Q >= row.bytes * (1 - 1e-12) &&
                     t >= row.step_time_s * (1 - 1e-12) && fabs(comm - row.comm_time_s) <= 1e-12 * row.step_time_s;
            if (!ok && bad++ < 5)
              fprintf(stderr, "  %s tp %d B %g T %g variant %d: ops F %g Q %g t %g vs step F %g Q %g t %g\n", m.id, tp,
                      batches[bi], contexts[ti], v, F, Q, t, row.flops, row.bytes, row.step_time_s);
            checked++;
          }
  }
  CHECK(bad == 0);
  CHECK(checked > 1000);
  /* by hand: llama3-8b, B 16, context 4096, bf16 */
  rl_model m = find("llama3-8b");
  rl_infer_cfg c = rl_infer_cfg_init();
  c.context = 4096;
  rl_prefill_op ops[RL_PREFILL_OPS];
  int32_t n = 0;
  CHECK(rl_decode_ops(&m, &c, &r, 16, ops, RL_PREFILL_OPS, &n, &e) == RL_OK);
  CHECK(n == 10);
  CHECK(strcmp(ops[0].name, "embedding (rows gathered)") == 0);
  /* the embedding gathers 16 rows of 4096 bf16 and writes them, + int64 ids */
  CHECK(ops[0].flops == 0 && fabs(ops[0].bytes - (16.0 * 4096 * 4 + 16 * 8)) < 1e-6);
  /* attention over the cache: QK^T and AV (4 d_h) + softmax 5 per score,
   * 32 heads; the cache (2 x 8 KV heads x 128 x 2 B per token) read once,
   * the query and output (2 x 32 x 128 x 2 B) */
  CHECK(strstr(ops[2].name, "attention") && ops[2].count == 32);
  CHECK(fabs(ops[2].flops - 32.0 * 16 * 32 * (4 * 128 + 5) * 4096) < 1);
  CHECK(fabs(ops[2].bytes - 32.0 * 16 * (4096 * 2 * 8 * 128 * 2 + 2 * 32 * 128 * 2)) < 1);
  /* the MLP's activation: SiLU(gate) x up, 5 FLOPs per element of d_ff */
  CHECK(strstr(ops[5].name, "activation") && fabs(ops[5].flops - 32.0 * 5 * 16 * 14336) < 1);
  CHECK(strcmp(ops[9].name, "output layer (lm_head)") == 0 &&
        fabs(ops[9].flops - 2.0 * 16 * 4096 * 128256) < 1);
  /* the step bound is memory: the sum of the ops is at most 1% above it */
  double one = 16, t = 0;
  rl_decode_row row;
  CHECK(rl_decode(&m, &c, &r, &one, 1, &row, NULL, &e) == RL_OK);
  for (int32_t k = 0; k < n; k++) t += ops[k].time_s;
  CHECK(t >= row.step_time_s && t < 1.01 * row.step_time_s);
  /* a routed expert's expected tokens are fractional: mixtral at B 3 runs
   * 8 (1 - (3/4)^3) = 4.625 experts a layer, 6/4.625 tokens each */
  rl_model mx = find("mixtral-8x7b");
  CHECK(rl_decode_ops(&mx, &c, &r, 3, ops, RL_PREFILL_OPS, &n, &e) == RL_OK);
  int found = 0;
  for (int32_t k = 0; k < n; k++)
    if (strcmp(ops[k].name, "expert mlp down") == 0) {
      found = 1;
      CHECK(fabs(ops[k].count - 32 * 4.625) < 1e-9);
      CHECK(fabs(ops[k].flops - 32.0 * 3 * 2 * 2 * 14336 * 4096) < 1e3); /* B k tokens */
    }
  CHECK(found);
  /* tp: the all-reduces are the last row, their time rl_decode's */
  c.tp = 2;
  c.link_bw = 450e9;
  CHECK(rl_decode_ops(&m, &c, &r, 16, ops, RL_PREFILL_OPS, &n, &e) == RL_OK);
  CHECK(n == 11 && ops[10].bound == RL_BOUND_NETWORK && ops[10].count == 64);
  /* sizing: NULL ops gives the count; a short cap truncates */
  int32_t n2 = 0;
  CHECK(rl_decode_ops(&m, &c, &r, 16, NULL, 0, &n2, &e) == RL_OK && n2 == 11);
  CHECK(rl_decode_ops(&m, &c, &r, 16, ops, 3, &n2, &e) == RL_OK && n2 == 3);
  /* bad input */
  CHECK(rl_decode_ops(&m, &c, &r, 0, ops, RL_PREFILL_OPS, &n, &e) == RL_EINVAL);
  CHECK(rl_decode_ops(&m, &c, &r, (double)NAN, ops, RL_PREFILL_OPS, &n, &e) == RL_EINVAL);
  CHECK(rl_decode_ops(&m, &c, &r, 1.5, ops, RL_PREFILL_OPS, &n, &e) == RL_EINVAL);
  CHECK(rl_decode_ops(&m, &c, &r, 1, ops, -1, &n, &e) == RL_EINVAL);
  CHECK(rl_decode_ops(&m, &c, &r, 1, ops, RL_PREFILL_OPS, NULL, &e) == RL_EINVAL);
  c.context = -1;
  CHECK(rl_decode_ops(&m, &c, &r, 1, ops, RL_PREFILL_OPS, &n, &e) == RL_EINVAL);
}

/* Weight-only quantization, by hand on a small model: L 2, d 256, H 4 of 64
 * (MHA), d_ff 512 gated, vocab 1000, untied, bf16. */
static void test_quant(void) {
  rl_model m = rl_model_init();
  m.layers = 2; m.d_model = 256; m.heads = 4; m.d_ff = 512; m.vocab = 1000;
  rl_roof r = h100(0);
  rl_infer_cfg c = rl_infer_cfg_init();
  c.weight_dtype = RL_INT4;
  double one = 1;
  rl_decode_row row;
  rl_decode_summary s;
  rl_error e;
  CHECK(rl_decode(&m, &c, &r, &one, 1, &row, &s, &e) == RL_OK);
  /* matmuls per layer: 4 x 256^2 attention + 3 x 256 x 512 MLP = 655,360 */
  double mm = 2 * 655360.0, emb = 2 * 256000.0, norms = 5 * 256.0;
  /* groups of 128: q,k,v,o 256 x 2 each, gate/up 512 x 2 each, down 256 x 4 */
  double groups = 2 * (4 * 512.0 + 2 * 1024 + 1024);
  CHECK(s.quantized == 1 && s.group_size == 128 && s.kept_dtype == RL_BF16);
  CHECK(fabs(s.scale_bytes - groups * 2.5) < 1e-6);
  CHECK(fabs(s.weights_bytes - (mm * 0.5 + groups * 2.5 + (emb + norms) * 2)) < 1e-6);
  CHECK(fabs(s.kept_bytes - (emb + norms) * 2) < 1e-6);
  c.group_size = RL_GROUP_NONE;
  c.quantize_all = 1;
  CHECK(rl_decode(&m, &c, &r, &one, 1, &row, &s, &e) == RL_OK);
  CHECK(fabs(s.weights_bytes - ((mm + emb) * 0.5 + norms * 2)) < 1e-6);
  c.group_size = RL_GROUP_CHANNEL;
  c.quantize_all = 0;
  c.weight_dtype = RL_INT8;
  CHECK(rl_decode(&m, &c, &r, &one, 1, &row, &s, &e) == RL_OK);
  /* one 16-bit scale per output: 256 x 4 + 512 x 2 + 256 a layer */
  CHECK(fabs(s.scale_bytes - 2 * 2304.0 * 2) < 1e-6);
  c.group_size = 0.5;
  CHECK(rl_decode(&m, &c, &r, &one, 1, &row, &s, &e) == RL_EINVAL);
  CHECK(strstr(e.msg, "group size") != NULL);
  /* not narrower than the model's format: no quantization */
  c.group_size = 0;
  c.weight_dtype = RL_FP16;
  CHECK(rl_decode(&m, &c, &r, &one, 1, &row, &s, &e) == RL_OK);
  CHECK(s.quantized == 0 && s.scale_bytes == 0);
  CHECK(fabs(s.weights_bytes - (mm + emb + norms) * 2) < 1e-6);
}

/* The planner's row is what rl_prefill and rl_decode give at its batch, and
 * one more sequence breaks the constraint it names. */
static void test_plan(void) {
  rl_model m = find("llama3-8b");
  rl_roof r = h100(0);
  rl_infer_cfg c = rl_infer_cfg_init();
  c.mem_bytes = 80e9;
  rl_plan_cfg pc = {.prompt = 1024, .gen = 256, .ttft_s = 2.0, .tpot_s = 0.02, .gpus = 1}; /* static */
  rl_plan_row row;
  rl_error e;
  CHECK(rl_plan(&m, &c, &r, &pc, &row, &e) == RL_OK);
  CHECK(row.batch > 1 && row.tp == 1 && row.pp == 1);
  rl_infer_cfg d = c;
  d.context = 1024 + 256;
  rl_decode_row dr[2];
  double bs[2] = {row.batch, row.batch + 1};
  CHECK(rl_decode(&m, &d, &r, bs, 2, dr, NULL, &e) == RL_OK);
  CHECK(dr[0].step_time_s == row.tpot_s && dr[0].memory_bytes == row.memory_bytes);
  rl_infer_cfg f = c;
  f.context = 1024;
  f.batch = row.batch;
  f.new_tokens = 256;
  rl_prefill_result pr;
  CHECK(rl_prefill(&m, &f, &r, NULL, 0, &pr, &e) == RL_OK);
  CHECK(pr.ttft_s == row.ttft_s && pr.e2e_time_s == row.e2e_s);
  CHECK(fabs(row.tokens_per_s - row.batch * 256 / pr.e2e_time_s) < 1e-9 * row.tokens_per_s);
  CHECK(row.ttft_s <= 2.0 && row.tpot_s <= 0.02 && dr[0].fits);
  /* batch + 1 breaks the named limit */
  f.batch = row.batch + 1;
  CHECK(rl_prefill(&m, &f, &r, NULL, 0, &pr, &e) == RL_OK);
  if (row.limit == RL_LIMIT_TTFT) CHECK(pr.ttft_s > 2.0);
  else if (row.limit == RL_LIMIT_TPOT) CHECK(dr[1].step_time_s > 0.02);
  else CHECK(row.limit == RL_LIMIT_CAPACITY && !dr[1].fits);
  /* capacity: the worked example's 119 sequences of 4096 tokens */
  rl_plan_cfg cap = {.prompt = 4095, .gen = 1, .gpus = 1};
  CHECK(rl_plan(&m, &c, &r, &cap, &row, &e) == RL_OK);
  CHECK(row.batch == 119 && row.limit == RL_LIMIT_CAPACITY);
  /* weights that do not fit: no batch */
  rl_model big = find("llama3-70b");
  CHECK(rl_plan(&big, &c, &r, &cap, &row, &e) == RL_OK);
  CHECK(row.batch == 0 && row.limit == RL_LIMIT_WEIGHTS);
  /* bad input */
  rl_plan_cfg bad = pc;
  bad.gen = 0;
  CHECK(rl_plan(&m, &c, &r, &bad, &row, &e) == RL_EINVAL && strstr(e.msg, "gen") != NULL);
  bad = pc;
  bad.tpot_s = (double)NAN;
  CHECK(rl_plan(&m, &c, &r, &bad, &row, &e) == RL_EINVAL);
  CHECK(strcmp(rl_plan_limit_name(RL_LIMIT_TPOT), "tpot") == 0 && rl_plan_limit_name(9) == NULL);
  CHECK(strcmp(rl_plan_limit_name(RL_LIMIT_PREFILL), "prefill") == 0);
  /* continuous batching (issue 25): the defaults, the prefill limit
   * floor(C (G - 1) / P), and a step that prefills a chunk costs more than
   * one that does not (TTFT: 4 steps of a whole chunk) */
  rl_plan_cfg cb = rl_plan_cfg_init();
  CHECK(cb.batching == RL_BATCHING_CONTINUOUS && cb.chunk == 512 && cb.mem_fraction == 0.9 && cb.block_size == 16);
  CHECK(fabs(cb.reserve_bytes - 0.21 * 1073741824.0) < 1);
  cb.prompt = 2048;
  cb.gen = 256;
  cb.gpus = 1;
  CHECK(rl_plan(&m, &c, &r, &cb, &row, &e) == RL_OK);
  CHECK(row.batch == floor(512.0 * 255 / 2048) && row.limit == RL_LIMIT_PREFILL);
  CHECK(fabs(row.prefill_tokens_per_step - row.batch * 2048 / 255) < 1e-9 * 2048);
  CHECK(fabs(row.tokens_per_s - row.batch * 256 / 255 / row.tpot_s) < 1e-9 * row.tokens_per_s);
  CHECK(fabs(row.requests_per_s * 256 - row.tokens_per_s) < 1e-9 * row.tokens_per_s);
  CHECK(row.ttft_s > 3 * row.tpot_s && row.memory_bytes <= 0.9 * 80e9); /* 4 chunk steps */
  cb.gen = 1;
  CHECK(rl_plan(&m, &c, &r, &cb, &row, &e) == RL_EINVAL && strstr(e.msg, "gen >= 2") != NULL);
  cb.gen = 256;
  cb.batching = 7;
  CHECK(rl_plan(&m, &c, &r, &cb, &row, &e) == RL_EINVAL);
  int32_t k;
  CHECK(rl_batching_parse("Static", &k, &e) == RL_OK && k == RL_BATCHING_STATIC);
  CHECK(rl_batching_parse("dynamic", &k, &e) == RL_EINVAL && strcmp(rl_batching_name(1), "continuous") == 0);
}

static void test_mfu(void) {
  /* worked example: 8B, L 32, d 4096, T 4096, 64 H100 at 600,000 tokens/s */
  rl_model m = rl_model_init();
  m.params = 8e9;
  m.layers = 32;
  m.d_model = 4096;
  m.heads = 32;
  rl_mfu_cfg c = rl_mfu_cfg_init();
  c.seq = 4096;
  c.tokens_per_s = 6e5;
  c.gpus = 64;
  c.peak = 989.4e12;
  c.sparse_peak = 2 * 989.4e12;
  rl_mfu_result r;
  CHECK(rl_mfu(&m, &c, &r, NULL) == RL_OK);
  CHECK_NEAR(r.model_flops_per_token, 5.44e10, 0.001);
  CHECK_NEAR(r.mfu, 0.52, 0.01);
  c.recompute = RL_RECOMPUTE_FULL;
  CHECK(rl_mfu(&m, &c, &r, NULL) == RL_OK);
  CHECK_NEAR(r.recompute_flops_per_token, 1.8e10, 0.01);
  CHECK_NEAR(r.hfu, 0.69, 0.01);
  c.recompute = RL_RECOMPUTE_NONE;
  c.use_sparse = 1;
  CHECK(rl_mfu(&m, &c, &r, NULL) == RL_OK);
  CHECK_NEAR(r.mfu, 0.26, 0.01);
  /* worked example: 7B, 8 GPUs, 72,018 tokens/s, 6N only */
  rl_model t = teaching_7b();
  c = rl_mfu_cfg_init();
  c.seq = 4096;
  c.tokens_per_s = 72018;
  c.gpus = 8;
  c.peak = 989.4e12;
  c.sparse_peak = 2 * 989.4e12;
  c.attention = RL_ATTN_NONE;
  CHECK(rl_mfu(&t, &c, &r, NULL) == RL_OK);
  CHECK_NEAR(r.mfu, 0.382, 0.001);
  rl_mfu_convention rows[RL_MFU_CONVENTIONS];
  int32_t n = 0;
  CHECK(rl_mfu_conventions(&t, &c, rows, RL_MFU_CONVENTIONS, &n, NULL) == RL_OK);
  double lo = 1, hi = 0;
  int found19 = 0, found51 = 0;
  for (int32_t i = 0; i < n; i++) {
    if (rows[i].value < lo) lo = rows[i].value;
    if (rows[i].value > hi) hi = rows[i].value;
    if (fabs(rows[i].value - 0.19) < 0.005) found19 = 1;
    if (fabs(rows[i].value - 0.51) < 0.005) found51 = 1;
  }
  CHECK_NEAR(lo, 0.19, 0.01);
  CHECK(found19 && found51);
  /* bad input */
  rl_error e;
  c.tokens_per_s = 0;
  CHECK(rl_mfu(&t, &c, &r, &e) == RL_EINVAL);
  CHECK(strstr(e.msg, "tokens") != NULL);
  c.tokens_per_s = 1;
  c.padding = 1;
  CHECK(rl_mfu(&t, &c, &r, &e) == RL_EINVAL);
}

static void test_comm(void) {
  rl_coll_cfg c = rl_coll_cfg_init();
  c.bytes = 14e9; /* 7B bf16 gradients */
  c.ranks = 8;
  c.busbw = 100e9;
  rl_coll_result r;
  CHECK(rl_collective(&c, &r, NULL) == RL_OK);
  CHECK_NEAR(r.factor, 1.75, 1e-12);
  CHECK_NEAR(r.bytes_per_rank, 2.0 * 7 / 8 * 14e9, 1e-12);
  CHECK_NEAR(r.time_s, 14e9 / 100e9 * 2 * 7 / 8, 1e-12);
  CHECK_NEAR(r.busbw, 100e9, 1e-12);
  CHECK_NEAR(r.algbw, 14e9 / r.time_s, 1e-12);
  /* the 18% of a 3.64 s step with no overlap implies busbw ~ 37.4 GB/s */
  c.busbw = 14e9 * 1.75 / (0.18 * 3.64);
  c.step_time_s = 3.64;
  CHECK(rl_collective(&c, &r, NULL) == RL_OK);
  CHECK_NEAR(r.step_fraction, 0.18, 1e-9);
  CHECK(r.ddp_exposed_s < r.time_s);
  CHECK_NEAR(r.fsdp_time_s, 1.5 * r.time_s, 1e-12);
  c.kind = RL_COLL_ALLGATHER;
  c.step_time_s = 0;
  CHECK(rl_collective(&c, &r, NULL) == RL_OK);
  CHECK_NEAR(r.factor, 7.0 / 8, 1e-12);
  /* two levels: 4 nodes of 8 */
  c = rl_coll_cfg_init();
  c.bytes = 1e9;
  c.ranks = 32;
  c.busbw = 400e9;
  c.ranks_per_node = 8;
  c.inter_busbw = 50e9;
  CHECK(rl_collective(&c, &r, NULL) == RL_OK);
  CHECK_NEAR(r.intra_time_s, 1.75 * 1e9 / 400e9, 1e-12);
  CHECK_NEAR(r.inter_time_s, 1.5 * 1e9 / 8 / 50e9, 1e-12);
  rl_error e;
  c.ranks = 1;
  c.ranks_per_node = 0;
  c.inter_busbw = 0;
  CHECK(rl_collective(&c, &r, &e) == RL_EINVAL);
  CHECK(strstr(e.msg, "rank") != NULL);
}

static void test_hf_config(void) {
  static const char llama[] =
      "{\"architectures\":[\"LlamaForCausalLM\"],\"hidden_size\":4096,\"intermediate_size\":14336,"
      "\"max_position_embeddings\":8192,\"model_type\":\"llama\",\"num_attention_heads\":32,"
      "\"num_hidden_layers\":32,\"num_key_value_heads\":8,\"rms_norm_eps\":1e-05,"
      "\"tie_word_embeddings\":false,\"torch_dtype\":\"bfloat16\",\"vocab_size\":128256}";
  rl_model m;
  rl_param_count p;
  rl_error e;
  CHECK(rl_model_from_hf_config(llama, strlen(llama), "mine", &m, &e) == RL_OK);
  CHECK(rl_model_params(&m, &p, NULL) == RL_OK);
  CHECK_NEAR(p.total, 8030261248.0, 1e-12);
  CHECK(m.dtype == RL_BF16);
  static const char gpt2[] =
      "{\"model_type\":\"gpt2\",\"n_embd\":768,\"n_layer\":12,\"n_head\":12,\"n_positions\":1024,"
      "\"n_inner\":null,\"vocab_size\":50257,\"activation_function\":\"gelu_new\","
      "\"layer_norm_epsilon\":1e-05}";
  CHECK(rl_model_from_hf_config(gpt2, strlen(gpt2), NULL, &m, &e) == RL_OK);
  CHECK(rl_model_params(&m, &p, NULL) == RL_OK);
  CHECK_NEAR(p.total, 124439808.0, 1e-12);
  static const char mixtral[] =
      "{\"model_type\":\"mixtral\",\"hidden_size\":4096,\"intermediate_size\":14336,"
      "\"num_attention_heads\":32,\"num_hidden_layers\":32,\"num_key_value_heads\":8,"
      "\"num_local_experts\":8,\"num_experts_per_tok\":2,\"vocab_size\":32000,"
      "\"tie_word_embeddings\":false}";
  CHECK(rl_model_from_hf_config(mixtral, strlen(mixtral), NULL, &m, &e) == RL_OK);
  CHECK(rl_model_params(&m, &p, NULL) == RL_OK);
  CHECK_NEAR(p.total, 46702792704.0, 1e-12);
  /* broken, truncated, no layers */
  CHECK(rl_model_from_hf_config(llama, 40, NULL, &m, &e) == RL_ETRUNCATED);
  CHECK(strstr(e.msg, "truncated") != NULL);
  CHECK(rl_model_from_hf_config("{\"a\":,}", 7, NULL, &m, &e) == RL_EPARSE);
  static const char nolayers[] = "{\"hidden_size\":4096,\"num_attention_heads\":32}";
  CHECK(rl_model_from_hf_config(nolayers, strlen(nolayers), NULL, &m, &e) == RL_EINVAL);
  CHECK(strstr(e.msg, "layers") != NULL);
}

/* Block-scaled expert weights (rl_model.expert_weights), by hand from the
 * gpt-oss configs and the OCP MX v1.0 MXFP4 layout (4-bit E2M1, one 8-bit
 * E8M0 scale per 32 weights along the input dimension): a 2880 x 2880
 * matrix is 2880^2 / 2 + 2880 x 90 = 4,406,400 B; an expert 3 of them +
 * its bf16 biases (2 x 2880 + 2880) x 2 = 13,236,480 B. */
static void test_expert_weights(void) {
  CHECK(rl_wfmt_matrix_bytes(RL_WFMT_MXFP4, 2880, 2880) == 4406400);
  CHECK(rl_wfmt_matrix_bytes(RL_WFMT_NVFP4, 2880, 2880) == 4147200 + 2880 * 180);
  CHECK(rl_wfmt_matrix_bytes(RL_WFMT_MXFP4, 33, 1) == 16.5 + 2); /* a partial block has its scale */
  CHECK(rl_wfmt_matrix_bytes(RL_WFMT_DTYPE, 2880, 2880) == 0 && rl_wfmt_matrix_bytes(9, 1, 1) == 0);
  CHECK(rl_wfmt_dtype(RL_WFMT_MXFP4) == RL_FP4 && rl_wfmt_block(RL_WFMT_MXFP4) == 32 &&
        rl_wfmt_scale_bits(RL_WFMT_MXFP4) == 8 && rl_wfmt_dtype(RL_WFMT_DTYPE) == -1);
  int32_t f = -1;
  rl_error e;
  CHECK(rl_wfmt_parse("MXFP4", &f, &e) == RL_OK && f == RL_WFMT_MXFP4);
  CHECK_STR(rl_wfmt_name(f), "mxfp4");
  CHECK(rl_wfmt_parse("dtype", &f, &e) == RL_EINVAL && strstr(e.msg, "mxfp4 nvfp4"));
  CHECK(rl_wfmt_parse("int4", &f, &e) == RL_EINVAL);

  rl_model m;
  CHECK(rl_model_find("gpt-oss-120b", &m, NULL) == RL_OK && m.expert_weights == RL_WFMT_MXFP4);
  const double expert = 3 * 4406400.0 + 8640 * 2, n_exp = 36 * 128;
  const double rest = (116829154368.0 - n_exp * 3 * 2880 * 2880) * 2; /* expert biases included */
  double wb = 0;
  CHECK(rl_model_weight_bytes(&m, &wb, &e) == RL_OK);
  CHECK(wb == n_exp * 3 * 2880 * 2880 * 4.25 / 8 + rest); /* 65,248,811,136 B */
  rl_roof r = h100(0);
  rl_infer_cfg c = rl_infer_cfg_init();
  c.mem_bytes = 80e9;
  double one = 1;
  rl_decode_row row;
  rl_decode_summary s;
  CHECK(rl_decode(&m, &c, &r, &one, 1, &row, &s, &e) == RL_OK);
  CHECK(s.weights_bytes == wb && s.expert_weights == RL_WFMT_MXFP4 && s.expert_bytes == n_exp * expert);
  CHECK(s.weights_fit && row.fits && s.quantized == 0);
  /* B = 1: 4 experts of a layer read, the embedding table gathered (one row) */
  CHECK(row.weight_bytes == wb - 124 * 36 * expert - 201088 * 2880 * 2.0 + 2880 * 2);
  /* the op table reads the same experts: 4 x 36 of them, gate+up and down */
  rl_prefill_op ops[RL_PREFILL_OPS];
  int32_t n = 0;
  CHECK(rl_decode_ops(&m, &c, &r, 1, ops, RL_PREFILL_OPS, &n, &e) == RL_OK);
  double ew = 0;
  for (int32_t i = 0; i < n; i++)
    if (strcmp(ops[i].name, "expert mlp gate+up") == 0 || strcmp(ops[i].name, "expert mlp down") == 0) {
      CHECK(ops[i].count == 144);
      ew += ops[i].bytes;
    }
  /* + the token's activations through them: in 2880 + out 5760, in 2880 + out 2880, bf16 */
  CHECK_NEAR(ew, 144 * (expert + (2880 + 5760 + 2880 + 2880) * 2.0), 1e-12);
  /* a weight format given wins, the experts too: fp4 in groups of 32 has
   * MXFP4's elements and scale count, each scale 16-bit (quant_setup) */
  c.weight_dtype = RL_FP4;
  c.group_size = 32;
  CHECK(rl_decode(&m, &c, &r, &one, 1, &row, &s, &e) == RL_OK);
  CHECK(s.expert_weights == RL_WFMT_DTYPE && s.quantized);
  CHECK(s.expert_bytes - n_exp * expert == n_exp * 3 * 2880 * 90.0 * (2 - 1) + n_exp * 8640 * (0.5 - 2));
  c.weight_dtype = RL_BF16;
  c.group_size = 0;
  CHECK(rl_decode(&m, &c, &r, &one, 1, &row, &s, &e) == RL_OK);
  CHECK(s.weights_bytes == 116829154368.0 * 2 && !s.weights_fit);
  /* bad values; a dense model drops the format */
  m.expert_weights = RL_WFMT_COUNT;
  CHECK(rl_model_weight_bytes(&m, &wb, &e) == RL_EINVAL && strstr(e.msg, "expert weight format"));
  rl_model d;
  CHECK(rl_model_find("llama3-8b", &d, NULL) == RL_OK && d.expert_weights == RL_WFMT_DTYPE);
  d.expert_weights = RL_WFMT_MXFP4;
  CHECK(rl_model_weight_bytes(&d, &wb, &e) == RL_OK && wb == 8030261248.0 * 2);
  /* transformers' Mxfp4Config (gpt-oss' config.json) */
  static const char oss[] =
      "{\"model_type\":\"gpt_oss\",\"hidden_size\":2880,\"intermediate_size\":2880,"
      "\"num_attention_heads\":64,\"num_hidden_layers\":24,\"num_key_value_heads\":8,\"head_dim\":64,"
      "\"num_local_experts\":32,\"num_experts_per_tok\":4,\"vocab_size\":201088,"
      "\"quantization_config\":{\"quant_method\":\"mxfp4\",\"modules_to_not_convert\":[\"model.layers.*.self_attn\"]},"
      "\"torch_dtype\":\"bfloat16\",\"tie_word_embeddings\":false}";
  CHECK(rl_model_from_hf_config(oss, strlen(oss), NULL, &m, &e) == RL_OK);
  CHECK(m.expert_weights == RL_WFMT_MXFP4 && m.dtype == RL_BF16);
}

int main(void) {
  RUN(test_params);
  RUN(test_find);
  RUN(test_decode_llama3_8b);
  RUN(test_decode_teaching_7b);
  RUN(test_decode_tp_and_errors);
  RUN(test_decode_fit_degree);
  RUN(test_prefill);
  RUN(test_decode_ops);
  RUN(test_pipeline);
  RUN(test_quant);
  RUN(test_plan);
  RUN(test_mfu);
  RUN(test_comm);
  RUN(test_hf_config);
  RUN(test_expert_weights);
  return harness_report("llm");
}
