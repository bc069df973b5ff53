/* SPDX-License-Identifier: MIT */
/* exec_vcmp.c — VOPC compares and v_cmp_class: one result bit per lane (inactive lanes 0)
 * to VCC or the VOP3/SDWA sdst; v_cmpx also writes EXEC. The cmpx variants share the
 * compare function: their opcode has bit 4 set (bit 0 for class). */
#include "isa/valu.h"

static int cmp_done(struct isa_wave *w, const struct isa_inst *in, uint64_t m, bool cmpx)
{
  valu_put_mask(w, in, m);
  if (cmpx)
    w->exec = m;
  return valu_next(w, in);
}

#define CMPX_BIT(in) (((in)->op & 0x10) != 0)

/* 32-bit sources; PREP turns s0_[l], s1_[l] into a, b */
#define CMP32(fn, T, PREP, COND)                                                             \
  static int fn(struct isa_wave *w, const struct isa_inst *in)                              \
  {                                                                                          \
    uint32_t b0_[VALU_N], b1_[VALU_N];                                                       \
    const uint32_t *s0_ = valu_src(w, in, 0, T, b0_), *s1_ = valu_src(w, in, 1, T, b1_);     \
    const bool din = T == ISA_T_F16 ? valu_d64in(w) : valu_d32in(w);                         \
    uint64_t m = 0;                                                                          \
    (void)din;                                                                               \
    VALU_LOOP(valu_lanes(w, in), l, {                                                        \
      PREP; (void)a; (void)b;                                                                \
      m |= (uint64_t)(COND) << l;                                                            \
    });                                                                                       \
    return cmp_done(w, in, m, CMPX_BIT(in));                                                 \
  }

#define CMP64(fn, T, PREP, COND)                                                             \
  static int fn(struct isa_wave *w, const struct isa_inst *in)                              \
  {                                                                                          \
    uint64_t b0_[VALU_N], b1_[VALU_N];                                                       \
    const uint64_t *s0_ = valu_src64(w, in, 0, T, b0_), *s1_ = valu_src64(w, in, 1, T, b1_); \
    const bool din = valu_d64in(w);                                                          \
    uint64_t m = 0;                                                                          \
    (void)din;                                                                               \
    VALU_LOOP(valu_lanes(w, in), l, {                                                        \
      PREP; (void)a; (void)b;                                                                \
      m |= (uint64_t)(COND) << l;                                                            \
    });                                                                                       \
    return cmp_done(w, in, m, CMPX_BIT(in));                                                 \
  }

#define FCONDS(X)                                                                            \
  X(f, 0, false) X(lt, 1, a < b) X(eq, 2, a == b) X(le, 3, a <= b) X(gt, 4, a > b)          \
  X(lg, 5, (a < b || a > b)) X(ge, 6, a >= b) X(o, 7, (!isnan(a) && !isnan(b)))            \
  X(u, 8, (isnan(a) || isnan(b))) X(nge, 9, !(a >= b)) X(nlg, 10, !(a < b || a > b))        \
  X(ngt, 11, !(a > b)) X(nle, 12, !(a <= b)) X(neq, 13, !(a == b)) X(nlt, 14, !(a < b))     \
  X(tru, 15, true)
#define ICONDS(X)                                                                            \
  X(f, 0, false) X(lt, 1, a < b) X(eq, 2, a == b) X(le, 3, a <= b) X(gt, 4, a > b)          \
  X(ne, 5, a != b) X(ge, 6, a >= b) X(t, 7, true)

#define P_F16 float a = fp_f16_to_f32(din ? s0_[l] & 0xffff : fp_ftz16(s0_[l])),            \
                    b = fp_f16_to_f32(din ? s1_[l] & 0xffff : fp_ftz16(s1_[l]))
#define P_F32 float a = fp_in32(s0_[l], din), b = fp_in32(s1_[l], din)
#define P_F64 double a = fp_in64(s0_[l], din), b = fp_in64(s1_[l], din)
#define P_I16 int32_t a = (int16_t)s0_[l], b = (int16_t)s1_[l]
#define P_U16 uint32_t a = s0_[l] & 0xffff, b = s1_[l] & 0xffff
#define P_I32 int32_t a = (int32_t)s0_[l], b = (int32_t)s1_[l]
#define P_U32 uint32_t a = s0_[l], b = s1_[l]
#define P_I64 int64_t a = (int64_t)s0_[l], b = (int64_t)s1_[l]
#define P_U64 uint64_t a = s0_[l], b = s1_[l]

