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
  t->cpu_family = t->cpu_model_id = -1;
  rli_strlcpy(t->format, "unknown", sizeof t->format);
  return t;
}

rl_status rli_trace_host_op(rl_trace *t, double start_s, double end_s, uint32_t name, uint32_t depth) {
  /* no interval, too deep or a name past the 28 bits: nothing to place */
  if (!(end_s >= start_s) || name >= (1u << 28) || depth > RLI_HOST_DEPTH_MAX) return RL_OK;
  if (!rli_grow((void **)&t->hop, sizeof *t->hop, t->nhop + 1, &t->caphop)) return RL_ENOMEM;
  t->hop[t->nhop++] = (rli_host_op){start_s, (float)(end_s - start_s), name | depth << 28};
  return RL_OK;
}

rl_status rli_trace_host_reserve(rl_trace *t, size_t n) {
  if (n <= t->caphop - t->nhop) return RL_OK;
  if (n > SIZE_MAX / sizeof *t->hop - t->nhop) return RL_ENOMEM;
  rli_host_op *h = realloc(t->hop, sizeof *h * (t->nhop + n));
  if (!h) return RL_ENOMEM;
  t->hop = h;
  t->caphop = t->nhop + n;
  return RL_OK;
}

const rl_trace_idle *rl_trace_get_idle(const rl_trace *t) { return t && t->idle_done ? &t->idle : NULL; }

void rl_trace_free(rl_trace *t) {
  if (!t) return;
  rli_trace_free_analysis(t);
  rli_trace_graph_free(t);
  free(t->hop);
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

void rl_trace_set_cpu(rl_trace *t, int32_t cpu) {
  if (t) t->cpu_mode = cpu ? 1 : 0;
}

void rl_trace_set_threads(rl_trace *t, int32_t n) {
  if (t && n >= 1 && n <= 1000000) {
    t->threads = n;
    t->threads_given = 1;
  }
}

int rli_trace_cpu_mode(const rl_trace *t) { return t->cpu_mode; }

const struct rli_moe *rli_trace_moe(const rl_trace *t) { return &t->moe; }

rl_status rl_trace_set_model(rl_trace *t, const rl_model *m, rl_error *err) {
  if (!t) return rli_fail(err, RL_EINVAL, "no trace");
  if (!m) {
    memset(&t->moe, 0, sizeof t->moe);
    t->model_id[0] = 0;
    return RL_OK;
  }
  rl_model c;
  rl_status st = rl_model_check(m, &c, err);
  if (st) return st;
  if (!(c.experts > 1))
    return rli_fail(err, RL_EINVAL, "model %s is dense (no experts): the trace's MoE ops need a mixture of experts",
                    c.id);
  if (!(c.d_ff > 0) || !(c.d_model > 0))
    return rli_fail(err, RL_EINVAL, "model %s gives no d_ff (the experts' intermediate size)", c.id);
  double k = c.experts_active > 0 ? c.experts_active : c.experts;
  rli_strlcpy(t->model_id, c.id, sizeof t->model_id);
  t->moe = (rli_moe){.d = c.d_model, .d_ff = c.d_ff, .experts = c.experts, .active = k,
                     .shared = c.shared_experts > 0 ? c.shared_experts : 0,
                     .gated = c.mlp == RL_MLP_GATED, .wfmt = c.expert_weights, .world = 0,
                     .id = t->model_id};
  return RL_OK;
}

void rli_trace_set_cpu_id(rl_trace *t, const char *vendor, int32_t family, int32_t model) {
  size_t n = vendor ? strlen(vendor) : 0;
  if (n >= sizeof t->cpu_vendor) n = sizeof t->cpu_vendor - 1;
  rli_copy_clean(t->cpu_vendor, vendor ? vendor : "", n);
  t->cpu_vendor[n] = 0;
  t->cpu_family = family;
  t->cpu_model_id = model;
}

void rli_trace_set_cpu_ops(rl_trace *t, const char *model, int32_t threads) {
  t->cpu = 1;
  size_t n = model ? strlen(model) : 0;
  if (n >= sizeof t->cpu_model) n = sizeof t->cpu_model - 1;
  rli_copy_clean(t->cpu_model, model ? model : "", n);
  t->cpu_model[n] = 0;
  if (!t->threads_given) t->threads = threads >= 1 && threads <= 1000000 ? threads : 0;
}

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
      "times only (the profiler counts no FLOPs or bytes)",
      "refuted by the run: fewer bytes than counted"};
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
  out->graph_matched = t->graph_matched;
  out->graph_unmatched = t->graph_unmatched;
  out->graph_unreplayed = t->graph_unreplayed;
  rli_strlcpy(out->model, t->model_id, sizeof out->model);
  out->events = t->events;
  out->has_time = t->ntimed > 0;
  out->cpu = t->cpu;
  out->threads = t->threads;
  rli_strlcpy(out->cpu_model, t->cpu_model, sizeof out->cpu_model);
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

/* "NAME (measured, N threads)", rl_measure_to_hw's name */
int32_t rl_hw_measured_threads(const rl_hw *hw) {
  if (!hw || !rl_hw_measured(hw)) return 0;
  const char *p = strstr(hw->name, "(measured, ");
  if (!p) return 0;
  long n = strtol(p + strlen("(measured, "), NULL, 10);
  return n >= 1 && n <= 1000000 ? (int32_t)n : 0;
}

/* The processor a measured row was measured on: its name before
 * " (measured, " (rl_measure_to_hw cuts the model to 60 bytes). */
