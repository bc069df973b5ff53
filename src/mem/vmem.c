/* SPDX-License-Identifier: MIT */
/* vmem.c — hsa_amd_vmem_*: virtual memory management, with ROCR's behaviour and statuses.
 * An address range is reserved (a no-access reservation in the GPUVM aperture, or with
 * HSA_AMD_VMEM_ADDRESS_NO_REGISTER plain host pages); a memory handle is a VRAM buffer object
 * of a GPU pool that nothing maps; mapping a handle (or a page-aligned part of it) into a
 * reserved range exports the object as a dma-buf and imports it on the GPU's render node,
 * which gives no access yet; hsa_amd_vmem_set_access then gives each agent its rights: a GPU
 * through a GEM_VA mapping in the VM KFD shares with the render node (readable, writable, or
 * both; none = no mapping), the CPU through an mmap of the render-node object at the address
 * (PROT_NONE for none). One handle may be mapped at several addresses: they are the same
 * memory. Handles are exported and imported as dma-bufs (KFD EXPORT/IMPORT_DMABUF). Managing
 * a compute VM through GEM_VA needs KFD 1.15, so below it reserving a registered range and
 * creating a handle are refused (INVALID_ARGUMENT), as ROCR refuses them; NO_REGISTER ranges
 * work at every level. Where ROCR ignores hsa_amd_vmem_map's in_offset, this one maps from
 * that offset of the handle (page-aligned, inside it). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/agent.h"
#include "core/region.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "kfd/gem.h"
#include "kfd/memory.h"
#include "mem/internal.h"
#include "mem/mem.h"

#define VMEM_MAX 256u
#define GRANTS_MAX 16u

struct reservation {
  bool live, registered;
  uintptr_t va;
  size_t size;
  void *os_addr;              /* NO_REGISTER: the anonymous mapping holding the range */
  size_t os_size;
  unsigned use;               /* mappings inside it */
};

struct handle {
  bool live, pinned;
  uint32_t gen;
  struct mem_bo *bo;          /* the memory (VRAM of `gpu`), mapped nowhere itself */
  const struct core_region *region;
  const struct core_agent *gpu;
  size_t size;
  unsigned refs;              /* create/import/retain minus release */
  unsigned use;               /* mappings of it */
};

struct grant {
  const struct core_agent *agent;
  hsa_access_permission_t perm;
  uint32_t gem;               /* GPU: the object's handle on that GPU's render node */
  bool gpu_mapped;            /* GPU: a GEM_VA mapping is in place */
};

struct mapping {
  bool live;
  uintptr_t va;
  size_t size, offset;        /* [offset, offset+size) of the handle */
  unsigned h, r;              /* its handle and reservation */
  uint32_t gem;               /* the object on its owner GPU's render node */
  uint64_t mmap_off;          /* where the render node maps the object for the CPU */
  struct grant grants[GRANTS_MAX];
  unsigned ngrants;
};

/* A dma-buf taken in twice on one render node is one GEM handle there (PRIME gives the
 * handle it already has), which one GEM_CLOSE ends: each (node, handle) is counted, as
 * libdrm's amdgpu_bo_import counts its imports, and closed with its last user. */
struct gem_use {
  int fd;
  uint32_t gem;
  unsigned count;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct gem_use gems[VMEM_MAX * 2];
static struct reservation res[VMEM_MAX];
static struct handle handles[VMEM_MAX];
static struct mapping maps[VMEM_MAX];

static void tell(void) {
  const struct kfd_device *d = &core_rt()->kfd;
  fprintf(stderr, "hsa-runtime64: the virtual memory API (hsa_amd_vmem_*) needs KFD interface "
                  "1.15 or later (GEM_VA in a compute VM); this driver has %u.%u.\n",
          d->major, d->minor);
}

static bool supported(void) {
  if (kfd_has_vm_gem_va(&core_rt()->kfd)) return true;
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, tell);
  return false;
}

static bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

/* ---- lookups, lock held ------------------------------------------------------------------ */

