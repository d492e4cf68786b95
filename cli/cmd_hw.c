/*
 * cmd_hw.c -- `roofline hw list` and `roofline hw show ID`: the hardware
 * database, every figure with its unit and source, and the ridge points.
 */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: roofline hw list [--hw-file PATH] [--json|--csv]\n"
    "       roofline hw show ID [--hw-file PATH] [--json|--csv]\n"
    "\n"
    "list: every device with its dense bf16 tensor peak, FP32 vector peak, memory\n"
    "bandwidth, capacity and bf16 ridge point.\n"
    "show: every figure of one device with its unit and source, and the ridge\n"
    "point (peak / bandwidth) of each format; sparse peaks (2x, 2:4 structured\n"
    "sparsity) are listed separately and labelled. show --csv prints the device as\n"
    "a row of data/hardware.csv (header and row), which --hw-file reads back.\n"
    "\n"
    "IDs are those of data/hardware.csv (nvidia-h100-sxm5, amd-mi300x, ...); short\n"
    "aliases and unique fragments work too (h100, h200, a100-80gb, b200, mi300x,\n"
    "tpu-v5p). --hw-file adds your own devices in the same CSV format.\n";

/* A library writer's text (rl_hw_json, rl_hw_figures) onto f. */
static void put(FILE *f, size_t (*fn)(const rl_hw *, char *, size_t), const rl_hw *h) {
  char buf[4096];
  size_t need = fn(h, buf, sizeof buf);
  char *big = need < sizeof buf ? NULL : malloc(need + 1);
  if (big) fn(h, big, need + 1);
  fputs(big ? big : buf, f);
  free(big);
}

/* ---- resolve: the devices, --hw-file's first ---------------------------- */
static int all_devices(cli_ctx *ctx, rl_hw **out, int32_t *n) {
  int32_t nb = rl_hw_count();
  rl_hw *v = calloc((size_t)(nb + ctx->n_extra), sizeof *v);
  if (!v) return cli_error(ctx, "out of memory");
  for (int32_t i = 0; i < ctx->n_extra; i++) v[i] = ctx->extra[i];
  for (int32_t i = 0; i < nb; i++) rl_hw_get(i, &v[ctx->n_extra + i]);
  *out = v;
  *n = nb + ctx->n_extra;
  return CLI_OK;
}

/* ---- print ---------------------------------------------------------------- */
/* The devices' records as one JSON text (an array for `hw list`),
 * snprintf-style for cli_print_json. */
typedef struct hw_json_arg {
  const rl_hw *v;
  int32_t n;
  int list;
} hw_json_arg;

static size_t hw_json_fn(void *arg, char *buf, size_t cap) {
  const hw_json_arg *a = arg;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return 0;
  if (a->list) fputc('[', f);
  for (int32_t i = 0; i < a->n; i++) {
    if (i) fputc(',', f);
    put(f, rl_hw_json, &a->v[i]);
  }
  if (a->list) fputc(']', f);
  fclose(f);
  if (cap) {
    size_t k = len < cap - 1 ? len : cap - 1;
    memcpy(buf, text, k);
    buf[k] = 0;
  }
  free(text);
  return len;
}

/* hw list --csv: base units, one device per row; an unknown figure is an
 * empty cell */
static void list_csv(cli_ctx *ctx, const rl_hw *v, int32_t n) {
  static const char *const hdr[] = {"id", "name", "peak_bf16_flop_per_s", "peak_fp32_flop_per_s",
                                    "bandwidth_bytes_per_s", "mem_bytes", "ridge_bf16_flop_per_byte"};
  cli_csv_row(ctx, hdr, 7);
  for (int32_t i = 0; i < n; i++) {
    const rl_hw *h = &v[i];
    const double x[] = {h->peak[RL_PEAK_BF16], h->peak[RL_PEAK_FP32], h->mem_bw, h->mem_bytes,
                        h->peak[RL_PEAK_BF16] > 0 ? rl_hw_ridge(h, RL_PEAK_BF16) : 0};
    char c[5][40];
    const char *row[7] = {h->id, h->name};
    for (int k = 0; k < 5; k++) row[2 + k] = x[k] > 0 ? cli_csv_num(c[k], sizeof c[k], x[k]) : "";
    cli_csv_row(ctx, row, 7);
  }
}

static void list_text(cli_ctx *ctx, const rl_hw *v, int32_t n) {
  const char *hdr[] = {"id", "name", "bf16 dense", "fp32 vector", "bandwidth", "memory", "bf16 ridge"};
  cli_table *t = cli_table_new(7, hdr);
  /* the id is what the user copies: never cut; on a narrow terminal the
   * ridge (peak / bandwidth) and then the fp32 peak give way */
  cli_table_keep(t, 0);
  cli_table_optional(t, 6, 1);
  cli_table_optional(t, 3, 2);
  for (int32_t i = 0; i < n; i++) {
    const rl_hw *h = &v[i];
    char c[7][64];
    if (h->peak[RL_PEAK_BF16] > 0) cli_q(c[2], 64, h->peak[RL_PEAK_BF16], RL_UNIT_FLOP_S);
    else snprintf(c[2], 64, "-");
    if (h->peak[RL_PEAK_FP32] > 0) cli_q(c[3], 64, h->peak[RL_PEAK_FP32], RL_UNIT_FLOP_S);
    else snprintf(c[3], 64, "-");
    cli_q(c[4], 64, h->mem_bw, RL_UNIT_BYTES_S);
    if (h->mem_bytes > 0) cli_q(c[5], 64, h->mem_bytes, RL_UNIT_BYTES);
    else snprintf(c[5], 64, "-");
    if (h->peak[RL_PEAK_BF16] > 0) cli_q(c[6], 64, rl_hw_ridge(h, RL_PEAK_BF16), RL_UNIT_FLOP_PER_BYTE);
    else snprintf(c[6], 64, "-");
    const char *cells[7] = {h->id, h->name, c[2], c[3], c[4], c[5], c[6]};
    cli_table_row(t, cells);
  }
  cli_table_print(ctx, t);
  cli_table_free(t);
}

