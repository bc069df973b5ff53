/* SPDX-License-Identifier: MIT */
/* sigmask_client.c — a plain HSA client (built against Debian's ROCR 5.2.3 or ours) whose
 * threads block every signal, as ROCm's OpenCL runtime does in its worker threads (all but
 * SIGFPE): one thread creates a queue and dispatches a vector-add kernel (argv[1] = code
 * object, argv[2] = kernel symbol), another copies host -> VRAM -> host with hsa_memory_copy
 * (a blit kernel below 1 MiB on ROCR, SDMA above) and hsa_amd_memory_async_copy. A real
 * doorbell is MMIO and needs nothing from the program, so neither may die at its first
 * doorbell store. Results are checked against host values. One "name ok" or "name FAIL why"
 * line per check; exit 0 only if every check passed. */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
#define CHECK(name, cond, ...)                                                             \
  do {                                                                                     \
    pthread_mutex_lock(&out_lock);                                                         \
    if (cond) {                                                                            \
      printf("%s ok\n", name);                                                             \
    } else {                                                                               \
      failures++;                                                                          \
      printf("%s FAIL ", name);                                                            \
      printf(__VA_ARGS__);                                                                 \
      printf("\n");                                                                        \
    }                                                                                      \
    pthread_mutex_unlock(&out_lock);                                                       \
  } while (0)

static hsa_agent_t gpu, cpu;
static int have_gpu, have_cpu;
static hsa_region_t sys_region, kernarg_region, vram_region;
static const char *co_path, *kernel_name;

static hsa_status_t find_agents(hsa_agent_t a, void *d)
{
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !have_gpu) {
    gpu = a;
    have_gpu = 1;
  }
  if (t == HSA_DEVICE_TYPE_CPU && !have_cpu) {
    cpu = a;
    have_cpu = 1;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t cpu_regions(hsa_region_t r, void *d)
{
  (void)d;
  hsa_region_segment_t seg;
  uint32_t flags;
  hsa_region_get_info(r, HSA_REGION_INFO_SEGMENT, &seg);
  if (seg != HSA_REGION_SEGMENT_GLOBAL)
    return HSA_STATUS_SUCCESS;
  hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
  if (flags & HSA_REGION_GLOBAL_FLAG_KERNARG)
    kernarg_region = r;
  else if ((flags & HSA_REGION_GLOBAL_FLAG_FINE_GRAINED) && !sys_region.handle)
    sys_region = r;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t gpu_regions(hsa_region_t r, void *d)
{
  (void)d;
  hsa_region_segment_t seg;
  uint32_t flags;
  hsa_region_get_info(r, HSA_REGION_INFO_SEGMENT, &seg);
  hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
  if (seg == HSA_REGION_SEGMENT_GLOBAL && (flags & HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED) &&
      !vram_region.handle)
    vram_region = r;
  return HSA_STATUS_SUCCESS;
}

/* What the OpenCL runtime's workers do: nothing may interrupt them, not even SIGSEGV. */
static void block_everything(const char *who)
{
  sigset_t all, now;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, NULL);
  pthread_sigmask(SIG_SETMASK, NULL, &now);
  CHECK(who, sigismember(&now, SIGSEGV) && sigismember(&now, SIGBUS), "SIGSEGV not blocked");
}

static int wait_zero(hsa_signal_t s)
{
  return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, 60000000000ull,
                                   HSA_WAIT_STATE_BLOCKED) == 0;
}

static int load_kernel(uint64_t *kobj, uint32_t *kasize, uint32_t *gsize, uint32_t *psize)
{
  FILE *f = fopen(co_path, "rb");
  if (!f) {
    CHECK("kernel_load", 0, "cannot open %s", co_path);
    return 0;
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  rewind(f);
  char *blob = malloc((size_t)len);
  size_t got = fread(blob, 1, (size_t)len, f);
  fclose(f);
  hsa_code_object_reader_t rd;
  hsa_executable_t ex;
  hsa_executable_symbol_t sym;
  hsa_status_t st = got == (size_t)len ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR;
  if (!st)
    st = hsa_code_object_reader_create_from_memory(blob, (size_t)len, &rd);
  if (!st)
    st = hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                   NULL, &ex);
  if (!st)
    st = hsa_executable_load_agent_code_object(ex, gpu, rd, NULL, NULL);
  if (!st)
    st = hsa_executable_freeze(ex, NULL);
  if (!st)
    st = hsa_executable_get_symbol_by_name(ex, kernel_name, &gpu, &sym);
  CHECK("kernel_load", st == HSA_STATUS_SUCCESS, "status 0x%x", (unsigned)st);
  if (st)
    return 0;   /* the reader and executable (and the blob) live until hsa_shut_down */
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, kobj);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, kasize);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, gsize);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, psize);
  return 1;
}

/* Creates a queue and dispatches vadd(a, b, c, n) twice (the second after the queue had time
 * to go idle), ringing the doorbell from this thread. */
