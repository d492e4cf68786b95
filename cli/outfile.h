/*
 * outfile.h -- every file the tool writes (plot -o, widget -o, measure
 * --save-hw and --plot, trace --plot) goes through here.
 *
 * A regular file (or a new path) is written to a temporary file in the
 * same folder and renamed into place once complete, so a failed or
 * interrupted write leaves the old file as it was, and two runs writing
 * the same path never splice. A path that exists and is not a regular
 * file (a device, a FIFO) is written in place, never renamed over; "-"
 * and a path naming one of the process's descriptors (/dev/stdout,
 * /dev/fd/N, /proc/self/fd/N, through links) are written through that
 * descriptor, never reopened. A file that is one of the command's inputs
 * (cli_note_input) is refused. The only file ever removed is the temporary
 * one this run created.
 */
#ifndef RL_CLI_OUTFILE_H
#define RL_CLI_OUTFILE_H

#include "cli.h"

#include <stddef.h>

typedef struct cli_outfile {
  int fd;           /* open descriptor, -1 when none */
  char *target;     /* the path renamed onto (NULL: written in place) */
  char *tmp;        /* the temporary file (NULL: written in place) */
  const char *flag; /* "-o", "--save-hw": for messages */
  const char *path; /* as the user gave it: for messages */
  int via;          /* 0: fd is ours; 1: ctx->out; 2: ctx->err; 3: fd is an inherited descriptor */
} cli_outfile;

/* Open for writing: fails early (message "FLAG: PATH: reason", exit 2)
 * when the folder is missing or not writable. */
int cli_outfile_open(cli_ctx *ctx, cli_outfile *f, const char *flag, const char *path);
/* Write all of text, then close and rename into place. On failure the
 * target is untouched (or, written in place, left as the write left it),
 * the temporary file removed, and the error printed (exit 1: a full disk,
 * a file size limit). */
int cli_outfile_commit(cli_ctx *ctx, cli_outfile *f, const char *text, size_t len);
/* Give up: close and remove the temporary file (nothing else). */
void cli_outfile_abort(cli_outfile *f);
/* Refuse (message, exit 2) an output path that names one of the inputs
 * noted so far: for a command that prints before it writes the file. */
int cli_output_check(cli_ctx *ctx, const char *flag, const char *path);
/* open + commit. */
int cli_write_file(cli_ctx *ctx, const char *flag, const char *path, const char *text, size_t len);

#endif
