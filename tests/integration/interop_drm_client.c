/* SPDX-License-Identifier: MIT */
/* interop_drm_client.c — graphics interop end to end, as another API would hand a buffer to
 * HSA: libdrm_amdgpu on the GPU's render node allocates a buffer object (VRAM, then GTT),
 * maps it for the CPU and fills it, exports it as a dma-buf; hsa_amd_interop_map_buffer
 * imports that descriptor, a kernel (argv[1]: code object with twice(buf, n): buf[i] =
 * 2 * buf[i] + 1) rewrites it on the GPU, and the CPU mapping made through libdrm sees the
 * result. Also: a context made and freed (amdgpu_cs_ctx_create), a high-priority context
 * refused to an unprivileged process, GEM argument checks. Built against Debian's ROCR 5.2.3
 * or ours; one "name ok" / "name FAIL why" line per check; exit 0 only if all passed. */
#include <amdgpu.h>
#include <amdgpu_drm.h>
#include <errno.h>
#include <fcntl.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

static int failures;
#define CHECK(name, cond, ...) do { if (cond) printf("%s ok\n", name); else { failures++; \
  printf("%s FAIL ", name); printf(__VA_ARGS__); printf("\n"); } } while (0)

static hsa_agent_t gpu;
static int have_gpu;
static hsa_region_t kernarg_region;

static hsa_status_t find_kernarg(hsa_region_t r, void *d)
{
  (void)d;
  hsa_region_segment_t seg;
  uint32_t flags;
  hsa_region_get_info(r, HSA_REGION_INFO_SEGMENT, &seg);
  hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
  if (seg == HSA_REGION_SEGMENT_GLOBAL && (flags & HSA_REGION_GLOBAL_FLAG_KERNARG))
    kernarg_region = r;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_agents(hsa_agent_t a, void *d)
{
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !have_gpu) {
    gpu = a;
    have_gpu = 1;
  } else if (t == HSA_DEVICE_TYPE_CPU)
    hsa_agent_iterate_regions(a, find_kernarg, NULL);
  return HSA_STATUS_SUCCESS;
}

static uint64_t kobj;
static uint32_t kasize, gsize, psize;

static int load(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return 0;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  rewind(f);
  char *blob = malloc((size_t)len);
  size_t got = fread(blob, 1, (size_t)len, f);
  fclose(f);
  if (got != (size_t)len)
    return 0;
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
    st = hsa_executable_get_symbol_by_name(ex, "twice.kd", &gpu, &sym);
  if (st)
    return 0;
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kobj);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kasize);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &gsize);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &psize);
  return 1;
}

/* twice(buf, n) over n work-items; 1 when its completion signal reached 0. */
static int run_twice(hsa_queue_t *q, void *buf, uint32_t n)
{
  void *ka;
  if (hsa_memory_allocate(kernarg_region, kasize < 64 ? 64 : kasize, &ka))
    return 0;
  memset(ka, 0, kasize);
  memcpy(ka, &buf, sizeof buf);
  memcpy((char *)ka + 8, &n, 4);
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  uint64_t idx = hsa_queue_add_write_index_screlease(q, 1);
  hsa_kernel_dispatch_packet_t *p = (hsa_kernel_dispatch_packet_t *)q->base_address + (idx % q->size);
  memset((char *)p + 4, 0, sizeof *p - 4);
  p->workgroup_size_x = 256;
  p->workgroup_size_y = p->workgroup_size_z = 1;
  p->grid_size_x = n;
  p->grid_size_y = p->grid_size_z = 1;
  p->kernel_object = kobj;
  p->kernarg_address = ka;
  p->group_segment_size = gsize;
  p->private_segment_size = psize;
  p->completion_signal = done;
  uint32_t h = HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
               1 << HSA_PACKET_HEADER_BARRIER |
               HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
               HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
  __atomic_store_n((uint32_t *)p, h | 1u << 16, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
  int ok = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 30000000000ull,
                                     HSA_WAIT_STATE_BLOCKED) == 0;
  hsa_signal_destroy(done);
  hsa_memory_free(ka);
  return ok;
}

enum { N = 16384 };   /* 64 KiB of uint */

