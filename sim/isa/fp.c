/* SPDX-License-Identifier: MIT */
/* fp.c — the float rules of the gfx9 VALU that host arithmetic does not give by itself. */
#include "isa/fp.h"

#include <fenv.h>
#include <float.h>

float fp_f16_to_f32(uint32_t h)
{
  uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0) {
    float f = (float)m * 0x1p-24f;            /* exact: at most 10 significant bits */
    return fp_f(fp_u(f) | sign);
  }
  if (e == 31)
    return fp_f(sign | 0x7f800000u | (m << 13));
  return fp_f(sign | ((e + 112) << 23) | (m << 13));
}

static uint32_t f32_to_f16(float f, bool rtz)
{
  uint32_t u = fp_u(f), sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
  if (a > 0x7f800000u)                        /* NaN: keep the payload's top bits, quiet it */
    return sign | 0x7e00u | ((a >> 13) & 0x3ffu);
  if (a == 0x7f800000u)
    return sign | 0x7c00u;
  if (a >= 0x47800000u || (!rtz && a >= 0x477ff000u))   /* >= 65520 rounds to inf */
    return sign | (rtz ? 0x7bffu : 0x7c00u);
  if (a < 0x38800000u) {                      /* below 2^-14: f16 denormal or zero */
    float t = fp_f(a) * 0x1p24f;              /* exact */
    uint32_t m = (uint32_t)(rtz ? truncf(t) : fp_rne32(t));
    return sign | m;                          /* m == 0x400 is the smallest normal: right */
  }
  uint32_t h = (a - (112u << 23)) >> 13, rb = a & 0x1fffu;
  if (!rtz && (rb > 0x1000u || (rb == 0x1000u && (h & 1))))
    h++;
  return sign | h;
}

uint32_t fp_f32_to_f16(float f) { return f32_to_f16(f, false); }
uint32_t fp_f32_to_f16_rtz(float f) { return f32_to_f16(f, true); }

/* ---- min / max ---- */
#define MINMAX(NAME, T, ISNAN, ISSNAN, QUIET, SIGN, LT)                                  \
  T NAME(T a, T b, bool ieee, bool want_max)                                             \
  {                                                                                      \
    if (ISNAN(a) || ISNAN(b)) {                                                          \
      if (ieee && ISSNAN(a)) return a | QUIET;                                           \
      if (ieee && ISSNAN(b)) return b | QUIET;                                           \
      if (ISNAN(a)) return ISNAN(b) ? (a | QUIET) : b;                                   \
      return a;                                                                          \
    }                                                                                    \
    if (LT(a, b)) return want_max ? b : a;                                               \
    if (LT(b, a)) return want_max ? a : b;                                               \
    /* equal values: only the zeros' signs can differ; -0 < +0 */                       \
    if (want_max) return (a & SIGN) ? b : a;                                             \
    return (a & SIGN) ? a : b;                                                           \
  }

static inline bool lt32(uint32_t a, uint32_t b) { return fp_f(a) < fp_f(b); }
static inline bool lt64(uint64_t a, uint64_t b) { return fp_d(a) < fp_d(b); }
static inline bool lt16(uint32_t a, uint32_t b) { return fp_f16_to_f32(a) < fp_f16_to_f32(b); }

static MINMAX(minmax32, uint32_t, fp_isnan32, fp_issnan32, 0x00400000u, 0x80000000u, lt32)
static MINMAX(minmax64, uint64_t, fp_isnan64, fp_issnan64, 1ull << 51, 1ull << 63, lt64)
static MINMAX(minmax16, uint32_t, fp_isnan16, fp_issnan16, 0x200u, 0x8000u, lt16)

uint32_t fp_min32(uint32_t a, uint32_t b, bool ieee) { return minmax32(a, b, ieee, false); }
uint32_t fp_max32(uint32_t a, uint32_t b, bool ieee) { return minmax32(a, b, ieee, true); }
uint64_t fp_min64(uint64_t a, uint64_t b, bool ieee) { return minmax64(a, b, ieee, false); }
uint64_t fp_max64(uint64_t a, uint64_t b, bool ieee) { return minmax64(a, b, ieee, true); }
uint32_t fp_min16(uint32_t a, uint32_t b, bool ieee) { return minmax16(a & 0xffff, b & 0xffff, ieee, false); }
uint32_t fp_max16(uint32_t a, uint32_t b, bool ieee) { return minmax16(a & 0xffff, b & 0xffff, ieee, true); }

