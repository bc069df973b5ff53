/* SPDX-License-Identifier: MIT */
/* exec_mubuf.c — buffer loads, stores and atomics through a buffer resource (V#): base,
 * stride, num_records, swizzling (element size, index stride), ADD_TID_ENABLE; out-of-range
 * elements read 0 and are not written. The private segment buffer the runtime builds for
 * scratch is such a resource (swizzled, ADD_TID). MTBUF and the *_format forms convert
 * the common data/number formats. */
#include "isa/exec.h"
#include "isa/gfx11.h"
#include "isa/hostmem.h"

#include <math.h>
#include <string.h>

struct vsharp {
  uint64_t base;
  uint32_t stride, num_records;
  bool swizzle, add_tid;
  unsigned elem, istride;   /* bytes, lanes (swizzle mode) */
  unsigned dfmt, nfmt, dst_sel;
};

static struct vsharp vsharp(const struct isa_wave *w, unsigned s, unsigned target)
{
  uint32_t d0 = w->sgpr[s & 0x7f], d1 = w->sgpr[(s + 1) & 0x7f], d2 = w->sgpr[(s + 2) & 0x7f],
           d3 = w->sgpr[(s + 3) & 0x7f];
  struct vsharp r;
  r.base = d0 | (uint64_t)(d1 & 0xffff) << 32;
  r.stride = (d1 >> 16) & 0x3fff;
  r.swizzle = (d1 >> 31) & 1;
  r.num_records = d2;
  r.dst_sel = d3 & 0xfff;
  r.nfmt = (d3 >> 12) & 7;
  r.dfmt = (d3 >> 15) & 0xf;
  r.elem = 2u << ((d3 >> 19) & 3);
  r.istride = 8u << ((d3 >> 21) & 3);
  r.add_tid = (d3 >> 23) & 1;
  if (target == ISA_TARGET_GFX1100 || target == ISA_TARGET_GFX1201) {
    /* gfx10+: one unified FORMAT in word3[17:12] (the RDNA3 ISA's buffer resource table) */
    uint8_t df, nf;
    g11_unified_format((d3 >> 12) & 0x3f, &df, &nf);
    r.dfmt = df;
    r.nfmt = nf;
  }
  return r;
}

struct lane {
  uint32_t index, offset, soffset;
};

/* Address of byte `k` past the lane's offset, or 0 with *oob when out of range. */
static uint64_t buf_addr(const struct vsharp *r, const struct isa_inst *in, struct lane ln,
                         uint32_t k, bool *oob)
{
  uint32_t off = ln.offset + k, idx = ln.index;
  *oob = false;
  if (r->stride == 0) {
    uint64_t bo;
    if (r->swizzle)
      bo = off % r->elem + (uint64_t)r->elem * (idx % r->istride) +
           (uint64_t)r->istride * ((off / r->elem) * r->elem);
    else
      bo = off;
    if (bo + ln.soffset >= r->num_records) {
      *oob = true;
      return 0;
    }
    return r->base + ln.soffset + bo;
  }
  if (idx >= r->num_records || ((in->idxen || r->add_tid) && ln.offset >= r->stride)) {
    *oob = true;
    return 0;
  }
  uint64_t bo;
  if (r->swizzle)
    bo = off % r->elem + (uint64_t)r->elem * (idx % r->istride) +
         (uint64_t)r->istride * ((uint64_t)(idx / r->istride) * r->stride + (off / r->elem) * r->elem);
  else
    bo = (uint64_t)idx * r->stride + off;
  return r->base + ln.soffset + bo;
}

/* `n` (<= 4) dwords of a lane's access to or from d[], range-checked per dword (loads of
 * those out of range give 0, stores skip them). An in-range, adjacent, 8-byte-aligned pair
 * is one 64-bit access (hostmem.h); it never crosses a page, so it faults as its dwords
 * would. */
static int buf_dwords(struct isa_wave *w, const struct vsharp *r, const struct isa_inst *in,
                      struct lane ln, uint32_t *d, unsigned n, bool store)
{
  bool oob;
  for (unsigned k = 0; k < n;) {
    uint64_t a = buf_addr(r, in, ln, 4 * k, &oob);
    if (oob) {
      if (!store) d[k] = 0;
      k++;
      continue;
    }
    bool pair = false;
    if (k + 1 < n && !(a & 7)) {
      bool oob1;
      uint64_t a1 = buf_addr(r, in, ln, 4 * (k + 1), &oob1);
      pair = !oob1 && a1 == a + 4;
    }
    unsigned m = pair ? 2 : 1;
    uint8_t *p = isa_mem_fast(w, a, 4 * m, store);
    if (!p)
      return -1;
    if (store) isa_st_dwords(p, d + k, m); else isa_ld_dwords(p, d + k, m);
    k += m;
  }
  return 0;
}

