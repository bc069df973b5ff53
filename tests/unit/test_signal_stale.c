/* SPDX-License-Identifier: MIT */
/* test_signal_stale.c — destroyed and made-up signal handles (runs itself under hsa-sim): a
 * destroyed slot is quarantined (not handed out again until SIG_QUARANTINE others were freed
 * after it, with bounded memory), every call with a status refuses the stale handle, loads
 * give INT64_MAX, waits return at once with a value failing their condition (also a wait
 * whose signal is destroyed under it), and stderr names each handle once. */
#include <check.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hsa.h"
#include "hsa_ext_amd.h"
#include "signals/internal.h"
#include "unit/sim_reexec.h"

SIM_REEXEC("--gpus", "1")

static void setup(void) { ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS); }
static void teardown(void) { ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS); }

static hsa_signal_t make(hsa_signal_value_t v) {
  hsa_signal_t s;
  ck_assert_int_eq(hsa_signal_create(v, 0, NULL, &s), HSA_STATUS_SUCCESS);
  return s;
}

static const amd_signal_t *amd(hsa_signal_t s) { return (const amd_signal_t *)(uintptr_t)s.handle; }

static uint64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

static hsa_signal_value_t wait_forever(hsa_signal_t s, hsa_signal_condition_t c,
                                       hsa_signal_value_t v) {
  return hsa_signal_wait_scacquire(s, c, v, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
}

static bool noop_handler(hsa_signal_value_t v, void *arg) {
  (void)v;
  (void)arg;
  return false;
}

START_TEST(destroyed_handle_is_refused_and_not_reused) {
  hsa_signal_t a = make(1);
  ck_assert_int_eq(hsa_signal_destroy(a), HSA_STATUS_SUCCESS);
  hsa_signal_t b = make(2);
  ck_assert_uint_ne(b.handle, a.handle);   /* the slot is quarantined */
  ck_assert_int_eq(amd(a)->kind, AMD_SIGNAL_KIND_INVALID);
  ck_assert_int_eq(hsa_signal_destroy(a), HSA_STATUS_ERROR_INVALID_SIGNAL);
  /* calls with a status refuse it */
  volatile hsa_signal_value_t *vp;
  ck_assert_int_eq(hsa_amd_signal_value_pointer(a, &vp), HSA_STATUS_ERROR_INVALID_SIGNAL);
  ck_assert_int_eq(hsa_amd_signal_async_handler(a, HSA_SIGNAL_CONDITION_EQ, 0, noop_handler, NULL),
                   HSA_STATUS_ERROR_INVALID_SIGNAL);
  hsa_signal_group_t g;
  hsa_signal_t two[2] = {b, a};
  ck_assert_int_eq(hsa_signal_group_create(2, two, 0, NULL, &g), HSA_STATUS_ERROR_INVALID_SIGNAL);
  /* value operations do nothing; loads say "not done" */
  hsa_signal_store_screlease(a, 0);
  hsa_signal_subtract_scacq_screl(a, 1);
  ck_assert_int_eq(amd(a)->value, 1);
  ck_assert_int_eq(hsa_signal_load_scacquire(a), INT64_MAX);
  ck_assert_int_eq(hsa_signal_load_relaxed(a), INT64_MAX);
  ck_assert_int_eq(hsa_signal_exchange_scacq_screl(a, 0), INT64_MAX);
  ck_assert_int_eq(hsa_signal_cas_scacq_screl(a, 1, 0), INT64_MAX);
  ck_assert_int_eq(amd(a)->value, 1);
  ck_assert_int_eq(hsa_signal_load_relaxed(b), 2);
  /* waits return at once, with a value failing the condition, even without a timeout */
  uint64_t t0 = now_ms();
  ck_assert_int_eq(wait_forever(a, HSA_SIGNAL_CONDITION_EQ, 0), 1);
  ck_assert_int_eq(wait_forever(a, HSA_SIGNAL_CONDITION_LT, 1), 1);
  ck_assert_int_eq(wait_forever(a, HSA_SIGNAL_CONDITION_NE, 7), 7);
  ck_assert_int_eq(wait_forever(a, HSA_SIGNAL_CONDITION_GTE, 3), 2);
  ck_assert_int_eq(wait_forever(a, HSA_SIGNAL_CONDITION_EQ, INT64_MAX), INT64_MIN);
  ck_assert_int_eq(hsa_signal_wait_relaxed(a, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                           HSA_WAIT_STATE_ACTIVE), 1);
  hsa_signal_condition_t c = HSA_SIGNAL_CONDITION_EQ;
  hsa_signal_value_t zero = 0, got = 42;
  ck_assert_uint_eq(hsa_amd_signal_wait_any(1, &a, &c, &zero, UINT64_MAX, HSA_WAIT_STATE_BLOCKED,
                                            &got), UINT32_MAX);
  ck_assert_int_eq(got, 42);
  ck_assert_uint_lt(now_ms() - t0, 1000);
  ck_assert_int_eq(hsa_signal_destroy(b), HSA_STATUS_SUCCESS);
}
END_TEST

/* Handles that never were signals: inside the arena (a slot never used, a misaligned
 * address) and outside it. */
START_TEST(made_up_handles_are_refused) {
  hsa_signal_t s = make(3);
  hsa_signal_t unused = {s.handle + 64 * 100}, inner = {s.handle + 8}, far = {0x10000};
  hsa_signal_t bad[3] = {unused, inner, far};
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(hsa_signal_destroy(bad[i]), HSA_STATUS_ERROR_INVALID_SIGNAL);
    ck_assert_int_eq(hsa_signal_load_scacquire(bad[i]), INT64_MAX);
    ck_assert_int_eq(wait_forever(bad[i], HSA_SIGNAL_CONDITION_LT, 1), 1);
    hsa_signal_store_relaxed(bad[i], 0);
  }
  ck_assert_int_eq(hsa_signal_load_relaxed(s), 3);
  ck_assert_int_eq(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

/* The quarantine is a FIFO of SIG_QUARANTINE: with one signal created and destroyed at a
 * time, a slot comes back after SIG_QUARANTINE frees (plus at most a chunk), and the arena
 * stays that big. After that the stale handle reaches the new signal: the documented limit. */
START_TEST(quarantine_is_a_bounded_fifo) {
  hsa_signal_t a = make(1);
  ck_assert_int_eq(hsa_signal_destroy(a), HSA_STATUS_SUCCESS);
  uint32_t frees = 0;
  hsa_signal_t n;
  for (;;) {
    n = make(7);
    if (n.handle == a.handle) break;
    ck_assert_int_eq(hsa_signal_destroy(n), HSA_STATUS_SUCCESS);
    frees++;
    ck_assert_uint_le(frees, SIG_QUARANTINE + SIG_CHUNK_SIGNALS);
  }
  ck_assert_uint_ge(frees, SIG_QUARANTINE);
  uintptr_t used = atomic_load(&sig_arena_used);
  ck_assert_uint_le(used, (SIG_QUARANTINE + 2 * SIG_CHUNK_SIGNALS) * sizeof(amd_signal_t));
  ck_assert_int_eq(hsa_signal_load_relaxed(a), 7);
  ck_assert_int_eq(hsa_signal_destroy(n), HSA_STATUS_SUCCESS);
}
END_TEST

static hsa_signal_t victim;
static void *waiter(void *arg) {
  (void)arg;
  hsa_signal_value_t v = wait_forever(victim, HSA_SIGNAL_CONDITION_EQ, 0);
  return (void *)(intptr_t)v;
}

/* A signal destroyed under a blocked waiter ends the wait with a value failing it (not the
 * value the slot held, which could meet it). */
START_TEST(destroy_under_a_waiter_fails_the_wait) {
  victim = make(5);
  pthread_t t;
  ck_assert_int_eq(pthread_create(&t, NULL, waiter, NULL), 0);
  usleep(50000);
  ck_assert_int_eq(hsa_signal_destroy(victim), HSA_STATUS_SUCCESS);
  void *ret;
  ck_assert_int_eq(pthread_join(t, &ret), 0);
  ck_assert_int_eq((intptr_t)ret, 1);
}
END_TEST

static int count_lines(const char *text, const char *needle) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, needle)) != NULL; p++) n++;
  return n;
}

