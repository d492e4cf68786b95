/*
 * cmd_decode.c -- `roofline decode`: the roofline of one decode step of an
 * LLM over a sweep of batch sizes, with the KV cache's traffic and the
 * device's memory capacity.
 */
#include "cli_llm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: roofline decode --model ID|PATH [--batch LIST] [--context T] [--hw ID] [--ops]\n"
    "\n"
    "One decode step makes one token for each of B sequences. It reads every weight\n"
    "once, whatever B (the batch shares them), plus each sequence's own KV cache of\n"
    "T tokens, and does 2 FLOPs per parameter multiplied per token plus the\n"
    "attention over the context (4 L H d_h T). Its time is at least\n"
    "max(FLOPs/peak, bytes/bandwidth): with weights alone the intensity is about B,\n"
    "so the step time hardly grows until B nears the ridge point; the caches add\n"
    "bytes that grow with B, so long contexts stay memory-bound at any batch.\n"
    "\n"
    "For each batch: FLOPs, bytes, intensity, the bound, the step time, tokens/s in\n"
    "all and per sequence, and the memory it needs (weights + B caches) against the\n"
    "device's capacity. Then the ridge batch (weights only), the intensity decode\n"
    "tends to as B grows, and the largest batch that fits.\n"
    "\n"
    CLI_MODEL_HELP
    "workload:\n"
    "@--batch\n"
    "@--context\n"
    "@--ops\n"
    CLI_INFER_HELP
    "  --json, --csv    machine-readable output\n"
    "\n"
    "examples:\n"
    "  roofline decode --model llama3-8b --context 4096 --batch 1,16,64,119\n"
    "  roofline decode --model llama3-8b --embedding full        (the hand figure: 4.8 ms)\n"
    "  roofline decode --params 7e9 --layers 32 --heads 32 --kv-heads 8 --head-dim 128 \\\n"
    "                  --context 4096 --batch 1,128\n"
    "  roofline decode --model llama3-70b --tp 4 --weight-dtype fp8 --kv-dtype fp8\n"
    "  roofline decode --model llama3-8b --context 4096 --batch 16 --ops\n";

#define MAX_BATCHES 256

/* "1,8,64" or "1..1024" / "1-1024" (doubling), or a mix. */
static int parse_batches(cli_ctx *ctx, const char *s, double *out, int *n) {
  char tmp[1024], *items[MAX_BATCHES];
  int ni = cli_split_list(ctx, "--batch", s, tmp, sizeof tmp, items, MAX_BATCHES);
  if (ni < 0) return CLI_USAGE;
  *n = 0;
  for (int i = 0; i < ni; i++) {
    char *tok = items[i];
    char *sep = strstr(tok, "..");
    size_t skip = 2;
    if (!sep && tok[0] && (sep = strchr(tok + 1, '-')) != NULL) skip = 1;
    double a, b;
    rl_error e;
    if (sep) {
      *sep = 0;
      if (rl_parse_quantity(tok, RL_UNIT_COUNT, &a, &e) || rl_parse_quantity(sep + skip, RL_UNIT_COUNT, &b, &e))
        return cli_error(ctx, "--batch: %s", e.msg);
    } else {
      if (rl_parse_quantity(tok, RL_UNIT_COUNT, &a, &e)) return cli_error(ctx, "--batch: %s", e.msg);
      b = a;
    }
    if (!(a >= 1) || a != floor(a) || b != floor(b))
      return cli_error(ctx, "--batch: a batch must be a whole number >= 1 (got %g)", a != floor(a) || !(a >= 1) ? a : b);
    if (!(b >= a)) return cli_error(ctx, "--batch: range %g..%g runs backwards", a, b);
    for (double v = a;; v *= 2) {
      if (v > b) v = b;
      if (*n >= MAX_BATCHES) return cli_error(ctx, "--batch: more than %d batch sizes", MAX_BATCHES);
      out[(*n)++] = v;
      if (v >= b) break;
    }
  }
  return CLI_OK;
}

/* ---- parse: the flags, checked, and the batch sizes ---------------------- */
typedef struct decode_opts {
  cli_llm_opts llm;     /* model, inference and device flags */
  double batches[MAX_BATCHES];
  int nb;
  double context;
  int want_ops;         /* --ops: one step op by op */
} decode_opts;

