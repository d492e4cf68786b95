/*
 * hw.c -- the hardware database: the built-in table (generated from
 * data/hardware.csv by tools/gen_tables.py), lookup by id, alias or unique
 * fragment with nearest-id suggestions, the CSV reader for users' own
 * files, and the roofs a device offers.
 *
 * Ridge point I* = peak / bandwidth (Williams, Waterman & Patterson 2009,
 * "ridge point"; NVIDIA's "ops:byte ratio").
 */
#include "core/internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const rl_hw builtin[] = {
#include "core/hw_table.inc"
};

#define N_BUILTIN ((int32_t)(sizeof builtin / sizeof builtin[0]))

int32_t rl_hw_count(void) { return N_BUILTIN; }

const char *rl_default_hw(void) { return RL_DEFAULT_HW; }

rl_status rl_hw_get(int32_t index, rl_hw *out) {
  if (index < 0 || index >= N_BUILTIN || !out) return RL_EINVAL;
  *out = builtin[index];
  return RL_OK;
}

/* ---- lookup ---------------------------------------------------------- */

/* Does the space-separated list contain word (case-insensitive)? */
static int list_has(const char *list, const char *word) {
  size_t wl = strlen(word);
  const char *p = list;
  while (*p) {
    while (*p == ' ') p++;
    const char *e = p;
    while (*e && *e != ' ') e++;
    if ((size_t)(e - p) == wl && rli_strncasecmp(p, word, wl) == 0) return 1;
    p = e;
  }
  return 0;
}

/* Smallest distance from `id` to the device's id or any alias. */
static int hw_distance(const rl_hw *h, const char *id) {
  int best = rli_edit_distance(h->id, id);
  const char *p = h->aliases;
  char word[RL_HW_TEXT_MAX];
  while (*p) {
    while (*p == ' ') p++;
    size_t n = 0;
    while (p[n] && p[n] != ' ' && n + 1 < sizeof word) { word[n] = p[n]; n++; }
    word[n] = 0;
    if (n) {
      int d = rli_edit_distance(word, id);
      if (d < best) best = d;
    }
    p += n;
    while (*p && *p != ' ') p++;
  }
  return best;
}

/* Device i of the search order: the user's devices, then the built-in
 * ones. A built-in device that the user's file redefines (same id) is
 * replaced by the user's row, so aliases keep working for it. */
static const rl_hw *hw_at(const rl_hw *extra, int32_t n_extra, int32_t i) {
  if (i < n_extra) return &extra[i];
  const rl_hw *b = &builtin[i - n_extra];
  for (int32_t k = 0; k < n_extra; k++)
    if (rli_strcasecmp(extra[k].id, b->id) == 0) return &extra[k];
  return b;
}

/* The aliases of the built-in device a user's row redefines. */
static int shadowed_aliases_contain(const rl_hw *user, const char *id) {
  for (int32_t k = 0; k < N_BUILTIN; k++)
    if (rli_strcasecmp(builtin[k].id, user->id) == 0) return rli_contains_ci(builtin[k].aliases, id);
  return 0;
}

rl_status rl_hw_find(const char *id, const rl_hw *extra, int32_t n_extra,
                     rl_hw *out, rl_error *err) {
  if (!id || !*id) return rli_fail(err, RL_EINVAL, "empty hardware id");
  if (!extra) n_extra = 0;
  int32_t total = n_extra + N_BUILTIN;
  /* 1. exact id, 2. exact alias: the first match wins, so a user's file
   * overrides a built-in device of the same id. */
  for (int32_t i = 0; i < total; i++) {
    const rl_hw *h = hw_at(extra, n_extra, i);
    if (rli_strcasecmp(h->id, id) == 0) { *out = *h; return RL_OK; }
  }
  for (int32_t i = 0; i < total; i++) {
    const rl_hw *h = hw_at(extra, n_extra, i);
    const char *aliases = i < n_extra ? h->aliases : builtin[i - n_extra].aliases;
    if (list_has(aliases, id)) { *out = *h; return RL_OK; }
  }
  /* 3. a fragment of exactly one id or alias */
  int32_t found = -1, nfound = 0;
  char names[RL_ERROR_MSG_MAX];
  names[0] = 0;
  for (int32_t i = 0; i < total; i++) {
    const rl_hw *h = hw_at(extra, n_extra, i);
    if (i >= n_extra && h != &builtin[i - n_extra]) continue; /* seen as the user's row */
    if (rli_contains_ci(h->id, id) || rli_contains_ci(h->aliases, id) ||
        (i < n_extra && shadowed_aliases_contain(h, id))) {
      if (nfound < 6) {
        /* each with what tells them apart: memory and bandwidth (an A100 of
         * 40 or 80 GB, SXM4 or PCIe) */
        char one[RL_HW_ID_MAX + 48], m[24], bw[24];
        rl_format_quantity(h->mem_bytes, RL_UNIT_BYTES, m, sizeof m);
        rl_format_quantity(h->mem_bw, RL_UNIT_BYTES_S, bw, sizeof bw);
        if (h->mem_bytes > 0 && h->mem_bw > 0) snprintf(one, sizeof one, "%s (%s, %s)", h->id, m, bw);
        else snprintf(one, sizeof one, "%s", h->id);
        size_t l = strlen(names);
        if (l + strlen(one) + 3 < 250) {
          if (nfound) strcat(names, ", ");
          strcat(names, one);
        }
      }
      found = i;
      nfound++;
    }
  }
  if (nfound == 1) { *out = *hw_at(extra, n_extra, found); return RL_OK; }
  if (nfound > 1)
    return rli_fail(err, RL_EAMBIGUOUS, "hardware '%s' is ambiguous: %s%s", id, names,
                    nfound > 6 || strlen(names) > 240 ? ", ..." : "");
  /* 4. unknown: suggest the three nearest ids */
  rli_nearest near;
  rli_nearest_init(&near);
  for (int32_t i = 0; i < total; i++) {
    if (i >= n_extra && hw_at(extra, n_extra, i) != &builtin[i - n_extra]) continue;
    rli_nearest_add(&near, i, hw_distance(hw_at(extra, n_extra, i), id));
  }
  names[0] = 0;
  for (int k = 0; k < 3 && near.idx[k] >= 0; k++) {
    if (k) strcat(names, ", ");
    strcat(names, hw_at(extra, n_extra, near.idx[k])->id);
  }
  return rli_fail(err, RL_ENOTFOUND,
                  "unknown hardware '%s'; nearest: %s (see `roofline hw list`)",
                  id, names);
}

