/* SPDX-License-Identifier: MIT */
/* exec_vf16.c — f16 VALU operations (denormals per MODE's f64/f16 field). Arithmetic is done
 * in f32/f64, whose extra precision makes the final rounding to f16 the only one that
 * matters. gfx9 zeroes the high half of 16-bit results, except for v_mad/v_fma/v_mac
 * f16 and v_div_fixup_f16, which keep it (as LLVM's GCNSubtarget records). */
#include "isa/valu.h"

#define F16 ISA_T_F16

static inline float hin(uint32_t h, bool keep) { return fp_f16_to_f32(keep ? h & 0xffff : fp_ftz16(h)); }
static inline uint32_t hout(float f, bool keep)
{
  uint32_t h = fp_f32_to_f16(f);
  return keep ? h : fp_ftz16(h);
}
static inline uint32_t hout64(double f, bool keep)
{
  /* a value of double precision: round to f32 first is innocuous (24 >= 2*11 + 2) */
  return hout((float)f, keep);
}

/* VALU_F16(fn, n, keep_hi, BODY): float x, y, z in; float f out (rounded to f16 once) */
#define VALU_H(fn, n, keep_hi, ...)                                                         \
  static int fn(struct isa_wave *w, const struct isa_inst *in)                              \
  {                                                                                          \
    uint32_t b0_[VALU_N], b1_[VALU_N], b2_[VALU_N], r_[VALU_N];                              \
    const uint32_t *s0_ = valu_src(w, in, 0, F16, b0_);                                      \
    const uint32_t *s1_ = (n) > 1 ? valu_src(w, in, 1, F16, b1_) : s0_;                      \
    const uint32_t *s2_ = (n) > 2 ? valu_src(w, in, 2, F16, b2_) : s0_;                      \
    const bool din = valu_d64in(w), dout = valu_d64out(w), ieee = valu_ieee(w);              \
    (void)ieee; (void)dout;                                                                  \
    VALU_LOOP(valu_lanes(w, in), l, {                                                        \
      uint32_t a = s0_[l] & 0xffff, b = s1_[l] & 0xffff, c = s2_[l] & 0xffff, d;             \
      float x = hin(a, din), y = hin(b, din), z = hin(c, din);                               \
      (void)x; (void)y; (void)z; (void)b; (void)c;                                           \
      __VA_ARGS__;                                                                                  \
      r_[l] = d;                                                                             \
    });                                                                                       \
    valu_put16(w, in, r_, F16, keep_hi);                                                     \
    return valu_next(w, in);                                                                 \
  }

VALU_H(v_add_f16, 2, false, d = hout(x + y, dout))
VALU_H(v_sub_f16, 2, false, d = hout(x - y, dout))
VALU_H(v_subrev_f16, 2, false, d = hout(y - x, dout))
VALU_H(v_mul_f16, 2, false, d = hout(x * y, dout))
/* mad: product rounded to f16, then the sum; no denormals */
VALU_H(v_mad_f16, 3, true, d = fp_ftz16(fp_f32_to_f16(fp_f16_to_f32(fp_ftz16(fp_f32_to_f16(hin(a, false) * hin(b, false)))) + hin(c, false))))
VALU_H(v_mad_legacy_f16, 3, false, d = fp_ftz16(fp_f32_to_f16(fp_f16_to_f32(fp_ftz16(fp_f32_to_f16(hin(a, false) * hin(b, false)))) + hin(c, false))))
VALU_H(v_fma_f16, 3, true, d = hout64((double)x * y + z, dout))
VALU_H(v_fma_legacy_f16, 3, false, d = hout64((double)x * y + z, dout))
VALU_H(v_max_f16, 2, false, d = fp_max16(fp_f32_to_f16(x), fp_f32_to_f16(y), ieee))
VALU_H(v_min_f16, 2, false, d = fp_min16(fp_f32_to_f16(x), fp_f32_to_f16(y), ieee))
VALU_H(v_min3_f16, 3, false,
       d = fp_min16(fp_min16(fp_f32_to_f16(x), fp_f32_to_f16(y), ieee), fp_f32_to_f16(z), ieee))
VALU_H(v_max3_f16, 3, false,
       d = fp_max16(fp_max16(fp_f32_to_f16(x), fp_f32_to_f16(y), ieee), fp_f32_to_f16(z), ieee))
VALU_H(v_med3_f16, 3, false,
       d = fp_med3_16(fp_f32_to_f16(x), fp_f32_to_f16(y), fp_f32_to_f16(z), ieee))
