/*
 * model.c -- decoder-only Transformer configurations: the built-in table
 * (data/models.csv, compiled by tools/gen_tables.py into model_table.inc),
 * Hugging Face config.json reading, and the parameter count.
 *
 * Exports rl_model_init, rl_model_count, rl_model_get, rl_model_find,
 * rl_model_from_hf_config, rl_model_check, rl_model_params and
 * rl_model_kv_bytes_per_token.
 *
 * The parameter count, per layer unless said otherwise (d = d_model,
 * H and H_kv query and key/value heads of width d_h, d_ff the MLP width):
 *   attention   d H d_h + 2 d H_kv d_h + H d_h d   (Q, K, V, O; GQA
 *               shares K and V: Ainslie et al. 2023), + (H + 2H_kv) d_h + d
 *               biases when the model has them
 *   MLP         3 d d_ff gated (SwiGLU: Shazeer 2020; Llama), 2 d d_ff plain
 *               (+ d_ff + d biases); an MoE layer has `experts` such MLPs and
 *               a d x experts router, a token uses `experts_active` of them
 *               (Mixtral: Jiang et al. 2024)
 *   norms       2 per layer and 1 final: d (RMSNorm) or 2d (LayerNorm)
 *   embedding   vocab d once (+ max_seq d learned positions: GPT-2/3)
 *   output      vocab d, unless tied to the embedding
 * It reproduces the published counts (Llama 3 8B 8,030,261,248; GPT-2
 * 124,439,808; PaLM 540B 540.36e9 vs 540.35e9 in its Table 1);
 * tests/unit/test_llm.c checks every built-in row.
 *
 * KV cache per token (Pope et al. 2022, §2): 2 x L x H_kv x d_h x bytes.
 */
#include "core/internal.h"
#include "core/json.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

static const rl_model builtin[] = {
#include "core/model_table.inc"
};
#define N_BUILTIN ((int32_t)(sizeof builtin / sizeof builtin[0]))

/* The MLP activation's FLOPs per element of d_ff: the element-wise
 * function's count as src/core/ops.c costs it (SiLU 4, GELU tanh form 9,
 * erf form 5, ReLU 1; the conventions stated there), + 1 multiply by up in
 * a gated MLP (GLU variants, Shazeer 2020). */
static int act_kind(const rl_model *m) {
  return m->act != RL_ACT_DEFAULT ? m->act : m->mlp == RL_MLP_GATED ? RL_ACT_SILU : RL_ACT_GELU_TANH;
}

const char *rl_model_act_name(const rl_model *m) {
  if (!m) return NULL;
  int gated = m->mlp == RL_MLP_GATED;
  switch (act_kind(m)) {
  case RL_ACT_SILU: return gated ? "SiLU x up" : "SiLU";
  case RL_ACT_GELU_TANH: return gated ? "GELU x up" : "GELU";
  case RL_ACT_GELU_ERF: return gated ? "GELU (erf) x up" : "GELU (erf)";
  case RL_ACT_RELU: return gated ? "ReLU x up" : "ReLU";
  default: return NULL;
  }
}

double rl_model_act_flops(const rl_model *m) {
  if (!m) return 0;
  static const rl_op_kind ops[] = {[RL_ACT_SILU] = RL_OP_SILU, [RL_ACT_GELU_TANH] = RL_OP_GELU_TANH,
                                   [RL_ACT_GELU_ERF] = RL_OP_GELU_ERF, [RL_ACT_RELU] = RL_OP_RELU};
  int k = act_kind(m);
  if (k < RL_ACT_SILU || k > RL_ACT_RELU) return 0;
  rl_op op = rl_op_init((int32_t)ops[k], RL_FP32);
  op.n = 1;
  rl_cost c;
  if (rl_op_cost(&op, &c, NULL) != RL_OK) return 0;
  return c.flops + (m->mlp == RL_MLP_GATED ? 1 : 0);
}

rl_model rl_model_init(void) {
  rl_model m;
  memset(&m, 0, sizeof m);
  m.mlp = RL_MLP_GATED;
  m.norm = RL_NORM_RMS;
  m.dtype = RL_BF16;
  return m;
}

int32_t rl_model_count(void) { return N_BUILTIN; }

rl_status rl_model_get(int32_t index, rl_model *out) {
  if (index < 0 || index >= N_BUILTIN || !out) return RL_EINVAL;
  *out = builtin[index];
  return RL_OK;
}

