/*
 * cmd_widget.c -- `roofline widget`: write the interactive roofline page,
 * one self-contained HTML file (the library runs in it as WebAssembly).
 */
#include "cli.h"
#include "plot_common.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
    "usage: roofline widget [-o FILE.html] [--hw ID[,ID]] [--dtype DT] [--n N] [--batch B]\n"
    "                       [--seq T] [--d D] [--sparse] [--points FILE] [--title TEXT]\n"
    "\n"
    "Write the interactive roofline page: one self-contained HTML file that works\n"
    "from file:// with no network. It draws the roofline of a device in a number\n"
    "format and places the operations of one Transformer layer on it (an add, a\n"
    "softmax and a LayerNorm on a T x d activation, a linear layer d x d on B tokens,\n"
    "a square matmul n x n x n, one attention head naive and fused). Its controls\n"
    "change the hardware (and a second one to compare), the format, n, B, T and d;\n"
    "hovering a point shows its FLOPs, bytes, intensity, bound and time. The page\n"
    "computes with this library compiled to WebAssembly, so every figure is the one\n"
    "`roofline op --json` prints for the same case.\n"
    "\n"
    "flags (the page's initial state; powers of two on the sliders):\n"
    "@--output\n"
    "@--hw\n"
    "@--dtype\n"
    "@--n\n"
    "@--seq\n"
    "@--sparse\n"
    "@--points\n"
    "@--title\n"
    "\n"
    "example:\n"
    "  roofline widget -o roofline.html --hw h100,a100-sxm4-80gb\n";

/* ---- parse ------------------------------------------------------------------ */
typedef struct widget_opts {
  const char *out_path, *hw, *points, *title;
  int32_t dtype;
  double n, batch, seq, d;
  int sparse;
} widget_opts;

static int parse(cli_ctx *ctx, int argc, char **argv, widget_opts *o) {
  *o = (widget_opts){NULL, NULL, NULL, NULL, RL_BF16, 4096, 512, 4096, 4096, 0};
  cli_opt opts[] = {{"output", OPT_STR, &o->out_path, 0}, {"hw", OPT_STR, &o->hw, 0},
                    {"dtype", OPT_DTYPE, &o->dtype, 0},   {"n", OPT_COUNT, &o->n, 0},
                    {"batch", OPT_COUNT, &o->batch, 0},   {"seq", OPT_COUNT, &o->seq, 0},
                    {"d", OPT_COUNT, &o->d, 0},           {"sparse", OPT_FLAG, &o->sparse, 0},
                    {"points", OPT_STR, &o->points, 0},   {"title", OPT_STR, &o->title, 0},
                    {NULL, 0, NULL, 0}};
  char **args = plot_short_output(argc, argv);
  if (!args) return cli_error(ctx, "out of memory");
  int rc = cli_parse(ctx, argc, args, opts, NULL, 0, NULL);
  free(args);
  if (rc) return rc;
  if (ctx->json || ctx->csv) return cli_error(ctx, "widget writes an HTML page; --json and --csv do not apply");
  if (!o->out_path && isatty(fileno(ctx->out)))
    return cli_error(ctx, "not writing HTML to a terminal: give -o roofline.html (-o - for standard output)");
  if (ctx->n_extra) return cli_error(ctx, "--hw-file: the page knows only the built-in devices");
  const double vals[] = {o->n, o->batch, o->seq, o->d};
  const char *names[] = {"--n", "--batch", "--seq", "--d"};
  for (int i = 0; i < 4; i++)
    if (!(vals[i] >= 1 && vals[i] <= 1e7)) return cli_error(ctx, "%s must be from 1 to 1e7", names[i]);
  return CLI_OK;
}

/* ---- resolve: the --points file (checked), the devices' ids; the page's
 * initial state as JSON (malloc'd) ------------------------------------------ */
