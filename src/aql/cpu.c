/* SPDX-License-Identifier: MIT */
/* cpu.c — queues of CPU agents (an extension: ROCR 5.2 refuses them). A runtime thread per
 * queue processes its packets in order, as a packet processor would:
 *   - BARRIER_AND waits until every dependency signal is 0, BARRIER_OR until one is;
 *   - AGENT_DISPATCH runs a function the runtime defines by `type`:
 *       AQL_CPU_NOP  (0): nothing;
 *       AQL_CPU_CALL (1): arg[0] is void (*)(uint64_t a1, uint64_t a2, uint64_t a3,
 *                         void *return_address), called with arg[1..3] and return_address;
 *   - anything else (kernel dispatch, vendor packets, unknown agent functions) stops the
 *     queue and reports HSA_STATUS_ERROR_INVALID_PACKET_FORMAT to its callback.
 * After a packet its completion signal (if any) is decremented, the slot set back to INVALID
 * and the read index advanced. Producers ring the doorbell with the packet id, as for GPUs. */
#include "aql/aql.h"
#include "aql/internal.h"
#include "mem/mem.h"
#include "signals/signal.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CPU_QUEUE AQL_MAX_RING_PACKETS
#define POLL_NS 1000000ull   /* barriers re-check stop requests at least this often */
#define IDLE_NS 1000000000ull /* an idle queue sleeps on its doorbell (a stop rings it too) */

typedef void (*aql_cpu_fn)(uint64_t, uint64_t, uint64_t, void *);

/* Waits until dependency signals allow the barrier through; false when asked to stop. */
static bool barrier_wait(struct aql_queue *q, const hsa_signal_t *deps, bool any) {
  for (;;) {
    unsigned live = 0, zero = 0;
    hsa_signal_t first = {0};
    for (int i = 0; i < 5; i++) {
      if (!deps[i].handle) continue;
      live++;
      if (hsa_signal_load_scacquire(deps[i]) == 0)
        zero++;
      else if (!first.handle)
        first = deps[i];
    }
    if (live == 0 || (any ? zero > 0 : zero == live)) return true;
    if (atomic_load(&q->stop)) return false;
    sig_wait(first, HSA_SIGNAL_CONDITION_EQ, 0, POLL_NS);
  }
}

static void *cpu_main(void *arg) {
  struct aql_queue *q = arg;
  amd_queue_t *amd = q->amd;
  const uint32_t mask = amd->hsa_queue.size - 1;
  uint64_t rd = 0;
  while (!atomic_load(&q->stop)) {
    if (!atomic_load(&q->active)) {
      sig_wait(q->doorbell, HSA_SIGNAL_CONDITION_EQ, INT64_MAX, IDLE_NS);
      continue;
    }
    hsa_agent_dispatch_packet_t *pkt = (hsa_agent_dispatch_packet_t *)amd->hsa_queue.base_address +
                                       (rd & mask);
    /* The doorbell before the header: a producer publishes its header, then rings; having
     * seen a ring we see the header it published, so "no packet yet" is safe to sleep on
     * until the doorbell changes. (Its value alone proves nothing: producers ring out of
     * order.) */
    hsa_signal_value_t rung = hsa_signal_load_scacquire(q->doorbell);
    uint16_t header = __atomic_load_n(&pkt->header, __ATOMIC_ACQUIRE);
    uint8_t type = (uint8_t)(header & 0xff);
    if (type == HSA_PACKET_TYPE_INVALID) {
      sig_wait(q->doorbell, HSA_SIGNAL_CONDITION_NE, rung, IDLE_NS);
      continue;
    }
    hsa_signal_t completion = {0};
    bool ok = true;
    switch (type) {
    case HSA_PACKET_TYPE_BARRIER_AND:
    case HSA_PACKET_TYPE_BARRIER_OR: {
      hsa_barrier_and_packet_t *b = (hsa_barrier_and_packet_t *)pkt;
      if (!barrier_wait(q, b->dep_signal, type == HSA_PACKET_TYPE_BARRIER_OR)) continue;
      completion = b->completion_signal;
      break;
    }
    case HSA_PACKET_TYPE_AGENT_DISPATCH:
      completion = pkt->completion_signal;
      if (pkt->type == 1 && pkt->arg[0])
        ((aql_cpu_fn)(uintptr_t)pkt->arg[0])(pkt->arg[1], pkt->arg[2], pkt->arg[3],
                                              pkt->return_address);
      else if (pkt->type != 0)
        ok = false;
      break;
    default:
      ok = false;
    }
    if (!ok) {
      atomic_store(&q->active, false);
      aql_report(q, HSA_STATUS_ERROR_INVALID_PACKET_FORMAT);
      continue;   /* the callback may have destroyed the queue: the loop checks stop first */
    }
    atomic_thread_fence(memory_order_seq_cst);   /* release scope: system, on a CPU */
    if (completion.handle) hsa_signal_subtract_screlease(completion, 1);
    __atomic_store_n(&pkt->header, (uint16_t)HSA_PACKET_TYPE_INVALID, __ATOMIC_RELEASE);
    __atomic_store_n(&amd->read_dispatch_id, ++rd, __ATOMIC_RELEASE);
  }
  aql_put(q);   /* the thread's reference */
  return NULL;
}

