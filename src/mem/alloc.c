/* SPDX-License-Identifier: MIT */
/* alloc.c — making and releasing allocations: the kind of buffer object each request needs
 * (flags as libhsakmt passes them for ROCR's regions), whether it is sub-allocated, which
 * GPUs map it, and the record in the table. Also the runtime-internal entry points. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/region.h"
#include "core/runtime.h"
#include "kfd/memory.h"
#include "mem/internal.h"
#include "mem/mem.h"

/* Every user and runtime allocation may hold code and be written by the GPU (libhsakmt marks
 * them all so), and must not silently move to another kind of memory. */
#define BASE_FLAGS (KFD_MEM_WRITABLE | KFD_MEM_EXECUTABLE | KFD_MEM_NO_SUBSTITUTE)

bool mem_region_valid(const struct core_region *r) {
  return r && r->magic == CORE_REGION_MAGIC;
}

static uint32_t kfd_flags_of(const struct core_region *region, bool device, bool fine,
                             uint32_t mflags) {
  uint32_t f = BASE_FLAGS;
  if (fine) f |= KFD_MEM_COHERENT;
  /* the extended-scope pool: fine-grained, and EXT_COHERENT as libhsakmt passes it */
  if (region && region->ext_fine) f |= KFD_MEM_EXT_COHERENT;
  if (!device && region && region->kernarg) f |= KFD_MEM_UNCACHED;
  if (mflags & MEM_F_UNCACHED) f |= KFD_MEM_UNCACHED;
  if (mflags & MEM_F_AQL_QUEUE) f |= KFD_MEM_AQL_QUEUE | KFD_MEM_UNCACHED;
  if (device && (mflags & MEM_F_CONTIGUOUS)) f |= KFD_MEM_CONTIGUOUS;
  return f;
}

static bool host_visible(const struct core_region *region) {
  return !region || region->heap != CORE_HEAP_FB_PRIVATE;
}

/* Freed records are kept (up to SPARE_MAX) for the next allocations, so alloc/free loops
 * skip the C allocator. Both with mem_mutex held. */
#define SPARE_MAX 256
static struct mem_rec *spare;   /* linked through userdata */
static unsigned nspare;

static struct mem_rec *rec_new(void) {
  struct mem_rec *r = spare;
  if (!r) return calloc(1, sizeof(*r));
  spare = r->userdata;
  nspare--;
  memset(r, 0, sizeof(*r));
  return r;
}

static void rec_put(struct mem_rec *r) {
  if (nspare >= SPARE_MAX) {
    free(r);
    return;
  }
  r->userdata = spare;
  spare = r;
  nspare++;
}

