/* SPDX-License-Identifier: MIT */
/* clock.c — GPU, CPU and system clock counters, from the driver or the OS; and the GPU's
 * GB_ADDR_CONFIG (GET_TILE_CONFIG), the other per-GPU register value the driver reports. */
#include "kfd/kfd.h"

#include <linux/kfd_ioctl.h>
#include <string.h>
#include <time.h>

int kfd_get_clock_counters(const struct kfd_device *dev, uint32_t gpu_id,
                           struct kfd_clock_counters *out) {
  struct kfd_ioctl_get_clock_counters_args args;
  memset(&args, 0, sizeof(args));
  args.gpu_id = gpu_id;
  int rc = kfd_ioctl(dev->fd, AMDKFD_IOC_GET_CLOCK_COUNTERS, &args);
  if (rc) return rc;
  out->gpu_clock_counter = args.gpu_clock_counter;
  out->cpu_clock_counter = args.cpu_clock_counter;
  out->system_clock_counter = args.system_clock_counter;
  out->system_clock_freq = args.system_clock_freq;
  return 0;
}

static uint64_t ns_of(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void kfd_host_clock_counters(struct kfd_clock_counters *out) {
  /* The same clocks the driver samples: raw monotonic for the CPU, boot time for the system. */
  out->gpu_clock_counter = 0;
  out->cpu_clock_counter = ns_of(CLOCK_MONOTONIC_RAW);
  out->system_clock_counter = ns_of(CLOCK_BOOTTIME);
  out->system_clock_freq = 1000000000u;
}

int kfd_get_gb_addr_config(const struct kfd_device *dev, uint32_t gpu_id, uint32_t *out) {
  struct kfd_ioctl_get_tile_config_args args;
  memset(&args, 0, sizeof(args));
  args.gpu_id = gpu_id;   /* no tile-mode arrays asked for: gfx9+ has none */
  int rc = kfd_ioctl(dev->fd, AMDKFD_IOC_GET_TILE_CONFIG, &args);
  if (rc) return rc;
  *out = args.gb_addr_config;
  return 0;
}
