/*
 * plot.c -- the data side of the roofline charts: roofs from the hardware
 * database, points from results and from points files, the axis ranges
 * and the text helpers both renderers (svg.c, term.c) share.
 *
 * The chart is the one of Williams, Waterman & Patterson (2009), Fig. 1-2:
 * log-log axes, attainable FLOP/s = min(peak, bandwidth x I), ceilings
 * below the flat roof for code that cannot use the fastest units.
 */
#include "render/plot_internal.h"
#include "core/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rl_plot rl_plot_init(void) {
  rl_plot p;
  memset(&p, 0, sizeof p);
  return p;
}

static void add_ceiling(rl_plot_roof *r, double v, const char *label) {
  if (!(v > 0) || v >= r->peak * 0.999 || r->n_ceilings >= RL_PLOT_CEILINGS) return;
  for (int32_t i = 0; i < r->n_ceilings; i++)
    if (fabs(r->ceiling[i] - v) <= 1e-6 * v) return;
  r->ceiling[r->n_ceilings] = v;
  rli_strlcpy(r->ceiling_label[r->n_ceilings], label, sizeof r->ceiling_label[0]);
  r->n_ceilings++;
}

rl_status rl_plot_roof_from_hw(const rl_hw *hw, int32_t dtype, uint32_t roof_flags,
                               rl_plot_roof *out, rl_error *err) {
  if (!hw || !out) return rli_fail(err, RL_EINVAL, "no hardware");
  const char *dn = rl_dtype_name(dtype);
  if (!dn) return rli_fail(err, RL_EINVAL, "unknown dtype %d", (int)dtype);
  int32_t pk = rl_hw_peak_for(hw, dtype, 1);
  if (pk < 0)
    return rli_fail(err, RL_EUNSUPPORTED, "%s has no %s peak", hw->id, dn);
  rl_roof roof;
  rl_status st = rl_hw_roof(hw, pk, roof_flags, &roof, err);
  if (st) return st;
  memset(out, 0, sizeof *out);
  rli_out lo;
  rli_out_init(&lo, out->label, sizeof out->label);
  rli_out_printf(&lo, "%s %s%s", hw->name[0] ? hw->name : hw->id, dn, roof.sparse ? " sparse" : "");
  rli_out_end(&lo);
  out->peak = roof.peak;
  out->bandwidth = roof.bandwidth;
  if (hw->l2_bw > hw->mem_bw) {
    out->n_levels = 1;
    out->level_bw[0] = hw->l2_bw;
    rli_strlcpy(out->level_name[0], "L2", sizeof out->level_name[0]);
  }
  add_ceiling(out, hw->peak[RL_PEAK_VEC16], "FP16/BF16 vector");
  add_ceiling(out, hw->peak[RL_PEAK_FP32], "FP32 vector");
  return RL_OK;
}

rl_plot_point rl_plot_point_from_result(const char *label, const rl_result *r, int32_t roof) {
  rl_plot_point pt;
  memset(&pt, 0, sizeof pt);
  rli_strlcpy(pt.label, label ? label : "", sizeof pt.label);
  pt.bound = -1;
  pt.roof = roof;
  if (!r) return pt;
  pt.flops = r->flops;
  pt.bytes = r->bytes;
  pt.intensity = r->intensity;
  pt.roof_perf = r->attainable;
  pt.bound = r->bound;
  if (r->has_measured) {
    pt.measured = 1;
    pt.perf = r->achieved;
    pt.time_s = r->measured_s;
  } else {
    pt.perf = r->attainable;
    pt.time_s = r->time_s;
  }
  return pt;
}

double rli_plot_roof_at(const rl_plot_roof *r, double intensity) {
  return fmin(r->peak, r->bandwidth * intensity);
}

int rli_plot_point_ok(const rl_plot_point *pt) {
  return isfinite(pt->intensity) && pt->intensity > 0 && isfinite(pt->perf) && pt->perf > 0;
}

/* ---- points files ---------------------------------------------------- */

/* A number member: 1 found (in *v), 0 absent or null, -1 wrong type. */
static int num_member(const rli_json *o, const char *key, double *v) {
  const rli_json *m = rli_json_get(o, key);
  if (!m || m->type == RLI_JSON_NULL) return 0;
  if (m->type != RLI_JSON_NUM || !isfinite(m->num)) return -1;
  *v = m->num;
  return 1;
}

/* What a point may be (docs/reliability.md): each quantity in its plausible
 * range (src/core/ranges.c): a measured time (1 ps to 1e9 s), F and Q (a
 * work: at most 1e30), an intensity (1e-9 to 1e9 FLOP/B: beyond any
 * kernel's; the chart spans 12 decades), an achieved throughput above 0 and
 * at most a peak's bound (1e21 FLOP/s), a record's own peak and bandwidth. */
