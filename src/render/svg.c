/*
 * svg.c -- the roofline chart as a standalone SVG document.
 *
 * Log-log axes with a grid at each decade; per roof (a device in one
 * format) the slanted memory roof and the flat compute roof in one colour,
 * the ridge point marked and labelled with its intensity, the lower
 * ceilings (vector units) dashed and the L2 roof dotted where known; the
 * points in their roof's colour, hollow at their bound or filled where
 * measured, with a dashed line up to their own roof. Every label is placed
 * by a greedy search over candidate positions that avoids the labels and
 * markers already placed, the roof lines and the plot's edge (the labels
 * go in priority order: legend, roofs, ridges, points).
 */
#include "render/plot_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette[] = {"#1864ab", "#d9480f", "#2b8a3e", "#862e9c",
                                      "#e67700", "#0c8599", "#c2255c", "#5c940d"};
#define NPAL (sizeof palette / sizeof palette[0])
#define FONT "DejaVu Sans, Verdana, Arial, sans-serif"
#define CHAR_W 0.62 /* average advance of the font, in em (generous) */
#define RL_PI 3.14159265358979323846

typedef struct box { double x0, y0, x1, y1; } box;
typedef struct seg { double x0, y0, x1, y1; } seg;

/* What the layout has already claimed. */
typedef struct layout {
  box *boxes;
  size_t nb, capb;
  seg *segs;
  size_t ns, caps;
  box area; /* the plot area: labels stay inside */
  int oom;
} layout;

static void add_box(layout *l, box b) {
  if (l->nb == l->capb) {
    size_t c = l->capb ? l->capb * 2 : 64;
    box *nb = realloc(l->boxes, c * sizeof *nb);
    if (!nb) { l->oom = 1; return; }
    l->boxes = nb;
    l->capb = c;
  }
  l->boxes[l->nb++] = b;
}

static void add_seg(layout *l, double x0, double y0, double x1, double y1) {
  if (l->ns == l->caps) {
    size_t c = l->caps ? l->caps * 2 : 64;
    seg *ns = realloc(l->segs, c * sizeof *ns);
    if (!ns) { l->oom = 1; return; }
    l->segs = ns;
    l->caps = c;
  }
  l->segs[l->ns++] = (seg){x0, y0, x1, y1};
}