VALU_H(v_rcp_f16, 1, false, d = hout(1.0f / x, dout))
VALU_H(v_sqrt_f16, 1, false, d = hout(sqrtf(x), dout))
VALU_H(v_rsq_f16, 1, false, d = hout((float)(1.0 / sqrt((double)x)), dout))
VALU_H(v_log_f16, 1, false, d = hout(log2f(x), dout))
VALU_H(v_exp_f16, 1, false, d = hout(exp2f(x), dout))
VALU_H(v_floor_f16, 1, false, d = hout(floorf(x), dout))
VALU_H(v_ceil_f16, 1, false, d = hout(ceilf(x), dout))
VALU_H(v_trunc_f16, 1, false, d = hout(truncf(x), dout))
VALU_H(v_rndne_f16, 1, false, d = hout(fp_rne32(x), dout))
VALU_H(v_fract_f16, 1, false, {
  float f = x - floorf(x);
  d = isinf(x) ? 0x7e00u : hout(f, dout);
  if (d == 0x3c00u) d = 0x3bffu;             /* stays below 1.0 */
})
VALU_H(v_sin_f16, 1, false, d = hout((float)sin(2.0 * M_PI * ((double)x - rint((double)x))), dout))
VALU_H(v_cos_f16, 1, false, d = hout((float)cos(2.0 * M_PI * ((double)x - rint((double)x))), dout))
VALU_H(v_frexp_mant_f16, 1, false, {
  int e;
  d = isinf(x) || isnan(x) ? a : hout(frexpf(x, &e), dout);
})
VALU_H(v_frexp_exp_i16_f16, 1, false, {
  int e = 0;
  if (!isinf(x) && !isnan(x)) frexpf(x, &e);
  d = (uint32_t)e & 0xffff;
})
VALU_H(v_div_fixup_f16, 3, true, d = fp_div_fixup16(a, b, c))
VALU_H(v_div_fixup_legacy_f16, 3, false, d = fp_div_fixup16(a, b, c))

/* S1 is an i16 exponent */
static int v_ldexp_f16(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b0[VALU_N], b1[VALU_N], r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, F16, b0), *b = valu_src(w, in, 1, ISA_T_I16, b1);
  bool din = valu_d64in(w), dout = valu_d64out(w);
  VALU_EACH(valu_lanes(w, in), l)
    r[l] = hout(ldexpf(hin(a[l], din), (int16_t)b[l]), dout);
  valu_put16(w, in, r, F16, false);
  return valu_next(w, in);
}

/* two f16 (with their op_sel halves and modifiers) into one dword */
static int v_pack_b32_f16(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b0[VALU_N], b1[VALU_N], r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, F16, b0), *b = valu_src(w, in, 1, F16, b1);
  VALU_EACH(valu_lanes(w, in), l)
    r[l] = (a[l] & 0xffff) | (b[l] & 0xffff) << 16;
  valu_put(w, in, r, ISA_T_B32);
  return valu_next(w, in);
}

#define E(op, gfx, flags, fn) { op, gfx, flags, #fn, fn }
#define V2 VALU_OP_VOP2 +
#define V1 VALU_OP_VOP1 +
const struct valu_desc valu_f16_ops[] = {
  E(V2 0x1f, VALU_GFX9, 0, v_add_f16), E(V2 0x20, VALU_GFX9, 0, v_sub_f16),
  E(V2 0x21, VALU_GFX9, 0, v_subrev_f16), E(V2 0x22, VALU_GFX9, 0, v_mul_f16),
  { V2 0x23, VALU_GFX9, VALU_F_MAC, "v_mac_f16", v_mad_f16 },
  { V2 0x24, VALU_GFX9, VALU_F_MADMK, "v_madmk_f16", v_mad_f16 },
  { V2 0x25, VALU_GFX9, VALU_F_MADAK, "v_madak_f16", v_mad_f16 },
  E(V2 0x2d, VALU_GFX9, 0, v_max_f16), E(V2 0x2e, VALU_GFX9, 0, v_min_f16),
  E(V2 0x33, VALU_GFX9, 0, v_ldexp_f16),
  E(V1 0x3d, VALU_GFX9, 0, v_rcp_f16), E(V1 0x3e, VALU_GFX9, 0, v_sqrt_f16),
  E(V1 0x3f, VALU_GFX9, 0, v_rsq_f16), E(V1 0x40, VALU_GFX9, 0, v_log_f16),
  E(V1 0x41, VALU_GFX9, 0, v_exp_f16), E(V1 0x42, VALU_GFX9, 0, v_frexp_mant_f16),
  E(V1 0x43, VALU_GFX9, 0, v_frexp_exp_i16_f16), E(V1 0x44, VALU_GFX9, 0, v_floor_f16),
  E(V1 0x45, VALU_GFX9, 0, v_ceil_f16), E(V1 0x46, VALU_GFX9, 0, v_trunc_f16),
  E(V1 0x47, VALU_GFX9, 0, v_rndne_f16), E(V1 0x48, VALU_GFX9, 0, v_fract_f16),
  E(V1 0x49, VALU_GFX9, 0, v_sin_f16), E(V1 0x4a, VALU_GFX9, 0, v_cos_f16),
  E(0x1ea, VALU_GFX9, 0, v_mad_legacy_f16), E(0x1ee, VALU_GFX9, 0, v_fma_legacy_f16),
  E(0x1ef, VALU_GFX9, 0, v_div_fixup_legacy_f16), E(0x1f4, VALU_GFX9, 0, v_min3_f16),
  E(0x1f7, VALU_GFX9, 0, v_max3_f16), E(0x1fa, VALU_GFX9, 0, v_med3_f16),
  E(0x203, VALU_GFX9, 0, v_mad_f16), E(0x206, VALU_GFX9, 0, v_fma_f16),
  E(0x207, VALU_GFX9, 0, v_div_fixup_f16), E(0x2a0, VALU_GFX9, 0, v_pack_b32_f16),
};
VALU_COUNT(f16);
