/* SPDX-License-Identifier: MIT */
/* access.c — hsa_amd_agents_allow_access: after it, exactly the listed GPUs (plus the owner of
 * device memory) map the allocation, as libhsakmt's map-to-nodes leaves it. An allocation that
 * shares its buffer object with others (sub-allocated) only gains GPUs: taking a mapping away
 * would take it from its neighbours too (ROCR makes fragment access sticky the same way). */
#include "core/agent.h"
#include "core/region.h"
#include "core/runtime.h"
#include "kfd/memory.h"
#include "mem/internal.h"

hsa_status_t hsa_amd_agents_allow_access(uint32_t num_agents, const hsa_agent_t *agents,
                                         const uint32_t *flags, const void *ptr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (num_agents == 0 || !agents || flags || !ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint64_t want = 0;
  for (uint32_t i = 0; i < num_agents; i++) {
    const struct core_agent *a = core_agent_from_handle(agents[i]);
    if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
    if (a->kind == CORE_AGENT_GPU) {
      if (!(mem_all_gpus() & (1ull << a->gpu_index))) return HSA_STATUS_ERROR_INVALID_AGENT;
      want |= 1ull << a->gpu_index;
    }
  }
  hsa_status_t st = HSA_STATUS_SUCCESS;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find_base((uintptr_t)ptr);
  if (!r || r->kind != MEM_KIND_USER) {
    st = HSA_STATUS_ERROR;   /* ROCR: not the start of an allocation of the runtime */
    goto out;
  }
  if (r->device) want |= 1ull << r->owner->gpu_index;
  if (r->chunk) {
    st = mem_bo_map(r->bo, want);
    if (st == HSA_STATUS_SUCCESS) r->access |= want;
    goto out;
  }
  uint64_t drop = r->bo->mapped & ~want;
  if (drop && r->bo->alloc_gpu) {
    uint32_t ids[MEM_MAX_GPUS], n = 0;
    for (uint64_t m = drop; m; m &= m - 1) {
      const struct core_agent *g = mem_gpu((unsigned)__builtin_ctzll(m));
      if (g) ids[n++] = g->gpu_id;
    }
    if (kfd_mem_unmap(&core_rt()->kfd, r->bo->handle, ids, n) != 0) {
      st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      goto out;
    }
    r->bo->mapped &= ~drop;
  }
  st = mem_bo_map(r->bo, want);
  if (st == HSA_STATUS_SUCCESS) r->access = want;
out:
  pthread_mutex_unlock(&mem_mutex);
  return st;
}
