/*
 * json_scan.h -- a streaming JSON tokenizer (RFC 8259) over a byte source
 * (rli_src, trace_io.h): the Kineto reader's, for multi-gigabyte traces.
 * One pass over the text through a 1 MiB window, no document tree: the
 * caller walks the grammar with rli_js_ws (the next byte), rli_js_expect,
 * rli_js_string (a view into the window), rli_js_number and rli_js_skip
 * (a value validated and passed over). Every token is validated as it is
 * read; the errors name the byte offset (of the inflated text when the
 * source is gzip).
 *
 * Errors do not return: rli_js_fail sets p->st and the message in p->err
 * and longjmps to p->jb, which the caller sets with setjmp before its first
 * call. The fast paths (a token whole in the window, no escape) are inline
 * below; the general cases (refills, escapes, exponents) in json_scan.c.
 * What the caller may read of the struct: buf[pos, len) is the window's
 * unread text (rli_js_ensure makes n bytes of it present where the text has
 * them), pos the cursor. The window is the reading thread's block itself
 * (rli_src_block: no copy); only where a token is cut by a block's end are
 * its bytes and the next block's first ones copied into a small buffer of
 * the tokenizer's own, until the cursor is past the cut.
 *
 * Where it is fast (issue 29), after simdjson (G. Langdale, D. Lemire,
 * "Parsing Gigabytes of JSON per Second", VLDB Journal 28(6), 2019): its
 * stage 1 finds quotes, backslashes and control bytes with SIMD compares
 * and a movemask; here that finds a string's end (SSE2 for the first 16
 * bytes inline, then AVX2 32 at a time where the CPU has it, chosen at run
 * time with __builtin_cpu_supports, else SSE2). Digits are read 8 at a
 * time in one 64-bit word (simdjson's parse_eight_digits_unrolled; D.
 * Lemire, "Number Parsing at a Gigabyte per Second", Software: Practice
 * and Experience 51(8), 2021). A value the reader does not look at is
 * skipped without converting its numbers or copying its strings, by a
 * validating pass over the window with an explicit stack (json_scan.c);
 * whatever it does not accept is read again from the value's start by the
 * plain recursive skip, so every message and offset is the one the reader
 * gave before. The full stage 1 (a bitmap of every structural byte, then
 * a second pass over it) is not used: the reader validates each value it
 * skips, one window at a time, and its errors name the byte.
 */
#ifndef RL_JSON_SCAN_H
#define RL_JSON_SCAN_H

#include "io/trace_io.h"

#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The tokens of every event (strings, integers, decimals): inlined where
 * they are read, whatever the compiler's size heuristics say (a call per
 * token was a third of their cost). */
#if defined(__GNUC__)
#define RLI_JS_INLINE static inline __attribute__((always_inline))
#else
#define RLI_JS_INLINE static inline
#endif

typedef struct rli_js {
  rli_src *src;
  rl_error *err;
  jmp_buf jb;
  rl_status st;
  const char *buf; /* the window: the source's block itself, or own */
  size_t pos, len;
  uint64_t base; /* text offset of buf[0] */
  int eof;
  /* Where the window is own (a token cut by a block's end): own[0, tail)
   * is the unread end of the block before, then blk[0, boff) copied after
   * it; once the cursor is past the tail, the window is blk itself. */
  char *own;
  size_t owncap, tail, boff;
  const char *blk; /* the source's block (rli_src_block), or NULL */
  size_t blkn;
  int stitched;
  char *sb;      /* string scratch */
  size_t scap, slen;
} rli_js;

/* Start reading src (its text from the beginning); 0 when out of memory. */
int rli_js_open(rli_js *p, rli_src *src, rl_error *err);
/* Free what rli_js_open and the reading took (not src). */
void rli_js_close(rli_js *p);

/* Fail at text offset `at` with `what` (RL_ENOMEM: "out of memory"). */
_Noreturn void rli_js_fail(rli_js *p, rl_status st, uint64_t at, const char *what);

static inline uint64_t rli_js_here(const rli_js *p) { return p->base + p->pos; }

/* next non-blank byte without consuming it; -1 at the end (the general
 * case of rli_js_ws). */
int rli_js_ws_slow(rli_js *p);
static inline int rli_js_ws(rli_js *p) {
  if (p->pos < p->len) {
    unsigned char c = (unsigned char)p->buf[p->pos];
    if (c > ' ') return c;
    /* the usual ", " and ",\n": one blank, then the token */
    if ((c == ' ' || c == '\n') && p->pos + 1 < p->len) {
      unsigned char d = (unsigned char)p->buf[p->pos + 1];
      if (d > ' ') { p->pos++; return d; }
    }
  }
  return rli_js_ws_slow(p);
}

