/* SPDX-License-Identifier: MIT */
/* sysevent_client.c — hsa_amd_register_system_event_handler with a GPU memory fault: two
 * handlers are registered (the first declines with HSA_STATUS_ERROR, the second handles the
 * event), a kernel (argv[1]: poke(p): *p = 1) stores to an address no GPU maps (0x7e0000000000),
 * and each handler must be called once with HSA_AMD_GPU_MEMORY_FAULT_EVENT, the GPU agent, the
 * faulting page's address and "page not present". Then the process ends at once (ROCR would
 * abort had no handler returned success). Beside the runtime, the process reads the driver's
 * SMI events of that GPU (SMI_EVENTS on /dev/kfd, mask: VM faults): one record
 * "1 <pid in hex>:<process name>" must come. Run on ROCR 5.2.3 and on ours. Lines "name ok". */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CLIENT_CHECK_COUNTS
#include "lib/client.h"

#define WILD 0x7e0000000000ull

static struct client_agents ag;
static _Atomic int calls[2];
static hsa_amd_event_t seen;

static hsa_status_t handler(const hsa_amd_event_t *e, void *data)
{
  int which = (int)(intptr_t)data;
  if (which == 1)
    seen = *e;
  atomic_fetch_add(&calls[which], 1);
  return which == 1 ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR;
}

static void queue_error(hsa_status_t s, hsa_queue_t *q, void *d)
{
  (void)s, (void)q, (void)d;
}

int main(int argc, char **argv)
{
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc != 2)
    return 2;
  CHECK("before_init", hsa_amd_register_system_event_handler(handler, NULL) ==
                           HSA_STATUS_ERROR_NOT_INITIALIZED, "-");
  if (hsa_init() != HSA_STATUS_SUCCESS)
    return 1;
  hsa_iterate_agents(client_pick_agents, &ag);
  struct client_regions rg = {0};
  hsa_agent_iterate_regions(ag.cpu, client_pick_regions, &rg);
  CHECK("register", hsa_amd_register_system_event_handler(handler, (void *)0) ==
                            HSA_STATUS_SUCCESS &&
                        hsa_amd_register_system_event_handler(handler, (void *)1) ==
                            HSA_STATUS_SUCCESS, "-");
  hsa_executable_t ex;
  struct client_kernel k;
  hsa_queue_t *q = NULL;
  void *ka = NULL;
  if (client_load_file(ag.gpu, argv[1], HSA_PROFILE_FULL, &ex) ||
      client_kernel(ex, ag.gpu, "poke.kd", &k) ||
      hsa_queue_create(ag.gpu, 64, HSA_QUEUE_TYPE_MULTI, queue_error, NULL, UINT32_MAX,
                       UINT32_MAX, &q) ||
      hsa_memory_allocate(rg.kernarg, 64, &ka)) {
    printf("setup FAIL\n");
    return 1;
  }
  uint64_t wild = WILD;
  memset(ka, 0, 64);
  memcpy(ka, &wild, 8);
  /* the driver's SMI events of this GPU: VM faults only */
  unsigned gpu_id = 0;   /* the first GPU's topology node (node 0 is the CPU) */
  FILE *f = fopen("/sys/class/kfd/kfd/topology/nodes/1/gpu_id", "r");
  if (f) {
    if (fscanf(f, "%u", &gpu_id) != 1)
      gpu_id = 0;
    fclose(f);
  }
  int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
  struct kfd_ioctl_smi_events_args sa = {.gpuid = gpu_id};
  int smi = kfd >= 0 && ioctl(kfd, AMDKFD_IOC_SMI_EVENTS, &sa) == 0 ? (int)sa.anon_fd : -1;
  uint64_t mask = KFD_SMI_EVENT_MASK_FROM_INDEX(KFD_SMI_EVENT_VMFAULT);
  char line[128] = {0};
  CHECK("smi_open", smi >= 0 && write(smi, &mask, sizeof mask) == sizeof mask &&
                        read(smi, line, sizeof line) < 0 && errno == EAGAIN,
        "fd %d", smi);
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  client_dispatch(q, &k, ka, 1, 1, done);
  for (int i = 0; i < 3000 && atomic_load(&calls[1]) == 0; i++)
    usleep(10000);
  usleep(100000);   /* a second call would come now */
  CHECK("each_handler_once", atomic_load(&calls[0]) == 1 && atomic_load(&calls[1]) == 1,
        "calls %d %d", atomic_load(&calls[0]), atomic_load(&calls[1]));
  CHECK("memory_fault_event", seen.event_type == HSA_AMD_GPU_MEMORY_FAULT_EVENT &&
                                  seen.memory_fault.agent.handle == ag.gpu.handle,
        "type %d agent %s", (int)seen.event_type,
        seen.memory_fault.agent.handle == ag.gpu.handle ? "gpu" : "other");
  CHECK("fault_address", (seen.memory_fault.virtual_address & ~0xfffull) == WILD, "0x%llx",
        (unsigned long long)seen.memory_fault.virtual_address);
  CHECK("fault_reason", seen.memory_fault.fault_reason_mask & HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT,
        "mask 0x%x", seen.memory_fault.fault_reason_mask);
  printf("reason_mask 0x%x\n", seen.memory_fault.fault_reason_mask);
  struct pollfd pf = {.fd = smi, .events = POLLIN};
  ssize_t n = smi >= 0 && poll(&pf, 1, 5000) == 1 ? read(smi, line, sizeof line - 1) : -1;
  char want[64];
  snprintf(want, sizeof want, "1 %x:client\n", (unsigned)getpid());
  CHECK("smi_vm_fault_record", n > 0 && strcmp(line, want) == 0, "read %zd: '%s' want '%s'",
        n, n > 0 ? line : "", want);
  fflush(stdout);
  _exit(failures ? 1 : 0);
}