static struct handle *handle_of(hsa_amd_vmem_alloc_handle_t h) {
  uint64_t slot = (h.handle & 0xffffffffu) - 1;
  if (slot >= VMEM_MAX) return NULL;
  struct handle *x = &handles[slot];
  return x->live && x->gen == (uint32_t)(h.handle >> 32) ? x : NULL;
}

static hsa_amd_vmem_alloc_handle_t handle_value(const struct handle *x) {
  hsa_amd_vmem_alloc_handle_t h = {(uint64_t)x->gen << 32 | (uint64_t)(x - handles + 1)};
  return h;
}

/* the reservation holding [va, va+size), or NULL */
static struct reservation *reservation_of(uintptr_t va, size_t size) {
  for (unsigned i = 0; i < VMEM_MAX; i++)
    if (res[i].live && va >= res[i].va && va - res[i].va <= res[i].size &&
        size <= res[i].size - (va - res[i].va))
      return &res[i];
  return NULL;
}

bool mem_vmem_reserved(const void *ptr, size_t size) {
  pthread_mutex_lock(&lock);
  bool in = reservation_of((uintptr_t)ptr, size) != NULL;
  pthread_mutex_unlock(&lock);
  return in;
}

static struct mapping *mapping_holding(uintptr_t va);

bool mem_vmem_describe(uintptr_t p, struct mem_vmem_desc *out) {
  memset(out, 0, sizeof(*out));
  pthread_mutex_lock(&lock);
  struct mapping *m = mapping_holding(p);
  struct reservation *r = m ? NULL : reservation_of(p, 1);
  if (m) {
    const struct handle *h = &handles[m->h];
    *out = (struct mem_vmem_desc){.mapped = true, .base = m->va, .size = m->size, .gpu = h->gpu,
                                  .kfd_flags = h->bo ? h->bo->kfd_flags : 0};
    for (unsigned i = 0; i < m->ngrants; i++) {
      const struct grant *g = &m->grants[i];
      if (g->perm == HSA_ACCESS_PERMISSION_NONE) continue;
      if (g->agent->kind == CORE_AGENT_GPU) out->gpus |= 1ull << g->agent->gpu_index;
      else out->cpu_access = true;
    }
  } else if (r) {
    out->base = r->va;
    out->size = r->size;
  }
  pthread_mutex_unlock(&lock);
  return m || r;
}

static struct mapping *mapping_at(uintptr_t va) {
  for (unsigned i = 0; i < VMEM_MAX; i++)
    if (maps[i].live && maps[i].va == va) return &maps[i];
  return NULL;
}

static struct mapping *mapping_holding(uintptr_t va) {
  for (unsigned i = 0; i < VMEM_MAX; i++)
    if (maps[i].live && va >= maps[i].va && va - maps[i].va < maps[i].size) return &maps[i];
  return NULL;
}

/* The mappings that follow each other from va over [va, va+size), as ROCR walks them: each
 * must start where the last ended. Their count, 0 when one is missing. */
static unsigned chain(uintptr_t va, size_t size, struct mapping **out) {
  unsigned n = 0;
  uintptr_t at = va;
  while (at < va + size && n < VMEM_MAX) {
    struct mapping *m = mapping_at(at);
    if (!m) return 0;
    out[n++] = m;
    at += m->size;
  }
  return n;
}

/* the import of dmabuf_fd on drm_fd, counted; 0 or -errno */
static int gem_get(int drm_fd, int dmabuf_fd, uint32_t *gem) {
  int rc = kfd_gem_import(drm_fd, dmabuf_fd, gem);
  if (rc) return rc;
  struct gem_use *free_slot = NULL;
  for (unsigned i = 0; i < sizeof(gems) / sizeof(gems[0]); i++) {
    if (gems[i].count && gems[i].fd == drm_fd && gems[i].gem == *gem) {
      gems[i].count++;
      return 0;
    }
    if (!gems[i].count && !free_slot) free_slot = &gems[i];
  }
  if (!free_slot) return -ENOMEM;   /* the handle stays open until the process ends */
  *free_slot = (struct gem_use){drm_fd, *gem, 1};
  return 0;
}

