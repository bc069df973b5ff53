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
#include "mem/sdma.h"

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

/* IMPORT: a dma-buf of another API or process (interop, IPC), mapped here; a record of the
 * memory's owner (its GPU for VRAM, the CPU for GTT) like any other, not freed by the user. */
enum mem_kind { MEM_KIND_USER, MEM_KIND_INTERNAL, MEM_KIND_LOCKED, MEM_KIND_IMPORT };

struct mem_cb {
  struct mem_cb *next;
  void *ptr;                         /* the address it was registered on (may be interior) */
  hsa_amd_deallocation_callback_t fn;
  void *data;
};

struct mem_chunk;
struct mem_bo *mem_chunk_bo(const struct mem_chunk *c);   /* suballoc.c: the BO it carves */

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
  void *meta;                        /* import: the exporter's metadata (owned), its size */
  uint32_t meta_size;
  uint32_t ptr_type;                 /* import: hsa_amd_pointer_type_t it reports */
};

/* The lock of the table, chunks and BO mappings. Never held across user callbacks. */
extern pthread_mutex_t mem_mutex;

/* block.c — the table (sorted by base). Called with mem_mutex held. */
int mem_table_insert(struct mem_rec *r);
void mem_table_remove(struct mem_rec *r);
struct mem_rec *mem_table_find(uintptr_t p);     /* containing p, or NULL */
struct mem_rec *mem_table_find_base(uintptr_t p);  /* starting at p exactly */
/* mem_table_find_base and mem_table_remove in one search: the record of that kind starting
 * at p, taken out of the table, or NULL (and the table unchanged). */
struct mem_rec *mem_table_take_base(uintptr_t p, enum mem_kind kind);
struct mem_rec *mem_table_find_host(uintptr_t p);  /* locked memory by host address */

/* vmem.c, for hsa_amd_pointer_info: the mapping of a memory handle holding p (HSA_VMEM: its
 * range, the handle's GPU, whether the CPU was given access, the object's KFD flags), else the
 * reservation holding p (RESERVED_ADDR: its range, gpu NULL). false when p is in neither. */
struct mem_vmem_desc {
  bool mapped, cpu_access;
  uintptr_t base;
  size_t size;
  const struct core_agent *gpu;
  uint32_t kfd_flags;
  uint64_t gpus;                     /* bit per gpu_index: GPUs given access */
};
bool mem_vmem_describe(uintptr_t p, struct mem_vmem_desc *out);
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
/* A system memory object of user pages becomes a GTT object at the same address with the
 * same bytes and mappings (bo.c), so the kernel can export it (IPC). mem_mutex held. */
hsa_status_t mem_bo_to_gtt(struct mem_bo *bo);
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
/* import.c — the dma-buf `fd` imported (GET_DMABUF_INFO, IMPORT_DMABUF at a fresh address of
 * its GPU's aperture), mapped on `gpus` and its owner, and entered in the table as an IMPORT
 * record of [va + offset, va + offset + len) (len clipped to the buffer; 0: all of it) that owns
 * the object. *bytes: the buffer's size. HSA_STATUS_ERROR: not a dma-buf of a GPU here;
 * OUT_OF_RESOURCES: no address or no mapping. */
hsa_status_t mem_import_dmabuf(int fd, uint64_t gpus, uint64_t offset, uint64_t len,
                               uint32_t ptr_type, bool want_meta, struct mem_rec **out,
                               uint64_t *bytes);
/* Removes and destroys the IMPORT record starting at ptr of that type; false if none. */
bool mem_import_release(void *ptr, uint32_t ptr_type);

/* ipc_sock.c — the exporting process serves dma-bufs of its IPC-exported allocations to
 * importers over a Unix socket (see there). serve: ptr may be asked for (starts the server;
 * 0 or -errno); unserve: no longer; shutdown: stop serving (hsa_shut_down). fetch: a dma-buf fd
 * of the allocation `key` exported by process pid, or -1 (no such exporter or export); then
 * fetched(*sock, key) once it is imported. */
int mem_ipc_serve(uintptr_t ptr);
void mem_ipc_unserve(uintptr_t ptr);
void mem_ipc_shutdown(void);
int mem_ipc_fetch(uint32_t pid, uint64_t key, int *sock);
void mem_ipc_fetched(int sock, uint64_t key);

/* sdma.h has the copy primitives (mem_cpu_ptr, rectangles, SDMA queues). */
void mem_sdma_shutdown(void);   /* destroys the queues (before the memory goes) */
/* coherency.c — forget the types set (hsa_shut_down). */
void mem_coherency_reset(void);

#endif
