/* SPDX-License-Identifier: MIT */
/* interpose_path.c — access, readlink and realpath over the simulated paths. realpath is
 * answered in the simulated namespace: "/sys/dev/char/226:128/device" resolves to the
 * board's "/sys/devices/pci..." directory, never to the private tree. */
#undef _FORTIFY_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/real.h"
#include "os/world.h"

int eaccess(const char *path, int mode);
int euidaccess(const char *path, int mode);

static int access_at(int dirfd, const char *path, int mode, int flags)
{
  char buf[PATH_MAX];
  struct sim_devnode dev;
  switch (sim_os_map(path, buf, sizeof buf, &dev)) {
  case SIM_PATH_DEVICE:
    if (mode & X_OK) {
      errno = EACCES;
      return -1;
    }
    return 0;
  case SIM_PATH_REDIRECT:
    return SIM_REAL(faccessat)(dirfd, buf, mode, flags);
  default:
    return SIM_REAL(faccessat)(dirfd, path, mode, flags);
  }
}

SIM_EXPORT int access(const char *path, int mode)
{
  return access_at(AT_FDCWD, path, mode, 0);
}

SIM_EXPORT int faccessat(int dirfd, const char *path, int mode, int flags)
{
  return access_at(dirfd, path, mode, flags);
}

SIM_EXPORT int euidaccess(const char *path, int mode)
{
  return access_at(AT_FDCWD, path, mode, AT_EACCESS);
}

SIM_EXPORT int eaccess(const char *path, int mode)
{
  return access_at(AT_FDCWD, path, mode, AT_EACCESS);
}

/* /proc/self/fd/N and /proc/PID/fd/N of a simulated fd name its device node. */
static int fd_link(const char *path, char *out, size_t outlen)
{
  int fd;
  char tail;
  long pid;
  if (sscanf(path, "/proc/self/fd/%d%c", &fd, &tail) != 1 &&
      !(sscanf(path, "/proc/%ld/fd/%d%c", &pid, &fd, &tail) == 2 && pid == (long)getpid()))
    return 0;
  struct sim_fd e;
  if (!sim_fd_lookup(fd, &e))
    return 0;
  sim_path_devnode_name(e.type, e.gpu, out, outlen);
  return 1;
}

static ssize_t link_copy(const char *name, char *buf, size_t len)
{
  size_t n = strlen(name);
  if (n > len)
    n = len; /* readlink truncates silently */
  memcpy(buf, name, n);
  return (ssize_t)n;
}

static ssize_t readlink_at(int dirfd, const char *path, char *out, size_t len)
{
  char name[64];
  if (path && strncmp(path, "/proc/", 6) == 0 && fd_link(path, name, sizeof name))
    return link_copy(name, out, len);
  char buf[PATH_MAX];
  struct sim_devnode dev;
  switch (sim_os_map(path, buf, sizeof buf, &dev)) {
  case SIM_PATH_DEVICE:
    errno = EINVAL; /* a device node is not a symlink */
    return -1;
  case SIM_PATH_REDIRECT:
    return SIM_REAL(readlinkat)(dirfd, buf, out, len);
  default:
    return SIM_REAL(readlinkat)(dirfd, path, out, len);
  }
}

SIM_EXPORT ssize_t readlink(const char *path, char *out, size_t len)
{
  return readlink_at(AT_FDCWD, path, out, len);
}

SIM_EXPORT ssize_t readlinkat(int dirfd, const char *path, char *out, size_t len)
{
  return readlink_at(dirfd, path, out, len);
}

SIM_EXPORT char *realpath(const char *path, char *resolved)
{
  char buf[PATH_MAX], real[PATH_MAX];
  struct sim_devnode dev;
  const char *answer;
  switch (sim_os_map(path, buf, sizeof buf, &dev)) {
  case SIM_PATH_DEVICE: /* device nodes are canonical where they are */
    sim_path_devnode_name(dev.type, dev.gpu, real, sizeof real);
    answer = real;
    break;
  case SIM_PATH_REDIRECT: {
    if (!SIM_REAL(realpath)(buf, real))
      return NULL;
    const char *tree = sim_os_tree();
    size_t n = tree ? strlen(tree) : 0;
    answer = n && strncmp(real, tree, n) == 0 && real[n] == '/' ? real + n : real;
    break;
  }
  default:
    return SIM_REAL(realpath)(path, resolved);
  }
  if (!resolved)
    return strdup(answer);
  memmove(resolved, answer, strlen(answer) + 1);
  return resolved;
}

/* cd into a simulated directory, so relative paths below it resolve in the tree. */
SIM_EXPORT int chdir(const char *path)
{
  char buf[PATH_MAX];
  struct sim_devnode dev;
  switch (sim_os_map(path, buf, sizeof buf, &dev)) {
  case SIM_PATH_DEVICE:
    errno = ENOTDIR;
    return -1;
  case SIM_PATH_REDIRECT:
    return SIM_REAL(chdir)(buf);
  default:
    return SIM_REAL(chdir)(path);
  }
}
