/*
 * term.c -- the roofline chart as text for a terminal.
 *
 * The plot area is a grid of cells. In Unicode mode each cell is a
 * braille character, 2 x 4 dots, so lines have four times the vertical
 * resolution of the text; in ASCII mode each line draws with one
 * character per cell ('/' slanted roof, '-' flat roof, '.' ceilings,
 * ':' L2 and gap lines). Points are letters (A, B, ...) listed under the
 * chart with their figures; roofs are numbered and listed the same way,
 * their number written at the right end of their flat roof, so that every
 * series has its own glyph even without colour. With RL_PLOT_COLOR each
 * device has its hue (256-colour approximations of the SVG's Okabe-Ito
 * palette). The whole output fits width x height: legend rows that would
 * not fit are summed up in a "+N more" line.
 */
#include "render/plot_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cell {
  uint32_t ch;    /* a code point to print, or 0: braille dots / blank */
  uint8_t dots;   /* braille dot bits */
  int8_t color;   /* roof index for colour, -1 none */
} cell;

typedef struct canvas {
  cell *c;
  int w, h;       /* cells */
  int ascii;
  rli_axes ax;
} canvas;

/* Okabe-Ito in the xterm 256-colour cube: blue, vermillion, bluish
 * green, reddish purple, orange, sky blue, yellow, and the default. */
static const int ansi256[] = {25, 166, 36, 175, 214, 74, 178, -1};
#define NHUE (sizeof ansi256 / sizeof ansi256[0])

static int hue(const rl_plot *p, int roof) {
  if (roof < 0 || roof >= p->n_roofs) return -1;
  int c = p->roofs[roof].color;
  return (int)((size_t)(c > 0 ? c - 1 : roof) % NHUE);
}

static void set_color(rli_out *o, int h, int bold) {
  if (h < 0 || ansi256[h] < 0) rli_out_puts(o, bold ? "\x1b[0;1m" : "\x1b[0m");
  else rli_out_printf(o, "\x1b[0;%s38;5;%dm", bold ? "1;" : "", ansi256[h]);
}

/* The glyph of roof i: 1-9, then a-z. */
static char roof_tag(int32_t i) { return i < 9 ? (char)('1' + i) : i < 35 ? (char)('a' + i - 9) : '+'; }

/* sub-cell coordinates: x in [0, 2w), y in [0, 4h), y down */
static double sx(const canvas *cv, double I) {
  return (log10(I) - cv->ax.x0) / (cv->ax.x1 - cv->ax.x0) * (2.0 * cv->w);
}
static double sy(const canvas *cv, double P) {
  return (cv->ax.y1 - log10(P)) / (cv->ax.y1 - cv->ax.y0) * (4.0 * cv->h);
}

static void dot(canvas *cv, double x, double y, char ascii_ch, int color) {
  if (x < 0 || y < 0) return;
  int cx = (int)(x / 2), cy = (int)(y / 4);
  if (cx >= cv->w || cy >= cv->h) return;
  cell *c = &cv->c[cy * cv->w + cx];
  if (c->ch && c->ch > 0x7f && c->ch != (uint32_t)0x2800) return; /* a marker */
  if (cv->ascii) {
    if (c->ch >= 'A' && c->ch <= 'Z') return;
    c->ch = (uint32_t)(unsigned char)ascii_ch;
  } else {
    static const uint8_t bit[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
    int dx = (int)x - 2 * cx, dy = (int)y - 4 * cy;
    if (dx > 1) dx = 1;
    if (dy > 3) dy = 3;
    c->dots |= bit[dx][dy];
  }
  c->color = (int8_t)color;
}

/* A straight line in log-log space from (I0, P0) to (I1, P1). */
static void line(canvas *cv, double I0, double P0, double I1, double P1, char ch, int color,
                 int dotted) {
  double x0 = sx(cv, I0), y0 = sy(cv, P0), x1 = sx(cv, I1), y1 = sy(cv, P1);
  double len = fmax(fabs(x1 - x0), fabs(y1 - y0));
  int n = (int)fmin(len * 2 + 1, 100000);
  for (int i = 0; i <= n; i++) {
    double t = n ? (double)i / n : 0, x = x0 + (x1 - x0) * t, y = y0 + (y1 - y0) * t;
    if (dotted && ((int)(x / 2) % 2 || (int)x % 2)) continue; /* one dot every other cell */
    dot(cv, x, y, ch, color);
  }
}

static char ascii_mark(int32_t i) { return i <= 0 ? '-' : "#%@&$*~^"[(i - 1) % 8]; }

static void put_utf8(rli_out *o, uint32_t cp) {
  char b[5] = {0};
  if (cp < 0x80) b[0] = (char)cp;
  else if (cp < 0x800) b[0] = (char)(0xC0 | (cp >> 6)), b[1] = (char)(0x80 | (cp & 0x3F));
  else
    b[0] = (char)(0xE0 | (cp >> 12)), b[1] = (char)(0x80 | ((cp >> 6) & 0x3F)),
    b[2] = (char)(0x80 | (cp & 0x3F));
  rli_out_puts(o, b);
}

/* Write s, cut to at most `cols` characters. */
static void put_cut(rli_out *o, const char *s, size_t cols) {
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if ((*p & 0xC0) != 0x80) {
      if (n == cols) break;
      n++;
    }
    char c[2] = {(char)*p, 0};
    rli_out_puts(o, c);
  }
}