static void gem_put(int drm_fd, uint32_t gem) {
  for (unsigned i = 0; i < sizeof(gems) / sizeof(gems[0]); i++)
    if (gems[i].count && gems[i].fd == drm_fd && gems[i].gem == gem) {
      if (--gems[i].count == 0) kfd_gem_close(drm_fd, gem);
      return;
    }
}

static void handle_drop(struct handle *x) {
  if (x->refs || x->use) return;
  mem_bo_destroy(x->bo);
  x->bo = NULL;
  x->live = false;
  x->gen++;
}

/* ---- access ------------------------------------------------------------------------------ */

static uint32_t gpu_rights(hsa_access_permission_t p) {
  switch (p) {
  case HSA_ACCESS_PERMISSION_RO: return KFD_GEM_VA_READABLE | KFD_GEM_VA_EXECUTABLE;
  case HSA_ACCESS_PERMISSION_WO: return KFD_GEM_VA_WRITEABLE;
  case HSA_ACCESS_PERMISSION_RW:
    return KFD_GEM_VA_READABLE | KFD_GEM_VA_WRITEABLE | KFD_GEM_VA_EXECUTABLE;
  default: return 0;
  }
}

static int remove_access(struct mapping *m, struct grant *g) {
  int rc = 0;
  if (g->agent->kind == CORE_AGENT_GPU) {
    if (g->gpu_mapped)
      rc = kfd_gem_va_unmap(g->agent->drm.fd, g->gem, m->va, m->offset, m->size);
    g->gpu_mapped = false;
  } else {
    rc = kfd_mem_cpu_unmap((void *)m->va, m->size);   /* back to no access */
  }
  return rc;
}

static int enable_access(struct mapping *m, struct grant *g, hsa_access_permission_t p) {
  int rc = 0;
  if (g->agent->kind == CORE_AGENT_GPU) {
    uint32_t rights = gpu_rights(p);
    if (rights) {
      rc = kfd_gem_va_map(g->agent->drm.fd, g->gem, m->va, m->offset, m->size, rights);
      g->gpu_mapped = rc == 0;
    }
  } else {
    const struct core_agent *owner = handles[m->h].gpu;
    if (p == HSA_ACCESS_PERMISSION_NONE)
      rc = kfd_mem_cpu_unmap((void *)m->va, m->size);
    else
      rc = kfd_mem_cpu_map(owner->drm.fd, (void *)m->va, m->size, m->mmap_off + m->offset,
                           p != HSA_ACCESS_PERMISSION_RO);
  }
  if (rc == 0) g->perm = p;
  return rc;
}

/* A new grant of m for agent a: a GPU other than the owner takes the object in on its own
 * render node (the owner's handle serves the owner). */
static struct grant *grant_new(struct mapping *m, const struct core_agent *a) {
  if (m->ngrants == GRANTS_MAX) return NULL;
  struct grant *g = &m->grants[m->ngrants];
  memset(g, 0, sizeof(*g));
  g->agent = a;
  const struct handle *x = &handles[m->h];
  if (a->kind == CORE_AGENT_GPU) {
    if (a == x->gpu) {
      g->gem = m->gem;
    } else {
      int fd = -1;
      if (kfd_dmabuf_export(&core_rt()->kfd, x->bo->handle, &fd) != 0) return NULL;
      int rc = gem_get(a->drm.fd, fd, &g->gem);
      close(fd);
      if (rc) return NULL;
    }
  }
  m->ngrants++;
  return g;
}

static void grant_drop(struct mapping *m, unsigned i) {
  struct grant *g = &m->grants[i];
  if (g->agent->kind == CORE_AGENT_GPU && g->agent != handles[m->h].gpu)
    gem_put(g->agent->drm.fd, g->gem);
  m->grants[i] = m->grants[--m->ngrants];
}

/* ---- the API ----------------------------------------------------------------------------- */

