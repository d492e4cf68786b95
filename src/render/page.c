/*
 * page.c -- the self-contained interactive page (`roofline widget`): the
 * HTML, its script and the roofline library compiled to WebAssembly
 * (web/roofline-core.js), embedded at build time by tools/gen_page.py,
 * with the caller's initial state inserted as a JSON object.
 */
#include "core/internal.h"
#include "core/json.h"

#include <string.h>

#include "page_data.inc"

size_t rl_widget_page(const char *config, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  rli_out_puts(&o, page_head);
  /* a JSON object, or {} when the config is missing or not one */
  int ok = 0;
  if (config) {
    rli_json *j = NULL;
    rl_error e;
    if (rli_json_parse(config, strlen(config), &j, &e) == RL_OK) {
      ok = j->type == RLI_JSON_OBJ;
      rli_json_free(j);
    }
  }
  if (!ok) {
    rli_out_puts(&o, "{}");
  } else {
    /* valid JSON has <, > and & only inside strings, where \u escapes mean
     * the same: so the text cannot close the script element */
    for (const char *p = config; *p; p++) {
      if (*p == '<') rli_out_puts(&o, "\\u003c");
      else if (*p == '>') rli_out_puts(&o, "\\u003e");
      else if (*p == '&') rli_out_puts(&o, "\\u0026");
      else {
        char c[2] = {*p, 0};
        rli_out_puts(&o, c);
      }
    }
  }
  rli_out_puts(&o, page_tail);
  return rli_out_end(&o);
}
