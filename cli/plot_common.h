/*
 * plot_common.h -- what `roofline plot` and `roofline widget` share: the
 * roofs from --hw and --dtype lists, the points from the layer preset, ops
 * on the command line and --points files, and writing the output file.
 */
#ifndef RL_CLI_PLOT_COMMON_H
#define RL_CLI_PLOT_COMMON_H

#include "cli.h"

typedef struct plot_args {
  cli_hw_flags hwf;
  const char *dtypes;      /* --dtype bf16,fp8 */
  const char *points_path; /* --points FILE */
  const char *preset;      /* --preset layer|none */
  const char *title;       /* --title */
  const char *batches;     /* --batches 1,128,512 */
  rl_layer_shape sh;       /* the layer preset's shape */
} plot_args;

#define PLOT_COMMON_OPTS(a)                                                     \
  {"dtype", OPT_STR, &(a).dtypes, 0}, {"points", OPT_STR, &(a).points_path, 0}, \
      {"preset", OPT_STR, &(a).preset, 0}, {"title", OPT_STR, &(a).title, 0},   \
      {"rows", OPT_COUNT, &(a).sh.rows, 0}, {"d", OPT_COUNT, &(a).sh.d, 0},     \
      {"batches", OPT_STR, &(a).batches, 0}, {"seq", OPT_COUNT, &(a).sh.seq, 0}, \
      {"head-dim", OPT_COUNT, &(a).sh.head_dim, 0}

void plot_args_init(plot_args *a);

typedef struct plot_data {
  rl_plot_roof *roofs;
  int32_t n_roofs;
  rl_plot_point *points;
  int32_t n_points;
  char title[256];
  char subtitle[512];
  rl_hw hw0;          /* the first device */
  int32_t dtype0;     /* the first format */
  char hw_ids[16][RL_HW_ID_MAX]; /* resolved ids, in order */
  int32_t n_hw;
  int32_t dtypes[8];
  int32_t n_dtypes;
  int32_t roof_hw[128];    /* per roof: index of its device */
  int32_t roof_dtype[128]; /* per roof: its format */
  char missing[256];  /* device/format pairs without a peak (left out) */
} plot_data;

/* Resolve the roofs and build the points (preset only when `use_preset`
 * and neither ops nor --points are given, or --preset layer). */
int plot_build(cli_ctx *ctx, plot_args *a, const cli_opt *opts, const char *const *pos,
               int npos, plot_data *d);
/* Only the roofs (devices x formats): for the widget. */
int plot_roofs(cli_ctx *ctx, plot_args *a, plot_data *d);
void plot_data_free(plot_data *d);
/* The chart of d (its title, roofs and points, borrowed from d) at
 * width x height (0: the renderer's default), no flags. */
rl_plot plot_data_chart(const plot_data *d, int32_t width, int32_t height);

/* A copy of argv with "-o" turned into "--output" (free() it). */
char **plot_short_output(int argc, char **argv);

/* Write text to path, given as flag FLAG (or stdout when NULL or "-") through
 * cli_write_file (outfile.h): a file that cannot be written is one error
 * line and exit status 2, and nothing but this run's temporary file is
 * ever removed. */
int plot_write(cli_ctx *ctx, const char *flag, const char *path, const char *text, size_t len);

/* The charts are SVG: a path named as a raster or print image (.png, .jpg,
 * .jpeg, .gif, .webp, .bmp, .tif, .tiff, .pdf; any case) is refused before
 * anything is computed, naming .svg. CLI_OK otherwise (NULL and "-" too). */
int plot_svg_path(cli_ctx *ctx, const char *flag, const char *path);

#endif
