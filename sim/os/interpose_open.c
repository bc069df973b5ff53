/* SPDX-License-Identifier: MIT */
/* interpose_open.c — the open family, fopen and opendir: device nodes become tracked fds,
 * simulated sysfs paths are redirected into the generated tree, the rest passes through.
 * (glibc's fopen and opendir open internally, out of reach of an interposed open.) */
#undef _FORTIFY_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "os/real.h"
#include "os/world.h"

int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);

/* The path to really open, or NULL with *fd set when a device node was opened (or failed). */
static const char *route(const char *path, int flags, char *buf, size_t len, int *fd)
{
  struct sim_devnode dev;
  switch (sim_os_map(path, buf, len, &dev)) {
  case SIM_PATH_DEVICE: {
    int r = sim_devnode_open(&dev, flags);
    if (r < 0) {
      errno = -r;
      r = -1;
    }
    *fd = r;
    return NULL;
  }
  case SIM_PATH_REDIRECT:
    return buf;
  default:
    return path;
  }
}

static int open_at(int dirfd, const char *path, int flags, mode_t mode)
{
  char buf[PATH_MAX];
  int fd;
  const char *p = route(path, flags, buf, sizeof buf, &fd);
  if (!p)
    return fd;
  return SIM_REAL(openat)(dirfd, p, flags, mode);
}

static mode_t mode_arg(int flags, va_list ap)
{
  return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

SIM_EXPORT int open(const char *path, int flags, ...)
{
  va_list ap;
  va_start(ap, flags);
  mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return open_at(AT_FDCWD, path, flags, mode);
}

SIM_EXPORT int open64(const char *path, int flags, ...)
{
  va_list ap;
  va_start(ap, flags);
  mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return open_at(AT_FDCWD, path, flags | O_LARGEFILE, mode);
}

SIM_EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
  va_list ap;
  va_start(ap, flags);
  mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return open_at(dirfd, path, flags, mode);
}

SIM_EXPORT int openat64(int dirfd, const char *path, int flags, ...)
{
  va_list ap;
  va_start(ap, flags);
  mode_t mode = mode_arg(flags, ap);
  va_end(ap);
  return open_at(dirfd, path, flags | O_LARGEFILE, mode);
}

/* The _FORTIFY_SOURCE entry points (no mode: the caller passed no O_CREAT). */
SIM_EXPORT int __open_2(const char *path, int flags)
{
  return open_at(AT_FDCWD, path, flags, 0);
}

SIM_EXPORT int __open64_2(const char *path, int flags)
{
  return open_at(AT_FDCWD, path, flags | O_LARGEFILE, 0);
}

SIM_EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
  return open_at(dirfd, path, flags, 0);
}

SIM_EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
  return open_at(dirfd, path, flags | O_LARGEFILE, 0);
}

/* fopen's mode string as open flags, for device nodes opened through stdio. */
static int fopen_flags(const char *mode)
{
  int flags = mode[0] == 'r' ? O_RDONLY : O_WRONLY | O_CREAT | (mode[0] == 'a' ? O_APPEND : O_TRUNC);
  for (const char *m = mode + 1; *m && *m != ','; m++) {
    if (*m == '+')
      flags = (flags & ~O_ACCMODE) | O_RDWR;
    else if (*m == 'e')
      flags |= O_CLOEXEC;
    else if (*m == 'x')
      flags |= O_EXCL;
  }
  return flags;
}

static FILE *fopen_routed(const char *path, const char *mode, FILE *(*real)(const char *, const char *))
{
  char buf[PATH_MAX];
  int fd;
  const char *p = route(path, fopen_flags(mode), buf, sizeof buf, &fd);
  if (p)
    return real(p, mode);
  if (fd < 0)
    return NULL;
  FILE *f = fdopen(fd, mode);
  if (!f) {
    int e = errno;
    close(fd);
    errno = e;
  }
  return f;
}

SIM_EXPORT FILE *fopen(const char *path, const char *mode)
{
  return fopen_routed(path, mode, SIM_REAL(fopen));
}

SIM_EXPORT FILE *fopen64(const char *path, const char *mode)
{
  return fopen_routed(path, mode, SIM_REAL(fopen64));
}

SIM_EXPORT DIR *opendir(const char *path)
{
  char buf[PATH_MAX];
  struct sim_devnode dev;
  switch (sim_os_map(path, buf, sizeof buf, &dev)) {
  case SIM_PATH_DEVICE:
    errno = ENOTDIR;
    return NULL;
  case SIM_PATH_REDIRECT:
    return SIM_REAL(opendir)(buf);
  default:
    return SIM_REAL(opendir)(path);
  }
}
