/* SPDX-License-Identifier: MIT */
/* interop.c — hsa_amd_interop_map_buffer/unmap_buffer: a graphics buffer (GL/VK) exported as
 * a dma-buf is imported into the GPUs' address space through KFD, as ROCR does: GET_DMABUF_INFO
 * tells its size, exporting GPU and metadata; IMPORT_DMABUF makes it a buffer object of that
 * GPU at an address of the GPUVM aperture; it is then mapped on the agents asked. A descriptor
 * that is not a dma-buf fails GET_DMABUF_INFO, and ROCR answers HSA_STATUS_ERROR; a failed
 * mapping is OUT_OF_RESOURCES. Unmapping always succeeds (ROCR ignores what it cannot undo).
 * Imports are kept in a list of their own: they are not allocations of the memory API. */
#include <errno.h>
#include <stdlib.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "kfd/memory.h"
#include "mem/internal.h"

struct import {
  struct import *next;
  struct mem_bo *bo;
  void *metadata;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct import *imports;

static const struct core_agent *gpu_by_id(uint32_t gpu_id) {
  for (unsigned i = 0; i < MEM_MAX_GPUS; i++) {
    const struct core_agent *g = mem_gpu(i);
    if (g && g->gpu_id == gpu_id) return g;
  }
  return NULL;
}

/* GET_DMABUF_INFO twice: once for the sizes, once with room for the metadata. */
static int query(int fd, uint64_t *size, uint32_t *gpu_id, uint32_t *flags, void **meta,
                 uint32_t *meta_size) {
  const struct kfd_device *dev = &core_rt()->kfd;
  *meta = NULL;
  int rc = kfd_dmabuf_info(dev, fd, NULL, 0, size, meta_size, gpu_id, flags);
  if (rc || *meta_size == 0) return rc;
  *meta = calloc(1, *meta_size);
  if (!*meta) return -ENOMEM;
  rc = kfd_dmabuf_info(dev, fd, *meta, *meta_size, size, meta_size, gpu_id, flags);
  if (rc) {
    free(*meta);
    *meta = NULL;
  }
  return rc;
}

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
  uint64_t bytes;
  uint32_t gpu_id, kflags, meta_size;
  void *meta;
  if (query(interop_handle, &bytes, &gpu_id, &kflags, &meta, &meta_size) != 0)
    return HSA_STATUS_ERROR;
  const struct core_agent *owner = gpu_by_id(gpu_id);
  struct mem_bo *bo = calloc(1, sizeof(*bo));
  struct import *im = calloc(1, sizeof(*im));
  if (!owner || !bo || !im || bytes == 0) goto fail_error;
  uint64_t span = MEM_ALIGN_UP(bytes, MEM_PAGE);
  uint64_t lo = owner->has_aperture ? owner->aperture.gpuvm_base : 0;
  uint64_t hi = owner->has_aperture ? owner->aperture.gpuvm_limit + 1 : 0;
  bo->va = kfd_va_reserve(span, MEM_PAGE, lo, hi);
  if (!bo->va) goto fail_error;
  bo->size = span;
  if (kfd_dmabuf_import(&core_rt()->kfd, interop_handle, gpu_id, (uint64_t)(uintptr_t)bo->va,
                        &bo->handle) != 0) {
    kfd_va_release(bo->va, bo->size);
    goto fail_error;
  }
  bo->alloc_gpu = owner;
  bo->kfd_flags = kflags;
  if (mem_bo_map(bo, gpus) != HSA_STATUS_SUCCESS) {
    mem_bo_destroy(bo);
    free(im);
    free(meta);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  im->bo = bo;
  im->metadata = meta;
  pthread_mutex_lock(&lock);
  im->next = imports;
  imports = im;
  pthread_mutex_unlock(&lock);
  *size = bytes;
  *ptr = bo->va;
  if (metadata_size) *metadata_size = meta_size;
  if (metadata) *metadata = meta;
  return HSA_STATUS_SUCCESS;
fail_error:
  free(bo);
  free(im);
  free(meta);
  return HSA_STATUS_ERROR;
}

hsa_status_t hsa_amd_interop_unmap_buffer(void *ptr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!ptr) return HSA_STATUS_SUCCESS;
  pthread_mutex_lock(&lock);
  struct import **pp = &imports, *found = NULL;
  for (; *pp; pp = &(*pp)->next)
    if ((*pp)->bo->va == ptr) {
      found = *pp;
      *pp = found->next;
      break;
    }
  pthread_mutex_unlock(&lock);
  if (found) {
    mem_bo_destroy(found->bo);
    free(found->metadata);
    free(found);
  }
  return HSA_STATUS_SUCCESS;
}
