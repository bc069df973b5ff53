/* SPDX-License-Identifier: MIT */
/* pm4.c — the PM4 subset that reaches a compute queue through the AMD "PM4 IB" vendor AQL
 * packet (ROCR 5.2 on gfx9: dword 1-4 of the slot hold an INDIRECT_BUFFER command, dword 5
 * the count of slot dwords left to skip). Type-3 packets: header bits 31:30 = 3, 29:16 =
 * body dwords - 1, 15:8 = opcode. ROCR itself sends ACQUIRE_MEM (code cache invalidation);
 * the other opcodes are what the firmware accepts and tools send. An opcode the model does
 * not know stops the queue with the vendor-packet error rather than being skipped. */
#include "cp/aql.h"
#include "isa/isa.h"

#include <stdatomic.h>
#include <string.h>

#define OP_NOP 0x10
#define OP_WRITE_DATA 0x37
#define OP_WAIT_REG_MEM 0x3c
#define OP_INDIRECT_BUFFER 0x3f
#define OP_RELEASE_MEM 0x49
#define OP_ACQUIRE_MEM 0x58

#define MAX_IB_DEPTH 4
#define MAX_IB_DWORDS 0xfffffu

struct poll {
  struct sim_gpu *gpu;
  uint64_t addr;
  uint32_t ref, mask, fn;
  bool fault;
};

static bool poll_done(void *arg)
{
  struct poll *p = arg;
  uint32_t *m = sim_vm_translate(p->gpu, p->addr, 4);
  if (!m) {
    p->fault = true;
    return true;
  }
  return sim_cp_poll_compare(__atomic_load_n(m, __ATOMIC_ACQUIRE) & p->mask, p->fn, p->ref);
}

static bool write_mem(struct sim_gpu *gpu, uint64_t addr, const void *src, size_t n)
{
  void *m = sim_vm_translate(gpu, addr, n);
  if (!m) {
    sim_cp_vm_fault(gpu, addr, true);
    return false;
  }
  if (n == 8 && !(addr & 7))
    __atomic_store_n((uint64_t *)m, *(const uint64_t *)src, __ATOMIC_RELEASE);
  else if (n == 4 && !(addr & 3))
    __atomic_store_n((uint32_t *)m, *(const uint32_t *)src, __ATOMIC_RELEASE);
  else
    memcpy(m, src, n);
  return true;
}

