/* SPDX-License-Identifier: MIT */
/* sdma.h — inside the SDMA v4 (gfx9) engine model: packet numbers, what running one packet
 * comes to, and the engine's access to memory through the GPU's VM.
 *
 * The packet facts (opcodes, sub-ops, field positions and widths) are those of the amdgpu
 * kernel driver's vega10 SDMA packet header and of ROCR 5.2.3's sdma_registers.h. Header
 * dword: op in bits 7:0, sub-op in 15:8, the rest per packet. */
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
};

#define SDMA_COPY_LINEAR 0
#define SDMA_COPY_SUB_WINDOW 4
#define SDMA_COPY_BROADCAST (1u << 27)   /* COPY_LINEAR header: a second destination */

/* What one packet came to. SDMA_BAD: the engine cannot run it (an illegal packet, or one
 * real hardware runs and this model does not) and `why` says which. */
enum sdma_res { SDMA_DONE, SDMA_WAIT, SDMA_FAULT, SDMA_BAD };

struct sdma_pkt {
  const uint32_t *dw;   /* the packet, dw[0] its header */
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
