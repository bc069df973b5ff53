/* SPDX-License-Identifier: MIT */
/* bo.c — buffer objects as libhsakmt makes them on a discrete GPU, so GPU and CPU share one
 * address for everything:
 * - system memory: anonymous pages at a fresh address, bound to the NUMA node, then a USERPTR
 *   object over them at that same GPU address;
 * - device memory: an address range reserved inside the GPUVM aperture, a VRAM object at it,
 *   and (when the VRAM is host-visible) the render node's mapping of the object at that
 *   address;
 * - locked host memory: a USERPTR object over the user's pages at a reserved address of its
 *   own (the user's pages may share a page with other locked ranges, which one GPU VM could
 *   not map twice). */
#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/runtime.h"
#include "kfd/memory.h"
#include "mem/internal.h"
#include "mem/mem.h"

const struct core_agent *mem_gpu(unsigned index) { return core_gpu(index); }

const struct core_agent *mem_first_cpu(void) {
  struct core_runtime *rt = core_rt();
  return rt->cpu_count ? rt->agents[0] : NULL;
}

uint64_t mem_all_gpus(void) { return core_usable_gpus(); }

/* mem_system_owner: the GPU this thread's system memory objects are made on, else the first */
static _Thread_local const struct core_agent *owner_gpu;

void mem_system_owner(const struct core_agent *gpu) { owner_gpu = gpu; }

static const struct core_agent *first_gpu(void) {
  uint64_t all = mem_all_gpus();
  return all ? mem_gpu((unsigned)__builtin_ctzll(all)) : NULL;
}

/* The GPU a system memory object is made on (and so belongs to, for the driver). */
static const struct core_agent *system_gpu(void) {
  const struct core_agent *o = owner_gpu;
  if (o && (mem_all_gpus() & (1ull << o->gpu_index))) return o;
  return first_gpu();
}

/* Whatever the driver's reason (ENOMEM, ENOSPC, a VM conflict), ROCR reports a refused
 * allocation or mapping as out of resources; so do we. */
