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
    "kinds and their shape flags:\n"
    "  add mul sub div relu gelu-tanh gelu-erf silu copy\n"
    "                  --n N  or  --rows R --cols C\n"
    "  softmax layernorm rmsnorm\n"
    "                  --rows R --cols C\n"
    "  matmul          --m M --n N --k K [--batch B] [--bias]   (M x K times K x N)\n"
    "  linear          --tokens B --d-in D --d-out D [--bias]\n"
    "  attention       --seq T --head-dim D [--heads H] [--kv-heads H] [--batch B]\n"
    "                  [--seq-kv T] [--fused [--tile N]] [--causal]\n"
    "  conv2d          --batch N --c-in C --h H --w W --c-out C --kh K --kw K\n"
    "                  [--stride S] [--pad P] [--groups G] [--bias]\n"
    "  embedding       --rows TOKENS --cols WIDTH\n"
    "\n"
    "flags:\n"
    "  --hw ID          device (roofline hw list); or --peak and --bw for your own\n"
    "  --dtype DT       fp64 fp32 tf32 bf16 fp16 fp8 int8 fp4 (default bf16)\n"
    "  --weight-dtype DT  matmul B / linear and conv weights, e.g. int4 or fp8\n"
    "                   weights with bf16 activations (copy: the source format)\n"
    "  --time T         measured time (25us): achieved FLOP/s, fraction of roof\n"
    "  --peak P         override the peak (989.4T); --bw B the bandwidth (3.35TB/s)\n"
    "  --mem M          override the capacity\n"
    "  --sparse         use the 2:4 sparse tensor peak (labelled as such)\n"
    "  --overhead T     launch overhead below which an op is overhead-bound (4us)\n"
    "  --hw-file PATH   add devices from a CSV in data/hardware.csv's format\n"
    "  --json, --csv    machine-readable output\n"
    "\n"
    "examples:\n"
    "  roofline op layernorm --rows 4096 --cols 4096 --hw h100 --time 22.4us\n"
    "  roofline op matmul --m 8192 --n 8192 --k 8192 --hw h100\n"
    "  roofline op linear --tokens 1 --d-in 4096 --d-out 4096 --hw h100 --weight-dtype int4\n";

typedef struct op_flags {
  double n, rows, cols, m, k, batch, tokens, d_in, d_out;
  double seq, seq_kv, head_dim, heads, kv_heads, tile;
  double c_in, c_out, h, w, kh, kw, stride, pad, groups;
  int fused, causal, bias;
  int32_t dtype, weight_dtype;
  double time;
} op_flags;

/* Which shape flags each kind takes (the rest are refused). */
static const char *allowed(int32_t kind) {
  switch (kind) {
  case RL_OP_ADD: case RL_OP_MUL: case RL_OP_SUB: case RL_OP_DIV: case RL_OP_RELU:
  case RL_OP_GELU_TANH: case RL_OP_GELU_ERF: case RL_OP_SILU:
    return " n rows cols ";
  case RL_OP_COPY: return " n rows cols weight-dtype ";
  case RL_OP_SOFTMAX: return " rows cols ";
  case RL_OP_LAYERNORM: case RL_OP_RMSNORM: return " rows cols weight-dtype ";
  case RL_OP_EMBEDDING: return " rows cols weight-dtype ";
  case RL_OP_MATMUL: return " m n k batch bias weight-dtype ";
  case RL_OP_LINEAR: return " tokens d-in d-out bias weight-dtype ";
  case RL_OP_ATTENTION: return " seq seq-kv head-dim heads kv-heads batch fused causal tile ";
  case RL_OP_CONV2D: return " batch c-in c-out h w kh kw stride pad groups bias weight-dtype ";
  default: return " ";
  }
}

static const char *const shape_flags[] = {
    "n", "rows", "cols", "m", "k", "batch", "tokens", "d-in", "d-out", "seq", "seq-kv",
    "head-dim", "heads", "kv-heads", "tile", "c-in", "c-out", "h", "w", "kh", "kw",
    "stride", "pad", "groups", "fused", "causal", "bias", "weight-dtype", NULL};

