/*
 * trace_src.c -- byte sources for the trace readers (file or memory, plain
 * or gzip through zlib's inflate with automatic gzip header detection,
 * RFC 1952), and rl_trace_read_file / rl_trace_read_buffer, which pick the
 * reader by the first bytes when the format is RL_TRACE_AUTO:
 *   "SQLite format 3\0"  -> Nsight Systems export
 *   '{' or '['           -> Kineto / Chrome trace JSON
 *   anything else        -> Nsight Compute CSV (the reader checks the
 *                           header and names what it expected).
 *
 * Reading runs on a second thread (POSIX threads) that reads the file and
 * inflates gzip into a ring of NBLK blocks of BLKCAP bytes while the
 * reader parses the previous ones: on a gzip file the time is then about
 * the longer of the two, not their sum, and read(2)'s copy leaves the
 * parsing thread too. The thread stops at the end of the text, at the
 * first error (handed over after the text before it), or when the reader
 * closes the source early. Without a thread (pthread_create fails) the
 * same code runs inline.
 */
#include "io/trace_io.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define INCAP (1u << 18)
#define NBLK 4
#define BLKCAP (1u << 19)

struct rli_pipe {
  pthread_t th;
  pthread_mutex_t mu;
  pthread_cond_t full, empty;
  unsigned char *blk[NBLK];
  size_t blen[NBLK];
  unsigned head, count; /* the consumer reads blk[head]; count blocks are full */
  size_t hpos;          /* the consumer's offset in blk[head] */
  int held;             /* the consumer windows blk[head] (rli_src_block) */
  int done;             /* set by the thread: 1 at the end, -1 on error */
  int stop;             /* set by the consumer: stop early */
  rl_error err;         /* the thread's error, handed over after its text */
};

static void common_init(rli_src *s, const char *label) {
  memset(s, 0, sizeof *s);
  s->label = label;
}

rl_status rli_src_open_file(rli_src *s, const char *path, rl_error *err) {
  common_init(s, path);
  s->f = fopen(path, "rb");
  if (!s->f) return rli_fail(err, RL_EIO, "%s: %s", path, strerror(errno));
  return RL_OK;
}

void rli_src_open_mem(rli_src *s, const void *data, size_t len, const char *label) {
  common_init(s, label);
  s->mem = data;
  s->memlen = len;
}

static size_t raw_read(rli_src *s, unsigned char *dst, size_t n, int *ioerr) {
  if (s->f) {
    size_t r = fread(dst, 1, n, s->f);
    if (r < n && ferror(s->f)) *ioerr = 1;
    s->raw += r;
    return r;
  }
  size_t left = s->memlen - s->mempos;
  if (n > left) n = left;
  if (n) memcpy(dst, s->mem + s->mempos, n);
  s->mempos += n;
  s->raw += n;
  return n;
}

static int start(rli_src *s, rl_error *err) {
  int ioerr = 0;
  s->npeek = raw_read(s, s->peek, 2, &ioerr);
  if (ioerr) { rli_fail(err, RL_EIO, "%s: read error", s->label); return -1; }
  s->gz = s->npeek == 2 && s->peek[0] == 0x1f && s->peek[1] == 0x8b;
  s->zinit = 1;
  if (s->gz) {
#ifdef RL_NO_ZLIB
    rli_fail(err, RL_EPARSE, "%s: gzip data, and this build has no zlib: inflate it first", s->label);
    return -1;
#else
    s->in = malloc(INCAP);
    if (!s->in) { rli_fail(err, RL_ENOMEM, "%s: out of memory", s->label); return -1; }
    memcpy(s->in, s->peek, 2);
    s->z.next_in = s->in;
    s->z.avail_in = 2;
    if (inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK) {
      rli_fail(err, RL_ENOMEM, "%s: zlib init failed", s->label);
      return -1;
    }
    s->incap = INCAP;
#endif
  }
  return 0;
}

