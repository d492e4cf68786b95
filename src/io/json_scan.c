/*
 * json_scan.c -- the general cases of the streaming JSON tokenizer
 * (json_scan.h, which holds the fast paths and the contract): the window's
 * refills, blanks across them, strings with escapes or across a refill,
 * numbers the fast path does not take (exponents, 19+ digits, malformed),
 * literals and skipping whole values.
 */
#include "io/json_scan.h"

#include <stdio.h>
#include <stdlib.h>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__) && defined(__SSE2__)
#include <immintrin.h>
#define RLI_X86 1
#else
#define RLI_X86 0
#endif

#define MAX_DEPTH 512

#if RLI_X86
/* The string scan, 32 bytes at a time (compiled for AVX2 whatever the
 * build's -march; called only where the CPU has it). */
__attribute__((target("avx2"))) static size_t scan_str_avx2(const char *b, size_t i, size_t n) {
  const __m256i q = _mm256_set1_epi8('"'), bs = _mm256_set1_epi8('\\'), ctl = _mm256_set1_epi8(0x1f);
  while (i + 32 <= n) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(b + i));
    __m256i m = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(v, q), _mm256_cmpeq_epi8(v, bs)),
                                _mm256_cmpeq_epi8(_mm256_min_epu8(v, ctl), v));
    unsigned mask = (unsigned)_mm256_movemask_epi8(m);
    if (mask) return i + (size_t)__builtin_ctz(mask);
    i += 32;
  }
  return i;
}
#endif

/* The rest of a string past its first 16 bytes (json_scan.h): AVX2 where
 * __builtin_cpu_supports says the CPU has it, then SSE2, then bytes. */
size_t rli_js_scan_str_rest(const char *b, size_t i, size_t n) {
#if RLI_X86
  if (__builtin_cpu_supports("avx2")) i = scan_str_avx2(b, i, n);
#endif
#ifdef __SSE2__
  while (i + 16 <= n) {
    unsigned mask = rli_js_str_mask16(b + i);
    if (mask) return i + (size_t)__builtin_ctz(mask);
    i += 16;
  }
#endif
  return rli_js_scan_str_bytes(b, i, n);
}

void rli_js_fail(rli_js *p, rl_status st, uint64_t at, const char *what) {
  if (st == RL_ENOMEM)
    rli_fail(p->err, st, "%s: out of memory", p->src->label);
  else
    rli_fail(p->err, st, "%s: byte %llu%s: %s", p->src->label, (unsigned long long)at,
             p->src->gz ? " of the inflated text" : "", what);
  p->st = st;
  longjmp(p->jb, 1);
}

/* The bytes of the next block copied after a cut token at a time (the
 * longest read ahead of the cursor, rli_js_ensure's, is 80). */
#define STITCH 4096u

static void own_room(rli_js *p, size_t n) {
  if (n > p->owncap && !rli_grow((void **)&p->own, 1, n, &p->owncap))
    rli_js_fail(p, RL_ENOMEM, rli_js_here(p), "");
}

/* More text in the window: the next block where the cursor is at the
 * window's end (the block itself), else the unread bytes and the next
 * block's first ones in own; from own to the block once the cursor is
 * past the bytes before it. */
static void refill(rli_js *p) {
  if (p->eof) return;
  if (p->stitched) {
    if (p->pos >= p->tail) {
      /* the cursor is in blk: window it where it is */
      size_t off = p->pos - p->tail;
      p->base += p->tail;
      p->buf = p->blk;
      p->pos = off;
      p->len = p->blkn;
      p->stitched = 0;
      if (p->boff < p->blkn) return;
    } else if (p->boff < p->blkn) {
      /* a token still in the bytes before it wants more of blk */
      size_t m = p->blkn - p->boff, most = p->boff > STITCH ? p->boff : STITCH;
      if (m > most) m = most;
      own_room(p, p->len + m);
      memcpy(p->own + p->len, p->blk + p->boff, m);
      p->buf = p->own;
      p->len += m;
      p->boff += m;
      return;
    }
  }
  /* the next block: the unread bytes first go to own (the block they lie
   * in is handed back) */
  size_t t = p->len - p->pos;
  own_room(p, t + STITCH);
  if (t) memmove(p->own, p->buf + p->pos, t);
  p->base += p->pos;
  p->pos = 0;
  p->buf = p->own;
  p->len = t;
  p->stitched = 0;
  p->blk = NULL;
  const char *b = NULL;
  long r = rli_src_block(p->src, &b, p->err);
  if (r < 0) {
    p->st = strstr(p->err->msg, "truncated") ? RL_ETRUNCATED : RL_EPARSE;
    longjmp(p->jb, 1);
  }
  if (r == 0) {
    p->eof = 1;
    return;
  }
  p->blk = b;
  p->blkn = (size_t)r;
  if (t == 0) {
    p->buf = b;
    p->len = (size_t)r;
    return;
  }
  size_t m = (size_t)r < STITCH ? (size_t)r : STITCH;
  memcpy(p->own + t, b, m);
  p->len = t + m;
  p->tail = t;
  p->boff = m;
  p->stitched = 1;
}

