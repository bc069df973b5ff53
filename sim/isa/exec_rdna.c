/* SPDX-License-Identifier: MIT */
/* exec_rdna.c — gfx11/gfx12 VALU operations clang-19 emits for ordinary code that gfx9 has
 * no operation for (the table g11_rdna_ops, found by name by decode_gfx11.c):
 *   v_permlane64_b32: lane l of a wave64 takes S0 of lane l ^ 32 (inactive lanes are read);
 *     no operation in wave32;
 *   v_permlane16_var_b32 / v_permlanex16_var_b32 (gfx12): as v_permlane16/x16 with each
 *     lane's select in bits 3:0 of its own S1 (op_sel[0] FI, op_sel[1] bound_ctrl);
 *   v_dot4_i32_iu8: D = S2 + the sum of the 4 byte products of S0 and S1, each byte signed
 *     when its source's neg_lo bit is set (neg_lo[0] S0, neg_lo[1] S1); clamp saturates;
 *   v_maxmin_* D = min(max(S0, S1), S2), v_minmax_* D = max(min(S0, S1), S2) (f32, f16, u32,
 *     i32; gfx12's _num_ float forms are the same operations): the float forms are
 *     v_max/v_min's (IEEE mode's NaN rules);
 *   v_minimum/v_maximum (f16, f32, f64), v_minimum3/v_maximum3 and v_minimummaximum /
 *     v_maximumminimum, v_pk_minimum/maximum_f16 (gfx12): IEEE 754-2019 minimum/maximum: a
 *     NaN operand gives the quiet NaN, -0 is below +0;
 * and tbuffer_* with gfx10+'s unified formats (at the end). */
#include "isa/exec.h"
#include "isa/gfx11.h"

#include <math.h>
#include <string.h>

#define B32 ISA_T_B32
#define F32 ISA_T_F32
#define F16 ISA_T_F16

/* ---- lane permutations ---- */
static int v_permlane64_b32(struct isa_wave *w, const struct isa_inst *in)
{
  if (w->wave32)
    return valu_next(w, in);
  uint32_t tmp[64];
  for (unsigned l = 0; l < 64; l++)
    tmp[l] = isa_read_v32(w, in, in->src[0], l ^ 32, ISA_T_B32);
  uint32_t *d = w->vgpr[(in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1)];
  VALU_EACH(w->exec, l)
    d[l] = tmp[l];
  return valu_next(w, in);
}

/* each lane's select in bits 3:0 of its own S1 (read in lanes EXEC disables too) */
static int permlane_var(struct isa_wave *w, const struct isa_inst *in, bool cross)
{
  unsigned n = w->wave32 ? 32 : 64;
  uint8_t sel[64] = { 0 };
  for (unsigned l = 0; l < n; l++)
    sel[l] = (uint8_t)(isa_read_v32(w, in, in->src[1], l, ISA_T_B32) & 15);
  return g11_permlane_rows(w, in, sel, cross);
}
static int v_permlane16_var_b32(struct isa_wave *w, const struct isa_inst *in) { return permlane_var(w, in, false); }
static int v_permlanex16_var_b32(struct isa_wave *w, const struct isa_inst *in) { return permlane_var(w, in, true); }

/* ---- integer dot product with per-source signedness ---- */
static int v_dot4_i32_iu8(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b0[VALU_N], b1[VALU_N], b2[VALU_N], r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, B32, b0), *b = valu_src(w, in, 1, B32, b1),
                 *c = valu_src(w, in, 2, B32, b2);
  bool sa = in->neg & 1, sb = (in->neg >> 1) & 1;
  VALU_EACH(valu_lanes(w, in), l) {
    int64_t s = (int32_t)c[l];
    for (unsigned k = 0; k < 4; k++) {
      unsigned x = (a[l] >> (8 * k)) & 0xff, y = (b[l] >> (8 * k)) & 0xff;
      s += (int64_t)(sa ? (int8_t)x : (int)x) * (sb ? (int8_t)y : (int)y);
    }
    if (in->clamp)
      s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
    r[l] = (uint32_t)s;
  }
  struct isa_inst c2 = *in;
  c2.clamp = false;
  valu_put(w, &c2, r, B32);
  return valu_next(w, in);
}

