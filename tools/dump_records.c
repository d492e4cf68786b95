/*
 * dump_records.c -- print the library's JSON record tables (core/record.h)
 * as one JSON object, for tools/gen_tables.py, which turns them into
 * docs/schema/measure.json, trace-job.json and trace.json.
 * Built and run by `make gen` and `make check-gen`.
 *
 * Output: {"RECORD": {"doc": ..., "fields": [{"key", "unit", "doc",
 * "type" (number, integer, boolean, string, enum, object), "shape" (one,
 * list, map), "nullable", "optional", "enum" (an enum's words), "keys" (a
 * map's keys), "record" (an object's record)}, ...]}, ...}, every record
 * the three reach.
 */
#include "core/record.h"

#include <stdio.h>

static void str(const char *s) {
  if (!s) {
    fputs("null", stdout);
    return;
  }
  putchar('"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') printf("\\%c", *s);
    else if ((unsigned char)*s < 0x20) printf("\\u%04x", (unsigned)*s);
    else putchar(*s);
  }
  putchar('"');
}

static void words(const char *what, const rli_field *f) {
  printf(",\"%s\":[", what);
  int first = 1;
  for (int32_t k = 0; k < f->n_names; k++) {
    const char *w = f->name(k);
    if (!w) continue;
    if (!first) putchar(',');
    str(w);
    first = 0;
  }
  putchar(']');
}

static const rli_record *seen[64];
static int n_seen;

static void record(const rli_record *r) {
  for (int i = 0; i < n_seen; i++)
    if (seen[i] == r) return;
  if (n_seen == (int)(sizeof seen / sizeof seen[0])) {
    fputs("dump_records: too many records\n", stderr);
    exit(1);
  }
  seen[n_seen++] = r;
  printf("%s", n_seen > 1 ? ",\n" : "");
  str(r->name);
  fputs(":{\"doc\":", stdout);
  str(r->doc);
  fputs(",\"fields\":[", stdout);
  static const char *const types[] = {"number", "integer", "boolean", "string", "string", "enum", "object"};
  static const char *const shapes[] = {"one", "list", "map"};
  for (int32_t i = 0; i < r->n; i++) {
    const rli_field *f = &r->f[i];
    /* a number that is not finite is written null (rli_out_num) */
    int nullable = f->known || (f->flags & (RLI_NULLABLE | RLI_NULL_NEG | RLI_NULL_NONPOS)) ||
                   f->type == RLI_F_NUM;
    printf("%s\n  {\"key\":", i ? "," : "");
    str(f->key);
    fputs(",\"unit\":", stdout);
    str(f->unit);
    fputs(",\"doc\":", stdout);
    str(f->doc);
    printf(",\"type\":\"%s\",\"shape\":\"%s\",\"nullable\":%s,\"optional\":%s", types[f->type], shapes[f->shape],
           nullable ? "true" : "false", f->present ? "true" : "false");
    if (f->type == RLI_F_ENUM) words("enum", f);
    if (f->shape == RLI_MAP) words("keys", f);
    if (f->type == RLI_F_OBJ) {
      fputs(",\"record\":", stdout);
      str(f->sub->name);
    }
    putchar('}');
  }
  fputs("]}", stdout);
  for (int32_t i = 0; i < r->n; i++)
    if (r->f[i].type == RLI_F_OBJ) record(r->f[i].sub);
}

int main(void) {
  const rli_record *const all[] = {&rli_measure_record, &rli_job_record, &rli_trace_record};
  putchar('{');
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) record(all[i]);
  puts("}");
  return 0;
}
