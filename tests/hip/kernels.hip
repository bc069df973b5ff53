/* SPDX-License-Identifier: MIT */
// Kernel launches: a block reduction in static __shared__ memory with __syncthreads, the
// same with dynamic (extern) shared memory, global atomics (add, max, CAS loop), 2D/3D
// launches with partial blocks, and many small launches in a row.
#include "hip_check.h"
#include <vector>

__global__ void block_sum(const unsigned *in, unsigned *sums, unsigned *total, unsigned *maxv, size_t n)
{
  __shared__ unsigned s[256];
  unsigned t = threadIdx.x;
  size_t i = blockIdx.x * 256 + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned w = 128; w > 0; w >>= 1) {
    if (t < w) s[t] += s[t + w];
    __syncthreads();
  }
  if (t == 0) {
    sums[blockIdx.x] = s[0];
    atomicAdd(total, s[0]);
    atomicMax(maxv, s[0]);
  }
}

__global__ void dyn_shared_reverse(const unsigned *in, unsigned *out)
{
  extern __shared__ unsigned buf[];
  unsigned t = threadIdx.x, n = blockDim.x;
  buf[t] = in[blockIdx.x * n + t];
  __syncthreads();
  out[blockIdx.x * n + t] = buf[n - 1 - t];
}

__global__ void cas_product(const unsigned *in, unsigned *prod, size_t n)
{
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned f = in[i] * 2u + 1u, old = *prod, prev;
  do { prev = old; old = atomicCAS(prod, prev, prev * f); } while (old != prev);
}

__global__ void ids3d(unsigned *out, unsigned nx, unsigned ny, unsigned nz)
{
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y,
           z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) out[(z * ny + y) * nx + x] = x | y << 10 | z << 20;
}

__global__ void add_one(unsigned *p) { p[threadIdx.x] += 1; }

int main()
{
  const size_t n = 50000;
  unsigned long long seed = 7;
  std::vector<unsigned> h(n);
  for (auto &v : h) v = hc_rand(seed) & 0xffff;
  unsigned *in, *sums, *red, *out;
  size_t blocks = (n + 255) / 256;
  HIP_OK(hipMalloc(&in, n * 4));
  HIP_OK(hipMalloc(&sums, blocks * 4));
  HIP_OK(hipMalloc(&red, 3 * 4));
  HIP_OK(hipMalloc(&out, n * 4));
  HIP_OK(hipMemcpy(in, h.data(), n * 4, hipMemcpyHostToDevice));
  unsigned init[3] = {0, 0, 1};
  HIP_OK(hipMemcpy(red, init, sizeof init, hipMemcpyHostToDevice));

  hipLaunchKernelGGL(block_sum, dim3(blocks), dim3(256), 0, 0, in, sums, red, red + 1, n);
  HIP_OK(hipGetLastError());
  hipLaunchKernelGGL(cas_product, dim3((n + 127) / 128), dim3(128), 0, 0, in, red + 2, n);
  std::vector<unsigned> s(blocks), r(3);
  HIP_OK(hipMemcpy(s.data(), sums, blocks * 4, hipMemcpyDeviceToHost));
  HIP_OK(hipMemcpy(r.data(), red, 12, hipMemcpyDeviceToHost));
  unsigned total = 0, mx = 0, prod = 1;
  for (size_t b = 0; b < blocks; b++) {
    unsigned want = 0;
    for (size_t i = b * 256; i < (b + 1) * 256 && i < n; i++) want += h[i];
    EXPECT(s[b] == want, "block %zu sum %u, want %u", b, s[b], want);
    total += want;
    if (want > mx) mx = want;
  }
  for (size_t i = 0; i < n; i++) prod *= h[i] * 2u + 1u;
  EXPECT(r[0] == total, "atomicAdd total %u, want %u", r[0], total);
  EXPECT(r[1] == mx, "atomicMax %u, want %u", r[1], mx);
  EXPECT(r[2] == prod, "atomicCAS product 0x%x, want 0x%x", r[2], prod);

  // Dynamic shared memory: 200 blocks of 250 threads reverse their slice.
  hipLaunchKernelGGL(dyn_shared_reverse, dim3(200), dim3(250), 250 * 4, 0, in, out);
  std::vector<unsigned> o(n);
  HIP_OK(hipMemcpy(o.data(), out, n * 4, hipMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i++) {
    size_t b = i / 250, t = i % 250;
    EXPECT(o[i] == h[b * 250 + 249 - t], "reverse: element %zu", i);
  }

  // 3D launch with partial blocks in every dimension.
  const unsigned nx = 45, ny = 19, nz = 7;
  HIP_OK(hipMemset(out, 0xff, n * 4));
  hipLaunchKernelGGL(ids3d, dim3((nx + 7) / 8, (ny + 3) / 4, (nz + 3) / 4), dim3(8, 4, 4), 0, 0, out, nx, ny, nz);
  HIP_OK(hipMemcpy(o.data(), out, n * 4, hipMemcpyDeviceToHost));
  for (unsigned z = 0; z < nz; z++)
    for (unsigned y = 0; y < ny; y++)
      for (unsigned x = 0; x < nx; x++)
        EXPECT(o[(z * ny + y) * nx + x] == (x | y << 10 | z << 20), "ids3d (%u,%u,%u)", x, y, z);
  EXPECT(o[nx * ny * nz] == 0xffffffffu, "ids3d wrote past the grid");

  // 100 dependent launches on the null stream.
  HIP_OK(hipMemset(out, 0, 64 * 4));
  for (int k = 0; k < 100; k++) hipLaunchKernelGGL(add_one, dim3(1), dim3(64), 0, 0, out);
  HIP_OK(hipMemcpy(o.data(), out, 64 * 4, hipMemcpyDeviceToHost));
  for (int t = 0; t < 64; t++) EXPECT(o[t] == 100, "add_one lane %d: %u", t, o[t]);

  HIP_OK(hipFree(in)); HIP_OK(hipFree(sums)); HIP_OK(hipFree(red)); HIP_OK(hipFree(out));
  std::puts("ok");
  return 0;
}
