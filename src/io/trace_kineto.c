/*
 * trace_kineto.c -- a streaming reader of PyTorch profiler (Kineto) Chrome
 * traces: one pass over the text, no document tree.
 *
 * Format (shared/docs/trace-formats.md section 1; the Chrome trace-event
 * format): a top-level object with "traceEvents" (or a bare array of
 * events), "deviceProperties" and metadata on either side of it; `ts` and
 * `dur` in microseconds whatever "displayTimeUnit" says. Categories of
 * every era are accepted: kernel/Kernel, cpu_op/Operator/user_annotation,
 * cuda_runtime/Runtime/cuda_driver, cuda_profiler_range. Everything else
 * (python_function, flows, memory events, ...) is validated and skipped as
 * it streams past.
 *
 * Linking a kernel to its op (trace-formats.md 1.10, HTA's algorithm):
 * kernel.args.correlation -> the cuda_runtime/cuda_driver launch event with
 * the same correlation -> the innermost cpu_op (or user_annotation) on the
 * launch's pid/tid whose interval contains the launch. "External id" is not
 * used: in 2023-era traces it equals the correlation and names no op.
 *
 * Memory: per CPU op 32 bytes and per launch call 32 bytes are kept until
 * the end (Kineto writes every CPU op before the GPU activity, so linking
 * needs them), per kernel 48 bytes; names and costs are interned.
 *
 * CUPTI range-profiler events carry SASS counters, not kernel times; F per
 * Nsight Compute's roofline weights: dadd + dmul + 2 dfma, fadd + fmul +
 * 2 ffma, 2 hadd + 2 hmul + 4 hfma (packed half2; trace-formats.md 2.6).
 */
#include "io/trace_io.h"

#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#define BUFCAP (1u << 20)
#define MAX_DEPTH 512

typedef struct jp {
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
} jp;

static void jfail(jp *p, rl_status st, uint64_t at, const char *what) {
  if (st == RL_ENOMEM)
    rli_fail(p->err, st, "%s: out of memory", p->src->label);
  else
    rli_fail(p->err, st, "%s: byte %llu%s: %s", p->src->label, (unsigned long long)at,
             p->src->gz ? " of the inflated text" : "", what);
  p->st = st;
  longjmp(p->jb, 1);
}

static uint64_t here(const jp *p) { return p->base + p->pos; }

static void refill(jp *p) {
  if (p->eof) return;
  if (p->pos > 0) {
    memmove(p->buf, p->buf + p->pos, p->len - p->pos);
    p->base += p->pos;
    p->len -= p->pos;
    p->pos = 0;
  }
  if (p->len == p->cap) {
    char *nb = realloc(p->buf, p->cap * 2);
    if (!nb) jfail(p, RL_ENOMEM, here(p), "");
    p->buf = nb;
    p->cap *= 2;
  }
  long r = rli_src_read(p->src, p->buf + p->len, p->cap - p->len, p->err);
  if (r < 0) {
    p->st = strstr(p->err->msg, "truncated") ? RL_ETRUNCATED : RL_EPARSE;
    longjmp(p->jb, 1);
  }
  if (r == 0) p->eof = 1;
  p->len += (size_t)r;
}

/* next non-blank byte without consuming it; -1 at the end */
static inline int ws(jp *p) {
  for (;;) {
    while (p->pos < p->len) {
      unsigned char c = (unsigned char)p->buf[p->pos];
      if (c > ' ') return c;
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
        jfail(p, RL_EPARSE, here(p), "control character outside a string");
      p->pos++;
    }
    if (p->eof) return -1;
    refill(p);
  }
}

static void expect(jp *p, int c, const char *what) {
  int g = ws(p);
  if (g != c) {
    char m[96];
    if (g < 0) snprintf(m, sizeof m, "the text ends where %s was expected (truncated file?)", what);
    else snprintf(m, sizeof m, "expected %s, found '%c'", what, g >= 32 && g < 127 ? g : '?');
    jfail(p, g < 0 ? RL_ETRUNCATED : RL_EPARSE, here(p), m);
  }
  p->pos++;
}

static void ensure(jp *p, size_t n) {
  while (p->len - p->pos < n && !p->eof) refill(p);
}

static void sb_put(jp *p, const char *s, size_t n) {
  if (p->slen + n + 1 > p->scap) {
    size_t nc = p->scap ? p->scap : 256;
    while (nc < p->slen + n + 1) nc *= 2;
    if (nc > ((size_t)64 << 20)) jfail(p, RL_EPARSE, here(p), "a string longer than 64 MiB");
    char *q = realloc(p->sb, nc);
    if (!q) jfail(p, RL_ENOMEM, here(p), "");
    p->sb = q;
    p->scap = nc;
  }
  memcpy(p->sb + p->slen, s, n);
  p->slen += n;
}

