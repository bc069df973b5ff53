/* SPDX-License-Identifier: MIT */
/* svm.c — SVM attributes (hsa_amd_svm_attributes_set/get) and prefetch through the KFD SVM
 * ioctl, as ROCR maps them: the HSA attributes become KFD attributes on the pages the range
 * touches (start rounded down, end up); agents become KFD locations (a GPU its gpu_id, a CPU
 * system memory, no agent "undefined"); CPU access, coherence, read-only, hive-local,
 * read-mostly and exec are KFD flags. Argument errors are found in list order, as ROCR
 * finds them; a call the kernel refuses is HSA_STATUS_ERROR. A prefetch sets the prefetch
 * location of the range (the kernel migrates); src/copy/prefetch.c waits for its dependencies
 * first and decrements its completion signal after. */
#include <stdlib.h>
#include <string.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "kfd/memory.h"
#include "mem/internal.h"

/* Granularity is a power of two of pages; ROCR caps it at 1 GiB (2^18 pages). */
#define MAX_GRANULARITY 18u

struct kattr {
  uint32_t type, value;
};

static void page_span(void *ptr, size_t size, uint64_t *base, uint64_t *len) {
  uint64_t b = (uintptr_t)ptr & ~(uint64_t)(MEM_PAGE - 1);
  uint64_t e = MEM_ALIGN_UP((uint64_t)(uintptr_t)ptr + size, MEM_PAGE);
  *base = b;
  *len = e - b;
}

static uint32_t location_of(const struct core_agent *a) {
  if (!a) return KFD_SVM_LOCATION_UNDEFINED;
  return a->kind == CORE_AGENT_GPU ? a->gpu_id : KFD_SVM_LOCATION_SYSMEM;
}

static hsa_agent_t agent_at(uint32_t loc) {
  hsa_agent_t none = {0};
  if (loc == KFD_SVM_LOCATION_UNDEFINED) return none;
  if (loc == KFD_SVM_LOCATION_SYSMEM) {
    const struct core_agent *c = mem_first_cpu();
    return c ? core_agent_handle(c) : none;
  }
  for (unsigned i = 0; i < MEM_MAX_GPUS; i++) {
    const struct core_agent *g = mem_gpu(i);
    if (g && g->gpu_id == loc) return core_agent_handle(g);
  }
  return none;
}

static int svm_call(uint32_t op, void *ptr, size_t size, struct kattr *at, uint32_t n) {
  uint64_t base, len;
  page_span(ptr, size, &base, &len);
  return kfd_svm(&core_rt()->kfd, op, base, len, &at->type, n);
}

