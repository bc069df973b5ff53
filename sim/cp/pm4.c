/* SPDX-License-Identifier: MIT */
/* pm4.c — the PM4 commands of a compute queue's micro engine (MEC), as the packets reach it
 * from a PM4 ring (pm4q.c) or through the AMD "PM4 IB" vendor AQL packet (ROCR 5.2 on gfx9:
 * dword 1-4 of the slot hold an INDIRECT_BUFFER command, dword 5 the count of slot dwords
 * left to skip). Type-3 packets: header bits 31:30 = 3, 29:16 = body dwords - 1, 15:8 =
 * opcode; a NOP whose count is 0x3fff is one dword long (the kernel pads rings with it);
 * type 2 is a one-dword filler. Opcodes and field layouts are the gfx9 ones (soc15d.h):
 * NOP, SET_SH_REG, DISPATCH_DIRECT/INDIRECT (pm4disp.c), EVENT_WRITE (flushes only),
 * WRITE_DATA, WAIT_REG_MEM, INDIRECT_BUFFER (chained too), ACQUIRE_MEM, RELEASE_MEM (gfx10+:
 * ACQUIRE_MEM's 8-dword form with GCR_CNTL; RELEASE_MEM keeps its 8 dwords, GCR bits in
 * dword 1 where gfx9 had its cache actions). A
 * packet the model does not know, or a field value it does not model, stops the queue
 * (cp_pm4_error) rather than being skipped. */
#include "cp/aql.h"
#include "isa/isa.h"

#include <stdatomic.h>
#include <string.h>

#define OP_NOP 0x10
#define OP_DISPATCH_DIRECT 0x15
#define OP_DISPATCH_INDIRECT 0x16
#define OP_WRITE_DATA 0x37
#define OP_WAIT_REG_MEM 0x3c
#define OP_INDIRECT_BUFFER 0x3f
#define OP_EVENT_WRITE 0x46
#define OP_RELEASE_MEM 0x49
#define OP_ACQUIRE_MEM 0x58
#define OP_SET_SH_REG 0x76

#define NOP_ONE_DWORD 0x3fffu
#define MAX_IB_DEPTH 4
#define MAX_IB_DWORDS 0xfffffu
#define IB_CHAIN (1u << 20)

uint32_t cp_pm4_packet_dwords(uint32_t h)
{
  unsigned type = h >> 30;
  if (type == 2)
    return 1;
  if (type != 3)
    return 0;
  uint32_t count = (h >> 16) & 0x3fff;
  if (((h >> 8) & 0xff) == OP_NOP && count == NOP_ONE_DWORD)
    return 1;
  return count + 2;
}

void cp_pm4_error(struct cp_queue *cq, uint64_t amd_queue, const char *why, uint32_t h)
{
  sim_trace("cp: queue %u PM4 stopped at header 0x%08x: %s", cq->mqd->queue_id, h, why);
  if (!cq->pm4) {
    cp_queue_error(cq, amd_queue, CP_ERR_VENDOR_PACKET);
    return;
  }
  /* the MEC halts the queue and raises its bad-opcode interrupt; Linux 6.1 turns that
   * into the process's HW exception events (kfd_int_process_v9.c) */
  cq->halted = true;
  sim_kfd_hw_exception_signal();
}

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
  void *m = sim_vm_translate_write(gpu, addr, n);
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

/* RELEASE_MEM (gfx9: 7 body dwords; the 6-dword gfx8 form has no interrupt context id):
 * after the work before it, write the data DATA_SEL picks, then raise the end-of-pipe
 * interrupt INT_SEL asks for. Its context id is the data's low dword (or dword 7 for the
 * "send context id" selection); the kernel takes all 32 bits as the event id. */
static enum cp_step release_mem(struct cp_queue *cq, const uint32_t *b, uint32_t body,
                                uint64_t amd_queue, uint32_t h)
{
  if (body < 6) {
    cp_pm4_error(cq, amd_queue, "RELEASE_MEM too short", h);
    return CP_HALTED;
  }
  atomic_thread_fence(memory_order_release);
  uint32_t data_sel = b[1] >> 29, int_sel = (b[1] >> 24) & 7;
  uint64_t addr = b[2] | (uint64_t)b[3] << 32;
  uint64_t data = b[4] | (uint64_t)b[5] << 32;
  if (data_sel > 3 || int_sel > 4 || (int_sel == 4 && body < 7)) {
    cp_pm4_error(cq, amd_queue, "RELEASE_MEM selection not modelled", h);
    return CP_HALTED;
  }
  if (data_sel == 3)
    data = sim_cp_now();
  if (data_sel == 1 && !write_mem(cq->gpu, addr, &(uint32_t){ (uint32_t)data }, 4))
    return CP_HALTED;
  if (data_sel >= 2 && !write_mem(cq->gpu, addr, &data, 8))
    return CP_HALTED;
  if (int_sel == 1 || int_sel == 2)
    sim_kfd_signal_interrupt((uint32_t)data);
  else if (int_sel == 4)
    sim_kfd_signal_interrupt(b[6]);
  return CP_WORK;
}

