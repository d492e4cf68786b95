/*
 * test_llm_json.c -- the JSON writers of the LLM records (rl_model_json,
 * rl_decode_json, ...): the snprintf contract (sizing with cap 0,
 * truncation, NULL inputs), and the keys and figures each record carries.
 * The records' figures against their sources are checked by the golden corpus
 * (tests/golden/llm.golden) through the CLI and through Python.
 */
#include "harness.h"
#include "roofline.h"

#include <stdlib.h>
#include <string.h>

/* The writer's output, sized by a first call with cap 0 (malloc'd). */
#define WRITE(call_with_buf_cap, out)                                          \
  do {                                                                         \
    char *buf = NULL;                                                          \
    size_t cap = 0;                                                            \
    size_t need = (call_with_buf_cap);                                         \
    cap = need + 1;                                                            \
    buf = malloc(cap);                                                         \
    size_t got = buf ? (call_with_buf_cap) : 0;                                \
    CHECK(buf && got == need && strlen(buf) == need);                          \
    (out) = buf;                                                               \
  } while (0)

static int has(const char *doc, const char *text) { return doc && strstr(doc, text) != NULL; }

static rl_roof h100_roof(rl_hw *hw) {
  rl_roof r;
  memset(&r, 0, sizeof r);
  if (rl_hw_find("h100", NULL, 0, hw, NULL) == RL_OK) rl_hw_roof(hw, RL_PEAK_BF16, 0, &r, NULL);
  return r;
}

static void test_model(void) {
  rl_model m;
  CHECK(rl_model_find("llama3-8b", &m, NULL) == RL_OK);
  char *doc;
  WRITE(rl_model_json(&m, -1, buf, cap), doc);
  CHECK(has(doc, "{\"id\":\"llama3-8b\",\"name\":\"Llama 3 8B\",\"layers\":32,"));
  CHECK(has(doc, "\"params\":8030261248,"));
  CHECK(has(doc, "\"params_derived\":true,\"published_params\":8030000000,"));
  CHECK(has(doc, "\"kv_bytes_per_token\":131072,"));
  CHECK(has(doc, "\"kv_dtype\":\"bf16\"}"));
  /* truncation: a NUL-terminated prefix, the same length returned */
  char small[16];
  size_t len = rl_model_json(&m, -1, small, sizeof small);
  CHECK(len == strlen(doc));
  CHECK(strlen(small) == sizeof small - 1 && strncmp(small, doc, sizeof small - 1) == 0);
  CHECK(rl_model_json(&m, -1, NULL, 0) == len);
  free(doc);
  /* fp8 KV cache: half the bytes; a model by hand has no published count */
  WRITE(rl_model_json(&m, RL_FP8, buf, cap), doc);
  CHECK(has(doc, "\"kv_bytes_per_token\":65536,") && has(doc, "\"kv_dtype\":\"fp8\""));
  free(doc);
  rl_model t = rl_model_init();
  t.params = 7e9;
  t.layers = 32;
  t.heads = 32;
  t.kv_heads = 8;
  t.head_dim = 128;
  WRITE(rl_model_json(&t, -1, buf, cap), doc);
  CHECK(has(doc, "\"d_model\":4096,") && has(doc, "\"published_params\":null,"));
  CHECK(has(doc, "\"params_derived\":false,"));
  free(doc);
  /* the list: one record per built-in model, without kv_dtype */
  WRITE(rl_model_list_json(buf, cap), doc);
  CHECK(doc && doc[0] == '[' && doc[strlen(doc) - 1] == ']');
  CHECK(!has(doc, "kv_dtype"));
  int n = 0;
  for (const char *p = doc; p && (p = strstr(p, "{\"id\":")) != NULL; p++) n++;
  CHECK(n == rl_model_count());
  free(doc);
  char one[4] = "xyz";
  CHECK(rl_model_json(NULL, -1, one, sizeof one) == 0 && one[0] == 0);
}

