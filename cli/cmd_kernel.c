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
    "  --flops F        FLOPs (1e9, 17.2GFLOP, 0 for a pure copy)\n"
    "  --bytes Q        bytes read plus written (100MB, 64KiB)\n"
    "  --hw ID          device; or --peak P --bw B for your own\n"
    "  --dtype DT       format of the arithmetic (default bf16)\n"
    "  --vector         use the vector (non-tensor) peak instead of the tensor one\n"
    "  --time T         measured time (22us)\n"
    "  --name NAME      label for the output\n"
    "  --peak P, --bw B, --mem M, --sparse, --overhead T, --hw-file PATH,\n"
    "  --json, --csv    as for `roofline op`\n"
    "\n"
    "example:\n"
    "  roofline kernel --flops 1e6 --bytes 100kB --hw h100      (overhead-bound)\n";

typedef struct json_arg {
  const char *op, *hw, *dtype;
  const rl_roof *roof;
  const rl_result *r;
} json_arg;

static size_t json_fn(void *p, char *buf, size_t cap) {
  json_arg *a = p;
  return rl_result_json(a->op, a->hw, a->dtype, a->roof, a->r, NULL, buf, cap);
}

static int run(cli_ctx *ctx, int argc, char **argv) {
  double flops = 0, bytes = 0, time = 0;
  int32_t dtype = RL_BF16;
  int vector = 0;
  const char *name = "kernel";
  cli_hw_flags hwf;
  cli_hw_flags_init(&hwf);
  cli_opt opts[] = {{"flops", OPT_FLOP, &flops, 0},   {"bytes", OPT_BYTES, &bytes, 0},
                    {"time", OPT_SECONDS, &time, 0},   {"dtype", OPT_DTYPE, &dtype, 0},
                    {"vector", OPT_FLAG, &vector, 0},  {"name", OPT_STR, &name, 0},
                    CLI_HW_OPTS(hwf),                  {NULL, 0, NULL, 0}};
  int rc = cli_parse(ctx, argc, argv, opts, NULL, 0, NULL);
  if (rc) return rc;
  if (!cli_seen(opts, "flops") || !cli_seen(opts, "bytes"))
    return cli_error(ctx, "needs --flops and --bytes");
  if (cli_seen(opts, "time") && !(time > 0)) return cli_error(ctx, "--time must be > 0");
  rl_op op = rl_op_init(RL_OP_KERNEL, dtype);
  op.flops = flops;
  op.bytes = bytes;
  rl_cost cost;
  rl_error e;
  rl_status st = rl_op_cost(&op, &cost, &e);
  if (st) return cli_fail(ctx, st, &e);
  rl_hw hw;
  if ((rc = cli_resolve_hw(ctx, &hwf, NULL, &hw))) return rc;
  rl_roof roof;
  if ((rc = cli_roof(ctx, &hwf, &hw, dtype, !vector, &roof))) return rc;
  rl_result r;
  st = rl_roofline(cost.flops, cost.bytes, &roof, time, &r, &e);
  if (st) return cli_fail(ctx, st, &e);
  if (ctx->json) {
    json_arg a = {name, hw.id, rl_dtype_name(dtype), &roof, &r};
    return cli_print_json(ctx, json_fn, &a);
  }
  if (ctx->csv) {
    cli_result_csv_header(ctx);
    cli_result_csv_row(ctx, name, hw.id, rl_dtype_name(dtype), &r);
    return CLI_OK;
  }
  char verdict[400];
  rl_verdict(&r, verdict, sizeof verdict);
  const char *hdr[] = {"quantity", "value"};
  cli_table *t = cli_table_new(2, hdr);
  cli_row(t, "kernel", "%s", name);
  cli_result_rows(t, &hw, &roof, &r);
  cli_row(t, "verdict", "%s", verdict);
  cli_table_print(ctx, t);
  cli_table_free(t);
  return CLI_OK;
}

const cli_command cmd_kernel = {"kernel", run, "roofline of any kernel from its FLOPs and bytes", help};
