/*
 * cmd_plan.c -- `roofline plan`: for each way to run a model on a number of
 * devices (tensor-parallel degree, weight and KV formats), the largest batch
 * that meets the time-to-first-token and time-per-output-token targets and
 * fits in memory, its throughput, and what stops a larger batch. Each row is
 * rl_plan's: the figures `roofline decode` and `roofline prefill` print at
 * that batch.
 */
#include "cli_llm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: roofline plan --model ID|PATH --prompt P --gen G [--ttft T] [--tpot T]\n"
    "                     [--gpus N] [--hw ID]\n"
    "\n"
    "For each way to run the model on N devices -- tensor-parallel degree (--tp),\n"
    "pipeline stages (--pp), expert parallelism (--ep), weight format and KV-cache\n"
    "format -- the largest batch B of requests, each a\n"
    "prompt of P tokens and G generated tokens, such that\n"
    "  - the prefill of the B prompts together finishes within --ttft,\n"
    "  - the slowest decode step, the last one (context P + G), within --tpot,\n"
    "  - the weights and B caches of P + G tokens fit in each device's memory.\n"
    "Every figure is the roofline bound `roofline prefill --batch B --prompt P\n"
    "--new-tokens G` and `roofline decode --batch B --context P+G` print for that\n"
    "configuration. Replicas = N / (pp x max(tp, ep)) serve independent batches; tokens/s is\n"
    "generated tokens of all replicas, B x G / (prefill + G - 1 decode steps)\n"
    "each. Rows are sorted by tokens/s in all, best first; `stops` says which wall\n"
    "a batch of B + 1 hits: capacity (memory), the TTFT or TPOT target (with the\n"
    "decode step's bound: compute or bandwidth), or weights (they alone do not\n"
    "fit: no batch). With --pp the batch runs in min(pp, B) micro-batches, as\n"
    "`decode` and `prefill` run it.\n"
    "\n"
    CLI_MODEL_HELP
    "workload and targets:\n"
    "  --prompt P       prompt tokens per request (required)\n"
    "  --gen G          tokens generated per request (required)\n"
    "  --ttft T         time-to-first-token target (e.g. 500ms; default none)\n"
    "  --tpot T         time-per-output-token target (e.g. 50ms; default none)\n"
    "  --gpus N         devices available (default 8)\n"
    "  --max-batch B    the search's limit when capacity is not checked (65536)\n"
    "configurations (each a comma-separated list of what you allow):\n"
    "  --tp LIST        tensor-parallel degrees (default 1,2,4,... up to --gpus,\n"
    "                   those that divide the heads)\n"
    "  --pp LIST        pipeline stages (default 1), e.g. 1,2,4; each combination\n"
    "                   with pp x tp devices at most --gpus is tried\n"
    "  --ep LIST        expert-parallel degrees of a mixture of experts (default 1),\n"
    "                   e.g. 1,8: multiples of tp dividing the experts; pp x ep devices\n"
    "  --weight-dtype LIST  weight formats (default: the model's), e.g. bf16,fp8,int4\n"
    "  --kv-dtype LIST  KV-cache formats (default: --dtype), e.g. bf16,fp8\n"
    "  --dtype DT, --group-size G, --quantize-all, --link-bw B, --comm-latency T,\n"
    "  --embedding, --compute-eff F, --bw-eff F: as for `roofline decode`\n"
    "device:\n"
    "  --hw ID          default nvidia-h100-sxm5; or --peak P --bw B [--mem M]\n"
    "  --json, --csv    machine-readable output\n"
    "\n"
    "examples:\n"
    "  roofline plan --model llama3-70b --prompt 2048 --gen 256 --ttft 1s --tpot 50ms\n"
    "  roofline plan --model llama3.1-405b --prompt 2048 --gen 256 --gpus 16 --pp 1,2 --tp 8\n"
    "  roofline plan --model mixtral-8x7b --prompt 512 --gen 128 --tpot 30ms --ep 1,4,8\n"
    "  roofline plan --model llama3-8b --prompt 1024 --gen 512 --tpot 20ms --gpus 1 \\\n"
    "                --weight-dtype bf16,fp8,int4 --kv-dtype bf16,fp8\n";

#define MAX_CHOICES 16

