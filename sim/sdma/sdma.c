/* SPDX-License-Identifier: MIT */
/* sdma.c — an SDMA v4 (gfx9), v6 (gfx11) or v7 (gfx12) queue: a ring of dword packets, read and write pointers in bytes
 * that only grow (64-bit, the ring offset is the pointer modulo the ring size); the doorbell
 * carries the write pointer, and the engine writes its read pointer back to the read pointer
 * address after every packet. This file frames the packet at the read pointer (its length
 * comes from its header, and for WRITE from its count) and hands it to packet.c / copy.c.
 *
 * A packet the engine cannot run stops the queue there, as the hardware stops on an illegal
 * command. The hardware raises its illegal-command interrupt, which amdgpu only logs for a
 * user queue; the queue is then hung, and the driver's hang recovery resets the GPU and sets
 * every HW exception event of the processes using it (kfd_signal_reset_event). hsa-sim does
 * the reset at once, and says on stderr which packet at which ring offset it was and why:
 * never a silent stop. */
#include "sdma/sdma.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_STACK_DWORDS 64

/* Whether `h` names a sub-op of its opcode the engine runs; else *why says what it is. Only
 * what the engine then frames and runs passes: a sub-op the hardware has (tiled writes,
 * POLL_REGMEM's write/verify forms…) but this model does not is refused like one it lacks. */
static bool sub_op_known(uint32_t h, const char **why)
{
  uint32_t sub = sdma_sub_op(h);
  switch (sdma_op(h)) {
  case SDMA_GCR_REQ:
    if (sub <= 1)
      return true;
    *why = "GCR_REQ sub-op above 1 is undefined";
    return false;
  case SDMA_COPY:
    if (sub == SDMA_COPY_LINEAR || sub == SDMA_COPY_SUB_WINDOW)
      return true;
    *why = sub <= 8 ? "COPY sub-op not modelled (tiled, T2T, SOA, dirty-page or physical copy)"
                    : "COPY sub-op undefined";
    return false;
  case SDMA_WRITE:
    if (sub == 0)
      return true;
    *why = sub == 1 ? "WRITE sub-op 1 (tiled) is not modelled" : "WRITE sub-op undefined";
    return false;
  case SDMA_POLL_REGMEM:
    if (sub == 0)
      return true;
    *why = sub <= 3 ? "POLL_REGMEM sub-op 1-3 (register write to memory, dirty bit, memory "
                      "verify) is not modelled"
                    : "POLL_REGMEM sub-op undefined";
    return false;
  case SDMA_TIMESTAMP:
    if (sub <= 2)
      return true;
    *why = "TIMESTAMP sub-op above 2 is undefined";
    return false;
  default:   /* NOP, FENCE, TRAP, ATOMIC, CONST_FILL, SRBM_WRITE: sub-op 0 only */
    if (sub == 0)
      return true;
    *why = "sub-op undefined for this opcode (only 0 is)";
    return false;
  }
}

/* Packet length in dwords from its header (and, for WRITE, its count dw3); 0 if the engine
 * cannot frame it, with *why. */
static uint32_t packet_dwords(unsigned ver, uint32_t h, uint32_t dw3, const char **why)
{
  if (sdma_op(h) == SDMA_GCR_REQ && ver < 5) {
    *why = "not an SDMA v4 opcode (GCR_REQ is SDMA v5+, gfx10+)";
    return 0;
  }
  switch (sdma_op(h)) {
  case SDMA_GCR_REQ:
  case SDMA_NOP:
  case SDMA_COPY:
  case SDMA_WRITE:
  case SDMA_FENCE:
  case SDMA_TRAP:
  case SDMA_POLL_REGMEM:
  case SDMA_ATOMIC:
  case SDMA_CONST_FILL:
  case SDMA_TIMESTAMP:
  case SDMA_SRBM_WRITE:
    if (!sub_op_known(h, why))
      return 0;
    break;
  case SDMA_INDIRECT:
  case SDMA_SEM:
  case SDMA_COND_EXE:
  case SDMA_PTEPDE:
  case SDMA_PRE_EXE:
  case SDMA_DUMMY_TRAP:
    *why = "an SDMA v4 opcode that is not modelled (INDIRECT, SEM, COND_EXE, PTEPDE, PRE_EXE, "
           "DUMMY_TRAP: none is sent by ROCR or this runtime)";
    return 0;
  default:
    *why = "not an SDMA v4 opcode";
    return 0;
  }
  switch (sdma_op(h)) {
  case SDMA_NOP: return 1 + ((h >> 16) & 0x3fff);
  case SDMA_COPY:
    if (sdma_sub_op(h) == SDMA_COPY_LINEAR)
      return (h & SDMA_COPY_BROADCAST) ? 9 : 7;   /* broadcast: two destinations */
    return 13;
  case SDMA_WRITE: return 4 + (dw3 & 0xfffff) + 1;
  case SDMA_FENCE: return 4;
  case SDMA_TRAP: return 2;
  case SDMA_POLL_REGMEM: return 6;
  case SDMA_ATOMIC: return 8;
  case SDMA_CONST_FILL: return 5;
  case SDMA_TIMESTAMP: return 3;
  case SDMA_GCR_REQ: return 5;
  default: return 3;   /* SRBM_WRITE */
  }
}

