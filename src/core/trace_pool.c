/*
 * trace_pool.c -- the trace's string pool: every kernel, op and module
 * name and every why text is interned once (rli_trace_str: an id, the text
 * cleaned to valid UTF-8 without control characters), kept in 64 KiB
 * arena blocks (a long string gets its own), found again through an
 * open-addressing hash of the ids.
 */
#include "core/trace_impl.h"

#include <stdlib.h>
#include <string.h>

static char *arena_alloc(rl_trace *t, size_t n) {
  if (n > 4096) { /* big strings get their own block */
    size_t cb = t->capblocks;
    if (!rli_grow((void **)&t->blocks, sizeof(char *), t->nblocks + 1, &cb)) return NULL;
    t->capblocks = cb;
    char *b = malloc(n);
    if (b) t->blocks[t->nblocks++] = b;
    return b;
  }
  if (n > t->arena_left) {
    size_t cb = t->capblocks;
    if (!rli_grow((void **)&t->blocks, sizeof(char *), t->nblocks + 1, &cb)) return NULL;
    t->capblocks = cb;
    char *b = malloc(65536);
    if (!b) return NULL;
    t->blocks[t->nblocks++] = b;
    t->arena = b;
    t->arena_left = 65536;
  }
  char *r = t->arena;
  t->arena += n;
  t->arena_left -= n;
  return r;
}

/* Copy s, replacing bytes that are not valid UTF-8 by '?' and control
 * characters by spaces, so that every name prints as valid JSON and text. */
void rli_copy_clean(char *d, const char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x80) {
      d[i] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
      i++;
      continue;
    }
    size_t len = c >= 0xF0 && c < 0xF5 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (c >= 0xF5) len = 0;
    int ok = len > 0 && i + len <= n;
    for (size_t j = 1; ok && j < len; j++)
      if (((unsigned char)s[i + j] & 0xC0) != 0x80) ok = 0;
    if (ok && len == 3) {
      unsigned char c1 = (unsigned char)s[i + 1];
      if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0)) ok = 0;
    }
    if (ok && len == 4) {
      unsigned char c1 = (unsigned char)s[i + 1];
      if ((c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90)) ok = 0;
    }
    if (!ok) { d[i++] = '?'; continue; }
    memcpy(d + i, s + i, len);
    i += len;
  }
}

static int rehash_str(rl_trace *t) {
  uint32_t nc = t->shcap ? t->shcap * 2 : 1024;
  uint32_t *h = malloc(sizeof *h * nc);
  if (!h) return 0;
  memset(h, 0xff, sizeof *h * nc);
  for (uint32_t id = 0; id < t->nstr; id++) {
    const char *s = t->str[id];
    uint64_t x = rli_hash(s, strlen(s));
    uint32_t i = (uint32_t)x & (nc - 1);
    while (h[i] != RLI_NONE) i = (i + 1) & (nc - 1);
    h[i] = id;
  }
  free(t->shash);
  t->shash = h;
  t->shcap = nc;
  return 1;
}

uint32_t rli_trace_str(rl_trace *t, const char *s, size_t len) {
  if ((size_t)t->nstr * 2 + 2 > t->shcap && !rehash_str(t)) return RLI_NONE;
  /* hash the cleaned text: printable ASCII is its own clean copy; else
   * clean a copy (on the stack when short) */
  char small[512];
  size_t a = 0;
  while (a < len && (unsigned char)s[a] >= 0x20 && (unsigned char)s[a] < 0x7f) a++;
  char *clean;
  if (a == len) {
    clean = (char *)(uintptr_t)s; /* read only below */
  } else {
    clean = len < sizeof small ? small : malloc(len + 1);
    if (!clean) return RLI_NONE;
    rli_copy_clean(clean, s, len);
    clean[len] = 0;
  }
  uint64_t x = rli_hash(clean, len);
  uint32_t i = (uint32_t)x & (t->shcap - 1);
  while (t->shash[i] != RLI_NONE) {
    const char *o = t->str[t->shash[i]];
    if (strlen(o) == len && memcmp(o, clean, len) == 0) {
      if (clean != small && clean != s) free(clean);
      return t->shash[i];
    }
    i = (i + 1) & (t->shcap - 1);
  }
  size_t cs = t->capstr;
  char *d = NULL;
  if (rli_grow((void **)&t->str, sizeof(char *), (size_t)t->nstr + 1, &cs)) d = arena_alloc(t, len + 1);
  t->capstr = (uint32_t)cs;
  if (!d) { if (clean != small && clean != s) free(clean); return RLI_NONE; }
  memcpy(d, clean, len);
  d[len] = 0;
  if (clean != small && clean != s) free(clean);
  t->str[t->nstr] = d;
  t->shash[i] = t->nstr;
  return t->nstr++;
}

const char *rli_trace_strat(const rl_trace *t, uint32_t id) {
  return id < t->nstr ? t->str[id] : "";
}
