/* SPDX-License-Identifier: MIT */
// Packed half precision (VOP3P: v_pk_add_f16, v_pk_mul_f16, v_pk_fma_f16) on every gfx9, and
// on gfx906 and gfx90a the dot-product instructions (v_dot4_i32_i8, v_dot2_u32_u16), which gfx900
// lacks: there the same sums are written out, so one host reference serves both.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>

static __device__ __half2 h2(unsigned u) { union { unsigned u; __half2 h; } v; v.u = u; return v.h; }
typedef unsigned short ushort2_t __attribute__((ext_vector_type(2)));
static __device__ ushort2_t us2(unsigned u) { union { unsigned u; ushort2_t v; } x; x.u = u; return x.v; }
static __device__ unsigned u32(__half2 h) { union { unsigned u; __half2 h; } v; v.h = h; return v.u; }

extern "C" __global__ void packed_ops(const unsigned *a, const unsigned *b, const unsigned *c,
                                      unsigned *out, int *dots)
{
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  __half2 x = h2(a[i]), y = h2(b[i]), z = h2(c[i]);
  out[i * 3 + 0] = u32(__hadd2(x, y));
  out[i * 3 + 1] = u32(__hmul2(x, y));
  out[i * 3 + 2] = u32(__hfma2(x, y, z));
#if defined(__gfx906__) || defined(__gfx90a__)
  dots[i * 2 + 0] = __builtin_amdgcn_sdot4((int)a[i], (int)b[i], (int)c[i], false);
  dots[i * 2 + 1] = (int)__builtin_amdgcn_udot2(us2(a[i]), us2(b[i]), c[i], false);
#else
  int s = (int)c[i];
  for (int k = 0; k < 32; k += 8) s += (int)(signed char)(a[i] >> k) * (int)(signed char)(b[i] >> k);
  dots[i * 2 + 0] = s;
  dots[i * 2 + 1] = (int)(c[i] + (a[i] & 0xffff) * (b[i] & 0xffff) + (a[i] >> 16) * (b[i] >> 16));
#endif
}
