/* SPDX-License-Identifier: MIT */
/* decode_mem.c — the vector memory and export formats: DS, FLAT/GLOBAL/SCRATCH, MUBUF,
 * MTBUF, MIMG, EXP, and VINTRP (gfx9 layouts). Graphics-only formats (EXP, VINTRP) decode (so
 * listings and faults can name them) but have no semantics. */
#include "isa/exec.h"
#include "isa/names.h"

#include <string.h>

/* Data dwords of a load/store name: the _dwordxN / _bN / format suffix. */
static unsigned data_dwords(const char *n)
{
  const char *x = strstr(n, "dwordx");
  if (x) return (unsigned)(x[6] - '0');
  if (strstr(n, "_b128") || strstr(n, "_xyzw")) return 4;
  if (strstr(n, "_b96") || strstr(n, "_xyz")) return 3;
  if (strstr(n, "_b64") || strstr(n, "_x2") || strstr(n, "_xy") || strstr(n, "_u64") ||
      strstr(n, "_i64") || strstr(n, "_f64") || strstr(n, "2_b32") || strstr(n, "2st64_b32"))
    return 2;
  return 1;
}

int isa_decode_mem(const uint32_t *w, unsigned avail, uint64_t pc, struct isa_inst *in)
{
  uint32_t w0 = w[0], w1 = avail > 1 ? w[1] : 0;
  unsigned top6 = w0 >> 26;
  in->size = 8;
  if (top6 == 0x35) {           /* VINTRP */
    static const char *const n[4] = {"v_interp_p1_f32", "v_interp_p2_f32", "v_interp_mov_f32", NULL};
    in->fmt = ISA_VINTRP;
    in->size = 4;
    in->op = (w0 >> 16) & 3;
    in->name = n[in->op];
    in->dst = (uint16_t)(ISA_OP_VGPR0 + ((w0 >> 18) & 0xff));
    in->src[0] = (uint16_t)(ISA_OP_VGPR0 + (w0 & 0xff));
    return -1;   /* graphics only */
  }
  if (avail < 2)
    return -1;
  switch (top6) {
  case 0x36:                    /* DS */
    in->fmt = ISA_DS;
    in->offset0 = w0 & 0xff;
    in->offset1 = (w0 >> 8) & 0xff;
    in->offset = (int32_t)(w0 & 0xffff);
    in->gds = (w0 >> 16) & 1;
    in->op = (w0 >> 17) & 0xff;
    in->addr = (uint16_t)(ISA_OP_VGPR0 + (w1 & 0xff));
    in->data = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 8) & 0xff));
    in->data1 = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 16) & 0xff));
    in->dst = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 24) & 0xff));
    in->name = isa_ds_names[in->op];
    in->exec = isa_exec_ds;
    break;
  case 0x37: {                  /* FLAT, SCRATCH, GLOBAL */
    in->seg = (w0 >> 14) & 3;
    in->fmt = in->seg == 0 ? ISA_FLAT : in->seg == 1 ? ISA_SCRATCH : ISA_GLOBAL;
    /* FLAT's offset is 12 bits unsigned; GLOBAL/SCRATCH have 13 bits, signed */
    in->offset = in->seg == 0 ? (int32_t)(w0 & 0xfff) : (int32_t)(w0 << 19) >> 19;
    in->lds = (w0 >> 13) & 1;
    if (in->seg == 1 && in->target == ISA_TARGET_GFX942) {
      in->sve = in->lds;   /* gfx942 scratch: bit 13 enables the VGPR address, no LDS form */
      in->lds = false;
    }
    in->glc = (w0 >> 16) & 1;
    in->slc = (w0 >> 17) & 1;
    in->sc1 = (w0 >> 25) & 1;
    in->op = (w0 >> 18) & 0x7f;
    in->addr = (uint16_t)(ISA_OP_VGPR0 + (w1 & 0xff));
    in->data = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 8) & 0xff));
    in->saddr = (w1 >> 16) & 0x7f;
    in->dst = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 24) & 0xff));
    const char *const *t = in->seg == 0 ? isa_flat_names : in->seg == 1 ? isa_scratch_names :
                           in->seg == 2 ? isa_global_names : NULL;
    in->name = t ? t[in->op] : NULL;
    in->exec = isa_exec_flat;
    break;
  }
  case 0x38:                    /* MUBUF */
  case 0x3a:                    /* MTBUF */
    in->fmt = top6 == 0x38 ? ISA_MUBUF : ISA_MTBUF;
    in->offset = (int32_t)(w0 & 0xfff);
    in->offen = (w0 >> 12) & 1;
    in->idxen = (w0 >> 13) & 1;
    in->glc = (w0 >> 14) & 1;
    if (top6 == 0x38) {
      in->lds = (w0 >> 16) & 1;
      in->slc = (w0 >> 17) & 1;
      in->sc1 = (w0 >> 15) & 1;
      in->op = (w0 >> 18) & 0x7f;
      in->name = isa_mubuf_names[in->op];
      if (in->op == 41 && in->target == ISA_TARGET_GFX942)
        in->name = "buffer_inv";   /* gfx940's name for the L2 invalidate */
    } else {
      in->op = (w0 >> 15) & 0xf;
      in->dfmt = (w0 >> 19) & 0xf;
      in->nfmt = (w0 >> 23) & 7;
      in->slc = (w1 >> 22) & 1;
      in->name = isa_mtbuf_names[in->op];
    }
    in->addr = (uint16_t)(ISA_OP_VGPR0 + (w1 & 0xff));
    in->data = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 8) & 0xff));
    in->saddr = (uint16_t)(((w1 >> 16) & 0x1f) << 2);
    in->tfe = (w1 >> 23) & 1;
    if (in->target == ISA_TARGET_GFX90A || in->target == ISA_TARGET_GFX942)
      in->tfe = false;   /* bit 23 is the acc bit there */
    in->soffset = (w1 >> 24) & 0xff;
    in->exec = isa_exec_mubuf;
    break;
  case 0x3c:                    /* MIMG */
    in->fmt = ISA_MIMG;
    in->dmask = (w0 >> 8) & 0xf;
    in->glc = (w0 >> 13) & 1;
    in->tfe = (w0 >> 16) & 1;
    in->op = (w0 >> 18) & 0x7f;
    in->slc = (w0 >> 25) & 1;
    in->addr = (uint16_t)(ISA_OP_VGPR0 + (w1 & 0xff));
    in->data = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 8) & 0xff));
    in->saddr = (uint16_t)(((w1 >> 16) & 0x1f) << 2);
    in->name = isa_mimg_names[in->op];
    if (!in->name)
      return -1;
    {   /* vdata's VGPRs (the allocation check): dmask's channels, 4 for gather4, halved by
         * d16 (word 1 bit 31), one more with tfe (word 0 bit 16: gfx90a's acc bit instead) */
      bool cdna = in->target == ISA_TARGET_GFX90A || in->target == ISA_TARGET_GFX942;
      unsigned n = (unsigned)__builtin_popcount(in->dmask ? in->dmask : 1);
      if (in->op >= 64 && in->op <= 95)
        n = 4;
      if (w1 >> 31)
        n = (n + 1) / 2;
      in->dwords = (uint8_t)(n + (in->tfe && !cdna));
    }
    in->exec = isa_exec_mimg;   /* exec_mimg.c; the fields it reads from in->words */
    return 0;
  case 0x31:                    /* EXP */
    in->fmt = ISA_EXP;
    in->name = "exp";
    return -1;
  default:
    in->size = 4;
    in->fmt = ISA_DS;
    return -1;
  }
  if (!in->name)
    return -1;
  in->dwords = (uint8_t)data_dwords(in->name);
  /* gfx90a's acc bit (FLAT and MUBUF/MTBUF word 1 bit 23, DS word 0 bit 25) puts the data in
   * AGPRs (exec_mfma.c) */
  bool cdna = in->target == ISA_TARGET_GFX90A || in->target == ISA_TARGET_GFX942;
  if ((top6 == 0x37 && (w1 >> 23) & 1) || (top6 == 0x36 && (w0 >> 25) & 1) ||
      ((top6 == 0x38 || top6 == 0x3a) && (w1 >> 23) & 1 && cdna)) {
    in->dst = (uint16_t)(in->dst + 256);
    in->data = (uint16_t)(in->data + 256);
    if (top6 == 0x36)
      in->data1 = (uint16_t)(in->data1 + 256);
    in->exec = isa_exec_agpr;
  }
  return 0;
}
