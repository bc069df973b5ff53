/* SPDX-License-Identifier: MIT */
/* import.c — memory that comes in as a dma-buf (graphics interop, IPC): GET_DMABUF_INFO tells
 * its size, exporting GPU, KFD flags and metadata; IMPORT_DMABUF makes it a buffer object of
 * that GPU at an address of its GPUVM aperture, as ROCR's thunk does; it is then mapped on the
 * GPUs asked and on its owner. The import is a record of the allocation table like any other:
 * VRAM is device memory of the exporting GPU, GTT system memory; so copies, fills and pointer
 * info find it by address and move its bytes with the GPU's engines. Device memory has no CPU
 * view (KFD gives an import no CPU mapping); system memory is mapped for the CPU too, through
 * the dma-buf, at the same address. Only the interop/IPC calls release it. */
#include <errno.h>
#include <stdlib.h>

#include "core/runtime.h"
#include "kfd/memory.h"
#include "mem/internal.h"

static const struct core_agent *gpu_by_id(uint32_t gpu_id) {
  for (unsigned i = 0; i < MEM_MAX_GPUS; i++) {
    const struct core_agent *g = mem_gpu(i);
    if (g && g->gpu_id == gpu_id) return g;
  }
  return NULL;
}

/* GET_DMABUF_INFO; with want_meta twice: once for the sizes, once with room for the metadata. */
static int query(int fd, bool want_meta, uint64_t *size, uint32_t *gpu_id, uint32_t *flags,
                 void **meta, uint32_t *meta_size) {
  const struct kfd_device *dev = &core_rt()->kfd;
  *meta = NULL;
  int rc = kfd_dmabuf_info(dev, fd, NULL, 0, size, meta_size, gpu_id, flags);
  if (rc || !want_meta || *meta_size == 0) return rc;
  *meta = calloc(1, *meta_size);
  if (!*meta) return -ENOMEM;
  rc = kfd_dmabuf_info(dev, fd, *meta, *meta_size, size, meta_size, gpu_id, flags);
  if (rc) {
    free(*meta);
    *meta = NULL;
  }
  return rc;
}

hsa_status_t mem_import_dmabuf(int fd, uint64_t gpus, uint64_t offset, uint64_t len,
                               uint32_t ptr_type, bool want_meta, struct mem_rec **out,
                               uint64_t *bytes) {
  uint64_t size;
  uint32_t gpu_id, kflags, meta_size = 0;
  void *meta;
  if (query(fd, want_meta, &size, &gpu_id, &kflags, &meta, &meta_size) != 0)
    return HSA_STATUS_ERROR;
  const struct core_agent *gpu = gpu_by_id(gpu_id);
  if (!gpu || size == 0 || offset >= size) {
    free(meta);
    return HSA_STATUS_ERROR;
  }
  struct mem_bo *bo = calloc(1, sizeof(*bo));
  struct mem_rec *r = calloc(1, sizeof(*r));
  if (!bo || !r) goto fail;
  uint64_t span = MEM_ALIGN_UP(size, MEM_PAGE);
  uint64_t lo = gpu->has_aperture ? gpu->aperture.gpuvm_base : 0;
  uint64_t hi = gpu->has_aperture ? gpu->aperture.gpuvm_limit + 1 : 0;
  bo->va = kfd_va_reserve(span, MEM_PAGE, lo, hi);
  if (!bo->va) goto fail;
  bo->size = span;
  if (kfd_dmabuf_import(&core_rt()->kfd, fd, gpu_id, (uint64_t)(uintptr_t)bo->va,
                        &bo->handle) != 0) {
    kfd_va_release(bo->va, bo->size);
    free(bo);
    free(r);
    free(meta);
    return HSA_STATUS_ERROR;
  }
  bo->alloc_gpu = gpu;
  bo->kfd_flags = kflags;
  bool vram = kflags & KFD_MEM_VRAM;
  /* System memory (GTT) is the CPU's too: the dma-buf itself maps it at the same address,
   * as ROCR maps an imported system-memory buffer for the CPU. */
  if (!vram && kfd_mem_cpu_map(fd, bo->va, span, 0, true) == 0) bo->cpu_visible = true;
  hsa_status_t st = mem_bo_map(bo, gpus | 1ull << gpu->gpu_index);
  if (st != HSA_STATUS_SUCCESS) {
    mem_bo_destroy(bo);
    free(r);
    free(meta);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  if (len == 0 || len > size - offset) len = size - offset;
  r->kind = MEM_KIND_IMPORT;
  r->base = (uintptr_t)bo->va + offset;
  r->size = len;
  r->bo = bo;
  r->owner = vram ? gpu : mem_first_cpu();
  r->device = vram;
  r->fine = (kflags & KFD_MEM_COHERENT) != 0;
  r->access = bo->mapped;
  r->meta = meta;
  r->meta_size = meta_size;
  r->ptr_type = ptr_type;
  pthread_mutex_lock(&mem_mutex);
  int rc = mem_table_insert(r);
  pthread_mutex_unlock(&mem_mutex);
  if (rc != 0) {
    mem_bo_destroy(bo);
    free(r);
    free(meta);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  *out = r;
  if (bytes) *bytes = size;
  return HSA_STATUS_SUCCESS;
fail:
  free(bo);
  free(r);
  free(meta);
  return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

bool mem_import_release(void *ptr, uint32_t ptr_type) {
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find_base((uintptr_t)ptr);
  bool ok = r && r->kind == MEM_KIND_IMPORT && r->ptr_type == ptr_type;
  if (ok) mem_table_remove(r);
  pthread_mutex_unlock(&mem_mutex);
  if (!ok) return false;
  mem_rec_run_callbacks(r);
  pthread_mutex_lock(&mem_mutex);
  mem_rec_destroy(r);
  pthread_mutex_unlock(&mem_mutex);
  return true;
}
