/* SPDX-License-Identifier: MIT */
/* scratch_kernels.cl — private arrays indexed at run time (so they live in scratch), for
 * scratch_rdna.sh: priv_small needs 256 bytes a work-item, priv_big 16 KiB. The host
 * computes mix() the same way (scratch_client.c). */
#define MIX(N)                                                            \
  uint a[N];                                                              \
  uint x = seed ^ (uint)get_global_id(0) * 2654435761u;                  \
  for (uint k = 0; k < N; k++) a[k] = x * k + (k ^ (uint)get_global_id(0)); \
  uint idx = x;                                                           \
  for (uint k = 0; k < 64; k++) {                                         \
    idx = idx * 1103515245u + 12345u;                                     \
    uint j = (idx >> 16) % N;                                             \
    a[j] += a[(j * 7u + k) % N];                                          \
  }                                                                       \
  uint s = 0;                                                             \
  for (uint k = 0; k < N; k++) s = s * 31u + a[k];                        \
  out[get_global_id(0)] = s;

kernel void priv_small(global uint *out, uint seed) { MIX(64) }
kernel void priv_big(global uint *out, uint seed) { MIX(4096) }
