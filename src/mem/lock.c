/* SPDX-License-Identifier: MIT */
/* lock.c — host memory the user already has, made reachable by GPUs: hsa_amd_memory_lock
 * (and _to_pool) pin the pages with a USERPTR buffer object at a GPU address of its own and
 * return that address (the pages may share a page with other locked ranges, which one GPU VM
 * cannot map twice); locking the same range again counts, unlock undoes one. hsa_memory_register
 * is, as in ROCR 5.2, only checked: on a discrete GPU it promises nothing more. */
#include <stdlib.h>

#include "core/agent.h"
#include "core/region.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "kfd/memory.h"
#include "mem/internal.h"

hsa_status_t hsa_memory_register(void *ptr, size_t size) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (size == 0 && ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_memory_deregister(void *ptr, size_t size) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t lock(void *host_ptr, size_t size, const hsa_agent_t *agents, int num_agent,
                         const struct core_region *pool, void **agent_ptr) {
  uint64_t gpus = 0;
  if (!agents) {
    gpus = mem_all_gpus();
  } else {
    for (int i = 0; i < num_agent; i++) {
      const struct core_agent *a = core_agent_from_handle(agents[i]);
      if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
      if (a->kind == CORE_AGENT_GPU && (mem_all_gpus() & (1ull << a->gpu_index)))
        gpus |= 1ull << a->gpu_index;
    }
  }
  if (!gpus) {   /* no GPU to reach it: the host address serves */
    *agent_ptr = host_ptr;
    return HSA_STATUS_SUCCESS;
  }
  uintptr_t h = (uintptr_t)host_ptr, start = h & ~(uintptr_t)(MEM_PAGE - 1);
  if (h + size < h) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  size_t span = MEM_ALIGN_UP(h + size, MEM_PAGE) - start;
  uint32_t kflags = KFD_MEM_WRITABLE | KFD_MEM_EXECUTABLE | KFD_MEM_NO_SUBSTITUTE |
                    (pool->fine_grain ? KFD_MEM_COHERENT : 0);

  hsa_status_t st = HSA_STATUS_SUCCESS;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find_host(h);
  if (r && r->host_base == h && r->host_size == size) {   /* the same range again: count it */
    st = mem_bo_map(r->bo, gpus);
    if (st == HSA_STATUS_SUCCESS) {
      r->refs++;
      r->access |= gpus;
      *agent_ptr = (void *)r->base;
    }
    pthread_mutex_unlock(&mem_mutex);
    return st;
  }
  r = calloc(1, sizeof(*r));
  struct mem_bo *bo = r ? mem_bo_userptr(start, span, kflags, gpus, &st) : NULL;
  if (!bo) {
    free(r);
    pthread_mutex_unlock(&mem_mutex);
    return r ? st : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  /* The record covers the user's bytes at both addresses (the pages around them are pinned
   * too, but belong to whatever else the user keeps there). */
  r->kind = MEM_KIND_LOCKED;
  r->bo = bo;
  r->base = (uintptr_t)bo->va + (h - start);
  r->size = size;
  r->host_base = h;
  r->host_size = size;
  r->refs = 1;
  r->owner = mem_first_cpu();
  r->fine = pool->fine_grain;
  r->access = gpus;
  if (mem_table_insert(r) != 0) {
    mem_bo_destroy(bo);
    free(r);
    pthread_mutex_unlock(&mem_mutex);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  *agent_ptr = (void *)r->base;
  pthread_mutex_unlock(&mem_mutex);
  return HSA_STATUS_SUCCESS;
}

/* The first CPU's system pool of the wanted grain. */
static const struct core_region *system_pool(bool fine) {
  const struct core_agent *cpu = mem_first_cpu();
  for (unsigned k = 0; cpu && k < cpu->region_count; k++)
    if (core_region_is_system(&cpu->regions[k]) && cpu->regions[k].fine_grain == fine &&
        !cpu->regions[k].kernarg && !cpu->regions[k].ext_fine)
      return &cpu->regions[k];
  return NULL;
}

static hsa_status_t check_args(void *host_ptr, size_t size, const hsa_agent_t *agents,
                               int num_agent, void **agent_ptr) {
  if (size == 0 || !host_ptr || !agent_ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *agent_ptr = NULL;
  if ((agents && num_agent <= 0) || (!agents && num_agent != 0))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_lock(void *host_ptr, size_t size, hsa_agent_t *agents,
                                 int num_agent, void **agent_ptr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  hsa_status_t st = check_args(host_ptr, size, agents, num_agent, agent_ptr);
  if (st != HSA_STATUS_SUCCESS) return st;
  /* ROCR locks into coarse-grained system memory. */
  const struct core_region *pool = system_pool(false);
  if (!pool) pool = system_pool(true);
  if (!pool) return HSA_STATUS_ERROR;
  return lock(host_ptr, size, agents, num_agent, pool, agent_ptr);
}

hsa_status_t hsa_amd_memory_lock_to_pool(void *host_ptr, size_t size, hsa_agent_t *agents,
                                         int num_agent, hsa_amd_memory_pool_t pool,
                                         uint32_t flags, void **agent_ptr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (flags != 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_status_t st = check_args(host_ptr, size, agents, num_agent, agent_ptr);
  if (st != HSA_STATUS_SUCCESS) return st;
  const struct core_region *r = core_region_from_handle(pool.handle);
  if (!r || r->owner->kind != CORE_AGENT_CPU)
    return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
  return lock(host_ptr, size, agents, num_agent, r, agent_ptr);
}

hsa_status_t hsa_amd_memory_unlock(void *host_ptr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find_host((uintptr_t)host_ptr);
  if (r && --r->refs == 0) {
    mem_table_remove(r);
    mem_rec_destroy(r);
  }
  pthread_mutex_unlock(&mem_mutex);
  /* Unlocking what was never locked is no error in ROCR. */
  return HSA_STATUS_SUCCESS;
}
