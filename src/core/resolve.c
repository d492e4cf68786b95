/*
 * resolve.c -- how a device, its roof, an inference setup and the
 * latencies of collectives are chosen from what a user gave: the one place
 * of these rules, called by the CLI, the Python binding and the page
 * (include/roofline.h, "Resolving what a caller gave").
 *
 * Messages name parameters in backquotes (`link_bw`); rl_msg_spell writes
 * them as a client spells them (the CLI's flags, Python's keywords).
 *
 * Sources:
 *   - fp16 and bf16 run at the same tensor rate on every device whose
 *     datasheet gives both (NVIDIA H100/A100/L4 datasheets, AMD CDNA 3
 *     whitepaper), so a device row with one stands in for the other.
 *   - Collective latencies: NCCL's tuning model (NVIDIA/nccl
 *     src/graph/tuning.cc): the Ring LL algorithm's base latency, 6.6 us,
 *     plus the per-hop latency of the link (hw->link_latency_s); a ring
 *     all-reduce is a reduce-scatter and an all-gather, 2 (n - 1) steps;
 *     a send one hop; an all-to-all n - 1 steps, as an all-gather's.
 */
#include "core/internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- parameters in messages ------------------------------------------ */
static size_t param_len(const char *p) {
  size_t n = 0;
  while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9') || p[n] == '_') n++;
  return n >= 1 && n <= 40 && p[0] >= 'a' && p[0] <= 'z' && p[n] == '`' ? n : 0;
}

size_t rl_msg_spell(const char *msg, const char *prefix, char sep, char *buf, size_t cap) {
  size_t k = 0;
#define PUT(c) do { if (k + 1 < cap) buf[k] = (c); k++; } while (0)
  if (!msg) msg = "";
  if (!prefix) prefix = "";
  for (const char *p = msg; *p;) {
    size_t n = *p == '`' ? param_len(p + 1) : 0;
    if (!n) { PUT(*p); p++; continue; }
    for (const char *q = prefix; *q; q++) PUT(*q);
    for (size_t i = 1; i <= n; i++) PUT(p[i] == '_' ? sep : p[i]);
    p += n + 2;
  }
  if (cap) buf[k < cap ? k : cap - 1] = 0;
#undef PUT
  return k;
}

/* ---- the device ---------------------------------------------------------- */
rl_status rl_hw_resolve(const rl_hw_req *req, const rl_hw *extra, int32_t n_extra, rl_hw *out,
                        rl_error *err) {
  if (!req || !out) return rli_fail(err, RL_EINVAL, "no request");
  if (req->peak < 0 || req->bw < 0 || req->mem < 0 || isnan(req->peak) || isnan(req->bw) || isnan(req->mem))
    return rli_fail(err, RL_EINVAL, "`peak`, `bw` and `mem` must be > 0");
  /* a given figure (> 0) in its plausible range (ranges.c) */
  if (req->peak > 0) TRY(rl_param_check("peak", RL_UNIT_FLOP_S, req->peak, err));
  if (req->bw > 0) TRY(rl_param_check("bw", RL_UNIT_BYTES_S, req->bw, err));
  if (req->mem > 0) TRY(rl_param_check("mem", RL_UNIT_BYTES, req->mem, err));
  const char *id = req->hw;
  if (!id && req->use_default && !(req->peak > 0 && req->bw > 0)) id = RL_DEFAULT_HW;
  if (!id) {
    if (!(req->peak > 0 && req->bw > 0))
      return rli_fail(err, RL_EINVAL, "`hw` ID is required (or describe a device with `peak` and `bw`)");
    memset(out, 0, sizeof *out);
    rli_strlcpy(out->id, "custom", sizeof out->id);
    rli_strlcpy(out->name, "device described by `peak` and `bw`", sizeof out->name);
    for (int k = 0; k < RL_PEAK_COUNT; k++) out->peak[k] = req->peak;
    out->mem_bw = req->bw;
    out->mem_bytes = req->mem;
    return RL_OK;
  }
  rl_error e;
  rl_status st = rl_hw_find(id, extra, n_extra, out, &e);
  if (st) return rli_fail(err, st, "`hw`: %s", e.msg);
  if (req->bw > 0) out->mem_bw = req->bw;
  if (req->mem > 0) out->mem_bytes = req->mem;
  return RL_OK;
}

/* ---- the roof ------------------------------------------------------------ */
rl_roof_req rl_roof_req_init(void) {
  rl_roof_req r;
  memset(&r, 0, sizeof r);
  r.dtype = RL_BF16;
  r.tensor = 1;
  return r;
}

