/*
 * cmd_mfu.c -- `roofline mfu`: model and hardware FLOPs utilization of a
 * training run, with every convention stated and the same run shown under
 * each convention side by side.
 */
#include "cli_llm.h"

#include <math.h>
#include <string.h>

static const char help[] =
    "usage: roofline mfu --model ID|PATH --seq T --tokens-per-s R --gpus N [--hw ID]\n"
    "\n"
    "Model FLOPs utilization: the FLOPs the model needs per second over the peak of\n"
    "all the devices (PaLM, Chowdhery et al. 2022, Appendix B):\n"
    "    MFU = tokens/s x (6N + 12 L H d_h T) / (gpus x peak)\n"
    "HFU counts what the chip executed, recomputation included (Korthikanti et\n"
    "al. 2022): full recomputation repeats the forward pass (+2N + 4 L H d_h T),\n"
    "selective recomputes the attention scores, softmax and AV (+4 L H d_h T).\n"
    "Three choices decide the number, and the output says which were made:\n"
    "which FLOPs (attention counted in full, causal-halved or left out; HFU or\n"
    "MFU), which peak (dense tensor peak of the matmuls' format; the 2:4 sparse\n"
    "peak halves the figure), which time (tokens/s over whole steps; padding\n"
    "taken out). The same run is then shown under each convention.\n"
    "\n"
    CLI_MODEL_HELP
    "run:\n"
    "@--seq\n"
    "@--tokens-per-s\n"
    "  {--tokens-per-step} {--step-time}  (e.g. 262144 tokens in 3.64s)\n"
    "@--gpus\n"
    "@--padding\n"
    "conventions:\n"
    "  {--attention}   default full (PaLM, Chowdhery et al. 2022)\n"
    "  {--recompute}   for the HFU (default none)\n"
    "@--sparse-peak\n"
    "@--sparse\n"
    "  {--exclude-embedding}   N without the embedding table (nanoGPT-style)\n"
    "peak:\n"
    "  {--hw} {--dtype}   the dense tensor peak of DT (default h100, bf16)\n"
    "@--peak\n"
    "  --json, --csv    machine-readable output (CSV: the conventions table)\n"
    "\n"
    "examples:\n"
    "  roofline mfu --params 8e9 --layers 32 --d-model 4096 --seq 4096 \\\n"
    "               --tokens-per-s 600000 --gpus 64 --hw h100 --recompute full\n"
    "  roofline mfu --params 7e9 --layers 32 --heads 32 --head-dim 128 --seq 4096 \\\n"
    "               --tokens-per-step 262144 --step-time 3.64s --gpus 8 --attention none\n";


/* ---- parse: the flags, checked, into mfu_opts ---------------------------- */
typedef struct mfu_opts {
  rl_mfu_cfg cfg;        /* seq, tokens/s, gpus, conventions; the peak set by resolve */
  cli_model_flags mf;
  cli_hw_flags hwf;
  cli_opt opts[48];      /* the flags as parsed (cli_resolve_model reads which were given) */
  int32_t dtype;         /* the peak's format */
  int sparse_peak, excl;
} mfu_opts;

/* "--padding 0.05" or "5%" */
static int parse_padding(cli_ctx *ctx, const char *padding, double *out) {
  char tmp[64];
  snprintf(tmp, sizeof tmp, "%s", padding);
  size_t l = strlen(tmp);
  int pct = l > 0 && tmp[l - 1] == '%';
  if (pct) tmp[l - 1] = 0;
  double v;
  rl_error e;
  if (rl_parse_quantity(tmp, RL_UNIT_COUNT, &v, &e)) return cli_error(ctx, "--padding: %s", e.msg);
  if (pct) v /= 100;
  if (!(v >= 0 && v < 1)) return cli_error(ctx, "--padding must be a fraction in [0, 1) (got %s)", padding);
  *out = v;
  return CLI_OK;
}

