/* SPDX-License-Identifier: MIT */
/* aql.h — the parts of compute queue processing: dispatch set-up, the PM4 interpreter, queue
 * errors. */
#ifndef SIM_CP_AQL_H
#define SIM_CP_AQL_H

#include "cp/engine.h"

/* Queue error codes the CP stores in amd_queue_t.queue_inactive_signal (ROCR's AqlQueue
 * decodes them in its queue-inactive handler). */
#define CP_ERR_SCRATCH_WAVE64 0x1u        /* not enough scratch: the runtime may add some */
#define CP_ERR_SCRATCH_WAVE32 0x400u      /* the same for a wave32 dispatch (gfx10+) */
#define CP_ERR_INVALID_DIM 0x2u
#define CP_ERR_GROUP_MEMORY 0x4u
#define CP_ERR_INVALID_CODE 0x8u
#define CP_ERR_INVALID_PACKET 0x20u
#define CP_ERR_GROUP_TOO_LARGE 0x40u
#define CP_ERR_OUT_OF_VGPRS 0x80u
#define CP_ERR_VENDOR_PACKET 0x100u
#define CP_ERR_ILLEGAL_INSTRUCTION 0x40000000u  /* the trap handler's code; also stored for an
                                                instruction the model does not implement */

enum cp_dispatch_result {
  CP_DISPATCH_DONE,
  CP_DISPATCH_SCRATCH,   /* *err = the scratch request code */
  CP_DISPATCH_ERROR,     /* *err = queue error code */
  CP_DISPATCH_FAULT,     /* VM fault raised; queue halted */
  CP_DISPATCH_HALTED,    /* waves halted (a trap handler stopped them): it never completes */
};

/* One kernel launch as the hardware sees it once the COMPUTE_* registers are set, whoever
 * set them (the AQL front end in dispatch.c or PM4 SET_SH_REG in pm4disp.c). */
struct cp_launch {
  uint64_t code_entry;             /* first instruction */
  uint32_t rsrc1, rsrc2;           /* COMPUTE_PGM_RSRC1/2 */
  uint32_t rsrc3;                  /* COMPUTE_PGM_RSRC3 (gfx90a+: ACCUM_OFFSET) */
  uint32_t user[16];               /* user SGPRs s0.. (COMPUTE_USER_DATA_*) */
  unsigned nu;
  uint16_t size[3];                /* work-group size in work-items */
  uint32_t grid[3];                /* work-items per dimension, counted from work-group 0 */
  uint32_t first[3];               /* first work-group id (COMPUTE_START_*) */
  uint32_t lds_bytes;
  uint64_t scratch_base;           /* GPU VA of wave slot 0 */
  uint32_t scratch_waves;          /* COMPUTE_TMPRING_SIZE.WAVES */
  uint32_t scratch_per_wave;       /* bytes; 0 = no scratch */
  unsigned wave_size;              /* 32 or 64; 0 reads as 64 (gfx9) */
};

/* COMPUTE_TMPRING_SIZE as the board's CP reads it: the device's scratch wave slots and the
 * bytes of each (gfx11+: WAVESIZE in 256-byte units, WAVES per shader engine). */
void cp_tmpring_decode(const struct sim_gpu *gpu, uint32_t tmpring, uint32_t *waves,
                       uint64_t *wave_bytes);

/* Runs every work-group of `l`; CP_DISPATCH_ERROR with *err for a wave exception. */
enum cp_dispatch_result cp_launch_run(struct cp_queue *cq, const struct cp_launch *l,
                                      uint32_t *err);

enum cp_dispatch_result cp_dispatch(struct cp_queue *cq, const uint8_t *pkt, uint64_t pkt_va,
                                    uint64_t amd_queue, uint64_t dispatch_id, uint32_t *err);
/* Runs the PM4 commands of an AMD PM4-IB vendor packet. */
enum cp_step cp_pm4_slot(struct cp_queue *cq, const uint8_t *pkt, uint64_t amd_queue);
/* Runs `n` dwords of PM4 commands (whole packets) for a PM4 ring queue (amd_queue 0) or an
 * AQL queue's vendor packet. CP_WORK when all ran, CP_HALTED on a fault or error. */
enum cp_step cp_pm4_run(struct cp_queue *cq, const uint32_t *dw, uint32_t n, uint64_t amd_queue,
                        unsigned depth);
/* The dwords of the packet whose header is `h` (type 2: 1; type 3: header + body, the
 * one-dword NOP form counted as 1); 0 for a type the CP does not take. */
uint32_t cp_pm4_packet_dwords(uint32_t h);
/* The CP stops the queue on a command it cannot run: an AQL queue gets the vendor-packet
 * error in its inactive signal, a PM4 queue halts with the CP's bad-opcode interrupt. */
void cp_pm4_error(struct cp_queue *cq, uint64_t amd_queue, const char *why, uint32_t h);
/* DISPATCH_DIRECT/INDIRECT: launches with the SH registers (pm4disp.c). */
enum cp_step cp_pm4_dispatch(struct cp_queue *cq, const uint32_t dim[3], uint32_t initiator,
                             uint64_t amd_queue);
/* Stores `code` in the queue's inactive signal (with its event) and halts the queue. */
void cp_queue_error(struct cp_queue *cq, uint64_t amd_queue, uint32_t code);

#endif