static int parse(cli_ctx *ctx, int argc, char **argv, decode_opts *o) {
  const char *batch_s = NULL;
  o->context = 0;
  o->want_ops = 0;
  o->nb = 0;
  const cli_opt own[] = {{"batch", OPT_STR, &batch_s, 0}, {"context", OPT_TOKENS, &o->context, 0},
                         {"ops", OPT_FLAG, &o->want_ops, 0}, {NULL, 0, NULL, 0}};
  int rc = cli_llm_parse(ctx, argc, argv, &o->llm, own);
  if (rc) return rc;
  double context = o->context;
  if (!(context >= 0) || context != floor(context))
    return cli_error(ctx, "--context must be a whole number of tokens >= 0 (got %g)", context);
  if (batch_s) {
    if ((rc = parse_batches(ctx, batch_s, o->batches, &o->nb))) return rc;
    if (o->want_ops && o->nb != 1)
      return cli_error(ctx, "--ops tables one decode step: give one batch size (--batch B), not %d", o->nb);
  } else if (o->want_ops) {
    o->batches[o->nb++] = 1;
  } else {
    for (double b = 1; b <= 1024; b *= 2) o->batches[o->nb++] = b;
  }
  return CLI_OK;
}

/* ---- compute: a step per batch size, the op table, the other convention ---- */
typedef struct decode_out {
  rl_decode_row *rows;          /* one per batch size (malloc'd) */
  rl_decode_summary s;
  rl_prefill_op ops[RL_PREFILL_OPS];
  int32_t n_ops;
  double ops_time;              /* the sum of the op bounds */
  rl_decode_row orow, row1;     /* B = 1 under the other embedding convention, and this one */
} decode_out;

static int compute(cli_ctx *ctx, const decode_opts *o, const rl_model *m, const rl_infer_cfg *cfg,
                   const rl_roof *roof, decode_out *out) {
  out->rows = calloc((size_t)o->nb, sizeof *out->rows);
  if (!out->rows) return cli_error(ctx, "out of memory");
  rl_error e;
  rl_status st = rl_decode(m, cfg, roof, o->batches, o->nb, out->rows, &out->s, &e);
  if (st) return cli_fail(ctx, st, &e);
  out->n_ops = 0;
  out->ops_time = 0;
  if (o->want_ops) {
    if ((st = rl_decode_ops(m, cfg, roof, o->batches[0], out->ops, RL_PREFILL_OPS, &out->n_ops, &e)))
      return cli_fail(ctx, st, &e);
    for (int32_t i = 0; i < out->n_ops; i++) out->ops_time += out->ops[i].time_s;
  }
  /* the other embedding convention, at B = 1, to explain the difference */
  rl_infer_cfg other = *cfg;
  other.embedding = cfg->embedding == RL_EMBED_FULL ? RL_EMBED_GATHERED : RL_EMBED_FULL;
  double one = 1;
  rl_decode(m, &other, roof, &one, 1, &out->orow, NULL, NULL);
  rl_decode(m, cfg, roof, &one, 1, &out->row1, NULL, NULL);
  return CLI_OK;
}

/* ---- print ------------------------------------------------------------------ */
typedef struct decode_args {
  const rl_model *m;
  const rl_infer_cfg *cfg;
  const rl_roof *roof;
  const char *hw_id;
  const rl_decode_row *rows;
  int32_t n;
  const rl_decode_summary *sum;
  const rl_prefill_op *ops;
  int32_t n_ops;
} decode_args;

static size_t decode_json(void *arg, char *buf, size_t cap) {
  const decode_args *a = arg;
  return rl_decode_json(a->m, a->cfg, a->roof, a->hw_id, a->rows, a->n, a->sum, a->ops, a->n_ops, buf, cap);
}

/* --csv: a row per batch size, the JSON rows' figures (or the op table
 * with --ops); fits is true/false, empty when the capacity is unknown */
