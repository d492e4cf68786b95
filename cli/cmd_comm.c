/*
 * cmd_comm.c -- `roofline comm allreduce|allgather|reducescatter`: the time
 * of a collective from a bus bandwidth, and its share of a training step.
 */
#include "cli_llm.h"

#include <math.h>
#include <string.h>

static const char help[] =
    "usage: roofline comm allreduce|allgather|reducescatter --bytes S --ranks N\n"
    "                     (--busbw B | --link-bw B | --hw ID) [--step-time T]\n"
    "\n"
    "A ring all-reduce of S bytes over n ranks sends 2(n-1)/n x S from each rank,\n"
    "the lower bound of Patarasuk and Yuan (2009); all-gather and reduce-scatter\n"
    "send (n-1)/n x S. nccl-tests defines the bus bandwidth busbw = S/t x 2(n-1)/n\n"
    "(x (n-1)/n for the other two), which does not change with n and compares with\n"
    "a link's bandwidth, so\n"
    "    t = S / busbw x 2(n-1)/n  (+ alpha per ring step)\n"
    "algbw = S/t is what the application sees. Plug in the busbw nccl-tests measures\n"
    "on your machines; a datasheet's link figure is only a ceiling.\n"
    "\n"
    "flags:\n"
    "@--bytes\n"
    "@--ranks\n"
    "@--busbw\n"
    "@--link-bw\n"
    "@--hw\n"
    "@--latency\n"
    "  {--ranks-per-node} {--inter-busbw}   two-level all-reduce: reduce-scatter in\n"
    "                   the node (busbw), all-reduce of S/G across nodes per rank\n"
    "                   (inter-busbw), all-gather in the node\n"
    "@--step-time\n"
    "  --json, --csv    machine-readable output (CSV: one row, base units)\n"
    "\n"
    "examples:\n"
    "  roofline comm allreduce --params 7e9 --ranks 8 --busbw 37.4GB/s --step-time 3.64s\n"
    "  roofline comm allreduce --bytes 1GB --ranks 64 --busbw 360GB/s \\\n"
    "                          --ranks-per-node 8 --inter-busbw 45GB/s\n"
    "  roofline comm allgather --bytes 512MB --ranks 8 --hw h100\n";

/* ---- parse: the flags, checked, into comm_opts --------------------------- */
typedef struct comm_opts {
  rl_coll_cfg cfg;     /* kind, bytes, ranks and the step as given; busbw set by resolve */
  double busbw, link;  /* --busbw, --link-bw (0: not given) */
  const char *hw_id;   /* --hw: busbw from the device's interconnect */
} comm_opts;

static int parse(cli_ctx *ctx, int argc, char **argv, comm_opts *o) {
  memset(o, 0, sizeof *o);
  rl_coll_cfg *cfg = &o->cfg;
  *cfg = rl_coll_cfg_init();
  double bytes = 0, params = 0, ranks = 0;
  int32_t dtype = RL_BF16;
  cli_opt opts[] = {{"bytes", OPT_BYTES, &bytes, 0},
                    {"params", OPT_COUNT, &params, 0},
                    {"dtype", OPT_DTYPE, &dtype, 0},
                    {"ranks", OPT_COUNT, &ranks, 0},
                    {"busbw", OPT_BYTES_S, &o->busbw, 0},
                    {"link-bw", OPT_BYTES_S, &o->link, 0},
                    {"hw", OPT_STR, &o->hw_id, 0},
                    {"latency", OPT_SECONDS, &cfg->latency_s, 0},
                    {"ranks-per-node", OPT_COUNT, &cfg->ranks_per_node, 0},
                    {"inter-busbw", OPT_BYTES_S, &cfg->inter_busbw, 0},
                    {"step-time", OPT_SECONDS, &cfg->step_time_s, 0},
                    {"backward-time", OPT_SECONDS, &cfg->backward_time_s, 0},
                    {"bucket", OPT_BYTES, &cfg->bucket_bytes, 0},
                    {NULL, 0, NULL, 0}};
  const char *pos[1];
  int np = 0;
  int rc = cli_parse(ctx, argc, argv, opts, pos, 1, &np);
  if (rc) return rc;
  if (np < 1) return cli_error(ctx, "which collective? allreduce, allgather or reducescatter");
  rl_error e;
  rl_status st = rl_coll_parse(pos[0], &cfg->kind, &e);
  if (st) return cli_fail(ctx, st, &e);
  if (cli_seen(opts, "bytes") && cli_seen(opts, "params"))
    return cli_error(ctx, "--bytes and --params exclude each other");
  if (cli_seen(opts, "dtype") && !cli_seen(opts, "params")) return cli_error(ctx, "--dtype applies with --params only");
  if (cli_seen(opts, "params")) {
    if (!(params > 0)) return cli_error(ctx, "--params must be > 0 (got %g)", params);
    bytes = params * rl_dtype_bytes(dtype);
  } else if (!cli_seen(opts, "bytes")) {
    return cli_error(ctx, "--bytes S is required (or --params N for a model's gradients)");
  }
  if (!(bytes > 0)) return cli_error(ctx, "--bytes must be > 0");
  if (!cli_seen(opts, "ranks")) return cli_error(ctx, "--ranks N is required");
  if (ranks < 2 && ranks == floor(ranks))
    return cli_error(ctx, "--ranks must be >= 2 (got %g): one rank communicates nothing", ranks);
  int nbw = cli_seen(opts, "busbw") + cli_seen(opts, "link-bw") + (o->hw_id != NULL);
  if (nbw > 1) return cli_error(ctx, "--busbw, --link-bw and --hw exclude each other (give one bandwidth)");
  if (nbw == 0) return cli_error(ctx, "give the bandwidth: --busbw B (measured by nccl-tests), --link-bw B or --hw ID");
  if (cli_seen(opts, "busbw") && !(o->busbw > 0)) return cli_error(ctx, "--busbw must be > 0");
  if (cli_seen(opts, "link-bw") && !(o->link > 0)) return cli_error(ctx, "--link-bw must be > 0");
  if (cli_seen(opts, "inter-busbw") && !(cfg->inter_busbw > 0)) return cli_error(ctx, "--inter-busbw must be > 0");
  if (cli_seen(opts, "ranks-per-node") && !(cfg->ranks_per_node >= 1))
    return cli_error(ctx, "--ranks-per-node must be >= 1");
  if (cli_seen(opts, "step-time") && !(cfg->step_time_s > 0)) return cli_error(ctx, "--step-time must be > 0");
  if (cli_seen(opts, "backward-time") && !(cfg->backward_time_s > 0))
    return cli_error(ctx, "--backward-time must be > 0");
  if (cli_seen(opts, "bucket") && !(cfg->bucket_bytes > 0)) return cli_error(ctx, "--bucket must be > 0");
  if ((cli_seen(opts, "backward-time") || cli_seen(opts, "bucket")) && !cli_seen(opts, "step-time"))
    return cli_error(ctx, "--backward-time and --bucket need --step-time");
  cfg->bytes = bytes;
  cfg->ranks = ranks;
  return CLI_OK;
}

