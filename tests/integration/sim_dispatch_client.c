/* SPDX-License-Identifier: MIT */
/* sim_dispatch_client.c — a plain HSA client (built against Debian's ROCR 5.2.3 or ours) that
 * drives the GPU's packet processor: barrier-AND and barrier-OR packets with dependency
 * signals set from the host, the AMD barrier-value vendor packet, completion signals and
 * the in-order rule; optionally (argv[1] = code object, argv[2] = kernel symbol) a
 * vector-add kernel whose result is checked against the host. One "name ok" or
 * "name FAIL why" line per check; exit 0 only if every check passed. */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures;
#define CHECK(name, cond, ...) do { if (cond) printf("%s ok\n", name); else { failures++; \
  printf("%s FAIL ", name); printf(__VA_ARGS__); printf("\n"); } } while (0)

static hsa_agent_t gpu;
static int have_gpu;

static hsa_status_t find_gpu(hsa_agent_t a, void *d)
{
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !have_gpu) {
    gpu = a;
    have_gpu = 1;
  }
  return HSA_STATUS_SUCCESS;
}

static void *slot(hsa_queue_t *q, uint64_t idx)
{
  return (char *)q->base_address + (idx % q->size) * 64;
}

static void publish(hsa_queue_t *q, uint64_t idx, void *pkt, uint16_t header)
{
  /* body first, header last with release: the packet processor may read the slot at once */
  memcpy((char *)slot(q, idx) + 2, (char *)pkt + 2, 62);
  __atomic_store_n((uint16_t *)slot(q, idx), header, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
}

static uint16_t hdr(hsa_packet_type_t t)
{
  return (uint16_t)(t << HSA_PACKET_HEADER_TYPE | 1 << HSA_PACKET_HEADER_BARRIER |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
}

static uint64_t barrier(hsa_queue_t *q, hsa_packet_type_t type, hsa_signal_t *deps, int n,
                        hsa_signal_t done)
{
  uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
  hsa_barrier_and_packet_t p;
  memset(&p, 0, sizeof p);
  for (int i = 0; i < n; i++)
    p.dep_signal[i] = deps[i];
  p.completion_signal = done;
  publish(q, idx, &p, hdr(type));
  return idx;
}

static int wait_value(hsa_signal_t s, hsa_signal_value_t v, uint64_t ms)
{
  hsa_signal_value_t got = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, v,
                                                     ms * 1000000ull, HSA_WAIT_STATE_BLOCKED);
  return got == v;
}

static void barriers(hsa_queue_t *q)
{
  hsa_signal_t dep[3], done;
  for (int i = 0; i < 3; i++)
    hsa_signal_create(1, 0, NULL, &dep[i]);
  hsa_signal_create(1, 0, NULL, &done);

  /* barrier-AND: completes only once every dependency is 0 */
  uint64_t idx = barrier(q, HSA_PACKET_TYPE_BARRIER_AND, dep, 3, done);
  hsa_signal_store_screlease(dep[0], 0);
  hsa_signal_store_screlease(dep[2], 0);
  int early = wait_value(done, 0, 200);
  CHECK("barrier_and_waits", !early && hsa_queue_load_read_index_scacquire(q) == idx,
        "completed with a dependency still 1 (read index %llu)",
        (unsigned long long)hsa_queue_load_read_index_scacquire(q));
  hsa_signal_store_screlease(dep[1], 0);
  CHECK("barrier_and_completes", wait_value(done, 0, 10000), "completion signal is %lld",
        (long long)hsa_signal_load_scacquire(done));
  CHECK("read_index_advances", hsa_queue_load_read_index_scacquire(q) == idx + 1,
        "read index %llu, want %llu", (unsigned long long)hsa_queue_load_read_index_scacquire(q),
        (unsigned long long)idx + 1);
  CHECK("slot_invalidated", (*(uint16_t *)slot(q, idx) & 0xff) == HSA_PACKET_TYPE_INVALID,
        "header 0x%x", *(uint16_t *)slot(q, idx));

  /* barrier-OR: one dependency at 0 is enough */
  for (int i = 0; i < 3; i++)
    hsa_signal_store_screlease(dep[i], 1);
  hsa_signal_store_screlease(done, 1);
  barrier(q, HSA_PACKET_TYPE_BARRIER_OR, dep, 3, done);
  CHECK("barrier_or_waits", !wait_value(done, 0, 200), "completed with every dependency 1");
  hsa_signal_store_screlease(dep[1], 0);
  CHECK("barrier_or_completes", wait_value(done, 0, 10000), "completion signal is %lld",
        (long long)hsa_signal_load_scacquire(done));

  /* in order: a packet behind a blocked barrier waits for it; the completion counts down */
  for (int i = 0; i < 3; i++)
    hsa_signal_store_screlease(dep[i], 1);
  hsa_signal_store_screlease(done, 2);
  barrier(q, HSA_PACKET_TYPE_BARRIER_AND, dep, 1, done);
  barrier(q, HSA_PACKET_TYPE_BARRIER_AND, NULL, 0, done);
  CHECK("in_order", !wait_value(done, 1, 200) && hsa_signal_load_scacquire(done) == 2,
        "the second barrier overtook the blocked first (signal %lld)",
        (long long)hsa_signal_load_scacquire(done));
  hsa_signal_store_screlease(dep[0], 0);
  CHECK("in_order_completes", wait_value(done, 0, 10000), "signal %lld",
        (long long)hsa_signal_load_scacquire(done));

  /* many packets in one doorbell */
  hsa_signal_store_screlease(done, 64);
  uint64_t first = hsa_queue_add_write_index_screlease(q, 64);
  for (uint64_t i = 0; i < 64; i++) {
    hsa_barrier_and_packet_t p;
    memset(&p, 0, sizeof p);
    p.completion_signal = done;
    memcpy((char *)slot(q, first + i) + 2, (char *)&p + 2, 62);
    __atomic_store_n((uint16_t *)slot(q, first + i), hdr(HSA_PACKET_TYPE_BARRIER_AND),
                     __ATOMIC_RELEASE);
  }
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)(first + 63));
  CHECK("batch_of_64", wait_value(done, 0, 10000), "signal %lld",
        (long long)hsa_signal_load_scacquire(done));

  /* AMD barrier-value packet: waits until (value & mask) >= 5 */
  hsa_signal_store_screlease(dep[0], 0);
  hsa_signal_store_screlease(done, 1);
  hsa_amd_barrier_value_packet_t bv;
  memset(&bv, 0, sizeof bv);
  bv.header.AmdFormat = HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
  bv.signal = dep[0];
  bv.value = 5;
  bv.mask = 0xff;
  bv.cond = HSA_SIGNAL_CONDITION_GTE;
  bv.completion_signal = done;
  idx = hsa_queue_add_write_index_screlease(q, 1);
  publish(q, idx, &bv, hdr(HSA_PACKET_TYPE_VENDOR_SPECIFIC));
  hsa_signal_store_screlease(dep[0], 0x104);   /* masked: 4 < 5 */
  CHECK("barrier_value_waits", !wait_value(done, 0, 200), "completed at masked value 4");
  hsa_signal_store_screlease(dep[0], 6);
  CHECK("barrier_value_completes", wait_value(done, 0, 10000), "signal %lld",
        (long long)hsa_signal_load_scacquire(done));

  for (int i = 0; i < 3; i++)
    hsa_signal_destroy(dep[i]);
  hsa_signal_destroy(done);
}

