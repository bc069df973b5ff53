/* sdma.c — an SDMA v4 (gfx9) queue: a ring of dword packets, read and write pointers in bytes
 * that only grow (64-bit, the ring offset is the pointer modulo the ring size); the doorbell
 * carries the write pointer, and the engine writes its read pointer back to the read pointer
 * address after every packet. Header: op in bits 7:0, sub-op 15:8. The packets are those
 * ROCR's BlitSdmaV4 and amdgpu emit: COPY_LINEAR, CONSTANT_FILL, FENCE, TRAP, POLL_REGMEM,
 * ATOMIC, TIMESTAMP, WRITE, SRBM_WRITE, NOP. Counts are "bytes - 1" (v4). Every address goes
 * through the GPU's VM; an unmapped one is a VM fault, which stops the engine. */
#include "cp/engine.h"

#include <stdatomic.h>
#include <string.h>

#define OP_NOP 0
#define OP_COPY 1
#define OP_WRITE 2
#define OP_FENCE 5
#define OP_TRAP 6
#define OP_POLL_REGMEM 8
#define OP_ATOMIC 10
#define OP_CONST_FILL 11
#define OP_TIMESTAMP 13
#define OP_SRBM_WRITE 14

#define SUB_COPY_LINEAR 0
#define SUB_WRITE_UNTILED 0
#define SUB_TIMESTAMP_SET 0
#define SUB_TIMESTAMP_GET 1
#define SUB_TIMESTAMP_GET_GLOBAL 2
#define ATOMIC_ADD64 47

/* Host bytes of [va, va + n) even when the range spans buffer objects: per page then. */
typedef bool (*chunk_fn)(void *host, uint64_t off, uint64_t n, void *arg);

static bool for_chunks(struct sim_gpu *gpu, uint64_t va, uint64_t n, bool write, chunk_fn fn,
                       void *arg)
{
  void *h = sim_vm_translate(gpu, va, n);
  if (h)
    return fn(h, 0, n, arg);
  for (uint64_t off = 0; off < n;) {
    uint64_t step = SIM_PAGE - ((va + off) & (SIM_PAGE - 1));
    if (step > n - off)
      step = n - off;
    h = sim_vm_translate(gpu, va + off, step);
    if (!h) {
      sim_cp_vm_fault(gpu, va + off, write);
      return false;
    }
    if (!fn(h, off, step, arg))
      return false;
    off += step;
  }
  return true;
}

struct copy {
  struct sim_gpu *gpu;
  uint64_t dst;
};

static bool copy_to_dst(void *src, uint64_t off, uint64_t n, void *arg)
{
  struct copy *c = arg;
  void *d = sim_vm_translate(c->gpu, c->dst + off, n);
  if (d) {
    memmove(d, src, n);
    return true;
  }
  for (uint64_t k = 0; k < n;) {   /* the destination spans buffers: page by page */
    uint64_t step = SIM_PAGE - ((c->dst + off + k) & (SIM_PAGE - 1));
    if (step > n - k)
      step = n - k;
    d = sim_vm_translate(c->gpu, c->dst + off + k, step);
    if (!d) {
      sim_cp_vm_fault(c->gpu, c->dst + off + k, true);
      return false;
    }
    memmove(d, (char *)src + k, step);
    k += step;
  }
  return true;
}

struct fill {
  uint8_t pattern[4];
  unsigned size;
};

static bool fill_chunk(void *host, uint64_t off, uint64_t n, void *arg)
{
  struct fill *f = arg;
  uint8_t *d = host;
  for (uint64_t i = 0; i < n; i++)
    d[i] = f->pattern[(off + i) % f->size];
  return true;
}

static bool write32(struct sim_gpu *gpu, uint64_t va, uint32_t v)
{
  uint32_t *m = sim_vm_translate(gpu, va, 4);
  if (!m || (va & 3)) {
    sim_cp_vm_fault(gpu, va, true);
    return false;
  }
  __atomic_store_n(m, v, __ATOMIC_RELEASE);
  return true;
}

static bool write64(struct sim_gpu *gpu, uint64_t va, uint64_t v)
{
  uint64_t *m = sim_vm_translate(gpu, va, 8);
  if (!m || (va & 7)) {
    sim_cp_vm_fault(gpu, va, true);
    return false;
  }
  __atomic_store_n(m, v, __ATOMIC_RELEASE);
  return true;
}

static bool compare(uint32_t v, unsigned fn, uint32_t ref)
{
  switch (fn) {
  case 0: return true;
  case 1: return v < ref;
  case 2: return v <= ref;
  case 3: return v == ref;
  case 4: return v != ref;
  case 5: return v >= ref;
  case 6: return v > ref;
  default: return false;
  }
}

/* Packet length in dwords from its header (and, for WRITE, its count), 0 if unknown. */
static uint32_t packet_dwords(uint32_t h, uint32_t dw3)
{
  switch (h & 0xff) {
  case OP_NOP: return 1 + ((h >> 16) & 0x3fff);
  case OP_COPY: return 7;
  case OP_WRITE: return 4 + (dw3 & 0xfffff) + 1;
  case OP_FENCE: return 4;
  case OP_TRAP: return 2;
  case OP_POLL_REGMEM: return 6;
  case OP_ATOMIC: return 8;
  case OP_CONST_FILL: return 5;
  case OP_TIMESTAMP: return 3;
  case OP_SRBM_WRITE: return 3;
  default: return 0;
  }
}

