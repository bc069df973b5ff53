/* SPDX-License-Identifier: MIT */
/* event_page.c — the KFD event page on dGPUs. The command processor writes an event id into
 * a signal's mailbox through GPUVM before it raises the interrupt, so the page must be GPU
 * memory every GPU maps: a GTT buffer object at a GPUVM address (the same on the CPU, mapped
 * through the render node), handed to the kernel with the first CREATE_EVENT as the thunk
 * does. The kernel keeps it as the process's event page and refuses to free it, and the KFD
 * process outlives /dev/kfd closes, so the page is made once per process and never freed
 * (a later hsa_init finds it still set). It does not go through mem: mem_shutdown frees
 * everything it holds. */
#include "signals/internal.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/runtime.h"
#include "kfd/memory.h"

#define EP_FLAGS (KFD_MEM_GTT | KFD_MEM_WRITABLE | KFD_MEM_NO_SUBSTITUTE)

/* Makes the page and hands it over; false when the driver refused a step (nothing kept). */
static bool setup(const struct core_runtime *rt)
{
  const struct core_agent *first = NULL;
  uint32_t ids[64];
  uint32_t n = 0;
  bool dgpu = false;
  for (unsigned i = 0; i < rt->agent_count && n < 64; i++) {
    const struct core_agent *a = rt->agents[i];
    if (a->kind != CORE_AGENT_GPU || a->drm.fd < 0)
      continue;
    if (!first)
      first = a;
    ids[n++] = a->gpu_id;
    /* Only the APUs whose GPU shares the CPU's KFD node (Carrizo to Renoir: IOMMUv2) see
     * host memory without GPUVM; an MI300A's GPU node is separate and goes through GPUVM. */
    dgpu |= a->profile != HSA_PROFILE_FULL;
  }
  /* APUs reach the kernel's own page (mapped from /dev/kfd on first use) without GPUVM */
  if (!dgpu || !first)
    return true;
  /* A signal event made before ours was handed over gave the process the kernel's page, which
   * the CP cannot reach; the kernel keeps it for good. */
  if (kfd_event_page(NULL))
    return false;
  uint64_t lo = first->has_aperture ? first->aperture.gpuvm_base : 0;
  uint64_t hi = first->has_aperture ? first->aperture.gpuvm_limit + 1 : 0;
  void *va = kfd_va_reserve(KFD_EVENT_PAGE_SIZE, 4096, lo, hi);
  if (!va)
    return false;
  uint64_t handle = 0, off = 0;
  if (kfd_mem_alloc(&rt->kfd, first->gpu_id, (uint64_t)(uintptr_t)va, KFD_EVENT_PAGE_SIZE,
                    EP_FLAGS, 0, &handle, &off) != 0) {
    kfd_va_release(va, KFD_EVENT_PAGE_SIZE);
    return false;
  }
  if (kfd_mem_cpu_map(first->drm.fd, va, KFD_EVENT_PAGE_SIZE, off, true) != 0 ||
      kfd_mem_map(&rt->kfd, handle, ids, n) != 0 || kfd_event_page_provide(handle, va) != 0) {
    kfd_mem_unmap(&rt->kfd, handle, ids, n);
    kfd_mem_free(&rt->kfd, handle);
    kfd_va_release(va, KFD_EVENT_PAGE_SIZE);
    return false;
  }
  madvise(va, KFD_EVENT_PAGE_SIZE, MADV_DONTFORK);
  return true;
}

/* Ours for the life of the process (the kernel keeps it across /dev/kfd closes); a forked
 * child is a new KFD process and needs its own. */
static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t ready_pid;

bool sig_event_page_ready(const struct core_runtime *rt)
{
  pthread_mutex_lock(&ready_lock);
  bool ok = ready_pid == getpid();
  if (!ok && setup(rt)) {
    ready_pid = getpid();
    ok = true;
  }
  pthread_mutex_unlock(&ready_lock);
  return ok;
}
