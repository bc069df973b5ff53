/* SPDX-License-Identifier: MIT */
/* test_mem.c — the memory layer's internal interface on the driver model: runs itself under
 * hsa-sim with two GPUs. Bytes written through CPU pointers read back; any interior pointer
 * finds its allocation; each buffer object is mapped on exactly the GPUs it should be, which
 * the test asks the (strict) driver: UNMAP of a GPU that does not map the object is EINVAL. */
#include <check.h>
#include <errno.h>
#include <linux/kfd_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/mmio.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "kfd/memory.h"
#include "mem/internal.h"
#include "mem/mem.h"
#include "unit/sim_reexec.h"

SIM_REEXEC("--gpus", "2")

static struct core_runtime *rt;

static void setup(void) {
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
  rt = core_rt();
  ck_assert_uint_eq(rt->gpu_count, 2);
}

static void teardown(void) { ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS); }

static const struct core_agent *gpu(unsigned i) { return rt->agents[rt->cpu_count + i]; }

/* Which GPUs map the object holding p: probe each with UNMAP and put back what was there. */
static uint64_t mapped_on(const void *p) {
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find((uintptr_t)p);
  uint64_t handle = r && r->bo ? r->bo->handle : 0;
  pthread_mutex_unlock(&mem_mutex);
  ck_assert_msg(handle != 0 || r, "no record for %p", p);
  uint64_t m = 0;
  for (unsigned i = 0; i < rt->gpu_count; i++) {
    uint32_t id = gpu(i)->gpu_id;
    int rc = kfd_mem_unmap(&rt->kfd, handle, &id, 1);
    if (rc == 0) {
      m |= 1ull << i;
      ck_assert_int_eq(kfd_mem_map(&rt->kfd, handle, &id, 1), 0);
    } else {
      ck_assert_int_eq(rc, -EINVAL);
    }
  }
  return m;
}

static void fill(unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 31 + seed);
}
static void check_fill(const unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(i * 31 + seed)) ck_abort_msg("byte %zu differs", i);
}

START_TEST(system_memory_round_trip) {
  size_t n = 3 * 4096 + 100;
  unsigned char *p = mem_system(n, 0, 0);
  ck_assert_ptr_nonnull(p);
  fill(p, n, 7);
  check_fill(p, n, 7);
  struct mem_block b;
  ck_assert(mem_lookup(p + n - 1, &b));
  ck_assert_ptr_eq(b.base, p);
  ck_assert_uint_eq(b.size, n);
  ck_assert(!b.device);
  ck_assert(b.fine_grain);
  ck_assert_uint_eq(b.gpu_va, (uintptr_t)p);
  ck_assert_ptr_eq(b.owner, rt->agents[0]);
  ck_assert(!mem_lookup(p + n, &b) || b.base != p);
  ck_assert_uint_eq(mapped_on(p), 3);   /* every GPU */
  mem_release(p);
  ck_assert(!mem_lookup(p, &b));
}
END_TEST

