/* SPDX-License-Identifier: MIT */
/* internal.h — what the files of src/signals share: the host-side record of each signal and
 * the registry that turns a handle (the address of an amd_signal_t) back into it.
 *
 * Signal slots live in one arena: address space reserved for the life of the process, cut
 * into chunks of SIG_CHUNK_SIGNALS amd_signal_t committed on demand, each with its array of
 * sig_obj records. Neither the pages nor the records are ever freed (hsa_shut_down only drops
 * the driver's registration of the pages), so a handle turns into its record by one subtract
 * and compare, a stale handle never touches freed memory, and the records keep what tells a
 * destroyed signal from a live one across hsa_shut_down/hsa_init.
 *
 * Freed slots wait in a FIFO quarantine: a slot is handed out again only after
 * SIG_QUARANTINE others were freed after it, so a stale handle finds its own destroyed slot
 * (refused, and named once on stderr) rather than a newer signal, in all but extreme churn.
 * IPC signals (a page of shared memory each) are outside the arena and found by a hash of
 * their page. */
#ifndef SIGNALS_INTERNAL_H
#define SIGNALS_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "kfd/event.h"
#include "signals/signal.h"

enum {
  SIG_F_INTERRUPT = 0x1u,   /* has a KFD signal event that wakes blocked waiters */
  SIG_F_DOORBELL = 0x2u,    /* stores ring hardware_doorbell_ptr */
  SIG_F_IPC = 0x4u,         /* lives in shareable memory (created with HSA_AMD_SIGNAL_IPC) */
  SIG_F_ATTACHED = 0x8u,    /* another process's IPC signal mapped here */
  SIG_F_INTERNAL = 0x10u,   /* created by the runtime for itself */
};

enum { SIG_FREE = 0, SIG_LIVE = 1, SIG_DYING = 2 };

/* 128 bytes, so a slot's record is found with shifts (sig_obj_any) */
struct sig_obj {
  _Alignas(128) _Atomic uint32_t state;   /* SIG_FREE / SIG_LIVE / SIG_DYING */
  _Atomic uint32_t gen;       /* bumped on each destroy: 0 = the slot never held a signal */
  /* Atomic although fixed while live: a stale handle may be used while its slot is reborn,
   * and that must be a race on values, not undefined behaviour. */
  _Atomic uint32_t flags;     /* SIG_F_*; a doorbell slot stays one for good (own FIFO) */
  _Atomic uint32_t waiters;   /* threads inside a wait on it (stores set the event only then) */
  _Atomic bool has_event;     /* event_id is this signal's KFD event */
  _Atomic uint32_t event_id;
  _Atomic uint32_t said;      /* gen + 1 once a use of the destroyed slot was reported */
  /* KFD event of a lone waiter (wait.c) blocked on this signal without slices, 0 if none: a
   * thread that starts waiting on the signal sets it, so that waiter goes back to slices */
  _Atomic uint32_t kick;
  _Atomic int64_t shadow;     /* doorbell signals: the last value written */
  amd_signal_t *amd;
  struct sig_obj *next_free;  /* free FIFO (lock held) */
  struct kfd_event event;     /* the event itself, touched with the lock held only */
  /* IPC: the shared mapping (outside the arena) */
  int ipc_fd;
  void *ipc_map;
  size_t ipc_size;
  uint64_t ipc_bo;            /* the userptr BO that maps the page on the GPUs, 0 if none */
};

/* Arena geometry: 256 slots of 64 bytes a chunk, up to 2^20 signals (64 MiB of addresses). */
#define SIG_CHUNK_SIGNALS 256u
#define SIG_CHUNK_SHIFT 14
#define SIG_ARENA_CHUNKS 4096u
/* Quarantine lengths (slots freed after a slot before it is reused): bounded memory of
 * 64 bytes + one record per slot. Doorbell slots follow the queues' own quarantine. */
#define SIG_QUARANTINE 4096u
#define SIG_QUARANTINE_DOORBELL 512u