/* ---- roofs ----------------------------------------------------------- */

double rl_hw_ridge(const rl_hw *hw, int32_t peak) {
  if (!hw || peak < 0 || peak >= RL_PEAK_COUNT) return 0;
  if (!(hw->peak[peak] > 0) || !(hw->mem_bw > 0)) return 0;
  return hw->peak[peak] / hw->mem_bw;
}

static int is_tensor_peak(int32_t peak) {
  return peak != RL_PEAK_FP64 && peak != RL_PEAK_FP32 && peak != RL_PEAK_VEC16 &&
         peak != RL_PEAK_FP64_TENSOR;
}

rl_status rl_hw_roof(const rl_hw *hw, int32_t peak, uint32_t flags,
                     rl_roof *out, rl_error *err) {
  if (!hw || !out) return rli_fail(err, RL_EINVAL, "no hardware");
  if (peak < 0 || peak >= RL_PEAK_COUNT)
    return rli_fail(err, RL_EINVAL, "invalid format index %d", (int)peak);
  if (!(hw->peak[peak] > 0))
    return rli_fail(err, RL_EUNSUPPORTED, "%s has no %s peak in the database",
                    hw->id, rl_peak_name(peak));
  if (!(hw->mem_bw > 0))
    return rli_fail(err, RL_EUNSUPPORTED, "%s has no memory bandwidth", hw->id);
  out->peak = hw->peak[peak];
  out->bandwidth = hw->mem_bw;
  out->launch_overhead_s = RL_DEFAULT_LAUNCH_OVERHEAD_S;
  out->peak_kind = peak;
  out->sparse = 0;
  out->compute_eff = 1;
  out->bw_eff = 1;
  out->measured = rl_hw_measured(hw) ? RL_ROOF_MEASURED_PEAK | RL_ROOF_MEASURED_BW : 0;
  if (flags & RL_ROOF_SPARSE) {
    if (!hw->sparsity)
      return rli_fail(err, RL_EUNSUPPORTED, "%s has no 2:4 structured sparsity", hw->id);
    if (!is_tensor_peak(peak))
      return rli_fail(err, RL_EUNSUPPORTED,
                      "sparsity applies to tensor formats, not %s", rl_peak_name(peak));
    out->peak *= 2;
    out->sparse = 1;
  }
  return RL_OK;
}

int32_t rl_hw_peak_for(const rl_hw *hw, int32_t dtype, int tensor) {
  if (!hw) return -1;
  int32_t order[3] = {-1, -1, -1};
  if (tensor) {
    switch (dtype) {
    case RL_FP64: order[0] = RL_PEAK_FP64_TENSOR; order[1] = RL_PEAK_FP64; break;
    case RL_FP32: order[0] = RL_PEAK_FP32; break;
    case RL_TF32: order[0] = RL_PEAK_TF32; break;
    case RL_BF16: order[0] = RL_PEAK_BF16; break;
    case RL_FP16: order[0] = RL_PEAK_FP16; break;
    case RL_FP8: order[0] = RL_PEAK_FP8; break;
    case RL_INT8: order[0] = RL_PEAK_INT8; break;
    case RL_FP4: order[0] = RL_PEAK_FP4; break;
    case RL_INT4: order[0] = RL_PEAK_INT4; break;
    default: break;
    }
  } else {
    switch (dtype) {
    case RL_FP64: order[0] = RL_PEAK_FP64; break;
    case RL_FP16: case RL_BF16: case RL_FP8: case RL_FP4: case RL_INT8: case RL_INT4:
      order[0] = RL_PEAK_VEC16; order[1] = RL_PEAK_FP32; break;
    default: order[0] = RL_PEAK_FP32; break;
    }
  }
  /* a CPU without a 16-bit dot product (none was measured) converts fp16
   * and bf16 operands to fp32 and multiplies at its FP32 FMA rate */
  if (tensor && (dtype == RL_BF16 || dtype == RL_FP16) && strcmp(hw->form_factor, "CPU") == 0)
    order[1] = RL_PEAK_FP32;
  for (int i = 0; i < 3 && order[i] >= 0; i++)
    if (hw->peak[order[i]] > 0) return order[i];
  return -1;
}

/* ---- CSV ------------------------------------------------------------- */

/* Read one CSV field (RFC 4180 quoting) from *pp into buf; stops at ',' or
 * end of line. Returns 1 if the line continues with another field. */
static int csv_field(const char **pp, const char *end, char *buf, size_t cap,
                     int *toolong, int *badquote) {
  const char *p = *pp;
  size_t n = 0;
  int more = 0;
  *toolong = 0;
  if (p < end && *p == '"') {
    p++;
    for (;;) {
      if (p >= end) { *badquote = 1; break; }
      if (*p == '"') {
        if (p + 1 < end && p[1] == '"') { if (n + 1 < cap) buf[n++] = '"'; else *toolong = 1; p += 2; continue; }
        p++;
        break;
      }
      if (n + 1 < cap) buf[n++] = *p; else *toolong = 1;
      p++;
    }
  } else {
    while (p < end && *p != ',' && *p != '\n' && *p != '\r') {
      if (n + 1 < cap) buf[n++] = *p; else *toolong = 1;
      p++;
    }
  }
  if (p < end && *p == ',') { more = 1; p++; }
  else if (p < end && *p != '\n' && *p != '\r') { *badquote = 1; }
  buf[n] = 0;
  *pp = p;
  return more;
}

