/* SPDX-License-Identifier: MIT */
/* runtime.h — the state that exists while the runtime is open: the KFD topology, /dev/kfd, the
 * agents and their memory. The lifetime itself (hsa_init / hsa_shut_down, the order in which
 * modules start and stop) is src/runtime.c, above every module. */
#ifndef CORE_RUNTIME_H
#define CORE_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/agent.h"
#include "hsa.h"
#include "kfd/kfd.h"

/* Where to find the kernel; hsa_init uses the real paths, tests pass captured trees. */
struct core_options {
  const char *sysfs_root;     /* KFD_SYSFS_ROOT */
  const char *kfd_path;       /* KFD_DEVICE_PATH */
  const char *dri_dir;        /* KFD_DRI_DIR */
  bool no_device;             /* build GPU agents from sysfs alone: no /dev/kfd, no DRM */
};

struct core_runtime {
  struct kfd_topology topo;
  struct kfd_device kfd;      /* fd -1 with no_device */
  bool no_device;
  char dri_dir[256];
  bool xnack;                 /* the process's XNACK mode */
  uint64_t sys_clock_freq;    /* HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY */
  uint64_t max_sysmem_alloc;  /* all system memory, page-aligned (fine-grained regions) */
  struct core_agent **agents; /* CPUs in node order, then GPUs in visible order */
  unsigned agent_count, cpu_count, gpu_count;
  /* sysfs node index -> HSA node id (nodes the process cannot use are skipped), -1 if none */
  int *node_of_sysfs;
  unsigned node_of_sysfs_count;
};

/* The open runtime; only valid between a successful acquire and the last release. */
struct core_runtime *core_rt(void);
/* Lock-free check every API entry does first. */
bool core_runtime_is_open(void);
/* Builds the shared state (opens the KFD, reads the topology, builds the agents) and
 * core_close releases it; only the lifetime (src/runtime.c) calls them, under its lock.
 * core_set_open publishes the state to the API entries, or withdraws it before shutdown. */
hsa_status_t core_open(const struct core_options *opts);
void core_set_open(bool open);
void core_close(void);
/* hsa_init with explicit paths (tests); NULL means the real system. Defined by the lifetime,
 * src/runtime.c; no module calls them. */
hsa_status_t core_runtime_acquire(const struct core_options *opts);
hsa_status_t core_runtime_release(void);

/* env.c: the environment variables users already know (ROCR semantics). */
/* HSA_OVERRIDE_GFX_VERSION_<node> or HSA_OVERRIDE_GFX_VERSION as "major.minor.stepping".
 * 1 and the version when set and valid, 0 when unset, -1 when malformed. */
int core_env_gfx_override(unsigned node_id, uint32_t *major, uint32_t *minor, uint32_t *stepping);
/* ROCR_VISIBLE_DEVICES: rank[i] = position of GPU i (enumeration order) among the visible GPUs,
 * or -1 if hidden. uuids[i] = that GPU's unique_id (0 when it has none). Returns the number of
 * visible GPUs; when the variable is unset every GPU is visible in order. */
unsigned core_env_visible_gpus(const char *value, unsigned gpu_count, const uint64_t *uuids,
                               int *rank);
/* HSA_XNACK: 1 / 0 when set to that, -1 when unset. */
int core_env_xnack(void);
/* HSA_ENABLE_DEBUG=1: the runtime asks the kernel to set up trap temporaries for a debugger. */
bool core_env_debug(void);

#endif
