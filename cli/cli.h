/*
 * cli.h -- the command-line tool's shared helpers (prefix cli_).
 *
 * The tool is a thin client of include/roofline.h: it parses flags into
 * the library's structs, calls the library and prints. Each subcommand is
 * one file cli/cmd_<name>.c defining one cli_command; cli/cli.c holds the
 * table of them, the dispatcher and the help.
 *
 * Exit status: 0 success, 2 bad input (unknown id, malformed number or
 * unit, missing flag, broken file), 1 an internal failure. On error one
 * line goes to stderr ("roofline op: --m: '4O96' is not a number") and
 * nothing to stdout.
 */
#ifndef RL_CLI_H
#define RL_CLI_H

#include "roofline.h"
#include "core/strlit.h"

#include <stdio.h>

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2, CLI_PROBE = 3 };

/* The version of the --json contract (docs/schema/, README "Scripting"):
 * raised when a key is renamed or removed or changes meaning. */
#define CLI_SCHEMA_VERSION 2

typedef struct cli_ctx {
  FILE *out;         /* stdout (or a memory stream in tests) */
  FILE *probe;       /* tests: cli_parse lists the options it takes here,
                        one name a line, and returns CLI_PROBE */
  FILE *err;         /* stderr */
  const char *cmd;   /* "op", "hw list", ... for messages */
  int json, csv;     /* output format flags */
  int stdin_read;    /* a '-' argument has consumed standard input */
  rl_hw *extra;      /* devices from --hw-file (owned) */
  int32_t n_extra;
  /* the files read (device and inode, standard input included): an output
   * that is one of them is refused (cli/outfile.c) */
  unsigned long long in_dev[32], in_ino[32];
  int n_in;
  /* prose that fits the terminal (cli_prose_*): while a command runs on a
   * terminal or with COLUMNS set, ctx->out is a memory stream and `tty` the
   * real output; its text lines wider than `width` wrap at spaces */
  FILE *tty;
  char *pbuf;
  size_t plen, pdone;
  int width;
} cli_ctx;

typedef struct cli_command {
  const char *name;
  int (*run)(cli_ctx *ctx, int argc, char **argv); /* argv[0] = name */
  const char *summary; /* one line for `roofline --help` */
  const char *help;    /* the full text for `roofline help NAME` and --help:
                          "@--NAME" lines and "{--NAME}" from the option
                          declarations (cli_put_help), "@ops" the op kinds */
  int help_col;        /* the column of its options' help (0: 19) */
} cli_command;

/* ---- the options' declarations (options.c) ------------------------------ */
typedef struct cli_optdef {
  const char *name;   /* without the leading "--" */
  char letter;        /* its short form (-j), or 0 */
  const char *arg;    /* its argument's placeholder ("ID"), NULL for a flag */
  const char *cmds;   /* the commands that take it, space-separated; "*": all */
  const char *help;   /* its help: one entry, its lines joined by '\n' */
} cli_optdef;
/* Every option, ending with {NULL}. */
extern const cli_optdef cli_optdefs[];
/* Does the declaration apply to command cmd? */
int cli_optdef_takes(const cli_optdef *d, const char *cmd);
/* The declaration of --name for command cmd, or NULL. */
const cli_optdef *cli_optdef_find(const char *cmd, const char *name);
/* Write a command's help: its text with "@--NAME" lines as NAME's entry,
 * "{--NAME}" as "--NAME ARG" ("{--NAME!}": "--NAME") and "@ops" as the op
 * kinds. used (may be
 * NULL): set to 1 at the index of each declaration the text names.
 * Returns the number of references with no declaration for the command
 * (0 in a correct build). */
int cli_put_help(FILE *out, const cli_command *c, unsigned char *used);
/* `roofline help --options`: every (command, option) as a tab-separated
 * line: command, name, letter ("-" none), placeholder ("-" none), help
 * (its lines joined by a space). For tools/gen_docs.py. */
void cli_print_options(FILE *out);

/* Run the tool: what main() does, with the streams given. */
int cli_main(int argc, char **argv, FILE *out, FILE *err);

/* At the end of a command: flush ctx->out; when anything could not be
 * written, one line on ctx->err and CLI_FAIL (unless rc is already an
 * error). Returns the exit status. */
int cli_check_output(cli_ctx *ctx, int rc);

