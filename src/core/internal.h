/*
 * internal.h -- helpers shared by the library's modules (prefix rli_).
 * Not part of the public interface: clients include roofline.h only.
 */
#ifndef RL_INTERNAL_H
#define RL_INTERNAL_H

#include "roofline.h"
#include "core/strlit.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define RLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define RLI_PRINTF(a, b)
#endif

/* Numbers are printed and read with the C locale's rules whatever the
 * process's LC_NUMERIC (a Python notebook may set de_DE, whose decimal
 * comma would make "1,5" of 1.5 and break every JSON document): these run
 * the C library's function under the C locale for the calling thread
 * (uselocale, POSIX.1-2008), and every module of the library calls them
 * through the names below (util.c, which defines them, calls the real
 * ones). */
int rli_snprintf(char *buf, size_t cap, const char *fmt, ...) RLI_PRINTF(3, 4);
int rli_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap) RLI_PRINTF(3, 0);
int rli_fprintf(FILE *f, const char *fmt, ...) RLI_PRINTF(2, 3);
double rli_strtod(const char *s, char **end);
#ifndef RLI_UTIL_C
#define snprintf rli_snprintf
#define vsnprintf rli_vsnprintf
#define fprintf rli_fprintf
#define strtod rli_strtod
#endif

/* RLI_LEN, RLI_EQ, RLI_PREFIX, RLI_ENDS, RLI_STARTS: core/strlit.h */

/* Set err->msg (when err is not NULL) and return status. */
rl_status rli_fail(rl_error *err, rl_status status, const char *fmt, ...)
    RLI_PRINTF(3, 4);

/* 1 when x is finite and > 0. */
int rli_positive(double x);

/* Check that a size argument is finite and > 0 (and not absurd: below
 * 1e30). Returns RL_OK or RL_EINVAL naming `what`. */
rl_status rli_check_size(double x, const char *what, rl_error *err);

/* RL_ERANGE "WHAT is too large (got X; at most HI)" when x > hi, else
 * RL_OK (NaN passes: the caller's own check names it). Every cap on a
 * size says "too large", never "must be >= 1". */
rl_status rli_check_max(double x, double hi, const char *what, rl_error *err);

/* RL_ERANGE when any of v[0..n) is not finite: "the result is not finite
 * (INPUTS): an input is out of any physical range", INPUTS formatted from
 * fmt, so that an extreme input never reaches the output as inf or NaN. */
rl_status rli_check_finite(const double *v, size_t n, rl_error *err, const char *fmt, ...)
    RLI_PRINTF(4, 5);

/* Case-insensitive ASCII comparison. */
int rli_strcasecmp(const char *a, const char *b);
int rli_strncasecmp(const char *a, const char *b, size_t n);
/* RLI_EQ, ASCII case ignored: the n bytes at s are lit in any case */
#define RLI_EQ_NOCASE(s, n, lit) ((n) == RLI_LEN(lit) && rli_strncasecmp((s), "" lit "", RLI_LEN(lit)) == 0)

/* Does `hay` contain `needle`, ignoring ASCII case? */
int rli_contains_ci(const char *hay, const char *needle);

/* What a trace says of its device: the driver's name, its memory in bytes,
 * compute capability (HIP: the gfx arch's major.minor, gfx942 = 9.4, gfx90a
 * = 9.0), SMs (AMD: compute units) and warp size (AMD: 64); 0 = unknown. */
typedef struct rli_devdesc {
  const char *name;
  double mem;
  int32_t cc_major, cc_minor, sms, warp;
} rli_devdesc;
/* The built-in device whose profiler_names rule matches the device a trace
 * describes: its id, or NULL. */
const char *rli_device_hw_id(const rli_devdesc *d);
/* rli_device_hw_id of a name (and memory in bytes, 0 = unknown) alone. */
const char *rli_device_hw_id_name(const char *name, double mem_bytes);
/* A profiler_names cell: NULL when every rule is well formed, else the
 * first malformed rule (its length in *len). */
const char *rli_device_rules_bad(const char *rules, size_t *len);

/* Levenshtein distance between two ids, ignoring ASCII case (each side
 * capped at 63 characters), for "nearest ids" suggestions. */
int rli_edit_distance(const char *a, const char *b);

/* The three candidates nearest to an unknown id, for error messages:
 * init, add every candidate's index and distance, then read idx[] (-1 where
 * fewer than three were added), nearest first. */
typedef struct rli_nearest {
  int32_t idx[3];
  int dist[3];
} rli_nearest;
void rli_nearest_init(rli_nearest *n);
void rli_nearest_add(rli_nearest *n, int32_t index, int dist);

/* The index of `name` (ASCII case ignored) in names[0..n), or RL_EINVAL
 * "'x' is not a, b or c" naming every one. */
rl_status rli_name_parse(const char *const *names, int32_t n, const char *name,
                         int32_t *out, rl_error *err);

/* Propagate a failure: TRY(rl_call(...)) returns its status unless RL_OK. */
#define TRY(x) do { rl_status st_ = (x); if (st_ != RL_OK) return st_; } while (0)

/* Make room for `need` elements of `elem` bytes in *p (capacity *cap,
 * doubled from 4): 0 when the size would overflow or realloc fails (then
 * *p and *cap are unchanged), 1 when done. The library's one growth
 * function: every growing array uses it. */
int rli_grow(void **p, size_t elem, size_t need, size_t *cap);

