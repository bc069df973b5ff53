/* SPDX-License-Identifier: MIT */
/* decode_sop.c — the scalar formats: SOP2, SOPK, SOP1, SOPC, SOPP and SMEM (gfx9 layout). */
#include "isa/exec.h"
#include "isa/names.h"

/* SMEM opcodes that need no operands the generated name table could probe. */
static const char *smem_name(unsigned op)
{
  switch (op) {
  case 0x20: return "s_dcache_inv";
  case 0x21: return "s_dcache_wb";
  case 0x22: return "s_dcache_inv_vol";
  case 0x23: return "s_dcache_wb_vol";
  case 0x24: return "s_memtime";
  case 0x25: return "s_memrealtime";
  default: return isa_smem_names[op];
  }
}

static int literal(const uint32_t *w, unsigned avail, struct isa_inst *in)
{
  if (in->src[0] == ISA_OP_LITERAL || in->src[1] == ISA_OP_LITERAL) {
    if (avail < 2)
      return -1;
    in->literal = w[1];
    in->size = 8;
  }
  return 0;
}

int isa_decode_sop(const uint32_t *w, unsigned avail, uint64_t pc, struct isa_inst *in)
{
  uint32_t w0 = w[0];
  in->size = 4;
  if ((w0 >> 26) == 0x30) {   /* SMEM */
    in->fmt = ISA_SMEM;
    in->size = 8;
    if (avail < 2)
      return -1;
    uint32_t w1 = w[1];
    in->op = (w0 >> 18) & 0xff;
    in->saddr = (uint16_t)((w0 & 0x3f) << 1);
    in->sdst = (w0 >> 6) & 0x7f;
    in->dst = in->sdst;
    in->soe = (w0 >> 14) & 1;
    in->glc = (w0 >> 16) & 1;
    in->imm_offset = (w0 >> 17) & 1;
    bool buffer = (in->op >= 8 && in->op <= 15) || (in->op >= 24 && in->op <= 31) ||
                  (in->op >= 0x40 && in->op < 0x80);
    if (in->imm_offset) {
      /* gfx9: 21 bits signed for s_load/s_store/s_atomic, 20 bits unsigned through a V# */
      in->offset = buffer ? (int32_t)(w1 & 0xfffff) : (int32_t)(w1 << 11) >> 11;
      in->soffset = in->soe ? (w1 >> 25) & 0x7f : 0xffff;
    } else {
      in->offset = 0;
      in->soffset = w1 & 0x7f;   /* the SGPR holding the offset */
      in->soe = true;
    }
    static const uint8_t dw[5] = {1, 2, 4, 8, 16};
    unsigned low = in->op & 7;
    in->dwords = low < 5 ? dw[low] : 1;
    if (in->op >= 0x40)
      in->dwords = (in->op & 0x20) ? 2 : 1;   /* atomics: x2 forms move two dwords */
    in->name = smem_name(in->op);
    in->exec = isa_exec_smem;
    return in->name ? 0 : -1;
  }
  unsigned top9 = w0 >> 23;
  if (top9 == 0x17d) {          /* SOP1 */
    in->fmt = ISA_SOP1;
    in->op = (w0 >> 8) & 0xff;
    in->src[0] = w0 & 0xff;
    in->dst = (w0 >> 16) & 0x7f;
    in->name = isa_sop1_names[in->op];
    in->exec = isa_exec_sop1;
  } else if (top9 == 0x17e) {   /* SOPC */
    in->fmt = ISA_SOPC;
    in->op = (w0 >> 16) & 0x7f;
    in->src[0] = w0 & 0xff;
    in->src[1] = (w0 >> 8) & 0xff;
    in->name = isa_sopc_names[in->op];
    in->exec = isa_exec_sopc;
  } else if (top9 == 0x17f) {   /* SOPP */
    in->fmt = ISA_SOPP;
    in->op = (w0 >> 16) & 0x7f;
    in->simm = (int16_t)(w0 & 0xffff);
    in->name = isa_sopp_names[in->op];
    in->exec = isa_exec_sopp;
    return in->name ? 0 : -1;
  } else if ((w0 >> 28) == 0xb) {   /* SOPK */
    in->fmt = ISA_SOPK;
    in->op = (w0 >> 23) & 0x1f;
    in->dst = (w0 >> 16) & 0x7f;
    in->simm = (int16_t)(w0 & 0xffff);
    in->name = isa_sopk_names[in->op];
    in->exec = isa_exec_sopk;
    if (in->op == 0x14) {   /* s_setreg_imm32_b32 carries its value in a literal */
      if (avail < 2)
        return -1;
      in->literal = w[1];
      in->size = 8;
    }
    return in->name ? 0 : -1;
  } else {                      /* SOP2 */
    in->fmt = ISA_SOP2;
    in->op = (w0 >> 23) & 0x7f;
    in->src[0] = w0 & 0xff;
    in->src[1] = (w0 >> 8) & 0xff;
    in->dst = (w0 >> 16) & 0x7f;
    in->name = isa_sop2_names[in->op];
    in->exec = isa_exec_sop2;
  }
  if (literal(w, avail, in))
    return -1;
  return in->name ? 0 : -1;
}
