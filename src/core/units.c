/*
 * units.c -- parse and print quantities with SI and IEC prefixes.
 *
 * Decimal (SI) prefixes k/K=1e3 M=1e6 G=1e9 T=1e12 P=1e15 E=1e18; binary
 * (IEC 80000-13) prefixes Ki=2^10 ... Pi=2^50; sub-unit prefixes m, u, µ, n
 * only for seconds. Printing is always decimal, with the unit, as the
 * project's standards require ("3.35 TB/s", "25 us").
 */
#include "core/internal.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *unit_text(rl_unit u) {
  switch (u) {
  case RL_UNIT_BYTES: return "B";
  case RL_UNIT_BYTES_S: return "B/s";
  case RL_UNIT_FLOP: return "FLOP";
  case RL_UNIT_FLOP_S: return "FLOP/s";
  case RL_UNIT_SECONDS: return "s";
  case RL_UNIT_FLOP_PER_BYTE: return "FLOP/B";
  case RL_UNIT_COUNT: return "";
  }
  return "";
}

/* Does the unit word `w` (after the prefix) denote `u`? */
static int unit_matches(const char *w, rl_unit u) {
  switch (u) {
  case RL_UNIT_BYTES: return strcmp(w, "B") == 0;
  case RL_UNIT_BYTES_S:
    return strcmp(w, "B/s") == 0 || strcmp(w, "Bps") == 0;
  case RL_UNIT_FLOP:
    return strcmp(w, "FLOP") == 0 || strcmp(w, "FLOPs") == 0 ||
           strcmp(w, "flop") == 0 || strcmp(w, "OP") == 0;
  case RL_UNIT_FLOP_S:
    return strcmp(w, "FLOP/s") == 0 || strcmp(w, "FLOPS") == 0 ||
           strcmp(w, "flop/s") == 0 || strcmp(w, "OPS") == 0 ||
           strcmp(w, "OP/s") == 0;
  case RL_UNIT_SECONDS: return strcmp(w, "s") == 0;
  case RL_UNIT_FLOP_PER_BYTE: return strcmp(w, "FLOP/B") == 0;
  case RL_UNIT_COUNT: return 0;
  }
  return 0;
}

/* Which unit does a word name, for the error message. */
static const char *guess_unit(const char *w) {
  static const rl_unit all[] = {RL_UNIT_BYTES, RL_UNIT_BYTES_S, RL_UNIT_FLOP,
                                RL_UNIT_FLOP_S, RL_UNIT_SECONDS};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    if (unit_matches(w, all[i])) return unit_text(all[i]);
  return NULL;
}

rl_status rl_parse_quantity(const char *text, rl_unit unit, double *out,
                            rl_error *err) {
  if (!text || !*text)
    return rli_fail(err, RL_EPARSE, "empty value where a number was expected");
  const char *p = text;
  while (isspace((unsigned char)*p)) p++;
  /* strtod accepts "nan", "inf" and hex floats: reject those first. */
  const char *q = p;
  if (*q == '+' || *q == '-') q++;
  if (!(isdigit((unsigned char)*q) || (*q == '.' && isdigit((unsigned char)q[1]))))
    return rli_fail(err, RL_EPARSE, "'%s' is not a number", text);
  if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
    return rli_fail(err, RL_EPARSE, "'%s': hexadecimal is not accepted", text);
  char *end = NULL;
  errno = 0;
  double v = strtod(p, &end);
  if (end == p) return rli_fail(err, RL_EPARSE, "'%s' is not a number", text);
  /* past a double (1e400): out of range; below the smallest normal double
   * (2.2e-308): out of range too, below (after the prefix) */
  if (!isfinite(v) || (errno == ERANGE && fabs(v) >= 1))
    return rli_fail(err, RL_ERANGE, "'%s' is out of range", text);
  const char *s = end;
  while (*s == ' ') s++;
  /* prefix */
  double mul = 1;
  int sub = 0; /* a sub-unit prefix (m, u, n): seconds only */
  if (*s) {
    char c = *s;
    int binary = s[1] == 'i';
    switch (c) {
    case 'k': case 'K': mul = binary ? 1024.0 : 1e3; break;
    case 'M': mul = binary ? 1048576.0 : 1e6; break;
    case 'G': mul = binary ? 1073741824.0 : 1e9; break;
    case 'T': mul = binary ? 1099511627776.0 : 1e12; break;
    case 'P': mul = binary ? 1125899906842624.0 : 1e15; break;
    case 'E': mul = binary ? 1152921504606846976.0 : 1e18; break;
    case 'm': mul = 1e-3; sub = 1; break;
    case 'u': mul = 1e-6; sub = 1; break;
    case 'n': mul = 1e-9; sub = 1; break;
    default: break;
    }
    if ((unsigned char)s[0] == 0xC2 && (unsigned char)s[1] == 0xB5) { /* µ */
      mul = 1e-6;
      sub = 1;
      s += 1; /* two bytes, one more below */
    }
    if (mul != 1) {
      const char *rest = s + 1 + (binary && !sub ? 1 : 0);
      /* A lone prefix letter that is really a unit ("s", "B") stays a unit:
       * only take the prefix when something valid follows. "m" alone is
       * not "milli" for counts. */
      if (sub) {
        if (unit != RL_UNIT_SECONDS || strcmp(rest, "s") != 0) {
          if (unit == RL_UNIT_SECONDS)
            return rli_fail(err, RL_EPARSE,
                            "'%s': a time needs a unit (s, ms, us, ns)", text);
          return rli_fail(err, RL_EPARSE, "'%s': unknown unit '%s'", text, s);
        }
      }
      s = rest;
    }
  }
  if (*s) {
    if (!unit_matches(s, unit)) {
      const char *g = guess_unit(s);
      if (g)
        return rli_fail(err, RL_EPARSE, "'%s' is in %s where %s was expected",
                        text, g, unit == RL_UNIT_COUNT ? "a plain number" : unit_text(unit));
      return rli_fail(err, RL_EPARSE, "'%s': unknown unit '%s'", text, s);
    }
  } else if (unit == RL_UNIT_SECONDS && mul != 1) {
    return rli_fail(err, RL_EPARSE, "'%s': a time needs a unit (s, ms, us, ns)", text);
  }
  double r = v * mul;
  /* A decimal prefix is a power of ten: read "66.9T" as the text 66.9e12,
   * rounded once (66900000000000), not 66.9 x 1e12 rounded twice. */
  int exp10 = 0;
  switch (mul == 1 ? 0 : (int)lround(log10(mul))) {
  case 3: case 6: case 9: case 12: case 15: case 18: case -3: case -6: case -9:
    exp10 = (int)lround(log10(mul));
    break;
  default: break;
  }
  if (exp10 && mul == pow(10, exp10) && (size_t)(end - p) < 64 && !memchr(p, 'e', (size_t)(end - p)) &&
      !memchr(p, 'E', (size_t)(end - p))) {
    char t[80];
    snprintf(t, sizeof t, "%.*se%d", (int)(end - p), p, exp10);
    r = strtod(t, NULL);
  }
  if (!isfinite(r)) return rli_fail(err, RL_ERANGE, "'%s' is out of range", text);
  /* not zero, yet below the smallest normal double (1e-400, 2.2e-308, 1e-300
   * ns; the number before its prefix too, 1e-310 kB): read as 0, or as a
   * subnormal held to fewer digits than written; either would be printed
   * as a number the text does not say */
  int zero = 1;
  for (const char *d = q; d < end && *d != 'e' && *d != 'E'; d++)
    if (*d >= '1' && *d <= '9') zero = 0;
  if (!zero && !(fabs(v) >= DBL_MIN && fabs(r) >= DBL_MIN)) return rli_fail(err, RL_ERANGE, "'%s' is out of range", text);
  /* a count above 2^53 - 1 would not be held (nor printed) exactly; nor
   * would bytes or FLOPs written out in full digits (9007199254740993 B
   * would print as ...992), while 1e16 B and 10 PB say they are round */
  int digits_only = 1;
  for (const char *d = q; d < end; d++)
    if (!isdigit((unsigned char)*d)) digits_only = 0;
  if ((unit == RL_UNIT_COUNT || ((unit == RL_UNIT_BYTES || unit == RL_UNIT_FLOP) && digits_only && mul == 1)) &&
      fabs(r) > RL_MAX_COUNT)
    return rli_fail(err, RL_ERANGE, "'%s' is too large (at most %.0f = 2^53 - 1)", text, RL_MAX_COUNT);
  *out = r;
  return RL_OK;
}

