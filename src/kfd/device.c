/* SPDX-License-Identifier: MIT */
/* device.c — /dev/kfd: open it, check the ioctl interface version, the XNACK mode. */
#include "kfd/kfd.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int kfd_ioctl(int fd, unsigned long request, void *arg) {
  int rc;
  /* The driver returns EINTR/EAGAIN when a signal or memory pressure interrupts it;
   * the call is safe to repeat. */
  do {
    rc = ioctl(fd, request, arg);
  } while (rc == -1 && (errno == EINTR || errno == EAGAIN));
  return rc == -1 ? -errno : 0;
}

int kfd_device_open(const char *path, struct kfd_device *dev) {
  memset(dev, 0, sizeof(*dev));
  dev->fd = -1;
  /* O_CLOEXEC: a child started with exec must not inherit our GPU process context. */
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0) return -errno;
  struct kfd_ioctl_get_version_args args = {0};
  int rc = kfd_ioctl(fd, AMDKFD_IOC_GET_VERSION, &args);
  if (rc) {
    close(fd);
    return rc;
  }
  dev->major = args.major_version;
  dev->minor = args.minor_version;
  if (args.major_version != KFD_IOCTL_MAJOR_VERSION) {
    close(fd);
    return -EPROTO;
  }
  dev->fd = fd;
  return 0;
}

void kfd_device_close(struct kfd_device *dev) {
  if (dev->fd >= 0) close(dev->fd);
  dev->fd = -1;
}

int kfd_get_xnack_mode(const struct kfd_device *dev, bool *enabled) {
  struct kfd_ioctl_set_xnack_mode_args args = {.xnack_enabled = -1}; /* -1 = query */
  int rc = kfd_ioctl(dev->fd, AMDKFD_IOC_SET_XNACK_MODE, &args);
  if (rc == 0) *enabled = args.xnack_enabled > 0;
  return rc;
}

int kfd_set_xnack_mode(const struct kfd_device *dev, bool enabled) {
  struct kfd_ioctl_set_xnack_mode_args args = {.xnack_enabled = enabled ? 1 : 0};
  return kfd_ioctl(dev->fd, AMDKFD_IOC_SET_XNACK_MODE, &args);
}

int kfd_available_memory(const struct kfd_device *dev, uint32_t gpu_id, uint64_t *bytes) {
  struct kfd_ioctl_get_available_memory_args args = {.gpu_id = gpu_id};
  int rc = kfd_ioctl(dev->fd, AMDKFD_IOC_AVAILABLE_MEMORY, &args);
  if (rc == 0) *bytes = args.available;
  return rc;
}