static void print_csv(cli_ctx *ctx, const decode_opts *o, const decode_out *out) {
  if (o->want_ops) {
    cli_ops_csv(ctx, out->ops, out->n_ops, out->ops_time);
    return;
  }
  static const char *const hdr[] = {"batch", "flops", "bytes", "intensity_flop_per_byte", "bound", "step_time_s",
                                    "tokens_per_s", "tokens_per_s_per_seq", "memory_bytes", "fits", "weight_bytes",
                                    "kv_bytes", "compute_time_s", "memory_time_s", "comm_time_s"};
  enum { N = sizeof hdr / sizeof hdr[0] };
  cli_csv_row(ctx, hdr, N);
  for (int i = 0; i < o->nb; i++) {
    const rl_decode_row *r = &out->rows[i];
    const double v[] = {r->batch, r->flops, r->bytes, r->intensity};
    const double w[] = {r->step_time_s, r->tokens_per_s, r->tokens_per_s_per_seq, r->memory_bytes};
    const double x[] = {r->weight_bytes, r->kv_bytes, r->compute_time_s, r->memory_time_s, r->comm_time_s};
    char c[N][40];
    const char *row[N];
    for (int k = 0; k < 4; k++) row[k] = cli_csv_num(c[k], sizeof c[k], v[k]);
    row[4] = rl_bound_name(r->bound);
    for (int k = 0; k < 4; k++) row[5 + k] = cli_csv_num(c[5 + k], sizeof c[5 + k], w[k]);
    row[9] = out->s.mem_bytes <= 0 ? "" : (r->fits ? "true" : "false");
    for (int k = 0; k < 5; k++) row[10 + k] = cli_csv_num(c[10 + k], sizeof c[10 + k], x[k]);
    cli_csv_row(ctx, row, N);
  }
}

/* The table: one row per batch size. */
static cli_table *batch_table(const decode_opts *dop, const decode_out *out) {
  const rl_decode_summary s = out->s;
  const rl_decode_row *rows = out->rows;
  const int nb = dop->nb;
  const char *hdr[] = {"batch", "FLOPs", "bytes", "FLOP/B", "bound", "step >=", "tokens/s", "per seq",
                       "memory", "fits"};
  cli_table *t = cli_table_new(10, hdr);
  /* a narrow terminal: F and Q give way first (their ratio stays) */
  cli_table_optional(t, 1, 1);
  cli_table_optional(t, 2, 2);
  cli_table_optional(t, 7, 3);
  for (int i = 0; i < nb; i++) {
    const rl_decode_row *r = &rows[i];
    char cell[10][48];
    snprintf(cell[0], 48, "%.0f", r->batch);
    cli_q(cell[1], 48, r->flops, RL_UNIT_FLOP);
    cli_q(cell[2], 48, r->bytes, RL_UNIT_BYTES);
    cli_q(cell[3], 48, r->intensity, RL_UNIT_FLOP_PER_BYTE);
    snprintf(cell[4], 48, "%s", rl_bound_name(r->bound));
    cli_q(cell[5], 48, r->step_time_s, RL_UNIT_SECONDS);
    snprintf(cell[6], 48, r->tokens_per_s >= 1e4 && r->tokens_per_s <= RL_MAX_COUNT ? "%.0f" : "%.4g", r->tokens_per_s);
    snprintf(cell[7], 48, r->tokens_per_s_per_seq >= 1e4 && r->tokens_per_s_per_seq <= RL_MAX_COUNT ? "%.0f" : "%.4g", r->tokens_per_s_per_seq);
    cli_q(cell[8], 48, r->memory_bytes, RL_UNIT_BYTES);
    snprintf(cell[9], 48, "%s", s.mem_bytes <= 0 ? "?" : (r->fits ? "yes" : "NO"));
    const char *cells[10] = {cell[0], cell[1], cell[2], cell[3], cell[4], cell[5], cell[6], cell[7], cell[8], cell[9]};
    cli_table_row(t, cells);
  }
  return t;
}

/* What the devices the weights need come to as a degree a run can use:
 * one dividing the heads (--tp), or the experts (--ep). */
