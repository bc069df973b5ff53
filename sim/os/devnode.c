/* SPDX-License-Identifier: MIT */
/* devnode.c — the simulated character devices /dev/kfd and /dev/dri/{card,renderD}N.
 * An open returns a real fd (a memfd, so numbering, dup, inheritance and close-on-exec are
 * the kernel's) and the fd table remembers which device it is. */
#include "os/world.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "os/real.h"
#include "sim.h"

int sim_devnode_open(const struct sim_devnode *dev, int flags)
{
  if (flags & O_DIRECTORY)
    return -ENOTDIR;
  if ((flags & O_CREAT) && (flags & O_EXCL))
    return -EEXIST;
  char name[64];
  sim_path_devnode_name(dev->type, dev->gpu, name, sizeof name);
  int fd = memfd_create(strrchr(name, '/') + 1, (flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);
  if (fd < 0)
    return -errno;
  if (dev->type == SIM_DEV_KFD) {
    int r = sim_kfd_open();
    if (r < 0) {
      SIM_REAL(close)(fd);
      return r;
    }
  }
  int r = sim_fd_add(fd, dev->type, dev->gpu);
  if (r < 0) {
    SIM_REAL(close)(fd);
    return r;
  }
  return fd;
}

void sim_devnode_of_fd(const struct sim_fd *e, struct sim_devnode *dev)
{
  dev->type = e->type;
  dev->gpu = e->gpu;
  if (e->type == SIM_DEV_KFD) {
    dev->major = SIM_KFD_MAJOR;
    dev->minor = 0;
  } else {
    dev->major = SIM_DRM_MAJOR;
    dev->minor = e->type == SIM_DEV_RENDER ? e->gpu->render_minor : e->gpu->card_minor;
  }
}

/* Device nodes appear when the driver loads; one fixed time stands for that. */
static time_t node_time(void)
{
  static time_t t;
  time_t v = __atomic_load_n(&t, __ATOMIC_RELAXED);
  if (!v) {
    v = time(NULL);
    __atomic_store_n(&t, v, __ATOMIC_RELAXED);
  }
  return v;
}

/* devtmpfs nodes: crw-rw-rw- root root for /dev/kfd and the render nodes (udev's rules
 * make them world- or group-accessible; the simulated user is always allowed). */
void sim_devnode_stat(const struct sim_devnode *dev, struct stat *st)
{
  memset(st, 0, sizeof *st);
  st->st_dev = makedev(0, 5);
  st->st_ino = 1000u + dev->major * 1024u + dev->minor;
  st->st_mode = S_IFCHR | 0666;
  st->st_nlink = 1;
  st->st_rdev = makedev(dev->major, dev->minor);
  st->st_blksize = 4096;
  st->st_atim.tv_sec = st->st_mtim.tv_sec = st->st_ctim.tv_sec = node_time();
}

void sim_devnode_statx(const struct sim_devnode *dev, struct statx *stx)
{
  struct stat st;
  sim_devnode_stat(dev, &st);
  memset(stx, 0, sizeof *stx);
  stx->stx_mask = STATX_BASIC_STATS;
  stx->stx_blksize = (__u32)st.st_blksize;
  stx->stx_nlink = (__u32)st.st_nlink;
  stx->stx_mode = (__u16)st.st_mode;
  stx->stx_ino = st.st_ino;
  stx->stx_atime.tv_sec = stx->stx_mtime.tv_sec = stx->stx_ctime.tv_sec = st.st_mtim.tv_sec;
  stx->stx_btime.tv_sec = st.st_mtim.tv_sec;
  stx->stx_rdev_major = dev->major;
  stx->stx_rdev_minor = dev->minor;
  stx->stx_dev_major = 0;
  stx->stx_dev_minor = 5;
}
