/*
 * fuzz_trace.c -- libFuzzer harness for the trace readers. Built three
 * times by bench/fuzz (its runner), with FUZZ_FORMAT = RL_TRACE_KINETO, RL_TRACE_NCU or
 * RL_TRACE_NSYS. Every input must end in RL_OK or an error whose one-line
 * message names the input; an accepted trace is analysed and printed as
 * JSON, which must hold no NaN or infinity. ASan and UBSan do the rest.
 */
#include "roofline.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_FORMAT
#define FUZZ_FORMAT RL_TRACE_KINETO
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rl_trace *t = rl_trace_new(-1);
  if (!t) return 0;
  rl_error e;
  e.msg[0] = 0;
  rl_status st = rl_trace_read_buffer(t, data, size, FUZZ_FORMAT, "fuzz", &e);
  if (st != RL_OK) {
    if (!strstr(e.msg, "fuzz") || strchr(e.msg, '\n')) abort();
  } else {
    rl_hw hw;
    if (rl_hw_find("h100", NULL, 0, &hw, &e) != RL_OK) abort();
    rl_trace_summary s;
    if (rl_trace_analyze(t, &hw, &s, &e) == RL_OK) {
      size_t n = rl_trace_json(t, &hw, &s, 0, NULL, 0);
      char *buf = malloc(n + 1);
      if (buf) {
        rl_trace_json(t, &hw, &s, 0, buf, n + 1);
        if (bad_number(buf)) abort();
        free(buf);
      }
    }
  }
  rl_trace_free(t);
  return 0;
}
