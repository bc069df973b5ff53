/* SPDX-License-Identifier: MIT */
/* exec_vpk.c — VOP3P: packed 16-bit math (op_sel picks the half each source gives the low
 * result, op_sel_hi the half for the high result; neg_lo/neg_hi negate f16 halves),
 * v_mad_mix/v_fma_mix (op_sel_hi marks f16 sources, neg_hi is their abs), and the gfx906
 * dot products. */
#include "isa/valu.h"

/* raw dwords of source i; t picks the inline constant's encoding */
static inline uint32_t half(uint32_t v, bool hi) { return hi ? v >> 16 : v & 0xffff; }

#define VALU_PK(fn, n, T, ...)                                                              \
  static int fn(struct isa_wave *w, const struct isa_inst *in)                              \
  {                                                                                          \
    uint32_t b0_[VALU_N], b1_[VALU_N], b2_[VALU_N], r_[VALU_N];                              \
    const uint32_t *s_[3];                                                                   \
    s_[0] = valu_row(w, in, 0, T, b0_);                                                      \
    s_[1] = (n) > 1 ? valu_row(w, in, 1, T, b1_) : s_[0];                                    \
    s_[2] = (n) > 2 ? valu_row(w, in, 2, T, b2_) : s_[0];                                    \
    const bool fl = T == ISA_T_F16, din = valu_d64in(w), dout = valu_d64out(w);              \
    const bool ieee = valu_ieee(w), dx10 = w->mode & FP_MODE_DX10_CLAMP;                     \
    (void)din; (void)dout; (void)ieee; (void)dx10;                                           \
    VALU_LOOP(valu_lanes(w, in), l, {                                                        \
      uint32_t res = 0;                                                                      \
      for (unsigned h = 0; h < 2; h++) {                                                     \
        uint32_t v[3];                                                                       \
        for (unsigned i = 0; i < 3; i++) {                                                   \
          bool sel = h ? in->opsel_hi >> i & 1 : in->opsel >> i & 1;                         \
          v[i] = half(s_[i][l], sel);                                                        \
          if (fl && ((h ? in->neg_hi : in->neg) >> i & 1)) v[i] ^= 0x8000u;                  \
        }                                                                                    \
        uint32_t a = v[0], b = v[1], c = v[2], d;                                            \
        int32_t sa = (int16_t)a, sb = (int16_t)b, sc = (int16_t)c;                           \
        (void)sa; (void)sb; (void)sc; (void)c;                                               \
        __VA_ARGS__;                                                                                \
        if (fl && in->clamp) d = fp_omod_clamp16(d, 0, true, dx10);                          \
        res |= (d & 0xffff) << (16 * h);                                                     \
      }                                                                                      \
      r_[l] = res;                                                                           \
    });                                                                                       \
    valu_put(w, in, r_, ISA_T_B32);                                                          \
    return valu_next(w, in);                                                                 \
  }

static inline float hin(uint32_t h, bool keep) { return fp_f16_to_f32(keep ? h : fp_ftz16(h)); }
static inline uint32_t hout(float f, bool keep)
{
  uint32_t h = fp_f32_to_f16(f);
  return keep ? h : fp_ftz16(h);
}
static inline uint32_t usat16(uint32_t v, bool clamp) { return clamp && v > 0xffff ? 0xffff : v; }
static inline uint32_t ssat16(int32_t v, bool clamp)
{
  if (clamp) v = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  return (uint32_t)v;
}

