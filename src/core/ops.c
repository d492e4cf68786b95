/*
 * ops.c -- the op cost model: FLOPs F and ideal memory traffic Q of each
 * operation of a Transformer (and a few more that traces contain).
 *
 * Ideal traffic counts each input read once and each output written once,
 * what a well-written kernel achieves (NVIDIA, "GPU Performance Background
 * User's Guide", arithmetic intensity). s is bytes per element (rl_dtype_bytes).
 * A multiply-add counts as 2 FLOPs; exp, tanh, erf, rsqrt count as one
 * FLOP each (a common convention for transcendentals; stated so that the
 * count can be checked).
 *
 *   add, sub, mul, div   F = n            Q = 3ns        (NVIDIA guide, elementwise)
 *   relu                 F = n            Q = 2ns
 *   gelu (tanh form)     F = 9n: x^3 (2), *0.044715, +x, *sqrt(2/pi), tanh,
 *                        +1, *x, *0.5     Q = 2ns        (tanh form of Hendrycks & Gimpel 2016)
 *   gelu (erf form)      F = 5n: /sqrt2, erf, +1, *x, *0.5
 *   silu                 F = 4n: neg, exp, +1, divide
 *   softmax (m rows x n) F = 5mn: max, subtract, exp, sum, divide
 *                        Q = 2mns
 *   layernorm            F = 8mn: mean 1, variance 3, normalize 2, affine 2
 *                        Q = 2mns + 2ns (gamma, beta read once) (Ba et al. 2016)
 *   rmsnorm              F = 4mn: square, sum, scale, gain
 *                        Q = 2mns + ns (gain read once)  (Zhang & Sennrich 2019)
 *   matmul (m x k)(k x n), b batches
 *                        F = 2bmnk        Q = b(s_a mk + s_b kn + s_a mn)
 *                        (NVIDIA "Matrix Multiplication
 *                        Background User's Guide")
 *   linear (m tokens, d_in = k, d_out = n)
 *                        F = 2mkn (+ mn bias)
 *                        Q = s mk + s_w kn + s mn (+ s_w n bias):
 *                        weights read once per call (so I ~ B for small B)
 *   attention, one head, T queries, T_kv keys, head width d (Vaswani et al.
 *   2017's two matmuls and softmax, per head, times batch):
 *     naive              F = 4 T T_kv d + 5 T T_kv  (two matmuls + softmax)
 *                        Q = s(T d + T_kv d + T T_kv)        scores
 *                          + s(2 T T_kv)                     softmax
 *                          + s(T T_kv + T_kv d + T d)        A V
 *     fused              Q = s(2 T d + 2 T_kv d * r): Q read, O written, K
 *                        and V read r times, r = ceil(T / tile) when a
 *                        query tile is given, else 1 (Dao et al. 2022,
 *                        FlashAttention, Theorem 2 counts the same re-reads)
 *     GQA                K and V belong to kv_heads <= heads heads and are
 *                        counted once per KV head (ideal traffic).
 *     causal             convention: half the score FLOPs (both matmuls and
 *                        the softmax), as FlashAttention's benchmarks count
 *                        them; traffic unchanged (a naive kernel still
 *                        writes the full T x T_kv scores).
 *   conv2d               F = 2 N C_out H_o W_o (C_in/g) kh kw
 *                        Q = s N C_in H W + s_w C_out (C_in/g) kh kw
 *                          + s N C_out H_o W_o
 *   copy                 F = 0, Q = n(s_src + s_dst), s_src from weight_dtype
 *   embedding            F = 0, Q = m n s_w (rows gathered) + m n s + 8m
 *                        (int64 indices)
 *   kernel               F and Q as given
 *
 * Every size is a double: products that would overflow 64-bit integers
 * are exact enough in floating point, and a result above 1e300 is refused.
 */
#include "core/internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


/* ---- the fields: every shape field any kind takes -------------------- */

/* Field ids (1-based: 0 ends a kind's list). */
enum {
  F_N = 1, F_ROWS, F_COLS, F_M, F_K, F_BATCH, F_TOKENS, F_D_IN, F_D_OUT, F_SEQ, F_SEQ_KV,
  F_HEAD_DIM, F_HEADS, F_KV_HEADS, F_TILE, F_C_IN, F_C_OUT, F_H, F_W, F_KH, F_KW, F_STRIDE,
  F_PAD, F_GROUPS, F_FLOPS, F_BYTES, F_FUSED, F_CAUSAL, F_BIAS, F_WEIGHT_DTYPE, F_COUNT
};

typedef struct op_field {
  const char *name;  /* flag and key spelling: "d-in" ('_' accepted for '-') */
  int32_t type;      /* RL_OP_FIELD_SIZE, _FLAG, _DTYPE */
  size_t off;        /* SIZE: the double in rl_op */
  uint32_t flag;     /* FLAG: the RL_OP_* bit */
  rl_unit unit;      /* SIZE: how a value with a unit is read */
  const char *meta;  /* placeholder in usage text */
  const char *dflt;  /* SIZE: what 0 (absent) stands for; NULL: no default */
} op_field;

