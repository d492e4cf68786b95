/*
 * widget.c -- the model behind the interactive roofline page: from the
 * page's controls (devices, format, matrix size, batch, sequence length,
 * model width) to the roofs, the operations of one Transformer layer with
 * their roofline records, and the SVG chart of them. Pure: the page calls
 * it through WebAssembly (web/wasm_entry.c), the tests call it natively.
 *
 * The page's layer (the ideal-traffic counts of ops.c): on a T x d activation an add, a softmax and a LayerNorm;
 * a linear layer d x d on B tokens; a square matmul n x n x n; one
 * attention head (head_dim 128) at sequence length T, naive and fused.
 * Each device of the page (the first and the compared ones) gets its own
 * roof and its own copy of these operations. With a model, its decode step
 * (rl_decode: B sequences at context T) and its prefill (rl_prefill: B
 * prompts of T tokens) are placed too, on the tensor roof of the model's
 * format, as `roofline decode` and `roofline prefill` compute them.
 */
#include "render/plot_internal.h"
#include "core/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDGET_MAX_HW 4
#define WIDGET_OPS 7

typedef struct wcfg {
  char hw[WIDGET_MAX_HW][RL_HW_ID_MAX];
  int32_t n_hw;
  int32_t dtype;
  double n, batch, seq, d, head_dim;
  int sparse;
  char title[200];
  const rli_json *points; /* borrowed from the parsed config */
  double width;           /* chart pixels */
  char model[RL_MODEL_ID_MAX]; /* "" = none */
  double mbatch, context;
  int32_t mdtype;         /* -1: the model's */
} wcfg;

static rl_status num(const rli_json *root, const char *key, double *v, double lo, double hi,
                     rl_error *err) {
  const rli_json *m = rli_json_get(root, key);
  if (!m || m->type == RLI_JSON_NULL) return RL_OK;
  if (m->type != RLI_JSON_NUM || !(m->num >= lo && m->num <= hi))
    return rli_fail(err, RL_EINVAL, "%s must be a number from %g to %g", key, lo, hi);
  *v = m->num;
  return RL_OK;
}

static rl_status read_cfg(const rli_json *root, wcfg *c, rl_error *err) {
  memset(c, 0, sizeof *c);
  rli_strlcpy(c->hw[0], RL_DEFAULT_HW, sizeof c->hw[0]);
  c->n_hw = 1;
  c->dtype = RL_BF16;
  c->n = 4096, c->batch = 512, c->seq = 4096, c->d = 4096, c->head_dim = 128;
  c->width = 960, c->mbatch = 1, c->context = 4096, c->mdtype = -1;
  if (root->type != RLI_JSON_OBJ) return rli_fail(err, RL_EINVAL, "config must be a JSON object");
  const rli_json *hw = rli_json_get(root, "hw");
  if (hw && hw->type == RLI_JSON_STR) {
    rli_strlcpy(c->hw[0], hw->str, sizeof c->hw[0]);
  } else if (hw && hw->type == RLI_JSON_ARR) {
    c->n_hw = 0;
    for (size_t i = 0; i < hw->n && c->n_hw < WIDGET_MAX_HW; i++) {
      if (hw->kids[i].type != RLI_JSON_STR) return rli_fail(err, RL_EINVAL, "hw must be a list of ids");
      if (!hw->kids[i].str[0]) continue;
      rli_strlcpy(c->hw[c->n_hw++], hw->kids[i].str, sizeof c->hw[0]);
    }
    if (!c->n_hw) return rli_fail(err, RL_EINVAL, "hw: no device");
  } else if (hw) {
    return rli_fail(err, RL_EINVAL, "hw must be an id or a list of ids");
  }
  const rli_json *dt = rli_json_get(root, "dtype");
  if (dt) {
    if (dt->type != RLI_JSON_STR) return rli_fail(err, RL_EINVAL, "dtype must be a string");
    rl_status st = rl_dtype_parse(dt->str, &c->dtype, err);
    if (st) return st;
  }
  rl_status st;
  if ((st = num(root, "n", &c->n, 1, 1e7, err)) || (st = num(root, "batch", &c->batch, 1, 1e8, err)) ||
      (st = num(root, "seq", &c->seq, 1, 1e8, err)) || (st = num(root, "d", &c->d, 1, 1e7, err)) ||
      (st = num(root, "head_dim", &c->head_dim, 1, 1e5, err)) || (st = num(root, "width", &c->width, 320, 2560, err)) ||
      (st = num(root, "mbatch", &c->mbatch, 1, 1e6, err)) || (st = num(root, "context", &c->context, 1, 1e7, err)))
    return st;
  c->mbatch = floor(c->mbatch);
  const rli_json *md = rli_json_get(root, "model");
  if (md && md->type == RLI_JSON_STR) rli_strlcpy(c->model, md->str, sizeof c->model);
  else if (md && md->type != RLI_JSON_NULL) return rli_fail(err, RL_EINVAL, "model must be an id");
  const rli_json *mdt = rli_json_get(root, "mdtype");
  if (mdt && mdt->type == RLI_JSON_STR && mdt->str[0]) {
    rl_status s2 = rl_dtype_parse(mdt->str, &c->mdtype, err);
    if (s2) return s2;
  }
  const rli_json *sp = rli_json_get(root, "sparse");
  c->sparse = sp && sp->type == RLI_JSON_BOOL && sp->boolean;
  const rli_json *t = rli_json_get(root, "title");
  if (t && t->type == RLI_JSON_STR) rli_strlcpy(c->title, t->str, sizeof c->title);
  const rli_json *pts = rli_json_get(root, "points");
  if (pts && pts->type == RLI_JSON_OBJ) { /* a wrapped points file */
    const rli_json *m = rli_json_get(pts, "points");
    if (!m) m = rli_json_get(pts, "rows");
    if (!m) m = rli_json_get(pts, "kernels");
    pts = m;
  }
  if (pts && pts->type == RLI_JSON_ARR && pts->n) c->points = pts;
  return RL_OK;
}