size_t rl_format_quantity(double value, rl_unit unit, char *buf, size_t cap) {
  rli_out o;
  rli_out_init(&o, buf, cap);
  const char *u = unit_text(unit);
  if (isnan(value)) {
    rli_out_printf(&o, "n/a");
    return rli_out_end(&o);
  }
  if (isinf(value)) {
    rli_out_printf(&o, "%sinf%s%s", value < 0 ? "-" : "", *u ? " " : "", u);
    return rli_out_end(&o);
  }
  static const struct { double f; const char *p; } big[] = {
      {1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  static const struct { double f; const char *p; } small[] = {
      {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"}};
  double a = fabs(value);
  double f = 1;
  const char *p = "";
  if (unit == RL_UNIT_FLOP_PER_BYTE) {
    /* intensities read best as plain numbers */
  } else if (a >= 1e3) {
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
      if (a >= big[i].f * 0.99995) { f = big[i].f; p = big[i].p; break; }
  } else if (unit == RL_UNIT_SECONDS && a > 0 && a < 1) {
    for (size_t i = 0; i < sizeof small / sizeof small[0]; i++)
      if (a >= small[i].f * 0.99995) { f = small[i].f; p = small[i].p; break; }
    if (!*p) { f = 1e-12; p = "p"; }
  }
  double x = value / f;
  char num[64];
  double ax = fabs(x);
  if (ax == 0)
    snprintf(num, sizeof num, "0");
  else if (ax >= 1e6 || ax < 1e-3)
    snprintf(num, sizeof num, "%.4g", x);
  else if (ax >= 1000)
    snprintf(num, sizeof num, "%.0f", x);
  else
    snprintf(num, sizeof num, "%.4g", x);
  if (*u || *p)
    rli_out_printf(&o, "%s %s%s", num, p, u);
  else
    rli_out_printf(&o, "%s", num);
  return rli_out_end(&o);
}

rl_status rl_parse_tokens(const char *text, double *out, rl_error *err) {
  double v;
  TRY(rl_parse_quantity(text, RL_UNIT_COUNT, &v, err));
  /* rl_parse_quantity took the whole text: its prefix follows the number */
  char *end = NULL;
  strtod(text, &end);
  const char *p = end;
  while (*p == ' ') p++;
  static const char dec[] = "kKMGTPE";
  const char *k = *p ? strchr(dec, *p) : NULL;
  if (k && p[1] != 'i') {
    int i = (int)(k - dec) - (k > dec); /* k and K: 10^3 */
    double n = v / pow(1e3, i + 1), bin = n * pow(1024.0, i + 1);
    return rli_fail(err, RL_EPARSE, "'%s' is ambiguous for tokens: write %.17g (%.15g%ci) or %.17g", text, bin, n,
                    *p == 'k' ? 'K' : *p, v);
  }
  *out = v;
  return RL_OK;
}