#define SZ(f, u, meta, dflt) RL_OP_FIELD_SIZE, offsetof(rl_op, f), 0, u, meta, dflt
#define FL(bit) RL_OP_FIELD_FLAG, 0, bit, RL_UNIT_COUNT, NULL, NULL
static const op_field fields[F_COUNT] = {
    [F_N] = {"n", SZ(n, RL_UNIT_COUNT, "N", NULL)},
    [F_ROWS] = {"rows", SZ(m, RL_UNIT_COUNT, "R", NULL)},
    [F_COLS] = {"cols", SZ(n, RL_UNIT_COUNT, "C", NULL)},
    [F_M] = {"m", SZ(m, RL_UNIT_COUNT, "M", NULL)},
    [F_K] = {"k", SZ(k, RL_UNIT_COUNT, "K", NULL)},
    [F_BATCH] = {"batch", SZ(batch, RL_UNIT_COUNT, "B", "1")},
    [F_TOKENS] = {"tokens", SZ(m, RL_UNIT_COUNT, "B", NULL)},
    [F_D_IN] = {"d-in", SZ(k, RL_UNIT_COUNT, "D", NULL)},
    [F_D_OUT] = {"d-out", SZ(n, RL_UNIT_COUNT, "D", NULL)},
    [F_SEQ] = {"seq", SZ(seq, RL_UNIT_COUNT, "T", NULL)},
    [F_SEQ_KV] = {"seq-kv", SZ(seq_kv, RL_UNIT_COUNT, "T", "seq")},
    [F_HEAD_DIM] = {"head-dim", SZ(head_dim, RL_UNIT_COUNT, "D", NULL)},
    [F_HEADS] = {"heads", SZ(heads, RL_UNIT_COUNT, "H", "1")},
    [F_KV_HEADS] = {"kv-heads", SZ(kv_heads, RL_UNIT_COUNT, "H", "heads")},
    [F_TILE] = {"tile", SZ(tile, RL_UNIT_COUNT, "N", "K and V read once")},
    [F_C_IN] = {"c-in", SZ(c_in, RL_UNIT_COUNT, "C", NULL)},
    [F_C_OUT] = {"c-out", SZ(c_out, RL_UNIT_COUNT, "C", NULL)},
    [F_H] = {"h", SZ(h, RL_UNIT_COUNT, "H", NULL)},
    [F_W] = {"w", SZ(w, RL_UNIT_COUNT, "W", NULL)},
    [F_KH] = {"kh", SZ(kh, RL_UNIT_COUNT, "K", NULL)},
    [F_KW] = {"kw", SZ(kw, RL_UNIT_COUNT, "K", NULL)},
    [F_STRIDE] = {"stride", SZ(stride, RL_UNIT_COUNT, "S", "1")},
    [F_PAD] = {"pad", SZ(pad, RL_UNIT_COUNT, "P", "0")},
    [F_GROUPS] = {"groups", SZ(groups, RL_UNIT_COUNT, "G", "1")},
    [F_FLOPS] = {"flops", SZ(flops, RL_UNIT_FLOP, "F", NULL)},
    [F_BYTES] = {"bytes", SZ(bytes, RL_UNIT_BYTES, "Q", NULL)},
    [F_FUSED] = {"fused", FL(RL_OP_FUSED)},
    [F_CAUSAL] = {"causal", FL(RL_OP_CAUSAL)},
    [F_BIAS] = {"bias", FL(RL_OP_BIAS)},
    [F_WEIGHT_DTYPE] = {"weight-dtype", RL_OP_FIELD_DTYPE, 0, 0, RL_UNIT_COUNT, "DT", NULL},
};
#undef SZ
#undef FL

/* ---- the kinds: one row each ------------------------------------------ */

typedef struct op_def op_def;
/* A formula: F and Q of op from s (activation) and sw (weight) bytes per
 * element, checking the sizes it reads. */
typedef rl_status (*op_formula)(const op_def *d, const rl_op *op, double s, double sw,
                                double *F, double *Q, rl_error *err);
/* A short description of the shape for readable output. */
typedef void (*op_describe)(const rl_op *op, char *buf, size_t cap);

#define ALT 0x40    /* in a field list: the next fields are an alternative form */
#define OPT(f) ((f) | 0x80) /* an optional field (common to every form) */
#define FIELD_ID(x) ((x) & 0x3f)

struct op_def {
  const char *name;
  const char *aliases;     /* space-separated, also accepted by rl_op_parse */
  unsigned char shape[16]; /* its fields in order (positional order in Python) */
  int tensor;              /* 1: runs on the tensor peak (matmul-like) */
  double a, b;             /* the formula's constants (FLOPs per element, ...) */
  op_formula cost;
  op_describe describe;
};

static rl_status f_binary(const op_def *, const rl_op *, double, double, double *, double *, rl_error *);
static rl_status f_unary(const op_def *, const rl_op *, double, double, double *, double *, rl_error *);
static rl_status f_rows(const op_def *, const rl_op *, double, double, double *, double *, rl_error *);
static rl_status f_matmul(const op_def *, const rl_op *, double, double, double *, double *, rl_error *);
static rl_status f_linear(const op_def *, const rl_op *, double, double, double *, double *, rl_error *);
static rl_status f_attention(const op_def *, const rl_op *, double, double, double *, double *, rl_error *);
static rl_status f_conv2d(const op_def *, const rl_op *, double, double, double *, double *, rl_error *);
static rl_status f_copy(const op_def *, const rl_op *, double, double, double *, double *, rl_error *);
static rl_status f_embedding(const op_def *, const rl_op *, double, double, double *, double *, rl_error *);
static rl_status f_kernel(const op_def *, const rl_op *, double, double, double *, double *, rl_error *);
static void d_elements(const rl_op *, char *, size_t);
static void d_rows(const rl_op *, char *, size_t);
static void d_matmul(const rl_op *, char *, size_t);
static void d_linear(const rl_op *, char *, size_t);
static void d_attention(const rl_op *, char *, size_t);
static void d_conv2d(const rl_op *, char *, size_t);