/* hw show --csv: the device as a row of data/hardware.csv (--hw-file reads it back) */
static int show_csv(cli_ctx *ctx, const rl_hw *h) {
  size_t need = rl_hw_csv(h, 1, NULL, 0);
  char *text = malloc(need + 1);
  if (!text) return cli_error(ctx, "out of memory");
  rl_hw_csv(h, 1, text, need + 1);
  fputs(text, ctx->out);
  free(text);
  return CLI_OK;
}

static void show_text(cli_ctx *ctx, const rl_hw *hp) {
  FILE *f = ctx->out;
  const rl_hw h = *hp;
  /* only the fields a row gives: a user's row may leave vendor and form factor empty */
  fprintf(f, "%s: %s", h.id, h.name[0] ? h.name : "(no name)");
  if (h.vendor[0] || h.form_factor[0])
    fprintf(f, " (%s%s%s)", h.vendor, h.vendor[0] && h.form_factor[0] ? ", " : "", h.form_factor);
  fprintf(f, "\n");
  if (h.aliases[0]) fprintf(f, "aliases: %s\n", h.aliases);
  if (h.profiler_names[0]) fprintf(f, "profiler names: %s\n", h.profiler_names);
  fputc('\n', f);
  const char *hdr[] = {"format", "dense peak", "ridge (dense)", "2:4 sparse peak"};
  cli_table *t = cli_table_new(4, hdr);
  for (int k = 0; k < RL_PEAK_COUNT; k++) {
    if (!(h.peak[k] > 0)) continue;
    char c[4][64];
    int vec = k == RL_PEAK_FP64 || k == RL_PEAK_FP32 || k == RL_PEAK_VEC16;
    snprintf(c[0], 64, "%s%s", k == RL_PEAK_VEC16 ? "fp16/bf16" : rl_peak_name(k),
             vec ? " (vector)" : (k == RL_PEAK_FP64_TENSOR ? "" : " (tensor)"));
    cli_q(c[1], 64, h.peak[k], RL_UNIT_FLOP_S);
    cli_q(c[2], 64, rl_hw_ridge(&h, k), RL_UNIT_FLOP_PER_BYTE);
    if (h.sparsity && !vec && k != RL_PEAK_FP64_TENSOR) cli_q(c[3], 64, 2 * h.peak[k], RL_UNIT_FLOP_S);
    else snprintf(c[3], 64, "-");
    if (k == RL_PEAK_INT8) /* integer formats count operations, not FLOPs */
      for (int j = 1; j < 4; j++) {
        char *u = strstr(c[j], "FLOP");
        if (u) memmove(u, u + 2, strlen(u + 2) + 1);
      }
    const char *cells[4] = {c[0], c[1], c[2], c[3]};
    cli_table_row(t, cells);
  }
  cli_table_print(ctx, t);
  cli_table_free(t);
  fputc('\n', f);
  put(f, rl_hw_figures, &h);
  fprintf(f, "2:4 sparsity       %s\n", h.sparsity ? "yes (sparse peaks used only with --sparse)" : "no");
  fprintf(f, "source             %s\n", h.source);
}

/* ---- the two actions: resolve -> print (nothing to compute) --------------- */
static int list(cli_ctx *ctx) {
  rl_hw *v = NULL;
  int32_t n = 0;
  int rc = all_devices(ctx, &v, &n);
  if (rc) return rc;
  if (ctx->json) {
    hw_json_arg a = {v, n, 1};
    rc = cli_print_json(ctx, hw_json_fn, &a);
  } else if (ctx->csv) {
    list_csv(ctx, v, n);
  } else {
    list_text(ctx, v, n);
  }
  free(v);
  return rc;
}

static int show(cli_ctx *ctx, const char *id) {
  rl_hw h;
  rl_error e;
  rl_status st = rl_hw_find(id, ctx->extra, ctx->n_extra, &h, &e);
  if (st) return cli_fail(ctx, st, &e);
  if (ctx->json) {
    hw_json_arg a = {&h, 1, 0};
    return cli_print_json(ctx, hw_json_fn, &a);
  }
  if (ctx->csv) return show_csv(ctx, &h);
  show_text(ctx, &h);
  return CLI_OK;
}

/* ---- parse: the action and its id ------------------------------------------ */
static int run(cli_ctx *ctx, int argc, char **argv) {
  const char *pos[2];
  int np = 0;
  cli_opt opts[] = {{NULL, 0, NULL, 0}};
  int rc = cli_parse(ctx, argc, argv, opts, pos, 2, &np);
  if (rc) return rc;
  if (np == 0) return cli_error(ctx, "hw list | hw show ID");
  if (strcmp(pos[0], "list") == 0) {
    ctx->cmd = "hw list";
    if (np > 1) return cli_error(ctx, "hw list takes no argument");
    return list(ctx);
  }
  if (strcmp(pos[0], "show") == 0) {
    ctx->cmd = "hw show";
    if (np < 2) return cli_error(ctx, "hw show needs an ID (see roofline hw list)");
    return show(ctx, pos[1]);
  }
  return cli_error(ctx, "unknown hw action '%s' (list, show)", pos[0]);
}

const cli_command cmd_hw = {"hw", run, "the hardware database: list, show ID", help, 0};