static void *dispatcher(void *arg)
{
  (void)arg;
  block_everything("dispatcher_blocks_all");
  hsa_queue_t *q = NULL;
  hsa_status_t st = hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                                     UINT32_MAX, &q);
  CHECK("queue_create", st == HSA_STATUS_SUCCESS, "status 0x%x", (unsigned)st);
  uint64_t kobj;
  uint32_t kasize, gsize, psize;
  if (st || !load_kernel(&kobj, &kasize, &gsize, &psize))
    return NULL;
  enum { N = 1000 };
  float *a, *b, *c;
  void *ka;
  if (hsa_memory_allocate(sys_region, N * sizeof(float), (void **)&a) ||
      hsa_memory_allocate(sys_region, N * sizeof(float), (void **)&b) ||
      hsa_memory_allocate(sys_region, N * sizeof(float), (void **)&c) ||
      hsa_memory_allocate(kernarg_region, kasize < 64 ? 64 : kasize, &ka)) {
    CHECK("kernel_alloc", 0, "allocation failed");
    return NULL;
  }
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < N; i++) {
      a[i] = (float)i * 0.5f + (float)round;
      b[i] = 1000.0f - (float)i;
      c[i] = -1.0f;
    }
    memset(ka, 0, kasize);
    struct { void *a, *b, *c; uint32_t n; } args = { a, b, c, N };
    memcpy(ka, &args, sizeof args);
    hsa_signal_t done;
    hsa_signal_create(1, 0, NULL, &done);
    hsa_kernel_dispatch_packet_t p;
    memset(&p, 0, sizeof p);
    p.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
    p.workgroup_size_x = 256;
    p.workgroup_size_y = p.workgroup_size_z = 1;
    p.grid_size_x = 1024;
    p.grid_size_y = p.grid_size_z = 1;
    p.kernel_object = kobj;
    p.kernarg_address = ka;
    p.group_segment_size = gsize;
    p.private_segment_size = psize;
    p.completion_signal = done;
    uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
    void *slot = (char *)q->base_address + (idx % q->size) * 64;
    memcpy((char *)slot + 2, (char *)&p + 2, 62);
    uint16_t header = (uint16_t)(HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
                                 HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                                 HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
    __atomic_store_n((uint16_t *)slot, header, __ATOMIC_RELEASE);
    hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
    int ok = wait_zero(done);
    int bad = -1;
    for (int i = 0; ok && i < N; i++)
      if (c[i] != a[i] + b[i]) {
        bad = i;
        break;
      }
    CHECK(round ? "kernel_after_idle" : "kernel_result", ok && bad < 0,
          "done %d, c[%d] = %g, want %g", ok, bad, bad >= 0 ? c[bad] : 0.0,
          bad >= 0 ? a[bad] + b[bad] : 0.0);
    hsa_signal_destroy(done);
    struct timespec idle = { 0, 50000000 };   /* the packet processor goes to sleep */
    nanosleep(&idle, NULL);
  }
  hsa_queue_destroy(q);
  return NULL;
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
  for (size_t i = 0; i < n; i++)
    p[i] = (uint8_t)(i * seed + 7);
}

/* host -> VRAM -> host, synchronously and asynchronously, small (a blit kernel on ROCR) and
 * large (SDMA), from this thread. */
static void *copier(void *arg)
{
  (void)arg;
  block_everything("copier_blocks_all");
  const size_t sizes[2] = { 64 * 1024, 2 * 1024 * 1024 + 4100 };
  for (int k = 0; k < 2; k++) {
    size_t n = sizes[k];
    uint8_t *h1, *h2, *dev;
    if (hsa_memory_allocate(sys_region, n, (void **)&h1) ||
        hsa_memory_allocate(sys_region, n, (void **)&h2) ||
        hsa_memory_allocate(vram_region, n, (void **)&dev)) {
      CHECK("copy_alloc", 0, "allocation failed");
      return NULL;
    }
    fill(h1, n, 13 + (unsigned)k);
    memset(h2, 0, n);
    hsa_status_t a = hsa_memory_copy(dev, h1, n);
    hsa_status_t b = hsa_memory_copy(h2, dev, n);
    CHECK(k ? "memory_copy_large" : "memory_copy_small", !a && !b && !memcmp(h1, h2, n),
          "status 0x%x/0x%x, %s", (unsigned)a, (unsigned)b,
          memcmp(h1, h2, n) ? "bytes differ" : "bytes equal");
    hsa_signal_t s;
    hsa_signal_create(1, 0, NULL, &s);
    fill(h1, n, 31 + (unsigned)k);
    memset(h2, 0, n);
    a = hsa_amd_memory_async_copy(dev, gpu, h1, cpu, n, 0, NULL, s);
    int ok = !a && wait_zero(s);
    hsa_signal_store_screlease(s, 1);
    b = hsa_amd_memory_async_copy(h2, cpu, dev, gpu, n, 0, NULL, s);
    ok = ok && !b && wait_zero(s);
    CHECK(k ? "async_copy_large" : "async_copy_small", ok && !memcmp(h1, h2, n),
          "status 0x%x/0x%x, signal %lld, %s", (unsigned)a, (unsigned)b,
          (long long)hsa_signal_load_scacquire(s), memcmp(h1, h2, n) ? "bytes differ" : "bytes equal");
    hsa_signal_destroy(s);
    hsa_memory_free(h1);
    hsa_memory_free(h2);
    hsa_memory_free(dev);
  }
  return NULL;
}

int main(int argc, char **argv)
{
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc < 3)
    return 2;
  co_path = argv[1];
  kernel_name = argv[2];
  if (hsa_init() != HSA_STATUS_SUCCESS) {
    printf("init FAIL\n");
    return 1;
  }
  hsa_iterate_agents(find_agents, NULL);
  if (!have_gpu || !have_cpu) {
    printf("agents FAIL gpu %d cpu %d\n", have_gpu, have_cpu);
    return 1;
  }
  hsa_agent_iterate_regions(cpu, cpu_regions, NULL);
  hsa_agent_iterate_regions(gpu, gpu_regions, NULL);
  /* the main thread too, so every thread the runtimes start from now on inherits it */
  block_everything("main_blocks_all");
  pthread_t t1, t2;
  pthread_create(&t1, NULL, dispatcher, NULL);
  pthread_join(t1, NULL);
  pthread_create(&t2, NULL, copier, NULL);
  pthread_join(t2, NULL);
  CHECK("shut_down", hsa_shut_down() == HSA_STATUS_SUCCESS, "failed");
  return failures ? 1 : 0;
}
