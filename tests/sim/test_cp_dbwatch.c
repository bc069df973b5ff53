/* test_cp_dbwatch.c — the doorbell watch's SIGSEGV handler: a store to a protected doorbell
 * page lands (the handler restores write access), while a fault anywhere else still reaches
 * the handler the program installed before the simulator's; unmapping a doorbell mapping
 * stops the watch for that range. */
#include "kfd_fixture.h"
#include "cp_fixture.h"

#include <setjmp.h>
#include <signal.h>

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

START_TEST(foreign_faults_reach_the_previous_handler)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = their_handler;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  ck_assert_int_eq(sigaction(SIGSEGV, &sa, NULL), 0);
  fx_open();
  /* no queue: no engine thread that could protect the page behind the test's back */
  volatile uint64_t *db = cpx_doorbells(SIM_MMAP_TYPE_DOORBELL | SIM_MMAP_GPU_ID(GPU0));

  /* a protected doorbell page takes the store */
  ck_assert_uint_ge(sim_dbwatch_arm(sim_kfd_current()->pdds[0].doorbells_off), 1);
  uint32_t gen = sim_dbwatch_gen();
  db[5] = 42;
  ck_assert_uint_eq(db[5], 42);
  ck_assert_uint_ne(sim_dbwatch_gen(), gen);   /* and the sleepers were woken */
  ck_assert_int_eq(theirs, 0);

  /* any other fault is the program's */
  char *none = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(none, MAP_FAILED);
  if (sigsetjmp(jump, 1) == 0)
    *(volatile char *)none = 1;
  ck_assert_int_eq(theirs, 1);

  /* after munmap the range is no longer a doorbell: a read-only page there is foreign */
  ck_assert_int_eq(sim_kfd_munmap((void *)db, SIM_DOORBELL_SLICE), 1);
  munmap((void *)db, SIM_DOORBELL_SLICE);
  char *again = mmap((void *)db, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  ck_assert_ptr_eq(again, (void *)db);
  if (sigsetjmp(jump, 1) == 0)
    *(volatile char *)again = 1;
  ck_assert_int_eq(theirs, 2);
}
END_TEST

/* A program that installs its own SIGSEGV handler after the simulator's would receive the
 * doorbell faults: the watch then protects nothing (the engines poll instead). */
START_TEST(no_protection_once_the_handler_is_replaced)
{
  fx_open();
  /* no queue: no engine thread that could protect the page behind the test's back */
  volatile uint64_t *db = cpx_doorbells(SIM_MMAP_TYPE_DOORBELL | SIM_MMAP_GPU_ID(GPU0));
  uint64_t page = sim_kfd_current()->pdds[0].doorbells_off;
  ck_assert_uint_ge(sim_dbwatch_arm(page), 1);
  db[3] = 7;   /* lands through our handler */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = their_handler;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  ck_assert_int_eq(sigaction(SIGSEGV, &sa, NULL), 0);
  ck_assert_uint_eq(sim_dbwatch_arm(page), 0);
  db[3] = 8;   /* the page was left writable: no fault reaches their handler */
  ck_assert_uint_eq(db[3], 8);
  ck_assert_int_eq(theirs, 0);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("cp_dbwatch");
  TCase *t = tcase_create("dbwatch");
  tcase_add_test(t, foreign_faults_reach_the_previous_handler);
  tcase_add_test(t, no_protection_once_the_handler_is_replaced);
  suite_add_tcase(s, t);
  return s;
}