/* ---- resolve: the bus bandwidth, and where it comes from ---------------- */
static int resolve(cli_ctx *ctx, comm_opts *o, char *src, size_t cap) {
  if (o->busbw > 0) {
    o->cfg.busbw = o->busbw;
    snprintf(src, cap, "busbw as given");
  } else if (o->link > 0) {
    o->cfg.busbw = o->link;
    snprintf(src, cap, "the link's one-way bandwidth: a ring's ceiling, measured busbw is lower");
  } else {
    rl_hw hw;
    rl_error e;
    rl_status st = rl_hw_find(o->hw_id, ctx->extra, ctx->n_extra, &hw, &e);
    if (st) return cli_error(ctx, "--hw: %s", e.msg);
    if (!(hw.interconnect_bw > 0)) return cli_error(ctx, "--hw: %s has no interconnect figure; give --busbw", hw.id);
    o->cfg.busbw = hw.interconnect_bw / 2;
    snprintf(src, cap, "half of %s's %s interconnect (one direction): a datasheet ceiling", hw.id,
             CLI_Q(hw.interconnect_bw, RL_UNIT_BYTES_S));
  }
  return CLI_OK;
}

/* ---- print ------------------------------------------------------------------ */
typedef struct comm_args {
  const rl_coll_cfg *cfg;
  const rl_coll_result *r;
} comm_args;

static size_t comm_json(void *arg, char *buf, size_t cap) {
  const comm_args *a = arg;
  return rl_collective_json(a->cfg, a->r, buf, cap);
}

/* One row: the JSON record's figures (bandwidths with their unit in the
 * name), a figure that does not apply an empty cell. */
static void print_csv(cli_ctx *ctx, const rl_coll_cfg *cfg, const rl_coll_result *r) {
  static const char *const hdr[] = {
      "collective", "bytes", "ranks", "factor", "time_s", "bytes_per_rank", "busbw_bytes_per_s",
      "algbw_bytes_per_s", "busbw_given_bytes_per_s", "bandwidth_time_s", "latency_time_s", "intra_time_s",
      "inter_time_s", "step_time_s", "step_fraction", "step_fraction_added", "ddp_exposed_s", "ddp_fraction",
      "fsdp_time_s", "fsdp_fraction"};
  enum { N = sizeof hdr / sizeof hdr[0] };
  cli_csv_row(ctx, hdr, N);
  int two = cfg->ranks_per_node > 0 && cfg->ranks_per_node < cfg->ranks;
  int step = cfg->step_time_s > 0, ddp = step && cfg->kind == RL_COLL_ALLREDUCE;
  const double nan = (double)NAN;
  const double v[N - 1] = {cfg->bytes, cfg->ranks, r->factor, r->time_s, r->bytes_per_rank, r->busbw, r->algbw,
                           cfg->busbw, r->bandwidth_time_s, r->latency_time_s,
                           two ? r->intra_time_s : nan, two ? r->inter_time_s : nan,
                           step ? cfg->step_time_s : nan, step ? r->step_fraction : nan,
                           step ? r->step_fraction_added : nan, ddp ? r->ddp_exposed_s : nan,
                           ddp ? r->ddp_fraction : nan, ddp ? r->fsdp_time_s : nan, ddp ? r->fsdp_fraction : nan};
  char cells[N][40];
  const char *row[N] = {rl_coll_name(cfg->kind)};
  for (int i = 1; i < N; i++) row[i] = cli_csv_num(cells[i], sizeof cells[i], v[i - 1]);
  cli_csv_row(ctx, row, N);
}

