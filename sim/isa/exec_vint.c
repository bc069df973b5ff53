/* SPDX-License-Identifier: MIT */
/* exec_vint.c — integer VALU operations: 32-bit and 16-bit arithmetic, shifts, bitfields,
 * 24-bit multiplies, carries (VCC or an SGPR pair), SAD, min/max/med3, 64-bit shifts and
 * v_mad_u64_u32. Integer operations ignore abs/neg; clamp saturates the add/sub family. */
#include "isa/valu.h"

#define B32 ISA_T_B32
#define I16 ISA_T_I16

static inline uint32_t u24(uint32_t v) { return v & 0xffffffu; }
static inline int32_t i24(uint32_t v) { return (int32_t)(v << 8) >> 8; }
static inline uint32_t sat_u32(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v; }
static inline uint32_t sat_i32(int64_t v)
{
  return (uint32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

/* ---- 32-bit ---- */
VALU_OP32(v_mul_i32_i24, B32, B32, 2, d = (uint32_t)((int64_t)i24(a) * i24(b)))
VALU_OP32(v_mul_hi_i32_i24, B32, B32, 2, d = (uint32_t)(((int64_t)i24(a) * i24(b)) >> 32))
VALU_OP32(v_mul_u32_u24, B32, B32, 2, d = u24(a) * u24(b))
VALU_OP32(v_mul_hi_u32_u24, B32, B32, 2, d = (uint32_t)(((uint64_t)u24(a) * u24(b)) >> 32))
VALU_OP32(v_min_i32, B32, B32, 2, d = (int32_t)a < (int32_t)b ? a : b)
VALU_OP32(v_max_i32, B32, B32, 2, d = (int32_t)a > (int32_t)b ? a : b)
VALU_OP32(v_min_u32, B32, B32, 2, d = a < b ? a : b)
VALU_OP32(v_max_u32, B32, B32, 2, d = a > b ? a : b)
VALU_OP32(v_lshrrev_b32, B32, B32, 2, d = b >> (a & 31))
VALU_OP32(v_ashrrev_i32, B32, B32, 2, d = (uint32_t)((int32_t)b >> (a & 31)))
VALU_OP32(v_lshlrev_b32, B32, B32, 2, d = b << (a & 31))
VALU_OP32(v_and_b32, B32, B32, 2, d = a & b)
VALU_OP32(v_or_b32, B32, B32, 2, d = a | b)
VALU_OP32(v_xor_b32, B32, B32, 2, d = a ^ b)
VALU_OP32(v_xnor_b32, B32, B32, 2, d = ~(a ^ b))
VALU_OP32(v_add_u32, B32, B32, 2, d = in->clamp ? sat_u32((uint64_t)a + b) : a + b)
VALU_OP32(v_sub_u32, B32, B32, 2, d = in->clamp && b > a ? 0 : a - b)
VALU_OP32(v_subrev_u32, B32, B32, 2, d = in->clamp && a > b ? 0 : b - a)
VALU_OP32(v_add_i32, B32, B32, 2,
          d = in->clamp ? sat_i32((int64_t)(int32_t)a + (int32_t)b) : a + b)
VALU_OP32(v_sub_i32, B32, B32, 2,
          d = in->clamp ? sat_i32((int64_t)(int32_t)a - (int32_t)b) : a - b)
VALU_OP32(v_not_b32, B32, B32, 1, d = ~a)
VALU_OP32(v_bfrev_b32, B32, B32, 1, {
  d = a;
  d = (d >> 1 & 0x55555555u) | (d & 0x55555555u) << 1;
  d = (d >> 2 & 0x33333333u) | (d & 0x33333333u) << 2;
  d = (d >> 4 & 0x0f0f0f0fu) | (d & 0x0f0f0f0fu) << 4;
  d = __builtin_bswap32(d);
})
VALU_OP32(v_ffbh_u32, B32, B32, 1, d = a ? (uint32_t)__builtin_clz(a) : ~0u)
VALU_OP32(v_ffbl_b32, B32, B32, 1, d = a ? (uint32_t)__builtin_ctz(a) : ~0u)
/* leading bits equal to the sign bit (the sign bit counted); -1 for 0 and -1 */
VALU_OP32(v_ffbh_i32, B32, B32, 1, {
  uint32_t x = (int32_t)a < 0 ? ~a : a;
  d = x ? (uint32_t)__builtin_clz(x) : ~0u;
})
VALU_OP32(v_sat_pk_u8_i16, B32, B32, 1, {
  int32_t lo = (int16_t)a, hi = (int16_t)(a >> 16);
  lo = lo < 0 ? 0 : lo > 255 ? 255 : lo;
  hi = hi < 0 ? 0 : hi > 255 ? 255 : hi;
  d = (uint32_t)lo | (uint32_t)hi << 8;
})

VALU_OP32(v_mad_i32_i24, B32, B32, 3, d = (uint32_t)((int64_t)i24(a) * i24(b)) + c)
VALU_OP32(v_mad_u32_u24, B32, B32, 3, d = u24(a) * u24(b) + c)
VALU_OP32(v_bfe_u32, B32, B32, 3, d = (c & 31) ? (a >> (b & 31)) & ((1u << (c & 31)) - 1) : 0)
/* a field reaching past bit 31 takes the sign from bit 31 */
VALU_OP32(v_bfe_i32, B32, B32, 3, {
  unsigned off = b & 31, wd = c & 31;
  if (!wd)
    d = 0;
  else if (off + wd >= 32)
    d = (uint32_t)((int32_t)a >> off);
  else
    d = (uint32_t)((int32_t)((a >> off) << (32 - wd)) >> (32 - wd));
})
VALU_OP32(v_bfi_b32, B32, B32, 3, d = (a & b) | (~a & c))
VALU_OP32(v_alignbit_b32, B32, B32, 3, d = (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31)))
VALU_OP32(v_alignbyte_b32, B32, B32, 3,
          d = (uint32_t)((((uint64_t)a << 32) | b) >> (8 * (c & 3))))
VALU_OP32(v_min3_i32, B32, B32, 3, {
  int32_t x = (int32_t)a < (int32_t)b ? (int32_t)a : (int32_t)b;
  d = (uint32_t)(x < (int32_t)c ? x : (int32_t)c);
})
VALU_OP32(v_max3_i32, B32, B32, 3, {
  int32_t x = (int32_t)a > (int32_t)b ? (int32_t)a : (int32_t)b;
  d = (uint32_t)(x > (int32_t)c ? x : (int32_t)c);
})
VALU_OP32(v_min3_u32, B32, B32, 3, {
  uint32_t x = a < b ? a : b;
  d = x < c ? x : c;
})
VALU_OP32(v_max3_u32, B32, B32, 3, {
  uint32_t x = a > b ? a : b;
  d = x > c ? x : c;
})
static inline int64_t med3(int64_t a, int64_t b, int64_t c)
{
  int64_t mx = a > b ? (a > c ? a : c) : (b > c ? b : c);
  if (mx == a) return b > c ? b : c;
  if (mx == b) return a > c ? a : c;
  return a > b ? a : b;
}
VALU_OP32(v_med3_i32, B32, B32, 3, d = (uint32_t)med3((int32_t)a, (int32_t)b, (int32_t)c))
VALU_OP32(v_med3_u32, B32, B32, 3, d = (uint32_t)med3(a, b, c))

static inline uint32_t absdiff(uint32_t x, uint32_t y) { return x > y ? x - y : y - x; }
static inline uint32_t sad8(uint32_t a, uint32_t b)
{
  uint32_t s = 0;
  for (unsigned i = 0; i < 32; i += 8)
    s += absdiff(a >> i & 0xff, b >> i & 0xff);
  return s;
}
static inline uint32_t msad8(uint32_t a, uint32_t b)
{
  uint32_t s = 0;
  for (unsigned i = 0; i < 32; i += 8)
    if (b >> i & 0xff)
      s += absdiff(a >> i & 0xff, b >> i & 0xff);
  return s;
}
VALU_OP32(v_sad_u8, B32, B32, 3, d = sad8(a, b) + c)
VALU_OP32(v_sad_hi_u8, B32, B32, 3, d = (sad8(a, b) << 16) + c)
VALU_OP32(v_sad_u16, B32, B32, 3,
          d = absdiff(a & 0xffff, b & 0xffff) + absdiff(a >> 16, b >> 16) + c)
VALU_OP32(v_sad_u32, B32, B32, 3, d = absdiff(a, b) + c)
VALU_OP32(v_msad_u8, B32, B32, 3, d = msad8(a, b) + c)
VALU_OP32(v_lerp_u8, B32, B32, 3, {
  d = 0;
  for (unsigned i = 0; i < 32; i += 8)
    d |= (((a >> i & 0xff) + (b >> i & 0xff) + (c >> i & 1)) >> 1) << i;
})
VALU_OP32(v_perm_b32, B32, B32, 3, {
  uint64_t x = (uint64_t)a << 32 | b;
  d = 0;
  for (unsigned i = 0; i < 32; i += 8) {
    unsigned s = c >> i & 0xff;
    uint32_t v;
    if (s < 8) v = (uint32_t)(x >> (8 * s)) & 0xff;
    else if (s < 12) v = (x >> (8 * (2 * (s - 8) + 1) + 7) & 1) ? 0xff : 0;
    else if (s == 12) v = 0;
    else v = 0xff;
    d |= v << i;
  }
})
VALU_OP32(v_xad_u32, B32, B32, 3, d = (a ^ b) + c)
VALU_OP32(v_lshl_add_u32, B32, B32, 3, d = (a << (b & 31)) + c)
VALU_OP32(v_add_lshl_u32, B32, B32, 3, d = (a + b) << (c & 31))
VALU_OP32(v_add3_u32, B32, B32, 3, d = a + b + c)
VALU_OP32(v_lshl_or_b32, B32, B32, 3, d = (a << (b & 31)) | c)
VALU_OP32(v_and_or_b32, B32, B32, 3, d = (a & b) | c)
VALU_OP32(v_or3_b32, B32, B32, 3, d = a | b | c)
VALU_OP32(v_mul_lo_u32, B32, B32, 2, d = a * b)
VALU_OP32(v_mul_hi_u32, B32, B32, 2, d = (uint32_t)(((uint64_t)a * b) >> 32))
VALU_OP32(v_mul_hi_i32, B32, B32, 2,
          d = (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32))
VALU_OP32(v_bcnt_u32_b32, B32, B32, 2, d = (uint32_t)__builtin_popcount(a) + b)
VALU_OP32(v_bfm_b32, B32, B32, 2, d = ((a & 31) ? (1u << (a & 31)) - 1 : 0) << (b & 31))
VALU_OP32(v_cvt_pk_u16_u32, B32, B32, 2,
          d = (a > 0xffff ? 0xffff : a) | (b > 0xffff ? 0xffff : b) << 16)
static inline uint32_t sat_i16(int32_t v) { return (uint32_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v) & 0xffff; }
VALU_OP32(v_cvt_pk_i16_i32, B32, B32, 2, d = sat_i16((int32_t)a) | sat_i16((int32_t)b) << 16)

/* v_mbcnt: bits of S0 below this lane (in the lo or hi half of the wave) plus S1. */
VALU_OP32(v_mbcnt_lo_u32_b32, B32, B32, 2,
          d = (uint32_t)__builtin_popcount(a & (l >= 32 ? ~0u : (1u << l) - 1)) + b)
VALU_OP32(v_mbcnt_hi_u32_b32, B32, B32, 2,
          d = (uint32_t)__builtin_popcount(a & (l < 32 ? 0u : (1u << (l - 32)) - 1)) + b)

/* mad with 16-bit multiplicands (op_sel picks their halves) and a 32-bit addend */
static int v_mad_u32_u16(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b0[VALU_N], b1[VALU_N], b2[VALU_N], r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, I16, b0), *b = valu_src(w, in, 1, I16, b1);
  const uint32_t *c = valu_src(w, in, 2, B32, b2);
  VALU_EACH(valu_lanes(w, in), l)
    r[l] = (a[l] & 0xffff) * (b[l] & 0xffff) + c[l];
  valu_put(w, in, r, B32);
  return valu_next(w, in);
}

