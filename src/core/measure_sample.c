/*
 * measure_sample.c -- the sampling discipline of `roofline measure`: how
 * many repetitions a sample runs, which samples count, when to stop, and
 * when a figure cannot be trusted. Pure (no clock): the measuring loop
 * (src/io/measure.c: time_on_pool, rl_bench_run) feeds it each sample's
 * duration and whether the scheduler left it alone, so the rules are
 * unit-tested on made-up series (tests/unit/test_measure.c).
 *
 * Exports rli_sampler_init, rli_sampler_add and rli_sampler_result
 * (core/internal.h).
 *
 * The method is STREAM's and zstd's (McCalpin, stream.c: best of N after a
 * discarded first run, with checktick; zstd's benchfn: grow the repetitions
 * until a sample lasts long enough), with three rules against the way it
 * is fooled on a shared machine, where the first, short, sample was
 * preempted: it lasted min_time because the scheduler took the CPU, not
 * because it ran enough repetitions, and every sample after it ran a
 * fraction of a microsecond against a 20-30 ns timer (seen: triad at 16 kB
 * on one thread read 0.1-4.8 GB/s instead of 355-470, on 1-3 clean
 * samples, with nothing marked):
 *   1. the repetition count is calibrated on clean samples only: a
 *      disturbed sample may still grow it (it lasted longer than the work
 *      did, so it grows it by less than needed) but never ends the
 *      calibration;
 *   2. a clean timed sample shorter than a quarter of min_time (its
 *      calibrating sample, with the same repetitions, lasted min_time:
 *      that one was slowed without being seen) sends the sampler back to
 *      calibrating, at most RECALIBRATIONS times;
 *   3. a figure rests on at least RLI_MIN_CLEAN (3) clean samples whose
 *      median lasts at least 100 x the timer's overhead (2 ticks: the two
 *      readings that bound a sample, each off by up to a tick), so the
 *      timer is at most 1% of it; otherwise the result says why
 *      (RL_DISTURB_FEW_CLEAN, RL_DISTURB_TIMER) and the caller takes it
 *      again or marks it unreliable.
 */
#include "internal.h"

#include <math.h>
#include <string.h>

#define RECALIBRATIONS 3
#define TOO_SHORT 0.25 /* of min_time: a timed sample shorter was not calibrated */

void rli_sampler_init(rli_sampler *s, double min_time, double overhead,
                      int32_t repeats, int32_t max_tries) {
  memset(s, 0, sizeof *s);
  if (repeats < 1) repeats = 1;
  if (repeats > RLI_SAMPLER_MAX) repeats = RLI_SAMPLER_MAX;
  if (max_tries < repeats) max_tries = repeats;
  s->min_time = min_time > 0 && isfinite(min_time) ? min_time : 1e-3;
  s->overhead = overhead > 0 && isfinite(overhead) ? overhead : 0;
  s->repeats = repeats;
  s->max_tries = max_tries;
  s->hard_tries = 2 * max_tries > RLI_SAMPLER_MAX ? RLI_SAMPLER_MAX : 2 * max_tries;
  if (s->hard_tries < max_tries) s->hard_tries = max_tries;
  s->reps = 1;
}

/* Repetitions for a sample that lasts 1.2 x min_time, given one of reps
 * that lasted dt: x2 .. x100 per step, at most s->max_reps. */
static int64_t grown(const rli_sampler *s, double dt) {
  double g = dt > 0 ? 1.2 * s->min_time / dt : 100;
  if (g < 2) g = 2;
  if (g > 100) g = 100;
  double next = (double)s->reps * g, top = s->max_reps > 0 ? (double)s->max_reps : 4.6e18;
  return next > top ? (int64_t)top : (int64_t)next;
}

#define CALIB_MAX 16 /* calibrating samples of min_time that were never clean */

int rli_sampler_add(rli_sampler *s, double dt, int clean) {
  if (!(dt >= 0) || !isfinite(dt)) dt = 0;
  int at_max = s->max_reps > 0 && s->reps >= s->max_reps;
  if (!s->calibrated) {
    s->calib_tries++;
    if (dt >= s->min_time || at_max) {
      /* the calibrating sample is the warm-up; one never clean (a machine
       * busy throughout) ends it all the same, and the figure is marked */
      if (clean || at_max || s->calib_tries > CALIB_MAX) s->calibrated = 1;
    } else {
      s->reps = grown(s, dt);
    }
    if (s->calib_tries > 4 * CALIB_MAX) s->calibrated = 1; /* a clock that never moves */
    return 1;
  }
  if (clean && dt < TOO_SHORT * s->min_time && !at_max && s->recalibrations < RECALIBRATIONS) {
    s->recalibrations++;
    s->calibrated = 0;
    s->calib_tries = 0;
    s->reps = grown(s, dt);
    s->n_clean = s->n_all = s->tries = 0;
    return 1;
  }
  s->tries++;
  double per = s->reps > 0 ? dt / (double)s->reps : dt;
  if (s->n_all < s->repeats) s->all[s->n_all++] = per;
  if (clean && s->n_clean < RLI_SAMPLER_MAX) {
    s->clean_dt[s->n_clean] = dt;
    s->clean[s->n_clean++] = per;
  }
  if (s->n_clean >= s->repeats) return 0;
  if (s->tries < s->max_tries) return 1;
  return s->n_clean < RLI_MIN_CLEAN && s->tries < s->hard_tries;
}

static double median(const double *v, int32_t n) {
  double t[RLI_SAMPLER_MAX];
  memcpy(t, v, (size_t)n * sizeof *t);
  for (int32_t i = 1; i < n; i++) /* insertion sort: n <= RLI_SAMPLER_MAX */
    for (int32_t j = i; j > 0 && t[j - 1] > t[j]; j--) {
      double x = t[j];
      t[j] = t[j - 1];
      t[j - 1] = x;
    }
  return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

rl_status rli_sampler_result(const rli_sampler *s, rl_stats *out, rl_error *err) {
  uint32_t why = 0;
  rl_status st;
  if (s->n_clean >= RLI_MIN_CLEAN) {
    st = rl_stats_of(s->clean, s->n_clean, out, err);
    if (s->overhead > 0 && median(s->clean_dt, s->n_clean) < 100 * s->overhead) why |= RL_DISTURB_TIMER;
  } else {
    why |= RL_DISTURB_FEW_CLEAN;
    if (s->n_clean > 0) st = rl_stats_of(s->clean, s->n_clean, out, err);
    else if (s->n_all > 0) st = rl_stats_of(s->all, s->n_all, out, err);
    else return rli_fail(err, RL_EINVAL, "no sample was timed");
    if (s->overhead > 0 && out->min * (double)s->reps < 100 * s->overhead) why |= RL_DISTURB_TIMER;
  }
  if (st) return st;
  out->disturbed = why;
  return RL_OK;
}
