/*
 * test_core.c -- unit tests of the pure core through the public header:
 * the units parser and printer, dtypes, the hardware table against its data
 * file, the op cost formulas, the bound and its edge cases, JSON escaping.
 */
#include "roofline.h"
#include "core/json.h"
#include "harness.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double q(const char *s, rl_unit u) {
  double v = -1;
  rl_error e;
  if (rl_parse_quantity(s, u, &v, &e) != RL_OK) return -12345;
  return v;
}

static int qfails(const char *s, rl_unit u, const char *needle) {
  double v;
  rl_error e;
  e.msg[0] = 0;
  return rl_parse_quantity(s, u, &v, &e) != RL_OK && strstr(e.msg, needle) != NULL;
}

static void test_units(void) {
  CHECK_NEAR(q("3.35TB/s", RL_UNIT_BYTES_S), 3.35e12, 1e-12);
  CHECK_NEAR(q("3.35 TB/s", RL_UNIT_BYTES_S), 3.35e12, 1e-12);
  CHECK_NEAR(q("989.4T", RL_UNIT_FLOP_S), 989.4e12, 1e-12);
  CHECK_NEAR(q("989.4TFLOP/s", RL_UNIT_FLOP_S), 989.4e12, 1e-12);
  CHECK_NEAR(q("989.4TFLOPS", RL_UNIT_FLOP_S), 989.4e12, 1e-12);
  CHECK_NEAR(q("16GB", RL_UNIT_BYTES), 16e9, 1e-12);
  CHECK_NEAR(q("128KiB", RL_UNIT_BYTES), 131072, 0);
  CHECK_NEAR(q("80GiB", RL_UNIT_BYTES), 80.0 * 1073741824.0, 0);
  CHECK_NEAR(q("25us", RL_UNIT_SECONDS), 25e-6, 1e-12);
  CHECK_NEAR(q("25µs", RL_UNIT_SECONDS), 25e-6, 1e-12);
  CHECK_NEAR(q("1.5ms", RL_UNIT_SECONDS), 1.5e-3, 1e-12);
  CHECK_NEAR(q("3ns", RL_UNIT_SECONDS), 3e-9, 1e-12);
  CHECK_NEAR(q("2s", RL_UNIT_SECONDS), 2, 0);
  CHECK_NEAR(q("1e9", RL_UNIT_COUNT), 1e9, 0);
  CHECK_NEAR(q("4Ki", RL_UNIT_COUNT), 4096, 0);
  CHECK_NEAR(q("2k", RL_UNIT_COUNT), 2000, 0);
  CHECK_NEAR(q("17.2GFLOP", RL_UNIT_FLOP), 17.2e9, 1e-12);
  CHECK_NEAR(q("-3", RL_UNIT_COUNT), -3, 0);
  CHECK(qfails("", RL_UNIT_COUNT, "empty"));
  CHECK(qfails("abc", RL_UNIT_COUNT, "not a number"));
  /* below the smallest normal double: out of range, never 0 or a subnormal
   * (strtod's underflow; a prefix's too); zero written any way is 0 */
  CHECK(qfails("1e-400", RL_UNIT_SECONDS, "'1e-400' is out of range"));
  CHECK(qfails("-1e-400", RL_UNIT_SECONDS, "out of range"));
  CHECK(qfails("2.2e-308", RL_UNIT_BYTES, "out of range"));
  CHECK(qfails("1e-300ns", RL_UNIT_SECONDS, "out of range"));
  CHECK(qfails("1e-310 kB", RL_UNIT_BYTES, "out of range"));
  CHECK(q("0e-400", RL_UNIT_SECONDS) == 0);
  CHECK(q("0.000", RL_UNIT_SECONDS) == 0);
  CHECK(q("2.2250738585072014e-308", RL_UNIT_COUNT) == 2.2250738585072014e-308);
  CHECK(qfails("nan", RL_UNIT_COUNT, "not a number"));
  CHECK(qfails("inf", RL_UNIT_COUNT, "not a number"));
  CHECK(qfails("0x10", RL_UNIT_COUNT, "hexadecimal"));
  CHECK(qfails("1e999", RL_UNIT_COUNT, "out of range"));
  CHECK(qfails("3.35TB/s", RL_UNIT_BYTES, "B/s where B"));
  CHECK(qfails("16GB", RL_UNIT_BYTES_S, "B where B/s"));
  CHECK(qfails("16GB", RL_UNIT_COUNT, "a plain number"));
  CHECK(qfails("12XB", RL_UNIT_BYTES, "unknown unit"));
  CHECK(qfails("5 apples", RL_UNIT_COUNT, "unknown unit"));
  CHECK(qfails("25m", RL_UNIT_SECONDS, "needs a unit"));
  CHECK(qfails("25ms", RL_UNIT_BYTES, "unknown unit"));
  CHECK(qfails("1e300T", RL_UNIT_FLOP_S, "out of range")); /* 1e312 overflows a double */
  /* counts: 2^53 - 1 is the last one held exactly; one past it is too large */
  CHECK_NEAR(q("9007199254740991", RL_UNIT_COUNT), 9007199254740991.0, 0);
  CHECK(qfails("9007199254740993", RL_UNIT_COUNT, "too large (at most 9007199254740991"));
  CHECK(qfails("9007199254740992", RL_UNIT_COUNT, "too large"));
  CHECK(qfails("8Pi", RL_UNIT_COUNT, "too large"));
  CHECK(qfails("-1e16", RL_UNIT_COUNT, "too large"));
  CHECK_NEAR(q("1e20", RL_UNIT_BYTES), 1e20, 0); /* bytes and FLOPs are not counts */
  /* ... but written out in full digits they print as whole numbers: past
   * 2^53 - 1 one would print rounded (9007199254740993 B as ...992) */
  CHECK(qfails("9007199254740993", RL_UNIT_BYTES, "too large (at most 9007199254740991"));
  CHECK(qfails("9007199254740993B", RL_UNIT_BYTES, "too large"));
  CHECK(qfails("18446744073709551616", RL_UNIT_FLOP, "too large"));
  CHECK_NEAR(q("9007199254740991", RL_UNIT_FLOP), 9007199254740991.0, 0);
  CHECK_NEAR(q("10PB", RL_UNIT_BYTES), 1e16, 0);             /* round by its prefix */
  CHECK_NEAR(q("1.5e16", RL_UNIT_FLOP), 1.5e16, 0);          /* and by its exponent */
  CHECK_NEAR(q("9007199254740993", RL_UNIT_BYTES_S), 9007199254740992.0, 0); /* a rate */
  char b[64];
  rl_format_quantity(3.35e12, RL_UNIT_BYTES_S, b, sizeof b);
  CHECK_STR(b, "3.35 TB/s");
  rl_format_quantity(2.5e-5, RL_UNIT_SECONDS, b, sizeof b);
  CHECK_STR(b, "25 us");
  rl_format_quantity(989.4e12, RL_UNIT_FLOP_S, b, sizeof b);
  CHECK_STR(b, "989.4 TFLOP/s");
  rl_format_quantity(1365.333, RL_UNIT_FLOP_PER_BYTE, b, sizeof b);
  CHECK_STR(b, "1365 FLOP/B");
  rl_format_quantity(0.1666667, RL_UNIT_FLOP_PER_BYTE, b, sizeof b);
  CHECK_STR(b, "0.1667 FLOP/B");
  rl_format_quantity(131072, RL_UNIT_BYTES, b, sizeof b);
  CHECK_STR(b, "131.1 kB");
  rl_format_quantity(0, RL_UNIT_SECONDS, b, sizeof b);
  CHECK_STR(b, "0 s");
  /* snprintf contract: the length needed, even when the buffer is small */
  size_t need = rl_format_quantity(3.35e12, RL_UNIT_BYTES_S, b, 4);
  CHECK(need == 9 && strlen(b) == 3);
}

