/* SPDX-License-Identifier: MIT */
/* A reduction whose every lane takes the same path (a strided loop with a uniform trip count,
 * then one atomic add per work-item), so bench/isa_throughput can count the instructions
 * each wave executes from the code alone. Also a corpus case. */
__kernel void reduce_stride(__global const uint *in, __global uint *sum, uint per_item)
{
  size_t i = get_global_id(0), n = get_global_size(0);
  uint s = 0;
  for (uint k = 0; k < per_item; k++) s += in[k * n + i] ^ k;
  atomic_add(sum, s);
}
