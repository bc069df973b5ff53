/* SPDX-License-Identifier: MIT */
/* exec_vf32.c — f32 VALU operations. Denormals follow MODE (v_mad/v_mac always flush, as on
 * the hardware, which is why LLVM only uses them with f32 denormals off); v_mad is a
 * multiply rounded then an add rounded, v_fma/v_fmac one rounding. */
#include "isa/valu.h"
#include <stdatomic.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#define F32 ISA_T_F32

/* A product rounded to f32 on its own: the volatile keeps the compiler from fusing it with
 * the following add (-ffp-contract). */
static inline float mul_rn(float x, float y)
{
  volatile float p = x * y;
  return p;
}

static inline float legacy_mul(float x, float y)
{
  return x == 0.0f || y == 0.0f ? 0.0f : x * y;   /* DX9: 0 * anything = 0 */
}

/* A NaN operand gives its NaN, quieted, the left operand's (as written: S1's for v_subrev)
 * when both are: what x86's SSE/AVX returns for `p op q`, but stated, since the compiler may
 * commute `x + y` and `x * y` (a -O1 sanitizer build returned S1's NaN for v_add_f32 and
 * v_mul_f32, the fast engine's forms S0's: test_isa_diff's diff_f32_nan). In lane masks, so
 * that the reference's lane loops still vectorise. */
static inline float nan_left(float f, float p, float q)
{
  uint32_t a = fp_u(p), b = fp_u(q);
  uint32_t ma = -(uint32_t)((int32_t)(a & 0x7fffffffu) > 0x7f800000);
  uint32_t mb = -(uint32_t)((int32_t)(b & 0x7fffffffu) > 0x7f800000) & ~ma;
  return fp_f((fp_u(f) & ~(ma | mb)) | ((a | 0x400000u) & ma) | ((b | 0x400000u) & mb));
}

VALU_F32(v_add_f32, 2, f = nan_left(x + y, x, y))
VALU_F32(v_sub_f32, 2, f = nan_left(x - y, x, y))
VALU_F32(v_subrev_f32, 2, f = nan_left(y - x, y, x))
VALU_F32(v_mul_f32, 2, f = nan_left(x * y, x, y))
VALU_F32(v_mul_legacy_f32, 2, f = legacy_mul(x, y))
VALU_OP32(v_min_f32, F32, F32, 2, d = fp_min32(fp_u(fp_in32(a, din)), fp_u(fp_in32(b, din)), ieee))
VALU_OP32(v_max_f32, F32, F32, 2, d = fp_max32(fp_u(fp_in32(a, din)), fp_u(fp_in32(b, din)), ieee))
VALU_OP32(v_min3_f32, F32, F32, 3,
          d = fp_min32(fp_min32(fp_ftz32(a), fp_ftz32(b), ieee), fp_ftz32(c), ieee))
VALU_OP32(v_max3_f32, F32, F32, 3,
          d = fp_max32(fp_max32(fp_ftz32(a), fp_ftz32(b), ieee), fp_ftz32(c), ieee))
VALU_OP32(v_med3_f32, F32, F32, 3, d = fp_med3_32(fp_ftz32(a), fp_ftz32(b), fp_ftz32(c), ieee))

/* v_mad_f32 family: never denormals */
/* the product is flushed too: v_mad_f32 is exactly v_mul_f32 then v_add_f32 without
 * denormals, the equivalence LLVM relies on when it fuses the two */
VALU_OP32(v_mad_f32, F32, F32, 3, {
  float p = fp_f(fp_ftz32(fp_u(mul_rn(fp_f(fp_ftz32(a)), fp_f(fp_ftz32(b))))));
  d = fp_ftz32(fp_u(p + fp_f(fp_ftz32(c))));
})
VALU_OP32(v_mad_legacy_f32, F32, F32, 3, {
  volatile float p = legacy_mul(fp_f(fp_ftz32(a)), fp_f(fp_ftz32(b)));
  d = fp_ftz32(fp_u(fp_f(fp_ftz32(fp_u(p))) + fp_f(fp_ftz32(c))));
})
VALU_F32(fma_generic, 3, f = fmaf(x, y, z))

/* The common case — every lane on, denormals kept, nearest-even, no output modifier — as
 * one fused multiply-add instruction per 8 lanes where the host has FMA: without -mfma
 * every fmaf is a library call. */
