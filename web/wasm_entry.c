/*
 * wasm_entry.c -- the WebAssembly face of libroofline for the interactive
 * page (web/roofline.html): one exported function that takes the page's
 * state as JSON and returns rl_widget_model's JSON (or {"error": "..."}).
 * Built by `make wasm` (emcc) into web/roofline-core.js; not part of the
 * native library.
 */
#include "roofline.h"

#include <emscripten.h>
#include <stdlib.h>
#include <string.h>

static char *last;

EMSCRIPTEN_KEEPALIVE const char *rlw_model(const char *config) {
  rl_free(last);
  last = NULL;
  rl_error e;
  e.msg[0] = 0;
  last = rl_widget_model(config, config ? strlen(config) : 0, &e);
  if (!last) {
    /* the parameters a message names, as the page's settings are named */
    char msg[2 * RL_ERROR_MSG_MAX];
    rl_msg_spell(e.msg, "", '_', msg, sizeof msg);
    size_t n = rl_json_string(msg, NULL, 0);
    last = malloc(n + 16);
    if (!last) return "{\"error\":\"out of memory\"}";
    memcpy(last, "{\"error\":", 9);
    rl_json_string(msg, last + 9, n + 1);
    strcpy(last + 9 + n, "}");
  }
  return last;
}

EMSCRIPTEN_KEEPALIVE const char *rlw_version(void) { return rl_version(); }