/* The error of rli_js_expect: what was found instead of `what`. */
void rli_js_expect_fail(rli_js *p, int c, const char *what);
static inline void rli_js_expect(rli_js *p, int c, const char *what) {
  if (rli_js_ws(p) != c) rli_js_expect_fail(p, c, what);
  p->pos++;
}

/* At least n unread bytes in the window, unless the text ends first. */
void rli_js_ensure(rli_js *p, size_t n);

/* The first '"', '\\' or control byte in b[i, n), or n. The first 16
 * bytes inline with SSE2 (nearly every key and most values end there); a
 * longer string goes on 32 bytes at a time with AVX2 where the CPU has it
 * (rli_js_scan_str_rest, json_scan.c: chosen at run time). */
size_t rli_js_scan_str_rest(const char *b, size_t i, size_t n);
#ifdef __SSE2__
/* The 16 bytes at p: a bit per quote, backslash or control byte. */
static inline unsigned rli_js_str_mask16(const char *p) {
  const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'), ctl = _mm_set1_epi8(0x1f);
  __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
  __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, bs)),
                           _mm_cmpeq_epi8(_mm_min_epu8(v, ctl), v));
  return (unsigned)_mm_movemask_epi8(m);
}
#endif
/* The string's end from i, a byte at a time (the last bytes of the window). */
static inline size_t rli_js_scan_str_bytes(const char *b, size_t i, size_t n) {
  while (i < n) {
    unsigned char c = (unsigned char)b[i];
    if (c == '"' || c == '\\' || c < 0x20) break;
    i++;
  }
  return i;
}
static inline size_t rli_js_scan_str(const char *b, size_t i, size_t n) {
#ifdef __SSE2__
  if (i + 16 <= n) {
    unsigned mask = rli_js_str_mask16(b + i);
    if (mask) return i + (size_t)__builtin_ctz(mask);
    return rli_js_scan_str_rest(b, i + 16, n);
  }
#endif
  return rli_js_scan_str_bytes(b, i, n);
}

/* A string's text: in buf (valid until the next read of the text) or in
 * sb; not NUL-terminated. */
typedef struct rli_sv {
  const char *s;
  size_t n;
} rli_sv;

/* The general case of a string, after the opening quote: escapes, control
 * bytes, a string across a refill. keep: unescape into p->sb (slen).
 * start: where the string began, for messages. */
void rli_js_string_slow(rli_js *p, uint64_t start, int keep);
/* A string at the cursor (after ws), its text kept: a view into the buffer
 * when it has no escape and lies in it whole (nearly always), else
 * unescaped into p->sb. */
/* The string whose opening '"' the cursor has just passed; start: where
 * the value began (rli_js_here), for the slow path's messages. */
RLI_JS_INLINE rli_sv rli_js_string_body(rli_js *p, uint64_t start) {
  size_t i = rli_js_scan_str(p->buf, p->pos, p->len);
  if (i < p->len && p->buf[i] == '"') {
    rli_sv r = {p->buf + p->pos, i - p->pos};
    p->pos = i + 1;
    return r;
  }
  rli_js_string_slow(p, start, 1);
  rli_sv r = {p->sb, p->slen};
  return r;
}

RLI_JS_INLINE rli_sv rli_js_string(rli_js *p) {
  uint64_t start = rli_js_here(p);
  rli_js_expect(p, '"', "a string");
  return rli_js_string_body(p, start);
}

/* rli_js_string where the cursor is at the string's '"' (rli_js_ws has
 * returned it): the same string, the same messages, one blank test less. */
RLI_JS_INLINE rli_sv rli_js_string_q(rli_js *p) {
  uint64_t start = rli_js_here(p);
  p->pos++;
  return rli_js_string_body(p, start);
}

/* An object's key as it is usually written, `"key":` (one blank or none
 * before it, no escape, whole in the window): its text in *kv, the cursor
 * past the ':', and 1; else 0 with nothing consumed, and the caller reads
 * it with rli_js_string and rli_js_expect: the same bytes consumed either
 * way. */
RLI_JS_INLINE int rli_js_key(rli_js *p, rli_sv *kv) {
  const char *b = p->buf;
  size_t i = p->pos, n = p->len;
  if (i < n && (b[i] == ' ' || b[i] == '\n')) i++;
  if (i >= n || b[i] != '"') return 0;
  size_t j = rli_js_scan_str(b, i + 1, n);
  if (j + 1 >= n || b[j] != '"' || b[j + 1] != ':') return 0;
  kv->s = b + i + 1;
  kv->n = j - i - 1;
  p->pos = j + 2;
  return 1;
}

