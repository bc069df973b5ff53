/* SPDX-License-Identifier: MIT */
/* exec_wmma.c — RDNA3/RDNA4 matrix instructions (VOP3P): gfx11's and gfx12's
 * v_wmma_* (D = A x B + C, 16x16 tiles) and gfx12's v_swmmac_* (A 2:4 sparse along K, C in
 * D, src2 the compression indices), and gfx12's v_dot4_f32_fp8/bf8 (table g11_wmma_ops,
 * found by name by decode_gfx11.c).
 *
 * Register layouts (the element of each matrix in each VGPR and lane) are those of AMD's
 * matrix instruction calculator for RDNA3 and RDNA4, which follow the ISA guides:
 * - gfx11: A[i][k] in lane i (the hardware wants lanes 16-31, and 32-63 in wave64, to hold
 *   copies; lanes 0-15 are read here), element k of the lane's packed registers (16 f16 in
 *   8 VGPRs, 16 bytes in 4, 16 nibbles in 2); B[k][j] likewise in lane j. C/D[i][j]: VGPR
 *   i / 2, lane 16 * (i % 2) + j in wave32; VGPR i / 4, lane 16 * (i % 4) + j in wave64;
 *   a 16-bit C/D in bits 15:0 of its VGPR, 31:16 with OPSEL[2] (the other half of D is C's).
 * - gfx12: no copies: wave32 lanes 16-31 hold other K elements (f16: blocks of 4, 8-bit
 *   and 4-bit: the second half of K) and rows 8-15 of C/D; wave64 moves the upper half of
 *   wave32's VGPRs to lanes 32-63 (rows 4-7 and 12-15 of C/D). 16-bit C/D are packed, two
 *   rows a VGPR. The formulas are in in_pos, out_pos and idx_pos below.
 * - SWMMAC: each group of 4 K elements of a row of A holds 2 values, stored side by side
 *   (f16: one VGPR; 8-bit: one 16-bit half; 4-bit: one byte); a 4-bit compression index a
 *   group in src2 (bits 1:0 the K position of the first value in its group, 3:2 the
 *   second's), OPSEL picking one of the index sets of the VGPR (wave32: 2 sets, one for the
 *   64-K 4-bit form; wave64: 4 sets for 16/8-bit A, else 2).
 *
 * Modifiers: floats: NEG[0]/NEG_HI[0] negate the low/high 16-bit elements of A, [1] of B;
 * NEG[2] negates C and NEG_HI[2] takes its absolute value (dense only; fp8/bf8 take none).
 * Integers: NEG[0] and NEG[1] make A and B signed; CLAMP saturates the sum. Inputs are
 * exact in double (fp8 and bf8 are OCP's E4M3 (bias 7, S.1111.111 NaN, no infinity) and
 * E5M2 (IEEE-like)); the products and C are summed in double and rounded once to the
 * result (nearest even) — the hardware's internal precision is not documented, so sums
 * that lose bits in double or in a narrower accumulator may differ in the last place.
 * A float CLAMP faults as not modelled. D is written in the lanes EXEC enables (the
 * hardware requires all of them); sources are read in every lane. */
#include "isa/exec.h"
#include "isa/gfx11.h"
#include "isa/thread_block.h"

#include <math.h>
#include <string.h>

enum { T_F16, T_BF16, T_I8, T_I4, T_FP8, T_BF8 };
enum { O_F32, O_F16, O_BF16, O_I32 };

struct wmma {
  uint8_t a, b, out, k;
  bool sparse;
};

static unsigned tbits(unsigned t)
{
  return t == T_F16 || t == T_BF16 ? 16 : t == T_I4 ? 4 : 8;
}

/* ---- layouts: the VGPR (from the operand's first), lane and bit of an element ---------- */

