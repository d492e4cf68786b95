/*
 * svg.c -- the roofline chart as a standalone SVG document.
 *
 * Log-log axes (Williams, Waterman & Patterson 2009, Fig. 1-2) spanning
 * the data plus a margin. One hue per device (the Okabe-Ito palette, safe
 * for colour-blind readers: Okabe & Ito, "Color Universal Design", 2008),
 * one dash per format on the flat roofs; the slanted roofs of the memory
 * levels, the flat compute roofs and the lower ceilings. Lines that
 * coincide within the drawing resolution are drawn once, in the hues of
 * all of them, with one label naming them all. Ridge points are hollow
 * diamonds; points are filled when measured and hollow at their bound,
 * their area proportional to their time when asked.
 *
 * Layout is computed: every text's box is known (from an estimate of the
 * font's advance) and a label is placed only where it overlaps no other
 * label, marker or the legend and stays inside the plot area; a point's
 * label may move away along a leader line, and one that finds no place is
 * dropped and counted in a "+N more" note (its marker keeps its tooltip).
 * rl_plot_boxes returns the boxes so that tests can check this.
 *
 * The work is in phases: frame (canvas, margins, axes), lines (roofs
 * merged), claims (markers and line geometry), legend, line labels,
 * point labels, then the document.
 */
#include "render/plot_internal.h"

/* the cut of a text too long for its place: U+2026, 3 bytes (and its NUL) */
#define ELLIPSIS "\xe2\x80\xa6"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- layout constants (SVG pixels unless said) ---------------------- */
#define FONT "DejaVu Sans, Verdana, Arial, sans-serif"
#define CHAR_W 0.62        /* average advance of the font, in em (generous) */
#define BOLD_W 1.12        /* bold text is this much wider */
#define TEXT_H 1.2         /* a text line's box height, in em */
#define DEF_W 960          /* default canvas */
#define DEF_H 620
#define MIN_W 320          /* canvas limits */
#define MIN_H 240
#define MAX_WH 8000
#define M_LEFT_GAP 8       /* between the y axis title and the tick labels */
#define M_RIGHT 22
#define M_TOP 44           /* with the title; each subtitle line adds SUB_STEP */
#define M_BOTTOM 54
#define TITLE_Y 24         /* baselines */
#define SUB_Y0 42
#define SUB_STEP 15
#define TITLE_STEP 20      /* a title too long for the canvas wraps: its second line */
#define XTICK_DY 19        /* x tick label baseline below the plot */
#define YTICK_DX 9         /* y tick label end left of the plot */
#define XTITLE_DY 14       /* x axis title baseline above the bottom edge */
#define YTITLE_X 18        /* y axis title centre */
#define TICK_MAJOR 6
#define TICK_MINOR 3
#define FS_TITLE 16
#define FS_SUB 11.5
#define FS_AXIS 13
#define FS_TICK 11
#define FS_ROOF 12
#define FS_SLANT 11
#define FS_CEIL 10.5
#define FS_POINT 11
#define FS_LEGEND 11
#define FS_NOTE 11
#define INSET 2            /* labels keep this far inside the plot area */
#define PAD 1.5            /* clearance around a label's box */
#define MARK_R 5           /* point marker radius */
#define MARK_R_MIN 3       /* RL_PLOT_AREA_TIME: radius of the shortest */
#define MARK_R_MAX 15      /* ... and of the longest */
#define RIDGE_R 5.5        /* ridge diamond half-diagonal */
#define LABEL_GAP 3        /* between a marker and its label */
#define LEG_INSET 8        /* legend from the plot's corner */
#define LEG_PAD 8          /* inside the legend box */
#define LEG_ROW 16         /* legend row pitch */
#define LEG_SWATCH 26      /* legend line sample */
#define LEG_TEXT_DX 40     /* legend text from the box's left */
#define LEG_BELOW_GAP 10   /* legend under the chart, when no corner is free */
#define W_ROOF 2.4         /* stroke widths */
#define W_LEVEL 1.5
#define W_CEIL 1.2
#define W_GROUP 1.0
#define MERGE_PX 1.0       /* lines closer than this are one line */
#define MAX_DEVICE_CEILINGS 2 /* ceilings drawn for at most this many devices */
#define X_PAD_DEC 0.25     /* axis margins beyond the data, in decades */
#define Y_PAD_DEC 0.3
#define ROOF_SPAN_DEC 2.0  /* slanted roofs shown over at least this many decades */
#define DESCENT 0.28       /* baseline above a text box's bottom, in em */
#define SEG_COST 40        /* placement cost of a label crossing a line */
#define LEG_MAX_CROSS 3    /* lines the legend may cover inside the plot */
#define LINE_GAP 2         /* between a flat line and its label */
#define ALONG_GAP 3        /* between a slanted line and its label */
#define RIDGE_STEP 40      /* ridge label candidates up the drop line */
#define EDGE 4             /* what stays clear of the canvas's edge */
#define EDGE2 8            /* ... on both sides together */
#define SUB_MARGIN 16      /* the subtitle wraps this much inside the canvas */
#define SUB_GAP 4          /* under the subtitle's last line */
#define LEG_EXTRA_ROWS 12  /* legend rows besides one per roof */
#define ABOVE_ROOF 1.005   /* a point this far above its roof is drawn as above it */
#define TICK_GAP 8         /* between x tick labels */
#define TICK_GAP_Y 4       /* between y tick labels */
#define TICK_MAX_STEP 12   /* decades between ticks, at most */
#define TITLE_SLACK 1.05   /* the title's width estimate, widened (bold) */
#define SQ_HALF 0.89       /* a square marker of the circle's area: half side sqrt(pi)/2 r */
#define SQ_SIDE 1.78
#define TRI_TOP 1.15       /* a triangle marker: apex above, base below the centre, in r */
#define TRI_BASE 0.6
#define W_RIDGE 1.8        /* the ridge diamond's stroke */
#define W_MARK 2           /* a bound (hollow) marker's stroke */
#define W_MARK_MEAS 1.2    /* a measured (filled) marker's stroke */
#define LEG_MARK_R 4.5     /* a legend's marker */
#define RL_PI 3.14159265358979323846

/* Okabe & Ito (2008): blue, vermillion, bluish green, reddish purple,
 * orange, sky blue, yellow (darkened to read on white), black. */
static const char *const palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                      "#E69F00", "#56B4E9", "#B59A00", "#000000"};
#define NPAL (sizeof palette / sizeof palette[0])
static const char *const dashes[] = {"", "9 4", "3 3", "12 4 3 4", "6 2 2 2", "2 5", "14 6"};
#define NDASH (sizeof dashes / sizeof dashes[0])
#define INK "#212529"
#define INK2 "#495057"

typedef struct box { double x0, y0, x1, y1; } box;
typedef struct seg { double x0, y0, x1, y1; } seg;
typedef struct claim { box b; int32_t kind, id; } claim;

/* ---- the layout's claims -------------------------------------------- */
/* Claims are indexed by a grid of GRID_PX cells over the canvas (a box
 * outside it is clamped to the border cells, which keeps every overlap
 * found), so that a label's cost looks at the claims near it, not at all
 * of them: a chart of n points is placed in O(n), not O(n^2). A cell that
 * holds more than CELL_MAX claims (or lines) is full, and blocks a label
 * as a claim would: only a chart that crowded (thousands of points) is
 * laid out otherwise than by the exact scan. */
#define GRID_PX 32
#define LABEL_TRY_MAX 400 /* point labels tried at most: no chart has room for more */
#define CELL_MAX 4096

typedef struct gcell {
  int32_t *v;
  int32_t n, cap; /* n < 0: full */
} gcell;

typedef struct layout {
  claim *c;
  size_t nc, capc;
  seg *s;
  size_t ns, caps;
  box area;        /* labels stay inside */
  int32_t next_id;
  int oom;
  int gw, gh;      /* the grid: boxes, lines; a line's stamp of the last query */
  gcell *gb, *gs;
  uint32_t *stamp;
  size_t capstamp;
  uint32_t qid;
} layout;

static void grid_init(layout *l, double w, double h) {
  l->gw = (int)fmin(fmax(ceil(w / GRID_PX), 1), 4096);
  l->gh = (int)fmin(fmax(ceil(h / GRID_PX), 1), 4096);
  l->gb = calloc((size_t)l->gw * (size_t)l->gh, sizeof *l->gb);
  l->gs = calloc((size_t)l->gw * (size_t)l->gh, sizeof *l->gs);
  if (!l->gb || !l->gs) l->oom = 1;
}

static void grid_free(layout *l) {
  for (int i = 0; l->gb && i < l->gw * l->gh; i++) free(l->gb[i].v);
  for (int i = 0; l->gs && i < l->gw * l->gh; i++) free(l->gs[i].v);
  free(l->gb);
  free(l->gs);
  free(l->stamp);
}

static int cell_of(double v, int n) {
  double c = floor(v / GRID_PX);
  return c < 0 || c != c ? 0 : c >= n ? n - 1 : (int)c;
}

/* The cells [cx0, cx1] x [cy0, cy1] a box covers. */
static void cells(const layout *l, box b, int *cx0, int *cy0, int *cx1, int *cy1) {
  *cx0 = cell_of(fmin(b.x0, b.x1), l->gw), *cx1 = cell_of(fmax(b.x0, b.x1), l->gw);
  *cy0 = cell_of(fmin(b.y0, b.y1), l->gh), *cy1 = cell_of(fmax(b.y0, b.y1), l->gh);
}

