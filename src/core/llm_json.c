/*
 * llm_json.c -- the JSON records of the LLM calculators: a model, a decode
 * sweep, a prefill, MFU/HFU with every convention, a collective.
 *
 * Exports rl_model_json, rl_model_list_json, rl_decode_json,
 * rl_prefill_json, rl_plan_json, rl_mfu_json and rl_collective_json.
 *
 * One writer per record, so that the CLI's --json, the Python binding and
 * the page print the same keys and figures. snprintf-style like
 * rl_result_json: the text goes into the caller's (buf, cap) through rli_out
 * and the return value is the length the whole record needs. Numbers are
 * %.10g in base units (FLOP, B, s, B/s, FLOP/s), null when not finite; a
 * figure that does not exist (no published count, no ridge batch, capacity
 * not checked) is null. The few figures a record adds to the calculator's
 * result (a model's parameter count and KV bytes, the other embedding
 * convention's step, the MFU conventions) are computed here from the inputs
 * with the same pure functions; nothing here does I/O.
 */
#include "core/internal.h"

#include <math.h>
#include <string.h>

/* A JSON object/array writer over rli_out: keeps, per nesting level,
 * whether a member was written, to place the commas. */
#define JW_DEPTH 8

typedef struct jw {
  rli_out o;
  int depth;
  int count[JW_DEPTH];
} jw;

static void jw_init(jw *j, char *buf, size_t cap) {
  memset(j, 0, sizeof *j);
  rli_out_init(&j->o, buf, cap);
}

static void jw_member(jw *j, const char *key) {
  if (j->count[j->depth]++) rli_out_puts(&j->o, ",");
  if (key) {
    rli_out_str(&j->o, key);
    rli_out_puts(&j->o, ":");
  }
}

static void jw_open(jw *j, const char *key, char brace) {
  char s[2] = {brace, 0};
  jw_member(j, key);
  rli_out_puts(&j->o, s);
  if (j->depth < JW_DEPTH - 1) j->depth++;
  j->count[j->depth] = 0;
}

static void jw_close(jw *j, char brace) {
  char s[2] = {brace, 0};
  rli_out_puts(&j->o, s);
  if (j->depth > 0) j->depth--;
}

static void jw_num(jw *j, const char *key, double v) {
  jw_member(j, key);
  rli_out_num(&j->o, v);
}

/* The number when `have`, else null. */
static void jw_opt(jw *j, const char *key, int have, double v) {
  jw_num(j, key, have ? v : (double)NAN);
}

static void jw_str(jw *j, const char *key, const char *s) {
  jw_member(j, key);
  if (s) rli_out_str(&j->o, s);
  else rli_out_puts(&j->o, "null");
}

static void jw_bool(jw *j, const char *key, int v) {
  jw_member(j, key);
  rli_out_puts(&j->o, v ? "true" : "false");
}

/* The truth value when `have`, else null (a capacity not known: nothing to fit in). */
static void jw_bool_opt(jw *j, const char *key, int have, int v) {
  if (have) jw_bool(j, key, v);
  else jw_str(j, key, NULL);
}

/* A space-separated list (a model's aliases) as an array of strings. */
static void jw_words(jw *j, const char *key, const char *s) {
  jw_open(j, key, '[');
  char w[RL_MODEL_ALIASES_MAX];
  while (s && *s) {
    while (*s == ' ') s++;
    size_t n = strcspn(s, " ");
    if (n == 0) break;
    if (n >= sizeof w) n = sizeof w - 1;
    memcpy(w, s, n);
    w[n] = 0;
    jw_member(j, NULL);
    rli_out_str(&j->o, w);
    s += strcspn(s, " ");
  }
  jw_close(j, ']');
}

static size_t jw_end(jw *j) { return rli_out_end(&j->o); }

static const char *attn_name(int32_t a) { return rl_attn_name(a) ? rl_attn_name(a) : "none"; }
static const char *rec_name(int32_t r) { return rl_recompute_name(r) ? rl_recompute_name(r) : "none"; }

/* m with its sizes defaulted, or m itself when it does not check. */
static rl_model checked(const rl_model *m) {
  rl_model c;
  if (rl_model_check(m, &c, NULL) != RL_OK) c = *m;
  return c;
}

/* ---- models ---------------------------------------------------------------- */