_Static_assert(sizeof(amd_signal_t) == 64, "a slot is one amd_signal_t");
_Static_assert(sizeof(struct sig_obj) == 2 * sizeof(amd_signal_t), "record = 2 slots");
_Static_assert(SIG_CHUNK_SIGNALS * sizeof(amd_signal_t) == 1u << SIG_CHUNK_SHIFT, "chunk size");

struct sig_chunk {
  struct sig_obj objs[SIG_CHUNK_SIGNALS];
  amd_signal_t *slots;        /* the chunk's SIG_CHUNK_SIGNALS slots in the arena */
  uint32_t handed;            /* slots ever taken, from the first: the records written */
  bool registered;            /* the open runtime registered the pages with the driver */
};

/* Module state (signal.c). */
struct sig_state {
  atomic_bool ready;          /* sig_ensure_init ran since the last shutdown */
  bool interrupts;            /* HSA_ENABLE_INTERRUPT != 0 and a device to ask for events */
  const struct kfd_device *dev;
  uint64_t ts_freq;           /* HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY */
};
extern struct sig_state sig_g;

/* The store/waiter handshake (sig_notify, sig_wait_objs) is a Dekker pair: the storer writes
 * the value then reads the waiter count, the waiter counts itself then re-reads the value.
 * With the kernel's membarrier (private expedited, registered at hsa_init, or failing that
 * with the first signal event, always before any signal has an event),
 * the waiter's side takes the whole cost before it blocks (sig_heavy_barrier: every running
 * thread of the process passes a full barrier) and stores need no fence of their own; until
 * then, or without it, both sides fence. */
extern __attribute__((visibility("hidden"))) _Atomic bool sig_light_stores;
void sig_heavy_barrier(void);
/* Whether waits give the kernel event ages (KFD 1.14+) and so block without the 10 ms slices
 * (wait.c); below 1.14 they keep the slices. */
bool sig_wait_uses_event_age(const struct kfd_device *dev);
/* Registers the process for membarrier, once: by sig_open at hsa_init while the process
 * likely has one thread (then the kernel only fences; with threads it waits a grace period,
 * 0.1-3 ms asleep on a loaded machine), else when the first signal gets an event, the first
 * whose stores read the waiter count. */
void sig_light_stores_init(void);

/* The arena (signal.c): chunks are published by advancing `used` with release. Hidden, so
 * the hot path reaches them without the GOT. */
#define SIG_HIDDEN __attribute__((visibility("hidden")))
extern SIG_HIDDEN _Atomic uintptr_t sig_arena_base;
extern SIG_HIDDEN _Atomic uintptr_t sig_arena_used;   /* bytes of committed chunks */
extern SIG_HIDDEN struct sig_chunk *sig_chunk_tab[SIG_ARENA_CHUNKS];

/* An IPC record by handle, NULL if none (ipc.c; the rare path of sig_obj_any). */
struct sig_obj *sig_obj_ipc(hsa_signal_t s);

/* The record of an arena slot in any state, NULL for any other handle (lock-free, O(1): a
 * subtract, a compare and two shifts; inline because every value operation starts here). */
static inline struct sig_obj *sig_obj_arena(hsa_signal_t s)
{
  uintptr_t used = atomic_load_explicit(&sig_arena_used, memory_order_acquire);
  uintptr_t off = (uintptr_t)s.handle - atomic_load_explicit(&sig_arena_base, memory_order_relaxed);
  if (__builtin_expect(off >= used || (off & (sizeof(amd_signal_t) - 1)), 0))
    return NULL;
  /* records are twice a slot's size: the slot's offset in its chunk, doubled */
  struct sig_obj *o = (struct sig_obj *)((char *)sig_chunk_tab[off >> SIG_CHUNK_SHIFT] +
                                         2 * (off & ((1u << SIG_CHUNK_SHIFT) - 1)));
  if (!o)
    __builtin_unreachable();   /* a published chunk: saves the hot path a test */
  return o;
}
/* The live arena signal behind a handle, NULL otherwise (IPC signals included): the value
 * operations' fast path, whose misses go to an out-of-line slow path. */
