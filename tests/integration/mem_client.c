/* SPDX-License-Identifier: MIT */
/* mem_client.c — one client of the memory API, run once on Debian's ROCR 5.2.3 and once on
 * ours under the same simulated machine (mem_vs_rocr.sh compares the output). Each line is a
 * call and what it returned, or a fact the client computed itself (bytes read back, where a
 * pointer lies relative to another, which agents are listed), never a raw address. */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static hsa_agent_t cpu, gpus[8];
static unsigned ngpu;
static hsa_amd_memory_pool_t cpu_fine, cpu_coarse, cpu_kernarg, gpu_coarse[8];
static hsa_region_t sys_region;

static hsa_status_t on_agent(hsa_agent_t a, void *d) {
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && ngpu < 8) gpus[ngpu++] = a;
  else if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) cpu = a;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t on_pool(hsa_amd_memory_pool_t p, void *d) {
  uint32_t f = 0;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &f);
  long gi = (long)(intptr_t)d;
  if (gi < 0) {
    if (f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) cpu_kernarg = p;
    else if (f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) cpu_fine = p;
    else if (f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) cpu_coarse = p;
  } else if (f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) {
    gpu_coarse[gi] = p;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t on_region(hsa_region_t r, void *d) {
  uint32_t f = 0;
  hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &f);
  if ((f & HSA_REGION_GLOBAL_FLAG_FINE_GRAINED) && !(f & HSA_REGION_GLOBAL_FLAG_KERNARG) &&
      !sys_region.handle)
    sys_region = r;
  return HSA_STATUS_SUCCESS;
}

static const char *agent_name(hsa_agent_t a) {
  static char buf[16];
  if (a.handle == 0) return "none";
  if (a.handle == cpu.handle) return "cpu";
  for (unsigned i = 0; i < ngpu; i++)
    if (a.handle == gpus[i].handle) {
      snprintf(buf, sizeof buf, "gpu%u", i);
      return buf;
    }
  return "other";
}

#define SHOW(expr) printf("%-58s = 0x%x\n", #expr, (unsigned)(expr))

/* Pointer info: the base addresses as offsets from `ref` (agent) and `href` (host). */
static void info2(const char *what, const void *p, const void *ref, const void *href) {
  hsa_amd_pointer_info_t i;
  memset(&i, 0, sizeof i);
  i.size = sizeof i;
  uint32_t n = 0;
  hsa_agent_t *list = NULL;
  hsa_status_t st = hsa_amd_pointer_info(p, &i, malloc, &n, &list);
  printf("pointer_info(%s) = 0x%x type=%d", what, st, (int)i.type);
  if (i.type != HSA_EXT_POINTER_TYPE_UNKNOWN)
    printf(" agent_base=%+ld host_base=%s%+ld size=%zu owner=%s",
           (long)((char *)i.agentBaseAddress - (char *)ref),
           i.hostBaseAddress == NULL ? "null" : "host",
           i.hostBaseAddress ? (long)((char *)i.hostBaseAddress - (char *)href) : 0L,
           i.sizeInBytes, agent_name(i.agentOwner));
  printf(" accessible=");
  for (uint32_t k = 0; k < n; k++) printf("%s%s", k ? "," : "", agent_name(list[k]));
  printf("\n");
  free(list);
}

static void info(const char *what, const void *p, const void *ref) { info2(what, p, ref, ref); }

