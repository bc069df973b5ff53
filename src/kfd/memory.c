/* SPDX-License-Identifier: MIT */
/* memory.c — buffer objects and their CPU/GPU mappings (see memory.h). */
#include "kfd/memory.h"

#include <errno.h>
#include <fcntl.h>
#include <kfd_abi/kfd_ioctl_supp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The values above are the kernel's (WRITABLE checked through its unsigned bit pattern). */
_Static_assert(KFD_SVM_OP_SET_ATTR == (uint32_t)KFD_IOCTL_SVM_OP_SET_ATTR, "SVM OP_SET_ATTR");
_Static_assert(KFD_SVM_OP_GET_ATTR == (uint32_t)KFD_IOCTL_SVM_OP_GET_ATTR, "SVM OP_GET_ATTR");
_Static_assert(KFD_SVM_LOCATION_SYSMEM == (uint32_t)KFD_IOCTL_SVM_LOCATION_SYSMEM, "SVM LOCATION_SYSMEM");
_Static_assert(KFD_SVM_LOCATION_UNDEFINED == (uint32_t)KFD_IOCTL_SVM_LOCATION_UNDEFINED, "SVM LOCATION_UNDEFINED");
_Static_assert(KFD_SVM_ATTR_PREFERRED_LOC == (uint32_t)KFD_IOCTL_SVM_ATTR_PREFERRED_LOC, "SVM ATTR_PREFERRED_LOC");
_Static_assert(KFD_SVM_ATTR_PREFETCH_LOC == (uint32_t)KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, "SVM ATTR_PREFETCH_LOC");
_Static_assert(KFD_SVM_ATTR_ACCESS == (uint32_t)KFD_IOCTL_SVM_ATTR_ACCESS, "SVM ATTR_ACCESS");
_Static_assert(KFD_SVM_ATTR_ACCESS_IN_PLACE == (uint32_t)KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE, "SVM ATTR_ACCESS_IN_PLACE");
_Static_assert(KFD_SVM_ATTR_NO_ACCESS == (uint32_t)KFD_IOCTL_SVM_ATTR_NO_ACCESS, "SVM ATTR_NO_ACCESS");
_Static_assert(KFD_SVM_ATTR_SET_FLAGS == (uint32_t)KFD_IOCTL_SVM_ATTR_SET_FLAGS, "SVM ATTR_SET_FLAGS");
_Static_assert(KFD_SVM_ATTR_CLR_FLAGS == (uint32_t)KFD_IOCTL_SVM_ATTR_CLR_FLAGS, "SVM ATTR_CLR_FLAGS");
_Static_assert(KFD_SVM_ATTR_GRANULARITY == (uint32_t)KFD_IOCTL_SVM_ATTR_GRANULARITY, "SVM ATTR_GRANULARITY");
_Static_assert(KFD_SVM_FLAG_HOST_ACCESS == (uint32_t)KFD_IOCTL_SVM_FLAG_HOST_ACCESS, "SVM FLAG_HOST_ACCESS");
_Static_assert(KFD_SVM_FLAG_COHERENT == (uint32_t)KFD_IOCTL_SVM_FLAG_COHERENT, "SVM FLAG_COHERENT");
_Static_assert(KFD_SVM_FLAG_HIVE_LOCAL == (uint32_t)KFD_IOCTL_SVM_FLAG_HIVE_LOCAL, "SVM FLAG_HIVE_LOCAL");
_Static_assert(KFD_SVM_FLAG_GPU_RO == (uint32_t)KFD_IOCTL_SVM_FLAG_GPU_RO, "SVM FLAG_GPU_RO");
_Static_assert(KFD_SVM_FLAG_GPU_EXEC == (uint32_t)KFD_IOCTL_SVM_FLAG_GPU_EXEC, "SVM FLAG_GPU_EXEC");
_Static_assert(KFD_SVM_FLAG_GPU_READ_MOSTLY == (uint32_t)KFD_IOCTL_SVM_FLAG_GPU_READ_MOSTLY, "SVM FLAG_GPU_READ_MOSTLY");
_Static_assert(KFD_MEM_VRAM == KFD_IOC_ALLOC_MEM_FLAGS_VRAM, "VRAM");
_Static_assert(KFD_MEM_GTT == KFD_IOC_ALLOC_MEM_FLAGS_GTT, "GTT");
_Static_assert(KFD_MEM_USERPTR == KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, "USERPTR");
_Static_assert(KFD_MEM_DOORBELL == KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL, "DOORBELL");
_Static_assert(KFD_MEM_MMIO_REMAP == KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP, "MMIO_REMAP");
_Static_assert(KFD_MEM_CONTIGUOUS == KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS, "CONTIGUOUS");
_Static_assert(KFD_MEM_EXT_COHERENT == KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT, "EXT_COHERENT");
_Static_assert(KFD_MEM_UNCACHED == KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED, "UNCACHED");
_Static_assert(KFD_MEM_COHERENT == KFD_IOC_ALLOC_MEM_FLAGS_COHERENT, "COHERENT");
_Static_assert(KFD_MEM_AQL_QUEUE == KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM, "AQL_QUEUE_MEM");
_Static_assert(KFD_MEM_NO_SUBSTITUTE == KFD_IOC_ALLOC_MEM_FLAGS_NO_SUBSTITUTE, "NO_SUBSTITUTE");
_Static_assert(KFD_MEM_PUBLIC == KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC, "PUBLIC");
_Static_assert(KFD_MEM_EXECUTABLE == KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE, "EXECUTABLE");
_Static_assert(KFD_MEM_WRITABLE == (KFD_MEM_EXECUTABLE << 1), "WRITABLE is bit 31");