static inline struct sig_obj *sig_obj_fast(hsa_signal_t s)
{
  struct sig_obj *o = sig_obj_arena(s);
  if (__builtin_expect(!o, 0) ||
      atomic_load_explicit(&o->state, memory_order_acquire) != SIG_LIVE)
    return NULL;
  return o;
}
/* The record of a handle in any state, NULL if foreign. */
static inline struct sig_obj *sig_obj_any(hsa_signal_t s)
{
  struct sig_obj *o = sig_obj_arena(s);
  return o ? o : sig_obj_ipc(s);
}
/* The live record behind a handle, NULL otherwise. */
static inline struct sig_obj *sig_obj_of(hsa_signal_t s)
{
  struct sig_obj *o = sig_obj_any(s);
  if (!o || atomic_load_explicit(&o->state, memory_order_acquire) != SIG_LIVE)
    return NULL;
  return o;
}
static inline hsa_signal_t sig_handle_of(const struct sig_obj *o)
{
  hsa_signal_t h = {(uint64_t)(uintptr_t)o->amd};
  return h;
}

/* stale.c: a handle that is not a live signal reached a call that cannot return a status.
 * The first such use of each handle is named on stderr (op = the API function). */
void sig_stale(const char *op, hsa_signal_t s);
/* What loads, exchanges and CAS return then: INT64_MAX, "not done" for a completion signal
 * (which counts down to 0), so a client polling for 0 does not take its work as finished. */
#define SIG_STALE_VALUE INT64_MAX
hsa_signal_value_t sig_stale_value(const char *op, hsa_signal_t s);
/* What a wait returns then, at once: a value that fails `cond` against `cmp` (none exists
 * for GTE INT64_MIN, which every value meets). */
hsa_signal_value_t sig_unmet(hsa_signal_condition_t cond, hsa_signal_value_t cmp);

/* Allocates a slot (flags: SIG_F_INTERRUPT asks for an event, dropped when none can be had;
 * SIG_F_DOORBELL takes `doorbell` and `queue`, set before the signal goes live). Returns
 * NULL when out of memory. The signal is live on return. */
struct sig_obj *sig_obj_new(int64_t initial, uint32_t flags, volatile uint64_t *doorbell,
                            amd_queue_t *queue);
/* Registers an IPC signal at `amd` (memory mapped at `map`, GPU BO `bo`). */
struct sig_obj *sig_obj_adopt(amd_signal_t *amd, uint32_t flags, int fd, void *map, size_t size,
                              uint64_t bo);
hsa_status_t sig_obj_destroy(struct sig_obj *o);

/* A value change on o: wake blocked waiters (interrupt signals with waiters only). */
void sig_notify(struct sig_obj *o);
/* What a change calls: sig_notify only when a waiter may need the event, decided inline (no
 * call for a signal without event, nor, with light stores, for one nobody waits on). */
static inline void sig_changed(struct sig_obj *o)
{
  if (!atomic_load_explicit(&o->has_event, memory_order_relaxed))
    return;
  if (atomic_load_explicit(&sig_light_stores, memory_order_relaxed)) {
    atomic_signal_fence(memory_order_seq_cst);
    if (!atomic_load_explicit(&o->waiters, memory_order_relaxed))
      return;
  }
  sig_notify(o);
}

/* Monotonic time in ns (CLOCK_MONOTONIC, as WAIT_EVENTS times out). */
static inline uint64_t sig_now_ns(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}
/* A timeout in HSA timestamp ticks as nanoseconds (UINT64_MAX stays "forever"). */
uint64_t sig_ticks_to_ns(uint64_t ticks);

