/*
 * cli_llm.h -- helpers shared by the LLM commands (model, decode, prefill,
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
  double experts, experts_active;
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
      {"experts-active", OPT_COUNT, &(f).experts_active, 0}

/* The help lines for those flags. */
#define CLI_MODEL_HELP                                                                   \
  "model (one of):\n"                                                                    \
  "  --model ID|PATH  a built-in model (roofline model list), a Hugging Face\n"           \
  "                   config.json, or a folder that holds one\n"                          \
  "  --layers L --heads H [--kv-heads K] [--head-dim D] [--d-model D]\n"                  \
  "    and --params N (the count as given, e.g. 7e9), or --d-ff F --vocab V to\n"          \
  "    derive it (gated MLP, untied embeddings); [--experts E --experts-active K]\n"

/* Resolve the model from the flags. Prints the error and returns
 * CLI_USAGE on bad input. */
int cli_resolve_model(cli_ctx *ctx, const cli_opt *opts, const cli_model_flags *f,
                      rl_model *out);

/* ---- inference flags (decode, prefill) ------------------------------------ */
typedef struct cli_infer_flags {
  int32_t weight_dtype, kv_dtype, dtype; /* -1: the model's */
  int tp;
  const char *embedding;                 /* gathered | full */
  double link_bw, comm_latency;
} cli_infer_flags;

void cli_infer_flags_init(cli_infer_flags *f);

#define CLI_INFER_OPTS(f)                                                    \
  {"weight-dtype", OPT_DTYPE, &(f).weight_dtype, 0},                         \
      {"kv-dtype", OPT_DTYPE, &(f).kv_dtype, 0},                             \
      {"dtype", OPT_DTYPE, &(f).dtype, 0}, {"tp", OPT_INT, &(f).tp, 0},      \
      {"embedding", OPT_STR, &(f).embedding, 0},                             \
      {"link-bw", OPT_BYTES_S, &(f).link_bw, 0},                             \
      {"comm-latency", OPT_SECONDS, &(f).comm_latency, 0}

#define CLI_INFER_HELP                                                                   \
  "device:\n"                                                                            \
  "  --hw ID          default nvidia-h100-sxm5; or --peak P --bw B [--mem M]\n"           \
  "  --mem M          capacity per device (default: the database's; 80GiB ...)\n"         \
  "  --sparse         divide by the 2:4 sparse peak (labelled)\n"                         \
  "formats:\n"                                                                           \
  "  --weight-dtype DT  weights (e.g. fp8, int4; default: the model's format)\n"          \
  "  --kv-dtype DT    KV cache (e.g. fp8; default: --dtype)\n"                            \
  "  --dtype DT       activations and compute; picks the tensor peak (default:\n"         \
  "                   the model's format)\n"                                              \
  "parallelism:\n"                                                                       \
  "  --tp N           split weights and KV heads over N devices, 2 all-reduces a\n"       \
  "                   layer (ring, 2(n-1)/n of B d activations each)\n"                   \
  "  --link-bw B      their bus bandwidth (default: half the device's NVLink\n"           \
  "                   figure, one direction); --comm-latency T per all-reduce\n"          \
  "convention:\n"                                                                        \
  "  --embedding gathered|full  read only the B embedding rows looked up (default)\n"     \
  "                   or the whole table with 2 FLOPs per parameter (the seeds')\n"

/* Resolve the device, its roof (tensor peak of the compute format) and the
 * inference configuration from the flags. */
int cli_infer_setup(cli_ctx *ctx, const cli_opt *opts, const cli_infer_flags *f,
                    const cli_hw_flags *hwf, const rl_model *m, rl_infer_cfg *cfg,
                    rl_hw *hw, rl_roof *roof);

/* A count with 4 significant digits: 8.03e9, 124.4e6 -> "8.03e9", "1.244e8",
 * small numbers plainly ("4096"). */
const char *cli_count(char *buf, size_t cap, double v);
#define CLI_N(v) cli_count((char[32]){0}, 32, (v))

/* "1.2%" style percentage of a fraction */
const char *cli_pct(char *buf, size_t cap, double frac);
#define CLI_PCT(v) cli_pct((char[32]){0}, 32, (v))

#endif