static int parse(cli_ctx *ctx, int argc, char **argv, mfu_opts *o) {
  memset(o, 0, sizeof *o);
  o->mf.heads_optional = 1;
  cli_hw_flags_init(&o->hwf);
  o->dtype = RL_BF16;
  rl_mfu_cfg *cfg = &o->cfg;
  *cfg = rl_mfu_cfg_init();
  double seq = 0, tps = 0, tpstep = 0, step = 0, gpus = 0;
  const char *attention = NULL, *recompute = NULL, *padding = NULL;
  /* the device flags that apply: --hw, --peak and --sparse (= --sparse-peak) */
  const cli_opt table[] = {CLI_MODEL_OPTS(o->mf),
                           {"hw", OPT_STR, &o->hwf.hw, 0},
                           {"peak", OPT_FLOP_S_POS, &o->hwf.peak, 0},
                           {"sparse", OPT_FLAG, &o->hwf.sparse, 0},
                           {"seq", OPT_COUNT, &seq, 0},
                           {"tokens-per-s", OPT_COUNT, &tps, 0},
                           {"tokens-per-step", OPT_COUNT, &tpstep, 0},
                           {"step-time", OPT_SECONDS, &step, 0},
                           {"gpus", OPT_COUNT, &gpus, 0},
                           {"padding", OPT_STR, &padding, 0},
                           {"attention", OPT_STR, &attention, 0},
                           {"recompute", OPT_STR, &recompute, 0},
                           {"sparse-peak", OPT_FLAG, &o->sparse_peak, 0},
                           {"exclude-embedding", OPT_FLAG, &o->excl, 0},
                           {"dtype", OPT_DTYPE, &o->dtype, 0},
                           {NULL, 0, NULL, 0}};
  _Static_assert(sizeof table <= sizeof o->opts, "mfu_opts.opts holds the flag table");
  memcpy(o->opts, table, sizeof table);
  cli_opt *opts = o->opts;
  int rc = cli_parse(ctx, argc, argv, opts, NULL, 0, NULL);
  if (rc) return rc;
  if (!cli_seen(opts, "seq")) return cli_error(ctx, "--seq T is required (tokens per sequence)");
  if (!(seq >= 0) || seq != floor(seq) || seq > 1e9)
    return cli_error(ctx, "--seq must be a whole number of tokens from 0 to 1e9 (got %g)", seq);
  int by_step = cli_seen(opts, "tokens-per-step") || cli_seen(opts, "step-time");
  if (cli_seen(opts, "tokens-per-s") && by_step)
    return cli_error(ctx, "--tokens-per-s and --tokens-per-step/--step-time exclude each other");
  if (by_step) {
    if (!cli_seen(opts, "tokens-per-step") || !cli_seen(opts, "step-time"))
      return cli_error(ctx, "--tokens-per-step and --step-time go together");
    if (!(tpstep > 0)) return cli_error(ctx, "--tokens-per-step must be > 0 (got %g)", tpstep);
    if (!(step > 0)) return cli_error(ctx, "--step-time must be > 0");
    tps = tpstep / step;
  } else if (!cli_seen(opts, "tokens-per-s")) {
    return cli_error(ctx, "--tokens-per-s R is required (or --tokens-per-step and --step-time)");
  } else if (!(tps > 0)) {
    return cli_error(ctx, "--tokens-per-s must be > 0 (got %g)", tps);
  }
  if (!cli_seen(opts, "gpus")) return cli_error(ctx, "--gpus N is required");
  if (!(gpus >= 1) || gpus != floor(gpus)) return cli_error(ctx, "--gpus must be a whole number >= 1 (got %g)", gpus);
  rl_error e;
  if (attention && rl_attn_parse(attention, &cfg->attention, &e)) return cli_error(ctx, "--attention: %s", e.msg);
  if (recompute && rl_recompute_parse(recompute, &cfg->recompute, &e))
    return cli_error(ctx, "--recompute: %s", e.msg);
  if (padding && (rc = parse_padding(ctx, padding, &cfg->padding))) return rc;
  if (o->hwf.sparse) o->sparse_peak = 1;
  cfg->seq = seq;
  cfg->tokens_per_s = tps;
  cfg->gpus = gpus;
  cfg->use_sparse = o->sparse_peak;
  cfg->exclude_embedding = o->excl;
  return CLI_OK;
}

