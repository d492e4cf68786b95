/*
 * trace_internal.h -- what the trace readers (src/io/trace_*.c) share with
 * the pure trace model (src/core/trace*.c). Prefix rli_.
 */
#ifndef RL_TRACE_INTERNAL_H
#define RL_TRACE_INTERNAL_H

#include "core/internal.h"

#include <stdint.h>
#include <string.h>

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
  uint32_t note;        /* 1 + the string id saying how a known F and Q
                           was found (an inferred size); 0 none */
  int32_t reason;       /* with why: the rl_trace_reason it counts under */
  int32_t roof;         /* RLI_ROOF_*: which roof bounds it */
  int32_t coll;         /* RLI_ROOF_NET: the RLI_COLL_* kind */
  int32_t ranks;        /* RLI_ROOF_NET: group size n (0: unknown) */
  int32_t per_rank;     /* RLI_ROOF_NET: bytes is one rank's share, S = n x
                           bytes (an all-gather known by its input) */
  int32_t per_elem;     /* RLI_ELEM_*: bytes counts elements, not bytes (an
                           op on tensor lists, whose element type the
                           profiler does not record); the reader resolves it
                           with the launching kernel's (rli_list_cost) */
  int32_t lower;        /* RLI_LOWER_*: what of F and Q is a lower bound */
  double ws;            /* CPU ops: the distinct bytes one call touches
                           (its working set, which picks the cache level
                           whose roof bounds it); 0 unknown: Q */
} rli_cost;

/* A cost known to nothing yet, for a model to fill: F, Q, bytes and the
 * rest 0, no format (dtype -1), no collective (coll -1), no why, counted
 * under reason until the model says otherwise. */
static inline void rli_cost_init(rli_cost *c, int32_t reason) {
  memset(c, 0, sizeof *c);
  c->dtype = -1;
  c->coll = -1;
  c->why = RLI_NONE;
  c->reason = reason;
}

/* lower: BYTES, Q is a lower bound (a Triton launch's tensors each read or
 * written once, a compiled region's recorded inputs read once), so the
 * time at the roof is one too; NOFLOPS, F was not counted (0 stands in,
 * the memory roof bounds it). */
enum { RLI_LOWER_BYTES = 1, RLI_LOWER_NOFLOPS = 2 };

/* per_elem: 0 bytes are bytes; FLOAT: a floating-point update (F on the
 * vector peak of the element's format); MOVE: data movement (F = 0, any
 * element type, on the memory roof). */
enum { RLI_ELEM_NONE = 0, RLI_ELEM_FLOAT = 1, RLI_ELEM_MOVE = 2 };

/* The roof a cost is measured against. CHIP: the peak of its format and
 * the memory bandwidth (dtype, tensor); NET: a collective's bus bandwidth
 * against the device's scale-up link (bytes = the nccl-tests message size
 * S); HBM: bytes moved on the device (memcpy DtoD, memset) against the
 * memory bandwidth; HOST: bytes over the host link (memcpy HtoD, DtoH). */
enum { RLI_ROOF_CHIP = 0, RLI_ROOF_NET = 1, RLI_ROOF_HBM = 2, RLI_ROOF_HOST = 3 };

/* Collectives as nccl-tests names them (doc/PERFORMANCE.md). */
enum {
  RLI_COLL_ALLREDUCE, RLI_COLL_ALLGATHER, RLI_COLL_REDUCESCATTER, RLI_COLL_ALLTOALL,
  RLI_COLL_BROADCAST, RLI_COLL_REDUCE, RLI_COLL_SENDRECV, RLI_COLL_COUNT
};
/* "allreduce", "all_reduce", "_allgather_base", "nccl:all_to_all",
 * "reduce_scatter_tensor", ... -> RLI_COLL_*; -1 when not a collective. */
int32_t rli_coll_kind(const char *name);
const char *rli_coll_name(int32_t kind);
/* nccl-tests' bus-bandwidth factor for n ranks: busbw = algbw x factor. */
double rli_coll_factor(int32_t kind, double n);
/* The cost of one collective: S bytes over n ranks (n < 0: not recorded,
 * the world size stands in at analysis). Returns 0 with c->reason and why
 * when the figures are unusable (negative or absurd S, n = 0). */