static void model_members(jw *j, const rl_model *m, int32_t kv_dtype, int with_kv_dtype) {
  rl_model c = checked(m);
  rl_param_count p;
  if (rl_model_params(m, &p, NULL) != RL_OK) {
    double nan = (double)NAN;
    p.total = p.active = p.embedding = p.output = p.attention = p.mlp = nan;
    p.mlp_active = p.norms = p.non_embedding = p.matmul_active = nan;
    p.derived = 0;
  }
  int32_t kd = kv_dtype >= 0 ? kv_dtype : rl_model_kv_dtype(&c, -1);
  double kv = (double)NAN;
  if (rl_model_kv_bytes_per_token(&c, kd, &kv, NULL) != RL_OK) kv = (double)NAN;
  jw_str(j, "id", m->id);
  jw_str(j, "name", m->name);
  jw_num(j, "layers", c.layers);
  jw_num(j, "d_model", c.d_model);
  jw_num(j, "heads", c.heads);
  jw_num(j, "kv_heads", c.kv_heads);
  jw_num(j, "head_dim", c.head_dim);
  jw_num(j, "d_ff", c.d_ff);
  jw_num(j, "vocab", c.vocab);
  jw_num(j, "max_seq", c.max_seq);
  jw_num(j, "experts", c.experts);
  jw_num(j, "experts_active", c.experts_active);
  jw_str(j, "mlp", rl_mlp_name(c.mlp));
  jw_str(j, "activation", rl_model_act_name(&c));
  jw_str(j, "norm", rl_norm_name(c.norm));
  jw_bool(j, "tied_embeddings", c.tied_embeddings);
  jw_bool(j, "bias", c.bias != 0);
  jw_str(j, "bias_on", c.bias == RL_BIAS_QKV ? "qkv" : c.bias ? "all" : "none");
  jw_num(j, "window", c.window);
  jw_num(j, "window_layers", c.window_layers);
  jw_num(j, "norms_per_layer", c.norms_per_layer);
  jw_num(j, "shared_experts", c.shared_experts);
  jw_num(j, "dense_layers", c.dense_layers);
  jw_num(j, "dense_d_ff", c.dense_d_ff);
  jw_num(j, "kv_lora_rank", c.kv_lora_rank);
  jw_num(j, "q_lora_rank", c.q_lora_rank);
  jw_num(j, "rope_dim", c.rope_dim);
  jw_num(j, "nope_dim", c.nope_dim);
  jw_num(j, "v_head_dim", c.v_head_dim);
  jw_words(j, "aliases", m->aliases);
  jw_str(j, "dtype", rl_dtype_name(c.dtype));
  jw_str(j, "expert_weights", c.expert_weights ? rl_wfmt_name(c.expert_weights) : NULL);
  double wb = (double)NAN;
  if (rl_model_weight_bytes(m, &wb, NULL) != RL_OK) wb = (double)NAN;
  jw_num(j, "weights_bytes", wb);
  jw_num(j, "params", p.total);
  jw_num(j, "active_params", p.active);
  jw_bool(j, "params_derived", p.derived);
  jw_opt(j, "published_params", m->published_params > 0, m->published_params);
  jw_num(j, "embedding_params", p.embedding);
  jw_num(j, "attention_params", p.attention);
  jw_num(j, "mlp_params", p.mlp);
  jw_num(j, "norm_params", p.norms);
  jw_num(j, "output_params", p.output);
  jw_num(j, "non_embedding_params", p.non_embedding);
  jw_num(j, "kv_bytes_per_token", kv);
  jw_str(j, "source", m->source);
  if (with_kv_dtype) jw_str(j, "kv_dtype", rl_dtype_name(kd));
}

size_t rl_model_json(const rl_model *m, int32_t kv_dtype, char *buf, size_t cap) {
  jw j;
  jw_init(&j, buf, cap);
  if (!m) return jw_end(&j);
  jw_open(&j, NULL, '{');
  model_members(&j, m, kv_dtype, 1);
  jw_close(&j, '}');
  return jw_end(&j);
}

size_t rl_model_list_json(char *buf, size_t cap) {
  jw j;
  jw_init(&j, buf, cap);
  jw_open(&j, NULL, '[');
  for (int32_t i = 0; i < rl_model_count(); i++) {
    rl_model m;
    if (rl_model_get(i, &m) != RL_OK) continue;
    jw_open(&j, NULL, '{');
    model_members(&j, &m, -1, 0);
    jw_close(&j, '}');
  }
  jw_close(&j, ']');
  return jw_end(&j);
}

