/* SPDX-License-Identifier: MIT */
/* gem.c — buffer objects and contexts made on the render node, as amdgpu_gem.c, amdgpu_ctx.c
 * and the DRM core's PRIME code answer for them: what libdrm_amdgpu's amdgpu_bo_alloc,
 * amdgpu_bo_cpu_map, amdgpu_bo_export and amdgpu_cs_ctx_create use, so another API's buffer
 * can be handed to the HSA runtime as a dma-buf (hsa_amd_interop_map_buffer).
 *
 * Each object's pages are a memfd of its own: an exported dma-buf is a descriptor of that same
 * file (as the kernel hands out one dma-buf file per object), so the memory stays while any
 * handle, dma-buf descriptor or mapping holds it, and KFD recognises the descriptor by the
 * file's identity. The file's name carries the object's device, domains and flags
 * ("amdgpu-dmabuf:<gpu_id>:<domains>:<flags>"), so a descriptor passed to another process
 * (whose simulator has its own lists) is still recognised there, by that name: the memory is
 * shared for real between processes, as a dma-buf is. Handles and context ids are numbered per GPU (the kernel numbers them per
 * open render-node file; one process here has one namespace per device). Nothing runs
 * command submissions: the objects are memory for CPU mappings and for KFD imports. */
#include "kfd/gem.h"
#include "kfd/kfd.h"

#include <errno.h>
#include <fcntl.h>
#include <libdrm/amdgpu_drm.h>
#include <libdrm/drm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef AMDGPU_GEM_CREATE_DISCARDABLE
#define AMDGPU_GEM_CREATE_DISCARDABLE (1 << 12)
#endif
/* what amdgpu_gem_create_ioctl accepts from user space (Linux 6.1) */
#define CREATE_FLAGS (AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED | AMDGPU_GEM_CREATE_NO_CPU_ACCESS | \
                      AMDGPU_GEM_CREATE_CPU_GTT_USWC | AMDGPU_GEM_CREATE_VRAM_CLEARED |        \
                      AMDGPU_GEM_CREATE_VM_ALWAYS_VALID | AMDGPU_GEM_CREATE_EXPLICIT_SYNC |     \
                      AMDGPU_GEM_CREATE_ENCRYPTED | AMDGPU_GEM_CREATE_DISCARDABLE)
/* fake mmap offsets of these objects: above the ones KFD's objects get */
#define GEM_MMAP_BASE (1ull << 44)
#define MAX_CTX 4096u   /* AMDGPU_VM_MAX_NUM_CTX: ids 1..4095 */

struct gem_obj {
  struct gem_obj *next;
  struct sim_gpu *gpu;
  uint32_t handle;           /* 0 once closed: a dma-buf of it may live on */
  uint32_t domains;
  uint64_t flags, size, mmap_offset;
  uint64_t alignment;        /* the page alignment it was made with, in bytes */
  uint64_t tiling, meta_flags;   /* AMDGPU_GEM_METADATA: kept in this process only */
  uint32_t meta_size;
  uint32_t meta[64];
  bool foreign;              /* another device's dma-buf taken in here (an SG object in GTT,
                              * as amdgpu_dma_buf_create_obj makes): never the dma-buf's own */
  int fd;                    /* its memory file; -1 once closed */
  dev_t dev;                 /* the file's identity: what dma-buf descriptors refer to */
  ino_t ino;
};

struct gem_ctx {
  struct gem_ctx *next;
  struct sim_gpu *gpu;
  uint32_t id;
};

static pthread_mutex_t gem_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gem_obj *objs;
static struct gem_ctx *ctxs;
static uint64_t next_offset = GEM_MMAP_BASE;

static void sys_close(int fd)
{
  syscall(SYS_close, fd);
}

/* Gives o its mmap offset and puts it on the list. Caller holds gem_lock. */
static void publish(struct gem_obj *o)
{
  o->mmap_offset = next_offset;
  next_offset += o->size;
  o->next = objs;
  objs = o;
}

/* A published object with no handle and no file of its own here, over the pages of the
 * dma-buf file (dev, ino) (an adopted or imported buffer), or NULL. Caller holds gem_lock. */
static struct gem_obj *fileless(struct sim_gpu *gpu, uint64_t size, uint32_t domains,
                                uint64_t flags, dev_t dev, ino_t ino)
{
  struct gem_obj *o = calloc(1, sizeof *o);
  if (!o)
    return NULL;
  o->gpu = gpu;
  o->size = size;
  o->domains = domains;
  o->flags = flags;
  o->alignment = SIM_PAGE;   /* KFD makes its objects with byte alignment 1: one page */
  o->fd = -1;
  o->dev = dev;
  o->ino = ino;
  publish(o);
  return o;
}

