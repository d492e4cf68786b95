/*
 * cli_llm.c -- the model and inference flags of the LLM commands, and the
 * number formats of their text output.
 */
#include "cli_llm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const size_flags[] = {"params", "layers", "d-model", "heads", "kv-heads",
                                         "head-dim", "d-ff", "vocab", "experts",
                                         "experts-active", NULL};

static int load_config(cli_ctx *ctx, const char *path, rl_model *out) {
  char file[4096];
  struct stat sb;
  size_t pl = strlen(path);
  while (pl > 1 && path[pl - 1] == '/') pl--;
  if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
    snprintf(file, sizeof file, "%.*s/config.json", (int)pl, path);
  else
    snprintf(file, sizeof file, "%s", path);
  char *buf;
  size_t len;
  int rc = cli_read_file(ctx, file, (size_t)16 << 20, &buf, &len);
  if (rc) return rc;
  /* the model's id: the folder's name, else the file's */
  char id[RL_MODEL_ID_MAX];
  const char *base = path;
  for (size_t i = 0; i < pl; i++)
    if (path[i] == '/' && i + 1 < pl) base = path + i + 1;
  snprintf(id, sizeof id, "%.*s", (int)(pl - (size_t)(base - path)), base);
  if (strcmp(path, "-") == 0) snprintf(id, sizeof id, "config");
  rl_error e;
  rl_status st = rl_model_from_hf_config(buf, len, id, out, &e);
  free(buf);
  if (st) return cli_error(ctx, "--model %s: %s", file, e.msg);
  return CLI_OK;
}

static const char *const shape_flags[] = {"mlp", "norm", "tied", "bias", "learned-pos", NULL};

int cli_resolve_model(cli_ctx *ctx, const cli_opt *opts, const cli_model_flags *f, rl_model *out) {
  for (int i = 0; shape_flags[i]; i++)
    if (cli_seen(opts, shape_flags[i]) && (f->model || !cli_seen(opts, "d-ff") || cli_seen(opts, "params")))
      return cli_error(ctx, "--%s describes a model derived from its sizes (--d-ff and --vocab, no --params%s)",
                       shape_flags[i], f->model ? ", no --model" : "");
  if (f->model) {
    for (int i = 0; size_flags[i]; i++)
      if (cli_seen(opts, size_flags[i]))
        return cli_error(ctx, "--model and --%s exclude each other (give a model either by --model or by its sizes)",
                         size_flags[i]);
    struct stat sb;
    int exists = stat(f->model, &sb) == 0;
    /* a Hugging Face id ("org/name") that is not a local path: a built-in
     * model's alias, or an explanation of how to get its config.json */
    int hub = !exists && strchr(f->model, '/') && !strstr(f->model, ".json") && f->model[0] != '/' &&
              f->model[0] != '.' && strchr(f->model, '/') == strrchr(f->model, '/');
    if (strcmp(f->model, "-") == 0 || (!hub && (strchr(f->model, '/') || strstr(f->model, ".json") || exists)))
      return load_config(ctx, f->model, out);
    rl_error e;
    rl_status st = rl_model_find(f->model, out, &e);
    if (st) return cli_error(ctx, "--model: %s", CLI_SPELL(e.msg));
    return CLI_OK;
  }
  int any = 0;
  for (int i = 0; size_flags[i]; i++) any |= cli_seen(opts, size_flags[i]);
  if (!any) return cli_error(ctx, "which model? give --model ID|config.json (roofline model list) or --layers, --heads and --params");
  const double v[] = {f->params, f->layers, f->d_model, f->heads, f->kv_heads, f->head_dim,
                      f->d_ff, f->vocab, f->experts, f->experts_active};
  for (int i = 0; size_flags[i]; i++)
    if (cli_seen(opts, size_flags[i]) && !(v[i] > 0))
      return cli_error(ctx, "--%s must be > 0 (got %g)", size_flags[i], v[i]);
  if (!cli_seen(opts, "layers"))
    return cli_error(ctx, "the model names no layers: give --layers (or --model ID|config.json)");
  int one_head = 0;
  if (!cli_seen(opts, "heads")) {
    if (!(f->heads_optional && cli_seen(opts, "d-model") && !cli_seen(opts, "head-dim") && !cli_seen(opts, "kv-heads")))
      return cli_error(ctx, "the model names no attention heads: give --heads");
    one_head = 1; /* only H d_h = d matters (the attention FLOPs) */
  }
  if (!cli_seen(opts, "params") && !(cli_seen(opts, "d-ff") && cli_seen(opts, "vocab")))
    return cli_error(ctx, "give the parameter count (--params 7e9) or --d-ff and --vocab to derive it");
  rl_model m = rl_model_init();
  m.params = f->params;
  m.layers = f->layers;
  m.d_model = f->d_model;
  m.heads = one_head ? 1 : f->heads;
  m.kv_heads = f->kv_heads;
  m.head_dim = f->head_dim;
  m.d_ff = f->d_ff;
  m.vocab = f->vocab;
  m.experts = f->experts;
  m.experts_active = f->experts_active;
  rl_error pe;
  if (f->mlp && rl_mlp_parse(f->mlp, &m.mlp, &pe)) return cli_error(ctx, "--mlp: %s", pe.msg);
  if (f->norm && rl_norm_parse(f->norm, &m.norm, &pe)) return cli_error(ctx, "--norm: %s", pe.msg);
  m.tied_embeddings = f->tied;
  m.bias = f->bias;
  if (cli_seen(opts, "learned-pos")) {
    if (!(f->learned_pos >= 1) || f->learned_pos != floor(f->learned_pos) || f->learned_pos > 1e9)
      return cli_error(ctx, "--learned-pos must be a whole number of positions >= 1 (got %g)", f->learned_pos);
    m.learned_pos = 1;
    m.max_seq = f->learned_pos;
  }
  snprintf(m.id, sizeof m.id, "custom");
  snprintf(m.name, sizeof m.name, "model given by flags");
  snprintf(m.source, sizeof m.source, "command line");
  rl_model c;
  rl_error e;
  rl_status st = rl_model_check(&m, &c, &e);
  if (st) return cli_error(ctx, "%s", CLI_SPELL(e.msg));
  *out = m;
  return CLI_OK;
}