/* ---- decode and prefill ------------------------------------------------------ */

/* pp, ep and the stages (first layer, layers, weights per device) */
static void par_members(jw *j, const rl_model *m, const rl_infer_cfg *cfg) {
  rl_stage st[RL_MAX_STAGES];
  int32_t n = 0;
  if (rl_stages(m, cfg, st, RL_MAX_STAGES, &n, NULL) != RL_OK) n = 0;
  jw_num(j, "pp", cfg->pp > 1 ? cfg->pp : 1);
  jw_num(j, "ep", cfg->ep > 1 ? cfg->ep : 1);
  jw_num(j, "p2p_latency_s", cfg->p2p_latency_s);
  jw_num(j, "a2a_latency_s", cfg->a2a_latency_s);
  jw_open(j, "stages", '[');
  for (int32_t i = 0; i < n; i++) {
    jw_open(j, NULL, '{');
    jw_num(j, "first_layer", st[i].first_layer);
    jw_num(j, "layers", st[i].layers);
    jw_num(j, "weights_bytes", st[i].weights_bytes);
    jw_close(j, '}');
  }
  jw_close(j, ']');
}

static void roof_kind(jw *j, const rl_roof *roof) {
  jw_str(j, "peak_kind", roof->peak_kind < 0 ? "custom" : rl_peak_name(roof->peak_kind));
}

/* What the roofs assume: the efficiencies they were scaled by (1: the pure
 * bound) and whether `roofline measure` measured them. */
static void roof_assumptions(jw *j, const rl_roof *roof) {
  jw_num(j, "compute_eff", roof->compute_eff > 0 ? roof->compute_eff : 1);
  jw_num(j, "bw_eff", roof->bw_eff > 0 ? roof->bw_eff : 1);
  jw_bool(j, "peak_measured", (roof->measured & RL_ROOF_MEASURED_PEAK) != 0);
  jw_bool(j, "bandwidth_measured", (roof->measured & RL_ROOF_MEASURED_BW) != 0);
}

/* The op table of a prefill or a decode step: "ops", each op's share of
 * `total` (the time to first token; the sum of the step's op times). */
static void op_rows(jw *j, const rl_prefill_op *ops, int32_t n, double total) {
  jw_open(j, "ops", '[');
  for (int32_t i = 0; i < n; i++) {
    jw_open(j, NULL, '{');
    jw_str(j, "op", ops[i].name);
    jw_num(j, "count", ops[i].count);
    jw_num(j, "flops", ops[i].flops);
    jw_num(j, "bytes", ops[i].bytes);
    jw_num(j, "intensity", ops[i].intensity);
    jw_num(j, "time_s", ops[i].time_s);
    jw_str(j, "bound", rl_bound_name(ops[i].bound));
    jw_num(j, "share", total > 0 ? ops[i].time_s / total : (double)NAN);
    jw_close(j, '}');
  }
  jw_close(j, ']');
}

