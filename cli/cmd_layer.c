/*
 * cmd_layer.c -- `roofline layer`: one Transformer layer's table, the roofline
 * view of one Transformer layer (add, softmax and LayerNorm on the
 * activation, linear layers at three token batches, one attention head
 * naive and fused).
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: roofline layer [--hw ID] [--dtype DT] [shape flags]\n"
    "\n"
    "The roofline view of one Transformer layer, as the classic worked table: an\n"
    "add, a softmax and a LayerNorm on a rows x d activation; linear layers d x d\n"
    "at three token batches; one attention head at sequence length T, naive\n"
    "(scores written to memory) and fused (FlashAttention-style).\n"
    "\n"
    "flags:\n"
    "@--hw\n"
    "@--dtype\n"
    "@--rows\n"
    "@--d\n"
    "@--batches\n"
    "@--seq\n"
    "@--head-dim\n"
    "  {--sparse}, {--overhead}, {--mem}, {--hw-file}, --json, --csv  as for\n"
    "                   `roofline op`\n";

typedef struct layer_json {
  int32_t n;
  const char (*labels)[RL_LABEL_MAX];
  const rl_result *r;
  const rl_roof *roofs;
  const char *hw, *dtype;
} layer_json;

static size_t json_fn(void *p, char *buf, size_t cap) {
  layer_json *a = p;
  size_t len = 0;
  /* an array of op records, written piecewise into (buf, cap) */
  for (int32_t i = 0; i <= a->n; i++) {
    const char *sep = i == 0 ? "[" : (i == a->n ? "]" : ",");
    size_t l = strlen(sep);
    if (len + l < cap) memcpy(buf + len, sep, l + 1);
    len += l;
    if (i == a->n) break;
    size_t room = len < cap ? cap - len : 0;
    len += rl_result_json(a->labels[i], a->hw, a->dtype, &a->roofs[i], &a->r[i], NULL,
                          room ? buf + len : NULL, room);
  }
  return len;
}

/* ---- parse ------------------------------------------------------------------ */
typedef struct layer_opts {
  rl_layer_shape sh;
  cli_hw_flags hwf;
} layer_opts;

static int parse(cli_ctx *ctx, int argc, char **argv, layer_opts *o) {
  o->sh = rl_layer_default();
  rl_layer_shape *sh = &o->sh;
  const char *batches = NULL;
  cli_hw_flags_init(&o->hwf);
  cli_opt opts[] = {{"dtype", OPT_DTYPE, &sh->dtype, 0}, {"rows", OPT_COUNT, &sh->rows, 0},
                    {"d", OPT_COUNT, &sh->d, 0},         {"batches", OPT_STR, &batches, 0},
                    {"seq", OPT_COUNT, &sh->seq, 0},     {"head-dim", OPT_COUNT, &sh->head_dim, 0},
                    CLI_HW_OPTS(o->hwf),                 {NULL, 0, NULL, 0}};
  int rc = cli_parse(ctx, argc, argv, opts, NULL, 0, NULL);
  if (rc) return rc;
  if (batches && (rc = cli_parse_batches(ctx, batches, sh->batches))) return rc;
  return CLI_OK;
}

/* ---- compute: the layer's ops, each on its roof of the resolved device ----- */
typedef struct layer_out {
  rl_hw hw;
  int32_t n;
  char labels[RL_LAYER_OPS][RL_LABEL_MAX];
  rl_roof roofs[RL_LAYER_OPS];
  rl_result res[RL_LAYER_OPS];
} layer_out;

static int compute(cli_ctx *ctx, const layer_opts *o, layer_out *out) {
  rl_op ops[RL_LAYER_OPS];
  out->n = 0;
  rl_error e;
  rl_status st = rl_layer_ops(&o->sh, ops, out->labels, RL_LAYER_OPS, &out->n, &e);
  if (st) return cli_fail(ctx, st, &e);
  int rc = cli_resolve_hw(ctx, &o->hwf, 1, &out->hw);
  if (rc) return rc;
  for (int32_t i = 0; i < out->n; i++) {
    rl_cost c;
    st = rl_op_cost(&ops[i], &c, &e);
    if (st) return cli_fail(ctx, st, &e);
    if ((rc = cli_roof(ctx, &o->hwf, &out->hw, o->sh.dtype, c.tensor, &out->roofs[i]))) return rc;
    st = rl_roofline(c.flops, c.bytes, &out->roofs[i], 0, &out->res[i], &e);
    if (st) return cli_fail(ctx, st, &e);
  }
  return CLI_OK;
}

