/* SPDX-License-Identifier: MIT */
/* image_kernels.cl — the kernels of image_kernels.sh: every work-item reads (integer
 * coordinates: image_load), samples (a sampler argument: image_sample) or writes
 * (image_store) one texel of an image given as an argument (the runtime's image and
 * sampler handles are the kernel arguments, as OpenCL passes them). */

/* integer coordinates: texel i of a w x h (x d) image */
__kernel void load1d(read_only image1d_t a, __global float4 *o) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, i);
}
__kernel void load2d(read_only image2d_t a, __global float4 *o, int w) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, (int2)(i % w, i / w));
}
__kernel void load2di(read_only image2d_t a, __global int4 *o, int w) {
  int i = get_global_id(0);
  o[i] = read_imagei(a, (int2)(i % w, i / w));
}
__kernel void load2dui(read_only image2d_t a, __global uint4 *o, int w) {
  int i = get_global_id(0);
  o[i] = read_imageui(a, (int2)(i % w, i / w));
}
__kernel void load3d(read_only image3d_t a, __global float4 *o, int w, int h) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, (int4)(i % w, (i / w) % h, i / (w * h), 0));
}
__kernel void load1da(read_only image1d_array_t a, __global float4 *o, int w) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, (int2)(i % w, i / w));
}
__kernel void load2da(read_only image2d_array_t a, __global float4 *o, int w, int h) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, (int4)(i % w, (i / w) % h, i / (w * h), 0));
}

__kernel void load1db(read_only image1d_buffer_t a, __global float4 *o) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, i);
}
__kernel void store1db(write_only image1d_buffer_t a, __global const float4 *v) {
  int i = get_global_id(0);
  write_imagef(a, i, v[i]);
}

/* a sampler argument, float coordinates c[i] */
__kernel void sample1d(read_only image1d_t a, sampler_t s, __global const float4 *c, __global float4 *o) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, s, c[i].x);
}
__kernel void sample2d(read_only image2d_t a, sampler_t s, __global const float4 *c, __global float4 *o) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, s, c[i].xy);
}
__kernel void sample2di(read_only image2d_t a, sampler_t s, __global const float4 *c, __global int4 *o) {
  int i = get_global_id(0);
  o[i] = read_imagei(a, s, c[i].xy);
}
__kernel void sample3d(read_only image3d_t a, sampler_t s, __global const float4 *c, __global float4 *o) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, s, c[i]);
}
__kernel void sample1da(read_only image1d_array_t a, sampler_t s, __global const float4 *c, __global float4 *o) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, s, c[i].xy);
}
__kernel void sample2da(read_only image2d_array_t a, sampler_t s, __global const float4 *c, __global float4 *o) {
  int i = get_global_id(0);
  o[i] = read_imagef(a, s, c[i]);
}

/* writes: texel i gets v[i] */
__kernel void store2d(write_only image2d_t a, __global const float4 *v, int w) {
  int i = get_global_id(0);
  write_imagef(a, (int2)(i % w, i / w), v[i]);
}
__kernel void store2di(write_only image2d_t a, __global const int4 *v, int w) {
  int i = get_global_id(0);
  write_imagei(a, (int2)(i % w, i / w), v[i]);
}
__kernel void store3d(write_only image3d_t a, __global const float4 *v, int w, int h) {
  int i = get_global_id(0);
  write_imagef(a, (int4)(i % w, (i / w) % h, i / (w * h), 0), v[i]);
}
__kernel void store2da(write_only image2d_array_t a, __global const float4 *v, int w, int h) {
  int i = get_global_id(0);
  write_imagef(a, (int4)(i % w, (i / w) % h, i / (w * h), 0), v[i]);
}

/* mip levels (cl_khr_mipmap_image): texel i of level `lod` (w texels wide) gets v[i]
 * (image_store_mip); o[i] is level `lod`'s texel i through a sampler's explicit LOD
 * (image_sample_l), at the texel's centre in normalized coordinates of a w x h level */
#pragma OPENCL EXTENSION cl_khr_mipmap_image : enable
#pragma OPENCL EXTENSION cl_khr_mipmap_image_writes : enable
__kernel void store2d_mip(write_only image2d_t a, __global const float4 *v, int w, int lod) {
  int i = get_global_id(0);
  write_imagef(a, (int2)(i % w, i / w), lod, v[i]);
}
#ifndef __gfx90a__   /* LLVM has no sample with an LOD for gfx90a ("not supported on this GPU") */
__kernel void sample2d_lod(read_only image2d_t a, sampler_t s, __global float4 *o, int w, int h,
                           float lod) {
  int i = get_global_id(0);
  float2 c = (float2)(((float)(i % w) + 0.5f) / (float)w, ((float)(i / w) + 0.5f) / (float)h);
  o[i] = read_imagef(a, s, c, lod);
}
#endif