#define ELEMENTS F_N, ALT, F_ROWS, F_COLS
#define ROWS F_ROWS, F_COLS
static const op_def defs[] = {
    /* F = a n, Q = 3ns */
    [RL_OP_ADD] = {"add", "elementwise", {ELEMENTS}, 0, 1, 0, f_binary, d_elements},
    [RL_OP_MUL] = {"mul", "", {ELEMENTS}, 0, 1, 0, f_binary, d_elements},
    [RL_OP_SUB] = {"sub", "", {ELEMENTS}, 0, 1, 0, f_binary, d_elements},
    [RL_OP_DIV] = {"div", "", {ELEMENTS}, 0, 1, 0, f_binary, d_elements},
    /* F = a n, Q = 2ns */
    [RL_OP_RELU] = {"relu", "", {ELEMENTS}, 0, 1, 0, f_unary, d_elements},
    [RL_OP_GELU_TANH] = {"gelu-tanh", "gelu gelu_tanh", {ELEMENTS}, 0, 9, 0, f_unary, d_elements},
    [RL_OP_GELU_ERF] = {"gelu-erf", "gelu_erf", {ELEMENTS}, 0, 5, 0, f_unary, d_elements},
    [RL_OP_SILU] = {"silu", "swish", {ELEMENTS}, 0, 4, 0, f_unary, d_elements},
    /* F = a mn, Q = 2mns + b n sw */
    [RL_OP_SOFTMAX] = {"softmax", "", {ROWS}, 0, 5, 0, f_rows, d_rows},
    [RL_OP_LAYERNORM] = {"layernorm", "layer_norm layer-norm", {ROWS, OPT(F_WEIGHT_DTYPE)}, 0, 8, 2,
                         f_rows, d_rows},
    [RL_OP_RMSNORM] = {"rmsnorm", "rms_norm rms-norm", {ROWS, OPT(F_WEIGHT_DTYPE)}, 0, 4, 1, f_rows,
                       d_rows},
    [RL_OP_MATMUL] = {"matmul", "bmm mm gemm",
                      {F_M, F_N, F_K, OPT(F_BATCH), OPT(F_BIAS), OPT(F_WEIGHT_DTYPE)}, 1, 0, 0,
                      f_matmul, d_matmul},
    [RL_OP_LINEAR] = {"linear", "", {F_TOKENS, F_D_IN, F_D_OUT, OPT(F_BIAS), OPT(F_WEIGHT_DTYPE)}, 1,
                      0, 0, f_linear, d_linear},
    [RL_OP_ATTENTION] = {"attention", "attn sdpa",
                         {F_SEQ, F_HEAD_DIM, OPT(F_HEADS), OPT(F_KV_HEADS), OPT(F_BATCH),
                          OPT(F_SEQ_KV), OPT(F_FUSED), OPT(F_TILE), OPT(F_CAUSAL)},
                         1, 0, 0, f_attention, d_attention},
    [RL_OP_CONV2D] = {"conv2d", "conv convolution",
                      {OPT(F_BATCH), F_C_IN, F_H, F_W, F_C_OUT, F_KH, F_KW, OPT(F_STRIDE),
                       OPT(F_PAD), OPT(F_GROUPS), OPT(F_BIAS), OPT(F_WEIGHT_DTYPE)},
                      1, 0, 0, f_conv2d, d_conv2d},
    [RL_OP_COPY] = {"copy", "", {ELEMENTS, OPT(F_WEIGHT_DTYPE)}, 0, 0, 0, f_copy, d_elements},
    [RL_OP_EMBEDDING] = {"embedding", "", {ROWS, OPT(F_WEIGHT_DTYPE)}, 0, 0, 0, f_embedding, d_rows},
    [RL_OP_KERNEL] = {"kernel", "", {F_FLOPS, F_BYTES}, 0, 0, 0, f_kernel, NULL},
};
#undef ELEMENTS
#undef ROWS
/* A kind added to the enum after the last row here stops the build; a row
 * left out in the middle is a kind with no name or formula, which every
 * function below treats as no kind and test_core's walk of the kinds names. */
_Static_assert(sizeof defs / sizeof defs[0] == RL_OP_KIND_COUNT,
               "every op kind (RL_OP_* in roofline.h) needs its row in defs[]");

/* ---- names ------------------------------------------------------------ */

static int valid_kind(int32_t kind) {
  return kind >= 0 && kind < RL_OP_KIND_COUNT && defs[kind].name && defs[kind].cost;
}

const char *rl_op_name(int32_t kind) { return valid_kind(kind) ? defs[kind].name : NULL; }

/* Is `word` one of the space-separated words of `list` (ASCII case ignored)? */
static int word_in(const char *list, const char *word) {
  size_t wl = strlen(word);
  for (const char *p = list; *p;) {
    while (*p == ' ') p++;
    const char *e = p;
    while (*e && *e != ' ') e++;
    if ((size_t)(e - p) == wl && wl && rli_strncasecmp(p, word, wl) == 0) return 1;
    p = e;
  }
  return 0;
}

