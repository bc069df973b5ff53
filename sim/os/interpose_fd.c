/* SPDX-License-Identifier: MIT */
/* interpose_fd.c — close, dup and fcntl keep the device fd table in step with the kernel's
 * fd table; the last /dev/kfd descriptor going away releases the KFD process. */
#undef _FORTIFY_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <unistd.h>

#include "os/real.h"
#include "os/world.h"

int fcntl64(int fd, int cmd, ...);

static void released(enum sim_dev_type type, int last_kfd)
{
  if (type == SIM_DEV_KFD && last_kfd)
    sim_kfd_close();
}

SIM_EXPORT int close(int fd)
{
  int last = 0;
  enum sim_dev_type t = sim_fd_remove(fd, &last);
  int r = SIM_REAL(close)(fd);
  int e = errno;
  released(t, last);
  errno = e;
  return r;
}

SIM_EXPORT int dup(int fd)
{
  int r = SIM_REAL(dup)(fd);
  if (r >= 0)
    sim_fd_dup(fd, r, NULL, NULL);
  return r;
}

static int dup_onto(int oldfd, int newfd, int r)
{
  if (r >= 0) {
    enum sim_dev_type t;
    int last;
    int e = errno;
    sim_fd_dup(oldfd, newfd, &t, &last);
    released(t, last);
    errno = e;
  }
  return r;
}

SIM_EXPORT int dup2(int oldfd, int newfd)
{
  return dup_onto(oldfd, newfd, SIM_REAL(dup2)(oldfd, newfd));
}

SIM_EXPORT int dup3(int oldfd, int newfd, int flags)
{
  return dup_onto(oldfd, newfd, SIM_REAL(dup3)(oldfd, newfd, flags));
}

/* fcntl's third argument is an int, a pointer or absent depending on cmd. */
static int fcntl_any(int fd, int cmd, va_list ap, int (*real)(int, int, ...))
{
  switch (cmd) {
  case F_DUPFD:
  case F_DUPFD_CLOEXEC: {
    int min = va_arg(ap, int);
    int r = real(fd, cmd, min);
    if (r >= 0) {
      int e = errno;
      sim_fd_dup(fd, r, NULL, NULL);
      errno = e;
    }
    return r;
  }
  case F_GETFD: case F_GETFL: case F_GETOWN: case F_GETSIG: case F_GETLEASE:
  case F_GETPIPE_SZ: case F_GET_SEALS:
    return real(fd, cmd);
  case F_SETFD: case F_SETFL: case F_SETOWN: case F_SETSIG: case F_SETLEASE: case F_NOTIFY:
  case F_SETPIPE_SZ: case F_ADD_SEALS:
    return real(fd, cmd, va_arg(ap, int));
  default:
    return real(fd, cmd, va_arg(ap, void *));
  }
}

SIM_EXPORT int fcntl(int fd, int cmd, ...)
{
  va_list ap;
  va_start(ap, cmd);
  int r = fcntl_any(fd, cmd, ap, SIM_REAL(fcntl));
  va_end(ap);
  return r;
}

SIM_EXPORT int fcntl64(int fd, int cmd, ...)
{
  va_list ap;
  va_start(ap, cmd);
  int r = fcntl_any(fd, cmd, ap, SIM_REAL(fcntl64));
  va_end(ap);
  return r;
}
