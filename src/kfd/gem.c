/* SPDX-License-Identifier: MIT */
/* gem.c — render-node buffer objects: PRIME import, mmap offsets, GEM_VA (see gem.h). */
#include "kfd/gem.h"

#include <amdgpu_drm.h>
#include <errno.h>
#include <string.h>
#include <xf86drm.h>

_Static_assert(KFD_GEM_VA_READABLE == AMDGPU_VM_PAGE_READABLE, "READABLE");
_Static_assert(KFD_GEM_VA_WRITEABLE == AMDGPU_VM_PAGE_WRITEABLE, "WRITEABLE");
_Static_assert(KFD_GEM_VA_EXECUTABLE == AMDGPU_VM_PAGE_EXECUTABLE, "EXECUTABLE");

bool kfd_has_vm_gem_va(const struct kfd_device *dev) {
  return dev->major == 1 && dev->minor >= 15;
}

static int drm_call(int fd, unsigned long req, void *arg) {
  return drmIoctl(fd, req, arg) == 0 ? 0 : -errno;
}

int kfd_gem_import(int drm_fd, int dmabuf_fd, uint32_t *handle) {
  struct drm_prime_handle a;
  memset(&a, 0, sizeof(a));
  a.fd = dmabuf_fd;
  int rc = drm_call(drm_fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &a);
  if (rc == 0) *handle = a.handle;
  return rc;
}

int kfd_gem_mmap_offset(int drm_fd, uint32_t handle, uint64_t *offset) {
  union drm_amdgpu_gem_mmap a;
  memset(&a, 0, sizeof(a));
  a.in.handle = handle;
  int rc = drm_call(drm_fd, DRM_IOCTL_AMDGPU_GEM_MMAP, &a);
  if (rc == 0) *offset = a.out.addr_ptr;
  return rc;
}

static int gem_va(int drm_fd, uint32_t op, uint32_t handle, uint64_t va, uint64_t offset,
                  uint64_t size, uint32_t rights) {
  struct drm_amdgpu_gem_va a;
  memset(&a, 0, sizeof(a));
  a.handle = handle;
  a.operation = op;
  a.flags = rights;
  a.va_address = va;
  a.offset_in_bo = offset;
  a.map_size = size;
  return drm_call(drm_fd, DRM_IOCTL_AMDGPU_GEM_VA, &a);
}

int kfd_gem_va_map(int drm_fd, uint32_t handle, uint64_t va, uint64_t offset, uint64_t size,
                   uint32_t rights) {
  return gem_va(drm_fd, AMDGPU_VA_OP_MAP, handle, va, offset, size, rights);
}

int kfd_gem_va_unmap(int drm_fd, uint32_t handle, uint64_t va, uint64_t offset, uint64_t size) {
  return gem_va(drm_fd, AMDGPU_VA_OP_UNMAP, handle, va, offset, size, 0);
}

void kfd_gem_close(int drm_fd, uint32_t handle) {
  struct drm_gem_close a;
  memset(&a, 0, sizeof(a));
  a.handle = handle;
  drmIoctl(drm_fd, DRM_IOCTL_GEM_CLOSE, &a);
}
