/* SPDX-License-Identifier: MIT */
/* ipc_memory_client.c — hsa_amd_ipc_memory_create/attach/detach between processes.
 * "client CO MINOR" (the exporter): a kernel (CO: fill(buf, n, seed): buf[i] = i * seed + 7)
 * writes two device allocations, a whole 1 MiB one and a 16 KiB one that is a sub-allocation
 * of a larger buffer object; their handles go to a second process ("attach ..."), which
 * attaches them (on its GPU, and with no agent list), checks pointer info, reads both with
 * hsa_memory_copy and the big one with hsa_amd_memory_async_copy at an offset, all against
 * the pattern computed here, writes an answer the exporter then reads from its own memory,
 * and reads again after the exporter freed its allocations (the import holds the memory),
 * then detaches. System memory: the exporter's 1 MiB allocation keeps its bytes and its GPU
 * mapping when shared (a kernel writes it after), and the attacher reads and writes it with
 * the CPU. Bad handles: one nobody exports (this pid with an unknown address; a pid
 * with no runtime, as from another boot), one from an exporter that ended ("export" child:
 * creates a handle, prints it, exits), one whose memory was freed; wrong create arguments
 * (interior address, wrong size).
 * Below KFD 1.12 create fails with OUT_OF_RESOURCES and a message. One line per check. */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define BIG (1u << 20)
#define SMALL (16u << 10)
#define N (BIG / 4)
#define NS (SMALL / 4)

#define CLIENT_CHECK_COUNTS
#include "lib/client.h"

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t vram, sysmem;
static struct client_regions regions;
static struct client_kernel fill;
static hsa_queue_t *queue;

static void setup(const char *co)
{
  if (hsa_init() != HSA_STATUS_SUCCESS || client_pick_memory(&gpu, &cpu, &vram, &sysmem)) {
    printf("init FAIL\n");
    exit(1);
  }
  hsa_agent_iterate_regions(cpu, client_pick_regions, &regions);
  hsa_executable_t ex;
  if (!vram.handle || !sysmem.handle || !regions.kernarg.handle ||
      client_load_file(gpu, co, HSA_PROFILE_FULL, &ex) != HSA_STATUS_SUCCESS ||
      client_kernel(ex, gpu, "fill.kd", &fill) != HSA_STATUS_SUCCESS ||
      hsa_queue_create(gpu, 256, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                       &queue) != HSA_STATUS_SUCCESS) {
    printf("setup FAIL\n");
    exit(1);
  }
}

static uint32_t pattern(uint32_t i, uint32_t seed)
{
  return i * seed + 7;
}

static int run_fill(void *buf, uint32_t n, uint32_t seed)
{
  char *ka;
  if (hsa_memory_allocate(regions.kernarg, 64, (void **)&ka))
    return 0;
  memset(ka, 0, 64);
  memcpy(ka, &buf, 8);
  memcpy(ka + 8, &n, 4);
  memcpy(ka + 12, &seed, 4);
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  client_dispatch(queue, &fill, ka, n, 256, done);
  int ok = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 60000000000ull,
                                     HSA_WAIT_STATE_BLOCKED) == 0;
  hsa_signal_destroy(done);
  hsa_memory_free(ka);
  return ok;
}

/* Words of dev (device memory) [0, n) that differ from want(i) (read through host memory). */
static uint32_t differ(const void *dev, uint32_t n, uint32_t seed, uint32_t first)
{
  uint32_t *host = NULL;
  if (hsa_amd_memory_pool_allocate(sysmem, (size_t)n * 4, 0, (void **)&host))
    return n;
  hsa_amd_agents_allow_access(1, &gpu, NULL, host);
  uint32_t bad = n;
  if (hsa_memory_copy(host, dev, (size_t)n * 4) == HSA_STATUS_SUCCESS) {
    bad = 0;
    for (uint32_t i = 0; i < n; i++)
      bad += host[i] != pattern(first + i, seed);
  }
  hsa_amd_memory_pool_free(host);
  return bad;
}

static void put(const hsa_amd_ipc_memory_t *h, char *out)
{
  for (int i = 0; i < 8; i++)
    out += sprintf(out, "%08x", h->handle[i]);
}

static void get(const char *in, hsa_amd_ipc_memory_t *h)
{
  for (int i = 0; i < 8; i++) {
    char w[9] = {0};
    memcpy(w, in + 8 * i, 8);
    h->handle[i] = (uint32_t)strtoul(w, NULL, 16);
  }
}

