/*
 * test_plot.c -- the chart renderers (src/render): roofs from the
 * database, points files, SVG and terminal output, escaping, the
 * `roofline plot` command's errors, and the golden SVG of the default
 * chart (tests/golden/plot_layer.svg; regenerate with ROOFLINE_REGEN=1),
 * and the layout of every chart kind over a corpus: no two labels, a
 * label and a marker, or the legend and a marker overlap, and nothing
 * leaves its area.
 */
#include "harness.h"
#include "roofline.h"
#include "../../cli/cli.h"
#include "../../cli/charts.h"
#include "../../cli/plot_common.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Run the CLI in-process; returns the exit status, output in out and err. */
static int run_cli(int argc, char **argv, char **out, char **err) {
  size_t no = 0, ne = 0;
  FILE *fo = open_memstream(out, &no), *fe = open_memstream(err, &ne);
  int rc = cli_main(argc, argv, fo, fe);
  fclose(fo);
  fclose(fe);
  return rc;
}

static void test_roof(void) {
  rl_hw hw;
  rl_error e;
  CHECK(rl_hw_find("h100", NULL, 0, &hw, &e) == RL_OK);
  rl_plot_roof r;
  CHECK(rl_plot_roof_from_hw(&hw, RL_BF16, 0, &r, &e) == RL_OK);
  CHECK_NEAR(r.peak, 989.4e12, 1e-9);
  CHECK_NEAR(r.bandwidth, 3.35e12, 1e-9);
  CHECK(r.n_ceilings == 2);
  CHECK_NEAR(r.ceiling[0], 133.8e12, 1e-3);
  CHECK(strstr(r.label, "H100") != NULL && strstr(r.label, "bf16") != NULL);
  CHECK(rl_plot_roof_from_hw(&hw, RL_BF16, RL_ROOF_SPARSE, &r, &e) == RL_OK);
  CHECK_NEAR(r.peak, 2 * 989.4e12, 1e-3);
  CHECK(strstr(r.label, "sparse") != NULL);
  CHECK(rl_hw_find("a100-sxm4-80gb", NULL, 0, &hw, &e) == RL_OK);
  CHECK(rl_plot_roof_from_hw(&hw, RL_FP8, 0, &r, &e) == RL_EUNSUPPORTED);
}

static void test_points(void) {
  const char *txt =
      "[{\"op\":\"a\",\"flops\":100,\"bytes\":50,\"peak\":1e9,\"bandwidth\":1e7,\"time_s\":1,"
      "\"compute_time_s\":0.1},"
      " {\"op\":\"b\",\"flops\":100,\"bytes\":50,\"measured_s\":2},"
      " {\"op\":\"c\",\"n\":4,\"flops\":1e9,\"bytes\":1e6,\"intensity\":1000,\"achieved\":5e12,\"roof\":9e12},"
      " {\"name\":\"d\",\"count\":3,\"measured_s\":1e-3,\"time_s\":1e-4,\"flops\":1e9,\"bytes\":1e7}]";
  rl_plot_roof roof;
  memset(&roof, 0, sizeof roof);
  roof.peak = 1e15;
  roof.bandwidth = 1e12;
  rl_plot_point *pts = NULL;
  int32_t n = 0;
  rl_error e;
  CHECK(rl_plot_points_parse(txt, strlen(txt), &roof, 0, &pts, &n, &e) == RL_OK);
  CHECK(n == 4);
  if (n == 4) {
    CHECK(!pts[0].measured); /* an op record: time_s is the bound */
    CHECK_NEAR(pts[0].perf, 2e7, 1e-12); /* min(1e9, 1e7 x 2) from its own roof */
    CHECK(pts[1].measured);
    CHECK_NEAR(pts[1].perf, 50, 1e-12);
    CHECK_NEAR(pts[1].roof_perf, 2e12, 1e-12);
    CHECK(pts[2].measured);
    CHECK_NEAR(pts[2].perf, 5e12, 1e-12);
    CHECK_NEAR(pts[2].roof_perf, 9e12, 1e-12);
    CHECK(pts[3].measured); /* a trace row */
    CHECK_STR(pts[3].label, "d");
    CHECK_NEAR(pts[3].perf, 1e12, 1e-12);
  }
  rl_free(pts);
  const char *bad[] = {"[{\"op\":\"x\",\"flops\":1}]", "{\"a\":1}", "[1]", "[{\"op\":\"x\",\"flops\":\"1\",\"bytes\":1}]",
                       "[{\"op\":\"x\",\"flops\":1,", "[{\"op\":\"x\",\"flops\":1,\"bytes\":-4}]",
                       /* a record's own roof outside the plausible ranges (ranges.c) */
                       "[{\"op\":\"x\",\"flops\":1,\"bytes\":1,\"bandwidth\":1e-300}]",
                       "[{\"op\":\"x\",\"flops\":1,\"bytes\":1,\"peak\":1e300}]"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    pts = NULL;
    e.msg[0] = 0;
    rl_status st = rl_plot_points_parse(bad[i], strlen(bad[i]), &roof, 0, &pts, &n, &e);
    CHECK(st != RL_OK);
    CHECK(pts == NULL);
    CHECK(e.msg[0] != 0 && strchr(e.msg, '\n') == NULL);
  }
  /* more than the 100000-point cap: the count in the message is read
   * before the document is freed (a use after free under ASan before) */
  size_t cap = 2 * 100001 + 2;
  char *many = malloc(cap + 1);
  size_t k = 0;
  many[k++] = '[';
  for (int i = 0; i < 100001; i++) {
    many[k++] = '0';
    many[k++] = i < 100000 ? ',' : ']';
  }
  many[k] = 0;
  pts = NULL;
  CHECK(rl_plot_points_parse(many, k, &roof, 0, &pts, &n, &e) == RL_ERANGE);
  CHECK(pts == NULL && strstr(e.msg, "more than 100000 points") != NULL);
  free(many);
}

static rl_plot sample(rl_plot_roof *roof, rl_plot_point *pt) {
  rl_hw hw;
  rl_error e;
  rl_hw_find("h100", NULL, 0, &hw, &e);
  rl_plot_roof_from_hw(&hw, RL_BF16, 0, roof, &e);
  rl_roof rr = {roof->peak, roof->bandwidth, 0, RL_PEAK_BF16, 0, 1, 1, 0};
  rl_result r;
  rl_roofline(1e9, 1e7, &rr, 5e-5, &r, &e);
  *pt = rl_plot_point_from_result("<script>alert('x')</script> & \"q\"", &r, 0);
  rl_plot p = rl_plot_init();
  p.title = "Title <b>&amp;</b>";
  p.roofs = roof;
  p.n_roofs = 1;
  p.points = pt;
  p.n_points = 1;
  return p;
}

