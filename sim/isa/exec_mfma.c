/* SPDX-License-Identifier: MIT */
/* exec_mfma.c — the accumulation registers (AGPRs) and the matrix core of gfx90a (CDNA2) and
 * gfx942 (CDNA3): v_accvgpr_read/write/mov, the VOP3P-MAI encoding (v_mfma_*), and memory
 * instructions whose acc bit moves AGPRs.
 *
 * Register file: gfx90a and gfx942 have one unified file per wave. The kernel descriptor's
 * granulated VGPR count covers VGPRs and AGPRs; AGPR a0 is row ACCUM_OFFSET
 * ((COMPUTE_PGM_RSRC3[5:0] + 1) * 4) and the AGPRs run to the end of the allocation
 * (run.c sets isa_wave.acc_base/acc_count). Decoders name AGPRs as operand codes
 * ISA_OP_AGPR0 + n; semantics here map them to their rows, with the bounds check.
 *
 * Encoding (VOP3P-MAI, as llvm-mc/llvm-objdump encode it): word 0 vdst[7:0], CBSZ[10:8],
 * ABID[14:11], ACC_CD[15] (vdst and src2 are AGPRs), op[22:16] (0x40..0x7f; gfx942's xf32
 * forms 0x3e/0x3f); word 1 src0[8:0], src1[17:9], src2[26:18], ACC[28:27] (src0/src1 are
 * AGPRs), BLGP[31:29] (gfx942's f64 forms: NEG of src0..src2 instead).
 *
 * Matrix layouts (AMD's matrix instruction calculator and the CDNA2/CDNA3 ISA guides): an
 * M x N x K product on B blocks, with E elements of A (and B) packed per lane:
 *   A[i][k] of block b: lane i + M * b + M * B * (k / E), element k % E of the lane's
 *   1 or 2 dwords (B[k][j] likewise with j for i);
 *   D[i][j] (f32/i32): N >= 16: dword R * b + 4 * (i / (4 * G)) + i % 4, lane
 *   N * ((i / 4) % G) + j, with G = 64 / N lane groups and R = M * N / 64 dwords a block;
 *   4x4 (16 blocks): dword i, lane 4 * b + j;
 *   D[i][j] (f64): dword pair i / 4, lane 16 * (i % 4) + N * b + j.
 * Modifiers: CBSZ/ABID: block b takes A from block (b >> CBSZ << CBSZ) + ABID; BLGP permutes
 * the lanes B is read from (1: lanes 0-31 to all, 2: 32-63 to all, 3: rotate by 16,
 * 4-7: one 16-lane group to all).
 *
 * Arithmetic: each D element is C + the sum of the K products, computed exactly enough in
 * double (the products of f16/bf16/fp8/xf32 inputs and their sums over K <= 32 terms are
 * exact or within double rounding) and rounded once to f32; integers wrap in 32 bits; f64
 * is a chain of fused multiply-adds in k order. Hardware sums in an order of its own, so f32
 * results may differ in the last bits from the model's (tests use a tolerance for that).
 * xf32 inputs are rounded to 10 mantissa bits (nearest even) first; gfx942's fp8 is E4M3
 * with bias 8 and bf8 E5M2 with bias 16 (0x80 is NaN, no infinities). D is written for the
 * lanes in EXEC. */
#include "isa/exec.h"
#include "isa/thread_block.h"
#include "isa/valu.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { K_F32, K_XF32, K_F16, K_BF16, K_I8, K_F64, K_FP8 };

struct mfma {
  uint8_t m, n, k, b, kind, e;   /* e: elements of A/B per lane */
  uint8_t bf8;                   /* fp8 forms: bit 0 A is bf8, bit 1 B is bf8 */
};