/* med3 with a NaN operand degrades to min3 (as the ISA describes), else the middle value. */
uint32_t fp_med3_32(uint32_t a, uint32_t b, uint32_t c, bool ieee)
{
  if (fp_isnan32(a) || fp_isnan32(b) || fp_isnan32(c))
    return fp_min32(fp_min32(a, b, ieee), c, ieee);
  uint32_t mx = fp_max32(fp_max32(a, b, ieee), c, ieee);
  if (mx == a) return fp_max32(b, c, ieee);
  if (mx == b) return fp_max32(a, c, ieee);
  return fp_max32(a, b, ieee);
}

uint32_t fp_med3_16(uint32_t a, uint32_t b, uint32_t c, bool ieee)
{
  a &= 0xffff; b &= 0xffff; c &= 0xffff;
  if (fp_isnan16(a) || fp_isnan16(b) || fp_isnan16(c))
    return fp_min16(fp_min16(a, b, ieee), c, ieee);
  uint32_t mx = fp_max16(fp_max16(a, b, ieee), c, ieee);
  if (mx == a) return fp_max16(b, c, ieee);
  if (mx == b) return fp_max16(a, c, ieee);
  return fp_max16(a, b, ieee);
}

/* ---- output modifiers ---- */
static const float omod_f[4] = { 1.0f, 2.0f, 4.0f, 0.5f };

uint32_t fp_omod_clamp32(uint32_t r, unsigned omod, bool clamp, bool dx10)
{
  if (fp_isnan32(r))
    return clamp && dx10 ? 0 : r;
  float f = fp_f(r) * omod_f[omod & 3];
  if (clamp)
    f = f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f;
  return fp_u(f);
}

uint64_t fp_omod_clamp64(uint64_t r, unsigned omod, bool clamp, bool dx10)
{
  if (fp_isnan64(r))
    return clamp && dx10 ? 0 : r;
  double f = fp_d(r) * (double)omod_f[omod & 3];
  if (clamp)
    f = f > 0.0 ? (f < 1.0 ? f : 1.0) : 0.0;
  return fp_ud(f);
}

uint32_t fp_omod_clamp16(uint32_t r, unsigned omod, bool clamp, bool dx10)
{
  r &= 0xffff;
  if (fp_isnan16(r))
    return clamp && dx10 ? 0 : r;
  float f = fp_f16_to_f32(r) * omod_f[omod & 3];
  if (clamp)
    f = f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f;
  return fp_f32_to_f16(f);
}

/* ---- class ---- */
static unsigned class_of(bool nan, bool snan, bool inf, bool zero, bool denorm, bool neg)
{
  if (nan) return snan ? 1u << 0 : 1u << 1;
  if (inf) return neg ? 1u << 2 : 1u << 9;
  if (zero) return neg ? 1u << 5 : 1u << 6;
  if (denorm) return neg ? 1u << 4 : 1u << 7;
  return neg ? 1u << 3 : 1u << 8;
}

unsigned fp_class32(uint32_t u)
{
  uint32_t a = u & 0x7fffffffu;
  return class_of(fp_isnan32(u), fp_issnan32(u), a == 0x7f800000u, a == 0, fp_isdenorm32(u),
                  u >> 31);
}

unsigned fp_class64(uint64_t u)
{
  uint64_t a = u & ~(1ull << 63);
  return class_of(fp_isnan64(u), fp_issnan64(u), a == 0x7ff0000000000000ull, a == 0,
                  fp_isdenorm64(u), u >> 63);
}

unsigned fp_class16(uint32_t u)
{
  uint32_t a = u & 0x7fffu;
  return class_of(fp_isnan16(u), fp_issnan16(u), a == 0x7c00u, a == 0, fp_isdenorm16(u),
                  (u >> 15) & 1);
}

/* ---- conversions ---- */
int32_t fp_to_i32(double d)
{
  if (isnan(d)) return 0;
  d = trunc(d);
  if (d >= 2147483647.0) return INT32_MAX;
  if (d <= -2147483648.0) return INT32_MIN;
  return (int32_t)d;
}

uint32_t fp_to_u32(double d)
{
  if (isnan(d)) return 0;
  d = trunc(d);
  if (d >= 4294967295.0) return UINT32_MAX;
  if (d <= 0.0) return 0;
  return (uint32_t)d;
}

/* ---- division helpers ----
 * LLVM's correctly rounded division: d' = div_scale(den, den, num), r ~ 1/d' (refined),
 * n' = div_scale(num, den, num) (sets VCC), q = n' * r, rem = fma(-d', q, n'),
 * q2 = div_fmas(rem, r, q) (undoes the scaling when VCC), div_fixup(q2, den, num) (special
 * values). div_scale scales one operand by 2^+-k (k = 64 for f32, 128 for f64) when the
 * reciprocal or the quotient would leave the normal range, and div_fmas scales back. */
