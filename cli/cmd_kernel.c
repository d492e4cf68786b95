/*
 * cmd_kernel.c -- `roofline kernel --flops F --bytes Q`: the roofline of
 * any kernel from its FLOPs and bytes (counted by hand or by a profiler).
 */
#include "cli.h"

#include <string.h>

static const char help[] =
    "usage: roofline kernel --flops F --bytes Q --hw ID [--dtype DT] [--time T]\n"
    "\n"
    "The roofline of a kernel from its FLOPs and its bytes moved to and from\n"
    "DRAM: time >= max(F/peak, Q/bandwidth), the bound, and with --time the\n"
    "achieved FLOP/s and the fraction of its roof.\n"
    "\n"
    "flags:\n"
    "@--flops\n"
    "@--bytes\n"
    "@--hw\n"
    "@--dtype\n"
    "@--vector\n"
    "@--time\n"
    "@--name\n"
    "  {--peak}, {--bw}, {--mem}, {--sparse}, {--overhead}, {--hw-file},\n"
    "  --json, --csv    as for `roofline op`\n"
    "\n"
    "example:\n"
    "  roofline kernel --flops 1e6 --bytes 100kB --hw h100      (overhead-bound)\n";

/* ---- parse ------------------------------------------------------------------ */
typedef struct kernel_opts {
  rl_op op;          /* RL_OP_KERNEL: its FLOPs, bytes and format */
  double time;       /* --time, 0: not measured */
  int vector;        /* the vector peak instead of the tensor one */
  const char *name;  /* --name */
  cli_hw_flags hwf;
} kernel_opts;

static int parse(cli_ctx *ctx, int argc, char **argv, kernel_opts *o) {
  double flops = 0, bytes = 0;
  int32_t dtype = RL_BF16;
  o->time = 0;
  o->vector = 0;
  o->name = "kernel";
  cli_hw_flags_init(&o->hwf);
  cli_opt opts[] = {{"flops", OPT_FLOP, &flops, 0},     {"bytes", OPT_BYTES, &bytes, 0},
                    {"time", OPT_SECONDS, &o->time, 0}, {"dtype", OPT_DTYPE, &dtype, 0},
                    {"vector", OPT_FLAG, &o->vector, 0}, {"name", OPT_STR, &o->name, 0},
                    CLI_HW_OPTS(o->hwf),                {NULL, 0, NULL, 0}};
  int rc = cli_parse(ctx, argc, argv, opts, NULL, 0, NULL);
  if (rc) return rc;
  if (!cli_seen(opts, "flops") || !cli_seen(opts, "bytes"))
    return cli_error(ctx, "needs --flops and --bytes");
  if (cli_seen(opts, "time") && !(o->time > 0)) return cli_error(ctx, "--time must be > 0");
  o->op = rl_op_init(RL_OP_KERNEL, dtype);
  o->op.flops = flops;
  o->op.bytes = bytes;
  return CLI_OK;
}

/* ---- compute: the roof on the resolved device, the bound ------------------ */
static int compute(cli_ctx *ctx, const kernel_opts *o, rl_hw *hw, rl_roof *roof, rl_result *r) {
  rl_cost cost;
  rl_error e;
  rl_status st = rl_op_cost(&o->op, &cost, &e);
  if (st) return cli_fail(ctx, st, &e);
  int rc = cli_resolve_hw(ctx, &o->hwf, 0, hw);
  if (rc) return rc;
  if ((rc = cli_roof(ctx, &o->hwf, hw, o->op.dtype, !o->vector, roof))) return rc;
  st = rl_roofline(cost.flops, cost.bytes, roof, o->time, r, &e);
  if (st) return cli_fail(ctx, st, &e);
  return CLI_OK;
}

/* ---- print ------------------------------------------------------------------ */
static void print_text(cli_ctx *ctx, const char *name, const rl_hw *hw, const rl_roof *roof, const rl_result *r) {
  char verdict[400];
  rl_verdict(r, verdict, sizeof verdict);
  const char *hdr[] = {"quantity", "value"};
  cli_table *t = cli_table_new(2, hdr);
  cli_row(t, "kernel", "%s", name);
  cli_result_rows(t, hw, roof, r);
  if (rl_above_roof(r))
    cli_row(t, "above roof", "yes: %.3g%% of its roof, faster than max(F/peak, Q/bandwidth) allows",
            100 * r->roof_fraction);
  cli_row(t, "verdict", "%s", verdict);
  cli_table_print(ctx, t);
  cli_table_free(t);
}

/* parse -> compute (resolving the device) -> print */
static int run(cli_ctx *ctx, int argc, char **argv) {
  kernel_opts o;
  int rc = parse(ctx, argc, argv, &o);
  if (rc) return rc;
  rl_hw hw;
  rl_roof roof;
  rl_result r;
  if ((rc = compute(ctx, &o, &hw, &roof, &r))) return rc;
  const char *dt = rl_dtype_name(o.op.dtype);
  if (ctx->json) /* above_roof: as trace's rows */
    return cli_print_result_json(ctx, o.name, hw.id, dt, &roof, &r,
                                 rl_above_roof(&r) ? "\"above_roof\":true" : "\"above_roof\":false");
  if (ctx->csv) {
    cli_result_csv_header(ctx);
    cli_result_csv_row(ctx, o.name, hw.id, dt, &r);
  } else {
    print_text(ctx, o.name, &hw, &roof, &r);
  }
  return CLI_OK;
}

const cli_command cmd_kernel = {"kernel", run, "roofline of any kernel from its FLOPs and bytes", help, 0};