rl_status rl_model_find(const char *id, rl_model *out, rl_error *err) {
  if (!id || !*id) return rli_fail(err, RL_EINVAL, "empty model id");
  for (int32_t i = 0; i < N_BUILTIN; i++)
    if (rli_strcasecmp(builtin[i].id, id) == 0) { *out = builtin[i]; return RL_OK; }
  /* a Hugging Face id among the aliases, whole and case-insensitively */
  size_t idlen = strlen(id);
  for (int32_t i = 0; i < N_BUILTIN; i++)
    for (const char *a = builtin[i].aliases; *a;) {
      size_t n = strcspn(a, " ");
      if (n == idlen && rli_strncasecmp(a, id, n) == 0) { *out = builtin[i]; return RL_OK; }
      a += n;
      while (*a == ' ') a++;
    }
  if (strchr(id, '/'))
    return rli_fail(err, RL_ENOTFOUND,
                    "'%s' looks like a Hugging Face id; it is not built in (roofline model list) and not a "
                    "local path: download its config.json (https://huggingface.co/%s/blob/main/config.json) "
                    "and give `model` FILE or the folder that holds it", id, id);
  int32_t found = -1, nfound = 0;
  char names[200];
  names[0] = 0;
  for (int32_t i = 0; i < N_BUILTIN; i++)
    if (rli_contains_ci(builtin[i].id, id)) {
      if (strlen(names) + strlen(builtin[i].id) + 3 < sizeof names) {
        if (nfound) strcat(names, ", ");
        strcat(names, builtin[i].id);
      }
      found = i;
      nfound++;
    }
  if (nfound == 1) { *out = builtin[found]; return RL_OK; }
  if (nfound > 1) return rli_fail(err, RL_EAMBIGUOUS, "model '%s' is ambiguous: %s", id, names);
  rli_nearest near;
  rli_nearest_init(&near);
  for (int32_t i = 0; i < N_BUILTIN; i++) rli_nearest_add(&near, i, rli_edit_distance(builtin[i].id, id));
  names[0] = 0;
  for (int k = 0; k < 3 && near.idx[k] >= 0; k++) {
    if (k) strcat(names, ", ");
    strcat(names, builtin[near.idx[k]].id);
  }
  return rli_fail(err, RL_ENOTFOUND,
                  "unknown model '%s'; nearest: %s (see `roofline model list`, or give a config.json path)",
                  id, names);
}

/* ---- checks ------------------------------------------------------------ */

/* x must be a whole number >= lo (0 or 1), finite and not absurd. */
/* A whole number >= lo (0: not given, where lo is 0) in the plausible range
 * of a model's dimension, or of a context for max_seq and window (ranges.c). */
static rl_status whole(double x, double lo, const char *what, rl_error *err) {
  if (x > 0 && isfinite(x)) {
    char w[48];
    snprintf(w, sizeof w, "model %s", what);
    int ctx = strcmp(what, "max_seq") == 0 || strcmp(what, "window") == 0;
    TRY(rl_range_check(ctx ? RL_QTY_CONTEXT : RL_QTY_DIM, x, w, err));
  }
  if (!isfinite(x) || x < lo || x != floor(x))
    return rli_fail(err, RL_EINVAL, "model %s must be a whole number >= %g (got %g)", what, lo, x);
  return RL_OK;
}


