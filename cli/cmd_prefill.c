/*
 * cmd_prefill.c -- `roofline prefill`: the time-to-first-token bound of a
 * prompt, op by op, and the end-to-end bound with n new tokens.
 */
#include "cli_llm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: roofline prefill --model ID|PATH --prompt P [--batch B] [--new-tokens N]\n"
    "\n"
    "Prefill runs the prompt's P tokens through the model together, so every\n"
    "weight matrix sees B x P tokens: the linear layers are compute-bound once the\n"
    "prompt has a few hundred tokens, the opposite of decode. Each op of a layer\n"
    "(QKV projection, fused attention, output projection, MLP, norms, residual\n"
    "adds) is bounded by the roofline on its own, then the output layer for the\n"
    "last token of each prompt. The time to first token is at least the sum of the\n"
    "bounds (+ the all-reduces with --tp). With --new-tokens N, the end-to-end\n"
    "bound adds N - 1 decode steps at contexts P+1 .. P+N-1.\n"
    "\n"
    CLI_MODEL_HELP
    "workload:\n"
    "@--prompt\n"
    "@--batch\n"
    "@--new-tokens\n"
    "@--causal\n"
    "@--no-causal\n"
    "@--attention-impl\n"
    CLI_INFER_HELP
    "  --json, --csv    machine-readable output\n"
    "\n"
    "examples:\n"
    "  roofline prefill --model llama3-8b --prompt 2048 --new-tokens 256\n"
    "  roofline prefill --model mixtral-8x7b --prompt 512 --batch 8 --hw h200\n";

typedef struct prefill_args {
  const rl_model *m;
  const rl_infer_cfg *cfg;
  const rl_roof *roof;
  const char *hw_id;
  const rl_prefill_op *ops;
  const rl_prefill_result *r;
} prefill_args;

static size_t prefill_json(void *arg, char *buf, size_t cap) {
  const prefill_args *a = arg;
  return rl_prefill_json(a->m, a->cfg, a->roof, a->hw_id, a->ops, a->r, buf, cap);
}

/* ---- parse: the flags, checked ---------------------------------------------- */
typedef struct prefill_opts {
  cli_llm_opts llm;  /* model, inference and device flags */
  double prompt, batch, new_tokens;
  int causal;
  int32_t impl;      /* rl_attn_impl */
} prefill_opts;

static int parse(cli_ctx *ctx, int argc, char **argv, prefill_opts *o) {
  double prompt = 0, batch = 1, new_tokens = 0;
  int causal = 0, no_causal = 0;
  const char *impl = NULL;
  const cli_opt own[] = {{"prompt", OPT_TOKENS, &prompt, 0}, {"batch", OPT_COUNT, &batch, 0},
                         {"new-tokens", OPT_TOKENS, &new_tokens, 0}, {"causal", OPT_FLAG, &causal, 0},
                         {"no-causal", OPT_FLAG, &no_causal, 0}, {"attention-impl", OPT_STR, &impl, 0},
                         {NULL, 0, NULL, 0}};
  int rc = cli_llm_parse(ctx, argc, argv, &o->llm, own);
  if (rc) return rc;
  if (causal && no_causal) return cli_error(ctx, "--causal and --no-causal exclude each other");
  if (!cli_seen(o->llm.opts, "prompt")) return cli_error(ctx, "--prompt P is required (the prompt's tokens)");
  if (!(prompt >= 1) || prompt != floor(prompt))
    return cli_error(ctx, "--prompt must be a whole number of tokens >= 1 (got %g)", prompt);
  if (!(batch >= 1) || batch != floor(batch))
    return cli_error(ctx, "--batch must be a whole number of sequences >= 1 (got %g)", batch);
  if (!(new_tokens >= 0) || new_tokens != floor(new_tokens))
    return cli_error(ctx, "--new-tokens must be a whole number >= 0 (got %g)", new_tokens);
  o->impl = RL_ATTN_IMPL_FUSED;
  rl_error ie;
  if (impl && rl_attn_impl_parse(impl, &o->impl, &ie)) return cli_error(ctx, "--attention-impl: %s", ie.msg);
  o->prompt = prompt;
  o->batch = batch;
  o->new_tokens = new_tokens;
  o->causal = !no_causal;
  return CLI_OK;
}

