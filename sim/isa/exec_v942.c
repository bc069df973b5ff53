/* SPDX-License-Identifier: MIT */
/* exec_v942.c — the VALU operations gfx942 (CDNA3) adds to gfx90a's: 64-bit moves and the
 * shift-and-add clang uses for address arithmetic. */
#include "isa/valu.h"

/* D.u64 = S0.u64: a VGPR pair source may carry DPP (row_newbcast and the like), applied to
 * both halves alike. */
static int v_mov_b64(struct isa_wave *w, const struct isa_inst *in)
{
  uint64_t r[VALU_N];
  if (in->dpp) {
    uint32_t b0[VALU_N], b1[VALU_N];
    struct isa_inst hi = *in;
    hi.src[0] = (uint16_t)(in->src[0] + 1);
    const uint32_t *lo = valu_src(w, in, 0, ISA_T_B32, b0), *up = valu_src(w, &hi, 0, ISA_T_B32, b1);
    for (unsigned l = 0; l < VALU_N; l++)
      r[l] = lo[l] | (uint64_t)up[l] << 32;
  } else {
    uint64_t b[VALU_N];
    const uint64_t *a = valu_src64(w, in, 0, ISA_T_B64, b);
    for (unsigned l = 0; l < VALU_N; l++)
      r[l] = a[l];
  }
  valu_put64(w, in, r, ISA_T_B64);
  return valu_next(w, in);
}

/* D.u64 = (S0.u64 << S1[2:0]) + S2.u64 */
static int v_lshl_add_u64(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b1[VALU_N];
  uint64_t b0[VALU_N], b2[VALU_N], r[VALU_N];
  const uint64_t *a = valu_src64(w, in, 0, ISA_T_B64, b0), *c = valu_src64(w, in, 2, ISA_T_B64, b2);
  const uint32_t *s = valu_src(w, in, 1, ISA_T_B32, b1);
  VALU_EACH(valu_lanes(w, in), l)
    r[l] = (a[l] << (s[l] & 7)) + c[l];
  valu_put64(w, in, r, ISA_T_B64);
  return valu_next(w, in);
}

const struct valu_desc valu_g942_ops[] = {
  { VALU_OP_VOP1 + 0x38, VALU_GFX942, 0, "v_mov_b64", v_mov_b64 },
  { 0x208, VALU_GFX942, 0, "v_lshl_add_u64", v_lshl_add_u64 },
};
VALU_COUNT(g942);
