/*
 * util.c -- status texts, error messages, small string helpers and the
 * snprintf-style output buffer used by every text writer of the library.
 */
#define RLI_UTIL_C /* the real snprintf, vsnprintf, fprintf, strtod here */
#include "core/internal.h"

#include <locale.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *rl_version(void) { return RL_VERSION_STRING; }
int rl_version_number(void) { return RL_VERSION_NUMBER; }

const char *rl_strerror(rl_status status) {
  switch (status) {
  case RL_OK: return "ok";
  case RL_EINVAL: return "invalid argument";
  case RL_ENOTFOUND: return "not found";
  case RL_EAMBIGUOUS: return "ambiguous";
  case RL_EPARSE: return "malformed input";
  case RL_ERANGE: return "out of range";
  case RL_EUNSUPPORTED: return "not supported";
  case RL_ENOMEM: return "out of memory";
  case RL_EIO: return "I/O error";
  case RL_ETRUNCATED: return "truncated input";
  }
  return "unknown status";
}

void rl_free(void *p) { free(p); }

/* The C locale for the calling thread until c_end: newlocale of "C" is a
 * static object in glibc and musl (no allocation), freelocale of it a
 * no-op; uselocale changes only this thread's locale. */
typedef struct c_scope { locale_t c, old; } c_scope;
static c_scope c_begin(void) {
  c_scope s;
  s.c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  s.old = s.c ? uselocale(s.c) : (locale_t)0;
  return s;
}
static void c_end(c_scope s) {
  if (!s.c) return;
  uselocale(s.old);
  freelocale(s.c);
}

int rli_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap) {
  c_scope s = c_begin();
  int r = vsnprintf(buf, cap, fmt, ap);
  c_end(s);
  return r;
}

int rli_snprintf(char *buf, size_t cap, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = rli_vsnprintf(buf, cap, fmt, ap);
  va_end(ap);
  return r;
}

int rli_fprintf(FILE *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  c_scope s = c_begin();
  int r = vfprintf(f, fmt, ap);
  c_end(s);
  va_end(ap);
  return r;
}

double rli_strtod(const char *str, char **end) {
  c_scope s = c_begin();
  double v = strtod(str, end);
  c_end(s);
  return v;
}

rl_status rli_fail(rl_error *err, rl_status status, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    rli_vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    /* one line: fold any newline the arguments carried */
    for (char *p = err->msg; *p; p++)
      if (*p == '\n' || *p == '\r') *p = ' ';
  }
  return status;
}

int rli_positive(double x) { return isfinite(x) && x > 0; }

rl_status rli_check_size(double x, const char *what, rl_error *err) {
  if (isnan(x)) return rli_fail(err, RL_EINVAL, "%s is NaN", what);
  if (!isfinite(x)) return rli_fail(err, RL_EINVAL, "%s is infinite", what);
  if (x <= 0) return rli_fail(err, RL_EINVAL, "%s must be > 0 (got %g)", what, x);
  if (x >= 1e30)
    return rli_fail(err, RL_ERANGE, "%s is too large (got %g; at most 1e30)", what, x);
  return RL_OK;
}

/* the shortest %g form that reads back as x (1e+300, not 1.0000000000000001e+300;
 * 9007199254740993 in full) */
static void shortest_g(char *b, size_t cap, double x) {
  for (int p = 15; p <= 17; p++) {
    rli_snprintf(b, cap, "%.*g", p, x);
    if (rli_strtod(b, NULL) == x) return;
  }
}

rl_status rli_check_max(double x, double hi, const char *what, rl_error *err) {
  if (x > hi) {
    char a[32], b[32];
    shortest_g(a, sizeof a, x);
    shortest_g(b, sizeof b, hi);
    return rli_fail(err, RL_ERANGE, "%s is too large (got %s; at most %s)", what, a, b);
  }
  return RL_OK;
}

rl_status rli_check_finite(const double *v, size_t n, rl_error *err, const char *fmt, ...) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(v[i])) {
      if (err) {
        char inputs[sizeof err->msg];
        va_list ap;
        va_start(ap, fmt);
        rli_vsnprintf(inputs, sizeof inputs, fmt, ap);
        va_end(ap);
        rli_fail(err, RL_ERANGE, "the result is not finite (%s): an input is out of any physical range",
                 inputs);
      }
      return RL_ERANGE;
    }
  return RL_OK;
}

int rli_strcasecmp(const char *a, const char *b) {
  for (;; a++, b++) {
    int ca = tolower((unsigned char)*a), cb = tolower((unsigned char)*b);
    if (ca != cb || !ca) return ca - cb;
  }
}

int rli_strncasecmp(const char *a, const char *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    int ca = tolower((unsigned char)a[i]), cb = tolower((unsigned char)b[i]);
    if (ca != cb || !ca) return ca - cb;
  }
  return 0;
}