size_t rl_decode_json(const rl_model *m, const rl_infer_cfg *cfg, const rl_roof *roof,
                      const char *hw_id, const rl_decode_row *rows, int32_t n,
                      const rl_decode_summary *s, const rl_prefill_op *ops, int32_t n_ops,
                      char *buf, size_t cap) {
  jw j;
  jw_init(&j, buf, cap);
  if (!m || !cfg || !roof || !s || (n > 0 && !rows) || (n_ops > 0 && !ops)) return jw_end(&j);
  rl_model c = checked(m);
  int32_t wd = cfg->weight_dtype >= 0 ? cfg->weight_dtype : c.dtype;
  int32_t ad = cfg->act_dtype >= 0 ? cfg->act_dtype : c.dtype;
  int32_t kd = cfg->kv_dtype >= 0 ? cfg->kv_dtype : rl_model_kv_dtype(&c, cfg->act_dtype);
  /* the other embedding convention at B = 1, to explain the difference */
  rl_infer_cfg other = *cfg;
  other.embedding = cfg->embedding == RL_EMBED_FULL ? RL_EMBED_GATHERED : RL_EMBED_FULL;
  double one = 1;
  rl_decode_row orow;
  if (rl_decode(m, &other, roof, &one, 1, &orow, NULL, NULL) != RL_OK) orow.step_time_s = (double)NAN;
  jw_open(&j, NULL, '{');
  jw_str(&j, "model", c.id);
  jw_str(&j, "hw", hw_id);
  jw_num(&j, "params", s->params);
  jw_num(&j, "active_params", s->active_params);
  jw_num(&j, "weights_bytes", s->weights_bytes);
  jw_num(&j, "weights_read_bytes", s->weights_read_bytes);
  jw_num(&j, "embedding_bytes", s->embedding_bytes);
  jw_str(&j, "embedding", cfg->embedding == RL_EMBED_FULL ? rl_embed_name(RL_EMBED_FULL) : rl_embed_name(RL_EMBED_GATHERED));
  jw_num(&j, "kv_bytes_per_token", s->kv_bytes_per_token);
  jw_num(&j, "kv_bytes_per_seq", s->kv_bytes_per_seq);
  jw_num(&j, "context", cfg->context);
  jw_num(&j, "linear_flops_per_token", s->linear_flops_per_token);
  jw_num(&j, "attention_flops_per_token", s->attention_flops_per_token);
  jw_num(&j, "attention_intensity", s->attention_intensity);
  jw_num(&j, "peak", roof->peak);
  roof_kind(&j, roof);
  jw_bool(&j, "sparse", roof->sparse);
  jw_num(&j, "bandwidth", roof->bandwidth);
  roof_assumptions(&j, roof);
  jw_num(&j, "ridge", s->ridge);
  jw_opt(&j, "ridge_batch", s->ridge_batch > 0, s->ridge_batch);
  jw_opt(&j, "asymptotic_intensity", s->asymptotic_intensity > 0, s->asymptotic_intensity);
  jw_opt(&j, "max_batch", s->max_batch >= 0, s->max_batch);
  jw_opt(&j, "mem_bytes", s->mem_bytes > 0, s->mem_bytes);
  jw_bool(&j, "weights_fit", s->weights_fit);
  jw_num(&j, "devices_needed", s->devices_needed);
  jw_opt(&j, "tp_needed", s->tp_needed > 0, s->tp_needed);
  jw_opt(&j, "ep_needed", s->ep_needed > 0, s->ep_needed);
  jw_num(&j, "tp", s->tp);
  jw_str(&j, "weight_dtype", rl_dtype_name(wd));
  jw_str(&j, "kv_dtype", rl_dtype_name(kd));
  jw_str(&j, "dtype", rl_dtype_name(ad));
  jw_num(&j, "other_embedding_step_time_s", orow.step_time_s);
  jw_num(&j, "activation_flops_per_token", s->activation_flops_per_token);
  jw_bool(&j, "quantized", s->quantized);
  if (s->group_size > 0) jw_num(&j, "group_size", s->group_size);
  else jw_str(&j, "group_size", s->group_size < 0 ? "channel" : "none");
  jw_bool(&j, "quantize_all", cfg->quantize_all);
  jw_num(&j, "scale_bytes", s->scale_bytes);
  jw_num(&j, "kept_bytes", s->kept_bytes);
  jw_str(&j, "kept_dtype", rl_dtype_name(s->kept_dtype));
  jw_str(&j, "expert_weights", s->expert_weights ? rl_wfmt_name(s->expert_weights) : NULL);
  jw_num(&j, "expert_bytes", s->expert_bytes);
  par_members(&j, m, cfg);
  jw_open(&j, "rows", '[');
  for (int32_t i = 0; i < n; i++) {
    const rl_decode_row *r = &rows[i];
    jw_open(&j, NULL, '{');
    jw_num(&j, "batch", r->batch);
    jw_num(&j, "step_time_s", r->step_time_s);
    jw_num(&j, "tokens_per_s", r->tokens_per_s);
    jw_num(&j, "tokens_per_s_per_seq", r->tokens_per_s_per_seq);
    jw_num(&j, "intensity", r->intensity);
    jw_str(&j, "bound", rl_bound_name(r->bound));
    jw_num(&j, "memory_bytes", r->memory_bytes);
    jw_bool_opt(&j, "fits", s->mem_bytes > 0, r->fits);
    jw_opt(&j, "tp_fit", r->tp_fit > 0, r->tp_fit);
    jw_opt(&j, "ep_fit", r->ep_fit > 0, r->ep_fit);
    jw_num(&j, "flops", r->flops);
    jw_num(&j, "bytes", r->bytes);
    jw_num(&j, "weight_bytes", r->weight_bytes);
    jw_num(&j, "kv_bytes", r->kv_bytes);
    jw_num(&j, "compute_time_s", r->compute_time_s);
    jw_num(&j, "memory_time_s", r->memory_time_s);
    jw_num(&j, "comm_time_s", r->comm_time_s);
    jw_num(&j, "microbatches", r->microbatches);
    jw_num(&j, "stage_time_max_s", r->stage_time_max_s);
    jw_num(&j, "p2p_time_s", r->p2p_time_s);
    jw_num(&j, "a2a_time_s", r->a2a_time_s);
    jw_close(&j, '}');
  }
  jw_close(&j, ']');
  if (n_ops > 0) {
    double total = 0;
    for (int32_t i = 0; i < n_ops; i++) total += ops[i].time_s;
    jw_num(&j, "ops_time_s", total);
    op_rows(&j, ops, n_ops, total);
  }
  jw_close(&j, '}');
  return jw_end(&j);
}

