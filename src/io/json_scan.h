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
 * them), pos the cursor.
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

typedef struct rli_js {
  rli_src *src;
  rl_error *err;
  jmp_buf jb;
  rl_status st;
  char *buf;
  size_t cap, pos, len;
  uint64_t base; /* text offset of buf[0] */
  int eof;
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

/* the first '"', '\\' or control byte in b[i, n), or n */
static inline size_t rli_js_scan_str(const char *b, size_t i, size_t n) {
#ifdef __SSE2__
  const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'), ctl = _mm_set1_epi8(0x1f);
  while (i + 16 <= n) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, bs)),
                             _mm_cmpeq_epi8(_mm_min_epu8(v, ctl), v));
    unsigned mask = (unsigned)_mm_movemask_epi8(m);
    if (mask) return i + (size_t)__builtin_ctz(mask);
    i += 16;
  }
#endif
  while (i < n) {
    unsigned char c = (unsigned char)b[i];
    if (c == '"' || c == '\\' || c < 0x20) break;
    i++;
  }
  return i;
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
static inline rli_sv rli_js_string(rli_js *p) {
  uint64_t start = rli_js_here(p);
  rli_js_expect(p, '"', "a string");
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

/* A number at the cursor: its value; *isint (may be NULL) when a plain
 * integer. Validated against the JSON grammar; may be inf (callers
 * range-check what they use). */
double rli_js_number(rli_js *p, int *isint);
/* A value at the cursor validated and skipped; depth: its nesting level
 * (more than 512 levels are refused). */
void rli_js_skip(rli_js *p, int depth);

#endif
