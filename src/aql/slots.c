/* SPDX-License-Identifier: MIT */
/* slots.c — where every queue's amd_queue_t lives: a page each (the kernel wants the read and
 * write pointers CREATE_QUEUE gets alone in a one-page buffer object) in an arena kept for the
 * life of the process. The user's hsa_queue_t pointer is the page's start, so
 * - the registry finds a queue by page index, O(1), and anything else is refused;
 * - a destroyed queue's page stays mapped: index operations through a stale pointer (which
 *   take no lock and do no lookup) read and write harmless memory, never a fault;
 * - freed pages wait in a FIFO quarantine and another queue gets the address only after
 *   AQL_QUARANTINE others were freed after it, so hsa_queue_destroy on a stale pointer finds
 *   no queue (INVALID_QUEUE) instead of destroying a newer one;
 * - arena, table and FIFO outlive hsa_shut_down, so a pointer from an earlier runtime is
 *   refused by the next one as well.
 * A freed queue's ring is gone with it: its base_address then names a sink (a process-lifetime
 * scratch area as large as the largest ring), so a stale producer writes packets nobody reads
 * rather than into memory reused by someone else. */
#include "aql/internal.h"
#include "mem/mem.h"

#include <string.h>

#define PAGE 4096u
#define AQL_ARENA_PAGES 8192u   /* live + quarantined queues: 32 MiB of addresses */
#define SINK_BYTES ((size_t)AQL_MAX_RING_PACKETS * 64u)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;   /* arena, FIFO, table */
static _Atomic uintptr_t base;
static uint32_t committed;                       /* pages committed so far */
static struct aql_queue *table[AQL_ARENA_PAGES];  /* the live queue on each page */
static uint32_t fifo[AQL_ARENA_PAGES], fifo_head, fifo_len;   /* freed pages, oldest first */
static void *sink;

/* Page index of a handle, or UINT32_MAX for anything that is not a page start of the arena. */
static uint32_t index_of(const void *p) {
  uintptr_t b = atomic_load_explicit(&base, memory_order_acquire);
  uintptr_t off = (uintptr_t)p - b;
  if (!b || off >= (uintptr_t)AQL_ARENA_PAGES * PAGE || (off & (PAGE - 1))) return UINT32_MAX;
  return (uint32_t)(off / PAGE);
}

/* A forked child gets no copy of the pages (MADV_DONTFORK, as all GPU-visible host memory):
 * fresh zeroed ones go there, so the pointers it inherited never fault. */
static void child_after_fork(void) {
  uintptr_t b = atomic_load_explicit(&base, memory_order_relaxed);
  if (b && committed) mem_arena_commit((void *)b, (size_t)committed * PAGE);
  if (sink) mem_arena_commit(sink, SINK_BYTES);
}

/* Lock held: a page to use, or UINT32_MAX. */
static uint32_t take(void) {
  if (!atomic_load_explicit(&base, memory_order_relaxed)) {
    void *b = mem_arena_reserve((size_t)AQL_ARENA_PAGES * PAGE);
    if (!b) return UINT32_MAX;
    atomic_store_explicit(&base, (uintptr_t)b, memory_order_release);
    pthread_atfork(NULL, NULL, child_after_fork);
    /* the sink too, now (reserving needs the open runtime's aperture, freeing may not) */
    if ((sink = mem_arena_reserve(SINK_BYTES)) && !mem_arena_commit(sink, SINK_BYTES))
      sink = NULL;   /* reserved but unusable: stale rings get NULL */
  }
  uintptr_t b = atomic_load_explicit(&base, memory_order_relaxed);
  if (fifo_len <= AQL_QUARANTINE && committed < AQL_ARENA_PAGES &&
      mem_arena_commit((void *)(b + (uintptr_t)committed * PAGE), PAGE))
    return committed++;
  if (!fifo_len) return UINT32_MAX;   /* else the quarantine gives way, not the queue */
  uint32_t i = fifo[fifo_head];
  fifo_head = (fifo_head + 1) % AQL_ARENA_PAGES;
  fifo_len--;
  return i;
}

amd_queue_t *aql_slot_alloc(void) {
  pthread_mutex_lock(&lock);
  uint32_t i = take();
  amd_queue_t *amd = NULL;
  if (i != UINT32_MAX) {
    amd = (amd_queue_t *)(atomic_load_explicit(&base, memory_order_relaxed) + (uintptr_t)i * PAGE);
    memset(amd, 0, PAGE);
    if (!mem_system_at(amd, PAGE, 0)) {
      /* back to the front of the FIFO: it was the oldest */
      fifo_head = (fifo_head + AQL_ARENA_PAGES - 1) % AQL_ARENA_PAGES;
      fifo[fifo_head] = i;
      fifo_len++;
      amd = NULL;
    }
  }
  pthread_mutex_unlock(&lock);
  return amd;
}

void aql_slot_free(amd_queue_t *amd) {
  uint32_t i = index_of(amd);
  if (i == UINT32_MAX) return;
  mem_release(amd);   /* the driver's registration; the page stays */
  pthread_mutex_lock(&lock);
  uint64_t ring_bytes = (uint64_t)amd->hsa_queue.size * 64u;
  __atomic_store_n(&amd->hsa_queue.base_address, ring_bytes <= SINK_BYTES ? sink : NULL,
                   __ATOMIC_RELEASE);
  table[i] = NULL;
  fifo[(fifo_head + fifo_len) % AQL_ARENA_PAGES] = i;
  fifo_len++;
  pthread_mutex_unlock(&lock);
}

void aql_slot_set(const amd_queue_t *amd, struct aql_queue *q) {
  uint32_t i = index_of(amd);
  if (i == UINT32_MAX) return;
  pthread_mutex_lock(&lock);
  table[i] = q;
  pthread_mutex_unlock(&lock);
}

struct aql_queue *aql_slot_get(const hsa_queue_t *handle) {
  uint32_t i = index_of(handle);
  if (i == UINT32_MAX) return NULL;
  pthread_mutex_lock(&lock);
  struct aql_queue *q = table[i];
  if (q) atomic_fetch_add(&q->refs, 1);
  pthread_mutex_unlock(&lock);
  return q;
}