/* ---- resolve: the model, and the peak (a device's or --peak) ------------ */
static int resolve(cli_ctx *ctx, mfu_opts *o, rl_model *m, rl_hw *hw, char *peak_src, size_t cap) {
  int rc = cli_resolve_model(ctx, o->opts, &o->mf, m);
  if (rc) return rc;
  memset(hw, 0, sizeof *hw);
  const cli_hw_flags *hwf = &o->hwf;
  if (hwf->peak > 0) {
    if (hwf->hw) return cli_error(ctx, "--peak and --hw exclude each other (--peak is the device)");
    if (o->sparse_peak)
      return cli_error(ctx, "--sparse-peak and --peak exclude each other (give the figure you divide by as --peak)");
    o->cfg.peak = hwf->peak;
    o->cfg.sparse_peak = 0;
    snprintf(hw->id, sizeof hw->id, "custom");
    snprintf(peak_src, cap, "--peak (per device, as given)");
    return CLI_OK;
  }
  if (hwf->peak < 0) return cli_error(ctx, "--peak must be > 0");
  rl_error e;
  rl_status st = rl_hw_find(hwf->hw ? hwf->hw : RL_DEFAULT_HW, ctx->extra, ctx->n_extra, hw, &e);
  if (st) return cli_error(ctx, "--hw: %s", e.msg);
  int32_t pk = rl_hw_peak_for(hw, o->dtype, 1);
  if (pk < 0)
    return cli_error(ctx, "%s has no %s tensor peak in the database (give --peak)", hw->id, rl_dtype_name(o->dtype));
  o->cfg.peak = hw->peak[pk];
  o->cfg.sparse_peak = hw->sparsity ? 2 * hw->peak[pk] : 0;
  snprintf(peak_src, cap, "%s %s dense tensor peak", hw->id, rl_peak_name(pk));
  if (o->sparse_peak && !hw->sparsity) return cli_error(ctx, "--sparse-peak: %s has no 2:4 sparse peak", hw->id);
  return CLI_OK;
}

/* ---- compute: the MFU and the same run under every convention ------------ */
typedef struct mfu_out {
  rl_mfu_result r;
  rl_mfu_convention conv[RL_MFU_CONVENTIONS];
  int32_t nc;
  double lo, hi; /* the conventions' range */
} mfu_out;

static int compute(cli_ctx *ctx, const rl_model *m, const rl_mfu_cfg *cfg, mfu_out *out) {
  rl_error e;
  rl_status st = rl_mfu(m, cfg, &out->r, &e);
  if (st) return cli_fail(ctx, st, &e);
  out->nc = 0;
  st = rl_mfu_conventions(m, cfg, out->conv, RL_MFU_CONVENTIONS, &out->nc, &e);
  if (st) return cli_fail(ctx, st, &e);
  if (out->nc > RL_MFU_CONVENTIONS) out->nc = RL_MFU_CONVENTIONS;
  out->lo = 1e300;
  out->hi = -1e300;
  for (int32_t i = 0; i < out->nc; i++) {
    if (out->conv[i].value < out->lo) out->lo = out->conv[i].value;
    if (out->conv[i].value > out->hi) out->hi = out->conv[i].value;
  }
  return CLI_OK;
}

/* ---- print ------------------------------------------------------------------ */
typedef struct mfu_args {
  const rl_model *m;
  const rl_mfu_cfg *cfg;
  const char *hw_id;
  const rl_mfu_result *r;
} mfu_args;

static size_t mfu_json(void *arg, char *buf, size_t cap) {
  const mfu_args *a = arg;
  return rl_mfu_json(a->m, a->cfg, a->hw_id, a->r, buf, cap);
}

/* The conventions table, a row each, as the JSON's "conventions". */
static void print_csv(cli_ctx *ctx, const mfu_out *out) {
  static const char *const hdr[] = {"convention", "metric",    "value_fraction", "flops_per_token",
                                    "attention",  "recompute", "sparse",         "padded"};
  cli_csv_row(ctx, hdr, 8);
  for (int32_t i = 0; i < out->nc; i++) {
    const rl_mfu_convention *c = &out->conv[i];
    const char *row[8] = {c->label,
                          c->metric,
                          CLI_CSV_NUM(c->value),
                          CLI_CSV_NUM(c->flops_per_token),
                          rl_attn_name(c->attention),
                          rl_recompute_name(c->recompute),
                          c->sparse ? "true" : "false",
                          c->padded ? "true" : "false"};
    cli_csv_row(ctx, row, 8);
  }
}