static hsa_region_t sys_region, kernarg_region;
static int bad_pointer;

static hsa_status_t find_regions(hsa_region_t r, void *d)
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

static hsa_agent_t cpu;

static hsa_status_t cpu_regions(hsa_agent_t a, void *d)
{
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_CPU) {
    cpu = a;
    hsa_agent_iterate_regions(a, find_regions, d);
  }
  return HSA_STATUS_SUCCESS;
}

/* Loads `name` from the code object at `path`; 0 on failure (reported). */
static int load_kernel(const char *path, const char *name, const char *check, uint64_t *kobj,
                       uint32_t *kasize, uint32_t *gsize, uint32_t *psize)
{
  FILE *f = fopen(path, "rb");
  if (!f) {
    CHECK(check, 0, "cannot open %s", path);
    return 0;
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  rewind(f);
  char *blob = malloc((size_t)len);
  if (fread(blob, 1, (size_t)len, f) != (size_t)len) {
    fclose(f);
    free(blob);
    CHECK(check, 0, "short read");
    return 0;
  }
  fclose(f);
  hsa_code_object_reader_t rd;
  hsa_executable_t ex;
  hsa_executable_symbol_t sym;
  hsa_status_t st = hsa_code_object_reader_create_from_memory(blob, (size_t)len, &rd);
  if (!st)
    st = hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                   NULL, &ex);
  if (!st)
    st = hsa_executable_load_agent_code_object(ex, gpu, rd, NULL, NULL);
  if (!st)
    st = hsa_executable_freeze(ex, NULL);
  if (!st)
    st = hsa_executable_get_symbol_by_name(ex, name, &gpu, &sym);
  CHECK(check, st == HSA_STATUS_SUCCESS, "status 0x%x", (unsigned)st);
  /* the reader and the executable (and so the blob) live until hsa_shut_down */
  if (st)
    return 0;
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, kobj);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, kasize);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, gsize);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, psize);
  return 1;
}

