/*
 * ranges.c -- the plausible range of each quantity a user, a file or a
 * caller gives: one table, read by the command's flags (cli_parse), the
 * hardware CSV (rl_hw_parse_csv, rl_hw_set_value), config.json and every
 * model (rl_model_check), the device and roof resolvers (resolve.c), the
 * points of a chart (plot.c), the working sets of a measurement, the Python
 * binding (_num) and the page (which runs this core).
 *
 * A value outside its range describes no machine, model or measurement that
 * exists or is built (each bound's reason is in the table, and in
 * docs/reliability.md, which test_ranges compares with this table); it is
 * refused with RL_ERANGE and a message that states the range, so that no
 * result is computed from it: a bandwidth of 1e-300 B/s made `inf` seconds,
 * a head dimension of 1e15 a parameter count past 2^53 printed as exact.
 *
 * The bounds are wide on purpose: every row of data/hardware.csv and
 * data/models.csv lies at least 30x inside them (test_ranges checks each
 * row), so they refuse typing accidents and fuzzing, never a real device.
 * Sources of the figures the reasons quote: Cerebras WSE-3 datasheet (21
 * PB/s of on-chip memory bandwidth, 125 PFLOP/s), NVIDIA GB200 NVL72
 * datasheet (13.4 TB of HBM3e in a rack), Meta's Llama 3.1 405B and Llama 4
 * Scout config.json (d_ff 53,248; a 10,485,760-token context), Google's
 * Gemma 2 config.json (a vocabulary of 256,000), Fedus et al., "Switch
 * Transformers", JMLR 2022 (Switch-C: 1.6e12 parameters), Epoch AI's "Data on
 * Notable AI Models" (training compute estimates, the largest below 1e27
 * FLOP).
 */
#include "internal.h"

#include <math.h>
#include <string.h>

static const rl_range ranges[RL_QTY_KIND_COUNT] = {
    [RL_QTY_TIME] = {"time", RL_UNIT_SECONDS, 1e-12, 1e9, 0,
                     "1 ps: a cycle of a 1 THz clock, a thousandth of a GPU's; no kernel or step is shorter",
                     "1e9 s: 32 years"},
    [RL_QTY_LATENCY] = {"latency or launch overhead", RL_UNIT_SECONDS, 1e-12, 1, 1,
                        "1 ps (or 0: none)",
                        "1 s: 10^5 x a kernel launch (a few us) or a network hop (a few us)"},
    [RL_QTY_BANDWIDTH] = {"bandwidth", RL_UNIT_BYTES_S, 1e6, 1e18, 0,
                          "1 MB/s: below any memory or link a processor has (a 1990s PCI bus: 133 MB/s)",
                          "1 EB/s: 50 x the fastest memory built (Cerebras WSE-3's on-chip SRAM, 21 PB/s)"},
    [RL_QTY_PEAK] = {"peak", RL_UNIT_FLOP_S, 1e6, 1e21, 0,
                     "1 MFLOP/s: a microcontroller's software floating point",
                     "1 ZFLOP/s: 8,000 x one wafer-scale chip (WSE-3, 125 PFLOP/s), more than a 100,000-GPU cluster"},
    [RL_QTY_MEMORY] = {"memory capacity", RL_UNIT_BYTES, 1e3, 1e18, 0,
                       "1 kB: an 8-bit microcontroller's SRAM (2 kB)",
                       "1 EB: 70,000 x a GB200 NVL72 rack's HBM (13.4 TB)"},
    [RL_QTY_WORK] = {"amount of work (FLOP or bytes)", RL_UNIT_COUNT, 1, 1e30, 1,
                     "1: a kernel does at least one FLOP and moves at least a byte (or 0: none)",
                     "1e30: 2,000 x the compute of the largest training run estimated (about 5e26 FLOP)"},
    [RL_QTY_COUNT] = {"count", RL_UNIT_COUNT, 0, RL_MAX_COUNT, 1, "0",
                      "2^53 - 1 = 9007199254740991: the last whole number a double holds exactly"},
    [RL_QTY_DIM] = {"model dimension", RL_UNIT_COUNT, 1, 16777216, 0,
                    "1",
                    "2^24 = 16,777,216: 65 x the largest vocabulary (Gemma 2's 256,000), 315 x the widest MLP "
                    "(Llama 3.1 405B's 53,248)"},
    [RL_QTY_CONTEXT] = {"context length (tokens)", RL_UNIT_COUNT, 0, 1e9, 0,
                        "0 tokens (none yet)",
                        "1e9 tokens: 95 x the longest context published (Llama 4 Scout's 10,485,760)"},
    [RL_QTY_FRACTION] = {"efficiency (a fraction of a peak)", RL_UNIT_COUNT, 1e-3, 1, 0,
                         "0.1%: below it the bound describes no use of the device",
                         "100%: no device beats its own peak"},
    [RL_QTY_CLOCK] = {"clock (Hz)", RL_UNIT_COUNT, 1e6, 1e11, 0,
                      "1 MHz: below any processor's clock (GPUs idle at 200 MHz and more)",
                      "100 GHz: 15 x the fastest clock shipped (about 6 GHz)"},
    [RL_QTY_WORKING_SET] = {"working set", RL_UNIT_BYTES, 1e3, 1e15, 0,
                            "1 kB: smaller sets time the timer (a 1 kB copy takes ~10 ns), not the memory",
                            "1 PB: more memory than any one machine has"},
    [RL_QTY_INTENSITY] = {"arithmetic intensity", RL_UNIT_FLOP_PER_BYTE, 1e-9, 1e9, 0,
                          "1e-9 FLOP/B: one FLOP per GB moved, below any kernel that computes (an fp32 add: 1/12)",
                          "1e9 FLOP/B: beyond any kernel's (a bf16 matmul of 10^5 x 10^5 has 3.3 x 10^4); a chart spans 12 decades"},
    [RL_QTY_PARAMS] = {"parameter count", RL_UNIT_COUNT, 1, 1e17, 0,
                       "1",
                       "1e17: 60,000 x the largest model published (Switch-C, 1.6e12 parameters)"},
};

