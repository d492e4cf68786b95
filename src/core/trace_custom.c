/*
 * trace_custom.c -- F and Q of one call of a serving engine's or kernel
 * library's custom op (vLLM's _C::, _C_cache_ops::, _moe_C::, vllm::;
 * SGLang's sgl_kernel:: and sglang::; AMD aiter::; FlashAttention's
 * flash_attn::; xformers::; symm_mem::; TensorRT-LLM's trtllm::) from the
 * shapes the profiler recorded, by the row of data/custom_ops.csv that
 * names it (compiled into custom_table.inc by tools/gen_tables.py; the
 * CSV's header states the columns). Adding an op is one row there. Each
 * row gives the op's argument positions, from the op's own schema or
 * Python signature (its `source`), and one of these kinds:
 *
 *   elementwise  F = flops x numel(elems); Q = the tensors the row lists,
 *                each read or written once at its recorded size and type
 *                (rN, wN; mN in place: read and written), a cache or pool
 *                write only the rows the new tokens address (wN:J:
 *                numel(J) elements of N's type, never N in full), an
 *                output the profiler does not record at its input's shape
 *                (oN). F = 0 (a cache write, an index sort): bytes over
 *                the memory bandwidth only.
 *   rotary       F = 3 per rotated element (x cos - y sin: two multiplies
 *                and an add, per output element), Q = the listed tensors,
 *                the query and key scaled by rot_dim / head_size (the
 *                cos/sin cache's second dimension over the head_size
 *                argument: a partial rotary touches only its share). The
 *                cache's rows are left out (positions may repeat).
 *   attention    per (query, key) pair 2 d_qk + 2 d_v FLOPs (the two
 *                matmuls) + 5 (softmax), as ops.c's fused attention
 *                counts them, times the heads H; causal: half the pairs
 *                (ops.c's convention). The pairs:
 *                  dense [B, T, H, d] with keys [B, S, Hkv, d]: B T S
 *                    (causal: half), exact;
 *                  variable-length (cu_seqlens of B + 1 entries, T query
 *                    and S key tokens): with equal query lengths (B = 1,
 *                    or max_seqlen_q x B = T) the sum over sequences of
 *                    q k - (causal) q^2 / 2 is exactly T S / B - T^2 / (2B)
 *                    (causal, bottom-right aligned) or T S / B; with
 *                    unequal lengths not recorded, causal pairs are at
 *                    least T^2 / (2B) (the sum of q_b^2 / 2 is smallest
 *                    when the lengths are equal, and k_b >= q_b), other
 *                    pairs at least T (each query at least one key);
 *                  a sliding window (window_size_left >= 0): at least T.
 *                Q = the listed tensors; with a paged KV cache addressed
 *                by page indices (kv_pages), the K and V rows of at least
 *                one token per page index (3-D cache [slots, Hkv, d]: one
 *                token per slot, exact), never the cache in full; with a
 *                block table recorded (paged), K and V are the cache and
 *                are not counted. A backward (flops 2.5 in its row): 2.5 x
 *                the forward's F (five matmuls against its two:
 *                FlashAttention-2, Dao 2023, section 3.2, as trace_aten.c's
 *                attention backward), its bytes the tensors it reads (dO,
 *                Q, K, V, O, the softmax statistics) and writes (dQ, dK, dV).
 *   attention_paged  decode / paged attention whose context lengths are in
 *                a tensor the profiler does not record: each query at least
 *                its own key, F = T H (4 d + 5); Q = the listed tensors
 *                (the query, the output, the new tokens' K and V rows at
 *                least 1 byte each). A lower bound on both.
 *   collective   an all-reduce done by a kernel of its own (symm_mem's
 *                one-shot NVLS, vLLM's custom all-reduce, TRT-LLM's): the
 *                collective model over the world size (trace_coll.c), S =
 *                the input's bytes; it joins the collectives' table, not
 *                the kernels'.
 *   moe          a fused mixture-of-experts layer whose recorded arguments
 *                are the hidden states [T, d'] and the router's logits
 *                [T, E] alone (vLLM's moe_forward, moe_forward_shared: the
 *                experts' weights live in the layer, not among the op's
 *                arguments). Without the model (rl_trace_set_model, `trace
 *                --model`) it stays uncovered with the row's reason. With
 *                it (d, d_ff, E, k routed experts per token, s shared; E must
 *                be the logits' last dimension, d' >= d), over the n ranks
 *                of the trace's world size (vLLM's tensor parallelism
 *                shards every expert's intermediate size: d_ff / n a rank):
 *                  F = 2 T (k + s) m d d_ff / n, m = 3 matrices per expert
 *                    (gated: gate, up, down) or 2 (plain): the experts'
 *                    GEMMs the model's sizes imply, exact for T tokens;
 *                    the router's GEMM is not in it (vLLM computes the
 *                    logits before the op: they are its argument), nor the
 *                    activation, biases, top-k and the weighted sum;
 *                  Q = T d b_x (hidden states read) + o T d b_x (the o
 *                    outputs written: 1, moe_forward_shared 2) + T E b_l
 *                    (logits read) + W / n, W = the weights of (k + s)
 *                    experts: each token's k experts are distinct, so at
 *                    least k experts' weights are read, all tokens may
 *                    share them. The k routed experts' matrices in the
 *                    format the model's checkpoint stores them in when the
 *                    models table gives one (rl_model.expert_weights, read
 *                    through rl_wfmt_matrix_bytes, the one rule decode and
 *                    prefill count them by: gpt-oss' MXFP4, 4.25 bits a
 *                    weight with its E8M0 scales, OCP Microscaling Formats
 *                    v1.0; OpenAI's gpt-oss model card); otherwise (and
 *                    the s shared experts) at the fewest bits per weight any fused-MoE
 *                    kernel of vLLM runs: 4 (MXFP4: 32 E2M1 values + an
 *                    E8M0 scale, OCP Microscaling Formats v1.0; NVFP4: 16
 *                    E2M1 + an E4M3 scale; int4 GPTQ/AWQ, vLLM's Marlin and
 *                    WNA16 MoE kernels take 4 or 8 bits), scales not
 *                    counted; GGUF's K- and I-quants go lower (vLLM's
 *                    ggml_moe_a8 / moe_vec kernels; IQ1_S 1.5625 bits a
 *                    weight) but pack a row in super-blocks of 256 weights
 *                    (ggml's QK_K), so a matrix whose rows (d for gate and
 *                    up, d_ff for down) are a multiple of 256 counts 1.5625
 *                    bits, any other 4.
 *                The model's d, not d' (a padded width: gpt-oss' 2880 runs
 *                as 3072 in vLLM's MXFP4 kernels), in F and Q: the padding
 *                is not work the op must do, so both stay lower bounds; a
 *                note says so. Its roof: the hidden states' format on the
 *                tensor peak (the kernels' names may name a narrower one,
 *                trace_coll.c). Q is a lower bound (bytes_lower_bound). A
 *                model whose E differs from the logits', or whose d is
 *                wider than the hidden states, cannot be the one the trace
 *                ran: the read is refused (-1).
 *   tbe          FBGEMM's table-batched embedding lookup with a rowwise
 *                optimizer (torchrec's split_embedding_codegen_lookup_
 *                rowwise_adagrad_function; fbgemm_gpu/codegen/
 *                embedding_backward_split_host_template.cpp, whose 2023
 *                schema records 29 arguments). Each table's D is the value
 *                of D_offsets, which the profiler does not record; on one
 *                table (D_offsets of 2 entries) D = its weights (dev_weights
 *                + uvm_weights) over its rows, which the rowwise optimizer's
 *                momentum1 (dev + uvm, one value a row) counts: exact, or
 *                the call is refused (0 rows, not a whole D). Q at least:
 *                the L rows looked up, L x D elements of the weights' type
 *                (the cache's if smaller: a cached row may come from
 *                lxu_cache_weights), as ops.c's embedding counts a gather
 *                (each lookup its row); the listed tensors (indices,
 *                offsets, per-sample weights) once; the output, B =
 *                len(offsets) - 1 rows pooled (SUM 0, MEAN 1) or L rows
 *                (NONE 2), min(B, L) when pooling_mode is not recorded, at
 *                4 D (FP32), 2 D (FP16, BF16) or D + 8 (INT8, with its
 *                scale and bias) bytes a row by output_dtype, the fewest
 *                when it is not recorded (embedding_forward_split_
 *                template.cu's output). F = 0: the pooling's sums, at most
 *                an FMA per element read (a FLOP per byte of fp16 rows), are
 *                not counted; the row is on the memory roof, bytes a lower
 *                bound. More tables: uncovered (the mean D, weights over
 *                rows, is no lower bound: the lookups may fall on the
 *                narrow tables); weights of another type (uint8 rows carry
 *                their scales) likewise.
 *   uncovered    its recorded arguments cannot bound it: left uncovered
 *                with the row's reason.
 *
 * A row may pin the op's version (params): args=N, the number of
 * arguments its schema records (a call recording another number is
 * another version or another op of that name: uncovered, saying so);
 * none=N, an argument that must be recorded as None (no type, no value),
 * the bound holding only then (triton_kernels' TopK reads every row of its
 * input only when n_rows is None).
 *
 * SGLang's kernel_shape_profiler (python/sglang/srt/utils/
 * kernel_shape_profiler.py) registers each kernel entry point it wraps as
 * a custom op `sglang_profiler::{module}_{function}_{counter}`, whose
 * schema holds the function's tensor arguments only, in order (its other
 * arguments are passed aside); the counter differs from run to run, so
 * such a name is looked up without its `_N` suffix. Its kernels are the
 * wrapped function's; an ATen op the function calls is an op of its own,
 * inside it, whose kernels link to that op, not to the wrapper.
 *
 * Bad shapes (a cu_seqlens of one entry, max_seqlen_q x B below T, fewer
 * keys than queries for causal attention, a rotary width above head_size,
 * a cache write of more elements than the cache) leave the call uncovered
 * with the reason. Pure: no I/O, no globals but the constant table.
 */