static void layer_ops(const wcfg *c, rl_op *ops, char (*labels)[RL_LABEL_MAX]) {
  int32_t dt = c->dtype;
  ops[0] = rl_op_init(RL_OP_ADD, dt);
  ops[0].n = c->seq * c->d;
  ops[1] = rl_op_init(RL_OP_SOFTMAX, dt);
  ops[1].m = c->seq, ops[1].n = c->d;
  ops[2] = rl_op_init(RL_OP_LAYERNORM, dt);
  ops[2].m = c->seq, ops[2].n = c->d;
  ops[3] = rl_op_init(RL_OP_LINEAR, dt);
  ops[3].m = c->batch, ops[3].k = c->d, ops[3].n = c->d;
  ops[4] = rl_op_init(RL_OP_MATMUL, dt);
  ops[4].m = ops[4].n = ops[4].k = c->n;
  ops[5] = rl_op_init(RL_OP_ATTENTION, dt);
  ops[5].seq = c->seq, ops[5].head_dim = c->head_dim;
  ops[6] = ops[5];
  ops[6].flags = RL_OP_FUSED;
  snprintf(labels[0], RL_LABEL_MAX, "add");
  snprintf(labels[1], RL_LABEL_MAX, "softmax");
  snprintf(labels[2], RL_LABEL_MAX, "layernorm");
  snprintf(labels[3], RL_LABEL_MAX, "linear B=%.0f", c->batch);
  snprintf(labels[4], RL_LABEL_MAX, "matmul n=%.0f", c->n);
  snprintf(labels[5], RL_LABEL_MAX, "attention naive T=%.0f", c->seq);
  snprintf(labels[6], RL_LABEL_MAX, "attention fused T=%.0f", c->seq);
}

/* The formatted figures of one record, for the page's readout. */
static void text_json(rli_out *o, const rl_result *r) {
  char a[48];
  rli_out_puts(o, "{\"flops\":");
  rli_out_str(o, rli_plot_q(a, sizeof a, r->flops, RL_UNIT_FLOP));
  rli_out_puts(o, ",\"bytes\":");
  rli_out_str(o, rli_plot_q(a, sizeof a, r->bytes, RL_UNIT_BYTES));
  rli_out_puts(o, ",\"intensity\":");
  rli_out_str(o, rli_plot_q(a, sizeof a, r->intensity, RL_UNIT_FLOP_PER_BYTE));
  rli_out_puts(o, ",\"time_s\":");
  rli_out_str(o, rli_plot_q(a, sizeof a, r->time_s, RL_UNIT_SECONDS));
  rli_out_puts(o, ",\"attainable\":");
  rli_out_str(o, rli_plot_q(a, sizeof a, r->attainable, RL_UNIT_FLOP_S));
  if (r->has_measured) {
    rli_out_puts(o, ",\"measured_s\":");
    rli_out_str(o, rli_plot_q(a, sizeof a, r->measured_s, RL_UNIT_SECONDS));
    rli_out_puts(o, ",\"achieved\":");
    rli_out_str(o, rli_plot_q(a, sizeof a, r->achieved, RL_UNIT_FLOP_S));
  }
  rli_out_puts(o, "}");
}

