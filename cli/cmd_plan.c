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
    "                     [--gpus N] [--hw ID] [--batching continuous|static]\n"
    "\n"
    "For each way to run the model on N devices -- tensor-parallel degree (--tp),\n"
    "pipeline stages (--pp), expert parallelism (--ep), weight format and KV-cache\n"
    "format -- the largest batch B of requests, each a prompt of P tokens and G\n"
    "generated tokens, that meets the targets and fits. Replicas = N / (pp x\n"
    "max(tp, ep)) serve independent requests. Rows are sorted by tokens/s in all,\n"
    "best first; `stops` says which wall a batch of B + 1 hits: capacity (memory),\n"
    "the TTFT or TPOT target (with the step's bound: compute or bandwidth), prefill\n"
    "(continuous: the chunk cannot keep B + 1 running), or weights (they alone do\n"
    "not fit: no batch).\n"
    "\n"
    "--batching continuous (the default; vLLM, SGLang, TensorRT-LLM): a steady state\n"
    "of B sequences decoding; each step (one forward pass: the weights read once for\n"
    "all its tokens) decodes the B and prefills the next prompts in chunks of at most\n"
    "--chunk tokens. Requests finish at B / (G - 1) a step, so a step prefills\n"
    "B P / (G - 1) tokens on average, at most the chunk. TPOT: the mean step (B\n"
    "decodes at the mean context P + G/2, the mean prefill); TTFT: the ceil(P/chunk)\n"
    "steps that prefill one prompt beside the B decodes (no queueing); tokens/s:\n"
    "B G / (G - 1) per step; memory: --mem-fraction of each device >= weights + the\n"
    "step's largest activation + --reserve + the KV cache in blocks of --block-size\n"
    "(B sequences at contexts P+1 .. P+G-1 spread evenly, and the prompt being\n"
    "prefilled). With --pp, min(pp, B) micro-batches.\n"
    "\n"
    "--batching static: B requests at a time, their prompts prefilled together\n"
    "within --ttft, the slowest decode step (the last, context P + G) within --tpot,\n"
    "the weights and B caches of P + G tokens within each device's memory; every\n"
    "figure is what `roofline prefill --batch B --prompt P --new-tokens G` and\n"
    "`roofline decode --batch B --context P+G` print; tokens/s is B x G / (prefill +\n"
    "G - 1 decode steps) per replica. With --pp the batch runs in min(pp, B)\n"
    "micro-batches, as `decode` and `prefill` run it.\n"
    "\n"
    CLI_MODEL_HELP
    "workload and targets:\n"
    "@--prompt\n"
    "@--gen\n"
    "@--ttft\n"
    "@--tpot\n"
    "@--gpus\n"
    "@--max-batch\n"
    "serving (continuous batching):\n"
    "@--batching\n"
    "@--chunk\n"
    "@--mem-fraction\n"
    "@--block-size\n"
    "@--reserve\n"
    "configurations (each a comma-separated list of what you allow):\n"
    "@--tp\n"
    "@--pp\n"
    "@--ep\n"
    "@--weight-dtype\n"
    "@--kv-dtype\n"
    "  {--dtype}, {--group-size}, {--quantize-all}, {--link-bw}, {--comm-latency},\n"
    "  {--embedding!}, {--compute-eff}, {--bw-eff}: as for `roofline decode`\n"
    "device:\n"
    CLI_LLM_HW_HELP
    "@--mem\n"
    "@--sparse\n"
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
  case RL_LIMIT_PREFILL: snprintf(buf, cap, "prefill chunk"); break;
  default: snprintf(buf, cap, "search limit"); break;
  }
  return buf;
}

/* --csv: the rows the JSON prints, a configuration each, in its keys and
 * base units; a figure the JSON gives as null an empty cell */