static void ytick(char *buf, size_t cap, int k) { rl_format_quantity(pow(10, k), RL_UNIT_FLOP_S, buf, cap); }
static void xtick(char *buf, size_t cap, int k) {
  if (k < 0 && k >= -3) snprintf(buf, cap, "%.*f", -k, pow(10, k));
  else if (k >= 0 && k <= 5) snprintf(buf, cap, "%.0f", pow(10, k));
  else snprintf(buf, cap, "1e%d", k);
}

/* The glyph of the i-th drawable point: A-Z, then a-z, then '*'. */
static uint32_t point_glyph(int letter) {
  return letter < 26 ? (uint32_t)('A' + letter) : letter < 52 ? (uint32_t)('a' + letter - 26) : '*';
}

static int roof_ok(const rl_plot_roof *r) { return r->peak > 0 && r->bandwidth > 0; }

/* How the H rows are shared: title, plot, two axis rows, the roofs, the
 * points (in ncol columns), and a "+N more" line when they do not all fit. */
typedef struct rows {
  int W, H, ncol, npts;
  int shown_roofs, shown_pts, more, plot_rows;
} rows;

#define MIN_PLOT_ROWS 8
#define YLAB 12 /* "100 TFLOP/s" + axis */

static void plan_rows(const rl_plot *p, rows *L) {
  int W = p->width > 0 ? p->width : 100, H = p->height > 0 ? p->height : 30;
  if (W < 60) W = 60;
  if (W > 400) W = 400;
  if (H < 16) H = 16;
  if (H > 200) H = 200;
  int npts = 0;
  for (int32_t i = 0; i < p->n_points; i++) npts += rli_plot_point_ok(&p->points[i]);
  int ncol = W >= 90 ? 2 : 1;
  int roof_rows = (int)p->n_roofs, pt_rows = (npts + ncol - 1) / ncol;
  int room = H - 1 - 2 - MIN_PLOT_ROWS;
  if (roof_rows > room) roof_rows = room > 1 ? room : 1;
  int more = 0;
  if (roof_rows + pt_rows > room) {
    pt_rows = room - roof_rows - 1;
    if (pt_rows < 0) pt_rows = 0;
    more = 1;
  }
  L->W = W, L->H = H, L->ncol = ncol, L->npts = npts, L->more = more;
  L->shown_roofs = roof_rows < p->n_roofs ? roof_rows : (int)p->n_roofs;
  L->shown_pts = pt_rows * ncol < npts ? pt_rows * ncol : npts;
  L->plot_rows = H - 1 - 2 - (roof_rows + pt_rows + more);
  if (L->plot_rows < MIN_PLOT_ROWS) L->plot_rows = MIN_PLOT_ROWS;
}