/* by VOP3P-MAI opcode (op[6:0]); m == 0: not a matrix product */
static const struct mfma shapes[128] = {
  [0x3e] = {16, 16, 8, 1, K_XF32, 2, 0}, [0x3f] = {32, 32, 4, 1, K_XF32, 2, 0},
  [0x40] = {32, 32, 1, 2, K_F32, 1, 0}, [0x41] = {16, 16, 1, 4, K_F32, 1, 0},
  [0x42] = {4, 4, 1, 16, K_F32, 1, 0}, [0x44] = {32, 32, 2, 1, K_F32, 1, 0},
  [0x45] = {16, 16, 4, 1, K_F32, 1, 0},
  [0x48] = {32, 32, 4, 2, K_F16, 4, 0}, [0x49] = {16, 16, 4, 4, K_F16, 4, 0},
  [0x4a] = {4, 4, 4, 16, K_F16, 4, 0}, [0x4c] = {32, 32, 8, 1, K_F16, 4, 0},
  [0x4d] = {16, 16, 16, 1, K_F16, 4, 0},
  [0x50] = {32, 32, 4, 2, K_I8, 4, 0}, [0x51] = {16, 16, 4, 4, K_I8, 4, 0},
  [0x52] = {4, 4, 4, 16, K_I8, 4, 0}, [0x54] = {32, 32, 8, 1, K_I8, 4, 0},
  [0x55] = {16, 16, 16, 1, K_I8, 4, 0}, [0x56] = {32, 32, 16, 1, K_I8, 8, 0},
  [0x57] = {16, 16, 32, 1, K_I8, 8, 0},
  /* gfx942's bf16 (gfx90a's _1k forms at 0x63..0x67) */
  [0x5d] = {32, 32, 4, 2, K_BF16, 4, 0}, [0x5e] = {16, 16, 4, 4, K_BF16, 4, 0},
  [0x5f] = {4, 4, 4, 16, K_BF16, 4, 0}, [0x60] = {32, 32, 8, 1, K_BF16, 4, 0},
  [0x61] = {16, 16, 16, 1, K_BF16, 4, 0},
  [0x63] = {32, 32, 4, 2, K_BF16, 4, 0}, [0x64] = {16, 16, 4, 4, K_BF16, 4, 0},
  [0x65] = {4, 4, 4, 16, K_BF16, 4, 0}, [0x66] = {32, 32, 8, 1, K_BF16, 4, 0},
  [0x67] = {16, 16, 16, 1, K_BF16, 4, 0},
  /* gfx90a's first bf16 forms: two per dword */
  [0x68] = {32, 32, 2, 2, K_BF16, 2, 0}, [0x69] = {16, 16, 2, 4, K_BF16, 2, 0},
  [0x6b] = {4, 4, 2, 16, K_BF16, 2, 0}, [0x6c] = {32, 32, 4, 1, K_BF16, 2, 0},
  [0x6d] = {16, 16, 8, 1, K_BF16, 2, 0},
  [0x6e] = {16, 16, 4, 1, K_F64, 1, 0}, [0x6f] = {4, 4, 4, 4, K_F64, 1, 0},
  [0x70] = {16, 16, 32, 1, K_FP8, 8, 3}, [0x71] = {16, 16, 32, 1, K_FP8, 8, 1},
  [0x72] = {16, 16, 32, 1, K_FP8, 8, 2}, [0x73] = {16, 16, 32, 1, K_FP8, 8, 0},
  [0x74] = {32, 32, 16, 1, K_FP8, 8, 3}, [0x75] = {32, 32, 16, 1, K_FP8, 8, 1},
  [0x76] = {32, 32, 16, 1, K_FP8, 8, 2}, [0x77] = {32, 32, 16, 1, K_FP8, 8, 0},
};

static const struct mfma *shape_of(const struct isa_inst *in)
{
  unsigned op = (in->words[0] >> 16) & 0x7f;
  return shapes[op].m ? &shapes[op] : NULL;
}

/* Dwords a lane of A/B, and of C/D, spans. */
static unsigned in_dwords(const struct mfma *s)
{
  static const uint8_t bits[] = {[K_F32] = 32, [K_XF32] = 32, [K_F16] = 16, [K_BF16] = 16,
                                 [K_I8] = 8, [K_F64] = 64, [K_FP8] = 8};
  return (s->e * bits[s->kind] + 31) / 32;
}

static unsigned out_dwords(const struct mfma *s)
{
  return s->m * s->n * s->b / 64 * (s->kind == K_F64 ? 2 : 1);
}

/* ---- registers ---------------------------------------------------------------------------- */

/* The row of operand `code` + `i` (a VGPR or an AGPR), or NULL past the allocation. */
static uint32_t *row(struct isa_wave *w, unsigned code, unsigned i)
{
  if (code >= ISA_OP_AGPR0) {
    unsigned a = code - ISA_OP_AGPR0 + i;
    return a < w->acc_count ? w->vgpr[w->acc_base + a] : NULL;
  }
  unsigned v = code - ISA_OP_VGPR0 + i;
  return code >= ISA_OP_VGPR0 && v < w->vgpr_alloc ? w->vgpr[v] : NULL;
}

static int beyond(struct isa_wave *w, const struct isa_inst *in, unsigned code, unsigned n)
{
  bool acc = code >= ISA_OP_AGPR0;
  return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, 0, false,
                   "%s at 0x%llx uses %c%u beyond the %u %s allocated", in->name,
                   (unsigned long long)in->pc, acc ? 'a' : 'v',
                   code - (acc ? ISA_OP_AGPR0 : ISA_OP_VGPR0) + n - 1,
                   acc ? w->acc_count : w->vgpr_alloc, acc ? "AGPRs" : "VGPRs");
}

/* ---- v_accvgpr_* ---------------------------------------------------------------------------- */

