/* SPDX-License-Identifier: MIT */
/* region.c — memory regions: hsa_agent_iterate_regions and hsa_region_get_info. A region is
 * also the AMD memory pool of the same memory (pool.c); allocation lives in the memory layer. */
#include "core/region.h"

#include "core/runtime.h"
#include "hsa_ext_amd.h"

#define PAGE 4096u

bool core_region_is_system(const struct core_region *r) { return r->heap == CORE_HEAP_SYSTEM; }

bool core_region_is_local(const struct core_region *r) {
  return r->heap == CORE_HEAP_FB_PUBLIC || r->heap == CORE_HEAP_FB_PRIVATE;
}

hsa_status_t core_region_info(const struct core_region *r, uint32_t attribute, void *value) {
  bool global = core_region_is_system(r) || core_region_is_local(r);
  switch (attribute) {
  case HSA_REGION_INFO_SEGMENT:
    *(hsa_region_segment_t *)value = global ? HSA_REGION_SEGMENT_GLOBAL : HSA_REGION_SEGMENT_GROUP;
    break;
  case HSA_REGION_INFO_GLOBAL_FLAGS: {
    uint32_t f = 0;
    if (global) {
      f = r->fine_grain ? HSA_REGION_GLOBAL_FLAG_FINE_GRAINED
          : r->ext_fine ? HSA_REGION_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED
                        : HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED;
      if (r->kernarg) f |= HSA_REGION_GLOBAL_FLAG_KERNARG;
    }
    *(uint32_t *)value = f;
    break;
  }
  case HSA_REGION_INFO_SIZE:
    *(size_t *)value = (size_t)r->size;
    break;
  case HSA_REGION_INFO_ALLOC_MAX_SIZE:
    /* System memory: all of it, over every CPU node, may back one allocation. */
    *(size_t *)value = core_region_is_system(r) ? (size_t)core_rt()->max_sysmem_alloc
                       : core_region_is_local(r) ? (size_t)r->max_alloc
                                                 : 0;
    break;
  case HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED:
    *(bool *)value = global;
    break;
  case HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE:
  case HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT:
    *(size_t *)value = global ? PAGE : 0;
    break;
  case HSA_AMD_REGION_INFO_HOST_ACCESSIBLE:
    *(bool *)value = core_region_is_system(r);
    break;
  case HSA_AMD_REGION_INFO_BASE:
    *(void **)value = (void *)(uintptr_t)r->base;
    break;
  case HSA_AMD_REGION_INFO_BUS_WIDTH:
    *(uint32_t *)value = r->bus_width;
    break;
  case HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY:
    *(uint32_t *)value = r->max_clock_mhz;
    break;
  default:
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t visit(const struct core_region *r, hsa_status_t (*cb)(hsa_region_t, void *),
                          void *data) {
  hsa_region_t h = {(uint64_t)(uintptr_t)r};
  return cb(h, data);
}

/* Every CPU agent's fine-grained system regions, then the coarse-grained ones: what ROCR lists
 * for any agent after the agent's own memory. */
static hsa_status_t visit_system(hsa_status_t (*cb)(hsa_region_t, void *), void *data) {
  struct core_runtime *rt = core_rt();
  for (int fine = 1; fine >= 0; fine--)
    for (unsigned i = 0; i < rt->cpu_count; i++)
      for (unsigned k = 0; k < rt->agents[i]->region_count; k++) {
        const struct core_region *r = &rt->agents[i]->regions[k];
        if (r->fine_grain != (bool)fine || r->ext_fine) continue;   /* a pool, not a region */
        hsa_status_t st = visit(r, cb, data);
        if (st != HSA_STATUS_SUCCESS) return st;
      }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_iterate_regions(hsa_agent_t agent,
                                       hsa_status_t (*callback)(hsa_region_t region, void *data),
                                       void *data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  /* ROCR shows device memory only for the first GPU here (the others through pools). */
  if (a->kind == CORE_AGENT_GPU && a == core_first_gpu()) {
    for (unsigned k = 0; k < a->region_count; k++) {
      if (a->regions[k].ext_fine) continue;
      hsa_status_t st = visit(&a->regions[k], callback, data);
      if (st != HSA_STATUS_SUCCESS) return st;
    }
  }
  return visit_system(callback, data);
}

hsa_status_t hsa_region_get_info(hsa_region_t region, hsa_region_info_t attribute, void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_region *r = core_region_from_handle(region.handle);
  if (!r) return HSA_STATUS_ERROR_INVALID_REGION;
  return core_region_info(r, (uint32_t)attribute, value);
}
