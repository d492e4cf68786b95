/*
 * trace_graph.c -- CUDA-graph replays matched to their capture.
 *
 * A replay (cudaGraphLaunch, hipGraphLaunch) runs every kernel of a graph
 * under one launch call: the profiler links them all to that one call, and
 * none to the op that launched it at capture. The capture is recorded as a
 * cudaStreamBeginCapture .. cudaStreamEndCapture span whose launch calls
 * run no kernel of their own (torch.compile's CUDA-graph trees record it in
 * the same file, CUDAGraphNode.record; vLLM and SGLang capture at start-up,
 * often profiled into a file of its own). Stream capture records the
 * launches in the order they were made, and a replay runs them in that
 * order on one stream (CUDA Programming Guide, "Stream Capture"; HIP's
 * hipStreamBeginCapture likewise), so the i-th kernel of a replay is the
 * i-th launch of its capture. The reader (src/io/trace_kineto.c) gives each
 * capture here, as the launches it made in order (kernel name, op, cost);
 * a replay's kernels, in time order, match a capture when there are as
 * many and every kernel's name is the name its launch call gave (ROCm's
 * runtime events name the kernel, args.kernel). No graph id links a replay
 * to its capture in these traces, so a replay matches only when exactly
 * one capture fits it (or all that fit give the same ops and costs, as
 * the identical layers vLLM captures piecewise); otherwise the match is
 * refused and the reason said.
 */
#include "core/trace_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rli_trace_graph_add(rl_trace *t, int64_t pid, int external, int unnamed, const rli_glaunch *l,
                        size_t n) {
  if (!rli_grow((void **)&t->gcap, sizeof *t->gcap, t->ngcap + 1, &t->capgcap)) return 0;
  if (n && !rli_grow((void **)&t->gl, sizeof *t->gl, t->ngl + n, &t->capgl)) return 0;
  rli_gcapture *c = &t->gcap[t->ngcap++];
  c->first = t->ngl;
  c->n = n;
  c->pid = pid;
  c->external = external;
  c->unnamed = unnamed;
  if (n) memcpy(t->gl + t->ngl, l, n * sizeof *l);
  t->ngl += n;
  return 1;
}

void rli_trace_graph_source(rl_trace *t, const char *label) {
  rli_strlcpy(t->gsource, label ? label : "", sizeof t->gsource);
}

const char *rli_trace_graph_source_name(const rl_trace *t) { return t->gsource; }

const char *rli_trace_graph_external(const rl_trace *t, int64_t pid, int64_t *other) {
  int any = 0;
  for (size_t i = 0; i < t->ngcap; i++) {
    if (!t->gcap[i].external) continue;
    if (t->gcap[i].pid == pid) return NULL;
    if (!any) *other = t->gcap[i].pid;
    any = 1;
  }
  return any ? t->gsource : NULL;
}

size_t rli_trace_graph_captures(const rl_trace *t, int external) {
  size_t n = 0;
  for (size_t i = 0; i < t->ngcap; i++) n += t->gcap[i].external == external;
  return n;
}

static int same_ops(const rl_trace *t, const rli_gcapture *a, const rli_gcapture *b) {
  for (size_t m = 0; m < a->n; m++) {
    const rli_glaunch *x = &t->gl[a->first + m], *y = &t->gl[b->first + m];
    if (x->op != y->op || x->cost != y->cost || x->first != y->first) return 0;
  }
  return 1;
}

const rli_glaunch *rli_trace_graph_match(rl_trace *t, int64_t pid, const uint32_t *names, size_t n,
                                         char *why, size_t cap) {
  const rli_gcapture *hit = NULL, *near = NULL;
  size_t fits = 0, unnamed = 0, bad_at = 0;
  for (size_t i = 0; i < t->ngcap; i++) {
    const rli_gcapture *c = &t->gcap[i];
    if (c->pid != pid) continue;
    if (c->unnamed) { unnamed++; continue; }
    size_t m = 0;
    if (c->n == n)
      while (m < n && t->gl[c->first + m].name == names[m]) m++;
    if (c->n == n && m == n) {
      if (hit && !same_ops(t, hit, c)) {
        snprintf(why, cap,
                 "a CUDA-graph replay of %zu kernels that several captures match by name, with "
                 "different ops or shapes (which one it replays is not recorded): not matched",
                 n);
        return NULL;
      }
      if (!hit) hit = c;
      fits++;
      continue;
    }
    /* the capture that explains best why not: the same size first, then
     * the nearest in size */
    if (!near || (c->n == n && (near->n != n || m > bad_at)) ||
        (near->n != n && c->n != n &&
         (c->n > n ? c->n - n : n - c->n) < (near->n > n ? near->n - n : n - near->n))) {
      near = c;
      bad_at = c->n == n ? m : 0;
    }
  }
  if (hit) return t->gl + hit->first;
  if (near && near->n == n) {
    const char *rk = rli_trace_strat(t, names[bad_at]);
    const char *ck = rli_trace_strat(t, t->gl[near->first + bad_at].name);
    snprintf(why, cap,
             "a CUDA-graph replay whose kernel %zu (%.60s) is not the kernel its capture launched "
             "there (%.60s): not matched",
             bad_at + 1, rk ? rk : "?", ck ? ck : "?");
  } else if (near) {
    snprintf(why, cap,
             "a CUDA-graph replay of %zu kernels; the nearest capture launched %zu: not matched", n,
             near->n);
  } else if (unnamed) {
    snprintf(why, cap,
             "a CUDA-graph replay whose capture's launch calls do not name their kernels (CUDA's "
             "runtime events carry no kernel name): the match cannot be checked");
  } else {
    snprintf(why, cap,
             "a CUDA-graph replay whose capture is not in the trace (give the capture's file: "
             "roofline trace RUN --capture CAPTURE)");
  }
  return NULL;
}

uint32_t rli_trace_inst_cost(const rl_trace *t, uint32_t inst) {
  return inst < t->ninst ? t->inst[inst].cost : RLI_NONE;
}

void rli_trace_graph_count(rl_trace *t, int64_t matched, int64_t unmatched) {
  t->graph_matched += matched;
  t->graph_unmatched += unmatched;
}

void rli_trace_graph_free(rl_trace *t) {
  free(t->gl);
  free(t->gcap);
  t->gl = NULL;
  t->gcap = NULL;
  t->ngl = t->capgl = t->ngcap = t->capgcap = 0;
}
