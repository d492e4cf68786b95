/*
 * outfile.c -- writing output files without destroying anything (see
 * outfile.h): a temporary file in the target's folder, renamed into place
 * (rename(2) replaces the name atomically, POSIX.1-2008), or, for a path
 * that is not a regular file, a write in place that never removes it.
 *
 * What is never renamed over: a path that names one of the process's own
 * descriptors (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N,
 * /proc/PID/fd/N, through any chain of links): it is written through that
 * descriptor, never reopened (reopening would truncate a file the shell
 * opened for appending, and renaming would replace it); and a file that is
 * one of the command's inputs (same device and inode): refused.
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
  f->via = 0;
}

/* a failure to open or name the output: bad input, exit 2 */
static int fail(cli_ctx *ctx, cli_outfile *f, int e) {
  int rc = cli_error(ctx, "%s: %s: %s", f->flag, f->path, strerror(e ? e : EIO));
  cli_outfile_abort(f);
  return rc;
}

/* a failure to write what was opened (a full disk, a file size limit):
 * exit 1, the temporary file removed */
static int fail_write(cli_ctx *ctx, cli_outfile *f, int e) {
  cli_error(ctx, "%s: %s: %s", f->flag, f->path, strerror(e ? e : EIO));
  cli_outfile_abort(f);
  return CLI_FAIL;
}

/* The descriptor a path names lexically ("/dev/stdout", "/dev/fd/3",
 * "/proc/self/fd/1", "/proc/thread-self/fd/1", "/proc/<our pid>/fd/1"),
 * or -1. */
