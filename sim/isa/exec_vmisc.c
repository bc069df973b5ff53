/* SPDX-License-Identifier: MIT */
/* exec_vmisc.c — moves and lane access: v_mov, v_cndmask, v_swap, v_readlane,
 * v_readfirstlane, v_writelane, v_nop. */
#include "isa/valu.h"

static int v_nop(struct isa_wave *w, const struct isa_inst *in) { return valu_next(w, in); }

VALU_OP32(v_mov_b32, ISA_T_B32, ISA_T_B32, 1, d = a)

/* S2 (VCC for VOP2, an SGPR pair for VOP3) picks S1 where set. abs/neg act as f32 ones. */
static int v_cndmask_b32(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t b0[VALU_N], b1[VALU_N], r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, ISA_T_F32, b0), *b = valu_src(w, in, 1, ISA_T_F32, b1);
  uint64_t sel = valu_mask_src(w, in, 2);
  VALU_EACH(valu_lanes(w, in), l)
    r[l] = (sel >> l & 1) ? b[l] : a[l];
  valu_put(w, in, r, ISA_T_B32);
  return valu_next(w, in);
}

static int v_swap_b32(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t *d = w->vgpr[(in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1)];
  uint32_t *s = w->vgpr[(in->src[0] - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1)];
  VALU_EACH(w->exec, l) {
    uint32_t t = d[l];
    d[l] = s[l];
    s[l] = t;
  }
  return valu_next(w, in);
}

static uint32_t lane_value(const struct isa_wave *w, const struct isa_inst *in, unsigned lane)
{
  return isa_read_v32(w, in, in->src[0], lane & 63, ISA_T_B32);
}

/* the first active lane, lane 0 when EXEC is empty */
static int v_readfirstlane_b32(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned lane = w->exec ? (unsigned)__builtin_ctzll(w->exec) : 0;
  isa_write_s32(w, in->dst, lane_value(w, in, lane));
  return valu_next(w, in);
}

/* EXEC is ignored by readlane/writelane; the lane select is taken modulo the wave size (its
 * bits [5:0], [4:0] in wave32: RDNA's pseudocode), so lane 32 of a wave32 wave is lane 0 */
static unsigned lane_select(const struct isa_wave *w, const struct isa_inst *in)
{
  return isa_read_s32(w, in, in->src[1]) & (w->wave32 ? 31u : 63u);
}

static int v_readlane_b32(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned lane = lane_select(w, in);
  isa_write_s32(w, in->dst, lane_value(w, in, lane));
  return valu_next(w, in);
}

static int v_writelane_b32(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned lane = lane_select(w, in);
  w->vgpr[(in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1)][lane] =
      isa_read_s32(w, in, in->src[0]);
  return valu_next(w, in);
}

#define E(op, gfx, flags, fn) { op, gfx, flags, #fn, fn }
#define V2 VALU_OP_VOP2 +
#define V1 VALU_OP_VOP1 +
const struct valu_desc valu_misc_ops[] = {
  E(V2 0x00, VALU_GFX9, VALU_F_CARRYIN, v_cndmask_b32),
  E(V1 0x00, VALU_GFX9, VALU_F_NOSRC, v_nop), E(V1 0x01, VALU_GFX9, 0, v_mov_b32),
  E(V1 0x02, VALU_GFX9, VALU_F_SDST | VALU_F_NOVOP3, v_readfirstlane_b32),
  { V1 0x35, VALU_GFX9, VALU_F_NOSRC, "v_clrexcp", v_nop },
  E(V1 0x51, VALU_GFX9, VALU_F_NOVOP3, v_swap_b32),
  E(0x289, VALU_GFX9, VALU_F_SDST, v_readlane_b32), E(0x28a, VALU_GFX9, 0, v_writelane_b32),
};
VALU_COUNT(misc);