/* ---- inference flags -------------------------------------------------------- */
void cli_infer_flags_init(cli_infer_flags *f) {
  memset(f, 0, sizeof *f);
  f->weight_dtype = f->kv_dtype = f->dtype = -1;
  f->tp = f->pp = f->ep = 1;
  f->compute_eff_v = f->bw_eff_v = 1;
}

/* A fraction in (0, 1]: "0.7" or "70%" (rl_fraction_parse). */
static int fraction(cli_ctx *ctx, const char *flag, const char *text, double *out) {
  rl_error e;
  rl_status st = rl_fraction_parse(text, out, &e);
  if (st) return cli_error(ctx, "--%s%s%s", flag, st == RL_EINVAL ? " " : ": ", e.msg);
  return CLI_OK;
}

int cli_infer_setup(cli_ctx *ctx, const cli_opt *opts, cli_infer_flags *f,
                    const cli_hw_flags *hwf, const rl_model *m, rl_infer_cfg *cfg, rl_hw *hw,
                    rl_roof *roof) {
  int rc;
  rl_error e;
  f->peak_note[0] = f->latency_note[0] = f->par_note[0] = f->measured_note[0] = 0;
  /* the flags' words as the library's values (it checks them and decides) */
  rl_infer_req *req = &f->req;
  *req = rl_infer_req_init();
  if (f->embedding && rl_embed_parse(f->embedding, &req->embedding, &e))
    return cli_error(ctx, "--embedding: %s", e.msg);
  if (f->compute_eff && (rc = fraction(ctx, "compute-eff", f->compute_eff, &f->compute_eff_v))) return rc;
  if (f->bw_eff && (rc = fraction(ctx, "bw-eff", f->bw_eff, &f->bw_eff_v))) return rc;
  if (f->group_size && rl_group_size_parse(f->group_size, &req->group_size, &e))
    return cli_error(ctx, "--group-size%s%s", e.msg[0] == '\'' ? ": " : " ", e.msg);
  req->weight_dtype = f->weight_dtype;
  req->kv_dtype = f->kv_dtype;
  req->dtype = f->dtype;
  req->tp = f->tp;
  req->pp = f->pp;
  req->ep = f->ep;
  req->microbatches_given = cli_seen(opts, "microbatches");
  req->microbatches = f->microbatches;
  req->quantize_all = f->quantize_all;
  req->link_bw_given = cli_seen(opts, "link-bw");
  req->link_bw = f->link_bw;
  req->comm_latency_given = 0;
  if (f->comm_latency_s && strcmp(f->comm_latency_s, "nccl") == 0) {
    req->comm_latency_given = 2; /* NCCL's ring estimate */
  } else if (f->comm_latency_s) {
    if ((rc = cli_quantity(ctx, "comm-latency", f->comm_latency_s, RL_UNIT_SECONDS, &req->comm_latency,
                           " (or nccl)")))
      return rc;
    req->comm_latency_given = 1;
  }
  req->compute_eff = f->compute_eff ? f->compute_eff_v : 0;
  req->bw_eff = f->bw_eff ? f->bw_eff_v : 0;
  req->roof = cli_roof_req(hwf, RL_BF16, 1);
  if ((rc = cli_resolve_hw(ctx, hwf, 1, hw))) return rc;
  rl_infer_info info;
  rl_status st = rl_infer_setup(m, hw, req, cfg, roof, &info, &e);
  if (st) return cli_fail(ctx, st, &e);

  /* what was assumed, in words */
  const int32_t act = info.peak_dtype;
  if (act != info.dtype)
    snprintf(f->peak_note, sizeof f->peak_note,
             "%s has no %s tensor peak; its %s peak stands in (the same rate wherever both are given)",
             hw->id, rl_dtype_name(info.dtype), rl_dtype_name(act));
  if (hwf->peak <= 0 && roof->peak_kind == RL_PEAK_FP32 && (act == RL_FP16 || act == RL_BF16))
    snprintf(f->peak_note, sizeof f->peak_note,
             "%s (a CPU) has no %s peak; its fp32 peak stands in (fp16/bf16 operands converted to fp32)", hw->id,
             rl_dtype_name(act));
  if (roof->measured)
    snprintf(f->measured_note, sizeof f->measured_note, "%s of %s measured on this machine (%.160s)",
             roof->measured == (RL_ROOF_MEASURED_PEAK | RL_ROOF_MEASURED_BW)
                 ? "peak and bandwidth"
                 : (roof->measured & RL_ROOF_MEASURED_PEAK) ? "the peak" : "the bandwidth",
             hw->id, hw->source);
  if (f->pp > 1 || f->ep > 1) {
    char a[48] = "", b[64] = "";
    if (f->pp > 1) snprintf(a, sizeof a, "%s per stage send", CLI_Q(cfg->p2p_latency_s, RL_UNIT_SECONDS));
    if (f->ep > 1) snprintf(b, sizeof b, "%s per all-to-all", CLI_Q(cfg->a2a_latency_s, RL_UNIT_SECONDS));
    if (hw->link_latency_s > 0)
      snprintf(f->par_note, sizeof f->par_note, "%s%s%s: NCCL's %s base + %s%s%s x %s (%s); links at %s", a,
               a[0] && b[0] ? ", " : "", b, CLI_Q(RL_NCCL_BASE_LATENCY_S, RL_UNIT_SECONDS),
               f->pp > 1 ? "1 hop (send)" : "", a[0] && b[0] ? " or " : "", f->ep > 1 ? "ep-1 hops (all-to-all)" : "",
               CLI_Q(hw->link_latency_s, RL_UNIT_SECONDS), hw->id, CLI_Q(cfg->link_bw, RL_UNIT_BYTES_S));
    else
      snprintf(f->par_note, sizeof f->par_note, "no link latency for %s: sends and all-to-alls cost bandwidth only (%s)",
               hw->id, CLI_Q(cfg->link_bw, RL_UNIT_BYTES_S));
  }
  if (f->tp > 1) {
    if (req->comm_latency_given == 1)
      snprintf(f->latency_note, sizeof f->latency_note, "%s per all-reduce (--comm-latency)",
               CLI_Q(cfg->comm_latency_s, RL_UNIT_SECONDS));
    else if (req->comm_latency_given == 2 && hw->link_latency_s > 0)
      /* the line as it was when NCCL's model was the default */
      snprintf(f->latency_note, sizeof f->latency_note,
               "%s per all-reduce: NCCL's ring model, %s base + 2(n-1) x %s per link hop (%s)",
               CLI_Q(cfg->comm_latency_s, RL_UNIT_SECONDS), CLI_Q(RL_NCCL_BASE_LATENCY_S, RL_UNIT_SECONDS),
               CLI_Q(hw->link_latency_s, RL_UNIT_SECONDS), hw->id);
    else if (info.comm_latency_default)
      snprintf(f->latency_note, sizeof f->latency_note,
               "%s per all-reduce: the floor no published measurement beats (NVLink: a 1 KiB all-reduce\n"
               "               on 4 H800, NVIDIA/nccl issue 1984); NCCL's ring model gives %s (--comm-latency nccl)",
               CLI_Q(cfg->comm_latency_s, RL_UNIT_SECONDS),
               CLI_Q(rl_comm_latency(hw, RL_COMM_ALLREDUCE_NCCL, f->tp), RL_UNIT_SECONDS));
    else
      snprintf(f->latency_note, sizeof f->latency_note,
               "none: %s has no link latency in the database, so all-reduces cost bandwidth only "
               "(give --comm-latency)", hw->id);
  }
  return CLI_OK;
}

