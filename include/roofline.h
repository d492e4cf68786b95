/*
 * roofline.h -- the public interface of libroofline.
 *
 * Whatever is not declared in this file is private to the library and may
 * change without notice. The command-line tool, the Python binding and the
 * WebAssembly page are all clients of this header and of nothing else.
 *
 * Conventions, stated once:
 *   - Every quantity is a double in base SI units: FLOP, bytes (B), seconds
 *     (s), FLOP/s, B/s. Decimal prefixes everywhere (1 GB = 1e9 B); binary
 *     prefixes only where the unit says so (1 GiB = 2^30 B).
 *   - Peaks are dense. A 2:4 structured-sparse peak is used only when a
 *     caller asks for it (RL_ROOF_SPARSE), and results then say so.
 *   - Functions return rl_status (RL_OK == 0). When a function fails and the
 *     caller passed an rl_error, its msg holds one line naming the argument
 *     and what is wrong. The library has no globals, reads no clock and does
 *     no I/O in its core (hardware, op costs, bound, LLM, MFU, collectives),
 *     so it is safe to call from several threads at once.
 *   - Inputs are borrowed. Outputs go to caller-owned structs or buffers;
 *     text writers take (buf, cap) and return the length they needed, as
 *     snprintf does. The few functions that allocate say so, and their
 *     results are released with rl_free.
 *   - Structs hold only doubles, fixed-width integers and char arrays, so
 *     that ctypes and WebAssembly can mirror them.
 */
#ifndef ROOFLINE_H
#define ROOFLINE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define RL_API __declspec(dllexport)
#elif defined(__GNUC__)
#define RL_API __attribute__((visibility("default")))
#else
#define RL_API
#endif

/* ======================================================================
 * Version
 * ====================================================================== */
#define RL_VERSION_MAJOR 0
#define RL_VERSION_MINOR 1
#define RL_VERSION_PATCH 0
#define RL_VERSION_STRING "0.1.0"
#define RL_VERSION_NUMBER \
  (RL_VERSION_MAJOR * 10000 + RL_VERSION_MINOR * 100 + RL_VERSION_PATCH)

/* The version of the library actually loaded ("0.1.0" and 100). */
RL_API const char *rl_version(void);
RL_API int rl_version_number(void);

/* ======================================================================
 * Status codes and errors (the numbers are pinned: bindings mirror them)
 * ====================================================================== */
typedef enum rl_status {
  RL_OK = 0,
  RL_EINVAL = 1,       /* an argument is zero, negative, NaN, absurd or missing */
  RL_ENOTFOUND = 2,    /* unknown id (hardware, model, op, dtype, kernel) */
  RL_EAMBIGUOUS = 3,   /* an id or alias matches several entries */
  RL_EPARSE = 4,       /* malformed text: a unit, a CSV row, JSON */
  RL_ERANGE = 5,       /* a result overflows or a size is out of range */
  RL_EUNSUPPORTED = 6, /* e.g. the device has no peak for that format */
  RL_ENOMEM = 7,       /* allocation failed */
  RL_EIO = 8,          /* a file could not be read (I/O modules only) */
  RL_ETRUNCATED = 9    /* input ended early (truncated file or stream) */
} rl_status;

#define RL_ERROR_MSG_MAX 320
/* Detail of a failure: one line, no trailing newline. */
typedef struct rl_error {
  char msg[RL_ERROR_MSG_MAX];
} rl_error;

/* A short fixed text for a status ("invalid argument", ...). */
RL_API const char *rl_strerror(rl_status status);

/* Release memory that a function documented as allocating returned. */
RL_API void rl_free(void *p);

/* ======================================================================
 * Units: parse and print quantities
 *
 * Accepted: a number (C syntax, "1e9", "989.4"), an optional prefix
 * (k K M G T P E decimal; Ki Mi Gi Ti Pi binary; m u µ n for seconds only)
 * and an optional unit that must agree with the kind expected:
 *   RL_UNIT_BYTES      B           "16GB", "128KiB"
 *   RL_UNIT_BYTES_S    B/s         "3.35TB/s", "900GB/s"
 *   RL_UNIT_FLOP       FLOP        "17.2GFLOP"
 *   RL_UNIT_FLOP_S     FLOP/s      "989.4T", "989.4TFLOP/s", "989.4TFLOPS"
 *   RL_UNIT_SECONDS    s           "25us", "1.5ms", "3ns", "2s"
 *   RL_UNIT_COUNT      (none)      "4096", "4Ki", "1e6"
 * A bare number is taken in base units. Anything else, NaN, infinity and a
 * trailing word are errors. Negative values parse (callers reject them).
 * ====================================================================== */