int rli_coll_cost(int32_t kind, double S, double n, rli_cost *c, char *why, size_t cap);
/* Kernel i's collective as the trace's own analysis counts it (the cost
 * it is counted under: its op's, else its own): 1 with its RLI_COLL_* kind
 * (-1 none), S (-1 unknown), n (< 1 unknown) and whether n is the world
 * size standing in; 0 when the kernel is no collective. After reading;
 * what the collectives table and a job's ranks both take. */
int rli_trace_kernel_coll(rl_trace *t, size_t i, int32_t *kind, double *S, double *n, int *guess);
/* The job's world size (distributedInfo), for collectives whose group size
 * the profiler did not record. */
void rli_trace_set_world(rl_trace *t, int32_t world);

/* A cost that says only why it is unknown, counted under `reason`. */
uint32_t rli_trace_cost_reason(rl_trace *t, int32_t reason, const char *why);
/* rl_trace_set_cpu's choice: 1 the CPU ops are the kernels even beside
 * GPU kernels (the reader then skips those). */
int rli_trace_cpu_mode(const rl_trace *t);
/* The model rl_trace_set_model named (experts 0 when none; world 0: the
 * reader sets the file's world size in its copy). */
const struct rli_moe *rli_trace_moe(const rl_trace *t);
/* The kernels are a CPU trace's ops (the Kineto reader, after adding
 * them): the processor the file names ("" none) and its intra-op threads
 * (0 unknown; rl_trace_set_threads's count wins). */
void rli_trace_set_cpu_ops(rl_trace *t, const char *model, int32_t threads);
/* The processor's CPUID vendor, family and model (-1 unknown), which a
 * measured hardware row is checked against. */
void rli_trace_set_cpu_id(rl_trace *t, const char *vendor, int32_t family, int32_t model);
/* A CPU trace refuses a device that is no CPU, and a measured row of
 * another processor or thread count (trace.c); RL_OK for GPU traces. */
rl_status rli_trace_check_cpu_hw(const rl_trace *t, const rl_hw *hw, rl_error *err);
/* The trace's ops were recorded without shapes (no Input Dims anywhere). */
void rli_trace_set_no_shapes(rl_trace *t, int32_t no_shapes);
/* The family of a kernel from its own name, the function's (rli_kernel_own_name:
 * not its template arguments or parameters): "GEMM library", "cuDNN", "Triton
 * pointwise", "NCCL", "all-to-all (MoE dispatch/combine)", ..., for kernels
 * without F and Q; never NULL. */
const char *rli_kernel_family(const char *name);
/* A demangled kernel signature's own name, "void ns::f<T>(int)" -> "ns::f",
 * into out (cap bytes, cut to fit). */
void rli_kernel_own_name(const char *s, char *out, size_t cap);
/* One template argument of a kernel's name: s[0..n), blanks around it
 * trimmed (not NUL-terminated). */
typedef struct rli_targ {
  const char *s;
  size_t n;
} rli_targ;
/* The top-level template arguments of the list whose '<' is at p in a
 * kernel's name ("<float, 2, (at::native::ADAM_MODE)1, true>"; lists and
 * parentheses nested in an argument stay in it), into a[0..max): returns
 * how many were read whole -- each ended by its ',' or by the list's '>'
 * -- with *closed 1 when the list's '>' was read (every argument given),
 * 0 when the name ends before it (cut short) or the list has more than max
 * arguments; -1 when p is not at a '<'. An argument the name ends in is
 * never given: "Functor<float" may be cut from "Functor<float2, ...>",
 * "OpaqueType<1" from "OpaqueType<16u>" (trace_coll.c). */
int rli_kernel_targs(const char *p, rli_targ *a, int max, int *closed);
/* A template argument's name without its namespaces and its own template
 * arguments ("at::native::FusedAdamMathFunctor<float, 4>" ->
 * "FusedAdamMathFunctor") into out (cap bytes, cut to fit); returns where
 * its own list's '<' is (for rli_kernel_targs), NULL when it has none. */
const char *rli_kernel_targ_name(const rli_targ *a, char *out, size_t cap);
/* The format a GEMM, convolution or attention kernel's name says its tensor
 * cores ran (RL_TF32, RL_FP8, RL_INT8, RL_FP4), or -1 (trace_coll.c). */
int32_t rli_kernel_precision(const char *name);

/* Intern a string (len bytes, need not be NUL-terminated); returns its id
 * or RLI_NONE when out of memory. */