/* the text, read in the calling thread */
static long direct_read(rli_src *s, char *dst, size_t n, rl_error *err) {
  if (!s->gz) {
    size_t got = 0;
    while (s->peekpos < s->npeek && got < n) dst[got++] = (char)s->peek[s->peekpos++];
    int ioerr = 0;
    got += raw_read(s, (unsigned char *)dst + got, n - got, &ioerr);
    if (ioerr) { rli_fail(err, RL_EIO, "%s: read error", s->label); return -1; }
    return (long)got;
  }
#ifdef RL_NO_ZLIB
  (void)err;
  return 0; /* not reached: start() refused gzip */
#else
  if (s->zdone) return 0;
  s->z.next_out = (unsigned char *)dst;
  s->z.avail_out = (uInt)(n > (1u << 30) ? (1u << 30) : n);
  uInt want = s->z.avail_out;
  while (s->z.avail_out == want) {
    if (s->z.avail_in == 0) {
      int ioerr = 0;
      size_t r = raw_read(s, s->in, s->incap, &ioerr);
      if (ioerr) { rli_fail(err, RL_EIO, "%s: read error", s->label); return -1; }
      if (r == 0) {
        rli_fail(err, RL_ETRUNCATED,
                 "%s: truncated gzip file: the compressed stream ends at byte %llu before its end "
                 "marker", s->label, (unsigned long long)s->raw);
        return -1;
      }
      s->z.next_in = s->in;
      s->z.avail_in = (uInt)r;
    }
    int zr = inflate(&s->z, Z_NO_FLUSH);
    if (zr == Z_STREAM_END) {
      /* another gzip member may follow */
      int ioerr = 0;
      if (s->z.avail_in == 0) {
        size_t r = raw_read(s, s->in, s->incap, &ioerr);
        s->z.next_in = s->in;
        s->z.avail_in = (uInt)r;
      }
      if (ioerr) { rli_fail(err, RL_EIO, "%s: read error", s->label); return -1; }
      if (s->z.avail_in == 0) { s->zdone = 1; break; }
      if (inflateReset(&s->z) != Z_OK) {
        rli_fail(err, RL_EPARSE, "%s: corrupt gzip data after a member", s->label);
        return -1;
      }
      continue;
    }
    if (zr != Z_OK && zr != Z_BUF_ERROR) {
      unsigned long long at = (unsigned long long)(s->raw - s->z.avail_in);
      rli_fail(err, RL_EPARSE, "%s: corrupt gzip data near compressed byte %llu (%s)", s->label,
               at, s->z.msg ? s->z.msg : "inflate error");
      return -1;
    }
  }
  return (long)(want - s->z.avail_out);
#endif
}

/* ---- the reading thread ------------------------------------------------------ */
static void *pipe_main(void *arg) {
  rli_src *s = arg;
  struct rli_pipe *q = s->pipe;
  unsigned tail = 0;
  for (;;) {
    pthread_mutex_lock(&q->mu);
    while (q->count == NBLK && !q->stop) pthread_cond_wait(&q->empty, &q->mu);
    int stop = q->stop;
    pthread_mutex_unlock(&q->mu);
    if (stop) return NULL;
    /* blk[tail] is free: the consumer reads only full blocks */
    size_t got = 0;
    int done = 0;
    while (got < BLKCAP) {
      long r = direct_read(s, (char *)q->blk[tail] + got, BLKCAP - got, &q->err);
      if (r < 0) { done = -1; break; }
      if (r == 0) { done = 1; break; }
      got += (size_t)r;
    }
    pthread_mutex_lock(&q->mu);
    if (got) {
      q->blen[tail] = got;
      q->count++;
      tail = (tail + 1) % NBLK;
    }
    q->done = done;
    pthread_cond_signal(&q->full);
    pthread_mutex_unlock(&q->mu);
    if (done) return NULL;
  }
}

static void pipe_free(struct rli_pipe *q) {
  for (int i = 0; i < NBLK; i++) free(q->blk[i]);
  free(q);
}

