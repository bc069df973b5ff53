/* SPDX-License-Identifier: MIT */
/* fp.h — float helpers of the VALU: bit casts, denormal flushing, NaN rules of the hardware
 * min/max, f16 conversions, clamp/omod. Host float arithmetic is IEEE binary32/64 with
 * round-to-nearest-even, which is what the VALU does in its default mode; the helpers
 * here add what the host does not do the same way (flushing, NaN choice, f16). */
#ifndef SIM_ISA_FP_H
#define SIM_ISA_FP_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* MODE register fields (s_getreg/s_setreg HW_REG_MODE; AMDGPU SIDefines). */
#define FP_MODE_ROUND_F32(m)   ((m) & 3u)
#define FP_MODE_DENORM_F32_IN  (1u << 4)   /* FP_DENORM bit 0 for f32: keep input denormals */
#define FP_MODE_DENORM_F32_OUT (1u << 5)   /* bit 1: keep output denormals */
#define FP_MODE_DENORM_F64_IN  (1u << 6)   /* f64 and f16 share the second field */
#define FP_MODE_DENORM_F64_OUT (1u << 7)
#define FP_MODE_DX10_CLAMP     (1u << 8)
#define FP_MODE_IEEE           (1u << 9)

static inline float fp_f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t fp_u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double fp_d(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
static inline uint64_t fp_ud(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }

/* Round to the nearest integer, ties to even, whatever the host rounding mode. */
static inline float fp_rne32(float x)
{
  if (!(fabsf(x) < 0x1p23f)) return x;       /* integral already, inf or NaN */
  return copysignf(x - remainderf(x, 1.0f), x);
}
static inline double fp_rne64(double x)
{
  if (!(fabs(x) < 0x1p52)) return x;
  return copysign(x - remainder(x, 1.0), x);
}

/* ---- f32 ---- */
static inline bool fp_isnan32(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
static inline bool fp_issnan32(uint32_t u) { return fp_isnan32(u) && !(u & 0x00400000u); }
static inline bool fp_isdenorm32(uint32_t u) { return !(u & 0x7f800000u) && (u & 0x007fffffu); }
/* Flush a denormal to a zero of the same sign. */
static inline uint32_t fp_ftz32(uint32_t u) { return fp_isdenorm32(u) ? u & 0x80000000u : u; }
static inline float fp_in32(uint32_t u, bool keep) { return fp_f(keep ? u : fp_ftz32(u)); }
static inline uint32_t fp_out32(float f, bool keep) { return keep ? fp_u(f) : fp_ftz32(fp_u(f)); }

/* ---- f64 ---- */
static inline bool fp_isnan64(uint64_t u) { return (u & ~(1ull << 63)) > 0x7ff0000000000000ull; }
static inline bool fp_issnan64(uint64_t u) { return fp_isnan64(u) && !(u & (1ull << 51)); }
static inline bool fp_isdenorm64(uint64_t u)
{
  return !(u & 0x7ff0000000000000ull) && (u & 0x000fffffffffffffull);
}
static inline uint64_t fp_ftz64(uint64_t u) { return fp_isdenorm64(u) ? u & (1ull << 63) : u; }
static inline double fp_in64(uint64_t u, bool keep) { return fp_d(keep ? u : fp_ftz64(u)); }
static inline uint64_t fp_out64(double f, bool keep) { return keep ? fp_ud(f) : fp_ftz64(fp_ud(f)); }

/* ---- f16 (binary16 bits in the low half) ---- */
static inline bool fp_isnan16(uint32_t u) { return (u & 0x7fffu) > 0x7c00u; }
static inline bool fp_issnan16(uint32_t u) { return fp_isnan16(u) && !(u & 0x200u); }
static inline bool fp_isdenorm16(uint32_t u) { return !(u & 0x7c00u) && (u & 0x3ffu); }
static inline uint32_t fp_ftz16(uint32_t u) { return fp_isdenorm16(u) ? u & 0x8000u : u & 0xffffu; }
float fp_f16_to_f32(uint32_t h);                  /* exact */
uint32_t fp_f32_to_f16(float f);                  /* round to nearest even */
uint32_t fp_f32_to_f16_rtz(float f);              /* round toward zero (v_cvt_pkrtz) */

/* ---- hardware min/max: -0 < +0; with IEEE mode a signalling NaN gives a quiet NaN,
 * otherwise a NaN loses against a number. */
uint32_t fp_min32(uint32_t a, uint32_t b, bool ieee);
uint32_t fp_max32(uint32_t a, uint32_t b, bool ieee);
uint64_t fp_min64(uint64_t a, uint64_t b, bool ieee);
uint64_t fp_max64(uint64_t a, uint64_t b, bool ieee);
uint32_t fp_min16(uint32_t a, uint32_t b, bool ieee);
uint32_t fp_max16(uint32_t a, uint32_t b, bool ieee);
uint32_t fp_med3_32(uint32_t a, uint32_t b, uint32_t c, bool ieee);
uint32_t fp_med3_16(uint32_t a, uint32_t b, uint32_t c, bool ieee);

/* Output modifiers: omod (1: *2, 2: *4, 3: /2) then clamp to [0, 1] (NaN -> 0 with DX10). */
uint32_t fp_omod_clamp32(uint32_t r, unsigned omod, bool clamp, bool dx10);
uint64_t fp_omod_clamp64(uint64_t r, unsigned omod, bool clamp, bool dx10);
uint32_t fp_omod_clamp16(uint32_t r, unsigned omod, bool clamp, bool dx10);

/* v_cmp_class mask bits: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denorm, 5 -0, 6 +0,
 * 7 +denorm, 8 +normal, 9 +inf. */
unsigned fp_class32(uint32_t u);
unsigned fp_class64(uint64_t u);
unsigned fp_class16(uint32_t u);

/* Float to integer with the hardware's rules: NaN -> 0, saturate out-of-range. */
int32_t fp_to_i32(double d);
uint32_t fp_to_u32(double d);

/* Division helpers (v_div_scale / v_div_fmas / v_div_fixup), f32 and f64. */
uint32_t fp_div_scale32(uint32_t s0, uint32_t s1, uint32_t s2, bool *vcc);
uint64_t fp_div_scale64(uint64_t s0, uint64_t s1, uint64_t s2, bool *vcc);
uint32_t fp_div_fixup32(uint32_t q, uint32_t den, uint32_t num);
uint64_t fp_div_fixup64(uint64_t q, uint64_t den, uint64_t num);
uint32_t fp_div_fixup16(uint32_t q, uint32_t den, uint32_t num);

/* x * y + z rounded to odd (for an exact second rounding to a narrower format). */
double fp_fma_odd(double x, double y, double z);
/* (x * y + z) * 2^-k rounded once (into the f64 denormals too). */
double fp_fma_scaled_down(double x, double y, double z, int k);

/* v_trig_preop_f64: 53 bits of 2/pi starting at bit `shift` (plus the exponent adjust). */
double fp_trig_preop(double x, unsigned sel);

#endif
