/* SPDX-License-Identifier: MIT */
// Wave-level operations of HIP on gfx9 (64 lanes): ballot (also inside a branch, where only
// the active lanes vote), readfirstlane, shuffles (ds_bpermute), mbcnt, and a shuffle-down
// reduction; and a block scan with __shared__ memory, __syncthreads and global atomics.
#include <hip/hip_runtime.h>

extern "C" __global__ void wave_ops(const unsigned *in, unsigned *out, unsigned long long *masks)
{
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = in[i];
  unsigned lane = __lane_id();
  unsigned long long b = __ballot(x & 1);
  unsigned first = __builtin_amdgcn_readfirstlane(x);
  unsigned rot = __shfl(x, (lane + 5) & 63);
  unsigned bp = (unsigned)__builtin_amdgcn_ds_bpermute((int)(((lane * 7) & 63) << 2), (int)x);
  unsigned xr = __shfl_xor(x, 13);
  unsigned s = x;
  for (int off = 32; off > 0; off >>= 1) s += __shfl_down(s, off);
  unsigned total = __shfl(s, 0);
  unsigned below = __builtin_amdgcn_mbcnt_hi((unsigned)(b >> 32), __builtin_amdgcn_mbcnt_lo((unsigned)b, 0));
  unsigned long long db = 0;
  unsigned first8 = 0;
  if (x & 2) db = __ballot(x & 4);
  // A value only the branch computes: LLVM 15 merges readfirstlane(x) here with the one above
  // (both read x), which returns lane 0's x even when lane 0 is not in the branch.
  if (x & 8) first8 = __builtin_amdgcn_readfirstlane(x ^ 0x5a5a5a5au);
  unsigned *o = out + i * 9;
  o[0] = lane; o[1] = first; o[2] = rot; o[3] = bp; o[4] = xr;
  o[5] = total; o[6] = below; o[7] = (unsigned)__popcll(b); o[8] = first8;
  masks[i * 2] = b;
  masks[i * 2 + 1] = db;
}

#define B 256
extern "C" __global__ void block_scan(const unsigned *in, unsigned *scan, unsigned *totals)
{
  __shared__ unsigned buf[2][B];
  unsigned t = threadIdx.x, i = blockIdx.x * B + t;
  int cur = 0;
  buf[0][t] = in[i] & 0xffff;
  __syncthreads();
  for (unsigned off = 1; off < B; off <<= 1) {
    buf[cur ^ 1][t] = buf[cur][t] + (t >= off ? buf[cur][t - off] : 0u);
    cur ^= 1;
    __syncthreads();
  }
  scan[i] = buf[cur][t];
  if (t == B - 1) {
    atomicAdd(&totals[0], buf[cur][t]);
    atomicMax(&totals[1], buf[cur][t]);
    atomicMin(&totals[2], buf[cur][t]);
  }
}