static void test_decode(void) {
  rl_model m;
  rl_hw hw;
  CHECK(rl_model_find("llama3-8b", &m, NULL) == RL_OK);
  rl_roof roof = h100_roof(&hw);
  rl_infer_cfg cfg = rl_infer_cfg_init();
  cfg.context = 4096;
  cfg.mem_bytes = hw.mem_bytes;
  double b[2] = {1, 119};
  rl_decode_row rows[2];
  rl_decode_summary s;
  rl_error e;
  CHECK(rl_decode(&m, &cfg, &roof, b, 2, rows, &s, &e) == RL_OK);
  char *doc;
  WRITE(rl_decode_json(&m, &cfg, &roof, hw.id, rows, 2, &s, NULL, 0, buf, cap), doc);
  CHECK(has(doc, "{\"model\":\"llama3-8b\",\"hw\":\"nvidia-h100-sxm5\","));
  CHECK(has(doc, "\"embedding\":\"gathered\","));
  CHECK(has(doc, "\"max_batch\":119,") && has(doc, "\"mem_bytes\":80000000000,"));
  CHECK(has(doc, "\"rows\":[{\"batch\":1,") && has(doc, "{\"batch\":119,"));
  /* the other convention's step: the whole table read, more bytes */
  rl_infer_cfg full = cfg;
  full.embedding = RL_EMBED_FULL;
  double one = 1;
  rl_decode_row fr;
  CHECK(rl_decode(&m, &full, &roof, &one, 1, &fr, NULL, NULL) == RL_OK);
  char want[96], num[40];
  rl_json_number(fr.step_time_s, num, sizeof num);
  snprintf(want, sizeof want, "\"other_embedding_step_time_s\":%s,", num);
  CHECK(has(doc, want));
  free(doc);
  /* capacity not checked: max_batch and mem_bytes are null; no hw id */
  cfg.mem_bytes = 0;
  CHECK(rl_decode(&m, &cfg, &roof, b, 1, rows, &s, &e) == RL_OK);
  WRITE(rl_decode_json(&m, &cfg, &roof, NULL, rows, 1, &s, NULL, 0, buf, cap), doc);
  CHECK(has(doc, "\"hw\":null,") && has(doc, "\"max_batch\":null,") && has(doc, "\"mem_bytes\":null,"));
  free(doc);
  CHECK(rl_decode_json(&m, &cfg, &roof, NULL, NULL, 1, &s, NULL, 0, NULL, 0) == 0);
  /* with the op table of one step: "ops_time_s" and "ops", each op's share
   * of their sum */
  rl_prefill_op ops[RL_PREFILL_OPS];
  int32_t n_ops = 0;
  CHECK(rl_decode_ops(&m, &cfg, &roof, 1, ops, RL_PREFILL_OPS, &n_ops, &e) == RL_OK && n_ops > 2);
  double total = 0;
  for (int32_t i = 0; i < n_ops; i++) total += ops[i].time_s;
  WRITE(rl_decode_json(&m, &cfg, &roof, hw.id, rows, 1, &s, ops, n_ops, buf, cap), doc);
  rl_json_number(total, num, sizeof num);
  snprintf(want, sizeof want, "\"ops_time_s\":%s,\"ops\":[{\"op\":\"embedding (rows gathered)\",", num);
  CHECK(has(doc, want));
  rl_json_number(ops[1].time_s / total, num, sizeof num);
  snprintf(want, sizeof want, "\"share\":%s}", num);
  CHECK(has(doc, want));
  free(doc);
  CHECK(rl_decode_json(&m, &cfg, &roof, NULL, rows, 1, &s, NULL, 2, NULL, 0) == 0); /* ops missing */
}

