/*
 * test_golden.c -- run every golden case (tests/golden/NAME.golden) in-process
 * through the command's code (cli_main over libroofline), checking the
 * --json output against the expected figures, and error cases against
 * their exit status and one-line message. The same files are run as a
 * subprocess by tests/cli/run_cli_tests.py and through the Python binding.
 * Format: tests/golden/README.md. Run from the repository root.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "core/json.h"
#include "harness.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOK 128

/* Shell-like split: whitespace separates, '...' and "..." quote. Writes
 * NUL-terminated tokens into buf. */
static int split(const char *line, char *buf, size_t cap, char **tok, int max) {
  int n = 0;
  size_t o = 0;
  const char *p = line;
  while (*p) {
    while (*p == ' ' || *p == '\t') p++;
    if (!*p || *p == '\n') break;
    if (n == max) return -1;
    tok[n++] = buf + o;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
      if (*p == '"' || *p == '\'') {
        char q = *p++;
        while (*p && *p != q) { if (o + 1 < cap) buf[o++] = *p; p++; }
        if (*p) p++;
      } else {
        if (o + 1 < cap) buf[o++] = *p;
        p++;
      }
    }
    if (o + 1 < cap) buf[o++] = 0;
  }
  return n;
}

static int cases, case_failures;

__attribute__((format(printf, 3, 0)))
static void fail(const char *file, const char *name, const char *fmt, const char *a, const char *b) {
  harness_failed++;
  case_failures++;
  fprintf(stderr, "%s: %s: ", file, name);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  fprintf(stderr, fmt, a, b);
#pragma GCC diagnostic pop
  fputc('\n', stderr);
}

static void check_value(const char *file, const char *name, const rli_json *root, const char *exp) {
  char path[256], want[512], tol[64];
  const char *eq = strchr(exp, '=');
  if (!eq || (size_t)(eq - exp) >= sizeof path) { fail(file, name, "bad expectation '%s'%s", exp, ""); return; }
  memcpy(path, exp, (size_t)(eq - exp));
  path[eq - exp] = 0;
  const char *v = eq + 1;
  const char *tl = strrchr(v, '~');
  tol[0] = 0;
  if (tl) {
    snprintf(want, sizeof want, "%.*s", (int)(tl - v), v);
    snprintf(tol, sizeof tol, "%s", tl + 1);
  } else {
    snprintf(want, sizeof want, "%s", v);
  }
  const rli_json *j = rli_json_path(root, path);
  if (!j) { fail(file, name, "no '%s' in the output%s", path, ""); return; }
  char *end;
  double w = strtod(want, &end);
  int numeric = *want && !*end;
  if (strcmp(want, "null") == 0) {
    if (j->type == RLI_JSON_NULL) harness_passed++;
    else fail(file, name, "%s: want null%s", path, "");
    return;
  }
  if (strcmp(want, "true") == 0 || strcmp(want, "false") == 0) {
    if (j->type == RLI_JSON_BOOL && j->boolean == (want[0] == 't')) harness_passed++;
    else fail(file, name, "%s: want %s", path, want);
    return;
  }
  if (numeric) {
    if (j->type != RLI_JSON_NUM) { fail(file, name, "%s: not a number (want %s)", path, want); return; }
    double t = 1e-9 * (w == 0 ? 1 : fabs(w));
    if (tol[0]) {
      size_t tlen = strlen(tol);
      double tv = strtod(tol, NULL);
      t = tol[tlen - 1] == '%' ? tv / 100 * fabs(w) : tv;
    }
    if (fabs(j->num - w) <= t) harness_passed++;
    else {
      char got[64];
      snprintf(got, sizeof got, "%.10g", j->num);
      fail(file, name, "got %s, want %s", got, exp);
    }
    return;
  }
  if (j->type != RLI_JSON_STR) { fail(file, name, "%s: not a string (want %s)", path, want); return; }
  if (strcmp(j->str, want) == 0) harness_passed++;
  else fail(file, name, "got '%s', want %s", j->str, exp);
}

