/* SPDX-License-Identifier: MIT */
/* wait.c — waiting on signals: hsa_signal_wait_*, hsa_amd_signal_wait_any and the one loop
 * behind them (groups and the async handler use it too).
 *
 * The loop spins for 200 us (a few null-kernel latencies, as ROCR; a BLOCKED wait yields the
 * CPU at its first turn and then at each turn while other threads want the CPU, so a producer
 * thread sharing it, such as a copy engine that is a CPU thread, is not held off for the whole
 * spin; with the CPU to itself it spins without system calls) and then, unless the hint
 * says ACTIVE: blocks in WAIT_EVENTS when every signal has a KFD event, else sleeps 20 us at
 * a time. WAIT_EVENTS takes whole milliseconds, so it gets the remaining time rounded down
 * and the last fraction is slept in small steps: a wait never returns before its deadline
 * and not much after it. Events are auto-reset and set by stores only while a waiter is
 * counted. Before KFD 1.14 a second waiter on the same event could lose its wake-up to the
 * first (the kernel has no event age), so it blocks for at most 1 ms at a time, and every
 * blocking wait for at most WAIT_SLICE_MS. From 1.14 the wait hands the kernel the age of each
 * event it last saw (1 at first): a set since then returns at once, so no wake-up is lost and
 * the wait blocks until its deadline.
 *
 * The runtime's own long-lived waiters (the async handler thread, the copy engines' workers)
 * would wake 100 times a second on those slices while the process is idle, which cost an idle
 * process 10-17 ms of CPU a second. They wait "lone" (sig_wait_objs_lone): their first signal
 * is their own, one nobody else waits on. While they are the only waiter of every signal they
 * watch, no one can take their wake-up, so they block until their deadline. Each such signal
 * then names the lone waiter's own event (`kick`); a thread that starts waiting on it sets
 * that event after counting itself, so the lone waiter wakes, sees the company and slices
 * again until it is alone. */
#include "signals/internal.h"

#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hsa_ext_amd.h"

#define SPIN_NS 200000ull
/* A BLOCKED wait's spin yields the CPU at its first turn, and again at every turn while
 * other threads want the CPU: a producer that shares it (hsa-sim's SDMA engine, a host thread
 * storing the signal) then runs at once. Spinning 20 us first held such a producer off for all
 * of it: hsa-sim's SDMA engine started a 1 MiB copy 22.5 us after its doorbell (bench/README.md,
 * copy_bandwidth, third pass). A yield that comes back within SOLO_YIELD_NS ran nothing else
 * (a bare sched_yield takes ~1.4 us on the 2-vCPU VM, one that lets a polling thread run one
 * round ~4.5 us): no other thread wants this CPU, so the wait spins without system calls for
 * SOLO_SPIN_NS before it looks again. Each yield is a system call during which a store goes
 * unseen: yielding at every turn, a copy's waiter saw its signal 0.2-3.6 us late where ROCR's
 * (which spins without yielding) saw it in 0.1 us (bench/README.md, copy_bandwidth, fourth
 * pass). */
#define SOLO_YIELD_NS 3000ull
#define SOLO_SPIN_NS 20000ull
#define WAIT_SLICE_MS 10u   /* longest single WAIT_EVENTS: see the lost wake-up below */
#define NAP_NS 20000ull
#define SMALL 16

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

_Atomic bool sig_light_stores;

/* Registered once for the process (the kernel keeps it): stores go light from then on. */
static void register_membarrier(void)
{
  long r = syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
  atomic_store(&sig_light_stores, r == 0);
}

void sig_light_stores_init(void)
{
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, register_membarrier);
}

/* Should the kernel refuse a barrier after registering, a store could miss a waiter that just
 * counted itself; the waiter then wakes at its next slice (WAIT_SLICE_MS) and sees the value. */
void sig_heavy_barrier(void)
{
  if (!atomic_load_explicit(&sig_light_stores, memory_order_relaxed) ||
      syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
    atomic_thread_fence(memory_order_seq_cst);
}

bool sig_wait_uses_event_age(const struct kfd_device *dev)
{
  return dev && kfd_has_event_age(dev);
}

static void nap(uint64_t ns)
{
  struct timespec t = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};
  nanosleep(&t, NULL);
}

/* A lone waiter (sig_wait_objs_lone) before it blocks: publishes the event that wakes it on
 * each of its other signals, then true when it is their only waiter. The store of `kick` and
 * the load of `waiters` here, the count and the load of `kick` in a new waiter (wait_objs),
 * are sequentially consistent: either the lone waiter sees the newcomer counted, or the
 * newcomer sees the kick and sets it. */
