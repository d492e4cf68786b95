/*
 * cmd_op.c -- `roofline op KIND`: one operation's FLOPs, bytes, intensity
 * and roofline bound on a device, optionally against a measured time.
 */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: roofline op KIND [shape flags] --hw ID [--dtype DT] [--time T]\n"
    "\n"
    "The FLOPs F and ideal traffic Q (each input read once, each output written\n"
    "once) of one operation, and its roofline: time >= max(F/peak, Q/bandwidth).\n"
    "Matmul-like ops (matmul, linear, attention, conv2d) use the dense tensor peak\n"
    "of their format; the others the vector peak. The output says which.\n"
    "\n"
    "kinds and their shape flags (from the op schema in src/core/ops.c):\n"
    "@ops\n"
    "\n"
    "flags:\n"
    "@--hw\n"
    "@--dtype\n"
    "@--weight-dtype\n"
    "@--time\n"
    "@--peak\n"
    "@--mem\n"
    "@--sparse\n"
    "@--overhead\n"
    "@--hw-file\n"
    "  --json, --csv    machine-readable output\n"
    "\n"
    "examples:\n"
    "  roofline op layernorm --rows 4096 --cols 4096 --hw h100 --time 22.4us\n"
    "  roofline op matmul --m 8192 --n 8192 --k 8192 --hw h100\n"
    "  roofline op linear --tokens 1 --d-in 4096 --d-out 4096 --hw h100 --weight-dtype int4\n";

/* ---- parse: the op from its kind and shape flags ------------------------ */
/* The shape flags: one per field of the op schema. */
#define MAX_FIELDS 64

typedef struct op_opts {
  rl_op op;          /* kind, format and shape */
  double time;       /* --time, 0: not measured */
  cli_hw_flags hwf;
} op_opts;

static int parse(cli_ctx *ctx, int argc, char **argv, op_opts *o) {
  double val[MAX_FIELDS] = {0};
  int flag[MAX_FIELDS] = {0};
  int32_t dt[MAX_FIELDS] = {0};
  int32_t dtype = RL_BF16;
  o->time = 0;
  cli_hw_flags_init(&o->hwf);
  cli_opt opts[MAX_FIELDS + 16];
  int nf = 0;
  for (const char *name; nf < MAX_FIELDS && (name = rl_op_field_name(nf)); nf++) {
    int32_t unit = RL_UNIT_COUNT, type = rl_op_field_type(name, &unit);
    cli_opt f = {name, OPT_COUNT, &val[nf], 0};
    if (type == RL_OP_FIELD_FLAG) { f.kind = OPT_FLAG; f.dst = &flag[nf]; }
    else if (type == RL_OP_FIELD_DTYPE) { f.kind = OPT_DTYPE; f.dst = &dt[nf]; }
    else if (unit == RL_UNIT_FLOP) f.kind = OPT_FLOP;
    else if (unit == RL_UNIT_BYTES) f.kind = OPT_BYTES;
    opts[nf] = f;
  }
  cli_opt common[] = {{"dtype", OPT_DTYPE, &dtype, 0}, {"time", OPT_SECONDS, &o->time, 0},
                      CLI_HW_OPTS(o->hwf), {NULL, 0, NULL, 0}};
  memcpy(opts + nf, common, sizeof common);
  const char *pos[1];
  int np = 0;
  int rc = cli_parse(ctx, argc, argv, opts, pos, 1, &np);
  if (rc) return rc;
  if (np < 1) return cli_error(ctx, "which op? e.g. roofline op matmul --m 4096 --n 4096 --k 4096 --hw h100");
  rl_error e;
  int32_t kind;
  rl_status st = rl_op_parse(pos[0], &kind, &e);
  if (st) return cli_fail(ctx, st, &e);
  if (kind == RL_OP_KERNEL) return cli_error(ctx, "use `roofline kernel --flops F --bytes Q` for a generic kernel");
  const char *names[MAX_FIELDS];
  double values[MAX_FIELDS];
  int32_t nset = 0;
  for (int i = 0; i < nf; i++)
    if (opts[i].seen) {
      names[nset] = opts[i].name;
      values[nset++] = opts[i].kind == OPT_FLAG ? flag[i] : opts[i].kind == OPT_DTYPE ? dt[i] : val[i];
    }
  o->op = rl_op_init(kind, dtype);
  st = rl_op_set_fields(&o->op, names, values, nset, "--", &e);
  if (st) return cli_fail(ctx, st, &e);
  if (o->time < 0 || (cli_seen(opts, "time") && !(o->time > 0)))
    return cli_error(ctx, "--time must be > 0");
  return CLI_OK;
}

