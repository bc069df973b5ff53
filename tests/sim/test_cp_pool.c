/* SPDX-License-Identifier: MIT */
/* test_cp_pool.c — the host-thread pool that runs work-groups (sim/cp/pool.c): several
 * callers (queues) at once, each item run exactly once, on a worker number below the
 * caller's limit (its scratch slots), every item's writes visible when the call returns,
 * the helpers really taking items, a failing item stopping its job only, and threads=1
 * running everything on the caller. Each test runs in its own process (Check forks), so
 * each sets HSA_SIM_CONFIG before the pool reads it. */
#include <check.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cp/pool.h"

#define ITEMS 3000u
#define CALLERS 3
#define ROUNDS 8

struct job_ctx {
  unsigned max_workers;
  uint32_t hits[ITEMS];          /* plain: each item is run once, by one thread */
  uint64_t data[ITEMS];
  atomic_uint bad_worker;
  atomic_ulong on_helpers;
  pthread_t caller;
  atomic_uint off_caller_worker0;  /* worker 0 must be the calling thread */
  uint64_t fail_at;                /* item that returns false (ITEMS: none) */
};

static bool item(void *arg, unsigned worker, uint64_t i)
{
  struct job_ctx *c = arg;
  if (worker >= c->max_workers)
    atomic_fetch_add(&c->bad_worker, 1);
  if (worker == 0 && !pthread_equal(pthread_self(), c->caller))
    atomic_fetch_add(&c->off_caller_worker0, 1);
  if (worker)
    atomic_fetch_add_explicit(&c->on_helpers, 1, memory_order_relaxed);
  /* a little work, so the helpers have something to join */
  uint64_t x = i + 1;
  for (unsigned k = 0; k < 200; k++)
    x = x * 6364136223846793005ull + 1442695040888963407ull;
  /* a helper's item at the end of the job finishes late: the call must still wait for it */
  if (worker && i >= ITEMS - 8)
    usleep(300);
  c->hits[i]++;
  c->data[i] = x | 1;
  return i != c->fail_at;
}

static void *caller_main(void *arg)
{
  struct job_ctx *c = arg;
  c->caller = pthread_self();
  for (unsigned r = 0; r < ROUNDS; r++) {
    memset(c->hits, 0, sizeof c->hits);
    memset(c->data, 0, sizeof c->data);
    ck_assert(cp_pool_run(ITEMS, c->max_workers, item, c));
    for (unsigned i = 0; i < ITEMS; i++) {
      ck_assert_uint_eq(c->hits[i], 1);
      ck_assert_uint_ne(c->data[i], 0);   /* written by whichever thread ran it */
    }
  }
  return NULL;
}

static struct job_ctx *new_ctx(unsigned max_workers)
{
  struct job_ctx *c = calloc(1, sizeof *c);
  ck_assert_ptr_nonnull(c);
  c->max_workers = max_workers;
  c->fail_at = ITEMS;
  atomic_init(&c->bad_worker, 0);
  atomic_init(&c->on_helpers, 0);
  atomic_init(&c->off_caller_worker0, 0);
  return c;
}

START_TEST(pool_callers_at_once)
{
  setenv("HSA_SIM_CONFIG", "threads=4", 1);
  ck_assert_uint_eq(cp_pool_threads(), 4);
  /* three queues at once; one may use only two workers (its scratch has two slots) */
  static const unsigned limit[CALLERS] = { 4, 2, 4 };
  struct job_ctx *c[CALLERS];
  pthread_t t[CALLERS];
  for (int k = 0; k < CALLERS; k++) {
    c[k] = new_ctx(limit[k]);
    ck_assert_int_eq(pthread_create(&t[k], NULL, caller_main, c[k]), 0);
  }
  unsigned long helped = 0;
  for (int k = 0; k < CALLERS; k++) {
    pthread_join(t[k], NULL);
    ck_assert_uint_eq(atomic_load(&c[k]->bad_worker), 0);
    ck_assert_uint_eq(atomic_load(&c[k]->off_caller_worker0), 0);
    helped += atomic_load(&c[k]->on_helpers);
    free(c[k]);
  }
  ck_assert_uint_gt(helped, 0);   /* the helpers did take items */
}
END_TEST

