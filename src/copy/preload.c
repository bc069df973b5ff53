/* SPDX-License-Identifier: MIT */
/* preload.c — hsa_amd_agent_preload: what a GPU's first copies would set up, done now, so
 * the first ones are not slower: its SDMA queues (one per engine, made through KFD) and the
 * copy engines' workers for them. A CPU agent has nothing to set up (INVALID_AGENT, as ROCR
 * for an agent that is not a GPU). flags are reserved. */
#include "copy/internal.h"
#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/sdma.h"

hsa_status_t hsa_amd_agent_preload(hsa_agent_t agent, uint64_t flags) {
  (void)flags;
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a || a->kind != CORE_AGENT_GPU) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (a->gpu_index >= COPY_MAX_GPUS) return HSA_STATUS_ERROR_INVALID_AGENT;
  hsa_status_t st = mem_sdma_preload(a);
  for (unsigned k = 0; st == HSA_STATUS_SUCCESS && k < mem_sdma_queues(a); k++)
    st = copy_sdma_start(a, k);
  return st;
}