/* next non-blank byte without consuming it; -1 at the end. A run of
 * blanks is capped like a string (an inflated gzip stream of nothing but
 * spaces is cut off there, not read to its end). */
int rli_js_ws_slow(rli_js *p) {
  uint64_t start = rli_js_here(p);
  for (;;) {
    if (rli_js_here(p) - start > ((uint64_t)64 << 20))
      rli_js_fail(p, RL_EPARSE, rli_js_here(p), "more than 64 MiB of blanks between two tokens: not a profiler trace");
    while (p->pos < p->len) {
      unsigned char c = (unsigned char)p->buf[p->pos];
      if (c > ' ') return c;
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
        rli_js_fail(p, RL_EPARSE, rli_js_here(p), "control character outside a string");
      p->pos++;
    }
    if (p->eof) return -1;
    refill(p);
  }
}

void rli_js_expect_fail(rli_js *p, int c, const char *what) {
  int g = rli_js_ws(p);
  if (g == c) return; /* not reached: the caller saw another byte */
  char m[96];
  if (g < 0) snprintf(m, sizeof m, "the text ends where %s was expected (truncated file?)", what);
  else snprintf(m, sizeof m, "expected %s, found '%c'", what, g >= 32 && g < 127 ? g : '?');
  rli_js_fail(p, g < 0 ? RL_ETRUNCATED : RL_EPARSE, rli_js_here(p), m);
}

void rli_js_ensure(rli_js *p, size_t n) {
  while (p->len - p->pos < n && !p->eof) refill(p);
}

static void sb_put(rli_js *p, const char *s, size_t n) {
  if (p->slen + n + 1 > ((size_t)64 << 20)) rli_js_fail(p, RL_EPARSE, rli_js_here(p), "a string longer than 64 MiB");
  if (!rli_grow((void **)&p->sb, 1, p->slen + n + 1, &p->scap)) rli_js_fail(p, RL_ENOMEM, rli_js_here(p), "");
  memcpy(p->sb + p->slen, s, n);
  p->slen += n;
}

