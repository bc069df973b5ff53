/* SPDX-License-Identifier: MIT */
/* pool.c — AMD memory pools: hsa_amd_agent_iterate_memory_pools, hsa_amd_memory_pool_get_info,
 * hsa_amd_agent_memory_pool_get_info (access and links between agents and pools). */
#include <string.h>

#include "core/region.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"

hsa_status_t hsa_amd_agent_iterate_memory_pools(
    hsa_agent_t agent, hsa_status_t (*callback)(hsa_amd_memory_pool_t pool, void *data),
    void *data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  for (unsigned k = 0; k < a->region_count; k++) {
    hsa_amd_memory_pool_t p = {(uint64_t)(uintptr_t)&a->regions[k]};
    hsa_status_t st = callback(p, data);
    if (st != HSA_STATUS_SUCCESS) return st;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t pool,
                                          hsa_amd_memory_pool_info_t attribute, void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_region *r = core_region_from_handle(pool.handle);
  if (!r) return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;
  switch (attribute) {
  case HSA_AMD_MEMORY_POOL_INFO_SEGMENT:
  case HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS:
  case HSA_AMD_MEMORY_POOL_INFO_SIZE:
  case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED:
  case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE:
  case HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT:
    /* Same numbering as the region attributes. */
    return core_region_info(r, (uint32_t)attribute, value);
  case HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE:
    return core_region_info(r, HSA_REGION_INFO_ALLOC_MAX_SIZE, value);
  case HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL:
    *(bool *)value = core_region_is_system(r);
    break;
  case HSA_AMD_MEMORY_POOL_INFO_LOCATION:
    *(hsa_amd_memory_pool_location_t *)value = r->owner->kind == CORE_AGENT_CPU
                                                   ? HSA_AMD_MEMORY_POOL_LOCATION_CPU
                                                   : HSA_AMD_MEMORY_POOL_LOCATION_GPU;
    break;
  default:
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

/* A direct link of the topology from agent `from` to the node owning the pool. */
static const struct kfd_link *direct_link(const struct core_agent *from,
                                          const struct core_agent *to) {
  struct core_runtime *rt = core_rt();
  const struct kfd_node *n = from->node;
  for (unsigned l = 0; l < n->link_count; l++) {
    if ((n->links[l].flags & 0x11u) == 0x11u) continue; /* peer DMA forbidden: no link */
    uint64_t dst = n->links[l].node_to;
    if (dst < rt->node_of_sysfs_count && rt->node_of_sysfs[dst] == (int)to->node_id)
      return &n->links[l];
  }
  return NULL;
}

static void link_info(const struct kfd_link *l, hsa_amd_memory_pool_link_info_t *info) {
  memset(info, 0, sizeof(*info));
  switch (l->type) {
  case KFD_LINK_HYPERTRANSPORT: info->link_type = HSA_AMD_LINK_INFO_TYPE_HYPERTRANSPORT; break;
  case KFD_LINK_QPI_1_1: info->link_type = HSA_AMD_LINK_INFO_TYPE_QPI; break;
  case KFD_LINK_INFINIBAND: info->link_type = HSA_AMD_LINK_INFO_TYPE_INFINBAND; break;
  case KFD_LINK_XGMI: info->link_type = HSA_AMD_LINK_INFO_TYPE_XGMI; break;
  default: info->link_type = HSA_AMD_LINK_INFO_TYPE_PCIE; break;
  }
  bool atomics = l->type != KFD_LINK_INFINIBAND;
  info->atomic_support_32bit = atomics;
  info->atomic_support_64bit = atomics;
  info->coherent_support = atomics;
  /* CRAT_IOLINK_FLAGS_*: bit 0 the flags apply, bit 1 non-coherent, bit 2 no 32-bit
   * atomics, bit 3 no 64-bit atomics (bit 4, no peer DMA, hides the link: direct_link). */
  if (l->flags & 1u) {
    info->coherent_support = !(l->flags & 2u);
    info->atomic_support_32bit = !(l->flags & 4u);
    info->atomic_support_64bit = !(l->flags & 8u);
  }
  info->max_bandwidth = (uint32_t)l->max_bandwidth;
  info->min_bandwidth = (uint32_t)l->min_bandwidth;
  info->max_latency = (uint32_t)l->max_latency;
  info->min_latency = (uint32_t)l->min_latency;
  info->numa_distance = (uint32_t)l->weight;
}

hsa_status_t hsa_amd_agent_memory_pool_get_info(hsa_agent_t agent, hsa_amd_memory_pool_t pool,
                                                hsa_amd_agent_memory_pool_info_t attribute,
                                                void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  const struct core_region *r = core_region_from_handle(pool.handle);
  if (!r) return (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL;

  const struct kfd_link *link = a == r->owner ? NULL : direct_link(a, r->owner);
  unsigned hops = link ? 1 : 0;
  hsa_amd_memory_pool_access_t access;
  if (a == r->owner)
    access = HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT;
  else if (hops == 0)
    access = HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
  else if (core_region_is_system(r))
    access = a->kind == CORE_AGENT_CPU ? HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT
                                       : HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT;
  else if (core_region_is_local(r))
    /* Coarse VRAM: a peer must be granted access; fine VRAM only inside an XGMI hive. */
    access = !r->fine_grain || (a->node->props.hive_id != 0 &&
                                a->node->props.hive_id == r->owner->node->props.hive_id)
                 ? HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT
                 : HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;
  else
    access = HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED;

  switch (attribute) {
  case HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS:
    *(hsa_amd_memory_pool_access_t *)value = access;
    break;
  case HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS:
    *(uint32_t *)value = access != HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED ? hops : 0;
    break;
  case HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO:
    memset(value, 0, sizeof(hsa_amd_memory_pool_link_info_t));
    if (access != HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED && link) link_info(link, value);
    break;
  default:
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}
