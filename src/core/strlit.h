/*
 * strlit.h -- string literals measured by the compiler, not by hand (a
 * non-literal argument does not compile). Shared by the library
 * (core/internal.h), the CLI and the tests.
 *
 * RLI_LEN("abc") is 3; RLI_EQ(s, n, "abc"): the n bytes at s are "abc";
 * RLI_PREFIX(s, n, "abc"): the n bytes at s begin with it; RLI_ENDS(s, n,
 * "abc"): they end with it; RLI_STARTS(s, "abc"): the NUL-terminated s
 * begins with it.
 */
#ifndef RL_STRLIT_H
#define RL_STRLIT_H

#include <string.h>

#define RLI_LEN(lit) (sizeof("" lit "") - 1)
#define RLI_EQ(s, n, lit) ((n) == RLI_LEN(lit) && memcmp((s), "" lit "", RLI_LEN(lit)) == 0)
#define RLI_PREFIX(s, n, lit) ((n) >= RLI_LEN(lit) && memcmp((s), "" lit "", RLI_LEN(lit)) == 0)
#define RLI_ENDS(s, n, lit) \
  ((n) >= RLI_LEN(lit) && memcmp((s) + (n) - RLI_LEN(lit), "" lit "", RLI_LEN(lit)) == 0)
#define RLI_STARTS(s, lit) (strncmp((s), "" lit "", RLI_LEN(lit)) == 0)

#endif
