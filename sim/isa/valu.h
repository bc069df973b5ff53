/* SPDX-License-Identifier: MIT */
/* valu.h — what the VALU files share (decode_vop*.c, exec_v*.c): the opcode tables each
 * semantics file contributes, operand fetch with DPP/SDWA/modifiers resolved once per
 * instruction (64 lanes at a time), and the write-back that applies omod/clamp, SDWA
 * destination selects, DPP row/bank masks and EXEC.
 *
 * Opcode space: one 10-bit space as VOP3 numbers it on gfx9 — VOPC 0x000-0x0ff,
 * VOP2 0x100 + op, VOP1 0x140 + op, VOP3-only 0x1c0-0x2ff, VOP3P 0x380 + op. */
#ifndef SIM_ISA_VALU_H
#define SIM_ISA_VALU_H

#include <fenv.h>

#include "isa/fp.h"
#include "isa/wave.h"

#define VALU_OP_VOP2 0x100u
#define VALU_OP_VOP1 0x140u
#define VALU_OP_VOP3P 0x380u

enum {
  VALU_GFX900 = 1u << 0, VALU_GFX906 = 1u << 1, VALU_GFX90A = 1u << 2,
  VALU_GFX9 = 7u, VALU_GFX906UP = 6u,
  /* gfx942 has every gfx90a opcode (decode_vop.c); this bit marks what it adds or reads
   * differently */
  VALU_GFX942 = 1u << 3,
};

enum {
  VALU_F_VOP3B = 1u << 0,    /* VOP3 form has an SGPR-pair sdst (carry-out / div_scale VCC) */
  VALU_F_CARRYIN = 1u << 1,  /* VOP2 form reads VCC as src2 (addc/subb, cndmask) */
  VALU_F_CARRYOUT = 1u << 2, /* VOP2 form writes VCC (sdst = VCC) */
  VALU_F_MADMK = 1u << 3,    /* VOP2 form: D = S0 * K + S1, K = the literal */
  VALU_F_MADAK = 1u << 4,    /* VOP2 form: D = S0 * S1 + K */
  VALU_F_MAC = 1u << 5,      /* src2 is the destination (v_mac/v_fmac) */
  VALU_F_SDST = 1u << 6,     /* destination is a scalar register (readlane, readfirstlane) */
  VALU_F_NOSRC = 1u << 7,    /* no source operand (v_nop, v_clrexcp) */
  VALU_F_NOVOP3 = 1u << 8,   /* no VOP3 form */
  VALU_F_MAI = 1u << 9,      /* AGPR operands (exec_mfma.c: v_accvgpr_*, v_mfma_*) */
};

struct valu_desc {
  uint16_t op;               /* in the 10-bit space above */
  uint8_t gfx;               /* VALU_GFX* where the opcode means this */
  uint16_t flags;            /* VALU_F_* */
  const char *name;
  isa_exec_fn *fn;
};

/* Each semantics file exports one table; decode_vop.c merges them. */
#define VALU_TABLE(x)                                                                        \
  extern const struct valu_desc valu_##x##_ops[];                                            \
  extern const unsigned valu_##x##_count;
VALU_TABLE(int)
VALU_TABLE(f32)
VALU_TABLE(f64)
VALU_TABLE(f16)
VALU_TABLE(cmp)
VALU_TABLE(cvt)
VALU_TABLE(pk)
VALU_TABLE(misc)
VALU_TABLE(g942)
VALU_TABLE(mai)
VALU_TABLE(fp8)
/* exec_mfma.c: AGPR operand codes of a VALU_F_MAI instruction (decode_vop.c) */
void isa_mai_operands(struct isa_inst *in, uint32_t w0, uint32_t w1);
#undef VALU_TABLE
#define VALU_COUNT(tab) const unsigned valu_##tab##_count = sizeof valu_##tab##_ops / sizeof valu_##tab##_ops[0]

/* ---- lanes ---- */
#define VALU_N SIM_ISA_WAVE_SIZE
/* for (each lane l set in mask m) */
#define VALU_EACH(m, l)                                                                      \
  for (uint64_t m_ = (m); m_; m_ &= m_ - 1)                                                  \
    for (unsigned l = (unsigned)__builtin_ctzll(m_), once_ = 1; once_; once_ = 0)
