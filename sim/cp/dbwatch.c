/* SPDX-License-Identifier: MIT */
/* dbwatch.c — noticing doorbell stores without burning CPU, and without anything the program
 * can switch off. A real doorbell is an MMIO write the GPU sees at once; here it is a store to
 * shared memory. An idle queue thread write-protects the doorbell page in every CPU mapping
 * the process has of it (userfaultfd's write-protect mode) and sleeps on a futex. The next
 * store blocks in the kernel, which reports it on the userfaultfd to our watcher thread; the
 * watcher lifts the protection (the store completes) and wakes the sleepers. Nothing is
 * asked of the storing thread: it may block every signal (ROCm's OpenCL runtime blocks all but
 * SIGFPE in its workers; a SIGSEGV handler, used before, got those threads killed by the
 * kernel at their first doorbell store) and install whatever handlers it likes.
 * Without userfaultfd (no kernel support for shared memory, or a seccomp policy refusing it)
 * nothing is protected, sim_dbwatch_arm says 0 and the engines poll their queues with a
 * back-off; that is said once on stderr. The watcher takes no lock (a storing thread that
 * holds one cannot stall it): it only reads the fault, calls futex and one ioctl. */
#include "cp/cp.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_MAPS 64

/* the CPU mappings registered with the userfaultfd (those that can be protected) */
struct db_map {
  uintptr_t start;   /* 0 = free slot */
  uintptr_t end;
  uint64_t store_off;
};

enum { WATCH_UNTRIED, WATCH_UFFD, WATCH_POLL };

static struct db_map maps[MAX_MAPS];
/* Engines awake (working, or looking for work) per doorbell page. A page is protected only
 * when none is: a protected page makes every store to it wait for the watcher, and the
 * doorbells of queues that are busy get stored to all the time. */
#define MAX_PAGES 64
#define MAX_SLEEPERS 16
struct db_page {
  uint64_t off;
  unsigned engines, awake;   /* engines 0: a free entry */
  /* the generations the page's idle engines sleep on: one older than the current was woken
   * and is on its way back */
  unsigned nsleep;
  uint32_t sleep_gen[MAX_SLEEPERS];
};
static struct db_page pages[MAX_PAGES];

static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static int watch_state = WATCH_UNTRIED;   /* under maps_lock */
/* a doorbell mapping could not be registered (or the table was full): a store through it
 * would go unseen, so nothing is protected any more and the engines poll */
static bool unwatched_map;
static int uffd = -1;
static _Atomic uint32_t gen;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* Raw system calls: sim/os interposes ioctl, close and fcntl in this same library. */
static long uffd_ioctl(int fd, unsigned long req, void *arg)
{
  return syscall(SYS_ioctl, fd, req, arg);
}

static void wake_all(void)
{
  atomic_fetch_add_explicit(&gen, 1, memory_order_seq_cst);
  syscall(SYS_futex, &gen, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* The watcher: every write fault on a protected page makes the page writable (which also
 * wakes the faulting thread: its store then lands), then wakes the engines. In that order:
 * an engine that protects the page again does so after it woke, so after the page was made
 * writable; the other order could undo its protection, and its next store would go unseen. */
static void *watcher_main(void *arg)
{
  int fd = (int)(intptr_t)arg;
  struct uffd_msg msg[16];
  for (;;) {
    long n = syscall(SYS_read, fd, msg, sizeof msg);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN)
        continue;
      return NULL;   /* the program closed our descriptor: its release lifts every protection */
    }
    for (long i = 0; i < n / (long)sizeof msg[0]; i++) {
      if (msg[i].event != UFFD_EVENT_PAGEFAULT)
        continue;
      struct uffdio_writeprotect wp = {
        .range = { .start = msg[i].arg.pagefault.address & ~(uint64_t)(SIM_PAGE - 1),
                   .len = SIM_PAGE },
        .mode = 0,
      };
      uffd_ioctl(fd, UFFDIO_WRITEPROTECT, &wp);
      wake_all();
    }
  }
}

/* A forked child has neither the watcher thread nor the parent's registrations (they are
 * not inherited without UFFD_FEATURE_EVENT_FORK), and the descriptor it inherited speaks for
 * the parent's address space: start over. */
