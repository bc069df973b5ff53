/* SPDX-License-Identifier: MIT */
/* scratch_limit.c — hsa_amd_agent_set_async_scratch_limit: the size above which a GPU's
 * queues do not keep the scratch they grow (scratch.c makes such an allocation single-use,
 * USE_SCRATCH_ONCE, given back when the dispatch ends). Each GPU starts at ROCR's default
 * (140 MiB). Lowering it gives back, on every queue of the agent, kept scratch larger than
 * the new limit, once the queue has finished the packets it was given (a dispatch may be
 * using it: the call blocks until then, as ROCR documents). Raising it frees nothing. */
#include "aql/internal.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"

#include <time.h>

#define DEFAULT_LIMIT 146800640ull

static _Atomic uint64_t limits[CORE_MAX_GPUS];   /* 0: never set (the default) */

uint64_t aql_scratch_limit(const struct core_agent *gpu) {
  uint64_t v = gpu->gpu_index < CORE_MAX_GPUS ? atomic_load(&limits[gpu->gpu_index]) : 0;
  return v ? v - 1 : DEFAULT_LIMIT;
}

static void shrink(struct aql_queue *q, void *arg) {
  uint64_t limit = *(const uint64_t *)arg;
  if (q->kind != AQL_GPU) return;
  pthread_mutex_lock(&q->lock);
  bool over = q->scratch.base && !q->scratch.once && q->scratch.size > limit;
  pthread_mutex_unlock(&q->lock);
  if (!over) return;
  /* idle first: every packet written so far has been processed */
  amd_queue_t *amd = q->amd;
  struct timespec nap = {0, 50000};
  while (atomic_load(&q->active) &&
         __atomic_load_n(&amd->read_dispatch_id, __ATOMIC_ACQUIRE) <
             __atomic_load_n(&amd->write_dispatch_id, __ATOMIC_ACQUIRE))
    nanosleep(&nap, NULL);
  aql_scratch_reclaim(q);
}

hsa_status_t hsa_amd_agent_set_async_scratch_limit(hsa_agent_t agent, size_t threshold) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a || a->kind != CORE_AGENT_GPU) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (a->gpu_index >= CORE_MAX_GPUS) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint64_t limit = threshold;
  uint64_t old = aql_scratch_limit(a);
  atomic_store(&limits[a->gpu_index], limit == UINT64_MAX ? UINT64_MAX : limit + 1);
  if (limit < old) aql_for_each(a, shrink, &limit);
  return HSA_STATUS_SUCCESS;
}
