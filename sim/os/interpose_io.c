/* SPDX-License-Identifier: MIT */
/* interpose_io.c — ioctl and mmap on simulated device fds go to the driver model (sim/kfd);
 * on every other fd they pass through. munmap tells the model first, then unmaps; mprotect
 * tells it after. */
#undef _FORTIFY_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "os/real.h"
#include "os/world.h"

SIM_EXPORT int ioctl(int fd, unsigned long request, ...)
{
  va_list ap;
  va_start(ap, request);
  void *arg = va_arg(ap, void *);
  va_end(ap);
  struct sim_fd e;
  if (!sim_fd_lookup(fd, &e))
    return SIM_REAL(ioctl)(fd, request, arg);
  int r = e.type == SIM_DEV_KFD ? sim_kfd_ioctl(request, arg) : sim_drm_ioctl(e.gpu, request, arg);
  if (r < 0) {
    errno = -r;
    return -1;
  }
  return r;
}

static void *map(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
  struct sim_fd e;
  if ((flags & MAP_ANONYMOUS) || !sim_fd_lookup(fd, &e))
    return SIM_REAL(mmap)(addr, len, prot, flags, fd, off);
  int err = 0;
  void *p = e.type == SIM_DEV_KFD ? sim_kfd_mmap(addr, len, prot, flags, off, &err)
                                  : sim_drm_mmap(e.gpu, addr, len, prot, flags, off, &err);
  if (p == MAP_FAILED)
    errno = err ? err : EINVAL;
  return p;
}

SIM_EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
  return map(addr, len, prot, flags, fd, off);
}

SIM_EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
  return map(addr, len, prot, flags, fd, (off_t)off);
}

SIM_EXPORT int mprotect(void *addr, size_t len, int prot)
{
  int r = SIM_REAL(mprotect)(addr, len, prot);
  if (r == 0)
    sim_kfd_mprotected(addr, len);
  return r;
}

SIM_EXPORT int munmap(void *addr, size_t len)
{
  int r = sim_kfd_munmap(addr, len);
  if (r < 0) {
    errno = -r;
    return -1;
  }
  return SIM_REAL(munmap)(addr, len);
}
