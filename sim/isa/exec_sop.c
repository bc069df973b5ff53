/* SPDX-License-Identifier: MIT */
/* exec_sop.c — semantics of SOP2, SOPK, SOP1 and SOPC (gfx9). SCC follows the ISA's rule for
 * each opcode: carry/borrow, signed overflow, "result is nonzero", or a comparison. */
#include "isa/exec.h"

#define S32(i) isa_sread(w, in, in->src[i])
#define S64(i) isa_read_s64(w, in, in->src[i], ISA_T_B64)
#define SI64(i) isa_read_s64(w, in, in->src[i], ISA_T_I64)   /* signed: literals sign-extend */

static uint32_t bfe32(uint32_t v, uint32_t ctl, bool sign)
{
  unsigned off = ctl & 31, width = (ctl >> 16) & 0x7f;
  if (width == 0)
    return 0;
  if (width >= 32)
    return sign ? (uint32_t)((int32_t)v >> off) : v >> off;
  uint32_t x = (v >> off) & ((1u << width) - 1);
  if (sign && (x >> (width - 1)) & 1)
    x |= ~((1u << width) - 1);
  return x;
}

static uint64_t bfe64(uint64_t v, uint32_t ctl, bool sign)
{
  unsigned off = ctl & 63, width = (ctl >> 16) & 0x7f;
  if (width == 0)
    return 0;
  if (width >= 64)
    return sign ? (uint64_t)((int64_t)v >> off) : v >> off;
  uint64_t x = (v >> off) & ((1ull << width) - 1);
  if (sign && (x >> (width - 1)) & 1)
    x |= ~((1ull << width) - 1);
  return x;
}

