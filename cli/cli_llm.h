/*
 * cli_llm.h -- helpers shared by the LLM commands (model, decode, prefill, plan,
 * mfu, comm): the model and inference flags, counts and percentages.
 * Their --json records come from the library (rl_model_json, ...).
 */
#ifndef RL_CLI_LLM_H
#define RL_CLI_LLM_H

#include "cli.h"

/* A model given by --model ID|PATH (a built-in id, a config.json or a
 * folder holding one) or by its sizes. */
typedef struct cli_model_flags {
  const char *model;
  double params, layers, d_model, heads, kv_heads, head_dim, d_ff, vocab;
  double experts, experts_active, learned_pos;
  const char *mlp, *norm;  /* gated|plain, rms|layer */
  int tied, bias;
  int heads_optional; /* mfu: without --heads, H d_h = d (one head of d) */
} cli_model_flags;

#define CLI_MODEL_OPTS(f)                                                    \
  {"model", OPT_STR, &(f).model, 0}, {"params", OPT_COUNT, &(f).params, 0},  \
      {"layers", OPT_COUNT, &(f).layers, 0},                                 \
      {"d-model", OPT_COUNT, &(f).d_model, 0},                               \
      {"heads", OPT_COUNT, &(f).heads, 0},                                   \
      {"kv-heads", OPT_COUNT, &(f).kv_heads, 0},                             \
      {"head-dim", OPT_COUNT, &(f).head_dim, 0},                             \
      {"d-ff", OPT_COUNT, &(f).d_ff, 0}, {"vocab", OPT_COUNT, &(f).vocab, 0}, \
      {"experts", OPT_COUNT, &(f).experts, 0},                               \
      {"experts-active", OPT_COUNT, &(f).experts_active, 0},                 \
      {"mlp", OPT_STR, &(f).mlp, 0}, {"norm", OPT_STR, &(f).norm, 0},        \
      {"tied", OPT_FLAG, &(f).tied, 0}, {"bias", OPT_FLAG, &(f).bias, 0},    \
      {"learned-pos", OPT_COUNT, &(f).learned_pos, 0}

/* The help lines for those flags. */
#define CLI_MODEL_HELP                                                                   \
  "model (one of):\n"                                                                    \
  "@--model\n"                                                    \
  "  {--layers} {--heads} [{--kv-heads}] [{--head-dim}] [{--d-model}]\n"                  \
  "    and {--params} (the count as given, e.g. 7e9), or {--d-ff} {--vocab} to\n"          \
  "    derive it; [{--experts} {--experts-active}]; {--mlp} (default\n"                    \
  "    gated: 3 d d_ff; plain: 2 d d_ff), {--norm}, {--tied} (the output\n"                \
  "    layer reuses the embedding), {--bias} (linear layers have biases),\n"               \
  "    {--learned-pos} (N learned position embeddings). GPT-2 small:\n"                    \
  "    --layers 12 --heads 12 --d-model 768 --d-ff 3072 --vocab 50257 --mlp plain\n"       \
  "    --norm layer --tied --bias --learned-pos 1024  (124,439,808 parameters)\n"

/* Resolve the model from the flags. Prints the error and returns
 * CLI_USAGE on bad input. */
int cli_resolve_model(cli_ctx *ctx, const cli_opt *opts, const cli_model_flags *f,
                      rl_model *out);

/* ---- inference flags (decode, prefill; plan takes some as lists) -------- */
typedef struct cli_infer_flags {
  int32_t weight_dtype, kv_dtype, dtype; /* -1: the model's */
  int tp, pp, ep;
  double microbatches;                   /* 0: min(pp, batch) */
  const char *embedding;                 /* gathered | full */
  double link_bw, comm_latency;
  const char *comm_latency_s;            /* --comm-latency: T, or nccl */
  const char *group_size;                /* N | channel | none */
  int quantize_all, require_fit;
  const char *compute_eff, *bw_eff;      /* fractions of the roofs */
  /* filled in by cli_infer_setup for the text output */
  double compute_eff_v, bw_eff_v;        /* 1 when not given */
  char peak_note[160];                   /* fp16 <-> bf16 fallback, or "" */
  char latency_note[320];                /* where the all-reduce latency comes from */
  char par_note[240];                    /* the stage sends' and all-to-alls' latencies */
  char measured_note[320];               /* the roofs of a `roofline measure` row, or "" */
  rl_infer_req req;                      /* what the flags asked rl_infer_setup */
} cli_infer_flags;

void cli_infer_flags_init(cli_infer_flags *f);

#define CLI_INFER_OPTS(f)                                                    \
  {"weight-dtype", OPT_DTYPE, &(f).weight_dtype, 0},                         \
      {"kv-dtype", OPT_DTYPE, &(f).kv_dtype, 0},                             \
      {"dtype", OPT_DTYPE, &(f).dtype, 0}, {"tp", OPT_INT, &(f).tp, 0},      \
      {"pp", OPT_INT, &(f).pp, 0}, {"ep", OPT_INT, &(f).ep, 0},              \
      {"microbatches", OPT_COUNT, &(f).microbatches, 0},                     \
      {"embedding", OPT_STR, &(f).embedding, 0},                             \
      {"link-bw", OPT_BYTES_S, &(f).link_bw, 0},                             \
      {"comm-latency", OPT_STR, &(f).comm_latency_s, 0},                     \
      {"group-size", OPT_STR, &(f).group_size, 0},                           \
      {"quantize-all", OPT_FLAG, &(f).quantize_all, 0},                      \
      {"require-fit", OPT_FLAG, &(f).require_fit, 0},                        \
      {"compute-eff", OPT_STR, &(f).compute_eff, 0},                         \
      {"bw-eff", OPT_STR, &(f).bw_eff, 0}