static void atfork_child(void)
{
  if (uffd >= 0)
    syscall(SYS_close, uffd);
  uffd = -1;
  watch_state = WATCH_UNTRIED;
  unwatched_map = false;
  memset(maps, 0, sizeof maps);
  memset(pages, 0, sizeof pages);
  pthread_mutex_init(&maps_lock, NULL);
}

static void atfork_register(void)
{
  pthread_atfork(NULL, NULL, atfork_child);
}

static int open_uffd(const char **why)
{
  int fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
  if (fd < 0 && errno == EPERM)   /* vm.unprivileged_userfaultfd=0: user-mode faults only */
    fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
  if (fd < 0) {
    *why = strerror(errno);
    return -1;
  }
  /* out of the way of a program that reuses low descriptor numbers */
  int high = (int)syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 200);
  if (high >= 0) {
    syscall(SYS_close, fd);
    fd = high;
  }
  struct uffdio_api api = { .api = UFFD_API,
                            .features = UFFD_FEATURE_PAGEFAULT_FLAG_WP |
                                        UFFD_FEATURE_WP_HUGETLBFS_SHMEM };
  if (uffd_ioctl(fd, UFFDIO_API, &api) != 0) {
    *why = "the kernel cannot write-protect shared memory with it";
    syscall(SYS_close, fd);
    return -1;
  }
  return fd;
}

/* Called with maps_lock held. */
static void watch_init(void)
{
  if (watch_state != WATCH_UNTRIED)
    return;
  pthread_once(&atfork_once, atfork_register);
  watch_state = WATCH_POLL;
  const char *why = NULL;
  int fd = open_uffd(&why);
  if (fd >= 0) {
    /* the watcher must not take the process's signals */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_t t;
    int r = pthread_create(&t, NULL, watcher_main, (void *)(intptr_t)fd);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (r == 0) {
      pthread_detach(t);
      uffd = fd;
      watch_state = WATCH_UFFD;
      return;
    }
    why = strerror(r);
    syscall(SYS_close, fd);
  }
  dprintf(2, "hsa-sim: cannot watch doorbells with userfaultfd (%s); idle queues poll their "
             "doorbells instead, every 1 to 10 ms\n", why);
}

static void forget_range(uintptr_t s, uintptr_t e)
{
  for (unsigned i = 0; i < MAX_MAPS; i++)
    if (maps[i].start && maps[i].start < e && s < maps[i].end)
      maps[i].start = 0;   /* a partly unmapped doorbell slice is no longer watched */
}

void sim_dbwatch_mapped(void *addr, uint64_t len, uint64_t store_off)
{
  uintptr_t s = (uintptr_t)addr, e = s + SIM_PAGE_ALIGN(len);
  pthread_mutex_lock(&maps_lock);
  watch_init();
  forget_range(s, e);   /* MAP_FIXED replaced whatever was there */
  struct uffdio_register reg = { .range = { .start = s, .len = e - s },
                                 .mode = UFFDIO_REGISTER_MODE_WP };
  unsigned i = 0;
  while (i < MAX_MAPS && maps[i].start)
    i++;
  if (watch_state == WATCH_UFFD && !unwatched_map) {
    const char *why = i == MAX_MAPS ? "too many mappings" : NULL;
    if (!why && uffd_ioctl(uffd, UFFDIO_REGISTER, &reg) != 0)
      why = strerror(errno);
    if (!why && !(reg.ioctls & (1ull << _UFFDIO_WRITEPROTECT)))
      why = "no write protection for it";
    if (why) {
      unwatched_map = true;
      dprintf(2, "hsa-sim: cannot watch a doorbell mapping with userfaultfd (%s); idle queues "
                 "poll their doorbells instead, every 1 to 10 ms\n", why);
    } else {
      maps[i] = (struct db_map){ s, e, store_off };
    }
  }
  pthread_mutex_unlock(&maps_lock);
}