#define I16 ISA_T_I16
#define F16 ISA_T_F16
VALU_PK(v_pk_mad_i16, 3, I16, d = ssat16(sa * sb + sc, in->clamp))
VALU_PK(v_pk_mul_lo_u16, 2, I16, d = a * b)
VALU_PK(v_pk_add_i16, 2, I16, d = ssat16(sa + sb, in->clamp))
VALU_PK(v_pk_sub_i16, 2, I16, d = ssat16(sa - sb, in->clamp))
VALU_PK(v_pk_lshlrev_b16, 2, I16, d = b << (a & 15))
VALU_PK(v_pk_lshrrev_b16, 2, I16, d = b >> (a & 15))
VALU_PK(v_pk_ashrrev_i16, 2, I16, d = (uint32_t)(sb >> (a & 15)))
VALU_PK(v_pk_max_i16, 2, I16, d = (uint32_t)(sa > sb ? sa : sb))
VALU_PK(v_pk_min_i16, 2, I16, d = (uint32_t)(sa < sb ? sa : sb))
VALU_PK(v_pk_mad_u16, 3, I16, d = usat16(a * b + c, in->clamp))
VALU_PK(v_pk_add_u16, 2, I16, d = usat16(a + b, in->clamp))
VALU_PK(v_pk_sub_u16, 2, I16, d = in->clamp && b > a ? 0 : a - b)
VALU_PK(v_pk_max_u16, 2, I16, d = a > b ? a : b)
VALU_PK(v_pk_min_u16, 2, I16, d = a < b ? a : b)
VALU_PK(v_pk_fma_f16, 3, F16, d = hout((float)((double)hin(a, din) * hin(b, din) + hin(c, din)), dout))
VALU_PK(v_pk_add_f16, 2, F16, d = hout(hin(a, din) + hin(b, din), dout))
VALU_PK(v_pk_mul_f16, 2, F16, d = hout(hin(a, din) * hin(b, din), dout))
VALU_PK(v_pk_min_f16, 2, F16,
        d = fp_min16(din ? a : fp_ftz16(a), din ? b : fp_ftz16(b), ieee))
VALU_PK(v_pk_max_f16, 2, F16,
        d = fp_max16(din ? a : fp_ftz16(a), din ? b : fp_ftz16(b), ieee))

/* ---- mix: f32 sources where op_sel_hi is 0, f16 (half by op_sel) where 1 ---- */
static int mix(struct isa_wave *w, const struct isa_inst *in, int kind, bool fused)
{
  uint32_t b[3][VALU_N], r[VALU_N];
  const uint32_t *s[3];
  for (unsigned i = 0; i < 3; i++)
    s[i] = valu_row(w, in, i, (in->opsel_hi >> i & 1) ? ISA_T_F16 : ISA_T_F32, b[i]);
  bool d32 = valu_d32in(w), d16 = valu_d64in(w), dx10 = w->mode & FP_MODE_DX10_CLAMP;
  const uint32_t *dst = w->vgpr[(in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1)];
  VALU_EACH(valu_lanes(w, in), l) {
    double v[3];
    for (unsigned i = 0; i < 3; i++) {
      float f;
      if (in->opsel_hi >> i & 1)
        f = hin(half(s[i][l], in->opsel >> i & 1), d16);
      else
        f = fp_in32(s[i][l], d32);
      if (in->neg_hi >> i & 1) f = fabsf(f);
      if (in->neg >> i & 1) f = -f;
      v[i] = f;
    }
    float res;
    if (fused) {
      res = (float)fp_fma_odd(v[0], v[1], v[2]);   /* one rounding in effect */
    } else {
      volatile float p = (float)(v[0] * v[1]);
      res = p + (float)v[2];
    }
    if (kind == 0) {
      uint32_t u = fp_out32(res, valu_d32out(w));
      r[l] = in->clamp ? fp_omod_clamp32(u, 0, true, dx10) : u;
    } else {
      uint32_t h = hout(res, valu_d64out(w));
      if (in->clamp) h = fp_omod_clamp16(h, 0, true, dx10);
      r[l] = kind == 1 ? (dst[l] & 0xffff0000u) | h : (dst[l] & 0xffffu) | h << 16;
    }
  }
  valu_put(w, in, r, ISA_T_B32);
  return valu_next(w, in);
}
static int v_mad_mix_f32(struct isa_wave *w, const struct isa_inst *in) { return mix(w, in, 0, false); }
static int v_mad_mixlo_f16(struct isa_wave *w, const struct isa_inst *in) { return mix(w, in, 1, false); }
static int v_mad_mixhi_f16(struct isa_wave *w, const struct isa_inst *in) { return mix(w, in, 2, false); }
static int v_fma_mix_f32(struct isa_wave *w, const struct isa_inst *in) { return mix(w, in, 0, true); }
static int v_fma_mixlo_f16(struct isa_wave *w, const struct isa_inst *in) { return mix(w, in, 1, true); }
static int v_fma_mixhi_f16(struct isa_wave *w, const struct isa_inst *in) { return mix(w, in, 2, true); }

