/*
 * cmd_model.c -- `roofline model list|show`: the built-in Transformer
 * configurations and the parameter count derived from each.
 */
#include "cli_llm.h"

#include <string.h>

static const char help[] =
    "usage: roofline model list\n"
    "       roofline model show ID|PATH      (or: roofline model show --layers ...)\n"
    "\n"
    "The decoder-only Transformers the LLM commands know (data/models.csv, one row\n"
    "per model with its source: the model's Hugging Face config.json or the paper's\n"
    "table). `show` prints a configuration, the parameter count derived from it part\n"
    "by part (embedding, attention with grouped-query K/V, gated or plain MLP, MoE\n"
    "experts total and active, norms, tied or separate output layer) against the\n"
    "published count, and the KV cache per token. PATH is a config.json or a folder\n"
    "holding one, as downloaded from Hugging Face.\n"
    "\n"
    CLI_MODEL_HELP
    "\n"
    "flags: {--kv-dtype} (default: the model's format) for the KV cache per token,\n"
    "       --json, --csv\n"
    "\n"
    "examples:\n"
    "  roofline model list\n"
    "  roofline model show llama3-8b\n"
    "  roofline model show ~/models/Meta-Llama-3-8B/config.json\n";


static size_t list_json(void *arg, char *buf, size_t cap) {
  (void)arg;
  return rl_model_list_json(buf, cap);
}

typedef struct show_args {
  const rl_model *m;
  int32_t kv_dtype;
} show_args;

static size_t show_json(void *arg, char *buf, size_t cap) {
  const show_args *a = arg;
  return rl_model_json(a->m, a->kv_dtype, buf, cap);
}

/* Built-in model i, its parameter count and KV cache per token (B, in
 * the format the cache defaults to: rl_model_kv_dtype). */
static double builtin(int32_t i, rl_model *m, rl_param_count *p) {
  double kv = 0;
  rl_model_get(i, m);
  rl_model_params(m, p, NULL);
  rl_model_kv_bytes_per_token(m, rl_model_kv_dtype(m, -1), &kv, NULL);
  return kv;
}

/* model list --csv: the JSON's figures of each model, counts exact */
static void list_csv(cli_ctx *ctx) {
  static const char *const hdr[] = {"id",       "name",     "params",   "published_params", "active_params",
                                    "layers",   "d_model",  "heads",    "kv_heads",         "head_dim",
                                    "d_ff",     "experts",  "vocab",    "kv_bytes_per_token", "dtype"};
  enum { N = sizeof hdr / sizeof hdr[0] };
  cli_csv_row(ctx, hdr, N);
  for (int32_t i = 0; i < rl_model_count(); i++) {
    rl_model m;
    rl_param_count p;
    double kv = builtin(i, &m, &p);
    const double v[] = {p.total, m.published_params, p.active, m.layers, m.d_model, m.heads, m.kv_heads,
                        m.head_dim, m.d_ff, m.experts, m.vocab, kv};
    char c[12][40];
    const char *row[N] = {m.id, m.name};
    for (int k = 0; k < 12; k++) row[2 + k] = cli_csv_num(c[k], sizeof c[k], v[k]);
    row[N - 1] = rl_dtype_name(m.dtype);
    cli_csv_row(ctx, row, N);
  }
}