static void test_prefill(void) {
  rl_model m;
  rl_hw hw;
  CHECK(rl_model_find("llama3-8b", &m, NULL) == RL_OK);
  rl_roof roof = h100_roof(&hw);
  rl_infer_cfg cfg = rl_infer_cfg_init();
  cfg.context = 2048;
  cfg.new_tokens = 256;
  rl_prefill_op ops[RL_PREFILL_OPS];
  rl_prefill_result r;
  CHECK(rl_prefill(&m, &cfg, &roof, ops, RL_PREFILL_OPS, &r, NULL) == RL_OK);
  char *doc;
  WRITE(rl_prefill_json(&m, &cfg, &roof, hw.id, ops, &r, buf, cap), doc);
  CHECK(has(doc, "\"prompt\":2048,\"batch\":1,\"tokens\":2048,\"causal\":true,"));
  CHECK(has(doc, "\"new_tokens\":256,") && has(doc, "\"tp\":1,\"pp\":1,\"ep\":1,") && has(doc, "\"a2a_time_s\":0,\"ops\":[{\"op\":"));
  int n = 0;
  for (const char *p = doc; p && (p = strstr(p, "{\"op\":")) != NULL; p++) n++;
  CHECK(n == r.n_ops);
  free(doc);
}

static void test_mfu(void) {
  rl_model m = rl_model_init();
  m.params = 8e9;
  m.layers = 32;
  m.d_model = 4096;
  m.heads = 1;
  rl_mfu_cfg cfg = rl_mfu_cfg_init();
  cfg.seq = 4096;
  cfg.tokens_per_s = 600000;
  cfg.gpus = 64;
  cfg.peak = 989.4e12;
  cfg.sparse_peak = 2 * cfg.peak;
  cfg.recompute = RL_RECOMPUTE_FULL;
  rl_mfu_result r;
  CHECK(rl_mfu(&m, &cfg, &r, NULL) == RL_OK);
  char *doc;
  WRITE(rl_mfu_json(&m, &cfg, "h100", &r, buf, cap), doc);
  CHECK(has(doc, "\"attention\":\"full\",\"recompute\":\"full\","));
  CHECK(has(doc, "\"dense_peak\":989400000000000,") && has(doc, "\"tokens_per_s\":600000,"));
  rl_mfu_convention conv[RL_MFU_CONVENTIONS];
  int32_t nc = 0;
  CHECK(rl_mfu_conventions(&m, &cfg, conv, RL_MFU_CONVENTIONS, &nc, NULL) == RL_OK);
  int n = 0;
  for (const char *p = doc; p && (p = strstr(p, "{\"label\":")) != NULL; p++) n++;
  CHECK(n == nc && nc > 4);
  double lo = conv[0].value;
  for (int32_t i = 1; i < nc; i++)
    if (conv[i].value < lo) lo = conv[i].value;
  char want[64], num[40];
  rl_json_number(lo, num, sizeof num);
  snprintf(want, sizeof want, "\"conventions_min\":%s,", num);
  CHECK(has(doc, want));
  free(doc);
}

static void test_collective(void) {
  rl_coll_cfg cfg = rl_coll_cfg_init();
  cfg.bytes = 14e9;
  cfg.ranks = 8;
  cfg.busbw = 100e9;
  rl_coll_result r;
  CHECK(rl_collective(&cfg, &r, NULL) == RL_OK);
  char *doc;
  WRITE(rl_collective_json(&cfg, &r, buf, cap), doc);
  CHECK_STR(doc, "{\"collective\":\"allreduce\",\"bytes\":14000000000,\"ranks\":8,\"factor\":1.75,"
                 "\"time_s\":0.245,\"bytes_per_rank\":24500000000,\"busbw\":100000000000,"
                 "\"algbw\":57142857142.85715,\"busbw_given\":100000000000,\"bandwidth_time_s\":0.245,"
                 "\"latency_time_s\":0}");
  free(doc);
  cfg.kind = RL_COLL_ALLGATHER;
  cfg.step_time_s = 1;
  CHECK(rl_collective(&cfg, &r, NULL) == RL_OK);
  WRITE(rl_collective_json(&cfg, &r, buf, cap), doc);
  CHECK(has(doc, "\"step_fraction\":") && !has(doc, "ddp_") && !has(doc, "intra_time_s"));
  free(doc);
}

int main(void) {
  RUN(test_model);
  RUN(test_decode);
  RUN(test_prefill);
  RUN(test_mfu);
  RUN(test_collective);
  return harness_report("llm_json");
}
