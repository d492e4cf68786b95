/*
 * measure_model.c -- the pure half of `roofline measure`: statistics of
 * repeated timings, STREAM's byte counting, plateau detection in a
 * bandwidth sweep, and the analysis of a measurement (levels, roofs,
 * roof fractions, noise). No clock, no I/O: timings come in as data, so
 * all of it is unit-tested with made-up numbers (tests/unit/test_measure.c).
 *
 * Exports rl_stats_of, rl_bw_kernel_name, rl_bw_kernel_arrays,
 * rl_bw_traffic, rl_level_name, rl_find_plateaus, rl_bw_levels,
 * rl_peak_kernel_name, rl_measure_parts_parse, rl_cache_capacity,
 * rl_measure_disturbed, rl_sweep_retake and rl_measure_analyze. The JSON
 * and hardware-row writers are in measure_report.c.
 *
 * Sources:
 *   - Byte counting: J. D. McCalpin, STREAM (stream.c, "bytes" table):
 *     Copy 2 words, Scale 2, Add 3, Triad 3 per element; write-allocate
 *     traffic is not counted. likwid-bench counts the same way (its
 *     "Data volume" is loads plus stores). Our "read" kernel is likwid's
 *     "load": 1 word.
 *   - Statistics: STREAM reports min/avg/max time and the bandwidth from the
 *     best (minimum) time; we do the same and add the median.
 *   - Roofline: Williams, Waterman & Patterson, CACM 52(4), 2009: attainable
 *     = min(peak, bandwidth x intensity); the bandwidth is that of the level
 *     the kernel's data fits in (the "hierarchical" roofline of Ilic et al.,
 *     "Cache-aware Roofline model", IEEE CAL 2014).
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- statistics ------------------------------------------------------- */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

rl_status rl_stats_of(const double *x, int32_t n, rl_stats *out,
                      rl_error *err) {
  if (!x || !out) return rli_fail(err, RL_EINVAL, "no samples");
  if (n < 1 || n > RL_STATS_MAX)
    return rli_fail(err, RL_EINVAL, "sample count %d is not in 1..%d", (int)n,
                    RL_STATS_MAX);
  double s[RL_STATS_MAX];
  double sum = 0;
  for (int32_t i = 0; i < n; i++) {
    if (!isfinite(x[i]) || x[i] < 0)
      return rli_fail(err, RL_EINVAL, "sample %d is negative or not finite",
                      (int)i);
    s[i] = x[i];
    sum += x[i];
  }
  qsort(s, (size_t)n, sizeof s[0], cmp_double);
  memset(out, 0, sizeof *out);
  out->n = n;
  out->min = s[0];
  out->max = s[n - 1];
  out->median = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  out->mean = sum / n;
  out->spread = out->min > 0 ? (out->max - out->min) / out->min : 0;
  return RL_OK;
}

/* ---- kernels and their traffic -------------------------------------- */
static const char *const bw_names[RL_BW_KERNEL_COUNT] = {"read", "copy",
                                                         "triad", "add"};
/* words read + written per element, FLOPs per element (STREAM) */
static const double bw_words[RL_BW_KERNEL_COUNT] = {1, 2, 3, 3};
static const double bw_flops[RL_BW_KERNEL_COUNT] = {1, 0, 2, 1};
static const int32_t bw_arrays[RL_BW_KERNEL_COUNT] = {1, 2, 3, 3};

const char *rl_bw_kernel_name(int32_t kernel) {
  return kernel >= 0 && kernel < RL_BW_KERNEL_COUNT ? bw_names[kernel] : NULL;
}

int32_t rl_bw_kernel_arrays(int32_t kernel) {
  return kernel >= 0 && kernel < RL_BW_KERNEL_COUNT ? bw_arrays[kernel] : 0;
}

rl_status rl_bw_traffic(int32_t kernel, double elems, double elem_bytes,
                        double *bytes, double *flops, rl_error *err) {
  if (kernel < 0 || kernel >= RL_BW_KERNEL_COUNT)
    return rli_fail(err, RL_ENOTFOUND, "unknown bandwidth kernel %d",
                    (int)kernel);
  rl_status st = rli_check_size(elems, "elements", err);
  if (st) return st;
  if ((st = rli_check_size(elem_bytes, "element size", err))) return st;
  if (bytes) *bytes = bw_words[kernel] * elems * elem_bytes;
  if (flops) *flops = bw_flops[kernel] * elems;
  return RL_OK;
}