int rli_contains_ci(const char *hay, const char *needle) {
  size_t n = strlen(needle);
  for (const char *p = hay; *p; p++)
    if (rli_strncasecmp(p, needle, n) == 0) return 1;
  return 0;
}

int rli_edit_distance(const char *a, const char *b) {
  int la = (int)strlen(a), lb = (int)strlen(b);
  if (la > 63) la = 63;
  if (lb > 63) lb = 63;
  int prev[64], cur[64];
  for (int j = 0; j <= lb; j++) prev[j] = j;
  for (int i = 1; i <= la; i++) {
    cur[0] = i;
    for (int j = 1; j <= lb; j++) {
      int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
      int v = prev[j - 1] + cost;
      if (prev[j] + 1 < v) v = prev[j] + 1;
      if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;
      cur[j] = v;
    }
    memcpy(prev, cur, sizeof(int) * (size_t)(lb + 1));
  }
  return prev[lb];
}

void rli_nearest_init(rli_nearest *n) {
  for (int k = 0; k < 3; k++) {
    n->idx[k] = -1;
    n->dist[k] = 1 << 30;
  }
}

void rli_nearest_add(rli_nearest *n, int32_t index, int dist) {
  for (int k = 0; k < 3; k++)
    if (dist < n->dist[k]) {
      for (int m = 2; m > k; m--) {
        n->dist[m] = n->dist[m - 1];
        n->idx[m] = n->idx[m - 1];
      }
      n->dist[k] = dist;
      n->idx[k] = index;
      return;
    }
}

void rli_strlcpy(char *dst, const char *src, size_t cap) {
  size_t n = strlen(src);
  if (n >= cap) n = cap - 1;
  memcpy(dst, src, n);
  dst[n] = 0;
}

void rli_out_init(rli_out *o, char *buf, size_t cap) {
  o->buf = buf;
  o->cap = buf ? cap : 0;
  o->len = 0;
  if (o->cap) o->buf[0] = 0;
}

static void out_write(rli_out *o, const char *s, size_t n) {
  if (o->len + 1 < o->cap) {
    size_t room = o->cap - 1 - o->len;
    memcpy(o->buf + o->len, s, n < room ? n : room);
  }
  o->len += n;
}

void rli_out_puts(rli_out *o, const char *s) { out_write(o, s, strlen(s)); }

void rli_out_printf(rli_out *o, const char *fmt, ...) {
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int n = rli_vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof small) {
    out_write(o, small, (size_t)n);
    return;
  }
  char *big = malloc((size_t)n + 1);
  if (!big) return;
  va_start(ap, fmt);
  rli_vsnprintf(big, (size_t)n + 1, fmt, ap);
  va_end(ap);
  out_write(o, big, (size_t)n);
  free(big);
}

void rli_out_num(rli_out *o, double v) {
  if (!isfinite(v)) {
    rli_out_puts(o, "null");
    return;
  }
  if (v == 0) v = 0; /* no "-0" */
  /* Whole numbers that a double holds exactly (counts, bytes, parameters)
   * are printed in full: 16060522496, not 1.60605225e+10. Anything else
   * with the fewest digits that read back to the same double (15 to 17
   * significant digits), so that measured figures keep full precision. */
  if (v == floor(v) && fabs(v) <= 9007199254740992.0) {
    rli_out_printf(o, "%.0f", v);
    return;
  }
  char b[40];
  for (int prec = 15; prec <= 17; prec++) {
    rli_snprintf(b, sizeof b, "%.*g", prec, v);
    if (prec == 17 || rli_strtod(b, NULL) == v) break;
  }
  rli_out_puts(o, b);
}

/* RFC 3629, section 3 (and its table of valid sequences, section 4): no
 * overlong forms, no surrogates, nothing past U+10FFFF. */
size_t rl_utf8_seq(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  if (!p) return 0;
  if (p[0] < 0x80) return 1;
  size_t n = (p[0] & 0xE0) == 0xC0 ? 2 : (p[0] & 0xF0) == 0xE0 ? 3 : (p[0] & 0xF8) == 0xF0 ? 4 : 0;
  if (!n) return 0;
  unsigned cp = p[0] & (n == 2 ? 0x1Fu : n == 3 ? 0x0Fu : 0x07u);
  for (size_t i = 1; i < n; i++) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[i] & 0x3Fu);
  }
  unsigned min = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
  return cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ? 0 : n;
}

