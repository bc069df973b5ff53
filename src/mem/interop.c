/* SPDX-License-Identifier: MIT */
/* interop.c — hsa_amd_interop_map_buffer/unmap_buffer: a graphics buffer (GL/VK) exported as
 * a dma-buf is imported into the GPUs' address space through KFD, as ROCR does (import.c): it
 * becomes a record of the allocation table, device memory of its GPU, so copies and pointer
 * info on it work like on any allocation. A descriptor that is not a dma-buf fails
 * GET_DMABUF_INFO, and ROCR answers HSA_STATUS_ERROR; a failed mapping is OUT_OF_RESOURCES.
 * Unmapping always succeeds (ROCR ignores what it cannot undo). */
#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/internal.h"

hsa_status_t hsa_amd_interop_map_buffer(uint32_t num_agents, hsa_agent_t *agents,
                                        int interop_handle, uint32_t flags, size_t *size,
                                        void **ptr, size_t *metadata_size,
                                        const void **metadata) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!agents || !size || !ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (flags != 0 || num_agents == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint64_t gpus = 0;
  for (uint32_t i = 0; i < num_agents; i++) {
    const struct core_agent *a = core_agent_from_handle(agents[i]);
    if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
    if (a->kind == CORE_AGENT_GPU) gpus |= 1ull << a->gpu_index;
  }
  struct mem_rec *r;
  uint64_t bytes;
  hsa_status_t st = mem_import_dmabuf(interop_handle, gpus, 0, 0, HSA_EXT_POINTER_TYPE_GRAPHICS,
                                      true, &r, &bytes);
  if (st != HSA_STATUS_SUCCESS) return st;
  *size = bytes;
  *ptr = (void *)r->base;
  if (metadata_size) *metadata_size = r->meta_size;
  if (metadata) *metadata = r->meta;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_interop_unmap_buffer(void *ptr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (ptr) mem_import_release(ptr, HSA_EXT_POINTER_TYPE_GRAPHICS);
  return HSA_STATUS_SUCCESS;
}