rl_status rl_model_check(const rl_model *m, rl_model *out, rl_error *err) {
  if (!m || !out) return rli_fail(err, RL_EINVAL, "no model");
  rl_model c = *m;
  c.id[RL_MODEL_ID_MAX - 1] = 0;
  c.name[RL_MODEL_TEXT_MAX - 1] = 0;
  c.source[RL_MODEL_SOURCE_MAX - 1] = 0;
  if (!(c.layers > 0)) return rli_fail(err, RL_EINVAL, "the model names no layers (give the number of layers)");
  TRY(whole(c.layers, 1, "layers", err));
  if (!(c.heads > 0)) return rli_fail(err, RL_EINVAL, "the model names no attention heads (give the number of heads)");
  TRY(whole(c.heads, 1, "heads", err));
  TRY(whole(c.kv_heads, 0, "kv_heads", err));
  TRY(whole(c.d_model, 0, "d_model", err));
  TRY(whole(c.head_dim, 0, "head_dim", err));
  TRY(whole(c.d_ff, 0, "d_ff", err));
  TRY(whole(c.vocab, 0, "vocab", err));
  TRY(whole(c.max_seq, 0, "max_seq", err));
  TRY(whole(c.experts, 0, "experts", err));
  TRY(whole(c.experts_active, 0, "experts_active", err));
  TRY(whole(c.window, 0, "window", err));
  TRY(whole(c.window_layers, 0, "window_layers", err));
  TRY(whole(c.norms_per_layer, 0, "norms_per_layer", err));
  TRY(whole(c.shared_experts, 0, "shared_experts", err));
  TRY(whole(c.dense_layers, 0, "dense_layers", err));
  TRY(whole(c.dense_d_ff, 0, "dense_d_ff", err));
  TRY(whole(c.q_lora_rank, 0, "q_lora_rank", err));
  TRY(whole(c.kv_lora_rank, 0, "kv_lora_rank", err));
  TRY(whole(c.rope_dim, 0, "rope_dim", err));
  TRY(whole(c.nope_dim, 0, "nope_dim", err));
  TRY(whole(c.v_head_dim, 0, "v_head_dim", err));
  if (c.window_layers > c.layers)
    return rli_fail(err, RL_EINVAL, "window_layers (%g) exceeds layers (%g)", c.window_layers, c.layers);
  if (c.window_layers > 0 && c.window == 0)
    return rli_fail(err, RL_EINVAL, "window_layers given without a window");
  if (c.window > 0 && c.window_layers == 0) c.window_layers = c.layers;
  if (c.norms_per_layer == 0) c.norms_per_layer = 2;
  if (c.kv_lora_rank > 0) {
    if (!(c.nope_dim > 0) || !(c.v_head_dim > 0))
      return rli_fail(err, RL_EINVAL, "multi-head latent attention needs nope_dim and v_head_dim");
    if (c.head_dim == 0) c.head_dim = c.nope_dim + c.rope_dim;
  } else if (c.q_lora_rank > 0 || c.rope_dim > 0 || c.nope_dim > 0 || c.v_head_dim > 0) {
    return rli_fail(err, RL_EINVAL, "q_lora_rank, rope_dim, nope_dim and v_head_dim need kv_lora_rank (latent attention)");
  }
  if (c.kv_heads == 0) c.kv_heads = c.heads;
  if (c.kv_heads > c.heads)
    return rli_fail(err, RL_EINVAL, "kv_heads (%g) exceeds heads (%g)", c.kv_heads, c.heads);
  if (fmod(c.heads, c.kv_heads) != 0)
    return rli_fail(err, RL_EINVAL, "heads (%g) is not a multiple of kv_heads (%g)", c.heads, c.kv_heads);
  if (c.d_model == 0 && c.head_dim == 0)
    return rli_fail(err, RL_EINVAL, "the model needs its width (d_model) or its head_dim");
  if (c.head_dim == 0) {
    if (fmod(c.d_model, c.heads) != 0)
      return rli_fail(err, RL_EINVAL, "d_model (%g) is not a multiple of heads (%g); give head_dim",
                      c.d_model, c.heads);
    c.head_dim = c.d_model / c.heads;
  }
  if (c.d_model == 0) c.d_model = c.heads * c.head_dim;
  if (c.experts == 1) c.experts = 0;
  if (c.experts > 0) {
    if (c.experts_active == 0) c.experts_active = c.experts;
    if (c.experts_active > c.experts)
      return rli_fail(err, RL_EINVAL, "experts_active (%g) exceeds experts (%g)", c.experts_active,
                      c.experts);
    if (c.dense_layers >= c.layers)
      return rli_fail(err, RL_EINVAL, "dense_layers (%g) must be fewer than the layers (%g)", c.dense_layers, c.layers);
  } else if (c.shared_experts > 0 || c.dense_layers > 0) {
    return rli_fail(err, RL_EINVAL, "shared_experts and dense_layers are for a mixture of experts (give experts)");
  } else if (c.experts_active > 1) {
    return rli_fail(err, RL_EINVAL, "experts_active (%g) given for a dense model (no experts)",
                    c.experts_active);
  } else {
    c.experts_active = 0;
  }
  if (c.mlp != RL_MLP_GATED && c.mlp != RL_MLP_PLAIN) return rli_fail(err, RL_EINVAL, "unknown MLP kind %d", (int)c.mlp);
  if (c.act < RL_ACT_DEFAULT || c.act > RL_ACT_RELU) return rli_fail(err, RL_EINVAL, "unknown activation kind %d", (int)c.act);
  if (c.norm != RL_NORM_RMS && c.norm != RL_NORM_LAYER) return rli_fail(err, RL_EINVAL, "unknown norm kind %d", (int)c.norm);
  if (rl_dtype_bytes(c.dtype) <= 0) return rli_fail(err, RL_EINVAL, "unknown model dtype %d", (int)c.dtype);
  if (c.params != 0 && (!isfinite(c.params) || c.params < 1))
    return rli_fail(err, RL_EINVAL, "params must be > 0 (got %g)", c.params);
  if (c.params != 0) TRY(rl_range_check(RL_QTY_PARAMS, c.params, "model params", err)); /* ranges.c */
  if (c.params == 0 && (c.d_ff == 0 || c.vocab == 0))
    return rli_fail(err, RL_EINVAL,
                    "the model gives neither its parameter count nor d_ff and vocab to derive it");
  c.tied_embeddings = c.tied_embeddings != 0;
  if (c.bias != 0 && c.bias != 1 && c.bias != RL_BIAS_QKV)
    return rli_fail(err, RL_EINVAL, "unknown bias kind %d", (int)c.bias);
  c.learned_pos = c.learned_pos != 0;
  if (c.router_bias != 0 && c.router_bias != 1)
    return rli_fail(err, RL_EINVAL, "router_bias must be 0 or 1 (got %d)", (int)c.router_bias);
  if (c.expert_weights < RL_WFMT_DTYPE || c.expert_weights >= RL_WFMT_COUNT)
    return rli_fail(err, RL_EINVAL, "unknown expert weight format %d", (int)c.expert_weights);
  if (c.experts == 0) {
    c.router_bias = 0;
    c.expert_weights = RL_WFMT_DTYPE;
  }
  *out = c;
  return RL_OK;
}