void rli_out_str(rli_out *o, const char *s) {
  rli_out_puts(o, "\"");
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    char esc[8];
    switch (*p) {
    case '"': rli_out_puts(o, "\\\""); break;
    case '\\': rli_out_puts(o, "\\\\"); break;
    case '\n': rli_out_puts(o, "\\n"); break;
    case '\t': rli_out_puts(o, "\\t"); break;
    case '\r': rli_out_puts(o, "\\r"); break;
    case '<': case '>': case '&': case '\'':
      rli_snprintf(esc, sizeof esc, "\\u%04x", *p);
      rli_out_puts(o, esc);
      break;
    default:
      if (*p < 0x20 || *p == 0x7f) {
        rli_snprintf(esc, sizeof esc, "\\u%04x", *p);
        rli_out_puts(o, esc);
      } else if (*p < 0x80) {
        out_write(o, (const char *)p, 1);
      } else {
        /* JSON is UTF-8 (RFC 8259 section 8.1): a byte that starts no
         * valid sequence (a name from a trace or the command line) is
         * U+FFFD, the replacement character */
        size_t n = rl_utf8_seq((const char *)p);
        if (n) {
          out_write(o, (const char *)p, n);
          p += n - 1;
        } else {
          rli_out_puts(o, "\\ufffd");
        }
      }
    }
  }
  rli_out_puts(o, "\"");
}

size_t rli_out_end(rli_out *o) {
  if (o->cap) o->buf[o->len < o->cap ? o->len : o->cap - 1] = 0;
  return o->len;
}

size_t rl_json_string(const char *s, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  rli_out_str(&o, s ? s : "");
  return rli_out_end(&o);
}

size_t rl_json_number(double v, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  rli_out_num(&o, v);
  return rli_out_end(&o);
}

rl_status rli_name_parse(const char *const *names, int32_t n, const char *name,
                         int32_t *out, rl_error *err) {
  if (!name || !*name) return rli_fail(err, RL_EINVAL, "empty name");
  for (int32_t i = 0; i < n; i++)
    if (rli_strcasecmp(name, names[i]) == 0) { *out = i; return RL_OK; }
  char list[RL_ERROR_MSG_MAX];
  rli_out o;
  rli_out_init(&o, list, sizeof list);
  for (int32_t i = 0; i < n; i++)
    rli_out_printf(&o, "%s%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
  rli_out_end(&o);
  return rli_fail(err, RL_EINVAL, "'%s' is not %s", name, list);
}

static void msort(uint32_t *v, uint32_t *tmp, size_t n, rli_idx_cmp cmp, const void *ctx) {
  if (n < 16) { /* insertion sort */
    for (size_t i = 1; i < n; i++) {
      uint32_t x = v[i];
      size_t j = i;
      while (j > 0 && cmp(ctx, v[j - 1], x) > 0) { v[j] = v[j - 1]; j--; }
      v[j] = x;
    }
    return;
  }
  size_t h = n / 2;
  msort(v, tmp, h, cmp, ctx);
  msort(v + h, tmp, n - h, cmp, ctx);
  if (cmp(ctx, v[h - 1], v[h]) <= 0) return; /* in order already */
  memcpy(tmp, v, h * sizeof *v);
  size_t a = 0, b = h, w = 0;
  while (a < h && b < n) v[w++] = cmp(ctx, v[b], tmp[a]) < 0 ? v[b++] : tmp[a++];
  while (a < h) v[w++] = tmp[a++];
}

int rli_sort_idx(uint32_t *v, size_t n, rli_idx_cmp cmp, const void *ctx) {
  if (n < 2) return 1;
  uint32_t *tmp = malloc(sizeof *tmp * (n / 2 + 1));
  if (!tmp) return 0;
  msort(v, tmp, n, cmp, ctx);
  free(tmp);
  return 1;
}

int rli_grow(void **p, size_t elem, size_t need, size_t *cap) {
  if (need <= *cap) return 1;
  if (elem == 0) return 0;
  size_t nc = *cap ? *cap : 4;
  while (nc < need) {
    if (nc > SIZE_MAX / 2) return 0;
    nc *= 2;
  }
  if (nc > SIZE_MAX / elem) return 0;
  void *q = realloc(*p, nc * elem);
  if (!q) return 0;
  *p = q;
  *cap = nc;
  return 1;
}

uint64_t rli_hash(const void *p, size_t n) {
  const char *s = p;
  uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  uint64_t w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* the word memcpy(&w, s + i, n - i) makes, without a call to memcpy
   * for its 0 to 7 bytes: two overlapping 4-byte loads, or the first,
   * middle and last bytes (the overlaps hold the same bytes) */
  const unsigned char *t = (const unsigned char *)s + i;
  size_t r = n - i;
  if (r >= 4) {
    uint32_t a, b;
    memcpy(&a, t, 4);
    memcpy(&b, t + r - 4, 4);
    w = a | (uint64_t)b << (8 * (r - 4));
  } else if (r) {
    w = t[0] | (uint64_t)t[r / 2] << (8 * (r / 2)) | (uint64_t)t[r - 1] << (8 * (r - 1));
  }
#else
  memcpy(&w, s + i, n - i);
#endif
  h ^= w;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}