static void print_csv(cli_ctx *ctx, const rl_plan_row *rows, int n, int cb) {
  static const char *const hdr[] = {"batch",        "tp",       "pp",       "ep",     "microbatches",
                                    "weight_dtype", "kv_dtype", "ttft_s",   "tpot_s", "e2e_s",
                                    "replicas",     "tokens_per_s", "tokens_per_s_per_device", "memory_bytes",
                                    "limit",        "bound",
                                    /* continuous batching's */
                                    "requests_per_s", "prefill_tokens_per_step", "kv_bytes", "activation_bytes"};
  enum { N = sizeof hdr / sizeof hdr[0], NS = N - 4 };
  cli_csv_row(ctx, hdr, cb ? N : NS);
  for (int i = 0; i < n; i++) {
    const rl_plan_row *r = &rows[i];
    const double none = (double)NAN;
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
    const double x[] = {r->requests_per_s, r->batch > 0 ? r->prefill_tokens_per_step : none, r->kv_bytes,
                        r->activation_bytes};
    char cx[4][40];
    for (int k = 0; k < 4; k++) row[NS + k] = cli_csv_num(cx[k], sizeof cx[k], x[k]);
    cli_csv_row(ctx, row, cb ? N : NS);
  }
}

/* ---- parse: the flags, checked --------------------------------------------- */
typedef struct plan_opts {
  cli_llm_opts llm;  /* model, inference and device flags */
  double prompt, gen, ttft, tpot, gpus, max_batch;
  const char *batching_s, *mem_fraction_s;
  int32_t batching;
  double chunk, block_size, reserve, mem_fraction;
  /* the lists of what to try, for --tp, --pp, --ep, --weight-dtype and
   * --kv-dtype (decode's and prefill's take one value) */
  const char *tp_s, *pp_s, *ep_s, *wd_s, *kd_s;
} plan_opts;

