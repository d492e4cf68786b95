/*
 * trace_cost.c -- the trace's cost table and op instances: each
 * distinct rli_cost (F, Q, its roof, why it is unknown) is interned once
 * and kernels and op instances refer to it by id; an op instance is one
 * call of an op (its cost, its op name, the nn.Module around it).
 */
#include "core/trace_impl.h"

#include <stdlib.h>
#include <string.h>

static int cost_eq(const rli_cost *a, const rli_cost *b) {
  return a->flops == b->flops && a->bytes == b->bytes && a->tensor_inst == b->tensor_inst &&
         a->dtype == b->dtype && a->tensor == b->tensor && a->measured == b->measured &&
         a->why == b->why && a->note == b->note && a->reason == b->reason && a->roof == b->roof &&
         a->coll == b->coll && a->ranks == b->ranks && a->per_rank == b->per_rank &&
         a->per_elem == b->per_elem && a->lower == b->lower && a->ws == b->ws;
}

static uint64_t cost_hash(const rli_cost *c) {
  double v[3] = {c->flops, c->bytes, c->tensor_inst};
  int32_t w[12] = {c->dtype, c->tensor, c->measured, (int32_t)c->why, c->reason, c->roof,
                   c->coll, c->ranks, c->per_rank, (int32_t)c->note, c->per_elem, c->lower};
  return rli_hash(v, sizeof v) ^ (rli_hash(w, sizeof w) * 31);
}

uint32_t rli_trace_cost(rl_trace *t, const rli_cost *c) {
  if ((size_t)t->ncost * 2 + 2 > t->chcap) {
    uint32_t nc = t->chcap ? t->chcap * 2 : 256;
    uint32_t *h = malloc(sizeof *h * nc);
    if (!h) return RLI_NONE;
    memset(h, 0xff, sizeof *h * nc);
    for (uint32_t id = 0; id < t->ncost; id++) {
      uint32_t i = (uint32_t)cost_hash(&t->cost[id]) & (nc - 1);
      while (h[i] != RLI_NONE) i = (i + 1) & (nc - 1);
      h[i] = id;
    }
    free(t->chash);
    t->chash = h;
    t->chcap = nc;
  }
  rli_cost k = *c;
  if (k.flops == 0) k.flops = 0; /* fold -0 */
  uint32_t i = (uint32_t)cost_hash(&k) & (t->chcap - 1);
  while (t->chash[i] != RLI_NONE) {
    if (cost_eq(&t->cost[t->chash[i]], &k)) return t->chash[i];
    i = (i + 1) & (t->chcap - 1);
  }
  size_t cc = t->capcost;
  if (!rli_grow((void **)&t->cost, sizeof *t->cost, (size_t)t->ncost + 1, &cc)) return RLI_NONE;
  t->capcost = (uint32_t)cc;
  t->cost[t->ncost] = k;
  t->chash[i] = t->ncost;
  return t->ncost++;
}

uint32_t rli_trace_cost_why(rl_trace *t, const char *why) {
  return rli_trace_cost_reason(t, RL_REASON_OTHER, why);
}

uint32_t rli_trace_cost_reason(rl_trace *t, int32_t reason, const char *why) {
  rli_cost c;
  rli_cost_init(&c, reason);
  c.flops = c.bytes = -1;
  c.why = rli_trace_str(t, why, strlen(why));
  if (c.why == RLI_NONE) return RLI_NONE;
  return rli_trace_cost(t, &c);
}

uint32_t rli_trace_new_inst(rl_trace *t, uint32_t cost) {
  size_t ci = t->capinst;
  if (t->ninst == RLI_NONE - 1 ||
      !rli_grow((void **)&t->inst, sizeof *t->inst, (size_t)t->ninst + 1, &ci))
    return RLI_NONE;
  t->capinst = (uint32_t)ci;
  t->inst[t->ninst].cost = cost;
  t->inst[t->ninst].op = RLI_NONE;
  t->inst[t->ninst].module = RLI_NONE;
  return t->ninst++;
}

void rli_trace_inst_module(rl_trace *t, uint32_t inst, uint32_t module) {
  if (inst < t->ninst) t->inst[inst].module = module;
}

const rli_cost *rli_trace_cost_get(const rl_trace *t, uint32_t id) {
  return t && id < t->ncost ? &t->cost[id] : NULL;
}
