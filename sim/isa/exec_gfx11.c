/* SPDX-License-Identifier: MIT */
/* exec_gfx11.c — what gfx11 has that the gfx9 semantics do not: wave32's 32-bit EXEC for
 * the saveexec family and the mask branches, the SOPP hints that do nothing here
 * (s_delay_alu, s_clause, s_waitcnt_depctr, s_set_inst_prefetch_distance, s_code_end ...),
 * s_round_mode/s_denorm_mode, s_sendmsg_rtn, the few VALU operations gfx9 lacks, and VOPD
 * (two VALU operations in one instruction, both reading their sources before either writes). */
#include "isa/exec.h"
#include "isa/gfx11.h"

#include <pthread.h>
#include <string.h>

uint64_t sim_gpu_clock_counter(void);

/* s_waitcnt_*, s_barrier_signal, the cache hints and cache-maintenance instructions: an
 * ordering point only (isa_mem_fence) */
int g11_exec_nop(struct isa_wave *w, const struct isa_inst *in)
{
  isa_mem_fence();
  w->pc += in->size;
  return 0;
}

/* s_*_saveexec_b32 / _wrexec_b32 (in->op: the gfx9 b64 opcode), s_sendmsg_rtn_b32/b64 */
int g11_exec_sop1(struct isa_wave *w, const struct isa_inst *in)
{
  if (in->op == 0xffff) {   /* s_sendmsg_rtn: the message id is the source's code */
    const struct sim_isa_workgroup *wg = w->group->wg;
    uint64_t v = 0;
    switch (in->src[0]) {
    case 0x80: v = wg->doorbell_id & 0x3ff; break;            /* MSG_RTN_GET_DOORBELL */
    case 0x81: v = 0; break;                                  /* GET_DDID */
    case 0x82: v = wg->tma; break;                            /* GET_TMA */
    case 0x83: v = sim_gpu_clock_counter(); break;            /* GET_REALTIME */
    case 0x85: v = wg->tba; break;                            /* GET_TBA */
    default: break;
    }
    if (strstr(in->name, "_b64"))
      isa_write_s64(w, in->dst, v);
    else
      isa_write_s32(w, in->dst, (uint32_t)v);
    w->pc += in->size;
    return 0;
  }
  uint32_t s = isa_sread(w, in, in->src[0]), e = (uint32_t)w->exec;
  uint64_t n64;
  if (!isa_saveexec(in->op, s, e, &n64))
    return isa_unknown(w, in);
  uint32_t n = (uint32_t)n64;
  w->exec = (w->exec & ~0xffffffffull) | n;
  isa_write_s32(w, in->dst, in->op == 53 || in->op == 54 ? n : e);
  w->scc = n != 0;
  w->pc += in->size;
  return 0;
}

static uint64_t lanes_of(const struct isa_wave *w, uint64_t m)
{
  return w->wave32 ? (uint32_t)m : m;
}

int g11_exec_sopp(struct isa_wave *w, const struct isa_inst *in)
{
  int64_t target = (int64_t)w->pc + 4 + (int64_t)in->simm * 4;
  switch (in->op) {
  case 6: w->pc = lanes_of(w, w->vcc) == 0 ? (uint64_t)target : w->pc + 4; return 0;
  case 7: w->pc = lanes_of(w, w->vcc) != 0 ? (uint64_t)target : w->pc + 4; return 0;
  case 8: w->pc = lanes_of(w, w->exec) == 0 ? (uint64_t)target : w->pc + 4; return 0;
  case 9: w->pc = lanes_of(w, w->exec) != 0 ? (uint64_t)target : w->pc + 4; return 0;
  case 16: case 17:   /* s_sendmsg(hlt): gfx11's ids (trap.c: MSG_INTERRUPT, MSG_DEALLOC_VGPRS) */
    isa_sendmsg(w, (unsigned)in->simm & 0xffff);
    w->pc += 4;
    if (in->op == 17)
      isa_set_halt(w, true);
    return 0;
  case 0xffff:
    break;   /* gfx11's own: below */
  default:
    return isa_exec_sopp(w, in);
  }
  if (!strcmp(in->name, "s_barrier_wait")) {   /* gfx12: s_barrier_signal -1 then this */
    w->at_barrier = true;
    w->pc += 4;
    return 0;
  }
  if (!strcmp(in->name, "s_round_mode"))
    w->mode = (w->mode & ~0xfu) | (in->simm & 0xf);
  else if (!strcmp(in->name, "s_denorm_mode"))
    w->mode = (w->mode & ~0xf0u) | (in->simm & 0xf) << 4;
  /* s_delay_alu, s_clause, s_waitcnt_depctr, s_set_inst_prefetch_distance, s_wait_idle,
   * s_wait_event, s_code_end, s_ttracedata_imm: scheduling hints and padding; gfx12's
   * s_wait_*cnt order the wave's accesses */
  if (!strncmp(in->name, "s_wait", 6))
    isa_mem_fence();
  w->pc += 4;
  return 0;
}