static int parse(cli_ctx *ctx, int argc, char **argv, plan_opts *o) {
  o->prompt = o->gen = o->ttft = o->tpot = o->max_batch = 0;
  o->gpus = 8;
  o->tp_s = o->pp_s = o->ep_s = o->wd_s = o->kd_s = NULL;
  o->batching_s = o->mem_fraction_s = NULL;
  const rl_plan_cfg d = rl_plan_cfg_init(); /* continuous batching's defaults */
  o->batching = d.batching;
  o->chunk = d.chunk;
  o->block_size = d.block_size;
  o->reserve = d.reserve_bytes;
  o->mem_fraction = d.mem_fraction;
  const cli_opt own[] = {{"prompt", OPT_TOKENS, &o->prompt, 0}, {"gen", OPT_TOKENS, &o->gen, 0},
                         {"ttft", OPT_SECONDS, &o->ttft, 0}, {"tpot", OPT_SECONDS, &o->tpot, 0},
                         {"gpus", OPT_COUNT, &o->gpus, 0}, {"max-batch", OPT_COUNT, &o->max_batch, 0},
                         {"tp", OPT_STR, &o->tp_s, 0}, {"pp", OPT_STR, &o->pp_s, 0}, {"ep", OPT_STR, &o->ep_s, 0},
                         {"weight-dtype", OPT_STR, &o->wd_s, 0}, {"kv-dtype", OPT_STR, &o->kd_s, 0},
                         {"batching", OPT_STR, &o->batching_s, 0}, {"chunk", OPT_TOKENS, &o->chunk, 0},
                         {"mem-fraction", OPT_STR, &o->mem_fraction_s, 0},
                         {"block-size", OPT_TOKENS, &o->block_size, 0}, {"reserve", OPT_BYTES, &o->reserve, 0},
                         /* not taken: every row has its own batch, micro-batches and fit */
                         {"microbatches", OPT_COUNT, NULL, 0}, {"require-fit", OPT_FLAG, NULL, 0},
                         {NULL, 0, NULL, 0}};
  int rc = cli_llm_parse(ctx, argc, argv, &o->llm, own);
  if (rc) return rc;
  const cli_opt *opts = o->llm.opts;
  const double prompt = o->prompt, gen = o->gen, gpus = o->gpus, max_batch = o->max_batch;
  if (!cli_seen(opts, "prompt")) return cli_error(ctx, "--prompt P is required (the prompt's tokens)");
  if (!cli_seen(opts, "gen")) return cli_error(ctx, "--gen G is required (tokens generated per request)");
  if (!(prompt >= 1) || prompt != floor(prompt) || prompt > 1e9)
    return cli_error(ctx, "--prompt must be a whole number of tokens >= 1 (got %g)", prompt);
  if (!(gen >= 1) || gen != floor(gen) || gen > 1e6)
    return cli_error(ctx, "--gen must be a whole number of tokens >= 1 and <= 1e6 (got %g)", gen);
  if (cli_seen(opts, "ttft") && !(o->ttft > 0)) return cli_error(ctx, "--ttft must be > 0 (got %g s)", o->ttft);
  if (cli_seen(opts, "tpot") && !(o->tpot > 0)) return cli_error(ctx, "--tpot must be > 0 (got %g s)", o->tpot);
  if (!(gpus >= 1) || gpus != floor(gpus) || gpus > 1e6)
    return cli_error(ctx, "--gpus must be a whole number >= 1 (got %g)", gpus);
  if (cli_seen(opts, "max-batch") && (!(max_batch >= 1) || max_batch != floor(max_batch) || max_batch > 1e9))
    return cli_error(ctx, "--max-batch must be a whole number >= 1 (got %g)", max_batch);
  rl_error e;
  if (o->batching_s && rl_batching_parse(o->batching_s, &o->batching, &e))
    return cli_error(ctx, "--batching: %s", e.msg);
  static const char *const cb_flags[] = {"chunk", "mem-fraction", "block-size", "reserve"};
  for (size_t i = 0; i < sizeof cb_flags / sizeof cb_flags[0]; i++)
    if (o->batching == RL_BATCHING_STATIC && cli_seen(opts, cb_flags[i]))
      return cli_error(ctx, "--%s applies with --batching continuous", cb_flags[i]);
  if (o->batching == RL_BATCHING_CONTINUOUS && gen < 2)
    return cli_error(ctx, "--gen 1 has no decode phase to batch continuously: give --batching static");
  if (!(o->chunk >= 1) || o->chunk != floor(o->chunk) || o->chunk > 1e9)
    return cli_error(ctx, "--chunk must be a whole number of tokens >= 1 (got %g)", o->chunk);
  if (!(o->block_size >= 1) || o->block_size != floor(o->block_size) || o->block_size > 1e6)
    return cli_error(ctx, "--block-size must be a whole number of tokens >= 1 (got %g)", o->block_size);
  if (!(o->reserve >= 0) || o->reserve > 1e18) return cli_error(ctx, "--reserve must be >= 0 bytes (got %g)", o->reserve);
  if (o->mem_fraction_s) {
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%s", o->mem_fraction_s);
    size_t n = strlen(tmp);
    double scale = 1;
    if (n > 0 && tmp[n - 1] == '%') { tmp[n - 1] = 0; scale = 100; }
    if (rl_parse_quantity(tmp, RL_UNIT_COUNT, &o->mem_fraction, &e)) return cli_error(ctx, "--mem-fraction: %s", e.msg);
    o->mem_fraction /= scale;
    if (!(o->mem_fraction > 0 && o->mem_fraction <= 1))
      return cli_error(ctx, "--mem-fraction must be a fraction in (0, 1] (got %s)", o->mem_fraction_s);
  }
  return CLI_OK;
}

/* ---- resolve: the model, the configurations to try, the device ------------ */
typedef struct plan_space {
  const plan_opts *o;
  rl_model m;
  rl_infer_cfg base;  /* the flags' configuration, at the largest degrees */
  rl_hw hw;
  rl_roof roof;
  int tps[MAX_CHOICES], pps[MAX_CHOICES], eps[MAX_CHOICES], ntp, npp, nep;
  int32_t wds[MAX_CHOICES], kds[MAX_CHOICES]; /* -1: the model's format */
  int nwd, nkd;
  int no_link;        /* tp 1 only: the device has no interconnect figure */
} plan_space;

/* The lists, checked against the model, and the largest degrees in
 * o->inf, with which the device and the configuration are resolved
 * (cli_llm_resolve's step between the model and the device). */
