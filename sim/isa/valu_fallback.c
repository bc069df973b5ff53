/* valu_fallback.c — stands in for the VALU decoder (decode_vop*.c) until it is linked: a
 * weak definition, so the real one wins in the shared library, and in the static archive
 * the real member comes first in the index. It only sizes the instruction and calls it
 * unknown. */
#include "isa/exec.h"

__attribute__((weak)) int isa_decode_valu(const uint32_t *words, unsigned avail, uint64_t pc,
                                          struct isa_inst *out)
{
  uint32_t w0 = words[0];
  unsigned size = 4;
  if ((w0 >> 26) == 0x34)
    size = 8;   /* VOP3A/B/P */
  else if ((w0 & 0x1ff) == ISA_OP_LITERAL || (w0 & 0x1ff) == ISA_OP_SDWA ||
           (w0 & 0x1ff) == ISA_OP_DPP)
    size = 8;   /* VOP1/2/C with a literal or an SDWA/DPP dword */
  out->size = (uint8_t)(size / 4 <= avail ? size : 4);
  out->exec = isa_exec_unknown;
  out->name = NULL;
  return -1;
}