rl_status rl_roof_resolve(const rl_hw *hw, const rl_roof_req *req, rl_roof *out, int32_t *dtype_used,
                          rl_error *err) {
  if (!hw || !req || !out) return rli_fail(err, RL_EINVAL, "no device or request");
  if (req->overhead_given && !(req->overhead_s >= 0))
    return rli_fail(err, RL_EINVAL, "`overhead` must be >= 0");
  if (req->peak < 0 || isnan(req->peak)) return rli_fail(err, RL_EINVAL, "`peak` must be > 0");
  if (req->overhead_given) TRY(rl_param_check("overhead", RL_UNIT_SECONDS, req->overhead_s, err));
  if (req->peak > 0) TRY(rl_param_check("peak", RL_UNIT_FLOP_S, req->peak, err));
  int32_t dt = req->dtype;
  if (req->peak > 0) {
    if (req->sparse)
      return rli_fail(err, RL_EINVAL, "`sparse` and `peak` exclude each other (give the sparse figure as `peak`)");
    memset(out, 0, sizeof *out);
    out->peak = req->peak;
    out->bandwidth = hw->mem_bw;
    out->launch_overhead_s = RL_DEFAULT_LAUNCH_OVERHEAD_S;
    out->peak_kind = -1;
    out->compute_eff = out->bw_eff = 1;
    out->measured = rl_hw_measured(hw) ? RL_ROOF_MEASURED_BW : 0;
  } else {
    /* fp16 and bf16 stand in for each other (the file's header) */
    if (req->stand_in && req->tensor && (dt == RL_FP16 || dt == RL_BF16) && rl_hw_peak_for(hw, dt, 1) < 0) {
      int32_t other = dt == RL_FP16 ? RL_BF16 : RL_FP16;
      if (rl_hw_peak_for(hw, other, 1) >= 0) dt = other;
    }
    int32_t pk = rl_hw_peak_for(hw, dt, req->tensor);
    if (pk < 0)
      return rli_fail(err, RL_EUNSUPPORTED, "%s has no %s %s peak in the database (give `peak`)", hw->id,
                      rl_dtype_name(dt) ? rl_dtype_name(dt) : "?", req->tensor ? "tensor" : "vector");
    TRY(rl_hw_roof(hw, pk, req->sparse ? RL_ROOF_SPARSE : 0u, out, err));
  }
  if (req->overhead_given) out->launch_overhead_s = req->overhead_s;
  if (req->bw_given) out->measured &= ~RL_ROOF_MEASURED_BW;
  if (dtype_used) *dtype_used = dt;
  return RL_OK;
}

/* ---- latencies of collectives ---------------------------------------------- */
double rl_comm_latency(const rl_hw *hw, int32_t op, int32_t n) {
  if (!hw || !(hw->link_latency_s > 0)) return 0;
  switch (op) {
  case RL_COMM_ALLREDUCE: return n > 1 ? rl_allreduce_floor(hw) : 0;
  case RL_COMM_ALLREDUCE_NCCL: return n > 1 ? RL_NCCL_BASE_LATENCY_S + 2.0 * (n - 1) * hw->link_latency_s : 0;
  case RL_COMM_SEND: return RL_NCCL_BASE_LATENCY_S + hw->link_latency_s;
  case RL_COMM_ALLTOALL: return n > 1 ? RL_NCCL_BASE_LATENCY_S + (n - 1.0) * hw->link_latency_s : 0;
  default: return 0;
  }
}

/* ---- the inference setup ----------------------------------------------------- */
rl_infer_req rl_infer_req_init(void) {
  rl_infer_req r;
  memset(&r, 0, sizeof r);
  r.weight_dtype = r.kv_dtype = r.dtype = -1;
  r.tp = r.pp = r.ep = 1;
  r.embedding = RL_EMBED_GATHERED;
  r.roof = rl_roof_req_init();
  return r;
}

void rl_infer_degrees(rl_infer_cfg *cfg, const rl_hw *hw, const rl_infer_req *req, int32_t tp, int32_t pp,
                      int32_t ep) {
  cfg->tp = tp;
  cfg->pp = pp;
  cfg->ep = ep;
  if (tp <= 1 && pp <= 1 && ep <= 1) cfg->link_bw = 0;
  if (tp <= 1) cfg->comm_latency_s = 0;
  else if (req->comm_latency_given == 2) cfg->comm_latency_s = rl_comm_latency(hw, RL_COMM_ALLREDUCE_NCCL, tp);
  else cfg->comm_latency_s = req->comm_latency_given ? req->comm_latency : rl_comm_latency(hw, RL_COMM_ALLREDUCE, tp);
  cfg->p2p_latency_s = pp > 1 ? rl_comm_latency(hw, RL_COMM_SEND, pp) : 0;
  cfg->a2a_latency_s = rl_comm_latency(hw, RL_COMM_ALLTOALL, ep);
}

rl_status rl_fraction_parse(const char *text, double *out, rl_error *err) {
  if (!text || !out) return rli_fail(err, RL_EINVAL, "no fraction");
  char tmp[64];
  snprintf(tmp, sizeof tmp, "%s", text);
  size_t n = strlen(tmp);
  double scale = 1;
  if (n > 0 && tmp[n - 1] == '%') { tmp[n - 1] = 0; scale = 100; }
  double v;
  TRY(rl_parse_quantity(tmp, RL_UNIT_COUNT, &v, err));
  v /= scale; /* 70% -> 0.7 exactly */
  if (!(v > 0 && v <= 1)) return rli_fail(err, RL_EINVAL, "must be a fraction in (0, 1] (got %s)", text);
  *out = v;
  return RL_OK;
}