size_t rl_prefill_json(const rl_model *m, const rl_infer_cfg *cfg, const rl_roof *roof,
                       const char *hw_id, const rl_prefill_op *ops, const rl_prefill_result *r,
                       char *buf, size_t cap) {
  jw j;
  jw_init(&j, buf, cap);
  if (!m || !cfg || !roof || !r || (r->n_ops > 0 && !ops)) return jw_end(&j);
  rl_model c = checked(m);
  jw_open(&j, NULL, '{');
  jw_str(&j, "model", c.id);
  jw_str(&j, "hw", hw_id);
  jw_num(&j, "prompt", cfg->context);
  jw_num(&j, "batch", cfg->batch > 0 ? cfg->batch : 1);
  jw_num(&j, "tokens", r->tokens);
  jw_bool(&j, "causal", cfg->causal);
  jw_str(&j, "attention_impl",
         rl_attn_impl_name(cfg->attention_impl == RL_ATTN_IMPL_NAIVE ? RL_ATTN_IMPL_NAIVE : RL_ATTN_IMPL_FUSED));
  jw_num(&j, "flops", r->flops);
  jw_num(&j, "bytes", r->bytes);
  jw_num(&j, "intensity", r->flops / r->bytes);
  jw_num(&j, "ttft_s", r->ttft_s);
  jw_num(&j, "compute_time_s", r->compute_time_s);
  jw_num(&j, "comm_time_s", r->comm_time_s);
  jw_num(&j, "compute_bound_fraction", r->compute_bound_fraction);
  jw_num(&j, "tokens_per_s", r->tokens_per_s);
  jw_num(&j, "new_tokens", cfg->new_tokens);
  jw_num(&j, "decode_time_s", r->decode_time_s);
  jw_num(&j, "e2e_time_s", r->e2e_time_s);
  jw_num(&j, "memory_bytes", r->memory_bytes);
  jw_bool_opt(&j, "fits", r->mem_bytes > 0, r->fits);
  jw_num(&j, "weights_bytes", r->weights_bytes);
  jw_opt(&j, "mem_bytes", r->mem_bytes > 0, r->mem_bytes);
  jw_num(&j, "peak", roof->peak);
  jw_num(&j, "bandwidth", roof->bandwidth);
  roof_assumptions(&j, roof);
  jw_num(&j, "tp", cfg->tp > 1 ? cfg->tp : 1);
  par_members(&j, m, cfg);
  jw_num(&j, "microbatches", r->microbatches);
  jw_num(&j, "bubble_fraction", r->bubble_fraction);
  jw_num(&j, "stage_time_max_s", r->stage_time_max_s);
  jw_num(&j, "p2p_time_s", r->p2p_time_s);
  jw_num(&j, "a2a_time_s", r->a2a_time_s);
  /* shares of the time to first token; with pipeline stages (which overlap)
   * of the ops' sum */
  double whole = r->ttft_s;
  if (r->pp > 1) {
    whole = 0;
    for (int32_t i = 0; i < r->n_ops; i++) whole += ops[i].time_s;
  }
  op_rows(&j, ops, r->n_ops, whole);
  jw_close(&j, '}');
  return jw_end(&j);
}

/* ---- MFU ----------------------------------------------------------------------- */

