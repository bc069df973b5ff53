/* SPDX-License-Identifier: MIT */
/* test_newapi.c — the newest ROCR entry points on the driver model (runs itself under
 * hsa-sim), so the sanitizer configuration covers them too (integration/newapi.sh is the
 * fuller test): wait_all over met, unmet and destroyed signals; event ids against
 * amd_signal_t; a batch of linear, broadcast and swap copies checked byte for byte; an SDMA
 * COPY_LINEAR written into an application SDMA queue's ring; counted queues; AIS write and
 * read through a file; logging; discard; async_function; preload. */
#include <check.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "amd_hsa_signal.h"
#include "hsa.h"
#include "hsa_ext_amd.h"
#include "unit/sim_reexec.h"

SIM_REEXEC("--gpus", "1")

static hsa_agent_t gpu, cpu;
static hsa_amd_memory_pool_t sys_pool, dev_pool;

static hsa_status_t pick_agent(hsa_agent_t a, void *d) {
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !gpu.handle) gpu = a;
  if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) cpu = a;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t pick_pool(hsa_amd_memory_pool_t p, void *data) {
  hsa_amd_memory_pool_t *out = data;
  hsa_amd_segment_t seg;
  bool alloc = false;
  uint32_t flags = 0;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (seg == HSA_AMD_SEGMENT_GLOBAL && alloc && !out->handle &&
      !(flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT))
    *out = p;
  return HSA_STATUS_SUCCESS;
}

static void setup(void) {
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
  gpu.handle = cpu.handle = 0;
  sys_pool.handle = dev_pool.handle = 0;
  hsa_iterate_agents(pick_agent, NULL);
  ck_assert(gpu.handle && cpu.handle);
  hsa_amd_agent_iterate_memory_pools(cpu, pick_pool, &sys_pool);
  hsa_amd_agent_iterate_memory_pools(gpu, pick_pool, &dev_pool);
  ck_assert(sys_pool.handle && dev_pool.handle);
}
static void teardown(void) { ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS); }

static uint8_t *sys_alloc(size_t n) {
  void *p = NULL;
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(sys_pool, n, 0, &p), HSA_STATUS_SUCCESS);
  hsa_agent_t both[2] = {gpu, cpu};
  hsa_amd_agents_allow_access(2, both, NULL, p);
  return p;
}
static uint8_t *dev_alloc(size_t n) {
  void *p = NULL;
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(dev_pool, n, 0, &p), HSA_STATUS_SUCCESS);
  return p;
}
static void fill(uint8_t *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i * 131u + seed);
}
static void expect(const uint8_t *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (uint8_t)(i * 131u + seed)) ck_abort_msg("byte %zu is %u", i, p[i]);
}
static bool zero_within(hsa_signal_t s, unsigned ms) {
  uint64_t hz = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &hz);
  return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, hz / 1000 * ms,
                                   HSA_WAIT_STATE_BLOCKED) == 0;
}

START_TEST(wait_all_and_event_id) {
  hsa_signal_t s[3], dead;
  for (int i = 0; i < 3; i++) hsa_signal_create(i, 0, NULL, &s[i]);
  hsa_signal_create(9, 0, NULL, &dead);
  hsa_signal_destroy(dead);
  hsa_signal_t list[4] = {s[0], s[1], s[2], dead};
  hsa_signal_condition_t c[4] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_NE,
                                 HSA_SIGNAL_CONDITION_GTE, HSA_SIGNAL_CONDITION_EQ};
  hsa_signal_value_t v[4] = {0, 0, 2, 9}, got[4];
  ck_assert_uint_eq(hsa_amd_signal_wait_all(4, list, c, v, UINT64_MAX, HSA_WAIT_STATE_ACTIVE, got), 0);
  ck_assert(got[0] == 0 && got[1] == 1 && got[2] == 2 && got[3] == 0);
  v[2] = 3;   /* s[2] is 2: GTE 3 never met */
  ck_assert_uint_eq(hsa_amd_signal_wait_all(3, list, c, v, 1000, HSA_WAIT_STATE_ACTIVE, NULL),
                    UINT32_MAX);
  uint32_t id = 0;
  ck_assert_int_eq(hsa_amd_signal_get_event_id(s[0], &id), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(id, ((const amd_signal_t *)(uintptr_t)s[0].handle)->event_id);
  ck_assert_int_eq(hsa_amd_signal_get_event_id(dead, &id), HSA_STATUS_ERROR_INVALID_SIGNAL);
  for (int i = 0; i < 3; i++) hsa_signal_destroy(s[i]);
}
END_TEST

