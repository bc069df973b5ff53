/* SPDX-License-Identifier: MIT */
/* sdma.h — what mem offers the copy engines above it (src/copy): synchronous copies on a
 * GPU's SDMA queues, the rectangle arithmetic, and the address questions a copy asks (can the
 * CPU reach it, does a GPU map it, whose VRAM is it). Nothing here involves signals: the
 * asynchronous copies, their dependencies and completion signals are src/copy's. */
#ifndef MEM_SDMA_H
#define MEM_SDMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/agent.h"
#include "hsa.h"
#include "hsa_ext_amd.h"

/* The CPU address of [p, p+size) when the CPU can reach all of it (locked memory's agent
 * addresses translate to the user's pages), else NULL. Unknown memory is the caller's own. */
void *mem_cpu_ptr(const void *p, size_t size);
/* Whether gpu's VM maps all of [p, p+size) (an allocation or locked memory of ours). */
bool mem_gpu_reaches(const void *p, size_t size, const struct core_agent *gpu);
/* The GPU whose VRAM holds p, if any: CPU writes there need an HDP flush to reach it. */
const struct core_agent *mem_vram_owner(const void *p);
/* A GPU whose VM maps both ranges (prefer first, then the owner of device memory), or NULL. */
const struct core_agent *mem_copy_gpu(void *dst, const void *src, size_t size,
                                      const struct core_agent *prefer);

/* rect.c — the rectangle of hsa_amd_memory_async_copy_rect. */
struct mem_rect {
  hsa_pitched_ptr_t dst, src;
  hsa_dim3_t dst_off, src_off, range;
};
/* ROCR's checks of a rectangle with no zero dimension: its status, SUCCESS if it can go. */
hsa_status_t mem_rect_check(const struct mem_rect *r);
/* The address of a side's first byte, and the bytes from there to its last. */
uint64_t mem_rect_first(const hsa_pitched_ptr_t *p, const hsa_dim3_t *off);
uint64_t mem_rect_span(const hsa_pitched_ptr_t *p, const hsa_dim3_t *range);
/* The copy by the CPU; dst and src are the CPU addresses of the first bytes. */
void mem_rect_cpu(const struct mem_rect *r, void *dst, const void *src);

/* sdma.c — gpu's SDMA queues: mem_sdma_queues of them (one per SDMA engine the GPU reports,
 * at most MEM_SDMA_MAX), each made on first use. Every call below returns when its work is
 * done; `ring` picks the queue (0 for the plain calls). */
#define MEM_SDMA_MAX 4u
unsigned mem_sdma_queues(const struct core_agent *gpu);
/* Makes every SDMA queue of gpu now (OUT_OF_RESOURCES when the driver refuses one). */
hsa_status_t mem_sdma_preload(const struct core_agent *gpu);
/* A copy, both ranges mapped in gpu's VM. */
hsa_status_t mem_sdma_copy(const struct core_agent *gpu, void *dst, const void *src, size_t size);
hsa_status_t mem_sdma_copy_on(const struct core_agent *gpu, unsigned ring, void *dst,
                              const void *src, size_t size);
/* A copy the engine completes itself, without a waiter: after the bytes, it adds -1 to the
 * 64-bit word at value_addr and, when mailbox is not 0, writes event_id there and raises its
 * TRAP interrupt with it (the kernel then sets that signal event), as ROCR's SDMA copies end.
 * Returns once queued; ERROR when the queue stopped before (a fault or reset of its GPU). */
struct mem_sdma_done {
  uint64_t value_addr, mailbox;
  uint32_t event_id;
};
hsa_status_t mem_sdma_copy_async(const struct core_agent *gpu, unsigned ring, void *dst,
                                 const void *src, size_t size, const struct mem_sdma_done *done);
/* The same copy cut into one piece per SDMA queue of gpu, which run side by side: every
 * queue but `lead` copies its piece and then FENCEs a sequence number into a word of its own;
 * `lead` copies its piece, POLL_REGMEMs each of those words (>= the number) and completes as
 * above. Every queue's packets are written under all the queues' locks, so each queue's
 * fences grow. Without a second queue, the plain call. */
hsa_status_t mem_sdma_copy_split(const struct core_agent *gpu, unsigned lead, void *dst,
                                 const void *src, size_t size, const struct mem_sdma_done *done);
/* A fill of `count` dwords. */
hsa_status_t mem_sdma_fill(const struct core_agent *gpu, void *dst, uint32_t value, size_t count);
/* `count` packets of `each` dwords. */
hsa_status_t mem_sdma_packets(const struct core_agent *gpu, const uint32_t *dw, size_t count,
                              uint32_t each);
/* sdma_rect.c — a rectangle (GPU addresses). */
hsa_status_t mem_sdma_rect(const struct core_agent *gpu, const struct mem_rect *r);

/* svm.c — sets the prefetch location of the pages [ptr, ptr+size) touches to agent's memory
 * (the kernel migrates them); false when the kernel refuses. */
bool mem_svm_prefetch(void *ptr, size_t size, const struct core_agent *agent);

#endif