static const char *const level_names[RL_LEVEL_COUNT] = {"l1", "l2", "l3",
                                                        "dram"};
const char *rl_level_name(int32_t level) {
  return level >= 0 && level < RL_LEVEL_COUNT ? level_names[level] : NULL;
}

static const char *const pk_names[RL_PK_COUNT] = {
    "fp64", "fp32", "bf16", "fp64_fma_add", "fp32_fma_add"};
const char *rl_peak_kernel_name(int32_t k) {
  return k >= 0 && k < RL_PK_COUNT ? pk_names[k] : NULL;
}

/* ---- plateaus ----------------------------------------------------------- */
static double median_of(const double *v, int32_t n) {
  double s[512];
  if (n <= 0) return 0;
  if (n > (int32_t)(sizeof s / sizeof s[0])) n = (int32_t)(sizeof s / sizeof s[0]);
  memcpy(s, v, (size_t)n * sizeof *s);
  qsort(s, (size_t)n, sizeof s[0], cmp_double);
  return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

static rl_status check_sweep(const double *ws, const double *bw, int32_t n,
                             rl_error *err) {
  if (!ws || !bw) return rli_fail(err, RL_EINVAL, "no sweep");
  if (n < 1 || n > RL_MEASURE_MAX_WS * 4)
    return rli_fail(err, RL_EINVAL, "sweep of %d points", (int)n);
  for (int32_t i = 0; i < n; i++) {
    if (!rli_positive(ws[i]) || !rli_positive(bw[i]))
      return rli_fail(err, RL_EINVAL,
                      "sweep point %d: working set and bandwidth must be > 0",
                      (int)i);
    if (i && ws[i] < ws[i - 1])
      return rli_fail(err, RL_EINVAL, "sweep working sets must ascend");
  }
  return RL_OK;
}

rl_status rl_find_plateaus(const double *ws, const double *bw, int32_t n,
                           double tol, int32_t min_points, rl_plateau *out,
                           int32_t cap, int32_t *n_out, rl_error *err) {
  if (!n_out) return rli_fail(err, RL_EINVAL, "no output count");
  *n_out = 0;
  rl_status st = check_sweep(ws, bw, n, err);
  if (st) return st;
  if (!(tol > 0) || tol > 10)
    return rli_fail(err, RL_EINVAL, "plateau tolerance must be in (0, 10]");
  if (min_points < 1) min_points = 1;
  int32_t found = 0;
  for (int32_t i = 0; i < n;) {
    int32_t j = i;
    double lo = bw[i], hi = bw[i];
    while (j + 1 < n) {
      double v = bw[j + 1];
      double nlo = v < lo ? v : lo, nhi = v > hi ? v : hi;
      if (nhi > nlo * (1 + tol)) break;
      lo = nlo;
      hi = nhi;
      j++;
    }
    if (j - i + 1 >= min_points) {
      if (out && found < cap) {
        rl_plateau *p = &out[found];
        p->first = i;
        p->last = j;
        p->ws_lo = ws[i];
        p->ws_hi = ws[j];
        p->value = median_of(bw + i, j - i + 1);
        p->spread = (hi - lo) / p->value;
      }
      found++;
    }
    i = j + 1;
  }
  *n_out = found;
  return RL_OK;
}

rl_status rl_bw_levels(const double *ws, const double *bw, int32_t n,
                       const double cache[3], double tol, rl_levels *out,
                       rl_error *err) {
  if (!out || !cache) return rli_fail(err, RL_EINVAL, "no output");
  memset(out, 0, sizeof *out);
  rl_status st = check_sweep(ws, bw, n, err);
  if (st) return st;
  rl_plateau pl[RL_MEASURE_MAX_WS * 4];
  int32_t np = 0;
  st = rl_find_plateaus(ws, bw, n, tol, 2, pl, RL_MEASURE_MAX_WS * 4, &np, err);
  if (st) return st;
  /* capacity ranges: level k holds (lo, hi] */
  double lo[RL_LEVEL_COUNT], hi[RL_LEVEL_COUNT];
  int present[RL_LEVEL_COUNT];
  double prev = 0;
  for (int k = 0; k < 3; k++) {
    present[k] = cache[k] > prev;
    lo[k] = prev;
    hi[k] = present[k] ? cache[k] : prev;
    if (present[k]) prev = cache[k];
  }
  present[RL_LEVEL_DRAM] = 1;
  lo[RL_LEVEL_DRAM] = prev;
  hi[RL_LEVEL_DRAM] = HUGE_VAL;
  if (prev == 0) /* no cache sizes known: everything is "memory" */
    lo[RL_LEVEL_DRAM] = 0;
  for (int k = 0; k < RL_LEVEL_COUNT; k++) {
    if (!present[k]) continue;
    int best = -1;
    for (int32_t i = 0; i < np; i++) {
      double c = sqrt(pl[i].ws_lo * pl[i].ws_hi);
      if (!(c > lo[k] && c <= hi[k])) continue;
      if (best < 0 || pl[i].last - pl[i].first > pl[best].last - pl[best].first)
        best = (int)i;
    }
    if (best >= 0) {
      out->bw[k] = pl[best].value;
      out->spread[k] = pl[best].spread;
      out->ws_lo[k] = pl[best].ws_lo;
      out->ws_hi[k] = pl[best].ws_hi;
      out->found[k] = 1;
      continue;
    }
    double v[RL_MEASURE_MAX_WS * 4];
    int32_t m = 0;
    double vlo = HUGE_VAL, vhi = 0;
    for (int32_t i = 0; i < n; i++)
      if (ws[i] > lo[k] && ws[i] <= hi[k]) {
        if (m == 0) out->ws_lo[k] = ws[i];
        out->ws_hi[k] = ws[i];
        v[m++] = bw[i];
        if (bw[i] < vlo) vlo = bw[i];
        if (bw[i] > vhi) vhi = bw[i];
      }
    if (m) {
      out->bw[k] = median_of(v, m);
      out->spread[k] = (vhi - vlo) / out->bw[k];
      out->found[k] = 2;
    }
  }
  return RL_OK;
}

/* ---- parts ---------------------------------------------------------------- */
rl_status rl_measure_parts_parse(const char *list, uint32_t *parts,
                                 rl_error *err) {
  static const struct {
    const char *name;
    uint32_t bits;
  } names[] = {{"peak", RL_MEASURE_PEAK},
               {"fma", RL_MEASURE_PEAK},
               {"read", RL_MEASURE_READ},
               {"load", RL_MEASURE_READ},
               {"copy", RL_MEASURE_COPY},
               {"triad", RL_MEASURE_TRIAD},
               {"bandwidth", RL_MEASURE_READ | RL_MEASURE_COPY | RL_MEASURE_TRIAD},
               {"gemm", RL_MEASURE_GEMM},
               {"matmul", RL_MEASURE_GEMM},
               {"add", RL_MEASURE_ADD},
               {"all", RL_MEASURE_ALL}};
  if (!list || !parts) return rli_fail(err, RL_EINVAL, "no kernel list");
  uint32_t bits = 0;
  const char *p = list;
  for (;;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == 0) return rli_fail(err, RL_EINVAL, "empty kernel name in '%s'", list);
    int hit = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
      if (strlen(names[i].name) == len && rli_strncasecmp(p, names[i].name, len) == 0) {
        bits |= names[i].bits;
        hit = 1;
      }
    if (!hit)
      return rli_fail(err, RL_ENOTFOUND,
                      "unknown kernel '%.*s' (peak, read, copy, triad, "
                      "bandwidth, gemm, add, all)",
                      (int)(len > 40 ? 40 : len), p);
    if (!e) break;
    p = e + 1;
  }
  *parts = bits;
  return RL_OK;
}

