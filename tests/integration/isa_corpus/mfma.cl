/* SPDX-License-Identifier: MIT */
// The matrix core for the decoder corpus (isa_objdump.sh): gfx90a's and gfx942's MFMA forms
// as clang emits them, with AGPR and VGPR accumulators, CBSZ/ABID/BLGP, and an inline
// constant C. Only mf_none for chips without MFMA (the comparison wants instructions).
kernel void mf_none(global int *p) { p[0] = 1; }

#if defined(__gfx90a__) || defined(__gfx942__)
typedef float f32x4 __attribute__((ext_vector_type(4)));
typedef float f32x16 __attribute__((ext_vector_type(16)));
typedef float f32x32 __attribute__((ext_vector_type(32)));
typedef int i32x4 __attribute__((ext_vector_type(4)));
typedef int i32x16 __attribute__((ext_vector_type(16)));
typedef int i32x32 __attribute__((ext_vector_type(32)));
typedef half f16x4 __attribute__((ext_vector_type(4)));
typedef short s16x2 __attribute__((ext_vector_type(2)));
typedef short s16x4 __attribute__((ext_vector_type(4)));
typedef double f64x4 __attribute__((ext_vector_type(4)));
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void mf_f32(global float *p, global f32x32 *o32, global f32x16 *o16, global f32x4 *o4)
{
  float a = p[0], b = p[1];
  o32[0] = __builtin_amdgcn_mfma_f32_32x32x1f32(a, b, o32[1], 1, 1, 2);
  o16[0] = __builtin_amdgcn_mfma_f32_16x16x1f32(a, b, o16[1], 2, 3, 0);
  o4[0] = __builtin_amdgcn_mfma_f32_4x4x1f32(a, b, o4[1], 4, 15, 7);
  o16[2] = __builtin_amdgcn_mfma_f32_32x32x2f32(a, b, o16[3], 0, 0, 3);
  o4[2] = __builtin_amdgcn_mfma_f32_16x16x4f32(a, b, (f32x4)(0.0f), 0, 0, 0);
}

kernel void mf_f16(global f16x4 *p, global f32x32 *o32, global f32x16 *o16, global f32x4 *o4)
{
  f16x4 a = p[0], b = p[1];
  o32[0] = __builtin_amdgcn_mfma_f32_32x32x4f16(a, b, o32[1], 1, 0, 0);
  o16[0] = __builtin_amdgcn_mfma_f32_16x16x4f16(a, b, o16[1], 0, 0, 0);
  o4[0] = __builtin_amdgcn_mfma_f32_4x4x4f16(a, b, o4[1], 0, 0, 0);
  o16[2] = __builtin_amdgcn_mfma_f32_32x32x8f16(a, b, o16[3], 0, 0, 0);
  o4[2] = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, o4[3], 0, 0, 1);
}

kernel void mf_i8(global int *p, global i32x32 *o32, global i32x16 *o16, global i32x4 *o4)
{
  int a = p[0], b = p[1];
  o32[0] = __builtin_amdgcn_mfma_i32_32x32x4i8(a, b, o32[1], 0, 0, 0);
  o16[0] = __builtin_amdgcn_mfma_i32_16x16x4i8(a, b, o16[1], 0, 0, 0);
  o4[0] = __builtin_amdgcn_mfma_i32_4x4x4i8(a, b, o4[1], 0, 0, 0);
#ifdef __gfx942__
  long la = ((global long *)p)[1], lb = ((global long *)p)[2];
  o16[2] = __builtin_amdgcn_mfma_i32_32x32x16_i8(la, lb, o16[3], 0, 0, 0);
  o4[2] = __builtin_amdgcn_mfma_i32_16x16x32_i8(la, lb, o4[3], 0, 0, 0);
#else
  o16[2] = __builtin_amdgcn_mfma_i32_32x32x8i8(a, b, o16[3], 0, 0, 0);
  o4[2] = __builtin_amdgcn_mfma_i32_16x16x16i8(a, b, o4[3], 0, 0, 0);
#endif
}

kernel void mf_bf16(global s16x4 *p, global f32x32 *o32, global f32x16 *o16, global f32x4 *o4)
{
  s16x4 a = p[0], b = p[1];
  o32[0] = __builtin_amdgcn_mfma_f32_32x32x4bf16_1k(a, b, o32[1], 0, 0, 0);
  o16[0] = __builtin_amdgcn_mfma_f32_16x16x4bf16_1k(a, b, o16[1], 0, 0, 0);
  o4[0] = __builtin_amdgcn_mfma_f32_4x4x4bf16_1k(a, b, o4[1], 0, 0, 0);
  o16[2] = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, o16[3], 0, 0, 0);
  o4[2] = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a, b, o4[3], 0, 0, 0);
#ifndef __gfx942__
  s16x2 c = ((global s16x2 *)p)[4], d = ((global s16x2 *)p)[5];
  o32[2] = __builtin_amdgcn_mfma_f32_32x32x2bf16(c, d, o32[3], 0, 0, 0);
  o16[4] = __builtin_amdgcn_mfma_f32_16x16x2bf16(c, d, o16[5], 0, 0, 0);
  o4[4] = __builtin_amdgcn_mfma_f32_4x4x2bf16(c, d, o4[5], 0, 0, 0);
  o16[6] = __builtin_amdgcn_mfma_f32_32x32x4bf16(c, d, o16[7], 0, 0, 0);
  o4[6] = __builtin_amdgcn_mfma_f32_16x16x8bf16(c, d, o4[7], 0, 0, 0);
#endif
}