/* One MLP (one expert) of width ff, with its biases. */
static double mlp_one(const rl_model *c, double ff) {
  double d = c->d_model;
  double one = c->mlp == RL_MLP_GATED ? 3 * d * ff : 2 * d * ff;
  if (c->bias == 1) one += (c->mlp == RL_MLP_GATED ? 2 * ff : ff) + d;
  return one;
}

rl_status rl_model_params(const rl_model *m, rl_param_count *out, rl_error *err) {
  rl_model c;
  TRY(rl_model_check(m, &c, err));
  rl_param_count p;
  memset(&p, 0, sizeof p);
  double L = c.layers, d = c.d_model, H = c.heads, Hkv = c.kv_heads, dh = c.head_dim;
  double attn;
  if (c.kv_lora_rank > 0) {
    /* DeepSeek-V2 (DeepSeek-AI 2024) eqs. 37-47: W_DQ, its norm, W_UQ and
     * W_QR; W_DKV and W_KR, the latent's norm, W_UK and W_UV; W_O */
    double dqk = c.nope_dim + c.rope_dim, r = c.kv_lora_rank, rq = c.q_lora_rank;
    double q = rq > 0 ? d * rq + rq + rq * H * dqk : d * H * dqk;
    attn = q + d * (r + c.rope_dim) + r + r * H * (c.nope_dim + c.v_head_dim) + H * c.v_head_dim * d;
  } else {
    attn = d * H * dh + 2 * d * Hkv * dh + H * dh * d;
    if (c.bias) attn += (H + 2 * Hkv) * dh + (c.bias == 1 ? d : 0);
  }
  p.attention = L * attn;
  double norm_one = c.norm == RL_NORM_LAYER ? 2 * d : d;
  p.norms = (c.norms_per_layer * L + 1) * norm_one;
  p.embedding = c.vocab * d + (c.learned_pos ? c.max_seq * d : 0);
  double out_layer = c.vocab * d;
  p.output = c.tied_embeddings ? 0 : out_layer;
  if (c.d_ff > 0) {
    if (c.experts > 0) {
      /* the router: d x E, and with router_bias E more (DeepSeek-V3's
       * e_score_correction_bias, added to the scores to choose experts) */
      double dl = c.dense_layers, ml = L - dl, one = mlp_one(&c, c.d_ff),
             router = d * c.experts + (c.router_bias ? c.experts : 0);
      double dense = dl * mlp_one(&c, c.dense_d_ff > 0 ? c.dense_d_ff : c.d_ff);
      p.mlp = dense + ml * ((c.experts + c.shared_experts) * one + router);
      p.mlp_active = dense + ml * ((c.experts_active + c.shared_experts) * one + router);
    } else {
      p.mlp = p.mlp_active = L * mlp_one(&c, c.d_ff);
    }
  }
  if (c.params > 0) {
    /* given by hand: the count is what it is; the parts known from the
     * sizes (attention, norms) are kept for reference. */
    p.total = p.active = c.params;
    p.embedding = p.output = p.mlp = p.mlp_active = 0;
    p.non_embedding = c.params;
    p.matmul_active = c.params;
    p.derived = 0;
  } else {
    p.total = p.embedding + p.attention + p.mlp + p.norms + p.output;
    p.active = p.embedding + p.attention + p.mlp_active + p.norms + p.output;
    p.non_embedding = p.total - p.embedding;
    /* what a token multiplies: attention, MLP, the output layer (the tied
     * table is multiplied there); not the gathered embedding rows nor the
     * norms' gains */
    p.matmul_active = p.attention + p.mlp_active + out_layer -
                      (c.experts > 0 && c.router_bias ? (L - c.dense_layers) * c.experts : 0);
    p.derived = 1;
  }
  /* dimensions each in range may still multiply to no model (ranges.c) */
  TRY(rl_range_check(RL_QTY_PARAMS, p.total, "the model's parameter count", err));
  *out = p;
  return RL_OK;
}

