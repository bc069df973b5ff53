/* SPDX-License-Identifier: MIT */
/* engine.c — the copy engines: one CPU engine, and one per SDMA queue of each GPU (mem/sdma.h).
 * Each has ONE worker thread, started on first use and joined at hsa_shut_down, and a queue
 * of jobs {dependencies, operation, completion signal}. The worker runs, in order, the first
 * queued job whose dependencies are all 0, then completes it; when none is ready it sleeps in
 * one hsa_amd_signal_wait_any on the dependencies still pending and on the engine's own
 * doorbell signal, which every submission increments. A job never blocks the jobs behind it
 * on the same engine, so a dependency that a later copy completes cannot deadlock the queue.
 * (Before, each request that could not finish at once had a detached thread of its own.) */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "copy/copy.h"
#include "copy/internal.h"
#include "hsa_ext_amd.h"
#include "mem/mem.h"
#include "signals/signal.h"

#define WAIT_MAX 64u   /* signals one wait watches; more pending ones are looked at by polls */

struct engine {
  pthread_mutex_t lock;
  struct copy_job *head, *tail;
  bool started, stop;
  pthread_t thread;
  hsa_signal_t doorbell;   /* incremented by every submission and by the shut-down */
};

static struct engine cpu_engine = {.lock = PTHREAD_MUTEX_INITIALIZER};
static struct engine sdma_engines[COPY_MAX_GPUS][MEM_SDMA_MAX];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_bool sdma_touched; /* set once an SDMA engine's record was first used */

static void init_locks(void) {
  for (unsigned i = 0; i < COPY_MAX_GPUS; i++)
    for (unsigned k = 0; k < MEM_SDMA_MAX; k++) pthread_mutex_init(&sdma_engines[i][k].lock, NULL);
  atomic_store_explicit(&sdma_touched, true, memory_order_release);
}

struct copy_job *copy_job_new(uint32_t ndeps, const hsa_signal_t *deps, hsa_signal_t completion) {
  struct copy_job *j = calloc(1, sizeof(*j) + ndeps * sizeof(hsa_signal_t));
  if (!j) return NULL;
  j->completion = completion;
  j->ndeps = ndeps;
  if (ndeps) memcpy(j->deps, deps, ndeps * sizeof(hsa_signal_t));
  return j;
}

bool copy_job_ready(const struct copy_job *j) {
  for (uint32_t i = 0; i < j->ndeps; i++)
    if (hsa_signal_load_scacquire(j->deps[i]) != 0) return false;
  return true;
}

/* frees j and, if the op did not take it, its own data */
static void copy_job_free(struct copy_job *j) {
  if (j->ctx && j->ctx_free) j->ctx_free(j->ctx);
  free(j);
}

void copy_job_finish(struct copy_job *j) {
  struct copy_split *sp = j->split;
  amd_signal_t *timed = j->timed ? sig_from_handle(j->completion) : NULL;
  if (timed && (!sp || !atomic_exchange(&sp->started, true))) timed->start_ts = copy_profile_now();
  hsa_status_t st = j->op(j);
  if (st != HSA_STATUS_SUCCESS) {
    /* The bytes did not move: completing the signal would say they did. */
    if (j->gpu)
      fprintf(stderr, "hsa-runtime64: an asynchronous copy on the SDMA engine of GPU node-%u "
                      "failed; its completion signal stays as it is\n", j->gpu->node_id);
    if (sp) atomic_store(&sp->failed, true);
  } else if (j->flush) {
    mem_hdp_flush(j->flush);
  }
  bool last = !sp || atomic_fetch_sub(&sp->left, 1) == 1;
  if (last) {
    bool ok = sp ? !atomic_load(&sp->failed) : st == HSA_STATUS_SUCCESS;
    if (ok && timed) timed->end_ts = copy_profile_now();
    if (ok && j->completion.handle) hsa_signal_subtract_screlease(j->completion, 1);
    free(sp);
  }
  copy_job_free(j);
}

/* engine lock held: unlinks and returns the first job whose dependencies are met. */
static struct copy_job *take_ready(struct engine *e) {
  for (struct copy_job **p = &e->head, *prev = NULL; *p; prev = *p, p = &(*p)->next) {
    struct copy_job *j = *p;
    if (!copy_job_ready(j)) continue;
    *p = j->next;
    if (e->tail == j) e->tail = prev;
    return j;
  }
  return NULL;
}

/* engine lock held: drops the jobs waiting on a signal that no longer exists (it can never
 * reach 0); true if there was one. */
static bool drop_dead(struct engine *e) {
  bool dropped = false;
  struct copy_job **p = &e->head, *prev = NULL;
  while (*p) {
    struct copy_job *j = *p;
    bool dead = false;
    for (uint32_t i = 0; i < j->ndeps && !dead; i++) dead = !sig_from_handle(j->deps[i]);
    if (!dead) {
      prev = j;
      p = &j->next;
      continue;
    }
    fprintf(stderr, "hsa-runtime64: a dependency signal of an asynchronous copy was destroyed "
                    "before it reached 0; the copy is dropped and its completion signal stays "
                    "as it is\n");
    *p = j->next;
    if (e->tail == j) e->tail = prev;
    if (j->split) {
      atomic_store(&j->split->failed, true);
      if (atomic_fetch_sub(&j->split->left, 1) == 1) free(j->split);
    }
    copy_job_free(j);
    dropped = true;
  }
  return dropped;
}