hsa_status_t hsa_amd_svm_attributes_set(void *ptr, size_t size,
                                        hsa_amd_svm_attribute_pair_t *list, size_t count) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (count && !list) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (count > 1024) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct kattr *at = calloc(count + 2, sizeof(*at));
  const struct core_agent **seen = calloc(count + 1, sizeof(*seen));
  hsa_status_t st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (!at || !seen) goto out;
  uint32_t n = 0, nseen = 0, given = 0, set = 0, clr = 0;
  st = HSA_STATUS_SUCCESS;
  for (size_t i = 0; i < count && st == HSA_STATUS_SUCCESS; i++) {
    uint64_t attr = list[i].attribute, v = list[i].value;
    uint32_t flag = 0;
    const struct core_agent *a = NULL;
    if (attr <= HSA_AMD_SVM_ATTRIB_GPU_EXEC && attr != HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION) {
      if (given & (1u << attr)) {   /* each attribute once */
        st = HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
        break;
      }
      given |= 1u << attr;
    }
    switch (attr) {
    case HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG:
      if (v == HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED) set |= KFD_SVM_FLAG_COHERENT;
      else if (v == HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED) clr |= KFD_SVM_FLAG_COHERENT;
      else st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
      break;
    case HSA_AMD_SVM_ATTRIB_READ_ONLY:
      flag = KFD_SVM_FLAG_GPU_RO;
      break;
    case HSA_AMD_SVM_ATTRIB_HIVE_LOCAL:
      flag = KFD_SVM_FLAG_HIVE_LOCAL;
      break;
    case HSA_AMD_SVM_ATTRIB_READ_MOSTLY:
      flag = KFD_SVM_FLAG_GPU_READ_MOSTLY;
      break;
    case HSA_AMD_SVM_ATTRIB_GPU_EXEC:
      flag = KFD_SVM_FLAG_GPU_EXEC;
      break;
    case HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY:
      at[n++] = (struct kattr){KFD_SVM_ATTR_GRANULARITY,
                               (uint32_t)(v > MAX_GRANULARITY ? MAX_GRANULARITY : v)};
      break;
    case HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION: {
      hsa_agent_t h = {v};
      a = v ? core_agent_from_handle(h) : NULL;
      if (v && !a) st = HSA_STATUS_ERROR_INVALID_AGENT;
      else at[n++] = (struct kattr){KFD_SVM_ATTR_PREFERRED_LOC, location_of(a)};
      break;
    }
    case HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE:
    case HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE:
    case HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS: {
      hsa_agent_t h = {v};
      a = core_agent_from_handle(h);
      if (!a) {
        st = HSA_STATUS_ERROR_INVALID_AGENT;
        break;
      }
      for (uint32_t k = 0; k < nseen; k++)
        if (seen[k]->node_id == a->node_id) st = HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
      if (st != HSA_STATUS_SUCCESS) break;
      seen[nseen++] = a;
      if (a->kind != CORE_AGENT_GPU) {   /* the CPU's access is a flag */
        if (attr == HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS) clr |= KFD_SVM_FLAG_HOST_ACCESS;
        else set |= KFD_SVM_FLAG_HOST_ACCESS;
        break;
      }
      uint32_t t = attr == HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE ? KFD_SVM_ATTR_ACCESS
                   : attr == HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE
                       ? KFD_SVM_ATTR_ACCESS_IN_PLACE
                       : KFD_SVM_ATTR_NO_ACCESS;
      at[n++] = (struct kattr){t, a->gpu_id};
      break;
    }
    default:
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
    if (flag) {
      if (v) set |= flag;
      else clr |= flag;
    }
  }
  if (st != HSA_STATUS_SUCCESS) goto out;
  /* Any CPU that needs access wins over one that does not. */
  if (set & KFD_SVM_FLAG_HOST_ACCESS) clr &= ~(uint32_t)KFD_SVM_FLAG_HOST_ACCESS;
  if (clr) at[n++] = (struct kattr){KFD_SVM_ATTR_CLR_FLAGS, clr};
  if (set) at[n++] = (struct kattr){KFD_SVM_ATTR_SET_FLAGS, set};
  st = svm_call(KFD_SVM_OP_SET_ATTR, ptr, size, at, n) == 0 ? HSA_STATUS_SUCCESS
                                                                    : HSA_STATUS_ERROR;
out:
  free(at);
  free(seen);
  return st;
}

