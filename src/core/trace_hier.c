/*
 * trace_hier.c -- the hierarchical roofline of one Nsight Compute
 * launch (L1, L2, DRAM), its speed of light, occupancy and waves, for the
 * rows of an ncu trace (rli_trace_hier_row).
 */
#include "core/trace_impl.h"

#include <math.h>
#include <stdio.h>

/* ---- the hierarchical roofline of one ncu launch ----------------------------
 * Nsight Compute's hierarchical roofline (the SpeedOfLight_Hierarchical*
 * RooflineChart sections; Yang, Kurth & Williams, "Hierarchical Roofline
 * analysis for GPUs", CCPE 32(20), 2020): the kernel's F against the bytes
 * it moved at each level, L1 (l1tex__t_bytes.sum), L2 (lts__t_bytes.sum)
 * and DRAM (dram__bytes.sum), each under that level's bandwidth roof. The
 * level whose roof is lowest at its intensity binds: with the same F, the
 * one with the largest bytes / bandwidth. Roofs: the export's
 * *.peak_sustained rates when present (at the profiled clock), else the
 * database's, the compute peak and the L1 and L2 figures (bytes per clock x
 * boost clock) scaled to the profiled SM clock (ncu locks clocks to base
 * by default), DRAM as it is. Speed of light: ncu's own sm__throughput and
 * gpu__compute_memory_throughput percentages beside our compute and memory
 * fractions; more than 20 points apart is flagged (sm__throughput also
 * counts non-FLOP pipes and issue slots, so a kernel busy with integer or
 * address arithmetic is flagged too: our F misses that work). Waves per SM
 * below 1: the grid does not fill the GPU once (idle SMs for the whole
 * kernel: the tail effect at its extreme). */