int cli_nccl_alternative(const cli_infer_flags *f, const rl_hw *hw, const rl_infer_cfg *cfg, double *nccl) {
  if (cfg->tp <= 1 || f->req.comm_latency_given || !(hw->link_latency_s > 0)) return 0;
  *nccl = rl_comm_latency(hw, RL_COMM_ALLREDUCE_NCCL, cfg->tp);
  return *nccl != cfg->comm_latency_s;
}

void cli_infer_notes(cli_ctx *ctx, const cli_infer_flags *f, const rl_decode_summary *s,
                     const rl_infer_cfg *cfg) {
  FILE *o = ctx->out;
  if (f->peak_note[0]) fprintf(o, "  peak         %s\n", f->peak_note);
  if (f->latency_note[0]) fprintf(o, "  latency      %s\n", f->latency_note);
  if (f->par_note[0]) fprintf(o, "  links        %s\n", f->par_note);
  if (f->measured_note[0]) fprintf(o, "  measured     %s\n", f->measured_note);
  if (f->compute_eff_v < 1 || f->bw_eff_v < 1)
    fprintf(o, "  assumed      %s of the peak and %s of the bandwidth reached (--compute-eff, --bw-eff);\n"
               "               the roofs below are scaled by them, not the pure bound\n",
            CLI_PCT(f->compute_eff_v), CLI_PCT(f->bw_eff_v));
  if (s && s->quantized) {
    char g[64];
    if (s->group_size > 0) snprintf(g, sizeof g, "groups of %.0f weights", s->group_size);
    else if (s->group_size < 0) snprintf(g, sizeof g, "one scale per output channel");
    else snprintf(g, sizeof g, "no scale bytes counted");
    fprintf(o, "  quantized    weight-only: %s, %s (%s of scales%s);\n               %s stay in %s (%s)\n",
            rl_dtype_name(cfg->weight_dtype), g, CLI_Q(s->scale_bytes, RL_UNIT_BYTES),
            s->group_size != 0 && cfg->weight_dtype == RL_INT4 ? ", 16-bit scale + 4-bit zero point each"
                                                                : (s->group_size != 0 ? ", 16-bit each" : ""),
            cfg->quantize_all ? "norms and routers" : "embedding, output layer, norms and routers",
            rl_dtype_name(s->kept_dtype), CLI_Q(s->kept_bytes, RL_UNIT_BYTES));
  }
  if (s && s->expert_weights) {
    int32_t ef = s->expert_weights;
    double eb = rl_dtype_bytes(rl_wfmt_dtype(ef)) * 8, bl = rl_wfmt_block(ef), sb = rl_wfmt_scale_bits(ef);
    fprintf(o, "  experts      routed experts stored in %s (%g-bit %s in blocks of %g, one %g-bit scale each: %g bits\n"
               "               a weight): %s; the rest in the model's format (a --weight-dtype applies to every matrix)\n",
            rl_wfmt_name(ef), eb, rl_dtype_name(rl_wfmt_dtype(ef)), bl, sb, eb + sb / bl,
            CLI_Q(s->expert_bytes, RL_UNIT_BYTES));
  }
}

