/*
 * plot_common.c -- roofs, points and output files for `roofline plot` and
 * `roofline widget` (see plot_common.h).
 */
#include "plot_common.h"
#include "outfile.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void plot_args_init(plot_args *a) {
  memset(a, 0, sizeof *a);
  cli_hw_flags_init(&a->hwf);
  a->sh = rl_layer_default();
}

void plot_data_free(plot_data *d) {
  free(d->roofs);
  free(d->points);
  d->roofs = NULL;
  d->points = NULL;
}

rl_plot plot_data_chart(const plot_data *d, int32_t width, int32_t height) {
  rl_plot p = rl_plot_init();
  p.title = d->title;
  p.subtitle = d->subtitle;
  p.roofs = d->roofs;
  p.n_roofs = d->n_roofs;
  p.points = d->points;
  p.n_points = d->n_points;
  p.width = width;
  p.height = height;
  return p;
}

char **plot_short_output(int argc, char **argv) {
  char **v = calloc((size_t)argc + 1, sizeof *v);
  if (!v) return NULL;
  for (int i = 0; i < argc; i++) {
    v[i] = argv[i];
    if (i > 0 && strcmp(argv[i], "-o") == 0) v[i] = (char *)(uintptr_t) "--output";
  }
  return v;
}

static int same_ci(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

int plot_svg_path(cli_ctx *ctx, const char *flag, const char *path) {
  static const char *const raster[] = {"png", "jpg", "jpeg", "gif", "webp", "bmp", "tif", "tiff", "pdf"};
  const char *dot = path ? strrchr(path, '.') : NULL;
  if (!dot || strchr(dot, '/')) return CLI_OK;
  for (size_t i = 0; i < sizeof raster / sizeof raster[0]; i++)
    if (same_ci(dot + 1, raster[i]))
      return cli_error(ctx, "%s %s: the chart is SVG, not %s: name it .svg (%.*s.svg) and convert it if you "
                            "need %s (rsvg-convert, a browser)",
                       flag, path, raster[i], (int)(dot - path), path, raster[i]);
  return CLI_OK;
}

int plot_write(cli_ctx *ctx, const char *flag, const char *path, const char *text, size_t len) {
  if (!path || strcmp(path, "-") == 0) {
    fwrite(text, 1, len, cli_raw_out(ctx));
    return CLI_OK;
  }
  return cli_write_file(ctx, flag, path, text, len);
}

int plot_roofs(cli_ctx *ctx, plot_args *a, plot_data *d) {
  memset(d, 0, sizeof *d);
  char hwlist[1024], dtlist[256];
  char *hws[16], *dts[8];
  int nh = 0, nd = 0;
  if (a->hwf.hw && (nh = cli_split_list(ctx, "--hw", a->hwf.hw, hwlist, sizeof hwlist, hws, 16)) < 0)
    return CLI_USAGE;
  if ((nd = cli_split_list(ctx, "--dtype", a->dtypes ? a->dtypes : "bf16", dtlist, sizeof dtlist, dts, 8)) < 0)
    return CLI_USAGE;
  for (int j = 0; j < nd; j++) {
    rl_error e;
    if (rl_dtype_parse(dts[j], &d->dtypes[j], &e)) return cli_error(ctx, "--dtype: %s", e.msg);
  }
  d->n_dtypes = nd;
  d->dtype0 = d->dtypes[0];
  int ndev = nh ? nh : 1;
  d->roofs = calloc((size_t)(ndev * nd), sizeof *d->roofs);
  if (!d->roofs) return cli_error(ctx, "out of memory");
  for (int i = 0; i < ndev; i++) {
    cli_hw_flags f = a->hwf;
    f.hw = nh ? hws[i] : NULL;
    rl_hw hw;
    int rc = cli_resolve_hw(ctx, &f, 1, &hw);
    if (rc) { plot_data_free(d); return rc; }
    if (i == 0) d->hw0 = hw;
    snprintf(d->hw_ids[i], sizeof d->hw_ids[i], "%s", hw.id);
    for (int j = 0; j < nd; j++) {
      rl_plot_roof *r = &d->roofs[d->n_roofs];
      rl_error e;
      rl_status st = rl_plot_roof_from_hw(&hw, d->dtypes[j], a->hwf.sparse ? RL_ROOF_SPARSE : 0u,
                                          r, &e);
      if (st == RL_OK && a->hwf.peak > 0) {
        /* --peak overrides the flat roof of every format */
        r->peak = a->hwf.peak;
        snprintf(r->label, sizeof r->label, "%.60s %s (--peak)", hw.name[0] ? hw.name : hw.id,
                 rl_dtype_name(d->dtypes[j]));
      }
      if (st == RL_EUNSUPPORTED && !(i == 0 && j == 0)) {
        /* e.g. an A100 has no fp8 peak: that roof is left out, and said so */
        size_t l = strlen(d->missing);
        snprintf(d->missing + l, sizeof d->missing - l, "%s%s %s", l ? ", " : "", hw.id,
                 rl_dtype_name(d->dtypes[j]));
        continue;
      }
      if (st) { plot_data_free(d); return cli_fail(ctx, st, &e); }
      r->color = i + 1; /* one hue per device, one dash per format */
      r->dash = j + 1;
      d->roof_hw[d->n_roofs] = i;
      d->roof_dtype[d->n_roofs] = d->dtypes[j];
      d->n_roofs++;
    }
  }
  d->n_hw = ndev;
  return CLI_OK;
}

/* Add a modelled op as a point on the first device. */
static int add_op_point(cli_ctx *ctx, plot_args *a, plot_data *d, const rl_op *op, const char *label,
                        double time_s) {
  rl_cost c;
  rl_error e;
  rl_status st = rl_op_cost(op, &c, &e);
  if (st) return cli_error(ctx, "%s: %s", label, CLI_SPELL(e.msg));
  rl_roof roof;
  /* a generic kernel (flops and bytes given) sits under the chart's top roof */
  int tensor = op->kind == RL_OP_KERNEL ? 1 : c.tensor;
  cli_hw_flags f = a->hwf;
  if (!tensor) f.sparse = 0; /* 2:4 sparsity is a tensor-core peak */
  int rc = cli_roof(ctx, &f, &d->hw0, op->dtype, tensor, &roof);
  if (rc) return rc;
  rl_result r;
  st = rl_roofline(c.flops, c.bytes, &roof, time_s, &r, &e);
  if (st) return cli_error(ctx, "%s: %s", label, CLI_SPELL(e.msg));
  int32_t ri = 0;
  for (int32_t j = d->n_roofs - 1; j >= 0; j--)
    if (d->roof_hw[j] == 0 && d->roof_dtype[j] == op->dtype) ri = j;
  d->points[d->n_points++] = rl_plot_point_from_result(label, &r, ri);
  return CLI_OK;
}

/* KIND[:key=value,...]: the keys are the op schema's fields (as the flags of
 * `roofline op`), plus dtype=, time= and label=. */
static int parse_op_spec(cli_ctx *ctx, const char *spec, int32_t dtype, rl_op *op, char *label,
                         size_t lcap, double *time_s) {
  char tmp[512];
  if (strlen(spec) >= sizeof tmp) return cli_error(ctx, "op '%.40s...': too long", spec);
  strcpy(tmp, spec);
  char *colon = strchr(tmp, ':');
  if (colon) *colon = 0;
  int32_t kind;
  rl_error e;
  if (rl_op_parse(tmp, &kind, &e)) return cli_error(ctx, "op '%s': %s", spec, e.msg);
  *op = rl_op_init(kind, dtype);
  *time_s = 0;
  snprintf(label, lcap, "%s", spec);
  enum { MAX_KEYS = 64 };
  const char *names[MAX_KEYS];
  double values[MAX_KEYS];
  int32_t n = 0;
  char kvbuf[512], *kvs[32]; /* names[] point into kvbuf: it lives as long */
  if (colon) {
    char flag[64];
    snprintf(flag, sizeof flag, "op '%.40s'", spec);
    int nkv = cli_split_list(ctx, flag, colon + 1, kvbuf, sizeof kvbuf, kvs, 32);
    if (nkv < 0) return CLI_USAGE;
    for (int i = 0; i < nkv; i++) {
      char *kv = kvs[i];
      char *eq = strchr(kv, '=');
      if (eq) *eq = 0;
      for (int j = 0; j < i; j++) /* kvs[j] already cut at its '=' */
        if (strcmp(kvs[j], kv) == 0) return cli_error(ctx, "op '%s': %s given twice", spec, kv);
      const char *key = kv, *val = eq ? eq + 1 : NULL;
      int32_t unit = RL_UNIT_COUNT;
      int32_t type = rl_op_field_type(key, &unit);
      if (type == RL_OP_FIELD_FLAG) {
        if (n == MAX_KEYS) return cli_error(ctx, "op '%s': too many keys", spec);
        names[n] = key;
        values[n++] = 1;
        continue;
      }
      if (!val || !*val) return cli_error(ctx, "op '%s': %s needs a value (key=value)", spec, key);
      if (strcmp(key, "label") == 0) { snprintf(label, lcap, "%s", val); continue; }
      if (strcmp(key, "dtype") == 0 || type == RL_OP_FIELD_DTYPE) {
        int32_t dt;
        if (rl_dtype_parse(val, &dt, &e)) return cli_error(ctx, "op '%s': %s", spec, e.msg);
        if (type == RL_OP_FIELD_DTYPE) {
          if (n == MAX_KEYS) return cli_error(ctx, "op '%s': too many keys", spec);
          names[n] = key;
          values[n++] = dt;
        } else {
          op->dtype = dt;
        }
        continue;
      }
      int is_time = strcmp(key, "time") == 0;
      if (!is_time && type != RL_OP_FIELD_SIZE)
        return cli_error(ctx, "op '%s': unknown key '%s'", spec, key);
      double v;
      if (rl_parse_quantity(val, is_time ? RL_UNIT_SECONDS : (rl_unit)unit, &v, &e))
        return cli_error(ctx, "op '%s': %s: %s", spec, key, e.msg);
      if (is_time) {
        if (!(v > 0)) return cli_error(ctx, "op '%s': time must be > 0", spec);
        *time_s = v;
        continue;
      }
      if (n == MAX_KEYS) return cli_error(ctx, "op '%s': too many keys", spec);
      names[n] = key;
      values[n++] = v;
    }
  }
  if (rl_op_set_fields(op, names, values, n, "", &e)) return cli_error(ctx, "op '%s': %s", spec, CLI_SPELL(e.msg));
  return CLI_OK;
}

int plot_build(cli_ctx *ctx, plot_args *a, const cli_opt *opts, const char *const *pos, int npos,
               plot_data *d) {
  int rc = plot_roofs(ctx, a, d);
  if (rc) return rc;
  int preset = !a->points_path && npos == 0;
  if (a->preset) {
    if (strcmp(a->preset, "layer") == 0) preset = 1;
    else if (strcmp(a->preset, "none") == 0) preset = 0;
    else { plot_data_free(d); return cli_error(ctx, "--preset: '%s' is not layer or none", a->preset); }
  }
  int shape_flags = cli_seen(opts, "rows") || cli_seen(opts, "d") || cli_seen(opts, "batches") ||
                    cli_seen(opts, "seq") || cli_seen(opts, "head-dim");
  if (shape_flags && !preset) {
    plot_data_free(d);
    return cli_error(ctx, "--rows, --d, --batches, --seq and --head-dim shape the layer preset (--preset layer)");
  }
  if (a->batches && (rc = cli_parse_batches(ctx, a->batches, a->sh.batches))) { plot_data_free(d); return rc; }
  rl_plot_point *filepts = NULL;
  int32_t nfile = 0;
  if (a->points_path) {
    char *buf = NULL;
    size_t len = 0;
    if ((rc = cli_read_file(ctx, a->points_path, (size_t)256 << 20, &buf, &len))) { plot_data_free(d); return rc; }
    rl_error e;
    rl_status st = rl_plot_points_parse(buf, len, &d->roofs[0], 0, &filepts, &nfile, &e);
    free(buf);
    if (st) { plot_data_free(d); return cli_error(ctx, "%s: %s", a->points_path, e.msg); }
  }
  size_t cap = (size_t)nfile + (size_t)npos + (preset ? RL_LAYER_OPS : 0) + 1;
  d->points = calloc(cap, sizeof *d->points);
  if (!d->points) { free(filepts); plot_data_free(d); return cli_error(ctx, "out of memory"); }
  a->sh.dtype = d->dtype0;
  if (preset) {
    rl_op ops[RL_LAYER_OPS];
    char labels[RL_LAYER_OPS][RL_LABEL_MAX];
    int32_t n = 0;
    rl_error e;
    rl_status st = rl_layer_ops(&a->sh, ops, labels, RL_LAYER_OPS, &n, &e);
    if (st) { free(filepts); plot_data_free(d); return cli_fail(ctx, st, &e); }
    for (int32_t i = 0; i < n; i++)
      if ((rc = add_op_point(ctx, a, d, &ops[i], labels[i], 0))) { free(filepts); plot_data_free(d); return rc; }
  }
  for (int i = 0; i < npos; i++) {
    rl_op op;
    char label[RL_PLOT_LABEL_MAX];
    double t = 0;
    if ((rc = parse_op_spec(ctx, pos[i], d->dtype0, &op, label, sizeof label, &t)) ||
        (rc = add_op_point(ctx, a, d, &op, label, t))) {
      free(filepts);
      plot_data_free(d);
      return rc;
    }
  }
  for (int32_t i = 0; i < nfile; i++) d->points[d->n_points++] = filepts[i];
  rl_free(filepts);
  /* title and subtitle */
  const char *hwname = d->hw0.name[0] ? d->hw0.name : d->hw0.id;
  if (a->title) snprintf(d->title, sizeof d->title, "%s", a->title);
  else if (d->n_hw > 1) snprintf(d->title, sizeof d->title, "Roofline: %s and %d more device%s", hwname, (int)d->n_hw - 1, d->n_hw > 2 ? "s" : "");
  else snprintf(d->title, sizeof d->title, "Roofline: %.100s", hwname);
  char srcs[256] = "";
  if (preset)
    snprintf(srcs, sizeof srcs, "one Transformer layer (%.0f x %.0f activation, T=%.0f)", a->sh.rows, a->sh.d, a->sh.seq);
  if (npos) snprintf(srcs + strlen(srcs), sizeof srcs - strlen(srcs), "%s%d op%s", *srcs ? ", " : "", npos, npos > 1 ? "s" : "");
  if (a->points_path) snprintf(srcs + strlen(srcs), sizeof srcs - strlen(srcs), "%s%.100s", *srcs ? ", " : "", a->points_path);
  snprintf(d->subtitle, sizeof d->subtitle, "%s peaks%s%s%s%.60s, %s",
           a->hwf.sparse ? "2:4 sparse tensor" : "dense tensor", *srcs ? "; points: " : "", srcs,
           *srcs ? " modelled on " : "", hwname, rl_dtype_name(d->dtype0));
  if (d->missing[0]) {
    size_t l = strlen(d->subtitle);
    snprintf(d->subtitle + l, sizeof d->subtitle - l, "; no peak for: %s", d->missing);
  }
  /* a measured point above its own roof contradicts the model: said on the
   * chart and on stderr, never drawn silently */
  int above = 0;
  for (int32_t i = 0; i < d->n_points; i++) {
    const rl_plot_point *p = &d->points[i];
    above += p->measured && p->roof_perf > 0 && p->perf > p->roof_perf * (1 + 1e-9);
  }
  if (above) {
    size_t l = strlen(d->subtitle);
    snprintf(d->subtitle + l, sizeof d->subtitle - l, "; %d point%s ABOVE the roof (wrong hardware, shapes or timer)",
             above, above > 1 ? "s" : "");
    fprintf(ctx->err, "roofline %s: warning: %d measured point%s faster than %s roof, which the model rules out: "
                      "the hardware, the shapes or the timer is wrong for %s\n",
            ctx->cmd, above, above > 1 ? "s" : "", above > 1 ? "their" : "its", above > 1 ? "them" : "it");
  }
  return CLI_OK;
}