static int v_mad_i32_i16(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b0[VALU_N], b1[VALU_N], b2[VALU_N], r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, I16, b0), *b = valu_src(w, in, 1, I16, b1);
  const uint32_t *c = valu_src(w, in, 2, B32, b2);
  VALU_EACH(valu_lanes(w, in), l)
    r[l] = (uint32_t)((int32_t)(int16_t)a[l] * (int16_t)b[l]) + c[l];
  valu_put(w, in, r, B32);
  return valu_next(w, in);
}

/* ---- carries: VOP2 uses VCC, VOP3B an SGPR pair; inactive lanes write 0 ---- */
enum { C_ADD, C_SUB, C_SUBREV };
/* inlined per opcode so `kind` is a constant and the all-lanes loop has no branches */
static inline __attribute__((always_inline)) int carry_op(struct isa_wave *w, const struct isa_inst *in,
                                                          int kind, bool cin)
{
  uint32_t b0[VALU_N], b1[VALU_N], r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, B32, b0), *b = valu_src(w, in, 1, B32, b1);
  uint64_t ci = cin ? valu_mask_src(w, in, 2) : 0, co = 0, m = valu_lanes(w, in);
  bool clamp = in->clamp;
  if (m == ~0ull && !clamp) {
    /* x, y < 2^32: bit 32 of the 64-bit sum or difference is the carry or the borrow;
     * a loop without branches the compiler vectorizes */
    for (unsigned l = 0; l < VALU_N; l++) {
      uint64_t x = kind == C_SUBREV ? b[l] : a[l], y = kind == C_SUBREV ? a[l] : b[l];
      uint64_t v = kind == C_ADD ? x + y + (ci >> l & 1) : x - y - (ci >> l & 1);
      r[l] = (uint32_t)v;
      co |= (v >> 32 & 1) << l;
    }
  } else VALU_LOOP(m, l, {
    uint64_t x = a[l], y = b[l], c = ci >> l & 1, v;
    if (kind == C_SUBREV) { uint64_t t = x; x = y; y = t; }
    bool carry;
    if (kind == C_ADD) {
      v = x + y + c;
      carry = v >> 32;
    } else {
      v = x - y - c;
      carry = y + c > x;
    }
    r[l] = clamp && carry ? (kind == C_ADD ? UINT32_MAX : 0) : (uint32_t)v;
    co |= (uint64_t)carry << l;
  });
  valu_put(w, in, r, B32);
  valu_put_mask(w, in, co);
  return valu_next(w, in);
}
static int v_add_co_u32(struct isa_wave *w, const struct isa_inst *in) { return carry_op(w, in, C_ADD, false); }
static int v_sub_co_u32(struct isa_wave *w, const struct isa_inst *in) { return carry_op(w, in, C_SUB, false); }
static int v_subrev_co_u32(struct isa_wave *w, const struct isa_inst *in) { return carry_op(w, in, C_SUBREV, false); }
static int v_addc_co_u32(struct isa_wave *w, const struct isa_inst *in) { return carry_op(w, in, C_ADD, true); }
static int v_subb_co_u32(struct isa_wave *w, const struct isa_inst *in) { return carry_op(w, in, C_SUB, true); }
static int v_subbrev_co_u32(struct isa_wave *w, const struct isa_inst *in) { return carry_op(w, in, C_SUBREV, true); }

