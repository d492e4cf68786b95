/*
 * cli.c -- the command table, the dispatcher, help, and the helpers every
 * subcommand shares (flags, hardware resolution, tables, files).
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the command table ---------------------------------------------- */
extern const cli_command cmd_hw, cmd_op, cmd_kernel, cmd_layer;
extern const cli_command cmd_plot, cmd_widget;
extern const cli_command cmd_measure;
extern const cli_command cmd_trace;
extern const cli_command cmd_model, cmd_decode, cmd_prefill, cmd_plan, cmd_mfu, cmd_comm;

const cli_command *const cli_commands[] = {
    &cmd_hw, &cmd_op, &cmd_kernel, &cmd_layer,
    &cmd_plot, &cmd_widget,
    &cmd_measure,
    &cmd_trace,
    &cmd_model, &cmd_decode, &cmd_prefill, &cmd_plan, &cmd_mfu, &cmd_comm,
    NULL};

static const char *const overview =
    "roofline -- which resource limits a kernel, a model or a training run,\n"
    "how fast it could possibly go, and whether optimizing it is worth it.\n"
    "\n"
    "usage: roofline COMMAND [flags]     roofline help COMMAND\n"
    "\n"
    "commands:\n";

static void print_overview(FILE *f) {
  fputs(overview, f);
  for (int i = 0; cli_commands[i]; i++)
    fprintf(f, "  %-10s %s\n", cli_commands[i]->name, cli_commands[i]->summary);
  fputs("\nflags every command takes: --json, --csv, --hw-file PATH, --help\n"
        "units: decimal SI prefixes (k M G T P), binary ones only as Ki Mi Gi Ti;\n"
        "e.g. 3.35TB/s, 989.4T, 16GB, 128KiB, 25us, 1e9.  Version " RL_VERSION_STRING ".\n",
        f);
}

static const cli_command *find_command(const char *name) {
  for (int i = 0; cli_commands[i]; i++)
    if (strcmp(cli_commands[i]->name, name) == 0) return cli_commands[i];
  return NULL;
}

/* A growing text (help rendering). */
typedef struct hbuf {
  char *p;
  size_t n, cap;
  int oom;
} hbuf;

static void hb_put(hbuf *b, const char *s, size_t n) {
  if (b->oom) return;
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 4096;
    while (cap < b->n + n + 1) cap *= 2;
    char *q = realloc(b->p, cap);
    if (!q) { b->oom = 1; return; }
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}
static void hb_str(hbuf *b, const char *s) { hb_put(b, s, strlen(s)); }

/* "--name ARG" (with the short form, "-j, --jobs N", for an entry) */
static void opt_head(hbuf *b, const cli_optdef *d, int entry) {
  if (entry && d->letter) {
    const char s[] = {'-', d->letter, ',', ' ', 0};
    hb_str(b, s);
  }
  hb_str(b, "--");
  hb_str(b, d->name);
  if (d->arg) {
    hb_str(b, " ");
    hb_str(b, d->arg);
  }
}

static void mark(const cli_optdef *d, unsigned char *used) {
  if (used && d) used[d - cli_optdefs] = 1;
}

/* NAME's entry: "  --NAME ARG", to the column (two spaces when past it),
 * its help, each further line of it at the column. */
static void opt_entry(hbuf *b, const cli_optdef *d, int col) {
  size_t start = b->n;
  hb_str(b, "  ");
  opt_head(b, d, 1);
  int w = (int)(b->n - start);
  for (int i = w; i < (w < col ? col : w + 2); i++) hb_put(b, " ", 1);
  for (const char *h = d->help;;) {
    const char *nl = strchr(h, '\n');
    hb_put(b, h, nl ? (size_t)(nl - h) : strlen(h));
    hb_put(b, "\n", 1);
    if (!nl) break;
    h = nl + 1;
    for (int i = 0; i < col; i++) hb_put(b, " ", 1);
  }
}

/* text with each "{--NAME}" as "--NAME ARG" ("{--NAME!}": "--NAME"), as
 * declared for command cmd; returns the references without a declaration */
static int put_refs(hbuf *r, const char *text, const char *cmd, unsigned char *used) {
  int missing = 0;
  for (const char *p = text;;) {
    const char *o = strstr(p, "{--");
    const char *e = o ? strchr(o, '}') : NULL;
    if (!o || !e) { hb_str(r, p); break; }
    hb_put(r, p, (size_t)(o - p));
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(e - o - 3), o + 3);
    size_t nl = strlen(name);
    int bare = nl > 0 && name[nl - 1] == '!';
    if (bare) name[nl - 1] = 0;
    const cli_optdef *d = e - o - 3 < 60 ? cli_optdef_find(cmd, name) : NULL;
    if (d && bare) hb_str(r, "--"), hb_str(r, d->name), mark(d, used);
    else if (d) opt_head(r, d, 0), mark(d, used);
    else missing++, hb_put(r, o, (size_t)(e - o + 1));
    p = e + 1;
  }
  return missing;
}

int cli_put_help(FILE *out, const cli_command *c, unsigned char *used) {
  const int col = c->help_col > 0 ? c->help_col : 19;
  int missing = 0;
  hbuf b = {0}, r = {0};
  /* the lines: "@--NAME" entries and "@ops" */
  for (const char *line = c->help; *line;) {
    const char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
    if (len > RLI_LEN("@--") && RLI_STARTS(line, "@--")) {
      char name[64];
      snprintf(name, sizeof name, "%.*s", (int)(len - RLI_LEN("@--") - (nl != NULL)), line + RLI_LEN("@--"));
      const cli_optdef *d = cli_optdef_find(c->name, name);
      if (d) opt_entry(&b, d, col), mark(d, used);
      else missing++, hb_put(&b, line, len);
    } else if (RLI_STARTS(line, "@ops\n")) {
      /* the op schema's kinds and their shape flags (rl_op_help) */
      size_t need = rl_op_help(NULL, 0);
      char *t = malloc(need + 1);
      if (t) rl_op_help(t, need + 1), hb_str(&b, t);
      free(t);
    } else {
      hb_put(&b, line, len);
    }
    line += len;
  }
  /* "{--NAME}" in the text and in the entries' help */
  missing += put_refs(&r, b.p ? b.p : "", c->name, used);
  if (b.oom || r.oom) fputs(c->help, out);
  else fputs(r.p ? r.p : "", out);
  free(b.p);
  free(r.p);
  return missing;
}