static int degrees(cli_ctx *ctx, cli_llm_opts *llm, const rl_model *m, void *arg) {
  plan_space *sp = arg;
  const plan_opts *o = sp->o;
  const double gpus = o->gpus;
  int rc;
  rl_model c;
  rl_model_check(m, &c, NULL);
  sp->ntp = 0;
  if (o->tp_s) {
    if ((rc = degree_list(ctx, "tp", o->tp_s, sp->tps, &sp->ntp))) return rc;
    for (int i = 0; i < sp->ntp; i++) {
      if (sp->tps[i] > gpus) return cli_error(ctx, "--tp %d exceeds --gpus %g", sp->tps[i], gpus);
      if (fmod(c.heads, sp->tps[i]) != 0)
        return cli_error(ctx, "--tp %d does not divide the %g attention heads", sp->tps[i], c.heads);
    }
  } else {
    for (int t = 1; t <= gpus && sp->ntp < MAX_CHOICES; t *= 2)
      if (fmod(c.heads, t) == 0) sp->tps[sp->ntp++] = t;
  }
  sp->npp = sp->nep = 1;
  sp->pps[0] = sp->eps[0] = 1;
  if (o->pp_s) {
    if ((rc = degree_list(ctx, "pp", o->pp_s, sp->pps, &sp->npp))) return rc;
    for (int i = 0; i < sp->npp; i++) {
      int pp = sp->pps[i];
      if (pp > gpus) return cli_error(ctx, "--pp %d exceeds --gpus %g", pp, gpus);
      if (pp > c.layers) return cli_error(ctx, "--pp %d exceeds the %g layers (a stage needs one)", pp, c.layers);
      if (pp > RL_MAX_STAGES) return cli_error(ctx, "--pp %d: at most %d stages", pp, RL_MAX_STAGES);
    }
  }
  if (o->ep_s) {
    if ((rc = degree_list(ctx, "ep", o->ep_s, sp->eps, &sp->nep))) return rc;
    for (int i = 0; i < sp->nep; i++) {
      int ep = sp->eps[i];
      if (ep > 1 && !(c.experts > 0))
        return cli_error(ctx, "--ep applies to a mixture of experts; %s has no experts", c.id);
      if (ep > gpus) return cli_error(ctx, "--ep %d exceeds --gpus %g", ep, gpus);
      if (ep > 1 && fmod(c.experts, ep) != 0) return cli_error(ctx, "--ep %d does not divide the %g experts", ep, c.experts);
    }
  }
  sp->nwd = sp->nkd = 1;
  sp->wds[0] = sp->kds[0] = -1;
  if (o->wd_s && (rc = dtype_list(ctx, "weight-dtype", o->wd_s, sp->wds, &sp->nwd))) return rc;
  if (o->kd_s && (rc = dtype_list(ctx, "kv-dtype", o->kd_s, sp->kds, &sp->nkd))) return rc;
  cli_infer_flags *inf = &llm->inf;
  inf->tp = inf->pp = inf->ep = 1;
  for (int i = 0; i < sp->ntp; i++) if (sp->tps[i] > inf->tp) inf->tp = sp->tps[i];
  for (int i = 0; i < sp->npp; i++) if (sp->pps[i] > inf->pp) inf->pp = sp->pps[i];
  for (int i = 0; i < sp->nep; i++) if (sp->eps[i] > inf->ep) inf->ep = sp->eps[i];
  sp->no_link = 0;
  if ((inf->tp > 1 || inf->pp > 1 || inf->ep > 1) && !cli_seen(llm->opts, "link-bw")) {
    /* no interconnect figure: plan on one device per replica */
    const cli_hw_flags *hwf = &llm->hwf;
    rl_hw probe;
    if ((rc = cli_resolve_hw(ctx, hwf, 1, &probe))) return rc;
    if (!(probe.interconnect_bw > 0)) {
      if (o->tp_s || o->pp_s || o->ep_s)
        return cli_error(ctx, "--%s: %s has no interconnect figure; give --link-bw",
                         o->tp_s ? "tp" : o->pp_s ? "pp" : "ep", probe.id);
      sp->ntp = 1;
      inf->tp = 1;
      sp->no_link = 1;
    }
  }
  return CLI_OK;
}