/* Parameters whose quantity is not the default of their unit. Names are
 * compared with '-' and '_' alike (a flag or a keyword); hardware CSV
 * columns by their names (`mem_gb`). */
static const struct {
  const char *name;
  rl_qty q;
} params[] = {
    {"mem", RL_QTY_MEMORY},          {"mem_gb", RL_QTY_MEMORY},       {"mem_bytes", RL_QTY_MEMORY},
    {"l2_mb", RL_QTY_MEMORY},        {"overhead", RL_QTY_LATENCY},    {"overhead_s", RL_QTY_LATENCY},
    {"launch_overhead", RL_QTY_LATENCY}, {"comm_latency", RL_QTY_LATENCY}, {"latency", RL_QTY_LATENCY},
    {"link_latency_us", RL_QTY_LATENCY}, {"link_latency", RL_QTY_LATENCY},
    {"layers", RL_QTY_DIM},          {"heads", RL_QTY_DIM},           {"kv_heads", RL_QTY_DIM},
    {"head_dim", RL_QTY_DIM},        {"d_model", RL_QTY_DIM},         {"d_ff", RL_QTY_DIM},
    {"vocab", RL_QTY_DIM},           {"experts", RL_QTY_DIM},         {"experts_active", RL_QTY_DIM},
    {"max_seq", RL_QTY_CONTEXT},     {"context", RL_QTY_CONTEXT},     {"prompt", RL_QTY_CONTEXT},
    {"compute_eff", RL_QTY_FRACTION}, {"bw_eff", RL_QTY_FRACTION},
    {"boost_ghz", RL_QTY_CLOCK},     {"boost_hz", RL_QTY_CLOCK},      {"ws", RL_QTY_WORKING_SET},
    {"flops", RL_QTY_WORK},          {"bytes", RL_QTY_WORK},
};

const rl_range *rl_range_get(rl_qty q) {
  return (int)q >= 0 && q < RL_QTY_KIND_COUNT ? &ranges[q] : NULL;
}

static int same_name(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (*a != *b && !((*a == '-' || *a == '_') && (*b == '-' || *b == '_'))) return 0;
  return *a == *b;
}

rl_qty rl_param_qty(const char *param, rl_unit unit) {
  if (param) {
    if (param[0] == '-' && param[1] == '-') param += 2;
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++)
      if (same_name(param, params[i].name)) return params[i].q;
  }
  switch (unit) {
  case RL_UNIT_SECONDS: return RL_QTY_TIME;
  case RL_UNIT_BYTES_S: return RL_QTY_BANDWIDTH;
  case RL_UNIT_FLOP_S: return RL_QTY_PEAK;
  case RL_UNIT_BYTES:
  case RL_UNIT_FLOP: return RL_QTY_WORK;
  default: return RL_QTY_COUNT;
  }
}

/* "1e21", "2.2e-300": %.4g without the exponent's '+' and leading zeros */
static void gfmt(char *b, size_t cap, double v) {
  char t[48];
  rli_snprintf(t, sizeof t, "%.4g", v);
  char *e = strchr(t, 'e');
  if (e) {
    char *p = e + 1, *q = e + 1;
    if (*p == '+') p++;
    if (*p == '-') *q++ = *p++;
    while (*p == '0' && p[1]) p++;
    memmove(q, p, strlen(p) + 1);
  }
  rli_snprintf(b, cap, "%s", t);
}