#define PAGE 4096ull

int kfd_mem_alloc(const struct kfd_device *dev, uint32_t gpu_id, uint64_t va, uint64_t size,
                  uint32_t flags, uint64_t userptr, uint64_t *handle, uint64_t *mmap_offset) {
  struct kfd_ioctl_alloc_memory_of_gpu_args a;
  memset(&a, 0, sizeof(a));
  a.va_addr = va;
  a.size = size;
  a.gpu_id = gpu_id;
  a.flags = flags;
  a.mmap_offset = userptr;   /* the kernel reads the CPU address of a userptr from here */
  int rc = kfd_ioctl(dev->fd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a);
  kfd_report("AMDKFD_IOC_ALLOC_MEMORY_OF_GPU", rc);
  if (rc == 0) {
    *handle = a.handle;
    if (mmap_offset) *mmap_offset = a.mmap_offset;
  }
  return rc;
}

int kfd_mem_free(const struct kfd_device *dev, uint64_t handle) {
  struct kfd_ioctl_free_memory_of_gpu_args a = {.handle = handle};
  return kfd_ioctl(dev->fd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &a);
}

static int map_common(const struct kfd_device *dev, unsigned long req, uint64_t handle,
                      const uint32_t *gpu_ids, uint32_t count) {
  if (count == 0) return 0;
  struct kfd_ioctl_map_memory_to_gpu_args a;
  memset(&a, 0, sizeof(a));
  a.handle = handle;
  a.device_ids_array_ptr = (uint64_t)(uintptr_t)gpu_ids;
  a.n_devices = count;
  a.n_success = 0;   /* kfd_ioctl retries with the same args: the kernel resumes at n_success */
  int rc = kfd_ioctl(dev->fd, req, &a);
  kfd_report(req == AMDKFD_IOC_MAP_MEMORY_TO_GPU ? "AMDKFD_IOC_MAP_MEMORY_TO_GPU"
                                                 : "AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU", rc);
  return rc;
}

int kfd_mem_map(const struct kfd_device *dev, uint64_t handle, const uint32_t *gpu_ids,
                uint32_t count) {
  return map_common(dev, AMDKFD_IOC_MAP_MEMORY_TO_GPU, handle, gpu_ids, count);
}

int kfd_mem_unmap(const struct kfd_device *dev, uint64_t handle, const uint32_t *gpu_ids,
                  uint32_t count) {
  return map_common(dev, AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, handle, gpu_ids, count);
}

