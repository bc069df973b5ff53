/* SPDX-License-Identifier: MIT */
/* cp.h — the command processor model (sim/cp) and the SDMA engines (sim/sdma) as the driver
 * model (sim/kfd) sees them, plus what the two engines share inside sim/.
 *
 * Each user-mode queue (AQL or PM4 compute, or SDMA) gets one engine thread, as each hardware
 * queue descriptor (HQD) runs independently on the GPU. The thread polls its queue while it is
 * busy; once idle it write-protects the doorbell pages the process mapped (userfaultfd) and
 * sleeps until a store to one of them is reported (see dbwatch.c), so an idle GPU costs no
 * CPU. */
#ifndef SIM_CP_CP_H
#define SIM_CP_CP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim.h"
#include "dev/catalog.h"

/* ---- what the driver hands the engines: per process and GPU, and per queue ------------
 * sim/kfd fills these as the kernel fills its qcm_process_device and a queue's MQD (memory
 * queue descriptor); the engines read nothing else of the driver's state. */

/* One process on one GPU (the kernel's qpd): the VMID's apertures and trap handler, and
 * whether the scheduler evicted its queues (after a VM fault or a reset). */
struct sim_qpd {
  struct sim_gpu *gpu;
  pthread_mutex_t *lock;     /* the process's lock: guards every MQD field marked (L) */
  uint64_t lds_base, lds_limit, scratch_base, scratch_limit;   /* SH_MEM apertures */
  uint64_t tba, tma;         /* second-level trap handler (SET_TRAP_HANDLER) */
  bool evicted;              /* read and written atomically */
};

enum sim_mqd_format {
  SIM_MQD_AQL,               /* KFD_IOC_QUEUE_TYPE_COMPUTE_AQL */
  SIM_MQD_PM4,               /* KFD_IOC_QUEUE_TYPE_COMPUTE: a PM4 ring */
  SIM_MQD_SDMA,              /* KFD_IOC_QUEUE_TYPE_SDMA and _SDMA_XGMI */
};

/* One user-mode queue as its hardware descriptor holds it. */
struct sim_mqd {
  struct sim_qpd *qpd;       /* the process (VMID) and GPU it belongs to */
  uint32_t queue_id;         /* the process's queue id (traces, placement) */
  enum sim_mqd_format format;
  uint32_t priority;
  uint64_t ring, rptr, wptr; /* (L) ring base, read/write pointer addresses */
  uint32_t ring_size;        /* (L) bytes */
  bool active;               /* (L) ring, size and a nonzero share: the scheduler runs it */
  uint64_t eop, eop_size;    /* end-of-pipe buffer */
  uint64_t ctx_save;         /* CWSR area and its control stack */
  uint32_t ctx_save_size, ctl_stack_size;
  uint32_t sdma_engine, sdma_queue;
  uint32_t cu_mask[32];      /* (L) up to 1024 CUs */
  uint32_t cu_mask_count;    /* (L) */
  uint32_t doorbell_id;      /* index in the process's doorbell page(s) */
  volatile uint64_t *doorbell;   /* the driver's own view of the doorbell */
  uint64_t doorbell_page;    /* store offset of its page (the doorbell watch) */
};

struct cp_queue;

/* ---- hooks for sim/kfd/queue.c (called with the process lock held, except stop) ------- */
/* Starts the engine thread of `m` (which must outlive it): 0 or -errno (no thread). */
int sim_cp_queue_start(struct sim_mqd *m, struct cp_queue **engine);
void sim_cp_queue_update(struct cp_queue *e); /* (L) fields changed: re-read them */
/* Stops and joins the queue's thread. Call WITHOUT the lock (the thread takes it). */
void sim_cp_queue_stop(struct cp_queue *e);

/* ---- what sim/kfd implements for the engines (interrupts the driver handles) ---------- */
/* A GPU page fault of this process on `gpu`: the scheduler evicts the process's queues
 * there and the memory exception events are set. */
void sim_kfd_vm_fault_event(struct sim_gpu *gpu, uint64_t va, bool not_present, bool write);
/* The driver reset `gpu` after a hang: the process's queues there stop and its HW exception
 * events are set. */
void sim_kfd_gpu_reset_event(struct sim_gpu *gpu);
/* The CP's bad-opcode interrupt: sets HW exception events. */
void sim_kfd_hw_exception_signal(void);

/* ---- doorbell watch (dbwatch.c) -------------------------------------------------------
 * sim/kfd/doorbell.c reports every CPU mapping of a doorbell slice (store offset range) so
 * the pages can be write-protected while the queues sleep. */