/* D.u64 = S0.u32 * S1.u32 + S2.u64, carry-out of the 64-bit add to sdst */
static int mad64(struct isa_wave *w, const struct isa_inst *in, bool sgn)
{
  uint32_t b0[VALU_N], b1[VALU_N];
  uint64_t b2[VALU_N], r[VALU_N], co = 0;
  const uint32_t *a = valu_src(w, in, 0, B32, b0), *b = valu_src(w, in, 1, B32, b1);
  const uint64_t *c = valu_src64(w, in, 2, ISA_T_B64, b2);
  VALU_EACH(valu_lanes(w, in), l) {
    if (sgn) {
      __int128 p = (__int128)((int64_t)(int32_t)a[l] * (int32_t)b[l]) + (int64_t)c[l];
      r[l] = (uint64_t)p;
      co |= (uint64_t)(p != (__int128)(int64_t)p) << l;
    } else {
      unsigned __int128 p = (unsigned __int128)((uint64_t)a[l] * b[l]) + c[l];
      r[l] = (uint64_t)p;
      co |= (uint64_t)(p >> 64 != 0) << l;
    }
  }
  valu_put64(w, in, r, ISA_T_B64);
  valu_put_mask(w, in, co);
  return valu_next(w, in);
}
static int v_mad_u64_u32(struct isa_wave *w, const struct isa_inst *in) { return mad64(w, in, false); }
static int v_mad_i64_i32(struct isa_wave *w, const struct isa_inst *in) { return mad64(w, in, true); }