static bool alone_on(struct sig_obj *const *objs, uint32_t n, uint32_t own)
{
  for (uint32_t i = 1; i < n; i++)
    atomic_store(&objs[i]->kick, own);
  for (uint32_t i = 0; i < n; i++)
    if (atomic_load(&objs[i]->waiters) != 1)
      return false;
  return true;
}

static void unkick(struct sig_obj *const *objs, uint32_t n, uint32_t own)
{
  for (uint32_t i = 1; i < n; i++) {
    uint32_t k = own;
    atomic_compare_exchange_strong(&objs[i]->kick, &k, 0);
  }
}

static uint32_t wait_objs(uint32_t n, const hsa_signal_t *handles,
                          const hsa_signal_condition_t *conds, const hsa_signal_value_t *values,
                          uint64_t timeout_ns, hsa_wait_state_t hint, hsa_signal_value_t *value,
                          uint32_t *dead, bool lone)
{
  /* fast path: a condition that already holds needs no bookkeeping and no clock */
  for (uint32_t i = 0; i < n; i++) {
    struct sig_obj *o = sig_obj_of(handles[i]);
    if (!o)
      break;   /* the slow path reports it */
    int64_t v = sig_value_relaxed(o);
    if (sig_cond_met(conds[i], v, values[i])) {
      *value = v;
      return i;
    }
  }
  struct sig_obj *small_objs[SMALL];
  uint32_t small_ids[SMALL], small_gens[SMALL];
  uint64_t small_ages[SMALL];
  struct sig_obj **objs = small_objs;
  uint32_t *ids = small_ids, *gens = small_gens;
  uint64_t *ages = small_ages;
  if (n > SMALL) {
    objs = malloc(n * sizeof *objs);
    ids = malloc(n * sizeof *ids);
    gens = malloc(n * sizeof *gens);
    ages = malloc(n * sizeof *ages);
    if (!objs || !ids || !gens || !ages) {
      free(objs);
      free(ids);
      free(gens);
      free(ages);
      return n;
    }
  }
  for (uint32_t i = 0; i < n; i++)
    ages[i] = 1;   /* what a new event's age is: the first wait returns if it was ever set */
  bool aged = sig_wait_uses_event_age(sig_g.dev);
  uint32_t counted = 0, prior = 0, nids = 0, result = n, kicked = 0, own = 0;
  bool can_block = hint != HSA_WAIT_STATE_ACTIVE && sig_g.interrupts;
  for (; counted < n; counted++) {
    struct sig_obj *o = sig_obj_of(handles[counted]);
    if (!o) {
      if (dead)
        *dead = counted;
      *value = 0;
      goto out;
    }
    objs[counted] = o;
    gens[counted] = atomic_load_explicit(&o->gen, memory_order_acquire);
    uint32_t p = atomic_fetch_add(&o->waiters, 1);
    prior = p > prior ? p : prior;
    /* a lone waiter blocks on this one without slices: it must know it has company */
    uint32_t lone_ev = atomic_load(&o->kick);
    if (lone_ev && lone_ev != kicked) {
      kfd_event_set(sig_g.dev, lone_ev);
      kicked = lone_ev;
    }
    if (!atomic_load_explicit(&o->has_event, memory_order_relaxed)) {
      can_block = false;
    } else {
      uint32_t id = atomic_load_explicit(&o->event_id, memory_order_relaxed);
      uint32_t k = 0;
      while (k < nids && ids[k] != id)
        k++;
      if (k == nids)
        ids[nids++] = id;
    }
  }
  /* pairs with sig_notify: either the storer sees us counted or we see its value (while
   * spinning we re-read the value anyway; before blocking, the heavy barrier below) */
  atomic_thread_fence(memory_order_seq_cst);
  bool fenced = false;
  if (lone && !aged && can_block && atomic_load_explicit(&objs[0]->has_event, memory_order_relaxed))
    own = atomic_load_explicit(&objs[0]->event_id, memory_order_relaxed);

  uint64_t start = sig_now_ns(), quiet_until = 0;
  uint64_t deadline = timeout_ns >= UINT64_MAX - start ? UINT64_MAX : start + timeout_ns;
  for (;;) {
    for (uint32_t i = 0; i < n; i++) {
      struct sig_obj *o = objs[i];
      int64_t v = sig_value_relaxed(o);
      /* destroyed meanwhile (the generation tells a reborn slot from the one we counted on) */
      if (atomic_load_explicit(&o->state, memory_order_acquire) != SIG_LIVE ||
          atomic_load_explicit(&o->gen, memory_order_relaxed) != gens[i]) {
        if (dead)
          *dead = i;
        *value = v;
        goto out;
      }
      if (sig_cond_met(conds[i], v, values[i])) {
        *value = v;
        result = i;
        goto out;
      }
    }
    uint64_t now = sig_now_ns();
    if (now >= deadline) {
      *value = sig_value_relaxed(objs[0]);
      goto out;
    }
    if (hint == HSA_WAIT_STATE_ACTIVE || now - start < SPIN_NS) {
      /* A waiter that may block spins politely past the first microseconds: a thread that
       * shares this CPU (the producer of the value when it is a CPU thread: a copy engine,
       * a simulated GPU, a host thread's store) gets to run at once instead of after our
       * time slice. ACTIVE asked to spin: it keeps the CPU. */
      if (hint == HSA_WAIT_STATE_ACTIVE || now < quiet_until) {
        cpu_relax();
      } else {
        sched_yield();
        uint64_t back = sig_now_ns();
        if (back - now < SOLO_YIELD_NS)
          quiet_until = back + SOLO_SPIN_NS;
      }
      continue;
    }
    uint64_t left = deadline - now;
    if (can_block && !fenced) {
      /* what this wait may be waiting for could be a queue error or a GPU fault that only
       * the handler thread reports: a deferred one starts now (async.c) */
      sig_async_kick();
      /* stores may not have fenced: make them visible, then look at the values again */
      sig_heavy_barrier();
      fenced = true;
      continue;
    }
    if (can_block) {
      uint64_t ms = deadline == UINT64_MAX ? KFD_EVENT_TIMEOUT_INFINITE : left / 1000000u;
      /* KFD before 1.14 has no event age: a store that sets the event between our value
       * check and WAIT_EVENTS, while another thread waits on the same event (the async
       * handler), leaves the event unsignaled and would block us forever. So no wait is
       * longer than a slice; a lost wake-up costs at most that. (ROCR 5.2.3 hangs there.) */
      /* A lone waiter alone on its signals cannot lose a wake-up: no one else takes its
       * events, and a newcomer sets its own event (alone_on). */
      bool sliced = !aged && !(own && alone_on(objs, n, own));
      if (sliced && ms > WAIT_SLICE_MS)
        ms = WAIT_SLICE_MS;
      if (sliced && prior && ms > 1)
        ms = 1;
      if (ms >= KFD_EVENT_TIMEOUT_INFINITE && deadline != UINT64_MAX)
        ms = KFD_EVENT_TIMEOUT_INFINITE - 1;
      if (ms) {
        uint32_t res;
        int r = aged ? kfd_event_wait_age(sig_g.dev, ids, ages, nids, (uint32_t)ms, &res)
                     : kfd_event_wait(sig_g.dev, ids, nids, false, (uint32_t)ms, &res);
        if (r && r != -EINTR && r != -EIO)
          can_block = false;   /* the kernel refuses: poll instead of spinning on errors */
        continue;
      }
    }
    nap(left < NAP_NS ? left : NAP_NS);
  }
out:
  if (own)
    unkick(objs, n, own);
  for (uint32_t i = 0; i < counted; i++)
    atomic_fetch_sub(&objs[i]->waiters, 1);
  if (objs != small_objs) {
    free(objs);
    free(ids);
    free(gens);
    free(ages);
  }
  return result;
}

