/* SPDX-License-Identifier: MIT */
/* mqd.c — a queue's hardware descriptor (struct sim_mqd, cp/cp.h) filled from its
 * properties, as the kernel's MQD managers do at creation (init_mqd) and on UPDATE_QUEUE or
 * SET_CU_MASK (update_mqd); and the scheduler's eviction of a process's queues on one GPU.
 * The engines (sim/cp, sim/sdma) read only the MQD and the per-device qpd. */
#include "kfd/kfd.h"

#include <string.h>

static enum sim_mqd_format queue_format(uint32_t type)
{
  if (type == KFD_IOC_QUEUE_TYPE_SDMA || type == KFD_IOC_QUEUE_TYPE_SDMA_XGMI)
    return SIM_MQD_SDMA;
  /* the kernel gives COMPUTE queues the PM4 format, COMPUTE_AQL the AQL one */
  return type == KFD_IOC_QUEUE_TYPE_COMPUTE ? SIM_MQD_PM4 : SIM_MQD_AQL;
}

void sim_mqd_init(struct sim_queue *q)
{
  struct sim_mqd *m = &q->mqd;
  struct sim_pdd *pdd = q->pdd;
  m->qpd = &pdd->qpd;
  m->queue_id = q->id;
  m->format = queue_format(q->type);
  m->sdma_engine = q->sdma_engine;
  m->sdma_queue = q->sdma_queue;
  m->doorbell_id = q->doorbell_id;
  m->doorbell = (volatile uint64_t *)((char *)pdd->doorbells +
                                      (uint64_t)q->doorbell_id * SIM_DOORBELL_SIZE);
  m->doorbell_page = (pdd->doorbells_off + (uint64_t)q->doorbell_id * SIM_DOORBELL_SIZE) &
                     ~(SIM_PAGE - 1);
  sim_mqd_update(q);
}

void sim_mqd_update(struct sim_queue *q)
{
  struct sim_mqd *m = &q->mqd;
  m->ring = q->ring;
  m->rptr = q->rptr;
  m->wptr = q->wptr;
  m->ring_size = q->ring_size;
  m->priority = q->priority;
  m->active = q->ring && q->ring_size && q->percent;
  memcpy(m->cu_mask, q->cu_mask, sizeof m->cu_mask);
  m->cu_mask_count = q->cu_mask_count;
}

void sim_kfd_evict_queues(struct sim_kfd_process *p, struct sim_gpu *gpu)
{
  for (unsigned i = 0; i < p->n_pdds; i++)
    if (p->pdds[i].gpu == gpu)
      __atomic_store_n(&p->pdds[i].qpd.evicted, true, __ATOMIC_RELEASE);
  sim_vm_changed();
}
