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

#include <stdbool.h>
#include <stdint.h>

#include "kfd/kfd.h"

/* ---- hooks for sim/kfd/queue.c (called with p->lock held, except stop) ---------------- */
int sim_cp_queue_start(struct sim_queue *q);   /* 0 or -errno (no thread) */
void sim_cp_queue_update(struct sim_queue *q); /* ring/percent changed: re-read them */
/* Stops and joins the queue's thread. Call WITHOUT p->lock (the thread takes it). */
void sim_cp_queue_stop(struct sim_queue *q);

/* ---- doorbell watch (dbwatch.c) -------------------------------------------------------
 * sim/kfd/doorbell.c reports every CPU mapping of a doorbell slice (store offset range) so
 * the pages can be write-protected while the queues sleep. */
void sim_dbwatch_mapped(void *addr, uint64_t len, uint64_t store_off);
void sim_dbwatch_unmapped(void *addr, uint64_t len);
/* Write-protects every CPU mapping of the doorbell page at store offset `page_off`.
 * Returns the number of mappings protected (0: nothing will report a store; poll instead). */
unsigned sim_dbwatch_arm(uint64_t page_off);
/* The wake-up generation: bumped by every store to a protected page and by
 * sim_dbwatch_kick(). */
uint32_t sim_dbwatch_gen(void);
/* Sleeps while the generation equals `gen`, at most timeout_ns (0 = no limit). */
void sim_dbwatch_wait(uint32_t gen, uint64_t timeout_ns);
void sim_dbwatch_kick(void);

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
