/* SPDX-License-Identifier: MIT */
/* packet.c — the SDMA v4 packets other than COPY, as ROCR's BlitSdmaV4, our runtime and
 * amdgpu emit them:
 *  NOP            1 + count dwords (count in header bits 29:16), does nothing.
 *  WRITE untiled  dst (dw1-2), dword count - 1 (dw3 19:0), then the data.
 *  CONST_FILL     dst (dw1-2), pattern (dw3), count (dw4 21:0); header bits 31:30 the fill
 *                 size. A dword fill (2) fills (count >> 2) + 1 dwords: amdgpu and Mesa send
 *                 bytes - 1, ROCR (dwords - 1) * 4, and both mean the same dwords.
 *  FENCE          writes dw3 to the dword at dw1-2 once everything before it is done.
 *  TRAP           the trap interrupt with context id dw1 27:0 (the KFD sets events by it).
 *  POLL_REGMEM    header 31 memory (else register), 30:28 compare function, 26 HDP flush;
 *                 address dw1-2 (bits 1:0 ignored), reference dw3, mask dw4, dw5 interval
 *                 and retries (0xfff: for ever). ROCR's HDP flush is a register poll with
 *                 function "always"; amdgpu's sets the HDP flush bit. Both pass at once:
 *                 simulated memory is coherent. The hardware reads the word again every
 *                 interval (a few hundred clocks: microseconds). Here a poll that fails
 *                 looks again after naps of 20 us doubling to 1 ms (the engine's back-off,
 *                 which is what catches words the host or a CP writes), for at most
 *                 POLL_BUDGET_NS per call; a FENCE, ATOMIC or WRITE of any SDMA engine of
 *                 the process ends the nap at once, so one engine waiting on another's fence
 *                 sees it as the hardware would.
 *  ATOMIC         operation in header 31:25 (47: 64-bit add), address dw1-2, source dw3-4,
 *                 compare dw5-6, loop interval dw7.
 *  TIMESTAMP      sub-op 0 sets the counter (dw1-2), 1 and 2 write it to dw1-2 (bits 2:0 of
 *                 the address are not part of the field).
 * SRBM_WRITE (a register write) is privileged: a user queue may not send it.
 *  GCR_REQ        (v5+, 5 dwords) cache write-back/invalidate: orders, as memory is coherent. */
#include "sdma/sdma.h"
#include "sim.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ATOMIC_ADD64 47
#define FILL_DWORDS 2
#define RETRY_FOREVER 0xfff
#define POLL_BUDGET_NS 1000000ull   /* a failed memory poll's naps, per call */
#define NAP_MIN_NS 20000ull
#define NAP_MAX_NS 1000000ull

/* Bumped after every memory write an SDMA engine's FENCE, ATOMIC or WRITE makes; engines
 * in a POLL_REGMEM sleep on it (futex) while `pollers` counts them. */
static _Atomic uint32_t writes_gen;
static atomic_uint pollers;

