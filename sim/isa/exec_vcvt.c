/* SPDX-License-Identifier: MIT */
/* exec_vcvt.c — conversions between integers, f16, f32 and f64 with the hardware's rules:
 * float to integer truncates, NaN gives 0 and out-of-range values saturate; integer to
 * float and narrowing float conversions round to nearest even. */
#include "isa/valu.h"

#define F32 ISA_T_F32
#define B32 ISA_T_B32
#define F16 ISA_T_F16

VALU_OP32(v_cvt_i32_f32, F32, B32, 1, d = (uint32_t)fp_to_i32(fp_in32(a, din)))
VALU_OP32(v_cvt_u32_f32, F32, B32, 1, d = fp_to_u32(fp_in32(a, din)))
VALU_OP32(v_cvt_rpi_i32_f32, F32, B32, 1, d = (uint32_t)fp_to_i32(floor((double)fp_in32(a, din) + 0.5)))
VALU_OP32(v_cvt_flr_i32_f32, F32, B32, 1, d = (uint32_t)fp_to_i32(floorf(fp_in32(a, din))))
VALU_OP32(v_cvt_f32_i32, B32, F32, 1, d = fp_out32((float)(int32_t)a, dout))
VALU_OP32(v_cvt_f32_u32, B32, F32, 1, d = fp_out32((float)a, dout))
VALU_OP32(v_cvt_off_f32_i4, B32, F32, 1, d = fp_u((float)((int32_t)(a << 28) >> 28) * 0.0625f))
VALU_OP32(v_cvt_f32_ubyte0, B32, F32, 1, d = fp_u((float)(a & 0xff)))
VALU_OP32(v_cvt_f32_ubyte1, B32, F32, 1, d = fp_u((float)(a >> 8 & 0xff)))
VALU_OP32(v_cvt_f32_ubyte2, B32, F32, 1, d = fp_u((float)(a >> 16 & 0xff)))
VALU_OP32(v_cvt_f32_ubyte3, B32, F32, 1, d = fp_u((float)(a >> 24)))

/* f16 input (denormals per the f64/f16 field), f32 result */
VALU_OP32(v_cvt_f32_f16, F16, F32, 1,
          d = fp_out32(fp_f16_to_f32(valu_d64in(w) ? a & 0xffff : fp_ftz16(a)), dout))

/* ---- results of 16 bits ---- */
#define VALU_TO16(fn, TA, TD, n, ...)                                                           \
  static int fn(struct isa_wave *w, const struct isa_inst *in)                              \
  {                                                                                          \
    uint32_t b0_[VALU_N], b1_[VALU_N], r_[VALU_N];                                           \
    const uint32_t *s0_ = valu_src(w, in, 0, TA, b0_);                                       \
    const uint32_t *s1_ = (n) > 1 ? valu_src(w, in, 1, TA, b1_) : s0_;                       \
    const bool din = valu_d32in(w), hin = valu_d64in(w), hout = valu_d64out(w);              \
    (void)din; (void)hin; (void)hout; (void)s1_;                                             \
    VALU_LOOP(valu_lanes(w, in), l, {                                                        \
      uint32_t a = s0_[l], b = s1_[l], d;                                                    \
      (void)b;                                                                               \
      __VA_ARGS__;                                                                                  \
      r_[l] = d;                                                                             \
    });                                                                                       \
    valu_put16(w, in, r_, TD, false);                                                        \
    return valu_next(w, in);                                                                 \
  }

static inline uint32_t h_out(uint32_t h, bool keep) { return keep ? h : fp_ftz16(h); }
static inline float h_in(uint32_t h, bool keep) { return fp_f16_to_f32(keep ? h & 0xffff : fp_ftz16(h)); }

