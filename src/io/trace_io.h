/*
 * trace_io.h -- byte sources for the trace readers: a file or a memory
 * buffer, inflated on the fly when it starts with the gzip magic (zlib,
 * RFC 1952; several members in a row are read as one stream), on a
 * second thread that reads ahead while the reader parses.
 */
#ifndef RL_TRACE_IO_H
#define RL_TRACE_IO_H

#include "core/trace_internal.h"

#include <stdio.h>
#ifndef RL_NO_ZLIB
#include <zlib.h>
#endif

/* One complete ("X") event of a Kineto file as the cross-rank analysis
 * (trace_job_io.c) sees it: every category, not only the ones the roofline
 * reader keeps. Strings are NUL-terminated and valid during the call. */
typedef struct rli_kev {
  const char *cat, *name;
  double ts, dur;          /* microseconds, as in the file */
  int64_t stream, corr;    /* args "stream", "correlation"; -1 none */
  /* NCCL kernels (Kineto 2024+): "Collective name", "In msg nelems",
   * "dtype", "Process Group Name", "Group size"; "" / -1 none */
  char coll[24], dtype[16], pg[48];
  double in_nelems;
  int64_t group_size;
  /* the index the trace gives this kernel, memcpy or memset (its
   * rli_trace_kernel_get), -1 for other events */
  int64_t kidx;
} rli_kev;

/* An observer of a Kineto file's events and top-level metadata. */
typedef struct rli_ksink {
  void *ctx;
  int (*event)(void *ctx, const rli_kev *e); /* 0, or -1: out of memory */
  /* "rank", "world_size" (distributedInfo), "baseTimeNanoseconds" */
  void (*meta)(void *ctx, const char *key, double v);
} rli_ksink;

typedef struct rli_src {
  const char *label;         /* the file name, for messages */
  FILE *f;                   /* file source, or NULL */
  const unsigned char *mem;  /* memory source */
  size_t memlen, mempos;
  int gz;                    /* 1: gzip, inflating */
  int zinit, zdone;
#ifndef RL_NO_ZLIB
  z_stream z;
#endif
  unsigned char *in;         /* compressed input buffer */
  size_t incap;
  unsigned char peek[4];     /* first bytes, read to detect the format */
  size_t npeek, peekpos;
  uint64_t raw;              /* compressed (or plain) bytes consumed */
  struct rli_pipe *pipe;     /* the reading thread (trace_src.c), or NULL */
  char *blk;                 /* rli_src_block without the thread: its block */
  int blkfail;               /* ... and the error met after its text */
  rl_error blkerr;
  const rli_ksink *sink;     /* Kineto: every event to it too; NULL none */
  int capture;               /* Kineto: read only its CUDA-graph captures
                                (rl_trace_read_capture) */
} rli_src;

/* The prefixes of the SASS thread-instruction counters (ncu metric names;
 * the CUPTI range profiler's args in Kineto): PREFIX + "fadd_pred_on.sum". */
#define RLI_SASS_SMSP "smsp__sass_thread_inst_executed_op_"
#define RLI_SASS_SM "sm__sass_thread_inst_executed_op_"

rl_status rli_src_open_file(rli_src *s, const char *path, rl_error *err);
void rli_src_open_mem(rli_src *s, const void *data, size_t len, const char *label);
/* Read up to n bytes of the (inflated) text. Returns the count, 0 at the
 * end, or -1 with err set (truncated or corrupt gzip, read error). */
long rli_src_read(rli_src *s, char *dst, size_t n, rl_error *err);
/* The next piece of the text where it lies, without a copy (the reading
 * thread's block of 512 KiB, or what is left of it after rli_src_read):
 * *blk points at it, valid until the next call to rli_src_block or
 * rli_src_read or rli_src_close, which hand the block back to the thread.
 * Returns its length, 0 at the end, or -1 with err set. */
long rli_src_block(rli_src *s, const char **blk, rl_error *err);
void rli_src_close(rli_src *s);

/* The readers. Each fills t and returns RL_OK or an error naming
 * s->label and the byte offset or line. */
rl_status rli_read_kineto(rl_trace *t, rli_src *s, rl_error *err);
rl_status rli_read_ncu(rl_trace *t, rli_src *s, rl_error *err);
/* nsys: SQLite needs the whole database: a path, or a memory image. */
rl_status rli_read_nsys(rl_trace *t, const char *path, const void *mem, size_t len,
                        const char *label, rl_error *err);

#endif