const char *cli_peak_label(const rl_roof *r, char *buf, size_t cap) {
  int vector = r->peak_kind == RL_PEAK_FP32 || r->peak_kind == RL_PEAK_FP64 || r->peak_kind == RL_PEAK_VEC16;
  snprintf(buf, cap, "%s %s%s", CLI_Q(r->peak, RL_UNIT_FLOP_S),
           r->peak_kind < 0 ? "(--peak)" : rl_peak_name(r->peak_kind),
           r->sparse ? " SPARSE peak" : r->peak_kind < 0 ? "" : vector ? " peak" : " dense tensor peak");
  return buf;
}

/* ---- op tables (prefill, decode --ops) ----------------------------------- */
cli_table *cli_ops_table(const rl_prefill_op *ops, int32_t n, double total) {
  const char *hdr[] = {"op", "count", "FLOPs", "bytes", "FLOP/B", "bound", "time >=", "share"};
  cli_table *t = cli_table_new(8, hdr);
  for (int32_t i = 0; i < n; i++) {
    char cell[8][48];
    /* a decode step's routed experts are an expectation: one decimal */
    snprintf(cell[1], 48, ops[i].count == floor(ops[i].count) ? "%.0f" : "%.1f", ops[i].count);
    cli_q(cell[2], 48, ops[i].flops, RL_UNIT_FLOP);
    cli_q(cell[3], 48, ops[i].bytes, RL_UNIT_BYTES);
    if (ops[i].bound == RL_BOUND_NETWORK) snprintf(cell[4], 48, "-");
    else cli_q(cell[4], 48, ops[i].intensity, RL_UNIT_FLOP_PER_BYTE);
    snprintf(cell[5], 48, "%s", rl_bound_name(ops[i].bound));
    cli_q(cell[6], 48, ops[i].time_s, RL_UNIT_SECONDS);
    cli_pct(cell[7], 48, ops[i].time_s / total);
    const char *cells[8] = {ops[i].name, cell[1], cell[2], cell[3], cell[4], cell[5], cell[6], cell[7]};
    cli_table_row(t, cells);
  }
  return t;
}

