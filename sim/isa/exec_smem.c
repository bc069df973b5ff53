/* SPDX-License-Identifier: MIT */
/* exec_smem.c — scalar memory: s_load/s_store through a 64-bit base, s_buffer_* through a
 * buffer resource (out-of-range dwords read 0, writes are dropped), scalar atomics, and
 * the cache and clock instructions. */
#include "isa/exec.h"
#include "isa/hostmem.h"

#include <string.h>
#include <time.h>

/* sim/kfd's GPU reference counter (the one GET_CLOCK_COUNTERS reports). */
uint64_t sim_gpu_clock_counter(void);

static uint64_t now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int isa_exec_smem(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned op = in->op;
  if (op >= 0x20 && op <= 0x29) {
    if (op == 0x24 || op == 0x25) {
      /* s_memtime: the shader clock (1 GHz here); s_memrealtime: the reference clock the
       * driver reports in GET_CLOCK_COUNTERS */
      isa_write_s64(w, in->sdst, op == 0x24 ? now_ns() : sim_gpu_clock_counter());
    }
    isa_mem_fence();   /* cache maintenance and probes: caches are coherent here */
    w->pc += 8;
    return 0;
  }
  bool buffer = (op >= 8 && op <= 15) || (op >= 24 && op <= 31) || (op >= 0x40 && op < 0x80);
  uint32_t off = (uint32_t)in->offset;
  if (in->soe && in->soffset != 0xffff)
    off += isa_read_s32(w, in, in->soffset);
  uint64_t addr;
  uint32_t limit = ~0u;   /* bytes addressable from the buffer base */
  if (buffer) {
    uint32_t d0 = w->sgpr[in->saddr & 0x7f], d1 = w->sgpr[(in->saddr + 1) & 0x7f];
    uint32_t d2 = w->sgpr[(in->saddr + 2) & 0x7f];
    addr = (d0 | (uint64_t)(d1 & 0xffff) << 32) + (off & ~3u);
    limit = d2;
  } else {
    /* the immediate is 21 bits signed here; an SGPR offset adds as unsigned */
    uint64_t soff = in->soe && in->soffset != 0xffff ? (uint32_t)isa_read_s32(w, in, in->soffset) : 0;
    addr = (isa_read_s64(w, in, in->saddr, ISA_T_B64) + (uint64_t)(int64_t)in->offset + soff) & ~3ull;
  }
  unsigned n = in->dwords;
  bool store = (op >= 16 && op <= 31) && !(op >= 0x20);
  if (op >= 0x40) {   /* atomics */
    unsigned at = op & 0x1f;
    if (buffer && (off & ~3u) + 4 * n > limit) {
      w->pc += 8;
      return 0;
    }
    void *p = isa_mem_fast(w, addr, 4 * n, true);
    if (!p)
      return -1;
    if (addr & (4 * n - 1))
      return isa_fault(w, SIM_ISA_FAULT_MEMORY, addr, true, "misaligned scalar atomic at 0x%llx",
                       (unsigned long long)addr);
    if (n == 1) {
      uint32_t src = w->sgpr[in->sdst & 0x7f], cmp = w->sgpr[(in->sdst + 1) & 0x7f];
      uint32_t old = isa_atomic32(at, p, src, cmp);
      if (in->glc) isa_write_s32(w, in->sdst, old);
    } else {
      uint64_t src = isa_read_s64(w, in, in->sdst, ISA_T_B64);
      uint64_t cmp = isa_read_s64(w, in, in->sdst + 2, ISA_T_B64);
      uint64_t old = isa_atomic64(at, p, src, cmp);
      if (in->glc) isa_write_s64(w, in->sdst, old);
    }
    w->pc += 8;
    return 0;
  }
  if ((op >= 5 && op <= 7) || (op >= 21 && op <= 23))
    return isa_unknown(w, in);   /* s_scratch_*: not modelled */
  if (in->sdst + n > ISA_MAX_SGPRS && in->sdst < ISA_OP_TTMP0)
    return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, 0, false, "%s: SGPR range s%u..s%u out of range",
                     in->name, in->sdst, in->sdst + n - 1);
  uint32_t vals[16];
  unsigned in_range = n;
  if (buffer) {
    uint32_t base = off & ~3u;
    in_range = 0;
    while (in_range < n && (uint64_t)base + 4 * in_range + 4 <= limit)
      in_range++;
  }
  if (store) {
    for (unsigned i = 0; i < n; i++)
      vals[i] = isa_read_s32(w, in, in->sdst + i);
    if (in_range) {
      void *p = isa_mem_fast(w, addr, 4 * in_range, true);
      if (!p)
        return -1;
      isa_st_dwords(p, vals, in_range);   /* aligned 64-bit pieces whole */
    }
  } else {
    memset(vals, 0, sizeof vals);
    if (in_range) {
      const void *p = isa_mem_fast(w, addr, 4 * in_range, false);
      if (!p)
        return -1;
      isa_ld_dwords(p, vals, in_range);
    }
    for (unsigned i = 0; i < n; i++)
      isa_write_s32(w, in->sdst + i, vals[i]);
  }
  w->pc += 8;
  return 0;
}