/* ---- the device a trace names -------------------------------------------
 *
 * A trace names its device as the driver reports it: on NVIDIA, CUDA's
 * cudaDeviceProp.name (CUDA Runtime API, cudaGetDeviceProperties), which
 * Kineto writes in deviceProperties[].name and nvidia-smi, Nsight Systems and
 * Nsight Compute print ("NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3",
 * "Tesla V100-SXM2-32GB", or a board name such as "A100-PG509-200"); on AMD,
 * ROCm's hipDeviceProp_t.name / marketing name ("AMD Instinct MI300X").
 * A device's profiler_names cell (data/hardware.csv) holds its match rules,
 * separated by ';'; a rule is space-separated terms that must all hold:
 *   word    the name contains it at the start of a token (not after a letter
 *           or digit: "h200" is in "NVIDIA H200" and "H200-NVL", not in
 *           "NVIDIA GH200 480GB"), case-insensitive
 *   ^word   ... after a space ("^l4": "NVIDIA L4", not "NVIDIA RTX A4000L4")
 *   =word   the whole name is it ("=l4": "L4")
 *   <NGB    the trace gives the device memory and it is below N GB (decimal)
 *   >=NGB   the trace gives the device memory and it is at least N GB
 *   !term   the term does not hold ("a10 !a100")
 * and, for a trace whose name says nothing (ROCm writes "" or "AMD Radeon
 * Graphics" where no marketing name is known), terms on the properties the
 * trace records beside it (Kineto's deviceProperties: computeMajor,
 * computeMinor, numSms, warpSize, from hipDeviceProp_t / cudaDeviceProp):
 *   cc=M.m  the compute capability is M.m (HIP: the gfx arch, gfx942 = 9.4,
 *           gfx90a = 9.0; HIP Programming Guide, hipDeviceProp_t major/minor)
 *   sms=N   N SMs (AMD: compute units, multiProcessorCount)
 *   warp=N  the warp (wavefront) is N threads: 64 on AMD's CDNA, 32 on NVIDIA
 * so the table of which properties make which device is data: a row's
 * profiler_names ("mi300x; cc=9.4 sms=304 warp=64 >=150GB <230GB").
 * Of the rules that match, the one with the most terms wins, then the first
 * in table order; none matching: no device (the caller asks for --hw). */

static int ascii_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A number of up to 6 digits at [t, t + n): its value, -1 if not one. */
static int32_t small_uint(const char *t, size_t n) {
  if (n == 0 || n > 6) return -1;
  int32_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (t[i] < '0' || t[i] > '9') return -1;
    v = v * 10 + (t[i] - '0');
  }
  return v;
}

/* Term [t, t + n) for the device: 1 holds, 0 does not, -1 malformed. */
static int term_holds(const char *t, size_t n, const rli_devdesc *d) {
  int neg = n > 0 && t[0] == '!';
  if (neg) t++, n--;
  if (n == 0) return -1;
  int r = 0;
  const char *name = d->name ? d->name : "";
  const char *eq = memchr(t, '=', n);
  if (eq && eq > t && ((t[0] >= 'a' && t[0] <= 'z') || (t[0] >= 'A' && t[0] <= 'Z'))) {
    /* cc=M.m, sms=N, warp=N */
    size_t kl = (size_t)(eq - t), vl = n - kl - 1;
    const char *v = eq + 1;
    if (RLI_EQ_NOCASE(t, kl, "cc")) {
      const char *dot = memchr(v, '.', vl);
      if (!dot) return -1;
      int32_t ma = small_uint(v, (size_t)(dot - v)), mi = small_uint(dot + 1, vl - (size_t)(dot - v) - 1);
      if (ma < 1 || mi < 0) return -1;
      r = d->cc_major == ma && d->cc_minor == mi;
    } else if (RLI_EQ_NOCASE(t, kl, "sms") || RLI_EQ_NOCASE(t, kl, "warp")) {
      int32_t want = small_uint(v, vl);
      if (want < 1) return -1;
      r = (RLI_EQ_NOCASE(t, kl, "sms") ? d->sms : d->warp) == want;
    } else {
      return -1;
    }
  } else if (t[0] == '<' || t[0] == '>') {
    size_t k = t[0] == '<' ? 1 : 2;
    if (k == 2 && (n < 2 || t[1] != '=')) return -1;
    if (n < k + 1 + RLI_LEN("gb") || rli_strncasecmp(t + n - RLI_LEN("gb"), "gb", RLI_LEN("gb")) != 0) return -1;
    double gb = 0;
    for (size_t i = k; i < n - RLI_LEN("gb"); i++) {
      if (t[i] < '0' || t[i] > '9' || gb > 1e6) return -1;
      gb = gb * 10 + (t[i] - '0');
    }
    if (!(gb > 0)) return -1;
    r = d->mem > 0 && (k == 1 ? d->mem < gb * 1e9 : d->mem >= gb * 1e9);
  } else {
    char how = t[0] == '^' || t[0] == '=' ? t[0] : 0;
    if (how) t++, n--;
    if (n == 0 || strchr("!^=<>", t[0]) || memchr(t, '=', n)) return -1;
    if (how == '=') r = strlen(name) == n && rli_strncasecmp(name, t, n) == 0;
    else
      for (const char *h = name; *h && !r; h++)
        r = (how ? h > name && h[-1] == ' ' : h == name || !ascii_alnum(h[-1])) &&
            rli_strncasecmp(h, t, n) == 0;
  }
  return neg ? !r : r;
}

/* Rule [r, e): its number of terms when all hold, 0 when one does not, -1
 * when malformed. */
static int rule_score(const char *r, const char *e, const rli_devdesc *d) {
  int terms = 0, all = 1;
  for (;;) {
    while (r < e && *r == ' ') r++;
    if (r == e) break;
    const char *t = r;
    while (r < e && *r != ' ') r++;
    int h = term_holds(t, (size_t)(r - t), d);
    if (h < 0) return -1;
    terms++;
    all &= h;
  }
  return terms == 0 ? -1 : all ? terms : 0;
}

/* The best score of the cell's rules (0: none matches); *bad, *len: the first
 * malformed rule, NULL when none. */
