/* SPDX-License-Identifier: MIT */
/* vm.c — the GPU virtual memory of each device: MAP/UNMAP_MEMORY_TO_GPU put a buffer
 * object at its VA in a GPU's page tables (amdgpu_vm_bo_map rules: page-aligned, inside
 * the 48-bit VM, no overlap with another mapping of that GPU), and sim_vm_translate lets
 * the execution model find the bytes behind a GPU address — or nothing, which is a fault.
 * Where no buffer object is, the SVM ranges mapped on that GPU answer (svm.c). Pages are
 * writable by the GPU only where the object was allocated WRITABLE (or the SVM range allows
 * it): sim_vm_translate_write and sim_vm_lookup_prot say so. */
#include "kfd/gem.h"
#include "kfd/kfd.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>

#define VM_LIMIT (1ull << 48)

static unsigned gpu_bit(const struct sim_pdd *pdd)
{
  return 1u << pdd->gpu->index;
}

static int vm_map(struct sim_kfd_process *p, struct sim_bo *bo, struct sim_pdd *peer)
{
  if (bo->mapped & gpu_bit(peer))
    return 0;   /* already mapped there: nothing to do */
  uint64_t s = bo->va, n = bo->size;
  if ((s & (SIM_PAGE - 1)) || s + n <= s || s + n - 1 >= VM_LIMIT)
    return -EINVAL;
  for (struct sim_bo *o = p->bos; o; o = o->next)
    if (o != bo && (o->mapped & gpu_bit(peer)) && s < o->va + o->size && o->va < s + n)
      return -EINVAL;
  bo->mapped |= gpu_bit(peer);
  return 0;
}

static int map_common(struct sim_kfd_process *p, struct kfd_ioctl_map_memory_to_gpu_args *a,
                      bool map)
{
  if (!a->n_devices || a->n_success > a->n_devices)
    return -EINVAL;
  uint32_t *ids = calloc(a->n_devices, sizeof *ids);
  if (!ids)
    return -ENOMEM;
  if (sim_copy_from_user(ids, a->device_ids_array_ptr, (size_t)a->n_devices * sizeof *ids)) {
    free(ids);
    return -EFAULT;
  }
  int r = 0;
  pthread_mutex_lock(&p->lock);
  struct sim_pdd *pdd = sim_pdd_by_id(p, (uint32_t)(a->handle >> 32));
  struct sim_bo *bo = NULL;
  if (!pdd) {
    r = -EINVAL;
    goto out;
  }
  if (map && (r = sim_pdd_bind(pdd)) != 0)
    goto out;
  if (!(bo = sim_bo_lookup(p, a->handle))) {
    r = -ENOMEM;   /* sic: the kernel reports an unknown handle so */
    goto out;
  }
  for (uint32_t i = a->n_success; i < a->n_devices; i++) {
    struct sim_pdd *peer = sim_pdd_by_id(p, ids[i]);
    if (!peer) {
      r = -EINVAL;
      goto out;
    }
    if (map) {
      if ((r = sim_pdd_bind(peer)) != 0 || (r = vm_map(p, bo, peer)) != 0)
        goto out;
    } else {
      if (!(bo->mapped & gpu_bit(peer))) {
        r = -EINVAL;   /* was not mapped on that GPU */
        goto out;
      }
      bo->mapped &= ~gpu_bit(peer);
    }
    a->n_success = i + 1;
  }
out:
  sim_vm_changed();   /* translations kept across work-groups go (sim_vm_generation) */
  pthread_mutex_unlock(&p->lock);
  free(ids);
  return r;
}

int sim_kfd_map_memory(struct sim_kfd_process *p, void *data)
{
  return map_common(p, data, true);
}

int sim_kfd_unmap_memory(struct sim_kfd_process *p, void *data)
{
  return map_common(p, (struct kfd_ioctl_map_memory_to_gpu_args *)data, false);
}

/* KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE (the uapi spells it as a signed 1 << 31): the object is
 * mapped with AMDGPU_VM_PAGE_WRITEABLE; without it the GPU may only read it. */
#define MEM_WRITABLE 0x80000000u

/* The translation of [va, va + len) on gpu: host bytes, the contiguous range [*lo, *hi)
 * around va (one buffer; one copy of wrapping AQL queue memory) and whether the GPU may write
 * there. NULL: nothing maps the whole of it. */
static void *translate(struct sim_gpu *gpu, uint64_t va, uint64_t len, uint64_t *lo, uint64_t *hi,
                       bool *writable, bool *keep)
{
  *keep = false;
  struct sim_kfd_process *p = sim_kfd_current();
  if (!p || !gpu || !len)
    return NULL;
  void *host = NULL;
  bool bo = false;
  pthread_mutex_lock(&p->lock);
  for (struct sim_bo *b = p->bos; b; b = b->next) {
    if (!(b->mapped & (1u << gpu->index)) || va < b->va || va - b->va >= b->size)
      continue;
    uint64_t off = va - b->va, copy = off - off % b->bo_size;   /* AQL memory wraps */
    uint64_t end = copy + b->bo_size < b->size ? copy + b->bo_size : b->size;
    *lo = b->va + copy;
    *hi = b->va + end;
    *writable = b->flags & MEM_WRITABLE;
    if (off - copy + len <= b->bo_size)
      host = (char *)b->host + (off - copy);
    bo = true;
    break;
  }
  pthread_mutex_unlock(&p->lock);
  if (!bo)
    host = sim_gem_va_translate(gpu, va, len, lo, hi, writable, &bo);   /* the render node's */
  *keep = host != NULL;
  if (!bo)
    host = sim_svm_translate(p, gpu, va, len, lo, hi, writable), *keep = false;
  return host;
}

void *sim_vm_translate(struct sim_gpu *gpu, uint64_t va, uint64_t len)
{
  uint64_t lo, hi;
  bool w, k;
  return translate(gpu, va, len, &lo, &hi, &w, &k);
}

void *sim_vm_translate_write(struct sim_gpu *gpu, uint64_t va, uint64_t len)
{
  uint64_t lo, hi;
  bool w = false, k;
  void *host = translate(gpu, va, len, &lo, &hi, &w, &k);
  return w ? host : NULL;
}

void *sim_vm_lookup(struct sim_gpu *gpu, uint64_t va, uint64_t *lo, uint64_t *hi)
{
  bool w, k;
  return translate(gpu, va, 1, lo, hi, &w, &k);
}

void *sim_vm_lookup_prot(struct sim_gpu *gpu, uint64_t va, uint64_t *lo, uint64_t *hi,
                         bool *writable)
{
  bool k;
  *writable = false;
  return translate(gpu, va, 1, lo, hi, writable, &k);
}

void *sim_vm_lookup_keep(struct sim_gpu *gpu, uint64_t va, uint64_t *lo, uint64_t *hi,
                         bool *writable, bool *keep)
{
  *writable = false;
  return translate(gpu, va, 1, lo, hi, writable, keep);
}

/* sim_vm_generation: seq_cst, so whoever reads a bumped value also sees the change made
 * before the bump */
static _Atomic uint64_t vm_gen = 1;

uint64_t sim_vm_generation(void)
{
  return atomic_load(&vm_gen);
}

void sim_vm_changed(void)
{
  atomic_fetch_add(&vm_gen, 1);
}
