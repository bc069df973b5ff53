/* SPDX-License-Identifier: MIT */
/* contiguous_client.c — HSA_AMD_MEMORY_POOL_CONTIGUOUS_FLAG on a GPU's VRAM pool. "client
 * MINOR": from KFD 1.16 the allocation is a buffer object the driver made physically
 * contiguous, which the test reads from the driver itself: the memory is exported
 * (hsa_amd_portable_export_dmabuf), imported on the render node with libdrm
 * (amdgpu_bo_import) and amdgpu_bo_query_info's flags must hold
 * AMDGPU_GEM_CREATE_VRAM_CONTIGUOUS (an ordinary VRAM allocation's must not); bytes copied in
 * come back out. Below 1.16 the call fails with OUT_OF_RESOURCES (ROCR's status when
 * libhsakmt refuses the flag) and no pointer. Everywhere: the flag on system memory is
 * accepted and ignored, an unknown flag is INVALID_ARGUMENT. One "name ok/FAIL" line each. */
#include <amdgpu.h>
#include <amdgpu_drm.h>
#include <fcntl.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CLIENT_CHECK_COUNTS
#include "lib/client.h"

#define SIZE (3u << 20)

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t vram, sysmem;

/* The AMDGPU_GEM_CREATE_* flags and heap of the buffer object behind ptr, as the render node
 * of the GPU (renderD128 under hsa-sim) reports them; -1 when a step fails. */
static int gem_flags(amdgpu_device_handle dev, void *ptr, size_t size, uint64_t *flags,
                     uint32_t *heap)
{
  int fd = -1;
  uint64_t off = 0;
  if (hsa_amd_portable_export_dmabuf(ptr, size, &fd, &off) != HSA_STATUS_SUCCESS)
    return -1;
  struct amdgpu_bo_import_result res;
  int r = amdgpu_bo_import(dev, amdgpu_bo_handle_type_dma_buf_fd, (uint32_t)fd, &res);
  if (r == 0) {
    struct amdgpu_bo_info info;
    memset(&info, 0, sizeof info);
    r = amdgpu_bo_query_info(res.buf_handle, &info);
    *flags = info.alloc_flags;
    *heap = info.preferred_heap;
    amdgpu_bo_free(res.buf_handle);
  }
  hsa_amd_portable_close_dmabuf(fd);
  return r ? -1 : 0;
}

int main(int argc, char **argv)
{
  unsigned minor = argc > 1 ? (unsigned)atoi(argv[1]) : 18;
  if (hsa_init() != HSA_STATUS_SUCCESS) {
    printf("init FAIL\n");
    return 1;
  }
  client_pick_memory(&gpu, &cpu, &vram, &sysmem);
  if (!gpu.handle || !vram.handle || !sysmem.handle) {
    printf("agents FAIL\n");
    return 1;
  }
  void *p = (void *)0x1;
  hsa_status_t st = hsa_amd_memory_pool_allocate(vram, SIZE, 1u << 7, &p);
  CHECK("unknown_flag", st == HSA_STATUS_ERROR_INVALID_ARGUMENT, "status 0x%x", (unsigned)st);
  void *s = NULL;
  st = hsa_amd_memory_pool_allocate(sysmem, 65536, HSA_AMD_MEMORY_POOL_CONTIGUOUS_FLAG, &s);
  CHECK("system_ignores", st == HSA_STATUS_SUCCESS && s, "status 0x%x", (unsigned)st);
  if (s) {
    memset(s, 0x5a, 65536);
    hsa_amd_memory_pool_free(s);
  }

  p = NULL;
  st = hsa_amd_memory_pool_allocate(vram, SIZE, HSA_AMD_MEMORY_POOL_CONTIGUOUS_FLAG, &p);
  if (minor < 16) {
    CHECK("refused", st == HSA_STATUS_ERROR_OUT_OF_RESOURCES && !p, "status 0x%x ptr %p",
          (unsigned)st, p);
    hsa_shut_down();
    return failures != 0;
  }
  CHECK("allocated", st == HSA_STATUS_SUCCESS && p, "status 0x%x", (unsigned)st);
  if (!p)
    return 1;

  int rfd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
  uint32_t maj = 0, min = 0;
  amdgpu_device_handle dev = NULL;
  if (rfd < 0 || amdgpu_device_initialize(rfd, &maj, &min, &dev)) {
    printf("render_node FAIL\n");
    return 1;
  }
  uint64_t flags = 0;
  uint32_t heap = 0;
  int r = gem_flags(dev, p, SIZE, &flags, &heap);
  hsa_amd_pointer_info_t pi = {.size = sizeof pi};
  hsa_amd_pointer_info(p, &pi, NULL, NULL, NULL);   /* alloc_flags: interface 1.18 */
  CHECK("contiguous_bo", r == 0 && (flags & AMDGPU_GEM_CREATE_VRAM_CONTIGUOUS) &&
        heap == AMDGPU_GEM_DOMAIN_VRAM && pi.registered &&
        (pi.alloc_flags & HSA_AMD_POINTER_INFO_ALLOC_FLAG_CONTIGUOUS),
        "query %d flags 0x%llx heap %u alloc_flags 0x%x", r, (unsigned long long)flags, heap,
        pi.alloc_flags);
  void *q = NULL;
  st = hsa_amd_memory_pool_allocate(vram, SIZE, 0, &q);
  r = st == HSA_STATUS_SUCCESS ? gem_flags(dev, q, SIZE, &flags, &heap) : -1;
  hsa_amd_pointer_info(q, &pi, NULL, NULL, NULL);
  CHECK("ordinary_bo", r == 0 && !(flags & AMDGPU_GEM_CREATE_VRAM_CONTIGUOUS) &&
        !(pi.alloc_flags & HSA_AMD_POINTER_INFO_ALLOC_FLAG_CONTIGUOUS),
        "query %d flags 0x%llx alloc_flags 0x%x", r, (unsigned long long)flags, pi.alloc_flags);

  /* it is memory like any other: bytes in, bytes out */
  uint32_t *in = NULL, *out = NULL;
  hsa_amd_memory_pool_allocate(sysmem, SIZE, 0, (void **)&in);
  hsa_amd_memory_pool_allocate(sysmem, SIZE, 0, (void **)&out);
  if (!in || !out) {
    printf("sysmem FAIL\n");
    return 1;
  }
  hsa_agent_t both[2] = { gpu, cpu };
  hsa_amd_agents_allow_access(2, both, NULL, in);
  hsa_amd_agents_allow_access(2, both, NULL, out);
  for (uint32_t i = 0; i < SIZE / 4; i++)
    in[i] = i * 2654435761u + 11;
  memset(out, 0, SIZE);
  st = hsa_memory_copy(p, in, SIZE);
  hsa_status_t st2 = hsa_memory_copy(out, p, SIZE);
  CHECK("round_trip", st == HSA_STATUS_SUCCESS && st2 == HSA_STATUS_SUCCESS &&
        memcmp(in, out, SIZE) == 0, "status 0x%x 0x%x", (unsigned)st, (unsigned)st2);
  CHECK("free", hsa_amd_memory_pool_free(p) == HSA_STATUS_SUCCESS, "free failed");
  hsa_amd_memory_pool_free(q);
  hsa_amd_memory_pool_free(in);
  hsa_amd_memory_pool_free(out);
  amdgpu_device_deinitialize(dev);
  close(rfd);
  hsa_shut_down();
  return failures != 0;
}