/* Start the thread; 0 (and reading inline) when that cannot be done. */
static int pipe_start(rli_src *s) {
  struct rli_pipe *q = calloc(1, sizeof *q);
  if (!q) return 0;
  for (int i = 0; i < NBLK; i++)
    if (!(q->blk[i] = malloc(BLKCAP))) { pipe_free(q); return 0; }
  if (pthread_mutex_init(&q->mu, NULL)) { pipe_free(q); return 0; }
  if (pthread_cond_init(&q->full, NULL)) {
    pthread_mutex_destroy(&q->mu);
    pipe_free(q);
    return 0;
  }
  if (pthread_cond_init(&q->empty, NULL)) {
    pthread_cond_destroy(&q->full);
    pthread_mutex_destroy(&q->mu);
    pipe_free(q);
    return 0;
  }
  s->pipe = q;
  if (pthread_create(&q->th, NULL, pipe_main, s)) {
    s->pipe = NULL;
    pthread_cond_destroy(&q->empty);
    pthread_cond_destroy(&q->full);
    pthread_mutex_destroy(&q->mu);
    pipe_free(q);
    return 0;
  }
  return 1;
}

/* Hand blk[head] back to the thread (the consumer has read it); under mu. */
static void pipe_release(struct rli_pipe *q) {
  q->held = 0;
  q->hpos = 0;
  q->head = (q->head + 1) % NBLK;
  q->count--;
  pthread_cond_signal(&q->empty);
}

/* Hands back the block held, if any, and waits for a full one: 1 (it is
 * blk[head]; held when `hold`), 0 at the end of the text, -1 on the
 * reading thread's error. Only this (the consuming) side moves head. */
static long pipe_wait(struct rli_pipe *q, int hold, rl_error *err) {
  pthread_mutex_lock(&q->mu);
  if (q->held) pipe_release(q);
  while (q->count == 0 && !q->done) pthread_cond_wait(&q->full, &q->mu);
  unsigned count = q->count;
  int done = q->done;
  if (count && hold) q->held = 1;
  pthread_mutex_unlock(&q->mu);
  if (count) return 1;
  if (done > 0) return 0;
  if (err) *err = q->err;
  return -1;
}

static long pipe_read(rli_src *s, char *dst, size_t n, rl_error *err) {
  struct rli_pipe *q = s->pipe;
  long w = pipe_wait(q, 0, err);
  if (w <= 0) return w;
  unsigned h = q->head;
  /* blk[h] is full: the thread does not touch it until it is handed back */
  size_t m = q->blen[h] - q->hpos;
  if (m > n) m = n;
  memcpy(dst, q->blk[h] + q->hpos, m);
  q->hpos += m;
  if (q->hpos == q->blen[h]) {
    pthread_mutex_lock(&q->mu);
    pipe_release(q);
    pthread_mutex_unlock(&q->mu);
  }
  return (long)m;
}

/* The rest of blk[head] in place; it stays the consumer's (held) until
 * the next call hands it back. */
static long pipe_block(rli_src *s, const char **blk, rl_error *err) {
  struct rli_pipe *q = s->pipe;
  long w = pipe_wait(q, 1, err);
  if (w <= 0) return w;
  unsigned h = q->head;
  *blk = (const char *)q->blk[h] + q->hpos;
  return (long)(q->blen[h] - q->hpos);
}

static void pipe_stop(rli_src *s) {
  struct rli_pipe *q = s->pipe;
  pthread_mutex_lock(&q->mu);
  q->stop = 1;
  pthread_cond_signal(&q->empty);
  pthread_mutex_unlock(&q->mu);
  pthread_join(q->th, NULL);
  pthread_cond_destroy(&q->empty);
  pthread_cond_destroy(&q->full);
  pthread_mutex_destroy(&q->mu);
  pipe_free(q);
  s->pipe = NULL;
}

long rli_src_read(rli_src *s, char *dst, size_t n, rl_error *err) {
  if (!s->zinit) {
    if (start(s, err) < 0) return -1;
    pipe_start(s);
  }
  if (s->pipe) return pipe_read(s, dst, n, err);
  return direct_read(s, dst, n, err);
}