/* v_accvgpr_read_b32 vD, aS; v_accvgpr_write_b32 aD, vS|sS|constant; v_accvgpr_mov_b32 aD, aS */
static int v_accvgpr(struct isa_wave *w, const struct isa_inst *in)
{
  uint32_t *d = row(w, in->dst, 0);
  if (!d)
    return beyond(w, in, in->dst, 1);
  uint32_t v[VALU_N];
  if (in->src[0] >= ISA_OP_VGPR0) {
    const uint32_t *s = row(w, in->src[0], 0);
    if (!s)
      return beyond(w, in, in->src[0], 1);
    memcpy(v, s, sizeof v);
  } else {
    uint32_t c = isa_read_s32(w, in, in->src[0]);
    for (unsigned l = 0; l < VALU_N; l++)
      v[l] = c;
  }
  ISA_FOR_LANES(w->exec, l)
    d[l] = v[l];
  return valu_next(w, in);
}

/* ---- the matrix core ---------------------------------------------------------------------- */

static double fp8_value(unsigned x, bool bf8)
{
  if (x == 0x80)
    return NAN;
  unsigned mbits = bf8 ? 2 : 3, bias = bf8 ? 16 : 8;
  unsigned e = (x >> mbits) & (bf8 ? 31 : 15), m = x & ((1u << mbits) - 1);
  double v = e ? ldexp(1.0 + (double)m / (1 << mbits), (int)e - (int)bias)
               : ldexp((double)m / (1 << mbits), 1 - (int)bias);
  return x & 0x80 ? -v : v;
}

static double xf32_value(uint32_t u)
{
  if (fp_isnan32(u) || (u & 0x7f800000u) == 0x7f800000u)
    return fp_f(u);
  uint32_t r = u + 0xfffu + ((u >> 13) & 1);   /* nearest even at mantissa bit 13 */
  return fp_f(r & ~0x1fffu);
}

/* Element `e` of a lane's packed A/B value as a double (integers exactly). */
static double elem(const struct mfma *s, uint64_t v, unsigned e, bool bf8)
{
  switch (s->kind) {
  case K_F32: return fp_f((uint32_t)v);
  case K_XF32: return xf32_value((uint32_t)(v >> (32 * e)));
  case K_F16: return fp_f16_to_f32((uint32_t)(v >> (16 * e)) & 0xffff);
  case K_BF16: return fp_f((uint32_t)(v >> (16 * e)) << 16);
  case K_I8: return (int8_t)(v >> (8 * e));
  case K_FP8: return fp8_value((unsigned)(v >> (8 * e)) & 0xff, bf8);
  default: return fp_d(v);
  }
}

static unsigned blgp_lane(unsigned lane, unsigned blgp)
{
  switch (blgp) {
  case 0: return lane;
  case 1: return lane % 32;
  case 2: return lane % 32 + 32;
  case 3: return (lane + 16) % 64;
  default: return lane % 16 + 16 * (blgp - 4);
  }
}

/* A lane's A or B value (1 or 2 dwords) of source `i`, for every lane. */
static int load_in(struct isa_wave *w, const struct isa_inst *in, unsigned i, unsigned nd,
                   uint64_t *v)
{
  unsigned code = in->src[i];
  if (code < ISA_OP_VGPR0) {   /* A and B are registers (the assembler allows no other) */
    uint64_t c = isa_read_s32(w, in, code);
    for (unsigned l = 0; l < VALU_N; l++)
      v[l] = c;
    return 0;
  }
  const uint32_t *lo = row(w, code, 0), *hi = nd > 1 ? row(w, code, 1) : NULL;
  if (!lo || (nd > 1 && !hi))
    return beyond(w, in, code, nd);
  for (unsigned l = 0; l < VALU_N; l++)
    v[l] = lo[l] | (hi ? (uint64_t)hi[l] << 32 : 0);
  return 0;
}

/* Where D[i][j] of block b lives: dword (of the pair, for f64) and lane. */
static void out_pos(const struct mfma *s, unsigned i, unsigned j, unsigned b, unsigned *reg,
                    unsigned *lane)
{
  if (s->kind == K_F64) {
    *reg = 2 * (i / 4);
    *lane = 16 * (i % 4) + s->n * b + j;
  } else if (s->n == 4) {
    *reg = i;
    *lane = 4 * b + j;
  } else {
    unsigned g = 64u / s->n, r = s->m * s->n / 64u;
    *reg = r * b + 4 * (i / (4 * g)) + i % 4;
    *lane = s->n * ((i / 4) % g) + j;
  }
}

/* One product into a dot product's running sum: i8 wraps in 32 bits (*isum), f64 fuses
 * (*sum starts at C), the other kinds sum exactly in double (*sum starts at 0). */