/* vadd(a, b, c, n): c[i] = a[i] + b[i] for i < n, over a grid that does not divide evenly */
static void vector_add(hsa_queue_t *q, const char *path, const char *name)
{
  uint64_t kobj;
  uint32_t kasize, gsize, psize;
  if (!load_kernel(path, name, "kernel_load", &kobj, &kasize, &gsize, &psize))
    return;

  hsa_iterate_agents(cpu_regions, NULL);
  enum { N = 1000 };
  float *a, *b, *c;
  void *ka;
  hsa_memory_allocate(sys_region, N * sizeof(float), (void **)&a);
  hsa_memory_allocate(sys_region, N * sizeof(float), (void **)&b);
  hsa_memory_allocate(sys_region, N * sizeof(float), (void **)&c);
  hsa_memory_allocate(kernarg_region, kasize < 64 ? 64 : kasize, &ka);
  for (int i = 0; i < N; i++) {
    a[i] = (float)i * 0.5f;
    b[i] = 1000.0f - (float)i;
    c[i] = -1.0f;
  }
  memset(ka, 0, kasize);
  struct { void *a, *b, *c; uint32_t n; } args = { a, b, bad_pointer ? (float *)0x7e0000000000ull : c, N };
  memcpy(ka, &args, sizeof args);

  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  hsa_kernel_dispatch_packet_t p;
  memset(&p, 0, sizeof p);
  p.setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  p.workgroup_size_x = 256;
  p.workgroup_size_y = p.workgroup_size_z = 1;
  p.grid_size_x = N + 10;   /* 1010: the last work-group is partial (242 of 256); the kernel checks i < n */
  p.grid_size_y = p.grid_size_z = 1;
  p.kernel_object = kobj;
  p.kernarg_address = ka;
  p.group_segment_size = gsize;
  p.private_segment_size = psize;
  p.completion_signal = done;
  uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
  publish(q, idx, &p, hdr(HSA_PACKET_TYPE_KERNEL_DISPATCH));
  int ok = wait_value(done, 0, 60000);
  CHECK("kernel_completes", ok, "completion signal %lld", (long long)hsa_signal_load_scacquire(done));
  int bad = -1;
  for (int i = 0; ok && i < N; i++)
    if (c[i] != a[i] + b[i]) {
      bad = i;
      break;
    }
  CHECK("kernel_result", ok && bad < 0, "c[%d] = %g, want %g", bad, bad >= 0 ? c[bad] : 0.0,
        bad >= 0 ? a[bad] + b[bad] : 0.0);
  hsa_signal_destroy(done);
}

/* ids(out): every work-item writes its work-group and work-item ids at its global index, over
 * a 3-D grid of 4-wave work-groups that is partial in every dimension. */
static void workitem_ids(hsa_queue_t *q, const char *path)
{
  uint64_t kobj;
  uint32_t kasize, gsize, psize;
  if (!load_kernel(path, "ids.kd", "ids_load", &kobj, &kasize, &gsize, &psize))
    return;
  enum { GX = 19, GY = 11, GZ = 5, WX = 8, WY = 8, WZ = 4 };
  uint32_t *out;
  void *ka;
  hsa_memory_allocate(sys_region, GX * GY * GZ * 4, (void **)&out);
  hsa_memory_allocate(kernarg_region, kasize < 64 ? 64 : kasize, &ka);
  memset(out, 0xff, GX * GY * GZ * 4);
  memset(ka, 0, kasize);
  memcpy(ka, &out, sizeof out);
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  hsa_kernel_dispatch_packet_t p;
  memset(&p, 0, sizeof p);
  p.setup = 3 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  p.workgroup_size_x = WX;
  p.workgroup_size_y = WY;
  p.workgroup_size_z = WZ;
  p.grid_size_x = GX;
  p.grid_size_y = GY;
  p.grid_size_z = GZ;
  p.kernel_object = kobj;
  p.kernarg_address = ka;
  p.group_segment_size = gsize;
  p.private_segment_size = psize;
  p.completion_signal = done;
  uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
  publish(q, idx, &p, hdr(HSA_PACKET_TYPE_KERNEL_DISPATCH));
  int ok = wait_value(done, 0, 60000);
  int bad = -1;
  uint32_t want = 0;
  for (int z = 0; ok && z < GZ && bad < 0; z++)
    for (int y = 0; y < GY && bad < 0; y++)
      for (int x = 0; x < GX; x++) {
        int i = (z * GY + y) * GX + x;
        want = (uint32_t)(x / WX | (y / WY) << 8 | (z / WZ) << 16 | (x % WX) << 20 |
                          (y % WY) << 24 | (z % WZ) << 28);
        if (out[i] != want) {
          bad = i;
          break;
        }
      }
  CHECK("ids_result", ok && bad < 0, "done %d, out[%d] = 0x%08x, want 0x%08x", ok, bad,
        bad >= 0 ? out[bad] : 0, want);
  hsa_signal_destroy(done);
}