typedef enum rl_unit {
  RL_UNIT_COUNT = 0,
  RL_UNIT_BYTES = 1,
  RL_UNIT_BYTES_S = 2,
  RL_UNIT_FLOP = 3,
  RL_UNIT_FLOP_S = 4,
  RL_UNIT_SECONDS = 5,
  RL_UNIT_FLOP_PER_BYTE = 6 /* printing only */
} rl_unit;

RL_API rl_status rl_parse_quantity(const char *text, rl_unit unit,
                                   double *out, rl_error *err);

/* Print a value with a decimal prefix and its unit, 4 significant digits:
 * 3.35e12 B/s -> "3.35 TB/s", 2.5e-5 s -> "25 us", 1365.3 FLOP/B ->
 * "1365 FLOP/B". Returns the length needed (without the NUL). */
RL_API size_t rl_format_quantity(double value, rl_unit unit, char *buf,
                                 size_t cap);

/* ======================================================================
 * Number formats (dtypes)
 * ====================================================================== */
typedef enum rl_dtype {
  RL_FP64 = 0,
  RL_FP32 = 1,
  RL_TF32 = 2,
  RL_BF16 = 3,
  RL_FP16 = 4,
  RL_FP8 = 5,
  RL_INT8 = 6,
  RL_FP4 = 7,
  RL_INT4 = 8,
  RL_DTYPE_COUNT = 9
} rl_dtype;

/* Bytes per element: fp64 8, fp32 4, tf32 4, bf16 2, fp16 2, fp8 1,
 * int8 1, fp4 0.5, int4 0.5. Returns 0 for an unknown value. */
RL_API double rl_dtype_bytes(int32_t dtype);
/* "fp64", "bf16", ...; NULL for an unknown value. */
RL_API const char *rl_dtype_name(int32_t dtype);
/* Accepts the names above, case-insensitively, and "float32", "float",
 * "bfloat16", "half", "float16", "double", "float64", "e4m3", "e5m2". */
RL_API rl_status rl_dtype_parse(const char *name, int32_t *dtype,
                                rl_error *err);

/* ======================================================================
 * Hardware database
 *
 * Figures come from data/hardware.csv (one row per device with its source),
 * compiled in by tools/gen_hw.py. Users add rows from a file in the same
 * format (rl_hw_parse_csv) or describe a device inline.
 * ====================================================================== */

/* Which peak: the dense tensor (matrix) peak of a format, or the vector
 * (SIMT, non-tensor) peaks. */
typedef enum rl_peak {
  RL_PEAK_FP64 = 0,        /* vector FP64 */
  RL_PEAK_FP64_TENSOR = 1, /* FP64 on tensor / matrix units */
  RL_PEAK_FP32 = 2,        /* vector FP32 */
  RL_PEAK_TF32 = 3,        /* tensor */
  RL_PEAK_BF16 = 4,        /* tensor */
  RL_PEAK_FP16 = 5,        /* tensor */
  RL_PEAK_FP8 = 6,         /* tensor */
  RL_PEAK_INT8 = 7,        /* tensor, OP/s */
  RL_PEAK_FP4 = 8,         /* tensor */
  RL_PEAK_VEC16 = 9,       /* vector (non-tensor) FP16/BF16 */
  RL_PEAK_COUNT = 10
} rl_peak;

/* "fp64", "fp64-tensor", "fp32", "tf32", "bf16", "fp16", "fp8", "int8",
 * "fp4", "vec16". */
RL_API const char *rl_peak_name(int32_t peak);
RL_API rl_status rl_peak_parse(const char *name, int32_t *peak,
                               rl_error *err);

#define RL_HW_ID_MAX 48
#define RL_HW_TEXT_MAX 96
#define RL_HW_SOURCE_MAX 640

