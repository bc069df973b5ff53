/* SPDX-License-Identifier: MIT */
/* test_signal_lone.c — the runtime's own long-lived waiters (the async handler thread, a copy
 * engine's worker) sleep while the process is idle, on a KFD without event age (1.11, the
 * simulator's default, Debian 12's kernel), where every other blocking wait wakes each 10 ms
 * (wait.c). Counted in wake-ups (the thread's voluntary context switches), not in time:
 * - an idle handler thread and an idle copy worker do not wake at all over 300 ms (before:
 *   every 10 ms, ~30 times);
 * - a thread that starts waiting on a signal the handler watches wakes the handler, which then
 *   slices (several wake-ups while it has company: the lost wake-up guard) and sleeps again
 *   once alone; both waiters see the store that ends their waits. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "hsa.h"
#include "hsa_ext_amd.h"
#include "unit/sim_reexec.h"

SIM_REEXEC("--gpus", "1", "--kfd-version", "1.11")

static void setup(void) { ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS); }
static void teardown(void) { ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS); }

enum { MAX_TASKS = 256 };

/* The thread ids of this process. */
static int tasks(pid_t *out) {
  DIR *d = opendir("/proc/self/task");
  ck_assert_ptr_nonnull(d);
  int n = 0;
  for (struct dirent *e; (e = readdir(d)) && n < MAX_TASKS;)
    if (e->d_name[0] != '.') out[n++] = (pid_t)atoi(e->d_name);
  closedir(d);
  return n;
}

/* The one thread in `after` that is not in `before` (the test fails otherwise). */
static pid_t new_thread(const pid_t *before, int nb, const pid_t *after, int na) {
  pid_t found = 0;
  int count = 0;
  for (int i = 0; i < na; i++) {
    bool old = false;
    for (int k = 0; k < nb && !old; k++) old = before[k] == after[i];
    if (!old) found = after[i], count++;
  }
  ck_assert_int_eq(count, 1);
  return found;
}

static long blocked_in(pid_t tid) {
  char path[64], buf[64] = "";
  snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)tid);
  FILE *f = fopen(path, "r");
  if (!f) return -2;
  if (!fgets(buf, sizeof buf, f)) buf[0] = 0;
  fclose(f);
  return strncmp(buf, "running", 7) == 0 ? -1 : strtol(buf, NULL, 10);
}

/* Waits until the thread sleeps in the event wait (an ioctl on a kernel, a futex in hsa-sim's
 * model) and stays there for 50 ms running: its spin phase is over. */
static void settle(pid_t tid) {
  int calm = 0;
  for (int i = 0; i < 5000 && calm < 50; i++) {
    long sc = blocked_in(tid);
    calm = sc == SYS_ioctl || sc == SYS_futex ? calm + 1 : 0;
    usleep(1000);
  }
  ck_assert_msg(calm >= 50, "thread %d never settled in the event wait", (int)tid);
}

static unsigned long wakeups(pid_t tid) {
  char path[64], line[128];
  snprintf(path, sizeof path, "/proc/self/task/%d/status", (int)tid);
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  unsigned long v = 0;
  bool got = false;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "voluntary_ctxt_switches: %lu", &v) == 1) got = true;
  fclose(f);
  ck_assert(got);
  return v;
}

/* Wake-ups of `tid` over `ms` milliseconds of the test doing nothing. */
static unsigned long wakeups_over(pid_t tid, int ms) {
  unsigned long a = wakeups(tid);
  usleep((useconds_t)ms * 1000u);
  return wakeups(tid) - a;
}

static hsa_signal_t make(hsa_signal_value_t v) {
  hsa_signal_t s;
  ck_assert_int_eq(hsa_signal_create(v, 0, NULL, &s), HSA_STATUS_SUCCESS);
  return s;
}

struct calls {
  sem_t sem;
  _Atomic int n;
  _Atomic hsa_signal_value_t seen;
};

static bool record(hsa_signal_value_t v, void *arg) {
  struct calls *c = arg;
  atomic_store(&c->seen, v);
  atomic_fetch_add(&c->n, 1);
  sem_post(&c->sem);
  return false;
}

static bool sem_wait_s(sem_t *s, int secs) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  t.tv_sec += secs;
  while (sem_timedwait(s, &t) != 0)
    if (errno != EINTR) return false;
  return true;
}

/* Registers record() on s (EQ value) and returns the handler thread (new with the first
 * registration of a session). */
static pid_t handler_on(hsa_signal_t s, hsa_signal_value_t value, struct calls *c) {
  pid_t before[MAX_TASKS], after[MAX_TASKS];
  int nb = tasks(before);
  sem_init(&c->sem, 0, 0);
  atomic_init(&c->n, 0);
  atomic_init(&c->seen, -1);
  ck_assert_int_eq(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, value, record, c),
                   HSA_STATUS_SUCCESS);
  int na = tasks(after);
  pid_t t = new_thread(before, nb, after, na);
  settle(t);
  return t;
}

START_TEST(idle_handler_thread_sleeps) {
  hsa_signal_t s = make(0);
  struct calls c;
  pid_t t = handler_on(s, 1, &c);
  unsigned long w = wakeups_over(t, 300);
  ck_assert_msg(w <= 2, "the idle handler thread woke %lu times in 300 ms", w);
  /* and it still serves its signal */
  hsa_signal_store_screlease(s, 1);
  ck_assert(sem_wait_s(&c.sem, 10));
  ck_assert_int_eq(atomic_load(&c.seen), 1);
  hsa_signal_destroy(s);
}
END_TEST

struct waiter {
  hsa_signal_t s;
  hsa_signal_value_t cmp, got;
  _Atomic pid_t tid;
};

