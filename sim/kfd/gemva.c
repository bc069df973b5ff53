/* SPDX-License-Identifier: MIT */
/* gemva.c — DRM_IOCTL_AMDGPU_GEM_VA (libdrm's amdgpu_bo_va_op): a render-node object mapped at a
 * GPU virtual address of that GPU's VM, with the checks amdgpu_gem_va_ioctl and
 * amdgpu_vm_bo_map make (Linux 6.1): outside the reserved first MiB and the GMC hole, inside
 * the 48-bit VM, known flags and operation, a handle of this device, page-aligned address,
 * offset and size, the range inside the object, no overlap with another mapping; UNMAP needs
 * a mapping of that object starting at the address (ENOENT otherwise); CLEAR drops (and
 * trims) whatever lies in a range; REPLACE is CLEAR then MAP. Closing the handle drops its
 * mappings (amdgpu_gem_object_close). The GPU reaches the mappings like KFD's (the render
 * node's VM is the one ACQUIRE_VM hands to KFD): readable when mapped READABLE, writable
 * when WRITEABLE. Not modelled: PRT mappings (accepted, nothing behind them), MTYPE, and the
 * overlap check between these mappings and KFD's own. */
#include "kfd/gem.h"
#include "kfd/kfd.h"

#include <errno.h>
#include <libdrm/amdgpu_drm.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef AMDGPU_VM_PAGE_NOALLOC
#define AMDGPU_VM_PAGE_NOALLOC (1 << 9)
#endif
#define VA_RESERVED (1ull << 20)                 /* AMDGPU_VA_RESERVED_SIZE in 6.1 */
#define HOLE_START 0x0000800000000000ull         /* AMDGPU_GMC_HOLE_START */
#define HOLE_END 0xffff800000000000ull
#define HOLE_MASK 0x0000ffffffffffffull
#define VM_BYTES (1ull << 48)                    /* gfx9: 48-bit VM (max_pfn pages) */
#define VALID_FLAGS (AMDGPU_VM_DELAY_UPDATE | AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE | \
                     AMDGPU_VM_PAGE_EXECUTABLE | AMDGPU_VM_MTYPE_MASK | AMDGPU_VM_PAGE_NOALLOC)
#define PRT_FLAGS (AMDGPU_VM_DELAY_UPDATE | AMDGPU_VM_PAGE_PRT)

struct gem_va {
  struct gem_va *next;
  struct sim_gpu *gpu;
  uint32_t handle, flags;
  uint64_t va, size, offset;
  int fd;                    /* a duplicate of the object's memory file (-1: PRT) */
  void *host;                /* that file mapped from `offset`, `size` bytes */
};

static pthread_mutex_t va_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gem_va *vas;

/* descriptors of the simulator's own: past the interposer */
static int sys_dup(int fd)
{
  return (int)syscall(SYS_dup, fd);
}

static void sys_close(int fd)
{
  syscall(SYS_close, fd);
}

static void release(struct gem_va *m)
{
  if (m->host)
    sim_sys_munmap(m->host, m->size);
  if (m->fd >= 0)
    sys_close(m->fd);
  free(m);
}

/* va_lock held: drops or trims every mapping of gpu inside [s, e) (amdgpu_vm_bo_clear_mappings);
 * a trimmed piece keeps its own view of the file. */
static int clear_range(struct sim_gpu *gpu, uint64_t s, uint64_t e)
{
  for (struct gem_va **pp = &vas; *pp;) {
    struct gem_va *m = *pp;
    if (m->gpu != gpu || m->va >= e || m->va + m->size <= s) {
      pp = &m->next;
      continue;
    }
    *pp = m->next;
    uint64_t ms = m->va, me = m->va + m->size;
    for (int side = 0; side < 2; side++) {   /* the pieces before s and after e stay */
      uint64_t ps = side ? e : ms, pe = side ? me : s;
      if (ps >= pe)
        continue;
      struct gem_va *k = calloc(1, sizeof *k);
      if (!k)
        return -ENOMEM;
      *k = *m;
      k->va = ps;
      k->size = pe - ps;
      k->offset = m->offset + (ps - ms);
      k->fd = m->fd >= 0 ? sys_dup(m->fd) : -1;
      k->host = NULL;
      if (k->fd >= 0) {
        int err = 0;
        k->host = sim_sys_mmap(NULL, k->size, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd,
                               (off_t)k->offset, &err);
        if (k->host == MAP_FAILED) {
          k->host = NULL;
          release(k);
          return -ENOMEM;
        }
      }
      k->next = vas;
      vas = k;
    }
    release(m);
  }
  return 0;
}