static rl_status pt_range(size_t i, const char *label, const char *key, rl_qty q, double v, rl_error *err) {
  rl_error e;
  if (rl_range_check(q, v, NULL, &e) == RL_OK) return RL_OK;
  return rli_fail(err, RL_ERANGE, "points[%zu] ('%.40s'): '%s': %s", i, label, key, e.msg);
}

rl_status rli_plot_point_from_json(const rli_json *o, size_t i, const rl_plot_roof *roof,
                                 int32_t roof_index, rl_plot_point *pt, rl_error *err) {
  memset(pt, 0, sizeof *pt);
  pt->roof = roof_index;
  pt->bound = -1;
  if (o->type != RLI_JSON_OBJ)
    return rli_fail(err, RL_EPARSE, "points[%zu]: expected an object", i);
  const char *label_keys[] = {"op", "name", "kernel", "label"};
  const rli_json *lab = NULL;
  for (size_t k = 0; k < 4 && !lab; k++) {
    const rli_json *m = rli_json_get(o, label_keys[k]);
    if (m && m->type == RLI_JSON_STR) lab = m;
  }
  if (lab)
    rli_strlcpy(pt->label, lab->str, sizeof pt->label);
  else
    snprintf(pt->label, sizeof pt->label, "point %zu", i + 1);
  double flops = 0, bytes = 0, intensity = 0, v = 0;
  int hf = num_member(o, "flops", &flops), hb = num_member(o, "bytes", &bytes);
  int hi = num_member(o, "intensity", &intensity);
  if (hf < 0 || (hf && flops < 0))
    return rli_fail(err, RL_EPARSE, "points[%zu]: 'flops' must be a number >= 0", i);
  if (hb < 0 || (hb && bytes < 0))
    return rli_fail(err, RL_EPARSE, "points[%zu]: 'bytes' must be a number >= 0", i);
  if (hi < 0 || (hi && intensity < 0))
    return rli_fail(err, RL_EPARSE, "points[%zu]: 'intensity' must be a number >= 0", i);
  if (hf && !(flops <= rl_range_get(RL_QTY_WORK)->max)) TRY(pt_range(i, pt->label, "flops", RL_QTY_WORK, flops, err));
  if (hb && !(bytes <= rl_range_get(RL_QTY_WORK)->max)) TRY(pt_range(i, pt->label, "bytes", RL_QTY_WORK, bytes, err));
  if (hf && hb && bytes > 0) intensity = flops / bytes, hi = 1;
  if (hi && intensity > 0) TRY(pt_range(i, pt->label, "intensity", RL_QTY_INTENSITY, intensity, err));
  if (!hi || !(intensity > 0))
    return rli_fail(err, RL_EPARSE,
                    "points[%zu] ('%.40s'): needs 'flops' and 'bytes' > 0 (or 'intensity')", i,
                    pt->label);
  pt->flops = hf ? flops : 0;
  pt->bytes = hb ? bytes : 0;
  pt->intensity = intensity;
  /* its roof: the record's own peak and bandwidth, else the chart's */
  double peak = roof ? roof->peak : 0, bw = roof ? roof->bandwidth : 0;
  if (num_member(o, "peak", &v) == 1 && v > 0) TRY(pt_range(i, pt->label, "peak", RL_QTY_PEAK, peak = v, err));
  if (num_member(o, "bandwidth", &v) == 1 && v > 0) TRY(pt_range(i, pt->label, "bandwidth", RL_QTY_BANDWIDTH, bw = v, err));
  if (peak > 0 && bw > 0) pt->roof_perf = fmin(peak, bw * intensity);
  if (num_member(o, "roof", &v) == 1 && v > 0) pt->roof_perf = v;
  if (num_member(o, "attainable", &v) == 1 && v > 0) pt->roof_perf = v;
  /* measured? */
  double ms = 0, ach = 0, ts = 0;
  /* a value given is a value: 0 or -1 is no way to say "not measured" */
  if (num_member(o, "measured_s", &ms) == 1) {
    const rl_range *r = rl_range_get(RL_QTY_TIME);
    if (!(ms >= r->min && ms <= r->max))
      return rli_fail(err, RL_ERANGE, "points[%zu] ('%.40s'): 'measured_s' must be from %g to %g s (got %g; leave it "
                      "out for a point at its bound)", i, pt->label, r->min, r->max, ms);
  }
  if (num_member(o, "achieved", &ach) == 1 && !(ach > 0 && ach <= rl_range_get(RL_QTY_PEAK)->max))
    return rli_fail(err, RL_ERANGE, "points[%zu] ('%.40s'): 'achieved' must be > 0 and at most %g FLOP/s (got %g)",
                    i, pt->label, rl_range_get(RL_QTY_PEAK)->max, ach);
  int has_ms = num_member(o, "measured_s", &ms) == 1 && ms > 0;
  int has_ach = num_member(o, "achieved", &ach) == 1 && ach > 0;
  int has_ts = num_member(o, "time_s", &ts) == 1 && ts > 0;
  if (has_ach) {
    pt->measured = 1;
    pt->perf = ach;
    pt->time_s = has_ms ? ms : (flops > 0 ? flops / ach : 0);
  } else if (has_ms) {
    double t = ms;
    if (!(flops > 0))
      return rli_fail(err, RL_EPARSE, "points[%zu] ('%.40s'): a measured time needs 'flops' > 0",
                      i, pt->label);
    pt->measured = 1;
    pt->time_s = t;
    pt->perf = flops / t;
  } else {
    if (!(pt->roof_perf > 0))
      return rli_fail(err, RL_EPARSE,
                      "points[%zu] ('%.40s'): no measured time and no roof to place it on", i,
                      pt->label);
    pt->perf = pt->roof_perf;
    pt->time_s = has_ts ? ts : (flops > 0 ? flops / pt->perf : 0);
  }
  /* how it is drawn: "marker" (circle, square, triangle, diamond) and
   * "group" (points of one group joined by a line, e.g. one kernel at its
   * L1, L2 and DRAM intensities) */
  const rli_json *mk = rli_json_get(o, "marker");
  if (mk && mk->type == RLI_JSON_STR) {
    static const char *const shapes[] = {"circle", "square", "triangle", "diamond"};
    int32_t k = 0;
    while (k < 4 && strcmp(mk->str, shapes[k]) != 0) k++;
    if (k == 4)
      return rli_fail(err, RL_EPARSE, "points[%zu]: 'marker' must be circle, square, triangle or diamond", i);
    pt->marker = k;
  }
  double g = 0;
  int hg = num_member(o, "group", &g);
  if (hg < 0 || (hg && !(g >= 0 && g <= 1e9 && g == floor(g))))
    return rli_fail(err, RL_EPARSE, "points[%zu]: 'group' must be a whole number >= 0", i);
  pt->group = (int32_t)g;
  const rli_json *b = rli_json_get(o, "bound");
  if (b && b->type == RLI_JSON_STR) {
    for (int32_t k = 0; k < 3; k++)
      if (strcmp(b->str, rl_bound_name(k)) == 0) pt->bound = k;
  } else if (peak > 0 && bw > 0) {
    pt->bound = intensity < peak / bw ? RL_BOUND_MEMORY : RL_BOUND_COMPUTE;
  }
  return RL_OK;
}

