/* SPDX-License-Identifier: MIT */
/* mmio.c — each GPU's MMIO remap page: the page of registers the kernel lets user space
 * touch, whose first two dwords flush the HDP (host data path) — the write cache between CPU
 * writes through the PCIe BAR and the GPU's view of its VRAM. Made on first use as ROCR
 * makes it: a MMIO_REMAP buffer object at a reserved address, mapped for the CPU through
 * /dev/kfd at the offset the kernel returns, and in every GPU's VM. */
#include <pthread.h>

#include "core/agent.h"
#include "core/mmio.h"
#include "core/runtime.h"
#include "kfd/memory.h"

#define MMIO_PAGE 4096u

struct mmio {
  bool tried;
  volatile uint32_t *page;
  uint64_t handle;
  uint64_t mapped;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct mmio pages[CORE_MAX_GPUS];

static volatile uint32_t *make(const struct core_agent *gpu, struct mmio *m) {
  struct core_runtime *rt = core_rt();
  uint64_t lo = gpu->has_aperture ? gpu->aperture.gpuvm_base : 0;
  uint64_t hi = gpu->has_aperture ? gpu->aperture.gpuvm_limit + 1 : 0;
  void *va = kfd_va_reserve(MMIO_PAGE, MMIO_PAGE, lo, hi);
  if (!va) return NULL;
  uint64_t off = 0;
  if (kfd_mem_alloc(&rt->kfd, gpu->gpu_id, (uint64_t)(uintptr_t)va, MMIO_PAGE,
                    KFD_MEM_MMIO_REMAP | KFD_MEM_WRITABLE | KFD_MEM_COHERENT |
                        KFD_MEM_NO_SUBSTITUTE,
                    0, &m->handle, &off) != 0) {
    kfd_va_release(va, MMIO_PAGE);
    return NULL;
  }
  /* Registers, not memory: the mapping comes from /dev/kfd, uncached by the kernel. */
  if (kfd_mmio_cpu_map(&rt->kfd, va, MMIO_PAGE, off) != 0) {
    kfd_mem_free(&rt->kfd, m->handle);
    kfd_va_release(va, MMIO_PAGE);
    return NULL;
  }
  uint32_t ids[CORE_MAX_GPUS], n = 0;
  uint64_t all = core_usable_gpus();
  for (uint64_t b = all; b; b &= b - 1) {
    const struct core_agent *g = core_gpu((unsigned)__builtin_ctzll(b));
    if (g) ids[n++] = g->gpu_id;
  }
  if (kfd_mem_map(&rt->kfd, m->handle, ids, n) == 0) m->mapped = all;
  m->page = va;
  return m->page;
}

volatile uint32_t *core_mmio_page(const struct core_agent *gpu) {
  if (!gpu || gpu->kind != CORE_AGENT_GPU || !(core_usable_gpus() & (1ull << gpu->gpu_index)))
    return NULL;
  struct mmio *m = &pages[gpu->gpu_index];
  pthread_mutex_lock(&lock);
  if (!m->tried) {
    m->tried = true;
    make(gpu, m);
  }
  volatile uint32_t *p = m->page;
  pthread_mutex_unlock(&lock);
  return p;
}

void core_mmio_shutdown(void) {
  struct core_runtime *rt = core_rt();
  pthread_mutex_lock(&lock);
  for (unsigned i = 0; i < CORE_MAX_GPUS; i++) {
    struct mmio *m = &pages[i];
    if (m->page) {
      uint32_t ids[CORE_MAX_GPUS], n = 0;
      for (uint64_t b = m->mapped; b; b &= b - 1) {
        const struct core_agent *g = core_gpu((unsigned)__builtin_ctzll(b));
        if (g) ids[n++] = g->gpu_id;
      }
      if (n) kfd_mem_unmap(&rt->kfd, m->handle, ids, n);
      kfd_mem_free(&rt->kfd, m->handle);
      kfd_va_release((void *)m->page, MMIO_PAGE);
    }
    *m = (struct mmio){0};
  }
  pthread_mutex_unlock(&lock);
}
