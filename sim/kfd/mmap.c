/* SPDX-License-Identifier: MIT */
/* mmap.c — mmap of /dev/kfd (doorbells, event page, MMIO remap, reserved CWSR memory,
 * told apart by the offset's type bits) and of a render node (buffer objects at their
 * DRM offset). The mapping is of the same memory the driver model and the GPU model use,
 * at the caller's address when it asks for MAP_FIXED, as the thunk does. */
#include "kfd/gem.h"
#include "kfd/kfd.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

/* The CPU mappings made here, so munmap can tell sim/os it was ours. */
struct cpu_map {
  struct cpu_map *next;
  uintptr_t start, end;
  uint64_t store_off;        /* offset in the process store it maps, or NO_STORE */
  int prot;
};
#define NO_STORE UINT64_MAX
static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cpu_map *maps;

static void *remember_store(void *m, size_t len, uint64_t store_off, int prot)
{
  if (m == MAP_FAILED)
    return m;
  struct cpu_map *c = malloc(sizeof *c);
  if (c) {
    c->start = (uintptr_t)m;
    c->end = (uintptr_t)m + SIM_PAGE_ALIGN(len);
    c->store_off = store_off;
    c->prot = prot;
    pthread_mutex_lock(&maps_lock);
    c->next = maps;
    maps = c;
    pthread_mutex_unlock(&maps_lock);
  }
  return m;
}

static void *remember(void *m, size_t len)
{
  return remember_store(m, len, NO_STORE, 0);
}

void sim_kfd_repoint_store(uint64_t off, uint64_t size, int fd)
{
  pthread_mutex_lock(&maps_lock);
  for (struct cpu_map *c = maps; c; c = c->next) {
    if (c->store_off == NO_STORE)
      continue;
    uint64_t c_end = c->store_off + (c->end - c->start);
    uint64_t lo = c->store_off > off ? c->store_off : off;
    uint64_t hi = c_end < off + size ? c_end : off + size;
    if (lo >= hi)
      continue;
    int e;
    sim_sys_mmap((void *)(c->start + (lo - c->store_off)), hi - lo, c->prot,
                 MAP_SHARED | MAP_FIXED, fd, (off_t)(lo - off), &e);
  }
  pthread_mutex_unlock(&maps_lock);
}

int sim_kfd_munmap(void *addr, size_t len)
{
  uintptr_t s = (uintptr_t)addr, e = s + SIM_PAGE_ALIGN(len);
  int ours = 0;
  pthread_mutex_lock(&maps_lock);
  for (struct cpu_map **l = &maps; *l;) {
    struct cpu_map *c = *l;
    if (c->start < e && s < c->end) {
      ours = 1;
      if (s <= c->start && e >= c->end) {   /* wholly unmapped */
        *l = c->next;
        free(c);
        continue;
      }
      if (s <= c->start)
        c->start = e;
      else if (e >= c->end)
        c->end = s;
      /* a hole in the middle keeps the record whole: it is only bookkeeping */
    }
    l = &c->next;
  }
  pthread_mutex_unlock(&maps_lock);
  if (ours)
    sim_doorbell_unmapped(addr, len);   /* sim/cp stops watching it */
  else
    sim_svm_unmapped(s, e - s);   /* user memory: SVM ranges in it go */
  return ours;
}

static void *fail(int *err, int e)
{
  *err = e;
  return MAP_FAILED;
}

static void *map_store(struct sim_kfd_process *p, void *addr, size_t len, int prot, int flags,
                       uint64_t off, int *err)
{
  flags &= ~(MAP_ANONYMOUS | MAP_GROWSDOWN | MAP_HUGETLB);
  void *m = remember_store(sim_sys_mmap(addr, len, prot, flags, p->store_fd, (off_t)off, err),
                           len, off, prot);
  if (m != MAP_FAILED)
    sim_doorbell_mapped(p, m, len, off);   /* sim/cp watches doorbell pages */
  return m;
}

