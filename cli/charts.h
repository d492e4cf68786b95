/*
 * charts.h -- the charts of `roofline trace --plot` and `roofline measure
 * --plot/--term`: their roofs, points and titles, built from the analysed
 * trace rows or the measurement, ready for rl_plot_svg / rl_plot_term.
 */
#ifndef RL_CLI_CHARTS_H
#define RL_CLI_CHARTS_H

#include "roofline.h"

#include <stdio.h>

#define CHART_ROOFS 8
#define CHART_POINTS 64

typedef struct chart_data {
  rl_plot_roof roofs[CHART_ROOFS];
  int32_t n_roofs;
  rl_plot_point points[CHART_POINTS];
  int32_t n_points;
  /* chart_trace, chart_trace_colls: the row (index into rows) or, as
   * -1 - i, the collective (index into co) each point was made from */
  int32_t from[CHART_POINTS];
  char title[200];
  char subtitle[400];
  uint32_t flags;
} chart_data;

/* The plot description of c (pointers into c). */
rl_plot chart_plot(const chart_data *c);

/* The top `top` (at most CHART_POINTS) kernels with F, Q and a time, at
 * their achieved FLOP/s, marker area by time, under the roofs of the
 * formats they use (the tensor peak of each format, its vector peaks as
 * ceilings). Collectives (chart_trace_colls adds them) and copies,
 * measured against a link rather than the chip's roof, are left out. Nsight Compute launches with the level
 * counters get the hierarchical chart instead: each launch at its L1, L2
 * and DRAM intensities (one group, the binding level first), one roof per
 * level. `source` names the trace in the subtitle. 0, or -1 when no
 * kernel can be placed. */
int chart_trace(const rl_hw *hw, const rl_trace_row *rows, int32_t n, int32_t top, const char *source,
                chart_data *c);

/* Adds to c (after chart_trace, or to an empty c) the collectives that do
 * arithmetic, on the device's link: one roof whose slanted part is one
 * direction of the interconnect, and a point per collective (kind, size,
 * group) of the `top` longest: F = the reduction's adds on one rank
 * ((n-1)/n x S/e for a ring all-reduce or reduce-scatter, S/e for a reduce;
 * e the element size), Q = nccl-tests' bus bytes (busbw x time), so its
 * fraction of that roof is busbw / link. All-gathers, all-to-alls,
 * broadcasts and send/recv do no arithmetic: left out, and counted in
 * *skipped. 0 when a collective was placed, else -1. */
/* `roofline trace --plot`'s chart, also the page's (web/wasm_entry.c): the
 * top kernels (chart_trace) and up to 4 reducing collectives
 * (chart_trace_colls) of an analysed trace. 0, or -1 when nothing can be
 * placed. */
int chart_trace_all(const rl_hw *hw, const rl_trace *t, const rl_trace_row *rows, int32_t n, int32_t top,
                    const char *source, chart_data *c);

int chart_trace_colls(const rl_hw *hw, const rl_trace_coll *co, int32_t n, int32_t top,
                      const char *source, chart_data *c, int32_t *skipped);

/* The measured roofline: one slanted roof per memory level, the highest
 * measured peak as the flat roof and the others as ceilings, each labelled
 * once; the gemm and add points by size with their fraction of roof.
 * -1 when there is nothing to draw (no peak or no bandwidth). */
int chart_measure(const rl_measurement *m, chart_data *c);

/* The terminal's size for --term: COLUMNS and LINES when set, else the
 * window of `out` when it is a terminal (TIOCGWINSZ); 0 when unknown. One
 * row is left for the shell's prompt. */
void chart_term_size(FILE *out, int *cols, int *rows);

/* Colour for --term: on a terminal (or when forced), never with NO_COLOR
 * set to a non-empty value (no-color.org). */
int chart_term_color(FILE *out, int force);
/* rl_plot_term's text with the parameter it names in backquotes
 * (`height`) spelled as this command's flag (--height), in place. */
void chart_term_spell(char *text);

#endif
