/* SPDX-License-Identifier: MIT */
/* hostcache.h — the host CPU's caches as the kernel's cacheinfo sysfs would list them, for
 * machines (small VMs) whose kernel lists none: ROCR's thunk refuses a CPU node without
 * caches, and then the whole topology. */
#ifndef SIM_DEV_HOSTCACHE_H
#define SIM_DEV_HOSTCACHE_H

#include <stdbool.h>

#define SIM_HOST_CACHES_MAX 8

struct sim_host_cache {
  unsigned level;         /* 1, 2, 3 */
  const char *type;       /* "Data", "Instruction" or "Unified", as sysfs spells them */
  unsigned size_kb;
  unsigned line;          /* coherency_line_size, bytes */
  unsigned ways;          /* ways_of_associativity */
  unsigned partitions;    /* physical_line_partition */
  unsigned sharing;       /* logical CPUs sharing one instance (0: all of them) */
};

/* True when the host kernel shows no /sys/devices/system/cpu/cpu0/cache (checked once,
 * with a raw system call so that it never re-enters the interposers). */
bool sim_host_cache_sysfs_missing(void);

/* The host's caches from CPUID (Intel leaf 4, AMD leaf 0x8000001D or the older
 * 0x80000005/6), else a typical server core's; returns how many, never 0. */
unsigned sim_host_caches(const struct sim_host_cache **out);

#endif