static void mac(unsigned kind, double x, double y, int32_t *isum, double *sum)
{
  if (kind == K_I8)
    *isum = (int32_t)((uint32_t)*isum + (uint32_t)((int32_t)x * (int32_t)y));
  else if (kind == K_F64)
    *sum = fma(x, y, *sum);
  else
    *sum += x * y;
}

/* D[reg][lane] = C + the dot product (f64: the pair reg, reg + 1 takes the fused sum) */
static void store_d(unsigned kind, uint32_t *const *d, uint32_t (*c)[VALU_N], unsigned reg,
                    unsigned lane, int32_t isum, double sum)
{
  if (kind == K_I8) {
    d[reg][lane] = (uint32_t)isum + c[reg][lane];
  } else if (kind == K_F64) {
    uint64_t r = fp_ud(sum);
    d[reg][lane] = (uint32_t)r;
    d[reg + 1][lane] = (uint32_t)(r >> 32);
  } else {
    d[reg][lane] = fp_u((float)(sum + (double)fp_f(c[reg][lane])));
  }
}

/* A product's per-lane operands and accumulators: large, so made per thread on first use
 * (thread_block.c) rather than held in every thread's static TLS */
struct dense_area {
  uint64_t a[VALU_N], bv[VALU_N];
  uint32_t c[32][VALU_N];
  double ea[VALU_N][8], eb[VALU_N][8];
};
struct sparse_area {
  uint64_t a[VALU_N], blo[VALU_N], bhi[VALU_N];
  uint32_t c[16][VALU_N], idx[VALU_N];
  double ea[VALU_N][8], eb[VALU_N][16];
};

static int v_mfma(struct isa_wave *w, const struct isa_inst *in)
{
  const struct mfma *s = shape_of(in);
  if (!s)
    return isa_unknown(w, in);
  unsigned nin = in_dwords(s), nout = out_dwords(s);
  unsigned cbsz = (in->words[0] >> 8) & 7, abid = (in->words[0] >> 11) & 15;
  unsigned blgp = in->words[1] >> 29, neg = 0;
  if (s->kind == K_F64 && in->target == ISA_TARGET_GFX942) {   /* gfx940+: NEG in place of BLGP */
    neg = blgp;
    blgp = 0;
  }
  struct dense_area *area = isa_thread_block(ISA_TB_MFMA, sizeof *area);
  if (!area) return isa_thread_block_lost(w, in);
  uint64_t *a = area->a, *bv = area->bv;
  uint32_t (*c)[VALU_N] = area->c;
  if (load_in(w, in, 0, nin, a) || load_in(w, in, 1, nin, bv))
    return -1;
  uint32_t *d[32];
  for (unsigned r = 0; r < nout; r++) {
    if (in->src[2] >= ISA_OP_VGPR0) {
      const uint32_t *p = row(w, in->src[2], r);
      if (!p)
        return beyond(w, in, in->src[2], nout);
      memcpy(c[r], p, sizeof c[r]);
    } else {   /* an inline constant C: every element (f64: the constant's f64 encoding) */
      uint64_t k = s->kind == K_F64 ? isa_read_s64(w, in, in->src[2], ISA_T_F64)
                                    : isa_read_s32(w, in, in->src[2]);
      for (unsigned l = 0; l < VALU_N; l++)
        c[r][l] = s->kind == K_F64 ? (uint32_t)(k >> (32 * (r & 1))) : (uint32_t)k;
    }
    if (!(d[r] = row(w, in->dst, r)))
      return beyond(w, in, in->dst, nout);
  }
  if (neg & 1) for (unsigned l = 0; l < VALU_N; l++) a[l] ^= 1ull << 63;
  if (neg & 2) for (unsigned l = 0; l < VALU_N; l++) bv[l] ^= 1ull << 63;
  /* every lane's A and B elements once, as doubles (B through BLGP's lane pattern) */
  double (*ea)[8] = area->ea, (*eb)[8] = area->eb;
  for (unsigned l = 0; l < VALU_N; l++)
    for (unsigned e = 0; e < s->e; e++) {
      ea[l][e] = elem(s, a[l], e, s->bf8 & 1);
      eb[l][e] = elem(s, bv[blgp_lane(l, blgp)], e, s->bf8 & 2);
    }
  uint64_t exec = w->exec;
  for (unsigned b = 0; b < s->b; b++) {
    unsigned ab = cbsz ? (b >> cbsz << cbsz) + abid : b;
    if (ab >= s->b)
      ab = b;   /* out-of-range ABID: the block's own A */
    for (unsigned i = 0; i < s->m; i++)
      for (unsigned j = 0; j < s->n; j++) {
        unsigned reg, lane;
        out_pos(s, i, j, b, &reg, &lane);
        int32_t isum = 0;
        uint64_t cv = c[reg][lane] | (s->kind == K_F64 ? (uint64_t)c[reg + 1][lane] << 32 : 0);
        double sum = s->kind == K_F64 ? fp_d(cv) * ((neg & 4) ? -1 : 1) : 0;
        for (unsigned k = 0; k < s->k; k++) {
          unsigned la = i + s->m * ab + s->m * s->b * (k / s->e);
          unsigned lb = j + s->m * b + s->m * s->b * (k / s->e);
          mac(s->kind, ea[la][k % s->e], eb[lb][k % s->e], &isum, &sum);
        }
        if ((exec >> lane) & 1)
          store_d(s->kind, d, c, reg, lane, isum, sum);
      }
  }
  return valu_next(w, in);
}