static void interop(amdgpu_device_handle dev, hsa_queue_t *q, uint32_t heap, const char *tag)
{
  char name[64];
  struct amdgpu_bo_alloc_request req = { .alloc_size = N * 4, .phys_alignment = 4096,
                                         .preferred_heap = heap,
                                         .flags = AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED };
  amdgpu_bo_handle bo;
  int r = amdgpu_bo_alloc(dev, &req, &bo);
  snprintf(name, sizeof name, "%s_bo_alloc", tag);
  CHECK(name, r == 0, "%d", r);
  if (r)
    return;
  uint32_t *cpu = NULL;
  r = amdgpu_bo_cpu_map(bo, (void **)&cpu);
  snprintf(name, sizeof name, "%s_cpu_map", tag);
  CHECK(name, r == 0 && cpu, "%d", r);
  if (r)
    return;
  for (uint32_t i = 0; i < N; i++)
    cpu[i] = i * 3u;
  uint32_t fd = 0;
  r = amdgpu_bo_export(bo, amdgpu_bo_handle_type_dma_buf_fd, &fd);
  snprintf(name, sizeof name, "%s_export", tag);
  CHECK(name, r == 0, "%d", r);
  if (r)
    return;
  size_t size = 0, msize = 99;
  void *ptr = NULL;
  const void *meta = NULL;
  hsa_status_t st = hsa_amd_interop_map_buffer(1, &gpu, (int)fd, 0, &size, &ptr, &msize, &meta);
  snprintf(name, sizeof name, "%s_interop_map", tag);
  CHECK(name, st == HSA_STATUS_SUCCESS && ptr && size >= N * 4 && msize == 0,
        "status 0x%x, size %zu, metadata %zu", (unsigned)st, size, msize);
  if (st)
    return;
  int ran = run_twice(q, ptr, N);
  int bad = -1;
  for (uint32_t i = 0; ran && i < N && bad < 0; i++)
    if (cpu[i] != i * 6u + 1)
      bad = (int)i;
  snprintf(name, sizeof name, "%s_gpu_wrote_cpu_sees", tag);
  CHECK(name, ran && bad < 0, "ran %d, [%d] = %u", ran, bad, bad >= 0 ? cpu[bad] : 0);
  snprintf(name, sizeof name, "%s_interop_unmap", tag);
  st = hsa_amd_interop_unmap_buffer(ptr);
  CHECK(name, st == HSA_STATUS_SUCCESS, "status 0x%x", (unsigned)st);
  close((int)fd);
  amdgpu_bo_cpu_unmap(bo);
  snprintf(name, sizeof name, "%s_bo_free", tag);
  CHECK(name, amdgpu_bo_free(bo) == 0, "failed");
}

int main(int argc, char **argv)
{
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc < 2 || hsa_init() != HSA_STATUS_SUCCESS) {
    printf("init FAIL\n");
    return 1;
  }
  hsa_iterate_agents(find_agents, NULL);
  if (!have_gpu || !load(argv[1])) {
    printf("load FAIL\n");
    return 1;
  }
  int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
  uint32_t major = 0, minor = 0;
  amdgpu_device_handle dev;
  int r = fd < 0 ? -errno : amdgpu_device_initialize(fd, &major, &minor, &dev);
  CHECK("device_initialize", r == 0 && major == 3, "%d (version %u.%u)", r, major, minor);
  if (r)
    return 1;

  amdgpu_context_handle ctx;
  r = amdgpu_cs_ctx_create(dev, &ctx);
  CHECK("ctx_create", r == 0, "%d", r);
  if (!r)
    CHECK("ctx_free", amdgpu_cs_ctx_free(ctx) == 0, "failed");
  r = amdgpu_cs_ctx_create2(dev, AMDGPU_CTX_PRIORITY_HIGH, &ctx);
  CHECK("ctx_high_priority", geteuid() == 0 ? r == 0 : r == -EACCES, "%d", r);
  if (!r)
    amdgpu_cs_ctx_free(ctx);

  /* the driver's argument checks, through the raw ioctl */
  union drm_amdgpu_gem_create c;
  memset(&c, 0, sizeof c);
  c.in.bo_size = 4096;
  c.in.domains = AMDGPU_GEM_DOMAIN_GTT;
  c.in.domain_flags = 1ull << 40;
  CHECK("gem_bad_flags", drmCommandWriteRead(fd, DRM_AMDGPU_GEM_CREATE, &c, sizeof c) == -EINVAL, "accepted");
  c.in.domain_flags = 0;
  c.in.domains = 1u << 10;
  CHECK("gem_bad_domain", drmCommandWriteRead(fd, DRM_AMDGPU_GEM_CREATE, &c, sizeof c) == -EINVAL, "accepted");
  union drm_amdgpu_gem_mmap m;
  memset(&m, 0, sizeof m);
  m.in.handle = 4000;
  CHECK("gem_mmap_unknown", drmCommandWriteRead(fd, DRM_AMDGPU_GEM_MMAP, &m, sizeof m) == -ENOENT, "accepted");

  hsa_queue_t *q;
  if (hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q)) {
    printf("queue FAIL\n");
    return 1;
  }
  interop(dev, q, AMDGPU_GEM_DOMAIN_VRAM, "vram");
  interop(dev, q, AMDGPU_GEM_DOMAIN_GTT, "gtt");
  hsa_queue_destroy(q);
  amdgpu_device_deinitialize(dev);
  close(fd);
  CHECK("shut_down", hsa_shut_down() == HSA_STATUS_SUCCESS, "failed");
  return failures ? 1 : 0;
}