static int fd_named(const char *p) {
  if (strcmp(p, "/dev/stdin") == 0) return 0;
  if (strcmp(p, "/dev/stdout") == 0) return 1;
  if (strcmp(p, "/dev/stderr") == 0) return 2;
  const char *rest = NULL;
  char own[64];
  snprintf(own, sizeof own, "/proc/%ld/fd/", (long)getpid());
  const char *pre[] = {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", own};
  for (size_t i = 0; i < sizeof pre / sizeof pre[0] && !rest; i++)
    if (strncmp(p, pre[i], strlen(pre[i])) == 0) rest = p + strlen(pre[i]);
  if (!rest || !*rest) return -1;
  long n = 0;
  for (const char *c = rest; *c; c++) {
    if (*c < '0' || *c > '9' || n > INT_MAX / 10) return -1;
    n = n * 10 + (*c - '0');
  }
  return (int)n;
}

/* Follow the path's links one by one (its folder resolved each time): the
 * descriptor it names at any step, or -1. */
static int fd_behind(const char *path) {
  char *cur = dup_str(path);
  int fd = -1;
  for (int hop = 0; cur && hop < 40; hop++) {
    char *slash = strrchr(cur, '/');
    const char *base = slash ? slash + 1 : cur;
    char *dir = NULL;
    if (!slash) dir = realpath(".", NULL);
    else if (slash == cur) dir = dup_str("/");
    else {
      *slash = 0;
      dir = realpath(cur, NULL);
      *slash = '/';
    }
    if (!dir) break;
    size_t cap = strlen(dir) + strlen(base) + 2;
    char *full = malloc(cap);
    if (!full) { free(dir); break; }
    snprintf(full, cap, "%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", base);
    if ((fd = fd_named(full)) >= 0) { free(dir); free(full); break; }
    struct stat ls;
    char link[PATH_MAX];
    ssize_t n = -1;
    if (lstat(full, &ls) == 0 && S_ISLNK(ls.st_mode)) n = readlink(full, link, sizeof link - 1);
    free(full);
    if (n <= 0) { free(dir); break; }
    link[n] = 0;
    free(cur);
    if (link[0] == '/') cur = dup_str(link);
    else {
      cap = strlen(dir) + (size_t)n + 2;
      cur = malloc(cap);
      if (cur) snprintf(cur, cap, "%s/%s", dir, link);
    }
    free(dir);
  }
  free(cur);
  return fd;
}

static int is_input(const cli_ctx *ctx, const struct stat *st) {
  for (int i = 0; i < ctx->n_in; i++)
    if (ctx->in_dev[i] == (unsigned long long)st->st_dev && ctx->in_ino[i] == (unsigned long long)st->st_ino)
      return 1;
  return 0;
}

int cli_output_check(cli_ctx *ctx, const char *flag, const char *path) {
  struct stat st;
  if (!path || strcmp(path, "-") == 0 || fd_behind(path) >= 0 || stat(path, &st) != 0) return CLI_OK;
  if (is_input(ctx, &st))
    return cli_error(ctx, "%s: %s is one of the command's inputs: not replacing it (give another file name)", flag,
                     path);
  return CLI_OK;
}

int cli_outfile_open(cli_ctx *ctx, cli_outfile *f, const char *flag, const char *path) {
  memset(f, 0, sizeof *f);
  f->fd = -1;
  f->flag = flag;
  f->path = path;
  if (!path || !*path) return cli_error(ctx, "%s: empty file name", flag);
  if (strcmp(path, "-") == 0) { /* standard output */
    f->via = 1;
    return CLI_OK;
  }
  int own = fd_behind(path);
  if (own >= 0) { /* one of our descriptors: written through it */
    if (fcntl(own, F_GETFL) < 0) return fail(ctx, f, errno);
    f->via = own == 1 ? 1 : own == 2 ? 2 : 3;
    f->fd = own;
    return CLI_OK;
  }
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
  if (exists && is_input(ctx, &st)) {
    free(real);
    return cli_output_check(ctx, flag, path);
  }
  struct stat lst;
  int dangling = !real && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
  if ((exists && !S_ISREG(st.st_mode)) || dangling) {
    /* a device, a FIFO, a terminal: written in place, never renamed over
     * or removed; a FIFO no one reads is refused (ENXIO), not waited on */
    free(real);
    f->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0666);
    if (f->fd < 0 && errno == ENXIO && exists && S_ISFIFO(st.st_mode))
      return cli_error(ctx, "%s: %s: a FIFO that nothing reads from (not written)", flag, path);
    if (f->fd < 0) return fail(ctx, f, errno);
    int fl = fcntl(f->fd, F_GETFL);
    if (fl >= 0) (void)fcntl(f->fd, F_SETFL, fl & ~O_NONBLOCK);
    return CLI_OK;
  }
  f->target = real ? real : dup_str(path);
  if (!f->target) return fail(ctx, f, ENOMEM);
  /* the temporary file: ".NAME.PID-N.tmp" beside the target, or, when
   * that would pass the system's limit on a name, ".roofline.PID-N.tmp" */
  const char *slash = strrchr(f->target, '/');
  size_t dirlen = slash ? (size_t)(slash - f->target) + 1 : 0;
  const char *base = f->target + dirlen;
  if (strlen(base) + 32 > 255) base = "roofline";
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
  if (f->via == 1 || f->via == 2) {
    /* standard output or error: after what the command printed there; a
     * failure to write is reported once, at the end (cli_check_output) */
    FILE *s = f->via == 1 ? cli_raw_out(ctx) : ctx->err;
    fwrite(text, 1, len, s);
    fflush(s);
    reset(f);
    return CLI_OK;
  }
  size_t done = 0;
  while (done < len) {
    ssize_t w = write(f->fd, text + done, len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return fail_write(ctx, f, w < 0 ? errno : ENOSPC);
    done += (size_t)w;
  }
  int fd = f->fd;
  f->fd = -1;
  if (f->via == 3) { /* not ours to close */
    reset(f);
    return CLI_OK;
  }
  if (close(fd) != 0) return fail_write(ctx, f, errno);
  if (f->tmp && rename(f->tmp, f->target) != 0) return fail_write(ctx, f, errno);
  reset(f);
  return CLI_OK;
}

void cli_outfile_abort(cli_outfile *f) {
  if (f->fd >= 0 && f->via == 0) close(f->fd);
  if (f->tmp) unlink(f->tmp); /* only ever the file this run created */
  reset(f);
}

int cli_write_file(cli_ctx *ctx, const char *flag, const char *path, const char *text, size_t len) {
  cli_outfile f;
  int rc = cli_outfile_open(ctx, &f, flag, path);
  if (rc) return rc;
  return cli_outfile_commit(ctx, &f, text, len);
}
