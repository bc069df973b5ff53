/* SPDX-License-Identifier: MIT */
/* internal.h — what the files of src/mem share: buffer objects, the records of the table of
 * allocations, sub-allocation chunks, and the one lock that guards them. */
#ifndef MEM_INTERNAL_H
#define MEM_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/agent.h"
#include "hsa.h"
#include "hsa_ext_amd.h"

#define MEM_PAGE 4096u
#define MEM_ALIGN_UP(x, a) (((x) + (a) - 1) & ~((uint64_t)(a) - 1))
#define MEM_MAX_GPUS CORE_MAX_GPUS
#define MEM_ALL_GPUS UINT64_MAX

/* One KFD buffer object and the address range it occupies (GPU VA == CPU VA). */
struct mem_bo {
  void *va;
  uint64_t size;                     /* page-aligned span */
  uint64_t handle;
  const struct core_agent *alloc_gpu;  /* GPU the BO was created on; NULL: plain host pages */
  uint32_t kfd_flags;
  uint64_t mapped;                   /* bit per gpu_index: the GPU's VM maps it */
  bool cpu_visible;                  /* the CPU can read and write va */
  bool anon_pages;                   /* va holds anonymous pages we mapped (system memory) */
  bool keep_va;                      /* the pages are the caller's (arena): destroy leaves them */
};

enum mem_kind { MEM_KIND_USER, MEM_KIND_INTERNAL, MEM_KIND_LOCKED };

struct mem_cb {
  struct mem_cb *next;
  void *ptr;                         /* the address it was registered on (may be interior) */
  hsa_amd_deallocation_callback_t fn;
  void *data;
};

struct mem_chunk;

/* A live allocation: an entry of the table, found by any address inside [base, base+size). */
struct mem_rec {
  uintptr_t base;
  size_t size;                       /* as asked (user) or page aligned (lock) */
  enum mem_kind kind;
  struct mem_bo *bo;                 /* owned when chunk == NULL */
  struct mem_chunk *chunk;           /* the sub-allocation chunk it lives in */
  const struct core_region *region;  /* NULL for internal and locked memory */
  const struct core_agent *owner;
  bool device, fine;
  uint64_t access;                   /* GPUs granted access to this allocation */
  uintptr_t host_base;               /* locked: the user's host address and size */
  size_t host_size;
  unsigned refs;                     /* locked: times the same range was locked */
  void *userdata;
  struct mem_cb *cbs;
};

/* The lock of the table, chunks and BO mappings. Never held across user callbacks. */
extern pthread_mutex_t mem_mutex;

/* block.c — the table (sorted by base). Called with mem_mutex held. */
int mem_table_insert(struct mem_rec *r);
void mem_table_remove(struct mem_rec *r);
struct mem_rec *mem_table_find(uintptr_t p);     /* containing p, or NULL */
struct mem_rec *mem_table_find_base(uintptr_t p);  /* starting at p exactly */
struct mem_rec *mem_table_find_host(uintptr_t p);  /* locked memory by host address */
struct mem_rec *mem_table_first(void);
void mem_table_reset(void);

/* bo.c — buffer objects. `gpus` are the GPUs to map on at once (bit per gpu_index). */
struct mem_bo *mem_bo_system(uint64_t size, uint64_t align, uint32_t kfd_flags, int numa_node,
                             uint64_t gpus, hsa_status_t *st);
struct mem_bo *mem_bo_device(const struct core_agent *gpu, uint64_t size, uint64_t align,
                             uint32_t kfd_flags, bool host_visible, uint64_t gpus,
                             hsa_status_t *st);
/* A userptr BO over the user's pages [host, host+size) (page aligned) at a GPU address of
 * its own. */
struct mem_bo *mem_bo_userptr(uintptr_t host, uint64_t size, uint32_t kfd_flags, uint64_t gpus,
                              hsa_status_t *st);
/* A userptr BO over pages the caller mapped at `va` (page aligned), GPU VA = va; destroying
 * it leaves the pages mapped (arena.c). */
struct mem_bo *mem_bo_system_at(void *va, uint64_t size, uint32_t kfd_flags, uint64_t gpus,
                                hsa_status_t *st);
