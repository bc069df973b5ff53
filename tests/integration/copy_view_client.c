/* SPDX-License-Identifier: MIT */
/* copy_view_client.c — copies move the data the GPU sees. ROCm's OpenCL runtime maps its own
 * pages over the CPU view of device allocations (mmap MAP_FIXED at the same address); a copy
 * made through the pointer's CPU view would then read and write those private pages, and the
 * GPU would never see the data. Here: a device buffer gets private pages over its CPU view
 * (filled with 0xAB), then host -> device and device -> host copies (sync and async) must
 * round-trip the host data, and the private pages must keep their 0xAB. A fill must reach
 * the GPU's view too. A later allocation reusing the freed range must be right as well.
 * Runs on our runtime and on ROCR 5.2.3 (the peer). Prints "ok ..."; exit 0 = pass. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hsa.h"
#include "hsa_ext_amd.h"

#define FAIL(...) do { printf("FAIL "); printf(__VA_ARGS__); printf("\n"); exit(1); } while (0)
#define CHECK(x) do { hsa_status_t s_ = (x); if (s_ != HSA_STATUS_SUCCESS) FAIL("%s: 0x%x", #x, (unsigned)s_); } while (0)

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t dev_pool, host_pool;
static int have_dev, have_host;

static hsa_status_t pool_cb(hsa_amd_memory_pool_t p, void *data) {
  hsa_amd_segment_t seg;
  uint32_t flags = 0;
  bool alloc = false;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
  if (seg != HSA_AMD_SEGMENT_GLOBAL || !alloc) return HSA_STATUS_SUCCESS;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (data == &gpu && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !have_dev)
    dev_pool = p, have_dev = 1;
  if (data == &cpu && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !have_host)
    host_pool = p, have_host = 1;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t agent_cb(hsa_agent_t a, void *data) {
  (void)data;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !gpu.handle) gpu = a;
  if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) cpu = a;
  return HSA_STATUS_SUCCESS;
}

static void *host_alloc(size_t n) {
  void *p;
  CHECK(hsa_amd_memory_pool_allocate(host_pool, n, 0, &p));
  CHECK(hsa_amd_agents_allow_access(1, &gpu, NULL, p));
  return p;
}

static void wait(hsa_signal_t s) {
  while (hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED) != 0) {
  }
}

/* A device buffer whose CPU view is replaced by private pages full of 0xAB. */
static uint8_t *shadowed_device(size_t n) {
  void *d;
  CHECK(hsa_amd_memory_pool_allocate(dev_pool, n, 0, &d));
  CHECK(hsa_amd_agents_allow_access(1, &cpu, NULL, d));
  void *m = mmap(d, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (m != d) FAIL("mmap over the device buffer's CPU view");
  memset(d, 0xab, n);
  return d;
}

static void check_private(const uint8_t *d, size_t n, const char *when) {
  for (size_t i = 0; i < n; i++)
    if (d[i] != 0xab) FAIL("%s: the CPU's private page was written at byte %zu (0x%x)", when, i, d[i]);
}

static void check_data(const uint8_t *got, size_t n, unsigned seed, const char *what) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != (uint8_t)(i * 7 + seed)) FAIL("%s: byte %zu is 0x%x, want 0x%x", what, i, got[i], (uint8_t)(i * 7 + seed));
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  CHECK(hsa_init());
  hsa_iterate_agents(agent_cb, NULL);
  if (!gpu.handle || !cpu.handle) FAIL("no GPU or CPU agent");
  hsa_amd_agent_iterate_memory_pools(gpu, pool_cb, &gpu);
  hsa_amd_agent_iterate_memory_pools(cpu, pool_cb, &cpu);
  if (!have_dev || !have_host) FAIL("no device or host pool");
  const size_t n = 256 * 1024;   /* above any size a runtime copies inline */
  uint8_t *src = host_alloc(n), *back = host_alloc(n);
  for (size_t i = 0; i < n; i++) src[i] = (uint8_t)(i * 7 + 1);

  uint8_t *d = shadowed_device(n);
  hsa_signal_t done;
  CHECK(hsa_signal_create(1, 0, NULL, &done));
  CHECK(hsa_amd_memory_async_copy(d, gpu, src, cpu, n, 0, NULL, done));
  wait(done);
  check_private(d, n, "async host-to-device copy");
  memset(back, 0, n);
  hsa_signal_store_relaxed(done, 1);
  CHECK(hsa_amd_memory_async_copy(back, cpu, d, gpu, n, 0, NULL, done));
  wait(done);
  check_data(back, n, 1, "async device-to-host copy");
  printf("ok async copies go through the GPU's view\n");

  /* Large copies (a runtime may cut them over its SDMA engines): two host-to-device copies in
   * flight at once, then device to device and back on one signal counting both. */
  {
    const size_t big = 9u * 1024 * 1024 + 12 * 1024;   /* not an even number of pages */
    uint8_t *s1 = host_alloc(big), *s2 = host_alloc(big), *b1 = host_alloc(big), *b2 = host_alloc(big);
    for (size_t i = 0; i < big; i++) s1[i] = (uint8_t)(i * 7 + 4), s2[i] = (uint8_t)(i * 7 + 5);
    uint8_t *d1 = shadowed_device(big), *d2 = shadowed_device(big), *d3 = shadowed_device(big);
    hsa_signal_t two;
    CHECK(hsa_signal_create(2, 0, NULL, &two));
    CHECK(hsa_amd_memory_async_copy(d1, gpu, s1, cpu, big, 0, NULL, two));
    CHECK(hsa_amd_memory_async_copy(d2, gpu, s2, cpu, big, 0, NULL, two));
    wait(two);
    hsa_signal_store_relaxed(two, 2);
    CHECK(hsa_amd_memory_async_copy(d3, gpu, d1, gpu, big, 0, NULL, two));
    CHECK(hsa_amd_memory_async_copy(b2, cpu, d2, gpu, big, 0, NULL, two));
    wait(two);
    hsa_signal_store_relaxed(two, 1);
    CHECK(hsa_amd_memory_async_copy(b1, cpu, d3, gpu, big, 0, NULL, two));
    wait(two);
    check_private(d1, big, "large copies");
    check_private(d3, big, "large copies");
    check_data(b1, big, 4, "large host -> device -> device -> host");
    check_data(b2, big, 5, "large host -> device -> host, two in flight");
    CHECK(hsa_signal_destroy(two));
    printf("ok large copies, two in flight, go through the GPU's view\n");
  }

  for (size_t i = 0; i < n; i++) src[i] = (uint8_t)(i * 7 + 2);
  CHECK(hsa_memory_copy(d, src, n));
  check_private(d, n, "hsa_memory_copy to the device");
  memset(back, 0, n);
  CHECK(hsa_memory_copy(back, d, n));
  check_data(back, n, 2, "hsa_memory_copy from the device");
  printf("ok hsa_memory_copy goes through the GPU's view\n");

  CHECK(hsa_amd_memory_fill(d, 0x01020304u, n / 4));
  check_private(d, n, "hsa_amd_memory_fill");
  CHECK(hsa_memory_copy(back, d, n));
  for (size_t i = 0; i < n / 4; i++)
    if (((uint32_t *)back)[i] != 0x01020304u) FAIL("fill: word %zu is 0x%x", i, ((uint32_t *)back)[i]);
  printf("ok fills reach the GPU's view\n");

  /* The process unmaps its private pages and frees the buffer; memory allocated after it
   * (possibly at the same address) must copy right. */
  munmap(d, n);
  CHECK(hsa_amd_memory_pool_free(d));
  uint8_t *d2;
  CHECK(hsa_amd_memory_pool_allocate(dev_pool, n, 0, (void **)&d2));
  CHECK(hsa_amd_agents_allow_access(1, &cpu, NULL, d2));
  for (size_t i = 0; i < n; i++) src[i] = (uint8_t)(i * 7 + 3);
  CHECK(hsa_memory_copy(d2, src, n));
  memset(back, 0, n);
  CHECK(hsa_memory_copy(back, d2, n));
  check_data(back, n, 3, "a later buffer");
  printf("ok later buffers copy right\n");
  CHECK(hsa_amd_memory_pool_free(d2));
  CHECK(hsa_signal_destroy(done));
  CHECK(hsa_shut_down());
  printf("ok shut_down\n");
  return 0;
}
