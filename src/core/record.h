/*
 * record.h -- JSON records written from field tables.
 *
 * A record (rli_record) is a table of fields (rli_field), one row per JSON
 * key: the key, the unit of its number, what it means, its type, where its
 * value is (an offset in the C struct, or a function for a derived value),
 * when it is null and when it is left out. rli_record_write writes a
 * struct as its record, the keys in table order; a list or a map of
 * figures is written by the row's put function, its keys spelled by the
 * row's name function, its items by their own record. The tables are also
 * the schema: tools/dump_records.c prints them and tools/gen_tables.py
 * turns them into docs/schema/measure.json, trace-job.json and the rows of
 * trace.json (make gen; make check fails when a committed schema is not
 * what the tables give). A key is named once, in its table, as hw.c's
 * columns[] name the hardware record's.
 *
 * The records: rli_measure_record (measure_report.c), rli_job_record
 * (trace_job.c), rli_trace_record and its rli_trace_row_record
 * (trace_json.c).
 */
#ifndef RL_RECORD_H
#define RL_RECORD_H

#include "core/internal.h"

#include <stddef.h>

/* A value's type (a list's or a map's: of its items). */
typedef enum rli_ftype {
  RLI_F_NUM,  /* double; null when not finite */
  RLI_F_INT,  /* a signed integer of the field's size */
  RLI_F_BOOL, /* an integer: true when not 0 */
  RLI_F_TEXT, /* a char array */
  RLI_F_STR,  /* const char *; NULL is null (RLI_NULLABLE) or "" */
  RLI_F_ENUM, /* an int32_t index: its word (name), null when < 0 */
  RLI_F_OBJ   /* a nested struct, written as its record (sub) */
} rli_ftype;

/* Its shape: one value, a list or an object whose keys are name's words. */
enum { RLI_ONE = 0, RLI_LIST = 1, RLI_MAP = 2 };

/* flags */
#define RLI_NULLABLE 1u   /* the value may be null (schema) */
#define RLI_NULL_NEG 2u   /* a number below 0 is null (not known) */
#define RLI_NULL_NONPOS 4u /* a number not above 0 is null */

struct rli_record;
typedef struct rli_field {
  const char *key;
  const char *unit; /* a number's unit: "s", "B", "B/s", "FLOP", "FLOP/s",
                     * "FLOP/B", "Hz"; NULL: a count or a fraction */
  const char *doc;  /* what it means */
  rli_ftype type;
  int shape;
  unsigned flags;
  size_t off, size; /* where the value is in the struct */
  int (*known)(const void *rec);   /* 0: the value is null */
  int (*present)(const void *rec); /* 0: the key is left out */
  double (*get)(const void *rec);  /* a derived value, instead of off */
  /* writes a list or a map (and any value the table cannot hold) */
  void (*put)(rli_out *o, const void *rec, const struct rli_field *f);
  const struct rli_record *sub;    /* RLI_F_OBJ: the items' record */
  size_t n_off; /* a list of records without put (RLI_ITEMS, RLI_ARRAY):
                 * where its int32_t count is; off: the pointer to its
                 * first item (RLI_ARRAY: the array); size: an item's size */
  int32_t n_max; /* RLI_ARRAY: the array's length; 0: RLI_ITEMS */
  const char *(*name)(int32_t);    /* RLI_F_ENUM's words; a map's keys */
  int32_t n_names;                 /* name(0) .. name(n_names - 1) */
} rli_field;

typedef struct rli_record {
  const char *name; /* "measure", "trace_job", "trace_row", ... */
  const char *doc;
  const rli_field *f;
  int32_t n;
} rli_record;

#define RLI_RECORD(var, nm, doc, table) \
  const rli_record var = {nm, doc, table, (int32_t)(sizeof table / sizeof table[0])}
/* The offset and size of member m of struct type T. */
#define RLI_AT(T, m) .off = offsetof(T, m), .size = sizeof(((T *)0)->m)

/* A list of records (type RLI_F_OBJ, sub their record): n items at the
 * pointer member p of struct type T, n an int32_t member. */
#define RLI_ITEMS(T, p, n) \
  .shape = RLI_LIST, .off = offsetof(T, p), .size = sizeof(*((T *)0)->p), .n_off = offsetof(T, n)

/* The same for items held in the struct: the first n (at most the
 * array's length) of array member a of struct type T, n an int32_t
 * member. */
#define RLI_ARRAY(T, a, n)                                                                        \
  .shape = RLI_LIST, .off = offsetof(T, a), .size = sizeof(((T *)0)->a[0]), .n_off = offsetof(T, n), \
  .n_max = (int32_t)(sizeof(((T *)0)->a) / sizeof(((T *)0)->a[0]))

/* The record of rec: "{...}". */
void rli_record_write(rli_out *o, const rli_record *r, const void *rec);
/* One value of field f of rec, as the table says (no key). */
void rli_field_value(rli_out *o, const rli_field *f, const void *rec);
/* A map's key: ",\"word\":" (no comma when *first; clears it). */
void rli_map_key(rli_out *o, const rli_field *f, int32_t k, int *first);
/* put functions for a map over name(0) .. name(n_names - 1) of the array
 * at the field's offset: of doubles (each as the field's flags say), of
 * int32_t. */
void rli_put_num_map(rli_out *o, const void *rec, const rli_field *f);
void rli_put_int_map(rli_out *o, const void *rec, const rli_field *f);
/* The field of r with this key (tests, tools), or NULL. */
const rli_field *rli_record_field(const rli_record *r, const char *key);

extern const rli_record rli_measure_record, rli_job_record, rli_trace_record, rli_trace_row_record;

#endif