uint32_t rli_trace_str(rl_trace *t, const char *s, size_t len);
const char *rli_trace_strat(const rl_trace *t, uint32_t id);
/* Intern a cost by value; RLI_NONE when out of memory. */
uint32_t rli_trace_cost(rl_trace *t, const rli_cost *c);
/* The cost of an id (rli_trace_cost's), or NULL. */
const rli_cost *rli_trace_cost_get(const rl_trace *t, uint32_t id);
/* A cost that says only why it is unknown. */
uint32_t rli_trace_cost_why(rl_trace *t, const char *why);
/* A new op instance (one call of an op); returns its id. */
uint32_t rli_trace_new_inst(rl_trace *t, uint32_t cost);
/* A host op [start_s, end_s] (the reader's time origin, as kernels'),
 * named by string id, at its depth (the ops around it on its CPU thread;
 * a profiler step's annotation and an nn.Module frame are not ops): the
 * ops during the GPU's idle gaps (rl_trace_get_idle). Kept in 16 bytes:
 * its duration as a float (7 digits: 8 ns of a 140 ms op), its depth (up
 * to RLI_HOST_DEPTH_MAX; deeper ops are not kept) in the name's top 4 bits
 * (an op whose name id is past 2^28 is not kept). RL_ENOMEM when out of
 * memory. */
#define RLI_HOST_DEPTH_MAX 15u
typedef struct rli_host_op {
  double start_s;
  float dur_s;
  uint32_t name_depth; /* name | depth << 28 */
} rli_host_op;
rl_status rli_trace_host_op(rl_trace *t, double start_s, double end_s, uint32_t name, uint32_t depth);
/* Room for n more host ops in one allocation (a reader that counts them
 * first), so that the array is not grown by doubling, its copies freed
 * behind it at the reader's peak. RL_ENOMEM when out of memory. */
rl_status rli_trace_host_reserve(rl_trace *t, size_t n);
/* The innermost nn.Module around op instance `inst` (a string id: with
 * with_stack=True, the python_function event "nn.Module: X"); the fusion
 * candidates are keyed by it. */
void rli_trace_inst_module(rl_trace *t, uint32_t inst, uint32_t module);

/* One kernel execution. dur_s < 0: no time known. */
typedef struct rli_kernel {
  double start_s, dur_s;
  uint32_t name, op; /* string ids (op RLI_NONE: unknown) */
  uint32_t cost;     /* the kernel's own cost (counters), or RLI_NONE */
  uint32_t inst;     /* the op instance that launched it, or RLI_NONE */
  int32_t device;
  int16_t kind;      /* RLI_K_* */
  uint16_t stream;   /* rli_trace_stream's id of its stream; 0 unknown */
} rli_kernel;

/* The reader's time origin, for the compact kernel records: start_s
 * values (ts - origin_us) x 1e-6 of ts = N / 1000 us (integer N: Kineto's
 * ts with 3 decimals) are kept as N. Any other value is kept exactly too,
 * in more bytes. */
void rli_trace_time_origin(rl_trace *t, double origin_us);
/* A small id (1..65535) for a stream as the file numbers it (a CUDA stream
 * id, per device), to tell kernels on one stream; 0 when raw < 0 (not
 * recorded) or past 65535 distinct streams. */
uint16_t rli_trace_stream(rl_trace *t, int64_t raw);
/* A kernel the reader dropped because it ends before it starts. */
void rli_trace_drop_backwards(rl_trace *t);

enum { RLI_K_KERNEL = 0, RLI_K_MEMCPY = 1, RLI_K_MEMSET = 2 };
/* inst of a kernel the reader counted as unlinked (rli_trace_set_unlinked):
 * never an op instance's id */
#define RLI_UNLINKED (RLI_NONE - 1)

rl_status rli_trace_add(rl_trace *t, const rli_kernel *k, rl_error *err);
/* Kernel i (0 past the end), and its fields set anew: the launching op
 * after the fact (Kineto links at the end). The trace keeps kernels
 * encoded, a few bytes each (trace_store.c and trace_pack.c), read and set
 * through a cache of one block: in index order, each block is decoded
 * and encoded once. */