typedef struct json_arg {
  const char *op, *hw, *dtype, *extra;
  const rl_roof *roof;
  const rl_result *r;
} json_arg;

static size_t json_fn(void *p, char *buf, size_t cap) {
  json_arg *a = p;
  return rl_result_json(a->op, a->hw, a->dtype, a->roof, a->r, a->extra, buf, cap);
}

/* Describe the shape for the readable output. */
static void shape_text(const rl_op *op, char *buf, size_t cap) {
  switch (op->kind) {
  case RL_OP_SOFTMAX: case RL_OP_LAYERNORM: case RL_OP_RMSNORM: case RL_OP_EMBEDDING:
    snprintf(buf, cap, "%.0f x %.0f", op->m, op->n);
    break;
  case RL_OP_MATMUL:
    snprintf(buf, cap, "(%.0f x %.0f)(%.0f x %.0f)%s", op->m, op->k, op->k, op->n,
             op->batch > 1 ? " batched" : "");
    if (op->batch > 1) snprintf(buf + strlen(buf), cap - strlen(buf), " x %.0f", op->batch);
    break;
  case RL_OP_LINEAR:
    snprintf(buf, cap, "%.0f token%s, %.0f -> %.0f", op->m, op->m == 1 ? "" : "s", op->k, op->n);
    break;
  case RL_OP_ATTENTION:
    snprintf(buf, cap, "T=%.0f, d_k=%.0f, %.0f head(s), %.0f KV head(s)%s%s", op->seq,
             op->head_dim, op->heads > 0 ? op->heads : 1,
             op->kv_heads > 0 ? op->kv_heads : (op->heads > 0 ? op->heads : 1),
             op->flags & RL_OP_FUSED ? ", fused" : ", naive",
             op->flags & RL_OP_CAUSAL ? ", causal (half the score FLOPs)" : "");
    break;
  case RL_OP_CONV2D:
    snprintf(buf, cap, "N=%.0f, %.0fx%.0fx%.0f -> %.0f, kernel %.0fx%.0f", op->batch > 0 ? op->batch : 1,
             op->c_in, op->h, op->w, op->c_out, op->kh, op->kw);
    break;
  default:
    snprintf(buf, cap, "%.0f elements", op->n);
  }
}