#include "core/trace_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CK_ELEMENTWISE, CK_ROTARY, CK_ATTENTION, CK_ATTENTION_PAGED, CK_COLLECTIVE, CK_MOE, CK_TBE, CK_UNCOVERED };
enum { CT_READ, CT_WRITE, CT_MODIFY, CT_OUTPUT };
#define CUSTOM_MAX_T 12

typedef struct custom_tensor {
  int32_t role; /* CT_* */
  int32_t arg;  /* the argument's position */
  int32_t ref;  /* count numel(ref) elements instead of numel(arg); -1 none */
  double es;    /* bytes per element instead of the argument's type; 0 none */
} custom_tensor;

typedef struct custom_def {
  const char *name; /* as recorded; the table is sorted by it (strcmp) */
  int32_t kind;     /* CK_* */
  int32_t nt;
  custom_tensor t[CUSTOM_MAX_T];
  double flops;  /* elementwise: per element of `elems`; attention: times the
                    forward's (0: 1; a backward 2.5) */
  int32_t elems; /* elementwise: the argument whose numel F counts; -1 none */
  /* argument positions (-1: none) */
  int32_t q, k, v, cu_q, cu_k, kv_pages, max_q, causal, window, paged, in, rot, head, x, logits;
  /* tbe: the table's weights (on the device, in UVM), the cache's rows,
   * D_offsets, indices, offsets, pooling_mode, the rowwise optimizer's
   * momentum (device, UVM), output_dtype */
  int32_t weights, uvm, cache, d_offsets, indices, offsets, pooling, momentum, momentum_uvm, out_dtype;
  int32_t outputs;     /* moe: outputs of the hidden states' shape */
  int32_t causal_mask; /* causal is a mask type: > 0 causal */
  int32_t bthd;        /* attention: query [B, T, H, d] (else [T, H, d]) */
  int32_t coll;        /* collective: RLI_COLL_* */
  int32_t nargs;       /* the arguments its schema records; 0 any */
  int32_t none;        /* an argument that must be recorded as None; -1 none */
  const char *reason;  /* uncovered: why; moe: why without the model */
  const char *source;
} custom_def;