static void degree_hint(const rl_decode_summary *s, const rl_model *c, char *buf, size_t cap) {
  if (s->ep > 1 && s->ep_needed > 0)
    snprintf(buf, cap, "at least %.0f devices; --ep %.0f (a multiple of --tp %d dividing the %.0f experts)",
             s->devices_needed, s->ep_needed, s->tp, c->experts);
  else if (s->ep > 1)
    snprintf(buf, cap, "at least %.0f devices; no --ep dividing the %.0f experts is enough (add --pp or --tp)",
             s->devices_needed, c->experts);
  else if (s->tp_needed > 0)
    snprintf(buf, cap, "at least %.0f devices; --tp %.0f (the smallest degree dividing the %.0f heads%s)",
             s->devices_needed, s->tp_needed, c->heads, s->pp > 1 ? " with this --pp" : "");
  else
    snprintf(buf, cap, "at least %.0f devices; no --tp dividing the %.0f heads is enough (add --pp)",
             s->devices_needed, c->heads);
}

/* What is decoded on what: the fit, the model, its weights, KV cache and
 * FLOPs per token, the roof and the inference flags' notes. */
static void print_head(cli_ctx *ctx, decode_opts *dop, const rl_model *m, const rl_model *cp,
                       const rl_infer_cfg *cfgp, const rl_hw *hwp, const rl_roof *roofp, const decode_out *out) {
  const rl_infer_cfg cfg = *cfgp;
  const rl_hw hw = *hwp;
  const rl_roof roof = *roofp;
  const rl_model c = *cp;
  const rl_decode_summary s = out->s;
  const rl_decode_row *rows = out->rows;
  const double context = dop->context;
  const int nb = dop->nb;
  cli_infer_flags *inf = &dop->llm.inf;
  int32_t wd = cfg.weight_dtype >= 0 ? cfg.weight_dtype : c.dtype;
  int32_t kd = cfg.kv_dtype >= 0 ? cfg.kv_dtype : rl_model_kv_dtype(&c, cfg.act_dtype);
  int nofit = 0;
  for (int i = 0; i < nb; i++) nofit += !rows[i].fits;
  FILE *o = ctx->out;
  char pk[96];
  char need[160];
  degree_hint(&s, &c, need, sizeof need);
  if (s.mem_bytes > 0 && !s.weights_fit)
    fprintf(o, "DOES NOT FIT: the weights alone (%s%s) exceed the %s of %s; %s\n\n",
            CLI_Q(s.weights_bytes * s.tp, RL_UNIT_BYTES), s.tp > 1 ? " in all" : "",
            CLI_Q(s.mem_bytes, RL_UNIT_BYTES), s.tp > 1 ? "each device" : "the device", need);
  else if (nofit > 0) {
    /* the largest batch that does not fit, and the degree that fits it */
    const rl_decode_row *big = NULL;
    for (int i = 0; i < nb; i++)
      if (!rows[i].fits && (!big || rows[i].batch > big->batch)) big = &rows[i];
    char deg[128];
    if (big->tp_fit > 0 || big->ep_fit > 0)
      snprintf(deg, sizeof deg, "; batch %.0f fits with --%s %.0f", big->batch, big->ep_fit > 0 ? "ep" : "tp",
               big->ep_fit > 0 ? big->ep_fit : big->tp_fit);
    else
      snprintf(deg, sizeof deg, "; no --%s dividing the %s fits batch %.0f (add --pp%s)", s.ep > 1 ? "ep" : "tp",
               s.ep > 1 ? "experts" : "heads", big->batch, s.ep > 1 ? " or --tp" : "");
    fprintf(o, "DOES NOT FIT at %d of the %d batch sizes: at most %.0f sequences of %.0f tokens fit in %s%s\n\n",
            nofit, nb, s.max_batch, context, CLI_Q(s.mem_bytes, RL_UNIT_BYTES), deg);
  }
  fprintf(o, "Decode of %s (%s) on %s%s%s%s\n", c.id, c.name, hw.id, hw.name[0] ? " (" : "", hw.name,
          hw.name[0] ? ")" : "");
  if (s.tp > 1) fprintf(o, "  tensor parallel over %d devices: weights, KV heads and FLOPs split, figures per device\n", s.tp);
  cli_par_notes(ctx, m, &cfg, 1);
  fprintf(o, "  parameters   %s%s", CLI_N(s.params), s.active_params < s.params ? "" : "\n");
  if (s.active_params < s.params) fprintf(o, " (%s active per token)\n", CLI_N(s.active_params));
  char fmt[48];
  if (s.quantized && s.kept_bytes > 0)
    snprintf(fmt, sizeof fmt, "%s + %s", rl_dtype_name(wd), rl_dtype_name(s.kept_dtype));
  else if (s.expert_weights)
    snprintf(fmt, sizeof fmt, "%s + %s experts", rl_dtype_name(wd), rl_wfmt_name(s.expert_weights));
  else
    snprintf(fmt, sizeof fmt, "%s", rl_dtype_name(wd));
  fprintf(o, "  weights      %s in %s resident%s; read per step: %s%s (%s)\n", CLI_Q(s.weights_bytes, RL_UNIT_BYTES),
          fmt, s.pp > 1 ? " (largest stage)" : "", CLI_Q(s.weights_read_bytes, RL_UNIT_BYTES),
          s.pp > 1 ? " over all stages" : "",
          cfg.embedding == RL_EMBED_FULL
              ? "embedding table read in full, every parameter 2 FLOPs/token: the hand-calculation convention"
              : (s.weights_read_bytes < s.weights_bytes ? "embedding: only the row each sequence looks up"
                                                       : "every weight once"));
  fprintf(o, "  KV cache     %s (%.4g KiB) per token in %s; %s (%.4g MiB) per sequence at %.0f tokens%s\n",
          CLI_Q(s.kv_bytes_per_token, RL_UNIT_BYTES), s.kv_bytes_per_token / 1024, rl_dtype_name(kd),
          CLI_Q(s.kv_bytes_per_seq, RL_UNIT_BYTES), s.kv_bytes_per_seq / 1048576, context,
          s.tp > 1 ? (c.kv_lora_rank > 0 ? " (the latent is held whole by every device)" : " (all devices together)")
                   : "");
  char af[96];
  if (c.kv_lora_rank > 0) snprintf(af, sizeof af, "latent, absorbed: 2 L H (2r + r_rope) T");
  else snprintf(af, sizeof af, "4 L H d_h T");
  if (c.window > 0 && context > c.window)
    snprintf(af + strlen(af), sizeof af - strlen(af), ", T <= %.0f on %.0f layers", c.window, c.window_layers);
  fprintf(o, "  FLOPs/token  %s linear (2 per parameter multiplied) + %s attention (%s)\n",
          CLI_Q(s.linear_flops_per_token, RL_UNIT_FLOP), CLI_Q(s.attention_flops_per_token, RL_UNIT_FLOP), af);
  if (s.activation_flops_per_token > 0)
    fprintf(o, "               + %s MLP activation (%s: %g per element of d_ff)\n",
            CLI_Q(s.activation_flops_per_token, RL_UNIT_FLOP), rl_model_act_name(&c), rl_model_act_flops(&c));
  fprintf(o, "  roof         %s, %s: ridge %s\n", cli_peak_label(&roof, pk, sizeof pk),
          CLI_Q(roof.bandwidth, RL_UNIT_BYTES_S), CLI_Q(s.ridge, RL_UNIT_FLOP_PER_BYTE));
  cli_infer_notes(ctx, inf, &s, &cfg);
}

