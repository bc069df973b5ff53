/* SPDX-License-Identifier: MIT */
/* move.c — copy_move: one synchronous linear copy for the copy module's jobs (batch.c,
 * ais.c): the CPU copies where it reaches both sides and neither is VRAM; otherwise the
 * SDMA engine of a GPU that maps both does; failing that, the CPU through what it reaches
 * (flushing the HDP of a GPU whose VRAM it wrote). */
#include <string.h>

#include "copy/internal.h"
#include "mem/mem.h"
#include "mem/sdma.h"

/* One linear move of `size` bytes, where it can be done. */
hsa_status_t copy_move(void *dst, const void *src, size_t size) {
  if (!size) return HSA_STATUS_SUCCESS;
  void *d = mem_cpu_ptr(dst, size);
  const void *s = mem_cpu_ptr(src, size);
  const struct core_agent *dv = mem_vram_owner(dst), *sv = mem_vram_owner(src);
  if (d && s && !dv && !sv) {
    memmove(d, s, size);
    return HSA_STATUS_SUCCESS;
  }
  const struct core_agent *gpu = mem_copy_gpu(dst, src, size, dv ? dv : sv);
  if (gpu) return mem_sdma_copy(gpu, dst, src, size);
  if (!d || !s) return HSA_STATUS_ERROR;
  memmove(d, s, size);
  if (dv) mem_hdp_flush(dv);
  return HSA_STATUS_SUCCESS;
}