static int resolve(cli_ctx *ctx, plan_opts *o, plan_space *sp) {
  sp->o = o;
  int rc = cli_llm_resolve(ctx, &o->llm, degrees, sp, &sp->m, &sp->base, &sp->hw, &sp->roof);
  if (rc) return rc;
  cli_infer_flags *inf = &o->llm.inf;
  if (inf->tp > 1 && inf->req.comm_latency_given == 2 && sp->hw.link_latency_s > 0)
    snprintf(inf->latency_note, sizeof inf->latency_note,
             "per all-reduce, NCCL's ring model: %s base + 2(tp-1) x %s per link hop (%s)",
             CLI_Q(RL_NCCL_BASE_LATENCY_S, RL_UNIT_SECONDS), CLI_Q(sp->hw.link_latency_s, RL_UNIT_SECONDS), sp->hw.id);
  else if (inf->tp > 1 && !inf->req.comm_latency_given && sp->hw.link_latency_s > 0)
    snprintf(inf->latency_note, sizeof inf->latency_note,
             "%s per all-reduce: the floor no published measurement beats (NVLink: NVIDIA/nccl issue\n"
             "               1984); NCCL's ring model, 6.6 us + 2(tp-1) x %s, is --comm-latency nccl",
             CLI_Q(rl_comm_latency(&sp->hw, RL_COMM_ALLREDUCE, 2), RL_UNIT_SECONDS),
             CLI_Q(sp->hw.link_latency_s, RL_UNIT_SECONDS));
  return CLI_OK;
}

/* ---- compute: rl_plan for every configuration, best first ------------------ */
static int compute(cli_ctx *ctx, const plan_space *sp, const rl_plan_cfg *pc, rl_plan_row **rows_out, int *n_out) {
  const plan_opts *o = sp->o;
  const double gpus = o->gpus;
  /* every (tp, pp, ep) that fits in --gpus, ep a multiple of tp (the
   * experts spread over the tp x dp devices of a stage) */
  int combos[MAX_CHOICES * MAX_CHOICES * MAX_CHOICES][3], ncombo = 0;
  for (int i = 0; i < sp->ntp; i++)
    for (int j = 0; j < sp->npp; j++)
      for (int l = 0; l < sp->nep; l++) {
        int tp = sp->tps[i], pp = sp->pps[j], ep = sp->eps[l];
        if ((ep > 1 && ep % tp != 0) || (double)pp * (ep > 1 ? ep : tp) > gpus) continue;
        combos[ncombo][0] = tp;
        combos[ncombo][1] = pp;
        combos[ncombo][2] = ep;
        ncombo++;
      }
  if (ncombo == 0)
    return cli_error(ctx, "no --tp, --pp and --ep combination fits in --gpus %g (pp x max(tp, ep) devices, ep a multiple of tp)",
                     gpus);
  int nrows = ncombo * sp->nwd * sp->nkd;
  rl_plan_row *rows = calloc((size_t)nrows, sizeof *rows);
  if (!rows) return cli_error(ctx, "out of memory");
  int k = 0;
  for (int i = 0; i < ncombo; i++)
    for (int w = 0; w < sp->nwd; w++)
      for (int v = 0; v < sp->nkd; v++) {
        rl_infer_cfg cfg = sp->base;
        rl_infer_degrees(&cfg, &sp->hw, &o->llm.inf.req, combos[i][0], combos[i][1], combos[i][2]);
        cfg.weight_dtype = sp->wds[w];
        cfg.kv_dtype = sp->kds[v];
        rl_error e;
        rl_status st = rl_plan(&sp->m, &cfg, &sp->roof, pc, &rows[k], &e);
        if (st) { free(rows); return cli_fail(ctx, st, &e); }
        k++;
      }
  qsort(rows, (size_t)nrows, sizeof *rows, by_throughput);
  *rows_out = rows;
  *n_out = nrows;
  return CLI_OK;
}

