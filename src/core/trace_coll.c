/*
 * trace_coll.c -- collectives and kernel families in a profiled run.
 *
 * Collectives (NCCL kernels) are measured as nccl-tests measures them
 * (github.com/NVIDIA/nccl-tests, doc/PERFORMANCE.md):
 *   algbw = S / t
 *   busbw = algbw x factor, factor = 2(n-1)/n for all-reduce, (n-1)/n for
 *           all-gather, reduce-scatter and all-to-all, 1 for broadcast,
 *           reduce and send/recv,
 * where S is the all-reduce's buffer, the all-gather's output, the
 * reduce-scatter's input, the all-to-all's send buffer, the broadcast's or
 * reduce's buffer, the message sent. busbw is the bandwidth each link would
 * carry with the ring algorithm (Patarasuk & Yuan 2009) and does not depend
 * on n, so it compares with the bandwidth of one link direction: the roof of
 * a collective of S bytes is factor x S / link. A group of one rank moves
 * nothing over the network (factor 0).
 *
 * Kernel families are read from the kernel's own name, its function's
 * name without template arguments or parameters (the table families[]
 * below, with the libraries' naming it follows). The readers of a kernel's
 * demangled name are here: its own name, its template arguments (the
 * element type of a tensor-list op's kernel, trace_aten.c; a
 * multi-tensor-apply kernel's metadata and functor, trace_mta.c) and the
 * format its tensor cores ran.
 */
#include "core/trace_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const coll_names[RLI_COLL_COUNT] = {
    "allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "reduce", "sendrecv"};

const char *rli_coll_name(int32_t kind) {
  return kind >= 0 && kind < RLI_COLL_COUNT ? coll_names[kind] : "collective";
}

int32_t rli_coll_kind(const char *name) {
  if (!name) return -1;
  /* lower case, without ':' '_' '-' and the namespaces */
  char b[64];
  size_t n = 0;
  if (RLI_STARTS(name, "nccl:")) name += RLI_LEN("nccl:");
  else if (RLI_STARTS(name, "c10d::")) name += RLI_LEN("c10d::");
  else if (RLI_STARTS(name, "gloo:")) return -1; /* not NCCL kernels */
  for (const char *p = name; *p && n + 1 < sizeof b; p++) {
    char c = *p;
    if (c == '_' || c == '-' || c == ':' || c == ' ') continue;
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    b[n++] = c;
  }
  b[n] = 0;
  /* an NCCL kernel's name: ncclKernel_AllReduce_RING_LL_Sum_float,
   * ncclDevKernel_AllGather_RING_LL(...) */
  const char *q = b;
  if (RLI_STARTS(q, "ncclkernel")) q += RLI_LEN("ncclkernel");
  else if (RLI_STARTS(q, "nccldevkernel")) q += RLI_LEN("nccldevkernel");
  static const struct { const char *p; int32_t k; } pre[] = {
      {"allreduce", RLI_COLL_ALLREDUCE},       {"allgather", RLI_COLL_ALLGATHER},
      {"reducescatter", RLI_COLL_REDUCESCATTER}, {"alltoall", RLI_COLL_ALLTOALL},
      {"broadcast", RLI_COLL_BROADCAST},       {"sendrecv", RLI_COLL_SENDRECV},
      {"send", RLI_COLL_SENDRECV},             {"recv", RLI_COLL_SENDRECV}};
  for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
    if (!strncmp(q, pre[i].p, strlen(pre[i].p))) return pre[i].k;
  if (!strcmp(q, "reduce") || !strcmp(q, "reducebase") || (q != b && RLI_STARTS(q, "reduce")))
    return RLI_COLL_REDUCE;
  return -1;
}

double rli_coll_factor(int32_t kind, double n) {
  if (!(n > 1)) return 0; /* one rank: nothing crosses the network */
  switch (kind) {
  case RLI_COLL_ALLREDUCE: return 2 * (n - 1) / n;
  case RLI_COLL_ALLGATHER:
  case RLI_COLL_REDUCESCATTER:
  case RLI_COLL_ALLTOALL: return (n - 1) / n;
  default: return 1;
  }
}

int rli_coll_cost(int32_t kind, double S, double n, rli_cost *c, char *why, size_t cap) {
  rli_cost_init(c, RL_REASON_SHAPES);
  c->roof = RLI_ROOF_NET;
  c->coll = kind;
  if (kind < 0 || kind >= RLI_COLL_COUNT) {
    snprintf(why, cap, "not a collective NCCL runs");
    c->reason = RL_REASON_NO_MODEL;
    return 0;
  }
  /* 1e15 B: beyond the memory of any device, so not a real message */
  if (!(S >= 0) || !(S < 1e15)) {
    snprintf(why, cap, "%s of %g bytes: the message size is %s", coll_names[kind], S,
             S < 0 ? "negative" : "absurd");
    return 0;
  }
  if (n >= 0 && (!(n >= 1) || n != floor(n) || n > 1e7)) {
    snprintf(why, cap, "%s: group size %g is not a rank count", coll_names[kind], n);
    return 0;
  }
  c->flops = 0;
  c->bytes = S;
  c->ranks = n > 0 ? (int32_t)n : 0;
  c->reason = 0;
  return 1;
}


