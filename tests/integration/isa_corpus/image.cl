/* SPDX-License-Identifier: MIT */
/* Image builtins over every geometry (read, write, queries), with samplers of each filter,
 * addressing mode and coordinate mode: the MIMG forms clang emits (image_load, image_store,
 * image_sample/_lz/_l/_d, da, d16, unorm, dmask) and buffer_*_format for image1d_buffer_t.
 * Built with the device libraries (the builtins live in ockl). gfx90a has no d16 images
 * and no sampling with an explicit lod or gradients in LLVM 15: those kernels are left out. */
__constant sampler_t s_pn = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__constant sampler_t s_ln = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
__constant sampler_t s_mb = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST;
__constant sampler_t s_cb = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
__constant sampler_t s_nn = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;

__kernel void r1d(read_only image1d_t a, sampler_t s, __global float4 *o, __global float *c) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, s, c[i]) + read_imagef(a, s_pn, i) + read_imagef(a, i) +
         convert_float4(read_imagei(a, s_ln, c[i])) + convert_float4(read_imageui(a, i));
  o[i].x += get_image_width(a) + get_image_channel_data_type(a) + get_image_channel_order(a);
}
__kernel void r2d(read_only image2d_t a, sampler_t s, __global float4 *o, __global float2 *c) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, s, c[i]) + read_imagef(a, s_mb, (int2)(i, 2)) + read_imagef(a, (int2)(i, 1)) +
         convert_float4(read_imagei(a, s_cb, c[i])) + convert_float4(read_imageui(a, (int2)(1, i))) +
         read_imagef(a, s_nn, c[i]);
  o[i].x += get_image_width(a) + get_image_height(a);
  int2 d = get_image_dim(a);
  o[i].y += d.x * d.y;
}
__kernel void r3d(read_only image3d_t a, sampler_t s, __global float4 *o, __global float4 *c) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, s, c[i]) + read_imagef(a, (int4)(i, 1, 2, 0)) +
         convert_float4(read_imagei(a, s_pn, (int4)(i, 3, 1, 0)));
  o[i].x += get_image_width(a) + get_image_height(a) + get_image_depth(a);
}
__kernel void r1da(read_only image1d_array_t a, sampler_t s, __global float4 *o, __global float2 *c) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, s, c[i]) + read_imagef(a, (int2)(i, 1)) +
         convert_float4(read_imageui(a, s_pn, (int2)(i, 1)));
  o[i].x += get_image_array_size(a) + get_image_width(a);
}
__kernel void r2da(read_only image2d_array_t a, sampler_t s, __global float4 *o, __global float4 *c) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, s, c[i]) + read_imagef(a, (int4)(i, 1, 2, 0)) +
         convert_float4(read_imagei(a, s_ln, c[i]));
  o[i].x += get_image_array_size(a) + get_image_width(a) + get_image_height(a);
}
__kernel void r1db(read_only image1d_buffer_t a, __global float4 *o) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, i) + convert_float4(read_imagei(a, i + 1)) + convert_float4(read_imageui(a, i + 2));
  o[i].x += get_image_width(a);
}
__kernel void rdepth(read_only image2d_depth_t a, sampler_t s, __global float *o, __global float2 *c) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, s, c[i]) + read_imagef(a, (int2)(i, 0));
}
__kernel void w1d(write_only image1d_t a, __global float4 *v) {
  int i = get_global_id(0);
  write_imagef(a, i, v[i]);
  write_imagei(a, i + 1, convert_int4(v[i]));
}
__kernel void w2d(write_only image2d_t a, __global float4 *v) {
  int i = get_global_id(0);
  write_imagef(a, (int2)(i, 1), v[i]);
  write_imageui(a, (int2)(1, i), convert_uint4(v[i]));
}
__kernel void w3d(write_only image3d_t a, __global float4 *v) {
  int i = get_global_id(0);
  write_imagef(a, (int4)(i, 1, 2, 0), v[i]);
}
__kernel void w1da(write_only image1d_array_t a, __global float4 *v) {
  int i = get_global_id(0);
  write_imagef(a, (int2)(i, 1), v[i]);
}
__kernel void w2da(write_only image2d_array_t a, __global float4 *v) {
  int i = get_global_id(0);
  write_imagef(a, (int4)(i, 1, 2, 0), v[i]);
}
__kernel void w1db(write_only image1d_buffer_t a, __global float4 *v) {
  int i = get_global_id(0);
  write_imagef(a, i, v[i]);
  write_imagei(a, i + 1, convert_int4(v[i]));
}
__kernel void wdepth(write_only image2d_depth_t a, __global float *v) {
  int i = get_global_id(0);
  write_imagef(a, (int2)(i, 1), v[i]);
}
__kernel void rw2d(read_write image2d_t a, __global float4 *v) {
  int i = get_global_id(0);
  float4 x = read_imagef(a, (int2)(i, 0));
  write_imagef(a, (int2)(i, 0), x + v[i]);
}
#ifndef __gfx90a__
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void h2d(read_only image2d_t a, write_only image2d_t b, sampler_t s, __global float2 *c) {
  int i = get_global_id(0);
  half4 h = read_imageh(a, s, c[i]) + read_imageh(a, (int2)(i, 0));
  write_imageh(b, (int2)(i, 0), h);
}
__kernel void mip(read_only image2d_t a, sampler_t s, __global float4 *o, __global float2 *c) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, s, c[i], 1.5f) +
         read_imagef(a, s, c[i], (float2)(0.1f, 0.2f), (float2)(0.3f, 0.4f));
}
#endif
