/* interop_client.c — copy profiling, SVM attributes and graphics interop, run once on Debian's
 * ROCR 5.2.3 and once on ours under the same simulated machine (interop_vs_rocr.sh compares
 * the output). Each line is a call and its status, or a fact the client computed itself.
 * Lines starting with "check " are facts that hold for our runtime only (the script requires
 * them there and leaves them out of the comparison). */
#define _GNU_SOURCE
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static hsa_agent_t cpu, gpus[8];
static unsigned ngpu;
static int ours;   /* argv[1] == "ours": also the calls ROCR 5.2.3 crashes on */
static hsa_amd_memory_pool_t cpu_fine, gpu_coarse;

static hsa_status_t on_agent(hsa_agent_t a, void *d) {
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && ngpu < 8) gpus[ngpu++] = a;
  else if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) cpu = a;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t on_pool(hsa_amd_memory_pool_t p, void *d) {
  uint32_t f = 0;
  hsa_amd_segment_t seg;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  if (seg != HSA_AMD_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &f);
  if (d == NULL && (f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) &&
      !(f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !cpu_fine.handle)
    cpu_fine = p;
  if (d != NULL && (f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !gpu_coarse.handle)
    gpu_coarse = p;
  return HSA_STATUS_SUCCESS;
}

#define SHOW(expr) printf("%-64s = 0x%x\n", #expr, (unsigned)(expr))

static uint64_t now(void) {
  uint64_t t = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t);
  return t;
}

static void wait0(hsa_signal_t s) {
  while (hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED) != 0) {
  }
}

/* One profiled copy: its status and, for ours, whether its times lie inside the host's
 * clock readings around it and the bytes arrived. */
static void timed_copy(const char *what, void *dst, hsa_agent_t da, const void *src,
                       hsa_agent_t sa, size_t n, hsa_signal_t done) {
  hsa_signal_store_screlease(done, 1);
  uint64_t t0 = now();
  hsa_status_t st = hsa_amd_memory_async_copy(dst, da, src, sa, n, 0, NULL, done);
  printf("%s: copy = 0x%x\n", what, st);
  if (st != HSA_STATUS_SUCCESS) return;
  wait0(done);
  uint64_t t1 = now();
  hsa_amd_profiling_async_copy_time_t t = {0, 0};
  st = hsa_amd_profiling_get_async_copy_time(done, &t);
  printf("%s: get_async_copy_time = 0x%x\n", what, st);
  printf("check %s: within host clock=%d\n", what,
         st == HSA_STATUS_SUCCESS && t0 <= t.start && t.start <= t.end && t.end <= t1);
}

static void profiling(void) {
  enum { N = 1 << 20 };
  hsa_signal_t done, fresh, bad = {0};
  hsa_signal_create(1, 0, NULL, &done);
  hsa_signal_create(1, 0, NULL, &fresh);
  hsa_amd_profiling_async_copy_time_t t;
  char *a = malloc(N), *b = malloc(N);
  for (int i = 0; i < N; i++) a[i] = (char)(i * 7 + 3);
  SHOW(hsa_amd_profiling_get_async_copy_time(fresh, NULL));
  SHOW(hsa_amd_profiling_get_async_copy_time(bad, &t));
  SHOW(hsa_amd_profiling_get_async_copy_time(fresh, &t));
  /* Not profiled yet: the copy leaves no times. */
  SHOW(hsa_amd_memory_async_copy(b, cpu, a, cpu, N, 0, NULL, done));
  wait0(done);
  SHOW(hsa_amd_profiling_get_async_copy_time(done, &t));
  SHOW(hsa_amd_profiling_async_copy_enable(true));
  memset(b, 0, N);
  timed_copy("host to host", b, cpu, a, cpu, N, done);
  printf("host to host bytes=%d\n", memcmp(a, b, N) == 0);
  /* Through device memory. */
  void *dev = NULL;
  if (ngpu && gpu_coarse.handle &&
      hsa_amd_memory_pool_allocate(gpu_coarse, N, 0, &dev) == HSA_STATUS_SUCCESS) {
    hsa_agent_t all[2] = {gpus[0], cpu};
    hsa_amd_agents_allow_access(2, all, NULL, a);
    hsa_amd_agents_allow_access(2, all, NULL, b);
    hsa_signal_t d2;
    hsa_signal_create(1, 0, NULL, &d2);
    void *la = NULL, *lb = NULL;
    hsa_amd_memory_lock(a, N, &gpus[0], 1, &la);
    hsa_amd_memory_lock(b, N, &gpus[0], 1, &lb);
    memset(b, 0, N);
    timed_copy("host to device", dev, gpus[0], la, cpu, N, d2);
    timed_copy("device to host", lb, cpu, dev, gpus[0], N, d2);
    printf("device round trip bytes=%d\n", memcmp(a, b, N) == 0);
    hsa_amd_memory_unlock(a);
    hsa_amd_memory_unlock(b);
    hsa_signal_destroy(d2);
    hsa_amd_memory_pool_free(dev);
  }
  SHOW(hsa_amd_profiling_async_copy_enable(false));
  /* A signal keeps its copy times; a new one copied without profiling has none. */
  SHOW(hsa_amd_profiling_get_async_copy_time(done, &t));
  hsa_signal_store_screlease(fresh, 1);
  SHOW(hsa_amd_memory_async_copy(b, cpu, a, cpu, N, 0, NULL, fresh));
  wait0(fresh);
  SHOW(hsa_amd_profiling_get_async_copy_time(fresh, &t));
  hsa_signal_destroy(done);
  hsa_signal_destroy(fresh);
  free(a);
  free(b);
}