static void test_dtypes(void) {
  int32_t d;
  CHECK(rl_dtype_parse("bfloat16", &d, NULL) == RL_OK && d == RL_BF16);
  CHECK(rl_dtype_parse("FP8", &d, NULL) == RL_OK && d == RL_FP8);
  CHECK(rl_dtype_parse("fp12", &d, NULL) == RL_ENOTFOUND);
  CHECK_NEAR(rl_dtype_bytes(RL_FP4), 0.5, 0);
  CHECK_NEAR(rl_dtype_bytes(RL_INT4), 0.5, 0);
  CHECK_NEAR(rl_dtype_bytes(RL_TF32), 4, 0);
  CHECK(rl_dtype_bytes(99) == 0 && rl_dtype_name(-1) == NULL);
}

/* The compiled table equals data/hardware.csv read by the run-time parser:
 * the generator and rl_hw_parse_csv cannot drift apart. */
static void test_hw_table_matches_data_file(void) {
  FILE *f = fopen("data/hardware.csv", "rb");
  CHECK(f != NULL);
  if (!f) return;
  static char buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  rl_hw *rows = calloc(256, sizeof *rows);
  int32_t count = 0;
  rl_error e;
  CHECK(rl_hw_parse_csv(buf, n, rows, 256, &count, &e) == RL_OK);
  CHECK(count == rl_hw_count());
  for (int32_t i = 0; i < count && i < rl_hw_count(); i++) {
    rl_hw b;
    rl_hw_get(i, &b);
    CHECK_STR(rows[i].id, b.id);
    CHECK_STR(rows[i].source, b.source);
    CHECK_STR(rows[i].aliases, b.aliases);
    for (int k = 0; k < RL_PEAK_COUNT; k++) CHECK(rows[i].peak[k] == b.peak[k]);
    CHECK(memcmp(&rows[i], &b, sizeof b) == 0); /* every figure, not just these */
    CHECK(b.source[0] != 0); /* every row has a source */
  }
  free(rows);
  /* the writer's header is the data file's: every column, in its order */
  char head[1024];
  rl_hw_csv(NULL, 1, head, sizeof head);
  const char *h = buf;
  while (*h == '#') h = strchr(h, '\n') + 1;
  CHECK(strncmp(h, head, strlen(head)) == 0);
}

/* The hardware schema round trip over every built-in device: struct -> CSV
 * -> struct is exact, and the second CSV and the JSON equal the first. */