static int attacher(const char *co, const char *hbig, const char *hsmall, const char *hsys,
                    int go, int back)
{
  setup(co);
  hsa_amd_ipc_memory_t hb, hs, hy;
  get(hbig, &hb);
  get(hsmall, &hs);
  get(hsys, &hy);
  uint32_t *sysmem_in = NULL;
  hsa_status_t sst = hsa_amd_ipc_memory_attach(&hy, BIG, 1, &gpu, (void **)&sysmem_in);
  uint32_t wrong = sysmem_in ? 0 : N;
  for (uint32_t i = 0; sysmem_in && i < N; i++)
    wrong += sysmem_in[i] != pattern(i, 13);   /* through the CPU */
  CHECK("system_memory_cpu_reads", sst == HSA_STATUS_SUCCESS && wrong == 0,
        "status 0x%x, %u words differ", (unsigned)sst, wrong);
  if (sysmem_in)
    for (uint32_t i = 0; i < 1024; i++)
      sysmem_in[i] = ~pattern(i, 13);
  void *big = NULL, *small = NULL, *any = NULL;
  hsa_status_t st = hsa_amd_ipc_memory_attach(&hb, BIG, 1, &gpu, &big);
  CHECK("attach", st == HSA_STATUS_SUCCESS && big, "status 0x%x", (unsigned)st);
  st = hsa_amd_ipc_memory_attach(&hs, SMALL, 1, &gpu, &small);
  CHECK("attach_suballocation", st == HSA_STATUS_SUCCESS && small, "status 0x%x", (unsigned)st);
  if (!big || !small)
    return 1;
  hsa_amd_pointer_info_t info = {.size = sizeof(info)};
  st = hsa_amd_pointer_info((char *)big + 4096, &info, NULL, NULL, NULL);
  CHECK("pointer_info", st == HSA_STATUS_SUCCESS && info.type == HSA_EXT_POINTER_TYPE_IPC &&
                            info.agentBaseAddress == big && info.sizeInBytes == BIG &&
                            info.agentOwner.handle == gpu.handle,
        "type %d base %p size %zu", (int)info.type, info.agentBaseAddress, info.sizeInBytes);
  uint32_t bad = differ(big, N, 3, 0);
  CHECK("reads_kernel_output", bad == 0, "%u words differ", bad);
  bad = differ(small, NS, 5, 0);
  CHECK("reads_suballocation", bad == 0, "%u words differ", bad);
  /* hsa_amd_memory_async_copy from the attached memory at an offset */
  uint32_t *host = NULL;
  hsa_amd_memory_pool_allocate(sysmem, 64 << 10, 0, (void **)&host);
  hsa_amd_agents_allow_access(1, &gpu, NULL, host);
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  st = hsa_amd_memory_async_copy(host, cpu, (char *)big + 8192, gpu, 64 << 10, 0, NULL, done);
  bool waited = st == HSA_STATUS_SUCCESS &&
                hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 30000000000ull,
                                          HSA_WAIT_STATE_BLOCKED) == 0;
  bad = 0;
  for (uint32_t i = 0; waited && i < (64u << 10) / 4; i++)
    bad += host[i] != pattern(2048 + i, 3);
  CHECK("async_copy", waited && bad == 0, "status 0x%x, %u words differ", (unsigned)st, bad);
  /* the answer: written into the exporter's memory through the attached address */
  for (uint32_t i = 0; i < 1024; i++)
    host[i] = ~pattern(i, 3);
  st = hsa_memory_copy(big, host, 4096);
  CHECK("writes_answer", st == HSA_STATUS_SUCCESS, "status 0x%x", (unsigned)st);
  st = hsa_amd_ipc_memory_attach(&hb, BIG, 0, NULL, &any);
  CHECK("attach_no_agents", st == HSA_STATUS_SUCCESS && any && any != big, "status 0x%x",
        (unsigned)st);
  bad = any ? differ((char *)any + 4096, 1024, 3, 1024) : 1;
  CHECK("reads_no_agents", bad == 0, "%u words differ", bad);
  CHECK("detach_no_agents", hsa_amd_ipc_memory_detach(any) == HSA_STATUS_SUCCESS, "-");
  char c = 'a';
  if (write(back, &c, 1) != 1 || read(go, &c, 1) != 1 || c != 'f')
    return 1;
  /* The exporter freed both allocations: the imports still hold the memory. */
  bad = differ((char *)big + 4096, N - 1024, 3, 1024);
  CHECK("reads_after_exporter_freed", bad == 0, "%u words differ", bad);
  CHECK("detach", hsa_amd_ipc_memory_detach(big) == HSA_STATUS_SUCCESS &&
                      hsa_amd_ipc_memory_detach(small) == HSA_STATUS_SUCCESS &&
                      hsa_amd_ipc_memory_detach(sysmem_in) == HSA_STATUS_SUCCESS, "-");
  CHECK("detach_again", hsa_amd_ipc_memory_detach(big) == HSA_STATUS_ERROR_INVALID_ARGUMENT,
        "-");
  CHECK("detach_not_attached", hsa_amd_ipc_memory_detach(host) ==
                                   HSA_STATUS_ERROR_INVALID_ARGUMENT, "-");
  hsa_amd_pointer_info_t gone = {.size = sizeof(gone)};
  hsa_amd_pointer_info(big, &gone, NULL, NULL, NULL);
  CHECK("detached_unknown", gone.type == HSA_EXT_POINTER_TYPE_UNKNOWN, "type %d",
        (int)gone.type);
  hsa_signal_destroy(done);
  hsa_amd_memory_pool_free(host);
  hsa_queue_destroy(queue);
  hsa_shut_down();
  return failures ? 1 : 0;
}