/* The candidate nearest to a mistyped word (within a third of its
 * length, case-insensitive, a swap counting one), or NULL: for "did you
 * mean" in messages. */
const char *cli_suggest(const char *word, const char *const *cands, int n);

/* Copy s into out (cap bytes) fit for a terminal: line breaks and tabs as
 * spaces; other control characters and bytes that are no UTF-8 escaped as
 * \xNN (escape) or replaced by U+FFFD. Returns the length written. */
size_t cli_clean(const char *s, char *out, size_t cap, int escape);

/* Print "roofline CMD: message" on ctx->err and return CLI_USAGE. */
int cli_error(cli_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Report a library failure: the rl_error message, the parameters it
 * names spelled as flags (cli_spell). Returns CLI_USAGE for bad input,
 * CLI_FAIL for RL_ENOMEM. */
int cli_fail(cli_ctx *ctx, rl_status st, const rl_error *e);
/* A library message with the parameters it names (`link_bw`) spelled as
 * the flags (--link-bw): rl_msg_spell. Returns buf. */
const char *cli_spell(const char *msg, char *buf, size_t cap);
#define CLI_SPELL(msg) cli_spell((msg), (char[2 * RL_ERROR_MSG_MAX]){0}, 2 * RL_ERROR_MSG_MAX)

/* ---- flags ----------------------------------------------------------- */

/* val, the value of --name in unit u, into *out: CLI_OK, or the command's
 * one-line error (CLI_USAGE): the parser's message and hint ("" or " (or
 * nccl)"); a value past or below what a double holds (1e400, 1e-400) said
 * as written, above or below the flag's plausible range (not as the inf
 * or 0 it would be read as). Every flag of a unit goes through here. */
int cli_quantity(cli_ctx *ctx, const char *name, const char *val, rl_unit u, double *out, const char *hint);
typedef enum cli_opt_kind {
  OPT_FLAG,     /* int: set to 1, no value */
  OPT_STR,      /* const char *: the value as given */
  OPT_COUNT,    /* double: plain number ("4096", "4Ki", "1e6") */
  OPT_BYTES,    /* double: B ("16GB", "128KiB") */
  OPT_BYTES_S,  /* double: B/s */
  OPT_FLOP,     /* double: FLOP */
  OPT_FLOP_S,   /* double: FLOP/s */
  OPT_SECONDS,  /* double: s ("25us") */
  OPT_DTYPE,    /* int32_t: rl_dtype */
  OPT_INT,      /* int: a whole number */
  OPT_TOKENS,   /* double: tokens (rl_parse_tokens: "4096", "4Ki"; "4k" is
                   refused as ambiguous) */
  /* or'ed into a quantity kind: zero or less is refused ("--peak must be
   * > 0"), so that 0 given is never taken for "not given" */
  OPT_POSITIVE = 0x100,
  OPT_COUNT_POS = OPT_COUNT | OPT_POSITIVE,
  OPT_BYTES_POS = OPT_BYTES | OPT_POSITIVE,
  OPT_BYTES_S_POS = OPT_BYTES_S | OPT_POSITIVE,
  OPT_FLOP_S_POS = OPT_FLOP_S | OPT_POSITIVE
} cli_opt_kind;

typedef struct cli_opt {
  const char *name; /* without the leading "--" */
  cli_opt_kind kind;
  void *dst;
  int seen;         /* set by cli_parse */
} cli_opt;

/* Parse argv[1..] (argv[0] is the command name) against opts, which ends
 * with a {NULL} entry. Accepts "--name value" and "--name=value". The
 * common flags --json, --csv and --hw-file are handled here for every
 * command. Words that are not flags go to pos (at most max_pos of them).
 * Returns CLI_OK or an exit status after printing the error. A flag given
 * twice is an error. */
int cli_parse(cli_ctx *ctx, int argc, char **argv, cli_opt *opts,
              const char **pos, int max_pos, int *npos);

/* Was the flag named `name` given? */
int cli_seen(const cli_opt *opts, const char *name);

/* ---- hardware -------------------------------------------------------- */
/* Hardware flags most commands share. */
typedef struct cli_hw_flags {
  const char *hw;       /* --hw ID */
  double peak;          /* --peak 500T (override or inline device) */
  double bw;            /* --bw 2TB/s */
  double mem;           /* --mem 80GB */
  int sparse;           /* --sparse */
  double overhead;      /* --overhead 4us; NaN = not given (the default) */
} cli_hw_flags;

/* Entries for cli_hw_flags, to splice into an options table:
 *   cli_opt opts[] = { ..., CLI_HW_OPTS(hwf), {NULL} }; */
#define CLI_HW_OPTS(f)                                                       \
  {"hw", OPT_STR, &(f).hw, 0}, {"peak", OPT_FLOP_S_POS, &(f).peak, 0},       \
      {"bw", OPT_BYTES_S_POS, &(f).bw, 0}, {"mem", OPT_BYTES_POS, &(f).mem, 0}, \
      {"sparse", OPT_FLAG, &(f).sparse, 0},                                   \
      {"overhead", OPT_SECONDS, &(f).overhead, 0}

void cli_hw_flags_init(cli_hw_flags *f);

/* Resolve the device (rl_hw_resolve): --hw looked up (user's --hw-file
 * first), with --bw/--mem overriding its figures; or, without --hw, an
 * inline device from --peak and --bw; use_default: a command with a
 * default device (RL_DEFAULT_HW unless --peak and --bw describe one). */
int cli_resolve_hw(cli_ctx *ctx, const cli_hw_flags *f, int use_default, rl_hw *out);

/* The roof for an op of `dtype` (tensor or vector) on the resolved device,
 * honouring --peak, --sparse, --overhead and --bw (rl_roof_resolve, with
 * the request cli_roof_req makes of the flags). */
rl_roof_req cli_roof_req(const cli_hw_flags *f, int32_t dtype, int tensor);
int cli_roof(cli_ctx *ctx, const cli_hw_flags *f, const rl_hw *hw,
             int32_t dtype, int tensor, rl_roof *out);

/* ---- output ---------------------------------------------------------- */
/* A number as JSON and CSV print it (rl_json_number: exact whole numbers,
 * full precision otherwise); "null" for JSON when not finite. */
const char *cli_num(char *buf, size_t cap, double v);
#define CLI_NUM(v) cli_num((char[40]){0}, 40, (v))

/* Format a quantity into a static-size buffer owned by the caller. */
const char *cli_q(char *buf, size_t cap, double v, rl_unit u);
#define CLI_Q(v, u) cli_q((char[48]){0}, 48, (v), (u))

/* The width tables fit: COLUMNS when set (20..10000), else the terminal's
 * (TIOCGWINSZ) when ctx->out is one; 0 (no limit) in a pipe or file. */
int cli_term_width(const cli_ctx *ctx);

/* Prose lines fit the terminal. cli_prose_begin (the dispatcher, before a
 * command runs, when cli_term_width is known) sends ctx->out to a memory
 * stream; cli_prose_end writes what it holds to the real output: text
 * lines wider than the width wrapped at spaces under a hanging indent (the
 * value column of a "key    value" line, else two cells in), a word longer
 * than the width kept whole, table rows (cli_table_print marks them) as
 * they are, and --json or --csv output unchanged. cli_raw_out writes the
 * prose so far and returns the real stream, for output that is no prose
 * (an SVG on standard output, a chart drawn for the terminal). */
void cli_prose_begin(cli_ctx *ctx);
void cli_prose_end(cli_ctx *ctx);
FILE *cli_raw_out(cli_ctx *ctx);

/* A simple table: add rows of cells, then print aligned (text) or as CSV
 * (ctx->csv). Cells are copied. Text fits cli_term_width: the widest
 * columns narrow, their long cells cut in the middle with an ellipsis. */
typedef struct cli_table cli_table;
cli_table *cli_table_new(int ncols, const char *const *header);
void cli_table_row(cli_table *t, const char *const *cells);
void cli_table_print(cli_ctx *ctx, cli_table *t);
/* How a column gives way on a narrow terminal. By default a column of
 * names is cut in the middle (to 6 cells) and one of figures never is;
 * keep: never cut (ids the user copies); optional: left out when cutting
 * is not enough, the lowest rank first, and named in a line after the
 * table. */
void cli_table_keep(cli_table *t, int col);
void cli_table_optional(cli_table *t, int col, int rank);
void cli_table_free(cli_table *t);
/* A two-column table's row: the key and a printf-formatted value. */
void cli_row(cli_table *t, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The rows every roofline result shows: hardware, the peak used and which
 * one, bandwidth, FLOPs, bytes, intensity and ridge, bound, the time bound
 * and its two terms, attainable, and measured/achieved when measured. */
void cli_result_rows(cli_table *t, const rl_hw *hw, const rl_roof *roof,
                     const rl_result *r);

/* Note an input file (its descriptor when open, else its path, links
 * followed), so that no output replaces it. */
void cli_note_input(cli_ctx *ctx, int fd, const char *path);

/* Read a whole file (at most max bytes) into a malloc'd NUL-terminated
 * buffer; "-" reads standard input (once). On failure prints "roofline
 * CMD: PATH: reason" ("is a directory", ...) and returns CLI_USAGE. */
int cli_read_file(cli_ctx *ctx, const char *path, size_t max, char **buf,
                  size_t *len);

/* Print a library JSON writer's output (calls it twice when needed) as the
 * command's --json document: {"schema_version":N,"command":"op", ...the
 * record's members...}, or {..., "rows":[...]} for a list. */
typedef size_t (*cli_json_fn)(void *arg, char *buf, size_t cap);
int cli_print_json(cli_ctx *ctx, cli_json_fn fn, void *arg);

/* One roofline result as the --json document (rl_result_json; extra:
 * more members, or NULL). */
int cli_print_result_json(cli_ctx *ctx, const char *op, const char *hw, const char *dtype,
                          const rl_roof *roof, const rl_result *r, const char *extra);

/* CSV of roofline results: the header row, then one row per result with
 * the JSON keys' values in base units. */
void cli_result_csv_header(cli_ctx *ctx);
void cli_result_csv_row(cli_ctx *ctx, const char *op, const char *hw,
                        const char *dtype, const rl_result *r);

/* Split the comma-separated list s of flag into at most max items, copied
 * into buf (cap bytes). An empty item ("1,,8", a leading or trailing comma)
 * is an error. Returns the number of items, or -1 after printing the
 * error. */
int cli_split_list(cli_ctx *ctx, const char *flag, const char *s, char *buf, size_t cap,
                   char **items, int max);

/* Parse --batches A,B,C (the layer preset's three linear-layer token
 * batches) into out. */
int cli_parse_batches(cli_ctx *ctx, const char *s, double out[3]);

/* CSV (RFC 4180 quoting, one record per line): every --csv output. Cells
 * are plain values: quantities in base units with the unit in the
 * column's name (time_s, bytes, flops, peak_flop_per_s,
 * intensity_flop_per_byte, tokens_per_s), fractions as fractions
 * (_fraction), yes/no as true/false, unknown as an empty cell.
 * One field, quoted when it holds a comma, a quote or a line break: */
void cli_csv_field(FILE *f, const char *s);
/* One record of n fields (NULL: empty). */
void cli_csv_row(cli_ctx *ctx, const char *const *cells, int n);
/* A number as a CSV cell: as cli_num, empty when not finite. */
const char *cli_csv_num(char *buf, size_t cap, double v);
#define CLI_CSV_NUM(v) cli_csv_num((char[40]){0}, 40, (v))

/* ---- `roofline trace` over the files of a distributed job ----------- */
typedef struct cli_job_opts {
  const rl_hw *hw;  /* --hw, or NULL: each trace's own device */
  double overhead;  /* --overhead; < 0 default */
  int top;          /* --top; 0 default */
  int threads;      /* -j N; 0 every CPU */
  int hta;          /* --hta */
  const rl_model *model; /* --model, or NULL */
} cli_job_opts;

/* How the files are read: NULL (worker threads), or set by the MPI
 * driver (cli/mpi/roofline_mpi.c) before cli_main: read fills every slot
 * on the process that prints and returns 1 there, 0 on the others. */
typedef struct cli_job_runner {
  /* rl_job_find_files on the process that prints, its answer on all */
  rl_status (*list)(void *ctx, const char *const *args, int32_t nargs, char ***paths,
                    int32_t *np, char ***skipped, int32_t *nskipped, rl_error *err);
  int (*read)(void *ctx, rl_job *j, const char *const *paths, int32_t n, int32_t threads);
  void *ctx;
} cli_job_runner;
extern const cli_job_runner *cli_job_mpi;

int cli_trace_job(cli_ctx *ctx, const char *const *args, int nargs, const cli_job_opts *o);

/* The command table (cli.c). */
extern const cli_command *const cli_commands[];

#endif
