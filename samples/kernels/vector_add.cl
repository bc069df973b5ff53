/* SPDX-License-Identifier: MIT */
/* vector_add.cl — the sample's kernel: c[i] = 3 * a[i] + b[i] over n unsigned integers.
 * scripts/demo.sh compiles it for the GPU's target ID with clang at run time. */
kernel void vector_add(global const uint *a, global const uint *b, global uint *c, uint n) {
  size_t i = get_global_id(0);
  if (i < n)
    c[i] = a[i] * 3u + b[i];
}