rl_status rl_op_parse(const char *name, int32_t *kind, rl_error *err) {
  if (!name || !*name) return rli_fail(err, RL_EINVAL, "empty op name");
  for (int32_t i = 0; i < RL_OP_KIND_COUNT; i++)
    if (valid_kind(i) && rli_strcasecmp(name, defs[i].name) == 0) { *kind = i; return RL_OK; }
  for (int32_t i = 0; i < RL_OP_KIND_COUNT; i++)
    if (valid_kind(i) && word_in(defs[i].aliases, name)) { *kind = i; return RL_OK; }
  char names[RL_ERROR_MSG_MAX];
  rli_out o;
  rli_out_init(&o, names, sizeof names);
  for (int32_t i = 0, first = 1; i < RL_OP_KIND_COUNT; i++) {
    if (!valid_kind(i)) continue;
    rli_out_printf(&o, "%s%s", first ? "" : " ", defs[i].name);
    first = 0;
  }
  rli_out_end(&o);
  /* a typo: the nearest name when it is within a third of the word */
  int32_t best = -1;
  int bd = 1 << 30;
  for (int32_t i = 0; i < RL_OP_KIND_COUNT; i++) {
    if (!valid_kind(i)) continue;
    int d = rli_edit_distance(defs[i].name, name);
    if (d < bd) bd = d, best = i;
  }
  size_t wl = strlen(name);
  if (best >= 0 && bd <= (wl > 5 ? (int)(wl / 3) : 1))
    return rli_fail(err, RL_ENOTFOUND, "unknown op '%s': did you mean '%s'? (%s)", name, defs[best].name, names);
  return rli_fail(err, RL_ENOTFOUND, "unknown op '%s' (%s)", name, names);
}

rl_op rl_op_init(int32_t kind, int32_t dtype) {
  rl_op op;
  memset(&op, 0, sizeof op);
  op.kind = kind;
  op.dtype = dtype;
  op.weight_dtype = -1;
  return op;
}

/* ---- the schema's functions ------------------------------------------- */

/* A field name as given ('_' for '-', any case) to its id; 0 if none. */
static int field_id(const char *name) {
  if (!name) return 0;
  for (int f = 1; f < F_COUNT; f++) {
    const char *a = fields[f].name, *b = name;
    while (*a && *b && (*a == *b || (*a == '-' && *b == '_') ||
                        (*a | 0x20) == (*b | 0x20)))
      a++, b++;
    if (!*a && !*b) return f;
  }
  return 0;
}

/* Does the kind take field f? *required: in which form (1, 2, ...) it is
 * required, 0 when optional. */
static int takes(int32_t kind, int f, int *required) {
  int form = 1;
  for (const unsigned char *p = defs[kind].shape; *p; p++) {
    if (*p == ALT) { form++; continue; }
    if (FIELD_ID(*p) == f) {
      if (required) *required = (*p & 0x80) ? 0 : form;
      return 1;
    }
  }
  return 0;
}

int32_t rl_op_field_type(const char *name, int32_t *unit) {
  int f = field_id(name);
  if (!f) return 0;
  if (unit) *unit = (int32_t)fields[f].unit;
  return fields[f].type;
}

const char *rl_op_field_name(int32_t i) {
  return i >= 0 && i < F_COUNT - 1 ? fields[i + 1].name : NULL;
}

int rl_op_takes(int32_t kind, const char *field) {
  int f = field_id(field);
  return valid_kind(kind) && f && takes(kind, f, NULL);
}

size_t rl_op_fields(int32_t kind, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  if (valid_kind(kind)) {
    for (const unsigned char *p = defs[kind].shape; *p; p++) {
      if (p != defs[kind].shape) rli_out_puts(&o, " ");
      if (*p == ALT) rli_out_puts(&o, "|");
      else if (*p & 0x80) rli_out_printf(&o, "[%s]", fields[FIELD_ID(*p)].name);
      else rli_out_puts(&o, fields[FIELD_ID(*p)].name);
    }
  }
  return rli_out_end(&o);
}

static void set_field(rl_op *op, int f, double v) {
  const op_field *d = &fields[f];
  if (d->type == RL_OP_FIELD_SIZE) memcpy((char *)op + d->off, &v, sizeof v);
  else if (d->type == RL_OP_FIELD_FLAG) op->flags = v != 0 ? op->flags | d->flag : op->flags & ~d->flag;
  else op->weight_dtype = (int32_t)v;
}

rl_status rl_op_set(rl_op *op, const char *field, double value, rl_error *err) {
  if (!op || !valid_kind(op->kind)) return rli_fail(err, RL_EINVAL, "no op");
  int f = field_id(field);
  if (!f) return rli_fail(err, RL_EINVAL, "unknown op field '%s'", field ? field : "");
  if (!takes(op->kind, f, NULL))
    return rli_fail(err, RL_EINVAL, "%s does not apply to %s", fields[f].name, defs[op->kind].name);
  set_field(op, f, value);
  return RL_OK;
}

/* "--a, --b and --c": the required fields of one form. */
static void form_list(rli_out *o, int32_t kind, int form, const char *prefix) {
  int cur = 1, n = 0, total = 0;
  for (const unsigned char *p = defs[kind].shape; *p; p++) {
    if (*p == ALT) cur++;
    else if (cur == form && !(*p & 0x80)) total++;
  }
  cur = 1;
  for (const unsigned char *p = defs[kind].shape; *p; p++) {
    if (*p == ALT) { cur++; continue; }
    if (cur != form || (*p & 0x80)) continue;
    n++;
    rli_out_printf(o, "%s%s%s", n == 1 ? "" : n == total ? " and " : ", ", prefix,
                   fields[FIELD_ID(*p)].name);
  }
}

