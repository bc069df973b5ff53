/* SPDX-License-Identifier: MIT */
/* dmabuf_ipc_client.c — KFD's EXPORT_DMABUF between two processes, through /dev/kfd and the
 * render node alone (no HSA runtime). Run as "dmabuf_ipc_client MINOR": the exporter checks
 * GET_VERSION says 1.MINOR, allocates VRAM, fills it, and exports it; below 1.12 the export
 * must be refused (EINVAL: the number is not in such a kernel's table) and that is all. Else
 * it runs itself again ("import FD", a new process with its own driver) with the dma-buf
 * inherited; the importer takes it into KFD (IMPORT_DMABUF) and into the render node (PRIME
 * FD_TO_HANDLE, GEM_MMAP, mmap: what amdgpu_bo_import and amdgpu_bo_cpu_map do), checks the
 * exporter's bytes through that mapping and writes its answer, which the exporter then reads
 * through its own mapping. One "name ok" or "name FAIL why" line per check. */
#include <errno.h>
#include <fcntl.h>
#include <kfd_abi/kfd_ioctl_supp.h>
#include <amdgpu_drm.h>
#include <drm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define SIZE (64u << 10)
#define WORDS (SIZE / 4)

#define CLIENT_NO_HSA
#define CLIENT_CHECK_COUNTS
#include "lib/client.h"

static int kfd, drm;
static uint32_t gpu_id;

static void open_device(void)
{
  client_open_kfd(&kfd, &drm, &gpu_id);
}

static uint32_t pattern(uint32_t i)
{
  return i * 2654435761u ^ 0x5a5a0000u;
}

static int importer(int fd)
{
  open_device();
  void *va = mmap(NULL, SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  struct kfd_ioctl_import_dmabuf_args im = { .va_addr = (uintptr_t)va, .gpu_id = gpu_id,
                                             .dmabuf_fd = (uint32_t)fd };
  int r = ioctl(kfd, AMDKFD_IOC_IMPORT_DMABUF, &im);
  CHECK("kfd_import", r == 0 && im.handle >> 32 == gpu_id, "r=%d errno=%d", r, errno);
  struct drm_prime_handle ph = { .fd = fd };
  r = ioctl(drm, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph);
  CHECK("prime_import", r == 0 && ph.handle != 0, "r=%d errno=%d", r, errno);
  union drm_amdgpu_gem_mmap gm = { .in = { .handle = ph.handle } };
  r = ioctl(drm, DRM_IOCTL_AMDGPU_GEM_MMAP, &gm);
  CHECK("gem_mmap", r == 0, "errno=%d", errno);
  uint32_t *p = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, drm, (off_t)gm.out.addr_ptr);
  if (p == MAP_FAILED)
    client_die("cpu_map");
  uint32_t bad = 0;
  for (uint32_t i = 0; i < WORDS; i++)
    bad += p[i] != pattern(i);
  CHECK("importer_reads", bad == 0, "%u of %u words differ", bad, WORDS);
  for (uint32_t i = 0; i < WORDS; i += 1024)
    p[i] = ~pattern(i);   /* the answer */
  return failures ? 1 : 0;
}

static int exporter(unsigned minor, const char *self)
{
  open_device();
  struct kfd_ioctl_get_version_args v = { 0 };
  if (ioctl(kfd, AMDKFD_IOC_GET_VERSION, &v) != 0)
    client_die("get_version");
  CHECK("version", v.major_version == 1 && v.minor_version == minor, "%u.%u", v.major_version,
        v.minor_version);
  void *va = mmap(NULL, SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  struct kfd_ioctl_alloc_memory_of_gpu_args a = {
    .va_addr = (uintptr_t)va, .size = SIZE, .gpu_id = gpu_id,
    .flags = KFD_IOC_ALLOC_MEM_FLAGS_VRAM | 0x80000000u /* WRITABLE */ |
             KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC };
  if (ioctl(kfd, AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a) != 0)
    client_die("alloc_memory");
  uint32_t *p = mmap(va, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, drm,
                     (off_t)a.mmap_offset);
  if (p != va)
    client_die("mmap_bo");
  for (uint32_t i = 0; i < WORDS; i++)
    p[i] = pattern(i);
  struct kfd_ioctl_export_dmabuf_args x = { .handle = a.handle, .flags = 0 };
  int r = ioctl(kfd, AMDKFD_IOC_EXPORT_DMABUF, &x);
  if (minor < 12) {
    CHECK("export_refused", r == -1 && errno == EINVAL, "r=%d errno=%d", r, errno);
    return failures ? 1 : 0;
  }
  CHECK("export", r == 0, "errno=%d", errno);
  if (r)
    return 1;
  char fdarg[16];
  snprintf(fdarg, sizeof fdarg, "%u", x.dmabuf_fd);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    execl(self, self, "import", fdarg, (char *)NULL);
    _exit(127);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK("importer_exit", WIFEXITED(st) && WEXITSTATUS(st) == 0, "status 0x%x", st);
  uint32_t bad = 0;
  for (uint32_t i = 0; i < WORDS; i++)
    bad += p[i] != ((i % 1024) ? pattern(i) : ~pattern(i));
  CHECK("exporter_sees_answer", bad == 0, "%u words differ", bad);
  close((int)x.dmabuf_fd);
  return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc == 3 && strcmp(argv[1], "import") == 0)
    return importer(atoi(argv[2]));
  if (argc != 2)
    return 2;
  return exporter((unsigned)atoi(argv[1]), argv[0]);
}
