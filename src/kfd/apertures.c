/* SPDX-License-Identifier: MIT */
/* apertures.c — the process's GPU virtual address apertures and VM binding. */
#include "kfd/kfd.h"

#include <errno.h>
#include <linux/kfd_ioctl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int kfd_get_apertures(const struct kfd_device *dev, struct kfd_aperture *out, unsigned max,
                      unsigned *count) {
  *count = 0;
  if (max == 0) return 0;
  /* The kernel fills at most num_of_nodes entries and writes back how many it has. */
  struct kfd_process_device_apertures *raw = calloc(max, sizeof(*raw));
  if (!raw) return -ENOMEM;
  struct kfd_ioctl_get_process_apertures_new_args args;
  memset(&args, 0, sizeof(args));
  args.kfd_process_device_apertures_ptr = (uint64_t)(uintptr_t)raw;
  args.num_of_nodes = max;
  int rc = kfd_ioctl(dev->fd, AMDKFD_IOC_GET_PROCESS_APERTURES_NEW, &args);
  kfd_report("AMDKFD_IOC_GET_PROCESS_APERTURES_NEW", rc);
  if (rc == 0) {
    unsigned n = args.num_of_nodes < max ? args.num_of_nodes : max;
    for (unsigned i = 0; i < n; i++) {
      out[i].gpu_id = raw[i].gpu_id;
      out[i].lds_base = raw[i].lds_base;
      out[i].lds_limit = raw[i].lds_limit;
      out[i].scratch_base = raw[i].scratch_base;
      out[i].scratch_limit = raw[i].scratch_limit;
      out[i].gpuvm_base = raw[i].gpuvm_base;
      out[i].gpuvm_limit = raw[i].gpuvm_limit;
    }
    *count = n;
  }
  free(raw);
  return rc;
}

int kfd_acquire_vm(const struct kfd_device *dev, uint32_t gpu_id, int drm_fd) {
  struct kfd_ioctl_acquire_vm_args args = {.drm_fd = (uint32_t)drm_fd, .gpu_id = gpu_id};
  int rc = kfd_ioctl(dev->fd, AMDKFD_IOC_ACQUIRE_VM, &args);
  kfd_report("AMDKFD_IOC_ACQUIRE_VM", rc);
  return rc;
}