static void test_hw_round_trip(void) {
  static char csv[8192], csv2[8192], json[8192], json2[8192];
  for (int32_t i = 0; i < rl_hw_count(); i++) {
    rl_hw a, b;
    rl_hw_get(i, &a);
    CHECK(rl_hw_csv(&a, 1, csv, sizeof csv) < sizeof csv);
    int32_t n = 0;
    rl_error e = {{0}};
    CHECK(rl_hw_parse_csv(csv, strlen(csv), &b, 1, &n, &e) == RL_OK && n == 1);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    rl_hw_csv(&b, 1, csv2, sizeof csv2);
    CHECK_STR(csv2, csv);
    CHECK(rl_hw_json(&a, json, sizeof json) < sizeof json);
    rl_hw_json(&b, json2, sizeof json2);
    CHECK_STR(json2, json);
  }
  /* every column appears in the JSON, under its key (README "Scripting") */
  rl_hw h;
  CHECK(rl_hw_find("h100", NULL, 0, &h, NULL) == RL_OK);
  rl_hw_json(&h, json, sizeof json);
  static const char *const keys[] = {"\"id\":", "\"aliases\":", "\"vendor\":", "\"name\":",
      "\"form_factor\":\"SXM5\"", "\"peak\":{", "\"ridge\":{", "\"sparsity\":true",
      "\"mem_bytes\":", "\"bandwidth\":", "\"l1_bandwidth\":", "\"l2_bytes\":", "\"l2_bandwidth\":",
      "\"l3_bandwidth\":", "\"sms\":132", "\"boost_hz\":", "\"interconnect_bandwidth\":", "\"tdp_w\":700",
      "\"aliases\":[\"h100\",\"h100-sxm\",\"h100-sxm5\"]",
      "\"source\":"};
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) CHECK(strstr(json, keys[k]) != NULL);
  /* set a figure by CSV column or JSON key, with the reader's rules */
  rl_error e = {{0}};
  CHECK(rl_hw_set(&h, "l1_bw", "20TB/s", &e) == RL_OK && h.l1_bw == 20e12);
  CHECK(rl_hw_set(&h, "l3_bandwidth_tbs", "1.5", &e) == RL_OK && h.l3_bw == 1.5e12);
  CHECK(rl_hw_set(&h, "form_factor", "PCIe", &e) == RL_OK && strcmp(h.form_factor, "PCIe") == 0);
  CHECK(rl_hw_set(&h, "sms", "1.5", &e) == RL_EINVAL && strstr(e.msg, "sms: not a whole number"));
  CHECK(rl_hw_set(&h, "mem_bw", "3TB", &e) != RL_OK && strstr(e.msg, "mem_bw:"));
  CHECK(rl_hw_set(&h, "warp_size", "32", &e) == RL_ENOTFOUND && strstr(e.msg, "warp_size"));
  char fig[1024];
  rl_hw_figures(&h, fig, sizeof fig);
  CHECK(strstr(fig, "L1 bandwidth       20 TB/s\n") != NULL);
  CHECK(strstr(fig, "interconnect       900 GB/s (total, both directions)\n") != NULL);
  CHECK(rl_hw_sizeof() == sizeof(rl_hw));
  /* every CSV column has a key in the record (a peak: under "peak") */
  char header[1024];
  rl_hw_csv(NULL, 1, header, sizeof header);
  rl_hw_json(&h, json, sizeof json);
  int columns = 0;
  for (char *col = strtok(header, ",\n"); col; col = strtok(NULL, ",\n"), columns++) {
    const char *key = rl_hw_json_key(col);
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\":", key ? key : "?");
    int peak = 0; /* a peak the device lacks (h100: fp4, int4) is left out of "peak" */
    for (int32_t k = 0; key && k < RL_PEAK_COUNT; k++) peak |= strcmp(key, rl_peak_name(k)) == 0;
    CHECK(key && (strstr(json, quoted) != NULL || (peak && rl_hw_value(&h, col) == 0)));
  }
  CHECK(columns > 25);
  CHECK_STR(rl_hw_json_key("mem_bw"), "bandwidth");
  CHECK_STR(rl_hw_json_key("bandwidth_tbs"), "bandwidth");
  CHECK_STR(rl_hw_json_key("mem_bw_tbs"), "bandwidth"); /* the contract's older name */
  CHECK_STR(rl_hw_json_key("fp64_tensor"), "fp64_tensor");
  CHECK(rl_hw_json_key("warp_size") == NULL && rl_hw_json_key(NULL) == NULL);
}

/* rli_grow: the library's one growing array, refusing sizes that overflow */
static void test_grow(void) {
  int *p = NULL;
  size_t cap = 0;
  CHECK(rli_grow((void **)&p, sizeof *p, 1, &cap) && p && cap >= 1);
  CHECK(rli_grow((void **)&p, sizeof *p, 1000, &cap) && cap >= 1000);
  for (int i = 0; i < 1000; i++) p[i] = i; /* ASan: all of it is there */
  size_t had = cap;
  int *kept = p;
  CHECK(rli_grow((void **)&p, sizeof *p, had, &cap) && p == kept && cap == had);
  CHECK(!rli_grow((void **)&p, sizeof *p, SIZE_MAX / 2, &cap) && p == kept && cap == had);
  CHECK(!rli_grow((void **)&p, 1, SIZE_MAX, &cap) && p == kept && cap == had);
  CHECK(!rli_grow((void **)&p, 0, 2000, &cap) && p == kept && cap == had);
  CHECK(p[999] == 999);
  free(p);
}

/* rli_hash: the value of its first form (the last 0-7 bytes put into a
 * word by memcpy), for every length to 40 at the end of a block of their
 * own (ASan: no byte past them is read) */
static uint64_t hash_memcpy(const char *s, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  uint64_t w = 0;
  memcpy(&w, s + i, n - i);
  h ^= w;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}
static void test_hash(void) {
  for (size_t n = 0; n <= 40; n++) {
    char *b = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++) b[i] = (char)(0x80 + 37 * i + n);
    CHECK(rli_hash(b, n) == hash_memcpy(b, n));
    free(b);
  }
  CHECK(rli_hash("aten::mm", 8) != rli_hash("aten::mv", 8));
}

/* rli_sort_idx: a stable index sort with a context, against qsort on
 * (key, index) pairs, on random, sorted, reversed and constant keys */
static int cmp_key_idx(const void *ctx, uint32_t a, uint32_t b) {
  const int *key = ctx;
  if (key[a] != key[b]) return key[a] < key[b] ? -1 : 1;
  return (a > b) - (a < b);
}
static int cmp_pair(const void *pa, const void *pb) {
  const int *a = pa, *b = pb;
  if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
  return (a[1] > b[1]) - (a[1] < b[1]);
}
static void test_sort_idx(void) {
  enum { N = 1000 };
  static int key[N], pair[N][2];
  static uint32_t v[N];
  unsigned r = 12345;
  for (int pattern = 0; pattern < 4; pattern++) {
    for (size_t n = 0; n <= N; n += n < 40 ? 1 : 137) {
      for (size_t i = 0; i < n; i++) {
        r = r * 1103515245u + 12345u;
        key[i] = pattern == 0 ? (int)(r >> 16) % 50 : pattern == 1 ? (int)i
                 : pattern == 2 ? (int)(n - i) : 7;
        pair[i][0] = key[i];
        pair[i][1] = (int)i;
        v[i] = (uint32_t)i;
      }
      CHECK(rli_sort_idx(v, n, cmp_key_idx, key) == 1);
      qsort(pair, n, sizeof pair[0], cmp_pair);
      int same = 1;
      for (size_t i = 0; i < n; i++) same &= v[i] == (uint32_t)pair[i][1];
      CHECK(same);
    }
  }
}