/* ---- analysis --------------------------------------------------------- */
rl_status rl_cache_capacity(const rl_cpu_info *cpu, int32_t threads,
                            double cap[3]) {
  if (!cpu || !cap || threads < 1) return RL_EINVAL;
  for (int k = 0; k < 3; k++) {
    int32_t sh = cpu->cache_shared[k] > 0 ? cpu->cache_shared[k] : 1;
    int32_t inst = (threads + sh - 1) / sh; /* instances the threads cover */
    cap[k] = cpu->cache[k] * inst;
  }
  return RL_OK;
}

/* Bandwidth for a level, or the nearest measured level further out (then
 * nearer in) when that level was not found. */
/* The level a footprint of `bytes` fits in (cap: the capacities of L1, L2,
 * L3 for the threads; `last`: the last-level cache, which holds up to twice
 * its size before the footprint counts as DRAM). */
static int32_t fit_level(const double cap[3], int last, double bytes) {
  int32_t level = RL_LEVEL_DRAM;
  for (int k = 2; k >= 0; k--)
    if (cap[k] > 0 && bytes <= (k == last ? 2 : 1) * cap[k]) level = k;
  return level;
}

static double level_bw(const rl_levels *lv, int32_t level) {
  for (int32_t k = level; k < RL_LEVEL_COUNT; k++)
    if (lv->bw[k] > 0) return lv->bw[k];
  for (int32_t k = level - 1; k >= 0; k--)
    if (lv->bw[k] > 0) return lv->bw[k];
  return 0;
}