void cli_print_options(FILE *out) {
  for (int i = 0; cli_commands[i]; i++)
    for (const cli_optdef *d = cli_optdefs; d->name; d++) {
      const char *cmd = cli_commands[i]->name;
      if (cli_optdef_find(cmd, d->name) != d) continue; /* not its, or another of the name first */
      hbuf h = {0};
      put_refs(&h, d->help, cmd, NULL);
      fprintf(out, "%s\t%s\t", cmd, d->name);
      if (d->letter) fprintf(out, "-%c\t", d->letter); else fputs("-\t", out);
      fprintf(out, "%s\t", d->arg ? d->arg : "-");
      for (const char *t = h.p ? h.p : ""; *t; t++) fputc(*t == '\n' ? ' ' : *t, out);
      fputc('\n', out);
      free(h.p);
    }
}

/* Optimal-string-alignment distance (a swap of two neighbours counts one),
 * case-insensitive, for "did you mean" suggestions. */
static int osa_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 63 || lb > 63) return 1 << 20;
  int d[64][64];
  for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
  for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
  for (size_t i = 1; i <= la; i++)
    for (size_t j = 1; j <= lb; j++) {
      int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
      int v = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
      if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
        v = d[i - 2][j - 2] + 1;
      d[i][j] = v;
    }
  return d[la][lb];
}

const char *cli_suggest(const char *word, const char *const *cands, int n) {
  const char *best = NULL;
  int bd = 1 << 20;
  for (int i = 0; i < n; i++) {
    if (!cands[i]) continue;
    int d = osa_distance(word, cands[i]);
    /* a prefix of a longer name ("dec" for decode) counts as close too */
    size_t wl = strlen(word);
    if (wl >= 3 && strncmp(cands[i], word, wl) == 0) d = 1;
    if (d < bd) bd = d, best = cands[i];
  }
  size_t wl = strlen(word);
  int limit = wl > 5 ? (int)(wl / 3) : (wl >= 2 ? 1 : 0);
  return best && bd <= limit ? best : NULL;
}

size_t cli_clean(const char *s, char *out, size_t cap, int escape) {
  size_t o = 0;
  const unsigned char *p = (const unsigned char *)(s ? s : "");
  if (!cap) return 0;
  while (*p && o + 5 < cap) {
    size_t n = rl_utf8_seq((const char *)p);
    if (*p == '\n' || *p == '\r' || *p == '\t') {
      out[o++] = ' ';
      p++;
    } else if (n && *p >= 0x20 && *p != 0x7f) {
      if (o + n + 1 > cap) break;
      memcpy(out + o, p, n);
      o += n;
      p += n;
    } else if (escape) { /* a control character or a byte that is no UTF-8 */
      o += (size_t)snprintf(out + o, cap - o, "\\x%02x", *p);
      p++;
    } else {
      memcpy(out + o, "\xEF\xBF\xBD", RLI_LEN("\xEF\xBF\xBD")); /* U+FFFD */
      o += RLI_LEN("\xEF\xBF\xBD");
      p++;
    }
  }
  out[o] = 0;
  return o;
}

static int unknown_command(FILE *err, const char *name) {
  char clean[512];
  cli_clean(name, clean, sizeof clean, 1);
  name = clean;
  const char *names[64];
  int n = 0;
  for (int i = 0; cli_commands[i] && n < 62; i++) names[n++] = cli_commands[i]->name;
  names[n++] = "help";
  names[n++] = "version";
  const char *s = cli_suggest(name, names, n);
  if (s)
    fprintf(err, "roofline: unknown command '%s': did you mean '%s'? (see roofline --help)\n", name, s);
  else
    fprintf(err, "roofline: unknown command '%s' (see roofline --help)\n", name);
  return CLI_USAGE;
}

static int dispatch(cli_ctx *ctx, int argc, char **argv) {
  FILE *out = ctx->out;
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    /* no command at all: the usage is an error's text, on stderr */
    print_overview(argc < 2 ? ctx->err : out);
    return argc < 2 ? CLI_USAGE : CLI_OK;
  }
  if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0 ||
      strcmp(argv[1], "version") == 0) {
    if (argc > 2) {
      fprintf(ctx->err, "roofline: %s takes no argument\n", argv[1]);
      return CLI_USAGE;
    }
    fprintf(out, "roofline %s\n", rl_version());
    return CLI_OK;
  }
  if (strcmp(argv[1], "help") == 0) {
    if (argc < 3) { print_overview(out); return CLI_OK; }
    if (strcmp(argv[2], "--options") == 0 && argc == 3) { cli_print_options(out); return CLI_OK; }
    const cli_command *c = find_command(argv[2]);
    if (!c) return unknown_command(ctx->err, argv[2]);
    cli_put_help(out, c, NULL);
    return CLI_OK;
  }
  const cli_command *c = find_command(argv[1]);
  if (!c) return unknown_command(ctx->err, argv[1]);
  for (int i = 2; i < argc; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      cli_put_help(out, c, NULL);
      return CLI_OK;
    }
  ctx->cmd = c->name;
  /* prose fits the terminal; the charts' commands write SVG, HTML or a
   * drawing already at its size */
  int prose = c != &cmd_plot && c != &cmd_widget;
  if (prose) cli_prose_begin(ctx);
  int rc = c->run(ctx, argc - 1, argv + 1);
  cli_prose_end(ctx);
  return rc;
}

int cli_main(int argc, char **argv, FILE *out, FILE *err) {
  cli_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.out = out;
  ctx.err = err;
  ctx.cmd = "";
  int rc = dispatch(&ctx, argc, argv);
  free(ctx.extra);
  return cli_check_output(&ctx, rc);
}

/* What coreutils do at exit: output that could not be written (a full
 * disk, a file size limit) is an error, exit 1 and one line, unless the
 * command already failed and said why; a closed pipe (SIGPIPE is ignored
 * by main) is exit 1 and no line. */
int cli_check_output(cli_ctx *ctx, int rc) {
  errno = 0;
  int bad = fflush(ctx->out) != 0;
  int en = errno;
  bad |= ferror(ctx->out) != 0;
  if (!bad || rc != CLI_OK) return rc;
  /* a reader that went away (`| head -1`) wanted no more: quiet, as a
   * program that SIGPIPE ends is */
  if (en == EPIPE) return CLI_FAIL;
  fprintf(ctx->err, "roofline%s%s: writing the output: %s\n", ctx->cmd[0] ? " " : "", ctx->cmd,
          en ? strerror(en) : "write error");
  return CLI_FAIL;
}

/* ---- errors ------------------------------------------------------------ */
int cli_error(cli_ctx *ctx, const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  /* one line, whatever the arguments it echoes carry: line breaks as
   * spaces, other control characters (ESC...) and bytes that are no UTF-8
   * as \xNN, never raw to the terminal */
  char clean[4 * sizeof msg + 8];
  cli_clean(msg, clean, sizeof clean, 1);
  fprintf(ctx->err, "roofline %s: %s\n", ctx->cmd, clean);
  return CLI_USAGE;
}

