/*
 * trace_kineto.c -- a streaming reader of PyTorch profiler (Kineto) Chrome
 * traces: one pass over the text, no document tree.
 *
 * Format (shared/docs/trace-formats.md section 1; the Chrome trace-event
 * format): a top-level object with "traceEvents" (or a bare array of
 * events), "deviceProperties" and metadata on either side of it; `ts` and
 * `dur` in microseconds whatever "displayTimeUnit" says. Categories of
 * every era are accepted: kernel/Kernel, cpu_op/Operator/user_annotation,
 * cuda_runtime/Runtime/cuda_driver, cuda_profiler_range, and of the
 * python_function events (with_stack=True) the modules ("nn.Module: X").
 * Everything else (other Python frames, flows, memory events, ...) is
 * validated and skipped as it streams past.
 *
 * Linking a kernel to its op (trace-formats.md 1.10, HTA's algorithm):
 * kernel.args.correlation -> the cuda_runtime/cuda_driver launch event with
 * the same correlation -> the innermost cpu_op (or user_annotation) on the
 * launch's pid/tid whose interval contains the launch. "External id" is not
 * used: in 2023-era traces it equals the correlation and names no op. The
 * innermost nn.Module around that op (on the same thread) is its module,
 * for the fusion candidates.
 *
 * Memory: per CPU op 24 bytes (its times, its interned (name, cost) pair,
 * its parent) and per launch call 3 to 6 bytes packed (16 when the ids
 * come in more than 256 increasing runs; below) are kept until the end (Kineto writes every
 * CPU op before the GPU activity, so linking needs them); a kernel takes a
 * few bytes in the trace's store (src/core/trace_store.c); names and costs are
 * interned. The JSON tokenizer is json_scan.c (json_scan.h).
 * Strings are read as views into the read buffer, not copied.
 *
 * CUPTI range-profiler events carry SASS counters, not kernel times; F per
 * Nsight Compute's roofline weights: dadd + dmul + 2 dfma, fadd + fmul +
 * 2 ffma, 2 hadd + 2 hmul + 4 hfma (packed half2; trace-formats.md 2.6).
 */
#include "io/json_scan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the reader's state --------------------------------------------------- */
enum { C_OTHER, C_KERNEL, C_OP, C_RUNTIME, C_RANGE, C_MEMCPY, C_MEMSET, C_PYFN };

/* One CPU op: 24 bytes. kind: its (label, cost) pair, an index into
 * kin.kinds; once a kernel links to it, LINKED | its index in kin.lk (the op
 * instance). parent: the nearest earlier op containing it (set when
 * linking). An nn.Module (python_function) is kept as an op whose cost is
 * RLI_NONE: it is never a kernel's op, only the module around one. */
#define LINKED 0x80000000u
typedef struct op_rec {
  double s, e;
  uint32_t kind, parent;
} op_rec;

typedef struct op_kind {
  uint32_t label, cost;
} op_kind;

typedef struct op_link {
  uint32_t inst, kind; /* the op's instance, and its kind before it linked */
} op_link;

typedef struct thread {
  uint64_t key;
  op_rec *ops;
  size_t n, cap;
  int sorted;
} thread;

/* One launch call (cudaLaunchKernel, ...): 16 bytes, what linking needs
 * (its correlation id, thread, start and end). Times are kept as integer
 * nanoseconds when ts and dur are exactly such (ts = N/1000 for an
 * integer N: the double the file's decimal gives, as IEEE division is
 * correctly rounded), so that start and end come back as the very doubles
 * read; a launch that does not fit (id past 2^32, other times, past 65534
 * threads) is kept whole in kin.lwide and this record points there
 * (thread LW_WIDE, at its index). No hash map: the records are searched by
 * id once, at linking (sorted as they came, else through a sorted index). */
#define LW_WIDE 0xffffu
#define KBIG 0xfffffff0u /* a kernel's correlation id past 32 bits */
typedef struct launch {
  uint32_t corr, dur_ns;
  uint64_t at; /* start in ns minus kin.lbase (48 bits, two's complement) << 16 | thread */
} launch;

typedef struct launch_wide {
  int64_t corr;
  double s, e;
  uint32_t thread;
} launch_wide;

/* A launch as linking reads it. */
typedef struct launch_view {
  double s, e;
  uint32_t thread;
} launch_view;

/* While the ids come in a few runs, each strictly increasing (as CUPTI
 * numbers the calls; Kineto writes a thread's calls, or a profiling
 * window's, one run after another), the launches are kept packed instead,
 * in blocks of up to LZ_N: per launch a varint of (id - the id before - 1)
 * x 8 + flags (wide, thread changed, same duration), the start in integer
 * ns as a zigzag difference from the one before, the duration likewise
 * unless the same, the thread when it changed: 3 to 5 bytes. A block
 * starts with an anchor (the state before it and its first id); linking
 * finds an id run by run, in the order they came (so that the first
 * launch of an id wins), by the anchors, then decodes its block (cached:
 * kernels come nearly in id order; a block's last id spares decoding it
 * for an id past it). Past LZ_RUNS runs the packed launches
 * are unpacked into the 16-byte records above, and those take every
 * launch from then on. */
#define LZ_N 128
#define LZ_RUNS 256
/* A packed block decoded (kin.lc: a few, least recently used replaced:
 * an id may be looked for in two runs' blocks in turn). */
#define LZ_CACHE 4
typedef struct lz_cache {
  size_t b;            /* the block; SIZE_MAX none */
  size_t n;
  uint64_t used;       /* when last used */
  int64_t corr[LZ_N];
  launch_view v[LZ_N];
  double dur[LZ_N];    /* the dur read (v.e = v.s + dur) */
  uint8_t wide[LZ_N];
} lz_cache;

typedef struct lz_run {
  size_t b0;     /* its first block */
  int64_t last;  /* its last id */
} lz_run;
enum { LZ_WIDE = 4, LZ_THREAD = 2, LZ_DSAME = 1 };
typedef struct lz_anchor {
  int64_t first, last; /* the block's first and last ids */
  int64_t corr, n, d;  /* the state before it: id, start and duration in ns */
  uint32_t thread;
  size_t off, wide;    /* its bytes, its first kin.lwide index */
} lz_anchor;

typedef struct dev_prop {
  int64_t id;
  char name[RL_HW_TEXT_MAX];
  double mem;
  int32_t major, minor;
  int32_t sms, warp; /* numSms (AMD: CUs), warpSize */
} dev_prop;

typedef struct name_ent {
  uint64_t h;
  size_t off, len;
  uint32_t id;
} name_ent;

/* What the output-size inference keeps (only convolution ops): a forward
 * convolution without stride or padding (its place among its thread's
 * ops, its input, weight and bias shapes, and the first input of the op
 * that starts first after it on its thread: its consumer), the spans of
 * the ops that carry a sequence number (forward convolutions; backward
 * nodes), and the backward convolutions with their grad_output. */
typedef struct conv_pend {
  uint32_t th, idx, label;
  double s, e;
  int64_t seq; /* -1: none of its own */
  int32_t ndim[3];
  double dims[3][5];
  char types[3][32];
  int32_t ncons;     /* the consumer's input 0: its rank; -1 none usable; 0 none seen */
  uint32_t look;     /* ops after it on its thread still to look at */
  uint32_t cons_label;
  double cons_s;
  double cons[5];
} conv_pend;

typedef struct seq_span {
  uint32_t th;
  double s, e;
  int64_t seq;
} seq_span;

typedef struct conv_bwd {
  uint32_t th;
  int32_t nd;
  double s, e;
  double go[5];
  int64_t seq;
} conv_bwd;

/* Autograd nodes whose kernels may run under no shaped op, and the forward
 * ops they can take shapes from (by sequence number). */
typedef struct seq_fwd {
  int64_t seq;
  double s;
  uint32_t label, cost; /* the forward op's name; its backward's cost */
} seq_fwd;

typedef struct seq_node {
  int64_t seq;
  double s;
  uint32_t th, idx, label;
} seq_node;

/* A HIP memcpy call's byte count (its args.bytes, or args.size in ROCm
 * 6.x; a string in both: "2560"), for the copy of its correlation id,
 * whose event records none. */
typedef struct call_bytes {
  int64_t corr;
  double bytes;    /* as read: -1e300 unreadable */
  uint32_t label;  /* the call's name */
  uint32_t size;   /* 1: from args.size */
} call_bytes;

/* PyTorch 1.8-1.10 record aten::cudnn_convolution_backward_input(self_size,
 * grad_output, weight, ...) and _weight(weight_size, grad_output, self, ...)
 * with the size as an empty list (a GenericList, no Concrete Inputs); the
 * enclosing aten::cudnn_convolution_backward(self, grad_output, weight, ...)
 * on the same thread holds the three tensors. What the reader keeps of each:
 * the children left without a cost, the parents' shapes (kept only while
 * such a child was seen). */
typedef struct cbw_op {
  uint32_t th, idx, label;
  double s, e;
  int32_t ndim[3];
  double dims[3][5];
  char types[3][32];
} cbw_op;

typedef struct named_launch {
  int64_t corr;
  uint32_t name;
} named_launch;

/* a cudaStreamBeginCapture (begin 1) or EndCapture call */
typedef struct cap_mark {
  double s, e;
  int64_t pid;
  uint32_t thread;
  int begin;
} cap_mark;

typedef struct graph_launch {
  int64_t corr, pid;
} graph_launch;

typedef struct cap_launch {
  double s, e;
  uint32_t name, th, op, pos;
} cap_launch;

typedef struct replay_k {
  int64_t corr;
  double s;
  size_t i;
} replay_k;

/* An args key as an event of the same category wrote it at the same place
 * in its args before: its bytes from the cursor (one blank or none, the
 * '"', the key, the '"', the ':'), at most 32, with the masks of their
 * length, and what arg_key made of it (parse_args). */
struct akey_memo {
  uint64_t w[4], m[4];
  uint8_t n;     /* the bytes; 0: none kept */
  uint8_t kid;   /* arg_key's answer, and its *which */
  int8_t which;
};

typedef struct kin {
  rli_js p;
  rl_trace *t;
  thread *th;
  size_t nth, capth;
  uint32_t *thmap;
  size_t thmapcap;
  launch *ln;
  size_t nln, capln;
  launch_wide *lwide;   /* launches that do not fit a compact record */
  size_t nlwide, caplwide;
  int64_t lbase;        /* ns: the first compact launch's start */
  int have_lbase;
  int64_t lastcorr;     /* the last launch's id */
  int ln_unsorted;      /* ids not strictly increasing as they came: the
                           launches in ln, else packed in lz */
  uint32_t *lnidx;      /* ln_unsorted: launch indices by (id, index) */
  uint8_t *lz;          /* the packed launches: LZ_N a block */
  size_t nlz, caplz;
  lz_anchor *la;        /* one per block */
  size_t nla, capla;
  lz_anchor lzs;        /* the state after the last packed launch */
  size_t lzin;          /* launches in the last block */
  lz_run lrun[LZ_RUNS]; /* the runs of increasing ids */
  size_t nlrun;
  uint16_t lrord[LZ_RUNS]; /* at linking (launch_index): the runs by first id, */
  int64_t lrfirst[LZ_RUNS], lrmax[LZ_RUNS]; /* its first id, the largest last id so far */
  int lrsorted;
  lz_cache *lc;         /* LZ_CACHE decoded blocks, at linking */
  uint64_t lclock;
  size_t nkc;     /* kernels added by this file; until linking each keeps
                     its correlation id in its inst field */
  int64_t *kbig;  /* the ids >= KBIG of those kernels, in their order */
  size_t nkbig, capkbig;
  size_t k0;      /* kernels in t before this file */
  dev_prop dev[16];
  int ndev;
  int64_t kdev;   /* device of the first kernel */
  int have_origin;
  double origin;  /* microseconds subtracted from every ts */
  int64_t events;
  char *name;     /* the current event's name */
  size_t namecap, namelen;
  int ranges, kernels_timed;
  int64_t ops_shaped, ops;
  int64_t modules; /* nn.Module events kept */
  /* convolution output sizes by sequence number (2021-2023 traces) */
  struct conv_pend *pend;  /* forward convs without stride/padding */
  size_t npend, cappend;
  struct seq_span *anchor, *node; /* forward convs / backward nodes with a seq */
  size_t nanchor, capanchor, nnode, capnode;
  struct conv_bwd *bwd;    /* backward conv ops: their grad_output */
  size_t nbwd, capbwd;
  struct seq_fwd *sfwd;    /* forward ops with a backward model */
  size_t nsfwd, capsfwd;
  struct seq_node *snode;  /* autograd nodes without a cost of their own */
  size_t nsnode, capsnode;
  int32_t world;  /* distributedInfo.world_size; 0 unknown */
  int moe_unsized; /* an MoE op costed with the model before the world size
                      was read (rli_aten_cost_moe shares its experts over it) */
  /* CPU traces: the top level's processor and intra-op threads
   * (roofline.profile writes them), the GPU activity skipped (--cpu) */
  char cpu_model[80], cpu_vendor[16];
  int32_t threads, cpu_family, cpu_model_id; /* -1 unknown */
  int64_t gpu_skipped;
  uint32_t *noshape; /* cost of an op label recorded without shapes */
  size_t nocache;
  op_kind *kinds;    /* distinct (label, cost) pairs of the CPU ops */
  size_t nkinds, capkinds;
  uint32_t *kindmap;
  size_t kindmapcap;
  op_link *lk;       /* the ops that launched kernels */
  size_t nlk, caplk;
  double *kxfer;     /* per op kind: the bytes one copy_ call transfers (0
                        unknown, -1 two calls of the kind disagree), for
                        ROCm's copies, which carry no byte count */
  size_t nkxfer, capkxfer;
  struct call_bytes *cb; /* HIP's memcpy calls with a byte count */
  size_t ncb, capcb;
  struct cbw_op *cbc, *cbp; /* cudnn backward: children without a size, parents */
  size_t ncbc, capcbc, ncbp, capcbp;
  struct id_memo {   /* pid and tid: the last two texts when plain integers */
    uint64_t w, mask;  /* its bytes (at most 8), the mask of their length */
    size_t n;
    int64_t num;
  } idm[2][2];       /* [pid, tid][the two], the older replaced first */
  unsigned idnext[2];
  struct catv_memo { /* "cat" values seen, by a hash of their first 8 bytes */
    uint64_t w[3], m[3]; /* the bytes (a blank or none, the string), masks */
    size_t n;            /* 0: none */
    int cat;
  } catv[8];
  struct cat_memo {  /* classify's answers for the categories seen, by a hash */
    uint64_t w0, w1;   /* the text (at most 16 bytes), zero-padded */
    size_t n;
    int cat, used;
  } cm4[64];
  struct akey_memo akm[8][16]; /* args keys by category and place (parse_args) */
  uint32_t lastth;   /* thread_of: the last thread found, and its key */
  uint64_t lastkey;
  int have_lastth;
  uint8_t *lflag;    /* per op label: the tests of its name (LF_*), 0 not yet */
  size_t caplflag;
  struct rt_memo {   /* runtime call names lately seen: their tests (RT_*) */
    char *s;
    size_t n, cap;
    unsigned kind;
  } rt[8];
  unsigned rtnext;
  name_ent *nm;      /* names seen: raw text -> string id */
  size_t nnm, nmcap;
  char *nmtext;      /* their raw text */
  size_t nmlen, nmtextcap;
  const rli_ksink *sink; /* the cross-rank analysis' observer, or NULL */
  uint32_t *ksig;    /* per kernel of this file: its signature's id (name,
                        grid and block; trace_sig.c), RLI_NONE none */
  size_t capksig;
  uint64_t *sigkey;  /* the distinct signatures */
  size_t nsig, capsig;
  double *siggx;     /* per signature: its grid's x (trace_mta.c), < 0 none */
  size_t capsiggx;
  uint32_t *signame; /* per signature: its kernel name's id */
  size_t capsigname;
  uint8_t *sigbare;  /* per signature: 1 the name alone (no grid or block) */
  size_t capsigbare;
  uint32_t *sigmap;
  size_t sigmapcap;
  /* CUDA graphs (src/core/trace_graph.c): the launch calls that name their
   * kernel (ROCm), the capture spans' ends, the graph launches */
  named_launch *nl;
  size_t nnl, capnl;
  cap_mark *cm;
  size_t ncm, capcm;
  graph_launch *gl;
  size_t ngl, capgl;
  int capture_only; /* rl_trace_read_capture: keep the captures, add no kernel */
  /* linking's scratch (freed at the end, also after an error) */
  cap_launch *cl, *cl2;
  size_t capcl, capcl2;
  rli_glaunch *cgl;
  size_t capcgl;
  replay_k *rp;
  size_t caprp;
  uint32_t *gnames, *ginsts;
  size_t capgn, capgi;
} kin;

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

static void *xgrow(kin *k, void *ptr, size_t elem, size_t need, size_t *cap) {
  if (!rli_grow(&ptr, elem, need, cap)) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  return ptr;
}

static uint32_t thread_of_map(kin *k, uint64_t key);
/* The thread of key (mix(pid) ^ tid), the one before again at once */
static inline uint32_t thread_of(kin *k, uint64_t key) {
  if (k->have_lastth && k->lastkey == key) return k->lastth;
  k->lastth = thread_of_map(k, key);
  k->lastkey = key;
  k->have_lastth = 1;
  return k->lastth;
}

static uint32_t thread_of_map(kin *k, uint64_t key) {
  if ((k->nth + 1) * 2 > k->thmapcap) {
    size_t nc = k->thmapcap ? k->thmapcap * 2 : 64;
    uint32_t *m = malloc(sizeof *m * nc);
    if (!m) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
    memset(m, 0xff, sizeof *m * nc);
    for (size_t i = 0; i < k->nth; i++) {
      size_t h = (size_t)mix(k->th[i].key) & (nc - 1);
      while (m[h] != RLI_NONE) h = (h + 1) & (nc - 1);
      m[h] = (uint32_t)i;
    }
    free(k->thmap);
    k->thmap = m;
    k->thmapcap = nc;
  }
  size_t h = (size_t)mix(key) & (k->thmapcap - 1);
  while (k->thmap[h] != RLI_NONE) {
    if (k->th[k->thmap[h]].key == key) return k->thmap[h];
    h = (h + 1) & (k->thmapcap - 1);
  }
  k->th = xgrow(k, k->th, sizeof *k->th, k->nth + 1, &k->capth);
  memset(&k->th[k->nth], 0, sizeof k->th[0]);
  k->th[k->nth].key = key;
  k->th[k->nth].sorted = 1;
  k->thmap[h] = (uint32_t)k->nth;
  return (uint32_t)k->nth++;
}

/* a word at a time: names are long (templated kernel signatures) */

/* The string id of the current event's name: rli_trace_str's, looked up
 * by the raw text first so that a name seen before costs one hash. */