static void grid_add(layout *l, gcell *g, box b, size_t idx) {
  if (!g) return;
  int cx0, cy0, cx1, cy1;
  cells(l, b, &cx0, &cy0, &cx1, &cy1);
  for (int y = cy0; y <= cy1; y++)
    for (int x = cx0; x <= cx1; x++) {
      gcell *c = &g[y * l->gw + x];
      if (c->n < 0) continue;
      if (c->n >= CELL_MAX) {
        free(c->v);
        c->v = NULL;
        c->n = -1;
        continue;
      }
      size_t cap = (size_t)c->cap;
      if (!rli_grow((void **)&c->v, sizeof *c->v, (size_t)c->n + 1, &cap)) { l->oom = 1; return; }
      c->cap = (int32_t)cap;
      c->v[c->n++] = (int32_t)idx;
    }
}

static void claim_box(layout *l, box b, int32_t kind, int32_t id) {
  if (!rli_grow((void **)&l->c, sizeof *l->c, l->nc + 1, &l->capc)) { l->oom = 1; return; }
  l->c[l->nc++] = (claim){b, kind, id};
  grid_add(l, l->gb, b, l->nc - 1);
}

static void claim_seg(layout *l, double x0, double y0, double x1, double y1) {
  if (!rli_grow((void **)&l->s, sizeof *l->s, l->ns + 1, &l->caps) ||
      !rli_grow((void **)&l->stamp, sizeof *l->stamp, l->ns + 1, &l->capstamp)) { l->oom = 1; return; }
  l->stamp[l->ns] = 0;
  l->s[l->ns++] = (seg){x0, y0, x1, y1};
  grid_add(l, l->gs, (box){x0, y0, x1, y1}, l->ns - 1);
}

static int box_hit(box a, box b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

static box grow(box b, double d) { return (box){b.x0 - d, b.y0 - d, b.x1 + d, b.y1 + d}; }

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

/* The cost of boxes b[0..n) for a new label: INFINITY when one leaves the
 * area or overlaps a claimed box; else the lines it crosses. */
static double cost(layout *l, const box *b, int n) {
  double c = 0;
  int cx0, cy0, cx1, cy1;
  for (int k = 0; k < n; k++) {
    if (b[k].x0 < l->area.x0 || b[k].x1 > l->area.x1 || b[k].y0 < l->area.y0 || b[k].y1 > l->area.y1)
      return HUGE_VAL;
    box g = grow(b[k], PAD);
    cells(l, g, &cx0, &cy0, &cx1, &cy1);
    for (int y = cy0; y <= cy1; y++)
      for (int x = cx0; x <= cx1; x++) {
        const gcell *gc = &l->gb[y * l->gw + x];
        if (gc->n < 0) return HUGE_VAL;
        for (int32_t i = 0; i < gc->n; i++)
          if (box_hit(g, l->c[gc->v[i]].b)) return HUGE_VAL;
      }
    /* each line counted once per box, though it lies in several cells */
    if (++l->qid == 0) {
      for (size_t i = 0; i < l->ns; i++) l->stamp[i] = 0;
      l->qid = 1;
    }
    cells(l, b[k], &cx0, &cy0, &cx1, &cy1);
    for (int y = cy0; y <= cy1; y++)
      for (int x = cx0; x <= cx1; x++) {
        const gcell *gc = &l->gs[y * l->gw + x];
        if (gc->n < 0) return HUGE_VAL;
        for (int32_t i = 0; i < gc->n; i++) {
          int32_t s = gc->v[i];
          if (l->stamp[s] == l->qid) continue;
          l->stamp[s] = l->qid;
          if (seg_hit(l->s[s], b[k])) c += SEG_COST;
        }
      }
  }
  return c;
}

static double text_w(const char *s, double fs) { return (double)rli_utf8_len(s) * fs * CHAR_W; }
#define LAB_W(lab) (text_w((lab)->text, (lab)->fs) * ((lab)->bold ? BOLD_W : 1))

/* ---- phase 1: the frame ---------------------------------------------- */
typedef struct frame {
  double W, H;             /* canvas (H grows when the legend goes below) */
  double px0, px1, py0, py1;
  rli_axes ax;
  char sub[2][400];        /* the subtitle in at most two lines */
  int nsub;
  char title[2][400];      /* the title in at most two lines */
  int ntitle;
  double tdy;              /* what the title's second line moves down */
} frame;

static double X(const frame *f, double v) {
  return f->px0 + (log10(v) - f->ax.x0) / (f->ax.x1 - f->ax.x0) * (f->px1 - f->px0);
}
static double Y(const frame *f, double v) {
  return f->py1 - (log10(v) - f->ax.y0) / (f->ax.y1 - f->ax.y0) * (f->py1 - f->py0);
}

/* Break s into at most two lines of at most `cols` characters (at a
 * space; the second cut with an ellipsis when still too long). */
static int wrap2(const char *s, size_t cols, char out[2][400]) {
  char clean[800];
  rli_plot_clean(s, clean, sizeof clean, 0);
  out[0][0] = out[1][0] = 0;
  if (!clean[0]) return 0;
  size_t n = rli_utf8_len(clean);
  if (n <= cols) { rli_strlcpy(out[0], clean, sizeof out[0]); return 1; }
  /* the byte offset of character `cols`, and the last space before it */
  size_t chars = 0, cut = 0, sp = 0;
  for (size_t i = 0; clean[i]; i++) {
    if (((unsigned char)clean[i] & 0xC0) != 0x80) {
      if (chars == cols) { cut = i; break; }
      chars++;
    }
    if (clean[i] == ' ') sp = i;
  }
  if (!cut) cut = strlen(clean);
  size_t brk = sp > cols / 3 ? sp : cut;
  memcpy(out[0], clean, brk < sizeof out[0] ? brk : sizeof out[0] - 1);
  out[0][brk < sizeof out[0] ? brk : sizeof out[0] - 1] = 0;
  const char *rest = clean + brk + (clean[brk] == ' ');
  if (rli_utf8_len(rest) <= cols) {
    rli_strlcpy(out[1], rest, sizeof out[1]);
  } else {
    size_t k = 0, c = 0;
    while (rest[k] && c + 1 < cols && k + sizeof ELLIPSIS < sizeof out[1]) {
      if (((unsigned char)rest[k] & 0xC0) != 0x80) c++;
      k++;
    }
    while (k && ((unsigned char)rest[k] & 0xC0) == 0x80) k--;
    memcpy(out[1], rest, k);
    memcpy(out[1] + k, ELLIPSIS, sizeof ELLIPSIS);
  }
  return 2;
}

static void frame_init(const rl_plot *p, frame *f) {
  f->W = fmax(MIN_W, fmin(p->width > 0 ? p->width : DEF_W, MAX_WH));
  f->H = fmax(MIN_H, fmin(p->height > 0 ? p->height : DEF_H, MAX_WH));
  size_t cols = (size_t)((f->W - SUB_MARGIN) / (FS_SUB * CHAR_W));
  f->nsub = p->subtitle && *p->subtitle ? wrap2(p->subtitle, cols, f->sub) : 0;
  size_t tcols = (size_t)((f->W - EDGE2) / (FS_TITLE * CHAR_W * TITLE_SLACK));
  f->ntitle = wrap2(p->title && *p->title ? p->title : "Roofline", tcols, f->title);
  f->tdy = f->ntitle > 1 ? TITLE_STEP : 0;
  f->px1 = f->W - M_RIGHT;
  f->py0 = M_TOP + f->tdy + f->nsub * SUB_STEP + (f->nsub ? SUB_GAP : 0);
  f->py1 = f->H - M_BOTTOM;
  rli_plot_axes(p, &f->ax);
  /* the left margin holds the widest y tick label */
  double wmax = 0;
  for (int k = (int)ceil(f->ax.y0); k <= (int)floor(f->ax.y1); k++) {
    char t[48];
    rl_format_quantity(pow(10, k), RL_UNIT_FLOP_S, t, sizeof t);
    wmax = fmax(wmax, text_w(t, FS_TICK));
  }
  f->px0 = YTITLE_X + FS_AXIS * 0.5 + M_LEFT_GAP + wmax + YTICK_DX;
}

/* ---- phase 2: the lines, merged where they coincide ------------------ */
enum { LN_SLANT, LN_FLAT, LN_CEIL, LN_LEVEL };
#define LN_ROOFS 8 /* roofs named on one line */

typedef struct line {
  int kind;
  double v;          /* B/s (slanted) or FLOP/s (flat) */
  double ia, ib;     /* intensity range */
  int32_t roof[LN_ROOFS];
  int nroof;
  char name[LN_ROOFS][64];
  double val[LN_ROOFS]; /* each one's own value */
  int dash;          /* index into dashes */
} line;

typedef struct lines {
  line *v;
  size_t n, cap;
} lines;

static int roof_ok(const rl_plot_roof *r) { return r->peak > 0 && r->bandwidth > 0; }

static int hue_of(const rl_plot *p, int32_t roof) {
  if (roof < 0 || roof >= p->n_roofs) return -1;
  int c = p->roofs[roof].color;
  return (int)((size_t)(c > 0 ? c - 1 : roof) % NPAL);
}
static const char *color_of(const rl_plot *p, int32_t roof) {
  int h = hue_of(p, roof);
  return h < 0 ? INK2 : palette[h];
}

/* Where a slanted roof of bandwidth bw enters the plot (its intensity). */
static double enter_I(const frame *f, double bw) {
  return fmax(pow(10, f->ax.x0), pow(10, f->ax.y0) / bw);
}

static void add_line(lines *L, const frame *f, int kind, double v, double ia, double ib,
                     int32_t roof, const char *name, int dash) {
  if (!(v > 0) || !(ib > ia)) return;
  double pxdec = kind == LN_SLANT || kind == LN_LEVEL ? (f->py1 - f->py0) / (f->ax.y1 - f->ax.y0)
                                                      : (f->py1 - f->py0) / (f->ax.y1 - f->ax.y0);
  for (size_t i = 0; i < L->n; i++) {
    line *o = &L->v[i];
    int slant = kind == LN_SLANT || kind == LN_LEVEL, oslant = o->kind == LN_SLANT || o->kind == LN_LEVEL;
    if (slant != oslant || fabs(log10(o->v) - log10(v)) * pxdec >= MERGE_PX) continue;
    /* the same line: extend it, add the name once */
    o->ia = fmin(o->ia, ia);
    o->ib = fmax(o->ib, ib);
    if (kind < o->kind) o->kind = kind; /* a roof wins over a ceiling */
    for (int k = 0; k < o->nroof; k++)
      if (strcmp(o->name[k], name) == 0) return;
    if (o->nroof < LN_ROOFS) {
      o->val[o->nroof] = v;
      o->roof[o->nroof] = roof;
      rli_strlcpy(o->name[o->nroof++], name, sizeof o->name[0]);
    }
    return;
  }
  if (!rli_grow((void **)&L->v, sizeof *L->v, L->n + 1, &L->cap)) return;
  line *o = &L->v[L->n++];
  memset(o, 0, sizeof *o);
  o->kind = kind, o->v = v, o->ia = ia, o->ib = ib, o->dash = dash;
  o->roof[0] = roof;
  o->val[0] = v;
  o->nroof = 1;
  rli_strlcpy(o->name[0], name, sizeof o->name[0]);
}

static int n_devices(const rl_plot *p) {
  int seen[NPAL] = {0}, n = 0;
  for (int32_t i = 0; i < p->n_roofs; i++) {
    int h = hue_of(p, i);
    if (h >= 0 && !seen[h]) seen[h] = 1, n++;
  }
  return n;
}

/* Do the roofs all have the same ceilings (one device drawn as several
 * roofs, e.g. one per memory level)? Then they are drawn once whatever
 * the number of hues. */
static int same_ceilings(const rl_plot *p) {
  const rl_plot_roof *a = NULL;
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!roof_ok(r)) continue;
    if (!a) { a = r; continue; }
    if (r->n_ceilings != a->n_ceilings) return 0;
    for (int32_t c = 0; c < r->n_ceilings && c < RL_PLOT_CEILINGS; c++)
      if (r->ceiling[c] != a->ceiling[c]) return 0;
  }
  return 1;
}