int cli_fail(cli_ctx *ctx, rl_status st, const rl_error *e) {
  char msg[2 * RL_ERROR_MSG_MAX];
  cli_spell(e && e->msg[0] ? e->msg : rl_strerror(st), msg, sizeof msg);
  char clean[4 * sizeof msg + 8];
  cli_clean(msg, clean, sizeof clean, 1);
  fprintf(ctx->err, "roofline %s: %s\n", ctx->cmd, clean);
  return st == RL_ENOMEM ? CLI_FAIL : CLI_USAGE;
}

const char *cli_spell(const char *msg, char *buf, size_t cap) {
  rl_msg_spell(msg, "--", '-', buf, cap);
  return buf;
}

/* ---- flags ------------------------------------------------------------- */
static int load_hw_file(cli_ctx *ctx, const char *path) {
  char *buf;
  size_t len;
  int rc = cli_read_file(ctx, path, (size_t)64 << 20, &buf, &len);
  if (rc) return rc;
  rl_error e;
  int32_t n = 0;
  rl_status st = rl_hw_parse_csv(buf, len, NULL, 0, &n, &e);
  if (st == RL_OK) {
    rl_hw *hw = calloc((size_t)n, sizeof *hw);
    if (!hw) { free(buf); return cli_error(ctx, "out of memory"); }
    st = rl_hw_parse_csv(buf, len, hw, n, &n, &e);
    free(ctx->extra);
    ctx->extra = hw;
    ctx->n_extra = n;
  }
  free(buf);
  if (st != RL_OK) return cli_error(ctx, "--hw-file %s: %s", path, e.msg);
  return CLI_OK;
}

int cli_quantity(cli_ctx *ctx, const char *name, const char *val, rl_unit u, double *out, const char *hint) {
  rl_error e;
  rl_status st = rl_parse_quantity(val, u, out, &e);
  if (st == RL_ERANGE && strstr(e.msg, "is out of range")) {
    /* past a double (1e400) or below the smallest normal one (1e-400,
     * 2.2e-308): the quantity's range, the value as written (not the 0 or
     * inf it would be read as), and on which side of the range it lies */
    double x = strtod(val, NULL);
    int below = signbit(x) || !(fabs(x) >= 1);
    rl_error r;
    rl_param_check(name, u, below ? -HUGE_VAL : HUGE_VAL, &r);
    char msg[2 * RL_ERROR_MSG_MAX];
    cli_spell(r.msg, msg, sizeof msg);
    const char *is = strstr(msg, " is outside");
    if (is) return cli_error(ctx, "--%s '%s' is %s%s", name, val, below ? "below" : "above", is + strlen(" is outside"));
  }
  if (st) return cli_error(ctx, "--%s: %s%s", name, e.msg, hint);
  return CLI_OK;
}

static int set_opt(cli_ctx *ctx, cli_opt *o, const char *val) {
  rl_error e;
  rl_status st = RL_OK;
  rl_unit u = RL_UNIT_COUNT;
  switch ((int)o->kind & ~OPT_POSITIVE) {
  case OPT_FLAG: *(int *)o->dst = 1; return CLI_OK;
  case OPT_STR:
    if (!*val) return cli_error(ctx, "--%s: empty value", o->name);
    *(const char **)o->dst = val;
    return CLI_OK;
  case OPT_DTYPE:
    st = rl_dtype_parse(val, (int32_t *)o->dst, &e);
    if (st) return cli_error(ctx, "--%s: %s", o->name, e.msg);
    return CLI_OK;
  case OPT_INT: {
    double v;
    st = rl_parse_quantity(val, RL_UNIT_COUNT, &v, &e);
    if (st) return cli_error(ctx, "--%s: %s", o->name, e.msg);
    if (v != floor(v)) return cli_error(ctx, "--%s: '%s' is not a whole number", o->name, val);
    if (fabs(v) > INT_MAX) return cli_error(ctx, "--%s: '%s' is too large (at most %d)", o->name, val, INT_MAX);
    *(int *)o->dst = (int)v;
    return CLI_OK;
  }
  case OPT_TOKENS:
    st = rl_parse_tokens(val, (double *)o->dst, &e);
    if (st) return cli_error(ctx, "--%s: %s", o->name, e.msg);
    if ((o->kind & OPT_POSITIVE) && !(*(double *)o->dst > 0))
      return cli_error(ctx, "--%s must be > 0 (got %s)", o->name, val);
    /* the plausible range of the flag's quantity (src/core/ranges.c) */
    if (rl_param_check(o->name, RL_UNIT_COUNT, *(double *)o->dst, &e)) return cli_fail(ctx, RL_ERANGE, &e);
    return CLI_OK;
  case OPT_COUNT: u = RL_UNIT_COUNT; break;
  case OPT_BYTES: u = RL_UNIT_BYTES; break;
  case OPT_BYTES_S: u = RL_UNIT_BYTES_S; break;
  case OPT_FLOP: u = RL_UNIT_FLOP; break;
  case OPT_FLOP_S: u = RL_UNIT_FLOP_S; break;
  case OPT_SECONDS: u = RL_UNIT_SECONDS; break;
  }
  int rc = cli_quantity(ctx, o->name, val, u, (double *)o->dst, "");
  if (rc) return rc;
  if ((o->kind & OPT_POSITIVE) && !(*(double *)o->dst > 0))
    return cli_error(ctx, "--%s must be > 0 (got %s)", o->name, val);
  /* the plausible range of the flag's quantity (src/core/ranges.c) */
  if (rl_param_check(o->name, u, *(double *)o->dst, &e)) return cli_fail(ctx, RL_ERANGE, &e);
  return CLI_OK;
}

