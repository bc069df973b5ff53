/* SPDX-License-Identifier: MIT */
/* paths.h — which paths the simulator answers. Device nodes (/dev/kfd, /dev/dri/renderD*,
 * /dev/dri/card*) are synthesised; the KFD topology, the DRM and PCI sysfs entries of the
 * simulated boards, /sys/module/amdgpu, /dev/dri and /proc/modules are redirected into the
 * generated tree; every other path passes through untouched. */
#ifndef SIM_OS_PATHS_H
#define SIM_OS_PATHS_H

#include <stddef.h>

#include "os/fdtable.h"

#define SIM_KFD_MAJOR 235u  /* dynamic in the kernel; a value it commonly gets */
#define SIM_DRM_MAJOR 226u
#define SIM_PCI_ROOT "/sys/devices/pci0000:60"   /* the simulated boards' root complex */

enum sim_path_kind { SIM_PATH_PASS, SIM_PATH_REDIRECT, SIM_PATH_DEVICE };

struct sim_devnode {
  enum sim_dev_type type;
  unsigned major, minor;
  struct sim_gpu *gpu;      /* NULL for /dev/kfd */
};

/* Classify an absolute path. REDIRECT: out holds tree() + path. DEVICE: *dev describes the
 * node. PASS: neither (also for relative paths, when out is too small, or when tree()
 * returns NULL). tree() is called only for a path that is redirected, so that merely
 * classifying a path never builds the tree. */
enum sim_path_kind sim_path_map(const char *(*tree)(void), const char *path, char *out,
                                size_t outlen, struct sim_devnode *dev);

/* The sysfs directory of a GPU's PCI function, "/sys/devices/pci0000:60/0000:60:03.1/0000:63:00.0". */
void sim_path_gpu_pci_dir(const struct sim_gpu *gpu, char *out, size_t outlen);
/* "0000:63:00.0" */
void sim_path_gpu_slot(const struct sim_gpu *gpu, char *out, size_t outlen);

/* The device node a simulated fd stands for, e.g. "/dev/dri/renderD128". */
void sim_path_devnode_name(enum sim_dev_type type, const struct sim_gpu *gpu, char *out,
                           size_t outlen);

#endif