START_TEST(stderr_names_each_handle_once) {
  hsa_signal_t a = make(1), far = {0x20000};
  ck_assert_int_eq(hsa_signal_destroy(a), HSA_STATUS_SUCCESS);
  char path[] = "/tmp/hsa-stale-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  fflush(stderr);
  int saved = dup(2);
  dup2(fd, 2);
  for (int i = 0; i < 3; i++) {
    hsa_signal_load_relaxed(a);
    wait_forever(a, HSA_SIGNAL_CONDITION_EQ, 0);
    hsa_signal_store_relaxed(far, 1);
  }
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char buf[4096] = {0};
  ck_assert_int_ge(pread(fd, buf, sizeof(buf) - 1, 0), 1);
  close(fd);
  unlink(path);
  char ha[32], hf[32];
  snprintf(ha, sizeof ha, "signal 0x%" PRIx64 " was destroyed", a.handle);
  snprintf(hf, sizeof hf, "signal 0x%" PRIx64 " is not", far.handle);
  ck_assert_int_eq(count_lines(buf, ha), 1);
  ck_assert_int_eq(count_lines(buf, hf), 1);
  ck_assert_ptr_nonnull(strstr(buf, "hsa_signal_load_relaxed"));
}
END_TEST

/* An IPC signal lives outside the arena: destroyed, it is refused the same way. */
START_TEST(destroyed_ipc_signal_is_refused) {
  hsa_signal_t s;
  ck_assert_int_eq(hsa_amd_signal_create(4, 0, NULL, HSA_AMD_SIGNAL_IPC, &s), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_load_relaxed(s), 4);
  ck_assert_int_eq(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL);
  ck_assert_int_eq(hsa_signal_load_relaxed(s), INT64_MAX);
  ck_assert_int_eq(wait_forever(s, HSA_SIGNAL_CONDITION_NE, 4), 4);
}
END_TEST