int cli_parse(cli_ctx *ctx, int argc, char **argv, cli_opt *opts,
              const char **pos, int max_pos, int *npos) {
  if (ctx->probe) { /* tests: which options does this command take? */
    for (cli_opt *p = opts; p && p->name; p++) fprintf(ctx->probe, "%s\n", p->name);
    return CLI_PROBE;
  }
  int np = 0;
  const char *hw_file = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] == '-' && a[1] == '-' && a[2]) {
      char name[64];
      const char *eq = strchr(a + 2, '=');
      size_t nl = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
      if (nl >= sizeof name) return cli_error(ctx, "unknown option %.40s...", a);
      memcpy(name, a + 2, nl);
      name[nl] = 0;
      if (strcmp(name, "json") == 0 || strcmp(name, "csv") == 0) {
        if (eq) return cli_error(ctx, "--%s takes no value", name);
        if (name[0] == 'j') ctx->json = 1; else ctx->csv = 1;
        continue;
      }
      cli_opt *o = NULL;
      for (cli_opt *p = opts; p && p->name; p++)
        if (strcmp(p->name, name) == 0) { o = p; break; }
      int is_hw_file = strcmp(name, "hw-file") == 0;
      if (!o && !is_hw_file) {
        const char *names[128];
        int n = 0;
        for (cli_opt *p = opts; p && p->name && n < 124; p++) names[n++] = p->name;
        names[n++] = "json";
        names[n++] = "csv";
        names[n++] = "hw-file";
        names[n++] = "help";
        const char *sug = cli_suggest(name, names, n);
        if (sug)
          return cli_error(ctx, "unknown option --%s: did you mean --%s? (see roofline %s --help)", name, sug,
                           ctx->cmd);
        return cli_error(ctx, "unknown option --%s (see roofline %s --help)", name, ctx->cmd);
      }
      const char *val = NULL;
      if (o && o->kind == OPT_FLAG) {
        if (eq) return cli_error(ctx, "--%s takes no value", name);
      } else if (eq) {
        val = eq + 1;
      } else {
        if (i + 1 >= argc) return cli_error(ctx, "--%s needs a value", name);
        val = argv[++i];
        /* a value that looks like a flag ("--id --json") is the user's next
         * flag, not the value: refused (--id=--json gives such a value);
         * "-" (standard input) and negative numbers are values */
        if (val[0] == '-' && (val[1] == '-' || isalpha((unsigned char)val[1])))
          return cli_error(ctx, "--%s needs a value, not the option '%s' (write --%s=%s for a value that starts "
                           "with '-')", name, val, name, val);
      }
      if (is_hw_file) {
        if (hw_file) return cli_error(ctx, "--hw-file given twice");
        hw_file = val;
        continue;
      }
      if (o->seen) return cli_error(ctx, "--%s given twice", name);
      o->seen = 1;
      int rc = set_opt(ctx, o, val);
      if (rc) return rc;
    } else {
      if (np >= max_pos) {
        if (max_pos == 0) return cli_error(ctx, "unexpected argument '%s'", a);
        return cli_error(ctx, "unexpected extra argument '%s'", a);
      }
      pos[np++] = a;
    }
  }
  if (ctx->json && ctx->csv) return cli_error(ctx, "--json and --csv exclude each other");
  if (npos) *npos = np;
  if (hw_file) return load_hw_file(ctx, hw_file);
  return CLI_OK;
}

int cli_seen(const cli_opt *opts, const char *name) {
  for (const cli_opt *p = opts; p && p->name; p++)
    if (strcmp(p->name, name) == 0) return p->seen;
  return 0;
}

/* ---- hardware ------------------------------------------------------------ */
void cli_hw_flags_init(cli_hw_flags *f) {
  memset(f, 0, sizeof *f);
  f->overhead = (double)NAN; /* not given: no value a user can type means that */
}

int cli_resolve_hw(cli_ctx *ctx, const cli_hw_flags *f, int use_default, rl_hw *out) {
  rl_hw_req req = {f->hw, f->peak, f->bw, f->mem, use_default};
  rl_error e;
  rl_status st = rl_hw_resolve(&req, ctx->extra, ctx->n_extra, out, &e);
  if (st) return cli_fail(ctx, st, &e);
  if (strcmp(out->id, "custom") == 0 && !req.hw) { /* the library's words, spelled as flags */
    char name[sizeof out->name];
    cli_spell(out->name, name, sizeof name);
    snprintf(out->name, sizeof out->name, "%s", name);
    snprintf(out->source, sizeof out->source, "command line");
  }
  return CLI_OK;
}

rl_roof_req cli_roof_req(const cli_hw_flags *f, int32_t dtype, int tensor) {
  rl_roof_req r = rl_roof_req_init();
  r.dtype = dtype;
  r.tensor = tensor;
  r.peak = f->peak > 0 ? f->peak : 0;
  r.sparse = f->sparse;
  r.overhead_given = !isnan(f->overhead);
  r.overhead_s = f->overhead;
  r.bw_given = f->bw > 0;
  return r;
}

int cli_roof(cli_ctx *ctx, const cli_hw_flags *f, const rl_hw *hw,
             int32_t dtype, int tensor, rl_roof *out) {
  rl_roof_req req = cli_roof_req(f, dtype, tensor);
  rl_error e;
  rl_status st = rl_roof_resolve(hw, &req, out, NULL, &e);
  return st ? cli_fail(ctx, st, &e) : CLI_OK;
}

/* ---- output ---------------------------------------------------------------- */
const char *cli_num(char *buf, size_t cap, double v) {
  rl_json_number(v, buf, cap);
  return buf;
}

const char *cli_q(char *buf, size_t cap, double v, rl_unit u) {
  rl_format_quantity(v, u, buf, cap);
  return buf;
}

struct cli_table {
  int ncols, nrows, caprows;
  char **cells; /* nrows * ncols, row 0 = header */
  signed char keep[32]; /* per column: 1 never cut */
  int drop[32];         /* per column: > 0 left out (lowest first) when cutting is not enough */
};

void cli_table_keep(cli_table *t, int col) {
  if (t && col >= 0 && col < 32) t->keep[col] = 1;
}

void cli_table_optional(cli_table *t, int col, int rank) {
  if (t && col >= 0 && col < 32 && rank > 0) t->drop[col] = rank;
}

cli_table *cli_table_new(int ncols, const char *const *header) {
  cli_table *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->ncols = ncols;
  cli_table_row(t, header);
  return t;
}

void cli_table_row(cli_table *t, const char *const *cells) {
  if (!t) return;
  if (t->nrows == t->caprows) {
    int nc = t->caprows ? t->caprows * 2 : 16;
    char **p = realloc(t->cells, sizeof(char *) * (size_t)nc * (size_t)t->ncols);
    if (!p) return;
    t->cells = p;
    t->caprows = nc;
  }
  for (int c = 0; c < t->ncols; c++) {
    /* a name from a trace may carry ESC sequences or bytes that are no
     * UTF-8: replaced (U+FFFD), never written raw to the terminal */
    const char *s = cells[c] ? cells[c] : "";
    size_t n = strlen(s);
    char *d = malloc(3 * n + 6);
    if (d) cli_clean(s, d, 3 * n + 6, 0);
    t->cells[t->nrows * t->ncols + c] = d;
  }
  t->nrows++;
}

/* display width of UTF-8 text: count the non-continuation bytes */
static int text_width(const char *s) {
  int w = 0;
  for (; *s; s++) w += ((unsigned char)*s & 0xC0) != 0x80;
  return w;
}

