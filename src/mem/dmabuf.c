/* SPDX-License-Identifier: MIT */
/* dmabuf.c — hsa_amd_portable_export_dmabuf / _close_dmabuf: a range of device memory handed
 * out as a dma-buf descriptor of the buffer object holding it (KFD's EXPORT_DMABUF, interface
 * 1.12 on), and the offset of the range in it, for another API or process to import. ROCR's
 * statuses: an address in no allocation, or a range running past its end, is
 * INVALID_ALLOCATION; system memory is INVALID_AGENT; the kernel refusing is
 * OUT_OF_RESOURCES. Below KFD 1.12 the kernel cannot export (ROCR's thunk answers "not
 * supported", which it returns as HSA_STATUS_ERROR): said once on stderr.
 * _v2 takes how the importer maps the memory (hsa_amd_dma_buf_mapping_type_t): NONE is the
 * first form; PCIE asks for a buffer a PCIe peer reaches through the BAR, which on a discrete
 * GPU is the same KFD export of the same object; any other value is INVALID_ARGUMENT. */
#include <stdio.h>
#include <unistd.h>

#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "kfd/memory.h"
#include "mem/internal.h"

static void tell(void) {
  fprintf(stderr, "hsa-runtime64: exporting memory as a dma-buf needs KFD interface 1.12 or "
                  "later; this kernel speaks %u.%u, so hsa_amd_portable_export_dmabuf fails.\n",
          core_rt()->kfd.major, core_rt()->kfd.minor);
}

hsa_status_t hsa_amd_portable_export_dmabuf_v2(const void *ptr, size_t size, int *dmabuf,
                                               uint64_t *offset, uint64_t flags) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!ptr || !dmabuf || !offset) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (flags != HSA_AMD_DMABUF_MAPPING_TYPE_NONE && flags != HSA_AMD_DMABUF_MAPPING_TYPE_PCIE)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uintptr_t p = (uintptr_t)ptr;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find(p);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  uint64_t handle = 0, off = 0;
  if (!r || r->kind != MEM_KIND_USER || p - r->base + size > r->size) {
    st = HSA_STATUS_ERROR_INVALID_ALLOCATION;
  } else if (!r->device) {
    st = HSA_STATUS_ERROR_INVALID_AGENT;   /* ROCR exports GPU memory only */
  } else {
    const struct mem_bo *bo = r->chunk ? mem_chunk_bo(r->chunk) : r->bo;
    handle = bo->handle;
    off = p - (uintptr_t)bo->va;
  }
  pthread_mutex_unlock(&mem_mutex);
  if (st != HSA_STATUS_SUCCESS) return st;
  const struct kfd_device *dev = &core_rt()->kfd;
  if (!kfd_has_dmabuf_export(dev)) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, tell);
    return HSA_STATUS_ERROR;
  }
  int fd = -1;
  int rc = kfd_dmabuf_export(dev, handle, &fd);
  if (rc) {
    kfd_report("AMDKFD_IOC_EXPORT_DMABUF", rc);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  *dmabuf = fd;
  *offset = off;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_portable_export_dmabuf(const void *ptr, size_t size, int *dmabuf,
                                            uint64_t *offset) {
  return hsa_amd_portable_export_dmabuf_v2(ptr, size, dmabuf, offset,
                                           HSA_AMD_DMABUF_MAPPING_TYPE_NONE);
}

hsa_status_t hsa_amd_portable_close_dmabuf(int dmabuf) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return close(dmabuf) == 0 ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_RESOURCE_FREE;
}