static void check_layout(const rl_plot *p, const char *what);

/* One kernel at three intensities (L1, L2, DRAM), joined, three shapes:
 * what a hierarchical (Nsight Compute) chart draws. */
static void test_groups(void) {
  const char *txt =
      "[{\"op\":\"gemm L1\",\"flops\":1e12,\"bytes\":1e10,\"measured_s\":0.01,\"group\":1,\"marker\":\"circle\"},"
      " {\"op\":\"gemm L2\",\"flops\":1e12,\"bytes\":4e9,\"measured_s\":0.01,\"group\":1,\"marker\":\"square\"},"
      " {\"op\":\"gemm DRAM\",\"flops\":1e12,\"bytes\":1e9,\"measured_s\":0.01,\"group\":1,\"marker\":\"triangle\"}]";
  rl_plot_roof roof;
  rl_hw hw;
  rl_error e;
  rl_hw_find("h100", NULL, 0, &hw, &e);
  CHECK(rl_plot_roof_from_hw(&hw, RL_BF16, 0, &roof, &e) == RL_OK);
  roof.n_levels = 1; /* an L2 roof, as a hierarchical chart has */
  roof.level_bw[0] = 10e12;
  snprintf(roof.level_name[0], sizeof roof.level_name[0], "L2");
  rl_plot_point *pts = NULL;
  int32_t n = 0;
  CHECK(rl_plot_points_parse(txt, strlen(txt), &roof, 0, &pts, &n, &e) == RL_OK);
  CHECK(n == 3 && pts[0].group == 1 && pts[1].marker == RL_MARK_SQUARE && pts[2].marker == RL_MARK_TRIANGLE);
  rl_plot p = rl_plot_init();
  p.roofs = &roof;
  p.n_roofs = 1;
  p.points = pts;
  p.n_points = n;
  size_t need = rl_plot_svg(&p, NULL, 0);
  char *s = malloc(need + 1);
  rl_plot_svg(&p, s, need + 1);
  size_t joins = 0;
  for (const char *q = s; (q = strstr(q, "class=\"group\"")) != NULL; q++) joins++;
  CHECK(joins == 2);                              /* L1-L2, L2-DRAM */
  CHECK(strstr(s, "gemm L1 (") != NULL);          /* the group's first point is labelled */
  CHECK(strstr(s, ">gemm L2 (") == NULL);         /* the others are not */
  CHECK(strstr(s, "<rect x=") != NULL && strstr(s, "<polygon") != NULL);
  check_layout(&p, "group of three");
  free(s);
  rl_free(pts);
  const char *bad = "[{\"op\":\"x\",\"flops\":1,\"bytes\":1,\"marker\":\"star\"}]";
  CHECK(rl_plot_points_parse(bad, strlen(bad), &roof, 0, &pts, &n, &e) == RL_EPARSE && strstr(e.msg, "marker"));
}