hsa_status_t aql_cpu_queue_create(const struct core_agent *agent, uint32_t size,
                                  hsa_queue_type32_t type, aql_callback_t cb, void *data,
                                  hsa_queue_t **out) {
  if (size > MAX_CPU_QUEUE) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  struct aql_queue *q = calloc(1, sizeof(*q));
  if (!q) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  pthread_mutex_init(&q->lock, NULL);
  q->kind = AQL_CPU;
  q->agent = agent;
  q->callback = cb;
  q->data = data;
  hsa_status_t st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  q->ring = mem_system((size_t)size * 64, 4096, MEM_F_NO_SUBALLOC);
  if (!q->ring) goto fail;
  for (uint32_t i = 0; i < size; i++)
    ((hsa_agent_dispatch_packet_t *)q->ring)[i].header = HSA_PACKET_TYPE_INVALID;
  q->amd = aql_amd_queue_alloc(size, type, HSA_QUEUE_FEATURE_AGENT_DISPATCH, q->ring);
  if (!q->amd) goto fail;
  if ((st = sig_create_internal(0, true, &q->doorbell)) != HSA_STATUS_SUCCESS) goto fail;
  q->own_doorbell = true;
  q->amd->hsa_queue.doorbell_signal = q->doorbell;
  atomic_store(&q->active, true);
  atomic_store(&q->refs, 2);   /* the registry's (aql_register keeps it) and the thread's */
  if (pthread_create(&q->thread, NULL, cpu_main, q)) {
    st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    goto fail;
  }
  q->has_thread = true;
  aql_register(q);
  *out = aql_handle(q);
  return HSA_STATUS_SUCCESS;
fail:
  if (q->doorbell.handle) sig_destroy_internal(q->doorbell);
  mem_release(q->ring);
  aql_slot_free(q->amd);
  pthread_mutex_destroy(&q->lock);
  free(q);
  return st;
}

void aql_cpu_queue_stop(struct aql_queue *q) {
  atomic_store(&q->stop, true);
  atomic_store(&q->active, false);
  if (q->has_thread) {
    hsa_signal_store_screlease(q->doorbell, INT64_MAX);   /* wake it */
    if (pthread_equal(q->thread, pthread_self()))
      pthread_detach(q->thread);   /* destroyed from its own error callback */
    else
      pthread_join(q->thread, NULL);
    q->has_thread = false;
  }
  if (q->own_doorbell) sig_destroy_internal(q->doorbell);
  q->doorbell.handle = 0;
  mem_release(q->ring);
  q->ring = NULL;
}