static void build_lines(const rl_plot *p, const frame *f, lines *L) {
  double Imax = pow(10, f->ax.x1);
  int ceilings = n_devices(p) <= MAX_DEVICE_CEILINGS || same_ceilings(p);
  /* flat roofs first (they take the label priority), then slanted */
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!roof_ok(r)) continue;
    char nm[64];
    rli_plot_clean(r->peak_name[0] ? r->peak_name : r->label, nm, sizeof nm, 0);
    /* from the ridge of its fastest slanted roof */
    double bw = r->bandwidth;
    for (int32_t k = 0; k < r->n_levels && k < RL_PLOT_LEVELS; k++) bw = fmax(bw, r->level_bw[k]);
    add_line(L, f, LN_FLAT, r->peak, r->peak / bw, Imax, i, nm,
             r->dash > 0 ? (int)((size_t)(r->dash - 1) % NDASH) : 0);
  }
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!roof_ok(r)) continue;
    char nm[64];
    rli_plot_clean(r->bw_name, nm, sizeof nm, 0);
    add_line(L, f, LN_SLANT, r->bandwidth, enter_I(f, r->bandwidth), r->peak / r->bandwidth, i, nm, 0);
    for (int32_t k = 0; k < r->n_levels && k < RL_PLOT_LEVELS; k++) {
      rli_plot_clean(r->level_name[k], nm, sizeof nm, 0);
      add_line(L, f, LN_LEVEL, r->level_bw[k], enter_I(f, r->level_bw[k]), r->peak / r->level_bw[k], i,
               nm, 0);
    }
  }
  if (!ceilings) return;
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!roof_ok(r)) continue;
    for (int32_t c = 0; c < r->n_ceilings && c < RL_PLOT_CEILINGS; c++) {
      char nm[64];
      rli_plot_clean(r->ceiling_label[c], nm, sizeof nm, 0);
      if (!(r->ceiling[c] < r->peak)) continue;
      add_line(L, f, LN_CEIL, r->ceiling[c], r->ceiling[c] / r->bandwidth, Imax, i, nm, 0);
    }
  }
}

/* The text of a line's label: its names and value; lines merged from
 * roofs whose values print differently name each value. */
static void line_text(const line *ln, char *t, size_t cap) {
  int slant = ln->kind == LN_SLANT || ln->kind == LN_LEVEL;
  rl_unit u = slant ? RL_UNIT_BYTES_S : RL_UNIT_FLOP_S;
  char a[48], b[48];
  int same = 1;
  rli_plot_q(a, sizeof a, ln->val[0], u);
  for (int k = 1; k < ln->nroof; k++) same &= strcmp(rli_plot_q(b, sizeof b, ln->val[k], u), a) == 0;
  rli_out o;
  rli_out_init(&o, t, cap);
  int named = 0;
  for (int k = 0; k < ln->nroof; k++) {
    if (!ln->name[k][0] && same) continue;
    rli_out_printf(&o, "%s%s", named ? (same ? " = " : ", ") : "", ln->name[k]);
    if (!same) {
      /* the number alone, the unit once at the end */
      rli_plot_q(b, sizeof b, ln->val[k], u);
      char *sp = strrchr(b, ' ');
      if (sp && k + 1 < ln->nroof) *sp = 0;
      rli_out_printf(&o, "%s%s", ln->name[k][0] ? " " : "", b);
    }
    named = 1;
  }
  if (same) rli_out_printf(&o, "%s%s", named ? " " : "", a);
  rli_out_end(&o);
}

/* ---- labels ----------------------------------------------------------- */
typedef struct label {
  char text[200];
  double x, y, fs, angle; /* baseline start; angle in degrees (SVG rotate) */
  const char *color;
  int bold;
  int leader;             /* a leader line from (mx, my) to (lx, ly) */
  double mx, my, lx, ly;
  int32_t point;          /* the point it names, -1 none */
  int32_t kind;           /* RL_BOX_* */
} label;

typedef struct labels {
  label *v;
  size_t n, cap;
} labels;

static label *new_label(labels *L, const char *text, double fs, const char *color, int32_t kind) {
  if (!rli_grow((void **)&L->v, sizeof *L->v, L->n + 1, &L->cap)) return NULL;
  label *lab = &L->v[L->n];
  memset(lab, 0, sizeof *lab);
  rli_plot_clean(text, lab->text, sizeof lab->text, 0);
  lab->fs = fs, lab->color = color, lab->point = -1, lab->kind = kind;
  return lab;
}

/* Keep the cheapest of n candidate horizontal boxes; 0 when none fits. */
static int place_boxes(layout *l, labels *L, label *lab, const box *cand, int n) {
  double best = HUGE_VAL;
  int bi = -1;
  for (int i = 0; i < n; i++) {
    double c = cost(l, &cand[i], 1) + i * 0.5;
    if (c < best) best = c, bi = i;
  }
  if (bi < 0) return 0;
  lab->x = cand[bi].x0;
  lab->y = cand[bi].y1 - lab->fs * DESCENT;
  int32_t id = l->next_id++;
  claim_box(l, cand[bi], lab->kind, id);
  L->n++;
  return 1;
}

/* The boxes a text of width w along direction ang (radians) from (x, y)
 * covers: squares of about fs along its baseline. */
static int rot_boxes(double x, double y, double ang, double w, double fs, box *out, int cap) {
  double cx = cos(ang), cy = sin(ang), ux = sin(ang), uy = -cos(ang);
  int n = 0;
  for (double s = 0; s < w && n < cap; s += fs * 0.8) {
    /* the font's cell: 0.93 em above the baseline, 0.24 below */
    double mx = x + cx * (s + fs * 0.4) + ux * fs * 0.345, my = y + cy * (s + fs * 0.4) + uy * fs * 0.345;
    out[n++] = (box){mx - fs * 0.6, my - fs * 0.6, mx + fs * 0.6, my + fs * 0.6};
  }
  return n;
}

#define ROT_MAX 96
/* A label along the segment (ax, ay) -> (bx, by), above or below it. */
static int place_along(layout *l, labels *L, label *lab, double ax, double ay, double bx, double by) {
  double dx = bx - ax, dy = by - ay, len = sqrt(dx * dx + dy * dy);
  double ang = atan2(dy, dx), w = text_w(lab->text, lab->fs);
  static const double ts[] = {0.12, 0.3, 0.45, 0.05, 0.6, 0.22, 0.75, 0.38, 0.52};
  double best = HUGE_VAL, bxs = ax, bys = ay;
  box bb[ROT_MAX], bestb[ROT_MAX];
  int nbest = 0;
  if (!(len > w)) return 0;
  for (int side = 0; side < 2; side++)
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
      if (ts[i] * len + w > len) continue;
      double off = side == 0 ? ALONG_GAP : -(lab->fs + ALONG_GAP);
      double sx = ax + dx / len * ts[i] * len + sin(ang) * off;
      double sy = ay + dy / len * ts[i] * len - cos(ang) * off;
      int n = rot_boxes(sx, sy, ang, w, lab->fs, bb, ROT_MAX);
      double c = cost(l, bb, n) + (double)i + side * 3;
      if (c < best) {
        best = c, bxs = sx, bys = sy, nbest = n;
        memcpy(bestb, bb, (size_t)n * sizeof *bb);
      }
    }
  if (!isfinite(best)) return 0;
  int32_t id = l->next_id++;
  for (int i = 0; i < nbest; i++) claim_box(l, bestb[i], lab->kind, id);
  lab->x = bxs, lab->y = bys, lab->angle = ang * 180 / RL_PI;
  L->n++;
  return 1;
}

