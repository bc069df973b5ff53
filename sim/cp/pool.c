/* SPDX-License-Identifier: MIT */
/* pool.c — the host threads that run work-groups, as a GPU's compute units run the
 * work-groups of every queue side by side.
 *
 * The pool has `threads` execution slots (sim_config()->threads, `hsa-sim --threads N`;
 * default: the CPUs the process may run on, sched_getaffinity). Each queue's engine thread
 * runs the work-groups of its own dispatch (worker 0) and is always one of them, so every
 * queue makes progress on its own (a kernel may wait for another queue's writes, as on a
 * GPU); threads - 1 helper threads join whichever dispatches are running: a helper takes a
 * dispatch while fewer than `threads` threads are executing work-groups, the dispatch with
 * the fewest helpers first, and stays with it until its work-groups are all started. So one
 * dispatch uses every slot, and several dispatches (of several queues) share them.
 * Work-groups are taken in order from one counter per dispatch, one at a time while they are
 * long (a group waiting on an earlier group, as look-back scans do, finds it started), a few
 * consecutive ones a claim when they are short (claim_size).
 *
 * Ordering: a dispatch returns only when every helper that joined it has left it, and the
 * helpers leave under the pool's lock, so all the work-groups' writes happen before whatever
 * the engine does next (the completion signal, the next packet's acquire). `threads` = 1
 * starts no helper: each engine runs its dispatches alone, the single-threaded reference.
 *
 * The pool belongs to the process that made it: a forked child starts its own (the helpers
 * do not exist there). */
#include "cp/pool.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "sim.h"