static const custom_def table[] = {
#include "core/custom_table.inc"
};

static int cmp_def(const void *k, const void *e) {
  return strcmp((const char *)k, ((const custom_def *)e)->name);
}

static const custom_def *find(const char *name) {
  const custom_def *d = bsearch(name, table, sizeof table / sizeof table[0], sizeof table[0], cmp_def);
  if (d || !RLI_STARTS(name, "sglang_profiler::")) return d;
  /* sglang_profiler::{module}_{function}_{counter}: the row names it
   * without the counter */
  size_t n = strlen(name), k = n;
  while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9') k--;
  if (k == n || k == 0 || name[k - 1] != '_' || k - 1 >= 96) return NULL;
  char base[96];
  memcpy(base, name, k - 1);
  base[k - 1] = 0;
  return bsearch(base, table, sizeof table / sizeof table[0], sizeof table[0], cmp_def);
}

int rli_custom_has(const char *name) { return find(name) != NULL; }

int rli_custom_moe(const char *name) {
  const custom_def *d = find(name);
  return d && d->kind == CK_MOE;
}

const char *rli_custom_name(size_t i) {
  return i < sizeof table / sizeof table[0] ? table[i].name : NULL;
}


/* a recorded tensor argument: a shape and an element type of known size */
static int tensor_at(const rli_aten_args *a, int i) {
  return i >= 0 && i < a->n_in && i < RLI_ATEN_MAX_IN && a->ndim[i] >= 0 && i < a->n_types &&
         rli_torch_type_bytes(a->types[i]) > 0;
}