/* ---- dot products (gfx906): S2 accumulates; clamp saturates the integer forms ---- */
static int dot(struct isa_wave *w, const struct isa_inst *in, unsigned bits, bool sgn)
{
  uint32_t b0[VALU_N], b1[VALU_N], b2[VALU_N], r[VALU_N];
  const uint32_t *a = valu_row(w, in, 0, ISA_T_B32, b0), *b = valu_row(w, in, 1, ISA_T_B32, b1);
  const uint32_t *c = valu_row(w, in, 2, ISA_T_B32, b2);
  unsigned n = 32 / bits;
  VALU_EACH(valu_lanes(w, in), l) {
    int64_t s = sgn ? (int64_t)(int32_t)c[l] : (int64_t)c[l];
    for (unsigned i = 0; i < n; i++) {
      uint32_t x = a[l] >> (i * bits), y = b[l] >> (i * bits);
      unsigned sh = 32 - bits;
      if (sgn)
        s += (int64_t)((int32_t)(x << sh) >> sh) * ((int32_t)(y << sh) >> sh);
      else
        s += (int64_t)((x << sh) >> sh) * ((y << sh) >> sh);
    }
    if (in->clamp)
      s = sgn ? (s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s)
              : (s > (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : s);
    r[l] = (uint32_t)s;
  }
  valu_put(w, in, r, ISA_T_B32);
  return valu_next(w, in);
}
static int v_dot2_i32_i16(struct isa_wave *w, const struct isa_inst *in) { return dot(w, in, 16, true); }
static int v_dot2_u32_u16(struct isa_wave *w, const struct isa_inst *in) { return dot(w, in, 16, false); }
static int v_dot4_i32_i8(struct isa_wave *w, const struct isa_inst *in) { return dot(w, in, 8, true); }
static int v_dot4_u32_u8(struct isa_wave *w, const struct isa_inst *in) { return dot(w, in, 8, false); }
static int v_dot8_i32_i4(struct isa_wave *w, const struct isa_inst *in) { return dot(w, in, 4, true); }
static int v_dot8_u32_u4(struct isa_wave *w, const struct isa_inst *in) { return dot(w, in, 4, false); }

static int v_dot2_f32_f16(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b0[VALU_N], b1[VALU_N], b2[VALU_N], r[VALU_N];
  const uint32_t *a = valu_row(w, in, 0, ISA_T_F16, b0), *b = valu_row(w, in, 1, ISA_T_F16, b1);
  const uint32_t *c = valu_row(w, in, 2, ISA_T_F32, b2);
  bool d16 = valu_d64in(w), dx10 = w->mode & FP_MODE_DX10_CLAMP;
  VALU_EACH(valu_lanes(w, in), l) {
    double s = fp_in32(c[l], valu_d32in(w));
    if (in->neg >> 2 & 1) s = -s;
    for (unsigned h = 0; h < 2; h++) {
      double x = hin(half(a[l], h), d16), y = hin(half(b[l], h), d16);
      if ((h ? in->neg_hi : in->neg) & 1) x = -x;
      if ((h ? in->neg_hi : in->neg) >> 1 & 1) y = -y;
      s += x * y;                             /* products exact in double */
    }
    uint32_t u = fp_out32((float)s, valu_d32out(w));
    r[l] = in->clamp ? fp_omod_clamp32(u, 0, true, dx10) : u;
  }
  valu_put(w, in, r, ISA_T_B32);
  return valu_next(w, in);
}


/* ---- gfx90a: packed f32 on 64-bit register pairs (op_sel picks each result's dword) ---- */
static void pk64_src(struct isa_wave *w, const struct isa_inst *in, unsigned i, uint64_t buf[VALU_N])
{
  unsigned code = in->src[i];
  if (code >= ISA_OP_VGPR0) {
    unsigned r = code - ISA_OP_VGPR0;
    for (unsigned l = 0; l < VALU_N; l++)
      buf[l] = w->vgpr[r][l] | (uint64_t)w->vgpr[(r + 1) & (ISA_MAX_VGPRS - 1)][l] << 32;
    return;
  }
  uint64_t v = isa_read_v64(w, in, code, 0, ISA_T_B64);
  bool inl = (code >= ISA_OP_ZERO && code <= 208) || (code >= ISA_OP_F_HALF && code <= ISA_OP_INV_2PI);
  if (inl)   /* an inline constant is the f32 (or integer) value in both dwords */
    v = (uint64_t)isa_read_v32(w, in, code, 0, ISA_T_F32) * 0x100000001ull;
  for (unsigned l = 0; l < VALU_N; l++)
    buf[l] = v;
}

static int pk_f32(struct isa_wave *w, const struct isa_inst *in, int kind, unsigned n)
{
  uint64_t s[3][VALU_N], r[VALU_N];
  for (unsigned i = 0; i < n; i++)
    pk64_src(w, in, i, s[i]);
  bool din = valu_d32in(w), dout = valu_d32out(w), dx10 = w->mode & FP_MODE_DX10_CLAMP;
  VALU_EACH(valu_lanes(w, in), l) {
    uint64_t res = 0;
    for (unsigned h = 0; h < 2; h++) {
      uint32_t v[3] = { 0, 0, 0 };
      for (unsigned i = 0; i < n; i++) {
        bool sel = h ? in->opsel_hi >> i & 1 : in->opsel >> i & 1;
        v[i] = (uint32_t)(s[i][l] >> (sel ? 32 : 0));
        if (kind != 3 && ((h ? in->neg_hi : in->neg) >> i & 1)) v[i] ^= 0x80000000u;
      }
      uint32_t d;
      if (kind == 3) {
        d = h ? (uint32_t)(s[1][l] >> ((in->opsel >> 1 & 1) ? 32 : 0))
              : (uint32_t)(s[0][l] >> ((in->opsel & 1) ? 32 : 0));
      } else {
        float x = fp_in32(v[0], din), y = fp_in32(v[1], din), z = fp_in32(v[2], din);
        float f = kind == 0 ? fmaf(x, y, z) : kind == 1 ? x * y : x + y;
        d = fp_out32(f, dout);
        if (in->clamp) d = fp_omod_clamp32(d, 0, true, dx10);
      }
      res |= (uint64_t)d << (32 * h);
    }
    r[l] = res;
  }
  valu_put64(w, in, r, ISA_T_B64);
  return valu_next(w, in);
}
static int v_pk_fma_f32(struct isa_wave *w, const struct isa_inst *in) { return pk_f32(w, in, 0, 3); }
static int v_pk_mul_f32(struct isa_wave *w, const struct isa_inst *in) { return pk_f32(w, in, 1, 2); }
static int v_pk_add_f32(struct isa_wave *w, const struct isa_inst *in) { return pk_f32(w, in, 2, 2); }
static int v_pk_mov_b32(struct isa_wave *w, const struct isa_inst *in) { return pk_f32(w, in, 3, 2); }

/* VOP2 forms (gfx90a) that accumulate into the destination: their halves are fixed */
static int v_pk_fmac_f16(struct isa_wave *w, const struct isa_inst *in)
{
  struct isa_inst c = *in;
  c.opsel = 0;
  c.opsel_hi = 7;
  return v_pk_fma_f16(w, &c);
}

#define E(op, gfx, fn) { VALU_OP_VOP3P + (op), gfx, 0, #fn, fn }
const struct valu_desc valu_pk_ops[] = {
  E(0x00, VALU_GFX9, v_pk_mad_i16), E(0x01, VALU_GFX9, v_pk_mul_lo_u16),
  E(0x02, VALU_GFX9, v_pk_add_i16), E(0x03, VALU_GFX9, v_pk_sub_i16),
  E(0x04, VALU_GFX9, v_pk_lshlrev_b16), E(0x05, VALU_GFX9, v_pk_lshrrev_b16),
  E(0x06, VALU_GFX9, v_pk_ashrrev_i16), E(0x07, VALU_GFX9, v_pk_max_i16),
  E(0x08, VALU_GFX9, v_pk_min_i16), E(0x09, VALU_GFX9, v_pk_mad_u16),
  E(0x0a, VALU_GFX9, v_pk_add_u16), E(0x0b, VALU_GFX9, v_pk_sub_u16),
  E(0x0c, VALU_GFX9, v_pk_max_u16), E(0x0d, VALU_GFX9, v_pk_min_u16),
  E(0x0e, VALU_GFX9, v_pk_fma_f16), E(0x0f, VALU_GFX9, v_pk_add_f16),
  E(0x10, VALU_GFX9, v_pk_mul_f16), E(0x11, VALU_GFX9, v_pk_min_f16),
  E(0x12, VALU_GFX9, v_pk_max_f16),
  E(0x20, VALU_GFX900, v_mad_mix_f32), E(0x21, VALU_GFX900, v_mad_mixlo_f16),
  E(0x22, VALU_GFX900, v_mad_mixhi_f16),
  E(0x20, VALU_GFX906UP, v_fma_mix_f32), E(0x21, VALU_GFX906UP, v_fma_mixlo_f16),
  E(0x22, VALU_GFX906UP, v_fma_mixhi_f16),
  E(0x23, VALU_GFX906UP, v_dot2_f32_f16), E(0x26, VALU_GFX906UP, v_dot2_i32_i16),
  E(0x27, VALU_GFX906UP, v_dot2_u32_u16), E(0x28, VALU_GFX906UP, v_dot4_i32_i8),
  E(0x29, VALU_GFX906UP, v_dot4_u32_u8), E(0x2a, VALU_GFX906UP, v_dot8_i32_i4),
  E(0x2b, VALU_GFX906UP, v_dot8_u32_u4),
  E(0x30, VALU_GFX90A, v_pk_fma_f32), E(0x31, VALU_GFX90A, v_pk_mul_f32),
  E(0x32, VALU_GFX90A, v_pk_add_f32), E(0x33, VALU_GFX90A, v_pk_mov_b32),
  { VALU_OP_VOP2 + 0x37, VALU_GFX90A, VALU_F_MAC | VALU_F_NOVOP3, "v_dot2c_f32_f16", v_dot2_f32_f16 },
  { VALU_OP_VOP2 + 0x38, VALU_GFX90A, VALU_F_MAC | VALU_F_NOVOP3, "v_dot2c_i32_i16", v_dot2_i32_i16 },
  { VALU_OP_VOP2 + 0x39, VALU_GFX90A, VALU_F_MAC | VALU_F_NOVOP3, "v_dot4c_i32_i8", v_dot4_i32_i8 },
  { VALU_OP_VOP2 + 0x3a, VALU_GFX90A, VALU_F_MAC | VALU_F_NOVOP3, "v_dot8c_i32_i4", v_dot8_i32_i4 },
  { VALU_OP_VOP2 + 0x3c, VALU_GFX90A, VALU_F_MAC | VALU_F_NOVOP3, "v_pk_fmac_f16", v_pk_fmac_f16 },
};
VALU_COUNT(pk);
