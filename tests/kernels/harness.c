/* SPDX-License-Identifier: MIT */
/* harness.c — runs one case of the kernel corpus through the plain HSA API: loads a code
 * object for the first GPU agent, finds "<kernel>.kd", puts the buffers in fine-grained
 * system memory (or in the GPU's own pool, copied there and back with hsa_memory_copy; or,
 * --mem ext, staged in the CPU's extended-scope fine-grained pool and run from the GPU's),
 * fills the kernel arguments, dispatches the case's grid, waits on the completion signal
 * and compares the outputs with the host reference (and optionally another runner's output
 * file). Works with whichever libhsa-runtime64.so.1 the dynamic linker finds.
 *
 *   harness [--mem system|device|ext] [--timeout SEC] [--out FILE] [--against FILE]
 *           [--repeat N] [--time] [--wave 32|64] CASE CODE_OBJECT
 *   (--wave: lanes per wave of the code object, for the references of sub-group operations;
 *   64 unless told)
 *   harness --list [--all] | --compare CASE A B
 *
 * Exit: 0 right results, 1 wrong results or a GPU fault, 2 usage or I/O error,
 *       3 the dispatch did not complete in time, 4 the runtime could not set up
 *       (init, agents, pools, queue or code object loading failed). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* dladdr */
#endif
#include "kcase.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <hsa.h>
#include <hsa_ext_amd.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CANARY 256   /* bytes after each buffer that the kernel must not touch */
#define CANARY_BYTE 0xa5

enum { EXIT_OK = 0, EXIT_WRONG = 1, EXIT_USAGE = 2, EXIT_TIMEOUT = 3, EXIT_SETUP = 4 };

static void die_hsa(const char *what, hsa_status_t st, int code)
{
  const char *s = NULL;
  if (hsa_status_string(st, &s) != HSA_STATUS_SUCCESS || !s) s = "?";
  fprintf(stderr, "harness: %s: status 0x%x (%s)\n", what, (unsigned)st, s);
  exit(code);
}

#define SETUP(call) do { hsa_status_t st_ = (call); \
    if (st_ != HSA_STATUS_SUCCESS) die_hsa(#call, st_, EXIT_SETUP); } while (0)

struct agents { hsa_agent_t gpu, cpu; int have_gpu, have_cpu; };

static hsa_status_t pick_agent(hsa_agent_t a, void *data)
{
  struct agents *g = data;
  hsa_device_type_t t;
  if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR;
  if (t == HSA_DEVICE_TYPE_GPU && !g->have_gpu) { g->gpu = a; g->have_gpu = 1; }
  if (t == HSA_DEVICE_TYPE_CPU && !g->have_cpu) { g->cpu = a; g->have_cpu = 1; }
  return HSA_STATUS_SUCCESS;
}

struct pools {
  hsa_amd_memory_pool_t kernarg, fine, device, cpu_ext, gpu_ext;
  int have_kernarg, have_fine, have_device, have_cpu_ext, have_gpu_ext;
};

static hsa_status_t pick_cpu_pool(hsa_amd_memory_pool_t p, void *data)
{
  struct pools *ps = data;
  hsa_amd_segment_t seg;
  uint32_t flags = 0;
  bool alloc = false;
  if (hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg) != HSA_STATUS_SUCCESS ||
      seg != HSA_AMD_SEGMENT_GLOBAL)
    return HSA_STATUS_SUCCESS;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (!alloc) return HSA_STATUS_SUCCESS;
  if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !ps->have_kernarg) {
    ps->kernarg = p; ps->have_kernarg = 1;
  }
  if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !ps->have_fine) {
    ps->fine = p; ps->have_fine = 1;
  }
  if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED) && !ps->have_cpu_ext) {
    ps->cpu_ext = p; ps->have_cpu_ext = 1;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t pick_gpu_pool(hsa_amd_memory_pool_t p, void *data)
{
  struct pools *ps = data;
  hsa_amd_segment_t seg;
  uint32_t flags = 0;
  bool alloc = false;
  if (hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg) != HSA_STATUS_SUCCESS ||
      seg != HSA_AMD_SEGMENT_GLOBAL)
    return HSA_STATUS_SUCCESS;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (alloc && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !ps->have_device) {
    ps->device = p; ps->have_device = 1;
  }
  if (alloc && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED) &&
      !ps->have_gpu_ext) {
    ps->gpu_ext = p; ps->have_gpu_ext = 1;
  }
  return HSA_STATUS_SUCCESS;
}

