/*
 * llm.c -- the roofline of LLM inference: one decode step at a batch of B
 * sequences with a KV cache of T tokens each, and the prefill of a prompt.
 *
 * Exports rl_infer_cfg_init, rl_model_weight_bytes, rl_decode, rl_decode_ops,
 * rl_prefill, rl_plan and rl_plan_cfg_init.
 *
 * Sources: Pope et al. 2022, "Efficiently Scaling Transformer Inference"
 * (prefill vs decode, the memory-bound regime); Meta's Llama 3 model card
 * and config (8B: 16 GB of bf16 weights read per step, 128 KiB of KV cache
 * per token); NVIDIA's H100 whitepaper for the roofs (ridge batch near 295).
 *
 * Decode step, B sequences, context T, per device with tensor parallelism
 * over n devices (units: FLOP, B, s):
 *   F = B (2 N_mm + 4 L H d_h T) / n
 *       N_mm: the parameters a token multiplies (rl_param_count); 4 L H d_h T:
 *       QK^T and AV over the context (softmax's 5 FLOPs per score left out)
 *   Q = W_read + B T kv / n_kv
 *       W_read: every weight once per step (it is reused by the whole batch),
 *       the input embedding table either as the B rows gathered
 *       (RL_EMBED_GATHERED, what the kernel reads) or in full (RL_EMBED_FULL,
 *       the "read all 16 GB" convention, where every parameter also does 2
 *       FLOPs). With a tied embedding the output layer reads the whole
 *       table anyway. An MoE layer reads the experts the batch routes to:
 *       E (1 - (1 - k/E)^B) of them in expectation, uniform routing.
 *       kv = 2 L H_kv d_h s_kv, split over min(n, H_kv) devices.
 *   step >= max(F/peak, Q/bw) + 2L all-reduces of B d s_act (ring:
 *       2(n-1)/n S / busbw + alpha; Patarasuk & Yuan 2009)
 *   ridge batch: the B where weights-only decode reaches peak/bw
 *   asymptote: lim F/Q as B grows = (2 N_mm + 4 L H d_h T) / (T kv + rows)
 *   capacity: weights (all of them, whatever is read) + B T kv <= memory
 *   + B L k d_ff a: the MLP activation, a = rl_model_act_flops: the
 *     element-wise function as src/core/ops.c counts it (SiLU 4, GELU's tanh
 *     form 9: Hendrycks & Gimpel 2016) + 1 for the x up of a gated MLP
 *     (SwiGLU 5, GeGLU 10: Shazeer 2020)
 * Activations and the new token's KV write (1/T of the cache traffic) are
 * left out (the common hand calculation).
 *
 * Weight-only quantization (a weight format narrower than the model's):
 * the matmul weights take s_w bytes each plus, per group of g inputs of one
 * output, a 16-bit scale (and a 4-bit zero point for int4): AWQ (Lin et al.
 * 2024) and GPTQ (Frantar et al. 2023) use g = 128; LLM.int8() (Dettmers et
 * al. 2022) and FP8 checkpoints one scale per output channel. The
 * embedding, the output layer, the norms and the routers stay in the
 * model's format, as those schemes leave them.
 *
 * A checkpoint that stores its routed experts in a block-scaled format
 * (rl_model.expert_weights; gpt-oss: MXFP4, the rest bf16) counts each
 * expert matrix at that format's bytes (rl_wfmt_matrix_bytes, dtype.c:
 * 4.25 bits a weight for MXFP4, OCP Microscaling Formats v1.0; OpenAI's
 * gpt-oss model card, arXiv 2508.10925) and its biases in the model's
 * format; compute stays in the activations' format (the kernels dequantize:
 * Hopper has no FP4 tensor peak). A weight format the caller gives
 * (weight_dtype >= 0) wins for every matrix, the experts too, with the
 * scales above (`--weight-dtype fp4 --group-size 32`: the same elements
 * and scale count as MXFP4, each scale 16-bit instead of 8: 4.5 bits).
 *
 * Prefill of b prompts of p tokens (m = b p): per layer a QKV projection,
 * fused attention (Dao et al. 2022; causal halves the score FLOPs), the
 * output projection, the MLP (gate/up, the activation, down; an MoE layer's
 * router and experts), the norms and residual adds, each bounded separately
 * by the roofline (rl_op_cost), then the output layer for the last token of
 * each prompt. Time to first token >= the sum of the bounds + the
 * all-reduces.
 *
 * One decode step op by op (rl_decode_ops): the same ops over the step's B
 * tokens, with the embedding lookup and attention over the KV cache (the
 * step's attention FLOPs + the softmax's 5 per score; the cache read once),
 * each bounded on its own, and the all-reduces. It is the per-op
 * convention of LLM-Viewer (Yuan et al. 2024, "LLM Inference Unveiled"):
 * the sum of its bounds is >= the step's single bound above.
 */
#include "core/internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


rl_infer_cfg rl_infer_cfg_init(void) {
  rl_infer_cfg c;
  memset(&c, 0, sizeof c);
  c.weight_dtype = -1;
  c.kv_dtype = -1;
  c.act_dtype = -1;
  c.tp = 1;
  c.pp = 1;
  c.ep = 1;
  c.embedding = RL_EMBED_GATHERED;
  c.causal = 1;
  return c;
}

/* Everything a decode step needs that does not depend on B or T. */
typedef struct plan {
  rl_model m;
  rl_param_count p;
  double s_w, s_kv, s_a;
  double s_keep;        /* embedding and output layer (16-bit when quantized) */
  double n;             /* tensor-parallel devices */
  double n_kv;          /* devices the KV heads are split over */
  double w_resident;    /* all weights, per device */
  double w_fixed;       /* read every step whatever B, per device */
  double expert_bytes;  /* one expert's MLP, all layers, per device */
  double row_bytes;     /* gathered embedding rows per token, per device */
  double emb_bytes;     /* the input embedding table, per device */
  double lin_flops;     /* per token, per device */
  double act_flops;     /* MLP activation per token, per device */
  double win, win_frac; /* sliding window and the share of layers it caps */
  double attn_flops_t;  /* per token per context token, per device */
  double kv_tok;        /* KV bytes per context token, per device */
  double kv_tok_all;    /* whole model */
  double d;
  /* parallelism beyond tp: pipeline stages, expert parallelism */
  double pp, ep, dp;    /* dp = ep / tp attention replicas (ep > 1) */
  double e_local;       /* routed experts per device: E / ep (E with ep 1) */
  double w_total;       /* all weights, the whole model */
  double moe_layers;    /* layers with routed experts (all-to-alls with ep) */
  /* per-layer pieces (per device) from which a stage's figures are summed */
  double attn_w_l, norm_w_1, dense_w_l, moe_w_l, expert_w_l, out_w;
  double lin_attn_l, lin_dense_l, lin_moe_l, lin_first, lin_last, lin_norm_1;
  double act_dense_l, act_moe_l, attn_l, kv_l;
  int first, last;      /* the stage holds the embedding / the output layer */
  double emb_gathered;  /* embedding bytes read as rows, not every step (per device) */
  double stage_first;   /* the stage's first layer */
  /* weight-only quantization */
  int quant;            /* weight format narrower than the model's */
  int32_t keep_dtype;   /* the format the unquantized tensors stay in */
  double group;         /* weights per scale; RL_GROUP_CHANNEL; 0 = none */
  double group_bytes;   /* one scale (+ zero point) */
  double scale_bytes;   /* all scales, per device */
  double kept_bytes;    /* tensors left unquantized, per device */
  int32_t exp_fmt;      /* rl_wfmt of the routed experts' matrices (0: s_w
                           and the scales above) */
  double experts_res;   /* the routed experts' bytes, per device */
} plan;

/* Scales of a d_in x d_out matrix quantized in groups of g inputs
 * (AWQ, Lin et al. 2024; GPTQ, Frantar et al. 2023: a scale and a zero
 * point per group of g consecutive input weights of one output; per
 * channel: one per output, as LLM.int8(), Dettmers et al. 2022, and FP8
 * per-channel scaling). */
static double scales(const plan *pl, double d_in, double d_out) {
  if (!pl->quant || pl->group == 0) return 0;
  if (pl->group == RL_GROUP_CHANNEL) return d_out;
  return d_out * ceil(d_in / pl->group);
}

/* One routed expert's MLP of width ff in bytes: its matrices in the
 * expert format (rl_wfmt_matrix_bytes) or the weight format with its
 * scales, its biases (rl_model.bias == 1) in the weight format. */
static double expert_mlp_bytes(const plan *pl, double ff) {
  const rl_model *m = &pl->m;
  int g = m->mlp == RL_MLP_GATED;
  double d = m->d_model, bias = m->bias == 1 ? (g ? 2 : 1) * ff + d : 0;
  if (pl->exp_fmt != RL_WFMT_DTYPE)
    return (g ? 2 : 1) * rl_wfmt_matrix_bytes(pl->exp_fmt, d, ff) + rl_wfmt_matrix_bytes(pl->exp_fmt, ff, d) +
           bias * pl->s_w;
  return ((g ? 3 : 2) * d * ff + bias) * pl->s_w +
         ((g ? 2 : 1) * scales(pl, d, ff) + scales(pl, ff, d)) * pl->group_bytes;
}

/* The group size in effect: the format's default (int4/fp4: 128, the AWQ
 * and GPTQ default; int8/fp8: per output channel), the user's, or none. */
static rl_status quant_setup(plan *pl, const rl_infer_cfg *cfg, int32_t wd, int32_t md, rl_error *err) {
  double g = cfg->group_size;
  if (!isfinite(g) || (g != RL_GROUP_CHANNEL && g != RL_GROUP_NONE && (g < 0 || g != floor(g) || g > 1e9)))
    return rli_fail(err, RL_EINVAL, "group size must be a whole number >= 1, per channel or none (got %g)", g);
  pl->quant = pl->s_w < rl_dtype_bytes(md);
  pl->keep_dtype = pl->quant && !cfg->quantize_all ? md : wd;
  pl->s_keep = rl_dtype_bytes(pl->keep_dtype);
  if (!pl->quant || g == RL_GROUP_NONE) {
    pl->group = 0;
    pl->group_bytes = 0;
    return RL_OK;
  }
  pl->group = g > 0 ? g : (pl->s_w < 1 ? 128 : RL_GROUP_CHANNEL);
  /* a 16-bit scale per group; int4 adds a 4-bit zero point (asymmetric, as
   * AWQ and GPTQ store it); the 8-bit formats are symmetric */
  pl->group_bytes = 2 + (wd == RL_INT4 ? 0.5 : 0);
  return RL_OK;
}

/* Pipeline and expert parallelism: their degrees, checked against the
 * model (pl->m) and the tensor-parallel degree pl->n. */
static rl_status par_setup(plan *pl, const rl_infer_cfg *cfg, rl_error *err) {
  const rl_model *m = &pl->m;
  if (cfg->pp < 0 || cfg->pp > RL_MAX_STAGES)
    return rli_fail(err, RL_EINVAL, "pp must be >= 1 and <= %d (got %d)", RL_MAX_STAGES, (int)cfg->pp);
  if (cfg->ep < 0 || cfg->ep > 65536)
    return rli_fail(err, RL_EINVAL, "ep must be >= 1 and <= 65536 (got %d)", (int)cfg->ep);
  double pp = cfg->pp > 1 ? cfg->pp : 1, ep = cfg->ep > 1 ? cfg->ep : 1, mb = cfg->microbatches;
  if (pp > m->layers) return rli_fail(err, RL_EINVAL, "pp %g exceeds the %g layers (a stage needs one)", pp, m->layers);
  if (!isfinite(mb) || mb < 0 || mb != floor(mb) || mb > RL_MAX_MICROBATCHES)
    return rli_fail(err, RL_EINVAL, "microbatches must be a whole number >= 1 and <= %d (got %g)",
                    RL_MAX_MICROBATCHES, mb);
  if (mb > 1 && pp == 1) return rli_fail(err, RL_EINVAL, "microbatches apply with pp > 1 (got %g with pp 1)", mb);
  if (!(cfg->p2p_latency_s >= 0) || !isfinite(cfg->p2p_latency_s))
    return rli_fail(err, RL_EINVAL, "point-to-point latency must be >= 0");
  if (!(cfg->a2a_latency_s >= 0) || !isfinite(cfg->a2a_latency_s))
    return rli_fail(err, RL_EINVAL, "all-to-all latency must be >= 0");
  if (ep > 1) {
    if (m->experts <= 0)
      return rli_fail(err, RL_EINVAL, "ep applies to a mixture of experts; %s has no experts", m->id[0] ? m->id : "the model");
    if (fmod(m->experts, ep) != 0)
      return rli_fail(err, RL_EINVAL, "ep %g does not divide the %g experts", ep, m->experts);
    if (fmod(ep, pl->n) != 0)
      return rli_fail(err, RL_EINVAL, "ep %g must be a multiple of tp %g (the experts spread over the tp x dp devices of a stage)",
                      ep, pl->n);
  }
  if ((pp > 1 || ep > 1) && !rli_positive(cfg->link_bw))
    return rli_fail(err, RL_EINVAL, "%s needs the link bandwidth (link_bw > 0)",
                    pp > 1 ? "pipeline parallelism" : "expert parallelism");
  pl->pp = pp;
  pl->ep = ep;
  pl->dp = ep > 1 ? ep / pl->n : 1;
  pl->e_local = m->experts > 0 ? m->experts / ep : 0;
  pl->first = pl->last = 1;
  return RL_OK;
}