static int box_hit(box a, box b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* Does segment s cross box b? (Liang-Barsky clipping) */
static int seg_hit(seg s, box b) {
  double t0 = 0, t1 = 1, dx = s.x1 - s.x0, dy = s.y1 - s.y0;
  double p[4] = {-dx, dx, -dy, dy};
  double q[4] = {s.x0 - b.x0, b.x1 - s.x0, s.y0 - b.y0, b.y1 - s.y0};
  for (int i = 0; i < 4; i++) {
    if (p[i] == 0) {
      if (q[i] < 0) return 0;
    } else {
      double t = q[i] / p[i];
      if (p[i] < 0) { if (t > t1) return 0; if (t > t0) t0 = t; }
      else { if (t < t0) return 0; if (t < t1) t1 = t; }
    }
  }
  return 1;
}

/* Cost of putting a label in boxes b[0..n): overlaps are expensive, lines
 * crossed cheaper, leaving the plot area prohibitive. */
static double cost(const layout *l, const box *b, int n) {
  double c = 0;
  for (int k = 0; k < n; k++) {
    if (b[k].x0 < l->area.x0 || b[k].x1 > l->area.x1 || b[k].y0 < l->area.y0 ||
        b[k].y1 > l->area.y1)
      c += 100000;
    for (size_t i = 0; i < l->nb; i++)
      if (box_hit(b[k], l->boxes[i])) c += 1000;
    for (size_t i = 0; i < l->ns; i++)
      if (seg_hit(l->segs[i], b[k])) c += 40;
  }
  return c;
}

static double text_w(const char *s, double fs) { return (double)rli_utf8_len(s) * fs * CHAR_W; }

/* A placed text: anchor (x, y) is the start of the baseline. */
typedef struct label {
  char text[160];
  double x, y, fs, angle; /* angle in degrees (SVG rotate) */
  const char *color;
  int bold;
  int leader;             /* draw a leader line from (mx, my) to (lx, ly) */
  double mx, my, lx, ly;
} label;

/* Place a horizontal text of size fs near (px, py), trying candidate
 * offsets (dx, dy of the box's reference corner). Claims the box. */
static void place_h(layout *l, label *lab, double px, double py, double r, const double (*cand)[2],
                    int ncand, int allow_leader) {
  double w = text_w(lab->text, lab->fs), h = lab->fs * 1.15;
  double best = INFINITY;
  box bb = {0, 0, 0, 0};
  int bestlead = 0;
  static const double dist[] = {0, 14, 30, 52};
  int nd = allow_leader ? 4 : 1;
  for (int d = 0; d < nd; d++) {
    for (int i = 0; i < ncand; i++) {
      /* cand: direction (-1..1) of the box relative to the point */
      double ux = cand[i][0], uy = cand[i][1];
      double gap = r + 3 + dist[d];
      double cx = px + ux * (gap + w / 2), cy = py + uy * (gap + h / 2);
      if (ux == 0) cx = px;
      if (uy == 0) cy = py;
      box b = {cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2};
      double c = cost(l, &b, 1) + d * 25 + i * 0.5;
      if (c < best) {
        best = c;
        bb = b;
        bestlead = d > 0;
      }
    }
    if (best < 40) break; /* clean spot found at this distance */
  }
  lab->x = bb.x0;
  lab->y = bb.y1 - lab->fs * 0.28;
  lab->angle = 0;
  lab->leader = bestlead;
  if (bestlead) {
    /* from the marker to the nearest point of the box */
    lab->mx = px;
    lab->my = py;
    lab->lx = fmin(fmax(px, bb.x0), bb.x1);
    lab->ly = fmin(fmax(py, bb.y0), bb.y1);
  }
  add_box(l, bb);
}

/* ---- the chart -------------------------------------------------------- */

typedef struct frame {
  double px0, px1, py0, py1;
  rli_axes ax;
} frame;

static double X(const frame *f, double v) {
  return f->px0 + (log10(v) - f->ax.x0) / (f->ax.x1 - f->ax.x0) * (f->px1 - f->px0);
}
static double Y(const frame *f, double v) {
  return f->py1 - (log10(v) - f->ax.y0) / (f->ax.y1 - f->ax.y0) * (f->py1 - f->py0);
}
static double Iof(const frame *f, double x) {
  return pow(10, f->ax.x0 + (x - f->px0) / (f->px1 - f->px0) * (f->ax.x1 - f->ax.x0));
}

static void tick_text(char *buf, size_t cap, int k, int y_axis) {
  if (y_axis) {
    rl_format_quantity(pow(10, k), RL_UNIT_FLOP_S, buf, cap);
  } else if (k < 0 && k >= -4) {
    snprintf(buf, cap, "%.*f FLOP/B", -k, pow(10, k));
  } else if (k >= 0 && k <= 5) {
    snprintf(buf, cap, "%.0f FLOP/B", pow(10, k));
  } else {
    snprintf(buf, cap, "1e%d FLOP/B", k);
  }
}


/* Pick the cheapest of n candidate boxes for a horizontal label; claims
 * it. */
static void place_boxes(layout *l, label *lab, const box *cand, int n) {
  double best = INFINITY;
  int bi = 0;
  for (int i = 0; i < n; i++) {
    double c = cost(l, &cand[i], 1) + i * 0.5;
    if (c < best) best = c, bi = i;
  }
  lab->x = cand[bi].x0;
  lab->y = cand[bi].y1 - lab->fs * 0.28;
  lab->angle = 0;
  lab->leader = 0;
  add_box(l, cand[bi]);
}

/* The boxes a text of width w along direction angle (radians) from
 * (x, y) covers, as squares of side ~fs along its baseline. */
static int rot_boxes(double x, double y, double ang, double w, double fs, box *out, int cap) {
  double cx = cos(ang), cy = sin(ang), ux = sin(ang), uy = -cos(ang);
  int n = 0;
  for (double s = 0; s < w && n < cap; s += fs * 0.8) {
    double mx = x + cx * (s + fs * 0.4) + ux * fs * 0.45, my = y + cy * (s + fs * 0.4) + uy * fs * 0.45;
    out[n++] = (box){mx - fs * 0.42, my - fs * 0.42, mx + fs * 0.42, my + fs * 0.42};
  }
  return n;
}

/* Place a label along the line (ax, ay) -> (bx, by), above it or below. */
static void place_along(layout *l, label *lab, double ax, double ay, double bx, double by) {
  double dx = bx - ax, dy = by - ay, len = sqrt(dx * dx + dy * dy);
  double ang = atan2(dy, dx), w = text_w(lab->text, lab->fs);
  static const double ts[] = {0.12, 0.3, 0.45, 0.05, 0.6, 0.22, 0.75};
  double best = INFINITY, bxs = ax, bys = ay;
  box bb[64], bestb[64];
  int nbest = 0;
  for (int side = 0; side < 2; side++)
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
      if (len <= 0 || ts[i] * len + w > len) continue;
      double off = side == 0 ? 3 : -(lab->fs + 3);
      double sx = ax + dx / len * ts[i] * len + sin(ang) * off;
      double sy = ay + dy / len * ts[i] * len - cos(ang) * off;
      int n = rot_boxes(sx, sy, ang, w, lab->fs, bb, 64);
      double c = cost(l, bb, n) + (double)i + side * 3;
      if (c < best) {
        best = c, bxs = sx, bys = sy, nbest = n;
        memcpy(bestb, bb, (size_t)n * sizeof *bb);
      }
    }
  if (!isfinite(best)) { /* too short to hold the text: put it flat above the start */
    lab->x = ax, lab->y = ay - 4, lab->angle = 0, lab->leader = 0;
    add_box(l, (box){ax, ay - 4 - lab->fs, ax + w, ay - 2});
    return;
  }
  for (int i = 0; i < nbest; i++) add_box(l, bestb[i]);
  lab->x = bxs, lab->y = bys, lab->angle = ang * 180 / RL_PI, lab->leader = 0;
}

