/* SPDX-License-Identifier: MIT */
/* pool.c — helper threads that run a dispatch's work-groups alongside the queue's engine
 * thread, as the GPU's compute units run them side by side. One dispatch uses the pool at a
 * time; a dispatch that finds it busy runs on its engine thread alone. The pool belongs to
 * the process that made it: a forked child starts its own. */
#include "cp/pool.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

#define MAX_HELPERS 3

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;   /* held by the dispatch using it */
static pthread_mutex_t job_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t job_cond = PTHREAD_COND_INITIALIZER;
static pid_t pool_pid;
static unsigned helpers;

static struct {
  uint64_t gen;              /* bumped per job */
  unsigned busy;             /* helpers still working on it */
  unsigned max_workers;
  uint64_t count;
  cp_pool_fn *fn;
  void *ctx;
} job;
static _Atomic uint64_t next_item;
static atomic_bool failed;

static void work(unsigned worker)
{
  for (;;) {
    if (atomic_load_explicit(&failed, memory_order_acquire))
      return;
    uint64_t i = atomic_fetch_add_explicit(&next_item, 1, memory_order_relaxed);
    if (i >= job.count)
      return;
    if (!job.fn(job.ctx, worker, i))
      atomic_store_explicit(&failed, true, memory_order_release);
  }
}

static void *helper_main(void *arg)
{
  unsigned worker = (unsigned)(uintptr_t)arg;
  uint64_t seen = 0;
  pthread_mutex_lock(&job_lock);
  for (;;) {
    while (job.gen == seen)
      pthread_cond_wait(&job_cond, &job_lock);
    seen = job.gen;
    bool mine = worker < job.max_workers;
    pthread_mutex_unlock(&job_lock);
    if (mine)
      work(worker);
    pthread_mutex_lock(&job_lock);
    if (--job.busy == 0)
      pthread_cond_broadcast(&job_cond);
  }
  return NULL;
}

static unsigned helpers_wanted(void)
{
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  unsigned want = cpus > 1 ? (unsigned)(cpus - 1) : 0;
  return want > MAX_HELPERS ? MAX_HELPERS : want;
}

static void start_helpers(void)
{
  pool_pid = getpid();
  helpers = 0;
  unsigned want = helpers_wanted();
  sigset_t all, old;
  sigfillset(&all);
  sigdelset(&all, SIGSEGV);
  sigdelset(&all, SIGBUS);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  for (unsigned i = 0; i < want; i++) {
    pthread_t t;
    if (pthread_create(&t, NULL, helper_main, (void *)(uintptr_t)(i + 1)) != 0)
      break;
    pthread_detach(t);
    helpers++;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

unsigned cp_pool_workers(void)
{
  return helpers_wanted() + 1;
}

bool cp_pool_run(uint64_t count, unsigned max_workers, cp_pool_fn *fn, void *ctx)
{
  if (max_workers <= 1 || count <= 1 || pthread_mutex_trylock(&pool_lock) != 0) {
    for (uint64_t i = 0; i < count; i++)
      if (!fn(ctx, 0, i))
        return false;
    return true;
  }
  if (pool_pid != getpid()) {
    /* a forked child: the parent's helpers do not exist here; its locks were ours */
    pthread_mutex_init(&job_lock, NULL);
    pthread_cond_init(&job_cond, NULL);
    job.gen = 0;
    job.busy = 0;
    start_helpers();
  }
  atomic_store(&failed, false);
  pthread_mutex_lock(&job_lock);
  job.count = count;
  job.fn = fn;
  job.ctx = ctx;
  job.max_workers = max_workers;
  job.busy = helpers;
  atomic_store(&next_item, 0);
  job.gen++;
  pthread_cond_broadcast(&job_cond);
  pthread_mutex_unlock(&job_lock);
  work(0);
  pthread_mutex_lock(&job_lock);
  while (job.busy)
    pthread_cond_wait(&job_cond, &job_lock);
  pthread_mutex_unlock(&job_lock);
  bool ok = !atomic_load(&failed);
  pthread_mutex_unlock(&pool_lock);
  return ok;
}