/* Write the UTF-8 characters [from, to) of s. */
static void put_cells(FILE *f, const char *s, int from, int to) {
  int i = -1;
  for (; *s; s++) {
    if (((unsigned char)*s & 0xC0) != 0x80) i++;
    if (i >= from && i < to) fputc(*s, f);
  }
}

/* The mark cli_table_print puts before each row while the prose is
 * buffered: a table row is written as it is (the table fitted it). */
#define ROW_MARK '\x01'

/* The last column's text, when wider than its w cells, wrapped at spaces
 * (a word longer than w cut) onto lines indented by `indent` cells, each
 * marked as a table's row (ROW_MARK) with `mark`. */
#define WRAP_MIN 24
static void put_wrapped(FILE *f, const char *s, int w, int indent, int mark) {
  int tw = text_width(s), at = 0, first = 1;
  while (at < tw) {
    while (at < tw && !first && s[0] == ' ') { s++; at++; } /* a line starts at a word */
    int n = tw - at <= w ? tw - at : w;
    if (tw - at > w) { /* the last space within w, if any */
      int i = -1, sp = -1;
      for (const char *p = s; *p; p++) {
        if (((unsigned char)*p & 0xC0) != 0x80) i++;
        if (i > w) break;
        if (*p == ' ' && i > 0) sp = i;
      }
      if (sp > 0) n = sp;
    }
    if (!first) {
      fputc('\n', f);
      if (mark) fputc(ROW_MARK, f);
      fprintf(f, "%*s", indent, "");
    }
    put_cells(f, s, 0, n);
    /* advance s past n characters */
    int i = 0;
    while (*s && i < n) {
      s++;
      while (((unsigned char)*s & 0xC0) == 0x80) s++;
      i++;
    }
    at += n;
    first = 0;
  }
}

int cli_term_width(const cli_ctx *ctx) {
  if (ctx->tty) return ctx->width; /* ctx->out is the prose's buffer */
  const char *env = getenv("COLUMNS");
  if (env && *env) {
    char *end;
    long v = strtol(env, &end, 10);
    if (!*end && v >= 20 && v <= 10000) return (int)v;
  }
  struct winsize ws;
  int fd = fileno(ctx->out);
  if (fd >= 0 && isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
  return 0;
}

/* ---- prose that fits the terminal ---------------------------------------- */

void cli_prose_begin(cli_ctx *ctx) {
  if (ctx->tty) return;
  int w = cli_term_width(ctx);
  if (w <= 0) return;
  FILE *m = open_memstream(&ctx->pbuf, &ctx->plen);
  if (!m) return; /* no memory: the lines as they are */
  ctx->tty = ctx->out;
  ctx->width = w;
  ctx->pdone = 0;
  ctx->out = m;
}

/* The cells of s[0, n): UTF-8 characters, an escape sequence none. */
static int span_width(const char *s, size_t n) {
  int w = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == 0x1b && i + 1 < n && s[i + 1] == '[') { /* ESC [ ... final byte */
      i += 2;
      while (i < n && !((unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7e)) i++;
      continue;
    }
    w += (c & 0xC0) != 0x80;
  }
  return w;
}

/* A line's indent: its leading spaces. */
static size_t lead_of(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && s[i] == ' ') i++;
  return i;
}

/* Where the value of "  key    value" starts (a run of two spaces or more
 * within the first 24 cells after the indent, the key a word or a few);
 * 0: the line is no key and value. *key_end: where the key ends. */
static size_t value_col(const char *s, size_t n, size_t *key_end) {
  size_t lead = lead_of(s, n);
  for (size_t i = lead; i + 2 < n && span_width(s, i) < (int)lead + 24; i++)
    if (s[i] != ' ' && s[i + 1] == ' ' && s[i + 2] == ' ') {
      size_t v = i + 1;
      if (key_end) *key_end = v;
      while (v < n && s[v] == ' ') v++;
      return v < n ? v : 0;
    }
  return 0;
}

/* Whether the line b (n2 bytes) continues the sentence of the line a (n1)
 * that the program broke by hand at its own width: a is long (60 cells or
 * more) and ends inside a sentence (a letter, a digit, ',' or ';'), b
 * starts as a sentence goes on (a small letter, a digit, '(' or '"') and is
 * no new "key  value" item; b is deeper than a (a hanging continuation),
 * at `hang` when the paragraph (whose first line is indented by `first`)
 * already hangs there (a may then end with '.'), or at a's indent. A
 * heading (':'), a closed item ('.', ')') or a short line ends a paragraph. */
static int continues(const char *a, size_t n1, const char *b, size_t n2, size_t hang, size_t first) {
  if (!n1 || !n2 || *b == ROW_MARK || *a == ROW_MARK || span_width(a, n1) < 60) return 0;
  size_t la = lead_of(a, n1), lb = lead_of(b, n2);
  if (lb == n2 || la == n1 || value_col(b, n2, NULL)) return 0;
  unsigned char e = (unsigned char)a[n1 - 1], c = (unsigned char)b[lb];
  int mid = isalnum(e) || e == ',' || e == ';';
  if (!(islower(c) || isdigit(c) || c == '(' || c == '"')) return 0;
  if (hang > first) return lb == hang && (mid || e == '.'); /* the next line of a hanging paragraph */
  if (!hang && lb > la) return mid;
  return lb == la && mid;
}

/* A paragraph (its lines joined by single spaces, no newline) wrapped to
 * w cells: the first line at its own indent, the next ones at `hang` (0:
 * the value column of "  key    value", else the indent and two); a break
 * at the last space that fits, a word longer than the line (a path) whole
 * on a line of its own. */
static void put_prose(FILE *f, const char *s, size_t n, int w, int hang) {
  size_t lead = lead_of(s, n), key_end = 0, col = value_col(s, n, &key_end);
  int indent = hang ? hang : col ? span_width(s, col) : (int)lead + 2;
  if (w - indent < 24) indent = w - (int)lead - 2 >= 24 ? (int)lead + 2 : 0;
  size_t at = 0;
  int first = 1;
  while (at < n) {
    int room = first ? w : w - indent;
    size_t brk = 0, end = n;
    if (span_width(s + at, n - at) > room) {
      for (size_t i = at + 1; i < n; i++) {
        if (s[i] != ' ' || s[i - 1] == ' ') continue;
        if (first && i <= key_end) continue; /* not in the key's gap */
        if (span_width(s + at, i - at) <= room) brk = i;
        else { if (!brk) brk = i; break; }
      }
      if (brk) end = brk;
    }
    if (!first) fprintf(f, "%*s", indent, "");
    fwrite(s + at, 1, end - at, f);
    fputc('\n', f);
    at = end;
    while (at < n && s[at] == ' ') at++;
    first = 0;
  }
}

