/* SPDX-License-Identifier: MIT */
/* drm.c — a GPU's DRM render node, initialized with libdrm_amdgpu (names, chip info). */
#include "kfd/kfd.h"

#include <amdgpu.h>
#include <amdgpu_drm.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The kernel keeps a process's KFD state (and the VM bound by ACQUIRE_VM to one render-node
 * file) until the process exits, and refuses ACQUIRE_VM with another file (EBUSY). So each
 * render node is opened once per process and kept; users get dup()s of that file. */
#define DRM_KEPT_MAX 64
static struct { char path[256]; int fd; } kept[DRM_KEPT_MAX];
static unsigned kept_count;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static int open_kept(const char *path) {
  pthread_mutex_lock(&kept_lock);
  int fd = -1, err = 0;
  for (unsigned i = 0; i < kept_count && fd < 0; i++)
    if (strcmp(kept[i].path, path) == 0) fd = kept[i].fd;
  if (fd < 0) {
    fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
      err = errno;
    else if (kept_count < DRM_KEPT_MAX) {
      snprintf(kept[kept_count].path, sizeof(kept[kept_count].path), "%s", path);
      kept[kept_count++].fd = fd;
    } else {
      pthread_mutex_unlock(&kept_lock);
      return fd; /* table full: an unkept file (only re-init could then see EBUSY) */
    }
  }
  int r = fd < 0 ? -err : fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (fd >= 0 && r < 0) r = -errno;
  pthread_mutex_unlock(&kept_lock);
  return r;
}

int kfd_drm_open(const char *dri_dir, unsigned minor, struct kfd_drm *drm) {
  char path[256];
  memset(drm, 0, sizeof(*drm));
  drm->fd = -1;
  snprintf(path, sizeof(path), "%s/renderD%u", dri_dir, minor);
  int fd = open_kept(path);
  if (fd < 0) return fd;

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