/* A point's label near its marker (radius r at (px, py)): beside it, else
 * further away with a leader line. */
static int place_point(layout *l, labels *L, label *lab, double px, double py, double r) {
  static const double dirs[][2] = {{1, 0}, {-1, 0}, {0, -1}, {0, 1}, {1, -1}, {1, 1}, {-1, -1}, {-1, 1}};
  static const double dist[] = {0, 12, 26, 44, 66, 100, 150};
  double w = text_w(lab->text, lab->fs), h = lab->fs * TEXT_H;
  for (size_t d = 0; d < sizeof dist / sizeof dist[0]; d++) {
    double best = HUGE_VAL;
    box bb = {0, 0, 0, 0};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
      double ux = dirs[i][0], uy = dirs[i][1], gap = r + LABEL_GAP + dist[d];
      double cx = ux == 0 ? px : px + ux * (gap + w / 2), cy = uy == 0 ? py : py + uy * (gap + h / 2);
      box b = {cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2};
      double c = cost(l, &b, 1) + (double)i * 0.5;
      if (c < best) best = c, bb = b;
    }
    if (!isfinite(best)) continue;
    lab->x = bb.x0;
    lab->y = bb.y1 - lab->fs * DESCENT;
    lab->leader = d > 0;
    if (lab->leader) {
      /* from the marker's edge to the nearest point of the box */
      double lx = fmin(fmax(px, bb.x0), bb.x1), ly = fmin(fmax(py, bb.y0), bb.y1);
      double vx = lx - px, vy = ly - py, n = sqrt(vx * vx + vy * vy);
      lab->mx = px + (n > 0 ? vx / n * r : 0), lab->my = py + (n > 0 ? vy / n * r : 0);
      lab->lx = lx, lab->ly = ly;
      claim_seg(l, lab->mx, lab->my, lx, ly);
    }
    int32_t id = l->next_id++;
    claim_box(l, bb, lab->kind, id);
    L->n++;
    return 1;
  }
  return 0;
}

/* ---- the whole layout ------------------------------------------------- */
typedef struct legend_row {
  char text[240];
  int kind;       /* LR_ROOF, LR_LEVEL, LR_CEIL, LR_RIDGE, LR_BOUND, LR_MEAS, LR_AREA, LR_OVER, LR_MORE */
  int32_t roof;
} legend_row;
enum { LR_ROOF, LR_LEVEL, LR_CEIL, LR_RIDGE, LR_BOUND, LR_MEAS, LR_AREA, LR_OVER, LR_NOCEIL, LR_MORE };

typedef struct chart {
  frame f;
  layout l;
  lines lines;
  labels L;
  double *mr;          /* per point: marker radius (0: not drawn) */
  legend_row *leg;
  int nleg;
  box legb;            /* legend box */
  int dropped;         /* point labels left out */
  int dropped_lines;   /* line labels left out (their roofs are in the legend) */
  int32_t *gnext;      /* per point: the next drawable point of its group, or -1 */
  unsigned char *gfirst; /* per point: no earlier point has its group */
} chart;

static double legend_w(const chart *c) {
  double w = 0;
  for (int i = 0; i < c->nleg; i++) w = fmax(w, text_w(c->leg[i].text, FS_LEGEND));
  return w + LEG_TEXT_DX + LEG_PAD;
}

static void add_leg(chart *c, int kind, int32_t roof, const char *text) {
  legend_row *r = &c->leg[c->nleg++];
  r->kind = kind, r->roof = roof;
  rli_strlcpy(r->text, text, sizeof r->text);
}

/* Is roof i's ridge point drawn already (an earlier roof's, within the
 * drawing resolution)? */
static int same_ridge(const rl_plot *p, const frame *f, int32_t i) {
  const rl_plot_roof *r = &p->roofs[i];
  for (int32_t j = 0; j < i; j++) {
    const rl_plot_roof *o = &p->roofs[j];
    if (!roof_ok(o)) continue;
    if (fabs(X(f, o->peak / o->bandwidth) - X(f, r->peak / r->bandwidth)) < MERGE_PX &&
        fabs(Y(f, o->peak) - Y(f, r->peak)) < MERGE_PX)
      return 1;
  }
  return 0;
}

/* A group's line joins point i to the next drawable point of its group:
 * that point's index, or -1 (not grouped, not drawable, or the last). */
static int32_t group_next(const chart *c, int32_t i) { return c->gnext[i]; }

/* gnext and gfirst in one pass from the last point back, through a hash
 * of the groups (open addressing): O(n) for n points in any groups. */
static int group_links(const rl_plot *p, chart *c) {
  int32_t n = p->n_points;
  c->gnext = malloc(((size_t)n + 1) * sizeof *c->gnext);
  c->gfirst = malloc((size_t)n + 1);
  size_t ns = 64;
  while (ns < 2 * (size_t)n) ns *= 2;
  int32_t *key = malloc(ns * sizeof *key), *any = malloc(ns * sizeof *any), *ok = malloc(ns * sizeof *ok);
  if (!c->gnext || !c->gfirst || !key || !any || !ok) {
    free(key), free(any), free(ok);
    return -1;
  }
  for (size_t k = 0; k < ns; k++) key[k] = 0, any[k] = ok[k] = -1; /* key 0: empty (groups are > 0) */
  /* backwards: any[] the earliest point seen of the group, ok[] the
   * earliest drawable one after i */
  for (int32_t i = n - 1; i >= 0; i--) {
    const rl_plot_point *a = &p->points[i];
    c->gnext[i] = -1;
    c->gfirst[i] = 1;
    if (a->group <= 0) continue;
    size_t h = (size_t)((uint32_t)a->group * 2654435761u) & (ns - 1);
    while (key[h] && key[h] != a->group) h = (h + 1) & (ns - 1);
    key[h] = a->group;
    int drawable = rli_plot_point_ok(a);
    if (drawable) c->gnext[i] = ok[h];
    if (drawable) ok[h] = i;
    any[h] = i;
  }
  /* forwards: a point is its group's first when it is the earliest seen */
  for (int32_t i = 0; i < n; i++) {
    const rl_plot_point *a = &p->points[i];
    if (a->group <= 0) continue;
    size_t h = (size_t)((uint32_t)a->group * 2654435761u) & (ns - 1);
    while (key[h] != a->group) h = (h + 1) & (ns - 1);
    c->gfirst[i] = any[h] == i;
  }
  free(key), free(any), free(ok);
  return 0;
}

/* Phase 3: what the labels must avoid -- markers, lines. */
static void claim_geometry(const rl_plot *p, chart *c) {
  frame *f = &c->f;
  layout *l = &c->l;
  for (size_t i = 0; i < c->lines.n; i++) {
    const line *ln = &c->lines.v[i];
    if (ln->kind == LN_SLANT || ln->kind == LN_LEVEL)
      claim_seg(l, X(f, ln->ia), Y(f, ln->v * ln->ia), X(f, ln->ib), Y(f, ln->v * ln->ib));
    else
      claim_seg(l, X(f, ln->ia), Y(f, ln->v), X(f, ln->ib), Y(f, ln->v));
  }
  /* ridge markers */
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!roof_ok(r) || same_ridge(p, f, i)) continue;
    double x = X(f, r->peak / r->bandwidth), y = Y(f, r->peak);
    claim_box(l, (box){x - RIDGE_R, y - RIDGE_R, x + RIDGE_R, y + RIDGE_R}, RL_BOX_MARKER, l->next_id++);
  }
  /* point markers (their area proportional to time when asked) */
  double tmax = 0;
  for (int32_t i = 0; i < p->n_points; i++)
    if (rli_plot_point_ok(&p->points[i]) && p->points[i].time_s > tmax) tmax = p->points[i].time_s;
  int area = (p->flags & RL_PLOT_AREA_TIME) && tmax > 0;
  for (int32_t i = 0; i < p->n_points; i++) {
    const rl_plot_point *pt = &p->points[i];
    if (!rli_plot_point_ok(pt)) continue;
    double r = MARK_R;
    if (area) r = fmax(MARK_R_MIN, MARK_R_MAX * sqrt(fmax(pt->time_s, 0) / tmax));
    c->mr[i] = r;
    double x = X(f, pt->intensity), y = Y(f, pt->perf);
    claim_box(l, (box){x - r, y - r, x + r, y + r}, RL_BOX_MARKER, l->next_id++);
    if (pt->measured && pt->roof_perf > pt->perf) claim_seg(l, x, y, x, Y(f, pt->roof_perf));
  }
  /* group lines */
  for (int32_t i = 0; i < p->n_points; i++) {
    int32_t j = group_next(c, i);
    if (j < 0) continue;
    const rl_plot_point *a = &p->points[i], *b = &p->points[j];
    claim_seg(l, X(f, a->intensity), Y(f, a->perf), X(f, b->intensity), Y(f, b->perf));
  }
}

/* Phase 4: the legend's rows, and its place: a corner of the plot that
 * covers no marker (fewest lines crossed), else under the chart. */
