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
    "  --seq T          tokens per sequence (context length)\n"
    "  --tokens-per-s R measured over whole steps, whole run; or\n"
    "  --tokens-per-step K --step-time S  (e.g. 262144 tokens in 3.64s)\n"
    "  --gpus N         devices\n"
    "  --padding F      fraction of the tokens that is padding (0.05 or 5%)\n"
    "conventions:\n"
    "  --attention full|causal|none   default full (PaLM, Chowdhery et al. 2022)\n"
    "  --recompute none|selective|full   for the HFU (default none)\n"
    "  --sparse-peak    divide by the 2:4 sparse peak (labelled; halves MFU)\n"
    "  --exclude-embedding   N without the embedding table (nanoGPT-style)\n"
    "peak:\n"
    "  --hw ID --dtype DT   the dense tensor peak of DT (default h100, bf16)\n"
    "  --peak P         your own figure per device (dense)\n"
    "  --json           machine-readable output\n"
    "\n"
    "examples:\n"
    "  roofline mfu --params 8e9 --layers 32 --d-model 4096 --seq 4096 \\\n"
    "               --tokens-per-s 600000 --gpus 64 --hw h100 --recompute full\n"
    "  roofline mfu --params 7e9 --layers 32 --heads 32 --head-dim 128 --seq 4096 \\\n"
    "               --tokens-per-step 262144 --step-time 3.64s --gpus 8 --attention none\n";


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