/* ---- kernel families ------------------------------------------------------ */
static int has(const char *s, const char *needle) { return strstr(s, needle) != NULL; }

/* "gemm" that is not the tail of "fbgemm" (FBGEMM's sparse and embedding
 * kernels carry fbgemm_gpu:: in their names and are not GEMMs) */
static int has_gemm(const char *s) {
  for (const char *p = strstr(s, "gemm"); p; p = strstr(p + 4, "gemm"))
    if (p - s < 2 || p[-2] != 'f' || p[-1] != 'b') return 1;
  return 0;
}

/* needle (lower case) in s, ignoring the case of s */
static int has_nocase(const char *s, const char *needle) {
  for (; *s; s++) {
    size_t i = 0;
    while (needle[i] && (s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]) == needle[i]) i++;
    if (!needle[i]) return 1;
  }
  return 0;
}

enum { OWN_MARK = 1, OWN_NO_ANON = 2, OWN_DEMANGLE = 4 };
#define OWN_PUT(ch) \
  do { \
    if (n + 1 < cap) out[n] = (ch); \
    n++; \
  } while (0)

/* ---- a mangled name's parts, skipped -------------------------------------
 * The Itanium C++ ABI's grammar (itanium-cxx-abi.github.io/cxx-abi/abi.html,
 * "Mangling"), as far as a kernel's name needs it to step over template
 * arguments: each m_* reads the production its comment names from p and
 * returns where it ends, or NULL when p does not start one, starts one this
 * reader does not follow (an <expression>, a decltype, a default argument's
 * scope), is cut short, or nests deeper than M_DEPTH. Nothing is written;
 * no byte past the name's NUL is read (every test of a character fails on
 * the NUL; a <source-name>'s length is checked with strnlen). */
#define M_DEPTH 256

static const char *m_type(const char *p, int d);
static const char *m_name(const char *p, int d);
static const char *m_targs(const char *p, int d);

static int m_digit(char c) { return c >= '0' && c <= '9'; }

/* <source-name> ::= <positive length number> <identifier>: *id, *len */
static const char *m_source(const char *p, const char **id, size_t *len) {
  size_t n = 0;
  if (*p < '1' || *p > '9') return NULL;
  while (m_digit(*p)) {
    n = n * 10 + (size_t)(*p++ - '0');
    if (n > 4096) return NULL; /* not a name's length */
  }
  if (strnlen(p, n) < n) return NULL; /* cut short */
  if (id) *id = p;
  if (len) *len = n;
  return p + n;
}

/* a <ctor-dtor-name>: 1 for C1-C5, 2 for D0-D2, D4, D5, else 0 */
static int m_ctor(const char *p) {
  if (p[0] == 'C' && p[1] >= '1' && p[1] <= '5') return 1;
  if (p[0] == 'D' && p[1] >= '0' && p[1] <= '5' && p[1] != '3') return 2;
  return 0;
}

/* <substitution> ::= S_ | S <seq-id> _ | St | Sa | Sb | Ss | Si | So | Sd */
static const char *m_subst(const char *p) {
  if (p[0] != 'S') return NULL;
  if (p[1] && strchr("tabsiod", p[1])) return p + 2;
  for (p++; m_digit(*p) || (*p >= 'A' && *p <= 'Z'); p++) {}
  return *p == '_' ? p + 1 : NULL;
}

/* <template-param> ::= T_ | T <number> _ */
static const char *m_tparam(const char *p) {
  if (*p != 'T') return NULL;
  for (p++; m_digit(*p); p++) {}
  return *p == '_' ? p + 1 : NULL;
}

/* <unqualified-name>: a <source-name> (after GCC's L, internal linkage),
 * a <ctor-dtor-name>, an <operator-name> (two lower-case letters; cv <type>,
 * li <source-name>), an unnamed type (Ut [<number>] _) or a lambda's closure
 * (Ul <type>+ E [<number>] _); then its ABI tags (B <source-name>) */
static const char *m_unqual(const char *p, int d) {
  const char *q = NULL;
  if (p[0] == 'L' && p[1] >= '1' && p[1] <= '9') p++;
  if (*p >= '1' && *p <= '9') {
    q = m_source(p, NULL, NULL);
  } else if (m_ctor(p)) {
    q = p + 2;
  } else if (p[0] == 'U' && (p[1] == 't' || p[1] == 'l')) {
    q = p + 2;
    if (p[1] == 'l') {
      do q = m_type(q, d + 1);
      while (q && *q != 'E');
      if (q) q++;
    }
    while (q && m_digit(*q)) q++;
    q = q && *q == '_' ? q + 1 : NULL;
  } else if (p[0] == 'c' && p[1] == 'v') {
    q = m_type(p + 2, d + 1);
  } else if (p[0] == 'l' && p[1] == 'i') {
    q = m_source(p + 2, NULL, NULL);
  } else if (p[0] >= 'a' && p[0] <= 'z' && p[1] >= 'a' && p[1] <= 'z') {
    q = p + 2;
  }
  while (q && *q == 'B') q = m_source(q + 1, NULL, NULL);
  return q;
}

