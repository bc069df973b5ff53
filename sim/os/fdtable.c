/* SPDX-License-Identifier: MIT */
/* fdtable.c — the simulated device fds of this process. */
#include "os/fdtable.h"

#include <errno.h>
#include <pthread.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_fd table[SIM_FD_MAX];
static unsigned used; /* entries 0..used-1 are live; read unlocked only as a hint */

static int find(int fd)
{
  for (unsigned i = 0; i < used; i++)
    if (table[i].fd == fd)
      return (int)i;
  return -1;
}

static unsigned kfd_count(void)
{
  unsigned n = 0;
  for (unsigned i = 0; i < used; i++)
    n += table[i].type == SIM_DEV_KFD;
  return n;
}

/* Caller holds the lock. */
static enum sim_dev_type drop(int fd, int *last_kfd)
{
  int i = find(fd);
  if (i < 0)
    return SIM_DEV_NONE;
  enum sim_dev_type t = table[i].type;
  unsigned n = __atomic_load_n(&used, __ATOMIC_RELAXED);
  table[i] = table[n - 1];
  __atomic_store_n(&used, n - 1, __ATOMIC_RELEASE);
  if (t == SIM_DEV_KFD && last_kfd && kfd_count() == 0)
    *last_kfd = 1;
  return t;
}

int sim_fd_add(int fd, enum sim_dev_type type, struct sim_gpu *gpu)
{
  int r = 0;
  pthread_mutex_lock(&lock);
  int i = find(fd);
  if (i >= 0) { /* a stale entry: the fd was closed behind our back */
    table[i].type = type;
    table[i].gpu = gpu;
  } else if (used == SIM_FD_MAX) {
    r = -EMFILE;
  } else {
    table[used] = (struct sim_fd){ fd, type, gpu };
    __atomic_store_n(&used, used + 1, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&lock);
  return r;
}

int sim_fd_lookup(int fd, struct sim_fd *out)
{
  if (fd < 0 || sim_fd_count() == 0)
    return 0;
  pthread_mutex_lock(&lock);
  int i = find(fd);
  if (i >= 0 && out)
    *out = table[i];
  pthread_mutex_unlock(&lock);
  return i >= 0;
}

enum sim_dev_type sim_fd_remove(int fd, int *last_kfd)
{
  if (last_kfd)
    *last_kfd = 0;
  if (fd < 0 || sim_fd_count() == 0)
    return SIM_DEV_NONE;
  pthread_mutex_lock(&lock);
  enum sim_dev_type t = drop(fd, last_kfd);
  pthread_mutex_unlock(&lock);
  return t;
}

int sim_fd_dup(int oldfd, int newfd, enum sim_dev_type *replaced, int *last_kfd)
{
  if (replaced)
    *replaced = SIM_DEV_NONE;
  if (last_kfd)
    *last_kfd = 0;
  if (sim_fd_count() == 0 || oldfd == newfd)
    return 0;
  pthread_mutex_lock(&lock);
  int i = find(oldfd);
  struct sim_fd e = i >= 0 ? table[i] : (struct sim_fd){ -1, SIM_DEV_NONE, 0 };
  int last = 0;
  enum sim_dev_type t = drop(newfd, &last); /* dup2/dup3 closed whatever newfd was */
  if (replaced)
    *replaced = t;
  if (i >= 0 && used < SIM_FD_MAX) {
    table[used] = (struct sim_fd){ newfd, e.type, e.gpu };
    __atomic_store_n(&used, used + 1, __ATOMIC_RELEASE);
  }
  if (last_kfd)
    *last_kfd = last && kfd_count() == 0;
  pthread_mutex_unlock(&lock);
  return i >= 0;
}

unsigned sim_fd_count(void)
{
  return __atomic_load_n(&used, __ATOMIC_ACQUIRE);
}

void sim_fd_reset(void)
{
  pthread_mutex_lock(&lock);
  __atomic_store_n(&used, 0, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&lock);
}

/* For the driver model: ACQUIRE_VM names the DRM file by fd number. */
struct sim_gpu *sim_os_gpu_of_fd(int fd)
{
  struct sim_fd e;
  if (!sim_fd_lookup(fd, &e) || (e.type != SIM_DEV_RENDER && e.type != SIM_DEV_CARD))
    return NULL;
  return e.gpu;
}
