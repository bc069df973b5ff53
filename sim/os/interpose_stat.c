/* SPDX-License-Identifier: MIT */
/* interpose_stat.c — the stat family: device nodes report character devices with their
 * major/minor (libdrm identifies render nodes this way), simulated sysfs paths are
 * redirected, everything else passes through. Also the __xstat family that binaries built
 * against glibc < 2.33 still call. */
#undef _FORTIFY_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "os/real.h"
#include "os/world.h"

int __xstat(int ver, const char *path, struct stat *st);
int __xstat64(int ver, const char *path, struct stat64 *st);
int __lxstat(int ver, const char *path, struct stat *st);
int __lxstat64(int ver, const char *path, struct stat64 *st);
int __fxstat(int ver, int fd, struct stat *st);
int __fxstat64(int ver, int fd, struct stat64 *st);
int __fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags);
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st, int flags);

/* On x86-64 struct stat and struct stat64 are one layout; one implementation serves both. */
_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "stat64 layout");

static int fd_stat(int fd, struct stat *st)
{
  struct sim_fd e;
  if (sim_fd_lookup(fd, &e)) {
    struct sim_devnode dev;
    sim_devnode_of_fd(&e, &dev);
    sim_devnode_stat(&dev, st);
    return 0;
  }
  return SIM_REAL(fstat)(fd, st);
}

static int path_stat(int dirfd, const char *path, struct stat *st, int flags)
{
  if ((flags & AT_EMPTY_PATH) && path && path[0] == '\0')
    return fd_stat(dirfd, st);
  char buf[PATH_MAX];
  struct sim_devnode dev;
  switch (sim_os_map(path, buf, sizeof buf, &dev)) {
  case SIM_PATH_DEVICE:
    sim_devnode_stat(&dev, st);
    return 0;
  case SIM_PATH_REDIRECT:
    return SIM_REAL(fstatat)(dirfd, buf, st, flags);
  default:
    return SIM_REAL(fstatat)(dirfd, path, st, flags);
  }
}

SIM_EXPORT int stat(const char *path, struct stat *st)
{
  return path_stat(AT_FDCWD, path, st, 0);
}

SIM_EXPORT int stat64(const char *path, struct stat64 *st)
{
  return path_stat(AT_FDCWD, path, (struct stat *)st, 0);
}

SIM_EXPORT int lstat(const char *path, struct stat *st)
{
  return path_stat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

SIM_EXPORT int lstat64(const char *path, struct stat64 *st)
{
  return path_stat(AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW);
}

SIM_EXPORT int fstat(int fd, struct stat *st)
{
  return fd_stat(fd, st);
}

SIM_EXPORT int fstat64(int fd, struct stat64 *st)
{
  return fd_stat(fd, (struct stat *)st);
}

SIM_EXPORT int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
  return path_stat(dirfd, path, st, flags);
}

SIM_EXPORT int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
  return path_stat(dirfd, path, (struct stat *)st, flags);
}

SIM_EXPORT int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *stx)
{
  struct sim_fd e;
  struct sim_devnode dev;
  if ((flags & AT_EMPTY_PATH) && path[0] == '\0' && sim_fd_lookup(dirfd, &e)) {
    sim_devnode_of_fd(&e, &dev);
    sim_devnode_statx(&dev, stx);
    return 0;
  }
  char buf[PATH_MAX];
  switch (sim_os_map(path, buf, sizeof buf, &dev)) {
  case SIM_PATH_DEVICE:
    sim_devnode_statx(&dev, stx);
    return 0;
  case SIM_PATH_REDIRECT:
    return SIM_REAL(statx)(dirfd, buf, flags, mask, stx);
  default:
    return SIM_REAL(statx)(dirfd, path, flags, mask, stx);
  }
}

SIM_EXPORT int __xstat(int ver, const char *path, struct stat *st)
{
  (void)ver;
  return path_stat(AT_FDCWD, path, st, 0);
}

SIM_EXPORT int __xstat64(int ver, const char *path, struct stat64 *st)
{
  (void)ver;
  return path_stat(AT_FDCWD, path, (struct stat *)st, 0);
}

SIM_EXPORT int __lxstat(int ver, const char *path, struct stat *st)
{
  (void)ver;
  return path_stat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

SIM_EXPORT int __lxstat64(int ver, const char *path, struct stat64 *st)
{
  (void)ver;
  return path_stat(AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW);
}

SIM_EXPORT int __fxstat(int ver, int fd, struct stat *st)
{
  (void)ver;
  return fd_stat(fd, st);
}

SIM_EXPORT int __fxstat64(int ver, int fd, struct stat64 *st)
{
  (void)ver;
  return fd_stat(fd, (struct stat *)st);
}

SIM_EXPORT int __fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags)
{
  (void)ver;
  return path_stat(dirfd, path, st, flags);
}

SIM_EXPORT int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st, int flags)
{
  (void)ver;
  return path_stat(dirfd, path, (struct stat *)st, flags);
}