static void list_text(cli_ctx *ctx) {
  const char *hdr[] = {"id", "name", "params", "published", "active", "L", "d", "heads/kv", "d_ff", "vocab", "KV/token"};
  cli_table *t = cli_table_new(11, hdr);
  cli_table_keep(t, 0);
  /* on a narrow terminal: the published count, the vocabulary, then the
   * active count give way (named under the table) */
  cli_table_optional(t, 3, 1);
  cli_table_optional(t, 9, 2);
  cli_table_optional(t, 4, 3);
  for (int32_t i = 0; i < rl_model_count(); i++) {
    rl_model m;
    rl_param_count p;
    double kv = builtin(i, &m, &p);
    char c[11][64];
    cli_count(c[2], 64, p.total);
    cli_count(c[3], 64, m.published_params);
    cli_count(c[4], 64, p.active);
    snprintf(c[5], 64, "%.0f", m.layers);
    snprintf(c[6], 64, "%.0f", m.d_model);
    snprintf(c[7], 64, "%.0f/%.0f", m.heads, m.kv_heads);
    if (m.experts > 0) snprintf(c[8], 64, "%.0f x%.0f", m.d_ff, m.experts);
    else snprintf(c[8], 64, "%.0f", m.d_ff);
    snprintf(c[9], 64, "%.0f", m.vocab);
    snprintf(c[10], 64, "%s %s", CLI_Q(kv, RL_UNIT_BYTES), rl_dtype_name(rl_model_kv_dtype(&m, -1)));
    const char *cells[11] = {m.id, m.name, c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10]};
    cli_table_row(t, cells);
  }
  cli_table_print(ctx, t);
  cli_table_free(t);
  fprintf(ctx->out, "\nparams: derived from each configuration (roofline model show ID for the parts);\n"
                    "published: the source's count; KV/token in the activations' format (an fp8\n"
                    "checkpoint's cache in bf16; --kv-dtype on `model show` for another).\n");
}

static int list(cli_ctx *ctx) {
  if (ctx->json) return cli_print_json(ctx, list_json, NULL);
  if (ctx->csv) list_csv(ctx);
  else list_text(ctx);
  return CLI_OK;
}

/* model show --csv: the parameter count part by part */
static void show_csv(cli_ctx *ctx, const rl_param_count *p) {
  static const char *const hdr[] = {"part", "params"};
  cli_csv_row(ctx, hdr, 2);
  const char *names[] = {"embedding", "attention", "mlp", "norms", "output", "total", "active"};
  double v[] = {p->embedding, p->attention, p->mlp, p->norms, p->output, p->total, p->active};
  for (int i = 0; i < 7; i++) {
    char b[48];
    snprintf(b, sizeof b, "%.17g", v[i]);
    const char *cells[2] = {names[i], b};
    cli_csv_row(ctx, cells, 2);
  }
}