static int rules_score(const char *rules, const rli_devdesc *d, const char **bad, size_t *len) {
  int best = 0;
  *bad = NULL;
  if (!rules[0]) return 0;
  for (const char *r = rules;;) {
    const char *e = strchr(r, ';');
    if (!e) e = r + strlen(r);
    int s = rule_score(r, e, d);
    if (s < 0 && !*bad) *bad = r, *len = (size_t)(e - r);
    if (s > best) best = s;
    if (!*e) break;
    r = e + 1;
  }
  return best;
}

const char *rli_device_rules_bad(const char *rules, size_t *len) {
  const char *bad;
  size_t n = 0;
  rli_devdesc none = {"", 0, 0, 0, 0, 0};
  rules_score(rules ? rules : "", &none, &bad, &n);
  if (len) *len = n;
  return bad;
}

const char *rli_device_hw_id(const rli_devdesc *d) {
  if (!d || ((!d->name || !*d->name) && !(d->cc_major > 0 && d->sms > 0))) return NULL;
  const char *id = NULL, *bad;
  size_t n;
  int best = 0;
  for (int32_t i = 0; i < N_BUILTIN; i++) {
    int s = rules_score(builtin[i].profiler_names, d, &bad, &n);
    if (s > best) best = s, id = builtin[i].id;
  }
  return id;
}

const char *rli_device_hw_id_name(const char *name, double mem_bytes) {
  rli_devdesc d = {name, mem_bytes, 0, 0, 0, 0};
  return rli_device_hw_id(&d);
}

/* ---- the hardware schema ------------------------------------------------
 *
 * One row per column of data/hardware.csv: where it goes in rl_hw, its JSON
 * key (the field's name, in base units), the unit of a bare number, and its
 * label in `roofline hw show`. The CSV reader and writer, rl_hw_json,
 * rl_hw_set, rl_hw_figures, Python's records and tools/gen_tables.py (which
 * reads these rows) all follow this table. A new figure is a field in
 * rl_hw, a row here and a column in data/hardware.csv. */
enum { COL_TEXT, COL_PEAK, COL_NUM, COL_INT, COL_BOOL };
typedef struct hw_column {
  const char *name;   /* CSV column */
  const char *key;    /* the rl_hw field (Python's attribute) */
  const char *json;   /* JSON key (one name per concept: "bandwidth" as in
                       * every record, not "mem_bw") */
  int type;
  int peak;           /* COL_PEAK: rl_peak index */
  size_t off;         /* offset in rl_hw (COL_PEAK: of peak[0]) */
  size_t cap;         /* COL_TEXT: size of the char array */
  double scale;       /* a bare number's unit, in base units */
  rl_unit unit;       /* a cell with its own unit is read in */
  const char *label;  /* `hw show` figure; NULL: not a figure */
  const char *suffix; /* `hw show`: printed as value/scale and this, else as unit */
  const char *note;   /* `hw show`: after the value */
} hw_column;

/* doc (TEXT, BOOL): what the column holds, for the JSON Schema of the
 * record (docs/schema/hw-*.json, written by tools/gen_tables.py); a figure's
 * description is its label, note and unit. */