static void print_text(cli_ctx *ctx, const rl_coll_cfg *cfg, const rl_coll_result *r, const char *bw_src) {
  FILE *o = ctx->out;
  int ar = cfg->kind == RL_COLL_ALLREDUCE;
  double bytes = cfg->bytes, ranks = cfg->ranks;
  const char *fac = ar ? "2(n-1)/n" : "(n-1)/n";
  fprintf(o, "%s of %s over %.0f ranks (ring; Patarasuk & Yuan 2009, nccl-tests' busbw)\n",
          rl_coll_name(cfg->kind), CLI_Q(bytes, RL_UNIT_BYTES), ranks);
  fprintf(o, "  each rank sends %s x S = %.4g x %s = %s\n", fac, r->factor, CLI_Q(bytes, RL_UNIT_BYTES),
          CLI_Q(r->bytes_per_rank, RL_UNIT_BYTES));
  fprintf(o, "  busbw %s (%s)\n", CLI_Q(cfg->busbw, RL_UNIT_BYTES_S), bw_src);
  if (cfg->ranks_per_node > 0 && cfg->ranks_per_node < ranks)
    fprintf(o, "  two levels, %.0f nodes of %.0f: in the node %s, across nodes %s (S/%.0f per rank at %s)\n",
            ranks / cfg->ranks_per_node, cfg->ranks_per_node, CLI_Q(r->intra_time_s, RL_UNIT_SECONDS),
            CLI_Q(r->inter_time_s, RL_UNIT_SECONDS), cfg->ranks_per_node, CLI_Q(cfg->inter_busbw, RL_UNIT_BYTES_S));
  fprintf(o, "  time >= %s", CLI_Q(r->time_s, RL_UNIT_SECONDS));
  if (r->latency_time_s > 0) fprintf(o, " (of which latency %s)", CLI_Q(r->latency_time_s, RL_UNIT_SECONDS));
  fprintf(o, "; algbw = S/t = %s, busbw = algbw x %s = %s\n", CLI_Q(r->algbw, RL_UNIT_BYTES_S), fac,
          CLI_Q(r->busbw, RL_UNIT_BYTES_S));
  if (!(cfg->step_time_s > 0)) return;
  fprintf(o, "\nstep of %s:\n", CLI_Q(cfg->step_time_s, RL_UNIT_SECONDS));
  fprintf(o, "  no overlap:  %s of the step (%s if the step time excludes the communication)\n",
          CLI_PCT(r->step_fraction), CLI_PCT(r->step_fraction_added));
  if (ar) {
    double tb = cfg->backward_time_s > 0 ? cfg->backward_time_s : cfg->step_time_s * 2 / 3;
    double bk = cfg->bucket_bytes > 0 ? cfg->bucket_bytes : 25.0 * 1048576;
    fprintf(o, "  DDP:         %s exposed (%s) with %s (%.4g MiB) buckets overlapping a %s backward pass\n",
            CLI_Q(r->ddp_exposed_s, RL_UNIT_SECONDS), CLI_PCT(r->ddp_fraction), CLI_Q(bk, RL_UNIT_BYTES), bk / 1048576,
            CLI_Q(tb, RL_UNIT_SECONDS));
    fprintf(o, "  FSDP/ZeRO-3: 1.5 x the traffic, %s (%s of the step with no overlap)\n",
            CLI_Q(r->fsdp_time_s, RL_UNIT_SECONDS), CLI_PCT(r->fsdp_fraction));
  }
}

/* parse -> resolve -> compute (rl_collective) -> print */
static int run(cli_ctx *ctx, int argc, char **argv) {
  comm_opts o;
  int rc = parse(ctx, argc, argv, &o);
  if (rc) return rc;
  char bw_src[160];
  if ((rc = resolve(ctx, &o, bw_src, sizeof bw_src))) return rc;
  rl_coll_result r;
  rl_error e;
  rl_status st = rl_collective(&o.cfg, &r, &e);
  if (st) return cli_fail(ctx, st, &e);
  if (ctx->json) {
    comm_args a = {&o.cfg, &r};
    return cli_print_json(ctx, comm_json, &a);
  }
  if (ctx->csv) print_csv(ctx, &o.cfg, &r);
  else print_text(ctx, &o.cfg, &r, bw_src);
  return CLI_OK;
}

const cli_command cmd_comm = {"comm", run, "time of an all-reduce / all-gather / reduce-scatter; share of a step", help, 0};