rl_status rl_plot_points_parse(const char *text, size_t len, const rl_plot_roof *roof,
                               int32_t roof_index, rl_plot_point **out, int32_t *n,
                               rl_error *err) {
  if (!text || !out || !n) return rli_fail(err, RL_EINVAL, "no points text");
  *out = NULL;
  *n = 0;
  rli_json *root = NULL;
  /* refused while parsing, before a tree of millions of nodes is built */
  rl_error pe;
  rl_status st = rli_json_parse_capped(text, len, RLI_PLOT_MAX_POINTS, &root, &pe);
  if (st && strstr(pe.msg, "elements in one"))
    return rli_fail(err, RL_ERANGE, "points: more than %d points (at most %d)", RLI_PLOT_MAX_POINTS,
                    RLI_PLOT_MAX_POINTS);
  if (st) return rli_fail(err, st, "%s", pe.msg);
  const rli_json *arr = root;
  /* accept {"points": [...]} and {"rows": [...]} wrappers too */
  if (root->type == RLI_JSON_OBJ) {
    const rli_json *m = rli_json_get(root, "points");
    if (!m) m = rli_json_get(root, "rows");
    if (!m) m = rli_json_get(root, "kernels");
    if (m) arr = m;
  }
  if (arr->type != RLI_JSON_ARR) {
    rli_json_free(root);
    return rli_fail(err, RL_EPARSE, "points: expected a JSON array of objects");
  }
  if (arr->n > RLI_PLOT_MAX_POINTS) {
    size_t count = arr->n; /* arr lives in root */
    rli_json_free(root);
    return rli_fail(err, RL_ERANGE, "points: %zu points is too many (at most %d)", count, RLI_PLOT_MAX_POINTS);
  }
  rl_plot_point *pts = calloc(arr->n ? arr->n : 1, sizeof *pts);
  if (!pts) {
    rli_json_free(root);
    return rli_fail(err, RL_ENOMEM, "out of memory");
  }
  for (size_t i = 0; i < arr->n; i++) {
    st = rli_plot_point_from_json(&arr->kids[i], i, roof, roof_index, &pts[i], err);
    if (st) {
      free(pts);
      rli_json_free(root);
      return st;
    }
  }
  *n = (int32_t)arr->n;
  *out = pts;
  rli_json_free(root);
  return RL_OK;
}