static rl_status check_eff(double v, const char *what, rl_error *err) {
  if (v == 0) return RL_OK; /* not given: 100% */
  if (!(v > 0 && v <= 1)) return rli_fail(err, RL_EINVAL, "`%s` must be a fraction in (0, 1] (got %g)", what, v);
  return rl_param_check(what, RL_UNIT_COUNT, v, err); /* and a plausible one (ranges.c) */
}

rl_status rl_infer_setup(const rl_model *m, const rl_hw *hw, const rl_infer_req *req, rl_infer_cfg *cfg,
                         rl_roof *roof, rl_infer_info *info, rl_error *err) {
  if (!m || !hw || !req || !cfg || !roof) return rli_fail(err, RL_EINVAL, "no model, device or request");
  if (req->tp < 1) return rli_fail(err, RL_EINVAL, "`tp` must be >= 1 (got %d)", (int)req->tp);
  if (req->link_bw_given && !(req->link_bw > 0)) return rli_fail(err, RL_EINVAL, "`link_bw` must be > 0");
  if (req->comm_latency_given < 0 || req->comm_latency_given > 2)
    return rli_fail(err, RL_EINVAL, "unknown comm_latency_given %d", (int)req->comm_latency_given);
  if (req->comm_latency_given == 1 && !(req->comm_latency >= 0))
    return rli_fail(err, RL_EINVAL, "`comm_latency` must be >= 0");
  if (req->comm_latency_given == 1) TRY(rl_param_check("comm_latency", RL_UNIT_SECONDS, req->comm_latency, err));
  if (req->link_bw_given) TRY(rl_param_check("link_bw", RL_UNIT_BYTES_S, req->link_bw, err));
  if (req->pp < 1) return rli_fail(err, RL_EINVAL, "`pp` must be >= 1 (got %d)", (int)req->pp);
  if (req->ep < 1) return rli_fail(err, RL_EINVAL, "`ep` must be >= 1 (got %d)", (int)req->ep);
  if (req->microbatches_given) {
    if (!(req->microbatches >= 1) || req->microbatches != floor(req->microbatches) ||
        req->microbatches > RL_MAX_MICROBATCHES)
      return rli_fail(err, RL_EINVAL, "`microbatches` must be a whole number >= 1 and <= %d (got %g)",
                      RL_MAX_MICROBATCHES, req->microbatches);
    if (req->pp == 1) return rli_fail(err, RL_EINVAL, "`microbatches` applies with `pp` N > 1 only");
  }
  const int par = req->tp > 1 || req->pp > 1 || req->ep > 1;
  if (!par && req->link_bw_given)
    return rli_fail(err, RL_EINVAL, "`link_bw` applies with `tp`, `pp` or `ep` N > 1 only");
  if (req->tp == 1 && req->comm_latency_given)
    return rli_fail(err, RL_EINVAL, "`comm_latency` applies with `tp` N > 1 only");
  TRY(check_eff(req->compute_eff, "compute_eff", err));
  TRY(check_eff(req->bw_eff, "bw_eff", err));
  const double ce = req->compute_eff > 0 ? req->compute_eff : 1, be = req->bw_eff > 0 ? req->bw_eff : 1;

  rl_roof_req rr = req->roof;
  rr.dtype = req->dtype >= 0 ? req->dtype : m->dtype;
  rr.tensor = 1;
  rr.stand_in = 1;
  int32_t used = rr.dtype;
  TRY(rl_roof_resolve(hw, &rr, roof, &used, err));
  roof->peak *= ce;
  roof->bandwidth *= be;
  roof->compute_eff = ce;
  roof->bw_eff = be;

  *cfg = rl_infer_cfg_init();
  cfg->weight_dtype = req->weight_dtype;
  cfg->kv_dtype = req->kv_dtype;
  cfg->act_dtype = req->dtype;
  cfg->embedding = req->embedding;
  cfg->group_size = req->group_size;
  cfg->quantize_all = req->quantize_all;
  cfg->microbatches = req->microbatches_given ? req->microbatches : 0;
  cfg->mem_bytes = hw->mem_bytes;
  if (par) {
    cfg->link_bw = req->link_bw_given ? req->link_bw : hw->interconnect_bw / 2;
    if (!(cfg->link_bw > 0)) {
      const char *what = req->tp > 1 ? "tp" : req->pp > 1 ? "pp" : "ep";
      int n = req->tp > 1 ? req->tp : req->pp > 1 ? req->pp : req->ep;
      return rli_fail(err, RL_EINVAL, "`%s` %d: %s has no interconnect figure; give `link_bw`", what, n, hw->id);
    }
  }
  rl_infer_degrees(cfg, hw, req, req->tp, req->pp, req->ep);
  if (info) {
    info->dtype = rr.dtype;
    info->peak_dtype = used;
    info->comm_latency_default = req->tp > 1 && !req->comm_latency_given && hw->link_latency_s > 0;
  }
  return RL_OK;
}
