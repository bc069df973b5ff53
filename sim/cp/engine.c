/* SPDX-License-Identifier: MIT */
/* engine.c — the thread behind each user-mode queue: poll while busy, sleep when idle.
 * A queue that found nothing to do keeps looking for a short while (yielding the CPU), then
 * write-protects its doorbell page (dbwatch.c) if no other engine of the page is awake (else
 * it polls: a protected page would stall the doorbell stores of its busy siblings' clients),
 * looks once more (a store may have landed just before the protection) and sleeps on the
 * doorbell futex; a store after the protection bumps the futex's generation, read before
 * that last look, so it cannot be missed. When
 * nothing can be protected it polls its queue with a back-off of 20 us to 1 ms instead (10 ms
 * after a second of idleness, so a sleeping queue costs next to nothing there too).
 * Barriers and polls that wait on memory written by the host poll with an exponential
 * back-off, as nothing notifies them. */
#include "cp/engine.h"
#include "sim.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

#define SPIN_NS 200000ull          /* keep polling this long after the last work */
#define BACKOFF_MIN_NS 20000ull
#define BACKOFF_MAX_NS 1000000ull
/* nothing protected: poll at least once a millisecond, once every 10 ms after a second idle */
#define UNWATCHED_MAX_NS 1000000ull
#define UNWATCHED_SLEEPY_NS 10000000ull
#define SLEEPY_AFTER_NS 1000000000ull
#define SAFETY_NS 1000000000ull    /* armed sleeps still look once a second */
#define WOKEN_NAP_NS 20000ull      /* polling interval right after a doorbell wake-up */

static bool stopped(struct cp_queue *cq)
{
  return atomic_load_explicit(&cq->stop, memory_order_acquire);
}

/* The queue's registers as the driver last set them (update_queue may change them). */
static void snapshot(struct cp_queue *cq)
{
  pthread_mutex_lock(cq->qpd->lock);
  const struct sim_mqd *m = cq->mqd;
  cq->ring = m->ring;
  cq->ring_size = m->ring_size;
  cq->rptr = m->rptr;
  cq->wptr = m->wptr;
  cq->active = m->active;
  pthread_mutex_unlock(cq->qpd->lock);
}

static enum cp_step step(struct cp_queue *cq)
{
  if (cq->halted || __atomic_load_n(&cq->qpd->evicted, __ATOMIC_ACQUIRE))
    return CP_HALTED;
  if (!cq->active)
    return CP_IDLE;   /* a suspended queue (percent 0) resumes with an update */
  if (cq->sdma)
    return sdma_step(cq);
  return cq->pm4 ? cp_pm4_queue_step(cq) : cp_aql_step(cq);
}

bool cp_poll_until(struct cp_queue *cq, bool (*done)(void *arg), void *arg)
{
  uint64_t backoff = BACKOFF_MIN_NS;
  while (!done(arg)) {
    if (stopped(cq) || __atomic_load_n(&cq->qpd->evicted, __ATOMIC_ACQUIRE))
      return false;
    sim_dbwatch_wait(sim_dbwatch_gen(), backoff);
    backoff = backoff * 2 > BACKOFF_MAX_NS ? BACKOFF_MAX_NS : backoff * 2;
  }
  return true;
}