static int identity(int fd, dev_t *dev, ino_t *ino)
{
  struct stat st;
  if (syscall(SYS_fstat, fd, &st) != 0)
    return -EBADF;
  *dev = st.st_dev;
  *ino = st.st_ino;
  return 0;
}

/* The memory file of an object of this device: named for recognition in any process. */
static int object_file(struct sim_gpu *gpu, uint64_t size, uint32_t domains, uint64_t flags)
{
  char name[80];
  snprintf(name, sizeof name, "amdgpu-dmabuf:%x:%x:%llx", gpu->gpu_id, domains,
           (unsigned long long)flags);
  int fd = (int)syscall(SYS_memfd_create, name, MFD_CLOEXEC);
  if (fd < 0)
    return -ENOMEM;
  if (ftruncate(fd, (off_t)size) != 0) {
    sys_close(fd);
    return -ENOMEM;
  }
  return fd;
}

/* A dma-buf made by another process's simulator (or by KFD's export here): known by its
 * file's name. Becomes an object without a handle here. Caller holds gem_lock. */
static struct gem_obj *adopt(int fd, dev_t dev, ino_t ino)
{
  char path[48], link[160];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  long n = syscall(SYS_readlinkat, AT_FDCWD, path, link, sizeof link - 1);
  if (n <= 0)
    return NULL;
  link[n] = '\0';
  unsigned gpu_id, domains;
  unsigned long long flags;
  struct stat st;
  if (sscanf(link, "/memfd:amdgpu-dmabuf:%x:%x:%llx", &gpu_id, &domains, &flags) != 3 ||
      syscall(SYS_fstat, fd, &st) != 0)
    return NULL;
  struct sim_gpu *gpu = sim_gpu_by_id(gpu_id);
  return gpu ? fileless(gpu, (uint64_t)st.st_size, domains, flags, dev, ino) : NULL;
}

/* The object a dma-buf descriptor is of: its exporter's (imports on other devices are not). */
static struct gem_obj *by_file(int fd, dev_t dev, ino_t ino)
{
  for (struct gem_obj *o = objs; o; o = o->next)
    if (o->dev == dev && o->ino == ino && !o->foreign)
      return o;
  return adopt(fd, dev, ino);
}

/* This device's import of another device's dma-buf, made once per device as the DRM core
 * keeps one GEM object per dma-buf and device (drm_prime's lookup), or NULL. */
static struct gem_obj *foreign_on(struct sim_gpu *gpu, dev_t dev, ino_t ino)
{
  for (struct gem_obj *o = objs; o; o = o->next)
    if (o->foreign && o->gpu == gpu && o->dev == dev && o->ino == ino)
      return o;
  return NULL;
}

int sim_gem_memfd(struct sim_gpu *gpu, uint64_t size, uint32_t domains, uint64_t flags)
{
  int fd = object_file(gpu, size, domains, flags);
  if (fd < 0)
    return fd;
  dev_t dev;
  ino_t ino;
  if (identity(fd, &dev, &ino)) {
    sys_close(fd);
    return -EBADF;
  }
  pthread_mutex_lock(&gem_lock);
  struct gem_obj *o = adopt(fd, dev, ino);
  pthread_mutex_unlock(&gem_lock);
  if (!o) {
    sys_close(fd);
    return -ENOMEM;
  }
  return fd;
}

static struct gem_obj *by_handle(struct sim_gpu *gpu, uint32_t handle)
{
  for (struct gem_obj *o = objs; o; o = o->next)
    if (o->gpu == gpu && handle && o->handle == handle)
      return o;
  return NULL;
}

static uint32_t free_handle(struct sim_gpu *gpu)
{
  for (uint32_t h = 1;; h++)
    if (!by_handle(gpu, h))
      return h;
}