/* make_plan, the weights: the bytes of all of them (total), of the routed
 * experts (experts_all), the embedding table (emb_b), the scales (scale_b)
 * and those kept in the model's format (kept), in w; the per-layer sums a
 * pipeline stage adds up, in pl. */
typedef struct plan_w {
  double total, experts_all, emb_b, scale_b, kept;
} plan_w;

static void plan_weights(plan *pl, const rl_infer_cfg *cfg, plan_w *w) {
  const rl_model *m = &pl->m;
  double n = pl->n;
  const rl_param_count *p = &pl->p;
  int full = cfg->embedding == RL_EMBED_FULL;
  double L = m->layers, d = m->d_model, H = m->heads, Hkv = m->kv_heads, dh = m->head_dim, ff = m->d_ff;
  double gb = pl->group_bytes, sw = pl->s_w;
  double s_small = pl->quant ? rl_dtype_bytes(m->dtype) : sw; /* norms, routers */
  double total, experts_all = 0, emb_b = 0, scale_b = 0, kept = 0;
  if (p->derived) {
    int moe = m->experts > 0;
    double E = moe ? m->experts : 0, dl = moe ? m->dense_layers : 0, ml = moe ? L - dl : 0;
    double dff = m->dense_d_ff > 0 ? m->dense_d_ff : ff;
    double rb = moe && m->router_bias ? 1 : 0;     /* the routers' bias per expert */
    double router = moe ? ml * (d + rb) * E : 0;
    double attn_sc;
    if (m->kv_lora_rank > 0) {
      double r = m->kv_lora_rank, rq = m->q_lora_rank, dqk = m->nope_dim + m->rope_dim;
      double q_sc = rq > 0 ? scales(pl, d, rq) + scales(pl, rq, H * dqk) : scales(pl, d, H * dqk);
      attn_sc = L * (q_sc + scales(pl, d, r + m->rope_dim) + scales(pl, r, H * (m->nope_dim + m->v_head_dim)) +
                     scales(pl, H * m->v_head_dim, d));
    } else {
      attn_sc = L * (scales(pl, d, H * dh) + 2 * scales(pl, d, Hkv * dh) + scales(pl, H * dh, d));
    }
    int g = m->mlp == RL_MLP_GATED;
    double sc_ff = (g ? 2 : 1) * scales(pl, d, ff) + scales(pl, ff, d);
    double sc_dff = (g ? 2 : 1) * scales(pl, d, dff) + scales(pl, dff, d);
    /* one routed expert over the MoE layers; the rest of the MLP (dense
     * layers, shared experts, or the whole dense MLP) is read every step */
    double one_ff = (g ? 3 : 2) * d * ff + (m->bias == 1 ? (g ? 2 : 1) * ff + d : 0);
    double expert_b = moe ? ml * expert_mlp_bytes(pl, ff) : 0;
    double fixed_mlp_params = moe ? p->mlp - router - ml * E * one_ff : p->mlp;
    double fixed_mlp_sc = moe ? dl * sc_dff + ml * m->shared_experts * sc_ff : L * sc_ff;
    double rows = m->vocab + (m->learned_pos ? m->max_seq : 0);
    int keep_q = pl->quant && cfg->quantize_all;
    double row_sc = keep_q ? (pl->group == RL_GROUP_CHANNEL ? 1 : pl->group > 0 ? ceil(d / pl->group) : 0) : 0;
    emb_b = p->embedding * pl->s_keep + rows * row_sc * gb;
    double out_sc = keep_q && p->output > 0 ? scales(pl, d, m->vocab) : 0;
    double out_b = p->output * pl->s_keep + out_sc * gb;
    double rest = p->norms * s_small + router * s_small;
    total = p->attention * sw + attn_sc * gb + fixed_mlp_params * sw + fixed_mlp_sc * gb + E * expert_b + emb_b +
            out_b + rest;
    scale_b = (attn_sc + fixed_mlp_sc + (moe && !pl->exp_fmt ? E * ml * sc_ff : 0) + rows * row_sc + out_sc) * gb;
    if (pl->quant) kept = rest + (cfg->quantize_all ? 0 : emb_b + out_b);
    if (moe) {
      experts_all = E * expert_b;
      pl->expert_bytes = expert_b / n;
    }
    double act = rl_model_act_flops(m);
    pl->act_flops = (moe ? dl * dff + ml * (m->experts_active + m->shared_experts) * ff : L * ff) * act / n;
    /* per layer, per device: what a stage of the pipeline sums */
    double one_dff = (g ? 3 : 2) * d * dff + (m->bias == 1 ? (g ? 2 : 1) * dff + d : 0);
    double norm_one = m->norm == RL_NORM_LAYER ? 2 * d : d;
    pl->attn_w_l = (p->attention * sw + attn_sc * gb) / L / n;
    pl->norm_w_1 = p->norms * s_small / (m->norms_per_layer * L + 1) / n;
    pl->dense_w_l = moe ? (dl > 0 ? (one_dff * sw + sc_dff * gb) / n : 0) : (fixed_mlp_params * sw + fixed_mlp_sc * gb) / L / n;
    pl->moe_w_l = moe ? ((fixed_mlp_params - dl * one_dff) * sw / ml + m->shared_experts * sc_ff * gb + (d + rb) * E * s_small) / n : 0;
    pl->expert_w_l = moe ? expert_b / ml / n : 0;
    pl->out_w = out_b / n;
    pl->lin_attn_l = 2 * p->attention / L / n;
    pl->lin_dense_l = 2 * (moe ? one_dff : one_ff) / n;
    pl->lin_moe_l = moe ? 2 * ((m->experts_active + m->shared_experts) * one_ff + d * E) / n : 0;
    pl->lin_first = full ? 2 * p->embedding / n : 0;
    pl->lin_last = 2 * (full ? p->output : m->vocab * d) / n;
    pl->lin_norm_1 = full ? 2 * norm_one / n : 0;
    pl->act_dense_l = (moe ? dff : ff) * act / n;
    pl->act_moe_l = moe ? (m->experts_active + m->shared_experts) * ff * act / n : 0;
    pl->moe_layers = ml;
  } else {
    /* given by its count: every weight in the weight format, scales for
     * groups of g (per channel: rows of d) */
    double groups = pl->group == RL_GROUP_CHANNEL ? p->total / d : pl->group > 0 ? p->total / pl->group : 0;
    total = p->total * sw + groups * gb;
    scale_b = groups * gb;
    pl->attn_w_l = total / L / n;
    pl->lin_attn_l = 2 * p->total / L / n;
  }
  w->total = total;
  w->experts_all = experts_all;
  w->emb_b = emb_b;
  w->scale_b = scale_b;
  w->kept = kept;
}

/* make_plan, attention and the KV cache per token. */
static void plan_attention(plan *pl) {
  const rl_model *m = &pl->m;
  double n = pl->n;
  if (m->kv_lora_rank > 0) {
    /* latent attention, decode in the absorbed form (DeepSeek-V2 §2.1.2:
     * W_UK folded into the query, W_UV into the output): per context token
     * and head, scores over the latent and rope key (2 (r + r_rope)) and
     * the latent-weighted sum (2 r); the cache holds r + r_rope per token
     * and layer, whole on every tensor-parallel device */
    double r = m->kv_lora_rank;
    pl->attn_flops_t = m->layers * m->heads * (2 * (r + m->rope_dim) + 2 * r) / n;
    pl->kv_tok_all = m->layers * (r + m->rope_dim) * pl->s_kv;
    pl->n_kv = 1;
  } else {
    pl->attn_flops_t = 4 * m->layers * m->heads * m->head_dim / n;
    pl->kv_tok_all = 2 * m->layers * m->kv_heads * m->head_dim * pl->s_kv;
  }
  pl->kv_tok = pl->kv_tok_all / pl->n_kv;
  pl->win = m->window;
  pl->win_frac = m->window > 0 ? m->window_layers / m->layers : 0;
  pl->attn_l = pl->attn_flops_t / m->layers;
  pl->kv_l = pl->kv_tok / m->layers;
}

static rl_status make_plan(const rl_model *m0, const rl_infer_cfg *cfg, plan *pl, rl_error *err) {
  memset(pl, 0, sizeof *pl);
  TRY(rl_model_check(m0, &pl->m, err));
  TRY(rl_model_params(&pl->m, &pl->p, err));
  const rl_model *m = &pl->m;
  int32_t wd = cfg->weight_dtype < 0 ? m->dtype : cfg->weight_dtype;
  int32_t ad = cfg->act_dtype < 0 ? m->dtype : cfg->act_dtype;
  int32_t kd = cfg->kv_dtype < 0 ? rl_model_kv_dtype(m, cfg->act_dtype) : cfg->kv_dtype;
  pl->s_w = rl_dtype_bytes(wd);
  pl->s_a = rl_dtype_bytes(ad);
  pl->s_kv = rl_dtype_bytes(kd);
  if (pl->s_w <= 0) return rli_fail(err, RL_EINVAL, "unknown weight dtype %d", (int)wd);
  if (pl->s_a <= 0) return rli_fail(err, RL_EINVAL, "unknown activation dtype %d", (int)ad);
  if (pl->s_kv <= 0) return rli_fail(err, RL_EINVAL, "unknown KV-cache dtype %d", (int)kd);
  if (cfg->tp < 0 || cfg->tp > 65536)
    return rli_fail(err, RL_EINVAL, "tp must be >= 1 and <= 65536 (got %d)", (int)cfg->tp);
  if (cfg->embedding != RL_EMBED_GATHERED && cfg->embedding != RL_EMBED_FULL)
    return rli_fail(err, RL_EINVAL, "unknown embedding convention %d", (int)cfg->embedding);
  if (!(cfg->mem_bytes >= 0) || !isfinite(cfg->mem_bytes))
    return rli_fail(err, RL_EINVAL, "memory capacity must be >= 0");
  if (!(cfg->comm_latency_s >= 0) || !isfinite(cfg->comm_latency_s))
    return rli_fail(err, RL_EINVAL, "all-reduce latency must be >= 0");
  TRY(quant_setup(pl, cfg, wd, m->dtype, err));
  pl->exp_fmt = cfg->weight_dtype < 0 && m->experts > 0 ? m->expert_weights : RL_WFMT_DTYPE;
  if (cfg->attention_impl != RL_ATTN_IMPL_FUSED && cfg->attention_impl != RL_ATTN_IMPL_NAIVE)
    return rli_fail(err, RL_EINVAL, "unknown attention implementation %d", (int)cfg->attention_impl);
  double n = cfg->tp > 1 ? cfg->tp : 1;
  if (n > 1) {
    if (!rli_positive(cfg->link_bw))
      return rli_fail(err, RL_EINVAL, "tensor parallelism over %g devices needs the all-reduce bandwidth (link_bw > 0)", n);
    if (fmod(m->heads, n) != 0)
      return rli_fail(err, RL_EINVAL, "tp %g does not divide the %g attention heads", n, m->heads);
  }
  pl->n = n;
  pl->n_kv = n < m->kv_heads ? n : m->kv_heads;
  TRY(par_setup(pl, cfg, err));
  pl->d = m->d_model;
  plan_w w;
  plan_weights(pl, cfg, &w);
  const rl_param_count *p = &pl->p;
  int full = cfg->embedding == RL_EMBED_FULL;
  double total = w.total, experts_all = w.experts_all, emb_b = w.emb_b, scale_b = w.scale_b, kept = w.kept;
  pl->w_total = total;
  pl->w_resident = total / n;
  pl->experts_res = experts_all / n;
  if (pl->ep > 1) {
    /* expert parallelism: E / ep whole experts on each device, the rest
     * split over tp as before */
    pl->expert_w_l *= n;
    pl->expert_bytes = pl->expert_w_l * pl->moe_layers;
    pl->w_resident = (total - experts_all) / n + pl->e_local * pl->expert_bytes;
    pl->experts_res = pl->e_local * pl->expert_bytes;
  }
  pl->emb_bytes = emb_b / n;
  pl->scale_bytes = scale_b / n;
  pl->kept_bytes = kept / n;
  /* the untied table is gathered; a tied one is read whole by the output
   * layer (learned positions are gathered either way) */
  double rows_all = m->vocab + (m->learned_pos ? m->max_seq : 0), row_b = p->embedding > 0 ? emb_b / rows_all : 0;
  int gathered = !full && !m->tied_embeddings && p->embedding > 0;
  int pos_gathered = !full && m->learned_pos && p->embedding > 0;
  pl->w_fixed = (total - experts_all - (gathered ? emb_b : pos_gathered ? m->max_seq * row_b : 0)) / n;
  pl->row_bytes = (gathered ? 1.0 + m->learned_pos : pos_gathered ? 1.0 : 0.0) * row_b / n;
  pl->emb_gathered = (gathered ? emb_b : pos_gathered ? m->max_seq * row_b : 0) / n;
  pl->lin_flops = 2 * (full ? p->active : p->matmul_active) / n;
  plan_attention(pl);
  return RL_OK;
}