/* A[i][k] (b false) or B[k][i] (b true); for a sparse A, the slot of k's group of 4 */
static void in_pos(const struct wmma *s, bool g12, bool w64, bool b, unsigned i, unsigned k,
                   unsigned *reg, unsigned *lane, unsigned *bit)
{
  unsigned ds = tbits(b ? s->b : s->a), K = s->k;
  if (!g12) {
    *reg = k * ds / 32;
    *bit = k * ds % 32;
    *lane = i;
    return;
  }
  if (!s->sparse) {
    *bit = ds * (k % (32 / ds));
    if (!w64) {
      *reg = ds == 16 ? 2 * (k / 8) + (k / 2) % 2 : ds == 8 ? (k / 4) % 2 : K == 32 ? (k / 8) % 2 : 0;
      *lane = (ds == 16 ? 16 * ((k / 4) % 2) : ds == 8 || K == 16 ? 16 * (k / 8) : 16 * (k / 16)) + i;
    } else {
      *reg = ds == 16 ? (k / 2) % 2 : 0;
      *lane = (ds == 16 ? 32 * ((k / 8) % 2) + 16 * ((k / 4) % 2)
               : ds == 8 ? 32 * ((k / 4) % 2) + 16 * ((k / 8) % 2)
               : K == 16 ? 16 * (k / 8) : 32 * ((k / 8) % 2) + 16 * ((k / 16) % 2)) + i;
    }
    return;
  }
  /* SWMMAC: the lanes of A (and its indices) and of B */
  if (!w64)
    *lane = ds == 16 ? 16 * ((k / 8) % 2) : ds == 8 || K == 32 ? 16 * (k / 16) : 16 * (k / 32);
  else if (ds == 16)
    *lane = 16 * (k / 8);
  else if (ds == 8 || K == 32)
    *lane = ds == 4 && !b ? 16 * (k / 16) : 32 * ((k / 8) % 2) + 16 * (k / 16);
  else
    *lane = 32 * ((k / 16) % 2) + 16 * (k / 32);
  *lane += i;
  if (b) {
    *bit = ds * (k % (32 / ds));
    if (!w64)
      *reg = ds == 16 ? 4 * (k / 16) + (k / 2) % 4 : ds == 8 ? (k / 4) % 4 : K == 32 ? (k / 8) % 2 : (k / 8) % 4;
    else
      *reg = ds == 16 ? (k / 2) % 4 : ds == 8 ? (k / 4) % 2 : K == 32 ? 0 : (k / 8) % 2;
  } else {
    *bit = ds == 16 ? 0 : 2 * ds * ((k / 4) % (16 / ds));
    if (!w64)
      *reg = ds == 16 ? 2 * (k / 16) + (k / 4) % 2 : ds == 8 ? (k / 8) % 2 : K == 64 ? (k / 16) % 2 : 0;
    else
      *reg = ds == 16 ? (k / 4) % 2 : 0;
  }
}

/* SWMMAC: the bit of the compression index of A[i][k]'s group in src2 (lane as A's) */
static unsigned idx_bit(const struct wmma *s, bool w64, unsigned k, unsigned opsel)
{
  unsigned ds = tbits(s->a), sets, bit;
  if (!w64) {
    bit = ds == 16 ? 8 * (k / 16) + 4 * ((k / 4) % 2) : ds == 8 || s->k == 32 ? 4 * ((k / 4) % 4)
                                                                              : 4 * ((k / 4) % 8);
    sets = ds == 4 && s->k == 64 ? 1 : 2;
  } else {
    bit = ds != 4 ? 4 * ((k / 4) % 2) : 4 * ((k / 4) % 4);
    sets = ds != 4 ? 4 : 2;
  }
  return bit + (opsel % sets) * (32 / sets);
}

/* C/D[i][j] */
static void out_pos(const struct wmma *s, bool g12, bool w64, unsigned i, unsigned j,
                    unsigned opsel, unsigned *reg, unsigned *lane, unsigned *bit)
{
  bool h = s->out == O_F16 || s->out == O_BF16;
  if (!g12) {
    *reg = w64 ? i / 4 : i / 2;
    *lane = (w64 ? 16 * (i % 4) : 16 * (i % 2)) + j;
    *bit = h && (opsel & 4) ? 16 : 0;
    return;
  }
  *bit = h ? 16 * (i % 2) : 0;
  if (!w64) {
    *reg = h ? (i / 2) % 4 : i % 8;
    *lane = 16 * (i / 8) + j;
  } else {
    *reg = h ? (i / 2) % 2 : i % 4;
    *lane = 32 * ((i / 4) % 2) + 16 * (i / 8) + j;
  }
}

/* ---- element values ------------------------------------------------------------------- */

static double ocp8(unsigned x, bool bf8)
{
  unsigned mb = bf8 ? 2 : 3, e = (x >> mb) & (bf8 ? 31u : 15u), m = x & ((1u << mb) - 1);
  int bias = bf8 ? 15 : 7;
  double v;
  if (bf8 && e == 31)
    v = m ? NAN : INFINITY;
  else if (!bf8 && e == 15 && m == 7)
    v = NAN;
  else if (!e)
    v = ldexp(m, 1 - bias - (int)mb);
  else
    v = ldexp((double)(m | 1u << mb), (int)e - bias - (int)mb);
  return x & 0x80 ? -v : v;
}