static double numel(const rli_aten_args *a, int i) {
  double n = 1;
  for (int d = 0; d < a->ndim[i]; d++) n *= a->dims[i][d];
  return n;
}

/* a concrete scalar argument: 1 with *v, 0 when not recorded */
static int scalar_at(const rli_aten_args *a, int i, double *v) {
  if (i < 0 || i >= a->n_concrete || !a->concrete[i][0]) return 0;
  const char *s = a->concrete[i];
  if (!strcmp(s, "True") || !strcmp(s, "true")) {
    *v = 1;
    return 1;
  }
  if (!strcmp(s, "False") || !strcmp(s, "false")) {
    *v = 0;
    return 1;
  }
  char *end;
  *v = strtod(s, &end);
  return end != s && *end == 0 && isfinite(*v);
}

/* The bytes of the row's tensors (skipping arguments k and v when skip_kv),
 * the query and key of a rotary row scaled by `scale`. 0 with why on a bad
 * shape. */
static int tensor_bytes(const custom_def *d, const rli_aten_args *a, int skip_kv, double scale,
                        double *Q, int32_t *dt, char *why, size_t cap) {
  *Q = 0;
  *dt = -1;
  for (int pass = 0; pass < 2; pass++)
    for (int j = 0; j < d->nt; j++) {
      const custom_tensor *t = &d->t[j];
      int reads = t->role == CT_READ || t->role == CT_MODIFY;
      if (pass == 0 ? !reads : reads) continue; /* the roof's format: a read tensor's first */
      if (skip_kv && (t->arg == d->k || t->arg == d->v)) continue;
      /* an optional tensor not passed (Tensor? None): nothing moved */
      if (!tensor_at(a, t->arg)) continue;
      double es = t->es > 0 ? t->es : rli_torch_type_bytes(a->types[t->arg]);
      double n = numel(a, t->arg);
      if (t->ref >= 0) {
        if (!tensor_at(a, t->ref))
          return rli_why_fail(why, cap, "%s: argument %d (the rows it addresses) not recorded", d->name,
                      t->ref);
        double rows = numel(a, t->ref);
        if (rows > n)
          return rli_why_fail(why, cap, "%s: %g elements addressed in argument %d of %g", d->name, rows,
                      t->arg, n);
        n = rows;
      }
      if (d->kind == CK_ROTARY && t->role == CT_MODIFY) n *= scale; /* the query and key */
      *Q += n * es * (t->role == CT_MODIFY ? 2 : 1);
      if (*dt < 0) *dt = rli_torch_dtype(a->types[t->arg]);
    }
  return 1;
}

static void set_cost(rli_cost *c, double F, double Q, int32_t dt, int tensor) {
  c->flops = F;
  c->bytes = Q;
  c->dtype = F > 0 ? dt : -1;
  c->tensor = tensor;
  c->roof = F > 0 ? RLI_ROOF_CHIP : RLI_ROOF_HBM;
  c->coll = -1;
  c->reason = 0;
}

static int elementwise(const custom_def *d, const rli_aten_args *a, rli_cost *c, char *why,
                       size_t cap) {
  double Q, F = 0, scale = 1;
  int32_t dt;
  if (d->kind == CK_ROTARY) {
    double head;
    if (!tensor_at(a, d->rot) || a->ndim[d->rot] != 2 || !scalar_at(a, d->head, &head))
      return rli_why_fail(why, cap, "%s: cos_sin_cache or head_size not recorded", d->name);
    double rot = a->dims[d->rot][1];
    if (!(head > 0) || !(rot > 0) || rot > head)
      return rli_why_fail(why, cap, "%s: rotary width %g of a head of %g: not a share of it", d->name, rot,
                  head);
    scale = rot / head;
  }
  if (!tensor_bytes(d, a, 0, scale, &Q, &dt, why, cap)) return 0;
  if (d->kind == CK_ROTARY) {
    double n = 0;
    for (int j = 0; j < d->nt; j++)
      if (d->t[j].role == CT_MODIFY && tensor_at(a, d->t[j].arg)) n += numel(a, d->t[j].arg);
    F = 3 * n * scale;
  } else if (d->flops > 0) {
    if (!tensor_at(a, d->elems))
      return rli_why_fail(why, cap, "%s: argument %d not recorded", d->name, d->elems);
    F = d->flops * numel(a, d->elems);
  }
  if (!(Q > 0)) return rli_why_fail(why, cap, "%s: no tensor of known size and type recorded", d->name);
  if (F > 0 && dt < 0)
    return rli_why_fail(why, cap, "%s: no floating-point tensor for its roof", d->name);
  set_cost(c, F, Q, dt, 0);
  return 1;
}

