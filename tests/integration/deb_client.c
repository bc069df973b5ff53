/* SPDX-License-Identifier: MIT */
/* deb_client.c — for deb.sh: a small HSA program built against the packaged headers
 * (hsa_ven_amd_pc_sampling.h exists only there, not in Debian's libhsa-runtime-dev) and
 * run on the packaged library: it prints where libhsa-runtime64 was loaded from, the GPU
 * agents' names and a signal's round trip. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ven_amd_pc_sampling.h>
#include <stdio.h>

static hsa_status_t visit(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  char name[64] = {0};
  hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
  hsa_agent_get_info(agent, HSA_AGENT_INFO_NAME, name);
  if (type == HSA_DEVICE_TYPE_GPU) printf("gpu %s\n", name);
  return HSA_STATUS_SUCCESS;
}

int main(void) {
  Dl_info info;
  if (!dladdr((void *)hsa_init, &info)) return 1;
  printf("library %s\n", info.dli_fname);
  if (hsa_init() != HSA_STATUS_SUCCESS) return 2;
  if (hsa_iterate_agents(visit, NULL) != HSA_STATUS_SUCCESS) return 3;
  hsa_signal_t s;
  if (hsa_signal_create(41, 0, NULL, &s) != HSA_STATUS_SUCCESS) return 4;
  hsa_signal_add_relaxed(s, 1);
  printf("signal %ld\n", (long)hsa_signal_load_relaxed(s));
  hsa_signal_destroy(s);
  return hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : 5;
}
