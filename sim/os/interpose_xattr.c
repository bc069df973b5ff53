/* SPDX-License-Identifier: MIT */
/* interpose_xattr.c — extended attributes of simulated paths (ls -l asks for ACLs and
 * security labels): redirected into the tree; device nodes have none. */
#undef _FORTIFY_SOURCE
#include <errno.h>
#include <limits.h>
#include <sys/xattr.h>

#include "os/real.h"
#include "os/world.h"

/* The path the real call gets: the tree's for a redirected one, path itself for one passed
 * through; NULL for a device node (it has none) */
static const char *xattr_path(const char *path, char *buf, size_t len)
{
  struct sim_devnode dev;
  switch (sim_os_map(path, buf, len, &dev)) {
  case SIM_PATH_DEVICE: return NULL;
  case SIM_PATH_REDIRECT: return buf;
  default: return path;
  }
}

/* A device node: no attribute (ENODATA), an empty list */
SIM_EXPORT ssize_t getxattr(const char *path, const char *name, void *value, size_t size)
{
  char buf[PATH_MAX];
  const char *p = xattr_path(path, buf, sizeof buf);
  if (p) return SIM_REAL(getxattr)(p, name, value, size);
  errno = ENODATA;
  return -1;
}

SIM_EXPORT ssize_t lgetxattr(const char *path, const char *name, void *value, size_t size)
{
  char buf[PATH_MAX];
  const char *p = xattr_path(path, buf, sizeof buf);
  if (p) return SIM_REAL(lgetxattr)(p, name, value, size);
  errno = ENODATA;
  return -1;
}

SIM_EXPORT ssize_t listxattr(const char *path, char *list, size_t size)
{
  char buf[PATH_MAX];
  const char *p = xattr_path(path, buf, sizeof buf);
  return p ? SIM_REAL(listxattr)(p, list, size) : 0;
}

SIM_EXPORT ssize_t llistxattr(const char *path, char *list, size_t size)
{
  char buf[PATH_MAX];
  const char *p = xattr_path(path, buf, sizeof buf);
  return p ? SIM_REAL(llistxattr)(p, list, size) : 0;
}