static void emit_label(rli_out *o, const label *lab) {
  if (lab->leader)
    rli_out_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#868e96\" "
                      "stroke-width=\"0.8\"/>\n",
                   lab->mx, lab->my, lab->lx, lab->ly);
  rli_out_printf(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" fill=\"%s\"%s", lab->x, lab->y,
                 lab->fs, lab->color ? lab->color : "#212529",
                 lab->bold ? " font-weight=\"bold\"" : "");
  if (lab->angle != 0)
    rli_out_printf(o, " transform=\"rotate(%.2f %.1f %.1f)\"", lab->angle, lab->x, lab->y);
  rli_out_puts(o, ">");
  rli_out_xml(o, lab->text);
  rli_out_puts(o, "</text>\n");
}

/* Where the slanted roof of bandwidth bw enters the plot (its intensity). */
static double enter_I(const frame *f, double bw) {
  return fmax(pow(10, f->ax.x0), pow(10, f->ax.y0) / bw);
}

typedef struct labels {
  label *v;
  size_t n, cap;
} labels;

static label *new_label(labels *L, const char *text, double fs, const char *color) {
  if (L->n == L->cap) {
    size_t c = L->cap ? L->cap * 2 : 32;
    label *nv = realloc(L->v, c * sizeof *nv);
    if (!nv) return NULL;
    L->v = nv;
    L->cap = c;
  }
  label *lab = &L->v[L->n++];
  memset(lab, 0, sizeof *lab);
  rli_plot_clean(text, lab->text, sizeof lab->text, 0);
  lab->fs = fs;
  lab->color = color;
  return lab;
}

static void point_title(rli_out *o, const rl_plot_point *pt, const rl_plot_roof *roof) {
  char a[48], b[48], c[48], d[48], e[48];
  rli_out_puts(o, "<title>");
  rli_out_xml(o, pt->label);
  if (roof) {
    rli_out_puts(o, " on ");
    rli_out_xml(o, roof->label);
  }
  rli_out_printf(o, "&#10;FLOPs: %s&#10;bytes: %s&#10;intensity: %s&#10;",
                 rli_plot_q(a, sizeof a, pt->flops, RL_UNIT_FLOP),
                 rli_plot_q(b, sizeof b, pt->bytes, RL_UNIT_BYTES),
                 rli_plot_q(c, sizeof c, pt->intensity, RL_UNIT_FLOP_PER_BYTE));
  if (pt->bound >= 0 && rl_bound_name(pt->bound))
    rli_out_printf(o, "bound: %s&#10;", rl_bound_name(pt->bound));
  if (pt->measured) {
    rli_out_printf(o, "measured: %s, %s", rli_plot_q(d, sizeof d, pt->time_s, RL_UNIT_SECONDS),
                   rli_plot_q(e, sizeof e, pt->perf, RL_UNIT_FLOP_S));
    if (pt->roof_perf > 0)
      rli_out_printf(o, "&#10;%.1f%% of its roof (%s)", 100 * pt->perf / pt->roof_perf,
                     rli_plot_q(a, sizeof a, pt->roof_perf, RL_UNIT_FLOP_S));
  } else {
    rli_out_printf(o, "time &#8805; %s (roofline bound)&#10;attainable: %s",
                   rli_plot_q(d, sizeof d, pt->time_s, RL_UNIT_SECONDS),
                   rli_plot_q(e, sizeof e, pt->perf, RL_UNIT_FLOP_S));
  }
  rli_out_puts(o, "</title>");
}

/* Is roof i's slanted roof the same line as an earlier roof's? */
static int same_bw(const rl_plot *p, int32_t i) {
  for (int32_t j = 0; j < i; j++)
    if (fabs(p->roofs[j].bandwidth - p->roofs[i].bandwidth) <= 1e-9 * p->roofs[i].bandwidth) return 1;
  return 0;
}

