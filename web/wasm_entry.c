/*
 * wasm_entry.c -- the WebAssembly face of libroofline for the interactive
 * page (web/roofline.html). Built by `make wasm` (emcc) into
 * web/roofline-core.js; not part of the native library. Every answer is a
 * JSON text (or {"error": "..."}) valid until the next call of the same
 * function.
 *
 *   rlw_model(config)         rl_widget_model: the one-layer chart's state
 *   rlw_hw_file(data, len, name)
 *                             the page's --hw-file: hardware rows in the
 *                             database's CSV form (what `roofline measure
 *                             --save-hw` writes), parsed by the CLI's own
 *                             reader (rl_hw_parse_csv) and kept for the
 *                             traces that follow: {"file", "rows": [{"id",
 *                             "name", "measured", "threads"}]} or {"error"}
 *                             as the CLI words it; len 0 forgets them
 *   rlw_models()              the built-in models (data/models.csv, compiled
 *                             in): rl_model_list_json, the document
 *                             `roofline model list --json` prints
 *   rlw_trace(data, len, name, hw, model, cap, cap_len, cap_name)
 *                             a profile read from memory by the core's own
 *                             readers (src/io/trace_src.c, built without
 *                             zlib: the page inflates .gz with the
 *                             browser's DecompressionStream), analysed, and
 *                             written by rl_trace_json -- the very object
 *                             `roofline trace FILE --json` prints; hw ""
 *                             takes the file's device, as without --hw (a
 *                             CPU profile: the hardware file's row for its
 *                             processor and threads, rl_trace_measured_hw,
 *                             as `--hw measured --hw-file`); model
 *                             "" none, else `--model NAME`: the model the
 *                             trace ran, its MoE ops' experts (trace_model
 *                             below: rl_model_find, rl_trace_set_model, the
 *                             CLI's path and messages); cap_len 0 no capture,
 *                             else `--capture CAP_NAME`: the CUDA-graph
 *                             captures profiled apart (vLLM, SGLang), the
 *                             text put in the page's memory file system
 *                             under its name and read by
 *                             rl_trace_read_capture before the run, as
 *                             cmd_trace.c reads it (capture_put below)
 *   rlw_capture_probe(data, len, name)
 *                             1 when rl_trace_read_capture takes the file
 *                             (it holds CUDA-graph captures), else 0: which
 *                             of two files dropped together is the capture
 *                             of the other, asked of the reader itself
 *   rlw_trace_chart(top)      the last trace's chart, built as `roofline
 *                             trace --plot` builds it (cli/charts.c:
 *                             chart_trace_all): {"svg", "points": [{"row"
 *                             (index in "rows") or "coll" (in
 *                             "collectives"), "label"}], "hw": the device's
 *                             rl_hw_json record}
 *   rlw_job_start(n, model) / rlw_job_add(i, data, len, name) / rlw_job_finish()
 *                             several ranks' files: rl_job_read_buffer per
 *                             file, then rl_job_json -- `roofline trace
 *                             FILE... [--model NAME] --json`; rlw_job_start
 *                             answers {} or {"error"} (an unknown model)
 *   rlw_job_capture_of(path) / rlw_job_read(i, path)
 *                             a rank with its CUDA-graph captures, as a
 *                             folder job pairs them: its text and its
 *                             capture's put in the page's memory file system
 *                             (rlw_put_file), RUN.capture.json(.gz) beside
 *                             RUN.json(.gz) found by rl_job_capture_of (""
 *                             none) and the rank read by rl_job_read, which
 *                             reads that capture first -- the CLI's path
 *   rlw_remove_file(path)     unlink: a file put there, once read
 *   rlw_quantity(v, unit)     rl_format_quantity, as the CLI prints figures
 *   rlw_kernel_name(name, flags, cap)
 *                             rl_kernel_display_name, as the CLI's tables
 *                             show a kernel's or op's name, in cap bytes
 *   rlw_put_file(path, data, len)
 *                             a file in the page's memory file system (a
 *                             config.json dropped or pasted), for rlw_cli
 *   rlw_cli(args)             the command itself, cli_main (cli/cli.c), on a
 *                             JSON array of its arguments: {"status", "out",
 *                             "err"} -- `decode --model FILE --json` in the
 *                             page prints what it prints in a terminal.
 *                             `measure` times the machine it runs on and
 *                             `widget` writes this page (which holds this
 *                             core): both are refused here (cmd_measure,
 *                             cmd_widget below), naming the command to run
 *                             in a terminal instead.
 *   rlw_version()
 *
 * Nsight Systems exports are SQLite databases; SQLite is not compiled into
 * the page (Debian ships no SQLite source to build for WebAssembly, and
 * nothing may download at build time), so rli_read_nsys here names the
 * command to run instead.
 */
