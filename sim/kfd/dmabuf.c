/* SPDX-License-Identifier: MIT */
/* dmabuf.c — GET_DMABUF_INFO, IMPORT_DMABUF and SMI_EVENTS. The simulated devices export
 * no dma-bufs yet, so every descriptor is either closed (EBADF) or not a dma-buf
 * (EINVAL), as dma_buf_get() reports. SMI events get an event file with nothing to say. */
#include "kfd/kfd.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

static int not_a_dmabuf(int fd)
{
  return syscall(SYS_fcntl, fd, F_GETFD) < 0 ? -EBADF : -EINVAL;
}

int sim_kfd_get_dmabuf_info(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_get_dmabuf_info_args *a = data;
  return not_a_dmabuf((int)a->dmabuf_fd);
}

int sim_kfd_import_dmabuf(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_import_dmabuf_args *a = data;
  pthread_mutex_lock(&p->lock);
  struct sim_pdd *pdd = sim_pdd_by_id(p, a->gpu_id);
  pthread_mutex_unlock(&p->lock);
  if (!pdd)
    return -EINVAL;
  return not_a_dmabuf((int)a->dmabuf_fd);
}

int sim_kfd_smi_events(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_smi_events_args *a = data;
  if (!sim_pdd_by_id(p, a->gpuid))
    return -EINVAL;
  int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (fd < 0)
    return -errno;
  a->anon_fd = (uint32_t)fd;
  return 0;
}