/* A string at the cursor, validated and skipped. */
static inline void rli_js_string_skip(rli_js *p) {
  uint64_t start = rli_js_here(p);
  rli_js_expect(p, '"', "a string");
  size_t i = rli_js_scan_str(p->buf, p->pos, p->len);
  if (i < p->len && p->buf[i] == '"') {
    p->pos = i + 1;
    return;
  }
  rli_js_string_slow(p, start, 0);
}

/* The string v is the literal lit (its length counted by the compiler). */
#define RLI_SV_IS(v, lit) RLI_EQ((v).s, (v).n, lit)

/* SWAR digits (simdjson's is_made_of_eight_digits_fast and
 * parse_eight_digits_unrolled; Lemire 2021, above): whether the 8 bytes
 * at s are all ASCII digits, and their value, with three multiplications
 * instead of eight. Little-endian byte order (x86, ARM, WebAssembly); elsewhere the
 * callers go digit by digit. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RLI_SWAR 1
static inline uint64_t rli_load8(const unsigned char *s) {
  uint64_t v;
  memcpy(&v, s, 8);
  return v;
}
static inline int rli_is8digits(uint64_t v) {
  return (((v & 0xF0F0F0F0F0F0F0F0ull) | (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) ==
          0x3333333333333333ull);
}
static inline uint64_t rli_parse8(uint64_t v) {
  v = (v & 0x0F0F0F0F0F0F0F0Full) * 2561 >> 8;
  v = (v & 0x00FF00FF00FF00FFull) * 6553601 >> 16;
  return (v & 0x0000FFFF0000FFFFull) * 42949672960001ull >> 32;
}
/* x: 8 bytes of text less '0' each (w ^ 0x30...): how many of them,
 * from the first, are digits (a digit's byte is then 0-9, and adding 6
 * leaves its high nibble 0; a carry out of a non-digit byte only reaches
 * the bytes after it) */
static inline int rli_ndigits8(uint64_t x) {
  uint64_t t = (x | (x + 0x0606060606060606ull)) & 0xF0F0F0F0F0F0F0F0ull;
  return t ? __builtin_ctzll(t) >> 3 : 8;
}
#else
#define RLI_SWAR 0
#endif

/* Digits at q (before end) into *m while *nd < cap: 8 bytes at a time
 * where there are 8, each run's value by rli_parse8 of its bytes moved to
 * the top of the word (the bytes below become leading zeros); the same m,
 * nd and end of the digits as one digit at a time. */
static inline const unsigned char *rli_digits(const unsigned char *q, const unsigned char *end,
                                              uint64_t *m, int *nd, int cap) {
#if RLI_SWAR
  static const uint64_t p10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
  while (end - q >= 8) {
    uint64_t x = rli_load8(q) ^ 0x3030303030303030ull;
    int k = rli_ndigits8(x);
    if (k > cap - *nd) k = cap - *nd;
    if (k <= 0) return q;
    *m = *m * p10[k] + rli_parse8(x << (64 - 8 * k));
    *nd += k;
    q += k;
    if (k < 8) return q;
  }
#endif
  while (q < end && *q >= '0' && *q <= '9' && *nd < cap) {
    *m = *m * 10 + (uint64_t)(*q++ - '0');
    (*nd)++;
  }
  return q;
}