#include "roofline.h"
#include "io/trace_io.h"
#include "../cli/charts.h"
#include "../cli/cli.h"
#include "core/json.h"

#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *take(char **slot, char *s) {
  free(*slot);
  *slot = s;
  return s;
}

static char *error_json(const char *msg) {
  size_t n = rl_json_string(msg, NULL, 0);
  char *s = malloc(n + 16);
  if (!s) return NULL;
  const size_t k = RLI_LEN("{\"error\":");
  memcpy(s, "{\"error\":", k);
  rl_json_string(msg, s + k, n + 1);
  strcpy(s + k + n, "}");
  return s;
}

static const char *answer(char **slot, char *s) {
  take(slot, s);
  return s ? s : "{\"error\":\"out of memory\"}";
}

/* a message as the CLI prints it: the parameters it names as flags (`hw` -> --hw) */
static char *fail(const rl_error *e) {
  char msg[2 * RL_ERROR_MSG_MAX];
  rl_msg_spell(e->msg, "--", '-', msg, sizeof msg);
  return error_json(msg);
}

/* pre (the file's name, the flag) before the core's message, whole: the
 * CLI prints them into one line of any length (cli_error) */
static char *fail_after(const char *pre, const rl_error *e) {
  char m[1024 + RL_ERROR_MSG_MAX], msg[2 * sizeof m];
  snprintf(m, sizeof m, "%s%s", pre, e->msg);
  rl_msg_spell(m, "--", '-', msg, sizeof msg);
  return error_json(msg);
}

/* The document the CLI prints for a record (cli.c, print_json_doc): the
 * schema version and the command before the record's keys, or before
 * "rows" holding an array. Frees text. */
static char *document(const char *cmd, char *text) {
  if (!text) return NULL;
  size_t n = strlen(text);
  char *s = malloc(n + strlen(cmd) + 64);
  if (s && text[0] != '{') {
    snprintf(s, n + strlen(cmd) + 64, "{\"schema_version\":%d,\"command\":\"%s\",\"rows\":%s}", CLI_SCHEMA_VERSION,
             cmd, text);
  } else if (s) {
    const char *rest = text + 1;
    while (*rest == ' ') rest++;
    snprintf(s, n + strlen(cmd) + 64, "{\"schema_version\":%d,\"command\":\"%s\"%s%s", CLI_SCHEMA_VERSION, cmd,
             *rest != '}' ? "," : "", rest);
  }
  free(text);
  return s;
}

/* ---- the one-layer chart ----------------------------------------------------- */
static char *last_model;

EMSCRIPTEN_KEEPALIVE const char *rlw_model(const char *config) {
  rl_error e;
  e.msg[0] = 0;
  char *s = rl_widget_model(config, config ? strlen(config) : 0, &e);
  if (s) return answer(&last_model, s);
  /* the parameters a message names, as the page's settings are named */
  char msg[2 * RL_ERROR_MSG_MAX];
  rl_msg_spell(e.msg, "", '_', msg, sizeof msg);
  return answer(&last_model, error_json(msg));
}

