/* SPDX-License-Identifier: MIT */
// mem_hip.hip — HIP 5.2 (Debian's hipcc and libamdhip64) on our memory layer: a kernel
// increments malloc'ed memory registered with hipHostRegister (our lock: a USERPTR object at
// its own GPU address), pointer attributes of registered and device memory, a 2D copy through
// a pitched device buffer, a peer copy between two GPUs (allow_access). Checks its own results.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(x) do { hipError_t e = (x); if (e != hipSuccess) { printf("FAIL %s: %s\n", #x, hipGetErrorString(e)); return 1; } } while (0)
__global__ void inc(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] += 1; }
int main(void) {
  int ngpu = 0; CK(hipGetDeviceCount(&ngpu)); printf("gpus %d\n", ngpu);
  const int n = 1 << 16;
  /* hipHostRegister: a kernel writes into registered malloc memory */
  int *h = (int *)malloc(n * sizeof(int) + 100);
  int *hu = (int *)((char *)h + 52);
  for (int i = 0; i < n; i++) hu[i] = i;
  CK(hipHostRegister(hu, n * sizeof(int), hipHostRegisterDefault));
  int *dptr; CK(hipHostGetDevicePointer((void **)&dptr, hu, 0));
  hipLaunchKernelGGL(inc, dim3(n / 256), dim3(256), 0, 0, dptr, n);
  CK(hipDeviceSynchronize());
  for (int i = 0; i < n; i++) if (hu[i] != i + 1) { printf("FAIL registered[%d]=%d\n", i, hu[i]); return 1; }
  hipPointerAttribute_t a;
  CK(hipPointerGetAttributes(&a, hu));
  printf("registered attr type=%d\n", (int)a.memoryType);
  CK(hipHostUnregister(hu));
  /* pointer attributes on device memory */
  int *d; CK(hipMalloc(&d, n * sizeof(int)));
  CK(hipPointerGetAttributes(&a, d + 5));
  printf("device attr type=%d dev=%d\n", (int)a.memoryType, a.device);
  /* 2D copies */
  size_t pitch = 512; int *d2; CK(hipMalloc((void **)&d2, pitch * 50));
  int *src2 = (int *)malloc(100 * 50 * sizeof(int)), *dst2 = (int *)calloc(100 * 50, sizeof(int));
  for (int i = 0; i < 5000; i++) src2[i] = i * 3;
  CK(hipMemcpy2D(d2, pitch, src2, 100 * sizeof(int), 100 * sizeof(int), 50, hipMemcpyHostToDevice));
  CK(hipMemcpy2D(dst2, 100 * sizeof(int), d2, pitch, 100 * sizeof(int), 50, hipMemcpyDeviceToHost));
  if (memcmp(src2, dst2, 5000 * sizeof(int))) { printf("FAIL 2D\n"); return 1; }
  printf("2d ok\n");
  /* peer copy */
  if (ngpu > 1) {
    int *d1; CK(hipSetDevice(1)); CK(hipMalloc(&d1, n * sizeof(int))); CK(hipSetDevice(0));
    CK(hipMemcpy(d, h, n * sizeof(int), hipMemcpyHostToDevice));
    CK(hipMemcpyPeer(d1, 1, d, 0, n * sizeof(int)));
    int *back = (int *)malloc(n * sizeof(int));
    CK(hipSetDevice(1)); CK(hipMemcpy(back, d1, n * sizeof(int), hipMemcpyDeviceToHost));
    if (memcmp(back, h, n * sizeof(int))) { printf("FAIL peer\n"); return 1; }
    int can = 0; CK(hipDeviceCanAccessPeer(&can, 0, 1));
    printf("peer ok can=%d\n", can);
    CK(hipFree(d1)); CK(hipSetDevice(0));
  }
  CK(hipFree(d)); CK(hipFree(d2));
  printf("PASS\n");
  return 0;
}
