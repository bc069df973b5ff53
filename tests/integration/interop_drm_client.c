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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#define CLIENT_CHECK_COUNTS
#include "lib/client.h"

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

static struct client_kernel twice;

static int load(const char *path)
{
  hsa_executable_t ex;
  return client_load_file(gpu, path, HSA_PROFILE_FULL, &ex) == HSA_STATUS_SUCCESS &&
         client_kernel(ex, gpu, "twice.kd", &twice) == HSA_STATUS_SUCCESS;
}

/* twice(buf, n) over n work-items; 1 when its completion signal reached 0. */
static int run_twice(hsa_queue_t *q, void *buf, uint32_t n)
{
  void *ka;
  if (hsa_memory_allocate(kernarg_region, twice.kernarg_size < 64 ? 64 : twice.kernarg_size, &ka))
    return 0;
  memset(ka, 0, twice.kernarg_size);
  memcpy(ka, &buf, sizeof buf);
  memcpy((char *)ka + 8, &n, 4);
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  client_dispatch(q, &twice, ka, n, 256, done);
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