#if defined(__x86_64__) && defined(__GNUC__)
/* 8 lanes a vfmadd (FMA3 implies AVX): one instruction form for every lane and both engines,
 * so a NaN result picks the same input whichever engine runs it. d may be one of the rows it
 * reads (v_fmac): each 8-lane piece is read before it is written, and rows never overlap
 * otherwise. A plain loop with n unknown cost ~60 host instructions for 32 lanes in aliasing
 * checks and peeling (issue 21). */
__attribute__((target("fma"))) void isa_fma_rows(uint32_t *d, const uint32_t *a,
                                                const uint32_t *b, const uint32_t *c,
                                                unsigned n)
{
  unsigned l = 0;
  for (; l + 8 <= n; l += 8) {
    __m256 x = _mm256_loadu_ps((const float *)(a + l)), y = _mm256_loadu_ps((const float *)(b + l));
    __m256 z = _mm256_loadu_ps((const float *)(c + l));
    _mm256_storeu_ps((float *)(d + l), _mm256_fmadd_ps(x, y, z));
  }
  for (; l < n; l++)
    d[l] = fp_u(__builtin_fmaf(fp_f(a[l]), fp_f(b[l]), fp_f(c[l])));
}
bool isa_host_fma(void)
{
  /* every thread computes the same; relaxed atomics so concurrent first calls are no data race */
  static _Atomic int have = -1;
  int h = atomic_load_explicit(&have, memory_order_relaxed);
  if (h < 0) {
    h = __builtin_cpu_supports("fma") ? 1 : 0;
    atomic_store_explicit(&have, h, memory_order_relaxed);
  }
  return h;
}
#else
void isa_fma_rows(uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                  unsigned n)
{
  for (unsigned l = 0; l < n; l++)
    d[l] = fp_u(fmaf(fp_f(a[l]), fp_f(b[l]), fp_f(c[l])));
}
bool isa_host_fma(void)
{
#ifdef __FP_FAST_FMAF
  return true;    /* fmaf is one instruction */
#else
  return false;   /* fmaf may be a slow library call: the per-lane reference does as well */
#endif
}
#endif

static int v_fma_f32(struct isa_wave *w, const struct isa_inst *in)
{
  const uint32_t keep = FP_MODE_DENORM_F32_IN | FP_MODE_DENORM_F32_OUT;
  /* every lane on: all 64, or a wave32's 32 (the fast engine's test, fast.c full_lanes) */
  if (w->exec != (w->wave32 ? 0xffffffffull : ~0ull) || in->dpp || in->omod || in->clamp || (w->mode & keep) != keep ||
      FP_MODE_ROUND_F32(w->mode) || !isa_host_fma())
    return fma_generic(w, in);
  uint32_t b0[VALU_N], b1[VALU_N], b2[VALU_N], r[VALU_N];
  isa_fma_rows(r, valu_src(w, in, 0, ISA_T_F32, b0), valu_src(w, in, 1, ISA_T_F32, b1),
               valu_src(w, in, 2, ISA_T_F32, b2), VALU_N);
  valu_put(w, in, r, ISA_T_F32);
  return valu_next(w, in);
}

VALU_F32(v_fract_f32, 1, {
  f = x - floorf(x);
  if (f >= 1.0f) f = 0x1.fffffep-1f;         /* tiny negatives would round up to 1.0 */
  if (isinf(x)) f = NAN;
})
VALU_F32(v_trunc_f32, 1, f = truncf(x))
VALU_F32(v_ceil_f32, 1, f = ceilf(x))
VALU_F32(v_rndne_f32, 1, f = fp_rne32(x))
VALU_F32(v_floor_f32, 1, f = floorf(x))
VALU_F32(v_exp_f32, 1, f = exp2f(x))
VALU_F32(v_log_f32, 1, f = log2f(x))
VALU_F32(v_exp_legacy_f32, 1, f = exp2f(x))
VALU_F32(v_log_legacy_f32, 1, f = log2f(x))
VALU_F32(v_rcp_f32, 1, f = 1.0f / x)
VALU_F32(v_rcp_iflag_f32, 1, f = 1.0f / x)
VALU_F32(v_rsq_f32, 1, f = (float)(1.0 / sqrt((double)x)))
VALU_F32(v_sqrt_f32, 1, f = sqrtf(x))
/* the input is in revolutions: sin(2 pi x) */
VALU_F32(v_sin_f32, 1, f = isinf(x) ? NAN : (float)sin(2.0 * M_PI * ((double)x - rint((double)x))))
VALU_F32(v_cos_f32, 1, f = isinf(x) ? NAN : (float)cos(2.0 * M_PI * ((double)x - rint((double)x))))
VALU_F32(v_frexp_mant_f32, 1, {
  int e;
  f = isinf(x) || isnan(x) ? x : frexpf(x, &e);
})
VALU_OP32(v_frexp_exp_i32_f32, F32, ISA_T_B32, 1, {
  int e = 0;
  float x = fp_in32(a, din);
  if (!isinf(x) && !isnan(x)) frexpf(x, &e);
  d = (uint32_t)e;
})

