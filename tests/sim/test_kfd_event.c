/* SPDX-License-Identifier: MIT */
/* test_kfd_event.c — KFD events: creation and slots, the event page (driver-allocated and
 * user-provided), set/reset/wait with the kernel's wait results and errnos, blocking waits
 * woken from another thread (and only by their own events), and GPU interrupts through
 * signal slots. */
#include "kfd_fixture.h"

#include <kfd_abi/kfd_ioctl_supp.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int create(uint32_t type, int auto_reset, struct kfd_ioctl_create_event_args *a)
{
  memset(a, 0, sizeof *a);
  a->event_type = type;
  a->auto_reset = (uint32_t)auto_reset;
  return kio(AMDKFD_IOC_CREATE_EVENT, a);
}

static int wait_ev(uint32_t *ids, uint32_t n, int all, uint32_t timeout, uint32_t *result)
{
  struct kfd_event_data d[8];
  memset(d, 0, sizeof d);
  for (uint32_t i = 0; i < n; i++)
    d[i].event_id = ids[i];
  struct kfd_ioctl_wait_events_args w = { .events_ptr = (uintptr_t)d, .num_events = n,
                                          .wait_for_all = (uint32_t)all, .timeout = timeout };
  int r = kio(AMDKFD_IOC_WAIT_EVENTS, &w);
  *result = w.wait_result;
  return r;
}

static int set_ev(uint32_t id)
{
  struct kfd_ioctl_set_event_args s = { .event_id = id };
  return kio(AMDKFD_IOC_SET_EVENT, &s);
}

START_TEST(create_signal_and_other_events)
{
  fx_open();
  struct kfd_ioctl_create_event_args a, b, m;
  ck_assert_int_eq(create(KFD_IOC_EVENT_SIGNAL, 1, &a), 0);
  ck_assert_uint_eq(a.event_id, 0);
  ck_assert_uint_eq(a.event_slot_index, 0);
  ck_assert_uint_eq(a.event_trigger_data, 0);
  ck_assert_uint_eq(a.event_page_offset, 2ull << 62);   /* KFD_MMAP_TYPE_EVENTS */
  ck_assert_int_eq(create(KFD_IOC_EVENT_SIGNAL, 0, &b), 0);
  ck_assert_uint_eq(b.event_id, 1);
  ck_assert_int_eq(create(KFD_IOC_EVENT_MEMORY, 0, &m), 0);
  ck_assert_uint_eq(m.event_id, 0x40000000);   /* non-signal ids live in the upper half */
  ck_assert_uint_eq(m.event_page_offset, 0);
  /* the page, mapped through /dev/kfd: slots start unsignaled */
  int err = 0;
  uint64_t *page = sim_kfd_mmap(NULL, 4096 * 8, PROT_READ | PROT_WRITE, MAP_SHARED,
                                (off_t)a.event_page_offset, &err);
  ck_assert_ptr_ne(page, MAP_FAILED);
  ck_assert_uint_eq(page[0], ~0ull);
  ck_assert_uint_eq(page[1], ~0ull);
  ck_assert_ptr_eq(sim_kfd_mmap(NULL, 4096 * 16, PROT_READ, MAP_SHARED, (off_t)a.event_page_offset,
                                &err), MAP_FAILED);
  ck_assert_int_eq(err, EINVAL);   /* larger than the page */
}
END_TEST

START_TEST(signal_limit_is_enospc)
{
  fx_open();
  struct kfd_ioctl_create_event_args a;
  /* without an mmap of the page, the driver hands out the 256 slots old runtimes map */
  for (int i = 0; i < 256; i++)
    ck_assert_int_eq(create(KFD_IOC_EVENT_SIGNAL, 0, &a), 0);
  ck_assert_int_eq(create(KFD_IOC_EVENT_SIGNAL, 0, &a), -ENOSPC);
  struct kfd_ioctl_destroy_event_args d = { .event_id = 17 };
  ck_assert_int_eq(kio(AMDKFD_IOC_DESTROY_EVENT, &d), 0);
  ck_assert_int_eq(create(KFD_IOC_EVENT_SIGNAL, 0, &a), 0);
  ck_assert_uint_eq(a.event_id, 17);
  ck_assert_int_eq(create(KFD_IOC_EVENT_MEMORY, 0, &a), 0);   /* other kinds have no slots */
}
END_TEST

