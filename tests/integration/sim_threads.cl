/* SPDX-License-Identifier: MIT */
/* sim_threads.cl — one step of a chain of dispatches (sim_threads_client.c): each work-item
 * mixes its value with its two neighbours (read from the previous step's output, written by
 * other work-groups), shares them through LDS behind a barrier, reduces its group's results
 * in LDS and adds the sum to a global counter with one atomic per group. */

kernel void step(global const uint *in, global uint *out, global uint *sum, uint n)
{
  local uint tile[258];
  local uint red[256];
  uint i = get_global_id(0), l = get_local_id(0), ls = get_local_size(0);
  tile[l + 1] = in[i];
  if (l == 0)
    tile[0] = in[(i + n - 1) % n];
  if (l == ls - 1)
    tile[l + 2] = in[(i + 1) % n];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint r = tile[l] * 3u + tile[l + 1] * 5u + (tile[l + 2] ^ (tile[l + 2] >> 7)) + 0x9e3779b9u;
  for (int k = 0; k < 8; k++)
    r = (r * 1664525u + 1013904223u) ^ (r >> 13);
  out[i] = r;
  red[l] = r & 0xffffu;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = ls / 2; s > 0; s /= 2) {
    if (l < s)
      red[l] += red[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    atomic_add(sum, red[0]);
}