int rli_trace_kernel_get(rl_trace *t, size_t i, rli_kernel *k);
rl_status rli_trace_kernel_set(rl_trace *t, size_t i, const rli_kernel *k, rl_error *err);
size_t rli_trace_nkernels(const rl_trace *t);
/* Kernels k0 .. k0 + n - 1 launched before the profiling window (linked
 * as such: inst RLI_UNLINKED, reason RL_REASON_PRE_WINDOW) take the F and Q
 * of the in-window kernels of their signature (sig[i]: an id below nsig,
 * or RLI_NONE; trace_sig.c says when a signature lends nothing); signame
 * and sigbare (per signature: its kernel name's id, 1 for the name alone;
 * NULL, NULL: no name-alone matching) let a kernel recorded without a grid
 * take what in-window kernels of its name with a grid say; then runs of
 * them on one stream whose signatures are, in order, all the kernels of an
 * in-window op take its F and Q once, as a new op instance (new entries in
 * t->inst). Returns how many were costed so (the reader's unlinked count drops by as many);
 * *oom set when memory ran out (the kernels not reached stay as they were). */
int64_t rli_trace_infer_signature(rl_trace *t, size_t k0, size_t n, const uint32_t *sig,
                                  const uint32_t *signame, const uint8_t *sigbare, uint32_t nsig,
                                  int *oom);

void rli_trace_set_format(rl_trace *t, const char *format);
void rli_trace_set_device(rl_trace *t, const char *name, double mem_bytes,
                          int32_t cc_major, int32_t cc_minor);
/* The device's SMs (AMD: compute units) and warp size, 0 unknown: with the
 * compute capability and memory, what names a device whose name does not
 * (rli_device_hw_id's cc=, sms=, warp= terms). */
void rli_trace_set_device_units(rl_trace *t, int32_t sms, int32_t warp);
/* A DRAM rate (B/s) a kernel of the file was measured at (Nsight Compute:
 * dram__bytes.sum.per_second, or dram__bytes.sum over its time): the
 * highest is kept, with its kernel, for rl_trace_analyze's check of the
 * device's bandwidth. */
void rli_trace_note_dram(rl_trace *t, double bytes_per_s, const char *kernel, int64_t launch);
void rli_trace_count_events(rl_trace *t, int64_t n);
/* The file has no timeline (ncu replays kernels one by one): no span and
 * no idle time. */
void rli_trace_set_no_timeline(rl_trace *t);
void rli_trace_set_unlinked(rl_trace *t, int64_t n);

/* What Nsight Compute measured of one launch beyond F, Q and its time
 * (the hierarchical roofline, speed of light, occupancy). < 0: not in the
 * export (rates and peaks: 0). */
typedef struct rli_ncu_launch {
  int64_t id;                 /* the launch's ID */
  double l1_bytes, l2_bytes;  /* l1tex__t_bytes.sum, lts__t_bytes.sum */
  double sol_sm, sol_mem;     /* sm__throughput / gpu__compute_memory_
                                 throughput .avg.pct_of_peak_sustained_elapsed,
                                 as fractions */
  double occ_theory, occ_achieved; /* fractions */
  double waves;               /* waves per SM (launch__waves_per_multiprocessor) */
  double sm_hz;               /* profiled SM clock (sm__cycles_elapsed.avg.per_second) */
  double bw[3];               /* L1, L2, DRAM peak-sustained B/s from the export */
  double peak[4];             /* fp64, fp32, fp16, tensor FLOP/s from the export */
  int32_t tensor_src;         /* 0: no tensor work; 1: sm__ops_path_tensor_*;
                                 2: sm__inst_executed_pipe_tensor x FLOPs per
                                 instruction of the architecture */
} rli_ncu_launch;

/* Attach m to the kernel added last (ncu). */
rl_status rli_trace_add_launch(rl_trace *t, const rli_ncu_launch *m, rl_error *err);

/* ---- ATen op costs (trace_aten.c) ------------------------------------ */
#define RLI_ATEN_MAX_IN 32
#define RLI_ATEN_MAX_DIM 8
/* ndim of a tensor-list argument whose shapes were recorded (PyTorch 2.x
 * nests them in Input Dims: [[a, b], [c]]); its tensors and their elements
 * in list_len and list_elems */
