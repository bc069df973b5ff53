/* SPDX-License-Identifier: MIT */
/* qbufs.c — the queue buffer checks of 6.12+ kernels (kfd_queue.c), for the boards whose
 * catalogue entry says their kernel has them: every buffer a queue names must be the whole
 * of one GPU mapping on that device, of the size the node dictates, so the driver can pin
 * it for the queue's life. Refused with -EINVAL, as the kernel does. Not modelled: the SVM
 * range fallback for the CWSR area and the pin itself (freeing a queue buffer early).
 * On MES boards (gfx11+) the write pointer's buffer must also be one the scheduler can reach
 * through the GART (kfd_chardev.c). */
#include "kfd/kfd.h"

#include <errno.h>

/* 0 when [va, va + size) is exactly one buffer mapped on pdd's GPU (size 0: any size),
 * compared in GPU pages as the kernel compares mappings. Caller holds p->lock. */
static int whole_mapping(struct sim_kfd_process *p, struct sim_pdd *pdd, uint64_t va,
                         uint64_t size)
{
  uint64_t pg = va / SIM_PAGE;
  for (struct sim_bo *b = p->bos; b; b = b->next) {
    if (!(b->mapped & (1u << pdd->gpu->index)) || va < b->va || va - b->va >= b->size)
      continue;
    uint64_t first = b->va / SIM_PAGE, last = (b->va + b->size - 1) / SIM_PAGE;
    if (pg != first || (size / SIM_PAGE && pg + size / SIM_PAGE - 1 != last))
      return -EINVAL;
    return 0;
  }
  return -EINVAL;   /* nothing mapped there on this GPU */
}

/* MES (gfx11+, kfd_ioctl_create_queue): the scheduler reads the write pointer through the
 * GART, so the driver looks up the buffer mapped at it in this device's VM and maps that to
 * the GART: nothing mapped there, a buffer of more than one page, or one that belongs to
 * another device is -EINVAL. System memory allocated on another GPU and mapped here is that
 * GPU's buffer where the kernel shares it (RAM direct-mapped or one IOMMU group, the usual
 * desktop), so it is refused too; another GPU's VRAM is imported as a buffer of this one. */
static int mes_wptr_check(struct sim_kfd_process *p, struct sim_pdd *pdd, uint64_t wptr)
{
  for (struct sim_bo *b = p->bos; b; b = b->next) {
    if (!(b->mapped & (1u << pdd->gpu->index)) || wptr < b->va || wptr - b->va >= b->size)
      continue;
    if (b->size > SIM_PAGE)
      return -EINVAL;   /* "GART mapping for wptr bo larger than one page" */
    bool system = b->flags & (KFD_IOC_ALLOC_MEM_FLAGS_GTT | KFD_IOC_ALLOC_MEM_FLAGS_USERPTR);
    if (system && b->pdd != pdd)
      return -EINVAL;   /* "Queue memory allocated to wrong device" */
    return 0;
  }
  return -EINVAL;       /* "Failed to lookup wptr bo" */
}

int sim_queue_buffers_check(struct sim_kfd_process *p, struct sim_pdd *pdd,
                            const struct kfd_ioctl_create_queue_args *a)
{
  const struct sim_gpu_model *m = pdd->gpu->model;
  if (m->mes && mes_wptr_check(p, pdd, a->write_pointer_address))
    return -EINVAL;
  if (!m->queue_buffer_checks)
    return 0;
  struct sim_queue_sizes qs;
  sim_model_queue_sizes(m, &qs);
  if (whole_mapping(p, pdd, a->write_pointer_address, SIM_PAGE) ||
      whole_mapping(p, pdd, a->read_pointer_address, SIM_PAGE) ||
      whole_mapping(p, pdd, a->ring_base_address, a->ring_size))
    return -EINVAL;
  if (a->queue_type != KFD_IOC_QUEUE_TYPE_COMPUTE && a->queue_type != KFD_IOC_QUEUE_TYPE_COMPUTE_AQL)
    return 0;   /* EOP and CWSR belong to compute queues only */
  if (a->eop_buffer_address &&
      (a->eop_buffer_size != qs.eop_size ||
       whole_mapping(p, pdd, a->eop_buffer_address, a->eop_buffer_size)))
    return -EINVAL;
  if (a->ctl_stack_size != qs.ctl_stack_size || a->ctx_save_restore_size != qs.cwsr_size)
    return -EINVAL;
  /* the area holds every XCC's save area and debugger bytes */
  return whole_mapping(p, pdd, a->ctx_save_restore_address, qs.cwsr_total);
}
