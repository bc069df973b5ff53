/* SPDX-License-Identifier: MIT */
/* quarantine.c — a FIFO of blocks whose free is put off (see quarantine.h). */
#include "core/quarantine.h"

#include <pthread.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  void *p;
  size_t bytes;
} fifo[CORE_QUARANTINE_BLOCKS];
static unsigned head, len;
static size_t held;

void core_free_later(void *p, size_t bytes) {
  if (!p) return;
  void *out[CORE_QUARANTINE_BLOCKS];
  unsigned n = 0;
  pthread_mutex_lock(&lock);
  while (len && (len == CORE_QUARANTINE_BLOCKS || held + bytes > CORE_QUARANTINE_BYTES)) {
    out[n++] = fifo[head].p;
    held -= fifo[head].bytes;
    head = (head + 1) % CORE_QUARANTINE_BLOCKS;
    len--;
  }
  if (bytes <= CORE_QUARANTINE_BYTES) {
    fifo[(head + len) % CORE_QUARANTINE_BLOCKS].p = p;
    fifo[(head + len) % CORE_QUARANTINE_BLOCKS].bytes = bytes;
    len++;
    held += bytes;
    p = NULL;
  }
  pthread_mutex_unlock(&lock);
  for (unsigned i = 0; i < n; i++) free(out[i]);
  free(p);   /* larger than the whole budget: freed at once */
}