/* The roofs, gap lines, ridge markers, roof glyphs and points on the grid. */
static void draw(canvas *cv, const rl_plot *p) {
  double Imax = pow(10, cv->ax.x1), Imin = pow(10, cv->ax.x0);
  /* roofs: ceilings and L2 first, so the main roof wins shared cells */
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!roof_ok(r)) continue;
    for (int32_t c = 0; c < r->n_ceilings; c++)
      line(cv, r->ceiling[c] / r->bandwidth, r->ceiling[c], Imax, r->ceiling[c], '.', (int)i, 1);
    for (int32_t k = 0; k < r->n_levels && k < RL_PLOT_LEVELS; k++) {
      double bw = r->level_bw[k];
      if (!(bw > 0)) continue;
      double Ia = fmax(Imin, pow(10, cv->ax.y0) / bw);
      line(cv, Ia, bw * Ia, r->peak / bw, r->peak, ':', (int)i, 1);
    }
  }
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!roof_ok(r)) continue;
    double ridge = r->peak / r->bandwidth, Ia = fmax(Imin, pow(10, cv->ax.y0) / r->bandwidth);
    /* ASCII: the first roof is / and -, the others one mark each */
    char cs = i == 0 ? '/' : ascii_mark(i), cf = i == 0 ? '-' : ascii_mark(i);
    line(cv, Ia, r->bandwidth * Ia, ridge, r->peak, cs, (int)i, 0);
    line(cv, ridge, r->peak, Imax, r->peak, cf, (int)i, 0);
  }
  /* measured points: a gap line up to the roof */
  for (int32_t i = 0; i < p->n_points; i++) {
    const rl_plot_point *pt = &p->points[i];
    if (!rli_plot_point_ok(pt) || !pt->measured || !(pt->roof_perf > pt->perf)) continue;
    line(cv, pt->intensity, pt->perf, pt->intensity, pt->roof_perf, ':',
         pt->roof >= 0 && pt->roof < p->n_roofs ? (int)pt->roof : -1, 0);
  }
  /* ridge markers, then points (letters) */
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!roof_ok(r)) continue;
    int cx = (int)(sx(cv, r->peak / r->bandwidth) / 2), cy = (int)(sy(cv, r->peak) / 4);
    if (cx >= 0 && cx < cv->w && cy >= 0 && cy < cv->h) {
      cv->c[cy * cv->w + cx].ch = cv->ascii ? '+' : 0x25C6;
      cv->c[cy * cv->w + cx].color = (int8_t)i;
    }
  }
  /* each roof's glyph at the right end of its flat roof (leftwards past
   * the glyphs of roofs at the same height) */
  for (int32_t i = 0; i < p->n_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    if (!roof_ok(r)) continue;
    int cy = (int)(sy(cv, r->peak) / 4);
    if (cy < 0 || cy >= cv->h) continue;
    for (int cx = cv->w - 1; cx > cv->w / 2; cx--) {
      cell *c = &cv->c[cy * cv->w + cx];
      if (c->ch) continue;
      c->ch = (uint32_t)(unsigned char)roof_tag(i);
      c->dots = 0;
      c->color = (int8_t)i;
      break;
    }
  }
  int letter = 0;
  for (int32_t i = 0; i < p->n_points; i++) {
    const rl_plot_point *pt = &p->points[i];
    if (!rli_plot_point_ok(pt)) continue;
    int cx = (int)(sx(cv, pt->intensity) / 2), cy = (int)(sy(cv, pt->perf) / 4);
    uint32_t ch = point_glyph(letter++);
    if (cx < 0 || cx >= cv->w || cy < 0 || cy >= cv->h) continue;
    cv->c[cy * cv->w + cx].ch = ch;
    cv->c[cy * cv->w + cx].color = (int8_t)(pt->roof >= 0 && pt->roof < p->n_roofs ? pt->roof : -1);
  }
}