static int run(cli_ctx *ctx, int argc, char **argv) {
  cli_model_flags mf;
  memset(&mf, 0, sizeof mf);
  mf.heads_optional = 1;
  cli_hw_flags hwf;
  cli_hw_flags_init(&hwf);
  double seq = 0, tps = 0, tpstep = 0, step = 0, gpus = 0;
  const char *attention = NULL, *recompute = NULL, *padding = NULL;
  int sparse_peak = 0, excl = 0;
  int32_t dtype = RL_BF16;
  cli_opt opts[] = {CLI_MODEL_OPTS(mf),
                    CLI_HW_OPTS(hwf),
                    {"seq", OPT_COUNT, &seq, 0},
                    {"tokens-per-s", OPT_COUNT, &tps, 0},
                    {"tokens-per-step", OPT_COUNT, &tpstep, 0},
                    {"step-time", OPT_SECONDS, &step, 0},
                    {"gpus", OPT_COUNT, &gpus, 0},
                    {"padding", OPT_STR, &padding, 0},
                    {"attention", OPT_STR, &attention, 0},
                    {"recompute", OPT_STR, &recompute, 0},
                    {"sparse-peak", OPT_FLAG, &sparse_peak, 0},
                    {"exclude-embedding", OPT_FLAG, &excl, 0},
                    {"dtype", OPT_DTYPE, &dtype, 0},
                    {NULL, 0, NULL, 0}};
  int rc = cli_parse(ctx, argc, argv, opts, NULL, 0, NULL);
  if (rc) return rc;
  if (ctx->csv) return cli_error(ctx, "--csv is not available here (use --json)");
  rl_mfu_cfg cfg = rl_mfu_cfg_init();
  if (!cli_seen(opts, "seq")) return cli_error(ctx, "--seq T is required (tokens per sequence)");
  if (!(seq >= 0)) return cli_error(ctx, "--seq must be >= 0 (got %g)", seq);
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
  if (attention) {
    rl_error ae;
    if (rl_attn_parse(attention, &cfg.attention, &ae)) return cli_error(ctx, "--attention: %s", ae.msg);
  }
  if (recompute) {
    rl_error re;
    if (rl_recompute_parse(recompute, &cfg.recompute, &re)) return cli_error(ctx, "--recompute: %s", re.msg);
  }
  if (padding) {
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
    cfg.padding = v;
  }
  if (hwf.bw > 0 || hwf.mem > 0 || cli_seen(opts, "overhead"))
    return cli_error(ctx, "--bw, --mem and --overhead do not apply to mfu");
  if (hwf.sparse) sparse_peak = 1;
  rl_model m;
  if ((rc = cli_resolve_model(ctx, opts, &mf, &m))) return rc;
  rl_hw hw;
  memset(&hw, 0, sizeof hw);
  const char *peak_src;
  char peak_buf[128];
  if (hwf.peak > 0) {
    if (hwf.hw) return cli_error(ctx, "--peak and --hw exclude each other (--peak is the device)");
    if (sparse_peak) return cli_error(ctx, "--sparse-peak and --peak exclude each other (give the figure you divide by as --peak)");
    cfg.peak = hwf.peak;
    cfg.sparse_peak = 0;
    snprintf(hw.id, sizeof hw.id, "custom");
    peak_src = "--peak (per device, as given)";
  } else {
    if (hwf.peak < 0) return cli_error(ctx, "--peak must be > 0");
    rl_error e;
    rl_status st = rl_hw_find(hwf.hw ? hwf.hw : RL_DEFAULT_HW, ctx->extra, ctx->n_extra, &hw, &e);
    if (st) return cli_error(ctx, "--hw: %s", e.msg);
    int32_t pk = rl_hw_peak_for(&hw, dtype, 1);
    if (pk < 0) return cli_error(ctx, "%s has no %s tensor peak in the database (give --peak)", hw.id, rl_dtype_name(dtype));
    cfg.peak = hw.peak[pk];
    cfg.sparse_peak = hw.sparsity ? 2 * hw.peak[pk] : 0;
    snprintf(peak_buf, sizeof peak_buf, "%s %s dense tensor peak", hw.id, rl_peak_name(pk));
    peak_src = peak_buf;
    if (sparse_peak && !hw.sparsity) return cli_error(ctx, "--sparse-peak: %s has no 2:4 sparse peak", hw.id);
  }
  cfg.seq = seq;
  cfg.tokens_per_s = tps;
  cfg.gpus = gpus;
  cfg.use_sparse = sparse_peak;
  cfg.exclude_embedding = excl;
  rl_mfu_result r;
  rl_error e;
  rl_status st = rl_mfu(&m, &cfg, &r, &e);
  if (st) return cli_fail(ctx, st, &e);
  rl_mfu_convention conv[RL_MFU_CONVENTIONS];
  int32_t nc = 0;
  st = rl_mfu_conventions(&m, &cfg, conv, RL_MFU_CONVENTIONS, &nc, &e);
  if (st) return cli_fail(ctx, st, &e);
  if (nc > RL_MFU_CONVENTIONS) nc = RL_MFU_CONVENTIONS;
  double lo = 1e300, hi = -1e300;
  for (int32_t i = 0; i < nc; i++) {
    if (conv[i].value < lo) lo = conv[i].value;
    if (conv[i].value > hi) hi = conv[i].value;
  }
  rl_model c;
  rl_model_check(&m, &c, NULL);
  if (ctx->json) {
    mfu_args a = {&m, &cfg, hw.id, &r};
    return cli_print_json(ctx, mfu_json, &a);
  }
  FILE *o = ctx->out;
  fprintf(o, "MFU of %s (%s): N = %s%s, L = %.0f, H d_h = %.0f, T = %.0f\n", c.id, c.name, CLI_N(r.n_params),
          excl ? " (without the embedding table)" : "", c.layers, c.heads * c.head_dim, seq);
  fprintf(o, "  %.6g tokens/s%s over %.0f devices; peak %s per device: %s%s\n", tps,
          cfg.padding > 0 ? "" : " (no padding declared)", gpus, CLI_Q(r.peak, RL_UNIT_FLOP_S),
          sparse_peak ? "2:4 SPARSE peak of " : "", peak_src);
  if (cfg.padding > 0)
    fprintf(o, "  padding %s taken out: %.6g useful tokens/s\n", CLI_PCT(cfg.padding), r.useful_tokens_per_s);
  fprintf(o, "\nwhich FLOPs (per token):\n");
  fprintf(o, "  6N                   %s\n", CLI_Q(6 * r.n_params, RL_UNIT_FLOP));
  fprintf(o, "  attention            %s (%s: %s)\n", CLI_Q(r.attention_flops_per_token, RL_UNIT_FLOP),
          rl_attn_name(cfg.attention),
          cfg.attention == RL_ATTN_FULL ? "12 L H d_h T, PaLM's count"
                                        : cfg.attention == RL_ATTN_CAUSAL ? "6 L H d_h T, the unmasked half"
                                                                          : "left out");
  fprintf(o, "  model FLOPs          %s\n", CLI_Q(r.model_flops_per_token, RL_UNIT_FLOP));
  fprintf(o, "  recomputation        %s (%s)\n", CLI_Q(r.recompute_flops_per_token, RL_UNIT_FLOP),
          rl_recompute_name(cfg.recompute));
  fprintf(o, "  hardware FLOPs       %s\n\n", CLI_Q(r.hardware_flops_per_token, RL_UNIT_FLOP));
  if (r.mfu > 1 || r.hfu > 1)
    fprintf(o, "WARNING: above 100%%: more FLOP/s than the peak, which no run achieves: the tokens/s, the\n"
               "number of GPUs, the model or the peak given is wrong\n");
  fprintf(o, "MFU %s   HFU %s   (%s per device achieved)\n\n", CLI_PCT(r.mfu), CLI_PCT(r.hfu),
          CLI_Q(r.model_flops_per_s, RL_UNIT_FLOP_S));
  fprintf(o, "the same run under each convention:\n");
  const char *hdr[] = {"convention", "metric", "FLOPs/token", "peak", "value"};
  cli_table *t = cli_table_new(5, hdr);
  for (int32_t i = 0; i < nc; i++) {
    char f[48], v[32], mt[8];
    cli_q(f, sizeof f, conv[i].flops_per_token, RL_UNIT_FLOP);
    cli_pct(v, sizeof v, conv[i].value);
    snprintf(mt, sizeof mt, "%s", conv[i].metric[0] == 'h' ? "HFU" : "MFU");
    const char *cells[5] = {conv[i].label, mt, f, conv[i].sparse ? "sparse" : "dense", v};
    cli_table_row(t, cells);
  }
  cli_table_print(ctx, t);
  cli_table_free(t);
  fprintf(o, "\none run, reported anywhere from %s to %s: say which FLOPs, which peak and which time.\n",
          CLI_PCT(lo), CLI_PCT(hi));
  fprintf(o, "MFU is the figure to compare across runs; a higher HFU from recomputing more is not faster.\n");
  return CLI_OK;
}

const cli_command cmd_mfu = {"mfu", run, "MFU and HFU of a training run, under every convention", help};
