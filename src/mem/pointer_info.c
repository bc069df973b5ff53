/* SPDX-License-Identifier: MIT */
/* pointer_info.c — hsa_amd_pointer_info and its user data, and deallocation callbacks. Any
 * address inside an allocation of ours (HSA), inside locked memory by its host or agent
 * address (LOCKED), a virtual-memory mapping (HSA_VMEM) or a reserved range without one
 * (RESERVED_ADDR), or anything else (UNKNOWN, still success, as ROCR answers). registered
 * (1.13) says the kernel knows the memory; alloc_flags (1.18) come from the flags the KFD
 * object was made with. The agents
 * listed as accessible are the GPUs whose VM maps the memory, as libhsakmt reports them. */
#include <stdlib.h>
#include <string.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "kfd/memory.h"
#include "mem/internal.h"

/* The 1.18 alloc_flags of a KFD object, from the flags it was made with. */
static uint32_t alloc_flags(uint32_t kfd, bool cpu_visible) {
  uint32_t f = 0;
  if (kfd & KFD_MEM_EXECUTABLE) f |= HSA_AMD_POINTER_INFO_ALLOC_FLAG_EXECUTABLE;
  if (kfd & KFD_MEM_CONTIGUOUS) f |= HSA_AMD_POINTER_INFO_ALLOC_FLAG_CONTIGUOUS;
  if (!(kfd & KFD_MEM_USERPTR)) f |= HSA_AMD_POINTER_INFO_ALLOC_FLAG_NONPAGED;
  if (!(kfd & KFD_MEM_WRITABLE)) f |= HSA_AMD_POINTER_INFO_ALLOC_FLAG_READONLY;
  if (cpu_visible) f |= HSA_AMD_POINTER_INFO_ALLOC_FLAG_HOST_ACCESS;
  if (kfd & KFD_MEM_COHERENT) f |= HSA_AMD_POINTER_INFO_ALLOC_FLAG_ATOMIC_FULL;
  return f;
}

hsa_status_t hsa_amd_pointer_info(const void *ptr, hsa_amd_pointer_info_t *info,
                                  void *(*alloc)(size_t), uint32_t *num_agents_accessible,
                                  hsa_agent_t **accessible) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!ptr || !info || info->size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_amd_pointer_info_t out;
  memset(&out, 0, sizeof(out));
  out.type = HSA_EXT_POINTER_TYPE_UNKNOWN;
  uint64_t mapped = 0;

  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find((uintptr_t)ptr);
  if (!r) r = mem_table_find_host((uintptr_t)ptr);
  if (r) {
    const struct core_agent *cpu = mem_first_cpu();
    if (r->kind == MEM_KIND_LOCKED) {
      out.type = HSA_EXT_POINTER_TYPE_LOCKED;
      out.hostBaseAddress = (void *)r->host_base;
      out.agentBaseAddress = (void *)r->base;
      out.sizeInBytes = r->host_size;
      out.agentOwner = core_agent_handle(cpu);
    } else {
      out.type = r->kind == MEM_KIND_IMPORT ? (hsa_amd_pointer_type_t)r->ptr_type
                                            : HSA_EXT_POINTER_TYPE_HSA;
      out.agentBaseAddress = (void *)r->base;
      out.hostBaseAddress = r->bo->cpu_visible ? (void *)r->base : NULL;
      out.sizeInBytes = r->size;
      out.agentOwner = core_agent_handle(r->owner);
    }
    out.userData = r->userdata;
    out.global_flags = r->fine ? HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED
                               : HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED;
    if (r->bo && (r->bo->kfd_flags & KFD_MEM_UNCACHED))
      out.global_flags |= HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT;
    mapped = r->bo ? r->bo->mapped : 0;
    out.registered = true;   /* every record is a KFD object (or locked through one) */
    out.alloc_flags = r->bo ? alloc_flags(r->bo->kfd_flags, r->bo->cpu_visible) : 0;
  }
  pthread_mutex_unlock(&mem_mutex);
  struct mem_vmem_desc v;
  if (!r && mem_vmem_describe((uintptr_t)ptr, &v)) {
    out.type = v.mapped ? HSA_EXT_POINTER_TYPE_HSA_VMEM : HSA_EXT_POINTER_TYPE_RESERVED_ADDR;
    out.agentBaseAddress = (void *)v.base;
    out.hostBaseAddress = v.cpu_access ? (void *)v.base : NULL;
    out.sizeInBytes = v.size;
    out.agentOwner = core_agent_handle(v.gpu ? v.gpu : mem_first_cpu());
    out.registered = v.mapped;
    out.alloc_flags = v.mapped ? alloc_flags(v.kfd_flags, v.cpu_access) : 0;
    mapped = v.gpus;
  }

  /* The caller's struct may be older (shorter) than ours: fill what it has room for. */
  size_t n = info->size < sizeof(out) ? info->size : sizeof(out);
  out.size = (uint32_t)n;
  memcpy(info, &out, n);

  if (alloc && num_agents_accessible && accessible) {
    uint32_t count = (uint32_t)__builtin_popcountll(mapped);
    hsa_agent_t *list = alloc(sizeof(hsa_agent_t) * (count ? count : 1));
    if (!list) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    uint32_t k = 0;
    for (uint64_t m = mapped; m; m &= m - 1) {
      const struct core_agent *g = mem_gpu((unsigned)__builtin_ctzll(m));
      if (g) list[k++] = core_agent_handle(g);
    }
    *num_agents_accessible = k;
    *accessible = list;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_pointer_info_set_userdata(const void *ptr, void *userdata) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!ptr) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_status_t st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  pthread_mutex_lock(&mem_mutex);
  /* The start of an allocation, or of locked memory by either address. */
  struct mem_rec *r = mem_table_find_base((uintptr_t)ptr);
  if (!r) {
    r = mem_table_find_host((uintptr_t)ptr);
    if (r && r->host_base != (uintptr_t)ptr) r = NULL;
  }
  if (r) {
    r->userdata = userdata;
    st = HSA_STATUS_SUCCESS;
  }
  pthread_mutex_unlock(&mem_mutex);
  return st;
}

hsa_status_t hsa_amd_register_deallocation_callback(void *ptr,
                                                    hsa_amd_deallocation_callback_t callback,
                                                    void *user_data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!ptr || !callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct mem_cb *c = malloc(sizeof(*c));
  if (!c) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  c->ptr = ptr;
  c->fn = callback;
  c->data = user_data;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find((uintptr_t)ptr);
  if (r && r->kind == MEM_KIND_USER) {
    c->next = r->cbs;
    r->cbs = c;
    c = NULL;
  }
  pthread_mutex_unlock(&mem_mutex);
  if (c) {
    free(c);
    return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_deregister_deallocation_callback(void *ptr,
                                                      hsa_amd_deallocation_callback_t callback) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!ptr || !callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_status_t st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find((uintptr_t)ptr);
  for (struct mem_cb **l = r ? &r->cbs : NULL; l && *l;) {
    struct mem_cb *c = *l;
    if (c->ptr == ptr && c->fn == callback) {
      *l = c->next;
      free(c);
      st = HSA_STATUS_SUCCESS;
    } else {
      l = &c->next;
    }
  }
  pthread_mutex_unlock(&mem_mutex);
  return st;
}
