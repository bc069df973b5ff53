/* drm.c — a GPU's DRM render node, initialized with libdrm_amdgpu (names, chip info). */
#include "kfd/kfd.h"

#include <amdgpu.h>
#include <amdgpu_drm.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int kfd_drm_open(const char *dri_dir, unsigned minor, struct kfd_drm *drm) {
  char path[256];
  memset(drm, 0, sizeof(*drm));
  drm->fd = -1;
  snprintf(path, sizeof(path), "%s/renderD%u", dri_dir, minor);
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) return -errno;

  uint32_t major = 0, minor_version = 0;
  amdgpu_device_handle dev = NULL;
  int rc = amdgpu_device_initialize(fd, &major, &minor_version, &dev);
  if (rc) {
    close(fd);
    return rc < 0 ? rc : -EIO;
  }
  drm->fd = fd;
  drm->amdgpu = dev;

  const char *name = amdgpu_get_marketing_name(dev);
  if (name) snprintf(drm->marketing_name, sizeof(drm->marketing_name), "%s", name);

  struct amdgpu_gpu_info info;
  memset(&info, 0, sizeof(info));
  if (amdgpu_query_gpu_info(dev, &info) == 0) {
    drm->family_id = info.family_id;
    drm->chip_external_rev = info.chip_external_rev;
    drm->chip_rev = info.chip_rev;
    drm->gpu_counter_freq_khz = info.gpu_counter_freq;
    drm->integrated = (info.ids_flags & AMDGPU_IDS_FLAGS_FUSION) != 0;
  }
  return 0;
}

void kfd_drm_close(struct kfd_drm *drm) {
  /* amdgpu_device_initialize dup()s the fd it keeps, so both are released. */
  if (drm->amdgpu) amdgpu_device_deinitialize((amdgpu_device_handle)drm->amdgpu);
  if (drm->fd >= 0) close(drm->fd);
  drm->amdgpu = NULL;
  drm->fd = -1;
}