static int n_forms(int32_t kind) {
  int forms = 1;
  for (const unsigned char *p = defs[kind].shape; *p; p++) forms += *p == ALT;
  return forms;
}

rl_status rl_op_set_fields(rl_op *op, const char *const *names, const double *values, int32_t n,
                           const char *prefix, rl_error *err) {
  if (!op || !valid_kind(op->kind)) return rli_fail(err, RL_EINVAL, "no op");
  if (n > 0 && (!names || !values)) return rli_fail(err, RL_EINVAL, "no fields");
  if (!prefix) prefix = "";
  const char *kname = defs[op->kind].name;
  int form = 0; /* the form the given required fields belong to */
  char msg[RL_ERROR_MSG_MAX];
  rli_out o;
  for (int32_t i = 0; i < n; i++) {
    int f = field_id(names[i]), req = 0;
    if (!f) return rli_fail(err, RL_EINVAL, "unknown op field '%s%s'", prefix, names[i] ? names[i] : "");
    if (!takes(op->kind, f, &req))
      return rli_fail(err, RL_EINVAL, "%s%s does not apply to %s", prefix, fields[f].name, kname);
    if (req && form && req != form) {
      rli_out_init(&o, msg, sizeof msg);
      for (int k = 1; k <= n_forms(op->kind); k++) {
        if (k > 1) rli_out_puts(&o, " or ");
        form_list(&o, op->kind, k, prefix);
      }
      rli_out_end(&o);
      return rli_fail(err, RL_EINVAL, "give %s, not both", msg);
    }
    if (req) form = req;
    if (isnan(values[i]))
      return rli_fail(err, RL_EINVAL, "%s%s must be a number, not NaN", prefix, fields[f].name);
    /* The main form's sizes are checked by the formula, with its words; any
     * other size given must be > 0 here, since 0 stands for its absence. */
    if (fields[f].type == RL_OP_FIELD_SIZE && req != 1) {
      if (f == F_PAD ? values[i] < 0 : !(values[i] > 0))
        return rli_fail(err, RL_EINVAL, "%s%s must be %s 0", prefix, fields[f].name,
                        f == F_PAD ? ">=" : ">");
    }
  }
  /* every required field of the form given */
  int want = form ? form : 1;
  int missing = 0;
  {
    int cur = 1;
    for (const unsigned char *p = defs[op->kind].shape; *p; p++) {
      if (*p == ALT) { cur++; continue; }
      if (cur != want || (*p & 0x80)) continue;
      int given = 0;
      for (int32_t i = 0; i < n; i++) given |= field_id(names[i]) == FIELD_ID(*p);
      if (!given) missing = 1;
    }
  }
  if (missing) {
    rli_out_init(&o, msg, sizeof msg);
    form_list(&o, op->kind, want, prefix);
    if (!form)
      for (int k = 2; k <= n_forms(op->kind); k++) {
        rli_out_puts(&o, " (or ");
        form_list(&o, op->kind, k, prefix);
        rli_out_puts(&o, ")");
      }
    rli_out_end(&o);
    return rli_fail(err, RL_EINVAL, "%s needs %s", kname, msg);
  }
  for (int32_t i = 0; i < n; i++) set_field(op, field_id(names[i]), values[i]);
  return RL_OK;
}

/* Append " word" to a help line, breaking it before column 79. */
static void help_word(rli_out *o, int *col, const char *w) {
  int len = (int)strlen(w);
  if (*col + 1 + len > 78) {
    rli_out_puts(o, "\n     ");
    *col = 6;
  }
  rli_out_printf(o, " %s", w);
  *col += 1 + len;
}

size_t rl_op_help(char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  int done[RL_OP_KIND_COUNT] = {0};
  char w[64];
  for (int32_t k = 0; k < RL_OP_KIND_COUNT; k++) {
    if (done[k] || !valid_kind(k)) continue;
    /* the kinds with the same fields, on one line */
    int col = 1;
    rli_out_puts(&o, " ");
    for (int32_t j = k; j < RL_OP_KIND_COUNT; j++)
      if (valid_kind(j) && memcmp(defs[j].shape, defs[k].shape, sizeof defs[k].shape) == 0) {
        help_word(&o, &col, defs[j].name);
        done[j] = 1;
      }
    rli_out_puts(&o, "\n     ");
    col = 5;
    for (const unsigned char *p = defs[k].shape; *p; p++) {
      if (*p == ALT) { help_word(&o, &col, "|"); continue; }
      const op_field *d = &fields[FIELD_ID(*p)];
      int opt = (*p & 0x80) != 0;
      snprintf(w, sizeof w, "%s--%s%s%s%s", opt ? "[" : "", d->name, d->meta ? " " : "",
               d->meta ? d->meta : "", opt ? "]" : "");
      help_word(&o, &col, w);
    }
    rli_out_puts(&o, "\n");
  }
  rli_out_puts(&o, "  absent or 0 stands for:");
  int col = 24;
  int last = 0;
  for (int f = 1; f < F_COUNT; f++)
    if (fields[f].dflt) last = f;
  for (int f = 1; f < F_COUNT; f++)
    if (fields[f].dflt) {
      snprintf(w, sizeof w, "--%s %s%s", fields[f].name, fields[f].dflt, f == last ? "" : ",");
      help_word(&o, &col, w);
    }
  rli_out_puts(&o, "\n");
  return rli_out_end(&o);
}