/* Stage s of the pipeline as a plan of its own: its layers, the
 * embedding on the first stage, the output layer and final norm on the
 * last. L layers over p stages: floor(L/p) each, the remainder one more
 * each on the stages just before the last (vLLM's get_pp_indices,
 * vllm/distributed/utils.py: the first stage also holds the embedding, the
 * last the output layer). Gemma 2's windowed layers alternate from layer 0
 * (layer i is windowed when ceil((i+1) Lw/L) > ceil(i Lw/L)); an MoE
 * model's dense layers come first (DeepSeek-V3's first_k_dense_replace).
 * With one stage the plan is the whole model, unchanged. */
static void stage_plan(const plan *b, double s, plan *st) {
  *st = *b;
  if (b->pp <= 1) return;
  double L = b->m.layers, q = floor(L / b->pp), r = L - q * b->pp, lo = b->pp - 1 - r;
  double a = s * q + (s > lo ? s - lo : 0), nl = q + (s >= lo && s < b->pp - 1 ? 1 : 0), e = a + nl;
  double lw = b->m.window > 0 ? b->m.window_layers : 0;
  double nw = lw > 0 ? ceil(e * lw / L) - ceil(a * lw / L) : 0;
  int moe = b->m.experts > 0;
  double dl = moe ? b->m.dense_layers : L;
  double nd = (e < dl ? e : dl) - (a < dl ? a : dl), nm = moe ? nl - nd : 0;
  int first = s == 0, last = s == b->pp - 1;
  double norms = b->m.norms_per_layer * nl + last;
  double experts = nm * b->e_local * b->expert_w_l;
  st->first = first;
  st->last = last;
  st->stage_first = a;
  st->w_resident = nl * b->attn_w_l + norms * b->norm_w_1 + nd * b->dense_w_l + nm * b->moe_w_l + experts +
                   (first ? b->emb_bytes : 0) + (last ? b->out_w : 0);
  st->w_fixed = st->w_resident - experts - (first ? b->emb_gathered : 0);
  st->expert_bytes = nm * b->expert_w_l;
  st->row_bytes = first ? b->row_bytes : 0;
  st->emb_bytes = first ? b->emb_bytes : 0;
  st->lin_flops = nl * b->lin_attn_l + nd * b->lin_dense_l + nm * b->lin_moe_l + (first ? b->lin_first : 0) +
                  (last ? b->lin_last : 0) + norms * b->lin_norm_1;
  st->act_flops = nd * b->act_dense_l + nm * b->act_moe_l;
  st->attn_flops_t = nl * b->attn_l;
  st->kv_tok = nl * b->kv_l;
  st->win_frac = nl > 0 ? nw / nl : 0;
  st->moe_layers = nm;
  st->m.layers = nl;
  st->m.window_layers = nw;
  st->m.dense_layers = moe ? nd : 0;
  if (!b->p.derived) st->p.total = b->p.total * nl / L;
}

/* The context a sequence of T tokens costs, in full-attention tokens: its
 * windowed layers hold and read at most the window's keys. */
static double ctx_eff(const plan *pl, double T) {
  if (pl->win_frac == 0 || T <= pl->win) return T;
  return (1 - pl->win_frac) * T + pl->win_frac * pl->win;
}

/* Routed experts a device reads per MoE layer in a step of B tokens.
 * Without expert parallelism every device holds a 1/tp slice of every
 * expert and reads the slices of the E (1 - (1 - k/E)^B) experts the batch
 * routes to (the expectation under uniform routing). With expert
 * parallelism over N devices (E/N whole experts each) the step lasts as
 * long as its busiest device: assuming balanced routing (the B k choices
 * spread over min(E, B k) distinct experts, as the load-balancing losses
 * and DeepSeek-V3's bias terms aim for), by pigeonhole some device holds
 * at least ceil(min(E, B k) / N) of them and reads each whole -- Mixtral
 * 8x7B at EP8, B = 1: one expert per layer, where the average over devices
 * is a quarter. Any other routing puts at least as many on the busiest
 * device or touches fewer experts in all; the balanced case is the one a
 * serving engine aims for and the one stated. */
static double experts_read(const plan *pl, double B) {
  double E = pl->m.experts, k = pl->m.experts_active;
  if (!(E > 0)) return 0;
  if (pl->ep > 1) {
    double distinct = B * k < E ? B * k : E, busiest = ceil(distinct / pl->ep);
    return busiest < pl->e_local ? busiest : pl->e_local;
  }
  return pl->e_local * (1 - pow(1 - k / E, B));
}

/* Weight bytes read per step at batch B (per device). */
static double weights_read(const plan *pl, double B) {
  double w = pl->w_fixed + B * pl->row_bytes;
  if (pl->m.experts > 0) w += experts_read(pl, B) * pl->expert_bytes;
  return w;
}

/* Ring all-reduce of S bytes over n ranks. */
static double allreduce_time(double S, double n, double bw, double alpha) {
  if (n <= 1) return 0;
  return 2 * (n - 1) / n * S / bw + alpha;
}

/* An all-gather (output S) or an all-to-all (S sent by each rank, its own
 * share included) over n ranks: (n-1)/n of S crosses the link (nccl-tests
 * doc/PERFORMANCE.md: busbw = algbw (n-1)/n for both). */
static double exchange_time(double S, double n, double bw, double alpha) {
  if (n <= 1) return 0;
  return (n - 1) / n * S / bw + alpha;
}

/* Sequences each attention replica holds: with expert parallelism over
 * ep = tp x dp devices the batch is split over dp replicas. */
static double per_replica(const plan *pl, double B) { return pl->dp > 1 ? ceil(B / pl->dp) : B; }

/* The communication of pl's layers for `tok` tokens per attention
 * replica: 2 all-reduces a layer over tp (attention and MLP outputs;
 * Shoeybi et al. 2019). With expert parallelism (DeepSpeed-MoE,
 * Rajbhandari et al. 2022; DeepSeek-V3 report §3.4; vLLM's
 * --enable-expert-parallel, EP = TP x DP), an MoE layer's MLP all-reduce
 * gives way to the all-to-alls: each device dispatches its 1/tp share of
 * its replica's tokens, k copies of d activations each, to the experts'
 * devices and the combine brings them back (two all-to-alls over ep), then
 * the tp group gathers its tokens again (an all-gather, with the
 * all-reduce's latency; with shared experts an all-reduce, which also sums
 * their tensor-parallel partial outputs). *a2a gets the all-to-alls' share. */
static double layer_comm(const plan *pl, const rl_infer_cfg *cfg, double tok, double *a2a) {
  double S = tok * pl->d * pl->s_a, bw = cfg->link_bw;
  *a2a = 0;
  if (pl->ep <= 1 || pl->moe_layers <= 0)
    return 2 * pl->m.layers * allreduce_time(S, pl->n, bw, cfg->comm_latency_s);
  double nm = pl->moe_layers, other = pl->m.layers - nm;
  double ar = allreduce_time(S, pl->n, bw, cfg->comm_latency_s);
  double regather = pl->m.shared_experts > 0 ? ar : exchange_time(S, pl->n, bw, cfg->comm_latency_s);
  *a2a = nm * 2 * exchange_time(S / pl->n * pl->m.experts_active, pl->ep, bw, cfg->a2a_latency_s);
  return 2 * other * ar + nm * (ar + regather) + *a2a;
}

/* The send of one micro-batch's activations (tok tokens per replica) to
 * the next stage: each device sends to its counterpart over its link. */
static double p2p_time(const plan *pl, const rl_infer_cfg *cfg, double tok) {
  return tok * pl->d * pl->s_a / cfg->link_bw + cfg->p2p_latency_s;
}

static rl_status check_roof(const rl_roof *roof, rl_error *err) {
  if (!roof) return rli_fail(err, RL_EINVAL, "no roof");
  if (!rli_positive(roof->peak)) return rli_fail(err, RL_EINVAL, "peak must be > 0");
  if (!rli_positive(roof->bandwidth)) return rli_fail(err, RL_EINVAL, "bandwidth must be > 0");
  return RL_OK;
}

static void decode_row(const plan *pl, const rl_infer_cfg *cfg, const rl_roof *roof, double B, double T,
                       rl_decode_row *r) {
  memset(r, 0, sizeof *r);
  r->batch = B;
  double Te = ctx_eff(pl, T), Bd = per_replica(pl, B);
  r->flops = Bd * (pl->lin_flops + pl->act_flops + pl->attn_flops_t * Te);
  r->weight_bytes = weights_read(pl, B);
  r->kv_bytes = Bd * Te * pl->kv_tok;
  r->bytes = r->weight_bytes + r->kv_bytes;
  r->intensity = r->flops / r->bytes;
  r->compute_time_s = r->flops / roof->peak;
  r->memory_time_s = r->bytes / roof->bandwidth;
  r->comm_time_s = layer_comm(pl, cfg, Bd, &r->a2a_time_s);
  double t = r->compute_time_s > r->memory_time_s ? r->compute_time_s : r->memory_time_s;
  r->bound = r->compute_time_s > r->memory_time_s ? RL_BOUND_COMPUTE : RL_BOUND_MEMORY;
  r->step_time_s = t + r->comm_time_s;
  r->tokens_per_s = B / r->step_time_s;
  r->tokens_per_s_per_seq = 1 / r->step_time_s;
  r->memory_bytes = pl->w_resident + Bd * Te * pl->kv_tok;
  r->fits = cfg->mem_bytes <= 0 || r->memory_bytes <= cfg->mem_bytes;
  r->microbatches = 1;
  r->stage_time_max_s = r->step_time_s;
}

/* Micro-batches of B: m (0: min(pp, B), as vLLM keeps one batch per
 * pipeline stage in flight), at most B; nbig of them hold xbig sequences,
 * the other m - nbig hold xbig - 1. */
static double microbatches(const plan *pl, const rl_infer_cfg *cfg, double B, double *xbig, double *nbig) {
  double m = cfg->microbatches > 0 ? cfg->microbatches : pl->pp;
  if (m > B) m = B;
  double xs = floor(B / m), nb = B - m * xs;
  *xbig = nb > 0 ? xs + 1 : xs;
  *nbig = nb > 0 ? nb : m;
  return m;
}

/* One decode step over the pipeline: B sequences in m micro-batches, each
 * crossing the stages in turn (stage time: its layers' bound + its
 * communication + the send to the next stage). A sequence's next token
 * waits for its micro-batch to cross every stage, and each stage serves
 * the m micro-batches in turn, so the time per output token is
 *   max( sum_s t_s(x),  max_s sum_j t_s(x_j) )
 * (one micro-batch: the sum of the stage bounds plus the sends). FLOPs,
 * bytes and the compute and memory times are summed over stages and
 * micro-batches (the work of one device column per step); comm, p2p and
 * a2a along one micro-batch's path. Memory: the largest stage's weights
 * plus the KV caches of its layers for all B sequences. */
static void decode_step(const plan *pl, const rl_infer_cfg *cfg, const rl_roof *roof, double B, double T,
                        rl_decode_row *r) {
  if (pl->pp <= 1) {
    decode_row(pl, cfg, roof, B, T, r);
    return;
  }
  double xb, nb, m = microbatches(pl, cfg, B, &xb, &nb), path = 0, round_max = 0;
  rl_decode_row acc;
  memset(&acc, 0, sizeof acc);
  double Te = ctx_eff(pl, T), Bd = per_replica(pl, B);
  for (double s = 0; s < pl->pp; s++) {
    plan st;
    stage_plan(pl, s, &st);
    int send = s < pl->pp - 1;
    rl_decode_row big, small;
    decode_row(&st, cfg, roof, xb, T, &big);
    double tb = big.step_time_s + (send ? p2p_time(pl, cfg, per_replica(pl, xb)) : 0), ts = 0;
    if (nb < m) {
      decode_row(&st, cfg, roof, xb - 1, T, &small);
      ts = small.step_time_s + (send ? p2p_time(pl, cfg, per_replica(pl, xb - 1)) : 0);
    } else {
      memset(&small, 0, sizeof small);
    }
    double ns = m - nb, round = nb * tb + ns * ts;
    path += tb;
    if (round > round_max) round_max = round;
    if (tb > acc.stage_time_max_s) acc.stage_time_max_s = tb;
    acc.flops += nb * big.flops + ns * small.flops;
    acc.weight_bytes += nb * big.weight_bytes + ns * small.weight_bytes;
    acc.kv_bytes += nb * big.kv_bytes + ns * small.kv_bytes;
    acc.compute_time_s += nb * big.compute_time_s + ns * small.compute_time_s;
    acc.memory_time_s += nb * big.memory_time_s + ns * small.memory_time_s;
    acc.comm_time_s += big.comm_time_s + (send ? p2p_time(pl, cfg, per_replica(pl, xb)) : 0);
    acc.p2p_time_s += send ? p2p_time(pl, cfg, per_replica(pl, xb)) : 0;
    acc.a2a_time_s += big.a2a_time_s;
    double mem = st.w_resident + Bd * Te * st.kv_tok;
    if (mem > acc.memory_bytes) acc.memory_bytes = mem;
  }
  *r = acc;
  r->batch = B;
  r->microbatches = m;
  r->bytes = r->weight_bytes + r->kv_bytes;
  r->intensity = r->flops / r->bytes;
  r->bound = r->compute_time_s > r->memory_time_s ? RL_BOUND_COMPUTE : RL_BOUND_MEMORY;
  r->step_time_s = path > round_max ? path : round_max;
  r->tokens_per_s = B / r->step_time_s;
  r->tokens_per_s_per_seq = 1 / r->step_time_s;
  r->fits = cfg->mem_bytes <= 0 || r->memory_bytes <= cfg->mem_bytes;
}

