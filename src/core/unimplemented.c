/* SPDX-License-Identifier: MIT */
/* unimplemented.c — one stderr line per API function that is called but not built yet. */
#include "core/unimplemented.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define CORE_MAX_REPORTED 64

static pthread_mutex_t reported_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *reported[CORE_MAX_REPORTED];
static unsigned reported_count;

void core_unimplemented(const char *name) {
  pthread_mutex_lock(&reported_lock);
  for (unsigned i = 0; i < reported_count; i++) {
    if (strcmp(reported[i], name) == 0) {
      pthread_mutex_unlock(&reported_lock);
      return;
    }
  }
  if (reported_count < CORE_MAX_REPORTED)
    reported[reported_count++] = name;
  pthread_mutex_unlock(&reported_lock);
  fprintf(stderr, "hsa-runtime64: %s is not implemented yet in this runtime; it returns an error "
                  "(HSA_STATUS_ERROR_NOT_INITIALIZED or 0).\n", name);
}
