/* SPDX-License-Identifier: MIT */
/* gfx11.h — the RDNA3 (gfx11) encodings on the gfx9 model's semantics. gfx11_ops.c lists
 * every gfx11 opcode with its mnemonic (as llvm-objdump-19 --mcpu=gfx1100 spells it) and the
 * name of the gfx9 operation that means the same; decode_gfx11.c resolves those names to the
 * gfx9 opcode numbers (scalar and memory formats) or VALU descriptors, so the exec_*.c
 * semantics run unchanged. What gfx9 has no operation for is in exec_gfx11.c. */
#ifndef SIM_ISA_GFX11_H
#define SIM_ISA_GFX11_H

#include <stdint.h>

#include "isa/valu.h"

struct g11_op {
  uint16_t op;               /* gfx11 opcode in its format */
  const char *name;          /* gfx11 mnemonic, with _e32 where llvm-objdump prints one */
  const char *gfx9;          /* gfx9 operation with the same semantics, or NULL */
};

#define G11_TABLE(f) extern const struct g11_op g11_##f[]; extern const unsigned g11_##f##_count;
G11_TABLE(sop2) G11_TABLE(sopk) G11_TABLE(sop1) G11_TABLE(sopc) G11_TABLE(sopp) G11_TABLE(smem)
G11_TABLE(vop1) G11_TABLE(vop2) G11_TABLE(vopc) G11_TABLE(vop3) G11_TABLE(vop3p) G11_TABLE(ds)
G11_TABLE(flat) G11_TABLE(global) G11_TABLE(scratch) G11_TABLE(mubuf) G11_TABLE(mtbuf)
#undef G11_TABLE
/* gfx12 (RDNA4, gfx12_ops.c): the same shape; SMEM, the VFLAT/VGLOBAL/VSCRATCH and VBUFFER
 * encodings are gfx12's own (decode_gfx11.c decodes both families) */
#define G12_TABLE(f) extern const struct g11_op g12_##f[]; extern const unsigned g12_##f##_count;
G12_TABLE(sop2) G12_TABLE(sopk) G12_TABLE(sop1) G12_TABLE(sopc) G12_TABLE(sopp) G12_TABLE(smem)
G12_TABLE(vop1) G12_TABLE(vop2) G12_TABLE(vopc) G12_TABLE(vop3) G12_TABLE(vop3p) G12_TABLE(ds)
G12_TABLE(flat) G12_TABLE(global) G12_TABLE(scratch) G12_TABLE(mubuf) G12_TABLE(mtbuf)
#undef G12_TABLE
/* gfx11's MIMG (gfx11_mimg.c) */
extern const struct g11_op g11_mimg[];
extern const unsigned g11_mimg_count;
/* gfx12's VIMAGE and VSAMPLE (decode_gfx12_image.c): their opcodes, and the decoder of both
 * encodings (same contract as isa_decode_gfx11) */
extern const struct g11_op g12_vimage[];
extern const unsigned g12_vimage_count;
int g12_decode_image(const uint32_t *w, unsigned avail, struct isa_inst *in);

/* gfx11's NULL (124; M0 is 125 there) is the model's ISA_OP_NULL (wave.h): the codes stay
 * gfx9's, where 125 is free. */

/* The decoder (decode_gfx11.c): same contract as isa_decode_sop; in->target picks gfx11 or
 * gfx12. */
int isa_decode_gfx11(const uint32_t *w, unsigned avail, uint64_t pc, struct isa_inst *in);
/* Text as llvm-objdump-19 --mcpu=gfx1100 prints it (describe_gfx11.c); *exact says whether
 * the operands are spelled exactly. */
unsigned isa_describe_gfx11(const struct isa_inst *in, char *buf, unsigned size, bool *exact);

