/* Global atomics whose final results do not depend on the order the work-items ran in:
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
