/*
 * plot_internal.h -- what the chart renderers share (prefix rli_plot_):
 * the axis ranges, text escaping and measuring, the roofs' geometry.
 */
#ifndef RL_PLOT_INTERNAL_H
#define RL_PLOT_INTERNAL_H

/* The most points a points file may hold (docs/reliability.md): a chart
 * of them is laid out in O(n). */
#define RLI_PLOT_MAX_POINTS 100000

#include "core/internal.h"

/* Axis ranges in log10 units: x intensity (FLOP/B), y throughput
 * (FLOP/s). Chosen to show every ridge point with room on both sides,
 * every point, and the top roof with a little headroom. */
typedef struct rli_axes {
  double x0, x1, y0, y1;
} rli_axes;

void rli_plot_axes(const rl_plot *p, rli_axes *a);

/* One element (index i, for messages) of a points file; see
 * rl_plot_points_parse. */
struct rli_json;
rl_status rli_plot_point_from_json(const struct rli_json *o, size_t i, const rl_plot_roof *roof,
                                   int32_t roof_index, rl_plot_point *pt, rl_error *err);

/* Is the point drawable (finite, positive intensity and perf)? */
int rli_plot_point_ok(const rl_plot_point *pt);

/* The attainable throughput of roof r at intensity I (its top roof). */
double rli_plot_roof_at(const rl_plot_roof *r, double intensity);

/* Write s with XML escaping (& < > " '), dropping control characters and
 * replacing invalid UTF-8 by '?'. */
void rli_out_xml(rli_out *o, const char *s);

/* Copy s into dst (cap bytes) keeping only printable text: control
 * characters dropped, invalid UTF-8 replaced by '?', and with `ascii`
 * every non-ASCII character by '?'. */
void rli_plot_clean(const char *s, char *dst, size_t cap, int ascii);

/* Number of characters (UTF-8 code points) of s. */
size_t rli_utf8_len(const char *s);

/* A quantity as rl_format_quantity prints it, into a caller buffer. */
const char *rli_plot_q(char *buf, size_t cap, double v, rl_unit u);

#endif
