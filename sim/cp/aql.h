/* SPDX-License-Identifier: MIT */
/* aql.h — the parts of AQL processing: dispatch set-up, the PM4 interpreter, queue errors. */
#ifndef SIM_CP_AQL_H
#define SIM_CP_AQL_H

#include "cp/engine.h"

/* Queue error codes the CP stores in amd_queue_t.queue_inactive_signal (ROCR's AqlQueue
 * decodes them in its queue-inactive handler). */
#define CP_ERR_SCRATCH_WAVE64 0x1u        /* not enough scratch: the runtime may add some */
#define CP_ERR_INVALID_DIM 0x2u
#define CP_ERR_GROUP_MEMORY 0x4u
#define CP_ERR_INVALID_CODE 0x8u
#define CP_ERR_INVALID_PACKET 0x20u
#define CP_ERR_GROUP_TOO_LARGE 0x40u
#define CP_ERR_OUT_OF_VGPRS 0x80u
#define CP_ERR_VENDOR_PACKET 0x100u
#define CP_ERR_MEMORY_VIOLATION 0x20000000u  /* the trap handler's codes for wave exceptions */
#define CP_ERR_ILLEGAL_INSTRUCTION 0x40000000u
#define CP_ERR_DEBUG_TRAP 0x80000000u

enum cp_dispatch_result {
  CP_DISPATCH_DONE,
  CP_DISPATCH_SCRATCH,   /* *err = the scratch request code */
  CP_DISPATCH_ERROR,     /* *err = queue error code */
  CP_DISPATCH_FAULT,     /* VM fault raised; queue halted */
};

enum cp_dispatch_result cp_dispatch(struct cp_queue *cq, const uint8_t *pkt, uint64_t pkt_va,
                                    uint64_t amd_queue, uint64_t dispatch_id, uint32_t *err);
/* Runs the PM4 commands of an AMD PM4-IB vendor packet. */
enum cp_step cp_pm4_slot(struct cp_queue *cq, const uint8_t *pkt, uint64_t amd_queue);
/* Stores `code` in the queue's inactive signal (with its event) and halts the queue. */
void cp_queue_error(struct cp_queue *cq, uint64_t amd_queue, uint32_t code);

#endif
