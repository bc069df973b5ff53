/* SPDX-License-Identifier: MIT */
/* svm_gpu.cl — kernels for svm_gpu.sh: read and write plain (SVM) host memory. */
kernel void svm_rw(global int *a, global int *b, int k) {
  size_t i = get_global_id(0);
  int v = a[i];
  b[i] = v * 3 + k;
  a[i] = v + 1;
}

/* Stores k into every item of dst: a GPU write, for the permission-fault modes. */
kernel void svm_store(global int *dst, int k) {
  dst[get_global_id(0)] = k;
}
