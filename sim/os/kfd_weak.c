/* kfd_weak.c — TEMPORARY stand-ins for the driver model (sim/kfd, built in parallel) so
 * that libhsa-sim.so links before it exists: every entry point answers -ENOSYS. Remove this
 * file once sim/kfd defines these functions. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>

#include "sim.h"

#define WEAK __attribute__((weak))

WEAK int sim_kfd_open(void) { return 0; }
WEAK int sim_kfd_ioctl(unsigned long request, void *arg) { (void)request, (void)arg; return -ENOSYS; }
WEAK void *sim_kfd_mmap(void *addr, size_t len, int prot, int flags, off_t offset, int *err)
{
  (void)addr, (void)len, (void)prot, (void)flags, (void)offset;
  *err = ENOSYS;
  return MAP_FAILED;
}
WEAK int sim_kfd_munmap(void *addr, size_t len) { (void)addr, (void)len; return 0; }
WEAK void sim_kfd_close(void) {}
WEAK int sim_drm_ioctl(struct sim_gpu *gpu, unsigned long request, void *arg)
{
  (void)gpu, (void)request, (void)arg;
  return -ENOSYS;
}
WEAK void *sim_drm_mmap(struct sim_gpu *gpu, void *addr, size_t len, int prot, int flags,
                        off_t offset, int *err)
{
  (void)gpu, (void)addr, (void)len, (void)prot, (void)flags, (void)offset;
  *err = ENOSYS;
  return MAP_FAILED;
}
WEAK void sim_trace(const char *fmt, ...)
{
  const struct sim_config *c = sim_config();
  if (c->trace_fd < 0)
    return;
  va_list ap;
  va_start(ap, fmt);
  vdprintf(c->trace_fd, fmt, ap);
  va_end(ap);
}