/* ---- VALU operations gfx9 does not have ---- */
VALU_OP32(v_xor3_b32, ISA_T_B32, ISA_T_B32, 3, d = a ^ b ^ c)
VALU_OP32(v_cvt_i32_i16, ISA_T_B32, ISA_T_B32, 1, d = (uint32_t)(int32_t)(int16_t)a)
VALU_OP32(v_cvt_u32_u16, ISA_T_B32, ISA_T_B32, 1, d = a & 0xffff)

/* The lane loop of v_permlane16/x16 and gfx12's _var forms: lane j of each row of 16 takes
 * the source from lane sel[j] (0-15) of the same row, or of the other row of its 32 with
 * cross. OP_SEL[0] (FI) fetches from lanes EXEC disables too; without it such a source gives
 * 0 with OP_SEL[1] (BOUND_CTRL) and leaves the lane alone without. All sources are read
 * before any lane is written; lanes EXEC disables keep their value. */
int g11_permlane_rows(struct isa_wave *w, const struct isa_inst *in, const uint8_t *sel, bool cross)
{
  bool fi = in->opsel & 1, bc = (in->opsel >> 1) & 1;
  unsigned n = w->wave32 ? 32 : 64;
  uint32_t *d = w->vgpr[(in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1)];
  uint32_t tmp[64];
  bool keep[64];
  for (unsigned l = 0; l < n; l++) {
    unsigned row = l / 16 ^ (cross ? 1u : 0u), src = row * 16 + (sel[l] & 15u);
    keep[l] = false;
    if (fi || ((w->exec >> src) & 1))
      tmp[l] = isa_read_v32(w, in, in->src[0], src, ISA_T_B32);
    else if (bc)
      tmp[l] = 0;
    else
      keep[l] = true;
  }
  for (unsigned l = 0; l < n; l++)
    if (((w->exec >> l) & 1) && !keep[l])
      d[l] = tmp[l];
  return valu_next(w, in);
}

/* v_permlane16_b32 / v_permlanex16_b32: sel(j) is the j-th nibble of S2:S1, the same for
 * every row */
static int permlane(struct isa_wave *w, const struct isa_inst *in, bool cross)
{
  uint64_t s = isa_read_s32(w, in, in->src[1]) | (uint64_t)isa_read_s32(w, in, in->src[2]) << 32;
  uint8_t sel[64];
  for (unsigned l = 0; l < 64; l++)
    sel[l] = (uint8_t)(s >> (4 * (l % 16)) & 15);
  return g11_permlane_rows(w, in, sel, cross);
}

static int v_permlane16_b32(struct isa_wave *w, const struct isa_inst *in)
{
  return permlane(w, in, false);
}

static int v_permlanex16_b32(struct isa_wave *w, const struct isa_inst *in)
{
  return permlane(w, in, true);
}