START_TEST(batch_copy_bytes) {
  const size_t n = 256 * 1024;
  uint8_t *h1 = sys_alloc(n), *h2 = sys_alloc(n), *d1 = dev_alloc(n), *d2 = dev_alloc(n);
  fill(h1, n, 1);
  fill(h2, n, 2);
  hsa_signal_t done;
  hsa_signal_create(2, 0, NULL, &done);
  hsa_amd_memory_copy_op_t ops[2];
  memset(ops, 0, sizeof ops);
  void *dl[2] = {d1, d2};
  hsa_agent_t da[2] = {gpu, gpu};
  ops[0].version = ops[1].version = HSA_AMD_MEMORY_COPY_OP_VERSION;
  ops[0].completion_signal = ops[1].completion_signal = done;
  ops[0].type = HSA_AMD_MEMORY_COPY_OP_LINEAR_BROADCAST;   /* h1 -> d1, d2 */
  ops[0].num_entries = 2;
  ops[0].src = h1;
  ops[0].src_agent = cpu;
  ops[0].dst_list = dl;
  ops[0].dst_agent_list = da;
  ops[0].size = n;
  ops[1].type = HSA_AMD_MEMORY_COPY_OP_LINEAR;   /* h2's first half onto its second */
  ops[1].src = h2;
  ops[1].src_agent = cpu;
  ops[1].dst = h2 + n / 2;
  ops[1].dst_agent = cpu;
  ops[1].size = n / 2;
  ck_assert_int_eq(hsa_amd_memory_async_batch_copy(ops, 2, 0, NULL), HSA_STATUS_SUCCESS);
  ck_assert(zero_within(done, 20000));
  uint8_t *chk = malloc(n);
  hsa_memory_copy(chk, d1, n);
  expect(chk, n, 1);
  hsa_memory_copy(chk, d2, n);
  expect(chk, n, 1);
  expect(h2 + n / 2, n / 2, 2);
  /* swap d2 (pattern 1) with h1 (pattern 3) */
  fill(h1, n, 3);
  hsa_signal_store_relaxed(done, 1);
  memset(ops, 0, sizeof ops);
  ops[0].version = HSA_AMD_MEMORY_COPY_OP_VERSION;
  ops[0].type = HSA_AMD_MEMORY_COPY_OP_LINEAR_SWAP;
  ops[0].completion_signal = done;
  ops[0].src = d2;
  ops[0].src_agent = gpu;
  ops[0].dst = h1;
  ops[0].dst_agent = cpu;
  ops[0].src_size = ops[0].dst_size = n;
  ck_assert_int_eq(hsa_amd_memory_async_batch_copy(ops, 1, 0, NULL), HSA_STATUS_SUCCESS);
  ck_assert(zero_within(done, 20000));
  expect(h1, n, 1);
  hsa_memory_copy(chk, d2, n);
  expect(chk, n, 3);
  ops[0].version = 7;
  ck_assert_int_eq(hsa_amd_memory_async_batch_copy(ops, 1, 0, NULL),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  free(chk);
  hsa_signal_destroy(done);
  void *all[] = {h1, h2, d1, d2};
  for (int i = 0; i < 4; i++) hsa_amd_memory_pool_free(all[i]);
}
END_TEST

START_TEST(sdma_queue_copy) {
  hsa_amd_sdma_queue_t q;
  ck_assert_int_eq(hsa_amd_sdma_queue_create(gpu, 0, (hsa_amd_sdma_engine_id_t)0, 0, &q),
                   HSA_STATUS_SUCCESS);
  hsa_amd_sdma_queue_resource_t r;
  ck_assert_int_eq(hsa_amd_sdma_queue_get_info(q, HSA_AMD_SDMA_QUEUE_INFO_RESOURCE, &r),
                   HSA_STATUS_SUCCESS);
  const uint32_t n = 8192;
  uint8_t *src = sys_alloc(n), *dst = sys_alloc(n);
  fill(src, n, 4);
  memset(dst, 0, n);
  uint32_t pkt[8] = {1u, n - 1, 0, (uint32_t)(uintptr_t)src, (uint32_t)((uintptr_t)src >> 32),
                     (uint32_t)(uintptr_t)dst, (uint32_t)((uintptr_t)dst >> 32), 0};
  uint64_t wp = *r.write_ptr;
  memcpy((uint8_t *)r.ring_base + wp % r.ring_size, pkt, sizeof pkt);
  ck_assert_int_eq(hsa_amd_sdma_queue_ring_doorbell(q, wp + sizeof pkt), HSA_STATUS_SUCCESS);
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do clock_gettime(CLOCK_MONOTONIC, &t);
  while (*r.read_ptr < wp + sizeof pkt && t.tv_sec - t0.tv_sec < 10);
  ck_assert_uint_ge(*r.read_ptr, wp + sizeof pkt);
  expect(dst, n, 4);
  ck_assert_int_eq(hsa_amd_sdma_queue_destroy(q), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_amd_sdma_queue_destroy(q), HSA_STATUS_ERROR_INVALID_QUEUE);
  hsa_amd_memory_pool_free(src);
  hsa_amd_memory_pool_free(dst);
}
END_TEST

START_TEST(counted_queues_shared) {
  setenv("GPU_MAX_HW_QUEUES", "1", 1);
  hsa_queue_t *a = NULL, *b = NULL;
  ck_assert_int_eq(hsa_amd_counted_queue_acquire(gpu, HSA_QUEUE_TYPE_MULTI,
                                                 HSA_AMD_QUEUE_PRIORITY_HIGH, NULL, NULL, 0, &a),
                   HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_amd_counted_queue_acquire(gpu, HSA_QUEUE_TYPE_MULTI,
                                                 HSA_AMD_QUEUE_PRIORITY_HIGH, NULL, NULL, 0, &b),
                   HSA_STATUS_SUCCESS);
  int32_t uses = 0, uses_b = 0;
  hsa_amd_queue_get_info(a, HSA_QUEUE_INFO_USE_COUNT, &uses);
  hsa_amd_queue_get_info(b, HSA_QUEUE_INFO_USE_COUNT, &uses_b);
  /* one hardware queue, two handles (as ROCR): same ring, doorbell and id, one write index */
  ck_assert(a != b && uses == 2 && uses_b == 2);
  ck_assert_ptr_eq(a->base_address, b->base_address);
  ck_assert_uint_eq(a->doorbell_signal.handle, b->doorbell_signal.handle);
  ck_assert_uint_eq(a->id, b->id);
  uint64_t w = hsa_queue_load_write_index_relaxed(a);
  ck_assert_uint_eq(hsa_queue_add_write_index_relaxed(b, 3), w);
  ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(a), w + 3);
  ck_assert_uint_eq(hsa_queue_cas_write_index_relaxed(a, w + 3, w), w + 3);   /* back */
  ck_assert_uint_eq(hsa_queue_load_write_index_relaxed(b), w);
  ck_assert_int_eq(hsa_queue_destroy(a), HSA_STATUS_ERROR_INVALID_QUEUE);   /* released, not destroyed */
  ck_assert_int_eq(hsa_amd_counted_queue_release(a), HSA_STATUS_SUCCESS);
  hsa_amd_queue_get_info(b, HSA_QUEUE_INFO_USE_COUNT, &uses_b);
  ck_assert_int_eq(uses_b, 1);
  ck_assert_int_eq(hsa_amd_counted_queue_release(a), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_amd_counted_queue_release(b), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_amd_counted_queue_release(b), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  unsetenv("GPU_MAX_HW_QUEUES");
}
END_TEST

START_TEST(ais_logging_discard_misc) {
  char path[] = "/tmp/test_newapi_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  unlink(path);
  const size_t n = 64 * 1024 + 12;
  uint8_t *host = malloc(n), *dev = dev_alloc(n);
  fill(host, n, 5);
  hsa_memory_copy(dev, host, n);
  hsa_amd_ais_file_handle_t h;
  memset(&h, 0, sizeof h);
  h.fd = fd;
  uint64_t copied = 0;
  int32_t why = 0;
  ck_assert_int_eq(hsa_amd_ais_file_write(h, dev, n, 100, &copied, &why), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(copied, n);
  uint8_t *chk = malloc(n);
  ck_assert_int_eq(pread(fd, chk, n, 100), (ssize_t)n);
  expect(chk, n, 5);
  hsa_memory_copy(dev, (uint8_t[16]){0}, 16);
  ck_assert_int_eq(hsa_amd_ais_file_read(h, dev, n, 100, &copied, &why), HSA_STATUS_SUCCESS);
  hsa_memory_copy(chk, dev, n);
  expect(chk, n, 5);
  close(fd);

  FILE *log = tmpfile();
  uint8_t flags[8] = {0};
  hsa_flag_set64(flags, HSA_AMD_LOG_FLAG_INFO);
  ck_assert_int_eq(hsa_amd_enable_logging(flags, log), HSA_STATUS_SUCCESS);
  hsa_queue_t *q = NULL;
  hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q);
  memset(flags, 0, sizeof flags);
  hsa_amd_enable_logging(flags, NULL);
  rewind(log);
  char line[256];
  ck_assert_ptr_nonnull(fgets(line, sizeof line, log));
  ck_assert_ptr_nonnull(strstr(line, "created AQL queue"));
  fclose(log);
  hsa_queue_destroy(q);

  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  void *ptrs[1] = {host};
  size_t sizes[1] = {n};
  /* XNACK is off here (gfx900): the newest ROCR's answer, nothing queued */
  ck_assert_int_eq(hsa_amd_svm_discard_batch_async(ptrs, sizes, 1, 0, NULL, done),
                   HSA_STATUS_ERROR_XNACK_DISABLED);
  ck_assert_int_eq(hsa_signal_load_scacquire(done), 1);
  hsa_signal_destroy(done);
  ck_assert_int_eq(hsa_amd_agent_preload(gpu, 0), HSA_STATUS_SUCCESS);
  uint32_t mask = 0;
  ck_assert_int_eq(hsa_amd_memory_get_preferred_copy_engine(gpu, cpu, &mask), HSA_STATUS_SUCCESS);
  free(host);
  free(chk);
  hsa_amd_memory_pool_free(dev);
}
END_TEST

static _Atomic int ran;
static void bump(void *arg) { atomic_store(&ran, *(int *)arg); }

START_TEST(async_function_runs) {
  static int v = 7;
  ck_assert_int_eq(hsa_amd_async_function(bump, &v), HSA_STATUS_SUCCESS);
  for (int i = 0; i < 5000 && !atomic_load(&ran); i++) usleep(1000);
  ck_assert_int_eq(atomic_load(&ran), 7);
  ck_assert_int_eq(hsa_amd_async_function(NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("newapi");
  TCase *tc = tcase_create("newapi");
  tcase_set_timeout(tc, 120);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, wait_all_and_event_id);
  tcase_add_test(tc, batch_copy_bytes);
  tcase_add_test(tc, sdma_queue_copy);
  tcase_add_test(tc, counted_queues_shared);
  tcase_add_test(tc, ais_logging_discard_misc);
  tcase_add_test(tc, async_function_runs);
  suite_add_tcase(s, tc);
  return s;
}