static int hexv(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* A string at the cursor (after ws). keep: unescape into p->sb (slen). */
static void string(jp *p, int keep) {
  uint64_t start = here(p);
  expect(p, '"', "a string");
  if (keep) p->slen = 0;
  for (;;) {
    size_t i = p->pos;
    const char *b = p->buf;
    size_t n = p->len;
    while (i < n) {
      unsigned char c = (unsigned char)b[i];
      if (c == '"' || c == '\\' || c < 0x20) break;
      i++;
    }
    if (keep && i > p->pos) sb_put(p, b + p->pos, i - p->pos);
    p->pos = i;
    if (i == n) {
      if (p->eof) jfail(p, RL_ETRUNCATED, start, "a string is not closed (truncated file?)");
      refill(p);
      continue;
    }
    unsigned char c = (unsigned char)b[i];
    if (c == '"') {
      p->pos++;
      break;
    }
    if (c < 0x20) jfail(p, RL_EPARSE, here(p), "control character inside a string");
    ensure(p, 2);
    if (p->len - p->pos < 2) jfail(p, RL_ETRUNCATED, start, "a string is not closed (truncated file?)");
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
      ensure(p, 6);
      if (p->len - p->pos < 6) jfail(p, RL_ETRUNCATED, start, "a string is not closed");
      unsigned v = 0;
      for (int k = 2; k < 6; k++) {
        int h = hexv((unsigned char)p->buf[p->pos + (size_t)k]);
        if (h < 0) jfail(p, RL_EPARSE, here(p), "bad \\u escape");
        v = v * 16 + (unsigned)h;
      }
      p->pos += 4; /* + 2 below */
      if (v >= 0xD800 && v < 0xE000) v = '?'; /* surrogates: not paired here */
      if (v < 0x80) { out[0] = (char)v; }
      else if (v < 0x800) { out[0] = (char)(0xC0 | (v >> 6)); out[1] = (char)(0x80 | (v & 63)); on = 2; }
      else { out[0] = (char)(0xE0 | (v >> 12)); out[1] = (char)(0x80 | ((v >> 6) & 63)); out[2] = (char)(0x80 | (v & 63)); on = 3; }
      break;
    }
    default: jfail(p, RL_EPARSE, here(p), "bad escape in a string");
    }
    p->pos += 2;
    if (keep) sb_put(p, out, on);
  }
  if (keep) {
    sb_put(p, "", 1);
    p->slen--;
  }
}

