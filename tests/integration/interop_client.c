/* SPDX-License-Identifier: MIT */
/* interop_client.c — copy profiling, SVM attributes and graphics interop, run once on Debian's
 * ROCR 5.2.3 and once on ours under the same simulated machine (interop_vs_rocr.sh compares
 * the output). Each line is a call and its status, or a fact the client computed itself.
 * Lines starting with "check " are facts that hold for our runtime only (the script requires
 * them there and leaves them out of the comparison). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
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

static const char *agent_name(uint64_t h) {
  static char buf[16];
  if (h == 0) return "none";
  if (h == cpu.handle) return "cpu";
  for (unsigned i = 0; i < ngpu; i++)
    if (h == gpus[i].handle) {
      snprintf(buf, sizeof buf, "gpu%u", i);
      return buf;
    }
  return "other";
}

typedef hsa_amd_svm_attribute_pair_t pair_t;

/* Queries the usual attributes over [p, p+n) and prints them. */
static void svm_show(const char *what, void *p, size_t n) {
  pair_t q[8] = {
    {HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 0},          {HSA_AMD_SVM_ATTRIB_READ_ONLY, 0},
    {HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, 0},   {HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, 0},
    {HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, cpu.handle}, {HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 0},
    {HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, ngpu ? gpus[0].handle : cpu.handle},
    {HSA_AMD_SVM_ATTRIB_HIVE_LOCAL, 0},
  };
  hsa_status_t st = hsa_amd_svm_attributes_get(p, n, q, 8);
  printf("svm get(%s) = 0x%x global=%lu ro=%lu preferred=%s granularity=%lu cpu=0x%lx "
         "mostly=%lu gpu0=0x%lx hive=%lu\n", what, st, (unsigned long)q[0].value,
         (unsigned long)q[1].value, agent_name(q[2].value), (unsigned long)q[3].value,
         (unsigned long)q[4].attribute, (unsigned long)q[5].value,
         (unsigned long)q[6].attribute, (unsigned long)q[7].value);
}