/* ---- axes ------------------------------------------------------------ */

/* The axes span the data plus a margin: every point, every ridge with
 * its slanted roof over at least two decades below it, room right of the
 * rightmost ridge for the flat roofs' labels, and the top roof. */
void rli_plot_axes(const rl_plot *p, rli_axes *a) {
  double xmin = HUGE_VAL, xmax = -HUGE_VAL, ymin = HUGE_VAL, ymax = -HUGE_VAL;
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!(r->peak > 0 && r->bandwidth > 0)) continue;
    double ridge = r->peak / r->bandwidth;
    xmin = fmin(xmin, ridge / 100);
    xmax = fmax(xmax, ridge * 10);
    ymin = fmin(ymin, r->peak / 100);
    ymax = fmax(ymax, r->peak);
    for (int32_t c = 0; c < r->n_ceilings && c < RL_PLOT_CEILINGS; c++)
      if (r->ceiling[c] > 0) ymin = fmin(ymin, r->ceiling[c] / 3);
  }
  for (int32_t i = 0; i < p->n_points; i++) {
    const rl_plot_point *pt = &p->points[i];
    if (!rli_plot_point_ok(pt)) continue;
    xmin = fmin(xmin, pt->intensity / 1.8);
    xmax = fmax(xmax, pt->intensity * 1.8);
    ymin = fmin(ymin, pt->perf / 1.8);
    ymax = fmax(ymax, fmax(pt->perf, pt->roof_perf));
  }
  if (!isfinite(xmin)) xmin = 0.1, xmax = 1000;
  if (!isfinite(ymax)) ymax = 1e15;
  if (!isfinite(ymin)) ymin = ymax / 1e4;
  a->x0 = log10(xmin);
  a->x1 = log10(xmax);
  a->y0 = log10(ymin);
  a->y1 = log10(ymax) + 0.3;
  /* at most 12 decades on each axis; at least 2 */
  if (a->x1 - a->x0 > 12) a->x0 = a->x1 - 12;
  if (a->y1 - a->y0 > 12) a->y0 = a->y1 - 12;
  if (a->x1 - a->x0 < 2) {
    double m = (a->x0 + a->x1) / 2;
    a->x0 = m - 1, a->x1 = m + 1;
  }
  if (a->y1 - a->y0 < 2) a->y0 = a->y1 - 2;
}

/* ---- text -------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at p (rl_utf8_seq) that XML 1.0 also
 * allows (its Char production leaves out U+FFFE and U+FFFF), or 0. */
static size_t utf8_seq(const unsigned char *p) {
  size_t n = rl_utf8_seq((const char *)p);
  if (n == 3 && p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF)) return 0;
  return n;
}

void rli_out_xml(rli_out *o, const char *s) {
  if (!s) return;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    size_t n = utf8_seq(p);
    if (n == 0) {
      rli_out_puts(o, "?");
      p++;
      continue;
    }
    if (n > 1) {
      char tmp[5];
      memcpy(tmp, p, n);
      tmp[n] = 0;
      rli_out_puts(o, tmp);
      p += n;
      continue;
    }
    switch (*p) {
    case '&': rli_out_puts(o, "&amp;"); break;
    case '<': rli_out_puts(o, "&lt;"); break;
    case '>': rli_out_puts(o, "&gt;"); break;
    case '"': rli_out_puts(o, "&quot;"); break;
    case '\'': rli_out_puts(o, "&#39;"); break;
    case '\n': rli_out_puts(o, "&#10;"); break;
    default:
      if (*p >= 0x20 && *p != 0x7f) {
        char c[2] = {(char)*p, 0};
        rli_out_puts(o, c);
      }
    }
    p++;
  }
}

void rli_plot_clean(const char *s, char *dst, size_t cap, int ascii) {
  size_t k = 0;
  if (!cap) return;
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  while (*p && k + 1 < cap) {
    size_t n = utf8_seq(p);
    if (n == 0 || (n > 1 && ascii)) {
      dst[k++] = '?';
      p += n ? n : 1;
    } else if (n > 1) {
      if (k + n >= cap) break;
      memcpy(dst + k, p, n);
      k += n;
      p += n;
    } else {
      if (*p >= 0x20 && *p != 0x7f) dst[k++] = (char)*p;
      p++;
    }
  }
  dst[k] = 0;
}

size_t rli_utf8_len(const char *s) {
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    if ((*p & 0xC0) != 0x80) n++;
  return n;
}

const char *rli_plot_q(char *buf, size_t cap, double v, rl_unit u) {
  rl_format_quantity(v, u, buf, cap);
  return buf;
}
