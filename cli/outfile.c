/*
 * outfile.c -- writing output files without destroying anything (see
 * outfile.h): a temporary file in the target's folder, renamed into place
 * (rename(2) replaces the name atomically, POSIX.1-2008), or, for a path
 * that is not a regular file, a write in place that never removes it.
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static void reset(cli_outfile *f) {
  free(f->target);
  free(f->tmp);
  f->target = f->tmp = NULL;
  f->fd = -1;
}

static int fail(cli_ctx *ctx, cli_outfile *f, int e) {
  int rc = cli_error(ctx, "%s: %s: %s", f->flag, f->path, strerror(e ? e : EIO));
  cli_outfile_abort(f);
  return rc;
}

int cli_outfile_open(cli_ctx *ctx, cli_outfile *f, const char *flag, const char *path) {
  memset(f, 0, sizeof *f);
  f->fd = -1;
  f->flag = flag;
  f->path = path;
  if (!path || !*path) return cli_error(ctx, "%s: empty file name", flag);
  /* a link is followed: the file it names is replaced, the link kept */
  char *real = realpath(path, NULL);
  const char *target = real ? real : path;
  struct stat st;
  int exists = stat(target, &st) == 0;
  if (!exists && errno != ENOENT) {
    int e = errno;
    free(real);
    return fail(ctx, f, e);
  }
  if (exists && S_ISDIR(st.st_mode)) {
    free(real);
    return fail(ctx, f, EISDIR);
  }
  struct stat lst;
  int dangling = !real && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
  if ((exists && !S_ISREG(st.st_mode)) || dangling) {
    /* a device, a FIFO, a terminal: written in place, never renamed over
     * or removed */
    free(real);
    f->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (f->fd < 0) return fail(ctx, f, errno);
    return CLI_OK;
  }
  f->target = real ? real : dup_str(path);
  if (!f->target) return fail(ctx, f, ENOMEM);
  /* the temporary file: ".NAME.PID-N.tmp" beside the target */
  const char *slash = strrchr(f->target, '/');
  size_t dirlen = slash ? (size_t)(slash - f->target) + 1 : 0;
  const char *base = f->target + dirlen;
  size_t cap = strlen(f->target) + 64;
  f->tmp = malloc(cap);
  if (!f->tmp) return fail(ctx, f, ENOMEM);
  for (int n = 0; n < 1000; n++) {
    snprintf(f->tmp, cap, "%.*s.%s.%ld-%d.tmp", (int)dirlen, f->target, base, (long)getpid(), n);
    /* 0666 less the umask, as a plain fopen would create it */
    f->fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (f->fd >= 0 || errno != EEXIST) break;
  }
  if (f->fd < 0) {
    int e = errno;
    free(f->tmp); /* not created: nothing to remove */
    f->tmp = NULL;
    return fail(ctx, f, e);
  }
  if (exists) (void)fchmod(f->fd, st.st_mode & 07777); /* keep the old file's mode */
  return CLI_OK;
}

int cli_outfile_commit(cli_ctx *ctx, cli_outfile *f, const char *text, size_t len) {
  size_t done = 0;
  while (done < len) {
    ssize_t w = write(f->fd, text + done, len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return fail(ctx, f, w < 0 ? errno : ENOSPC);
    done += (size_t)w;
  }
  int fd = f->fd;
  f->fd = -1;
  if (close(fd) != 0) return fail(ctx, f, errno);
  if (f->tmp && rename(f->tmp, f->target) != 0) return fail(ctx, f, errno);
  reset(f);
  return CLI_OK;
}

void cli_outfile_abort(cli_outfile *f) {
  if (f->fd >= 0) close(f->fd);
  if (f->tmp) unlink(f->tmp); /* only ever the file this run created */
  reset(f);
}

int cli_write_file(cli_ctx *ctx, const char *flag, const char *path, const char *text, size_t len) {
  cli_outfile f;
  int rc = cli_outfile_open(ctx, &f, flag, path);
  if (rc) return rc;
  return cli_outfile_commit(ctx, &f, text, len);
}
