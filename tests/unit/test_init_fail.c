/* SPDX-License-Identifier: MIT */
/* test_init_fail.c — the driver refuses a GPU's address space: hsa-sim fails the process's 1st
 * ACQUIRE_VM and its 2nd GET_PROCESS_APERTURES_NEW. A GPU without them could run nothing,
 * so each of the first two hsa_init calls fails (as ROCR's), leaving no agent behind and
 * nothing open, and the third works with a GPU that takes queues and allocations. */
#include <check.h>
#include <dirent.h>

#include "hsa.h"
#include "hsa_ext_amd.h"
#include "unit/sim_reexec.h"

SIM_REEXEC("--fail", "ACQUIRE_VM:1:ENOMEM", "--fail", "GET_PROCESS_APERTURES_NEW:2:EINVAL")

static hsa_status_t find_gpu(hsa_agent_t a, void *data) {
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t != HSA_DEVICE_TYPE_GPU) return HSA_STATUS_SUCCESS;
  *(hsa_agent_t *)data = a;
  return HSA_STATUS_INFO_BREAK;
}

static hsa_status_t find_pool(hsa_amd_memory_pool_t p, void *data) {
  hsa_amd_segment_t seg;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  if (seg != HSA_AMD_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  *(hsa_amd_memory_pool_t *)data = p;
  return HSA_STATUS_INFO_BREAK;
}

static unsigned fd_count(void) {
  DIR *d = opendir("/proc/self/fd");
  ck_assert_ptr_nonnull(d);
  unsigned n = 0;
  while (readdir(d)) n++;
  closedir(d);
  return n;
}

START_TEST(refused_address_space_fails_init_and_retry_works) {
  unsigned fds = fd_count();
  for (int i = 0; i < 2; i++) {
    ck_assert_int_eq(hsa_init(), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
    ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
  }
  /* Render nodes stay open for the process once opened (the kernel ties the VM to one DRM
   * file); /dev/kfd and everything else is closed again. */
  ck_assert_uint_le(fd_count(), fds + 2);
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
  hsa_agent_t gpu = {0};
  hsa_iterate_agents(find_gpu, &gpu);
  ck_assert_uint_ne(gpu.handle, 0);
  hsa_queue_t *q = NULL;
  ck_assert_int_eq(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q),
                   HSA_STATUS_SUCCESS);
  hsa_amd_memory_pool_t pool = {0};
  hsa_amd_agent_iterate_memory_pools(gpu, find_pool, &pool);
  ck_assert_uint_ne(pool.handle, 0);
  void *p = NULL;
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(pool, 1 << 20, 0, &p), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_queue_destroy(q), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("init_fail");
  TCase *tc = tcase_create("refusals");
  tcase_add_test(tc, refused_address_space_fails_init_and_retry_works);
  suite_add_tcase(s, tc);
  return s;
}