static int dtype_list(cli_ctx *ctx, const char *flag, const char *s, int32_t *out, int *n) {
  char tmp[256];
  if (strlen(s) >= sizeof tmp) return cli_error(ctx, "--%s: too long", flag);
  strcpy(tmp, s);
  *n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    int32_t d;
    rl_error e;
    if (rl_dtype_parse(tok, &d, &e)) return cli_error(ctx, "--%s: %s", flag, e.msg);
    if (*n >= MAX_CHOICES) return cli_error(ctx, "--%s: more than %d formats", flag, MAX_CHOICES);
    out[(*n)++] = d;
  }
  if (*n == 0) return cli_error(ctx, "--%s: no formats", flag);
  return CLI_OK;
}

static int degree_list(cli_ctx *ctx, const char *flag, const char *s, int *out, int *n) {
  char tmp[256];
  if (strlen(s) >= sizeof tmp) return cli_error(ctx, "--%s: too long", flag);
  strcpy(tmp, s);
  *n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    double v;
    rl_error e;
    if (rl_parse_quantity(tok, RL_UNIT_COUNT, &v, &e)) return cli_error(ctx, "--%s: %s", flag, e.msg);
    if (!(v >= 1) || v != floor(v) || v > 65536)
      return cli_error(ctx, "--%s must be whole numbers >= 1 (got %s)", flag, tok);
    if (*n >= MAX_CHOICES) return cli_error(ctx, "--%s: more than %d degrees", flag, MAX_CHOICES);
    out[(*n)++] = (int)v;
  }
  if (*n == 0) return cli_error(ctx, "--%s: no degrees", flag);
  return CLI_OK;
}

typedef struct plan_args {
  const rl_model *m;
  const rl_plan_cfg *pc;
  const char *hw_id;
  const rl_roof *roof;
  const rl_plan_row *rows;
  int32_t n;
} plan_args;

static size_t plan_json(void *arg, char *buf, size_t cap) {
  const plan_args *a = arg;
  return rl_plan_json(a->m, a->pc, a->hw_id, a->roof, a->rows, a->n, buf, cap);
}

/* best first: the most tokens/s in all; rows without a batch last */
static int by_throughput(const void *pa, const void *pb) {
  const rl_plan_row *a = pa, *b = pb;
  if ((a->batch > 0) != (b->batch > 0)) return a->batch > 0 ? -1 : 1;
  if (a->tokens_per_s != b->tokens_per_s) return a->tokens_per_s > b->tokens_per_s ? -1 : 1;
  if (a->tp != b->tp) return a->tp - b->tp;
  if (a->pp != b->pp) return a->pp - b->pp;
  return a->ep - b->ep;
}

static const char *stops(const rl_plan_row *r, char *buf, size_t cap) {
  const char *wall = r->bound == RL_BOUND_COMPUTE ? "compute-bound step" : "bandwidth-bound step";
  switch (r->limit) {
  case RL_LIMIT_CAPACITY: snprintf(buf, cap, "memory capacity"); break;
  case RL_LIMIT_TTFT: snprintf(buf, cap, "TTFT target"); break;
  case RL_LIMIT_TPOT: snprintf(buf, cap, "TPOT target (%s)", wall); break;
  case RL_LIMIT_WEIGHTS: snprintf(buf, cap, "weights do not fit"); break;
  default: snprintf(buf, cap, "search limit"); break;
  }
  return buf;
}

/* --csv: the rows the JSON prints, a configuration each, in its keys and
 * base units; a figure the JSON gives as null an empty cell */