/* ---- 64-bit shifts: S0 is the count, S1 the value ---- */
static int shift64(struct isa_wave *w, const struct isa_inst *in, int kind)
{
  uint32_t b0[VALU_N];
  uint64_t b1[VALU_N], r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, B32, b0);
  const uint64_t *v = valu_src64(w, in, 1, ISA_T_B64, b1);
  VALU_EACH(valu_lanes(w, in), l) {
    unsigned s = a[l] & 63;
    r[l] = kind == 0 ? v[l] << s : kind == 1 ? v[l] >> s : (uint64_t)((int64_t)v[l] >> s);
  }
  valu_put64(w, in, r, ISA_T_B64);
  return valu_next(w, in);
}
static int v_lshlrev_b64(struct isa_wave *w, const struct isa_inst *in) { return shift64(w, in, 0); }
static int v_lshrrev_b64(struct isa_wave *w, const struct isa_inst *in) { return shift64(w, in, 1); }
static int v_ashrrev_i64(struct isa_wave *w, const struct isa_inst *in) { return shift64(w, in, 2); }

/* ---- quad SADs (S0 64-bit, results as packed 16-bit sums) ---- */
static int qsad(struct isa_wave *w, const struct isa_inst *in, bool masked)
{
  uint32_t b1[VALU_N];
  uint64_t b0[VALU_N], b2[VALU_N], r[VALU_N];
  const uint64_t *a = valu_src64(w, in, 0, ISA_T_B64, b0), *c = valu_src64(w, in, 2, ISA_T_B64, b2);
  const uint32_t *b = valu_src(w, in, 1, B32, b1);
  VALU_EACH(valu_lanes(w, in), l) {
    uint64_t d = 0;
    for (unsigned i = 0; i < 4; i++) {
      uint32_t win = (uint32_t)(a[l] >> (8 * i));
      uint32_t s = (masked ? msad8(win, b[l]) : sad8(win, b[l])) + (uint32_t)(c[l] >> (16 * i));
      d |= (uint64_t)(s & 0xffff) << (16 * i);
    }
    r[l] = d;
  }
  valu_put64(w, in, r, ISA_T_B64);
  return valu_next(w, in);
}
static int v_qsad_pk_u16_u8(struct isa_wave *w, const struct isa_inst *in) { return qsad(w, in, false); }