/* Sort the indices v[0..n) by cmp(ctx, a, b) (a total order: equal only
 * for a == b), stably: a merge sort that skips merging halves already in
 * order, so that input nearly in order costs about n comparisons. Needs n
 * more indices of scratch; 0 when that allocation fails (v unchanged), 1
 * when sorted. For sorting large tables by index (4 bytes per row, not a
 * copy of the rows) with the context qsort lacks (no globals: threads). */
typedef int (*rli_idx_cmp)(const void *ctx, uint32_t a, uint32_t b);
int rli_sort_idx(uint32_t *v, size_t n, rli_idx_cmp cmp, const void *ctx);

/* LEB128 varints (7 bits a byte, low first; the DWARF and protobuf
 * encoding) and zigzag for signed differences (protobuf's sint64: 0, -1,
 * 1, -2 ... as 0, 1, 2, 3 ...), for the compact trace records. put writes
 * at most 10 bytes and returns the end; get reads one and returns the end.
 * Differences are wrapped 64-bit (two's complement) ones. */
static inline uint8_t *rli_varint_put(uint8_t *p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  *p++ = (uint8_t)v;
  return p;
}
static inline const uint8_t *rli_varint_get(const uint8_t *p, uint64_t *v) {
  uint64_t x = *p++;
  if (x & 0x80) {
    x &= 0x7f;
    for (unsigned sh = 7; sh < 64; sh += 7) {
      uint8_t c = *p++;
      x |= (uint64_t)(c & 0x7f) << sh;
      if (!(c & 0x80)) break;
    }
  }
  *v = x;
  return p;
}
static inline uint64_t rli_zigzag(uint64_t d) { return d << 1 ^ ((d >> 63) ? UINT64_MAX : 0); }
static inline uint64_t rli_unzigzag(uint64_t u) { return u >> 1 ^ (0 - (u & 1)); }

/* The library's one hash of a byte string (word at a time, then a 64-bit
 * finaliser), for its hash tables. */
uint64_t rli_hash(const void *p, size_t n);

/* Copy with truncation, always NUL-terminated (cap > 0). */
void rli_strlcpy(char *dst, const char *src, size_t cap);

/* A growable text buffer that writes into (buf, cap) and keeps counting the
 * length needed past the end, for snprintf-style writers. */
typedef struct rli_out {
  char *buf;
  size_t cap;
  size_t len; /* length needed so far */
} rli_out;

void rli_out_init(rli_out *o, char *buf, size_t cap);
void rli_out_puts(rli_out *o, const char *s);
void rli_out_printf(rli_out *o, const char *fmt, ...) RLI_PRINTF(2, 3);
/* A JSON number, null when not finite: whole numbers up to 2^53 in full,
 * others in the fewest digits that read back exactly. */
void rli_out_num(rli_out *o, double v);
/* A JSON string literal (see rl_json_string). */
void rli_out_str(rli_out *o, const char *s);
/* NUL-terminate and return the length needed. */
size_t rli_out_end(rli_out *o);

/* ---- the sampling discipline of `roofline measure` (measure_sample.c) ---- */
/* Fed one sample at a time (its duration and whether the scheduler left it
 * alone), it says how many repetitions the next sample runs and when to
 * stop: the repetition count is calibrated on clean samples only, a
 * sample much shorter than the calibrating one sends it back to
 * calibrating, and the figure's statistics are over clean samples.
 * rli_sampler_result says why they cannot be trusted (RL_DISTURB_FEW_CLEAN:
 * fewer than RLI_MIN_CLEAN clean samples; RL_DISTURB_TIMER: the timer's
 * overhead above 1% of the samples). Pure: no clock. */
#define RLI_MIN_CLEAN 3
#define RLI_SAMPLER_MAX 128
typedef struct rli_sampler {
  double min_time;    /* s: a calibrating sample must last this, clean */
  double overhead;    /* s: the timer's cost per sample (resolution x 2) */
  int32_t repeats;    /* clean samples wanted */
  int32_t max_tries;  /* timed samples at most before giving up (past
                         them, on until RLI_MIN_CLEAN are clean, up to
                         hard_tries = 2 x max_tries) */
  int32_t hard_tries;
  int64_t max_reps;   /* repetitions at most (0: no bound); set after init */
  int64_t reps;       /* repetitions of the next sample */
  int32_t calibrated; /* 0 calibrating, 1 timing */
  int32_t calib_tries, tries, recalibrations;
  int32_t n_clean, n_all;
  double clean[RLI_SAMPLER_MAX], all[RLI_SAMPLER_MAX]; /* s per repetition */
  double clean_dt[RLI_SAMPLER_MAX]; /* the clean samples' durations, s */
} rli_sampler;
void rli_sampler_init(rli_sampler *s, double min_time, double overhead,
                      int32_t repeats, int32_t max_tries);
/* One sample of s->reps repetitions that lasted dt s; clean: 1 when the
 * scheduler left its threads alone. Returns 1 while another sample is
 * wanted (of s->reps repetitions), 0 when done. */
int rli_sampler_add(rli_sampler *s, double dt, int clean);
/* The statistics, per repetition, over the clean samples (over all of
 * them when fewer than RLI_MIN_CLEAN are clean and the rest are more),
 * and why they cannot be trusted (RL_DISTURB_FEW_CLEAN, RL_DISTURB_TIMER;
 * 0: they can), also in out->disturbed. RL_EINVAL when no sample was
 * timed. */
rl_status rli_sampler_result(const rli_sampler *s, rl_stats *out, rl_error *err);

#endif