static void print_text(cli_ctx *ctx, const rl_model *m, const mfu_opts *mo, const char *peak_src,
                       const mfu_out *out) {
  FILE *o = ctx->out;
  const rl_mfu_cfg *cfg = &mo->cfg;
  const rl_mfu_result *r = &out->r;
  rl_model c;
  rl_model_check(m, &c, NULL);
  fprintf(o, "MFU of %s (%s): N = %s%s, L = %.0f, H d_h = %.0f, T = %.0f\n", c.id, c.name, CLI_N(r->n_params),
          mo->excl ? " (without the embedding table)" : "", c.layers, c.heads * c.head_dim, cfg->seq);
  fprintf(o, "  %.6g tokens/s%s over %.0f devices; peak %s per device: %s%s\n", cfg->tokens_per_s,
          cfg->padding > 0 ? "" : " (no padding declared)", cfg->gpus, CLI_Q(r->peak, RL_UNIT_FLOP_S),
          mo->sparse_peak ? "2:4 SPARSE peak of " : "", peak_src);
  if (cfg->padding > 0)
    fprintf(o, "  padding %s taken out: %.6g useful tokens/s\n", CLI_PCT(cfg->padding), r->useful_tokens_per_s);
  fprintf(o, "\nwhich FLOPs (per token):\n");
  fprintf(o, "  6N                   %s\n", CLI_Q(6 * r->n_params, RL_UNIT_FLOP));
  fprintf(o, "  attention            %s (%s: %s)\n", CLI_Q(r->attention_flops_per_token, RL_UNIT_FLOP),
          rl_attn_name(cfg->attention),
          cfg->attention == RL_ATTN_FULL ? "12 L H d_h T, PaLM's count"
                                         : cfg->attention == RL_ATTN_CAUSAL ? "6 L H d_h T, the unmasked half"
                                                                            : "left out");
  fprintf(o, "  model FLOPs          %s\n", CLI_Q(r->model_flops_per_token, RL_UNIT_FLOP));
  fprintf(o, "  recomputation        %s (%s)\n", CLI_Q(r->recompute_flops_per_token, RL_UNIT_FLOP),
          rl_recompute_name(cfg->recompute));
  fprintf(o, "  hardware FLOPs       %s\n\n", CLI_Q(r->hardware_flops_per_token, RL_UNIT_FLOP));
  if (r->mfu > 1 || r->hfu > 1)
    fprintf(o, "WARNING: above 100%%: more FLOP/s than the peak, which no run achieves: the tokens/s, the\n"
               "number of GPUs, the model or the peak given is wrong\n");
  fprintf(o, "MFU %s   HFU %s   (%s per device achieved)\n\n", CLI_PCT(r->mfu), CLI_PCT(r->hfu),
          CLI_Q(r->model_flops_per_s, RL_UNIT_FLOP_S));
  fprintf(o, "the same run under each convention:\n");
  const char *hdr[] = {"convention", "metric", "FLOPs/token", "peak", "value"};
  cli_table *t = cli_table_new(5, hdr);
  for (int32_t i = 0; i < out->nc; i++) {
    const rl_mfu_convention *cv = &out->conv[i];
    char f[48], v[32], mt[8];
    cli_q(f, sizeof f, cv->flops_per_token, RL_UNIT_FLOP);
    cli_pct(v, sizeof v, cv->value);
    snprintf(mt, sizeof mt, "%s", cv->metric[0] == 'h' ? "HFU" : "MFU");
    const char *cells[5] = {cv->label, mt, f, cv->sparse ? "sparse" : "dense", v};
    cli_table_row(t, cells);
  }
  cli_table_print(ctx, t);
  cli_table_free(t);
  fprintf(o, "\none run, reported anywhere from %s to %s: say which FLOPs, which peak and which time.\n",
          CLI_PCT(out->lo), CLI_PCT(out->hi));
  fprintf(o, "MFU is the figure to compare across runs; a higher HFU from recomputing more is not faster.\n");
}

/* parse -> resolve -> compute -> print */
static int run(cli_ctx *ctx, int argc, char **argv) {
  mfu_opts o;
  int rc = parse(ctx, argc, argv, &o);
  if (rc) return rc;
  rl_model m;
  rl_hw hw;
  char peak_src[128];
  if ((rc = resolve(ctx, &o, &m, &hw, peak_src, sizeof peak_src))) return rc;
  mfu_out out;
  if ((rc = compute(ctx, &m, &o.cfg, &out))) return rc;
  if (ctx->json) {
    mfu_args a = {&m, &o.cfg, hw.id, &out.r};
    return cli_print_json(ctx, mfu_json, &a);
  }
  if (ctx->csv) print_csv(ctx, &out);
  else print_text(ctx, &m, &o, peak_src, &out);
  return CLI_OK;
}

const cli_command cmd_mfu = {"mfu", run, "MFU and HFU of a training run, under every convention", help, 0};
