/* SPDX-License-Identifier: MIT */
/* test_mem_fail.c — the driver refuses: hsa-sim makes the 40th ALLOC_MEMORY_OF_GPU and the
 * 30th MAP_MEMORY_TO_GPU of the process fail with ENOMEM. Among many allocations exactly the
 * ones that met a refusal report HSA_STATUS_ERROR_OUT_OF_RESOURCES and the others keep their
 * bytes and free normally. */
#include <check.h>
#include <string.h>

#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/internal.h"
#include "mem/mem.h"
#include "unit/sim_reexec.h"

SIM_REEXEC("--gpus", "2", "--fail", "ALLOC_MEMORY_OF_GPU:40:ENOMEM", "--fail",
           "MAP_MEMORY_TO_GPU:30:ENOMEM")

static hsa_amd_memory_pool_t dev0;
static hsa_region_t sys_fine;

static hsa_status_t pool_cb(hsa_amd_memory_pool_t p, void *data) {
  const struct core_region *r = core_region_from_handle(p.handle);
  if (r->owner->kind == CORE_AGENT_GPU && r->heap != CORE_HEAP_LDS && !r->fine_grain &&
      !dev0.handle)
    dev0 = p;
  if (r->owner->kind == CORE_AGENT_CPU && r->fine_grain && !r->kernarg && !sys_fine.handle)
    sys_fine.handle = p.handle;
  return HSA_STATUS_SUCCESS;
}

START_TEST(refused_allocations_fail_cleanly) {
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
  struct core_runtime *rt = core_rt();
  for (unsigned i = 0; i < rt->agent_count; i++)
    hsa_amd_agent_iterate_memory_pools(core_agent_handle(rt->agents[i]), pool_cb, NULL);
  ck_assert(dev0.handle && sys_fine.handle);
  enum { N = 100 };
  void *p[N];
  unsigned failed = 0;
  for (unsigned i = 0; i < N; i++) {
    /* Own buffer objects (above the sub-allocation limit), device and system in turn; the
     * system ones are mapped on both GPUs, so both ioctls are exercised. */
    hsa_status_t st = i % 2 ? hsa_amd_memory_pool_allocate(dev0, 1 << 20, 0, &p[i])
                            : hsa_memory_allocate(sys_fine, 1 << 20, &p[i]);
    if (st != HSA_STATUS_SUCCESS) {
      ck_assert_int_eq(st, HSA_STATUS_ERROR_OUT_OF_RESOURCES);
      p[i] = NULL;
      failed++;
      continue;
    }
    memset(p[i], (int)i, 1 << 20);
  }
  /* hsa_init's own objects come first, so where the refusals land depends on it; that some
   * did, and not more than the two refusals, does not. */
  ck_assert_uint_ge(failed, 1);
  ck_assert_uint_le(failed, 2);
  for (unsigned i = 0; i < N; i++) {
    if (!p[i]) continue;
    ck_assert_int_eq(((unsigned char *)p[i])[(1 << 20) - 1], (unsigned char)i);
    ck_assert_int_eq(hsa_memory_free(p[i]), HSA_STATUS_SUCCESS);
  }
  for (unsigned i = 0; i < N; i++) {
    struct mem_block b;
    ck_assert(!p[i] || !mem_lookup(p[i], &b));   /* freed: gone from the table */
  }
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("mem_fail");
  TCase *tc = tcase_create("refusals");
  tcase_add_test(tc, refused_allocations_fail_cleanly);
  suite_add_tcase(s, tc);
  return s;
}