size_t rl_mfu_json(const rl_model *m, const rl_mfu_cfg *cfg, const char *hw_id,
                   const rl_mfu_result *r, char *buf, size_t cap) {
  jw j;
  jw_init(&j, buf, cap);
  if (!m || !cfg || !r) return jw_end(&j);
  rl_model c = checked(m);
  rl_mfu_convention conv[RL_MFU_CONVENTIONS];
  int32_t nc = 0;
  if (rl_mfu_conventions(m, cfg, conv, RL_MFU_CONVENTIONS, &nc, NULL) != RL_OK) nc = 0;
  if (nc > RL_MFU_CONVENTIONS) nc = RL_MFU_CONVENTIONS;
  double lo = (double)NAN, hi = (double)NAN;
  for (int32_t i = 0; i < nc; i++) {
    if (i == 0 || conv[i].value < lo) lo = conv[i].value;
    if (i == 0 || conv[i].value > hi) hi = conv[i].value;
  }
  jw_open(&j, NULL, '{');
  jw_str(&j, "model", c.id);
  jw_str(&j, "hw", hw_id);
  jw_num(&j, "mfu", r->mfu);
  jw_num(&j, "hfu", r->hfu);
  /* above 1 contradicts the model: more FLOP/s than the peak */
  jw_bool(&j, "above_peak", r->mfu > 1 || r->hfu > 1);
  jw_num(&j, "model_flops_per_token", r->model_flops_per_token);
  jw_num(&j, "hardware_flops_per_token", r->hardware_flops_per_token);
  jw_num(&j, "attention_flops_per_token", r->attention_flops_per_token);
  jw_num(&j, "recompute_flops_per_token", r->recompute_flops_per_token);
  jw_num(&j, "peak", r->peak);
  jw_bool(&j, "sparse", r->sparse);
  jw_num(&j, "dense_peak", cfg->peak);
  jw_num(&j, "params", r->n_params);
  jw_num(&j, "tokens_per_s", cfg->tokens_per_s);
  jw_num(&j, "useful_tokens_per_s", r->useful_tokens_per_s);
  jw_num(&j, "padding", cfg->padding);
  jw_num(&j, "gpus", cfg->gpus);
  jw_num(&j, "seq", cfg->seq);
  jw_str(&j, "attention", attn_name(cfg->attention));
  jw_str(&j, "recompute", rec_name(cfg->recompute));
  jw_num(&j, "model_flops_per_s_per_gpu", r->model_flops_per_s);
  jw_num(&j, "conventions_min", lo);
  jw_num(&j, "conventions_max", hi);
  jw_open(&j, "conventions", '[');
  for (int32_t i = 0; i < nc; i++) {
    jw_open(&j, NULL, '{');
    jw_str(&j, "label", conv[i].label);
    jw_str(&j, "metric", conv[i].metric);
    jw_num(&j, "value", conv[i].value);
    jw_num(&j, "flops_per_token", conv[i].flops_per_token);
    jw_str(&j, "attention", attn_name(conv[i].attention));
    jw_str(&j, "recompute", rec_name(conv[i].recompute));
    jw_bool(&j, "sparse", conv[i].sparse);
    jw_bool(&j, "padded", conv[i].padded);
    jw_close(&j, '}');
  }
  jw_close(&j, ']');
  jw_close(&j, '}');
  return jw_end(&j);
}

/* ---- collectives ------------------------------------------------------------------ */

size_t rl_collective_json(const rl_coll_cfg *cfg, const rl_coll_result *r, char *buf, size_t cap) {
  jw j;
  jw_init(&j, buf, cap);
  if (!cfg || !r) return jw_end(&j);
  jw_open(&j, NULL, '{');
  jw_str(&j, "collective", rl_coll_name(cfg->kind));
  jw_num(&j, "bytes", cfg->bytes);
  jw_num(&j, "ranks", cfg->ranks);
  jw_num(&j, "factor", r->factor);
  jw_num(&j, "time_s", r->time_s);
  jw_num(&j, "bytes_per_rank", r->bytes_per_rank);
  jw_num(&j, "busbw", r->busbw);
  jw_num(&j, "algbw", r->algbw);
  jw_num(&j, "busbw_given", cfg->busbw);
  jw_num(&j, "bandwidth_time_s", r->bandwidth_time_s);
  jw_num(&j, "latency_time_s", r->latency_time_s);
  if (cfg->ranks_per_node > 0 && cfg->ranks_per_node < cfg->ranks) {
    jw_num(&j, "intra_time_s", r->intra_time_s);
    jw_num(&j, "inter_time_s", r->inter_time_s);
  }
  if (cfg->step_time_s > 0) {
    jw_num(&j, "step_time_s", cfg->step_time_s);
    jw_num(&j, "step_fraction", r->step_fraction);
    jw_num(&j, "step_fraction_added", r->step_fraction_added);
    if (cfg->kind == RL_COLL_ALLREDUCE) {
      jw_num(&j, "ddp_exposed_s", r->ddp_exposed_s);
      jw_num(&j, "ddp_fraction", r->ddp_fraction);
      jw_num(&j, "fsdp_time_s", r->fsdp_time_s);
      jw_num(&j, "fsdp_fraction", r->fsdp_fraction);
    }
  }
  jw_close(&j, '}');
  return jw_end(&j);
}

