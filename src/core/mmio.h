/* SPDX-License-Identifier: MIT */
/* mmio.h — each GPU's MMIO remap page: the page of registers the kernel lets user space
 * touch. Shared by everything above core: the agent info reports it
 * (HSA_AMD_AGENT_INFO_HDP_FLUSH), memory writes it to flush the HDP. */
#ifndef CORE_MMIO_H
#define CORE_MMIO_H

#include <stdint.h>

#include "core/agent.h"

/* The dword at CORE_HDP_MEM_FLUSH_CNTL flushes the HDP (the write cache between CPU writes
 * through the PCIe BAR and the GPU's view of its VRAM) when written, CORE_HDP_REG_FLUSH_CNTL
 * likewise for register writes (the kernel's KFD_MMIO_REMAP_HDP_* layout). */
#define CORE_HDP_MEM_FLUSH_CNTL 0
#define CORE_HDP_REG_FLUSH_CNTL 1

/* The GPU's page, made on first use; NULL when the driver gives none. */
volatile uint32_t *core_mmio_page(const struct core_agent *gpu);
/* Releases the pages (last hsa_shut_down, after memory). */
void core_mmio_shutdown(void);

#endif
