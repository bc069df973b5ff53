/* SPDX-License-Identifier: MIT */
/* exec_vfp8.c — gfx942's conversions between f32 and its 8-bit floats (the MFMA fp8/bf8
 * inputs): fp8 is E4M3 with bias 8, bf8 E5M2 with bias 16; 0x80 is their only NaN, and they
 * have no infinities and no negative zero.
 *   v_cvt_f32_fp8/bf8 (VOP1; SDWA src0_sel picks the byte, else byte 0): exact;
 *   v_cvt_pk_f32_fp8/bf8 (VOP1; SDWA picks the word): bytes 0 and 1 of the word into
 *     D[0] and D[1];
 *   v_cvt_pk_fp8/bf8_f32 (VOP3): S0 and S1 rounded to nearest even into bytes 0-1 (op_sel[3]
 *     clear) or 2-3 of D, the other half of D kept. Out of range (and infinities) saturate
 *     to the largest finite value with clamp; without clamp the model gives NaN (0x80), as it
 *     does for a NaN input: the hardware's choice there is not documented where we looked;
 *   v_cvt_sr_fp8/bf8_f32 (VOP3): S0 with stochastic rounding into byte op_sel[3:2] of D,
 *     the other bytes kept: the significand (implicit 1 included, shifted right, truncating,
 *     to the 8-bit format's exponent where the result is denormal) plus the low 20 (fp8)
 *     or 21 (bf8) bits of S1, truncated to the format's mantissa: a value between two
 *     codes rounds up for exactly the random values that reach the upper one. Overflow and
 *     NaN as above. AMD's software reference of the instruction (rocBLAS's f8 cast with
 *     stoch) computes the same.
 * An fp8 NaN converts to the f32 quiet NaN 0x7fc00000 (sign kept). */
#include "isa/valu.h"

#include <math.h>

#define B32 ISA_T_B32
#define F32 ISA_T_F32

static uint32_t f32_of8(unsigned x, bool bf8)
{
  if ((x & 0xff) == 0x80)
    return 0x7fc00000u;
  unsigned mbits = bf8 ? 2 : 3, bias = bf8 ? 16 : 8;
  unsigned e = (x >> mbits) & (bf8 ? 31u : 15u), m = x & ((1u << mbits) - 1);
  float v = e ? ldexpf(1.0f + (float)m / (float)(1u << mbits), (int)e - (int)bias)
              : ldexpf((float)m / (float)(1u << mbits), 1 - (int)bias);
  return fp_u(x & 0x80 ? -v : v);
}

/* f32 -> 8 bits, nearest even; see the file comment for overflow and NaN */
static unsigned to8(float f, bool bf8, bool clamp)
{
  unsigned mbits = bf8 ? 2 : 3;
  int bias = bf8 ? 16 : 8;
  double max = bf8 ? 57344.0 : 240.0;
  if (isnan(f))
    return 0x80;
  unsigned sign = signbit(f) ? 0x80u : 0u;
  double a = fabs((double)f);
  int e;
  frexp(a, &e);   /* a = m * 2^e, m in [0.5, 1) */
  int q = e - 1 + bias >= 1 ? e - 1 - (int)mbits : 1 - bias - (int)mbits;   /* quantum 2^q */
  double r = isinf(a) ? a : nearbyint(ldexp(a, -q));   /* default rounding: nearest even */
  double v = isinf(a) ? a : ldexp(r, q);
  if (v > max)
    return clamp ? sign | 0x7fu : 0x80u;
  if (v == 0)
    return 0;
  frexp(v, &e);
  unsigned code;
  if (e - 1 + bias >= 1)
    code = (unsigned)(e - 1 + bias) << mbits | ((unsigned)ldexp(v, (int)mbits - (e - 1)) & ((1u << mbits) - 1));
  else
    code = (unsigned)ldexp(v, bias - 1 + (int)mbits);
  return sign | code;
}

VALU_OP32(v_cvt_f32_fp8, B32, B32, 1, d = f32_of8(a & 0xff, false))
VALU_OP32(v_cvt_f32_bf8, B32, B32, 1, d = f32_of8(a & 0xff, true))

static int cvt_pk_f32(struct isa_wave *w, const struct isa_inst *in, bool bf8)
{
  uint32_t b[VALU_N];
  uint64_t r[VALU_N];
  const uint32_t *s = valu_src(w, in, 0, B32, b);
  VALU_EACH(valu_lanes(w, in), l)
    r[l] = f32_of8(s[l] & 0xff, bf8) | (uint64_t)f32_of8(s[l] >> 8 & 0xff, bf8) << 32;
  valu_put64(w, in, r, ISA_T_B64);
  return valu_next(w, in);
}
static int v_cvt_pk_f32_fp8(struct isa_wave *w, const struct isa_inst *in) { return cvt_pk_f32(w, in, false); }
static int v_cvt_pk_f32_bf8(struct isa_wave *w, const struct isa_inst *in) { return cvt_pk_f32(w, in, true); }