static void run_case(const char *file, char *line) {
  char buf[4096];
  char *tok[MAX_TOK];
  int n = split(line, buf, sizeof buf, tok, MAX_TOK);
  if (n <= 0) return;
  const char *name = tok[0];
  int arrow = -1;
  for (int i = 1; i < n; i++)
    if (strcmp(tok[i], "=>") == 0) { arrow = i; break; }
  if (arrow < 2) { fail(file, name, "malformed case (need NAME ARGS => EXPECT)%s%s", "", ""); return; }
  cases++;
  int want_exit = 0;
  const char *want_err = NULL;
  for (int i = arrow + 1; i < n; i++) {
    if (RLI_STARTS(tok[i], "exit=")) want_exit = atoi(tok[i] + RLI_LEN("exit="));
    if (RLI_STARTS(tok[i], "stderr~")) want_err = tok[i] + RLI_LEN("stderr~");
  }
  char *argv[MAX_TOK + 2];
  int argc = 0;
  argv[argc++] = (char *)"roofline";
  for (int i = 1; i < arrow; i++) argv[argc++] = tok[i];
  if (!want_exit) argv[argc++] = (char *)"--json";
  argv[argc] = NULL;
  char *out = NULL, *err = NULL;
  size_t outn = 0, errn = 0;
  FILE *fo = open_memstream(&out, &outn), *fe = open_memstream(&err, &errn);
  int rc = cli_main(argc, argv, fo, fe);
  fclose(fo);
  fclose(fe);
  char rcs[16];
  snprintf(rcs, sizeof rcs, "%d", rc);
  if (want_exit) {
    if (rc != want_exit) fail(file, name, "exit %s, want %s", rcs, tok[arrow + 1] + 5);
    else harness_passed++;
    if (outn) fail(file, name, "printed on stdout on error: %.60s%s", out, "");
    size_t lines = 0;
    for (size_t i = 0; i < errn; i++) lines += err[i] == '\n';
    if (lines != 1) fail(file, name, "stderr is not one line: %s%s", err, "");
    if (want_err && !strstr(err, want_err)) fail(file, name, "stderr '%s' lacks '%s'", err, want_err);
  } else if (rc != 0) {
    fail(file, name, "exit %s: %s", rcs, err);
  } else {
    rli_json *root = NULL;
    rl_error e;
    if (rli_json_parse(out, outn, &root, &e) != RL_OK) {
      fail(file, name, "output is not JSON (%s): %.200s", e.msg, out);
    } else {
      for (int i = arrow + 1; i < n; i++) check_value(file, name, root, tok[i]);
      rli_json_free(root);
    }
  }
  free(out);
  free(err);
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(void) {
  DIR *d = opendir("tests/golden");
  if (!d) { fprintf(stderr, "run from the repository root\n"); return 1; }
  char *names[256];
  int nn = 0;
  struct dirent *de;
  while ((de = readdir(d)) && nn < 256) {
    size_t l = strlen(de->d_name);
    if (l > 7 && strcmp(de->d_name + l - 7, ".golden") == 0) names[nn++] = strdup(de->d_name);
  }
  closedir(d);
  qsort(names, (size_t)nn, sizeof names[0], cmp);
  for (int f = 0; f < nn; f++) {
    char path[512];
    snprintf(path, sizeof path, "tests/golden/%s", names[f]);
    FILE *fp = fopen(path, "r");
    if (!fp) { CHECK(fp != NULL); continue; }
    char line[4096];
    while (fgets(line, sizeof line, fp)) {
      char *p = line;
      while (*p == ' ' || *p == '\t') p++;
      if (*p == '#' || *p == '\n' || !*p) continue;
      run_case(names[f], p);
    }
    fclose(fp);
    free(names[f]);
  }
  printf("golden: %d cases, %d failed checks\n", cases, case_failures);
  CHECK(cases > 0);
  return harness_report("golden");
}