static void show_text(cli_ctx *ctx, const rl_model *m, const rl_model *cp, const rl_param_count *pp, int32_t kd,
                      double kv) {
  const rl_model c = *cp;
  const rl_param_count p = *pp;
  FILE *o = ctx->out;
  fprintf(o, "%s (%s)\n", c.id, c.name);
  fprintf(o, "  layers %.0f, d_model %.0f, %.0f query heads and %.0f KV heads of %.0f",
          c.layers, c.d_model, c.heads, c.kv_heads, c.head_dim);
  if (c.kv_lora_rank > 0)
    fprintf(o, " (Q.K; V %.0f)\n  multi-head latent attention: K and V from a latent of %.0f per token, cached with a\n"
               "  shared rope key of %.0f; queries through a rank-%.0f bottleneck", c.v_head_dim, c.kv_lora_rank,
            c.rope_dim, c.q_lora_rank);
  else if (c.kv_heads < c.heads)
    fprintf(o, " (%s: %.0f query heads share each K/V head)", c.kv_heads == 1 ? "multi-query" : "grouped-query",
            c.heads / c.kv_heads);
  fprintf(o, "\n");
  if (c.window > 0)
    fprintf(o, "  sliding-window attention: %.0f of the %.0f layers attend to the last %.0f tokens only\n",
            c.window_layers, c.layers, c.window);
  if (c.d_ff > 0)
    fprintf(o, "  MLP %s, d_ff %.0f%s; %s; vocabulary %.0f, embeddings %s; %s\n", rl_mlp_name(c.mlp), c.d_ff,
            c.experts > 0 ? " per expert" : "", rl_norm_name(c.norm), c.vocab,
            c.tied_embeddings ? "tied (the output layer reuses the table)" : "untied (a separate output layer)",
            c.bias ? "with biases" : "no biases");
  if (c.experts > 0) {
    fprintf(o, "  mixture of experts: %.0f experts per layer, %.0f used by each token", c.experts, c.experts_active);
    if (c.shared_experts > 0) fprintf(o, " + %.0f shared", c.shared_experts);
    if (c.dense_layers > 0)
      fprintf(o, "; the first %.0f layers dense (d_ff %.0f)", c.dense_layers, c.dense_d_ff > 0 ? c.dense_d_ff : c.d_ff);
    fprintf(o, "\n");
  }
  if (c.expert_weights)
    fprintf(o, "  published in %s, the routed experts' matrices in %s; source: %s\n\n", rl_dtype_name(c.dtype),
            rl_wfmt_name(c.expert_weights), c.source);
  else
    fprintf(o, "  published in %s; source: %s\n\n", rl_dtype_name(c.dtype), c.source);
  if (p.derived) {
    const char *hdr[] = {"part", "parameters", "formula"};
    cli_table *t = cli_table_new(3, hdr);
    char f[7][160], v[7][48];
    snprintf(f[0], 160, "vocab x d%s", c.learned_pos ? " + max_seq x d (learned positions)" : "");
    if (c.kv_lora_rank > 0)
      snprintf(f[1], 160, "L (d r_q + r_q H d_qk + d (r + d_rope) + r H (d_nope + d_v) + H d_v d + norms)");
    else
      snprintf(f[1], 160, "L (d H d_h + 2 d H_kv d_h + H d_h d)%s",
               c.bias == RL_BIAS_QKV ? " + q/k/v biases" : c.bias ? " + biases" : "");
    const char *one = c.mlp == RL_MLP_GATED ? "3 d d_ff" : "2 d d_ff";
    /* DeepSeek-V3's routers add a bias per expert (e_score_correction_bias) */
    const char *router = c.router_bias ? "router (d + 1) E" : "router d E";
    if (c.experts > 0 && (c.dense_layers > 0 || c.shared_experts > 0))
      snprintf(f[2], 160, "L_dense %s' + (L - L_dense)((E + shared) %s + %s)", one, one, router);
    else
      snprintf(f[2], 160, "L x %s%s%s%s", c.experts > 0 ? "E x " : "", one, c.experts > 0 ? " + " : "",
               c.experts > 0 ? router : (c.bias == 1 ? " + biases" : ""));
    snprintf(f[3], 160, "(%.0fL + 1) x %s", c.norms_per_layer, c.norm == RL_NORM_RMS ? "d" : "2d");
    snprintf(f[4], 160, "%s", c.tied_embeddings ? "tied: 0" : "vocab x d");
    snprintf(f[5], 160, "sum");
    snprintf(f[6], 160, "%s", c.experts > 0 ? "experts_active of the experts" : "dense: all");
    double vals[7] = {p.embedding, p.attention, p.mlp, p.norms, p.output, p.total, p.active};
    const char *names[7] = {"embedding", "attention", "mlp", "norms", "output layer", "total", "active per token"};
    for (int i = 0; i < 7; i++) {
      /* exact up to 2^53; past it a double holds no exact count: 4 digits */
      snprintf(v[i], 48, vals[i] <= RL_MAX_COUNT ? "%.0f" : "%.4g", vals[i]);
      const char *cells[3] = {names[i], v[i], f[i]};
      cli_table_row(t, cells);
    }
    cli_table_print(ctx, t);
    cli_table_free(t);
    if (m->published_params > 0)
      fprintf(o, "\nderived %s against %s published (%+.2f%%)\n", CLI_N(p.total), CLI_N(m->published_params),
              (p.total / m->published_params - 1) * 100);
  } else {
    fprintf(o, "parameters: %s as given (not derived: give --d-ff and --vocab to derive them)\n", CLI_N(p.total));
  }
  if (c.kv_lora_rank > 0)
    fprintf(o, "KV cache: %.0f layers x (%.0f latent + %.0f rope key) x %g B (%s) = %s (%.4g KiB) per token\n",
            c.layers, c.kv_lora_rank, c.rope_dim, rl_dtype_bytes(kd), rl_dtype_name(kd), CLI_Q(kv, RL_UNIT_BYTES),
            kv / 1024);
  else
    fprintf(o, "KV cache: 2 x %.0f layers x %.0f KV heads x %.0f x %g B (%s) = %s (%.4g KiB) per token\n", c.layers,
            c.kv_heads, c.head_dim, rl_dtype_bytes(kd), rl_dtype_name(kd), CLI_Q(kv, RL_UNIT_BYTES), kv / 1024);
  if (c.window > 0)
    fprintf(o, "  (the %.0f windowed layers hold at most %.0f tokens: past that, a sequence's cache grows by\n"
               "  %s per token)\n", c.window_layers, c.window, CLI_Q(kv * (1 - c.window_layers / c.layers), RL_UNIT_BYTES));
  double wb = p.total * rl_dtype_bytes(c.dtype);
  if (rl_model_weight_bytes(m, &wb, NULL) != RL_OK) wb = p.total * rl_dtype_bytes(c.dtype);
  if (c.expert_weights)
    fprintf(o, "weights: %s, the routed experts' matrices in %s (%g bits a weight with its scales), the rest in %s\n"
               "  (all in %s: %s)\n", CLI_Q(wb, RL_UNIT_BYTES), rl_wfmt_name(c.expert_weights),
            rl_wfmt_matrix_bytes(c.expert_weights, c.d_model, c.d_ff) * 8 / (c.d_model * c.d_ff),
            rl_dtype_name(c.dtype), rl_dtype_name(c.dtype), CLI_Q(p.total * rl_dtype_bytes(c.dtype), RL_UNIT_BYTES));
  else
    fprintf(o, "weights: %s in %s\n", CLI_Q(wb, RL_UNIT_BYTES), rl_dtype_name(c.dtype));
}

