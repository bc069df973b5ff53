/* dbwatch.c — noticing doorbell stores without burning CPU. A real doorbell is an MMIO write
 * the GPU sees at once; here it is a store to shared memory. An idle queue thread
 * write-protects the doorbell page in every CPU mapping the process has of it and sleeps on
 * a futex. The next store faults; our SIGSEGV handler recognises the page, makes it
 * writable again and wakes the sleepers; the store is then retried by the CPU and lands.
 * Faults on any other address go to the handler that was installed before ours.
 * Everything the handler touches is lock-free: a fixed table of mappings with atomic
 * fields, raw mprotect and futex system calls. */
#include "cp/cp.h"

#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_MAPS 64

struct db_map {
  _Atomic uintptr_t start;   /* 0 = free slot */
  _Atomic uintptr_t end;
  _Atomic uint64_t store_off;
};

static struct db_map maps[MAX_MAPS];
static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;   /* writers only */
static _Atomic uint32_t gen;
static struct sigaction old_segv;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;

static long sys_mprotect(uintptr_t a, size_t n, int prot)
{
  return syscall(SYS_mprotect, (void *)a, n, prot);
}

static void wake_all(void)
{
  atomic_fetch_add_explicit(&gen, 1, memory_order_seq_cst);
  syscall(SYS_futex, &gen, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static bool is_doorbell(uintptr_t a)
{
  for (unsigned i = 0; i < MAX_MAPS; i++) {
    uintptr_t s = atomic_load_explicit(&maps[i].start, memory_order_acquire);
    if (s && a >= s && a < atomic_load_explicit(&maps[i].end, memory_order_acquire))
      return true;
  }
  return false;
}

static void on_segv(int sig, siginfo_t *si, void *uc)
{
  uintptr_t a = (uintptr_t)si->si_addr;
  if (si->si_code == SEGV_ACCERR && is_doorbell(a)) {
    /* the store retries when we return; restoring write access is all it needs */
    sys_mprotect(a & ~(uintptr_t)(SIM_PAGE - 1), SIM_PAGE, PROT_READ | PROT_WRITE);
    wake_all();
    return;
  }
  if (old_segv.sa_flags & SA_SIGINFO) {
    if (old_segv.sa_sigaction) {
      old_segv.sa_sigaction(sig, si, uc);
      return;
    }
  } else if (old_segv.sa_handler != SIG_DFL && old_segv.sa_handler != SIG_IGN) {
    old_segv.sa_handler(sig);
    return;
  }
  /* default action: let the faulting access repeat and kill the process as it would have */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigaction(SIGSEGV, &dfl, NULL);
}

static void install_handler(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &old_segv);
}

static void forget_range(uintptr_t s, uintptr_t e)
{
  for (unsigned i = 0; i < MAX_MAPS; i++) {
    uintptr_t ms = atomic_load(&maps[i].start), me = atomic_load(&maps[i].end);
    if (ms && ms < e && s < me)
      atomic_store(&maps[i].start, 0);   /* a partly unmapped doorbell slice is no longer watched */
  }
}

void sim_dbwatch_mapped(void *addr, uint64_t len, uint64_t store_off)
{
  pthread_once(&handler_once, install_handler);
  uintptr_t s = (uintptr_t)addr, e = s + SIM_PAGE_ALIGN(len);
  pthread_mutex_lock(&maps_lock);
  forget_range(s, e);   /* MAP_FIXED replaced whatever was there */
  for (unsigned i = 0; i < MAX_MAPS; i++)
    if (!atomic_load(&maps[i].start)) {
      atomic_store(&maps[i].end, e);
      atomic_store(&maps[i].store_off, store_off);
      atomic_store(&maps[i].start, s);
      break;
    }
  pthread_mutex_unlock(&maps_lock);
}

void sim_dbwatch_unmapped(void *addr, uint64_t len)
{
  uintptr_t s = (uintptr_t)addr, e = s + SIM_PAGE_ALIGN(len);
  pthread_mutex_lock(&maps_lock);
  forget_range(s, e);
  pthread_mutex_unlock(&maps_lock);
}

unsigned sim_dbwatch_arm(uint64_t page_off)
{
  /* a program that replaced our handler would get the doorbell faults: then poll instead */
  struct sigaction cur;
  if (sigaction(SIGSEGV, NULL, &cur) != 0 || !(cur.sa_flags & SA_SIGINFO) ||
      cur.sa_sigaction != on_segv)
    return 0;
  unsigned n = 0;
  /* the lock keeps munmap from retiring a mapping while we protect it */
  pthread_mutex_lock(&maps_lock);
  for (unsigned i = 0; i < MAX_MAPS; i++) {
    uintptr_t s = atomic_load(&maps[i].start), e = atomic_load(&maps[i].end);
    uint64_t off = atomic_load(&maps[i].store_off);
    if (!s || page_off < off || page_off - off >= e - s)
      continue;
    if (sys_mprotect(s + (page_off - off), SIM_PAGE, PROT_READ) == 0)
      n++;
  }
  pthread_mutex_unlock(&maps_lock);
  return n;
}

uint32_t sim_dbwatch_gen(void)
{
  return atomic_load_explicit(&gen, memory_order_seq_cst);
}

void sim_dbwatch_wait(uint32_t g, uint64_t timeout_ns)
{
  struct timespec ts = { (time_t)(timeout_ns / 1000000000u), (long)(timeout_ns % 1000000000u) };
  syscall(SYS_futex, &gen, FUTEX_WAIT_PRIVATE, g, timeout_ns ? &ts : NULL, NULL, 0);
}

void sim_dbwatch_kick(void)
{
  wake_all();
}