START_TEST(user_event_page)
{
  fx_open();
  int e;
  uint64_t vram = fx_alloc(GPU0, 0x100000, 32768, VRAM_RW, &e);
  struct kfd_ioctl_create_event_args a = { .event_type = KFD_IOC_EVENT_SIGNAL, .event_page_offset = vram };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &a), -EINVAL);   /* must be GTT */
  a.event_page_offset = 0x4242ull << 32;
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &a), -EINVAL);   /* unknown gpu */
  a.event_page_offset = (uint64_t)GPU0 << 32 | 99;
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &a), -EINVAL);   /* unknown buffer */
  struct kfd_ioctl_alloc_memory_of_gpu_args g = { .va_addr = 0x200000, .size = 32768, .gpu_id = GPU0,
                                                  .flags = GTT_RW };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &g), 0);
  a = (struct kfd_ioctl_create_event_args){ .event_type = KFD_IOC_EVENT_SIGNAL, .event_page_offset = g.handle };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &a), 0);
  ck_assert_uint_eq(a.event_slot_index, 0);
  a.event_page_offset = g.handle;   /* a second page */
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &a), -EINVAL);
  struct kfd_ioctl_free_memory_of_gpu_args f = { g.handle };
  ck_assert_int_eq(kio(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &f), -EPERM);   /* the event page stays */
  /* slots of the user page are the buffer's bytes: the GPU writes one and interrupts */
  int err;
  uint64_t *cpu = sim_drm_mmap(sim_gpu(0), NULL, 32768, PROT_READ | PROT_WRITE, MAP_SHARED,
                               (off_t)g.mmap_offset, &err);
  ck_assert_ptr_ne(cpu, MAP_FAILED);
  ck_assert_uint_eq(cpu[0], ~0ull);
  cpu[0] = 1;
  sim_kfd_signal_interrupt(0);
  ck_assert_uint_eq(cpu[0], ~0ull);   /* acknowledged */
  uint32_t id = 0, res;
  ck_assert_int_eq(wait_ev(&id, 1, 0, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_COMPLETE);
}
END_TEST

