/*
 * cmd_plot.c -- `roofline plot`: the roofline chart as SVG (-o FILE, or
 * on stdout) or in the terminal (--term), with one roof per device and
 * format, and points from the Transformer-layer preset, from ops on the
 * command line or from a points file (--points: `roofline layer --json`,
 * `roofline measure --json`, `roofline trace --json`).
 */
#include "cli.h"
#include "plot_common.h"
#include "charts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
    "usage: roofline plot [-o FILE.svg | --term [--ascii] [--color]] [--hw ID,...]\n"
    "                     [--dtype DT,...] [OP...] [--points FILE] [--preset layer|none]\n"
    "\n"
    "Draw the roofline (Williams, Waterman & Patterson 2009): log-log axes, one roof\n"
    "per device and format (slanted: memory bandwidth; flat: the dense tensor peak;\n"
    "the ridge point marked with its intensity), the lower ceilings of the vector\n"
    "units (dashed) and the L2 roof where the database knows one (dotted), and the\n"
    "operations as points in their roof's colour. A point that is not measured sits\n"
    "on its own roof (hollow): the roofline bound. A measured point (filled) sits at\n"
    "its achieved FLOP/s, with a dashed line up to its roof and its percentage.\n"
    "\n"
    "Points: the Transformer layer of `roofline layer` (the default when no other\n"
    "points are given), OPs on the command line, and --points FILE, a JSON array of\n"
    "objects with at least op (or name), flops and bytes. A point is measured when\n"
    "it has measured_s, achieved (FLOP/s), or a time_s without compute_time_s (a\n"
    "trace row); otherwise it is placed at its bound. Optional: marker (circle,\n"
    "square, triangle, diamond) and group (a number: the group's points joined by\n"
    "a line, the first labelled). The output of `roofline layer\n"
    "--json`, `roofline op --json`, `roofline measure --json` and `roofline trace\n"
    "--json` works as is. Modelled points use the first --hw and their format.\n"
    "\n"
    "OP: KIND[:key=value,...], keys as the flags of `roofline op` plus time= and\n"
    "label=, e.g.  matmul:m=4096,n=4096,k=4096   layernorm:rows=4096,cols=4096,time=22.4us\n"
    "     linear:tokens=1,d-in=4096,d-out=4096   \"kernel:flops=17.2GFLOP,bytes=100MB,time=25us,label=my gemm\"\n"
    "\n"
    "flags:\n"
    "@--output\n"
    "@--term\n"
    "@--hw\n"
    "@--dtype\n"
    "@--sparse\n"
    "@--points\n"
    "@--preset\n"
    "  {--rows!}, {--d!}, {--batches!}, {--seq!}, {--head-dim!}   the layer's shape (as `roofline layer`)\n"
    "@--title\n"
    "  {--width}, {--height}   SVG pixels (960 x 620; 320..8000 x 240..8000) or\n"
    "                   terminal cells (the terminal; 60..400 x 16..200)\n"
    "  {--overhead}, {--mem}  as for `roofline op`\n"
    "@--hw-file\n"
    "\n"
    "examples:\n"
    "  roofline plot -o chart.svg --hw h100,a100-80gb,h200 --dtype bf16,fp8\n"
    "  roofline layer --json > layer.json && roofline plot --points layer.json --term\n";

/* ---- parse: the flags, checked; the op specs stay positional ------------- */
typedef struct plot_opts {
  plot_args a;         /* devices, formats, points, the layer preset */
  cli_opt opts[48];    /* the flags as parsed (plot_build reads which were given) */
  const char *pos[64]; /* OP specs */
  int npos;
  const char *out_path;
  int term, ascii, color;
  double width, height;
} plot_opts;