#define RL_PLATEAU_TOL 0.15

/* A disturbed sample: a figure of all threads cannot be below the figure
 * of one of them (the threads run the same kernel on their own data,
 * pinned to their own CPUs), and a peak kernel (independent FMA chains,
 * enough of them to cover the latency) cannot reach less than half of the
 * clock x FLOP/cycle x cores it is built to run at (Intel 64 and IA-32
 * Optimization Reference Manual and AMD's Software Optimization Guides:
 * the FMA units' throughput); either means another process took the
 * cores while it ran. */
uint32_t rl_measure_disturbed(double figure, double one, int32_t threads,
                              double theory) {
  uint32_t why = 0;
  if (!(figure > 0)) return 0; /* not measured */
  if (threads > 1 && one > 0 && figure < one) why |= RL_DISTURB_BELOW_1T;
  if (theory > 0 && figure < 0.5 * theory) why |= RL_DISTURB_BELOW_HALF;
  return why;
}

/* Disturbed points of a sweep. A dip: a sample slowed by another process
 * (all the threads' time counts, so one thread held up slows the sample)
 * is the only way a working set can read slower than both a smaller and a
 * larger one with the same kind of stores. A level of all threads below one thread: see
 * rl_measure_disturbed. */
int32_t rl_sweep_retake(const rl_sweep *s, const rl_sweep *one, double tol,
                        uint8_t *retake) {
  if (!s || !retake || s->kernel < 0 || s->n <= 0) return 0;
  int32_t n = s->n > RL_MEASURE_MAX_WS ? RL_MEASURE_MAX_WS : s->n;
  if (!(tol > 0)) tol = RL_PLATEAU_TOL;
  double ws[RL_MEASURE_MAX_WS], bw[RL_MEASURE_MAX_WS];
  for (int32_t i = 0; i < n; i++) {
    retake[i] = 0;
    ws[i] = s->p[i].ws;
    bw[i] = s->p[i].bw;
  }
  for (int32_t i = 1; i + 1 < n; i++) {
    /* neighbours timed with the same stores only: past the LLC copy and
     * triad may switch to non-temporal ones, a step up that is no dip */
    if (s->p[i - 1].nt != s->p[i].nt || s->p[i + 1].nt != s->p[i].nt) continue;
    double lo = bw[i - 1] < bw[i + 1] ? bw[i - 1] : bw[i + 1];
    if (bw[i] > 0 && bw[i] < (1 - tol) * lo) retake[i] = 1;
  }
  if (one && one->kernel == s->kernel && one->n > 0 && one->n <= RL_MEASURE_MAX_WS &&
      s->threads > 1) {
    double ws1[RL_MEASURE_MAX_WS], bw1[RL_MEASURE_MAX_WS];
    for (int32_t i = 0; i < one->n; i++) {
      ws1[i] = one->p[i].ws;
      bw1[i] = one->p[i].bw;
    }
    rl_levels lv, lv1;
    if (rl_bw_levels(ws, bw, n, s->cache, RL_PLATEAU_TOL, &lv, NULL) == RL_OK &&
        rl_bw_levels(ws1, bw1, one->n, one->cache, RL_PLATEAU_TOL, &lv1, NULL) == RL_OK)
      for (int l = 0; l < RL_LEVEL_COUNT; l++)
        if (rl_measure_disturbed(lv.bw[l], lv1.bw[l], s->threads, 0))
          for (int32_t i = 0; i < n; i++)
            if (ws[i] >= lv.ws_lo[l] && ws[i] <= lv.ws_hi[l]) retake[i] = 1;
  }
  int32_t k = 0;
  for (int32_t i = 0; i < n; i++) k += retake[i];
  return k;
}

/* Why the samples of a sweep's level cannot be trusted: the
 * rl_stats.disturbed bits of the points that made it. */
