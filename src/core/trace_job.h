/*
 * trace_job.h -- what the job reader (src/io/trace_job_io.c) hands the pure
 * cross-rank analysis (src/core/trace_job.c): the timeline of one rank's
 * file as compact arrays, and the per-rank summary kept afterwards.
 * Prefix rli_.
 */
#ifndef RL_TRACE_JOB_H
#define RL_TRACE_JOB_H

#include "core/internal.h"

#include <stdint.h>

/* HTA's kernel types (hta/utils/utils.py get_kernel_type) */
enum { RLI_K_COMM = 0, RLI_K_MEM = 1, RLI_K_COMP = 2, RLI_K_OTHER = 3 };

/* HTA's kernel type of a GPU event name (the name patterns of
 * hta/common/types.py, anchored at the start as re.match is). */
int rli_hta_kernel_type(const char *name);
/* 1: a category of GPU kernels in HTA's idle-time breakdown (kernel,
 * Kernel, gpu_memset, Memset, gpu_memcpy, Memcpy, mtia_ccp_events). */
int rli_hta_kernel_cat(const char *cat);

/* A GPU-side event: one with args "stream" >= 0. */
typedef struct rli_gev {
  double ts, end;   /* microseconds as in the file */
  int64_t corr;     /* -1 none */
  int32_t stream;
  uint8_t type;     /* RLI_K_* */
  uint8_t kcat;     /* rli_hta_kernel_cat */
  uint8_t kernel;   /* category kernel/Kernel: counted in the spread */
  uint8_t pad;
  uint32_t name;    /* kernel name id (kernel only), else UINT32_MAX */
} rli_gev;

/* A host-side event with a correlation id (launch calls). */
typedef struct rli_cev {
  double ts;
  int64_t corr;
} rli_cev;

/* A ProfilerStep#N annotation */
typedef struct rli_step {
  double ts, dur;
  int64_t n;
} rli_step;

/* A collective kernel */
typedef struct rli_coll {
  double ts, end;     /* microseconds; aligned by rl_job_finish */
  double bytes;       /* S (In msg nelems x dtype size); 0 unknown */
  int32_t kind;       /* RLI_COLL_*, -1 unknown: the trace's own analysis
                         (rli_trace_kernel_coll), else the kernel's name */
  int32_t group_size; /* n as the trace's analysis takes it (recorded, else
                         the world size); 0 unknown */
  int64_t kidx;       /* the kernel's index in its trace; -1 none */
  char group[64];     /* "group NAME" (Process Group Name), else "stream N" */
} rli_coll;

/* A kernel not taken as a collective while reading, which the trace's
 * analysis may count as one (launched by an nccl:* or c10d op). */
typedef struct rli_kref {
  double ts, end;
  int64_t kidx;
  int32_t stream;
} rli_kref;

/* One rank's file as read. */
typedef struct rli_rankraw {
  rli_gev *g;
  size_t ng, capg;
  rli_cev *c;
  size_t nc, capc;
  rli_step *s;
  size_t ns, caps;
  rli_coll *col;
  size_t ncol, capcol;
  rli_kref *kr;
  size_t nkr, capkr;
  char **names; /* kernel names by id */
  size_t nnames, capnames;
  double rank, world, base_ns;
  int has_rank, has_world;
} rli_rankraw;

/* Per kernel name: total time over the rank's kernels. */
typedef struct rli_kstat {
  char *name;
  double time_s;
  int64_t count;
} rli_kstat;

/* The figures of HTA's temporal breakdown, idle-time breakdown and
 * communication/computation overlap of one rank, the steps, the
 * collectives and the per-name kernel times: into r (the rl_job_rank
 * fields), *cols (ncol) and *ks (nks), allocated here. hta: HTA's event
 * set and rounding. kernel_wait_us: HTA's consecutive_kernel_delay. */
rl_status rli_job_rank_figures(const rli_rankraw *raw, int hta, double kernel_wait_us,
                               rl_job_rank *r, rli_coll **cols, size_t *ncol, rli_kstat **ks,
                               size_t *nks, rl_error *err);

/* The job's slot i: summary and arrays (owned by the job). */
rl_status rli_job_set(rl_job *j, int32_t i, const rl_job_rank *r, rli_coll *cols, size_t ncol,
                      rli_kstat *ks, size_t nks, rl_error *err);
const rl_job_opts *rli_job_opts(const rl_job *j);
int32_t rli_job_size(const rl_job *j);

#endif