int32_t rl_model_kv_dtype(const rl_model *m, int32_t act_dtype) {
  if (act_dtype >= 0) return act_dtype;
  if (!m) return RL_BF16;
  return rl_dtype_bytes(m->dtype) < 2 ? RL_BF16 : m->dtype;
}

rl_status rl_model_kv_bytes_per_token(const rl_model *m, int32_t kv_dtype, double *out,
                                      rl_error *err) {
  rl_model c;
  TRY(rl_model_check(m, &c, err));
  double s = rl_dtype_bytes(kv_dtype);
  if (s <= 0) return rli_fail(err, RL_EINVAL, "unknown KV-cache dtype %d", (int)kv_dtype);
  *out = c.kv_lora_rank > 0 ? c.layers * (c.kv_lora_rank + c.rope_dim) * s
                            : 2 * c.layers * c.kv_heads * c.head_dim * s;
  return RL_OK;
}

/* ---- Hugging Face config.json -------------------------------------------- */

/* The first of several keys that is present (configs of different
 * architectures name the same size differently). */
static const rli_json *get_any(const rli_json *o, const char *const *keys, const char **which) {
  for (; *keys; keys++) {
    const rli_json *j = rli_json_get(o, *keys);
    if (j && j->type != RLI_JSON_NULL) {
      if (which) *which = *keys;
      return j;
    }
  }
  return NULL;
}

/* A size: a whole number >= 0; absent leaves *out alone. */
static rl_status get_size(const rli_json *o, const char *const *keys, double *out, rl_error *err) {
  const char *k = NULL;
  const rli_json *j = get_any(o, keys, &k);
  if (!j) return RL_OK;
  if (j->type == RLI_JSON_NUM && j->num > 1e15)
    return rli_fail(err, RL_ERANGE, "config.json: %s is too large (got %g; at most 1e15)", k, j->num);
  if (j->type != RLI_JSON_NUM || !isfinite(j->num) || j->num < 0 || j->num != floor(j->num))
    return rli_fail(err, RL_EINVAL, "config.json: %s must be a whole number >= 0", k);
  *out = j->num;
  return RL_OK;
}

static const char *get_str(const rli_json *o, const char *key) {
  const rli_json *j = rli_json_get(o, key);
  return j && j->type == RLI_JSON_STR ? j->str : NULL;
}

static int in_list(const char *s, const char *const *list) {
  if (!s) return 0;
  for (; *list; list++)
    if (rli_strcasecmp(s, *list) == 0) return 1;
  return 0;
}

/* rl_model_from_hf_config, the sizes: layers, width, heads, MLP, vocabulary,
 * experts, under each family's key; latent attention, shared experts and
 * dense first layers (DeepSeek-V2/V3); the sliding window's size in *win. */
