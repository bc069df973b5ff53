/* SPDX-License-Identifier: MIT */
/* fast.h — the fast engine (fast.c): specialised semantics for the common VALU forms, run
 * by the interpreter loop (decode.c) in place of the reference semantics. */
#ifndef SIM_ISA_FAST_H
#define SIM_ISA_FAST_H

#include <stdbool.h>

#include "isa/wave.h"

/* The specialised semantics for a decoded instruction, or NULL (run in->exec). */
isa_exec_fn *isa_fast_select(const struct isa_inst *in);
/* false when HSA_SIM_INTERP is set (not "0"), or a probe chose the reference engine. */
bool isa_fast_enabled(void);

#endif