static void *reserve_at(void *hint, uint64_t len) {
  void *m = mmap(hint, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return m == MAP_FAILED ? NULL : m;
}

/* Over-reserve by the alignment and give back the slack on both sides. */
static void *trim(void *m, uint64_t size, uint64_t align) {
  uint64_t len = size + align - PAGE;
  uintptr_t s = (uintptr_t)m, a = (s + align - 1) & ~(uintptr_t)(align - 1);
  if (a > s) munmap(m, a - s);
  if (s + len > a + size) munmap((void *)(a + size), s + len - (a + size));
  return (void *)a;
}

void *kfd_va_reserve(uint64_t size, uint64_t align, uint64_t lo, uint64_t hi) {
  if (size == 0 || (size & (PAGE - 1))) return NULL;
  if (align < PAGE) align = PAGE;
  if (align & (align - 1)) return NULL;
  uint64_t len = size + align - PAGE;
  if (len < size) return NULL;
  void *m = reserve_at(NULL, len);
  if (!m) return NULL;
  void *v = trim(m, size, align);
  uint64_t va = (uint64_t)(uintptr_t)v;
  if (hi <= lo || (va >= lo && va + size <= hi)) return v;
  /* The kernel placed it outside the GPU's aperture: try again from the aperture's start. */
  munmap(v, size);
  m = reserve_at((void *)(uintptr_t)((lo + align - 1) & ~(align - 1)), len);
  if (!m) return NULL;
  v = trim(m, size, align);
  va = (uint64_t)(uintptr_t)v;
  if (va >= lo && va + size <= hi) return v;
  munmap(v, size);
  return NULL;
}

void kfd_va_release(void *va, uint64_t size) {
  if (va && size) munmap(va, size);
}

int kfd_mem_cpu_map(int drm_fd, void *va, uint64_t size, uint64_t mmap_offset, bool writable) {
  int prot = PROT_READ | (writable ? PROT_WRITE : 0);
  void *m = mmap(va, size, prot, MAP_SHARED | MAP_FIXED, drm_fd, (off_t)mmap_offset);
  if (m == MAP_FAILED) return -errno;
  return 0;
}

int kfd_mmio_cpu_map(const struct kfd_device *dev, void *va, uint64_t size,
                     uint64_t mmap_offset) {
  return kfd_mem_cpu_map(dev->fd, va, size, mmap_offset, true);
}

int kfd_mem_cpu_unmap(void *va, uint64_t size) {
  void *m = mmap(va, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
                 -1, 0);
  return m == MAP_FAILED ? -errno : 0;
}

int kfd_dmabuf_info(const struct kfd_device *dev, int fd, void *meta, uint32_t meta_room,
                    uint64_t *size, uint32_t *meta_size, uint32_t *gpu_id, uint32_t *flags) {
  struct kfd_ioctl_get_dmabuf_info_args a;
  memset(&a, 0, sizeof(a));
  a.metadata_ptr = (uint64_t)(uintptr_t)meta;
  a.metadata_size = meta ? meta_room : 0;
  a.dmabuf_fd = (uint32_t)fd;
  int rc = kfd_ioctl(dev->fd, AMDKFD_IOC_GET_DMABUF_INFO, &a);
  if (rc == 0) {
    *size = a.size;
    *meta_size = a.metadata_size;
    *gpu_id = a.gpu_id;
    *flags = a.flags;
  }
  return rc;
}

int kfd_dmabuf_import(const struct kfd_device *dev, int fd, uint32_t gpu_id, uint64_t va,
                      uint64_t *handle) {
  struct kfd_ioctl_import_dmabuf_args a;
  memset(&a, 0, sizeof(a));
  a.va_addr = va;
  a.gpu_id = gpu_id;
  a.dmabuf_fd = (uint32_t)fd;
  int rc = kfd_ioctl(dev->fd, AMDKFD_IOC_IMPORT_DMABUF, &a);
  if (rc == 0) *handle = a.handle;
  return rc;
}

bool kfd_has_dmabuf_export(const struct kfd_device *dev) {
  return dev->major == 1 && dev->minor >= 12;   /* EXPORT_DMABUF came with 1.12 */
}

bool kfd_has_contiguous_vram(const struct kfd_device *dev) {
  return dev->major == 1 && dev->minor >= 16;   /* the CONTIGUOUS flag came with 1.16 */
}

int kfd_dmabuf_export(const struct kfd_device *dev, uint64_t handle, int *fd) {
  struct kfd_ioctl_export_dmabuf_args a;
  memset(&a, 0, sizeof(a));
  a.handle = handle;
  a.flags = O_CLOEXEC;   /* as an fd the runtime opens itself: not inherited across exec */
  int rc = kfd_ioctl(dev->fd, AMDKFD_IOC_EXPORT_DMABUF, &a);
  if (rc == 0) *fd = (int)a.dmabuf_fd;
  return rc;
}

_Static_assert(sizeof(struct kfd_ioctl_svm_attribute) == 2 * sizeof(uint32_t), "svm pair");

int kfd_svm(const struct kfd_device *dev, uint32_t op, uint64_t start, uint64_t size,
            uint32_t *pairs, uint32_t n) {
  if (n > 1024) return -E2BIG;
    union {
    struct kfd_ioctl_svm_args a;
    uint64_t align;
  } *buf = calloc(1, sizeof(struct kfd_ioctl_svm_args) + n * 2 * sizeof(uint32_t));
  if (!buf) return -ENOMEM;
  buf->a.start_addr = start;
  buf->a.size = size;
  buf->a.op = op;
  buf->a.nattr = n;
  memcpy(buf->a.attrs, pairs, n * 2 * sizeof(uint32_t));
  /* The request's size field counts the attributes too: that is how the kernel learns
   * how much to copy in and out. */
  unsigned long req = AMDKFD_IOC_SVM + ((unsigned long)(n * 2 * sizeof(uint32_t)) << _IOC_SIZESHIFT);
  int rc = kfd_ioctl(dev->fd, req, &buf->a);
  if (rc == 0 && op == KFD_IOCTL_SVM_OP_GET_ATTR) memcpy(pairs, buf->a.attrs, n * 2 * sizeof(uint32_t));
  free(buf);
  return rc;
}