VALU_TO16(v_cvt_f16_f32, F32, F16, 1, d = h_out(fp_f32_to_f16(fp_in32(a, din)), hout))
VALU_TO16(v_cvt_f16_u16, ISA_T_I16, F16, 1, d = h_out(fp_f32_to_f16((float)(a & 0xffff)), hout))
VALU_TO16(v_cvt_f16_i16, ISA_T_I16, F16, 1, d = h_out(fp_f32_to_f16((float)(int16_t)a), hout))
VALU_TO16(v_cvt_u16_f16, F16, ISA_T_I16, 1, {
  float x = h_in(a, hin);
  d = isnan(x) || x <= 0 ? 0 : x >= 65535.0f ? 0xffff : (uint32_t)x;
})
VALU_TO16(v_cvt_i16_f16, F16, ISA_T_I16, 1, {
  float x = h_in(a, hin);
  d = isnan(x) ? 0 : x >= 32767.0f ? 0x7fff : x <= -32768.0f ? 0x8000 : (uint32_t)(int32_t)x & 0xffff;
})
static inline uint32_t norm_i16(float x)
{
  if (isnan(x)) return 0;
  x = x < -1.0f ? -1.0f : x > 1.0f ? 1.0f : x;
  return (uint32_t)(int32_t)rintf(x * 32767.0f) & 0xffff;
}
static inline uint32_t norm_u16(float x)
{
  if (isnan(x)) return 0;
  x = x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
  return (uint32_t)rintf(x * 65535.0f);
}
VALU_TO16(v_cvt_norm_i16_f16, F16, ISA_T_I16, 1, d = norm_i16(h_in(a, hin)))
VALU_TO16(v_cvt_norm_u16_f16, F16, ISA_T_I16, 1, d = norm_u16(h_in(a, hin)))

/* ---- packing conversions (32-bit results) ---- */
VALU_OP32(v_cvt_pkrtz_f16_f32, F32, B32, 2,
          d = fp_f32_to_f16_rtz(fp_in32(a, din)) | fp_f32_to_f16_rtz(fp_in32(b, din)) << 16)
VALU_OP32(v_cvt_pknorm_i16_f32, F32, B32, 2,
          d = norm_i16(fp_in32(a, din)) | norm_i16(fp_in32(b, din)) << 16)
VALU_OP32(v_cvt_pknorm_u16_f32, F32, B32, 2,
          d = norm_u16(fp_in32(a, din)) | norm_u16(fp_in32(b, din)) << 16)
VALU_OP32(v_cvt_pknorm_i16_f16, F16, B32, 2,
          d = norm_i16(h_in(a, valu_d64in(w))) | norm_i16(h_in(b, valu_d64in(w))) << 16)
VALU_OP32(v_cvt_pknorm_u16_f16, F16, B32, 2,
          d = norm_u16(h_in(a, valu_d64in(w))) | norm_u16(h_in(b, valu_d64in(w))) << 16)

static inline uint32_t to_u8(float x)
{
  if (isnan(x) || x <= 0.0f) return 0;
  return x >= 255.0f ? 255 : (uint32_t)rintf(x);
}
/* byte S1[1:0] of S2 replaced by S0 converted to u8 */
static int v_cvt_pk_u8_f32(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b0[VALU_N], b1[VALU_N], b2[VALU_N], r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, F32, b0), *b = valu_src(w, in, 1, B32, b1);
  const uint32_t *c = valu_src(w, in, 2, B32, b2);
  VALU_EACH(valu_lanes(w, in), l) {
    unsigned sh = 8 * (b[l] & 3);
    r[l] = (c[l] & ~(0xffu << sh)) | to_u8(fp_f(a[l])) << sh;
  }
  valu_put(w, in, r, B32);
  return valu_next(w, in);
}

/* the destination accumulates: byte S1[1:0] of D replaced */
static int v_cvt_pkaccum_u8_f32(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b0[VALU_N], b1[VALU_N], r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, F32, b0), *b = valu_src(w, in, 1, B32, b1);
  const uint32_t *d = w->vgpr[(in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1)];
  VALU_EACH(valu_lanes(w, in), l) {
    unsigned sh = 8 * (b[l] & 3);
    r[l] = (d[l] & ~(0xffu << sh)) | to_u8(fp_f(a[l])) << sh;
  }
  valu_put(w, in, r, B32);
  return valu_next(w, in);
}

/* ---- f64 ---- */
static int from64(struct isa_wave *w, const struct isa_inst *in, int kind)
{
  uint64_t b0[VALU_N];
  uint32_t r[VALU_N];
  const uint64_t *a = valu_src64(w, in, 0, ISA_T_F64, b0);
  bool din = valu_d64in(w), dout = valu_d32out(w);
  VALU_EACH(valu_lanes(w, in), l) {
    double x = fp_in64(a[l], din);
    r[l] = kind == 0 ? (uint32_t)fp_to_i32(x) : kind == 1 ? fp_to_u32(x) : fp_out32((float)x, dout);
  }
  valu_put(w, in, r, kind == 2 ? F32 : B32);
  return valu_next(w, in);
}
static int v_cvt_i32_f64(struct isa_wave *w, const struct isa_inst *in) { return from64(w, in, 0); }
static int v_cvt_u32_f64(struct isa_wave *w, const struct isa_inst *in) { return from64(w, in, 1); }
static int v_cvt_f32_f64(struct isa_wave *w, const struct isa_inst *in) { return from64(w, in, 2); }

