/*
 * json.c -- a recursive-descent JSON reader (RFC 8259) building a tree.
 * Strict: no comments, no trailing commas, no NaN/Infinity, no leading
 * zeros; \u escapes (with surrogate pairs) decoded to UTF-8.
 */
#include "core/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 512

typedef struct parser {
  const char *s, *end, *start;
  rl_error *err;
  rl_status st;
  size_t max_kids; /* elements of one array or object at most (0: no cap) */
} parser;

static rl_status perr(parser *p, const char *what) {
  if (p->st == RL_OK)
    p->st = rli_fail(p->err, p->s >= p->end ? RL_ETRUNCATED : RL_EPARSE,
                     "byte %zu: %s", (size_t)(p->s - p->start), what);
  return p->st;
}

static void ws(parser *p) {
  while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r'))
    p->s++;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static int read_hex4(parser *p, unsigned *out) {
  if (p->end - p->s < 4) return 0;
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    int h = hexval(p->s[i]);
    if (h < 0) return 0;
    v = v * 16 + (unsigned)h;
  }
  p->s += 4;
  *out = v;
  return 1;
}

static size_t put_utf8(char *d, unsigned cp) {
  if (cp < 0x80) { d[0] = (char)cp; return 1; }
  if (cp < 0x800) { d[0] = (char)(0xC0 | (cp >> 6)); d[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
  if (cp < 0x10000) {
    d[0] = (char)(0xE0 | (cp >> 12)); d[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    d[2] = (char)(0x80 | (cp & 0x3F)); return 3;
  }
  d[0] = (char)(0xF0 | (cp >> 18)); d[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  d[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); d[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* p->s at the opening quote. */
static char *read_string(parser *p) {
  p->s++;
  const char *q = p->s;
  while (q < p->end && *q != '"') q += (*q == '\\') ? 2 : 1;
  if (q >= p->end) { p->s = p->end; perr(p, "unterminated string"); return NULL; }
  char *out = malloc((size_t)(q - p->s) + 1);
  if (!out) { p->st = rli_fail(p->err, RL_ENOMEM, "out of memory"); return NULL; }
  size_t n = 0;
  while (p->s < p->end && *p->s != '"') {
    unsigned char c = (unsigned char)*p->s;
    if (c < 0x20) { free(out); perr(p, "control character in string"); return NULL; }
    if (c != '\\') { out[n++] = (char)c; p->s++; continue; }
    p->s++;
    if (p->s >= p->end) break;
    char e = *p->s++;
    switch (e) {
    case '"': out[n++] = '"'; break;
    case '\\': out[n++] = '\\'; break;
    case '/': out[n++] = '/'; break;
    case 'b': out[n++] = '\b'; break;
    case 'f': out[n++] = '\f'; break;
    case 'n': out[n++] = '\n'; break;
    case 'r': out[n++] = '\r'; break;
    case 't': out[n++] = '\t'; break;
    case 'u': {
      unsigned cp;
      if (!read_hex4(p, &cp)) { free(out); perr(p, "bad \\u escape"); return NULL; }
      if (cp >= 0xD800 && cp < 0xDC00) {
        unsigned lo;
        if (p->end - p->s >= 6 && p->s[0] == '\\' && p->s[1] == 'u') {
          p->s += 2;
          if (!read_hex4(p, &lo) || lo < 0xDC00 || lo > 0xDFFF) { free(out); perr(p, "bad surrogate pair"); return NULL; }
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        } else {
          cp = 0xFFFD;
        }
      } else if (cp >= 0xDC00 && cp < 0xE000) {
        cp = 0xFFFD;
      }
      /* \u escapes take 6 bytes of input and at most 4 of output */
      n += put_utf8(out + n, cp);
      break;
    }
    default: free(out); p->s--; perr(p, "bad escape in string"); return NULL;
    }
  }
  if (p->s >= p->end) { free(out); perr(p, "unterminated string"); return NULL; }
  p->s++;
  out[n] = 0;
  return out;
}

static int parse_value(parser *p, rli_json *v, int depth);

static int parse_number(parser *p, rli_json *v) {
  const char *q = p->s;
  if (q < p->end && *q == '-') q++;
  if (q >= p->end || *q < '0' || *q > '9') return perr(p, "invalid value"), 0;
  if (*q == '0' && q + 1 < p->end && q[1] >= '0' && q[1] <= '9')
    return perr(p, "leading zero in number"), 0;
  while (q < p->end && *q >= '0' && *q <= '9') q++;
  if (q < p->end && *q == '.') {
    q++;
    if (q >= p->end || *q < '0' || *q > '9') { p->s = q; return perr(p, "digit expected after '.'"), 0; }
    while (q < p->end && *q >= '0' && *q <= '9') q++;
  }
  if (q < p->end && (*q == 'e' || *q == 'E')) {
    q++;
    if (q < p->end && (*q == '+' || *q == '-')) q++;
    if (q >= p->end || *q < '0' || *q > '9') { p->s = q; return perr(p, "digit expected in exponent"), 0; }
    while (q < p->end && *q >= '0' && *q <= '9') q++;
  }
  char buf[64];
  size_t n = (size_t)(q - p->s);
  if (n >= sizeof buf) return perr(p, "number too long"), 0;
  memcpy(buf, p->s, n);
  buf[n] = 0;
  v->type = RLI_JSON_NUM;
  v->num = strtod(buf, NULL);
  if (v->num > 1.7e308 || v->num < -1.7e308) return perr(p, "number out of range"), 0;
  p->s = q;
  return 1;
}

static int lit(parser *p, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(p->end - p->s) < n || memcmp(p->s, word, n) != 0) return 0;
  p->s += n;
  return 1;
}

/* Room for one more child (and, in an object, its key). */
static int grow(parser *p, rli_json *v, size_t *cap, size_t *kcap, int obj) {
  if (rli_grow((void **)&v->kids, sizeof *v->kids, v->n + 1, cap) &&
      (!obj || rli_grow((void **)&v->keys, sizeof *v->keys, v->n + 1, kcap)))
    return 1;
  p->st = rli_fail(p->err, RL_ENOMEM, "out of memory");
  return 0;
}

static int parse_value(parser *p, rli_json *v, int depth) {
  memset(v, 0, sizeof *v);
  ws(p);
  if (p->s >= p->end) return perr(p, "unexpected end of input"), 0;
  if (depth > MAX_DEPTH) return perr(p, "nesting too deep"), 0;
  char c = *p->s;
  if (c == '{' || c == '[') {
    int obj = c == '{';
    char close = obj ? '}' : ']';
    v->type = obj ? RLI_JSON_OBJ : RLI_JSON_ARR;
    p->s++;
    size_t cap = 0, kcap = 0;
    ws(p);
    if (p->s < p->end && *p->s == close) { p->s++; return 1; }
    for (;;) {
      if (p->max_kids && v->n >= p->max_kids) {
        char what[96];
        snprintf(what, sizeof what, "more than %zu elements in one %s", p->max_kids, obj ? "object" : "array");
        return perr(p, what), 0;
      }
      if (!grow(p, v, &cap, &kcap, obj)) return 0;
      char *key = NULL;
      if (obj) {
        ws(p);
        if (p->s >= p->end || *p->s != '"') return perr(p, "expected a string key"), 0;
        key = read_string(p);
        if (!key) return 0;
        ws(p);
        if (p->s >= p->end || *p->s != ':') { free(key); return perr(p, "expected ':'"), 0; }
        p->s++;
        v->keys[v->n] = key;
      }
      int ok = parse_value(p, &v->kids[v->n], depth + 1);
      v->n++; /* count it even on failure so that free releases it */
      if (!ok) return 0;
      ws(p);
      if (p->s < p->end && *p->s == ',') { p->s++; continue; }
      if (p->s < p->end && *p->s == close) { p->s++; return 1; }
      return perr(p, obj ? "expected ',' or '}'" : "expected ',' or ']'"), 0;
    }
  }
  if (c == '"') {
    v->type = RLI_JSON_STR;
    v->str = read_string(p);
    return v->str != NULL;
  }
  if (lit(p, "true")) { v->type = RLI_JSON_BOOL; v->boolean = 1; return 1; }
  if (lit(p, "false")) { v->type = RLI_JSON_BOOL; return 1; }
  if (lit(p, "null")) { v->type = RLI_JSON_NULL; return 1; }
  return parse_number(p, v);
}

static void free_kids(rli_json *j) {
  for (size_t i = 0; i < j->n; i++) {
    free_kids(&j->kids[i]);
    if (j->keys) free(j->keys[i]);
  }
  free(j->kids);
  free(j->keys);
  free(j->str);
}

void rli_json_free(rli_json *j) {
  if (!j) return;
  free_kids(j);
  free(j);
}

rl_status rli_json_parse(const char *text, size_t len, rli_json **out,
                         rl_error *err) {
  return rli_json_parse_capped(text, len, 0, out, err);
}

rl_status rli_json_parse_capped(const char *text, size_t len, size_t max_kids, rli_json **out, rl_error *err) {
  *out = NULL;
  if (!text) return rli_fail(err, RL_EINVAL, "no JSON text");
  parser p = {text, text + len, text, err, RL_OK, max_kids};
  /* skip a UTF-8 byte-order mark */
  if (RLI_PREFIX(text, len, "\xEF\xBB\xBF")) p.s += RLI_LEN("\xEF\xBB\xBF");
  rli_json *root = calloc(1, sizeof *root);
  if (!root) return rli_fail(err, RL_ENOMEM, "out of memory");
  if (!parse_value(&p, root, 0)) {
    rli_json_free(root);
    return p.st != RL_OK ? p.st : rli_fail(err, RL_EPARSE, "invalid JSON");
  }
  ws(&p);
  if (p.s < p.end) {
    perr(&p, "unexpected data after the JSON value");
    rli_json_free(root);
    return p.st;
  }
  *out = root;
  return RL_OK;
}

const rli_json *rli_json_get(const rli_json *obj, const char *key) {
  if (!obj || obj->type != RLI_JSON_OBJ) return NULL;
  /* a key given twice: the last one wins, as in Python's json and
   * JavaScript's JSON.parse (RFC 8259 sec. 4 leaves it open) */
  for (size_t i = obj->n; i-- > 0;)
    if (strcmp(obj->keys[i], key) == 0) return &obj->kids[i];
  return NULL;
}

const rli_json *rli_json_path(const rli_json *root, const char *path) {
  const rli_json *cur = root;
  char seg[128];
  const char *p = path;
  while (cur && *p) {
    size_t n = strcspn(p, ".");
    if (n >= sizeof seg) return NULL;
    memcpy(seg, p, n);
    seg[n] = 0;
    p += n;
    if (*p == '.') p++;
    if (cur->type == RLI_JSON_ARR) {
      char *e;
      long i = strtol(seg, &e, 10);
      if (*e || i < 0 || (size_t)i >= cur->n) return NULL;
      cur = &cur->kids[i];
    } else {
      cur = rli_json_get(cur, seg);
    }
  }
  return cur;
}
