/* SPDX-License-Identifier: MIT */
/* api_alloc.c — hsa_memory_allocate/free, hsa_amd_memory_pool_allocate/free, and the
 * placement calls ROCR answers without moving anything (assign_agent, can_migrate, migrate).
 * Statuses as ROCR 5.2.3 gives them. hsa_memory_allocate maps system memory on every GPU;
 * a pool allocation is "restricted" as in ROCR: system memory reaches no GPU and device
 * memory only its own until hsa_amd_agents_allow_access. */
#include "core/agent.h"
#include "core/region.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/internal.h"
#include "mem/mem.h"

hsa_status_t hsa_memory_allocate(hsa_region_t region, size_t size, void **ptr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (size == 0 || !ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_region *r = core_region_from_handle(region.handle);
  if (!r) return HSA_STATUS_ERROR_INVALID_REGION;
  return mem_alloc(r, size, 0, ptr);
}

hsa_status_t hsa_memory_free(void *ptr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return mem_free(ptr);
}

#define POOL_FLAGS_KNOWN                                                                   \
  (HSA_AMD_MEMORY_POOL_PCIE_FLAG | HSA_AMD_MEMORY_POOL_CONTIGUOUS_FLAG |                   \
   HSA_AMD_MEMORY_POOL_EXECUTABLE_FLAG)

hsa_status_t hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t memory_pool, size_t size,
                                          uint32_t flags, void **ptr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  /* ROCR 5.2 takes no flag; later ROCR defined these three, which we honour. */
  if (size == 0 || !ptr || (flags & ~(uint32_t)POOL_FLAGS_KNOWN))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_region *r = core_region_from_handle(memory_pool.handle);
  if (!r) return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
  uint64_t gpus = core_region_is_local(r) ? 1ull << r->owner->gpu_index : 0;
  return mem_user_alloc(r, size, flags, gpus, ptr);
}

hsa_status_t hsa_amd_memory_pool_free(void *ptr) { return hsa_memory_free(ptr); }

hsa_status_t hsa_memory_assign_agent(void *ptr, hsa_agent_t agent,
                                     hsa_access_permission_t access) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!ptr || access < HSA_ACCESS_PERMISSION_RO || access > HSA_ACCESS_PERMISSION_RW)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!core_agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  /* Ownership does not move memory on a discrete GPU: nothing to do, as in ROCR. */
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_pool_can_migrate(hsa_amd_memory_pool_t src_memory_pool,
                                             hsa_amd_memory_pool_t dst_memory_pool,
                                             bool *result) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!result) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!core_region_from_handle(src_memory_pool.handle) ||
      !core_region_from_handle(dst_memory_pool.handle))
    return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
  /* No migration between pools (ROCR neither): false, and the status ROCR gives. */
  *result = false;
  return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

hsa_status_t hsa_amd_memory_migrate(const void *ptr, hsa_amd_memory_pool_t memory_pool,
                                    uint32_t flags) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!ptr || flags != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!core_region_from_handle(memory_pool.handle))
    return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
  return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}
