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
 *
 * Sources: the roofline model and its ridge point are Williams, Waterman &
 * Patterson, "Roofline: an insightful visual performance model for
 * multicore architectures", CACM 52(4), 2009; device figures come from the
 * vendors' datasheets and whitepapers cited per row in data/hardware.csv;
 * each formula's paper or guide is cited where it is implemented.
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

#define RL_ERROR_MSG_MAX 1024 /* room for two file paths and a sentence */
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

/* A number of tokens (a context, a prompt, tokens to generate, a chunk):
 * a count as rl_parse_quantity reads one ("4096", "4Ki", "1e6"), except
 * that a decimal prefix is refused: "4k context" means 4096 tokens to
 * some and 4000 to others (Llama 3's "8K" is 8192, Llama 3.1's "128K"
 * 131072, other models' "200K" 200000), so "4k" is RL_EPARSE "'4k' is
 * ambiguous for tokens: write 4096 (4Ki) or 4000". */
RL_API rl_status rl_parse_tokens(const char *text, double *out, rl_error *err);

/* The largest count (RL_UNIT_COUNT: sizes, batches, tokens, devices) any
 * input may give: 2^53 - 1, the last whole number after which a double
 * skips integers. A larger count is RL_ERANGE, "too large". */
#define RL_MAX_COUNT 9007199254740991.0

/* Print a value with a decimal prefix and its unit, 4 significant digits:
 * 3.35e12 B/s -> "3.35 TB/s", 2.5e-5 s -> "25 us", 1365.3 FLOP/B ->
 * "1365 FLOP/B". Returns the length needed (without the NUL). */
RL_API size_t rl_format_quantity(double value, rl_unit unit, char *buf,
                                 size_t cap);

/* ======================================================================
 * Plausible ranges (src/core/ranges.c)
 *
 * Each quantity a user, a file or a caller gives has a range outside of
 * which no real device, model or measurement lies (each bound with its
 * reason; docs/reliability.md lists them). A value outside it is RL_ERANGE
 * with a message that states the range:
 *   "`bw` 1e-300 B/s is outside the plausible range of a bandwidth:
 *    1 MB/s to 1 EB/s"
 * so that no result is computed from it. One table, read by the command's
 * flags, the hardware CSV, config.json and every model, the resolvers,
 * chart points, the measurement's working sets and the Python binding.
 * ====================================================================== */
typedef enum rl_qty {
  RL_QTY_TIME = 0,     /* a measured or target time (s) */
  RL_QTY_LATENCY,      /* a launch overhead or a link's latency (s); 0 allowed */
  RL_QTY_BANDWIDTH,    /* B/s */
  RL_QTY_PEAK,         /* FLOP/s */
  RL_QTY_MEMORY,       /* a memory's capacity (B) */
  RL_QTY_WORK,         /* FLOPs or bytes of a kernel; 0 allowed */
  RL_QTY_COUNT,        /* a whole count: 0 to 2^53 - 1 */
  RL_QTY_DIM,          /* a model's dimension: layers, heads, widths, vocabulary, experts */
  RL_QTY_CONTEXT,      /* a context or prompt, tokens; 0 allowed */
  RL_QTY_FRACTION,     /* an efficiency: a fraction of a peak */
  RL_QTY_CLOCK,        /* a clock (Hz) */
  RL_QTY_WORKING_SET,  /* a measurement's working set (B) */
  RL_QTY_INTENSITY,    /* FLOP/B of a chart's point */
  RL_QTY_PARAMS,       /* a model's parameter count, given or derived */
  RL_QTY_KIND_COUNT
} rl_qty;

typedef struct rl_range {
  const char *name;     /* "bandwidth" */
  rl_unit unit;         /* the bounds' unit (RL_UNIT_COUNT: a plain number) */
  double min, max;      /* inclusive */
  int32_t zero_ok;      /* 0 is accepted too (none) */
  const char *min_why;  /* each bound's reason */
  const char *max_why;
} rl_range;

/* The range of q; NULL past RL_QTY_KIND_COUNT. */
RL_API const rl_range *rl_range_get(rl_qty q);

/* The quantity of a parameter, by its name (a flag "--mem", "mem", a
 * keyword "head_dim", a hardware CSV column "mem_gb"; '-' and '_' alike),
 * else the default of its unit: s -> time, B/s -> bandwidth, FLOP/s ->
 * peak, B and FLOP -> work, a count -> count. */
RL_API rl_qty rl_param_qty(const char *param, rl_unit unit);

/* "1 MB/s to 1 EB/s" ("0 or " first when zero_ok). */
RL_API size_t rl_range_text(rl_qty q, char *buf, size_t cap);

/* RL_OK when v is in q's range (or 0 with zero_ok), else RL_ERANGE
 * "WHAT V is outside the plausible range of a NAME: RANGE" (NaN too). */
RL_API rl_status rl_range_check(rl_qty q, double v, const char *what, rl_error *err);

/* rl_range_check of the parameter's quantity (rl_param_qty), naming it
 * `param` (rl_msg_spell spells it as a flag or a keyword). */
RL_API rl_status rl_param_check(const char *param, rl_unit unit, double v, rl_error *err);

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

/* Block-scaled storage formats of a checkpoint's weights (not a compute
 * format: the kernels dequantize to the activations' format): elements of
 * one dtype in blocks of `block` weights along a matrix's input dimension,
 * each block sharing one scale of `scale_bits`. RL_WFMT_DTYPE (0): no such
 * format, the weights are in the model's dtype. src/core/dtype.c states
 * the sources (OCP Microscaling Formats v1.0 for MXFP4, NVIDIA for NVFP4). */
typedef enum rl_wfmt {
  RL_WFMT_DTYPE = 0, /* the model's dtype */
  RL_WFMT_MXFP4 = 1, /* E2M1, blocks of 32, an E8M0 scale: 4.25 bits a weight */
  RL_WFMT_NVFP4 = 2, /* E2M1, blocks of 16, an E4M3 scale: 4.5 bits a weight */
  RL_WFMT_COUNT = 3
} rl_wfmt;
/* "mxfp4", "nvfp4" ("dtype" for RL_WFMT_DTYPE); NULL if unknown.
 * rl_wfmt_parse accepts those names but "dtype" (ASCII case ignored);
 * RL_EINVAL otherwise. */
RL_API const char *rl_wfmt_name(int32_t fmt);
RL_API rl_status rl_wfmt_parse(const char *name, int32_t *fmt, rl_error *err);
/* The format's element dtype (RL_FP4), weights per scale and bits of a
 * scale; -1, 0, 0 for RL_WFMT_DTYPE or an unknown value. */
RL_API int32_t rl_wfmt_dtype(int32_t fmt);
RL_API double rl_wfmt_block(int32_t fmt);
RL_API double rl_wfmt_scale_bits(int32_t fmt);
/* Bytes of a d_in x d_out matrix stored in the format: d_in d_out
 * elements + d_out ceil(d_in / block) scales (MXFP4, 2880 x 2880:
 * 4,406,400 B, 4.25 bits a weight); 0 for RL_WFMT_DTYPE or an unknown
 * value. */
RL_API double rl_wfmt_matrix_bytes(int32_t fmt, double d_in, double d_out);

/* ======================================================================
 * Hardware database
 *
 * Figures come from data/hardware.csv (one row per device with its source),
 * compiled in by tools/gen_tables.py following the column table in
 * src/core/hw.c. Users add rows from a file in the same
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
  RL_PEAK_INT4 = 10,       /* tensor, OP/s */
  RL_PEAK_COUNT = 11
} rl_peak;

/* "fp64", "fp64_tensor", "fp32", "tf32", "bf16", "fp16", "fp8", "int8",
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
  char profiler_names[RL_HW_TEXT_MAX]; /* rules matching the device name a
                                          trace gives: "h100 pcie; ..." */
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
  double link_latency_s;           /* per hop of a ring over that link, s
                                      (NCCL's tuning model); 0 = unknown */
  double host_bw;                  /* host link (PCIe, C2C), one direction,
                                      B/s; 0 = unknown */
  double tdp_w;                    /* W */
  char source[RL_HW_SOURCE_MAX];   /* where the figures come from */
  double l1_bytes;                 /* CPUs: L1 data cache of one core, B;
                                      0 = unknown */
  double l2_core_bytes;            /* CPUs: L2 of one core, B (l2_bytes is
                                      then the last level, the L3); 0 */
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

/* The hardware schema: one table in src/core/hw.c, one row per column of
 * data/hardware.csv, drives the CSV reader above and these writers, so that
 * every figure of rl_hw appears in all of them.
 *
 * One device as data/hardware.csv text: the header row (when header is 1;
 * hw NULL: the header only) and its row, every column in the table's order,
 * readable by rl_hw_parse_csv into the same figures. Returns the length
 * needed. */
RL_API size_t rl_hw_csv(const rl_hw *hw, int header, char *buf, size_t cap);
/* One device as JSON: each column of the hardware schema in table order
 * under its key (rl_hw_json_key) in base units, unknown figures null; the
 * peaks and ridge points of the formats the device has gathered under
 * "peak" and "ridge"; aliases a list. docs/schema/hw-show.json, generated
 * from the same table, describes every key. Returns the length needed. */
RL_API size_t rl_hw_json(const rl_hw *hw, char *buf, size_t cap);
/* Set one figure from a cell as the CSV reader reads it: column is a CSV
 * column ("bandwidth_tbs") or a JSON key ("bandwidth"); a bare number is in the
 * CSV column's unit, a number with a unit is converted ("3.35TB/s"). */
RL_API rl_status rl_hw_set(rl_hw *hw, const char *column, const char *cell,
                           rl_error *err);
/* Set one figure in base units (B, B/s, FLOP/s, Hz, W; sms and sparsity
 * whole numbers), by JSON key, CSV column or format name ("bf16"). */
RL_API rl_status rl_hw_set_value(rl_hw *hw, const char *column, double value,
                                 rl_error *err);
/* One figure in base units by the same names; 0 for text or no such column. */
RL_API double rl_hw_value(const rl_hw *hw, const char *column);
/* The key of a column in rl_hw_json's record, by the same names ("mem_bw"
 * -> "bandwidth"; a peak: its format, found under "peak"); NULL if none. */
RL_API const char *rl_hw_json_key(const char *column);
/* The device's non-zero figures other than the peaks, one "label  value
 * unit" line each ("memory bandwidth   3.35 TB/s"), for readable output.
 * Returns the length needed. */
RL_API size_t rl_hw_figures(const rl_hw *hw, char *buf, size_t cap);
/* sizeof(rl_hw), for bindings that treat it as opaque. */
RL_API size_t rl_hw_sizeof(void);

/* Ridge point peak/mem_bw in FLOP/B for one peak; 0 when either is 0. */
RL_API double rl_hw_ridge(const rl_hw *hw, int32_t peak);

/* ======================================================================
 * Op cost model: FLOPs F and ideal traffic Q of one operation
 *
 * Ideal traffic: each input read once, each output written once (NVIDIA,
 * "GPU Performance Background User's Guide": "arithmetic intensity"). Each formula's
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

/* The op schema. src/core/ops.c holds one row per kind: its name, aliases,
 * the shape fields it takes and its formula. Every client (the CLI's flags
 * and help, plot op specs, Python) reads the fields from here.
 *
 * Field names are the CLI's flag spellings ("d-in"; '_' is accepted for
 * '-'). A kind's fields, in order (Python's positional order), as text:
 * bare names are required, [name] optional, and " | " separates
 * alternative forms: "n | rows cols [weight-dtype]",
 * "m n k [batch] [bias] [weight-dtype]". Returns the length needed. */
RL_API size_t rl_op_fields(int32_t kind, char *buf, size_t cap);
enum { RL_OP_FIELD_SIZE = 1, RL_OP_FIELD_FLAG = 2, RL_OP_FIELD_DTYPE = 3 };
/* What a field is: RL_OP_FIELD_SIZE (a number; *unit: the rl_unit a value
 * with a unit is read in), _FLAG (bias, fused, causal: set by a non-zero
 * value) or _DTYPE (weight-dtype: an rl_dtype); 0 for no such field. */
RL_API int32_t rl_op_field_type(const char *field, int32_t *unit);
/* The i-th field of the schema (all kinds together); NULL past the end. */
RL_API const char *rl_op_field_name(int32_t i);
/* 1 when the kind takes the field. */
RL_API int rl_op_takes(int32_t kind, const char *field);
/* Set one field by name ("d-in" sets k of a linear op): a size, a flag or
 * weight-dtype. RL_EINVAL for a field the op's kind does not take. */
RL_API rl_status rl_op_set(rl_op *op, const char *field, double value,
                           rl_error *err);
/* Set a whole shape given as n (field, value) pairs, checking it against
 * the schema: each field applies to the kind, the fields of one form only,
 * every required field of that form given, an optional size (or one of an
 * alternative form) > 0 (pad >= 0). Messages name fields with `prefix`
 * ("--" for flags): "--k does not apply to add", "matmul needs --m, --n
 * and --k". The formula checks the values of the main form's sizes. */
RL_API rl_status rl_op_set_fields(rl_op *op, const char *const *fields,
                                  const double *values, int32_t n,
                                  const char *prefix, rl_error *err);
/* Every kind and its fields as flags, for --help, and what an absent
 * optional size stands for. Returns the length needed. */
RL_API size_t rl_op_help(char *buf, size_t cap);

typedef struct rl_cost {
  double flops;      /* F, FLOP */
  double bytes;      /* Q, B */
  double intensity;  /* F/Q, FLOP/B */
  int32_t peak;      /* rl_peak the op runs on for its dtype */
  int32_t tensor;    /* 1: matmul-like (tensor peak), 0: vector peak */
} rl_cost;

RL_API rl_status rl_op_cost(const rl_op *op, rl_cost *out, rl_error *err);
/* The op's shape in words for readable output: "(4096 x 4096)(4096 x
 * 4096)", "1 token, 4096 -> 4096", "16777216 elements". Returns the length
 * needed. */
RL_API size_t rl_op_describe(const rl_op *op, char *buf, size_t cap);

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
/* The device the commands that have a default use (layer, plot, widget,
 * mfu, decode, prefill, plan): the H100 SXM5 of NVIDIA's whitepaper. */
#define RL_DEFAULT_HW "nvidia-h100-sxm5"
/* RL_DEFAULT_HW, for bindings that cannot read a macro. */
RL_API const char *rl_default_hw(void);

/* The two roofs one kernel runs under. */
typedef struct rl_roof {
  double peak;               /* FLOP/s */
  double bandwidth;          /* B/s */
  double launch_overhead_s;  /* below this a kernel is overhead-bound;
                                0 = no overhead regime */
  int32_t peak_kind;         /* rl_peak used, or -1 for a user figure */
  int32_t sparse;            /* 1: peak is the 2:4 sparse peak */
  /* what the roofs assume, for the records to state: */
  double compute_eff;        /* peak is this fraction of the device's
                                (--compute-eff); 0 or 1: the pure bound */
  double bw_eff;             /* the same for the bandwidth (--bw-eff) */
  int32_t measured;          /* RL_ROOF_MEASURED_*: which roof comes from
                                `roofline measure` (rl_hw_measured) */
} rl_roof;

#define RL_ROOF_SPARSE 1u /* rl_hw_roof flag: use the 2:4 sparse peak */
#define RL_ROOF_MEASURED_PEAK 1 /* rl_roof.measured bits */
#define RL_ROOF_MEASURED_BW 2

/* The roof of `hw` for one peak kind, with the default launch overhead,
 * efficiencies 1 and `measured` set when hw is a measured row.
 * RL_EUNSUPPORTED (naming the device and format) when the device has no
 * such peak, or no sparsity when RL_ROOF_SPARSE is asked. */
RL_API rl_status rl_hw_roof(const rl_hw *hw, int32_t peak, uint32_t flags,
                            rl_roof *out, rl_error *err);

/* Which peak an op of this dtype uses on this device: matmul-like ops the
 * tensor peak of their format (fp32 the vector FP32 peak, fp64 the FP64
 * tensor peak where there is one), everything else the vector peak of its
 * format (fp16/bf16: the vector FP16 peak where known, else the vector
 * FP32 peak). A CPU row (form factor "CPU", as `roofline measure
 * --save-hw` writes) without an fp16/bf16 peak runs those matmuls at its
 * FP32 peak (converted to fp32: no faster dot product was measured).
 * Returns an rl_peak, or -1 when the device has none. */
RL_API int32_t rl_hw_peak_for(const rl_hw *hw, int32_t dtype, int tensor);