/* The prose buffered since the last call, to the real output: each
 * paragraph (a line and the lines continuing its sentence) that has a line
 * wider than the width joined and wrapped; the rest as it is. */
static void prose_flush(cli_ctx *ctx) {
  if (!ctx->tty) return;
  fflush(ctx->out);
  const char *s = ctx->pbuf + ctx->pdone, *end = ctx->pbuf + ctx->plen;
  ctx->pdone = ctx->plen;
  FILE *f = ctx->tty;
  if (ctx->json || ctx->csv) {
    fwrite(s, 1, (size_t)(end - s), f);
    return;
  }
  const char *tail = s; /* the last line without its newline stays for later */
  for (const char *p = s; p < end; p++)
    if (*p == '\n') tail = p + 1;
  while (s < tail) {
    const char *nl = memchr(s, '\n', (size_t)(tail - s));
    size_t n = (size_t)(nl - s);
    if (*s == ROW_MARK) {
      fwrite(s + 1, 1, n, f); /* the row and its newline */
      s = nl + 1;
      continue;
    }
    /* the paragraph: this line and its continuations */
    const char *q = nl + 1, *prev = s;
    size_t pn = n, hang = 0;
    int wide = span_width(s, n) > ctx->width;
    while (q < tail) {
      const char *nl2 = memchr(q, '\n', (size_t)(tail - q));
      size_t n2 = (size_t)(nl2 - q);
      if (!continues(prev, pn, q, n2, hang, lead_of(s, n))) break;
      if (!hang) hang = lead_of(q, n2);
      wide |= span_width(q, n2) > ctx->width;
      prev = q;
      pn = n2;
      q = nl2 + 1;
    }
    if (!wide) {
      fwrite(s, 1, (size_t)(q - s), f);
    } else {
      char *joined = malloc((size_t)(q - s) + 1);
      if (!joined) { fwrite(s, 1, (size_t)(q - s), f); s = q; continue; }
      size_t k = 0;
      for (const char *r = s; r < q;) {
        const char *e = memchr(r, '\n', (size_t)(q - r));
        size_t from = r == s ? 0 : lead_of(r, (size_t)(e - r));
        if (r != s) joined[k++] = ' ';
        memcpy(joined + k, r + from, (size_t)(e - r) - from);
        k += (size_t)(e - r) - from;
        r = e + 1;
      }
      put_prose(f, joined, k, ctx->width, (int)hang);
      free(joined);
    }
    s = q;
  }
  ctx->pdone = (size_t)(tail - ctx->pbuf);
}

FILE *cli_raw_out(cli_ctx *ctx) {
  prose_flush(ctx);
  if (ctx->tty) { /* a last line without its newline, as it is */
    fwrite(ctx->pbuf + ctx->pdone, 1, ctx->plen - ctx->pdone, ctx->tty);
    ctx->pdone = ctx->plen;
  }
  return ctx->tty ? ctx->tty : ctx->out;
}

void cli_prose_end(cli_ctx *ctx) {
  if (!ctx->tty) return;
  prose_flush(ctx);
  /* a last line without its newline, as it is */
  fwrite(ctx->pbuf + ctx->pdone, 1, ctx->plen - ctx->pdone, ctx->tty);
  fclose(ctx->out);
  free(ctx->pbuf);
  ctx->pbuf = NULL;
  ctx->plen = ctx->pdone = 0;
  ctx->out = ctx->tty;
  ctx->tty = NULL;
}

void cli_table_print(cli_ctx *ctx, cli_table *t) {
  if (!t) return;
  if (ctx->csv) {
    for (int r = 0; r < t->nrows; r++) cli_csv_row(ctx, (const char *const *)&t->cells[r * t->ncols], t->ncols);
    return;
  }
  int w[32] = {0};
  int nc = t->ncols < 32 ? t->ncols : 32;
  for (int r = 0; r < t->nrows; r++)
    for (int c = 0; c < nc; c++) {
      const char *s = t->cells[r * t->ncols + c];
      int l = s ? text_width(s) : 0;
      if (l > w[c]) w[c] = l;
    }
  /* fit the terminal: the widest name columns (mostly text, not figures)
   * give way, to 6 cells at least, their long cells cut in the middle;
   * a column kept whole (ids) never does. When that is not enough, the
   * optional columns are left out, the lowest rank first, and a line
   * after the table names them. */
  int limit = cli_term_width(ctx);
  int text_col[32] = {0}, shown[32], natural[32];
  for (int c = 0; c < nc; c++) {
    int digits = 0, cells = 0; /* "-" (no figure) and empty cells count for neither */
    for (int r = 1; r < t->nrows; r++) {
      const char *s = t->cells[r * t->ncols + c];
      if (!s || !*s || strcmp(s, "-") == 0) continue;
      cells++;
      digits += (*s >= '0' && *s <= '9') || *s == '-';
    }
    text_col[c] = 2 * digits < cells && !t->keep[c];
    shown[c] = 1;
    natural[c] = w[c];
  }
  for (;;) {
    int last = -1;
    for (int c = 0; c < nc; c++)
      if (shown[c]) last = c;
    for (;;) {
      int total = 0, widest = -1;
      for (int c = 0; c < nc; c++) {
        if (!shown[c]) continue;
        total += w[c] + (c < last ? 2 : 0);
        /* the last column, when text, wraps (below): 24 cells at least */
        int wraps = c == last && !t->keep[c], least = wraps ? WRAP_MIN : 6;
        if ((text_col[c] || wraps) && w[c] > least && (widest < 0 || w[c] > w[widest])) widest = c;
      }
      if (limit <= 0 || total <= limit || widest < 0) break;
      w[widest]--;
    }
    int total = 0, drop = -1;
    for (int c = 0; c < nc; c++) {
      if (!shown[c]) continue;
      total += w[c] + (c < last ? 2 : 0);
      if (t->drop[c] > 0 && (drop < 0 || t->drop[c] < t->drop[drop])) drop = c;
    }
    if (limit <= 0 || total <= limit || drop < 0) break;
    shown[drop] = 0;
    for (int c = 0; c < nc; c++) w[c] = natural[c];
  }
  int last = -1, indent = 0;
  for (int c = 0; c < nc; c++)
    if (shown[c]) last = c;
  for (int c = 0; c < last; c++)
    if (shown[c]) indent += w[c] + 2;
  for (int r = 0; r < t->nrows; r++) {
    if (ctx->tty) fputc(ROW_MARK, ctx->out);
    for (int c = 0; c < nc; c++) {
      if (!shown[c]) continue;
      const char *s = t->cells[r * t->ncols + c];
      if (!s) s = "";
      int tw = text_width(s);
      if (c == last && tw > w[c] && !t->keep[c] && r > 0) { /* wrapped under itself */
        put_wrapped(ctx->out, s, w[c], indent, ctx->tty != NULL);
        break;
      }
      if (tw > w[c]) { /* cut in the middle: head, an ellipsis, tail */
        int head = (w[c] - 1) / 2, tail = w[c] - 1 - head;
        put_cells(ctx->out, s, 0, head);
        fputs("\u2026", ctx->out);
        put_cells(ctx->out, s, tw - tail, tw);
        tw = w[c];
      } else {
        fputs(s, ctx->out);
      }
      if (c == last) break;
      fprintf(ctx->out, "%*s", w[c] - tw + 2, "");
    }
    fputc('\n', ctx->out);
    if (r == 0) {
      int total = 0;
      for (int c = 0; c < nc; c++)
        if (shown[c]) total += w[c] + (c < last ? 2 : 0);
      if (limit > 0 && total > limit) total = limit;
      if (ctx->tty) fputc(ROW_MARK, ctx->out);
      for (int i = 0; i < total; i++) fputc('-', ctx->out);
      fputc('\n', ctx->out);
    }
  }
  int left = 0;
  for (int c = 0; c < nc; c++)
    if (!shown[c]) fprintf(ctx->out, "%s%s", left++ ? ", " : "(left out to fit the width: ", t->cells[c]);
  if (left) fputs("; --csv has every column)\n", ctx->out);
}