#define RLI_ATEN_LIST (-2)
#define RLI_STR_BAD (-1)
#define RLI_STR_LIST (-2)
typedef struct rli_aten_args {
  int32_t n_in;                                   /* inputs seen */
  int32_t ndim[RLI_ATEN_MAX_IN];                  /* -1: not a tensor shape
                                                     (or an unusable one) */
  double dims[RLI_ATEN_MAX_IN][RLI_ATEN_MAX_DIM];
  int32_t list_len[RLI_ATEN_MAX_IN];              /* RLI_ATEN_LIST: tensors */
  double list_elems[RLI_ATEN_MAX_IN];             /* RLI_ATEN_LIST: elements */
  int32_t has_dims, has_types, n_types, n_concrete;
  /* the arguments past RLI_ATEN_MAX_IN (a compiled region's inputs): how
   * many, the elements of those with a plain shape, whether a shape was
   * unusable (a negative or absurd size), and the fewest bytes of an element
   * among their types (0 none) */
  int32_t more_n, more_bad;
  double more_elems, more_type_bytes;
  /* Input Strides (PyTorch >= 2.1): of the first n_str inputs, how many
   * strides each has (str_rank; RLI_STR_BAD: a stride negative or not a
   * number, RLI_STR_LIST: a tensor list's, not used) and which are 0
   * (str_zero, bit d: stride d is 0: an expanded dimension, its elements
   * repeated). n_str 0: not recorded (args built by hand leave it so). */
  int32_t n_str;
  int8_t str_rank[RLI_ATEN_MAX_IN];
  uint8_t str_zero[RLI_ATEN_MAX_IN];
  char types[RLI_ATEN_MAX_IN][32];
  char concrete[RLI_ATEN_MAX_IN][48];
  /* record_param_comms / NCCL kernel args (PyTorch 2.1+) */
  int32_t has_coll;                               /* "Collective name" seen */
  char coll_name[32], coll_dtype[32];
  double in_nelems, out_nelems, group_size;       /* -1 when absent */
} rli_aten_args;

/* The collective cost of an event with record_param_comms' args (trace_aten.c,
 * with the op costs: the collective models know no ATen args). Returns 1
 * with c filled, or 0 with why (c->reason set). */
int rli_coll_from_args(const rli_aten_args *a, rli_cost *c, char *why, size_t cap);

/* F and Q of one call of an ATen op (or of a custom op of trace_custom.c's
 * table) from its recorded shapes. Returns 1 with c filled (why RLI_NONE;
 * a custom op whose F or Q is a bound says how in `why`, else why is
 * left empty), or 0 with `why` (a static or a buffer's text) saying why
 * not. */
int rli_aten_cost(const char *name, const rli_aten_args *a, rli_cost *c,
                  char *why, size_t why_cap);

/* The model a trace ran, as the MoE ops whose recorded arguments hold no
 * weights (vLLM's moe_forward) need it (rl_trace_set_model; trace_custom.c
 * states the formula). experts 0: no model named. */
typedef struct rli_moe {
  double d, d_ff;       /* d_model, the experts' intermediate size */
  double experts;       /* routed experts E */
  double active;        /* routed experts per token k */
  double shared;        /* shared experts (moe_forward_shared) */
  int32_t gated;        /* 1: three matrices per expert (SwiGLU), else two */
  int32_t wfmt;         /* rl_wfmt the model stores its routed experts in
                           (rl_model.expert_weights; 0: not given) */
  int32_t world;        /* ranks the experts are sharded over (the trace's
                           world size when the op was read; <= 1: one) */
  const char *id;       /* the model's id, for notes */
} rli_moe;

/* rli_aten_cost with the trace's model (NULL or experts 0: none named):
 * 1 or 0 as rli_aten_cost, or -1 when the model cannot be the one the
 * trace ran (an MoE op of another expert count, hidden states narrower
 * than its d_model), with why saying so: the read is refused. */
int rli_aten_cost_moe(const char *name, const rli_aten_args *a, const rli_moe *moe, rli_cost *c,
                      char *why, size_t why_cap);

/* Serving engines' and kernel libraries' custom ops (trace_custom.c, from
 * data/custom_ops.csv): whether the table has a row for the op named as
 * recorded, and the i-th name of the table (sorted; NULL past the end). */
int rli_custom_has(const char *name);
/* 1 when that row is a fused MoE op's (kind moe: its experts from the model) */
int rli_custom_moe(const char *name);
const char *rli_custom_name(size_t i);
/* The cost of one call of such an op (rli_aten_cost calls it for the
 * table's ops): 1 with c filled and, when its F or Q is a bound, `note`
 * saying how (else note empty); 0 with why (c->reason set); -1 (an MoE
 * op, moe given) when the model cannot be the trace's, with why. */
int rli_custom_cost(const char *name, const rli_aten_args *a, const rli_moe *moe, rli_cost *c,
                    char *why, size_t cap, char *note, size_t note_cap);