static int resolve(cli_ctx *ctx, const widget_opts *o, char **cfg_out) {
  char *pts_text = NULL;
  size_t pts_len = 0;
  int rc;
  if (o->points) {
    if ((rc = cli_read_file(ctx, o->points, (size_t)16 << 20, &pts_text, &pts_len))) return rc;
    rl_plot_point *pp = NULL;
    int32_t np = 0;
    rl_error e;
    rl_status st = rl_plot_points_parse(pts_text, pts_len, NULL, 0, &pp, &np, &e);
    rl_free(pp);
    /* without a roof, points need their own; the page supplies the device's */
    if (st && !strstr(e.msg, "no roof")) {
      free(pts_text);
      return cli_error(ctx, "%s: %s", o->points, e.msg);
    }
  }
  size_t cap = 1024 + (o->title ? 6 * strlen(o->title) : 0) + (o->hw ? 6 * strlen(o->hw) : 0) + pts_len;
  char *cfg = malloc(cap);
  if (!cfg) {
    free(pts_text);
    return cli_error(ctx, "out of memory");
  }
  size_t len = 0;
  len += (size_t)snprintf(cfg + len, cap - len, "{\"hw\":[");
  char hwl[512], *hws[16];
  int nhw = cli_split_list(ctx, "--hw", o->hw ? o->hw : RL_DEFAULT_HW, hwl, sizeof hwl, hws, 16);
  for (int k = 0; k < (nhw < 0 ? 1 : nhw); k++) {
    rl_hw dev;
    rl_error e;
    if (nhw < 0 || k == 2 || rl_hw_find(hws[k], NULL, 0, &dev, &e) != RL_OK) {
      free(pts_text);
      free(cfg);
      return nhw < 0 ? CLI_USAGE
             : k == 2 ? cli_error(ctx, "--hw: at most two devices (one and one to compare)")
                      : cli_error(ctx, "--hw: %s", e.msg);
    }
    len += (size_t)snprintf(cfg + len, cap - len, "%s", k ? "," : "");
    len += rl_json_string(dev.id, cfg + len, cap - len);
  }
  len += (size_t)snprintf(cfg + len, cap - len, "],\"dtype\":\"%s\",\"n\":%.17g,\"batch\":%.17g,"
                          "\"seq\":%.17g,\"d\":%.17g,\"sparse\":%s", rl_dtype_name(o->dtype), o->n, o->batch,
                          o->seq, o->d, o->sparse ? "true" : "false");
  if (o->title) {
    len += (size_t)snprintf(cfg + len, cap - len, ",\"title\":");
    len += rl_json_string(o->title, cfg + len, cap - len);
  }
  if (pts_text) {
    len += (size_t)snprintf(cfg + len, cap - len, ",\"points\":");
    memcpy(cfg + len, pts_text, pts_len);
    len += pts_len;
  }
  snprintf(cfg + len, cap - len, "}");
  free(pts_text);
  *cfg_out = cfg;
  return CLI_OK;
}

/* ---- compute: the page's model run once here (a bad state is an error
 * now), then the page ------------------------------------------------------- */
static int compute(cli_ctx *ctx, const char *cfg, char **page, size_t *len) {
  rl_error e;
  char *model = rl_widget_model(cfg, strlen(cfg), &e);
  if (!model) return cli_error(ctx, "%s", CLI_SPELL(e.msg));
  rl_free(model);
  size_t need = rl_widget_page(cfg, NULL, 0);
  *page = malloc(need + 1);
  if (!*page) return cli_error(ctx, "out of memory");
  rl_widget_page(cfg, *page, need + 1);
  *len = need;
  return CLI_OK;
}

/* parse -> resolve -> compute -> print (the page to -o or standard output) */
static int run(cli_ctx *ctx, int argc, char **argv) {
  widget_opts o;
  int rc = parse(ctx, argc, argv, &o);
  if (rc) return rc;
  char *cfg = NULL, *page = NULL;
  size_t len = 0;
  if ((rc = resolve(ctx, &o, &cfg))) return rc;
  rc = compute(ctx, cfg, &page, &len);
  free(cfg);
  if (!rc) rc = plot_write(ctx, "-o", o.out_path, page, len);
  free(page);
  return rc;
}

const cli_command cmd_widget = {"widget", run,
                                "the interactive roofline page (HTML + WebAssembly): -o roofline.html", help, 0};
