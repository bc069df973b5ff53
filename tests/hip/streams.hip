/* SPDX-License-Identifier: MIT */
// Streams and events: two streams each copy, compute and copy back their half; an event
// recorded on one stream orders work on the other (hipStreamWaitEvent); hipEventSynchronize,
// hipEventQuery, hipStreamQuery and hipEventElapsedTime (non-negative, no timing asserted).
#include "hip_check.h"
#include <vector>

__global__ void scale(unsigned *p, size_t n, unsigned k)
{
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * k + 1;
}

__global__ void combine(const unsigned *a, const unsigned *b, unsigned *c, size_t n)
{
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] ^ b[i];
}

int main()
{
  const size_t n = 30000;
  unsigned long long seed = 3;
  unsigned *h;
  HIP_OK(hipHostMalloc(&h, 3 * n * 4));
  for (size_t i = 0; i < 2 * n; i++) h[i] = hc_rand(seed);
  std::vector<unsigned> orig(h, h + 2 * n);
  unsigned *d;
  HIP_OK(hipMalloc(&d, 3 * n * 4));
  hipStream_t s[2];
  hipEvent_t start, halfdone, end;
  HIP_OK(hipStreamCreate(&s[0]));
  HIP_OK(hipStreamCreateWithFlags(&s[1], hipStreamNonBlocking));
  HIP_OK(hipEventCreate(&start));
  HIP_OK(hipEventCreateWithFlags(&halfdone, hipEventDisableTiming));
  HIP_OK(hipEventCreate(&end));

  HIP_OK(hipEventRecord(start, s[0]));
  for (int k = 0; k < 2; k++) {
    HIP_OK(hipMemcpyAsync(d + k * n, h + k * n, n * 4, hipMemcpyHostToDevice, s[k]));
    hipLaunchKernelGGL(scale, dim3((n + 255) / 256), dim3(256), 0, s[k], d + k * n, n, 3u + k);
  }
  HIP_OK(hipEventRecord(halfdone, s[1]));
  HIP_OK(hipStreamWaitEvent(s[0], halfdone, 0));   // s[0] now also waits for s[1]'s half
  hipLaunchKernelGGL(combine, dim3((n + 255) / 256), dim3(256), 0, s[0], d, d + n, d + 2 * n, n);
  HIP_OK(hipMemcpyAsync(h, d, 3 * n * 4, hipMemcpyDeviceToHost, s[0]));
  HIP_OK(hipEventRecord(end, s[0]));
  HIP_OK(hipEventSynchronize(end));
  HIP_OK(hipEventQuery(end));
  HIP_OK(hipStreamQuery(s[0]));
  HIP_OK(hipStreamSynchronize(s[1]));
  float ms = -1;
  HIP_OK(hipEventElapsedTime(&ms, start, end));
  EXPECT(ms >= 0, "elapsed %f ms", (double)ms);

  for (size_t i = 0; i < n; i++) {
    unsigned a = orig[i] * 3u + 1, b = orig[n + i] * 4u + 1;
    EXPECT(h[i] == a, "stream 0 element %zu: 0x%x, want 0x%x", i, h[i], a);
    EXPECT(h[n + i] == b, "stream 1 element %zu: 0x%x, want 0x%x", i, h[n + i], b);
    EXPECT(h[2 * n + i] == (a ^ b), "combined element %zu: 0x%x, want 0x%x", i, h[2 * n + i], a ^ b);
  }
  HIP_OK(hipEventDestroy(start)); HIP_OK(hipEventDestroy(halfdone)); HIP_OK(hipEventDestroy(end));
  HIP_OK(hipStreamDestroy(s[0])); HIP_OK(hipStreamDestroy(s[1]));
  HIP_OK(hipFree(d)); HIP_OK(hipHostFree(h));
  std::puts("ok");
  return 0;
}
