/* SPDX-License-Identifier: MIT */
/* async.c — hsa_amd_signal_async_handler and hsa_amd_async_function: one handler thread, started by the first
 * registration, waits on every registered signal plus an internal "wake" signal (bumped when
 * the list changes or the thread must stop) and calls handlers outside any lock. A handler
 * returning false is deregistered; true keeps it armed (ROCR's rule, so it is called again
 * while the condition holds). Only this thread frees entries, so its snapshot of the list
 * stays valid while it waits. An entry remembers its signal's generation: a destroyed signal
 * (or its slot reused by a new one) drops the entry without calling the handler.
 *
 * Deferred registrations (sig_async_handler_deferred, sig_async_function_deferred) are the
 * runtime's own for what only GPU work can cause: a queue's inactive signal, the fault
 * watcher's start. They are listed at once but start no thread: the first doorbell rung
 * through a signal store (ops.c), the first wait about to block (wait.c) or any public
 * registration starts it (sig_async_start_pending). Nothing is lost meanwhile: the CP's
 * code stays in the inactive signal (the handlers' condition is a level, not an edge) and
 * the KFD's memory and reset events stay set until the watcher waits. So hsa_queue_create
 * starts no thread of ours; the first dispatch does, after its doorbell. */
#include "signals/internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "hsa_ext_amd.h"

struct entry {
  struct entry *next;
  hsa_signal_t signal;
  uint32_t gen;
  hsa_signal_condition_t cond;
  hsa_signal_value_t value;
  hsa_amd_signal_handler handler;
  void *arg;
};