/* grows a text; *ok = 0 once out of memory */
typedef struct sbuf {
  char *p;
  size_t n, cap;
  int ok;
} sbuf;

static void put(sbuf *b, const char *s, size_t n) {
  if (!b->ok) return;
  if (b->n + n + 1 > b->cap) {
    size_t c = b->cap ? b->cap : 4096;
    while (c < b->n + n + 1) c *= 2;
    char *q = realloc(b->p, c);
    if (!q) { b->ok = 0; return; }
    b->p = q, b->cap = c;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}

static void puts_(sbuf *b, const char *s) { put(b, s, strlen(s)); }

static void put_json_string(sbuf *b, const char *s) {
  size_t n = rl_json_string(s, NULL, 0);
  char *q = malloc(n + 1);
  if (!q) { b->ok = 0; return; }
  rl_json_string(s, q, n + 1);
  put(b, q, n);
  free(q);
}

/* ---- the hardware file: the page's --hw-file ------------------------------------ */
static struct {
  rl_hw *rows;
  int32_t n;
  char name[512];
} hwf;
static char *last_hwf;

/* cli.c's load_hw_file, from memory: the same reader, the same message */
EMSCRIPTEN_KEEPALIVE const char *rlw_hw_file(const char *data, size_t len, const char *name) {
  free(hwf.rows);
  memset(&hwf, 0, sizeof hwf);
  if (!data || !len) return answer(&last_hwf, error_json("no hardware file"));
  snprintf(hwf.name, sizeof hwf.name, "%s", name && *name ? name : "(hardware file)");
  rl_error e;
  e.msg[0] = 0;
  int32_t n = 0;
  rl_status st = rl_hw_parse_csv(data, len, NULL, 0, &n, &e);
  rl_hw *rows = NULL;
  if (st == RL_OK && !(rows = calloc(n > 0 ? (size_t)n : 1, sizeof *rows))) return answer(&last_hwf, NULL);
  if (st == RL_OK) st = rl_hw_parse_csv(data, len, rows, n, &n, &e);
  if (st != RL_OK) {
    free(rows);
    char m[sizeof e.msg + 600];
    snprintf(m, sizeof m, "--hw-file %s: %s", hwf.name, e.msg);
    hwf.name[0] = 0;
    return answer(&last_hwf, error_json(m));
  }
  hwf.rows = rows, hwf.n = n;
  sbuf b = {NULL, 0, 0, 1};
  puts_(&b, "{\"file\":");
  put_json_string(&b, hwf.name);
  puts_(&b, ",\"rows\":[");
  for (int32_t i = 0; i < n; i++) {
    puts_(&b, i ? ",{\"id\":" : "{\"id\":");
    put_json_string(&b, rows[i].id);
    puts_(&b, ",\"name\":");
    put_json_string(&b, rows[i].name);
    char h[64];
    snprintf(h, sizeof h, ",\"measured\":%s,\"threads\":%d}", rl_hw_measured(&rows[i]) ? "true" : "false",
             (int)rl_hw_measured_threads(&rows[i]));
    puts_(&b, h);
  }
  puts_(&b, "]}");
  if (!b.ok) { free(b.p); return answer(&last_hwf, NULL); }
  return answer(&last_hwf, b.p);
}

/* ---- the model a trace ran: `trace --model NAME` ---------------------------------- */
static char *last_models;

EMSCRIPTEN_KEEPALIVE const char *rlw_models(void) {
  size_t n = rl_model_list_json(NULL, 0);
  char *s = malloc(n + 1);
  if (s) rl_model_list_json(s, n + 1);
  return answer(&last_models, document("model list", s));
}

/* cmd_trace.c's --model NAME for a built-in model (the page has no
 * config.json path to give): rl_model_find (an id, one of its Hugging Face
 * ids or an unambiguous fragment), then rl_trace_set_model on t, which
 * refuses a dense model; a failure is the CLI's line, "--model: ..." (t
 * NULL: the check cmd_trace.c makes on a probe trace before any file). */
static char *trace_model(const char *name, rl_trace *t, rl_model *m) {
  rl_error e;
  e.msg[0] = 0;
  rl_status st = rl_model_find(name, m, &e);
  if (st == RL_OK) {
    rl_trace *probe = t ? t : rl_trace_new(-1);
    st = probe ? rl_trace_set_model(probe, m, &e) : RL_ENOMEM;
    if (probe != t) rl_trace_free(probe);
    if (st == RL_ENOMEM) return error_json("out of memory");
  }
  if (st == RL_OK) return NULL;
  char *s = fail_after("--model: ", &e);
  return s ? s : error_json("out of memory");
}

/* ---- one trace ---------------------------------------------------------------- */
static struct {
  rl_trace *t;
  rl_hw hw;
  rl_trace_summary s;
  char name[512];
} tr;
static char *last_trace, *last_chart;

rl_status rli_read_nsys(rl_trace *t, const char *path, const void *mem, size_t len, const char *label,
                        rl_error *err) {
  (void)t, (void)mem, (void)len;
  return rli_fail(err, RL_EPARSE,
                  "%s: an Nsight Systems SQLite export, which this page cannot read (SQLite is not compiled "
                  "into it): run `roofline trace %s`",
                  label ? label : path, label ? label : path);
}

/* A capture file's text in the page's memory file system, under the name
 * the page gave (as the CLI names the path it was given), for
 * rl_trace_read_capture, which reads a path: the CLI's own function, so
 * its rules and messages are the CLI's. 0, or -1 when it cannot be held
 * (err set). The caller removes it (unlink) once read. */
EMSCRIPTEN_KEEPALIVE int rlw_put_file(const char *path, const void *data, size_t len);

static int capture_put(const char *name, const void *data, size_t len, char *path, size_t cap, rl_error *e) {
  snprintf(path, cap, "%s", name && *name ? name : "(capture file)");
  struct stat sb;
  if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
    rli_fail(e, RL_EIO, "%s: not a regular file", path);
    return -1;
  }
  if (rlw_put_file(path, data, len) != 0) {
    unlink(path);
    rli_fail(e, RL_ENOMEM, "%s: out of memory", path);
    return -1;
  }
  return 0;
}