static int run(cli_ctx *ctx, int argc, char **argv) {
  op_flags f;
  memset(&f, 0, sizeof f);
  f.dtype = RL_BF16;
  f.weight_dtype = -1;
  cli_hw_flags hwf;
  cli_hw_flags_init(&hwf);
  cli_opt opts[] = {
      {"n", OPT_COUNT, &f.n, 0}, {"rows", OPT_COUNT, &f.rows, 0},
      {"cols", OPT_COUNT, &f.cols, 0}, {"m", OPT_COUNT, &f.m, 0},
      {"k", OPT_COUNT, &f.k, 0}, {"batch", OPT_COUNT, &f.batch, 0},
      {"tokens", OPT_COUNT, &f.tokens, 0}, {"d-in", OPT_COUNT, &f.d_in, 0},
      {"d-out", OPT_COUNT, &f.d_out, 0}, {"seq", OPT_COUNT, &f.seq, 0},
      {"seq-kv", OPT_COUNT, &f.seq_kv, 0}, {"head-dim", OPT_COUNT, &f.head_dim, 0},
      {"heads", OPT_COUNT, &f.heads, 0}, {"kv-heads", OPT_COUNT, &f.kv_heads, 0},
      {"tile", OPT_COUNT, &f.tile, 0}, {"c-in", OPT_COUNT, &f.c_in, 0},
      {"c-out", OPT_COUNT, &f.c_out, 0}, {"h", OPT_COUNT, &f.h, 0},
      {"w", OPT_COUNT, &f.w, 0}, {"kh", OPT_COUNT, &f.kh, 0},
      {"kw", OPT_COUNT, &f.kw, 0}, {"stride", OPT_COUNT, &f.stride, 0},
      {"pad", OPT_COUNT, &f.pad, 0}, {"groups", OPT_COUNT, &f.groups, 0},
      {"fused", OPT_FLAG, &f.fused, 0}, {"causal", OPT_FLAG, &f.causal, 0},
      {"bias", OPT_FLAG, &f.bias, 0}, {"dtype", OPT_DTYPE, &f.dtype, 0},
      {"weight-dtype", OPT_DTYPE, &f.weight_dtype, 0},
      {"time", OPT_SECONDS, &f.time, 0}, CLI_HW_OPTS(hwf), {NULL, 0, NULL, 0}};
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
  const char *ok = allowed(kind);
  for (int i = 0; shape_flags[i]; i++) {
    char word[32];
    snprintf(word, sizeof word, " %s ", shape_flags[i]);
    if (cli_seen(opts, shape_flags[i]) && !strstr(ok, word))
      return cli_error(ctx, "--%s does not apply to %s", shape_flags[i], rl_op_name(kind));
  }
  if (f.time < 0 || (cli_seen(opts, "time") && !(f.time > 0)))
    return cli_error(ctx, "--time must be > 0");
  rl_op op = rl_op_init(kind, f.dtype);
  op.weight_dtype = f.weight_dtype;
  op.flags = (f.fused ? RL_OP_FUSED : 0) | (f.causal ? RL_OP_CAUSAL : 0) | (f.bias ? RL_OP_BIAS : 0);
  op.batch = f.batch;
  switch (kind) {
  case RL_OP_SOFTMAX: case RL_OP_LAYERNORM: case RL_OP_RMSNORM: case RL_OP_EMBEDDING:
    if (!cli_seen(opts, "rows") || !cli_seen(opts, "cols"))
      return cli_error(ctx, "%s needs --rows and --cols", rl_op_name(kind));
    op.m = f.rows;
    op.n = f.cols;
    break;
  case RL_OP_MATMUL:
    if (!cli_seen(opts, "m") || !cli_seen(opts, "n") || !cli_seen(opts, "k"))
      return cli_error(ctx, "matmul needs --m, --n and --k");
    op.m = f.m; op.n = f.n; op.k = f.k;
    if (cli_seen(opts, "batch") && !(f.batch > 0)) return cli_error(ctx, "--batch must be > 0");
    break;
  case RL_OP_LINEAR:
    if (!cli_seen(opts, "tokens") || !cli_seen(opts, "d-in") || !cli_seen(opts, "d-out"))
      return cli_error(ctx, "linear needs --tokens, --d-in and --d-out");
    op.m = f.tokens; op.k = f.d_in; op.n = f.d_out;
    break;
  case RL_OP_ATTENTION:
    if (!cli_seen(opts, "seq") || !cli_seen(opts, "head-dim"))
      return cli_error(ctx, "attention needs --seq and --head-dim");
    if (f.tile != 0 && !f.fused) return cli_error(ctx, "--tile applies to --fused attention only");
    op.seq = f.seq; op.seq_kv = f.seq_kv; op.head_dim = f.head_dim;
    op.heads = f.heads; op.kv_heads = f.kv_heads; op.tile = f.tile;
    for (int i = 0; i < 4; i++) {
      static const char *const o[] = {"heads", "kv-heads", "seq-kv", "batch"};
      if (cli_seen(opts, o[i]) && !(((double[]){f.heads, f.kv_heads, f.seq_kv, f.batch})[i] > 0))
        return cli_error(ctx, "--%s must be > 0", o[i]);
    }
    if (cli_seen(opts, "tile") && !(f.tile > 0)) return cli_error(ctx, "--tile must be > 0");
    break;
  case RL_OP_CONV2D:
    op.c_in = f.c_in; op.c_out = f.c_out; op.h = f.h; op.w = f.w; op.kh = f.kh;
    op.kw = f.kw; op.stride = f.stride; op.pad = f.pad; op.groups = f.groups;
    break;
  default: /* elementwise */
    if (cli_seen(opts, "n") && (cli_seen(opts, "rows") || cli_seen(opts, "cols")))
      return cli_error(ctx, "give --n or --rows and --cols, not both");
    if (cli_seen(opts, "rows") != cli_seen(opts, "cols"))
      return cli_error(ctx, "--rows and --cols go together");
    if (cli_seen(opts, "rows")) {
      if (!(f.rows > 0) || !(f.cols > 0)) return cli_error(ctx, "--rows and --cols must be > 0");
      op.n = f.rows * f.cols;
    } else if (cli_seen(opts, "n")) {
      op.n = f.n;
    } else {
      return cli_error(ctx, "%s needs --n (or --rows and --cols)", rl_op_name(kind));
    }
  }
  rl_cost cost;
  st = rl_op_cost(&op, &cost, &e);
  if (st) return cli_fail(ctx, st, &e);
  rl_hw hw;
  if ((rc = cli_resolve_hw(ctx, &hwf, NULL, &hw))) return rc;
  rl_roof roof;
  if ((rc = cli_roof(ctx, &hwf, &hw, f.dtype, cost.tensor, &roof))) return rc;
  rl_result r;
  st = rl_roofline(cost.flops, cost.bytes, &roof, f.time, &r, &e);
  if (st) return cli_fail(ctx, st, &e);
  double min_batch = -1;
  if (kind == RL_OP_LINEAR) {
    st = rl_linear_min_batch(op.k, op.n, op.dtype, op.weight_dtype, f.bias, r.ridge, &min_batch, &e);
    if (st) return cli_fail(ctx, st, &e);
  }
  char shape[160];
  shape_text(&op, shape, sizeof shape);
  char extra[512];
  {
    char sh[200];
    rl_json_string(shape, sh, sizeof sh);
    int n = snprintf(extra, sizeof extra, "\"shape\":%s", sh);
    if (op.weight_dtype >= 0)
      n += snprintf(extra + n, sizeof extra - (size_t)n, ",\"weight_dtype\":\"%s\"",
                    rl_dtype_name(op.weight_dtype));
    if (kind == RL_OP_LINEAR) {
      if (min_batch > 0)
        snprintf(extra + n, sizeof extra - (size_t)n, ",\"min_batch_compute_bound\":%.0f", min_batch);
      else
        snprintf(extra + n, sizeof extra - (size_t)n, ",\"min_batch_compute_bound\":null");
    }
  }
  if (ctx->json) {
    json_arg a = {rl_op_name(kind), hw.id, rl_dtype_name(f.dtype), extra, &roof, &r};
    return cli_print_json(ctx, json_fn, &a);
  }
  if (ctx->csv) {
    cli_result_csv_header(ctx);
    cli_result_csv_row(ctx, rl_op_name(kind), hw.id, rl_dtype_name(f.dtype), &r);
    return CLI_OK;
  }
  char verdict[400];
  rl_verdict(&r, verdict, sizeof verdict);
  const char *hdr[] = {"quantity", "value"};
  cli_table *t = cli_table_new(2, hdr);
  cli_row(t, "op", "%s, %s, %s%s%s", rl_op_name(kind), shape, rl_dtype_name(f.dtype),
          op.weight_dtype >= 0 ? " with weights in " : "",
          op.weight_dtype >= 0 ? rl_dtype_name(op.weight_dtype) : "");
  cli_result_rows(t, &hw, &roof, &r);
  if (kind == RL_OP_LINEAR) {
    if (min_batch > 0)
      cli_row(t, "compute-bound", "from %.0f tokens per call", min_batch);
    else
      cli_row(t, "compute-bound", "never on this device (intensity tends to %.3g FLOP/B)",
              (2 * op.k * op.n) / (rl_dtype_bytes(op.dtype) * (op.k + op.n)));
  }
  cli_row(t, "verdict", "%s", verdict);
  cli_table_print(ctx, t);
  cli_table_free(t);
  return CLI_OK;
}

const cli_command cmd_op = {"op", run, "FLOPs, bytes and roofline bound of one operation", help};