static int v_ldexp_f32(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b0[VALU_N], b1[VALU_N], r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, F32, b0), *b = valu_src(w, in, 1, ISA_T_B32, b1);
  bool din = valu_d32in(w), dout = valu_d32out(w);
  VALU_EACH(valu_lanes(w, in), l)
    r[l] = fp_out32(ldexpf(fp_in32(a[l], din), (int32_t)b[l]), dout);
  valu_put(w, in, r, F32);
  return valu_next(w, in);
}

/* ---- cube map helpers ---- */
#define CUBE(fn, ...)                                                                       \
  VALU_F32(fn, 3, {                                                                          \
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z);                                       \
    int major = az >= ax && az >= ay ? 2 : ay >= ax ? 1 : 0;                                 \
    __VA_ARGS__;                                                                                    \
  })
CUBE(v_cubeid_f32, f = major == 2 ? (z < 0 ? 5.0f : 4.0f) : major == 1 ? (y < 0 ? 3.0f : 2.0f)
                                                                      : (x < 0 ? 1.0f : 0.0f))
CUBE(v_cubema_f32, f = 2.0f * (major == 2 ? z : major == 1 ? y : x))
CUBE(v_cubesc_f32, f = major == 2 ? (z < 0 ? -x : x) : major == 1 ? x : (x < 0 ? z : -z))
CUBE(v_cubetc_f32, f = major == 2 ? -y : major == 1 ? (y < 0 ? -z : z) : -y)

/* ---- division helpers ---- */
static int v_div_scale_f32(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b0[VALU_N], b1[VALU_N], b2[VALU_N], r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, F32, b0), *b = valu_src(w, in, 1, F32, b1);
  const uint32_t *c = valu_src(w, in, 2, F32, b2);
  uint64_t vcc = 0;
  VALU_EACH(valu_lanes(w, in), l) {
    bool v;
    r[l] = fp_div_scale32(a[l], b[l], c[l], &v);
    vcc |= (uint64_t)v << l;
  }
  valu_put(w, in, r, F32);
  valu_put_mask(w, in, vcc);
  return valu_next(w, in);
}

/* fma, scaled back by 2^+-64 in lanes whose VCC is set (by the second v_div_scale); the
 * direction follows the quotient's size (S2). Rounded to odd in double, scaled exactly,
 * then rounded once to f32: one correct rounding, also into the denormal range. */
static int v_div_fmas_f32(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b0[VALU_N], b1[VALU_N], b2[VALU_N], r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, F32, b0), *b = valu_src(w, in, 1, F32, b1);
  const uint32_t *c = valu_src(w, in, 2, F32, b2);
  bool din = valu_d32in(w), dout = valu_d32out(w);
  uint64_t vcc = w->vcc;
  VALU_EACH(valu_lanes(w, in), l) {
    float x = fp_in32(a[l], din), y = fp_in32(b[l], din), z = fp_in32(c[l], din);
    double t = fp_fma_odd((double)x, (double)y, (double)z);
    if (vcc >> l & 1)
      t = ldexp(t, ((c[l] >> 23) & 0xff) >= 128 ? 64 : -64);
    r[l] = fp_out32((float)t, dout);
  }
  valu_put(w, in, r, F32);
  return valu_next(w, in);
}

VALU_OP32(v_div_fixup_f32, F32, F32, 3, {
  d = fp_div_fixup32(a, b, c);
  if (!dout) d = fp_ftz32(d);
})

