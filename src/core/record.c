/*
 * record.c -- a struct written as its JSON record, from the record's field
 * table (core/record.h): keys in table order, each value as its row says.
 * Pure: no I/O.
 */
#include "core/record.h"

#include <math.h>
#include <string.h>

static const void *at(const void *rec, const rli_field *f) { return (const char *)rec + f->off; }

static long long int_at(const void *rec, const rli_field *f) {
  const void *p = at(rec, f);
  switch (f->size) {
  case 1: return *(const int8_t *)p;
  case 2: return *(const int16_t *)p;
  case 4: return *(const int32_t *)p;
  default: return *(const int64_t *)p;
  }
}

static void put_num(rli_out *o, const rli_field *f, double v) {
  if (((f->flags & RLI_NULL_NEG) && v < 0) || ((f->flags & RLI_NULL_NONPOS) && !(v > 0)))
    rli_out_puts(o, "null");
  else
    rli_out_num(o, v);
}

/* RLI_ITEMS, RLI_ARRAY: "[{...},...]" */
static void put_items(rli_out *o, const rli_field *f, const void *rec) {
  const char *items = f->n_max ? (const char *)at(rec, f) : *(const char *const *)at(rec, f);
  int32_t n = *(const int32_t *)((const char *)rec + f->n_off);
  if (f->n_max && n > f->n_max) n = f->n_max;
  rli_out_puts(o, "[");
  for (int32_t i = 0; i < n; i++) {
    if (i) rli_out_puts(o, ",");
    rli_record_write(o, f->sub, items + (size_t)i * f->size);
  }
  rli_out_puts(o, "]");
}

void rli_field_value(rli_out *o, const rli_field *f, const void *rec) {
  if (f->put) {
    f->put(o, rec, f);
    return;
  }
  if (f->shape == RLI_LIST && f->type == RLI_F_OBJ) {
    put_items(o, f, rec);
    return;
  }
  if (f->known && !f->known(rec)) {
    rli_out_puts(o, "null");
    return;
  }
  switch (f->type) {
  case RLI_F_NUM:
    put_num(o, f, f->get ? f->get(rec) : *(const double *)at(rec, f));
    break;
  case RLI_F_INT:
    rli_out_printf(o, "%lld", f->get ? (long long)f->get(rec) : int_at(rec, f));
    break;
  case RLI_F_BOOL:
    rli_out_puts(o, (f->get ? f->get(rec) != 0 : int_at(rec, f) != 0) ? "true" : "false");
    break;
  case RLI_F_TEXT:
    rli_out_str(o, (const char *)at(rec, f));
    break;
  case RLI_F_STR: {
    const char *s = *(const char *const *)at(rec, f);
    if (s) rli_out_str(o, s);
    else rli_out_puts(o, (f->flags & RLI_NULLABLE) ? "null" : "\"\"");
    break;
  }
  case RLI_F_ENUM: {
    long long k = f->get ? (long long)f->get(rec) : int_at(rec, f);
    const char *w = k >= 0 && k < f->n_names ? f->name((int32_t)k) : NULL;
    if (k < 0) rli_out_puts(o, "null");
    else rli_out_str(o, w ? w : "?");
    break;
  }
  case RLI_F_OBJ:
    rli_record_write(o, f->sub, at(rec, f));
    break;
  }
}

void rli_record_write(rli_out *o, const rli_record *r, const void *rec) {
  rli_out_puts(o, "{");
  int first = 1;
  for (int32_t i = 0; i < r->n; i++) {
    const rli_field *f = &r->f[i];
    if (f->present && !f->present(rec)) continue;
    rli_out_printf(o, "%s\"%s\":", first ? "" : ",", f->key);
    first = 0;
    rli_field_value(o, f, rec);
  }
  rli_out_puts(o, "}");
}

void rli_map_key(rli_out *o, const rli_field *f, int32_t k, int *first) {
  const char *w = f->name(k);
  rli_out_printf(o, "%s\"%s\":", *first ? "" : ",", w ? w : "?");
  *first = 0;
}

void rli_put_num_map(rli_out *o, const void *rec, const rli_field *f) {
  const double *v = (const double *)at(rec, f);
  int first = 1;
  rli_out_puts(o, "{");
  for (int32_t k = 0; k < f->n_names; k++) {
    rli_map_key(o, f, k, &first);
    put_num(o, f, v[k]);
  }
  rli_out_puts(o, "}");
}

void rli_put_int_map(rli_out *o, const void *rec, const rli_field *f) {
  const int32_t *v = (const int32_t *)at(rec, f);
  int first = 1;
  rli_out_puts(o, "{");
  for (int32_t k = 0; k < f->n_names; k++) {
    rli_map_key(o, f, k, &first);
    rli_out_printf(o, "%d", (int)v[k]);
  }
  rli_out_puts(o, "}");
}

const rli_field *rli_record_field(const rli_record *r, const char *key) {
  for (int32_t i = 0; r && key && i < r->n; i++)
    if (strcmp(r->f[i].key, key) == 0) return &r->f[i];
  return NULL;
}