typedef struct rl_hw {
  char id[RL_HW_ID_MAX];           /* canonical id: "nvidia-h100-sxm5" */
  char aliases[RL_HW_TEXT_MAX];    /* space-separated: "h100 h100-sxm" */
  char vendor[RL_HW_ID_MAX];
  char name[RL_HW_TEXT_MAX];
  char form_factor[RL_HW_TEXT_MAX];
  double peak[RL_PEAK_COUNT];      /* dense FLOP/s (int8: OP/s); 0 = none */
  int32_t sparsity;                /* 1: 2:4 sparsity doubles tensor peaks */
  int32_t sms;                     /* SMs / CUs; 0 = unknown */
  double mem_bytes;                /* capacity, B; 0 = unknown */
  double mem_bw;                   /* DRAM/HBM bandwidth, B/s */
  double l1_bw;                    /* B/s, 0 = unknown (measured CPUs) */
  double l2_bytes;                 /* L2 / last-level cache, B */
  double l2_bw;                    /* B/s, 0 = unknown */
  double l3_bw;                    /* B/s, 0 = unknown (measured CPUs) */
  double boost_hz;                 /* 0 = unknown */
  double interconnect_bw;          /* scale-up link, bidirectional B/s */
  double tdp_w;                    /* W */
  char source[RL_HW_SOURCE_MAX];   /* where the figures come from */
} rl_hw;

/* Number of built-in devices, and the i-th of them (0-based). */
RL_API int32_t rl_hw_count(void);
RL_API rl_status rl_hw_get(int32_t index, rl_hw *out);

/* Look up an id or an unambiguous alias or prefix, case-insensitively,
 * first among the `extra` devices (user's file; may be NULL) and then the
 * built-in ones. An unknown or ambiguous id is RL_ENOTFOUND/RL_EAMBIGUOUS
 * with the nearest ids in err. */
RL_API rl_status rl_hw_find(const char *id, const rl_hw *extra,
                            int32_t n_extra, rl_hw *out, rl_error *err);

/* Parse hardware rows in the data file's CSV format (a header row naming
 * the columns, any subset of them in any order; `id` required). Writes at
 * most `cap` devices into out and the number found into *n. Errors name
 * the line and the column. Pure: the caller reads the file. */
RL_API rl_status rl_hw_parse_csv(const char *text, size_t len, rl_hw *out,
                                 int32_t cap, int32_t *n, rl_error *err);

/* Ridge point peak/mem_bw in FLOP/B for one peak; 0 when either is 0. */
RL_API double rl_hw_ridge(const rl_hw *hw, int32_t peak);

/* ======================================================================
 * Op cost model: FLOPs F and ideal traffic Q of one operation
 *
 * Ideal traffic: each input read once, each output written once (the
 * seeds' convention; NVIDIA's "arithmetic intensity"). Each formula's
 * source is stated in src/core/ops.c.
 * ====================================================================== */
typedef enum rl_op_kind {
  RL_OP_ADD = 0,        /* n: elements. F = n, Q = 3ns */
  RL_OP_MUL = 1,
  RL_OP_SUB = 2,
  RL_OP_DIV = 3,
  RL_OP_RELU = 4,       /* activations: Q = 2ns */
  RL_OP_GELU_TANH = 5,
  RL_OP_GELU_ERF = 6,
  RL_OP_SILU = 7,
  RL_OP_SOFTMAX = 8,    /* m rows of n: 5 FLOP/element, Q = 2ns */
  RL_OP_LAYERNORM = 9,  /* m rows of n: 8 FLOP/element, Q = 2ns + 2ns_row */
  RL_OP_RMSNORM = 10,   /* m rows of n: 4 FLOP/element, Q = 2ns + ns_row */
  RL_OP_MATMUL = 11,    /* (m x k)(k x n), times batch (bmm) */
  RL_OP_LINEAR = 12,    /* m tokens, k = d_in, n = d_out, weights once */
  RL_OP_ATTENTION = 13, /* seq, head_dim, heads, kv_heads, batch */
  RL_OP_CONV2D = 14,    /* batch, c_in, h, w, c_out, kh, kw, stride, ... */
  RL_OP_COPY = 15,      /* n elements read and written: F = 0 */
  RL_OP_EMBEDDING = 16, /* m rows gathered of width n: F = 0 */
  RL_OP_KERNEL = 17,    /* generic: flops and bytes given */
  RL_OP_KIND_COUNT = 18
} rl_op_kind;

/* "add", "gelu-tanh", "layernorm", "matmul", ...; NULL if unknown. */
RL_API const char *rl_op_name(int32_t kind);
/* Accepts the names above and "gelu" (= gelu-tanh), "bmm", "mm",
 * "layer_norm", "rms_norm", "attn", "sdpa", "conv", "gemm". */