size_t rl_op_describe(const rl_op *op, char *buf, size_t cap) {
  if (!buf || cap == 0) return 0;
  buf[0] = 0;
  if (!op || !valid_kind(op->kind)) return 0;
  if (defs[op->kind].describe) {
    defs[op->kind].describe(op, buf, cap);
    return strlen(buf);
  }
  /* generic: each size field the kind takes, "name value" */
  rli_out o;
  rli_out_init(&o, buf, cap);
  int first = 1;
  for (const unsigned char *p = defs[op->kind].shape; *p; p++) {
    const op_field *d = &fields[FIELD_ID(*p)];
    if (*p == ALT || d->type != RL_OP_FIELD_SIZE) continue;
    double v;
    memcpy(&v, (const char *)op + d->off, sizeof v);
    if (v == 0) continue;
    rli_out_printf(&o, "%s%s %.6g", first ? "" : ", ", d->name, v);
    first = 0;
  }
  return rli_out_end(&o);
}

static void d_elements(const rl_op *op, char *buf, size_t cap) {
  snprintf(buf, cap, "%.0f elements", op->m > 0 ? op->m * op->n : op->n);
}

static void d_rows(const rl_op *op, char *buf, size_t cap) {
  snprintf(buf, cap, "%.0f x %.0f", op->m, op->n);
}

static void d_matmul(const rl_op *op, char *buf, size_t cap) {
  snprintf(buf, cap, "(%.0f x %.0f)(%.0f x %.0f)%s", op->m, op->k, op->k, op->n,
           op->batch > 1 ? " batched" : "");
  size_t l = strlen(buf);
  if (op->batch > 1 && l < cap) snprintf(buf + l, cap - l, " x %.0f", op->batch);
}

static void d_linear(const rl_op *op, char *buf, size_t cap) {
  snprintf(buf, cap, "%.0f token%s, %.0f -> %.0f", op->m, op->m == 1 ? "" : "s", op->k, op->n);
}

static void d_attention(const rl_op *op, char *buf, size_t cap) {
  snprintf(buf, cap, "T=%.0f, d_k=%.0f, %.0f head(s), %.0f KV head(s)%s%s", op->seq,
           op->head_dim, op->heads > 0 ? op->heads : 1,
           op->kv_heads > 0 ? op->kv_heads : (op->heads > 0 ? op->heads : 1),
           op->flags & RL_OP_FUSED ? ", fused" : ", naive",
           op->flags & RL_OP_CAUSAL ? ", causal (half the score FLOPs)" : "");
}

static void d_conv2d(const rl_op *op, char *buf, size_t cap) {
  snprintf(buf, cap, "N=%.0f, %.0fx%.0fx%.0f -> %.0f, kernel %.0fx%.0f", op->batch > 0 ? op->batch : 1,
           op->c_in, op->h, op->w, op->c_out, op->kh, op->kw);
}

/* ---- the cost ----------------------------------------------------------- */

/* A size that must be a whole number > 0. */
static rl_status need(double x, const char *what, rl_error *err) {
  rl_status st = rli_check_max(x, RL_MAX_COUNT, what, err); /* the count limit (roofline.h) */
  if (st == RL_OK) st = rli_check_size(x, what, err);
  if (st != RL_OK) return st;
  if (x != floor(x)) return rli_fail(err, RL_EINVAL, "%s must be a whole number (got %g)", what, x);
  return RL_OK;
}

/* An optional size: 0 means `dflt`. */
static rl_status opt(double x, double dflt, const char *what, double *out, rl_error *err) {
  if (x == 0) { *out = dflt; return RL_OK; }
  rl_status st = need(x, what, err);
  if (st == RL_OK) *out = x;
  return st;
}

static rl_status dtype_bytes(int32_t dt, const char *what, double *s, rl_error *err) {
  *s = rl_dtype_bytes(dt);
  if (*s <= 0) return rli_fail(err, RL_EINVAL, "invalid %s (%d)", what, (int)dt);
  return RL_OK;
}

/* A size or flag set that the kind does not take is refused, so that a
 * misplaced size is an error rather than ignored. */
static rl_status check_fields(const rl_op *op, rl_error *err) {
  uint32_t flags_ok = 0;
  for (const unsigned char *p = defs[op->kind].shape; *p; p++)
    if (*p != ALT && fields[FIELD_ID(*p)].type == RL_OP_FIELD_FLAG) flags_ok |= fields[FIELD_ID(*p)].flag;
  for (int f = 1; f < F_COUNT; f++) {
    const op_field *d = &fields[f];
    int bad = 0;
    if (d->type == RL_OP_FIELD_SIZE) {
      double v;
      memcpy(&v, (const char *)op + d->off, sizeof v);
      if (v == 0) continue;
      bad = 1; /* unless a field of the kind writes this member */
      for (const unsigned char *p = defs[op->kind].shape; *p && bad; p++)
        if (*p != ALT && fields[FIELD_ID(*p)].type == RL_OP_FIELD_SIZE && fields[FIELD_ID(*p)].off == d->off)
          bad = 0;
    } else if (d->type == RL_OP_FIELD_FLAG) {
      bad = (op->flags & d->flag) && !(flags_ok & d->flag);
    }
    if (bad) return rli_fail(err, RL_EINVAL, "%s does not apply to %s", d->name, defs[op->kind].name);
  }
  if (op->flags & ~(uint32_t)(RL_OP_FUSED | RL_OP_CAUSAL | RL_OP_BIAS))
    return rli_fail(err, RL_EINVAL, "unknown op flags 0x%x", (unsigned)op->flags);
  return RL_OK;
}