/* The same with the body expanded twice: a plain (vectorizable) loop when every lane of a
 * wave64 or a wave32 is on, the common case, and the set-bit walk otherwise. */
#define VALU_LOOP(m, l, ...)                                                                 \
  do {                                                                                       \
    uint64_t lm_ = (m);                                                                      \
    if (lm_ == ~0ull || lm_ == 0xffffffffull) {                                              \
      const unsigned n_ = lm_ == ~0ull ? VALU_N : 32;                                        \
      for (unsigned l = 0; l < n_; l++) { __VA_ARGS__ }                                      \
    } else {                                                                                 \
      VALU_EACH(lm_, l) { __VA_ARGS__ }                                                      \
    }                                                                                        \
  } while (0)

/* ---- operands ----
 * valu_src: source `i` of `in` for all 64 lanes, with (in this order) the DPP lane
 * permutation (src0), the SDWA select/sign extension, the VOP3 16-bit op_sel half, and abs
 * then neg for float types (integer types ignore them). Returns a pointer straight into
 * the VGPR file when nothing applies, else fills `buf`. */
const uint32_t *valu_src(struct isa_wave *w, const struct isa_inst *in, unsigned i,
                         enum isa_type t, uint32_t buf[VALU_N]);
/* 64-bit sources (VGPR pairs, SGPR pairs, 64-bit constants), abs/neg for F64. */
const uint64_t *valu_src64(struct isa_wave *w, const struct isa_inst *in, unsigned i,
                           enum isa_type t, uint64_t buf[VALU_N]);
/* Source `i` as a whole row with no modifier applied: the VGPR row itself, or a uniform
 * value (SGPR, constant, literal; `t` picks the inline constant, so an f16 one fills the low
 * half only) read once and broadcast into `buf` (fast.c, exec_vpk.c). Always inlined: gcc
 * kept it a call in fast.c, ~8-26 host instructions a source (issue 21). */
static inline __attribute__((always_inline)) const uint32_t *
valu_row(struct isa_wave *w, const struct isa_inst *in, unsigned i, enum isa_type t,
         uint32_t buf[VALU_N])
{
  unsigned code = in->src[i];
  if (code >= ISA_OP_VGPR0)
    return w->vgpr[code - ISA_OP_VGPR0];
  uint32_t v = isa_read_v32(w, in, code, 0, t);
  for (unsigned l = 0; l < VALU_N; l++)
    buf[l] = v;
  return buf;
}
/* A uniform (scalar) 64-bit source: carry-in masks, VCC. */
uint64_t valu_mask_src(struct isa_wave *w, const struct isa_inst *in, unsigned i);

/* Whether the host has a fused multiply-add the lane loops can use (x86-64: FMA3, asked
 * once; elsewhere when the compiler says fmaf is fast), and d[l] = fma(a[l], b[l], c[l]) for
 * l < n with it, one rounding (exec_vf32.c; the reference's v_fma_f32 and fast.c's). */
bool isa_host_fma(void);
void isa_fma_rows(uint32_t *d, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                  unsigned n);

/* The lanes an instruction writes: EXEC, less DPP-disabled rows/banks and invalid lanes. */
uint64_t valu_lanes(const struct isa_wave *w, const struct isa_inst *in);

/* Write-back of 32-bit results r[lane] for lanes in valu_lanes(): omod/clamp for F32/F16
 * results, 16-bit results zero the high half (gfx9) unless `keep_hi` or on gfx11/gfx12 (which
 * keep it, as gfx10+ do), op_sel[3] writes the high half, SDWA dst_sel/dst_unused. */
void valu_put(struct isa_wave *w, const struct isa_inst *in, const uint32_t *r,
              enum isa_type t);
void valu_put16(struct isa_wave *w, const struct isa_inst *in, const uint32_t *r,
                enum isa_type t, bool keep_hi);
void valu_put64(struct isa_wave *w, const struct isa_inst *in, const uint64_t *r,
                enum isa_type t);