/* ---- data formats (MTBUF, *_format) ---- */
struct fmt {
  unsigned comps, bits[4];
};

static bool fmt_of(unsigned dfmt, struct fmt *f)
{
  static const struct fmt t[16] = {
    [1] = {1, {8}}, [2] = {1, {16}}, [3] = {2, {8, 8}}, [4] = {1, {32}}, [5] = {2, {16, 16}},
    [6] = {3, {10, 11, 11}}, [7] = {3, {11, 11, 10}}, [8] = {4, {10, 10, 10, 2}},
    [9] = {4, {2, 10, 10, 10}}, [10] = {4, {8, 8, 8, 8}}, [11] = {2, {32, 32}},
    [12] = {4, {16, 16, 16, 16}}, [13] = {3, {32, 32, 32}}, [14] = {4, {32, 32, 32, 32}}};
  *f = t[dfmt & 15];
  return f->comps != 0;
}

static uint32_t fbits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static float ffrom(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }

static float half_to_float(uint16_t h)
{
  unsigned e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024), (int)e - 25);
  return (h & 0x8000) ? -v : v;
}

static uint16_t float_to_half(float f)
{
  uint32_t u = fbits(f), s = (u >> 16) & 0x8000;
  int e = (int)((u >> 23) & 0xff) - 127 + 15;
  uint32_t m = u & 0x7fffff;
  if (((u >> 23) & 0xff) == 0xff) return (uint16_t)(s | 0x7c00 | (m ? 0x200 : 0));
  if (e >= 31) return (uint16_t)(s | 0x7c00);
  if (e <= 0) {
    if (e < -10) return (uint16_t)s;
    m |= 0x800000;
    uint32_t sh = (uint32_t)(14 - e), r = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    if (rem > half || (rem == half && (r & 1))) r++;
    return (uint16_t)(s | r);
  }
  uint32_t r = (uint32_t)e << 10 | m >> 13, rem = m & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (r & 1))) r++;
  return (uint16_t)(s | r);
}

static uint32_t unpack(uint32_t raw, unsigned bits, unsigned nfmt)
{
  if (bits == 32)
    return raw;
  uint32_t max = (1u << bits) - 1;
  int32_t sv = (int32_t)(raw << (32 - bits)) >> (32 - bits);
  switch (nfmt) {
  case 0: return fbits((float)raw / (float)max);                                  /* unorm */
  case 1: { float x = (float)sv / (float)(max >> 1); return fbits(x < -1.f ? -1.f : x); } /* snorm */
  case 2: return fbits((float)raw);                                               /* uscaled */
  case 3: return fbits((float)sv);                                                /* sscaled */
  case 4: return raw;                                                              /* uint */
  case 5: return (uint32_t)sv;                                                     /* sint */
  case 7: return bits == 16 ? fbits(half_to_float((uint16_t)raw)) : raw;           /* float */
  default: return raw;
  }
}

static uint32_t pack(uint32_t v, unsigned bits, unsigned nfmt)
{
  if (bits == 32)
    return v;
  uint32_t max = (1u << bits) - 1;
  float f = ffrom(v);
  switch (nfmt) {
  case 0: { f = f < 0 ? 0 : f > 1 ? 1 : f; return (uint32_t)lrintf(f * (float)max) & max; }
  case 1: { f = f < -1 ? -1 : f > 1 ? 1 : f; return (uint32_t)lrintf(f * (float)(max >> 1)) & max; }
  case 2: return (uint32_t)lrintf(f) & max;
  case 3: return (uint32_t)lrintf(f) & max;
  case 7: return bits == 16 ? float_to_half(f) : v & max;
  default: return v & max;
  }
}

/* The index and offset lane l addresses with (idxen, offen, ADD_TID). */
static struct lane lane_of(const struct isa_inst *in, const struct vsharp *r,
                           uint32_t (*v)[SIM_ISA_WAVE_SIZE], unsigned va, uint32_t soff,
                           unsigned l)
{
  struct lane ln = {0, (uint32_t)in->offset, soff};
  if (in->idxen) ln.index = v[va][l];
  if (in->offen) ln.offset += v[va + (in->idxen ? 1 : 0)][l];
  if (r->add_tid) ln.index += (uint32_t)l;
  return ln;
}

