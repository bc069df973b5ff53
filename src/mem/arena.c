/* SPDX-License-Identifier: MIT */
/* arena.c — address space kept for the life of the process (see mem.h): reserved once, pages
 * committed in it never unmapped. What registers them with the driver is mem_system_at. */
#include <sys/mman.h>

#include "kfd/memory.h"
#include "mem/internal.h"
#include "mem/mem.h"

void *mem_arena_reserve(size_t size) {
  uint64_t lo, hi;
  mem_gpuvm_range(&lo, &hi);
  return kfd_va_reserve(MEM_ALIGN_UP(size, MEM_PAGE), MEM_PAGE, lo, hi);
}

bool mem_arena_commit(void *va, size_t size) {
  if (((uintptr_t)va & (MEM_PAGE - 1)) || (size & (MEM_PAGE - 1))) return false;
  if (mmap(va, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
      MAP_FAILED)
    return false;
  /* As mem's other system memory: a forked child must not share pages pinned by the GPU. */
  madvise(va, size, MADV_DONTFORK);
  return true;
}