static inline bool sig_cond_met(hsa_signal_condition_t c, int64_t v, int64_t cmp)
{
  switch (c) {
  case HSA_SIGNAL_CONDITION_EQ: return v == cmp;
  case HSA_SIGNAL_CONDITION_NE: return v != cmp;
  case HSA_SIGNAL_CONDITION_LT: return v < cmp;
  case HSA_SIGNAL_CONDITION_GTE: return v >= cmp;
  }
  return false;
}
static inline bool sig_cond_valid(hsa_signal_condition_t c)
{
  return c == HSA_SIGNAL_CONDITION_EQ || c == HSA_SIGNAL_CONDITION_NE ||
         c == HSA_SIGNAL_CONDITION_LT || c == HSA_SIGNAL_CONDITION_GTE;
}

/* The value a waiter compares: the doorbell shadow for doorbell signals. */
static inline int64_t sig_value_relaxed(struct sig_obj *o)
{
  if (o->flags & SIG_F_DOORBELL)
    return atomic_load_explicit(&o->shadow, memory_order_relaxed);
  return atomic_load_explicit((_Atomic int64_t *)(uintptr_t)&o->amd->value,
                              memory_order_relaxed);
}

/* wait.c: the one wait loop. Waits until one of the n signals meets its condition or the
 * deadline (ns of sig_now_ns, UINT64_MAX = never) passes. Returns the index met, or n on
 * timeout; *value gets that signal's value (index 0's on timeout). *dead (if given) is set
 * to the index of a signal found destroyed, which also ends the wait (returned as n). */
uint32_t sig_wait_objs(uint32_t n, const hsa_signal_t *handles,
                       const hsa_signal_condition_t *conds, const hsa_signal_value_t *values,
                       uint64_t timeout_ns, hsa_wait_state_t hint, hsa_signal_value_t *value,
                       uint32_t *dead);
/* The same for a waiter whose handles[0] is a signal with an event that only it ever waits on
 * (the async handler's and the copy workers' own wake-up signals). Below KFD 1.14 it blocks
 * without the 10 ms slices while no other thread waits on any of its signals: a thread that
 * starts waiting on one of them sets handles[0]'s event, so the lone waiter looks again and
 * slices while it has company (see wait.c). */
uint32_t sig_wait_objs_lone(uint32_t n, const hsa_signal_t *handles,
                            const hsa_signal_condition_t *conds, const hsa_signal_value_t *values,
                            uint64_t timeout_ns, hsa_signal_value_t *value, uint32_t *dead);

/* event_page.c: on dGPUs, a GTT page for the kernel's event slots (once per process). */
struct core_runtime;
/* True when the CP can write signal mailboxes: the process's event page is ours, a GPU-mapped
 * buffer (or the GPUs are APUs, which reach the kernel's own). Makes and hands it over when
 * not yet done; false when the driver refused, and then no signal event may be created. */
bool sig_event_page_ready(const struct core_runtime *rt);
/* group.c */
void sig_groups_free(void);
/* async.c */
void sig_async_stop(void);
/* Deferred handlers wait for the handler thread (async.c): the doorbell stores (ops.c) and
 * waits about to block (wait.c) then call sig_async_kick. */
extern SIG_HIDDEN _Atomic bool sig_async_pending;
/* Starts the handler thread if deferred work waits for it; one relaxed load otherwise (it sits
 * on every doorbell store). */
static inline void sig_async_kick(void)
{
  if (__builtin_expect(atomic_load_explicit(&sig_async_pending, memory_order_relaxed), 0))
    sig_async_start_pending();
}
/* ipc.c: an IPC signal in shareable memory; release closes what the record holds open
 * (never the mapping: stale handles may still reach it until sig_shutdown unmaps it). */
hsa_status_t sig_ipc_create(hsa_signal_value_t initial, hsa_signal_t *out);
void sig_ipc_release(struct sig_obj *o);
/* Unregisters the page from the GPUs and unmaps it (sig_shutdown). */
void sig_ipc_unmap(struct sig_obj *o);
/* The IPC records' table: insert (false when full), and forget them all (sig_shutdown, which
 * then frees the records; a handle from before is foreign). Lock held by the caller. */
bool sig_ipc_insert(struct sig_obj *o);
void sig_ipc_reset(void (*each)(struct sig_obj *o));

#endif
