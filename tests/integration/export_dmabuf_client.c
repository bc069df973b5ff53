/* SPDX-License-Identifier: MIT */
/* export_dmabuf_client.c — hsa_amd_portable_export_dmabuf and _close_dmabuf. "client MINOR":
 * GPU memory filled through hsa_memory_copy is exported from an interior address; the offset
 * is that address's place in the buffer, and below KFD 1.12 the call fails
 * (HSA_STATUS_ERROR). From 1.12 on, a second process ("client import FD OFFSET": its own
 * runtime and driver) takes the descriptor with hsa_amd_interop_map_buffer (KFD import),
 * reads the bytes at the offset with hsa_memory_copy on the imported address and through a
 * mapping of the descriptor, writes its answer, and
 * the first reads it back from its GPU memory with hsa_memory_copy. The documented statuses:
 * null arguments, an address in no allocation, a range past the end, system memory, closing
 * a closed descriptor, calls before hsa_init. One "name ok" / "name FAIL why" line each. */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define SIZE (256u << 10)
#define OFF (64u << 10)
#define N 1024u

#define CLIENT_CHECK_COUNTS
#include "lib/client.h"

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t vram, sysmem;

static void setup(void)
{
  if (hsa_init() != HSA_STATUS_SUCCESS) {
    printf("init FAIL\n");
    exit(1);
  }
  client_pick_memory(&gpu, &cpu, &vram, &sysmem);
  if (!gpu.handle || !vram.handle || !sysmem.handle) {
    printf("agents FAIL\n");
    exit(1);
  }
}

static uint32_t pattern(uint32_t i)
{
  return i * 2246822519u + 7;
}