static void print_csv(cli_ctx *ctx, const rl_plan_row *rows, int n) {
  static const char *const hdr[] = {"batch",        "tp",       "pp",       "ep",     "microbatches",
                                    "weight_dtype", "kv_dtype", "ttft_s",   "tpot_s", "e2e_s",
                                    "replicas",     "tokens_per_s", "tokens_per_s_per_device", "memory_bytes",
                                    "limit",        "bound"};
  enum { N = sizeof hdr / sizeof hdr[0] };
  cli_csv_row(ctx, hdr, N);
  for (int i = 0; i < n; i++) {
    const rl_plan_row *r = &rows[i];
    const double none = NAN;
    const double v[] = {r->batch, r->tp, r->pp, r->ep > 1 ? r->ep : 1, r->batch > 0 ? r->microbatches : none};
    const double w[] = {r->ttft_s > 0 ? r->ttft_s : none, r->tpot_s > 0 ? r->tpot_s : none,
                        r->batch > 0 ? r->e2e_s : none, r->replicas, r->tokens_per_s,
                        r->tokens_per_s_per_device, r->memory_bytes};
    char c[N][40];
    const char *row[N];
    for (int k = 0; k < 5; k++) row[k] = cli_csv_num(c[k], sizeof c[k], v[k]);
    row[5] = rl_dtype_name(r->weight_dtype);
    row[6] = rl_dtype_name(r->kv_dtype);
    for (int k = 0; k < 7; k++) row[7 + k] = cli_csv_num(c[7 + k], sizeof c[7 + k], w[k]);
    row[14] = rl_plan_limit_name(r->limit);
    row[15] = r->batch > 0 || r->tpot_s > 0 ? rl_bound_name(r->bound) : "";
    cli_csv_row(ctx, row, N);
  }
}