EMSCRIPTEN_KEEPALIVE int rlw_capture_probe(const void *data, size_t len, const char *name) {
  char path[1024];
  rl_error e;
  if (!data || !len || capture_put(name, data, len, path, sizeof path, &e)) return 0;
  rl_trace *t = rl_trace_new(-1);
  int yes = t && rl_trace_read_capture(t, path, &e) == RL_OK;
  rl_trace_free(t);
  unlink(path);
  return yes;
}

EMSCRIPTEN_KEEPALIVE const char *rlw_trace(const void *data, size_t len, const char *name, const char *hw_id,
                                            const char *model, const void *cap, size_t cap_len,
                                            const char *cap_name) {
  rl_trace_free(tr.t);
  memset(&tr, 0, sizeof tr);
  rl_error e;
  e.msg[0] = 0;
  snprintf(tr.name, sizeof tr.name, "%s", name && *name ? name : "(dropped file)");
  tr.t = rl_trace_new(-1);
  if (!tr.t) return answer(&last_trace, error_json("out of memory"));
  if (model && *model) { /* before the read, as the CLI names it */
    rl_model m;
    char *err = trace_model(model, tr.t, &m);
    if (err) {
      rl_trace_free(tr.t);
      tr.t = NULL;
      return answer(&last_trace, err);
    }
  }
  if (cap && cap_len) { /* --capture, after the model and before the run, as cmd_trace.c's resolve */
    char path[1024];
    rl_status cst = capture_put(cap_name, cap, cap_len, path, sizeof path, &e) ? RL_EIO
                                                                                : rl_trace_read_capture(tr.t, path, &e);
    unlink(path);
    if (cst != RL_OK) {
      rl_trace_free(tr.t);
      tr.t = NULL;
      return answer(&last_trace, fail(&e));
    }
  }
  rl_status st = rl_trace_read_buffer(tr.t, data, len, RL_TRACE_AUTO, tr.name, &e);
  rl_trace_info info;
  if (st == RL_OK) rl_trace_get_info(tr.t, &info);
  /* a CPU profile's roofs as cmd_trace.c's cpu_hw picks them: --hw ID that
   * row; else (--hw measured) the hardware file's row measured on its
   * processor with its threads, refused as the CLI refuses it */
  int measured = 0;
  char pre[1024] = ""; /* the failure's prefix */
  for (int32_t i = 0; i < hwf.n; i++) measured |= rl_hw_measured(&hwf.rows[i]);
  if (st == RL_OK) {
    if (hw_id && *hw_id && !(info.cpu && strcmp(hw_id, "measured") == 0)) {
      st = rl_hw_find(hw_id, hwf.rows, hwf.n, &tr.hw, &e);
    } else if (info.cpu && measured) {
      if ((st = rl_trace_measured_hw(tr.t, hwf.rows, hwf.n, &tr.hw, &e)) != RL_OK)
        snprintf(pre, sizeof pre, "%s: --hw-file: ", tr.name);
    } else if (info.cpu) { /* the page measures nothing: no threads, no timer to trust */
      st = RL_EINVAL;
      snprintf(pre, sizeof pre, "%s: ", tr.name);
      snprintf(e.msg, sizeof e.msg,
               "a CPU profile needs this machine's roofs: --hw-file with a row of roofline measure --save-hw "
               "(choose that CSV as the hardware file beside the profile, or run roofline trace FILE --hw "
               "measured --hw-file ROW.csv)");
    } else if ((st = rl_trace_hw(tr.t, &tr.hw, &e)) != RL_OK) {
      snprintf(pre, sizeof pre, "%s: ", tr.name);
    }
  }
  if (st == RL_OK && (st = rl_trace_analyze(tr.t, &tr.hw, &tr.s, &e)) != RL_OK)
    snprintf(pre, sizeof pre, "%s: ", tr.name);
  if (st != RL_OK) {
    rl_trace_free(tr.t);
    tr.t = NULL;
    return answer(&last_trace, fail_after(pre, &e));
  }
  size_t n = rl_trace_json(tr.t, &tr.hw, &tr.s, 0, NULL, 0);
  char *s = malloc(n + 1);
  if (s) rl_trace_json(tr.t, &tr.hw, &tr.s, 0, s, n + 1);
  return answer(&last_trace, document("trace", s));
}

