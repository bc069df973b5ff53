/* SPDX-License-Identifier: MIT */
/* signal_ops.c — cost of signal operations through the HSA API: store, load, add, cas, and a
 * wait on a signal whose condition already holds, on an interrupt signal (no consumers) and
 * a GPU-only (polled) one. Linked against libhsa-runtime64.so.1 only, so the same binary runs
 * on our runtime or on ROCR (pick with LD_LIBRARY_PATH) under hsa-sim. `--raw` measures the
 * same operations as plain C11 atomics on a 64-bit word: the floor any runtime pays.
 * Prints "name ops_per_second" lines (best of 5 runs of N operations each). */
#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hsa.h"
#include "hsa_ext_amd.h"

/* SIGNAL_OPS_N / SIGNAL_OPS_RUNS / SIGNAL_OPS_KIND (interrupt|gpu_only) shrink the run for
 * instruction counting under callgrind. */
static int N = 2000000, RUNS = 5;

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static hsa_signal_t sig;
static _Atomic int64_t word;
static volatile int64_t sink;

#define BODY(name, stmt)                                                  \
  static void name(void)                                                  \
  {                                                                       \
    for (int i = 0; i < N; i++) {                                         \
      stmt;                                                               \
    }                                                                     \
  }

BODY(api_store, hsa_signal_store_screlease(sig, i))
BODY(api_store_relaxed, hsa_signal_store_relaxed(sig, i))
BODY(api_load, sink = hsa_signal_load_scacquire(sig))
BODY(api_add, hsa_signal_add_scacq_screl(sig, 1))
BODY(api_cas, sink = hsa_signal_cas_scacq_screl(sig, i, i + 1))
BODY(api_wait, sink = hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_GTE, 0, UINT64_MAX,
                                                HSA_WAIT_STATE_ACTIVE))
BODY(raw_store, atomic_store_explicit(&word, i, memory_order_release))
BODY(raw_store_relaxed, atomic_store_explicit(&word, i, memory_order_relaxed))
BODY(raw_load, sink = atomic_load_explicit(&word, memory_order_acquire))
BODY(raw_add, atomic_fetch_add_explicit(&word, 1, memory_order_acq_rel))
BODY(raw_cas, {
  int64_t e = i;
  atomic_compare_exchange_strong_explicit(&word, &e, i + 1, memory_order_acq_rel,
                                          memory_order_acquire);
  sink = e;
})
BODY(raw_wait, sink = atomic_load_explicit(&word, memory_order_acquire) >= 0)

static double best(void (*fn)(void), void (*reset)(void))
{
  double b = 0;
  for (int r = 0; r < RUNS; r++) {
    reset();
    double t0 = now();
    fn();
    double dt = now() - t0;
    double ops = N / dt;
    if (ops > b)
      b = ops;
  }
  return b;
}

static void reset_sig(void) { hsa_signal_store_relaxed(sig, 0); }
static void reset_word(void) { atomic_store(&word, 0); }

struct op { const char *name; void (*api)(void), (*raw)(void); };
static const struct op ops[] = {
  {"store_screlease", api_store, raw_store},
  {"store_relaxed", api_store_relaxed, raw_store_relaxed},
  {"load_scacquire", api_load, raw_load},
  {"add_scacq_screl", api_add, raw_add},
  {"cas_scacq_screl", api_cas, raw_cas},
  {"wait_scacquire_set", api_wait, raw_wait},
};

int main(int argc, char **argv)
{
  bool raw = argc > 1 && strcmp(argv[1], "--raw") == 0;
  const char *e = getenv("SIGNAL_OPS_N"), *only = getenv("SIGNAL_OPS_KIND");
  if (e && atoi(e) > 0)
    N = atoi(e);
  if ((e = getenv("SIGNAL_OPS_RUNS")) && atoi(e) > 0)
    RUNS = atoi(e);
  if (raw) {
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
      printf("raw %s %.0f\n", ops[i].name, best(ops[i].raw, reset_word));
    return 0;
  }
  if (hsa_init() != HSA_STATUS_SUCCESS) {
    fprintf(stderr, "hsa_init failed\n");
    return 1;
  }
  const struct { const char *kind; uint64_t attr; } kinds[] = {
    {"interrupt", 0}, {"gpu_only", HSA_AMD_SIGNAL_AMD_GPU_ONLY}};
  for (size_t k = 0; k < 2; k++) {
    if (only && strcmp(only, kinds[k].kind) != 0)
      continue;
    if (hsa_amd_signal_create(0, 0, NULL, kinds[k].attr, &sig) != HSA_STATUS_SUCCESS) {
      fprintf(stderr, "signal create failed\n");
      return 1;
    }
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
      printf("%s %s %.0f\n", kinds[k].kind, ops[i].name, best(ops[i].api, reset_sig));
    hsa_signal_destroy(sig);
  }
  hsa_shut_down();
  return 0;
}
