/* SPDX-License-Identifier: MIT */
/* exec_vf64.c — f64 VALU operations (denormals per MODE's f64/f16 field), the f64 division
 * helpers and v_trig_preop_f64. */
#include "isa/valu.h"

#define F64 ISA_T_F64

/* VALU_F64(fn, n, BODY): double x, y, z in, double f out */
#define VALU_F64(fn, n, ...)                                                                \
  static int fn(struct isa_wave *w, const struct isa_inst *in)                              \
  {                                                                                          \
    uint64_t b0_[VALU_N], b1_[VALU_N], b2_[VALU_N], r_[VALU_N];                              \
    const uint64_t *s0_ = valu_src64(w, in, 0, F64, b0_);                                    \
    const uint64_t *s1_ = (n) > 1 ? valu_src64(w, in, 1, F64, b1_) : s0_;                    \
    const uint64_t *s2_ = (n) > 2 ? valu_src64(w, in, 2, F64, b2_) : s0_;                    \
    const bool din = valu_d64in(w), dout = valu_d64out(w), ieee = valu_ieee(w);              \
    (void)ieee; (void)dout;                                                                  \
    const int rm_ = valu_round_enter(w->mode >> 2);                                          \
    VALU_LOOP(valu_lanes(w, in), l, {                                                        \
      double x = fp_in64(s0_[l], din), y = fp_in64(s1_[l], din), z = fp_in64(s2_[l], din), f; \
      (void)y; (void)z;                                                                      \
      __VA_ARGS__;                                                                                  \
      r_[l] = fp_out64(f, dout);                                                             \
    });                                                                                       \
    valu_round_leave(rm_);                                                                   \
    valu_put64(w, in, r_, F64);                                                              \
    return valu_next(w, in);                                                                 \
  }

VALU_F64(v_add_f64, 2, f = x + y)
VALU_F64(v_mul_f64, 2, f = x * y)
VALU_F64(v_fma_f64, 3, f = fma(x, y, z))
VALU_F64(v_min_f64, 2, f = fp_d(fp_min64(fp_ud(x), fp_ud(y), ieee)))
VALU_F64(v_max_f64, 2, f = fp_d(fp_max64(fp_ud(x), fp_ud(y), ieee)))
VALU_F64(v_trunc_f64, 1, f = trunc(x))
VALU_F64(v_ceil_f64, 1, f = ceil(x))
VALU_F64(v_rndne_f64, 1, f = fp_rne64(x))
VALU_F64(v_floor_f64, 1, f = floor(x))
VALU_F64(v_rcp_f64, 1, f = 1.0 / x)
VALU_F64(v_rsq_f64, 1, f = 1.0 / sqrt(x))
VALU_F64(v_sqrt_f64, 1, f = sqrt(x))
VALU_F64(v_fract_f64, 1, {
  f = x - floor(x);
  if (f >= 1.0) f = 0x1.fffffffffffffp-1;
  if (isinf(x)) f = NAN;
})
VALU_F64(v_frexp_mant_f64, 1, {
  int e;
  f = isinf(x) || isnan(x) ? x : frexp(x, &e);
})

static int v_frexp_exp_i32_f64(struct isa_wave *w, const struct isa_inst *in)
{
  uint64_t b0[VALU_N];
  uint32_t r[VALU_N];
  const uint64_t *a = valu_src64(w, in, 0, F64, b0);
  bool din = valu_d64in(w);
  VALU_EACH(valu_lanes(w, in), l) {
    int e = 0;
    double x = fp_in64(a[l], din);
    if (!isinf(x) && !isnan(x)) frexp(x, &e);
    r[l] = (uint32_t)e;
  }
  valu_put(w, in, r, ISA_T_B32);
  return valu_next(w, in);
}

/* S1 is an i32 exponent (or the select of trig_preop) */
static int f64_int_op(struct isa_wave *w, const struct isa_inst *in, bool preop)
{
  uint64_t b0[VALU_N], r[VALU_N];
  uint32_t b1[VALU_N];
  const uint64_t *a = valu_src64(w, in, 0, F64, b0);
  const uint32_t *b = valu_src(w, in, 1, ISA_T_B32, b1);
  bool din = valu_d64in(w), dout = valu_d64out(w);
  VALU_EACH(valu_lanes(w, in), l) {
    double x = fp_in64(a[l], din);
    r[l] = fp_out64(preop ? fp_trig_preop(x, b[l] & 31) : ldexp(x, (int32_t)b[l]), dout);
  }
  valu_put64(w, in, r, F64);
  return valu_next(w, in);
}
static int v_ldexp_f64(struct isa_wave *w, const struct isa_inst *in) { return f64_int_op(w, in, false); }
static int v_trig_preop_f64(struct isa_wave *w, const struct isa_inst *in) { return f64_int_op(w, in, true); }