/* <nested-name> ::= N [<CV-qualifiers>] [<ref-qualifier>] <prefix> E: a
 * substitution or template parameter first, then names, each maybe with
 * its <template-args> (M: a closure's data-member prefix) */
static const char *m_nested(const char *p, int d) {
  int parts = 0;
  for (p++; *p == 'r' || *p == 'V' || *p == 'K'; p++) {}
  if (*p == 'R' || *p == 'O') p++;
  while (p && *p != 'E') {
    if (*p == 'S' && p[1] != 't') p = parts ? NULL : m_subst(p);
    else if (*p == 'S') p = parts ? NULL : p + 2;
    else if (*p == 'T') p = parts ? NULL : m_tparam(p);
    else if (*p == 'I') p = parts ? m_targs(p, d + 1) : NULL;
    else if (*p == 'M') p = parts ? p + 1 : NULL;
    else p = m_unqual(p, d + 1);
    parts++;
  }
  return p && parts ? p + 1 : NULL;
}

/* <encoding> as a <local-name> or a literal holds it: its <name>, then its
 * <bare-function-type> (none for a variable) up to the E that closes it */
static const char *m_encoding(const char *p, int d) {
  p = m_name(p, d + 1);
  while (p && *p != 'E') p = m_type(p, d + 1);
  return p;
}

/* <local-name> ::= Z <encoding> E <entity name> [<discriminator>]
 *                | Z <encoding> E s [<discriminator>] */
static const char *m_local(const char *p, int d) {
  p = m_encoding(p + 1, d + 1);
  if (!p) return NULL;
  p++; /* the E */
  p = *p == 's' ? p + 1 : m_name(p, d + 1);
  if (p && p[0] == '_' && m_digit(p[1])) return p + 2;
  if (p && p[0] == '_' && p[1] == '_') {
    for (p += 2; m_digit(*p); p++) {}
    return *p == '_' ? p + 1 : NULL;
  }
  return p;
}

/* <name>: nested, local, or unscoped (St <unqualified-name>, a
 * substitution, an <unqualified-name>), maybe with its <template-args> */
static const char *m_name(const char *p, int d) {
  if (d > M_DEPTH) return NULL;
  if (*p == 'N') return m_nested(p, d);
  if (*p == 'Z') return m_local(p, d);
  if (p[0] == 'S' && p[1] == 't') p = m_unqual(p + 2, d);
  else if (*p == 'S') p = m_subst(p);
  else p = m_unqual(p, d);
  return p && *p == 'I' ? m_targs(p, d + 1) : p;
}

/* the D types: Dd De Df Dh Di Ds Du Da Dc Dn, DF <number> _ (or b: bfloat16,
 * x), DB/DU <number> _ (_BitInt), Dv <number> _ <type> (a vector), Dp <type>
 * (a pack expansion); Dt and DT (decltype) are not followed */
static const char *m_dtype(const char *p, int d) {
  char c = p[1];
  if (c && strchr("defhisuacn", c)) return p + 2;
  if (c != 'F' && c != 'B' && c != 'U' && c != 'v' && c != 'p') return NULL;
  if (c == 'p') return m_type(p + 2, d + 1);
  p += 2;
  if (!m_digit(*p)) return NULL;
  while (m_digit(*p)) p++;
  if (c == 'F' && (*p == 'b' || *p == 'x')) return p + 1;
  if (*p != '_') return NULL;
  return c == 'v' ? m_type(p + 1, d + 1) : p + 1;
}

/* <type>: a builtin, a qualified or compound type (r V K P R O C G, F ... E
 * a function, A an array, M a member pointer), a class or enum (a <name>),
 * a template parameter or substitution (maybe with <template-args>), a
 * vendor type (u) or qualifier (U) */