int sim_gem_create(struct sim_gpu *gpu, void *data)
{
  union drm_amdgpu_gem_create *a = data;
  uint64_t flags = a->in.domain_flags, size = a->in.bo_size;
  uint64_t domains = a->in.domains;
  if (flags & ~(uint64_t)CREATE_FLAGS)
    return -EINVAL;
  if (domains & ~(uint64_t)AMDGPU_GEM_DOMAIN_MASK)
    return -EINVAL;
  if (flags & AMDGPU_GEM_CREATE_ENCRYPTED)
    return -EINVAL;   /* no TMZ on these boards */
  if (domains & (AMDGPU_GEM_DOMAIN_GDS | AMDGPU_GEM_DOMAIN_GWS | AMDGPU_GEM_DOMAIN_OA)) {
    if (flags & AMDGPU_GEM_CREATE_VM_ALWAYS_VALID)
      return -EINVAL;
    flags |= AMDGPU_GEM_CREATE_NO_CPU_ACCESS;
  }
  flags |= AMDGPU_GEM_CREATE_VRAM_CLEARED;   /* the driver always clears */
  size = SIM_PAGE_ALIGN(size);
  if (!size)
    return -EINVAL;
  if (domains == AMDGPU_GEM_DOMAIN_VRAM && size > gpu->vram_bytes)
    return -ENOMEM;   /* larger than the heap it may live in */
  struct gem_obj *o = calloc(1, sizeof *o);
  if (!o)
    return -ENOMEM;
  o->fd = object_file(gpu, size, (uint32_t)domains, flags);
  if (o->fd < 0 || identity(o->fd, &o->dev, &o->ino)) {
    if (o->fd >= 0)
      sys_close(o->fd);
    free(o);
    return -ENOMEM;
  }
  o->gpu = gpu;
  o->size = size;
  o->domains = (uint32_t)domains;
  o->flags = flags;
  o->alignment = SIM_PAGE_ALIGN(a->in.alignment);   /* amdgpu_bo_create's page_align */
  pthread_mutex_lock(&gem_lock);
  o->handle = free_handle(gpu);
  publish(o);
  pthread_mutex_unlock(&gem_lock);
  memset(a, 0, sizeof *a);
  a->out.handle = o->handle;
  return 0;
}

/* DRM_IOCTL_AMDGPU_GEM_OP as amdgpu_gem_op_ioctl: the creation parameters of an object
 * (its size, page alignment, preferred domains and its AMDGPU_GEM_CREATE_* flags, KFD's
 * objects included: VRAM_CONTIGUOUS shows a contiguous one), or a new preferred placement
 * (refused, EINVAL, only for VRAM of another device's import: no object here is a user
 * pointer). */
int sim_gem_op(struct sim_gpu *gpu, void *data)
{
  struct drm_amdgpu_gem_op *a = data;
  pthread_mutex_lock(&gem_lock);
  struct gem_obj *o = by_handle(gpu, a->handle);
  int r = o ? 0 : -ENOENT;
  struct drm_amdgpu_gem_create_in info = { 0 };
  if (o && a->op == AMDGPU_GEM_OP_GET_GEM_CREATE_INFO) {
    info.bo_size = o->size;
    info.alignment = o->alignment;
    info.domains = o->domains;
    info.domain_flags = o->flags;
  } else if (o && a->op == AMDGPU_GEM_OP_SET_PLACEMENT) {
    if (o->foreign && (a->value & AMDGPU_GEM_DOMAIN_VRAM)) {   /* an import cannot move in */
      pthread_mutex_unlock(&gem_lock);
      return -EINVAL;
    }
    o->domains = (uint32_t)a->value &
                 (AMDGPU_GEM_DOMAIN_VRAM | AMDGPU_GEM_DOMAIN_GTT | AMDGPU_GEM_DOMAIN_CPU);
  } else if (o) {
    r = -EINVAL;
  }
  pthread_mutex_unlock(&gem_lock);
  if (!r && a->op == AMDGPU_GEM_OP_GET_GEM_CREATE_INFO &&
      sim_copy_to_user(a->value, &info, sizeof info))
    r = -EFAULT;
  return r;
}

/* DRM_IOCTL_AMDGPU_GEM_METADATA as amdgpu_gem_metadata_ioctl: tiling flags and up to 256
 * bytes of opaque metadata set on an object and read back (an unknown operation does
 * nothing and succeeds, as there). Kept per process: another process's import of the
 * object does not see them. */