static double fval(unsigned t, uint32_t x)
{
  switch (t) {
  case T_F16: return fp_f16_to_f32(x & 0xffff);
  case T_BF16: return fp_f((x & 0xffff) << 16);
  case T_FP8: return ocp8(x & 0xff, false);
  default: return ocp8(x & 0xff, true);
  }
}

static int64_t ival(unsigned t, uint32_t x, bool sgn)
{
  if (t == T_I8)
    return sgn ? (int8_t)(x & 0xff) : (int64_t)(x & 0xff);
  x &= 15;
  return sgn && (x & 8) ? (int64_t)x - 16 : (int64_t)x;
}

/* d rounded to nearest even into a binary float of ebits exponent and mbits mantissa bits
 * (f16: 5, 10; bf16: 8, 7); NaN gives the quiet NaN */
static uint32_t narrow(double d, unsigned ebits, unsigned mbits)
{
  uint32_t emax = (1u << ebits) - 1, sign = signbit(d) ? 1u << (ebits + mbits) : 0;
  int bias = (int)(emax >> 1);
  if (isnan(d))
    return (emax << mbits) | 1u << (mbits - 1);
  d = fabs(d);
  if (isinf(d))
    return sign | emax << mbits;
  if (d == 0)
    return sign;
  int e;
  (void)frexp(d, &e);
  e -= 1;                                    /* d in [2^e, 2^(e+1)) */
  if (e < 1 - bias)
    e = 1 - bias;                            /* denormal: the smallest exponent's scale */
  double q = nearbyint(ldexp(d, (int)mbits - e));
  if (q >= ldexp(1, (int)mbits + 1)) {       /* rounded up to the next binade */
    q /= 2;
    e++;
  }
  uint32_t field = q >= ldexp(1, (int)mbits) ? (uint32_t)(e + bias) : 0;
  if (field >= emax)
    return sign | emax << mbits;
  return sign | field << mbits | ((uint32_t)q & ((1u << mbits) - 1));
}

/* ---- the instructions ----------------------------------------------------------------- */

#define WMMA_MAXR 8   /* VGPRs of one operand at most */

struct operand {
  unsigned n;                      /* VGPRs */
  uint32_t v[WMMA_MAXR][VALU_N];
};

/* One product's operands and its matrices as numbers: large, so made per thread on first use
 * (thread_block.c) rather than held in every thread's static TLS */
struct wmma_area {
  struct operand A, B, C, X;
  double fa[16][64], fb[64][16];
  int64_t ia[16][64], ib[64][16];
  uint8_t sel[16][64];   /* SWMMAC: the K of each stored A value */
};

/* n VGPRs from code (a constant or SGPR: the same value in every register and lane) */
static int take(struct isa_wave *w, const struct isa_inst *in, unsigned code, unsigned n,
                enum isa_type t, struct operand *o)
{
  o->n = n;
  if (code < ISA_OP_VGPR0) {
    uint32_t c = isa_read_v32(w, in, code, 0, t);
    for (unsigned r = 0; r < n; r++)
      for (unsigned l = 0; l < VALU_N; l++)
        o->v[r][l] = c;
    return 0;
  }
  unsigned v0 = code - ISA_OP_VGPR0;
  if (code >= ISA_OP_AGPR0 || v0 + n > w->vgpr_alloc)
    return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, 0, false, "%s at 0x%llx uses v%u beyond the %u VGPRs allocated",
                     in->name, (unsigned long long)in->pc, v0 + n - 1, w->vgpr_alloc);
  for (unsigned r = 0; r < n; r++)
    memcpy(o->v[r], w->vgpr[v0 + r], sizeof o->v[r]);
  return 0;
}

static unsigned regs(unsigned bits_per_lane_total, unsigned lanes)
{
  unsigned n = (bits_per_lane_total / lanes + 31) / 32;
  return n ? n : 1;
}