static const char *m_type(const char *p, int d) {
  char c = *p;
  if (d > M_DEPTH || !c) return NULL;
  if (strchr("vwbcahstijlmxynofdegz", c)) return p + 1;
  switch (c) {
  case 'r': case 'V': case 'K': case 'P': case 'R': case 'O': case 'C': case 'G':
    return m_type(p + 1, d + 1);
  case 'D':
    return m_dtype(p, d);
  case 'u':
    p = m_source(p + 1, NULL, NULL);
    return p && *p == 'I' ? m_targs(p, d + 1) : p;
  case 'U':
    if (p[1] == 't' || p[1] == 'l') return m_name(p, d + 1);
    p = m_source(p + 1, NULL, NULL);
    if (p && *p == 'I') p = m_targs(p, d + 1);
    return p ? m_type(p, d + 1) : NULL;
  case 'F':
    p += p[1] == 'Y' ? 2 : 1;
    do {
      p = m_type(p, d + 1);
      if (p && (*p == 'R' || *p == 'O') && p[1] == 'E') p++; /* a ref-qualifier */
    } while (p && *p != 'E');
    return p ? p + 1 : NULL;
  case 'A':
    p++;
    if (m_digit(*p))
      while (m_digit(*p)) p++;
    return *p == '_' ? m_type(p + 1, d + 1) : NULL;
  case 'M':
    p = m_type(p + 1, d + 1);
    return p ? m_type(p, d + 1) : NULL;
  case 'T':
    p = m_tparam(p);
    return p && *p == 'I' ? m_targs(p, d + 1) : p;
  case 'S': case 'N': case 'Z':
    return m_name(p, d + 1);
  default:
    return c >= '1' && c <= '9' ? m_name(p, d + 1) : NULL;
  }
}

/* <expr-primary> ::= L <type> <value> E | L <type> E | L _Z <encoding> E
 * (GCC before 4.x: LZ); a value is [n] then digits, or lower-case hex */
static const char *m_literal(const char *p, int d) {
  p++;
  if (p[0] == '_' && p[1] == 'Z') {
    p = m_encoding(p + 2, d + 1);
  } else if (p[0] == 'Z') {
    p = m_encoding(p + 1, d + 1);
  } else {
    p = m_type(p, d + 1);
    if (p && *p != 'E') {
      if (*p == 'n') p++;
      const char *v = p;
      while (m_digit(*p) || (*p >= 'a' && *p <= 'f') || *p == '_') p++;
      if (p == v) return NULL;
    }
  }
  return p && *p == 'E' ? p + 1 : NULL;
}

/* <template-arg>: a <type>, a literal (L), a pack (J <template-arg>* E),
 * an <expression> (X ... E) only as a literal, a template parameter or the
 * address of a literal (X ad L_Z...E E: g++'s function-pointer argument) */
static const char *m_targ(const char *p, int d) {
  if (d > M_DEPTH) return NULL;
  if (*p == 'L') return m_literal(p, d);
  if (*p == 'X') {
    p++;
    if (p[0] == 'a' && p[1] == 'd') p += 2;
    p = *p == 'L' ? m_literal(p, d + 1) : m_tparam(p);
    return p && *p == 'E' ? p + 1 : NULL;
  }
  if (*p != 'J') return m_type(p, d);
  for (p++; p && *p != 'E'; p = m_targ(p, d + 1)) {}
  return p ? p + 1 : NULL;
}

/* <template-args> ::= I <template-arg>+ E */
static const char *m_targs(const char *p, int d) {
  if (d > M_DEPTH || *p != 'I') return NULL;
  p++;
  do p = m_targ(p, d + 1);
  while (p && *p != 'E');
  return p ? p + 1 : NULL;
}

/* A name the profiler left mangled (ROCm records some kernels so, e.g.
 * composable_kernel's "_ZN2ck16tensor_operation6device37kernel_batched_
 * gemm_xdlops_bwd_weightINS_47GridwiseGemm..."): its function's name read
 * from the Itanium C++ ABI's mangling (the m_* readers above): _Z [L] then
 * a <nested-name>, N [r][V][K][R|O] <source-name>... E, or one
 * <source-name> (St: std::); a <source-name> is <length><identifier>,
 * "_GLOBAL__N..." the anonymous namespace, ABI tags (B...) left out. The
 * names are read up to the end of the nested name or the template
 * arguments ('I': "<>" with OWN_MARK) that end it; arguments that more
 * names follow (a member of a class template, "_ZNSt6vectorIiE9push_backE
 * RKi": std::vector<>::push_back) are stepped over, a constructor or
 * destructor after them named by its class (C1-C5: Kern, D0-D5: ~Kern).
 * Anything else (a substitution after the first name, an operator,
 * arguments the readers do not follow or that are cut short) ends the
 * reading there, at the arguments' "<>". Returns the length written (as
 * own_name), or 0 when not even one name could be read (the caller then
 * shows the mangled name as it is). */