static void test_hw_lookup(void) {
  rl_hw h;
  rl_error e;
  CHECK(rl_hw_find("h100", NULL, 0, &h, &e) == RL_OK);
  CHECK_STR(h.id, "nvidia-h100-sxm5");
  CHECK(rl_hw_find("NVIDIA-H200-SXM", NULL, 0, &h, &e) == RL_OK);
  CHECK(rl_hw_find("mi32", NULL, 0, &h, &e) == RL_OK); /* a unique fragment */
  CHECK_STR(h.id, "amd-mi325x");
  CHECK(rl_hw_find("mi300", NULL, 0, &h, &e) == RL_EAMBIGUOUS); /* MI300X or MI300A */
  CHECK(strstr(e.msg, "amd-mi300x") && strstr(e.msg, "amd-mi300a"));
  CHECK(rl_hw_find("gh200", NULL, 0, &h, &e) == RL_EAMBIGUOUS); /* HBM3 96 GB or HBM3e 144 GB */
  CHECK(rl_hw_find("mi3", NULL, 0, &h, &e) == RL_EAMBIGUOUS);
  CHECK(rl_hw_find("a100", NULL, 0, &h, &e) == RL_EAMBIGUOUS);
  CHECK(strstr(e.msg, "nvidia-a100-sxm4-40gb") != NULL);
  CHECK(rl_hw_find("h10", NULL, 0, &h, &e) == RL_EAMBIGUOUS);
  CHECK(rl_hw_find("zzz", NULL, 0, &h, &e) == RL_ENOTFOUND);
  CHECK(strstr(e.msg, "nearest") != NULL);
  CHECK(rl_hw_find("h100", NULL, 0, &h, &e) == RL_OK);
  CHECK_NEAR(rl_hw_ridge(&h, RL_PEAK_BF16), 989.4 / 3.35, 1e-12);
  CHECK(rl_hw_peak_for(&h, RL_BF16, 1) == RL_PEAK_BF16);
  CHECK(rl_hw_peak_for(&h, RL_BF16, 0) == RL_PEAK_VEC16);
  CHECK(rl_hw_peak_for(&h, RL_FP64, 1) == RL_PEAK_FP64_TENSOR);
  CHECK(rl_hw_peak_for(&h, RL_FP32, 1) == RL_PEAK_FP32);
  rl_roof r;
  CHECK(rl_hw_roof(&h, RL_PEAK_BF16, RL_ROOF_SPARSE, &r, &e) == RL_OK && r.sparse && r.peak == 2 * 989.4e12);
  CHECK(rl_hw_roof(&h, RL_PEAK_FP32, RL_ROOF_SPARSE, &r, &e) == RL_EUNSUPPORTED);
  CHECK(rl_hw_roof(&h, RL_PEAK_FP4, 0, &r, &e) == RL_EUNSUPPORTED);
}

static void test_hw_csv_errors(void) {
  rl_hw out[4];
  int32_t n;
  rl_error e;
  const char *ok = "# comment\nid,bf16,bandwidth_tbs,mem_gb,source\r\nx,100,1.5,32GiB,\"a, quoted \"\"source\"\"\"\r\n";
  CHECK(rl_hw_parse_csv(ok, strlen(ok), out, 4, &n, &e) == RL_OK && n == 1);
  CHECK_NEAR(out[0].peak[RL_PEAK_BF16], 100e12, 1e-12);
  CHECK_NEAR(out[0].mem_bytes, 32.0 * 1073741824.0, 0);
  CHECK_STR(out[0].source, "a, quoted \"source\"");
  /* the column names before contract version 1 are still read */
  const char *old = "id,bf16,mem_bw_tbs,interconnect_gbs,source\nx,100,1.5,900,s\n";
  CHECK(rl_hw_parse_csv(old, strlen(old), out, 4, &n, &e) == RL_OK && n == 1);
  CHECK(out[0].mem_bw == 1.5e12 && out[0].interconnect_bw == 900e9);
#define BAD(text, needle) do { CHECK(rl_hw_parse_csv(text, strlen(text), out, 4, &n, &e) != RL_OK); \
    CHECK(strstr(e.msg, needle) != NULL); } while (0)
  BAD("", "no header");
  BAD("id,bf16\n", "no device rows");
  BAD("name,bf16\nx,1\n", "no 'id' column");
  BAD("id,bogus\nx,1\n", "unknown column 'bogus'");
  BAD("id,bf16,bf16\nx,1,1\n", "twice");
  BAD("id,bf16,bandwidth_tbs\nx,1\n", "2 fields, the header has 3");
  BAD("id,bf16,bandwidth_tbs\nx,1,2,3\n", "more fields");
  BAD("id,bf16,bandwidth_tbs\nx,-1,2\n", "non-negative");
  BAD("id,bf16,bandwidth_tbs\nx,1,\n", "bandwidth_tbs > 0");
  BAD("id,bf16,bandwidth_tbs\nx,1,2TB\n", "in B where B/s");
  BAD("id,bf16,bandwidth_tbs\n\"x,1,2\n", "quoting");
  BAD("id,sms,bandwidth_tbs\nx,1.5,2\n", "whole number");
#undef BAD
}

static rl_cost cost(rl_op op) {
  rl_cost c;
  memset(&c, 0, sizeof c);
  rl_error e;
  if (rl_op_cost(&op, &c, &e) != RL_OK) c.flops = c.bytes = -1;
  return c;
}

