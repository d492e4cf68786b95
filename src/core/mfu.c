/*
 * mfu.c -- model FLOPs utilization (MFU) and hardware FLOPs utilization
 * (HFU) of a training run, under every counting convention.
 *
 * Exports rl_mfu_cfg_init, rl_mfu and rl_mfu_conventions.
 *
 *   MFU = tokens/s x (6N + 12 L H d_h T) / (gpus x peak)
 * (Chowdhery et al. 2022, "PaLM", §4.1 and Appendix B: 6N for the matmuls
 * of the forward (2N) and backward (4N) passes, 12 L H d_h T for the
 * attention matmuls QK^T and AV over a context of T; often written
 * 12 L d T with d = H d_h.) N is the parameters a token uses (MoE: the
 * active ones), all of them unless the embedding table is excluded.
 *
 * The choices, each a field of rl_mfu_cfg and printed by the CLI:
 *   attention   full 12 L H d_h T; causal half of it (the masked half of the
 *               score matrix is not needed); none 6N only (Kaplan et al. 2020's C = 6N)
 *   HFU         what the chip executed, recomputation included (Korthikanti
 *               et al. 2022, "Reducing Activation Recomputation"):
 *               full recomputation repeats the forward, + 2N + 4 L H d_h T
 *               (x the attention convention's factor), HFU about 4/3 MFU;
 *               selective recomputes only the attention scores, softmax
 *               and AV, + 4 L H d_h T.
 *   peak        the dense tensor peak of the matmuls' format; the 2:4
 *               sparse peak (twice it) only on request, which halves MFU
 *   padding     the fraction of tokens/s that is padding, taken out
 *               (counting it inflates MFU)
 */
#include "core/internal.h"

#include <math.h>
#include <string.h>


rl_mfu_cfg rl_mfu_cfg_init(void) {
  rl_mfu_cfg c;
  memset(&c, 0, sizeof c);
  c.attention = RL_ATTN_FULL;
  c.recompute = RL_RECOMPUTE_NONE;
  return c;
}

static double attn_factor(int32_t a) {
  return a == RL_ATTN_FULL ? 1.0 : a == RL_ATTN_CAUSAL ? 0.5 : 0.0;
}

static rl_status check_cfg(const rl_mfu_cfg *c, rl_error *err) {
  if (!c) return rli_fail(err, RL_EINVAL, "no configuration");
  TRY(rli_check_max(c->seq, 1e12, "sequence length", err));
  TRY(rli_check_max(c->tokens_per_s, 1e18, "tokens per second", err));
  TRY(rli_check_max(c->gpus, 1e9, "the number of GPUs", err));
  TRY(rli_check_max(c->peak, 1e21, "peak", err));
  if (!isfinite(c->seq) || c->seq < 0 || c->seq > 1e12)
    return rli_fail(err, RL_EINVAL, "sequence length must be >= 0 (got %g)", c->seq);
  if (!rli_positive(c->tokens_per_s) || c->tokens_per_s > 1e18)
    return rli_fail(err, RL_EINVAL, "tokens per second must be > 0 (got %g)", c->tokens_per_s);
  if (!rli_positive(c->gpus) || c->gpus != floor(c->gpus) || c->gpus > 1e9)
    return rli_fail(err, RL_EINVAL, "the number of GPUs must be a whole number >= 1 (got %g)", c->gpus);
  if (!rli_positive(c->peak) || c->peak > 1e21)
    return rli_fail(err, RL_EINVAL, "peak must be > 0 FLOP/s (got %g)", c->peak);
  if (!isfinite(c->sparse_peak) || c->sparse_peak < 0)
    return rli_fail(err, RL_EINVAL, "sparse peak must be >= 0");
  if (!isfinite(c->padding) || c->padding < 0 || c->padding >= 1)
    return rli_fail(err, RL_EINVAL, "padding must be a fraction in [0, 1) (got %g)", c->padding);
  if (c->attention < RL_ATTN_FULL || c->attention > RL_ATTN_NONE)
    return rli_fail(err, RL_EINVAL, "unknown attention convention %d", (int)c->attention);
  if (c->recompute < RL_RECOMPUTE_NONE || c->recompute > RL_RECOMPUTE_FULL)
    return rli_fail(err, RL_EINVAL, "unknown recomputation %d", (int)c->recompute);
  if (c->use_sparse && !(c->sparse_peak > 0))
    return rli_fail(err, RL_EUNSUPPORTED, "the device has no sparse peak to divide by");
  return RL_OK;
}