static int map(struct sim_gpu *gpu, const struct drm_amdgpu_gem_va *a, uint64_t va, int fd,
               uint64_t bo_size)
{
  uint64_t s = va, off = a->offset_in_bo, n = a->map_size;
  if ((s | off | n) & (SIM_PAGE - 1))
    return -EINVAL;
  if (s + n <= s || off + n <= off)
    return -EINVAL;
  if ((fd >= 0 && off + n > bo_size) || s + n - 1 >= VM_BYTES)
    return -EINVAL;
  for (struct gem_va *m = vas; m; m = m->next)
    if (m->gpu == gpu && s < m->va + m->size && m->va < s + n)
      return -EINVAL;   /* overlaps a mapping */
  struct gem_va *m = calloc(1, sizeof *m);
  if (!m)
    return -ENOMEM;
  m->gpu = gpu;
  m->handle = a->handle;
  m->flags = a->flags;
  m->va = s;
  m->size = n;
  m->offset = off;
  m->fd = fd >= 0 ? sys_dup(fd) : -1;
  if (m->fd >= 0) {
    int err = 0;
    m->host = sim_sys_mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, m->fd, (off_t)off, &err);
    if (m->host == MAP_FAILED) {
      m->host = NULL;
      release(m);
      return -ENOMEM;
    }
  }
  m->next = vas;
  vas = m;
  return 0;
}

int sim_gem_va(struct sim_gpu *gpu, void *data)
{
  struct drm_amdgpu_gem_va *a = data;
  uint64_t va = a->va_address;
  if (va < VA_RESERVED)
    return -EINVAL;
  if (va >= HOLE_START && va < HOLE_END)
    return -EINVAL;
  va &= HOLE_MASK;
  if (va + a->map_size > VM_BYTES - VA_RESERVED)
    return -EINVAL;
  if ((a->flags & ~(uint32_t)VALID_FLAGS) && (a->flags & ~(uint32_t)PRT_FLAGS))
    return -EINVAL;
  if (a->operation < AMDGPU_VA_OP_MAP || a->operation > AMDGPU_VA_OP_REPLACE)
    return -EINVAL;
  int fd = -1;
  uint64_t bo_size = 0;
  if (a->operation != AMDGPU_VA_OP_CLEAR && !(a->flags & AMDGPU_VM_PAGE_PRT) &&
      sim_gem_object(gpu, a->handle, &fd, &bo_size) != 0)
    return -ENOENT;
  int r = 0;
  pthread_mutex_lock(&va_lock);
  switch (a->operation) {
  case AMDGPU_VA_OP_MAP:
    r = map(gpu, a, va, fd, bo_size);
    break;
  case AMDGPU_VA_OP_UNMAP: {
    r = -ENOENT;
    for (struct gem_va **pp = &vas; *pp; pp = &(*pp)->next)
      if ((*pp)->gpu == gpu && (*pp)->handle == a->handle && (*pp)->va == va) {
        struct gem_va *m = *pp;
        *pp = m->next;
        release(m);
        r = 0;
        break;
      }
    break;
  }
  case AMDGPU_VA_OP_CLEAR:
    r = a->map_size ? clear_range(gpu, va, va + a->map_size) : 0;
    break;
  case AMDGPU_VA_OP_REPLACE:
    if ((a->map_size | va) & (SIM_PAGE - 1))
      r = -EINVAL;
    else if ((r = clear_range(gpu, va, va + a->map_size)) == 0)
      r = map(gpu, a, va, fd, bo_size);
    break;
  }
  sim_vm_changed();   /* any operation: translations kept across work-groups go */
  pthread_mutex_unlock(&va_lock);
  if (fd >= 0)
    sys_close(fd);
  sim_trace("drm renderD%u GEM_VA op %u handle %u va 0x%llx size 0x%llx flags 0x%x = %d",
            gpu->render_minor, a->operation, a->handle, (unsigned long long)va,
            (unsigned long long)a->map_size, a->flags, r);
  return r;
}

void sim_gem_va_drop(struct sim_gpu *gpu, uint32_t handle)
{
  pthread_mutex_lock(&va_lock);
  for (struct gem_va **pp = &vas; *pp;) {
    struct gem_va *m = *pp;
    if (m->gpu == gpu && m->handle == handle) {
      *pp = m->next;
      release(m);
    } else {
      pp = &m->next;
    }
  }
  sim_vm_changed();
  pthread_mutex_unlock(&va_lock);
}

void *sim_gem_va_translate(struct sim_gpu *gpu, uint64_t va, uint64_t len, uint64_t *lo,
                           uint64_t *hi, bool *writable, bool *found)
{
  void *host = NULL;
  *found = false;
  pthread_mutex_lock(&va_lock);
  for (struct gem_va *m = vas; m; m = m->next) {
    if (m->gpu != gpu || va < m->va || va - m->va >= m->size)
      continue;
    *found = true;
    if (m->host && (m->flags & AMDGPU_VM_PAGE_READABLE) && va - m->va + len <= m->size) {
      *lo = m->va;
      *hi = m->va + m->size;
      *writable = m->flags & AMDGPU_VM_PAGE_WRITEABLE;
      host = (char *)m->host + (va - m->va);
    }
    break;
  }
  pthread_mutex_unlock(&va_lock);
  return host;
}