static int cvt_pk_8(struct isa_wave *w, const struct isa_inst *in, bool bf8)
{
  uint32_t b0[VALU_N], b1[VALU_N], r[VALU_N];
  const uint32_t *x = valu_src(w, in, 0, F32, b0), *y = valu_src(w, in, 1, F32, b1);
  const uint32_t *d = w->vgpr[(in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1)];
  unsigned sh = (in->opsel >> 3 & 1) ? 16 : 0;
  VALU_EACH(valu_lanes(w, in), l) {
    uint32_t two = to8(fp_f(x[l]), bf8, in->clamp) | to8(fp_f(y[l]), bf8, in->clamp) << 8;
    r[l] = (d[l] & ~(0xffffu << sh)) | two << sh;
  }
  struct isa_inst c = *in;
  c.clamp = false;   /* applied above, to the 8-bit values */
  valu_put(w, &c, r, B32);
  return valu_next(w, in);
}
static int v_cvt_pk_fp8_f32(struct isa_wave *w, const struct isa_inst *in) { return cvt_pk_8(w, in, false); }
static int v_cvt_pk_bf8_f32(struct isa_wave *w, const struct isa_inst *in) { return cvt_pk_8(w, in, true); }

/* f32 -> 8 bits with the random bits `rnd` (see the file comment) */
static unsigned to8_sr(uint32_t x, uint32_t rnd, bool bf8, bool clamp)
{
  const int wm = bf8 ? 2 : 3, bias = bf8 ? 16 : 8, maxe = bf8 ? 31 : 15;
  unsigned sign = x >> 31 ? 0x80u : 0u;
  int ex = (int)(x >> 23 & 0xff);
  if (ex == 0xff)
    return !(x & 0x7fffff) && clamp ? sign | 0x7fu : 0x80u;   /* inf, NaN */
  if (!(x & 0x7fffffff))
    return 0;
  uint32_t sig = x & 0x7fffff;
  int e = ex ? ex - 127 : -126;   /* unbiased exponent of the input */
  if (ex)
    sig |= 1u << 23;
  int shift = (1 - bias) - e;      /* > 0: below the format's normal range */
  if (shift > 0)
    sig = shift < 32 ? sig >> shift : 0;
  int fe = shift > 0 ? 0 : e + bias;   /* biased exponent before the carry */
  sig += rnd & ((1u << (23 - wm)) - 1);
  if (fe == 0 ? (sig >> 23) & 1 : (sig >> 24) & 1) {   /* carry into the next binade */
    if (fe)
      sig >>= 1;
    fe++;
  }
  if (fe > maxe)
    return clamp ? sign | (unsigned)(maxe << wm) | ((1u << wm) - 1) : 0x80u;
  unsigned m = (sig >> (23 - wm)) & ((1u << wm) - 1);
  if (fe == 0 && m == 0)
    return 0;
  return sign | (unsigned)fe << wm | m;
}

static int cvt_sr_8(struct isa_wave *w, const struct isa_inst *in, bool bf8)
{
  uint32_t b0[VALU_N], b1[VALU_N], r[VALU_N];
  const uint32_t *x = valu_src(w, in, 0, F32, b0), *y = valu_src(w, in, 1, B32, b1);
  const uint32_t *d = w->vgpr[(in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1)];
  unsigned sh = 8 * (in->opsel >> 2 & 3);
  VALU_EACH(valu_lanes(w, in), l)
    r[l] = (d[l] & ~(0xffu << sh)) | to8_sr(x[l], y[l], bf8, in->clamp) << sh;
  struct isa_inst c = *in;
  c.clamp = false;
  c.opsel = 0;   /* the byte select, not a 16-bit half */
  valu_put(w, &c, r, B32);
  return valu_next(w, in);
}
static int v_cvt_sr_fp8_f32(struct isa_wave *w, const struct isa_inst *in) { return cvt_sr_8(w, in, false); }
static int v_cvt_sr_bf8_f32(struct isa_wave *w, const struct isa_inst *in) { return cvt_sr_8(w, in, true); }

const struct valu_desc valu_fp8_ops[] = {
  { VALU_OP_VOP1 + 0x54, VALU_GFX942, 0, "v_cvt_f32_fp8", v_cvt_f32_fp8 },
  { VALU_OP_VOP1 + 0x55, VALU_GFX942, 0, "v_cvt_f32_bf8", v_cvt_f32_bf8 },
  { VALU_OP_VOP1 + 0x56, VALU_GFX942, 0, "v_cvt_pk_f32_fp8", v_cvt_pk_f32_fp8 },
  { VALU_OP_VOP1 + 0x57, VALU_GFX942, 0, "v_cvt_pk_f32_bf8", v_cvt_pk_f32_bf8 },
  { 0x2a2, VALU_GFX942, 0, "v_cvt_pk_fp8_f32", v_cvt_pk_fp8_f32 },
  { 0x2a3, VALU_GFX942, 0, "v_cvt_pk_bf8_f32", v_cvt_pk_bf8_f32 },
  { 0x2a4, VALU_GFX942, 0, "v_cvt_sr_fp8_f32", v_cvt_sr_fp8_f32 },
  { 0x2a5, VALU_GFX942, 0, "v_cvt_sr_bf8_f32", v_cvt_sr_bf8_f32 },
};
VALU_COUNT(fp8);
