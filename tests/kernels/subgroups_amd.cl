/* SPDX-License-Identifier: MIT */
/* OpenCL 2.0 sub-groups on AMD (a sub-group is a wave: 64 lanes, 32 in an RDNA wave32 code
 * object): reductions, scans, broadcast, any/all and the sub-group ids, which the device
 * libraries build from DPP row and wave shifts, v_readlane and mbcnt. The last work-group is
 * partial, so its last wave is partial too (52 lanes in wave64, 20 in wave32). "_amd":
 * compiled as OpenCL 2.0, not run on pocl (OpenCL 1.2, no sub-groups). */
__kernel void subgroups(__global const uint *in, __global uint *out, uint n)
{
  size_t i = get_global_id(0);
  uint x = in[i] & 0xffff;
  __global uint *o = out + i * 8;
  o[0] = sub_group_reduce_add(x);
  o[1] = sub_group_scan_inclusive_add(x);
  o[2] = sub_group_scan_exclusive_max(x);
  o[3] = sub_group_broadcast(x, 7);
  o[4] = (uint)sub_group_any(x > 0xfff0u) | (uint)sub_group_all(x != 0) << 1;
  o[5] = get_sub_group_local_id() | get_sub_group_id() << 8 | get_num_sub_groups() << 16;
  o[6] = get_sub_group_size() | get_max_sub_group_size() << 8;
  o[7] = sub_group_reduce_min(x) ^ sub_group_reduce_max(x) << 16;
  (void)n;
}
