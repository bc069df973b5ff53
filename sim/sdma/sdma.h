/* SPDX-License-Identifier: MIT */
/* sdma.h — inside the SDMA engine model (v4 of gfx9, v6 of gfx11, v7 of gfx12): packet numbers, what running one packet
 * comes to, and the engine's access to memory through the GPU's VM.
 *
 * The packet facts (opcodes, sub-ops, field positions and widths) are those of the amdgpu
 * kernel driver's vega10 SDMA packet header and of ROCR 5.2.3's sdma_registers.h. Header
 * dword: op in bits 7:0, sub-op in 15:8, the rest per packet. What v6/v7 change (from the
 * sdma_v6_0/sdma_v7_0 packet headers and amdgpu's and ROCR's gfx11/gfx12 SDMA code):
 *  - GCR_REQ (op 17, 5 dwords): a cache write-back/invalidate over a VA range (dw1 31:7 base,
 *    dw2 15:0 base high and 31:16 GCR_CNTL 15:0, dw3 2:0 GCR_CNTL 18:16 and 31:7 limit, dw4
 *    15:0 limit high, 27:24 VMID); ROCR wraps every submission in two (invalidate before,
 *    write back after). Memory here is coherent: it orders, nothing more. v4 has no op 17.
 *  - COPY_LINEAR's count is 30 bits of "bytes - 1" (22 on v4); FENCE's header carries MTYPE
 *    and cache-policy bits (16 on), read as nothing here.
 *  - v7's COPY_LINEAR_SUB_WINDOW (gfx12) has wider fields: dw3 x 15:0, y 31:16; dw4 z 13:0,
 *    pitch - 1 31:16; dw5 slice pitch - 1 (32 bits); the destination the same in dw8-10;
 *    dw11 width - 1 15:0, height - 1 31:16; dw12 depth - 1 13:0, cache policies above. */
#ifndef SIM_SDMA_SDMA_H
#define SIM_SDMA_SDMA_H

#include <stdbool.h>
#include <stdint.h>

#include "cp/engine.h"

enum {
  SDMA_NOP = 0,
  SDMA_COPY = 1,          /* sub-op 0 linear, 4 linear sub-window (others: tiled, T2T, SOA…) */
  SDMA_WRITE = 2,         /* sub-op 0 untiled */
  SDMA_INDIRECT = 4,
  SDMA_FENCE = 5,
  SDMA_TRAP = 6,
  SDMA_SEM = 7,
  SDMA_POLL_REGMEM = 8,
  SDMA_COND_EXE = 9,
  SDMA_ATOMIC = 10,
  SDMA_CONST_FILL = 11,
  SDMA_PTEPDE = 12,
  SDMA_TIMESTAMP = 13,    /* sub-op 0 set, 1 get (local), 2 get global */
  SDMA_SRBM_WRITE = 14,
  SDMA_PRE_EXE = 15,
  SDMA_DUMMY_TRAP = 16,
  SDMA_GCR_REQ = 17,      /* SDMA v5+ (gfx10+): cache control; sub-op 0 kernel, 1 user queue */
};

#define SDMA_COPY_LINEAR 0
#define SDMA_COPY_SUB_WINDOW 4
#define SDMA_COPY_BROADCAST (1u << 27)   /* COPY_LINEAR header: a second destination */

/* What one packet came to. SDMA_BAD: the engine cannot run it (an illegal packet, or one
 * real hardware runs and this model does not) and `why` says which. */
enum sdma_res { SDMA_DONE, SDMA_WAIT, SDMA_FAULT, SDMA_BAD };

struct sdma_pkt {
  const uint32_t *dw;   /* the packet, dw[0] its header */
  unsigned ver;         /* SDMA IP major version of the engine: 4 (gfx9), 6 (gfx11), 7 (gfx12) */
  uint32_t n;           /* its length in dwords */
  const char *why;      /* set with SDMA_BAD */
};

static inline uint32_t sdma_op(uint32_t header) { return header & 0xff; }
static inline uint32_t sdma_sub_op(uint32_t header) { return (header >> 8) & 0xff; }
static inline uint64_t sdma_addr(const uint32_t *dw) { return dw[0] | (uint64_t)dw[1] << 32; }

/* packet.c: runs one framed packet (COPY goes to copy.c). */
enum sdma_res sdma_execute(struct cp_queue *cq, struct sdma_pkt *p);
/* copy.c: COPY_LINEAR and COPY_LINEAR_SUB_WINDOW. */
enum sdma_res sdma_copy(struct sim_gpu *gpu, struct sdma_pkt *p);

/* vm.c: the engine's memory accesses; each false return has raised the VM fault. */
bool sdma_move(struct sim_gpu *gpu, uint64_t dst, uint64_t src, uint64_t n);
bool sdma_fill(struct sim_gpu *gpu, uint64_t dst, uint64_t n, const uint8_t *pattern,
               unsigned psize);
bool sdma_store32(struct sim_gpu *gpu, uint64_t va, uint32_t v);
bool sdma_store64(struct sim_gpu *gpu, uint64_t va, uint64_t v);

#endif