rl_status rl_op_cost(const rl_op *op, rl_cost *out, rl_error *err) {
  if (!op || !out) return rli_fail(err, RL_EINVAL, "no op");
  if (!valid_kind(op->kind)) return rli_fail(err, RL_EINVAL, "invalid op kind %d", (int)op->kind);
  const op_def *d = &defs[op->kind];
  TRY(check_fields(op, err));
  double s, sw;
  TRY(dtype_bytes(op->dtype, "dtype", &s, err));
  if (op->weight_dtype >= 0) TRY(dtype_bytes(op->weight_dtype, "weight dtype", &sw, err));
  else sw = s;
  double F = 0, Q = 0;
  TRY(d->cost(d, op, s, sw, &F, &Q, err));
  if (!isfinite(F) || !isfinite(Q) || F > 1e300 || Q > 1e300)
    return rli_fail(err, RL_ERANGE, "%s: sizes so large that FLOPs or bytes overflow", d->name);
  out->flops = F;
  out->bytes = Q;
  out->intensity = Q > 0 ? F / Q : 0;
  out->tensor = d->tensor;
  out->peak = -1;
  return RL_OK;
}

/* The elements of an elementwise op: n, or m rows of n. */
static rl_status elements(const rl_op *op, double *e, rl_error *err) {
  if (op->m != 0) {
    TRY(need(op->m, "rows", err));
    TRY(need(op->n, "cols", err));
    *e = op->m * op->n;
    return RL_OK;
  }
  TRY(need(op->n, "n (elements)", err));
  *e = op->n;
  return RL_OK;
}

static rl_status f_binary(const op_def *d, const rl_op *op, double s, double sw, double *F,
                          double *Q, rl_error *err) {
  (void)sw;
  double e;
  TRY(elements(op, &e, err));
  *F = d->a * e;
  *Q = 3 * e * s;
  return RL_OK;
}

static rl_status f_unary(const op_def *d, const rl_op *op, double s, double sw, double *F,
                         double *Q, rl_error *err) {
  (void)sw;
  double e;
  TRY(elements(op, &e, err));
  *F = d->a * e;
  *Q = 2 * e * s;
  return RL_OK;
}

static rl_status f_rows(const op_def *d, const rl_op *op, double s, double sw, double *F,
                        double *Q, rl_error *err) {
  TRY(need(op->m, "rows", err));
  TRY(need(op->n, "cols", err));
  double e = op->m * op->n;
  *F = d->a * e;
  *Q = 2 * e * s + d->b * op->n * sw;
  return RL_OK;
}

static rl_status f_matmul(const op_def *d, const rl_op *op, double s, double sw, double *F,
                          double *Q, rl_error *err) {
  (void)d;
  double b;
  int bias = (op->flags & RL_OP_BIAS) != 0;
  TRY(need(op->m, "m", err));
  TRY(need(op->n, "n", err));
  TRY(need(op->k, "k", err));
  TRY(opt(op->batch, 1, "batch", &b, err));
  *F = b * (2 * op->m * op->n * op->k + (bias ? op->m * op->n : 0));
  *Q = b * (s * op->m * op->k + sw * op->k * op->n + s * op->m * op->n) + (bias ? sw * op->n : 0);
  return RL_OK;
}

static rl_status f_linear(const op_def *d, const rl_op *op, double s, double sw, double *F,
                          double *Q, rl_error *err) {
  (void)d;
  int bias = (op->flags & RL_OP_BIAS) != 0;
  TRY(need(op->m, "tokens", err));
  TRY(need(op->k, "d_in", err));
  TRY(need(op->n, "d_out", err));
  *F = 2 * op->m * op->k * op->n + (bias ? op->m * op->n : 0);
  *Q = s * op->m * op->k + sw * op->k * op->n + s * op->m * op->n + (bias ? sw * op->n : 0);
  return RL_OK;
}

static rl_status f_attention(const op_def *d, const rl_op *op, double s, double sw, double *F,
                             double *Q, rl_error *err) {
  (void)d;
  (void)sw;
  double b, h, hkv, tkv, T = op->seq, dk = op->head_dim;
  TRY(need(T, "seq", err));
  TRY(need(dk, "head_dim", err));
  TRY(opt(op->batch, 1, "batch", &b, err));
  TRY(opt(op->heads, 1, "heads", &h, err));
  TRY(opt(op->kv_heads, h, "kv_heads", &hkv, err));
  TRY(opt(op->seq_kv, T, "seq_kv", &tkv, err));
  if (hkv > h) return rli_fail(err, RL_EINVAL, "kv_heads (%g) exceeds heads (%g)", hkv, h);
  if (fmod(h, hkv) != 0)
    return rli_fail(err, RL_EINVAL, "heads (%g) is not a multiple of kv_heads (%g)", h, hkv);
  double pairs = T * tkv * ((op->flags & RL_OP_CAUSAL) ? 0.5 : 1.0);
  *F = b * h * (4 * pairs * dk + 5 * pairs);
  if (op->flags & RL_OP_FUSED) {
    double r = 1;
    if (op->tile != 0) {
      TRY(need(op->tile, "tile", err));
      r = ceil(T / op->tile);
    }
    *Q = b * s * (2 * h * T * dk + 2 * hkv * tkv * dk * r);
  } else {
    if (op->tile != 0)
      return rli_fail(err, RL_EINVAL, "a tile size applies to fused attention only (add `fused`)");
    *Q = b * s * (h * (2 * T * dk + 4 * T * tkv) + 2 * hkv * tkv * dk);
  }
  return RL_OK;
}