static void measured_model(const rl_hw *hw, char *out, size_t cap) {
  const char *p = strstr(hw->name, " (measured, ");
  size_t n = p ? (size_t)(p - hw->name) : strlen(hw->name);
  if (n >= cap) n = cap - 1;
  memcpy(out, hw->name, n);
  out[n] = 0;
}

/* Whether a measured row's processor is the trace's: the same CPUID
 * vendor, family and model where both say them (the row's source,
 * rl_measure_to_hw; the trace's cpu_vendor, cpu_family, cpu_model_id:
 * a virtual machine's /proc/cpuinfo may name the processor otherwise
 * than its CPUID brand string), else the same name, or the trace's cut
 * where the row's was (60 bytes). */
static int same_model(const rl_trace *t, const rl_hw *hw) {
  char m[RL_HW_TEXT_MAX];
  measured_model(hw, m, sizeof m);
  if (t->cpu_vendor[0] && hw->vendor[0] && strcmp(t->cpu_vendor, hw->vendor) != 0) return 0;
  const char *id = strstr(hw->source, "; CPUID family ");
  int fam = -1, mod = -1;
  if (id && sscanf(id, "; CPUID family %d model %d", &fam, &mod) == 2 && t->cpu_family >= 0 &&
      t->cpu_model_id >= 0)
    return fam == t->cpu_family && mod == t->cpu_model_id;
  if (!t->cpu_model[0] || !m[0]) return 1;
  size_t n = strlen(m);
  return n < 60 ? strcmp(m, t->cpu_model) == 0 : strncmp(m, t->cpu_model, 60) == 0;
}

rl_status rli_trace_check_cpu_hw(const rl_trace *t, const rl_hw *hw, rl_error *err) {
  if (!t->cpu) return RL_OK;
  if (strcmp(hw->form_factor, "CPU") != 0)
    return rli_fail(err, RL_EINVAL,
                    "`hw` %s is no CPU (%s): a CPU profile's ops need a CPU's roofs (`hw` measured, "
                    "a row of `roofline measure --save-hw`, or a CPU of the database)",
                    hw->id, hw->form_factor[0] ? hw->form_factor : "no form factor");
  if (!rl_hw_measured(hw)) return RL_OK;
  char m[RL_HW_TEXT_MAX];
  measured_model(hw, m, sizeof m);
  if (!same_model(t, hw)) {
    char hd[200], td[200];
    const char *id = strstr(hw->source, "; CPUID family ");
    snprintf(hd, sizeof hd, "%s, %s%s", m, hw->vendor[0] ? hw->vendor : "vendor not named", id ? id + 1 : "");
    if (t->cpu_family >= 0 && t->cpu_model_id >= 0)
      snprintf(td, sizeof td, "%s, %s; CPUID family %d model %d", t->cpu_model[0] ? t->cpu_model : "not named",
               t->cpu_vendor[0] ? t->cpu_vendor : "vendor not named", (int)t->cpu_family, (int)t->cpu_model_id);
    else
      snprintf(td, sizeof td, "%s, %s", t->cpu_model[0] ? t->cpu_model : "not named",
               t->cpu_vendor[0] ? t->cpu_vendor : "vendor not named");
    return rli_fail(err, RL_EINVAL,
                    "`hw` %s was measured on another CPU model (%s) than the trace ran on (%s): measure "
                    "the machine that ran it (roofline measure --save-hw)", hw->id, hd, td);
  }
  int32_t n = rl_hw_measured_threads(hw);
  if (n > 0 && t->threads > 0 && n != t->threads)
    return rli_fail(err, RL_EINVAL,
                    "`hw` %s was measured with %d thread%s, the trace's ops ran with %d%s: measure "
                    "with --threads %d (roofline measure --save-hw)", hw->id, (int)n, n == 1 ? "" : "s",
                    (int)t->threads, t->threads_given ? " (--threads)" : " (its intra_op_threads)",
                    (int)t->threads);
  return RL_OK;
}

rl_status rl_trace_measured_hw(const rl_trace *t, const rl_hw *rows, int32_t n, rl_hw *out,
                               rl_error *err) {
  if (!t || !out || (n > 0 && !rows)) return rli_fail(err, RL_EINVAL, "no trace or no rows");
  char seen[200] = "";
  size_t ls = 0;
  int any = 0;
  for (int32_t i = 0; i < n; i++) {
    if (!rl_hw_measured(&rows[i])) continue;
    any = 1;
    int32_t th = rl_hw_measured_threads(&rows[i]);
    if (same_model(t, &rows[i]) && (t->threads <= 0 || th == t->threads)) {
      *out = rows[i];
      return RL_OK;
    }
    char m[RL_HW_TEXT_MAX];
    measured_model(&rows[i], m, sizeof m);
    if (ls < sizeof seen)
      ls += (size_t)snprintf(seen + ls, sizeof seen - ls, "%s%s: %s, %d thread%s", ls ? "; " : "",
                             rows[i].id, m, (int)th, th == 1 ? "" : "s");
  }
  if (!any) return rli_fail(err, RL_ENOTFOUND, "no row written by `roofline measure --save-hw` among them");
  return rli_fail(err, RL_ENOTFOUND,
                  "no measured row for this trace (%s, %d thread%s) among them (%s): measure this "
                  "machine with --threads %d (roofline measure --save-hw)",
                  t->cpu_model[0] ? t->cpu_model : "CPU not named", (int)t->threads,
                  t->threads == 1 ? "" : "s", seen, (int)(t->threads > 0 ? t->threads : 1));
}
