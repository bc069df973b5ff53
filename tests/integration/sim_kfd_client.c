/* SPDX-License-Identifier: MIT */
/* sim_kfd_client.c — a small HSA client for sim_kfd_rocr.sh: creates a user queue and an
 * interrupt signal, waits on the signal with the KFD event path, then tears everything
 * down. Prints one "step status" line per call; exits 0 unless it crashes. */
#include <stdio.h>
#include <stdint.h>

#include "hsa/hsa.h"

static hsa_agent_t gpu;
static int found;

static hsa_status_t pick_gpu(hsa_agent_t a, void *data)
{
  hsa_device_type_t t;
  if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) == HSA_STATUS_SUCCESS &&
      t == HSA_DEVICE_TYPE_GPU) {
    gpu = a;
    found = 1;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

int main(void)
{
  hsa_status_t s = hsa_init();
  printf("init %d\n", (int)s);
  if (s != HSA_STATUS_SUCCESS)
    return 0;
  hsa_iterate_agents(pick_gpu, NULL);
  printf("gpu %d\n", found);
  hsa_queue_t *q = NULL;
  if (found) {
    s = hsa_queue_create(gpu, 4096, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q);
    printf("queue_create %d size %u\n", (int)s, q ? q->size : 0);
  }
  hsa_signal_t sig;
  s = hsa_signal_create(1, 0, NULL, &sig);
  printf("signal_create %d\n", (int)s);
  if (s == HSA_STATUS_SUCCESS) {
    hsa_signal_store_screlease(sig, 0);
    hsa_signal_value_t v = hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                                     HSA_WAIT_STATE_BLOCKED);
    printf("signal_wait %ld\n", (long)v);
    printf("signal_destroy %d\n", (int)hsa_signal_destroy(sig));
  }
  if (q)
    printf("queue_destroy %d\n", (int)hsa_queue_destroy(q));
  printf("shut_down %d\n", (int)hsa_shut_down());
  return 0;
}