/* ---- sparse MFMA (gfx942's v_smfmac_*) ---------------------------------------------------
 * D = C + A x B with A 2:4 sparse along K: each group of 4 consecutive K elements of a row
 * of A holds at most 2 values, stored compressed. A lane holds E/2 compressed values (2
 * dwords) of its E logical K elements (E = 8 for f16/bf16, 16 for i8/fp8; the dense
 * layout's lane i + M * (k / E)); B is dense with E elements a lane (4 dwords). The vdst
 * registers are C and D; src2 is one VGPR of per-lane sparsity indices, 2 bits per
 * compressed value: value c of a lane sits at logical element 4 * (c / 2) + index c. A
 * lane's indices are one byte (16-bit A: 4 values) or one 16-bit half (8-bit A: 8 values)
 * of the VGPR: CBSZ 0 picks it with ABID (byte ABID[1:0], half ABID[0]); CBSZ != 0 takes
 * the first. */
struct smfmac {
  uint8_t m, k, kind, bf8;
};

static const struct smfmac sparse_shapes[128] = {
  [0x62] = {16, 32, K_F16, 0}, [0x64] = {32, 16, K_F16, 0}, [0x66] = {16, 32, K_BF16, 0},
  [0x68] = {32, 16, K_BF16, 0}, [0x6a] = {16, 64, K_I8, 0}, [0x6c] = {32, 32, K_I8, 0},
  [0x78] = {16, 64, K_FP8, 3}, [0x79] = {16, 64, K_FP8, 1}, [0x7a] = {16, 64, K_FP8, 2},
  [0x7b] = {16, 64, K_FP8, 0}, [0x7c] = {32, 32, K_FP8, 3}, [0x7d] = {32, 32, K_FP8, 1},
  [0x7e] = {32, 32, K_FP8, 2}, [0x7f] = {32, 32, K_FP8, 0},
};

static const struct smfmac *sparse_of(const struct isa_inst *in)
{
  if (!in->name || strncmp(in->name, "v_smfmac", 8))
    return NULL;
  const struct smfmac *s = &sparse_shapes[(in->words[0] >> 16) & 0x7f];
  return s->m ? s : NULL;
}

static int v_smfmac(struct isa_wave *w, const struct isa_inst *in)
{
  const struct smfmac *s = sparse_of(in);
  if (!s)
    return isa_unknown(w, in);
  /* as a dense product of one block: E logical elements a lane */
  const struct mfma dense = {s->m, s->m, s->k, 1, s->kind, s->kind == K_I8 || s->kind == K_FP8 ? 16 : 8,
                             s->bf8};
  unsigned e = dense.e, nout = out_dwords(&dense);
  unsigned cbsz = (in->words[0] >> 8) & 7, abid = (in->words[0] >> 11) & 15;
  unsigned set = cbsz ? 0 : e == 8 ? (abid & 3) : (abid & 1);
  struct sparse_area *area = isa_thread_block(ISA_TB_SMFMAC, sizeof *area);
  if (!area) return isa_thread_block_lost(w, in);
  uint64_t *a = area->a, *blo = area->blo, *bhi = area->bhi;
  uint32_t (*c)[VALU_N] = area->c, *idx = area->idx;
  uint32_t *d[16];
  struct isa_inst hi = *in;
  hi.src[1] = (uint16_t)(in->src[1] + 2);
  if (in->src[0] < ISA_OP_VGPR0 || in->src[1] < ISA_OP_VGPR0 || in->src[2] < ISA_OP_VGPR0 ||
      in->src[2] >= ISA_OP_AGPR0)
    return isa_unknown(w, in);   /* the assembler allows registers only, the index a VGPR */
  if (load_in(w, in, 0, 2, a) || load_in(w, in, 1, 2, blo) || load_in(w, &hi, 1, 2, bhi))
    return -1;
  const uint32_t *ix = row(w, in->src[2], 0);
  if (!ix)
    return beyond(w, in, in->src[2], 1);
  for (unsigned l = 0; l < VALU_N; l++)
    idx[l] = e == 8 ? (ix[l] >> (8 * set)) & 0xff : (ix[l] >> (16 * set)) & 0xffff;
  for (unsigned r = 0; r < nout; r++) {
    if (!(d[r] = row(w, in->dst, r)))
      return beyond(w, in, in->dst, nout);
    memcpy(c[r], d[r], sizeof c[r]);
  }
  /* B as E elements of each lane: the low 2 dwords hold the first half */
  double (*ea)[8] = area->ea, (*eb)[16] = area->eb;
  for (unsigned l = 0; l < VALU_N; l++) {
    for (unsigned x = 0; x < e / 2; x++) {
      ea[l][x] = elem(&dense, a[l], x, s->bf8 & 1);
      eb[l][x] = elem(&dense, blo[l], x, s->bf8 & 2);
      eb[l][x + e / 2] = elem(&dense, bhi[l], x, s->bf8 & 2);
    }
  }
  uint64_t exec = w->exec;
  for (unsigned i = 0; i < s->m; i++)
    for (unsigned j = 0; j < s->m; j++) {
      unsigned reg, lane;
      out_pos(&dense, i, j, 0, &reg, &lane);
      if (!((exec >> lane) & 1))
        continue;
      double sum = 0;
      int32_t isum = 0;
      for (unsigned g = 0; g < s->k / e; g++) {
        unsigned la = i + s->m * g, lb = j + s->m * g;
        for (unsigned x = 0; x < e / 2; x++) {
          unsigned k = 4 * (x / 2) + ((idx[la] >> (2 * x)) & 3);   /* logical element */
          mac(s->kind, ea[la][x], eb[lb][k], &isum, &sum);
        }
      }
      store_d(s->kind, d, c, reg, lane, isum, sum);
    }
  return valu_next(w, in);
}