static void *engine_main(void *arg)
{
  struct cp_queue *cq = arg;
  sim_dbwatch_engine_start(cq->doorbell_page);
  /* short naps and back-offs mean what they say: not the default 50 us timer slack */
  prctl(PR_SET_TIMERSLACK, 1000ul, 0ul, 0ul, 0ul);
  uint64_t idle_since = 0, backoff = BACKOFF_MIN_NS, unwatched = BACKOFF_MIN_NS;
  bool woken = false;   /* back from an armed sleep, possibly for another queue's doorbell */
  while (!stopped(cq)) {
    uint32_t gen = sim_dbwatch_gen();
    snapshot(cq);
    enum cp_step r = step(cq);
    if (r == CP_WORK) {
      idle_since = 0;
      woken = false;
      backoff = unwatched = BACKOFF_MIN_NS;
      continue;
    }
    if (r == CP_BLOCKED) {
      idle_since = 0;
      sim_dbwatch_wait(gen, backoff);
      backoff = backoff * 2 > BACKOFF_MAX_NS ? BACKOFF_MAX_NS : backoff * 2;
      continue;
    }
    backoff = BACKOFF_MIN_NS;
    if (r == CP_HALTED) {
      sim_dbwatch_idle(cq->doorbell_page, gen);   /* its doorbell means nothing now */
      sim_dbwatch_wait(gen, SAFETY_NS);      /* until destroyed (stop kicks the futex) */
      sim_dbwatch_awake(cq->doorbell_page, gen);
      continue;
    }
    uint64_t now = sim_mono_ns();
    if (!idle_since)
      idle_since = now;
    if (now - idle_since < SPIN_NS) {
      /* after work: spin (the next packet usually follows); after a wake-up: nap, so the
       * engines woken for someone else's doorbell leave the CPU to the one that has work */
      if (woken)
        sim_dbwatch_wait(gen, WOKEN_NAP_NS);
      else
        sched_yield();
      continue;
    }
    /* the last engine of the page to go idle protects it; while a sibling is awake its
     * client's doorbell stores must not fault, so this one polls instead (1 ms at most) */
    bool last = sim_dbwatch_idle(cq->doorbell_page, gen);
    unsigned armed = last ? sim_dbwatch_arm(cq->doorbell_page) : 0;
    enum cp_step late = step(cq);
    if (late == CP_WORK || late == CP_BLOCKED) {   /* a store that landed before the protection */
      /* awake again, with work or a barrier to poll: a sleep on the protection would leave
       * that barrier unpolled for up to SAFETY_NS, and a protected page would stall the
       * stores of the siblings' clients (test_cp_aql's busy sibling saw both on a loaded host) */
      sim_dbwatch_awake(cq->doorbell_page, gen);
      if (armed)
        sim_dbwatch_disarm(cq->doorbell_page);
      idle_since = 0;
      woken = false;
      unwatched = BACKOFF_MIN_NS;
      continue;
    }
    if (!armed) {   /* nothing will report a store: look again after a growing pause */
      sim_dbwatch_wait(gen, unwatched);
      sim_dbwatch_awake(cq->doorbell_page, gen);
      uint64_t cap = !last || now - idle_since < SLEEPY_AFTER_NS ? UNWATCHED_MAX_NS
                                                                 : UNWATCHED_SLEEPY_NS;
      unwatched = unwatched * 2 > cap ? cap : unwatched * 2;
      continue;
    }
    sim_dbwatch_wait(gen, SAFETY_NS);
    sim_dbwatch_awake(cq->doorbell_page, gen);
    /* the blocked store lands only after the watcher lifted the protection, for every queue
     * on the page: look for a while before protecting it again */
    idle_since = 0;
    woken = true;
  }
  sim_dbwatch_engine_end(cq->doorbell_page);
  return NULL;
}

int sim_cp_queue_start(struct sim_mqd *m, struct cp_queue **engine)
{
  struct cp_queue *cq = calloc(1, sizeof *cq);
  if (!cq)
    return -ENOMEM;
  cq->mqd = m;
  cq->qpd = m->qpd;
  cq->gpu = m->qpd->gpu;
  cq->sdma = m->format == SIM_MQD_SDMA;
  cq->pm4 = m->format == SIM_MQD_PM4;
  cq->doorbell = m->doorbell;
  cq->doorbell_page = m->doorbell_page;
  atomic_init(&cq->stop, false);
  /* a new hardware queue starts from write pointer 0, whatever an earlier queue left in
   * this doorbell slot (a doorbell is a register, not memory, on the real device) */
  __atomic_store_n((uint64_t *)cq->doorbell, 0, __ATOMIC_RELEASE);
  /* the engine threads must not take the process's signals (SIGINT, SIGCHLD...) */
  sigset_t all, old;
  sigfillset(&all);
  sigdelset(&all, SIGSEGV);
  sigdelset(&all, SIGBUS);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  int r = pthread_create(&cq->thread, NULL, engine_main, cq);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (r) {
    free(cq);
    return -r;
  }
  *engine = cq;
  sim_trace("cp: queue %u (%s) started on gpu %u, doorbell %u", m->queue_id,
            cq->sdma ? "sdma" : cq->pm4 ? "pm4" : "aql", cq->gpu->index, m->doorbell_id);
  return 0;
}

void sim_cp_queue_update(struct cp_queue *e)
{
  (void)e;
  sim_dbwatch_kick();   /* the thread re-reads the registers on its next round */
}

void sim_cp_queue_stop(struct cp_queue *cq)
{
  if (!cq)
    return;
  atomic_store_explicit(&cq->stop, true, memory_order_release);
  sim_dbwatch_kick();
  if (!pthread_equal(cq->thread, pthread_self()))
    pthread_join(cq->thread, NULL);
  free(cq);
}