static rl_status f_conv2d(const op_def *d, const rl_op *op, double s, double sw, double *F,
                          double *Q, rl_error *err) {
  (void)d;
  int bias = (op->flags & RL_OP_BIAS) != 0;
  double N, stride, pad = op->pad, g;
  TRY(opt(op->batch, 1, "batch", &N, err));
  TRY(need(op->c_in, "c_in", err));
  TRY(need(op->c_out, "c_out", err));
  TRY(need(op->h, "h", err));
  TRY(need(op->w, "w", err));
  TRY(need(op->kh, "kh", err));
  TRY(need(op->kw, "kw", err));
  TRY(opt(op->stride, 1, "stride", &stride, err));
  TRY(opt(op->groups, 1, "groups", &g, err));
  if (pad < 0 || pad != floor(pad) || !isfinite(pad))
    return rli_fail(err, RL_EINVAL, "pad must be a whole number >= 0");
  if (fmod(op->c_in, g) != 0 || fmod(op->c_out, g) != 0)
    return rli_fail(err, RL_EINVAL, "c_in and c_out must be multiples of groups");
  double ho = floor((op->h + 2 * pad - op->kh) / stride) + 1;
  double wo = floor((op->w + 2 * pad - op->kw) / stride) + 1;
  if (ho < 1 || wo < 1)
    return rli_fail(err, RL_EINVAL, "the kernel (%gx%g) is larger than the padded input", op->kh, op->kw);
  double wts = op->c_out * (op->c_in / g) * op->kh * op->kw;
  *F = 2 * N * op->c_out * ho * wo * (op->c_in / g) * op->kh * op->kw +
       (bias ? N * op->c_out * ho * wo : 0);
  *Q = s * N * op->c_in * op->h * op->w + sw * wts + s * N * op->c_out * ho * wo +
       (bias ? sw * op->c_out : 0);
  return RL_OK;
}

static rl_status f_copy(const op_def *d, const rl_op *op, double s, double sw, double *F,
                        double *Q, rl_error *err) {
  (void)d;
  double e;
  TRY(elements(op, &e, err));
  *F = 0;
  *Q = e * (s + sw);
  return RL_OK;
}

static rl_status f_embedding(const op_def *d, const rl_op *op, double s, double sw, double *F,
                             double *Q, rl_error *err) {
  (void)d;
  TRY(need(op->m, "rows (tokens gathered)", err));
  TRY(need(op->n, "cols (embedding width)", err));
  *F = 0;
  *Q = op->m * op->n * (sw + s) + 8 * op->m;
  return RL_OK;
}

static rl_status f_kernel(const op_def *d, const rl_op *op, double s, double sw, double *F,
                          double *Q, rl_error *err) {
  (void)d;
  (void)s;
  (void)sw;
  if (isnan(op->flops) || isnan(op->bytes))
    return rli_fail(err, RL_EINVAL, "flops and bytes must be numbers, not NaN");
  if (op->flops < 0 || !isfinite(op->flops) || op->flops >= 1e30)
    return rli_fail(err, RL_EINVAL, "flops must be finite and >= 0 (got %g)", op->flops);
  TRY(rli_check_size(op->bytes, "bytes", err));
  *F = op->flops;
  *Q = op->bytes;
  return RL_OK;
}

rl_status rl_linear_min_batch(double d_in, double d_out, int32_t dtype,
                              int32_t weight_dtype, int bias, double ridge,
                              double *batch, rl_error *err) {
  TRY(need(d_in, "d_in", err));
  TRY(need(d_out, "d_out", err));
  TRY(rli_check_size(ridge, "ridge point", err));
  double s = rl_dtype_bytes(dtype);
  double sw = weight_dtype >= 0 ? rl_dtype_bytes(weight_dtype) : s;
  if (s <= 0 || sw <= 0) return rli_fail(err, RL_EINVAL, "invalid dtype");
  double k = d_in, n = d_out;
  /* I(B) = B(2kn + b n) / (B s(k + n) + sw(kn + b n)), increasing in B,
   * tending to (2kn + bn) / (s(k + n)). */
  double fpt = 2 * k * n + (bias ? n : 0);  /* FLOPs per token */
  double qpt = s * (k + n);                  /* bytes per token */
  double qw = sw * (k * n + (bias ? n : 0)); /* weight bytes */
  if (fpt / qpt <= ridge) { *batch = 0; return RL_OK; }
  double B = ceil(ridge * qw / (fpt - ridge * qpt));
  if (B < 1) B = 1;
  /* guard against rounding at the boundary */
  while (B > 1 && (B - 1) * fpt / ((B - 1) * qpt + qw) >= ridge) B--;
  while (B * fpt / (B * qpt + qw) < ridge) B++;
  *batch = B;
  return RL_OK;
}
