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
  struct kfd_ioctl_create_queue_args c = { .ring_base_address = 0x1000000, .ring_size = 4096,
    .gpu_id = GPU0, .read_pointer_address = 0x2000000, .write_pointer_address = 0x2000008,
    .queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE_AQL, .queue_percentage = 0, .queue_priority = 7 };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &c), 0);
  volatile uint64_t *db = cpx_doorbells(c.doorbell_offset);   /* installs the watch's handler */

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

Suite *test_suite(void)
{
  Suite *s = suite_create("cp_dbwatch");
  TCase *t = tcase_create("dbwatch");
  tcase_add_test(t, foreign_faults_reach_the_previous_handler);
  suite_add_tcase(s, t);
  return s;
}
