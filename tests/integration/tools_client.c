/* SPDX-License-Identifier: MIT */
/* tools_client.c — for tools_lib.sh: makes a known number of hsa_signal_create,
 * hsa_queue_create and hsa_agent_get_info calls and prints them with each agent's vendor
 * name (which the tool rewrites). */
#include <hsa/hsa.h>
#include <stdio.h>

static unsigned infos;
static hsa_agent_t gpu;
static int have_gpu;

static hsa_status_t visit(hsa_agent_t agent, void *data) {
  char vendor[64] = {0};
  hsa_device_type_t type;
  infos += 2;
  if (hsa_agent_get_info(agent, HSA_AGENT_INFO_VENDOR_NAME, vendor) != HSA_STATUS_SUCCESS ||
      hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS)
    return HSA_STATUS_ERROR;
  printf("vendor %s\n", vendor);
  if (type == HSA_DEVICE_TYPE_GPU && !have_gpu) {
    gpu = agent;
    have_gpu = 1;
  }
  return HSA_STATUS_SUCCESS;
}

int main(void) {
  if (hsa_init() != HSA_STATUS_SUCCESS) return 1;
  if (hsa_iterate_agents(visit, NULL) != HSA_STATUS_SUCCESS || !have_gpu) return 2;
  hsa_signal_t s[3];
  for (int i = 0; i < 3; i++)
    if (hsa_signal_create(1, 0, NULL, &s[i]) != HSA_STATUS_SUCCESS) return 3;
  hsa_queue_t *q[2];
  for (int i = 0; i < 2; i++)
    if (hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                         &q[i]) != HSA_STATUS_SUCCESS)
      return 4;
  /* The HSA 1.0 name shares the hsa_signal_load_scacquire entry; not intercepted here. */
  printf("load %ld\n", (long)hsa_signal_load_acquire(s[0]));
  /* Extension names (not intercepted): the same answers on both runtimes. */
  static const uint16_t ext[] = {0, 1, 2, 3, 4, 0x200, 0x201, 0x202, 0x203, 0x204, 0x300};
  for (unsigned i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
    const char *name = "unset";
    hsa_status_t st = hsa_extension_get_name(ext[i], &name);
    printf("extension %#x %d %s\n", ext[i], (int)st, name);
  }
  printf("extension null %d\n", (int)hsa_extension_get_name(1, NULL));
  for (int i = 0; i < 2; i++) hsa_queue_destroy(q[i]);
  for (int i = 0; i < 3; i++) hsa_signal_destroy(s[i]);
  printf("client queue_create 2\nclient signal_create 3\nclient agent_get_info %u\n", infos);
  return hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : 5;
}