long rli_src_block(rli_src *s, const char **blk, rl_error *err) {
  if (!s->zinit) {
    if (start(s, err) < 0) return -1;
    pipe_start(s);
  }
  if (s->pipe) return pipe_block(s, blk, err);
  /* no thread: a block read here, filled as the thread fills its own (the
   * same pieces of text); an error after some text comes at the next call */
  if (s->blkfail) {
    if (err) *err = s->blkerr;
    return -1;
  }
  if (!s->blk) {
    s->blk = malloc(BLKCAP);
    if (!s->blk) { rli_fail(err, RL_ENOMEM, "%s: out of memory", s->label); return -1; }
  }
  size_t got = 0;
  while (got < BLKCAP) {
    long r = direct_read(s, s->blk + got, BLKCAP - got, &s->blkerr);
    if (r < 0) {
      s->blkfail = 1;
      if (got) break;
      if (err) *err = s->blkerr;
      return -1;
    }
    if (r == 0) break;
    got += (size_t)r;
  }
  *blk = s->blk;
  return (long)got;
}

void rli_src_close(rli_src *s) {
  if (s->pipe) pipe_stop(s);
  free(s->blk);
  if (s->f) fclose(s->f);
#ifndef RL_NO_ZLIB
  if (s->gz && s->zinit) inflateEnd(&s->z);
#endif
  free(s->in);
  memset(s, 0, sizeof *s);
}

/* ---- the readers ----------------------------------------------------------
 *
 * One row per format: its name (and aliases) for --format, how to know it
 * from the first bytes, and its reader. A text reader takes a byte source
 * (file or memory, gzip inflated); a whole-file reader (SQLite) takes the
 * path or the memory image. RL_TRACE_AUTO asks each sniffer; the row
 * with sniff_any takes what no other knows. */
typedef struct reader {
  int32_t format;
  const char *name;
  const char *alias;
  /* Is this the format? p: the first n bytes (0 < n <= 64); gz: gzip */
  int (*sniff)(const unsigned char *p, size_t n, int gz);
  rl_status (*read)(rl_trace *t, rli_src *s, rl_error *err);
  rl_status (*read_whole)(rl_trace *t, const char *path, const void *mem, size_t len,
                          const char *label, rl_error *err);
} reader;

static int sniff_sqlite(const unsigned char *p, size_t n, int gz) {
  return !gz && RLI_PREFIX(p, n, "SQLite format 3\0"); /* with its NUL */
}

/* '{' or '[' after an optional UTF-8 BOM and blanks; gzip is Kineto's */
static int sniff_json(const unsigned char *p, size_t n, int gz) {
  if (gz) return 1;
  size_t i = 0;
  if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) i = 3;
  while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r')) i++;
  return i < n && (p[i] == '{' || p[i] == '[');
}

/* the CSV reader checks the header itself and names what it expected */
static int sniff_any(const unsigned char *p, size_t n, int gz) {
  (void)p, (void)n, (void)gz;
  return 1;
}

static const reader readers[] = {
    {RL_TRACE_KINETO, "kineto", "pytorch", sniff_json, rli_read_kineto, NULL},
    {RL_TRACE_NCU, "ncu", NULL, sniff_any, rli_read_ncu, NULL},
    {RL_TRACE_NSYS, "nsys", NULL, sniff_sqlite, NULL, rli_read_nsys},
};
#define N_READERS (sizeof readers / sizeof readers[0])

const char *rl_trace_format_name(int32_t format) {
  if (format == RL_TRACE_AUTO) return "auto";
  for (size_t i = 0; i < N_READERS; i++)
    if (readers[i].format == format) return readers[i].name;
  return NULL;
}

