/* SPDX-License-Identifier: MIT */
/* runtime_enable_client.c — "client MINOR": our hsa_init enables the runtime for a debugger
 * from KFD 1.13 on. A debugger in this process (DBG_TRAP ENABLE on its own pid, as ROCR's
 * core dump does) must then read the address of the runtime's _amdgpu_r_debug and the state
 * "enabled", with trap temporaries set up when HSA_ENABLE_DEBUG=1 (argv[2] "ttmp"); a queue can
 * still be made; after hsa_shut_down the runtime is disabled again (enabling it here
 * succeeds), and hsa_init works a second time. Below 1.13 the ioctls do not exist (EINVAL). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <hsa/hsa.h>
#include <kfd_abi/kfd_ioctl_supp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define CLIENT_CHECK_COUNTS
#include "lib/client.h"

static int kio(int fd, unsigned long req, void *arg)
{
  return ioctl(fd, req, arg) == 0 ? 0 : -errno;
}

static hsa_status_t first_gpu(hsa_agent_t a, void *data)
{
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU) {
    *(hsa_agent_t *)data = a;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

int main(int argc, char **argv)
{
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc < 2)
    return 2;
  unsigned minor = (unsigned)atoi(argv[1]);
  bool ttmp = argc > 2 && strcmp(argv[2], "ttmp") == 0;
  CHECK("init", hsa_init() == HSA_STATUS_SUCCESS, "-");
  void *rdebug = dlsym(RTLD_DEFAULT, "_amdgpu_r_debug");
  int kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
  CHECK("debug_list_and_kfd", rdebug && kfd >= 0, "r_debug %p kfd %d", rdebug, kfd);
  struct kfd_runtime_info info;
  memset(&info, 0, sizeof info);
  struct kfd_ioctl_dbg_trap_args t;
  memset(&t, 0, sizeof t);
  t.pid = (uint32_t)getpid();
  t.op = KFD_IOC_DBG_TRAP_ENABLE;
  t.enable.rinfo_ptr = (uint64_t)(uintptr_t)&info;
  t.enable.rinfo_size = sizeof info;
  t.enable.dbg_fd = (uint32_t)kfd;
  int r = kio(kfd, AMDKFD_IOC_DBG_TRAP, &t);
  if (minor < 13) {
    CHECK("no_debugger_interface", r == -EINVAL, "DBG_TRAP = %d", r);
    hsa_shut_down();
    return failures ? 1 : 0;
  }
  CHECK("debugger_attaches", r == 0, "DBG_TRAP ENABLE = %d", r);
  CHECK("debugger_finds_runtime", info.r_debug == (uint64_t)(uintptr_t)rdebug &&
                                      info.runtime_state == DEBUG_RUNTIME_STATE_ENABLED &&
                                      info.ttmp_setup == (ttmp ? 1u : 0u),
        "r_debug 0x%llx (want %p) state %u ttmp %u", (unsigned long long)info.r_debug, rdebug,
        info.runtime_state, info.ttmp_setup);
  t.op = KFD_IOC_DBG_TRAP_DISABLE;
  CHECK("debugger_detaches", kio(kfd, AMDKFD_IOC_DBG_TRAP, &t) == 0, "-");
  hsa_agent_t gpu = {0};
  hsa_queue_t *q = NULL;
  hsa_iterate_agents(first_gpu, &gpu);
  CHECK("queue", gpu.handle && hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL,
                                                UINT32_MAX, UINT32_MAX, &q) ==
                                   HSA_STATUS_SUCCESS, "-");
  struct kfd_ioctl_runtime_enable_args re;
  memset(&re, 0, sizeof re);
  re.mode_mask = KFD_RUNTIME_ENABLE_MODE_ENABLE_MASK;
  CHECK("enabled_while_open", kio(kfd, AMDKFD_IOC_RUNTIME_ENABLE, &re) == -EBUSY, "-");
  if (q)
    hsa_queue_destroy(q);
  hsa_shut_down();
  r = kio(kfd, AMDKFD_IOC_RUNTIME_ENABLE, &re);
  CHECK("disabled_at_shut_down", r == 0, "RUNTIME_ENABLE = %d", r);
  re.mode_mask = 0;
  kio(kfd, AMDKFD_IOC_RUNTIME_ENABLE, &re);
  CHECK("init_again", hsa_init() == HSA_STATUS_SUCCESS && hsa_shut_down() == HSA_STATUS_SUCCESS,
        "-");
  close(kfd);
  return failures ? 1 : 0;
}
