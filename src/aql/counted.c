/* SPDX-License-Identifier: MIT */
/* counted.c — hsa_amd_counted_queue_acquire/release: GPU queues shared with a use count.
 *
 * For each agent and priority, acquire makes a new hardware queue while there are fewer than
 * GPU_MAX_HW_QUEUES (default 4, as HIP's) of that priority, and afterwards hands out the one
 * with the lowest use count, counting one more user. Release counts one user less; the
 * hardware queue stays (ROCR keeps it for reuse) until hsa_shut_down. Each acquire gets a
 * handle of its own, as in ROCR: an aql_share (internal.h) whose amd_queue_t is a copy of
 * the shared queue's (same ring, doorbell signal, size and id), on which the index
 * operations and the queue API act on the shared queue; it is released once (the second
 * release is INVALID_ARGUMENT, as is hsa_amd_queue_get_info of it afterwards, as the newest
 * ROCR answers) and hsa_queue_destroy refuses it. A queue error reaches the callback and data
 * the hardware queue was made with (its first acquirer's), naming the hardware queue: the
 * newest ROCR keeps no callback per acquire either. hsa_amd_queue_get_info
 * reads HSA_QUEUE_INFO_USE_COUNT (-1 for a queue not acquired here) and HSA_QUEUE_INFO_HW_ID
 * (the shared queue's id) through aql_counted_use_count. */
#include "aql/internal.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"

#include <stdlib.h>
#include <string.h>

#define MAX_COUNTED 256u
#define DEFAULT_MAX_HW 4u
#define RING_PACKETS 4096u

