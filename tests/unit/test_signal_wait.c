/* SPDX-License-Identifier: MIT */
/* test_signal_wait.c — waiting on signals on the driver model (runs itself under hsa-sim):
 * every condition, timeouts measured with clock_gettime (never early; a generous upper
 * bound), with interrupts on and off (HSA_ENABLE_INTERRUPT=0), a waiter blocked in the KFD
 * event (seen in the kernel-side wait, not in a sleep) woken by another thread's store,
 * wait_any, the async handler thread, and destroy racing with users. */
#include <check.h>
#include <errno.h>
#include <linux/membarrier.h>
#include <stdatomic.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "hsa.h"
#include "hsa_ext_amd.h"
#include "signals/internal.h"
#include "signals/signal.h"
#include "unit/sim_reexec.h"

SIM_REEXEC("--gpus", "1")

static void setup(void) { ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS); }
static void teardown(void) { ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS); }
/* The same with interrupts off: every signal is polled. */
static void setup_polled(void) {
  setenv("HSA_ENABLE_INTERRUPT", "0", 1);
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
}

static hsa_signal_t make(hsa_signal_value_t v) {
  hsa_signal_t s;
  ck_assert_int_eq(hsa_signal_create(v, 0, NULL, &s), HSA_STATUS_SUCCESS);
  return s;
}
static bool has_event(hsa_signal_t s) {
  return ((const amd_signal_t *)(uintptr_t)s.handle)->event_mailbox_ptr != 0;
}
static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}
static uint64_t ticks_of_ms(uint64_t ms) {
  uint64_t f = 0;
  ck_assert_int_eq(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &f),
                   HSA_STATUS_SUCCESS);
  ck_assert_uint_gt(f, 0);
  return f / 1000 * ms;
}

/* ---- conditions ------------------------------------------------------------------------------ */

static void conditions_on(hsa_signal_t s) {
  const hsa_wait_state_t hints[2] = {HSA_WAIT_STATE_ACTIVE, HSA_WAIT_STATE_BLOCKED};
  for (int h = 0; h < 2; h++) {
    hsa_signal_store_relaxed(s, 10);
    ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 10, UINT64_MAX,
                                               hints[h]), 10);
    ck_assert_int_eq(hsa_signal_wait_relaxed(s, HSA_SIGNAL_CONDITION_NE, 3, UINT64_MAX,
                                             hints[h]), 10);
    ck_assert_int_eq(hsa_signal_wait_acquire(s, HSA_SIGNAL_CONDITION_LT, 11, UINT64_MAX,
                                             hints[h]), 10);
    ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_GTE, 10, UINT64_MAX,
                                               hints[h]), 10);
    ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_GTE, -5, UINT64_MAX,
                                               hints[h]), 10);
    /* unmet conditions with timeout 0 return at once with the value */
    ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 11, 0, hints[h]), 10);
    ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 10, 0, hints[h]), 10);
    ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_GTE, 11, 0, hints[h]), 10);
    ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_NE, 10, 0, hints[h]), 10);
    /* an invalid condition is refused (0), not waited on */
    ck_assert_int_eq(hsa_signal_wait_scacquire(s, (hsa_signal_condition_t)9, 10, 0, hints[h]), 0);
  }
}

START_TEST(conditions_interrupt_signal) {
  hsa_signal_t s = make(0);
  ck_assert(has_event(s));
  conditions_on(s);
  hsa_signal_destroy(s);
}
END_TEST

START_TEST(conditions_polled) {
  hsa_signal_t s = make(0);
  ck_assert(!has_event(s));
  conditions_on(s);
  hsa_signal_destroy(s);
}
END_TEST

/* ---- timeouts ----------------------------------------------------------------------------- */

static void timeouts_on(hsa_signal_t s) {
  const hsa_wait_state_t hints[2] = {HSA_WAIT_STATE_ACTIVE, HSA_WAIT_STATE_BLOCKED};
  const uint64_t ms[3] = {1, 30, 120};
  for (int h = 0; h < 2; h++)
    for (int k = 0; k < 3; k++) {
      hsa_signal_store_relaxed(s, 7);
      uint64_t t0 = now_ns();
      hsa_signal_value_t v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 8,
                                                       ticks_of_ms(ms[k]), hints[h]);
      uint64_t dt = now_ns() - t0;
      ck_assert_int_eq(v, 7);
      ck_assert_msg(dt >= ms[k] * 1000000u, "hint %d: returned after %llu ns, timeout %llu ms",
                    h, (unsigned long long)dt, (unsigned long long)ms[k]);
      ck_assert_msg(dt < ms[k] * 1000000u + 2000000000ull, "hint %d: %llu ns for %llu ms", h,
                    (unsigned long long)dt, (unsigned long long)ms[k]);
    }
  /* the internal wait takes nanoseconds */
  uint64_t t0 = now_ns();
  ck_assert_int_eq(sig_wait(s, HSA_SIGNAL_CONDITION_LT, 0, 25000000ull), 7);
  ck_assert_uint_ge(now_ns() - t0, 25000000ull);
}

