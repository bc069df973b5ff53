/* SPDX-License-Identifier: MIT */
/* world.h — the simulated machine as the interposers see it: where its generated tree
 * lives, how a path maps, and what a device node looks like. Not an interposer itself. */
#ifndef SIM_OS_WORLD_H
#define SIM_OS_WORLD_H

#include <stddef.h>
#include <sys/stat.h>

#include "os/paths.h"

#define SIM_EXPORT __attribute__((visibility("default")))

/* Nonzero while sim/os itself is doing file I/O (building the tree): interposers then
 * pass every call straight through. */
extern __thread int sim_os_busy;

/* The generated tree of this run, built on first use; NULL if it could not be built. */
const char *sim_os_tree(void);

/* sim_path_map against this run's tree; PASS while busy. */
enum sim_path_kind sim_os_map(const char *path, char *out, size_t outlen,
                              struct sim_devnode *dev);

/* Open a device node: a memfd remembered in the fd table. fd or -errno. */
int sim_devnode_open(const struct sim_devnode *dev, int flags);
/* What stat says about a device node. */
void sim_devnode_stat(const struct sim_devnode *dev, struct stat *st);
void sim_devnode_statx(const struct sim_devnode *dev, struct statx *stx);
/* The node an fd table entry stands for. */
void sim_devnode_of_fd(const struct sim_fd *e, struct sim_devnode *dev);

#endif
