/* SPDX-License-Identifier: MIT */
/* queue_create.c — hsa_queue_create time and the memory 64 live queues hold. Links only
 * libhsa-runtime64.so.1, so the same binary runs on our runtime and on ROCR (picked with
 * LD_LIBRARY_PATH). After hsa_init it creates QUEUES (64) queues of 1024 packets on the first
 * GPU, timing each call, reads the resident memory with all of them live, destroys them and
 * shuts down. Prints one line:
 *   first_us=.. median_us=.. rss_init_kib=.. rss_live_kib=.. hwm_kib=..
 * first is the first queue (the runtime's lazy set-up included), median the median of all;
 * rss_init is VmRSS after hsa_init, rss_live with every queue live, hwm the peak (VmHWM).
 * Then one barrier packet on the first queue: dispatch_us from its doorbell to its completion
 * (the process's first doorbell: what a runtime defers to it is paid there, see
 * bench/README.md "Issue 19, seventh pass"). */
#include <hsa.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib.h"

#define QUEUES 64

static hsa_status_t find_gpu(hsa_agent_t a, void *d) {
  hsa_device_type_t t;
  if (hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t) == HSA_STATUS_SUCCESS &&
      t == HSA_DEVICE_TYPE_GPU) {
    *(hsa_agent_t *)d = a;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(void) {
  if (hsa_init() != HSA_STATUS_SUCCESS) return fprintf(stderr, "hsa_init failed\n"), 1;
  hsa_agent_t gpu = {0};
  hsa_iterate_agents(find_gpu, &gpu);
  if (!gpu.handle) return fprintf(stderr, "no GPU agent\n"), 1;
  long rss_init = status_kib("VmRSS");
  hsa_queue_t *q[QUEUES];
  double t[QUEUES];
  for (int i = 0; i < QUEUES; i++) {
    double t0 = now_us();
    hsa_status_t st = hsa_queue_create(gpu, 1024, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                                       UINT32_MAX, &q[i]);
    t[i] = now_us() - t0;
    if (st != HSA_STATUS_SUCCESS) return fprintf(stderr, "hsa_queue_create %d: %d\n", i, (int)st), 1;
  }
  long rss_live = status_kib("VmRSS"), hwm = status_kib("VmHWM");
  double first = t[0];
  /* the first doorbell of the process: a barrier-AND packet on the first queue */
  hsa_signal_t done;
  if (hsa_signal_create(1, 0, NULL, &done) != HSA_STATUS_SUCCESS)
    return fprintf(stderr, "hsa_signal_create failed\n"), 1;
  uint64_t idx = hsa_queue_add_write_index_relaxed(q[0], 1);
  hsa_barrier_and_packet_t *p = (hsa_barrier_and_packet_t *)q[0]->base_address + idx % q[0]->size;
  memset((char *)p + 4, 0, sizeof(*p) - 4);
  p->completion_signal = done;
  double d0 = now_us();
  __atomic_store_n(&p->header, (uint16_t)(HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE),
                   __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q[0]->doorbell_signal, (hsa_signal_value_t)idx);
  if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 60000000000ull,
                                HSA_WAIT_STATE_BLOCKED) != 0)
    return fprintf(stderr, "the barrier packet did not complete\n"), 1;
  double dispatch = now_us() - d0;
  hsa_signal_destroy(done);
  qsort(t, QUEUES, sizeof t[0], cmp);
  for (int i = 0; i < QUEUES; i++) hsa_queue_destroy(q[i]);
  hsa_shut_down();
  printf("first_us=%.1f median_us=%.1f rss_init_kib=%ld rss_live_kib=%ld hwm_kib=%ld "
         "dispatch_us=%.1f\n", first, t[QUEUES / 2], rss_init, rss_live, hwm, dispatch);
  return 0;
}
