/* SPDX-License-Identifier: MIT */
/* Per-thread work areas of the instruction engine, made on a thread's first need (thread_block.c). */
#ifndef SIM_ISA_THREAD_BLOCK_H
#define SIM_ISA_THREAD_BLOCK_H

#include <stddef.h>

enum isa_thread_block_id {
  ISA_TB_MFMA,        /* exec_mfma.c: a dense MFMA's operands and products */
  ISA_TB_SMFMAC,      /* exec_mfma.c: a sparse one's */
  ISA_TB_WMMA,        /* exec_wmma.c */
  ISA_TB_WAVE_INIT,   /* sim/cp: a work-group's wave start states */
  ISA_TB_COUNT
};

/* This thread's block `id` of `bytes` (always the same size for an id), zeroed when first
 * made and kept until the thread exits; NULL when the host is out of memory. */
void *isa_thread_block(enum isa_thread_block_id id, size_t bytes);

struct isa_wave;
struct isa_inst;
/* The fault of instruction `in` when its block could not be made (returns -1). */
int isa_thread_block_lost(struct isa_wave *w, const struct isa_inst *in);

#endif
