/*
 * charts.c -- the trace and measurement charts (see charts.h).
 */
#include "charts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

rl_plot chart_plot(const chart_data *c) {
  rl_plot p = rl_plot_init();
  p.title = c->title;
  p.subtitle = c->subtitle;
  p.roofs = c->roofs;
  p.n_roofs = c->n_roofs;
  p.points = c->points;
  p.n_points = c->n_points;
  p.flags = c->flags;
  return p;
}

void chart_short_name(const char *s, char *out, size_t w) {
  if (!w) return;
  if (!strncmp(s, "void ", 5)) s += 5;
  char tmp[512];
  size_t n = 0;
  int depth = 0;
  for (const char *p = s; *p && n + 1 < sizeof tmp; p++) {
    if (*p == '<') { depth++; continue; }
    if (*p == '>') { if (depth) depth--; continue; }
    if (depth) continue;
    if (*p == '(' && n > 0) break;
    tmp[n++] = *p;
  }
  tmp[n] = 0;
  /* the last name after a namespace ("::"), not inside the parameters */
  const char *base = tmp, *prev = tmp;
  for (const char *p = tmp; (p = strstr(p, "::")) != NULL; p += 2)
    if (p[2]) prev = base, base = p + 2;
  if (strlen(base) < 8) base = prev; /* "Kernel": keep its namespace */
  while (*base == ' ') base++;
  if (!*base) base = s;
  snprintf(out, w, "%s", base);
  if (strlen(base) >= w && w > 4) memcpy(out + w - 4, "...", 4);
}

void chart_kernel_name(const char *s, char *out, size_t w, int mark_templates) {
  if (!w) return;
  if (!strncmp(s, "void ", 5)) s += 5;
  size_t n = 0;
  int depth = 0;
  for (const char *p = s; *p && n + 1 < w; p++) {
    if (*p == '<') {
      if (depth++ == 0 && n && mark_templates) {
        out[n++] = '<';
        if (n + 1 < w) out[n++] = '>';
      }
      continue;
    }
    if (*p == '>') { if (depth) depth--; continue; }
    if (depth) continue;
    if (*p == '(' && n > 0) break;
    out[n++] = *p;
  }
  out[n] = 0;
  if (n + 1 >= w && w > 4) memcpy(out + w - 4, "...", 4);
  if (!n) snprintf(out, w, "%.*s", (int)(w - 1), s);
}

static int32_t peak_dtype(int32_t pk) {
  switch (pk) {
  case RL_PEAK_FP64: case RL_PEAK_FP64_TENSOR: return RL_FP64;
  case RL_PEAK_FP32: return RL_FP32;
  case RL_PEAK_TF32: return RL_TF32;
  case RL_PEAK_FP16: return RL_FP16;
  case RL_PEAK_FP8: return RL_FP8;
  case RL_PEAK_INT8: return RL_INT8;
  default: return RL_BF16;
  }
}

int chart_trace(const rl_hw *hw, const rl_trace_row *rows, int32_t n, int32_t top, const char *source,
                chart_data *c) {
  memset(c, 0, sizeof *c);
  if (top > CHART_POINTS) top = CHART_POINTS;
  int32_t dts[CHART_ROOFS];
  for (int32_t i = 0; i < n && c->n_points < top; i++) {
    const rl_trace_row *r = &rows[i];
    if (!r->has_cost || !r->has_time || !(r->flops > 0) || !(r->bytes > 0) || !(r->time_s > 0) ||
        !(r->at_roof_s > 0) || r->roof != RL_TRACE_ROOF_CHIP)
      continue;
    /* its format's roof, made once */
    int32_t dt = r->dtype >= 0 ? r->dtype : peak_dtype(r->peak_kind), ri = -1;
    for (int32_t k = 0; k < c->n_roofs; k++)
      if (dts[k] == dt) ri = k;
    if (ri < 0 && c->n_roofs < CHART_ROOFS) {
      rl_plot_roof *rf = &c->roofs[c->n_roofs];
      if (rl_plot_roof_from_hw(hw, dt, 0, rf, NULL) == RL_OK) {
        rf->color = 1;
        rf->dash = c->n_roofs + 1;
        snprintf(rf->peak_name, sizeof rf->peak_name, "%s peak", rl_dtype_name(dt));
        dts[c->n_roofs] = dt;
        ri = c->n_roofs++;
      }
    }
    rl_plot_point *p = &c->points[c->n_points++];
    memset(p, 0, sizeof *p);
    char nm[44], op[44];
    chart_short_name(r->name, nm, sizeof nm);
    chart_short_name(r->op ? r->op : "", op, sizeof op);
    if (op[0] && strcmp(op, nm) != 0) snprintf(p->label, sizeof p->label, "%s [%s]", nm, op);
    else snprintf(p->label, sizeof p->label, "%s", nm);
    p->flops = r->flops;
    p->bytes = r->bytes;
    p->intensity = r->intensity;
    p->perf = r->flops / r->time_s;
    p->roof_perf = r->flops / r->at_roof_s; /* at its roof, never below the floor */
    p->time_s = r->time_s;
    p->measured = 1;
    p->bound = r->bound;
    p->roof = ri >= 0 ? ri : 0;
  }
  if (!c->n_points || !c->n_roofs) return -1;
  const char *base = source ? strrchr(source, '/') : NULL;
  base = base ? base + 1 : source ? source : "";
  snprintf(c->title, sizeof c->title, "Top %d kernels by time to gain, on the %s roofline", (int)c->n_points,
           hw->name[0] ? hw->name : hw->id);
  snprintf(c->subtitle, sizeof c->subtitle,
           "%s; achieved FLOP/s (total F over total time) under the roof of each kernel's format; "
           "marker area: time; [op] the launching op",
           base);
  c->flags = RL_PLOT_AREA_TIME;
  return 0;
}