static void test_ops(void) {
  rl_op op = rl_op_init(RL_OP_MATMUL, RL_BF16);
  op.m = 3; op.n = 5; op.k = 7;
  rl_cost c = cost(op);
  CHECK(c.flops == 2 * 3 * 5 * 7 && c.bytes == 2 * (21 + 35 + 15) && c.tensor == 1);
  op.batch = 4;
  c = cost(op);
  CHECK(c.flops == 4 * 2 * 3 * 5 * 7);
  op = rl_op_init(RL_OP_LINEAR, RL_BF16);
  op.m = 512; op.k = 4096; op.n = 4096;
  c = cost(op);
  CHECK_NEAR(c.flops, 2.0 * 512 * 4096 * 4096, 0);
  CHECK_NEAR(c.bytes, 2.0 * (512 * 4096 + 4096.0 * 4096 + 512 * 4096), 0);
  op.weight_dtype = RL_FP8;
  c = cost(op);
  CHECK_NEAR(c.bytes, 2.0 * 512 * 4096 * 2 + 4096.0 * 4096, 0);
  op = rl_op_init(RL_OP_LAYERNORM, RL_BF16);
  op.m = 10; op.n = 100;
  c = cost(op);
  CHECK(c.flops == 8000 && c.bytes == 2 * 1000 * 2 + 2 * 100 * 2);
  op = rl_op_init(RL_OP_RMSNORM, RL_FP32);
  op.m = 10; op.n = 100;
  c = cost(op);
  CHECK(c.flops == 4000 && c.bytes == 2 * 1000 * 4 + 100 * 4);
  op = rl_op_init(RL_OP_ATTENTION, RL_BF16);
  op.seq = 4096; op.head_dim = 128;
  c = cost(op);
  CHECK_NEAR(c.bytes, 2.0 * (4 * 4096 * 128 + 4.0 * 4096 * 4096), 0);
  op = rl_op_init(RL_OP_COPY, RL_BF16);
  op.n = 100; op.weight_dtype = RL_FP32;
  c = cost(op);
  CHECK(c.flops == 0 && c.bytes == 600);
  op = rl_op_init(RL_OP_EMBEDDING, RL_BF16);
  op.m = 3; op.n = 10;
  c = cost(op);
  CHECK(c.flops == 0 && c.bytes == 3 * 10 * 4 + 24);
  op = rl_op_init(RL_OP_ADD, RL_BF16);
  op.n = (double)NAN;
  CHECK(cost(op).flops == -1);
  op.n = -1;
  CHECK(cost(op).flops == -1);
  op = rl_op_init(RL_OP_KIND_COUNT, RL_BF16);
  CHECK(cost(op).flops == -1);
  op = rl_op_init(RL_OP_ADD, 42);
  op.n = 1;
  CHECK(cost(op).flops == -1);
  /* a size the kind does not use is refused, not ignored */
  op = rl_op_init(RL_OP_ADD, RL_BF16);
  op.n = 10;
  op.k = 5;
  CHECK(cost(op).flops == -1);
  op.k = 0;
  op.flags = RL_OP_FUSED;
  CHECK(cost(op).flops == -1);
  int32_t k;
  CHECK(rl_op_parse("layer_norm", &k, NULL) == RL_OK && k == RL_OP_LAYERNORM);
  CHECK(rl_op_parse("gelu", &k, NULL) == RL_OK && k == RL_OP_GELU_TANH);
}

/* The op schema: every client derives its fields from rl_op_fields,
 * rl_op_set and rl_op_set_fields. */
static int set_fails(rl_op *op, const char *const *names, const double *v, int32_t n,
                     const char *want) {
  rl_error e = {{0}};
  rl_op o = *op;
  return rl_op_set_fields(&o, names, v, n, "--", &e) != RL_OK && strstr(e.msg, want) != NULL;
}

/* Every op kind: a row in ops.c's defs[] (a name, fields, a formula that
 * costs its required fields) and a golden case (`op NAME ...` in
 * tests/golden/). Runs first, so that a kind left out of the table fails
 * here with its number rather than further on. */
static void test_op_table(void) {
  char *gold = NULL;
  size_t gn = 0;
  DIR *dir = opendir("tests/golden");
  CHECK(dir != NULL);
  for (struct dirent *de; dir && (de = readdir(dir)) != NULL;) {
    size_t l = strlen(de->d_name);
    if (l < 8 || strcmp(de->d_name + l - 7, ".golden") != 0) continue;
    char path[512], chunk[65536];
    snprintf(path, sizeof path, "tests/golden/%s", de->d_name);
    FILE *f = fopen(path, "rb");
    for (size_t k; f && (k = fread(chunk, 1, sizeof chunk, f)) > 0;) {
      char *m = realloc(gold, gn + k + 1);
      if (!m) break;
      gold = m;
      memcpy(gold + gn, chunk, k);
      gn += k;
      gold[gn] = 0;
    }
    if (f) fclose(f);
  }
  if (dir) closedir(dir);
  CHECK(gold != NULL);
  for (int32_t k = 0; k < RL_OP_KIND_COUNT; k++) {
    const char *name = rl_op_name(k);
    if (!name) {
      fprintf(stderr, "test_core: FAILED: op kind %d has no row in src/core/ops.c's defs[] "
                      "(a name, fields and a formula)\n", (int)k);
      harness_failed++;
      continue;
    }
    /* the formula: the first form's required fields, each 64 */
    char fl[256], *names[16];
    double vals[16];
    int32_t n = 0;
    rl_op_fields(k, fl, sizeof fl);
    for (char *w = strtok(fl, " "); w && n < 16; w = strtok(NULL, " ")) {
      if (*w == '|') break;
      if (*w == '[') continue;
      names[n] = w;
      vals[n++] = 64;
    }
    rl_op op = rl_op_init(k, RL_BF16);
    rl_cost c;
    rl_error e = {{0}};
    if (rl_op_set_fields(&op, (const char *const *)names, vals, n, "--", &e) != RL_OK ||
        rl_op_cost(&op, &c, &e) != RL_OK || !isfinite(c.flops) || !(c.bytes > 0)) {
      fprintf(stderr, "test_core: FAILED: op kind '%s': no formula costs its fields (%s)\n", name,
              e.msg);
      harness_failed++;
    } else {
      harness_passed++;
    }
    /* a golden case runs it: "op NAME " after a case's name (the generic
     * kernel is the command `roofline kernel`) */
    char key[64];
    snprintf(key, sizeof key, k == RL_OP_KERNEL ? " %s --" : " op %s ", name);
    if (!gold || !strstr(gold, key)) {
      fprintf(stderr, "test_core: FAILED: op kind '%s' has no golden case (`NAME op %s ... => "
                      "...` in tests/golden/*.golden)\n", name, name);
      harness_failed++;
    } else {
      harness_passed++;
    }
  }
  free(gold);
}