static rl_status hf_sizes(const rli_json *o, rl_model *mp, double *win_out, rl_error *err) {
  rl_model m = *mp;
  rl_status st;
  static const char *const k_layers[] = {"num_hidden_layers", "n_layer", "num_layers", "n_layers", NULL};
  static const char *const k_d[] = {"hidden_size", "n_embd", "d_model", "dim", NULL};
  static const char *const k_heads[] = {"num_attention_heads", "n_head", "num_heads", "n_heads", NULL};
  static const char *const k_kv[] = {"num_key_value_heads", "num_kv_heads", "n_kv_heads", "multi_query_group_num", NULL};
  static const char *const k_hd[] = {"head_dim", "kv_channels", NULL};
  static const char *const k_ff[] = {"intermediate_size", "n_inner", "ffn_dim", "ffn_hidden_size", NULL};
  static const char *const k_vocab[] = {"vocab_size", "padded_vocab_size", NULL};
  static const char *const k_seq[] = {"max_position_embeddings", "n_positions", "n_ctx", "seq_length", NULL};
  static const char *const k_exp[] = {"num_local_experts", "num_experts", "n_routed_experts", NULL};
  static const char *const k_expk[] = {"num_experts_per_tok", "num_experts_per_token", "moe_topk", NULL};
  const char *const *size_keys[] = {k_layers, k_d, k_heads, k_kv, k_hd, k_ff, k_vocab, k_seq, k_exp, k_expk};
  double *size_dst[] = {&m.layers, &m.d_model, &m.heads, &m.kv_heads, &m.head_dim,
                        &m.d_ff, &m.vocab, &m.max_seq, &m.experts, &m.experts_active};
  for (size_t i = 0; i < sizeof size_dst / sizeof size_dst[0]; i++) {
    st = get_size(o, size_keys[i], size_dst[i], err);
    if (st != RL_OK) return st;
  }
  /* DeepSeek-V2/V3: latent attention, shared experts, dense first layers */
  static const char *const k_qr[] = {"q_lora_rank", NULL};
  static const char *const k_kvr[] = {"kv_lora_rank", NULL};
  static const char *const k_rope[] = {"qk_rope_head_dim", NULL};
  static const char *const k_nope[] = {"qk_nope_head_dim", NULL};
  static const char *const k_v[] = {"v_head_dim", NULL};
  static const char *const k_shared[] = {"n_shared_experts", NULL};
  static const char *const k_dense[] = {"first_k_dense_replace", NULL};
  static const char *const k_moeff[] = {"moe_intermediate_size", NULL};
  static const char *const k_win[] = {"sliding_window", NULL};
  double moe_ff = 0, win = 0;
  const char *const *more_keys[] = {k_qr, k_kvr, k_rope, k_nope, k_v, k_shared, k_dense, k_moeff, k_win};
  double *more_dst[] = {&m.q_lora_rank, &m.kv_lora_rank, &m.rope_dim, &m.nope_dim, &m.v_head_dim,
                        &m.shared_experts, &m.dense_layers, &moe_ff, &win};
  for (size_t i = 0; i < sizeof more_dst / sizeof more_dst[0]; i++) {
    st = get_size(o, more_keys[i], more_dst[i], err);
    if (st != RL_OK) return st;
  }
  if (m.kv_lora_rank > 0) {
    m.head_dim = m.nope_dim + m.rope_dim;
    if (m.kv_heads == 0 || m.kv_heads > m.heads) m.kv_heads = m.heads;
  } else {
    m.q_lora_rank = m.rope_dim = m.nope_dim = m.v_head_dim = 0;
  }
  if (m.experts > 1 && moe_ff > 0) {
    m.dense_d_ff = m.d_ff; /* intermediate_size: the dense layers' */
    m.d_ff = moe_ff;
  }
  if (m.experts <= 1) m.shared_experts = m.dense_layers = 0;
  *mp = m;
  *win_out = win;
  return RL_OK;
}

/* The architecture: sliding windows, multi-query, the MLP's kind and
 * activation, the norm, biases, learned positions, tied embeddings. */
