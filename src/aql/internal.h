/* SPDX-License-Identifier: MIT */
/* internal.h — what the files of src/aql share: the host record of a queue and the registry
 * that turns the user's hsa_queue_t pointer back into it.
 *
 * Every queue, hardware or not, is an amd_queue_t in GPU-visible memory whose first member
 * is the hsa_queue_t the user holds; the index operations (ring.c) work on it directly
 * without a lookup, like ROCR's (safe on a destroyed queue: its page stays mapped, slots.c). */
#ifndef AQL_INTERNAL_H
#define AQL_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "amd_hsa_queue.h"
#include "core/agent.h"
#include "hsa.h"
#include "hsa_ext_amd.h"
#include "kfd/queue.h"

typedef void (*aql_callback_t)(hsa_status_t status, hsa_queue_t *source, void *data);

enum aql_kind {
  AQL_GPU,    /* a KFD compute AQL queue the command processor reads */
  AQL_SOFT,   /* hsa_soft_queue_create: memory and indices only, the user processes it */
  AQL_CPU,    /* a CPU agent's queue: a runtime thread processes agent dispatch and barriers */
};

/* Scratch (private segment) of a GPU queue. */
struct aql_scratch {
  void *base;                 /* backing memory (device), NULL for none */
  uint64_t size;              /* bytes */
  uint64_t per_thread;        /* bytes per work-item */
  uint32_t lanes;             /* 64 or 32 */
  bool once;                  /* sized for one dispatch (AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE) */
};

/* States of the queue_inactive_signal handler (error.c), ROCR's protocol: destroy asks the
 * handler to stop and waits for its acknowledgement before freeing anything it touches. */
enum { AQL_HANDLER_TERMINATE = 1, AQL_HANDLER_DONE = 2 };
#define AQL_INACTIVE_STOP ((hsa_signal_value_t)INT64_MIN)   /* "stop" value destroy stores */
#define AQL_INACTIVE_DONE ((hsa_signal_value_t)-1)           /* the handler's acknowledgement */

struct aql_queue {
  amd_queue_t *amd;           /* &amd->hsa_queue is the user's handle */
  enum aql_kind kind;
  const struct core_agent *agent;
  aql_callback_t callback;
  void *data;
  struct aql_queue *next;     /* registry */
  _Atomic int refs;           /* registry + threads reporting errors; freed at 0 */
  atomic_bool active;         /* false after inactivate / destroy / a fatal error */
  atomic_bool errored;        /* the callback was told once; later errors are dropped */
  pthread_mutex_t lock;       /* priority, CU mask, scratch */

  /* AQL_GPU */
  struct kfd_queue kq;
  void *ring;
  uint64_t ring_bytes;
  void *eop, *cwsr;
  hsa_signal_t doorbell;      /* the doorbell signal in hsa_queue.doorbell_signal */
  hsa_signal_t inactive;      /* amd->queue_inactive_signal */
  _Atomic int handler_state;  /* AQL_HANDLER_* */
  uint32_t priority;          /* KFD priority 0..15 */
  bool suspended;
  struct aql_scratch scratch;
  uint32_t cu_mask[32];
  uint32_t cu_mask_dwords;    /* 0: never set (all CUs, nothing sent to the kernel) */
  bool cooperative;
  unsigned coop_refs;         /* cooperative queues are shared per agent (ROCR) */

  /* AQL_CPU */
  pthread_t thread;
  bool has_thread;
  atomic_bool stop;
  bool own_doorbell;          /* doorbell signal created by the runtime (CPU queues) */
};

static inline hsa_queue_t *aql_handle(const struct aql_queue *q) { return &q->amd->hsa_queue; }

/* slots.c: the page of every amd_queue_t (see there: O(1) lookup, quarantine, sink ring).
 * alloc gives a zeroed page registered with the driver; free (when the last reference goes)
 * drops the registration, keeps the page mapped and quarantines it; set/get tie a page to
 * its live queue (get takes a reference). */
#define AQL_QUARANTINE 512u             /* freed queue pages before an address comes back */
#define AQL_MAX_RING_PACKETS 0x20000u   /* the largest GPU or CPU queue */
amd_queue_t *aql_slot_alloc(void);
void aql_slot_free(amd_queue_t *amd);
void aql_slot_set(const amd_queue_t *amd, struct aql_queue *q);
struct aql_queue *aql_slot_get(const hsa_queue_t *handle);

/* queue.c: the registry. lookup takes a reference (aql_put drops it); NULL for anything that
 * is not a live queue of ours. */
struct aql_queue *aql_lookup(const hsa_queue_t *handle);
void aql_put(struct aql_queue *q);
hsa_status_t aql_register(struct aql_queue *q);
/* Calls fn on every live queue of `agent` (NULL: all), each held by a reference, outside the
 * registry lock (so fn may call back into the API). */
void aql_for_each(const struct core_agent *agent, void (*fn)(struct aql_queue *q, void *arg),
                  void *arg);
/* A fresh amd_queue_t (zeroed, GPU-visible) with the fields every kind shares. */
amd_queue_t *aql_amd_queue_alloc(uint32_t size, hsa_queue_type32_t type, uint32_t features,
                                 void *ring);
uint64_t aql_next_queue_id(void);