static void test_op_schema(void) {
  char b[256];
  rl_op_fields(RL_OP_LINEAR, b, sizeof b);
  CHECK_STR(b, "tokens d-in d-out [bias] [weight-dtype]");
  rl_op_fields(RL_OP_ADD, b, sizeof b);
  CHECK_STR(b, "n | rows cols");
  /* every kind has a name that parses back, a formula and a field list */
  for (int32_t k = 0; k < RL_OP_KIND_COUNT; k++) {
    int32_t back = -1;
    CHECK(rl_op_parse(rl_op_name(k), &back, NULL) == RL_OK && back == k);
    CHECK(rl_op_fields(k, b, sizeof b) > 0);
  }
  /* the help names every kind */
  char help[4096];
  CHECK(rl_op_help(help, sizeof help) < sizeof help);
  for (int32_t k = 0; k < RL_OP_KIND_COUNT; k++) {
    char w[40];
    snprintf(w, sizeof w, " %s", rl_op_name(k));
    CHECK(strstr(help, w) != NULL);
  }
  /* the unknown-op message lists every kind, from the table */
  rl_error e = {{0}};
  int32_t k;
  char all[RL_ERROR_MSG_MAX] = "(";
  for (int32_t kind = 0; kind < RL_OP_KIND_COUNT; kind++)
    snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", rl_op_name(kind),
             kind == RL_OP_KIND_COUNT - 1 ? ")" : " ");
  CHECK(rl_op_parse("frob", &k, &e) == RL_ENOTFOUND && strstr(e.msg, "(add mul sub div relu") &&
        strstr(e.msg, all) != NULL);
  /* set by name: "d-in" is k of a linear op, '_' works for '-' */
  rl_op op = rl_op_init(RL_OP_LINEAR, RL_BF16);
  CHECK(rl_op_set(&op, "tokens", 512, NULL) == RL_OK);
  CHECK(rl_op_set(&op, "d-in", 4096, NULL) == RL_OK);
  CHECK(rl_op_set(&op, "d_out", 1024, NULL) == RL_OK);
  CHECK(rl_op_set(&op, "bias", 1, NULL) == RL_OK);
  CHECK(op.m == 512 && op.k == 4096 && op.n == 1024 && op.flags == RL_OP_BIAS);
  CHECK(rl_op_set(&op, "head-dim", 64, &e) == RL_EINVAL && strstr(e.msg, "head-dim does not apply to linear"));
  CHECK(rl_op_set(&op, "nope", 1, &e) == RL_EINVAL && strstr(e.msg, "unknown op field"));
  int32_t unit = -1;
  CHECK(rl_op_field_type("bytes", &unit) == RL_OP_FIELD_SIZE && unit == RL_UNIT_BYTES);
  CHECK(rl_op_field_type("causal", NULL) == RL_OP_FIELD_FLAG);
  CHECK(rl_op_field_type("weight_dtype", NULL) == RL_OP_FIELD_DTYPE);
  CHECK(rl_op_field_type("frob", NULL) == 0);
  CHECK(rl_op_takes(RL_OP_CONV2D, "pad") && !rl_op_takes(RL_OP_MATMUL, "pad"));
  /* a whole shape, checked against the schema */
  op = rl_op_init(RL_OP_MATMUL, RL_BF16);
  const char *mnk[] = {"m", "n", "k", "batch", "pad"};
  const double v[] = {64, 32, 16, 2, 1};
  CHECK(set_fails(&op, mnk, v, 2, "matmul needs --m, --n and --k"));
  CHECK(set_fails(&op, mnk, v, 5, "--pad does not apply to matmul"));
  const double v0[] = {64, 32, 16, 0};
  CHECK(set_fails(&op, mnk, v0, 4, "--batch must be > 0"));
  CHECK(rl_op_set_fields(&op, mnk, v, 4, "--", NULL) == RL_OK);
  CHECK(op.m == 64 && op.n == 32 && op.k == 16 && op.batch == 2);
  /* alternative forms: n elements, or rows x cols */
  op = rl_op_init(RL_OP_RELU, RL_BF16);
  const char *alt[] = {"rows", "cols", "n"};
  const double av[] = {4, 8, 32};
  CHECK(set_fails(&op, alt, av, 3, "give --n or --rows and --cols, not both"));
  CHECK(set_fails(&op, alt, av, 1, "relu needs --rows and --cols"));
  CHECK(set_fails(&op, alt, av, 0, "relu needs --n (or --rows and --cols)"));
  const double nanv[] = {(double)NAN, 8};
  CHECK(set_fails(&op, alt, nanv, 2, "--rows must be a number, not NaN"));
  rl_op a = op, b2 = op;
  CHECK(rl_op_set_fields(&a, alt, av, 2, "", NULL) == RL_OK);
  CHECK(rl_op_set_fields(&b2, alt + 2, av + 2, 1, "", NULL) == RL_OK);
  rl_cost ca = cost(a), cb = cost(b2);
  CHECK(ca.flops == 32 && ca.flops == cb.flops && ca.bytes == cb.bytes);
  rl_op_describe(&a, b, sizeof b);
  CHECK_STR(b, "32 elements");
  /* each activation its own FLOPs per element, whatever the numbering */
  static const struct { int32_t kind; double per; } act[] = {
      {RL_OP_RELU, 1}, {RL_OP_GELU_TANH, 9}, {RL_OP_GELU_ERF, 5}, {RL_OP_SILU, 4}};
  for (size_t i = 0; i < sizeof act / sizeof act[0]; i++) {
    rl_op x = rl_op_init(act[i].kind, RL_BF16);
    CHECK(rl_op_set(&x, "n", 10, NULL) == RL_OK);
    CHECK(cost(x).flops == 10 * act[i].per && cost(x).bytes == 40);
  }
}

