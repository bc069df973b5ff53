/* SPDX-License-Identifier: MIT */
/* AMDGPU builtins that reach less common encodings: bit-field and alignment ops, min3/med3,
 * the f32/f64 division and transcendental helpers, DPP and swizzle moves, lane reads,
 * scalar clock and hardware-register reads, and (gfx906+) dot products. */
#define LID __builtin_amdgcn_workitem_id_x()
#define GID (LID + __builtin_amdgcn_workgroup_id_x() * 256)

__kernel void bits(__global uint *a, __global int *b, uint k)
{
  uint i = GID, x = a[i];
  int y = b[i];
  a[i] = __builtin_amdgcn_ubfe(x, k & 31, 5) + __builtin_amdgcn_alignbit(x, k, 7) +
         __builtin_amdgcn_alignbyte(x, k, 2) + __builtin_amdgcn_sad_u8(x, k, 3) +
         __builtin_amdgcn_msad_u8(x, k, 1) + __builtin_amdgcn_lerp(x, k, 5) +
         __builtin_amdgcn_sad_hi_u8(x, k, 9) + __builtin_amdgcn_sad_u16(x, k, 11);
  b[i] = __builtin_amdgcn_sbfe(y, (int)(k & 15), 9) + (int)__builtin_amdgcn_mbcnt_lo(x, 0u) +
         __builtin_amdgcn_fmed3f((float)y, 1.0f, 2.0f) + __builtin_amdgcn_frexp_expf((float)y);
}

__kernel void fmath(__global float *a, __global double *d, __global int *c)
{
  uint i = GID;
  float x = a[i];
  double y = d[i];
  float r = __builtin_amdgcn_rsqf(x) + __builtin_amdgcn_sinf(x) + __builtin_amdgcn_cosf(x) +
            __builtin_amdgcn_fractf(x) + __builtin_amdgcn_ldexpf(x, 3) + __builtin_log2f(x) +
            __builtin_exp2f(x) + __builtin_amdgcn_frexp_mantf(x) + __builtin_amdgcn_cubeid(x, x, 1.0f) +
            __builtin_amdgcn_cubema(x, 2.0f, x) + __builtin_amdgcn_cubesc(x, x, x) + __builtin_amdgcn_cubetc(1.0f, x, x);
  bool flag;
  float s = __builtin_amdgcn_div_scalef(x, r, true, &flag);
  r += __builtin_amdgcn_div_fixupf(__builtin_amdgcn_div_fmasf(s, x, r, flag), x, r);
  double q = __builtin_amdgcn_rcp(y) + __builtin_amdgcn_rsq(y) + __builtin_amdgcn_trig_preop(y, 2) +
             __builtin_amdgcn_ldexp(y, 5) + __builtin_amdgcn_frexp_mant(y) + __builtin_amdgcn_fract(y);
  c[i] = __builtin_amdgcn_class(y, 0x3) + __builtin_amdgcn_classf(x, 0x60);
  a[i] = r;
  d[i] = q;
}

__kernel void lanes2(__global int *o, __global ulong *t)
{
  uint i = GID;
  int v = o[i];
  int a = __builtin_amdgcn_mov_dpp(v, 0x111, 0xf, 0xf, false);        /* row_shr:1 */
  int b = __builtin_amdgcn_update_dpp(v, a, 0x1b, 0xf, 0xf, true);     /* quad_perm */
#if defined(__GFX11__) || defined(__GFX12__)
  int c = __builtin_amdgcn_update_dpp(0, v, 0x161, 0xa, 0x5, false);   /* row_xmask:1 (gfx10+) */
#else
  int c = __builtin_amdgcn_update_dpp(0, v, 0x142, 0xa, 0x5, false);   /* row_bcast:15 */
#endif
  int d = __builtin_amdgcn_readlane(v, 17) + __builtin_amdgcn_ds_swizzle(v, 0x801f);
  o[i] = a + b + c + d + __builtin_amdgcn_ds_bpermute(v << 2, b) + __builtin_amdgcn_ds_permute(v << 2, c);
  if (LID == 0) {
#if !defined(__GFX11__) && !defined(__GFX12__)   /* gfx11+ read the clocks by s_getreg/s_sendmsg_rtn */
    t[0] = __builtin_amdgcn_s_memtime();
    t[1] = __builtin_amdgcn_s_memrealtime();
#endif
    t[2] = __builtin_amdgcn_s_getreg(0x1801);   /* hwreg(HW_REG_MODE, 0, 4) */
    __builtin_amdgcn_s_sleep(2);
  }
}

__kernel void dots(__global int *o, __global const uint *p, __global float *f)
{
  uint i = GID;
#if defined(__gfx906__) || defined(__gfx90a__)
  o[i] = __builtin_amdgcn_sdot4((int)p[i], (int)p[i + 1], o[i], false) +
         (int)__builtin_amdgcn_udot8(p[i], p[i + 2], 5u, true) +
         __builtin_amdgcn_sdot2(__builtin_astype(p[i], short2), __builtin_astype(p[i + 1], short2), 3, false);
  f[i] = __builtin_amdgcn_fdot2(__builtin_astype(p[i], half2), __builtin_astype(p[i + 3], half2), f[i], false);
#else
  o[i] = (int)p[i] * 3;
  f[i] = (float)p[i];
#endif
}