static void test_svg(void) {
  rl_plot_roof roof;
  rl_plot_point pt;
  rl_plot p = sample(&roof, &pt);
  size_t need = rl_plot_svg(&p, NULL, 0);
  CHECK(need > 1000);
  char *s = malloc(need + 1);
  CHECK(rl_plot_svg(&p, s, need + 1) == need);
  CHECK(strlen(s) == need);
  CHECK(strstr(s, "<script") == NULL);
  CHECK(strstr(s, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;") != NULL);
  CHECK(strstr(s, "Title &lt;b&gt;&amp;amp;&lt;/b&gt;") != NULL);
  CHECK(strstr(s, "989.4 TFLOP/s") != NULL);
  CHECK(strstr(s, "ridge 295.3 FLOP/B") != NULL);
  CHECK(strstr(s, "%)</text>") != NULL); /* a measured point: its fraction of roof */
  /* truncation keeps the snprintf contract */
  char small[100];
  CHECK(rl_plot_svg(&p, small, sizeof small) == need);
  CHECK(strlen(small) == sizeof small - 1);
  /* invalid UTF-8 and control characters never reach the document */
  strcpy(pt.label, "bad \xff\x01 byte");
  size_t n2 = rl_plot_svg(&p, NULL, 0);
  char *s2 = malloc(n2 + 1);
  rl_plot_svg(&p, s2, n2 + 1);
  CHECK(strstr(s2, "bad ? byte") != NULL);
  free(s2);
  free(s);
}

static void test_term(void) {
  rl_plot_roof roof;
  rl_plot_point pt;
  rl_plot p = sample(&roof, &pt);
  for (int ascii = 0; ascii < 2; ascii++) {
    p.flags = ascii ? RL_PLOT_ASCII : 0;
    size_t need = rl_plot_term(&p, NULL, 0);
    char *s = malloc(need + 1);
    rl_plot_term(&p, s, need + 1);
    int lines = 0, maxw = 0, w = 0, high = 0;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
      if (*c == '\n') { lines++; if (w > maxw) maxw = w; w = 0; continue; }
      if (*c >= 0x80) high = 1;
      if ((*c & 0xC0) != 0x80) w++;
      CHECK(*c >= 0x20 || *c == '\n');
    }
    CHECK(lines <= 30);
    CHECK(maxw <= 100);
    CHECK(ascii ? !high : high);
    CHECK(strstr(s, "FLOP/s") != NULL && strstr(s, "FLOP/B") != NULL);
    free(s);
  }
  /* a legend that does not fit: the library names the parameter in
   * backquotes, not as a front end's flag (the CLI spells it --height) */
  rl_plot_point pts[12];
  for (int i = 0; i < 12; i++) pts[i] = pt;
  p.points = pts;
  p.n_points = 12;
  p.width = 60;
  p.height = 14;
  p.flags = RL_PLOT_ASCII;
  size_t need = rl_plot_term(&p, NULL, 0);
  char *s = malloc(need + 1);
  rl_plot_term(&p, s, need + 1);
  CHECK(strstr(s, " more") != NULL);
  CHECK(strstr(s, "a taller chart (`height`) shows them") != NULL);
  CHECK(strstr(s, "--height") == NULL);
  free(s);
}

static void test_cli_errors(void) {
  struct { const char *args[6]; const char *want; } cases[] = {
      {{"roofline", "plot", "--hw", "nope-gpu", NULL}, "nope-gpu"},
      {{"roofline", "plot", "--dtype", "bf17", NULL}, "bf17"},
      {{"roofline", "plot", "-o", "/nonexistent-dir/x.svg", NULL}, "/nonexistent-dir/x.svg"},
      {{"roofline", "plot", "--points", "/nonexistent-file.json", NULL}, "/nonexistent-file.json"},
      {{"roofline", "plot", "matmul:m=4096,q=3", NULL}, "unknown key"},
      {{"roofline", "plot", "--term", "-o", "x.svg", NULL}, "not both"},
      /* an argument's newline is not echoed as a second line (bench/fuzz) */
      {{"roofline", "plot", "--term", "\x88\nmatmul:m=4,n", NULL}, "unknown op"},
      {{"roofline", "plot", "matmul:m=4,m=8", NULL}, "m given twice"},
      {{"roofline", "plot", "matmul:m=4,,n=8", NULL}, "empty item"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int argc = 0;
    while (cases[i].args[argc]) argc++;
    char *out = NULL, *err = NULL;
    int rc = run_cli(argc, (char **)(uintptr_t)cases[i].args, &out, &err);
    CHECK(rc == 2);
    CHECK(out && out[0] == 0);
    CHECK(err && strstr(err, cases[i].want) != NULL);
    CHECK(err && strchr(err, '\n') == err + strlen(err) - 1); /* one line */
    free(out);
    free(err);
  }
  /* an op spec's keys outlive the list they were split from (a use after
   * scope bench/fuzz found): the op is built from them */
  {
    const char *args[] = {"roofline", "plot", "--term", "--preset", "none", "matmul:m=4096,n=4096,k=4096,time=300us", NULL};
    char *out = NULL, *err = NULL;
    CHECK(run_cli(6, (char **)(uintptr_t)args, &out, &err) == 0);
    CHECK(out && strstr(out, "matmul") != NULL);
    free(out);
    free(err);
  }
  /* a malformed points file */
  char path[] = "/tmp/rl-test-points-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd >= 0) {
    CHECK(write(fd, "[{\"op\":\"x\",", 11) == 11);
    close(fd);
    const char *args[] = {"roofline", "plot", "--points", path, NULL};
    char *out = NULL, *err = NULL;
    CHECK(run_cli(4, (char **)(uintptr_t)args, &out, &err) == 2);
    CHECK(out && out[0] == 0);
    CHECK(err && strstr(err, path) != NULL && strstr(err, "byte") != NULL);
    free(out);
    free(err);
    unlink(path);
  }
}

static void test_golden(void) {
  const char *args[] = {"roofline", "plot", "--hw", "h100,a100-sxm4-80gb,h200", "--dtype", "bf16,fp8", NULL};
  char *out = NULL, *err = NULL;
  CHECK(run_cli(6, (char **)(uintptr_t)args, &out, &err) == 0);
  const char *path = "tests/golden/plot_layer.svg";
  if (getenv("ROOFLINE_REGEN")) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) { fputs(out, f); fclose(f); }
    printf("regenerated %s\n", path);
  }
  FILE *f = fopen(path, "rb");
  CHECK(f != NULL);
  if (f) {
    static char want[1 << 20];
    size_t n = fread(want, 1, sizeof want - 1, f);
    want[n] = 0;
    fclose(f);
    CHECK(strcmp(out, want) == 0);
    if (strcmp(out, want) != 0)
      fprintf(stderr, "golden SVG differs: ROOFLINE_REGEN=1 %s regenerates it\n", "build/tests/test_plot");
  }
  free(out);
  free(err);
}


/* ---- layout over a corpus ------------------------------------------------ */
static int layout_charts, layout_bad;

static const char *box_kind(int32_t k) {
  static const char *n[] = {"canvas", "plot", "title", "axis", "legend", "line label", "point label", "marker", "note"};
  return k >= 0 && k <= RL_BOX_NOTE ? n[k] : "?";
}

/* Check the boxes rl_plot_svg placed; print what is wrong. */
static void check_layout(const rl_plot *p, const char *what) {
  layout_charts++;
  size_t n = rl_plot_boxes(p, NULL, 0);
  CHECK(n >= 2);
  if (n < 2) return;
  rl_plot_box *b = malloc(n * sizeof *b);
  if (!b) return;
  CHECK(rl_plot_boxes(p, b, n) == n);
  CHECK(b[0].kind == RL_BOX_CANVAS && b[1].kind == RL_BOX_PLOT);
  const rl_plot_box cv = b[0], pa = b[1];
  int bad = 0;
  const double eps = 0.01;
  for (size_t i = 2; i < n; i++) {
    const rl_plot_box *q = &b[i];
    int in_canvas = q->x0 >= cv.x0 - eps && q->x1 <= cv.x1 + eps && q->y0 >= cv.y0 - eps && q->y1 <= cv.y1 + eps;
    int in_plot = q->x0 >= pa.x0 - eps && q->x1 <= pa.x1 + eps && q->y0 >= pa.y0 - eps && q->y1 <= pa.y1 + eps;
    int must_plot = q->kind == RL_BOX_LINE_LABEL || q->kind == RL_BOX_POINT_LABEL;
    if ((q->kind != RL_BOX_MARKER && !in_canvas) || (must_plot && !in_plot)) {
      if (bad++ < 3)
        fprintf(stderr, "%s: %s [%.1f %.1f %.1f %.1f] outside its area\n", what, box_kind(q->kind), q->x0, q->y0,
                q->x1, q->y1);
    }
    for (size_t j = i + 1; j < n; j++) {
      const rl_plot_box *r = &b[j];
      if (q->id == r->id) continue;
      if (q->kind == RL_BOX_MARKER && r->kind == RL_BOX_MARKER) continue; /* data may coincide */
      if (!(q->x0 < r->x1 && r->x0 < q->x1 && q->y0 < r->y1 && r->y0 < q->y1)) continue;
      if (bad++ < 3)
        fprintf(stderr, "%s: %s [%.1f %.1f %.1f %.1f] overlaps %s [%.1f %.1f %.1f %.1f]\n", what, box_kind(q->kind),
                q->x0, q->y0, q->x1, q->y1, box_kind(r->kind), r->x0, r->y0, r->x1, r->y1);
    }
  }
  layout_bad += bad > 0;
  CHECK(bad == 0);
  free(b);
}