START_TEST(timeouts_interrupt_signal) {
  hsa_signal_t s = make(0);
  ck_assert(has_event(s));
  timeouts_on(s);
  hsa_signal_destroy(s);
}
END_TEST

START_TEST(timeouts_polled) {
  hsa_signal_t s = make(0);
  timeouts_on(s);
  hsa_signal_destroy(s);
}
END_TEST

START_TEST(timeouts_gpu_only_signal) {
  hsa_signal_t s;
  ck_assert_int_eq(hsa_amd_signal_create(0, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &s),
                   HSA_STATUS_SUCCESS);
  ck_assert(!has_event(s));
  timeouts_on(s);
  hsa_signal_destroy(s);
}
END_TEST

/* ---- a waiter woken by another thread ---------------------------------------------------------- */

struct waiter {
  hsa_signal_t s;
  hsa_signal_condition_t cond;
  hsa_signal_value_t cmp, got;
  hsa_wait_state_t hint;
  _Atomic pid_t tid;
};
static void *wait_thread(void *arg) {
  struct waiter *w = arg;
  w->tid = (pid_t)syscall(SYS_gettid);
  w->got = hsa_signal_wait_scacquire(w->s, w->cond, w->cmp, UINT64_MAX, w->hint);
  return NULL;
}

/* The syscall a thread is blocked in (first field of /proc/self/task/T/syscall), -1 if running. */
static long blocked_in(pid_t tid) {
  char path[64], buf[64] = "";
  snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)tid);
  FILE *f = fopen(path, "r");
  if (!f) return -2;
  if (!fgets(buf, sizeof buf, f)) buf[0] = 0;
  fclose(f);
  return strncmp(buf, "running", 7) == 0 ? -1 : strtol(buf, NULL, 10);
}

/* Waits until the thread is seen blocked in one of the syscalls (up to 5 s). */
static bool seen_blocked_in(pid_t tid, long a, long b) {
  for (int i = 0; i < 5000; i++) {
    long sc = blocked_in(tid);
    if (sc == a || sc == b) return true;
    usleep(1000);
  }
  return false;
}

START_TEST(blocked_waiter_woken_by_store) {
  hsa_signal_t s = make(0);
  ck_assert(has_event(s));
  struct waiter w = {s, HSA_SIGNAL_CONDITION_EQ, 1, -1, HSA_WAIT_STATE_BLOCKED, 0};
  pthread_t t;
  pthread_create(&t, NULL, wait_thread, &w);
  while (!w.tid) usleep(100);
  /* past the spin it sleeps in WAIT_EVENTS: an ioctl on a kernel, a futex in hsa-sim's model */
  ck_assert_msg(seen_blocked_in(w.tid, SYS_ioctl, SYS_futex), "waiter never blocked in the event");
  hsa_signal_store_screlease(s, 1);
  pthread_join(t, NULL);
  ck_assert_int_eq(w.got, 1);
  hsa_signal_destroy(s);
}
END_TEST

/* Where the kernel has membarrier's private expedited command, stores take no fence once a
 * signal has an event (a waiter pays with a heavy barrier before it blocks); a blocked waiter
 * still wakes on a store, each time, by the event the store sets. */
START_TEST(stores_without_fence_still_wake_blocked_waiters) {
  long q = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  bool expedited = q > 0 && (q & MEMBARRIER_CMD_PRIVATE_EXPEDITED);
  hsa_signal_t s = make(0);
  ck_assert(has_event(s));
  ck_assert_int_eq(atomic_load(&sig_light_stores), expedited);
  for (int round = 0; round < 3; round++) {
    struct waiter w = {s, HSA_SIGNAL_CONDITION_EQ, round + 1, -1, HSA_WAIT_STATE_BLOCKED, 0};
    pthread_t t;
    pthread_create(&t, NULL, wait_thread, &w);
    while (!w.tid) usleep(100);
    ck_assert_msg(seen_blocked_in(w.tid, SYS_ioctl, SYS_futex), "waiter never blocked");
    hsa_signal_store_relaxed(s, round + 1);
    pthread_join(t, NULL);
    ck_assert_int_eq(w.got, round + 1);
  }
  hsa_signal_destroy(s);
}
END_TEST