static uint32_t name_id(kin *k) {
  const char *s = k->name ? k->name : "";
  size_t n = k->namelen;
  uint64_t h = rli_hash(s, n);
  if (k->nmcap) {
    size_t i = (size_t)h & (k->nmcap - 1);
    while (k->nm[i].id != RLI_NONE) {
      const name_ent *e = &k->nm[i];
      if (e->h == h && e->len == n && !memcmp(k->nmtext + e->off, s, n)) return e->id;
      i = (i + 1) & (k->nmcap - 1);
    }
  }
  uint32_t id = rli_trace_str(k->t, s, n);
  if (id == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  if ((k->nnm + 1) * 2 > k->nmcap) {
    size_t nc = k->nmcap ? k->nmcap * 2 : 256;
    name_ent *m = malloc(sizeof *m * nc);
    if (!m) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
    for (size_t i = 0; i < nc; i++) m[i].id = RLI_NONE;
    for (size_t j = 0; j < k->nmcap; j++) {
      if (k->nm[j].id == RLI_NONE) continue;
      size_t i = (size_t)k->nm[j].h & (nc - 1);
      while (m[i].id != RLI_NONE) i = (i + 1) & (nc - 1);
      m[i] = k->nm[j];
    }
    free(k->nm);
    k->nm = m;
    k->nmcap = nc;
  }
  k->nmtext = xgrow(k, k->nmtext, 1, k->nmlen + n + 1, &k->nmtextcap);
  memcpy(k->nmtext + k->nmlen, s, n);
  size_t i = (size_t)h & (k->nmcap - 1);
  while (k->nm[i].id != RLI_NONE) i = (i + 1) & (k->nmcap - 1);
  k->nm[i].h = h;
  k->nm[i].off = k->nmlen;
  k->nm[i].len = n;
  k->nm[i].id = id;
  k->nnm++;
  k->nmlen += n;
  return id;
}

static uint32_t kind_of(kin *k, uint32_t label, uint32_t cost) {
  uint64_t key = (uint64_t)label << 32 | cost;
  if ((k->nkinds + 1) * 2 > k->kindmapcap) {
    size_t nc = k->kindmapcap ? k->kindmapcap * 2 : 256;
    uint32_t *m = malloc(sizeof *m * nc);
    if (!m) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
    memset(m, 0xff, sizeof *m * nc);
    for (size_t i = 0; i < k->nkinds; i++) {
      size_t h = (size_t)mix((uint64_t)k->kinds[i].label << 32 | k->kinds[i].cost) & (nc - 1);
      while (m[h] != RLI_NONE) h = (h + 1) & (nc - 1);
      m[h] = (uint32_t)i;
    }
    free(k->kindmap);
    k->kindmap = m;
    k->kindmapcap = nc;
  }
  size_t h = (size_t)mix(key) & (k->kindmapcap - 1);
  while (k->kindmap[h] != RLI_NONE) {
    const op_kind *o = &k->kinds[k->kindmap[h]];
    if (o->label == label && o->cost == cost) return k->kindmap[h];
    h = (h + 1) & (k->kindmapcap - 1);
  }
  if (k->nkinds >= LINKED) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  k->kinds = xgrow(k, k->kinds, sizeof *k->kinds, k->nkinds + 1, &k->capkinds);
  k->kinds[k->nkinds].label = label;
  k->kinds[k->nkinds].cost = cost;
  k->kindmap[h] = (uint32_t)k->nkinds;
  return (uint32_t)k->nkinds++;
}

/* ts in us as integer ns when exactly so: N / 1000.0 == ts */
/* The tests of an op's name that depend on nothing else, made once per
 * label (a name's id: the same bytes, the same answers) instead of once
 * per op: */
enum {
  LF_DONE = 1,      /* tested */
  LF_PSTEP = 2,     /* "ProfilerStep#..." (host_real) */
  LF_BWDEND = 4,    /* ends in a convolution's or pooling's backward node (conv_note) */
  LF_GI0 = 8,       /* aten::convolution_backward, max_pool2d_with_indices_backward, avg_pool2d_backward */
  LF_GI1 = 16,      /* aten::cudnn_convolution_backward... */
  LF_NODE = 32,     /* an autograd node (rli_aten_is_node) */
  LF_HASBWD = 64,   /* a forward op with a backward model (rli_aten_has_bwd) */
  LF_CBW = 128      /* aten::cudnn_convolution_backward, _input or _weight (cbw_note) */
};

/* The LF_* of label, whose text is nm (nl bytes, NUL-terminated) */
static unsigned label_flags(kin *k, uint32_t label, const char *nm, size_t nl) {
  if (label < k->caplflag && k->lflag[label]) return k->lflag[label];
  if (label >= k->caplflag) {
    size_t oc = k->caplflag;
    k->lflag = xgrow(k, k->lflag, 1, (size_t)label + 1, &k->caplflag);
    memset(k->lflag + oc, 0, k->caplflag - oc);
  }
  unsigned f = LF_DONE;
  if (RLI_STARTS(nm, "ProfilerStep#")) f |= LF_PSTEP;
  if (RLI_ENDS(nm, nl, "ConvolutionBackward") || RLI_ENDS(nm, nl, "ConvolutionBackward0") ||
      RLI_ENDS(nm, nl, "MaxPool2DWithIndicesBackward0") || RLI_ENDS(nm, nl, "AvgPool2DBackward0"))
    f |= LF_BWDEND;
  if (nl > RLI_LEN("aten::") && RLI_PREFIX(nm, nl, "aten::")) {
    const char *b = nm + RLI_LEN("aten::");
    if (!strcmp(b, "convolution_backward") || !strcmp(b, "max_pool2d_with_indices_backward") ||
        !strcmp(b, "avg_pool2d_backward"))
      f |= LF_GI0;
    else if (RLI_STARTS(b, "cudnn_convolution_backward")) f |= LF_GI1;
  }
  if (rli_aten_is_node(nm)) f |= LF_NODE;
  if (rli_aten_has_bwd(nm)) f |= LF_HASBWD;
  if (RLI_STARTS(nm, "aten::cudnn_convolution_backward")) {
    const char *b = nm + RLI_LEN("aten::cudnn_convolution_backward");
    if (!*b || !strcmp(b, "_input") || !strcmp(b, "_weight")) f |= LF_CBW;
  }
  k->lflag[label] = (uint8_t)f;
  return f;
}

/* The tests of a runtime call's name (runtime_event), kept for the last 8
 * names seen (a trace calls a handful of runtime functions over and over): */
enum {
  RT_DONE = 1,
  RT_CAPTURE = 2, /* cuda/hipStreamBeginCapture or EndCapture */
  RT_BEGIN = 4,   /* ... Begin */
  RT_LAUNCH = 8,  /* a launch ("aunch") or hipMemcpy... */
  RT_GRAPH = 16,  /* ... GraphLaunch */
  RT_HIPCPY = 32  /* hipMemcpy... */
};

static unsigned runtime_kind(kin *k) {
  const char *nm = k->name ? k->name : "";
  size_t n = k->namelen;
  for (int i = 0; i < 8; i++)
    if (k->rt[i].kind && k->rt[i].n == n && !memcmp(k->rt[i].s, nm, n)) return k->rt[i].kind;
  unsigned f = RT_DONE;
  if (strstr(nm, "StreamBeginCapture") || strstr(nm, "StreamEndCapture")) f |= RT_CAPTURE;
  if (strstr(nm, "Begin")) f |= RT_BEGIN;
  if (strstr(nm, "aunch") || RLI_STARTS(nm, "hipMemcpy")) f |= RT_LAUNCH;
  if (strstr(nm, "GraphLaunch")) f |= RT_GRAPH;
  if (RLI_STARTS(nm, "hipMemcpy")) f |= RT_HIPCPY;
  struct rt_memo *m = &k->rt[k->rtnext++ & 7];
  m->kind = 0;
  m->s = xgrow(k, m->s, 1, n + 1, &m->cap);
  memcpy(m->s, nm, n);
  m->n = n;
  m->kind = f;
  return f;
}

static int exact_ns(double us, int64_t *ns) {
  if (!(us > -9e15 && us < 9e15)) return 0;
  double x = us * 1000.0;
  int64_t n = (int64_t)(x < 0 ? x - 0.5 : x + 0.5);
  /* x is off by up to 1000 half-ulps of us: ~0.5 ns at 4e12 us */
  for (int k = 0; k < 3; k++) {
    int64_t c = k == 0 ? n : k == 1 ? n - 1 : n + 1;
    if ((double)c / 1000.0 == us) {
      *ns = c;
      return 1;
    }
  }
  return 0;
}

/* A launch into the 16-byte records (ids not in order). */
static void launch_add16(kin *k, int64_t corr, double ts, double dur, uint32_t th) {
  int64_t s_ns = 0, d_ns = 0;
  int fits = corr <= (int64_t)UINT32_MAX && th < LW_WIDE && exact_ns(ts, &s_ns) &&
             exact_ns(dur, &d_ns) && d_ns >= 0 && d_ns <= (int64_t)UINT32_MAX;
  if (fits && !k->have_lbase) { k->have_lbase = 1; k->lbase = s_ns; }
  int64_t rel = fits ? s_ns - k->lbase : 0;
  if (fits && !(rel >= -((int64_t)1 << 47) && rel < ((int64_t)1 << 47))) fits = 0;
  /* the end as the reader computed it: ts + dur */
  if (fits && (double)s_ns / 1000.0 + (double)d_ns / 1000.0 != ts + dur) fits = 0;
  k->ln = xgrow(k, k->ln, sizeof *k->ln, k->nln + 1, &k->capln);
  launch *l = &k->ln[k->nln++];
  if (fits) {
    l->corr = (uint32_t)corr;
    l->dur_ns = (uint32_t)d_ns;
    l->at = (uint64_t)rel << 16 | th;
    return;
  }
  k->lwide = xgrow(k, k->lwide, sizeof *k->lwide, k->nlwide + 1, &k->caplwide);
  launch_wide *w = &k->lwide[k->nlwide];
  w->corr = corr;
  w->s = ts;
  w->e = ts + dur;
  w->thread = th;
  l->corr = (uint32_t)corr;
  l->dur_ns = 0;
  l->at = (uint64_t)k->nlwide++ << 16 | LW_WIDE;
}

/* Packed block b, decoded (through the cache). */
static const lz_cache *lz_decode(kin *k, size_t b) {
  if (!k->lc) {
    k->lc = malloc(sizeof *k->lc * LZ_CACHE);
    if (!k->lc) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
    for (int i = 0; i < LZ_CACHE; i++) k->lc[i].b = SIZE_MAX, k->lc[i].used = 0;
  }
  lz_cache *c = &k->lc[0];
  for (int i = 0; i < LZ_CACHE; i++) {
    if (k->lc[i].b == b) {
      k->lc[i].used = ++k->lclock;
      return &k->lc[i];
    }
    if (k->lc[i].used < c->used) c = &k->lc[i];
  }
  c->used = ++k->lclock;
  lz_anchor st = k->la[b];
  const uint8_t *p = k->lz + st.off, *end = b + 1 < k->nla ? k->lz + k->la[b + 1].off : k->lz + k->nlz;
  size_t n = 0;
  while (p < end) {
    uint64_t v, u;
    p = rli_varint_get(p, &v);
    st.corr += (int64_t)(v >> 3) + 1;
    c->corr[n] = st.corr;
    c->wide[n] = (v & LZ_WIDE) != 0;
    launch_view *lv = &c->v[n++];
    if (v & LZ_WIDE) {
      const launch_wide *w = &k->lwide[st.wide++];
      lv->s = w->s;
      lv->e = w->e;
      lv->thread = w->thread;
      continue;
    }
    p = rli_varint_get(p, &u);
    st.n = (int64_t)((uint64_t)st.n + rli_unzigzag(u));
    if (!(v & LZ_DSAME)) {
      p = rli_varint_get(p, &u);
      st.d = (int64_t)((uint64_t)st.d + rli_unzigzag(u));
    }
    if (v & LZ_THREAD) {
      p = rli_varint_get(p, &u);
      st.thread = (uint32_t)u;
    }
    lv->s = (double)st.n / 1000.0;
    c->dur[n - 1] = (double)st.d / 1000.0; /* the dur read */
    lv->e = lv->s + c->dur[n - 1];
    lv->thread = st.thread;
  }
  c->n = n;
  c->b = b;
  return c;
}

static void lz_forget(kin *k, size_t b) {
  for (int i = 0; k->lc && i < LZ_CACHE; i++)
    if (k->lc[i].b == b || b == SIZE_MAX) k->lc[i].b = SIZE_MAX;
}

/* Every packed launch into the 16-byte records: the ids stopped coming in
 * order. */
static void lz_unpack(kin *k) {
  k->nln = 0;
  for (size_t b = 0; b < k->nla; b++) {
    size_t wide = k->la[b].wide;
    const lz_cache *c = lz_decode(k, b);
    for (size_t i = 0; i < c->n; i++) {
      const launch_view *v = &c->v[i];
      if (c->wide[i]) {
        /* kept wide already: point there */
        k->ln = xgrow(k, k->ln, sizeof *k->ln, k->nln + 1, &k->capln);
        launch *l = &k->ln[k->nln++];
        l->corr = (uint32_t)c->corr[i];
        l->dur_ns = 0;
        l->at = (uint64_t)wide++ << 16 | LW_WIDE;
        continue;
      }
      launch_add16(k, c->corr[i], v->s, c->dur[i], v->thread);
    }
  }
  free(k->lz);
  free(k->la);
  k->lz = NULL;
  k->la = NULL;
  k->nlz = k->caplz = k->nla = k->capla = k->nlrun = 0;
  lz_forget(k, SIZE_MAX);
}

static void launch_add(kin *k, int64_t corr, double ts, double dur, uint32_t th) {
  if (corr < 0) return; /* no kernel looks it up */
  if (k->nln >= RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  /* a new run: out of order, or a gap too large for the packed tag */
  int run = !k->nln || corr <= k->lastcorr || corr - k->lastcorr > ((int64_t)1 << 58);
  if (run && k->nln && !k->ln_unsorted && k->nlrun == LZ_RUNS) {
    lz_unpack(k);
    k->ln_unsorted = 1;
  }
  k->lastcorr = corr;
  if (k->ln_unsorted) {
    launch_add16(k, corr, ts, dur, th);
    return;
  }
  /* packed */
  lz_anchor *st = &k->lzs;
  if (k->nln == 0) memset(st, 0, sizeof *st);
  if (run) {
    st->corr = corr - 1;
    k->lrun[k->nlrun++].b0 = k->nla;
  }
  if (run || k->lzin == LZ_N) {
    k->lzin = 0;
    k->la = xgrow(k, k->la, sizeof *k->la, k->nla + 1, &k->capla);
    st->first = corr;
    st->off = k->nlz;
    st->wide = k->nlwide;
    k->la[k->nla++] = *st;
  }
  int64_t s_ns = 0, d_ns = 0;
  int fits = exact_ns(ts, &s_ns) && exact_ns(dur, &d_ns) && d_ns >= 0 &&
             (double)s_ns / 1000.0 + (double)d_ns / 1000.0 == ts + dur;
  k->lz = xgrow(k, k->lz, 1, k->nlz + 40, &k->caplz);
  uint8_t *p = k->lz + k->nlz;
  uint64_t v = (uint64_t)(corr - st->corr - 1) << 3;
  st->corr = corr;
  if (!fits) {
    p = rli_varint_put(p, v | LZ_WIDE);
    k->lwide = xgrow(k, k->lwide, sizeof *k->lwide, k->nlwide + 1, &k->caplwide);
    launch_wide *w = &k->lwide[k->nlwide++];
    w->corr = corr;
    w->s = ts;
    w->e = ts + dur;
    w->thread = th;
  } else {
    if (d_ns == st->d) v |= LZ_DSAME;
    if (th != st->thread) v |= LZ_THREAD;
    p = rli_varint_put(p, v);
    p = rli_varint_put(p, rli_zigzag((uint64_t)s_ns - (uint64_t)st->n));
    if (!(v & LZ_DSAME)) p = rli_varint_put(p, rli_zigzag((uint64_t)d_ns - (uint64_t)st->d));
    if (v & LZ_THREAD) p = rli_varint_put(p, th);
    st->n = s_ns;
    st->d = d_ns;
    st->thread = th;
  }
  k->nlz = (size_t)(p - k->lz);
  k->nln++;
  k->lzin++;
  k->lrun[k->nlrun - 1].last = corr;
  k->la[k->nla - 1].last = corr;
  lz_forget(k, k->nla - 1); /* the block grew */
}

static int64_t launch_corr(const kin *k, const launch *l) {
  return (l->at & 0xffff) == LW_WIDE ? k->lwide[l->at >> 16].corr : (int64_t)l->corr;
}

static void launch_get(const kin *k, const launch *l, launch_view *v) {
  if ((l->at & 0xffff) == LW_WIDE) {
    const launch_wide *w = &k->lwide[l->at >> 16];
    v->s = w->s;
    v->e = w->e;
    v->thread = w->thread;
    return;
  }
  int64_t s_ns = (int64_t)(l->at >> 16);
  if (s_ns & ((int64_t)1 << 47)) s_ns -= (int64_t)1 << 48; /* sign of the 48 bits */
  s_ns += k->lbase;
  v->s = (double)s_ns / 1000.0;
  v->e = v->s + (double)l->dur_ns / 1000.0;
  v->thread = (uint32_t)(l->at & 0xffff);
}

static int cmp_lnidx(const void *ctx, uint32_t x, uint32_t y) {
  const kin *k = ctx;
  int64_t cx = launch_corr(k, &k->ln[x]), cy = launch_corr(k, &k->ln[y]);
  if (cx != cy) return cx < cy ? -1 : 1;
  return (x > y) - (x < y);
}

/* The launches searchable by id: in their order when the ids came
 * strictly increasing, else through an index sorted by (id, arrival), so
 * that the first launch of an id wins. */
static void launch_index(kin *k) {
  if (!k->ln_unsorted) {
    /* packed: the runs by their first id, with the largest last id of the
     * runs up to each in that order, so that launch_find finds the runs
     * whose range [first, last] holds an id by a binary search and a few
     * steps back, instead of a pass over all of them per kernel (a trace
     * of 116 profiler windows has 233 runs) */
    size_t n = k->nlrun;
    for (size_t r = 0; r < n; r++) {
      size_t j = r;
      int64_t f = k->la[k->lrun[r].b0].first;
      for (; j > 0 && k->la[k->lrun[k->lrord[j - 1]].b0].first > f; j--) k->lrord[j] = k->lrord[j - 1];
      k->lrord[j] = (uint16_t)r;
    }
    for (size_t j = 0; j < n; j++) {
      k->lrfirst[j] = k->la[k->lrun[k->lrord[j]].b0].first;
      int64_t l = k->lrun[k->lrord[j]].last;
      k->lrmax[j] = j && k->lrmax[j - 1] > l ? k->lrmax[j - 1] : l;
    }
    k->lrsorted = n > 0;
    return;
  }
  if (!k->nln) return;
  k->lnidx = malloc(sizeof *k->lnidx * k->nln);
  if (!k->lnidx) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  for (size_t i = 0; i < k->nln; i++) k->lnidx[i] = (uint32_t)i;
  if (!rli_sort_idx(k->lnidx, k->nln, cmp_lnidx, k)) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
}

static int launch_find(kin *k, int64_t corr, launch_view *v) {
  if (!k->ln_unsorted) {
    /* the runs whose range holds corr, in their order (the first launch
     * of an id wins): all of them, else those launch_index's order finds */
    uint16_t cand[LZ_RUNS];
    size_t nc = 0;
    if (k->lrsorted) {
      size_t lo = 0, hi = k->nlrun; /* the runs before lo start at or before corr */
      while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->lrfirst[mid] <= corr) lo = mid + 1;
        else hi = mid;
      }
      for (size_t j = lo; j > 0 && k->lrmax[j - 1] >= corr; j--) {
        uint16_t r = k->lrord[j - 1];
        if (k->lrun[r].last < corr) continue;
        size_t q = nc++;
        for (; q > 0 && cand[q - 1] > r; q--) cand[q] = cand[q - 1];
        cand[q] = r;
      }
    }
    for (size_t ci = 0, r; k->lrsorted ? ci < nc : ci < k->nlrun; ci++) {
      r = k->lrsorted ? cand[ci] : ci;
      size_t b0 = k->lrun[r].b0, b1 = r + 1 < k->nlrun ? k->lrun[r + 1].b0 : k->nla;
      if (corr < k->la[b0].first || corr > k->lrun[r].last) continue;
      size_t lo = b0, hi = b1; /* the last block whose first id <= corr */
      while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (k->la[mid].first <= corr) lo = mid;
        else hi = mid;
      }
      if (corr > k->la[lo].last) continue; /* between two of its blocks */
      const lz_cache *c = lz_decode(k, lo);
      size_t i = 0, j = c->n;
      while (i < j) {
        size_t mid = i + (j - i) / 2;
        if (c->corr[mid] < corr) i = mid + 1;
        else j = mid;
      }
      if (i < c->n && c->corr[i] == corr) {
        *v = c->v[i];
        return 1;
      }
    }
    return 0;
  }
  size_t lo = 0, hi = k->nln;
  while (lo < hi) { /* the first position whose id >= corr */
    size_t mid = lo + (hi - lo) / 2;
    const launch *l = &k->ln[k->lnidx ? k->lnidx[mid] : mid];
    if (launch_corr(k, l) < corr) lo = mid + 1;
    else hi = mid;
  }
  if (lo == k->nln) return 0;
  const launch *l = &k->ln[k->lnidx ? k->lnidx[lo] : lo];
  if (launch_corr(k, l) != corr) return 0;
  launch_get(k, l, v);
  return 1;
}

/* ---- one event -------------------------------------------------------------- */
typedef struct ev {
  int cat;
  char ph[4];
  int has_ts, has_dur, has_corr, has_device, has_pid;
  double ts, dur;
  int64_t corr, device, pid_num;
  uint64_t pid, tid;
  double ctr[9]; /* d/f/h add, mul, fma; cleared at the first (has_ctr) */
  int has_ctr;
  double bytes;  /* gpu_memcpy / gpu_memset, HIP's memcpy calls: args.bytes; -2 absent */
  double size;   /* HIP's memcpy calls (ROCm 6.x): args.size; -2 absent */
  int64_t seq;   /* cpu_op "Sequence number"; -1 absent */
  int64_t stream; /* args "stream"; -1 absent */
  uint64_t geo;   /* kernels: a hash of args grid and block; 0 absent */
  double gx;      /* kernels: args grid's x; -1 absent, -2 not a count */
  uint32_t kname; /* launch calls: the kernel args.kernel names (ROCm);
                     RLI_NONE */
  rl_trace *t;    /* where kname is interned */
  rli_aten_args a;
  rli_kev *x;    /* with a sink: the fields only it needs, else NULL */
} ev;

/* the category; a NUL inside the text ends it, as strcmp would */
static int classify(rli_sv v) {
  const char *z = memchr(v.s, 0, v.n);
  if (z) v.n = (size_t)(z - v.s);
  if (!v.n) return C_OTHER;
  switch (v.s[0]) {
  case 'k': return RLI_SV_IS(v, "kernel") ? C_KERNEL : C_OTHER;
  case 'K': return RLI_SV_IS(v, "Kernel") ? C_KERNEL : C_OTHER;
  case 'g':
    if (RLI_SV_IS(v, "gpu_memcpy")) return C_MEMCPY;
    if (RLI_SV_IS(v, "gpu_memset")) return C_MEMSET;
    return C_OTHER;
  case 'M':
    if (RLI_SV_IS(v, "Memcpy")) return C_MEMCPY;
    if (RLI_SV_IS(v, "Memset")) return C_MEMSET;
    return C_OTHER;
  case 'c':
    if (RLI_SV_IS(v, "cpu_op")) return C_OP;
    if (RLI_SV_IS(v, "cuda_runtime") || RLI_SV_IS(v, "cuda_driver")) return C_RUNTIME;
    if (RLI_SV_IS(v, "cuda_profiler_range")) return C_RANGE;
    return C_OTHER;
  case 'O': return RLI_SV_IS(v, "Operator") ? C_OP : C_OTHER;
  case 'u': return RLI_SV_IS(v, "user_annotation") ? C_OP : C_OTHER;
  case 'p': return RLI_SV_IS(v, "python_function") ? C_PYFN : C_OTHER;
  case 'R': return RLI_SV_IS(v, "Runtime") ? C_RUNTIME : C_OTHER;
  default: return C_OTHER;
  }
}