/* The most sequences of context T that fit in mem on every device: -1 when
 * the weights alone do not, HUGE_VAL when nothing grows with B. */
static double fit_batch(const plan *pl, double T, double mem) {
  double Te = ctx_eff(pl, T), best = HUGE_VAL;
  for (double s = 0; s < pl->pp; s++) {
    plan st;
    stage_plan(pl, s, &st);
    double left = mem - st.w_resident, per = Te * st.kv_tok;
    if (left < 0) return -1;
    if (per > 0 && floor(left / per) < best) best = floor(left / per);
  }
  return best < HUGE_VAL ? best * pl->dp : best;
}

rl_status rl_stages(const rl_model *m, const rl_infer_cfg *cfg, rl_stage *out, int32_t cap, int32_t *n,
                    rl_error *err) {
  if (!m || !cfg || !n || cap < 0 || (cap > 0 && !out)) return rli_fail(err, RL_EINVAL, "no model, configuration or result");
  plan pl;
  TRY(make_plan(m, cfg, &pl, err));
  *n = (int32_t)pl.pp;
  for (int32_t s = 0; s < *n && s < cap; s++) {
    plan st;
    stage_plan(&pl, s, &st);
    out[s].first_layer = st.stage_first;
    out[s].layers = st.m.layers;
    out[s].weights_bytes = st.w_resident;
  }
  return RL_OK;
}

/* Weights-only intensity at batch B (for the ridge batch). */
static double weights_only_intensity(const plan *pl, double B) {
  return B * pl->lin_flops / weights_read(pl, B);
}

static rl_status check_context(double T, rl_error *err) {
  TRY(rli_check_max(T, 1e12, "context", err));
  if (!isfinite(T) || T < 0 || T > 1e12 || T != floor(T))
    return rli_fail(err, RL_EINVAL, "context must be a whole number of tokens >= 0 (got %g)", T);
  return RL_OK;
}

/* The smallest degree at which the weights fit in mem on every device:
 * with ep <= 1 a tensor-parallel degree dividing the heads (pp as given);
 * with ep > 1 an expert-parallel degree, a multiple of tp dividing the
 * experts (tp and pp as given). *which: 0 tp, 1 ep. 0 when none does. */
static void decode_step(const plan *pl, const rl_infer_cfg *cfg, const rl_roof *roof, double B, double T,
                        rl_decode_row *r);

/* The smallest degree at which the weights (B == 0), or B sequences of
 * context T and the weights (B > 0, on roof), fit in mem: tensor-parallel
 * dividing the heads, or with ep > 1 expert-parallel dividing the experts
 * (*which = 1); 0 when none does. */
static double degree_needed(const plan *pl, const rl_infer_cfg *cfg, double mem, const rl_roof *roof, double B,
                            double T, int *which) {
  rl_infer_cfg c = *cfg;
  if (!(c.link_bw > 0)) c.link_bw = 1; /* sizes only: no time is computed */
  int by_ep = pl->ep > 1;
  *which = by_ep;
  double top = by_ep ? pl->m.experts : pl->m.heads;
  for (double n = by_ep ? pl->n : 1; n <= top && n <= 65536; n++) {
    if (fmod(top, n) != 0 || (by_ep && fmod(n, pl->n) != 0)) continue;
    if (by_ep) c.ep = (int32_t)n; else c.tp = (int32_t)n;
    plan q;
    rl_decode_row row;
    if (make_plan(&pl->m, &c, &q, NULL) != RL_OK) continue;
    if (B <= 0 ? fit_batch(&q, 0, mem) >= 0 : (decode_step(&q, &c, roof, B, T, &row), row.fits)) return n;
  }
  return 0;
}

static void summarize(const plan *pl, const rl_infer_cfg *cfg, const rl_roof *roof, double T,
                      rl_decode_summary *s) {
  memset(s, 0, sizeof *s);
  s->params = pl->p.total;
  s->active_params = pl->p.active;
  s->weights_bytes = pl->w_resident;
  s->weights_read_bytes = weights_read(pl, 1) - pl->row_bytes;
  s->embedding_bytes = pl->emb_bytes;
  s->kv_bytes_per_token = pl->kv_tok_all;
  double Te = ctx_eff(pl, T);
  s->kv_bytes_per_seq = pl->kv_tok_all * Te;
  s->linear_flops_per_token = pl->lin_flops * pl->n;
  s->attention_flops_per_token = pl->attn_flops_t * pl->n * Te;
  s->attention_intensity = pl->attn_flops_t * pl->n / pl->kv_tok_all;
  s->activation_flops_per_token = pl->act_flops * pl->n;
  s->quantized = pl->quant;
  s->kept_dtype = pl->keep_dtype;
  s->group_size = pl->group;
  s->scale_bytes = pl->scale_bytes;
  s->kept_bytes = pl->kept_bytes;
  s->expert_weights = pl->exp_fmt;
  s->expert_bytes = pl->experts_res;
  s->ridge = roof->peak / roof->bandwidth;
  /* ridge batch: weights-only intensity rises with B towards
   * lin_flops / row_bytes (unbounded when nothing grows with B). */
  double lim = pl->row_bytes > 0 ? pl->lin_flops / pl->row_bytes : HUGE_VAL;
  if (lim > s->ridge) {
    double lo = 0, hi = 1;
    while (weights_only_intensity(pl, hi) < s->ridge && hi < 1e18) hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-9 * hi; i++) {
      double mid = 0.5 * (lo + hi);
      if (weights_only_intensity(pl, mid) < s->ridge) lo = mid; else hi = mid;
    }
    s->ridge_batch = hi < 1e18 ? hi : 0;
  }
  double den = Te * pl->kv_tok + pl->row_bytes;
  s->asymptotic_intensity = den > 0 ? (pl->lin_flops + pl->act_flops + pl->attn_flops_t * Te) / den : 0;
  s->mem_bytes = cfg->mem_bytes;
  s->tp = (int32_t)pl->n;
  s->pp = (int32_t)pl->pp;
  s->ep = (int32_t)pl->ep;
  if (pl->pp > 1) {
    /* per device: the largest stage's weights */
    s->weights_bytes = 0;
    for (double i = 0; i < pl->pp; i++) {
      plan st;
      stage_plan(pl, i, &st);
      if (st.w_resident > s->weights_bytes) s->weights_bytes = st.w_resident;
    }
  }
  if (cfg->mem_bytes > 0 && (pl->pp > 1 || pl->dp > 1)) {
    double fit = fit_batch(pl, T, cfg->mem_bytes);
    s->weights_fit = fit >= 0;
    s->max_batch = fit < 0 ? 0 : (fit == HUGE_VAL ? -1 : fit);
    s->devices_needed = ceil(pl->w_total / cfg->mem_bytes);
  } else if (cfg->mem_bytes > 0) {
    s->weights_fit = pl->w_resident <= cfg->mem_bytes;
    double left = cfg->mem_bytes - pl->w_resident;
    if (left <= 0) s->max_batch = 0;
    else if (Te * pl->kv_tok <= 0) s->max_batch = -1; /* no cache: only weights */
    else s->max_batch = floor(left / (Te * pl->kv_tok));
    s->devices_needed = ceil(pl->w_total / cfg->mem_bytes);
  } else {
    s->weights_fit = 1;
    s->max_batch = -1;
    s->devices_needed = 0;
  }
  if (cfg->mem_bytes > 0 && !s->weights_fit) {
    int which;
    double n = degree_needed(pl, cfg, cfg->mem_bytes, roof, 0, 0, &which);
    if (which) s->ep_needed = n; else s->tp_needed = n;
  }
}

rl_status rl_model_weight_bytes(const rl_model *m, double *out, rl_error *err) {
  if (!m || !out) return rli_fail(err, RL_EINVAL, "no model or result");
  rl_infer_cfg cfg = rl_infer_cfg_init();
  plan pl;
  TRY(make_plan(m, &cfg, &pl, err));
  *out = pl.w_total;
  return RL_OK;
}

rl_status rl_decode(const rl_model *m, const rl_infer_cfg *cfg, const rl_roof *roof,
                    const double *batches, int32_t n, rl_decode_row *rows,
                    rl_decode_summary *sum, rl_error *err) {
  if (!m || !cfg) return rli_fail(err, RL_EINVAL, "no model or configuration");
  TRY(check_roof(roof, err));
  TRY(check_context(cfg->context, err));
  if (n < 0 || (n > 0 && (!batches || !rows))) return rli_fail(err, RL_EINVAL, "no batch sizes or rows");
  for (int32_t i = 0; i < n; i++) {
    TRY(rli_check_max(batches[i], 1e12, "batch", err));
    if (!isfinite(batches[i]) || batches[i] < 1 || batches[i] != floor(batches[i]))
      return rli_fail(err, RL_EINVAL, "batch must be a whole number of sequences >= 1 (got %g)", batches[i]);
  }
  plan pl;
  TRY(make_plan(m, cfg, &pl, err));
  for (int32_t i = 0; i < n; i++) {
    rl_decode_row *r = &rows[i];
    decode_step(&pl, cfg, roof, batches[i], cfg->context, r);
    r->tp_fit = r->ep_fit = 0;
    if (!r->fits) {
      int which;
      double d = degree_needed(&pl, cfg, cfg->mem_bytes, roof, batches[i], cfg->context, &which);
      if (which) r->ep_fit = d; else r->tp_fit = d;
    }
    const double v[] = {r->flops, r->bytes, r->intensity, r->compute_time_s, r->memory_time_s, r->comm_time_s,
                        r->step_time_s, r->tokens_per_s, r->tokens_per_s_per_seq, r->memory_bytes,
                        r->p2p_time_s, r->a2a_time_s, r->stage_time_max_s};
    TRY(rli_check_finite(v, sizeof v / sizeof v[0], err,
                         "batch %g, context %g, peak %g FLOP/s, bandwidth %g B/s, link %g B/s", batches[i],
                         cfg->context, roof->peak, roof->bandwidth, cfg->link_bw));
  }
  if (sum) summarize(&pl, cfg, roof, cfg->context, sum);
  return RL_OK;
}

/* ---- op tables: a prefill and one decode step ----------------------------- */

typedef struct acc {
  rl_prefill_op *ops;
  int32_t cap, n;
  double flops, bytes, time, compute_time, cb_time;
  const rl_roof *roof;
  double tp;
} acc;

/* rl_op_cost; a linear op over a fractional number of tokens (the tokens a
 * routed expert sees in a decode step, in expectation) costs the affine
 * interpolation between the whole counts around it, which is exact: a
 * linear's FLOPs and bytes are affine in its tokens */
static rl_status op_cost(const rl_op *op, rl_cost *c, rl_error *err) {
  if (op->kind != RL_OP_LINEAR || op->m == floor(op->m) || !(op->m > 1)) return rl_op_cost(op, c, err);
  rl_op lo = *op, hi = *op;
  lo.m = floor(op->m);
  hi.m = lo.m + 1;
  rl_cost a, b;
  TRY(rl_op_cost(&lo, &a, err));
  TRY(rl_op_cost(&hi, &b, err));
  double f = op->m - lo.m;
  *c = a;
  c->flops = a.flops + f * (b.flops - a.flops);
  c->bytes = a.bytes + f * (b.bytes - a.bytes);
  c->intensity = c->bytes > 0 ? c->flops / c->bytes : 0;
  return RL_OK;
}

/* One row of the table: F FLOPs and Q bytes in all (per device), bounded
 * by the roofline on its own. */
static void add_row(acc *a, const char *name, double count, double F, double Q) {
  double tc = F / a->roof->peak, tm = Q / a->roof->bandwidth;
  double t = tc > tm ? tc : tm;
  a->flops += F;
  a->bytes += Q;
  a->time += t;
  a->compute_time += tc;
  if (tc > tm) a->cb_time += t;
  if (a->ops && a->n < a->cap) {
    rl_prefill_op *o = &a->ops[a->n];
    memset(o, 0, sizeof *o);
    rli_strlcpy(o->name, name, sizeof o->name);
    o->count = count;
    o->flops = F;
    o->bytes = Q;
    o->intensity = Q > 0 ? F / Q : 0;
    o->time_s = t;
    o->bound = tc > tm ? RL_BOUND_COMPUTE : RL_BOUND_MEMORY;
  }
  a->n++;
}

/* count ops of one kind; `extra` bytes each on top of the op's own traffic
 * (quantization scales) */
static rl_status add_op(acc *a, const char *name, const rl_op *op, double count, double extra,
                        rl_error *err) {
  rl_cost c;
  TRY(op_cost(op, &c, err));
  add_row(a, name, count, c.flops * count / a->tp, (c.bytes + extra) * count / a->tp);
  return RL_OK;
}

static rl_op linear(double tokens, double d_in, double d_out, int32_t ad, int32_t wd) {
  rl_op op = rl_op_init(RL_OP_LINEAR, ad);
  op.weight_dtype = wd;
  op.m = tokens;
  op.k = d_in;
  op.n = d_out;
  return op;
}

/* add_op for a linear op with a bias of n_out (rl_model.bias == 1): 2
 * FLOPs a bias element per token and the bias read, the step's count of
 * its parameters (2 per parameter: plan_weights' one_ff) */