hsa_status_t hsa_amd_vmem_address_reserve_align(void **va, size_t size, uint64_t address,
                                                uint64_t alignment, uint64_t flags) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (size == 0 || !va) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  bool host = flags & HSA_AMD_VMEM_ADDRESS_NO_REGISTER;
  if (!host && !supported()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!alignment) alignment = MEM_PAGE;
  pthread_mutex_lock(&lock);
  struct reservation *r = NULL;
  for (unsigned i = 0; i < VMEM_MAX && !r; i++)
    if (!res[i].live) r = &res[i];
  hsa_status_t st = r ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  void *p = NULL;
  if (st == HSA_STATUS_SUCCESS && host) {
    /* host pages, over-allocated so an aligned start fits (ROCR's NO_REGISTER range) */
    size_t span = size + (pow2(alignment) ? alignment - MEM_PAGE : 0);
    void *os = mmap((void *)(uintptr_t)address, span, PROT_READ | PROT_WRITE,
                    MAP_ANONYMOUS | MAP_PRIVATE | MAP_NORESERVE, -1, 0);
    if (os == MAP_FAILED) {
      st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    } else {
      uintptr_t a = pow2(alignment) ? ((uintptr_t)os + alignment - 1) & ~(uintptr_t)(alignment - 1)
                                    : (uintptr_t)os;
      p = (void *)a;
      r->os_addr = os;
      r->os_size = span;
    }
  } else if (st == HSA_STATUS_SUCCESS) {
    /* in the GPUVM aperture, at the address asked for if it is free, as libhsakmt tries;
     * an alignment below a page or not a power of two, or a size not a page multiple, is
     * what libhsakmt refuses (ROCR: OUT_OF_RESOURCES) */
    if (alignment < MEM_PAGE || !pow2(alignment) || size % MEM_PAGE) {
      st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    } else {
      uint64_t lo = 0, hi = 0;
      mem_gpuvm_range(&lo, &hi);
      if (address && address >= lo && address + size <= hi && address % alignment == 0)
        p = kfd_va_reserve(size, alignment, address, address + size);
      if (!p) p = kfd_va_reserve(size, alignment, lo, hi);
      if (!p) st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
  }
  if (st == HSA_STATUS_SUCCESS) {
    r->live = true;
    r->registered = !host;
    r->va = (uintptr_t)p;
    r->size = size;
    r->use = 0;
    *va = p;
  }
  pthread_mutex_unlock(&lock);
  return st;
}

hsa_status_t hsa_amd_vmem_address_reserve(void **va, size_t size, uint64_t address,
                                          uint64_t flags) {
  return hsa_amd_vmem_address_reserve_align(va, size, address, 0, flags);
}

hsa_status_t hsa_amd_vmem_address_free(void *va, size_t size) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!va || size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  pthread_mutex_lock(&lock);
  struct reservation *r = NULL;
  for (unsigned i = 0; i < VMEM_MAX && !r; i++)
    if (res[i].live && res[i].va == (uintptr_t)va) r = &res[i];
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (!r) st = HSA_STATUS_ERROR_INVALID_ALLOCATION;
  else if (size != r->size) st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  else if (r->use) st = HSA_STATUS_ERROR_RESOURCE_FREE;   /* still mapped */
  if (st == HSA_STATUS_SUCCESS) {
    if (r->registered) kfd_va_release(va, size);
    else munmap(r->os_addr, r->os_size);
    r->live = false;
  }
  pthread_mutex_unlock(&lock);
  return st;
}

hsa_status_t hsa_amd_vmem_handle_create(hsa_amd_memory_pool_t pool, size_t size,
                                        hsa_amd_memory_type_t type, uint64_t flags,
                                        hsa_amd_vmem_alloc_handle_t *memory_handle) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (size == 0 || !memory_handle) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!supported()) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (type != MEMORY_TYPE_NONE && type != MEMORY_TYPE_PINNED)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_region *region = core_region_from_handle(pool.handle);
  if (!region || size % MEM_PAGE) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* memory without an address is device memory only (ROCR: system pools refuse it) */
  if (!core_region_is_local(region)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_status_t st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  pthread_mutex_lock(&lock);
  struct handle *x = NULL;
  for (unsigned i = 0; i < VMEM_MAX && !x; i++)
    if (!handles[i].live) x = &handles[i];
  if (x) {
    uint32_t kflags = KFD_MEM_WRITABLE | KFD_MEM_EXECUTABLE |
                      (region->fine_grain || region->ext_fine ? KFD_MEM_COHERENT : 0) |
                      (region->ext_fine ? KFD_MEM_EXT_COHERENT : 0) |
                      (type == MEMORY_TYPE_PINNED ? KFD_MEM_NO_SUBSTITUTE : 0);
    x->bo = mem_bo_device(region->owner, size, MEM_PAGE, kflags,
                          region->heap != CORE_HEAP_FB_PRIVATE, 0, &st);
  }
  if (x && x->bo) {
    x->live = true;
    x->pinned = type == MEMORY_TYPE_PINNED;
    x->region = region;
    x->gpu = region->owner;
    x->size = size;
    x->refs = 1;
    x->use = 0;
    *memory_handle = handle_value(x);
    st = HSA_STATUS_SUCCESS;
  }
  pthread_mutex_unlock(&lock);
  return st;
}