/* What the table means: the ridge batch, the intensities as B grows, the
 * memory, the embedding convention, the pipeline, the bounds' assumptions. */
static void print_notes(FILE *o, const decode_opts *dop, const rl_model *cp, const rl_infer_cfg *cfgp,
                        const rl_roof *roofp, const decode_out *out) {
  const rl_infer_cfg cfg = *cfgp;
  const rl_roof roof = *roofp;
  const rl_model c = *cp;
  const rl_decode_summary s = out->s;
  const rl_decode_row orow = out->orow, row1 = out->row1;
  const double context = dop->context;
  if (s.ridge_batch > 0)
    fprintf(o, "ridge batch: weights-only decode turns compute-bound at B = %.1f (intensity ~ B)\n", s.ridge_batch);
  else
    fprintf(o, "ridge batch: none (weights-only intensity never reaches the ridge)\n");
  if (context > 0) {
    fprintf(o, "as B grows, intensity -> %.3g FLOP/B (FLOPs per token / cache bytes per token)%s\n",
            s.asymptotic_intensity,
            s.asymptotic_intensity < s.ridge ? ": below the ridge, memory-bound at any batch" : "");
    double share = c.kv_lora_rank > 0 ? c.heads : c.heads / c.kv_heads;
    fprintf(o, "attention alone: %.3g FLOP/B (each %s element serves %.0f query head%s), whatever the batch\n",
            s.attention_intensity, c.kv_lora_rank > 0 ? "cached latent" : "K/V", share, share == 1 ? "" : "s");
  }
  if (s.mem_bytes > 0) {
    if (!s.weights_fit) {
      char need[160];
      degree_hint(&s, &c, need, sizeof need);
      fprintf(o, "memory: the weights (%s) do not fit in %s: %s\n", CLI_Q(s.weights_bytes * s.tp, RL_UNIT_BYTES),
              CLI_Q(s.mem_bytes, RL_UNIT_BYTES), need);
    } else if (s.max_batch >= 0) {
      fprintf(o, "memory: %s - %s of weights = %s for caches: at most %.0f sequences of %.0f tokens\n",
              CLI_Q(s.mem_bytes, RL_UNIT_BYTES), CLI_Q(s.weights_bytes, RL_UNIT_BYTES),
              CLI_Q(s.mem_bytes - s.weights_bytes, RL_UNIT_BYTES), s.max_batch, context);
    } else {
      fprintf(o, "memory: weights %s of %s; no cache at context 0\n", CLI_Q(s.weights_bytes, RL_UNIT_BYTES),
              CLI_Q(s.mem_bytes, RL_UNIT_BYTES));
    }
  }
  if (fabs(orow.weight_bytes - row1.weight_bytes) > 1e-9 * row1.weight_bytes) {
    double tw = row1.weight_bytes / roof.bandwidth, to = orow.weight_bytes / roof.bandwidth;
    if (cfg.embedding == RL_EMBED_GATHERED)
      fprintf(o, "convention: at B = 1 the weights read take %s (%s): the embedding table is gathered,\n"
                 "  one row per sequence. Counting every weight, as back-of-the-envelope accounts do (Llama 3 8B: \"16 GB ...\n"
                 "  4.8 ms\"; --embedding full): %s, %s, %.4g tokens/s with no cache; the difference is the\n"
                 "  %s table, of which a step reads only B rows.\n",
              CLI_Q(tw, RL_UNIT_SECONDS), CLI_Q(row1.weight_bytes, RL_UNIT_BYTES), CLI_Q(orow.weight_bytes, RL_UNIT_BYTES),
              CLI_Q(to, RL_UNIT_SECONDS), 1 / to, CLI_Q(s.embedding_bytes, RL_UNIT_BYTES));
    else
      fprintf(o, "convention: the whole embedding table counted, as back-of-the-envelope accounts do: %s at B = 1 (%s). A kernel\n"
                 "  reads only the rows it looks up (--embedding gathered, the default): %s, %s.\n",
              CLI_Q(row1.weight_bytes, RL_UNIT_BYTES), CLI_Q(tw, RL_UNIT_SECONDS), CLI_Q(orow.weight_bytes, RL_UNIT_BYTES),
              CLI_Q(to, RL_UNIT_SECONDS));
  }
  if (s.pp > 1)
    fprintf(o, "pipeline: a micro-batch crosses the %d stages in turn, so with one (B = 1) each stage idles\n"
               "  %d/%d of the step; more micro-batches keep the stages busy but read each stage's weights once\n"
               "  per micro-batch (bytes and FLOPs above are summed over stages and micro-batches).\n",
            s.pp, s.pp - 1, s.pp);
  fprintf(o, "bounds assume perfect overlap of compute and memory and leave out activations and the new\n"
             "token's KV write; a real step is slower.\n");
}

