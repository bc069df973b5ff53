/* SPDX-License-Identifier: MIT */
/* fail_client.c — one hsa-sim --fail injection at a time (fail_inject.sh): the runtime's
 * set-up paths (init, signals, queues, memory, mappings) meet a refused kernel call. Each
 * step that fails must say so with an error status (never SUCCESS with broken state), the
 * same step tried again must work (the refusal was one call), a barrier packet must then run
 * to completion, and two whole cycles must leave the process as a clean run leaves it: the
 * counts of fds, threads and device mappings printed at the end are compared with a run
 * without injection.
 * Prints "step X failed: 0x..." for each refusal met, "counts fds=N threads=N", exit 0. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa.h"
#include "hsa_ext_amd.h"

#define FAIL(...) do { printf("FAIL "); printf(__VA_ARGS__); printf("\n"); exit(1); } while (0)

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t dev_pool, host_pool;

static hsa_status_t pool_cb(hsa_amd_memory_pool_t p, void *data) {
  hsa_amd_segment_t seg;
  uint32_t flags = 0;
  bool alloc = false;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (seg != HSA_AMD_SEGMENT_GLOBAL || !alloc) return HSA_STATUS_SUCCESS;
  if (data == &gpu && !dev_pool.handle) dev_pool = p;
  if (data == &cpu && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !host_pool.handle)
    host_pool = p;
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

/* Runs a step; a refusal must be an error status and the second try must work. */
#define STEP(name, call)                                                                  \
  do {                                                                                    \
    hsa_status_t st_ = (call);                                                            \
    if (st_ != HSA_STATUS_SUCCESS) {                                                      \
      printf("step %s failed: 0x%x\n", name, (unsigned)st_);                              \
      st_ = (call);                                                                       \
      if (st_ != HSA_STATUS_SUCCESS) FAIL("%s failed twice: 0x%x", name, (unsigned)st_); \
    }                                                                                     \
  } while (0)

static unsigned count(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) FAIL("opendir %s", dir);
  unsigned n = 0;
  while (readdir(d)) n++;
  closedir(d);
  return n;
}

/* Mappings of device memory and device files (the simulator's are memfds, a real GPU's
 * /dev/kfd and render nodes): anonymous ones merge with their neighbours depending on where
 * ASLR put them, so their count says nothing. */
static unsigned maps(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) FAIL("/proc/self/maps");
  unsigned n = 0;
  char line[512];
  while (fgets(line, sizeof(line), f))
    n += strstr(line, "/memfd:") != NULL || strstr(line, " /dev/") != NULL;
  fclose(f);
  return n;
}

static void cycle(void) {
  STEP("hsa_init", hsa_init());
  gpu.handle = cpu.handle = dev_pool.handle = host_pool.handle = 0;
  hsa_iterate_agents(agent_cb, NULL);
  if (!gpu.handle || !cpu.handle) FAIL("no GPU or CPU agent");
  hsa_amd_agent_iterate_memory_pools(gpu, pool_cb, &gpu);
  hsa_amd_agent_iterate_memory_pools(cpu, pool_cb, &cpu);
  if (!dev_pool.handle || !host_pool.handle) FAIL("no device or host pool");
  hsa_signal_t done;
  STEP("hsa_signal_create", hsa_signal_create(1, 0, NULL, &done));
  hsa_queue_t *q = NULL;
  STEP("hsa_queue_create",
       hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  void *dev = NULL, *host = NULL;
  STEP("device allocation", hsa_amd_memory_pool_allocate(dev_pool, 1 << 20, 0, &dev));
  STEP("host allocation", hsa_amd_memory_pool_allocate(host_pool, 1 << 20, 0, &host));
  STEP("hsa_amd_agents_allow_access", hsa_amd_agents_allow_access(1, &gpu, NULL, host));
  memset(host, 0x5a, 1 << 20);
  STEP("hsa_memory_copy", hsa_memory_copy(dev, host, 1 << 20));
  /* The GPU still works: a barrier packet completes its signal. */
  uint64_t idx = hsa_queue_add_write_index_relaxed(q, 1);
  hsa_barrier_and_packet_t *p = (hsa_barrier_and_packet_t *)q->base_address + idx % q->size;
  memset((char *)p + 4, 0, sizeof(*p) - 4);
  p->completion_signal = done;
  __atomic_store_n((uint32_t *)p, HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE,
                   __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
  if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 20ull * 1000000000ull,
                                HSA_WAIT_STATE_BLOCKED) != 0)
    FAIL("the barrier packet did not complete");
  STEP("hsa_amd_memory_pool_free", hsa_amd_memory_pool_free(dev));
  STEP("hsa_amd_memory_pool_free", hsa_amd_memory_pool_free(host));
  STEP("hsa_queue_destroy", hsa_queue_destroy(q));
  STEP("hsa_signal_destroy", hsa_signal_destroy(done));
  if (hsa_shut_down() != HSA_STATUS_SUCCESS) FAIL("hsa_shut_down");
}

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  cycle();
  cycle();
  printf("counts fds=%u threads=%u maps=%u\n", count("/proc/self/fd"), count("/proc/self/task"),
         maps());
  return 0;
}
