/* SPDX-License-Identifier: MIT */
/* dmabuf.c — GET_DMABUF_INFO and IMPORT_DMABUF. A dma-buf a render node exported
 * (gem.c) is described and imported as amdgpu_amdkfd_get_dmabuf_info and
 * amdgpu_amdkfd_gpuvm_import_dmabuf do it: VRAM or GTT objects of a KFD device only, imported
 * on the device that made them, as a writable, executable KFD object of the same memory.
 * Any other descriptor is either closed (EBADF) or not a dma-buf of this driver (EINVAL), as
 * dma_buf_get() and the driver's checks report. */
#include "kfd/gem.h"
#include "kfd/kfd.h"

#include <errno.h>
#include <fcntl.h>
#include <libdrm/amdgpu_drm.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, which the uapi header spells as a signed 1 << 31 */
#define MEM_WRITABLE 0x80000000u

static uint32_t kfd_flags(const struct sim_dmabuf *d)
{
  uint32_t f = (d->domains & AMDGPU_GEM_DOMAIN_VRAM) ? KFD_IOC_ALLOC_MEM_FLAGS_VRAM
                                                     : KFD_IOC_ALLOC_MEM_FLAGS_GTT;
  if (d->flags & AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED)
    f |= KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC;
  return f;
}

int sim_kfd_get_dmabuf_info(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_get_dmabuf_info_args *a = data;
  struct sim_dmabuf d;
  int r = sim_dmabuf_lookup((int)a->dmabuf_fd, &d);
  if (r)
    return r;
  if (a->metadata_ptr && !sim_access_ok(a->metadata_ptr, a->metadata_size))
    return -EFAULT;
  a->size = d.size;
  a->metadata_size = 0;   /* nothing set AMDGPU_GEM_METADATA on it */
  a->gpu_id = d.gpu->gpu_id;
  a->flags = kfd_flags(&d);
  return 0;
}

int sim_kfd_import_dmabuf(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_import_dmabuf_args *a = data;
  int fd = (int)a->dmabuf_fd;
  struct sim_dmabuf d;
  int r = sim_dmabuf_lookup(fd, &d);
  if (r && syscall(SYS_fcntl, fd, F_GETFD) < 0)
    return -EBADF;
  pthread_mutex_lock(&p->lock);
  struct sim_pdd *pdd = sim_pdd_by_id(p, a->gpu_id);
  if (!pdd)
    r = -EINVAL;
  else if (!r)
    r = sim_pdd_bind(pdd);
  if (!r && d.gpu != pdd->gpu)
    r = -EINVAL;   /* the driver takes only its own device's buffers */
  struct sim_bo *bo = NULL;
  if (!r && !(bo = calloc(1, sizeof *bo)))
    r = -ENOMEM;
  if (!r) {
    int e = 0;
    bo->mem_fd = (int)syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 200);
    bo->host = bo->mem_fd > 0 ? sim_sys_mmap(NULL, d.size, PROT_READ | PROT_WRITE, MAP_SHARED,
                                             bo->mem_fd, 0, &e)
                              : MAP_FAILED;
    if (bo->host == MAP_FAILED) {
      if (bo->mem_fd > 0)
        syscall(SYS_close, bo->mem_fd);
      free(bo);
      bo = NULL;
      r = -ENOMEM;
    }
  }
  if (!r) {
    bo->flags = (kfd_flags(&d) & ~KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC) |
                MEM_WRITABLE | KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE;
    bo->va = a->va_addr;
    bo->size = bo->bo_size = d.size;
    a->handle = sim_bo_register(p, pdd, bo);
  }
  pthread_mutex_unlock(&p->lock);
  return r;
}