/* ---- print ------------------------------------------------------------------ */
static void print_text(cli_ctx *ctx, const layer_opts *o, const layer_out *out) {
  const rl_layer_shape *sh = &o->sh;
  const rl_hw *hw = &out->hw;
  const char *dt = rl_dtype_name(sh->dtype);
  fprintf(ctx->out, "One Transformer layer on %s (%s), %s: activation %.0f x %.0f, "
          "attention T=%.0f d_k=%.0f\n\n", hw->id, hw->name, dt, sh->rows, sh->d, sh->seq, sh->head_dim);
  const char *hdr[] = {"op", "FLOPs", "bytes", "FLOP/B", "bound", "time >=", "attainable", "peak used"};
  cli_table *t = cli_table_new(8, hdr);
  cli_table_optional(t, 1, 1); /* a narrow terminal: F and Q give way (their ratio stays) */
  cli_table_optional(t, 2, 2);
  for (int32_t i = 0; i < out->n; i++) {
    const rl_result *r = &out->res[i];
    char c[8][48];
    cli_q(c[1], 48, r->flops, RL_UNIT_FLOP);
    cli_q(c[2], 48, r->bytes, RL_UNIT_BYTES);
    cli_q(c[3], 48, r->intensity, RL_UNIT_FLOP_PER_BYTE);
    snprintf(c[4], 48, "%s", rl_bound_name(r->bound));
    cli_q(c[5], 48, r->time_s, RL_UNIT_SECONDS);
    cli_q(c[6], 48, r->attainable, RL_UNIT_FLOP_S);
    snprintf(c[7], 48, "%s%s", out->roofs[i].peak_kind < 0 ? "--peak" : rl_peak_name(out->roofs[i].peak_kind),
             out->roofs[i].sparse ? " sparse" : "");
    const char *cells[8] = {out->labels[i], c[1], c[2], c[3], c[4], c[5], c[6], c[7]};
    cli_table_row(t, cells);
  }
  cli_table_print(ctx, t);
  cli_table_free(t);
  char b1[48], b2[48];
  int32_t tk = rl_hw_peak_for(hw, sh->dtype, 1);
  if (tk >= 0 && o->hwf.peak <= 0)
    fprintf(ctx->out, "\nridge point: %s tensor %s / %s = %s\n", dt,
            cli_q(b1, sizeof b1, hw->peak[tk], RL_UNIT_FLOP_S),
            cli_q(b2, sizeof b2, hw->mem_bw, RL_UNIT_BYTES_S),
            CLI_Q(hw->peak[tk] / hw->mem_bw, RL_UNIT_FLOP_PER_BYTE));
}

/* parse -> compute (resolving the device) -> print */
static int run(cli_ctx *ctx, int argc, char **argv) {
  layer_opts o;
  int rc = parse(ctx, argc, argv, &o);
  if (rc) return rc;
  layer_out *out = malloc(sizeof *out);
  if (!out) return cli_error(ctx, "out of memory");
  if ((rc = compute(ctx, &o, out))) {
    free(out);
    return rc;
  }
  const char *dt = rl_dtype_name(o.sh.dtype);
  if (ctx->json) {
    layer_json a = {out->n, (const char (*)[RL_LABEL_MAX])out->labels, out->res, out->roofs, out->hw.id, dt};
    rc = cli_print_json(ctx, json_fn, &a);
  } else if (ctx->csv) {
    cli_result_csv_header(ctx);
    for (int32_t i = 0; i < out->n; i++) cli_result_csv_row(ctx, out->labels[i], out->hw.id, dt, &out->res[i]);
  } else {
    print_text(ctx, &o, out);
  }
  free(out);
  return rc;
}

const cli_command cmd_layer = {"layer", run, "the roofline view of one Transformer layer (add, softmax, LayerNorm, linear, attention)", help, 0};
