/* SPDX-License-Identifier: MIT */
/* agent.h — agents (one per CPU node and per usable GPU node), their memory regions (which are
 * also the AMD memory pools) and caches, and the handles users get for them. */
#ifndef CORE_AGENT_H
#define CORE_AGENT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/isa.h"
#include "hsa.h"
#include "kfd/kfd.h"

struct core_runtime;

enum core_agent_kind { CORE_AGENT_CPU, CORE_AGENT_GPU };

/* Heap kinds of a region, as libhsakmt numbers them (HSA_HEAPTYPE_*). */
enum core_heap { CORE_HEAP_SYSTEM = 0, CORE_HEAP_FB_PUBLIC = 1, CORE_HEAP_FB_PRIVATE = 2,
                 CORE_HEAP_LDS = 4 };

struct core_agent;

struct core_region {
  uint32_t magic;             /* CORE_REGION_MAGIC while alive */
  const struct core_agent *owner;
  enum core_heap heap;
  bool fine_grain, kernarg;
  bool ext_fine;              /* extended-scope fine-grained (global flag 8; not fine_grain) */
  uint64_t size, base;
  uint32_t bus_width, max_clock_mhz;
  uint64_t max_alloc;         /* page-aligned size (system: see core_runtime.max_sysmem_alloc) */
};
#define CORE_REGION_MAGIC 0x52454731u

struct core_cache {
  uint32_t magic;             /* CORE_CACHE_MAGIC while alive */
  char name[72];              /* "gfx906 L2" */
  uint8_t level;
  uint32_t size;              /* bytes */
};
#define CORE_CACHE_MAGIC 0x43414348u

#define CORE_MAX_REGIONS 5

struct core_agent {
  enum core_agent_kind kind;
  uint32_t node_id;           /* HSA node id (KFD user node) */
  const struct kfd_node *node;
  uint32_t gpu_id;            /* KFD gpu_id, 0 for CPUs */
  unsigned gpu_index;         /* position among the visible GPUs */
  const struct core_isa *isa; /* NULL for CPUs */
  hsa_profile_t profile;
  char name[64];              /* HSA_AGENT_INFO_NAME */
  char product_name[64];      /* HSA_AMD_AGENT_INFO_PRODUCT_NAME: core_agent_product_name */
  atomic_bool product_name_loaded; /* set (release) once product_name is final */
  char uuid[24];              /* "GPU-0123456789abcdef", "GPU-XX", "CPU-XX" */
  struct kfd_drm drm;         /* GPUs with a device: the render node */
  struct kfd_aperture aperture;
  bool has_aperture;
  uint64_t timestamp_freq;    /* GPU counter, Hz (0 when unknown) */
  uint32_t memory_bus_width, memory_max_clock_mhz;
  const struct core_agent *nearest_cpu;
  struct core_region regions[CORE_MAX_REGIONS];
  unsigned region_count;
  struct core_cache *caches;   /* read on first need: core_agent_load_caches */
  unsigned cache_count;
  atomic_bool caches_loaded;   /* set (release) once caches/cache_count are final */
};

/* Reads the agent's caches (its node's caches/ in sysfs, or the OS's for a CPU without
 * them) the first time anything asks; thread-safe, and cheap once done. */
void core_agent_load_caches(const struct core_agent *agent);
/* The agent's product name: a CPU's model, a GPU's marketing name (libdrm_amdgpu's amdgpu.ids,
 * looked up the first time anything asks; thread-safe). */
const char *core_agent_product_name(const struct core_agent *agent);

/* Handle conversion: from_handle returns NULL for anything that is not a live agent. */
hsa_agent_t core_agent_handle(const struct core_agent *agent);
const struct core_agent *core_agent_from_handle(hsa_agent_t handle);
/* A GPU whose images the runtime supports (gfx9 without gfx94x; agent_info.c). */
bool core_agent_has_images(const struct core_agent *a);
const struct core_region *core_region_from_handle(uint64_t handle);
const struct core_cache *core_cache_from_handle(uint64_t handle);

/* agent.c: build the agents of rt from its topology (and devices); free them. */
hsa_status_t core_agents_build(struct core_runtime *rt);
void core_agents_free(struct core_runtime *rt);
/* The first GPU agent (ROCR exposes its device memory in hsa_agent_iterate_regions). */
const struct core_agent *core_first_gpu(void);
/* The GPUs the process can put memory on (a bit per gpu_index: an open render node, below
 * CORE_MAX_GPUS; none without /dev/kfd), and the agent of a gpu_index. */
#define CORE_MAX_GPUS 64u
bool core_gpu_usable(const struct core_agent *a);
uint64_t core_usable_gpus(void);
const struct core_agent *core_gpu(unsigned index);

/* cache.c: a CPU node's caches (KFD caches/ if any, else NUMA node `numa` in the OS). */
unsigned core_cpu_caches(const struct kfd_node *node, unsigned numa, struct core_cache **out,
                         const char *agent_name);

#endif