/* The record of rl_result_json, appended to o. */
static void record_json(rli_out *o, const char *label, const char *hw, const char *dt,
                        const rl_roof *roof, const rl_result *r) {
  size_t need = rl_result_json(label, hw, dt, roof, r, NULL, NULL, 0);
  char *tmp = malloc(need + 1);
  if (!tmp) return;
  rl_result_json(label, hw, dt, roof, r, NULL, tmp, need + 1);
  rli_out_puts(o, tmp);
  free(tmp);
}

static void devices_json(rli_out *o) {
  rli_out_puts(o, "[");
  int first = 1;
  for (int32_t i = 0; i < rl_hw_count(); i++) {
    rl_hw hw;
    if (rl_hw_get(i, &hw) != RL_OK || !(hw.mem_bw > 0)) continue;
    rli_out_puts(o, first ? "{\"id\":" : ",{\"id\":");
    first = 0;
    rli_out_str(o, hw.id);
    rli_out_puts(o, ",\"name\":");
    rli_out_str(o, hw.name);
    rli_out_puts(o, ",\"dtypes\":[");
    int f2 = 1;
    for (int32_t d = 0; d < RL_DTYPE_COUNT; d++) {
      if (d == RL_INT4 || rl_hw_peak_for(&hw, d, 1) < 0) continue;
      rli_out_puts(o, f2 ? "" : ",");
      f2 = 0;
      rli_out_str(o, rl_dtype_name(d));
    }
    rli_out_puts(o, "]}");
  }
  rli_out_puts(o, "]");
}

static void models_json(rli_out *o) {
  rli_out_puts(o, "[");
  for (int32_t i = 0; i < rl_model_count(); i++) {
    rl_model m;
    if (rl_model_get(i, &m) != RL_OK) continue;
    rli_out_puts(o, i ? ",{\"id\":" : "{\"id\":");
    rli_out_str(o, m.id);
    rli_out_puts(o, ",\"name\":");
    rli_out_str(o, m.name);
    rli_out_puts(o, ",\"dtype\":");
    rli_out_str(o, rl_dtype_name(m.dtype));
    rli_out_puts(o, "}");
  }
  rli_out_puts(o, "]");
}

/* A model's decode step or prefill as a point and a record on hw. */
typedef struct mstep {
  char label[RL_PLOT_LABEL_MAX];
  double flops, bytes, time_s;
  int32_t bound;
} mstep;

static rl_status model_steps(const wcfg *c, const rl_hw *hw, mstep out[2], int32_t *dt_used, rl_error *err) {
  rl_model m;
  rl_status st = rl_model_find(c->model, &m, err);
  if (st) return st;
  /* the model's roof and configuration as `roofline decode` resolves
   * them: the tensor peak of its format (fp16 and bf16 standing in for
   * each other), one device */
  rl_infer_req req = rl_infer_req_init();
  req.dtype = c->mdtype;
  rl_infer_cfg cfg;
  rl_roof roof;
  rl_infer_info info;
  if ((st = rl_infer_setup(&m, hw, &req, &cfg, &roof, &info, err))) return st;
  *dt_used = info.peak_dtype;
  cfg.context = c->context;
  rl_decode_row row;
  double b = c->mbatch;
  if ((st = rl_decode(&m, &cfg, &roof, &b, 1, &row, NULL, err))) return st;
  snprintf(out[0].label, sizeof out[0].label, "%.40s decode B=%.0f T=%.0f", m.id, b, c->context);
  out[0].flops = row.flops, out[0].bytes = row.bytes, out[0].time_s = row.step_time_s, out[0].bound = row.bound;
  cfg.batch = b;
  rl_prefill_result pr;
  if ((st = rl_prefill(&m, &cfg, &roof, NULL, 0, &pr, err))) return st;
  snprintf(out[1].label, sizeof out[1].label, "%.40s prefill B=%.0f T=%.0f", m.id, b, c->context);
  out[1].flops = pr.flops, out[1].bytes = pr.bytes, out[1].time_s = pr.ttft_s;
  out[1].bound = pr.compute_bound_fraction >= 0.5 ? RL_BOUND_COMPUTE : RL_BOUND_MEMORY;
  return RL_OK;
}