static enum cp_step halt(struct cp_queue *cq, const char *why, uint32_t h)
{
  sim_trace("sdma: queue %u stops: %s (header 0x%08x)", cq->q->id, why, h);
  cq->halted = true;
  return CP_HALTED;
}

/* Executes one packet; CP_BLOCKED leaves it to be retried (POLL_REGMEM). */
static enum cp_step execute(struct cp_queue *cq, const uint32_t *p, uint32_t n)
{
  struct sim_gpu *gpu = cq->gpu;
  uint32_t h = p[0], op = h & 0xff, sub = (h >> 8) & 0xff;
  switch (op) {
  case OP_NOP:
  case OP_SRBM_WRITE:   /* register writes (HDP, GRBM) have no effect on coherent memory */
    return CP_WORK;
  case OP_COPY: {
    if (sub != SUB_COPY_LINEAR)
      return halt(cq, "copy sub-op not modelled", h);
    uint64_t bytes = (uint64_t)(p[1] & 0x3fffff) + 1;
    uint64_t src = p[3] | (uint64_t)p[4] << 32, dst = p[5] | (uint64_t)p[6] << 32;
    struct copy c = { gpu, dst };
    return for_chunks(gpu, src, bytes, false, copy_to_dst, &c) ? CP_WORK : CP_HALTED;
  }
  case OP_WRITE: {
    if (sub != SUB_WRITE_UNTILED)
      return halt(cq, "write sub-op not modelled", h);
    uint64_t dst = p[1] | (uint64_t)p[2] << 32;
    for (uint32_t i = 4; i < n; i++)
      if (!write32(gpu, dst + 4ull * (i - 4), p[i]))
        return CP_HALTED;
    return CP_WORK;
  }
  case OP_CONST_FILL: {
    uint64_t dst = p[1] | (uint64_t)p[2] << 32;
    uint64_t bytes = (uint64_t)(p[4] & 0x3fffff) + 1;
    unsigned fillsize = h >> 30;
    struct fill f = { .size = fillsize >= 2 ? 4u : 1u << fillsize };
    memcpy(f.pattern, &p[3], 4);
    return for_chunks(gpu, dst, bytes, true, fill_chunk, &f) ? CP_WORK : CP_HALTED;
  }
  case OP_FENCE:
    atomic_thread_fence(memory_order_release);
    return write32(gpu, p[1] | (uint64_t)p[2] << 32, p[3]) ? CP_WORK : CP_HALTED;
  case OP_TRAP:   /* the SDMA trap interrupt: the driver sets events by context id */
    atomic_thread_fence(memory_order_release);
    sim_kfd_signal_interrupt(p[1] & 0xfffffff);
    return CP_WORK;
  case OP_POLL_REGMEM: {
    if (!(h >> 31))   /* a register poll (e.g. the HDP flush): nothing to wait for here */
      return CP_WORK;
    uint64_t addr = (p[1] & ~3u) | (uint64_t)p[2] << 32;
    uint32_t *m = sim_vm_translate(gpu, addr, 4);
    if (!m) {
      sim_cp_vm_fault(gpu, addr, false);
      return CP_HALTED;
    }
    return compare(__atomic_load_n(m, __ATOMIC_ACQUIRE) & p[4], (h >> 28) & 7, p[3]) ? CP_WORK
                                                                                       : CP_BLOCKED;
  }
  case OP_ATOMIC: {
    uint64_t addr = p[1] | (uint64_t)p[2] << 32;
    uint64_t src = p[3] | (uint64_t)p[4] << 32;
    unsigned operation = h >> 25;
    if (operation != ATOMIC_ADD64)
      return halt(cq, "atomic operation not modelled", h);
    uint64_t *m = sim_vm_translate(gpu, addr, 8);
    if (!m || (addr & 7)) {
      sim_cp_vm_fault(gpu, addr, true);
      return CP_HALTED;
    }
    __atomic_fetch_add(m, src, __ATOMIC_ACQ_REL);
    return CP_WORK;
  }
  case OP_TIMESTAMP:
    if (sub == SUB_TIMESTAMP_SET)
      return CP_WORK;
    return write64(gpu, p[1] | (uint64_t)p[2] << 32, sim_cp_now()) ? CP_WORK : CP_HALTED;
  }
  return halt(cq, "opcode not modelled", h);
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
  uint64_t ndw = size / 4;
  uint64_t at = (rptr % size) / 4;
  uint32_t h = ring[at];
  uint32_t n = packet_dwords(h, ring[(at + 3) % ndw]);
  if (!n)
    return halt(cq, "opcode not modelled", h);
  if ((wptr - rptr) / 4 < n)
    return CP_IDLE;   /* the rest of the packet is not submitted yet */
  uint32_t buf[64];
  uint32_t copy = n < 64 ? n : 64;   /* only WRITE is longer; its data is read from the ring */
  for (uint32_t i = 0; i < copy; i++)
    buf[i] = ring[(at + i) % ndw];
  enum cp_step r;
  if ((h & 0xff) == OP_WRITE && n > 64) {
    uint64_t dst = buf[1] | (uint64_t)buf[2] << 32;
    r = CP_WORK;
    for (uint32_t i = 4; i < n && r == CP_WORK; i++)
      if (!write32(gpu, dst + 4ull * (i - 4), ring[(at + i) % ndw]))
        r = CP_HALTED;
  } else {
    r = execute(cq, buf, n);
  }
  if (r != CP_WORK)
    return r;
  __atomic_store_n(rp, rptr + 4ull * n, __ATOMIC_RELEASE);
  return CP_WORK;
}
