/* SPDX-License-Identifier: MIT */
/* test_queue_stale.c — destroyed queue pointers (runs itself under hsa-sim): a destroyed
 * queue's amd_queue_t page stays mapped and is quarantined, so calls with a status refuse the
 * pointer (INVALID_QUEUE) instead of reaching a newer queue, the index operations (no status,
 * no lookup) never fault, a stale producer's packet lands in the sink and its doorbell store
 * is dropped; a pointer from before hsa_shut_down is refused by the next runtime; the
 * quarantine is a bounded FIFO of AQL_QUARANTINE pages. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aql/internal.h"
#include "hsa.h"
#include "hsa_ext_amd.h"
#include "unit/sim_reexec.h"

SIM_REEXEC("--gpus", "1")

static hsa_agent_t gpu, cpu;
static hsa_region_t sys_region;

static hsa_status_t find_region(hsa_region_t r, void *data) {
  (void)data;
  hsa_region_segment_t seg;
  uint32_t flags = 0;
  hsa_region_get_info(r, HSA_REGION_INFO_SEGMENT, &seg);
  hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
  if (seg == HSA_REGION_SEGMENT_GLOBAL && (flags & HSA_REGION_GLOBAL_FLAG_FINE_GRAINED))
    sys_region = r;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_agents(hsa_agent_t a, void *data) {
  (void)data;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !gpu.handle) gpu = a;
  if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) {
    cpu = a;
    hsa_agent_iterate_regions(a, find_region, NULL);
  }
  return HSA_STATUS_SUCCESS;
}

static void setup(void) {
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
  gpu.handle = cpu.handle = sys_region.handle = 0;
  hsa_iterate_agents(find_agents, NULL);
  ck_assert(gpu.handle && cpu.handle && sys_region.handle);
}
static void teardown(void) { ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS); }

static hsa_queue_t *gpu_queue(void) {
  hsa_queue_t *q = NULL;
  ck_assert_int_eq(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                                    UINT32_MAX, &q), HSA_STATUS_SUCCESS);
  return q;
}

/* Every index operation and a packet write through a destroyed queue's pointer. */
static void use_stale(hsa_queue_t *q) {
  uint64_t w = hsa_queue_load_write_index_relaxed(q);
  hsa_queue_load_write_index_scacquire(q);
  hsa_queue_load_read_index_relaxed(q);
  hsa_queue_load_read_index_scacquire(q);
  hsa_queue_store_write_index_relaxed(q, w);
  hsa_queue_store_write_index_screlease(q, w);
  hsa_queue_store_read_index_relaxed(q, 0);
  uint64_t idx = hsa_queue_add_write_index_scacq_screl(q, 1);
  hsa_queue_cas_write_index_scacq_screl(q, idx + 1, idx + 2);
  ck_assert_ptr_nonnull(q->base_address);
  hsa_kernel_dispatch_packet_t *ring = q->base_address;
  memset(&ring[idx & (q->size - 1)], 0xab, sizeof(*ring));
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
}