static uint32_t level_samples(const rl_sweep *s, int l) {
  uint32_t why = 0;
  if (!s->levels.found[l]) return 0;
  for (int32_t i = 0; i < s->n && i < RL_MEASURE_MAX_WS; i++)
    if (s->p[i].ws >= s->levels.ws_lo[l] && s->p[i].ws <= s->levels.ws_hi[l]) why |= s->p[i].t.disturbed;
  return why;
}

/* The figures that cannot be the machine's: a disturbed figure
 * (rl_measure_disturbed) or one whose samples cannot be trusted
 * (rl_stats.disturbed: too few clean samples, the timer's overhead); the
 * peaks, every sweep's levels and the points, counted in n_unreliable. */
static void mark_unreliable(rl_measurement *m) {
  m->n_unreliable = 0;
  for (int k = 0; k < RL_PK_COUNT; k++) {
    m->peak_unreliable_1t[k] =
        rl_measure_disturbed(m->peak_1t.flops[k], 0, 1, m->peak_1t.theory[k]);
    if (m->peak_1t.flops[k] > 0) m->peak_unreliable_1t[k] |= m->peak_1t.t[k].disturbed;
    m->peak_unreliable[k] =
        m->threads > 1 ? rl_measure_disturbed(m->peak.flops[k], m->peak_1t.flops[k],
                                              m->threads, m->peak.theory[k])
                       : m->peak_unreliable_1t[k];
    if (m->threads > 1 && m->peak.flops[k] > 0) m->peak_unreliable[k] |= m->peak.t[k].disturbed;
    m->n_unreliable += (m->peak_unreliable[k] != 0) + (m->threads > 1 && m->peak_unreliable_1t[k]);
  }
  for (int k = 0; k < 3; k++) {
    rl_sweep *s = &m->sweep[0][k], *s1 = &m->sweep[1][k];
    for (int l = 0; l < RL_LEVEL_COUNT; l++) {
      if (s1->kernel >= 0) s1->levels.unreliable[l] = level_samples(s1, l);
      if (s->kernel < 0) continue;
      s->levels.unreliable[l] = level_samples(s, l);
      if (m->threads > 1 && s1->kernel >= 0 && s->threads > 1)
        s->levels.unreliable[l] |= rl_measure_disturbed(s->levels.bw[l], s1->levels.bw[l], s->threads, 0);
    }
    for (int l = 0; l < RL_LEVEL_COUNT; l++) {
      /* one thread's sweep is also the all-thread one when threads = 1 */
      m->n_unreliable += (s->kernel >= 0 && s->levels.unreliable[l] != 0) +
                         (m->threads > 1 && s1->kernel >= 0 && s1->levels.unreliable[l] != 0);
      if (k != RL_BW_READ) continue;
      if (s->kernel >= 0) m->bandwidth.unreliable[l] = s->levels.unreliable[l];
      if (s1->kernel >= 0) m->bandwidth_1t.unreliable[l] = s1->levels.unreliable[l];
    }
  }
  for (int32_t i = 0; i < m->n_points; i++) m->n_unreliable += m->points[i].t.disturbed != 0;
}