/* classify, its answer kept for the categories seen (an event's "cat" text
 * of at most 16 bytes lying in the window, as two words, in a table of 64
 * by a hash of them): Kineto writes a handful over and over. */
static int cat_of(kin *k, rli_sv v) {
  const rli_js *p = &k->p;
  if (v.n > 16 || v.s == p->sb) return classify(v);
  size_t off = (size_t)(v.s - p->buf);
  if (p->len - off < 16) return classify(v);
  uint64_t w0, w1;
  memcpy(&w0, v.s, 8);
  memcpy(&w1, v.s + 8, 8);
  if (v.n < 8) {
    w0 &= (1ull << (8 * v.n)) - 1;
    w1 = 0;
  } else if (v.n < 16) {
    w1 &= (1ull << (8 * (v.n - 8))) - 1;
  }
  struct cat_memo *m = &k->cm4[((w0 ^ w1) * 0x9e3779b97f4a7c15ull) >> 58];
  if (m->used && m->n == v.n && m->w0 == w0 && m->w1 == w1) return m->cat;
  m->w0 = w0;
  m->w1 = w1;
  m->n = v.n;
  m->cat = classify(v);
  m->used = 1;
  return m->cat;
}

static double need_num_slow(rli_js *p, const char *key) {
  int c = rli_js_ws(p);
  if (c == '-' || (c >= '0' && c <= '9')) return rli_js_number_gen(p, NULL);
  char m[96];
  snprintf(m, sizeof m, "\"%s\" must be a number", key);
  if (c < 0) rli_js_fail(p, RL_ETRUNCATED, rli_js_here(p), "the text ends inside an event (truncated file?)");
  rli_js_fail(p, RL_EPARSE, rli_js_here(p), m);
  return 0;
}

/* A number (ts, dur, correlation): the usual decimal inline, the rest
 * and the messages in need_num_slow. */
RLI_JS_INLINE double need_num(rli_js *p, const char *key) {
  double v;
  int c = rli_js_ws(p);
  if ((c == '-' || (c >= '0' && c <= '9')) && rli_js_dec(p, &v, NULL)) return v;
  return need_num_slow(p, key);
}

/* pid / tid: a number or a string; a key either way. A number: its value
 * (*isnum left 1; the key is it with the top bit clear); a string: *isnum
 * 0 and its key, a hash with the top bit set. A plain integer of at most 8
 * bytes is kept in m for id_again. */
static int64_t id_value(rli_js *p, struct id_memo *m, int *isnum) {
  m->n = 0;
  int c = rli_js_ws(p);
  if (c == '"') {
    rli_sv v = rli_js_string(p);
    *isnum = 0;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < v.n; i++) h = (h ^ (unsigned char)v.s[i]) * 1099511628211ull;
    return (int64_t)(h | (1ull << 63));
  }
  int64_t iv; /* the usual form: a plain integer, read without the double */
  size_t at = p->pos;
  if (rli_js_int(p, &iv)) {
    size_t n = p->pos - at;
    if (n <= 8 && p->len - at >= 16) {
      m->n = n;
      m->mask = n == 8 ? ~0ull : (1ull << (8 * n)) - 1;
      memcpy(&m->w, p->buf + at, 8);
      m->w &= m->mask;
      m->num = iv;
    }
    return iv;
  }
  double v = need_num(p, "pid/tid");
  if (!(fabs(v) < 9e15)) rli_js_fail(p, RL_EPARSE, rli_js_here(p), "pid/tid out of range");
  return (int64_t)v;
}

/* The pid or tid the event before had, as the same text (after one blank
 * or none) followed by a byte that ends a number: its value in *num, the
 * cursor past it, and 1 (what id_value would read there); else 0 with
 * nothing consumed. */
RLI_JS_INLINE int id_again(rli_js *p, const struct id_memo *m, int64_t *num) {
  const char *b = p->buf + p->pos;
  if (!m->n || p->len - p->pos < 16) return 0;
  size_t o = b[0] == ' ';
  uint64_t w;
  memcpy(&w, b + o, 8);
  if ((w & m->mask) != m->w || rli_js_numch((unsigned char)b[o + m->n])) return 0;
  *num = m->num;
  p->pos += o + m->n;
  return 1;
}

/* rli_js_number(p, NULL) at a number's first byte (rli_js_ws has returned
 * '-' or a digit): the usual small integer (a size, a stride, a device, a
 * stream) by rli_js_int's one word, no double parse; the same double, -0
 * too. */
RLI_JS_INLINE double num_int_first(rli_js *p) {
  int64_t iv;
  int neg = p->buf[p->pos] == '-';
  if (rli_js_int(p, &iv)) return iv == 0 && neg ? -0.0 : (double)iv;
  return rli_js_number(p, NULL);
}

/* Past an array's '[' or an object's '{' (what names it in the error): 0
 * when it is empty (its close read too), 1 when an item follows. */
static inline int open_items(rli_js *p, int open, const char *what) {
  rli_js_expect(p, open, what);
  if (rli_js_ws(p) != (open == '[' ? ']' : '}')) return 1;
  p->pos++;
  return 0;
}

/* After an item of an array or object: 1 past a ',' (another item
 * follows), 0 past its close (']' or '}'); anything else fails naming
 * what was expected. */
static inline int next_item(rli_js *p, int close, const char *what) {
  if (rli_js_ws(p) == ',') {
    p->pos++;
    return 1;
  }
  rli_js_expect(p, close, what);
  return 0;
}

/* A shape's elements, its '[' read: the product of its sizes up to its
 * ']'; *bad when a size is negative or absurd or the product is, *other
 * when an item is no number (skipped: a tensor list's shapes). */
static double shape_elems(rli_js *p, int *bad, int *other) {
  double n = 1;
  *bad = *other = 0;
  if (rli_js_ws(p) == ']') { p->pos++; return 1; }
  for (;;) {
    int d = rli_js_ws(p);
    if (d == '-' || (d >= '0' && d <= '9')) {
      double v = num_int_first(p);
      if (v >= 0 && v < 1e15) n *= v;
      else *bad = 1;
    } else {
      rli_js_skip(p, 3);
      *other = 1;
    }
    if (!next_item(p, ']', "',' or ']' in Input Dims")) break;
  }
  if (!(n < 1e18)) *bad = 1;
  return n;
}

/* One tensor of a tensor list's shapes ([a, b, ...]): its elements, or -1
 * when a dimension is negative, absurd or not a number. */
static double list_member(rli_js *p) {
  rli_js_expect(p, '[', "a shape in a tensor list (Input Dims)");
  int bad, other;
  double n = shape_elems(p, &bad, &other);
  return bad || other ? -1 : n;
}

/* One argument's list in Input Dims or Input Strides, its '[' read, to
 * its ']': its numbers (how many: *nd; the first RLI_ATEN_MAX_DIM into v,
 * those not negative and below lim; *bad when one is), the lists nested
 * in it (a tensor list's shapes; how many: *nl; with elems, their elements
 * summed into *elems and *bad when one is no usable shape; without,
 * skipped), anything else skipped and *bad. what: the error's text. */
static void arg_list(rli_js *p, double lim, double *v, int *nd, int *nl, double *elems, int *bad,
                     const char *what) {
  *nd = *nl = *bad = 0;
  if (rli_js_ws(p) == ']') {
    p->pos++;
    return;
  }
  for (;;) {
    int d = rli_js_ws(p);
    if (d == '-' || (d >= '0' && d <= '9')) {
      double x = num_int_first(p);
      if (!(x >= 0 && x < lim)) *bad = 1;
      else if (*nd < RLI_ATEN_MAX_DIM) v[*nd] = x;
      (*nd)++;
    } else if (d == '[' && elems) {
      double m = list_member(p); /* a TensorList: shapes inside */
      if (m < 0) *bad = 1;
      else *elems += m;
      (*nl)++;
    } else {
      if (d == '[') (*nl)++;
      else *bad = 1;
      rli_js_skip(p, 2);
    }
    if (!next_item(p, ']', what)) return;
  }
}

/* An argument past RLI_ATEN_MAX_IN (a compiled region's): its elements
 * into more_elems when a plain shape, more_bad when a size is negative or
 * absurd; a tensor list's shapes are skipped. */
static void more_shape(rli_js *p, rli_aten_args *a) {
  p->pos++;
  a->more_n++;
  int bad, list;
  double n = shape_elems(p, &bad, &list);
  if (list) return;
  if (bad) a->more_bad = 1;
  else a->more_elems += n;
}

/* Input Dims: one entry per argument, a tensor's shape [a, b, ...], [] for
 * a scalar or an unrecorded tensor list, and (PyTorch 2.x) a tensor list's
 * shapes nested, [[a, b], [c]] (RLI_ATEN_LIST: its tensors and elements). A
 * shape the model cannot use (a negative dimension, numbers mixed with
 * shapes, deeper nesting) gets ndim -1: that op is uncovered, the file is
 * still read. */
static void parse_dims(rli_js *p, rli_aten_args *a) {
  a->has_dims = 1;
  a->n_in = 0;
  if (!open_items(p, '[', "an array (Input Dims)")) return;
  for (;;) {
    int i = a->n_in;
    int c = rli_js_ws(p);
    if (c == '[' && i < RLI_ATEN_MAX_IN) {
      p->pos++;
      int nd, nl, bad;
      double le = 0;
      arg_list(p, 1e15, a->dims[i], &nd, &nl, &le, &bad, "',' or ']' in Input Dims");
      /* more sizes than held; numbers and shapes in one argument */
      if (nd > RLI_ATEN_MAX_DIM || (nd && nl)) bad = 1;
      a->ndim[i] = bad ? -1 : nl ? RLI_ATEN_LIST : nd;
      a->list_len[i] = nl;
      a->list_elems[i] = bad ? 0 : le;
      a->n_in++;
    } else if (c == '[') {
      more_shape(p, a);
    } else {
      rli_js_skip(p, 2);
      if (i < RLI_ATEN_MAX_IN) a->ndim[a->n_in++] = -1;
      else a->more_n++;
    }
    if (!next_item(p, ']', "',' or ']' in Input Dims")) return;
  }
}

/* Input Strides (PyTorch >= 2.1: [[4096, 1], [], [1, 0], ...], a tensor
 * list's nested): per argument how many strides and which are 0
 * (rli_aten_args.str_rank, str_zero). A stride that is negative or not a
 * number makes its argument RLI_STR_BAD (the op's cost says so); a
 * nested list is RLI_STR_LIST (not used). */
static void parse_strides(rli_js *p, rli_aten_args *a) {
  a->n_str = 0;
  if (!open_items(p, '[', "an array (Input Strides)")) return;
  for (;;) {
    int i = a->n_str;
    int c = rli_js_ws(p);
    if (c == '[' && i < RLI_ATEN_MAX_IN) {
      p->pos++;
      int nd, nl, bad;
      double st[RLI_ATEN_MAX_DIM];
      for (int d = 0; d < RLI_ATEN_MAX_DIM; d++) st[d] = -1;
      arg_list(p, 1e18, st, &nd, &nl, NULL, &bad, "',' or ']' in Input Strides");
      unsigned zero = 0;
      for (int d = 0; d < RLI_ATEN_MAX_DIM; d++)
        if (st[d] == 0) zero |= 1u << d;
      a->str_rank[i] = (int8_t)(nl && !nd ? RLI_STR_LIST : bad || nl || nd > RLI_ATEN_MAX_DIM ? RLI_STR_BAD : nd);
      a->str_zero[i] = (uint8_t)zero;
      a->n_str++;
    } else {
      rli_js_skip(p, 2);
      if (i < RLI_ATEN_MAX_IN) a->str_rank[a->n_str++] = RLI_STR_BAD;
    }
    if (!next_item(p, ']', "',' or ']' in Input Strides")) return;
  }
}

/* v into d as a C string, cut to cap - 1 bytes */
static inline void sv_copy(char *d, size_t cap, rli_sv v) {
  size_t l = v.n < cap - 1 ? v.n : cap - 1;
  memcpy(d, v.s, l);
  d[l] = 0;
}

/* A string value into d (cut to cap - 1 bytes); anything else skipped.
 * 1 when it was a string. */
static int fixed_string(rli_js *p, char *d, size_t cap, int depth) {
  if (rli_js_ws(p) != '"') {
    rli_js_skip(p, depth);
    return 0;
  }
  sv_copy(d, cap, rli_js_string(p));
  return 1;
}

/* more: with Input type, the fewest bytes of an element among the types
 * past RLI_ATEN_MAX_IN (rli_aten_args.more_type_bytes); else NULL */
static void parse_strings(rli_js *p, size_t w, int *n, const char *what, char *base, double *more) {
  *n = 0;
  if (!open_items(p, '[', what)) return;
  for (;;) {
    if (rli_js_ws(p) == '"') {
      rli_sv v = rli_js_string(p);
      if (*n < RLI_ATEN_MAX_IN) {
        sv_copy(base + (size_t)*n * w, w, v);
      } else if (more) {
        char ty[32];
        sv_copy(ty, sizeof ty, v);
        double b = rli_torch_type_bytes(ty);
        if (b > 0 && (*more == 0 || b < *more)) *more = b;
      }
    } else {
      rli_js_skip(p, 2);
      if (*n < RLI_ATEN_MAX_IN) base[(size_t)*n * w] = 0;
    }
    if (*n < RLI_ATEN_MAX_IN) (*n)++;
    if (!next_item(p, ']', "',' or ']'")) return;
  }
}

static const char *const ctr_names[9] = {"dadd", "dmul", "dfma", "fadd", "fmul", "ffma",
                                         "hadd", "hmul", "hfma"};

/* The keys of args the reader uses. A_CNUM's field: 0 In msg nelems, 1 Out
 * msg nelems, 2 Group size, 3 Sequence number. */
enum arg_key { A_OTHER, A_CORR, A_DEVICE, A_DIMS, A_TYPES, A_CONCRETE, A_CTR, A_CNAME, A_CDTYPE,
               A_CNUM, A_BYTES, A_SIZE, A_STREAM, A_TEXT, A_GEO, A_STRIDES, A_KERNEL };

/* A SASS counter's index in ctr_names from its key (more than 40 bytes);
 * -1 for a counter the roofline does not weigh */
static int ctr_which(const char *ks, size_t kl) {
  char key[64]; /* NUL-terminated: a NUL inside ends it, as strcmp would */
  size_t cl = kl < sizeof key - 1 ? kl : sizeof key - 1;
  memcpy(key, ks, cl);
  key[cl] = 0;
  const char *op = key[1] == 'm' && key[2] == 's' ? key + RLI_LEN(RLI_SASS_SMSP) : key + RLI_LEN(RLI_SASS_SM);
  int which = -1;
  for (int i = 0; i < 9; i++) {
    size_t nl = strlen(ctr_names[i]);
    if (!strncmp(op, ctr_names[i], nl) && !strcmp(op + nl, "_pred_on.sum")) which = i;
  }
  return which;
}

/* Classify an args key (its text lives until the next read); *which is
 * A_CNUM's field or A_CTR's counter. Process Group Name only with a sink. */
static inline enum arg_key arg_key(const ev *e, const char *ks, size_t kl, int *which) {
  /* by length first: the keys are exact and distinct, so the order of
   * the tests does not matter */
  switch (kl) {
  case 4:
    if (RLI_EQ(ks, kl, "size")) return A_SIZE;
    if (RLI_EQ(ks, kl, "grid")) { *which = 0; return A_GEO; }
    break;
  case 5:
    if (RLI_EQ(ks, kl, "dtype")) return A_CDTYPE;
    if (RLI_EQ(ks, kl, "bytes")) return A_BYTES;
    if (RLI_EQ(ks, kl, "block")) { *which = 1; return A_GEO; }
    break;
  case 6:
    if (RLI_EQ(ks, kl, "device")) return A_DEVICE;
    if (RLI_EQ(ks, kl, "stream")) return A_STREAM;
    if (e->cat == C_RUNTIME && RLI_EQ(ks, kl, "kernel")) return A_KERNEL;
    break;
  case 10:
    if (RLI_EQ(ks, kl, "Input Dims")) return A_DIMS;
    if (RLI_EQ(ks, kl, "Input type")) return A_TYPES;
    if (RLI_EQ(ks, kl, "Group size")) { *which = 2; return A_CNUM; }
    break;
  case 11:
    if (RLI_EQ(ks, kl, "correlation")) return A_CORR;
    break;
  case 13:
    if (RLI_EQ(ks, kl, "Input Strides")) return A_STRIDES;
    if (RLI_EQ(ks, kl, "In msg nelems")) { *which = 0; return A_CNUM; }
    break;
  case 14:
    if (RLI_EQ(ks, kl, "Out msg nelems")) { *which = 1; return A_CNUM; }
    break;
  case 15:
    if (RLI_EQ(ks, kl, "Concrete Inputs")) return A_CONCRETE;
    if (RLI_EQ(ks, kl, "Collective name")) return A_CNAME;
    if (RLI_EQ(ks, kl, "Sequence number")) { *which = 3; return A_CNUM; }
    break;
  case 18:
    if (e->x && RLI_EQ(ks, kl, "Process Group Name")) return A_TEXT;
    break;
  default:
    if (kl > 40 && (RLI_PREFIX(ks, kl, RLI_SASS_SMSP) || RLI_PREFIX(ks, kl, RLI_SASS_SM))) {
      *which = ctr_which(ks, kl);
      return A_CTR;
    }
  }
  return A_OTHER;
}

static void arg_corr(rli_js *p, ev *e) {
  double v = need_num(p, "correlation");
  if (!(fabs(v) < 9e18)) rli_js_fail(p, RL_EPARSE, rli_js_here(p), "correlation out of range");
  e->corr = (int64_t)v;
  e->has_corr = 1;
}

static void arg_device(rli_js *p, ev *e) {
  int c = rli_js_ws(p);
  if (c == '-' || (c >= '0' && c <= '9')) {
    double v = num_int_first(p);
    if (v >= 0 && v < 1e6) { e->device = (int64_t)v; e->has_device = 1; }
  } else {
    rli_js_skip(p, 2);
  }
}

/* a number, or (older profilers' metadata) a number as a string; -1e300
 * when unusable (said so by the cost) */
static double arg_count(rli_js *p) {
  double v = 0;
  int c = rli_js_ws(p), ok = 0;
  if (c == '-' || (c >= '0' && c <= '9')) {
    v = num_int_first(p);
    ok = 1;
  } else if (c == '"') {
    char nb[40];
    sv_copy(nb, sizeof nb, rli_js_string(p));
    char *end;
    v = strtod(nb, &end);
    ok = end != nb && *end == 0;
  } else {
    rli_js_skip(p, 2);
  }
  return !ok || !isfinite(v) ? -1e300 : v;
}

static void arg_cnum(ev *e, int which, double v) {
  if (which == 3) e->seq = v >= 0 && v < 9e15 ? (int64_t)v : -1;
  else if (which == 0) e->a.in_nelems = v;
  else if (which == 1) e->a.out_nelems = v;
  else e->a.group_size = v;
}

static void arg_stream(rli_js *p, ev *e) {
  int c = rli_js_ws(p);
  if (c == '-' || (c >= '0' && c <= '9')) {
    double v = num_int_first(p);
    if (v >= 0 && v < 9e15) e->stream = (int64_t)v;
    if (e->x) e->x->stream = e->stream;
  } else {
    rli_js_skip(p, 2);
  }
}

static void arg_counter(rli_js *p, ev *e, int which) {
  double v = need_num(p, "a counter");
  if (which >= 0) {
    if (!(v >= 0 && v < 1e30)) rli_js_fail(p, RL_EPARSE, rli_js_here(p), "counter value out of range");
    if (!e->has_ctr) memset(e->ctr, 0, sizeof e->ctr); /* ev_init leaves them */
    e->ctr[which] = v;
    e->has_ctr = 1;
  }
}

/* A kernel's grid or block ([x, y, z]) into e->geo (the signature of a
 * kernel launched before the window: trace_sig.c); anything else (a
 * Triton launch op's "grid(100,)") is skipped. */
static void arg_geo(rli_js *p, ev *e, int which) {
  if (rli_js_ws(p) != '[') { rli_js_skip(p, 2); return; }
  p->pos++;
  uint64_t h = which ? 0x6a09e667f3bcc909ull : 0x9e3779b97f4a7c15ull;
  int bad = 0;
  for (int i = 0; rli_js_ws(p) != ']'; i++) {
    if (i) rli_js_expect(p, ',', "',' or ']' in a grid or block");
    int c = rli_js_ws(p);
    double v = -1;
    if (c == '-' || (c >= '0' && c <= '9')) v = num_int_first(p);
    else rli_js_skip(p, 2);
    if (!which && !i) e->gx = v >= 0 && v < 9e15 ? v : -2;
    if (!(v >= 0 && v < 9e15)) bad = 1;
    else h = mix(h ^ (uint64_t)v ^ ((uint64_t)i << 56));
  }
  p->pos++;
  /* ~0: no usable signature (a size not a number) */
  e->geo = bad || e->geo == ~0ull ? ~0ull : mix(e->geo ^ h) | 1;
}

/* An args value the reader does not keep, as PyTorch writes a small
 * number with what follows it (` 123,` or ` 123}`: "External id",
 * "Record function id", "queued", "context", "registers per thread",
 * "cbid", ...; ` 66.370369,` "blocks per SM", "warps per SM", ` 1137.77...`
 * "memory bandwidth (GB/s)"), passed over with its separator in one step,
 * unconverted: 1 past the ',' (an entry follows), 2 past the '}' (the
 * object ends), 0 with nothing consumed for anything else, which
 * rli_js_skip and next_item then read. The same bytes consumed either way:
 * the integer part is rli_js_int's one-word test (1 to 7 digits, no
 * leading zero), the fraction 1 to 40 digits, a word at a time (JSON's
 * `.[0-9]+`); an exponent or any other byte after them is left to the
 * general way; the blank is the one rli_js_ws passes over. */