/* ---- decoding and text -------------------------------------------------------------------- */

#define MAI(op, gfx, name, fn) { VALU_OP_VOP3P + (op), gfx, VALU_F_MAI, name, fn }
#define A VALU_GFX90A
#define G VALU_GFX942
const struct valu_desc valu_mai_ops[] = {
  MAI(0x58, A, "v_accvgpr_read_b32", v_accvgpr), MAI(0x59, A, "v_accvgpr_write_b32", v_accvgpr),
  { VALU_OP_VOP1 + 0x52, A, VALU_F_MAI | VALU_F_NOVOP3, "v_accvgpr_mov_b32", v_accvgpr },
  MAI(0x40, A, "v_mfma_f32_32x32x1f32", v_mfma), MAI(0x41, A, "v_mfma_f32_16x16x1f32", v_mfma),
  MAI(0x42, A, "v_mfma_f32_4x4x1f32", v_mfma), MAI(0x44, A, "v_mfma_f32_32x32x2f32", v_mfma),
  MAI(0x45, A, "v_mfma_f32_16x16x4f32", v_mfma), MAI(0x48, A, "v_mfma_f32_32x32x4f16", v_mfma),
  MAI(0x49, A, "v_mfma_f32_16x16x4f16", v_mfma), MAI(0x4a, A, "v_mfma_f32_4x4x4f16", v_mfma),
  MAI(0x4c, A, "v_mfma_f32_32x32x8f16", v_mfma), MAI(0x4d, A, "v_mfma_f32_16x16x16f16", v_mfma),
  MAI(0x50, A, "v_mfma_i32_32x32x4i8", v_mfma), MAI(0x51, A, "v_mfma_i32_16x16x4i8", v_mfma),
  MAI(0x52, A, "v_mfma_i32_4x4x4i8", v_mfma), MAI(0x54, A, "v_mfma_i32_32x32x8i8", v_mfma),
  MAI(0x55, A, "v_mfma_i32_16x16x16i8", v_mfma),
  MAI(0x63, A, "v_mfma_f32_32x32x4bf16_1k", v_mfma), MAI(0x64, A, "v_mfma_f32_16x16x4bf16_1k", v_mfma),
  MAI(0x65, A, "v_mfma_f32_4x4x4bf16_1k", v_mfma), MAI(0x66, A, "v_mfma_f32_32x32x8bf16_1k", v_mfma),
  MAI(0x67, A, "v_mfma_f32_16x16x16bf16_1k", v_mfma),
  MAI(0x68, A, "v_mfma_f32_32x32x2bf16", v_mfma), MAI(0x69, A, "v_mfma_f32_16x16x2bf16", v_mfma),
  MAI(0x6b, A, "v_mfma_f32_4x4x2bf16", v_mfma), MAI(0x6c, A, "v_mfma_f32_32x32x4bf16", v_mfma),
  MAI(0x6d, A, "v_mfma_f32_16x16x8bf16", v_mfma),
  MAI(0x6e, A, "v_mfma_f64_16x16x4f64", v_mfma), MAI(0x6f, A, "v_mfma_f64_4x4x4f64", v_mfma),
  /* gfx942: the gfx940 names, its new forms, and what it dropped (no function) */
  MAI(0x3e, G, "v_mfma_f32_16x16x8_xf32", v_mfma), MAI(0x3f, G, "v_mfma_f32_32x32x4_xf32", v_mfma),
  MAI(0x40, G, "v_mfma_f32_32x32x1_2b_f32", v_mfma), MAI(0x41, G, "v_mfma_f32_16x16x1_4b_f32", v_mfma),
  MAI(0x42, G, "v_mfma_f32_4x4x1_16b_f32", v_mfma), MAI(0x44, G, "v_mfma_f32_32x32x2_f32", v_mfma),
  MAI(0x45, G, "v_mfma_f32_16x16x4_f32", v_mfma), MAI(0x48, G, "v_mfma_f32_32x32x4_2b_f16", v_mfma),
  MAI(0x49, G, "v_mfma_f32_16x16x4_4b_f16", v_mfma), MAI(0x4a, G, "v_mfma_f32_4x4x4_16b_f16", v_mfma),
  MAI(0x4c, G, "v_mfma_f32_32x32x8_f16", v_mfma), MAI(0x4d, G, "v_mfma_f32_16x16x16_f16", v_mfma),
  MAI(0x50, G, "v_mfma_i32_32x32x4_2b_i8", v_mfma), MAI(0x51, G, "v_mfma_i32_16x16x4_4b_i8", v_mfma),
  MAI(0x52, G, "v_mfma_i32_4x4x4_16b_i8", v_mfma), MAI(0x56, G, "v_mfma_i32_32x32x16_i8", v_mfma),
  MAI(0x57, G, "v_mfma_i32_16x16x32_i8", v_mfma),
  MAI(0x5d, G, "v_mfma_f32_32x32x4_2b_bf16", v_mfma), MAI(0x5e, G, "v_mfma_f32_16x16x4_4b_bf16", v_mfma),
  MAI(0x5f, G, "v_mfma_f32_4x4x4_16b_bf16", v_mfma), MAI(0x60, G, "v_mfma_f32_32x32x8_bf16", v_mfma),
  MAI(0x61, G, "v_mfma_f32_16x16x16_bf16", v_mfma),
  MAI(0x6e, G, "v_mfma_f64_16x16x4_f64", v_mfma), MAI(0x6f, G, "v_mfma_f64_4x4x4_4b_f64", v_mfma),
  MAI(0x70, G, "v_mfma_f32_16x16x32_bf8_bf8", v_mfma), MAI(0x71, G, "v_mfma_f32_16x16x32_bf8_fp8", v_mfma),
  MAI(0x72, G, "v_mfma_f32_16x16x32_fp8_bf8", v_mfma), MAI(0x73, G, "v_mfma_f32_16x16x32_fp8_fp8", v_mfma),
  MAI(0x74, G, "v_mfma_f32_32x32x16_bf8_bf8", v_mfma), MAI(0x75, G, "v_mfma_f32_32x32x16_bf8_fp8", v_mfma),
  MAI(0x76, G, "v_mfma_f32_32x32x16_fp8_bf8", v_mfma), MAI(0x77, G, "v_mfma_f32_32x32x16_fp8_fp8", v_mfma),
  /* sparse: in gfx90a's bf16 opcode space, which gfx942 gave up */
  MAI(0x62, G, "v_smfmac_f32_16x16x32_f16", v_smfmac), MAI(0x64, G, "v_smfmac_f32_32x32x16_f16", v_smfmac),
  MAI(0x66, G, "v_smfmac_f32_16x16x32_bf16", v_smfmac), MAI(0x68, G, "v_smfmac_f32_32x32x16_bf16", v_smfmac),
  MAI(0x6a, G, "v_smfmac_i32_16x16x64_i8", v_smfmac), MAI(0x6c, G, "v_smfmac_i32_32x32x32_i8", v_smfmac),
  MAI(0x78, G, "v_smfmac_f32_16x16x64_bf8_bf8", v_smfmac), MAI(0x79, G, "v_smfmac_f32_16x16x64_bf8_fp8", v_smfmac),
  MAI(0x7a, G, "v_smfmac_f32_16x16x64_fp8_bf8", v_smfmac), MAI(0x7b, G, "v_smfmac_f32_16x16x64_fp8_fp8", v_smfmac),
  MAI(0x7c, G, "v_smfmac_f32_32x32x32_bf8_bf8", v_smfmac), MAI(0x7d, G, "v_smfmac_f32_32x32x32_bf8_fp8", v_smfmac),
  MAI(0x7e, G, "v_smfmac_f32_32x32x32_fp8_bf8", v_smfmac), MAI(0x7f, G, "v_smfmac_f32_32x32x32_fp8_fp8", v_smfmac),
  MAI(0x54, G, "v_mfma_i32_32x32x8i8", NULL), MAI(0x55, G, "v_mfma_i32_16x16x16i8", NULL),
  MAI(0x63, G, "v_mfma_f32_32x32x4bf16_1k", NULL),
  MAI(0x65, G, "v_mfma_f32_4x4x4bf16_1k", NULL),
  MAI(0x67, G, "v_mfma_f32_16x16x16bf16_1k", NULL),
  MAI(0x69, G, "v_mfma_f32_16x16x2bf16", NULL), MAI(0x6b, G, "v_mfma_f32_4x4x2bf16", NULL),
  MAI(0x6d, G, "v_mfma_f32_16x16x8bf16", NULL),
};
#undef A
#undef G
#undef MAI
VALU_COUNT(mai);