EMSCRIPTEN_KEEPALIVE const char *rlw_trace_chart(int top) {
  if (!tr.t) return answer(&last_chart, error_json("no trace read"));
  if (top < 1) top = 10;
  int32_t nk = 0;
  const rl_trace_row *rk = rl_trace_rows(tr.t, RL_TRACE_BY_KERNEL, &nk);
  chart_data *c = malloc(sizeof *c);
  if (!c) return answer(&last_chart, NULL);
  sbuf b = {NULL, 0, 0, 1};
  puts_(&b, "{\"svg\":");
  if (chart_trace_all(&tr.hw, tr.t, rk, nk, top, tr.name, c) == 0) {
    rl_plot pl = chart_plot(c);
    size_t len = rl_plot_svg(&pl, NULL, 0);
    char *svg = malloc(len + 1);
    if (svg) {
      rl_plot_svg(&pl, svg, len + 1);
      put_json_string(&b, svg);
      free(svg);
    } else {
      b.ok = 0;
    }
    puts_(&b, ",\"points\":[");
    for (int32_t i = 0; i < c->n_points; i++) {
      char h[48];
      snprintf(h, sizeof h, "%s{\"%s\":%d,\"label\":", i ? "," : "", c->from[i] >= 0 ? "row" : "coll",
               (int)(c->from[i] >= 0 ? c->from[i] : -1 - c->from[i]));
      puts_(&b, h);
      put_json_string(&b, c->points[i].label);
      puts_(&b, "}");
    }
    puts_(&b, "]");
  } else {
    puts_(&b, "null,\"points\":[],\"why\":");
    char m[600];
    snprintf(m, sizeof m, "no kernel of %s has F, Q and a time to place", tr.name);
    put_json_string(&b, m);
  }
  free(c);
  size_t hn = rl_hw_json(&tr.hw, NULL, 0);
  char *hj = malloc(hn + 1);
  if (hj) {
    rl_hw_json(&tr.hw, hj, hn + 1);
    puts_(&b, ",\"hw\":");
    put(&b, hj, hn);
    free(hj);
  } else {
    b.ok = 0;
  }
  puts_(&b, "}");
  if (!b.ok) {
    free(b.p);
    return answer(&last_chart, NULL);
  }
  return answer(&last_chart, b.p);
}