/* The names of every enum the command line spells, from the library. */
static void test_enum_names(void) {
  int32_t v = -1;
  rl_error e = {{0}};
  for (int32_t a = RL_ATTN_FULL; a <= RL_ATTN_NONE; a++)
    CHECK(rl_attn_parse(rl_attn_name(a), &v, NULL) == RL_OK && v == a);
  for (int32_t r = RL_RECOMPUTE_NONE; r <= RL_RECOMPUTE_FULL; r++)
    CHECK(rl_recompute_parse(rl_recompute_name(r), &v, NULL) == RL_OK && v == r);
  for (int32_t m = RL_EMBED_GATHERED; m <= RL_EMBED_FULL; m++)
    CHECK(rl_embed_parse(rl_embed_name(m), &v, NULL) == RL_OK && v == m);
  int32_t nfmt = 0; /* every format the reader table has, and no gap */
  while (rl_trace_format_name(nfmt)) nfmt++;
  CHECK(nfmt > RL_TRACE_NSYS);
  for (int32_t f = RL_TRACE_AUTO; f < nfmt; f++)
    CHECK(rl_trace_format_parse(rl_trace_format_name(f), &v, NULL) == RL_OK && v == f);
  CHECK(rl_trace_format_parse("pytorch", &v, NULL) == RL_OK && v == RL_TRACE_KINETO);
  CHECK(rl_trace_format_parse("csv", &v, &e) == RL_EINVAL);
  char want[256] = "'csv' is not ";
  for (int32_t f = RL_TRACE_AUTO + 1; f < nfmt; f++)
    snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s",
             f == RL_TRACE_AUTO + 1 ? "" : f == nfmt - 1 ? " or " : ", ", rl_trace_format_name(f));
  CHECK_STR(e.msg, want);
  CHECK(strstr(e.msg, "kineto, ncu") != NULL);
  CHECK(rl_embed_parse("half", &v, &e) == RL_EINVAL);
  CHECK_STR(e.msg, "'half' is not gathered or full");
  CHECK(rl_attn_parse("half", &v, &e) == RL_EINVAL);
  CHECK_STR(e.msg, "'half' is not full, causal or none");
  CHECK(rl_recompute_parse("", &v, &e) == RL_EINVAL);
  CHECK(rl_attn_name(3) == NULL && rl_trace_format_name(nfmt) == NULL);
  for (int32_t m = RL_MLP_GATED; m <= RL_MLP_PLAIN; m++)
    CHECK(rl_mlp_parse(rl_mlp_name(m), &v, NULL) == RL_OK && v == m);
  for (int32_t i = RL_ATTN_IMPL_FUSED; i <= RL_ATTN_IMPL_NAIVE; i++)
    CHECK(rl_attn_impl_parse(rl_attn_impl_name(i), &v, NULL) == RL_OK && v == i);
  /* norms: the records say rmsnorm/layernorm, the flag and the model table rms/layer */
  CHECK_STR(rl_norm_name(RL_NORM_RMS), "rmsnorm");
  CHECK_STR(rl_norm_name(RL_NORM_LAYER), "layernorm");
  CHECK(rl_norm_parse("rms", &v, NULL) == RL_OK && v == RL_NORM_RMS);
  CHECK(rl_norm_parse("layer", &v, NULL) == RL_OK && v == RL_NORM_LAYER);
  CHECK(rl_mlp_parse("swiglu", &v, &e) == RL_EINVAL);
  CHECK_STR(e.msg, "'swiglu' is not gated or plain");
  CHECK(rl_norm_parse("batch", &v, &e) == RL_EINVAL);
  CHECK_STR(e.msg, "'batch' is not rms or layer");
  CHECK(rl_attn_impl_parse("flash", &v, &e) == RL_EINVAL);
  CHECK_STR(e.msg, "'flash' is not fused or naive");
  CHECK(rl_mlp_name(2) == NULL && rl_norm_name(-1) == NULL && rl_attn_impl_name(2) == NULL);
  double g = 0;
  CHECK(rl_group_size_parse("channel", &g, NULL) == RL_OK && g == RL_GROUP_CHANNEL);
  CHECK(rl_group_size_parse("none", &g, NULL) == RL_OK && g == RL_GROUP_NONE);
  CHECK(rl_group_size_parse("4Ki", &g, NULL) == RL_OK && g == 4096);
  CHECK(rl_group_size_parse("x", &g, &e) == RL_EINVAL);
  CHECK_STR(e.msg, "'x' is not a number, channel or none");
  CHECK(rl_group_size_parse("1.5", &g, &e) == RL_EINVAL);
  CHECK_STR(e.msg, "must be a whole number of weights >= 1, channel or none (got 1.5)");
  CHECK(rl_group_size_parse("2e9", &g, &e) == RL_EINVAL && rl_group_size_parse(NULL, &g, &e) == RL_EINVAL);
  rl_hw h;
  CHECK(rl_hw_find(rl_default_hw(), NULL, 0, &h, NULL) == RL_OK && strcmp(h.id, RL_DEFAULT_HW) == 0);
}

static void test_min_batch(void) {
  double b;
  rl_error e;
  /* bf16 d = 4096 on the H100: I(B) = Bd/(2B + d) >= 989.4/3.35 from B = 346 */
  CHECK(rl_linear_min_batch(4096, 4096, RL_BF16, -1, 0, 989.4 / 3.35, &b, &e) == RL_OK);
  CHECK(b == 346);
  double i345 = 345.0 * 4096 / (2 * 345 + 4096), i346 = 346.0 * 4096 / (2 * 346 + 4096);
  CHECK(i345 < 989.4 / 3.35 && i346 >= 989.4 / 3.35);
  CHECK(rl_linear_min_batch(512, 512, RL_BF16, -1, 0, 295, &b, &e) == RL_OK && b == 0);
  /* int4 weights: a quarter of the weight bytes, so a smaller batch */
  CHECK(rl_linear_min_batch(4096, 4096, RL_BF16, RL_INT4, 0, 989.4 / 3.35, &b, &e) == RL_OK && b < 346 && b > 0);
  CHECK(rl_linear_min_batch(0, 4096, RL_BF16, -1, 0, 295, &b, &e) == RL_EINVAL);
}