static int hexv(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* The general case, after the opening quote: escapes, control bytes, a
 * string across a refill. keep: unescape into p->sb (slen). start: where
 * the string began, for messages. */
void rli_js_string_slow(rli_js *p, uint64_t start, int keep) {
  if (keep) p->slen = 0;
  for (;;) {
    const char *b = p->buf;
    size_t n = p->len;
    size_t i = rli_js_scan_str(b, p->pos, n);
    if (keep && i > p->pos) sb_put(p, b + p->pos, i - p->pos);
    p->pos = i;
    if (i == n) {
      if (p->eof) rli_js_fail(p, RL_ETRUNCATED, start, "a string is not closed (truncated file?)");
      refill(p);
      continue;
    }
    unsigned char c = (unsigned char)b[i];
    if (c == '"') {
      p->pos++;
      break;
    }
    if (c < 0x20) rli_js_fail(p, RL_EPARSE, rli_js_here(p), "control character inside a string");
    rli_js_ensure(p, 2);
    if (p->len - p->pos < 2) rli_js_fail(p, RL_ETRUNCATED, start, "a string is not closed (truncated file?)");
    char e = p->buf[p->pos + 1];
    char out[4];
    size_t on = 1;
    switch (e) {
    case '"': out[0] = '"'; break;
    case '\\': out[0] = '\\'; break;
    case '/': out[0] = '/'; break;
    case 'b': out[0] = '\b'; break;
    case 'f': out[0] = '\f'; break;
    case 'n': out[0] = '\n'; break;
    case 'r': out[0] = '\r'; break;
    case 't': out[0] = '\t'; break;
    case 'u': {
      rli_js_ensure(p, 6);
      if (p->len - p->pos < 6) rli_js_fail(p, RL_ETRUNCATED, start, "a string is not closed");
      unsigned v = 0;
      for (int k = 2; k < 6; k++) {
        int h = hexv((unsigned char)p->buf[p->pos + (size_t)k]);
        if (h < 0) rli_js_fail(p, RL_EPARSE, rli_js_here(p), "bad \\u escape");
        v = v * 16 + (unsigned)h;
      }
      p->pos += 4; /* + 2 below */
      if (v >= 0xD800 && v < 0xE000) v = '?'; /* surrogates: not paired here */
      if (v < 0x80) { out[0] = (char)v; }
      else if (v < 0x800) { out[0] = (char)(0xC0 | (v >> 6)); out[1] = (char)(0x80 | (v & 63)); on = 2; }
      else { out[0] = (char)(0xE0 | (v >> 12)); out[1] = (char)(0x80 | ((v >> 6) & 63)); out[2] = (char)(0x80 | (v & 63)); on = 3; }
      break;
    }
    default: rli_js_fail(p, RL_EPARSE, rli_js_here(p), "bad escape in a string");
    }
    p->pos += 2;
    if (keep) sb_put(p, out, on);
  }
  if (keep) {
    sb_put(p, "", 1);
    p->slen--;
  }
}

/* A number at the cursor, the general case: its value; *isint when a
 * plain integer. */
static double number_slow(rli_js *p, int *isint) {
  uint64_t start = rli_js_here(p);
  char tok[72];
  size_t n = 0;
  for (;;) {
    while (p->pos < p->len) {
      char c = p->buf[p->pos];
      if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
        if (n >= sizeof tok - 1) rli_js_fail(p, RL_EPARSE, start, "a number of more than 70 characters");
        tok[n++] = c;
        p->pos++;
      } else {
        goto done;
      }
    }
    if (p->eof) break;
    refill(p);
  }
done:
  tok[n] = 0;
  /* JSON grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
  size_t i = 0;
  int ok = 1, integer = 1;
  if (tok[i] == '-') i++;
  if (tok[i] == '0') i++;
  else if (tok[i] >= '1' && tok[i] <= '9') while (tok[i] >= '0' && tok[i] <= '9') i++;
  else ok = 0;
  if (ok && tok[i] == '.') {
    integer = 0;
    i++;
    if (!(tok[i] >= '0' && tok[i] <= '9')) ok = 0;
    while (tok[i] >= '0' && tok[i] <= '9') i++;
  }
  if (ok && (tok[i] == 'e' || tok[i] == 'E')) {
    integer = 0;
    i++;
    if (tok[i] == '+' || tok[i] == '-') i++;
    if (!(tok[i] >= '0' && tok[i] <= '9')) ok = 0;
    while (tok[i] >= '0' && tok[i] <= '9') i++;
  }
  if (!ok || i != n || n == 0) {
    if (n == 0 && p->pos >= p->len && p->eof) rli_js_fail(p, RL_ETRUNCATED, start, "the text ends where a value was expected (truncated file?)");
    rli_js_fail(p, RL_EPARSE, start, n ? "malformed number" : "expected a value");
  }
  if (isint) *isint = integer;
  /* exact fast path: at most 15 digits and no exponent -> m / 10^f, both
   * exact doubles, so the division is correctly rounded like strtod */
  if (!integer && n <= 17 && !memchr(tok, 'e', n) && !memchr(tok, 'E', n)) {
    int64_t m = 0;
    int f = 0, digits = 0, seen_dot = 0;
    for (size_t j = tok[0] == '-'; j < n; j++) {
      if (tok[j] == '.') { seen_dot = 1; continue; }
      m = m * 10 + (tok[j] - '0');
      digits++;
      f += seen_dot;
    }
    if (digits <= 15) {
      static const double p10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
                                   1e11, 1e12, 1e13, 1e14, 1e15, 1e16};
      double v = (double)m / p10[f];
      return tok[0] == '-' ? -v : v;
    }
  }
  if (integer && n <= 18) {
    int64_t v = 0;
    size_t j = tok[0] == '-';
    for (; j < n; j++) v = v * 10 + (tok[j] - '0');
    return tok[0] == '-' ? -(double)v : (double)v;
  }
  return strtod(tok, NULL); /* may be inf: callers range-check what they use */
}

/* A number at the cursor: its value; *isint when a plain integer. The
 * usual -?digits(.digits)? in the buffer is read in place: an integer of
 * at most 18 digits converts exactly; m / 10^f with m <= 2^53 and f <= 22
 * is two exact doubles divided, correctly rounded like strtod (Clinger's
 * fast path). Anything else goes the general way. */
