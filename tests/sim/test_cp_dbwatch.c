/* SPDX-License-Identifier: MIT */
/* test_cp_dbwatch.c — the doorbell watch (userfaultfd write protection): a store to a
 * protected doorbell page lands and wakes the sleepers, from a thread that blocks every
 * signal; the simulator takes no signal of the program's (its SIGSEGV handler sees only its
 * own faults); unmapping a doorbell mapping ends its watch; a forked child stores to the
 * pages it inherited without anyone to answer for it. */
#include "kfd_fixture.h"
#include "cp_fixture.h"

#include <setjmp.h>
#include <sys/wait.h>

#include "cp/cp.h"

static sigjmp_buf jump;
static volatile sig_atomic_t theirs;

static void their_handler(int sig, siginfo_t *si, void *uc)
{
  (void)sig;
  (void)si;
  (void)uc;
  theirs++;
  siglongjmp(jump, 1);
}

/* The doorbell slice of GPU0, mapped as a runtime maps it; no queue, so no engine thread
 * protects or unprotects the page behind the test's back. */
static volatile uint64_t *doorbells(uint64_t *page_off)
{
  fx_open();
  volatile uint64_t *db = cpx_doorbells(SIM_MMAP_TYPE_DOORBELL | SIM_MMAP_GPU_ID(GPU0));
  *page_off = sim_kfd_current()->pdds[0].doorbells_off;
  return db;
}

START_TEST(store_with_every_signal_blocked_lands_and_wakes)
{
  struct sigaction before, after;   /* SIG_DFL, or a sanitizer's handler */
  ck_assert_int_eq(sigaction(SIGSEGV, NULL, &before), 0);
  uint64_t page;
  volatile uint64_t *db = doorbells(&page);
  ck_assert_uint_ge(sim_dbwatch_arm(page), 1);
  ck_assert(cpx_uffd_wp(db));
  uint32_t gen = sim_dbwatch_gen();
  cpx_store_signals_blocked(&db[5], 42);
  ck_assert_uint_eq(db[5], 42);
  /* the sleepers are woken (just after the store was let through) */
  for (unsigned i = 0; i < 5000 && sim_dbwatch_gen() == gen; i++)
    cpx_sleep_ms(1);
  ck_assert_uint_ne(sim_dbwatch_gen(), gen);
  ck_assert(!cpx_uffd_wp(db));                 /* and the page is writable until re-armed */
  /* the program's signal dispositions were not touched */
  ck_assert_int_eq(sigaction(SIGSEGV, NULL, &after), 0);
  ck_assert(after.sa_flags == before.sa_flags && after.sa_handler == before.sa_handler);
}
END_TEST

START_TEST(the_programs_segv_handler_keeps_its_own_faults)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = their_handler;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  ck_assert_int_eq(sigaction(SIGSEGV, &sa, NULL), 0);
  uint64_t page;
  volatile uint64_t *db = doorbells(&page);
  /* their handler does not see doorbell stores, before or after it was installed */
  ck_assert_uint_ge(sim_dbwatch_arm(page), 1);
  db[3] = 7;
  ck_assert_uint_eq(db[3], 7);
  ck_assert_int_eq(theirs, 0);
  /* and gets every fault of its own */
  char *none = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(none, MAP_FAILED);
  if (sigsetjmp(jump, 1) == 0)
    *(volatile char *)none = 1;
  ck_assert_int_eq(theirs, 1);
}
END_TEST

START_TEST(unmapped_doorbells_are_no_longer_watched)
{
  uint64_t page;
  volatile uint64_t *db = doorbells(&page);
  ck_assert_uint_ge(sim_dbwatch_arm(page), 1);
  ck_assert_int_eq(sim_kfd_munmap((void *)db, SIM_DOORBELL_SLICE), 1);
  munmap((void *)db, SIM_DOORBELL_SLICE);
  ck_assert_uint_eq(sim_dbwatch_arm(page), 0);   /* nothing left to protect: poll */
  /* whatever the program maps there next is its own, writable memory */
  char *again = mmap((void *)db, 4096, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  ck_assert_ptr_eq(again, (void *)db);
  again[0] = 1;
  ck_assert(!cpx_uffd_wp(again));
}
END_TEST

/* A forked child keeps the doorbell mapping but neither the watcher nor the registration:
 * its store must land at once (an inherited protection would block it for ever). */
START_TEST(a_forked_child_stores_freely)
{
  uint64_t page;
  volatile uint64_t *db = doorbells(&page);
  ck_assert_uint_ge(sim_dbwatch_arm(page), 1);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    alarm(10);   /* a blocked store ends the child with SIGALRM */
    db[9] = 99;
    _exit(db[9] == 99 && !cpx_uffd_wp(db) ? 0 : 3);
  }
  int st = 0;
  ck_assert_int_eq(waitpid(pid, &st, 0), pid);
  ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status 0x%x", st);
  ck_assert(cpx_uffd_wp(db));   /* the parent's page is still protected */
  cpx_store_signals_blocked(&db[9], 5);
  ck_assert_uint_eq(db[9], 5);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("cp_dbwatch");
  TCase *t = tcase_create("dbwatch");
  tcase_add_test(t, store_with_every_signal_blocked_lands_and_wakes);
  tcase_add_test(t, the_programs_segv_handler_keeps_its_own_faults);
  tcase_add_test(t, unmapped_doorbells_are_no_longer_watched);
  tcase_add_test(t, a_forked_child_stores_freely);
  suite_add_tcase(s, t);
  return s;
}