/* ---- print ------------------------------------------------------------------ */
static void print_best_cb(cli_ctx *ctx, const plan_opts *po, const rl_plan_row *b);
static void print_text(cli_ctx *ctx, const plan_space *sp, const rl_plan_row *rows, int nrows) {
  const plan_opts *po = sp->o;
  const double prompt = po->prompt, gen = po->gen, ttft = po->ttft, tpot = po->tpot, gpus = po->gpus;
  const rl_hw *hw = &sp->hw;
  rl_model c;
  rl_model_check(&sp->m, &c, NULL);
  const int cb = po->batching == RL_BATCHING_CONTINUOUS;
  const char *hdr[] = {"tp", "pp", "ep", "weights", "KV", "batch", "TTFT", "TPOT", "tokens/s all", "per device",
                       "memory/device", "stops at B+1"};
  const char *hdr_cb[] = {"tp", "pp", "ep", "weights", "KV", "running", "TTFT", "TPOT", "tokens/s all", "per device",
                          "memory/device", "stops at B+1", "requests/s"};
  cli_table *t = cb ? cli_table_new(13, hdr_cb) : cli_table_new(12, hdr);
  /* a narrow terminal: the stopping batch, then per-device figures give way */
  cli_table_optional(t, 11, 1);
  cli_table_optional(t, 9, 2);
  cli_table_optional(t, 4, 3);
  if (cb) cli_table_optional(t, 12, 4);
  for (int i = 0; i < nrows; i++) {
    const rl_plan_row *r = &rows[i];
    char cell[13][64];
    snprintf(cell[0], 64, "%d", r->tp);
    snprintf(cell[1], 64, "%d", r->pp);
    snprintf(cell[2], 64, "%d", r->ep);
    snprintf(cell[3], 64, "%s", rl_dtype_name(r->weight_dtype));
    snprintf(cell[4], 64, "%s", rl_dtype_name(r->kv_dtype));
    snprintf(cell[5], 64, "%.0f", r->batch);
    if (r->ttft_s > 0) cli_q(cell[6], 64, r->ttft_s, RL_UNIT_SECONDS); else snprintf(cell[6], 64, "-");
    if (r->tpot_s > 0) cli_q(cell[7], 64, r->tpot_s, RL_UNIT_SECONDS); else snprintf(cell[7], 64, "-");
    snprintf(cell[8], 64, r->tokens_per_s >= 1e4 && r->tokens_per_s <= RL_MAX_COUNT ? "%.0f" : "%.4g", r->tokens_per_s);
    snprintf(cell[9], 64, r->tokens_per_s_per_device >= 1e4 && r->tokens_per_s_per_device <= RL_MAX_COUNT ? "%.0f" : "%.4g", r->tokens_per_s_per_device);
    cli_q(cell[10], 64, r->memory_bytes, RL_UNIT_BYTES);
    stops(r, cell[11], 64);
    snprintf(cell[12], 64, r->requests_per_s >= 1e4 && r->requests_per_s <= RL_MAX_COUNT ? "%.0f" : "%.4g", r->requests_per_s);
    const char *cells[13];
    for (int j = 0; j < 13; j++) cells[j] = cell[j];
    cli_table_row(t, cells);
  }

  FILE *o = ctx->out;
  fprintf(o, "Plan for %s (%s) on %.0f x %s%s%s%s: prompts of %.0f tokens, %.0f generated\n", c.id, c.name, gpus,
          hw->id, hw->name[0] ? " (" : "", hw->name, hw->name[0] ? ")" : "", prompt, gen);
  if (cb)
    fprintf(o, "  targets      TTFT %s, TPOT %s (the mean step: B decodes at context %.0f and the mean prefill)\n",
            ttft > 0 ? CLI_Q(ttft, RL_UNIT_SECONDS) : "none", tpot > 0 ? CLI_Q(tpot, RL_UNIT_SECONDS) : "none",
            prompt + gen / 2);
  else
    fprintf(o, "  targets      TTFT %s, TPOT %s (the last decode step, at context %.0f)\n",
            ttft > 0 ? CLI_Q(ttft, RL_UNIT_SECONDS) : "none", tpot > 0 ? CLI_Q(tpot, RL_UNIT_SECONDS) : "none",
            prompt + gen);
  char pk[96];
  fprintf(o, "  roof         %s, %s per device; %s\n", cli_peak_label(&sp->roof, pk, sizeof pk),
          CLI_Q(sp->roof.bandwidth, RL_UNIT_BYTES_S),
          hw->mem_bytes > 0 ? CLI_Q(hw->mem_bytes, RL_UNIT_BYTES) : "capacity not checked");
  if (cb)
    fprintf(o, "  serving      continuous batching: B sequences decoding, each step also prefilling\n"
               "               up to %.0f prompt tokens (--chunk); the KV cache gets %s of each device's\n"
               "               memory less the weights, the step's largest activation and a %s reserve\n"
               "               (CUDA graphs, workspaces), in blocks of %.0f tokens\n",
            po->chunk, CLI_PCT(po->mem_fraction), CLI_Q(po->reserve, RL_UNIT_BYTES), po->block_size);
  cli_infer_notes(ctx, &po->llm.inf, NULL, &sp->base);
  if (sp->no_link)
    fprintf(o, "  tp           1 only: %s has no interconnect figure (give --link-bw to try --tp N)\n", hw->id);
  fprintf(o, "\n");
  cli_table_print(ctx, t);
  cli_table_free(t);
  const rl_plan_row *b = &rows[0];
  fprintf(o, "\n");
  if (cb) {
    print_best_cb(ctx, po, b);
    return;
  }
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
}