static rl_status add_linear(acc *a, const plan *pl, const rl_model *m, const char *name, const rl_op *op,
                            double count, double extra, rl_error *err) {
  rl_cost c;
  TRY(op_cost(op, &c, err));
  double bf = 0, bq = 0;
  if (m->bias == 1) {
    bf = 2 * op->m * op->n;
    bq = op->n * pl->s_w;
  }
  add_row(a, name, count, (c.flops + bf) * count / a->tp, (c.bytes + extra + bq) * count / a->tp);
  return RL_OK;
}

/* The scale bytes of a d_in x d_out matrix: the routed experts' in their
 * block format (pl->exp_fmt; `routed`), any other's quantization scales. */
static double matrix_scales(const plan *pl, int routed, double d_in, double d_out) {
  if (routed && pl->exp_fmt != RL_WFMT_DTYPE)
    return rl_wfmt_matrix_bytes(pl->exp_fmt, d_in, d_out) - d_in * d_out * rl_dtype_bytes(rl_wfmt_dtype(pl->exp_fmt));
  return scales(pl, d_in, d_out) * pl->group_bytes;
}

/* gate+up (or up), the activation and down of `count` MLPs of width ff,
 * each over `tokens` tokens (with their biases: a mixture of experts' too,
 * gpt-oss'); `routed`: routed experts, their matrices in pl->exp_fmt when
 * set (expert_mlp_bytes) */
static rl_status add_mlp(acc *a, const plan *pl, const rl_model *m, const char *what, double tokens, double ff,
                         double count, int32_t ad, int32_t wd, int routed, rl_error *err) {
  int gated = m->mlp == RL_MLP_GATED;
  double d = m->d_model;
  char label[RL_LABEL_MAX];
  if (routed && pl->exp_fmt != RL_WFMT_DTYPE) wd = rl_wfmt_dtype(pl->exp_fmt);
  rl_op op = linear(tokens, d, (gated ? 2 : 1) * ff, ad, wd);
  snprintf(label, sizeof label, "%s %s", what, gated ? "gate+up" : "up");
  TRY(add_linear(a, pl, m, label, &op, count, (gated ? 2 : 1) * matrix_scales(pl, routed, d, ff), err));
  /* the activation in one kernel: rl_model_act_flops per element (for a
   * gated MLP act(gate) x up, Shazeer 2020); gated: gate and up read, the
   * product written; plain: read and written */
  op = rl_op_init(RL_OP_KERNEL, ad);
  op.flops = rl_model_act_flops(m) * tokens * ff;
  op.bytes = (gated ? 3 : 2) * tokens * ff * pl->s_a;
  snprintf(label, sizeof label, "%s activation (%s)", what, rl_model_act_name(m));
  TRY(add_op(a, label, &op, count, 0, err));
  op = linear(tokens, ff, d, ad, wd);
  snprintf(label, sizeof label, "%s down", what);
  return add_linear(a, pl, m, label, &op, count, matrix_scales(pl, routed, ff, d), err);
}

/* The projections before attention, over `tok` tokens in every layer: QKV,
 * or for latent attention the query's and the latent's down and up
 * projections. */
static rl_status add_projections(acc *a, const plan *pl, double tok, int32_t ad, int32_t wd, rl_error *err) {
  const rl_model *m = &pl->m;
  double L = m->layers, d = m->d_model, H = m->heads, Hkv = m->kv_heads, dh = m->head_dim, gb = pl->group_bytes;
  rl_op op;
  if (m->kv_lora_rank > 0) {
    double r = m->kv_lora_rank, rq = m->q_lora_rank, dqk = m->nope_dim + m->rope_dim, dv = m->v_head_dim;
    if (rq > 0) {
      op = linear(tok, d, rq, ad, wd);
      TRY(add_op(a, "q down projection (latent)", &op, L, scales(pl, d, rq) * gb, err));
      op = linear(tok, rq, H * dqk, ad, wd);
      TRY(add_op(a, "q up projection", &op, L, scales(pl, rq, H * dqk) * gb, err));
    } else {
      op = linear(tok, d, H * dqk, ad, wd);
      TRY(add_op(a, "q projection", &op, L, scales(pl, d, H * dqk) * gb, err));
    }
    op = linear(tok, d, r + m->rope_dim, ad, wd);
    TRY(add_op(a, "kv down projection (latent + rope key)", &op, L, scales(pl, d, r + m->rope_dim) * gb, err));
    op = linear(tok, r, H * (m->nope_dim + dv), ad, wd);
    return add_op(a, "kv up projection", &op, L, scales(pl, r, H * (m->nope_dim + dv)) * gb, err);
  }
  op = linear(tok, d, (H + 2 * Hkv) * dh, ad, wd);
  return add_op(a, "qkv projection", &op, L, (scales(pl, d, H * dh) + 2 * scales(pl, d, Hkv * dh)) * gb, err);
}

/* What follows attention in every layer, over `tok` tokens: the output
 * projection, the MLP (a mixture of experts: the dense layers' MLP,
 * `routed_n` routed experts of each MoE layer over `routed_tok` tokens
 * each, and the shared experts), the norms and the residual adds. */
static rl_status add_after_attention(acc *a, const plan *pl, double tok, double routed_tok, double routed_n,
                                     int32_t ad, int32_t wd, rl_error *err) {
  const rl_model *m = &pl->m;
  double L = m->layers, d = m->d_model;
  double ho = m->kv_lora_rank > 0 ? m->heads * m->v_head_dim : m->heads * m->head_dim;
  rl_op op = linear(tok, ho, d, ad, wd);
  TRY(add_op(a, "output projection", &op, L, scales(pl, ho, d) * pl->group_bytes, err));
  if (m->experts > 0) {
    double dl = m->dense_layers, ml = L - dl;
    if (dl > 0) TRY(add_mlp(a, pl, m, "dense mlp", tok, m->dense_d_ff > 0 ? m->dense_d_ff : m->d_ff, dl, ad, wd, 0, err));
    /* the router: a d x E linear, left in the model's format by weight-only
     * quantization */
    op = linear(tok, d, m->experts, ad, pl->quant ? m->dtype : wd);
    TRY(add_op(a, "router", &op, ml, 0, err));
    /* expert parallelism: the device's own whole experts, not a 1/tp slice */
    double div = a->tp;
    if (pl->ep > 1) a->tp = 1;
    rl_status st = add_mlp(a, pl, m, "expert mlp", routed_tok, m->d_ff, ml * routed_n, ad, wd, 1, err);
    a->tp = div;
    TRY(st);
    if (m->shared_experts > 0)
      TRY(add_mlp(a, pl, m, "shared expert mlp", tok, m->d_ff, ml * m->shared_experts, ad, wd, 0, err));
  } else {
    TRY(add_mlp(a, pl, m, "mlp", tok, m->d_ff, L, ad, wd, 0, err));
  }
  op = rl_op_init(m->norm == RL_NORM_RMS ? RL_OP_RMSNORM : RL_OP_LAYERNORM, ad);
  op.m = tok;
  op.n = d;
  TRY(add_op(a, "norms", &op, m->norms_per_layer * L, 0, err));
  op = rl_op_init(RL_OP_ADD, ad);
  op.n = tok * d;
  return add_op(a, "residual adds", &op, 2 * L, 0, err);
}

/* A model given by its count: all its weights as one linear of 2N FLOPs
 * per token, the weights read once. */
static rl_status add_counted(acc *a, const plan *pl, double tok, int32_t ad, rl_error *err) {
  rl_op op = rl_op_init(RL_OP_KERNEL, ad);
  op.flops = 2 * pl->p.total * tok;
  op.bytes = pl->w_resident * pl->n + 2 * tok * pl->d * pl->s_a * pl->m.layers;
  return add_op(a, "linear layers (2N FLOPs/token)", &op, 1, 0, err);
}

/* The ops of pl's layers (the whole model, or one stage) for b prompts of
 * p tokens per attention replica (b_all in all, which the experts see),
 * added to a. */
static rl_status prefill_pass(acc *a, const plan *pl, const rl_infer_cfg *cfg, double b, double b_all, double p,
                              rl_error *err) {
  const rl_model *m = &pl->m;
  int32_t wd = cfg->weight_dtype < 0 ? m->dtype : cfg->weight_dtype;
  int32_t ad = cfg->act_dtype < 0 ? m->dtype : cfg->act_dtype;
  double L = m->layers, d = m->d_model, H = m->heads, Hkv = m->kv_heads, dh = m->head_dim;
  double tok = b * p;
  rl_op op;
  int mla = m->kv_lora_rank > 0;
  double dqk = m->nope_dim + m->rope_dim, dv = m->v_head_dim;
  if (pl->p.derived) TRY(add_projections(a, pl, tok, ad, wd, err));
  /* attention: the full layers as one op; the windowed layers see at most
   * W keys per query (pairs: sum over queries of min(i, W), halved as the
   * causal convention halves T^2) */
  int fused = cfg->attention_impl != RL_ATTN_IMPL_NAIVE;
  double Lw = m->window > 0 ? m->window_layers : 0, Lf = L - Lw;
  const char *impl = rl_attn_impl_name(fused ? RL_ATTN_IMPL_FUSED : RL_ATTN_IMPL_NAIVE);
  char label[RL_LABEL_MAX];
  if (mla) {
    /* latent attention, prefill in the expanded form: the kv up projection
     * (an op above) decompresses K (nope part; the rope key is shared by the
     * heads) and V per head, then attention runs as multi-head attention
     * over d_qk = nope + rope and d_v per head. Serving engines take this
     * "compute friendly" path for prefill and the absorbed one for decode
     * (vLLM, vllm/attention/backends/mla/common.py; DeepSeek-V2, DeepSeek-AI
     * 2024, section 2.1.2): per score and head 2 (d_qk + d_v) FLOPs instead
     * of the absorbed 2 (2r + r_rope) (DeepSeek-V3: 640 vs 2176) */
    double pairs = p * p * (cfg->causal ? 0.5 : 1.0);
    op = rl_op_init(RL_OP_KERNEL, ad);
    op.flops = b * H * (2 * pairs * dqk + 2 * pairs * dv + 5 * pairs);
    op.bytes = b * pl->s_a * H * p * (2 * dqk + 2 * dv) + (fused ? 0 : b * pl->s_a * H * 4 * p * p);
    snprintf(label, sizeof label, "attention (latent, %s%s)", impl, cfg->causal ? ", causal" : "");
    TRY(add_op(a, label, &op, L, 0, err));
  } else {
    if (Lf > 0) {
      op = rl_op_init(RL_OP_ATTENTION, ad);
      op.seq = p;
      op.head_dim = dh;
      op.heads = H;
      op.kv_heads = Hkv;
      op.batch = b;
      op.flags = (fused ? RL_OP_FUSED : 0) | (cfg->causal ? RL_OP_CAUSAL : 0);
      snprintf(label, sizeof label, "attention (%s%s)", impl, cfg->causal ? ", causal" : "");
      TRY(add_op(a, label, &op, Lf, 0, err));
    }
    if (Lw > 0) {
      double W = m->window, kv = p < W ? p : W;
      double pairs = cfg->causal ? (p <= W ? p * p / 2 : W * W / 2 + (p - W) * W) : p * kv;
      op = rl_op_init(RL_OP_KERNEL, ad);
      op.flops = b * H * (4 * pairs * dh + 5 * pairs);
      op.bytes = b * pl->s_a * (2 * H * p * dh + 2 * Hkv * p * dh) + (fused ? 0 : b * pl->s_a * H * 4 * p * kv);
      snprintf(label, sizeof label, "attention (window %.0f, %s)", W, impl);
      TRY(add_op(a, label, &op, Lw, 0, err));
    }
  }
  if (pl->p.derived) {
    /* every routed expert sees b_all p k / E tokens (uniform routing);
     * with expert parallelism a device holds E / ep whole experts */
    double E = m->experts, et = E > 0 ? ceil(b_all * p * m->experts_active / E) : 0;
    TRY(add_after_attention(a, pl, tok, et, pl->e_local, ad, wd, err));
    if (pl->last) {
      op = linear(b, d, m->vocab, ad, pl->keep_dtype);
      TRY(add_op(a, "output layer (last token)", &op, 1,
                 cfg->quantize_all ? scales(pl, d, m->vocab) * pl->group_bytes : 0, err));
    }
  } else {
    TRY(add_counted(a, pl, tok, ad, err));
  }
  return RL_OK;
}

/* One stage's time for a micro-batch of x prompts of p tokens: its ops'
 * bounds and its communication (*comm, of which *a2a all-to-alls); the
 * send to the next stage is the caller's. */
static rl_status stage_prefill(const plan *st, const rl_infer_cfg *cfg, const rl_roof *roof, double x, double p,
                               double *t, double *comm, double *a2a, rl_error *err) {
  acc a = {NULL, 0, 0, 0, 0, 0, 0, 0, roof, st->n};
  double xd = per_replica(st, x);
  TRY(prefill_pass(&a, st, cfg, xd, x, p, err));
  *comm = layer_comm(st, cfg, xd * p, a2a);
  *t = a.time + *comm;
  return RL_OK;
}

