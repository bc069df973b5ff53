/* SPDX-License-Identifier: MIT */
/* test_kfd_debug.c — RUNTIME_ENABLE and DBG_TRAP (KFD 1.13): unknown below 1.13; enabling
 * twice is EBUSY and disabling always succeeds; a debugger of the same process enabling the
 * trap gets the runtime's r_debug address and state (at most rinfo_size bytes, the full size
 * back), EALREADY a second time; ops before ENABLE are EINVAL, wave and queue ops without the
 * runtime enabled EPERM; a pid with no process is ESRCH. */
#include "kfd_fixture.h"

#include <kfd_abi/kfd_ioctl_supp.h>
#include <fcntl.h>

START_TEST(runtime_enable_and_debugger)
{
  fx_cfg.kfd_minor = 12;
  fx_open();
  struct kfd_ioctl_runtime_enable_args re = {
    .r_debug = 0x7f0012345678ull, .mode_mask = KFD_RUNTIME_ENABLE_MODE_ENABLE_MASK };
  ck_assert_int_eq(kio(AMDKFD_IOC_RUNTIME_ENABLE, &re), -EINVAL);   /* not in a 1.12 table */
  fx_cfg.kfd_minor = 13;
  struct kfd_ioctl_dbg_trap_args t = { .pid = (uint32_t)getpid(),
                                       .op = KFD_IOC_DBG_TRAP_SET_FLAGS };
  ck_assert_int_eq(kio(AMDKFD_IOC_DBG_TRAP, &t), -EINVAL);   /* the trap is not enabled */
  ck_assert_int_eq(kio(AMDKFD_IOC_RUNTIME_ENABLE, &re), 0);
  ck_assert_int_eq(kio(AMDKFD_IOC_RUNTIME_ENABLE, &re), -EBUSY);

  struct kfd_runtime_info info[2];
  memset(info, 0xee, sizeof info);
  int dbg_fd = open("/dev/null", O_RDONLY);
  t.op = KFD_IOC_DBG_TRAP_ENABLE;
  t.enable.rinfo_ptr = (uint64_t)(uintptr_t)info;
  t.enable.rinfo_size = 12;   /* a shorter buffer gets what fits */
  t.enable.dbg_fd = (uint32_t)dbg_fd;
  ck_assert_int_eq(kio(AMDKFD_IOC_DBG_TRAP, &t), 0);
  ck_assert_uint_eq(t.enable.rinfo_size, sizeof(struct kfd_runtime_info));
  ck_assert_uint_eq(info[0].r_debug, 0x7f0012345678ull);
  ck_assert_uint_eq(info[0].runtime_state, DEBUG_RUNTIME_STATE_ENABLED);
  ck_assert_uint_eq(info[0].ttmp_setup, 0xeeeeeeeeu);   /* past rinfo_size: untouched */
  t.enable.rinfo_size = sizeof info[0];
  ck_assert_int_eq(kio(AMDKFD_IOC_DBG_TRAP, &t), -EALREADY);
  memset(&t.enable, 0, sizeof t.enable);
  t.op = KFD_IOC_DBG_TRAP_SET_FLAGS;
  ck_assert_int_eq(kio(AMDKFD_IOC_DBG_TRAP, &t), 0);
  t.op = KFD_IOC_DBG_TRAP_QUERY_DEBUG_EVENT;
  ck_assert_int_eq(kio(AMDKFD_IOC_DBG_TRAP, &t), -EAGAIN);

  re.mode_mask = 0;   /* the runtime goes away: wave and queue ops are refused */
  ck_assert_int_eq(kio(AMDKFD_IOC_RUNTIME_ENABLE, &re), 0);
  ck_assert_int_eq(kio(AMDKFD_IOC_RUNTIME_ENABLE, &re), 0);
  t.op = KFD_IOC_DBG_TRAP_SET_FLAGS;
  ck_assert_int_eq(kio(AMDKFD_IOC_DBG_TRAP, &t), -EPERM);
  t.op = KFD_IOC_DBG_TRAP_DISABLE;
  ck_assert_int_eq(kio(AMDKFD_IOC_DBG_TRAP, &t), 0);
  t.op = KFD_IOC_DBG_TRAP_SET_EXCEPTIONS_ENABLED;
  ck_assert_int_eq(kio(AMDKFD_IOC_DBG_TRAP, &t), -EINVAL);

  /* with ttmp setup, enabling again after the disable */
  re.mode_mask = KFD_RUNTIME_ENABLE_MODE_ENABLE_MASK | KFD_RUNTIME_ENABLE_MODE_TTMP_SAVE_MASK;
  ck_assert_int_eq(kio(AMDKFD_IOC_RUNTIME_ENABLE, &re), 0);
  t.op = KFD_IOC_DBG_TRAP_ENABLE;
  t.enable.rinfo_ptr = (uint64_t)(uintptr_t)info;
  t.enable.rinfo_size = sizeof info[0];
  t.enable.dbg_fd = (uint32_t)dbg_fd;
  ck_assert_int_eq(kio(AMDKFD_IOC_DBG_TRAP, &t), 0);
  ck_assert_uint_eq(info[0].ttmp_setup, 1);
  t.op = KFD_IOC_DBG_TRAP_DISABLE;
  ck_assert_int_eq(kio(AMDKFD_IOC_DBG_TRAP, &t), 0);
  re.mode_mask = 0;
  ck_assert_int_eq(kio(AMDKFD_IOC_RUNTIME_ENABLE, &re), 0);

  t.pid = 0x3ffffff0;   /* no such process */
  t.op = KFD_IOC_DBG_TRAP_ENABLE;
  ck_assert_int_eq(kio(AMDKFD_IOC_DBG_TRAP, &t), -ESRCH);
  close(dbg_fd);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("kfd_debug");
  TCase *t = tcase_create("debug");
  tcase_add_test(t, runtime_enable_and_debugger);
  suite_add_tcase(s, t);
  return s;
}