#define TEXT(csv, f, doc) {csv, #f, #f, COL_TEXT, 0, offsetof(rl_hw, f), sizeof(((rl_hw *)0)->f), 1, RL_UNIT_COUNT, NULL, NULL, NULL}
#define PEAK(csv, k) {csv, csv, csv, COL_PEAK, k, offsetof(rl_hw, peak), 0, 1e12, RL_UNIT_FLOP_S, NULL, NULL, NULL}
#define NUM(csv, f, scale, unit, label, suffix, note) NUMJ(csv, f, #f, scale, unit, label, suffix, note)
#define NUMJ(csv, f, json, scale, unit, label, suffix, note) \
  {csv, #f, json, COL_NUM, 0, offsetof(rl_hw, f), 0, scale, unit, label, suffix, note}
#define INT(csv, f, label) {csv, #f, #f, COL_INT, 0, offsetof(rl_hw, f), 0, 1, RL_UNIT_COUNT, label, NULL, NULL}
#define BOOL(csv, f, doc) {csv, #f, #f, COL_BOOL, 0, offsetof(rl_hw, f), 0, 1, RL_UNIT_COUNT, NULL, NULL, NULL}
static const hw_column columns[] = {
    TEXT("id", id, "identifier"),
    TEXT("aliases", aliases, "other ids the device is found by"),
    TEXT("vendor", vendor, "vendor"),
    TEXT("name", name, "display name"),
    TEXT("form_factor", form_factor, "form factor (SXM5, PCIe card, ...)"),
    TEXT("profiler_names", profiler_names,
         "rules matching the device a trace names (';'-separated; terms: word, ^word, =word, <NGB, >=NGB, cc=M.m, sms=N, warp=N, !term)"),
    PEAK("fp64", RL_PEAK_FP64),
    PEAK("fp64_tensor", RL_PEAK_FP64_TENSOR),
    PEAK("fp32", RL_PEAK_FP32),
    PEAK("tf32", RL_PEAK_TF32),
    PEAK("bf16", RL_PEAK_BF16),
    PEAK("fp16", RL_PEAK_FP16),
    PEAK("fp8", RL_PEAK_FP8),
    PEAK("int8", RL_PEAK_INT8),
    PEAK("fp4", RL_PEAK_FP4),
    PEAK("vec16", RL_PEAK_VEC16),
    PEAK("int4", RL_PEAK_INT4),
    BOOL("sparsity", sparsity, "2:4 structured sparsity doubles the tensor peaks (sparse peaks are listed apart)"),
    NUM("mem_gb", mem_bytes, 1e9, RL_UNIT_BYTES, "memory capacity", NULL, NULL),
    NUMJ("bandwidth_tbs", mem_bw, "bandwidth", 1e12, RL_UNIT_BYTES_S, "memory bandwidth", NULL, NULL),
    NUMJ("l1_bandwidth_tbs", l1_bw, "l1_bandwidth", 1e12, RL_UNIT_BYTES_S, "L1 bandwidth", NULL, NULL),
    NUM("l2_mb", l2_bytes, 1e6, RL_UNIT_BYTES, "L2 / last level", NULL, NULL),
    NUMJ("l2_bandwidth_tbs", l2_bw, "l2_bandwidth", 1e12, RL_UNIT_BYTES_S, "L2 bandwidth", NULL, NULL),
    NUMJ("l3_bandwidth_tbs", l3_bw, "l3_bandwidth", 1e12, RL_UNIT_BYTES_S, "L3 bandwidth", NULL, NULL),
    NUM("l1_kb", l1_bytes, 1e3, RL_UNIT_BYTES, "L1 data per core", NULL, "(CPUs)"),
    NUM("l2_core_kb", l2_core_bytes, 1e3, RL_UNIT_BYTES, "L2 per core", NULL, "(CPUs: l2_mb is then the L3)"),
    INT("sms", sms, "SMs / CUs"),
    NUM("boost_ghz", boost_hz, 1e9, RL_UNIT_COUNT, "boost clock", "GHz", NULL),
    NUMJ("interconnect_bandwidth_gbs", interconnect_bw, "interconnect_bandwidth", 1e9, RL_UNIT_BYTES_S, "interconnect", NULL,
        "(total, both directions)"),
    NUM("link_latency_us", link_latency_s, 1e-6, RL_UNIT_SECONDS, "link latency", NULL,
        "per ring hop (NCCL tuning model)"),
    NUMJ("host_bandwidth_gbs", host_bw, "host_bandwidth", 1e9, RL_UNIT_BYTES_S, "host link", NULL,
        "(one direction: memcpy HtoD, DtoH)"),
    NUM("tdp_w", tdp_w, 1, RL_UNIT_COUNT, "TDP", "W", NULL),
    TEXT("source", source, "where the figures come from (datasheets, papers)"),
};
#undef TEXT
#undef PEAK
#undef NUM
#undef INT
#undef BOOL
#define N_COLUMNS (sizeof columns / sizeof columns[0])
#define MAX_CSV_COLS 64

/* A cell: a bare number in the column's unit, or a quantity with its own
 * unit ("32GiB"). */
static rl_status cell_number(const char *cell, double scale, rl_unit unit,
                             double *out, rl_error *err) {
  double v;
  rl_error e;
  /* bare number first: parse as a count, which rejects any unit */
  if (rl_parse_quantity(cell, RL_UNIT_COUNT, &v, &e) == RL_OK) {
    const char *p = cell;
    int has_prefix = 0;
    for (; *p; p++)
      if (isalpha((unsigned char)*p) && *p != 'e' && *p != 'E') has_prefix = 1;
    *out = has_prefix ? v : v * scale;
    /* the column's power of ten as a prefix, so that "66.9" TFLOP/s is read
     * as one decimal (66900000000000), as tools/gen_tables.py does */
    const char *pfx = scale == 1e12 ? "T" : scale == 1e9 ? "G" : scale == 1e6 ? "M" : scale == 1e3 ? "k" : NULL;
    char t[96];
    size_t cl = strlen(cell);
    if (!has_prefix && pfx && cl < sizeof t - 2) {
      memcpy(t, cell, cl);
      t[cl] = pfx[0];
      t[cl + 1] = 0;
      if (rl_parse_quantity(t, RL_UNIT_COUNT, &v, &e) == RL_OK) *out = v;
    }
    return RL_OK;
  }
  if (unit == RL_UNIT_COUNT) return rli_fail(err, RL_EPARSE, "%s", e.msg);
  rl_status st = rl_parse_quantity(cell, unit, &v, err);
  if (st == RL_OK) *out = v;
  return st;
}

static double *num_at(rl_hw *hw, const hw_column *c) {
  return c->type == COL_PEAK ? &hw->peak[c->peak] : (double *)(void *)((char *)hw + c->off);
}

static double num_of(const rl_hw *hw, const hw_column *c) {
  if (c->type == COL_PEAK) return hw->peak[c->peak];
  if (c->type == COL_INT || c->type == COL_BOOL) return *(const int32_t *)(const void *)((const char *)hw + c->off);
  return *(const double *)(const void *)((const char *)hw + c->off);
}

/* One cell into its field: text copied, a number read in the column's unit
 * (an empty cell leaves the field 0). */
static rl_status set_cell(rl_hw *hw, const hw_column *c, const char *cell, int toolong,
                          rl_error *err) {
  if (c->type == COL_TEXT) {
    if (toolong || strlen(cell) >= c->cap)
      return rli_fail(err, RL_EPARSE, "longer than %zu bytes", c->cap - 1);
    size_t bl = 0;
    const char *bad = c->off == offsetof(rl_hw, profiler_names) ? rli_device_rules_bad(cell, &bl) : NULL;
    if (bad)
      return rli_fail(err, RL_EPARSE,
                      "rule '%.*s' is malformed (terms: word, ^word, =word, <NGB, >=NGB, each may start with !)",
                      (int)bl, bad);
    memcpy((char *)hw + c->off, cell, strlen(cell) + 1);
    return RL_OK;
  }
  if (!cell[0]) return RL_OK;
  double v = 0;
  rl_status st = cell_number(cell, c->scale, c->unit, &v, err);
  if (st != RL_OK) return st;
  if (v < 0 || !isfinite(v) || v > 1e30)
    return rli_fail(err, RL_EINVAL, "must be a non-negative figure (got '%s')", cell);
  /* a figure given (0: not known) in its quantity's plausible range (ranges.c) */
  if (v > 0 && (c->type == COL_NUM || c->type == COL_PEAK))
    TRY(rl_range_check(rl_param_qty(c->name, c->unit), v, NULL, err));
  if (c->type == COL_INT || c->type == COL_BOOL) {
    if (v != floor(v) || v > 2147483647.0) return rli_fail(err, RL_EINVAL, "not a whole number");
    if (c->type == COL_BOOL && v > 1) return rli_fail(err, RL_EINVAL, "must be 0 or 1");
    *(int32_t *)(void *)((char *)hw + c->off) = (int32_t)v;
  } else {
    *num_at(hw, c) = v;
  }
  return RL_OK;
}

/* A CSV column's name as of the contract's version 1: the older names are
 * still read. */
static const char *csv_name_now(const char *name) {
  static const char *const old[][2] = {{"mem_bw_tbs", "bandwidth_tbs"}, {"l1_bw_tbs", "l1_bandwidth_tbs"},
                                       {"l2_bw_tbs", "l2_bandwidth_tbs"}, {"l3_bw_tbs", "l3_bandwidth_tbs"},
                                       {"interconnect_gbs", "interconnect_bandwidth_gbs"}};
  for (size_t k = 0; k < sizeof old / sizeof old[0]; k++)
    if (strcmp(name, old[k][0]) == 0) return old[k][1];
  return name;
}

/* A column by CSV name, JSON key or (a peak) format name ("fp64_tensor"). */
static const hw_column *find_column(const char *name) {
  name = csv_name_now(name);
  for (size_t c = 0; c < N_COLUMNS; c++)
    if (strcmp(name, columns[c].name) == 0 || strcmp(name, columns[c].key) == 0 ||
        strcmp(name, columns[c].json) == 0 ||
        (columns[c].type == COL_PEAK && strcmp(name, rl_peak_name(columns[c].peak)) == 0))
      return &columns[c];
  return NULL;
}

rl_status rl_hw_set_value(rl_hw *hw, const char *column, double value, rl_error *err) {
  if (!hw || !column) return rli_fail(err, RL_EINVAL, "no hardware or column");
  const hw_column *c = find_column(column);
  if (!c) return rli_fail(err, RL_ENOTFOUND, "unknown hardware column '%s'", column);
  if (c->type == COL_TEXT) return rli_fail(err, RL_EINVAL, "%s is text, not a number", column);
  if (value < 0 || !isfinite(value) || value > 1e30)
    return rli_fail(err, RL_EINVAL, "%s must be a non-negative figure (got %g)", column, value);
  if (value > 0 && (c->type == COL_NUM || c->type == COL_PEAK))
    TRY(rl_range_check(rl_param_qty(c->name, c->unit), value, column, err));
  if (c->type == COL_INT || c->type == COL_BOOL) {
    if (value != floor(value) || value > 2147483647.0 || (c->type == COL_BOOL && value > 1))
      return rli_fail(err, RL_EINVAL, "%s: not a whole number%s", column,
                      c->type == COL_BOOL ? " (0 or 1)" : "");
    *(int32_t *)(void *)((char *)hw + c->off) = (int32_t)value;
  } else {
    *num_at(hw, c) = value;
  }
  return RL_OK;
}

const char *rl_hw_json_key(const char *column) {
  const hw_column *c = column ? find_column(column) : NULL;
  return !c ? NULL : c->type == COL_PEAK ? rl_peak_name(c->peak) : c->json;
}

double rl_hw_value(const rl_hw *hw, const char *column) {
  const hw_column *c = hw && column ? find_column(column) : NULL;
  return c && c->type != COL_TEXT ? num_of(hw, c) : 0;
}

rl_status rl_hw_set(rl_hw *hw, const char *column, const char *cell, rl_error *err) {
  if (!hw || !column || !cell) return rli_fail(err, RL_EINVAL, "no hardware, column or value");
  const hw_column *c = find_column(column);
  if (!c) return rli_fail(err, RL_ENOTFOUND, "unknown hardware column '%s'", column);
  rl_error e;
  rl_status st = set_cell(hw, c, cell, 0, &e);
  if (st != RL_OK) return rli_fail(err, st, "%s: %s", column, e.msg);
  return RL_OK;
}

/* The ids of the rows read so far, for "given twice": a list and an
 * open-addressing hash of their lower-case forms (slot: index + 1, 0
 * empty), so that a file of n rows is checked in O(n), not O(n^2). */
typedef struct id_list {
  char (*id)[RL_HW_ID_MAX];
  int *line;
  size_t n, cap, capline;
  uint32_t *slot;
  size_t nslot; /* a power of two, at least twice n */
} id_list;

static uint64_t id_hash(const char *id) {
  char low[RL_HW_ID_MAX];
  size_t k = 0;
  for (; id[k] && k + 1 < sizeof low; k++) low[k] = (char)tolower((unsigned char)id[k]);
  return rli_hash(low, k);
}

/* The index of id (case-insensitive) among the rows read, or -1. */
static long id_lookup(const id_list *ids, const char *id) {
  if (!ids->nslot) return -1;
  for (size_t h = (size_t)id_hash(id) & (ids->nslot - 1);; h = (h + 1) & (ids->nslot - 1)) {
    if (!ids->slot[h]) return -1;
    if (rli_strcasecmp(ids->id[ids->slot[h] - 1], id) == 0) return (long)ids->slot[h] - 1;
  }
}

/* Index row i (already in ids->id). 0: out of memory. */
static int id_index(id_list *ids, size_t i) {
  if (2 * (i + 1) > ids->nslot) {
    size_t ns = ids->nslot ? 2 * ids->nslot : 64;
    uint32_t *sl = calloc(ns, sizeof *sl);
    if (!sl) return 0;
    free(ids->slot);
    ids->slot = sl;
    ids->nslot = ns;
    for (size_t k = 0; k < i; k++) {
      size_t h = (size_t)id_hash(ids->id[k]) & (ns - 1);
      while (sl[h]) h = (h + 1) & (ns - 1);
      sl[h] = (uint32_t)(k + 1);
    }
  }
  size_t h = (size_t)id_hash(ids->id[i]) & (ids->nslot - 1);
  while (ids->slot[h]) h = (h + 1) & (ids->nslot - 1);
  ids->slot[h] = (uint32_t)(i + 1);
  return 1;
}

/* A user's row may override a built-in device by its exact id, but not
 * take over a built-in alias, silently, by its id or its aliases; an id
 * twice in one file is an error. */
static rl_status check_row_id(const rl_hw *hw, int line, id_list *ids, rl_error *err) {
  long prev = id_lookup(ids, hw->id);
  if (prev >= 0)
    return rli_fail(err, RL_EPARSE, "line %d: id '%s' given twice (first on line %d)", line, hw->id,
                    ids->line[prev]);
  for (int32_t b = 0; b < N_BUILTIN; b++) {
    if (rli_strcasecmp(builtin[b].id, hw->id) == 0) continue; /* an override, by its id */
    if (list_has(builtin[b].aliases, hw->id))
      return rli_fail(err, RL_EPARSE,
                      "line %d: id '%s' is an alias of the built-in %s: use '%s' to override it, or another id",
                      line, hw->id, builtin[b].id, builtin[b].id);
  }
  char word[RL_HW_ID_MAX];
  for (const char *p = hw->aliases; *p;) {
    while (*p == ' ') p++;
    size_t l = strcspn(p, " ");
    if (l && l < sizeof word) {
      memcpy(word, p, l);
      word[l] = 0;
      for (int32_t b = 0; b < N_BUILTIN; b++)
        if (rli_strcasecmp(builtin[b].id, hw->id) != 0 &&
            (rli_strcasecmp(builtin[b].id, word) == 0 || list_has(builtin[b].aliases, word)))
          return rli_fail(err, RL_EPARSE, "line %d (%s): alias '%s' is taken by the built-in %s", line, hw->id,
                          word, builtin[b].id);
    }
    p += l;
  }
  if (!rli_grow((void **)&ids->id, sizeof *ids->id, ids->n + 1, &ids->cap) ||
      !rli_grow((void **)&ids->line, sizeof *ids->line, ids->n + 1, &ids->capline))
    return rli_fail(err, RL_ENOMEM, "out of memory");
  memcpy(ids->id[ids->n], hw->id, RL_HW_ID_MAX);
  ids->line[ids->n] = line;
  if (!id_index(ids, ids->n)) return rli_fail(err, RL_ENOMEM, "out of memory");
  ids->n++;
  return RL_OK;
}

static rl_status parse_csv(const char *text, size_t len, rl_hw *out, int32_t cap, int32_t *n, id_list *ids,
                           rl_error *err);

/* The most devices a hardware CSV may hold (docs/reliability.md): the
 * reader is linear in the rows (ids checked through a hash), each row is
 * 1.3 kB in memory and every lookup scans them. */
#define HW_CSV_MAX_ROWS 10000

rl_status rl_hw_parse_csv(const char *text, size_t len, rl_hw *out,
                          int32_t cap, int32_t *n, rl_error *err) {
  if (!text || !n) return rli_fail(err, RL_EINVAL, "no CSV text");
  id_list ids = {NULL, NULL, 0, 0, 0, NULL, 0};
  rl_status st = parse_csv(text, len, out, cap, n, &ids, err);
  free(ids.id);
  free(ids.line);
  free(ids.slot);
  return st;
}

static rl_status parse_csv(const char *text, size_t len, rl_hw *out, int32_t cap, int32_t *n, id_list *ids,
                           rl_error *err) {
  *n = 0;
  const char *p = text, *end = text + len;
  int map[MAX_CSV_COLS];
  int ncols = 0, have_header = 0, line = 0;
  char cell[RL_HW_SOURCE_MAX + 8];
  while (p < end) {
    line++;
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    const char *lend = eol ? eol : end;
    const char *q = p;
    while (q < lend && (*q == ' ' || *q == '\t')) q++;
    if (q == lend || *q == '#' || (*q == '\r' && q + 1 == lend)) {
      p = eol ? eol + 1 : end;
      continue;
    }
    if (memchr(p, 0, (size_t)(lend - p)))
      return rli_fail(err, RL_EPARSE, "line %d: NUL byte in text", line);
    if (!have_header) {
      int more = 1;
      while (more) {
        if (ncols >= MAX_CSV_COLS)
          return rli_fail(err, RL_EPARSE, "line %d: more than %d columns", line, MAX_CSV_COLS);
        int toolong = 0, bad = 0;
        more = csv_field(&p, lend, cell, sizeof cell, &toolong, &bad);
        if (bad) return rli_fail(err, RL_EPARSE, "line %d: malformed header", line);
        int found = -1;
        for (size_t c = 0; c < N_COLUMNS; c++)
          if (strcmp(csv_name_now(cell), columns[c].name) == 0) found = (int)c;
        if (found < 0)
          return rli_fail(err, RL_EPARSE, "line %d: unknown column '%s'", line, cell);
        for (int c = 0; c < ncols; c++)
          if (map[c] == found)
            return rli_fail(err, RL_EPARSE, "line %d: column '%s' twice", line, cell);
        map[ncols++] = found;
      }
      int has_id = 0;
      for (int c = 0; c < ncols; c++) has_id |= map[c] == 0;
      if (!has_id) return rli_fail(err, RL_EPARSE, "line %d: the header has no 'id' column", line);
      have_header = 1;
      p = eol ? eol + 1 : end;
      continue;
    }
    if (*n >= HW_CSV_MAX_ROWS)
      return rli_fail(err, RL_EPARSE, "line %d: more than %d devices (the most a hardware file may hold)", line,
                      HW_CSV_MAX_ROWS);
    rl_hw hw;
    memset(&hw, 0, sizeof hw);
    int col = 0, more = 1;
    while (more) {
      int toolong = 0, bad = 0;
      if (col >= ncols)
        return rli_fail(err, RL_EPARSE, "line %d: more fields than the header's %d", line, ncols);
      more = csv_field(&p, lend, cell, sizeof cell, &toolong, &bad);
      const char *cname = columns[map[col]].name;
      if (bad) return rli_fail(err, RL_EPARSE, "line %d, column '%s': malformed quoting", line, cname);
      rl_error e;
      rl_status st = set_cell(&hw, &columns[map[col]], cell, toolong, &e);
      if (st != RL_OK) return rli_fail(err, st, "line %d, column '%s': %s", line, cname, e.msg);
      col++;
    }
    if (col != ncols)
      return rli_fail(err, RL_EPARSE, "line %d: %d fields, the header has %d", line, col, ncols);
    if (!hw.id[0]) return rli_fail(err, RL_EPARSE, "line %d: empty id", line);
    rl_status idst = check_row_id(&hw, line, ids, err);
    if (idst != RL_OK) return idst;
    if (!(hw.mem_bw > 0))
      return rli_fail(err, RL_EINVAL, "line %d (%s): a device needs bandwidth_tbs > 0", line, hw.id);
    if (out && *n < cap) out[*n] = hw;
    (*n)++;
    p = eol ? eol + 1 : end;
  }
  if (!have_header) return rli_fail(err, RL_EPARSE, "no header row (need at least 'id')");
  if (*n == 0) return rli_fail(err, RL_EPARSE, "no device rows after the header");
  return RL_OK;
}

/* ---- writers ------------------------------------------------------------ */

static void csv_text(rli_out *o, const char *s) {
  rli_out_puts(o, "\"");
  for (; *s; s++) {
    if (*s == '"') rli_out_puts(o, "\"\"");
    else if (*s == '\n' || *s == '\r') rli_out_puts(o, " ");
    else rli_out_printf(o, "%c", *s);
  }
  rli_out_puts(o, "\"");
}

/* v in the column's unit, in the fewest significant digits (at least 6)
 * that the reader reads back as exactly v. */
static void csv_num(rli_out *o, double v, const hw_column *c) {
  char t[40];
  for (int p = 6; p <= 17; p++) {
    snprintf(t, sizeof t, "%.*g", p, v / c->scale);
    double back = 0;
    if (cell_number(t, c->scale, c->unit, &back, NULL) == RL_OK && back == v) break;
  }
  rli_out_puts(o, t);
}

size_t rl_hw_csv(const rl_hw *hw, int header, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  if (header)
    for (size_t c = 0; c < N_COLUMNS; c++)
      rli_out_printf(&o, "%s%s", columns[c].name, c + 1 < N_COLUMNS ? "," : "\n");
  for (size_t c = 0; hw && c < N_COLUMNS; c++) {
    const hw_column *col = &columns[c];
    if (c) rli_out_puts(&o, ",");
    double v = col->type == COL_TEXT ? 0 : num_of(hw, col);
    if (col->type == COL_TEXT) csv_text(&o, (const char *)hw + col->off);
    else if (col->type == COL_BOOL) rli_out_printf(&o, "%d", (int)v);
    else if (col->type == COL_INT) { if (v > 0) rli_out_printf(&o, "%d", (int)v); }
    else if (v > 0 && isfinite(v)) csv_num(&o, v, col);
  }
  if (hw) rli_out_puts(&o, "\n");
  return rli_out_end(&o);
}

size_t rl_hw_json(const rl_hw *hw, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  if (!hw) { rli_out_puts(&o, "null"); return rli_out_end(&o); }
  rli_out_puts(&o, "{");
  int peaks_done = 0;
  for (size_t c = 0; c < N_COLUMNS; c++) {
    const hw_column *col = &columns[c];
    if (col->type == COL_PEAK) {
      if (peaks_done) continue;
      peaks_done = 1;
      /* every peak the device has, and the ridge point of each */
      for (int ridge = 0; ridge < 2; ridge++) {
        rli_out_puts(&o, ridge ? ",\"ridge\":{" : ",\"peak\":{");
        int first = 1;
        for (size_t k = c; k < N_COLUMNS; k++)
          if (columns[k].type == COL_PEAK && hw->peak[columns[k].peak] > 0) {
            rli_out_printf(&o, "%s\"%s\":", first ? "" : ",", rl_peak_name(columns[k].peak));
            rli_out_num(&o, ridge ? rl_hw_ridge(hw, columns[k].peak) : hw->peak[columns[k].peak]);
            first = 0;
          }
        rli_out_puts(&o, "}");
      }
      continue;
    }
    rli_out_printf(&o, "%s\"%s\":", c ? "," : "", col->json);
    if (col->type == COL_TEXT && col->off == offsetof(rl_hw, aliases)) {
      /* the aliases as a list of words */
      const char *a = hw->aliases;
      rli_out_puts(&o, "[");
      for (int first = 1; *a;) {
        size_t n = strcspn(a, " ");
        if (n) {
          char w[RL_HW_TEXT_MAX];
          snprintf(w, sizeof w, "%.*s", (int)n, a);
          rli_out_puts(&o, first ? "" : ",");
          rli_out_str(&o, w);
          first = 0;
        }
        a += n;
        while (*a == ' ') a++;
      }
      rli_out_puts(&o, "]");
    } else if (col->type == COL_TEXT) rli_out_str(&o, (const char *)hw + col->off);
    else if (col->type == COL_BOOL) rli_out_puts(&o, num_of(hw, col) != 0 ? "true" : "false");
    else if (num_of(hw, col) > 0) rli_out_num(&o, num_of(hw, col));
    else rli_out_puts(&o, "null"); /* a figure the database does not give */
  }
  rli_out_puts(&o, "}");
  return rli_out_end(&o);
}

size_t rl_hw_figures(const rl_hw *hw, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  for (size_t c = 0; hw && c < N_COLUMNS; c++) {
    const hw_column *col = &columns[c];
    if (!col->label) continue;
    double v = num_of(hw, col);
    if (!(v > 0)) continue;
    char q[64];
    if (col->type == COL_INT) snprintf(q, sizeof q, "%d", (int)v);
    else if (col->suffix) snprintf(q, sizeof q, "%.4g %s", v / col->scale, col->suffix);
    else rl_format_quantity(v, col->unit, q, sizeof q);
    rli_out_printf(&o, "%-18s %s%s%s\n", col->label, q, col->note ? " " : "",
                   col->note ? col->note : "");
  }
  return rli_out_end(&o);
}

size_t rl_hw_sizeof(void) { return sizeof(rl_hw); }
