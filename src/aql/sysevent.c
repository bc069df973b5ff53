/* SPDX-License-Identifier: MIT */
/* sysevent.c — hsa_amd_register_system_event_handler: callbacks told of the GPU events the
 * fault watch (error.c) takes from the kernel's memory and hardware exception events, as ROCR
 * does: a memory access fault (HSA_AMD_GPU_MEMORY_FAULT_EVENT: the agent, the address and the
 * reasons as a mask of hsa_amd_memory_fault_reason_t) and a GPU reset
 * (HSA_AMD_GPU_HW_EXCEPTION_EVENT: reset type and cause). Every handler registered is called,
 * in order, from the watch's thread; when one returns HSA_STATUS_SUCCESS the event counts as
 * handled and the runtime prints no message of its own (the queues are stopped and told
 * either way). Handlers are the runtime's until hsa_shut_down. */
#include "aql/internal.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"

#include <pthread.h>
#include <stdlib.h>

struct handler {
  hsa_amd_system_event_callback_t fn;
  void *data;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct handler *handlers;
static size_t count, cap;

hsa_status_t hsa_amd_register_system_event_handler(hsa_amd_system_event_callback_t callback,
                                                   void *data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  pthread_mutex_lock(&lock);
  if (count == cap) {
    size_t ncap = cap ? cap * 2 : 4;
    struct handler *n = realloc(handlers, ncap * sizeof(*n));
    if (n) {
      handlers = n;
      cap = ncap;
    }
  }
  if (count < cap) handlers[count++] = (struct handler){callback, data};
  else st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  pthread_mutex_unlock(&lock);
  return st;
}

bool aql_system_event(const hsa_amd_event_t *e) {
  /* a copy, so handlers may register more handlers */
  pthread_mutex_lock(&lock);
  size_t n = count;
  struct handler *h = n ? malloc(n * sizeof(*h)) : NULL;
  for (size_t i = 0; h && i < n; i++) h[i] = handlers[i];
  pthread_mutex_unlock(&lock);
  bool handled = false;
  for (size_t i = 0; h && i < n; i++)
    if (h[i].fn(e, h[i].data) == HSA_STATUS_SUCCESS) handled = true;
  free(h);
  return handled;
}

void aql_system_events_reset(void) {
  pthread_mutex_lock(&lock);
  free(handlers);
  handlers = NULL;
  count = cap = 0;
  pthread_mutex_unlock(&lock);
}