/* ---- several ranks' traces: a job ---------------------------------------------- */
static rl_job *job;
static rl_model job_model; /* rl_job_opts.model: it outlives the job */
static char *last_job, *last_job_start;

EMSCRIPTEN_KEEPALIVE const char *rlw_job_start(int n, const char *model) {
  rl_job_free(job);
  job = NULL;
  rl_job_opts o = rl_job_opts_init();
  if (model && *model) {
    char *err = trace_model(model, NULL, &job_model);
    if (err) return answer(&last_job_start, err);
    o.model = &job_model;
  }
  job = n > 0 ? rl_job_new(&o, n) : NULL;
  if (!job) return answer(&last_job_start, error_json(n > 0 ? "out of memory" : "no files"));
  return answer(&last_job_start, strdup("{}"));
}

/* file i's bytes: 0, or the rl_status of its read (the job goes on) */
EMSCRIPTEN_KEEPALIVE int rlw_job_add(int i, const void *data, size_t len, const char *name) {
  if (!job) return RL_EINVAL;
  rl_error e;
  return (int)rl_job_read_buffer(job, i, name && *name ? name : "(dropped file)", data, len, &e);
}

/* the capture file a folder job reads with the rank at path (its name in the
 * page's memory file system): rl_job_capture_of, "" none */
EMSCRIPTEN_KEEPALIVE const char *rlw_job_capture_of(const char *path) {
  static char out[1024];
  if (!path || !rl_job_capture_of(path, out, sizeof out)) out[0] = 0;
  return out;
}

/* rank i from the file at path (put there with its capture beside it):
 * 0, or the rl_status of its read (the job goes on) */
EMSCRIPTEN_KEEPALIVE int rlw_job_read(int i, const char *path) {
  if (!job) return RL_EINVAL;
  rl_error e;
  return (int)rl_job_read(job, i, path, &e);
}

EMSCRIPTEN_KEEPALIVE int rlw_remove_file(const char *path) { return path ? unlink(path) : -1; }

/* `roofline trace FILE... --json`'s document, or {"error"} */
EMSCRIPTEN_KEEPALIVE const char *rlw_job_finish(void) {
  if (!job) return answer(&last_job, error_json("no job started"));
  rl_error e;
  e.msg[0] = 0;
  if (rl_job_finish(job, &e) != RL_OK) return answer(&last_job, fail(&e));
  size_t n = rl_job_json(job, NULL, 0);
  char *s = malloc(n + 1);
  if (s) rl_job_json(job, s, n + 1);
  return answer(&last_job, document("trace job", s));
}

/* ---- the command ---------------------------------------------------------------- */
static int measure_refused(cli_ctx *ctx, int argc, char **argv) {
  (void)argc, (void)argv;
  return cli_error(ctx, "measure times the hardware it runs on, which a web page cannot do: run `roofline measure` "
                        "in a terminal");
}