START_TEST(set_reset_wait_results)
{
  fx_open();
  struct kfd_ioctl_create_event_args a, b, m;
  create(KFD_IOC_EVENT_SIGNAL, 1, &a);   /* auto reset */
  create(KFD_IOC_EVENT_SIGNAL, 0, &b);   /* manual reset */
  create(KFD_IOC_EVENT_MEMORY, 0, &m);
  uint32_t res, ids[2] = { a.event_id, b.event_id };
  ck_assert_int_eq(wait_ev(ids, 1, 0, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_TIMEOUT);   /* immediate: not signaled */
  ck_assert_int_eq(wait_ev(ids, 1, 0, 20, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_TIMEOUT);   /* 20 ms */
  ck_assert_int_eq(set_ev(a.event_id), 0);
  ck_assert_int_eq(wait_ev(ids, 1, 0, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_int_eq(wait_ev(ids, 1, 0, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_TIMEOUT);   /* auto reset consumed it */
  ck_assert_int_eq(set_ev(b.event_id), 0);
  ck_assert_int_eq(wait_ev(&ids[1], 1, 0, 0, &res), 0);
  ck_assert_int_eq(wait_ev(&ids[1], 1, 0, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_COMPLETE);   /* manual reset stays */
  ck_assert_int_eq(wait_ev(ids, 2, 1, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_TIMEOUT);    /* wait all: a is not set */
  ck_assert_int_eq(wait_ev(ids, 2, 0, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_COMPLETE);   /* wait any */
  struct kfd_ioctl_reset_event_args r = { .event_id = b.event_id };
  ck_assert_int_eq(kio(AMDKFD_IOC_RESET_EVENT, &r), 0);
  ck_assert_int_eq(wait_ev(&ids[1], 1, 0, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_TIMEOUT);
  /* invalid ids and kinds */
  ck_assert_int_eq(set_ev(12345), -EINVAL);
  ck_assert_int_eq(set_ev(m.event_id), -EINVAL);   /* only signal events are CPU-settable */
  r.event_id = m.event_id;
  ck_assert_int_eq(kio(AMDKFD_IOC_RESET_EVENT, &r), -EINVAL);
  uint32_t bad = 999;
  ck_assert_int_eq(wait_ev(&bad, 1, 0, 0, &res), -EINVAL);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_FAIL);
  struct kfd_ioctl_wait_events_args w = { .events_ptr = 64, .num_events = 1 };
  ck_assert_int_eq(kio(AMDKFD_IOC_WAIT_EVENTS, &w), -EFAULT);
  ck_assert_uint_eq(w.wait_result, KFD_IOC_WAIT_RESULT_FAIL);
  struct kfd_ioctl_destroy_event_args d = { .event_id = 12345 };
  ck_assert_int_eq(kio(AMDKFD_IOC_DESTROY_EVENT, &d), -EINVAL);
}
END_TEST

static uint32_t thread_event;
static void *setter(void *arg)
{
  struct timespec ts = { 0, 30 * 1000 * 1000 };
  nanosleep(&ts, NULL);
  if (arg)
    set_ev(thread_event);
  else {
    struct kfd_ioctl_destroy_event_args d = { .event_id = thread_event };
    kio(AMDKFD_IOC_DESTROY_EVENT, &d);
  }
  return NULL;
}

START_TEST(blocking_wait_is_woken)
{
  fx_open();
  struct kfd_ioctl_create_event_args a;
  create(KFD_IOC_EVENT_SIGNAL, 1, &a);
  thread_event = a.event_id;
  pthread_t t;
  pthread_create(&t, NULL, setter, (void *)1);
  uint32_t res;
  ck_assert_int_eq(wait_ev(&a.event_id, 1, 0, 0xffffffffu, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_COMPLETE);
  pthread_join(t, NULL);
  /* the waiter consumed the auto-reset event */
  ck_assert_int_eq(wait_ev(&a.event_id, 1, 0, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_TIMEOUT);
  /* an event destroyed under a waiter fails the wait with EIO */
  pthread_create(&t, NULL, setter, NULL);
  ck_assert_int_eq(wait_ev(&a.event_id, 1, 0, 5000, &res), -EIO);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_FAIL);
  pthread_join(t, NULL);
}
END_TEST

/* Setting an event wakes that event's waiters, nobody else (the kernel's per-event wait
 * queues): a thread blocked on one event sleeps through 200 sets of another. Counted in the
 * thread's voluntary context switches (each wake-up is one), not in time. */
struct blocked {
  uint32_t id, res;
  int rc;
  _Atomic pid_t tid;
};

static void *wait_thread(void *arg)
{
  struct blocked *b = arg;
  b->tid = (pid_t)syscall(SYS_gettid);
  b->rc = wait_ev(&b->id, 1, 0, 0xffffffffu, &b->res);
  return NULL;
}

static unsigned long switches(pid_t tid)
{
  char path[64], line[128];
  snprintf(path, sizeof path, "/proc/self/task/%d/status", (int)tid);
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  unsigned long v = 0;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "voluntary_ctxt_switches: %lu", &v) == 1)
      break;
  fclose(f);
  return v;
}

static bool in_futex(pid_t tid)
{
  char path[64], buf[64] = "";
  snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)tid);
  FILE *f = fopen(path, "r");
  if (!f)
    return false;
  if (!fgets(buf, sizeof buf, f))
    buf[0] = 0;
  fclose(f);
  return strtol(buf, NULL, 10) == SYS_futex;
}

START_TEST(set_wakes_only_that_events_waiters)
{
  fx_open();
  struct kfd_ioctl_create_event_args a, b;
  ck_assert_int_eq(create(KFD_IOC_EVENT_SIGNAL, 1, &a), 0);
  ck_assert_int_eq(create(KFD_IOC_EVENT_SIGNAL, 1, &b), 0);
  struct blocked w = { .id = a.event_id };
  pthread_t t;
  pthread_create(&t, NULL, wait_thread, &w);
  for (int i = 0; i < 5000 && !(w.tid && in_futex(w.tid)); i++)
    usleep(1000);
  ck_assert_msg(w.tid && in_futex(w.tid), "the waiter never blocked");
  unsigned long before = switches(w.tid);
  for (int i = 0; i < 200; i++) {
    ck_assert_int_eq(set_ev(b.event_id), 0);
    uint32_t res;   /* consume it, so that each set is a set */
    ck_assert_int_eq(wait_ev(&b.event_id, 1, 0, 0, &res), 0);
    ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_COMPLETE);
  }
  unsigned long woken = switches(w.tid) - before;
  ck_assert_msg(woken <= 5, "the waiter on another event woke %lu times", woken);
  ck_assert_int_eq(set_ev(a.event_id), 0);
  pthread_join(t, NULL);
  ck_assert_int_eq(w.rc, 0);
  ck_assert_uint_eq(w.res, KFD_IOC_WAIT_RESULT_COMPLETE);
}
END_TEST

START_TEST(gpu_interrupt_through_slot)
{
  fx_open();
  struct kfd_ioctl_create_event_args a, b;
  create(KFD_IOC_EVENT_SIGNAL, 0, &a);
  create(KFD_IOC_EVENT_SIGNAL, 0, &b);
  int err;
  uint64_t *page = sim_kfd_mmap(NULL, 32768, PROT_READ | PROT_WRITE, MAP_SHARED,
                                (off_t)a.event_page_offset, &err);
  ck_assert_ptr_ne(page, MAP_FAILED);
  page[b.event_slot_index] = 0;   /* what the CP writes for the signal's mailbox */
  sim_kfd_signal_interrupt(0x7fffff);   /* an untrustworthy id: the driver scans */
  uint32_t res;
  ck_assert_int_eq(wait_ev(&b.event_id, 1, 0, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_int_eq(wait_ev(&a.event_id, 1, 0, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_TIMEOUT);
  ck_assert_uint_eq(page[b.event_slot_index], ~0ull);
}
END_TEST

/* One signal event waited on with the age the caller last saw (KFD 1.14); *age updated. */
static int wait_age(uint32_t id, uint64_t *age, uint32_t timeout, uint32_t *result)
{
  struct kfd_event_data d;
  memset(&d, 0, sizeof d);
  d.event_id = id;
  kfd_supp_set_event_age(&d, *age);
  struct kfd_ioctl_wait_events_args w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
                                          .timeout = timeout };
  int r = kio(AMDKFD_IOC_WAIT_EVENTS, &w);
  *result = w.wait_result;
  *age = kfd_supp_event_age(&d);
  return r;
}

START_TEST(event_age_from_1_14)
{
  fx_cfg.kfd_minor = 14;
  fx_open();
  struct kfd_ioctl_create_event_args a;
  create(KFD_IOC_EVENT_SIGNAL, 1, &a);
  uint32_t res, id = a.event_id;
  uint64_t age = 1;   /* a new event's age */
  ck_assert_int_eq(wait_age(id, &age, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_TIMEOUT);
  ck_assert_uint_eq(age, 1);   /* not written back when not activated */
  ck_assert_int_eq(set_ev(id), 0);
  /* a plain wait consumes the auto-reset event... */
  ck_assert_int_eq(wait_ev(&id, 1, 0, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_COMPLETE);
  /* ...but the set is not lost for a waiter that saw age 1: it returns at once, age 2 */
  ck_assert_int_eq(wait_age(id, &age, 1000, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_uint_eq(age, 2);
  ck_assert_int_eq(wait_age(id, &age, 0, &res), 0);   /* nothing since age 2 */
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_TIMEOUT);
  uint64_t none = 0;   /* age 0: the old wait */
  ck_assert_int_eq(wait_age(id, &none, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_TIMEOUT);
  /* below 1.14 the field is ignored: the consumed set is gone */
  fx_cfg.kfd_minor = 13;
  ck_assert_int_eq(set_ev(id), 0);
  ck_assert_int_eq(wait_ev(&id, 1, 0, 0, &res), 0);
  uint64_t old = 1;
  ck_assert_int_eq(wait_age(id, &old, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_TIMEOUT);
  fx_cfg.kfd_minor = 0;
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("kfd_event");
  TCase *t = tcase_create("event");
  tcase_add_test(t, create_signal_and_other_events);
  tcase_add_test(t, signal_limit_is_enospc);
  tcase_add_test(t, user_event_page);
  tcase_add_test(t, set_reset_wait_results);
  tcase_add_test(t, blocking_wait_is_woken);
  tcase_add_test(t, set_wakes_only_that_events_waiters);
  tcase_add_test(t, gpu_interrupt_through_slot);
  tcase_add_test(t, event_age_from_1_14);
  suite_add_tcase(s, t);
  return s;
}
