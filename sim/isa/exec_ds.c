/* SPDX-License-Identifier: MIT */
/* exec_ds.c — LDS (DS) instructions. LDS is private to the workgroup, whose waves run on
 * one thread, so plain accesses suffice. Out-of-range accesses follow the hardware: reads
 * return 0, writes are dropped (per dword for the wide forms). */
#include "isa/exec.h"

#include <string.h>

struct lds {
  uint8_t *m;
  uint32_t size;
};

static uint8_t *at(struct lds s, uint64_t a, unsigned len)
{
  a = (uint32_t)a;   /* the address (VGPR + offset) is 32 bits: it wraps */
  return a + len <= s.size ? s.m + a : NULL;
}

static uint32_t rd(struct lds s, uint64_t a, unsigned len)
{
  uint32_t v = 0;
  const uint8_t *p = at(s, a, len);
  if (p)
    memcpy(&v, p, len);
  return v;
}

static void wr(struct lds s, uint64_t a, uint32_t v, unsigned len)
{
  uint8_t *p = at(s, a, len);
  if (p)
    memcpy(p, &v, len);
}

/* DS atomic (op & 31 of the 32/64-bit ranges) -> ISA_AT_*, -1 for none. */
static int ds_atomic(unsigned i, bool wide)
{
  switch (i) {
  case 0: return ISA_AT_ADD;
  case 1: return ISA_AT_SUB;
  case 2: return ISA_AT_RSUB;
  case 3: return ISA_AT_INC;
  case 4: return ISA_AT_DEC;
  case 5: return ISA_AT_SMIN;
  case 6: return ISA_AT_SMAX;
  case 7: return ISA_AT_UMIN;
  case 8: return ISA_AT_UMAX;
  case 9: return ISA_AT_AND;
  case 10: return ISA_AT_OR;
  case 11: return ISA_AT_XOR;
  case 12: return ISA_AT_MSKOR;
  case 13: return ISA_AT_SWAP;
  case 16: return ISA_AT_CMPSWAP;
  case 17: return wide ? ISA_AT_CMPST_F64 : ISA_AT_CMPST_F32;
  case 18: return wide ? ISA_AT_MIN_F64 : ISA_AT_MIN_F32;
  case 19: return wide ? ISA_AT_MAX_F64 : ISA_AT_MAX_F32;
  case 20: return ISA_AT_WRAP;
  case 21: return ISA_AT_ADD_F32;
  default: return -1;
  }
}

static bool lane_on(uint64_t exec, unsigned l)
{
  return (exec >> l) & 1;
}