#define G_F16(c, i, e) CMP32(cmp_f16_##c, ISA_T_F16, P_F16, e)
#define G_F32(c, i, e) CMP32(cmp_f32_##c, ISA_T_F32, P_F32, e)
#define G_F64(c, i, e) CMP64(cmp_f64_##c, ISA_T_F64, P_F64, e)
#define G_I16(c, i, e) CMP32(cmp_i16_##c, ISA_T_I16, P_I16, e)
#define G_U16(c, i, e) CMP32(cmp_u16_##c, ISA_T_I16, P_U16, e)
#define G_I32(c, i, e) CMP32(cmp_i32_##c, ISA_T_B32, P_I32, e)
#define G_U32(c, i, e) CMP32(cmp_u32_##c, ISA_T_B32, P_U32, e)
#define G_I64(c, i, e) CMP64(cmp_i64_##c, ISA_T_B64, P_I64, e)
#define G_U64(c, i, e) CMP64(cmp_u64_##c, ISA_T_B64, P_U64, e)
FCONDS(G_F16)
FCONDS(G_F32)
FCONDS(G_F64)
ICONDS(G_I16)
ICONDS(G_U16)
ICONDS(G_I32)
ICONDS(G_U32)
ICONDS(G_I64)
ICONDS(G_U64)

/* class: S1 is the class mask; the value's own bits decide (no flushing) */
static int cmp_class32(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b0[VALU_N], b1[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, ISA_T_F32, b0), *b = valu_src(w, in, 1, ISA_T_B32, b1);
  uint64_t m = 0;
  VALU_EACH(valu_lanes(w, in), l)
    m |= (uint64_t)((fp_class32(a[l]) & b[l]) != 0) << l;
  return cmp_done(w, in, m, in->op & 1);
}

static int cmp_class16(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b0[VALU_N], b1[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, ISA_T_F16, b0), *b = valu_src(w, in, 1, ISA_T_B32, b1);
  uint64_t m = 0;
  VALU_EACH(valu_lanes(w, in), l)
    m |= (uint64_t)((fp_class16(a[l]) & b[l]) != 0) << l;
  return cmp_done(w, in, m, in->op & 1);
}

static int cmp_class64(struct isa_wave *w, const struct isa_inst *in)
{
  uint64_t b0[VALU_N];
  uint32_t b1[VALU_N];
  const uint64_t *a = valu_src64(w, in, 0, ISA_T_F64, b0);
  const uint32_t *b = valu_src(w, in, 1, ISA_T_B32, b1);
  uint64_t m = 0;
  VALU_EACH(valu_lanes(w, in), l)
    m |= (uint64_t)((fp_class64(a[l]) & b[l]) != 0) << l;
  return cmp_done(w, in, m, in->op & 1);
}

#define T2(base, ty, c, i)                                                                   \
  { (base) + (i), VALU_GFX9, 0, "v_cmp_" #c "_" #ty, cmp_##ty##_##c },                        \
  { (base) + 0x10 + (i), VALU_GFX9, 0, "v_cmpx_" #c "_" #ty, cmp_##ty##_##c },
#define T_F16(c, i, e) T2(0x20, f16, c, i)
#define T_F32(c, i, e) T2(0x40, f32, c, i)
#define T_F64(c, i, e) T2(0x60, f64, c, i)
#define T_I16(c, i, e) T2(0xa0, i16, c, i)
#define T_U16(c, i, e) { 0xa8 + (i), VALU_GFX9, 0, "v_cmp_" #c "_u16", cmp_u16_##c },            \
                       { 0xb8 + (i), VALU_GFX9, 0, "v_cmpx_" #c "_u16", cmp_u16_##c },
#define T_I32(c, i, e) T2(0xc0, i32, c, i)
#define T_U32(c, i, e) { 0xc8 + (i), VALU_GFX9, 0, "v_cmp_" #c "_u32", cmp_u32_##c },            \
                       { 0xd8 + (i), VALU_GFX9, 0, "v_cmpx_" #c "_u32", cmp_u32_##c },
#define T_I64(c, i, e) T2(0xe0, i64, c, i)
#define T_U64(c, i, e) { 0xe8 + (i), VALU_GFX9, 0, "v_cmp_" #c "_u64", cmp_u64_##c },            \
                       { 0xf8 + (i), VALU_GFX9, 0, "v_cmpx_" #c "_u64", cmp_u64_##c },

const struct valu_desc valu_cmp_ops[] = {
  { 0x10, VALU_GFX9, 0, "v_cmp_class_f32", cmp_class32 },
  { 0x11, VALU_GFX9, 0, "v_cmpx_class_f32", cmp_class32 },
  { 0x12, VALU_GFX9, 0, "v_cmp_class_f64", cmp_class64 },
  { 0x13, VALU_GFX9, 0, "v_cmpx_class_f64", cmp_class64 },
  { 0x14, VALU_GFX9, 0, "v_cmp_class_f16", cmp_class16 },
  { 0x15, VALU_GFX9, 0, "v_cmpx_class_f16", cmp_class16 },
  FCONDS(T_F16) FCONDS(T_F32) FCONDS(T_F64)
  ICONDS(T_I16) ICONDS(T_U16) ICONDS(T_I32) ICONDS(T_U32) ICONDS(T_I64) ICONDS(T_U64)
};
VALU_COUNT(cmp);