int isa_exec_sop2(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned op = in->op;
  /* 64-bit logical ops: even opcodes 12..26 are b32, odd b64 */
  if (op >= 12 && op <= 27 && (op & 1)) {
    uint64_t a = S64(0), b = S64(1), d;
    switch (op) {
    case 13: d = a & b; break;
    case 15: d = a | b; break;
    case 17: d = a ^ b; break;
    case 19: d = a & ~b; break;
    case 21: d = a | ~b; break;
    case 23: d = ~(a & b); break;
    case 25: d = ~(a | b); break;
    default: d = ~(a ^ b); break;
    }
    isa_write_s64(w, in->dst, d);
    w->scc = d != 0;
    w->pc += in->size;
    return 0;
  }
  uint32_t a, b, d;
  uint64_t a64, d64;
  switch (op) {
  case 0: a = S32(0); b = S32(1); d = a + b; w->scc = d < a; break;
  case 1: a = S32(0); b = S32(1); d = a - b; w->scc = b > a; break;
  case 2: a = S32(0); b = S32(1); d = a + b;
    w->scc = ((~(a ^ b)) & (a ^ d)) >> 31; break;
  case 3: a = S32(0); b = S32(1); d = a - b;
    w->scc = ((a ^ b) & (a ^ d)) >> 31; break;
  case 4: { a = S32(0); b = S32(1); uint64_t t = (uint64_t)a + b + w->scc; d = (uint32_t)t;
    w->scc = t >> 32; break; }
  case 5: { a = S32(0); b = S32(1); uint64_t t = (uint64_t)a - b - w->scc; d = (uint32_t)t;
    w->scc = (t >> 32) != 0; break; }
  case 6: a = S32(0); b = S32(1); w->scc = (int32_t)a < (int32_t)b; d = w->scc ? a : b; break;
  case 7: a = S32(0); b = S32(1); w->scc = a < b; d = w->scc ? a : b; break;
  case 8: a = S32(0); b = S32(1); w->scc = (int32_t)a > (int32_t)b; d = w->scc ? a : b; break;
  case 9: a = S32(0); b = S32(1); w->scc = a > b; d = w->scc ? a : b; break;
  case 10: d = w->scc ? S32(0) : S32(1); break;
  case 11: isa_write_s64(w, in->dst, w->scc ? S64(0) : S64(1)); w->pc += in->size; return 0;
  case 12: d = S32(0) & S32(1); w->scc = d != 0; break;
  case 14: d = S32(0) | S32(1); w->scc = d != 0; break;
  case 16: d = S32(0) ^ S32(1); w->scc = d != 0; break;
  case 18: d = S32(0) & ~S32(1); w->scc = d != 0; break;
  case 20: d = S32(0) | ~S32(1); w->scc = d != 0; break;
  case 22: d = ~(S32(0) & S32(1)); w->scc = d != 0; break;
  case 24: d = ~(S32(0) | S32(1)); w->scc = d != 0; break;
  case 26: d = ~(S32(0) ^ S32(1)); w->scc = d != 0; break;
  case 28: d = S32(0) << (S32(1) & 31); w->scc = d != 0; break;
  case 30: d = S32(0) >> (S32(1) & 31); w->scc = d != 0; break;
  case 32: d = (uint32_t)((int32_t)S32(0) >> (S32(1) & 31)); w->scc = d != 0; break;
  case 29: case 31: case 33: {
    a64 = op == 33 ? SI64(0) : S64(0);
    unsigned s = S32(1) & 63;
    d64 = op == 29 ? a64 << s : op == 31 ? a64 >> s : (uint64_t)((int64_t)a64 >> s);
    isa_write_s64(w, in->dst, d64);
    w->scc = d64 != 0;
    w->pc += in->size;
    return 0;
  }
  case 34: d = ((1u << (S32(0) & 31)) - 1) << (S32(1) & 31); break;
  case 35: isa_write_s64(w, in->dst, ((1ull << (S32(0) & 63)) - 1) << (S32(1) & 63));
    w->pc += in->size; return 0;
  case 36: d = (uint32_t)((int64_t)(int32_t)S32(0) * (int32_t)S32(1)); break;
  case 37: d = bfe32(S32(0), S32(1), false); w->scc = d != 0; break;
  case 38: d = bfe32(S32(0), S32(1), true); w->scc = d != 0; break;
  case 39: case 40:
    d64 = bfe64(op == 40 ? SI64(0) : S64(0), S32(1), op == 40);
    isa_write_s64(w, in->dst, d64);
    w->scc = d64 != 0;
    w->pc += in->size;
    return 0;
  case 42: { int64_t t = (int64_t)(int32_t)S32(0) - (int32_t)S32(1);
    d = (uint32_t)(t < 0 ? -t : t); w->scc = d != 0; break; }
  case 44: d = (uint32_t)(((uint64_t)S32(0) * S32(1)) >> 32); break;
  case 45: d = (uint32_t)((uint64_t)((int64_t)(int32_t)S32(0) * (int32_t)S32(1)) >> 32); break;
  case 46: case 47: case 48: case 49: {
    uint64_t t = ((uint64_t)S32(0) << (op - 45)) + S32(1);
    d = (uint32_t)t;
    w->scc = (t >> 32) != 0;
    break;
  }
  case 50: d = (S32(0) & 0xffff) | S32(1) << 16; break;
  case 51: d = (S32(0) & 0xffff) | (S32(1) & 0xffff0000u); break;
  case 52: d = (S32(0) >> 16) | (S32(1) & 0xffff0000u); break;
  case 43: w->pc = S64(0); return 0;   /* s_rfe_restore_b64 */
  default: return isa_unknown(w, in);
  }
  isa_swrite(w, in->dst, d);
  w->pc += in->size;
  return 0;
}

/* ---- hardware registers (s_getreg / s_setreg) ---- */
enum { HW_MODE = 1, HW_STATUS = 2, HW_TRAPSTS = 3, HW_HW_ID = 4, HW_GPR_ALLOC = 5,
       HW_LDS_ALLOC = 6, HW_IB_STS = 7, HW_SH_MEM_BASES = 15, HW_XCC_ID = 20 };