void rli_trace_hier_row(rl_trace *t, const rl_hw *hw, double factor, rl_trace_row *o,
                     const rli_ncu_launch *m, const rli_cost *c) {
  o->launch_id = -1;
  o->l1_bytes = o->l2_bytes = o->dram_bytes = -1;
  o->l1_intensity = o->l2_intensity = o->dram_intensity = -1;
  o->binding_level = -1;
  o->sol_compute = o->sol_memory = -1;
  o->occupancy_theoretical = o->occupancy_achieved = o->waves = -1;
  if (!m || !c || m->id < 0) return;
  o->launch_id = m->id;
  o->l1_bytes = m->l1_bytes;
  o->l2_bytes = m->l2_bytes;
  o->dram_bytes = c->bytes;
  o->sol_compute = m->sol_sm;
  o->sol_memory = m->sol_mem;
  o->occupancy_theoretical = m->occ_theory;
  o->occupancy_achieved = m->occ_achieved;
  o->waves = m->waves;
  o->tail = m->waves >= 0 && m->waves < 1;
  char fs[200];
  if (m->tensor_src == 1)
    snprintf(fs, sizeof fs, "SASS FP counters + sm__ops_path_tensor_* (tensor ops as counted)");
  else if (m->tensor_src == 2 && factor > 0)
    snprintf(fs, sizeof fs, "SASS FP counters + sm__inst_executed_pipe_tensor x %.0f FLOP (%s)",
             factor, factor == 4096 ? "one sm_8x HMMA.16816: 2x16x8x16" : "one sm_7x HMMA.884: 2x8x8x4");
  else if (m->tensor_src == 2)
    snprintf(fs, sizeof fs, "sm__inst_executed_pipe_tensor without FLOPs per instruction documented "
                            "for this architecture: tensor work not counted");
  else
    snprintf(fs, sizeof fs, "SASS FP counters (dadd+dmul+2dfma, fadd+fmul+2ffma, 2hadd+2hmul+4hfma)");
  uint32_t fid = why_text(t, fs);
  o->flops_source = fid == RLI_NONE ? NULL : rli_trace_strat(t, fid);
  char note[600];
  size_t nn = 0;
  note[0] = 0;
#define NOTE(...) do { if (nn < sizeof note) nn += (size_t)snprintf(note + nn, sizeof note - nn, \
      "%s", nn ? "; " : ""); if (nn < sizeof note) nn += (size_t)snprintf(note + nn, sizeof note - nn, __VA_ARGS__); } while (0)
  /* the roofs */
  double scale = m->sm_hz > 0 && hw->boost_hz > 0 ? m->sm_hz / hw->boost_hz : 1;
  int cls = c->tensor ? 3 : c->dtype == RL_FP64 ? 0 : c->dtype == RL_FP32 ? 1 : 2;
  double peak = m->peak[cls];
  int from_db = 0;
  if (!(peak > 0)) {
    int32_t pk = c->dtype >= 0 ? rl_hw_peak_for(hw, c->dtype, c->tensor) : -1;
    peak = pk >= 0 ? hw->peak[pk] * scale : 0;
    from_db = 1;
  }
  double bw[3] = {m->bw[0], m->bw[1], m->bw[2]};
  if (!(bw[0] > 0)) { bw[0] = hw->l1_bw * scale; from_db = 1; }
  if (!(bw[1] > 0)) { bw[1] = hw->l2_bw * scale; from_db = 1; }
  if (!(bw[2] > 0)) { bw[2] = hw->mem_bw; from_db = 1; }
  o->compute_peak = peak;
  o->l1_bw = bw[0];
  o->l2_bw = bw[1];
  o->dram_bw = bw[2];
  if (from_db && scale != 1)
    NOTE("roofs not in the export: the database's, compute, L1 and L2 scaled to the profiled SM "
         "clock %.3g GHz (%.0f%% of boost)", m->sm_hz / 1e9, 100 * scale);
  if (m->l1_bytes < 0 || m->l2_bytes < 0)
    NOTE("no %s in the export: DRAM only", m->l1_bytes < 0 && m->l2_bytes < 0
             ? "l1tex__t_bytes.sum or lts__t_bytes.sum" : m->l1_bytes < 0 ? "l1tex__t_bytes.sum"
             : "lts__t_bytes.sum");
  double bytes[3] = {o->l1_bytes, o->l2_bytes, o->dram_bytes};
  static const int32_t lv[3] = {RL_LEVEL_L1, RL_LEVEL_L2, RL_LEVEL_DRAM};
  static const char *const lname[3] = {"L1", "L2", "DRAM"};
  double F = o->has_cost ? o->flops : -1;
  double tmax = -1;
  const char *nobw[3];
  int nnobw = 0;
  for (int l = 0; l < 3; l++) {
    if (bytes[l] < 0) continue;
    if (F >= 0 && bytes[l] > 0) {
      double I = F / bytes[l];
      if (l == 0) o->l1_intensity = I;
      else if (l == 1) o->l2_intensity = I;
      else o->dram_intensity = I;
    }
    if (!(bw[l] > 0)) {
      nobw[nnobw++] = lname[l];
      continue;
    }
    double tl = bytes[l] / bw[l];
    if (tl > tmax) { tmax = tl; o->binding_level = lv[l]; }
  }
  if (nnobw)
    NOTE("no %s%s%s bandwidth for %s (not in the export or the database): not placed", nobw[0],
         nnobw > 1 ? " or " : "", nnobw > 1 ? nobw[1] : "", hw->id);
  if (o->tail)
    NOTE("tail effect: %.2f waves, less than one full wave (SMs idle for the whole kernel)", m->waves);
  if (F >= 0 && o->has_time && o->time_s > 0 && peak > 0) {
    double ct = F / peak;
    o->compute_fraction = ct / o->time_s;
    o->memory_fraction = tmax > 0 ? tmax / o->time_s : 0;
    o->binding_fraction = fmax(ct, tmax) / o->time_s;
    int dc = m->sol_sm >= 0 && fabs(m->sol_sm - o->compute_fraction) > 0.2;
    int dm = m->sol_mem >= 0 && tmax >= 0 && fabs(m->sol_mem - o->memory_fraction) > 0.2;
    if (dc || dm) {
      o->sol_disagree = 1;
      NOTE("ncu's speed of light (compute %.0f%%, memory %.0f%%) and ours (%.0f%%, %.0f%%) differ "
           "by more than 20 points: our F or Q, or the roof, is off for this kernel",
           100 * m->sol_sm, 100 * m->sol_mem, 100 * o->compute_fraction, 100 * o->memory_fraction);
    }
  }
#undef NOTE
  if (nn) {
    uint32_t id = why_text(t, note);
    o->note = id == RLI_NONE ? NULL : rli_trace_strat(t, id);
  }
}
