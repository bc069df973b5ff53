/* SPDX-License-Identifier: MIT */
/* vmem.c — hsa_amd_vmem_*: virtual memory management (reserve an address range, create
 * physical memory handles, map them into the range). ROCR offers it from KFD interface 1.15
 * on, since mapping one allocation at an address chosen later needs it exported as a
 * dma-buf and mapped through the render node's GEM VA interface. KFD 1.11 (the interface
 * <linux/kfd_ioctl.h> here describes) has neither, so, as ROCR on such a kernel, reserving an
 * address range and creating a handle are refused as unsupported (INVALID_ARGUMENT), and
 * the calls that name a range or handle find none. Arguments are checked in ROCR's order. */
#include <stdio.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/internal.h"

static void tell(void) {
  fprintf(stderr, "hsa-runtime64: the virtual memory API (hsa_amd_vmem_*) needs KFD interface "
                  "1.15 or later; this runtime speaks 1.11, so it is unavailable.\n");
}

static hsa_status_t unsupported(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, tell);
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_amd_vmem_address_reserve_align(void **va, size_t size, uint64_t address,
                                                uint64_t alignment, uint64_t flags) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return unsupported();
}

hsa_status_t hsa_amd_vmem_address_reserve(void **va, size_t size, uint64_t address,
                                          uint64_t flags) {
  return hsa_amd_vmem_address_reserve_align(va, size, address, 0, flags);
}

hsa_status_t hsa_amd_vmem_address_free(void *va, size_t size) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!va || size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_ERROR_INVALID_ALLOCATION;   /* no range was ever reserved */
}

hsa_status_t hsa_amd_vmem_handle_create(hsa_amd_memory_pool_t pool, size_t size,
                                        hsa_amd_memory_type_t type, uint64_t flags,
                                        hsa_amd_vmem_alloc_handle_t *memory_handle) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return unsupported();
}

hsa_status_t hsa_amd_vmem_handle_release(hsa_amd_vmem_alloc_handle_t memory_handle) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return HSA_STATUS_ERROR_INVALID_ALLOCATION;
}

hsa_status_t hsa_amd_vmem_map(void *va, size_t size, size_t in_offset,
                              hsa_amd_vmem_alloc_handle_t memory_handle, uint64_t flags) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  /* No reserved range holds va (ROCR's answer for that is a bad argument). */
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_amd_vmem_unmap(void *va, size_t size) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!va || size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_ERROR_INVALID_ALLOCATION;
}

hsa_status_t hsa_amd_vmem_set_access(void *va, size_t size,
                                     const hsa_amd_memory_access_desc_t *desc, size_t desc_cnt) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!va || size == 0 || !desc || desc_cnt == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (size_t i = 0; i < desc_cnt; i++)
    if (!core_agent_from_handle(desc[i].agent_handle)) return HSA_STATUS_ERROR_INVALID_AGENT;
  return HSA_STATUS_ERROR_INVALID_ALLOCATION;
}

hsa_status_t hsa_amd_vmem_get_access(void *va, hsa_access_permission_t *perms,
                                     hsa_agent_t agent_handle) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!va || !perms) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_ERROR_INVALID_ALLOCATION;
}

hsa_status_t hsa_amd_vmem_export_shareable_handle(int *dmabuf_fd,
                                                  hsa_amd_vmem_alloc_handle_t handle,
                                                  uint64_t flags) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!dmabuf_fd) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_ERROR_INVALID_ALLOCATION;
}

hsa_status_t hsa_amd_vmem_import_shareable_handle(int dmabuf_fd,
                                                  hsa_amd_vmem_alloc_handle_t *handle) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!handle || dmabuf_fd < 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return unsupported();
}

hsa_status_t hsa_amd_vmem_retain_alloc_handle(hsa_amd_vmem_alloc_handle_t *memory_handle,
                                              void *addr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!addr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_ERROR_INVALID_ALLOCATION;
}

hsa_status_t hsa_amd_vmem_get_alloc_properties_from_handle(
    hsa_amd_vmem_alloc_handle_t memory_handle, hsa_amd_memory_pool_t *pool,
    hsa_amd_memory_type_t *type) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!pool || !type) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_ERROR_INVALID_ALLOCATION;
}