/* `roofline plot --hw LIST --dtype LIST` with the layer preset, at a size. */
static void check_plot_chart(const char *hws, const char *dts, int w, int h) {
  cli_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  char *eb = NULL;
  size_t en = 0;
  ctx.out = stdout;
  ctx.err = open_memstream(&eb, &en);
  ctx.cmd = "plot";
  plot_args a;
  plot_args_init(&a);
  a.hwf.hw = hws;
  a.dtypes = dts;
  cli_opt none[] = {{NULL, 0, NULL, 0}};
  plot_data d;
  int rc = plot_build(&ctx, &a, none, NULL, 0, &d);
  if (rc) {
    /* the layer preset needs the first device's vector and tensor peaks
     * of the first format: without them, the roofs alone */
    a.preset = "none";
    rc = plot_build(&ctx, &a, none, NULL, 0, &d);
  }
  fclose(ctx.err);
  CHECK(rc == 0);
  if (rc) {
    fprintf(stderr, "%s / %s: %s", hws, dts, eb ? eb : "");
    free(eb);
    return;
  }
  free(eb);
  rl_plot p = plot_data_chart(&d, w, h);
  char what[512];
  snprintf(what, sizeof what, "plot --hw %.300s --dtype %.100s (%dx%d)", hws, dts, w, h);
  check_layout(&p, what);
  plot_data_free(&d);
}

/* Every built-in device alone with every format it has a peak for; then
 * 1 to 6 devices in windows over the database, bf16 and fp8. */
static void test_layout_plot(void) {
  int32_t nhw = rl_hw_count();
  static const int32_t dts[] = {RL_FP64, RL_FP32, RL_TF32, RL_BF16, RL_FP16, RL_FP8, RL_INT8, RL_FP4};
  char ids[64][RL_HW_ID_MAX];
  int nids = 0;
  for (int32_t i = 0; i < nhw; i++) {
    rl_hw hw;
    if (rl_hw_get(i, &hw)) continue;
    char list[128] = "";
    for (size_t k = 0; k < sizeof dts / sizeof dts[0]; k++)
      if (rl_hw_peak_for(&hw, dts[k], 1) >= 0)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", list[0] ? "," : "", rl_dtype_name(dts[k]));
    if (!list[0]) continue; /* a device without published peaks */
    if (nids < 64) snprintf(ids[nids++], sizeof ids[0], "%s", hw.id);
    check_plot_chart(hw.id, list, 0, 0);
  }
  static const int sizes[][2] = {{0, 0}, {640, 440}, {1600, 900}, {320, 300}};
  for (int ndev = 1; ndev <= 6; ndev++)
    for (int start = 0; start + ndev <= nids; start += ndev) {
      char list[512] = "";
      for (int k = 0; k < ndev; k++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%.60s", k ? "," : "", ids[start + k]);
      const int *sz = sizes[(size_t)(start + ndev) % 4];
      rl_hw first;
      rl_error e;
      int bf16 = rl_hw_find(ids[start], NULL, 0, &first, &e) == RL_OK && rl_hw_peak_for(&first, RL_BF16, 1) >= 0;
      int fp16 = rl_hw_peak_for(&first, RL_FP16, 1) >= 0;
      check_plot_chart(list, bf16 ? "bf16,fp8" : fp16 ? "fp16,fp8" : "fp32,bf16", sz[0], sz[1]);
    }
}

/* `roofline trace --plot` of every fixture that has kernels to place, on
 * its own device (or an A100 where the file names none). */
static void test_layout_trace(void) {
  static const char *files[] = {"tests/fixtures/traces/ncu_details_sm80_bert_flashattn.csv",
                                "tests/fixtures/traces/pytorch_kineto_2023_a100_ddp_input_dims.json.gz",
                                "tests/fixtures/traces/pytorch_kineto_2023_a100_cupti_flop_counters.json.gz",
                                "tests/fixtures/traces/pytorch_kineto_2024_a100_ddp_nccl.json.gz",
                                "tests/fixtures/traces/nsys_2025.1_h200_nvfuser_cross_entropy.sqlite"};
  int placed = 0;
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    rl_trace *t = rl_trace_new(-1);
    rl_error e;
    if (!t) continue;
    rl_status st = rl_trace_read_file(t, files[i], RL_TRACE_AUTO, &e);
    CHECK(st == RL_OK);
    rl_hw hw;
    if (st == RL_OK && rl_trace_hw(t, &hw, &e) != RL_OK) rl_hw_find("a100-sxm4-80gb", NULL, 0, &hw, &e);
    rl_trace_summary s;
    if (st == RL_OK && rl_trace_analyze(t, &hw, &s, &e) == RL_OK) {
      int32_t nk = 0;
      const rl_trace_row *rows = rl_trace_rows(t, RL_TRACE_BY_KERNEL, &nk);
      static const int tops[] = {5, 10, 20, 40};
      for (size_t k = 0; k < sizeof tops / sizeof tops[0]; k++) {
        chart_data *c = malloc(sizeof *c);
        int32_t nco = 0, skipped = 0;
        const rl_trace_coll *co = rl_trace_colls(t, &nco);
        int none = !c || chart_trace(&hw, rows, nk, tops[k], files[i], c) != 0;
        if (c && none) memset(c, 0, sizeof *c);
        /* as `trace --plot` does: the reducing collectives on the link's roof */
        if (c && co && chart_trace_colls(&hw, co, nco, tops[k] < 4 ? tops[k] : 4, files[i], c, &skipped) == 0)
          none = 0;
        if (c && !none) {
          rl_plot p = chart_plot(c);
          char what[300];
          snprintf(what, sizeof what, "trace --plot %s --top %d", files[i], tops[k]);
          check_layout(&p, what);
          placed++;
        }
        free(c);
      }
    }
    rl_trace_free(t);
  }
  CHECK(placed >= 12); /* three fixtures have kernels with F, Q and a time, or collectives */
}

/* The trace chart draws a kernel above its roof exactly when the table and
 * the JSON (above_roof: roof_fraction > 1) say it is above: the roof drawn
 * is F over the bound time, not over the floor-raised at_roof_s, so an
 * overhead-bound kernel faster than the launch overhead but slower than its
 * bound sits below its roof (25 such kernels in the fixtures were drawn
 * at over 100% before). */
