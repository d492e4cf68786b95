/*
 * test_plot.c -- the chart renderers (src/render): roofs from the
 * database, points files, SVG and terminal output, escaping, the
 * `roofline plot` command's errors, and the golden SVG of the default
 * chart (tests/golden/plot_layer.svg; regenerate with ROOFLINE_REGEN=1).
 */
#include "harness.h"
#include "roofline.h"
#include "../../cli/cli.h"

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
      "[{\"op\":\"a\",\"flops\":100,\"bytes\":50,\"peak\":1000,\"bandwidth\":10,\"time_s\":1,"
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
    CHECK_NEAR(pts[0].perf, 20, 1e-12); /* min(1000, 10 x 2) from its own roof */
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
                       "[{\"op\":\"x\",\"flops\":1,", "[{\"op\":\"x\",\"flops\":1,\"bytes\":-4}]"};
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
  CHECK(pts == NULL && strstr(e.msg, "100001 points is too many") != NULL);
  free(many);
}

static rl_plot sample(rl_plot_roof *roof, rl_plot_point *pt) {
  rl_hw hw;
  rl_error e;
  rl_hw_find("h100", NULL, 0, &hw, &e);
  rl_plot_roof_from_hw(&hw, RL_BF16, 0, roof, &e);
  rl_roof rr = {roof->peak, roof->bandwidth, 0, RL_PEAK_BF16, 0};
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
  CHECK(strstr(s, "of roof)") != NULL);
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
}

static void test_cli_errors(void) {
  struct { const char *args[6]; const char *want; } cases[] = {
      {{"roofline", "plot", "--hw", "nope-gpu", NULL}, "nope-gpu"},
      {{"roofline", "plot", "--dtype", "bf17", NULL}, "bf17"},
      {{"roofline", "plot", "-o", "/nonexistent-dir/x.svg", NULL}, "/nonexistent-dir/x.svg"},
      {{"roofline", "plot", "--points", "/nonexistent-file.json", NULL}, "/nonexistent-file.json"},
      {{"roofline", "plot", "matmul:m=4096,q=3", NULL}, "unknown key"},
      {{"roofline", "plot", "--term", "-o", "x.svg", NULL}, "not both"},
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

int main(void) {
  RUN(test_roof);
  RUN(test_points);
  RUN(test_svg);
  RUN(test_term);
  RUN(test_cli_errors);
  RUN(test_golden);
  return harness_report("plot");
}