struct counted {
  hsa_queue_t *queue;
  const struct core_agent *agent;
  hsa_amd_queue_priority_t priority;
  uint32_t uses;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct counted table[MAX_COUNTED];
static unsigned used;
struct aql_share aql_shares[AQL_SHARES_MAX];
/* One past the highest share ever handed out (with lock): shut-down clears only those, and
 * leaves the rest of the array (untouched static pages) alone. */
static unsigned shares_hw;

/* lock held: the shares of table entry i follow it to entry j (or go, j == UINT32_MAX) */
static void shares_move(unsigned i, unsigned j) {
  for (unsigned k = 0; k < AQL_SHARES_MAX; k++) {
    if (!aql_shares[k].real || aql_shares[k].entry != i) continue;
    if (j == UINT32_MAX) {
      __atomic_store_n(&aql_shares[k].real, NULL, __ATOMIC_RELEASE);
      aql_shares[k].live = false;
    } else {
      aql_shares[k].entry = j;
    }
  }
}

static unsigned max_hw(void) {
  const char *v = getenv("GPU_MAX_HW_QUEUES");
  long n = v ? strtol(v, NULL, 10) : 0;
  return n > 0 && n <= (long)MAX_COUNTED ? (unsigned)n : DEFAULT_MAX_HW;
}

int64_t aql_counted_use_count(const hsa_queue_t *queue) {
  int64_t n = -1;
  queue = aql_share_target(queue);
  pthread_mutex_lock(&lock);
  for (unsigned i = 0; i < used; i++)
    if (table[i].queue == queue) n = table[i].uses;
  pthread_mutex_unlock(&lock);
  return n;
}

bool aql_share_released(const hsa_queue_t *handle) {
  if (!aql_is_share(handle)) return false;
  pthread_mutex_lock(&lock);
  const struct aql_share *sh =
      &aql_shares[((uintptr_t)handle - (uintptr_t)aql_shares) / sizeof(aql_shares[0])];
  bool released = handle != &sh->amd.hsa_queue || !sh->live;
  pthread_mutex_unlock(&lock);
  return released;
}

void aql_counted_drop(const hsa_queue_t *queue) {
  pthread_mutex_lock(&lock);
  for (unsigned i = 0; i < used; i++)
    if (table[i].queue == queue) {
      shares_move(i, UINT32_MAX);
      if (i != used - 1) shares_move(used - 1, i);
      table[i--] = table[--used];
    }
  pthread_mutex_unlock(&lock);
}

void aql_counted_forget(void) {
  pthread_mutex_lock(&lock);
  for (unsigned k = 0; k < shares_hw; k++) {
    __atomic_store_n(&aql_shares[k].real, NULL, __ATOMIC_RELEASE);
    aql_shares[k].live = false;
  }
  used = 0;
  pthread_mutex_unlock(&lock);
}

hsa_status_t hsa_amd_counted_queue_acquire(hsa_agent_t agent, hsa_queue_type_t type,
                                           hsa_amd_queue_priority_t priority,
                                           void (*callback)(hsa_status_t, hsa_queue_t *, void *),
                                           void *data, uint64_t flags, hsa_queue_t **queue) {
  (void)flags;   /* for future use, ignored (ROCR) */
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a || a->kind != CORE_AGENT_GPU) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (type != HSA_QUEUE_TYPE_MULTI) return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
  if (!queue || (priority != HSA_AMD_QUEUE_PRIORITY_LOW &&
                 priority != HSA_AMD_QUEUE_PRIORITY_NORMAL &&
                 priority != HSA_AMD_QUEUE_PRIORITY_HIGH))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  pthread_mutex_lock(&lock);
  unsigned have = 0, best = MAX_COUNTED;
  for (unsigned i = 0; i < used; i++) {
    if (table[i].agent != a || table[i].priority != priority) continue;
    have++;
    if (best == MAX_COUNTED || table[i].uses < table[best].uses) best = i;
  }
  hsa_status_t st = HSA_STATUS_SUCCESS;
  struct aql_share *sh = NULL;   /* the caller's handle: a free slot (never a live one) */
  for (unsigned k = 0; k < AQL_SHARES_MAX && !sh; k++)
    if (!aql_shares[k].live && !aql_shares[k].real) sh = &aql_shares[k];
  for (unsigned k = 0; k < AQL_SHARES_MAX && !sh; k++)   /* then one whose queue is gone */
    if (!aql_shares[k].live) sh = &aql_shares[k];
  if (!sh) {
    pthread_mutex_unlock(&lock);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  if ((unsigned)(sh - aql_shares) >= shares_hw) shares_hw = (unsigned)(sh - aql_shares) + 1;
  if (have < max_hw() && used < MAX_COUNTED) {
    uint32_t max = 0, size = RING_PACKETS;
    hsa_agent_get_info(agent, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &max);
    if (max && size > max) size = max;
    hsa_queue_t *q = NULL;
    st = hsa_queue_create(agent, size, HSA_QUEUE_TYPE_MULTI, callback, data, UINT32_MAX,
                          UINT32_MAX, &q);
    if (st == HSA_STATUS_SUCCESS && priority != HSA_AMD_QUEUE_PRIORITY_NORMAL)
      st = hsa_amd_queue_set_priority(q, priority);
    if (st == HSA_STATUS_SUCCESS) {
      table[used] = (struct counted){q, a, priority, 0};
      best = used++;
    } else if (q) {
      hsa_queue_destroy(q);
    }
  } else if (best == MAX_COUNTED) {
    st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  if (st == HSA_STATUS_SUCCESS) {
    table[best].uses++;
    amd_queue_t *real = (amd_queue_t *)table[best].queue;
    memcpy(&sh->amd, real, sizeof(sh->amd));
    sh->amd.hsa_queue.reserved1 = 0;
    sh->entry = best;
    sh->live = true;
    __atomic_store_n(&sh->real, real, __ATOMIC_RELEASE);
    *queue = &sh->amd.hsa_queue;
  }
  pthread_mutex_unlock(&lock);
  return st;
}

hsa_status_t hsa_amd_counted_queue_release(hsa_queue_t *queue) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!queue) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_status_t st = HSA_STATUS_ERROR_INVALID_ARGUMENT;   /* not counted, or released */
  if (!aql_is_share(queue)) return st;
  pthread_mutex_lock(&lock);
  struct aql_share *sh =
      &aql_shares[((uintptr_t)queue - (uintptr_t)aql_shares) / sizeof(aql_shares[0])];
  if (sh->live && (const hsa_queue_t *)queue == &sh->amd.hsa_queue && sh->real &&
      sh->entry < used && table[sh->entry].uses > 0) {
    table[sh->entry].uses--;
    sh->live = false;   /* its queue stays behind it until the slot is taken again */
    st = HSA_STATUS_SUCCESS;
  }
  pthread_mutex_unlock(&lock);
  return st;
}