const cli_command cmd_measure = {"measure", measure_refused,
                                 "(not in the page: run `roofline measure` in a terminal)",
                                 "usage: roofline measure ...\n  Not in the page: it times the machine it runs on; "
                                 "run it in a terminal.\n"};

static int widget_refused(cli_ctx *ctx, int argc, char **argv) {
  (void)argc, (void)argv;
  return cli_error(ctx, "widget writes this page: run `roofline widget -o FILE.html` in a terminal");
}

const cli_command cmd_widget = {"widget", widget_refused, "(not in the page: it writes this page)",
                                "usage: roofline widget ...\n  Not in the page: it writes this page; run it in "
                                "a terminal.\n"};

static char *last_cli;

EMSCRIPTEN_KEEPALIVE int rlw_put_file(const char *path, const void *data, size_t len) {
  /* its folders first (the page's own file system: /models/NAME) */
  char dir[512];
  snprintf(dir, sizeof dir, "%s", path);
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(dir, 0777);
      *p = '/';
    }
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int ok = fwrite(data, 1, len, f) == len;
  return fclose(f) == 0 && ok ? 0 : -1;
}

/* args: a JSON array of strings, without the program's name */
EMSCRIPTEN_KEEPALIVE const char *rlw_cli(const char *args) {
  rli_json *j = NULL;
  rl_error e;
  if (!args || rli_json_parse(args, strlen(args), &j, &e) != RL_OK || j->type != RLI_JSON_ARR) {
    rli_json_free(j);
    return answer(&last_cli, error_json("rlw_cli: the arguments must be a JSON array of strings"));
  }
  size_t n = j->n;
  char **argv = calloc(n + 2, sizeof *argv);
  if (!argv) { rli_json_free(j); return answer(&last_cli, NULL); }
  argv[0] = "roofline";
  for (size_t i = 0; i < n; i++) {
    if (j->kids[i].type != RLI_JSON_STR) {
      free(argv);
      rli_json_free(j);
      return answer(&last_cli, error_json("rlw_cli: the arguments must be a JSON array of strings"));
    }
    argv[i + 1] = j->kids[i].str;
  }
  char *ob = NULL, *eb = NULL;
  size_t on = 0, en = 0;
  FILE *out = open_memstream(&ob, &on), *err = open_memstream(&eb, &en);
  int rc = -1;
  if (out && err) rc = cli_main((int)n + 1, argv, out, err);
  if (out) fclose(out);
  if (err) fclose(err);
  free(argv);
  rli_json_free(j);
  sbuf b = {NULL, 0, 0, 1};
  char h[48];
  snprintf(h, sizeof h, "{\"status\":%d,\"out\":", rc);
  puts_(&b, h);
  put_json_string(&b, ob ? ob : "");
  puts_(&b, ",\"err\":");
  put_json_string(&b, eb ? eb : "");
  puts_(&b, "}");
  free(ob);
  free(eb);
  if (!b.ok) { free(b.p); return answer(&last_cli, NULL); }
  return answer(&last_cli, b.p);
}

/* a quantity as the CLI prints it (rl_format_quantity); unit: rl_unit */
EMSCRIPTEN_KEEPALIVE const char *rlw_quantity(double v, int unit) {
  static char b[64];
  rl_format_quantity(v, (rl_unit)unit, b, sizeof b);
  return b;
}

EMSCRIPTEN_KEEPALIVE const char *rlw_kernel_name(const char *name, int flags, int cap) {
  static char b[4096]; /* a page's cell: names longer than cap end in "..." */
  size_t c = cap < 8 ? 8 : cap > (int)sizeof b ? sizeof b : (size_t)cap;
  rl_kernel_display_name(name, b, c, flags);
  return b;
}

EMSCRIPTEN_KEEPALIVE const char *rlw_version(void) { return rl_version(); }