/* hsa_amd_async_function: callbacks the thread runs once, in the order they came. */
struct call {
  struct call *next;
  void (*fn)(void *arg);
  void *arg;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct call *calls, **calls_tail = &calls;
static struct entry *entries;
static uint32_t entry_count;
static bool running, stopping;
static bool closing;   /* sig_async_stop is tearing down: a doorbell starts nothing */
static pthread_t thread;
static hsa_signal_t wake;
/* Deferred entries or calls wait for the thread: read by every doorbell store (relaxed: a
 * ring ordered after the registration sees it set, or cleared by a start that happened). */
SIG_HIDDEN _Atomic bool sig_async_pending;

static void poke(void)
{
  struct sig_obj *o = sig_obj_of(wake);
  if (o) {
    atomic_fetch_add_explicit((_Atomic int64_t *)(uintptr_t)&o->amd->value, 1,
                              memory_order_release);
    sig_notify(o);
  }
}

/* Called with lock held. */
static void unlink_entry(struct entry *e)
{
  for (struct entry **l = &entries; *l; l = &(*l)->next)
    if (*l == e) {
      *l = e->next;
      entry_count--;
      free(e);
      return;
    }
}

static bool entry_current(const struct entry *e)
{
  struct sig_obj *o = sig_obj_of(e->signal);
  return o && atomic_load_explicit(&o->gen, memory_order_acquire) == e->gen;
}

static void *handler_thread(void *unused)
{
  (void)unused;
  uint32_t cap = 0;
  hsa_signal_t *sigs = NULL;
  hsa_signal_condition_t *conds = NULL;
  hsa_signal_value_t *vals = NULL;
  struct entry **ents = NULL;
  for (;;) {
    pthread_mutex_lock(&lock);
    if (stopping) {
      pthread_mutex_unlock(&lock);
      break;
    }
    if (calls) {   /* run the queued functions outside the lock, then look again */
      struct call *c = calls;
      calls = NULL;
      calls_tail = &calls;
      pthread_mutex_unlock(&lock);
      while (c) {
        struct call *next = c->next;
        c->fn(c->arg);
        free(c);
        c = next;
      }
      continue;
    }
    /* drop entries whose signal is gone before waiting on them */
    for (struct entry *e = entries, *next; e; e = next) {
      next = e->next;
      if (!entry_current(e))
        unlink_entry(e);
    }
    uint32_t n = entry_count + 1;
    if (n > cap) {
      uint32_t c = n * 2;
      void *a = realloc(sigs, c * sizeof *sigs), *b = NULL, *d = NULL, *f = NULL;
      if (a) sigs = a;
      b = realloc(conds, c * sizeof *conds);
      if (b) conds = b;
      d = realloc(vals, c * sizeof *vals);
      if (d) vals = d;
      f = realloc(ents, c * sizeof *ents);
      if (f) ents = f;
      if (!a || !b || !d || !f) {
        pthread_mutex_unlock(&lock);
        struct timespec t = {0, 1000000};   /* out of memory: retry in a while */
        nanosleep(&t, NULL);
        continue;
      }
      cap = c;
    }
    sigs[0] = wake;
    conds[0] = HSA_SIGNAL_CONDITION_NE;
    vals[0] = hsa_signal_load_acquire(wake);
    uint32_t i = 1;
    for (struct entry *e = entries; e; e = e->next, i++) {
      sigs[i] = e->signal;
      conds[i] = e->cond;
      vals[i] = e->value;
      ents[i] = e;
    }
    pthread_mutex_unlock(&lock);

    hsa_signal_value_t v = 0;
    uint32_t dead = UINT32_MAX;
    /* `wake` is ours alone: the wait needs no slices while no one else waits on the rest */
    uint32_t hit = sig_wait_objs_lone(n, sigs, conds, vals, UINT64_MAX, &v, &dead);
    atomic_thread_fence(memory_order_acquire);
    if (hit == 0)
      continue;   /* the list changed or we are asked to stop */
    if (hit >= n) {
      if (dead != UINT32_MAX && dead > 0) {
        pthread_mutex_lock(&lock);
        unlink_entry(ents[dead]);
        pthread_mutex_unlock(&lock);
      } else if (dead == 0) {
        break;   /* the wake signal is gone: shutdown is tearing signals down */
      }
      continue;
    }
    struct entry *e = ents[hit];
    if (!entry_current(e)) {
      pthread_mutex_lock(&lock);
      unlink_entry(e);
      pthread_mutex_unlock(&lock);
      continue;
    }
    if (!e->handler(v, e->arg)) {
      pthread_mutex_lock(&lock);
      unlink_entry(e);
      pthread_mutex_unlock(&lock);
    }
  }
  free(sigs);
  free(conds);
  free(vals);
  free(ents);
  return NULL;
}

/* Called with lock held. */
static hsa_status_t start(void)
{
  if (running)
    return HSA_STATUS_SUCCESS;
  hsa_status_t st = sig_create_internal(0, true, &wake);
  if (st != HSA_STATUS_SUCCESS)
    return st;
  stopping = false;
  if (pthread_create(&thread, NULL, handler_thread, NULL) != 0) {
    sig_destroy_internal(wake);
    wake.handle = 0;
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  running = true;
  atomic_store_explicit(&sig_async_pending, false, memory_order_relaxed);
  return HSA_STATUS_SUCCESS;
}

/* Lists a handler; `now` starts the thread, else it waits for sig_async_start_pending. */
static hsa_status_t add_handler(hsa_signal_t signal, hsa_signal_condition_t cond,
                                hsa_signal_value_t value, hsa_amd_signal_handler handler,
                                void *arg, bool now)
{
  hsa_status_t st = sig_ensure_init();
  if (st != HSA_STATUS_SUCCESS)
    return st;
  if (!handler || !sig_cond_valid(cond))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct sig_obj *o = sig_obj_of(signal);
  if (!o || (o->flags & SIG_F_DOORBELL))
    return HSA_STATUS_ERROR_INVALID_SIGNAL;
  /* as ROCR: with interrupts on, the handler thread sleeps, so its signals need events */
  if (sig_g.interrupts && !(o->flags & SIG_F_INTERRUPT))
    return HSA_STATUS_ERROR_INVALID_SIGNAL;
  struct entry *e = malloc(sizeof *e);
  if (!e)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  e->signal = signal;
  e->gen = atomic_load_explicit(&o->gen, memory_order_acquire);
  e->cond = cond;
  e->value = value;
  e->handler = handler;
  e->arg = arg;
  pthread_mutex_lock(&lock);
  st = now ? start() : HSA_STATUS_SUCCESS;
  bool live = running;
  if (st == HSA_STATUS_SUCCESS) {
    e->next = entries;
    entries = e;
    entry_count++;
    if (!live)
      atomic_store_explicit(&sig_async_pending, true, memory_order_relaxed);
  }
  pthread_mutex_unlock(&lock);
  if (st != HSA_STATUS_SUCCESS) {
    free(e);
    return st;
  }
  if (live)
    poke();
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_signal_async_handler(hsa_signal_t signal, hsa_signal_condition_t cond,
                                          hsa_signal_value_t value,
                                          hsa_amd_signal_handler handler, void *arg)
{
  return add_handler(signal, cond, value, handler, arg, true);
}

hsa_status_t sig_async_handler_deferred(hsa_signal_t signal, hsa_signal_condition_t cond,
                                        hsa_signal_value_t value,
                                        hsa_amd_signal_handler handler, void *arg)
{
  return add_handler(signal, cond, value, handler, arg, false);
}

void sig_async_start_pending(void)
{
  pthread_mutex_lock(&lock);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (!running && !closing && (entries || calls))
    st = start();
  else if (!running)
    atomic_store_explicit(&sig_async_pending, false, memory_order_relaxed);
  pthread_mutex_unlock(&lock);
  static atomic_bool said;
  if (st != HSA_STATUS_SUCCESS && !atomic_exchange(&said, true))
    fprintf(stderr, "hsa-runtime64: cannot start the thread that reports queue errors and GPU "
                    "faults (%s); trying again at the next doorbell.\n",
            st == HSA_STATUS_ERROR_OUT_OF_RESOURCES ? "no thread" : "no signal event");
}

bool sig_async_cancel(hsa_signal_t signal, void *arg)
{
  pthread_mutex_lock(&lock);
  bool idle = !running;
  if (idle) {
    for (struct entry **l = &entries; *l;) {
      struct entry *e = *l;
      if (e->signal.handle == signal.handle && e->arg == arg) {
        *l = e->next;
        entry_count--;
        free(e);
      } else {
        l = &e->next;
      }
    }
    if (!entries && !calls)
      atomic_store_explicit(&sig_async_pending, false, memory_order_relaxed);
  }
  pthread_mutex_unlock(&lock);
  return idle;
}

void sig_async_stop(void)
{
  pthread_mutex_lock(&lock);
  bool was = running;
  stopping = true;
  closing = true;
  pthread_mutex_unlock(&lock);
  if (was) {
    poke();
    if (pthread_equal(pthread_self(), thread))
      pthread_detach(thread);   /* hsa_shut_down from a handler: the loop ends on return */
    else
      pthread_join(thread, NULL);
  }
  pthread_mutex_lock(&lock);
  while (entries) {
    struct entry *e = entries;
    entries = e->next;
    free(e);
  }
  entry_count = 0;
  while (calls) {   /* functions not run yet: the runtime is closing (ROCR drops them too) */
    struct call *c = calls;
    calls = c->next;
    free(c);
  }
  calls_tail = &calls;
  if (was)
    sig_destroy_internal(wake);
  wake.handle = 0;
  running = false;
  closing = false;
  atomic_store_explicit(&sig_async_pending, false, memory_order_relaxed);
  pthread_mutex_unlock(&lock);
}

static hsa_status_t add_call(void (*callback)(void *arg), void *arg, bool now)
{
  hsa_status_t st = sig_ensure_init();
  if (st != HSA_STATUS_SUCCESS)
    return st;
  if (!callback)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct call *c = malloc(sizeof *c);
  if (!c)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  c->next = NULL;
  c->fn = callback;
  c->arg = arg;
  pthread_mutex_lock(&lock);
  st = now ? start() : HSA_STATUS_SUCCESS;
  bool live = running;
  if (st == HSA_STATUS_SUCCESS) {
    *calls_tail = c;
    calls_tail = &c->next;
    if (!live)
      atomic_store_explicit(&sig_async_pending, true, memory_order_relaxed);
  }
  pthread_mutex_unlock(&lock);
  if (st != HSA_STATUS_SUCCESS)
    free(c);
  else if (live)
    poke();
  return st;
}

/* Runs callback(arg) once on the handler thread (ROCR's async events thread), soon. */
hsa_status_t hsa_amd_async_function(void (*callback)(void *arg), void *arg)
{
  return add_call(callback, arg, true);
}

hsa_status_t sig_async_function_deferred(void (*callback)(void *arg), void *arg)
{
  return add_call(callback, arg, false);
}