RLI_JS_INLINE int rli_js_numch(unsigned char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* A plain integer of at most 15 digits at the cursor (after ws), read
 * straight into *v (what (int64_t)rli_js_number gives for it, without the
 * double): 1, or 0 with nothing consumed when the text there is anything
 * else (a fraction, an exponent, more digits, the window's end), which the
 * caller then reads with rli_js_number. */
RLI_JS_INLINE int rli_js_int(rli_js *p, int64_t *v) {
  const unsigned char *b = (const unsigned char *)p->buf + p->pos;
  const unsigned char *end = (const unsigned char *)p->buf + p->len;
#if RLI_SWAR
  /* 1 to 7 digits (ids, counts): one word, no loop */
  if (end - b >= 9) {
    int sg = b[0] == '-';
    uint64_t x = rli_load8(b + sg) ^ 0x3030303030303030ull;
    int k = rli_ndigits8(x);
    if (k >= 1 && k < 8 && (k == 1 || (x & 0xFF) != 0) && !rli_js_numch(b[sg + k])) {
      uint64_t m = rli_parse8(x << (64 - 8 * k));
      *v = sg ? -(int64_t)m : (int64_t)m;
      p->pos += (size_t)(sg + k);
      return 1;
    }
  }
#endif
  const unsigned char *q = b;
  int neg = 0;
  if (q < end && *q == '-') { neg = 1; q++; }
  if (q >= end || *q < '0' || *q > '9') return 0;
  uint64_t m = 0;
  int nd = 0;
  if (*q == '0') q++;
  else q = rli_digits(q, end, &m, &nd, 16);
  if (q >= end || rli_js_numch(*q) || nd > 15) return 0;
  *v = neg ? -(int64_t)m : (int64_t)m;
  p->pos += (size_t)(q - b);
  return 1;
}

/* A number at the cursor: its value; *isint (may be NULL) when a plain
 * integer. Validated against the JSON grammar; may be inf (callers
 * range-check what they use). The general case (json_scan.c) and, inline,
 * the commonest form (rli_js_dec). */
double rli_js_number_gen(rli_js *p, int *isint);

/* The commonest number, with 80 bytes of the window after its start (so
 * that rli_js_number_gen would not refill for it): -?D(.F)? with at most
 * 15 digits D (no leading zero) and 1 to 7 digits F, 2 or 3 words of 8
 * digits (rli_ndigits8, rli_parse8): its value in *v and 1, the cursor
 * past it; 0 with nothing consumed for anything else (an exponent, more
 * digits, near the window's end), which rli_js_number_gen then reads.
 * The same value as rli_js_number_gen: D + F <= 19 is checked, so its
 * cap of 19 digits is not reached and m holds all of them; an integer as
 * (double)(int64_t)m, a fraction as m / 10^f with m <= 2^53 (Clinger's
 * exact case). */
RLI_JS_INLINE int rli_js_dec(rli_js *p, double *v, int *isint) {
#if RLI_SWAR
  static const uint64_t p10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
  static const double f10[9] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
  const unsigned char *b = (const unsigned char *)p->buf + p->pos;
  if (p->len - p->pos < 80) return 0; /* where rli_js_number_gen would refill */
  int sg = b[0] == '-';
  const unsigned char *q = b + sg;
  uint64_t x = rli_load8(q) ^ 0x3030303030303030ull;
  int k = rli_ndigits8(x), nd;
  uint64_t m;
  if (k == 0 || ((x & 0xFF) == 0 && k > 1)) return 0; /* no digit, a leading zero */
  if (k < 8) {
    m = rli_parse8(x << (64 - 8 * k));
    nd = k;
  } else {
    uint64_t y = rli_load8(q + 8) ^ 0x3030303030303030ull;
    int k2 = rli_ndigits8(y);
    if (k2 == 8) return 0;
    m = rli_parse8(x);
    if (k2) m = m * p10[k2] + rli_parse8(y << (64 - 8 * k2));
    nd = 8 + k2;
  }
  q += nd;
  if (*q != '.') {
    if (rli_js_numch(*q)) return 0;
    *v = sg ? -(double)(int64_t)m : (double)(int64_t)m;
    if (isint) *isint = 1;
    p->pos += (size_t)(q - b);
    return 1;
  }
  uint64_t y = rli_load8(q + 1) ^ 0x3030303030303030ull;
  int f = rli_ndigits8(y);
  if (f == 0 || f == 8 || nd + f > 19 || rli_js_numch(q[1 + f])) return 0;
  m = m * p10[f] + rli_parse8(y << (64 - 8 * f));
  if (m > (1ull << 53)) return 0;
  double d = (double)m / f10[f];
  *v = sg ? -d : d;
  if (isint) *isint = 0;
  p->pos += (size_t)(q + 1 + f - b);
  return 1;
#else
  (void)p; (void)v; (void)isint;
  return 0;
#endif
}
static inline double rli_js_number(rli_js *p, int *isint) {
  double v;
  if (rli_js_dec(p, &v, isint)) return v;
  return rli_js_number_gen(p, isint);
}
/* A value at the cursor validated and skipped; depth: its nesting level
 * (more than 512 levels are refused). The general case (json_scan.c: a
 * validating skip over the window, else the recursive one) and, inline,
 * the commonest value skipped: a plain integer (an args "External id"). */
void rli_js_skip_value(rli_js *p, int depth);
RLI_JS_INLINE void rli_js_skip(rli_js *p, int depth) {
  int64_t v;
  if (depth <= 512) {
    int c = rli_js_ws(p);
    if (((c >= '0' && c <= '9') || c == '-') && rli_js_int(p, &v)) return;
  }
  rli_js_skip_value(p, depth);
}

#endif