/* --ops: one step op by op at the first batch size. */
static void print_ops(cli_ctx *ctx, const decode_opts *dop, const decode_out *out) {
  FILE *o = ctx->out;
  const rl_decode_row *rows = out->rows;
  const rl_prefill_op *ops = out->ops;
  const int32_t n_ops = out->n_ops;
  const double ops_time = out->ops_time, context = dop->context;
  const double *batches = dop->batches;
  fprintf(o, "\none step op by op at B = %.0f, context %.0f:\n\n", batches[0], context);
  cli_table *ot = cli_ops_table(ops, n_ops, ops_time);
  cli_table_print(ctx, ot);
  cli_table_free(ot);
  fprintf(o, "\nsum of the op bounds >= %s, against the step's %s (%+.2f%%): each op is bounded on its own\n"
             "(no overlap between ops), and the ops add the softmax, norms, residual adds and the activations\n"
             "each op reads and writes, which the step leaves out.\n",
          CLI_Q(ops_time, RL_UNIT_SECONDS), CLI_Q(rows[0].step_time_s, RL_UNIT_SECONDS),
          100 * (ops_time / rows[0].step_time_s - 1));
}

static void print_text(cli_ctx *ctx, decode_opts *dop, const rl_model *m, const rl_infer_cfg *cfg, const rl_hw *hw,
                       const rl_roof *roof, const decode_out *out) {
  rl_model c;
  rl_model_check(m, &c, NULL);
  print_head(ctx, dop, m, &c, cfg, hw, roof, out);
  fprintf(ctx->out, "\n");
  cli_table *t = batch_table(dop, out);
  cli_table_print(ctx, t);
  cli_table_free(t);
  fprintf(ctx->out, "\n");
  print_notes(ctx->out, dop, &c, cfg, roof, out);
  /* the bound took the all-reduce floor: NCCL's ring estimate beside it */
  double nccl;
  rl_infer_cfg alt = *cfg;
  rl_decode_row ar;
  if (dop->nb > 0 && cli_nccl_alternative(&dop->llm.inf, hw, cfg, &nccl)) {
    alt.comm_latency_s = nccl;
    if (rl_decode(m, &alt, roof, dop->batches, 1, &ar, NULL, NULL) == RL_OK &&
        fabs(ar.step_time_s - out->rows[0].step_time_s) > 0.01 * out->rows[0].step_time_s)
      fprintf(ctx->out, "with NCCL's ring latency instead of the floor (--comm-latency nccl, %s per all-reduce; an\n"
                        "  estimate, not a bound): %s a step at B = %.0f, %s more\n",
              CLI_Q(nccl, RL_UNIT_SECONDS), CLI_Q(ar.step_time_s, RL_UNIT_SECONDS), dop->batches[0],
              CLI_PCT(ar.step_time_s / out->rows[0].step_time_s - 1));
  }
  if (dop->want_ops) print_ops(ctx, dop, out);
}