int sim_gem_metadata(struct sim_gpu *gpu, void *data)
{
  struct drm_amdgpu_gem_metadata *a = data;
  pthread_mutex_lock(&gem_lock);
  struct gem_obj *o = by_handle(gpu, a->handle);
  int r = o ? 0 : -ENOENT;
  if (o && a->op == AMDGPU_GEM_METADATA_OP_GET_METADATA) {
    a->data.tiling_info = o->tiling;
    a->data.data_size_bytes = o->meta_size;
    a->data.flags = o->meta_flags;
    memcpy(a->data.data, o->meta, o->meta_size);
  } else if (o && a->op == AMDGPU_GEM_METADATA_OP_SET_METADATA) {
    if (a->data.data_size_bytes > sizeof a->data.data) {
      r = -EINVAL;
    } else {
      o->tiling = a->data.tiling_info;
      o->meta_size = a->data.data_size_bytes;
      o->meta_flags = o->meta_size ? a->data.flags : 0;
      memcpy(o->meta, a->data.data, o->meta_size);
    }
  }
  pthread_mutex_unlock(&gem_lock);
  return r;
}

int sim_gem_mmap(struct sim_gpu *gpu, void *data)
{
  union drm_amdgpu_gem_mmap *a = data;
  int r = 0;
  pthread_mutex_lock(&gem_lock);
  struct gem_obj *o = by_handle(gpu, a->in.handle);
  if (!o)
    r = -ENOENT;
  else if (o->flags & AMDGPU_GEM_CREATE_NO_CPU_ACCESS)
    r = -EPERM;
  else
    a->out.addr_ptr = o->mmap_offset;
  pthread_mutex_unlock(&gem_lock);
  return r;
}

int sim_gem_object(struct sim_gpu *gpu, uint32_t handle, int *fd, uint64_t *size)
{
  pthread_mutex_lock(&gem_lock);
  struct gem_obj *o = by_handle(gpu, handle);
  int r = o ? 0 : -ENOENT;
  if (o) {
    *fd = (int)syscall(SYS_dup, o->fd);
    *size = o->size;
    if (*fd < 0)
      r = -ENOMEM;
  }
  pthread_mutex_unlock(&gem_lock);
  return r;
}

int sim_gem_close(struct sim_gpu *gpu, void *data)
{
  struct drm_gem_close *a = data;
  sim_gem_va_drop(gpu, a->handle);   /* amdgpu_gem_object_close: its mappings go */
  pthread_mutex_lock(&gem_lock);
  struct gem_obj *o = by_handle(gpu, a->handle);
  if (o) {
    o->handle = 0;   /* mappings and dma-bufs keep the pages */
    sys_close(o->fd);
    o->fd = -1;
  }
  pthread_mutex_unlock(&gem_lock);
  return o ? 0 : -EINVAL;
}

