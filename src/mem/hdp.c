/* SPDX-License-Identifier: MIT */
/* hdp.c — the HDP flush that makes CPU writes into VRAM through the PCIe BAR visible to the
 * GPU: a write to the GPU's MMIO remap page (core/mmio.c maps it). */
#include "core/mmio.h"
#include "mem/mem.h"

void mem_hdp_flush(const struct core_agent *gpu) {
  volatile uint32_t *p = core_mmio_page(gpu);
  if (!p) return;
  p[CORE_HDP_MEM_FLUSH_CNTL] = 1;
  (void)p[CORE_HDP_MEM_FLUSH_CNTL];   /* the read makes sure the write has reached the GPU */
}
