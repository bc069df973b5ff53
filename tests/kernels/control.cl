/* SPDX-License-Identifier: MIT */
/* Control flow and the execution model: divergent branches, loops with per-lane trip
 * counts, break/continue, early return; a private array indexed at run time (scratch);
 * work-item/group ids of 1D/2D/3D grids with partial work-groups; a call to a function
 * that is not inlined (s_swappc_b64 / s_setpc_b64 with a stack). */

__kernel void divergence(__global const uint *in, __global uint *out, uint n)
{
  size_t i = get_global_id(0);
  if (i >= n) return;
  uint x = in[i], r;
  if (x & 1) {
    r = x * 3u + 1u;
    if (x & 2) r ^= 0x55u; else r += 7u;
  } else {
    r = x >> 1;
  }
  uint steps = 0, y = (x & 0xffffu) | 1u;
  while (y != 1u && steps < 400u) {
    y = (y & 1u) ? 3u * y + 1u : y >> 1;
    steps++;
  }
  uint acc = 0;
  for (uint k = 0; k < (x & 31u); k++) {
    if ((k ^ x) & 4u) continue;
    acc += k * x;
    if (acc > 0xc0000000u) break;
  }
  out[i * 4 + 0] = r;
  out[i * 4 + 1] = steps;
  out[i * 4 + 2] = acc;
  if (x % 5u == 0u) return;
  out[i * 4 + 3] = x ^ (steps << 16);
}

#define PN 80
__kernel void private_array(__global const uint *in, __global uint *out, uint n)
{
  size_t i = get_global_id(0);
  if (i >= n) return;
  uint a[PN];
  uint x = in[i];
  for (uint k = 0; k < PN; k++) a[k] = x * k + (k ^ (uint)i);
  uint idx = x;
  for (uint k = 0; k < 60; k++) {
    idx = idx * 1103515245u + 12345u;
    uint j = (idx >> 16) % PN;
    a[j] += a[(j * 7u + k) % PN];
  }
  uint s = 0;
  for (uint k = 0; k < PN; k++) s = s * 31u + a[k];
  out[i] = s;
}

static uint lsize(uint d, uint n)
{
#ifdef __AMDGCN__
  (void)n;
  return (uint)get_local_size(d);
#else
  size_t s = get_local_size(d), first = get_group_id(d) * s;
  return (uint)(n - first < s ? n - first : s);
#endif
}

__kernel void grid_ids(__global uint *out, uint nx, uint ny, uint nz)
{
  uint x = (uint)get_global_id(0), y = (uint)get_global_id(1), z = (uint)get_global_id(2);
#ifndef __AMDGCN__
  if (x >= nx || y >= ny || z >= nz) return;   /* the CPU runs whole work-groups */
#endif
  uint lin = (z * ny + y) * nx + x;
  __global uint *o = out + lin * 6;
  o[0] = x | y << 10 | z << 20;
  o[1] = (uint)get_local_id(0) | (uint)get_local_id(1) << 10 | (uint)get_local_id(2) << 20;
  o[2] = (uint)get_group_id(0) | (uint)get_group_id(1) << 10 | (uint)get_group_id(2) << 20;
  o[3] = lsize(0, nx) | lsize(1, ny) << 10 | lsize(2, nz) << 20;
  o[4] = (uint)get_num_groups(0) | (uint)get_num_groups(1) << 10 | (uint)get_num_groups(2) << 20;
  o[5] = get_work_dim();
}

__attribute__((noinline)) uint mix(uint x, uint y, __global const uint *tab)
{
  uint h = x ^ 0x9e3779b9u;
  for (uint k = 0; k < (y & 7u) + 1u; k++) h = (h << 5 | h >> 27) + tab[(h + k) & 15u];
  return h;
}

__attribute__((noinline)) ulong mix2(uint a, uint b, uint c, ulong d)
{
  return ((ulong)a * b + c) ^ d;
}

__kernel void call_fn(__global const uint *in, __global const uint *tab, __global ulong *out, uint n)
{
  size_t i = get_global_id(0);
  if (i >= n) return;
  uint x = in[i];
  uint h = (x & 1u) ? mix(x, (uint)i, tab) : mix(x ^ 1u, x, tab);
  out[i] = mix2(h, x, (uint)i, (ulong)x << 32);
}
