/* SPDX-License-Identifier: MIT */
/* Integer and floating-point arithmetic, conversions, vector types. */
#define GID (__builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * 256)

__kernel void iops(__global int *a, __global const int *b, __global uint *c, int n, uint s)
{
  int i = GID;
  if (i >= n) return;
  int x = a[i], y = b[i];
  uint u = c[i];
  a[i] = x * y + (x / (y | 1)) - (x % 7) + (x << (y & 31)) + (x >> 3) + max(x, y) - min(x, y);
  c[i] = (u >> (s & 31)) ^ (u * s) ^ popcount(u) ^ clz(u) ^ rotate(u, 5u) ^ (u / (s | 1u)) ^ mul_hi(u, s);
}

__kernel void lops(__global long *a, __global const long *b, __global ulong *c, long k)
{
  int i = GID;
  long x = a[i], y = b[i];
  a[i] = x * y + x / (y | 1) + (x << 7) + (x >> (y & 63)) + (x & k) + abs(x - y);
  c[i] = (ulong)x % (ulong)(k | 1) + popcount((ulong)y);
}

__kernel void fops(__global float *a, __global const float *b, __global int *c, float k)
{
  int i = GID;
  float x = a[i], y = b[i];
  float r = x * y + k;
  r = fma(x, y, r) / (y + 1.0f);
  r = fmax(r, 0.5f) - fmin(x, -2.0f) + fabs(y) + floor(x) + ceil(y) + trunc(r) + rint(x);
  r += __builtin_sqrtf(fabs(r)) + __builtin_amdgcn_rcpf(y) + copysign(x, y);
  a[i] = r;
  c[i] = (int)r + (int)(uint)(x * 3.0f) + (x < y) + isnan(r) + (x == y ? 5 : 7);
}

__kernel void dops(__global double *a, __global const double *b, __global float *c, double k)
{
  int i = GID;
  double x = a[i], y = b[i];
  double r = fma(x, y, k) / (y + 2.0) + fmax(x, y) + floor(x) + (double)(long)y;
  a[i] = r;
  c[i] = (float)r + (float)(x < y);
}

__kernel void vec(__global float4 *a, __global const int4 *b, __global uchar *c, __global short *d)
{
  int i = GID;
  float4 v = a[i];
  int4 w = b[i];
  v = v * convert_float4(w) + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  a[i] = v.wzyx;
  c[i] = (uchar)(w.x + w.y);
  d[i] = (short)(w.z * c[i + 1]);
}

__kernel void halfs(__global half *a, __global const half *b, __global short2 *c)
{
  int i = GID;
  float x = vload_half(i, a), y = vload_half(i, b);
  vstore_half(x * y + 1.0f, i, a);
  short2 s = c[i];
  c[i] = s + (short2)(3, -4);
}