/* The pairs (query, key) attended; *exact 0 when a lower bound. 0 with why
 * when the shapes cannot be this op's. */
static int attention(const custom_def *d, const rli_aten_args *a, rli_cost *c, char *why,
                     size_t cap, char *note, size_t ncap) {
  int r = d->bthd ? 4 : 3;
  if (!tensor_at(a, d->q) || a->ndim[d->q] != r)
    return rli_why_fail(why, cap, "%s: expected a %d-D query", d->name, r);
  if (!tensor_at(a, d->k) || !tensor_at(a, d->v) || a->ndim[d->k] < 3 || a->ndim[d->v] < 3)
    return rli_why_fail(why, cap, "%s: expected key and value of 3 or more dimensions", d->name);
  const double *qd = a->dims[d->q];
  double H = qd[r - 2], Dq = qd[r - 1], Dv = a->dims[d->v][a->ndim[d->v] - 1];
  double causal = 0;
  if (d->causal >= 0 && !scalar_at(a, d->causal, &causal))
    return rli_why_fail(why, cap, "%s: causal flag not recorded (Concrete Inputs)", d->name);
  int is_causal = causal > 0;
  double win;
  int windowed = d->window >= 0 && scalar_at(a, d->window, &win) && win >= 0;
  int paged = d->paged >= 0 && tensor_at(a, d->paged) && a->ndim[d->paged] >= 1 &&
              numel(a, d->paged) > 0;
  int varlen = d->cu_q >= 0 && tensor_at(a, d->cu_q) && a->ndim[d->cu_q] == 1;
  double B, T, S = -1, Q, pairs;
  int exact = 1, kv_lower = 0;
  if (varlen) {
    double n = a->dims[d->cu_q][0];
    if (n < 2)
      return rli_why_fail(why, cap, "%s: cu_seqlens_q of %g entries: no sequence", d->name, n);
    if (d->bthd && qd[0] != 1)
      return rli_why_fail(why, cap, "%s: sequence starts with a batch of %g (expected 1)", d->name, qd[0]);
    B = n - 1;
    T = d->bthd ? qd[0] * qd[1] : qd[0];
  } else if (!d->bthd) {
    return rli_why_fail(why, cap, "%s: cu_seqlens_q not recorded (a 1-D tensor)", d->name);
  } else {
    B = qd[0];
    T = qd[0] * qd[1];
  }
  if (!(T >= 1) || !(H >= 1) || !(Dq >= 1) || !(Dv >= 1))
    return rli_why_fail(why, cap, "%s: an empty query (%g tokens)", d->name, T);
  /* the key tokens, in all: -1 not known */
  const double *kd = a->dims[d->k];
  int kr = a->ndim[d->k];
  double kv_row = 0; /* K elements per key token (kv_pages) */
  if (paged) {
    S = -1;
  } else if (d->kv_pages >= 0) {
    if (!tensor_at(a, d->kv_pages) || a->ndim[d->kv_pages] != 1)
      return rli_why_fail(why, cap, "%s: its page indices not recorded", d->name);
    S = numel(a, d->kv_pages); /* at least one token per page */
    if (kr == 3) {
      kv_row = kd[1] * kd[2];
    } else {
      kv_row = (kd[1] < kd[2] ? kd[1] : kd[2]) * kd[kr - 1]; /* NHD or HND: the smaller */
      kv_lower = 1;
    }
  } else {
    S = d->bthd ? (varlen ? kd[0] * kd[1] : kd[1]) : kd[0];
  }
  double max_q;
  int equal = B == 1;
  if (varlen && d->max_q >= 0 && scalar_at(a, d->max_q, &max_q)) {
    if (max_q * B < T || max_q > T || !(max_q >= 1))
      return rli_why_fail(why, cap,
                  "%s: max_seqlen_q %g with %g sequences cannot hold %g query tokens (cu_seqlens "
                  "not increasing, or not this batch's)", d->name, max_q, B, T);
    equal = equal || max_q * B == T;
  }
  if (!varlen) {
    /* dense: B sequences of T / B queries and S keys each */
    double Tq = T / B;
    if (is_causal && S < Tq)
      return rli_why_fail(why, cap, "%s: causal with %g keys for %g queries", d->name, S, Tq);
    pairs = windowed ? T : B * Tq * S * (is_causal ? 0.5 : 1);
    exact = !windowed;
  } else {
    if (is_causal && S >= 0 && S < T)
      return rli_why_fail(why, cap, "%s: causal with %g key tokens for %g query tokens", d->name, S, T);
    if (windowed) {
      pairs = T;
      exact = 0;
    } else if (equal && S >= 0) {
      pairs = T * S / B - (is_causal ? T * T / (2 * B) : 0);
      exact = !kv_lower;
    } else {
      pairs = is_causal ? T * T / (2 * B) : T;
      exact = 0;
    }
  }
  double F = H * pairs * (2 * Dq + 2 * Dv + 5) * (d->flops > 0 ? d->flops : 1);
  int32_t dt;
  if (!tensor_bytes(d, a, paged, 1, &Q, &dt, why, cap)) return 0;
  if (d->kv_pages >= 0 && !paged)
    Q += 2 * S * kv_row * rli_torch_type_bytes(a->types[d->k]); /* K and V rows addressed */
  int32_t qdt = rli_torch_dtype(a->types[d->q]);
  if (qdt < 0) return rli_why_fail(why, cap, "%s: query of type %s: no roof", d->name, a->types[d->q]);
  set_cost(c, F, Q, qdt, 1);
  if (paged || kv_lower) c->lower = RLI_LOWER_BYTES;
  if (!exact || paged || kv_lower)
    snprintf(note, ncap, "%s: FLOPs at least %s%s", d->name,
             windowed ? "one key per query (a sliding window)"
             : !varlen || equal ? "those of the lengths recorded"
             : is_causal ? "2 H d T^2 / B (equal lengths: the sequences' lengths not recorded)"
                         : "one key per query (the lengths not recorded)",
             paged ? "; K and V (a paged cache) not counted"
             : kv_lower ? "; K and V at least one token per page" : "");
  return 1;
}

