/* SPDX-License-Identifier: MIT */
/* pm4q.c — a PM4 ring queue (KFD_IOC_QUEUE_TYPE_COMPUTE, the PM4 format the kernel gives it),
 * with the pointer rules of the kernel's gfx9 MQD (kfd_mqd_manager_v9.c) and the CP:
 *  - the ring is ring_size bytes of dwords; a new queue starts with read and write pointer 0;
 *  - the write pointer is 64-bit, in dwords, never wrapped: the value the program stores in
 *    its doorbell (it keeps a copy at the write-pointer address, which the CP reads only when
 *    a queue is mapped again; the model never unmaps one);
 *  - the CP reports its read pointer at the read-pointer address as 32 bits, in dwords,
 *    wrapped at the ring size (RPTR_REPORT; no NO_UPDATE_RPTR as AQL queues have). It is the
 *    fetch pointer: a packet's dwords are free for the producer once the CP read them, before
 *    the packet ran, so a RELEASE_MEM's interrupt always finds the read pointer past it;
 *  - a packet may wrap around the ring's end; one not yet whole below the write pointer
 *    waits for more. The model fetches one packet at a time and runs it to completion before
 *    the next (pm4.c); one the CP cannot run halts the queue, the read pointer just past it. */
#include "cp/aql.h"

#include <string.h>

enum cp_step cp_pm4_queue_step(struct cp_queue *cq)
{
  struct sim_gpu *gpu = cq->gpu;
  uint64_t wptr = __atomic_load_n(cq->doorbell, __ATOMIC_ACQUIRE);
  if (wptr <= cq->pm4_rptr)
    return CP_IDLE;
  uint32_t ring_dw = cq->ring_size / 4;
  const uint32_t *ring = sim_vm_translate(gpu, cq->ring, cq->ring_size);
  if (!ring || (cq->ring & 3) || ring_dw < 2) {
    sim_cp_vm_fault(gpu, cq->ring, false);
    return CP_HALTED;
  }
  uint32_t at = (uint32_t)(cq->pm4_rptr % ring_dw);
  uint32_t h = __atomic_load_n(&ring[at], __ATOMIC_ACQUIRE);
  uint32_t len = cp_pm4_packet_dwords(h);
  if (!len || len > ring_dw) {
    cp_pm4_error(cq, 0, len ? "packet longer than the ring" : "packet type not taken", h);
    return CP_HALTED;
  }
  if (len > wptr - cq->pm4_rptr)
    return CP_IDLE;   /* the rest of the packet is not submitted yet */
  for (uint32_t i = 0; i < len; i++)
    cq->pm4_pkt[i] = __atomic_load_n(&ring[(at + i) % ring_dw], __ATOMIC_RELAXED);
  cq->pm4_rptr += len;
  uint32_t *rep = (cq->rptr & 3) ? NULL : sim_vm_translate(gpu, cq->rptr, 4);
  if (!rep) {
    sim_cp_vm_fault(gpu, cq->rptr, true);
    return CP_HALTED;
  }
  __atomic_store_n(rep, (uint32_t)(cq->pm4_rptr % ring_dw), __ATOMIC_RELEASE);
  return cp_pm4_run(cq, cq->pm4_pkt, len, 0, 0);
}
