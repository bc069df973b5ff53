/* SPDX-License-Identifier: MIT */
// trap_assert.hip — a device-side assert that fails in one work-item, for trap_device.sh.
// HIP prints the assertion through its host call buffer, the wave traps (s_trap 2), the
// runtime reports HSA_STATUS_ERROR_EXCEPTION to HIP's queue callback and HIP aborts the
// process. Exit 1 if the kernel finished instead.
#include <hip/hip_runtime.h>

#include <cassert>
#include <cstdio>

__global__ void check(int *out, int bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 1;
  assert(i != bad);
}

int main() {
  int *d = nullptr;
  if (hipMalloc(&d, 256 * sizeof(int)) != hipSuccess) return 2;
  hipLaunchKernelGGL(check, dim3(4), dim3(64), 0, 0, d, 77);
  hipError_t e = hipDeviceSynchronize();
  printf("FAIL the kernel finished: %s\n", hipGetErrorString(e));
  return 1;
}