static size_t own_mangled(const char *s, char *out, size_t cap, int how) {
  size_t n = 0, last_n = 0;
  const char *p = s + 2, *last = NULL;
  int parts = 0;
  if (*p == 'L') p++;
  int nested = *p == 'N';
  if (nested) {
    p++;
    while (*p == 'r' || *p == 'V' || *p == 'K') p++;
    if (*p == 'R' || *p == 'O') p++;
  }
  if (p[0] == 'S' && p[1] == 't') {
    for (const char *q = "std"; *q; q++) OWN_PUT(*q);
    parts++;
    p += 2;
  }
  for (;;) {
    const char *id = NULL;
    size_t len = 0;
    const char *q = m_source(p, &id, &len);
    int ctor = !q && nested && last ? m_ctor(p) : 0;
    if (ctor) { /* named by its class */
      q = p + 2;
      id = last;
      len = last_n;
    }
    if (!q) break;
    int anon = !ctor && len >= 10 && !strncmp(id, "_GLOBAL__N", 10);
    if (!(anon && (how & OWN_NO_ANON))) {
      if (parts) {
        OWN_PUT(':');
        OWN_PUT(':');
      }
      if (ctor == 2) OWN_PUT('~');
      const char *w = anon ? "(anonymous namespace)" : id;
      size_t wn = anon ? strlen(w) : len;
      for (size_t i = 0; i < wn; i++) OWN_PUT(w[i]);
      parts++;
    }
    if (!anon) {
      last = id;
      last_n = len;
    }
    p = q;
    while (*p == 'B' && (q = m_source(p + 1, NULL, NULL)) != NULL) p = q; /* ABI tags */
    if (!nested) break;
    if (*p == 'I') { /* more names after the arguments: a class template's member */
      q = m_targs(p, 0);
      if (!q || !((*q >= '1' && *q <= '9') || m_ctor(q))) break;
      if (how & OWN_MARK) {
        OWN_PUT('<');
        OWN_PUT('>');
      }
      p = q;
    }
  }
  if (!parts) return 0;
  if (*p == 'I' && (how & OWN_MARK)) {
    OWN_PUT('<');
    OWN_PUT('>');
  }
  if (cap) out[n < cap ? n : cap - 1] = 0;
  return n;
}

/* The one parser of a kernel's name (rli_kernel_own_name,
 * rl_kernel_display_name): s, a demangled signature (a mangled one with
 * OWN_DEMANGLE, for display: own_mangled above; the families read a
 * mangled name whole, its template arguments with it, as ck_tile's
 * "kentry" wrapper says what it runs only there), up to its parameters or ROCm's " [clone .kd]", without "void " and the template arguments
 * ("<>" where a list was when OWN_MARK and something precedes it), the
 * namespaces written in brackets ("(anonymous namespace)", "<unnamed>",
 * "{anonymous}") kept as the namespaces they are, or left out with their
 * "::" when OWN_NO_ANON; blanks at the end dropped. Writes what fits in
 * out[0..cap) (NUL-terminated when cap > 0) and returns the whole length. */
static size_t own_name(const char *s, char *out, size_t cap, int how) {
  size_t n = 0, blanks = 0;
  int angle = 0;
  if ((how & OWN_DEMANGLE) && s[0] == '_' && s[1] == 'Z' && (n = own_mangled(s, out, cap, how)) > 0) return n;
  if (RLI_STARTS(s, "void ")) s += RLI_LEN("void ");
  for (const char *p = s; *p; p++) {
    /* a namespace written in brackets is part of the name */
    const char *lit = RLI_STARTS(p, "(anonymous namespace)") ? "(anonymous namespace)"
                      : RLI_STARTS(p, "<unnamed>")           ? "<unnamed>"
                      : RLI_STARTS(p, "{anonymous}")         ? "{anonymous}"
                                                              : NULL;
    if (lit) {
      p += strlen(lit) - 1;
      if (angle) continue;
      if (how & OWN_NO_ANON) {
        if (RLI_STARTS(p + 1, "::")) p += 2;
        continue;
      }
      for (; blanks; blanks--) OWN_PUT(' ');
      for (const char *q = lit; *q; q++) OWN_PUT(*q);
      continue;
    }
    if (*p == '<') {
      if (angle++ == 0 && n && (how & OWN_MARK)) {
        for (; blanks; blanks--) OWN_PUT(' ');
        OWN_PUT('<');
        OWN_PUT('>');
      }
      continue;
    }
    if (*p == '>') { if (angle) angle--; continue; }
    if (angle) continue;
    if (*p == '(') break; /* the parameters */
    if (*p == ' ' && RLI_STARTS(p, " [clone")) break; /* ROCm's " [clone .kd]" */
    if (*p == ' ') { blanks++; continue; } /* written when a name follows */
    for (; blanks; blanks--) OWN_PUT(' ');
    OWN_PUT(*p);
  }
  if (cap) out[n < cap ? n : cap - 1] = 0;
  return n;
}
#undef OWN_PUT

void rli_kernel_own_name(const char *s, char *out, size_t cap) { own_name(s, out, cap, 0); }

/* The display name of `how` (own_name's) into b (bcap bytes, or a buffer of
 * its own when longer; *heap says so): the last name when last. Returns
 * where it starts in the buffer and *len its length. */
