/*
 * trace.c -- the trace model's life and the facts of its file:
 * rl_trace_new and rl_trace_free, what a reader says of the file (format,
 * device, counts, world size), the names of roofs and reasons,
 * rl_trace_get_info and rl_trace_hw. No I/O: the readers in
 * src/io/trace_*.c fill the model (trace_internal.h). The model's inside
 * is trace_impl.h, which lists the file of each of its parts.
 */
#include "core/trace_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

rl_trace *rl_trace_new(double launch_overhead_s) {
  rl_trace *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->overhead_given = launch_overhead_s >= 0 && isfinite(launch_overhead_s);
  t->overhead = t->overhead_given ? launch_overhead_s : RL_DEFAULT_LAUNCH_OVERHEAD_S;
  t->torigin = (double)NAN;
  t->kcb = SIZE_MAX;
  rli_strlcpy(t->format, "unknown", sizeof t->format);
  return t;
}

void rl_trace_free(rl_trace *t) {
  if (!t) return;
  rli_trace_free_analysis(t);
  for (size_t i = 0; i < t->nblocks; i++) free(t->blocks[i]);
  free(t->blocks);
  free(t->str);
  free(t->shash);
  free(t->cost);
  free(t->chash);
  free(t->inst);
  for (size_t b = 0; b < t->nkb; b++) free(t->kb[b].data);
  free(t->kb);
  free(t->kc);
  free(t->kscratch);
  free(t->kw);
  free(t->nop.key);
  free(t->nop.map);
  free(t->dsk.key);
  free(t->dsk.map);
  free(t->launch);
  free(t->streams);
  free(t->stmap);
  free(t);
}

void rli_trace_set_format(rl_trace *t, const char *format) {
  rli_strlcpy(t->format, format, sizeof t->format);
}

void rli_trace_set_device(rl_trace *t, const char *name, double mem_bytes,
                          int32_t cc_major, int32_t cc_minor) {
  if (name) {
    size_t n = strlen(name);
    if (n >= sizeof t->device) n = sizeof t->device - 1;
    rli_copy_clean(t->device, name, n);
    t->device[n] = 0;
  }
  t->mem_bytes = mem_bytes;
  t->cc_major = cc_major;
  t->cc_minor = cc_minor;
}

void rli_trace_set_device_units(rl_trace *t, int32_t sms, int32_t warp) {
  t->sms = sms > 0 && sms < 100000 ? sms : 0;
  t->warp = warp > 0 && warp < 4096 ? warp : 0;
}

void rli_trace_note_dram(rl_trace *t, double bps, const char *kernel, int64_t launch) {
  if (!(bps > t->dram_max) || !(bps < 1e18)) return;
  t->dram_max = bps;
  t->dram_max_launch = launch;
  size_t n = kernel ? strlen(kernel) : 0;
  if (n >= sizeof t->dram_max_kernel) n = sizeof t->dram_max_kernel - 1;
  rli_copy_clean(t->dram_max_kernel, kernel ? kernel : "", n);
  t->dram_max_kernel[n] = 0;
}

void rli_trace_count_events(rl_trace *t, int64_t n) { t->events += n; }
void rli_trace_set_no_timeline(rl_trace *t) { t->no_timeline = 1; }
void rli_trace_set_unlinked(rl_trace *t, int64_t n) { t->unlinked = n; }
void rli_trace_set_no_shapes(rl_trace *t, int32_t no_shapes) { t->no_shapes = no_shapes; }
void rli_trace_set_world(rl_trace *t, int32_t world) { t->world = world > 0 ? world : 0; }

const char *rl_trace_roof_name(int32_t roof) {
  static const char *const n[] = {"chip", "network", "hbm", "host", "l2"};
  return roof >= 0 && roof < 5 ? n[roof] : "unknown";
}

const char *rl_trace_reason_name(int32_t reason) {
  static const char *const n[RL_REASON_COUNT] = {
      "no shapes recorded", "compiled region", "no cost model for the op",
      "launched before the profiling window", "launch inside no CPU op",
      "collective size not recorded", "no roof for it in the database",
      "shapes or sizes not usable", "other", "tensor lists: sizes not recorded",
      "times only (the profiler counts no FLOPs or bytes)"};
  return reason >= 0 && reason < RL_REASON_COUNT ? n[reason] : "unknown";
}

rl_status rl_trace_get_info(const rl_trace *t, rl_trace_info *out) {
  if (!t || !out) return RL_EINVAL;
  memset(out, 0, sizeof *out);
  rli_strlcpy(out->format, t->format, sizeof out->format);
  rli_strlcpy(out->device, t->device, sizeof out->device);
  out->device_mem_bytes = t->mem_bytes;
  out->cc_major = t->cc_major;
  out->cc_minor = t->cc_minor;
  out->kernels = (int64_t)t->nk;
  out->unlinked = t->unlinked;
  out->events = t->events;
  out->has_time = t->ntimed > 0;
  return RL_OK;
}

rl_status rl_trace_hw(const rl_trace *t, rl_hw *out, rl_error *err) {
  if (!t || !out) return rli_fail(err, RL_EINVAL, "no trace");
  rli_devdesc d = {t->device, t->mem_bytes, t->cc_major, t->cc_minor, t->sms, t->warp};
  const char *id = rli_device_hw_id(&d);
  if (!id && !t->device[0] && t->cc_major > 0 && t->sms > 0)
    return rli_fail(err, RL_ENOTFOUND,
                    "the %s file names no device and its properties (compute capability %d.%d, "
                    "%d SMs or CUs, %.0f GB) fit none in the hardware database: give `hw` ID",
                    t->format, (int)t->cc_major, (int)t->cc_minor, (int)t->sms, t->mem_bytes / 1e9);
  if (!t->device[0] && !id)
    return rli_fail(err, RL_ENOTFOUND, "the %s file names no device: give `hw` ID", t->format);
  if (!id)
    return rli_fail(err, RL_ENOTFOUND,
                    "device '%s' is not in the hardware database: give `hw` ID", t->device);
  return rl_hw_find(id, NULL, 0, out, err);
}
