/* SPDX-License-Identifier: MIT */
/* drm.c — a GPU's DRM render node: chip info (AMDGPU_INFO) and, on demand, libdrm_amdgpu's
 * marketing name. */
#include "kfd/kfd.h"

#include <amdgpu.h>
#include <amdgpu_drm.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

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

  /* The chip facts come from one AMDGPU_INFO query. libdrm's amdgpu_device_initialize is left
   * to kfd_drm_marketing_name: besides this query it reads registers and parses all of
   * amdgpu.ids, 40% of hsa_init's instructions, for a name few programs ask for. */
  struct drm_amdgpu_info_device dev;
  memset(&dev, 0, sizeof(dev));
  struct drm_amdgpu_info q;
  memset(&q, 0, sizeof(q));
  q.return_pointer = (uint64_t)(uintptr_t)&dev;
  q.return_size = sizeof(dev);
  q.query = AMDGPU_INFO_DEV_INFO;
  if (drmIoctl(fd, DRM_IOCTL_AMDGPU_INFO, &q) != 0) {
    int err = errno ? errno : EIO;
    close(fd);
    return -err;
  }
  drm->fd = fd;
  drm->family_id = dev.family;
  drm->chip_external_rev = dev.external_rev;
  drm->chip_rev = dev.chip_rev;
  drm->gpu_counter_freq_khz = dev.gpu_counter_freq;
  drm->integrated = (dev.ids_flags & AMDGPU_IDS_FLAGS_FUSION) != 0;
  return 0;
}

void kfd_drm_marketing_name(const struct kfd_drm *drm, char *name, size_t size) {
  if (size) name[0] = 0;
  if (drm->fd < 0 || size == 0) return;
  uint32_t major = 0, minor_version = 0;
  amdgpu_device_handle dev = NULL;
  if (amdgpu_device_initialize(drm->fd, &major, &minor_version, &dev) != 0) return;
  const char *n = amdgpu_get_marketing_name(dev);
  if (n) snprintf(name, size, "%s", n);
  amdgpu_device_deinitialize(dev); /* it keeps a dup() of the fd, released here */
}

void kfd_drm_close(struct kfd_drm *drm) {
  if (drm->fd >= 0) close(drm->fd);
  drm->fd = -1;
}