hsa_status_t hsa_amd_vmem_handle_release(hsa_amd_vmem_alloc_handle_t memory_handle) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  pthread_mutex_lock(&lock);
  struct handle *x = handle_of(memory_handle);
  hsa_status_t st = x && x->refs ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ALLOCATION;
  if (st == HSA_STATUS_SUCCESS) {
    x->refs--;
    handle_drop(x);   /* the memory goes with the last mapping when mappings remain */
  }
  pthread_mutex_unlock(&lock);
  return st;
}

hsa_status_t hsa_amd_vmem_map(void *va, size_t size, size_t in_offset,
                              hsa_amd_vmem_alloc_handle_t memory_handle, uint64_t flags) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!va || size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uintptr_t a = (uintptr_t)va;
  pthread_mutex_lock(&lock);
  hsa_status_t st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct reservation *r = reservation_of(a, size);
  struct handle *x = handle_of(memory_handle);
  struct mapping *m = NULL;
  if (!r || !x) goto out;
  for (unsigned i = 0; i < VMEM_MAX; i++)   /* [va, va+size) mapped already, in part */
    if (maps[i].live && maps[i].va < a + size && a < maps[i].va + maps[i].size) goto out;
  if (a % MEM_PAGE || size % MEM_PAGE || in_offset % MEM_PAGE || in_offset > x->size ||
      size > x->size - in_offset)
    goto out;
  for (unsigned i = 0; i < VMEM_MAX && !m; i++)
    if (!maps[i].live) m = &maps[i];
  st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (!m) goto out;
  /* the object on its GPU's render node, through a dma-buf of it, as ROCR takes it */
  int fd = -1;
  int rc = kfd_dmabuf_export(&core_rt()->kfd, x->bo->handle, &fd);
  if (rc) {
    kfd_report("AMDKFD_IOC_EXPORT_DMABUF", rc);
    goto out;
  }
  memset(m, 0, sizeof(*m));
  rc = gem_get(x->gpu->drm.fd, fd, &m->gem);
  close(fd);
  if (rc == 0 && (rc = kfd_gem_mmap_offset(x->gpu->drm.fd, m->gem, &m->mmap_off)) != 0)
    gem_put(x->gpu->drm.fd, m->gem);
  if (rc) {
    st = HSA_STATUS_ERROR;
    goto out;
  }
  m->live = true;
  m->va = a;
  m->size = size;
  m->offset = in_offset;
  m->h = (unsigned)(x - handles);
  m->r = (unsigned)(r - res);
  r->use++;
  x->use++;
  st = HSA_STATUS_SUCCESS;
out:
  pthread_mutex_unlock(&lock);
  return st;
}

hsa_status_t hsa_amd_vmem_unmap(void *va, size_t size) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!va || size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  pthread_mutex_lock(&lock);
  struct mapping *list[VMEM_MAX];
  unsigned n = chain((uintptr_t)va, size, list);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  uintptr_t end = n ? list[n - 1]->va + list[n - 1]->size : 0;
  if (!n || end != (uintptr_t)va + size) st = HSA_STATUS_ERROR_INVALID_ALLOCATION;
  for (unsigned i = 0; st == HSA_STATUS_SUCCESS && i < n; i++) {
    struct mapping *m = list[i];
    while (m->ngrants) {
      if (remove_access(m, &m->grants[0])) st = HSA_STATUS_ERROR;
      grant_drop(m, 0);
    }
    if (res[m->r].registered) kfd_mem_cpu_unmap((void *)m->va, m->size);
    struct handle *x = &handles[m->h];
    gem_put(x->gpu->drm.fd, m->gem);
    res[m->r].use--;
    x->use--;
    m->live = false;
    handle_drop(x);
  }
  pthread_mutex_unlock(&lock);
  return st;
}

