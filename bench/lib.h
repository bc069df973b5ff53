/* SPDX-License-Identifier: MIT */
/* lib.h — what the benchmark programs share: a monotonic clock in microseconds and a "Vm...:"
 * figure of /proc/self/status. Header-only: each bench program is one file compiled alone. */
#ifndef BENCH_LIB_H
#define BENCH_LIB_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* A "Vm...:" line of /proc/self/status in KiB, or -1. */
static inline long status_kib(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long v = -1;
  size_t n = strlen(key);
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, key, n) && line[n] == ':') {
      v = strtol(line + n + 1, NULL, 10);
      break;
    }
  fclose(f);
  return v;
}

#endif
