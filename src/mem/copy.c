/* SPDX-License-Identifier: MIT */
/* copy.c — hsa_memory_copy and hsa_amd_memory_fill, and the address questions every copy asks
 * (sdma.h); the asynchronous copies are src/copy's, built on these.
 * Copies and fills that touch device memory (VRAM) move the data the GPU sees: they run on
 * the owning GPU's SDMA engine (sdma.c), as ROCR's do. Going through the pointer's CPU view
 * would be wrong whenever that view is not the GPU's: ROCm's OpenCL runtime maps its own pages
 * over the CPU view of device buffers (MAP_FIXED at the same address), and VRAM behind a small
 * BAR has no CPU view at all. Host-to-host copies (system and locked memory, which the runtime
 * knows to be plain pages at those addresses) are CPU copies. A device copy no engine can make
 * (its GPU does not map the other side and it cannot be locked) falls back to the CPU view. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/internal.h"
#include "mem/mem.h"

void *mem_cpu_ptr(const void *p, size_t size) {
  uintptr_t a = (uintptr_t)p;
  if (a + size < a) return NULL;
  void *out = NULL;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find(a);
  if (!r) {
    out = (void *)p;   /* locked memory by its host address, or the caller's own memory */
  } else if (r->kind == MEM_KIND_LOCKED) {
    if (a + size <= r->base + r->size) out = (void *)(r->host_base + (a - r->base));
  } else if (r->bo && r->bo->cpu_visible &&
             a + size <= (uintptr_t)r->bo->va + r->bo->size) {
    out = (void *)p;
  }
  pthread_mutex_unlock(&mem_mutex);
  return out;
}

const struct core_agent *mem_vram_owner(const void *p) {
  struct mem_block b;
  return mem_lookup(p, &b) && b.device ? b.owner : NULL;
}

bool mem_gpu_reaches(const void *p, size_t size, const struct core_agent *gpu) {
  uintptr_t a = (uintptr_t)p;
  if (!gpu || gpu->kind != CORE_AGENT_GPU || a + size < a) return false;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find(a);
  bool ok = r && r->bo && (r->bo->mapped & (1ull << gpu->gpu_index)) &&
            a + size <= (uintptr_t)r->bo->va + r->bo->size;
  pthread_mutex_unlock(&mem_mutex);
  return ok;
}

const struct core_agent *mem_copy_gpu(void *dst, const void *src, size_t size,
                                      const struct core_agent *prefer) {
  if (prefer && mem_gpu_reaches(dst, size, prefer) && mem_gpu_reaches(src, size, prefer))
    return prefer;
  struct mem_block b;
  const void *sides[2] = {src, dst};
  for (int i = 0; i < 2; i++)
    if (mem_lookup(sides[i], &b) && b.device && mem_gpu_reaches(dst, size, b.owner) &&
        mem_gpu_reaches(src, size, b.owner))
      return b.owner;
  return NULL;
}

hsa_status_t hsa_memory_copy(void *dst, const void *src, size_t size) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!dst || !src) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (size == 0) return HSA_STATUS_SUCCESS;
  void *d = mem_cpu_ptr(dst, size);
  const void *s = mem_cpu_ptr(src, size);
  const struct core_agent *dst_vram = mem_vram_owner(dst), *src_vram = mem_vram_owner(src);
  if (!d || !s || dst_vram || src_vram) {
    const struct core_agent *gpu = mem_copy_gpu(dst, src, size, NULL);
    if (gpu) return mem_sdma_copy(gpu, dst, src, size);
    /* Host memory the engine's GPU does not map is locked for the copy, as ROCR does. */
    const struct core_agent *owner = dst_vram ? dst_vram : src_vram;
    void *vram = dst_vram ? dst : (void *)src, *host = dst_vram ? (void *)src : dst;
    if (owner && mem_gpu_reaches(vram, size, owner) && !mem_lookup(host, NULL)) {
      hsa_agent_t agent = core_agent_handle(owner);
      void *alias = NULL;
      hsa_status_t st = hsa_amd_memory_lock(host, size, &agent, 1, &alias);
      if (st != HSA_STATUS_SUCCESS) return st;
      st = dst_vram ? mem_sdma_copy(owner, dst, alias, size)
                    : mem_sdma_copy(owner, alias, src, size);
      hsa_amd_memory_unlock(host);
      return st;
    }
    if (!d || !s) return HSA_STATUS_ERROR;
  }
  memmove(d, s, size);
  if (dst_vram) mem_hdp_flush(dst_vram);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_fill(void *ptr, uint32_t value, size_t count) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!ptr || (uintptr_t)ptr % 4) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (count == 0) return HSA_STATUS_SUCCESS;
  if (count > SIZE_MAX / 4) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  size_t bytes = count * 4;
  /* ROCR fills only memory it knows (its allocations, locked memory), wholly inside one. */
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find((uintptr_t)ptr);
  if (!r) r = mem_table_find_host((uintptr_t)ptr);
  bool known = r && ((uintptr_t)ptr + bytes <= r->base + r->size ||
                     (r->kind == MEM_KIND_LOCKED &&
                      (uintptr_t)ptr - r->host_base + bytes <= r->host_size));
  pthread_mutex_unlock(&mem_mutex);
  if (!known) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  /* Device memory: the owner's SDMA engine fills what the GPU sees (see the top). */
  struct mem_block b;
  if (mem_lookup(ptr, &b) && b.device && mem_gpu_reaches(ptr, bytes, b.owner))
    return mem_sdma_fill(b.owner, ptr, value, count);
  uint32_t *p = mem_cpu_ptr(ptr, bytes);
  if (!p) return HSA_STATUS_ERROR;
  for (size_t i = 0; i < count; i++) p[i] = value;
  const struct core_agent *owner = mem_vram_owner(ptr);
  if (owner) mem_hdp_flush(owner);
  return HSA_STATUS_SUCCESS;
}
