/* SPDX-License-Identifier: MIT */
/* ops.c — the value operations: load, store, silent store, add, subtract, and, or, xor,
 * exchange, cas, each in the memory orders their names say (the deprecated _acquire /
 * _release / _acq_rel spellings are the same orders as _scacquire / _screlease /
 * _scacq_screl). User signals operate atomically on amd_signal_t.value; a change on an
 * interrupt signal sets its KFD event when someone is blocked on it. Doorbell signals keep
 * the value in the record and write every new value to the hardware doorbell, with release
 * order whatever the name, since the doorbell tells the CP to read packets written before.
 * A handle that is not a live signal does nothing and is named once on stderr (stale.c):
 * these calls cannot report errors; loads, exchanges and CAS then return SIG_STALE_VALUE. */
#include "signals/internal.h"

#define VAL(o) ((_Atomic int64_t *)(uintptr_t)&(o)->amd->value)

/* After the CP has its doorbell: a queue's error handler, listed at its creation, needs the
 * handler thread from now on (async.c), started here the first time. */
static void ring(struct sig_obj *o, int64_t v)
{
  volatile uint64_t *db = __atomic_load_n(&o->amd->hardware_doorbell_ptr, __ATOMIC_RELAXED);
  atomic_store_explicit((_Atomic uint64_t *)(uintptr_t)db, (uint64_t)v, memory_order_release);
  sig_async_kick();
}

/* two's complement wrap, as the atomic operations do, without signed overflow */
static inline int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t wrap_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }

/* ---- the slow path: everything but a live signal of the arena -------------------------
 * Out of line, reached by a tail call, so the fast paths need no stack frame. Live IPC
 * signals (never doorbells) are operated on here in sequentially consistent order, which
 * is at least the order asked; an arena slot that was not live is stale (stale.c). */
enum slow_op { OP_STORE, OP_SILENT, OP_ADD, OP_SUB, OP_AND, OP_OR, OP_XOR, OP_XCHG, OP_LOAD };

static struct sig_obj *slow_live(hsa_signal_t s)
{
  struct sig_obj *o = sig_obj_arena(s) ? NULL : sig_obj_ipc(s);
  if (o && atomic_load_explicit(&o->state, memory_order_acquire) == SIG_LIVE)
    return o;
  return NULL;
}

__attribute__((noinline)) static int64_t slow_op(const char *fn, hsa_signal_t s,
                                                 enum slow_op op, int64_t v)
{
  struct sig_obj *o = slow_live(s);
  if (!o)
    return sig_stale_value(fn, s);
  _Atomic int64_t *p = VAL(o);
  int64_t old = 0;
  switch (op) {
  case OP_LOAD: return atomic_load(p);
  case OP_STORE:
  case OP_SILENT: atomic_store(p, v); break;
  case OP_ADD: old = atomic_fetch_add(p, v); break;
  case OP_SUB: old = atomic_fetch_sub(p, v); break;
  case OP_AND: old = atomic_fetch_and(p, v); break;
  case OP_OR: old = atomic_fetch_or(p, v); break;
  case OP_XOR: old = atomic_fetch_xor(p, v); break;
  case OP_XCHG: old = atomic_exchange(p, v); break;
  }
  if (op != OP_SILENT)
    sig_changed(o);
  return old;
}

__attribute__((noinline)) static int64_t slow_cas(const char *fn, hsa_signal_t s,
                                                  int64_t expected, int64_t v)
{
  struct sig_obj *o = slow_live(s);
  if (!o)
    return sig_stale_value(fn, s);
  if (atomic_compare_exchange_strong(VAL(o), &expected, v))
    sig_changed(o);
  return expected;
}

/* ---- load ---- */
#define LOAD(suffix, order)                                                         \
  hsa_signal_value_t hsa_signal_load_##suffix(hsa_signal_t s)                       \
  {                                                                                 \
    struct sig_obj *o = sig_obj_fast(s);                                            \
    if (__builtin_expect(!o, 0))                                                    \
      return slow_op(__func__, s, OP_LOAD, 0);                                      \
    if (o->flags & SIG_F_DOORBELL)                                                  \
      return atomic_load_explicit(&o->shadow, order);                               \
    return atomic_load_explicit(VAL(o), order);                                     \
  }
LOAD(relaxed, memory_order_relaxed)
LOAD(scacquire, memory_order_acquire)
LOAD(acquire, memory_order_acquire)

/* ---- store / silent store ---- */
#define STORE(name, order, notify)                                                  \
  void hsa_signal_##name(hsa_signal_t s, hsa_signal_value_t v)                      \
  {                                                                                 \
    struct sig_obj *o = sig_obj_fast(s);                                            \
    if (__builtin_expect(!o, 0)) {                                                  \
      slow_op(__func__, s, notify ? OP_STORE : OP_SILENT, v);                       \
      return;                                                                       \
    }                                                                               \
    if (o->flags & SIG_F_DOORBELL) {                                                \
      atomic_store_explicit(&o->shadow, v, order);                                  \
      ring(o, v);                                                                   \
      return;                                                                       \
    }                                                                               \
    atomic_store_explicit(VAL(o), v, order);                                        \
    if (notify)                                                                     \
      sig_changed(o);                                                               \
  }