static void hf_shape(const rli_json *o, const rli_json *root, double win, rl_model *mp) {
  rl_model m = *mp;
  /* sliding windows: Mistral (every layer), Gemma 2 (every other layer);
   * Qwen2 names one but turns it off (use_sliding_window false) */
  const rli_json *usw = rli_json_get(o, "use_sliding_window");
  if (usw && usw->type == RLI_JSON_BOOL && !usw->boolean) win = 0;
  const char *mtype = get_str(o, "model_type");
  int gemma2 = mtype && (rli_strcasecmp(mtype, "gemma2") == 0 || rli_strcasecmp(mtype, "gemma3_text") == 0);
  if (win > 0 && (m.max_seq == 0 || win < m.max_seq)) {
    m.window = win;
    m.window_layers = gemma2 ? ceil(m.layers / 2) : m.layers;
  }
  if (gemma2) m.norms_per_layer = 4; /* pre- and post-norms around attention and MLP */
  const rli_json *mq = rli_json_get(o, "multi_query");
  if (mq && mq->type == RLI_JSON_BOOL && mq->boolean) m.kv_heads = 1;

  const char *type = get_str(o, "model_type");
  const char *act = get_str(o, "hidden_act");
  if (!act) act = get_str(o, "activation_function");
  static const char *const plain_types[] = {"gpt2", "gpt_neox", "gptj", "gpt_bigcode", "opt", "bloom",
                                            "falcon", "bert", "phi", "mpt", "codegen", NULL};
  static const char *const plain_acts[] = {"gelu", "gelu_new", "gelu_fast", "gelu_pytorch_tanh", "relu",
                                           "quick_gelu", NULL};
  int plain = in_list(type, plain_types) || (!type && in_list(act, plain_acts));
  m.mlp = plain ? RL_MLP_PLAIN : RL_MLP_GATED;
  /* the activation: Gemma 2 names it hidden_activation (gelu_pytorch_tanh);
   * Hugging Face's "gelu" is the erf form, gelu_new/gelu_fast/
   * gelu_pytorch_tanh the tanh form (transformers/activations.py) */
  const char *ha = get_str(o, "hidden_activation");
  if (ha) act = ha;
  static const char *const tanh_acts[] = {"gelu_new", "gelu_fast", "gelu_pytorch_tanh", "gelu_tanh", NULL};
  static const char *const silu_acts[] = {"silu", "swish", NULL};
  if (in_list(act, silu_acts)) m.act = RL_ACT_SILU;
  else if (in_list(act, tanh_acts)) m.act = RL_ACT_GELU_TANH;
  else if (act && rli_strcasecmp(act, "gelu") == 0) m.act = RL_ACT_GELU_ERF;
  else if (act && rli_strcasecmp(act, "relu") == 0) m.act = RL_ACT_RELU;
  /* LayerNorm for the GPT-2-like families (layer_norm_epsilon), RMSNorm
   * for Llama-like ones (rms_norm_eps). */
  m.norm = (rli_json_get(o, "rms_norm_eps") || !plain) ? RL_NORM_RMS : RL_NORM_LAYER;
  if (rli_json_get(o, "layer_norm_epsilon") && !rli_json_get(o, "rms_norm_eps") && plain)
    m.norm = RL_NORM_LAYER;
  if (plain && m.d_ff == 0 && m.d_model > 0) m.d_ff = 4 * m.d_model; /* GPT-2: n_inner null = 4d */
  m.bias = type && (rli_strcasecmp(type, "gpt2") == 0 || rli_strcasecmp(type, "gpt_neox") == 0 ||
                    rli_strcasecmp(type, "opt") == 0 || rli_strcasecmp(type, "gptj") == 0);
  const rli_json *ab = rli_json_get(o, "attention_bias");
  if (ab && ab->type == RLI_JSON_BOOL) m.bias = ab->boolean;
  if (type && rli_strcasecmp(type, "qwen2") == 0) m.bias = RL_BIAS_QKV; /* Qwen2: q, k, v biases */
  m.learned_pos = type && (rli_strcasecmp(type, "gpt2") == 0 || rli_strcasecmp(type, "opt") == 0 ||
                           rli_strcasecmp(type, "gpt_bigcode") == 0);
  /* Hugging Face's default is tied (PretrainedConfig); Llama-family
   * configs say false explicitly. */
  m.tied_embeddings = 1;
  const rli_json *tie = rli_json_get(o, "tie_word_embeddings");
  if (!tie) tie = rli_json_get(root, "tie_word_embeddings");
  if (tie && tie->type == RLI_JSON_BOOL) m.tied_embeddings = tie->boolean;
  *mp = m;
}

