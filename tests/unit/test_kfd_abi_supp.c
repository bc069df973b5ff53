/* SPDX-License-Identifier: MIT */
/* test_kfd_abi_supp.c — include/kfd_abi/kfd_ioctl_supp.h against the kernel's numbers: each
 * ioctl request word, struct size and member offset it supplies, written out here as the
 * literal values a KFD 1.18 kernel decodes (direction 3 = read|write in bits 30-31, size in
 * bits 16-29, 'K' in 8-15, the number in 0-7), so a typo in the header cannot pass. */
#include <check.h>
#include <stddef.h>

#include <kfd_abi/kfd_ioctl_supp.h>

START_TEST(ioctl_numbers)
{
  ck_assert_uint_eq(AMDKFD_IOC_EXPORT_DMABUF, 0xC0104B24u);
  ck_assert_uint_eq(AMDKFD_IOC_RUNTIME_ENABLE, 0xC0104B25u);
  ck_assert_uint_eq(AMDKFD_IOC_DBG_TRAP, 0xC0204B26u);
  ck_assert_uint_eq(KFD_SUPP_COMMAND_END, 0x27);
  /* the 1.11 ones the supplement builds on stay where they were */
  ck_assert_uint_eq(AMDKFD_IOC_AVAILABLE_MEMORY, 0xC0104B23u);
  ck_assert_uint_eq(AMDKFD_IOC_IMPORT_DMABUF, 0xC0184B1Du);
  /* CREATE_QUEUE's 1.17 form: 96 bytes */
  ck_assert_uint_eq(AMDKFD_SUPP_IOC_CREATE_QUEUE_V17, 0xC0604B02u);
}
END_TEST

START_TEST(struct_layouts)
{
  ck_assert_uint_eq(sizeof(struct kfd_ioctl_export_dmabuf_args), 16);
  ck_assert_uint_eq(offsetof(struct kfd_ioctl_export_dmabuf_args, flags), 8);
  ck_assert_uint_eq(offsetof(struct kfd_ioctl_export_dmabuf_args, dmabuf_fd), 12);
  ck_assert_uint_eq(sizeof(struct kfd_ioctl_runtime_enable_args), 16);
  ck_assert_uint_eq(offsetof(struct kfd_ioctl_runtime_enable_args, mode_mask), 8);
  ck_assert_uint_eq(offsetof(struct kfd_ioctl_runtime_enable_args, capabilities_mask), 12);
  ck_assert_uint_eq(sizeof(struct kfd_ioctl_dbg_trap_args), 32);
  ck_assert_uint_eq(sizeof(struct kfd_runtime_info), 16);
  ck_assert_uint_eq(offsetof(struct kfd_runtime_info, runtime_state), 8);
  ck_assert_uint_eq(offsetof(struct kfd_runtime_info, ttmp_setup), 12);
  ck_assert_uint_eq(DEBUG_RUNTIME_STATE_ENABLED, 1);
  ck_assert_uint_eq(offsetof(struct kfd_ioctl_dbg_trap_args, op), 4);
  ck_assert_uint_eq(offsetof(struct kfd_ioctl_dbg_trap_args, enable), 8);
  ck_assert_uint_eq(sizeof(struct kfd_ioctl_dbg_trap_enable_args), 24);
  ck_assert_uint_eq(offsetof(struct kfd_ioctl_dbg_trap_enable_args, dbg_fd), 20);
  ck_assert_uint_eq(sizeof(struct kfd_ioctl_dbg_trap_suspend_queues_args), 24);
  ck_assert_uint_eq(sizeof(struct kfd_ioctl_dbg_trap_set_node_address_watch_args), 24);
  ck_assert_uint_eq(sizeof(struct kfd_ioctl_dbg_trap_query_exception_info_args), 24);
  ck_assert_uint_eq(sizeof(struct kfd_ioctl_dbg_trap_device_snapshot_args), 24);
  ck_assert_uint_eq(sizeof(struct kfd_hsa_signal_event_data), 8);
  /* event age lives in the first word of the event data's union: the struct keeps 48 bytes */
  ck_assert_uint_eq(sizeof(struct kfd_event_data), 48);
}
END_TEST

START_TEST(constants)
{
  ck_assert_int_eq(KFD_IOC_DBG_TRAP_ENABLE, 0);
  ck_assert_int_eq(KFD_IOC_DBG_TRAP_GET_DEVICE_SNAPSHOT, 14);
  ck_assert_int_eq(KFD_RUNTIME_ENABLE_MODE_ENABLE_MASK, 1);
  ck_assert_int_eq(KFD_RUNTIME_ENABLE_MODE_TTMP_SAVE_MASK, 2);
  ck_assert_uint_eq((unsigned)KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS, 0x00800000u);
  ck_assert_uint_eq((unsigned)KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT, 0x01000000u);
  ck_assert_int_eq(KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID, 4);
  ck_assert_int_eq(KFD_PROC_FLAG_MFMA_HIGH_PRECISION, 1);
  ck_assert_int_eq(KFD_SUPP_SMI_EVENT_PROCESS_START, 12);
  ck_assert_int_eq(KFD_SUPP_SMI_EVENT_PROCESS_END, 13);
  ck_assert_int_eq(KFD_SUPP_MINOR_NEWEST, 18);
  ck_assert_uint_eq(sizeof(struct kfd_ioctl_create_queue_args) == 88 ||
                    sizeof(struct kfd_ioctl_create_queue_args) == 96, 1);
}
END_TEST

START_TEST(create_queue_engine)
{
  unsigned char b[KFD_SUPP_CREATE_QUEUE_SIZE_V17];
  memset(b, 0, sizeof b);
  kfd_supp_set_create_queue_engine(b, 0x0a0b0c0du);
  ck_assert_uint_eq(kfd_supp_create_queue_engine(b), 0x0a0b0c0du);
  ck_assert_uint_eq(b[88], 0x0d);   /* after ctl_stack_size (offset 84), little end first */
  ck_assert_uint_eq(b[91], 0x0a);
  ck_assert_uint_eq(offsetof(struct kfd_ioctl_create_queue_args, ctl_stack_size), 84);
#if KFD_IOCTL_MINOR_VERSION >= 17
  ck_assert_uint_eq(offsetof(struct kfd_ioctl_create_queue_args, sdma_engine_id), 88);
#endif
}
END_TEST

START_TEST(event_age_accessors)
{
  struct kfd_event_data e = {0};
  kfd_supp_set_event_age(&e, 0x1122334455667788ull);
  ck_assert_uint_eq(kfd_supp_event_age(&e), 0x1122334455667788ull);
  ck_assert_uint_eq(e.memory_exception_data.failure.NotPresent, 0x55667788u);   /* little end */
  ck_assert_uint_eq(e.event_id, 0);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("kfd_abi_supp");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, ioctl_numbers);
  tcase_add_test(tc, struct_layouts);
  tcase_add_test(tc, constants);
  tcase_add_test(tc, event_age_accessors);
  tcase_add_test(tc, create_queue_engine);
  suite_add_tcase(s, tc);
  return s;
}
