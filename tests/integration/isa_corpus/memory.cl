/* SPDX-License-Identifier: MIT */
/* LDS, barriers, atomics, private arrays (scratch), cross-lane operations. */
#define LID __builtin_amdgcn_workitem_id_x()
#define GID (LID + __builtin_amdgcn_workgroup_id_x() * 256)

__kernel void reduce(__global int *out, __local int *tmp)
{
  int l = LID;
  tmp[l] = l * 3;
  __builtin_amdgcn_s_barrier();
  for (int s = 128; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    __builtin_amdgcn_s_barrier();
  }
  if (l == 0) atomic_add(out, tmp[0]);
}

__kernel void atomics(__global int *g, __global uint *u, __global long *q, __local int *lds,
                      __local long *lq)
{
  int l = LID;
  lds[l] = 0;
  __builtin_amdgcn_s_barrier();
  atomic_add(&lds[l & 7], 1);
  atomic_max(&lds[8], l);
  atomic_min(g + 1, l);
  atomic_xchg(g + 2, l);
  atomic_cmpxchg(g + 3, l, l + 1);
  atomic_inc(u);
  atomic_dec(u + 1);
  atomic_or(u + 2, 1u << (l & 31));
  atomic_and(u + 3, ~(1u << (l & 31)));
  atomic_xor(u + 4, (uint)l);
  atom_add(q, (long)l);
  atom_cmpxchg(q + 1, (long)l, 5L);
  atom_max(q + 2, (long)l);
  atom_add(lq, (long)l);
  __builtin_amdgcn_s_barrier();
  g[GID + 16] = lds[l & 15] + atomic_sub(&lds[9], 2) + (int)atom_xchg(lq + 1, 3L);
}

__kernel void private_array(__global int *out, int n)
{
  int priv[64];
  for (int i = 0; i < 64; i++)
    priv[i] = out[i] * n;
  out[GID] = priv[(n + GID) & 63] + priv[n & 63];
}

__kernel void lanes(__global int *out)
{
  int l = LID;
  int v = out[GID];
  int p = __builtin_amdgcn_ds_bpermute((l ^ 1) << 2, v);
  int s = __builtin_amdgcn_ds_swizzle(v, 0x041f);
  int f = __builtin_amdgcn_readfirstlane(v);
  uint m = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  out[GID] = p + s + f + (int)m;
}

__kernel void flat_ptrs(__global int *g, __local int *l, int sel)
{
  int priv[4] = {1, 2, 3, 4};
  int *p = sel == 1 ? (int *)g : sel == 2 ? (int *)l : priv;
  l[LID] = LID;
  __builtin_amdgcn_s_barrier();
  g[GID] = p[LID & 3] + priv[sel & 3];
}

__kernel void control(__global int *out, int n)
{
  int acc = 0, i = GID;
  for (int k = 0; k < n; k++) {
    if ((k ^ i) & 1) acc += k; else acc -= i;
    if (acc > 1000) break;
  }
  switch (i & 3) {
  case 0: acc *= 3; break;
  case 1: acc += 17; break;
  case 2: acc ^= 0x55; break;
  default: acc = -acc;
  }
  out[i] = acc;
}