static int run(cli_ctx *ctx, int argc, char **argv) {
  cli_model_flags mf;
  memset(&mf, 0, sizeof mf);
  cli_infer_flags inf;
  cli_infer_flags_init(&inf);
  cli_hw_flags hwf;
  cli_hw_flags_init(&hwf);
  double prompt = 0, gen = 0, ttft = 0, tpot = 0, gpus = 8, max_batch = 0;
  const char *tp_s = NULL, *pp_s = NULL, *ep_s = NULL, *wd_s = NULL, *kd_s = NULL;
  cli_opt opts[] = {CLI_MODEL_OPTS(mf), CLI_HW_OPTS(hwf),
                    {"dtype", OPT_DTYPE, &inf.dtype, 0},
                    {"embedding", OPT_STR, &inf.embedding, 0},
                    {"link-bw", OPT_BYTES_S, &inf.link_bw, 0},
                    {"comm-latency", OPT_SECONDS, &inf.comm_latency, 0},
                    {"group-size", OPT_STR, &inf.group_size, 0},
                    {"quantize-all", OPT_FLAG, &inf.quantize_all, 0},
                    {"compute-eff", OPT_STR, &inf.compute_eff, 0},
                    {"bw-eff", OPT_STR, &inf.bw_eff, 0},
                    {"prompt", OPT_COUNT, &prompt, 0}, {"gen", OPT_COUNT, &gen, 0},
                    {"ttft", OPT_SECONDS, &ttft, 0}, {"tpot", OPT_SECONDS, &tpot, 0},
                    {"gpus", OPT_COUNT, &gpus, 0}, {"max-batch", OPT_COUNT, &max_batch, 0},
                    {"tp", OPT_STR, &tp_s, 0}, {"pp", OPT_STR, &pp_s, 0}, {"ep", OPT_STR, &ep_s, 0},
                    {"weight-dtype", OPT_STR, &wd_s, 0},
                    {"kv-dtype", OPT_STR, &kd_s, 0}, {NULL, 0, NULL, 0}};
  int rc = cli_parse(ctx, argc, argv, opts, NULL, 0, NULL);
  if (rc) return rc;
  if (!cli_seen(opts, "prompt")) return cli_error(ctx, "--prompt P is required (the prompt's tokens)");
  if (!cli_seen(opts, "gen")) return cli_error(ctx, "--gen G is required (tokens generated per request)");
  if (!(prompt >= 1) || prompt != floor(prompt) || prompt > 1e9)
    return cli_error(ctx, "--prompt must be a whole number of tokens >= 1 (got %g)", prompt);
  if (!(gen >= 1) || gen != floor(gen) || gen > 1e6)
    return cli_error(ctx, "--gen must be a whole number of tokens >= 1 and <= 1e6 (got %g)", gen);
  if (cli_seen(opts, "ttft") && !(ttft > 0)) return cli_error(ctx, "--ttft must be > 0 (got %g s)", ttft);
  if (cli_seen(opts, "tpot") && !(tpot > 0)) return cli_error(ctx, "--tpot must be > 0 (got %g s)", tpot);
  if (!(gpus >= 1) || gpus != floor(gpus) || gpus > 1e6)
    return cli_error(ctx, "--gpus must be a whole number >= 1 (got %g)", gpus);
  if (cli_seen(opts, "max-batch") && (!(max_batch >= 1) || max_batch != floor(max_batch) || max_batch > 1e9))
    return cli_error(ctx, "--max-batch must be a whole number >= 1 (got %g)", max_batch);
  rl_model m;
  if ((rc = cli_resolve_model(ctx, opts, &mf, &m))) return rc;
  rl_model c;
  rl_model_check(&m, &c, NULL);
  int tps[MAX_CHOICES], ntp = 0;
  if (tp_s) {
    if ((rc = degree_list(ctx, "tp", tp_s, tps, &ntp))) return rc;
    for (int i = 0; i < ntp; i++) {
      if (tps[i] > gpus) return cli_error(ctx, "--tp %d exceeds --gpus %g", tps[i], gpus);
      if (fmod(c.heads, tps[i]) != 0)
        return cli_error(ctx, "--tp %d does not divide the %g attention heads", tps[i], c.heads);
    }
  } else {
    for (int t = 1; t <= gpus && ntp < MAX_CHOICES; t *= 2)
      if (fmod(c.heads, t) == 0) tps[ntp++] = t;
  }
  int pps[MAX_CHOICES], eps[MAX_CHOICES], npp = 1, nep = 1;
  pps[0] = eps[0] = 1;
  if (pp_s) {
    if ((rc = degree_list(ctx, "pp", pp_s, pps, &npp))) return rc;
    for (int i = 0; i < npp; i++) {
      if (pps[i] > gpus) return cli_error(ctx, "--pp %d exceeds --gpus %g", pps[i], gpus);
      if (pps[i] > c.layers) return cli_error(ctx, "--pp %d exceeds the %g layers (a stage needs one)", pps[i], c.layers);
      if (pps[i] > RL_MAX_STAGES) return cli_error(ctx, "--pp %d: at most %d stages", pps[i], RL_MAX_STAGES);
    }
  }
  if (ep_s) {
    if ((rc = degree_list(ctx, "ep", ep_s, eps, &nep))) return rc;
    for (int i = 0; i < nep; i++) {
      if (eps[i] > 1 && !(c.experts > 0))
        return cli_error(ctx, "--ep applies to a mixture of experts; %s has no experts", c.id);
      if (eps[i] > gpus) return cli_error(ctx, "--ep %d exceeds --gpus %g", eps[i], gpus);
      if (eps[i] > 1 && fmod(c.experts, eps[i]) != 0)
        return cli_error(ctx, "--ep %d does not divide the %g experts", eps[i], c.experts);
    }
  }
  int32_t wds[MAX_CHOICES], kds[MAX_CHOICES];
  int nwd = 1, nkd = 1;
  wds[0] = kds[0] = -1;
  if (wd_s && (rc = dtype_list(ctx, "weight-dtype", wd_s, wds, &nwd))) return rc;
  if (kd_s && (rc = dtype_list(ctx, "kv-dtype", kd_s, kds, &nkd))) return rc;
  int maxtp = 1, maxpp = 1, maxep = 1, no_link = 0;
  for (int i = 0; i < ntp; i++) if (tps[i] > maxtp) maxtp = tps[i];
  for (int i = 0; i < npp; i++) if (pps[i] > maxpp) maxpp = pps[i];
  for (int i = 0; i < nep; i++) if (eps[i] > maxep) maxep = eps[i];
  inf.tp = maxtp;
  inf.pp = maxpp;
  inf.ep = maxep;
  rl_infer_cfg base;
  rl_hw hw;
  rl_roof roof;
  int par = maxtp > 1 || maxpp > 1 || maxep > 1;
  if (!par && cli_seen(opts, "link-bw"))
    return cli_error(ctx, "--link-bw applies with --tp, --pp or --ep N > 1 only");
  if (maxtp == 1 && cli_seen(opts, "comm-latency"))
    return cli_error(ctx, "--comm-latency applies with --tp N > 1 only");
  if (par && !cli_seen(opts, "link-bw")) {
    /* no interconnect figure: plan on one device per replica */
    rl_hw probe;
    if ((rc = cli_resolve_hw(ctx, &hwf, (hwf.peak > 0 && hwf.bw > 0) ? NULL : RL_DEFAULT_HW, &probe))) return rc;
    if (!(probe.interconnect_bw > 0)) {
      if (tp_s || pp_s || ep_s)
        return cli_error(ctx, "--%s: %s has no interconnect figure; give --link-bw", tp_s ? "tp" : pp_s ? "pp" : "ep", probe.id);
      ntp = 1;
      maxtp = inf.tp = 1;
      no_link = 1;
    }
  }
  if ((rc = cli_infer_setup(ctx, opts, &inf, &hwf, &m, &base, &hw, &roof))) return rc;
  if (maxtp > 1 && !cli_seen(opts, "comm-latency") && hw.link_latency_s > 0)
    snprintf(inf.latency_note, sizeof inf.latency_note,
             "per all-reduce, NCCL's ring model: %s base + 2(tp-1) x %s per link hop (%s)",
             CLI_Q(CLI_NCCL_RING_BASE_S, RL_UNIT_SECONDS), CLI_Q(hw.link_latency_s, RL_UNIT_SECONDS), hw.id);
  rl_plan_cfg pc = {prompt, gen, ttft, tpot, gpus, max_batch};
  /* every (tp, pp, ep) that fits in --gpus, ep a multiple of tp (the
   * experts spread over the tp x dp devices of a stage) */
  int combos[MAX_CHOICES * MAX_CHOICES * MAX_CHOICES][3], ncombo = 0;
  for (int i = 0; i < ntp; i++)
    for (int j = 0; j < npp; j++)
      for (int l = 0; l < nep; l++) {
        int tp = tps[i], pp = pps[j], ep = eps[l];
        if ((ep > 1 && ep % tp != 0) || (double)pp * (ep > 1 ? ep : tp) > gpus) continue;
        combos[ncombo][0] = tp;
        combos[ncombo][1] = pp;
        combos[ncombo][2] = ep;
        ncombo++;
      }
  if (ncombo == 0)
    return cli_error(ctx, "no --tp, --pp and --ep combination fits in --gpus %g (pp x max(tp, ep) devices, ep a multiple of tp)",
                     gpus);
  int nrows = ncombo * nwd * nkd;
  rl_plan_row *rows = calloc((size_t)nrows, sizeof *rows);
  if (!rows) return cli_error(ctx, "out of memory");
  int k = 0;
  for (int i = 0; i < ncombo; i++)
    for (int w = 0; w < nwd; w++)
      for (int v = 0; v < nkd; v++) {
        rl_infer_cfg cfg = base;
        int tp = combos[i][0], pp = combos[i][1], ep = combos[i][2];
        cfg.tp = tp;
        cfg.pp = pp;
        cfg.ep = ep;
        if (tp == 1 && pp == 1 && ep == 1) cfg.link_bw = 0;
        if (tp == 1) cfg.comm_latency_s = 0;
        else if (!cli_seen(opts, "comm-latency")) cfg.comm_latency_s = cli_allreduce_latency(&hw, tp);
        cfg.p2p_latency_s = pp > 1 ? cli_p2p_latency(&hw) : 0;
        cfg.a2a_latency_s = cli_alltoall_latency(&hw, ep);
        cfg.weight_dtype = wds[w];
        cfg.kv_dtype = kds[v];
        rl_error e;
        rl_status st = rl_plan(&m, &cfg, &roof, &pc, &rows[k], &e);
        if (st) { free(rows); return cli_fail(ctx, st, &e); }
        k++;
      }
  qsort(rows, (size_t)nrows, sizeof *rows, by_throughput);
  if (ctx->json) {
    plan_args a = {&m, &pc, hw.id, &roof, rows, nrows};
    rc = cli_print_json(ctx, plan_json, &a);
    free(rows);
    return rc;
  }
  if (ctx->csv) {
    print_csv(ctx, rows, nrows);
    free(rows);
    return CLI_OK;
  }
  const char *hdr[] = {"tp", "pp", "ep", "weights", "KV", "batch", "TTFT", "TPOT", "tokens/s all", "per device",
                       "memory/device", "stops at B+1"};
  cli_table *t = cli_table_new(12, hdr);
  for (int i = 0; i < nrows; i++) {
    const rl_plan_row *r = &rows[i];
    char cell[12][64];
    snprintf(cell[0], 64, "%d", r->tp);
    snprintf(cell[1], 64, "%d", r->pp);
    snprintf(cell[2], 64, "%d", r->ep);
    snprintf(cell[3], 64, "%s", rl_dtype_name(r->weight_dtype));
    snprintf(cell[4], 64, "%s", rl_dtype_name(r->kv_dtype));
    snprintf(cell[5], 64, "%.0f", r->batch);
    if (r->ttft_s > 0) cli_q(cell[6], 64, r->ttft_s, RL_UNIT_SECONDS); else snprintf(cell[6], 64, "-");
    if (r->tpot_s > 0) cli_q(cell[7], 64, r->tpot_s, RL_UNIT_SECONDS); else snprintf(cell[7], 64, "-");
    snprintf(cell[8], 64, r->tokens_per_s >= 1e4 ? "%.0f" : "%.4g", r->tokens_per_s);
    snprintf(cell[9], 64, r->tokens_per_s_per_device >= 1e4 ? "%.0f" : "%.4g", r->tokens_per_s_per_device);
    cli_q(cell[10], 64, r->memory_bytes, RL_UNIT_BYTES);
    stops(r, cell[11], 64);
    const char *cells[12];
    for (int j = 0; j < 12; j++) cells[j] = cell[j];
    cli_table_row(t, cells);
  }

  FILE *o = ctx->out;
  fprintf(o, "Plan for %s (%s) on %.0f x %s%s%s%s: prompts of %.0f tokens, %.0f generated\n", c.id, c.name, gpus,
          hw.id, hw.name[0] ? " (" : "", hw.name, hw.name[0] ? ")" : "", prompt, gen);
  fprintf(o, "  targets      TTFT %s, TPOT %s (the last decode step, at context %.0f)\n",
          ttft > 0 ? CLI_Q(ttft, RL_UNIT_SECONDS) : "none", tpot > 0 ? CLI_Q(tpot, RL_UNIT_SECONDS) : "none",
          prompt + gen);
  char pk[96];
  fprintf(o, "  roof         %s, %s per device; %s\n", cli_peak_label(&roof, pk, sizeof pk),
          CLI_Q(roof.bandwidth, RL_UNIT_BYTES_S),
          hw.mem_bytes > 0 ? CLI_Q(hw.mem_bytes, RL_UNIT_BYTES) : "capacity not checked");
  cli_infer_notes(ctx, &inf, NULL, &base);
  if (no_link)
    fprintf(o, "  tp           1 only: %s has no interconnect figure (give --link-bw to try --tp N)\n", hw.id);
  fprintf(o, "\n");
  cli_table_print(ctx, t);
  cli_table_free(t);
  const rl_plan_row *b = &rows[0];
  fprintf(o, "\n");
  if (b->batch > 0) {
    char st[64];
    fprintf(o, "best: tp %d, pp %d, ep %d, %s weights, %s cache, batch %.0f per replica x %.0f replica%s:\n"
               "  %.0f tokens/s in all (%.0f per device); a larger batch hits the %s.\n",
            b->tp, b->pp, b->ep, rl_dtype_name(b->weight_dtype), rl_dtype_name(b->kv_dtype), b->batch, b->replicas,
            b->replicas == 1 ? "" : "s", b->tokens_per_s, b->tokens_per_s_per_device, stops(b, st, sizeof st));
    fprintf(o, "check: with the same model and device, `decode --batch %.0f --context %.0f` and `prefill\n"
               "  --batch %.0f --prompt %.0f --new-tokens %.0f`, with --tp %d --pp %d --ep %d --weight-dtype %s\n"
               "  --kv-dtype %s, print these figures.\n",
            b->batch, prompt + gen, b->batch, prompt, gen, b->tp, b->pp, b->ep, rl_dtype_name(b->weight_dtype),
            rl_dtype_name(b->kv_dtype));
  } else {
    fprintf(o, "no configuration meets the targets at batch 1: relax --ttft/--tpot, allow narrower\n"
               "formats (--weight-dtype, --kv-dtype) or more devices (--gpus, --tp).\n");
  }
  fprintf(o, "bounds assume perfect overlap of compute and memory and static batches (no\n"
             "continuous batching); real serving reaches less.\n");
  free(rows);
  return CLI_OK;
}

const cli_command cmd_plan = {"plan", run, "LLM serving plan: largest batch under TTFT/TPOT targets per configuration", help};