/* Runs the packet of `len` dwords at dw. */
static enum cp_step packet(struct cp_queue *cq, const uint32_t *dw, uint32_t len,
                           uint64_t amd_queue, unsigned depth, bool *chained)
{
  struct sim_gpu *gpu = cq->gpu;
  uint32_t h = dw[0];
  if (len == 1)   /* type-2 filler or one-dword NOP */
    return CP_WORK;
  uint32_t body = len - 1, op = (h >> 8) & 0xff;
  const uint32_t *b = dw + 1;
  switch (op) {
  case OP_NOP:
    return CP_WORK;
  case OP_SET_SH_REG: {
    uint32_t off = b[0] & 0xffff;
    if (body < 2 || off + (body - 1) > CP_SH_REG_COUNT) {
      cp_pm4_error(cq, amd_queue, "SET_SH_REG outside the SH registers", h);
      return CP_HALTED;
    }
    memcpy(&cq->sh[off], b + 1, (body - 1) * 4u);
    return CP_WORK;
  }
  case OP_DISPATCH_DIRECT:
    if (body < 4) {
      cp_pm4_error(cq, amd_queue, "DISPATCH_DIRECT too short", h);
      return CP_HALTED;
    }
    return cp_pm4_dispatch(cq, b, b[3], amd_queue);
  case OP_DISPATCH_INDIRECT: {
    /* the compute engine's form: the 64-bit address of three dimension dwords */
    if (body < 3) {
      cp_pm4_error(cq, amd_queue, "DISPATCH_INDIRECT too short", h);
      return CP_HALTED;
    }
    uint64_t addr = b[0] | (uint64_t)b[1] << 32;
    const uint32_t *dims = (addr & 3) ? NULL : sim_vm_translate(gpu, addr, 12);
    if (!dims) {
      sim_cp_vm_fault(gpu, addr, false);
      return CP_HALTED;
    }
    uint32_t dim[3];
    for (unsigned i = 0; i < 3; i++)
      dim[i] = __atomic_load_n(&dims[i], __ATOMIC_ACQUIRE);
    return cp_pm4_dispatch(cq, dim, b[2], amd_queue);
  }
  case OP_EVENT_WRITE: {
    /* work runs to completion before the next packet: partial flushes (event index 4) and
     * cache events (index 0) have nothing left to wait for; the others write counters */
    unsigned index = (b[0] >> 8) & 15;
    if (index != 0 && index != 4) {
      cp_pm4_error(cq, amd_queue, "EVENT_WRITE event not modelled", h);
      return CP_HALTED;
    }
    atomic_thread_fence(memory_order_seq_cst);
    return CP_WORK;
  }
  case OP_INDIRECT_BUFFER: {
    if (body < 3 || depth >= MAX_IB_DEPTH) {
      cp_pm4_error(cq, amd_queue, "INDIRECT_BUFFER too short or nested too deep", h);
      return CP_HALTED;
    }
    uint64_t ib = (b[0] & ~3u) | (uint64_t)(b[1] & 0xffff) << 32;
    uint32_t size = b[2] & MAX_IB_DWORDS;
    if (b[2] & IB_CHAIN)   /* the rest of the current buffer is dropped for this one */
      *chained = true;
    if (!size)
      return CP_WORK;
    const uint32_t *ibp = sim_vm_translate(gpu, ib, (uint64_t)size * 4);
    if (!ibp) {
      sim_cp_vm_fault(gpu, ib, false);
      return CP_HALTED;
    }
    return cp_pm4_run(cq, ibp, size, amd_queue, depth + 1);
  }
  case OP_ACQUIRE_MEM: {
    /* caches are coherent here; an instruction cache action drops predecoded code. gfx9:
     * 7 dwords, COHER_CNTL's SH_ICACHE (29) / SH_KCACHE (27) actions. gfx10+: 8 dwords, the
     * COHER_CNTL dword unused and GCR_CNTL last, its GLI_INV (1:0) 1 all, 2 the range. */
    atomic_thread_fence(memory_order_acquire);
    bool gcr = gpu->model->gfx_target_version >= 100000;
    if (gcr && body != 7) {
      cp_pm4_error(cq, amd_queue, "ACQUIRE_MEM: gfx10+ takes the 8-dword form (GCR_CNTL last)", h);
      return CP_HALTED;
    }
    uint32_t cntl = gcr ? b[6] : b[0];
    sim_trace("cp: queue %u PM4 ACQUIRE_MEM %s=0x%x", cq->mqd->queue_id, gcr ? "gcr_cntl" : "coher_cntl",
              cntl);
    bool icache = gcr ? (cntl & 3) == 1 || (cntl & 3) == 2 : (cntl & ((1u << 29) | (1u << 27)));
    if (icache && body >= 5) {
      uint64_t size = ((uint64_t)(b[2] & 0xff) << 32 | b[1]) << 8;
      uint64_t base = ((uint64_t)(b[4] & 0xffffff) << 32 | b[3]) << 8;
      bool all = (gcr && (cntl & 3) == 1) || (b[1] == 0xffffffffu && (b[2] & 0xff) == 0xff);
      sim_isa_invalidate(gpu, all ? 0 : base, all ? 0 : size);
    }
    return CP_WORK;
  }
  case OP_RELEASE_MEM:
    return release_mem(cq, b, body, amd_queue, h);
  case OP_WRITE_DATA: {
    if (body < 3) {
      cp_pm4_error(cq, amd_queue, "WRITE_DATA too short", h);
      return CP_HALTED;
    }
    unsigned dst_sel = (b[0] >> 8) & 15;
    bool one_addr = b[0] & (1u << 16);
    uint64_t addr = b[1] | (uint64_t)b[2] << 32;
    if (dst_sel == 5 || dst_sel == 2) {   /* memory (through L2) */
      for (uint32_t k = 3; k < body; k++)
        if (!write_mem(gpu, one_addr ? addr : addr + 4ull * (k - 3), &b[k], 4))
          return CP_HALTED;
    } else if (dst_sel == 0) {            /* registers: the SH ones are modelled */
      for (uint32_t k = 3; k < body; k++) {
        uint64_t reg = one_addr ? b[1] : b[1] + (uint64_t)(k - 3);
        if (reg >= CP_SH_REG_BASE && reg < CP_SH_REG_BASE + CP_SH_REG_COUNT)
          cq->sh[reg - CP_SH_REG_BASE] = b[k];
        else
          sim_trace("cp: queue %u WRITE_DATA to register 0x%llx not modelled", cq->mqd->queue_id,
                    (unsigned long long)reg);
      }
    } else {
      cp_pm4_error(cq, amd_queue, "WRITE_DATA destination not modelled", h);
      return CP_HALTED;
    }
    return CP_WORK;
  }
  case OP_WAIT_REG_MEM: {
    if (body < 6) {
      cp_pm4_error(cq, amd_queue, "WAIT_REG_MEM too short", h);
      return CP_HALTED;
    }
    if (!(b[0] & (1u << 4))) {
      cp_pm4_error(cq, amd_queue, "WAIT_REG_MEM on a register not modelled", h);
      return CP_HALTED;
    }
    struct poll p = { gpu, (b[1] & ~3u) | (uint64_t)b[2] << 32, b[3], b[4], b[0] & 7, false };
    if (!cp_poll_until(cq, poll_done, &p))
      return CP_HALTED;
    if (p.fault) {
      sim_cp_vm_fault(gpu, p.addr, false);
      return CP_HALTED;
    }
    return CP_WORK;
  }
  default:
    cp_pm4_error(cq, amd_queue, "opcode not modelled", h);
    return CP_HALTED;
  }
}

enum cp_step cp_pm4_run(struct cp_queue *cq, const uint32_t *dw, uint32_t n, uint64_t amd_queue,
                        unsigned depth)
{
  uint32_t i = 0;
  while (i < n) {
    uint32_t h = dw[i], len = cp_pm4_packet_dwords(h);
    if (!len) {
      cp_pm4_error(cq, amd_queue, "packet type not taken", h);
      return CP_HALTED;
    }
    if (len > n - i) {
      cp_pm4_error(cq, amd_queue, "packet runs past its buffer", h);
      return CP_HALTED;
    }
    bool chained = false;
    enum cp_step s = packet(cq, dw + i, len, amd_queue, depth, &chained);
    if (s != CP_WORK || chained)
      return s;
    i += len;
  }
  return CP_WORK;
}

enum cp_step cp_pm4_slot(struct cp_queue *cq, const uint8_t *pkt, uint64_t amd_queue)
{
  uint32_t dw[4];
  memcpy(dw, pkt + 4, sizeof dw);   /* the IB jump; the rest of the slot is skipped */
  return cp_pm4_run(cq, dw, 4, amd_queue, 0);
}