hsa_status_t mem_alloc_rec(const struct core_region *region, const struct core_agent *owner,
                           size_t size, size_t align, uint32_t mflags, enum mem_kind kind,
                           uint64_t gpus, struct mem_rec **out) {
  bool device = owner->kind == CORE_AGENT_GPU;
  bool fine = (region ? region->fine_grain || region->ext_fine : !device) || (mflags & MEM_F_FINE);
  if (device) {
    /* Device memory of the runtime itself: the GPU's coarse-grained local region. */
    for (unsigned k = 0; !region && k < owner->region_count; k++)
      if (core_region_is_local(&owner->regions[k]) && !owner->regions[k].fine_grain &&
          !owner->regions[k].ext_fine)
        region = &owner->regions[k];
  }
  uint32_t kflags = kfd_flags_of(region, device, fine, mflags);
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = rec_new();
  if (!r) {
    pthread_mutex_unlock(&mem_mutex);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  r->kind = kind;
  r->region = kind == MEM_KIND_USER ? region : NULL;
  r->owner = owner;
  r->device = device;
  r->fine = fine;
  /* User memory comes in whole pages, and its record says so (ROCR reports the page-aligned
   * size through pointer info); runtime objects keep their exact size. */
  size_t bytes = kind == MEM_KIND_USER ? MEM_ALIGN_UP(size, MEM_PAGE) : size;
  r->size = bytes;
  r->access = gpus;

  bool sub = bytes <= MEM_SUBALLOC_MAX && !(mflags & (MEM_F_NO_SUBALLOC | MEM_F_AQL_QUEUE)) &&
             align <= MEM_CHUNK_SIZE;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  void *p = NULL;
  if (sub) {
    struct mem_chunk_key key = {
        .region = region, .gpu = device ? owner : NULL, .kfd_flags = kflags, .gpus = gpus,
        .granule = kind == MEM_KIND_INTERNAL && size <= MEM_PAGE / 2 ? 64u : MEM_PAGE};
    p = mem_suballoc(&key, bytes, align, &r->chunk, &r->bo, &st);
    if (p && kind == MEM_KIND_INTERNAL && r->bo->cpu_visible) memset(p, 0, size);
  } else {
    int numa = !device && region ? (int)region->owner->node_id : -1;
    r->bo = device ? mem_bo_device(owner, bytes, align, kflags, host_visible(region), gpus, &st)
                   : mem_bo_system(bytes, align, kflags, numa, gpus, &st);
    if (r->bo) p = r->bo->va;
  }
  if (p) {
    r->base = (uintptr_t)p;
    if (mem_table_insert(r) != 0) {
      mem_rec_destroy(r);
      r = NULL;
      p = NULL;
      st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
  }
  if (!p && r) rec_put(r);
  pthread_mutex_unlock(&mem_mutex);
  if (!p) return st != HSA_STATUS_SUCCESS ? st : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  *out = r;
  return HSA_STATUS_SUCCESS;
}

/* mem_mutex held; r is out of the table (or never was in it). */
void mem_rec_destroy(struct mem_rec *r) {
  if (r->chunk) mem_subfree(r->chunk, (void *)r->base, r->size);
  else mem_bo_destroy(r->bo);
  while (r->cbs) {
    struct mem_cb *c = r->cbs;
    r->cbs = c->next;
    free(c);
  }
  if (r->meta) free(r->meta);
  rec_put(r);
}

void mem_rec_run_callbacks(struct mem_rec *r) {
  for (struct mem_cb *c = r->cbs; c; c = c->next) c->fn(c->ptr, c->data);
}

/* ---- the runtime's own memory --------------------------------------------------------- */

void *mem_system(size_t size, size_t align, uint32_t flags) {
  if (!core_runtime_is_open() && !core_rt()) return NULL;
  const struct core_agent *cpu = mem_first_cpu();
  if (!cpu || size == 0 || (align & (align - 1))) return NULL;
  if (align == 0) align = 64;
  struct mem_rec *r;
  if (mem_alloc_rec(NULL, cpu, size, align, flags, MEM_KIND_INTERNAL, mem_all_gpus(), &r) !=
      HSA_STATUS_SUCCESS)
    return NULL;
  return (void *)r->base;
}

bool mem_system_at(void *va, size_t size, uint32_t flags) {
  if (!core_runtime_is_open() && !core_rt()) return false;
  const struct core_agent *cpu = mem_first_cpu();
  if (!cpu || !va || size == 0 || ((uintptr_t)va & (MEM_PAGE - 1))) return false;
  struct mem_rec *r = calloc(1, sizeof(*r));
  if (!r) return false;
  r->kind = MEM_KIND_INTERNAL;
  r->owner = cpu;
  r->fine = true;
  r->size = size;
  r->access = mem_all_gpus();
  r->base = (uintptr_t)va;
  hsa_status_t st;
  pthread_mutex_lock(&mem_mutex);
  r->bo = mem_bo_system_at(va, size, kfd_flags_of(NULL, false, true, flags), r->access, &st);
  bool ok = r->bo && mem_table_insert(r) == 0;
  if (!ok && r->bo) mem_bo_destroy(r->bo);
  pthread_mutex_unlock(&mem_mutex);
  if (!ok) free(r);
  return ok;
}

void *mem_device(const struct core_agent *gpu, size_t size, size_t align, uint32_t flags) {
  if (!gpu || gpu->kind != CORE_AGENT_GPU || size == 0 || (align & (align - 1))) return NULL;
  if (align == 0) align = 64;
  struct mem_rec *r;
  if (mem_alloc_rec(NULL, gpu, size, align, flags, MEM_KIND_INTERNAL, 1ull << gpu->gpu_index,
                    &r) != HSA_STATUS_SUCCESS)
    return NULL;
  return (void *)r->base;
}

void mem_release(void *ptr) {
  if (!ptr) return;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find_base((uintptr_t)ptr);
  if (r && r->kind == MEM_KIND_INTERNAL) {
    mem_table_remove(r);
    mem_rec_destroy(r);
  }
  pthread_mutex_unlock(&mem_mutex);
}

/* ---- user allocations ----------------------------------------------------------------- */

static void tell_no_contiguous(void) {
  fprintf(stderr, "hsa-runtime64: HSA_AMD_MEMORY_POOL_CONTIGUOUS_FLAG needs KFD interface 1.16 or "
                  "later (this driver has %u.%u); the allocation is refused.\n",
          core_rt()->kfd.major, core_rt()->kfd.minor);
}

hsa_status_t mem_user_alloc(const struct core_region *region, size_t size, uint32_t pool_flags,
                            uint64_t gpus, void **ptr) {
  if (!mem_region_valid(region) || !ptr || size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  bool system = core_region_is_system(region);
  if (!system && !core_region_is_local(region)) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  /* HSA_REGION_INFO_ALLOC_MAX_SIZE (core_region_info), read directly */
  size_t max = system ? (size_t)core_rt()->max_sysmem_alloc : (size_t)region->max_alloc;
  if (size > max) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  uint32_t mflags = 0;
  if (pool_flags & HSA_AMD_MEMORY_POOL_CONTIGUOUS_FLAG) {
    mflags |= MEM_F_NO_SUBALLOC;
    /* Physically contiguous VRAM, as ROCR asks for it (local pools only; system memory takes
     * the flag and ignores it). A kernel before 1.16 would silently ignore the bit, so it is
     * refused here, as libhsakmt refuses it (ROCR: OUT_OF_RESOURCES). */
    if (core_region_is_local(region)) {
      if (!kfd_has_contiguous_vram(&core_rt()->kfd)) {
        static pthread_once_t once = PTHREAD_ONCE_INIT;
        pthread_once(&once, tell_no_contiguous);
        return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      }
      mflags |= MEM_F_CONTIGUOUS;
    }
  }
  if ((pool_flags & HSA_AMD_MEMORY_POOL_PCIE_FLAG) && !system && !region->fine_grain &&
      !region->ext_fine)
    mflags |= MEM_F_FINE;
  struct mem_rec *r;
  hsa_status_t st =
      mem_alloc_rec(region, region->owner, size, MEM_PAGE, mflags, MEM_KIND_USER, gpus, &r);
  if (st == HSA_STATUS_SUCCESS) *ptr = (void *)r->base;
  return st;
}

hsa_status_t mem_alloc(const struct core_region *region, size_t size, uint32_t flags, void **ptr) {
  if (!mem_region_valid(region)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint64_t gpus = core_region_is_system(region) ? mem_all_gpus()
                                                : 1ull << region->owner->gpu_index;
  return mem_user_alloc(region, size, flags, gpus, ptr);
}

hsa_status_t mem_free(void *ptr) {
  if (!ptr) return HSA_STATUS_SUCCESS;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_take_base((uintptr_t)ptr, MEM_KIND_USER);
  if (!r) {
    pthread_mutex_unlock(&mem_mutex);
    return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  }
  if (!r->cbs) {   /* out of the table, so no one can add a callback now */
    mem_rec_destroy(r);
    pthread_mutex_unlock(&mem_mutex);
    mem_ipc_unserve((uintptr_t)ptr);   /* importers already holding it keep their dma-buf */
    return HSA_STATUS_SUCCESS;
  }
  pthread_mutex_unlock(&mem_mutex);
  mem_ipc_unserve((uintptr_t)ptr);
  /* Callbacks run unlocked and after the record left the table, so they may allocate and
   * free, and cannot free this pointer twice. */
  mem_rec_run_callbacks(r);
  pthread_mutex_lock(&mem_mutex);
  mem_rec_destroy(r);
  pthread_mutex_unlock(&mem_mutex);
  return HSA_STATUS_SUCCESS;
}

static void fill_block(const struct mem_rec *r, bool by_host, uintptr_t p,
                       struct mem_block *out) {
  memset(out, 0, sizeof(*out));
  if (r->kind == MEM_KIND_LOCKED && by_host) {
    out->base = (void *)r->host_base;
    out->size = r->host_size;
  } else {
    out->base = (void *)r->base;
    out->size = r->size;
  }
  (void)p;
  out->region = r->region;
  out->owner = r->owner;
  out->gpu_va = r->base;
  out->device = r->device;
  out->fine_grain = r->fine;
  out->locked = r->kind == MEM_KIND_LOCKED;
}

bool mem_lookup(const void *ptr, struct mem_block *out) {
  if (!ptr) return false;
  bool found = false;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find((uintptr_t)ptr);
  bool by_host = false;
  if (!r) {
    r = mem_table_find_host((uintptr_t)ptr);
    by_host = r != NULL;
  }
  if (r) {
    found = true;
    if (out) fill_block(r, by_host, (uintptr_t)ptr, out);
  }
  pthread_mutex_unlock(&mem_mutex);
  return found;
}

hsa_status_t mem_map_on(const void *ptr, const struct core_agent *gpu) {
  if (!ptr || !gpu || gpu->kind != CORE_AGENT_GPU) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!(mem_all_gpus() & (1ull << gpu->gpu_index))) return HSA_STATUS_ERROR_INVALID_AGENT;
  hsa_status_t st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find((uintptr_t)ptr);
  if (!r) r = mem_table_find_host((uintptr_t)ptr);
  if (r && r->bo) {
    st = mem_bo_map(r->bo, 1ull << gpu->gpu_index);
    if (st == HSA_STATUS_SUCCESS) r->access |= 1ull << gpu->gpu_index;
  }
  pthread_mutex_unlock(&mem_mutex);
  return st;
}

void mem_shutdown(void) {
  mem_ipc_shutdown();
  mem_sdma_shutdown();
  pthread_mutex_lock(&mem_mutex);
  for (struct mem_rec *r; (r = mem_table_first()) != NULL;) {
    mem_table_remove(r);
    mem_rec_destroy(r);
  }
  mem_suballoc_reset();
  mem_table_reset();
  while (spare) {
    struct mem_rec *r = spare;
    spare = r->userdata;
    free(r);
  }
  nspare = 0;
  pthread_mutex_unlock(&mem_mutex);
  mem_coherency_reset();
}
