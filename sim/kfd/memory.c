/* SPDX-License-Identifier: MIT */
/* memory.c — buffer objects: ALLOC/FREE_MEMORY_OF_GPU and AVAILABLE_MEMORY, with the
 * memory types as amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu treats them: VRAM and GTT get
 * backing bytes, USERPTR wraps the caller's own pages, DOORBELL and MMIO_REMAP wrap the
 * process's doorbell page and the device's register page. Handles are gpu_id << 32 | idr
 * with the lowest free idr of the device, as the kernel's IDR hands them out. Limits are
 * the kernel's: VRAM minus page-table reserve, 15/16 of RAM for system memory and half of
 * RAM for GTT (TTM). */
#include "kfd/kfd.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/sysinfo.h>
#include <unistd.h>

static pthread_mutex_t limit_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t system_used, ttm_used;

static uint64_t total_ram(void)
{
  struct sysinfo si;
  if (sysinfo(&si) != 0)
    return 1ull << 34;
  return (uint64_t)si.totalram * si.mem_unit;
}

/* VRAM the kernel keeps for page tables: an estimate proportional to system memory. */
static uint64_t pt_reserve(void)
{
  return total_ram() >> 14;
}

static uint64_t vram_used_on(struct sim_gpu *gpu, bool aligned)
{
  struct sim_kfd_process *p = sim_kfd_current();
  uint64_t used = 0;
  for (struct sim_bo *b = p ? p->bos : NULL; b; b = b->next)
    if (b->pdd->gpu == gpu && (b->flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM) &&
        (b->mem_fd <= 0 || b->exported))
      used += aligned ? ((b->bo_size + (2ull << 20) - 1) & ~((2ull << 20) - 1)) : b->bo_size;
  return used;
}

/* On an APU whose memory is all system memory (MI300A), amdgpu places a VRAM request in
 * GTT: it counts against system memory, not a VRAM heap the node does not have. */
static uint32_t acct_flags(const struct sim_pdd *pdd, uint32_t flags)
{
  if (pdd->gpu->model->apu && (flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM))
    flags = (flags & ~KFD_IOC_ALLOC_MEM_FLAGS_VRAM) | KFD_IOC_ALLOC_MEM_FLAGS_GTT;
  return flags;
}

static int reserve_limit(struct sim_pdd *pdd, uint64_t size, uint32_t flags)
{
  flags = acct_flags(pdd, flags);
  int r = 0;
  pthread_mutex_lock(&limit_lock);
  if (flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM) {
    uint64_t vram = pdd->gpu->vram_bytes, res = pt_reserve();
    if (vram < res || vram_used_on(pdd->gpu, false) + size > vram - res)
      r = -ENOMEM;
  } else if (flags & (KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)) {
    uint64_t ram = total_ram();
    bool ttm = flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT;
    if (system_used + size > ram / 16 * 15 || (ttm && ttm_used + size > ram / 2))
      r = -ENOMEM;
    else {
      system_used += size;
      if (ttm)
        ttm_used += size;
    }
  }
  pthread_mutex_unlock(&limit_lock);
  return r;
}

static void unreserve_limit(uint64_t size, uint32_t flags)
{
  pthread_mutex_lock(&limit_lock);
  if (flags & (KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_USERPTR))
    system_used -= size;
  if (flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT)
    ttm_used -= size;
  pthread_mutex_unlock(&limit_lock);
}

uint64_t sim_bo_handle(const struct sim_bo *bo)
{
  return (uint64_t)bo->pdd->gpu->gpu_id << 32 | bo->idr;
}

struct sim_bo *sim_bo_lookup(struct sim_kfd_process *p, uint64_t handle)
{
  for (struct sim_bo *b = p->bos; b; b = b->next)
    if (sim_bo_handle(b) == handle)
      return b;
  return NULL;
}

static uint32_t free_idr(struct sim_kfd_process *p, struct sim_pdd *pdd)
{
  for (uint32_t id = 0;; id++) {
    bool used = false;
    for (struct sim_bo *b = p->bos; b && !used; b = b->next)
      used = b->pdd == pdd && b->idr == id;
    if (!used)
      return id;
  }
}

uint64_t sim_bo_register(struct sim_kfd_process *p, struct sim_pdd *pdd, struct sim_bo *bo)
{
  bo->pdd = pdd;
  bo->idr = free_idr(p, pdd);
  bo->mmap_offset = p->next_drm_offset;
  p->next_drm_offset += bo->bo_size;
  bo->next = p->bos;
  p->bos = bo;
  return sim_bo_handle(bo);
}