static hsa_region_t vram_region;

static hsa_status_t find_vram(hsa_region_t r, void *d)
{
  (void)d;
  hsa_region_segment_t seg;
  uint32_t flags;
  hsa_region_get_info(r, HSA_REGION_INFO_SEGMENT, &seg);
  hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
  if (seg == HSA_REGION_SEGMENT_GLOBAL && (flags & HSA_REGION_GLOBAL_FLAG_COARSE_GRAINED))
    vram_region = r;
  return HSA_STATUS_SUCCESS;
}

/* host -> VRAM -> host through the runtime's copy engine (SDMA on gfx9 by default) */
static void copies(void)
{
  hsa_agent_iterate_regions(gpu, find_vram, NULL);
  hsa_iterate_agents(cpu_regions, NULL);
  enum { N = 2 * 1024 * 1024 + 4100 };   /* above ROCR's 1 MiB blit-kernel limit: SDMA */
  uint8_t *h1, *h2, *dev;
  if (hsa_memory_allocate(sys_region, N, (void **)&h1) || hsa_memory_allocate(sys_region, N, (void **)&h2) ||
      hsa_memory_allocate(vram_region, N, (void **)&dev)) {
    CHECK("copy_alloc", 0, "allocation failed");
    return;
  }
  for (int i = 0; i < N; i++) {
    h1[i] = (uint8_t)(i * 13 + 1);
    h2[i] = 0;
  }
  hsa_status_t a = hsa_memory_copy(dev, h1, N);
  hsa_status_t b = hsa_memory_copy(h2, dev, N);
  CHECK("copy_roundtrip", !a && !b && memcmp(h1, h2, N) == 0, "status %d/%d, %s", (int)a, (int)b,
        memcmp(h1, h2, N) ? "bytes differ" : "bytes equal");
  /* the asynchronous copy goes through an SDMA queue on gfx9 */
  hsa_signal_t s;
  hsa_signal_create(1, 0, NULL, &s);
  memset(h2, 0, N);
  for (int i = 0; i < N; i++)
    h1[i] = (uint8_t)(i * 31 + 7);
  a = hsa_amd_memory_async_copy(dev, gpu, h1, cpu, N, 0, NULL, s);
  int ok = !a && wait_value(s, 0, 60000);
  hsa_signal_store_screlease(s, 1);
  b = hsa_amd_memory_async_copy(h2, cpu, dev, gpu, N, 0, NULL, s);
  ok = ok && !b && wait_value(s, 0, 60000);
  CHECK("async_copy_roundtrip", ok && memcmp(h1, h2, N) == 0, "status %d/%d, signal %lld, %s",
        (int)a, (int)b, (long long)hsa_signal_load_scacquire(s),
        memcmp(h1, h2, N) ? "bytes differ" : "bytes equal");
  /* a copy that depends on a signal the host releases later (SDMA polls it) */
  hsa_signal_t dep;
  hsa_signal_create(1, 0, NULL, &dep);
  hsa_signal_store_screlease(s, 1);
  memset(h2, 0, N);
  a = hsa_amd_memory_async_copy(h2, cpu, dev, gpu, N, 1, &dep, s);
  int early = wait_value(s, 0, 200);
  int untouched = h2[N - 1] == 0 && h2[0] == 0;
  hsa_signal_store_screlease(dep, 0);
  ok = !a && wait_value(s, 0, 60000);
  CHECK("async_copy_waits_for_dependency", !early && untouched && ok && memcmp(h1, h2, N) == 0,
        "status %d, early %d, untouched %d, done %d", (int)a, early, untouched, ok);
  hsa_signal_destroy(dep);
  hsa_signal_destroy(s);
  hsa_memory_free(h1);
  hsa_memory_free(h2);
  hsa_memory_free(dev);
}

static volatile int cb_called;
static volatile hsa_status_t cb_status;