static int attention_paged(const custom_def *d, const rli_aten_args *a, rli_cost *c, char *why,
                           size_t cap) {
  if (!tensor_at(a, d->q) || a->ndim[d->q] < 2)
    return rli_why_fail(why, cap, "%s: expected a query of 2 or 3 dimensions", d->name);
  const double *qd = a->dims[d->q];
  double T = qd[0], n = numel(a, d->q);
  double H = a->ndim[d->q] >= 3 ? qd[1] : 1;
  if (!(T >= 1) || !(n >= T)) return rli_why_fail(why, cap, "%s: an empty query", d->name);
  /* T H (4 d + 5) with H d = n / T */
  double F = 4 * n + 5 * T * H, Q;
  int32_t dt;
  if (!tensor_bytes(d, a, 0, 1, &Q, &dt, why, cap)) return 0;
  int32_t qdt = rli_torch_dtype(a->types[d->q]);
  if (qdt < 0) return rli_why_fail(why, cap, "%s: query of type %s: no roof", d->name, a->types[d->q]);
  set_cost(c, F, Q, qdt, 1);
  c->lower = RLI_LOWER_BYTES;
  return 1;
}

/* bits a weight of a matrix whose rows hold `row` weights, at the fewest
 * (the moe kind above) */
static double moe_bits(double row) { return fmod(row, 256) == 0 ? 1.5625 : 4; }