static void build_legend(const rl_plot *p, chart *c, int any_over) {
  int any_ceil = 0, any_level = 0, any_meas = 0, any_bound = 0, ceil_skipped = 0;
  for (size_t i = 0; i < c->lines.n; i++) {
    any_ceil |= c->lines.v[i].kind == LN_CEIL;
    any_level |= c->lines.v[i].kind == LN_LEVEL;
  }
  for (int32_t i = 0; i < p->n_roofs; i++) ceil_skipped |= p->roofs[i].n_ceilings > 0;
  ceil_skipped = ceil_skipped && n_devices(p) > MAX_DEVICE_CEILINGS && !same_ceilings(p);
  for (int32_t i = 0; i < p->n_points; i++) {
    if (!rli_plot_point_ok(&p->points[i])) continue;
    if (p->points[i].measured) any_meas = 1;
    else any_bound = 1;
  }
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!roof_ok(r)) continue;
    char a[48], b[48], d[48], clean[RL_HW_TEXT_MAX], t[240];
    rli_plot_clean(r->label, clean, sizeof clean, 0);
    snprintf(t, sizeof t, "%s: %s, %s%s%s, ridge %s", clean, rli_plot_q(a, sizeof a, r->peak, RL_UNIT_FLOP_S),
             r->bw_name[0] ? r->bw_name : "", r->bw_name[0] ? " " : "",
             rli_plot_q(b, sizeof b, r->bandwidth, RL_UNIT_BYTES_S),
             rli_plot_q(d, sizeof d, r->peak / r->bandwidth, RL_UNIT_FLOP_PER_BYTE));
    add_leg(c, LR_ROOF, i, t);
  }
  if (any_level) add_leg(c, LR_LEVEL, -1, "cache levels: thinner slanted roofs");
  if (any_ceil) add_leg(c, LR_CEIL, -1, "lower ceilings (the peaks of other units or formats)");
  if (ceil_skipped) add_leg(c, LR_NOCEIL, -1, "vector ceilings: shown for at most 2 devices");
  add_leg(c, LR_RIDGE, -1, "ridge point (peak / bandwidth)");
  if (any_bound) add_leg(c, LR_BOUND, -1, "op at its roofline bound (not measured)");
  if (any_meas) add_leg(c, LR_MEAS, -1, "measured (x%: of its own roof; dashed: the gap up to it)");
  if ((p->flags & RL_PLOT_AREA_TIME) && any_meas) add_leg(c, LR_AREA, -1, "marker area: time spent");
  if (any_over) add_leg(c, LR_OVER, -1, "over 100%: above its roof (a roof measured low, or a faster level)");
}

static void place_legend(chart *c, int more_row) {
  frame *f = &c->f;
  double lw = legend_w(c), lh = c->nleg * LEG_ROW + LEG_PAD + (more_row ? 0 : 0);
  box cand[4] = {{f->px0 + LEG_INSET, f->py0 + LEG_INSET, f->px0 + LEG_INSET + lw, f->py0 + LEG_INSET + lh},
                 {f->px1 - LEG_INSET - lw, f->py1 - LEG_INSET - lh, f->px1 - LEG_INSET, f->py1 - LEG_INSET},
                 {f->px0 + LEG_INSET, f->py1 - LEG_INSET - lh, f->px0 + LEG_INSET + lw, f->py1 - LEG_INSET},
                 {f->px1 - LEG_INSET - lw, f->py0 + LEG_INSET, f->px1 - LEG_INSET, f->py0 + LEG_INSET + lh}};
  double best = HUGE_VAL;
  int bi = -1;
  for (int i = 0; i < 4; i++) {
    double cst = cost(&c->l, &cand[i], 1) + i;
    if (cst < best) best = cst, bi = i;
  }
  if (bi >= 0 && best < SEG_COST * LEG_MAX_CROSS) {
    c->legb = cand[bi];
  } else {
    /* under the chart: the canvas grows; rows too long for the canvas
     * are cut (their figures are in the tooltips and the other rows) */
    size_t cols = (size_t)fmax(EDGE2, (f->W - EDGE2 - LEG_TEXT_DX - LEG_PAD) / (FS_LEGEND * CHAR_W));
    for (int i = 0; i < c->nleg; i++) {
      char *t = c->leg[i].text;
      if (rli_utf8_len(t) <= cols) continue;
      size_t k = 0, ch = 0;
      while (t[k] && ch + 1 < cols) {
        if (((unsigned char)t[k] & 0xC0) != 0x80) ch++;
        k++;
      }
      while (k && ((unsigned char)t[k] & 0xC0) == 0x80) k--;
      if (k + sizeof ELLIPSIS <= sizeof c->leg[i].text) memcpy(t + k, ELLIPSIS, sizeof ELLIPSIS);
    }
    lw = legend_w(c);
    double y0 = f->H + LEG_BELOW_GAP - EDGE, x0 = fmax(EDGE, fmin(f->px0, f->W - EDGE - lw));
    c->legb = (box){x0, y0, x0 + lw, y0 + lh};
    f->H = c->legb.y1 + LEG_BELOW_GAP;
  }
  claim_box(&c->l, c->legb, RL_BOX_LEGEND, c->l.next_id++);
}

/* Phase 5: the lines' labels: flat roofs, slanted roofs, ceilings, then
 * the ridges; a label that does not fit is left to the legend. */
static void place_line_labels(const rl_plot *p, chart *c, int pass) {
  frame *f = &c->f;
  for (size_t i = 0; i < c->lines.n; i++) {
    const line *ln = &c->lines.v[i];
    int flat = ln->kind == LN_FLAT || ln->kind == LN_CEIL;
    if ((pass == 0) != (ln->kind == LN_FLAT || ln->kind == LN_SLANT)) continue;
    char t[240];
    line_text(ln, t, sizeof t);
    double fs = ln->kind == LN_FLAT ? FS_ROOF : ln->kind == LN_SLANT ? FS_SLANT : FS_CEIL;
    label *lab = new_label(&c->L, t, fs, color_of(p, ln->roof[0]), RL_BOX_LINE_LABEL);
    if (!lab) continue;
    lab->bold = ln->kind == LN_FLAT;
    int ok;
    if (flat) {
      double y = Y(f, ln->v), w = LAB_W(lab), h = fs * TEXT_H;
      double xr = f->px1 - INSET - 4, xl = fmax(X(f, ln->ia) + 6, f->px0 + INSET);
      box cand[48];
      int n = 0;
      /* above the line, below it, then a row further out; from the
       * right end leftwards */
      for (int k = 0; k < 4; k++)
        for (int s = 0; s < 6 && n < 48; s++) {
          double x1 = xr - s * fmax(0, xr - xl - w) / 5;
          double top = k % 2 == 0 ? y - LINE_GAP - h * (1 + k / 2) : y + LINE_GAP + h * (k / 2);
          cand[n++] = (box){x1 - w, top, x1, top + h};
          if (x1 - w <= xl) break;
        }
      ok = place_boxes(&c->l, &c->L, lab, cand, n);
    } else {
      double ib = fmin(ln->ib, pow(10, f->ax.x1));
      ok = place_along(&c->l, &c->L, lab, X(f, ln->ia), Y(f, ln->v * ln->ia), X(f, ib), Y(f, ln->v * ib));
    }
    c->dropped_lines += !ok;
  }
  if (pass == 0) return;
  /* ridge labels: vertical beside the ridge's drop line */
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!roof_ok(r) || same_ridge(p, f, i)) continue;
    double ridge = r->peak / r->bandwidth, x = X(f, ridge), ytop = Y(f, r->peak);
    if (x < f->px0 || x > f->px1) continue;
    char t[64], a[48];
    snprintf(t, sizeof t, "ridge %s", rli_plot_q(a, sizeof a, ridge, RL_UNIT_FLOP_PER_BYTE));
    label *lab = new_label(&c->L, t, FS_CEIL, color_of(p, i), RL_BOX_LINE_LABEL);
    if (!lab) continue;
    double w = text_w(lab->text, lab->fs), best = HUGE_VAL, bx = x, by = f->py1;
    box bb[ROT_MAX], bestb[ROT_MAX];
    int nbest = 0;
    for (int k = 0; k < 6; k++)
      for (int side = 0; side < 2; side++) {
        double y0 = f->py1 - INSET - 4 - k * RIDGE_STEP;
        if (y0 - w < ytop + RIDGE_R + 4) continue;
        double x0 = side == 0 ? x - 3 : x + lab->fs + 1;
        int n = rot_boxes(x0, y0, -RL_PI / 2, w, lab->fs, bb, ROT_MAX);
        double cst = cost(&c->l, bb, n) + k * 3 + side;
        if (cst < best) {
          best = cst, bx = x0, by = y0, nbest = n;
          memcpy(bestb, bb, (size_t)n * sizeof *bb);
        }
      }
    if (!isfinite(best)) continue; /* the legend has it */
    int32_t id = c->l.next_id++;
    for (int k = 0; k < nbest; k++) claim_box(&c->l, bestb[k], RL_BOX_LINE_LABEL, id);
    lab->x = bx, lab->y = by, lab->angle = -90;
    c->L.n++;
  }
}

/* Phase 6: the points' labels, in order of the points (the caller's order
 * is its priority); "name (x% of roof)" when measured. */
static void place_point_labels(const rl_plot *p, chart *c) {
  frame *f = &c->f;
  int32_t tries = 0;
  for (int32_t i = 0; i < p->n_points; i++) {
    const rl_plot_point *pt = &p->points[i];
    if (!rli_plot_point_ok(pt)) continue;
    if (!c->gfirst[i]) continue;
    char t[200], clean[RL_PLOT_LABEL_MAX];
    rli_plot_clean(pt->label, clean, sizeof clean, 0);
    if (!clean[0]) continue;
    if (tries++ >= LABEL_TRY_MAX) { /* the rest are in the tooltips */
      c->dropped++;
      continue;
    }
    if (pt->measured && pt->roof_perf > 0)
      snprintf(t, sizeof t, "%s (%.0f%%)", clean, 100 * pt->perf / pt->roof_perf);
    else
      snprintf(t, sizeof t, "%s", clean);
    label *lab = new_label(&c->L, t, FS_POINT, INK, RL_BOX_POINT_LABEL);
    if (!lab) continue;
    lab->point = i;
    if (!place_point(&c->l, &c->L, lab, X(f, pt->intensity), Y(f, pt->perf), c->mr[i])) c->dropped++;
  }
}

