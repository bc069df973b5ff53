/* SPDX-License-Identifier: MIT */
/* client.h — the boilerplate the integration test clients in tests/integration share: their
 * FAIL/CHECK macros, picking the first GPU/CPU agent, a global memory pool, the kernarg and
 * fine-grained regions, loading a code object file into an executable, looking up a kernel
 * symbol, and writing a kernel dispatch packet. Header only, for one-file clients: include it
 * as "lib/client.h".
 *
 * Two styles of checks:
 *   default                    FAIL(fmt, ...) prints "FAIL ..." and exits 1 (through
 *                              CLIENT_EXIT, exit unless defined before the include);
 *                              CHECK(call) FAILs when an HSA call does not succeed
 *   CLIENT_CHECK_COUNTS        CHECK(name, cond, fmt, ...) prints "name ok" or "name FAIL ..."
 *                              and counts the failures in `failures`
 * Define CLIENT_NO_HSA before the include for a client that talks to the driver directly;
 * CLIENT_QUEUE_ERRORS for the queue error callback on_error (counts into `errors`, keeps
 * `last_error`) and wait_error. client_open_kfd exists when the KFD ioctl header came first. */
#ifndef TESTS_INTEGRATION_LIB_CLIENT_H
#define TESTS_INTEGRATION_LIB_CLIENT_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CLIENT_NO_HSA
#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"
#endif

#ifdef CLIENT_CHECK_COUNTS
static int failures;
#define CHECK(name, cond, ...) do { if (cond) printf("%s ok\n", name); else { failures++; \
  printf("%s FAIL ", name); printf(__VA_ARGS__); printf("\n"); } } while (0)
#else
#ifndef CLIENT_EXIT
#define CLIENT_EXIT exit
#endif
#define FAIL(...)                                                                          \
  do {                                                                                     \
    printf("FAIL ");                                                                       \
    printf(__VA_ARGS__);                                                                   \
    printf("\n");                                                                          \
    fflush(stdout);                                                                        \
    CLIENT_EXIT(1);                                                                        \
  } while (0)
#ifndef CLIENT_NO_HSA
#define CHECK(call)                                                                        \
  do {                                                                                     \
    hsa_status_t s_ = (call);                                                              \
    if (s_ != HSA_STATUS_SUCCESS) FAIL("%s = 0x%x (line %d)", #call, (unsigned)s_, __LINE__); \
  } while (0)
#endif
#endif

/* "what FAIL <strerror(errno)>" and exit 1: for a setup step the test cannot go on without. */
static inline void client_die(const char *what)
{
  printf("%s FAIL %s\n", what, strerror(errno));
  exit(1);
}

/* The whole file at path in a malloc'd buffer (never freed by the clients: a code object
 * reader keeps pointing at it); NULL when it cannot be opened (*why "open") or read ("read"). */
static inline char *client_read_file(const char *path, size_t *size, const char **why)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    *why = "open";
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n >= 0 ? malloc((size_t)n ? (size_t)n : 1) : NULL;
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    free(buf);
    *why = "read";
    return NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return buf;
}

#ifdef AMDKFD_IOC_ACQUIRE_VM
#include <fcntl.h>
#include <sys/ioctl.h>

/* Opens /dev/kfd and the render node, reads node 1's gpu_id and acquires the VM: the KFD
 * clients' setup (client_die on any failure). */
static inline void client_open_kfd(int *kfd, int *drm, uint32_t *gpu_id)
{
  *kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
  *drm = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
  if (*kfd < 0 || *drm < 0)
    client_die("open");
  FILE *f = fopen("/sys/class/kfd/kfd/topology/nodes/1/gpu_id", "r");
  if (!f || fscanf(f, "%u", gpu_id) != 1)
    client_die("gpu_id");
  fclose(f);
  struct kfd_ioctl_acquire_vm_args vm = { .drm_fd = (uint32_t)*drm, .gpu_id = *gpu_id };
  if (ioctl(*kfd, AMDKFD_IOC_ACQUIRE_VM, &vm) != 0)
    client_die("acquire_vm");
}
#endif