static void svm(void) {
  enum { PG = 4096 };
  char *m = mmap(NULL, 4 * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  hsa_agent_t g0 = ngpu ? gpus[0] : cpu;
  svm_show("fresh", m, 4 * PG);
  pair_t a[4] = {{HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED},
                 {HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, g0.handle},
                 {HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, g0.handle},
                 {HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY, 30}};
  SHOW(hsa_amd_svm_attributes_set(m, 4 * PG, a, 4));
  svm_show("all", m, 4 * PG);
  /* Part of page 1 only: the whole page takes it. */
  pair_t ro[2] = {{HSA_AMD_SVM_ATTRIB_READ_ONLY, 1}, {HSA_AMD_SVM_ATTRIB_READ_MOSTLY, 1}};
  SHOW(hsa_amd_svm_attributes_set(m + PG + 100, 10, ro, 2));
  svm_show("page 1", m + PG, PG);
  svm_show("page 0", m, PG);
  svm_show("all after page 1", m, 4 * PG);
  pair_t c[3] = {{HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, cpu.handle},
                 {HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS, cpu.handle},
                 {HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED}};
  SHOW(hsa_amd_svm_attributes_set(m + 2 * PG, PG, c, 3));
  svm_show("page 2", m + 2 * PG, PG);
  svm_show("pages 2-3", m + 2 * PG, 2 * PG);
  pair_t none = {HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, 0};
  SHOW(hsa_amd_svm_attributes_set(m + 3 * PG, PG, &none, 1));
  svm_show("page 3", m + 3 * PG, PG);
  /* Errors. */
  pair_t dup[2] = {{HSA_AMD_SVM_ATTRIB_READ_ONLY, 1}, {HSA_AMD_SVM_ATTRIB_READ_ONLY, 0}};
  SHOW(hsa_amd_svm_attributes_set(m, PG, dup, 2));
  pair_t dupa[2] = {{HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, g0.handle},
                    {HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS, g0.handle}};
  SHOW(hsa_amd_svm_attributes_set(m, PG, dupa, 2));
  pair_t badflag = {HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG, 7};
  SHOW(hsa_amd_svm_attributes_set(m, PG, &badflag, 1));
  pair_t unknown = {99, 0};
  SHOW(hsa_amd_svm_attributes_set(m, PG, &unknown, 1));
  SHOW(hsa_amd_svm_attributes_get(m, PG, &unknown, 1));
  pair_t pf = {HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION, g0.handle};
  SHOW(hsa_amd_svm_attributes_set(m, PG, &pf, 1));
  pair_t q = {HSA_AMD_SVM_ATTRIB_ACCESS_QUERY, g0.handle};
  SHOW(hsa_amd_svm_attributes_set(m, PG, &q, 1));
  pair_t ok = {HSA_AMD_SVM_ATTRIB_READ_ONLY, 0};
  SHOW(hsa_amd_svm_attributes_set(NULL, PG, &ok, 1));
  char *gone = mmap(NULL, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  munmap(gone, PG);
  SHOW(hsa_amd_svm_attributes_set(gone, PG, &ok, 1));
  SHOW(hsa_amd_svm_attributes_get(gone, PG, &ok, 1));
  void *pool = NULL;
  if (hsa_amd_memory_pool_allocate(cpu_fine, PG, 0, &pool) == HSA_STATUS_SUCCESS) {
    SHOW(hsa_amd_svm_attributes_set(pool, PG, &ok, 1));
    /* Once a GPU maps it, the kernel refuses SVM attributes there. */
    if (ngpu && hsa_amd_agents_allow_access(1, &g0, NULL, pool) == HSA_STATUS_SUCCESS)
      SHOW(hsa_amd_svm_attributes_set(pool, PG, &ok, 1));
    hsa_amd_memory_pool_free(pool);
  }
  if (ours) {
    hsa_agent_t bad = {1};
    pair_t ba = {HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, bad.handle};
    printf("check bad agent in set is INVALID_AGENT=%d\n",
           hsa_amd_svm_attributes_set(m, PG, &ba, 1) == HSA_STATUS_ERROR_INVALID_AGENT);
    printf("check bad prefetch agent is INVALID_AGENT=%d\n",
           hsa_amd_svm_prefetch_async(m, PG, bad, 0, NULL, (hsa_signal_t){0}) ==
               HSA_STATUS_ERROR_INVALID_AGENT);
  }
  /* Prefetch: after its dependency, then the completion signal. */
  hsa_signal_t dep, done;
  hsa_signal_create(1, 0, NULL, &dep);
  hsa_signal_create(1, 0, NULL, &done);
  SHOW(hsa_amd_svm_prefetch_async(m, 4 * PG, g0, 0, NULL, done));
  wait0(done);
  pair_t where = {HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION, 0};
  SHOW(hsa_amd_svm_attributes_get(m, 4 * PG, &where, 1));
  printf("prefetched to %s\n", agent_name(where.value));
  hsa_signal_store_screlease(done, 1);
  SHOW(hsa_amd_svm_prefetch_async(m, 4 * PG, cpu, 1, &dep, done));
  usleep(20000);
  printf("prefetch waits for its dependency=%ld\n", (long)hsa_signal_load_scacquire(done));
  hsa_signal_store_screlease(dep, 0);
  wait0(done);
  SHOW(hsa_amd_svm_attributes_get(m, 4 * PG, &where, 1));
  printf("prefetched to %s\n", agent_name(where.value));
  SHOW(hsa_amd_svm_prefetch_async(m, PG, g0, 0, NULL, (hsa_signal_t){0}));
  hsa_signal_destroy(dep);
  hsa_signal_destroy(done);
  /* m stays mapped: the last prefetch has no signal to say when it is done. */
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
  svm();
  interop();
  hsa_shut_down();
  return 0;
}