void cli_row(cli_table *t, const char *key, const char *fmt, ...) {
  char line[640];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  const char *cells[2] = {key, line};
  cli_table_row(t, cells);
}

void cli_result_rows(cli_table *t, const rl_hw *hw, const rl_roof *roof,
                     const rl_result *r) {
  char b1[48], b2[48], b3[48], b4[48], peak[96];
  if (roof->peak_kind < 0)
    snprintf(peak, sizeof peak, "given by --peak");
  else if (roof->peak_kind == RL_PEAK_VEC16)
    snprintf(peak, sizeof peak, "vector fp16/bf16");
  else if (roof->peak_kind == RL_PEAK_FP32 || roof->peak_kind == RL_PEAK_FP64)
    snprintf(peak, sizeof peak, "vector %s", rl_peak_name(roof->peak_kind));
  else
    snprintf(peak, sizeof peak, "%s %s tensor", roof->sparse ? "2:4 sparse" : "dense",
             rl_peak_name(roof->peak_kind));
  cli_row(t, "hardware", "%s (%s)", hw->id, hw->name);
  cli_row(t, "peak used", "%s (%s%s)", cli_q(b1, sizeof b1, roof->peak, RL_UNIT_FLOP_S), peak,
          (roof->measured & RL_ROOF_MEASURED_PEAK) ? ", measured by roofline measure" : "");
  cli_row(t, "bandwidth", "%s%s", cli_q(b1, sizeof b1, roof->bandwidth, RL_UNIT_BYTES_S),
          (roof->measured & RL_ROOF_MEASURED_BW) ? " (measured by roofline measure)" : "");
  cli_row(t, "FLOPs", "%s", cli_q(b1, sizeof b1, r->flops, RL_UNIT_FLOP));
  cli_row(t, "bytes", "%s", cli_q(b1, sizeof b1, r->bytes, RL_UNIT_BYTES));
  cli_row(t, "intensity", "%s (ridge %s)", cli_q(b1, sizeof b1, r->intensity, RL_UNIT_FLOP_PER_BYTE),
          cli_q(b2, sizeof b2, r->ridge, RL_UNIT_FLOP_PER_BYTE));
  cli_row(t, "bound", "%s", rl_bound_name(r->bound));
  cli_row(t, "time >=", "%s (compute %s, memory %s, launch overhead %s)",
          cli_q(b1, sizeof b1, r->time_s, RL_UNIT_SECONDS),
          cli_q(b2, sizeof b2, r->compute_time_s, RL_UNIT_SECONDS),
          cli_q(b3, sizeof b3, r->memory_time_s, RL_UNIT_SECONDS),
          cli_q(b4, sizeof b4, roof->launch_overhead_s, RL_UNIT_SECONDS));
  cli_row(t, "attainable", "%s (%.3g%% of peak)", cli_q(b1, sizeof b1, r->attainable, RL_UNIT_FLOP_S),
          100 * r->peak_fraction);
  if (r->has_measured) {
    cli_row(t, "measured", "%s", cli_q(b1, sizeof b1, r->measured_s, RL_UNIT_SECONDS));
    cli_row(t, "achieved", "%s (%.3g%% of its roof)", cli_q(b1, sizeof b1, r->achieved, RL_UNIT_FLOP_S),
            100 * r->roof_fraction);
  }
}

void cli_table_free(cli_table *t) {
  if (!t) return;
  for (int i = 0; i < t->nrows * t->ncols; i++) free(t->cells[i]);
  free(t->cells);
  free(t);
}

void cli_note_input(cli_ctx *ctx, int fd, const char *path) {
  struct stat sb;
  if (ctx->n_in >= (int)(sizeof ctx->in_dev / sizeof ctx->in_dev[0])) return;
  if (fd >= 0 ? fstat(fd, &sb) != 0 : stat(path, &sb) != 0) return;
  ctx->in_dev[ctx->n_in] = (unsigned long long)sb.st_dev;
  ctx->in_ino[ctx->n_in] = (unsigned long long)sb.st_ino;
  ctx->n_in++;
}

int cli_read_file(cli_ctx *ctx, const char *path, size_t max, char **buf,
                  size_t *len) {
  int std_in = strcmp(path, "-") == 0;
  if (std_in && ctx->stdin_read) return cli_error(ctx, "standard input ('-') can be read only once");
  /* non-blocking: a FIFO with no writer would block open(2) for ever */
  int fd = std_in ? STDIN_FILENO : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return cli_error(ctx, "%s: %s", path, strerror(errno));
  if (std_in) {
    ctx->stdin_read = 1;
    path = "standard input";
  }
  struct stat sb;
  memset(&sb, 0, sizeof sb);
  if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
    if (!std_in) close(fd);
    return cli_error(ctx, "%s: is a directory", path);
  }
  cli_note_input(ctx, fd, NULL);
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap + 1);
  if (!b) { if (!std_in) close(fd); return cli_error(ctx, "%s: out of memory", path); }
  int bad = 0;
  if (!std_in) {
    if (S_ISFIFO(sb.st_mode)) {
      /* a read that does not wait tells a FIFO nothing writes to (end of
       * file at once) from one being written (a shell's <(...)) */
      ssize_t r = read(fd, b, cap);
      if (r == 0) {
        free(b);
        close(fd);
        return cli_error(ctx, "%s: a FIFO with nothing writing to it (not read)", path);
      }
      if (r > 0) n = (size_t)r;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  }
  for (;;) {
    if (n == cap) {
      if (cap >= max) { free(b); if (!std_in) close(fd); return cli_error(ctx, "%s: larger than %zu bytes", path, max); }
      cap *= 2;
      char *nb = realloc(b, cap + 1);
      if (!nb) { free(b); if (!std_in) close(fd); return cli_error(ctx, "%s: out of memory", path); }
      b = nb;
    }
    ssize_t r = read(fd, b + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) { bad = errno; break; }
    if (r == 0) break;
    n += (size_t)r;
  }
  if (!std_in) close(fd);
  if (bad) { free(b); return cli_error(ctx, "%s: read error: %s", path, strerror(bad)); }
  b[n] = 0;
  *buf = b;
  *len = n;
  return CLI_OK;
}