/* ---- max-then-min and min-then-max ---- */
VALU_OP32(v_maxmin_f32, F32, F32, 3,
          d = fp_min32(fp_max32(fp_u(fp_in32(a, din)), fp_u(fp_in32(b, din)), ieee),
                       fp_u(fp_in32(c, din)), ieee))
VALU_OP32(v_minmax_f32, F32, F32, 3,
          d = fp_max32(fp_min32(fp_u(fp_in32(a, din)), fp_u(fp_in32(b, din)), ieee),
                       fp_u(fp_in32(c, din)), ieee))
VALU_OP32(v_maxmin_u32, B32, B32, 3, { uint32_t m = a > b ? a : b; d = m < c ? m : c; })
VALU_OP32(v_minmax_u32, B32, B32, 3, { uint32_t m = a < b ? a : b; d = m > c ? m : c; })
VALU_OP32(v_maxmin_i32, B32, B32, 3,
          { int32_t m = (int32_t)a > (int32_t)b ? (int32_t)a : (int32_t)b;
            d = (uint32_t)(m < (int32_t)c ? m : (int32_t)c); })
VALU_OP32(v_minmax_i32, B32, B32, 3,
          { int32_t m = (int32_t)a < (int32_t)b ? (int32_t)a : (int32_t)b;
            d = (uint32_t)(m > (int32_t)c ? m : (int32_t)c); })

/* IEEE 754-2019 minimum / maximum on the values' doubles (f16 and f32 widen exactly) */
static double ieee_min(double x, double y)
{
  if (isnan(x) || isnan(y)) return NAN;
  if (x == y) return signbit(x) ? x : y;
  return x < y ? x : y;
}
static double ieee_max(double x, double y)
{
  if (isnan(x) || isnan(y)) return NAN;
  if (x == y) return signbit(x) ? y : x;
  return x > y ? x : y;
}

enum { OP_MIN, OP_MAX, OP_MIN3, OP_MAX3, OP_MINMAX, OP_MAXMIN, OP_F16_MAXMIN, OP_F16_MINMAX };

static double combine(unsigned k, double x, double y, double z)
{
  switch (k) {
  case OP_MIN: return ieee_min(x, y);
  case OP_MAX: return ieee_max(x, y);
  case OP_MIN3: return ieee_min(ieee_min(x, y), z);
  case OP_MAX3: return ieee_max(ieee_max(x, y), z);
  case OP_MINMAX: return ieee_max(ieee_min(x, y), z);   /* v_minimummaximum */
  default: return ieee_min(ieee_max(x, y), z);          /* v_maximumminimum */
  }
}

static unsigned kind_of(const char *n)
{
  if (strstr(n, "minimummaximum")) return OP_MINMAX;
  if (strstr(n, "maximumminimum")) return OP_MAXMIN;
  if (strstr(n, "minimum3")) return OP_MIN3;
  if (strstr(n, "maximum3")) return OP_MAX3;
  if (strstr(n, "minimum")) return OP_MIN;
  if (strstr(n, "maximum")) return OP_MAX;
  return strstr(n, "maxmin") ? OP_F16_MAXMIN : OP_F16_MINMAX;
}

static int minmax_f32(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned k = kind_of(in->name), n = k == OP_MIN || k == OP_MAX ? 2 : 3;
  uint32_t b[3][VALU_N], r[VALU_N];
  const uint32_t *s[3];
  for (unsigned i = 0; i < 3; i++)
    s[i] = i < n ? valu_src(w, in, i, F32, b[i]) : s[0];
  VALU_EACH(valu_lanes(w, in), l) {
    double v = combine(k, fp_f(s[0][l]), fp_f(s[1][l]), fp_f(s[2][l]));
    r[l] = isnan(v) ? 0x7fc00000u : fp_u((float)v);
  }
  valu_put(w, in, r, F32);
  return valu_next(w, in);
}

static int minmax_f64(struct isa_wave *w, const struct isa_inst *in)
{
  uint64_t b0[VALU_N], b1[VALU_N], r[VALU_N];
  const uint64_t *x = valu_src64(w, in, 0, ISA_T_F64, b0), *y = valu_src64(w, in, 1, ISA_T_F64, b1);
  unsigned k = kind_of(in->name);
  VALU_EACH(valu_lanes(w, in), l) {
    double v = combine(k, fp_d(x[l]), fp_d(y[l]), 0);
    r[l] = isnan(v) ? 0x7ff8000000000000ull : fp_ud(v);
  }
  valu_put64(w, in, r, ISA_T_F64);
  return valu_next(w, in);
}

