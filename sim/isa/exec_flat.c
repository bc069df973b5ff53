/* SPDX-License-Identifier: MIT */
/* exec_flat.c — FLAT, GLOBAL and SCRATCH loads, stores and atomics. FLAT addresses that fall
 * in the LDS or private aperture reach the workgroup's LDS or the wave's scratch; scratch
 * offsets are swizzled per dword across the 64 lanes (isa_scratch_addr). */
#include "isa/exec.h"
#include "isa/hostmem.h"

enum space { SP_GLOBAL, SP_LDS, SP_SCRATCH };

struct lane_addr {
  enum space sp;
  uint64_t a;   /* VA, LDS byte offset or private-segment offset */
};

/* What every lane's address shares, read once per instruction. */
struct flat_ctx {
  unsigned seg, v;
  bool saddr, vaddr;   /* scratch: which address parts are used */
  uint64_t sbase;
  int64_t offset;
  uint64_t shared_base, shared_limit, private_base, private_limit;
};

static void flat_ctx(const struct isa_wave *w, const struct isa_inst *in, struct flat_ctx *c)
{
  const struct sim_isa_workgroup *wg = w->group->wg;
  c->seg = in->seg;
  c->v = in->addr - ISA_OP_VGPR0;
  c->saddr = in->seg != 0 && in->saddr != 0x7f;
  /* gfx9 scratch takes the SGPR or the VGPR; gfx942 says which by SVE, and may add both */
  c->vaddr = in->target >= ISA_TARGET_GFX942 ? in->sve : !c->saddr;   /* gfx942, gfx11+: SVE */
  c->sbase = !c->saddr ? 0 : in->seg == 1 ? isa_read_s32(w, in, in->saddr)
                                          : isa_read_s64(w, in, in->saddr, ISA_T_B64);
  c->offset = in->offset;
  c->shared_base = wg->shared_base;
  c->shared_limit = wg->shared_limit;
  c->private_base = wg->private_base;
  c->private_limit = wg->private_limit;
}

static inline struct lane_addr lane_address(const struct isa_wave *w, const struct flat_ctx *c,
                                            unsigned l)
{
  struct lane_addr r;
  if (c->seg == 1) {   /* SCRATCH: a 32-bit private offset */
    uint32_t base = (c->saddr ? (uint32_t)c->sbase : 0) + (c->vaddr ? w->vgpr[c->v][l] : 0);
    r.sp = SP_SCRATCH;
    r.a = (uint32_t)(base + (uint32_t)c->offset);
    return r;
  }
  r.sp = SP_GLOBAL;
  if (c->saddr) {
    r.a = c->sbase + w->vgpr[c->v][l] + c->offset;
    return r;
  }
  uint64_t a = (w->vgpr[c->v][l] | (uint64_t)w->vgpr[c->v + 1][l] << 32) + c->offset;
  r.a = a;
  if (c->seg == 0) {
    if (c->shared_base && a >= c->shared_base && a <= c->shared_limit) {
      r.sp = SP_LDS;
      r.a = (uint32_t)(a - c->shared_base);
    } else if (c->private_base && a >= c->private_base && a <= c->private_limit) {
      r.sp = SP_SCRATCH;
      r.a = (uint32_t)(a - c->private_base);
    }
  }
  return r;
}

/* Host bytes for `len` (1, 2 or 4) bytes at dword `k` of a lane's access. LDS out of range:
 * *oob set (reads give 0, writes are dropped). */
static uint8_t *lane_ptr(struct isa_wave *w, struct lane_addr la, unsigned l, unsigned k,
                         unsigned len, bool write, bool *oob)
{
  *oob = false;
  switch (la.sp) {
  case SP_LDS: {
    uint64_t o = la.a + 4 * k;
    if (!w->group->lds || o + len > w->group->lds_size) {
      *oob = true;
      return NULL;
    }
    return w->group->lds + o;
  }
  case SP_SCRATCH:
    return isa_mem_fast(w, isa_scratch_addr(w, (uint32_t)(la.a + 4 * k), l), len, write);
  default:
    return isa_mem_fast(w, la.a + 4 * k, len, write);
  }
}