static uint32_t hwreg_read(const struct isa_wave *w, unsigned id)
{
  const struct sim_isa_workgroup *wg = w->group->wg;
  uint32_t trap_reg;
  if (isa_trap_hwreg_read(w, id, &trap_reg))
    return trap_reg;   /* gfx12's trap-state registers (trap.c) */
  switch (id) {
  case HW_MODE: return w->mode;
  case HW_STATUS: return isa_status_read(w);
  case HW_TRAPSTS: return w->trapsts;
  case HW_HW_ID: return w->hw_id;
  case HW_XCC_ID: return wg->xcc_id & 0xf;   /* gfx940+: XCC_ID 3:0 (0 on one-XCC chips) */
  case HW_GPR_ALLOC:
    return ((w->vgpr_alloc / 4 - 1) & 0x3f) << 8 | ((w->sgpr_alloc / 16 - 1) & 0xf) << 24;
  case HW_LDS_ALLOC: return (w->group->lds_size / 512 & 0x1ff) << 12;   /* 128-dword granules */
  case HW_SH_MEM_BASES:
    return (uint32_t)(wg->private_base >> 48) | (uint32_t)(wg->shared_base >> 48) << 16;
  default: return 0;
  }
}

static void hwreg_write(struct isa_wave *w, unsigned id, uint32_t v, uint32_t mask)
{
  if (isa_trap_hwreg_write(w, id, v, mask))
    return;
  if (id == HW_MODE)
    w->mode = (w->mode & ~mask) | (v & mask);
  else if (id == HW_STATUS && w->priv)   /* the trap handler's to restore */
    isa_status_write(w, v, mask);
  else if (id == HW_TRAPSTS)
    w->trapsts = (w->trapsts & ~mask) | (v & mask);
  /* the other registers are read-only to a shader (IB_STS: no replay state here) */
}

static int setreg(struct isa_wave *w, const struct isa_inst *in, uint32_t v)
{
  unsigned id = in->simm & 0x3f, off = (in->simm >> 6) & 31, size = ((in->simm >> 11) & 31) + 1;
  uint32_t mask = size >= 32 ? ~0u : ((1u << size) - 1);
  hwreg_write(w, id, (v & mask) << off, mask << off);
  w->pc += in->size;
  return 0;
}

int isa_exec_sopk(struct isa_wave *w, const struct isa_inst *in)
{
  int32_t k = in->simm;
  uint32_t uk = (uint16_t)k, d = isa_sread(w, in, in->dst);
  switch (in->op) {
  case 0: isa_write_s32(w, in->dst, (uint32_t)k); break;
  case 1: if (w->scc) isa_write_s32(w, in->dst, (uint32_t)k); break;
  case 2: w->scc = (int32_t)d == k; break;
  case 3: w->scc = (int32_t)d != k; break;
  case 4: w->scc = (int32_t)d > k; break;
  case 5: w->scc = (int32_t)d >= k; break;
  case 6: w->scc = (int32_t)d < k; break;
  case 7: w->scc = (int32_t)d <= k; break;
  case 8: w->scc = d == uk; break;
  case 9: w->scc = d != uk; break;
  case 10: w->scc = d > uk; break;
  case 11: w->scc = d >= uk; break;
  case 12: w->scc = d < uk; break;
  case 13: w->scc = d <= uk; break;
  case 14: {
    uint32_t r = d + (uint32_t)k;
    w->scc = ((~(d ^ (uint32_t)k)) & (d ^ r)) >> 31;
    isa_write_s32(w, in->dst, r);
    break;
  }
  case 15: isa_write_s32(w, in->dst, (uint32_t)((int64_t)(int32_t)d * k)); break;
  case 17: {
    unsigned id = k & 0x3f, off = (k >> 6) & 31, size = ((k >> 11) & 31) + 1;
    uint32_t v = hwreg_read(w, id) >> off;
    isa_write_s32(w, in->dst, size >= 32 ? v : v & ((1u << size) - 1));
    break;
  }
  case 18: return setreg(w, in, d);
  case 20: return setreg(w, in, in->literal);
  case 21:   /* s_call_b64 */
    isa_write_s64(w, in->dst, w->pc + 4);
    w->pc = w->pc + 4 + (int64_t)k * 4;
    return 0;
  default: return isa_unknown(w, in);
  }
  w->pc += in->size;
  return 0;
}

static uint32_t wqm32(uint32_t v)
{
  uint32_t r = 0;
  for (unsigned i = 0; i < 32; i += 4)
    if ((v >> i) & 0xf)
      r |= 0xfu << i;
  return r;
}