/* Is ceiling c of roof i drawn already by an earlier roof (same device)? */
static int same_ceiling(const rl_plot *p, int32_t i, int32_t c) {
  const rl_plot_roof *r = &p->roofs[i];
  for (int32_t j = 0; j < i; j++) {
    if (fabs(p->roofs[j].bandwidth - r->bandwidth) > 1e-9 * r->bandwidth) continue;
    for (int32_t k = 0; k < p->roofs[j].n_ceilings; k++)
      if (fabs(p->roofs[j].ceiling[k] - r->ceiling[c]) <= 1e-9 * r->ceiling[c]) return 1;
  }
  return 0;
}

/* A ridge label: vertical, beside the ridge's dotted drop line (low down,
 * else higher up), else flat beside the ridge marker. */
static void place_ridge(layout *l, label *lab, double x, double ytop, double ybot) {
  double w = text_w(lab->text, lab->fs), best = INFINITY, bx = x, by = ybot;
  box bb[64], bestb[64];
  int nbest = 0;
  for (int k = 0; k < 5; k++)
    for (int side = 0; side < 2; side++) {
      double y0 = ybot - 4 - k * 45;
      if (y0 - w < ytop + 8) continue;
      double x0 = side == 0 ? x - 3 : x + lab->fs + 1;
      int n = rot_boxes(x0, y0, -RL_PI / 2, w, lab->fs, bb, 64);
      double c = cost(l, bb, n) + k * 3 + side;
      if (c < best) {
        best = c, bx = x0, by = y0, nbest = n;
        memcpy(bestb, bb, (size_t)n * sizeof *bb);
      }
    }
  if (best < 1000) {
    for (int i = 0; i < nbest; i++) add_box(l, bestb[i]);
    lab->x = bx, lab->y = by, lab->angle = -90, lab->leader = 0;
    return;
  }
  static const double dirs[][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}, {0, 1}, {0, -1}};
  place_h(l, lab, x, ytop, 4, dirs, 6, 1);
}