/* The envelope of every --json document: an object that names the schema
 * version and the command; a record's members follow, a list goes under
 * "rows" (docs/schema/). */
static void print_json_doc(cli_ctx *ctx, const char *text) {
  fprintf(ctx->out, "{\"schema_version\":%d,\"command\":\"%s\"", CLI_SCHEMA_VERSION, ctx->cmd);
  if (text[0] == '{') {
    const char *rest = text + 1;
    while (*rest == ' ') rest++;
    if (*rest != '}') fputc(',', ctx->out);
    fputs(rest, ctx->out);
  } else {
    fputs(",\"rows\":", ctx->out);
    fputs(text, ctx->out);
    fputc('}', ctx->out);
  }
  fputc('\n', ctx->out);
}

int cli_print_json(cli_ctx *ctx, cli_json_fn fn, void *arg) {
  char small[4096];
  size_t n = fn(arg, small, sizeof small);
  if (n < sizeof small) {
    print_json_doc(ctx, small);
    return CLI_OK;
  }
  char *big = malloc(n + 1);
  if (!big) return cli_error(ctx, "out of memory");
  fn(arg, big, n + 1);
  print_json_doc(ctx, big);
  free(big);
  return CLI_OK;
}

typedef struct result_json_arg {
  const char *op, *hw, *dtype, *extra;
  const rl_roof *roof;
  const rl_result *r;
} result_json_arg;

static size_t result_json_fn(void *p, char *buf, size_t cap) {
  const result_json_arg *a = p;
  return rl_result_json(a->op, a->hw, a->dtype, a->roof, a->r, a->extra, buf, cap);
}

int cli_print_result_json(cli_ctx *ctx, const char *op, const char *hw, const char *dtype,
                          const rl_roof *roof, const rl_result *r, const char *extra) {
  result_json_arg a = {op, hw, dtype, extra, roof, r};
  return cli_print_json(ctx, result_json_fn, &a);
}

void cli_result_csv_header(cli_ctx *ctx) {
  fputs("op,hw,dtype,flops,bytes,intensity_flop_per_byte,peak_flop_per_s,bandwidth_bytes_per_s,"
        "ridge_flop_per_byte,bound,time_s,compute_time_s,memory_time_s,attainable_flop_per_s,measured_s,"
        "achieved_flop_per_s,roof_fraction\n",
        ctx->out);
}

/* RFC 4180: a field that holds a comma, a quote or a line break is quoted,
 * its quotes doubled. */
void cli_csv_field(FILE *f, const char *s) {
  if (!strpbrk(s, ",\"\r\n")) { fputs(s, f); return; }
  fputc('"', f);
  for (; *s; s++) { if (*s == '"') fputc('"', f); fputc(*s, f); }
  fputc('"', f);
}

void cli_csv_row(cli_ctx *ctx, const char *const *cells, int n) {
  for (int c = 0; c < n; c++) {
    if (c) fputc(',', ctx->out);
    cli_csv_field(ctx->out, cells[c] ? cells[c] : "");
  }
  fputc('\n', ctx->out);
}

const char *cli_csv_num(char *buf, size_t cap, double v) {
  if (!isfinite(v)) {
    if (cap) buf[0] = 0;
    return buf;
  }
  return cli_num(buf, cap, v);
}

void cli_result_csv_row(cli_ctx *ctx, const char *op, const char *hw,
                        const char *dtype, const rl_result *r) {
  FILE *f = ctx->out;
  cli_csv_field(f, op); fputc(',', f);
  cli_csv_field(f, hw ? hw : ""); fputc(',', f);
  cli_csv_field(f, dtype ? dtype : "");
  const double v[] = {r->flops, r->bytes, r->intensity, r->peak, r->bandwidth, r->ridge};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) fprintf(f, ",%s", CLI_CSV_NUM(v[i]));
  fprintf(f, ",%s", rl_bound_name(r->bound));
  const double w[] = {r->time_s, r->compute_time_s, r->memory_time_s, r->attainable};
  for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) fprintf(f, ",%s", CLI_CSV_NUM(w[i]));
  if (r->has_measured)
    fprintf(f, ",%s,%s,%s\n", CLI_CSV_NUM(r->measured_s), CLI_CSV_NUM(r->achieved), CLI_CSV_NUM(r->roof_fraction));
  else
    fputs(",,,\n", f);
}

int cli_split_list(cli_ctx *ctx, const char *flag, const char *s, char *buf, size_t cap,
                   char **items, int max) {
  size_t len = strlen(s);
  if (len >= cap) return cli_error(ctx, "%s: list too long (at most %zu characters)", flag, cap - 1), -1;
  memcpy(buf, s, len + 1);
  int n = 0;
  for (char *p = buf;;) {
    char *comma = strchr(p, ',');
    if (comma) *comma = 0;
    if (!*p) return cli_error(ctx, "%s: empty item in '%s'", flag, s), -1;
    if (n == max) return cli_error(ctx, "%s: at most %d items", flag, max), -1;
    items[n++] = p;
    if (!comma) break;
    p = comma + 1;
  }
  return n;
}

int cli_parse_batches(cli_ctx *ctx, const char *s, double out[3]) {
  char tmp[128], *items[16];
  int n = cli_split_list(ctx, "--batches", s, tmp, sizeof tmp, items, 16);
  if (n < 0) return CLI_USAGE;
  if (n != 3) return cli_error(ctx, "--batches: give exactly three batch sizes (e.g. 1,128,512)");
  for (int i = 0; i < 3; i++) {
    rl_error e;
    if (rl_parse_quantity(items[i], RL_UNIT_COUNT, &out[i], &e)) return cli_error(ctx, "--batches: %s", e.msg);
  }
  return CLI_OK;
}