/* The prefill over the pipeline: b prompts in m micro-batches (GPipe,
 * Huang et al. 2019), each crossing the stages in turn; stage s takes t_s
 * (its ops, its communication, the send to the next stage) for a
 * micro-batch, and works on one micro-batch at a time. The time to first
 * token is the flow shop's makespan, C(j, s) = max(C(j-1, s), C(j, s-1))
 * + t_s(j); with m equal micro-batches it is sum_s t_s + (m-1) max_s t_s,
 * and with equal stages (m + p - 1) t, idle a share (p-1)/(m+p-1) of the
 * time (the bubble; GPipe §2.2). bubble_fraction = 1 - busy / (p x TTFT).
 * comm, p2p and a2a: along the first micro-batch's path. */
static rl_status prefill_pipeline(const plan *pl, const rl_infer_cfg *cfg, const rl_roof *roof, double b, double p,
                                  rl_prefill_result *out, rl_error *err) {
  double xb, nb, m = microbatches(pl, cfg, b, &xb, &nb);
  double tb[RL_MAX_STAGES], ts[RL_MAX_STAGES], C[RL_MAX_STAGES];
  int np = (int)pl->pp;
  double comm = 0, p2p = 0, a2a = 0, busy = 0, tmax = 0;
  for (int s = 0; s < np; s++) {
    plan st;
    stage_plan(pl, s, &st);
    double c, x2, send = s < np - 1 ? p2p_time(pl, cfg, per_replica(pl, xb) * p) : 0;
    TRY(stage_prefill(&st, cfg, roof, xb, p, &tb[s], &c, &x2, err));
    tb[s] += send;
    comm += c + send;
    p2p += send;
    a2a += x2;
    ts[s] = 0;
    if (nb < m) {
      TRY(stage_prefill(&st, cfg, roof, xb - 1, p, &ts[s], &c, &x2, err));
      ts[s] += s < np - 1 ? p2p_time(pl, cfg, per_replica(pl, xb - 1) * p) : 0;
    }
    busy += nb * tb[s] + (m - nb) * ts[s];
    if (tb[s] > tmax) tmax = tb[s];
    C[s] = 0;
  }
  for (double j = 0; j < m; j++) {
    const double *t = j < nb ? tb : ts;
    C[0] += t[0];
    for (int s = 1; s < np; s++) C[s] = (C[s] > C[s - 1] ? C[s] : C[s - 1]) + t[s];
  }
  out->ttft_s = C[np - 1];
  out->comm_time_s = comm;
  out->p2p_time_s = p2p;
  out->a2a_time_s = a2a;
  out->microbatches = m;
  out->stage_time_max_s = tmax;
  out->bubble_fraction = 1 - busy / (np * out->ttft_s);
  return RL_OK;
}

rl_status rl_prefill(const rl_model *m0, const rl_infer_cfg *cfg, const rl_roof *roof,
                     rl_prefill_op *ops, int32_t cap, rl_prefill_result *out, rl_error *err) {
  if (!m0 || !cfg || !out) return rli_fail(err, RL_EINVAL, "no model, configuration or result");
  TRY(check_roof(roof, err));
  double p = cfg->context;
  TRY(rli_check_max(p, 1e9, "prompt", err));
  TRY(rli_check_max(cfg->batch, 1e9, "batch", err));
  TRY(rli_check_max(cfg->new_tokens, 1e7, "new tokens", err));
  if (!isfinite(p) || p < 1 || p != floor(p) || p > 1e9)
    return rli_fail(err, RL_EINVAL, "prompt must be a whole number of tokens >= 1 (got %g)", p);
  double b = cfg->batch == 0 ? 1 : cfg->batch;
  if (!isfinite(b) || b < 1 || b != floor(b) || b > 1e9)
    return rli_fail(err, RL_EINVAL, "batch must be a whole number of sequences >= 1 (got %g)", cfg->batch);
  double nt = cfg->new_tokens;
  if (!isfinite(nt) || nt < 0 || nt != floor(nt) || nt > 1e7)
    return rli_fail(err, RL_EINVAL, "new tokens must be a whole number >= 0 and <= 1e7 (got %g)", nt);
  if (cap < 0) return rli_fail(err, RL_EINVAL, "negative capacity");
  plan pl;
  TRY(make_plan(m0, cfg, &pl, err));
  double L = pl.m.layers, d = pl.d, bd = per_replica(&pl, b), tok = b * p;
  acc a = {ops, cap, 0, 0, 0, 0, 0, 0, roof, pl.n};
  TRY(prefill_pass(&a, &pl, cfg, bd, b, p, err));
  memset(out, 0, sizeof *out);
  out->tokens = tok;
  out->flops = a.flops;
  out->bytes = a.bytes;
  out->compute_time_s = a.compute_time;
  if (pl.ep <= 1) out->comm_time_s = 2 * L * allreduce_time(tok * d * pl.s_a, pl.n, cfg->link_bw, cfg->comm_latency_s);
  else out->comm_time_s = layer_comm(&pl, cfg, bd * p, &out->a2a_time_s);
  out->ttft_s = a.time + out->comm_time_s;
  if (pl.pp <= 1 && out->comm_time_s > 0) {
    /* the all-reduces (and all-to-alls) get their row, so that the rows add
     * up to the time to first token, as rl_decode_ops' do to a step */
    if (ops && a.n < cap) {
      rl_prefill_op *o = &ops[a.n];
      memset(o, 0, sizeof *o);
      if (pl.ep > 1) snprintf(o->name, sizeof o->name, "all-reduces, all-to-alls (tp %.0f, ep %.0f)", pl.n, pl.ep);
      else snprintf(o->name, sizeof o->name, "all-reduce (tp %.0f)", pl.n);
      o->count = 2 * L;
      if (pl.ep <= 1) o->bytes = 2 * L * 2 * (pl.n - 1) / pl.n * tok * d * pl.s_a;
      o->time_s = out->comm_time_s;
      o->bound = RL_BOUND_NETWORK;
    }
    a.n++;
  }
  out->microbatches = 1;
  out->stage_time_max_s = out->ttft_s;
  if (pl.pp > 1) TRY(prefill_pipeline(&pl, cfg, roof, b, p, out, err));
  out->compute_bound_fraction = a.time > 0 ? a.cb_time / a.time : 0;
  out->tokens_per_s = tok / out->ttft_s;
  /* the prefill yields the first new token; the others take a decode step
   * each, at contexts p+1 .. p+n-1 */
  double dec = 0;
  for (double i = 1; i < nt; i++) {
    rl_decode_row row;
    decode_step(&pl, cfg, roof, b, p + i, &row);
    dec += row.step_time_s;
  }
  out->decode_time_s = dec;
  out->e2e_time_s = out->ttft_s + dec;
  double T = ctx_eff(&pl, p + nt);
  out->memory_bytes = pl.w_resident + bd * T * pl.kv_tok;
  out->weights_bytes = pl.w_resident;
  for (double s = 0; pl.pp > 1 && s < pl.pp; s++) {
    plan st;
    stage_plan(&pl, s, &st);
    if (s == 0 || st.w_resident + bd * T * st.kv_tok > out->memory_bytes) out->memory_bytes = st.w_resident + bd * T * st.kv_tok;
    if (s == 0 || st.w_resident > out->weights_bytes) out->weights_bytes = st.w_resident;
  }
  out->fits = cfg->mem_bytes <= 0 || out->memory_bytes <= cfg->mem_bytes;
  out->mem_bytes = cfg->mem_bytes;
  out->pp = (int32_t)pl.pp;
  out->ep = (int32_t)pl.ep;
  out->n_ops = a.n < cap ? a.n : cap;
  if (!ops) out->n_ops = a.n;
  const double v[] = {out->flops, out->bytes, out->compute_time_s, out->comm_time_s, out->ttft_s,
                      out->compute_bound_fraction, out->tokens_per_s, out->decode_time_s, out->e2e_time_s,
                      out->memory_bytes, out->bubble_fraction, out->stage_time_max_s, out->p2p_time_s,
                      out->a2a_time_s};
  return rli_check_finite(v, sizeof v / sizeof v[0], err,
                          "prompt %g, batch %g, peak %g FLOP/s, bandwidth %g B/s, link %g B/s", p, b, roof->peak,
                          roof->bandwidth, cfg->link_bw);
}

/* One decode step op by op: the same ops as a prefill over the step's B
 * tokens (src/core/ops.c's costs), with attention over the KV cache and the
 * embedding lookup in place of the prompt's attention. */
rl_status rl_decode_ops(const rl_model *m0, const rl_infer_cfg *cfg, const rl_roof *roof, double batch,
                        rl_prefill_op *ops, int32_t cap, int32_t *n_ops, rl_error *err) {
  if (!m0 || !cfg || !n_ops) return rli_fail(err, RL_EINVAL, "no model, configuration or result");
  TRY(check_roof(roof, err));
  TRY(check_context(cfg->context, err));
  TRY(rli_check_max(batch, 1e12, "batch", err));
  if (!isfinite(batch) || batch < 1 || batch != floor(batch))
    return rli_fail(err, RL_EINVAL, "batch must be a whole number of sequences >= 1 (got %g)", batch);
  if (cap < 0) return rli_fail(err, RL_EINVAL, "negative capacity");
  plan pl;
  TRY(make_plan(m0, cfg, &pl, err));
  const rl_model *m = &pl.m;
  int32_t wd = cfg->weight_dtype < 0 ? m->dtype : cfg->weight_dtype;
  int32_t ad = cfg->act_dtype < 0 ? m->dtype : cfg->act_dtype;
  if (pl.pp > 1)
    return rli_fail(err, RL_EINVAL, "the op table of a decode step is one pipeline stage's; give it without pp (got pp %g)",
                    pl.pp);
  /* with expert parallelism the attention replica's B/dp sequences; the
   * routed experts see every sequence's tokens */
  double Ball = batch, B = per_replica(&pl, batch), T = cfg->context, L = m->layers, d = m->d_model, H = m->heads,
         n = pl.n;
  acc a = {ops, cap, 0, 0, 0, 0, 0, 0, roof, n};
  rl_op op;
  char label[RL_LABEL_MAX];
  if (pl.p.derived && pl.p.embedding > 0) {
    if (cfg->embedding == RL_EMBED_FULL) {
      /* the convention of counting every weight: the table read whole and
       * 2 FLOPs per parameter */
      op = rl_op_init(RL_OP_KERNEL, ad);
      op.flops = 2 * B * pl.p.embedding;
      op.bytes = pl.emb_bytes * n;
      TRY(add_op(&a, "embedding (whole table)", &op, 1, 0, err));
    } else {
      /* B rows gathered (a position row too with learned positions), with
       * their scales when the table is quantized */
      double rows = m->vocab + (m->learned_pos ? m->max_seq : 0);
      double row_extra = pl.emb_bytes * n / rows - d * pl.s_keep;
      op = rl_op_init(RL_OP_EMBEDDING, ad);
      op.weight_dtype = pl.keep_dtype;
      op.m = B;
      op.n = d;
      TRY(add_op(&a, m->learned_pos ? "embedding (token and position rows)" : "embedding (rows gathered)", &op,
                 1 + m->learned_pos, row_extra > 0 ? B * row_extra : 0, err));
    }
  }
  if (pl.p.derived) TRY(add_projections(&a, &pl, B, ad, wd, err));
  if (T > 0) {
    /* each new token's query against the T cached tokens of its sequence
     * (the windowed layers: at most W of them): the step's attention FLOPs
     * (rl_decode: 4 H d_h, or for latent attention 2 H (2r + r_rope), per
     * context token) + the softmax's 5 per score, as src/core/ops.c counts
     * it; the cache read once (KV heads split over min(tp, H_kv) devices,
     * the latent whole on each), the query read and the output written */
    int mla = m->kv_lora_rank > 0;
    double f_tok = pl.attn_flops_t * n / L + 5 * H;      /* per context token and layer */
    double kv_tok = pl.kv_tok_all / L * n / pl.n_kv;     /* bytes, all devices' share x n */
    double qo = mla ? H * (2 * m->kv_lora_rank + m->rope_dim) : 2 * H * m->head_dim;
    double Lw = m->window > 0 && T > m->window ? m->window_layers : 0;
    double groups[2][2] = {{L - Lw, T}, {Lw, m->window}};
    for (int g = 0; g < 2; g++) {
      if (!(groups[g][0] > 0)) continue;
      double Tg = groups[g][1];
      op = rl_op_init(RL_OP_KERNEL, ad);
      op.flops = B * f_tok * Tg;
      op.bytes = B * (Tg * kv_tok + qo * pl.s_a);
      if (g == 1) snprintf(label, sizeof label, "attention (window %.0f of %.0f cached)", m->window, T);
      else snprintf(label, sizeof label, "attention (%s%.0f cached tokens)", mla ? "latent, " : "", T);
      TRY(add_op(&a, label, &op, groups[g][0], 0, err));
    }
  }
  if (pl.p.derived) {
    /* an MoE layer runs the experts the batch routes to, as rl_decode
     * reads them (experts_read): without expert parallelism the
     * E (1 - (1 - k/E)^B) of uniform routing, each over B k / that many
     * tokens; with it the busiest device's ceil(min(E, B k) / ep) under
     * balanced routing, each over B k / min(E, B k) tokens */
    double E = m->experts, k = m->experts_active;
    double mine = experts_read(&pl, Ball); /* on this device */
    double touched = pl.ep > 1 ? (Ball * k < E ? Ball * k : E) : mine;
    TRY(add_after_attention(&a, &pl, B, touched > 0 ? Ball * k / touched : 0, mine, ad, wd, err));
    op = linear(B, d, m->vocab, ad, pl.keep_dtype);
    TRY(add_op(&a, "output layer (lm_head)", &op, 1,
               cfg->quantize_all ? scales(&pl, d, m->vocab) * pl.group_bytes : 0, err));
  } else {
    TRY(add_counted(&a, &pl, B, ad, err));
  }
  if (pl.ep > 1) {
    /* expert parallelism: the all-reduces, all-to-alls and re-gathers as
     * rl_decode adds them (layer_comm) */
    double a2a, t = layer_comm(&pl, cfg, B, &a2a);
    if (a.ops && a.n < a.cap) {
      rl_prefill_op *o = &a.ops[a.n];
      memset(o, 0, sizeof *o);
      snprintf(o->name, sizeof o->name, "all-reduces, all-to-alls (tp %.0f, ep %.0f)", n, pl.ep);
      o->count = 2 * L;
      o->time_s = t;
      o->bound = RL_BOUND_NETWORK;
    }
    a.n++;
    a.time += t;
  } else if (n > 1) {
    /* the tensor-parallel all-reduces, as rl_decode adds them: 2 a layer of
     * B d activations, ring (2(n-1)/n of them cross each device's link) */
    double S = B * d * pl.s_a;
    double t = 2 * L * allreduce_time(S, n, cfg->link_bw, cfg->comm_latency_s);
    if (a.ops && a.n < a.cap) {
      rl_prefill_op *o = &a.ops[a.n];
      memset(o, 0, sizeof *o);
      snprintf(o->name, sizeof o->name, "all-reduce (tp %.0f)", n);
      o->count = 2 * L;
      o->bytes = 2 * L * 2 * (n - 1) / n * S;
      o->time_s = t;
      o->bound = RL_BOUND_NETWORK;
    }
    a.n++;
    a.time += t;
  }
  *n_ops = ops && a.n > cap ? cap : a.n;
  const double v[] = {a.flops, a.bytes, a.time};
  return rli_check_finite(v, sizeof v / sizeof v[0], err, "batch %g, context %g, peak %g FLOP/s, bandwidth %g B/s",
                          B, T, roof->peak, roof->bandwidth);
}