/* A bound or a value as the range's message prints it: with its unit and
 * a decimal prefix ("1 MB/s"; seconds from 1 ps to 1000 s), else %g with
 * its unit ("1e21 FLOP/s", "1e9 s"); a count in full below 10^7 and up to
 * 2^53 unless a power of ten ("16777216", "1e9"). */
static void fmt(char *b, size_t cap, double v, rl_unit u) {
  static const char *const unit[] = {"", "B", "B/s", "FLOP", "FLOP/s", "s", "FLOP/B"};
  double a = fabs(v);
  int tens = isfinite(v) && a >= 1e6 && pow(10, round(log10(a))) == a;
  if (u != RL_UNIT_COUNT && u != RL_UNIT_FLOP_PER_BYTE && isfinite(v) && v != 0 &&
      (u == RL_UNIT_SECONDS ? a >= 1e-12 && a < 1e3 : a >= 1 && a < 1e18 * 999.5)) {
    rl_format_quantity(v, u, b, cap);
  } else if (u != RL_UNIT_COUNT && (int)u >= 0 && u <= RL_UNIT_FLOP_PER_BYTE) {
    char n[40];
    gfmt(n, sizeof n, v);
    rli_snprintf(b, cap, "%s %s", n, unit[u]);
  } else if (v == floor(v) && a <= RL_MAX_COUNT && !tens) {
    rli_snprintf(b, cap, "%.0f", v);
  } else {
    gfmt(b, cap, v);
  }
}

/* the range in unit u (a work's FLOP or B; else the range's own) */
static size_t range_text(const rl_range *r, rl_qty q, rl_unit u, char *buf, size_t cap) {
  char lo[48], hi[48];
  fmt(lo, sizeof lo, r->min, u);
  fmt(hi, sizeof hi, r->max, u);
  if (q == RL_QTY_FRACTION) { /* a fraction reads as a percentage */
    rli_snprintf(lo, sizeof lo, "%g%%", 100 * r->min);
    rli_snprintf(hi, sizeof hi, "%g%%", 100 * r->max);
  }
  rli_out o;
  rli_out_init(&o, buf, cap);
  rli_out_printf(&o, "%s%s to %s", r->zero_ok && r->min > 0 ? "0 or " : "", lo, hi);
  return rli_out_end(&o);
}

size_t rl_range_text(rl_qty q, char *buf, size_t cap) {
  const rl_range *r = rl_range_get(q);
  if (!r) {
    if (cap) buf[0] = 0;
    return 0;
  }
  return range_text(r, q, r->unit, buf, cap);
}

static rl_status check(rl_qty q, rl_unit u, double v, const char *what, rl_error *err) {
  const rl_range *r = rl_range_get(q);
  if (!r) return rli_fail(err, RL_EINVAL, "unknown quantity %d", (int)q);
  if (v >= r->min && v <= r->max) return RL_OK;
  if (v == 0 && r->zero_ok) return RL_OK;
  char val[48], range[128];
  if (isnan(v))
    rli_snprintf(val, sizeof val, "NaN");
  else if (q == RL_QTY_FRACTION && isfinite(v))
    rli_snprintf(val, sizeof val, "%.4g (%.4g%%)", v, 100 * v);
  else
    fmt(val, sizeof val, v, u);
  range_text(r, q, u, range, sizeof range);
  return rli_fail(err, RL_ERANGE, "%s%s%s is outside the plausible range of %s %s: %s", what ? what : "",
                  what ? " " : "", val, strchr("aeiou", r->name[0]) ? "an" : "a", r->name, range);
}

rl_status rl_param_check(const char *param, rl_unit unit, double v, rl_error *err) {
  char what[80];
  if (param) {
    if (param[0] == '-' && param[1] == '-') param += 2;
    /* the parameter as the library's messages name one: `name`, spelled
     * by each client (rl_msg_spell: --name, name) */
    size_t k = 0;
    what[k++] = '`';
    for (const char *p = param; *p && k < sizeof what - 2; p++) what[k++] = *p == '-' ? '_' : *p;
    what[k++] = '`';
    what[k] = 0;
  }
  rl_qty q = rl_param_qty(param, unit);
  const rl_range *r = rl_range_get(q);
  /* a work's bounds in the parameter's own unit (FLOP, B) */
  rl_unit u = r && r->unit == RL_UNIT_COUNT && (unit == RL_UNIT_FLOP || unit == RL_UNIT_BYTES) ? unit
              : r ? r->unit : unit;
  return check(q, u, v, param ? what : NULL, err);
}

rl_status rl_range_check(rl_qty q, double v, const char *what, rl_error *err) {
  const rl_range *r = rl_range_get(q);
  return check(q, r ? r->unit : RL_UNIT_COUNT, v, what, err);
}