static const char *display(const char *s, int how, int last, char *b, size_t bcap, char **heap,
                           size_t *len) {
  size_t n = own_name(s, NULL, 0, how);
  char *d = b;
  *heap = NULL;
  if (n + 1 > bcap) {
    *heap = malloc(n + 1);
    if (!*heap) { /* no memory: the name as it is */
      *len = strlen(s);
      return s;
    }
    d = *heap;
  }
  own_name(s, d, n + 1, how);
  const char *base = d;
  if (last) { /* the last name after a namespace ("::") */
    const char *prev = d;
    for (const char *p = d; (p = strstr(p, "::")) != NULL; p += 2)
      if (p[2]) prev = base, base = p + 2;
    if (strlen(base) < 8) base = prev; /* "Kernel": keep its namespace */
    while (*base == ' ') base++;
  }
  if (!*base) { /* nothing but template arguments or parameters */
    if (RLI_STARTS(s, "void ")) s += RLI_LEN("void ");
    base = s;
  }
  *len = strlen(base);
  return base;
}

size_t rl_kernel_display_name(const char *name, char *out, size_t cap, int32_t flags) {
  char b[512], *heap;
  size_t n;
  int how = OWN_DEMANGLE | ((flags & RL_NAME_MARK_TEMPLATES) ? OWN_MARK : 0), last = (flags & RL_NAME_LAST) != 0;
  if (!name) name = "";
  const char *d = display(name, how, last, b, sizeof b, &heap, &n);
  if (cap && n + 1 > cap) { /* cut: an anonymous namespace goes first */
    char b2[512], *heap2;
    size_t n2;
    const char *d2 = display(name, how | OWN_NO_ANON, last, b2, sizeof b2, &heap2, &n2);
    if (n2 < n) {
      snprintf(out, cap, "%s", d2);
      n = n2;
    } else {
      snprintf(out, cap, "%s", d);
    }
    free(heap2);
  } else if (cap) {
    snprintf(out, cap, "%s", d);
  }
  free(heap);
  if (cap > sizeof "..." && n + 1 > cap) memcpy(out + cap - sizeof "...", "...", sizeof "...");
  return n;
}

/* A name can end before its template list does (cut short). An argument
 * is given only when its ',' or the list's '>' was read: what the name ends
 * in could be any argument with that beginning ("float" of "float2",
 * "__half" of "__half2", "OpaqueType<1" of "OpaqueType<16u>"), and a bound
 * read from a type the cut may have changed is no bound. */
int rli_kernel_targs(const char *p, rli_targ *a, int max, int *closed) {
  *closed = 0;
  if (!p || *p != '<') return -1;
  int depth = 0, n = 0;
  const char *start = p + 1;
  for (const char *q = p + 1; *q; q++) {
    if (*q == '<' || *q == '(') depth++;
    else if ((*q == '>' || *q == ')') && depth) depth--;
    else if ((*q == ',' || *q == '>') && !depth) {
      if (n >= max) return n; /* more than max: not all given */
      const char *b = start, *e = q;
      while (b < e && *b == ' ') b++;
      while (e > b && e[-1] == ' ') e--;
      a[n].s = b;
      a[n].n = (size_t)(e - b);
      n++;
      if (*q == '>') {
        *closed = 1;
        return n;
      }
      start = q + 1;
    }
  }
  return n; /* the name ends inside the list */
}

const char *rli_kernel_targ_name(const rli_targ *a, char *out, size_t cap) {
  size_t k = 0;
  int depth = 0;
  const char *lt = NULL;
  if (!cap) return NULL;
  for (size_t i = 0; i < a->n; i++) {
    char ch = a->s[i];
    if (ch == '(' || ch == '<') depth++;
    if (!depth && ch == ':' && i + 1 < a->n && a->s[i + 1] == ':') { k = 0; i++; continue; }
    if (ch == '<' && depth == 1 && !lt) lt = a->s + i;
    if (!depth && k + 1 < cap) out[k++] = ch;
    if ((ch == ')' || ch == '>') && depth) depth--;
  }
  out[k] = 0;
  return lt;
}

/* Kernel families, first match wins. Each pattern is matched against the
 * kernel's own name (rli_kernel_own_name): FUNC its function's name, the
 * last part; QUAL with its namespaces ("moe::dev::finalize::finalizeKernel");
 * START the start of the whole name. Template arguments and parameters are
 * never read: "cutlass::bfloat16_t" in a MoE kernel's template arguments
 * makes no GEMM, "flashinfer::QuantizationSFLayout" in a quantize kernel's
 * parameters no attention. The prefixes are the libraries' own: cuBLAS/
 * cuBLASLt "sm80_xmma_gemm", "ampere_", "nvjet", "splitKreduce"; CUTLASS
 * "cutlass::"; cuDNN "cudnn::", "implicit_convolve"; Triton/Inductor
 * "triton_poi_", "triton_red_", "triton_per_", "triton_tem_"
 * (torch/_inductor/codegen naming); NCCL "ncclKernel", "ncclDevKernel";
 * ATen's "elementwise_kernel", "reduce_kernel", "multi_tensor_apply_kernel";
 * FBGEMM "fbgemm_gpu::", "split_embedding_codegen"; collectives written as
 * kernels outside NCCL: PyTorch's symmetric-memory all-reduce
 * ("multimem_all_reduce_kernel", torch/csrc/distributed/c10d/symm_mem),
 * TensorRT-LLM's and FlashInfer's all-reduce fusion ("allreduce_fusion_kernel_*"),
 * DeepEP's dispatch and combine ("deep_ep::intranode::dispatch",
 * "deep_ep::internode_ll::combine", DeepSeek's "dpsk::ep::"), which move an
 * MoE layer's tokens to their experts and back: an all-to-all; TensorRT-LLM's
 * MoE routing and finalize ("moe::dev::routing::", "moe::dev::finalize::"). */