uint32_t sig_wait_objs(uint32_t n, const hsa_signal_t *handles,
                       const hsa_signal_condition_t *conds, const hsa_signal_value_t *values,
                       uint64_t timeout_ns, hsa_wait_state_t hint, hsa_signal_value_t *value,
                       uint32_t *dead)
{
  return wait_objs(n, handles, conds, values, timeout_ns, hint, value, dead, false);
}

uint32_t sig_wait_objs_lone(uint32_t n, const hsa_signal_t *handles,
                            const hsa_signal_condition_t *conds, const hsa_signal_value_t *values,
                            uint64_t timeout_ns, hsa_signal_value_t *value, uint32_t *dead)
{
  return wait_objs(n, handles, conds, values, timeout_ns, HSA_WAIT_STATE_BLOCKED, value, dead,
                   true);
}

/* Everything but a condition already met on a live arena signal. A wait on a signal that is
 * not live, or that dies while waited on, returns at once with a value failing its condition
 * (stale.c), never one that says the work is done. */
__attribute__((noinline)) static hsa_signal_value_t wait_slow(const char *op, hsa_signal_t s,
                                                              hsa_signal_condition_t cond,
                                                              hsa_signal_value_t cmp,
                                                              uint64_t timeout_hint,
                                                              hsa_wait_state_t hint)
{
  if (!sig_cond_valid(cond))
    return 0;
  struct sig_obj *o = sig_obj_of(s);
  if (!o) {
    sig_stale(op, s);
    return sig_unmet(cond, cmp);
  }
  hsa_signal_value_t v = sig_value_relaxed(o);
  if (sig_cond_met(cond, v, cmp))
    return v;
  uint32_t dead = UINT32_MAX;
  sig_wait_objs(1, &s, &cond, &cmp, sig_ticks_to_ns(timeout_hint), hint, &v, &dead);
  if (dead != UINT32_MAX) {
    sig_stale(op, s);
    return sig_unmet(cond, cmp);
  }
  return v;
}