static void chart_free(chart *c) {
  grid_free(&c->l);
  free(c->gnext);
  free(c->gfirst);
  free(c->l.c);
  free(c->l.s);
  free(c->lines.v);
  free(c->L.v);
  free(c->mr);
  free(c->leg);
}

static int chart_layout(const rl_plot *p, chart *c) {
  memset(c, 0, sizeof *c);
  frame *f = &c->f;
  frame_init(p, f);
  c->l.area = (box){f->px0 + INSET, f->py0 + INSET, f->px1 - INSET, f->py1 - INSET};
  c->mr = calloc((size_t)p->n_points + 1, sizeof *c->mr);
  c->leg = calloc((size_t)p->n_roofs + LEG_EXTRA_ROWS, sizeof *c->leg);
  if (!c->mr || !c->leg) return -1;
  grid_init(&c->l, f->W, f->H);
  if (c->l.oom || group_links(p, c)) return -1;
  build_lines(p, f, &c->lines);
  claim_geometry(p, c);
  int any_over = 0;
  for (int32_t i = 0; i < p->n_points; i++) {
    const rl_plot_point *pt = &p->points[i];
    if (rli_plot_point_ok(pt) && pt->measured && pt->roof_perf > 0 && pt->perf > pt->roof_perf * ABOVE_ROOF)
      any_over = 1;
  }
  build_legend(p, c, any_over);
  place_legend(c, 0);
  place_line_labels(p, c, 0);
  place_point_labels(p, c);
  place_line_labels(p, c, 1);
  if (c->dropped) {
    /* the note: under the legend's last row when it is inside the
     * plot, else at the plot's bottom-right corner */
    char t[96];
    snprintf(t, sizeof t, "+%d more point%s: hover the markers", c->dropped, c->dropped > 1 ? "s" : "");
    label *lab = new_label(&c->L, t, FS_NOTE, INK2, RL_BOX_NOTE);
    if (lab) {
      double w = text_w(t, FS_NOTE), h = FS_NOTE * TEXT_H;
      box cand[6] = {{c->legb.x0, c->legb.y1 + 3, c->legb.x0 + w, c->legb.y1 + 3 + h},
                     {c->legb.x0, c->legb.y0 - 3 - h, c->legb.x0 + w, c->legb.y0 - 3},
                     {f->px1 - INSET - 2 - w, f->py1 - INSET - 2 - h, f->px1 - INSET - 2, f->py1 - INSET - 2},
                     {f->px0 + INSET + 2, f->py1 - INSET - 2 - h, f->px0 + INSET + 2 + w, f->py1 - INSET - 2},
                     {f->px1 - INSET - 2 - w, f->py0 + INSET + 2, f->px1 - INSET - 2, f->py0 + INSET + 2 + h},
                     {f->px0 + INSET + 2, f->py0 + INSET + 2, f->px0 + INSET + 2 + w, f->py0 + INSET + 2 + h}};
      if (!place_boxes(&c->l, &c->L, lab, cand, 6)) {
        /* no room inside: under everything, the canvas grows */
        double y = f->H;
        f->H += h + 4;
        box b = {EDGE, y, EDGE + w, y + h};
        lab->x = b.x0, lab->y = b.y1 - FS_NOTE * DESCENT;
        claim_box(&c->l, b, RL_BOX_NOTE, c->l.next_id++);
        c->L.n++;
      }
    }
  }
  return c->l.oom ? -1 : 0;
}

/* ---- phase 7: the document ------------------------------------------- */
static void tick_text(char *buf, size_t cap, int k, int y_axis) {
  if (y_axis) rl_format_quantity(pow(10, k), RL_UNIT_FLOP_S, buf, cap);
  else if (k < 0 && k >= -4) snprintf(buf, cap, "%.*f FLOP/B", -k, pow(10, k));
  else if (k >= 0 && k <= 5) snprintf(buf, cap, "%.0f FLOP/B", pow(10, k));
  else snprintf(buf, cap, "1e%d FLOP/B", k);
}

/* Every how many decades the x axis is labelled (labels must not touch). */
static int x_tick_step(const frame *f) {
  double pxdec = (f->px1 - f->px0) / (f->ax.x1 - f->ax.x0), w = text_w("0.001 FLOP/B", FS_TICK) + TICK_GAP;
  int s = 1;
  while (s * pxdec < w && s < TICK_MAX_STEP) s++;
  return s;
}
/* Is decade k's x label drawn (on the step, inside the canvas)? */
static int x_tick_shown(const frame *f, int k, int step) {
  if (k % step) return 0;
  char t[48];
  tick_text(t, sizeof t, k, 0);
  double x = X(f, pow(10, k)), w = text_w(t, FS_TICK);
  return x - w / 2 >= 2 && x + w / 2 <= f->W - 2;
}
static int y_tick_step(const frame *f) {
  double pxdec = (f->py1 - f->py0) / (f->ax.y1 - f->ax.y0);
  int s = 1;
  while (s * pxdec < FS_TICK * TEXT_H + TICK_GAP_Y && s < TICK_MAX_STEP) s++;
  return s;
}

/* The axis titles, shortened when the plot is too small for them. */
static const char *x_title(const frame *f) {
  const char *t = "Arithmetic intensity I = F/Q (FLOP/B, log scale)";
  return text_w(t, FS_AXIS) <= f->px1 - f->px0 ? t : "Intensity (FLOP/B, log)";
}
static const char *y_title(const frame *f) {
  const char *t = "Performance (FLOP/s, log scale)";
  return text_w(t, FS_AXIS) <= f->py1 - f->py0 ? t : "FLOP/s (log)";
}

/* The axes' texts as boxes (for rl_plot_boxes), and the titles. */
static void text_boxes(const chart *c, rl_plot_box *out, size_t cap, size_t *n) {
  const frame *f = &c->f;
  char t[64];
#define PUT(k, bx)                                                        \
  do {                                                                    \
    if (*n < cap) { box b_ = (bx); out[*n] = (rl_plot_box){(k), (int32_t)(100000 + *n), b_.x0, b_.y0, b_.x1, b_.y1}; } \
    (*n)++;                                                               \
  } while (0)
  int sx = x_tick_step(f), sy = y_tick_step(f);
  for (int k = (int)ceil(f->ax.x0); k <= (int)floor(f->ax.x1); k++) {
    if (!x_tick_shown(f, k, sx)) continue;
    tick_text(t, sizeof t, k, 0);
    double x = X(f, pow(10, k)), w = text_w(t, FS_TICK);
    PUT(RL_BOX_AXIS, ((box){x - w / 2, f->py1 + XTICK_DY - FS_TICK, x + w / 2, f->py1 + XTICK_DY + 3}));
  }
  for (int k = (int)ceil(f->ax.y0); k <= (int)floor(f->ax.y1); k++) {
    if (k % sy) continue;
    tick_text(t, sizeof t, k, 1);
    double y = Y(f, pow(10, k)) + 4, w = text_w(t, FS_TICK);
    PUT(RL_BOX_AXIS, ((box){f->px0 - YTICK_DX - w, y - FS_TICK, f->px0 - YTICK_DX, y + 3}));
  }
  const char *xt = x_title(f), *yt = y_title(f);
  double xw = text_w(xt, FS_AXIS), yw = text_w(yt, FS_AXIS), xc = (f->px0 + f->px1) / 2;
  double ybase = f->py1 + M_BOTTOM - XTITLE_DY, yc = (f->py0 + f->py1) / 2;
  PUT(RL_BOX_AXIS, ((box){xc - xw / 2, ybase - FS_AXIS, xc + xw / 2, ybase + 3}));
  PUT(RL_BOX_AXIS, ((box){YTITLE_X - FS_AXIS * 0.8, yc - yw / 2, YTITLE_X + FS_AXIS * 0.4, yc + yw / 2}));
  for (int i = 0; i < f->ntitle; i++) {
    double tw = fmin(text_w(f->title[i], FS_TITLE) * TITLE_SLACK, f->W - EDGE2), y = TITLE_Y + i * TITLE_STEP;
    PUT(RL_BOX_TITLE, ((box){f->W / 2 - tw / 2, y - FS_TITLE, f->W / 2 + tw / 2, y + 4}));
  }
  for (int i = 0; i < f->nsub; i++) {
    double sw = text_w(f->sub[i], FS_SUB), y = SUB_Y0 + f->tdy + i * SUB_STEP;
    PUT(RL_BOX_TITLE, ((box){f->W / 2 - sw / 2, y - FS_SUB, f->W / 2 + sw / 2, y + 3}));
  }
#undef PUT
}