/* Many short items on 2 threads, as a dispatch of thousands of small work-groups: claimed
 * several at a time (pool.c, claim_size), every one still runs exactly once, the helper
 * takes its share, and a count that no claim size divides ends right (the last claim cut). */
#define SHORT_ITEMS 100003u
struct short_ctx {
  uint8_t hits[SHORT_ITEMS];
  atomic_ulong on_helper;
};

static bool short_item(void *arg, unsigned worker, uint64_t i)
{
  struct short_ctx *c = arg;
  if (i >= SHORT_ITEMS)
    return false;   /* past the end: the job fails */
  if (worker)
    atomic_fetch_add_explicit(&c->on_helper, 1, memory_order_relaxed);
  c->hits[i]++;
  return true;
}

START_TEST(pool_short_items_two_threads)
{
  setenv("HSA_SIM_CONFIG", "threads=2", 1);
  struct short_ctx *c = calloc(1, sizeof *c);
  ck_assert_ptr_nonnull(c);
  unsigned long helped = 0;
  for (unsigned r = 0; r < 20; r++) {
    memset(c->hits, 0, sizeof c->hits);
    atomic_init(&c->on_helper, 0);
    ck_assert(cp_pool_run(SHORT_ITEMS, 2, short_item, c));
    unsigned bad = 0, first = 0;   /* one assertion per round: Check writes to a pipe at each */
    for (unsigned i = 0; i < SHORT_ITEMS; i++)
      if (c->hits[i] != 1 && !bad++)
        first = i;
    ck_assert_msg(!bad, "round %u: %u items not run exactly once, the first %u (%u times)", r, bad,
                  first, c->hits[first]);
    helped += atomic_load(&c->on_helper);
  }
  ck_assert_uint_gt(helped, 0);   /* the helper did claim items */
  free(c);
}
END_TEST

START_TEST(pool_failing_item)
{
  setenv("HSA_SIM_CONFIG", "threads=3", 1);
  struct job_ctx *c = new_ctx(3);
  c->caller = pthread_self();
  c->fail_at = 100;
  ck_assert(!cp_pool_run(ITEMS, 3, item, c));
  ck_assert_uint_eq(c->hits[100], 1);
  for (unsigned i = 0; i < ITEMS; i++)
    ck_assert_uint_le(c->hits[i], 1);
  /* the pool goes on with the next job */
  c->fail_at = ITEMS;
  memset(c->hits, 0, sizeof c->hits);
  ck_assert(cp_pool_run(ITEMS, 3, item, c));
  for (unsigned i = 0; i < ITEMS; i++)
    ck_assert_uint_eq(c->hits[i], 1);
  free(c);
}
END_TEST

START_TEST(pool_one_thread)
{
  setenv("HSA_SIM_CONFIG", "threads=1", 1);
  ck_assert_uint_eq(cp_pool_threads(), 1);
  ck_assert_uint_eq(cp_pool_workers(), 1);
  struct job_ctx *c = new_ctx(1);
  c->caller = pthread_self();
  /* even a caller allowing more workers runs alone: every item on worker 0, this thread */
  c->max_workers = 1;
  ck_assert(cp_pool_run(ITEMS, 4, item, c));
  ck_assert_uint_eq(atomic_load(&c->on_helpers), 0);
  ck_assert_uint_eq(atomic_load(&c->off_caller_worker0), 0);
  ck_assert_uint_eq(atomic_load(&c->bad_worker), 0);
  for (unsigned i = 0; i < ITEMS; i++)
    ck_assert_uint_eq(c->hits[i], 1);
  free(c);
}
END_TEST

START_TEST(pool_default_size)
{
  unsetenv("HSA_SIM_CONFIG");
  cpu_set_t set;
  ck_assert_int_eq(sched_getaffinity(0, sizeof set, &set), 0);
  unsigned want = (unsigned)CPU_COUNT(&set);
  if (want > CP_POOL_MAX_THREADS)
    want = CP_POOL_MAX_THREADS;
  ck_assert_uint_eq(cp_pool_threads(), want);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("cp_pool");
  TCase *tc = tcase_create("pool");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, pool_callers_at_once);
  tcase_add_test(tc, pool_short_items_two_threads);
  tcase_add_test(tc, pool_failing_item);
  tcase_add_test(tc, pool_one_thread);
  tcase_add_test(tc, pool_default_size);
  suite_add_tcase(s, tc);
  return s;
}