/* gfx10+'s DPP8 in dpp_ctrl (above gfx9's 9-bit controls): lane l reads lane
 * (l & ~7) | select[l & 7], the eight 3-bit selects in `literal`; a source lane outside EXEC
 * reads 0 unless FI. */
#define VALU_DPP8 0x400u
#define VALU_DPP8_FI 0x800u
/* Whether a DPP_CTRL value names a lane pattern (decode rejects the reserved ones). */
bool valu_dpp_ctrl_valid(unsigned ctrl);

/* A lane mask result (compares, carry-out) to sdst / VCC. */
void valu_put_mask(struct isa_wave *w, const struct isa_inst *in, uint64_t m);

static inline int valu_next(struct isa_wave *w, const struct isa_inst *in)
{
  w->pc += in->size;
  return 0;
}

/* denormal controls of the wave's MODE */
static inline bool valu_d32in(const struct isa_wave *w) { return w->mode & FP_MODE_DENORM_F32_IN; }
static inline bool valu_d32out(const struct isa_wave *w) { return w->mode & FP_MODE_DENORM_F32_OUT; }
static inline bool valu_d64in(const struct isa_wave *w) { return w->mode & FP_MODE_DENORM_F64_IN; }
static inline bool valu_d64out(const struct isa_wave *w) { return w->mode & FP_MODE_DENORM_F64_OUT; }
static inline bool valu_ieee(const struct isa_wave *w) { return w->mode & FP_MODE_IEEE; }

/* MODE.FP_ROUND (0 nearest even, 1 +inf, 2 -inf, 3 zero; f32 in bits 1:0, f64/f16 in 3:2)
 * as the host rounding mode around a loop; -1 = nothing to restore (the default). */
static inline int valu_round_enter(unsigned hw)
{
  static const int host[4] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
  if (!(hw & 3))
    return -1;
  int old = fegetround();
  fesetround(host[hw & 3]);
  return old;
}
static inline void valu_round_leave(int old)
{
  if (old >= 0)
    fesetround(old);
}

/* ---- generators for the common shapes ----
 * VALU_OP32(fn, TA, TD, n, BODY): n sources of type TA read as uint32_t a, b, c; BODY
 * computes `uint32_t d`; written with valu_put(TD). Lanes iterate over the written set. */
#define VALU_OP32(fn, TA, TD, n, ...)                                                       \
  static int fn(struct isa_wave *w, const struct isa_inst *in)                              \
  {                                                                                          \
    uint32_t b0_[VALU_N], b1_[VALU_N], b2_[VALU_N], r_[VALU_N];                              \
    const uint32_t *s0_ = valu_src(w, in, 0, TA, b0_);                                       \
    const uint32_t *s1_ = (n) > 1 ? valu_src(w, in, 1, TA, b1_) : s0_;                       \
    const uint32_t *s2_ = (n) > 2 ? valu_src(w, in, 2, TA, b2_) : s0_;                       \
    const bool din = valu_d32in(w), dout = valu_d32out(w), ieee = valu_ieee(w);              \
    (void)din; (void)dout; (void)ieee; (void)s1_; (void)s2_;                                 \
    const int rm_ = TD == ISA_T_F32 ? valu_round_enter(w->mode) : -1;                       \
    VALU_LOOP(valu_lanes(w, in), l, {                                                        \
      uint32_t a = s0_[l], b = s1_[l], c = s2_[l], d;                                        \
      (void)a; (void)b; (void)c;                                                             \
      __VA_ARGS__;                                                                           \
      r_[l] = d;                                                                             \
    });                                                                                      \
    valu_round_leave(rm_);                                                                   \
    valu_put(w, in, r_, TD);                                                                 \
    return valu_next(w, in);                                                                 \
  }

/* f32 arithmetic with input/output denormal handling: BODY uses float x, y, z, sets float f */
#define VALU_F32(fn, n, ...)                                                                \
  VALU_OP32(fn, ISA_T_F32, ISA_T_F32, n, {                                                   \
    float x = fp_in32(a, din), y = fp_in32(b, din), z = fp_in32(c, din), f;                  \
    (void)y; (void)z;                                                                        \
    __VA_ARGS__;                                                                                    \
    d = fp_out32(f, dout);                                                                   \
  })

#endif