/* f16: the IEEE minimum/maximum forms, and v_maxmin/v_minmax_f16 with v_max/v_min_f16's rules */
static int minmax_f16(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned k = kind_of(in->name), n = k == OP_MIN || k == OP_MAX ? 2 : 3;
  uint32_t b[3][VALU_N], r[VALU_N];
  const uint32_t *s[3];
  bool ieee = valu_ieee(w);
  for (unsigned i = 0; i < 3; i++)
    s[i] = i < n ? valu_src(w, in, i, F16, b[i]) : s[0];
  VALU_EACH(valu_lanes(w, in), l) {
    uint32_t x = s[0][l] & 0xffff, y = s[1][l] & 0xffff, z = s[2][l] & 0xffff;
    if (k == OP_F16_MAXMIN) {
      r[l] = fp_min16(fp_max16(x, y, ieee), z, ieee);
    } else if (k == OP_F16_MINMAX) {
      r[l] = fp_max16(fp_min16(x, y, ieee), z, ieee);
    } else {
      double v = combine(k, fp_f16_to_f32(x), fp_f16_to_f32(y), fp_f16_to_f32(z));
      r[l] = isnan(v) ? 0x7e00u : fp_f32_to_f16((float)v);   /* exact: an input's value */
    }
  }
  valu_put16(w, in, r, F16, false);
  return valu_next(w, in);
}

/* gfx12's v_pk_minimum/maximum_f16 (VOP3P): per half, op_sel (low result) and op_sel_hi
 * (high result) pick each source's half, neg_lo/neg_hi negate them; IEEE minimum/maximum.
 * An inline constant is its f16 value in the low half (as exec_vpk.c reads them). */
static int pk_minmax_f16(struct isa_wave *w, const struct isa_inst *in)
{
  bool max = strstr(in->name, "maximum") != NULL;
  uint32_t r[VALU_N];
  const uint32_t *s[2];
  uint32_t b[2][VALU_N];
  for (unsigned i = 0; i < 2; i++) {
    if (in->src[i] >= ISA_OP_VGPR0) {
      s[i] = w->vgpr[in->src[i] - ISA_OP_VGPR0];
    } else {
      uint32_t v = isa_read_v32(w, in, in->src[i], 0, ISA_T_F16);
      for (unsigned l = 0; l < VALU_N; l++)
        b[i][l] = v;
      s[i] = b[i];
    }
  }
  VALU_EACH(valu_lanes(w, in), l) {
    uint32_t res = 0;
    for (unsigned h = 0; h < 2; h++) {
      double v[2];
      for (unsigned i = 0; i < 2; i++) {
        bool sel = h ? (in->opsel_hi >> i) & 1 : (in->opsel >> i) & 1;
        uint32_t x = sel ? s[i][l] >> 16 : s[i][l] & 0xffff;
        if (((h ? in->neg_hi : in->neg) >> i) & 1)
          x ^= 0x8000u;
        v[i] = fp_f16_to_f32(x);
      }
      double m = max ? ieee_max(v[0], v[1]) : ieee_min(v[0], v[1]);
      res |= (isnan(m) ? 0x7e00u : fp_f32_to_f16((float)m)) << (16 * h);
    }
    r[l] = res;
  }
  valu_put(w, in, r, B32);
  return valu_next(w, in);
}