/* A number at the cursor: its value; *isint when a plain integer. */
static double number(jp *p, int *isint) {
  uint64_t start = here(p);
  char tok[72];
  size_t n = 0;
  for (;;) {
    while (p->pos < p->len) {
      char c = p->buf[p->pos];
      if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E') {
        if (n >= sizeof tok - 1) jfail(p, RL_EPARSE, start, "a number of more than 70 characters");
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
    if (n == 0 && p->pos >= p->len && p->eof) jfail(p, RL_ETRUNCATED, start, "the text ends where a value was expected (truncated file?)");
    jfail(p, RL_EPARSE, start, n ? "malformed number" : "expected a value");
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

static void literal(jp *p) {
  uint64_t start = here(p);
  ensure(p, 5);
  const char *b = p->buf + p->pos;
  size_t left = p->len - p->pos;
  if (left >= 4 && (!memcmp(b, "true", 4) || !memcmp(b, "null", 4))) { p->pos += 4; return; }
  if (left >= 5 && !memcmp(b, "false", 5)) { p->pos += 5; return; }
  if (left < 5 && p->eof) jfail(p, RL_ETRUNCATED, start, "the text ends inside a value (truncated file?)");
  jfail(p, RL_EPARSE, start, "expected a value (a string, number, object, array, true, false or null)");
}

static void skip_value(jp *p, int depth);

static void skip_object(jp *p, int depth) {
  expect(p, '{', "'{'");
  if (ws(p) == '}') { p->pos++; return; }
  for (;;) {
    string(p, 0);
    expect(p, ':', "':' after a key");
    skip_value(p, depth + 1);
    int c = ws(p);
    if (c == ',') { p->pos++; continue; }
    if (c == '}') { p->pos++; return; }
    expect(p, '}', "',' or '}' in an object");
  }
}

static void skip_array(jp *p, int depth) {
  expect(p, '[', "'['");
  if (ws(p) == ']') { p->pos++; return; }
  for (;;) {
    skip_value(p, depth + 1);
    int c = ws(p);
    if (c == ',') { p->pos++; continue; }
    if (c == ']') { p->pos++; return; }
    expect(p, ']', "',' or ']' in an array");
  }
}

static void skip_value(jp *p, int depth) {
  if (depth > MAX_DEPTH) jfail(p, RL_EPARSE, here(p), "nesting deeper than 512 levels");
  int c = ws(p);
  if (c == '"') string(p, 0);
  else if (c == '{') skip_object(p, depth);
  else if (c == '[') skip_array(p, depth);
  else if (c == 't' || c == 'f' || c == 'n') literal(p);
  else if (c < 0) jfail(p, RL_ETRUNCATED, here(p), "the text ends where a value was expected (truncated file?)");
  else number(p, NULL);
}

/* ---- the reader's state --------------------------------------------------- */
enum { C_OTHER, C_KERNEL, C_OP, C_RUNTIME, C_RANGE };

typedef struct op_rec {
  double s, e;
  uint32_t label, cost, parent, inst;
} op_rec;

typedef struct thread {
  uint64_t key;
  op_rec *ops;
  size_t n, cap;
  int sorted;
} thread;

typedef struct launch {
  int64_t corr;
  double s, e;
  uint32_t thread;
  uint32_t used;
} launch;

typedef struct dev_prop {
  int64_t id;
  char name[RL_HW_TEXT_MAX];
  double mem;
  int32_t major, minor;
} dev_prop;

typedef struct kin {
  jp p;
  rl_trace *t;
  thread *th;
  size_t nth, capth;
  uint32_t *thmap;
  size_t thmapcap;
  launch *ln;
  size_t nln, capln;
  uint32_t *lnmap;
  size_t lnmapcap;
  int64_t *kcorr; /* per kernel added: its correlation, or -1 */
  size_t nkc, capkc;
  size_t k0;      /* kernels in t before this file */
  dev_prop dev[16];
  int ndev;
  int64_t kdev;   /* device of the first kernel */
  int have_origin;
  double origin;  /* microseconds subtracted from every ts */
  int64_t events;
  char *name;     /* the current event's name */
  size_t namecap, namelen;
  int ranges, kernels_timed;
  uint32_t *noshape; /* cost of an op label recorded without shapes */
  size_t nocache;
} kin;

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

static void *xgrow(kin *k, void *ptr, size_t elem, size_t need, size_t *cap) {
  if (need <= *cap) return ptr;
  size_t nc = *cap ? *cap : 64;
  while (nc < need) nc *= 2;
  void *q = realloc(ptr, nc * elem);
  if (!q) jfail(&k->p, RL_ENOMEM, 0, "");
  *cap = nc;
  return q;
}

static uint32_t thread_of(kin *k, uint64_t key) {
  if ((k->nth + 1) * 2 > k->thmapcap) {
    size_t nc = k->thmapcap ? k->thmapcap * 2 : 64;
    uint32_t *m = malloc(sizeof *m * nc);
    if (!m) jfail(&k->p, RL_ENOMEM, 0, "");
    memset(m, 0xff, sizeof *m * nc);
    for (size_t i = 0; i < k->nth; i++) {
      size_t h = (size_t)mix(k->th[i].key) & (nc - 1);
      while (m[h] != RLI_NONE) h = (h + 1) & (nc - 1);
      m[h] = (uint32_t)i;
    }
    free(k->thmap);
    k->thmap = m;
    k->thmapcap = nc;
  }
  size_t h = (size_t)mix(key) & (k->thmapcap - 1);
  while (k->thmap[h] != RLI_NONE) {
    if (k->th[k->thmap[h]].key == key) return k->thmap[h];
    h = (h + 1) & (k->thmapcap - 1);
  }
  k->th = xgrow(k, k->th, sizeof *k->th, k->nth + 1, &k->capth);
  memset(&k->th[k->nth], 0, sizeof k->th[0]);
  k->th[k->nth].key = key;
  k->th[k->nth].sorted = 1;
  k->thmap[h] = (uint32_t)k->nth;
  return (uint32_t)k->nth++;
}

static void launch_add(kin *k, int64_t corr, double s, double e, uint32_t th) {
  if ((k->nln + 1) * 2 > k->lnmapcap) {
    size_t nc = k->lnmapcap ? k->lnmapcap * 2 : 1024;
    uint32_t *m = malloc(sizeof *m * nc);
    if (!m) jfail(&k->p, RL_ENOMEM, 0, "");
    memset(m, 0xff, sizeof *m * nc);
    for (size_t i = 0; i < k->nln; i++) {
      size_t h = (size_t)mix((uint64_t)k->ln[i].corr) & (nc - 1);
      while (m[h] != RLI_NONE) h = (h + 1) & (nc - 1);
      m[h] = (uint32_t)i;
    }
    free(k->lnmap);
    k->lnmap = m;
    k->lnmapcap = nc;
  }
  size_t h = (size_t)mix((uint64_t)corr) & (k->lnmapcap - 1);
  while (k->lnmap[h] != RLI_NONE) {
    if (k->ln[k->lnmap[h]].corr == corr) return; /* first one wins */
    h = (h + 1) & (k->lnmapcap - 1);
  }
  k->ln = xgrow(k, k->ln, sizeof *k->ln, k->nln + 1, &k->capln);
  launch *l = &k->ln[k->nln];
  l->corr = corr;
  l->s = s;
  l->e = e;
  l->thread = th;
  l->used = 0;
  k->lnmap[h] = (uint32_t)k->nln++;
}

static launch *launch_find(kin *k, int64_t corr) {
  if (!k->lnmapcap) return NULL;
  size_t h = (size_t)mix((uint64_t)corr) & (k->lnmapcap - 1);
  while (k->lnmap[h] != RLI_NONE) {
    if (k->ln[k->lnmap[h]].corr == corr) return &k->ln[k->lnmap[h]];
    h = (h + 1) & (k->lnmapcap - 1);
  }
  return NULL;
}

/* ---- one event -------------------------------------------------------------- */
typedef struct ev {
  int cat;
  char ph[4];
  int has_ts, has_dur, has_corr, has_device, has_pid;
  double ts, dur;
  int64_t corr, device, pid_num;
  uint64_t pid, tid;
  double ctr[9]; /* d/f/h add, mul, fma */
  int has_ctr;
  rli_aten_args a;
} ev;

static int classify(const char *s) {
  switch (s[0]) {
  case 'k': return !strcmp(s, "kernel") ? C_KERNEL : C_OTHER;
  case 'K': return !strcmp(s, "Kernel") ? C_KERNEL : C_OTHER;
  case 'c':
    if (!strcmp(s, "cpu_op")) return C_OP;
    if (!strcmp(s, "cuda_runtime") || !strcmp(s, "cuda_driver")) return C_RUNTIME;
    if (!strcmp(s, "cuda_profiler_range")) return C_RANGE;
    return C_OTHER;
  case 'O': return !strcmp(s, "Operator") ? C_OP : C_OTHER;
  case 'u': return !strcmp(s, "user_annotation") ? C_OP : C_OTHER;
  case 'R': return !strcmp(s, "Runtime") ? C_RUNTIME : C_OTHER;
  default: return C_OTHER;
  }
}

static double need_num(jp *p, const char *key) {
  int c = ws(p);
  if (c == '-' || (c >= '0' && c <= '9')) return number(p, NULL);
  char m[96];
  snprintf(m, sizeof m, "\"%s\" must be a number", key);
  if (c < 0) jfail(p, RL_ETRUNCATED, here(p), "the text ends inside an event (truncated file?)");
  jfail(p, RL_EPARSE, here(p), m);
  return 0;
}

/* pid / tid: a number or a string; a key either way */
static uint64_t id_value(jp *p, int64_t *num, int *isnum) {
  int c = ws(p);
  if (c == '"') {
    string(p, 1);
    *isnum = 0;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < p->slen; i++) h = (h ^ (unsigned char)p->sb[i]) * 1099511628211ull;
    return h | (1ull << 63);
  }
  double v = need_num(p, "pid/tid");
  if (!(fabs(v) < 9e15)) jfail(p, RL_EPARSE, here(p), "pid/tid out of range");
  *isnum = 1;
  *num = (int64_t)v;
  return (uint64_t)(int64_t)v & ~(1ull << 63);
}

static void parse_dims(jp *p, rli_aten_args *a) {
  expect(p, '[', "an array (Input Dims)");
  a->has_dims = 1;
  a->n_in = 0;
  if (ws(p) == ']') { p->pos++; return; }
  for (;;) {
    int i = a->n_in;
    int c = ws(p);
    if (c == '[' && i < RLI_ATEN_MAX_IN) {
      p->pos++;
      int nd = 0, bad = 0;
      if (ws(p) == ']') p->pos++;
      else
        for (;;) {
          int d = ws(p);
          if (d == '-' || (d >= '0' && d <= '9')) {
            double v = number(p, NULL);
            if (nd < RLI_ATEN_MAX_DIM && v >= 0 && v < 1e15) a->dims[i][nd] = v;
            else bad = 1;
            nd++;
          } else {
            skip_value(p, 2); /* a TensorList: shapes inside */
            bad = 1;
          }
          int e = ws(p);
          if (e == ',') { p->pos++; continue; }
          expect(p, ']', "',' or ']' in Input Dims");
          break;
        }
      a->ndim[i] = bad ? -1 : nd;
      a->n_in++;
    } else {
      skip_value(p, 2);
      if (i < RLI_ATEN_MAX_IN) a->ndim[a->n_in++] = -1;
    }
    c = ws(p);
    if (c == ',') { p->pos++; continue; }
    expect(p, ']', "',' or ']' in Input Dims");
    return;
  }
}

static void parse_strings(jp *p, char (*out)[32], size_t w, int *n, const char *what, char *base) {
  (void)out;
  expect(p, '[', what);
  *n = 0;
  if (ws(p) == ']') { p->pos++; return; }
  for (;;) {
    if (ws(p) == '"') {
      string(p, 1);
      if (*n < RLI_ATEN_MAX_IN) {
        char *d = base + (size_t)*n * w;
        size_t l = p->slen < w - 1 ? p->slen : w - 1;
        memcpy(d, p->sb, l);
        d[l] = 0;
      }
    } else {
      skip_value(p, 2);
      if (*n < RLI_ATEN_MAX_IN) base[(size_t)*n * w] = 0;
    }
    if (*n < RLI_ATEN_MAX_IN) (*n)++;
    int c = ws(p);
    if (c == ',') { p->pos++; continue; }
    expect(p, ']', "',' or ']'");
    return;
  }
}

static const char *const ctr_names[9] = {"dadd", "dmul", "dfma", "fadd", "fmul", "ffma",
                                         "hadd", "hmul", "hfma"};

static void parse_args(jp *p, ev *e) {
  expect(p, '{', "an object (args)");
  if (ws(p) == '}') { p->pos++; return; }
  for (;;) {
    string(p, 1);
    expect(p, ':', "':' after a key");
    const char *key = p->sb;
    size_t kl = p->slen;
    if (kl == 11 && !memcmp(key, "correlation", 11)) {
      double v = need_num(p, "correlation");
      if (!(fabs(v) < 9e18)) jfail(p, RL_EPARSE, here(p), "correlation out of range");
      e->corr = (int64_t)v;
      e->has_corr = 1;
    } else if (kl == 6 && !memcmp(key, "device", 6)) {
      int c = ws(p);
      if (c == '-' || (c >= '0' && c <= '9')) {
        double v = number(p, NULL);
        if (v >= 0 && v < 1e6) { e->device = (int64_t)v; e->has_device = 1; }
      } else {
        skip_value(p, 2);
      }
    } else if (kl == 10 && !memcmp(key, "Input Dims", 10)) {
      parse_dims(p, &e->a);
    } else if (kl == 10 && !memcmp(key, "Input type", 10)) {
      parse_strings(p, e->a.types, sizeof e->a.types[0], &e->a.n_types, "an array (Input type)",
                    &e->a.types[0][0]);
      e->a.has_types = 1;
    } else if (kl == 15 && !memcmp(key, "Concrete Inputs", 15)) {
      parse_strings(p, NULL, sizeof e->a.concrete[0], &e->a.n_concrete,
                    "an array (Concrete Inputs)", &e->a.concrete[0][0]);
    } else if (kl > 40 && (!memcmp(key, "smsp__sass_thread_inst_executed_op_", 35) ||
                           !memcmp(key, "sm__sass_thread_inst_executed_op_", 33))) {
      const char *op = key[1] == 'm' && key[2] == 's' ? key + 35 : key + 33;
      int which = -1;
      for (int i = 0; i < 9; i++)
        if (!strncmp(op, ctr_names[i], 4) && !strcmp(op + 4, "_pred_on.sum")) which = i;
      double v = need_num(p, "a counter");
      if (which >= 0) {
        if (!(v >= 0 && v < 1e30)) jfail(p, RL_EPARSE, here(p), "counter value out of range");
        e->ctr[which] = v;
        e->has_ctr = 1;
      }
    } else {
      skip_value(p, 2);
    }
    int c = ws(p);
    if (c == ',') { p->pos++; continue; }
    expect(p, '}', "',' or '}' in args");
    return;
  }
}

static void set_name(kin *k) {
  jp *p = &k->p;
  if (p->slen + 1 > k->namecap) {
    size_t nc = k->namecap ? k->namecap : 256;
    while (nc < p->slen + 1) nc *= 2;
    char *q = realloc(k->name, nc);
    if (!q) jfail(p, RL_ENOMEM, 0, "");
    k->name = q;
    k->namecap = nc;
  }
  memcpy(k->name, p->sb, p->slen + 1);
  k->namelen = p->slen;
}

static const char *cat_word(int cat) {
  return cat == C_KERNEL ? "kernel" : cat == C_OP ? "cpu_op" : cat == C_RUNTIME ? "cuda_runtime" : "cuda_profiler_range";
}

static void event(kin *k) {
  jp *p = &k->p;
  uint64_t at = here(p);
  ev e;
  e.cat = C_OTHER;
  e.ph[0] = 0;
  e.has_ts = e.has_dur = e.has_corr = e.has_device = e.has_pid = e.has_ctr = 0;
  e.ts = e.dur = 0;
  memset(e.ctr, 0, sizeof e.ctr);
  e.pid = e.tid = 0;
  e.pid_num = 0;
  e.corr = -1;
  e.device = 0;
  e.a.has_dims = e.a.has_types = 0;
  e.a.n_in = e.a.n_types = e.a.n_concrete = 0;
  int has_cat = 0;
  k->namelen = 0;
  if (k->name) k->name[0] = 0;
  expect(p, '{', "an event object");
  k->events++;
  if (ws(p) == '}') { p->pos++; return; }
  for (;;) {
    string(p, 1);
    expect(p, ':', "':' after a key");
    const char *key = p->sb;
    size_t kl = p->slen;
    if (kl == 2 && key[0] == 'p' && key[1] == 'h') {
      if (ws(p) == '"') {
        string(p, 1);
        size_t l = p->slen < 3 ? p->slen : 3;
        memcpy(e.ph, p->sb, l);
        e.ph[l] = 0;
      } else {
        skip_value(p, 1);
      }
    } else if (kl == 3 && !memcmp(key, "cat", 3)) {
      if (ws(p) == '"') {
        string(p, 1);
        e.cat = classify(p->sb);
        has_cat = 1;
      } else {
        skip_value(p, 1);
      }
    } else if (kl == 4 && !memcmp(key, "name", 4)) {
      if (ws(p) == '"') {
        string(p, 1);
        set_name(k);
      } else {
        skip_value(p, 1);
      }
    } else if (kl == 2 && key[0] == 't' && key[1] == 's') {
      e.ts = need_num(p, "ts");
      e.has_ts = 1;
    } else if (kl == 3 && !memcmp(key, "dur", 3)) {
      e.dur = need_num(p, "dur");
      e.has_dur = 1;
    } else if (kl == 3 && !memcmp(key, "pid", 3)) {
      int isnum;
      e.pid = id_value(p, &e.pid_num, &isnum);
      e.has_pid = isnum;
    } else if (kl == 3 && !memcmp(key, "tid", 3)) {
      int isnum;
      int64_t dummy;
      e.tid = id_value(p, &dummy, &isnum);
    } else if (kl == 4 && !memcmp(key, "args", 4)) {
      if (has_cat && e.cat == C_OTHER) skip_value(p, 1);
      else if (ws(p) == '{') parse_args(p, &e);
      else skip_value(p, 1);
    } else {
      skip_value(p, 1);
    }
    int c = ws(p);
    if (c == ',') { p->pos++; continue; }
    expect(p, '}', "',' or '}' in an event");
    break;
  }
  if (e.cat == C_OTHER || strcmp(e.ph, "X") != 0) return;
  char m[160];
  if (!e.has_ts || !e.has_dur) {
    snprintf(m, sizeof m, "a %s event without \"%s\"", cat_word(e.cat), e.has_ts ? "dur" : "ts");
    jfail(p, RL_EPARSE, at, m);
  }
  if (!(e.ts > -1e17 && e.ts < 1e17)) {
    snprintf(m, sizeof m, "a %s event's ts (%g us) is out of range", cat_word(e.cat), e.ts);
    jfail(p, RL_EPARSE, at, m);
  }
  if (!(e.dur >= 0 && e.dur < 1e12)) {
    snprintf(m, sizeof m, "a %s event's dur (%g us) is %s", cat_word(e.cat), e.dur,
             e.dur < 0 ? "negative" : "out of range");
    jfail(p, RL_EPARSE, at, m);
  }
  rl_trace *t = k->t;
  if (e.cat == C_KERNEL || e.cat == C_RANGE) {
    if (!k->have_origin) { k->have_origin = 1; k->origin = e.ts; }
    rli_kernel kr;
    kr.start_s = (e.ts - k->origin) * 1e-6;
    kr.dur_s = e.dur * 1e-6;
    kr.name = rli_trace_str(t, k->name ? k->name : "", k->namelen);
    kr.op = RLI_NONE;
    kr.cost = RLI_NONE;
    kr.inst = RLI_NONE;
    kr.device = (int32_t)(e.has_device ? e.device : e.has_pid && e.pid_num >= 0 && e.pid_num < 1000000 ? e.pid_num : 0);
    if (kr.name == RLI_NONE) jfail(p, RL_ENOMEM, 0, "");
    if (k->nkc == 0 && k->kdev < 0) k->kdev = kr.device;
    if (e.cat == C_RANGE) {
      /* counters, not times: the range's dur is not the kernel's */
      kr.dur_s = -1;
      rli_cost c;
      memset(&c, 0, sizeof c);
      double fd = e.ctr[0] + e.ctr[1] + 2 * e.ctr[2];
      double ff = e.ctr[3] + e.ctr[4] + 2 * e.ctr[5];
      double fh = 2 * e.ctr[6] + 2 * e.ctr[7] + 4 * e.ctr[8];
      c.flops = e.has_ctr ? fd + ff + fh : -1;
      c.bytes = -1;
      c.dtype = fd >= ff && fd >= fh && fd > 0 ? RL_FP64 : fh > ff ? RL_FP16 : RL_FP32;
      c.measured = 1;
      const char *w = e.has_ctr ? "CUPTI range-profiler counters give FLOPs only: no DRAM bytes, "
                                  "and a range's duration is not the kernel's time"
                                : "a CUPTI range-profiler event without FLOP counters";
      c.why = rli_trace_str(t, w, strlen(w));
      kr.cost = rli_trace_cost(t, &c);
      k->ranges++;
    } else {
      k->kernels_timed++;
    }
    rl_error e2;
    if (rli_trace_add(t, &kr, &e2) != RL_OK) jfail(p, RL_ENOMEM, 0, "");
    k->kcorr = xgrow(k, k->kcorr, sizeof *k->kcorr, k->nkc + 1, &k->capkc);
    k->kcorr[k->nkc++] = e.cat == C_KERNEL && e.has_corr ? e.corr : -1;
  } else if (e.cat == C_OP) {
    uint32_t label = rli_trace_str(t, k->name ? k->name : "", k->namelen);
    if (label == RLI_NONE) jfail(p, RL_ENOMEM, 0, "");
    rli_cost c;
    char why[200];
    uint32_t cost = RLI_NONE;
    /* without shapes the cost depends on the name only: cache it by label */
    if (!e.a.has_dims && label < k->nocache && k->noshape[label] != RLI_NONE) {
      cost = k->noshape[label];
    } else {
      if (rli_aten_cost(rli_trace_strat(t, label), &e.a, &c, why, sizeof why))
        cost = rli_trace_cost(t, &c);
      else
        cost = rli_trace_cost_why(t, why);
      if (cost == RLI_NONE) jfail(p, RL_ENOMEM, 0, "");
      if (!e.a.has_dims) {
        if (label >= k->nocache) {
          size_t oc = k->nocache;
          k->noshape = xgrow(k, k->noshape, sizeof *k->noshape, (size_t)label + 1, &k->nocache);
          for (size_t i = oc; i < k->nocache; i++) k->noshape[i] = RLI_NONE;
        }
        k->noshape[label] = cost;
      }
    }
    uint32_t ti = thread_of(k, mix(e.pid) ^ e.tid);
    thread *th = &k->th[ti];
    th->ops = xgrow(k, th->ops, sizeof *th->ops, th->n + 1, &th->cap);
    op_rec *o = &th->ops[th->n];
    o->s = e.ts;
    o->e = e.ts + e.dur;
    o->label = label;
    o->cost = cost;
    o->parent = RLI_NONE;
    o->inst = RLI_NONE;
    if (th->n && (th->ops[th->n - 1].s > o->s ||
                  (th->ops[th->n - 1].s == o->s && th->ops[th->n - 1].e < o->e)))
      th->sorted = 0;
    th->n++;
  } else if (e.cat == C_RUNTIME) {
    if (!e.has_corr || !k->name || !strstr(k->name, "aunch")) return;
    launch_add(k, e.corr, e.ts, e.ts + e.dur, thread_of(k, mix(e.pid) ^ e.tid));
  }
}

static void device_props(kin *k) {
  jp *p = &k->p;
  expect(p, '[', "an array (deviceProperties)");
  if (ws(p) == ']') { p->pos++; return; }
  for (;;) {
    dev_prop d;
    memset(&d, 0, sizeof d);
    d.id = -1;
    expect(p, '{', "an object in deviceProperties");
    if (ws(p) == '}') p->pos++;
    else
      for (;;) {
        string(p, 1);
        expect(p, ':', "':' after a key");
        char key[32];
        size_t kl = p->slen < 31 ? p->slen : 31;
        memcpy(key, p->sb, kl);
        key[kl] = 0;
        int c = ws(p);
        if (!strcmp(key, "name") && c == '"') {
          string(p, 1);
          size_t l = p->slen < sizeof d.name - 1 ? p->slen : sizeof d.name - 1;
          memcpy(d.name, p->sb, l);
          d.name[l] = 0;
        } else if ((!strcmp(key, "id") || !strcmp(key, "totalGlobalMem") ||
                    !strcmp(key, "computeMajor") || !strcmp(key, "computeMinor")) &&
                   (c == '-' || (c >= '0' && c <= '9'))) {
          double v = number(p, NULL);
          if (!(v >= 0 && v < 1e16)) v = 0;
          if (key[0] == 'i') d.id = (int64_t)v;
          else if (key[0] == 't') d.mem = v;
          else if (key[7] == 'M' && key[8] == 'a') d.major = (int32_t)v;
          else d.minor = (int32_t)v;
        } else {
          skip_value(p, 3);
        }
        c = ws(p);
        if (c == ',') { p->pos++; continue; }
        expect(p, '}', "',' or '}' in deviceProperties");
        break;
      }
    if (k->ndev < 16) k->dev[k->ndev++] = d;
    int c = ws(p);
    if (c == ',') { p->pos++; continue; }
    expect(p, ']', "',' or ']' in deviceProperties");
    return;
  }
}

static void events_array(kin *k) {
  jp *p = &k->p;
  expect(p, '[', "an array (traceEvents)");
  if (ws(p) == ']') { p->pos++; return; }
  for (;;) {
    event(k);
    int c = ws(p);
    if (c == ',') { p->pos++; continue; }
    expect(p, ']', "',' or ']' between events");
    return;
  }
}

static void document(kin *k) {
  jp *p = &k->p;
  int c = ws(p);
  if (c == 0xEF) { /* UTF-8 byte order mark */
    ensure(p, 3);
    if (p->len - p->pos >= 3 && (unsigned char)p->buf[p->pos + 1] == 0xBB &&
        (unsigned char)p->buf[p->pos + 2] == 0xBF)
      p->pos += 3;
    c = ws(p);
  }
  if (c < 0) jfail(p, RL_EPARSE, here(p), "empty file: no JSON value");
  if (c == '[') {
    events_array(k);
  } else {
    int seen = 0;
    expect(p, '{', "a JSON object with \"traceEvents\"");
    if (ws(p) == '}') p->pos++;
    else
      for (;;) {
        string(p, 1);
        expect(p, ':', "':' after a key");
        if (p->slen == 11 && !memcmp(p->sb, "traceEvents", 11)) {
          if (seen) jfail(p, RL_EPARSE, here(p), "\"traceEvents\" given twice");
          seen = 1;
          events_array(k);
        } else if (p->slen == 16 && !memcmp(p->sb, "deviceProperties", 16) && ws(p) == '[') {
          device_props(k);
        } else {
          skip_value(p, 1);
        }
        c = ws(p);
        if (c == ',') { p->pos++; continue; }
        expect(p, '}', "',' or '}' at the top level");
        break;
      }
    if (!seen) jfail(p, RL_EPARSE, here(p), "no \"traceEvents\" array: not a PyTorch/Chrome trace");
  }
  if (ws(p) >= 0) jfail(p, RL_EPARSE, here(p), "text after the end of the JSON document");
}

/* ---- linking ------------------------------------------------------------------ */
static int cmp_op(const void *a, const void *b) {
  const op_rec *x = a, *y = b;
  if (x->s != y->s) return x->s < y->s ? -1 : 1;
  if (x->e != y->e) return x->e > y->e ? -1 : 1;
  return 0;
}

static void link_all(kin *k) {
  rl_trace *t = k->t;
  for (size_t i = 0; i < k->nth; i++) {
    thread *th = &k->th[i];
    if (!th->sorted) qsort(th->ops, th->n, sizeof *th->ops, cmp_op);
    /* parent = the nearest earlier op that contains it */
    uint32_t *stack = malloc(sizeof *stack * (th->n + 1));
    if (!stack && th->n) jfail(&k->p, RL_ENOMEM, 0, "");
    size_t sp = 0;
    for (size_t j = 0; j < th->n; j++) {
      while (sp && th->ops[stack[sp - 1]].e < th->ops[j].e) sp--;
      th->ops[j].parent = sp ? stack[sp - 1] : RLI_NONE;
      stack[sp++] = (uint32_t)j;
    }
    free(stack);
  }
  uint32_t c_nolaunch = rli_trace_cost_why(
      t, "no launch call with its correlation id (launched before the profiling window?)");
  uint32_t c_noop = rli_trace_cost_why(t, "its launch call is inside no CPU op");
  if (c_nolaunch == RLI_NONE || c_noop == RLI_NONE) jfail(&k->p, RL_ENOMEM, 0, "");
  int64_t unlinked = 0;
  for (size_t i = 0; i < k->nkc; i++) {
    rli_kernel *kr = rli_trace_kernel_at(t, k->k0 + i);
    if (!kr || kr->cost != RLI_NONE) continue; /* counter ranges carry their own cost */
    launch *l = k->kcorr[i] >= 0 ? launch_find(k, k->kcorr[i]) : NULL;
    if (!l) { kr->cost = c_nolaunch; unlinked++; continue; }
    thread *th = &k->th[l->thread];
    /* last op starting at or before the launch */
    size_t lo = 0, hi = th->n;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (th->ops[mid].s <= l->s) lo = mid + 1;
      else hi = mid;
    }
    uint32_t j = lo ? (uint32_t)(lo - 1) : RLI_NONE;
    while (j != RLI_NONE && th->ops[j].e < l->e) j = th->ops[j].parent;
    if (j == RLI_NONE) { kr->cost = c_noop; unlinked++; continue; }
    op_rec *o = &th->ops[j];
    if (o->inst == RLI_NONE) {
      o->inst = rli_trace_new_inst(t, o->cost);
      if (o->inst == RLI_NONE) jfail(&k->p, RL_ENOMEM, 0, "");
    }
    kr->op = o->label;
    kr->inst = o->inst;
  }
  rli_trace_set_unlinked(t, unlinked);
}

/* the part that may longjmp back here */
static rl_status parse_all(kin *k) {
  if (setjmp(k->p.jb) != 0) return k->p.st ? k->p.st : RL_EPARSE;
  document(k);
  link_all(k);
  return RL_OK;
}

rl_status rli_read_kineto(rl_trace *t, rli_src *s, rl_error *err) {
  rl_error scratch;
  if (!err) err = &scratch;
  kin *k = calloc(1, sizeof *k);
  if (!k) return rli_fail(err, RL_ENOMEM, "%s: out of memory", s->label);
  k->t = t;
  k->kdev = -1;
  k->k0 = rli_trace_nkernels(t);
  k->p.src = s;
  k->p.err = err;
  k->p.cap = BUFCAP;
  k->p.buf = malloc(BUFCAP);
  rl_status st;
  if (!k->p.buf) st = rli_fail(err, RL_ENOMEM, "%s: out of memory", s->label);
  else st = parse_all(k);
  if (st == RL_OK) {
    rli_trace_set_format(t, "kineto");
    rli_trace_count_events(t, k->events);
    if (k->nkc == 0)
      st = rli_fail(err, RL_EPARSE, "%s: no GPU kernels among its %lld events (a CPU-only trace?)",
                    s->label, (long long)k->events);
    /* the device the kernels ran on */
    const dev_prop *d = NULL;
    for (int i = 0; i < k->ndev; i++)
      if (k->dev[i].id == k->kdev) d = &k->dev[i];
    if (!d && k->ndev) d = &k->dev[0];
    if (d && d->name[0]) rli_trace_set_device(t, d->name, d->mem, d->major, d->minor);
  }
  for (size_t i = 0; i < k->nth; i++) free(k->th[i].ops);
  free(k->th);
  free(k->thmap);
  free(k->ln);
  free(k->lnmap);
  free(k->kcorr);
  free(k->noshape);
  free(k->name);
  free(k->p.sb);
  free(k->p.buf);
  free(k);
  return st;
}