/* "export CO": a handle to device memory on stdout, then exit with it still allocated. */
static int short_lived(const char *co)
{
  setup(co);
  void *dev = NULL;
  hsa_amd_ipc_memory_t h;
  if (hsa_amd_memory_pool_allocate(vram, BIG, 0, &dev) || hsa_amd_ipc_memory_create(dev, BIG, &h))
    return 1;
  char text[72];
  put(&h, text);
  printf("%s\n", text);
  return 0;
}

static pid_t spawn(char *const argv[], int out)
{
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    if (out >= 0)
      dup2(out, 1);
    execv(argv[0], argv);
    _exit(127);
  }
  return pid;
}

static int exporter(const char *self, const char *co, unsigned minor)
{
  setup(co);
  char *big = NULL, *small = NULL, *sys = NULL;
  if (hsa_amd_memory_pool_allocate(vram, BIG, 0, (void **)&big) ||
      hsa_amd_memory_pool_allocate(vram, SMALL, 0, (void **)&small) ||
      hsa_amd_memory_pool_allocate(sysmem, BIG, 0, (void **)&sys)) {
    printf("alloc FAIL\n");
    return 1;
  }
  hsa_amd_agents_allow_access(1, &gpu, NULL, sys);
  CHECK("kernel_writes", run_fill(big, N, 3) && run_fill(small, NS, 5), "-");
  hsa_amd_ipc_memory_t hb, hs, h;
  CHECK("null_args", hsa_amd_ipc_memory_create(NULL, BIG, &hb) ==
                         HSA_STATUS_ERROR_INVALID_ARGUMENT &&
                     hsa_amd_ipc_memory_create(big, BIG, NULL) ==
                         HSA_STATUS_ERROR_INVALID_ARGUMENT, "-");
  CHECK("interior_address", hsa_amd_ipc_memory_create(big + 4096, 4096, &h) ==
                                HSA_STATUS_ERROR_INVALID_ARGUMENT, "-");
  CHECK("wrong_size", hsa_amd_ipc_memory_create(big, 4096, &h) ==
                          HSA_STATUS_ERROR_INVALID_ARGUMENT, "-");
  hsa_status_t st = hsa_amd_ipc_memory_create(big, BIG, &hb);
  if (minor < 12) {
    CHECK("create_refused", st == HSA_STATUS_ERROR_OUT_OF_RESOURCES, "status 0x%x",
          (unsigned)st);
    void *m = NULL;
    memset(&h, 0, sizeof(h));
    CHECK("attach_refused", hsa_amd_ipc_memory_attach(&h, BIG, 1, &gpu, &m) ==
                                HSA_STATUS_ERROR_INVALID_ARGUMENT, "-");
    hsa_shut_down();
    return failures ? 1 : 0;
  }
  CHECK("create", st == HSA_STATUS_SUCCESS && hb.handle[2] == (uint32_t)getpid() &&
                      hb.handle[3] == 0 && hb.handle[6] == 0,
        "status 0x%x", (unsigned)st);
  st = hsa_amd_ipc_memory_create(small, SMALL, &hs);
  CHECK("create_suballocation", st == HSA_STATUS_SUCCESS && (hs.handle[6] & 0x80000000u),
        "status 0x%x dword6 0x%x", (unsigned)st, hs.handle[6]);
  /* system memory: its bytes and GPU mapping stay when it is shared */
  uint32_t *host = (uint32_t *)sys;
  for (uint32_t i = 0; i < N; i++)
    host[i] = pattern(i, 11);
  hsa_amd_ipc_memory_t hy;
  st = hsa_amd_ipc_memory_create(sys, BIG, &hy);
  uint32_t kept = 0;
  for (uint32_t i = 0; i < N; i++)
    kept += host[i] == pattern(i, 11);
  CHECK("create_system_memory", st == HSA_STATUS_SUCCESS && hy.handle[3] == 1 && kept == N,
        "status 0x%x dword3 %u, %u words kept", (unsigned)st, hy.handle[3], kept);
  bool ran = run_fill(sys, N, 13);
  uint32_t wrong = 0;
  for (uint32_t i = 0; i < N; i++)
    wrong += host[i] != pattern(i, 13);
  CHECK("system_memory_gpu_writes", ran && wrong == 0, "%u words differ", wrong);

  /* the attaching process */
  int go[2], back[2];
  if (pipe(go) || pipe(back))
    return 1;
  char tb[72], ts[72], ty[72], fgo[12], fback[12];
  put(&hb, tb);
  put(&hs, ts);
  put(&hy, ty);
  snprintf(fgo, sizeof fgo, "%d", go[0]);
  snprintf(fback, sizeof fback, "%d", back[1]);
  char *av[] = {(char *)self, "attach", (char *)co, tb, ts, ty, fgo, fback, NULL};
  pid_t pid = spawn(av, -1);
  char c = 0;
  bool attached = read(back[0], &c, 1) == 1 && c == 'a';
  CHECK("peer_attached", attached, "-");
  uint32_t bad = 0;
  for (uint32_t i = 0; i < 1024; i++)
    bad += host[i] != ~pattern(i, 13);   /* the attacher's CPU wrote the system memory */
  CHECK("system_memory_answer_seen", attached && bad == 0, "%u words differ", bad);
  bad = 0;
  hsa_memory_copy(host, big, 4096);
  for (uint32_t i = 0; i < 1024; i++)
    bad += host[i] != ~pattern(i, 3);
  CHECK("answer_seen", attached && bad == 0, "%u words differ", bad);
  hsa_amd_memory_pool_free(big);
  hsa_amd_memory_pool_free(small);
  c = 'f';
  if (write(go[1], &c, 1) != 1)
    return 1;
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK("peer_exit", WIFEXITED(status) && WEXITSTATUS(status) == 0, "status 0x%x", status);

  /* bad handles */
  void *m = NULL;
  CHECK("freed_allocation", hsa_amd_ipc_memory_attach(&hb, BIG, 1, &gpu, &m) ==
                                HSA_STATUS_ERROR_INVALID_ARGUMENT, "-");
  h = hb;
  h.handle[0] ^= 0x100000;   /* an address this process never exported */
  CHECK("unknown_address", hsa_amd_ipc_memory_attach(&h, BIG, 1, &gpu, &m) ==
                               HSA_STATUS_ERROR_INVALID_ARGUMENT, "-");
  h.handle[2] = 0x3ffffff0;   /* a process that is not there: a handle of another boot */
  CHECK("another_boot", hsa_amd_ipc_memory_attach(&h, BIG, 1, &gpu, &m) ==
                            HSA_STATUS_ERROR_INVALID_ARGUMENT, "-");
  int out[2];
  if (pipe(out))
    return 1;
  char *ev[] = {(char *)self, "export", (char *)co, NULL};
  pid = spawn(ev, out[1]);
  close(out[1]);
  char text[80] = {0};
  ssize_t n = read(out[0], text, sizeof text - 1);
  waitpid(pid, &status, 0);
  get(text, &h);
  bool got = n >= 64 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  st = hsa_amd_ipc_memory_attach(&h, BIG, 1, &gpu, &m);
  CHECK("closed_exporter", got && st == HSA_STATUS_ERROR_INVALID_ARGUMENT, "got %d status 0x%x",
        got, (unsigned)st);
  CHECK("null_attach_args", hsa_amd_ipc_memory_attach(&h, BIG, 1, &gpu, NULL) ==
                                HSA_STATUS_ERROR_INVALID_ARGUMENT &&
                            hsa_amd_ipc_memory_attach(&h, BIG, 1, NULL, &m) ==
                                HSA_STATUS_ERROR_INVALID_ARGUMENT, "-");
  hsa_amd_memory_pool_free(sys);
  hsa_queue_destroy(queue);
  hsa_shut_down();
  return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc == 8 && strcmp(argv[1], "attach") == 0)
    return attacher(argv[2], argv[3], argv[4], argv[5], atoi(argv[6]), atoi(argv[7]));
  if (argc == 3 && strcmp(argv[1], "export") == 0)
    return short_lived(argv[2]);
  if (argc != 3)
    return 2;
  return exporter(argv[0], argv[1], (unsigned)atoi(argv[2]));
}