/* The --hw line every inference command's help gives (decode, prefill, plan). */
#define CLI_LLM_HW_HELP "@--hw\n"

#define CLI_INFER_HELP                                                                   \
  "device:\n"                                                                            \
  CLI_LLM_HW_HELP                                                                        \
  "@--mem\n"         \
  "@--sparse\n"                         \
  "@--compute-eff\n"    \
  "formats:\n"                                                                           \
  "@--weight-dtype\n"        \
  "@--group-size\n"                     \
  "@--quantize-all\n"           \
  "@--kv-dtype\n"                            \
  "@--dtype\n"         \
  "parallelism:\n"                                                                       \
  "@--tp\n"                   \
  "@--pp\n"                   \
  "@--microbatches\n"   \
  "@--ep\n"            \
  "@--link-bw\n"          \
  "convention:\n"                                                                        \
  "@--embedding\n"       \
  "@--require-fit\n"

/* Resolve the device (cli_resolve_hw), its roof and the inference
 * configuration (rl_infer_setup: the tensor peak of the compute format,
 * scaled by --compute-eff/--bw-eff; the links and latencies) from the
 * flags; notes what it assumed in f, and the request in f->req. */
int cli_infer_setup(cli_ctx *ctx, const cli_opt *opts, cli_infer_flags *f,
                    const cli_hw_flags *hwf, const rl_model *m, rl_infer_cfg *cfg,
                    rl_hw *hw, rl_roof *roof);

/* The text lines every inference command prints about its assumptions
 * (quantization, efficiencies, peak fallback). */
/* When the bound took the all-reduce floor (tp > 1, no --comm-latency) and
 * NCCL's ring estimate differs: that estimate in *nccl, 1; else 0. decode
 * and prefill print their figure at it beside the bound where the two
 * differ by more than 1%. */
int cli_nccl_alternative(const cli_infer_flags *f, const rl_hw *hw, const rl_infer_cfg *cfg, double *nccl);

void cli_infer_notes(cli_ctx *ctx, const cli_infer_flags *f, const rl_decode_summary *s,
                     const rl_infer_cfg *cfg);

/* "989.4 TFLOP/s bf16 dense tensor peak" (a vector peak: "fp32 peak"; the
 * sparse peak, or --peak, said so). */
const char *cli_peak_label(const rl_roof *r, char *buf, size_t cap);

/* The table of a prefill's or a decode step's ops (rl_prefill,
 * rl_decode_ops): count, FLOPs, bytes, intensity, bound, time and each
 * op's share of `total`. */
cli_table *cli_ops_table(const rl_prefill_op *ops, int32_t n, double total);

/* The text lines about pipeline stages and expert parallelism (none when
 * cfg has neither). */
void cli_par_notes(cli_ctx *ctx, const rl_model *m, const rl_infer_cfg *cfg, int decode);

/* The same op table as CSV: op,count,flops,bytes,intensity_flop_per_byte
 * (empty for the network's ops),bound,time_s,share_fraction. */
void cli_ops_csv(cli_ctx *ctx, const rl_prefill_op *ops, int32_t n, double total);

/* ---- the flags of an inference command (decode, prefill, plan) ----------- */
/* The model, inference and device flags, then the command's own. The
 * table points into the struct: parse it where it stays. */
typedef struct cli_llm_opts {
  cli_model_flags mf;
  cli_infer_flags inf;
  cli_hw_flags hwf;
  cli_opt opts[96];
} cli_llm_opts;

/* Parse argv against the shared flags and `own` (ending with {NULL}). An
 * own entry named like a shared flag takes its place (plan's --tp LIST
 * for --tp N); one whose dst is NULL leaves the shared flag out (a flag
 * the command does not take: it is an unknown option there). */
int cli_llm_parse(cli_ctx *ctx, int argc, char **argv, cli_llm_opts *o, const cli_opt *own);

/* What a command settles between the model and the device (plan: its
 * lists of degrees, checked against the model, give the parallelism in
 * o->inf); CLI_OK or the exit status after printing the error. */
typedef int (*cli_llm_between)(cli_ctx *ctx, cli_llm_opts *o, const rl_model *m, void *arg);

/* Resolve the model (cli_resolve_model), then `between` when not NULL,
 * then the device, its roof and the configuration (cli_infer_setup). */
int cli_llm_resolve(cli_ctx *ctx, cli_llm_opts *o, cli_llm_between between, void *arg, rl_model *m,
                    rl_infer_cfg *cfg, rl_hw *hw, rl_roof *roof);

/* A count with 4 significant digits: 8.03e9, 124.4e6 -> "8.03e9", "1.244e8",
 * small numbers plainly ("4096"). */
const char *cli_count(char *buf, size_t cap, double v);
#define CLI_N(v) cli_count((char[32]){0}, 32, (v))

/* "1.2%" style percentage of a fraction */
const char *cli_pct(char *buf, size_t cap, double frac);
#define CLI_PCT(v) cli_pct((char[32]){0}, 32, (v))

#endif
