/* SPDX-License-Identifier: MIT */
/* interpose_xattr.c — extended attributes of simulated paths (ls -l asks for ACLs and
 * security labels): redirected into the tree; device nodes have none. */
#undef _FORTIFY_SOURCE
#include <errno.h>
#include <limits.h>
#include <sys/xattr.h>

#include "os/real.h"
#include "os/world.h"

SIM_EXPORT ssize_t getxattr(const char *path, const char *name, void *value, size_t size)
{
  char buf[PATH_MAX];
  struct sim_devnode dev;
  switch (sim_os_map(path, buf, sizeof buf, &dev)) {
  case SIM_PATH_DEVICE:
    errno = ENODATA;
    return -1;
  case SIM_PATH_REDIRECT:
    return SIM_REAL(getxattr)(buf, name, value, size);
  default:
    return SIM_REAL(getxattr)(path, name, value, size);
  }
}

SIM_EXPORT ssize_t lgetxattr(const char *path, const char *name, void *value, size_t size)
{
  char buf[PATH_MAX];
  struct sim_devnode dev;
  switch (sim_os_map(path, buf, sizeof buf, &dev)) {
  case SIM_PATH_DEVICE:
    errno = ENODATA;
    return -1;
  case SIM_PATH_REDIRECT:
    return SIM_REAL(lgetxattr)(buf, name, value, size);
  default:
    return SIM_REAL(lgetxattr)(path, name, value, size);
  }
}

SIM_EXPORT ssize_t listxattr(const char *path, char *list, size_t size)
{
  char buf[PATH_MAX];
  struct sim_devnode dev;
  switch (sim_os_map(path, buf, sizeof buf, &dev)) {
  case SIM_PATH_DEVICE:
    return 0;
  case SIM_PATH_REDIRECT:
    return SIM_REAL(listxattr)(buf, list, size);
  default:
    return SIM_REAL(listxattr)(path, list, size);
  }
}

SIM_EXPORT ssize_t llistxattr(const char *path, char *list, size_t size)
{
  char buf[PATH_MAX];
  struct sim_devnode dev;
  switch (sim_os_map(path, buf, sizeof buf, &dev)) {
  case SIM_PATH_DEVICE:
    return 0;
  case SIM_PATH_REDIRECT:
    return SIM_REAL(llistxattr)(buf, list, size);
  default:
    return SIM_REAL(llistxattr)(path, list, size);
  }
}