hsa_status_t hsa_amd_vmem_set_access(void *va, size_t size,
                                     const hsa_amd_memory_access_desc_t *desc, size_t desc_cnt) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!va || size == 0 || !desc || desc_cnt == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (size_t i = 0; i < desc_cnt; i++) {
    if (!core_agent_from_handle(desc[i].agent_handle)) return HSA_STATUS_ERROR_INVALID_AGENT;
    if (desc[i].permissions > HSA_ACCESS_PERMISSION_RW) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  pthread_mutex_lock(&lock);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  struct mapping *list[VMEM_MAX];
  unsigned n = 0;
  if (!reservation_of((uintptr_t)va, size)) st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  else if (!(n = chain((uintptr_t)va, size, list))) st = HSA_STATUS_ERROR_INVALID_ALLOCATION;
  for (unsigned i = 0; st == HSA_STATUS_SUCCESS && i < n; i++) {
    struct mapping *m = list[i];
    for (size_t d = 0; st == HSA_STATUS_SUCCESS && d < desc_cnt; d++) {
      const struct core_agent *a = core_agent_from_handle(desc[d].agent_handle);
      hsa_access_permission_t p = desc[d].permissions;
      struct grant *g = NULL;
      for (unsigned k = 0; k < m->ngrants && !g; k++)
        if (m->grants[k].agent == a) g = &m->grants[k];
      if (g && g->perm == p) continue;
      if (g) {
        if (remove_access(m, g)) st = HSA_STATUS_ERROR;
      } else if (!(g = grant_new(m, a))) {
        st = HSA_STATUS_ERROR;
      }
      if (st == HSA_STATUS_SUCCESS && enable_access(m, g, p)) {
        grant_drop(m, (unsigned)(g - m->grants));
        st = HSA_STATUS_ERROR;
      }
    }
  }
  pthread_mutex_unlock(&lock);
  return st;
}

hsa_status_t hsa_amd_vmem_get_access(void *va, hsa_access_permission_t *perms,
                                     hsa_agent_t agent_handle) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!va || !perms) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *perms = HSA_ACCESS_PERMISSION_NONE;
  pthread_mutex_lock(&lock);
  struct mapping *m = mapping_holding((uintptr_t)va);
  const struct core_agent *a = core_agent_from_handle(agent_handle);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (!m) st = HSA_STATUS_ERROR_INVALID_ALLOCATION;
  else if (!a || a->kind != CORE_AGENT_GPU) st = HSA_STATUS_ERROR_INVALID_AGENT;   /* as ROCR */
  for (unsigned k = 0; st == HSA_STATUS_SUCCESS && k < m->ngrants; k++)
    if (m->grants[k].agent == a) *perms = m->grants[k].perm;
  pthread_mutex_unlock(&lock);
  return st;
}

hsa_status_t hsa_amd_vmem_export_shareable_handle(int *dmabuf_fd,
                                                  hsa_amd_vmem_alloc_handle_t handle,
                                                  uint64_t flags) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!dmabuf_fd) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *dmabuf_fd = -1;
  pthread_mutex_lock(&lock);
  struct handle *x = handle_of(handle);
  hsa_status_t st = HSA_STATUS_ERROR_INVALID_ALLOCATION;
  if (x) {
    int rc = kfd_dmabuf_export(&core_rt()->kfd, x->bo->handle, dmabuf_fd);
    st = rc == 0 ? HSA_STATUS_SUCCESS
         : rc == -EINVAL ? HSA_STATUS_ERROR_INVALID_ARGUMENT : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    if (rc) kfd_report("AMDKFD_IOC_EXPORT_DMABUF", rc);
  }
  pthread_mutex_unlock(&lock);
  return st;
}