#define E(op, gfx, flags, fn) { op, gfx, flags, #fn, fn }
#define V2 VALU_OP_VOP2 +
#define V1 VALU_OP_VOP1 +
const struct valu_desc valu_f32_ops[] = {
  E(V2 0x01, VALU_GFX9, 0, v_add_f32), E(V2 0x02, VALU_GFX9, 0, v_sub_f32),
  E(V2 0x03, VALU_GFX9, 0, v_subrev_f32),
  E(V2 0x04, VALU_GFX900 | VALU_GFX906, 0, v_mul_legacy_f32),
  E(0x2a1, VALU_GFX90A, 0, v_mul_legacy_f32),   /* gfx90a: VOP3 only (VOP2 0x04 is v_fmac_f64) */
  E(V2 0x05, VALU_GFX9, 0, v_mul_f32), E(V2 0x0a, VALU_GFX9, 0, v_min_f32),
  E(V2 0x0b, VALU_GFX9, 0, v_max_f32),
  { V2 0x16, VALU_GFX9, VALU_F_MAC, "v_mac_f32", v_mad_f32 },
  { V2 0x17, VALU_GFX9, VALU_F_MADMK, "v_madmk_f32", v_mad_f32 },
  { V2 0x18, VALU_GFX9, VALU_F_MADAK, "v_madak_f32", v_mad_f32 },
  { V2 0x3b, VALU_GFX906UP, VALU_F_MAC, "v_fmac_f32", v_fma_f32 },
  /* gfx942 has no unfused f32 multiply-add: its madmk/madak are fused, mac/mad are gone
   * (a NULL function: not on that chip) */
  { V2 0x17, VALU_GFX942, VALU_F_MADMK, "v_fmamk_f32", v_fma_f32 },
  { V2 0x18, VALU_GFX942, VALU_F_MADAK, "v_fmaak_f32", v_fma_f32 },
  { V2 0x16, VALU_GFX942, VALU_F_MAC, "v_mac_f32", NULL },
  { 0x1c0, VALU_GFX942, 0, "v_mad_legacy_f32", NULL },
  { 0x1c1, VALU_GFX942, 0, "v_mad_f32", NULL },
  E(V1 0x1b, VALU_GFX9, 0, v_fract_f32), E(V1 0x1c, VALU_GFX9, 0, v_trunc_f32),
  E(V1 0x1d, VALU_GFX9, 0, v_ceil_f32), E(V1 0x1e, VALU_GFX9, 0, v_rndne_f32),
  E(V1 0x1f, VALU_GFX9, 0, v_floor_f32), E(V1 0x20, VALU_GFX9, 0, v_exp_f32),
  E(V1 0x21, VALU_GFX9, 0, v_log_f32), E(V1 0x22, VALU_GFX9, 0, v_rcp_f32),
  E(V1 0x23, VALU_GFX9, 0, v_rcp_iflag_f32), E(V1 0x24, VALU_GFX9, 0, v_rsq_f32),
  E(V1 0x27, VALU_GFX9, 0, v_sqrt_f32), E(V1 0x29, VALU_GFX9, 0, v_sin_f32),
  E(V1 0x2a, VALU_GFX9, 0, v_cos_f32), E(V1 0x33, VALU_GFX9, 0, v_frexp_exp_i32_f32),
  E(V1 0x34, VALU_GFX9, 0, v_frexp_mant_f32), E(V1 0x4b, VALU_GFX9, 0, v_exp_legacy_f32),
  E(V1 0x4c, VALU_GFX9, 0, v_log_legacy_f32),
  E(0x1c0, VALU_GFX9, 0, v_mad_legacy_f32), E(0x1c1, VALU_GFX9, 0, v_mad_f32),
  E(0x1c4, VALU_GFX9, 0, v_cubeid_f32), E(0x1c5, VALU_GFX9, 0, v_cubesc_f32),
  E(0x1c6, VALU_GFX9, 0, v_cubetc_f32), E(0x1c7, VALU_GFX9, 0, v_cubema_f32),
  E(0x1cb, VALU_GFX9, 0, v_fma_f32), E(0x1d0, VALU_GFX9, 0, v_min3_f32),
  E(0x1d3, VALU_GFX9, 0, v_max3_f32), E(0x1d6, VALU_GFX9, 0, v_med3_f32),
  E(0x1de, VALU_GFX9, 0, v_div_fixup_f32), E(0x1e0, VALU_GFX9, VALU_F_VOP3B, v_div_scale_f32),
  E(0x1e2, VALU_GFX9, 0, v_div_fmas_f32), E(0x288, VALU_GFX9, 0, v_ldexp_f32),
};
VALU_COUNT(f32);