/* The last lines with continuous batching: the best row in words. */
static void print_best_cb(cli_ctx *ctx, const plan_opts *po, const rl_plan_row *b) {
  FILE *o = ctx->out;
  if (b->batch > 0) {
    char st[64];
    fprintf(o, "best: tp %d, pp %d, ep %d, %s weights, %s cache, %.0f sequences running per replica x %.0f\n"
               "  replica%s: %.0f tokens/s and %.4g requests/s in all (%.0f tokens/s per device); TTFT %s, TPOT %s;\n"
               "  a larger batch hits the %s.\n",
            b->tp, b->pp, b->ep, rl_dtype_name(b->weight_dtype), rl_dtype_name(b->kv_dtype), b->batch, b->replicas,
            b->replicas == 1 ? "" : "s", b->tokens_per_s, b->requests_per_s, b->tokens_per_s_per_device,
            CLI_Q(b->ttft_s, RL_UNIT_SECONDS), CLI_Q(b->tpot_s, RL_UNIT_SECONDS), stops(b, st, sizeof st));
    fprintf(o, "  Each step prefills %.4g prompt tokens on average (B x %.0f / %.0f) beside the %.0f decodes; per\n"
               "  device %s of KV cache, %s of activations.\n",
            b->prefill_tokens_per_step, po->prompt, po->gen - 1, b->batch, CLI_Q(b->kv_bytes, RL_UNIT_BYTES),
            CLI_Q(b->activation_bytes, RL_UNIT_BYTES));
  } else {
    fprintf(o, "no configuration meets the targets with one sequence running: relax --ttft/--tpot,\n"
               "allow narrower formats (--weight-dtype, --kv-dtype), a larger --chunk or more devices.\n");
  }
  fprintf(o, "bounds assume perfect overlap of compute and memory within a step and a steady state\n"
             "(no queueing, no preemption, the mean prefill in every step); real serving reaches less.\n");
}

/* parse -> resolve (model, degrees, device, roof) -> compute (rl_plan per
 * configuration) -> print */
static int run(cli_ctx *ctx, int argc, char **argv) {
  plan_opts *o = malloc(sizeof *o);
  plan_space *sp = malloc(sizeof *sp);
  int rc = o && sp ? parse(ctx, argc, argv, o) : cli_error(ctx, "out of memory");
  if (!rc) rc = resolve(ctx, o, sp);
  rl_plan_row *rows = NULL;
  int nrows = 0;
  rl_plan_cfg pc;
  if (!rc) {
    pc = (rl_plan_cfg){o->prompt, o->gen, o->ttft, o->tpot, o->gpus, o->max_batch, o->batching,
                       o->chunk, o->mem_fraction, o->block_size, o->reserve};
    rc = compute(ctx, sp, &pc, &rows, &nrows);
  }
  if (!rc) {
    if (ctx->json) {
      plan_args a = {&sp->m, &pc, sp->hw.id, &sp->roof, rows, nrows};
      rc = cli_print_json(ctx, plan_json, &a);
    } else if (ctx->csv) {
      print_csv(ctx, rows, nrows, o->batching == RL_BATCHING_CONTINUOUS);
    } else {
      print_text(ctx, sp, rows, nrows);
    }
  }
  free(rows);
  free(sp);
  free(o);
  return rc;
}

const cli_command cmd_plan = {"plan", run, "LLM serving plan: largest batch under TTFT/TPOT targets per configuration", help, 0};