static int alloc_locked(struct sim_kfd_process *p, struct kfd_ioctl_alloc_memory_of_gpu_args *a)
{
  uint32_t flags = a->flags;
  struct sim_pdd *pdd = sim_pdd_by_id(p, a->gpu_id);
  if (!pdd)
    return -EINVAL;
  /* CONTIGUOUS (1.16) asks amdgpu for VRAM_CONTIGUOUS; only a dGPU's VRAM takes it (an APU's
   * "VRAM" is GTT), and a kernel before 1.16 checks no unknown bit: there it does nothing. */
  if (!(flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM) || pdd->gpu->model->apu || sim_kfd_level() < 16)
    flags &= ~(uint32_t)KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS;
  /* EXT_COHERENT (from 1.15; amdgpu's GEM_CREATE_EXT_COHERENT: device-scope atomics made
   * system-coherent) is kept with the object; a kernel before 1.15 did not know the bit and
   * ignored it, as it ignored every unknown bit: the object is then plainly coherent. */
  if ((flags & KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT) && sim_kfd_level() < 15) {
    flags &= ~(uint32_t)KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT;
    sim_trace("kfd: EXT_COHERENT ignored: KFD 1.%u predates it", sim_kfd_level());
  }
  /* host-visible VRAM needs a large BAR; the simulated boards expose all VRAM */
  int r = sim_pdd_bind(pdd);
  if (r)
    return r;

  void *special = NULL;
  if (flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL) {
    if (a->size != SIM_DOORBELL_SLICE)
      return -EINVAL;
    if ((r = sim_doorbell_pages(pdd)) != 0)
      return r;
    special = pdd->doorbells;
  } else if (flags & KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP) {
    if (a->size != SIM_PAGE)
      return -EINVAL;
    if ((r = sim_mmio_page(pdd)) != 0)
      return r;
    special = pdd->mmio;
  }

  uint64_t user_addr = 0;
  if (!(flags & (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_GTT))) {
    if (flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) {
      if (!a->mmap_offset)
        return -EINVAL;
      user_addr = a->mmap_offset;
    } else if (!(flags & (KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL | KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP))) {
      return -EINVAL;   /* no memory type */
    }
  }

  struct sim_bo *bo = calloc(1, sizeof *bo);
  if (!bo)
    return -ENOMEM;
  bo->pdd = pdd;
  bo->flags = flags;
  bo->va = a->va_addr;
  bo->size = SIM_PAGE_ALIGN(a->size);
  /* AQL queue memory is mapped twice back to back: only half is real memory */
  bo->bo_size = (flags & KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM) ? SIM_PAGE_ALIGN(a->size >> 1)
                                                               : bo->size;
  if ((r = reserve_limit(pdd, bo->bo_size, flags)) != 0) {
    free(bo);
    return r;
  }
  if (user_addr) {
    /* the kernel pins the user pages: every page must be mapped now */
    if (!sim_user_range_mapped(user_addr, a->size)) {
      unreserve_limit(bo->bo_size, acct_flags(pdd, flags));
      free(bo);
      return -EFAULT;
    }
    bo->host = (void *)(uintptr_t)user_addr;
  } else if (special) {
    bo->host = special;
  } else if ((r = sim_store_alloc(p, bo->bo_size, &bo->store_off, &bo->host)) != 0) {
    unreserve_limit(bo->bo_size, acct_flags(pdd, flags));
    free(bo);
    return r;
  }
  a->handle = sim_bo_register(p, pdd, bo);
  a->mmap_offset = bo->mmap_offset;
  if (flags & KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP)   /* MMIO is mapped through /dev/kfd */
    a->mmap_offset = SIM_MMAP_TYPE_MMIO | SIM_MMAP_GPU_ID(a->gpu_id);
  return 0;
}

int sim_kfd_alloc_memory(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_alloc_memory_of_gpu_args *a = data;
  if (a->size == 0)
    return -EINVAL;
  pthread_mutex_lock(&p->lock);
  int r = alloc_locked(p, a);
  pthread_mutex_unlock(&p->lock);
  return r;
}

int sim_kfd_free_memory(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_free_memory_of_gpu_args *a = data;
  int r = 0;
  pthread_mutex_lock(&p->lock);
  struct sim_bo **link = &p->bos, *bo = NULL;
  if (p->signal_handle && p->signal_handle == a->handle) {
    r = -EPERM;   /* the event page lives as long as the process */
    goto out;
  }
  if (!sim_pdd_by_id(p, (uint32_t)(a->handle >> 32))) {
    r = -EINVAL;
    goto out;
  }
  for (; *link; link = &(*link)->next)
    if (sim_bo_handle(*link) == a->handle) {
      bo = *link;
      break;
    }
  if (!bo) {
    r = -EINVAL;
    goto out;
  }
  if (bo->mapped) {
    r = -EBUSY;   /* still mapped on some GPU */
    goto out;
  }
  *link = bo->next;
  if (bo->mem_fd > 0) {   /* a dma-buf: its memory stays while any descriptor holds it */
    sim_sys_munmap(bo->host, bo->bo_size);
    close(bo->mem_fd);
    if (bo->exported)
      unreserve_limit(bo->bo_size, acct_flags(bo->pdd, bo->flags));
  } else {
    if (bo->flags & (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_GTT))
      sim_store_free(p, bo->store_off, bo->bo_size, bo->host);
    unreserve_limit(bo->bo_size, acct_flags(bo->pdd, bo->flags));
  }
  free(bo);
  sim_vm_changed();
out:
  pthread_mutex_unlock(&p->lock);
  return r;
}

int sim_kfd_available_memory(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_get_available_memory_args *a = data;
  pthread_mutex_lock(&p->lock);
  struct sim_pdd *pdd = sim_pdd_by_id(p, a->gpu_id);
  if (!pdd) {
    pthread_mutex_unlock(&p->lock);
    return -EINVAL;
  }
  uint64_t vram = pdd->gpu->vram_bytes, used = vram_used_on(pdd->gpu, true) + pt_reserve();
  uint64_t avail = vram > used ? vram - used : 0;
  a->available = avail & ~((2ull << 20) - 1);
  pthread_mutex_unlock(&p->lock);
  return 0;
}
