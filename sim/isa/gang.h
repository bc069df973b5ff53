/* SPDX-License-Identifier: MIT */
/* gang.h — two wave32 waves of one work-group run in lockstep through the fast engine's
 * blocks (decode.c isa_gang_run; run.c pairs them). */
#ifndef SIM_ISA_GANG_H
#define SIM_ISA_GANG_H

#include "isa/wave.h"

/* Runs wave32 waves `a` and `b` (a's VGPR rows 64 lanes wide, b's rows a's upper 32 lanes:
 * run.c's pair layout) instruction by instruction in turn while both are at the same pc: a
 * block entry whose fast semantics are lane by lane (isa_fast_lanewise) runs once for both
 * when every lane of both is on, a scalar load, wait, hint or branch (isa_fast_scalar) runs
 * once on a when what it reads holds the same in b (its results copied into b), any other
 * entry runs for a, then for b. Returns 0 when they
 * stop (barrier, end, halt), diverge (different pc), or cannot go as a gang (the reference
 * engine, FP exceptions in MODE, a block naming VGPRs beyond the allocation): each is then
 * at an instruction boundary and runs on alone (isa_wave_run); -1 on a fault of *who. */
int isa_gang_run(struct isa_wave *a, struct isa_wave *b, struct isa_wave **who);

#endif
