/*
 * test_options.c -- every option a command's parser takes has its one
 * declaration (cli/options.c) with a help line, and the command's --help
 * shows it; no declaration names a command that does not take it; every
 * reference in a help text ("@--NAME", "{--NAME}") resolves.
 *
 * trace's --help names every coverage reason in the report's words
 * (rl_trace_reason_name) and the op table's counts, as docs/trace.md does.
 *
 * Each command is run with ctx.probe set: its parser (cli_parse) lists the
 * options it takes instead of parsing, so the test reads the parser's own
 * tables, not a copy of them.
 */
#include "harness.h"

#include "cli.h"
#include "core/trace_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static size_t n_defs(void) {
  size_t n = 0;
  while (cli_optdefs[n].name) n++;
  return n;
}

/* The names command c's parser takes, one a line (malloc'd). */
static char *probe(const cli_command *c, FILE *null) {
  char *buf = NULL;
  size_t len = 0;
  FILE *pr = open_memstream(&buf, &len);
  cli_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.out = ctx.err = null;
  ctx.cmd = c->name;
  ctx.probe = pr;
  char name[32];
  snprintf(name, sizeof name, "%s", c->name);
  char *argv[] = {name, NULL};
  int rc = c->run(&ctx, 1, argv);
  free(ctx.extra);
  fclose(pr);
  if (rc != CLI_PROBE) {
    fprintf(stderr, "roofline %s: its parser was not reached (exit %d)\n", c->name, rc);
    harness_failed++;
  }
  return buf;
}

static int listed(const char *names, const char *name) {
  size_t n = strlen(name);
  for (const char *p = names; (p = strstr(p, name)) != NULL; p += n)
    if ((p == names || p[-1] == '\n') && p[n] == '\n') return 1;
  return 0;
}

static void test_every_flag_has_its_help(void) {
  FILE *null = fopen("/dev/null", "w");
  const size_t nd = n_defs();
  unsigned char *used = calloc(nd, 1);
  int pairs = 0;
  for (int i = 0; cli_commands[i]; i++) {
    const cli_command *c = cli_commands[i];
    memset(used, 0, nd);
    int missing = cli_put_help(null, c, used);
    if (missing) fprintf(stderr, "roofline %s --help: %d references without a declaration\n", c->name, missing);
    CHECK(missing == 0);
    char *names = probe(c, null);
    for (char *p = names, *nl; p && (nl = strchr(p, '\n')); p = nl + 1) {
      *nl = 0;
      const cli_optdef *d = cli_optdef_find(c->name, p);
      /* op's shape flags are the op schema's, listed by "@ops" (rl_op_help) */
      if (!d && strcmp(c->name, "op") == 0 && rl_op_field_type(p, NULL) != 0) { *nl = '\n'; continue; }
      pairs++;
      if (!d) {
        fprintf(stderr, "roofline %s --%s: no declaration in cli/options.c\n", c->name, p);
        harness_failed++;
      } else if (!d->help[0] || !used[d - cli_optdefs]) {
        fprintf(stderr, "roofline %s --%s: not in its --help\n", c->name, p);
        harness_failed++;
      } else {
        harness_passed++;
      }
      *nl = '\n';
    }
    /* a declaration for this command: its parser takes it (common flags:
     * every parser, through cli_parse) */
    for (const cli_optdef *d = cli_optdefs; d->name; d++) {
      if (!cli_optdef_takes(d, c->name) || strcmp(d->cmds, "*") == 0) continue;
      if (cli_optdef_find(c->name, d->name) != d) {
        fprintf(stderr, "roofline %s --%s: declared twice\n", c->name, d->name);
        harness_failed++;
      } else if (!listed(names ? names : "", d->name) && strcmp(d->name, "json") && strcmp(d->name, "csv")) {
        fprintf(stderr, "roofline %s --%s: declared, but its parser does not take it\n", c->name, d->name);
        harness_failed++;
      }
    }
    free(names);
  }
  /* the options the parsers take, every command together: a count that a
   * lost table would change */
  CHECK(pairs > 150);
  free(used);
  fclose(null);
}