START_TEST(destroyed_queue_is_refused_and_not_reused) {
  hsa_queue_t *a = gpu_queue();
  void *ring = a->base_address;
  ck_assert_int_eq(hsa_queue_destroy(a), HSA_STATUS_SUCCESS);
  hsa_queue_t *b = gpu_queue();
  ck_assert_ptr_ne(b, a);
  ck_assert_int_eq(hsa_queue_destroy(a), HSA_STATUS_ERROR_INVALID_QUEUE);
  ck_assert_int_eq(hsa_queue_inactivate(a), HSA_STATUS_ERROR_INVALID_QUEUE);
  ck_assert_int_eq(hsa_amd_queue_set_priority(a, HSA_AMD_QUEUE_PRIORITY_HIGH),
                   HSA_STATUS_ERROR_INVALID_QUEUE);
  uint32_t mask = 1;
  ck_assert_int_eq(hsa_amd_queue_cu_set_mask(a, 32, &mask), HSA_STATUS_ERROR_INVALID_QUEUE);
  ck_assert_int_eq(hsa_amd_profiling_set_profiler_enabled(a, 1), HSA_STATUS_ERROR_INVALID_QUEUE);
  hsa_agent_t ag;
  ck_assert_int_eq(hsa_amd_queue_get_info(a, HSA_AMD_QUEUE_INFO_AGENT, &ag),
                   HSA_STATUS_ERROR_INVALID_QUEUE);
  /* no status to give: must not fault, must not touch b */
  ck_assert_ptr_ne(a->base_address, ring);   /* the sink, not the freed ring */
  uint64_t bw = hsa_queue_load_write_index_relaxed(b);
  use_stale(a);
  ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(b), bw);
  ck_assert_int_eq(hsa_queue_destroy(b), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(made_up_queue_pointers_are_refused) {
  hsa_queue_t *q = gpu_queue();
  hsa_queue_t fake;
  memcpy(&fake, q, sizeof(fake));
  ck_assert_int_eq(hsa_queue_destroy(&fake), HSA_STATUS_ERROR_INVALID_QUEUE);
  ck_assert_int_eq(hsa_queue_destroy((hsa_queue_t *)((char *)q + 64)),
                   HSA_STATUS_ERROR_INVALID_QUEUE);
  ck_assert_int_eq(hsa_queue_destroy((hsa_queue_t *)((char *)q + 4096 * 50)),
                   HSA_STATUS_ERROR_INVALID_QUEUE);
  ck_assert_int_eq(hsa_queue_destroy(NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

/* A pointer from an earlier runtime: refused by the next, whose queues get other pages,
 * and still safe for the index operations. */
START_TEST(queue_from_before_shut_down_is_refused) {
  hsa_queue_t *old = gpu_queue();
  teardown();
  ck_assert_int_eq(hsa_queue_destroy(old), HSA_STATUS_ERROR_NOT_INITIALIZED);
  hsa_queue_load_write_index_relaxed(old);
  setup();
  hsa_queue_t *n = gpu_queue();
  ck_assert_ptr_ne(n, old);
  ck_assert_int_eq(hsa_queue_destroy(old), HSA_STATUS_ERROR_INVALID_QUEUE);
  use_stale(old);
  ck_assert_int_eq(hsa_queue_destroy(n), HSA_STATUS_SUCCESS);
}
END_TEST

/* One queue at a time: a page comes back after AQL_QUARANTINE frees, not before (soft
 * queues: only memory, so the loop is quick). */
START_TEST(quarantine_is_a_bounded_fifo) {
  hsa_signal_t db;
  ck_assert_int_eq(hsa_signal_create(0, 0, NULL, &db), HSA_STATUS_SUCCESS);
  hsa_queue_t *first = NULL, *q = NULL;
  ck_assert_int_eq(hsa_soft_queue_create(sys_region, 64, HSA_QUEUE_TYPE_SINGLE,
                                         HSA_QUEUE_FEATURE_AGENT_DISPATCH, db, &first),
                   HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_queue_destroy(first), HSA_STATUS_SUCCESS);
  unsigned frees = 0;
  for (;;) {
    ck_assert_int_eq(hsa_soft_queue_create(sys_region, 64, HSA_QUEUE_TYPE_SINGLE,
                                           HSA_QUEUE_FEATURE_AGENT_DISPATCH, db, &q),
                     HSA_STATUS_SUCCESS);
    if (q == first) break;
    ck_assert_int_eq(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
    ck_assert_uint_le(++frees, AQL_QUARANTINE + 1);
  }
  ck_assert_uint_ge(frees, AQL_QUARANTINE);
  ck_assert_int_eq(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_destroy(db), HSA_STATUS_SUCCESS);
}
END_TEST

/* A forked child has no copy of the queue pages (MADV_DONTFORK): it gets zeroed ones, so an
 * index operation on an inherited pointer reads 0 instead of faulting. */
START_TEST(forked_child_does_not_fault) {
  hsa_queue_t *q = gpu_queue();
  hsa_queue_add_write_index_relaxed(q, 5);
  pid_t pid = fork();
  if (pid == 0) _exit(hsa_queue_load_write_index_relaxed(q) == 0 ? 0 : 3);
  int status = 0;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert(WIFEXITED(status));
  ck_assert_int_eq(WEXITSTATUS(status), 0);
  ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(q), 5);
  ck_assert_int_eq(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("queue_stale");
  TCase *tc = tcase_create("stale");
  tcase_set_timeout(tc, 120);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, destroyed_queue_is_refused_and_not_reused);
  tcase_add_test(tc, made_up_queue_pointers_are_refused);
  tcase_add_test(tc, queue_from_before_shut_down_is_refused);
  tcase_add_test(tc, quarantine_is_a_bounded_fifo);
  tcase_add_test(tc, forked_child_does_not_fault);
  suite_add_tcase(s, tc);
  return s;
}