void cli_par_notes(cli_ctx *ctx, const rl_model *m, const rl_infer_cfg *cfg, int decode) {
  FILE *o = ctx->out;
  rl_stage st[RL_MAX_STAGES];
  int32_t n = 0;
  if (cfg->pp > 1 && rl_stages(m, cfg, st, RL_MAX_STAGES, &n, NULL) == RL_OK) {
    char lay[256] = "";
    size_t k = 0;
    for (int32_t i = 0; i < n && k + 16 < sizeof lay; i++)
      k += (size_t)snprintf(lay + k, sizeof lay - k, "%s%.0f", i ? " + " : "", st[i].layers);
    if (k + 16 >= sizeof lay) snprintf(lay + sizeof lay - 5, 5, "...");
    fprintf(o, "  pipeline     %d stages of %s layers (the embedding on the first, the output layer on\n"
               "               the last); per device: the largest stage's weights and its layers' KV caches\n",
            (int)n, lay);
    if (decode)
      fprintf(o, "               %s micro-batches in flight; a token's time is the larger of one micro-batch's\n"
                 "               path through every stage (+ the sends) and the busiest stage's round of them all\n",
              cfg->microbatches > 0 ? "--microbatches" : "min(pp, B)");
    else
      fprintf(o, "               %s micro-batches (GPipe's schedule): the stages idle (p-1)/(m+p-1) of the\n"
                 "               time when stages and micro-batches are equal\n",
              cfg->microbatches > 0 ? "--microbatches" : "min(pp, B)");
  }
  if (cfg->ep > 1) {
    rl_model c;
    if (rl_model_check(m, &c, NULL) != RL_OK) return;
    int tp = cfg->tp > 1 ? cfg->tp : 1;
    fprintf(o, "  experts      expert parallel over %d devices: %g whole experts each; attention %s in %d\n"
               "               replica%s of B/%d sequences; per MoE layer an all-to-all of the routed tokens to the\n"
               "               experts and one back, (n-1)/n of %g x d activations per token each\n",
            cfg->ep, c.experts / cfg->ep, tp > 1 ? "tensor-parallel" : "whole", cfg->ep / tp,
            cfg->ep / tp == 1 ? "" : "s", cfg->ep / tp, c.experts_active);
  }
}