/* A model step's record: the figures `roofline decode/prefill --json`
 * print (flops, bytes, intensity, its time bound), with the attainable
 * FLOP/s they imply. */
static void mstep_json(rli_out *o, const mstep *s, const char *hw, const char *dt) {
  rli_out_puts(o, "{\"op\":");
  rli_out_str(o, s->label);
  rli_out_puts(o, ",\"hw\":");
  rli_out_str(o, hw);
  rli_out_puts(o, ",\"dtype\":");
  rli_out_str(o, dt);
  rli_out_puts(o, ",\"flops\":");
  rli_out_num(o, s->flops);
  rli_out_puts(o, ",\"bytes\":");
  rli_out_num(o, s->bytes);
  rli_out_puts(o, ",\"intensity\":");
  rli_out_num(o, s->flops / s->bytes);
  rli_out_puts(o, ",\"time_s\":");
  rli_out_num(o, s->time_s);
  rli_out_puts(o, ",\"attainable\":");
  rli_out_num(o, s->flops / s->time_s);
  rli_out_puts(o, ",\"bound\":");
  rli_out_str(o, rl_bound_name(s->bound));
  rli_out_puts(o, "}");
}

#define WIDGET_MODEL_STEPS 2

/* The chart's roofs: one per device that has the format (the first must,
 * a compared one without it is left out). Returns how many, or -1. */
static int32_t widget_roofs(const wcfg *c, rl_plot_roof *roofs, rl_hw *hws, rl_error *err) {
  int32_t n_roofs = 0;
  for (int32_t i = 0; i < c->n_hw; i++) {
    rl_hw hw;
    rl_status st = rl_hw_find(c->hw[i], NULL, 0, &hw, err);
    if (st) return -1;
    st = rl_plot_roof_from_hw(&hw, c->dtype, c->sparse ? RL_ROOF_SPARSE : 0u, &roofs[n_roofs], err);
    if (st && i == 0) return -1;
    if (st) continue; /* a compared device without this format */
    roofs[n_roofs].color = n_roofs + 1;
    hws[n_roofs++] = hw;
  }
  return n_roofs;
}

/* The points: per device the layer's ops and the model's decode and
 * prefill steps, then the page's own points; each with its roof and bound. */
typedef struct wpoints {
  char labels[WIDGET_OPS][RL_LABEL_MAX];
  int32_t nmodel, nfile, per, np; /* per: points per device */
  rl_plot_point *pts;
  rl_result *res;
  rl_roof *rr;
  mstep *ms;
  int32_t mdt[WIDGET_MAX_HW]; /* the model's format on each device */
} wpoints;

static void wpoints_free(wpoints *w) {
  free(w->pts);
  free(w->res);
  free(w->rr);
  free(w->ms);
}

/* A compared device's point says which device it is on: no two points of
 * the chart share a label. */
static void on_device(rl_plot_point *pt, const rl_hw *hw) {
  size_t l = strlen(pt->label);
  if (l + 1 < sizeof pt->label) snprintf(pt->label + l, sizeof pt->label - l, " on %.60s", hw->name[0] ? hw->name : hw->id);
}

