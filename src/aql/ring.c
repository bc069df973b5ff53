/* SPDX-License-Identifier: MIT */
/* ring.c — the read and write indices of every queue, in every memory order the API names
 * (the scacquire/screlease/scacq_screl spellings and the older acquire/release ones alike).
 * They work on the amd_queue_t behind the handle without a registry lookup, as they sit on
 * every producer's hot path (a counted queue's handle is told by its address and stands for
 * the queue it shares); a NULL queue is a no-op returning 0 instead of a crash. */
#include "aql/internal.h"

#include <stdatomic.h>
#include <stddef.h>

/* The indices are plain volatile uint64_t in amd_queue_t (the CP reads and writes them);
 * the GCC builtins give them C11 atomic semantics without changing the shared layout. */
#define AMD(q) ((amd_queue_t *)(q))
#define WIDX(q) ((uint64_t *)&AMD(q)->write_dispatch_id)
#define RIDX(q) ((uint64_t *)&AMD(q)->read_dispatch_id)
/* A counted queue's handle (counted.c) stands for the queue it shares: two compares. */
#define TARGET(q) aql_share_target(q)

#define LOAD(name, field, order)                                                          \
  uint64_t name(const hsa_queue_t *queue) {                                               \
    const hsa_queue_t *t = TARGET(queue);                                                 \
    return t ? __atomic_load_n(field(t), order) : 0;                                      \
  }
#define STORE(name, field, order)                                                         \
  void name(const hsa_queue_t *queue, uint64_t value) {                                   \
    const hsa_queue_t *t = TARGET(queue);                                                 \
    if (t) __atomic_store_n(field(t), value, order);                                      \
  }
#define ADD(name, order)                                                                  \
  uint64_t name(const hsa_queue_t *queue, uint64_t value) {                               \
    const hsa_queue_t *t = TARGET(queue);                                                 \
    return t ? __atomic_fetch_add(WIDX(t), value, order) : 0;                             \
  }
/* Returns the value observed: `expected` when the exchange happened. */
#define CAS(name, order, fail_order)                                                      \
  uint64_t name(const hsa_queue_t *queue, uint64_t expected, uint64_t value) {            \
    const hsa_queue_t *t = TARGET(queue);                                                 \
    if (!t) return 0;                                                                     \
    uint64_t seen = expected;                                                             \
    __atomic_compare_exchange_n(WIDX(t), &seen, value, false, order, fail_order);         \
    return seen;                                                                          \
  }

LOAD(hsa_queue_load_read_index_scacquire, RIDX, __ATOMIC_ACQUIRE)
LOAD(hsa_queue_load_read_index_acquire, RIDX, __ATOMIC_ACQUIRE)
LOAD(hsa_queue_load_read_index_relaxed, RIDX, __ATOMIC_RELAXED)
LOAD(hsa_queue_load_write_index_scacquire, WIDX, __ATOMIC_ACQUIRE)
LOAD(hsa_queue_load_write_index_acquire, WIDX, __ATOMIC_ACQUIRE)
LOAD(hsa_queue_load_write_index_relaxed, WIDX, __ATOMIC_RELAXED)

STORE(hsa_queue_store_read_index_relaxed, RIDX, __ATOMIC_RELAXED)
STORE(hsa_queue_store_read_index_screlease, RIDX, __ATOMIC_RELEASE)
STORE(hsa_queue_store_read_index_release, RIDX, __ATOMIC_RELEASE)
STORE(hsa_queue_store_write_index_relaxed, WIDX, __ATOMIC_RELAXED)
STORE(hsa_queue_store_write_index_screlease, WIDX, __ATOMIC_RELEASE)
STORE(hsa_queue_store_write_index_release, WIDX, __ATOMIC_RELEASE)

ADD(hsa_queue_add_write_index_scacq_screl, __ATOMIC_ACQ_REL)
ADD(hsa_queue_add_write_index_acq_rel, __ATOMIC_ACQ_REL)
ADD(hsa_queue_add_write_index_scacquire, __ATOMIC_ACQUIRE)
ADD(hsa_queue_add_write_index_acquire, __ATOMIC_ACQUIRE)
ADD(hsa_queue_add_write_index_relaxed, __ATOMIC_RELAXED)
ADD(hsa_queue_add_write_index_screlease, __ATOMIC_RELEASE)
ADD(hsa_queue_add_write_index_release, __ATOMIC_RELEASE)

CAS(hsa_queue_cas_write_index_scacq_screl, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
CAS(hsa_queue_cas_write_index_acq_rel, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
CAS(hsa_queue_cas_write_index_scacquire, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)
CAS(hsa_queue_cas_write_index_acquire, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)
CAS(hsa_queue_cas_write_index_relaxed, __ATOMIC_RELAXED, __ATOMIC_RELAXED)
CAS(hsa_queue_cas_write_index_screlease, __ATOMIC_RELEASE, __ATOMIC_RELAXED)
CAS(hsa_queue_cas_write_index_release, __ATOMIC_RELEASE, __ATOMIC_RELAXED)