static int run(struct isa_wave *w, const struct isa_inst *in, const struct wmma *s)
{
  bool g12 = in->target == ISA_TARGET_GFX1201, w64 = !w->wave32;
  unsigned lanes = w64 ? 64 : 32;
  bool fl = s->out != O_I32, h = s->out == O_F16 || s->out == O_BF16;
  if (fl && in->clamp)
    return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, 0, false, "%s at 0x%llx: clamp on a float matrix "
                     "product is not modelled", in->name, (unsigned long long)in->pc);
  unsigned ka = s->sparse ? s->k / 2 : s->k;
  /* register counts: gfx11 keeps a row (column) in a lane, gfx12 spreads 16 x K over the wave */
  unsigned na = g12 ? regs(16 * ka * tbits(s->a), lanes) : ka * tbits(s->a) / 32;
  unsigned nb = g12 ? regs(16 * s->k * tbits(s->b), lanes) : s->k * tbits(s->b) / 32;
  unsigned nc = regs(256 * (h && g12 ? 16 : 32), lanes);
  struct wmma_area *area = isa_thread_block(ISA_TB_WMMA, sizeof *area);
  if (!area) return isa_thread_block_lost(w, in);
  struct operand *const A = &area->A, *const B = &area->B, *const C = &area->C, *const X = &area->X;
  enum isa_type ct = s->out == O_F32 ? ISA_T_F32 : s->out == O_F16 ? ISA_T_F16 : ISA_T_B32;
  if (take(w, in, in->src[0], na, ISA_T_B32, A) || take(w, in, in->src[1], nb, ISA_T_B32, B) ||
      take(w, in, s->sparse ? in->dst : in->src[2], nc, ct, C) ||
      (s->sparse && take(w, in, in->src[2], 1, ISA_T_B32, X)))
    return -1;
  unsigned d0 = in->dst - ISA_OP_VGPR0;
  if (in->dst < ISA_OP_VGPR0 || in->dst >= ISA_OP_AGPR0 || d0 + nc > w->vgpr_alloc)
    return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, 0, false, "%s at 0x%llx writes beyond the %u VGPRs allocated",
                     in->name, (unsigned long long)in->pc, w->vgpr_alloc);
  bool sa = in->neg & 1, sb = in->neg & 2;   /* integers: signed A, B */
  double (*fa)[64] = area->fa, (*fb)[16] = area->fb;
  int64_t (*ia)[64] = area->ia, (*ib)[16] = area->ib;
  uint8_t (*sel)[64] = area->sel;
  unsigned ds = tbits(s->a);
  /* A: 16 rows x ka stored values (sparse: 2 a group of 4, at their indexed positions) */
  for (unsigned i = 0; i < 16; i++)
    for (unsigned q = 0; q < ka; q++) {
      unsigned k = s->sparse ? 4 * (q / 2) : q, reg, lane, bit;
      in_pos(s, g12, w64, false, i, k, &reg, &lane, &bit);
      if (s->sparse) {
        bit += (q % 2) * ds;
        unsigned ix = (X->v[0][lane] >> idx_bit(s, w64, k, in->opsel)) & 15;
        sel[i][q] = (uint8_t)(k + ((ix >> (2 * (q % 2))) & 3));
      }
      uint32_t x = A->v[reg][lane] >> bit;
      if (fl) {
        double v = fval(s->a, x);
        if (ds == 16 && ((bit >= 16 ? in->neg_hi : in->neg) & 1))
          v = -v;
        fa[i][q] = v;
      } else {
        ia[i][q] = ival(s->a, x, sa);
      }
    }
  for (unsigned j = 0; j < 16; j++)
    for (unsigned k = 0; k < s->k; k++) {
      unsigned reg, lane, bit;
      in_pos(s, g12, w64, true, j, k, &reg, &lane, &bit);
      uint32_t x = B->v[reg][lane] >> bit;
      if (fl) {
        double v = fval(s->b, x);
        if (tbits(s->b) == 16 && ((bit >= 16 ? in->neg_hi : in->neg) & 2))
          v = -v;
        fb[k][j] = v;
      } else {
        ib[k][j] = ival(s->b, x, sb);
      }
    }
  uint32_t (*d)[VALU_N] = (uint32_t (*)[VALU_N])&w->vgpr[d0];
  /* D starts as C (the other half of a gfx11 16-bit result), lanes EXEC enables */
  for (unsigned r = 0; r < nc; r++)
    VALU_EACH(w->exec, l)
      d[r][l] = C->v[r][l];
  for (unsigned i = 0; i < 16; i++)
    for (unsigned j = 0; j < 16; j++) {
      unsigned reg, lane, bit;
      out_pos(s, g12, w64, i, j, in->opsel, &reg, &lane, &bit);
      if (!((w->exec >> lane) & 1))
        continue;
      uint32_t c = C->v[reg][lane], r;
      if (fl) {
        double acc = s->out == O_F32 ? (double)fp_f(c)
                   : s->out == O_F16 ? (double)fp_f16_to_f32((c >> bit) & 0xffff)
                                     : (double)fp_f(((c >> bit) & 0xffff) << 16);
        if (!s->sparse && (in->neg_hi & 4))
          acc = fabs(acc);
        if (!s->sparse && (in->neg & 4))
          acc = -acc;
        for (unsigned q = 0; q < ka; q++)
          acc += fa[i][q] * fb[s->sparse ? sel[i][q] : q][j];
        r = s->out == O_F32 ? fp_u((float)acc) : s->out == O_F16 ? narrow(acc, 5, 10) : narrow(acc, 8, 7);
      } else {
        int64_t acc = (int32_t)c;
        for (unsigned q = 0; q < ka; q++)
          acc += ia[i][q] * ib[s->sparse ? sel[i][q] : q][j];
        if (in->clamp)
          acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
        r = (uint32_t)acc;
      }
      if (h)
        d[reg][lane] = (d[reg][lane] & ~(0xffffu << bit)) | r << bit;
      else
        d[reg][lane] = r;
    }
  return valu_next(w, in);
}

