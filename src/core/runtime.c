/* SPDX-License-Identifier: MIT */
/* runtime.c — the state shared while the runtime is open: /dev/kfd, the KFD topology and the
 * agents. core_open builds it (the first hsa_init), core_close releases it (the last
 * hsa_shut_down); when each happens, and in what order with the other modules, is decided
 * by the lifetime at the top (src/runtime.c). */
#include "core/runtime.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_bool open_flag;         /* read lock-free by every API entry */
static struct core_runtime *runtime;  /* set while open */

struct core_runtime *core_rt(void) { return runtime; }

bool core_runtime_is_open(void) {
  return atomic_load_explicit(&open_flag, memory_order_acquire);
}

void core_set_open(bool open) {
  atomic_store_explicit(&open_flag, open, memory_order_release);
}

/* Says once per process why the GPU cannot be used, with what to do about it. */
static void explain_kfd_error(const char *path, int err, const struct kfd_device *dev) {
  static atomic_bool said;
  if (atomic_exchange(&said, true)) return;
  switch (err) {
  case -ENOENT:
  case -ENODEV:
  case -ENXIO:
    fprintf(stderr, "hsa-runtime64: %s does not exist: the amdgpu kernel driver with KFD is not "
                    "loaded (no AMD GPU here, or run 'modprobe amdgpu'); hsa_init fails.\n", path);
    break;
  case -EACCES:
  case -EPERM:
    fprintf(stderr, "hsa-runtime64: permission denied opening %s: add the user to the 'render' "
                    "group (and 'video' on older distributions), e.g. 'sudo usermod -aG "
                    "render,video $USER', then log in again.\n", path);
    break;
  case -EPROTO:
    fprintf(stderr, "hsa-runtime64: %s speaks KFD interface %u.%u, this runtime needs %u.x: "
                    "the kernel driver is too old or too new for this runtime.\n",
            path, dev->major, dev->minor, 1u);
    break;
  default:
    fprintf(stderr, "hsa-runtime64: cannot use %s: %s.\n", path, strerror(-err));
  }
}

static void runtime_free(struct core_runtime *rt) {
  if (!rt) return;
  core_agents_free(rt);
  kfd_topology_free(&rt->topo);
  kfd_device_close(&rt->kfd);
  free(rt->node_of_sysfs);
  free(rt);
}

static hsa_status_t runtime_load(const struct core_options *opts, struct core_runtime **out) {
  struct core_options o = {KFD_SYSFS_ROOT, KFD_DEVICE_PATH, KFD_DRI_DIR, false};
  if (opts) {
    if (opts->sysfs_root) o.sysfs_root = opts->sysfs_root;
    if (opts->kfd_path) o.kfd_path = opts->kfd_path;
    if (opts->dri_dir) o.dri_dir = opts->dri_dir;
    o.no_device = opts->no_device;
  }
  struct core_runtime *rt = calloc(1, sizeof(*rt));
  if (!rt) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  rt->kfd.fd = -1;
  rt->no_device = o.no_device;
  snprintf(rt->dri_dir, sizeof(rt->dri_dir), "%s", o.dri_dir);

  /* Like ROCR: without a usable /dev/kfd, hsa_init fails (no CPU-only fallback). */
  if (!o.no_device) {
    int rc = kfd_device_open(o.kfd_path, &rt->kfd);
    if (rc) {
      explain_kfd_error(o.kfd_path, rc, &rt->kfd);
      runtime_free(rt);
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
  }
  int rc = kfd_topology_read_deferred(o.sysfs_root, &rt->topo);
  if (rc) {
    fprintf(stderr, "hsa-runtime64: cannot read the KFD topology under %s: %s.\n", o.sysfs_root,
            strerror(-rc));
    runtime_free(rt);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }

  struct kfd_clock_counters clocks;
  if (rt->kfd.fd >= 0 && kfd_get_clock_counters(&rt->kfd, 0, &clocks) == 0 &&
      clocks.system_clock_freq)
    rt->sys_clock_freq = clocks.system_clock_freq;
  else {
    kfd_host_clock_counters(&clocks);
    rt->sys_clock_freq = clocks.system_clock_freq;
  }

  hsa_status_t st = core_agents_build(rt);
  if (st != HSA_STATUS_SUCCESS) {
    runtime_free(rt);
    return st;
  }
  *out = rt;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t core_open(const struct core_options *opts) { return runtime_load(opts, &runtime); }

void core_close(void) {
  runtime_free(runtime);
  runtime = NULL;
}
