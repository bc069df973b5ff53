/* SPDX-License-Identifier: MIT */
/* aql.c — AQL packet processing for one compute queue, in order from the read index.
 *
 * The header bounds the processing, not the doorbell's value. Producers sharing a queue ring
 * with their own packet ids and the stores land in any order, so the last value may be lower
 * than one the CP never saw (two packets, doorbell 1 then 0). That is legal: hsa.h lets a
 * MULTI queue's doorbell take any value, and ROCR orders doorbells (a lock, backward values
 * dropped) only for gfx7/8, storing them as they come for gfx9's "AQL semantics" doorbell.
 * A producer publishes a packet by storing its header last, and the CP hands each slot back
 * INVALID once done, so a valid header at the read index is always a published packet: the
 * CP runs every one, and a doorbell store of any value only wakes it. A header still INVALID
 * stops the queue: its producer reserved the slot and rings after publishing it.
 * After a packet the slot's header is set back to INVALID, the read index advances, and then
 * the completion signal is decremented and its event raised — what the CP's end-of-pipe does.
 * Packets run to completion one at a time, so the barrier bit is always satisfied. */
#include "cp/aql.h"

#include <stdatomic.h>
#include <string.h>

#define PKT_INVALID 1
#define PKT_VENDOR 0
#define PKT_DISPATCH 2
#define PKT_BARRIER_AND 3
#define PKT_AGENT_DISPATCH 4
#define PKT_BARRIER_OR 5

#define AMD_FORMAT_PM4_IB 1
#define AMD_FORMAT_BARRIER_VALUE 2

enum { COND_EQ, COND_NE, COND_LT, COND_GTE };

static uint64_t load64(const void *p)
{
  return __atomic_load_n((const uint64_t *)p, __ATOMIC_ACQUIRE);
}

void cp_queue_error(struct cp_queue *cq, uint64_t amd_queue, uint32_t code)
{
  sim_trace("cp: queue %u error 0x%x", cq->mqd->queue_id, code);
  cq->halted = true;
  uint64_t *sig = amd_queue ? sim_vm_translate(cq->gpu, amd_queue + AMD_QUEUE_INACTIVE_SIGNAL, 8)
                            : NULL;
  uint64_t handle = sig ? load64(sig) : 0;
  if (handle)
    sim_cp_signal_complete(cq->gpu, handle, true, code);
}

/* Barrier-AND: every non-null dependency is 0; barrier-OR: any is (or there is none). */
static bool barrier_ready(struct cp_queue *cq, const uint8_t *pkt, bool any, bool *fault)
{
  bool seen = false;
  for (unsigned i = 0; i < 5; i++) {
    uint64_t h = load64(pkt + 8 + 8 * i);
    if (!h)
      continue;
    seen = true;
    int64_t v;
    if (!sim_cp_signal_load(cq->gpu, h, &v)) {
      *fault = true;
      return false;
    }
    if (any && v == 0)
      return true;
    if (!any && v != 0)
      return false;
  }
  return !any || !seen;
}

static bool value_ready(struct cp_queue *cq, const uint8_t *pkt, bool *fault)
{
  uint64_t h = load64(pkt + 8);
  int64_t want, mask, v;
  uint32_t cond;
  memcpy(&want, pkt + 16, 8);
  memcpy(&mask, pkt + 24, 8);
  memcpy(&cond, pkt + 32, 4);
  if (!sim_cp_signal_load(cq->gpu, h, &v)) {
    *fault = true;
    return false;
  }
  v &= mask;
  switch (cond) {
  case COND_EQ: return v == want;
  case COND_NE: return v != want;
  case COND_LT: return v < want;
  case COND_GTE: return v >= want;
  }
  return true;   /* unreachable: checked before */
}

enum cp_step cp_aql_step(struct cp_queue *cq)
{
  struct sim_gpu *gpu = cq->gpu;
  uint64_t *rptr = sim_vm_translate(gpu, cq->rptr, 8);
  if (!rptr || (cq->rptr & 7)) {
    sim_cp_vm_fault(gpu, cq->rptr, false);
    return CP_HALTED;
  }
  uint64_t amd_queue = cq->rptr - AMD_QUEUE_READ_DISPATCH_ID;
  uint64_t rd = load64(rptr);
  uint64_t slots = cq->ring_size / 64;
  uint64_t pkt_va = cq->ring + (rd % slots) * 64;
  uint8_t *pkt = sim_vm_translate(gpu, pkt_va, 64);
  if (!pkt) {
    sim_cp_vm_fault(gpu, pkt_va, false);
    return CP_HALTED;
  }
  uint16_t header = __atomic_load_n((uint16_t *)pkt, __ATOMIC_ACQUIRE);
  unsigned type = header & 0xff;
  if (type == PKT_INVALID)
    return CP_IDLE;

