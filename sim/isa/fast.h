/* SPDX-License-Identifier: MIT */
/* fast.h — the fast engine (fast.c): specialised semantics for the common VALU forms, run
 * by the interpreter loop (decode.c) in place of the reference semantics. */
#ifndef SIM_ISA_FAST_H
#define SIM_ISA_FAST_H

#include <stdbool.h>

#include "isa/wave.h"

/* The specialised semantics for a decoded instruction, or NULL (run in->exec). */
isa_exec_fn *isa_fast_select(const struct isa_inst *in);
/* Called by the code cache after decoding `in`: when `in` and the instruction in the
 * following words (`avail` dwords readable, of which `room` bytes lie in the same code page)
 * form a pair the fast engine runs as one (v_add_co_u32 then the v_addc_co_u32 taking its
 * carry: a 64-bit add), decodes that one into in->pair and points in->fast at the fused
 * semantics (gfx11/gfx12: also across one s_delay_alu between them; the fused pc is the second
 * one's end). The single instruction stays decoded in its own slot for a branch into it.
 * A VOPD (gfx11/gfx12; `next` unused) gets its two halves in in->pair[0..1], run order, each
 * with its own fast semantics (the first of size 0, so in->size + pair->size is the next pc). */
void isa_fast_fuse(struct isa_inst *in, const uint32_t *next, unsigned avail, unsigned room,
                   uint8_t target);
/* Whether a and b (decoded, b right after a) are such a pair (for tests). */
bool isa_fast_pairs(const struct isa_inst *a, const struct isa_inst *b);
/* What isa_fast_lanewise returns: ISA_GANG_OK, with ISA_GANG_SGPR when it holds only if the
 * SGPRs it reads (the ISA_GANG_SRC0 << k operands, a pair each) hold the same in both waves,
 * and ISA_GANG_MASK when it writes a lane mask to in->sdst (VCC_LO or an SGPR below the
 * last: a merged call writes the pair, which the gang splits into each wave's 32 bits). */
enum { ISA_GANG_OK = 1, ISA_GANG_SGPR = 2, ISA_GANG_MASK = 4,
       ISA_GANG_EXEC = 8,    /* v_cmpx: EXEC too, which the gang splits likewise */
       ISA_GANG_PAIR = 16,   /* a fused add pair: run by isa_fast_add64_wide(), both halves'
                                sources compared, both masks split (the first's unless the
                                second writes the same) */
       ISA_GANG_MASKIN = 32, /* reads a lane mask (S2: v_cndmask, carry-in): the gang puts
                                the second wave's in the register above the first's for
                                the call, and puts that one back after */
       ISA_GANG_GLOBAL = 64, /* global_load/store_dword: isa_fast_global_gang, which may
                                refuse (each wave then runs alone) */
       ISA_GANG_SRC0 = 256 };   /* << k: source k is an SGPR to compare (k 0..2: in->src[k];
                                   a pair's 2, 3: its second's src[0], src[1]) */
/* The semantics of a fused add pair (isa_inst.pair) over 64 lanes, for the gang's merged
 * call (without the wave64 rule that runs the first half alone). */
isa_exec_fn *isa_fast_add64_wide(void);
/* global_load_dword / global_store_dword (in->fast f_global_dword) once for wave32 waves a
 * and b (EXEC all ones in both; b's VGPR rows a's upper 32 lanes): every lane's translation
 * is checked before anything moves; 1 (nothing done) when one is refused or the saddr pair
 * differs between a and b, so each runs alone and the reference raises a fault on the wave
 * (and lane) it belongs to; else 0 with a->pc advanced. */
int isa_fast_global_gang(struct isa_wave *a, const struct isa_wave *b, const struct isa_inst *in);
/* Whether the gang (decode.c isa_gang_run) may run `in`'s fast semantics once for two wave32
 * waves whose VGPR rows are interleaved: 0 no, else ISA_GANG_* bits. */
unsigned isa_fast_lanewise(const struct isa_inst *in);
/* What isa_fast_scalar returns for a scalar instruction with fast semantics whose effect the
 * gang can run once for two wave32 waves whose inputs hold the same (the loaded dwords then
 * copied into the second): ISA_GSC_OK with what it reads, to compare (the SMEM base pair,
 * SCC, the low halves of VCC or EXEC); 0 for anything else, which the gang runs for each
 * wave (SALU arithmetic among them: run again it costs less than compared and copied).
 * ISA_GSC_NOP: its fast semantics only move the pc past it (s_nop, s_delay_alu, s_clause,
 * ...); ISA_GSC_WAIT: the same after an acquire-release fence (s_waitcnt and gfx12's waits). */
enum { ISA_GSC_OK = 1, ISA_GSC_NOP = 2, ISA_GSC_WAIT = 4, ISA_GSC_SADDR = 8, ISA_GSC_SCC_IN = 16, ISA_GSC_VCC_IN = 32,
       ISA_GSC_EXEC_IN = 64 };
unsigned isa_fast_scalar(const struct isa_inst *in);
/* false when HSA_SIM_INTERP is set (not "0"), or a probe chose the reference engine. */
bool isa_fast_enabled(void);

#endif
