/*
 * json.h -- a small JSON reader (RFC 8259) for configuration-sized
 * documents: Hugging Face config.json files, points files, test outputs.
 * Builds a tree in memory; for multi-gigabyte traces the trace readers use
 * their own streaming tokenizer instead. Internal (rli_), pure: the caller
 * supplies the text.
 */
#ifndef RL_JSON_H
#define RL_JSON_H

#include "core/internal.h"

typedef enum rli_json_type {
  RLI_JSON_NULL,
  RLI_JSON_BOOL,
  RLI_JSON_NUM,
  RLI_JSON_STR,
  RLI_JSON_ARR,
  RLI_JSON_OBJ
} rli_json_type;

typedef struct rli_json rli_json;
struct rli_json {
  rli_json_type type;
  int boolean;     /* RLI_JSON_BOOL */
  double num;      /* RLI_JSON_NUM */
  char *str;       /* RLI_JSON_STR: UTF-8, NUL-terminated */
  size_t n;        /* RLI_JSON_ARR / RLI_JSON_OBJ: number of children */
  rli_json *kids;  /* children */
  char **keys;     /* RLI_JSON_OBJ: the key of each child */
};

/* Parse a whole document. On error, err names the byte offset and what is
 * wrong ("byte 120: expected ',' or '}'"). Free the result with
 * rli_json_free. Nesting deeper than 512 levels is refused. */
rl_status rli_json_parse(const char *text, size_t len, rli_json **out,
                         rl_error *err);
/* The same, refusing an array or object of more than max_kids elements as
 * soon as it is met (a cap on the memory a hostile file can take). */
rl_status rli_json_parse_capped(const char *text, size_t len, size_t max_kids, rli_json **out, rl_error *err);
void rli_json_free(rli_json *j);

/* The member `key` of an object (the last one when given twice), or NULL. */
const rli_json *rli_json_get(const rli_json *obj, const char *key);
/* Walk a dotted path: "rows.0.batch" (numbers index arrays). NULL when a
 * step is missing. */
const rli_json *rli_json_path(const rli_json *root, const char *path);

#endif