START_TEST(device_memory_round_trip) {
  size_t n = 1 << 20;
  unsigned char *p = mem_device(gpu(1), n, 4096, MEM_F_NO_SUBALLOC);
  ck_assert_ptr_nonnull(p);
  ck_assert_uint_eq((uintptr_t)p % 4096, 0);
  fill(p, n, 3);
  check_fill(p, n, 3);
  struct mem_block b;
  ck_assert(mem_lookup(p + 12345, &b));
  ck_assert_ptr_eq(b.base, p);
  ck_assert(b.device);
  ck_assert_ptr_eq(b.owner, gpu(1));
  ck_assert_uint_eq(mapped_on(p), 2);   /* its own GPU only */
  ck_assert_int_eq(mem_map_on(p, gpu(0)), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(mapped_on(p), 3);
  mem_release(p);
  ck_assert(!mem_lookup(p, &b));
}
END_TEST

START_TEST(small_allocations_share_an_object) {
  void *a = mem_system(64, 64, 0), *b = mem_system(200, 128, 0);
  void *c = mem_system(4096, 4096, MEM_F_UNCACHED);
  ck_assert_ptr_nonnull(a);
  ck_assert_ptr_nonnull(b);
  ck_assert_ptr_nonnull(c);
  ck_assert_uint_eq((uintptr_t)b % 128, 0);
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *ra = mem_table_find((uintptr_t)a), *rb = mem_table_find((uintptr_t)b),
                 *rc = mem_table_find((uintptr_t)c);
  ck_assert_ptr_eq(ra->bo, rb->bo);
  ck_assert_ptr_ne(ra->bo, rc->bo);   /* uncached memory is another kind of object */
  ck_assert(rc->bo->kfd_flags & KFD_MEM_UNCACHED);
  ck_assert(!(ra->bo->kfd_flags & KFD_MEM_UNCACHED));
  pthread_mutex_unlock(&mem_mutex);
  /* Zeroed, disjoint. */
  for (int i = 0; i < 64; i++) ck_assert_int_eq(((unsigned char *)a)[i], 0);
  memset(a, 0xaa, 64);
  memset(b, 0x55, 200);
  ck_assert_int_eq(((unsigned char *)a)[63], 0xaa);
  ck_assert_int_eq(((unsigned char *)b)[0], 0x55);
  mem_release(a);
  mem_release(b);
  mem_release(c);
  mem_release(NULL);
}
END_TEST

START_TEST(queue_memory_is_double_mapped_span) {
  void *q = mem_system(64 * 1024, 4096, MEM_F_AQL_QUEUE);
  ck_assert_ptr_nonnull(q);
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find((uintptr_t)q);
  ck_assert(r->bo->kfd_flags & KFD_MEM_AQL_QUEUE);
  ck_assert_uint_eq(r->bo->size, 128 * 1024);
  pthread_mutex_unlock(&mem_mutex);
  memset(q, 1, 64 * 1024);
  ck_assert_uint_eq(mapped_on(q), 3);
  mem_release(q);
}
END_TEST

START_TEST(shutdown_frees_everything) {
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
  rt = core_rt();
  void *p = mem_system(1 << 20, 0, 0);
  void *d = mem_device(gpu(0), 8192, 0, 0);
  ck_assert_ptr_nonnull(p);
  ck_assert_ptr_nonnull(d);
  struct mem_block b;
  ck_assert(mem_lookup(d, &b));
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
  ck_assert(!mem_lookup(p, &b));
  ck_assert(!mem_lookup(d, &b));
}
END_TEST

START_TEST(mmio_pages) {
  volatile uint32_t *a = core_mmio_page(gpu(0)), *b = core_mmio_page(gpu(1));
  ck_assert_ptr_nonnull((void *)a);
  ck_assert_ptr_nonnull((void *)b);
  ck_assert_ptr_ne((void *)a, (void *)b);
  ck_assert_ptr_eq((void *)a, (void *)core_mmio_page(gpu(0)));
  ck_assert_uint_eq((uintptr_t)a % 4096, 0);
  mem_hdp_flush(gpu(1));
  hsa_amd_hdp_flush_t h;
  ck_assert_int_eq(hsa_agent_get_info(core_agent_handle(gpu(1)),
                                      (hsa_agent_info_t)HSA_AMD_AGENT_INFO_HDP_FLUSH, &h),
                   HSA_STATUS_SUCCESS);
  ck_assert_ptr_eq((void *)h.HDP_MEM_FLUSH_CNTL, (void *)b);
  ck_assert_ptr_eq((void *)h.HDP_REG_FLUSH_CNTL, (void *)(b + 1));
  ck_assert_ptr_null((void *)core_mmio_page(rt->agents[0]));   /* a CPU has none */
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("mem");
  TCase *tc = tcase_create("internal");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, system_memory_round_trip);
  tcase_add_test(tc, device_memory_round_trip);
  tcase_add_test(tc, small_allocations_share_an_object);
  tcase_add_test(tc, queue_memory_is_double_mapped_span);
  tcase_add_test(tc, mmio_pages);
  suite_add_tcase(s, tc);
  TCase *life = tcase_create("lifetime");
  tcase_add_test(life, shutdown_frees_everything);
  suite_add_tcase(s, life);
  return s;
}