hsa_status_t hsa_amd_svm_attributes_get(void *ptr, size_t size,
                                        hsa_amd_svm_attribute_pair_t *list, size_t count) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (count && !list) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (count > 1024) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* One KFD query per attribute that needs one, plus CLR and SET flags at the end. */
  struct kattr *at = calloc(count + 2, sizeof(*at));
  int *idx = calloc(count + 1, sizeof(*idx));
  hsa_status_t st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (!at || !idx) goto out;
  uint32_t n = 0;
  bool flags = false;
  st = HSA_STATUS_SUCCESS;
  for (size_t i = 0; i < count && st == HSA_STATUS_SUCCESS; i++) {
    idx[i] = -1;
    switch (list[i].attribute) {
    case HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG:
    case HSA_AMD_SVM_ATTRIB_READ_ONLY:
    case HSA_AMD_SVM_ATTRIB_HIVE_LOCAL:
    case HSA_AMD_SVM_ATTRIB_READ_MOSTLY:
      flags = true;
      break;
    case HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY:
      idx[i] = (int)n;
      at[n++] = (struct kattr){KFD_SVM_ATTR_GRANULARITY, 0};
      break;
    case HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION:
      idx[i] = (int)n;
      at[n++] = (struct kattr){KFD_SVM_ATTR_PREFERRED_LOC, 0};
      break;
    case HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION:
      idx[i] = (int)n;
      at[n++] = (struct kattr){KFD_SVM_ATTR_PREFETCH_LOC, 0};
      break;
    case HSA_AMD_SVM_ATTRIB_ACCESS_QUERY: {
      hsa_agent_t h = {list[i].value};
      const struct core_agent *a = core_agent_from_handle(h);
      if (!a) {
        st = HSA_STATUS_ERROR_INVALID_AGENT;
      } else if (a->kind != CORE_AGENT_GPU) {
        flags = true;
      } else {
        idx[i] = (int)n;
        at[n++] = (struct kattr){KFD_SVM_ATTR_ACCESS, a->gpu_id};
      }
      break;
    }
    default:
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
  }
  if (st != HSA_STATUS_SUCCESS) goto out;
  if (flags) {
    at[n++] = (struct kattr){KFD_SVM_ATTR_CLR_FLAGS, 0};
    at[n++] = (struct kattr){KFD_SVM_ATTR_SET_FLAGS, 0};
  }
  if (n && svm_call(KFD_SVM_OP_GET_ATTR, ptr, size, at, n) != 0) {
    st = HSA_STATUS_ERROR;
    goto out;
  }
  uint32_t setf = flags ? at[n - 1].value : 0, clrf = flags ? at[n - 2].value : 0;
  for (size_t i = 0; i < count; i++) {
    uint64_t *v = &list[i].value;
    switch (list[i].attribute) {
    case HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG:
      *v = (setf & KFD_SVM_FLAG_COHERENT)   ? HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED
           : (clrf & KFD_SVM_FLAG_COHERENT) ? HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED
                                                  : HSA_AMD_SVM_GLOBAL_FLAG_INDETERMINATE;
      break;
    /* As ROCR: the flag's bit itself, not 1. */
    case HSA_AMD_SVM_ATTRIB_READ_ONLY:
      *v = setf & KFD_SVM_FLAG_GPU_RO;
      break;
    case HSA_AMD_SVM_ATTRIB_HIVE_LOCAL:
      *v = setf & KFD_SVM_FLAG_HIVE_LOCAL;
      break;
    case HSA_AMD_SVM_ATTRIB_READ_MOSTLY:
      *v = setf & KFD_SVM_FLAG_GPU_READ_MOSTLY;
      break;
    case HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY:
      *v = at[idx[i]].value;
      break;
    case HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION:
    case HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION:
      *v = agent_at(at[idx[i]].value).handle;
      break;
    case HSA_AMD_SVM_ATTRIB_ACCESS_QUERY:
      if (idx[i] < 0) {
        if (setf & KFD_SVM_FLAG_HOST_ACCESS)
          list[i].attribute = HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE;
      } else {
        uint32_t t = at[idx[i]].type;
        list[i].attribute = t == KFD_SVM_ATTR_ACCESS ? HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE
                            : t == KFD_SVM_ATTR_ACCESS_IN_PLACE
                                ? HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE
                                : HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS;
      }
      break;
    }
  }
out:
  free(at);
  free(idx);
  return st;
}

/* ---- prefetch (src/copy runs it when its dependencies are met) ---------------------- */

bool mem_svm_prefetch(void *ptr, size_t size, const struct core_agent *agent) {
  struct kattr at = {KFD_SVM_ATTR_PREFETCH_LOC, location_of(agent)};
  return svm_call(KFD_SVM_OP_SET_ATTR, ptr, size, &at, 1) == 0;
}
