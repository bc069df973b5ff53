/* SPDX-License-Identifier: MIT */
// Memory: hipMalloc, hipMemcpy host-to-device, device-to-device, device-to-host (sizes that
// are not multiples of anything), hipMemset and hipMemsetD32, pinned host memory
// (hipHostMalloc) with async copies, and a kernel reading what the copies put there.
#include "hip_check.h"
#include <vector>

__global__ void xor_kernel(const unsigned *in, unsigned *out, size_t n, unsigned k)
{
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] ^ k;
}

int main()
{
  const size_t n = 100003;   // not a multiple of any copy granule
  unsigned long long seed = 1;
  std::vector<unsigned> h(n), back(n);
  for (auto &v : h) v = hc_rand(seed);
  unsigned *a, *b, *c;
  HIP_OK(hipMalloc(&a, n * 4));
  HIP_OK(hipMalloc(&b, n * 4));
  HIP_OK(hipMalloc(&c, n * 4));
  HIP_OK(hipMemcpy(a, h.data(), n * 4, hipMemcpyHostToDevice));
  HIP_OK(hipMemcpy(b, a, n * 4, hipMemcpyDeviceToDevice));
  HIP_OK(hipMemcpy(back.data(), b, n * 4, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i++) EXPECT(back[i] == h[i], "D2D copy: element %zu: 0x%x, want 0x%x", i, back[i], h[i]);

  // Unaligned offsets and odd sizes.
  HIP_OK(hipMemcpy((char *)c + 3, (char *)a + 1, 4097, hipMemcpyDeviceToDevice));
  std::vector<unsigned char> bytes(4097);
  HIP_OK(hipMemcpy(bytes.data(), (char *)c + 3, 4097, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < 4097; i++)
    EXPECT(bytes[i] == ((unsigned char *)h.data())[i + 1], "unaligned copy: byte %zu", i);

  HIP_OK(hipMemset(c, 0x5a, n * 4));
  HIP_OK(hipMemset((char *)c + 5, 0x11, 7));
  HIP_OK(hipMemcpy(back.data(), c, n * 4, hipMemcpyDeviceToHost));
  const unsigned char *cb = (const unsigned char *)back.data();
  for (size_t i = 0; i < n * 4; i++) {
    unsigned char want = (i >= 5 && i < 12) ? 0x11 : 0x5a;
    EXPECT(cb[i] == want, "memset: byte %zu: 0x%x, want 0x%x", i, cb[i], want);
  }
  HIP_OK(hipMemsetD32((hipDeviceptr_t)c, 0xdeadbeef, n));
  HIP_OK(hipMemcpy(back.data(), c, n * 4, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i++) EXPECT(back[i] == 0xdeadbeefu, "memsetD32: element %zu: 0x%x", i, back[i]);

  // Kernel on copied data, result through pinned memory and an async copy.
  unsigned *pinned;
  HIP_OK(hipHostMalloc(&pinned, n * 4));
  hipLaunchKernelGGL(xor_kernel, dim3((n + 255) / 256), dim3(256), 0, 0, b, c, n, 0x01020304u);
  HIP_OK(hipGetLastError());
  HIP_OK(hipMemcpyAsync(pinned, c, n * 4, hipMemcpyDeviceToHost, 0));
  HIP_OK(hipStreamSynchronize(0));
  for (size_t i = 0; i < n; i++)
    EXPECT(pinned[i] == (h[i] ^ 0x01020304u), "kernel: element %zu: 0x%x, want 0x%x", i, pinned[i], h[i] ^ 0x01020304u);

  // A kernel reading pinned host memory directly.
  for (size_t i = 0; i < n; i++) pinned[i] = (unsigned)i * 3u;
  hipLaunchKernelGGL(xor_kernel, dim3((n + 255) / 256), dim3(256), 0, 0, pinned, a, n, 0xffffffffu);
  HIP_OK(hipDeviceSynchronize());
  HIP_OK(hipMemcpy(back.data(), a, n * 4, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i++) EXPECT(back[i] == ~((unsigned)i * 3u), "kernel on pinned: element %zu", i);

  HIP_OK(hipHostFree(pinned));
  HIP_OK(hipFree(a)); HIP_OK(hipFree(b)); HIP_OK(hipFree(c));
  std::puts("ok");
  return 0;
}
