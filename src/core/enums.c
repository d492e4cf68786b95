/*
 * enums.c -- the names of the enums the command line and the JSON records
 * spell (attention convention, recomputation, embedding convention, MLP
 * and norm kinds, attention implementation, the planner's batching), so
 * that each is written
 * once: rl_*_name for output, rl_*_parse for input; and the words of a
 * group size (rl_group_size_parse).
 * The op kinds (ops.c), formats (dtype.c), collectives (comm.c) and trace
 * formats (src/io/trace_src.c) keep their names beside their tables.
 */
#include "core/internal.h"

#include <math.h>
#include <string.h>

static const char *const attn_names[] = {"full", "causal", "none"};
static const char *const recompute_names[] = {"none", "selective", "full"};
static const char *const embed_names[] = {"gathered", "full"};
static const char *const mlp_names[] = {[RL_MLP_GATED] = "gated", [RL_MLP_PLAIN] = "plain"};
/* the records' names, and the short words --norm and data/models.csv use */
static const char *const norm_names[] = {[RL_NORM_RMS] = "rmsnorm", [RL_NORM_LAYER] = "layernorm"};
static const char *const norm_words[] = {[RL_NORM_RMS] = "rms", [RL_NORM_LAYER] = "layer"};
static const char *const impl_names[] = {[RL_ATTN_IMPL_FUSED] = "fused", [RL_ATTN_IMPL_NAIVE] = "naive"};
static const char *const batching_names[] = {[RL_BATCHING_STATIC] = "static", [RL_BATCHING_CONTINUOUS] = "continuous"};

#define N(a) ((int32_t)(sizeof a / sizeof a[0]))

const char *rl_attn_name(int32_t a) { return a >= 0 && a < N(attn_names) ? attn_names[a] : NULL; }
const char *rl_recompute_name(int32_t r) {
  return r >= 0 && r < N(recompute_names) ? recompute_names[r] : NULL;
}
const char *rl_embed_name(int32_t e) { return e >= 0 && e < N(embed_names) ? embed_names[e] : NULL; }
const char *rl_mlp_name(int32_t k) { return k >= 0 && k < N(mlp_names) ? mlp_names[k] : NULL; }
const char *rl_norm_name(int32_t k) { return k >= 0 && k < N(norm_names) ? norm_names[k] : NULL; }
const char *rl_attn_impl_name(int32_t i) { return i >= 0 && i < N(impl_names) ? impl_names[i] : NULL; }
const char *rl_batching_name(int32_t b) { return b >= 0 && b < N(batching_names) ? batching_names[b] : NULL; }

rl_status rl_attn_parse(const char *name, int32_t *out, rl_error *err) {
  return rli_name_parse(attn_names, N(attn_names), name, out, err);
}
rl_status rl_recompute_parse(const char *name, int32_t *out, rl_error *err) {
  return rli_name_parse(recompute_names, N(recompute_names), name, out, err);
}
rl_status rl_embed_parse(const char *name, int32_t *out, rl_error *err) {
  return rli_name_parse(embed_names, N(embed_names), name, out, err);
}
rl_status rl_mlp_parse(const char *name, int32_t *out, rl_error *err) {
  return rli_name_parse(mlp_names, N(mlp_names), name, out, err);
}
rl_status rl_norm_parse(const char *name, int32_t *out, rl_error *err) {
  return rli_name_parse(norm_words, N(norm_words), name, out, err);
}
rl_status rl_group_size_parse(const char *text, double *group, rl_error *err) {
  if (!text) return rli_fail(err, RL_EINVAL, "no group size");
  if (strcmp(text, "channel") == 0) { *group = RL_GROUP_CHANNEL; return RL_OK; }
  if (strcmp(text, "none") == 0) { *group = RL_GROUP_NONE; return RL_OK; }
  double g;
  if (rl_parse_quantity(text, RL_UNIT_COUNT, &g, NULL))
    return rli_fail(err, RL_EINVAL, "'%s' is not a number, channel or none", text);
  if (!(g >= 1) || g != floor(g) || g > 1e9)
    return rli_fail(err, RL_EINVAL, "must be a whole number of weights >= 1, channel or none (got %s)", text);
  *group = g;
  return RL_OK;
}
rl_status rl_attn_impl_parse(const char *name, int32_t *out, rl_error *err) {
  return rli_name_parse(impl_names, N(impl_names), name, out, err);
}
rl_status rl_batching_parse(const char *name, int32_t *out, rl_error *err) {
  return rli_name_parse(batching_names, N(batching_names), name, out, err);
}