static rl_status widget_points(const wcfg *c, const rl_hw *hws, const rl_plot_roof *roofs, int32_t n_roofs,
                               wpoints *w, rl_error *err) {
  const rl_hw *hw0 = &hws[0];
  rl_op ops[WIDGET_OPS];
  layer_ops(c, ops, w->labels);
  w->nfile = c->points ? (int32_t)(c->points->n > 200 ? 200 : c->points->n) : 0;
  w->nmodel = c->model[0] ? WIDGET_MODEL_STEPS : 0;
  int32_t nmodel = w->nmodel, per = w->per = WIDGET_OPS + nmodel;
  int32_t np = w->np = per * n_roofs + w->nfile;
  rl_plot_point *pts = w->pts = calloc((size_t)np, sizeof *pts);
  rl_result *res = w->res = calloc((size_t)np, sizeof *res);
  rl_roof *rr = w->rr = calloc((size_t)np, sizeof *rr);
  mstep *ms = w->ms = calloc((size_t)(nmodel * n_roofs + 1), sizeof *ms);
  if (!pts || !res || !rr || !ms) return rli_fail(err, RL_ENOMEM, "out of memory");
  for (int32_t h = 0; h < n_roofs; h++) {
    for (int32_t k = 0; k < WIDGET_OPS; k++) {
      int32_t i = h * per + k;
      rl_cost cost;
      TRY(rl_op_cost(&ops[k], &cost, err));
      int32_t pk = rl_hw_peak_for(&hws[h], c->dtype, cost.tensor);
      if (pk < 0) pk = rl_hw_peak_for(&hws[h], c->dtype, 1);
      TRY(rl_hw_roof(&hws[h], pk, c->sparse && cost.tensor ? RL_ROOF_SPARSE : 0u, &rr[i], err));
      TRY(rl_roofline(cost.flops, cost.bytes, &rr[i], 0, &res[i], err));
      pts[i] = rl_plot_point_from_result(w->labels[k], &res[i], h);
      pts[i].marker = h == 0 ? RL_MARK_CIRCLE : RL_MARK_SQUARE;
      if (h > 0) on_device(&pts[i], &hws[h]);
    }
    for (int32_t k = 0; k < nmodel; k += WIDGET_MODEL_STEPS) {
      TRY(model_steps(c, &hws[h], &ms[h * nmodel], &w->mdt[h], err));
      for (int32_t j = 0; j < WIDGET_MODEL_STEPS; j++) {
        const mstep *s = &ms[h * nmodel + j];
        rl_plot_point *pt = &pts[h * per + WIDGET_OPS + j];
        rli_strlcpy(pt->label, s->label, sizeof pt->label);
        pt->flops = s->flops, pt->bytes = s->bytes, pt->intensity = s->flops / s->bytes;
        pt->time_s = s->time_s, pt->perf = s->flops / s->time_s, pt->bound = s->bound;
        pt->roof = h;
        pt->marker = RL_MARK_TRIANGLE;
        if (h > 0) on_device(pt, &hws[h]);
      }
    }
  }
  /* points given with the page (`roofline widget --points FILE`): on the
   * first device's top roof, measured where they say so */
  for (int32_t k = 0; k < w->nfile; k++) {
    int32_t i = per * n_roofs + k;
    TRY(rli_plot_point_from_json(&c->points->kids[k], (size_t)k, &roofs[0], 0, &pts[i], err));
    int32_t pk = rl_hw_peak_for(hw0, c->dtype, 1);
    rl_hw_roof(hw0, pk, c->sparse ? RL_ROOF_SPARSE : 0u, &rr[i], NULL);
    if (pts[i].flops > 0 && pts[i].bytes > 0)
      rl_roofline(pts[i].flops, pts[i].bytes, &rr[i], pts[i].measured ? pts[i].time_s : 0, &res[i], NULL);
  }
  return RL_OK;
}

/* The page's answer: the chart, then each point's record and texts, the
 * devices and the models (two passes: measure, then write). NULL when out
 * of memory. */