double rli_js_number_gen(rli_js *p, int *isint) {
  static const double p10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (p->len - p->pos < 80) rli_js_ensure(p, 80);
  const unsigned char *b = (const unsigned char *)p->buf + p->pos;
  const unsigned char *end = (const unsigned char *)p->buf + p->len;
  const unsigned char *q = b;
  int neg = 0;
  if (q < end && *q == '-') { neg = 1; q++; }
  if (q >= end || *q < '0' || *q > '9') return number_slow(p, isint);
  uint64_t m = 0;
  int nd = 0, f = 0;
  if (*q == '0') {
    q++;
    nd = 1;
  } else {
    q = rli_digits(q, end, &m, &nd, 19);
  }
  int integer = 1;
  if (q < end && *q == '.') {
    integer = 0;
    q++;
    const unsigned char *f0 = q;
    q = rli_digits(q, end, &m, &nd, 19);
    f = (int)(q - f0);
    if (f == 0) return number_slow(p, isint);
  }
  if (q < end && rli_js_numch(*q)) return number_slow(p, isint); /* exponent, 20+ digits, bad */
  double v;
  if (integer) {
    if (nd > 18) return number_slow(p, isint);
    v = (double)(int64_t)m;
  } else {
    if (m > (1ull << 53) || f > 22) return number_slow(p, isint);
    v = (double)m / p10[f];
  }
  if (isint) *isint = integer;
  p->pos += (size_t)(q - b);
  return neg ? -v : v;
}

static void literal(rli_js *p) {
  uint64_t start = rli_js_here(p);
  rli_js_ensure(p, 5);
  const char *b = p->buf + p->pos;
  size_t left = p->len - p->pos;
  if (RLI_PREFIX(b, left, "true") || RLI_PREFIX(b, left, "null")) { p->pos += RLI_LEN("true"); return; }
  if (RLI_PREFIX(b, left, "false")) { p->pos += RLI_LEN("false"); return; }
  if (left < 5 && p->eof) rli_js_fail(p, RL_ETRUNCATED, start, "the text ends inside a value (truncated file?)");
  rli_js_fail(p, RL_EPARSE, start, "expected a value (a string, number, object, array, true, false or null)");
}

static void skip_object(rli_js *p, int depth);
static void skip_array(rli_js *p, int depth);

static void skip_object(rli_js *p, int depth) {
  rli_js_expect(p, '{', "'{'");
  if (rli_js_ws(p) == '}') { p->pos++; return; }
  for (;;) {
    rli_js_string_skip(p);
    rli_js_expect(p, ':', "':' after a key");
    rli_js_skip(p, depth + 1);
    int c = rli_js_ws(p);
    if (c == ',') { p->pos++; continue; }
    if (c == '}') { p->pos++; return; }
    rli_js_expect(p, '}', "',' or '}' in an object");
  }
}

static void skip_array(rli_js *p, int depth) {
  rli_js_expect(p, '[', "'['");
  if (rli_js_ws(p) == ']') { p->pos++; return; }
  for (;;) {
    rli_js_skip(p, depth + 1);
    int c = rli_js_ws(p);
    if (c == ',') { p->pos++; continue; }
    if (c == ']') { p->pos++; return; }
    rli_js_expect(p, ']', "',' or ']' in an array");
  }
}

/* The fast skip: a value that lies whole in the window, validated against
 * the JSON grammar as the recursive skip below would validate it, without
 * converting its numbers or copying its strings, nesting kept in a 64-bit
 * stack instead of the C stack. On anything it does not accept (an error,
 * the window's end, more than 64 levels, a number of more than 64
 * characters) it returns 0 having consumed nothing, and the recursive skip
 * reads the value again from its start: that one says what is wrong, so
 * the messages and offsets are those of the reader before it. */

static inline size_t blanks(const unsigned char *b, size_t i, size_t n) {
  while (i < n && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) i++;
  return i;
}

/* b[i] starts a string's text (after its quote): the index past its
 * closing quote, 0 when not whole in [i, n) or invalid */
static inline size_t fast_string(const unsigned char *b, size_t i, size_t n) {
  for (;;) {
    i = rli_js_scan_str((const char *)b, i, n);
    if (i >= n) return 0;
    unsigned char c = b[i];
    if (c == '"') return i + 1;
    if (c < 0x20 || i + 1 >= n) return 0;
    c = b[i + 1];
    if (c == 'u') {
      if (i + 6 > n) return 0;
      for (size_t k = i + 2; k < i + 6; k++) {
        unsigned char h = b[k];
        if (!((h >= '0' && h <= '9') || ((h | 0x20) >= 'a' && (h | 0x20) <= 'f'))) return 0;
      }
      i += 6;
    } else if (c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' || c == 'r' || c == 't') {
      i += 2;
    } else {
      return 0;
    }
  }
}

static inline size_t digits(const unsigned char *b, size_t i, size_t n) {
#if RLI_SWAR
  while (n - i >= 8 && rli_is8digits(rli_load8(b + i))) i += 8;
#endif
  while (i < n && b[i] >= '0' && b[i] <= '9') i++;
  return i;
}