/* Runs `n` dwords of PM4. Returns CP_WORK when done, CP_HALTED on a fault or error. */
static enum cp_step run(struct cp_queue *cq, const uint32_t *dw, uint32_t n, uint64_t amd_queue,
                        unsigned depth)
{
  struct sim_gpu *gpu = cq->gpu;
  uint32_t i = 0;
  while (i < n) {
    uint32_t h = dw[i];
    unsigned type = h >> 30;
    if (type == 2) {   /* type-2: a one-dword filler */
      i++;
      continue;
    }
    if (type != 3) {
      cp_queue_error(cq, amd_queue, CP_ERR_VENDOR_PACKET);
      return CP_HALTED;
    }
    uint32_t body = ((h >> 16) & 0x3fff) + 1, op = (h >> 8) & 0xff;
    if (i + 1 + body > n) {
      cp_queue_error(cq, amd_queue, CP_ERR_VENDOR_PACKET);
      return CP_HALTED;
    }
    const uint32_t *b = dw + i + 1;
    switch (op) {
    case OP_NOP:
      break;
    case OP_INDIRECT_BUFFER: {
      if (body < 3 || depth >= MAX_IB_DEPTH) {
        cp_queue_error(cq, amd_queue, CP_ERR_VENDOR_PACKET);
        return CP_HALTED;
      }
      uint64_t ib = (b[0] & ~3u) | (uint64_t)(b[1] & 0xffff) << 32;
      uint32_t size = b[2] & MAX_IB_DWORDS;
      if (!size)
        break;
      const uint32_t *ibp = sim_vm_translate(gpu, ib, (uint64_t)size * 4);
      if (!ibp) {
        sim_cp_vm_fault(gpu, ib, false);
        return CP_HALTED;
      }
      enum cp_step s = run(cq, ibp, size, amd_queue, depth + 1);
      if (s != CP_WORK)
        return s;
      break;
    }
    case OP_ACQUIRE_MEM: {
      /* caches are coherent here; an instruction/constant cache action drops predecoded code */
      atomic_thread_fence(memory_order_acquire);
      uint32_t cntl = b[0];
      sim_trace("cp: queue %u PM4 ACQUIRE_MEM coher_cntl=0x%x", cq->q->id, cntl);
      if ((cntl & ((1u << 29) | (1u << 27))) && body >= 5) {
        uint64_t size = ((uint64_t)(b[2] & 0xff) << 32 | b[1]) << 8;
        uint64_t base = ((uint64_t)(b[4] & 0xffffff) << 32 | b[3]) << 8;
        bool all = b[1] == 0xffffffffu && (b[2] & 0xff) == 0xff;
        sim_isa_invalidate(gpu, all ? 0 : base, all ? 0 : size);
      }
      break;
    }
    case OP_RELEASE_MEM: {
      if (body < 6)
        break;
      atomic_thread_fence(memory_order_release);
      uint32_t data_sel = b[1] >> 29, int_sel = (b[1] >> 24) & 7;
      uint64_t addr = b[2] | (uint64_t)b[3] << 32;
      uint64_t data = b[4] | (uint64_t)b[5] << 32;
      if (data_sel == 3)
        data = sim_cp_now();
      if (data_sel == 1 && !write_mem(gpu, addr, &(uint32_t){ (uint32_t)data }, 4))
        return CP_HALTED;
      if (data_sel >= 2 && data_sel <= 4 && !write_mem(gpu, addr, &data, 8))
        return CP_HALTED;
      if (int_sel == 1 || int_sel == 2)   /* the end-of-pipe interrupt carries the data */
        sim_kfd_signal_interrupt((uint32_t)data & 0xfffffff);
      break;
    }
    case OP_WRITE_DATA: {
      if (body < 3)
        break;
      unsigned dst_sel = (b[0] >> 8) & 15;
      bool one_addr = b[0] & (1u << 16);
      uint64_t addr = b[1] | (uint64_t)b[2] << 32;
      if (dst_sel == 5 || dst_sel == 2) {   /* memory (through L2); registers are ignored */
        for (uint32_t k = 3; k < body; k++)
          if (!write_mem(gpu, one_addr ? addr : addr + 4ull * (k - 3), &b[k], 4))
            return CP_HALTED;
      }
      break;
    }
    case OP_WAIT_REG_MEM: {
      if (body < 6)
        break;
      if (b[0] & (1u << 4)) {   /* memory space; register polls complete at once */
        struct poll p = { gpu, (b[1] & ~3u) | (uint64_t)b[2] << 32, b[3], b[4], b[0] & 7, false };
        if (!cp_poll_until(cq, poll_done, &p))
          return CP_HALTED;
        if (p.fault) {
          sim_cp_vm_fault(gpu, p.addr, false);
          return CP_HALTED;
        }
      }
      break;
    }
    default:
      sim_trace("cp: queue %u PM4 opcode 0x%x not modelled", cq->q->id, op);
      cp_queue_error(cq, amd_queue, CP_ERR_VENDOR_PACKET);
      return CP_HALTED;
    }
    i += 1 + body;
  }
  return CP_WORK;
}

enum cp_step cp_pm4_slot(struct cp_queue *cq, const uint8_t *pkt, uint64_t amd_queue)
{
  uint32_t dw[4];
  memcpy(dw, pkt + 4, sizeof dw);   /* the IB jump; the rest of the slot is skipped */
  return run(cq, dw, 4, amd_queue, 0);
}