/* The grid's rows, with the y tick labels at decades. */
static void print_grid(rli_out *o, const canvas *cv, const rl_plot *p, int color) {
  int ascii = cv->ascii, last_tick_row = -10;
  for (int row = 0; row < cv->h; row++) {
    char lab[48] = "";
    int tick = 0;
    for (int k = (int)ceil(cv->ax.y0); k <= (int)floor(cv->ax.y1); k++) {
      int ry = (int)(sy(cv, pow(10, k)) / 4);
      if (ry == row && row - last_tick_row > 1) {
        ytick(lab, sizeof lab, k);
        tick = 1;
        last_tick_row = row;
      }
    }
    rli_out_printf(o, "%*s", YLAB - 1, lab);
    if (ascii) rli_out_puts(o, tick ? "+" : "|");
    else put_utf8(o, tick ? 0x2524 : 0x2502);
    int cur = -1;
    for (int x = 0; x < cv->w; x++) {
      const cell *c = &cv->c[row * cv->w + x];
      int want = c->ch || c->dots ? c->color : -1;
      int bold = c->ch >= 'A' && c->ch <= 'z';
      int code = want < 0 ? -1 : hue(p, want) * 2 + bold;
      if (color && code != cur) {
        if (want < 0) rli_out_puts(o, "\x1b[0m");
        else set_color(o, hue(p, want), bold);
        cur = code;
      }
      if (c->ch) put_utf8(o, c->ch);
      else if (c->dots && !ascii) put_utf8(o, 0x2800u + c->dots);
      else rli_out_puts(o, " ");
    }
    if (color && cur >= 0) rli_out_puts(o, "\x1b[0m");
    rli_out_puts(o, "\n");
  }
}

/* The x axis: a rule with ticks, then the decade labels and the unit. */
static void print_x_axis(rli_out *o, const canvas *cv, int W) {
  rli_out_printf(o, "%*s", YLAB - 1, "");
  char *labrow = calloc((size_t)cv->w + 32, 1);
  if (labrow) memset(labrow, ' ', (size_t)cv->w + 31);
  if (cv->ascii) rli_out_puts(o, "+");
  else put_utf8(o, 0x2514);
  int lastend = -2;
  for (int x = 0; x < cv->w; x++) {
    int t = 0;
    for (int k = (int)ceil(cv->ax.x0); k <= (int)floor(cv->ax.x1); k++)
      if ((int)(sx(cv, pow(10, k)) / 2) == x) {
        t = 1;
        char tl[24];
        xtick(tl, sizeof tl, k);
        int len = (int)strlen(tl), start = x - len / 2;
        if (start < 0) start = 0;
        if (start > lastend + 1 && labrow && start + len < cv->w + 30) {
          memcpy(labrow + start, tl, (size_t)len);
          lastend = start + len;
        }
      }
    if (cv->ascii) rli_out_puts(o, t ? "+" : "-");
    else put_utf8(o, t ? 0x252C : 0x2500);
  }
  rli_out_puts(o, "\n");
  if (labrow) {
    int end = cv->w + 30;
    while (end > 0 && labrow[end - 1] == ' ') end--;
    labrow[end] = 0;
    rli_out_printf(o, "%*s", YLAB, "");
    size_t xroom = (size_t)(W - YLAB);
    const char *unit = (size_t)end + 32 <= xroom ? "  FLOP/B (arithmetic intensity)" : " FLOP/B";
    put_cut(o, labrow, xroom);
    if ((size_t)end + strlen(unit) <= xroom) rli_out_puts(o, unit);
    rli_out_puts(o, "\n");
    free(labrow);
  }
}

/* The legend's roofs: their glyph, their line in their colour, figures. */
static void print_roofs(rli_out *o, const rl_plot *p, const rows *L, int ascii, int color) {
  for (int32_t i = 0; i < L->shown_roofs; i++) {
    const rl_plot_roof *r = &p->roofs[i];
    char a[32], b[32], c[32], lab[RL_HW_TEXT_MAX], line_[400];
    rli_plot_clean(r->label, lab, sizeof lab, ascii);
    snprintf(line_, sizeof line_, " %s: %s, %s, ridge %s%s", lab,
             rli_plot_q(a, sizeof a, r->peak, RL_UNIT_FLOP_S),
             rli_plot_q(b, sizeof b, r->bandwidth, RL_UNIT_BYTES_S),
             rli_plot_q(c, sizeof c, r->bandwidth > 0 ? r->peak / r->bandwidth : 0, RL_UNIT_FLOP_PER_BYTE),
             r->n_ceilings ? (ascii ? "; ... vector ceilings" : "; \xe2\xa0\x82\xe2\xa0\x82 vector ceilings") : "");
    if (color) set_color(o, hue(p, i), 1);
    rli_out_printf(o, "%c", roof_tag(i));
    if (ascii) rli_out_printf(o, i == 0 ? "-/" : "%c%c", ascii_mark(i), ascii_mark(i));
    else rli_out_puts(o, "\xe2\x94\x81\xe2\x94\x81");
    if (color) rli_out_puts(o, "\x1b[0m");
    put_cut(o, line_, (size_t)(L->W - 3));
    rli_out_puts(o, "\n");
  }
}