const struct valu_desc g11_rdna_ops[] = {
  { 0x35a, 0, 0, "v_pk_minimum_f16", pk_minmax_f16 },
  { 0x35b, 0, 0, "v_pk_maximum_f16", pk_minmax_f16 },
  { 0x340, 0, 0, "v_permlane64_b32", v_permlane64_b32 },
  { 0x341, 0, 0, "v_permlane16_var_b32", v_permlane16_var_b32 },
  { 0x342, 0, 0, "v_permlanex16_var_b32", v_permlanex16_var_b32 },
  { 0x343, 0, 0, "v_dot4_i32_iu8", v_dot4_i32_iu8 },
  { 0x344, 0, 0, "v_maxmin_f32", v_maxmin_f32 },
  { 0x345, 0, 0, "v_minmax_f32", v_minmax_f32 },
  { 0x344, 0, 0, "v_maxmin_num_f32", v_maxmin_f32 },
  { 0x345, 0, 0, "v_minmax_num_f32", v_minmax_f32 },
  { 0x346, 0, 0, "v_maxmin_u32", v_maxmin_u32 },
  { 0x347, 0, 0, "v_minmax_u32", v_minmax_u32 },
  { 0x348, 0, 0, "v_maxmin_i32", v_maxmin_i32 },
  { 0x349, 0, 0, "v_minmax_i32", v_minmax_i32 },
  { 0x34a, 0, 0, "v_maxmin_f16", minmax_f16 },
  { 0x34b, 0, 0, "v_minmax_f16", minmax_f16 },
  { 0x34a, 0, 0, "v_maxmin_num_f16", minmax_f16 },
  { 0x34b, 0, 0, "v_minmax_num_f16", minmax_f16 },
  { 0x34c, 0, 0, "v_minimum_f32", minmax_f32 },
  { 0x34d, 0, 0, "v_maximum_f32", minmax_f32 },
  { 0x34e, 0, 0, "v_minimum3_f32", minmax_f32 },
  { 0x34f, 0, 0, "v_maximum3_f32", minmax_f32 },
  { 0x350, 0, 0, "v_minimummaximum_f32", minmax_f32 },
  { 0x351, 0, 0, "v_maximumminimum_f32", minmax_f32 },
  { 0x352, 0, 0, "v_minimum_f16", minmax_f16 },
  { 0x353, 0, 0, "v_maximum_f16", minmax_f16 },
  { 0x354, 0, 0, "v_minimum3_f16", minmax_f16 },
  { 0x355, 0, 0, "v_maximum3_f16", minmax_f16 },
  { 0x356, 0, 0, "v_minimummaximum_f16", minmax_f16 },
  { 0x357, 0, 0, "v_maximumminimum_f16", minmax_f16 },
  { 0x358, 0, 0, "v_minimum_f64", minmax_f64 },
  { 0x359, 0, 0, "v_maximum_f64", minmax_f64 },
};
const unsigned g11_rdna_count = sizeof g11_rdna_ops / sizeof g11_rdna_ops[0];

/* ---- tbuffer with gfx10+'s unified formats ----
 * MTBUF's 7-bit FORMAT (gfx11: the instruction's bits 25:19, kept in dfmt; gfx12: VBUFFER's
 * w1[29:23], kept in nfmt) names a data format and a numeric format together; here they
 * become gfx9's DFMT/NFMT pair (the numbers llvm-mc-19 gives the BUF_FMT_* names, the same on
 * gfx1100 and gfx1201) and gfx9's MTBUF semantics run. 0 and 64+ are invalid: the access
 * reads 0 and writes nothing, as gfx9's invalid DFMT does. */
void g11_unified_format(unsigned u, uint8_t *dfmt, uint8_t *nfmt)
{
  /* per gfx9 DFMT 1..14: the NFMTs it comes with (0 UNORM, 1 SNORM, 2 USCALED, 3 SSCALED,
   * 4 UINT, 5 SINT, 7 FLOAT), in the order of the unified numbers */
  static const char *const nf[15] = { "", "012345", "0123457", "012345", "457", "0123457", "7",
                                      "7", "0145", "012345", "012345", "457", "0123457", "457",
                                      "457" };
  unsigned k = 1;
  *dfmt = 0;
  *nfmt = 0;
  for (unsigned d = 1; d < 15; d++)
    for (const char *p = nf[d]; *p; p++, k++)
      if (k == u) {
        *dfmt = (uint8_t)d;
        *nfmt = (uint8_t)(*p - '0');
        return;
      }
}

int g11_exec_tbuffer(struct isa_wave *w, const struct isa_inst *in)
{
  struct isa_inst c = *in;
  g11_unified_format(in->target == ISA_TARGET_GFX1201 ? in->nfmt : in->dfmt, &c.dfmt, &c.nfmt);
  /* gfx9's MTBUF opcode by name (gfx12's VBUFFER numbers tbuffer apart from MUBUF): loads
   * 0-3, stores 4-7 by component count, their d16 forms 8-15 */
  const char *x = strstr(in->name, "format_");
  c.fmt = ISA_MTBUF;
  c.op = (uint16_t)(!x ? 16
                    : (strstr(in->name, "_d16") ? 8 : 0) + (strstr(in->name, "store") ? 4 : 0) +
                      strlen(x + 7) - 1);
  return isa_exec_mubuf(w, &c);
}
