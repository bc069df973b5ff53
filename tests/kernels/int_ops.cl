/* SPDX-License-Identifier: MIT */
/* Integer arithmetic: 32- and 64-bit add/sub/mul, mul_hi, div/rem (signed and unsigned),
 * shifts, bit counts, rotate, saturating and halving adds. One output row per work-item. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

__kernel void int32_ops(__global const uint *a, __global const uint *b, __global uint *out, uint n)
{
  size_t i = get_global_id(0);
  if (i >= n) return;
  uint x = a[i], y = b[i];
  int sx = (int)x, sy = (int)y;
  __global uint *o = out + i * 16;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = mul_hi(x, y);
  o[4] = (uint)mul_hi(sx, sy);
  o[5] = x / y;
  o[6] = x % y;
  o[7] = (uint)(sx / sy);
  o[8] = (uint)(sx % sy);
  o[9] = x << (y & 31);
  o[10] = x >> (y & 31);
  o[11] = (uint)(sx >> (y & 31));
  o[12] = popcount(x);
  o[13] = clz(x);
  o[14] = rotate(x, y);
  o[15] = (uint)add_sat(sx, sy) ^ (uint)abs_diff(sx, sy) ^ (hadd(x, y) << 1);
}

__kernel void int64_ops(__global const ulong *a, __global const ulong *b, __global ulong *out, uint n)
{
  size_t i = get_global_id(0);
  if (i >= n) return;
  ulong x = a[i], y = b[i];
  long sx = (long)x, sy = (long)y;
  __global ulong *o = out + i * 14;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = mul_hi(x, y);
  o[4] = (ulong)mul_hi(sx, sy);
  o[5] = x / y;
  o[6] = x % y;
  o[7] = (ulong)(sx / sy);
  o[8] = (ulong)(sx % sy);
  o[9] = x << (y & 63);
  o[10] = x >> (y & 63);
  o[11] = (ulong)(sx >> (y & 63));
  o[12] = popcount(x) | (clz(x) << 8);
  o[13] = (ulong)(uint)(x >> 32) * (uint)y + (ulong)((int)x < (int)y);
}