size_t rl_plot_boxes(const rl_plot *p, rl_plot_box *out, size_t cap) {
  if (!p) return 0;
  chart c;
  if (chart_layout(p, &c)) { chart_free(&c); return 0; }
  size_t n = 2;
  if (cap > 0) out[0] = (rl_plot_box){RL_BOX_CANVAS, -2, 0, 0, c.f.W, c.f.H};
  if (cap > 1) out[1] = (rl_plot_box){RL_BOX_PLOT, -1, c.f.px0, c.f.py0, c.f.px1, c.f.py1};
  for (size_t i = 0; i < c.l.nc; i++, n++)
    if (n < cap) out[n] = (rl_plot_box){c.l.c[i].kind, c.l.c[i].id, c.l.c[i].b.x0, c.l.c[i].b.y0,
                                        c.l.c[i].b.x1, c.l.c[i].b.y1};
  text_boxes(&c, out, cap, &n);
  chart_free(&c);
  return n;
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
                 rli_plot_q(a, sizeof a, pt->flops, RL_UNIT_FLOP), rli_plot_q(b, sizeof b, pt->bytes, RL_UNIT_BYTES),
                 rli_plot_q(c, sizeof c, pt->intensity, RL_UNIT_FLOP_PER_BYTE));
  if (pt->bound >= 0 && rl_bound_name(pt->bound)) rli_out_printf(o, "bound: %s&#10;", rl_bound_name(pt->bound));
  if (pt->measured) {
    rli_out_printf(o, "measured: %s, %s", rli_plot_q(d, sizeof d, pt->time_s, RL_UNIT_SECONDS),
                   rli_plot_q(e, sizeof e, pt->perf, RL_UNIT_FLOP_S));
    if (pt->roof_perf > 0)
      rli_out_printf(o, "&#10;%.1f%% of its roof (%s)", 100 * pt->perf / pt->roof_perf,
                     rli_plot_q(a, sizeof a, pt->roof_perf, RL_UNIT_FLOP_S));
  } else {
    rli_out_printf(o, "time &#8805; %s (roofline bound)&#10;attainable: %s",
                   rli_plot_q(d, sizeof d, pt->time_s, RL_UNIT_SECONDS), rli_plot_q(e, sizeof e, pt->perf, RL_UNIT_FLOP_S));
  }
  rli_out_puts(o, "</title>");
}

static void emit_label(rli_out *o, const label *lab) {
  if (lab->leader)
    rli_out_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#868e96\" stroke-width=\"0.8\"/>",
                   lab->mx, lab->my, lab->lx, lab->ly);
  rli_out_printf(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%g\" fill=\"%s\"%s", lab->x, lab->y, lab->fs,
                 lab->color ? lab->color : INK, lab->bold ? " font-weight=\"bold\"" : "");
  if (lab->angle != 0) rli_out_printf(o, " transform=\"rotate(%.2f %.1f %.1f)\"", lab->angle, lab->x, lab->y);
  rli_out_puts(o, ">");
  rli_out_xml(o, lab->text);
  rli_out_puts(o, "</text>");
}

/* A marker of shape `m`, radius r, at (x, y). */
static void emit_marker(rli_out *o, int32_t m, double x, double y, double r, const char *fill, const char *stroke,
                        double sw) {
  switch (m) {
  case RL_MARK_SQUARE:
    rli_out_printf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x - r * SQ_HALF, y - r * SQ_HALF,
                   r * SQ_SIDE, r * SQ_SIDE);
    break;
  case RL_MARK_TRIANGLE:
    rli_out_printf(o, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"", x, y - r * TRI_TOP, x + r, y + r * TRI_BASE,
                   x - r, y + r * TRI_BASE);
    break;
  case RL_MARK_DIAMOND:
    rli_out_printf(o, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"", x, y - r, x + r, y, x,
                   y + r, x - r, y);
    break;
  default:
    rli_out_printf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"", x, y, r);
  }
  rli_out_printf(o, " fill=\"%s\" stroke=\"%s\" stroke-width=\"%g\"/>", fill, stroke, sw);
}

static void emit_axes(rli_out *o, const chart *c) {
  const frame *f = &c->f;
  rli_out_puts(o, "<g class=\"grid\" stroke=\"#e9ecef\" stroke-width=\"1\">\n");
  for (int k = (int)ceil(f->ax.x0); k <= (int)floor(f->ax.x1); k++) {
    double x = X(f, pow(10, k));
    rli_out_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x, f->py0, x, f->py1);
  }
  for (int k = (int)ceil(f->ax.y0); k <= (int)floor(f->ax.y1); k++) {
    double y = Y(f, pow(10, k));
    rli_out_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", f->px0, y, f->px1, y);
  }
  rli_out_puts(o, "</g>\n<g class=\"ticks\" stroke=\"" INK2 "\" stroke-width=\"1\">\n");
  for (int k = (int)floor(f->ax.x0); k <= (int)ceil(f->ax.x1); k++)
    for (int m = 1; m < 10; m++) {
      double v = m * pow(10, k);
      if (log10(v) < f->ax.x0 - 1e-9 || log10(v) > f->ax.x1 + 1e-9) continue;
      double x = X(f, v);
      rli_out_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x, f->py1, x,
                     f->py1 + (m == 1 ? TICK_MAJOR : TICK_MINOR));
    }
  for (int k = (int)floor(f->ax.y0); k <= (int)ceil(f->ax.y1); k++)
    for (int m = 1; m < 10; m++) {
      double v = m * pow(10, k);
      if (log10(v) < f->ax.y0 - 1e-9 || log10(v) > f->ax.y1 + 1e-9) continue;
      double y = Y(f, v);
      rli_out_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                     f->px0 - (m == 1 ? TICK_MAJOR : TICK_MINOR), y, f->px0, y);
    }
  rli_out_printf(o, "</g>\n<g class=\"tick-labels\" font-size=\"%d\" fill=\"#343a40\">\n", FS_TICK);
  int sx = x_tick_step(f), sy = y_tick_step(f);
  for (int k = (int)ceil(f->ax.x0); k <= (int)floor(f->ax.x1); k++) {
    if (!x_tick_shown(f, k, sx)) continue;
    char t[48];
    tick_text(t, sizeof t, k, 0);
    rli_out_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", X(f, pow(10, k)),
                   f->py1 + XTICK_DY, t);
  }
  for (int k = (int)ceil(f->ax.y0); k <= (int)floor(f->ax.y1); k++) {
    if (k % sy) continue;
    char t[48];
    tick_text(t, sizeof t, k, 1);
    rli_out_printf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", f->px0 - YTICK_DX,
                   Y(f, pow(10, k)) + 4, t);
  }
  rli_out_puts(o, "</g>\n");
  double yc = (f->py0 + f->py1) / 2;
  rli_out_printf(o, "<text class=\"axis-title\" x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"middle\" fill=\"" INK
                    "\">%s</text>\n",
                 (f->px0 + f->px1) / 2, f->py1 + M_BOTTOM - XTITLE_DY, FS_AXIS, x_title(f));
  rli_out_printf(o, "<text class=\"axis-title\" x=\"%d\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"middle\" fill=\"" INK
                    "\" transform=\"rotate(-90 %d %.1f)\">%s</text>\n",
                 YTITLE_X, yc, FS_AXIS, YTITLE_X, yc, y_title(f));
}

static void emit_lines(rli_out *o, const rl_plot *p, const chart *c) {
  const frame *f = &c->f;
  rli_out_puts(o, "<g class=\"roofs\" clip-path=\"url(#rl-plot-area)\" fill=\"none\" stroke-linecap=\"butt\">\n");
  /* ridge drops first, under everything */
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!roof_ok(r) || same_ridge(p, f, i)) continue;
    double x = X(f, r->peak / r->bandwidth);
    rli_out_printf(o, "<line class=\"ridge-drop\" stroke=\"%s\" stroke-width=\"0.8\" stroke-dasharray=\"1 3\" "
                      "x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                   color_of(p, i), x, Y(f, r->peak), x, f->py1);
  }
  static const char *cls[] = {"roofline", "roof-flat", "ceiling", "level"};
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < c->lines.n; i++) {
      const line *ln = &c->lines.v[i];
      int main_ = ln->kind == LN_SLANT || ln->kind == LN_FLAT;
      if (main_ != pass) continue; /* thin lines under the roofs */
      int slant = ln->kind == LN_SLANT || ln->kind == LN_LEVEL;
      double x0 = X(f, ln->ia), x1 = X(f, ln->ib), y0 = Y(f, slant ? ln->v * ln->ia : ln->v),
             y1 = Y(f, slant ? ln->v * ln->ib : ln->v);
      double w = ln->kind == LN_SLANT || ln->kind == LN_FLAT ? W_ROOF : ln->kind == LN_LEVEL ? W_LEVEL : W_CEIL;
      const char *dash = ln->kind == LN_FLAT ? dashes[ln->dash] : ln->kind == LN_LEVEL ? "6 3" :
                         ln->kind == LN_CEIL ? "1.5 2.5" : "";
      /* hues of the roofs it stands for; several: drawn in turn as
       * alternating dashes */
      int hues[LN_ROOFS], nh = 0;
      for (int k = 0; k < ln->nroof; k++) {
        int h = hue_of(p, ln->roof[k]), dup = 0;
        for (int j = 0; j < nh; j++) dup |= hues[j] == h;
        if (!dup && h >= 0) hues[nh++] = h;
      }
      rli_out_printf(o, "<g class=\"%s\" data-roofs=\"", cls[ln->kind]);
      for (int k = 0; k < ln->nroof; k++) rli_out_printf(o, "%s%d", k ? " " : "", (int)ln->roof[k]);
      rli_out_puts(o, "\">");
      for (int k = 0; k < (nh ? nh : 1); k++) {
        const char *col = nh ? palette[hues[k]] : INK2;
        rli_out_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%g\"",
                       x0, y0, x1, y1, col, w);
        if (nh > 1 && (!dash[0] || ln->kind == LN_FLAT))
          rli_out_printf(o, " stroke-dasharray=\"10 %d\" stroke-dashoffset=\"%d\"", 10 * (nh - 1), -10 * k);
        else if (dash[0])
          rli_out_printf(o, " stroke-dasharray=\"%s\"", dash);
        rli_out_puts(o, "/>");
      }
      rli_out_puts(o, "</g>\n");
    }
  rli_out_puts(o, "</g>\n<g class=\"ridges\">\n");
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!roof_ok(r) || same_ridge(p, f, i)) continue;
    double ridge = r->peak / r->bandwidth;
    char a[48];
    rli_out_printf(o, "<g class=\"ridge\" data-roof=\"%d\"><title>", (int)i);
    rli_out_xml(o, r->label);
    rli_out_printf(o, ": ridge point at %s</title>", rli_plot_q(a, sizeof a, ridge, RL_UNIT_FLOP_PER_BYTE));
    emit_marker(o, RL_MARK_DIAMOND, X(f, ridge), Y(f, r->peak), RIDGE_R, "#ffffff", color_of(p, i), W_RIDGE);
    rli_out_puts(o, "</g>\n");
  }
  rli_out_puts(o, "</g>\n");
}