static int v_div_scale_f64(struct isa_wave *w, const struct isa_inst *in)
{
  uint64_t b0[VALU_N], b1[VALU_N], b2[VALU_N], r[VALU_N], vcc = 0;
  const uint64_t *a = valu_src64(w, in, 0, F64, b0), *b = valu_src64(w, in, 1, F64, b1);
  const uint64_t *c = valu_src64(w, in, 2, F64, b2);
  VALU_EACH(valu_lanes(w, in), l) {
    bool v;
    r[l] = fp_div_scale64(a[l], b[l], c[l], &v);
    vcc |= (uint64_t)v << l;
  }
  valu_put64(w, in, r, F64);
  valu_put_mask(w, in, vcc);
  return valu_next(w, in);
}

/* fma, scaled back by 2^+-128 in lanes with VCC set (see fp_div_scale64) */
static int v_div_fmas_f64(struct isa_wave *w, const struct isa_inst *in)
{
  uint64_t b0[VALU_N], b1[VALU_N], b2[VALU_N], r[VALU_N];
  const uint64_t *a = valu_src64(w, in, 0, F64, b0), *b = valu_src64(w, in, 1, F64, b1);
  const uint64_t *c = valu_src64(w, in, 2, F64, b2);
  bool din = valu_d64in(w), dout = valu_d64out(w);
  uint64_t vcc = w->vcc;
  VALU_EACH(valu_lanes(w, in), l) {
    double x = fp_in64(a[l], din), y = fp_in64(b[l], din), z = fp_in64(c[l], din);
    double t;
    if (vcc >> l & 1) {
      bool up = ((c[l] >> 52) & 0x7ff) >= 1024;
      t = up ? ldexp(fma(x, y, z), 128) : fp_fma_scaled_down(x, y, z, 128);
    } else {
      t = fma(x, y, z);
    }
    r[l] = fp_out64(t, dout);
  }
  valu_put64(w, in, r, F64);
  return valu_next(w, in);
}

VALU_F64(v_div_fixup_f64, 3, f = fp_d(fp_div_fixup64(fp_ud(x), fp_ud(y), fp_ud(z))))

#define E(op, gfx, flags, fn) { op, gfx, flags, #fn, fn }
#define V2 VALU_OP_VOP2 +
#define V1 VALU_OP_VOP1 +
const struct valu_desc valu_f64_ops[] = {
  { V2 0x04, VALU_GFX90A, VALU_F_MAC, "v_fmac_f64", v_fma_f64 },
  E(V1 0x17, VALU_GFX9, 0, v_trunc_f64), E(V1 0x18, VALU_GFX9, 0, v_ceil_f64),
  E(V1 0x19, VALU_GFX9, 0, v_rndne_f64), E(V1 0x1a, VALU_GFX9, 0, v_floor_f64),
  E(V1 0x25, VALU_GFX9, 0, v_rcp_f64), E(V1 0x26, VALU_GFX9, 0, v_rsq_f64),
  E(V1 0x28, VALU_GFX9, 0, v_sqrt_f64), E(V1 0x30, VALU_GFX9, 0, v_frexp_exp_i32_f64),
  E(V1 0x31, VALU_GFX9, 0, v_frexp_mant_f64), E(V1 0x32, VALU_GFX9, 0, v_fract_f64),
  E(0x1cc, VALU_GFX9, 0, v_fma_f64), E(0x1df, VALU_GFX9, 0, v_div_fixup_f64),
  E(0x1e1, VALU_GFX9, VALU_F_VOP3B, v_div_scale_f64), E(0x1e3, VALU_GFX9, 0, v_div_fmas_f64),
  E(0x280, VALU_GFX9, 0, v_add_f64), E(0x281, VALU_GFX9, 0, v_mul_f64),
  E(0x282, VALU_GFX9, 0, v_min_f64), E(0x283, VALU_GFX9, 0, v_max_f64),
  E(0x284, VALU_GFX9, 0, v_ldexp_f64), E(0x292, VALU_GFX9, 0, v_trig_preop_f64),
};
VALU_COUNT(f64);