static int parse(cli_ctx *ctx, int argc, char **argv, plot_opts *o) {
  memset(o, 0, sizeof *o);
  plot_args_init(&o->a);
  const cli_opt table[] = {{"output", OPT_STR, &o->out_path, 0},
                           {"term", OPT_FLAG, &o->term, 0},
                           {"ascii", OPT_FLAG, &o->ascii, 0},
                           {"color", OPT_FLAG, &o->color, 0},
                           {"width", OPT_COUNT_POS, &o->width, 0},
                           {"height", OPT_COUNT_POS, &o->height, 0},
                           PLOT_COMMON_OPTS(o->a),
                           CLI_HW_OPTS(o->a.hwf),
                           {NULL, 0, NULL, 0}};
  _Static_assert(sizeof table <= sizeof o->opts, "plot_opts.opts holds the flag table");
  memcpy(o->opts, table, sizeof table);
  char **args = plot_short_output(argc, argv);
  if (!args) return cli_error(ctx, "out of memory");
  int rc = cli_parse(ctx, argc, args, o->opts, o->pos, 64, &o->npos);
  free(args);
  if (rc) return rc;
  if (ctx->json || ctx->csv)
    return cli_error(ctx, "plot draws a chart; for figures use `roofline layer --json` or `roofline op --json`");
  if ((o->ascii || o->color) && !o->term) return cli_error(ctx, "--ascii and --color go with --term");
  if (o->term && o->out_path) return cli_error(ctx, "give -o FILE (SVG) or --term, not both");
  if ((rc = plot_svg_path(ctx, "-o", o->out_path))) return rc;
  if (!o->term && !o->out_path && isatty(fileno(ctx->out)))
    return cli_error(ctx, "not writing SVG to a terminal: give -o chart.svg (-o - for standard output) or --term");
  /* the sizes the renderers draw (rl_plot_term, rl_plot_svg clamp to
   * these): outside them an error, not a silent clamp */
  int term = o->term;
  double wlo = term ? 60 : 320, whi = term ? 400 : 8000, hlo = term ? 16 : 240, hhi = term ? 200 : 8000;
  const char *unit = term ? "terminal cells" : "SVG pixels";
  double width = o->width, height = o->height;
  if (cli_seen(o->opts, "width") && (width < wlo || width > whi || width != floor(width)))
    return cli_error(ctx, "--width %g: must be a whole number from %g to %g (%s)", width, wlo, whi, unit);
  if (cli_seen(o->opts, "height") && (height < hlo || height > hhi || height != floor(height)))
    return cli_error(ctx, "--height %g: must be a whole number from %g to %g (%s)", height, hlo, hhi, unit);
  return CLI_OK;
}

/* ---- compute: the roofs and points (plot_build resolves the devices and
 * costs the ops), then the chart as SVG or terminal text ------------------ */
static int compute(cli_ctx *ctx, plot_opts *o, char **text, size_t *len) {
  plot_data d;
  int rc = plot_build(ctx, &o->a, o->opts, o->pos, o->npos, &d);
  if (rc) return rc;
  rl_plot p = plot_data_chart(&d, (int32_t)o->width, (int32_t)o->height);
  int color = o->color;
  if (o->term) {
    int cols = 0, rows = 0;
    chart_term_size(ctx->out, &cols, &rows);
    if (!(o->width > 0)) p.width = cols;
    if (!(o->height > 0)) p.height = rows;
    color = chart_term_color(ctx->out, color);
  }
  p.flags = (o->ascii ? RL_PLOT_ASCII : 0u) | (color ? RL_PLOT_COLOR : 0u);
  size_t need = o->term ? rl_plot_term(&p, NULL, 0) : rl_plot_svg(&p, NULL, 0);
  *text = malloc(need + 1);
  if (*text) {
    if (o->term) {
      rl_plot_term(&p, *text, need + 1);
      chart_term_spell(*text);
    }
    else rl_plot_svg(&p, *text, need + 1);
    *len = need;
  }
  plot_data_free(&d);
  return *text ? CLI_OK : cli_error(ctx, "out of memory");
}

/* parse -> compute -> print (the chart to -o or standard output) */
static int run(cli_ctx *ctx, int argc, char **argv) {
  plot_opts *o = malloc(sizeof *o);
  if (!o) return cli_error(ctx, "out of memory");
  char *text = NULL;
  size_t len = 0;
  int rc = parse(ctx, argc, argv, o);
  if (!rc) rc = compute(ctx, o, &text, &len);
  if (!rc) rc = plot_write(ctx, "-o", o->out_path, text, len);
  free(text);
  free(o);
  return rc;
}

const cli_command cmd_plot = {"plot", run, "the roofline chart: SVG (-o chart.svg) or in the terminal (--term)",
                              help, 0};