static int moe(const custom_def *d, const rli_aten_args *a, const rli_moe *m, rli_cost *c, char *why,
               size_t cap, char *note, size_t ncap) {
  if (!tensor_at(a, d->x) || a->ndim[d->x] != 2 || !tensor_at(a, d->logits) || a->ndim[d->logits] != 2)
    return rli_why_fail(why, cap, "%s: expected 2-D hidden states and router logits", d->name);
  double T = a->dims[d->x][0], dx = a->dims[d->x][1], E = a->dims[d->logits][1];
  if (!(T >= 1) || a->dims[d->logits][0] != T)
    return rli_why_fail(why, cap, "%s: %g tokens of hidden states, %g of router logits", d->name, T,
                        a->dims[d->logits][0]);
  if (E != m->experts) {
    snprintf(why, cap, "%s: router logits over %g experts, but --model %s has %g routed experts", d->name, E,
             m->id, m->experts);
    return -1;
  }
  if (dx < m->d) {
    snprintf(why, cap, "%s: hidden states %g wide, narrower than --model %s's d_model %g", d->name, dx, m->id,
             m->d);
    return -1;
  }
  double bx = rli_torch_type_bytes(a->types[d->x]), bl = rli_torch_type_bytes(a->types[d->logits]);
  int32_t dt = rli_torch_dtype(a->types[d->x]);
  if (dt < 0) return rli_why_fail(why, cap, "%s: hidden states of type %s: no roof", d->name, a->types[d->x]);
  double n = m->world > 1 ? m->world : 1;
  double e = m->active + (d->outputs > 1 ? m->shared : 0); /* experts a token uses */
  double mats = m->gated ? 3 : 2;
  double F = 2 * T * e * mats * m->d * m->d_ff / n;
  double fewest = m->d * m->d_ff * ((mats - 1) * moe_bits(m->d) + moe_bits(m->d_ff)) / 8; /* one expert */
  double W = m->wfmt ? (m->active * ((mats - 1) * rl_wfmt_matrix_bytes(m->wfmt, m->d, m->d_ff) +
                                     rl_wfmt_matrix_bytes(m->wfmt, m->d_ff, m->d)) +
                        (e - m->active) * fewest) / n
                     : e * fewest / n;
  double o = d->outputs > 1 ? d->outputs : 1;
  double Q = T * m->d * bx * (1 + o) + T * E * bl + W;
  set_cost(c, F, Q, dt, 1);
  c->lower = RLI_LOWER_BYTES;
  char pad[80] = "", share[96] = "";
  if (dx > m->d) snprintf(pad, sizeof pad, "; hidden states padded %g -> %g, the padding not counted", m->d, dx);
  if (n > 1) snprintf(share, sizeof share, "; a 1/%g share (tensor parallelism over the world size)", n);
  char bits[96];
  if (m->wfmt)
    snprintf(bits, sizeof bits, "%s (%g bits with its scales: the model's checkpoint)", rl_wfmt_name(m->wfmt),
             rl_wfmt_matrix_bytes(m->wfmt, m->d, m->d_ff) * 8 / (m->d * m->d_ff));
  else if (moe_bits(m->d) == moe_bits(m->d_ff)) snprintf(bits, sizeof bits, "%g bits", moe_bits(m->d));
  else snprintf(bits, sizeof bits, "%g (gate, up) and %g (down) bits", moe_bits(m->d), moe_bits(m->d_ff));
  snprintf(note, ncap, "experts from --model %s (d %g, d_ff %g, %g of %g experts a token); bytes: at least %g "
           "experts' weights at %s%s%s", m->id, m->d, m->d_ff, e, m->experts, e, bits, pad, share);
  return 1;
}

/* The elements of argument i when it is a recorded tensor, else 0 */
static double numel_or0(const rli_aten_args *a, int i) { return tensor_at(a, i) ? numel(a, i) : 0; }

/* FBGEMM's table-batched embedding lookup on one table (the tbe kind
 * above). 0 with why when the call cannot be bounded. */
static int tbe(const custom_def *d, const rli_aten_args *a, rli_cost *c, char *why, size_t cap, char *note,
               size_t ncap) {
  if (!tensor_at(a, d->d_offsets) || a->ndim[d->d_offsets] != 1 || !tensor_at(a, d->indices) ||
      a->ndim[d->indices] != 1 || !tensor_at(a, d->offsets) || a->ndim[d->offsets] != 1)
    return rli_why_fail(why, cap, "%s: D_offsets, indices or offsets not recorded as 1-D tensors", d->name);
  double T = a->dims[d->d_offsets][0] - 1;
  if (T != 1)
    return rli_why_fail(why, cap, "%s: a lookup on %g tables: each table's D is recorded only as "
                                  "D_offsets' length, and the mean D (the weights over the momentum rows) "
                                  "is no lower bound on the rows read", d->name, T);
  /* the table's weights and its rows: on the device or in UVM (one of
   * the two holds the table) */
  double W = numel_or0(a, d->weights) + numel_or0(a, d->uvm);
  double R = numel_or0(a, d->momentum) + numel_or0(a, d->momentum_uvm);
  int wi = tensor_at(a, d->weights) && numel(a, d->weights) > 0 ? d->weights : d->uvm;
  int32_t wdt = tensor_at(a, wi) ? rli_torch_dtype(a->types[wi]) : -1;
  if (wdt != RL_FP32 && wdt != RL_FP16 && wdt != RL_BF16)
    return rli_why_fail(why, cap, "%s: weights of type %s: a row is D elements only in fp32, fp16 or bf16",
                        d->name, tensor_at(a, wi) ? a->types[wi] : "(not recorded)");
  if (!(R >= 1))
    return rli_why_fail(why, cap, "%s: momentum rows %g (momentum1_dev and _uvm): D not known", d->name, R);
  if (!(W >= R) || fmod(W, R) != 0)
    return rli_why_fail(why, cap, "%s: %g weights over %g momentum rows: not a whole D (the optimizer "
                                  "keeps no one value per row, or the sizes are not this table's)",
                        d->name, W, R);
  double D = W / R, L = numel(a, d->indices), B = a->dims[d->offsets][0] - 1;
  if (!(B >= 0))
    return rli_why_fail(why, cap, "%s: offsets of no entry: no bag", d->name);
  /* a row read from the weights or, for a cached table, from the cache:
   * the smaller element of the two */
  double es = rli_torch_type_bytes(a->types[wi]);
  if (tensor_at(a, d->cache) && numel(a, d->cache) > 0) {
    double ce = rli_torch_type_bytes(a->types[d->cache]);
    if (ce > 0 && ce < es) es = ce;
  }
  /* the output: [B, D] pooled (SUM 0, MEAN 1), [L, D] not (NONE 2);
   * output_dtype FP32 0, FP16 1, BF16 5, INT8 2 (D + 8 bytes a row: its
   * scale and bias) */
  double pm = -1, od = -1, orows, obytes;
  int has_pm = d->pooling >= 0 && scalar_at(a, d->pooling, &pm);
  int has_od = d->out_dtype >= 0 && scalar_at(a, d->out_dtype, &od);
  if (has_pm && pm != 0 && pm != 1 && pm != 2)
    return rli_why_fail(why, cap, "%s: pooling_mode %g: not SUM (0), MEAN (1) or NONE (2)", d->name, pm);
  orows = !has_pm ? (B < L ? B : L) : pm == 2 ? L : B;
  if (!has_od) obytes = D + 8 < 2 * D ? D + 8 : 2 * D;
  else if (od == 0) obytes = 4 * D;
  else if (od == 1 || od == 5) obytes = 2 * D;
  else if (od == 2) obytes = D + 8;
  else return rli_why_fail(why, cap, "%s: output_dtype %g: not one the lookup writes", d->name, od);
  double Q;
  int32_t dt;
  if (!tensor_bytes(d, a, 0, 1, &Q, &dt, why, cap)) return 0;
  Q += L * D * es + orows * obytes;
  set_cost(c, 0, Q, -1, 0);
  c->lower = RLI_LOWER_BYTES;
  snprintf(note, ncap, "%s: one table, D its weights over its momentum rows; bytes at least the rows "
           "looked up (indices x D), the indices, offsets and per-sample weights once, and the output%s; "
           "F 0 (the pooling's sums not counted)", d->name,
           has_od ? "" : " at its fewest bytes (output_dtype not recorded)");
  return 1;
}