/* four 32-bit masked SADs of the byte windows of S0 (64-bit) against S1, accumulated onto
 * S2 (four dwords) into D (four dwords) */
static int v_mqsad_u32_u8(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b1[VALU_N], acc[4][VALU_N];
  uint64_t b0[VALU_N];
  const uint64_t *a = valu_src64(w, in, 0, ISA_T_B64, b0);
  const uint32_t *b = valu_src(w, in, 1, B32, b1);
  unsigned c = in->src[2];
  for (unsigned i = 0; i < 4; i++)
    for (unsigned l = 0; l < VALU_N; l++)
      acc[i][l] = c >= ISA_OP_VGPR0 ? w->vgpr[(c - ISA_OP_VGPR0 + i) & (ISA_MAX_VGPRS - 1)][l]
                                    : isa_read_v32(w, in, c < ISA_OP_ZERO ? c + i : c, l, B32);
  unsigned d = (in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1);
  VALU_EACH(valu_lanes(w, in), l)
    for (unsigned i = 0; i < 4; i++)
      w->vgpr[(d + i) & (ISA_MAX_VGPRS - 1)][l] = msad8((uint32_t)(a[l] >> (8 * i)), b[l]) + acc[i][l];
  return valu_next(w, in);
}
static int v_mqsad_pk_u16_u8(struct isa_wave *w, const struct isa_inst *in) { return qsad(w, in, true); }