void cli_ops_csv(cli_ctx *ctx, const rl_prefill_op *ops, int32_t n, double total) {
  static const char *const hdr[] = {"op", "count", "flops", "bytes", "intensity_flop_per_byte", "bound", "time_s",
                                    "share_fraction"};
  cli_csv_row(ctx, hdr, 8);
  for (int32_t i = 0; i < n; i++) {
    const rl_prefill_op *p = &ops[i];
    const char *row[8] = {p->name,
                          CLI_CSV_NUM(p->count),
                          CLI_CSV_NUM(p->flops),
                          CLI_CSV_NUM(p->bytes),
                          p->bound == RL_BOUND_NETWORK ? "" : CLI_CSV_NUM(p->intensity),
                          rl_bound_name(p->bound),
                          CLI_CSV_NUM(p->time_s),
                          CLI_CSV_NUM(p->time_s / total)};
    cli_csv_row(ctx, row, 8);
  }
}

/* ---- the flags of an inference command ------------------------------------- */
static const cli_opt *own_entry(const cli_opt *own, const char *name) {
  for (; own->name; own++)
    if (strcmp(own->name, name) == 0) return own;
  return NULL;
}

int cli_llm_parse(cli_ctx *ctx, int argc, char **argv, cli_llm_opts *o, const cli_opt *own) {
  memset(&o->mf, 0, sizeof o->mf);
  cli_infer_flags_init(&o->inf);
  cli_hw_flags_init(&o->hwf);
  const cli_opt shared[] = {CLI_MODEL_OPTS(o->mf), CLI_INFER_OPTS(o->inf), CLI_HW_OPTS(o->hwf)};
  const size_t cap = sizeof o->opts / sizeof o->opts[0];
  size_t n = 0;
  /* the shared flags the command does not replace or leave out, then its
   * own; no --overhead: an inference step's bound has no launch overhead */
  for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++)
    if (!own_entry(own, shared[i].name) && strcmp(shared[i].name, "overhead") != 0) o->opts[n++] = shared[i];
  for (; own->name; own++) {
    if (!own->dst) continue;
    if (n + 1 >= cap) return cli_error(ctx, "too many flags");
    o->opts[n++] = *own;
  }
  o->opts[n] = (cli_opt){NULL, 0, NULL, 0};
  return cli_parse(ctx, argc, argv, o->opts, NULL, 0, NULL);
}

int cli_llm_resolve(cli_ctx *ctx, cli_llm_opts *o, cli_llm_between between, void *arg, rl_model *m,
                    rl_infer_cfg *cfg, rl_hw *hw, rl_roof *roof) {
  int rc = cli_resolve_model(ctx, o->opts, &o->mf, m);
  if (!rc && between) rc = between(ctx, o, m, arg);
  if (rc) return rc;
  return cli_infer_setup(ctx, o->opts, &o->inf, &o->hwf, m, cfg, hw, roof);
}

/* ---- numbers for the text output ----------------------------------------- */
const char *cli_pct(char *buf, size_t cap, double frac) {
  double p = frac * 100;
  if (!isfinite(p)) snprintf(buf, cap, "-");
  else if (fabs(p) >= 10) snprintf(buf, cap, "%.1f%%", p);
  else if (fabs(p) >= 1) snprintf(buf, cap, "%.2f%%", p);
  else snprintf(buf, cap, "%.3g%%", p);
  return buf;
}

const char *cli_count(char *buf, size_t cap, double v) {
  if (!isfinite(v)) { snprintf(buf, cap, "-"); return buf; }
  if (fabs(v) < 1e6) { snprintf(buf, cap, "%.6g", v); return buf; }
  int ex = (int)floor(log10(fabs(v)));
  double mant = v / pow(10, ex);
  if (fabs(mant) >= 9.9995) { mant /= 10; ex++; }
  snprintf(buf, cap, "%.4ge%d", mant, ex);
  return buf;
}