/* Stable, by marker radius, largest first: a merge sort, O(n log n) (an
 * insertion sort was O(n^2) on 100,000 markers of spread radii). */
static void sort_by_radius(int32_t *v, int32_t n, const double *mr) {
  int32_t *t = n > 1 ? malloc((size_t)n * sizeof *t) : NULL;
  if (!t) return; /* one point, or no memory: drawn in their order */
  for (int32_t w = 1; w < n; w *= 2)
    for (int32_t lo = 0; lo < n - w; lo += 2 * w) {
      int32_t mid = lo + w, hi = lo + 2 * w < n ? lo + 2 * w : n, a = lo, b = mid, k = lo;
      while (a < mid && b < hi) t[k++] = mr[v[b]] > mr[v[a]] ? v[b++] : v[a++];
      while (a < mid) t[k++] = v[a++];
      while (b < hi) t[k++] = v[b++];
      memcpy(v + lo, t + lo, (size_t)(hi - lo) * sizeof *v);
    }
  free(t);
}

static void emit_points(rli_out *o, const rl_plot *p, const chart *c) {
  const frame *f = &c->f;
  rli_out_puts(o, "<g class=\"points\">\n");
  /* group lines */
  for (int32_t i = 0; i < p->n_points; i++) {
    int32_t j = group_next(c, i);
    if (j < 0) continue;
    const rl_plot_point *a = &p->points[i], *b = &p->points[j];
    rli_out_printf(o, "<line class=\"group\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                      "stroke-width=\"%g\"/>\n",
                   X(f, a->intensity), Y(f, a->perf), X(f, b->intensity), Y(f, b->perf), color_of(p, a->roof), W_GROUP);
  }
  /* the largest markers first, so that small ones stay visible */
  int32_t *order = malloc(((size_t)p->n_points + 1) * sizeof *order);
  int32_t n = 0;
  for (int32_t i = 0; order && i < p->n_points; i++)
    if (rli_plot_point_ok(&p->points[i])) order[n++] = i;
  sort_by_radius(order, n, c->mr);
  for (int32_t k = 0; k < n; k++) {
    int32_t i = order[k];
    const rl_plot_point *pt = &p->points[i];
    int ri = pt->roof >= 0 && pt->roof < p->n_roofs ? pt->roof : -1;
    const char *col = color_of(p, ri);
    double x = X(f, pt->intensity), y = Y(f, pt->perf), r = c->mr[i];
    rli_out_printf(o, "<g class=\"pt\" data-i=\"%d\">", (int)i);
    point_title(o, pt, ri >= 0 ? &p->roofs[ri] : NULL);
    if (pt->measured && pt->roof_perf > 0 && pt->roof_perf > pt->perf) {
      double yr = Y(f, pt->roof_perf);
      rli_out_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.2\" "
                        "stroke-dasharray=\"4 3\"/><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                        "stroke-width=\"2\"/>",
                     x, y - r, x, yr, col, x - 5, yr, x + 5, yr, col);
    }
    emit_marker(o, pt->marker, x, y, r, pt->measured ? col : "#ffffff", pt->measured ? "#ffffff" : col,
                pt->measured ? W_MARK_MEAS : W_MARK);
    rli_out_puts(o, "</g>\n");
  }
  free(order);
  rli_out_puts(o, "</g>\n");
}

static void emit_legend(rli_out *o, const rl_plot *p, const chart *c) {
  const box *b = &c->legb;
  rli_out_printf(o, "<g class=\"legend\" font-size=\"%d\">\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                    "fill=\"#ffffff\" fill-opacity=\"0.94\" stroke=\"#ced4da\"/>\n",
                 FS_LEGEND, b->x0, b->y0, b->x1 - b->x0, b->y1 - b->y0);
  for (int row = 0; row < c->nleg; row++) {
    const legend_row *lr = &c->leg[row];
    double y = b->y0 + LEG_PAD + 6 + row * LEG_ROW, x = b->x0 + LEG_PAD, ym = y - 4;
    const char *col = lr->roof >= 0 ? color_of(p, lr->roof) : INK2;
    switch (lr->kind) {
    case LR_ROOF: {
      const rl_plot_roof *r = &p->roofs[lr->roof];
      const char *d = r->dash > 0 ? dashes[(size_t)(r->dash - 1) % NDASH] : "";
      rli_out_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%g\"%s%s%s/>",
                     x, ym, x + LEG_SWATCH, ym, col, W_ROOF, d[0] ? " stroke-dasharray=\"" : "", d, d[0] ? "\"" : "");
      break;
    }
    case LR_LEVEL:
    case LR_CEIL:
      rli_out_printf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"" INK2
                        "\" stroke-width=\"%g\" stroke-dasharray=\"%s\"/>",
                     x, ym, x + LEG_SWATCH, ym, lr->kind == LR_LEVEL ? W_LEVEL : W_CEIL,
                     lr->kind == LR_LEVEL ? "6 3" : "1.5 2.5");
      break;
    case LR_RIDGE: emit_marker(o, RL_MARK_DIAMOND, x + LEG_SWATCH / 2, ym, RIDGE_R, "#ffffff", INK2, W_RIDGE); break;
    case LR_BOUND: emit_marker(o, RL_MARK_CIRCLE, x + LEG_SWATCH / 2, ym, LEG_MARK_R, "#ffffff", INK2, W_MARK); break;
    case LR_MEAS: emit_marker(o, RL_MARK_CIRCLE, x + LEG_SWATCH / 2, ym, LEG_MARK_R, INK2, "#ffffff", W_MARK_MEAS); break;
    case LR_AREA:
      emit_marker(o, RL_MARK_CIRCLE, x + 5, ym, 2.5, INK2, "#ffffff", 1);
      emit_marker(o, RL_MARK_CIRCLE, x + 17, ym, 5.5, INK2, "#ffffff", 1);
      break;
    default: break;
    }
    rli_out_printf(o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"" INK "\">", b->x0 + LEG_TEXT_DX, y);
    rli_out_xml(o, lr->text);
    rli_out_puts(o, "</text>\n");
  }
  rli_out_puts(o, "</g>\n");
}

size_t rl_plot_svg(const rl_plot *p, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  if (!p) return rli_out_end(&o);
  chart c;
  if (chart_layout(p, &c)) {
    chart_free(&c);
    return rli_out_end(&o);
  }
  const frame *f = &c.f;
  rli_out_printf(&o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                     "viewBox=\"0 0 %.0f %.0f\" font-family=\"" FONT "\" class=\"roofline-chart\">\n",
                 f->W, f->H, f->W, f->H);
  char title[300];
  rli_plot_clean(p->title && *p->title ? p->title : "Roofline", title, sizeof title, 0);
  rli_out_puts(&o, "<title>");
  rli_out_xml(&o, title);
  rli_out_puts(&o, "</title>\n");
  rli_out_printf(&o, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", f->W, f->H);
  rli_out_printf(&o, "<defs><clipPath id=\"rl-plot-area\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                     "height=\"%.1f\"/></clipPath></defs>\n",
                 f->px0, f->py0, f->px1 - f->px0, f->py1 - f->py0);
  emit_axes(&o, &c);
  emit_lines(&o, p, &c);
  emit_points(&o, p, &c);
  rli_out_puts(&o, "<g class=\"labels\">\n");
  for (size_t i = 0; i < c.L.n; i++) {
    const label *lab = &c.L.v[i];
    if (lab->point >= 0) rli_out_printf(&o, "<g class=\"pt-label\" data-i=\"%d\">", (int)lab->point);
    else rli_out_printf(&o, "<g class=\"%s\">", lab->kind == RL_BOX_NOTE ? "note" : "line-label");
    emit_label(&o, lab);
    rli_out_puts(&o, "</g>\n");
  }
  rli_out_puts(&o, "</g>\n");
  if (c.nleg) emit_legend(&o, p, &c);
  rli_out_printf(&o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"" INK2 "\"/>\n",
                 f->px0, f->py0, f->px1 - f->px0, f->py1 - f->py0);
  /* the title, wrapped to the canvas (two lines at most) */
  for (int i = 0; i < f->ntitle; i++) {
    rli_out_printf(&o, "<text class=\"title\" x=\"%.1f\" y=\"%d\" font-size=\"%d\" font-weight=\"bold\" "
                       "text-anchor=\"middle\" fill=\"" INK "\">",
                   f->W / 2, TITLE_Y + i * TITLE_STEP, FS_TITLE);
    rli_out_xml(&o, f->title[i]);
    rli_out_puts(&o, "</text>\n");
  }
  for (int i = 0; i < f->nsub; i++) {
    rli_out_printf(&o, "<text class=\"subtitle\" x=\"%.1f\" y=\"%d\" font-size=\"%g\" text-anchor=\"middle\" fill=\"" INK2
                       "\">",
                   f->W / 2, SUB_Y0 + (int)f->tdy + i * SUB_STEP, FS_SUB);
    rli_out_xml(&o, f->sub[i]);
    rli_out_puts(&o, "</text>\n");
  }
  rli_out_puts(&o, "</svg>\n");
  chart_free(&c);
  return rli_out_end(&o);
}
