/* SPDX-License-Identifier: MIT */
/* test_kfd_debug.c — RUNTIME_ENABLE and DBG_TRAP (KFD 1.13): unknown below 1.13; enabling
 * twice is EBUSY and disabling always succeeds; a debugger of the same process enabling the
 * trap gets the runtime's r_debug address and state (at most rinfo_size bytes, the full size
 * back), EALREADY a second time; ops before ENABLE are EINVAL, wave and queue ops without the
 * runtime enabled EPERM; a pid with no process is ESRCH. A trap handler's SQ interrupt with
 * a queue exception code reaches the runtime through the queue's CWSR header (error payload
 * ORed, error event set) once the runtime is enabled, and is an event id otherwise. */
#include "kfd_fixture.h"
#include "cp_fixture.h"

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

/* kfd_set_dbg_ev_from_interrupt as the driver model does it (sim_kfd_wave_interrupt). */
START_TEST(trap_exception_to_runtime)
{
  fx_cfg.kfd_minor = 13;
  fx_open();
  /* the save area and the payload are the runtime's host memory, which the kernel reads and
   * writes at their user addresses */
  static uint8_t save[8192] __attribute__((aligned(4096)));
  static uint64_t errw[16];
  struct buf q = cpx_gtt(4096), ring = cpx_gtt(4096);
  struct buf evpage;
  uint64_t slot, slot2;
  uint32_t err_event = cpx_event(&evpage, &slot), other = cpx_event(&evpage, &slot2);
  struct kfd_ioctl_runtime_enable_args re = { .mode_mask = KFD_RUNTIME_ENABLE_MODE_ENABLE_MASK };
  ck_assert_int_eq(kio(AMDKFD_IOC_RUNTIME_ENABLE, &re), 0);
  /* the runtime's header: the error payload and the event the kernel sets */
  uint64_t payload_va = (uintptr_t)&errw[8];
  memcpy(save + 24, &payload_va, 8);
  memcpy(save + 32, &err_event, 4);
  errw[8] = 0x100;   /* an earlier code stays */
  struct kfd_ioctl_create_queue_args c = {
    .ring_base_address = ring.va, .ring_size = 4096, .gpu_id = GPU0,
    .read_pointer_address = q.va + 0x80, .write_pointer_address = q.va + 0x38,
    .queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL, .queue_percentage = 100, .queue_priority = 7,
    .ctx_save_restore_address = (uintptr_t)save, .ctx_save_restore_size = 8192 };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &c), 0);
  uint32_t doorbell = (uint32_t)((c.doorbell_offset & (SIM_DOORBELL_SLICE - 1)) / 8);
  /* EC_QUEUE_WAVE_ABORT (bit 0 of the code, M0 bit 10) for this queue's doorbell */
  sim_kfd_wave_interrupt(sim_gpu(0), 1u << 10 | doorbell, true);
  ck_assert_uint_eq(cpx_wait_event(err_event, 1000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_uint_eq(*(volatile uint64_t *)&errw[8], 0x101);
  /* from outside a trap handler the same data is an event id: nothing for the runtime */
  sim_kfd_wave_interrupt(sim_gpu(0), 1u << 13 | doorbell, false);
  ck_assert_uint_eq(*(volatile uint64_t *)&errw[8], 0x101);
  /* another doorbell names no queue of ours: taken as an event id, nothing set */
  sim_kfd_wave_interrupt(sim_gpu(0), 1u << 13 | ((doorbell + 1) & 0x3ff), true);
  ck_assert_uint_eq(*(volatile uint64_t *)&errw[8], 0x101);
  /* a plain event id (no trap code) sets the event whose slot was written */
  *(volatile uint64_t *)(evpage.host + (slot2 - evpage.va)) = other;
  sim_kfd_wave_interrupt(sim_gpu(0), other, true);
  ck_assert_uint_eq(cpx_wait_event(other, 1000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  /* ILLEGAL_INSTRUCTION (EC 4: code bit 3) */
  sim_kfd_wave_interrupt(sim_gpu(0), 8u << 10 | doorbell, true);
  ck_assert_uint_eq(cpx_wait_event(err_event, 1000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_uint_eq(*(volatile uint64_t *)&errw[8], 0x109);
}
END_TEST

/* Without the runtime enabled the kernel takes no trap code from a wave: the payload stays. */
START_TEST(trap_exception_needs_runtime_enable)
{
  fx_cfg.kfd_minor = 13;
  fx_open();
  static uint8_t save[8192] __attribute__((aligned(4096)));
  static uint64_t errw[2];
  struct buf q = cpx_gtt(4096), ring = cpx_gtt(4096);
  struct buf evpage;
  uint64_t slot;
  uint32_t err_event = cpx_event(&evpage, &slot);
  uint64_t payload_va = (uintptr_t)errw;
  memcpy(save + 24, &payload_va, 8);
  memcpy(save + 32, &err_event, 4);
  struct kfd_ioctl_create_queue_args c = {
    .ring_base_address = ring.va, .ring_size = 4096, .gpu_id = GPU0,
    .read_pointer_address = q.va + 0x80, .write_pointer_address = q.va + 0x38,
    .queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL, .queue_percentage = 100, .queue_priority = 7,
    .ctx_save_restore_address = (uintptr_t)save, .ctx_save_restore_size = 8192 };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &c), 0);
  uint32_t doorbell = (uint32_t)((c.doorbell_offset & (SIM_DOORBELL_SLICE - 1)) / 8);
  sim_kfd_wave_interrupt(sim_gpu(0), 1u << 10 | doorbell, true);
  ck_assert_uint_eq(cpx_wait_event(err_event, 50, NULL), KFD_IOC_WAIT_RESULT_TIMEOUT);
  ck_assert_uint_eq(*(volatile uint64_t *)errw, 0);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("kfd_debug");
  TCase *t = tcase_create("debug");
  tcase_add_test(t, runtime_enable_and_debugger);
  tcase_add_test(t, trap_exception_to_runtime);
  tcase_add_test(t, trap_exception_needs_runtime_enable);
  suite_add_tcase(s, t);
  return s;
}
