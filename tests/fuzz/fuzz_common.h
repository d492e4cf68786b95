/* fuzz_common.h -- what the fuzz harnesses share. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H
#include <string.h>

#include "core/strlit.h"

/* 1 when "nan" or "inf" appears outside the JSON strings (names may hold
 * any text; numbers may not). */
static int bad_number(const char *j) {
  int in = 0;
  for (const char *p = j; *p; p++) {
    if (in) {
      if (*p == '\\' && p[1]) p++;
      else if (*p == '"') in = 0;
      continue;
    }
    if (*p == '"') { in = 1; continue; }
    if (RLI_STARTS(p, "nan") || RLI_STARTS(p, "inf")) return 1;
  }
  return 0;
}
#endif
