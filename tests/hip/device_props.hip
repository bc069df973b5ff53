/* SPDX-License-Identifier: MIT */
// hipGetDeviceCount / hipGetDeviceProperties / hipDeviceGetAttribute compared with what the
// simulated GPU's KFD topology says (the script passes the values it read from sysfs):
//   device_props GPUS ARCH CUS SIMD_PER_CU MAX_CLOCK_MHZ VRAM_BYTES
#include "hip_check.h"
#include <cstring>
#include <string>

int main(int argc, char **argv)
{
  EXPECT(argc == 7, "usage: device_props GPUS ARCH CUS SIMD_PER_CU MAX_CLOCK_MHZ VRAM_BYTES");
  int gpus = atoi(argv[1]), cus = atoi(argv[3]), mhz = atoi(argv[5]);
  unsigned long long vram = strtoull(argv[6], nullptr, 0);
  const char *arch = argv[2];
  int n = 0;
  HIP_OK(hipGetDeviceCount(&n));
  EXPECT(n == gpus, "%d devices, topology has %d GPUs", n, gpus);
  for (int d = 0; d < n; d++) {
    hipDeviceProp_t p;
    HIP_OK(hipGetDeviceProperties(&p, d));
    std::printf("device %d: %s (%s), %d CUs, %zu bytes, %d kHz, warp %d\n", d, p.name, p.gcnArchName,
                p.multiProcessorCount, p.totalGlobalMem, p.clockRate, p.warpSize);
    EXPECT(std::strncmp(p.gcnArchName, arch, std::strlen(arch)) == 0, "gcnArchName %s, not %s", p.gcnArchName, arch);
    EXPECT(p.multiProcessorCount == cus, "%d CUs, topology %d", p.multiProcessorCount, cus);
    EXPECT(p.warpSize == 64, "warp size %d", p.warpSize);
    EXPECT(p.clockRate == mhz * 1000, "clock %d kHz, topology %d MHz", p.clockRate, mhz);
    EXPECT(p.totalGlobalMem == vram, "totalGlobalMem %zu, topology %llu", p.totalGlobalMem, vram);
    EXPECT(p.maxThreadsPerBlock == 1024, "maxThreadsPerBlock %d", p.maxThreadsPerBlock);
    EXPECT(p.sharedMemPerBlock == 65536, "sharedMemPerBlock %zu", p.sharedMemPerBlock);
    EXPECT(p.major == 9, "major %d", p.major);
    int v = 0;
    HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeMultiprocessorCount, d));
    EXPECT(v == cus, "attribute CU count %d", v);
    HIP_OK(hipDeviceGetAttribute(&v, hipDeviceAttributeWarpSize, d));
    EXPECT(v == 64, "attribute warp size %d", v);
    size_t free_b = 0, total_b = 0;
    HIP_OK(hipSetDevice(d));
    HIP_OK(hipMemGetInfo(&free_b, &total_b));
    EXPECT(total_b == vram && free_b <= total_b && free_b > 0, "hipMemGetInfo free %zu total %zu", free_b, total_b);
  }
  std::puts("ok");
  return 0;
}