/* The format, id, name and source. */
static void hf_names(const rli_json *o, const rli_json *root, const char *id, rl_model *mp) {
  rl_model m = *mp;
  const char *type = get_str(o, "model_type");
  const char *dt = get_str(o, "torch_dtype");
  if (!dt) dt = get_str(o, "dtype");
  if (!dt) dt = get_str(root, "torch_dtype");
  if (dt) {
    int32_t v;
    if (rl_dtype_parse(dt, &v, NULL) == RL_OK) m.dtype = v;
  }
  /* an FP8 checkpoint (DeepSeek-V3; transformers' FineGrainedFP8Config and
   * FbgemmFp8Config: quant_method "fp8", "fbgemm_fp8") stores its weights
   * in fp8; torch_dtype is then the activations' format, which the KV
   * cache defaults to (rl_model_kv_dtype: bf16 for a narrower dtype) */
  const rli_json *qc = rli_json_get(o, "quantization_config");
  if (!qc) qc = rli_json_get(root, "quantization_config");
  const char *qm = qc && qc->type == RLI_JSON_OBJ ? get_str(qc, "quant_method") : NULL;
  if (qm && (rli_strcasecmp(qm, "fp8") == 0 || rli_strcasecmp(qm, "fbgemm_fp8") == 0)) m.dtype = RL_FP8;
  /* gpt-oss (transformers' Mxfp4Config: quant_method "mxfp4") stores its
   * MoE experts in MXFP4 and leaves the modules_to_not_convert (attention,
   * router, embedding, output layer) in torch_dtype */
  int32_t wf;
  if (qm && m.experts > 1 && rl_wfmt_parse(qm, &wf, NULL) == RL_OK) m.expert_weights = wf;
  /* DeepSeek-V3's routers add e_score_correction_bias (one per expert) to
   * the scores they choose by (topk_method noaux_tc, modeling_deepseek.py) */
  const char *topk = get_str(o, "topk_method");
  m.router_bias = topk && rli_strcasecmp(topk, "noaux_tc") == 0 && m.experts > 1;
  rli_strlcpy(m.id, id ? id : (type ? type : "config.json"), sizeof m.id);
  const rli_json *arch = rli_json_get(root, "architectures");
  if (arch && arch->type == RLI_JSON_ARR && arch->n > 0 && arch->kids[0].type == RLI_JSON_STR)
    rli_strlcpy(m.name, arch->kids[0].str, sizeof m.name);
  else
    rli_strlcpy(m.name, type ? type : "model from config.json", sizeof m.name);
  rli_strlcpy(m.source, "Hugging Face config.json", sizeof m.source);
  *mp = m;
}

rl_status rl_model_from_hf_config(const char *text, size_t len, const char *id, rl_model *out,
                                  rl_error *err) {
  if (!text || !out) return rli_fail(err, RL_EINVAL, "no config.json text");
  rli_json *root = NULL;
  rl_error e;
  rl_status st = rli_json_parse(text, len, &root, &e);
  if (st != RL_OK) {
    if (st == RL_ETRUNCATED)
      return rli_fail(err, st, "config.json is truncated (%s)", e.msg);
    return rli_fail(err, st, "config.json is not valid JSON: %s", e.msg);
  }
  rl_model m = rl_model_init();
  const rli_json *o = root;
  if (o->type != RLI_JSON_OBJ) {
    rli_json_free(root);
    return rli_fail(err, RL_EINVAL, "config.json is not a JSON object");
  }
  /* Multimodal wrappers keep the language model under text_config. */
  const rli_json *tc = rli_json_get(o, "text_config");
  if (tc && tc->type == RLI_JSON_OBJ && !rli_json_get(o, "num_hidden_layers")) o = tc;

  double win = 0;
  st = hf_sizes(o, &m, &win, err);
  if (st != RL_OK) { rli_json_free(root); return st; }
  hf_shape(o, root, win, &m);
  hf_names(o, root, id, &m);
  rli_json_free(root);
  if (m.layers == 0) return rli_fail(err, RL_EINVAL, "config.json names no layers (num_hidden_layers or n_layer)");
  if (m.heads == 0) return rli_fail(err, RL_EINVAL, "config.json names no attention heads (num_attention_heads or n_head)");
  if (m.d_model == 0) return rli_fail(err, RL_EINVAL, "config.json names no width (hidden_size or n_embd)");
  if (m.vocab == 0) return rli_fail(err, RL_EINVAL, "config.json names no vocabulary (vocab_size)");
  if (m.d_ff == 0) return rli_fail(err, RL_EINVAL, "config.json names no MLP width (intermediate_size)");
  rl_model c;
  TRY(rl_model_check(&m, &c, err));
  *out = m;
  return RL_OK;
}