RLI_JS_INLINE int skip_int_sep(rli_js *p) {
#if RLI_SWAR
  const unsigned char *b = (const unsigned char *)p->buf + p->pos;
  if (p->len - p->pos < 64) return 0;
  size_t o = b[0] == ' ';
  int sg = b[o] == '-';
  uint64_t x = rli_load8(b + o + sg) ^ 0x3030303030303030ull;
  int k = rli_ndigits8(x);
  if (!(k >= 1 && k < 8 && (k == 1 || (x & 0xFF) != 0))) return 0;
  size_t e = o + (size_t)sg + (size_t)k;
  unsigned char c = b[e];
  if (c == '.') { /* o + sg + k + 1 <= 10: five words of fraction lie in the 64 bytes */
    size_t f = e + 1;
    int d;
    do {
      d = rli_ndigits8(rli_load8(b + f) ^ 0x3030303030303030ull);
      f += (size_t)d;
    } while (d == 8 && f < e + 41);
    if (f == e + 1 || d == 8) return 0;
    e = f;
    c = b[e];
  }
  if (c != ',' && c != '}') return 0;
  p->pos += e + 1;
  return c == ',' ? 1 : 2;
#else
  (void)p;
  return 0;
#endif
}

/* The key at the cursor is the one memo m keeps (the same bytes, with the
 * window holding 32 from the cursor): then rli_js_key would read the same
 * text and stop at the same ':', and arg_key (the same category, the same
 * sink) would give the same answer, so it is taken from m. */
RLI_JS_INLINE int akey_again(const rli_js *p, const struct akey_memo *m) {
#if RLI_SWAR
  if (!m->n || p->len - p->pos < 32) return 0;
  const unsigned char *b = (const unsigned char *)p->buf + p->pos;
  return (((rli_load8(b) ^ m->w[0]) & m->m[0]) | ((rli_load8(b + 8) ^ m->w[1]) & m->m[1]) |
          ((rli_load8(b + 16) ^ m->w[2]) & m->m[2]) | ((rli_load8(b + 24) ^ m->w[3]) & m->m[3])) == 0;
#else
  (void)p;
  (void)m;
  return 0;
#endif
}

/* Keep in m the key rli_js_key has just read (the cursor was at `at`, is
 * now past the ':') with arg_key's answer, when its bytes are at most 32
 * and the window held 32 from `at`. */
static inline void akey_keep(const rli_js *p, size_t at, enum arg_key kid, int which, struct akey_memo *m) {
  size_t n = p->pos - at;
  m->n = 0;
  if (n > 32 || p->len - at < 32) return;
  const unsigned char *b = (const unsigned char *)p->buf + at;
  for (size_t i = 0; i < 4; i++) {
    size_t have = n > 8 * i ? n - 8 * i : 0;
    uint64_t mask = have >= 8 ? ~0ull : have ? (1ull << (8 * have)) - 1 : 0;
    uint64_t w;
    memcpy(&w, b + 8 * i, 8);
    m->w[i] = w & mask;
    m->m[i] = mask;
  }
  m->n = (uint8_t)n;
  m->kid = (uint8_t)kid;
  m->which = (int8_t)which;
}

/* args, the cursor at its '{' (rli_js_ws has returned it: what
 * open_items would read); am: the category's memo of its keys by place
 * (akey_again). */
static void parse_args(rli_js *p, ev *e, struct akey_memo *am) {
  p->pos++;
  if (rli_js_ws(p) == '}') {
    p->pos++;
    return;
  }
  for (unsigned place = 0;; place++) {
    int which = -1;
    enum arg_key kid;
    struct akey_memo *m = &am[place & 15];
    if (akey_again(p, m)) {
      kid = (enum arg_key)m->kid;
      which = m->which;
      p->pos += m->n;
    } else {
      size_t at = p->pos;
      rli_sv kv;
      int fast = rli_js_key(p, &kv);
      if (!fast) kv = rli_js_string(p);
      kid = arg_key(e, kv.s, kv.n, &which); /* before a refill may move kv */
      if (!fast) rli_js_expect(p, ':', "':' after a key");
      else akey_keep(p, at, kid, which, m);
    }
    switch (kid) {
    case A_CORR: arg_corr(p, e); break;
    case A_DEVICE: arg_device(p, e); break;
    case A_DIMS: parse_dims(p, &e->a); break;
    case A_TYPES:
      parse_strings(p, sizeof e->a.types[0], &e->a.n_types, "an array (Input type)",
                    &e->a.types[0][0], &e->a.more_type_bytes);
      e->a.has_types = 1;
      break;
    case A_CONCRETE:
      parse_strings(p, sizeof e->a.concrete[0], &e->a.n_concrete, "an array (Concrete Inputs)",
                    &e->a.concrete[0][0], NULL);
      break;
    case A_CNAME:
      if (fixed_string(p, e->a.coll_name, sizeof e->a.coll_name, 2)) e->a.has_coll = 1;
      break;
    case A_CDTYPE: fixed_string(p, e->a.coll_dtype, sizeof e->a.coll_dtype, 2); break;
    case A_BYTES: e->bytes = arg_count(p); break;
    case A_SIZE: e->size = arg_count(p); break;
    case A_STRIDES: parse_strides(p, &e->a); break;
    case A_CNUM: arg_cnum(e, which, arg_count(p)); break;
    case A_STREAM: arg_stream(p, e); break;
    case A_TEXT: fixed_string(p, e->x->pg, sizeof e->x->pg, 2); break;
    case A_CTR: arg_counter(p, e, which); break;
    case A_GEO: arg_geo(p, e, which); break;
    case A_KERNEL:
      if (rli_js_ws(p) == '"') {
        rli_sv v = rli_js_string(p);
        e->kname = rli_trace_str(e->t, v.s, v.n);
        if (e->kname == RLI_NONE) rli_js_fail(p, RL_ENOMEM, 0, "");
      } else {
        rli_js_skip(p, 2);
      }
      break;
    case A_OTHER: {
      int r = skip_int_sep(p);
      if (r == 1) continue;
      if (r == 2) return;
      rli_js_skip(p, 2);
      break;
    }
    }
    if (!next_item(p, '}', "',' or '}' in args")) return;
  }
}

static inline void set_name(kin *k, rli_sv v) {
  rli_js *p = &k->p;
  if (v.n + 1 > k->namecap && !rli_grow((void **)&k->name, 1, v.n + 1, &k->namecap))
    rli_js_fail(p, RL_ENOMEM, 0, "");
  char *d = k->name;
  size_t n = v.n;
  if (n <= 16) { /* most names (and "ac2g"): no call to memcpy; overlapping words of the text */
    if (n >= 8) {
      uint64_t a, b;
      memcpy(&a, v.s, 8);
      memcpy(&b, v.s + n - 8, 8);
      memcpy(d, &a, 8);
      memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
      uint32_t a, b;
      memcpy(&a, v.s, 4);
      memcpy(&b, v.s + n - 4, 4);
      memcpy(d, &a, 4);
      memcpy(d + n - 4, &b, 4);
    } else if (n) {
      d[0] = v.s[0];
      d[n / 2] = v.s[n / 2];
      d[n - 1] = v.s[n - 1];
    }
  } else {
    memcpy(d, v.s, n);
  }
  d[n] = 0;
  k->namelen = v.n;
}

static const char *cat_word(int cat) {
  return cat == C_KERNEL ? "kernel" : cat == C_OP ? "cpu_op" : cat == C_RUNTIME ? "cuda_runtime"
         : cat == C_MEMCPY ? "gpu_memcpy" : cat == C_MEMSET ? "gpu_memset" : "cuda_profiler_range";
}

/* A copy's cost: bytes from the event (Kineto's args.bytes, CUPTI's
 * CUpti_ActivityMemcpy/Memset bytes). A memset writes them; a copy on the
 * device reads and writes them; a host copy moves them over the host link;
 * a peer copy over the interconnect. */
/* A copy's cost from its bytes: memset writes them, a device-to-device
 * copy reads and writes them (HBM), peer to peer is a send/recv, the rest
 * crosses the host link. note: 1 + a string id, or 0. */
static uint32_t copy_bytes_cost(kin *k, int memset_, const char *nm, double bytes, uint32_t note) {
  rli_cost c;
  memset(&c, 0, sizeof c);
  c.flops = 0;
  c.dtype = -1;
  c.coll = -1;
  c.why = RLI_NONE;
  c.note = note;
  if (memset_) {
    c.roof = RLI_ROOF_HBM;
    c.bytes = bytes;
  } else if (strstr(nm, "DtoD")) {
    c.roof = RLI_ROOF_HBM;
    c.bytes = 2 * bytes;
  } else if (strstr(nm, "PtoP")) {
    c.roof = RLI_ROOF_NET;
    c.coll = RLI_COLL_SENDRECV;
    c.ranks = 2;
    c.bytes = bytes;
  } else {
    c.roof = RLI_ROOF_HOST;
    c.bytes = bytes;
  }
  return rli_trace_cost(k->t, &c);
}

static uint32_t copy_cost(kin *k, const ev *e) {
  rl_trace *t = k->t;
  char why[120];
  if (e->bytes == -2)
    return rli_trace_cost_reason(t, RL_REASON_SHAPES, "a copy without its byte count");
  if (!(e->bytes >= 0 && e->bytes < 1e15)) {
    snprintf(why, sizeof why, "a copy of %g bytes: %s", e->bytes,
             e->bytes < 0 ? "negative or unreadable" : "absurd");
    return rli_trace_cost_reason(t, RL_REASON_SHAPES, why);
  }
  return copy_bytes_cost(k, e->cat == C_MEMSET, k->name ? k->name : "", e->bytes, 0);
}

/* The bytes an aten::copy_(self, src, non_blocking) call moves when self
 * and src are of one type and size (a memcpy moves them as they are), noted
 * per op kind; a kind whose calls disagree gets -1. */
static void note_xfer(kin *k, const ev *e, uint32_t kind) {
  const rli_aten_args *a = &e->a;
  if (!e->a.has_dims || !k->name || strcmp(k->name, "aten::copy_") != 0) return;
  double n[2] = {-1, -1};
  for (int i = 0; i < 2 && i < a->n_in; i++)
    if (a->ndim[i] >= 0) {
      n[i] = 1;
      for (int d = 0; d < a->ndim[i]; d++) n[i] *= a->dims[i][d];
    }
  double b = a->n_types >= 2 && !strcmp(a->types[0], a->types[1]) ? rli_torch_type_bytes(a->types[0]) : 0;
  double x = n[0] >= 0 && n[0] == n[1] && b > 0 ? n[0] * b : -1;
  if (kind >= k->nkxfer) {
    size_t o = k->nkxfer;
    k->kxfer = xgrow(k, k->kxfer, sizeof *k->kxfer, (size_t)kind + 1, &k->capkxfer);
    for (size_t i = o; i <= kind; i++) k->kxfer[i] = 0;
    k->nkxfer = (size_t)kind + 1;
  }
  double *v = &k->kxfer[kind];
  *v = *v == 0 ? x : *v == x ? x : -1;
}

/* A copy without its byte count (ROCm's) launched by an aten::copy_ whose
 * shapes give them: its cost with those bytes, said so in a note; else
 * `cost` as it was. */