#define WMMA(fn, a_, b_, o_, k_, sp)                                                           \
  static int fn(struct isa_wave *w, const struct isa_inst *in)                                \
  {                                                                                            \
    static const struct wmma s = {a_, b_, o_, k_, sp};                                         \
    return run(w, in, &s);                                                                     \
  }
WMMA(wmma_f32_f16, T_F16, T_F16, O_F32, 16, false)
WMMA(wmma_f32_bf16, T_BF16, T_BF16, O_F32, 16, false)
WMMA(wmma_f16_f16, T_F16, T_F16, O_F16, 16, false)
WMMA(wmma_bf16_bf16, T_BF16, T_BF16, O_BF16, 16, false)
WMMA(wmma_i32_iu8, T_I8, T_I8, O_I32, 16, false)
WMMA(wmma_i32_iu4, T_I4, T_I4, O_I32, 16, false)
WMMA(wmma_i32_iu4_k32, T_I4, T_I4, O_I32, 32, false)
WMMA(wmma_fp8_fp8, T_FP8, T_FP8, O_F32, 16, false)
WMMA(wmma_fp8_bf8, T_FP8, T_BF8, O_F32, 16, false)
WMMA(wmma_bf8_fp8, T_BF8, T_FP8, O_F32, 16, false)
WMMA(wmma_bf8_bf8, T_BF8, T_BF8, O_F32, 16, false)
WMMA(swmmac_f32_f16, T_F16, T_F16, O_F32, 32, true)
WMMA(swmmac_f32_bf16, T_BF16, T_BF16, O_F32, 32, true)
WMMA(swmmac_f16_f16, T_F16, T_F16, O_F16, 32, true)
WMMA(swmmac_bf16_bf16, T_BF16, T_BF16, O_BF16, 32, true)
WMMA(swmmac_i32_iu8, T_I8, T_I8, O_I32, 32, true)
WMMA(swmmac_i32_iu4, T_I4, T_I4, O_I32, 32, true)
WMMA(swmmac_i32_iu4_k64, T_I4, T_I4, O_I32, 64, true)
WMMA(swmmac_fp8_fp8, T_FP8, T_FP8, O_F32, 32, true)
WMMA(swmmac_fp8_bf8, T_FP8, T_BF8, O_F32, 32, true)
WMMA(swmmac_bf8_fp8, T_BF8, T_FP8, O_F32, 32, true)
WMMA(swmmac_bf8_bf8, T_BF8, T_BF8, O_F32, 32, true)

/* v_dot4_f32_{fp8,bf8}_{fp8,bf8} (gfx12): D.f32 = S2.f32 + the 4 byte products of S0 and
 * S1 (OCP fp8/bf8), summed in double and rounded once */
