/* SPDX-License-Identifier: MIT */
/* ipc.c — hsa_amd_ipc_memory_create/attach/detach: an allocation shared with another process
 * through a dma-buf of its buffer object (KFD EXPORT_DMABUF, interface 1.12 on), as ROCR does
 * it. The handle says where to ask, not what to import (a descriptor cannot travel in it):
 *   dword 0, 1  the exported address (low, high): the key the exporter serves it under
 *   dword 2     the exporting process's id (its socket's name, ipc_sock.c)
 *   dword 3     1 for system memory, 0 for device memory
 *   dword 4     the owner's HSA node id
 *   dword 6     bit 31: the allocation is part of a larger buffer object (a sub-allocation),
 *               bits 8:0 its offset in it in pages
 * Attaching fetches a fresh dma-buf from the exporter, imports it (import.c: a record of the
 * table, device memory of its GPU) and returns the address of the allocation inside it.
 * ROCR's statuses: create takes only the start and whole size of an allocation
 * (INVALID_ARGUMENT otherwise, also for system sub-allocations), and the kernel refusing the
 * export is HSA_STATUS_ERROR. System memory is user pages (a userptr object), which no kernel
 * exports: a whole system allocation is first moved into a GTT object at the same address
 * (bo.c), as libhsakmt allocates non-paged host memory, so it can be shared (ROCR with its
 * default paged host memory fails there instead); the importer maps it for the CPU as well;
 * a handle nobody serves (exporter gone, another boot) is INVALID_ARGUMENT on attach; a failed
 * mapping OUT_OF_RESOURCES; detach of anything but an attached address INVALID_ARGUMENT.
 * Below KFD 1.12 the kernel cannot export: create fails with a message, as before. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "kfd/memory.h"
#include "mem/internal.h"

#define FRAG_BIT 0x80000000u
#define FRAG_PAGES 0x1ffu
#define MAX_LEN 0x7FFFFFFF000ull   /* ROCR's limit on a shared size */

static void tell(void) {
  fprintf(stderr, "hsa-runtime64: IPC memory handles need dma-buf export of KFD memory "
                  "(interface 1.12 or later); this kernel speaks %u.%u, so "
                  "hsa_amd_ipc_memory_create fails.\n",
          core_rt()->kfd.major, core_rt()->kfd.minor);
}

static void tell_userptr(void) {
  fprintf(stderr, "hsa-runtime64: this system memory could not be moved into a GTT object, "
                  "which IPC needs (the kernel exports no user pages); "
                  "hsa_amd_ipc_memory_create fails.\n");
}

hsa_status_t hsa_amd_ipc_memory_create(void *ptr, size_t len, hsa_amd_ipc_memory_t *handle) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!ptr || !handle || len > MAX_LEN) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  memset(handle, 0, sizeof(*handle));
  const struct kfd_device *dev = &core_rt()->kfd;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find_base((uintptr_t)ptr);
  bool ours = r && r->kind == MEM_KIND_USER && len == r->size;
  uint64_t bo_handle = 0, frag = 0;
  bool device = false, sub = false;
  uint32_t node = 0;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (ours) {
    struct mem_bo *bo = r->chunk ? mem_chunk_bo(r->chunk) : r->bo;
    frag = ((uintptr_t)ptr - (uintptr_t)bo->va) / MEM_PAGE;
    sub = r->chunk != NULL || frag != 0;
    device = r->device;
    node = r->owner->node_id;
    /* user pages cannot be exported: a whole system allocation becomes a GTT object */
    if (!device && !sub && kfd_has_dmabuf_export(dev) && (bo->kfd_flags & KFD_MEM_USERPTR))
      st = mem_bo_to_gtt(bo);
    bo_handle = bo->handle;
  }
  pthread_mutex_unlock(&mem_mutex);
  if (!ours || (sub && !device) || frag > FRAG_PAGES) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!kfd_has_dmabuf_export(dev)) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, tell);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  if (st != HSA_STATUS_SUCCESS) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, tell_userptr);
    return HSA_STATUS_ERROR;
  }
  /* Export once now, as ROCR does: what the kernel refuses fails here, not on attach. */
  int fd = -1;
  int rc = kfd_dmabuf_export(dev, bo_handle, &fd);
  if (rc) {
    kfd_report("AMDKFD_IOC_EXPORT_DMABUF", rc);
    return HSA_STATUS_ERROR;
  }
  close(fd);
  if (mem_ipc_serve((uintptr_t)ptr) != 0) return HSA_STATUS_ERROR;
  handle->handle[0] = (uint32_t)(uintptr_t)ptr;
  handle->handle[1] = (uint32_t)((uint64_t)(uintptr_t)ptr >> 32);
  handle->handle[2] = (uint32_t)getpid();
  handle->handle[3] = !device;
  handle->handle[4] = node;
  if (sub) handle->handle[6] = FRAG_BIT | (uint32_t)frag;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_ipc_memory_attach(const hsa_amd_ipc_memory_t *handle, size_t len,
                                       uint32_t num_agents, const hsa_agent_t *mapping_agents,
                                       void **mapped_ptr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!mapped_ptr || !handle || (num_agents && !mapping_agents))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint64_t gpus = 0;
  for (uint32_t i = 0; i < num_agents; i++) {
    const struct core_agent *a = core_agent_from_handle(mapping_agents[i]);
    if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
    if (a->kind == CORE_AGENT_GPU) gpus |= 1ull << a->gpu_index;
  }
  if (num_agents == 0) gpus = mem_all_gpus();
  if (!kfd_has_dmabuf_export(&core_rt()->kfd)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const uint32_t *h = handle->handle;
  uint64_t key = (uint64_t)h[1] << 32 | h[0];
  uint64_t off = (h[6] & FRAG_BIT) ? (uint64_t)(h[6] & FRAG_PAGES) * MEM_PAGE : 0;
  if (key == 0 || h[2] == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  int sock = -1;
  int fd = mem_ipc_fetch(h[2], key, &sock);
  if (fd < 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct mem_rec *r;
  hsa_status_t st =
      mem_import_dmabuf(fd, gpus, off, len, HSA_EXT_POINTER_TYPE_IPC, false, &r, NULL);
  close(fd);
  mem_ipc_fetched(sock, key);
  if (st == HSA_STATUS_ERROR) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (st != HSA_STATUS_SUCCESS) return st;
  *mapped_ptr = (void *)r->base;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_ipc_memory_detach(void *mapped_ptr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!mapped_ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return mem_import_release(mapped_ptr, HSA_EXT_POINTER_TYPE_IPC)
             ? HSA_STATUS_SUCCESS
             : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}