/* parse -> resolve (model, device, roof) -> compute -> print */
static int run(cli_ctx *ctx, int argc, char **argv) {
  decode_opts *o = malloc(sizeof *o);
  if (!o) return cli_error(ctx, "out of memory");
  decode_out *out = calloc(1, sizeof *out);
  int rc = out ? parse(ctx, argc, argv, o) : cli_error(ctx, "out of memory");
  rl_model m;
  rl_infer_cfg cfg;
  rl_hw hw;
  rl_roof roof;
  if (!rc) rc = cli_llm_resolve(ctx, &o->llm, NULL, NULL, &m, &cfg, &hw, &roof);
  if (!rc) {
    cfg.context = o->context;
    rc = compute(ctx, o, &m, &cfg, &roof, out);
  }
  if (!rc) {
    int nofit = 0;
    for (int i = 0; i < o->nb; i++) nofit += !out->rows[i].fits;
    int fail = CLI_OK;
    if (o->llm.inf.require_fit && (nofit > 0 || !out->s.weights_fit)) {
      fail = CLI_FAIL;
      fprintf(ctx->err, "roofline decode: does not fit in %s per device (--require-fit)\n",
              CLI_Q(out->s.mem_bytes, RL_UNIT_BYTES));
    }
    if (ctx->json) {
      decode_args a = {&m, &cfg, &roof, hw.id, out->rows, o->nb, &out->s, out->ops, out->n_ops};
      rc = cli_print_json(ctx, decode_json, &a);
    } else if (ctx->csv) {
      print_csv(ctx, o, out);
    } else {
      print_text(ctx, o, &m, &cfg, &hw, &roof, out);
    }
    if (!rc) rc = fail;
  }
  if (out) free(out->rows);
  free(out);
  free(o);
  return rc;
}

const cli_command cmd_decode = {"decode", run, "LLM decode: step time, tokens/s, KV cache and memory vs batch", help, 0};