/* Already met: no clock, no conversion, no bookkeeping, no stack frame. An invalid condition
 * is never met, so it goes the slow way too (which answers 0). */
#define WAIT(name, fence)                                                                \
  hsa_signal_value_t name(hsa_signal_t s, hsa_signal_condition_t cond,                   \
                          hsa_signal_value_t cmp, uint64_t timeout_hint,                 \
                          hsa_wait_state_t hint)                                         \
  {                                                                                      \
    struct sig_obj *o = sig_obj_fast(s);                                                 \
    hsa_signal_value_t v;                                                                \
    if (__builtin_expect(!o || !sig_cond_met(cond, v = sig_value_relaxed(o), cmp), 0))   \
      v = wait_slow(__func__, s, cond, cmp, timeout_hint, hint);                         \
    if (fence)                                                                           \
      atomic_thread_fence(memory_order_acquire);                                         \
    return v;                                                                            \
  }
WAIT(hsa_signal_wait_relaxed, 0)
WAIT(hsa_signal_wait_scacquire, 1)
WAIT(hsa_signal_wait_acquire, 1)

hsa_signal_value_t sig_wait(hsa_signal_t s, hsa_signal_condition_t cond,
                            hsa_signal_value_t value, uint64_t timeout_ns)
{
  if (!sig_cond_valid(cond) || !sig_obj_of(s))
    return 0;
  hsa_signal_value_t v = 0;
  sig_wait_objs(1, &s, &cond, &value, timeout_ns, HSA_WAIT_STATE_BLOCKED, &v, NULL);
  atomic_thread_fence(memory_order_acquire);
  return v;
}

static uint32_t wait_any(const char *op, uint32_t signal_count, const hsa_signal_t *signals,
                         const hsa_signal_condition_t *conds, const hsa_signal_value_t *values,
                         uint64_t timeout_ns, hsa_wait_state_t wait_hint,
                         hsa_signal_value_t *satisfying_value, bool lone)
{
  if (sig_ensure_init() != HSA_STATUS_SUCCESS || !signal_count || !signals || !conds || !values)
    return UINT32_MAX;
  for (uint32_t i = 0; i < signal_count; i++) {
    if (!sig_cond_valid(conds[i]))
      return UINT32_MAX;
    if (!sig_obj_of(signals[i])) {
      sig_stale(op, signals[i]);
      return UINT32_MAX;
    }
  }
  hsa_signal_value_t v = 0;
  uint32_t dead = UINT32_MAX;
  uint32_t i = wait_objs(signal_count, signals, conds, values, timeout_ns, wait_hint, &v, &dead,
                         lone);
  atomic_thread_fence(memory_order_acquire);
  if (dead < signal_count)
    sig_stale(op, signals[dead]);
  if (i >= signal_count)
    return UINT32_MAX;
  if (satisfying_value)
    *satisfying_value = v;
  return i;
}

uint32_t hsa_amd_signal_wait_any(uint32_t signal_count, hsa_signal_t *signals,
                                 hsa_signal_condition_t *conds, hsa_signal_value_t *values,
                                 uint64_t timeout_hint, hsa_wait_state_t wait_hint,
                                 hsa_signal_value_t *satisfying_value)
{
  return wait_any(__func__, signal_count, signals, conds, values, sig_ticks_to_ns(timeout_hint),
                  wait_hint, satisfying_value, false);
}

uint32_t sig_wait_any_lone(uint32_t n, const hsa_signal_t *signals,
                           const hsa_signal_condition_t *conds, const hsa_signal_value_t *values,
                           uint64_t timeout_ns)
{
  return wait_any("hsa_amd_signal_wait_any", n, signals, conds, values, timeout_ns,
                  HSA_WAIT_STATE_BLOCKED, NULL, true);
}
