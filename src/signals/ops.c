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

static void ring(struct sig_obj *o, int64_t v)
{
  volatile uint64_t *db = __atomic_load_n(&o->amd->hardware_doorbell_ptr, __ATOMIC_RELAXED);
  atomic_store_explicit((_Atomic uint64_t *)(uintptr_t)db, (uint64_t)v, memory_order_release);
}

/* two's complement wrap, as the atomic operations do, without signed overflow */
static inline int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t wrap_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }

/* ---- load ---- */
#define LOAD(suffix, order)                                                         \
  hsa_signal_value_t hsa_signal_load_##suffix(hsa_signal_t s)                       \
  {                                                                                 \
    struct sig_obj *o = sig_obj_of(s);                                              \
    if (__builtin_expect(!o, 0))                                                    \
      return sig_stale_value(__func__, s);                                          \
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
    struct sig_obj *o = sig_obj_of(s);                                              \
    if (__builtin_expect(!o, 0)) {                                                  \
      sig_stale(__func__, s);                                                       \
      return;                                                                       \
    }                                                                               \
    if (o->flags & SIG_F_DOORBELL) {                                                \
      atomic_store_explicit(&o->shadow, v, order);                                  \
      ring(o, v);                                                                   \
      return;                                                                       \
    }                                                                               \
    atomic_store_explicit(VAL(o), v, order);                                        \
    if (notify)                                                                     \
      sig_notify(o);                                                                \
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
    struct sig_obj *o = sig_obj_of(s);                                              \
    if (__builtin_expect(!o, 0)) {                                                  \
      sig_stale(__func__, s);                                                       \
      return;                                                                       \
    }                                                                               \
    if (o->flags & SIG_F_DOORBELL) {                                                \
      int64_t old = fetch(&o->shadow, v, order);                                    \
      ring(o, combine(old, v));                                                     \
      return;                                                                       \
    }                                                                               \
    fetch(VAL(o), v, order);                                                        \
    sig_notify(o);                                                                  \
  }
#define RMW_ALL(op, fetch, combine)                                                 \
  RMW_ONE(op, fetch, combine, relaxed, memory_order_relaxed)                        \
  RMW_ONE(op, fetch, combine, scacquire, memory_order_acquire)                      \
  RMW_ONE(op, fetch, combine, acquire, memory_order_acquire)                        \
  RMW_ONE(op, fetch, combine, screlease, memory_order_release)                      \
  RMW_ONE(op, fetch, combine, release, memory_order_release)                        \
  RMW_ONE(op, fetch, combine, scacq_screl, memory_order_acq_rel)                    \
  RMW_ONE(op, fetch, combine, acq_rel, memory_order_acq_rel)

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
    struct sig_obj *o = sig_obj_of(s);                                              \
    if (__builtin_expect(!o, 0))                                                    \
      return sig_stale_value(__func__, s);                                          \
    if (o->flags & SIG_F_DOORBELL) {                                                \
      int64_t old = atomic_exchange_explicit(&o->shadow, v, order);                 \
      ring(o, v);                                                                   \
      return old;                                                                   \
    }                                                                               \
    int64_t old = atomic_exchange_explicit(VAL(o), v, order);                       \
    sig_notify(o);                                                                  \
    return old;                                                                     \
  }

/* A failed CAS only reads, so its order drops the release half (C11 requires that). */
#define CAS_ONE(suffix, order, fail_order)                                          \
  hsa_signal_value_t hsa_signal_cas_##suffix(hsa_signal_t s, hsa_signal_value_t expected, \
                                             hsa_signal_value_t v)                  \
  {                                                                                 \
    struct sig_obj *o = sig_obj_of(s);                                              \
    if (__builtin_expect(!o, 0))                                                    \
      return sig_stale_value(__func__, s);                                          \
    int64_t seen = expected;                                                        \
    if (o->flags & SIG_F_DOORBELL) {                                                \
      if (atomic_compare_exchange_strong_explicit(&o->shadow, &seen, v, order, fail_order)) \
        ring(o, v);                                                                 \
      return seen;                                                                  \
    }                                                                               \
    if (atomic_compare_exchange_strong_explicit(VAL(o), &seen, v, order, fail_order)) \
      sig_notify(o);                                                                \
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