#ifndef CLIENT_NO_HSA

/* The first GPU and the first CPU agent; a zero handle when there is none. */
struct client_agents {
  hsa_agent_t gpu, cpu;
};

/* hsa_iterate_agents callback; data: a struct client_agents (zeroed before). */
static inline hsa_status_t client_pick_agents(hsa_agent_t a, void *data)
{
  struct client_agents *ag = data;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !ag->gpu.handle) ag->gpu = a;
  if (t == HSA_DEVICE_TYPE_CPU && !ag->cpu.handle) ag->cpu = a;
  return HSA_STATUS_SUCCESS;
}

/* The first global region with the kernarg flag and the first fine-grained one (which may be
 * the same region); a zero handle when there is none. */
struct client_regions {
  hsa_region_t kernarg, fine;
};

/* hsa_agent_iterate_regions callback; data: a struct client_regions (zeroed before). */
static inline hsa_status_t client_pick_regions(hsa_region_t r, void *data)
{
  struct client_regions *rg = data;
  hsa_region_segment_t seg;
  uint32_t flags = 0;
  hsa_region_get_info(r, HSA_REGION_INFO_SEGMENT, &seg);
  if (seg != HSA_REGION_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
  if ((flags & HSA_REGION_GLOBAL_FLAG_KERNARG) && !rg->kernarg.handle) rg->kernarg = r;
  if ((flags & HSA_REGION_GLOBAL_FLAG_FINE_GRAINED) && !rg->fine.handle) rg->fine = r;
  return HSA_STATUS_SUCCESS;
}

/* hsa_amd_agent_iterate_memory_pools callback: the agent's first global pool the runtime may
 * allocate from, into the hsa_amd_memory_pool_t at data (zeroed before). */
static inline hsa_status_t client_pick_pool(hsa_amd_memory_pool_t p, void *data)
{
  hsa_amd_segment_t seg;
  bool ok;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &ok);
  if (seg == HSA_AMD_SEGMENT_GLOBAL && ok && !((hsa_amd_memory_pool_t *)data)->handle)
    *(hsa_amd_memory_pool_t *)data = p;
  return HSA_STATUS_SUCCESS;
}

/* The first GPU and CPU agent and their first global pools (client_pick_pool): VRAM and
 * system memory; zero handles where there is none. */
static inline hsa_status_t client_pick_memory(hsa_agent_t *gpu, hsa_agent_t *cpu,
                                              hsa_amd_memory_pool_t *vram,
                                              hsa_amd_memory_pool_t *sysmem)
{
  struct client_agents ag = { { 0 }, { 0 } };
  hsa_status_t st = hsa_iterate_agents(client_pick_agents, &ag);
  *gpu = ag.gpu;
  *cpu = ag.cpu;
  vram->handle = sysmem->handle = 0;
  if (ag.gpu.handle) hsa_amd_agent_iterate_memory_pools(ag.gpu, client_pick_pool, vram);
  if (ag.cpu.handle) hsa_amd_agent_iterate_memory_pools(ag.cpu, client_pick_pool, sysmem);
  return st;
}

/* Loads the code object blob for gpu into a new frozen executable *exec. */
static inline hsa_status_t client_load_blob(hsa_agent_t gpu, const void *blob, size_t size,
                                            hsa_profile_t profile, hsa_executable_t *exec)
{
  hsa_code_object_reader_t r;
  hsa_status_t st = hsa_code_object_reader_create_from_memory(blob, size, &r);
  if (st == HSA_STATUS_SUCCESS)
    st = hsa_executable_create_alt(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, exec);
  if (st == HSA_STATUS_SUCCESS) st = hsa_executable_load_agent_code_object(*exec, gpu, r, NULL, NULL);
  if (st == HSA_STATUS_SUCCESS) st = hsa_executable_freeze(*exec, NULL);
  return st;
}

