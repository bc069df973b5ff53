/* SPDX-License-Identifier: MIT */
/* Floating point. f32: operations IEEE makes exact (add, sub, mul, fma, min, floor,
 * conversions), divide and sqrt (OpenCL 1.2 allows 2.5 and 3 ulp), and the transcendental
 * functions of the device libraries (exp, log, sin, cos: 3-4 ulp). f64: add, mul, div,
 * sqrt and fma, all correctly rounded. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void f32_ops(__global const float *a, __global const float *b, __global const float *c,
                      __global float *exact, __global float *divsqrt, __global float *transc, uint n)
{
  size_t i = get_global_id(0);
  if (i >= n) return;
  float x = a[i], y = b[i], z = c[i];
  __global float *e = exact + i * 8;
  e[0] = x + y;
  e[1] = x - z;
  e[2] = x * y;
  e[3] = fma(x, y, z);
  e[4] = fmin(x, z);
  e[5] = floor(x * 4.0f);
  e[6] = (float)(int)(y * 1000.0f);
  e[7] = (float)((uint)(i * 2654435761u) >> 1);   /* int -> float rounding */
  divsqrt[i * 2 + 0] = x / y;
  divsqrt[i * 2 + 1] = sqrt(fabs(x));
  __global float *t = transc + i * 4;
  t[0] = exp(x);
  t[1] = log(fabs(y));
  t[2] = sin(x);
  t[3] = cos(z);
}

__kernel void f64_ops(__global const double *a, __global const double *b, __global const double *c,
                      __global double *out, uint n)
{
  size_t i = get_global_id(0);
  if (i >= n) return;
  double x = a[i], y = b[i], z = c[i];
  __global double *o = out + i * 6;
  o[0] = x + y;
  o[1] = x * y;
  o[2] = x / y;
  o[3] = sqrt(fabs(x));
  o[4] = fma(x, y, z);
  o[5] = (double)(long)(x * 1e6) - z;
}
