/* SPDX-License-Identifier: MIT */
/* Global and local atomics whose final results do not depend on the order the work-items ran in:
 * a slot counter (each slot handed out once), a histogram, min/max/and/or/xor/add, a
 * compare-and-swap loop computing an odd product modulo 2^32, and 64-bit atomic adds. */
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

__kernel void atomics32(__global const uint *in, __global uint *counter, __global uint *slots,
                        __global uint *hist, __global uint *red, uint n)
{
  size_t i = get_global_id(0);
  if (i >= n) return;
  uint x = in[i];
  uint slot = atomic_inc(counter);
  slots[slot] = 1u + (slot < n ? 0u : 100u);
  atomic_inc(&hist[x & 63]);
  atomic_add(&red[0], x);
  atomic_min(&red[1], x);
  atomic_max(&red[2], x);
  atomic_min((__global int *)&red[3], (int)x);
  atomic_max((__global int *)&red[4], (int)x);
  atomic_or(&red[5], x & 0x0f0f0f0fu);
  atomic_and(&red[6], x | 0x00ff00ffu);
  atomic_xor(&red[7], x);
  atomic_sub(&red[8], x >> 4);
  if (x & 1) atomic_xchg(&red[9], 7u);
}

__kernel void atomic_cas(__global const uint *in, __global uint *prod, __global ulong *sum64, uint n)
{
  size_t i = get_global_id(0);
  if (i >= n) return;
  uint f = in[i] * 2u + 1u;
  uint old = *prod, prev;
  do {
    prev = old;
    old = atomic_cmpxchg(prod, prev, prev * f);
  } while (old != prev);
  atom_add(&sum64[0], (ulong)in[i] << 20);
  atom_add(&sum64[1], (ulong)in[i] * in[i]);
}

/* Local-memory atomics inside each work-group, then the "last work-group finishes" pattern:
 * each group publishes its partial result and counts itself in; the group that counts last
 * adds all partials. Only atomics touch the shared words, so it holds under OpenCL 1.2. */
__kernel void last_group(__global const uint *in, __global uint *partial, __global uint *count,
                         __global uint *result, uint n)
{
  __local uint sum, mx, last;
  size_t i = get_global_id(0), l = get_local_id(0), g = get_group_id(0);
  if (l == 0) { sum = 0; mx = 0; }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < n) {
    atomic_add(&sum, in[i]);
    atomic_max(&mx, in[i] >> 8);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    atomic_xchg(&partial[g * 2], sum);
    atomic_xchg(&partial[g * 2 + 1], mx);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    last = atomic_inc(count) == get_num_groups(0) - 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (last && l == 0) {
    uint s = 0, m = 0;
    for (uint k = 0; k < get_num_groups(0); k++) {
      s += atomic_or(&partial[k * 2], 0u);
      uint v = atomic_or(&partial[k * 2 + 1], 0u);
      m = v > m ? v : m;
    }
    result[0] = s;
    result[1] = m;
  }
}