typedef enum rl_bound_kind {
  RL_BOUND_MEMORY = 0,
  RL_BOUND_COMPUTE = 1,
  RL_BOUND_OVERHEAD = 2,
  RL_BOUND_NETWORK = 3  /* a collective, against the interconnect */
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
/* 1 when a measured result is faster than its roof allows (roof_fraction >
 * 1: measured_s below max(F/peak, Q/bw); the launch overhead is a floor of
 * the time, not part of the roof, so a kernel faster than the overhead but
 * slower than its bound is not above its roof), which the model rules out:
 * the FLOP or byte count, the peak or the timer is wrong. 0 otherwise,
 * and without a measurement. As `trace`'s rows (above_roof). */
RL_API int rl_above_roof(const rl_result *r);

/* A one-line verdict for a result ("memory-bound at 90% of its roof: only
 * moving fewer bytes, e.g. by fusion, makes it substantially faster").
 * Returns the length needed. */
RL_API size_t rl_verdict(const rl_result *r, char *buf, size_t cap);

/* The ops of one Transformer layer's roofline table: (add, softmax,
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

/* The length of the valid UTF-8 sequence that starts at s (RFC 3629): 1
 * for an ASCII byte (NUL included), 2 to 4 for a valid multibyte one, 0
 * when s starts none (a stray continuation byte, an overlong form, a
 * surrogate, past U+10FFFF, cut short). The one test of the text every
 * writer cleans (rl_json_string, the SVG, the command's messages). */
RL_API size_t rl_utf8_seq(const char *s);

/* A JSON number as every writer prints it: "null" when not finite; whole
 * numbers up to 2^53 in full (16060522496); others in the fewest
 * significant digits (15 to 17) that read back to the same double. Returns
 * the length needed. */
RL_API size_t rl_json_number(double v, char *buf, size_t cap);

/* ======================================================================
 * Models and LLM economics: decode, prefill, MFU/HFU, collectives
 * ====================================================================== */
/* ---- Models -------------------------------------------------------------
 * A decoder-only Transformer described by its configuration. Built-in
 * models come from data/models.csv (one row per model with the source of
 * its figures: the model's Hugging Face config.json or the paper's table),
 * compiled in by tools/gen_tables.py; users give a config.json
 * (rl_model_from_hf_config) or the sizes by hand. Sizes are doubles (whole
 * numbers); a field of 0 means "not given" where the comment says so. */
#define RL_MODEL_ID_MAX 48
#define RL_MODEL_TEXT_MAX 96
#define RL_MODEL_SOURCE_MAX 320
#define RL_MODEL_ALIASES_MAX 192

typedef enum rl_mlp_kind {
  RL_MLP_GATED = 0, /* SwiGLU/GeGLU: gate, up and down matrices, 3 d d_ff */
  RL_MLP_PLAIN = 1  /* up and down, 2 d d_ff (GPT-2, GPT-3) */
} rl_mlp_kind;

/* The MLP's activation. Gated MLPs apply it to the gate and multiply by
 * up: SwiGLU (SiLU, Llama), GeGLU (GELU, Gemma; Shazeer 2020). */
typedef enum rl_act_kind {
  RL_ACT_DEFAULT = 0,   /* SiLU for a gated MLP, GELU (tanh form) for a plain one */
  RL_ACT_SILU = 1,      /* x sigmoid(x) (Elfwing et al. 2018), 4 FLOPs */
  RL_ACT_GELU_TANH = 2, /* GELU, tanh form (Hendrycks & Gimpel 2016), 9 FLOPs */
  RL_ACT_GELU_ERF = 3,  /* GELU, erf form, 5 FLOPs */
  RL_ACT_RELU = 4       /* max(x, 0), 1 FLOP */
} rl_act_kind;

typedef enum rl_norm_kind {
  RL_NORM_RMS = 0,  /* RMSNorm: a gain of d per norm */
  RL_NORM_LAYER = 1 /* LayerNorm: gain and bias, 2d per norm */
} rl_norm_kind;

/* "gated", "plain"; NULL if unknown. rl_mlp_parse accepts those names
 * (ASCII case ignored); RL_EINVAL "'x' is not gated or plain" otherwise. */
RL_API const char *rl_mlp_name(int32_t kind);
RL_API rl_status rl_mlp_parse(const char *name, int32_t *kind, rl_error *err);
/* The records' names "rmsnorm", "layernorm"; NULL if unknown.
 * rl_norm_parse reads the short words of --norm and data/models.csv,
 * "rms" and "layer" (ASCII case ignored); RL_EINVAL "'x' is not rms or
 * layer" otherwise. */
RL_API const char *rl_norm_name(int32_t kind);
RL_API rl_status rl_norm_parse(const char *name, int32_t *kind, rl_error *err);

typedef struct rl_model {
  char id[RL_MODEL_ID_MAX];       /* "llama3-8b" */
  char name[RL_MODEL_TEXT_MAX];   /* "Llama 3 8B" */
  double layers;         /* L, required */
  double d_model;        /* hidden size d; 0 = heads * head_dim */
  double heads;          /* query heads H, required */
  double kv_heads;       /* key/value heads (GQA, MQA = 1); 0 = heads */
  double head_dim;       /* per head; 0 = d_model / heads */
  double d_ff;           /* MLP intermediate size (per expert); 0 = unknown */
  double vocab;          /* vocabulary; 0 = unknown */
  double max_seq;        /* context window; learned positions use it */
  double experts;        /* MoE experts per layer; 0 or 1 = dense */
  double experts_active; /* experts each token uses; 0 = all */
  double params;         /* > 0: the parameter count as given (by hand,
                            e.g. a published "7B"), used instead of the one
                            derived from the sizes; 0 = derive */
  double published_params; /* the count the source publishes (for show
                              and tests); 0 = none */
  int32_t mlp;           /* rl_mlp_kind */
  int32_t norm;          /* rl_norm_kind */
  int32_t tied_embeddings; /* 1: the output layer reuses the embedding */
  int32_t bias;          /* 1: linear layers have biases (GPT-2/3);
                            RL_BIAS_QKV: Q, K, V only */
  int32_t learned_pos;   /* 1: learned position embeddings (max_seq x d) */
  int32_t dtype;         /* rl_dtype the weights are published in */
  char source[RL_MODEL_SOURCE_MAX];
  char aliases[RL_MODEL_ALIASES_MAX]; /* Hugging Face ids, space-separated
                            ("meta-llama/Meta-Llama-3-8B ...") */
  double window;         /* sliding-window attention: the keys a windowed
                            layer attends to (Mistral, Gemma 2); 0 = none */
  double window_layers;  /* how many layers are windowed; 0 = all of them
                            when window > 0 (Gemma 2: every other one) */
  double norms_per_layer; /* 0 = 2 (before attention and MLP); Gemma 2: 4 */
  double shared_experts; /* MoE: experts every token uses besides the
                            routed ones (DeepSeek) */
  double dense_layers;   /* MoE: the first layers have a dense MLP */
  double dense_d_ff;     /* their width; 0 = d_ff */
  /* Multi-head latent attention (DeepSeek-V2/V3; kv_lora_rank > 0): K and
   * V come from a latent of kv_lora_rank per token, cached with a shared
   * rope key of rope_dim; queries through a rank-q_lora_rank bottleneck
   * (0 = none); per head nope_dim + rope_dim for Q.K, v_head_dim for V. */
  double q_lora_rank, kv_lora_rank, rope_dim, nope_dim, v_head_dim;
  int32_t act;           /* rl_act_kind of the MLP (hidden_act /
                            hidden_activation in config.json) */
  int32_t router_bias;   /* MoE: 1 when each router has a bias per expert
                            added to its scores for the choice
                            (DeepSeek-V3's e_score_correction_bias,
                            topk_method noaux_tc: E parameters a layer) */
  int32_t expert_weights; /* MoE: the rl_wfmt the routed experts' matrices
                            are stored in, when not the model's dtype
                            (gpt-oss: RL_WFMT_MXFP4; their biases, the
                            attention, embeddings, routers and norms stay
                            in dtype, which stays the compute format);
                            RL_WFMT_DTYPE (0) = dtype */
} rl_model;

/* The model's MLP activation as costed: its name ("SiLU x up", "GELU x up",
 * "GELU", ...) and its FLOPs per element of d_ff (the element-wise
 * activation's count as `op` costs it, + 1 for the x up of a gated MLP:
 * SiLU x up 5, GELU (tanh) x up 10, plain GELU (tanh) 9). NULL and 0 for
 * an unknown kind. */
RL_API const char *rl_model_act_name(const rl_model *m);
RL_API double rl_model_act_flops(const rl_model *m);

#define RL_BIAS_QKV 2 /* rl_model.bias: biases on Q, K and V only (Qwen2) */

/* An rl_model with every size 0, a gated MLP, RMSNorm, untied embeddings
 * and bf16: fill in what you know. */
RL_API rl_model rl_model_init(void);

/* Number of built-in models and the i-th of them (0-based). */
RL_API int32_t rl_model_count(void);
RL_API rl_status rl_model_get(int32_t index, rl_model *out);

/* Look up a built-in model by id or an unambiguous fragment of one,
 * case-insensitively ("llama3-8b", "mixtral"). RL_ENOTFOUND (with the
 * nearest ids) or RL_EAMBIGUOUS otherwise. */
RL_API rl_status rl_model_find(const char *id, rl_model *out, rl_error *err);

/* Read a Hugging Face config.json from a buffer (the caller reads the
 * file): hidden_size, num_hidden_layers, num_attention_heads,
 * num_key_value_heads, head_dim, intermediate_size, vocab_size,
 * tie_word_embeddings, max_position_embeddings, num_local_experts /
 * num_experts, num_experts_per_tok, torch_dtype, and the GPT-2 names
 * (n_embd, n_layer, n_head, n_inner, n_positions). The MLP is gated unless
 * the architecture is GPT-2-like (model_type gpt2, gpt_neox, opt, ...) or
 * hidden_act is a plain gelu/relu. `id` (may be NULL) names the model.
 * Malformed JSON is RL_EPARSE naming the byte offset; a document that
 * ends early is RL_ETRUNCATED; a config without layers, heads or width is
 * RL_EINVAL naming the missing key. */
RL_API rl_status rl_model_from_hf_config(const char *text, size_t len,
                                         const char *id, rl_model *out,
                                         rl_error *err);

/* Check a model (layers and heads > 0 and whole, kv_heads divides heads,
 * sizes consistent) and fill in the defaulted sizes (d_model, kv_heads,
 * head_dim). rl_model_params and the calculators below call it. */
RL_API rl_status rl_model_check(const rl_model *m, rl_model *out,
                                rl_error *err);

/* The parameter count, derived from the configuration:
 *   embedding   vocab d (+ max_seq d for learned positions)
 *   attention   per layer d H d_h (Q) + 2 d H_kv d_h (K, V) + H d_h d (O)
 *               (+ biases)
 *   mlp         per layer and expert 3 d d_ff gated, 2 d d_ff plain
 *               (+ biases); MoE adds a router of d x experts
 *   norms       2 per layer + 1 final, d (RMS) or 2d (Layer) each
 *   output      vocab d unless tied
 * When the model gives `params` (by hand), total = active = params and
 * the parts are 0 except what can be derived from the sizes that are
 * known (derived = 0). */
typedef struct rl_param_count {
  double total;         /* every parameter (MoE: all experts) */
  double active;        /* used by one token (MoE: experts_active) */
  double embedding;     /* input embedding table (+ learned positions) */
  double output;        /* separate output layer (LM head); 0 when tied */
  double attention;     /* all layers */
  double mlp;           /* all layers, all experts (+ routers) */
  double mlp_active;    /* all layers, the experts a token uses */
  double norms;
  double non_embedding; /* total - embedding (Kaplan et al.'s N) */
  double matmul_active; /* active parameters a token multiplies: active
                           minus the embedding table (a gather) minus
                           norms; plus the tied output layer */
  int32_t derived;      /* 1: from the sizes; 0: `params` as given */
} rl_param_count;

RL_API rl_status rl_model_params(const rl_model *m, rl_param_count *out,
                                 rl_error *err);

/* The bytes of all the model's weights as its checkpoint stores them:
 * every parameter in dtype, but the routed experts' matrices in
 * expert_weights when it is set (gpt-oss-120b: 65.25 GB, the experts in
 * MXFP4, against 233.7 GB all in bf16); a model given by its count, count
 * x dtype. What rl_decode's weights_bytes is with no weight_dtype, tp 1. */
RL_API rl_status rl_model_weight_bytes(const rl_model *m, double *out, rl_error *err);

/* The format the KV cache takes when none is given: act_dtype when it is
 * given (>= 0: --dtype), else the model's activation format, which is its
 * dtype, or bf16 for a checkpoint stored in fp8, int8, fp4 or int4 (a
 * weight-only or FP8 checkpoint runs its activations in 16 bits: its
 * config's torch_dtype, bfloat16 for DeepSeek-V3; DeepSeek's reference
 * inference and vLLM's kv_cache_dtype "auto" cache in that format). Never
 * a weight-quantization format by default. */
RL_API int32_t rl_model_kv_dtype(const rl_model *m, int32_t act_dtype);

/* KV cache per token of context: 2 (K and V) x layers x kv_heads x
 * head_dim x bytes of kv_dtype (Llama 3 8B, bf16: 131072 B = 128 KiB). */
RL_API rl_status rl_model_kv_bytes_per_token(const rl_model *m,
                                             int32_t kv_dtype, double *out,
                                             rl_error *err);

/* ---- Inference: decode and prefill (Pope et al. 2022) ------------------ */

/* How the embedding table's traffic is counted in a decode step. */
typedef enum rl_embed_conv {
  RL_EMBED_GATHERED = 0, /* only the B rows looked up are read, and the
                            lookup does no FLOPs (what the kernel does) */
  RL_EMBED_FULL = 1      /* the whole table is read and every parameter
                            does 2 FLOPs per token (the convention of
                            counting every weight as read) */
} rl_embed_conv;
/* "gathered", "full"; NULL if unknown. */
RL_API const char *rl_embed_name(int32_t conv);
/* The names above (ASCII case ignored); RL_EINVAL "'x' is not gathered or
 * full" otherwise. */
RL_API rl_status rl_embed_parse(const char *name, int32_t *conv,
                                rl_error *err);

typedef struct rl_infer_cfg {
  int32_t weight_dtype;   /* -1: the model's dtype */
  int32_t kv_dtype;       /* -1: rl_model_kv_dtype(m, act_dtype) */
  int32_t act_dtype;      /* activations and compute; -1: the model's */
  int32_t tp;             /* tensor-parallel devices; 0 or 1: one */
  int32_t embedding;      /* rl_embed_conv */
  int32_t causal;         /* prefill: causal mask (half the score FLOPs) */
  double context;         /* decode: tokens in each sequence's KV cache;
                             prefill: the prompt length p */
  double batch;           /* prefill: sequences; 0 = 1 (decode takes its
                             batches as an array) */
  double new_tokens;      /* prefill: tokens generated after the prompt,
                             for the end-to-end bound; 0 = none */
  double mem_bytes;       /* capacity of one device, B; 0: not checked */
  double link_bw;         /* tensor-parallel all-reduce bandwidth per
                             device (nccl-tests busbw), B/s; needed when
                             tp > 1 */
  double comm_latency_s;  /* alpha: latency per all-reduce, s (0 = none) */
  double group_size;      /* weight-only quantization (weight_dtype
                             narrower than the model's): weights per
                             scale, along each matrix's input dimension;
                             0 = the format's default (int4/fp4 128,
                             int8/fp8 one per output channel);
                             RL_GROUP_CHANNEL, RL_GROUP_NONE (no scales) */
  int32_t quantize_all;   /* 1: the embedding and output layer quantized
                             too; 0 (real schemes: AWQ, GPTQ,
                             bitsandbytes, FP8): they, the norms and the
                             routers stay in the model's format */
  int32_t attention_impl; /* prefill: RL_ATTN_IMPL_FUSED (FlashAttention:
                             scores stay on chip) or RL_ATTN_IMPL_NAIVE
                             (scores and probabilities written to memory) */
  int32_t pp;             /* pipeline stages (layers split over them); 0 or
                             1: one; at most the layers and RL_MAX_STAGES */
  int32_t ep;             /* expert-parallel devices of an MoE model; 0 or
                             1: none. A multiple of tp dividing the
                             experts: attention tp-way in ep/tp replicas,
                             E/ep whole experts per device */
  double microbatches;    /* pp > 1: micro-batches the batch is split into
                             (at most the batch); 0 = min(pp, batch) */
  double p2p_latency_s;   /* pp: latency of one stage-to-stage send, s */
  double a2a_latency_s;   /* ep: latency of one all-to-all, s */
} rl_infer_cfg;

#define RL_MAX_STAGES 256         /* pipeline stages */
#define RL_MAX_MICROBATCHES 4096

#define RL_ATTN_IMPL_FUSED 0
#define RL_ATTN_IMPL_NAIVE 1
/* "fused", "naive"; NULL if unknown. rl_attn_impl_parse accepts those
 * names (ASCII case ignored); RL_EINVAL "'x' is not fused or naive"
 * otherwise. */
RL_API const char *rl_attn_impl_name(int32_t impl);
RL_API rl_status rl_attn_impl_parse(const char *name, int32_t *impl, rl_error *err);

#define RL_GROUP_CHANNEL (-1.0) /* one scale per output channel */
#define RL_GROUP_NONE (-2.0)    /* no scale bytes (the peers' convention) */
/* A group size as --group-size spells it: a whole number of weights >= 1
 * (at most 1e9; units as rl_parse_quantity reads a count, "4Ki"),
 * "channel" (RL_GROUP_CHANNEL) or "none" (RL_GROUP_NONE). RL_EINVAL
 * "'x' is not a number, channel or none" or "must be a whole number of
 * weights >= 1, channel or none (got x)" otherwise. */
RL_API rl_status rl_group_size_parse(const char *text, double *group, rl_error *err);

/* The latency floor of one all-reduce among devices linked as hw is: the
 * lowest time a published measurement gives for a small all-reduce over
 * that interconnect, so that no real run beats a bound that adds it. NVLink
 * (the devices the database gives a link latency): 0.5 us, a 1 KiB
 * all-reduce on 4 H800 over NVLink (nccl-tests with CUDA graphs; NVIDIA/nccl
 * issue 1984), below one-shot custom all-reduces (vLLM: 7 us at 16 KiB,
 * vllm-project/vllm pull request 37756) and NCCL's own ring model (6.6 us +
 * 2(n-1) x 0.6 us: 15 us at 8). 0 for any other link (no published figure
 * to stand on: bandwidth only). The default latency of decode, prefill and
 * plan; NCCL's ring estimate is what `--comm-latency nccl` gives. */
#define RL_ALLREDUCE_FLOOR_NVLINK_S 0.5e-6
RL_API double rl_allreduce_floor(const rl_hw *hw);

/* Defaults: dtypes -1, tp 1, gathered embedding, causal, everything else
 * 0. */
RL_API rl_infer_cfg rl_infer_cfg_init(void);

/* ---- Resolving what a caller gave: device, roof, inference setup --------
 *
 * How a device, its roof and an inference configuration are chosen from
 * what a user gave (an id or figures, overrides, a format, degrees of
 * parallelism) is decided here, once, for the CLI, the Python binding and
 * the page: they convert their input (flags, keywords) into these request
 * structs and call these functions.
 *
 * Parameters in messages: these functions' messages name each parameter
 * in backquotes by its request field's name, which is also the Python
 * keyword ("`comm_latency` must be >= 0"). A client writes the names in
 * its own spelling with rl_msg_spell: the CLI as its flags
 * ("--comm-latency must be >= 0"), Python as its keywords. */

/* Copy msg into buf, writing each `name` it holds (a backquoted word of
 * lower-case letters, digits and '_', at most 40 characters) as prefix +
 * name with '_' replaced by sep: ("`link_bw` ...", "--", '-') -> "--link-bw
 * ...", ("", '_') -> "link_bw ...". Other text, other backquotes included,
 * is copied as it is. Returns the length needed (as snprintf). */
RL_API size_t rl_msg_spell(const char *msg, const char *prefix, char sep,
                           char *buf, size_t cap);

/* A device from an id or from figures. */
typedef struct rl_hw_req {
  const char *hw;      /* `hw`: id, alias or unique fragment (rl_hw_find);
                          NULL: not given */
  double peak;         /* `peak` FLOP/s: with bw and no hw, the device of
                          these figures; 0: not given */
  double bw;           /* `bw` B/s: replaces the device's bandwidth; 0: not
                          given */
  double mem;          /* `mem` B: replaces its capacity; 0: not given */
  int32_t use_default; /* 1: no hw and not both peak and bw gives
                          RL_DEFAULT_HW (the commands that have a default
                          device); 0: hw or peak and bw are required */
} rl_hw_req;

/* The device: hw looked up (the `extra` devices first, as rl_hw_find), with
 * bw and mem replacing its figures; without hw, RL_DEFAULT_HW when
 * use_default and not both peak and bw are given, else, with peak and bw,
 * the device "custom" with every peak `peak`, bandwidth bw and capacity
 * mem (0: unknown), named "device described by `peak` and `bw`" (spell it
 * as messages) and no source. RL_EINVAL when peak, bw or mem is negative
 * or NaN, or when neither hw nor peak and bw are given (without
 * use_default); rl_hw_find's error after "`hw`: " for an unknown id. */
RL_API rl_status rl_hw_resolve(const rl_hw_req *req, const rl_hw *extra,
                               int32_t n_extra, rl_hw *out, rl_error *err);

/* A roof for one kind of work on a resolved device. */
typedef struct rl_roof_req {
  int32_t dtype;          /* the work's format (rl_dtype) */
  int32_t tensor;         /* 1: matmul-like (tensor peak), 0: vector */
  double peak;            /* `peak` FLOP/s > 0: replaces the device's peak
                             (peak_kind -1); 0: the device's */
  int32_t sparse;         /* `sparse` 1: the 2:4 sparse peak (not with
                             peak) */
  int32_t overhead_given; /* 1: overhead_s is the launch overhead
                             (`overhead`, >= 0); 0: the default,
                             RL_DEFAULT_LAUNCH_OVERHEAD_S */
  double overhead_s;
  int32_t bw_given;       /* 1: the device's bandwidth was given (`bw`):
                             the roof is no longer a measured one */
  int32_t stand_in;       /* 1 (inference): an fp16 or bf16 tensor peak
                             the device lacks is the other's (the same
                             rate wherever both are given: NVIDIA, AMD
                             datasheets) */
} rl_roof_req;

/* dtype bf16, tensor, everything else 0. */
RL_API rl_roof_req rl_roof_req_init(void);

/* The roof: the device's peak for the format (rl_hw_peak_for; with
 * stand_in, fp16 <-> bf16 as said above) and its bandwidth (rl_hw_roof),
 * or the given peak with the device's bandwidth and the default launch
 * overhead; then the given overhead, and bw_given clearing
 * RL_ROOF_MEASURED_BW. *dtype_used (may be NULL): the format whose peak
 * it is (req->dtype unless another stood in). RL_EINVAL for an overhead
 * < 0 or NaN, sparse with peak; RL_EUNSUPPORTED "<id> has no <dtype>
 * tensor|vector peak in the database (give `peak`)" or rl_hw_roof's error
 * (no sparsity, no bandwidth). */
RL_API rl_status rl_roof_resolve(const rl_hw *hw, const rl_roof_req *req,
                                 rl_roof *out, int32_t *dtype_used,
                                 rl_error *err);

/* Latency of one collective among n devices linked as hw is. An
 * all-reduce (RL_COMM_ALLREDUCE, what a bound adds): the floor no
 * published measurement beats, rl_allreduce_floor(hw). The others from
 * NCCL's tuning model (NVIDIA/nccl src/graph/tuning.cc), its Ring LL base
 * latency RL_NCCL_BASE_LATENCY_S plus hw->link_latency_s per hop: NCCL's
 * ring all-reduce (RL_COMM_ALLREDUCE_NCCL: an estimate, `comm_latency`
 * "nccl") 2 (n - 1) hops (ring reduce-scatter + all-gather), a pipeline
 * stage's send 1 hop, an all-to-all n - 1 hops (an all-gather's steps).
 * 0 when hw has no link latency, or for n <= 1 (a send: any n). */
#define RL_NCCL_BASE_LATENCY_S 6.6e-6
typedef enum rl_comm_op {
  RL_COMM_ALLREDUCE = 0,
  RL_COMM_SEND = 1,
  RL_COMM_ALLTOALL = 2,
  RL_COMM_ALLREDUCE_NCCL = 3
} rl_comm_op;
RL_API double rl_comm_latency(const rl_hw *hw, int32_t op, int32_t n);

/* An inference setup as given (decode, prefill, plan; the page's model). */
typedef struct rl_infer_req {
  int32_t weight_dtype;   /* `weight_dtype`: -1 the model's */
  int32_t kv_dtype;       /* `kv_dtype`: -1 dtype's */
  int32_t dtype;          /* `dtype`: activations, compute and the tensor
                             peak; -1 the model's */
  int32_t tp, pp, ep;     /* `tp`, `pp`, `ep`: >= 1 (1: none) */
  int32_t microbatches_given; /* 1: microbatches is the micro-batches
                             (`microbatches`, with pp > 1); 0: min(pp, B) */
  double microbatches;
  int32_t embedding;      /* rl_embed_conv (`embedding`) */
  int32_t quantize_all;   /* `quantize_all` */
  double group_size;      /* `group_size`: as rl_infer_cfg's */
  int32_t link_bw_given;  /* 1: link_bw is the link bandwidth (`link_bw`,
                             B/s > 0, with tp, pp or ep > 1); 0: half the
                             device's interconnect figure */
  double link_bw;
  int32_t comm_latency_given; /* 1: comm_latency is the all-reduce
                             latency (`comm_latency`, >= 0, with tp > 1);
                             2: NCCL's ring estimate (`comm_latency`
                             "nccl", with tp > 1; RL_COMM_ALLREDUCE_NCCL);
                             0: rl_comm_latency's floor */
  double comm_latency;
  double compute_eff;     /* `compute_eff`, `bw_eff`: the fractions of the */
  double bw_eff;          /* peak and bandwidth assumed reached, in (0, 1]
                             (rl_fraction_parse); 0: 1, the pure bound */
  rl_roof_req roof;       /* peak, sparse, overhead, bw_given (dtype,
                             tensor and stand_in are set from the above) */
} rl_infer_req;

/* A fraction in (0, 1] as a user writes it: "0.7" or "70%" (a count as
 * rl_parse_quantity reads it, or a percentage). RL_EINVAL "must be a
 * fraction in (0, 1] (got TEXT)", or rl_parse_quantity's error (RL_EPARSE,
 * RL_ERANGE: "'most' is not a number"); a client puts the parameter's name
 * before either ("--bw-eff must be ...", "--bw-eff: 'most' is ..."). */
RL_API rl_status rl_fraction_parse(const char *text, double *out, rl_error *err);

/* Everything not given: dtypes -1, degrees 1, gathered embedding, 0. */
RL_API rl_infer_req rl_infer_req_init(void);

/* What rl_infer_setup chose, for a client to say so. */
typedef struct rl_infer_info {
  int32_t dtype;          /* the compute format (req dtype, or the model's) */
  int32_t peak_dtype;     /* the format whose tensor peak the roof is:
                             dtype, or fp16/bf16 standing in */
  int32_t comm_latency_default; /* 1: the all-reduce latency is
                             rl_comm_latency's (tp > 1, not given) */
} rl_infer_info;

/* The roof and the configuration of model m on the resolved device hw:
 * the tensor peak of the compute format (fp16 and bf16 standing in for
 * each other), scaled by compute_eff and bw_eff (recorded in the roof);
 * the configuration with the degrees, the device's capacity, the link
 * bandwidth (link_bw, else half of hw->interconnect_bw) when any degree
 * is > 1, and the latencies: per all-reduce comm_latency or
 * rl_comm_latency(RL_COMM_ALLREDUCE, tp), per stage send (pp > 1) and per
 * all-to-all (ep > 1) rl_comm_latency's. The batch, context and prefill
 * fields are left at rl_infer_cfg_init's for the caller. RL_EINVAL naming
 * the parameter: a degree < 1 (`microbatches` a whole number in 1 ..
 * RL_MAX_MICROBATCHES, with pp > 1), link_bw < 0, comm_latency < 0,
 * `link_bw` without a degree > 1, `comm_latency` without tp > 1, an
 * efficiency outside (0, 1], "`tp` N: <id> has no interconnect figure;
 * give `link_bw`"; rl_roof_resolve's errors. info may be NULL. */
RL_API rl_status rl_infer_setup(const rl_model *m, const rl_hw *hw,
                                const rl_infer_req *req, rl_infer_cfg *cfg,
                                rl_roof *roof, rl_infer_info *info,
                                rl_error *err);

/* Set cfg's degrees to tp, pp and ep and the link and latencies they need
 * by rl_infer_setup's rules (the link bandwidth kept, or 0 when all are 1;
 * the all-reduce latency req's when given): for a configuration set up at
 * the largest degrees, tried at smaller ones (plan). */
RL_API void rl_infer_degrees(rl_infer_cfg *cfg, const rl_hw *hw,
                             const rl_infer_req *req, int32_t tp,
                             int32_t pp, int32_t ep);

/* One decode step at one batch size. */
typedef struct rl_decode_row {
  double batch;          /* B sequences, one new token each */
  double flops;          /* FLOPs of the step (per device with tp) */
  double bytes;          /* bytes read: weights + every sequence's cache */
  double weight_bytes;   /* the weights' share of `bytes` */
  double kv_bytes;       /* the KV caches' share of `bytes` */
  double intensity;      /* flops / bytes, FLOP/B */
  double compute_time_s; /* flops / peak */
  double memory_time_s;  /* bytes / bandwidth */
  double comm_time_s;    /* tensor-parallel all-reduces (2 per layer) */
  double step_time_s;    /* max(compute, memory) + comm: the lower bound */
  double tokens_per_s;   /* B / step time: all sequences */
  double tokens_per_s_per_seq; /* 1 / step time */
  double memory_bytes;   /* resident: weights + B caches (per device) */
  int32_t bound;         /* rl_bound_kind (compute or memory) */
  int32_t fits;          /* 1: memory_bytes <= capacity (or not checked) */
  /* With pp > 1 the step is the time per output token over the pipeline:
   * max(sum of the stage times of a micro-batch, the busiest stage's
   * round of m micro-batches); flops, bytes and the compute and memory
   * times summed over stages and micro-batches; memory_bytes the largest
   * stage's device. */
  double microbatches;   /* micro-batches in flight (1 without pp) */
  double stage_time_max_s; /* the slowest stage's time for one micro-batch
                            (without pp: the step) */
  double p2p_time_s;     /* stage-to-stage sends on a micro-batch's path
                            (in comm_time_s) */
  double a2a_time_s;     /* expert-parallel all-to-alls (in comm_time_s) */
  /* when this batch does not fit (capacity given): the smallest degree at
   * which it does at this context, by the rule of the summary's tp_needed /
   * ep_needed (tp dividing the heads; with ep > 1 an ep dividing the
   * experts); 0 when it fits, or when no degree up to the heads/experts
   * does */
  double tp_fit, ep_fit;
} rl_decode_row;

/* What does not depend on the batch. Per device when tp > 1. */
typedef struct rl_decode_summary {
  double params;             /* total parameters */
  double active_params;      /* per token */
  double weights_bytes;      /* resident weights, all of them (per device) */
  double weights_read_bytes; /* read per step at B = 1, without the
                                gathered embedding rows (MoE: k experts) */
  double embedding_bytes;    /* the input embedding table's size */
  double kv_bytes_per_token; /* whole model, all devices */
  double kv_bytes_per_seq;   /* at this context */
  double linear_flops_per_token;    /* 2 x the parameters multiplied */
  double attention_flops_per_token; /* 4 L H d_h T: QK^T and AV */
  double attention_intensity;       /* attention FLOPs / KV bytes */
  double ridge;              /* peak / bandwidth */
  double ridge_batch;        /* B where weights-only decode reaches the
                                ridge; 0 when it never does */
  double asymptotic_intensity; /* the intensity as B grows without end */
  double max_batch;          /* most sequences that fit (0 when none; -1
                                when the capacity is not checked) */
  double devices_needed;     /* devices the weights need, at least */
  double mem_bytes;          /* capacity per device (0: not checked) */
  int32_t weights_fit;       /* 1: the weights alone fit */
  int32_t tp;
  double activation_flops_per_token; /* the MLP activation: SiLU(gate) x
                                up, 5 per element of d_ff, or GELU (tanh
                                form), 9 per element */
  double scale_bytes;        /* quantization scales and zero points
                                (per device) */
  double group_size;         /* weights per scale; 0 when not quantized
                                or no scales; -1 per output channel */
  double kept_bytes;         /* tensors kept in kept_dtype (embedding,
                                output layer, norms, routers) when
                                quantized, per device */
  int32_t quantized;         /* 1: weight-only quantization applies */
  int32_t kept_dtype;        /* the format those tensors stay in */
  int32_t pp, ep;            /* pipeline stages, expert-parallel devices;
                                with pp > 1 weights_bytes, max_batch and
                                weights_fit are the tightest stage's */
  /* when the weights do not fit: the smallest degree at which they do,
   * one a run can use (0 otherwise, or when none does): without ep a
   * tensor-parallel degree that divides the heads (pp as given); with
   * ep > 1 an expert-parallel degree, a multiple of tp dividing the
   * experts (tp and pp as given) */
  double tp_needed, ep_needed;
  int32_t expert_weights;    /* the rl_wfmt the routed experts are stored
                                in: the model's expert_weights unless a
                                weight_dtype is given (which wins for every
                                matrix, experts included); 0 = the weight
                                format */
  double expert_bytes;       /* the routed experts' weights, all layers
                                and experts (per device) */
} rl_decode_summary;

/* Decode steps of `m` on `roof` at each of the n batch sizes (whole, > 0),
 * context cfg->context (> 0): rows[i] for batches[i] (rows has room for n).
 *   FLOPs = B (2 N_mm + 4 L H d_h T)        N_mm: parameters multiplied
 *   bytes = W + B T kv                      W: weights read (embedding
 *                                            as gathered rows or in full)
 *   step >= max(FLOPs/peak, bytes/bw) + 2 L allreduce(B d s_act) with tp.
 * Activations and the new token's KV write (1/T of the cache) are left
 * out (Pope et al. 2022 leave them out too). `sum` may be NULL. */
RL_API rl_status rl_decode(const rl_model *m, const rl_infer_cfg *cfg,
                           const rl_roof *roof, const double *batches,
                           int32_t n, rl_decode_row *rows,
                           rl_decode_summary *sum, rl_error *err);

/* One pipeline stage (rl_stages). */
typedef struct rl_stage {
  double first_layer;    /* its first layer, from 0 */
  double layers;         /* how many layers it holds */
  double weights_bytes;  /* its weights, per device (embedding on the
                            first stage, output layer on the last) */
} rl_stage;

/* The cfg->pp stages of `m` (one when pp <= 1) into out (room for cap):
 * floor(L/pp) layers each, the remainder one more each on the stages just
 * before the last (vLLM's split). *n gets the count. */
RL_API rl_status rl_stages(const rl_model *m, const rl_infer_cfg *cfg,
                           rl_stage *out, int32_t cap, int32_t *n,
                           rl_error *err);

/* One op kind of a prefill or of a decode step (summed over the layers). */
typedef struct rl_prefill_op {
  char name[RL_LABEL_MAX]; /* "qkv projection", "attention", ... */
  double count;            /* how many such ops (layers) */
  double flops, bytes;     /* all of them */
  double intensity;        /* FLOP/B */
  double time_s;           /* sum of their roofline bounds */
  int32_t bound;           /* rl_bound_kind (network: the all-reduces) */
} rl_prefill_op;

/* Room for every op of a prefill or a decode step. */
#define RL_PREFILL_OPS 24

typedef struct rl_prefill_result {
  double tokens;          /* batch x prompt */
  double flops, bytes;    /* the whole prefill (per device with tp) */
  double compute_time_s;  /* the ops' compute times summed */
  double comm_time_s;     /* tensor-parallel all-reduces */
  double ttft_s;          /* time to first token: sum over ops of
                             max(F/peak, Q/bw), plus comm */
  double compute_bound_fraction; /* share of ttft in compute-bound ops */
  double tokens_per_s;    /* prompt tokens / ttft */
  double decode_time_s;   /* new_tokens decode steps at context p..p+n-1 */
  double e2e_time_s;      /* ttft + decode_time */
  double memory_bytes;    /* weights + KV of the batch at p + n tokens */
  int32_t fits;
  int32_t n_ops;          /* rows written to ops */
  double weights_bytes;   /* resident weights (per device) */
  double mem_bytes;       /* capacity per device (0: not checked) */
  /* pipeline (pp > 1): ttft is the makespan of the micro-batches over the
   * stages; flops, bytes and the ops are the whole model's at the full
   * batch; memory_bytes and weights_bytes the largest stage's device */
  int32_t pp, ep;
  double microbatches;    /* 1 without pp */
  double bubble_fraction; /* stages' idle share of ttft; (p-1)/(m+p-1)
                             for equal stages and micro-batches (GPipe) */
  double stage_time_max_s;/* slowest stage, one micro-batch */
  double p2p_time_s;      /* stage-to-stage sends (in comm_time_s) */
  double a2a_time_s;      /* expert-parallel all-to-alls (in comm_time_s) */
} rl_prefill_result;

/* Prefill of cfg->batch prompts of cfg->context tokens: per layer the QKV
 * projection, attention (fused, FlashAttention-style, causal when
 * cfg->causal), the output projection and the MLP, each bounded by the
 * roofline separately, then the output layer for the last token of each
 * prompt. With cfg->new_tokens, the end-to-end bound adds the decode
 * steps. `ops` (room for cap, RL_PREFILL_OPS is enough) may be NULL. */
RL_API rl_status rl_prefill(const rl_model *m, const rl_infer_cfg *cfg,
                            const rl_roof *roof, rl_prefill_op *ops,
                            int32_t cap, rl_prefill_result *out,
                            rl_error *err);

/* One decode step of `batch` sequences at context cfg->context, op by op,
 * as rl_prefill tables a prefill: the embedding lookup, per layer the
 * projections, attention over the KV cache, the output projection, the MLP
 * (its activation an op of its own), the norms and residual adds, then the
 * output layer, each bounded by the roofline on its own; with tp > 1 a
 * last row for the all-reduces (bound "network", the time rl_decode adds).
 * Convention: the ops add up to the step's FLOPs and bytes plus what the
 * step leaves out (softmax, norms, residual adds, the activations each op
 * reads and writes), and no op overlaps another, so the sum of their times
 * is >= rl_decode's step time (which overlaps all compute with all memory
 * traffic). Writes min(n, cap) rows when ops is given and the count n to
 * *n_ops (RL_PREFILL_OPS is room enough). */
RL_API rl_status rl_decode_ops(const rl_model *m, const rl_infer_cfg *cfg,
                               const rl_roof *roof, double batch,
                               rl_prefill_op *ops, int32_t cap,
                               int32_t *n_ops, rl_error *err);

/* ---- The planner: the largest batch under latency targets ------------- */
typedef struct rl_plan_cfg {
  double prompt;       /* P, tokens of each prompt (>= 1) */
  double gen;          /* G, tokens generated per request (>= 1) */
  double ttft_s;       /* target time to first token; 0 = none */
  double tpot_s;       /* target time per output token (the last, slowest
                          step, at context P + G); 0 = none */
  double gpus;         /* devices available (>= pp x max(tp, ep));
                          replicas = gpus / (pp x max(tp, ep)) */
  double max_batch;    /* search limit; 0 = 65536 */
  /* How requests are batched. RL_BATCHING_STATIC (0): B requests
   * together, their prompts prefilled at once, then their decode steps.
   * RL_BATCHING_CONTINUOUS: a steady state of B sequences decoding, each
   * step also prefilling up to `chunk` tokens of the next requests
   * (chunked prefill; vLLM, SGLang, TensorRT-LLM's in-flight batching). */
  int32_t batching;
  double chunk;        /* continuous: prefill tokens per step at most;
                          0 = RL_PLAN_CHUNK */
  double mem_fraction; /* continuous: share of each device's memory the
                          engine takes (vLLM gpu_memory_utilization);
                          0 = RL_PLAN_MEM_FRACTION */
  double block_size;   /* continuous: tokens per KV-cache block (a
                          sequence holds whole blocks); 0 = RL_PLAN_BLOCK */
  double reserve_bytes;/* continuous: memory per device kept from the KV
                          cache besides the weights and activations (CUDA
                          graphs, workspaces), B; 0 = none (the CLI and
                          Python default to RL_PLAN_RESERVE_BYTES) */
} rl_plan_cfg;

#define RL_BATCHING_STATIC 0
#define RL_BATCHING_CONTINUOUS 1
/* "static", "continuous"; NULL if unknown. rl_batching_parse accepts those
 * names (ASCII case ignored); RL_EINVAL "'x' is not static or continuous"
 * otherwise. */
RL_API const char *rl_batching_name(int32_t batching);
RL_API rl_status rl_batching_parse(const char *name, int32_t *batching, rl_error *err);
/* Continuous batching's defaults: vLLM's max_num_batched_tokens with
 * chunked prefill (512, vllm/config.py SchedulerConfig before v1), its
 * gpu_memory_utilization (0.90) and block_size (16). The reserve: the
 * smallest CUDA-graph footprint vLLM reports, Llama 3.2 1B's "Graph
 * capturing finished in 14 secs, took 0.21 GiB" (vllm-project/vllm pull
 * request 11349's log): larger models and more captured sizes take more,
 * so this keeps the KV cache's room an upper bound. */
#define RL_PLAN_CHUNK 512.0
#define RL_PLAN_MEM_FRACTION 0.90
#define RL_PLAN_BLOCK 16.0
#define RL_PLAN_RESERVE_BYTES (0.21 * 1073741824.0)
/* An rl_plan_cfg for continuous batching with those defaults (prompt, gen,
 * targets and gpus 0: fill them in). A zeroed one plans static batches. */
RL_API rl_plan_cfg rl_plan_cfg_init(void);

typedef enum rl_plan_limit {
  RL_LIMIT_CAPACITY = 0, /* one more sequence's KV cache does not fit */
  RL_LIMIT_TTFT = 1,     /* one more prompt misses the TTFT target */
  RL_LIMIT_TPOT = 2,     /* one more sequence misses the TPOT target */
  RL_LIMIT_SEARCH = 3,   /* reached max_batch (capacity not checked) */
  RL_LIMIT_WEIGHTS = 4,  /* the weights alone do not fit: no batch */
  RL_LIMIT_PREFILL = 5   /* continuous: one more sequence needs more
                            prefill tokens per step than the chunk */
} rl_plan_limit;

/* "capacity", "ttft", "tpot", "search limit", "weights", "prefill". */
RL_API const char *rl_plan_limit_name(int32_t limit);

typedef struct rl_plan_row {
  double batch;          /* the largest batch that meets everything; 0 =
                            none (then `limit` says why at batch 1) */
  double ttft_s;         /* rl_prefill of `batch` prompts of P tokens */
  double tpot_s;         /* rl_decode step at `batch`, context P + G */
  double e2e_s;          /* rl_prefill's end-to-end bound with G tokens */
  double replicas;       /* floor(gpus / (pp x max(tp, ep))) */
  double tokens_per_s;   /* generated tokens/s of all replicas:
                            replicas x batch x G / e2e */
  double tokens_per_s_per_device; /* tokens_per_s / (replicas x pp x
                            max(tp, ep)) */
  double memory_bytes;   /* per device at batch, context P + G */
  int32_t tp, pp;        /* tensor-parallel degree, pipeline stages */
  int32_t weight_dtype, kv_dtype;
  int32_t limit;         /* rl_plan_limit: what stops batch + 1 */
  int32_t bound;         /* the decode step's bound at batch */
  int32_t ep;            /* expert-parallel devices (1: none) */
  double microbatches;   /* the decode step's micro-batches at batch */
  /* continuous batching (0 with static batches): */
  double requests_per_s; /* requests finished per second, all replicas */
  double prefill_tokens_per_step; /* B P / (G - 1): the prompt tokens a
                            step must prefill to keep B sequences running */
  double kv_bytes;       /* the KV cache at batch, per device (blocks) */
  double activation_bytes; /* the step's largest activation, per device */
  double reserve_bytes;  /* kept for CUDA graphs and workspaces */
} rl_plan_row;

/* One way to run `m` (cfg's tp, pp, ep, weight and KV formats, link):
 * static batches: the largest batch B whose prefill (B prompts of P
 * tokens) meets the TTFT target, whose last decode step (context P + G)
 * meets the TPOT target, and whose weights and B caches of P + G tokens
 * fit in cfg->mem_bytes. Each figure is the one rl_prefill / rl_decode
 * give at that batch.
 * Continuous batching: the largest B sequences decoding in a steady state
 * in which each step (one forward pass, bounded as one roofline: the
 * weights read once for all its tokens) decodes the B sequences and
 * prefills the next requests' prompts in chunks of at most `chunk`
 * tokens. Requests finish at B / (G - 1) a step, so a step prefills
 * B P / (G - 1) tokens on average, which must not exceed the chunk.
 *   TPOT: the mean step, B decodes at the mean context P + G/2 and the
 *     mean prefill B P / (G - 1) at the mean offset (a lower bound of the
 *     mean over steps: the step bound is convex in the prefill tokens);
 *   TTFT: the ceil(P / chunk) steps that prefill one prompt, each beside
 *     the B decodes (queueing left out);
 *   tokens/s: B G / (G - 1) tokens a step (B decodes and the first tokens
 *     of the requests prefilled), requests/s B / (G - 1) a step;
 *   memory: mem_fraction x capacity >= weights + the step's largest
 *     activation (the MLP's gate and up outputs of its B + chunk tokens)
 *   + the reserve + the KV cache in blocks: B sequences at the contexts
 *     P+1 .. P+G-1 spread evenly, and the prompt being prefilled.
 * Needs G >= 2 (a decode phase). */
RL_API rl_status rl_plan(const rl_model *m, const rl_infer_cfg *cfg,
                         const rl_roof *roof, const rl_plan_cfg *plan,
                         rl_plan_row *out, rl_error *err);

/* ---- MFU and HFU (PaLM, Chowdhery et al. 2022, App. B; Korthikanti et
 * al. 2022) ------------------------------------------------------------- */
typedef enum rl_attn_conv {
  RL_ATTN_FULL = 0,   /* 12 L H d_h T per token (PaLM, Chowdhery et al. 2022) */
  RL_ATTN_CAUSAL = 1, /* half of it: the masked half is not needed */
  RL_ATTN_NONE = 2    /* 6N only */
} rl_attn_conv;

typedef enum rl_recompute {
  RL_RECOMPUTE_NONE = 0,
  RL_RECOMPUTE_SELECTIVE = 1, /* attention scores, softmax, AV again:
                                 + 4 L H d_h T (Korthikanti et al.) */
  RL_RECOMPUTE_FULL = 2       /* the whole forward again: + 2N + 4 L H d_h T */
} rl_recompute;

/* "full", "causal", "none" and "none", "selective", "full"; NULL if
 * unknown. The parsers accept those names (ASCII case ignored) and fail
 * with RL_EINVAL "'x' is not full, causal or none". */
RL_API const char *rl_attn_name(int32_t conv);
RL_API rl_status rl_attn_parse(const char *name, int32_t *conv,
                               rl_error *err);
RL_API const char *rl_recompute_name(int32_t r);
RL_API rl_status rl_recompute_parse(const char *name, int32_t *r,
                                    rl_error *err);

typedef struct rl_mfu_cfg {
  double seq;           /* T, tokens per sequence */
  double tokens_per_s;  /* measured over whole steps, whole run */
  double gpus;          /* devices */
  double peak;          /* dense peak of one device in the matmuls'
                           format, FLOP/s */
  double sparse_peak;   /* the 2:4 sparse peak; 0 = the device has none */
  double padding;       /* fraction of tokens/s that is padding, [0, 1) */
  int32_t attention;    /* rl_attn_conv */
  int32_t recompute;    /* rl_recompute, for the HFU */
  int32_t use_sparse;   /* 1: divide by sparse_peak (halves the figure) */
  int32_t exclude_embedding; /* 1: N without the embedding table */
} rl_mfu_cfg;

/* Defaults: attention full, recompute none, dense peak, no padding. */
RL_API rl_mfu_cfg rl_mfu_cfg_init(void);

typedef struct rl_mfu_result {
  double n_params;                 /* N used */
  double attention_flops_per_token; /* 12 L H d_h T x (1, 1/2 or 0) */
  double model_flops_per_token;    /* 6N + attention */
  double recompute_flops_per_token; /* what recomputation adds */
  double hardware_flops_per_token; /* model + recompute */
  double peak;                     /* the peak divided by, one device */
  double useful_tokens_per_s;      /* tokens/s x (1 - padding) */
  double model_flops_per_s;        /* per device */
  double mfu;                      /* model FLOP/s / (gpus x peak) */
  double hfu;                      /* hardware FLOP/s / (gpus x peak) */
  int32_t sparse;                  /* 1: the peak is the sparse one */
} rl_mfu_result;

RL_API rl_status rl_mfu(const rl_model *m, const rl_mfu_cfg *cfg,
                        rl_mfu_result *out, rl_error *err);

/* The same run under each convention, side by side. */
typedef struct rl_mfu_convention {
  char label[RL_LABEL_MAX]; /* "6N, dense peak", ... */
  char metric[8];           /* "mfu" or "hfu" */
  int32_t attention, recompute, sparse, padded;
  double flops_per_token;
  double value;             /* the utilization, 0..1 (can exceed 1 for a
                               wrong convention) */
} rl_mfu_convention;

#define RL_MFU_CONVENTIONS 12

/* Writes up to cap conventions (RL_MFU_CONVENTIONS is enough) and their
 * number into *n. Sparse rows only when cfg->sparse_peak > 0, the padded
 * row only when cfg->padding > 0. cfg's own attention, recompute and
 * use_sparse choices are ignored: every one is listed. */
RL_API rl_status rl_mfu_conventions(const rl_model *m, const rl_mfu_cfg *cfg,
                                    rl_mfu_convention *rows, int32_t cap,
                                    int32_t *n, rl_error *err);

/* ---- Collectives (Patarasuk & Yuan 2009; nccl-tests PERFORMANCE.md) ---- */
typedef enum rl_coll_kind {
  RL_COLL_ALLREDUCE = 0,     /* each rank sends 2(n-1)/n S */
  RL_COLL_ALLGATHER = 1,     /* (n-1)/n S, S the gathered buffer */
  RL_COLL_REDUCESCATTER = 2  /* (n-1)/n S, S the input buffer */
} rl_coll_kind;

/* "allreduce", "allgather", "reducescatter"; NULL if unknown. */
RL_API const char *rl_coll_name(int32_t kind);
/* Also accepts "all-reduce", "all_reduce", "ar", "ag", "rs", ... */
RL_API rl_status rl_coll_parse(const char *name, int32_t *kind,
                               rl_error *err);

typedef struct rl_coll_cfg {
  int32_t kind;           /* rl_coll_kind */
  double bytes;           /* S, as nccl-tests' "size" */
  double ranks;           /* n >= 2, whole */
  double busbw;           /* bus bandwidth (nccl-tests), B/s; for a ring
                             it is the slowest link's one-way bandwidth */
  double latency_s;       /* alpha per ring step: 2(n-1) steps for an
                             all-reduce, n-1 otherwise (0 = none) */
  double ranks_per_node;  /* two-level all-reduce: g ranks per node
                             (reduce-scatter, all-reduce across nodes of
                             S/g, all-gather); 0 = one level */
  double inter_busbw;     /* busbw across nodes, per rank (two-level) */
  double step_time_s;     /* a training step's time; 0 = no step */
  double backward_time_s; /* DDP overlap: the backward pass; 0 = 2/3 of
                             the step (backward is 2/3 of the FLOPs) */
  double bucket_bytes;    /* DDP bucket; 0 = 25 MiB (PyTorch's default) */
} rl_coll_cfg;

RL_API rl_coll_cfg rl_coll_cfg_init(void);

typedef struct rl_coll_result {
  double factor;          /* 2(n-1)/n or (n-1)/n */
  double bytes_per_rank;  /* sent by each rank: factor x S */
  double bandwidth_time_s; /* the beta term */
  double latency_time_s;  /* the alpha term */
  double time_s;          /* the whole collective */
  double algbw;           /* S / time, B/s */
  double busbw;           /* algbw x factor (= the input busbw without
                             latency; the effective one with it), B/s */
  double intra_time_s, inter_time_s; /* two-level: the two parts */
  /* with a step time (all 0 otherwise): */
  double step_fraction;   /* time / step: no overlap at all */
  double step_fraction_added; /* time / (step + time): when the step time
                                 excludes the communication */
  double ddp_exposed_s;   /* DDP: what bucketed overlap leaves exposed */
  double ddp_fraction;    /* ddp_exposed / step */
  double fsdp_time_s;     /* FSDP / ZeRO-3: 1.5 x the all-reduce traffic
                             (all-gather forward and backward, reduce-
                             scatter), no overlap */
  double fsdp_fraction;   /* fsdp_time / step */
} rl_coll_result;

RL_API rl_status rl_collective(const rl_coll_cfg *cfg, rl_coll_result *out,
                               rl_error *err);

/* ---- JSON records of the LLM calculators --------------------------------
 * The records `roofline model|decode|prefill|mfu|comm --json` print, for
 * every front end (the CLI, the Python binding, the page) to print the same
 * figures. Like rl_result_json: pure, snprintf-style. Each writes at most
 * cap bytes into the caller's buf (NUL-terminated when cap > 0; buf may be
 * NULL when cap is 0) and returns the length the whole record needs, not
 * counting the NUL: call with cap 0 to size the buffer. Numbers are %.10g
 * (null when not finite). Inputs are borrowed; the results passed in are
 * those of the calculator for the same inputs. Figures the record needs
 * beyond them are computed here from the inputs (pure): the parameter count
 * and KV bytes of a model, a decode step under the other embedding
 * convention, the MFU conventions. `hw_id` names the device (NULL: null). */

/* One model: its configuration (sizes defaulted by rl_model_check), the
 * derived parameter count part by part, the published count (null when
 * none), and the KV cache per token in kv_dtype (-1: the model's format),
 * named by "kv_dtype". */
RL_API size_t rl_model_json(const rl_model *m, int32_t kv_dtype, char *buf,
                            size_t cap);
/* Every built-in model, as an array of rl_model_json's records in their
 * own formats (without "kv_dtype"). */
RL_API size_t rl_model_list_json(char *buf, size_t cap);

/* A decode sweep: rl_decode's summary and its n rows for (m, cfg, roof),
 * and "other_embedding_step_time_s", the B = 1 step under the other
 * embedding convention; with n_ops > 0, rl_decode_ops's table of one step
 * as "ops" (each with its "share" of their sum, "ops_time_s"). */
RL_API size_t rl_decode_json(const rl_model *m, const rl_infer_cfg *cfg,
                             const rl_roof *roof, const char *hw_id,
                             const rl_decode_row *rows, int32_t n,
                             const rl_decode_summary *sum,
                             const rl_prefill_op *ops, int32_t n_ops,
                             char *buf, size_t cap);

/* A prefill: rl_prefill's result and its r->n_ops op rows ("ops", each with
 * its "share" of the time to first token). */
RL_API size_t rl_prefill_json(const rl_model *m, const rl_infer_cfg *cfg,
                              const rl_roof *roof, const char *hw_id,
                              const rl_prefill_op *ops,
                              const rl_prefill_result *r, char *buf,
                              size_t cap);
/* {"model","hw","prompt","gen","ttft_target_s","tpot_target_s","gpus",
 * "peak","bandwidth","compute_eff","bw_eff","peak_measured",
 * "bandwidth_measured" (the roof every row used), "rows":[{"batch","tp","pp","weight_dtype","kv_dtype","ttft_s","tpot_s",
 * "e2e_s","replicas","tokens_per_s","tokens_per_s_per_device",
 * "memory_bytes","limit","bound"}]} for rows already sorted. */
RL_API size_t rl_plan_json(const rl_model *m, const rl_plan_cfg *plan,
                           const char *hw_id, const rl_roof *roof,
                           const rl_plan_row *rows, int32_t n, char *buf,
                           size_t cap);

/* MFU and HFU: rl_mfu's result for (m, cfg), the run's inputs, and the same
 * run under each convention (rl_mfu_conventions) with their range. */
RL_API size_t rl_mfu_json(const rl_model *m, const rl_mfu_cfg *cfg,
                          const char *hw_id, const rl_mfu_result *r,
                          char *buf, size_t cap);

/* A collective: rl_collective's result for cfg; the two-level parts when
 * cfg has ranks per node, the step shares when it has a step time (DDP and
 * FSDP for an all-reduce only). */
RL_API size_t rl_collective_json(const rl_coll_cfg *cfg,
                                 const rl_coll_result *r, char *buf,
                                 size_t cap);

/* ======================================================================
 * Rendering: SVG and terminal roofline charts, the HTML page
 * ====================================================================== */
/* A chart is roofs (a device in one format: a slanted memory roof and a
 * flat compute roof meeting at the ridge point, plus lower flat ceilings
 * and an L2 roof where known) and points (kernels at their intensity and
 * throughput). Build the roofs with rl_plot_roof_from_hw, the points with
 * rl_plot_point_from_result or rl_plot_points_parse, then render with
 * rl_plot_svg (a standalone SVG document) or rl_plot_term (text for a
 * terminal). Every text that comes from input is escaped (XML in SVG,
 * control characters dropped in the terminal). */
#define RL_PLOT_CEILINGS 4
#define RL_PLOT_LEVELS 4
#define RL_PLOT_LABEL_MAX 96

typedef struct rl_plot_roof {
  char label[RL_HW_TEXT_MAX];   /* "H100 SXM5 80GB bf16" (legend) */
  char peak_name[32];           /* the flat roof's name on the chart
                                   ("FP64 FMA"); "" = the label */
  double peak;                  /* flat roof, FLOP/s */
  double bandwidth;             /* slanted roof (DRAM/HBM), B/s */
  char bw_name[16];             /* its name ("DRAM"); "" = none */
  int32_t n_levels;             /* more slanted roofs (caches): */
  double level_bw[RL_PLOT_LEVELS];        /* B/s */
  char level_name[RL_PLOT_LEVELS][16];    /* "L2" */
  int32_t n_ceilings;           /* lower flat ceilings (vector units) */
  double ceiling[RL_PLOT_CEILINGS];            /* FLOP/s */
  char ceiling_label[RL_PLOT_CEILINGS][32];    /* "FP32 vector" */
  int32_t color;  /* 1 + the device's hue (roofs of one device share it);
                     0: one hue per roof, by its index */
  int32_t dash;   /* 1 + the format's dash pattern of the flat roof
                     (0 solid, then 6 dashes); 0: solid */
} rl_plot_roof;

/* Marker shapes of points (rl_plot_point.marker). */
enum { RL_MARK_CIRCLE, RL_MARK_SQUARE, RL_MARK_TRIANGLE, RL_MARK_DIAMOND };

typedef struct rl_plot_point {
  char label[RL_PLOT_LABEL_MAX];
  double flops, bytes;   /* F, Q (0 = unknown: then intensity/perf rule) */
  double intensity;      /* x: FLOP/B */
  double perf;           /* y: FLOP/s, achieved when measured, else the bound */
  double roof_perf;      /* the point's own roof at its intensity, FLOP/s;
                            0 = unknown (no gap drawn) */
  double time_s;         /* measured time, or the roofline lower bound */
  int32_t measured;      /* 1: perf is measured (filled marker, its gap to
                            the roof and its fraction of roof shown);
                            0: a bound (hollow marker) */
  int32_t roof;          /* index of the roof it belongs to (its colour) */
  int32_t bound;         /* rl_bound_kind, -1 unknown */
  int32_t marker;        /* RL_MARK_* */
  int32_t group;         /* > 0: joined by a thin line to the other points
                            of its group, in order (e.g. one kernel at its
                            L1, L2 and DRAM intensities); only the first
                            of a group is labelled */
} rl_plot_point;

#define RL_PLOT_ASCII 1u     /* rl_plot_term: 7-bit ASCII only */
#define RL_PLOT_COLOR 2u     /* rl_plot_term: ANSI colours */
#define RL_PLOT_AREA_TIME 4u /* marker area proportional to time_s */

typedef struct rl_plot {
  const char *title;     /* may be NULL */
  const char *subtitle;  /* may be NULL */
  const rl_plot_roof *roofs;
  int32_t n_roofs;
  const rl_plot_point *points;
  int32_t n_points;
  int32_t width, height; /* SVG: pixels (0: 960 x 620); terminal:
                            columns x rows (0: 100 x 30) */
  uint32_t flags;        /* RL_PLOT_* */
} rl_plot;

/* An empty chart description (all zero). */
RL_API rl_plot rl_plot_init(void);

/* The roof of `hw` in format `dtype`: the flat roof is the dense tensor
 * peak of that format (RL_ROOF_SPARSE: the 2:4 sparse one, labelled),
 * the slanted roof the memory bandwidth; the lower ceilings are the
 * vector FP16/BF16 and FP32 peaks below it; l2_bw the database's L2
 * bandwidth (0 when unknown). RL_EUNSUPPORTED when the device has no peak
 * for the format. */
RL_API rl_status rl_plot_roof_from_hw(const rl_hw *hw, int32_t dtype,
                                      uint32_t roof_flags,
                                      rl_plot_roof *out, rl_error *err);

/* A point from a roofline result (rl_roofline): at its measured
 * throughput when r->has_measured, else at its bound (attainable). */
RL_API rl_plot_point rl_plot_point_from_result(const char *label,
                                               const rl_result *r,
                                               int32_t roof);

/* Parse a points file: a JSON array of objects with at least a label
 * ("op", else "name", else "kernel"), "flops" and "bytes" (or
 * "intensity"). A point is measured when it has "measured_s" (op, kernel
 * and trace records) or "achieved" (FLOP/s; `roofline measure --json`);
 * otherwise it is placed at its roofline bound ("time_s"). Its roof
 * is min(peak, bandwidth x I) with the record's own "peak" and
 * "bandwidth" when present (else `roof`'s), or its "roof" member. `roof`
 * may be NULL when every record carries its own. Allocates *out (release
 * with rl_free); errors name the element and member ("points[3]: 'bytes'
 * must be a number >= 0"). */
RL_API rl_status rl_plot_points_parse(const char *text, size_t len,
                                      const rl_plot_roof *roof,
                                      int32_t roof_index,
                                      rl_plot_point **out, int32_t *n,
                                      rl_error *err);

/* A standalone SVG document (UTF-8): log-log axes spanning the data plus
 * a margin, one Okabe-Ito hue per device (roof.color) and one dash per
 * format (roof.dash), the slanted roofs of every memory level, the flat
 * roofs and ceilings (lines that coincide drawn once, naming all), ridge
 * points as hollow diamonds, the points (filled: measured, hollow: at
 * their bound) each with a <title> tooltip, a legend and the title. No
 * label overlaps another label, a marker or the legend: labels that find
 * no place are left to the legend (roofs) or counted in a "+N more" note
 * (points). Deterministic. Returns the length needed, as snprintf. */
RL_API size_t rl_plot_svg(const rl_plot *p, char *buf, size_t cap);

/* What rl_plot_svg placed, for checking a layout by machine: one box per
 * element (a rotated label is several boxes with one id), in SVG pixels
 * (y down). Texts are measured with the renderer's own width estimate. */
enum {
  RL_BOX_CANVAS,      /* the whole canvas (first box) */
  RL_BOX_PLOT,        /* the plot area (second box) */
  RL_BOX_TITLE,       /* title and subtitle */
  RL_BOX_AXIS,        /* tick labels and axis titles */
  RL_BOX_LEGEND,      /* the legend, as one box */
  RL_BOX_LINE_LABEL,  /* a roof's, ceiling's or ridge's label */
  RL_BOX_POINT_LABEL, /* a point's label */
  RL_BOX_MARKER,      /* a point's or ridge's marker */
  RL_BOX_NOTE         /* "+N more" note */
};
typedef struct rl_plot_box {
  int32_t kind;  /* RL_BOX_* */
  int32_t id;    /* element: boxes of one element share it */
  double x0, y0, x1, y1;
} rl_plot_box;

/* The boxes rl_plot_svg places for p (at most cap into out, which may be
 * NULL with cap 0); returns how many there are. */
RL_API size_t rl_plot_boxes(const rl_plot *p, rl_plot_box *out, size_t cap);

/* The same chart as text for a terminal (Unicode braille lines, or ASCII
 * with RL_PLOT_ASCII; ANSI colours with RL_PLOT_COLOR), points marked A,
 * B, ... and listed below the chart with their gap to the roof. Fits
 * width x height characters. Returns the length needed. */
RL_API size_t rl_plot_term(const rl_plot *p, char *buf, size_t cap);

/* The interactive page's model: given a JSON configuration
 * {"hw":["h100",...], "dtype":"bf16", "n":4096, "batch":512, "seq":4096,
 * "d":4096, "head_dim":128, "points":[...]} (every member optional),
 * returns malloc'd JSON {"svg":"...", "records":[...], "hw":[...]} where
 * records are rl_result_json objects of the page's operations, in point
 * order, and svg is rl_plot_svg's chart of them. On error NULL and err.
 * Release with rl_free. The WebAssembly page calls exactly this. */
RL_API char *rl_widget_model(const char *config, size_t len, rl_error *err);

/* The self-contained HTML page (`roofline widget`): the page, its script
 * and the library compiled to WebAssembly, with `config` (a JSON object as
 * above, may be NULL) as its initial state. Returns the length needed. */
RL_API size_t rl_widget_page(const char *config, char *buf, size_t cap);

/* ======================================================================
 * Measurement: the empirical roofline of this machine
 * ====================================================================== */
/*
 * Everything here is in base units (s, B, FLOP/s, B/s). The pure parts
 * (statistics, STREAM byte counting, plateau detection, the analysis of a
 * measurement, its JSON and hardware row) live in the core and take their
 * timings as data, so they are tested without depending on the machine's
 * speed. The measuring parts (rl_bench_run, rl_measure) read a clock that
 * the caller may inject; they are in the I/O layer (src/io/measure*.c).
 */

/* ---- statistics of repeated timings (pure) ---------------------------- */
typedef struct rl_stats {
  double min, median, max, mean; /* of the samples */
  double spread;                 /* (max - min) / min; 0 for one sample */
  int32_t n;
  uint32_t disturbed; /* RL_DISTURB_FEW_CLEAN, RL_DISTURB_TIMER: why the
                         samples cannot be trusted (rl_measure,
                         rl_bench_run); 0 = they can (rl_stats_of) */
} rl_stats;
#define RL_STATS_MAX 4096
/* Statistics of n (1..RL_STATS_MAX) finite, non-negative samples. */
RL_API rl_status rl_stats_of(const double *x, int32_t n, rl_stats *out,
                             rl_error *err);

/* ---- bandwidth kernels and their traffic (pure) ---------------------- */
typedef enum rl_bw_kernel {
  RL_BW_READ = 0,  /* s += a[i]         (likwid's "load") */
  RL_BW_COPY = 1,  /* b[i] = a[i]       (STREAM Copy) */
  RL_BW_TRIAD = 2, /* a[i] = b[i] + q*c[i] (STREAM Triad) */
  RL_BW_ADD = 3,   /* c[i] = a[i] + b[i]   (STREAM Add, McCalpin 1995) */
  RL_BW_KERNEL_COUNT = 4
} rl_bw_kernel;
/* "read", "copy", "triad", "add"; NULL if unknown. */
RL_API const char *rl_bw_kernel_name(int32_t kernel);
/* Arrays a kernel touches: read 1, copy 2, triad 3, add 3. */
RL_API int32_t rl_bw_kernel_arrays(int32_t kernel);
/* STREAM's counting for `elems` elements of elem_bytes each: the words
 * read plus the words written (read 1, copy 2, triad 3, add 3), write-
 * allocate traffic NOT counted (as STREAM and likwid-bench report), and
 * the FLOPs (read 1, copy 0, triad 2, add 1 per element). */
RL_API rl_status rl_bw_traffic(int32_t kernel, double elems,
                               double elem_bytes, double *bytes,
                               double *flops, rl_error *err);

/* ---- plateaus and memory levels (pure) -------------------------------- */
typedef enum rl_level {
  RL_LEVEL_L1 = 0,
  RL_LEVEL_L2 = 1,
  RL_LEVEL_L3 = 2,
  RL_LEVEL_DRAM = 3,
  RL_LEVEL_COUNT = 4
} rl_level;
/* "l1", "l2", "l3", "dram"; NULL if unknown. */
RL_API const char *rl_level_name(int32_t level);

typedef struct rl_plateau {
  int32_t first, last; /* indices into the sweep, inclusive */
  double ws_lo, ws_hi; /* their working sets, B */
  double value;        /* median bandwidth of its points, B/s */
  double spread;       /* (max - min) / median of its points */
} rl_plateau;

/* Plateaus of a bandwidth sweep (ws ascending, bw > 0): maximal runs of at
 * least min_points consecutive points whose bandwidths stay within a
 * factor 1 + tol of each other; points between runs are transitions.
 * Writes at most cap plateaus, the number found in *n. */
RL_API rl_status rl_find_plateaus(const double *ws, const double *bw,
                                  int32_t n, double tol, int32_t min_points,
                                  rl_plateau *out, int32_t cap, int32_t *n_out,
                                  rl_error *err);

typedef struct rl_levels {
  double bw[RL_LEVEL_COUNT];     /* B/s, 0 = not found */
  double spread[RL_LEVEL_COUNT]; /* relative spread of the level's points */
  double ws_lo[RL_LEVEL_COUNT], ws_hi[RL_LEVEL_COUNT]; /* B */
  int32_t found[RL_LEVEL_COUNT]; /* 1 plateau, 2 no plateau: median of the
                                    points inside the level, 0 none */
  uint32_t unreliable[RL_LEVEL_COUNT]; /* RL_DISTURB_* bits; set by
                                    rl_measure_analyze on all-thread sweeps */
} rl_levels;

/* The bandwidth of each level from a sweep: the plateaus (tol, 2 points)
 * are given to the level whose capacity range holds the geometric centre
 * of their working sets, cache[0..2] being the L1, L2 and L3 capacity
 * available to the threads measured (B; 0 = no such cache), DRAM beyond
 * the last. Several plateaus in one level: the one with most points. A
 * level without a plateau gets the median of its points (found = 2). */
RL_API rl_status rl_bw_levels(const double *ws, const double *bw, int32_t n,
                              const double cache[3], double tol,
                              rl_levels *out, rl_error *err);

/* ---- the benchmark runner (I/O layer: reads a clock) ----------------- */
/* A clock: seconds from any origin, never decreasing. */
typedef double (*rl_clock_fn)(void *user);
/* CLOCK_MONOTONIC in seconds (user ignored). */
RL_API double rl_clock_monotonic(void *user);
/* The clock's granularity: the smallest positive difference between
 * successive readings over 20 changes (STREAM's checktick). 0 when the
 * clock never advances. */
RL_API double rl_clock_tick(rl_clock_fn clock, void *user);

/* Runs the kernel `reps` times; returns 0, or nonzero when its result
 * check failed. */
typedef int (*rl_kernel_fn)(void *arg, int64_t reps);

typedef struct rl_bench_spec {
  rl_kernel_fn kernel;
  void *arg;
  rl_clock_fn clock;  /* NULL: rl_clock_monotonic */
  void *clock_user;
  double min_time_s;  /* each timed sample lasts at least this, and at
                         least 200 ticks; 0 = 1 ms */
  int32_t repeats;    /* timed samples, 1..128; 0 = 5 */
  int32_t warmup;     /* untimed calls first, discarded; 0 = 1, <0 none */
  int64_t max_reps;   /* cap on repetitions per sample; 0 = 2^40 */
} rl_bench_spec;

typedef struct rl_bench_result {
  double tick_s;    /* clock granularity */
  int64_t reps;     /* kernel repetitions per sample */
  rl_stats per_rep; /* seconds per repetition over the samples */
} rl_bench_result;

/* zstd's benchfn/timefn and STREAM's discipline: check the tick, wait for
 * a fresh one, warm up, grow reps until a sample lasts min_time_s, then
 * time `repeats` samples; a sample under a quarter of min_time (the
 * calibrating one was slowed) grows reps again, up to 3 times, and
 * per_rep.disturbed says RL_DISTURB_TIMER when the samples stayed so
 * short that 2 ticks are above 1% of them. RL_EINVAL when the kernel's
 * check fails. */
RL_API rl_status rl_bench_run(const rl_bench_spec *spec, rl_bench_result *out,
                              rl_error *err);

/* ---- the measured machine -------------------------------------------- */
typedef struct rl_cpu_info {
  char vendor[16];     /* "AuthenticAMD" */
  char model[80];      /* CPUID brand string */
  char uarch[24];      /* "Zen 4", or "" when unknown */
  char simd[128];      /* extensions found: "avx512f avx512bw ..." */
  char isa[16];        /* widest used: "avx512", "avx2", "sse2" */
  int32_t family, model_id;
  int32_t cpus;        /* CPUs this process may run on */
  double cache[3];     /* L1d, L2, L3 of one instance, B (0 = none) */
  int32_t cache_shared[3]; /* CPUs sharing one instance */
  double mem_bytes;    /* physical memory, B */
  double nominal_hz;   /* as the OS reports it */
  double measured_hz;  /* timed with a dependent chain of integer adds */
  /* theoretical FLOP per cycle and core (lanes x units x 2 for FMA), from
   * the microarchitecture: FP64 FMA, FP32 FMA, BF16 dot, FP64 FMA+add,
   * FP32 FMA+add (RL_PK_* order) */
  double flop_per_cycle[5];
} rl_cpu_info;

/* Peak kernels */
typedef enum rl_peak_kernel {
  RL_PK_FP64_FMA = 0,
  RL_PK_FP32_FMA = 1,
  RL_PK_BF16_DOT = 2,     /* AVX512-BF16 vdpbf16ps, FP32 accumulate */
  RL_PK_FP64_FMA_ADD = 3, /* FMAs with independent adds beside them */
  RL_PK_FP32_FMA_ADD = 4,
  RL_PK_COUNT = 5
} rl_peak_kernel;
/* "fp64", "fp32", "bf16", "fp64_fma_add", "fp32_fma_add". */
RL_API const char *rl_peak_kernel_name(int32_t k);

typedef struct rl_peak_set {
  double flops[RL_PK_COUNT];  /* best sample, FLOP/s; 0 = not measured */
  double theory[RL_PK_COUNT]; /* measured clock x FLOP/cycle x cores */
  rl_stats t[RL_PK_COUNT];    /* seconds per repetition */
} rl_peak_set;

#define RL_MEASURE_MAX_WS 64
typedef struct rl_sweep_point {
  double ws;    /* working set of all arrays of all threads, B */
  double bytes; /* counted traffic per repetition, B */
  rl_stats t;   /* seconds per repetition */
  double bw;    /* bytes / t.min, B/s */
  int32_t nt;   /* 1: non-temporal stores */
} rl_sweep_point;

typedef struct rl_sweep {
  int32_t kernel;  /* rl_bw_kernel; -1 = not measured */
  int32_t threads;
  double cache[3]; /* capacity available to these threads, B */
  int32_t n;
  rl_sweep_point p[RL_MEASURE_MAX_WS];
  rl_levels levels; /* filled by rl_measure_analyze */
} rl_sweep;

#define RL_MEASURE_MAX_POINTS 48
typedef struct rl_measure_point {
  char op[16];       /* "sgemm", "dgemm", "add" */
  int32_t dtype;     /* rl_dtype */
  int32_t threads;
  double n;          /* matrix order, or elements */
  double flops, bytes, intensity; /* ideal F, Q (rl_op_cost), F/Q */
  rl_stats t;        /* seconds per call */
  double achieved;   /* flops / t.min, FLOP/s */
  /* filled by rl_measure_analyze: */
  int32_t level;     /* where Q fits, rl_level */
  double peak, bandwidth; /* the measured roofs used: the FMA peak of its
                             format, FLOP/s, and the best bandwidth any
                             kernel (read, copy, triad) reached at its
                             level, B/s */
  double roof;       /* min(peak, bandwidth x intensity), FLOP/s */
  double roof_dram;  /* the classic roof: min(peak, DRAM bandwidth x I) */
  double roof_fraction; /* achieved / roof */
  int32_t bound;     /* rl_bound_kind of the roof */
} rl_measure_point;

/* What to measure (rl_measure_opts.parts) */
#define RL_MEASURE_PEAK 1u
#define RL_MEASURE_READ 2u
#define RL_MEASURE_COPY 4u
#define RL_MEASURE_TRIAD 8u
#define RL_MEASURE_GEMM 16u
#define RL_MEASURE_ADD 32u
#define RL_MEASURE_ALL 63u
/* A comma-separated list of "peak", "read", "copy", "triad", "bandwidth"
 * (the three), "gemm", "add", "all" into RL_MEASURE_* bits; RL_ENOTFOUND
 * naming an unknown kernel. */
RL_API rl_status rl_measure_parts_parse(const char *list, uint32_t *parts,
                                        rl_error *err);

typedef struct rl_measurement {
  rl_cpu_info cpu;
  int32_t threads;     /* "all" */
  uint32_t parts;      /* what was measured */
  int32_t quick;
  double tick_s;       /* clock granularity */
  int32_t repeats;
  rl_peak_set peak, peak_1t;
  rl_sweep sweep[2][3]; /* [0] all threads, [1] one thread; read/copy/triad */
  int32_t n_points;
  rl_measure_point points[RL_MEASURE_MAX_POINTS];
  /* filled by rl_measure_analyze: */
  rl_levels bandwidth, bandwidth_1t; /* the read kernel's levels */
  double spread_median, spread_max;  /* over every timed figure */
  int32_t noisy;       /* 1: spread_median > 5% */
  double wall_s;       /* how long the measurement took */
  /* disturbed samples, RL_DISTURB_* bits (filled by rl_measure_analyze;
   * the bandwidth ones in each all-thread sweep's levels.unreliable) */
  uint32_t peak_unreliable[RL_PK_COUNT], peak_unreliable_1t[RL_PK_COUNT];
  int32_t n_unreliable; /* figures marked unreliable, peaks and levels */
  int32_t retakes;      /* disturbed figures rl_measure took again: peaks
                           and bandwidth points (rl_sweep_retake) */
} rl_measurement;

/* Why a figure is a disturbed sample (0: it is not). RL_DISTURB_BELOW_1T:
 * measured with threads > 1 and below the one-thread figure `one` (> 0);
 * RL_DISTURB_BELOW_HALF: below half its theoretical value `theory` (> 0;
 * pass 0 for a bandwidth). Pure. */
#define RL_DISTURB_BELOW_1T 1u
#define RL_DISTURB_BELOW_HALF 2u
/* ... and from its samples (rl_stats.disturbed): RL_DISTURB_FEW_CLEAN:
 * fewer than 3 samples the scheduler left alone (a thread's CPU time short
 * of the wall time, or the threads' stamps apart); RL_DISTURB_TIMER: the
 * samples so short that the timer's overhead (2 ticks) is above 1% of
 * them (a repetition count calibrated on a disturbed sample). */
#define RL_DISTURB_FEW_CLEAN 4u
#define RL_DISTURB_TIMER 8u
RL_API uint32_t rl_measure_disturbed(double figure, double one,
                                     int32_t threads, double theory);
/* Which points of a bandwidth sweep to take again (pure; rl_measure
 * retakes them, keeping the faster sample): a point more than `tol` below
 * both its neighbours timed with the same stores (nt; a sweep's bandwidth
 * falls as the working set grows and does not dip and recover), and, given the one-thread sweep of the
 * same kernel (`one`, may be NULL), every point that made an all-thread
 * level below that level's one-thread figure (rl_bw_levels of both at the
 * plateau tolerance 0.15, rl_measure_disturbed). Sets retake[i] to 1 or 0
 * for the s->n points and returns how many are 1 (0 for a sweep not
 * measured). */
RL_API int32_t rl_sweep_retake(const rl_sweep *s, const rl_sweep *one,
                               double tol, uint8_t *retake);

/* A progress line; the parameters it names are in backquotes, as in the
 * library's messages (`quick`): rl_msg_spell writes them as a front end
 * spells them. */
typedef void (*rl_progress_fn)(void *user, const char *line);
typedef struct rl_measure_opts {
  int32_t threads;     /* 0 = every CPU the process may run on */
  int32_t quick;       /* fewer working sets and samples; no retakes after
                          5 s (what stays disturbed is marked) */
  uint32_t parts;      /* RL_MEASURE_* bits; 0 = all */
  const double *ws;    /* working sets for the sweep (B, total); NULL =
                          L1/4 .. 8 x LLC, geometric */
  int32_t n_ws;
  rl_clock_fn clock;   /* NULL: rl_clock_monotonic */
  void *clock_user;
  rl_progress_fn progress; /* one line per step; may be NULL */
  void *progress_user;
} rl_measure_opts;

/* Cache capacity available to `threads` threads pinned to consecutive
 * CPUs: each level's size times the instances they cover, B. */
RL_API rl_status rl_cache_capacity(const rl_cpu_info *cpu, int32_t threads,
                                   double cap[3]);
/* The CPU: CPUID, sysfs caches, the measured clock. */
RL_API rl_status rl_cpu_probe(rl_cpu_info *out, rl_clock_fn clock,
                              void *clock_user, rl_error *err);
/* Measure this machine (allocates, pins threads, takes seconds). Checks
 * threads (1..cpus) and working sets (<= physical memory) first. */
RL_API rl_status rl_measure(const rl_measure_opts *opts, rl_measurement *out,
                            rl_error *err);
/* Pure: from the raw timings in m, fill the levels, each point's level,
 * roof and fraction, and the noise summary. rl_measure calls it. */
RL_API rl_status rl_measure_analyze(rl_measurement *m, rl_error *err);
/* JSON of a measurement (keys: cpu, threads, peak, peak_1t,
 * peak_theoretical, bandwidth, bandwidth_1t, sweeps, points, ...), in base
 * units. Returns the length needed. */
RL_API size_t rl_measure_json(const rl_measurement *m, char *buf, size_t cap);
/* sizeof(rl_measurement), for bindings that allocate one without the
 * header (Python's measure()). */
RL_API size_t rl_measurement_sizeof(void);
/* The measured machine as a hardware entry (id "measured-cpu" unless id is
 * given): fp64/fp32/bf16 peaks, DRAM, L1, L2, L3 bandwidth, LLC size. A
 * figure marked unreliable (a disturbed sample, RL_DISTURB_*) is left out
 * (0: unknown) and named in the source after RL_HW_LEFT_OUT; RL_EINVAL
 * when both the FP32 and FP64 peaks, or the DRAM bandwidth, are. */
#define RL_HW_LEFT_OUT "left out (disturbed samples):"
RL_API rl_status rl_measure_to_hw(const rl_measurement *m, const char *id,
                                  rl_hw *out, rl_error *err);
/* 1 when hw is a row rl_measure_to_hw wrote (`roofline measure --save-hw`,
 * read back with --hw-file): its source says "roofline measure". */
RL_API int rl_hw_measured(const rl_hw *hw);

/* ======================================================================
 * Traces: PyTorch/Kineto, Nsight Compute and Nsight Systems readers
 * ====================================================================== */
/*
 * A trace (rl_trace) holds the GPU kernels read from a profiler's file:
 * PyTorch/Kineto Chrome-trace JSON (.json or .json.gz, 2021 to today's
 * categories), Nsight Compute CSV (details or raw page) and Nsight Systems
 * SQLite exports. Each kernel execution keeps its name, the op that
 * launched it (the innermost enclosing CPU op of its launch call, or the
 * NVTX range in an nsys capture), its time, and the FLOPs F and bytes Q of
 * that op (from the op's shapes through rl_op_cost) or of the kernel itself
 * (measured counters). rl_trace_analyze then puts every group of kernels
 * under its roof and ranks the groups by the time still to gain.
 *
 * Memory: names, ops and distinct costs are interned; the trace keeps 40
 * bytes per kernel execution, and while a Kineto file is read 32 bytes per
 * CPU op and per launch call (Kineto writes every CPU op before the GPU
 * activity, so linking needs them); nothing of the text itself
 * (python_function events and every key not needed are skipped as they
 * stream past).
 */
typedef struct rl_trace rl_trace;

typedef enum rl_trace_format {
  RL_TRACE_AUTO = 0,   /* by content: '{' or '[' JSON, SQLite magic, CSV */
  RL_TRACE_KINETO = 1, /* PyTorch profiler Chrome trace, plain or gzip */
  RL_TRACE_NCU = 2,    /* Nsight Compute --csv (details or raw page) */
  RL_TRACE_NSYS = 3    /* Nsight Systems export --type sqlite */
} rl_trace_format;

/* A kernel's or op's name as tables and charts show it (the CLI's, the
 * page's): a demangled signature without "void ", its template arguments
 * and its parameters (or ROCm's " [clone .kd]"); "(anonymous namespace)",
 * "<unnamed>" and "{anonymous}" kept as the namespaces they are:
 *   "void at::native::(anonymous namespace)::max_pool_backward_nchw<c10::BFloat16,
 *    float>(c10::BFloat16 const*, ...)" -> "at::native::(anonymous
 *    namespace)::max_pool_backward_nchw" ("...nchw<>" with
 *    RL_NAME_MARK_TEMPLATES),
 *   "aten::mm", "nccl:all_reduce", "CompiledFunction" as they are,
 *   "Memcpy DtoD (Device -> Device)" -> "Memcpy DtoD";
 *   a name left mangled ("_ZN2ck16tensor_operation6device37kernel_batched_
 *   gemm_xdlops_bwd_weightINS_47..."), by its Itanium C++ ABI nested name:
 *   "ck::tensor_operation::device::kernel_batched_gemm_xdlops_bwd_weight<>",
 *   a class template's member read past the class's template arguments
 *   ("_ZNSt6vectorIiE9push_backERKi" -> "std::vector<>::push_back");
 * with RL_NAME_LAST only the last name after the namespaces
 * ("max_pool_backward_nchw"; one shorter than 8 characters keeps its
 * namespace: "aten::mm"). The whole name when nothing else is left
 * ("<built-in method ...>"). Into out (cap bytes): when it does not fit,
 * without its anonymous namespaces if that is shorter, then cut with
 * "..." at the end. Returns the length of the name shown, uncut (without
 * the NUL). Pure: no I/O, NULL is "". */
#define RL_NAME_MARK_TEMPLATES 1 /* "<>" where the template arguments were */
#define RL_NAME_LAST 2           /* the last name only, for chart labels */
RL_API size_t rl_kernel_display_name(const char *name, char *out, size_t cap, int32_t flags);

/* "auto", "kineto", "ncu", "nsys"; NULL if unknown. */
RL_API const char *rl_trace_format_name(int32_t format);
/* Those names and "pytorch" (= kineto), ASCII case ignored; RL_EINVAL
 * "'x' is not kineto, ncu or nsys" otherwise. */
RL_API rl_status rl_trace_format_parse(const char *name, int32_t *format,
                                       rl_error *err);

/* A new, empty trace. launch_overhead_s: kernels shorter than this count
 * as overhead (< 0: RL_DEFAULT_LAUNCH_OVERHEAD_S). Allocates: release
 * with rl_trace_free. NULL when out of memory. */
RL_API rl_trace *rl_trace_new(double launch_overhead_s);
RL_API void rl_trace_free(rl_trace *t);

/* Read a profiler file into t (I/O: this is the one trace function that
 * opens files). A gzip file is inflated as it streams. Bad input is
 * RL_EPARSE / RL_ETRUNCATED / RL_EIO with err naming the file, the byte
 * offset (of the inflated text for .gz) or the line, and what is wrong. */
RL_API rl_status rl_trace_read_file(rl_trace *t, const char *path,
                                    int32_t format, rl_error *err);

/* The same from memory (len bytes, plain text or gzip for Kineto). `label`
 * names the input in messages. */
RL_API rl_status rl_trace_read_buffer(rl_trace *t, const void *data,
                                      size_t len, int32_t format,
                                      const char *label, rl_error *err);

/* Read the CUDA-graph captures of a Kineto file (a capture profiled
 * apart from its replays, as vLLM and SGLang capture at start-up) into t,
 * before the run is read into it with rl_trace_read_file: the replays'
 * kernels (cudaGraphLaunch, hipGraphLaunch) then take the ops of their
 * capture's launches, matched by kernel name in order
 * (src/core/trace_graph.c). No kernel of the capture file is added.
 * RL_EPARSE when the file holds no capture; the run's read fails when its
 * graphs are launched by another process than the captures were made by
 * (a capture file of another run) or when it launches no graph. */
RL_API rl_status rl_trace_read_capture(rl_trace *t, const char *path, rl_error *err);

/* Name the model the trace ran, before reading it (NULL: none). The MoE
 * ops whose recorded arguments are the hidden states and the router's
 * logits alone (vLLM's moe_forward, moe_forward_shared) then take their
 * experts' FLOPs and bytes from its d_model, d_ff, experts and
 * experts_active (src/core/trace_custom.c states the formula); without
 * it they stay uncovered. RL_EINVAL for a dense model (no experts) or one
 * rl_model_check refuses. The read then fails (RL_EINVAL) when an MoE op's
 * logits name another expert count, or its hidden states are narrower
 * than d_model: the model is not the trace's. The model is copied. */
RL_API rl_status rl_trace_set_model(rl_trace *t, const rl_model *m, rl_error *err);

typedef struct rl_trace_info {
  char format[16];             /* "kineto", "ncu", "nsys" */
  char device[RL_HW_TEXT_MAX]; /* the device as the file names it; "" */
  double device_mem_bytes;     /* its memory per the file; 0 unknown */
  int32_t cc_major, cc_minor;  /* compute capability; 0 unknown */
  int32_t has_time;            /* 0: the file gives no kernel times */
  int64_t kernels;             /* kernel executions */
  int64_t unlinked;            /* kernels whose launching op is unknown */
  int64_t events;              /* events (rows) read */
  int32_t cpu;                 /* 1: the kernels are the CPU ops of a
                                  PyTorch profile (rl_trace_set_cpu) */
  int32_t threads;             /* CPU: the intra-op threads the ops ran
                                  with (the file's intra_op_threads, or
                                  rl_trace_set_threads); 0 unknown */
  char cpu_model[80];          /* CPU: the processor the file names; "" */
  int64_t graph_matched;       /* kernels of CUDA-graph replays given the op
                                  of their capture's launch (Kineto) */
  int64_t graph_unmatched;     /* kernels of replays not matched to a capture */
  int64_t graph_unreplayed;    /* launches of the captures of matched replays
                                  that have no kernel in the replay (its last
                                  records missing from the trace) */
  char model[RL_MODEL_ID_MAX]; /* the model rl_trace_set_model named; "" */
} rl_trace_info;

/* Analyse the CPU ops of a PyTorch (Kineto) trace even when it holds GPU
 * kernels (cpu = 1; before reading). A trace with CPU ops and no GPU
 * kernels is analysed so anyway. */
RL_API void rl_trace_set_cpu(rl_trace *t, int32_t cpu);
/* The intra-op threads a CPU trace's ops ran with, over what the file says
 * (n >= 1); the hardware row must have been measured with as many. */
RL_API void rl_trace_set_threads(rl_trace *t, int32_t n);
/* Of `n` hardware rows, the one `roofline measure --save-hw` wrote for this
 * CPU trace: measured (rl_hw_measured) with the trace's thread count, on
 * the processor it names (when it names one). RL_ENOTFOUND naming what the
 * rows hold otherwise. */
RL_API rl_status rl_trace_measured_hw(const rl_trace *t, const rl_hw *rows, int32_t n,
                                      rl_hw *out, rl_error *err);
/* The thread count a measured row says it was measured with ("(measured,
 * N threads)" in its name), 0 when it says none. */
RL_API int32_t rl_hw_measured_threads(const rl_hw *hw);

RL_API rl_status rl_trace_get_info(const rl_trace *t, rl_trace_info *out);

/* The database device for the one the trace names ("NVIDIA A100-SXM4-80GB"
 * -> nvidia-a100-sxm4-80gb; an A100 without a form factor in its name by its
 * memory). RL_ENOTFOUND when the trace names none or an unknown one. */
RL_API rl_status rl_trace_hw(const rl_trace *t, rl_hw *out, rl_error *err);

/* Grouping of rl_trace_rows */
typedef enum rl_trace_group {
  RL_TRACE_BY_KERNEL = 0, /* kernel name and launching op */
  RL_TRACE_BY_OP = 1      /* launching op only */
} rl_trace_group;

typedef struct rl_trace_row {
  const char *name;    /* kernel name (BY_OP: the op); owned by the trace */
  const char *op;      /* launching op, "" when unknown */
  const char *why;     /* why F and Q (or the time) are unknown, else NULL */
  int64_t count;       /* executions (BY_OP: calls of the op) */
  int64_t kernels;     /* kernel executions in the row */
  int32_t has_cost;    /* 1: flops, bytes, bound... are known */
  int32_t has_time;    /* 1: time_s is known */
  int32_t measured;    /* 1: F and Q from hardware counters */
  int32_t bound;       /* rl_bound_kind, -1 unknown */
  int32_t peak_kind;   /* rl_peak of the roof used, -1 unknown */
  double time_s;       /* sum of kernel durations */
  double flops, bytes; /* F, Q (sum over executions) */
  double intensity;    /* F/Q, FLOP/B */
  double bound_time_s; /* sum over executions of max(F/peak, Q/bw) */
  double roof_fraction;/* bound_time_s / time_s */
  double at_roof_s;    /* sum over executions of max(bound time, floor):
                          no kernel runs faster than the summary's floor_s */
  double gain_s;       /* max(0, time_s - at_roof_s); 0 when overhead-bound
                          (see rl_trace_fusions instead) */
  int32_t dtype;       /* rl_dtype of F (its roof), -1 unknown or none */
  int32_t roof;        /* rl_trace_roof the row is measured against */
  const char *family;  /* kernel family from the name ("GEMM library",
                          "Triton pointwise", "NCCL", ...); never NULL */
  int32_t reason;      /* rl_trace_reason when F and Q are unknown, else -1 */
  /* Nsight Compute only (one row per launch): the hierarchical roofline
   * (each level's bytes against its roof), speed of light, occupancy.
   * Bytes and intensities < 0 and roofs 0 where not known. */
  int64_t launch_id;   /* the launch's ID; -1 for other formats */
  double l1_bytes, l2_bytes, dram_bytes;  /* l1tex__t, lts__t, dram__bytes */
  double l1_intensity, l2_intensity, dram_intensity; /* F / bytes, FLOP/B */
  double l1_bw, l2_bw, dram_bw;  /* the roofs used, B/s */
  double compute_peak;           /* the flat roof used, FLOP/s */
  int32_t binding_level;  /* rl_level (L1, L2 or DRAM) whose roof is lowest
                             at its intensity; -1 */
  int32_t sol_disagree;   /* 1: ncu's speed of light and our fractions
                             differ by more than 20 points */
  double binding_fraction;  /* max(F/peak, bytes/bw of each level) / time */
  double compute_fraction;  /* ours: (F / peak) / time */
  double memory_fraction;   /* ours: max over levels of (bytes / bw) / time */
  double sol_compute, sol_memory; /* ncu's sm__throughput and gpu__compute_
                             memory_throughput, fractions of peak; < 0 */
  double occupancy_theoretical, occupancy_achieved; /* fractions; < 0 */
  double waves;           /* waves per SM; < 0 */
  int32_t tail;           /* 1: less than one full wave (idle SMs) */
  int32_t pad_;
  const char *flops_source; /* how F was counted; NULL */
  const char *note;         /* what the hierarchical figures lack (ncu);
                               how F and Q were found when not plainly (an
                               output size inferred from the backward op);
                               NULL */
  int32_t peak_from_kernel; /* 1: peak_kind is the format the kernel's name
                               says its tensor cores ran (TF32 for an fp32
                               op's cuBLAS/cuDNN TF32 kernel, fp8, int8,
                               fp4), not the op's dtype */
  int32_t lower_bound;      /* RL_TRACE_LOWER_* bits: BYTES, bytes (and so
                               the time at the roof) a lower bound: the
                               roof fraction at least and the gain at most
                               what is given (a Triton launch, a compiled
                               region); NOFLOPS, FLOPs not counted (flops
                               is 0 for them) */
  int32_t level;            /* CPU traces: the rl_level (L1, L2, L3,
                               DRAM) whose roof bounds the row's bytes: the
                               one its working set fits in (the slowest of
                               its executions'); -1 for GPU rows */
  double working_set;       /* CPU traces: the bytes one execution touches
                               (the largest of the row's), B; < 0 */
} rl_trace_row;

/* rl_trace_row.lower_bound */
enum { RL_TRACE_LOWER_BYTES = 1, RL_TRACE_LOWER_NOFLOPS = 2 };

/* The roof a row is measured against. */
typedef enum rl_trace_roof {
  RL_TRACE_ROOF_CHIP = 0, /* peak of its format, memory bandwidth */
  RL_TRACE_ROOF_NET = 1,  /* collectives: busbw against the scale-up link
                             (interconnect_bw / 2, one direction) */
  RL_TRACE_ROOF_HBM = 2,  /* memcpy DtoD, memset: memory bandwidth */
  RL_TRACE_ROOF_HOST = 3, /* memcpy HtoD, DtoH: the host link */
  RL_TRACE_ROOF_L2 = 4    /* a chip or memory row faster than its DRAM
                             roof that the L2 explains (cache-resident:
                             the tensor the kernel before wrote): its
                             format's peak, every byte at the L2
                             bandwidth and what the L2 cannot hold at a
                             run's start and end at DRAM's */
} rl_trace_roof;
RL_API const char *rl_trace_roof_name(int32_t roof);

/* Why GPU time has no F and Q (the uncovered list of the coverage). */
typedef enum rl_trace_reason {
  RL_REASON_NO_SHAPES = 0,   /* its op was recorded without shapes */
  RL_REASON_COMPILED = 1,    /* a compiled region (torch.compile, Triton) */
  RL_REASON_NO_MODEL = 2,    /* no cost model for its op */
  RL_REASON_PRE_WINDOW = 3,  /* launched before the profiling window */
  RL_REASON_NO_OP = 4,       /* its launch is inside no CPU op */
  RL_REASON_COLL_NO_SIZE = 5,/* a collective whose size was not recorded */
  RL_REASON_NO_ROOF = 6,     /* no peak or link figure for it */
  RL_REASON_SHAPES = 7,      /* shapes the model cannot use */
  RL_REASON_OTHER = 8,       /* counters without bytes, no time, ... */
  RL_REASON_LISTS = 9,       /* tensor lists (cat, _foreach_, fused
                                optimizers): their sizes (or element
                                type) not recorded */
  RL_REASON_TIMES_ONLY = 10, /* the profiler times kernels and counts
                                nothing (Nsight Systems) */
  RL_REASON_REFUTED = 11,    /* bytes counted from below (a compiled region,
                                a Triton launch, a custom op, a
                                multi-tensor-apply kernel) that the run
                                refuted: it took less time than they allow
                                even from the L2 */
  RL_REASON_COUNT = 12
} rl_trace_reason;
RL_API const char *rl_trace_reason_name(int32_t reason);

typedef struct rl_trace_uncovered {
  int32_t reason;          /* rl_trace_reason */
  double time_s;           /* GPU time without F and Q for it */
} rl_trace_uncovered;

typedef struct rl_trace_summary {
  int64_t kernels;        /* executions */
  double gpu_time_s;      /* sum of kernel durations */
  double span_s;          /* first kernel start to last kernel end */
  double busy_s;          /* union of the kernel intervals of all devices
                             (some GPU busy); never above span_s */
  double idle_s;          /* span - busy (no GPU busy) */
  double busy_share;      /* busy / span */
  double compute_s;       /* kernel time in compute-bound kernels */
  double memory_s;        /* kernel time in memory-bound kernels */
  double overhead_s;      /* short or overhead-bound kernels (idle time is
                             idle_s, apart: rl_trace_get_idle) */
  double short_s;         /* of which kernels shorter than the overhead */
  double unknown_s;       /* kernel time with no F and Q */
  double gain_s;          /* sum of the kernel rows' gains */
  double fusion_s;        /* sum of the fusion candidates' savings */
  double launch_overhead_s;
  double floor_s;         /* the least time a kernel takes at its roof: the
                             launch overhead, lowered to the shortest kernel
                             the file times (so no row's time at its roof
                             exceeds its measured time unless it is above
                             its roof) */
  const char *floor_source; /* where floor_s comes from (static text) */
  int32_t has_time;       /* 0: the file gives no kernel times */
  int32_t has_span;       /* 0: no timeline (ncu): span, busy, idle unknown */
  /* coverage: the GPU time under a roof (kernels, copies, collectives) */
  double covered_s;       /* GPU time with F and Q (or bytes) and a roof */
  double coverage;        /* covered_s / gpu_time_s, 0..1 */
  int32_t n_uncovered;    /* entries of uncovered[], largest first */
  rl_trace_uncovered uncovered[RL_REASON_COUNT];
  int32_t no_shapes;      /* 1: the ops were recorded without shapes */
  int64_t copies;         /* memcpy and memset executions (in gpu_time_s) */
  double copy_s;          /* their time */
  int64_t collectives;    /* collective (NCCL) kernel executions */
  double collective_s;    /* their time */
  double network_s;       /* collective time at or above the overhead
                             (its regime: the interconnect) */
  /* the timeline's repairs (not with ncu: no timeline) */
  int32_t devices;        /* distinct devices among the timed kernels */
  int64_t duplicates;     /* events given twice (same device, stream, name,
                             start and duration): dropped from every figure */
  double duplicate_s;     /* their time */
  int64_t overlapping;    /* kernels starting over 1 ns before the previous
                             ones of their stream end (a clock problem):
                             merged in busy_s, kept in gpu_time_s */
  double overlap_s;       /* the time they overlap */
  int64_t ends_before_start; /* kernels ending before they start: dropped */
  double overhead_cut_s;  /* kernels (or bounds) shorter than this are
                             overhead-bound: the launch overhead (ncu: the
                             floor) */
  int64_t zero_duration;  /* kernels the file gives a duration under 1 ps
                             (0: a timer's rounding; below the time range,
                             rl_range_get(RL_QTY_TIME)): no time, left out
                             of every time figure and roof % */
} rl_trace_summary;

/* One collective (kind, message size, group size) of the last analysis,
 * by nccl-tests' conventions (doc/PERFORMANCE.md): algbw = S / t, busbw =
 * algbw x factor (all-reduce 2(n-1)/n; all-gather, reduce-scatter,
 * all-to-all (n-1)/n; broadcast, reduce, send/recv 1), against the link
 * bandwidth (the device's interconnect, one direction). */
typedef struct rl_trace_coll {
  const char *name;       /* "allreduce", "allgather", ...; owned */
  const char *dtype;      /* element type as recorded; "" unknown */
  int32_t ranks;          /* group size n */
  int32_t ranks_guess;    /* 1: n is the job's world size (not recorded) */
  int64_t count;          /* kernel executions */
  double msg_bytes;       /* S of one call */
  double time_s;          /* sum of kernel durations */
  double algbw;           /* count x S / time_s, B/s */
  double busbw;           /* algbw x factor, B/s */
  double link_bw;         /* the roof, B/s (0: unknown) */
  double roof_fraction;   /* busbw / link_bw */
  double gain_s;          /* max(0, time_s - count x max(bound time of
                             one call, the floor)) */
} rl_trace_coll;

/* The collectives of the last analysis, by time; valid until the next
 * analysis or free. */
RL_API const rl_trace_coll *rl_trace_colls(const rl_trace *t, int32_t *n);

/* The GPU's idle time, the headline when large. Time when no GPU of the
 * trace runs a kernel or copy is not tuned by any kernel's roof: the host
 * did not launch work fast enough (Python, data loading, a synchronising
 * call). When it is at least RL_TRACE_IDLE_HEADLINE of the span (one fifth:
 * more than the gain of any one kernel row usually is), the report opens
 * with it. The biggest gaps (the intervals between the union of the GPU
 * events; largest first), each with the host ops that ran during it: the
 * outermost op on its CPU thread (a profiler step's annotation and an
 * nn.Module frame are not ops), by their time inside the gap, summed over
 * the op's calls. Times are from the span's start (the first GPU event). */
#define RL_TRACE_IDLE_HEADLINE 0.20
#define RL_TRACE_GAPS 5
#define RL_TRACE_GAP_OPS 3
typedef struct rl_trace_gap_op {
  const char *name; /* the host op; owned by the trace */
  double overlap_s; /* its calls' time inside the gap */
} rl_trace_gap_op;
typedef struct rl_trace_gap {
  double start_s;  /* from the span's start */
  double length_s;
  int32_t nops;
  rl_trace_gap_op ops[RL_TRACE_GAP_OPS];
} rl_trace_gap;
typedef struct rl_trace_idle {
  double share;     /* idle_s / span_s; NaN without a span */
  int32_t headline; /* share >= RL_TRACE_IDLE_HEADLINE */
  int32_t host_ops; /* 1: the file records host ops (Kineto's cpu_op) */
  int32_t ngaps;
  rl_trace_gap gaps[RL_TRACE_GAPS];
} rl_trace_idle;

/* The idle time of the last analysis; valid until the next analysis or
 * free. NULL before any analysis. */
RL_API const rl_trace_idle *rl_trace_get_idle(const rl_trace *t);

/* A fusion candidate: runs of two or more consecutive small kernels (each
 * overhead-bound or shorter than the floor) of one nn.Module where the
 * trace records them (the innermost module around the launching op), else
 * of one op (the kernel's name when no op is known), in start order per
 * device (ncu: launch order).
 * Fusing a run into one kernel, or replaying it as a CUDA graph, leaves at
 * least one floor: saving = its time - one floor per run. */
typedef struct rl_trace_fusion {
  const char *name;    /* the module, the op, or the kernel name; owned
                          by the trace */
  int32_t by_op;       /* 2: name is an nn.Module ("nn.Module: X", where
                          the trace records them: with_stack=True); 1: an
                          op; 0: a kernel name */
  int64_t runs;        /* runs found */
  int64_t kernels;     /* kernels in them */
  double time_s;       /* their time */
  double saving_s;     /* time_s - runs x floor_s */
} rl_trace_fusion;

/* Place every kernel under the roof of `hw` (its peak for each kernel's
 * format; tensor peak for matmul-like ops) and rank the groups by gain.
 * Rows without F and Q follow, by time. Replaces any earlier analysis.
 * The floor: no kernel takes less than floor_s, the launch overhead of
 * rl_trace_new on a timeline (Kineto, nsys); for Nsight Compute, which
 * times each kernel alone (gpu__time_duration: no launch call, but the
 * front end's set-up, the ramp of the first blocks and the drain of the
 * last), the shortest launch in the export, at most that overhead, unless
 * one was given to rl_trace_new. A kernel whose bound time is below the
 * floor is overhead-bound: no gain of its own, only as part of a fusion
 * candidate. */
RL_API rl_status rl_trace_analyze(rl_trace *t, const rl_hw *hw,
                                  rl_trace_summary *out, rl_error *err);

/* The rows of the last analysis; valid until the next analysis or free. */
RL_API const rl_trace_row *rl_trace_rows(const rl_trace *t, int32_t group,
                                         int32_t *n);

/* The fusion candidates of the last analysis, by saving; valid until the
 * next analysis or free. */
RL_API const rl_trace_fusion *rl_trace_fusions(const rl_trace *t, int32_t *n);

/* The analysis as JSON: {"format","device","hw","kernels","gpu_time_s",
 * "span_s","idle_s","busy_s","busy_share","compute_s","memory_s",
 * "overhead_s","short_s","unknown_s","gain_s","fusion_s","launch_overhead_s",
 * "floor_s","floor_source","covered_s","coverage","uncovered":[{"reason",
 * "measured_s"}],...,"unlinked","rows_total","rows":[...],"ops_total",
 * "ops":[...],"collectives_total","collectives":[{...,"measured_s",...}],
 * "fusion_total","fusion":[...]}; each row {"name","op","count","kernels",
 * "measured_s" (the kernels' measured time, the row's time_s field),
 * "flops","bytes","intensity","bound","peak_kind","time_s" (the roofline
 * bound: bound_time_s),"roof_fraction","at_roof_s","gain_s","measured"};
 * each fusion candidate {"name","by" ("op" or "kernel"),"runs","kernels",
 * "measured_s","saving_s"}
 * and "why" where F and Q are unknown (null then stands for them). top > 0
 * keeps the first top rows of each list. Returns the length needed, as
 * snprintf does. */
RL_API size_t rl_trace_json(const rl_trace *t, const rl_hw *hw,
                            const rl_trace_summary *s, int32_t top,
                            char *buf, size_t cap);

/* ======================================================================
 * Jobs: the traces of every rank of a distributed run
 * ====================================================================== */
/*
 * A job (rl_job) holds one small summary per rank trace (Kineto JSON): the
 * single-trace roofline figures, and the timeline figures of Holistic
 * Trace Analysis (HTA, github.com/facebookresearch/HolisticTraceAnalysis,
 * hta/analyzers/breakdown_analysis.py and communication_analysis.py):
 *   GPU events  every event with an args "stream" (kernels, memcpy,
 *               memset, synchronisation); span = last end - first start
 *   idle        span - union of the GPU events
 *   compute     union of the computation kernels (not NCCL/hccl, not
 *               Memcpy/Memset/dma, not *Sync*, ...: HTA's name patterns)
 *   non-compute span - compute - idle
 *   overlap     |union(compute) n union(communication)| / |union(comm)|
 *   idle kinds  per stream, the gap before each kernel: host wait when
 *               its launch call started after the previous kernel ended,
 *               kernel wait when the gap is under 30 us, else other
 * By default every event of the file counts and gaps are not negative;
 * with hta = 1 the figures are HTA's own: the last ProfilerStep and the
 * GPU events not launched before it are dropped (when the file has two
 * steps or more), fractional microseconds are rounded inward (start up,
 * end down) and overlapping kernels give negative gaps as in HTA.
 *
 * Across ranks: collectives are matched by their order on their process
 * group (or stream); for each, the rank that started it last is the one
 * the others waited for (wait = its start - theirs, at most their kernel
 * time). When the files' clocks differ (baseTimeNanoseconds), the ranks
 * are aligned on the end of their first collective.
 *
 * rl_job_read does I/O (one file); everything else is pure. Summaries
 * travel between processes as bytes (rl_job_pack / rl_job_unpack, same
 * build on every node).
 */
typedef struct rl_job rl_job;

typedef struct rl_job_opts {
  double launch_overhead_s; /* < 0: RL_DEFAULT_LAUNCH_OVERHEAD_S */
  const rl_hw *hw;          /* device for every rank; NULL: each file's */
  int32_t hta;              /* 1: HTA's event set and rounding */
  double kernel_wait_s;     /* idle gaps shorter: kernel wait (30 us) */
  int32_t top;              /* kernels in the duration spread (10) */
  const rl_model *model;    /* the model every rank ran (rl_trace_set_model:
                               its MoE ops' experts); NULL: none. Not
                               copied: it must outlive the job */
} rl_job_opts;

RL_API rl_job_opts rl_job_opts_init(void);

/* A job of n files (slots 0..n-1). NULL when out of memory. */
RL_API rl_job *rl_job_new(const rl_job_opts *o, int32_t n);
RL_API void rl_job_free(rl_job *j);

/* Read and summarise file `path` into slot i (I/O). Distinct slots may be
 * read by distinct threads at once. A file that cannot be read or parsed
 * leaves its slot with the error (rl_job_rank.status, .error) and returns
 * it; the job goes on without it. */
RL_API rl_status rl_job_read(rl_job *j, int32_t i, const char *path,
                             rl_error *err);

/* The same for a file's bytes in memory (plain JSON: inflate gzip first),
 * named `name` in the ranks' records and messages. Pure: no I/O. */
RL_API rl_status rl_job_read_buffer(rl_job *j, int32_t i, const char *name,
                                    const void *data, size_t len,
                                    rl_error *err);

/* Read every file on `threads` worker threads (this thread is one of
 * them), the largest files first; returns the number that failed. */
RL_API int32_t rl_job_read_all(rl_job *j, const char *const *paths,
                               int32_t n, int32_t threads);
/* The same for the files paths[idx[0..n-1]], in that order. */
RL_API int32_t rl_job_read_list(rl_job *j, const char *const *paths,
                                const int32_t *idx, int32_t n, int32_t threads);
/* The indexes of paths, largest file first (file order among equals). */
RL_API int32_t rl_job_order_by_size(const char *const *paths, int32_t n,
                                    int32_t *order);
/* A rank's CUDA-graph capture file by the naming rule of a folder job:
 * RUN.capture.json.gz (or .json) beside RUN.json(.gz). 1 with its path in
 * out (cap bytes) when that file exists, else 0. rl_job_find_files leaves
 * such files out of a folder's ranks; rl_job_read reads each into its
 * rank's trace first (rl_trace_read_capture). */
RL_API int rl_job_capture_of(const char *path, char *out, size_t cap);

/* The trace files of the arguments: a folder's *.json and *.json.gz files
 * (natural name order; its other entries into *skipped), files as given,
 * and patterns (glob(3)) the shell left unexpanded. Release both lists
 * with rl_job_free_list. RL_EIO when nothing is found. */
RL_API rl_status rl_job_find_files(const char *const *args, int32_t nargs,
                                   char ***paths, int32_t *np,
                                   char ***skipped, int32_t *nskipped,
                                   rl_error *err);
RL_API void rl_job_free_list(char **v, int32_t n);

/* Slot i's summary as bytes (snprintf-style: returns the length needed)
 * and back. */
RL_API size_t rl_job_pack(const rl_job *j, int32_t i, void *buf, size_t cap);
RL_API rl_status rl_job_unpack(rl_job *j, int32_t i, const void *buf,
                               size_t len, rl_error *err);

/* The cross-rank analysis, once every slot is read or unpacked. */
RL_API rl_status rl_job_finish(rl_job *j, rl_error *err);

typedef struct rl_job_rank {
  char file[512];
  int32_t status;          /* rl_status of its read; 0 ok */
  int32_t not_trace;       /* 1: not a Kineto trace: skipped, said in a note */
  char error[256];         /* the error, when status != 0 */
  int32_t rank;            /* from distributedInfo, else the file order */
  int32_t world_size;      /* from distributedInfo; 0 unknown */
  int32_t has_dist;        /* 1: the file has distributedInfo */
  int32_t duplicate;       /* 1: another file has this rank (left out) */
  int32_t step_first, step_last, steps; /* ProfilerStep#N; steps 0 none */
  char device[RL_HW_TEXT_MAX];
  char hw_id[RL_HW_ID_MAX];
  int32_t has_roofline;    /* 0: no device for the roofline figures */
  rl_trace_summary roof;   /* the single-trace figures */
  double events;           /* GPU events (HTA's set) */
  double span_s, idle_s, compute_s, non_compute_s;
  double idle_share, compute_share, non_compute_share; /* of the span */
  double comm_s;           /* union of the communication kernels */
  double overlap;          /* NaN without communication */
  /* the rank's idle time (span - union of its GPU events) by kind: the
   * gap's next event launched after the GPU went idle (host wait), a gap
   * under kernel_wait_s, other; they sum to idle_s */
  double idle_host_wait_s, idle_kernel_wait_s, idle_other_s;
  /* HTA's idle-time breakdown: per stream, summed over the streams (a
   * moment counts once per idle stream: it can exceed the span) */
  double stream_idle_host_wait_s, stream_idle_kernel_wait_s, stream_idle_other_s;
  double coll_time_s;      /* sum of the collective kernels' durations */
  int32_t collectives;     /* collective kernels */
  double base_ns;          /* baseTimeNanoseconds; 0 none */
  double clock_offset_s;   /* subtracted to align it; 0 none */
  double others_waited_s;  /* the other ranks' wait for this one */
  int32_t last_in;         /* collectives it started last */
  double waited_s;         /* its own wait for others */
  int64_t graph_matched;   /* kernels of CUDA-graph replays given the op of
                              their captured launch (rl_trace_info) */
  int64_t graph_unmatched; /* kernels of replays not matched to a capture */
  int64_t graph_unreplayed; /* captured launches with no kernel in their
                               matched replay (rl_trace_info) */
} rl_job_rank;

typedef struct rl_job_totals {
  int32_t files, ranks, failed, world_size;
  double gpu_time_s, span_s, idle_s, compute_s, non_compute_s, comm_s;
  double idle_share, compute_share, non_compute_share, overlap;
  int32_t matched;           /* collectives matched on every rank */
  double coll_bytes;         /* sum of factor x S over them; 0 unknown */
  double coll_time_s;        /* their mean duration over ranks, summed */
  double coll_time_nowait_s; /* the last-arriving rank's, summed */
  double busbw, busbw_nowait;/* B/s; 0 unknown (no message sizes) */
  double waited_s;           /* all ranks' wait for the last one */
  int32_t aligned;           /* 1: clocks aligned on the first collective */
} rl_job_totals;

typedef struct rl_job_straggler {
  int32_t rank;
  double others_waited_s;
  int32_t collectives;       /* matched collectives it started last */
} rl_job_straggler;

/* The matched collectives of one kind on one process group: their busbw
 * (nccl-tests' factors) with the wait, from the ranks' mean kernel time,
 * and without it, from the last-arriving rank's. A slow rank shows as a
 * gap between the two (and one rank last in most); a slow link as both low
 * against the link, with no gap. */
typedef struct rl_job_coll {
  char group[64];            /* "group NAME" (Process Group Name), else
                                "stream N" */
  const char *kind;          /* "allreduce", "allgather", ...; static */
  int32_t ranks;             /* group size n (recorded, else the ranks
                                that ran them) */
  int32_t count;             /* collectives matched */
  double bytes;              /* sum of S (message sizes); 0 unknown */
  double time_s;             /* the ranks' mean kernel time, summed */
  double time_nowait_s;      /* the last rank's kernel time, summed */
  double waited_s;           /* the other ranks' wait in them */
  double busbw, busbw_nowait;/* B/s; 0 unknown (no message sizes) */
  double link_bw;            /* the device's link, one direction, B/s;
                                0 unknown */
  int32_t last_rank;         /* the rank that started them last most often */
  int32_t last_count;        /* ... in that many of count */
  /* the transfer (time_nowait_s, no rank waiting) at the link's roof:
   * sum of factor x S / link_bw; and its gain, time_nowait_s - at_roof_s
   * (>= 0): what a faster transfer could save, the wait left out. NaN
   * unknown (no sizes, no link figure) */
  double at_roof_s, gain_s;
} rl_job_coll;

typedef struct rl_job_spread {
  const char *name;          /* kernel name; owned by the job */
  double total_s;            /* over every rank */
  double min_s, median_s, max_s; /* per rank */
  int32_t min_rank, max_rank;
  int32_t ranks;             /* ranks that ran it */
} rl_job_spread;

RL_API const rl_job_rank *rl_job_ranks(const rl_job *j, int32_t *n);
RL_API const rl_job_totals *rl_job_get_totals(const rl_job *j);
/* The files that could not be read (file, status, error), in file order. */
RL_API const rl_job_rank *rl_job_failures(const rl_job *j, int32_t *n);
RL_API const rl_job_straggler *rl_job_stragglers(const rl_job *j, int32_t *n);
RL_API const rl_job_spread *rl_job_spreads(const rl_job *j, int32_t *n);
/* The matched collectives by process group and kind, largest time first. */
RL_API const rl_job_coll *rl_job_colls(const rl_job *j, int32_t *n);
/* The findings about the input, one line each (world sizes that disagree,
 * duplicate or missing ranks, different steps, clock offsets). */
RL_API const char *rl_job_note(const rl_job *j, int32_t i);
RL_API int32_t rl_job_notes(const rl_job *j);

/* The job as JSON: {"hta","job":{totals},"ranks":[{"rank","file",
 * single-trace keys, "idle_share","compute_share","non_compute_share",
 * "overlap",...}],"stragglers":[{"rank","others_waited_s","collectives"}],
 * "overlap":[per rank],"spread":[...],"collectives":[{"group","kind",
 * "ranks","count","bytes","measured_s","no_wait_s","waited_s",
 * "busbw","busbw_no_wait","link_bw","last_rank","last_in"}],
 * "failed":[{"file","error"}],"notes":[...]}. snprintf-style. */
RL_API size_t rl_job_json(const rl_job *j, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* ROOFLINE_H */
