/* SPDX-License-Identifier: MIT */
/* debug.c — AMDKFD_IOC_RUNTIME_ENABLE (debug.h). */
#include "kfd/debug.h"

#include <kfd_abi/kfd_ioctl_supp.h>
#include <string.h>

bool kfd_has_runtime_enable(const struct kfd_device *dev)
{
  return dev->major == 1 && dev->minor >= 13;   /* the debugger interface came with 1.13 */
}

int kfd_runtime_enable(const struct kfd_device *dev, uint64_t r_debug, bool ttmp, uint32_t *caps)
{
  struct kfd_ioctl_runtime_enable_args a;
  memset(&a, 0, sizeof a);
  a.r_debug = r_debug;
  a.mode_mask = KFD_RUNTIME_ENABLE_MODE_ENABLE_MASK |
                (ttmp ? KFD_RUNTIME_ENABLE_MODE_TTMP_SAVE_MASK : 0);
  int r = kfd_ioctl(dev->fd, AMDKFD_IOC_RUNTIME_ENABLE, &a);
  if (!r && caps)
    *caps = a.capabilities_mask;
  return r;
}

int kfd_runtime_disable(const struct kfd_device *dev)
{
  struct kfd_ioctl_runtime_enable_args a;
  memset(&a, 0, sizeof a);   /* mode 0: disable */
  return kfd_ioctl(dev->fd, AMDKFD_IOC_RUNTIME_ENABLE, &a);
}