/* A forked child has no copy of the arena's pages (MADV_DONTFORK): it gets zeroed ones, so
 * the handles it inherited read dead memory instead of faulting. */
START_TEST(forked_child_does_not_fault) {
  hsa_signal_t dead = make(1), live = make(2);
  ck_assert_int_eq(hsa_signal_destroy(dead), HSA_STATUS_SUCCESS);
  pid_t pid = fork();
  if (pid == 0) {
    bool ok = hsa_signal_load_relaxed(dead) == INT64_MAX && amd(live)->kind == 0 &&
              amd(dead)->kind == AMD_SIGNAL_KIND_INVALID;
    _exit(ok ? 0 : 3);
  }
  int status = 0;
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert(WIFEXITED(status));
  ck_assert_int_eq(WEXITSTATUS(status), 0);
  ck_assert_int_eq(hsa_signal_load_relaxed(live), 2);
  ck_assert_int_eq(hsa_signal_destroy(live), HSA_STATUS_SUCCESS);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("signal_stale");
  TCase *tc = tcase_create("stale");
  tcase_set_timeout(tc, 60);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, destroyed_handle_is_refused_and_not_reused);
  tcase_add_test(tc, made_up_handles_are_refused);
  tcase_add_test(tc, quarantine_is_a_bounded_fifo);
  tcase_add_test(tc, destroy_under_a_waiter_fails_the_wait);
  tcase_add_test(tc, stderr_names_each_handle_once);
  tcase_add_test(tc, destroyed_ipc_signal_is_refused);
  tcase_add_test(tc, forked_child_does_not_fault);
  suite_add_tcase(s, tc);
  return s;
}
