/* SPDX-License-Identifier: MIT */
/* vmem_client.c — hsa_amd_vmem_* on one GPU. "client CODE_OBJECT MINOR" (MINOR: the KFD level
 * hsa-sim answers as). From KFD 1.15: one memory handle mapped at two addresses of a reserved
 * range is one memory (the CPU writes through the first, reads through the second; a kernel
 * copies out of the second mapping what the CPU wrote into the first, and fills the first
 * where the CPU then reads the second); a part of the handle mapped from an offset shows that
 * part; a handle exported as a dma-buf and imported again shows the same bytes; access rights
 * are what get_access answers; a kernel writing where the GPU may only read faults (queue
 * error) and leaves the bytes alone; a child process reading where the CPU has no access dies
 * of SIGSEGV. The statuses of ROCR for a range still mapped, a wrong size, unknown handles
 * and addresses, overlapping or outside mappings, partial unmaps, a system pool, a bad type.
 * Below 1.15: reserving a registered range and creating a handle are INVALID_ARGUMENT and
 * HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED is false; a NO_REGISTER range still works.
 * One "name ok" / "name FAIL why" line each. */
#define _GNU_SOURCE   /* memfd_create */
#include <signal.h>
#include <sys/mman.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CLIENT_CHECK_COUNTS
#define CLIENT_QUEUE_ERRORS
#include "lib/client.h"

#define S (64u * 1024u)   /* one handle */
#define N (S / 4)

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t vram, sysmem;
static struct client_regions regions;
static hsa_queue_t *queue, *first_queue;
static struct client_kernel kcopy, kfill;
static uint32_t *kernarg;

/* dst[i] = src[i] (copy) or buf[i] = i * seed + 7 (fill) over N items; false on a timeout */
static bool run(const struct client_kernel *k, void *a, void *b, uint32_t seed)
{
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  memset(kernarg, 0, 64);
  memcpy(kernarg, &a, 8);
  if (k == &kcopy) {
    memcpy(kernarg + 2, &b, 8);
    kernarg[4] = N;
  } else {
    kernarg[2] = N;
    kernarg[3] = seed;
  }
  client_dispatch(queue, k, kernarg, N, 256, done);
  bool ok = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 20000000000ull,
                                      HSA_WAIT_STATE_BLOCKED) == 0;
  hsa_signal_destroy(done);
  return ok;
}

static size_t first_bad(const uint32_t *p, uint32_t seed)
{
  for (uint32_t i = 0; i < N; i++)
    if (p[i] != i * seed + 7) return i;
  return N;
}

static void fill_host(uint32_t *p, uint32_t seed)
{
  for (uint32_t i = 0; i < N; i++) p[i] = i * seed + 7;
}

static hsa_amd_memory_access_desc_t desc(hsa_agent_t a, hsa_access_permission_t p)
{
  hsa_amd_memory_access_desc_t d = {p, a};
  return d;
}

/* "peer" (two GPUs): a handle of the first GPU's VRAM mapped once and given to both GPUs
 * and the CPU is one memory for all three: the second GPU takes the object in on its own
 * render node (another device's dma-buf becomes an object of its own over the same pages) */
static hsa_agent_t gpu2;
static hsa_status_t second_gpu(hsa_agent_t a, void *data)
{
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && a.handle != gpu.handle && !gpu2.handle) gpu2 = a;
  (void)data;
  return HSA_STATUS_SUCCESS;
}