STORE(store_relaxed, memory_order_relaxed, 1)
STORE(store_screlease, memory_order_release, 1)
STORE(store_release, memory_order_release, 1)
STORE(silent_store_relaxed, memory_order_relaxed, 0)
STORE(silent_store_screlease, memory_order_release, 0)

/* ---- read-modify-write without a result ---- */
#define RMW_ONE(op, fetch, combine, suffix, order)                                  \
  void hsa_signal_##op##_##suffix(hsa_signal_t s, hsa_signal_value_t v)             \
  {                                                                                 \
    struct sig_obj *o = sig_obj_fast(s);                                            \
    if (__builtin_expect(!o, 0)) {                                                  \
      slow_op(__func__, s, SLOW_##op, v);                                           \
      return;                                                                       \
    }                                                                               \
    if (o->flags & SIG_F_DOORBELL) {                                                \
      int64_t old = fetch(&o->shadow, v, order);                                    \
      ring(o, combine(old, v));                                                     \
      return;                                                                       \
    }                                                                               \
    fetch(VAL(o), v, order);                                                        \
    sig_changed(o);                                                                  \
  }
#define RMW_ALL(op, fetch, combine)                                                 \
  RMW_ONE(op, fetch, combine, relaxed, memory_order_relaxed)                        \
  RMW_ONE(op, fetch, combine, scacquire, memory_order_acquire)                      \
  RMW_ONE(op, fetch, combine, acquire, memory_order_acquire)                        \
  RMW_ONE(op, fetch, combine, screlease, memory_order_release)                      \
  RMW_ONE(op, fetch, combine, release, memory_order_release)                        \
  RMW_ONE(op, fetch, combine, scacq_screl, memory_order_acq_rel)                    \
  RMW_ONE(op, fetch, combine, acq_rel, memory_order_acq_rel)

#define SLOW_add OP_ADD
#define SLOW_subtract OP_SUB
#define SLOW_and OP_AND
#define SLOW_or OP_OR
#define SLOW_xor OP_XOR
#define C_AND(a, b) ((a) & (b))
#define C_OR(a, b) ((a) | (b))
#define C_XOR(a, b) ((a) ^ (b))
RMW_ALL(add, atomic_fetch_add_explicit, wrap_add)
RMW_ALL(subtract, atomic_fetch_sub_explicit, wrap_sub)
RMW_ALL(and, atomic_fetch_and_explicit, C_AND)
RMW_ALL(or, atomic_fetch_or_explicit, C_OR)
RMW_ALL(xor, atomic_fetch_xor_explicit, C_XOR)

/* ---- exchange / compare-and-swap: return the value before ---- */
#define XCHG_ONE(suffix, order)                                                     \
  hsa_signal_value_t hsa_signal_exchange_##suffix(hsa_signal_t s, hsa_signal_value_t v) \
  {                                                                                 \
    struct sig_obj *o = sig_obj_fast(s);                                            \
    if (__builtin_expect(!o, 0))                                                    \
      return slow_op(__func__, s, OP_XCHG, v);                                      \
    if (o->flags & SIG_F_DOORBELL) {                                                \
      int64_t old = atomic_exchange_explicit(&o->shadow, v, order);                 \
      ring(o, v);                                                                   \
      return old;                                                                   \
    }                                                                               \
    int64_t old = atomic_exchange_explicit(VAL(o), v, order);                       \
    sig_changed(o);                                                                  \
    return old;                                                                     \
  }

/* A failed CAS only reads, so its order drops the release half (C11 requires that). */
#define CAS_ONE(suffix, order, fail_order)                                          \
  hsa_signal_value_t hsa_signal_cas_##suffix(hsa_signal_t s, hsa_signal_value_t expected, \
                                             hsa_signal_value_t v)                  \
  {                                                                                 \
    struct sig_obj *o = sig_obj_fast(s);                                            \
    if (__builtin_expect(!o, 0))                                                    \
      return slow_cas(__func__, s, expected, v);                                    \
    int64_t seen = expected;                                                        \
    if (o->flags & SIG_F_DOORBELL) {                                                \
      if (atomic_compare_exchange_strong_explicit(&o->shadow, &seen, v, order, fail_order)) \
        ring(o, v);                                                                 \
      return seen;                                                                  \
    }                                                                               \
    if (atomic_compare_exchange_strong_explicit(VAL(o), &seen, v, order, fail_order)) \
      sig_changed(o);                                                               \
    return seen;                                                                    \
  }

#define XCHG_CAS_ALL(suffix, order, fail_order)                                     \
  XCHG_ONE(suffix, order)                                                           \
  CAS_ONE(suffix, order, fail_order)
XCHG_CAS_ALL(relaxed, memory_order_relaxed, memory_order_relaxed)
XCHG_CAS_ALL(scacquire, memory_order_acquire, memory_order_acquire)
XCHG_CAS_ALL(acquire, memory_order_acquire, memory_order_acquire)
XCHG_CAS_ALL(screlease, memory_order_release, memory_order_relaxed)
XCHG_CAS_ALL(release, memory_order_release, memory_order_relaxed)
XCHG_CAS_ALL(scacq_screl, memory_order_acq_rel, memory_order_acquire)
XCHG_CAS_ALL(acq_rel, memory_order_acq_rel, memory_order_acquire)