static char *widget_answer(const char *svg, const rl_hw *hws, int32_t n_roofs, const char *dn, const wpoints *w,
                           rl_error *err) {
  const rl_hw *hw0 = &hws[0];
  const int32_t per = w->per, np = w->np, nmodel = w->nmodel;
  const mstep *ms = w->ms;
  char *out = NULL;
  size_t cap = 0;
  for (int pass = 0; pass < 2; pass++) {
    rli_out o;
    rli_out_init(&o, out, cap);
    rli_out_puts(&o, "{\"svg\":");
    rli_out_str(&o, svg);
    rli_out_puts(&o, ",\"hw\":");
    rli_out_str(&o, hw0->id);
    rli_out_puts(&o, ",\"dtype\":");
    rli_out_str(&o, dn);
    rli_out_printf(&o, ",\"per_device\":%d,\"n_devices\":%d,\"records\":[", (int)per, (int)n_roofs);
    for (int32_t i = 0; i < np; i++) {
      if (i) rli_out_puts(&o, ",");
      int32_t h = i < per * n_roofs ? i / per : 0, k = i < per * n_roofs ? i % per : -1;
      if (k >= WIDGET_OPS)
        mstep_json(&o, &ms[h * nmodel + (k - WIDGET_OPS)], hws[h].id, rl_dtype_name(w->mdt[h]));
      else if (w->res[i].bytes > 0 || w->res[i].flops > 0)
        record_json(&o, k >= 0 ? w->labels[k] : w->pts[i].label, hws[h].id, dn, &w->rr[i], &w->res[i]);
      else
        rli_out_puts(&o, "null");
    }
    rli_out_puts(&o, "],\"text\":[");
    for (int32_t i = 0; i < np; i++) {
      if (i) rli_out_puts(&o, ",");
      int32_t h = i < per * n_roofs ? i / per : 0, k = i < per * n_roofs ? i % per : -1;
      if (k >= WIDGET_OPS) {
        const mstep *s = &ms[h * nmodel + (k - WIDGET_OPS)];
        rl_result r;
        memset(&r, 0, sizeof r);
        r.flops = s->flops, r.bytes = s->bytes, r.intensity = s->flops / s->bytes;
        r.time_s = s->time_s, r.attainable = s->flops / s->time_s;
        text_json(&o, &r);
      } else {
        text_json(&o, &w->res[i]);
      }
    }
    rli_out_puts(&o, "],\"devices\":");
    devices_json(&o);
    rli_out_puts(&o, ",\"models\":");
    models_json(&o);
    rli_out_puts(&o, "}");
    size_t n = rli_out_end(&o);
    if (pass == 0) {
      cap = n + 1;
      out = malloc(cap);
      if (!out) {
        rli_fail(err, RL_ENOMEM, "out of memory");
        return NULL;
      }
    }
  }
  return out;
}

static char *build(const wcfg *c, rl_error *err) {
  rl_plot_roof roofs[WIDGET_MAX_HW];
  rl_hw hws[WIDGET_MAX_HW];
  int32_t n_roofs = widget_roofs(c, roofs, hws, err);
  if (n_roofs < 0) return NULL;
  const rl_hw *hw0 = &hws[0];
  wpoints w;
  memset(&w, 0, sizeof w);
  char *svg = NULL, *out = NULL;
  if (widget_points(c, hws, roofs, n_roofs, &w, err)) goto done;
  const char *dn = rl_dtype_name(c->dtype);
  char title[300], sub[400];
  if (c->title[0]) snprintf(title, sizeof title, "%s", c->title);
  else if (n_roofs > 1) snprintf(title, sizeof title, "One Transformer layer on %.60s and %.60s, %s", hw0->name, hws[1].name, dn);
  else snprintf(title, sizeof title, "One Transformer layer on %.80s, %s", hw0->name, dn);
  int sl = snprintf(sub, sizeof sub,
                    "activation T x d = %.0f x %.0f; linear on B = %.0f tokens; matmul n = %.0f; attention "
                    "head_dim %.0f; %s peaks",
                    c->seq, c->d, c->batch, c->n, c->head_dim, c->sparse ? "2:4 sparse" : "dense");
  if (w.nmodel && sl > 0 && (size_t)sl < sizeof sub)
    snprintf(sub + sl, sizeof sub - (size_t)sl, "; %s decode and prefill (triangles) on its %s tensor roof", c->model,
             rl_dtype_name(w.mdt[0]));
  rl_plot p = rl_plot_init();
  p.title = title;
  p.subtitle = sub;
  p.roofs = roofs;
  p.n_roofs = n_roofs;
  p.points = w.pts;
  p.n_points = w.np;
  p.width = (int32_t)c->width;
  p.height = (int32_t)fmax(360, fmin(c->width * 0.66, 900));
  size_t svg_len = rl_plot_svg(&p, NULL, 0);
  svg = malloc(svg_len + 1);
  if (!svg) {
    rli_fail(err, RL_ENOMEM, "out of memory");
    goto done;
  }
  rl_plot_svg(&p, svg, svg_len + 1);
  out = widget_answer(svg, hws, n_roofs, dn, &w, err);
done:
  free(svg);
  wpoints_free(&w);
  return out;
}

char *rl_widget_model(const char *config, size_t len, rl_error *err) {
  rli_json *root = NULL;
  if (!config || !len) {
    config = "{}";
    len = 2;
  }
  if (rli_json_parse(config, len, &root, err) != RL_OK) return NULL;
  wcfg c;
  char *out = NULL;
  if (read_cfg(root, &c, err) == RL_OK) out = build(&c, err);
  rli_json_free(root);
  return out;
}
