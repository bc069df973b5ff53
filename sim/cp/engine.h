/* SPDX-License-Identifier: MIT */
/* engine.h — one engine thread per user-mode queue (inside sim/cp and sim/sdma). */
#ifndef SIM_CP_ENGINE_H
#define SIM_CP_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>

#include "cp/cp.h"

enum cp_step {
  CP_WORK,      /* a packet (or part) was processed: look again at once */
  CP_IDLE,      /* nothing submitted: the thread may sleep until a doorbell store */
  CP_BLOCKED,   /* waiting for memory to change (barrier, poll): poll it with back-off */
  CP_HALTED,    /* queue error or eviction: nothing more until destroyed */
};

#define CP_SH_REG_BASE 0x2c00u        /* SET_SH_REG's register space, in dwords */
#define CP_SH_REG_COUNT 0x400u
#define CP_PM4_MAX_DWORDS (2u + 0x3fffu)   /* a type-3 header and its largest body */

struct cp_queue {
  struct sim_mqd *mqd;               /* the driver's descriptor of this queue */
  struct sim_qpd *qpd;               /* its process on this GPU */
  struct sim_gpu *gpu;
  pthread_t thread;
  atomic_bool stop;
  bool sdma;
  /* snapshot of the queue's registers, taken under the process lock each round */
  uint64_t ring, rptr, wptr;          /* GPU addresses; rptr/wptr point at the pointers */
  uint32_t ring_size;
  bool active;
  const volatile uint64_t *doorbell;   /* the driver's own view of the doorbell */
  uint64_t doorbell_page;              /* store offset of its page */
  /* AQL state */
  bool halted;
  /* PM4 ring state (KFD_IOC_QUEUE_TYPE_COMPUTE): the CP's read pointer in dwords (the
   * 32-bit copy wrapped at the ring size goes to the read-pointer address), the SH
   * registers SET_SH_REG writes (0x2c00..0x2fff), one packet copied out of the ring */
  bool pm4;
  uint64_t pm4_rptr;
  uint32_t sh[CP_SH_REG_COUNT];
  uint32_t pm4_pkt[CP_PM4_MAX_DWORDS];
  bool scratch_wait;                   /* asked the runtime for scratch; wait for the signal */
  uint64_t scratch_signal;
};

enum cp_step cp_aql_step(struct cp_queue *cq);
enum cp_step sdma_step(struct cp_queue *cq);
enum cp_step cp_pm4_queue_step(struct cp_queue *cq);

/* Waits (polling with back-off) until `done(arg)` or the queue is stopped: false if stopped. */
bool cp_poll_until(struct cp_queue *cq, bool (*done)(void *arg), void *arg);

#endif