RL_API rl_status rl_op_parse(const char *name, int32_t *kind,
                             rl_error *err);

/* Flags of rl_op.flags */
#define RL_OP_FUSED 1u  /* attention: FlashAttention-style, S and P stay on chip */
#define RL_OP_CAUSAL 2u /* attention: causal mask, half the score FLOPs */
#define RL_OP_BIAS 4u   /* linear / matmul / conv: a bias vector added */

/* One operation. Unused fields are 0. A field of 0 where the kind needs a
 * size is an error (RL_EINVAL naming the field). */
typedef struct rl_op {
  int32_t kind;         /* rl_op_kind */
  int32_t dtype;        /* activations (and compute) format */
  int32_t weight_dtype; /* matmul B / linear weights / conv weights;
                           -1 = same as dtype */
  uint32_t flags;       /* RL_OP_* */
  double batch;         /* matmul/attention/conv batch count; 0 = 1 */
  double m, n, k;       /* see rl_op_kind */
  double seq;           /* attention: queries T */
  double seq_kv;        /* attention: keys; 0 = seq */
  double head_dim;      /* attention d_k */
  double heads;         /* attention heads; 0 = 1 */
  double kv_heads;      /* attention KV heads (GQA); 0 = heads */
  double tile;          /* fused attention: query tile; 0 = K, V read once */
  double c_in, c_out, h, w, kh, kw, stride, pad, groups; /* conv2d */
  double flops, bytes;  /* RL_OP_KERNEL */
} rl_op;

/* An rl_op of the given kind and dtype with every size 0 (weight_dtype
 * -1). */
RL_API rl_op rl_op_init(int32_t kind, int32_t dtype);

typedef struct rl_cost {
  double flops;      /* F, FLOP */
  double bytes;      /* Q, B */
  double intensity;  /* F/Q, FLOP/B */
  int32_t peak;      /* rl_peak the op runs on for its dtype */
  int32_t tensor;    /* 1: matmul-like (tensor peak), 0: vector peak */
} rl_cost;

RL_API rl_status rl_op_cost(const rl_op *op, rl_cost *out, rl_error *err);

/* The smallest whole token count B at which a linear layer d_in -> d_out
 * (weights in weight_dtype, activations in dtype) reaches intensity >=
 * ridge, from the exact traffic; 0 in *batch when it never does (its
 * intensity tends to a limit below the ridge). */
RL_API rl_status rl_linear_min_batch(double d_in, double d_out,
                                     int32_t dtype, int32_t weight_dtype,
                                     int bias, double ridge, double *batch,
                                     rl_error *err);

/* ======================================================================
 * The roofline bound
 * ====================================================================== */
#define RL_DEFAULT_LAUNCH_OVERHEAD_S 4e-6

/* The two roofs one kernel runs under. */
typedef struct rl_roof {
  double peak;               /* FLOP/s */
  double bandwidth;          /* B/s */
  double launch_overhead_s;  /* below this a kernel is overhead-bound;
                                0 = no overhead regime */
  int32_t peak_kind;         /* rl_peak used, or -1 for a user figure */
  int32_t sparse;            /* 1: peak is the 2:4 sparse peak */
} rl_roof;

#define RL_ROOF_SPARSE 1u /* rl_hw_roof flag: use the 2:4 sparse peak */

/* The roof of `hw` for one peak kind, with the default launch overhead.
 * RL_EUNSUPPORTED (naming the device and format) when the device has no
 * such peak, or no sparsity when RL_ROOF_SPARSE is asked. */
RL_API rl_status rl_hw_roof(const rl_hw *hw, int32_t peak, uint32_t flags,
                            rl_roof *out, rl_error *err);

/* Which peak an op of this dtype uses on this device: matmul-like ops the
 * tensor peak of their format (fp32 the vector FP32 peak, fp64 the FP64
 * tensor peak where there is one), everything else the vector peak of its
 * format (fp16/bf16: the vector FP16 peak where known, else the vector
 * FP32 peak). Returns an rl_peak, or -1 when the device has none. */
RL_API int32_t rl_hw_peak_for(const rl_hw *hw, int32_t dtype, int tensor);

typedef enum rl_bound_kind {
  RL_BOUND_MEMORY = 0,
  RL_BOUND_COMPUTE = 1,
  RL_BOUND_OVERHEAD = 2
} rl_bound_kind;