/* ---- the planner ----------------------------------------------------------- */

const char *rl_plan_limit_name(int32_t limit) {
  static const char *const names[] = {"capacity", "ttft", "tpot", "search limit", "weights", "prefill"};
  return limit >= 0 && limit <= RL_LIMIT_PREFILL ? names[limit] : NULL;
}

typedef struct plan_eval {
  int fits, ttft_ok, tpot_ok;
  double ttft, tpot, memory, microbatches;
  int32_t bound;
} plan_eval;

/* The prefill of B prompts and the last decode step at B, as rl_prefill
 * and rl_decode compute them. */
static rl_status plan_at(const rl_model *m, const rl_infer_cfg *cfg, const rl_roof *roof,
                         const rl_plan_cfg *pc, double B, plan_eval *ev, rl_error *err) {
  rl_infer_cfg c = *cfg;
  c.context = pc->prompt;
  c.batch = B;
  c.new_tokens = 0;
  rl_prefill_result pr;
  TRY(rl_prefill(m, &c, roof, NULL, 0, &pr, err));
  c.context = pc->prompt + pc->gen;
  rl_decode_row row;
  TRY(rl_decode(m, &c, roof, &B, 1, &row, NULL, err));
  ev->ttft = pr.ttft_s;
  ev->tpot = row.step_time_s;
  ev->memory = row.memory_bytes;
  ev->bound = row.bound;
  ev->fits = row.fits;
  ev->microbatches = row.microbatches;
  ev->ttft_ok = pc->ttft_s <= 0 || pr.ttft_s <= pc->ttft_s;
  ev->tpot_ok = pc->tpot_s <= 0 || row.step_time_s <= pc->tpot_s;
  return RL_OK;
}

static int plan_ok(const plan_eval *e) { return e->fits && e->ttft_ok && e->tpot_ok; }

static int32_t plan_why(const plan_eval *e) {
  return !e->fits ? RL_LIMIT_CAPACITY : !e->ttft_ok ? RL_LIMIT_TTFT : RL_LIMIT_TPOT;
}

/* ---- continuous batching ------------------------------------------------- */

/* Query-key pairs of a prefill chunk of c tokens after `off` cached ones,
 * causal, in the c^2/2 convention of the prefill (rl_prefill: p^2/2 for a
 * whole prompt); W > 0: a windowed layer, each query sees at most W keys
 * (the chunks of one prompt add up to the prefill's pairs). */
static double chunk_pairs(double c, double off, double W) {
  if (W <= 0 || off + c <= W) return c * off + c * c / 2;
  if (off >= W) return c * W;
  double k = W - off; /* the queries still below the window */
  return k * off + k * k / 2 + (c - k) * W;
}

typedef struct mixed {
  double t, flops, bytes, comm;
  int32_t bound;
} mixed;

/* A step's prefill: c tokens (at most the chunk C), their query-key pairs
 * in the full and in the windowed layers, and the cached prefix their
 * attention reads (in tokens). For one chunk of a prompt these are its
 * own; for the mean step of the steady state, c_avg / P of a prompt's sums
 * over its chunks of C (the fewest prefix reads: larger chunks are not
 * allowed, smaller ones read the prefix more often). */
typedef struct chunkwork {
  double c, C, pairs_full, pairs_win, prefix;
} chunkwork;

/* One forward pass of pl's layers (the model, or a stage) over B decode
 * tokens (per-replica shares, at the mean context T) and the prefill w:
 * one roofline, the weights read once for all B + c tokens (the reason
 * chunked prefill rides along with decode: Agrawal et al. 2024,
 * Sarathi-Serve), plus the communication of B + c tokens.
 *   F = (B + c)(linear + activation) - c x the output layer (only a
 *       prompt's last token needs it; left out, a bound) + B attention
 *       over T + the chunk's pairs (latent attention: the cheaper of the
 *       absorbed and the expanded form)
 *   Q = weights read for B + c tokens + B caches of T + the prefix once
 *       (the new K and V written: left out, as in decode). A mixture of
 *       experts' routed experts for c < C: the chord between B and B + C
 *       tokens (the count is concave in the tokens, so the mean of steps
 *       with 0..C prefill tokens is at least the chord at their mean) */
static void mixed_row(const plan *pl, const rl_infer_cfg *cfg, const rl_roof *roof, double B, double T,
                      const chunkwork *w, mixed *r) {
  const rl_model *m = &pl->m;
  double Bd = per_replica(pl, B), L = m->layers, c = w->c, tok = Bd + c;
  double lw = pl->win_frac * L, lf = L - lw;
  double pf_l = pl->attn_l;
  if (m->kv_lora_rank > 0) {
    double ex = m->heads * (2 * (m->nope_dim + m->rope_dim) + 2 * m->v_head_dim) / pl->n;
    if (ex < pf_l) pf_l = ex;
  }
  double out_tok = pl->p.derived && pl->last ? 2 * m->vocab * m->d_model / pl->n : 0;
  r->flops = tok * (pl->lin_flops + pl->act_flops) - c * out_tok + Bd * pl->attn_flops_t * ctx_eff(pl, T) +
             pf_l * (lf * w->pairs_full + lw * w->pairs_win);
  double wr = weights_read(pl, B) + c * pl->row_bytes;
  if (m->experts > 0 && c > 0 && w->C > 0)
    wr += (experts_read(pl, B + w->C) - experts_read(pl, B)) * (c < w->C ? c / w->C : 1) * pl->expert_bytes;
  r->bytes = wr + (Bd * ctx_eff(pl, T) + w->prefix) * pl->kv_tok;
  double a2a;
  r->comm = layer_comm(pl, cfg, tok, &a2a);
  double tc = r->flops / roof->peak, tm = r->bytes / roof->bandwidth;
  r->bound = tc > tm ? RL_BOUND_COMPUTE : RL_BOUND_MEMORY;
  r->t = (tc > tm ? tc : tm) + r->comm;
}

/* Micro-batches of a continuous step over a pipeline: cfg's, or one per
 * stage (vLLM's virtual engines), at most B. */
static double cb_microbatches(const plan *pl, const rl_infer_cfg *cfg, double B) {
  if (pl->pp <= 1) return 1;
  double m = cfg->microbatches > 0 ? cfg->microbatches : pl->pp;
  if (m > B) m = B;
  return m < 1 ? 1 : m;
}

/* The step over the pipeline: m micro-batches of B/m decodes and c/m
 * prefill tokens; a token waits for its micro-batch to cross every stage
 * and every stage serves all m, so the step is >= the larger of one
 * micro-batch's path and the busiest stage's round (as decode_step). */
static void mixed_step(const plan *pl, const rl_infer_cfg *cfg, const rl_roof *roof, double B, double T,
                       const chunkwork *w, mixed *r) {
  if (pl->pp <= 1) {
    mixed_row(pl, cfg, roof, B, T, w, r);
    return;
  }
  double m = cb_microbatches(pl, cfg, B), path = 0, round = 0;
  chunkwork wm = {w->c / m, w->C / m, w->pairs_full / m, w->pairs_win / m, w->prefix / m};
  memset(r, 0, sizeof *r);
  double tc = 0, tm = 0;
  for (double s = 0; s < pl->pp; s++) {
    plan st;
    stage_plan(pl, s, &st);
    mixed x;
    mixed_row(&st, cfg, roof, B / m, T, &wm, &x);
    double send = s < pl->pp - 1 ? p2p_time(pl, cfg, per_replica(pl, B / m) + wm.c) : 0;
    path += x.t + send;
    if (m * (x.t + send) > round) round = m * (x.t + send);
    r->flops += m * x.flops;
    r->bytes += m * x.bytes;
    r->comm += x.comm + send;
    tc += m * x.flops / roof->peak;
    tm += m * x.bytes / roof->bandwidth;
  }
  r->bound = tc > tm ? RL_BOUND_COMPUTE : RL_BOUND_MEMORY;
  r->t = path > round ? path : round;
}

/* KV tokens a sequence of context x holds in blocks of bs (its windowed
 * layers at most the window's), in full-attention tokens. */
static double kv_blocks(const plan *pl, double x, double bs) {
  double full = ceil(x / bs) * bs;
  if (pl->win_frac == 0) return full;
  double w = ceil((x < pl->win ? x : pl->win) / bs) * bs;
  return (1 - pl->win_frac) * full + pl->win_frac * w;
}

/* The mean over the contexts P+1 .. P+G-1 of kv_blocks: the B decoding
 * sequences of the steady state, their ages spread evenly. */
static double kv_blocks_mean(const plan *pl, double P, double G, double bs) {
  double n = G - 1, sum = 0;
  if (n <= 0) return 0;
  if (n > 1e6) { /* long generations: the mean's bound from the ends */
    return (kv_blocks(pl, P + 1, bs) + kv_blocks(pl, P + n, bs)) / 2;
  }
  for (double x = P + 1; x <= P + n; x++) sum += kv_blocks(pl, x, bs);
  return sum / n;
}

typedef struct cb_eval {
  int fits, ttft_ok, tpot_ok, prefill_ok;
  double ttft, tpot, memory, kv, act, cavg, microbatches;
  int32_t bound;
} cb_eval;

typedef struct cb_cfg {
  double P, G, C, frac, bs, reserve, kv_mean;
  double pairs_full, pairs_win, prefix; /* one prompt's, over its chunks of C */
} cb_cfg;

/* The largest activation of a step, per device: the MLP's gate and up
 * outputs (one of them for a plain MLP) of its tokens, in the activation
 * format, split over tp (the routed experts' over the devices that hold
 * them). A lower bound of what engines profile (vLLM measures its peak by
 * running a step of max_num_batched_tokens). */
static double act_bytes(const plan *pl, double tokens) {
  const rl_model *m = &pl->m;
  double g = m->mlp == RL_MLP_GATED ? 2 : 1, ff = m->d_ff;
  if (m->experts > 0) {
    double dense = m->dense_layers > 0 ? (m->dense_d_ff > 0 ? m->dense_d_ff : m->d_ff) : 0;
    double moe = (m->experts_active + m->shared_experts) * m->d_ff;
    ff = dense > moe ? dense : moe;
  }
  return tokens * g * ff / pl->n * pl->s_a;
}