static void test_trace_above_roof(void) {
  static const char *files[] = {"tests/fixtures/traces/pytorch_kineto_2023_a100_ddp_input_dims.json.gz",
                                "tests/fixtures/traces/pytorch_kineto_2024_a100_ddp_nccl.json.gz",
                                "tests/fixtures/traces/nsys_2025.1_h200_nvfuser_cross_entropy.sqlite",
                                "tests/fixtures/hostile/above_roof.json"};
  int overhead_below = 0, above = 0, drawn = 0;
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    rl_trace *t = rl_trace_new(-1);
    rl_error e;
    rl_hw hw;
    rl_trace_summary s;
    if (!t) continue;
    CHECK(rl_trace_read_file(t, files[i], RL_TRACE_AUTO, &e) == RL_OK);
    if (rl_trace_hw(t, &hw, &e) != RL_OK) rl_hw_find("a100-sxm4-80gb", NULL, 0, &hw, &e);
    chart_data *c = calloc(1, sizeof *c);
    int32_t nk = 0;
    const rl_trace_row *rows = NULL;
    if (c && rl_trace_analyze(t, &hw, &s, &e) == RL_OK) rows = rl_trace_rows(t, RL_TRACE_BY_KERNEL, &nk);
    if (rows && chart_trace(&hw, rows, nk, CHART_POINTS, files[i], c) == 0) {
      int32_t j = 0;
      for (int32_t k = 0; k < nk && j < c->n_points; k++) {
        const rl_trace_row *r = &rows[k];
        if (!r->has_cost || !r->has_time || !(r->flops > 0) || !(r->bytes > 0) || !(r->time_s > 0) ||
            !(r->bound_time_s > 0) || r->roof != RL_TRACE_ROOF_CHIP)
          continue;
        const rl_plot_point *p = &c->points[j++];
        int over = p->perf > p->roof_perf * (1 + 1e-9);
        drawn++;
        above += over;
        if (over) CHECK(r->roof_fraction > 1);
        /* an overhead-bound kernel is drawn at or below its roof, and no
         * row's time at its roof (the floor included) is above its measured
         * time unless it is above its roof: the floor is never above the
         * shortest kernel of the trace (issue 24) */
        if (r->roof_fraction < 1 && r->bound == RL_BOUND_OVERHEAD) {
          overhead_below++;
          CHECK(!over);
        }
        CHECK(r->roof_fraction > 1 || r->at_roof_s <= r->time_s * (1 + 1e-9));
        CHECK_NEAR(p->roof_perf, r->flops / r->bound_time_s, 1e-12);
      }
    }
    free(c);
    rl_trace_free(t);
  }
  /* none of these kernels is above its roof (the hostile one has no FLOPs,
   * so no point); overhead-bound ones were drawn above theirs before */
  CHECK(drawn > 20 && above == 0);
  CHECK(overhead_below >= 20);
}

/* The reducing collectives on the link's roof: F = the reduction's adds on
 * one rank, Q = nccl-tests' bus bytes, so the point's fraction of its roof
 * is busbw / link, as the collectives table says; all-to-alls and
 * all-gathers (no arithmetic) are left out and counted. */
