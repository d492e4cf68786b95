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
 * runtime events name the kernel, args.kernel).
 *
 * A replay may show fewer kernels than its capture launched, never more:
 * the trace can miss a replay's last records. In AMD TraceLens' xDiT
 * Flux.1 traces (roctracer 4.1, HIP 7.1) every hipGraphLaunch, five in two
 * runs, shows one kernel fewer than its capture launched (993 of 994, 1566
 * of 1567): its kernels are the capture's first launches by name in order,
 * and the one missing is always the capture's last (its vLLM and SGLang
 * traces, HIP 7.0, show every kernel); a profiling window can also end
 * inside a replay. So when no capture of exactly n launches fits, a
 * capture whose first n launches name the replay's n kernels in order
 * fits, the launches after them counted as having no kernel in the
 * replay (rl_trace_info.graph_unreplayed). Every replayed kernel is still
 * checked by name against the launch it is given; none is skipped.
 *
 * No graph id links a replay to its capture in these traces (hipGraphLaunch
 * records only its correlation and External id, the id of the op around
 * it), so a replay matches only when exactly one capture fits it (or all
 * that fit give the same ops and costs, as the identical layers vLLM
 * captures piecewise), a capture of exactly its length before a longer one;
 * otherwise the match is refused and the reason said.
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

/* a and b give their first n launches the same ops and costs */
static int same_ops(const rl_trace *t, const rli_gcapture *a, const rli_gcapture *b, size_t n) {
  for (size_t m = 0; m < n; m++) {
    const rli_glaunch *x = &t->gl[a->first + m], *y = &t->gl[b->first + m];
    if (x->op != y->op || x->cost != y->cost || x->first != y->first) return 0;
  }
  return 1;
}

static size_t gap(size_t a, size_t b) { return a > b ? a - b : b - a; }

const rli_glaunch *rli_trace_graph_match(rl_trace *t, int64_t pid, const uint32_t *names, size_t n,
                                         size_t *unreplayed, char *why, size_t cap) {
  /* hit: a capture of n launches that names the n kernels; lead: one of
   * more launches whose first n name them (the fewest more); near: among
   * those at least as long as the replay, the one that agrees longest
   * (bad_at: where it stops); far: the nearest in size of the shorter */
  const rli_gcapture *hit = NULL, *lead = NULL, *mix_a = NULL, *mix_b = NULL, *near = NULL,
                     *far = NULL;
  size_t unnamed = 0, bad_at = 0;
  *unreplayed = 0;
  for (size_t i = 0; i < t->ngcap; i++) {
    const rli_gcapture *c = &t->gcap[i];
    if (c->pid != pid) continue;
    if (c->unnamed) { unnamed++; continue; }
    if (c->n < n) {
      if (!far || gap(c->n, n) < gap(far->n, n)) far = c;
      continue;
    }
    size_t m = 0;
    while (m < n && t->gl[c->first + m].name == names[m]) m++;
    if (m == n && n > 0 && c->n == n) {
      if (hit && !same_ops(t, hit, c, n)) {
        snprintf(why, cap,
                 "a CUDA-graph replay of %zu kernels that several captures match by name, with "
                 "different ops or shapes (which one it replays is not recorded): not matched",
                 n);
        return NULL;
      }
      if (!hit) hit = c;
    } else if (m == n && n > 0) {
      if (lead && !mix_a && !same_ops(t, lead, c, n)) {
        mix_a = lead;
        mix_b = c;
      }
      if (!lead || c->n < lead->n) lead = c;
    } else if (!near || m > bad_at || (m == bad_at && gap(c->n, n) < gap(near->n, n))) {
      near = c;
      bad_at = m;
    }
  }
  if (hit) return t->gl + hit->first;
  if (mix_a) {
    snprintf(why, cap,
             "a CUDA-graph replay of %zu kernels that begins several captures (of %zu and %zu "
             "launches) with different ops or shapes (which one it replays is not recorded): not "
             "matched",
             n, mix_a->n, mix_b->n);
    return NULL;
  }
  if (lead) {
    *unreplayed = lead->n - n;
    return t->gl + lead->first;
  }
  if (near && n > 0) {
    const char *rk = rli_trace_strat(t, names[bad_at]);
    const char *ck = rli_trace_strat(t, t->gl[near->first + bad_at].name);
    snprintf(why, cap,
             "a CUDA-graph replay whose kernel %zu (%.60s) is not the kernel its capture launched "
             "there (%.60s): not matched",
             bad_at + 1, rk ? rk : "?", ck ? ck : "?");
  } else if (far) {
    snprintf(why, cap,
             "a CUDA-graph replay of %zu kernels; the nearest capture launched %zu: not matched", n,
             far->n);
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

void rli_trace_graph_count(rl_trace *t, int64_t matched, int64_t unmatched, int64_t unreplayed) {
  t->graph_matched += matched;
  t->graph_unmatched += unmatched;
  t->graph_unreplayed += unreplayed;
}

void rli_trace_graph_free(rl_trace *t) {
  free(t->gl);
  free(t->gcap);
  t->gl = NULL;
  t->gcap = NULL;
  t->ngl = t->capgl = t->ngcap = t->capgcap = 0;
}