static int peer_mode(const char *co)
{
  hsa_iterate_agents(second_gpu, NULL);
  hsa_executable_t ex2;
  struct client_kernel c2, f2;
  hsa_queue_t *q2 = NULL;
  if (!gpu2.handle || client_load_file(gpu2, co, HSA_PROFILE_FULL, &ex2) != HSA_STATUS_SUCCESS ||
      client_kernel(ex2, gpu2, "copy.kd", &c2) != HSA_STATUS_SUCCESS ||
      client_kernel(ex2, gpu2, "fill.kd", &f2) != HSA_STATUS_SUCCESS ||
      hsa_queue_create(gpu2, 256, HSA_QUEUE_TYPE_MULTI, on_error, NULL, UINT32_MAX, UINT32_MAX,
                       &q2) != HSA_STATUS_SUCCESS) {
    printf("peer_setup FAIL\n");
    return 1;
  }
  void *va = NULL;
  hsa_amd_vmem_alloc_handle_t h = {0};
  uint32_t *out = NULL;
  hsa_agent_t both[2] = {gpu, gpu2};
  bool set = hsa_amd_vmem_address_reserve(&va, S, 0, 0) == 0 &&
             hsa_amd_vmem_handle_create(vram, S, MEMORY_TYPE_NONE, 0, &h) == 0 &&
             hsa_amd_vmem_map(va, S, 0, h, 0) == 0 &&
             hsa_amd_memory_pool_allocate(sysmem, S, 0, (void **)&out) == 0 &&
             hsa_amd_agents_allow_access(2, both, NULL, out) == 0;
  hsa_amd_memory_access_desc_t rw[3] = {desc(cpu, HSA_ACCESS_PERMISSION_RW),
                                        desc(gpu, HSA_ACCESS_PERMISSION_RW),
                                        desc(gpu2, HSA_ACCESS_PERMISSION_RW)};
  hsa_status_t sa = set ? hsa_amd_vmem_set_access(va, S, rw, 3) : HSA_STATUS_ERROR;
  hsa_access_permission_t p2 = HSA_ACCESS_PERMISSION_NONE;
  hsa_amd_vmem_get_access(va, &p2, gpu2);
  uint32_t nacc = 0;
  hsa_agent_t *acc = NULL;
  hsa_amd_pointer_info_t pi = {.size = sizeof pi};
  hsa_amd_pointer_info(va, &pi, malloc, &nacc, &acc);
  free(acc);
  CHECK("peer_access", set && sa == 0 && p2 == HSA_ACCESS_PERMISSION_RW && nacc == 2,
        "set %d set_access 0x%x perm %d agents %u", set, sa, p2, nacc);
  if (!set || sa) return 1;
  /* the CPU writes, the second GPU reads; the second GPU writes, the CPU and the first GPU
   * read */
  fill_host(va, 3);
  memset(out, 0, S);
  struct client_kernel c1 = kcopy, f1 = kfill;   /* run() tells the kernels apart by address */
  queue = q2, kcopy = c2, kfill = f2;
  bool r1 = run(&kcopy, out, va, 0);
  size_t b1 = first_bad(out, 3);
  bool r2 = run(&kfill, va, NULL, 5);
  size_t b2 = first_bad(va, 5);
  memset(out, 0, S);
  queue = first_queue, kcopy = c1, kfill = f1;
  bool r3 = run(&kcopy, out, va, 0);
  size_t b3 = first_bad(out, 5);
  CHECK("peer_one_memory", r1 && r2 && r3 && b1 == N && b2 == N && b3 == N,
        "ran %d %d %d first bad %zu %zu %zu", r1, r2, r3, b1, b2, b3);
  hsa_amd_vmem_unmap(va, S);
  hsa_amd_vmem_handle_release(h);
  hsa_amd_vmem_address_free(va, S);
  hsa_amd_memory_pool_free(out);
  hsa_queue_destroy(q2);
  return failures != 0;
}

