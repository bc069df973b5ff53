/* SPDX-License-Identifier: MIT */
/* log.c — hsa_amd_enable_logging: the flags are a uint8_t[8] bit set of HSA_AMD_LOG_FLAG_*
 * (set with hsa_flag_set64), the file a FILE * (NULL: stderr). Each call replaces the
 * previous flags and file; all-zero flags turn logging off. What is logged: INFO, queues
 * made and destroyed (aql); SDMA, the copies put on an SDMA engine (copy); AQL, packets
 * the runtime writes into AQL queues itself (none today: this runtime has no blit kernels).
 * Lines are written whole under a lock and flushed, so they interleave cleanly. */
#include "core/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/runtime.h"
#include "hsa_ext_amd.h"

static _Atomic uint64_t flags;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *out;   /* NULL: stderr */

bool core_log_on(unsigned flag) {
  return flag < 64 && (atomic_load_explicit(&flags, memory_order_relaxed) >> flag & 1);
}

static const char *kind(unsigned flag) {
  switch (flag) {
  case HSA_AMD_LOG_FLAG_AQL: return "aql";
  case HSA_AMD_LOG_FLAG_SDMA: return "sdma";
  case HSA_AMD_LOG_FLAG_INFO: return "info";
  default: return "log";
  }
}

void core_log(unsigned flag, const char *fmt, ...) {
  if (!core_log_on(flag)) return;
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  pthread_mutex_lock(&lock);
  FILE *f = out ? out : stderr;
  fprintf(f, "hsa-runtime64: %s: %s\n", kind(flag), line);
  fflush(f);
  pthread_mutex_unlock(&lock);
}

hsa_status_t hsa_amd_enable_logging(uint8_t *flag_bytes, void *file) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!flag_bytes) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint64_t v = 0;
  for (unsigned i = 0; i < 8; i++) v |= (uint64_t)flag_bytes[i] << (8 * i);
  pthread_mutex_lock(&lock);
  out = file;
  atomic_store(&flags, v);
  pthread_mutex_unlock(&lock);
  return HSA_STATUS_SUCCESS;
}