/* ---- print ------------------------------------------------------------------ */
/* What each op's share is of: the TTFT, or with pp the ops' sum (the
 * stages overlap, so not the TTFT) */
static double share_whole(const rl_prefill_op *ops, const rl_prefill_result *r) {
  double whole = r->ttft_s;
  if (r->pp > 1) {
    whole = 0;
    for (int32_t i = 0; i < r->n_ops; i++) whole += ops[i].time_s;
  }
  return whole;
}

static void print_text(cli_ctx *ctx, prefill_opts *po, const rl_model *m, const rl_infer_cfg *cfgp, const rl_hw *hwp,
                       const rl_roof *roofp, const rl_prefill_op *ops, const rl_prefill_result *rp) {
  const rl_infer_cfg cfg = *cfgp;
  const rl_hw hw = *hwp;
  const rl_roof roof = *roofp;
  const rl_prefill_result r = *rp;
  const double prompt = po->prompt, batch = po->batch, new_tokens = po->new_tokens;
  cli_infer_flags *inf = &po->llm.inf;
  rl_model c;
  rl_model_check(m, &c, NULL);
  cli_table *t = cli_ops_table(ops, r.n_ops, share_whole(ops, &r));
  FILE *o = ctx->out;
  if (!r.fits)
    fprintf(o, "DOES NOT FIT: %s of weights%s and KV cache at %.0f tokens exceed the %s of %s\n\n",
            CLI_Q(r.memory_bytes, RL_UNIT_BYTES), cfg.tp > 1 ? " (per device)" : "", prompt + new_tokens,
            CLI_Q(r.mem_bytes, RL_UNIT_BYTES), cfg.tp > 1 ? "each device" : "the device");
  fprintf(o, "Prefill of %s (%s) on %s: %.0f prompt(s) of %.0f tokens, %s %s attention\n", c.id, c.name, hw.id,
          batch, prompt, rl_attn_impl_name(cfg.attention_impl),
          cfg.causal ? "causal" : "full (non-causal)");
  char pk[96];
  fprintf(o, "roof: %s, %s%s\n", cli_peak_label(&roof, pk, sizeof pk), CLI_Q(roof.bandwidth, RL_UNIT_BYTES_S),
          cfg.tp > 1 ? "; per device of the tensor-parallel group" : "");
  rl_decode_summary ds;
  double one = 1;
  rl_decode_row drow;
  if (rl_decode(m, &cfg, &roof, &one, 1, &drow, &ds, NULL) == RL_OK) cli_infer_notes(ctx, inf, &ds, &cfg);
  cli_par_notes(ctx, m, &cfg, 0);
  fprintf(o, "\n");
  cli_table_print(ctx, t);
  cli_table_free(t);
  fprintf(o, "\ntime to first token >= %s (%s in compute-bound ops", CLI_Q(r.ttft_s, RL_UNIT_SECONDS),
          CLI_PCT(r.compute_bound_fraction));
  if (r.comm_time_s > 0)
    fprintf(o, "; %s %s", r.pp > 1 || r.ep > 1 ? "communication" : "all-reduces", CLI_Q(r.comm_time_s, RL_UNIT_SECONDS));
  fprintf(o, r.tokens_per_s >= 1e4 ? "), %.0f prompt tokens/s\n" : "), %.4g prompt tokens/s\n", r.tokens_per_s);
  if (r.pp > 1)
    fprintf(o, "pipeline: %d stages, %.0f micro-batch%s: the stages idle %s of it (bubble; GPipe: (p-1)/(m+p-1) =\n"
               "  %s for equal stages), slowest stage %s a micro-batch, sends %s on a micro-batch's path;\n"
               "  the op table is the whole model at the full batch (every stage's ops together)\n",
            r.pp, r.microbatches, r.microbatches == 1 ? "" : "es", CLI_PCT(r.bubble_fraction),
            CLI_PCT((r.pp - 1) / (r.microbatches + r.pp - 1)), CLI_Q(r.stage_time_max_s, RL_UNIT_SECONDS),
            CLI_Q(r.p2p_time_s, RL_UNIT_SECONDS));
  if (r.a2a_time_s > 0)
    fprintf(o, "expert parallel: all-to-alls %s of it\n", CLI_Q(r.a2a_time_s, RL_UNIT_SECONDS));
  if (new_tokens > 0)
    fprintf(o, "with %.0f new tokens: + %s of decode = %s end to end (%.4g tokens/s per sequence after the first)\n",
            new_tokens, CLI_Q(r.decode_time_s, RL_UNIT_SECONDS), CLI_Q(r.e2e_time_s, RL_UNIT_SECONDS),
            new_tokens > 1 ? (new_tokens - 1) / r.decode_time_s : 0.0);
  fprintf(o, "memory: %s for weights and KV cache at %.0f tokens%s\n", CLI_Q(r.memory_bytes, RL_UNIT_BYTES),
          prompt + new_tokens,
          hw.mem_bytes <= 0 ? "" : (r.fits ? " (fits)" : " (does NOT fit on the device)"));
  double nccl;
  rl_infer_cfg alt = cfg;
  rl_prefill_result ar;
  if (cli_nccl_alternative(inf, &hw, &cfg, &nccl)) {
    alt.comm_latency_s = nccl;
    if (rl_prefill(m, &alt, &roof, NULL, 0, &ar, NULL) == RL_OK && fabs(ar.ttft_s - r.ttft_s) > 0.01 * r.ttft_s)
      fprintf(o, "with NCCL's ring latency instead of the floor (--comm-latency nccl, %s per all-reduce; an\n"
                 "  estimate, not a bound): time to first token %s, %s more\n",
              CLI_Q(nccl, RL_UNIT_SECONDS), CLI_Q(ar.ttft_s, RL_UNIT_SECONDS), CLI_PCT(ar.ttft_s / r.ttft_s - 1));
  }
  fprintf(o, "each op is bounded separately (no overlap between ops); norms and adds use the same peak\n"
             "(they are memory-bound, so it does not matter).\n");
}

