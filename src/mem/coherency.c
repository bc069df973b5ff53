/* SPDX-License-Identifier: MIT */
/* coherency.c — hsa_amd_coherency_get/set_type. The type selects the cache policy of the
 * legacy APU aperture (KFD SET_MEMORY_POLICY); on gfx9 and later the kernel keeps no policy
 * but the alignment mode, so the runtime only remembers the choice per GPU. */
#include <stdatomic.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/internal.h"

/* 0 means "never set": coherent, the default. */
static _Atomic int types[MEM_MAX_GPUS];

hsa_status_t hsa_amd_coherency_get_type(hsa_agent_t agent, hsa_amd_coherency_type_t *type) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!type) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (a->kind != CORE_AGENT_GPU || a->gpu_index >= MEM_MAX_GPUS)
    return HSA_STATUS_ERROR_INVALID_AGENT;
  int t = atomic_load_explicit(&types[a->gpu_index], memory_order_relaxed);
  *type = t ? (hsa_amd_coherency_type_t)(t - 1) : HSA_AMD_COHERENCY_TYPE_COHERENT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_coherency_set_type(hsa_agent_t agent, hsa_amd_coherency_type_t type) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (type != HSA_AMD_COHERENCY_TYPE_COHERENT && type != HSA_AMD_COHERENCY_TYPE_NONCOHERENT)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (a->kind != CORE_AGENT_GPU || a->gpu_index >= MEM_MAX_GPUS)
    return HSA_STATUS_ERROR_INVALID_AGENT;
  atomic_store_explicit(&types[a->gpu_index], (int)type + 1, memory_order_relaxed);
  return HSA_STATUS_SUCCESS;
}

void mem_coherency_reset(void) {
  for (unsigned i = 0; i < MEM_MAX_GPUS; i++)
    atomic_store_explicit(&types[i], 0, memory_order_relaxed);
}
