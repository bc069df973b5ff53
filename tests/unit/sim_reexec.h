/* SPDX-License-Identifier: MIT */
/* sim_reexec.h — a runtime unit test that needs the driver model runs itself again under
 * build/bin/hsa-sim (found next to the test: BUILD/tests/unit/X -> BUILD/bin/hsa-sim).
 * SIM_REEXEC("--gpus", "2") in the test file adds the launcher options. Missing hsa-sim is
 * a failure, not a skip. Under the sanitizer build the preloaded simulator would not come
 * first in the library list, so ASan is told not to insist. */
#ifndef TESTS_UNIT_SIM_REEXEC_H
#define TESTS_UNIT_SIM_REEXEC_H

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline void sim_reexec(const char *const *opts, size_t nopts) {
  const char *pre = getenv("LD_PRELOAD");
  if (pre && strstr(pre, "libhsa-sim")) return;
  char self[PATH_MAX], dir[PATH_MAX], sim[PATH_MAX + 32];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) {
    perror("readlink /proc/self/exe");
    exit(1);
  }
  self[n] = 0;
  snprintf(dir, sizeof(dir), "%s", self);
  snprintf(sim, sizeof(sim), "%s/../../bin/hsa-sim", dirname(dir));
  if (access(sim, X_OK) != 0) {
    fprintf(stderr, "%s: hsa-sim not found at %s (build it: make)\n", self, sim);
    exit(1);
  }
  if (getenv("HSA_TEST_SANITIZED")) {
    const char *old = getenv("ASAN_OPTIONS");
    char opts_env[512];
    snprintf(opts_env, sizeof(opts_env), "%s%sverify_asan_link_order=0", old ? old : "",
             old && *old ? ":" : "");
    setenv("ASAN_OPTIONS", opts_env, 1);
  }
  const char *argv[16];
  size_t k = 0;
  argv[k++] = sim;
  for (size_t i = 0; i < nopts && k < 12; i++) argv[k++] = opts[i];
  argv[k++] = "--";
  argv[k++] = self;
  argv[k] = NULL;
  execv(sim, (char *const *)argv);
  perror("execv hsa-sim");
  exit(1);
}

#define SIM_REEXEC(...)                                                                  \
  __attribute__((constructor)) static void sim_reexec_ctor(void) {                       \
    static const char *const opts[] = {__VA_ARGS__};                                     \
    sim_reexec(opts, sizeof(opts) / sizeof(opts[0]));                                    \
  }

#endif