enum { FAM_FUNC, FAM_QUAL, FAM_START, FAM_FUNC_NOCASE, FAM_GEMM };
static const struct {
  int where;
  const char *pattern, *family;
} families[] = {
    {FAM_START, "Memcpy", "memcpy"},
    {FAM_START, "Memset", "memset"},
    {FAM_QUAL, "nccl", "NCCL"},
    {FAM_QUAL, "deep_ep::", "all-to-all (MoE dispatch/combine)"},
    {FAM_QUAL, "dpsk::ep::", "all-to-all (MoE dispatch/combine)"},
    {FAM_FUNC_NOCASE, "all_to_all", "all-to-all (MoE dispatch/combine)"},
    {FAM_FUNC_NOCASE, "alltoall", "all-to-all (MoE dispatch/combine)"},
    {FAM_FUNC_NOCASE, "all_reduce", "collective (not NCCL)"},
    {FAM_FUNC_NOCASE, "allreduce", "collective (not NCCL)"},
    {FAM_FUNC_NOCASE, "all_gather", "collective (not NCCL)"},
    {FAM_FUNC_NOCASE, "allgather", "collective (not NCCL)"},
    {FAM_FUNC_NOCASE, "reduce_scatter", "collective (not NCCL)"},
    {FAM_FUNC_NOCASE, "reducescatter", "collective (not NCCL)"},
    {FAM_START, "triton_poi", "Triton pointwise"},
    {FAM_START, "triton_red", "Triton reduction"},
    {FAM_START, "triton_per", "Triton persistent reduction"},
    {FAM_START, "triton_tem", "Triton template (GEMM)"},
    {FAM_START, "triton_mm", "Triton template (GEMM)"},
    {FAM_START, "triton_", "Triton"},
    {FAM_QUAL, "moe::dev::", "MoE routing / finalize"},
    {FAM_FUNC, "flash", "attention"},
    {FAM_FUNC, "fmha", "attention"},
    {FAM_FUNC, "attention", "attention"},
    {FAM_FUNC, "Attention", "attention"},
    {FAM_FUNC, "WithKVCache", "attention"},      /* FlashInfer's prefill */
    {FAM_FUNC, "WithPagedKVCache", "attention"}, /* and decode kernels */
    {FAM_QUAL, "cudnn", "cuDNN / convolution"},
    {FAM_FUNC, "convolve", "cuDNN / convolution"},
    {FAM_FUNC, "winograd", "cuDNN / convolution"},
    {FAM_FUNC, "fft2d", "cuDNN / convolution"},
    {FAM_FUNC, "bn_fw", "cuDNN / convolution"},
    {FAM_FUNC, "bn_bw", "cuDNN / convolution"},
    {FAM_GEMM, "gemm", "GEMM library (cuBLAS/CUTLASS)"},
    {FAM_QUAL, "cutlass", "GEMM library (cuBLAS/CUTLASS)"},
    {FAM_QUAL, "xmma", "GEMM library (cuBLAS/CUTLASS)"},
    {FAM_QUAL, "nvjet", "GEMM library (cuBLAS/CUTLASS)"},
    {FAM_QUAL, "gemv", "GEMM library (cuBLAS/CUTLASS)"},
    {FAM_QUAL, "cublas", "GEMM library (cuBLAS/CUTLASS)"},
    {FAM_FUNC, "splitKreduce", "GEMM library (cuBLAS/CUTLASS)"},
    {FAM_START, "ampere_", "GEMM library (cuBLAS/CUTLASS)"},
    {FAM_START, "sm80_", "GEMM library (cuBLAS/CUTLASS)"},
    {FAM_START, "sm90_", "GEMM library (cuBLAS/CUTLASS)"},
    {FAM_START, "volta_", "GEMM library (cuBLAS/CUTLASS)"},
    {FAM_START, "bmm_", "GEMM library (cuBLAS/CUTLASS)"}, /* TensorRT-LLM's batched GEMMs */
    {FAM_FUNC, "multi_tensor_apply", "multi-tensor (optimizer, _foreach_)"},
    {FAM_QUAL, "fused_adam", "multi-tensor (optimizer, _foreach_)"},
    {FAM_QUAL, "FusedAdam", "multi-tensor (optimizer, _foreach_)"},
    {FAM_QUAL, "fbgemm", "FBGEMM"},
    {FAM_FUNC, "split_embedding", "FBGEMM"}, /* FBGEMM's table-batched embedding codegen */
    {FAM_FUNC, "bounds_check_indices", "FBGEMM"},
    {FAM_FUNC_NOCASE, "quant", "quantize / dequantize"},
    {FAM_FUNC, "reduce_kernel", "ATen reduction"},
    {FAM_FUNC, "Reduce", "ATen reduction"},
    {FAM_FUNC, "softmax", "softmax"},
    {FAM_FUNC, "Softmax", "softmax"},
    {FAM_FUNC, "norm", "normalization"},
    {FAM_FUNC, "Norm", "normalization"},
    {FAM_FUNC, "elementwise", "ATen elementwise"},
    {FAM_FUNC, "Functor", "ATen elementwise"},
    {FAM_FUNC, "index", "indexing / embedding"},
    {FAM_FUNC, "scatter", "indexing / embedding"},
    {FAM_FUNC, "gather", "indexing / embedding"},
    {FAM_FUNC, "embedding", "indexing / embedding"},
    {FAM_FUNC, "Embedding", "indexing / embedding"},
    {FAM_FUNC, "Copy", "copy / cat"},
    {FAM_FUNC, "copy", "copy / cat"},
    {FAM_FUNC, "cat", "copy / cat"},
};