static void *wait_thread(void *arg) {
  struct waiter *w = arg;
  w->tid = (pid_t)syscall(SYS_gettid);
  w->got = hsa_signal_wait_scacquire(w->s, HSA_SIGNAL_CONDITION_EQ, w->cmp, UINT64_MAX,
                                     HSA_WAIT_STATE_BLOCKED);
  return NULL;
}

START_TEST(handler_slices_while_another_thread_waits) {
  hsa_signal_t s = make(0);
  struct calls c;
  pid_t h = handler_on(s, 2, &c);
  ck_assert_uint_le(wakeups_over(h, 100), 2);
  /* company: the newcomer wakes the handler, which then keeps to short waits */
  struct waiter w = {s, 7, -1, 0};
  pthread_t t;
  pthread_create(&t, NULL, wait_thread, &w);
  while (!w.tid) usleep(100);
  settle(w.tid);
  unsigned long busy = wakeups_over(h, 300);
  ck_assert_msg(busy >= 3, "the handler woke only %lu times in 300 ms with company", busy);
  /* the other waiter's value: it returns, the handler's condition does not hold */
  hsa_signal_store_screlease(s, 7);
  pthread_join(t, NULL);
  ck_assert_int_eq(w.got, 7);
  ck_assert_int_eq(atomic_load(&c.n), 0);
  settle(h);
  unsigned long alone = wakeups_over(h, 300);
  ck_assert_msg(alone <= 2, "the handler, alone again, woke %lu times in 300 ms", alone);
  hsa_signal_store_screlease(s, 2);
  ck_assert(sem_wait_s(&c.sem, 10));
  ck_assert_int_eq(atomic_load(&c.seen), 2);
  hsa_signal_destroy(s);
}
END_TEST

/* Many rounds of a handler and an application thread waiting on the same signal, the store
 * coming at a different moment each time: both always see it (no lost wake-up, no hang). */
START_TEST(handler_and_waiter_both_see_every_store) {
  for (int round = 0; round < 40; round++) {
    hsa_signal_t s = make(0);
    struct calls c;
    sem_init(&c.sem, 0, 0);
    atomic_init(&c.n, 0);
    atomic_init(&c.seen, -1);
    ck_assert_int_eq(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 3, record, &c),
                     HSA_STATUS_SUCCESS);
    struct waiter w = {s, 3, -1, 0};
    pthread_t t;
    pthread_create(&t, NULL, wait_thread, &w);
    usleep((useconds_t)(round % 8) * 150u);   /* before, in, and after the waiters' spins */
    hsa_signal_store_screlease(s, 3);
    pthread_join(t, NULL);
    ck_assert_int_eq(w.got, 3);
    ck_assert(sem_wait_s(&c.sem, 10));
    ck_assert_int_eq(atomic_load(&c.seen), 3);
    hsa_signal_destroy(s);
  }
}
END_TEST

/* A copy engine's worker (the CPU engine: a host-to-host copy waiting on a dependency) goes to
 * sleep for good once its queue is empty, and still takes the next job. */
static hsa_status_t find_cpu(hsa_agent_t a, void *d) {
  hsa_device_type_t ty;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &ty);
  if (ty == HSA_DEVICE_TYPE_CPU && !((hsa_agent_t *)d)->handle) *(hsa_agent_t *)d = a;
  return HSA_STATUS_SUCCESS;
}

/* A host copy of n bytes that starts when `dep` reaches 0; checks it moved the bytes. */
static void copy_after(hsa_agent_t cpu, hsa_signal_t dep, hsa_signal_t done, unsigned seed) {
  enum { N = 4096 };
  unsigned char *a = malloc(N), *b = calloc(1, N);
  ck_assert(a && b);
  for (int i = 0; i < N; i++) a[i] = (unsigned char)(i * 7 + seed);
  hsa_signal_store_screlease(done, 1);
  ck_assert_int_eq(hsa_amd_memory_async_copy(b, cpu, a, cpu, N, 1, &dep, done),
                   HSA_STATUS_SUCCESS);
  ck_assert_int_eq(b[N - 1], 0);   /* it waits for its dependency */
  hsa_signal_store_screlease(dep, 0);
  ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                             HSA_WAIT_STATE_BLOCKED), 0);
  ck_assert_int_eq(memcmp(a, b, N), 0);
  free(a);
  free(b);
}

START_TEST(idle_copy_worker_sleeps) {
  hsa_agent_t cpu = {0};
  ck_assert_int_eq(hsa_iterate_agents(find_cpu, &cpu), HSA_STATUS_SUCCESS);
  ck_assert_uint_ne(cpu.handle, 0);
  hsa_signal_t dep = make(1), done = make(1);
  pid_t before[MAX_TASKS], after[MAX_TASKS];
  int nb = tasks(before);
  copy_after(cpu, dep, done, 1);
  int na = tasks(after);
  pid_t worker = new_thread(before, nb, after, na);
  settle(worker);
  unsigned long w = wakeups_over(worker, 300);
  ck_assert_msg(w <= 2, "the idle copy worker woke %lu times in 300 ms", w);
  hsa_signal_store_screlease(dep, 1);
  copy_after(cpu, dep, done, 2);
  hsa_signal_destroy(dep);
  hsa_signal_destroy(done);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("signal_lone");
  TCase *tc = tcase_create("lone");
  tcase_set_timeout(tc, 60);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, idle_handler_thread_sleeps);
  tcase_add_test(tc, handler_slices_while_another_thread_waits);
  tcase_add_test(tc, handler_and_waiter_both_see_every_store);
  tcase_add_test(tc, idle_copy_worker_sleeps);
  suite_add_tcase(s, tc);
  return s;
}