void sim_dbwatch_unmapped(void *addr, uint64_t len)
{
  uintptr_t s = (uintptr_t)addr, e = s + SIM_PAGE_ALIGN(len);
  pthread_mutex_lock(&maps_lock);
  forget_range(s, e);   /* munmap ends the registration with the mapping */
  pthread_mutex_unlock(&maps_lock);
}

/* Sets (wp) or lifts the write protection of every CPU mapping of the doorbell page. */
static unsigned protect(uint64_t page_off, bool wp_on)
{
  unsigned n = 0;
  /* the lock keeps munmap from retiring a mapping while we protect it */
  pthread_mutex_lock(&maps_lock);
  for (unsigned i = 0; i < MAX_MAPS && watch_state == WATCH_UFFD && !unwatched_map; i++) {
    const struct db_map *m = &maps[i];
    if (!m->start || page_off < m->store_off || page_off - m->store_off >= m->end - m->start)
      continue;
    struct uffdio_writeprotect wp = {
      .range = { .start = m->start + (page_off - m->store_off), .len = SIM_PAGE },
      .mode = wp_on ? UFFDIO_WRITEPROTECT_MODE_WP : 0,
    };
    if (uffd_ioctl(uffd, UFFDIO_WRITEPROTECT, &wp) == 0)
      n++;
  }
  pthread_mutex_unlock(&maps_lock);
  return n;
}

unsigned sim_dbwatch_arm(uint64_t page_off)
{
  return protect(page_off, true);
}

void sim_dbwatch_disarm(uint64_t page_off)
{
  protect(page_off, false);
  /* siblings asleep on the protection would not hear their doorbells now: they look again,
   * find this engine awake and poll */
  wake_all();
}

/* maps_lock held; NULL when the table is full (then the page is never held back) */
static struct db_page *page_of(uint64_t page_off, bool add)
{
  struct db_page *free_one = NULL;
  for (unsigned i = 0; i < MAX_PAGES; i++) {
    if (pages[i].engines && pages[i].off == page_off)
      return &pages[i];
    if (!pages[i].engines && !free_one)
      free_one = &pages[i];
  }
  if (!add || !free_one)
    return NULL;
  *free_one = (struct db_page){ .off = page_off };
  return free_one;
}

void sim_dbwatch_engine_start(uint64_t page_off)
{
  pthread_mutex_lock(&maps_lock);
  struct db_page *pg = page_of(page_off, true);
  if (pg) {
    pg->engines++;
    pg->awake++;
  }
  pthread_mutex_unlock(&maps_lock);
}

void sim_dbwatch_engine_end(uint64_t page_off)
{
  pthread_mutex_lock(&maps_lock);
  struct db_page *pg = page_of(page_off, false);
  if (pg) {
    pg->engines--;
    pg->awake--;
  }
  pthread_mutex_unlock(&maps_lock);
}

bool sim_dbwatch_idle(uint64_t page_off, uint32_t g)
{
  pthread_mutex_lock(&maps_lock);
  struct db_page *pg = page_of(page_off, false);
  bool last = true;
  if (pg) {
    pg->awake--;
    if (pg->nsleep < MAX_SLEEPERS)
      pg->sleep_gen[pg->nsleep++] = g;
    else
      last = false;   /* (more sleepers than slots: poll rather than guess) */
    /* a sleeper whose generation is past was woken (the futex wakes every waiter) and has
     * not counted itself awake again yet: it may be about to find work on this page */
    uint32_t now = atomic_load_explicit(&gen, memory_order_seq_cst);
    for (unsigned i = 0; i < pg->nsleep && last; i++)
      last = pg->sleep_gen[i] == now;
    last = last && pg->awake == 0;
  }
  pthread_mutex_unlock(&maps_lock);
  return last;
}

void sim_dbwatch_awake(uint64_t page_off, uint32_t g)
{
  pthread_mutex_lock(&maps_lock);
  struct db_page *pg = page_of(page_off, false);
  if (pg) {
    pg->awake++;
    for (unsigned i = 0; i < pg->nsleep; i++)
      if (pg->sleep_gen[i] == g) {
        pg->sleep_gen[i] = pg->sleep_gen[--pg->nsleep];
        break;
      }
  }
  pthread_mutex_unlock(&maps_lock);
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