int chart_measure(const rl_measurement *m, chart_data *c) {
  memset(c, 0, sizeof *c);
  static const char *lv[RL_LEVEL_COUNT] = {"L1", "L2", "L3", "DRAM"};
  static const struct { int pk; const char *name; } pks[] = {
      {RL_PK_BF16_DOT, "BF16 dot"}, {RL_PK_FP32_FMA_ADD, "FP32 FMA+add"}, {RL_PK_FP32_FMA, "FP32 FMA"},
      {RL_PK_FP64_FMA_ADD, "FP64 FMA+add"}, {RL_PK_FP64_FMA, "FP64 FMA"}};
  double bw[RL_LEVEL_COUNT] = {0};
  for (int l = 0; l < RL_LEVEL_COUNT; l++)
    for (int k = 0; k < 3; k++)
      if (m->sweep[0][k].kernel >= 0 && m->sweep[0][k].levels.bw[l] > bw[l]) bw[l] = m->sweep[0][k].levels.bw[l];
  rl_plot_roof *r = &c->roofs[0];
  /* the flat roof: the highest measured peak; the others ceilings */
  int top = -1;
  for (size_t k = 0; k < sizeof pks / sizeof pks[0]; k++)
    if (m->peak.flops[pks[k].pk] > 0 && (top < 0 || m->peak.flops[pks[k].pk] > m->peak.flops[pks[top].pk]))
      top = (int)k;
  int dram = bw[RL_LEVEL_DRAM] > 0 ? RL_LEVEL_DRAM : -1;
  for (int l = RL_LEVEL_COUNT - 1; dram < 0 && l >= 0; l--)
    if (bw[l] > 0) dram = l;
  if (top < 0 || dram < 0) return -1;
  snprintf(r->label, sizeof r->label, "%s, %d threads", m->cpu.model[0] ? m->cpu.model : "this CPU", (int)m->threads);
  snprintf(r->peak_name, sizeof r->peak_name, "%s", pks[top].name);
  r->peak = m->peak.flops[pks[top].pk];
  r->bandwidth = bw[dram];
  snprintf(r->bw_name, sizeof r->bw_name, "%s", lv[dram]);
  for (int l = 0; l < dram; l++)
    if (bw[l] > bw[dram] && r->n_levels < RL_PLOT_LEVELS) {
      r->level_bw[r->n_levels] = bw[l];
      snprintf(r->level_name[r->n_levels++], sizeof r->level_name[0], "%s", lv[l]);
    }
  for (size_t k = 0; k < sizeof pks / sizeof pks[0]; k++) {
    double v = m->peak.flops[pks[k].pk];
    if ((int)k == top || !(v > 0) || r->n_ceilings >= RL_PLOT_CEILINGS) continue;
    r->ceiling[r->n_ceilings] = v;
    snprintf(r->ceiling_label[r->n_ceilings++], sizeof r->ceiling_label[0], "%s", pks[k].name);
  }
  r->color = 1;
  c->n_roofs = 1;
  for (int32_t i = 0; i < m->n_points && c->n_points < CHART_POINTS; i++) {
    const rl_measure_point *p = &m->points[i];
    rl_plot_point *q = &c->points[c->n_points++];
    memset(q, 0, sizeof *q);
    snprintf(q->label, sizeof q->label, "%s %.0f", p->op, p->n);
    q->flops = p->flops;
    q->bytes = p->bytes;
    q->intensity = p->intensity;
    q->perf = p->achieved;
    q->roof_perf = p->roof;
    q->time_s = p->t.min;
    q->measured = 1;
    q->bound = p->bound;
    q->marker = p->dtype == RL_FP64 ? RL_MARK_SQUARE : RL_MARK_CIRCLE;
  }
  snprintf(c->title, sizeof c->title, "Measured roofline of %s%s%s%s", m->cpu.model[0] ? m->cpu.model : "this CPU",
           m->cpu.uarch[0] ? " (" : "", m->cpu.uarch, m->cpu.uarch[0] ? ")" : "");
  snprintf(c->subtitle, sizeof c->subtitle,
           "%d threads; best of read/copy/triad per memory level; FMA peaks; OpenBLAS gemm (circles fp32, "
           "squares fp64) and an fp32 add, each against the roof of the level its data fits in",
           (int)m->threads);
  return 0;
}

static int env_count(const char *name) {
  const char *v = getenv(name);
  if (!v || !*v) return 0;
  char *end;
  long n = strtol(v, &end, 10);
  return *end == 0 && n > 0 && n < 100000 ? (int)n : 0;
}

void chart_term_size(FILE *out, int *cols, int *rows) {
  *cols = env_count("COLUMNS");
  *rows = env_count("LINES");
  int fd = out ? fileno(out) : -1;
  struct winsize ws;
  if ((!*cols || !*rows) && fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0) {
    if (!*cols) *cols = ws.ws_col;
    if (!*rows) *rows = ws.ws_row;
  }
  if (*rows > 1) *rows -= 1;
}

int chart_term_color(FILE *out, int force) {
  const char *nc = getenv("NO_COLOR");
  if (nc && *nc) return 0;
  int fd = out ? fileno(out) : -1;
  return force || (fd >= 0 && isatty(fd));
}