/* Loads the code object file at path; HSA_STATUS_ERROR when it cannot be read. */
static inline hsa_status_t client_load_file(hsa_agent_t gpu, const char *path,
                                            hsa_profile_t profile, hsa_executable_t *exec)
{
  size_t n = 0;
  const char *why = NULL;
  char *blob = client_read_file(path, &n, &why);
  if (!blob) return HSA_STATUS_ERROR;
  return client_load_blob(gpu, blob, n, profile, exec);
}

/* A kernel's descriptor address and segment sizes, from its symbol. */
struct client_kernel {
  uint64_t object;
  uint32_t kernarg_size, group, priv;
};

/* Looks up symbol (the full name, "name.kd") in exec for gpu. */
static inline hsa_status_t client_kernel(hsa_executable_t exec, hsa_agent_t gpu,
                                         const char *symbol, struct client_kernel *k)
{
  hsa_executable_symbol_t sym;
  hsa_status_t st = hsa_executable_get_symbol_by_name(exec, symbol, &gpu, &sym);
  if (st != HSA_STATUS_SUCCESS) return st;
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &k->object);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
                                 &k->kernarg_size);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &k->group);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &k->priv);
  return HSA_STATUS_SUCCESS;
}

#ifndef CLIENT_CHECK_COUNTS
/* Fatal forms: FAIL "cannot open/read path", CHECK the HSA calls. */
static inline void client_load(hsa_agent_t gpu, const char *path, hsa_executable_t *exec)
{
  size_t n = 0;
  const char *why = NULL;
  char *blob = client_read_file(path, &n, &why);
  if (!blob) FAIL("cannot %s %s", why, path);
  CHECK(client_load_blob(gpu, blob, n, HSA_PROFILE_BASE, exec));
}

/* name without ".kd" */
static inline struct client_kernel client_kernel_named(hsa_executable_t exec, hsa_agent_t gpu,
                                                       const char *name)
{
  char sym_name[64];
  snprintf(sym_name, sizeof(sym_name), "%s.kd", name);
  struct client_kernel k = {0};
  CHECK(client_kernel(exec, gpu, sym_name, &k));
  return k;
}
#endif

/* Writes a dispatch of k (none: object and segment sizes 0) over grid×1×1 work-items in
 * groups of wg in the next slot of q, its header (barrier, system-scope fences, 1 dimension)
 * stored last, and rings the doorbell. */
static inline void client_dispatch(hsa_queue_t *q, const struct client_kernel *k, void *kernarg,
                                   uint32_t grid, uint16_t wg, hsa_signal_t done)
{
  uint64_t idx = hsa_queue_add_write_index_scacq_screl(q, 1);
  hsa_kernel_dispatch_packet_t *p = (hsa_kernel_dispatch_packet_t *)q->base_address + (idx % q->size);
  memset((char *)p + 4, 0, sizeof(*p) - 4);
  p->workgroup_size_x = wg, p->workgroup_size_y = 1, p->workgroup_size_z = 1;
  p->grid_size_x = grid, p->grid_size_y = 1, p->grid_size_z = 1;
  p->kernel_object = k ? k->object : 0;
  p->private_segment_size = k ? k->priv : 0;
  p->group_segment_size = k ? k->group : 0;
  p->kernarg_address = kernarg;
  p->completion_signal = done;
  uint32_t header = (uint32_t)(HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
                               1u << HSA_PACKET_HEADER_BARRIER |
                               HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                               HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  __atomic_store_n((uint32_t *)p, header | 1u << 16, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
}

#ifdef CLIENT_QUEUE_ERRORS
#include <unistd.h>

static volatile int errors;
static volatile hsa_status_t last_error;

/* hsa_queue_create callback: counts the queue's errors and keeps the latest. */
static void on_error(hsa_status_t s, hsa_queue_t *q, void *d) {
  (void)q;
  (void)d;
  last_error = s;
  __atomic_add_fetch(&errors, 1, __ATOMIC_SEQ_CST);
}

/* Waits up to `seconds` for a queue error; the count so far (0: none came). */
static inline int wait_error(unsigned seconds) {
  for (unsigned i = 0; i < seconds * 100 && !errors; i++) usleep(10000);
  return errors;
}
#endif

#endif /* !CLIENT_NO_HSA */
#endif