void sim_dbwatch_mapped(void *addr, uint64_t len, uint64_t store_off);
void sim_dbwatch_unmapped(void *addr, uint64_t len);
/* Write-protects every CPU mapping of the doorbell page at store offset `page_off`.
 * Returns the number of mappings protected (0: nothing will report a store; poll instead). */
unsigned sim_dbwatch_arm(uint64_t page_off);
/* Lifts that protection again (an engine that armed and then found work) and wakes every
 * sleeping engine. */
void sim_dbwatch_disarm(uint64_t page_off);
/* The wake-up generation: bumped by every store to a protected page and by
 * sim_dbwatch_kick(). */
uint32_t sim_dbwatch_gen(void);
/* Sleeps while the generation equals `gen`, at most timeout_ns (0 = no limit). */
void sim_dbwatch_wait(uint32_t gen, uint64_t timeout_ns);
void sim_dbwatch_kick(void);
/* The engines of each doorbell page, and which of them are awake (working or looking for
 * work): an engine is counted awake from engine_start to engine_end except between
 * sim_dbwatch_idle and sim_dbwatch_awake, both given the generation the engine sleeps on.
 * sim_dbwatch_idle says whether it was the last one awake: only then may it protect the page
 * (sim_dbwatch_arm); otherwise it polls, as a store through a protected page would stall its
 * busy siblings' clients on every doorbell. A sibling woken by a generation change but not yet
 * back (a loaded host may not run it for a while) still counts as awake: it may find work. */
void sim_dbwatch_engine_start(uint64_t page_off);
void sim_dbwatch_engine_end(uint64_t page_off);
bool sim_dbwatch_idle(uint64_t page_off, uint32_t gen);
void sim_dbwatch_awake(uint64_t page_off, uint32_t gen);

/* ---- GPU memory helpers shared by the CP and SDMA (mem.c) ------------------------------ */
uint64_t sim_cp_now(void);                     /* GPU timestamp counter (100 MHz) */
/* A VM fault of the process on `gpu` at `va`: memory exception events as the kernel raises
 * them (and it evicts the process's queues of that GPU). */
void sim_cp_vm_fault(struct sim_gpu *gpu, uint64_t va, bool write);
/* A queue of the process on `gpu` hung (an engine stopped on a command it cannot run): the
 * driver resets the GPU, so the process's queues there stop and its HW exception events
 * are set, as the kernel's reset notification does. */
void sim_cp_gpu_hang(struct sim_gpu *gpu);
/* The compare of a memory poll (PM4 WAIT_REG_MEM, SDMA POLL_REGMEM; both engines number
 * their functions alike): 0 always, 1 <, 2 <=, 3 ==, 4 !=, 5 >=, 6 >; anything else never. */
bool sim_cp_poll_compare(uint32_t v, unsigned fn, uint32_t ref);

/* ---- AMD signal (amd_signal_t) and queue (amd_queue_t) layout: ROCR's ABI ------------- */
#define AMD_SIGNAL_KIND 0
#define AMD_SIGNAL_VALUE 8
#define AMD_SIGNAL_MAILBOX 16
#define AMD_SIGNAL_EVENT_ID 24
#define AMD_SIGNAL_START_TS 32
#define AMD_SIGNAL_END_TS 40
#define AMD_SIGNAL_SIZE 64

#define AMD_QUEUE_BASE_ADDRESS 8
#define AMD_QUEUE_SIZE 24
#define AMD_QUEUE_WRITE_DISPATCH_ID 0x38
#define AMD_QUEUE_READ_DISPATCH_ID 0x80
#define AMD_QUEUE_TMPRING_SIZE 0x8c
#define AMD_QUEUE_SCRATCH_SRD 0x90
#define AMD_QUEUE_SCRATCH_LOCATION 0xa0
#define AMD_QUEUE_SCRATCH_BYTES 0xa8
#define AMD_QUEUE_SCRATCH_LANE_BYTES 0xb0
#define AMD_QUEUE_PROPERTIES 0xb4
#define AMD_QUEUE_INACTIVE_SIGNAL 0xc0
#define AMD_QUEUE_BYTES 0x100
#define AMD_QUEUE_PROP_PROFILING (1u << 3)

/* Completes a signal the way the CP's end-of-pipe does: atomic decrement of the value (or a
 * store when `store`), then the mailbox write and interrupt. False on a VM fault. */
bool sim_cp_signal_complete(struct sim_gpu *gpu, uint64_t handle, bool store, int64_t value);
/* Reads a signal's value; false on a VM fault. */
bool sim_cp_signal_load(struct sim_gpu *gpu, uint64_t handle, int64_t *value);

#endif
