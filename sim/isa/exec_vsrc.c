/* SPDX-License-Identifier: MIT */
/* exec_vsrc.c — VALU operand fetch and write-back for all 64 lanes at once: DPP lane
 * permutations and masks, SDWA selects, 16-bit op_sel halves, abs/neg, omod/clamp, EXEC. */
#include "isa/valu.h"

#include <string.h>

/* ---- DPP ----
 * Source lane of lane `l` for dpp_ctrl, or -1 when it lies outside the row/wave. */
static int dpp_source(unsigned ctrl, unsigned l)
{
  unsigned row = l & ~15u, in_row = l & 15u;
  if (ctrl <= 0xff)                                          /* quad_perm */
    return (int)((l & ~3u) | ((ctrl >> (2 * (l & 3))) & 3));
  if (ctrl >= 0x101 && ctrl <= 0x10f) {                      /* row_shl: read lane + n */
    unsigned n = ctrl & 15;
    return in_row + n < 16 ? (int)(l + n) : -1;
  }
  if (ctrl >= 0x111 && ctrl <= 0x11f) {                      /* row_shr: read lane - n */
    unsigned n = ctrl & 15;
    return in_row >= n ? (int)(l - n) : -1;
  }
  if (ctrl >= 0x121 && ctrl <= 0x12f)                        /* row_ror */
    return (int)(row | ((in_row - (ctrl & 15)) & 15));
  if (ctrl >= 0x150 && ctrl <= 0x15f)                        /* row_newbcast (gfx90a), */
    return (int)(row | (ctrl & 15));                         /* gfx10+'s row_share */
  if (ctrl >= 0x160 && ctrl <= 0x16f)                        /* row_xmask (gfx10+ only: */
    return (int)(row | (in_row ^ (ctrl & 15)));              /* not valid on gfx9) */
  switch (ctrl) {
  case 0x130: return l < 63 ? (int)l + 1 : -1;               /* wave_shl:1 */
  case 0x134: return (int)((l + 1) & 63);                    /* wave_rol:1 */
  case 0x138: return l > 0 ? (int)l - 1 : -1;                /* wave_shr:1 */
  case 0x13c: return (int)((l - 1) & 63);                    /* wave_ror:1 */
  case 0x140: return (int)(row | (15 - in_row));             /* row_mirror */
  case 0x141: return (int)((l & ~7u) | (7 - (l & 7)));       /* row_half_mirror */
  case 0x142: return l >= 16 ? (int)row - 1 : -1;            /* row_bcast:15 */
  case 0x143: return l >= 32 ? 31 : -1;                      /* row_bcast:31 */
  default: return -1;
  }
}

bool valu_dpp_ctrl_valid(unsigned ctrl)
{
  if (ctrl <= 0xff || (ctrl >= 0x101 && ctrl <= 0x10f) || (ctrl >= 0x111 && ctrl <= 0x11f) ||
      (ctrl >= 0x121 && ctrl <= 0x12f) || (ctrl >= 0x150 && ctrl <= 0x15f))
    return true;
  switch (ctrl) {
  case 0x130: case 0x134: case 0x138: case 0x13c: case 0x140: case 0x141: case 0x142:
  case 0x143:
    return true;
  default:
    return false;
  }
}

/* Lanes whose DPP source is a lane that exists and is enabled. */
static uint64_t dpp_valid(const struct isa_wave *w, unsigned ctrl)
{
  uint64_t v = 0;
  for (unsigned l = 0; l < VALU_N; l++) {
    int s = dpp_source(ctrl, l);
    if (s >= 0 && (w->exec >> s & 1))
      v |= 1ull << l;
  }
  return v;
}

uint64_t valu_lanes(const struct isa_wave *w, const struct isa_inst *in)
{
  if (__builtin_expect(!in->dpp, 1))
    return w->exec;
  uint64_t m = 0;
  for (unsigned l = 0; l < VALU_N; l++)
    if ((in->dpp_row_mask >> (l >> 4) & 1) && (in->dpp_bank_mask >> ((l >> 2) & 3) & 1))
      m |= 1ull << l;
  if (!in->dpp_bound_ctrl)
    m &= dpp_valid(w, in->dpp_ctrl);
  return w->exec & m;
}

/* ---- source transforms ---- */
static inline uint32_t sdwa_sel(uint32_t v, unsigned sel, bool sext)
{
  switch (sel) {
  case 0: case 1: case 2: case 3: {
    uint32_t b = (v >> (8 * sel)) & 0xff;
    return sext ? (uint32_t)(int32_t)(int8_t)b : b;
  }
  case 4: return sext ? (uint32_t)(int32_t)(int16_t)v : (v & 0xffff);
  case 5: return sext ? (uint32_t)((int32_t)v >> 16) : (v >> 16);
  default: return v;
  }
}