static void wrote(void)
{
  atomic_fetch_add(&writes_gen, 1);
  if (atomic_load(&pollers))
    syscall(SYS_futex, &writes_gen, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static enum sdma_res bad(struct sdma_pkt *p, const char *why)
{
  p->why = why;
  return SDMA_BAD;
}

static enum sdma_res poll(struct sim_gpu *gpu, struct sdma_pkt *p)
{
  const uint32_t *d = p->dw;
  unsigned fn = (d[0] >> 28) & 7;
  if (fn == 7)
    return bad(p, "POLL_REGMEM compare function 7 is reserved");
  if (!(d[0] >> 31)) {   /* a register */
    if (fn == 0 || (d[0] & (1u << 26)))
      return SDMA_DONE;   /* "always", or the HDP flush: done, memory is coherent */
    return bad(p, "POLL_REGMEM of a register is not modelled (only HDP flushes)");
  }
  uint64_t addr = sdma_addr(&d[1]) & ~3ull;
  uint32_t *m = sim_vm_translate(gpu, addr, 4);
  if (!m) {
    sim_cp_vm_fault(gpu, addr, false);
    return SDMA_FAULT;
  }
  if (sim_cp_poll_compare(__atomic_load_n(m, __ATOMIC_ACQUIRE) & d[4], fn, d[3]))
    return SDMA_DONE;
  if (((d[5] >> 16) & 0xfff) != RETRY_FOREVER)
    return bad(p, "POLL_REGMEM that gives up after some retries is not modelled (0xfff: never)");
  /* counted as a poller before the generation and the word are read again: a writer either
   * sees the count or its write is seen here (all sequentially consistent) */
  /* each engine is a thread of its own: its nap grows across calls until a poll passes */
  static __thread uint64_t nap;
  if (!nap)
    nap = NAP_MIN_NS;
  atomic_fetch_add(&pollers, 1);
  bool met = false;
  for (uint64_t t0 = sim_mono_ns(), now = t0; now - t0 < POLL_BUDGET_NS; now = sim_mono_ns()) {
    uint32_t g = atomic_load(&writes_gen);
    met = sim_cp_poll_compare(__atomic_load_n(m, __ATOMIC_SEQ_CST) & d[4], fn, d[3]);
    if (met)
      break;
    uint64_t left = POLL_BUDGET_NS - (now - t0), t = nap < left ? nap : left;
    struct timespec ts = { 0, (long)t };
    if (syscall(SYS_futex, &writes_gen, FUTEX_WAIT_PRIVATE, g, &ts, NULL, 0) != 0 &&
        errno == ETIMEDOUT)
      nap = nap * 2 > NAP_MAX_NS ? NAP_MAX_NS : nap * 2;   /* nothing an engine wrote */
  }
  atomic_fetch_sub(&pollers, 1);
  if (met)
    nap = NAP_MIN_NS;
  return met ? SDMA_DONE : SDMA_WAIT;
}

static enum sdma_res atomic(struct sim_gpu *gpu, struct sdma_pkt *p)
{
  const uint32_t *d = p->dw;
  if (d[0] >> 25 != ATOMIC_ADD64)
    return bad(p, "ATOMIC operation other than 64-bit add (47) is not modelled");
  uint64_t addr = sdma_addr(&d[1]);
  uint64_t *m = sim_vm_translate_write(gpu, addr, 8);
  if (!m || (addr & 7)) {
    sim_cp_vm_fault(gpu, addr, true);
    return SDMA_FAULT;
  }
  __atomic_fetch_add(m, sdma_addr(&d[3]), __ATOMIC_SEQ_CST);
  wrote();
  return SDMA_DONE;
}

static enum sdma_res fill(struct sim_gpu *gpu, struct sdma_pkt *p)
{
  const uint32_t *d = p->dw;
  unsigned size = d[0] >> 30;
  if (size == 3)
    return bad(p, "CONST_FILL fill size 3 is not modelled");
  uint64_t count = d[4] & 0x3fffff;
  /* byte (0) and word (1) fills repeat the low bytes of the pattern */
  uint64_t bytes = size == FILL_DWORDS ? ((count >> 2) + 1) * 4 : count + 1;
  uint8_t pattern[4];
  memcpy(pattern, &d[3], 4);
  return sdma_fill(gpu, sdma_addr(&d[1]), bytes, pattern, 1u << size) ? SDMA_DONE : SDMA_FAULT;
}

static enum sdma_res write_untiled(struct sim_gpu *gpu, struct sdma_pkt *p)
{
  if (sdma_sub_op(p->dw[0]) != 0)
    return bad(p, "WRITE tiled is not modelled");
  uint64_t dst = sdma_addr(&p->dw[1]);
  for (uint32_t i = 4; i < p->n; i++)
    if (!sdma_store32(gpu, dst + 4ull * (i - 4), p->dw[i]))
      return SDMA_FAULT;
  wrote();
  return SDMA_DONE;
}

static enum sdma_res timestamp(struct sim_gpu *gpu, struct sdma_pkt *p)
{
  switch (sdma_sub_op(p->dw[0])) {
  case 0:
    return SDMA_DONE;   /* the counter is the GPU clock here: setting it changes nothing seen */
  case 1:
  case 2:
    return sdma_store64(gpu, sdma_addr(&p->dw[1]) & ~7ull, sim_cp_now()) ? SDMA_DONE : SDMA_FAULT;
  default:
    return bad(p, "TIMESTAMP sub-op above 2");
  }
}

enum sdma_res sdma_execute(struct cp_queue *cq, struct sdma_pkt *p)
{
  struct sim_gpu *gpu = cq->gpu;
  const uint32_t *d = p->dw;
  switch (sdma_op(d[0])) {
  case SDMA_NOP:
    return SDMA_DONE;
  case SDMA_COPY:
    return sdma_copy(gpu, p);
  case SDMA_WRITE:
    return write_untiled(gpu, p);
  case SDMA_CONST_FILL:
    return fill(gpu, p);
  case SDMA_FENCE:
    atomic_thread_fence(memory_order_release);
    if (!sdma_store32(gpu, sdma_addr(&d[1]), d[3]))
      return SDMA_FAULT;
    wrote();
    return SDMA_DONE;
  case SDMA_TRAP:
    atomic_thread_fence(memory_order_release);
    sim_kfd_signal_interrupt(d[1] & 0xfffffff);
    return SDMA_DONE;
  case SDMA_POLL_REGMEM:
    return poll(gpu, p);
  case SDMA_ATOMIC:
    return atomic(gpu, p);
  case SDMA_TIMESTAMP:
    return timestamp(gpu, p);
  case SDMA_SRBM_WRITE:
    return bad(p, "SRBM_WRITE (a register write) is privileged");
  case SDMA_GCR_REQ:
    /* write-back/invalidate of the GPU caches: the model's memory has none, so what stays
     * is the order (everything before it is visible to what comes after) */
    atomic_thread_fence(memory_order_seq_cst);
    return SDMA_DONE;
  default:
    return bad(p, "opcode not modelled");
  }
}
