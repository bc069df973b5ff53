/* SPDX-License-Identifier: MIT */
/* soft.c — hsa_soft_queue_create: a queue that is only memory (an amd_queue_t and a ring in
 * the caller's region) and indices; the caller's own agent processes it and rings the
 * caller's doorbell signal. Argument checks and results as ROCR 5.2's. */
#include "aql/internal.h"
#include "core/runtime.h"
#include "mem/mem.h"
#include "signals/signal.h"

#include <stdlib.h>

static bool pow2(uint32_t v) { return v && !(v & (v - 1)); }

hsa_status_t hsa_soft_queue_create(hsa_region_t region, uint32_t size, hsa_queue_type32_t type,
                                   uint32_t features, hsa_signal_t doorbell_signal,
                                   hsa_queue_t **queue) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!queue || !region.handle || !doorbell_signal.handle || !pow2(size) ||
      type > HSA_QUEUE_TYPE_SINGLE || features == 0)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_region *r = core_region_from_handle(region.handle);
  if (!r) return HSA_STATUS_ERROR_INVALID_REGION;
  if (!sig_from_handle(doorbell_signal)) return HSA_STATUS_ERROR_INVALID_SIGNAL;

  struct aql_queue *q = calloc(1, sizeof(*q));
  if (!q) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  pthread_mutex_init(&q->lock, NULL);
  q->kind = AQL_SOFT;
  q->agent = r->owner;
  void *ring = NULL;
  if (mem_alloc(r, (size_t)size * 64, 0, &ring) != HSA_STATUS_SUCCESS || !ring) goto fail;
  for (uint32_t i = 0; i < size; i++)
    ((hsa_kernel_dispatch_packet_t *)ring)[i].header = HSA_PACKET_TYPE_INVALID;
  if (!(q->amd = aql_amd_queue_alloc(size, type, features, ring))) goto fail;
  q->ring = ring;
  q->amd->hsa_queue.doorbell_signal = doorbell_signal;
  atomic_store(&q->active, true);
  aql_register(q);
  *queue = aql_handle(q);
  return HSA_STATUS_SUCCESS;
fail:
  if (ring) mem_free(ring);
  pthread_mutex_destroy(&q->lock);
  free(q);
  return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

/* The ring of a soft queue is the user's region memory: freed with the queue. */
void aql_soft_queue_release(struct aql_queue *q) {
  if (q->ring) mem_free(q->ring);
  q->ring = NULL;
}