/* The distinct bytes one call of a CPU op touches (its working set, which
 * picks the cache level whose roof bounds it), given its traffic Q: at
 * most Q; 0 when Q is unknown. */
double rli_aten_working_set(const char *full, const rli_aten_args *a, double Q);

/* The note of a cost with a lower bound (a Triton launch, a compiled
 * region): how its F and Q were found; NULL for other costs. */
const char *rli_aten_lower_note(const char *full, const rli_cost *c);

/* A forward convolution with input and weight but no stride or padding
 * recorded: its spatial rank (the reader then looks for its output size),
 * else 0. */
int rli_aten_conv_needs_output(const char *name, const rli_aten_args *a);
/* Its cost with the output [N, C_out, o...] (nd dims) taken from the
 * backward's grad_output; 0 with why when they do not match. */
int rli_aten_conv_inferred(const char *name, const rli_aten_args *a, const double *out, int nd,
                           rli_cost *c, char *why, size_t cap);

/* A 2-D pooling op (max_pool2d_with_indices, avg_pool2d) without its
 * kernel size recorded: its spatial rank (2), else 0; and its lower-bound
 * cost (its outputs written once: RLI_LOWER_BYTES) from the output
 * [N, C, Ho, Wo] the backward's grad_output gives. */
int rli_aten_pool_needs_output(const char *name, const rli_aten_args *a);
int rli_aten_pool_inferred(const char *name, const rli_aten_args *a, const double *out, int nd,
                           rli_cost *c, char *why, size_t cap);

/* A view, an allocation or metadata (aten::view, aten::empty, aten::t, ...):
 * no data moved, F = Q = 0 (CPU traces time them). */
int rli_aten_no_data(const char *name);

/* Autograd nodes: "MmBackward0", "ReluBackward0" ... (not the engine's
 * "autograd::engine::evaluate_function: ..." around them). */
int rli_aten_is_node(const char *name);
/* Whether `node` is the autograd node a call of `fwd` creates
 * (AddmmBackward0 of aten::addmm, LogSoftmaxBackward0 of aten::_log_softmax). */
int rli_aten_node_of(const char *node, const char *fwd);
/* Whether the op has a backward model below. */
int rli_aten_has_bwd(const char *fwd);
/* The cost of the backward of one call of `fwd` from its recorded shapes
 * (its autograd node's kernels); 0 with why when there is no model or the
 * shapes do not fit. */
int rli_aten_bwd_cost(const char *fwd, const rli_aten_args *a, rli_cost *c, char *why,
                      size_t cap);

/* An op's cost counted in elements (per_elem) made a cost in bytes with
 * the element type of the kernel it launched, read from the kernel's name
 * (the scalar type ATen's templates are instantiated with:
 * multi_tensor_apply_kernel<..., BinaryOpListAlphaFunctor<float, ...>>,
 * FusedAdamMathFunctor<c10::Half, ...>, CatArrayBatchedCopy<float, ...>,
 * OpaqueType<4>). Returns 1 with out filled (a note saying where the type
 * came from), 0 with why when the name gives no element type. */
int rli_list_cost(const rli_cost *in, const char *kernel, rli_cost *out, char *why, size_t cap);

/* The element type a template argument of a kernel's name spells ("float",
 * "c10::Half", "at::native::(anonymous namespace)::OpaqueType<4u>", "long"):
 * its bytes (0 none), *dt its rl_dtype (-1: integers, bool, an opaque
 * type), *base the name without its namespaces (when base is not NULL). */
double rli_kernel_elem_type(const char *targ, int32_t *dt, const char **base);

/* FLOPs an element of one Adam update does at least (torch/optim/adam.py's
 * _single_tensor_adam: the derivation is trace_aten.c's, at _fused_adam),
 * with no weight decay, amsgrad or maximize. */
#define RLI_ADAM_FLOPS 13

/* A multi-tensor-apply kernel (NVIDIA apex's and ATen's
 * multi_tensor_apply_kernel) bounded from its name and its launch grid's x
 * (trace_mta.c): 1 with c filled (a lower bound on bytes, and a note in
 * why), 0 with why (c->reason set) when the name or grid cannot bound it,
 * -1 when the kernel is no multi-tensor kernel of a known scheme. */
int rli_mta_cost(const char *kernel, double grid_x, rli_cost *c, char *why, size_t cap);