/* The common flags are named in the overview; their declarations exist. */
static void test_common(void) {
  const char *common[] = {"json", "csv", "hw-file", "help"};
  for (size_t i = 0; i < sizeof common / sizeof common[0]; i++) {
    const cli_optdef *d = cli_optdef_find("op", common[i]);
    CHECK(d && d->help[0]);
  }
  CHECK(cli_optdef_find("trace", "jobs") && cli_optdef_find("trace", "jobs")->letter == 'j');
  CHECK(cli_optdef_find("plot", "output") && cli_optdef_find("plot", "output")->letter == 'o');
}

/* Text with every run of white space (a line break and the next line's
 * indent) made one space, as a reader reads wrapped help (malloc'd). */
static char *one_line(const char *s) {
  char *o = malloc(strlen(s) + 1), *q = o;
  for (; *s; s++) {
    if (isspace((unsigned char)*s)) {
      if (q > o && q[-1] != ' ') *q++ = ' ';
    } else {
      *q++ = *s;
    }
  }
  *q = 0;
  return o;
}

static char *file_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) fwrite(chunk, 1, n, m);
  fclose(f);
  fclose(m);
  return buf;
}

/* The number written before `after` in text ("for 205 ATen ops"), or -1. */
static long count_before(const char *text, const char *after) {
  const char *p = strstr(text, after);
  if (!p) return -1;
  const char *d = p;
  while (d > text && isdigit((unsigned char)d[-1])) d--;
  return d < p ? strtol(d, NULL, 10) : -1;
}

/* trace --help says why uncovered time is uncovered in the words the
 * report prints, every reason of the core, quoted ('compiled region'); and
 * the counts of the ATen op table (src/core/trace_aten.c's table[]: ATen's
 * names, and FBGEMM's, "fbgemm::...") that it and docs/trace.md state. */
static void test_trace_help(void) {
  const cli_command *c = NULL;
  for (int i = 0; cli_commands[i]; i++)
    if (strcmp(cli_commands[i]->name, "trace") == 0) c = cli_commands[i];
  CHECK(c != NULL);
  if (!c) return;
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  unsigned char *used = calloc(n_defs(), 1);
  cli_put_help(m, c, used);
  fclose(m);
  free(used);
  char *help = one_line(buf);
  for (int32_t r = 0; r < RL_REASON_COUNT; r++) {
    char quoted[128];
    snprintf(quoted, sizeof quoted, "'%s'", rl_trace_reason_name(r));
    if (strstr(help, quoted)) {
      harness_passed++;
    } else {
      fprintf(stderr, "roofline trace --help: coverage reason %d, %s, not named\n", r, quoted);
      harness_failed++;
    }
  }
  long aten = 0, fbgemm = 0;
  for (size_t i = 0; rli_aten_name(i); i++) {
    if (strncmp(rli_aten_name(i), "fbgemm::", 8) == 0) fbgemm++;
    else if (!strstr(rli_aten_name(i), "::")) aten++;
  }
  CHECK(aten > 150 && fbgemm > 0);
  long said = count_before(help, " ATen ops: ");
  if (said != aten) fprintf(stderr, "roofline trace --help: \"for %ld ATen ops\", the table has %ld\n", said, aten);
  CHECK(said == aten);
  said = count_before(help, " FBGEMM ops; ");
  if (said != fbgemm) fprintf(stderr, "roofline trace --help: \"for %ld FBGEMM ops\", the table has %ld\n", said, fbgemm);
  CHECK(said == fbgemm);
  char *doc = file_text("docs/trace.md");
  CHECK(doc != NULL);
  if (doc) {
    char *flat = one_line(doc);
    said = count_before(flat, " ATen and FBGEMM ops ");
    if (said != aten + fbgemm)
      fprintf(stderr, "docs/trace.md: \"a table of %ld ATen and FBGEMM ops\", the table has %ld\n", said,
              aten + fbgemm);
    CHECK(said == aten + fbgemm);
    free(flat);
  }
  free(doc);
  free(help);
  free(buf);
}

int main(void) {
  RUN(test_every_flag_has_its_help);
  RUN(test_common);
  RUN(test_trace_help);
  return harness_report("options");
}