void isa_mai_operands(struct isa_inst *in, uint32_t w0, uint32_t w1)
{
#define TO_ACC(x) do { if ((x) >= ISA_OP_VGPR0 && (x) < ISA_OP_AGPR0) (x) = (uint16_t)((x) + 256); } while (0)
  if (in->fmt == ISA_VOP1) {            /* v_accvgpr_mov_b32 aD, aS */
    TO_ACC(in->dst);
    TO_ACC(in->src[0]);
    return;
  }
  unsigned op = (w0 >> 16) & 0x7f;
  if (op == 0x58) {                     /* v_accvgpr_read_b32 vD, aS */
    TO_ACC(in->src[0]);
  } else if (op == 0x59) {              /* v_accvgpr_write_b32 aD, src */
    TO_ACC(in->dst);
  } else {
    if ((w0 >> 15) & 1) {               /* ACC_CD (v_smfmac: src2 is the index VGPR) */
      TO_ACC(in->dst);
      if (!in->name || strncmp(in->name, "v_smfmac", 8))
        TO_ACC(in->src[2]);
    }
    if ((w1 >> 27) & 1)
      TO_ACC(in->src[0]);
    if ((w1 >> 28) & 1)
      TO_ACC(in->src[1]);
  }
  in->neg = in->neg_hi = in->opsel = in->opsel_hi = 0;
  in->clamp = false;
#undef TO_ACC
}