int sim_gem_export(struct sim_gpu *gpu, void *data)
{
  struct drm_prime_handle *a = data;
  if (a->flags & ~(uint32_t)(DRM_CLOEXEC | DRM_RDWR))
    return -EINVAL;
  int r;
  pthread_mutex_lock(&gem_lock);
  struct gem_obj *o = by_handle(gpu, a->handle);
  if (!o)
    r = -ENOENT;
  else {
    /* a new descriptor of the object's file, well above the low numbers programs expect */
    r = (int)syscall(SYS_fcntl, o->fd, (a->flags & DRM_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 3);
    if (r < 0)
      r = -errno;
    else {
      a->fd = r;
      r = 0;
    }
  }
  pthread_mutex_unlock(&gem_lock);
  return r;
}

int sim_gem_import(struct sim_gpu *gpu, void *data)
{
  struct drm_prime_handle *a = data;
  dev_t dev;
  ino_t ino;
  int r = identity(a->fd, &dev, &ino);
  if (r)
    return r;
  r = -EINVAL;   /* not a dma-buf this device can take */
  pthread_mutex_lock(&gem_lock);
  struct gem_obj *o = by_file(a->fd, dev, ino);
  if (o && o->gpu != gpu && (o->domains & (AMDGPU_GEM_DOMAIN_VRAM | AMDGPU_GEM_DOMAIN_GTT))) {
    /* another amdgpu's buffer: amdgpu_gem_prime_import gives this device an object of its
     * own over the same pages (GTT domain, the exporter's USWC flag kept), through which
     * this device's VM and CPU mappings reach the one memory */
    struct gem_obj *f = foreign_on(gpu, dev, ino);
    if (!f && (f = fileless(gpu, o->size, AMDGPU_GEM_DOMAIN_GTT,
                            o->flags & AMDGPU_GEM_CREATE_CPU_GTT_USWC, dev, ino)) != NULL)
      f->foreign = true;
    o = f;
  }
  if (o && o->gpu == gpu) {
    if (!o->handle) {   /* closed here (or never open), alive through the dma-buf */
      o->fd = (int)syscall(SYS_fcntl, a->fd, F_DUPFD_CLOEXEC, 3);
      if (o->fd >= 0)
        o->handle = free_handle(gpu);
    }
    if (o->handle) {
      a->handle = o->handle;
      r = 0;
    }
  }
  pthread_mutex_unlock(&gem_lock);
  return r;
}

bool sim_gem_mmap_target(struct sim_gpu *gpu, uint64_t off, uint64_t len, int *fd,
                         uint64_t *in, int *err)
{
  bool found = false;
  pthread_mutex_lock(&gem_lock);
  for (struct gem_obj *o = objs; o; o = o->next) {
    if (o->gpu != gpu || !o->handle || off < o->mmap_offset || off - o->mmap_offset >= o->size)
      continue;
    found = true;
    *in = off - o->mmap_offset;
    *fd = o->fd;
    *err = *in + SIM_PAGE_ALIGN(len) > o->size ? EINVAL : 0;
    break;
  }
  pthread_mutex_unlock(&gem_lock);
  return found;
}

int sim_dmabuf_lookup(int fd, struct sim_dmabuf *out)
{
  dev_t dev;
  ino_t ino;
  int r = identity(fd, &dev, &ino);
  if (r)
    return r;
  r = -EINVAL;
  pthread_mutex_lock(&gem_lock);
  struct gem_obj *o = by_file(fd, dev, ino);
  if (o && (o->domains & (AMDGPU_GEM_DOMAIN_VRAM | AMDGPU_GEM_DOMAIN_GTT))) {
    out->gpu = o->gpu;
    out->size = o->size;
    out->domains = o->domains;
    out->flags = o->flags;
    r = 0;
  }
  pthread_mutex_unlock(&gem_lock);
  return r;
}

/* Priorities above normal need CAP_SYS_NICE (or DRM master, which a render node never is);
 * garbage in the field means normal, for old user space. */
static int ctx_priority_ok(int32_t prio)
{
  bool valid = prio == AMDGPU_CTX_PRIORITY_UNSET || (prio >= AMDGPU_CTX_PRIORITY_VERY_LOW &&
                                                     prio <= AMDGPU_CTX_PRIORITY_VERY_HIGH);
  if (!valid || prio <= AMDGPU_CTX_PRIORITY_NORMAL)
    return 0;
  return geteuid() == 0 ? 0 : -EACCES;
}

static struct gem_ctx *ctx_find(struct sim_gpu *gpu, uint32_t id)
{
  for (struct gem_ctx *c = ctxs; c; c = c->next)
    if (c->gpu == gpu && c->id == id)
      return c;
  return NULL;
}

int sim_amdgpu_ctx(struct sim_gpu *gpu, void *data)
{
  union drm_amdgpu_ctx *a = data;
  uint32_t op = a->in.op, id = a->in.ctx_id;
  int32_t prio = a->in.priority;
  int r = 0;
  pthread_mutex_lock(&gem_lock);
  switch (op) {
  case AMDGPU_CTX_OP_ALLOC_CTX: {
    if ((r = ctx_priority_ok(prio)) != 0)
      break;
    uint32_t n = 1;
    while (n < MAX_CTX && ctx_find(gpu, n))
      n++;
    struct gem_ctx *c = n < MAX_CTX ? calloc(1, sizeof *c) : NULL;
    if (!c) {
      r = -ENOMEM;
      break;
    }
    c->gpu = gpu;
    c->id = n;
    c->next = ctxs;
    ctxs = c;
    memset(&a->out, 0, sizeof a->out);
    a->out.alloc.ctx_id = n;
    break;
  }
  case AMDGPU_CTX_OP_FREE_CTX:
    r = -EINVAL;
    for (struct gem_ctx **l = &ctxs; *l; l = &(*l)->next)
      if ((*l)->gpu == gpu && (*l)->id == id) {
        struct gem_ctx *dead = *l;
        *l = dead->next;
        free(dead);
        r = 0;
        break;
      }
    break;
  case AMDGPU_CTX_OP_QUERY_STATE:
  case AMDGPU_CTX_OP_QUERY_STATE2:
    if (!ctx_find(gpu, id)) {
      r = -EINVAL;
      break;
    }
    memset(&a->out, 0, sizeof a->out);   /* no hangs, no resets, no lost VRAM */
    if (op == AMDGPU_CTX_OP_QUERY_STATE)
      a->out.state.reset_status = AMDGPU_CTX_NO_RESET;
    break;
  default:
    r = -EINVAL;
    break;
  }
  pthread_mutex_unlock(&gem_lock);
  return r;
}