static void queue_error(hsa_status_t st, hsa_queue_t *q, void *data)
{
  (void)q;
  (void)data;
  cb_status = st;
  cb_called = 1;
}

/* Malformed dispatch packets, each on a queue of its own (a queue stops at its first error):
 * the packet processor reports the first failing check through the queue's inactive signal,
 * and the runtime calls the queue's error callback with the status it maps the code to. The
 * dimension count comes before everything else, then the sizes, the group segment, the code
 * object and the work-group size, so a packet with two faults names the earlier one. */
struct bad_dispatch {
  const char *name;
  uint16_t setup, wg_x;
  uint32_t group_bytes;
  uint64_t kernel_object;
  hsa_status_t want;
};

static void invalid_dispatch(void)
{
  static const struct bad_dispatch cases[] = {
    { "queue_error_callback", 1, 0, 0, 64, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS },
    { "bad_dispatch_no_dimensions", 0, 64, 0, 64, HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS },
    { "bad_dispatch_no_dimensions_and_group_too_large", 0, 2048, 0, 64,
      HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS },
    { "bad_dispatch_no_dimensions_and_no_code", 0, 64, 0, 0,
      HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS },
    { "bad_dispatch_group_segment", 1, 64, 128u << 10, 64, HSA_STATUS_ERROR_INVALID_ALLOCATION },
    { "bad_dispatch_group_segment_and_group_too_large", 1, 2048, 128u << 10, 64,
      HSA_STATUS_ERROR_INVALID_ALLOCATION },
    { "bad_dispatch_no_code", 1, 64, 0, 0, HSA_STATUS_ERROR_INVALID_CODE_OBJECT },
    { "bad_dispatch_misaligned_code", 1, 64, 0, 96, HSA_STATUS_ERROR_INVALID_CODE_OBJECT },
    { "bad_dispatch_no_code_and_group_too_large", 1, 2048, 0, 0,
      HSA_STATUS_ERROR_INVALID_CODE_OBJECT },
    { "bad_dispatch_group_too_large", 1, 2048, 0, 64, HSA_STATUS_ERROR_INVALID_ARGUMENT },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const struct bad_dispatch *c = &cases[i];
    hsa_queue_t *q;
    cb_called = 0;
    cb_status = HSA_STATUS_SUCCESS;
    if (hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                         UINT32_MAX, &q)) {
      CHECK(c->name, 0, "cannot create a queue");
      continue;
    }
    hsa_kernel_dispatch_packet_t p;
    memset(&p, 0, sizeof p);
    p.setup = c->setup;
    p.workgroup_size_x = c->wg_x;
    p.workgroup_size_y = p.workgroup_size_z = 1;
    p.grid_size_x = 4096;
    p.grid_size_y = p.grid_size_z = 1;
    p.group_segment_size = c->group_bytes;
    p.kernel_object = c->kernel_object;
    uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
    publish(q, idx, &p, hdr(HSA_PACKET_TYPE_KERNEL_DISPATCH));
    for (int t = 0; t < 10000 && !cb_called; t++)
      nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
    CHECK(c->name, cb_called && cb_status == c->want, "called %d, status 0x%x, want 0x%x",
          cb_called, (unsigned)cb_status, (unsigned)c->want);
    hsa_queue_destroy(q);
  }
}

int main(int argc, char **argv)
{
  if (hsa_init() != HSA_STATUS_SUCCESS) {
    printf("init FAIL\n");
    return 1;
  }
  hsa_iterate_agents(find_gpu, NULL);
  if (!have_gpu) {
    printf("gpu FAIL no GPU agent\n");
    return 1;
  }
  hsa_queue_t *q = NULL;
  hsa_status_t st = hsa_queue_create(gpu, 256, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                                     UINT32_MAX, &q);
  CHECK("queue_create", st == HSA_STATUS_SUCCESS, "status %d", (int)st);
  if (st != HSA_STATUS_SUCCESS)
    return 1;
  barriers(q);
  copies();
  invalid_dispatch();
  if (argc > 3 && !strcmp(argv[3], "fault"))
    bad_pointer = 1;   /* the runtime's VM fault handler ends the process */
  if (argc > 2)
    vector_add(q, argv[1], argv[2]);
  for (int i = 3; i < argc; i++)
    if (!strncmp(argv[i], "ids=", 4))
      workitem_ids(q, argv[i] + 4);
  hsa_queue_destroy(q);
  CHECK("shut_down", hsa_shut_down() == HSA_STATUS_SUCCESS, "failed");
  return failures ? 1 : 0;
}