/* ---- 16-bit integer (results zero the high half on gfx9 unless noted) ---- */
#define VALU_OP16(fn, n, keep_hi, ...)                                                      \
  static int fn(struct isa_wave *w, const struct isa_inst *in)                              \
  {                                                                                          \
    uint32_t b0_[VALU_N], b1_[VALU_N], b2_[VALU_N], r_[VALU_N];                              \
    const uint32_t *s0_ = valu_src(w, in, 0, I16, b0_);                                      \
    const uint32_t *s1_ = (n) > 1 ? valu_src(w, in, 1, I16, b1_) : s0_;                      \
    const uint32_t *s2_ = (n) > 2 ? valu_src(w, in, 2, I16, b2_) : s0_;                      \
    VALU_LOOP(valu_lanes(w, in), l, {                                                        \
      uint32_t a = s0_[l] & 0xffff, b = s1_[l] & 0xffff, c = s2_[l] & 0xffff, d;             \
      int32_t sa = (int16_t)a, sb = (int16_t)b, sc = (int16_t)c;                             \
      (void)a; (void)b; (void)c; (void)sa; (void)sb; (void)sc;                               \
      __VA_ARGS__;                                                                                  \
      r_[l] = d;                                                                             \
    });                                                                                       \
    valu_put16(w, in, r_, I16, keep_hi);                                                     \
    return valu_next(w, in);                                                                 \
  }

static inline uint32_t sat_u16(int32_t v) { return (uint32_t)(v < 0 ? 0 : v > 0xffff ? 0xffff : v); }
VALU_OP16(v_add_u16, 2, false, d = in->clamp ? sat_u16((int32_t)(a + b)) : a + b)
VALU_OP16(v_sub_u16, 2, false, d = in->clamp ? sat_u16((int32_t)a - (int32_t)b) : a - b)
VALU_OP16(v_subrev_u16, 2, false, d = in->clamp ? sat_u16((int32_t)b - (int32_t)a) : b - a)
VALU_OP16(v_add_i16, 2, false, d = in->clamp ? sat_i16(sa + sb) : a + b)
VALU_OP16(v_sub_i16, 2, false, d = in->clamp ? sat_i16(sa - sb) : a - b)
VALU_OP16(v_mul_lo_u16, 2, false, d = a * b)
VALU_OP16(v_lshlrev_b16, 2, false, d = b << (a & 15))
VALU_OP16(v_lshrrev_b16, 2, false, d = b >> (a & 15))
VALU_OP16(v_ashrrev_i16, 2, false, d = (uint32_t)(sb >> (a & 15)))
VALU_OP16(v_max_u16, 2, false, d = a > b ? a : b)
VALU_OP16(v_max_i16, 2, false, d = (uint32_t)(sa > sb ? sa : sb))
VALU_OP16(v_min_u16, 2, false, d = a < b ? a : b)
VALU_OP16(v_min_i16, 2, false, d = (uint32_t)(sa < sb ? sa : sb))
VALU_OP16(v_mad_legacy_u16, 3, false, d = in->clamp && a * b + c > 0xffff ? 0xffff : a * b + c)
VALU_OP16(v_mad_legacy_i16, 3, false, d = in->clamp ? sat_i16(sa * sb + sc) : (uint32_t)(sa * sb + sc))
VALU_OP16(v_mad_u16, 3, true, d = in->clamp && a * b + c > 0xffff ? 0xffff : a * b + c)
VALU_OP16(v_mad_i16, 3, true, d = in->clamp ? sat_i16(sa * sb + sc) : (uint32_t)(sa * sb + sc))
VALU_OP16(v_min3_i16, 3, false, { int32_t x = sa < sb ? sa : sb; d = (uint32_t)(x < sc ? x : sc); })
VALU_OP16(v_max3_i16, 3, false, { int32_t x = sa > sb ? sa : sb; d = (uint32_t)(x > sc ? x : sc); })
VALU_OP16(v_min3_u16, 3, false, { uint32_t x = a < b ? a : b; d = x < c ? x : c; })
VALU_OP16(v_max3_u16, 3, false, { uint32_t x = a > b ? a : b; d = x > c ? x : c; })
VALU_OP16(v_med3_i16, 3, false, d = (uint32_t)med3(sa, sb, sc))
VALU_OP16(v_med3_u16, 3, false, d = (uint32_t)med3(a, b, c))