kernel void mf_f64(global double *p, global f64x4 *o4, global double *o1)
{
  double a = p[0], b = p[1];
  o4[0] = __builtin_amdgcn_mfma_f64_16x16x4f64(a, b, o4[1], 0, 0, 0);
  o1[0] = __builtin_amdgcn_mfma_f64_4x4x4f64(a, b, o1[1], 0, 0, 0);
  o1[2] = __builtin_amdgcn_mfma_f64_4x4x4f64(a, b, 0.0, 0, 0, 0);
}

#ifdef __gfx942__
typedef float f32x2 __attribute__((ext_vector_type(2)));
kernel void mf_942(global long *p, global f32x16 *o16, global f32x4 *o4)
{
  long a = p[0], b = p[1];
  f32x2 x = ((global f32x2 *)p)[2], y = ((global f32x2 *)p)[3];
  o4[0] = __builtin_amdgcn_mfma_f32_16x16x8_xf32(x, y, o4[1], 0, 0, 0);
  o16[0] = __builtin_amdgcn_mfma_f32_32x32x4_xf32(x, y, o16[1], 0, 0, 0);
  o4[2] = __builtin_amdgcn_mfma_f32_16x16x32_bf8_bf8(a, b, o4[3], 0, 0, 0);
  o4[4] = __builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8(a, b, o4[5], 0, 0, 0);
  o4[6] = __builtin_amdgcn_mfma_f32_16x16x32_fp8_bf8(a, b, o4[7], 0, 0, 0);
  o4[8] = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a, b, o4[9], 1, 1, 2);
  o16[2] = __builtin_amdgcn_mfma_f32_32x32x16_bf8_bf8(a, b, o16[3], 0, 0, 0);
  o16[4] = __builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8(a, b, o16[5], 0, 0, 0);
  o16[6] = __builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8(a, b, o16[7], 0, 0, 0);
  o16[8] = __builtin_amdgcn_mfma_f32_32x32x16_fp8_fp8(a, b, o16[9], 0, 0, 0);
}

/* sparse MFMA: compressed A, dense B, the index VGPR, CBSZ/ABID picking the index set */
typedef half f16x8 __attribute__((ext_vector_type(8)));
typedef short s16x8 __attribute__((ext_vector_type(8)));
typedef int i32x2 __attribute__((ext_vector_type(2)));
kernel void smf_942(global f16x8 *h, global s16x8 *s, global i32x4 *q, global int *ix,
                    global f32x16 *o16, global f32x4 *o4, global i32x16 *i16, global i32x4 *i4)
{
  f16x4 ha = h[0].lo;
  s16x4 sa = s[0].lo;
  i32x2 qa = q[0].lo;
  int x = ix[0];
  o4[0] = __builtin_amdgcn_smfmac_f32_16x16x32_f16(ha, h[1], o4[1], x, 0, 2);
  o16[0] = __builtin_amdgcn_smfmac_f32_32x32x16_f16(ha, h[1], o16[1], x, 1, 0);
  o4[2] = __builtin_amdgcn_smfmac_f32_16x16x32_bf16(sa, s[1], o4[3], x, 0, 0);
  o16[2] = __builtin_amdgcn_smfmac_f32_32x32x16_bf16(sa, s[1], o16[3], x, 0, 3);
  i4[0] = __builtin_amdgcn_smfmac_i32_16x16x64_i8(qa, q[1], i4[1], x, 0, 1);
  i16[0] = __builtin_amdgcn_smfmac_i32_32x32x32_i8(qa, q[1], i16[1], x, 0, 0);
  o4[4] = __builtin_amdgcn_smfmac_f32_16x16x64_bf8_bf8(qa, q[1], o4[5], x, 0, 0);
  o4[6] = __builtin_amdgcn_smfmac_f32_16x16x64_bf8_fp8(qa, q[1], o4[7], x, 0, 0);
  o4[8] = __builtin_amdgcn_smfmac_f32_16x16x64_fp8_bf8(qa, q[1], o4[9], x, 0, 0);
  o4[10] = __builtin_amdgcn_smfmac_f32_16x16x64_fp8_fp8(qa, q[1], o4[11], x, 0, 1);
  o16[4] = __builtin_amdgcn_smfmac_f32_32x32x32_bf8_bf8(qa, q[1], o16[5], x, 0, 0);
  o16[6] = __builtin_amdgcn_smfmac_f32_32x32x32_bf8_fp8(qa, q[1], o16[7], x, 0, 0);
  o16[8] = __builtin_amdgcn_smfmac_f32_32x32x32_fp8_bf8(qa, q[1], o16[9], x, 0, 0);
  o16[10] = __builtin_amdgcn_smfmac_f32_32x32x32_fp8_fp8(qa, q[1], o16[11], x, 0, 0);
}

/* the fp8/bf8 conversions */
kernel void cvt_942(global int *p, global float *f, global f32x2 *f2)
{
  int v = p[0];
  f[0] = __builtin_amdgcn_cvt_f32_fp8(v, 0);
  f[1] = __builtin_amdgcn_cvt_f32_fp8(v, 2);
  f[2] = __builtin_amdgcn_cvt_f32_bf8(v, 3);
  f2[2] = __builtin_amdgcn_cvt_pk_f32_fp8(v, true);
  f2[3] = __builtin_amdgcn_cvt_pk_f32_bf8(v, false);
  p[1] = __builtin_amdgcn_cvt_pk_fp8_f32(f[4], f[5], v, true);
  p[2] = __builtin_amdgcn_cvt_pk_bf8_f32(f[4], f[5], v, false);
  p[3] = __builtin_amdgcn_cvt_sr_fp8_f32(f[4], v, p[9], 2);
  p[4] = __builtin_amdgcn_cvt_sr_bf8_f32(f[4], v, p[9], 1);
}
#endif
#endif
