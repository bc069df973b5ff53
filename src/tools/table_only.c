/* SPDX-License-Identifier: MIT */
/* table_only.c — the three functions ROCR offers to tools only through the AMD table of
 * hsa_api_trace.h (they are not exported): runtime queue notification and intercept queues.
 * An entry left NULL would crash a tool that calls it; these answer instead. */
#include <stdatomic.h>
#include <stddef.h>

#include "core/runtime.h"
#include "core/unimplemented.h"
#include "tools/tools.h"

/* The one notifier a tool may register (a second registration fails, as in ROCR). ROCR calls
 * it for the queues it creates for itself (blit kernels); this runtime creates none, so it is
 * kept and never called. */
static _Atomic(hsa_amd_runtime_queue_notifier) queue_notifier;
static void *_Atomic queue_notifier_data;

hsa_status_t hsa_amd_runtime_queue_create_register(hsa_amd_runtime_queue_notifier callback,
                                                   void *user_data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  hsa_amd_runtime_queue_notifier none = NULL;
  atomic_store_explicit(&queue_notifier_data, user_data, memory_order_relaxed);
  if (!atomic_compare_exchange_strong(&queue_notifier, &none, callback)) return HSA_STATUS_ERROR;
  return HSA_STATUS_SUCCESS;
}

void tools_table_only_reset(void) {
  atomic_store_explicit(&queue_notifier, NULL, memory_order_release);
}

/* Intercept queues are not implemented yet: arguments are checked as ROCR checks them. */
hsa_status_t hsa_amd_queue_intercept_create(
    hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
    void (*callback)(hsa_status_t status, hsa_queue_t *source, void *data), void *data,
    uint32_t private_segment_size, uint32_t group_segment_size, hsa_queue_t **queue) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!queue || size < 3) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  core_unimplemented("hsa_amd_queue_intercept_create");
  return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

hsa_status_t hsa_amd_queue_intercept_register(hsa_queue_t *queue,
                                              hsa_amd_queue_intercept_handler callback,
                                              void *user_data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* No queue is an intercept queue (none can be created yet). */
  return HSA_STATUS_ERROR_INVALID_QUEUE;
}
