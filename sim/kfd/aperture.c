/* SPDX-License-Identifier: MIT */
/* aperture.c — GET_PROCESS_APERTURES(_NEW) and ACQUIRE_VM. Every GPU of the system has a
 * per-process part from the start (the kernel creates them at open); a GPU becomes usable
 * for memory and queues once the runtime hands over a VM by passing an open render node of
 * that GPU. The same file may be handed over again; another file is EBUSY. */
#include "kfd/kfd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static void fill(const struct sim_pdd *pdd, struct kfd_process_device_apertures *a)
{
  a->gpu_id = pdd->gpu->gpu_id;
  a->lds_base = pdd->qpd.lds_base;
  a->lds_limit = pdd->qpd.lds_limit;
  a->gpuvm_base = pdd->gpuvm_base;
  a->gpuvm_limit = pdd->gpuvm_limit;
  a->scratch_base = pdd->qpd.scratch_base;
  a->scratch_limit = pdd->qpd.scratch_limit;
  a->pad = 0;
}

int sim_kfd_get_apertures(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_get_process_apertures_args *a = data;
  a->num_of_nodes = 0;
  pthread_mutex_lock(&p->lock);
  for (unsigned i = 0; i < p->n_pdds && a->num_of_nodes < NUM_OF_SUPPORTED_GPUS; i++)
    fill(&p->pdds[i], &a->process_apertures[a->num_of_nodes++]);
  pthread_mutex_unlock(&p->lock);
  return 0;
}

int sim_kfd_get_apertures_new(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_get_process_apertures_new_args *a = data;
  if (a->num_of_nodes == 0) {   /* a query of how many entries to allocate */
    a->num_of_nodes = p->n_pdds;
    return 0;
  }
  unsigned n = a->num_of_nodes < p->n_pdds ? a->num_of_nodes : p->n_pdds;
  struct kfd_process_device_apertures pa[SIM_MAX_GPUS];
  pthread_mutex_lock(&p->lock);
  for (unsigned i = 0; i < n; i++)
    fill(&p->pdds[i], &pa[i]);
  pthread_mutex_unlock(&p->lock);
  a->num_of_nodes = n;
  return sim_copy_to_user(a->kfd_process_device_apertures_ptr, pa, n * sizeof pa[0]) ? -EFAULT
                                                                                      : 0;
}

int sim_kfd_acquire_vm(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_acquire_vm_args *a = data;
  int fd = (int)a->drm_fd;
  struct stat st;
  /* the real identity of the open file (sim/os dresses fstat up as a device) */
  if (fd < 0 || syscall(SYS_fstat, fd, &st) != 0)
    return -EINVAL;
  int r = 0;
  pthread_mutex_lock(&p->lock);
  struct sim_pdd *pdd = sim_pdd_by_id(p, a->gpu_id);
  if (!pdd)
    r = -EINVAL;
  else if (pdd->vm)
    r = pdd->drm_dev == st.st_dev && pdd->drm_ino == st.st_ino ? 0 : -EBUSY;
  else if (sim_os_gpu_of_fd(fd) != pdd->gpu)
    r = -EINVAL;   /* not an amdgpu render node of this GPU */
  else {
    for (unsigned i = 0; i < p->n_pdds; i++)
      if (p->pdds[i].vm && p->pdds[i].drm_dev == st.st_dev && p->pdds[i].drm_ino == st.st_ino)
        r = -EINVAL;   /* that VM is already a compute VM */
    if (!r) {
      pdd->vm = true;
      pdd->drm_dev = st.st_dev;
      pdd->drm_ino = st.st_ino;
    }
  }
  pthread_mutex_unlock(&p->lock);
  return r;
}
