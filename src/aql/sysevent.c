/* SPDX-License-Identifier: MIT */
/* sysevent.c — hsa_amd_register_system_event_handler: the application's handlers of GPU
 * memory faults. error.c's fault watch calls them with the faulting GPU, the page address and
 * the reasons the KFD gave (ROCR 5.2's mapping of the failure bits), before it reports the
 * fault to the GPU's queues. Unlike ROCR 5.2, which aborts the process when no handler takes
 * a fault, this runtime always goes on (error.c's policy). Handlers stay registered until
 * hsa_shut_down. */
#include "aql/internal.h"
#include "core/agent.h"
#include "core/runtime.h"

#include <pthread.h>
#include <string.h>

#define MAX_HANDLERS 64

struct handler {
  hsa_amd_system_event_callback_t fn;
  void *data;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct handler handlers[MAX_HANDLERS];
static unsigned count;

hsa_status_t HSA_API hsa_amd_register_system_event_handler(hsa_amd_system_event_callback_t callback,
                                                           void *data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_status_t st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  pthread_mutex_lock(&lock);
  if (count < MAX_HANDLERS) {
    handlers[count++] = (struct handler){callback, data};
    st = HSA_STATUS_SUCCESS;
  }
  pthread_mutex_unlock(&lock);
  return st;
}

void aql_sysevent_memory_fault(const struct core_agent *gpu, uint64_t va, bool not_present,
                               bool read_only, bool no_execute, bool imprecise) {
  hsa_amd_event_t e;
  memset(&e, 0, sizeof(e));
  e.event_type = HSA_AMD_GPU_MEMORY_FAULT_EVENT;
  if (gpu) e.memory_fault.agent = core_agent_handle(gpu);
  e.memory_fault.virtual_address = va;
  uint32_t m = 0;
  if (not_present) m |= HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT;
  if (read_only) m |= HSA_AMD_MEMORY_FAULT_READ_ONLY;
  if (no_execute) m |= HSA_AMD_MEMORY_FAULT_NX;
  if (imprecise) m |= HSA_AMD_MEMORY_FAULT_IMPRECISE;
  e.memory_fault.fault_reason_mask = m;
  struct handler copy[MAX_HANDLERS];
  pthread_mutex_lock(&lock);
  unsigned n = count;
  memcpy(copy, handlers, n * sizeof(copy[0]));
  pthread_mutex_unlock(&lock);
  for (unsigned i = 0; i < n; i++) copy[i].fn(&e, copy[i].data);   /* a status changes nothing */
}

void aql_sysevent_reset(void) {
  pthread_mutex_lock(&lock);
  count = 0;
  pthread_mutex_unlock(&lock);
}