struct xform {
  bool sdwa, sext;
  unsigned sel, shift;
  uint32_t abs_mask, neg_mask;
};

static inline uint32_t apply(const struct xform *x, uint32_t v)
{
  if (x->sdwa) v = sdwa_sel(v, x->sel, x->sext);
  v >>= x->shift;
  v &= ~x->abs_mask;
  return v ^ x->neg_mask;
}

const uint32_t *valu_src(struct isa_wave *w, const struct isa_inst *in, unsigned i,
                         enum isa_type t, uint32_t buf[VALU_N])
{
  unsigned code = in->src[i];
  struct xform x = { 0 };
  bool fl = t == ISA_T_F32 || t == ISA_T_F16;
  uint32_t sign = t == ISA_T_F16 ? 0x8000u : 0x80000000u;
  if (fl && (in->abs >> i & 1)) x.abs_mask = sign;
  if (fl && (in->neg >> i & 1)) x.neg_mask = sign;
  if (in->sdwa && i < 2) {
    x.sdwa = true;
    x.sel = in->sdwa_src_sel[i];
    x.sext = in->sdwa_sext >> i & 1;
  }
  if ((t == ISA_T_F16 || t == ISA_T_I16) && in->fmt == ISA_VOP3A && (in->opsel >> i & 1))
    x.shift = 16;
  bool plain = !x.sdwa && !x.shift && !x.abs_mask && !x.neg_mask;

  if (code < ISA_OP_VGPR0) {                 /* uniform: transform once, broadcast */
    uint32_t v = apply(&x, isa_read_v32(w, in, code, 0, t));
    for (unsigned l = 0; l < VALU_N; l++)
      buf[l] = v;
    return buf;
  }
  const uint32_t *p = w->vgpr[code - ISA_OP_VGPR0];
  if (i == 0 && in->dpp && (in->dpp_ctrl & VALU_DPP8)) {
    bool fi = in->dpp_ctrl & VALU_DPP8_FI;
    for (unsigned l = 0; l < VALU_N; l++) {
      unsigned s = (l & ~7u) | ((in->literal >> (3 * (l & 7))) & 7);
      buf[l] = fi || (w->exec >> s & 1) ? p[s] : 0;
    }
    p = buf;
  } else if (i == 0 && in->dpp) {
    for (unsigned l = 0; l < VALU_N; l++) {
      int s = dpp_source(in->dpp_ctrl, l);
      buf[l] = s >= 0 && (w->exec >> s & 1) ? p[s] : 0;   /* invalid: 0 (bound_ctrl) */
    }
    p = buf;
  } else if (plain) {
    return p;
  }
  if (!plain)
    for (unsigned l = 0; l < VALU_N; l++)
      buf[l] = apply(&x, p[l]);
  return buf;
}

const uint64_t *valu_src64(struct isa_wave *w, const struct isa_inst *in, unsigned i,
                           enum isa_type t, uint64_t buf[VALU_N])
{
  unsigned code = in->src[i];
  uint64_t am = 0, nm = 0;
  if (t == ISA_T_F64) {
    if (in->abs >> i & 1) am = 1ull << 63;
    if (in->neg >> i & 1) nm = 1ull << 63;
  }
  if (code < ISA_OP_VGPR0) {
    uint64_t v = (isa_read_v64(w, in, code, 0, t) & ~am) ^ nm;
    for (unsigned l = 0; l < VALU_N; l++)
      buf[l] = v;
    return buf;
  }
  unsigned r = code - ISA_OP_VGPR0;
  const uint32_t *lo = w->vgpr[r], *hi = w->vgpr[(r + 1) & (ISA_MAX_VGPRS - 1)];
  for (unsigned l = 0; l < VALU_N; l++)
    buf[l] = ((lo[l] | (uint64_t)hi[l] << 32) & ~am) ^ nm;
  return buf;
}

uint64_t valu_mask_src(struct isa_wave *w, const struct isa_inst *in, unsigned i)
{
  if (w->wave32)   /* wave32: a lane mask is one SGPR */
    return isa_read_s32(w, in, in->src[i]);
  return isa_read_s64(w, in, in->src[i], ISA_T_B64);
}