START_TEST(two_blocked_waiters_both_woken) {
  hsa_signal_t s = make(5);
  struct waiter w[2] = {{s, HSA_SIGNAL_CONDITION_LT, 1, -1, HSA_WAIT_STATE_BLOCKED, 0},
                        {s, HSA_SIGNAL_CONDITION_EQ, 0, -1, HSA_WAIT_STATE_BLOCKED, 0}};
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, wait_thread, &w[i]);
  for (int i = 0; i < 2; i++) {
    while (!w[i].tid) usleep(100);
    ck_assert(seen_blocked_in(w[i].tid, SYS_ioctl, SYS_futex));
  }
  hsa_signal_subtract_screlease(s, 5);   /* the way a completion signal reaches 0 */
  for (int i = 0; i < 2; i++) {
    pthread_join(t[i], NULL);
    ck_assert_int_eq(w[i].got, 0);
  }
  hsa_signal_destroy(s);
}
END_TEST

/* With interrupts off the waiter naps instead of blocking in the driver, and still wakes. */
START_TEST(polled_waiter_woken_by_store) {
  hsa_signal_t s = make(0);
  ck_assert(!has_event(s));
  struct waiter w = {s, HSA_SIGNAL_CONDITION_GTE, 3, -1, HSA_WAIT_STATE_BLOCKED, 0};
  pthread_t t;
  pthread_create(&t, NULL, wait_thread, &w);
  while (!w.tid) usleep(100);
  ck_assert(seen_blocked_in(w.tid, SYS_nanosleep, SYS_clock_nanosleep));
  hsa_signal_add_relaxed(s, 2);
  usleep(2000);
  hsa_signal_add_relaxed(s, 2);
  pthread_join(t, NULL);
  ck_assert_int_eq(w.got, 4);
  hsa_signal_destroy(s);
}
END_TEST

/* A waiter on a signal someone destroys comes back instead of hanging. */
START_TEST(destroy_wakes_waiter) {
  hsa_signal_t s = make(0);
  struct waiter w = {s, HSA_SIGNAL_CONDITION_EQ, 1, -1, HSA_WAIT_STATE_BLOCKED, 0};
  pthread_t t;
  pthread_create(&t, NULL, wait_thread, &w);
  while (!w.tid) usleep(100);
  ck_assert(seen_blocked_in(w.tid, SYS_ioctl, SYS_futex));
  ck_assert_int_eq(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
  pthread_join(t, NULL);
  ck_assert_int_ne(w.got, 1);
}
END_TEST

/* ---- wait_any -------------------------------------------------------------------------------- */

struct later { hsa_signal_t s; hsa_signal_value_t v; };
static void *store_later(void *arg) {
  struct later *l = arg;
  usleep(50000);
  hsa_signal_store_screlease(l->s, l->v);
  return NULL;
}

static void wait_any_checks(void) {
  hsa_signal_t s[3] = {make(1), make(1), make(1)};
  hsa_signal_condition_t c[3] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ,
                                 HSA_SIGNAL_CONDITION_LT};
  hsa_signal_value_t v[3] = {0, 0, 0}, got = 12345;
  struct later l = {s[2], -4};
  pthread_t t;
  pthread_create(&t, NULL, store_later, &l);
  ck_assert_uint_eq(hsa_amd_signal_wait_any(3, s, c, v, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &got),
                    2);
  ck_assert_int_eq(got, -4);
  pthread_join(t, NULL);
  /* timeout: UINT32_MAX, not before the time */
  hsa_signal_store_relaxed(s[2], 1);
  uint64_t t0 = now_ns();
  ck_assert_uint_eq(hsa_amd_signal_wait_any(3, s, c, v, ticks_of_ms(40), HSA_WAIT_STATE_BLOCKED,
                                            &got), UINT32_MAX);
  ck_assert_uint_ge(now_ns() - t0, 40000000ull);
  /* the first one met wins; bad input is refused */
  hsa_signal_store_relaxed(s[0], 0);
  ck_assert_uint_eq(hsa_amd_signal_wait_any(3, s, c, v, 0, HSA_WAIT_STATE_ACTIVE, &got), 0);
  hsa_signal_t bad[2] = {s[1], {0x80}};
  ck_assert_uint_eq(hsa_amd_signal_wait_any(2, bad, c, v, 0, HSA_WAIT_STATE_ACTIVE, &got),
                    UINT32_MAX);
  ck_assert_uint_eq(hsa_amd_signal_wait_any(0, s, c, v, 0, HSA_WAIT_STATE_ACTIVE, &got),
                    UINT32_MAX);
  for (int i = 0; i < 3; i++) hsa_signal_destroy(s[i]);
}