uint32_t fp_div_scale32(uint32_t s0, uint32_t s1, uint32_t s2, bool *vcc)
{
  float S0 = fp_f(s0), S1 = fp_f(s1), S2 = fp_f(s2);
  int e1 = (s1 >> 23) & 0xff, e2 = (s2 >> 23) & 0xff;
  *vcc = false;
  if (S2 == 0.0f || S1 == 0.0f)
    return 0x7fc00000u;
  if (e2 - e1 >= 96) {                        /* quotient near the top of the range */
    *vcc = true;
    return s0 == s1 ? fp_u(ldexpf(S0, 64)) : s0;
  }
  if (fp_isdenorm32(s1))
    return fp_u(ldexpf(S0, 64));
  bool rcp_tiny = fabs(1.0 / (double)S1) < FLT_MIN;
  bool q_tiny = fabs((double)S2 / (double)S1) < FLT_MIN;
  if (rcp_tiny && q_tiny) {
    *vcc = true;
    return s0 == s1 ? fp_u(ldexpf(S0, -64)) : s0;
  }
  if (rcp_tiny)
    return fp_u(ldexpf(S0, -64));
  if (q_tiny) {
    *vcc = true;
    return s0 == s2 ? fp_u(ldexpf(S0, 64)) : s0;
  }
  if (e2 <= 23)                               /* tiny numerator */
    return fp_u(ldexpf(S0, 64));
  return s0;
}

uint64_t fp_div_scale64(uint64_t s0, uint64_t s1, uint64_t s2, bool *vcc)
{
  double S0 = fp_d(s0), S1 = fp_d(s1), S2 = fp_d(s2);
  int e1 = (int)((s1 >> 52) & 0x7ff), e2 = (int)((s2 >> 52) & 0x7ff);
  *vcc = false;
  if (S2 == 0.0 || S1 == 0.0)
    return 0x7ff8000000000000ull;
  if (e2 - e1 >= 768) {
    *vcc = true;
    return s0 == s1 ? fp_ud(ldexp(S0, 128)) : s0;
  }
  if (fp_isdenorm64(s1))
    return fp_ud(ldexp(S0, 128));
  long double rl = 1.0L / (long double)S1, ql = (long double)S2 / (long double)S1;
  bool rcp_tiny = fabsl(rl) < DBL_MIN, q_tiny = fabsl(ql) < DBL_MIN;
  if (rcp_tiny && q_tiny) {
    *vcc = true;
    return s0 == s1 ? fp_ud(ldexp(S0, -128)) : s0;
  }
  if (rcp_tiny)
    return fp_ud(ldexp(S0, -128));
  if (q_tiny) {
    *vcc = true;
    return s0 == s2 ? fp_ud(ldexp(S0, 128)) : s0;
  }
  if (e2 <= 53)
    return fp_ud(ldexp(S0, 128));
  return s0;
}

uint32_t fp_div_fixup32(uint32_t q, uint32_t den, uint32_t num)
{
  uint32_t sign = (den ^ num) & 0x80000000u, ad = den & 0x7fffffffu, an = num & 0x7fffffffu;
  if (fp_isnan32(num)) return num | 0x00400000u;
  if (fp_isnan32(den)) return den | 0x00400000u;
  if (ad == 0 && an == 0) return 0xffc00000u;
  if (ad == 0x7f800000u && an == 0x7f800000u) return 0xffc00000u;
  if (ad == 0 || an == 0x7f800000u) return sign | 0x7f800000u;
  if (ad == 0x7f800000u || an == 0) return sign;
  /* finite operands whose quotient left the range on the way: overflow, or underflow */
  if ((int)(an >> 23) - (int)(ad >> 23) < -150) return sign;
  if (fp_isnan32(q) || (q & 0x7fffffffu) == 0x7f800000u) return sign | 0x7f800000u;
  return sign | (q & 0x7fffffffu);
}

uint64_t fp_div_fixup64(uint64_t q, uint64_t den, uint64_t num)
{
  const uint64_t S = 1ull << 63, INF = 0x7ff0000000000000ull;
  uint64_t sign = (den ^ num) & S, ad = den & ~S, an = num & ~S;
  if (fp_isnan64(num)) return num | (1ull << 51);
  if (fp_isnan64(den)) return den | (1ull << 51);
  if (ad == 0 && an == 0) return 0xfff8000000000000ull;
  if (ad == INF && an == INF) return 0xfff8000000000000ull;
  if (ad == 0 || an == INF) return sign | INF;
  if (ad == INF || an == 0) return sign;
  if ((int)(an >> 52) - (int)(ad >> 52) < -1075) return sign;
  if (fp_isnan64(q) || (q & ~S) == INF) return sign | INF;
  return sign | (q & ~S);
}