/* Continuous batching at B decoding sequences (rl_plan's comment). */
static void cb_at(const plan *pl, const rl_infer_cfg *cfg, const rl_roof *roof, const rl_plan_cfg *pc,
                  const cb_cfg *k, double B, cb_eval *e) {
  memset(e, 0, sizeof *e);
  double D = k->G - 1, C = k->C;
  e->cavg = B * k->P / D;
  e->prefill_ok = e->cavg <= C * (1 + 1e-12);
  double c = e->cavg < C ? e->cavg : C, T = k->P + k->G / 2, share = c / k->P;
  chunkwork mean = {c, C, share * k->pairs_full, share * k->pairs_win, share * k->prefix};
  mixed st;
  mixed_step(pl, cfg, roof, B, T, &mean, &st);
  e->tpot = st.t;
  e->bound = st.bound;
  e->microbatches = cb_microbatches(pl, cfg, B);
  /* TTFT: the prompt's chunks, each in a step beside the B decodes, these
   * at context P + 1 at least (their mean, P + G/2, is not a bound: the
   * steps that start prompts follow the ones that end sequences) */
  double ttft = 0;
  for (double off = 0; off < k->P; off += C) {
    double cj = k->P - off < C ? k->P - off : C;
    chunkwork one = {cj, C, chunk_pairs(cj, off, 0), chunk_pairs(cj, off, pl->win), ctx_eff(pl, off)};
    mixed x;
    mixed_step(pl, cfg, roof, B, k->P + 1, &one, &x);
    ttft += x.t;
  }
  e->ttft = ttft;
  /* memory: the tightest stage's device */
  double m = e->microbatches, worst = -HUGE_VAL;
  e->fits = 1;
  for (double s = 0; s < pl->pp; s++) {
    plan sp;
    stage_plan(pl, s, &sp);
    double kv = (per_replica(pl, B) * k->kv_mean + kv_blocks(pl, k->P, k->bs)) * sp.kv_tok;
    double act = act_bytes(&sp, (per_replica(pl, B) + C) / m);
    double used = sp.w_resident + kv + act + k->reserve;
    if (used - cfg->mem_bytes * k->frac > worst) {
      worst = used - cfg->mem_bytes * k->frac;
      e->memory = used;
      e->kv = kv;
      e->act = act;
    }
    if (cfg->mem_bytes > 0 && used > cfg->mem_bytes * k->frac) e->fits = 0;
  }
  e->ttft_ok = pc->ttft_s <= 0 || e->ttft <= pc->ttft_s;
  e->tpot_ok = pc->tpot_s <= 0 || e->tpot <= pc->tpot_s;
}

static int cb_ok(const cb_eval *e) { return e->fits && e->ttft_ok && e->tpot_ok && e->prefill_ok; }

static int32_t cb_why(const cb_eval *e) {
  return !e->fits ? RL_LIMIT_CAPACITY : !e->prefill_ok ? RL_LIMIT_PREFILL : !e->ttft_ok ? RL_LIMIT_TTFT : RL_LIMIT_TPOT;
}

static void cb_row(const cb_eval *e, const cb_cfg *k, double B, double dev, rl_plan_row *out) {
  double D = k->G - 1;
  out->batch = B;
  out->ttft_s = e->ttft;
  out->tpot_s = e->tpot;
  out->e2e_s = e->ttft + D * e->tpot;
  out->memory_bytes = e->memory;
  out->kv_bytes = e->kv;
  out->activation_bytes = e->act;
  out->reserve_bytes = k->reserve;
  out->bound = e->bound;
  out->microbatches = e->microbatches;
  out->prefill_tokens_per_step = e->cavg;
  if (B > 0) {
    out->requests_per_s = out->replicas * B / D / e->tpot;
    out->tokens_per_s = out->requests_per_s * k->G;
    out->tokens_per_s_per_device = out->tokens_per_s / (out->replicas * dev);
  }
}

static rl_status plan_continuous(const plan *pl, const rl_infer_cfg *cfg, const rl_roof *roof, const rl_plan_cfg *pc,
                                 double dev, rl_plan_row *out, rl_error *err) {
  cb_cfg k;
  k.P = pc->prompt;
  k.G = pc->gen;
  k.C = pc->chunk == 0 ? RL_PLAN_CHUNK : pc->chunk;
  k.frac = pc->mem_fraction == 0 ? RL_PLAN_MEM_FRACTION : pc->mem_fraction;
  k.bs = pc->block_size == 0 ? RL_PLAN_BLOCK : pc->block_size;
  k.reserve = pc->reserve_bytes;
  if (k.G < 2)
    return rli_fail(err, RL_EINVAL, "continuous batching needs gen >= 2 (a decode phase; got %g): use static batches", k.G);
  if (!isfinite(k.C) || k.C < 1 || k.C != floor(k.C) || k.C > 1e9)
    return rli_fail(err, RL_EINVAL, "chunk must be a whole number of tokens >= 1 (got %g)", k.C);
  if (ceil(k.P / k.C) > 65536)
    return rli_fail(err, RL_EINVAL, "a prompt of %g tokens in chunks of %g takes %g steps; at most 65536 (a larger chunk)",
                    k.P, k.C, ceil(k.P / k.C));
  if (!(k.frac > 0 && k.frac <= 1)) return rli_fail(err, RL_EINVAL, "mem_fraction must be in (0, 1] (got %g)", k.frac);
  if (!isfinite(k.bs) || k.bs < 1 || k.bs != floor(k.bs) || k.bs > 1e6)
    return rli_fail(err, RL_EINVAL, "block size must be a whole number of tokens >= 1 (got %g)", k.bs);
  if (!isfinite(k.reserve) || k.reserve < 0 || k.reserve > 1e18)
    return rli_fail(err, RL_EINVAL, "reserve must be >= 0 bytes (got %g)", k.reserve);
  k.kv_mean = kv_blocks_mean(pl, k.P, k.G, k.bs);
  k.pairs_full = k.pairs_win = k.prefix = 0;
  for (double off = 0; off < k.P; off += k.C) {
    double cj = k.P - off < k.C ? k.P - off : k.C;
    k.pairs_full += chunk_pairs(cj, off, 0);
    k.pairs_win += chunk_pairs(cj, off, pl->win);
    k.prefix += ctx_eff(pl, off);
  }
  double cap = pc->max_batch == 0 ? 65536 : pc->max_batch;
  cb_eval ev;
  cb_at(pl, cfg, roof, pc, &k, 1, &ev);
  if (!cb_ok(&ev)) {
    out->limit = cb_why(&ev);
    if (out->limit == RL_LIMIT_CAPACITY && cfg->mem_bytes > 0) {
      /* the weights alone? */
      cb_eval none;
      cb_at(pl, cfg, roof, pc, &k, 0, &none);
      if (!none.fits) out->limit = RL_LIMIT_WEIGHTS;
    }
    cb_row(&ev, &k, 0, dev, out);
    out->ttft_s = out->limit == RL_LIMIT_WEIGHTS ? 0 : ev.ttft;
    out->tpot_s = out->limit == RL_LIMIT_WEIGHTS ? 0 : ev.tpot;
    return RL_OK;
  }
  /* every constraint only gets harder as B grows: bisect on [1, cap] */
  double lo = 1, hi = cap;
  cb_at(pl, cfg, roof, pc, &k, hi, &ev);
  if (cb_ok(&ev)) {
    lo = hi;
  } else {
    while (hi - lo > 1) {
      double mid = floor((lo + hi) / 2);
      cb_at(pl, cfg, roof, pc, &k, mid, &ev);
      if (cb_ok(&ev)) lo = mid; else hi = mid;
    }
  }
  double B = lo;
  if (B >= cap) {
    out->limit = RL_LIMIT_SEARCH;
  } else {
    cb_at(pl, cfg, roof, pc, &k, B + 1, &ev);
    out->limit = cb_ok(&ev) ? RL_LIMIT_SEARCH : cb_why(&ev);
  }
  cb_at(pl, cfg, roof, pc, &k, B, &ev);
  cb_row(&ev, &k, B, dev, out);
  const double v[] = {out->ttft_s, out->tpot_s, out->e2e_s, out->tokens_per_s, out->requests_per_s,
                      out->memory_bytes};
  return rli_check_finite(v, sizeof v / sizeof v[0], err, "continuous batching at %g sequences", B);
}

rl_plan_cfg rl_plan_cfg_init(void) {
  rl_plan_cfg c;
  memset(&c, 0, sizeof c);
  c.batching = RL_BATCHING_CONTINUOUS;
  c.chunk = RL_PLAN_CHUNK;
  c.mem_fraction = RL_PLAN_MEM_FRACTION;
  c.block_size = RL_PLAN_BLOCK;
  c.reserve_bytes = RL_PLAN_RESERVE_BYTES;
  return c;
}

rl_status rl_plan(const rl_model *m, const rl_infer_cfg *cfg, const rl_roof *roof,
                  const rl_plan_cfg *pc, rl_plan_row *out, rl_error *err) {
  if (!m || !cfg || !pc || !out) return rli_fail(err, RL_EINVAL, "no model, configuration or result");
  TRY(check_roof(roof, err));
  if (!isfinite(pc->prompt) || pc->prompt < 1 || pc->prompt != floor(pc->prompt) || pc->prompt > 1e9)
    return rli_fail(err, RL_EINVAL, "prompt must be a whole number of tokens >= 1 (got %g)", pc->prompt);
  if (!isfinite(pc->gen) || pc->gen < 1 || pc->gen != floor(pc->gen) || pc->gen > 1e6)
    return rli_fail(err, RL_EINVAL, "gen must be a whole number of tokens >= 1 and <= 1e6 (got %g)", pc->gen);
  if (!isfinite(pc->ttft_s) || pc->ttft_s < 0) return rli_fail(err, RL_EINVAL, "the TTFT target must be >= 0");
  if (!isfinite(pc->tpot_s) || pc->tpot_s < 0) return rli_fail(err, RL_EINVAL, "the TPOT target must be >= 0");
  if (pc->batching != RL_BATCHING_STATIC && pc->batching != RL_BATCHING_CONTINUOUS)
    return rli_fail(err, RL_EINVAL, "unknown batching %d", (int)pc->batching);
  double cap = pc->max_batch == 0 ? 65536 : pc->max_batch;
  if (!isfinite(cap) || cap < 1 || cap != floor(cap) || cap > 1e9)
    return rli_fail(err, RL_EINVAL, "max_batch must be a whole number >= 1 (got %g)", pc->max_batch);
  plan pl;
  TRY(make_plan(m, cfg, &pl, err));
  double tp = pl.n, dev = pl.pp * (pl.ep > 1 ? pl.ep : tp);
  if (!isfinite(pc->gpus) || pc->gpus < dev || pc->gpus != floor(pc->gpus) || pc->gpus > 1e7)
    return rli_fail(err, RL_EINVAL, "gpus must be a whole number >= pp x max(tp, ep) (%g; got %g)", dev, pc->gpus);
  memset(out, 0, sizeof *out);
  out->tp = (int32_t)tp;
  out->pp = (int32_t)pl.pp;
  out->ep = (int32_t)pl.ep;
  out->weight_dtype = cfg->weight_dtype < 0 ? pl.m.dtype : cfg->weight_dtype;
  out->kv_dtype = cfg->kv_dtype < 0 ? rl_model_kv_dtype(&pl.m, cfg->act_dtype) : cfg->kv_dtype;
  out->replicas = floor(pc->gpus / dev);
  if (pc->batching == RL_BATCHING_CONTINUOUS) return plan_continuous(&pl, cfg, roof, pc, dev, out, err);
  double hi = cap;
  int cap_is_memory = 0;
  if (cfg->mem_bytes > 0) {
    double fit = fit_batch(&pl, pc->prompt + pc->gen, cfg->mem_bytes);
    if (fit < 0) {
      out->limit = RL_LIMIT_WEIGHTS;
      out->memory_bytes = pl.w_resident;
      for (double s = 0; pl.pp > 1 && s < pl.pp; s++) {
        plan st;
        stage_plan(&pl, s, &st);
        if (s == 0 || st.w_resident > out->memory_bytes) out->memory_bytes = st.w_resident;
      }
      return RL_OK;
    }
    if (fit < hi) { hi = fit; cap_is_memory = 1; }
  }
  plan_eval ev;
  if (hi < 1) {
    TRY(plan_at(m, cfg, roof, pc, 1, &ev, err));
    out->limit = RL_LIMIT_CAPACITY;
    out->memory_bytes = ev.memory;
    return RL_OK;
  }
  /* every constraint only gets harder as B grows: bisect on [1, hi] */
  TRY(plan_at(m, cfg, roof, pc, 1, &ev, err));
  if (!plan_ok(&ev)) {
    out->limit = plan_why(&ev);
    out->ttft_s = ev.ttft;
    out->tpot_s = ev.tpot;
    out->memory_bytes = ev.memory;
    out->bound = ev.bound;
    return RL_OK;
  }
  double lo = 1;
  TRY(plan_at(m, cfg, roof, pc, hi, &ev, err));
  if (plan_ok(&ev)) {
    lo = hi;
  } else {
    while (hi - lo > 1) {
      double mid = floor((lo + hi) / 2);
      TRY(plan_at(m, cfg, roof, pc, mid, &ev, err));
      if (plan_ok(&ev)) lo = mid; else hi = mid;
    }
  }
  double B = lo;
  if (!cap_is_memory && B >= cap) {
    out->limit = RL_LIMIT_SEARCH;
  } else {
    TRY(plan_at(m, cfg, roof, pc, B + 1, &ev, err));
    out->limit = plan_ok(&ev) ? RL_LIMIT_SEARCH : plan_why(&ev);
  }
  TRY(plan_at(m, cfg, roof, pc, B, &ev, err));
  rl_infer_cfg c = *cfg;
  c.context = pc->prompt;
  c.batch = B;
  c.new_tokens = pc->gen;
  rl_prefill_result pr;
  TRY(rl_prefill(m, &c, roof, NULL, 0, &pr, err));
  out->batch = B;
  out->ttft_s = ev.ttft;
  out->tpot_s = ev.tpot;
  out->e2e_s = pr.e2e_time_s;
  out->memory_bytes = ev.memory;
  out->bound = ev.bound;
  out->tokens_per_s = out->replicas * B * pc->gen / pr.e2e_time_s;
  out->tokens_per_s_per_device = out->tokens_per_s / (out->replicas * dev);
  out->microbatches = ev.microbatches;
  return RL_OK;
}