static enum cp_step refuse(struct cp_queue *cq, uint64_t rptr, uint32_t h, const char *why)
{
  struct sim_gpu *gpu = cq->gpu;
  unsigned long long off = (unsigned long long)(rptr % cq->ring_size);
  dprintf(2, "hsa-sim: GPU 0x%x SDMA queue %u stopped at ring offset 0x%llx, packet header "
             "0x%08" PRIx32 " (op %" PRIu32 ", sub-op %" PRIu32 "): %s. The driver resets the "
             "GPU (HW exception event).\n",
          gpu->gpu_id, cq->mqd->queue_id, off, h, sdma_op(h), sdma_sub_op(h), why);
  sim_trace("sdma: queue %u stops at ring offset 0x%llx: header 0x%08x: %s", cq->mqd->queue_id, off, h,
            why);
  cq->halted = true;
  sim_cp_gpu_hang(gpu);
  return CP_HALTED;
}

enum cp_step sdma_step(struct cp_queue *cq)
{
  struct sim_gpu *gpu = cq->gpu;
  uint64_t wptr = __atomic_load_n(cq->doorbell, __ATOMIC_ACQUIRE);
  uint64_t *rp = sim_vm_translate(gpu, cq->rptr, 8);
  if (!rp || (cq->rptr & 7)) {
    sim_cp_vm_fault(gpu, cq->rptr, true);
    return CP_HALTED;
  }
  uint64_t rptr = __atomic_load_n(rp, __ATOMIC_ACQUIRE);
  if (rptr >= wptr || (rptr & 3))
    return CP_IDLE;
  uint64_t size = cq->ring_size;
  const uint32_t *ring = sim_vm_translate(gpu, cq->ring, size);
  if (!ring) {
    sim_cp_vm_fault(gpu, cq->ring, false);
    return CP_HALTED;
  }
  uint64_t ndw = size / 4, avail = (wptr - rptr) / 4;
  uint64_t at = (rptr % size) / 4;
  uint32_t h = ring[at];
  if (sdma_op(h) == SDMA_WRITE && avail < 4)
    return CP_IDLE;   /* its length is in dw3, not submitted yet */
  const char *why = NULL;
  unsigned ver = sim_model_sdma_major(gpu->model);
  uint32_t n = packet_dwords(ver, h, ring[(at + 3) % ndw], &why);
  if (!n)
    return refuse(cq, rptr, h, why);
  if (n > ndw)
    return refuse(cq, rptr, h, "the packet is longer than the ring");
  if (avail < n)
    return CP_IDLE;   /* the rest of the packet is not submitted yet */
  uint32_t small[MAX_STACK_DWORDS];
  uint32_t *buf = n <= MAX_STACK_DWORDS ? small : malloc(4ull * n);
  if (!buf)
    return CP_BLOCKED;   /* retried: host memory, not the packet, is short */
  for (uint32_t i = 0; i < n; i++)
    buf[i] = ring[(at + i) % ndw];
  struct sdma_pkt p = { buf, ver, n, NULL };
  enum sdma_res r = sdma_execute(cq, &p);
  if (buf != small)
    free(buf);
  switch (r) {
  case SDMA_DONE:
    __atomic_store_n(rp, rptr + 4ull * n, __ATOMIC_RELEASE);
    return CP_WORK;
  case SDMA_WAIT:
    return CP_BLOCKED;
  case SDMA_FAULT:
    cq->halted = true;
    return CP_HALTED;
  default:
    return refuse(cq, rptr, h, p.why);
  }
}
