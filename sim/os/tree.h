/* SPDX-License-Identifier: MIT */
/* tree.h — the generated part of the filesystem the simulated machine shows: the KFD
 * topology, the DRM/PCI sysfs entries of each board, /sys/module/amdgpu, /dev/dri names and
 * /proc/modules, laid out under a directory exactly as under / (dir/sys/..., dir/dev/dri, ...). */
#ifndef SIM_OS_TREE_H
#define SIM_OS_TREE_H

/* Build the tree for this configuration into dir (which must not exist yet; its parent
 * must). 0 on success, else -errno (a partial tree is left for the caller to remove). */
int sim_tree_build(const char *dir);

/* Remove a directory and everything under it without following symlinks. 0 or -errno. */
int sim_tree_remove(const char *dir);

#endif