static uint64_t lane_atomic(struct isa_wave *w, struct lane_addr la, unsigned l, unsigned at,
                            bool wide, uint64_t src, uint64_t cmp, bool *failed)
{
  bool oob;
  *failed = false;
  unsigned len = wide ? 8 : 4;
  uint8_t *p;
  if (la.sp == SP_SCRATCH && wide) {
    /* two swizzled dwords: not one host location; the wave is alone on its scratch */
    uint32_t *lo = (uint32_t *)lane_ptr(w, la, l, 0, 4, true, &oob);
    uint32_t *hi = lo ? (uint32_t *)lane_ptr(w, la, l, 1, 4, true, &oob) : NULL;
    if (!hi) { *failed = true; return 0; }
    uint64_t old = *lo | (uint64_t)*hi << 32, tmp = old;
    isa_atomic64(at, &tmp, src, cmp);
    *lo = (uint32_t)tmp;
    *hi = (uint32_t)(tmp >> 32);
    return old;
  }
  p = lane_ptr(w, la, l, 0, len, true, &oob);
  if (oob)
    return 0;
  if (!p) { *failed = true; return 0; }
  if ((uintptr_t)p & (len - 1)) {
    isa_fault(w, SIM_ISA_FAULT_MEMORY, la.a, true, "misaligned atomic at 0x%llx",
              (unsigned long long)la.a);
    *failed = true;
    return 0;
  }
  return wide ? isa_atomic64(at, (uint64_t *)p, src, cmp) : isa_atomic32(at, (uint32_t *)p, (uint32_t)src, (uint32_t)cmp);
}

/* The common case of a wave moving consecutive dwords: every active lane's address is the
 * first active lane's plus 4 * (lane - first), all in global memory. Returns the host bytes
 * of the first active lane's dword, or NULL when the pattern does not hold (then the
 * per-lane path runs). */
static uint8_t *contiguous(struct isa_wave *w, const struct flat_ctx *c, uint64_t exec,
                           bool write)
{
  if (c->seg == 1 || !exec)
    return NULL;
  unsigned first = (unsigned)__builtin_ctzll(exec), last = 63 - (unsigned)__builtin_clzll(exec);
  struct lane_addr a = lane_address(w, c, first);
  if (a.sp != SP_GLOBAL)
    return NULL;
  uint64_t base = a.a - 4ull * first;
  if (exec == ~0ull) {
    /* the same test as below for every lane (global: no aperture in between), as a loop
     * without branches the compiler vectorizes */
    const uint32_t *lo = w->vgpr[c->v], *hi = w->vgpr[(c->v + 1) & (ISA_MAX_VGPRS - 1)];
    uint64_t bad = 0;
    if (c->saddr)
      for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++)
        bad |= (c->sbase + lo[l] + c->offset) ^ (base + 4ull * l);
    else
      for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++)
        bad |= ((lo[l] | (uint64_t)hi[l] << 32) + c->offset) ^ (base + 4ull * l);
    if (bad)
      return NULL;
  } else {
    ISA_FOR_LANES(exec, l) {
      struct lane_addr b = lane_address(w, c, (unsigned)l);
      if (b.a != base + 4 * l)
        return NULL;
    }
  }
  uint64_t lo = a.a, hi = base + 4ull * last + 4;
  if (c->seg == 0 && ((c->shared_base && lo <= c->shared_limit && hi > c->shared_base) ||
                      (c->private_base && lo <= c->private_limit && hi > c->private_base)))
    return NULL;   /* touches an aperture: per lane */
  /* part of the span refused: the per-lane path finds the faulting lane and raises its fault
   * (once: raising it here too gave two VM faults, the second from inside the handler) */
  return isa_mem_probe(w, lo, (uint32_t)(hi - lo), write);
}

