/* SPDX-License-Identifier: MIT */
/* test_queue_fail.c — the driver refuses the events a queue's fault watcher needs: hsa-sim
 * makes the process's 2nd CREATE_EVENT fail with ENOMEM (the first queue creation makes the
 * watcher's memory-exception event, then its wake-up event). A queue without a watcher would
 * never report a GPU fault and its dispatches would never complete, so creation must fail with
 * OUT_OF_RESOURCES (as ROCR) and leave nothing behind, and a retry must work. The queue
 * starts none of our threads: its first doorbell starts the async handler thread and the
 * watcher (src/signals/async.c). */
#include <check.h>
#include <dirent.h>
#include <string.h>
#include <unistd.h>

#include "core/runtime.h"
#include "hsa.h"
#include "unit/sim_reexec.h"

SIM_REEXEC("--fail", "CREATE_EVENT:2:ENOMEM")

static hsa_status_t find_gpu(hsa_agent_t a, void *data) {
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_SUCCESS;
  *(hsa_agent_t *)data = a;
  return HSA_STATUS_INFO_BREAK;
}

static unsigned count_dir(const char *path) {
  DIR *d = opendir(path);
  ck_assert_ptr_nonnull(d);
  unsigned n = 0;
  while (readdir(d)) n++;
  closedir(d);
  return n;
}

START_TEST(queue_without_fault_watcher_is_refused) {
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
  hsa_agent_t gpu = {0};
  hsa_iterate_agents(find_gpu, &gpu);
  ck_assert_uint_ne(gpu.handle, 0);
  /* Signals set up first: their event page is made once per process and kept. */
  hsa_signal_t sig;
  ck_assert_int_eq(hsa_signal_create(0, 0, NULL, &sig), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_destroy(sig), HSA_STATUS_SUCCESS);
  unsigned fds = count_dir("/proc/self/fd"), threads = count_dir("/proc/self/task");
  hsa_queue_t *q = NULL;
  ck_assert_int_eq(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
                   HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  ck_assert_ptr_null(q);
  ck_assert_uint_eq(count_dir("/proc/self/fd"), fds);
  ck_assert_uint_eq(count_dir("/proc/self/task"), threads);
  /* The refusal was one call: the next creation gets its watcher and works. */
  ck_assert_int_eq(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
                   HSA_STATUS_SUCCESS);
  ck_assert_ptr_nonnull(q);
  /* Only the simulator's threads are new (its command processor, its doorbell watcher): our
   * error handler thread and fault watcher wait for a doorbell. A queue never rung is
   * destroyed without starting them. */
  unsigned made = count_dir("/proc/self/task");
  hsa_queue_t *unrung = NULL;
  ck_assert_int_eq(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &unrung),
                   HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_queue_destroy(unrung), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(count_dir("/proc/self/task"), made);
  /* The first doorbell starts both: the async handler thread, which starts the watcher.
   * Completion is polled, not waited for, so only the doorbell can have started them. */
  hsa_signal_t done;
  ck_assert_int_eq(hsa_signal_create(1, 0, NULL, &done), HSA_STATUS_SUCCESS);
  uint64_t idx = hsa_queue_add_write_index_relaxed(q, 1);
  hsa_barrier_and_packet_t *p = (hsa_barrier_and_packet_t *)q->base_address + idx % q->size;
  memset((char *)p + 4, 0, sizeof(*p) - 4);
  p->completion_signal = done;
  __atomic_store_n(&p->header, (uint16_t)(HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE),
                   __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
  unsigned now = made;
  for (int i = 0; i < 2000 && (now < made + 2 || hsa_signal_load_scacquire(done) != 0); i++) {
    usleep(5000);
    now = count_dir("/proc/self/task");
  }
  ck_assert_int_eq(hsa_signal_load_scacquire(done), 0);
  ck_assert_uint_eq(now, made + 2);
  ck_assert_int_eq(hsa_signal_destroy(done), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("queue_fail");
  TCase *tc = tcase_create("refusals");
  tcase_set_timeout(tc, 30);   /* the threads are polled for, up to 10 s */
  tcase_add_test(tc, queue_without_fault_watcher_is_refused);
  suite_add_tcase(s, tc);
  return s;
}