START_TEST(wait_any_interrupt) { wait_any_checks(); }
END_TEST
START_TEST(wait_any_polled) { wait_any_checks(); }
END_TEST

/* ---- async handler ----------------------------------------------------------------------------- */

struct calls {
  pthread_mutex_t m;
  sem_t sem;
  int n;
  hsa_signal_value_t seen[16];
  hsa_signal_t s;
  bool keep;
};

static bool record(hsa_signal_value_t v, void *arg) {
  struct calls *c = arg;
  bool keep = c->keep;   /* after sem_post the waiting test may end and c go away */
  pthread_mutex_lock(&c->m);
  if (c->n < 16) c->seen[c->n] = v;
  c->n++;
  pthread_mutex_unlock(&c->m);
  sem_post(&c->sem);
  return keep;
}

static bool sem_wait_s(sem_t *s, int secs) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  t.tv_sec += secs;
  while (sem_timedwait(s, &t) != 0)
    if (errno != EINTR) return false;
  return true;
}

static void init_calls(struct calls *c, hsa_signal_t s, bool keep) {
  memset(c, 0, sizeof *c);
  pthread_mutex_init(&c->m, NULL);
  sem_init(&c->sem, 0, 0);
  c->s = s;
  c->keep = keep;
}

static void async_once(void) {
  hsa_signal_t s = make(0);
  struct calls c;
  init_calls(&c, s, false);
  ck_assert_int_eq(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 5, record, &c),
                   HSA_STATUS_SUCCESS);
  hsa_signal_store_screlease(s, 4);
  hsa_signal_store_screlease(s, 5);
  ck_assert(sem_wait_s(&c.sem, 10));
  ck_assert_int_eq(c.seen[0], 5);
  /* it returned false: deregistered, so meeting the condition again calls nobody */
  hsa_signal_store_screlease(s, 0);
  hsa_signal_store_screlease(s, 5);
  usleep(100000);
  ck_assert_int_eq(c.n, 1);
  hsa_signal_destroy(s);
}

START_TEST(async_handler_called_with_value) { async_once(); }
END_TEST
START_TEST(async_handler_polled) { async_once(); }
END_TEST

/* A handler returning true stays armed: it runs again while the condition holds. */
static bool count_down(hsa_signal_value_t v, void *arg) {
  struct calls *c = arg;
  if (c->n < 16) c->seen[c->n] = v;
  c->n++;
  hsa_signal_subtract_screlease(c->s, 1);
  return true;
}

START_TEST(async_handler_rearms) {
  hsa_signal_t s = make(0);
  struct calls c;
  init_calls(&c, s, true);
  ck_assert_int_eq(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_GTE, 1, count_down, &c),
                   HSA_STATUS_SUCCESS);
  hsa_signal_store_screlease(s, 3);
  ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                             HSA_WAIT_STATE_BLOCKED), 0);
  usleep(50000);
  ck_assert_int_eq(c.n, 3);
  ck_assert_int_eq(c.seen[0], 3);
  ck_assert_int_eq(c.seen[1], 2);
  ck_assert_int_eq(c.seen[2], 1);
  hsa_signal_destroy(s);
}
END_TEST

START_TEST(async_handler_many_signals) {
  enum { N = 24 };
  hsa_signal_t s[N];
  struct calls c[N];
  for (int i = 0; i < N; i++) {
    s[i] = make(0);
    init_calls(&c[i], s[i], false);
    ck_assert_int_eq(hsa_amd_signal_async_handler(s[i], HSA_SIGNAL_CONDITION_NE, 0, record, &c[i]),
                     HSA_STATUS_SUCCESS);
  }
  for (int k = 0; k < N; k++) {
    int i = (k * 7) % N;   /* an order unlike the registration order */
    hsa_signal_store_screlease(s[i], 100 + i);
  }
  for (int i = 0; i < N; i++) {
    ck_assert(sem_wait_s(&c[i].sem, 10));
    ck_assert_int_eq(c[i].seen[0], 100 + i);
    ck_assert_int_eq(c[i].n, 1);
  }
  for (int i = 0; i < N; i++) hsa_signal_destroy(s[i]);
}
END_TEST