static void interop(void) {
  size_t size = 0, msize = 0;
  void *ptr = NULL;
  const void *meta = NULL;
  hsa_agent_t bad_agent = {1};
  int fd = memfd_create("not-a-dmabuf", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, 65536) != 0) {
    printf("memfd failed\n");
    return;
  }
  hsa_agent_t *g = ngpu ? gpus : &cpu;
  SHOW(hsa_amd_interop_map_buffer(1, g, fd, 0, &size, &ptr, &msize, &meta));
  SHOW(hsa_amd_interop_map_buffer(1, g, fd, 0, &size, &ptr, NULL, NULL));
  SHOW(hsa_amd_interop_map_buffer(1, &cpu, fd, 0, &size, &ptr, NULL, NULL));
  SHOW(hsa_amd_interop_map_buffer(1, g, -1, 0, &size, &ptr, NULL, NULL));
  SHOW(hsa_amd_interop_map_buffer(1, NULL, fd, 0, &size, &ptr, NULL, NULL));
  SHOW(hsa_amd_interop_map_buffer(1, g, fd, 0, NULL, &ptr, NULL, NULL));
  SHOW(hsa_amd_interop_map_buffer(1, g, fd, 0, &size, NULL, NULL, NULL));
  SHOW(hsa_amd_interop_map_buffer(1, g, fd, 1, &size, &ptr, NULL, NULL));
  SHOW(hsa_amd_interop_map_buffer(0, g, fd, 0, &size, &ptr, NULL, NULL));
  /* ROCR 5.2.3 dereferences a bad agent handle and crashes: ours only. */
  if (ours)
    printf("check bad agent is INVALID_AGENT=%d\n",
           hsa_amd_interop_map_buffer(1, &bad_agent, fd, 0, &size, &ptr, NULL, NULL) ==
               HSA_STATUS_ERROR_INVALID_AGENT);
  printf("outputs untouched=%d\n", size == 0 && ptr == NULL && msize == 0 && meta == NULL);
  SHOW(hsa_amd_interop_unmap_buffer(NULL));
  SHOW(hsa_amd_interop_unmap_buffer(&size));
  close(fd);
}

int main(int argc, char **argv) {
  ours = argc > 1 && strcmp(argv[1], "ours") == 0;
  setvbuf(stdout, NULL, _IOLBF, 0);
  SHOW(hsa_amd_profiling_async_copy_enable(true));
  SHOW(hsa_amd_interop_unmap_buffer(NULL));
  if (hsa_init() != HSA_STATUS_SUCCESS) return 1;
  hsa_iterate_agents(on_agent, NULL);
  hsa_amd_agent_iterate_memory_pools(cpu, on_pool, NULL);
  if (ngpu) hsa_amd_agent_iterate_memory_pools(gpus[0], on_pool, gpus);
  printf("gpus=%u\n", ngpu);
  profiling();
  interop();
  hsa_shut_down();
  return 0;
}
