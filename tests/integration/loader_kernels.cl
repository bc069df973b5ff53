/* SPDX-License-Identifier: MIT */
/* loader_kernels.cl — test kernels for the loader tests (compiled at test time): a global
 * variable, a constant table, an external the application defines, pointers the loader
 * relocates, LDS and scratch. */
__attribute__((visibility("default"))) global int counter = 5;
__attribute__((visibility("default"))) constant int table[4] = {1, 2, 3, 4};
extern __attribute__((visibility("default"))) global int ext_var;
__attribute__((visibility("default"))) global int *global ptr_to_counter = &counter;
__attribute__((visibility("default"))) global int *global ptr_to_ext_var = &ext_var;
kernel void add(global int *a, int n) {
  int i = (int)__builtin_amdgcn_workitem_id_x();
  if (i < n) a[i] += table[i & 3] + *ptr_to_counter + *ptr_to_ext_var;
}
kernel void big(global int *a, global float *b, long c, char d) {
  local int l[1024];
  int p[64];
  int i = (int)__builtin_amdgcn_workitem_id_x();
  l[i] = a[i];
  p[i & 63] = i;
  __builtin_amdgcn_s_barrier();
  a[i] = l[1023 - i] + p[(i * 7) & 63] + (int)b[i] + (int)c + d;
}