static int importer(int fd, uint64_t off)
{
  setup();
  size_t size = 0, msize = 0;
  void *ptr = NULL;
  const void *meta = NULL;
  hsa_status_t st = hsa_amd_interop_map_buffer(1, &gpu, fd, 0, &size, &ptr, &msize, &meta);
  CHECK("import_map", st == HSA_STATUS_SUCCESS && ptr && size >= off + N * 4,
        "status 0x%x size %zu", (unsigned)st, size);
  if (st)
    return 1;
  /* The runtime's copy from the imported address (device memory of the exporting GPU) */
  uint32_t *sys = NULL;
  hsa_amd_memory_pool_allocate(sysmem, N * 4, 0, (void **)&sys);
  hsa_amd_agents_allow_access(1, &gpu, NULL, sys);
  st = sys ? hsa_memory_copy(sys, (char *)ptr + off, N * 4) : HSA_STATUS_ERROR;
  uint32_t wrong = 0;
  for (uint32_t i = 0; st == HSA_STATUS_SUCCESS && i < N; i++)
    wrong += sys[i] != pattern(i);
  CHECK("import_copy", st == HSA_STATUS_SUCCESS && wrong == 0, "status 0x%x, %u differ",
        (unsigned)st, wrong);
  hsa_amd_pointer_info_t info = {.size = sizeof(info)};
  hsa_amd_pointer_info((char *)ptr + off, &info, NULL, NULL, NULL);
  CHECK("import_pointer_info", info.type == HSA_EXT_POINTER_TYPE_GRAPHICS &&
                                   info.agentBaseAddress == ptr &&
                                   info.agentOwner.handle == gpu.handle,
        "type %d base %p", (int)info.type, info.agentBaseAddress);
  hsa_amd_memory_pool_free(sys);
  /* The bytes through a CPU mapping of the descriptor itself. */
  uint32_t *host = mmap(NULL, off + N * 4, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  CHECK("import_cpu_map", host != MAP_FAILED, "-");
  if (host == MAP_FAILED)
    return 1;
  host += off / 4;
  uint32_t bad = 0;
  for (uint32_t i = 0; i < N; i++)
    bad += host[i] != pattern(i);
  CHECK("import_reads", bad == 0, "%u differ", bad);
  for (uint32_t i = 0; i < N; i++)
    host[i] = ~pattern(i);
  hsa_amd_interop_unmap_buffer(ptr);
  hsa_shut_down();
  return failures ? 1 : 0;
}

static int exporter(unsigned minor, const char *self)
{
  int fd = -1;
  uint64_t off = 0;
  CHECK("before_init", hsa_amd_portable_export_dmabuf(&fd, 4, &fd, &off) ==
                           HSA_STATUS_ERROR_NOT_INITIALIZED, "-");
  setup();
  char *dev = NULL, *sys = NULL;
  if (hsa_amd_memory_pool_allocate(vram, SIZE, 0, (void **)&dev) ||
      hsa_amd_memory_pool_allocate(sysmem, SIZE, 0, (void **)&sys)) {
    printf("alloc FAIL\n");
    return 1;
  }
  hsa_amd_agents_allow_access(1, &gpu, NULL, sys);
  uint32_t *host = (uint32_t *)sys;
  for (uint32_t i = 0; i < N; i++)
    host[i] = pattern(i);
  hsa_memory_copy(dev + OFF, host, N * 4);

  CHECK("null_args", hsa_amd_portable_export_dmabuf(NULL, 4, &fd, &off) ==
                         HSA_STATUS_ERROR_INVALID_ARGUMENT &&
                     hsa_amd_portable_export_dmabuf(dev, 4, NULL, &off) ==
                         HSA_STATUS_ERROR_INVALID_ARGUMENT &&
                     hsa_amd_portable_export_dmabuf(dev, 4, &fd, NULL) ==
                         HSA_STATUS_ERROR_INVALID_ARGUMENT, "-");
  int stack;
  CHECK("not_allocated", hsa_amd_portable_export_dmabuf(&stack, 4, &fd, &off) ==
                             HSA_STATUS_ERROR_INVALID_ALLOCATION, "-");
  CHECK("past_end", hsa_amd_portable_export_dmabuf(dev + OFF, SIZE, &fd, &off) ==
                        HSA_STATUS_ERROR_INVALID_ALLOCATION, "-");
  CHECK("system_memory", hsa_amd_portable_export_dmabuf(sys, 4096, &fd, &off) ==
                             HSA_STATUS_ERROR_INVALID_AGENT, "-");
  hsa_status_t st = hsa_amd_portable_export_dmabuf(dev + OFF, N * 4, &fd, &off);
  if (minor < 12) {
    CHECK("export_refused", st == HSA_STATUS_ERROR, "status 0x%x", (unsigned)st);
    hsa_shut_down();
    return failures ? 1 : 0;
  }
  CHECK("export", st == HSA_STATUS_SUCCESS && fd >= 0 && off == OFF, "status 0x%x off %llu",
        (unsigned)st, (unsigned long long)off);
  /* _v2: NONE and PCIE export the same buffer (the same bytes through the descriptor); an
   * unknown mapping type is refused */
  int fd2 = -1;
  uint64_t off2 = 0;
  hsa_status_t st2 = hsa_amd_portable_export_dmabuf_v2(dev + OFF, N * 4, &fd2, &off2,
                                                       HSA_AMD_DMABUF_MAPPING_TYPE_PCIE);
  uint32_t *view = st2 == HSA_STATUS_SUCCESS ? mmap(NULL, OFF + N * 4, PROT_READ, MAP_SHARED,
                                                    fd2, 0)
                                             : MAP_FAILED;
  uint32_t differ = view == MAP_FAILED ? N : 0;
  for (uint32_t i = 0; view != MAP_FAILED && i < N; i++)
    differ += view[OFF / 4 + i] != pattern(i);
  CHECK("export_v2_pcie", st2 == HSA_STATUS_SUCCESS && off2 == OFF && differ == 0,
        "status 0x%x off %llu, %u differ", (unsigned)st2, (unsigned long long)off2, differ);
  if (view != MAP_FAILED)
    munmap(view, OFF + N * 4);
  if (fd2 >= 0)
    hsa_amd_portable_close_dmabuf(fd2);
  CHECK("export_v2_bad_flags", hsa_amd_portable_export_dmabuf_v2(dev + OFF, N * 4, &fd2, &off2,
                                                                 2) ==
                                   HSA_STATUS_ERROR_INVALID_ARGUMENT, "-");
  if (st)
    return 1;
  char fdarg[16], offarg[24];
  int child_fd = dup(fd);   /* the runtime's descriptor is close-on-exec; this one is not */
  snprintf(fdarg, sizeof fdarg, "%d", child_fd);
  snprintf(offarg, sizeof offarg, "%llu", (unsigned long long)off);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    execl(self, self, "import", fdarg, offarg, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  close(child_fd);
  CHECK("importer_exit", WIFEXITED(status) && WEXITSTATUS(status) == 0, "status 0x%x", status);
  memset(host, 0, N * 4);
  hsa_memory_copy(host, dev + OFF, N * 4);
  uint32_t bad = 0;
  for (uint32_t i = 0; i < N; i++)
    bad += host[i] != ~pattern(i);
  CHECK("answer_seen", bad == 0, "%u differ", bad);
  CHECK("close", hsa_amd_portable_close_dmabuf(fd) == HSA_STATUS_SUCCESS, "-");
  CHECK("close_again", hsa_amd_portable_close_dmabuf(fd) == HSA_STATUS_ERROR_RESOURCE_FREE, "-");
  hsa_amd_memory_pool_free(dev);
  hsa_amd_memory_pool_free(sys);
  hsa_shut_down();
  return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc == 4 && strcmp(argv[1], "import") == 0)
    return importer(atoi(argv[2]), strtoull(argv[3], NULL, 10));
  if (argc != 2)
    return 2;
  return exporter((unsigned)atoi(argv[1]), argv[0]);
}