static uint64_t wqm64(uint64_t v)
{
  return wqm32((uint32_t)v) | (uint64_t)wqm32((uint32_t)(v >> 32)) << 32;
}

static uint32_t brev32(uint32_t v)
{
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(v);
}

static int32_t flbit_i32(int32_t v)
{
  uint32_t u = v < 0 ? ~(uint32_t)v : (uint32_t)v;
  return u ? __builtin_clz(u) : -1;
}

static int32_t flbit_i64(int64_t v)
{
  uint64_t u = v < 0 ? ~(uint64_t)v : (uint64_t)v;
  return u ? __builtin_clzll(u) : -1;
}

int isa_exec_sop1(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned op = in->op;
  uint32_t d;
  uint64_t d64, s64;
  switch (op) {
  case 0: isa_write_s32(w, in->dst, S32(0)); break;
  case 1: isa_write_s64(w, in->dst, S64(0)); break;
  case 2: if (w->scc) isa_write_s32(w, in->dst, S32(0)); break;
  case 3: if (w->scc) isa_write_s64(w, in->dst, S64(0)); break;
  case 4: d = ~S32(0); w->scc = d != 0; isa_write_s32(w, in->dst, d); break;
  case 5: d64 = ~S64(0); w->scc = d64 != 0; isa_write_s64(w, in->dst, d64); break;
  case 6: d = wqm32(S32(0)); w->scc = d != 0; isa_write_s32(w, in->dst, d); break;
  case 7: d64 = wqm64(S64(0)); w->scc = d64 != 0; isa_write_s64(w, in->dst, d64); break;
  case 8: isa_write_s32(w, in->dst, brev32(S32(0))); break;
  case 9: s64 = S64(0);
    isa_write_s64(w, in->dst, (uint64_t)brev32((uint32_t)s64) << 32 | brev32((uint32_t)(s64 >> 32)));
    break;
  case 10: d = 32 - (uint32_t)__builtin_popcount(S32(0)); w->scc = d != 0; isa_write_s32(w, in->dst, d); break;
  case 11: d = 64 - (uint32_t)__builtin_popcountll(S64(0)); w->scc = d != 0; isa_write_s32(w, in->dst, d); break;
  case 12: d = (uint32_t)__builtin_popcount(S32(0)); w->scc = d != 0; isa_write_s32(w, in->dst, d); break;
  case 13: d = (uint32_t)__builtin_popcountll(S64(0)); w->scc = d != 0; isa_write_s32(w, in->dst, d); break;
  case 14: d = ~S32(0); isa_write_s32(w, in->dst, d ? (uint32_t)__builtin_ctz(d) : ~0u); break;
  case 15: s64 = ~S64(0); isa_write_s32(w, in->dst, s64 ? (uint32_t)__builtin_ctzll(s64) : ~0u); break;
  case 16: d = S32(0); isa_write_s32(w, in->dst, d ? (uint32_t)__builtin_ctz(d) : ~0u); break;
  case 17: s64 = S64(0); isa_write_s32(w, in->dst, s64 ? (uint32_t)__builtin_ctzll(s64) : ~0u); break;
  case 18: d = S32(0); isa_write_s32(w, in->dst, d ? (uint32_t)__builtin_clz(d) : ~0u); break;
  case 19: s64 = S64(0); isa_write_s32(w, in->dst, s64 ? (uint32_t)__builtin_clzll(s64) : ~0u); break;
  case 20: isa_write_s32(w, in->dst, (uint32_t)flbit_i32((int32_t)S32(0))); break;
  case 21: isa_write_s32(w, in->dst, (uint32_t)flbit_i64((int64_t)S64(0))); break;
  case 22: isa_write_s32(w, in->dst, (uint32_t)(int32_t)(int8_t)S32(0)); break;
  case 23: isa_write_s32(w, in->dst, (uint32_t)(int32_t)(int16_t)S32(0)); break;
  case 24: isa_write_s32(w, in->dst, isa_read_s32(w, in, in->dst) & ~(1u << (S32(0) & 31))); break;
  case 25: isa_write_s64(w, in->dst, isa_read_s64(w, in, in->dst, ISA_T_B64) & ~(1ull << (S32(0) & 63))); break;
  case 26: isa_write_s32(w, in->dst, isa_read_s32(w, in, in->dst) | (1u << (S32(0) & 31))); break;
  case 27: isa_write_s64(w, in->dst, isa_read_s64(w, in, in->dst, ISA_T_B64) | (1ull << (S32(0) & 63))); break;
  case 28: isa_write_s64(w, in->dst, w->pc + 4); break;
  case 29: w->pc = S64(0); return 0;
  case 30: s64 = S64(0); isa_write_s64(w, in->dst, w->pc + 4); w->pc = s64; return 0;
  case 31: isa_rfe(w, S64(0)); return 0;   /* s_rfe_b64: back from the trap handler */
  case 32: case 33: case 34: case 35: case 36: case 37: case 38: case 39:
  case 51: case 52: case 53: case 54: {
    uint64_t s = S64(0), e = w->exec, n = 0;
    isa_saveexec(op, s, e, &n);   /* always one of its opcodes: the cases above */
    w->exec = n;
    /* saveexec returns the old mask; wrexec the new one */
    isa_write_s64(w, in->dst, op == 53 || op == 54 ? n : e);
    w->scc = n != 0;
    break;
  }
  case 40: case 41: {
    s64 = op == 40 ? S32(0) : S64(0);
    uint64_t r = 0;
    for (unsigned i = 0; i < (op == 40 ? 8u : 16u); i++)
      if ((s64 >> (4 * i)) & 0xf)
        r |= 1ull << i;
    w->scc = r != 0;
    if (op == 40) isa_write_s32(w, in->dst, (uint32_t)r); else isa_write_s64(w, in->dst, r);
    break;
  }
  case 42: isa_write_s32(w, in->dst, isa_read_s32(w, in, in->src[0] + w->m0)); break;
  case 43: isa_write_s64(w, in->dst, isa_read_s64(w, in, in->src[0] + w->m0, ISA_T_B64)); break;
  case 44: isa_write_s32(w, in->dst + w->m0, S32(0)); break;
  case 45: isa_write_s64(w, in->dst + w->m0, S64(0)); break;
  case 48: { int32_t v = (int32_t)S32(0); d = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    w->scc = d != 0; isa_write_s32(w, in->dst, d); break; }
  case 55: {
    uint32_t s = S32(0);
    uint64_t r = 0;
    for (unsigned i = 0; i < 32; i++)
      if ((s >> i) & 1)
        r |= 3ull << (2 * i);
    isa_write_s64(w, in->dst, r);
    break;
  }
  default: return isa_unknown(w, in);
  }
  w->pc += in->size;
  return 0;
}