static void test_bound(void) {
  rl_roof r = {989.4e12, 3.35e12, 0, RL_PEAK_BF16, 0, 1, 1, 0};
  rl_result res;
  rl_error e;
  CHECK(rl_roofline(1e12, 1e9, &r, 0, &res, &e) == RL_OK);
  CHECK(res.bound == RL_BOUND_COMPUTE && res.time_s == 1e12 / 989.4e12);
  CHECK(rl_roofline(1e9, 1e9, &r, 0, &res, &e) == RL_OK && res.bound == RL_BOUND_MEMORY);
  CHECK_NEAR(res.attainable, 3.35e12, 1e-12);
  CHECK(rl_roofline(0, 1e9, &r, 0, &res, &e) == RL_OK && res.attainable == 0);
  CHECK(rl_roofline(0, 0, &r, 0, &res, &e) == RL_EINVAL);
  CHECK(rl_roofline((double)NAN, 1, &r, 0, &res, &e) == RL_EINVAL);
  CHECK(rl_roofline(1, 1, &r, -1, &res, &e) == RL_EINVAL);
  CHECK(rl_roofline(1, 1, &r, (double)NAN, &res, &e) == RL_EINVAL);
  rl_roof bad = r;
  bad.bandwidth = 0;
  CHECK(rl_roofline(1, 1, &bad, 0, &res, &e) == RL_EINVAL && strstr(e.msg, "bandwidth"));
  r.launch_overhead_s = 4e-6;
  CHECK(rl_roofline(1e6, 1e5, &r, 0, &res, &e) == RL_OK && res.bound == RL_BOUND_OVERHEAD);
  /* measured faster than the roof: the verdict says the counts are wrong */
  CHECK(rl_roofline(1e12, 1e9, &r, 1e-4, &res, &e) == RL_OK);
  char v[400];
  rl_verdict(&res, v, sizeof v);
  CHECK(strstr(v, "faster than its roof") != NULL);
  /* absurdly faster (10 FLOP in 1e-300 s): finite, flagged, and the verdict
   * whole (three digits, not the 290 of %.0f, cut at the buffer's end) */
  CHECK(rl_roofline(10, 60, &r, 1e-300, &res, &e) == RL_OK && rl_above_roof(&res));
  size_t vn = rl_verdict(&res, v, sizeof v);
  CHECK(vn < sizeof v && strstr(v, "faster than its roof (1.79e+291%)") != NULL);
  CHECK(strstr(v, "resident in L2?)") != NULL);
  /* an overflowing result is an error naming the inputs, never inf */
  CHECK(rl_roofline(1e9, 1e6, &r, 1e-300, &res, &e) == RL_ERANGE);
  CHECK(strstr(e.msg, "not finite") && strstr(e.msg, "measured 1e-300 s"));
  rl_roof tiny = r;
  tiny.bandwidth = 1e-300;
  CHECK(rl_roofline(1e9, 1e300, &tiny, 0, &res, &e) == RL_ERANGE && strstr(e.msg, "bandwidth 1e-300"));
}

static void test_json(void) {
  char b[128];
  rl_json_string("<script>\"&'\n", b, sizeof b);
  CHECK_STR(b, "\"\\u003cscript\\u003e\\\"\\u0026\\u0027\\n\"");
  /* UTF-8 (RFC 3629): the one validator of the writers and the command */
  static const struct { const char *s; size_t n; } seq[] = {
      {"a", 1}, {"", 1}, {"\xc3\xa9", 2}, {"\xe2\x82\xac", 3}, {"\xf0\x9f\x98\x80", 4},
      {"\x80", 0},             /* a continuation byte alone */
      {"\xc0\xaf", 0},         /* overlong '/' */
      {"\xe0\x80\xaf", 0},     /* overlong, 3 bytes */
      {"\xed\xa0\x80", 0},     /* a surrogate, U+D800 */
      {"\xf4\x90\x80\x80", 0}, /* past U+10FFFF */
      {"\xe2\x82", 0},         /* cut short */
      {"\xff", 0}};
  for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) CHECK(rl_utf8_seq(seq[i].s) == seq[i].n);
  CHECK(rl_utf8_seq(NULL) == 0);
  rl_json_string("x\xc0\xafy", b, sizeof b);
  CHECK_STR(b, "\"x\\ufffd\\ufffdy\"");
  rli_json *j;
  rl_error e;
  const char *doc = "{\"a\":[1,{\"b\":\"x\\u00e9\"}],\"c\":-1.5e3,\"d\":true,\"e\":null}";
  CHECK(rli_json_parse(doc, strlen(doc), &j, &e) == RL_OK);
  CHECK(rli_json_path(j, "a.1.b") && strcmp(rli_json_path(j, "a.1.b")->str, "x\xc3\xa9") == 0);
  CHECK(rli_json_path(j, "c")->num == -1500);
  CHECK(rli_json_path(j, "a.2") == NULL);
  rli_json_free(j);
  const char *bad[] = {"{", "[1,]", "{\"a\" 1}", "01", "1 2", "\"abc", "[nan]", "{\"a\":tru}", "\"\\x\""};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK(rli_json_parse(bad[i], strlen(bad[i]), &j, &e) != RL_OK);
    CHECK(strstr(e.msg, "byte ") != NULL);
  }
  /* deep nesting is refused, not a stack overflow */
  char *deep = malloc(100001);
  memset(deep, '[', 100000);
  deep[100000] = 0;
  CHECK(rli_json_parse(deep, 100000, &j, &e) != RL_OK && strstr(e.msg, "deep"));
  free(deep);
}

int main(void) {
  RUN(test_op_table);
  RUN(test_units);
  RUN(test_dtypes);
  RUN(test_hw_table_matches_data_file);
  RUN(test_hw_round_trip);
  RUN(test_grow);
  RUN(test_hash);
  RUN(test_sort_idx);
  RUN(test_hw_lookup);
  RUN(test_hw_csv_errors);
  RUN(test_ops);
  RUN(test_op_schema);
  RUN(test_enum_names);
  RUN(test_min_batch);
  RUN(test_bound);
  RUN(test_json);
  CHECK(strcmp(rl_version(), RL_VERSION_STRING) == 0 && rl_version_number() == RL_VERSION_NUMBER);
  CHECK(strcmp(rl_strerror(RL_EPARSE), "malformed input") == 0);
  return harness_report("core");
}
