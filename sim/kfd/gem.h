/* SPDX-License-Identifier: MIT */
/* gem.h — the render node's own buffer objects (GEM) and contexts, and the dma-bufs it exports
 * (inside sim/kfd). */
#ifndef SIM_KFD_GEM_H
#define SIM_KFD_GEM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "sim.h"

/* ioctl bodies on the kernel-side copy of the arguments; 0 or -errno */
int sim_gem_create(struct sim_gpu *gpu, void *data);     /* DRM_IOCTL_AMDGPU_GEM_CREATE */
int sim_gem_mmap(struct sim_gpu *gpu, void *data);       /* DRM_IOCTL_AMDGPU_GEM_MMAP */
int sim_gem_close(struct sim_gpu *gpu, void *data);      /* DRM_IOCTL_GEM_CLOSE */
int sim_gem_export(struct sim_gpu *gpu, void *data);     /* DRM_IOCTL_PRIME_HANDLE_TO_FD */
int sim_gem_import(struct sim_gpu *gpu, void *data);     /* DRM_IOCTL_PRIME_FD_TO_HANDLE */
int sim_amdgpu_ctx(struct sim_gpu *gpu, void *data);     /* DRM_IOCTL_AMDGPU_CTX */
int sim_gem_va(struct sim_gpu *gpu, void *data);         /* DRM_IOCTL_AMDGPU_GEM_VA (gemva.c) */
int sim_gem_op(struct sim_gpu *gpu, void *data);         /* DRM_IOCTL_AMDGPU_GEM_OP */
int sim_gem_metadata(struct sim_gpu *gpu, void *data);   /* DRM_IOCTL_AMDGPU_GEM_METADATA */

/* The memory file (a new descriptor the caller closes) and size of object `handle`; -ENOENT. */
int sim_gem_object(struct sim_gpu *gpu, uint32_t handle, int *fd, uint64_t *size);
/* gemva.c: the GEM_VA mappings of object `handle` go (its handle is being closed). */
void sim_gem_va_drop(struct sim_gpu *gpu, uint32_t handle);
/* gemva.c: the host bytes behind [va, va+len) when a GEM_VA mapping of `gpu` holds va
 * (*found; NULL when it is not READABLE or len runs off its end), its range [*lo, *hi) and
 * whether it was mapped WRITEABLE. */
void *sim_gem_va_translate(struct sim_gpu *gpu, uint64_t va, uint64_t len, uint64_t *lo,
                           uint64_t *hi, bool *writable, bool *found);

/* A render-node mmap at fake offset `off`: the object's memory file and the offset in it. */
bool sim_gem_mmap_target(struct sim_gpu *gpu, uint64_t off, uint64_t len, int *fd,
                         uint64_t *in, int *err);

/* What a dma-buf descriptor exported by a render node holds (for KFD's GET_DMABUF_INFO and
 * IMPORT_DMABUF): its device, size, placement. -EBADF (not open) or -EINVAL (not one of
 * ours, or not VRAM/GTT). */
struct sim_dmabuf {
  struct sim_gpu *gpu;
  uint64_t size;
  uint32_t domains;          /* AMDGPU_GEM_DOMAIN_* */
  uint64_t flags;            /* AMDGPU_GEM_CREATE_* */
};
int sim_dmabuf_lookup(int fd, struct sim_dmabuf *out);

/* A new memory file for a dma-buf of `gpu` (KFD's EXPORT_DMABUF), recognised as such here
 * and in any other process: the descriptor (close-on-exec) or -errno. */
int sim_gem_memfd(struct sim_gpu *gpu, uint64_t size, uint32_t domains, uint64_t flags);

#endif