/* the coarse-grained local pool of gpu (where an imported handle's memory lives) */
static const struct core_region *local_region(const struct core_agent *gpu) {
  for (unsigned k = 0; k < gpu->region_count; k++)
    if (core_region_is_local(&gpu->regions[k]) && !gpu->regions[k].fine_grain &&
        !gpu->regions[k].ext_fine)
      return &gpu->regions[k];
  return NULL;
}

hsa_status_t hsa_amd_vmem_import_shareable_handle(int dmabuf_fd,
                                                  hsa_amd_vmem_alloc_handle_t *handle) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!handle || dmabuf_fd < 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct kfd_device *dev = &core_rt()->kfd;
  uint64_t size = 0;
  uint32_t meta_size = 0, gpu_id = 0, kflags = 0;
  if (kfd_dmabuf_info(dev, dmabuf_fd, NULL, 0, &size, &meta_size, &gpu_id, &kflags) != 0)
    return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;   /* not a dma-buf of this driver */
  const struct core_agent *gpu = NULL;
  for (unsigned i = 0; i < MEM_MAX_GPUS && !gpu; i++) {
    const struct core_agent *g = mem_gpu(i);
    if (g && g->gpu_id == gpu_id) gpu = g;
  }
  const struct core_region *region = gpu ? local_region(gpu) : NULL;
  if (!region) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  pthread_mutex_lock(&lock);
  hsa_status_t st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  struct handle *x = NULL;
  for (unsigned i = 0; i < VMEM_MAX && !x; i++)
    if (!handles[i].live) x = &handles[i];
  struct mem_bo *bo = x ? calloc(1, sizeof(*bo)) : NULL;
  uint64_t lo = 0, hi = 0;
  mem_gpuvm_range(&lo, &hi);
  void *va = bo ? kfd_va_reserve(MEM_ALIGN_UP(size, MEM_PAGE), MEM_PAGE, lo, hi) : NULL;
  if (va) {
    bo->va = va;
    bo->size = MEM_ALIGN_UP(size, MEM_PAGE);
    bo->alloc_gpu = gpu;
    bo->kfd_flags = kflags;
    if (kfd_dmabuf_import(dev, dmabuf_fd, gpu_id, (uint64_t)(uintptr_t)va, &bo->handle) == 0) {
      x->live = true;
      x->pinned = false;   /* what the dma-buf says of it: no NO_SUBSTITUTE */
      x->bo = bo;
      x->region = region;
      x->gpu = gpu;
      x->size = (size_t)bo->size;
      x->refs = 1;
      x->use = 0;
      *handle = handle_value(x);
      st = HSA_STATUS_SUCCESS;
    } else {
      kfd_va_release(va, bo->size);
      st = HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
    }
  }
  if (st != HSA_STATUS_SUCCESS && (!x || !x->live)) free(bo);
  pthread_mutex_unlock(&lock);
  return st;
}

hsa_status_t hsa_amd_vmem_retain_alloc_handle(hsa_amd_vmem_alloc_handle_t *memory_handle,
                                              void *addr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!addr || !memory_handle) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  pthread_mutex_lock(&lock);
  struct mapping *m = mapping_at((uintptr_t)addr);   /* a mapping's start, as ROCR */
  if (m) {
    handles[m->h].refs++;
    *memory_handle = handle_value(&handles[m->h]);
  }
  pthread_mutex_unlock(&lock);
  return m ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ALLOCATION;
}

hsa_status_t hsa_amd_vmem_get_alloc_properties_from_handle(
    hsa_amd_vmem_alloc_handle_t memory_handle, hsa_amd_memory_pool_t *pool,
    hsa_amd_memory_type_t *type) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!pool || !type) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  pthread_mutex_lock(&lock);
  struct handle *x = handle_of(memory_handle);
  if (x) {
    pool->handle = (uint64_t)(uintptr_t)x->region;
    *type = x->pinned ? MEMORY_TYPE_PINNED : MEMORY_TYPE_NONE;
  }
  pthread_mutex_unlock(&lock);
  return x ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ALLOCATION;
}