static hsa_status_t errno_status(int rc) {
  (void)rc;
  return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

/* The gpu_ids of the GPUs in `mask`. */
static uint32_t ids_of(uint64_t mask, uint32_t *ids) {
  uint32_t n = 0;
  for (uint64_t m = mask; m; m &= m - 1) {
    const struct core_agent *g = mem_gpu((unsigned)__builtin_ctzll(m));
    if (g) ids[n++] = g->gpu_id;
  }
  return n;
}

hsa_status_t mem_bo_map(struct mem_bo *bo, uint64_t gpus) {
  uint64_t todo = gpus & ~bo->mapped & mem_all_gpus();
  if (!todo || !bo->alloc_gpu) return HSA_STATUS_SUCCESS;
  uint32_t ids[MEM_MAX_GPUS];
  uint32_t n = ids_of(todo, ids);
  int rc = kfd_mem_map(&core_rt()->kfd, bo->handle, ids, n);
  if (rc) {
    /* Some GPUs may be mapped before the failure; unmapping them keeps `mapped` exact. */
    kfd_mem_unmap(&core_rt()->kfd, bo->handle, ids, n);
    return errno_status(rc);
  }
  bo->mapped |= todo;
  return HSA_STATUS_SUCCESS;
}

static uint64_t aperture_lo(const struct core_agent *g) {
  return g && g->has_aperture ? g->aperture.gpuvm_base : 0;
}
static uint64_t aperture_hi(const struct core_agent *g) {
  return g && g->has_aperture ? g->aperture.gpuvm_limit + 1 : 0;
}

static void bind_numa(void *p, uint64_t size, int node) {
  if (node < 0 || numa_available() < 0 || numa_max_node() < 1 || node > numa_max_node()) return;
  unsigned long mask[16] = {0};
  if ((unsigned)node >= sizeof(mask) * 8) return;
  mask[node / (8 * sizeof(long))] = 1ul << (node % (8 * sizeof(long)));
  /* Preferred, not bound: another node's memory beats failing the allocation. */
  mbind(p, size, MPOL_PREFERRED, mask, sizeof(mask) * 8, 0);
}

static struct mem_bo *finish(struct mem_bo *bo, uint64_t gpus, hsa_status_t *st) {
  *st = mem_bo_map(bo, gpus);
  if (*st != HSA_STATUS_SUCCESS) {
    mem_bo_destroy(bo);
    return NULL;
  }
  return bo;
}

struct mem_bo *mem_bo_system(uint64_t size, uint64_t align, uint32_t kfd_flags, int numa_node,
                             uint64_t gpus, hsa_status_t *st) {
  *st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  struct mem_bo *bo = calloc(1, sizeof(*bo));
  if (!bo) return NULL;
  const struct core_agent *g = system_gpu();
  size = MEM_ALIGN_UP(size, MEM_PAGE);
  /* AQL queue memory: the kernel maps the pages twice, back to back; reserve the span. */
  uint64_t span = (kfd_flags & KFD_MEM_AQL_QUEUE) ? size * 2 : size;
  void *va = kfd_va_reserve(span, align, aperture_lo(g), aperture_hi(g));
  if (!va) goto fail;
  bo->va = va;
  bo->size = span;
  if (mmap(va, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
      MAP_FAILED)
    goto fail;
  bo->anon_pages = true;
  bo->cpu_visible = true;
  bind_numa(va, size, numa_node);
  /* The child of a fork must not share pinned pages (the kernel would evict them). */
  madvise(va, size, MADV_DONTFORK);
  if (!g) return bo;   /* no GPU: plain host memory */
  int rc = kfd_mem_alloc(&core_rt()->kfd, g->gpu_id, (uint64_t)(uintptr_t)va, span,
                         kfd_flags | KFD_MEM_USERPTR, (uint64_t)(uintptr_t)va, &bo->handle, NULL);
  if (rc) {
    *st = errno_status(rc);
    goto fail;
  }
  bo->alloc_gpu = g;
  bo->kfd_flags = kfd_flags | KFD_MEM_USERPTR;
  return finish(bo, gpus, st);
fail:
  if (bo->va) kfd_va_release(bo->va, bo->size);
  free(bo);
  return NULL;
}

struct mem_bo *mem_bo_system_at(void *va, uint64_t size, uint32_t kfd_flags, uint64_t gpus,
                                hsa_status_t *st) {
  *st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  struct mem_bo *bo = calloc(1, sizeof(*bo));
  if (!bo) return NULL;
  bo->va = va;
  bo->size = MEM_ALIGN_UP(size, MEM_PAGE);
  bo->cpu_visible = true;
  bo->keep_va = true;
  const struct core_agent *g = system_gpu();
  if (!g) return bo;   /* no GPU: plain host memory */
  int rc = kfd_mem_alloc(&core_rt()->kfd, g->gpu_id, (uint64_t)(uintptr_t)va, bo->size,
                         kfd_flags | KFD_MEM_USERPTR, (uint64_t)(uintptr_t)va, &bo->handle, NULL);
  if (rc) {
    *st = errno_status(rc);
    free(bo);
    return NULL;
  }
  bo->alloc_gpu = g;
  bo->kfd_flags = kfd_flags | KFD_MEM_USERPTR;
  return finish(bo, gpus, st);
}

void mem_gpuvm_range(uint64_t *lo, uint64_t *hi) {
  const struct core_agent *g = first_gpu();
  *lo = aperture_lo(g);
  *hi = aperture_hi(g);
}

struct mem_bo *mem_bo_device(const struct core_agent *gpu, uint64_t size, uint64_t align,
                             uint32_t kfd_flags, bool host_visible, uint64_t gpus,
                             hsa_status_t *st) {
  *st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (!gpu || !core_gpu_usable(gpu) || !(mem_all_gpus() & (1ull << gpu->gpu_index)))
    return NULL;
  struct mem_bo *bo = calloc(1, sizeof(*bo));
  if (!bo) return NULL;
  size = MEM_ALIGN_UP(size, MEM_PAGE);
  uint64_t span = (kfd_flags & KFD_MEM_AQL_QUEUE) ? size * 2 : size;
  void *va = kfd_va_reserve(span, align, aperture_lo(gpu), aperture_hi(gpu));
  if (!va) goto fail;
  bo->va = va;
  bo->size = span;
  uint64_t off = 0;
  uint32_t f = kfd_flags | KFD_MEM_VRAM | (host_visible ? KFD_MEM_PUBLIC : 0);
  int rc = kfd_mem_alloc(&core_rt()->kfd, gpu->gpu_id, (uint64_t)(uintptr_t)va, span, f, 0,
                         &bo->handle, &off);
  if (rc) {
    *st = errno_status(rc);
    goto fail;
  }
  bo->alloc_gpu = gpu;
  bo->kfd_flags = f;
  if (host_visible && kfd_mem_cpu_map(gpu->drm.fd, va, size, off, true) == 0)
    bo->cpu_visible = true;
  return finish(bo, gpus, st);
fail:
  if (bo->va) kfd_va_release(bo->va, bo->size);
  free(bo);
  return NULL;
}

struct mem_bo *mem_bo_userptr(uintptr_t host, uint64_t size, uint32_t kfd_flags, uint64_t gpus,
                              hsa_status_t *st) {
  *st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  const struct core_agent *g = first_gpu();
  if (!g) return NULL;
  struct mem_bo *bo = calloc(1, sizeof(*bo));
  if (!bo) return NULL;
  void *va = kfd_va_reserve(size, MEM_PAGE, aperture_lo(g), aperture_hi(g));
  if (!va) goto fail;
  bo->va = va;
  bo->size = size;
  int rc = kfd_mem_alloc(&core_rt()->kfd, g->gpu_id, (uint64_t)(uintptr_t)va, size,
                         kfd_flags | KFD_MEM_USERPTR, host, &bo->handle, NULL);
  if (rc) {
    /* EFAULT: the user's range is not (all) mapped memory. */
    *st = rc == -EFAULT ? HSA_STATUS_ERROR_INVALID_ARGUMENT : errno_status(rc);
    goto fail;
  }
  bo->alloc_gpu = g;
  bo->kfd_flags = kfd_flags | KFD_MEM_USERPTR;
  return finish(bo, gpus, st);
fail:
  if (bo->va) kfd_va_release(bo->va, bo->size);
  free(bo);
  return NULL;
}

void mem_bo_destroy(struct mem_bo *bo) {
  if (!bo) return;
  if (bo->alloc_gpu) {
    uint32_t ids[MEM_MAX_GPUS];
    uint32_t n = ids_of(bo->mapped, ids);
    if (n) kfd_mem_unmap(&core_rt()->kfd, bo->handle, ids, n);
    /* The object goes before its pages: a userptr must not outlive them. */
    kfd_mem_free(&core_rt()->kfd, bo->handle);
  }
  if (!bo->keep_va) kfd_va_release(bo->va, bo->size);
  free(bo);
}

/* System memory another process can import: the kernel exports no user pages (userptr), so
 * the object becomes a GTT object at the same address, as libhsakmt makes non-paged host
 * memory: the userptr object goes (its pages stay), a GTT object takes its GPU address, the
 * bytes move into it through the render node's CPU mapping laid over the same addresses, and
 * the GPUs map it again. If the GTT object cannot be made, the userptr object comes back. A
 * GPU access racing the change is the caller's to avoid. */
hsa_status_t mem_bo_to_gtt(struct mem_bo *bo) {
  if (!bo->alloc_gpu || !(bo->kfd_flags & KFD_MEM_USERPTR) || !bo->anon_pages ||
      (bo->kfd_flags & KFD_MEM_AQL_QUEUE))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct kfd_device *dev = &core_rt()->kfd;
  const struct core_agent *g = bo->alloc_gpu;
  uint64_t gpus = bo->mapped;
  uint32_t ids[MEM_MAX_GPUS];
  uint32_t n = ids_of(gpus, ids);
  if (n) kfd_mem_unmap(dev, bo->handle, ids, n);
  bo->mapped = 0;
  kfd_mem_free(dev, bo->handle);
  uint32_t uflags = bo->kfd_flags;
  uint32_t gflags = (uflags & ~KFD_MEM_USERPTR) | KFD_MEM_GTT;
  uint64_t handle = 0, off = 0;
  void *tmp = malloc(bo->size);
  int rc = tmp ? kfd_mem_alloc(dev, g->gpu_id, (uint64_t)(uintptr_t)bo->va, bo->size, gflags, 0,
                               &handle, &off)
               : -ENOMEM;
  if (rc == 0) {
    memcpy(tmp, bo->va, bo->size);
    rc = kfd_mem_cpu_map(g->drm.fd, bo->va, bo->size, off, true);
    if (rc == 0) {
      memcpy(bo->va, tmp, bo->size);
    } else {
      kfd_mem_free(dev, handle);   /* the anonymous pages are still there */
    }
  }
  free(tmp);
  if (rc == 0) {
    bo->handle = handle;
    bo->kfd_flags = gflags;
    bo->anon_pages = false;
  } else if (kfd_mem_alloc(dev, g->gpu_id, (uint64_t)(uintptr_t)bo->va, bo->size, uflags,
                           (uint64_t)(uintptr_t)bo->va, &bo->handle, NULL) != 0) {
    bo->alloc_gpu = NULL;   /* plain host pages now: no GPU reaches them */
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  hsa_status_t st = mem_bo_map(bo, gpus);
  return rc == 0 ? st : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}
