/* SPDX-License-Identifier: MIT */
/* text.h — what describe.c (gfx9) and describe_gfx11.c share to spell an instruction as
 * llvm-objdump does: a bounded text buffer and the operand printer's common part. */
#ifndef SIM_ISA_TEXT_H
#define SIM_ISA_TEXT_H

#include <stdbool.h>

#include "isa/wave.h"

struct isa_text {
  char *p;
  unsigned n, size;   /* used, capacity (the text stays NUL-terminated) */
};

/* printf into the buffer; what does not fit is cut */
void isa_text_put(struct isa_text *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The inline float constants' spellings, ISA_OP_F_HALF onward */
extern const char *const isa_text_float[9];

/* A register (v, a, s, ttmp; `dwords` > 1 as a range), an inline integer or float constant:
 * spelled, true; any other code (special registers, literals) is left to the caller: false */
bool isa_text_reg_or_const(struct isa_text *o, unsigned code, unsigned dwords);

/* The literal of in: an integer an inline constant could encode as that integer, a float
 * bit pattern of an inline constant (when float_ok) as its float, else hex */
void isa_text_literal(struct isa_text *o, const struct isa_inst *in, bool float_ok);

/* The destination and source widths (in registers) of a VALU operation from the type
 * tokens of its name (f64, i32, b16; with `ubyte` ubyte0..3 too): the last token is the
 * sources', the one before it (conversions, frexp_exp) the result's; a 64-bit type spans 2 */
void isa_text_widths(const char *name, bool ubyte, unsigned *dw, unsigned *sw);

/* A target's operand speller: code as `dwords` registers, its special registers and literals */
typedef void isa_text_opnd_fn(struct isa_text *o, const struct isa_inst *in, unsigned code,
                              unsigned dwords);

/* A FLAT, GLOBAL or SCRATCH instruction's operands as llvm-objdump spells them on every
 * target: vdst (loads, atomics that return), vaddr (two dwords for flat and for global
 * without saddr; "off" for scratch without `scratch_vaddr`), data (stores, atomics; twice the
 * dwords for cmpswap), saddr or "off" (global, scratch), offset. The cache policy is the
 * caller's. */
void isa_text_flat(struct isa_text *o, const struct isa_inst *in, isa_text_opnd_fn *opnd,
                   bool scratch_vaddr);

/* A buffer (MUBUF/MTBUF) instruction's operands as llvm-objdump spells them on every target:
 * vdata (twice the dwords for cmpswap), vaddr (two with idxen and offen, "off" with neither),
 * the V#, soffset, then `format` when not NULL (MTBUF's), then idxen offen offset. The cache
 * policy and what follows it differ by target and are the caller's. */
void isa_text_buffer(struct isa_text *o, const struct isa_inst *in, isa_text_opnd_fn *opnd,
                     void (*format)(struct isa_text *o, const struct isa_inst *in));

#endif