void *sim_kfd_mmap(void *addr, size_t len, int prot, int flags, off_t offset, int *err)
{
  uint64_t off = (uint64_t)offset;
  if (!len || (off & (SIM_PAGE - 1)))
    return fail(err, EINVAL);
  struct sim_kfd_process *p = sim_kfd_current();
  if (!p)
    return fail(err, EINVAL);
  uint32_t gpu_id = SIM_MMAP_GET_GPU_ID(off);
  struct sim_pdd *pdd = gpu_id ? sim_pdd_by_id(p, gpu_id) : NULL;
  void *m = MAP_FAILED;
  int r = 0;
  switch (off & SIM_MMAP_TYPE_MASK) {
  case SIM_MMAP_TYPE_DOORBELL:
    if (!pdd)
      return fail(err, ENODEV);
    if (len != SIM_DOORBELL_SLICE)   /* only the whole doorbell slice */
      return fail(err, EINVAL);
    pthread_mutex_lock(&p->lock);
    if ((r = sim_doorbell_pages(pdd)) == 0)
      m = map_store(p, addr, len, prot, flags, pdd->doorbells_off, err);
    pthread_mutex_unlock(&p->lock);
    break;
  case SIM_MMAP_TYPE_EVENTS:
    m = remember(sim_event_mmap(p, addr, len, prot, flags, err), len);
    break;
  case SIM_MMAP_TYPE_MMIO:
    if (!pdd)
      return fail(err, ENODEV);
    if (len != SIM_PAGE)
      return fail(err, EINVAL);
    pthread_mutex_lock(&p->lock);
    if ((r = sim_mmio_page(pdd)) == 0)
      m = map_store(p, addr, len, prot, flags, pdd->mmio_off, err);
    pthread_mutex_unlock(&p->lock);
    break;
  default: /* reserved memory: the CWSR trap pages of an APU */
    if (!pdd)
      return fail(err, ENODEV);
    return fail(err, EINVAL);
  }
  if (r)
    return fail(err, -r);
  sim_trace("kfd mmap(addr=%p, len=0x%zx, offset=0x%llx) = %p", addr, len,
            (unsigned long long)off, m);
  return m;
}

void *sim_drm_mmap(struct sim_gpu *gpu, void *addr, size_t len, int prot, int flags,
                   off_t offset, int *err)
{
  uint64_t off = (uint64_t)offset;
  if (!len || (off & (SIM_PAGE - 1)))
    return fail(err, EINVAL);
  int gem_fd, e = EINVAL;
  uint64_t gem_in;
  if (sim_gem_mmap_target(gpu, off, len, &gem_fd, &gem_in, &e)) {   /* a render-node object */
    void *g = e ? MAP_FAILED : remember(sim_sys_mmap(addr, len, prot, flags & ~MAP_ANONYMOUS,
                                                     gem_fd, (off_t)gem_in, &e), len);
    sim_trace("drm renderD%u mmap(addr=%p, len=0x%zx, offset=0x%llx) = %p (GEM object)",
              gpu->render_minor, addr, len, (unsigned long long)off, g);
    if (g == MAP_FAILED)
      *err = e;
    return g;
  }
  e = EINVAL;
  struct sim_kfd_process *p = sim_kfd_current();
  if (!p)
    return fail(err, EINVAL);   /* no buffer objects at all */
  void *m = MAP_FAILED;
  pthread_mutex_lock(&p->lock);
  for (struct sim_bo *b = p->bos; b; b = b->next) {
    if (b->pdd->gpu != gpu || off < b->mmap_offset || off - b->mmap_offset >= b->bo_size)
      continue;
    uint64_t in = off - b->mmap_offset;
    if (in + SIM_PAGE_ALIGN(len) > b->bo_size)
      break;   /* larger than the object */
    if (b->flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) {
      e = EPERM;   /* user pages are mapped by their owner, not through the device */
      break;
    }
    if (b->mem_fd > 0) {   /* an imported dma-buf: its own file */
      m = remember(sim_sys_mmap(addr, len, prot, flags & ~MAP_ANONYMOUS, b->mem_fd, (off_t)in, &e),
                   len);
      break;
    }
    uint64_t base = (b->flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL)     ? b->pdd->doorbells_off
                    : (b->flags & KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP) ? b->pdd->mmio_off
                                                                      : b->store_off;
    m = map_store(p, addr, len, prot, flags, base + in, &e);
    break;
  }
  pthread_mutex_unlock(&p->lock);
  sim_trace("drm renderD%u mmap(addr=%p, len=0x%zx, offset=0x%llx) = %p", gpu->render_minor,
            addr, len, (unsigned long long)off, m);
  if (m == MAP_FAILED)
    *err = e;
  return m;
}