/* ---- the instruction ---- */
int isa_exec_mubuf(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned op = in->op;
  bool mtbuf = in->fmt == ISA_MTBUF;
  if (!mtbuf && (op == 62 || op == 63 || op == 40 || op == 41)) {   /* cache maintenance */
    isa_mem_fence();
    w->pc += in->size;
    return 0;
  }
  if (in->lds || in->tfe)
    return isa_unknown(w, in);
  struct vsharp r = vsharp(w, in->saddr, in->target);
  uint32_t soff = isa_read_s32(w, in, in->soffset);
  unsigned va = in->addr - ISA_OP_VGPR0, vs = in->data - ISA_OP_VGPR0;
  uint32_t (*v)[SIM_ISA_WAVE_SIZE] = w->vgpr;
  /* MTBUF and MUBUF 8-15 are the d16 forms of 0-7: components as packed halves, two per
   * VGPR; MUBUF 38/39 (buffer_load/store_format_d16_hi_x) one component in the high half */
  bool d16_hi = !mtbuf && (op == 38 || op == 39);
  bool d16 = (op >= 8 && op <= 15) || d16_hi;
  bool fmt_op = op <= 7 || d16;
  if (mtbuf && op > 15)
    return isa_unknown(w, in);
  bool oob;
  /* Atomics: op 64.. 32-bit, 96.. 64-bit; the f64 ones are 64-bit whatever their range. */
  bool wide = op >= 96;
  unsigned atop = wide ? op - 96 : op - 64;
  if (op >= 64 && !fmt_op) {
    if (atop > ISA_AT_MAX_F64 || (wide && atop > ISA_AT_DEC))
      return isa_unknown(w, in);
    wide |= atop >= ISA_AT_ADD_F64;
    /* An atomic that faults on some lane (unmapped, misaligned: a 64-bit atomic through a
     * swizzled resource of 4-byte elements) must not have changed memory or registers for
     * the lanes before it: every lane is checked before any lane runs. */
    ISA_FOR_LANES(w->exec, l) {
      uint64_t a = buf_addr(&r, in, lane_of(in, &r, v, va, soff, l), 0, &oob);
      if (oob) continue;
      if (!isa_mem_fast(w, a, wide ? 8 : 4, true)) return -1;
      if (a & (wide ? 7 : 3))
        return isa_fault(w, SIM_ISA_FAULT_MEMORY, a, true, "misaligned buffer atomic at 0x%llx",
                         (unsigned long long)a);
    }
  }
  ISA_FOR_LANES(w->exec, l) {
    struct lane ln = lane_of(in, &r, v, va, soff, l);
    if (fmt_op) {
      struct fmt f;
      unsigned dfmt = mtbuf ? in->dfmt : r.dfmt, nfmt = mtbuf ? in->nfmt : r.nfmt;
      unsigned n = d16_hi ? 1 : (op & 3) + 1;
      if (!fmt_of(dfmt, &f))
        return isa_unknown(w, in);
      unsigned total = 0;
      for (unsigned c = 0; c < f.comps; c++) total += f.bits[c];
      unsigned bytes = (total + 7) / 8;
      bool store = d16_hi ? op == 39 : (op & 7) >= 4, is_int = nfmt == 4 || nfmt == 5;
      uint32_t comp[4] = {0, 0, 0, is_int ? 1u : fbits(1.0f)}, sd[4] = {0, 0, 0, 0};
      for (unsigned c = 0; store && c < n; c++) {
        uint32_t h = (v[vs + c / 2][l] >> (16 * ((c & 1) | d16_hi))) & 0xffff;   /* d16: a half */
        sd[c] = !d16 ? v[vs + c][l] : !is_int ? fbits(half_to_float((uint16_t)h))
                : nfmt == 5 ? (uint32_t)(int32_t)(int16_t)h : h;
      }
      if (f.bits[0] != 32) {
        /* packed components in one element of `bytes` (<= 8) bytes: 16_16_16_16 is 8 bytes
         * of four halves, not four dwords */
        uint64_t a = buf_addr(&r, in, ln, 0, &oob);
        uint8_t *p = oob ? NULL : isa_mem_fast(w, a, bytes, store);
        if (!oob && !p) return -1;
        uint64_t raw = 0;
        if (p && bytes <= 4) {
          raw = isa_ld_small(p, bytes);
        } else if (p) {
          uint32_t d2[2];
          isa_ld_dwords(p, d2, 2);
          raw = d2[0] | (uint64_t)d2[1] << 32;
        }
        unsigned sh = 0;
        for (unsigned c = 0; c < f.comps; c++) {
          uint64_t m = f.bits[c] == 32 ? 0xffffffffull : ((1ull << f.bits[c]) - 1);
          if (store) {
            if (c < n) raw = (raw & ~(m << sh)) | ((uint64_t)pack(sd[c], f.bits[c], nfmt) & m) << sh;
          } else {
            comp[c] = unpack((uint32_t)((raw >> sh) & m), f.bits[c], nfmt);
          }
          sh += f.bits[c];
        }
        if (store && p && bytes <= 4) {
          isa_st_small(p, (uint32_t)raw, bytes);
        } else if (store && p) {
          uint32_t d2[2] = {(uint32_t)raw, (uint32_t)(raw >> 32)};
          isa_st_dwords(p, d2, 2);
        }
      } else if (store) {   /* 32-bit components: the first n of them */
        unsigned m = n < f.comps ? n : f.comps;
        for (unsigned c = 0; c < m; c++)
          comp[c] = sd[c];
        if (buf_dwords(w, &r, in, ln, comp, m, true)) return -1;
      } else {
        if (buf_dwords(w, &r, in, ln, comp, f.comps, false)) return -1;
      }
      if (!store) {
        for (unsigned c = 0; c < n; c++) {
          uint32_t x = comp[c];
          if (!mtbuf) {   /* buffer_load_format applies the resource's destination select */
            unsigned sel = (r.dst_sel >> (3 * c)) & 7;
            x = sel == 0 ? 0 : sel == 1 ? (nfmt == 4 || nfmt == 5 ? 1u : fbits(1.0f)) :
                sel >= 4 ? comp[sel - 4] : 0;
          }
          if (d16) {   /* the low half clears the high one, as image d16 loads do; _hi
                        * writes the high half and keeps the low one */
            uint32_t h = is_int ? x & 0xffff : float_to_half(ffrom(x)), *dst = &v[vs + c / 2][l];
            *dst = (c & 1) || d16_hi ? (*dst & 0xffff) | h << 16 : h;
          } else {
            v[vs + c][l] = x;
          }
        }
      }
      continue;
    }
    if (op >= 64) {   /* atomics, decoded and checked on every lane above */
      uint64_t a = buf_addr(&r, in, ln, 0, &oob);
      uint64_t old = 0;
      if (!oob) {
        void *p = isa_mem_fast(w, a, wide ? 8 : 4, true);
        if (!p) return -1;
        if (a & (wide ? 7 : 3))
          return isa_fault(w, SIM_ISA_FAULT_MEMORY, a, true, "misaligned buffer atomic at 0x%llx",
                           (unsigned long long)a);
        if (wide)
          old = isa_atomic64(atop, p, v[vs][l] | (uint64_t)v[vs + 1][l] << 32,
                             v[vs + 2][l] | (uint64_t)v[vs + 3][l] << 32);
        else
          old = isa_atomic32(atop, p, v[vs][l], v[vs + 1][l]);
      }
      if (in->glc) {
        v[vs][l] = (uint32_t)old;
        if (wide) v[vs + 1][l] = (uint32_t)(old >> 32);
      }
      continue;
    }
    if (op >= 16 && op <= 19) {   /* sub-dword loads */
      unsigned len = op <= 17 ? 1 : 2;
      uint64_t a = buf_addr(&r, in, ln, 0, &oob);
      uint32_t raw = 0;
      if (!oob) {
        const uint8_t *p = isa_mem_fast(w, a, len, false);
        if (!p) return -1;
        raw = isa_ld_small(p, len);
      }
      if (op == 17) raw = (uint32_t)(int32_t)(int8_t)raw;
      if (op == 19) raw = (uint32_t)(int32_t)(int16_t)raw;
      v[vs][l] = raw;
      continue;
    }
    if (op >= 32 && op <= 37) {   /* d16 loads: one half of the register */
      unsigned len = op <= 35 ? 1 : 2;
      uint64_t a = buf_addr(&r, in, ln, 0, &oob);
      uint32_t raw = 0;
      if (!oob) {
        const uint8_t *p = isa_mem_fast(w, a, len, false);
        if (!p) return -1;
        raw = isa_ld_small(p, len);
      }
      if (op == 34 || op == 35) raw = (uint32_t)(int32_t)(int8_t)raw;
      raw &= 0xffff;
      v[vs][l] = (op & 1) ? (v[vs][l] & 0xffff) | raw << 16 : (v[vs][l] & 0xffff0000u) | raw;
      continue;
    }
    if (op >= 24 && op <= 27) {   /* sub-dword stores */
      unsigned len = op <= 25 ? 1 : 2;
      uint32_t x = (op & 1) ? v[vs][l] >> 16 : v[vs][l];
      uint64_t a = buf_addr(&r, in, ln, 0, &oob);
      if (!oob) {
        uint8_t *p = isa_mem_fast(w, a, len, true);
        if (!p) return -1;
        isa_st_small(p, x, len);
      }
      continue;
    }
    if ((op >= 20 && op <= 23) || (op >= 28 && op <= 31)) {   /* dword loads and stores */
      bool store = op >= 28;
      unsigned n = in->dwords;
      uint32_t d[4];
      if (store)
        for (unsigned k = 0; k < n; k++)
          d[k] = v[vs + k][l];
      if (buf_dwords(w, &r, in, ln, d, n, store)) return -1;
      if (!store)
        for (unsigned k = 0; k < n; k++)
          v[vs + k][l] = d[k];
      continue;
    }
    return isa_unknown(w, in);
  }
  w->pc += in->size;
  return 0;
}