#define E(op, gfx, flags, fn) { op, gfx, flags, #fn, fn }
#define V2 VALU_OP_VOP2 +
#define V1 VALU_OP_VOP1 +
const struct valu_desc valu_int_ops[] = {
  E(V2 0x06, VALU_GFX9, 0, v_mul_i32_i24), E(V2 0x07, VALU_GFX9, 0, v_mul_hi_i32_i24),
  E(V2 0x08, VALU_GFX9, 0, v_mul_u32_u24), E(V2 0x09, VALU_GFX9, 0, v_mul_hi_u32_u24),
  E(V2 0x0c, VALU_GFX9, 0, v_min_i32), E(V2 0x0d, VALU_GFX9, 0, v_max_i32),
  E(V2 0x0e, VALU_GFX9, 0, v_min_u32), E(V2 0x0f, VALU_GFX9, 0, v_max_u32),
  E(V2 0x10, VALU_GFX9, 0, v_lshrrev_b32), E(V2 0x11, VALU_GFX9, 0, v_ashrrev_i32),
  E(V2 0x12, VALU_GFX9, 0, v_lshlrev_b32), E(V2 0x13, VALU_GFX9, 0, v_and_b32),
  E(V2 0x14, VALU_GFX9, 0, v_or_b32), E(V2 0x15, VALU_GFX9, 0, v_xor_b32),
  E(V2 0x19, VALU_GFX9, VALU_F_VOP3B | VALU_F_CARRYOUT, v_add_co_u32),
  E(V2 0x1a, VALU_GFX9, VALU_F_VOP3B | VALU_F_CARRYOUT, v_sub_co_u32),
  E(V2 0x1b, VALU_GFX9, VALU_F_VOP3B | VALU_F_CARRYOUT, v_subrev_co_u32),
  E(V2 0x1c, VALU_GFX9, VALU_F_VOP3B | VALU_F_CARRYOUT | VALU_F_CARRYIN, v_addc_co_u32),
  E(V2 0x1d, VALU_GFX9, VALU_F_VOP3B | VALU_F_CARRYOUT | VALU_F_CARRYIN, v_subb_co_u32),
  E(V2 0x1e, VALU_GFX9, VALU_F_VOP3B | VALU_F_CARRYOUT | VALU_F_CARRYIN, v_subbrev_co_u32),
  E(V2 0x26, VALU_GFX9, 0, v_add_u16), E(V2 0x27, VALU_GFX9, 0, v_sub_u16),
  E(V2 0x28, VALU_GFX9, 0, v_subrev_u16), E(V2 0x29, VALU_GFX9, 0, v_mul_lo_u16),
  E(V2 0x2a, VALU_GFX9, 0, v_lshlrev_b16), E(V2 0x2b, VALU_GFX9, 0, v_lshrrev_b16),
  E(V2 0x2c, VALU_GFX9, 0, v_ashrrev_i16), E(V2 0x2f, VALU_GFX9, 0, v_max_u16),
  E(V2 0x30, VALU_GFX9, 0, v_max_i16), E(V2 0x31, VALU_GFX9, 0, v_min_u16),
  E(V2 0x32, VALU_GFX9, 0, v_min_i16),
  E(V2 0x34, VALU_GFX9, 0, v_add_u32), E(V2 0x35, VALU_GFX9, 0, v_sub_u32),
  E(V2 0x36, VALU_GFX9, 0, v_subrev_u32), E(V2 0x3d, VALU_GFX906UP, 0, v_xnor_b32),
  E(V1 0x2b, VALU_GFX9, 0, v_not_b32), E(V1 0x2c, VALU_GFX9, 0, v_bfrev_b32),
  E(V1 0x2d, VALU_GFX9, 0, v_ffbh_u32), E(V1 0x2e, VALU_GFX9, 0, v_ffbl_b32),
  E(V1 0x2f, VALU_GFX9, 0, v_ffbh_i32), E(V1 0x4f, VALU_GFX9, 0, v_sat_pk_u8_i16),
  E(0x1c2, VALU_GFX9, 0, v_mad_i32_i24), E(0x1c3, VALU_GFX9, 0, v_mad_u32_u24),
  E(0x1c8, VALU_GFX9, 0, v_bfe_u32), E(0x1c9, VALU_GFX9, 0, v_bfe_i32),
  E(0x1ca, VALU_GFX9, 0, v_bfi_b32), E(0x1cd, VALU_GFX9, 0, v_lerp_u8),
  E(0x1ce, VALU_GFX9, 0, v_alignbit_b32), E(0x1cf, VALU_GFX9, 0, v_alignbyte_b32),
  E(0x1d1, VALU_GFX9, 0, v_min3_i32), E(0x1d2, VALU_GFX9, 0, v_min3_u32),
  E(0x1d4, VALU_GFX9, 0, v_max3_i32), E(0x1d5, VALU_GFX9, 0, v_max3_u32),
  E(0x1d7, VALU_GFX9, 0, v_med3_i32), E(0x1d8, VALU_GFX9, 0, v_med3_u32),
  E(0x1d9, VALU_GFX9, 0, v_sad_u8), E(0x1da, VALU_GFX9, 0, v_sad_hi_u8),
  E(0x1db, VALU_GFX9, 0, v_sad_u16), E(0x1dc, VALU_GFX9, 0, v_sad_u32),
  E(0x1e4, VALU_GFX9, 0, v_msad_u8), E(0x1e5, VALU_GFX9, 0, v_qsad_pk_u16_u8),
  E(0x1e6, VALU_GFX9, 0, v_mqsad_pk_u16_u8), E(0x1e7, VALU_GFX9, 0, v_mqsad_u32_u8),
  E(0x1e8, VALU_GFX9, VALU_F_VOP3B, v_mad_u64_u32), E(0x1e9, VALU_GFX9, VALU_F_VOP3B, v_mad_i64_i32),
  E(0x1eb, VALU_GFX9, 0, v_mad_legacy_u16), E(0x1ec, VALU_GFX9, 0, v_mad_legacy_i16),
  E(0x1ed, VALU_GFX9, 0, v_perm_b32), E(0x1f1, VALU_GFX9, 0, v_mad_u32_u16),
  E(0x1f2, VALU_GFX9, 0, v_mad_i32_i16), E(0x1f3, VALU_GFX9, 0, v_xad_u32),
  E(0x1f5, VALU_GFX9, 0, v_min3_i16), E(0x1f6, VALU_GFX9, 0, v_min3_u16),
  E(0x1f8, VALU_GFX9, 0, v_max3_i16), E(0x1f9, VALU_GFX9, 0, v_max3_u16),
  E(0x1fb, VALU_GFX9, 0, v_med3_i16), E(0x1fc, VALU_GFX9, 0, v_med3_u16),
  E(0x1fd, VALU_GFX9, 0, v_lshl_add_u32), E(0x1fe, VALU_GFX9, 0, v_add_lshl_u32),
  E(0x1ff, VALU_GFX9, 0, v_add3_u32), E(0x200, VALU_GFX9, 0, v_lshl_or_b32),
  E(0x201, VALU_GFX9, 0, v_and_or_b32), E(0x202, VALU_GFX9, 0, v_or3_b32),
  E(0x204, VALU_GFX9, 0, v_mad_u16), E(0x205, VALU_GFX9, 0, v_mad_i16),
  E(0x285, VALU_GFX9, 0, v_mul_lo_u32), E(0x286, VALU_GFX9, 0, v_mul_hi_u32),
  E(0x287, VALU_GFX9, 0, v_mul_hi_i32), E(0x28b, VALU_GFX9, 0, v_bcnt_u32_b32),
  E(0x28c, VALU_GFX9, 0, v_mbcnt_lo_u32_b32), E(0x28d, VALU_GFX9, 0, v_mbcnt_hi_u32_b32),
  E(0x28f, VALU_GFX9, 0, v_lshlrev_b64), E(0x290, VALU_GFX9, 0, v_lshrrev_b64),
  E(0x291, VALU_GFX9, 0, v_ashrrev_i64), E(0x293, VALU_GFX9, 0, v_bfm_b32),
  E(0x297, VALU_GFX9, 0, v_cvt_pk_u16_u32), E(0x298, VALU_GFX9, 0, v_cvt_pk_i16_i32),
  E(0x29c, VALU_GFX9, 0, v_add_i32), E(0x29d, VALU_GFX9, 0, v_sub_i32),
  E(0x29e, VALU_GFX9, 0, v_add_i16), E(0x29f, VALU_GFX9, 0, v_sub_i16),
};
VALU_COUNT(int);
