/*
 * fuzz_inputs.c -- libFuzzer harnesses for the readers of the other files a
 * user hands the tool, and for the parsers of every numeric flag. Built
 * once per target by bench/fuzz with FUZZ_TARGET:
 *
 *   1 config.json      rl_model_from_hf_config, then the model's record
 *   2 hardware CSV     rl_hw_parse_csv (count, then fill), each row's JSON
 *   3 points JSON      rl_plot_points_parse, then the SVG and terminal charts
 *   4 numeric flags    the command itself (cli_main, in memory): the input is
 *                      the value of a count, size, rate or time flag, or of a
 *                      list flag (--batch, --batches, --ws, --hw, --dtype, an
 *                      op spec), chosen by its first byte
 *
 * Every input must end in success or an error whose message is one line;
 * what is accepted is printed, and the print may hold no NaN or infinity
 * outside strings. ASan and UBSan do the rest.
 */
#include "roofline.h"
#include "cli.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_TARGET
#define FUZZ_TARGET 1
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "fuzz_common.h"

static void one_line(const rl_error *e) {
  if (!e->msg[0] || strchr(e->msg, '\n')) abort();
}

#if FUZZ_TARGET == 1
static void run(const uint8_t *data, size_t size) {
  rl_model m;
  rl_error e;
  e.msg[0] = 0;
  if (rl_model_from_hf_config((const char *)data, size, "fuzz", &m, &e) != RL_OK) { one_line(&e); return; }
  size_t n = rl_model_json(&m, -1, NULL, 0);
  char *buf = malloc(n + 1);
  if (!buf) return;
  rl_model_json(&m, -1, buf, n + 1);
  if (bad_number(buf)) abort();
  free(buf);
}
#elif FUZZ_TARGET == 2
static void run(const uint8_t *data, size_t size) {
  int32_t n = 0;
  rl_error e;
  e.msg[0] = 0;
  if (rl_hw_parse_csv((const char *)data, size, NULL, 0, &n, &e) != RL_OK) { one_line(&e); return; }
  rl_hw *hw = calloc((size_t)n, sizeof *hw);
  if (!hw) return;
  int32_t m = 0;
  if (rl_hw_parse_csv((const char *)data, size, hw, n, &m, &e) != RL_OK || m != n) abort();
  for (int32_t i = 0; i < n; i++) {
    char buf[8192];
    size_t need = rl_hw_json(&hw[i], buf, sizeof buf);
    if (need < sizeof buf && bad_number(buf)) abort();
  }
  free(hw);
}
#elif FUZZ_TARGET == 3
static void run(const uint8_t *data, size_t size) {
  rl_plot_roof roof;
  memset(&roof, 0, sizeof roof);
  roof.peak = 989.4e12;
  roof.bandwidth = 3.35e12;
  rl_plot_point *pts = NULL;
  int32_t n = 0;
  rl_error e;
  e.msg[0] = 0;
  if (rl_plot_points_parse((const char *)data, size, &roof, 0, &pts, &n, &e) != RL_OK) {
    one_line(&e);
    if (pts) abort();
    return;
  }
  rl_plot p = rl_plot_init();
  p.roofs = &roof;
  p.n_roofs = 1;
  p.points = pts;
  p.n_points = n;
  for (int term = 0; term < 2; term++) {
    size_t need = term ? rl_plot_term(&p, NULL, 0) : rl_plot_svg(&p, NULL, 0);
    char *buf = malloc(need + 1);
    if (!buf) break;
    if (term) rl_plot_term(&p, buf, need + 1);
    else rl_plot_svg(&p, buf, need + 1);
    free(buf);
  }
  rl_free(pts);
}
#else
/* the flag whose value the input is, by its first byte */
static const char *const cmds[][10] = {
    {"op", "add", "--hw", "h100", "--n", NULL},
    {"op", "matmul", "--hw", "h100", "--n", "8", "--k", "8", "--m", NULL},
    {"kernel", "--flops", "1e9", "--hw", "h100", "--bytes", NULL},
    {"kernel", "--flops", "1e9", "--bytes", "1e6", "--hw", "h100", "--time"},
    {"op", "add", "--n", "10", "--hw", "h100", "--peak", NULL},
    {"decode", "--model", "llama3-8b", "--batch", NULL},
    {"layer", "--batches", NULL},
    {"prefill", "--model", "llama3-8b", "--prompt", NULL},
    {"comm", "allreduce", "--ranks", "8", "--busbw", "100GB/s", "--bytes", NULL},
    {"mfu", "--model", "llama3-8b", "--seq", "4096", "--gpus", "8", "--tokens-per-s"},
    {"plot", "--term", "--preset", "none", NULL},
    {"plot", "--term", "--dtype", NULL},
    {"plot", "--term", "--width", NULL},
    {"trace", "x", "--top", NULL},
};
#define NCMDS (sizeof cmds / sizeof cmds[0])

static void run(const uint8_t *data, size_t size) {
  if (size < 1 || size > 512) return;
  char val[520];
  memcpy(val, data + 1, size - 1);
  val[size - 1] = 0;
  if (strlen(val) != size - 1) return; /* a NUL inside: not an argument */
  const char *const *c = cmds[data[0] % NCMDS];
  char *argv[16];
  int argc = 0;
  argv[argc++] = (char *)(uintptr_t) "roofline";
  for (int i = 0; i < 10 && c[i]; i++) argv[argc++] = (char *)(uintptr_t)c[i];
  argv[argc++] = val; /* the value of the last flag (or an op spec for plot) */
  argv[argc++] = (char *)(uintptr_t) "--json";
  if (!strcmp(c[0], "plot")) argc--; /* plot draws; no --json */
  argv[argc] = NULL;
  char *ob = NULL, *eb = NULL;
  size_t ol = 0, el = 0;
  FILE *out = open_memstream(&ob, &ol), *err = open_memstream(&eb, &el);
  if (!out || !err) abort();
  int rc = cli_main(argc, argv, out, err);
  fclose(out);
  fclose(err);
  if (rc == 2) { /* bad input: one line on stderr, nothing on stdout */
    if (ol || !el || strchr(eb, '\n') != eb + el - 1) abort();
  } else if (rc == 0) {
    /* a JSON document (not help text a value like "--help" asked for) */
    if (strcmp(c[0], "plot") && ob[0] == '{' && bad_number(ob)) abort();
  }
  free(ob);
  free(eb);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  run(data, size);
  return 0;
}