int isa_exec_ds(struct isa_wave *w, const struct isa_inst *in)
{
  if (in->gds)
    return isa_unknown(w, in);
  struct lds s = {w->group->lds, w->group->lds ? w->group->lds_size : 0};
  unsigned op = in->op;
  unsigned va = in->addr - ISA_OP_VGPR0, d0 = in->data - ISA_OP_VGPR0, d1 = in->data1 - ISA_OP_VGPR0;
  unsigned vd = in->dst - ISA_OP_VGPR0;
  uint32_t off = (uint32_t)in->offset & 0xffff;
  uint64_t exec = w->exec;
  uint32_t (*v)[SIM_ISA_WAVE_SIZE] = w->vgpr;

  switch (op) {
  case 20: break;   /* ds_nop */
  case 13: case 77: case 222: case 223: {   /* write b32/b64/b96/b128 */
    unsigned n = in->dwords;
    ISA_FOR_LANES(exec, l) {
      uint64_t a = (uint64_t)v[va][l] + off;
      for (unsigned k = 0; k < n; k++)
        wr(s, a + 4 * k, v[d0 + k][l], 4);
    }
    break;
  }
  case 30: case 31: case 84: case 85:   /* write b8/b16 (and their _d16_hi forms) */
    ISA_FOR_LANES(exec, l) {
      uint32_t x = op >= 84 ? v[d0][l] >> 16 : v[d0][l];
      wr(s, (uint64_t)v[va][l] + off, x, (op & 1) ? 2 : 1);
    }
    break;
  case 14: case 15: case 78: case 79:     /* write2(st64) b32/b64 */
  case 46: case 47: case 110: case 111: { /* wrxchg2(st64)_rtn */
    unsigned n = (op == 14 || op == 15 || op == 46 || op == 47) ? 1 : 2;
    unsigned scale = 4 * n * ((op & 1) ? 64 : 1);
    /* Only the wrxchg2 forms return data; 78/79 (write2 b64) are plain writes. */
    bool rtn = op == 46 || op == 47 || op == 110 || op == 111;
    ISA_FOR_LANES(exec, l) {
      uint64_t a0 = (uint64_t)v[va][l] + in->offset0 * scale, a1 = (uint64_t)v[va][l] + in->offset1 * scale;
      for (unsigned k = 0; k < n; k++) {
        if (rtn) {
          v[vd + k][l] = rd(s, a0 + 4 * k, 4);
          v[vd + n + k][l] = rd(s, a1 + 4 * k, 4);
        }
        wr(s, a0 + 4 * k, v[d0 + k][l], 4);
        wr(s, a1 + 4 * k, v[d1 + k][l], 4);
      }
    }
    break;
  }
  case 54: case 118: case 254: case 255: {   /* read b32/b64/b96/b128 */
    unsigned n = in->dwords;
    ISA_FOR_LANES(exec, l) {
      uint64_t a = (uint64_t)v[va][l] + off;
      for (unsigned k = 0; k < n; k++)
        v[vd + k][l] = rd(s, a + 4 * k, 4);
    }
    break;
  }
  case 55: case 56: case 119: case 120: {   /* read2(st64) b32/b64 */
    unsigned n = op <= 56 ? 1 : 2;
    unsigned scale = 4 * n * ((op == 56 || op == 120) ? 64 : 1);
    if (n == 1 && exec == ~0ull) {   /* the common form, lane by lane as below, unrolled */
      uint64_t o0 = in->offset0 * scale, o1 = in->offset1 * scale;
      uint32_t *r0 = v[vd], *r1 = v[vd + 1];
      const uint32_t *addr = v[va];
      for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++) {
        uint64_t a = addr[l];
        uint32_t x0 = rd(s, a + o0, 4), x1 = rd(s, a + o1, 4);
        r0[l] = x0;
        r1[l] = x1;
      }
      break;
    }
    ISA_FOR_LANES(exec, l) {
      uint64_t a0 = (uint64_t)v[va][l] + in->offset0 * scale, a1 = (uint64_t)v[va][l] + in->offset1 * scale;
      for (unsigned k = 0; k < n; k++) {
        v[vd + k][l] = rd(s, a0 + 4 * k, 4);
        v[vd + n + k][l] = rd(s, a1 + 4 * k, 4);
      }
    }
    break;
  }
  case 57: case 58: case 59: case 60:   /* read i8 u8 i16 u16 */
    ISA_FOR_LANES(exec, l) {
      uint32_t x = rd(s, (uint64_t)v[va][l] + off, op <= 58 ? 1 : 2);
      if (op == 57) x = (uint32_t)(int32_t)(int8_t)x;
      if (op == 59) x = (uint32_t)(int32_t)(int16_t)x;
      v[vd][l] = x;
    }
    break;
  case 86: case 87: case 88: case 89: case 90: case 91:   /* read *_d16(_hi) */
    ISA_FOR_LANES(exec, l) {
      uint32_t x = rd(s, (uint64_t)v[va][l] + off, op <= 89 ? 1 : 2);
      if (op == 88 || op == 89) x = (uint32_t)(int32_t)(int8_t)x;
      x &= 0xffff;
      bool hi = op == 87 || op == 89 || op == 91;
      v[vd][l] = hi ? (v[vd][l] & 0xffff) | x << 16 : (v[vd][l] & 0xffff0000u) | x;
    }
    break;
  case 61: {   /* ds_swizzle_b32 */
    uint32_t tmp[SIM_ISA_WAVE_SIZE];
    for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++) {
      unsigned src;
      if (off & 0x8000) {
        src = (l & ~3u) | ((off >> (2 * (l & 3))) & 3);
      } else {
        unsigned and_m = off & 0x1f, or_m = (off >> 5) & 0x1f, xor_m = (off >> 10) & 0x1f;
        src = (l & 0x20) | ((((l & 0x1f) & and_m) | or_m) ^ xor_m);
      }
      tmp[l] = lane_on(exec, src) ? v[va][src] : 0;   /* the data comes in ADDR */
    }
    ISA_FOR_LANES(exec, l)
      v[vd][l] = tmp[l];
    break;
  }
  case 62: {   /* ds_permute_b32: lanes push their data to the lane their address names */
    uint32_t tmp[SIM_ISA_WAVE_SIZE] = {0};
    ISA_FOR_LANES(exec, l)
      tmp[((v[va][l] + off) >> 2) & (w->wave32 ? 31u : 63u)] = v[d0][l];
    ISA_FOR_LANES(exec, l)
      v[vd][l] = tmp[l];
    break;
  }
  case 63: {   /* ds_bpermute_b32: lanes pull from the lane their address names */
    uint32_t tmp[SIM_ISA_WAVE_SIZE] = {0};
    ISA_FOR_LANES(exec, l) {
      unsigned src = ((v[va][l] + off) >> 2) & (w->wave32 ? 31u : 63u);   /* wave32 wraps at 32 */
      tmp[l] = lane_on(exec, src) ? v[d0][src] : 0;
    }
    ISA_FOR_LANES(exec, l)
      v[vd][l] = tmp[l];
    break;
  }
  case 29: case 182: {   /* write/read_addtid_b32: M0[15:0] + offset + lane * 4 */
    uint32_t a = (w->m0 & 0xffff) + off;
    ISA_FOR_LANES(exec, l) {
      if (op == 29) wr(s, a + 4 * l, v[d0][l], 4);
      else v[vd][l] = rd(s, a + 4 * l, 4);
    }
    break;
  }
  case 189: case 190: {   /* consume/append: one counter update for the wave */
    uint32_t a = (w->m0 & 0xffff) + off, old = rd(s, a, 4), cnt = (uint32_t)__builtin_popcountll(exec);
    wr(s, a, op == 190 ? old + cnt : old - cnt, 4);
    ISA_FOR_LANES(exec, l)
      v[vd][l] = old;
    break;
  }
  default: {   /* atomics */
    bool wide = (op >= 64 && op < 96) || (op >= 96 && op < 128);
    bool rtn = (op >= 32 && op < 64) || op >= 96;
    int atop = -1;
    if (op <= 21 || (op >= 32 && op <= 53) || (op >= 64 && op <= 83) || (op >= 96 && op <= 115))
      atop = ds_atomic(op & 31, wide);
    if (op == 92 || op == 124)
      atop = ISA_AT_ADD_F64;
    if (atop < 0 || (atop == ISA_AT_WRAP && op != 52))
      return isa_unknown(w, in);
    /* cmpst/mskor take (cmp|mask, src) in data0, data1; the others src in data0 */
    bool swap = atop == ISA_AT_CMPSWAP || atop == ISA_AT_CMPST_F32 || atop == ISA_AT_CMPST_F64 ||
                atop == ISA_AT_MSKOR;
    ISA_FOR_LANES(exec, l) {
      uint8_t *p = at(s, (uint64_t)v[va][l] + off, wide ? 8 : 4);
      if (!wide) {
        uint32_t a0 = v[d0][l], a1 = v[d1][l], old = 0;
        if (p) {
          uint32_t t;
          memcpy(&t, p, 4);
          old = t;
          isa_atomic32((unsigned)atop, &t, swap ? a1 : a0, swap ? a0 : a1);
          memcpy(p, &t, 4);
        }
        if (rtn) v[vd][l] = old;
      } else {
        uint64_t a0 = v[d0][l] | (uint64_t)v[d0 + 1][l] << 32;
        uint64_t a1 = v[d1][l] | (uint64_t)v[d1 + 1][l] << 32, old = 0;
        if (p) {
          uint64_t t;
          memcpy(&t, p, 8);
          old = t;
          isa_atomic64((unsigned)atop, &t, swap ? a1 : a0, swap ? a0 : a1);
          memcpy(p, &t, 8);
        }
        if (rtn) {
          v[vd][l] = (uint32_t)old;
          v[vd + 1][l] = (uint32_t)(old >> 32);
        }
      }
    }
    break;
  }
  }
  w->pc += in->size;
  return 0;
}