/* Kernels k0 .. k0 + n - 1 that are multi-tensor-apply kernels and that no
 * op bounds (no op, or an op whose cost is unknown: tensor lists whose
 * sizes the profiler did not record) take rli_mta_cost's bound from their
 * signature's grid (sig[i] below nsig, RLI_NONE none; grid_x[s] the x of
 * signature s's grid, < 0 none; sig_name[s] its kernel name's string id).
 * A kernel the rule refuses keeps its reason with the rule's added.
 * Returns how many kernels without an op (inst RLI_UNLINKED) were costed
 * (the reader's unlinked count drops by as many); *oom set when memory ran
 * out. */
int64_t rli_trace_multi_tensor(rl_trace *t, size_t k0, size_t n, const uint32_t *sig,
                               const double *grid_x, const uint32_t *sig_name, uint32_t nsig,
                               int *oom);

/* The i-th base name of the table of ATen ops with a cost model (sorted);
 * NULL past the end. */
const char *rli_aten_name(size_t i);

/* What the i-th row of that table costs by (for the tests that walk it):
 * the op kind whose formula (ops.c, rl_op_cost) gives its F and Q (-1: none),
 * its handler's formula in words (NULL: a row with no handler), and the
 * FLOPs per element of an elementwise or reduction row (by its op kind's
 * formula when it has one; 0 for other handlers). 0 past the end. */
typedef struct rli_aten_row {
  const char *name;
  int32_t kind;
  const char *formula;
  double per_elem;
} rli_aten_row;
int rli_aten_row_info(size_t i, rli_aten_row *out);

/* ---- PyTorch type names (trace_torch.c) ----------------------------- */
/* Bytes of one element of a type as PyTorch names it ("float", "c10::Half",
 * "long int", record_param_comms' "Float", "BFloat16", "Long"); 0 unknown. */
double rli_torch_type_bytes(const char *type);
/* "c10::BFloat16" -> RL_BF16 ...; -1 for integer and unknown types. */
int32_t rli_torch_dtype(const char *type);

/* ---- CUDA-graph replays matched to their capture (trace_graph.c) ------ */
/* One launch call of a capture, in the order it was made: its kernel's
 * name, the op around the call (RLI_NONE none) and that op's cost, and
 * the index (in the capture) of the first launch of the same op call, so
 * that a replay makes one op instance per captured op call. */
typedef struct rli_glaunch {
  uint32_t name, op, cost, first;
} rli_glaunch;
/* A capture of n launches (a BeginCapture..EndCapture span) made by process
 * pid; external: read from a capture file (rl_trace_read_capture); unnamed:
 * its launch calls name no kernel (CUDA), so no replay can be checked
 * against it. 0 when out of memory. */
int rli_trace_graph_add(rl_trace *t, int64_t pid, int external, int unnamed, const rli_glaunch *l,
                        size_t n);
/* The capture file's name, for messages. */
void rli_trace_graph_source(rl_trace *t, const char *label);
const char *rli_trace_graph_source_name(const rl_trace *t);
/* The capture file's name when captures were read from one and none of
 * them was made by process pid (*other: one's process), else NULL. */
const char *rli_trace_graph_external(const rl_trace *t, int64_t pid, int64_t *other);
/* How many captures are held, from a capture file (external 1) or not. */
size_t rli_trace_graph_captures(const rl_trace *t, int external);
/* The capture a replay of n kernels (their names in time order) by process
 * pid replays: its launches, the first n of which the replay's kernels are
 * (*unreplayed: how many more it made, whose kernels the replay does not
 * show; 0 when a capture of exactly n fits, which is preferred); NULL with
 * why (cap bytes) when none fits, or several fit with different ops. */
const rli_glaunch *rli_trace_graph_match(rl_trace *t, int64_t pid, const uint32_t *names, size_t n,
                                         size_t *unreplayed, char *why, size_t cap);
/* The cost of an op instance (RLI_NONE: none). */
uint32_t rli_trace_inst_cost(const rl_trace *t, uint32_t inst);
/* Replayed kernels matched to their capture and not; captured launches
 * of matched replays with no kernel in the replay. */
void rli_trace_graph_count(rl_trace *t, int64_t matched, int64_t unmatched, int64_t unreplayed);

/* An op's reason for being left uncovered, formatted into why (cap bytes):
 * returns 0, the cost handlers' "not covered" (trace_aten.c, trace_custom.c) */
int rli_why_fail(char *why, size_t cap, const char *fmt, ...) RLI_PRINTF(3, 4);

#endif