  if (cq->scratch_wait) {   /* the runtime answers a scratch request by zeroing the signal */
    int64_t v;
    if (!sim_cp_signal_load(gpu, cq->scratch_signal, &v))
      return CP_HALTED;
    if (v != 0) {
      /* -1: the runtime gave up on the queue; other values (the request, or it with bit 63
       * while the runtime waits for scratch to be released) mean "not yet" */
      if (v == -1) {
        cq->halted = true;
        return CP_HALTED;
      }
      return CP_BLOCKED;
    }
    cq->scratch_wait = false;
  }

  uint64_t start = sim_cp_now();
  bool fault = false;
  uint64_t completion = load64(pkt + 56);
  switch (type) {
  case PKT_DISPATCH: {
    uint32_t err = 0;
    enum cp_dispatch_result d = cp_dispatch(cq, pkt, pkt_va, amd_queue, rd, &err);
    if (d == CP_DISPATCH_SCRATCH) {
      uint64_t *sig = sim_vm_translate(gpu, amd_queue + AMD_QUEUE_INACTIVE_SIGNAL, 8);
      cq->scratch_signal = sig ? load64(sig) : 0;
      if (!cq->scratch_signal) {
        cp_queue_error(cq, amd_queue, err);
        return CP_HALTED;
      }
      cq->scratch_wait = true;
      sim_trace("cp: queue %u asks for scratch (code 0x%x)", cq->mqd->queue_id, err);
      sim_cp_signal_complete(gpu, cq->scratch_signal, true, err);
      return CP_BLOCKED;
    }
    if (d == CP_DISPATCH_ERROR) {
      cp_queue_error(cq, amd_queue, err);
      return CP_HALTED;
    }
    if (d == CP_DISPATCH_FAULT)
      return CP_HALTED;
    if (d == CP_DISPATCH_HALTED) {   /* the CP waits for it until the queue goes */
      cq->halted = true;
      return CP_HALTED;
    }
    break;
  }
  case PKT_BARRIER_AND:
  case PKT_BARRIER_OR:
    if (!barrier_ready(cq, pkt, type == PKT_BARRIER_OR, &fault))
      return fault ? CP_HALTED : CP_BLOCKED;
    break;
  case PKT_VENDOR: {
    uint8_t format = pkt[2];
    if (format == AMD_FORMAT_BARRIER_VALUE) {
      uint32_t cond;
      memcpy(&cond, pkt + 32, 4);
      if (cond > COND_GTE) {
        cp_queue_error(cq, amd_queue, CP_ERR_VENDOR_PACKET);
        return CP_HALTED;
      }
      if (!value_ready(cq, pkt, &fault))
        return fault ? CP_HALTED : CP_BLOCKED;
    } else if (format == AMD_FORMAT_PM4_IB) {
      enum cp_step s = cp_pm4_slot(cq, pkt, amd_queue);
      if (s != CP_WORK)
        return s;
    } else {
      cp_queue_error(cq, amd_queue, CP_ERR_VENDOR_PACKET);
      return CP_HALTED;
    }
    break;
  }
  default:   /* agent dispatch is for agents that are not this GPU; the rest are undefined */
    cp_queue_error(cq, amd_queue, CP_ERR_INVALID_PACKET);
    return CP_HALTED;
  }

  /* end of packet: free the slot, move the read index, then complete (release semantics:
   * everything the packet did is visible before any of these) */
  atomic_thread_fence(memory_order_release);
  __atomic_store_n((uint16_t *)pkt, (uint16_t)((header & ~0xffu) | PKT_INVALID), __ATOMIC_RELEASE);
  __atomic_store_n(rptr, rd + 1, __ATOMIC_RELEASE);
  if (completion) {
    uint32_t *props = sim_vm_translate(gpu, amd_queue + AMD_QUEUE_PROPERTIES, 4);
    if (props && (__atomic_load_n(props, __ATOMIC_RELAXED) & AMD_QUEUE_PROP_PROFILING)) {
      uint64_t *ts = sim_vm_translate(gpu, completion + AMD_SIGNAL_START_TS, 16);
      if (ts) {
        ts[0] = start;
        ts[1] = sim_cp_now();
      }
    }
    if (!sim_cp_signal_complete(gpu, completion, false, 0))
      return CP_HALTED;
  }
  return CP_WORK;
}