START_TEST(async_handler_rejects_bad_input) {
  hsa_signal_t s = make(0), gpu_only, zero = {0};
  struct calls c;
  init_calls(&c, s, false);
  ck_assert_int_eq(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 1, NULL, &c),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_amd_signal_async_handler(s, (hsa_signal_condition_t)7, 1, record, &c),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_amd_signal_async_handler(zero, HSA_SIGNAL_CONDITION_EQ, 1, record, &c),
                   HSA_STATUS_ERROR_INVALID_SIGNAL);
  ck_assert_int_eq(hsa_amd_signal_create(0, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &gpu_only),
                   HSA_STATUS_SUCCESS);
  /* ROCR: with interrupts on, the handler thread only takes signals it can sleep on */
  ck_assert_int_eq(hsa_amd_signal_async_handler(gpu_only, HSA_SIGNAL_CONDITION_EQ, 1, record, &c),
                   HSA_STATUS_ERROR_INVALID_SIGNAL);
  hsa_signal_destroy(gpu_only);
  hsa_signal_destroy(s);
}
END_TEST

/* Destroying a signal with a registered handler while other threads hammer it: no crash, the
 * handler is not called for it, and the handler thread keeps serving other signals. */
static _Atomic int stop_hammer;
static void *hammer(void *arg) {
  hsa_signal_t s = *(hsa_signal_t *)arg;
  while (!stop_hammer) {
    hsa_signal_add_relaxed(s, 1);
    hsa_signal_load_scacquire(s);
    hsa_signal_cas_relaxed(s, 3, 4);
  }
  return NULL;
}

START_TEST(destroy_races_with_users_and_handler) {
  for (int round = 0; round < 20; round++) {
    hsa_signal_t s = make(0);
    struct calls c;
    init_calls(&c, s, true);
    ck_assert_int_eq(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_LT, 0, record, &c),
                     HSA_STATUS_SUCCESS);
    pthread_t t[4];
    stop_hammer = 0;
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, hammer, &s);
    usleep(2000);
    ck_assert_int_eq(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
    usleep(1000);
    stop_hammer = 1;
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    ck_assert_int_eq(c.n, 0);   /* the value only grew: never < 0 */
  }
  /* the handler thread still works */
  hsa_signal_t s2 = make(0);
  struct calls c2;
  init_calls(&c2, s2, false);
  ck_assert_int_eq(hsa_amd_signal_async_handler(s2, HSA_SIGNAL_CONDITION_EQ, 9, record, &c2),
                   HSA_STATUS_SUCCESS);
  hsa_signal_store_relaxed(s2, 9);
  ck_assert(sem_wait_s(&c2.sem, 10));
  ck_assert_int_eq(c2.seen[0], 9);
  hsa_signal_destroy(s2);
}
END_TEST

/* hsa_shut_down with a handler still registered stops the thread and returns. */
START_TEST(shutdown_with_handler_registered) {
  hsa_signal_t s = make(0);
  struct calls c;
  init_calls(&c, s, true);
  ck_assert_int_eq(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 1, record, &c),
                   HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
  /* and a new session starts a new thread */
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
  s = make(0);
  init_calls(&c, s, false);
  ck_assert_int_eq(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 1, record, &c),
                   HSA_STATUS_SUCCESS);
  hsa_signal_store_relaxed(s, 1);
  ck_assert(sem_wait_s(&c.sem, 10));
  ck_assert_int_eq(c.seen[0], 1);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("signal_wait");
  TCase *tc = tcase_create("interrupts");
  tcase_set_timeout(tc, 60);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, conditions_interrupt_signal);
  tcase_add_test(tc, timeouts_interrupt_signal);
  tcase_add_test(tc, timeouts_gpu_only_signal);
  tcase_add_test(tc, blocked_waiter_woken_by_store);
  tcase_add_test(tc, stores_without_fence_still_wake_blocked_waiters);
  tcase_add_test(tc, two_blocked_waiters_both_woken);
  tcase_add_test(tc, destroy_wakes_waiter);
  tcase_add_test(tc, wait_any_interrupt);
  tcase_add_test(tc, async_handler_called_with_value);
  tcase_add_test(tc, async_handler_rearms);
  tcase_add_test(tc, async_handler_many_signals);
  tcase_add_test(tc, async_handler_rejects_bad_input);
  tcase_add_test(tc, destroy_races_with_users_and_handler);
  tcase_add_test(tc, shutdown_with_handler_registered);
  suite_add_tcase(s, tc);
  TCase *po = tcase_create("polled");
  tcase_set_timeout(po, 60);
  tcase_add_checked_fixture(po, setup_polled, teardown);
  tcase_add_test(po, conditions_polled);
  tcase_add_test(po, timeouts_polled);
  tcase_add_test(po, polled_waiter_woken_by_store);
  tcase_add_test(po, wait_any_polled);
  tcase_add_test(po, async_handler_polled);
  suite_add_tcase(s, po);
  return s;
}