static void test_trace_colls(void) {
  rl_trace *t = rl_trace_new(-1);
  rl_error e;
  rl_hw hw;
  rl_trace_summary s;
  if (!t) return;
  CHECK(rl_trace_read_file(t, "tests/fixtures/traces/pytorch_kineto_2023_a100_ddp_input_dims.json.gz",
                           RL_TRACE_AUTO, &e) == RL_OK);
  CHECK(rl_trace_hw(t, &hw, &e) == RL_OK && rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  int32_t nco = 0, skipped = 0, red = 0;
  const rl_trace_coll *co = rl_trace_colls(t, &nco);
  CHECK(co && nco == 20); /* 19 in the window, 1 before it sized by its signature */
  for (int32_t i = 0; i < nco; i++)
    if (!strcmp(co[i].name, "allreduce") || !strcmp(co[i].name, "reducescatter")) red++;
  chart_data *c = calloc(1, sizeof *c);
  if (!c || !co) { free(c); rl_trace_free(t); return; }
  CHECK(chart_trace_colls(&hw, co, nco, 64, "x/t.json", c, &skipped) == 0);
  CHECK(c->n_points == red && skipped == nco - red && c->n_roofs == 1);
  CHECK(c->roofs[0].bandwidth == hw.interconnect_bw / 2 && strstr(c->title, "link roofline"));
  int32_t j = 0;
  for (int32_t i = 0; i < nco && j < c->n_points; i++) {
    int ar = !strcmp(co[i].name, "allreduce");
    if (!ar && strcmp(co[i].name, "reducescatter")) continue;
    const rl_plot_point *p = &c->points[j++];
    double n = co[i].ranks;
    /* fp32: (n-1)/n adds per element over 2(n-1)/n (all-reduce) or (n-1)/n bus bytes x 4 B */
    CHECK_NEAR(p->intensity, ar ? 1.0 / 8 : 1.0 / 4, 1e-12);
    CHECK_NEAR(p->flops, (double)co[i].count * (n - 1) / n * co[i].msg_bytes / 4, 1e-12);
    CHECK_NEAR(p->perf / p->roof_perf, co[i].roof_fraction, 1e-9);
    CHECK(p->bound == RL_BOUND_NETWORK && p->marker == RL_MARK_DIAMOND && p->roof == 0);
  }
  /* after a kernel chart: a roof of its own, the subtitle says what the diamonds are */
  int32_t nk = 0;
  const rl_trace_row *rows = rl_trace_rows(t, RL_TRACE_BY_KERNEL, &nk);
  memset(c, 0, sizeof *c);
  CHECK(chart_trace(&hw, rows, nk, 10, "x/t.json", c) == 0);
  int32_t kr = c->n_roofs, kp = c->n_points;
  CHECK(chart_trace_colls(&hw, co, nco, 4, "x/t.json", c, &skipped) == 0);
  CHECK(c->n_roofs == kr + 1 && c->n_points == kp + 4 && c->points[kp].roof == kr);
  CHECK(strstr(c->subtitle, "diamonds") != NULL && strstr(c->title, "kernels") != NULL);
  free(c);
  rl_trace_free(t);
}


/* `roofline measure --plot`: a measurement as this machine's README run
 * reports it (peaks, four levels, gemm and add points with fractions on
 * both sides of 100%), at three sizes. */
static void test_layout_measure(void) {
  rl_measurement *m = calloc(1, sizeof *m);
  if (!m) return;
  snprintf(m->cpu.model, sizeof m->cpu.model, "AMD EPYC 7B13");
  snprintf(m->cpu.uarch, sizeof m->cpu.uarch, "Zen 3");
  m->threads = 2;
  m->peak.flops[RL_PK_FP64_FMA] = 5.9e10;
  m->peak.flops[RL_PK_FP32_FMA] = 1.18e11;
  m->peak.flops[RL_PK_FP64_FMA_ADD] = 6.4e10;
  m->peak.flops[RL_PK_FP32_FMA_ADD] = 1.27e11;
  for (int k = 0; k < 3; k++) m->sweep[0][k].kernel = k;
  const double bw[4] = {6.1e11, 2.3e11, 1.1e11, 2.4e10};
  for (int l = 0; l < 4; l++) m->sweep[0][0].levels.bw[l] = bw[l];
  int np = 0;
  static const double ns[] = {64, 128, 256, 512, 1024, 2048};
  for (int d = 0; d < 2; d++)
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
      rl_measure_point *q = &m->points[np++];
      double n = ns[i], s = d ? 8 : 4;
      snprintf(q->op, sizeof q->op, d ? "dgemm" : "sgemm");
      q->dtype = d ? RL_FP64 : RL_FP32;
      q->n = n;
      q->flops = 2 * n * n * n;
      q->bytes = 3 * s * n * n;
      q->intensity = q->flops / q->bytes;
      q->level = q->bytes < 64e3 ? 0 : q->bytes < 1e6 ? 1 : q->bytes < 32e6 ? 2 : 3;
      q->peak = m->peak.flops[d ? RL_PK_FP64_FMA : RL_PK_FP32_FMA];
      q->roof = fmin(q->peak, bw[q->level] * q->intensity);
      q->achieved = q->roof * (0.35 + 0.1 * (double)i);
      q->t.min = q->flops / q->achieved;
    }
  static const double adds[] = {1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
  for (size_t i = 0; i < sizeof adds / sizeof adds[0]; i++) {
    rl_measure_point *q = &m->points[np++];
    snprintf(q->op, sizeof q->op, "add");
    q->dtype = RL_FP32;
    q->n = adds[i];
    q->flops = adds[i];
    q->bytes = 12 * adds[i];
    q->intensity = 1.0 / 12;
    q->level = q->bytes < 64e3 ? 0 : q->bytes < 1e6 ? 1 : q->bytes < 32e6 ? 2 : 3;
    q->roof = bw[q->level] * q->intensity;
    q->achieved = q->roof * (i == 2 ? 1.12 : 0.8);
    q->t.min = q->flops / q->achieved;
  }
  m->n_points = np;
  chart_data *c = malloc(sizeof *c);
  CHECK(c && chart_measure(m, c) == 0);
  if (c) {
    CHECK(c->n_roofs == 1 && c->roofs[0].n_levels == 3 && c->roofs[0].n_ceilings == 3);
    static const int sizes[][2] = {{0, 0}, {640, 440}, {1600, 900}, {320, 300}};
    for (int k = 0; k < 4; k++) {
      rl_plot p = chart_plot(c);
      p.width = sizes[k][0];
      p.height = sizes[k][1];
      char what[64];
      snprintf(what, sizeof what, "measure --plot (%dx%d)", sizes[k][0], sizes[k][1]);
      check_layout(&p, what);
    }
  }
  free(c);
  free(m);
}

/* `trace --plot` on an Nsight Compute export: the hierarchical chart.
 * Each launch three times (L1, L2, HBM intensities: F over that level's
 * bytes) at its achieved F / time, joined as one group with the binding
 * level first (labelled, its gap to its own roof); one roof per level, at
 * the median launch's bandwidth; from an export with peak-sustained
 * rates, the export's roofs. An export without the level counters keeps
 * the one-point chart. */
static void test_trace_hier(void) {
  rl_trace *t = rl_trace_new(-1);
  rl_error e;
  CHECK(rl_trace_read_file(t, "tests/fixtures/traces/ncu_details_sm80_bert_flashattn.csv", RL_TRACE_AUTO, &e) ==
        RL_OK);
  rl_hw hw;
  rl_hw_find("a100-sxm4-80gb", NULL, 0, &hw, &e);
  rl_trace_summary s;
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  int32_t nk = 0;
  const rl_trace_row *rows = rl_trace_rows(t, RL_TRACE_BY_KERNEL, &nk);
  chart_data *c = malloc(sizeof *c);
  CHECK(c && chart_trace(&hw, rows, nk, 10, "x/ncu.csv", c) == 0);
  if (!c) return;
  CHECK(c->n_roofs == 3 && !strcmp(c->roofs[0].bw_name, "L1") && !strcmp(c->roofs[1].bw_name, "L2") &&
        !strcmp(c->roofs[2].bw_name, "HBM"));
  CHECK(strstr(c->title, "Hierarchical") && strstr(c->subtitle, "of the database at the profiled clock") &&
        strstr(c->subtitle, "median launch"));
  CHECK(c->roofs[2].bandwidth == hw.mem_bw);
  /* the median launch's L1 and L2 bandwidth: as many launches above as below */
  for (int k = 0; k < 2; k++) {
    int above = 0, below = 0;
    for (int32_t i = 0; i < nk; i++) {
      double b = k ? rows[i].l2_bw : rows[i].l1_bw;
      above += b > c->roofs[k].bandwidth, below += b < c->roofs[k].bandwidth;
    }
    CHECK(nk == 10 && above == below && above == 5);
  }
  /* fp16 (tensor) peak flat, fp32 as the ceiling, on each level's roof */
  CHECK(c->roofs[0].peak > 10 * c->roofs[0].ceiling[0] && c->roofs[1].n_ceilings == 1 &&
        c->roofs[0].peak == c->roofs[2].peak && !strcmp(c->roofs[0].ceiling_label[0], "fp32 peak"));
  int launches = 0, points = 0;
  for (int32_t i = 0; i < nk; i++) {
    const rl_trace_row *r = &rows[i];
    int32_t first = -1, in = 0;
    for (int32_t j = 0; j < c->n_points; j++) {
      const rl_plot_point *p = &c->points[j];
      char id[24];
      snprintf(id, sizeof id, "#%lld ", (long long)r->launch_id);
      if (strncmp(p->label, id, strlen(id)) != 0) continue;
      if (first < 0) first = j;
      in++;
      CHECK(p->group == c->points[first].group && p->group > 0);
      CHECK_NEAR(p->perf, r->flops / r->time_s, 1e-12);
      double by = p->marker == RL_MARK_TRIANGLE ? r->l1_bytes : p->marker == RL_MARK_SQUARE ? r->l2_bytes : r->dram_bytes;
      int32_t lvl = p->marker == RL_MARK_TRIANGLE ? RL_LEVEL_L1 : p->marker == RL_MARK_SQUARE ? RL_LEVEL_L2 : RL_LEVEL_DRAM;
      CHECK(p->roof == (lvl == RL_LEVEL_L1 ? 0 : lvl == RL_LEVEL_L2 ? 1 : 2));
      CHECK_NEAR(p->intensity, r->flops / by, 1e-12);
      if (j == first) {
        /* the binding level, with the launch's own fraction of its roof */
        CHECK(lvl == r->binding_level);
        CHECK_NEAR(p->perf / p->roof_perf, r->binding_fraction, 1e-9);
      } else {
        CHECK(p->roof_perf == 0);
      }
    }
    CHECK(in == (r->l1_bytes > 0) + (r->l2_bytes > 0) + (r->dram_bytes > 0));
    launches += in > 0;
    points += in;
  }
  CHECK(launches == 10 && points == 28 && c->n_points == 28); /* two launches moved no DRAM bytes */
  rl_plot p = chart_plot(c);
  size_t need = rl_plot_svg(&p, NULL, 0);
  char *svg = malloc(need + 1);
  if (svg) {
    rl_plot_svg(&p, svg, need + 1);
    size_t joins = 0;
    for (const char *q = svg; (q = strstr(q, "class=\"group\"")) != NULL; q++) joins++;
    CHECK(joins == 18); /* two per launch, one for the two without DRAM bytes */
    CHECK(strstr(svg, "L1 roof (triangles)") && strstr(svg, "L2 roof (squares)") && strstr(svg, "HBM roof (circles)"));
    CHECK(strstr(svg, "fp32 peak") && !strstr(svg, "vector ceilings: shown for at most"));
    free(svg);
  }
  check_layout(&p, "trace --plot, hierarchical (ncu fixture)");
  rl_trace_free(t);
  /* the export's own roofs (peak-sustained rates); a launch without the L1
   * and L2 counters is left out of this chart */
  static const char raw[] =
      "\"ID\",\"Kernel Name\",\"CC\",\"gpu__time_duration.sum\",\"dram__bytes.sum\",\"lts__t_bytes.sum\",\"l1tex__t_bytes.sum\","
      "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"sm__cycles_elapsed.avg.per_second\","
      "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained\",\"dram__bytes.sum.peak_sustained\","
      "\"dram__cycles_elapsed.avg.per_second\",\"lts__t_bytes.sum.peak_sustained\",\"lts__cycles_elapsed.avg.per_second\","
      "\"l1tex__t_bytes.sum.peak_sustained\",\"l1tex__cycles_elapsed.avg.per_second\"\n"
      "\"\",\"\",\"\",\"usecond\",\"byte\",\"byte\",\"byte\",\"inst\",\"cycle/second\",\"inst/cycle\",\"byte/cycle\",\"cycle/second\","
      "\"byte/cycle\",\"cycle/second\",\"byte/cycle\",\"cycle/second\"\n"
      "\"0\",\"k\",\"9.0\",\"100\",\"100,000,000\",\"400,000,000\",\"1,000,000,000\",\"500,000,000\",\"1,500,000,000\","
      "\"16,896\",\"1,000\",\"2,000,000,000\",\"5,000\",\"1,500,000,000\",\"20,000\",\"1,500,000,000\"\n"
      "\"1\",\"m\",\"9.0\",\"10\",\"1,000,000\",\"n/a\",\"n/a\",\"1,000\",\"1,500,000,000\","
      "\"16,896\",\"1,000\",\"2,000,000,000\",\"5,000\",\"1,500,000,000\",\"20,000\",\"1,500,000,000\"\n";
  t = rl_trace_new(-1);
  rl_hw_find("h100", NULL, 0, &hw, &e);
  CHECK(rl_trace_read_buffer(t, raw, strlen(raw), RL_TRACE_AUTO, "hier.csv", &e) == RL_OK);
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  rows = rl_trace_rows(t, RL_TRACE_BY_KERNEL, &nk);
  CHECK(chart_trace(&hw, rows, nk, 10, "hier.csv", c) == 0);
  CHECK(c->n_roofs == 3 && c->n_points == 3 && strstr(c->subtitle, "export's peak-sustained") &&
        !strstr(c->subtitle, "median"));
  CHECK_NEAR(c->roofs[0].bandwidth, 20000 * 1.5e9, 1e-12);
  CHECK_NEAR(c->roofs[1].bandwidth, 5000 * 1.5e9, 1e-12);
  CHECK_NEAR(c->roofs[2].bandwidth, 1000 * 2e9, 1e-12);
  CHECK_NEAR(c->roofs[0].peak, 2 * 16896 * 1.5e9, 1e-12);
  CHECK(c->points[0].marker == RL_MARK_SQUARE && c->points[0].roof_perf > 0); /* binds at L2 */
  rl_trace_free(t);
  /* no level counters at all: the one-point chart (DRAM intensity) */
  static const char dram_only[] =
      "\"ID\",\"Kernel Name\",\"CC\",\"gpu__time_duration.sum\",\"dram__bytes.sum\","
      "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
      "\"\",\"\",\"\",\"usecond\",\"byte\",\"inst\"\n"
      "\"0\",\"k\",\"9.0\",\"100\",\"100,000,000\",\"500,000,000\"\n";
  t = rl_trace_new(-1);
  CHECK(rl_trace_read_buffer(t, dram_only, strlen(dram_only), RL_TRACE_AUTO, "dram.csv", &e) == RL_OK);
  CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
  rows = rl_trace_rows(t, RL_TRACE_BY_KERNEL, &nk);
  CHECK(chart_trace(&hw, rows, nk, 10, "dram.csv", c) == 0);
  CHECK(c->n_points == 1 && c->points[0].group == 0 && !strstr(c->title, "Hierarchical"));
  CHECK_NEAR(c->points[0].intensity, 1e9 / 1e8, 1e-12);
  rl_trace_free(t);
  free(c);
}

/* A CPU trace's chart (issue 26's traces under tests/data/hw_cpu.csv's
 * measured rows): one roof per measured level, L1, L2, L3 and DRAM, each
 * with the row's bandwidth; every op on the roof, in the marker, of the
 * level its working set fits in (rl_trace_row.level), at its F/Q and
 * achieved FLOP/s, with its own bound as its roof; the legend names each
 * level's marker; no overlap at four point counts. */
static void test_trace_cpu(void) {
  static const char *files[] = {"tests/fixtures/traces/pytorch_cpu_cnn.json.gz",
                                "tests/fixtures/traces/pytorch_cpu_cnn_2threads.json.gz",
                                "tests/fixtures/traces/pytorch_cpu_matmul.json.gz",
                                "tests/fixtures/traces/pytorch_cpu_mlp.json.gz",
                                "tests/fixtures/traces/pytorch_cpu_transformer.json.gz"};
  static const char *const lvn[] = {"L1", "L2", "L3", "DRAM"};
  static const int32_t mark[] = {RL_MARK_TRIANGLE, RL_MARK_SQUARE, RL_MARK_DIAMOND, RL_MARK_CIRCLE};
  FILE *f = fopen("tests/data/hw_cpu.csv", "rb");
  CHECK(f != NULL);
  if (!f) return;
  static char csv[16384];
  size_t len = fread(csv, 1, sizeof csv - 1, f);
  fclose(f);
  csv[len] = 0;
  rl_hw rows_hw[4];
  int32_t nhw = 0;
  rl_error e;
  CHECK(rl_hw_parse_csv(csv, len, rows_hw, 4, &nhw, &e) == RL_OK && nhw == 2);
  int levels_seen[4] = {0}, charts = 0, mem_one = 0;
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    rl_trace *t = rl_trace_new(-1);
    rl_hw hw;
    rl_trace_summary s;
    CHECK(t && rl_trace_read_file(t, files[i], RL_TRACE_AUTO, &e) == RL_OK);
    CHECK(rl_trace_measured_hw(t, rows_hw, nhw, &hw, &e) == RL_OK);
    CHECK(rl_trace_analyze(t, &hw, &s, &e) == RL_OK);
    int32_t nk = 0;
    const rl_trace_row *rows = rl_trace_rows(t, RL_TRACE_BY_KERNEL, &nk);
    static const int tops[] = {5, 10, 20, 40};
    for (size_t k = 0; k < sizeof tops / sizeof tops[0]; k++) {
      chart_data *c = malloc(sizeof *c);
      if (!c) break;
      CHECK(chart_trace(&hw, rows, nk, tops[k], files[i], c) == 0);
      const double bw[4] = {hw.l1_bw, hw.l2_bw, hw.l3_bw, hw.mem_bw};
      CHECK(c->n_roofs == 4);
      for (int32_t r = 0; r < c->n_roofs && r < 4; r++) {
        CHECK(!strcmp(c->roofs[r].bw_name, lvn[r]));
        CHECK(c->roofs[r].bandwidth == bw[r] && bw[r] > 0);
        CHECK(c->roofs[r].peak == c->roofs[0].peak);
      }
      CHECK(strstr(c->title, "cache-aware roofline") != NULL);
      for (int32_t j = 0; j < c->n_points; j++) {
        const rl_plot_point *p = &c->points[j];
        const rl_trace_row *r = &rows[c->from[j]];
        CHECK(r->level >= 0 && r->level < 4);
        if (r->level < 0 || r->level > 3) continue;
        levels_seen[r->level]++;
        CHECK(p->roof == r->level && p->marker == mark[r->level]);
        char suffix[16];
        snprintf(suffix, sizeof suffix, ", %s", lvn[r->level]);
        CHECK(strlen(p->label) > strlen(suffix) && !strcmp(p->label + strlen(p->label) - strlen(suffix), suffix));
        CHECK_NEAR(p->intensity, r->flops / r->bytes, 1e-12);
        CHECK_NEAR(p->perf, r->flops / r->time_s, 1e-12);
        CHECK_NEAR(p->roof_perf, r->flops / r->bound_time_s, 1e-12);
        /* its own bound under the peak; one memory-bound call's at or
         * above its level's line (the faster caches hold part of its
         * working set); a row of several calls sums calls of other
         * levels and formats */
        if (r->count == 1 && r->bound == RL_BOUND_MEMORY) {
          CHECK(p->roof_perf >= bw[r->level] * p->intensity * (1 - 1e-9));
          mem_one++;
        }
        CHECK(p->roof_perf <= c->roofs[0].peak * (1 + 1e-9));
      }
      rl_plot p = chart_plot(c);
      size_t need = rl_plot_svg(&p, NULL, 0);
      char *svg = malloc(need + 1);
      if (svg) {
        rl_plot_svg(&p, svg, need + 1);
        /* the legend: each level's roof, its marker and its measured figure */
        for (int r = 0; r < 4; r++) {
          char want[96], q[32];
          static const char *const shape[] = {"triangles", "squares", "diamonds", "circles"};
          rl_format_quantity(bw[r], RL_UNIT_BYTES_S, q, sizeof q);
          snprintf(want, sizeof want, "%s roof (%s)", lvn[r], shape[r]);
          CHECK(strstr(svg, want) != NULL);
          snprintf(want, sizeof want, "%s %s", lvn[r], q);
          CHECK(strstr(svg, want) != NULL);
        }
        free(svg);
      }
      char what[300];
      snprintf(what, sizeof what, "trace --plot %s --hw-file tests/data/hw_cpu.csv --top %d", files[i], tops[k]);
      check_layout(&p, what);
      charts++;
      free(c);
    }
    rl_trace_free(t);
  }
  CHECK(charts == 20 && mem_one > 0);
  /* the fixtures' top ops sit in the L1, L2 and L3 */
  CHECK(levels_seen[0] > 0 && levels_seen[1] > 0 && levels_seen[2] > 0);
}

int main(void) {
  RUN(test_roof);
  RUN(test_points);
  RUN(test_svg);
  RUN(test_term);
  RUN(test_cli_errors);
  RUN(test_golden);
  RUN(test_layout_plot);
  RUN(test_layout_trace);
  RUN(test_trace_colls);
  RUN(test_trace_above_roof);
  RUN(test_layout_measure);
  RUN(test_groups);
  RUN(test_trace_hier);
  RUN(test_trace_cpu);
  printf("layout: %d charts checked, %d with an overlap or an element outside its area\n", layout_charts,
         layout_bad);
  return harness_report("plot");
}