static int to64(struct isa_wave *w, const struct isa_inst *in, int kind)
{
  uint32_t b0[VALU_N];
  uint64_t r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, kind == 2 ? F32 : B32, b0);
  bool din = valu_d32in(w), dout = valu_d64out(w);
  VALU_EACH(valu_lanes(w, in), l) {
    double x = kind == 0 ? (double)(int32_t)a[l] : kind == 1 ? (double)a[l]
                                                             : (double)fp_in32(a[l], din);
    r[l] = fp_out64(x, dout);
  }
  valu_put64(w, in, r, ISA_T_F64);
  return valu_next(w, in);
}
static int v_cvt_f64_i32(struct isa_wave *w, const struct isa_inst *in) { return to64(w, in, 0); }
static int v_cvt_f64_u32(struct isa_wave *w, const struct isa_inst *in) { return to64(w, in, 1); }
static int v_cvt_f64_f32(struct isa_wave *w, const struct isa_inst *in) { return to64(w, in, 2); }

#define E(op, gfx, flags, fn) { op, gfx, flags, #fn, fn }
#define V1 VALU_OP_VOP1 +
const struct valu_desc valu_cvt_ops[] = {
  E(V1 0x03, VALU_GFX9, 0, v_cvt_i32_f64), E(V1 0x04, VALU_GFX9, 0, v_cvt_f64_i32),
  E(V1 0x05, VALU_GFX9, 0, v_cvt_f32_i32), E(V1 0x06, VALU_GFX9, 0, v_cvt_f32_u32),
  E(V1 0x07, VALU_GFX9, 0, v_cvt_u32_f32), E(V1 0x08, VALU_GFX9, 0, v_cvt_i32_f32),
  E(V1 0x0a, VALU_GFX9, 0, v_cvt_f16_f32), E(V1 0x0b, VALU_GFX9, 0, v_cvt_f32_f16),
  E(V1 0x0c, VALU_GFX9, 0, v_cvt_rpi_i32_f32), E(V1 0x0d, VALU_GFX9, 0, v_cvt_flr_i32_f32),
  E(V1 0x0e, VALU_GFX9, 0, v_cvt_off_f32_i4), E(V1 0x0f, VALU_GFX9, 0, v_cvt_f32_f64),
  E(V1 0x10, VALU_GFX9, 0, v_cvt_f64_f32), E(V1 0x11, VALU_GFX9, 0, v_cvt_f32_ubyte0),
  E(V1 0x12, VALU_GFX9, 0, v_cvt_f32_ubyte1), E(V1 0x13, VALU_GFX9, 0, v_cvt_f32_ubyte2),
  E(V1 0x14, VALU_GFX9, 0, v_cvt_f32_ubyte3), E(V1 0x15, VALU_GFX9, 0, v_cvt_u32_f64),
  E(V1 0x16, VALU_GFX9, 0, v_cvt_f64_u32),
  E(V1 0x39, VALU_GFX9, 0, v_cvt_f16_u16), E(V1 0x3a, VALU_GFX9, 0, v_cvt_f16_i16),
  E(V1 0x3b, VALU_GFX9, 0, v_cvt_u16_f16), E(V1 0x3c, VALU_GFX9, 0, v_cvt_i16_f16),
  E(V1 0x4d, VALU_GFX9, 0, v_cvt_norm_i16_f16), E(V1 0x4e, VALU_GFX9, 0, v_cvt_norm_u16_f16),
  E(0x1dd, VALU_GFX9, 0, v_cvt_pk_u8_f32), E(0x1f0, VALU_GFX9, 0, v_cvt_pkaccum_u8_f32),
  E(0x294, VALU_GFX9, 0, v_cvt_pknorm_i16_f32), E(0x295, VALU_GFX9, 0, v_cvt_pknorm_u16_f32),
  E(0x296, VALU_GFX9, 0, v_cvt_pkrtz_f16_f32), E(0x299, VALU_GFX9, 0, v_cvt_pknorm_i16_f16),
  E(0x29a, VALU_GFX9, 0, v_cvt_pknorm_u16_f16),
};
VALU_COUNT(cvt);