/* The first GPU's GPUVM aperture [*lo, *hi) (0, 0 without one): where system memory goes. */
void mem_gpuvm_range(uint64_t *lo, uint64_t *hi);
hsa_status_t mem_bo_map(struct mem_bo *bo, uint64_t gpus);
void mem_bo_destroy(struct mem_bo *bo);
/* Every GPU agent (bit per gpu_index), and the agent of a gpu_index. */
uint64_t mem_all_gpus(void);
const struct core_agent *mem_gpu(unsigned index);
const struct core_agent *mem_first_cpu(void);

/* suballoc.c — small allocations share bigger BOs. */
#define MEM_SUBALLOC_MAX (64u * 1024u)
#define MEM_CHUNK_SIZE (2u * 1024u * 1024u)
struct mem_chunk_key {
  const struct core_region *region;   /* NULL: internal */
  const struct core_agent *gpu;       /* device memory: its GPU; NULL: system */
  uint32_t kfd_flags;
  uint64_t gpus;                      /* GPUs a new chunk is mapped on */
  uint32_t granule;
};
/* A piece of `size` bytes aligned to `align` from a chunk of that key; *bo set. NULL and *st
 * when no chunk can be made. */
void *mem_suballoc(const struct mem_chunk_key *key, size_t size, size_t align,
                   struct mem_chunk **chunk, struct mem_bo **bo, hsa_status_t *st);
void mem_subfree(struct mem_chunk *chunk, void *ptr, size_t size);
void mem_suballoc_reset(void);

/* alloc.c — record creation and release shared by the API files. */
hsa_status_t mem_alloc_rec(const struct core_region *region, const struct core_agent *owner,
                           size_t size, size_t align, uint32_t mflags, enum mem_kind kind,
                           uint64_t gpus, struct mem_rec **out);
/* Removes r from the table (mem_mutex held by the caller, who then calls mem_rec_destroy
 * after dropping it, once the callbacks ran). */
void mem_rec_destroy(struct mem_rec *r);
/* Runs and frees r's deallocation callbacks (no lock held). */
void mem_rec_run_callbacks(struct mem_rec *r);
bool mem_region_valid(const struct core_region *r);
/* User allocation from a region: `gpus` map it at once; `pool_flags` are
 * hsa_amd_memory_pool_allocate's (PCIE: fine-grained device memory). */
hsa_status_t mem_user_alloc(const struct core_region *region, size_t size, uint32_t pool_flags,
                            uint64_t gpus, void **ptr);
/* The CPU address of [p, p+size) when the CPU can reach all of it (locked memory's agent
 * addresses translate to the user's pages), else NULL. Unknown memory is the caller's own. */
void *mem_cpu_ptr(const void *p, size_t size);
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
/* sdma_rect.c — the copy on gpu's SDMA engine (GPU addresses); returns when done. */
hsa_status_t mem_sdma_rect(const struct core_agent *gpu, const struct mem_rect *r);
/* sdma.c — a copy on gpu's SDMA engine, both ranges mapped in its VM; returns when done. */
hsa_status_t mem_sdma_copy(const struct core_agent *gpu, void *dst, const void *src, size_t size);
/* A fill of `count` dwords on gpu's SDMA engine. */
hsa_status_t mem_sdma_fill(const struct core_agent *gpu, void *dst, uint32_t value, size_t count);
/* `count` packets of `each` dwords on gpu's SDMA engine; returns when they are done. */
hsa_status_t mem_sdma_packets(const struct core_agent *gpu, const uint32_t *dw, size_t count,
                              uint32_t each);
void mem_sdma_shutdown(void);   /* destroys the queues (before the memory goes) */
/* Whether gpu's VM maps all of [p, p+size) (an allocation or locked memory of ours). */
bool mem_gpu_reaches(const void *p, size_t size, const struct core_agent *gpu);
/* coherency.c — forget the types set (hsa_shut_down). */
void mem_coherency_reset(void);

/* profiling.c: marks a copy's completion signal as timed when copy profiling is on (true
 * then: the copy writes its start_ts/end_ts with mem_copy_profile_now, the system clock);
 * reset turns profiling off again at hsa_shut_down, as in ROCR. */
void mem_copy_profile_reset(void);
bool mem_copy_profile_begin(hsa_signal_t completion);
uint64_t mem_copy_profile_now(void);

#endif