const char *rli_kernel_family(const char *name) {
  if (!name || !*name) return "other";
  char qual[512];
  rli_kernel_own_name(name, qual, sizeof qual);
  const char *func = qual;
  for (const char *p = strstr(qual, "::"); p; p = strstr(p + 2, "::")) func = p + 2;
  const char *whole = RLI_STARTS(name, "void ") ? name + RLI_LEN("void ") : name;
  for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
    const char *pt = families[i].pattern;
    int hit = 0;
    switch (families[i].where) {
    case FAM_FUNC: hit = has(func, pt); break;
    case FAM_FUNC_NOCASE: hit = has_nocase(func, pt); break;
    case FAM_QUAL: hit = has(qual, pt); break;
    case FAM_START: hit = !strncmp(whole, pt, strlen(pt)); break;
    case FAM_GEMM: hit = has_gemm(qual); break;
    }
    if (hit) return families[i].family;
  }
  return "other";
}

/* ---- the precision a kernel ran at ------------------------------------------
 * GEMM, convolution and attention kernels name the format their tensor
 * cores ran, whatever the op's nominal dtype: an fp32 matmul or convolution
 * with TF32 enabled (PyTorch's default for cuDNN convolutions; matmuls with
 * allow_tf32) runs cuBLAS/CUTLASS/cuDNN TF32 kernels, and quantized GEMMs
 * run fp8, int8 or fp4 kernels. The table below is the one place for these
 * names (first match wins, on the lower-cased name); each pattern is how the
 * library spells the format: CUTLASS's generated names ("tensorop_s1688gemm":
 * fp32 operands on the m16n8k8 TF32 MMA; "tensorop_i16832gemm": the
 * m16n8k32 int8 MMA; "tfloat32_t", "float_e4m3_t",
 * "float_e2m1_t" element types; CUTLASS docs, media/docs/functionality.md),
 * cuBLAS/cuDNN's ("ampere_..._tf32_...", "sm80_xmma_..._tf32f32_...",
 * "..._e4m3..."), FBGEMM's ("f8f8bf16_rowwise"), TensorRT-LLM's and FlashInfer's ("nvfp4", "mxfp4",
 * "bmm_MxE4m3_MxE2m1": an fp8 x fp4 MMA, which Blackwell runs at its fp8
 * rate, NVIDIA Blackwell architecture technical brief, kind::f8f6f4). Only
 * kernels of the tensor-core families are read: "hfp8" in an elementwise
 * conversion kernel's name says nothing about a roof. */

static const struct {
  const char *pattern;
  int32_t dtype;
} precisions[] = {
    {"nvfp4", RL_FP4},       {"mxfp4", RL_FP4},   {"e4m3", RL_FP8},      {"e5m2", RL_FP8},
    {"fp8", RL_FP8},         {"f8f8", RL_FP8},    {"e2m1", RL_FP4},    {"fp4", RL_FP4},       {"tensorop_i8", RL_INT8}, {"tensorop_i16832", RL_INT8},
    {"imma", RL_INT8},       {"int8", RL_INT8},   {"_i8i8", RL_INT8},    {"tf32", RL_TF32},
    {"tfloat32", RL_TF32},   {"tensorop_s1688", RL_TF32},
};

int32_t rli_kernel_precision(const char *name) {
  const char *fam = rli_kernel_family(name);
  if (strcmp(fam, "GEMM library (cuBLAS/CUTLASS)") && strcmp(fam, "cuDNN / convolution") &&
      strcmp(fam, "attention") && strcmp(fam, "Triton template (GEMM)"))
    return -1;
  for (size_t i = 0; i < sizeof precisions / sizeof precisions[0]; i++)
    if (has_nocase(name, precisions[i].pattern)) return precisions[i].dtype;
  return -1;
}