static int dot4_f8(struct isa_wave *w, const struct isa_inst *in, bool abf, bool bbf)
{
  uint32_t b0[VALU_N], b1[VALU_N], b2[VALU_N], r[VALU_N];
  const uint32_t *a = valu_src(w, in, 0, ISA_T_B32, b0), *b = valu_src(w, in, 1, ISA_T_B32, b1),
                 *c = valu_src(w, in, 2, ISA_T_F32, b2);
  VALU_EACH(valu_lanes(w, in), l) {
    double acc = fp_f(c[l]);
    for (unsigned k = 0; k < 4; k++)
      acc += ocp8((a[l] >> (8 * k)) & 0xff, abf) * ocp8((b[l] >> (8 * k)) & 0xff, bbf);
    r[l] = fp_u((float)acc);
  }
  struct isa_inst c2 = *in;
  c2.neg = c2.neg_hi = 0;
  valu_put(w, &c2, r, ISA_T_F32);
  return valu_next(w, in);
}
static int dot4_fp8_bf8(struct isa_wave *w, const struct isa_inst *in) { return dot4_f8(w, in, false, true); }
static int dot4_bf8_fp8(struct isa_wave *w, const struct isa_inst *in) { return dot4_f8(w, in, true, false); }
static int dot4_fp8_fp8(struct isa_wave *w, const struct isa_inst *in) { return dot4_f8(w, in, false, false); }
static int dot4_bf8_bf8(struct isa_wave *w, const struct isa_inst *in) { return dot4_f8(w, in, true, true); }

const struct valu_desc g11_wmma_ops[] = {
  { 0x3a0, 0, 0, "v_wmma_f32_16x16x16_f16", wmma_f32_f16 },
  { 0x3a1, 0, 0, "v_wmma_f32_16x16x16_bf16", wmma_f32_bf16 },
  { 0x3a2, 0, 0, "v_wmma_f16_16x16x16_f16", wmma_f16_f16 },
  { 0x3a3, 0, 0, "v_wmma_bf16_16x16x16_bf16", wmma_bf16_bf16 },
  { 0x3a4, 0, 0, "v_wmma_i32_16x16x16_iu8", wmma_i32_iu8 },
  { 0x3a5, 0, 0, "v_wmma_i32_16x16x16_iu4", wmma_i32_iu4 },
  { 0x3a6, 0, 0, "v_wmma_f32_16x16x16_fp8_fp8", wmma_fp8_fp8 },
  { 0x3a7, 0, 0, "v_wmma_f32_16x16x16_fp8_bf8", wmma_fp8_bf8 },
  { 0x3a8, 0, 0, "v_wmma_f32_16x16x16_bf8_fp8", wmma_bf8_fp8 },
  { 0x3a9, 0, 0, "v_wmma_f32_16x16x16_bf8_bf8", wmma_bf8_bf8 },
  { 0x3aa, 0, 0, "v_wmma_i32_16x16x32_iu4", wmma_i32_iu4_k32 },
  { 0x3b0, 0, 0, "v_swmmac_f32_16x16x32_f16", swmmac_f32_f16 },
  { 0x3b1, 0, 0, "v_swmmac_f32_16x16x32_bf16", swmmac_f32_bf16 },
  { 0x3b2, 0, 0, "v_swmmac_f16_16x16x32_f16", swmmac_f16_f16 },
  { 0x3b3, 0, 0, "v_swmmac_bf16_16x16x32_bf16", swmmac_bf16_bf16 },
  { 0x3b4, 0, 0, "v_swmmac_i32_16x16x32_iu8", swmmac_i32_iu8 },
  { 0x3b5, 0, 0, "v_swmmac_i32_16x16x32_iu4", swmmac_i32_iu4 },
  { 0x3b6, 0, 0, "v_swmmac_i32_16x16x64_iu4", swmmac_i32_iu4_k64 },
  { 0x3b7, 0, 0, "v_swmmac_f32_16x16x32_fp8_fp8", swmmac_fp8_fp8 },
  { 0x3b8, 0, 0, "v_swmmac_f32_16x16x32_fp8_bf8", swmmac_fp8_bf8 },
  { 0x3b9, 0, 0, "v_swmmac_f32_16x16x32_bf8_fp8", swmmac_bf8_fp8 },
  { 0x3ba, 0, 0, "v_swmmac_f32_16x16x32_bf8_bf8", swmmac_bf8_bf8 },
  { 0x3bc, 0, 0, "v_dot4_f32_fp8_bf8", dot4_fp8_bf8 },
  { 0x3bd, 0, 0, "v_dot4_f32_bf8_fp8", dot4_bf8_fp8 },
  { 0x3be, 0, 0, "v_dot4_f32_fp8_fp8", dot4_fp8_fp8 },
  { 0x3bf, 0, 0, "v_dot4_f32_bf8_bf8", dot4_bf8_bf8 },
};
const unsigned g11_wmma_count = sizeof g11_wmma_ops / sizeof g11_wmma_ops[0];