static uint32_t copy_from_op(kin *k, const rli_kernel *kr, uint32_t kind, uint32_t nobytes) {
  if (kr->cost != nobytes || kind >= k->nkxfer || !(k->kxfer[kind] > 0)) return kr->cost;
  static const char note[] = "bytes from its op aten::copy_'s shapes (the copy event records none)";
  uint32_t nid = rli_trace_str(k->t, note, sizeof note - 1);
  if (nid == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  const char *nm = rli_trace_strat(k->t, kr->name);
  uint32_t c = copy_bytes_cost(k, kr->kind == RLI_K_MEMSET, nm ? nm : "", k->kxfer[kind], nid + 1);
  if (c == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  return c;
}

static int cmp_cb(const void *a, const void *b) {
  const call_bytes *x = a, *y = b;
  return x->corr < y->corr ? -1 : x->corr > y->corr;
}

/* A copy without its byte count (ROCm's) whose HIP memcpy call gives one
 * (hipMemcpyAsync / hipMemcpyWithStream's args.bytes, or args.size): its
 * cost with those bytes, said so in a note; an unusable count (negative,
 * not a number, past 1e15) leaves it uncovered with that reason; else
 * `cost` as it was. k->cb sorted by id (the first call of an id wins). */
static uint32_t copy_from_call(kin *k, const rli_kernel *kr, int64_t corr) {
  size_t lo = 0, hi = k->ncb;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (k->cb[mid].corr < corr) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= k->ncb || k->cb[lo].corr != corr) return kr->cost;
  const call_bytes *b = &k->cb[lo];
  const char *call = rli_trace_strat(k->t, b->label);
  char text[160];
  uint32_t c;
  if (!(b->bytes >= 0 && b->bytes < 1e15)) {
    if (b->bytes == -1e300)
      snprintf(text, sizeof text, "a copy whose call %s gives its %s as no number", call ? call : "",
               b->size ? "size" : "bytes");
    else
      snprintf(text, sizeof text, "a copy whose call %s gives its %s as %g: %s", call ? call : "",
               b->size ? "size" : "bytes", b->bytes, b->bytes < 0 ? "negative" : "absurd");
    c = rli_trace_cost_reason(k->t, RL_REASON_SHAPES, text);
  } else {
    snprintf(text, sizeof text, "bytes from its call %s's %s argument (the copy event records none)",
             call ? call : "", b->size ? "size" : "bytes");
    uint32_t nid = rli_trace_str(k->t, text, strlen(text));
    if (nid == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
    const char *nm = rli_trace_strat(k->t, kr->name);
    c = copy_bytes_cost(k, kr->kind == RLI_K_MEMSET, nm ? nm : "", b->bytes, nid + 1);
  }
  if (c == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  return c;
}

/* Offer a CPU op (on thread ti) to the recent convolutions of its thread as
 * their consumer: the op that starts first at or after a convolution's end
 * (its enclosing ops end later; their consumer is looked up from the
 * outermost). Its first input is kept when it is a 3-5-D tensor. */
static void conv_consumer(kin *k, const ev *e, uint32_t label, uint32_t ti) {
  for (size_t i = k->npend, seen = 0; i-- > 0 && seen < 16; seen++) {
    conv_pend *q = &k->pend[i];
    if (q->th != ti || !q->look || e->ts < q->e) continue;
    q->look--;
    if (q->ncons && q->cons_s <= e->ts) continue;
    int r = e->a.has_dims && e->a.n_in > 0 ? e->a.ndim[0] : -1;
    q->cons_s = e->ts;
    q->cons_label = label;
    q->ncons = r >= 3 && r <= 5 ? r : -1;
    for (int d = 0; d < r && d < 5; d++) q->cons[d] = e->a.dims[0][d];
  }
}

/* Keep what the convolution output-size inference needs from one CPU op. */
static void conv_note(kin *k, const ev *e, uint32_t label, uint32_t cost, uint32_t ti, size_t idx) {
  const char *nm = k->name ? k->name : "";
  size_t nl = k->namelen;
  int r = rli_aten_conv_needs_output(nm, &e->a);
  if (!r) r = rli_aten_pool_needs_output(nm, &e->a); /* pooling: its kernel size */
  if (r > 0 && cost < RLI_NONE) {
    k->pend = xgrow(k, k->pend, sizeof *k->pend, k->npend + 1, &k->cappend);
    conv_pend *q = &k->pend[k->npend++];
    memset(q, 0, sizeof *q);
    q->th = ti;
    q->idx = (uint32_t)idx;
    q->label = label;
    q->s = e->ts;
    q->e = e->ts + e->dur;
    q->seq = e->seq;
    q->look = 16;
    for (int i = 0; i < 3; i++) {
      q->ndim[i] = i < e->a.n_in ? e->a.ndim[i] : -1;
      for (int d = 0; d < 5 && d < q->ndim[i]; d++) q->dims[i][d] = e->a.dims[i][d];
      if (i < e->a.n_types) memcpy(q->types[i], e->a.types[i], sizeof q->types[i]);
    }
  }
  unsigned lf = label_flags(k, label, nm, nl);
  if (e->seq >= 0 && (r > 0 || (lf & LF_BWDEND))) {
    int fwd = r > 0;
    seq_span **arr = fwd ? &k->anchor : &k->node;
    size_t *n = fwd ? &k->nanchor : &k->nnode, *cap = fwd ? &k->capanchor : &k->capnode;
    *arr = xgrow(k, *arr, sizeof **arr, *n + 1, cap);
    seq_span *sp = &(*arr)[(*n)++];
    sp->th = ti;
    sp->s = e->ts;
    sp->e = e->ts + e->dur;
    sp->seq = e->seq;
  }
  /* convolution_backward(grad_output, ...); the 2021 cudnn forms:
   * (input or size, grad_output, ...) */
  int gi = lf & LF_GI0 ? 0 : lf & LF_GI1 ? 1 : -1;
  if (gi >= 0 && e->a.has_dims && gi < e->a.n_in && e->a.ndim[gi] >= 3 && e->a.ndim[gi] <= 5) {
    k->bwd = xgrow(k, k->bwd, sizeof *k->bwd, k->nbwd + 1, &k->capbwd);
    conv_bwd *b = &k->bwd[k->nbwd++];
    b->th = ti;
    b->s = e->ts;
    b->e = e->ts + e->dur;
    b->nd = e->a.ndim[gi];
    for (int d = 0; d < b->nd; d++) b->go[d] = e->a.dims[gi][d];
    b->seq = -1;
  }
}

/* Keep what the autograd-node linking needs from one CPU op: a node (with
 * a sequence number) whose own cost is unknown, or a forward op whose
 * backward has a model, with that backward's cost from its shapes. */
static void seq_note(kin *k, const ev *e, uint32_t label, uint32_t cost, uint32_t ti, size_t idx) {
  if (e->seq < 0) return;
  const char *nm = k->name ? k->name : "";
  unsigned lf = label_flags(k, label, nm, k->namelen);
  if (lf & LF_NODE) {
    /* kept only once a forward op to link to was seen (a forward runs
     * before its backward): nothing is kept on a trace without shapes */
    const rli_cost *own = rli_trace_cost_get(k->t, cost);
    if (!k->nsfwd || (own && own->why == RLI_NONE)) return;
    k->snode = xgrow(k, k->snode, sizeof *k->snode, k->nsnode + 1, &k->capsnode);
    seq_node *n = &k->snode[k->nsnode++];
    n->seq = e->seq;
    n->s = e->ts;
    n->th = ti;
    n->idx = (uint32_t)idx;
    n->label = label;
    return;
  }
  if (!e->a.has_dims || !(lf & LF_HASBWD)) return;
  rli_cost c;
  char why[200];
  if (!rli_aten_bwd_cost(nm, &e->a, &c, why, sizeof why)) return;
  char note[200];
  snprintf(note, sizeof note, "shapes from its forward op %s (same sequence number)", nm);
  uint32_t nid = rli_trace_str(k->t, note, strlen(note));
  if (nid == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  c.note = nid + 1;
  uint32_t bc = rli_trace_cost(k->t, &c);
  if (bc == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  k->sfwd = xgrow(k, k->sfwd, sizeof *k->sfwd, k->nsfwd + 1, &k->capsfwd);
  seq_fwd *f = &k->sfwd[k->nsfwd++];
  f->seq = e->seq;
  f->s = e->ts;
  f->label = label;
  f->cost = bc;
}

static int cmp_fwd_seq(const void *a, const void *b) {
  const seq_fwd *x = a, *y = b;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* An autograd node without a cost of its own takes its backward's cost
 * from the forward op that created it: the op with the node's Sequence
 * number whose name the node's names (AddmmBackward0 of aten::addmm),
 * started before it. Sequence numbers count per forward thread and the
 * nodes' "Fwd thread id" does not name a thread of the file (2023 traces
 * write 1 on the nodes, 0 on the forward ops), so a node with two such
 * candidates (two forward threads) is left as it was. Before linking. */
static void link_nodes(kin *k) {
  if (!k->nsnode || !k->nsfwd) return;
  qsort(k->sfwd, k->nsfwd, sizeof *k->sfwd, cmp_fwd_seq);
  for (size_t i = 0; i < k->nsnode; i++) {
    const seq_node *n = &k->snode[i];
    size_t lo = 0, hi = k->nsfwd;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (k->sfwd[mid].seq < n->seq) lo = mid + 1;
      else hi = mid;
    }
    const seq_fwd *hit = NULL;
    int many = 0;
    const char *nn = rli_trace_strat(k->t, n->label);
    for (size_t j = lo; j < k->nsfwd && k->sfwd[j].seq == n->seq; j++) {
      const seq_fwd *f = &k->sfwd[j];
      if (f->s > n->s || !rli_aten_node_of(nn, rli_trace_strat(k->t, f->label))) continue;
      if (hit) many = 1;
      hit = f;
    }
    if (hit && !many) k->th[n->th].ops[n->idx].kind = kind_of(k, n->label, hit->cost);
  }
}

static int cmp_span(const void *a, const void *b) {
  const seq_span *x = a, *y = b;
  if (x->th != y->th) return x->th < y->th ? -1 : 1;
  return x->s < y->s ? -1 : x->s > y->s;
}

static int cmp_bwd_seq(const void *a, const void *b) {
  const conv_bwd *x = a, *y = b;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The sequence number of the nearest span of `v` on thread th that
 * contains [s, e]; -1 when none. */
static int64_t seq_around(const seq_span *v, size_t n, uint32_t th, double s, double e) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (v[mid].th < th || (v[mid].th == th && v[mid].s <= s)) lo = mid + 1;
    else hi = mid;
  }
  for (size_t i = lo, k = 0; i-- > 0 && k < 8; k++) {
    if (v[i].th != th) break;
    if (v[i].s <= s && v[i].e >= e) return v[i].seq;
  }
  return -1;
}

/* Forward convolutions recorded without stride or padding take their
 * output size from the grad_output of the backward convolution of the same
 * autograd node: forward op -> its (enclosing) op's Sequence number -> the
 * ConvolutionBackward node with that number -> the convolution_backward
 * op inside it. Before linking (the ops are still in file order). */
/* The outermost pending convolution around q on its thread with the same
 * input and weight (conv2d > convolution > _convolution > cudnn_convolution):
 * its consumer is the one after the whole call. */
static const conv_pend *conv_outer(const kin *k, size_t i) {
  const conv_pend *q = &k->pend[i], *o = q;
  size_t lo = i > 16 ? i - 16 : 0, hi = i + 16 < k->npend ? i + 16 : k->npend;
  for (size_t j = lo; j < hi; j++) {
    const conv_pend *c = &k->pend[j];
    if (c->th != q->th || c->s > q->s || c->e < q->e || (c->e - c->s) <= (o->e - o->s) ||
        c->ndim[0] != q->ndim[0] || c->ndim[1] != q->ndim[1] ||
        memcmp(c->dims[0], q->dims[0], sizeof q->dims[0]) != 0 ||
        memcmp(c->dims[1], q->dims[1], sizeof q->dims[1]) != 0)
      continue;
    o = c;
  }
  return o;
}

/* The consumer's first input as q's output [N, C_out, o...]: same rank,
 * and each spatial size one that a stride >= 1 and a padding of at most
 * kernel - 1 on each side can give (1 <= o <= in + k - 1); the batch and
 * channels are checked by rli_aten_conv_inferred. */
static int conv_from_consumer(const conv_pend *q, const conv_pend *o) {
  if (o->ncons != q->ndim[0]) return 0;
  for (int d = 2; d < q->ndim[0]; d++)
    if (!(o->cons[d] >= 1 && o->cons[d] <= q->dims[0][d] + q->dims[1][d] - 1)) return 0;
  return 1;
}

static void infer_conv(kin *k) {
  if (!k->npend) return;
  if (k->nnode) qsort(k->node, k->nnode, sizeof *k->node, cmp_span);
  if (k->nanchor) qsort(k->anchor, k->nanchor, sizeof *k->anchor, cmp_span);
  for (size_t i = 0; i < k->nbwd; i++)
    k->bwd[i].seq = seq_around(k->node, k->nnode, k->bwd[i].th, k->bwd[i].s, k->bwd[i].e);
  if (k->nbwd) qsort(k->bwd, k->nbwd, sizeof *k->bwd, cmp_bwd_seq);
  const char *note = "output size inferred from the backward op's grad_output (same sequence number)";
  uint32_t nid = rli_trace_str(k->t, note, strlen(note));
  if (nid == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  rli_aten_args *a = malloc(sizeof *a);
  if (!a) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  for (size_t i = 0; i < k->npend; i++) {
    const conv_pend *q = &k->pend[i];
    int64_t seq = q->seq >= 0 ? q->seq : seq_around(k->anchor, k->nanchor, q->th, q->s, q->e);
    const conv_bwd *b = NULL;
    if (seq >= 0 && k->nbwd) {
      conv_bwd key;
      key.seq = seq;
      b = bsearch(&key, k->bwd, k->nbwd, sizeof *k->bwd, cmp_bwd_seq);
    }
    /* no backward (inference, a frozen layer): the op after it */
    const conv_pend *o = b ? NULL : conv_outer(k, i);
    if (!b && !conv_from_consumer(q, o)) continue;
    memset(a, 0, sizeof *a);
    a->has_dims = 1;
    a->n_in = a->n_types = 3;
    for (int j = 0; j < 3; j++) {
      a->ndim[j] = q->ndim[j];
      for (int d = 0; d < 5 && d < q->ndim[j]; d++) a->dims[j][d] = q->dims[j][d];
      memcpy(a->types[j], q->types[j], sizeof q->types[j]);
    }
    rli_cost c;
    char why[200];
    const char *qn = rli_trace_strat(k->t, q->label);
    int pool = rli_aten_pool_needs_output(qn, a) > 0;
    if (pool ? !rli_aten_pool_inferred(qn, a, b ? b->go : o->cons, b ? b->nd : o->ncons, &c, why, sizeof why)
             : !rli_aten_conv_inferred(qn, a, b ? b->go : o->cons, b ? b->nd : o->ncons, &c, why, sizeof why))
      continue;
    if (pool) {
      char pn[300];
      snprintf(pn, sizeof pn, "kernel size not recorded: a lower bound, its outputs written once (%s); "
                              "reads and compares not counted",
               b ? "the output size from the backward op's grad_output, same sequence number"
                 : "the output size from the first input of the op after it");
      uint32_t pid = rli_trace_str(k->t, pn, strlen(pn));
      if (pid == RLI_NONE) { free(a); rli_js_fail(&k->p, RL_ENOMEM, 0, ""); }
      c.note = pid + 1;
    } else if (b) {
      c.note = nid + 1;
    } else {
      char cn[200];
      snprintf(cn, sizeof cn, "output size inferred from the first input of the op after it (%s)",
               rli_trace_strat(k->t, o->cons_label));
      uint32_t cid = rli_trace_str(k->t, cn, strlen(cn));
      if (cid == RLI_NONE) { free(a); rli_js_fail(&k->p, RL_ENOMEM, 0, ""); }
      c.note = cid + 1;
    }
    uint32_t cost = rli_trace_cost(k->t, &c);
    if (cost == RLI_NONE) { free(a); rli_js_fail(&k->p, RL_ENOMEM, 0, ""); }
    k->th[q->th].ops[q->idx].kind = kind_of(k, q->label, cost);
  }
  free(a);
}

#define XCAT_CAP 32 /* the category as written, for the sink */

/* An event's fields before its keys are read; with a sink, x and xcat are
 * the sink's record of it. */
static inline void ev_init(kin *k, ev *e, rli_kev *x, char *xcat) {
  e->cat = C_OTHER;
  e->ph[0] = 0;
  e->has_ts = e->has_dur = e->has_corr = e->has_device = e->has_pid = e->has_ctr = 0;
  e->ts = e->dur = 0;
  e->pid = e->tid = 0;
  e->pid_num = 0;
  e->corr = -1;
  e->device = 0;
  e->a.has_dims = e->a.has_types = 0;
  e->a.n_in = e->a.n_types = e->a.n_concrete = 0;
  e->a.more_n = e->a.more_bad = 0;
  e->a.more_elems = e->a.more_type_bytes = 0;
  e->a.has_coll = 0;
  e->a.coll_name[0] = e->a.coll_dtype[0] = 0;
  e->a.in_nelems = e->a.out_nelems = e->a.group_size = -1;
  e->bytes = e->size = -2;
  e->a.n_str = 0;
  e->seq = -1;
  e->stream = -1;
  e->geo = 0;
  e->gx = -1;
  e->kname = RLI_NONE;
  e->t = k->t;
  e->x = NULL;
  if (k->sink) {
    memset(x, 0, sizeof *x);
    x->stream = x->corr = x->group_size = -1;
    x->in_nelems = -1;
    x->kidx = -1;
    xcat[0] = 0;
    e->x = x;
  }
}

/* E_ID and E_BP: keys of flow events ("id", "bp") found by ev_key_next,
 * read as E_OTHER (the general way reads them as E_OTHER) */
enum ev_key { E_OTHER, E_PH, E_CAT, E_NAME, E_TS, E_DUR, E_PID, E_TID, E_ARGS, E_ID, E_BP };

/* an event's key (its text lives until the next read) */
static inline enum ev_key ev_key(rli_sv kv) {
  const char *key = kv.s;
  if (kv.n == 2) {
    if (key[0] == 'p' && key[1] == 'h') return E_PH;
    if (key[0] == 't' && key[1] == 's') return E_TS;
  } else if (kv.n == 3) {
    if (RLI_SV_IS(kv, "cat")) return E_CAT;
    if (RLI_SV_IS(kv, "dur")) return E_DUR;
    if (RLI_SV_IS(kv, "pid")) return E_PID;
    if (RLI_SV_IS(kv, "tid")) return E_TID;
  } else if (kv.n == 4) {
    if (RLI_SV_IS(kv, "name")) return E_NAME;
    if (RLI_SV_IS(kv, "args")) return E_ARGS;
  }
  return E_OTHER;
}

/* The usual event keys with their ':' at the cursor (a '"'), as 8 bytes
 * compared with the key's bytes ("ph": 5, "cat": 6, "name": 7): the key,
 * the cursor past the ':'; -1 with nothing consumed for anything else (a
 * blank before the ':', an escape, another key, the window's end), which
 * then goes the general way: the same key read either way. The blanks
 * before the key are passed over only when it matches. */
static inline uint64_t lit8(const char *s) {
  uint64_t v;
  memcpy(&v, s, 8);
  return v;
}
static inline int ev_key_fast(rli_js *p) {
#if RLI_SWAR
  size_t i = p->pos;
  while (i < p->len && (p->buf[i] == ' ' || p->buf[i] == '\n' || p->buf[i] == '\r' || p->buf[i] == '\t')) i++;
  if (p->len - i < 8 || p->buf[i] != '"') return -1;
  uint64_t w = lit8(p->buf + i);
  uint64_t w5 = w & 0xFFFFFFFFFFull, w6 = w & 0xFFFFFFFFFFFFull, w7 = w & 0xFFFFFFFFFFFFFFull;
  int kid = -1, n = 0;
  switch ((w >> 8) & 0xFF) {
  case 'p':
    if (w5 == lit8("\"ph\":\0\0\0")) kid = E_PH, n = 5;
    else if (w6 == lit8("\"pid\":\0\0")) kid = E_PID, n = 6;
    break;
  case 't':
    if (w5 == lit8("\"ts\":\0\0\0")) kid = E_TS, n = 5;
    else if (w6 == lit8("\"tid\":\0\0")) kid = E_TID, n = 6;
    break;
  case 'c': if (w6 == lit8("\"cat\":\0\0")) kid = E_CAT, n = 6; break;
  case 'd': if (w6 == lit8("\"dur\":\0\0")) kid = E_DUR, n = 6; break;
  case 'n': if (w7 == lit8("\"name\":\0")) kid = E_NAME, n = 7; break;
  case 'a': if (w7 == lit8("\"args\":\0")) kid = E_ARGS, n = 7; break;
  default: break;
  }
  if (kid >= 0) p->pos = i + (size_t)n;
  return kid;
#else
  (void)p;
  return -1;
#endif
}

/* The key PyTorch writes after each key of a complete event ("ph", "cat",
 * "name", "pid", "tid", "ts", "dur", "args"), with the ", " before it and
 * its ':': after a value, when the next 8 or 9 bytes are that, the
 * separator and the key are passed over at once (one compare instead of
 * the blanks, the ',' and the key read apart; the same bytes consumed),
 * else -1 with nothing consumed and the general way follows. */
static inline int ev_key_next1(rli_js *p, enum ev_key prev) {
#if RLI_SWAR
  static const struct { uint64_t w, mask; unsigned char n, kid; } nx[E_BP + 1] = {
    /* the bytes in little-endian order: ", \"cat\":" is 2c 20 22 63 61 74 22 3a */
    [E_PH] = {0x3a2274616322202cull, ~0ull, 8, E_CAT},               /* , "cat": */
    [E_CAT] = {0x22656d616e22202cull, ~0ull, 9, E_NAME},             /* , "name" then : */
    [E_NAME] = {0x3a2264697022202cull, ~0ull, 8, E_PID},             /* , "pid": */
    [E_PID] = {0x3a2264697422202cull, ~0ull, 8, E_TID},              /* , "tid": */
    [E_TID] = {0x3a22737422202cull, 0xFFFFFFFFFFFFFFull, 7, E_TS},   /* , "ts": */
    [E_TS] = {0x3a2272756422202cull, ~0ull, 8, E_DUR},               /* , "dur": */
    [E_DUR] = {0x227367726122202cull, ~0ull, 9, E_ARGS},             /* , "args" then : */
    [E_ID] = {0x3a2264697022202cull, ~0ull, 8, E_PID},               /* , "pid": */
  };
  const char *b = p->buf;
  size_t i = p->pos;
  if (!nx[prev].n || p->len - i < 16) return -1;
  if ((lit8(b + i) & nx[prev].mask) != nx[prev].w || (nx[prev].n == 9 && b[i + 8] != ':')) return -1;
  p->pos = i + nx[prev].n;
  return nx[prev].kid;
#else
  (void)p;
  (void)prev;
  return -1;
#endif
}

/* ev_key_next1, else the key a flow event (Kineto's "ph" "s" and "f",
 * `{"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 1.5, "cat": "ac2g",
 * "name": "ac2g", "bp": "e"}`) writes next in its place: the same
 * compare of the separator and the key with their ':'. */
static inline int ev_key_next(rli_js *p, enum ev_key prev) {
  int kid = ev_key_next1(p, prev);
#if RLI_SWAR
  static const struct { uint64_t w, mask; unsigned char n, kid; } alt[E_BP + 1] = {
    [E_PH] = {0x3a22646922202cull, 0xFFFFFFFFFFFFFFull, 7, E_ID},    /* , "id": */
    [E_TS] = {0x3a2274616322202cull, ~0ull, 8, E_CAT},             /* , "cat": */
    [E_NAME] = {0x3a22706222202cull, 0xFFFFFFFFFFFFFFull, 7, E_BP},  /* , "bp": */
  };
  if (kid >= 0 || !alt[prev].n || p->len - p->pos < 16) return kid;
  if ((lit8(p->buf + p->pos) & alt[prev].mask) != alt[prev].w) return -1;
  p->pos += alt[prev].n;
  return alt[prev].kid;
#else
  return kid;
#endif
}

/* An event's "cat" value as an event before wrote it (the same bytes from
 * the cursor, one blank or none and a string with no escape, the window
 * holding 24): its category (what rli_js_ws, rli_js_string_q and cat_of
 * would give: the same text) in *cat, the cursor past it, and 1; else 0
 * with nothing consumed. */
static inline size_t catv_slot(const char *b) {
  uint64_t w;
  memcpy(&w, b, 8);
  return (size_t)((w * 0x9e3779b97f4a7c15ull) >> 61);
}
RLI_JS_INLINE int catv_again(kin *k, int *cat) {
#if RLI_SWAR
  rli_js *p = &k->p;
  if (p->len - p->pos < 24) return 0;
  const char *b = p->buf + p->pos;
  const struct catv_memo *m = &k->catv[catv_slot(b)];
  if (!m->n || (((lit8(b) ^ m->w[0]) & m->m[0]) | ((lit8(b + 8) ^ m->w[1]) & m->m[1]) |
                ((lit8(b + 16) ^ m->w[2]) & m->m[2])))
    return 0;
  *cat = m->cat;
  p->pos += m->n;
  return 1;
#else
  (void)k;
  (void)cat;
  return 0;
#endif
}
/* Keep a "cat" value read from `at` (v, its text, as a view) for
 * catv_again, when it is one blank or none and a string of no escape and
 * no control byte, at most 24 bytes, with 24 in the window from `at`. */
static inline void catv_keep(kin *k, size_t at, rli_sv v, int cat) {
  const rli_js *p = &k->p;
  if (at > p->pos || p->len - at < 24 || p->pos - at > 24) return; /* a refill moved the window */
  const char *b = p->buf + at;
  size_t n = p->pos - at, o = b[0] == ' ';
  if (n != o + v.n + 2 || v.s != b + o + 1 || b[o] != '"' || b[n - 1] != '"') return;
  for (size_t i = 0; i < v.n; i++)
    if (v.s[i] == '"' || v.s[i] == '\\' || (unsigned char)v.s[i] < 0x20) return;
  struct catv_memo *m = &k->catv[catv_slot(b)];
  for (size_t i = 0; i < 3; i++) {
    size_t have = n > 8 * i ? n - 8 * i : 0;
    m->m[i] = have >= 8 ? ~0ull : have ? (1ull << (8 * have)) - 1 : 0;
    m->w[i] = lit8(b + 8 * i) & m->m[i];
  }
  m->n = n;
  m->cat = cat;
}

/* One value of an event, its key kid read (the cursor after its ':'). */
RLI_JS_INLINE void ev_value(kin *k, ev *e, enum ev_key kid, char *xcat, int *has_cat_) {
  rli_js *p = &k->p;
  int has_cat = *has_cat_;
  switch (kid) {
  case E_PH: {
    /* the usual one-letter phase ("X", "f", "s", "i"): its 3 bytes at once */
    const char *b = p->buf + p->pos;
    size_t o = p->len - p->pos >= 4 && b[0] == ' '; /* the blank after the ':' */
    if (p->len - p->pos >= 4 && b[o] == '"' && b[o + 2] == '"' && (unsigned char)b[o + 1] >= 0x20 &&
        b[o + 1] != '"' && b[o + 1] != '\\') {
      e->ph[0] = b[o + 1];
      e->ph[1] = 0;
      p->pos += o + 3;
    } else {
      fixed_string(p, e->ph, sizeof e->ph, 1);
    }
    break;
  }
  case E_CAT: {
    if (!e->x && catv_again(k, &e->cat)) {
      *has_cat_ = has_cat = 1;
      break;
    }
    size_t at = p->pos; /* where catv_keep's bytes begin */
    if (rli_js_ws(p) == '"') {
      rli_sv v = rli_js_string_q(p);
      if (e->x) sv_copy(xcat, XCAT_CAP, v);
      e->cat = cat_of(k, v);
      *has_cat_ = has_cat = 1;
      if (!e->x) catv_keep(k, at, v, e->cat);
    } else {
      rli_js_skip(p, 1);
    }
    break;
  }
  case E_NAME:
    if (rli_js_ws(p) == '"') set_name(k, rli_js_string_q(p));
    else rli_js_skip(p, 1);
    break;
  case E_TS:
    e->ts = need_num(p, "ts");
    e->has_ts = 1;
    break;
  case E_DUR:
    e->dur = need_num(p, "dur");
    e->has_dur = 1;
    break;
  case E_PID: {
    int isnum = 1;
    if (!id_again(p, &k->idm[0][0], &e->pid_num) && !id_again(p, &k->idm[0][1], &e->pid_num))
      e->pid_num = id_value(p, &k->idm[0][k->idnext[0] ^= 1], &isnum);
    e->pid = (uint64_t)e->pid_num;
    e->has_pid = isnum;
    if (isnum) e->pid &= ~(1ull << 63);
    break;
  }
  case E_TID: {
    int isnum = 1;
    int64_t v;
    if (!id_again(p, &k->idm[1][0], &v) && !id_again(p, &k->idm[1][1], &v))
      v = id_value(p, &k->idm[1][k->idnext[1] ^= 1], &isnum);
    e->tid = isnum ? (uint64_t)v & ~(1ull << 63) : (uint64_t)v;
    break;
  }
  case E_ARGS:
    if (has_cat && (e->cat == C_OTHER || e->cat == C_PYFN) && !e->x) rli_js_skip(p, 1);
    else if (rli_js_ws(p) == '{') parse_args(p, e, k->akm[e->cat & 7]);
    else rli_js_skip(p, 1);
    break;
  case E_OTHER:
  case E_ID:
  case E_BP: rli_js_skip(p, 1); break;
  }
}

/* The event's keys in the order PyTorch writes them ("ph" read, the cursor
 * after its ':'): each value read as the loop of ev_fields reads it, and
 * each next key found with ev_key_next1's compare, unrolled (no dispatch on
 * the key). Returns the last key whose value was read; ev_fields goes on
 * from there, so the same bytes are consumed as by the loop. */
RLI_JS_INLINE enum ev_key ev_head(kin *k, ev *e, char *xcat, int *has_cat) {
  rli_js *p = &k->p;
  ev_value(k, e, E_PH, xcat, has_cat);
  if (ev_key_next1(p, E_PH) < 0) return E_PH;
  ev_value(k, e, E_CAT, xcat, has_cat);
  if (ev_key_next1(p, E_CAT) < 0) return E_CAT;
  ev_value(k, e, E_NAME, xcat, has_cat);
  if (ev_key_next1(p, E_NAME) < 0) return E_NAME;
  ev_value(k, e, E_PID, xcat, has_cat);
  if (ev_key_next1(p, E_PID) < 0) return E_PID;
  ev_value(k, e, E_TID, xcat, has_cat);
  if (ev_key_next1(p, E_TID) < 0) return E_TID;
  ev_value(k, e, E_TS, xcat, has_cat);
  if (ev_key_next1(p, E_TS) < 0) return E_TS;
  ev_value(k, e, E_DUR, xcat, has_cat);
  if (ev_key_next1(p, E_DUR) < 0) return E_DUR;
  ev_value(k, e, E_ARGS, xcat, has_cat);
  return E_ARGS;
}

/* The keys of a non-empty event object, after its '{', to its '}'. The
 * args of an event of a category skipped are skipped unread (a sink reads
 * them all). */
static inline void ev_fields(kin *k, ev *e, char *xcat) {
  rli_js *p = &k->p;
  int has_cat = 0;
  enum ev_key kid;
  /* not rli_js_ws first: a string's messages name where its blanks began */
  int fk = ev_key_fast(p);
  if (fk == E_PH) {
    kid = ev_head(k, e, xcat, &has_cat);
    goto next;
  }
  for (;;) {
    if (fk >= 0) {
      kid = (enum ev_key)fk;
    } else {
      kid = ev_key(rli_js_string(p));
      rli_js_expect(p, ':', "':' after a key");
    }
    ev_value(k, e, kid, xcat, &has_cat);
  next:
    if ((fk = ev_key_next(p, kid)) >= 0) continue;
    if (!next_item(p, '}', "',' or '}' in an event")) return;
    fk = ev_key_fast(p);
  }
}

/* A complete event with usable times (other than the "Trace" span) to the
 * sink, whatever its category. */
static void ev_to_sink(kin *k, const ev *e, const char *xcat) {
  rli_kev *x = e->x;
  if (!(x && !strcmp(e->ph, "X") && e->has_ts && e->has_dur && e->ts > -1e17 && e->ts < 1e17 &&
        e->dur >= 0 && e->dur < 1e12 && strcmp(xcat, "Trace") != 0))
    return;
  x->cat = xcat;
  x->name = k->name ? k->name : "";
  x->ts = e->ts;
  x->dur = e->dur;
  x->corr = e->has_corr ? e->corr : -1;
  if (e->a.has_coll) {
    rli_strlcpy(x->coll, e->a.coll_name, sizeof x->coll);
    rli_strlcpy(x->dtype, e->a.coll_dtype, sizeof x->dtype);
  }
  x->in_nelems = e->a.in_nelems >= 0 && e->a.in_nelems < 1e18 ? e->a.in_nelems : -1;
  x->group_size = e->a.group_size >= 1 && e->a.group_size < 1e9 ? (int64_t)e->a.group_size : -1;
  /* gpu_event adds it as the next kernel (times out of range fail the file) */
  int timed = e->cat == C_KERNEL || e->cat == C_RANGE || e->cat == C_MEMCPY || e->cat == C_MEMSET;
  x->kidx = timed ? (int64_t)(k->k0 + k->nkc) : -1;
  if (k->sink->event(k->sink->ctx, x)) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
}

/* Append an op [e->ts, e->ts + e->dur] of (label, cost) to thread ti,
 * noting when it breaks the thread's order; its kind. */
static inline uint32_t push_op(kin *k, uint32_t ti, const ev *e, uint32_t label, uint32_t cost) {
  thread *th = &k->th[ti];
  th->ops = xgrow(k, th->ops, sizeof *th->ops, th->n + 1, &th->cap);
  op_rec *o = &th->ops[th->n];
  o->s = e->ts;
  o->e = e->ts + e->dur;
  o->kind = kind_of(k, label, cost);
  o->parent = RLI_NONE;
  if (th->n && (th->ops[th->n - 1].s > o->s ||
                (th->ops[th->n - 1].s == o->s && th->ops[th->n - 1].e < o->e)))
    th->sorted = 0;
  th->n++;
  return o->kind;
}

/* A python_function event: a module (with_stack=True) is kept like an op
 * without a cost; other Python frames, and frames without usable times,
 * are skipped. */
static void module_event(kin *k, const ev *e) {
  if (!k->name || !RLI_STARTS(k->name, "nn.Module: ") || !e->has_ts || !e->has_dur ||
      !(e->ts > -1e17 && e->ts < 1e17) || !(e->dur >= 0 && e->dur < 1e12))
    return;
  uint32_t label = name_id(k);
  if (label == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  uint32_t ti = thread_of(k, mix(e->pid) ^ e->tid); /* may move k->th */
  push_op(k, ti, e, label, RLI_NONE);
  k->modules++;
}

/* An event of a category read must have usable ts and dur (the error
 * names the event's start, at). */
static void check_times(kin *k, const ev *e, uint64_t at) {
  rli_js *p = &k->p;
  char m[160];
  if (!e->has_ts || !e->has_dur) {
    snprintf(m, sizeof m, "a %s event without \"%s\"", cat_word(e->cat), e->has_ts ? "dur" : "ts");
    rli_js_fail(p, RL_EPARSE, at, m);
  }
  if (!(e->ts > -1e17 && e->ts < 1e17)) {
    snprintf(m, sizeof m, "a %s event's ts (%g us) is out of range", cat_word(e->cat), e->ts);
    rli_js_fail(p, RL_EPARSE, at, m);
  }
  if (!(e->dur >= 0 && e->dur < 1e12)) {
    snprintf(m, sizeof m, "a %s event's dur (%g us) is %s", cat_word(e->cat), e->dur,
             e->dur < 0 ? "negative" : "out of range");
    rli_js_fail(p, RL_EPARSE, at, m);
  }
}

/* A CUPTI range-profiler event's cost: counters, not times (weights in
 * the file's head comment) */
static uint32_t range_cost(kin *k, const ev *e) {
  rl_trace *t = k->t;
  rli_cost c;
  memset(&c, 0, sizeof c);
  double fd = 0, ff = 0, fh = 0; /* e->ctr is set only with has_ctr */
  if (e->has_ctr) {
    fd = e->ctr[0] + e->ctr[1] + 2 * e->ctr[2];
    ff = e->ctr[3] + e->ctr[4] + 2 * e->ctr[5];
    fh = 2 * e->ctr[6] + 2 * e->ctr[7] + 4 * e->ctr[8];
  }
  c.flops = e->has_ctr ? fd + ff + fh : -1;
  c.bytes = -1;
  c.dtype = fd >= ff && fd >= fh && fd > 0 ? RL_FP64 : fh > ff ? RL_FP16 : RL_FP32;
  c.measured = 1;
  const char *w = e->has_ctr ? "CUPTI range-profiler counters give FLOPs only: no DRAM bytes, "
                               "and a range's duration is not the kernel's time"
                             : "a CUPTI range-profiler event without FLOP counters";
  c.why = rli_trace_str(t, w, strlen(w));
  return rli_trace_cost(t, &c);
}

/* A kernel, range, memcpy or memset event: a kernel of the trace, its
 * correlation id kept until linking. */
/* The id of a kernel's signature: its name id with its grid and block
 * (their hash, 0 when not recorded: the name alone). */
static uint32_t sig_id(kin *k, uint32_t name, uint64_t geo, double gx) {
  uint64_t key = mix(((uint64_t)name << 32 | 0x5157u) ^ geo);
  if ((k->nsig + 1) * 2 > k->sigmapcap) {
    size_t nc = k->sigmapcap ? k->sigmapcap * 2 : 256;
    uint32_t *m = malloc(sizeof *m * nc);
    if (!m) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
    memset(m, 0xff, sizeof *m * nc);
    for (size_t i = 0; i < k->nsig; i++) {
      size_t h = (size_t)k->sigkey[i] & (nc - 1);
      while (m[h] != RLI_NONE) h = (h + 1) & (nc - 1);
      m[h] = (uint32_t)i;
    }
    free(k->sigmap);
    k->sigmap = m;
    k->sigmapcap = nc;
  }
  size_t h = (size_t)key & (k->sigmapcap - 1);
  while (k->sigmap[h] != RLI_NONE) {
    if (k->sigkey[k->sigmap[h]] == key) return k->sigmap[h];
    h = (h + 1) & (k->sigmapcap - 1);
  }
  if (k->nsig >= RLI_NONE - 1) return RLI_NONE;
  k->sigkey = xgrow(k, k->sigkey, sizeof *k->sigkey, k->nsig + 1, &k->capsig);
  k->sigkey[k->nsig] = key;
  k->siggx = xgrow(k, k->siggx, sizeof *k->siggx, k->nsig + 1, &k->capsiggx);
  k->siggx[k->nsig] = gx;
  k->signame = xgrow(k, k->signame, sizeof *k->signame, k->nsig + 1, &k->capsigname);
  k->signame[k->nsig] = name;
  k->sigbare = xgrow(k, k->sigbare, sizeof *k->sigbare, k->nsig + 1, &k->capsigbare);
  k->sigbare[k->nsig] = geo == 0;
  k->sigmap[h] = (uint32_t)k->nsig;
  return (uint32_t)k->nsig++;
}

static inline void gpu_event(kin *k, const ev *e) {
  rli_js *p = &k->p;
  rl_trace *t = k->t;
  if (rli_trace_cpu_mode(t)) { /* the CPU ops are the kernels (--cpu) */
    k->gpu_skipped++;
    return;
  }
  if (!k->have_origin) {
    k->have_origin = 1;
    k->origin = e->ts;
    rli_trace_time_origin(t, k->origin);
  }
  rli_kernel kr;
  kr.start_s = (e->ts - k->origin) * 1e-6;
  kr.dur_s = e->dur * 1e-6;
  kr.name = name_id(k);
  kr.op = RLI_NONE;
  kr.cost = RLI_NONE;
  kr.inst = RLI_NONE;
  kr.kind = e->cat == C_MEMCPY ? RLI_K_MEMCPY : e->cat == C_MEMSET ? RLI_K_MEMSET : RLI_K_KERNEL;
  kr.stream = rli_trace_stream(t, e->stream);
  kr.device = (int32_t)(e->has_device ? e->device : e->has_pid && e->pid_num >= 0 && e->pid_num < 1000000 ? e->pid_num : 0);
  if (kr.name == RLI_NONE) rli_js_fail(p, RL_ENOMEM, 0, "");
  if (k->nkc == 0 && k->kdev < 0) k->kdev = kr.device;
  if (e->cat == C_RANGE) {
    kr.dur_s = -1; /* the range's dur is not the kernel's */
    kr.cost = range_cost(k, e);
    k->ranges++;
  } else if (e->cat != C_KERNEL) {
    kr.cost = copy_cost(k, e);
  } else {
    k->kernels_timed++;
    if (e->a.has_coll) {
      /* NCCL kernels carry record_param_comms' args (PyTorch 2.1+) */
      rli_cost c;
      char why[160];
      kr.cost = rli_coll_from_args(&e->a, &c, why, sizeof why) ? rli_trace_cost(t, &c)
                                                               : rli_trace_cost_reason(t, c.reason, why);
    }
  }
  if (kr.cost == RLI_NONE && e->cat != C_KERNEL) rli_js_fail(p, RL_ENOMEM, 0, "");
  /* until linking: the correlation id in inst (RLI_NONE: none; KBIG:
   * in kin.kbig) */
  int64_t corr = e->cat != C_RANGE && e->has_corr && e->corr >= 0 ? e->corr : -1;
  kr.inst = corr < 0 ? RLI_NONE : corr < KBIG ? (uint32_t)corr : KBIG;
  if (kr.inst == KBIG) {
    k->kbig = xgrow(k, k->kbig, sizeof *k->kbig, k->nkbig + 1, &k->capkbig);
    k->kbig[k->nkbig++] = corr;
  }
  k->ksig = xgrow(k, k->ksig, sizeof *k->ksig, k->nkc + 1, &k->capksig);
  k->ksig[k->nkc] = e->cat == C_KERNEL && e->geo != ~0ull ? sig_id(k, kr.name, e->geo, e->gx) : RLI_NONE;
  rl_error e2;
  if (rli_trace_add(t, &kr, &e2) != RL_OK) rli_js_fail(p, RL_ENOMEM, 0, "");
  k->nkc++;
}

/* A CPU op's cost from its name and args. Without shapes it depends on
 * the name only: cached by label. */
static inline uint32_t op_cost(kin *k, const ev *e, uint32_t label) {
  rl_trace *t = k->t;
  int by_label = !e->a.has_dims && !e->a.has_coll;
  if (by_label && label < k->nocache && k->noshape[label] != RLI_NONE) return k->noshape[label];
  rli_cost c;
  char why[320];
  uint32_t cost;
  const char *nm = rli_trace_strat(t, label);
  why[0] = 0;
  /* the model the trace ran (rl_trace_set_model), its experts shared over
   * the file's world size */
  rli_moe moe = *rli_trace_moe(t);
  moe.world = k->world;
  int ok = rli_aten_cost_moe(nm, &e->a, moe.experts > 0 ? &moe : NULL, &c, why, sizeof why);
  if (ok < 0) {
    rli_fail(k->p.err, RL_EINVAL, "%s: %s", k->p.src->label, why);
    k->p.st = RL_EINVAL;
    longjmp(k->p.jb, 1);
  }
  if (ok && moe.experts > 0 && k->world == 0 && rli_custom_moe(nm)) k->moe_unsized = 1;
  if (ok) {
    if (c.roof == RLI_ROOF_CHIP) c.ws = rli_aten_working_set(nm, &e->a, c.bytes);
    /* a bound's note: a Triton launch's or compiled region's, or a custom
     * op's (rli_aten_cost leaves it in why) */
    const char *note = c.lower ? rli_aten_lower_note(nm, &c) : NULL;
    if (!note && why[0]) note = why;
    if (note) {
      uint32_t nid = rli_trace_str(t, note, strlen(note));
      if (nid == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
      c.note = nid + 1;
    }
    cost = rli_trace_cost(t, &c);
  } else
    cost = rli_trace_cost_reason(t, c.reason, why);
  if (cost == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  if (by_label) {
    if (label >= k->nocache) {
      size_t oc = k->nocache;
      k->noshape = xgrow(k, k->noshape, sizeof *k->noshape, (size_t)label + 1, &k->nocache);
      for (size_t i = oc; i < k->nocache; i++) k->noshape[i] = RLI_NONE;
    }
    k->noshape[label] = cost;
  }
  return cost;
}

/* Keep a cudnn backward op (cbw_op): a child recorded without its size (its
 * cost a reason, its shapes grad_output and weight or input), or a parent
 * with its three tensors. */
static void cbw_note(kin *k, const ev *e, uint32_t label, uint32_t cost, uint32_t ti, size_t idx) {
  const char *nm = k->name ? k->name : "";
  if (!e->a.has_dims || !(label_flags(k, label, nm, k->namelen) & LF_CBW)) return;
  const char *b = nm + RLI_LEN("aten::cudnn_convolution_backward");
  int child = *b != 0;
  if (child) {
    const rli_cost *own = rli_trace_cost_get(k->t, cost);
    if (!own || own->why == RLI_NONE || e->a.n_in < 3 || e->a.ndim[0] != 0) return;
  }
  for (int i = child; i < 3; i++)
    if (i >= e->a.n_in || e->a.ndim[i] < 3 || e->a.ndim[i] > 5) return;
  cbw_op **arr = child ? &k->cbc : &k->cbp;
  size_t *n = child ? &k->ncbc : &k->ncbp, *cap = child ? &k->capcbc : &k->capcbp;
  *arr = xgrow(k, *arr, sizeof **arr, *n + 1, cap);
  cbw_op *o = &(*arr)[(*n)++];
  memset(o, 0, sizeof *o);
  o->th = ti;
  o->idx = (uint32_t)idx;
  o->label = label;
  o->s = e->ts;
  o->e = e->ts + e->dur;
  for (int i = 0; i < 3; i++) {
    o->ndim[i] = i < e->a.n_in ? e->a.ndim[i] : -1;
    for (int d = 0; d < o->ndim[i] && d < 5; d++) o->dims[i][d] = e->a.dims[i][d];
    if (i < e->a.n_types) memcpy(o->types[i], e->a.types[i], sizeof o->types[i]);
  }
}

static int cmp_cbw(const void *a, const void *b) {
  const cbw_op *x = a, *y = b;
  if (x->th != y->th) return x->th < y->th ? -1 : 1;
  return x->s < y->s ? -1 : x->s > y->s;
}

static int same_shape(const cbw_op *a, int i, const cbw_op *b, int j) {
  if (a->ndim[i] != b->ndim[j]) return 0;
  for (int d = 0; d < a->ndim[i]; d++)
    if (a->dims[i][d] != b->dims[j][d]) return 0;
  return 1;
}

/* Each child recorded without its size takes it from the parent that
 * contains it on its thread (the last one starting at or before it; the
 * parents do not nest): _input the parent's self, _weight its weight,
 * when the parent's grad_output and the child's other tensor are the
 * child's; a parent whose tensors differ leaves the child uncovered with
 * that reason, no parent as it was. Before linking. */
static void link_cudnn_bwd(kin *k) {
  if (!k->ncbc || !k->ncbp) return;
  qsort(k->cbp, k->ncbp, sizeof *k->cbp, cmp_cbw);
  rli_aten_args *a = malloc(sizeof *a);
  if (!a) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  for (size_t i = 0; i < k->ncbc; i++) {
    const cbw_op *c = &k->cbc[i];
    size_t lo = 0, hi = k->ncbp;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      const cbw_op *m = &k->cbp[mid];
      if (m->th < c->th || (m->th == c->th && m->s <= c->s)) lo = mid + 1;
      else hi = mid;
    }
    const cbw_op *p = lo ? &k->cbp[lo - 1] : NULL;
    if (!p || p->th != c->th || p->e < c->e) continue;
    const char *nm = rli_trace_strat(k->t, c->label);
    int data = nm && strstr(nm, "_input") != NULL;
    int from = data ? 0 : 2; /* the parent's self or weight */
    int other = data ? 2 : 0; /* the child's tensor 2 is the parent's weight (or self) */
    rli_cost cost;
    char why[200];
    uint32_t cid;
    if (!same_shape(c, 1, p, 1) || !same_shape(c, 2, p, other)) {
      snprintf(why, sizeof why, "%s: its size not recorded, and the enclosing "
               "aten::cudnn_convolution_backward's tensors are not its own", nm ? nm : "");
      cid = rli_trace_cost_reason(k->t, RL_REASON_SHAPES, why);
    } else {
      memset(a, 0, sizeof *a);
      a->has_dims = a->has_types = 1;
      a->n_in = a->n_types = 3;
      for (int j = 0; j < 3; j++) {
        const cbw_op *src = j ? c : p;
        int sj = j ? j : from;
        a->ndim[j] = src->ndim[sj];
        for (int d = 0; d < a->ndim[j]; d++) a->dims[j][d] = src->dims[sj][d];
        memcpy(a->types[j], j ? c->types[j] : "", j ? sizeof a->types[j] : 1);
      }
      if (rli_aten_cost(nm ? nm : "", a, &cost, why, sizeof why)) {
        char note[160];
        snprintf(note, sizeof note, "the %s size from the enclosing aten::cudnn_convolution_backward's %s",
                 data ? "input" : "weight", data ? "self" : "weight");
        uint32_t nid = rli_trace_str(k->t, note, strlen(note));
        if (nid == RLI_NONE) { free(a); rli_js_fail(&k->p, RL_ENOMEM, 0, ""); }
        cost.note = nid + 1;
        cid = rli_trace_cost(k->t, &cost);
      } else {
        cid = rli_trace_cost_reason(k->t, cost.reason, why);
      }
    }
    if (cid == RLI_NONE) { free(a); rli_js_fail(&k->p, RL_ENOMEM, 0, ""); }
    k->th[c->th].ops[c->idx].kind = kind_of(k, c->label, cid);
  }
  free(a);
}

/* A cpu_op (or user annotation): an op on its thread, with what the
 * convolution, autograd-node and copy inferences need from it. */
static inline void op_event(kin *k, const ev *e) {
  k->ops++;
  uint32_t label = name_id(k);
  if (label == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  if (e->a.has_dims) k->ops_shaped++;
  uint32_t cost = op_cost(k, e, label);
  uint32_t ti = thread_of(k, mix(e->pid) ^ e->tid);
  size_t idx = k->th[ti].n;
  conv_consumer(k, e, label, ti);
  conv_note(k, e, label, cost, ti, idx);
  seq_note(k, e, label, cost, ti, idx);
  cbw_note(k, e, label, cost, ti, idx);
  note_xfer(k, e, push_op(k, ti, e, label, cost));
}

/* A runtime call: kernel launches, and HIP's memcpy calls: ROCm's copy
 * events carry no byte count, their op's shapes give it (copies are rows
 * of their own, and keeping every cudaMemcpyAsync, whose copy knows its
 * bytes, would cost memory on every CUDA trace) */
static inline int64_t ev_pid(const ev *e) {
  return e->has_pid ? e->pid_num : (int64_t)(e->pid & 0x7fffffffffffffffull);
}

static inline void runtime_event(kin *k, const ev *e) {
  unsigned rk = runtime_kind(k);
  if (rk & RT_CAPTURE) {
    k->cm = xgrow(k, k->cm, sizeof *k->cm, k->ncm + 1, &k->capcm);
    cap_mark *m = &k->cm[k->ncm++];
    m->s = e->ts;
    m->e = e->ts + e->dur;
    m->pid = ev_pid(e);
    m->thread = thread_of(k, mix(e->pid) ^ e->tid);
    m->begin = (rk & RT_BEGIN) != 0;
    return;
  }
  if (!e->has_corr || !k->name || !(rk & RT_LAUNCH)) return;
  if (rk & RT_GRAPH) {
    k->gl = xgrow(k, k->gl, sizeof *k->gl, k->ngl + 1, &k->capgl);
    k->gl[k->ngl].corr = e->corr;
    k->gl[k->ngl++].pid = ev_pid(e);
  } else if (e->kname != RLI_NONE) {
    k->nl = xgrow(k, k->nl, sizeof *k->nl, k->nnl + 1, &k->capnl);
    k->nl[k->nnl].corr = e->corr;
    k->nl[k->nnl++].name = e->kname;
  }
  launch_add(k, e->corr, e->ts, e->dur, thread_of(k, mix(e->pid) ^ e->tid));
  if ((e->bytes != -2 || e->size != -2) && (rk & RT_HIPCPY)) {
    k->cb = xgrow(k, k->cb, sizeof *k->cb, k->ncb + 1, &k->capcb);
    call_bytes *b = &k->cb[k->ncb++];
    b->corr = e->corr;
    b->size = e->bytes == -2;
    b->bytes = b->size ? e->size : e->bytes;
    b->label = name_id(k);
    if (b->label == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  }
}

/* One trace event: its fields, to the sink, then by category. at: where
 * it begins (its blanks), for messages; opened: its '{' read and a '"'
 * after it (what open_items would have read), else the cursor at `at`. */
static void event(kin *k, uint64_t at, int opened) {
  rli_js *p = &k->p;
  ev e;
  rli_kev x;
  char xcat[XCAT_CAP];
  ev_init(k, &e, &x, xcat);
  k->namelen = 0;
  if (k->name) k->name[0] = 0;
  k->events++;
  if (!opened && !open_items(p, '{', "an event object")) return;
  ev_fields(k, &e, xcat);
  ev_to_sink(k, &e, xcat);
  if (e.cat == C_OTHER || strcmp(e.ph, "X") != 0) return;
  if (e.cat == C_PYFN) {
    module_event(k, &e);
    return;
  }
  check_times(k, &e, at);
  if (e.cat == C_KERNEL || e.cat == C_RANGE || e.cat == C_MEMCPY || e.cat == C_MEMSET) {
    if (!k->capture_only) gpu_event(k, &e);
  }
  else if (e.cat == C_OP)
    op_event(k, &e);
  else if (e.cat == C_RUNTIME)
    runtime_event(k, &e);
}

static void device_props(kin *k) {
  rli_js *p = &k->p;
  if (!open_items(p, '[', "an array (deviceProperties)")) return;
  for (;;) {
    dev_prop d;
    memset(&d, 0, sizeof d);
    d.id = -1;
    rli_js_expect(p, '{', "an object in deviceProperties");
    if (rli_js_ws(p) == '}') p->pos++;
    else
      for (;;) {
        rli_sv kv = rli_js_string(p);
        char key[32];
        size_t kl = kv.n < 31 ? kv.n : 31;
        memcpy(key, kv.s, kl);
        key[kl] = 0;
        rli_js_expect(p, ':', "':' after a key");
        int c = rli_js_ws(p);
        if (!strcmp(key, "name") && c == '"') {
          rli_sv v = rli_js_string(p);
          size_t l = v.n < sizeof d.name - 1 ? v.n : sizeof d.name - 1;
          memcpy(d.name, v.s, l);
          d.name[l] = 0;
        } else if ((!strcmp(key, "id") || !strcmp(key, "totalGlobalMem") ||
                    !strcmp(key, "computeMajor") || !strcmp(key, "computeMinor") ||
                    !strcmp(key, "numSms") || !strcmp(key, "warpSize")) &&
                   (c == '-' || (c >= '0' && c <= '9'))) {
          double v = rli_js_number(p, NULL);
          if (!(v >= 0 && v < 1e16)) v = 0;
          if (key[0] == 'i') d.id = (int64_t)v;
          else if (key[0] == 't') d.mem = v;
          else if (key[0] == 'n') d.sms = v < 1e6 ? (int32_t)v : 0;
          else if (key[0] == 'w') d.warp = v < 1e6 ? (int32_t)v : 0;
          else if (key[7] == 'M' && key[8] == 'a') d.major = v < 1e6 ? (int32_t)v : 0;
          else d.minor = v < 1e6 ? (int32_t)v : 0;
        } else {
          rli_js_skip(p, 3);
        }
        if (!next_item(p, '}', "',' or '}' in deviceProperties")) break;
      }
    if (k->ndev < 16) k->dev[k->ndev++] = d;
    if (!next_item(p, ']', "',' or ']' in deviceProperties")) return;
  }
}

/* distributedInfo: {"backend":"nccl","rank":0,"world_size":16,...}; rank and
 * world size to the sink too */
static void dist_info(kin *k) {
  rli_js *p = &k->p;
  if (!open_items(p, '{', "an object (distributedInfo)")) return;
  for (;;) {
    rli_sv kv = rli_js_string(p);
    int is_ws = RLI_SV_IS(kv, "world_size"), is_rank = RLI_SV_IS(kv, "rank");
    rli_js_expect(p, ':', "':' after a key");
    int c = rli_js_ws(p);
    if ((is_ws || is_rank) && (c == '-' || (c >= '0' && c <= '9'))) {
      double v = rli_js_number(p, NULL);
      if (is_ws) k->world = v >= 1 && v < 1e7 && v == floor(v) ? (int32_t)v : 0;
      if (k->sink && k->sink->meta) k->sink->meta(k->sink->ctx, is_ws ? "world_size" : "rank", v);
    } else {
      rli_js_skip(p, 2);
    }
    if (!next_item(p, '}', "',' or '}' in distributedInfo")) return;
  }
}

static void events_array(kin *k) {
  rli_js *p = &k->p;
  if (!open_items(p, '[', "an array (traceEvents)")) return;
  event(k, rli_js_here(p), 0);
  for (;;) {
    /* the usual `,\n{"` or `, {"` between two events at once (what
     * next_item and open_items read, the same bytes) */
    const char *b = p->buf + p->pos;
    if (p->len - p->pos >= 4 && b[0] == ',' && (b[1] == '\n' || b[1] == ' ') && b[2] == '{' && b[3] == '"') {
      uint64_t at = rli_js_here(p) + 1;
      p->pos += 3;
      event(k, at, 1);
      continue;
    }
    if (!next_item(p, ']', "',' or ']' between events")) return;
    event(k, rli_js_here(p), 0);
  }
}

static void document(kin *k) {
  rli_js *p = &k->p;
  int c = rli_js_ws(p);
  if (c == 0xEF) { /* UTF-8 byte order mark */
    rli_js_ensure(p, 3);
    if (p->len - p->pos >= 3 && (unsigned char)p->buf[p->pos + 1] == 0xBB &&
        (unsigned char)p->buf[p->pos + 2] == 0xBF)
      p->pos += 3;
    c = rli_js_ws(p);
  }
  if (c < 0) rli_js_fail(p, RL_EPARSE, rli_js_here(p), "empty file: no JSON value");
  if (c == '[') {
    events_array(k);
  } else {
    int seen = 0;
    rli_js_expect(p, '{', "a JSON object with \"traceEvents\"");
    if (rli_js_ws(p) == '}') p->pos++;
    else
      for (;;) {
        rli_sv kv = rli_js_string(p);
        int is_events = RLI_SV_IS(kv, "traceEvents"), is_props = RLI_SV_IS(kv, "deviceProperties");
        int is_dist = RLI_SV_IS(kv, "distributedInfo");
        rli_js_expect(p, ':', "':' after a key");
        if (is_events) {
          if (seen) rli_js_fail(p, RL_EPARSE, rli_js_here(p), "\"traceEvents\" given twice");
          seen = 1;
          events_array(k);
        } else if (is_props && rli_js_ws(p) == '[') {
          device_props(k);
        } else if (k->sink && RLI_SV_IS(kv, "baseTimeNanoseconds") &&
                   (rli_js_ws(p) == '-' || (rli_js_ws(p) >= '0' && rli_js_ws(p) <= '9'))) {
          double v = rli_js_number(p, NULL);
          if (k->sink->meta) k->sink->meta(k->sink->ctx, "baseTimeNanoseconds", v);
        } else if (is_dist && rli_js_ws(p) == '{') {
          dist_info(k);
        } else if (RLI_SV_IS(kv, "cpu_model") && rli_js_ws(p) == '"') {
          sv_copy(k->cpu_model, sizeof k->cpu_model, rli_js_string(p));
        } else if (RLI_SV_IS(kv, "cpu_vendor") && rli_js_ws(p) == '"') {
          sv_copy(k->cpu_vendor, sizeof k->cpu_vendor, rli_js_string(p));
        } else if (RLI_SV_IS(kv, "intra_op_threads") && rli_js_ws(p) >= '0' && rli_js_ws(p) <= '9') {
          double v = rli_js_number(p, NULL);
          k->threads = v >= 1 && v <= 1000000 ? (int32_t)v : 0;
        } else if ((RLI_SV_IS(kv, "cpu_family") || RLI_SV_IS(kv, "cpu_model_id")) && rli_js_ws(p) >= '0' &&
                   rli_js_ws(p) <= '9') {
          int fam = RLI_SV_IS(kv, "cpu_family");
          double v = rli_js_number(p, NULL);
          *(fam ? &k->cpu_family : &k->cpu_model_id) = v >= 0 && v < 1e6 ? (int32_t)v : -1;
        } else {
          rli_js_skip(p, 1);
        }
        if (!next_item(p, '}', "',' or '}' at the top level")) break;
      }
    if (!seen) rli_js_fail(p, RL_EPARSE, rli_js_here(p), "no \"traceEvents\" array: not a PyTorch/Chrome trace");
  }
  if (rli_js_ws(p) >= 0) rli_js_fail(p, RL_EPARSE, rli_js_here(p), "text after the end of the JSON document");
}

/* ---- linking ------------------------------------------------------------------ */
static int cmp_op(const void *a, const void *b) {
  const op_rec *x = a, *y = b;
  if (x->s != y->s) return x->s < y->s ? -1 : 1;
  if (x->e != y->e) return x->e > y->e ? -1 : 1;
  return 0;
}

/* A collective op without its group size (nccl:_all_gather_base records
 * only its input) takes the cost of the enclosing c10d op of the same
 * collective that knows it (c10d::_allgather_base_ records output and
 * input: S and n). */
static uint32_t group_cost(kin *k, const thread *th, uint32_t j, uint32_t cost) {
  const rli_cost *c = rli_trace_cost_get(k->t, cost);
  if (!c || c->roof != RLI_ROOF_NET || c->why != RLI_NONE || c->ranks > 0) return cost;
  for (uint32_t p = th->ops[j].parent; p != RLI_NONE; p = th->ops[p].parent) {
    if (th->ops[p].kind & LINKED) continue;
    uint32_t pc = k->kinds[th->ops[p].kind].cost;
    const rli_cost *q = rli_trace_cost_get(k->t, pc);
    if (q && q->roof == RLI_ROOF_NET && q->why == RLI_NONE && q->coll == c->coll && q->ranks > 0)
      return pc;
  }
  return cost;
}

/* An op on tensor lists counted in elements (its element type is not in
 * the profile) takes the type of the first kernel it launched, from the
 * kernel's name (rli_list_cost); one op call launches kernels of one type
 * (ATen's multi-tensor fast path requires it). */
static uint32_t list_cost(kin *k, uint32_t kname, uint32_t cost) {
  const rli_cost *c = rli_trace_cost_get(k->t, cost);
  if (!c || c->per_elem == RLI_ELEM_NONE) return cost;
  rli_cost in = *c, out;
  char why[200];
  const char *kn = rli_trace_strat(k->t, kname);
  uint32_t r;
  if (rli_list_cost(&in, kn ? kn : "", &out, why, sizeof why)) {
    uint32_t nid = rli_trace_str(k->t, why, strlen(why));
    if (nid == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
    out.note = nid + 1;
    r = rli_trace_cost(k->t, &out);
  } else {
    r = rli_trace_cost_reason(k->t, RL_REASON_LISTS, why);
  }
  if (r == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  return r;
}

/* a module (python_function "nn.Module: X"), not an op */
static int is_module(const kin *k, const op_rec *o) {
  return !(o->kind & LINKED) && k->kinds[o->kind].cost == RLI_NONE;
}

/* The innermost op on the launch's thread containing it (RLI_NONE none),
 * and in *mod the innermost module around the launch (RLI_NONE). */
static uint32_t op_around(kin *k, const launch_view *l, uint32_t *mod) {
  thread *th = &k->th[l->thread];
  /* last op starting at or before the launch */
  size_t lo = 0, hi = th->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (th->ops[mid].s <= l->s) lo = mid + 1;
    else hi = mid;
  }
  uint32_t j = lo ? (uint32_t)(lo - 1) : RLI_NONE;
  while (j != RLI_NONE && th->ops[j].e < l->e) j = th->ops[j].parent;
  /* the innermost op and the innermost module containing the launch */
  *mod = RLI_NONE;
  while (j != RLI_NONE && is_module(k, &th->ops[j])) {
    if (*mod == RLI_NONE) *mod = k->kinds[th->ops[j].kind].label;
    j = th->ops[j].parent;
  }
  for (uint32_t q = j; k->modules && *mod == RLI_NONE && q != RLI_NONE; q = th->ops[q].parent)
    if (is_module(k, &th->ops[q])) *mod = k->kinds[th->ops[q].kind].label;
  return j;
}

/* ---- CUDA graphs (src/core/trace_graph.c) --------------------------------------- */
static int cmp_mark(const void *a, const void *b) {
  const cap_mark *x = a, *y = b;
  if (x->thread != y->thread) return x->thread < y->thread ? -1 : 1;
  return x->s < y->s ? -1 : x->s > y->s;
}

/* by thread, then start; ties in the order they came */
static int cmp_cap_launch(const void *a, const void *b) {
  const cap_launch *x = a, *y = b;
  if (x->th != y->th) return x->th < y->th ? -1 : 1;
  if (x->s != y->s) return x->s < y->s ? -1 : 1;
  return (x->pos > y->pos) - (x->pos < y->pos);
}

/* by op, then place in the capture */
static int cmp_cap_op(const void *a, const void *b) {
  const cap_launch *x = a, *y = b;
  if (x->op != y->op) return x->op < y->op ? -1 : 1;
  return (x->pos > y->pos) - (x->pos < y->pos);
}

/* The captures of this file to the trace: each BeginCapture .. EndCapture
 * span on a thread, the launch calls inside it that name their kernel, in
 * the order they were made, with the op around each (and that op's cost,
 * as a kernel it launched would take it). A span none of whose calls
 * names its kernel (CUDA's runtime events) is kept as unnamed. The named
 * launches are found once and sorted by thread and time, each span's by a
 * binary search. */
static void graph_captures(kin *k, uint32_t c_noop) {
  if (!k->ncm) return;
  qsort(k->cm, k->ncm, sizeof *k->cm, cmp_mark);
  size_t nall = 0;
  for (size_t q = 0; q < k->nnl; q++) {
    launch_view lv;
    if (!launch_find(k, k->nl[q].corr, &lv)) continue;
    k->cl = xgrow(k, k->cl, sizeof *k->cl, nall + 1, &k->capcl);
    cap_launch *c = &k->cl[nall];
    c->s = lv.s;
    c->e = lv.e;
    c->name = k->nl[q].name;
    c->th = lv.thread;
    c->op = RLI_NONE;
    c->pos = (uint32_t)nall++;
  }
  if (nall) qsort(k->cl, nall, sizeof *k->cl, cmp_cap_launch);
  for (size_t i = 0; i < k->ncm; i++) {
    const cap_mark *b = &k->cm[i];
    if (!b->begin) continue;
    size_t j = i + 1;
    while (j < k->ncm && k->cm[j].thread == b->thread && k->cm[j].begin) j++;
    if (j >= k->ncm || k->cm[j].thread != b->thread) continue; /* never ended */
    double s = b->s, e = k->cm[j].e;
    i = j;
    /* the first named launch on the thread starting at or after s */
    size_t lo = 0, hi = nall;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      const cap_launch *c = &k->cl[mid];
      if (c->th < b->thread || (c->th == b->thread && c->s < s)) lo = mid + 1;
      else hi = mid;
    }
    size_t ncl = 0;
    while (lo + ncl < nall && k->cl[lo + ncl].th == b->thread && k->cl[lo + ncl].s <= e) ncl++;
    cap_launch *cl = k->cl + lo;
    size_t nin = 0; /* those ending inside the span, in order */
    for (size_t q = 0; q < ncl; q++)
      if (cl[q].e <= e) nin++;
    k->cgl = xgrow(k, k->cgl, sizeof *k->cgl, nin + 1, &k->capcgl);
    rli_glaunch *gl = k->cgl;
    /* the ops, and each op call's first launch (through a copy sorted by op) */
    k->cl2 = xgrow(k, k->cl2, sizeof *k->cl2, nin + 1, &k->capcl2);
    size_t m = 0;
    for (size_t q = 0; q < ncl; q++) {
      if (cl[q].e > e) continue;
      launch_view lv = {cl[q].s, cl[q].e, cl[q].th};
      uint32_t mod;
      cap_launch c = cl[q];
      c.op = op_around(k, &lv, &mod);
      c.pos = (uint32_t)m;
      k->cl2[m] = c;
      rli_glaunch *g = &gl[m];
      g->name = c.name;
      g->first = (uint32_t)m;
      if (c.op == RLI_NONE) {
        g->op = RLI_NONE;
        g->cost = c_noop;
      } else {
        thread *th = &k->th[c.th];
        uint32_t kind = th->ops[c.op].kind;
        uint32_t label, cost;
        if (kind & LINKED) {
          label = k->kinds[k->lk[kind & ~LINKED].kind].label;
          cost = rli_trace_inst_cost(k->t, k->lk[kind & ~LINKED].inst);
        } else {
          label = k->kinds[kind].label;
          cost = list_cost(k, c.name, group_cost(k, th, c.op, k->kinds[kind].cost));
        }
        g->op = label;
        g->cost = cost;
      }
      m++;
    }
    if (m) qsort(k->cl2, m, sizeof *k->cl2, cmp_cap_op);
    for (size_t q = 0; q < m; q++)
      if (q && k->cl2[q].op != RLI_NONE && k->cl2[q].op == k->cl2[q - 1].op)
        gl[k->cl2[q].pos].first = gl[k->cl2[q - 1].pos].first;
    if (!rli_trace_graph_add(k->t, b->pid, k->capture_only, m == 0, gl, m))
      rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  }
}

/* A one-line error naming the file, not a byte of it. */
static void whole_fail(kin *k, const char *what) {
  rli_fail(k->p.err, RL_EPARSE, "%s: %s", k->p.src->label, what);
  k->p.st = RL_EPARSE;
  longjmp(k->p.jb, 1);
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* a graph launch's id among k->gl (sorted by id): its index, or -1 */
static int64_t graph_find(const kin *k, int64_t corr) {
  size_t lo = 0, hi = k->ngl;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (k->gl[mid].corr < corr) lo = mid + 1;
    else hi = mid;
  }
  return lo < k->ngl && k->gl[lo].corr == corr ? (int64_t)lo : -1;
}

static int cmp_replay(const void *a, const void *b) {
  const replay_k *x = a, *y = b;
  if (x->corr != y->corr) return x->corr < y->corr ? -1 : 1;
  if (x->s != y->s) return x->s < y->s ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

/* Link one kernel as the op around its launch call; 0 when it stays
 * unlinked (its cost says why). */
static int link_one(kin *k, rli_kernel *kr, int64_t corr, uint32_t c_nolaunch, uint32_t c_noop,
                    uint32_t c_nobytes) {
  rl_trace *t = k->t;
  int own = kr->cost != RLI_NONE;
  kr->op = kr->inst = RLI_NONE;
  if (own && kr->cost == c_nobytes && corr >= 0 && k->ncb) kr->cost = copy_from_call(k, kr, corr);
  launch_view lv, *l = corr >= 0 && launch_find(k, corr, &lv) ? &lv : NULL;
  if (!l) {
    if (!own) { kr->cost = c_nolaunch; kr->inst = RLI_UNLINKED; return 0; }
    return 1;
  }
  thread *th = &k->th[l->thread];
  uint32_t mod;
  uint32_t j = op_around(k, l, &mod);
  if (j == RLI_NONE) {
    if (!own) { kr->cost = c_noop; kr->inst = RLI_UNLINKED; return 0; }
    return 1;
  }
  op_rec *o = &th->ops[j];
  if (own && !(o->kind & LINKED)) kr->cost = copy_from_op(k, kr, o->kind, c_nobytes);
  if (!(o->kind & LINKED)) {
    const op_kind *ok = &k->kinds[o->kind];
    if (k->nlk >= LINKED) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
    k->lk = xgrow(k, k->lk, sizeof *k->lk, k->nlk + 1, &k->caplk);
    k->lk[k->nlk].kind = o->kind;
    k->lk[k->nlk].inst =
        rli_trace_new_inst(t, list_cost(k, kr->name, group_cost(k, th, j, ok->cost)));
    if (k->lk[k->nlk].inst == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
    o->kind = LINKED | (uint32_t)k->nlk++;
  }
  const op_link *ol = &k->lk[o->kind & ~LINKED];
  kr->op = k->kinds[ol->kind].label;
  kr->inst = ol->inst;
  if (mod != RLI_NONE) rli_trace_inst_module(t, ol->inst, mod);
  return 1;
}

/* The kernels of each graph replay (rp: n of them, by launch id and time)
 * given the ops of their capture's launches, one op instance per captured
 * op call and replay; a replay no capture matches keeps the op around its
 * launch call when that op has a cost (a compiled region), else stays
 * uncovered, saying why it was not matched. Returns the unlinked count. */
static int64_t graph_replays(kin *k, replay_k *rp, size_t n, uint32_t c_nolaunch,
                             uint32_t c_noop, uint32_t c_nobytes) {
  rl_trace *t = k->t;
  rl_error e2;
  int64_t unlinked = 0, matched = 0, unmatched = 0, unreplayed = 0;
  qsort(rp, n, sizeof *rp, cmp_replay);
  for (size_t a = 0; a < n;) {
    size_t b = a;
    while (b < n && rp[b].corr == rp[a].corr) b++;
    size_t m = b - a;
    k->gnames = xgrow(k, k->gnames, sizeof *k->gnames, m, &k->capgn);
    uint32_t *names = k->gnames;
    rli_kernel kk;
    for (size_t q = 0; q < m; q++) {
      if (!rli_trace_kernel_get(t, k->k0 + rp[a + q].i, &kk)) kk.name = RLI_NONE;
      names[q] = kk.name;
    }
    int64_t gi = graph_find(k, rp[a].corr);
    int64_t pid = gi >= 0 ? k->gl[gi].pid : 0;
    char why[320];
    size_t short_by = 0;
    const rli_glaunch *g = rli_trace_graph_match(t, pid, names, m, &short_by, why, sizeof why);
    if (g) {
      k->ginsts = xgrow(k, k->ginsts, sizeof *k->ginsts, m, &k->capgi);
      uint32_t *insts = k->ginsts;
      for (size_t q = 0; q < m; q++) {
        rli_trace_kernel_get(t, k->k0 + rp[a + q].i, &kk);
        kk.op = g[q].op;
        if (g[q].op == RLI_NONE) {
          kk.cost = g[q].cost;
          kk.inst = RLI_UNLINKED;
          unlinked++;
        } else {
          if (g[q].first == q) {
            insts[q] = rli_trace_new_inst(t, g[q].cost);
            if (insts[q] == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
          }
          kk.inst = insts[g[q].first];
        }
        if (rli_trace_kernel_set(t, k->k0 + rp[a + q].i, &kk, &e2) != RL_OK)
          rli_js_fail(&k->p, RL_ENOMEM, 0, "");
      }
      matched += (int64_t)m;
      unreplayed += (int64_t)short_by;
    } else {
      uint32_t c_why = rli_trace_cost_reason(t, RL_REASON_NO_OP, why);
      if (c_why == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
      for (size_t q = 0; q < m; q++) {
        rli_trace_kernel_get(t, k->k0 + rp[a + q].i, &kk);
        int linked = link_one(k, &kk, rp[a].corr, c_nolaunch, c_noop, c_nobytes);
        const rli_cost *c = linked && kk.inst != RLI_NONE
                                ? rli_trace_cost_get(t, rli_trace_inst_cost(t, kk.inst))
                                : NULL;
        if (!c || c->why != RLI_NONE) {
          /* no op, or one without a cost: the reason it was not matched */
          kk.cost = c_why;
          kk.op = RLI_NONE;
          kk.inst = RLI_UNLINKED;
          unlinked++;
        }
        if (rli_trace_kernel_set(t, k->k0 + rp[a + q].i, &kk, &e2) != RL_OK)
          rli_js_fail(&k->p, RL_ENOMEM, 0, "");
      }
      unmatched += (int64_t)m;
    }
    a = b;
  }
  rli_trace_graph_count(t, matched, unmatched, unreplayed);
  return unlinked;
}

/* An op's kind as it was read: before a kernel linked to it (LINKED) */
static inline uint32_t read_kind(const kin *k, const op_rec *o) {
  return o->kind & LINKED ? k->lk[o->kind & ~LINKED].kind : o->kind;
}

/* An op of the host's own (for the ops during the GPU's idle gaps): not a
 * module frame (is_module of the op as read), not a profiler step's
 * annotation (ProfilerStep#N spans the whole step) */
static int host_real(kin *k, const op_rec *o) {
  const op_kind *ok = &k->kinds[read_kind(k, o)];
  if (ok->cost == RLI_NONE) return 0;
  uint32_t label = ok->label;
  if (label < k->caplflag && k->lflag[label]) return !(k->lflag[label] & LF_PSTEP);
  const char *nm = rli_trace_strat(k->t, label);
  return nm && !RLI_STARTS(nm, "ProfilerStep#");
}

/* The thread's ops (parents set; each by its kind as read, whether a
 * kernel has linked to it or not) to the trace, in the kernels' time
 * origin, each with its depth: the real ops around it. The ops around the
 * current one are a stack, as when their parents were set (an op's parent
 * is on it), each with the depth of the ops inside it: no array of a depth
 * per op. */
static void host_ops(kin *k, thread *th) {
  if (!k->have_origin || !th->n) return;
  struct { uint32_t op, inner; } *st = NULL;
  size_t ns = 0, cap = 0;
  for (size_t j = 0; j < th->n; j++) {
    const op_rec *o = &th->ops[j];
    uint32_t p = o->parent;
    while (ns && st[ns - 1].op != p) ns--;
    uint32_t depth = p == RLI_NONE || !ns ? 0 : st[ns - 1].inner;
    int real = host_real(k, o);
    if (ns == cap) {
      size_t nc = cap ? cap * 2 : 64;
      void *q = realloc(st, sizeof *st * nc);
      if (!q) {
        free(st);
        rli_js_fail(&k->p, RL_ENOMEM, 0, "");
      }
      st = q;
      cap = nc;
    }
    st[ns].op = (uint32_t)j;
    st[ns++].inner = depth + (uint32_t)real;
    if (!real) continue;
    if (rli_trace_host_op(k->t, (o->s - k->origin) * 1e-6, (o->e - k->origin) * 1e-6,
                          k->kinds[read_kind(k, o)].label, depth) != RL_OK) {
      free(st);
      rli_js_fail(&k->p, RL_ENOMEM, 0, "");
    }
  }
  free(st);
}

/* Every thread's host ops, counted first and allocated at once */
static void all_host_ops(kin *k) {
  if (!k->have_origin) return;
  size_t n = 0;
  for (size_t i = 0; i < k->nth; i++)
    for (size_t j = 0; j < k->th[i].n; j++) n += (size_t)host_real(k, &k->th[i].ops[j]);
  if (rli_trace_host_reserve(k->t, n) != RL_OK) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  for (size_t i = 0; i < k->nth; i++) host_ops(k, &k->th[i]);
}

/* The launches and the ids >= KBIG, once no kernel looks for its launch */
static void launches_free(kin *k) {
  free(k->ln);
  free(k->lwide);
  free(k->lnidx);
  free(k->lz);
  free(k->la);
  free(k->lc);
  free(k->kbig);
  k->ln = NULL;
  k->lwide = NULL;
  k->lnidx = NULL;
  k->lz = NULL;
  k->la = NULL;
  k->lc = NULL;
  k->kbig = NULL;
  k->nln = k->capln = k->nlwide = k->caplwide = k->nlz = k->caplz = k->nla = k->capla = 0;
  k->nlrun = 0;
  k->nkbig = k->capkbig = 0;
}

static void link_all(kin *k) {
  rl_trace *t = k->t;
  for (size_t i = 0; i < k->nth; i++) {
    thread *th = &k->th[i];
    if (!th->sorted) qsort(th->ops, th->n, sizeof *th->ops, cmp_op);
    /* parent = the nearest earlier op that contains it */
    uint32_t *stack = malloc(sizeof *stack * (th->n + 1));
    if (!stack && th->n) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
    size_t sp = 0;
    for (size_t j = 0; j < th->n; j++) {
      while (sp && th->ops[stack[sp - 1]].e < th->ops[j].e) sp--;
      th->ops[j].parent = sp ? stack[sp - 1] : RLI_NONE;
      stack[sp++] = (uint32_t)j;
    }
    free(stack);
  }
  uint32_t c_nolaunch = rli_trace_cost_reason(
      t, RL_REASON_PRE_WINDOW,
      "no launch call with its correlation id (launched before the profiling window?)");
  uint32_t c_noop = rli_trace_cost_reason(t, RL_REASON_NO_OP, "its launch call is inside no CPU op");
  uint32_t c_nobytes = rli_trace_cost_reason(t, RL_REASON_SHAPES, "a copy without its byte count");
  if (c_nolaunch == RLI_NONE || c_noop == RLI_NONE || c_nobytes == RLI_NONE)
    rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  launch_index(k);
  if (k->ncb > 1) qsort(k->cb, k->ncb, sizeof *k->cb, cmp_cb); /* stable enough: ids are unique per call */
  graph_captures(k, c_noop);
  if (k->capture_only) {
    all_host_ops(k);
    return;
  }
  if (k->ngl) qsort(k->gl, k->ngl, sizeof *k->gl, cmp_i64); /* by id: corr is the first field */
  if (rli_trace_graph_captures(t, 1)) {
    int64_t other = 0;
    const char *src = k->ngl ? rli_trace_graph_external(t, k->gl[0].pid, &other) : NULL;
    char m[400];
    if (!k->ngl) {
      snprintf(m, sizeof m, "no CUDA-graph launch (cudaGraphLaunch, hipGraphLaunch) in it to match "
                            "the capture file %.200s to", rli_trace_graph_source_name(t));
      whole_fail(k, m);
    }
    if (src) {
      snprintf(m, sizeof m, "the capture file %.200s is of another run (its captures were made by "
                            "process %lld, this trace's graphs are launched by process %lld)",
               src, (long long)other, (long long)k->gl[0].pid);
      whole_fail(k, m);
    }
  }
  int64_t unlinked = 0;
  size_t nbig = 0;
  size_t nrp = 0;
  rl_error e2;
  for (size_t i = 0; i < k->nkc; i++) {
    rli_kernel kk, *kr = &kk;
    if (!rli_trace_kernel_get(t, k->k0 + i, kr)) continue;
    int64_t corr = kr->inst == RLI_NONE ? -1 : kr->inst == KBIG ? k->kbig[nbig++] : (int64_t)kr->inst;
    if (corr >= 0 && k->ngl && kr->kind == RLI_K_KERNEL && kr->cost == RLI_NONE &&
        graph_find(k, corr) >= 0) {
      k->rp = xgrow(k, k->rp, sizeof *k->rp, nrp + 1, &k->caprp);
      k->rp[nrp].corr = corr;
      k->rp[nrp].s = kr->start_s;
      k->rp[nrp++].i = i;
      continue;
    }
    if (!link_one(k, kr, corr, c_nolaunch, c_noop, c_nobytes)) unlinked++;
    if (rli_trace_kernel_set(t, k->k0 + i, kr, &e2) != RL_OK) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  }
  if (nrp) unlinked += graph_replays(k, k->rp, nrp, c_nolaunch, c_noop, c_nobytes);
  /* every kernel linked: the launches go before the host ops are kept (the
   * peak of a trace of many small kernels: bench/README.md) */
  launches_free(k);
  all_host_ops(k);
  /* multi-tensor kernels no op bounds, by their name and grid; then
   * kernels launched before the window, by their signature */
  int oom = 0;
  unlinked -= rli_trace_multi_tensor(t, k->k0, k->nkc, k->ksig, k->siggx, k->signame,
                                     (uint32_t)k->nsig, &oom);
  if (oom) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  unlinked -= rli_trace_infer_signature(t, k->k0, k->nkc, k->ksig, k->signame, k->sigbare,
                                        (uint32_t)k->nsig, &oom);
  if (oom) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  rli_trace_set_unlinked(t, unlinked);
}

/* ---- CPU traces: the ops are the kernels ------------------------------------
 * A trace without GPU kernels (or with --cpu: rl_trace_set_cpu) puts its CPU
 * ops under the CPU's roofs. Each op call is a kernel of its thread (the
 * thread its stream) with its SELF time: its duration less the durations
 * of the ops directly inside it (its children: the ops its interval
 * contains, nearest first, as the profiler nests them; nn.Module frames are
 * looked through), the time no op it called accounts for -- the innermost
 * ops keep their whole duration. Its cost is likewise its own share of the
 * work:
 *   - the work of an op's subtree, W(op) = max(its own F and Q, the sum of
 *     its children's W) per figure, or the children's sum where its own is
 *     unknown (so work is seen through ops that do none themselves, as
 *     batch_norm -> _batch_norm_impl_index -> native_batch_norm);
 *   - an op whose children's W carries at least half its own F and Q is a
 *     dispatcher: F = Q = 0 (its self time is the dispatch; its children
 *     are costed); an op with children and no model of its own likewise;
 *   - else its own F and Q less its children's W (at least 0): what it
 *     does beside the ops it calls (addmm's product beside its bias copy).
 * The kernel's op is the op that called it (its parent), "" at the top.
 * Per op 24 bytes of work arrays, freed at the end. */
static uint32_t cpu_note_cost(kin *k, double F, double Q, double ws, const rli_cost *like,
                              const char *note) {
  rli_cost c;
  memset(&c, 0, sizeof c);
  if (like) c = *like;
  c.flops = F;
  c.bytes = Q;
  c.ws = ws > Q ? Q : ws;
  c.why = RLI_NONE;
  c.reason = 0;
  c.lower = like ? like->lower : 0;
  if (!like) { c.dtype = -1; c.coll = -1; }
  if (note) {
    uint32_t nid = rli_trace_str(k->t, note, strlen(note));
    if (nid == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
    c.note = nid + 1;
  }
  uint32_t id = rli_trace_cost(k->t, &c);
  if (id == RLI_NONE) rli_js_fail(&k->p, RL_ENOMEM, 0, "");
  return id;
}

/* An op that only wraps others: an autograd node, the engine's frame around
 * it, a user annotation (not an ATen op): its callees, all known to do
 * nothing, leave it nothing to do. */
static int cpu_wrapper(const char *nm) {
  return !RLI_STARTS(nm, "aten::") || rli_aten_is_node(nm);
}

static void cpu_kernels(kin *k) {
  rl_trace *t = k->t;
  uint32_t c_zero = cpu_note_cost(k, 0, 0, 0, NULL, "a dispatcher: the ops it calls do its work (F and Q there)");
  uint32_t c_comp = cpu_note_cost(k, 0, 0, 0, NULL,
                                  "no model of its own: the ops it calls do its work (F and Q there)");
  uint32_t c_view = cpu_note_cost(k, 0, 0, 0, NULL, "a view, an allocation or metadata: no data moved");
  int have_origin = 0;
  for (size_t i = 0; i < k->nth; i++) {
    thread *th = &k->th[i];
    size_t n = th->n;
    if (!n) continue;
    double *wf = calloc(n, sizeof *wf), *wq = calloc(n, sizeof *wq), *self = malloc(n * sizeof *self);
    uint32_t *ep = malloc(n * sizeof *ep), *nch = calloc(n, sizeof *nch), *nunk = calloc(n, sizeof *nunk);
    if (!wf || !wq || !self || !ep || !nch || !nunk) {
      free(wf); free(wq); free(self); free(ep); free(nch); free(nunk);
      rli_js_fail(&k->p, RL_ENOMEM, 0, "");
    }
    /* the nearest enclosing op that is no module; self times */
    for (size_t j = 0; j < n; j++) {
      uint32_t q = th->ops[j].parent;
      while (q != RLI_NONE && is_module(k, &th->ops[q])) q = th->ops[q].parent;
      ep[j] = q;
      self[j] = th->ops[j].e - th->ops[j].s;
    }
    /* children after their parents in (start, -end) order: W bottom-up */
    for (size_t jj = n; jj-- > 0;) {
      if (is_module(k, &th->ops[jj])) continue;
      const rli_cost *c = rli_trace_cost_get(t, k->kinds[th->ops[jj].kind].cost);
      /* views and allocations move no data, whatever a model says (empty_like's
       * counts the tensor a GPU op would write into it) */
      int none = rli_aten_no_data(rli_trace_strat(t, k->kinds[th->ops[jj].kind].label));
      int own = !none && c && c->why == RLI_NONE && c->flops >= 0 && c->bytes >= 0 && c->roof == RLI_ROOF_CHIP;
      double f = own ? fmax(c->flops, wf[jj]) : wf[jj], q = own ? fmax(c->bytes, wq[jj]) : wq[jj];
      uint32_t p = ep[jj];
      if (p != RLI_NONE) {
        wf[p] += f;
        wq[p] += q;
        /* a callee whose work is unknown: neither its own model nor all
         * of its callees' */
        if (!own && !none && (!nch[jj] || nunk[jj])) nunk[p]++;
        self[p] -= th->ops[jj].e - th->ops[jj].s;
        nch[p]++;
      }
    }
    uint16_t stream = rli_trace_stream(t, (int64_t)i + 1);
    for (size_t j = 0; j < n; j++) {
      const op_rec *o = &th->ops[j];
      if (is_module(k, o)) continue;
      uint32_t cost = k->kinds[o->kind].cost;
      const rli_cost *c = rli_trace_cost_get(t, cost);
      int own = c && c->why == RLI_NONE && c->flops >= 0 && c->bytes >= 0 && c->roof == RLI_ROOF_CHIP;
      if (rli_aten_no_data(rli_trace_strat(t, k->kinds[o->kind].label))) {
        cost = c_view;
      } else if (nch[j] && !own && (!c || (c->roof == RLI_ROOF_CHIP && (c->reason == RL_REASON_NO_MODEL ||
                                                     cpu_wrapper(rli_trace_strat(t, k->kinds[o->kind].label))))) &&
                 (wf[j] > 0 || wq[j] > 0 || (!nunk[j] && cpu_wrapper(rli_trace_strat(t, k->kinds[o->kind].label))))) {
        cost = c_comp;
      } else if (nch[j] && own && (wf[j] > 0 || wq[j] > 0)) {
        if (wf[j] >= 0.5 * c->flops && wq[j] >= 0.5 * c->bytes) {
          cost = c_zero;
        } else {
          double F = fmax(0, c->flops - wf[j]), Q = fmax(0, c->bytes - wq[j]);
          rli_cost cc = *c;
          cost = cpu_note_cost(k, F, Q, fmin(c->ws > 0 ? c->ws : Q, Q), &cc,
                               "its own F and Q less those of the ops it calls");
        }
      }
      if (!have_origin) {
        have_origin = 1;
        k->have_origin = 1;
        k->origin = o->s;
        rli_trace_time_origin(t, o->s);
      }
      rli_kernel kr;
      memset(&kr, 0, sizeof kr);
      kr.start_s = (o->s - k->origin) * 1e-6;
      kr.dur_s = fmax(0, self[j]) * 1e-6;
      kr.name = k->kinds[o->kind].label;
      kr.op = ep[j] == RLI_NONE ? RLI_NONE : k->kinds[th->ops[ep[j]].kind].label;
      kr.cost = cost;
      kr.inst = RLI_NONE;
      kr.kind = RLI_K_KERNEL;
      kr.stream = stream;
      kr.device = 0;
      rl_error e2;
      if (rli_trace_add(t, &kr, &e2) != RL_OK) {
        free(wf); free(wq); free(self); free(ep); free(nch); free(nunk);
        rli_js_fail(&k->p, RL_ENOMEM, 0, "");
      }
      k->nkc++;
    }
    free(wf); free(wq); free(self); free(ep); free(nch); free(nunk);
  }
  rli_trace_set_cpu_ops(t, k->cpu_model, k->threads);
  rli_trace_set_cpu_id(t, k->cpu_vendor, k->cpu_family, k->cpu_model_id);
}

/* the part that may longjmp back here */
static rl_status parse_all(kin *k) {
  if (setjmp(k->p.jb) != 0) return k->p.st ? k->p.st : RL_EPARSE;
  document(k);
  infer_conv(k);
  link_nodes(k);
  link_cudnn_bwd(k);
  link_all(k);
  if (!k->capture_only && (k->nkc == 0 || rli_trace_cpu_mode(k->t)) && k->ops > 0) cpu_kernels(k);
  return RL_OK;
}

rl_status rli_read_kineto(rl_trace *t, rli_src *s, rl_error *err) {
  rl_error scratch;
  if (!err) err = &scratch;
  kin *k = calloc(1, sizeof *k);
  if (!k) return rli_fail(err, RL_ENOMEM, "%s: out of memory", s->label);
  k->t = t;
  k->kdev = -1;
  k->cpu_family = k->cpu_model_id = -1;
  k->k0 = rli_trace_nkernels(t);
  k->sink = s->sink;
  k->capture_only = s->capture;
  rl_status st;
  if (!rli_js_open(&k->p, s, err)) st = rli_fail(err, RL_ENOMEM, "%s: out of memory", s->label);
  else st = parse_all(k);
  if (st == RL_OK && k->moe_unsized && k->world > 1)
    st = rli_fail(err, RL_EINVAL, "%s: its distributedInfo (world size %d) follows MoE ops costed with --model "
                  "as one rank's whole share: put distributedInfo before traceEvents", s->label, (int)k->world);
  if (st == RL_OK && k->capture_only) {
    if (!rli_trace_graph_captures(t, 1))
      st = rli_fail(err, RL_EPARSE,
                    "%s: no CUDA-graph capture in it (no cudaStreamBeginCapture .. "
                    "cudaStreamEndCapture, hipStreamBeginCapture .. hipStreamEndCapture)",
                    s->label);
    else
      rli_trace_graph_source(t, s->label);
  } else if (st == RL_OK) {
    rli_trace_set_format(t, "kineto");
    rli_trace_count_events(t, k->events);
    rli_trace_set_no_shapes(t, k->ops > 0 && k->ops_shaped == 0);
    rli_trace_set_world(t, k->world);
    if (k->nkc == 0)
      st = rli_fail(err, RL_EPARSE, "%s: no GPU kernels and no CPU ops among its %lld events",
                    s->label, (long long)k->events);
    /* the device the kernels ran on */
    const dev_prop *d = NULL;
    for (int i = 0; i < k->ndev; i++)
      if (k->dev[i].id == k->kdev) d = &k->dev[i];
    if (!d && k->ndev) d = &k->dev[0];
    if (d && (d->name[0] || (d->major > 0 && d->sms > 0))) {
      rli_trace_set_device(t, d->name, d->mem, d->major, d->minor);
      rli_trace_set_device_units(t, d->sms, d->warp);
    }
  }
  for (size_t i = 0; i < k->nth; i++) free(k->th[i].ops);
  free(k->th);
  free(k->thmap);
  launches_free(k); /* freed already once every kernel linked; not on an error or a capture */
  free(k->ksig);
  free(k->sigkey);
  free(k->siggx);
  free(k->signame);
  free(k->sigbare);
  free(k->sigmap);
  free(k->nl);
  free(k->cm);
  free(k->gl);
  free(k->cl);
  free(k->cl2);
  free(k->cgl);
  free(k->rp);
  free(k->gnames);
  free(k->ginsts);
  free(k->noshape);
  free(k->kinds);
  free(k->kindmap);
  free(k->lk);
  free(k->kxfer);
  free(k->cb);
  free(k->cbc);
  free(k->cbp);
  free(k->nm);
  free(k->nmtext);
  free(k->lflag);
  for (int i = 0; i < 8; i++) free(k->rt[i].s);
  free(k->pend);
  free(k->anchor);
  free(k->node);
  free(k->bwd);
  free(k->sfwd);
  free(k->snode);
  free(k->name);
  rli_js_close(&k->p);
  free(k);
  return st;
}
