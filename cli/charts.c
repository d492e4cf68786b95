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

/* The median of v[0..n) (sorted in place; n > 0). */
static double median(double *v, int32_t n) {
  for (int32_t i = 1; i < n; i++) /* insertion sort: n <= CHART_POINTS */
    for (int32_t j = i; j > 0 && v[j] < v[j - 1]; j--) {
      double t = v[j];
      v[j] = v[j - 1], v[j - 1] = t;
    }
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* An Nsight Compute launch that the hierarchical chart can place: F, a
 * time, and the bytes and roof of at least two of L1, L2 and DRAM. */
static int hier_row(const rl_trace_row *r) {
  if (r->launch_id < 0 || !r->has_time || !(r->time_s > 0) || !(r->flops > 0) || !(r->compute_peak > 0))
    return 0;
  int lv = (r->l1_bytes > 0 && r->l1_bw > 0) + (r->l2_bytes > 0 && r->l2_bw > 0) +
           (r->dram_bytes > 0 && r->dram_bw > 0);
  return lv >= 2;
}

/* The hierarchical roofline of an Nsight Compute export (Yang, Kurth &
 * Williams, "Hierarchical Roofline analysis for GPUs", 2020): each launch
 * at its L1, L2 and DRAM intensities (F over the bytes of that level), all
 * three at its achieved F / time and joined, against one roof per level
 * (the level's bandwidth under the compute peak), one hue and one marker
 * shape per level. The roofs are the launches' own (the export's
 * peak-sustained rates, else the database's scaled to the profiled clock,
 * as the analysis found them); where the launches ran at different clocks
 * the chart draws the median launch's roofs, and each launch's gap and
 * fraction stay against its own. The launch's label and gap are on its
 * binding level. -1 when fewer than one launch qualifies. */
static int chart_hier(const rl_hw *hw, const rl_trace_row *rows, int32_t n, int32_t top, const char *source,
                      chart_data *c) {
  static const struct { const char *name, *shape; int32_t marker, hue, level; } lv[3] = {
      {"L1", "triangles", RL_MARK_TRIANGLE, 1, RL_LEVEL_L1},
      {"L2", "squares", RL_MARK_SQUARE, 2, RL_LEVEL_L2},
      {"HBM", "circles", RL_MARK_CIRCLE, 0, RL_LEVEL_DRAM}};
  const rl_trace_row *pick[CHART_POINTS / 3];
  int32_t np = 0, maxk = CHART_POINTS / 3;
  if (top > maxk) top = maxk;
  for (int32_t i = 0; i < n && np < top; i++)
    if (hier_row(&rows[i])) pick[np++] = &rows[i];
  if (!np) return -1;
  /* the roofs: per level the median launch's bandwidth; the highest
   * format's median peak flat, the others as ceilings */
  double v[CHART_POINTS / 3], bw[3] = {0}, spread = 0;
  for (int k = 0; k < 3; k++) {
    int32_t m = 0;
    for (int32_t i = 0; i < np; i++) {
      double b = k == 0 ? pick[i]->l1_bw : k == 1 ? pick[i]->l2_bw : pick[i]->dram_bw;
      if (b > 0) v[m++] = b;
    }
    if (!m) continue;
    bw[k] = median(v, m);
    spread = fmax(spread, fmax(v[m - 1] / bw[k], bw[k] / v[0]) - 1);
  }
  int32_t dts[RL_PLOT_CEILINGS + 1], ndt = 0;
  double pk[RL_PLOT_CEILINGS + 1];
  for (int32_t i = 0; i < np; i++) {
    int32_t dt = pick[i]->dtype, seen = 0;
    for (int32_t d = 0; d < ndt; d++) seen |= dts[d] == dt;
    if (seen || ndt > RL_PLOT_CEILINGS) continue;
    int32_t m = 0;
    for (int32_t j = 0; j < np; j++)
      if (pick[j]->dtype == dt) v[m++] = pick[j]->compute_peak;
    double med = median(v, m);
    spread = fmax(spread, fmax(v[m - 1] / med, med / v[0]) - 1);
    dts[ndt] = dt, pk[ndt++] = med;
  }
  int32_t flat = 0;
  for (int32_t d = 1; d < ndt; d++)
    if (pk[d] > pk[flat]) flat = d;
  int32_t ri[3];
  for (int k = 0; k < 3; k++) {
    ri[k] = -1;
    if (!(bw[k] > 0)) continue;
    rl_plot_roof *rf = &c->roofs[c->n_roofs];
    memset(rf, 0, sizeof *rf);
    snprintf(rf->label, sizeof rf->label, "%s roof (%s)", lv[k].name, lv[k].shape);
    snprintf(rf->peak_name, sizeof rf->peak_name, "%s peak", dts[flat] >= 0 ? rl_dtype_name(dts[flat]) : "compute");
    rf->peak = pk[flat];
    rf->bandwidth = bw[k];
    snprintf(rf->bw_name, sizeof rf->bw_name, "%s", lv[k].name);
    for (int32_t d = 0; d < ndt; d++)
      if (d != flat && pk[d] < pk[flat] && rf->n_ceilings < RL_PLOT_CEILINGS) {
        rf->ceiling[rf->n_ceilings] = pk[d];
        snprintf(rf->ceiling_label[rf->n_ceilings++], sizeof rf->ceiling_label[0], "%s peak",
                 dts[d] >= 0 ? rl_dtype_name(dts[d]) : "compute");
      }
    rf->color = 1 + lv[k].hue;
    ri[k] = c->n_roofs++;
  }
  /* the points: the binding level first (labelled, with its gap) */
  for (int32_t i = 0; i < np; i++) {
    const rl_trace_row *r = pick[i];
    double by[3] = {r->l1_bytes, r->l2_bytes, r->dram_bytes}, rb[3] = {r->l1_bw, r->l2_bw, r->dram_bw};
    int order[3] = {0, 1, 2};
    for (int k = 0; k < 3; k++)
      if (lv[k].level == r->binding_level) order[0] = k, order[k] = 0;
    char nm[48];
    rl_kernel_display_name(r->name, nm, sizeof nm, RL_NAME_LAST);
    for (int o = 0; o < 3; o++) {
      int k = order[o];
      if (!(by[k] > 0) || !(rb[k] > 0) || ri[k] < 0) continue;
      c->from[c->n_points] = (int32_t)(pick[i] - rows);
      rl_plot_point *p = &c->points[c->n_points++];
      memset(p, 0, sizeof *p);
      snprintf(p->label, sizeof p->label, "#%lld %s, %s", (long long)r->launch_id, nm, lv[k].name);
      p->flops = r->flops;
      p->bytes = by[k];
      p->intensity = r->flops / by[k];
      p->perf = r->flops / r->time_s;
      /* its own roof at this level's intensity, on the binding level */
      if (lv[k].level == r->binding_level) p->roof_perf = fmin(r->compute_peak, rb[k] * p->intensity);
      p->time_s = r->time_s;
      p->measured = 1;
      p->bound = r->bound;
      p->roof = ri[k];
      p->marker = lv[k].marker;
      p->group = i + 1;
    }
  }
  const char *base = source ? strrchr(source, '/') : NULL;
  base = base ? base + 1 : source ? source : "";
  snprintf(c->title, sizeof c->title, "Hierarchical roofline of %d launches on the %s (Nsight Compute)", (int)np,
           hw->name[0] ? hw->name : hw->id);
  int exported = 0;
  for (int32_t i = 0; i < np; i++)
    exported |= !(pick[i]->note && strstr(pick[i]->note, "roofs not in the export"));
  snprintf(c->subtitle, sizeof c->subtitle,
           "%s; each launch at its L1, L2 and HBM intensities (F / that level's bytes) and achieved FLOP/s, "
           "joined; label, %% and gap on its binding level; roofs %s%s",
           base, exported ? "from the export's peak-sustained rates" : "of the database at the profiled clock",
           spread > 0.01 ? " (median launch; each % against its own)" : "");
  c->flags = RL_PLOT_AREA_TIME;
  return 0;
}

/* A CPU trace's row the chart can place: F, Q, a time, its bound and the
 * memory level its working set fits in (rl_trace_row.level). */
static int cpu_row(const rl_trace_row *r) {
  return r->has_cost && r->has_time && r->flops > 0 && r->bytes > 0 && r->time_s > 0 && r->bound_time_s > 0 &&
         r->roof == RL_TRACE_ROOF_CHIP && r->level >= 0 && r->level < RL_LEVEL_COUNT;
}

/* The cache-aware roofline of a CPU trace (Ilic, Pratas and Sousa, "Cache-
 * aware roofline model", IEEE CAL 2014; the analysis' cpu_memory_time in
 * src/core/trace_analyze.c): one slanted roof per memory level the
 * measured row has a bandwidth for (L1, L2, L3, DRAM: l1_bw, l2_bw,
 * l3_bw, mem_bw), under the highest peak of the ops' formats (the others
 * as ceilings); each op at its F/Q and achieved F/time, in the hue and
 * marker shape of the level its working set fits in -- the level whose
 * roof the analysis bounds its bytes by -- and its own bound F / bound
 * time as the tick its gap runs up to (max(F/peak, Q/B_fastest, (W -
 * faster caches)/B_level): at or above its level's line, as the faster
 * caches hold part of its working set). A level without a bandwidth
 * figure lends the nearest faster one's, as in the bound. -1 when no row
 * of a CPU trace can be placed. */
static int chart_cpu(const rl_hw *hw, const rl_trace_row *rows, int32_t n, int32_t top, const char *source,
                     chart_data *c) {
  static const struct { const char *name, *shape; int32_t marker, hue; } lv[RL_LEVEL_COUNT] = {
      {"L1", "triangles", RL_MARK_TRIANGLE, 1},
      {"L2", "squares", RL_MARK_SQUARE, 2},
      {"L3", "diamonds", RL_MARK_DIAMOND, 3},
      {"DRAM", "circles", RL_MARK_CIRCLE, 0}};
  const double bw[RL_LEVEL_COUNT] = {hw->l1_bw, hw->l2_bw, hw->l3_bw, hw->mem_bw};
  int32_t pick[CHART_POINTS], np = 0;
  if (top > CHART_POINTS) top = CHART_POINTS;
  for (int32_t i = 0; i < n && np < top; i++)
    if (cpu_row(&rows[i])) pick[np++] = i;
  if (!np) return -1;
  /* the peaks of the ops' formats, as the analysis took them */
  int32_t pks[RL_PLOT_CEILINGS + 1], npk = 0, flat = -1;
  double pv[RL_PLOT_CEILINGS + 1];
  for (int32_t i = 0; i < np; i++) {
    int32_t pk = rows[pick[i]].peak_kind, seen = 0;
    rl_roof cr;
    for (int32_t d = 0; d < npk; d++) seen |= pks[d] == pk;
    if (seen || npk > RL_PLOT_CEILINGS || pk < 0 || rl_hw_roof(hw, pk, 0, &cr, NULL) != RL_OK || !(cr.peak > 0))
      continue;
    pks[npk] = pk, pv[npk++] = cr.peak;
  }
  for (int32_t d = 0; d < npk; d++)
    if (flat < 0 || pv[d] > pv[flat]) flat = d;
  if (flat < 0) return -1;
  /* the level of each op's roof: its own, else the nearest faster one
   * with a figure, else DRAM (cpu_memory_time's rule) */
  int32_t use[RL_LEVEL_COUNT], ri[RL_LEVEL_COUNT];
  for (int32_t k = 0; k < RL_LEVEL_COUNT; k++) {
    use[k] = -1;
    for (int32_t j = k; j >= 0 && use[k] < 0; j--)
      if (bw[j] > 0) use[k] = j;
    if (use[k] < 0 && bw[RL_LEVEL_DRAM] > 0) use[k] = RL_LEVEL_DRAM;
    ri[k] = -1;
  }
  /* every level with a figure gets its roof, its ops or not */
  for (int32_t k = 0; k < RL_LEVEL_COUNT; k++) {
    if (!(bw[k] > 0) || c->n_roofs >= CHART_ROOFS) continue;
    rl_plot_roof *rf = &c->roofs[c->n_roofs];
    memset(rf, 0, sizeof *rf);
    /* the levels whose ops it bounds (a level without a figure borrows it) */
    char also[32] = "";
    for (int32_t j = k + 1; j < RL_LEVEL_COUNT; j++)
      if (use[j] == k && !(bw[j] > 0)) {
        size_t l = strlen(also);
        snprintf(also + l, sizeof also - l, " or %s", lv[j].name);
      }
    if (k == RL_LEVEL_DRAM)
      snprintf(rf->label, sizeof rf->label, "DRAM roof (%s): ops whose working set no cache holds", lv[k].shape);
    else
      snprintf(rf->label, sizeof rf->label, "%s roof (%s): ops whose working set fits the %s%s%s", lv[k].name,
               lv[k].shape, lv[k].name, also[0] ? ", no figure for the" : "", also[0] ? also + 3 : "");
    snprintf(rf->peak_name, sizeof rf->peak_name, "%s peak", rl_peak_name(pks[flat]));
    rf->peak = pv[flat];
    rf->bandwidth = bw[k];
    snprintf(rf->bw_name, sizeof rf->bw_name, "%s", lv[k].name);
    for (int32_t d = 0; d < npk; d++)
      if (d != flat && pv[d] < pv[flat] && rf->n_ceilings < RL_PLOT_CEILINGS) {
        rf->ceiling[rf->n_ceilings] = pv[d];
        snprintf(rf->ceiling_label[rf->n_ceilings++], sizeof rf->ceiling_label[0], "%s peak", rl_peak_name(pks[d]));
      }
    rf->color = 1 + lv[k].hue;
    ri[k] = c->n_roofs++;
  }
  for (int32_t i = 0; i < np; i++) {
    const rl_trace_row *r = &rows[pick[i]];
    int32_t k = use[r->level];
    if (k < 0 || ri[k] < 0) continue;
    c->from[c->n_points] = pick[i];
    rl_plot_point *p = &c->points[c->n_points++];
    memset(p, 0, sizeof *p);
    char nm[44], op[44];
    rl_kernel_display_name(r->name, nm, sizeof nm, RL_NAME_LAST);
    rl_kernel_display_name(r->op ? r->op : "", op, sizeof op, RL_NAME_LAST);
    if (op[0] && strcmp(op, nm) != 0) snprintf(p->label, sizeof p->label, "%s [%s], %s", nm, op, lv[r->level].name);
    else snprintf(p->label, sizeof p->label, "%s, %s", nm, lv[r->level].name);
    p->flops = r->flops;
    p->bytes = r->bytes;
    p->intensity = r->intensity;
    p->perf = r->flops / r->time_s;
    p->roof_perf = r->flops / r->bound_time_s; /* its own bound, as the table's roof % */
    p->time_s = r->time_s;
    p->measured = 1;
    p->bound = r->bound;
    p->roof = ri[k];
    p->marker = lv[r->level].marker;
  }
  if (!c->n_points) return -1;
  const char *base = source ? strrchr(source, '/') : NULL;
  base = base ? base + 1 : source ? source : "";
  snprintf(c->title, sizeof c->title, "Top %d ops by time to gain, on the cache-aware roofline of the %s", (int)c->n_points,
           hw->name[0] ? hw->name : hw->id);
  snprintf(c->subtitle, sizeof c->subtitle,
           "%s; each op at F/Q and its achieved FLOP/s (F over its self time), in the colour and shape of the "
           "cache level its working set fits in, whose roof bounds its bytes; marker area: time; [op] the "
           "calling op",
           base);
  c->flags = RL_PLOT_AREA_TIME;
  return 0;
}

int chart_trace(const rl_hw *hw, const rl_trace_row *rows, int32_t n, int32_t top, const char *source,
                chart_data *c) {
  memset(c, 0, sizeof *c);
  /* Nsight Compute with the level counters: the hierarchical chart */
  if (chart_hier(hw, rows, n, top, source, c) == 0) return 0;
  memset(c, 0, sizeof *c);
  /* a CPU trace: the cache-aware chart, one roof per measured level */
  for (int32_t i = 0; i < n; i++)
    if (rows[i].level >= 0) {
      if (chart_cpu(hw, rows, n, top, source, c) == 0) return 0;
      memset(c, 0, sizeof *c);
      break;
    }
  if (top > CHART_POINTS) top = CHART_POINTS;
  int32_t dts[CHART_ROOFS];
  for (int32_t i = 0; i < n && c->n_points < top; i++) {
    const rl_trace_row *r = &rows[i];
    if (!r->has_cost || !r->has_time || !(r->flops > 0) || !(r->bytes > 0) || !(r->time_s > 0) ||
        !(r->bound_time_s > 0) || r->roof != RL_TRACE_ROOF_CHIP)
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
    c->from[c->n_points] = i;
    rl_plot_point *p = &c->points[c->n_points++];
    memset(p, 0, sizeof *p);
    char nm[44], op[44];
    rl_kernel_display_name(r->name, nm, sizeof nm, RL_NAME_LAST);
    rl_kernel_display_name(r->op ? r->op : "", op, sizeof op, RL_NAME_LAST);
    if (op[0] && strcmp(op, nm) != 0) snprintf(p->label, sizeof p->label, "%s [%s]", nm, op);
    else snprintf(p->label, sizeof p->label, "%s", nm);
    p->flops = r->flops;
    p->bytes = r->bytes;
    p->intensity = r->intensity;
    p->perf = r->flops / r->time_s;
    /* its roof: F over the bound time max(F/peak, Q/bw), the time_s and
     * roof_fraction of the row. Not the floor-raised at_roof_s: an
     * overhead-bound kernel faster than the launch overhead but slower than
     * its bound would be drawn above a roof it is below (and warned about),
     * while the table and above_roof say it is not. */
    p->roof_perf = r->flops / r->bound_time_s;
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

int chart_trace_all(const rl_hw *hw, const rl_trace *t, const rl_trace_row *rows, int32_t n, int32_t top,
                    const char *source, chart_data *c) {
  int none = chart_trace(hw, rows, n, top, source, c) != 0;
  if (none) memset(c, 0, sizeof *c);
  int32_t nco = 0, skipped = 0;
  const rl_trace_coll *co = t ? rl_trace_colls(t, &nco) : NULL;
  if (co && chart_trace_colls(hw, co, nco, top < 4 ? top : 4, source, c, &skipped) == 0) none = 0;
  return none ? -1 : 0;
}

/* Reductions of a collective on one rank per byte on the link (see
 * charts.h): the ring algorithms of NCCL (all-reduce = reduce-scatter +
 * all-gather; each rank adds (n-1)/n of the elements), bus bytes by
 * nccl-tests' doc/PERFORMANCE.md. */
int chart_trace_colls(const rl_hw *hw, const rl_trace_coll *co, int32_t n, int32_t top,
                      const char *source, chart_data *c, int32_t *skipped) {
  int32_t placed = 0, ri = -1;
  *skipped = 0;
  for (int32_t i = 0; i < n; i++) {
    const rl_trace_coll *x = &co[i];
    int32_t dt = -1;
    double es = 0, fr = 0, bus = 0;
    /* floating-point reductions only: integer adds have no roof here */
    if (x->dtype && x->dtype[0] && rl_dtype_parse(x->dtype, &dt, NULL) == RL_OK &&
        (dt == RL_FP64 || dt == RL_FP32 || dt == RL_BF16 || dt == RL_FP16))
      es = rl_dtype_bytes(dt);
    double m = x->ranks > 0 ? (x->ranks - 1.0) / x->ranks : 0;
    if (!strcmp(x->name, "allreduce")) fr = m, bus = 2 * m;
    else if (!strcmp(x->name, "reducescatter")) fr = m, bus = m;
    else if (!strcmp(x->name, "reduce")) fr = 1, bus = 1;
    if (!(fr > 0) || !(es > 0) || !(x->link_bw > 0) || !(x->time_s > 0) || !(x->msg_bytes > 0) ||
        x->count <= 0) {
      (*skipped)++;
      continue;
    }
    if (placed >= top || c->n_points >= CHART_POINTS) continue;
    if (ri < 0) {
      if (c->n_roofs >= CHART_ROOFS) return -1;
      rl_plot_roof *rf = &c->roofs[c->n_roofs];
      memset(rf, 0, sizeof *rf);
      snprintf(rf->label, sizeof rf->label, "%.60s link, one direction", hw->name[0] ? hw->name : hw->id);
      snprintf(rf->peak_name, sizeof rf->peak_name, "fp32 vector peak");
      rf->peak = hw->peak[RL_PEAK_FP32];
      rf->bandwidth = x->link_bw;
      snprintf(rf->bw_name, sizeof rf->bw_name, "link");
      if (!(rf->peak > 0)) return -1;
      rf->color = 2;
      ri = c->n_roofs++;
    }
    c->from[c->n_points] = -1 - i;
    rl_plot_point *p = &c->points[c->n_points++];
    memset(p, 0, sizeof *p);
    double calls = (double)x->count, F = calls * fr * x->msg_bytes / es, Q = calls * bus * x->msg_bytes;
    char sz[32];
    rl_format_quantity(x->msg_bytes, RL_UNIT_BYTES, sz, sizeof sz);
    snprintf(p->label, sizeof p->label, "%s %s, %d ranks%s", x->name, sz, (int)x->ranks,
             x->ranks_guess ? "?" : "");
    p->flops = F;
    p->bytes = Q;
    p->intensity = F / Q;
    p->perf = F / x->time_s;
    p->roof_perf = fmin(c->roofs[ri].peak, x->link_bw * p->intensity);
    p->time_s = x->time_s;
    p->measured = 1;
    p->bound = RL_BOUND_NETWORK;
    p->roof = ri;
    p->marker = RL_MARK_DIAMOND;
    placed++;
  }
  if (!placed) return -1;
  const char *base = source ? strrchr(source, '/') : NULL;
  base = base ? base + 1 : source ? source : "";
  size_t l = strlen(c->subtitle);
  if (l == 0) {
    snprintf(c->title, sizeof c->title, "Collectives on the %s link roofline", hw->name[0] ? hw->name : hw->id);
    snprintf(c->subtitle, sizeof c->subtitle, "%s; ", base);
    l = strlen(c->subtitle);
    c->flags = RL_PLOT_AREA_TIME;
  } else if (l + 2 < sizeof c->subtitle) {
    snprintf(c->subtitle + l, sizeof c->subtitle - l, "; ");
    l += 2;
  }
  if (l < sizeof c->subtitle)
    snprintf(c->subtitle + l, sizeof c->subtitle - l,
             "diamonds: reducing collectives, their adds over nccl-tests' bus bytes, on the link's roof");
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

void chart_term_spell(char *text) {
  static const char lib[] = "(`height`)", cli[] = "(--height)"; /* one length */
  for (char *p = text; (p = strstr(p, lib)) != NULL; p += sizeof lib - 1) memcpy(p, cli, sizeof cli - 1);
}

int chart_term_color(FILE *out, int force) {
  const char *nc = getenv("NO_COLOR");
  if (nc && *nc) return 0;
  int fd = out ? fileno(out) : -1;
  return force || (fd >= 0 && isatty(fd));
}