/* ---- write-back ---- */
static inline uint32_t sdwa_dst(uint32_t old, uint32_t r, unsigned sel, unsigned unused)
{
  unsigned shift, width;
  switch (sel) {
  case 0: case 1: case 2: case 3: shift = 8 * sel; width = 8; break;
  case 4: shift = 0; width = 16; break;
  case 5: shift = 16; width = 16; break;
  default: return r;
  }
  uint32_t field = ((1u << width) - 1) << shift;
  uint32_t v = (r << shift) & field;
  switch (unused) {
  case 2:                                    /* UNUSED_PRESERVE */
    return v | (old & ~field);
  case 1: {                                  /* UNUSED_SEXT: sign fills the bits above */
    bool neg = r >> (width - 1) & 1;
    uint32_t above = shift + width >= 32 ? 0 : ~0u << (shift + width);
    return v | (neg ? above : 0);
  }
  default:                                   /* UNUSED_PAD */
    return v;
  }
}

static void store32(struct isa_wave *w, const struct isa_inst *in, const uint32_t *r)
{
  uint64_t m = valu_lanes(w, in);
  uint32_t *d = w->vgpr[(in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1)];
  if (in->sdwa && in->fmt != ISA_VOPC && in->sdwa_dst_sel != 6) {
    VALU_EACH(m, l)
      d[l] = sdwa_dst(d[l], r[l], in->sdwa_dst_sel, in->sdwa_dst_unused);
    return;
  }
  if (m == ~0ull) {
    memcpy(d, r, VALU_N * sizeof *d);
    return;
  }
  for (unsigned l = 0; l < VALU_N; l++)       /* a blend the compiler can vectorize */
    d[l] = (m >> l & 1) ? r[l] : d[l];
}

void valu_put(struct isa_wave *w, const struct isa_inst *in, const uint32_t *r, enum isa_type t)
{
  if ((in->omod || in->clamp) && (t == ISA_T_F32 || t == ISA_T_F16)) {
    uint32_t b[VALU_N];
    bool dx10 = w->mode & FP_MODE_DX10_CLAMP;
    VALU_EACH(valu_lanes(w, in), l)
      b[l] = t == ISA_T_F32 ? fp_omod_clamp32(r[l], in->omod, in->clamp, dx10)
                            : fp_omod_clamp16(r[l], in->omod, in->clamp, dx10);
    store32(w, in, b);
    return;
  }
  store32(w, in, r);
}

void valu_put16(struct isa_wave *w, const struct isa_inst *in, const uint32_t *r,
                enum isa_type t, bool keep_hi)
{
  uint32_t b[VALU_N];
  uint64_t m = valu_lanes(w, in);
  bool fl = t == ISA_T_F16 && (in->omod || in->clamp), dx10 = w->mode & FP_MODE_DX10_CLAMP;
  VALU_EACH(m, l)
    b[l] = fl ? fp_omod_clamp16(r[l], in->omod, in->clamp, dx10) : r[l] & 0xffff;
  if (in->sdwa) {
    store32(w, in, b);
    return;
  }
  uint32_t *d = w->vgpr[(in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1)];
  if (in->fmt == ISA_VOP3A && (in->opsel & 8)) {
    VALU_EACH(m, l)
      d[l] = (d[l] & 0xffffu) | b[l] << 16;
  } else if (keep_hi || in->target >= ISA_TARGET_GFX1100) {   /* gfx10+ keep the high half */
    VALU_EACH(m, l)
      d[l] = (d[l] & 0xffff0000u) | b[l];
  } else {
    VALU_EACH(m, l)
      d[l] = b[l];
  }
}

void valu_put64(struct isa_wave *w, const struct isa_inst *in, const uint64_t *r,
                enum isa_type t)
{
  uint64_t m = valu_lanes(w, in);
  unsigned n = (in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1);
  uint32_t *lo = w->vgpr[n], *hi = w->vgpr[(n + 1) & (ISA_MAX_VGPRS - 1)];
  bool mod = t == ISA_T_F64 && (in->omod || in->clamp), dx10 = w->mode & FP_MODE_DX10_CLAMP;
  VALU_EACH(m, l) {
    uint64_t v = mod ? fp_omod_clamp64(r[l], in->omod, in->clamp, dx10) : r[l];
    lo[l] = (uint32_t)v;
    hi[l] = (uint32_t)(v >> 32);
  }
}

void valu_put_mask(struct isa_wave *w, const struct isa_inst *in, uint64_t m)
{
  if (w->wave32)
    isa_write_s32(w, in->sdst, (uint32_t)m);
  else
    isa_write_s64(w, in->sdst, m);
}