/* The figures for one convention; cfg already checked. */
static void compute(const rl_model *m, const rl_param_count *p, const rl_mfu_cfg *c, double padding,
                    int32_t attention, int32_t recompute, int use_sparse, rl_mfu_result *r) {
  memset(r, 0, sizeof *r);
  double N = p->active;
  if (c->exclude_embedding && p->derived) N -= p->embedding;
  double lhq = m->layers * m->heads * m->head_dim;
  double f = attn_factor(attention);
  r->n_params = N;
  r->attention_flops_per_token = 12 * lhq * c->seq * f;
  r->model_flops_per_token = 6 * N + r->attention_flops_per_token;
  if (recompute == RL_RECOMPUTE_FULL) r->recompute_flops_per_token = 2 * N + 4 * lhq * c->seq * f;
  else if (recompute == RL_RECOMPUTE_SELECTIVE) r->recompute_flops_per_token = 4 * lhq * c->seq * f;
  r->hardware_flops_per_token = r->model_flops_per_token + r->recompute_flops_per_token;
  r->sparse = use_sparse != 0;
  r->peak = use_sparse ? c->sparse_peak : c->peak;
  r->useful_tokens_per_s = c->tokens_per_s * (1 - padding);
  r->model_flops_per_s = r->useful_tokens_per_s * r->model_flops_per_token / c->gpus;
  r->mfu = r->model_flops_per_s / r->peak;
  r->hfu = r->useful_tokens_per_s * r->hardware_flops_per_token / c->gpus / r->peak;
}

rl_status rl_mfu(const rl_model *m0, const rl_mfu_cfg *cfg, rl_mfu_result *out, rl_error *err) {
  if (!m0 || !out) return rli_fail(err, RL_EINVAL, "no model or result");
  TRY(check_cfg(cfg, err));
  rl_model m;
  rl_param_count p;
  TRY(rl_model_check(m0, &m, err));
  TRY(rl_model_params(&m, &p, err));
  compute(&m, &p, cfg, cfg->padding, cfg->attention, cfg->recompute, cfg->use_sparse, out);
  const double v[] = {out->model_flops_per_token, out->hardware_flops_per_token, out->model_flops_per_s,
                      out->mfu, out->hfu};
  return rli_check_finite(v, sizeof v / sizeof v[0], err, "%g tokens/s, %g GPUs, peak %g FLOP/s",
                          cfg->tokens_per_s, cfg->gpus, cfg->peak);
}

rl_status rl_mfu_conventions(const rl_model *m0, const rl_mfu_cfg *cfg, rl_mfu_convention *rows,
                             int32_t cap, int32_t *n, rl_error *err) {
  if (!m0 || !n || (cap > 0 && !rows)) return rli_fail(err, RL_EINVAL, "no model or rows");
  rl_mfu_cfg c = *cfg;
  c.use_sparse = 0;
  TRY(check_cfg(&c, err));
  rl_model m;
  rl_param_count p;
  TRY(rl_model_check(m0, &m, err));
  TRY(rl_model_params(&m, &p, err));
  /* label, metric (0 mfu, 1 hfu), attention, recompute, sparse, padded */
  static const struct {
    const char *label;
    int hfu;
    int32_t attn, rec;
    int sparse, padded;
  } list[] = {
      {"6N (attention left out)", 0, RL_ATTN_NONE, RL_RECOMPUTE_NONE, 0, 0},
      {"6N + 6LHdT (causal attention)", 0, RL_ATTN_CAUSAL, RL_RECOMPUTE_NONE, 0, 0},
      {"6N + 12LHdT (attention in full)", 0, RL_ATTN_FULL, RL_RECOMPUTE_NONE, 0, 0},
      {"HFU, selective recompute (+4LHdT)", 1, RL_ATTN_FULL, RL_RECOMPUTE_SELECTIVE, 0, 0},
      {"HFU, full recompute, 8N", 1, RL_ATTN_NONE, RL_RECOMPUTE_FULL, 0, 0},
      {"HFU, full recompute, 8N + 16LHdT", 1, RL_ATTN_FULL, RL_RECOMPUTE_FULL, 0, 0},
      {"6N, sparse peak", 0, RL_ATTN_NONE, RL_RECOMPUTE_NONE, 1, 0},
      {"6N + 12LHdT, sparse peak", 0, RL_ATTN_FULL, RL_RECOMPUTE_NONE, 1, 0},
      {"HFU 8N + 16LHdT, sparse peak", 1, RL_ATTN_FULL, RL_RECOMPUTE_FULL, 1, 0},
      {"6N + 12LHdT, padding counted", 0, RL_ATTN_FULL, RL_RECOMPUTE_NONE, 0, 1},
  };
  int32_t k = 0;
  for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) {
    if (list[i].sparse && !(c.sparse_peak > 0)) continue;
    if (list[i].padded && !(c.padding > 0)) continue;
    if (k < cap) {
      rl_mfu_result r;
      compute(&m, &p, &c, list[i].padded ? 0 : c.padding, list[i].attn, list[i].rec, list[i].sparse, &r);
      rl_mfu_convention *o = &rows[k];
      memset(o, 0, sizeof *o);
      rli_strlcpy(o->label, list[i].label, sizeof o->label);
      rli_strlcpy(o->metric, list[i].hfu ? "hfu" : "mfu", sizeof o->metric);
      o->attention = list[i].attn;
      o->recompute = list[i].rec;
      o->sparse = list[i].sparse;
      o->padded = list[i].padded;
      o->flops_per_token = list[i].hfu ? r.hardware_flops_per_token : r.model_flops_per_token;
      o->value = list[i].hfu ? r.hfu : r.mfu;
    }
    k++;
  }
  *n = k;
  return RL_OK;
}