int isa_exec_sopc(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned op = in->op;
  if (op <= 11) {
    uint32_t a = S32(0), b = S32(1);
    int32_t x = (int32_t)a, y = (int32_t)b;
    bool r;
    switch (op) {
    case 0: r = x == y; break;
    case 1: r = x != y; break;
    case 2: r = x > y; break;
    case 3: r = x >= y; break;
    case 4: r = x < y; break;
    case 5: r = x <= y; break;
    case 6: r = a == b; break;
    case 7: r = a != b; break;
    case 8: r = a > b; break;
    case 9: r = a >= b; break;
    case 10: r = a < b; break;
    default: r = a <= b; break;
    }
    w->scc = r;
  } else {
    switch (op) {
    case 12: w->scc = !((S32(0) >> (S32(1) & 31)) & 1); break;
    case 13: w->scc = (S32(0) >> (S32(1) & 31)) & 1; break;
    case 14: w->scc = !((S64(0) >> (S32(1) & 63)) & 1); break;
    case 15: w->scc = (S64(0) >> (S32(1) & 63)) & 1; break;
    case 18: w->scc = S64(0) == S64(1); break;
    case 19: w->scc = S64(0) != S64(1); break;
    default: return isa_unknown(w, in);
    }
  }
  w->pc += in->size;
  return 0;
}