/* parse -> resolve (model, device, roof) -> compute (rl_prefill) -> print */
static int run(cli_ctx *ctx, int argc, char **argv) {
  prefill_opts *o = malloc(sizeof *o);
  if (!o) return cli_error(ctx, "out of memory");
  rl_model m;
  rl_infer_cfg cfg;
  rl_hw hw;
  rl_roof roof;
  int rc = parse(ctx, argc, argv, o);
  if (!rc) rc = cli_llm_resolve(ctx, &o->llm, NULL, NULL, &m, &cfg, &hw, &roof);
  rl_prefill_op ops[RL_PREFILL_OPS];
  rl_prefill_result r;
  if (!rc) {
    cfg.context = o->prompt;
    cfg.batch = o->batch;
    cfg.new_tokens = o->new_tokens;
    cfg.causal = o->causal;
    cfg.attention_impl = o->impl;
    rl_error e;
    rl_status st = rl_prefill(&m, &cfg, &roof, ops, RL_PREFILL_OPS, &r, &e);
    if (st) rc = cli_fail(ctx, st, &e);
  }
  if (!rc) {
    int fail = CLI_OK;
    if (o->llm.inf.require_fit && !r.fits) {
      fail = CLI_FAIL;
      fprintf(ctx->err, "roofline prefill: does not fit in %s per device (--require-fit)\n",
              CLI_Q(r.mem_bytes, RL_UNIT_BYTES));
    }
    if (ctx->json) {
      prefill_args a = {&m, &cfg, &roof, hw.id, ops, &r};
      rc = cli_print_json(ctx, prefill_json, &a);
    } else if (ctx->csv) {
      cli_ops_csv(ctx, ops, r.n_ops, share_whole(ops, &r));
    } else {
      print_text(ctx, o, &m, &cfg, &hw, &roof, ops, &r);
    }
    if (!rc) rc = fail;
  }
  free(o);
  return rc;
}

const cli_command cmd_prefill = {"prefill", run, "LLM prefill: time to first token, op by op; end-to-end bound", help, 0};