/* trap.c: the second-level trap handler and its table (see there). install: on the agent's
 * GPU once, before its first queue; bind/unbind: the queue's entry (after KFD queue creation,
 * before its inactive signal goes); where: the PC and trap id a wave of q stopped at; shutdown
 * uninstalls and frees. */
void aql_trap_install(const struct core_agent *agent);
void aql_trap_bind(struct aql_queue *q);
void aql_trap_unbind(struct aql_queue *q);
bool aql_trap_where(const struct aql_queue *q, uint64_t *pc, unsigned *trap_id);
void aql_trap_shutdown(void);

/* error.c */
/* Tells the queue's callback (once) and stops the queue. Safe from any thread. */
void aql_report(struct aql_queue *q, hsa_status_t status);
/* queue_inactive_signal: install / remove the handler (CP error codes and scratch requests). */
hsa_status_t aql_inactive_handler_start(struct aql_queue *q);
void aql_inactive_handler_stop(struct aql_queue *q);
/* The process-wide KFD memory-exception event and its thread (started with the first GPU
 * queue, stopped at shutdown). */
hsa_status_t aql_fault_watch_start(void);
/* True (and a sentence of why in `why`) when the kernel has stopped this process's queues on
 * GPU `gpu_id` for good: after a memory fault or a reset, until the process exits. */
bool aql_gpu_stopped(uint32_t gpu_id, char *why, size_t why_size);
void aql_fault_watch_stop(void);
/* sysevent.c: calls the registered system event handlers (true: one returned SUCCESS, the
 * event is handled); reset forgets them (hsa_shut_down). */
bool aql_system_event(const hsa_amd_event_t *e);
void aql_system_events_reset(void);
/* The status a CP error code in queue_inactive_signal means (0: not an error). */
hsa_status_t aql_cp_error_status(int64_t code);

/* scratch.c */
hsa_status_t aql_scratch_init(struct aql_queue *q, uint32_t private_segment_size);
/* Grows scratch for the dispatch at the read index; CP code (0x1 wave64, 0x400 wave32). */
hsa_status_t aql_scratch_grow(struct aql_queue *q, int64_t code);
/* Gives up a single-use allocation (CP code 512). */
void aql_scratch_reclaim(struct aql_queue *q);
/* counted.c: users of a counted queue (-1: not one); forgetting them all (hsa_shut_down). */
int64_t aql_counted_use_count(const hsa_queue_t *queue);
/* counted.c: each hsa_amd_counted_queue_acquire gives a handle of its own, as ROCR does: a
 * copy of the shared queue's amd_queue_t (its ring, doorbell, size and id) in this table,
 * whose index operations (ring.c) and API calls (aql_lookup) act on the shared queue. A
 * handle is known by its address alone, so no registry lookup sits on the index path. */
struct aql_share {
  amd_queue_t amd;            /* what the caller's handle points at */
  amd_queue_t *real;          /* the shared queue (NULL once it is gone) */
  unsigned entry;             /* its counted.c entry */
  bool live;                  /* acquired and not released */
};
#define AQL_SHARES_MAX 256u
extern struct aql_share aql_shares[AQL_SHARES_MAX];
/* handle itself, or the shared queue behind a counted handle (NULL once it is gone) */
static inline const hsa_queue_t *aql_share_target(const hsa_queue_t *handle) {
  uintptr_t p = (uintptr_t)handle, base = (uintptr_t)aql_shares;
  if (__builtin_expect(p - base >= sizeof(aql_shares), 1)) return handle;
  amd_queue_t *real = __atomic_load_n(&aql_shares[(p - base) / sizeof(aql_shares[0])].real,
                                      __ATOMIC_ACQUIRE);
  return real ? &real->hsa_queue : NULL;
}
static inline bool aql_is_share(const hsa_queue_t *handle) {
  return (uintptr_t)handle - (uintptr_t)aql_shares < sizeof(aql_shares);
}
/* a counted handle its acquirer released (hsa_amd_queue_get_info refuses it, as ROCR) */
bool aql_share_released(const hsa_queue_t *handle);
void aql_counted_forget(void);
void aql_counted_drop(const hsa_queue_t *queue);   /* hsa_queue_destroy of one */
/* scratch_limit.c: bytes of scratch a queue of `gpu` may keep (larger grows are single-use). */
uint64_t aql_scratch_limit(const struct core_agent *gpu);
void aql_scratch_free(struct aql_queue *q);
/* Rewrites the amd_queue_t scratch fields from q->scratch. */
void aql_scratch_publish(struct aql_queue *q);

/* cu_mask.c */
hsa_status_t aql_cu_mask_apply(struct aql_queue *q, uint32_t bits, const uint32_t *mask);
uint32_t aql_cu_count(const struct core_agent *agent);

/* soft.c / cpu.c */
hsa_status_t aql_cpu_queue_create(const struct core_agent *agent, uint32_t size,
                                  hsa_queue_type32_t type, aql_callback_t cb, void *data,
                                  hsa_queue_t **out);
void aql_cpu_queue_stop(struct aql_queue *q);
void aql_soft_queue_release(struct aql_queue *q);
/* Suspends a GPU queue after an error (UPDATE_QUEUE with 0 percent). */
void aql_suspend(struct aql_queue *q);

#endif