/* The legend's points, in L->ncol columns: glyph, label cut to fit,
 * intensity, FLOP/s and the fraction of roof of a measured one. */
static void print_points(rli_out *o, const rl_plot *p, const rows *L, int ascii, int color) {
  int colw = (L->W - 1) / L->ncol, k = 0, letter = 0;
  for (int32_t i = 0; i < p->n_points && k < L->shown_pts; i++) {
    const rl_plot_point *pt = &p->points[i];
    if (!rli_plot_point_ok(pt)) continue;
    char mk = (char)point_glyph(letter++);
    char lab[RL_PLOT_LABEL_MAX], a[32], b[32], ent[300], rest[128];
    rli_plot_clean(pt->label, lab, sizeof lab, ascii);
    snprintf(rest, sizeof rest, " %s %s", rli_plot_q(a, sizeof a, pt->intensity, RL_UNIT_FLOP_PER_BYTE),
             rli_plot_q(b, sizeof b, pt->perf, RL_UNIT_FLOP_S));
    if (pt->measured && pt->roof_perf > 0)
      snprintf(rest + strlen(rest), sizeof rest - strlen(rest), " %.0f%% of roof",
               100 * pt->perf / pt->roof_perf);
    char labcut[RL_PLOT_LABEL_MAX];
    int lroom = colw - 3 - (int)strlen(rest);
    if (lroom < 6) lroom = 6;
    rli_out lo;
    rli_out_init(&lo, labcut, sizeof labcut);
    put_cut(&lo, lab, (size_t)lroom);
    rli_out_end(&lo);
    snprintf(ent, sizeof ent, "%s%s", labcut, rest);
    int ri = pt->roof >= 0 && pt->roof < p->n_roofs ? (int)pt->roof : -1;
    rli_out_puts(o, " ");
    if (color) set_color(o, hue(p, ri), 1);
    rli_out_printf(o, "%c", mk);
    if (color) rli_out_puts(o, "\x1b[0m");
    rli_out_puts(o, " ");
    size_t n = rli_utf8_len(ent) + 2;
    put_cut(o, ent, (size_t)colw - 3);
    if (++k % L->ncol == 0 || k == L->shown_pts) rli_out_puts(o, "\n");
    else for (size_t s = n + 1; s < (size_t)colw; s++) rli_out_puts(o, " ");
  }
  if (L->more) {
    int hidden_r = (int)p->n_roofs - L->shown_roofs, hidden_p = L->npts - L->shown_pts;
    rli_out_printf(o, " +%d more", hidden_r + hidden_p);
    if (hidden_r) rli_out_printf(o, " (%d roof%s)", hidden_r, hidden_r > 1 ? "s" : "");
    /* the parameter in backquotes, as the library's messages name one: a
     * front end spells it (the CLI: --height) */
    rli_out_puts(o, ": a taller chart (`height`) shows them\n");
  }
}

size_t rl_plot_term(const rl_plot *p, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  if (!p) return rli_out_end(&o);
  int ascii = (p->flags & RL_PLOT_ASCII) != 0, color = (p->flags & RL_PLOT_COLOR) != 0;
  rows L;
  plan_rows(p, &L);
  canvas cv;
  cv.w = L.W - YLAB - 1;
  cv.h = L.plot_rows;
  cv.ascii = ascii;
  rli_plot_axes(p, &cv.ax);
  cv.c = calloc((size_t)cv.w * (size_t)cv.h, sizeof *cv.c);
  if (!cv.c) return rli_out_end(&o);
  for (int i = 0; i < cv.w * cv.h; i++) cv.c[i].color = -1;
  draw(&cv, p);
  char tbuf[300];
  rli_plot_clean(p->title && *p->title ? p->title : "Roofline", tbuf, sizeof tbuf, ascii);
  put_cut(&o, tbuf, (size_t)L.W);
  rli_out_puts(&o, "\n");
  print_grid(&o, &cv, p, color);
  print_x_axis(&o, &cv, L.W);
  print_roofs(&o, p, &L, ascii, color);
  print_points(&o, p, &L, ascii, color);
  free(cv.c);
  return rli_out_end(&o);
}