static int freed;
static void on_free(void *p, void *data) { freed += (int)(intptr_t)data; }

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  alarm(60);   /* a call that hangs fails the test instead of stalling it */
  if (hsa_init() != HSA_STATUS_SUCCESS) return 1;
  hsa_iterate_agents(on_agent, NULL);
  hsa_amd_agent_iterate_memory_pools(cpu, on_pool, (void *)(intptr_t)-1);
  for (unsigned i = 0; i < ngpu; i++)
    hsa_amd_agent_iterate_memory_pools(gpus[i], on_pool, (void *)(intptr_t)i);
  hsa_agent_iterate_regions(cpu, on_region, NULL);
  printf("gpus=%u\n", ngpu);
  void *p = NULL, *q = NULL, *d = NULL;
  hsa_region_t bad_region = {0};
  hsa_amd_memory_pool_t bad_pool = {0};
  hsa_agent_t bad_agent = {0};

  /* hsa_memory_allocate / free */
  SHOW(hsa_memory_allocate(sys_region, 0, &p));
  SHOW(hsa_memory_allocate(sys_region, 4096, NULL));
  SHOW(hsa_memory_allocate(bad_region, 4096, &p));
  SHOW(hsa_memory_allocate(sys_region, SIZE_MAX / 2, &p));
  SHOW(hsa_memory_allocate(sys_region, 10000, &p));
  memset(p, 0x5a, 10000);
  printf("readback=%d\n", ((unsigned char *)p)[9999] == 0x5a);
  info("region alloc + 100", (char *)p + 100, p);
  SHOW(hsa_memory_free((char *)p + 4096));
  SHOW(hsa_memory_free(p));
  SHOW(hsa_memory_free(p));
  SHOW(hsa_memory_free(NULL));
  int local = 0;
  SHOW(hsa_memory_free(&local));

  /* pools */
  SHOW(hsa_amd_memory_pool_allocate(cpu_fine, 0, 0, &p));
  SHOW(hsa_amd_memory_pool_allocate(cpu_fine, 4096, 0x100, &p));
  SHOW(hsa_amd_memory_pool_allocate(cpu_fine, 4096, 0, NULL));
  SHOW(hsa_amd_memory_pool_allocate(bad_pool, 4096, 0, &p));
  SHOW(hsa_amd_memory_pool_allocate(cpu_fine, SIZE_MAX / 2, 0, &p));
  SHOW(hsa_amd_memory_pool_allocate(gpu_coarse[0], SIZE_MAX / 2, 0, &p));
  SHOW(hsa_amd_memory_pool_allocate(cpu_fine, 3000, 0, &p));
  SHOW(hsa_amd_memory_pool_allocate(cpu_coarse, 8192, 0, &q));
  SHOW(hsa_amd_memory_pool_allocate(gpu_coarse[0], 65536, 0, &d));
  memset(p, 1, 3000);
  memset(q, 2, 8192);
  printf("readback=%d\n", ((unsigned char *)p)[2999] == 1 && ((unsigned char *)q)[8191] == 2);
  info("fine + 1", (char *)p + 1, p);
  info("coarse", q, q);
  info("device + 4000", (char *)d + 4000, d);
  info("stack", &local, &local);

  SHOW(hsa_amd_pointer_info(NULL, &(hsa_amd_pointer_info_t){.size = 64}, NULL, NULL, NULL));
  SHOW(hsa_amd_pointer_info(p, NULL, NULL, NULL, NULL));
  SHOW(hsa_amd_pointer_info(p, &(hsa_amd_pointer_info_t){.size = 0}, NULL, NULL, NULL));
  SHOW(hsa_amd_pointer_info_set_userdata(p, (void *)0x1234));
  SHOW(hsa_amd_pointer_info_set_userdata(&local, (void *)0x1234));
  SHOW(hsa_amd_pointer_info_set_userdata(NULL, (void *)0x1234));
  {
    hsa_amd_pointer_info_t i = {.size = sizeof i};
    hsa_amd_pointer_info(p, &i, NULL, NULL, NULL);
    printf("userdata=%d\n", i.userData == (void *)0x1234);
  }

  /* allow access */
  SHOW(hsa_amd_agents_allow_access(0, gpus, NULL, p));
  SHOW(hsa_amd_agents_allow_access(1, NULL, NULL, p));
  SHOW(hsa_amd_agents_allow_access(1, gpus, (uint32_t[]){0}, p));
  SHOW(hsa_amd_agents_allow_access(1, gpus, NULL, NULL));
  SHOW(hsa_amd_agents_allow_access(1, &bad_agent, NULL, p));
  SHOW(hsa_amd_agents_allow_access(1, gpus, NULL, (char *)p + 64));
  SHOW(hsa_amd_agents_allow_access(1, gpus, NULL, &local));
  SHOW(hsa_amd_agents_allow_access(1, &gpus[ngpu - 1], NULL, p));
  info("fine after allow last gpu", p, p);
  SHOW(hsa_amd_agents_allow_access(1, &cpu, NULL, p));
  info("fine after allow cpu", p, p);
  SHOW(hsa_amd_agents_allow_access(ngpu, gpus, NULL, q));
  info("coarse after allow all", q, q);
  SHOW(hsa_amd_agents_allow_access(1, &gpus[ngpu - 1], NULL, d));
  info("device after allow last gpu", d, d);

  /* deallocation callbacks */
  SHOW(hsa_amd_register_deallocation_callback(NULL, on_free, NULL));
  SHOW(hsa_amd_register_deallocation_callback(p, NULL, NULL));
  SHOW(hsa_amd_register_deallocation_callback(&local, on_free, NULL));
  SHOW(hsa_amd_register_deallocation_callback((char *)p + 8, on_free, (void *)1));
  SHOW(hsa_amd_register_deallocation_callback(p, on_free, (void *)10));
  SHOW(hsa_amd_register_deallocation_callback(q, on_free, (void *)100));
  SHOW(hsa_amd_deregister_deallocation_callback(q, on_free));
  SHOW(hsa_amd_deregister_deallocation_callback(q, on_free));
  SHOW(hsa_amd_deregister_deallocation_callback(&local, on_free));

  /* Fill and copy host memory no GPU maps (ROCR would use a GPU blit kernel otherwise, and
   * the simulator does not execute kernels yet). */
  void *f = NULL;
  SHOW(hsa_amd_memory_pool_allocate(cpu_coarse, 8192, 0, &f));
  SHOW(hsa_amd_memory_fill((char *)f + 2, 7, 4));
  SHOW(hsa_amd_memory_fill(NULL, 7, 4));
  SHOW(hsa_amd_memory_fill(f, 0xabcdef01u, 0));
  SHOW(hsa_amd_memory_fill(f, 0xabcdef01u, 8192 / 4));
  printf("filled=%d\n", ((uint32_t *)f)[2047] == 0xabcdef01u && ((uint32_t *)f)[0] == 0xabcdef01u);
  SHOW(hsa_memory_copy(p, f, 3000));
  printf("copied=%d\n", memcmp(p, f, 3000) == 0);
  SHOW(hsa_memory_copy(NULL, f, 1));
  SHOW(hsa_memory_copy(p, NULL, 1));
  SHOW(hsa_memory_copy(p, f, 0));
  SHOW(hsa_amd_memory_pool_free(f));

  /* migration and placement */
  bool can = true;
  SHOW(hsa_amd_memory_pool_can_migrate(cpu_fine, gpu_coarse[0], &can));
  printf("can_migrate=%d\n", can);
  SHOW(hsa_amd_memory_pool_can_migrate(cpu_fine, gpu_coarse[0], NULL));
  SHOW(hsa_amd_memory_pool_can_migrate(bad_pool, gpu_coarse[0], &can));
  SHOW(hsa_amd_memory_migrate(p, gpu_coarse[0], 0));
  SHOW(hsa_amd_memory_migrate(p, gpu_coarse[0], 1));
  SHOW(hsa_amd_memory_migrate(p, bad_pool, 0));
  SHOW(hsa_memory_assign_agent(p, gpus[0], HSA_ACCESS_PERMISSION_RW));
  SHOW(hsa_memory_assign_agent(p, bad_agent, HSA_ACCESS_PERMISSION_RW));
  SHOW(hsa_memory_assign_agent(p, gpus[0], (hsa_access_permission_t)7));
  SHOW(hsa_memory_register(p, 0));
  SHOW(hsa_memory_register(NULL, 0));
  SHOW(hsa_memory_register(p, 3000));
  SHOW(hsa_memory_deregister(p, 3000));

  /* frees run the callbacks once each */
  SHOW(hsa_amd_memory_pool_free(p));
  SHOW(hsa_amd_memory_pool_free(q));
  SHOW(hsa_amd_memory_pool_free(d));
  printf("callbacks=%d\n", freed);
  info("freed", p, p);

  /* locking host memory */
  char *host = malloc(5 * 4096);
  char *h = host + 100;
  void *ap = NULL;
  SHOW(hsa_amd_memory_lock(h, 0, NULL, 0, &ap));
  SHOW(hsa_amd_memory_lock(NULL, 10, NULL, 0, &ap));
  SHOW(hsa_amd_memory_lock(h, 10, NULL, 0, NULL));
  SHOW(hsa_amd_memory_lock(h, 10, NULL, 1, &ap));
  SHOW(hsa_amd_memory_lock(h, 10, gpus, 0, &ap));
  SHOW(hsa_amd_memory_lock(h, 10, &bad_agent, 1, &ap));
  SHOW(hsa_amd_memory_lock(h, 10, &cpu, 1, &ap));
  printf("cpu-only lock returns host=%d\n", ap == h);
  SHOW(hsa_amd_memory_lock(h, 9000, NULL, 0, &ap));
  printf("page offset kept=%d differs from host=%d\n",
         ((uintptr_t)ap & 4095) == ((uintptr_t)h & 4095), ap != (void *)h);
  info2("locked host + 10", h + 10, ap, h);
  info2("locked agent + 10", (char *)ap + 10, ap, h);
  SHOW(hsa_amd_memory_unlock(h));
  info("unlocked", h, h);
  SHOW(hsa_amd_memory_unlock(h));
  SHOW(hsa_amd_memory_lock_to_pool(h, 10, NULL, 0, gpu_coarse[0], 0, &ap));
  SHOW(hsa_amd_memory_lock_to_pool(h, 10, NULL, 0, cpu_fine, 1, &ap));
  SHOW(hsa_amd_memory_lock_to_pool(h, 10, NULL, 0, bad_pool, 0, &ap));
  SHOW(hsa_amd_memory_lock_to_pool(h, 10, NULL, 0, cpu_fine, 0, &ap));
  info2("locked to fine pool", h, ap, h);
  SHOW(hsa_amd_memory_unlock(h));
  free(host);

  /* Copies through device memory (ROCR uses its blit kernels or SDMA here) and asynchronous
   * copies with a dependency. */
  {
    enum { N = 256 * 1024 };
    void *hs = NULL, *hd = NULL, *dv = NULL;
    SHOW(hsa_memory_allocate(sys_region, N, &hs));
    SHOW(hsa_memory_allocate(sys_region, N, &hd));
    SHOW(hsa_amd_memory_pool_allocate(gpu_coarse[0], N, 0, &dv));
    for (unsigned k = 0; k < N; k++) ((unsigned char *)hs)[k] = (unsigned char)(k * 7 + 1);
    SHOW(hsa_memory_copy(dv, hs, N));
    SHOW(hsa_memory_copy(hd, dv, N));
    printf("device round trip=%d\n", memcmp(hs, hd, N) == 0);

    hsa_signal_t dep, done, bad = {0};
    hsa_signal_create(1, 0, NULL, &dep);
    hsa_signal_create(1, 0, NULL, &done);
    memset(hd, 0, N);
    SHOW(hsa_amd_memory_async_copy(NULL, cpu, hs, cpu, N, 0, NULL, done));
    SHOW(hsa_amd_memory_async_copy(hd, cpu, hs, cpu, N, 1, NULL, done));
    SHOW(hsa_amd_memory_async_copy(hd, cpu, hs, cpu, N, 0, &dep, done));
    SHOW(hsa_amd_memory_async_copy(hd, bad_agent, hs, cpu, N, 0, NULL, done));
    SHOW(hsa_amd_memory_async_copy(hd, cpu, hs, cpu, N, 0, NULL, bad));
    SHOW(hsa_amd_memory_async_copy(hd, cpu, hs, cpu, N, 1, &bad, done));
    SHOW(hsa_amd_memory_async_copy(hd, cpu, hs, cpu, 0, 0, NULL, done));
    printf("size 0 leaves completion=%ld\n", (long)hsa_signal_load_scacquire(done));
    SHOW(hsa_amd_memory_async_copy(hd, cpu, hs, cpu, N, 1, &dep, done));
    usleep(20000);
    printf("waits for its dependency=%ld\n", (long)hsa_signal_load_scacquire(done));
    hsa_signal_store_screlease(dep, 0);
    printf("completes=%ld\n", (long)hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0,
                                                              UINT64_MAX, HSA_WAIT_STATE_BLOCKED));
    printf("async host copy=%d\n", memcmp(hs, hd, N) == 0);

    memset(hd, 0, N);
    hsa_signal_store_screlease(done, 2);
    SHOW(hsa_amd_memory_async_copy(dv, gpus[0], hs, cpu, N, 0, NULL, done));
    SHOW(hsa_amd_memory_async_copy(hd, cpu, dv, gpus[0], N, 0, NULL, done));
    hsa_signal_value_t v;
    while ((v = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                          HSA_WAIT_STATE_BLOCKED)) != 0) {
    }
    printf("async device copies done\n");
    hsa_signal_destroy(dep);
    hsa_signal_destroy(done);
    SHOW(hsa_memory_free(hs));
    SHOW(hsa_memory_free(hd));
    SHOW(hsa_amd_memory_pool_free(dv));
  }

  SHOW(hsa_shut_down());
  return 0;
}