const struct valu_desc g11_valu_ops[] = {
  { 0x378, 0, 0, "v_permlane16_b32", v_permlane16_b32 },
  { 0x379, 0, 0, "v_permlanex16_b32", v_permlanex16_b32 },
  { 0x370, 0, 0, "v_xor3_b32", v_xor3_b32 },
  { 0x371, 0, 0, "v_cvt_i32_i16", v_cvt_i32_i16 },
  { 0x372, 0, 0, "v_cvt_u32_u16", v_cvt_u32_u16 },
  /* gfx12 (exec_gfx12.c) */
  { 0x373, 0, VALU_F_SDST, "v_s_exp_f32", g12_exec_v_s_f32 },
  { 0x374, 0, VALU_F_SDST, "v_s_log_f32", g12_exec_v_s_f32 },
  { 0x375, 0, VALU_F_SDST, "v_s_rcp_f32", g12_exec_v_s_f32 },
  { 0x376, 0, VALU_F_SDST, "v_s_rsq_f32", g12_exec_v_s_f32 },
  { 0x377, 0, VALU_F_SDST, "v_s_sqrt_f32", g12_exec_v_s_f32 },
};
const unsigned g11_valu_count = sizeof g11_valu_ops / sizeof g11_valu_ops[0];

/* ---- VOPD ---- */
static const struct valu_desc *vopd_desc[19];
static pthread_once_t vopd_once = PTHREAD_ONCE_INIT;

static void vopd_build(void)
{
  static const char *const g9[19] = {
    "v_fmac_f32", "v_fmaak_f32", "v_fmamk_f32", "v_mul_f32", "v_add_f32", "v_sub_f32",
    "v_subrev_f32", "v_mul_legacy_f32", "v_mov_b32", "v_cndmask_b32", "v_max_f32", "v_min_f32",
    "v_dot2c_f32_f16", NULL, NULL, NULL, "v_add_u32", "v_lshlrev_b32", "v_and_b32" };
  for (unsigned i = 0; i < 19; i++)
    vopd_desc[i] = g9[i] ? valu_find(g9[i]) : NULL;
}

/* One half as a VOP2 instruction of its own (size 0: the pc moves once, after Y). */
static int half(struct isa_inst *h, const struct isa_inst *in, unsigned op, uint16_t s0,
                uint16_t s1, uint16_t dst)
{
  const struct valu_desc *d = op < 19 ? vopd_desc[op] : NULL;
  if (!d)
    return -1;
  *h = *in;
  h->fmt = ISA_VOP2;
  h->op = d->op;
  h->exec = d->fn;
  h->src[0] = s0;
  h->src[1] = s1;
  h->src[2] = 0;
  h->dst = dst;
  h->sdst = 0;
  if (d->flags & VALU_F_CARRYIN)
    h->src[2] = ISA_OP_VCC_LO;
  if (d->flags & VALU_F_MADMK) {
    h->src[2] = s1;
    h->src[1] = ISA_OP_LITERAL;
  } else if (d->flags & VALU_F_MADAK) {
    h->src[2] = ISA_OP_LITERAL;
  }
  if (d->flags & VALU_F_MAC)
    h->src[2] = dst;
  return 0;
}

static bool reads(const struct isa_inst *h, uint16_t reg)
{
  return h->src[0] == reg || h->src[1] == reg || h->src[2] == reg;
}

/* VOPD's two halves as VOP2 instructions in the order they run: Y first when it reads X's
 * destination (it must see X's old value) and X does not read Y's; the first of size 0 (the
 * pc moves once, after the second). -1 for an opcode without semantics. */
int g11_vopd_halves(const struct isa_inst *in, struct isa_inst h[2])
{
  pthread_once(&vopd_once, vopd_build);
  struct isa_inst x, y;
  if (half(&x, in, in->op, in->src[0], in->src[1], in->dst) ||
      half(&y, in, G11_VOPD_Y_OP(in), G11_VOPD_Y_SRC0(in), G11_VOPD_Y_SRC1(in),
           G11_VOPD_Y_DST(in)))
    return -1;
  bool yfirst = reads(&y, x.dst) && !reads(&x, y.dst);
  h[0] = yfirst ? y : x;
  h[1] = yfirst ? x : y;
  h[0].size = 0;
  h[1].size = in->size;
  return 0;
}

int g11_exec_vopd(struct isa_wave *w, const struct isa_inst *in)
{
  struct isa_inst h[2];
  if (g11_vopd_halves(in, h))
    return isa_unknown(w, in);
  if (h[0].exec(w, &h[0]))
    return -1;
  return h[1].exec(w, &h[1]);
}
