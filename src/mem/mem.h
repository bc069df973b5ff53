/* SPDX-License-Identifier: MIT */
/* mem.h — memory the runtime hands out: user allocations from regions / AMD memory pools and
 * the runtime's own GPU-visible objects (signals, ring buffers, kernarg, code segments).
 * Everything is a KFD buffer object (or a slice of one, from the small-block sub-allocator)
 * mapped into the GPU VMs that may reach it; mem_ keeps a table of live allocations so any
 * pointer can be looked up (hsa_amd_pointer_info, copies, frees). Thread-safe. */
#ifndef MEM_MEM_H
#define MEM_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/agent.h"
#include "hsa.h"

/* Flags of internal allocations. */
#define MEM_F_UNCACHED   0x1u   /* system memory the GPU reads around its caches (signals, rings) */
#define MEM_F_EXECUTABLE 0x2u   /* code */
#define MEM_F_NO_SUBALLOC 0x4u  /* a buffer object of its own (e.g. it will be mmapped/shared) */
#define MEM_F_AQL_QUEUE  0x8u   /* AQL ring buffer: KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM */
#define MEM_F_ZERO       0x10u  /* zero-filled (KFD memory is zeroed anyway; sub-allocations are not) */
#define MEM_F_FINE       0x20u  /* device memory kept coherent with the host (KFD COHERENT) */
#define MEM_F_CONTIGUOUS 0x40u  /* device memory in one physical piece (KFD 1.16 CONTIGUOUS) */

/* User-facing allocation in `region` (also an AMD memory pool), `flags` as
 * hsa_amd_memory_pool_allocate takes them. System memory is mapped on every GPU; device memory
 * on its owner only (hsa_amd_agents_allow_access adds more). */
hsa_status_t mem_alloc(const struct core_region *region, size_t size, uint32_t flags, void **ptr);
hsa_status_t mem_free(void *ptr);

/* Runtime-internal allocations: `align` a power of two (0 = 64 bytes). mem_system is host
 * memory mapped on every GPU agent; mem_device is `gpu`'s VRAM (host-visible when the device
 * allows, so loaders can write it), mapped on that GPU. NULL when out of memory. Small ones
 * share buffer objects and come zeroed when the CPU can reach them (MEM_F_ZERO then always
 * holds, except for VRAM behind a small BAR). */
void *mem_system(size_t size, size_t align, uint32_t flags);
void *mem_device(const struct core_agent *gpu, size_t size, size_t align, uint32_t flags);
void mem_release(void *ptr);   /* frees either; NULL is fine */
/* Until called again with NULL, the system memory this thread allocates (mem_system,
 * mem_system_at) is a driver object of `gpu` rather than of the first GPU, still mapped on
 * every GPU. MES GPUs (gfx11+) take only queue memory of their own (the write pointer's
 * buffer: kfd_chardev.c), as ROCR allocates it (AllocateGTTAccess on the agent's node). */
void mem_system_owner(const struct core_agent *gpu);

/* Host memory at addresses kept for the life of the process: signal slots and queue
 * structures, whose addresses are the handles users hold. mem_arena_reserve reserves address
 * space once (inside the GPUs' aperture; never released), mem_arena_commit maps zeroed pages
 * in it for good. mem_system_at registers committed pages with the driver for the open
 * runtime (GPU VA = CPU VA, on every GPU; `flags` as mem_system's); mem_release of `va` and
 * mem_shutdown drop that registration but leave the pages, so a stale handle reads harmless
 * memory and the kernel never hands the address to anyone else. */
void *mem_arena_reserve(size_t size);
bool mem_arena_commit(void *va, size_t size);
bool mem_system_at(void *va, size_t size, uint32_t flags);

/* What mem knows about the allocation containing `ptr` (any address inside it). */
struct mem_block {
  void *base;                  /* start of the user's (sub-)allocation */
  size_t size;
  const struct core_region *region;   /* NULL for internal or registered host memory */
  const struct core_agent *owner;     /* the agent whose memory it is (CPU for system) */
  uint64_t gpu_va;             /* address GPUs use: equals base (one address space), except
                                * for locked memory looked up by its host address, whose
                                * GPU alias starts here */
  bool device, fine_grain, locked;
};
bool mem_lookup(const void *ptr, struct mem_block *out);

/* Whether [ptr, ptr+size) lies inside one live hsa_amd_vmem_address_reserve range. */
bool mem_vmem_reserved(const void *ptr, size_t size);

/* Maps the allocation containing `ptr` on `gpu` too (allow_access and internal users). */
hsa_status_t mem_map_on(const void *ptr, const struct core_agent *gpu);

/* Flushes the GPU's HDP through its MMIO remap page (core/mmio.h): CPU writes into VRAM
 * through the BAR are then visible to the GPU. Nothing when the driver gives no page. */
void mem_hdp_flush(const struct core_agent *gpu);

/* Frees everything still allocated (hsa_shut_down). */
void mem_shutdown(void);

#endif