rl_status rl_trace_format_parse(const char *name, int32_t *format, rl_error *err) {
  if (name && rli_strcasecmp(name, "auto") == 0) {
    *format = RL_TRACE_AUTO;
    return RL_OK;
  }
  const char *names[N_READERS];
  for (size_t i = 0; i < N_READERS; i++) {
    if (name && readers[i].alias && rli_strcasecmp(name, readers[i].alias) == 0) {
      *format = readers[i].format;
      return RL_OK;
    }
    names[i] = readers[i].name;
  }
  int32_t k;
  rl_status st = rli_name_parse(names, (int32_t)N_READERS, name, &k, err);
  if (st == RL_OK) *format = readers[k].format;
  return st;
}

static const reader *reader_of(int32_t format) {
  for (size_t i = 0; i < N_READERS; i++)
    if (readers[i].format == format) return &readers[i];
  return NULL;
}

/* The reader whose sniffer knows the first bytes; the one that takes
 * anything (sniff_any) only when no other does. */
static const reader *sniff(const unsigned char *p, size_t n) {
  int gz = n >= 2 && p[0] == 0x1f && p[1] == 0x8b;
  const reader *fallback = NULL;
  for (size_t i = 0; i < N_READERS; i++) {
    if (readers[i].sniff == sniff_any) fallback = &readers[i];
    else if (readers[i].sniff(p, n, gz)) return &readers[i];
  }
  return fallback;
}

rl_status rl_trace_read_file(rl_trace *t, const char *path, int32_t format, rl_error *err) {
  if (!t || !path) return rli_fail(err, RL_EINVAL, "no trace or no path");
  struct stat sb;
  if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
    return rli_fail(err, RL_EIO, "%s: is a directory", path);
  /* a FIFO or a socket is never opened: the open waits for a writer for
   * ever, and the format's sniffing would consume its first bytes */
  if (stat(path, &sb) == 0 && (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)))
    return rli_fail(err, RL_EIO, "%s: a %s, not a regular file: not read (give it on standard input, '-')", path,
                    S_ISFIFO(sb.st_mode) ? "FIFO" : "socket");
  const reader *r = reader_of(format);
  if (!r && format != RL_TRACE_AUTO)
    return rli_fail(err, RL_EINVAL, "unknown trace format %d", (int)format);
  if (!r) {
    FILE *f = fopen(path, "rb");
    if (!f) return rli_fail(err, RL_EIO, "%s: %s", path, strerror(errno));
    unsigned char head[64];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    if (n == 0) return rli_fail(err, RL_EPARSE, "%s: empty file", path);
    r = sniff(head, n);
  }
  if (r->read_whole) return r->read_whole(t, path, NULL, 0, path, err);
  rli_src s;
  rl_status st = rli_src_open_file(&s, path, err);
  if (st) return st;
  st = r->read(t, &s, err);
  rli_src_close(&s);
  return st;
}

rl_status rl_trace_read_buffer(rl_trace *t, const void *data, size_t len, int32_t format,
                               const char *label, rl_error *err) {
  if (!t || (!data && len)) return rli_fail(err, RL_EINVAL, "no trace or no data");
  if (!label) label = "(buffer)";
  const reader *r = reader_of(format);
  if (!r && format != RL_TRACE_AUTO)
    return rli_fail(err, RL_EINVAL, "unknown trace format %d", (int)format);
  if (len == 0) return rli_fail(err, RL_EPARSE, "%s: empty input", label);
  if (!r) r = sniff(data, len < 64 ? len : 64);
  if (r->read_whole) return r->read_whole(t, NULL, data, len, label, err);
  rli_src s;
  rli_src_open_mem(&s, data, len, label);
  rl_status st = r->read(t, &s, err);
  rli_src_close(&s);
  return st;
}

rl_status rl_trace_read_capture(rl_trace *t, const char *path, rl_error *err) {
  if (!t || !path) return rli_fail(err, RL_EINVAL, "no trace or no path");
  struct stat sb;
  if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
    return rli_fail(err, RL_EIO, "%s: not a regular file", path);
  rli_src s;
  rl_status st = rli_src_open_file(&s, path, err);
  if (st) return st;
  s.capture = 1;
  st = rli_read_kineto(t, &s, err);
  rli_src_close(&s);
  return st;
}