rl_status rl_measure_analyze(rl_measurement *m, rl_error *err) {
  if (!m) return rli_fail(err, RL_EINVAL, "no measurement");
  if (m->threads < 1) return rli_fail(err, RL_EINVAL, "threads must be >= 1");
  double spreads[RL_MEASURE_MAX_WS * 6 + RL_MEASURE_MAX_POINTS + 2 * RL_PK_COUNT];
  int32_t ns = 0;
  memset(&m->bandwidth, 0, sizeof m->bandwidth);
  memset(&m->bandwidth_1t, 0, sizeof m->bandwidth_1t);
  for (int t = 0; t < 2; t++)
    for (int k = 0; k < 3; k++) {
      rl_sweep *s = &m->sweep[t][k];
      memset(&s->levels, 0, sizeof s->levels);
      if (s->kernel < 0 || s->n <= 0) continue;
      if (s->n > RL_MEASURE_MAX_WS)
        return rli_fail(err, RL_EINVAL, "sweep of %d points", (int)s->n);
      double ws[RL_MEASURE_MAX_WS], bw[RL_MEASURE_MAX_WS];
      for (int32_t i = 0; i < s->n; i++) {
        ws[i] = s->p[i].ws;
        bw[i] = s->p[i].bw;
        spreads[ns++] = s->p[i].t.spread;
      }
      rl_status st = rl_bw_levels(ws, bw, s->n, s->cache, RL_PLATEAU_TOL,
                                  &s->levels, err);
      if (st) return st;
      if (s->kernel == RL_BW_READ) {
        if (t == 0) m->bandwidth = s->levels;
        else m->bandwidth_1t = s->levels;
      }
    }
  for (int k = 0; k < RL_PK_COUNT; k++) {
    if (m->peak.flops[k] > 0) spreads[ns++] = m->peak.t[k].spread;
    if (m->peak_1t.flops[k] > 0) spreads[ns++] = m->peak_1t.t[k].spread;
  }
  if (m->n_points < 0 || m->n_points > RL_MEASURE_MAX_POINTS)
    return rli_fail(err, RL_EINVAL, "%d points", (int)m->n_points);
  for (int32_t i = 0; i < m->n_points; i++) {
    rl_measure_point *p = &m->points[i];
    int one = p->threads == 1 && m->threads != 1;
    const rl_peak_set *ps = one ? &m->peak_1t : &m->peak;
    /* the bandwidth roof of each level: the best of the three kernels */
    rl_levels best;
    memset(&best, 0, sizeof best);
    for (int k = 0; k < 3; k++) {
      const rl_sweep *s = &m->sweep[one ? 1 : 0][k];
      if (s->kernel < 0) continue;
      for (int l = 0; l < RL_LEVEL_COUNT; l++)
        if (s->levels.bw[l] > best.bw[l]) best.bw[l] = s->levels.bw[l];
    }
    const rl_levels *lv = &best;
    double cap[3] = {0, 0, 0};
    rl_cache_capacity(&m->cpu, p->threads > 0 ? p->threads : 1, cap);
    /* the level its footprint fits in; up to 2 x the last-level cache
     * still counts as that cache (a working set just past it is mostly
     * hits: the transition, not yet DRAM) */
    int last = cap[2] > 0 ? 2 : cap[1] > 0 ? 1 : 0;
    p->level = fit_level(cap, last, p->bytes);
    /* the best bandwidth measured at that level: the level's figure (its
     * plateau's) or a faster sweep point of the level by the same rule --
     * the plateau's figure is a median, and an op of the level ran above
     * it (--quick: add of 49 kB at 1.05 TB/s against an L1 plateau of
     * 913 GB/s); a roof is what the machine was seen to do, never less */
    double pt_best = 0;
    for (int k = 0; k < 3; k++) {
      const rl_sweep *s = &m->sweep[one ? 1 : 0][k];
      if (s->kernel < 0) continue;
      for (int32_t j = 0; j < s->n && j < RL_MEASURE_MAX_WS; j++)
        if (fit_level(cap, last, s->p[j].ws) == p->level && s->p[j].bw > pt_best) pt_best = s->p[j].bw;
    }
    p->peak = p->dtype == RL_FP64 ? ps->flops[RL_PK_FP64_FMA]
              : p->dtype == RL_BF16 ? ps->flops[RL_PK_BF16_DOT]
                                    : ps->flops[RL_PK_FP32_FMA];
    p->bandwidth = level_bw(lv, p->level);
    if (pt_best > p->bandwidth) p->bandwidth = pt_best;
    double mem_roof = p->bandwidth * p->intensity;
    if (p->peak > 0 && p->bandwidth > 0) {
      p->roof = mem_roof < p->peak ? mem_roof : p->peak;
      p->bound = mem_roof < p->peak ? RL_BOUND_MEMORY : RL_BOUND_COMPUTE;
    } else if (p->peak > 0) {
      p->roof = p->peak;
      p->bound = RL_BOUND_COMPUTE;
    } else {
      p->roof = mem_roof;
      p->bound = RL_BOUND_MEMORY;
    }
    p->roof_fraction = p->roof > 0 ? p->achieved / p->roof : 0;
    double dram = lv->bw[RL_LEVEL_DRAM] * p->intensity;
    p->roof_dram = p->peak > 0 && (dram <= 0 || p->peak < dram) ? p->peak : dram;
    spreads[ns++] = p->t.spread;
  }
  m->spread_median = ns ? median_of(spreads, ns) : 0;
  m->spread_max = 0;
  for (int32_t i = 0; i < ns; i++)
    if (spreads[i] > m->spread_max) m->spread_max = spreads[i];
  m->noisy = m->spread_median > 0.05;
  mark_unreliable(m);
  return RL_OK;
}
