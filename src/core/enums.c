/*
 * enums.c -- the names of the enums the command line and the JSON records
 * spell (attention convention, recomputation, embedding convention), so
 * that each is written once: rl_*_name for output, rl_*_parse for input.
 * The op kinds (ops.c), formats (dtype.c), collectives (comm.c) and trace
 * formats (src/io/trace_src.c) keep their names beside their tables.
 */
#include "core/internal.h"

static const char *const attn_names[] = {"full", "causal", "none"};
static const char *const recompute_names[] = {"none", "selective", "full"};
static const char *const embed_names[] = {"gathered", "full"};

#define N(a) ((int32_t)(sizeof a / sizeof a[0]))

const char *rl_attn_name(int32_t a) { return a >= 0 && a < N(attn_names) ? attn_names[a] : NULL; }
const char *rl_recompute_name(int32_t r) {
  return r >= 0 && r < N(recompute_names) ? recompute_names[r] : NULL;
}
const char *rl_embed_name(int32_t e) { return e >= 0 && e < N(embed_names) ? embed_names[e] : NULL; }

rl_status rl_attn_parse(const char *name, int32_t *out, rl_error *err) {
  return rli_name_parse(attn_names, N(attn_names), name, out, err);
}
rl_status rl_recompute_parse(const char *name, int32_t *out, rl_error *err) {
  return rli_name_parse(recompute_names, N(recompute_names), name, out, err);
}
rl_status rl_embed_parse(const char *name, int32_t *out, rl_error *err) {
  return rli_name_parse(embed_names, N(embed_names), name, out, err);
}