static void queue_error(hsa_status_t st, hsa_queue_t *q, void *data)
{
  (void)q; (void)data;
  die_hsa("queue error (GPU fault while running the kernel)", st, EXIT_WRONG);
}

/* A watchdog: on a GPU model (or runtime) that cannot run the work yet, ROCR blocks inside
 * the loader (its segment copies are GPU work) or in the wait; say where, exit 3. */
static const char *volatile phase = "start";

static void watchdog(int sig)
{
  (void)sig;
  const char *p = phase;
  static const char a[] = "harness: timed out while ";
  if (write(2, a, sizeof a - 1) < 0 || write(2, p, strlen(p)) < 0 || write(2, "\n", 1) < 0) _exit(EXIT_TIMEOUT);
  _exit(EXIT_TIMEOUT);
}

static double now_ns(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void *pool_alloc(hsa_amd_memory_pool_t pool, size_t size, const hsa_agent_t *gpu)
{
  void *p = NULL;
  SETUP(hsa_amd_memory_pool_allocate(pool, size, 0, &p));
  if (gpu) SETUP(hsa_amd_agents_allow_access(1, gpu, NULL, p));
  return p;
}

/* Explicit arguments, each at the next offset aligned to its size (as clang lays them out). */
static size_t fill_kernargs(const struct kcase *c, uint8_t *ka, size_t cap, void *const *dev)
{
  size_t off = 0;
  for (unsigned i = 0; i < c->nargs; i++) {
    const struct kc_arg *a = &c->args[i];
    size_t sz = a->kind == KC_ARG_U32 || a->kind == KC_ARG_F32 ? 4 : 8;
    off = (off + sz - 1) & ~(sz - 1);
    if (off + sz > cap) { fprintf(stderr, "harness: kernargs do not fit\n"); exit(EXIT_USAGE); }
    switch (a->kind) {
    case KC_ARG_BUF: { uint64_t v = (uint64_t)(uintptr_t)dev[a->buf]; memcpy(ka + off, &v, 8); break; }
    case KC_ARG_U32: { uint32_t v = (uint32_t)a->u; memcpy(ka + off, &v, 4); break; }
    case KC_ARG_U64: memcpy(ka + off, &a->u, 8); break;
    case KC_ARG_F32: memcpy(ka + off, &a->f, 4); break;
    }
    off += sz;
  }
  return off;
}

static void usage(void)
{
  fprintf(stderr, "usage: harness [--mem system|device] [--timeout SEC] [--out FILE] "
                  "[--against FILE] [--repeat N] [--time] [--wave 32|64] CASE CODE_OBJECT\n"
                  "       harness --list [--all] | --compare CASE A B\n");
  exit(EXIT_USAGE);
}

int main(int argc, char **argv)
{
  int rc = kc_common_main(argc, argv);
  if (rc >= 0) return rc;

  const char *mem = "system", *out = NULL, *against = NULL;
  double timeout = 60;
  int repeat = 1, timing = 0, ai = 1;
  for (; ai < argc && strncmp(argv[ai], "--", 2) == 0; ai++) {
    if (strcmp(argv[ai], "--time") == 0) { timing = 1; continue; }
    if (ai + 1 >= argc) usage();
    if (strcmp(argv[ai], "--mem") == 0) mem = argv[++ai];
    else if (strcmp(argv[ai], "--timeout") == 0) timeout = atof(argv[++ai]);
    else if (strcmp(argv[ai], "--out") == 0) out = argv[++ai];
    else if (strcmp(argv[ai], "--against") == 0) against = argv[++ai];
    else if (strcmp(argv[ai], "--repeat") == 0) repeat = atoi(argv[++ai]);
    else if (strcmp(argv[ai], "--wave") == 0) kc_wave_size = (unsigned)atoi(argv[++ai]);
    else usage();
  }
  if (argc - ai != 2 || repeat < 1 || (strcmp(mem, "system") && strcmp(mem, "device") && strcmp(mem, "ext")) ||
      (kc_wave_size != 32 && kc_wave_size != 64)) usage();
  const struct kcase *c = kc_find(argv[ai]);
  if (!c) { fprintf(stderr, "harness: no case %s\n", argv[ai]); return EXIT_USAGE; }
  int ext_mem = strcmp(mem, "ext") == 0, device_mem = strcmp(mem, "device") == 0 || ext_mem;

  void **host = kc_alloc(c), **want = kc_alloc(c);
  if (!host || !want) { fprintf(stderr, "harness: out of memory\n"); return EXIT_USAGE; }

  signal(SIGALRM, watchdog);
  alarm(timeout > 0 ? (unsigned)timeout + 1 : 0);
  Dl_info lib;
  if (dladdr((void *)hsa_init, &lib) && lib.dli_fname) fprintf(stderr, "harness: runtime %s\n", lib.dli_fname);
  phase = "in hsa_init";
  SETUP(hsa_init());
  struct agents ag = {0};
  SETUP(hsa_iterate_agents(pick_agent, &ag));
  if (!ag.have_gpu || !ag.have_cpu) { fprintf(stderr, "harness: no GPU or no CPU agent\n"); return EXIT_SETUP; }
  struct pools ps = {0};
  SETUP(hsa_amd_agent_iterate_memory_pools(ag.cpu, pick_cpu_pool, &ps));
  SETUP(hsa_amd_agent_iterate_memory_pools(ag.gpu, pick_gpu_pool, &ps));
  if (!ps.have_kernarg || !ps.have_fine || (device_mem && !ps.have_device)) {
    fprintf(stderr, "harness: missing memory pool (kernarg %d, fine-grained %d, device %d)\n",
            ps.have_kernarg, ps.have_fine, ps.have_device);
    return EXIT_SETUP;
  }
  if (ext_mem && (!ps.have_cpu_ext || !ps.have_gpu_ext)) {
    fprintf(stderr, "harness: no extended-scope fine-grained pool (CPU %d, GPU %d)\n",
            ps.have_cpu_ext, ps.have_gpu_ext);
    return EXIT_SETUP;
  }
  if (ext_mem) { ps.fine = ps.cpu_ext; ps.device = ps.gpu_ext; }

  /* Code object -> executable -> kernel symbol. */
  int fd = open(argv[ai + 1], O_RDONLY);
  if (fd < 0) { fprintf(stderr, "harness: %s: %s\n", argv[ai + 1], strerror(errno)); return EXIT_USAGE; }
  hsa_code_object_reader_t reader;
  hsa_executable_t exe;
  phase = "loading the code object (ROCR copies it with GPU work)";
  SETUP(hsa_code_object_reader_create_from_file(fd, &reader));
  SETUP(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &exe));
  SETUP(hsa_executable_load_agent_code_object(exe, ag.gpu, reader, NULL, NULL));
  SETUP(hsa_executable_freeze(exe, NULL));
  char sym_name[256];
  snprintf(sym_name, sizeof sym_name, "%s.kd", c->kernel);
  hsa_executable_symbol_t sym;
  SETUP(hsa_executable_get_symbol_by_name(exe, sym_name, &ag.gpu, &sym));
  uint64_t kobj = 0;
  uint32_t ka_size = 0, group = 0, priv = 0;
  SETUP(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kobj));
  SETUP(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &ka_size));
  SETUP(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &group));
  SETUP(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &priv));

  phase = "allocating and copying buffers";
  /* Buffers: what the kernel sees (dev), plus system staging copies in device mode. */
  void *dev[KC_MAX_BUFS] = {0}, *stage[KC_MAX_BUFS] = {0};
  for (unsigned i = 0; i < c->nbufs; i++) {
    size_t n = kc_buf_bytes(&c->bufs[i]);
    stage[i] = pool_alloc(ps.fine, n + CANARY, &ag.gpu);
    memcpy(stage[i], host[i], n);
    memset((uint8_t *)stage[i] + n, CANARY_BYTE, CANARY);
    dev[i] = stage[i];
    if (device_mem) {
      dev[i] = pool_alloc(ps.device, n + CANARY, NULL);
      SETUP(hsa_memory_copy(dev[i], stage[i], n + CANARY));
    }
  }
  size_t cap = ka_size > 256 ? ka_size : 256;
  uint8_t *ka = pool_alloc(ps.kernarg, cap, &ag.gpu);
  memset(ka, 0, cap);   /* hidden arguments (global offsets, ...) stay 0 */
  fill_kernargs(c, ka, cap, dev);

  uint32_t qmin = 0;
  SETUP(hsa_agent_get_info(ag.gpu, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &qmin));
  hsa_queue_t *q = NULL;
  SETUP(hsa_queue_create(ag.gpu, qmin > 64 ? qmin : 64, HSA_QUEUE_TYPE_SINGLE, queue_error, NULL,
                         UINT32_MAX, UINT32_MAX, &q));
  hsa_signal_t done;
  SETUP(hsa_signal_create(1, 0, NULL, &done));
  uint64_t freq = 0;
  SETUP(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq));

  phase = "waiting for the dispatch to complete";
  double best = 0;
  for (int r = 0; r < repeat; r++) {
    for (unsigned i = 0; r > 0 && i < c->nbufs; i++) {   /* every run starts from the inputs */
      memcpy(stage[i], host[i], kc_buf_bytes(&c->bufs[i]));
      if (device_mem) SETUP(hsa_memory_copy(dev[i], stage[i], kc_buf_bytes(&c->bufs[i])));
    }
    hsa_signal_store_relaxed(done, 1);
    uint64_t idx = hsa_queue_add_write_index_relaxed(q, 1);
    hsa_kernel_dispatch_packet_t *p = (hsa_kernel_dispatch_packet_t *)q->base_address + (idx & (q->size - 1));
    memset((uint8_t *)p + 4, 0, sizeof *p - 4);
    p->workgroup_size_x = c->wg[0];
    p->workgroup_size_y = c->dims > 1 ? c->wg[1] : 1;
    p->workgroup_size_z = c->dims > 2 ? c->wg[2] : 1;
    p->grid_size_x = c->grid[0];
    p->grid_size_y = c->dims > 1 ? c->grid[1] : 1;
    p->grid_size_z = c->dims > 2 ? c->grid[2] : 1;
    p->private_segment_size = priv;
    p->group_segment_size = group;
    p->kernel_object = kobj;
    p->kernarg_address = ka;
    p->completion_signal = done;
    uint16_t header = (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) |
                      (1 << HSA_PACKET_HEADER_BARRIER) |
                      (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                      (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
    uint32_t word = header | ((uint32_t)c->dims << 16);
    double t0 = now_ns();
    __atomic_store_n((uint32_t *)p, word, __ATOMIC_RELEASE);
    hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
    while (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, freq / 10 ? freq / 10 : 1,
                                     HSA_WAIT_STATE_BLOCKED) >= 1)
      ;   /* the watchdog ends a dispatch that never completes */
    double t = now_ns() - t0;
    if (r == 0 || t < best) best = t;
  }

  phase = "copying results back";
  int bad = 0;
  for (unsigned i = 0; i < c->nbufs; i++) {
    size_t n = kc_buf_bytes(&c->bufs[i]);
    if (device_mem) {
      memset(stage[i], 0, n + CANARY);
      SETUP(hsa_memory_copy(stage[i], dev[i], n + CANARY));
    }
    for (size_t k = 0; k < CANARY; k++)
      if (((uint8_t *)stage[i])[n + k] != CANARY_BYTE) {
        fprintf(stderr, "harness: %s: buffer %u: byte %zu after its end was written\n", c->name, i, k);
        bad = 1;
        break;
      }
    memcpy(host[i], stage[i], n);
  }

  alarm(0);
  double host_ns = 0;
  for (int r = 0; r < repeat; r++) {
    if (r > 0) kc_generate(c, want);   /* references may accumulate into their outputs */
    double t0 = now_ns();
    c->ref(c, want);
    double t = now_ns() - t0;
    if (r == 0 || t < host_ns) host_ns = t;
  }
  if (kc_compare(c, want, host, 1, "vs host reference")) bad = 1;
  if (against) {
    void **other = kc_alloc(c);
    if (!other || kc_read_outputs(c, other, against) != 0) return EXIT_USAGE;
    if (kc_compare(c, other, host, 2, "vs other runner")) bad = 1;
    kc_free(c, other);
  }
  if (out && kc_write_outputs(c, host, out) != 0) return EXIT_USAGE;
  if (timing)
    printf("case=%s device_ns=%.0f host_ns=%.0f items=%llu\n", c->name, best, host_ns,
           (unsigned long long)c->grid[0] * (c->dims > 1 ? c->grid[1] : 1) * (c->dims > 2 ? c->grid[2] : 1));

  hsa_signal_destroy(done);
  hsa_queue_destroy(q);
  for (unsigned i = 0; i < c->nbufs; i++) {
    if (device_mem) hsa_amd_memory_pool_free(dev[i]);
    hsa_amd_memory_pool_free(stage[i]);
  }
  hsa_amd_memory_pool_free(ka);
  hsa_executable_destroy(exe);
  hsa_code_object_reader_destroy(reader);
  close(fd);
  hsa_shut_down();
  kc_free(c, host); kc_free(c, want);
  if (!bad) printf("%s: ok\n", c->name);
  return bad ? EXIT_WRONG : EXIT_OK;
}