/* ---- compute: the cost, the roof on the resolved device, the bound ------- */
typedef struct op_out {
  rl_hw hw;
  rl_roof roof;
  rl_result r;
  double min_batch; /* linear: the smallest compute-bound batch; -1 never */
} op_out;

static int compute(cli_ctx *ctx, const op_opts *o, op_out *out) {
  const rl_op *op = &o->op;
  rl_cost cost;
  rl_error e;
  rl_status st = rl_op_cost(op, &cost, &e);
  if (st) return cli_fail(ctx, st, &e);
  int rc = cli_resolve_hw(ctx, &o->hwf, 0, &out->hw);
  if (rc) return rc;
  if ((rc = cli_roof(ctx, &o->hwf, &out->hw, op->dtype, cost.tensor, &out->roof))) return rc;
  st = rl_roofline(cost.flops, cost.bytes, &out->roof, o->time, &out->r, &e);
  if (st) return cli_fail(ctx, st, &e);
  out->min_batch = -1;
  if (op->kind == RL_OP_LINEAR) {
    st = rl_linear_min_batch(op->k, op->n, op->dtype, op->weight_dtype, (op->flags & RL_OP_BIAS) != 0,
                             out->r.ridge, &out->min_batch, &e);
    if (st) return cli_fail(ctx, st, &e);
  }
  return CLI_OK;
}

/* ---- print ------------------------------------------------------------------ */
/* The JSON members beyond the result's: shape, weight format, min batch. */
static void json_extra(const rl_op *op, const char *shape, double min_batch, char *extra, size_t cap) {
  char sh[200];
  rl_json_string(shape, sh, sizeof sh);
  int n = snprintf(extra, cap, "\"shape\":%s", sh);
  if (op->weight_dtype >= 0)
    n += snprintf(extra + n, cap - (size_t)n, ",\"weight_dtype\":\"%s\"", rl_dtype_name(op->weight_dtype));
  if (op->kind == RL_OP_LINEAR) {
    if (min_batch > 0)
      snprintf(extra + n, cap - (size_t)n, ",\"min_batch_compute_bound\":%.0f", min_batch);
    else
      snprintf(extra + n, cap - (size_t)n, ",\"min_batch_compute_bound\":null");
  }
}

static void print_text(cli_ctx *ctx, const rl_op *op, const char *shape, const op_out *out) {
  char verdict[400];
  rl_verdict(&out->r, verdict, sizeof verdict);
  const char *hdr[] = {"quantity", "value"};
  cli_table *t = cli_table_new(2, hdr);
  cli_row(t, "op", "%s, %s, %s%s%s", rl_op_name(op->kind), shape, rl_dtype_name(op->dtype),
          op->weight_dtype >= 0 ? " with weights in " : "",
          op->weight_dtype >= 0 ? rl_dtype_name(op->weight_dtype) : "");
  cli_result_rows(t, &out->hw, &out->roof, &out->r);
  if (op->kind == RL_OP_LINEAR) {
    if (out->min_batch > 0)
      cli_row(t, "compute-bound", "from %.0f tokens per call", out->min_batch);
    else
      cli_row(t, "compute-bound", "never on this device (intensity tends to %.3g FLOP/B)",
              (2 * op->k * op->n) / (rl_dtype_bytes(op->dtype) * (op->k + op->n)));
  }
  cli_row(t, "verdict", "%s", verdict);
  cli_table_print(ctx, t);
  cli_table_free(t);
}

/* parse -> compute (resolving the device) -> print */
static int run(cli_ctx *ctx, int argc, char **argv) {
  op_opts o;
  int rc = parse(ctx, argc, argv, &o);
  if (rc) return rc;
  op_out out;
  if ((rc = compute(ctx, &o, &out))) return rc;
  char shape[160];
  rl_op_describe(&o.op, shape, sizeof shape);
  const char *name = rl_op_name(o.op.kind), *dt = rl_dtype_name(o.op.dtype);
  if (ctx->json) {
    char extra[512];
    json_extra(&o.op, shape, out.min_batch, extra, sizeof extra);
    return cli_print_result_json(ctx, name, out.hw.id, dt, &out.roof, &out.r, extra);
  }
  if (ctx->csv) {
    cli_result_csv_header(ctx);
    cli_result_csv_row(ctx, name, out.hw.id, dt, &out.r);
  } else {
    print_text(ctx, &o.op, shape, &out);
  }
  return CLI_OK;
}

const cli_command cmd_op = {"op", run, "FLOPs, bytes and roofline bound of one operation", help, 0};