static void *worker(void *arg) {
  struct engine *e = arg;
  hsa_signal_t sigs[WAIT_MAX];
  hsa_signal_condition_t conds[WAIT_MAX];
  hsa_signal_value_t vals[WAIT_MAX];
  for (;;) {
    /* Read before looking at the queue: a job queued after the look moves it on. */
    hsa_signal_value_t seen = hsa_signal_load_scacquire(e->doorbell);
    pthread_mutex_lock(&e->lock);
    if (e->stop) {
      pthread_mutex_unlock(&e->lock);
      return NULL;
    }
    struct copy_job *j = take_ready(e);
    if (j) {
      pthread_mutex_unlock(&e->lock);
      copy_job_finish(j);
      continue;
    }
    uint32_t n = 1;
    bool all = true;
    sigs[0] = e->doorbell, conds[0] = HSA_SIGNAL_CONDITION_NE, vals[0] = seen;
    for (struct copy_job *q = e->head; q; q = q->next)
      for (uint32_t i = 0; i < q->ndeps; i++) {
        if (hsa_signal_load_relaxed(q->deps[i]) == 0) continue;
        if (n == WAIT_MAX) {
          all = false;
          continue;
        }
        sigs[n] = q->deps[i], conds[n] = HSA_SIGNAL_CONDITION_EQ, vals[n] = 0;
        n++;
      }
    pthread_mutex_unlock(&e->lock);
    /* Not all watched: wake every millisecond or so to look again. The doorbell is the
     * worker's own signal: an idle worker sleeps without timed wake-ups (signal.h). */
    uint32_t r = sig_wait_any_lone(n, sigs, conds, vals, all ? UINT64_MAX : 1000000);
    if (r == UINT32_MAX) {
      /* A destroyed dependency, or the runtime closing: never spin on it. */
      pthread_mutex_lock(&e->lock);
      bool dropped = drop_dead(e);
      pthread_mutex_unlock(&e->lock);
      if (!dropped) nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
  }
}

/* engine lock held */
static hsa_status_t start(struct engine *e) {
  if (e->started) return HSA_STATUS_SUCCESS;
  hsa_status_t st = sig_create_internal(0, true, &e->doorbell);
  if (st != HSA_STATUS_SUCCESS) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (pthread_create(&e->thread, NULL, worker, e) != 0) {
    sig_destroy_internal(e->doorbell);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  e->started = true;
  e->stop = false;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t submit(struct engine *e, struct copy_job *j) {
  pthread_mutex_lock(&e->lock);
  hsa_status_t st = start(e);
  if (st != HSA_STATUS_SUCCESS) {
    pthread_mutex_unlock(&e->lock);
    copy_job_free(j);
    return st;
  }
  j->next = NULL;
  if (e->tail) e->tail->next = j;
  else e->head = j;
  e->tail = j;
  pthread_mutex_unlock(&e->lock);
  hsa_signal_add_screlease(e->doorbell, 1);
  return HSA_STATUS_SUCCESS;
}

static struct engine *sdma_engine(const struct core_agent *gpu, unsigned ring) {
  pthread_once(&once, init_locks);
  return &sdma_engines[gpu->gpu_index][ring];
}

hsa_status_t copy_sdma_start(const struct core_agent *gpu, unsigned ring) {
  struct engine *e = sdma_engine(gpu, ring);
  pthread_mutex_lock(&e->lock);
  hsa_status_t st = start(e);
  pthread_mutex_unlock(&e->lock);
  return st;
}

hsa_status_t copy_submit_cpu(struct copy_job *j) { return submit(&cpu_engine, j); }

hsa_status_t copy_submit_sdma(const struct core_agent *gpu, unsigned ring, struct copy_job *j) {
  j->gpu = gpu;
  j->ring = ring;
  return submit(sdma_engine(gpu, ring), j);
}

static void stop(struct engine *e) {
  pthread_mutex_lock(&e->lock);
  bool started = e->started;
  e->stop = true;
  pthread_mutex_unlock(&e->lock);
  if (!started) return;
  hsa_signal_add_screlease(e->doorbell, 1);
  pthread_join(e->thread, NULL);
  pthread_mutex_lock(&e->lock);
  while (e->head) {
    struct copy_job *j = e->head;
    e->head = j->next;
    if (j->split && atomic_fetch_sub(&j->split->left, 1) == 1) free(j->split);
    copy_job_free(j);
  }
  e->tail = NULL;
  sig_destroy_internal(e->doorbell);
  e->started = e->stop = false;
  pthread_mutex_unlock(&e->lock);
}

void copy_engines_shutdown(void) {
  stop(&cpu_engine);
  /* No SDMA engine was ever used: nothing to stop, and walking the table would fault in
   * every page of it (15 page faults of a bare hsa_init + hsa_shut_down). */
  if (!atomic_load_explicit(&sdma_touched, memory_order_acquire)) return;
  for (unsigned i = 0; i < COPY_MAX_GPUS; i++)
    for (unsigned k = 0; k < MEM_SDMA_MAX; k++) stop(&sdma_engines[i][k]);
}

void copy_shutdown(void) {
  copy_engines_shutdown();
  copy_sdma_queues_shutdown();
  copy_profile_reset();
}