struct job {
  struct job *next;          /* the list of running dispatches (under lock) */
  uint64_t count;
  unsigned max_workers;      /* worker ids (scratch slots) it may use: helper i joins if i < */
  cp_pool_fn *fn;
  void *ctx;
  unsigned helpers;          /* helpers working on it (under lock) */
  atomic_bool failed;        /* read before every item, written at most once */
  _Atomic uint64_t helped;   /* items the helpers ran (the trace reports it) */
  _Atomic uint64_t cpu_ns, cpu_max_ns;   /* CPU time of its threads: in all, the busiest */
  /* the one line every item writes, alone on its cache line: the fields above are read per
   * item (count, fn, ctx, failed) or written once per thread, and sharing a line with the
   * counter would make each of those reads miss after the other thread's claim */
  alignas(64) _Atomic uint64_t next_item;
  char pad[64 - sizeof(_Atomic uint64_t)];
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_cond = PTHREAD_COND_INITIALIZER;   /* helpers wait for a job */
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;   /* owners wait for helpers */
static struct job *jobs;       /* under lock */
static unsigned running;       /* threads executing work-groups of pooled jobs (under lock) */
static unsigned helpers;       /* started (under lock) */
static pid_t pool_pid;         /* the process the helpers belong to (under lock) */
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static unsigned slots;         /* the pool's size, fixed at the first job */

static void child_after_fork(void)
{
  /* the forking thread alone exists in the child: no helper, no engine, no job */
  pthread_mutex_init(&lock, NULL);
  pthread_cond_init(&work_cond, NULL);
  pthread_cond_init(&done_cond, NULL);
  jobs = NULL;
  running = 0;
  helpers = 0;
  pool_pid = 0;
}

static void register_fork(void)
{
  pthread_atfork(NULL, NULL, child_after_fork);
}

unsigned cp_pool_threads(void)
{
  unsigned n = sim_config()->threads;
  if (n)
    return n > CP_POOL_MAX_THREADS ? CP_POOL_MAX_THREADS : n;
  cpu_set_t set;
  long cpus = 0;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    cpus = CPU_COUNT(&set);
  if (cpus < 1)
    cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (cpus < 1)
    cpus = 1;
  return cpus > CP_POOL_MAX_THREADS ? CP_POOL_MAX_THREADS : (unsigned)cpus;
}

unsigned cp_pool_workers(void)
{
  return cp_pool_threads();
}

static uint64_t thread_cpu_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Claims cover about CLAIM_NS of work: one item while items are long, several consecutive
 * ones when they are short. A claim is a write to the line the other threads claim on, and
 * moving a written line between two host CPUs costs 0.5-1 us on the 2-vCPU VM this was
 * measured on (a two-thread ping-pong: 0.9-1.2 us one way, at times): with one claim per
 * item, vadd's 4096 work-groups of ~1.1 us then took 30-70 % more CPU on 2 threads than on 1
 * (sim/cp/README.md, "Claims"). At most CLAIM_MAX items a claim, and at most the items
 * left / (2 x workers), so that the threads still end together. Items of CLAIM_NS and more
 * keep claims of one, handed out in order, so a group waiting on the one before it (look-back
 * scans) finds it started; a short group that waits so finds it started once the thread
 * holding it gets there (a delay of one claim, never a deadlock: each thread runs its claim
 * in order, and a group waits only on lower ids). */
#define CLAIM_NS 16000ull
#define CLAIM_MAX 16u

static uint64_t claim_size(uint64_t ns, uint64_t ran, uint64_t left, unsigned workers)
{
  uint64_t per = ns / ran;
  uint64_t k = per ? CLAIM_NS / per : CLAIM_MAX;
  if (k > CLAIM_MAX)
    k = CLAIM_MAX;
  uint64_t share = left / (2ull * workers);
  if (k > share)
    k = share;
  return k ? k : 1;
}

/* Runs items of `j` as `worker` until none is left or one failed; counts the thread's CPU
 * time (the trace's balance figures: unlike wall time, a busy host does not blur them). */
static void work(struct job *j, unsigned worker)
{
  uint64_t t0 = thread_cpu_ns();
  const uint64_t count = j->count;
  const unsigned workers = j->max_workers < slots ? j->max_workers : slots;
  uint64_t ran = 0, k = 1;
  for (;;) {
    /* the one shared write: items first .. first + k - 1, run in order */
    uint64_t first = atomic_fetch_add_explicit(&j->next_item, k, memory_order_relaxed);
    if (first >= count)
      break;
    uint64_t end = count - first < k ? count : first + k, c0 = sim_mono_ns(), i = first;
    bool ok = true;
    while (ok && i < end && !atomic_load_explicit(&j->failed, memory_order_acquire))
      ok = j->fn(j->ctx, worker, i++);
    ran += i - first;
    if (!ok)
      atomic_store_explicit(&j->failed, true, memory_order_release);
    if (!ok || i < end)   /* failed, here or elsewhere: the items not started are skipped */
      break;
    k = claim_size(sim_mono_ns() - c0, end - first, count - end, workers);
  }
  if (worker && ran)   /* counted once per thread, not per item: no second shared write */
    atomic_fetch_add_explicit(&j->helped, ran, memory_order_relaxed);
  uint64_t t = thread_cpu_ns() - t0;
  atomic_fetch_add_explicit(&j->cpu_ns, t, memory_order_relaxed);
  uint64_t m = atomic_load_explicit(&j->cpu_max_ns, memory_order_relaxed);
  while (t > m && !atomic_compare_exchange_weak_explicit(&j->cpu_max_ns, &m, t,
                                                         memory_order_relaxed, memory_order_relaxed))
    ;
}

/* A job helper `worker` may join (under lock): one with work-groups not yet started, whose
 * scratch has a slot for this worker, the one with the fewest helpers; NULL when the pool's
 * threads are all busy. */
static struct job *pick(unsigned worker)
{
  if (running >= slots)
    return NULL;
  struct job *best = NULL;
  for (struct job *j = jobs; j; j = j->next) {
    if (worker >= j->max_workers ||
        atomic_load_explicit(&j->next_item, memory_order_relaxed) >= j->count ||
        atomic_load_explicit(&j->failed, memory_order_relaxed))
      continue;
    if (!best || j->helpers < best->helpers)
      best = j;
  }
  return best;
}

/* Jobs published so far (bumped under lock, read without it). */
static atomic_uint posted;

/* After its share of a job a helper keeps its CPU for up to SPIN_NS, watching for the next
 * job, before it sleeps: a helper woken by the condition variable was placed by the kernel
 * on the waking engine thread's CPU (wake-affine), so the two ran one at a time and one of
 * them ran all of a short dispatch (reduce_stride: 0 or 256 of 256 work-groups on the
 * helper in most dispatches, issue 24). Bounded, only after work (an idle pool spins not at
 * all), and yielding at each turn. */
#define SPIN_NS 500000ull
static void spin_for_job(unsigned seen)
{
  uint64_t t0 = sim_mono_ns();
  for (unsigned k = 1;; k++) {
    if (atomic_load_explicit(&posted, memory_order_relaxed) != seen)
      return;
    /* yield, not pause: on a host whose CPUs are all taken (the client, the engine thread)
     * the watch must not hold a CPU another thread of the dispatch's process wants */
    sched_yield();
    if (!(k % 16) && sim_mono_ns() - t0 > SPIN_NS)
      return;
  }
}

static void *helper_main(void *arg)
{
  unsigned worker = (unsigned)(uintptr_t)arg;
  bool worked = false;
  pthread_mutex_lock(&lock);
  for (;;) {
    struct job *j = pick(worker);
    if (!j && worked) {
      worked = false;
      unsigned seen = atomic_load_explicit(&posted, memory_order_relaxed);
      pthread_mutex_unlock(&lock);
      spin_for_job(seen);
      pthread_mutex_lock(&lock);
      continue;
    }
    if (!j) {
      pthread_cond_wait(&work_cond, &lock);
      continue;
    }
    worked = true;
    j->helpers++;
    running++;
    pthread_mutex_unlock(&lock);
    work(j, worker);
    pthread_mutex_lock(&lock);
    running--;
    if (--j->helpers == 0)
      pthread_cond_broadcast(&done_cond);
    if (jobs)   /* a slot came free: another dispatch may want it */
      pthread_cond_broadcast(&work_cond);
  }
  return NULL;
}

/* Starts the helpers (under lock): threads - 1 of them, worker ids 1, 2, ... */
static void start_helpers(void)
{
  pool_pid = getpid();
  helpers = 0;
  slots = cp_pool_threads();
  sigset_t all, old;
  sigfillset(&all);
  sigdelset(&all, SIGSEGV);
  sigdelset(&all, SIGBUS);
  pthread_sigmask(SIG_BLOCK, &all, &old);   /* the process's signals are not theirs */
  for (unsigned i = 1; i < slots; i++) {
    pthread_t t;
    if (pthread_create(&t, NULL, helper_main, (void *)(uintptr_t)i) != 0)
      break;
    pthread_detach(t);
    helpers++;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  sim_trace("cp: %u host threads run work-groups (%u helpers)", slots, helpers);
}

bool cp_pool_run(uint64_t count, unsigned max_workers, cp_pool_fn *fn, void *ctx)
{
  pthread_once(&fork_once, register_fork);
  if (max_workers <= 1 || count <= 1 || cp_pool_threads() <= 1) {
    uint64_t t0 = thread_cpu_ns();
    for (uint64_t i = 0; i < count; i++)
      if (!fn(ctx, 0, i))
        return false;
    sim_trace("cp: %llu work-groups on the engine thread alone; CPU %llu us",
              (unsigned long long)count, (unsigned long long)(thread_cpu_ns() - t0) / 1000);
    return true;
  }
  struct job j = { .count = count, .max_workers = max_workers, .fn = fn, .ctx = ctx };
  atomic_init(&j.next_item, 0);
  atomic_init(&j.helped, 0);
  atomic_init(&j.cpu_ns, 0);
  atomic_init(&j.cpu_max_ns, 0);
  atomic_init(&j.failed, false);
  pthread_mutex_lock(&lock);
  if (pool_pid != getpid())
    start_helpers();
  j.next = jobs;
  jobs = &j;
  atomic_fetch_add_explicit(&posted, 1, memory_order_relaxed);
  running++;
  pthread_cond_broadcast(&work_cond);
  pthread_mutex_unlock(&lock);

  work(&j, 0);

  pthread_mutex_lock(&lock);
  running--;
  for (struct job **pp = &jobs; *pp; pp = &(*pp)->next)
    if (*pp == &j) {
      *pp = j.next;
      break;
    }
  while (j.helpers)   /* their last work-groups; their writes are ours once they left */
    pthread_cond_wait(&done_cond, &lock);
  if (jobs)
    pthread_cond_broadcast(&work_cond);
  pthread_mutex_unlock(&lock);
  sim_trace("cp: %llu work-groups, %llu of them on helper threads; CPU %llu us in all, %llu us "
            "on the busiest thread", (unsigned long long)count,
            (unsigned long long)atomic_load_explicit(&j.helped, memory_order_relaxed),
            (unsigned long long)atomic_load_explicit(&j.cpu_ns, memory_order_relaxed) / 1000,
            (unsigned long long)atomic_load_explicit(&j.cpu_max_ns, memory_order_relaxed) / 1000);
  return !atomic_load_explicit(&j.failed, memory_order_acquire);
}