/* a number at b[i]: the index past it, 0 when it is not whole in the
 * window, breaks the grammar or is longer than 64 characters */
static inline size_t fast_number(const unsigned char *b, size_t i, size_t n) {
  size_t s = i;
  if (b[i] == '-') i++;
  if (i >= n) return 0;
  if (b[i] == '0') i++;
  else if (b[i] >= '1' && b[i] <= '9') i = digits(b, i + 1, n);
  else return 0;
  if (i < n && b[i] == '.') {
    size_t f = ++i;
    i = digits(b, i, n);
    if (i == f) return 0;
  }
  if (i < n && (b[i] == 'e' || b[i] == 'E')) {
    i++;
    if (i < n && (b[i] == '+' || b[i] == '-')) i++;
    size_t e = i;
    i = digits(b, i, n);
    if (i == e) return 0;
  }
  if (i >= n || rli_js_numch(b[i]) || i - s > 64) return 0;
  return i;
}

static int skip_fast(rli_js *p, int depth) {
  const unsigned char *b = (const unsigned char *)p->buf;
  size_t i = p->pos, n = p->len;
  uint64_t obj = 0; /* bit l: the container at level l + 1 is an object */
  int lv = 0;       /* containers open */
  unsigned char c;
value:
  i = blanks(b, i, n);
  if (i >= n) return 0;
  c = b[i];
  if (c == '"') {
    if (!(i = fast_string(b, i + 1, n))) return 0;
  } else if (c == '{' || c == '[') {
    if (lv >= 63 || depth + lv + 1 > MAX_DEPTH) return 0;
    obj = (obj & ~(1ull << lv)) | ((uint64_t)(c == '{') << lv);
    lv++;
    i = blanks(b, i + 1, n);
    if (i >= n) return 0;
    if (b[i] == (c == '{' ? '}' : ']')) {
      i++;
      lv--;
      goto after;
    }
    if (c == '{') goto key;
    goto value;
  } else if (c == '-' || (c >= '0' && c <= '9')) {
    if (!(i = fast_number(b, i, n))) return 0;
  } else if (c == 't' || c == 'n' || c == 'f') {
    if (n - i >= 5 && (RLI_PREFIX((const char *)b + i, n - i, "true") || RLI_PREFIX((const char *)b + i, n - i, "null"))) i += 4;
    else if (n - i >= 5 && RLI_PREFIX((const char *)b + i, n - i, "false")) i += 5;
    else return 0;
  } else {
    return 0;
  }
after:
  if (lv == 0) {
    p->pos = i;
    return 1;
  }
  i = blanks(b, i, n);
  if (i >= n) return 0;
  c = b[i++];
  if (c == ',') {
    if (obj >> (lv - 1) & 1) goto key;
    goto value;
  }
  if (c != ((obj >> (lv - 1) & 1) ? '}' : ']')) return 0;
  lv--;
  goto after;
key:
  i = blanks(b, i, n);
  if (i >= n || b[i] != '"') return 0;
  if (!(i = fast_string(b, i + 1, n))) return 0;
  i = blanks(b, i, n);
  if (i >= n || b[i] != ':') return 0;
  i++;
  goto value;
}

void rli_js_skip_value(rli_js *p, int depth) {
  if (depth > MAX_DEPTH) rli_js_fail(p, RL_EPARSE, rli_js_here(p), "nesting deeper than 512 levels");
  /* the window is not refilled for it (a refill may hand over the
   * source's error earlier than the reader met it before): the one value
   * a window cuts goes the recursive way */
  if (skip_fast(p, depth)) return;
  int c = rli_js_ws(p);
  if (c == '"') rli_js_string_skip(p);
  else if (c == '{') skip_object(p, depth);
  else if (c == '[') skip_array(p, depth);
  else if (c == 't' || c == 'f' || c == 'n') literal(p);
  else if (c < 0) rli_js_fail(p, RL_ETRUNCATED, rli_js_here(p), "the text ends where a value was expected (truncated file?)");
  else rli_js_number(p, NULL);
}

int rli_js_open(rli_js *p, rli_src *src, rl_error *err) {
  p->src = src;
  p->err = err;
  p->owncap = 2 * STITCH;
  p->own = malloc(p->owncap);
  p->buf = p->own;
  p->pos = p->len = 0;
  p->stitched = 0;
  p->blk = NULL;
  return p->own != NULL;
}

void rli_js_close(rli_js *p) {
  free(p->sb);
  free(p->own);
  p->sb = p->own = NULL;
  p->buf = NULL;
}
