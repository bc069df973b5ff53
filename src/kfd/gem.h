/* SPDX-License-Identifier: MIT */
/* gem.h — buffer objects on a GPU's render node (GEM): a dma-buf taken in as a GEM handle,
 * its CPU mapping offset, and GPU virtual-address mappings made with GEM_VA in the VM that
 * KFD shares with the render node (KFD 1.15 lets a compute VM be managed so). Thin: the
 * caller decides what goes where. */
#ifndef KFD_GEM_H
#define KFD_GEM_H

#include <stdbool.h>
#include <stdint.h>

#include "kfd/kfd.h"

/* KFD 1.15: GEM_VA may manage mappings in the compute VM KFD acquired (hsa_amd_vmem_*). */
bool kfd_has_vm_gem_va(const struct kfd_device *dev);

/* GPU page rights of a GEM_VA mapping (AMDGPU_VM_PAGE_*; gem.c checks the values). */
#define KFD_GEM_VA_READABLE   0x2u
#define KFD_GEM_VA_WRITEABLE  0x4u
#define KFD_GEM_VA_EXECUTABLE 0x8u

/* PRIME import of dmabuf_fd on the render node drm_fd: its GEM handle. 0 or -errno. */
int kfd_gem_import(int drm_fd, int dmabuf_fd, uint32_t *handle);
/* The fake offset that maps object `handle` through drm_fd (GEM_MMAP). 0 or -errno. */
int kfd_gem_mmap_offset(int drm_fd, uint32_t handle, uint64_t *offset);
/* GEM_VA MAP of [offset, offset+size) of the object at GPU address va with `rights`
 * (KFD_GEM_VA_*), or UNMAP of that mapping. 0 or -errno. */
int kfd_gem_va_map(int drm_fd, uint32_t handle, uint64_t va, uint64_t offset, uint64_t size,
                   uint32_t rights);
int kfd_gem_va_unmap(int drm_fd, uint32_t handle, uint64_t va, uint64_t offset, uint64_t size);
/* GEM_CLOSE: the handle goes (and the mappings made through it). */
void kfd_gem_close(int drm_fd, uint32_t handle);

#endif