bool isa_mai_shape(const struct isa_inst *in, unsigned dw[4], bool *neg)
{
  const struct smfmac *sp = in->fmt == ISA_VOP3P ? sparse_of(in) : NULL;
  if (sp) {   /* D, compressed A, B, the index VGPR */
    dw[0] = sp->m * sp->m / 64u;
    dw[1] = 2;
    dw[2] = 4;
    dw[3] = 1;
    *neg = false;
    return true;
  }
  const struct mfma *s = in->fmt == ISA_VOP3P && in->name && !strncmp(in->name, "v_mfma", 6)
                         ? shape_of(in) : NULL;
  if (!s)
    return false;
  dw[0] = dw[3] = out_dwords(s);
  dw[1] = dw[2] = in_dwords(s);
  *neg = s->kind == K_F64 && in->target == ISA_TARGET_GFX942;
  return true;
}

/* ---- memory instructions with the acc bit -------------------------------------------------- */

static bool remap(struct isa_wave *w, uint16_t *code, unsigned n)
{
  if (*code < ISA_OP_AGPR0)
    return true;
  unsigned a = *code - ISA_OP_AGPR0;
  if (a + n > w->acc_count)
    return false;
  *code = (uint16_t)(ISA_OP_VGPR0 + w->acc_base + a);
  return true;
}

/* The instruction with its AGPR data and destination put at their rows of the unified file,
 * run by its format's semantics. */
int isa_exec_agpr(struct isa_wave *w, const struct isa_inst *in)
{
  struct isa_inst c = *in;
  unsigned n = in->dwords ? in->dwords : 1;
  bool two = in->name && (strstr(in->name, "2_") || strstr(in->name, "2st64") || strstr(in->name, "cmpswap"));
  if (!remap(w, &c.dst, two ? 2 * n : n) || !remap(w, &c.data, two ? 2 * n : n) ||
      !remap(w, &c.data1, n))
    return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, 0, false,
                     "%s at 0x%llx uses AGPRs beyond the %u allocated", in->name,
                     (unsigned long long)in->pc, w->acc_count);
  switch (in->fmt) {
  case ISA_DS: return isa_exec_ds(w, &c);
  case ISA_FLAT: case ISA_GLOBAL: case ISA_SCRATCH: return isa_exec_flat(w, &c);
  case ISA_MUBUF: case ISA_MTBUF: return isa_exec_mubuf(w, &c);
  default: return isa_unknown(w, in);
  }
}
