/*
 * trace_internal.h -- what the trace readers (src/io/trace_*.c) share with
 * the pure trace model (src/core/trace.c, trace_aten.c). Prefix rli_.
 */
#ifndef RL_TRACE_INTERNAL_H
#define RL_TRACE_INTERNAL_H

#include "core/internal.h"

#include <stdint.h>

#define RLI_NONE UINT32_MAX

/* The cost of one call of an op, or of one kernel from its counters. */
typedef struct rli_cost {
  double flops, bytes;  /* F, Q; < 0 unknown */
  double tensor_inst;   /* ncu: tensor-pipe warp instructions (F added at
                           analysis time, by architecture); 0 none */
  int32_t dtype;        /* rl_dtype of the roof; -1 unknown */
  int32_t tensor;       /* 1: matmul-like (tensor peak) */
  int32_t measured;     /* 1: from hardware counters */
  uint32_t why;         /* string id: why F or Q is unknown; RLI_NONE */
} rli_cost;

/* Intern a string (len bytes, need not be NUL-terminated); returns its id
 * or RLI_NONE when out of memory. */
uint32_t rli_trace_str(rl_trace *t, const char *s, size_t len);
const char *rli_trace_strat(const rl_trace *t, uint32_t id);
/* Intern a cost by value; RLI_NONE when out of memory. */
uint32_t rli_trace_cost(rl_trace *t, const rli_cost *c);
/* A cost that says only why it is unknown. */
uint32_t rli_trace_cost_why(rl_trace *t, const char *why);
/* A new op instance (one call of an op); returns its id. */
uint32_t rli_trace_new_inst(rl_trace *t, uint32_t cost);

/* One kernel execution. dur_s < 0: no time known. */
typedef struct rli_kernel {
  double start_s, dur_s;
  uint32_t name, op; /* string ids (op RLI_NONE: unknown) */
  uint32_t cost;     /* the kernel's own cost (counters), or RLI_NONE */
  uint32_t inst;     /* the op instance that launched it, or RLI_NONE */
  int32_t device;
} rli_kernel;

rl_status rli_trace_add(rl_trace *t, const rli_kernel *k, rl_error *err);
/* Set the kernel's launching op after the fact (Kineto links at the end). */
rli_kernel *rli_trace_kernel_at(rl_trace *t, size_t i);
size_t rli_trace_nkernels(const rl_trace *t);

void rli_trace_set_format(rl_trace *t, const char *format);
void rli_trace_set_device(rl_trace *t, const char *name, double mem_bytes,
                          int32_t cc_major, int32_t cc_minor);
void rli_trace_count_events(rl_trace *t, int64_t n);
/* The file has no timeline (ncu replays kernels one by one): no span and
 * no idle time. */
void rli_trace_set_no_timeline(rl_trace *t);
void rli_trace_set_unlinked(rl_trace *t, int64_t n);

/* ---- ATen op costs (trace_aten.c) ------------------------------------ */
#define RLI_ATEN_MAX_IN 16
#define RLI_ATEN_MAX_DIM 8
typedef struct rli_aten_args {
  int32_t n_in;                                   /* inputs seen */
  int32_t ndim[RLI_ATEN_MAX_IN];                  /* -1: not a tensor shape */
  double dims[RLI_ATEN_MAX_IN][RLI_ATEN_MAX_DIM];
  int32_t has_dims, has_types, n_types, n_concrete;
  char types[RLI_ATEN_MAX_IN][32];
  char concrete[RLI_ATEN_MAX_IN][48];
} rli_aten_args;

/* F and Q of one call of an ATen op from its recorded shapes. Returns 1
 * with c filled (why RLI_NONE), or 0 with `why` (a static or a buffer's
 * text) saying why not. */
int rli_aten_cost(const char *name, const rli_aten_args *a, rli_cost *c,
                  char *why, size_t why_cap);

/* "c10::BFloat16" -> RL_BF16 ...; -1 for integer and unknown types. */
int32_t rli_torch_dtype(const char *type);

/* The database id for a device name as profilers write it; NULL. */
const char *rli_device_hw_id(const char *name, double mem_bytes);

#endif