int rli_custom_cost(const char *name, const rli_aten_args *a, const rli_moe *m, rli_cost *c, char *why,
                    size_t cap, char *note, size_t ncap) {
  const custom_def *d = find(name);
  rli_cost_init(c, RL_REASON_SHAPES);
  if (ncap) note[0] = 0;
  if (!d) {
    c->reason = RL_REASON_NO_MODEL;
    return rli_why_fail(why, cap, "no cost model for %s", name);
  }
  if (d->kind == CK_UNCOVERED || (d->kind == CK_MOE && !(m && m->experts > 0)))
    return rli_why_fail(why, cap, "%s: %s", d->name, d->reason);
  if (!a->has_dims) {
    c->reason = RL_REASON_NO_SHAPES;
    return rli_why_fail(why, cap, "no shapes recorded for it (record_shapes=True)");
  }
  if (d->nargs > 0 && a->n_in != d->nargs)
    return rli_why_fail(why, cap, "%s: %d arguments recorded where its schema has %d: another version "
                                  "of the op, or another op of that name", name, (int)a->n_in,
                        (int)d->nargs);
  if (d->none >= 0 && (d->none >= a->n_in || (d->none < a->n_types && a->types[d->none][0]) ||
                       (d->none < a->n_concrete && a->concrete[d->none][0])))
    return rli_why_fail(why, cap, "%s: argument %d given (not None): the op may touch only part of "
                                  "its input", name, (int)d->none);
  switch (d->kind) {
  case CK_COLLECTIVE: {
    if (!tensor_at(a, d->in) || a->ndim[d->in] < 1)
      return rli_why_fail(why, cap, "%s: its input tensor not recorded", d->name);
    double S = numel(a, d->in) * rli_torch_type_bytes(a->types[d->in]);
    int ok = rli_coll_cost(d->coll, S, -1, c, why, cap);
    if (ok) c->dtype = rli_torch_dtype(a->types[d->in]);
    return ok;
  }
  case CK_ATTENTION:
    return attention(d, a, c, why, cap, note, ncap);
  case CK_MOE:
    return moe(d, a, m, c, why, cap, note, ncap);
  case CK_TBE:
    return tbe(d, a, c, why, cap, note, ncap);
  case CK_ATTENTION_PAGED:
    if (!attention_paged(d, a, c, why, cap)) return 0;
    snprintf(note, ncap, "%s: context not recorded: each query at least its own key; bytes the "
                         "tensors its row lists (its query and output; the new K and V rows when "
                         "they are arguments)", d->name);
    return 1;
  default:
    return elementwise(d, a, c, why, cap);
  }
}