/* compute (the parameter count, the KV cache per token) -> print */
static int show(cli_ctx *ctx, const rl_model *m, int32_t kv_dtype) {
  rl_param_count p;
  rl_error e;
  rl_status st = rl_model_params(m, &p, &e);
  if (st) return cli_fail(ctx, st, &e);
  rl_model c;
  rl_model_check(m, &c, NULL);
  double kv = 0;
  int32_t kd = kv_dtype >= 0 ? kv_dtype : rl_model_kv_dtype(&c, -1);
  st = rl_model_kv_bytes_per_token(&c, kd, &kv, &e);
  if (st) return cli_fail(ctx, st, &e);
  if (ctx->json) {
    show_args a = {m, kv_dtype};
    return cli_print_json(ctx, show_json, &a);
  }
  if (ctx->csv) show_csv(ctx, &p);
  else show_text(ctx, m, &c, &p, kd, kv);
  return CLI_OK;
}

/* parse -> (list | resolve the model -> show) */
static int run(cli_ctx *ctx, int argc, char **argv) {
  cli_model_flags mf;
  memset(&mf, 0, sizeof mf);
  int32_t kv_dtype = -1;
  cli_opt opts[] = {CLI_MODEL_OPTS(mf), {"kv-dtype", OPT_DTYPE, &kv_dtype, 0}, {NULL, 0, NULL, 0}};
  const char *pos[2];
  int np = 0;
  int rc = cli_parse(ctx, argc, argv, opts, pos, 2, &np);
  if (rc) return rc;
  if (np < 1) return cli_error(ctx, "list or show? e.g. roofline model show llama3-8b");
  if (strcmp(pos[0], "list") == 0) {
    ctx->cmd = "model list";
    if (np > 1) return cli_error(ctx, "unexpected argument '%s'", pos[1]);
    for (const cli_opt *o = opts; o->name; o++)
      if (o->seen) return cli_error(ctx, "--%s does not apply to list", o->name);
    return list(ctx);
  }
  if (strcmp(pos[0], "show") != 0)
    return cli_error(ctx, "unknown subcommand '%s' (list, show)", pos[0]);
  ctx->cmd = "model show";
  if (np > 1) {
    if (mf.model) return cli_error(ctx, "give the model once (as an argument or as --model)");
    mf.model = pos[1];
  }
  rl_model m;
  if ((rc = cli_resolve_model(ctx, opts, &mf, &m))) return rc;
  return show(ctx, &m, kv_dtype);
}

const cli_command cmd_model = {"model", run, "built-in Transformer configurations and their parameter counts", help, 0};