int main(int argc, char **argv)
{
  if (argc < 3) return 2;
  unsigned minor = (unsigned)atoi(argv[2]);
  if (hsa_init() != HSA_STATUS_SUCCESS) {
    printf("init FAIL\n");
    return 1;
  }
  client_pick_memory(&gpu, &cpu, &vram, &sysmem);
  if (cpu.handle)
    hsa_agent_iterate_regions(cpu, client_pick_regions, &regions);
  hsa_executable_t ex;
  if (!gpu.handle || !vram.handle || !sysmem.handle || !regions.kernarg.handle ||
      client_load_file(gpu, argv[1], HSA_PROFILE_FULL, &ex) != HSA_STATUS_SUCCESS ||
      client_kernel(ex, gpu, "copy.kd", &kcopy) != HSA_STATUS_SUCCESS ||
      client_kernel(ex, gpu, "fill.kd", &kfill) != HSA_STATUS_SUCCESS ||
      hsa_memory_allocate(regions.kernarg, 64, (void **)&kernarg) != HSA_STATUS_SUCCESS ||
      hsa_queue_create(gpu, 256, HSA_QUEUE_TYPE_MULTI, on_error, NULL, UINT32_MAX, UINT32_MAX,
                       &queue) != HSA_STATUS_SUCCESS) {
    printf("setup FAIL\n");
    return 1;
  }
  first_queue = queue;
  if (argc > 3 && strcmp(argv[3], "peer") == 0) {
    int rc = peer_mode(argv[1]);
    hsa_shut_down();
    return rc;
  }
  bool supported = true;
  hsa_system_get_info(HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED, &supported);
  void *host = NULL;
  hsa_status_t st = hsa_amd_vmem_address_reserve(&host, 4 * S, 0, HSA_AMD_VMEM_ADDRESS_NO_REGISTER);
  if (st == HSA_STATUS_SUCCESS) memset(host, 0x11, 4 * S);   /* host pages */
  CHECK("reserve_no_register", st == HSA_STATUS_SUCCESS && host &&
        hsa_amd_vmem_address_free(host, 4 * S) == HSA_STATUS_SUCCESS, "status 0x%x", st);
  void *va = NULL;
  hsa_amd_vmem_alloc_handle_t h = {0};
  hsa_status_t rs = hsa_amd_vmem_address_reserve(&va, 4 * S, 0, 0);
  hsa_status_t hs = hsa_amd_vmem_handle_create(vram, S, MEMORY_TYPE_NONE, 0, &h);
  if (minor < 15) {
    CHECK("refused", rs == HSA_STATUS_ERROR_INVALID_ARGUMENT &&
          hs == HSA_STATUS_ERROR_INVALID_ARGUMENT && !supported, "reserve 0x%x create 0x%x "
          "supported %d", rs, hs, supported);
    hsa_shut_down();
    return failures != 0;
  }
  CHECK("supported", supported, "system info says no");
  CHECK("reserve_create", rs == 0 && hs == 0 && va && h.handle && (uintptr_t)va % 4096 == 0,
        "reserve 0x%x create 0x%x", rs, hs);
  if (rs || hs) return 1;
  char *v = va;
  /* pointer info (interface 1.12/1.13): a reserved range alone is RESERVED_ADDR */
  hsa_amd_pointer_info_t pi0 = {.size = sizeof pi0};
  hsa_status_t pq0 = hsa_amd_pointer_info(v + 100, &pi0, NULL, NULL, NULL);
  hsa_status_t m1 = hsa_amd_vmem_map(v, S, 0, h, 0);
  hsa_status_t m2 = hsa_amd_vmem_map(v + S, S, 0, h, 0);
  hsa_access_permission_t p = HSA_ACCESS_PERMISSION_RW;
  hsa_status_t g0 = hsa_amd_vmem_get_access(v, &p, gpu);
  CHECK("map_twice", m1 == 0 && m2 == 0 && g0 == 0 && p == HSA_ACCESS_PERMISSION_NONE &&
        pq0 == 0 && pi0.type == HSA_EXT_POINTER_TYPE_RESERVED_ADDR && pi0.agentBaseAddress == va &&
        !pi0.registered,
        "map 0x%x 0x%x get 0x%x perm %d; pointer info 0x%x type %d base %p", m1, m2, g0, p, pq0,
        pi0.type, pi0.agentBaseAddress);
  hsa_amd_memory_access_desc_t rw[2] = {desc(cpu, HSA_ACCESS_PERMISSION_RW),
                                        desc(gpu, HSA_ACCESS_PERMISSION_RW)};
  st = hsa_amd_vmem_set_access(v, 2 * S, rw, 2);
  hsa_amd_vmem_get_access(v + S + 8, &p, gpu);
  /* a mapping of a handle is HSA_VMEM: its own range, known to the driver, GPU and CPU access */
  hsa_amd_pointer_info_t pi = {.size = sizeof pi};
  uint32_t nacc = 0;
  hsa_agent_t *acc = NULL;
  hsa_status_t pq = hsa_amd_pointer_info(v + S + 8, &pi, malloc, &nacc, &acc);
  CHECK("set_access", st == 0 && p == HSA_ACCESS_PERMISSION_RW && pq == 0 &&
        pi.type == HSA_EXT_POINTER_TYPE_HSA_VMEM && pi.agentBaseAddress == v + S &&
        pi.hostBaseAddress == v + S && pi.sizeInBytes == S && pi.registered &&
        pi.agentOwner.handle == gpu.handle &&
        (pi.alloc_flags & HSA_AMD_POINTER_INFO_ALLOC_FLAG_HOST_ACCESS) && nacc == 1 &&
        acc[0].handle == gpu.handle,
        "status 0x%x perm %d; pointer info 0x%x type %d base %p size %zu reg %d flags 0x%x "
        "agents %u", st, p, pq, pi.type, pi.agentBaseAddress, pi.sizeInBytes, pi.registered,
        pi.alloc_flags, nacc);
  free(acc);
  if (st) return 1;
  /* the CPU writes through one mapping and reads through the other */
  uint32_t *a = (uint32_t *)v, *b = (uint32_t *)(v + S);
  fill_host(a, 3);
  CHECK("cpu_alias", first_bad(b, 3) == N, "first bad %zu", first_bad(b, 3));
  /* the GPU reads the second mapping out into system memory, and fills the first */
  uint32_t *out = NULL;
  hsa_amd_memory_pool_allocate(sysmem, S, 0, (void **)&out);
  hsa_amd_agents_allow_access(1, &gpu, NULL, out);
  memset(out, 0, S);
  bool r1 = run(&kcopy, out, b, 0);
  CHECK("gpu_reads_alias", r1 && first_bad(out, 3) == N, "ran %d first bad %zu", r1,
        first_bad(out, 3));
  bool r2 = run(&kfill, a, NULL, 5);
  CHECK("gpu_writes_alias", r2 && first_bad(b, 5) == N, "ran %d first bad %zu", r2,
        first_bad(b, 5));
  /* part of the handle from an offset: its second half at the range's third quarter */
  hsa_status_t m3 = hsa_amd_vmem_map(v + 2 * S, S / 2, S / 2, h, 0);
  hsa_amd_memory_access_desc_t cpu_ro = desc(cpu, HSA_ACCESS_PERMISSION_RO);
  hsa_status_t s3 = hsa_amd_vmem_set_access(v + 2 * S, S / 2, &cpu_ro, 1);
  const uint32_t *c = (const uint32_t *)(v + 2 * S);
  CHECK("offset_map", m3 == 0 && s3 == 0 && c[0] == (N / 2) * 5 + 7 &&
        c[N / 2 - 1] == (N - 1) * 5 + 7, "map 0x%x access 0x%x first %u", m3, s3,
        m3 || s3 ? 0 : c[0]);
  /* retain from an address, properties, export and import of the handle */
  hsa_amd_vmem_alloc_handle_t hr = {0}, hi = {0};
  hsa_status_t rt = hsa_amd_vmem_retain_alloc_handle(&hr, v + S);
  hsa_status_t rt_bad = hsa_amd_vmem_retain_alloc_handle(&hr, v + S + 4096);
  hsa_amd_memory_pool_t pool = {0};
  hsa_amd_memory_type_t type = MEMORY_TYPE_PINNED;
  hsa_status_t pr = hsa_amd_vmem_get_alloc_properties_from_handle(hr, &pool, &type);
  CHECK("retain_properties", rt == 0 && hr.handle == h.handle && rt_bad ==
        HSA_STATUS_ERROR_INVALID_ALLOCATION && pr == 0 && pool.handle == vram.handle &&
        type == MEMORY_TYPE_NONE, "retain 0x%x 0x%x props 0x%x type %d", rt, rt_bad, pr, type);
  hsa_amd_vmem_handle_release(hr);
  int fd = -1;
  hsa_status_t xs = hsa_amd_vmem_export_shareable_handle(&fd, h, 0);
  hsa_status_t is = fd >= 0 ? hsa_amd_vmem_import_shareable_handle(fd, &hi) : HSA_STATUS_ERROR;
  void *v2 = NULL;
  hsa_amd_vmem_address_reserve(&v2, S, 0, 0);
  hsa_status_t m4 = is == 0 && v2 ? hsa_amd_vmem_map(v2, S, 0, hi, 0) : HSA_STATUS_ERROR;
  hsa_amd_memory_access_desc_t cpu_rw = desc(cpu, HSA_ACCESS_PERMISSION_RW);
  hsa_status_t s4 = m4 == 0 ? hsa_amd_vmem_set_access(v2, S, &cpu_rw, 1) : HSA_STATUS_ERROR;
  CHECK("export_import", xs == 0 && is == 0 && hi.handle != h.handle && m4 == 0 && s4 == 0 &&
        first_bad(v2, 5) == N, "export 0x%x import 0x%x map 0x%x access 0x%x", xs, is, m4, s4);
  if (fd >= 0) close(fd);
  /* statuses */
  hsa_amd_vmem_alloc_handle_t bogus = {0x12345};
  hsa_amd_vmem_alloc_handle_t sys_h = {0};
  void *sysva = NULL;
  hsa_status_t e1 = hsa_amd_vmem_address_free(va, 4 * S);            /* still mapped */
  hsa_status_t e2 = hsa_amd_vmem_address_free(va, 3 * S);            /* not its size */
  hsa_status_t e3 = hsa_amd_vmem_address_free(v + 4096, S);          /* no range there */
  hsa_status_t e4 = hsa_amd_vmem_map(v, S, 0, h, 0);                 /* mapped already */
  hsa_status_t e5 = hsa_amd_vmem_map(v + 3 * S, S, 0, bogus, 0);     /* no such handle */
  hsa_status_t e6 = hsa_amd_vmem_map(v + 3 * S, 2 * S, 0, h, 0);     /* past the range */
  hsa_status_t e7 = hsa_amd_vmem_unmap(v, S / 2);                    /* part of a mapping */
  hsa_status_t e8 = hsa_amd_vmem_handle_create(sysmem, S, MEMORY_TYPE_NONE, 0, &sys_h);
  hsa_status_t e9 = hsa_amd_vmem_handle_create(vram, S, (hsa_amd_memory_type_t)7, 0, &sys_h);
  hsa_status_t e10 = hsa_amd_vmem_handle_create(vram, 1000, MEMORY_TYPE_NONE, 0, &sys_h);
  hsa_status_t e11 = hsa_amd_vmem_handle_release(bogus);
  hsa_status_t e12 = hsa_amd_vmem_get_access(v + 3 * S, &p, gpu);   /* nothing mapped there */
  hsa_status_t e13 = hsa_amd_vmem_get_access(v, &p, cpu);           /* GPUs only, as ROCR */
  hsa_status_t e14 = hsa_amd_vmem_set_access(v + 3 * S, S, rw, 2);  /* nothing mapped */
  hsa_status_t e15 = hsa_amd_vmem_import_shareable_handle(-1, &sys_h);
  hsa_status_t e16 = hsa_amd_vmem_address_reserve(&sysva, 1000, 0, 0);   /* not pages */
  int notours = memfd_create("not-a-dmabuf", MFD_CLOEXEC);   /* a descriptor, not a dma-buf */
  hsa_status_t e17 = notours >= 0 && ftruncate(notours, S) == 0
                         ? hsa_amd_vmem_import_shareable_handle(notours, &sys_h)
                         : HSA_STATUS_ERROR;
  if (notours >= 0) close(notours);
  CHECK("statuses", e1 == HSA_STATUS_ERROR_RESOURCE_FREE && e2 == HSA_STATUS_ERROR_INVALID_ARGUMENT &&
        e3 == HSA_STATUS_ERROR_INVALID_ALLOCATION && e4 == HSA_STATUS_ERROR_INVALID_ARGUMENT &&
        e5 == HSA_STATUS_ERROR_INVALID_ARGUMENT && e6 == HSA_STATUS_ERROR_INVALID_ARGUMENT &&
        e7 == HSA_STATUS_ERROR_INVALID_ALLOCATION && e8 == HSA_STATUS_ERROR_INVALID_ARGUMENT &&
        e9 == HSA_STATUS_ERROR_INVALID_ARGUMENT && e10 == HSA_STATUS_ERROR_INVALID_ARGUMENT &&
        e11 == HSA_STATUS_ERROR_INVALID_ALLOCATION && e12 == HSA_STATUS_ERROR_INVALID_ALLOCATION &&
        e13 == HSA_STATUS_ERROR_INVALID_AGENT && e14 == HSA_STATUS_ERROR_INVALID_ALLOCATION &&
        e15 == HSA_STATUS_ERROR_INVALID_ARGUMENT && e16 == HSA_STATUS_ERROR_OUT_OF_RESOURCES &&
        e17 == HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS,
        "%x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x %x", e1, e2, e3, e4, e5, e6, e7, e8, e9,
        e10, e11, e12, e13, e14, e15, e16, e17);
  /* no CPU access: a child that reads there dies of SIGSEGV */
  hsa_amd_memory_access_desc_t cpu_none = desc(cpu, HSA_ACCESS_PERMISSION_NONE);
  hsa_status_t sn = hsa_amd_vmem_set_access(v + S, S, &cpu_none, 1);
  fflush(stdout);
  pid_t child = fork();
  if (child == 0) {
    volatile uint32_t x = b[5];
    (void)x;
    _exit(0);
  }
  int ws = 0;
  waitpid(child, &ws, 0);
  CHECK("cpu_no_access", sn == 0 && WIFSIGNALED(ws) && WTERMSIG(ws) == SIGSEGV && a[5] == 5 * 5 + 7,
        "access 0x%x child status 0x%x", sn, ws);
  /* the GPU may only read the first mapping: a kernel writing there faults, nothing written */
  hsa_amd_memory_access_desc_t gpu_ro = desc(gpu, HSA_ACCESS_PERMISSION_RO);
  hsa_status_t sr = hsa_amd_vmem_set_access(v, S, &gpu_ro, 1);
  hsa_amd_vmem_get_access(v, &p, gpu);
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  memset(kernarg, 0, 64);
  memcpy(kernarg, &a, 8);
  kernarg[2] = N;
  kernarg[3] = 9;
  client_dispatch(queue, &kfill, kernarg, N, 256, done);
  int errs = wait_error(20);
  CHECK("gpu_read_only_faults", sr == 0 && p == HSA_ACCESS_PERMISSION_RO && errs > 0 &&
        first_bad(a, 5) == N, "access 0x%x perm %d errors %d last 0x%x first bad %zu", sr, p,
        errs, last_error, first_bad(a, 5));
  /* unmapping everything frees the ranges and the handles */
  hsa_status_t u1 = hsa_amd_vmem_unmap(v, 2 * S);
  hsa_status_t u2 = hsa_amd_vmem_unmap(v + 2 * S, S / 2);
  hsa_status_t u3 = hsa_amd_vmem_unmap(v2, S);
  hsa_status_t r1h = hsa_amd_vmem_handle_release(h);
  hsa_status_t r2h = hsa_amd_vmem_handle_release(hi);
  hsa_status_t again = hsa_amd_vmem_handle_release(h);
  hsa_status_t f1 = hsa_amd_vmem_address_free(va, 4 * S);
  hsa_status_t f2 = hsa_amd_vmem_address_free(v2, S);
  CHECK("teardown", u1 == 0 && u2 == 0 && u3 == 0 && r1h == 0 && r2h == 0 &&
        again == HSA_STATUS_ERROR_INVALID_ALLOCATION && f1 == 0 && f2 == 0,
        "unmap %x %x %x release %x %x again %x free %x %x", u1, u2, u3, r1h, r2h, again, f1, f2);
  return failures != 0;   /* the queue is broken by the fault: no shut down */
}
