/* SPDX-License-Identifier: MIT */
/* mem_alloc.c — small allocation rate through hsa_amd_memory_pool_allocate/free: batches of
 * 64 allocations of one size (4, 16, 64 KiB) from the CPU's fine-grained pool and the first
 * GPU's device pool, each touched once by the CPU (device memory only when host-visible...
 * which the simulated boards are), then freed. Prints "pool size pairs_per_second" lines,
 * best of a few 0.3 s runs. Links only libhsa-runtime64.so.1, so the same binary measures
 * our runtime and ROCR. */
#include <hsa.h>
#include <hsa_ext_amd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static hsa_agent_t cpu, gpu;
static hsa_amd_memory_pool_t fine, device;

static hsa_status_t on_pool(hsa_amd_memory_pool_t p, void *d) {
  uint32_t f = 0;
  bool alloc = false;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &f);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
  if (!alloc) return HSA_STATUS_SUCCESS;
  if (d == &cpu && (f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) &&
      !(f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !fine.handle)
    fine = p;
  if (d == &gpu && (f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !device.handle)
    device = p;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t on_agent(hsa_agent_t a, void *d) {
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) cpu = a;
  if (t == HSA_DEVICE_TYPE_GPU && !gpu.handle) gpu = a;
  return HSA_STATUS_SUCCESS;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Allocation/free pairs per second. */
static double rate(hsa_amd_memory_pool_t pool, size_t size) {
  enum { BATCH = 64 };
  void *p[BATCH];
  double best = 0;
  for (int run = 0; run < 3; run++) {
    long pairs = 0;
    double t0 = now(), t;
    do {
      for (int i = 0; i < BATCH; i++) {
        if (hsa_amd_memory_pool_allocate(pool, size, 0, &p[i]) != HSA_STATUS_SUCCESS) {
          fprintf(stderr, "allocation of %zu failed\n", size);
          exit(1);
        }
        ((volatile char *)p[i])[0] = 1;
      }
      for (int i = 0; i < BATCH; i++) hsa_amd_memory_pool_free(p[i]);
      pairs += BATCH;
      t = now();
    } while (t - t0 < 0.3);
    double r = pairs / (t - t0);
    if (r > best) best = r;
  }
  return best;
}

int main(void) {
  if (hsa_init() != HSA_STATUS_SUCCESS) return 1;
  hsa_iterate_agents(on_agent, NULL);
  hsa_amd_agent_iterate_memory_pools(cpu, on_pool, &cpu);
  hsa_amd_agent_iterate_memory_pools(gpu, on_pool, &gpu);
  if (!fine.handle || !device.handle) return 1;
  static const size_t sizes[] = {4096, 16384, 65536};
  for (unsigned i = 0; i < 3; i++) {
    printf("fine %zu %.0f\n", sizes[i] / 1024, rate(fine, sizes[i]));
    printf("device %zu %.0f\n", sizes[i] / 1024, rate(device, sizes[i]));
  }
  hsa_shut_down();
  return 0;
}
