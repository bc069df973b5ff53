/* SPDX-License-Identifier: MIT */
/* export.c — EXPORT_DMABUF (KFD 1.12): a buffer object handed out as a dma-buf descriptor,
 * as kfd_ioctl_export_dmabuf does it: the handle's device and object must exist (EINVAL),
 * user pages are refused (EPERM, as amdgpu's PRIME export refuses userptrs), and an object
 * exported twice, or one that came in as a dma-buf, gives the same buffer again. Only
 * O_CLOEXEC of the flags matters (dma_buf_fd takes nothing else).
 *
 * A dma-buf must be a file of its own, while a VRAM/GTT object's bytes live in the process
 * store (store.c): on its first export the bytes move to a new memory file (gem.c names it
 * so any process recognises it), and the simulator's view and every CPU mapping of the old
 * range are laid over the new file at the same addresses. GPU writes racing the move are not
 * modelled; the object keeps its handle, address and accounting. */
#include "kfd/gem.h"
#include "kfd/kfd.h"

#include <errno.h>
#include <fcntl.h>
#include <libdrm/amdgpu_drm.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* the bytes of a store-backed object into a new dma-buf file, mapped where they were */
static int move_to_file(struct sim_kfd_process *p, struct sim_bo *bo)
{
  bool vram = bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM;
  /* the amdgpu flags amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu gives the object (a dGPU's VRAM
   * is wiped on release and may be contiguous; an APU's is GTT, modelled as before) */
  uint64_t gem_flags = (bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC)
                           ? AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED : 0;
  if (vram && !bo->pdd->gpu->model->apu) {
    gem_flags |= AMDGPU_GEM_CREATE_VRAM_WIPE_ON_RELEASE;
    if (bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS)
      gem_flags |= AMDGPU_GEM_CREATE_VRAM_CONTIGUOUS;
  }
  int fd = sim_gem_memfd(bo->pdd->gpu, bo->bo_size,
                         vram ? AMDGPU_GEM_DOMAIN_VRAM : AMDGPU_GEM_DOMAIN_GTT, gem_flags);
  if (fd < 0)
    return fd;
  int e = 0;
  void *tmp = sim_sys_mmap(NULL, bo->bo_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0, &e);
  if (tmp == MAP_FAILED) {
    close(fd);
    return -ENOMEM;
  }
  memcpy(tmp, bo->host, bo->bo_size);
  sim_sys_munmap(tmp, bo->bo_size);
  if (sim_sys_mmap(bo->host, bo->bo_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
                   0, &e) == MAP_FAILED) {
    close(fd);
    return -ENOMEM;
  }
  sim_kfd_repoint_store(bo->store_off, bo->bo_size, fd);
  sim_store_free(p, bo->store_off, bo->bo_size, NULL);   /* the range is no longer used */
  bo->mem_fd = fd;
  bo->exported = true;
  return 0;
}

int sim_kfd_export_dmabuf(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_export_dmabuf_args *a = data;
  int r = 0;
  pthread_mutex_lock(&p->lock);
  struct sim_bo *bo = sim_pdd_by_id(p, (uint32_t)(a->handle >> 32)) ? sim_bo_lookup(p, a->handle)
                                                                    : NULL;
  if (!bo)
    r = -EINVAL;
  else if (bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)
    r = -EPERM;
  else if (!(bo->flags & (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_GTT)) ||
           (bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM) || bo->is_event_page)
    r = -EINVAL;   /* doorbells, MMIO; and what the model keeps outside the store */
  else if (bo->mem_fd <= 0)
    r = move_to_file(p, bo);
  if (!r) {
    int fd = (int)syscall(SYS_fcntl, bo->mem_fd,
                          (a->flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 3);
    if (fd < 0)
      r = -EMFILE;
    else
      a->dmabuf_fd = (uint32_t)fd;
  }
  pthread_mutex_unlock(&p->lock);
  return r;
}