/* ---- the planner ------------------------------------------------------------------- */

size_t rl_plan_json(const rl_model *m, const rl_plan_cfg *plan, const char *hw_id, const rl_roof *roof,
                    const rl_plan_row *rows, int32_t n, char *buf, size_t cap) {
  jw j;
  jw_init(&j, buf, cap);
  if (!m || !plan || !roof || (n > 0 && !rows)) return jw_end(&j);
  rl_model c = checked(m);
  jw_open(&j, NULL, '{');
  jw_str(&j, "model", c.id);
  jw_str(&j, "hw", hw_id);
  jw_num(&j, "prompt", plan->prompt);
  jw_num(&j, "gen", plan->gen);
  jw_opt(&j, "ttft_target_s", plan->ttft_s > 0, plan->ttft_s);
  jw_opt(&j, "tpot_target_s", plan->tpot_s > 0, plan->tpot_s);
  jw_num(&j, "gpus", plan->gpus);
  int cb = plan->batching == RL_BATCHING_CONTINUOUS;
  if (cb) {
    /* continuous batching's terms (static batches print none: the record
     * stays as it was) */
    jw_str(&j, "batching", rl_batching_name(plan->batching));
    jw_num(&j, "chunk", plan->chunk > 0 ? plan->chunk : RL_PLAN_CHUNK);
    jw_num(&j, "mem_fraction", plan->mem_fraction > 0 ? plan->mem_fraction : RL_PLAN_MEM_FRACTION);
    jw_num(&j, "block_size", plan->block_size > 0 ? plan->block_size : RL_PLAN_BLOCK);
    jw_num(&j, "reserve_bytes", plan->reserve_bytes);
  }
  jw_num(&j, "peak", roof->peak);
  jw_num(&j, "bandwidth", roof->bandwidth);
  roof_assumptions(&j, roof);
  jw_open(&j, "rows", '[');
  for (int32_t i = 0; i < n; i++) {
    const rl_plan_row *r = &rows[i];
    jw_open(&j, NULL, '{');
    jw_num(&j, "batch", r->batch);
    jw_num(&j, "tp", r->tp);
    jw_num(&j, "pp", r->pp);
    jw_num(&j, "ep", r->ep > 1 ? r->ep : 1);
    jw_opt(&j, "microbatches", r->batch > 0, r->microbatches);
    jw_str(&j, "weight_dtype", rl_dtype_name(r->weight_dtype));
    jw_str(&j, "kv_dtype", rl_dtype_name(r->kv_dtype));
    jw_opt(&j, "ttft_s", r->ttft_s > 0, r->ttft_s);
    jw_opt(&j, "tpot_s", r->tpot_s > 0, r->tpot_s);
    jw_opt(&j, "e2e_s", r->batch > 0, r->e2e_s);
    jw_num(&j, "replicas", r->replicas);
    jw_num(&j, "tokens_per_s", r->tokens_per_s);
    jw_num(&j, "tokens_per_s_per_device", r->tokens_per_s_per_device);
    jw_num(&j, "memory_bytes", r->memory_bytes);
    jw_str(&j, "limit", rl_plan_limit_name(r->limit));
    jw_str(&j, "bound", r->batch > 0 || r->tpot_s > 0 ? rl_bound_name(r->bound) : NULL);
    if (cb) {
      jw_num(&j, "requests_per_s", r->requests_per_s);
      jw_opt(&j, "prefill_tokens_per_step", r->batch > 0, r->prefill_tokens_per_step);
      jw_num(&j, "kv_bytes", r->kv_bytes);
      jw_num(&j, "activation_bytes", r->activation_bytes);
    }
    jw_close(&j, '}');
  }
  jw_close(&j, ']');
  jw_close(&j, '}');
  return jw_end(&j);
}
