/* SPDX-License-Identifier: MIT */
/* fdtable.h — which open file descriptors are simulated device files. The fds are real
 * (memfds), so the kernel keeps numbering, inheritance and close-on-exec honest; this table
 * remembers what device each one stands for. Thread-safe. */
#ifndef SIM_OS_FDTABLE_H
#define SIM_OS_FDTABLE_H

#include "sim.h"

enum sim_dev_type { SIM_DEV_NONE, SIM_DEV_KFD, SIM_DEV_RENDER, SIM_DEV_CARD };

struct sim_fd {
  int fd;
  enum sim_dev_type type;
  struct sim_gpu *gpu;     /* NULL for /dev/kfd */
};

#define SIM_FD_MAX 256

/* Track fd as a device; -EMFILE when the table is full. */
int sim_fd_add(int fd, enum sim_dev_type type, struct sim_gpu *gpu);
/* 1 and *out if fd is a simulated device, else 0. */
int sim_fd_lookup(int fd, struct sim_fd *out);
/* Forget fd. Returns its type (SIM_DEV_NONE if untracked); *last_kfd is set when it was
 * the process's last /dev/kfd descriptor. */
enum sim_dev_type sim_fd_remove(int fd, int *last_kfd);
/* newfd now refers to what oldfd does (dup); an entry newfd had is replaced (its type is
 * returned through *replaced, SIM_DEV_NONE if none). 1 if oldfd was tracked. */
int sim_fd_dup(int oldfd, int newfd, enum sim_dev_type *replaced, int *last_kfd);
/* Number of tracked fds: a cheap test for the common case of none. */
unsigned sim_fd_count(void);
/* Forget everything (tests). */
void sim_fd_reset(void);

#endif