uint32_t fp_div_fixup16(uint32_t q, uint32_t den, uint32_t num)
{
  den &= 0xffff; num &= 0xffff;
  uint32_t sign = (den ^ num) & 0x8000u, ad = den & 0x7fffu, an = num & 0x7fffu;
  if (fp_isnan16(num)) return num | 0x200u;
  if (fp_isnan16(den)) return den | 0x200u;
  if (ad == 0 && an == 0) return 0xfe00u;
  if (ad == 0x7c00u && an == 0x7c00u) return 0xfe00u;
  if (ad == 0 || an == 0x7c00u) return sign | 0x7c00u;
  if (ad == 0x7c00u || an == 0) return sign;
  return sign | (q & 0x7fffu);
}

/* ---- v_trig_preop_f64 ----
 * The fraction bits of 2/pi (1280 of them), most significant first: a mathematical
 * constant (the same digits as in every Payne-Hanek reduction). */
static const uint32_t two_over_pi[40] = {
  0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041,
  0xfe5163ab, 0xdebbc561, 0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c,
  0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484, 0xe99c7026, 0xb45f7e41,
  0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
  0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d,
  0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08,
  0x56033046, 0xfc7b6bab, 0xf0cfbc20, 0x9af4361d,
};

static unsigned two_over_pi_bit(unsigned i)   /* bit i after the binary point, from 1 */
{
  i--;
  return i < 1280 ? two_over_pi[i / 32] >> (31 - i % 32) & 1 : 0;
}

/* 53 bits of 2/pi starting after bit `shift` (sel * 53, moved on for large inputs so the
 * product with x keeps its significant bits), scaled to their place. */
double fp_trig_preop(double x, unsigned sel)
{
  int e = (int)((fp_ud(x) >> 52) & 0x7ff);
  unsigned shift = sel * 53;
  if (e > 1077)
    shift += (unsigned)(e - 1077);
  uint64_t seg = 0;
  for (unsigned i = 1; i <= 53; i++)
    seg = seg << 1 | two_over_pi_bit(shift + i);
  int scale = -53 - (int)shift;
  if (e >= 1968)
    scale += 128;
  return ldexp((double)seg, scale);
}

/* fma rounded to odd: truncated, with the last bit set when inexact. A second rounding of
 * it to at least two fewer bits (f32, or an f64 denormal) equals one correct rounding of
 * the exact x * y + z. The volatile operands keep the two fma calls from being merged
 * across the rounding-mode change. */
double fp_fma_odd(double x, double y, double z)
{
  volatile double vx = x;
  int old = fegetround();
  fesetround(FE_TOWARDZERO);
  double t = fma(vx, y, z);
  fesetround(FE_UPWARD);
  double u = fma(vx, y, z);
  fesetround(FE_DOWNWARD);
  double d = fma(vx, y, z);
  fesetround(old);
  if (u != d && !isinf(t) && !isnan(t)) {
    uint64_t b = fp_ud(t);
    if (!(b & 1))
      t = fp_d(b | 1);
  }
  return t;
}

/* (x * y + z) * 2^-k with one rounding, for results that land among the f64 denormals
 * (v_div_fmas_f64 scaling back): the exact sum as a double-double (TwoProduct, TwoSum),
 * rounded to the denormal grid with its residual deciding the last step and ties. */
double fp_fma_scaled_down(double x, double y, double z, int k)
{
  double t = fma(x, y, z);
  if (!isfinite(t) || t == 0.0 || fabs(t) >= ldexp(DBL_MIN, k))
    return ldexp(t, -k);                      /* the scaling is exact */
  double p = x * y, ep = fma(x, y, -p);
  double s = z + p, bp = s - z, es = (z - (s - bp)) + (p - bp);
  double u = es + ep;
  double r = ldexp(s, -k);
  double d = (s - ldexp(r, k)) + u, half = ldexp(0x1p-1074, k - 1);
  if (d > half || (d == half && (fp_ud(r) & 1)))
    r = nextafter(r, INFINITY);
  else if (d < -half || (d == -half && (fp_ud(r) & 1)))
    r = nextafter(r, -INFINITY);
  return r;
}
