/* SPDX-License-Identifier: MIT */
/* test_signal_nospace.c — when the driver has no event slot left (the second CREATE_EVENT
 * fails with ENOSPC, injected by hsa-sim), an interrupt signal becomes a polled one that
 * still works, and later interrupt signals reuse the freed slots that kept their events. */
#include <check.h>
#include <stdint.h>

#include "hsa.h"
#include "signals/signal.h"
#include "unit/sim_reexec.h"

SIM_REEXEC("--gpus", "1", "--fail", "CREATE_EVENT:2:ENOSPC")

static uint64_t mailbox(hsa_signal_t s) {
  return ((const amd_signal_t *)(uintptr_t)s.handle)->event_mailbox_ptr;
}

START_TEST(out_of_event_slots) {
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
  hsa_signal_t a, b, c, d;
  ck_assert_int_eq(hsa_signal_create(1, 0, NULL, &a), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_create(2, 0, NULL, &b), HSA_STATUS_SUCCESS);
  ck_assert_uint_ne(mailbox(a), 0);
  ck_assert_uint_eq(mailbox(b), 0);   /* no slot: polled */
  hsa_signal_store_screlease(b, 9);
  ck_assert_int_eq(hsa_signal_wait_scacquire(b, HSA_SIGNAL_CONDITION_EQ, 9, UINT64_MAX,
                                             HSA_WAIT_STATE_BLOCKED), 9);
  ck_assert_int_eq(hsa_signal_wait_scacquire(b, HSA_SIGNAL_CONDITION_LT, 0, 1000,
                                             HSA_WAIT_STATE_BLOCKED), 9);
  uint64_t a_box = mailbox(a);
  ck_assert_int_eq(hsa_signal_destroy(a), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_destroy(b), HSA_STATUS_SUCCESS);
  /* b's slot is first on the free list, but a's kept its event: that one is taken */
  ck_assert_int_eq(hsa_signal_create(3, 0, NULL, &c), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(mailbox(c), a_box);
  ck_assert_int_eq(hsa_signal_load_relaxed(c), 3);
  ck_assert_int_eq(hsa_signal_create(4, 0, NULL, &d), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(mailbox(d), 0);
  hsa_signal_destroy(c);
  hsa_signal_destroy(d);
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("signal_nospace");
  TCase *tc = tcase_create("nospace");
  tcase_add_test(tc, out_of_event_slots);
  suite_add_tcase(s, tc);
  return s;
}