/* decode_gfx11.c's formats, and (for tests) the entry of opcode `op` of format `f` for
 * `target` (gfx11 or gfx12): its mnemonic, gfx9 opcode (-1: none; 0x4000/0x5000 | op: gfx12's
 * SALU float) and VALU descriptor, as the decoder resolved them; false when no such opcode */
enum { G11_F_SOP2, G11_F_SOPK, G11_F_SOP1, G11_F_SOPC, G11_F_SOPP, G11_F_SMEM, G11_F_VOP1,
       G11_F_VOP2, G11_F_VOPC, G11_F_VOP3, G11_F_VOP3P, G11_F_DS, G11_F_FLAT, G11_F_GLOBAL,
       G11_F_SCRATCH, G11_F_MUBUF, G11_F_MTBUF, G11_F_COUNT };
bool g11_decode_entry(uint8_t target, unsigned f, unsigned op, const char **name, int *op9,
                      const struct valu_desc **d);

/* VALU descriptor of a gfx9 operation by name (decode_vop.c), NULL if none. */
const struct valu_desc *valu_find(const char *name);
/* the same by a scan of the opcode tables (valu_find looks in an index): for tests */
const struct valu_desc *valu_find_scan(const char *name);

/* gfx11 operations without a gfx9 equivalent (exec_gfx11.c; exec_rdna.c: lane
 * permutations, dot4_i32_iu8, the maxmin/minmax and minimum/maximum families) */
extern const struct valu_desc g11_valu_ops[];
extern const unsigned g11_valu_count;
extern const struct valu_desc g11_rdna_ops[];
extern const unsigned g11_rdna_count;
/* WMMA/SWMMAC and gfx12's fp8 dot products (exec_wmma.c) */
extern const struct valu_desc g11_wmma_ops[];
extern const unsigned g11_wmma_count;
/* tbuffer_* with gfx10+'s unified FORMAT (exec_rdna.c) */
isa_exec_fn g11_exec_tbuffer;
/* A unified FORMAT 1..63 as gfx9's DFMT/NFMT pair (exec_rdna.c; 0 and 0 for others) */
void g11_unified_format(unsigned u, uint8_t *dfmt, uint8_t *nfmt);
/* VOPD opcode names (decode_gfx11.c) */
const char *g11_vopd_name(unsigned op);
/* v_permlane16/x16's lane loop (exec_gfx11.c): lane l reads lane sel[l] of its row */
int g11_permlane_rows(struct isa_wave *w, const struct isa_inst *in, const uint8_t *sel, bool cross);
isa_exec_fn g11_exec_sop1, g11_exec_sopp, g11_exec_sopk, g11_exec_nop, g11_exec_vopd;
/* VOPD's halves as VOP2 instructions in the order g11_exec_vopd runs them (the first of size
 * 0); -1 for an opcode without semantics (exec_gfx11.c; the fast engine's VOPD, fast.c) */
int g11_vopd_halves(const struct isa_inst *in, struct isa_inst h[2]);
/* gfx12's SALU float operations (exec_gfx12.c): SOP2, SOP1, SOPC by name */
isa_exec_fn g12_exec_salu_float, g12_exec_v_s_f32;
bool g12_salu_float(const char *name);
bool g12_scmp_float(const char *cond, double a, double b);   /* s_cmp_*_f16/f32 by name */
/* gfx12's 16-bit SALU float and SALU minimum/maximum (exec_rdna_salu.c) */
isa_exec_fn g12_exec_salu_half, g12_exec_smem_sub;   /* and the sub-dword scalar loads */
bool g12_salu_half(const char *name);

/* VOPD: the Y half's fields, kept in the VALU-unused fields of the instruction */
#define G11_VOPD_Y_SRC0(in) ((in)->addr)
#define G11_VOPD_Y_SRC1(in) ((in)->data)
#define G11_VOPD_Y_DST(in) ((in)->data1)
#define G11_VOPD_Y_OP(in) ((in)->soffset)   /* 5-bit Y opcode */

#endif