/* "memory", "compute", "overhead". */
RL_API const char *rl_bound_name(int32_t bound);

typedef struct rl_result {
  double flops, bytes, intensity; /* FLOP, B, FLOP/B */
  double peak, bandwidth, ridge;  /* FLOP/s, B/s, FLOP/B */
  double compute_time_s;          /* F / peak */
  double memory_time_s;           /* Q / bandwidth */
  double time_s;                  /* max of the two: the lower bound */
  double attainable;              /* min(peak, bandwidth * I), FLOP/s */
  double peak_fraction;           /* attainable / peak */
  int32_t bound;                  /* rl_bound_kind */
  int32_t has_measured;           /* 1 when a measured time was given */
  double measured_s;              /* the measured time, s */
  double achieved;                /* F / measured, FLOP/s */
  double roof_fraction;           /* time_s / measured_s */
  double launch_overhead_s;       /* the roof's launch overhead, s */
} rl_result;

/* The roofline of a kernel with F flops and Q bytes (Williams, Waterman &
 * Patterson 2009): time >= max(F/peak, Q/bw). measured_s <= 0 means no
 * measurement. F may be 0 (a pure copy), Q must be > 0 unless F > 0. */
RL_API rl_status rl_roofline(double flops, double bytes, const rl_roof *roof,
                             double measured_s, rl_result *out,
                             rl_error *err);

/* A one-line verdict for a result ("memory-bound at 90% of its roof: only
 * moving fewer bytes, e.g. by fusion, makes it substantially faster").
 * Returns the length needed. */
RL_API size_t rl_verdict(const rl_result *r, char *buf, size_t cap);

/* The ops of the first seed's Transformer-layer table: (add, softmax,
 * LayerNorm on a rows x d activation; linear layers d x d at three token
 * batches; one attention head at seq, naive and fused).  Writes up to cap
 * ops and their labels ("add", "linear B=512", ...) and the count in *n. */
typedef struct rl_layer_shape {
  double rows, d;        /* activation: rows x d (4096 x 4096) */
  double batches[3];     /* linear token batches (1, 128, 512) */
  double seq, head_dim;  /* attention (4096, 128) */
  int32_t dtype;
} rl_layer_shape;
#define RL_LAYER_OPS 8
#define RL_LABEL_MAX 48
RL_API rl_layer_shape rl_layer_default(void);
RL_API rl_status rl_layer_ops(const rl_layer_shape *shape, rl_op *ops,
                              char (*labels)[RL_LABEL_MAX], int32_t cap,
                              int32_t *n, rl_error *err);

/* ======================================================================
 * JSON: the records the CLI prints with --json, as library functions so
 * that every front end prints the same figures. Each writes into
 * (buf, cap) and returns the length needed, as snprintf does.
 * ====================================================================== */

/* An op or kernel: {"op","hw","dtype","flops","bytes","intensity","peak",
 * "peak_kind","sparse","bandwidth","ridge","bound","time_s",
 * "compute_time_s","memory_time_s","attainable","peak_fraction"} and, when
 * measured, "measured_s","achieved","roof_fraction". `extra` (may be NULL)
 * is raw JSON members appended inside the object ("\"k\":1"). */
RL_API size_t rl_result_json(const char *op, const char *hw,
                             const char *dtype, const rl_roof *roof,
                             const rl_result *r, const char *extra,
                             char *buf, size_t cap);

/* A JSON string literal with quotes, escaping ", \, control characters and
 * <, >, & (so the text is safe inside HTML). Returns the length needed. */
RL_API size_t rl_json_string(const char *s, char *buf, size_t cap);

/* ======================================================================
 * Models and LLM economics: decode, prefill, MFU/HFU, collectives (issue 3)
 * ====================================================================== */
/* @@LLM@@ */

/* ======================================================================
 * Rendering: SVG and terminal roofline charts, the HTML page (issue 4)
 * ====================================================================== */
/* @@PLOT@@ */

/* ======================================================================
 * Measurement: the empirical roofline of this machine (issue 5)
 * ====================================================================== */
/* @@MEASURE@@ */

/* ======================================================================
 * Traces: PyTorch/Kineto, Nsight Compute and Nsight Systems readers (issue 6)
 * ====================================================================== */
/* @@TRACE@@ */

#ifdef __cplusplus
}
#endif
#endif /* ROOFLINE_H */