size_t rl_plot_svg(const rl_plot *p, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  if (!p) return rli_out_end(&o);
  double W = p->width > 0 ? p->width : 960, H = p->height > 0 ? p->height : 620;
  W = fmax(320, fmin(W, 8000));
  H = fmax(240, fmin(H, 8000));
  int has_sub = p->subtitle && *p->subtitle;
  frame f;
  f.px0 = 96, f.px1 = W - 46, f.py0 = has_sub ? 62 : 46, f.py1 = H - 56;
  rli_plot_axes(p, &f.ax);
  layout l;
  memset(&l, 0, sizeof l);
  l.area = (box){f.px0 + 2, f.py0 + 2, f.px1 - 2, f.py1 - 2};
  labels L = {NULL, 0, 0};
  double Imin = pow(10, f.ax.x0), Imax = pow(10, f.ax.x1);

  /* 1. geometry the labels must avoid: roof lines and point markers */
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!(r->peak > 0 && r->bandwidth > 0)) continue;
    double ridge = r->peak / r->bandwidth, Ia = enter_I(&f, r->bandwidth);
    add_seg(&l, X(&f, Ia), Y(&f, r->bandwidth * Ia), X(&f, ridge), Y(&f, r->peak));
    add_seg(&l, X(&f, ridge), Y(&f, r->peak), X(&f, Imax), Y(&f, r->peak));
    for (int32_t c = 0; c < r->n_ceilings; c++)
      add_seg(&l, X(&f, r->ceiling[c] / r->bandwidth), Y(&f, r->ceiling[c]), X(&f, Imax),
              Y(&f, r->ceiling[c]));
    if (r->l2_bw > 0) {
      double Ib = enter_I(&f, r->l2_bw);
      add_seg(&l, X(&f, Ib), Y(&f, r->l2_bw * Ib), X(&f, r->peak / r->l2_bw), Y(&f, r->peak));
    }
  }
  for (int32_t i = 0; i < p->n_points; i++) {
    const rl_plot_point *pt = &p->points[i];
    if (!rli_plot_point_ok(pt)) continue;
    double x = X(&f, pt->intensity), y = Y(&f, pt->perf);
    add_box(&l, (box){x - 6, y - 6, x + 6, y + 6});
    if (pt->measured && pt->roof_perf > pt->perf) add_seg(&l, x, y, x, Y(&f, pt->roof_perf));
  }

  /* 2. the legend: roofs, then the keys that apply */
  int any_ceil = 0, any_l2 = 0, any_meas = 0, any_bound = 0;
  for (int32_t i = 0; i < p->n_roofs; i++) {
    any_ceil |= p->roofs[i].n_ceilings > 0;
    any_l2 |= p->roofs[i].l2_bw > 0;
  }
  for (int32_t i = 0; i < p->n_points; i++) {
    if (!rli_plot_point_ok(&p->points[i])) continue;
    if (p->points[i].measured) any_meas = 1;
    else any_bound = 1;
  }
  char (*legend)[200] = calloc((size_t)p->n_roofs + 5, sizeof *legend);
  int nleg = 0;
  double legw = 0;
  if (!legend) l.oom = 1;
  for (int32_t i = 0; legend && i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    char a[48], b[48], c[48], clean[RL_HW_TEXT_MAX];
    rli_plot_clean(r->label, clean, sizeof clean, 0);
    snprintf(legend[nleg], 200, "%s: %s, %s, ridge %s", clean,
             rli_plot_q(a, sizeof a, r->peak, RL_UNIT_FLOP_S),
             rli_plot_q(b, sizeof b, r->bandwidth, RL_UNIT_BYTES_S),
             rli_plot_q(c, sizeof c, r->bandwidth > 0 ? r->peak / r->bandwidth : 0,
                        RL_UNIT_FLOP_PER_BYTE));
    legw = fmax(legw, text_w(legend[nleg++], 11));
  }
  if (legend && any_ceil) {
    snprintf(legend[nleg], 200, "lower ceilings: vector units (no tensor cores)");
    legw = fmax(legw, text_w(legend[nleg++], 11));
  }
  if (legend && any_l2) {
    snprintf(legend[nleg], 200, "L2 cache bandwidth roof");
    legw = fmax(legw, text_w(legend[nleg++], 11));
  }
  if (legend && any_bound) {
    snprintf(legend[nleg], 200, "op at its roofline bound (not measured)");
    legw = fmax(legw, text_w(legend[nleg++], 11));
  }
  if (legend && any_meas) {
    snprintf(legend[nleg], 200, "measured; dashed: gap up to its own roof");
    legw = fmax(legw, text_w(legend[nleg++], 11));
  }
  double lw = legw + 44, lh = nleg * 16 + 10;
  box legb = {0, 0, 0, 0};
  if (nleg) {
    box cand[4] = {{f.px0 + 8, f.py0 + 8, f.px0 + 8 + lw, f.py0 + 8 + lh},
                   {f.px1 - 8 - lw, f.py1 - 8 - lh, f.px1 - 8, f.py1 - 8},
                   {f.px0 + 8, f.py1 - 8 - lh, f.px0 + 8 + lw, f.py1 - 8},
                   {f.px1 - 8 - lw, f.py0 + 8, f.px1 - 8, f.py0 + 8 + lh}};
    double best = INFINITY;
    for (int i = 0; i < 4; i++) {
      double c = cost(&l, &cand[i], 1) + i;
      if (c < best) best = c, legb = cand[i];
    }
    add_box(&l, legb);
  }

  /* 3. roof labels: flat roof (peak), slanted roof (bandwidth), ceilings,
   * L2, ridge */
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!(r->peak > 0 && r->bandwidth > 0)) continue;
    const char *col = palette[(size_t)i % NPAL];
    char a[48], t[200], clean[RL_HW_TEXT_MAX];
    rli_plot_clean(r->label, clean, sizeof clean, 0);
    double yp = Y(&f, r->peak), ridge = r->peak / r->bandwidth;
    snprintf(t, sizeof t, "%s %s", clean, rli_plot_q(a, sizeof a, r->peak, RL_UNIT_FLOP_S));
    label *lab = new_label(&L, t, 12, col);
    if (lab) {
      lab->bold = 1;
      double w = text_w(lab->text, 12) * 1.08, xr = f.px1 - 6, xl = fmax(X(&f, ridge) + 8, f.px0 + 4);
      static const double dy[] = {-17, 3, -31, 17, -45, 31};
      box cand[32];
      int n = 0;
      for (int k = 0; k < 6; k++)
        for (int s2 = 0; s2 < 4; s2++) {
          double x1 = xr - s2 * (xr - xl - w) / 3;
          if (x1 - w < xl - 1 && s2) break;
          cand[n++] = (box){x1 - w, yp + dy[k], x1, yp + dy[k] + 14};
        }
      place_boxes(&l, lab, cand, n);
    }
    snprintf(t, sizeof t, "%s", rli_plot_q(a, sizeof a, r->bandwidth, RL_UNIT_BYTES_S));
    lab = same_bw(p, i) ? NULL : new_label(&L, t, 11, col);
    if (lab) {
      double Ia = enter_I(&f, r->bandwidth);
      place_along(&l, lab, X(&f, Ia), Y(&f, r->bandwidth * Ia), X(&f, fmin(ridge, Imax)),
                  Y(&f, r->bandwidth * fmin(ridge, Imax)));
    }
    for (int32_t c = 0; c < r->n_ceilings; c++) {
      if (same_ceiling(p, i, c)) continue;
      snprintf(t, sizeof t, "%s %s", r->ceiling_label[c],
               rli_plot_q(a, sizeof a, r->ceiling[c], RL_UNIT_FLOP_S));
      lab = new_label(&L, t, 10.5, col);
      if (!lab) continue;
      double yc = Y(&f, r->ceiling[c]), w = text_w(lab->text, 10.5);
      double xl = X(&f, r->ceiling[c] / r->bandwidth) + 6, xr = f.px1 - 6;
      box cand[8];
      int n = 0;
      for (int s = 0; s < 4; s++) {
        double x1 = xr - s * fmax(0, xr - xl - w) / 3;
        cand[n++] = (box){x1 - w, yc + 2, x1, yc + 15};
        cand[n++] = (box){x1 - w, yc - 15, x1, yc - 2};
      }
      place_boxes(&l, lab, cand, n);
    }
    if (r->l2_bw > 0) {
      snprintf(t, sizeof t, "L2 %s", rli_plot_q(a, sizeof a, r->l2_bw, RL_UNIT_BYTES_S));
      lab = new_label(&L, t, 10.5, col);
      double Ib = enter_I(&f, r->l2_bw), Ir = fmin(r->peak / r->l2_bw, Imax);
      if (lab) place_along(&l, lab, X(&f, Ib), Y(&f, r->l2_bw * Ib), X(&f, Ir), Y(&f, r->l2_bw * Ir));
    }
    if (ridge >= Imin && ridge <= Imax) {
      snprintf(t, sizeof t, "ridge %s", rli_plot_q(a, sizeof a, ridge, RL_UNIT_FLOP_PER_BYTE));
      lab = new_label(&L, t, 10.5, col);
      if (lab) place_ridge(&l, lab, X(&f, ridge), yp, f.py1);
    }
  }

  /* 4. point labels, in order of the points */
  label **plab = calloc((size_t)p->n_points + 1, sizeof *plab);
  if (!plab) l.oom = 1;
  for (int32_t i = 0; plab && i < p->n_points; i++) {
    const rl_plot_point *pt = &p->points[i];
    if (!rli_plot_point_ok(pt)) continue;
    char t[200], clean[RL_PLOT_LABEL_MAX];
    rli_plot_clean(pt->label, clean, sizeof clean, 0);
    if (pt->measured && pt->roof_perf > 0)
      snprintf(t, sizeof t, "%s (%.0f%% of roof)", clean, 100 * pt->perf / pt->roof_perf);
    else
      snprintf(t, sizeof t, "%s", clean);
    label *lab = new_label(&L, t, 11, "#212529");
    if (!lab) continue;
    static const double dirs[][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1},
                                     {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    place_h(&l, lab, X(&f, pt->intensity), Y(&f, pt->perf), 5, dirs, 8, 1);
    plab[i] = lab;
  }

  /* ---- emit ---- */
  rli_out_printf(&o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                     "viewBox=\"0 0 %.0f %.0f\" font-family=\"" FONT "\" class=\"roofline-chart\">\n",
                 W, H, W, H);
  rli_out_puts(&o, "<title>");
  rli_out_xml(&o, p->title && *p->title ? p->title : "Roofline");
  rli_out_puts(&o, "</title>\n");
  rli_out_printf(&o, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", W, H);
  rli_out_printf(&o, "<defs><clipPath id=\"rl-plot-area\"><rect x=\"%.1f\" y=\"%.1f\" "
                     "width=\"%.1f\" height=\"%.1f\"/></clipPath></defs>\n",
                 f.px0, f.py0, f.px1 - f.px0, f.py1 - f.py0);
  /* grid, ticks and tick labels */
  rli_out_puts(&o, "<g class=\"grid\" stroke=\"#e9ecef\" stroke-width=\"1\">\n");
  for (int k = (int)ceil(f.ax.x0); k <= (int)floor(f.ax.x1); k++) {
    double x = X(&f, pow(10, k));
    rli_out_printf(&o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x, f.py0, x, f.py1);
  }
  for (int k = (int)ceil(f.ax.y0); k <= (int)floor(f.ax.y1); k++) {
    double y = Y(&f, pow(10, k));
    rli_out_printf(&o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", f.px0, y, f.px1, y);
  }
  rli_out_puts(&o, "</g>\n<g class=\"ticks\" stroke=\"#495057\" stroke-width=\"1\">\n");
  for (int k = (int)floor(f.ax.x0); k <= (int)ceil(f.ax.x1); k++)
    for (int m = 1; m < 10; m++) {
      double v = m * pow(10, k);
      if (log10(v) < f.ax.x0 - 1e-9 || log10(v) > f.ax.x1 + 1e-9) continue;
      double x = X(&f, v);
      rli_out_printf(&o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x, f.py1, x,
                     f.py1 + (m == 1 ? 6 : 3));
    }
  for (int k = (int)floor(f.ax.y0); k <= (int)ceil(f.ax.y1); k++)
    for (int m = 1; m < 10; m++) {
      double v = m * pow(10, k);
      if (log10(v) < f.ax.y0 - 1e-9 || log10(v) > f.ax.y1 + 1e-9) continue;
      double y = Y(&f, v);
      rli_out_printf(&o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", f.px0 - (m == 1 ? 6 : 3),
                     y, f.px0, y);
    }
  rli_out_puts(&o, "</g>\n<g class=\"tick-labels\" font-size=\"11\" fill=\"#343a40\">\n");
  for (int k = (int)ceil(f.ax.x0); k <= (int)floor(f.ax.x1); k++) {
    char t[48];
    tick_text(t, sizeof t, k, 0);
    rli_out_printf(&o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
                   X(&f, pow(10, k)), f.py1 + 19, t);
  }
  for (int k = (int)ceil(f.ax.y0); k <= (int)floor(f.ax.y1); k++) {
    char t[48];
    tick_text(t, sizeof t, k, 1);
    rli_out_printf(&o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", f.px0 - 9,
                   Y(&f, pow(10, k)) + 4, t);
  }
  rli_out_puts(&o, "</g>\n");
  rli_out_printf(&o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\" "
                     "fill=\"#212529\">Arithmetic intensity I = F/Q (FLOP/B, log scale)</text>\n",
                 (f.px0 + f.px1) / 2, H - 14);
  rli_out_printf(&o, "<text x=\"18\" y=\"%.1f\" font-size=\"13\" text-anchor=\"middle\" "
                     "fill=\"#212529\" transform=\"rotate(-90 18 %.1f)\">Performance "
                     "(FLOP/s, log scale)</text>\n",
                 (f.py0 + f.py1) / 2, (f.py0 + f.py1) / 2);

  /* roofs */
  rli_out_puts(&o, "<g class=\"roofs\" clip-path=\"url(#rl-plot-area)\" fill=\"none\">\n");
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!(r->peak > 0 && r->bandwidth > 0)) continue;
    const char *col = palette[(size_t)i % NPAL];
    double ridge = r->peak / r->bandwidth, Ia = enter_I(&f, r->bandwidth);
    rli_out_printf(&o, "<g class=\"roof\" data-roof=\"%d\" stroke=\"%s\">\n", (int)i, col);
    if (r->l2_bw > 0) {
      double Ib = enter_I(&f, r->l2_bw);
      rli_out_printf(&o, "<polyline class=\"l2\" stroke-width=\"1.4\" stroke-dasharray=\"2 3\" "
                         "points=\"%.1f,%.1f %.1f,%.1f\"/>\n",
                     X(&f, Ib), Y(&f, r->l2_bw * Ib), X(&f, r->peak / r->l2_bw), Y(&f, r->peak));
    }
    for (int32_t c = 0; c < r->n_ceilings; c++)
      if (!same_ceiling(p, i, c))
      rli_out_printf(&o, "<polyline class=\"ceiling\" stroke-width=\"1.3\" stroke-dasharray=\"7 4\" "
                         "points=\"%.1f,%.1f %.1f,%.1f\"/>\n",
                     X(&f, r->ceiling[c] / r->bandwidth), Y(&f, r->ceiling[c]), X(&f, Imax),
                     Y(&f, r->ceiling[c]));
    /* the ridge: dotted drop to the axis, a marker on the roof */
    rli_out_printf(&o, "<line class=\"ridge-drop\" stroke-width=\"0.9\" stroke-dasharray=\"1 3\" "
                       "x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                   X(&f, ridge), Y(&f, r->peak), X(&f, ridge), f.py1);
    rli_out_printf(&o, "<polyline class=\"roofline\" stroke-width=\"2.4\" stroke-linejoin=\"round\" "
                       "points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>\n",
                   X(&f, Ia), Y(&f, r->bandwidth * Ia), X(&f, ridge), Y(&f, r->peak), X(&f, Imax),
                   Y(&f, r->peak));
    rli_out_printf(&o, "<circle class=\"ridge\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#ffffff\" "
                       "stroke-width=\"2\"/>\n</g>\n",
                   X(&f, ridge), Y(&f, r->peak));
  }
  rli_out_puts(&o, "</g>\n");

  /* points: gap lines, then markers with their tooltips */
  rli_out_puts(&o, "<g class=\"points\">\n");
  for (int32_t i = 0; i < p->n_points; i++) {
    const rl_plot_point *pt = &p->points[i];
    if (!rli_plot_point_ok(pt)) continue;
    int ri = pt->roof >= 0 && pt->roof < p->n_roofs ? pt->roof : -1;
    const char *col = ri >= 0 ? palette[(size_t)ri % NPAL] : "#495057";
    double x = X(&f, pt->intensity), y = Y(&f, pt->perf);
    rli_out_printf(&o, "<g class=\"pt\" data-i=\"%d\">", (int)i);
    point_title(&o, pt, ri >= 0 ? &p->roofs[ri] : NULL);
    if (pt->measured && pt->roof_perf > 0 && pt->roof_perf > pt->perf) {
      double yr = Y(&f, pt->roof_perf);
      rli_out_printf(&o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                         "stroke-width=\"1.2\" stroke-dasharray=\"4 3\"/>"
                         "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                         "stroke-width=\"2\"/>",
                     x, y - 5, x, yr, col, x - 5, yr, x + 5, yr, col);
    }
    rli_out_printf(&o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\" stroke=\"%s\" "
                       "stroke-width=\"2\"/></g>\n",
                   x, y, pt->measured ? col : "#ffffff", col);
  }
  rli_out_puts(&o, "</g>\n");

  /* labels */
  rli_out_puts(&o, "<g class=\"labels\">\n");
  for (size_t i = 0; i < L.n; i++) {
    int is_point = 0;
    for (int32_t k = 0; plab && k < p->n_points; k++)
      if (plab[k] == &L.v[i]) {
        rli_out_printf(&o, "<g class=\"pt-label\" data-i=\"%d\">", (int)k);
        is_point = 1;
        break;
      }
    emit_label(&o, &L.v[i]);
    if (is_point) rli_out_puts(&o, "</g>\n");
  }
  rli_out_puts(&o, "</g>\n");

  /* legend */
  if (nleg) {
    rli_out_printf(&o, "<g class=\"legend\" font-size=\"11\">\n<rect x=\"%.1f\" y=\"%.1f\" "
                       "width=\"%.1f\" height=\"%.1f\" fill=\"#ffffff\" fill-opacity=\"0.92\" "
                       "stroke=\"#ced4da\"/>\n",
                   legb.x0, legb.y0, lw, lh);
    int row = 0;
    for (int32_t i = 0; i < p->n_roofs; i++, row++) {
      double y = legb.y0 + 14 + row * 16;
      rli_out_printf(&o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                         "stroke-width=\"2.4\"/>",
                     legb.x0 + 8, y - 4, legb.x0 + 34, y - 4, palette[(size_t)i % NPAL]);
      rli_out_printf(&o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#212529\">", legb.x0 + 40, y);
      rli_out_xml(&o, legend[row]);
      rli_out_puts(&o, "</text>\n");
    }
    const char *k1 = p->n_roofs ? palette[0] : "#495057";
    for (; row < nleg; row++) {
      double y = legb.y0 + 14 + row * 16, x = legb.x0 + 8;
      const char *t = legend[row];
      if (strncmp(t, "lower", 5) == 0)
        rli_out_printf(&o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#495057\" "
                           "stroke-width=\"1.3\" stroke-dasharray=\"7 4\"/>",
                       x, y - 4, x + 26, y - 4);
      else if (strncmp(t, "L2", 2) == 0)
        rli_out_printf(&o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#495057\" "
                           "stroke-width=\"1.4\" stroke-dasharray=\"2 3\"/>",
                       x, y - 4, x + 26, y - 4);
      else
        rli_out_printf(&o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" stroke=\"%s\" "
                           "stroke-width=\"2\"/>",
                       x + 13, y - 4, strncmp(t, "measured", 8) == 0 ? k1 : "#ffffff", k1);
      rli_out_printf(&o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#212529\">", legb.x0 + 40, y);
      rli_out_xml(&o, t);
      rli_out_puts(&o, "</text>\n");
    }
    rli_out_puts(&o, "</g>\n");
  }
  rli_out_printf(&o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
                     "stroke=\"#495057\"/>\n",
                 f.px0, f.py0, f.px1 - f.px0, f.py1 - f.py0);
  /* title */
  rli_out_printf(&o, "<text class=\"title\" x=\"%.1f\" y=\"24\" font-size=\"16\" "
                     "font-weight=\"bold\" text-anchor=\"middle\" fill=\"#212529\">",
                 W / 2);
  rli_out_xml(&o, p->title && *p->title ? p->title : "Roofline");
  rli_out_puts(&o, "</text>\n");
  if (has_sub) {
    rli_out_printf(&o, "<text class=\"subtitle\" x=\"%.1f\" y=\"42\" font-size=\"11.5\" "
                       "text-anchor=\"middle\" fill=\"#495057\">",
                   W / 2);
    rli_out_xml(&o, p->subtitle);
    rli_out_puts(&o, "</text>\n");
  }
  rli_out_puts(&o, "</svg>\n");
  free(L.v);
  free(plab);
  free(legend);
  free(l.boxes);
  free(l.segs);
  (void)Iof;
  return rli_out_end(&o);
}