int isa_exec_flat(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned op = in->op, n = in->dwords;
  unsigned vd = in->dst - ISA_OP_VGPR0, vs = in->data - ISA_OP_VGPR0;
  if (in->lds)
    return isa_unknown(w, in);
  bool oob;
  struct flat_ctx c;
  flat_ctx(w, in, &c);
  if (op >= 64) {
    bool wide = op >= 96;
    unsigned at = wide ? op - 96 : op - 64;
    if (at > ISA_AT_MAX_F64 || (wide && at > ISA_AT_DEC))
      return isa_unknown(w, in);
    if (at >= ISA_AT_ADD_F64)
      wide = true;
    ISA_FOR_LANES(w->exec, l) {
      struct lane_addr la = lane_address(w, &c, (unsigned)l);
      uint64_t src, cmp;
      if (wide) {
        src = w->vgpr[vs][l] | (uint64_t)w->vgpr[vs + 1][l] << 32;
        cmp = w->vgpr[vs + 2][l] | (uint64_t)w->vgpr[vs + 3][l] << 32;
      } else {
        src = w->vgpr[vs][l];
        cmp = w->vgpr[vs + 1][l];
      }
      bool failed;
      uint64_t old = lane_atomic(w, la, (unsigned)l, at, wide, src, cmp, &failed);
      if (failed)
        return -1;
      if (in->glc) {
        w->vgpr[vd][l] = (uint32_t)old;
        if (wide) w->vgpr[vd + 1][l] = (uint32_t)(old >> 32);
      }
    }
    w->pc += in->size;
    return 0;
  }
  if ((op == 20 || op == 28) && !in->lds) {   /* dword load/store: one block when contiguous */
    bool store = op == 28;
    uint8_t *p = contiguous(w, &c, w->exec, store);
    if (p) {
      uint32_t *v = store ? w->vgpr[vs] : w->vgpr[vd];
      if (w->exec == ~0ull) {   /* not memcpy: it promises no access width */
        if (store) isa_st_dwords(p, v, 64); else isa_ld_dwords(p, v, 64);
      } else {
        unsigned first = (unsigned)__builtin_ctzll(w->exec);
        ISA_FOR_LANES(w->exec, l) {
          uint8_t *q = p + 4 * (l - first);
          if (store) isa_st32(q, v[l]); else v[l] = isa_ld32(q);
        }
      }
      w->pc += in->size;
      return 0;
    }
  }
  if (op >= 24 && op <= 31) {   /* stores */
    ISA_FOR_LANES(w->exec, l) {
      struct lane_addr la = lane_address(w, &c, (unsigned)l);
      if (op <= 27) {
        unsigned len = op <= 25 ? 1 : 2;
        uint32_t v = w->vgpr[vs][l] >> ((op == 25 || op == 27) ? 16 : 0);
        uint8_t *p = lane_ptr(w, la, (unsigned)l, 0, len, true, &oob);
        if (!p && !oob) return -1;
        if (p) isa_st_small(p, v, len);
        continue;
      }
      if (la.sp == SP_GLOBAL) {   /* one access: aligned 64-bit pieces stay whole */
        uint8_t *p = isa_mem_fast(w, la.a, 4 * n, true);
        if (!p) return -1;
        isa_st_lane(p, &w->vgpr[vs], (unsigned)l, n);
        continue;
      }
      for (unsigned k = 0; k < n; k++) {
        uint8_t *p = lane_ptr(w, la, (unsigned)l, k, 4, true, &oob);
        if (!p && !oob) return -1;
        if (p) isa_st32(p, w->vgpr[vs + k][l]);
      }
    }
    w->pc += in->size;
    return 0;
  }
  if (op < 16 || op > 37)
    return isa_unknown(w, in);
  ISA_FOR_LANES(w->exec, l) {   /* loads */
    struct lane_addr la = lane_address(w, &c, (unsigned)l);
    if (op >= 20 && op <= 23) {
      if (la.sp == SP_GLOBAL) {
        const uint8_t *p = isa_mem_fast(w, la.a, 4 * n, false);
        if (!p) return -1;
        isa_ld_lane(p, &w->vgpr[vd], (unsigned)l, n);
        continue;
      }
      for (unsigned k = 0; k < n; k++) {
        const uint8_t *p = lane_ptr(w, la, (unsigned)l, k, 4, false, &oob);
        if (!p && !oob) return -1;
        w->vgpr[vd + k][l] = p ? isa_ld32(p) : 0;
      }
      continue;
    }
    bool byte = op == 16 || op == 17 || (op >= 32 && op <= 35);
    unsigned len = byte ? 1 : 2;
    const uint8_t *p = lane_ptr(w, la, (unsigned)l, 0, len, false, &oob);
    if (!p && !oob) return -1;
    uint32_t raw = p ? isa_ld_small(p, len) : 0;
    bool sign = op == 17 || op == 19 || op == 34 || op == 35;
    uint32_t v = sign ? (byte ? (uint32_t)(int32_t)(int8_t)raw : (uint32_t)(int32_t)(int16_t)raw) : raw;
    uint32_t *d = &w->vgpr[vd][l];
    if (op < 32)
      *d = v;
    else if (op & 1)   /* _d16_hi: the high half, the low half kept */
      *d = (*d & 0xffff) | v << 16;
    else
      *d = (*d & 0xffff0000u) | (v & 0xffff);
  }
  w->pc += in->size;
  return 0;
}
