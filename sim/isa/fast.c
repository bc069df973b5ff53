/* SPDX-License-Identifier: MIT */
/* fast.c — the fast engine: specialised semantics for the VALU instructions compiled code
 * spends its time in (integer add/carry/shift/logic, f32 add/mul/fma, 32/64-bit integer
 * compares, moves), chosen once per predecoded instruction (isa_fast_select, from the code
 * cache) and run instead of the reference semantics while EXEC has every lane of the wave
 * on. Each one reads its operands straight from the register file (sources resolved at
 * decode: a VGPR row, or a uniform value read once), computes all lanes in a plain loop the
 * compiler vectorises, and writes the destination row directly; lane masks (carries,
 * compares) are packed eight lanes per multiply. Anything else (a lane off, a modifier,
 * SDWA/DPP, MODE not in the default float mode, floating-point exceptions enabled) runs the
 * reference semantics (in->exec), the plain interpreter, which stays the definition:
 * tests/sim/test_isa_diff.c runs both on random states and compares every register.
 * A few scalar forms (64-bit mask logic and saveexec, gfx9's s_waitcnt and branches) skip the
 * reference's operand decoding. HSA_SIM_INTERP=1 (hsa-sim --interp) runs the reference only. */
#include "isa/exec.h"
#include "isa/fast.h"
#include "isa/gfx11.h"
#include "isa/hostmem.h"
#include "isa/probe.h"
#include "isa/valu.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- the engine switch ---- */
static atomic_int engine = -1;   /* -1: not read yet; 0 fast; 1 reference */

bool isa_fast_enabled(void)
{
  int e = atomic_load_explicit(&engine, memory_order_relaxed);
  if (__builtin_expect(e < 0, 0)) {
    const char *v = getenv("HSA_SIM_INTERP");
    int want = v && *v && strcmp(v, "0") != 0;
    int expect = -1;   /* a probe's choice made meanwhile stays */
    atomic_compare_exchange_strong(&engine, &expect, want);
    e = atomic_load_explicit(&engine, memory_order_relaxed);
  }
  return e == 0;
}

void sim_isa_probe_engine(bool reference)
{
  atomic_store_explicit(&engine, reference ? 1 : 0, memory_order_relaxed);
}

/* ---- lanes and operands ---- */
/* Lanes to compute when every lane of the wave is on (64, or 32 for wave32), else 0. */
static inline unsigned full_lanes(const struct isa_wave *w)
{
  if (!w->wave32)
    return w->exec == ~0ull ? 64u : 0u;
  return w->exec == 0xffffffffull ? 32u : 0u;
}

/* 8 lanes as one GNU C vector (gcc and clang; one AVX2 or two SSE2 registers): small fixed
 * loops get unrolled into scalar code before the vectoriser sees them */
typedef uint32_t v8u __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

/* a 32-bit source 8 lanes at a time: its row, or a uniform value as one vector (not
 * broadcast into a 64-lane buffer first) */
struct vsrc {
  const uint32_t *row;       /* NULL: uniform */
  v8u u;
};
static inline __attribute__((always_inline)) void
vsrc_of(struct isa_wave *w, const struct isa_inst *in, unsigned i, struct vsrc *s)
{
  unsigned code = in->src[i];
  s->row = code >= ISA_OP_VGPR0 ? w->vgpr[code - ISA_OP_VGPR0] : NULL;
  s->u = (v8u){ 0 } + (s->row ? 0u : isa_read_v32(w, in, code, 0, ISA_T_B32));
}
/* *x = lanes k..k+7 of the source (by pointer: no vector crosses a call) */
static inline __attribute__((always_inline)) void vsrc_at(const struct vsrc *s, unsigned k,
                                                          v8u *x)
{
  if (!s->row)
    *x = s->u;
  else
    memcpy(x, s->row + k, sizeof *x);
}

/* lane k of an 8-lane compare result (all ones or zero) as bit k (by pointer: no vector
 * crosses a call) */
static inline __attribute__((always_inline)) uint32_t v8_bits(const v8u *m)
{
  static const v8u bit = { 1, 2, 4, 8, 16, 32, 64, 128 };
  v8u b = *m & bit;
  b |= __builtin_shufflevector(b, b, 4, 5, 6, 7, 0, 1, 2, 3);
  b |= __builtin_shufflevector(b, b, 2, 3, 0, 1, 6, 7, 4, 5);
  b |= __builtin_shufflevector(b, b, 1, 0, 3, 2, 5, 4, 7, 6);
  return b[0];
}

/* 32-bit sources: valu_row (valu.h), the row or a uniform value broadcast, always inlined */
#define src32 valu_row

/* Wave-size specialisation (issue 21): the hot operations' bodies are always_inline
 * functions of the lane count, called with a constant 32 or 64, so that a wave32's lane loops
 * are compiled for 32 lanes (unrolled, no trip-count checks or epilogues, fixed-size copies)
 * instead of a 64-lane loop cut short at run time. */
#define BY_WAVE(n, call) ((n) == 32 ? call(32u) : call(64u))

/* A 64-bit source as its low and high rows (a VGPR pair, or a uniform value). */
static inline __attribute__((always_inline)) void src64(struct isa_wave *w, const struct isa_inst *in, unsigned i,
                         enum isa_type t, const uint32_t **lo, const uint32_t **hi,
                         uint32_t *blo, uint32_t *bhi)
{
  unsigned code = in->src[i];
  if (code >= ISA_OP_VGPR0) {
    unsigned r = code - ISA_OP_VGPR0;
    *lo = w->vgpr[r];
    *hi = w->vgpr[(r + 1) & (ISA_MAX_VGPRS - 1)];
    return;
  }
  uint64_t v = isa_read_v64(w, in, code, 0, t);
  for (unsigned l = 0; l < VALU_N; l++) {
    blo[l] = (uint32_t)v;
    bhi[l] = (uint32_t)(v >> 32);
  }
  *lo = blo;
  *hi = bhi;
}

/* fused add pairs on gfx11/gfx12: the second reads the SGPR above the first's one-SGPR mask
 * (clang-19's wave32 `v_add_co_u32 v0, s0, s0, v1` then `v_add_co_ci_u32_e64 v1, null, s1,
 * 0, s0`): not part of a wave32's mask, so such a pair is fused (isa_fast_pairs), and add64
 * runs the first alone in a wave64, whose mask is the pair */
static inline bool mask_hi_read(const struct isa_inst *a, unsigned code)
{
  return a->target >= ISA_TARGET_GFX1100 && a->sdst < ISA_OP_SGPR_LAST && code == a->sdst + 1u;
}

static inline uint32_t *dst_row(struct isa_wave *w, unsigned code)
{
  return w->vgpr[(code - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1)];
}

/* One bit per lane from bytes that are 0 or 1: eight lanes per multiply (each byte's bit
 * lands in its own place of the top byte; no two products overlap, so nothing carries). */
static inline uint64_t pack_bits(const uint8_t *c, unsigned n)
{
  uint64_t m = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (unsigned k = 0; k < n / 8; k++) {
    uint64_t x;
    memcpy(&x, c + 8 * k, 8);
    m |= ((x * 0x0102040810204080ull) >> 56) << (8 * k);
  }
#else
  for (unsigned l = 0; l < n; l++)
    m |= (uint64_t)c[l] << l;
#endif
  return m;
}

/* The inverse: lane l's bit of `m` as byte l (0 or 1), eight lanes per multiply. */
static inline void unpack_bits(uint64_t m, uint8_t *c)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (unsigned k = 0; k < 8; k++) {
    uint64_t t = ((m >> (8 * k) & 0xff) * 0x0101010101010101ull) & 0x8040201008040201ull;
    t = ((t + 0x7f7f7f7f7f7f7f7full) >> 7) & 0x0101010101010101ull;
    memcpy(c + 8 * k, &t, 8);
  }
#else
  for (unsigned l = 0; l < 64; l++)
    c[l] = (uint8_t)(m >> l & 1);
#endif
}

static inline int next(struct isa_wave *w, const struct isa_inst *in)
{
  w->pc += in->size;
  return 0;
}

/* The f32 mode the fast float operations assume: denormals kept in and out, nearest even
 * (what the hardware's default and clang's gfx9 kernels use). */
static inline bool f32_default(const struct isa_wave *w)
{
  const uint32_t keep = FP_MODE_DENORM_F32_IN | FP_MODE_DENORM_F32_OUT;
  return (w->mode & keep) == keep && !FP_MODE_ROUND_F32(w->mode);
}

/* AVX2 clones of the lane loops where the host has it (8 lanes a vector, not SSE2's 4), and
 * x86-64-v4 (AVX-512) ones: their masked compares and mask moves cut 8-11% of gfx900's
 * vadd, reduce_stride and matmul_tiled wall time on a Zen 5 host (issue 24); gcc and clang
 * pick the clone once, when the library is loaded (ifunc) */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
#define FAST_FN __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define FAST_FN
#endif

/* ---- generators ---- */
#define B32 ISA_T_B32
#define F32 ISA_T_F32

/* FAST32's sources: a VGPR row, or a uniform value (an SGPR read inline) broadcast into
 * `buf` by unrolled vector stores (valu_row's call and counted loop were ~50 of v_xad_u32's
 * ~160 host instructions in reduce_stride; not changed in valu_row itself, whose other
 * callers gcc then inlined differently) */
static inline __attribute__((always_inline)) const uint32_t *
src32_row(struct isa_wave *w, const struct isa_inst *in, unsigned i, enum isa_type t,
          uint32_t buf[VALU_N])
{
  unsigned code = in->src[i];
  if (code >= ISA_OP_VGPR0)
    return w->vgpr[code - ISA_OP_VGPR0];
  uint32_t v = code <= ISA_OP_SGPR_LAST ? w->sgpr[code] : isa_read_v32(w, in, code, 0, t);
  v8u x = (v8u){ 0 } + v;
#pragma GCC unroll 8
  for (unsigned k = 0; k < VALU_N; k += 8)
    memcpy(buf + k, &x, sizeof x);
  return buf;
}

/* the rows of a 32-bit form's sources (s0-s2: a VGPR row, or a uniform value broadcast into
 * a buffer) and its destination d */
#define FAST32_ROWS(T, nsrc)                                                                 \
  uint32_t b0_[VALU_N], b1_[VALU_N], b2_[VALU_N];                                            \
  const uint32_t *s0 = src32_row(w, in, 0, T, b0_);                                          \
  const uint32_t *s1 = (nsrc) > 1 ? src32_row(w, in, 1, T, b1_) : s0;                        \
  const uint32_t *s2 = (nsrc) > 2 ? src32_row(w, in, 2, T, b2_) : s0;                        \
  uint32_t *d = dst_row(w, in->dst);                                                         \
  (void)s1; (void)s2; (void)b1_; (void)b2_;

/* d = BODY(a, b, c) per lane, 32-bit sources of type T */
#define FAST32(fn, T, nsrc, COND, ...)                                                       \
  FAST_FN static int fn(struct isa_wave *w, const struct isa_inst *in)                              \
  {                                                                                          \
    unsigned n = full_lanes(w);                                                              \
    if (__builtin_expect(!n || !(COND), 0))                                                  \
      return in->exec(w, in);                                                                \
    FAST32_ROWS(T, nsrc)                                                                     \
    /* integer forms only: a float loop compiled another way may pick the other of two NaN \
     * inputs (x86's mulps/addps return the first operand's NaN), not the reference's */     \
    if (T != B32) {                                                                          \
      FAST_LANES(n, __VA_ARGS__)                                                             \
    } else if (n == 32) {                                                                    \
      FAST_LANES(32u, __VA_ARGS__)                                                           \
    } else {                                                                                 \
      FAST_LANES(64u, __VA_ARGS__)                                                           \
    }                                                                                        \
    return next(w, in);                                                                      \
  }
#define FAST_LANES(N, ...)                                                                   \
  for (unsigned l = 0; l < (N); l++) {                                                       \
    uint32_t a = s0[l], b = s1[l], c = s2[l];                                                \
    (void)a; (void)b; (void)c;                                                               \
    __VA_ARGS__;                                                                             \
  }

/* the integer forms whose expression is plain arithmetic and logic: the same expression on
 * 8-lane GNU C vectors, the sources read before the result is stored, so no overlap check
 * between the rows (gcc's lane loop checked them, ~20 host instructions) and no remainder;
 * unrolled for the wave's size */
#define FAST32V(fn, nsrc, EXPR)                                                              \
  FAST_FN static int fn(struct isa_wave *w, const struct isa_inst *in)                       \
  {                                                                                          \
    unsigned n = full_lanes(w);                                                              \
    if (__builtin_expect(!n, 0))                                                             \
      return in->exec(w, in);                                                                \
    FAST32_ROWS(B32, nsrc)                                                                   \
    if (n == 32) {                                                                           \
      FAST_LANESV(32u, EXPR)                                                                 \
    } else {                                                                                 \
      FAST_LANESV(64u, EXPR)                                                                 \
    }                                                                                        \
    return next(w, in);                                                                      \
  }
#define FAST_LANESV(N, EXPR)                                                                 \
  _Pragma("GCC unroll 8")                                                                    \
  for (unsigned k_ = 0; k_ < (N); k_ += 8) {                                                 \
    v8u a, b, c, r_;                                                                         \
    memcpy(&a, s0 + k_, sizeof a);                                                           \
    memcpy(&b, s1 + k_, sizeof b);                                                           \
    memcpy(&c, s2 + k_, sizeof c);                                                           \
    (void)b; (void)c;                                                                        \
    r_ = (EXPR);                                                                             \
    memcpy(d + k_, &r_, sizeof r_);                                                          \
  }
#define INT2V(fn, expr) FAST32V(f_##fn, 2, expr)
#define INT3V(fn, expr) FAST32V(f_##fn, 3, expr)
#define INT2(fn, expr) FAST32(f_##fn, B32, 2, 1, d[l] = (expr))
#define INT1(fn, expr) FAST32(f_##fn, B32, 1, 1, d[l] = (expr))
#define INT3(fn, expr) FAST32(f_##fn, B32, 3, 1, d[l] = (expr))
/* Two NaN inputs: the left operand's, quieted, as the host's SSE/AVX gives for x op y (S1's
 * for v_subrev: y - x). Stated (flt_lanes, below), since the compiler may commute x * y and
 * x + y, and did so differently in a loop's vector code and its aliasing fallback (gfx1100's
 * v_dual_mul_f32 v10, -6, v10 returned v10's NaN, the reference S0's: test_isa_diff, after an
 * unrelated edit changed how gcc compiled the loop). */

static inline uint32_t u24(uint32_t v) { return v & 0xffffffu; }

/* v_mov_b32: a uniform source written straight into the row (not broadcast and copied) */
FAST_FN static int f_v_mov_b32(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned n = full_lanes(w);
  if (!n)
    return in->exec(w, in);
  uint32_t *d = dst_row(w, in->dst);
  unsigned code = in->src[0];
  if (code >= ISA_OP_VGPR0) {
    memmove(d, w->vgpr[code - ISA_OP_VGPR0], n * sizeof *d);
  } else {
    /* 8 lanes a vector store, unrolled for the wave's size (a counted loop before: ~76 ->
     * ~55 host instructions; reduce_stride runs 22 a wave) */
    uint32_t v = code <= ISA_OP_SGPR_LAST ? w->sgpr[code] : isa_read_v32(w, in, code, 0, B32);
    v8u x = (v8u){ 0 } + v;
    if (n == 32) {
#pragma GCC unroll 4
      for (unsigned k = 0; k < 32; k += 8)
        memcpy(d + k, &x, sizeof x);
    } else {
#pragma GCC unroll 8
      for (unsigned k = 0; k < 64; k += 8)
        memcpy(d + k, &x, sizeof x);
    }
  }
  return next(w, in);
}
INT1(v_not_b32, ~a)
INT2V(v_add_u32, a + b)
INT2V(v_sub_u32, a - b)
INT2V(v_subrev_u32, b - a)
INT2V(v_and_b32, a & b)
INT2V(v_or_b32, a | b)
INT2V(v_xor_b32, a ^ b)
INT2(v_lshlrev_b32, b << (a & 31))
INT2(v_lshrrev_b32, b >> (a & 31))
INT2(v_ashrrev_i32, (uint32_t)((int32_t)b >> (a & 31)))
INT2(v_min_u32, a < b ? a : b)
INT2(v_max_u32, a > b ? a : b)
INT2(v_min_i32, (int32_t)a < (int32_t)b ? a : b)
INT2(v_max_i32, (int32_t)a > (int32_t)b ? a : b)
INT2(v_mul_u32_u24, u24(a) * u24(b))
INT2(v_mul_lo_u32, a * b)
INT3V(v_xad_u32, (a ^ b) + c)
INT3V(v_add3_u32, a + b + c)
INT3(v_lshl_add_u32, (a << (b & 31)) + c)
INT3(v_add_lshl_u32, (a + b) << (c & 31))
INT3(v_lshl_or_b32, (a << (b & 31)) | c)
INT3V(v_and_or_b32, (a & b) | c)
INT3V(v_or3_b32, a | b | c)
INT3(v_mad_u32_u24, u24(a) * u24(b) + c)
INT3V(v_bfi_b32, (a & b) | (~a & c))
INT3(v_bfe_u32, (c & 31) ? (a >> (b & 31)) & ((1u << (c & 31)) - 1) : 0)
INT3(v_alignbit_b32, (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31)))
/* v_add/sub/subrev/mul_f32 8 lanes a GNU C vector: sources as rows or one uniform vector
 * (an inline constant read as f32), the NaN rule above in lane masks, results stored
 * straight into the row (each step reads its lanes before writing them); FLT2's lane loop
 * checked the rows for overlap and ran a remainder (vadd's v_add_f32: ~230 -> ~110 host
 * instructions, issue 24). SWAP: y op x, and S1's NaN first (v_subrev). */
typedef float v8f __attribute__((vector_size(32)));
static inline __attribute__((always_inline)) void
fsrc_of(struct isa_wave *w, const struct isa_inst *in, unsigned i, struct vsrc *s)
{
  unsigned code = in->src[i];
  s->row = code >= ISA_OP_VGPR0 ? w->vgpr[code - ISA_OP_VGPR0] : NULL;
  s->u = (v8u){ 0 } + (s->row ? 0u : code <= ISA_OP_SGPR_LAST ? w->sgpr[code]
                                                              : isa_read_v32(w, in, code, 0, F32));
}
static inline __attribute__((always_inline)) void
flt_lanes(const struct vsrc *sa, const struct vsrc *sb, bool ra, bool rb, uint32_t *d, int op,
          bool swap, unsigned n)
{
#pragma GCC unroll 8
  for (unsigned k = 0; k < n; k += 8) {
    v8u x = sa->u, y = sb->u, r;
    if (ra)
      memcpy(&x, sa->row + k, sizeof x);
    if (rb)
      memcpy(&y, sb->row + k, sizeof y);
    v8f xf, yf, rf;
    memcpy(&xf, &x, sizeof xf);
    memcpy(&yf, &y, sizeof yf);
    rf = op == 0 ? (swap ? yf + xf : xf + yf) : op == 1 ? (swap ? yf - xf : xf - yf)
                 : (swap ? yf * xf : xf * yf);
    memcpy(&r, &rf, sizeof r);
    v8u p = swap ? y : x, q = swap ? x : y;
    v8u ma = (v8u)((v8i)(p & 0x7fffffffu) > 0x7f800000);
    v8u mb = (v8u)((v8i)(q & 0x7fffffffu) > 0x7f800000) & ~ma;
    r = (r & ~(ma | mb)) | ((p | 0x400000u) & ma) | ((q | 0x400000u) & mb);
    memcpy(d + k, &r, sizeof r);
  }
}
#define FLTV(fn, OP, SWAP)                                                                   \
  FAST_FN static int f_##fn(struct isa_wave *w, const struct isa_inst *in)                   \
  {                                                                                          \
    unsigned n = full_lanes(w);                                                              \
    if (__builtin_expect(!n || !f32_default(w), 0))                                          \
      return in->exec(w, in);                                                                \
    struct vsrc sa, sb;                                                                      \
    fsrc_of(w, in, 0, &sa);                                                                  \
    fsrc_of(w, in, 1, &sb);                                                                  \
    uint32_t *d = dst_row(w, in->dst);                                                       \
    /* a VGPR S1 (VOP2 always): rows or a uniform S0, one unrolled loop each */              \
    if (sb.row && n == 64)                                                                   \
      sa.row ? flt_lanes(&sa, &sb, true, true, d, OP, SWAP, 64u)                             \
             : flt_lanes(&sa, &sb, false, true, d, OP, SWAP, 64u);                           \
    else                                                                                     \
      flt_lanes(&sa, &sb, sa.row != NULL, sb.row != NULL, d, OP, SWAP, n == 32 ? 32u : 64u); \
    return next(w, in);                                                                      \
  }
FLTV(v_add_f32, 0, false)
FLTV(v_sub_f32, 1, false)
FLTV(v_subrev_f32, 1, true)
FLTV(v_mul_f32, 2, false)

/* v_fma_f32 / v_fmac_f32: one rounding; only with a host fused multiply-add */
static int f_v_fma_f32(struct isa_wave *w, const struct isa_inst *in)
{
  /* every lane on (wave64 or wave32): the reference then takes the same vector FMA (a
   * per-lane fmaf may pick another of two NaN inputs than the host's vector FMA) */
  unsigned n = full_lanes(w);
  if (!n || !f32_default(w) || !isa_host_fma())
    return in->exec(w, in);
  uint32_t b0[VALU_N], b1[VALU_N], b2[VALU_N];
  isa_fma_rows(dst_row(w, in->dst), src32(w, in, 0, F32, b0), src32(w, in, 1, F32, b1),
               src32(w, in, 2, F32, b2), n);
  return next(w, in);
}

/* the same with three VGPR sources (v_fmac_f32_e32 vD, vA, vB: the unrolled dot products
 * of matmul-like kernels), chosen at decode only when the host has FMA: no operand set-up */
static int f_v_fma_f32_vvv(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned n = full_lanes(w);
  if (__builtin_expect(!n || !f32_default(w), 0))
    return in->exec(w, in);
  uint32_t (*v)[SIM_ISA_WAVE_SIZE] = w->vgpr;
  isa_fma_rows(v[in->dst - ISA_OP_VGPR0], v[in->src[0] - ISA_OP_VGPR0],
               v[in->src[1] - ISA_OP_VGPR0], v[in->src[2] - ISA_OP_VGPR0], n);
  w->pc += in->size;
  return 0;
}

/* carries: VOP2 uses VCC, VOP3B an SGPR pair (in->src[2] and in->sdst, as the reference) */
enum { C_ADD, C_SUB, C_SUBREV };
static inline __attribute__((always_inline)) int carry_n(struct isa_wave *w,
                                                         const struct isa_inst *in, int kind,
                                                         bool cin, unsigned n)
{
  uint32_t b0[VALU_N], b1[VALU_N];
  uint8_t ci[VALU_N], co[VALU_N];
  const uint32_t *a = src32(w, in, 0, B32, b0), *b = src32(w, in, 1, B32, b1);
  unpack_bits(cin ? valu_mask_src(w, in, 2) : 0, ci);
  uint32_t *d = dst_row(w, in->dst);
  /* in 32-bit arithmetic (so that it vectorises): the carry or borrow of each step */
  for (unsigned l = 0; l < n; l++) {
    uint32_t x = kind == C_SUBREV ? b[l] : a[l], y = kind == C_SUBREV ? a[l] : b[l];
    uint32_t c = ci[l], v, c1, c2;
    if (kind == C_ADD) {
      uint32_t t = x + y;
      c1 = t < x;
      v = t + c;
      c2 = v < t;
    } else {
      uint32_t t = x - y;
      c1 = x < y;
      v = t - c;
      c2 = t < c;
    }
    d[l] = v;
    co[l] = (uint8_t)(c1 | c2);
  }
  valu_put_mask(w, in, pack_bits(co, n));
  return next(w, in);
}
static inline __attribute__((always_inline)) int carry(struct isa_wave *w,
                                                       const struct isa_inst *in, int kind,
                                                       bool cin)
{
  unsigned n = full_lanes(w);
  if (!n)
    return in->exec(w, in);
#define CARRY_N(k) carry_n(w, in, kind, cin, k)
  return BY_WAVE(n, CARRY_N);
#undef CARRY_N
}
FAST_FN static int f_v_add_co_u32(struct isa_wave *w, const struct isa_inst *in) { return carry(w, in, C_ADD, false); }
FAST_FN static int f_v_sub_co_u32(struct isa_wave *w, const struct isa_inst *in) { return carry(w, in, C_SUB, false); }
FAST_FN static int f_v_subrev_co_u32(struct isa_wave *w, const struct isa_inst *in) { return carry(w, in, C_SUBREV, false); }
FAST_FN static int f_v_addc_co_u32(struct isa_wave *w, const struct isa_inst *in) { return carry(w, in, C_ADD, true); }
FAST_FN static int f_v_subb_co_u32(struct isa_wave *w, const struct isa_inst *in) { return carry(w, in, C_SUB, true); }
FAST_FN static int f_v_subbrev_co_u32(struct isa_wave *w, const struct isa_inst *in) { return carry(w, in, C_SUBREV, true); }

/* ---- a 64-bit add as one operation: v_add_co_u32 d0, c, a0, b0 then v_addc_co_u32 d1, c',
 * a1, b1, c (the address arithmetic of nearly every global access). One loop computes both
 * halves with the carry kept per lane; both results and both lane masks are written as the
 * two instructions would (isa_fast_fuse accepts only pairs where that order cannot show: the
 * second reads neither the first's VGPR result nor, as a plain source, its mask SGPRs, and
 * the mask is not EXEC, so the second's lanes and sources are what they were). ---- */
/* Eight lanes a GNU C vector (one AVX2 or two SSE2 registers, gcc and clang). Each carry is
 * the sign bit of (x & y) | ((x | y) & ~sum) (bit 31's majority of the operands' bits and
 * the carry into it), so no unsigned compare (SSE2/AVX2 have none) and the lane mask is the
 * vector's sign bits, eight lanes at a time (x86-64: movmskps). ~450 host instructions a
 * wave64 pair with a plain lane loop, byte carries and row copies before (issue 24). */
typedef uint32_t a64_v8 __attribute__((vector_size(32)));
/* the sign bits of `*m` as bits 0..7 (vectors by pointer: gcc warns of the ABI of a 32-byte
 * vector passed by value in the non-AVX clone) */
static inline uint64_t a64_bits(const a64_v8 *m)
{
#if defined(__x86_64__)
  typedef float f4 __attribute__((vector_size(16)));
  f4 h[2];
  memcpy(h, m, sizeof h);
  return (uint64_t)(__builtin_ia32_movmskps(h[0]) | __builtin_ia32_movmskps(h[1]) << 4);
#else
  uint64_t b = 0;
  for (unsigned l = 0; l < 8; l++)
    b |= (uint64_t)((*m)[l] >> 31) << l;
  return b;
#endif
}

/* The lanes, n a multiple of 8. `ua`/`uh`: the halves' S0 are the uniform `u0`/`u2` (VOP2:
 * S1 is always a VGPR; other shapes come with their uniform sources in broadcast rows).
 * Every source of eight lanes is read before their results are stored: lanes are
 * independent, so a destination that is also a source reads the old value, and the
 * second's store comes last when both write one row. */
static inline __attribute__((always_inline)) void
add64_v8(bool ua, bool uh, bool mask0, uint32_t u0, uint32_t u2, const uint32_t *a0,
         const uint32_t *a1, const uint32_t *h0, const uint32_t *h1, uint32_t *dlo,
         uint32_t *dhi, unsigned n, uint64_t *m0, uint64_t *m1)
{
  uint64_t r0 = 0, r1 = 0;
  /* unrolled (n is a constant 64): the mask shifts become constants and the loop's own
   * counting goes (issue 24: ~35 -> ~26 host instructions per 8 lanes) */
#pragma GCC unroll 8
  for (unsigned k = 0; k < n / 8; k++) {
    a64_v8 x, y, p, q;
    if (ua)
      x = (a64_v8){ 0 } + u0;
    else
      memcpy(&x, a0 + 8 * k, sizeof x);
    memcpy(&y, a1 + 8 * k, sizeof y);
    if (uh)
      p = (a64_v8){ 0 } + u2;
    else
      memcpy(&p, h0 + 8 * k, sizeof p);
    memcpy(&q, h1 + 8 * k, sizeof q);
    a64_v8 lo = x + y, g0 = (x & y) | ((x | y) & ~lo);   /* sign: the low half's carry */
    a64_v8 v = p + q + (g0 >> 31), g1 = (p & q) | ((p | q) & ~v);
    memcpy(dlo + 8 * k, &lo, sizeof lo);
    memcpy(dhi + 8 * k, &v, sizeof v);
    if (mask0)
      r0 |= a64_bits(&g0) << (8 * k);
    r1 |= a64_bits(&g1) << (8 * k);
  }
  *m0 = r0;
  *m1 = r1;
}

/* a wave64's lane mask into its SGPR pair: VCC and SGPR pairs inline, the rest (NULL,
 * EXEC, other specials) through valu_put_mask as the reference writes them */
static inline void put_mask64(struct isa_wave *w, const struct isa_inst *in, uint64_t m)
{
  unsigned c = in->sdst;
  if (c == ISA_OP_VCC_LO)
    w->vcc = m;
  else if (c + 1 <= ISA_OP_SGPR_LAST) {   /* as isa_write_s64: both halves plain SGPRs */
    w->sgpr[c] = (uint32_t)m;
    w->sgpr[c + 1] = (uint32_t)(m >> 32);
  } else
    valu_put_mask(w, in, m);
}

/* wave64 (and any n a multiple of 8): the sources as rows or uniform values, add64_v8 with
 * the shape (uniform S0s, first mask written) as constants */
static inline __attribute__((always_inline)) int add64_rows(struct isa_wave *w,
                                                            const struct isa_inst *in, unsigned n)
{
  const struct isa_inst *hi = in->pair;
  bool mask0 = in->sdst != hi->sdst;
  bool ua = in->src[0] < ISA_OP_VGPR0, uh = hi->src[0] < ISA_OP_VGPR0;
  uint32_t u0 = !ua ? 0 : in->src[0] <= ISA_OP_SGPR_LAST ? w->sgpr[in->src[0]]
                                                         : isa_read_v32(w, in, in->src[0], 0, B32);
  uint32_t u2 = !uh ? 0 : hi->src[0] <= ISA_OP_SGPR_LAST ? w->sgpr[hi->src[0]]
                                                         : isa_read_v32(w, hi, hi->src[0], 0, B32);
  const uint32_t *a0 = ua ? NULL : w->vgpr[in->src[0] - ISA_OP_VGPR0];
  const uint32_t *h0 = uh ? NULL : w->vgpr[hi->src[0] - ISA_OP_VGPR0];
  uint32_t b1[VALU_N], b3[VALU_N];   /* a uniform S1 (VOP3B) as a row */
  const uint32_t *a1 = src32(w, in, 1, B32, b1), *h1 = src32(w, hi, 1, B32, b3);
  uint32_t *dlo = dst_row(w, in->dst), *dhi = dst_row(w, hi->dst);
  uint64_t m0, m1;
#define ADD64_V8(UA, UH, M0) add64_v8(UA, UH, M0, u0, u2, a0, a1, h0, h1, dlo, dhi, n, &m0, &m1)
  switch ((unsigned)ua << 2 | (unsigned)uh << 1 | (unsigned)mask0) {
  case 0: ADD64_V8(false, false, false); break;
  case 1: ADD64_V8(false, false, true); break;
  case 2: ADD64_V8(false, true, false); break;
  case 3: ADD64_V8(false, true, true); break;
  case 4: ADD64_V8(true, false, false); break;
  case 5: ADD64_V8(true, false, true); break;
  case 6: ADD64_V8(true, true, false); break;
  default: ADD64_V8(true, true, true); break;
  }
#undef ADD64_V8
  if (mask0)
    put_mask64(w, in, m0);
  put_mask64(w, hi, m1);
  w->pc = hi->pc + hi->size;   /* past an s_delay_alu between them too (isa_fast_fuse) */
  return 0;
}
static inline __attribute__((always_inline)) int add64_n(struct isa_wave *w,
                                                         const struct isa_inst *in, unsigned n)
{
  /* 8 lanes a step as GNU C vectors, results stored straight into the rows: lane l reads only
   * lane l of any row, every row of a step is read before that step writes, and the second
   * half reads neither the first's result nor its mask (isa_fast_pairs), so rows that
   * coincide do not matter; the carries are packed from the compares (no byte rows, no
   * result buffers: 425 -> 388 host instructions a wave32 pair, issue 21) */
  const struct isa_inst *hi = in->pair;
  bool mask0 = in->sdst != hi->sdst;
  struct vsrc sa, sb, sp, sq;
  vsrc_of(w, in, 0, &sa);
  vsrc_of(w, in, 1, &sb);
  vsrc_of(w, hi, 0, &sp);
  vsrc_of(w, hi, 1, &sq);
  uint32_t *dlo = dst_row(w, in->dst), *dhi = dst_row(w, hi->dst);
  uint64_t m0 = 0, m1 = 0;
  for (unsigned k = 0; k < n; k += 8) {
    v8u x, y, p, q;
    vsrc_at(&sa, k, &x);
    vsrc_at(&sb, k, &y);
    vsrc_at(&sp, k, &p);
    vsrc_at(&sq, k, &q);
    v8u lo = x + y, c = (v8u)(lo < x);       /* c: all ones where the low half carried */
    v8u t = p + q, v = t - c;                /* t + carry */
    v8u c1 = (v8u)(t < p) | (v8u)(v < t);
    memcpy(dlo + k, &lo, sizeof lo);
    memcpy(dhi + k, &v, sizeof v);
    m0 |= (uint64_t)v8_bits(&c) << k;
    m1 |= (uint64_t)v8_bits(&c1) << k;
  }
  if (mask0)
    valu_put_mask(w, in, m0);
  valu_put_mask(w, hi, m1);
  w->pc = hi->pc + hi->size;   /* past an s_delay_alu between them too (isa_fast_fuse) */
  return 0;
}
FAST_FN static int add64(struct isa_wave *w, const struct isa_inst *in)
{
  const struct isa_inst *hi = in->pair;
  unsigned n = full_lanes(w);
  /* the second's own checks; a wave64 whose second reads the first's mask (mask_hi_read):
   * the first alone */
  if (!n || hi->vgpr_end > w->vgpr_alloc ||
      (!w->wave32 && (mask_hi_read(in, hi->src[0]) || mask_hi_read(in, hi->src[1]))))
    return carry(w, in, C_ADD, false);
  /* wave32: add64_n's vectors over generic sources (388 host instructions a gfx11 pair);
   * wave64: add64_rows (~391 a gfx9 pair, against 555 for the byte-carry loop it replaced) */
  return n == 32 ? add64_n(w, in, 32u) : add64_rows(w, in, 64u);
}
/* what isa_fast_fuse stores (not itself a target_clones function: gcc 12 warns that the
 * address of one is a local's) */
static int f_add64(struct isa_wave *w, const struct isa_inst *in) { return add64(w, in); }

/* v_cndmask_b32: S2's lane bit picks S1 */
FAST_FN static int f_v_cndmask_b32(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned n = full_lanes(w);
  if (!n)
    return in->exec(w, in);
  uint32_t b0[VALU_N], b1[VALU_N], sel[VALU_N];
  const uint32_t *a = src32(w, in, 0, F32, b0), *b = src32(w, in, 1, F32, b1);
  uint64_t m = valu_mask_src(w, in, 2);
  for (unsigned l = 0; l < VALU_N; l++)
    sel[l] = 0u - (uint32_t)(m >> l & 1);
  uint32_t *d = dst_row(w, in->dst);
  for (unsigned l = 0; l < n; l++)
    d[l] = (b[l] & sel[l]) | (a[l] & ~sel[l]);
  return next(w, in);
}

/* v_mad_u64_u32: D.u64 = S0.u32 * S1.u32 + S2.u64, carry-out of the add to sdst */
static inline __attribute__((always_inline)) int mad_u64_n(struct isa_wave *w,
                                                           const struct isa_inst *in, unsigned n,
                                                           bool mask)
{
  uint32_t b0[VALU_N], b1[VALU_N], blo[VALU_N], bhi[VALU_N], rlo[VALU_N], rhi[VALU_N];
  uint8_t co[VALU_N];
  const uint32_t *a = src32(w, in, 0, B32, b0), *b = src32(w, in, 1, B32, b1), *clo, *chi;
  src64(w, in, 2, ISA_T_B64, &clo, &chi, blo, bhi);
  for (unsigned l = 0; l < n; l++) {
    /* the product's high half is at most 2^32 - 2: adding the low carry cannot wrap */
    uint64_t p = (uint64_t)a[l] * b[l];
    uint32_t pl = (uint32_t)p, ph = (uint32_t)(p >> 32), sl = pl + clo[l];
    uint32_t t = ph + (sl < pl), sh = t + chi[l];
    rlo[l] = sl;
    rhi[l] = sh;
    if (mask)
      co[l] = (uint8_t)(sh < t);
  }
  unsigned r = (in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1);
  memcpy(w->vgpr[r], rlo, n * sizeof *rlo);
  memcpy(w->vgpr[(r + 1) & (ISA_MAX_VGPRS - 1)], rhi, n * sizeof *rhi);
  if (mask)
    valu_put_mask(w, in, pack_bits(co, n));
  return next(w, in);
}

FAST_FN static int f_v_mad_u64_u32(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned n = full_lanes(w);
  if (!n)
    return in->exec(w, in);
  /* gfx11/gfx12's `v_mad_u64_u32 v[..], null, ...` (what clang-19 emits): no carries */
  if (in->sdst == ISA_OP_NULL)
    return n == 32 ? mad_u64_n(w, in, 32u, false) : mad_u64_n(w, in, 64u, false);
  return n == 32 ? mad_u64_n(w, in, 32u, true) : mad_u64_n(w, in, 64u, true);
}

/* 64-bit shifts: S0 the count, S1 the value */
/* a logical 64-bit shift of rows by a uniform count s, 8 lanes a vector; mid: 0 < s < 32
 * (the usual case, its own unrolled loop), else any s (kind 0 left, 1 right) */
static inline __attribute__((always_inline)) void
shift64_rows(const uint32_t *vlo, const uint32_t *vhi, uint32_t *dlo, uint32_t *dhi, unsigned s,
             int kind, int mid, unsigned n)
{
#pragma GCC unroll 8
  for (unsigned k = 0; k < n; k += 8) {
    v8u x, y, lo, hi;
    memcpy(&x, vlo + k, sizeof x);
    memcpy(&y, vhi + k, sizeof y);
    if (mid && kind == 0) {
      lo = x << s;
      hi = y << s | x >> (32 - s);
    } else if (mid) {
      lo = x >> s | y << (32 - s);
      hi = y >> s;
    } else if (s == 0) {
      lo = x;
      hi = y;
    } else {
      lo = kind == 0 ? (v8u){ 0 } : y >> (s - 32);
      hi = kind == 0 ? x << (s - 32) : (v8u){ 0 };
    }
    memcpy(dlo + k, &lo, sizeof lo);
    memcpy(dhi + k, &hi, sizeof hi);
  }
}

static inline __attribute__((always_inline)) int shift64_n(struct isa_wave *w,
                                                           const struct isa_inst *in, int kind,
                                                           unsigned n)
{
  if (in->src[0] < ISA_OP_VGPR0 && kind < 2 && in->src[1] >= ISA_OP_VGPR0) {
    /* the usual case (vadd's address scaling): a logical shift of a VGPR pair by a uniform
     * count, 8 lanes a GNU C vector from the source rows straight into the destination
     * rows (each step reads its lanes of both halves before it writes them, so a
     * destination pair overlapping the source is fine), the count read once, not
     * broadcast: ~275 -> ~100 host instructions a wave64 (issue 24) */
    unsigned s = isa_read_v32(w, in, in->src[0], 0, B32) & 63;
    unsigned q = in->src[1] - ISA_OP_VGPR0, r = (in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1);
    const uint32_t *vlo = w->vgpr[q], *vhi = w->vgpr[(q + 1) & (ISA_MAX_VGPRS - 1)];
    uint32_t *dlo = w->vgpr[r], *dhi = w->vgpr[(r + 1) & (ISA_MAX_VGPRS - 1)];
    if (s == 0 || s >= 32)
      shift64_rows(vlo, vhi, dlo, dhi, s, kind, 0, n);
    else if (kind == 0)
      shift64_rows(vlo, vhi, dlo, dhi, s, 0, 1, n);
    else
      shift64_rows(vlo, vhi, dlo, dhi, s, 1, 1, n);
    return next(w, in);
  }
  uint32_t b0[VALU_N], blo[VALU_N], bhi[VALU_N], rlo[VALU_N], rhi[VALU_N];
  const uint32_t *a = src32(w, in, 0, B32, b0), *vlo, *vhi;
  src64(w, in, 1, ISA_T_B64, &vlo, &vhi, blo, bhi);
  if (in->src[0] < ISA_OP_VGPR0 && kind < 2) {
    /* a uniform count (the usual case), logical shifts in 32-bit halves: no 64-bit lanes to
     * interleave, so each loop is a few vector shifts */
    unsigned s = a[0] & 63;
    if (s == 0) {
      memcpy(rlo, vlo, n * sizeof *rlo);
      memcpy(rhi, vhi, n * sizeof *rhi);
    } else if (s >= 32 && kind == 0) {
      for (unsigned l = 0; l < n; l++) {
        rlo[l] = 0;
        rhi[l] = vlo[l] << (s - 32);
      }
    } else if (s >= 32) {
      for (unsigned l = 0; l < n; l++) {
        rlo[l] = vhi[l] >> (s - 32);
        rhi[l] = 0;
      }
    } else if (kind == 0) {
      for (unsigned l = 0; l < n; l++) {
        rlo[l] = vlo[l] << s;
        rhi[l] = vhi[l] << s | vlo[l] >> (32 - s);
      }
    } else {
      for (unsigned l = 0; l < n; l++) {
        rlo[l] = vlo[l] >> s | vhi[l] << (32 - s);
        rhi[l] = vhi[l] >> s;
      }
    }
  } else if (in->src[0] < ISA_OP_VGPR0) {   /* a uniform count: vectorises */
    unsigned s = a[0] & 63;
    for (unsigned l = 0; l < n; l++) {
      uint64_t v = vlo[l] | (uint64_t)vhi[l] << 32;
      v = kind == 0 ? v << s : kind == 1 ? v >> s : (uint64_t)((int64_t)v >> s);
      rlo[l] = (uint32_t)v;
      rhi[l] = (uint32_t)(v >> 32);
    }
  } else {
    for (unsigned l = 0; l < n; l++) {
      uint64_t v = vlo[l] | (uint64_t)vhi[l] << 32, s = a[l] & 63;
      v = kind == 0 ? v << s : kind == 1 ? v >> s : (uint64_t)((int64_t)v >> s);
      rlo[l] = (uint32_t)v;
      rhi[l] = (uint32_t)(v >> 32);
    }
  }
  unsigned r = (in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1);
  memcpy(w->vgpr[r], rlo, n * sizeof *rlo);
  memcpy(w->vgpr[(r + 1) & (ISA_MAX_VGPRS - 1)], rhi, n * sizeof *rhi);
  return next(w, in);
}
static inline __attribute__((always_inline)) int shift64(struct isa_wave *w,
                                                         const struct isa_inst *in, int kind)
{
  unsigned n = full_lanes(w);
  if (!n)
    return in->exec(w, in);
#define SHIFT_N(k) shift64_n(w, in, kind, k)
  return BY_WAVE(n, SHIFT_N);
#undef SHIFT_N
}
FAST_FN static int f_v_lshlrev_b64(struct isa_wave *w, const struct isa_inst *in) { return shift64(w, in, 0); }
FAST_FN static int f_v_lshrrev_b64(struct isa_wave *w, const struct isa_inst *in) { return shift64(w, in, 1); }
FAST_FN static int f_v_ashrrev_i64(struct isa_wave *w, const struct isa_inst *in) { return shift64(w, in, 2); }

/* gfx942's 64-bit address forms (exec_v942.c): v_lshl_add_u64 (S0.u64 << S1[2:0]) + S2.u64,
 * which clang-19 uses where gfx9 code has a v_add_co/v_addc pair, and v_mov_b64 */
FAST_FN static int f_v_lshl_add_u64(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned n = full_lanes(w);
  if (!n || in->src[1] >= ISA_OP_VGPR0)   /* a per-lane shift: the reference */
    return in->exec(w, in);
  uint32_t b1[VALU_N], alo_b[VALU_N], ahi_b[VALU_N], clo_b[VALU_N], chi_b[VALU_N];
  uint32_t rlo[VALU_N], rhi[VALU_N];
  const uint32_t *alo, *ahi, *clo, *chi;
  unsigned sh = src32(w, in, 1, B32, b1)[0] & 7;
  src64(w, in, 0, ISA_T_B64, &alo, &ahi, alo_b, ahi_b);
  src64(w, in, 2, ISA_T_B64, &clo, &chi, clo_b, chi_b);
  /* in 32-bit halves, which vectorise 8 lanes a vector: the shifted low half, the bits it
   * pushes into the high half ((x >> 1) >> (31 - sh) is 0 for sh 0), the carry */
  for (unsigned l = 0; l < n; l++) {
    uint32_t lo = alo[l] << sh, hi = ahi[l] << sh | (alo[l] >> 1) >> (31 - sh);
    uint32_t r = lo + clo[l];
    rlo[l] = r;
    rhi[l] = hi + chi[l] + (r < lo);
  }
  unsigned r = (in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1);
  memcpy(w->vgpr[r], rlo, n * sizeof *rlo);
  memcpy(w->vgpr[(r + 1) & (ISA_MAX_VGPRS - 1)], rhi, n * sizeof *rhi);
  return next(w, in);
}

FAST_FN static int f_v_mov_b64(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned n = full_lanes(w);
  if (!n)
    return in->exec(w, in);
  uint32_t blo[VALU_N], bhi[VALU_N], rlo[VALU_N], rhi[VALU_N];
  const uint32_t *lo, *hi;
  src64(w, in, 0, ISA_T_B64, &lo, &hi, blo, bhi);
  memcpy(rlo, lo, n * sizeof *rlo);   /* both rows read before either is written */
  memcpy(rhi, hi, n * sizeof *rhi);
  unsigned r = (in->dst - ISA_OP_VGPR0) & (ISA_MAX_VGPRS - 1);
  memcpy(w->vgpr[r], rlo, n * sizeof *rlo);
  memcpy(w->vgpr[(r + 1) & (ISA_MAX_VGPRS - 1)], rhi, n * sizeof *rhi);
  return next(w, in);
}

/* integer compares and their v_cmpx forms, under any EXEC: every lane of the wave is
 * compared (inactive lanes' registers are read, nothing else), the mask keeps the active
 * ones (inactive lanes 0, as the reference); a v_cmpx (opcode bit 4, as exec_vcmp.c
 * tells them apart) also writes EXEC. A wave32 with EXEC's high half set (never made by
 * the ISA) is left to the reference. */
static inline bool cmp_lanes(const struct isa_wave *w, unsigned *n, uint64_t *em)
{
  *em = w->exec;
  *n = w->wave32 ? 32u : 64u;
  return !w->wave32 || !(w->exec >> 32);
}

static inline int cmp_put(struct isa_wave *w, const struct isa_inst *in, uint64_t m)
{
  valu_put_mask(w, in, m);
  if (in->op & 0x10)
    w->exec = m;
  return next(w, in);
}

/* one bit per lane to VCC or sdst */
#define CMPI32(fn, T, COND)                                                                   \
  FAST_FN static int fn(struct isa_wave *w, const struct isa_inst *in)                               \
  {                                                                                           \
    unsigned n;                                                                               \
    uint64_t em;                                                                              \
    if (!cmp_lanes(w, &n, &em))                                                               \
      return in->exec(w, in);                                                                 \
    uint32_t b0[VALU_N], b1[VALU_N];                                                          \
    uint8_t r[VALU_N];                                                                        \
    const uint32_t *s0 = src32(w, in, 0, B32, b0), *s1 = src32(w, in, 1, B32, b1);           \
    for (unsigned l = 0; l < n; l++) {                                                        \
      T a = (T)s0[l], b = (T)s1[l];                                                           \
      r[l] = (uint8_t)(COND);                                                                 \
    }                                                                                         \
    return cmp_put(w, in, pack_bits(r, n) & em);                                              \
  }
CMPI32(f_v_cmp_lt_u32, uint32_t, a < b) CMPI32(f_v_cmp_eq_u32, uint32_t, a == b)
CMPI32(f_v_cmp_le_u32, uint32_t, a <= b) CMPI32(f_v_cmp_gt_u32, uint32_t, a > b)
CMPI32(f_v_cmp_ne_u32, uint32_t, a != b) CMPI32(f_v_cmp_ge_u32, uint32_t, a >= b)
CMPI32(f_v_cmp_lt_i32, int32_t, a < b) CMPI32(f_v_cmp_eq_i32, int32_t, a == b)
CMPI32(f_v_cmp_le_i32, int32_t, a <= b) CMPI32(f_v_cmp_gt_i32, int32_t, a > b)
CMPI32(f_v_cmp_ne_i32, int32_t, a != b) CMPI32(f_v_cmp_ge_i32, int32_t, a >= b)
/* 64-bit compares, 8 lanes a GNU C vector of 32-bit halves: LT/GT from the high halves
 * (signed for the i64 forms), the low halves (unsigned) when those are equal; a uniform
 * source is one vector per half, not broadcast rows; the lane mask from the vectors' sign
 * bits (a64_bits). A byte per lane and pack_bits before: ~340 -> ~120 host instructions for
 * vadd's v_cmp_gt_u64 (issue 24). kind: 0 <, 1 >, 2 ==; eq: also equal; ne: negated. */
struct vsrc64 {
  const uint32_t *lo, *hi;   /* NULL: uniform */
  v8u ul, uh;
};
static inline __attribute__((always_inline)) void
vsrc64_of(struct isa_wave *w, const struct isa_inst *in, unsigned i, struct vsrc64 *s)
{
  unsigned code = in->src[i];
  if (code >= ISA_OP_VGPR0) {
    unsigned r = code - ISA_OP_VGPR0;
    s->lo = w->vgpr[r];
    s->hi = w->vgpr[(r + 1) & (ISA_MAX_VGPRS - 1)];
    s->ul = s->uh = (v8u){ 0 };
    return;
  }
  uint64_t v = isa_read_v64(w, in, code, 0, ISA_T_B64);
  s->lo = s->hi = NULL;
  s->ul = (v8u){ 0 } + (uint32_t)v;
  s->uh = (v8u){ 0 } + (uint32_t)(v >> 32);
}
static inline __attribute__((always_inline)) uint64_t
cmp64_lanes(const struct vsrc64 *a, const struct vsrc64 *b, bool ra, bool rb, int kind,
            bool sgn, bool eq, bool ne, unsigned n)
{
  uint64_t m = 0;
#pragma GCC unroll 8
  for (unsigned k = 0; k < n; k += 8) {
    v8u xl = a->ul, xh = a->uh, yl = b->ul, yh = b->uh;
    if (ra) {
      memcpy(&xl, a->lo + k, sizeof xl);
      memcpy(&xh, a->hi + k, sizeof xh);
    }
    if (rb) {
      memcpy(&yl, b->lo + k, sizeof yl);
      memcpy(&yh, b->hi + k, sizeof yh);
    }
    v8u eh = (v8u)(xh == yh), el = (v8u)(xl == yl), r;
    if (kind == 2)
      r = eh & el;
    else {
      v8u oh = sgn ? (v8u)(kind == 0 ? (v8i)xh < (v8i)yh : (v8i)xh > (v8i)yh)
                   : (v8u)(kind == 0 ? xh < yh : xh > yh);
      v8u ol = (v8u)(kind == 0 ? xl < yl : xl > yl);
      r = oh | (eh & ol);
      if (eq)
        r |= eh & el;
    }
    if (ne)
      r = ~r;
    m |= a64_bits(&r) << k;
  }
  return m;
}
static inline __attribute__((always_inline)) int
cmp64_n(struct isa_wave *w, const struct isa_inst *in, int kind, bool sgn, bool eq, bool ne,
        unsigned n, uint64_t em)
{
  struct vsrc64 a, b;
  vsrc64_of(w, in, 0, &a);
  vsrc64_of(w, in, 1, &b);
  uint64_t m;   /* each shape (row or uniform sources) its own unrolled loop */
  if (a.lo && b.lo)
    m = cmp64_lanes(&a, &b, true, true, kind, sgn, eq, ne, n);
  else if (a.lo)
    m = cmp64_lanes(&a, &b, true, false, kind, sgn, eq, ne, n);
  else if (b.lo)
    m = cmp64_lanes(&a, &b, false, true, kind, sgn, eq, ne, n);
  else
    m = cmp64_lanes(&a, &b, false, false, kind, sgn, eq, ne, n);
  m &= em;
  if (!w->wave32 && !(in->op & 0x10)) {   /* the plain compare of a wave64: its mask inline */
    put_mask64(w, in, m);
    return next(w, in);
  }
  return cmp_put(w, in, m);
}
#define CMP64(fn, KIND, SGN, EQ, NE)                                                         \
  FAST_FN static int fn(struct isa_wave *w, const struct isa_inst *in)                       \
  {                                                                                          \
    unsigned n;                                                                              \
    uint64_t em;                                                                             \
    if (!cmp_lanes(w, &n, &em))                                                              \
      return in->exec(w, in);                                                                \
    return n == 32 ? cmp64_n(w, in, KIND, SGN, EQ, NE, 32u, em)                              \
                   : cmp64_n(w, in, KIND, SGN, EQ, NE, 64u, em);                             \
  }
CMP64(f_v_cmp_lt_u64, 0, false, false, false) CMP64(f_v_cmp_le_u64, 0, false, true, false)
CMP64(f_v_cmp_gt_u64, 1, false, false, false) CMP64(f_v_cmp_ge_u64, 1, false, true, false)
CMP64(f_v_cmp_lt_i64, 0, true, false, false) CMP64(f_v_cmp_le_i64, 0, true, true, false)
CMP64(f_v_cmp_gt_i64, 1, true, false, false) CMP64(f_v_cmp_ge_i64, 1, true, true, false)
CMP64(f_v_cmp_eq_u64, 2, false, false, false) CMP64(f_v_cmp_ne_u64, 2, false, false, true)
CMP64(f_v_cmp_eq_i64, 2, false, false, false) CMP64(f_v_cmp_ne_i64, 2, false, false, true)

/* ---- LDS: every lane on and every address in range, checked once for the wave ---- */
static inline uint32_t lds_ld(const uint8_t *m, uint64_t a)
{
  uint32_t v;
  memcpy(&v, m + a, 4);
  return v;
}

/* whether any bit of any lane is set (by pointer: no vector crosses a call) */
static inline bool v8_any(const v8u *v)
{
  uint64_t q[4];
  memcpy(q, v, sizeof q);
  return (q[0] | q[1] | q[2] | q[3]) != 0;
}

/* whether an address of the n lanes is above `limit` */
FAST_FN static bool lds_out_of_range(const uint32_t *addr, uint32_t limit, unsigned n)
{
  v8u bad = { 0 }, lim = (v8u){ 0 } + limit;
  for (unsigned l = 0; l < n; l += 8) {
    v8u a;
    memcpy(&a, addr + l, sizeof a);
    bad |= (v8u)(a > lim);
  }
  return v8_any(&bad);
}

/* ds_read_b32 (54), ds_read2_b32 (55) and ds_read2st64_b32 (56) in one function (no
 * calls into the clones): each 16-lane group is classified once (one address, consecutive
 * dwords, other), and that classification is the range check as well: one compare for
 * a group at one address or at consecutive dwords, the group's lanes for any other. All
 * groups are checked before any register is written; out of range, the reference runs. */
static inline __attribute__((always_inline)) int ds_read_b32_n(struct isa_wave *w,
                                                               const struct isa_inst *in,
                                                               unsigned n)
{
  static const v8u step_lo = { 0, 4, 8, 12, 16, 20, 24, 28 };
  static const v8u step_hi = { 32, 36, 40, 44, 48, 52, 56, 60 };
  const struct isa_group *g = w->group;
  bool two = in->op != 54;
  uint64_t o0, o1;
  if (two) {
    uint64_t scale = in->op == 56 ? 256 : 4;
    o0 = in->offset0 * scale;
    o1 = in->offset1 * scale;
  } else {
    o0 = o1 = (uint32_t)in->offset & 0xffff;
  }
  /* every dword in range; below 2^32 + 2^17, so no address wraps either */
  uint64_t reach = (o0 > o1 ? o0 : o1) + 4u;
  if (reach > g->lds_size)
    return in->exec(w, in);
  uint32_t limit = (uint32_t)(g->lds_size - reach);
  const uint32_t *addr = w->vgpr[in->addr - ISA_OP_VGPR0];
  /* pass 1: classify and check each group of 16 lanes */
  uint8_t kind[VALU_N / 16];
  v8u bad = { 0 }, lim = (v8u){ 0 } + limit;
  bool out = false;
  for (unsigned b = 0, k = 0; b < n; b += 16, k++) {
    v8u lo, hi, bc = (v8u){ 0 } + addr[b];
    memcpy(&lo, addr + b, sizeof lo);
    memcpy(&hi, addr + b + 8, sizeof hi);
    v8u same = (lo ^ bc) | (hi ^ bc), step = (lo ^ (bc + step_lo)) | (hi ^ (bc + step_hi));
    if (!v8_any(&same)) {
      kind[k] = 0;
      out |= addr[b] > limit;
    } else if (!v8_any(&step) && limit >= 60 && addr[b] <= limit - 60) {
      kind[k] = 1;                    /* consecutive, all in range, no address wrapped */
    } else {
      kind[k] = 2;
      bad |= (v8u)(lo > lim) | (v8u)(hi > lim);
    }
  }
  if (out || v8_any(&bad))
    return in->exec(w, in);
  /* pass 2: the loads; a destination that is the address register is written once every
   * address was read */
  uint8_t *m = g->lds;
  uint32_t (*v)[SIM_ISA_WAVE_SIZE] = w->vgpr;
  unsigned vd = in->dst - ISA_OP_VGPR0;
  uint32_t *d0 = v[vd], *d1 = two ? v[vd + 1] : NULL;
  uint32_t b0[VALU_N], b1[VALU_N];
  uint32_t *r0 = d0 == addr ? b0 : d0, *r1 = d1 == addr ? b1 : d1;
  for (unsigned b = 0, k = 0; b < n; b += 16, k++) {
    if (kind[k] == 0) {
      v8u x0 = (v8u){ 0 } + lds_ld(m, addr[b] + o0);
      memcpy(r0 + b, &x0, sizeof x0);
      memcpy(r0 + b + 8, &x0, sizeof x0);
      if (two) {
        v8u x1 = (v8u){ 0 } + lds_ld(m, addr[b] + o1);
        memcpy(r1 + b, &x1, sizeof x1);
        memcpy(r1 + b + 8, &x1, sizeof x1);
      }
    } else if (kind[k] == 1) {
      memcpy(r0 + b, m + addr[b] + o0, 64);
      if (two)
        memcpy(r1 + b, m + addr[b] + o1, 64);
    } else {
      for (unsigned j = b; j < b + 16; j++) {
        uint32_t x0 = lds_ld(m, addr[j] + o0), x1 = two ? lds_ld(m, addr[j] + o1) : 0;
        r0[j] = x0;
        if (two)
          r1[j] = x1;
      }
    }
  }
  if (r0 != d0)
    memcpy(d0, r0, n * sizeof *r0);
  if (two && r1 != d1)
    memcpy(d1, r1, n * sizeof *r1);
  return next(w, in);
}

FAST_FN static int f_ds_read_b32(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned n = full_lanes(w);
  if (!n || !w->group->lds)
    return in->exec(w, in);
#define DS_READ_N(k) ds_read_b32_n(w, in, k)
  return BY_WAVE(n, DS_READ_N);
#undef DS_READ_N
}

static int f_ds(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned n = full_lanes(w);
  const struct isa_group *g = w->group;
  if (!n || !g->lds)
    return in->exec(w, in);
  unsigned op = in->op, dw = 1;
  uint64_t o0 = (uint32_t)in->offset & 0xffff, o1 = 0;
  switch (op) {
  case 13: break;                                 /* write b32 (reads: f_ds_read_b32) */
  case 118: case 77: dw = 2; break;               /* read / write b64 */
  case 14: case 15:                               /* write2 (st64) b32 */
  case 119: case 120: {                           /* read2 (st64) b64 */
    dw = op >= 119 ? 2 : 1;
    uint64_t scale = 4u * dw * ((op == 15 || op == 120) ? 64 : 1);
    o0 = in->offset0 * scale;
    o1 = in->offset1 * scale;
    break;
  }
  default:
    return in->exec(w, in);
  }
  const uint32_t *addr = w->vgpr[in->addr - ISA_OP_VGPR0];
  /* every dword in range; below 2^32 + 2^17, so no address wraps either */
  uint64_t reach = (o0 > o1 ? o0 : o1) + 4u * dw;
  if (reach > g->lds_size)
    return in->exec(w, in);
  uint32_t limit = (uint32_t)(g->lds_size - reach);
  if (lds_out_of_range(addr, limit, n))
    return in->exec(w, in);
  uint8_t *m = g->lds;
  uint32_t (*v)[SIM_ISA_WAVE_SIZE] = w->vgpr;
  unsigned vd = in->dst - ISA_OP_VGPR0, d0 = in->data - ISA_OP_VGPR0, d1 = in->data1 - ISA_OP_VGPR0;
  /* lane by lane, in the reference's order (a destination may be the address register) */
  switch (op) {
  case 118:
    for (unsigned l = 0; l < n; l++) {
      uint64_t a = addr[l] + o0;
      uint32_t x0 = lds_ld(m, a), x1 = lds_ld(m, a + 4);
      v[vd][l] = x0;
      v[vd + 1][l] = x1;
    }
    break;
  case 119: case 120:
    for (unsigned l = 0; l < n; l++) {
      uint64_t a0 = addr[l] + o0, a1 = addr[l] + o1;
      uint32_t x0 = lds_ld(m, a0), y0 = lds_ld(m, a0 + 4), x1 = lds_ld(m, a1), y1 = lds_ld(m, a1 + 4);
      v[vd][l] = x0;
      v[vd + 1][l] = y0;
      v[vd + 2][l] = x1;
      v[vd + 3][l] = y1;
    }
    break;
  case 13:
    for (unsigned l = 0; l < n; l++)
      memcpy(m + addr[l] + o0, &v[d0][l], 4);
    break;
  case 77:
    for (unsigned l = 0; l < n; l++) {
      memcpy(m + addr[l] + o0, &v[d0][l], 4);
      memcpy(m + addr[l] + o0 + 4, &v[d0 + 1][l], 4);
    }
    break;
  default:   /* 14, 15: write2 (st64) b32 */
    for (unsigned l = 0; l < n; l++) {
      memcpy(m + addr[l] + o0, &v[d0][l], 4);
      memcpy(m + addr[l] + o1, &v[d1][l], 4);
    }
    break;
  }
  return next(w, in);
}

/* ---- global_load_dword / global_store_dword: lanes in runs of consecutive addresses, one
 * translation a run (all checked before anything moves; a refused one leaves the whole
 * instruction to the reference, which raises the fault for the right lane) ---- */
/* gang: NULL, or the second wave32 of a gang whose rows are w's upper 32 lanes (n 64, EXEC
 * of both all ones): then nothing moves unless every run translates, and a refusal or a
 * saddr that differs between the two returns 1 (not merged) instead of running the reference,
 * so that each wave runs alone and the fault is raised by the wave whose lane faults */
static inline __attribute__((always_inline)) int global_dword_n(struct isa_wave *w,
                                                                const struct isa_inst *in,
                                                                unsigned n,
                                                                const struct isa_wave *gang)
{
  bool store = in->op == 28;
  const uint32_t *lo = w->vgpr[in->addr - ISA_OP_VGPR0];
  int64_t off = in->offset;
  /* the usual case, checked in 32-bit lanes (8 a vector): the low halves consecutive dwords
   * with no carry out of them and the high halves (VGPR form) all equal, so that lane l's
   * address is lane 0's plus 4 l: one translation, one copy */
  const uint32_t *hi = w->vgpr[(in->addr - ISA_OP_VGPR0 + 1) & (ISA_MAX_VGPRS - 1)];
  /* as GNU C vectors of 8 lanes: lane l's low half against lane 0's + 4 l (the compiled
   * scalar loop took ~110 host instructions a wave64) */
  static const v8u step = { 0, 4, 8, 12, 16, 20, 24, 28 };
  v8u expect = (v8u){ 0 } + lo[0] + step, spread = { 0 };
  if (in->saddr != 0x7f) {
#pragma GCC unroll 8
    for (unsigned l = 0; l < n; l += 8) {
      v8u x;
      memcpy(&x, lo + l, sizeof x);
      spread |= x ^ expect;
      expect += 32;
    }
  } else {
    v8u h0 = (v8u){ 0 } + hi[0];
#pragma GCC unroll 8
    for (unsigned l = 0; l < n; l += 8) {
      v8u x, y;
      memcpy(&x, lo + l, sizeof x);
      memcpy(&y, hi + l, sizeof y);
      spread |= (x ^ expect) | (y ^ h0);
      expect += 32;
    }
  }
  if (gang && in->saddr != 0x7f &&
      isa_read_s64(w, in, in->saddr, ISA_T_B64) != isa_read_s64(gang, in, in->saddr, ISA_T_B64))
    return 1;
  if (!v8_any(&spread) && lo[0] <= UINT32_MAX - 4u * (n - 1)) {
    uint64_t a0 = (in->saddr != 0x7f ? isa_read_s64(w, in, in->saddr, ISA_T_B64) + lo[0]
                                     : (lo[0] | (uint64_t)hi[0] << 32)) + (uint64_t)off;
    /* the instruction's hinted entry inline (this is a clone: gcc leaves
     * isa_mem_probe_fast out of line here) */
    const struct isa_group *g = w->group;
    uint8_t *h = isa_tlb_hit(g, g->tlb_hint[isa_tlb_hint_of(in)], a0, 4 * n, store);
    if (!h && !(h = isa_mem_probe(w, a0, 4 * n, store)))
      return gang ? 1 : in->exec(w, in);
    uint32_t *r = w->vgpr[(store ? in->data : in->dst) - ISA_OP_VGPR0];
    if (__builtin_expect((uintptr_t)h & 7, 0)) {
      if (store)
        isa_st_dwords(h, r, n);
      else
        isa_ld_dwords(h, r, n);
    } else if (store) {   /* n is 32 or 64: whole aligned 64-bit pieces, as isa_st_dwords */
      isa_u64_alias *q = (isa_u64_alias *)h;
#pragma GCC unroll 8
      for (size_t i = 0; i < n / 2; i++) {
        uint64_t v;
        memcpy(&v, r + 2 * i, 8);
        __atomic_store_n(q + i, v, __ATOMIC_RELAXED);
      }
    } else {
      const isa_u64_alias *q = (const isa_u64_alias *)h;
#pragma GCC unroll 8
      for (size_t i = 0; i < n / 2; i++) {
        uint64_t v = __atomic_load_n(q + i, __ATOMIC_RELAXED);
        memcpy(r + 2 * i, &v, 8);
      }
    }
    return next(w, in);
  }
  /* bit l: lane l starts a run, as GNU C vectors of 8 lanes from the rows (lane l's low half
   * not lane l-1's + 4, lane l-1's within 4 of a carry, or (VGPR form) the high halves
   * differ: a carry only splits a run, which is safe); none: one run of the whole wave */
  bool vform = in->saddr == 0x7f;
  uint64_t base = vform ? 0 : isa_read_s64(w, in, in->saddr, ISA_T_B64), apart = 0;
#pragma GCC unroll 8
  for (unsigned l = 0; l < n; l += 8) {
    v8u x, p, brk;
    memcpy(&x, lo + l, sizeof x);
    if (l)
      memcpy(&p, lo + l - 1, sizeof p);
    else   /* lane 0 starts the first run whatever it compares */
      p = __builtin_shufflevector(x, x, 0, 0, 1, 2, 3, 4, 5, 6);
    brk = (v8u)(x != p + 4) | (v8u)(p > 0xfffffffbu);
    if (vform) {
      v8u y, q;
      memcpy(&y, hi + l, sizeof y);
      if (l)
        memcpy(&q, hi + l - 1, sizeof q);
      else
        q = __builtin_shufflevector(y, y, 0, 0, 1, 2, 3, 4, 5, 6);
      brk |= (v8u)(y != q);
    }
    apart |= (uint64_t)v8_bits(&brk) << l;
  }
  apart &= ~1ull;
#define RUN_VA(l) ((vform ? (lo[l] | (uint64_t)hi[l] << 32) : base + lo[l]) + (uint64_t)off)
  uint8_t *host[VALU_N];
  unsigned start[VALU_N + 1], runs = 0;
  for (unsigned l = apart ? 0 : n; l < n;) {
    uint64_t later = apart & ~((2ull << l) - 1);   /* l 63: 2 << 63 is 0, nothing later */
    unsigned e = later ? (unsigned)__builtin_ctzll(later) : n;
    if (!(host[runs] = isa_mem_probe_fast(w, in, RUN_VA(l), 4 * (e - l), store)))
      return gang ? 1 : in->exec(w, in);
    start[runs++] = l;
    l = e;
  }
  if (!apart) {
    if (!(host[0] = isa_mem_probe_fast(w, in, RUN_VA(0), 4 * n, store)))
      return gang ? 1 : in->exec(w, in);
    start[runs++] = 0;
  }
#undef RUN_VA
  start[runs] = n;
  uint32_t *r = w->vgpr[(store ? in->data : in->dst) - ISA_OP_VGPR0];
  for (unsigned k = 0; k < runs; k++) {
    if (store)
      isa_st_dwords(host[k], r + start[k], start[k + 1] - start[k]);
    else
      isa_ld_dwords(host[k], r + start[k], start[k + 1] - start[k]);
  }
  return next(w, in);
}
/* the lane count a constant (the run check and the copy unrolled: no remainder loops) */
FAST_FN static int f_global_dword(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned n = full_lanes(w);
  if (!n)
    return in->exec(w, in);
  return n == 64 ? global_dword_n(w, in, 64u, NULL) : global_dword_n(w, in, 32u, NULL);
}

/* a static clone (clang-15 emits no resolver for an external target_clones function) */
FAST_FN static int global_gang(struct isa_wave *a, const struct isa_wave *b,
                               const struct isa_inst *in)
{
  return global_dword_n(a, in, 64u, b);
}

int isa_fast_global_gang(struct isa_wave *a, const struct isa_wave *b, const struct isa_inst *in)
{
  return global_gang(a, b, in);
}

/* ---- global_atomic_add without return, every lane at one address (a reduction's last
 * step): one host atomic of the lanes' sum. The reference does the lanes' adds one by one in
 * lane order; with no value returned the only difference is that no other agent can see
 * the partial sums in between, one of the orders the hardware allows. Anything else (lanes
 * at different addresses, misaligned, a refused translation) runs the reference. ---- */
FAST_FN static int f_global_atomic_add(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned n = full_lanes(w);
  if (!n)
    return in->exec(w, in);
  const uint32_t *lo = w->vgpr[in->addr - ISA_OP_VGPR0];
  uint64_t a0, apart = 0;
  if (in->saddr != 0x7f) {
    a0 = isa_read_s64(w, in, in->saddr, ISA_T_B64) + lo[0] + (uint64_t)(int64_t)in->offset;
    for (unsigned l = 0; l < n; l++)
      apart |= lo[l] ^ lo[0];
  } else {
    const uint32_t *hi = w->vgpr[(in->addr - ISA_OP_VGPR0 + 1) & (ISA_MAX_VGPRS - 1)];
    a0 = (lo[0] | (uint64_t)hi[0] << 32) + (uint64_t)(int64_t)in->offset;
    for (unsigned l = 0; l < n; l++)
      apart |= (lo[l] ^ lo[0]) | (hi[l] ^ hi[0]);
  }
  if (apart || (a0 & 3))
    return in->exec(w, in);
  uint32_t *p = isa_mem_probe_fast(w, in, a0, 4, true);
  if (!p)
    return in->exec(w, in);
  const uint32_t *d = w->vgpr[in->data - ISA_OP_VGPR0];
  uint32_t sum = 0;
  for (unsigned l = 0; l < n; l++)
    sum += d[l];
  __atomic_fetch_add(p, sum, __ATOMIC_SEQ_CST);
  return next(w, in);
}

/* ---- selection ---- */
enum {
  K_PLAIN,                   /* 32-bit VGPR destination, no sdst */
  K_SDST,                    /* writes a lane mask to sdst too (carries, v_mad_u64_u32) */
  K_CMP,                     /* writes only the lane mask */
};

struct fast_op {
  const char *name;          /* the gfx9 mnemonic of the reference semantics */
  isa_exec_fn *fast;
  unsigned nsrc, kind;
  isa_exec_fn *ref[4];       /* the reference functions of that name (filled once) */
  uint32_t hash;             /* name_hash(name), filled once: most names differ there */
};

#define P(name, n) { #name, f_##name, n, K_PLAIN, { 0 }, 0 }
#define S(name, n) { #name, f_##name, n, K_SDST, { 0 }, 0 }
#define C(name) { #name, f_##name, 2, K_CMP, { 0 }, 0 }
static struct fast_op ops[] = {
  P(v_mov_b32, 1), P(v_not_b32, 1), P(v_add_u32, 2), P(v_sub_u32, 2), P(v_subrev_u32, 2),
  P(v_and_b32, 2), P(v_or_b32, 2), P(v_xor_b32, 2), P(v_lshlrev_b32, 2), P(v_lshrrev_b32, 2),
  P(v_ashrrev_i32, 2), P(v_min_u32, 2), P(v_max_u32, 2), P(v_min_i32, 2), P(v_max_i32, 2),
  P(v_mul_u32_u24, 2), P(v_mul_lo_u32, 2), P(v_xad_u32, 3), P(v_add3_u32, 3),
  P(v_lshl_add_u32, 3), P(v_add_lshl_u32, 3), P(v_lshl_or_b32, 3), P(v_and_or_b32, 3),
  P(v_or3_b32, 3), P(v_mad_u32_u24, 3), P(v_bfi_b32, 3), P(v_bfe_u32, 3),
  P(v_alignbit_b32, 3), P(v_add_f32, 2), P(v_sub_f32, 2), P(v_subrev_f32, 2),
  P(v_mul_f32, 2), P(v_fma_f32, 3), P(v_cndmask_b32, 3), P(v_lshlrev_b64, 2),
  P(v_lshrrev_b64, 2), P(v_ashrrev_i64, 2),
  S(v_add_co_u32, 2), S(v_sub_co_u32, 2), S(v_subrev_co_u32, 2), S(v_addc_co_u32, 3),
  S(v_subb_co_u32, 3), S(v_subbrev_co_u32, 3), S(v_mad_u64_u32, 3),
  C(v_cmp_lt_u32), C(v_cmp_eq_u32), C(v_cmp_le_u32), C(v_cmp_gt_u32), C(v_cmp_ne_u32),
  C(v_cmp_ge_u32), C(v_cmp_lt_i32), C(v_cmp_eq_i32), C(v_cmp_le_i32), C(v_cmp_gt_i32),
  C(v_cmp_ne_i32), C(v_cmp_ge_i32), C(v_cmp_lt_u64), C(v_cmp_eq_u64), C(v_cmp_le_u64),
  C(v_cmp_gt_u64), C(v_cmp_ne_u64), C(v_cmp_ge_u64), C(v_cmp_lt_i64), C(v_cmp_eq_i64),
  C(v_cmp_le_i64), C(v_cmp_gt_i64), C(v_cmp_ne_i64), C(v_cmp_ge_i64),
  P(v_lshl_add_u64, 3), P(v_mov_b64, 1),   /* gfx942 (valu_g942_ops) */
};
#undef P
#undef S
#undef C

/* FNV-1a of a name: the tables' ~600 names meet the ~80 operations here once per process,
 * at the first decode, i.e. inside the first dispatch (a strcmp per pair was ~0.9M host
 * instructions, 3% of reduce_stride's one dispatch) */
static uint32_t name_hash(const char *s)
{
  uint32_t h = 2166136261u;
  while (*s)
    h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}

/* ops by name: open addressing on the FNV hash (index + 1, 0 = empty; more than twice as
 * many slots as ops); ops_init looks each of the tables' ~600 names up here once instead of
 * comparing it with all ~80 hashes (~190k host instructions inside the first dispatch) */
#define OP_SLOTS 256u
static uint8_t op_slot[OP_SLOTS];
_Static_assert(sizeof ops / sizeof ops[0] < OP_SLOTS / 2, "op_slot too small");

static int op_index(const char *name, uint32_t h)
{
  for (unsigned i = h & (OP_SLOTS - 1); op_slot[i]; i = (i + 1) & (OP_SLOTS - 1)) {
    unsigned k = op_slot[i] - 1u;
    if (ops[k].hash == h && !strcmp(ops[k].name, name))
      return (int)k;
  }
  return -1;
}

static void add_table(const struct valu_desc *t, unsigned count)
{
  for (unsigned i = 0; i < count; i++) {
    if (!t[i].name)
      continue;
    int k = op_index(t[i].name, name_hash(t[i].name));
    if (k < 0)
      continue;
    for (unsigned j = 0; j < 4; j++)
      if (ops[k].ref[j] == t[i].fn)
        break;
      else if (!ops[k].ref[j]) {
        ops[k].ref[j] = t[i].fn;
        break;
      }
  }
}

/* the ops isa_fast_fuse pairs (fast_is) */
static int op_add_co = -1, op_addc_co = -1;

static pthread_once_t ops_once = PTHREAD_ONCE_INIT;
static void ops_init(void)
{
  for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    ops[k].hash = name_hash(ops[k].name);
    unsigned i = ops[k].hash & (OP_SLOTS - 1);
    while (op_slot[i])
      i = (i + 1) & (OP_SLOTS - 1);
    op_slot[i] = (uint8_t)(k + 1);
  }
  add_table(valu_int_ops, valu_int_count);
  add_table(valu_f32_ops, valu_f32_count);
  add_table(valu_misc_ops, valu_misc_count);
  add_table(valu_cmp_ops, valu_cmp_count);
  add_table(valu_g942_ops, valu_g942_count);
  op_add_co = op_index("v_add_co_u32", name_hash("v_add_co_u32"));
  op_addc_co = op_index("v_addc_co_u32", name_hash("v_addc_co_u32"));
}

static bool vgpr_code(unsigned code) { return code >= ISA_OP_VGPR0 && code < ISA_OP_AGPR0; }
/* a source the fast operations read as the reference does: a VGPR, or a scalar code */
static bool src_ok(unsigned code)
{
  return code < ISA_OP_AGPR0 && code != ISA_OP_SDWA && code != ISA_OP_DPP;
}

/* ---- pairs run as one (isa_fast_fuse) ---- */
/* A lane-mask destination the pair may write: an SGPR (pair) or VCC; not EXEC (the second
 * instruction's lanes would change), NULL (the second's carry would read 0) or the rest. */
static bool mask_sgpr(unsigned code)
{
  return code + 1 <= ISA_OP_SGPR_LAST || code == ISA_OP_VCC_LO;
}

/* the second's plain source `code` does not read the first's mask */
static bool reads_mask(unsigned code, unsigned sdst)
{
  if (code == ISA_OP_VCC_LO || code == ISA_OP_VCC_HI || code == ISA_OP_VCCZ)
    return sdst == ISA_OP_VCC_LO;
  return code == sdst || code == sdst + 1u;
}

/* Whether `in` has the fast semantics of ops entry `*op` (op_add_co, op_addc_co: set by
 * ops_init) by its reference function (a target_clones function's address need not compare
 * equal between a static initialiser and code). */
static bool fast_is(const struct isa_inst *in, const int *op)
{
  if (!in->fast)
    return false;
  pthread_once(&ops_once, ops_init);
  if (*op < 0)
    return false;
  for (unsigned j = 0; j < 4 && ops[*op].ref[j]; j++)
    if (ops[*op].ref[j] == in->exec)
      return true;
  return false;
}

bool isa_fast_pairs(const struct isa_inst *a, const struct isa_inst *b)
{
  if (!fast_is(a, &op_add_co) || !fast_is(b, &op_addc_co))
    return false;
  /* the second's mask may be gfx11's NULL (v_add_co_ci_u32_e64 vN, null, ...: dropped) */
  if (!mask_sgpr(a->sdst) || !(mask_sgpr(b->sdst) || b->sdst == ISA_OP_NULL) ||
      b->src[2] != a->sdst)
    return false;
  for (unsigned i = 0; i < 2; i++)
    if (b->src[i] == a->dst ||
        (reads_mask(b->src[i], a->sdst) && !mask_hi_read(a, b->src[i])))
      return false;
  return true;
}

/* ---- VOPD (gfx11/gfx12): both halves with their fast semantics, made once at decode ----
 * in->pair holds the two halves (g11_vopd_halves: run order, the first of size 0, so the
 * pc moves once), each with `fast` where the half has it; each falls back to its own
 * reference as g11_exec_vopd's halves do. */
static int f_vopd(struct isa_wave *w, const struct isa_inst *in)
{
  const struct isa_inst *h = in->pair;
  if ((h[0].fast ? h[0].fast : h[0].exec)(w, &h[0]))
    return -1;
  return (h[1].fast ? h[1].fast : h[1].exec)(w, &h[1]);
}

static void vopd_fuse(struct isa_inst *in)
{
  struct isa_inst *h = malloc(2 * sizeof *h);
  if (!h)
    return;   /* then g11_exec_vopd runs it */
  if (g11_vopd_halves(in, h)) {
    free(h);
    return;
  }
  for (unsigned k = 0; k < 2; k++) {
    h[k].pair = NULL;
    h[k].fast = isa_fast_select(&h[k]);
  }
  in->pair = h;
  in->fast = f_vopd;
}

void isa_fast_fuse(struct isa_inst *in, const uint32_t *next, unsigned avail, unsigned room,
                   uint8_t target)
{
  if (in->exec == g11_exec_vopd && !in->pair) {   /* `next` is not needed (NULL from decode.c) */
    vopd_fuse(in);
    return;
  }
  if (!avail || !fast_is(in, &op_add_co))
    return;
  /* gfx11/gfx12: clang-19 often puts an s_delay_alu (a scheduling hint, nothing to run)
   * between the halves; the pair is fused across it and the pc goes past all three */
  uint64_t at = in->pc + in->size;
  if (target >= ISA_TARGET_GFX1100 && avail > 1 && room > 4) {
    struct isa_inst h;
    isa_decode(next, avail, at, target, &h);
    if (h.size == 4 && h.fmt == ISA_SOPP && h.name && !strcmp(h.name, "s_delay_alu")) {
      next++;
      avail--;
      room -= 4;
      at += 4;
    }
  }
  struct isa_inst *b = malloc(sizeof *b);
  if (!b)
    return;   /* then the two run one by one */
  isa_decode(next, avail, at, target, b);
  if (b->size > room || !isa_fast_pairs(in, b)) {
    free(b);
    return;
  }
  in->pair = b;
  in->fast = f_add64;
}

/* ---- scalar loads ---- */
/* s_load_dword/x2/x4/x8/x16 through an SGPR-pair base, immediate offset only, into plain
 * SGPRs (the kernarg and dispatch-packet reads every wave starts with): exec_smem.c's
 * reference without its buffer, store, atomic and special-register cases. The SGPRs are
 * written only once the translation succeeded, as there. */
static inline __attribute__((always_inline)) int s_load_n(struct isa_wave *w,
                                                         const struct isa_inst *in, unsigned n)
{
  uint64_t base;
  memcpy(&base, &w->sgpr[in->saddr], 8);   /* the SGPR pair, low dword first */
  uint64_t addr = (base + (uint64_t)(int64_t)in->offset) & ~3ull;
  const void *p = isa_mem_hinted(w, in, addr, 4 * n, false);
  if (__builtin_expect(!p, 0))
    return -1;
  uint32_t *d = &w->sgpr[in->sdst];
  if (n == 1) {
    d[0] = isa_ld32(p);
  } else if (__builtin_expect(!((uintptr_t)p & 7), 1) && !(n & 1)) {
    /* aligned 64-bit pieces, as isa_ld_dwords */
    const isa_u64_alias *q = p;
    for (size_t i = 0; i < n / 2; i++) {
      uint64_t v = __atomic_load_n(q + i, __ATOMIC_RELAXED);
      memcpy(d + 2 * i, &v, 8);
    }
  } else {
    isa_ld_dwords(p, d, n);
  }
  w->pc += 8;
  return 0;
}
/* one function a dword count (issue 24: the count's loop and tests were a third of a load) */
#define S_LOAD_N(n)                                                                        \
  static int f_s_load##n(struct isa_wave *w, const struct isa_inst *in)                    \
  {                                                                                        \
    return s_load_n(w, in, n);                                                             \
  }
S_LOAD_N(1)
S_LOAD_N(2)
S_LOAD_N(4)
S_LOAD_N(8)
S_LOAD_N(16)
static int f_s_load(struct isa_wave *w, const struct isa_inst *in)
{
  return s_load_n(w, in, in->dwords);
}

static isa_exec_fn *s_load_select(const struct isa_inst *in)
{
  switch (in->dwords) {
  case 1: return f_s_load1;
  case 2: return f_s_load2;
  case 4: return f_s_load4;
  case 8: return f_s_load8;
  case 16: return f_s_load16;
  default: return f_s_load;
  }
}

/* ---- scalar 64-bit mask logic ---- */
/* s_and_b64/s_or_b64/s_xor_b64 and s_and/or_saveexec_b64 between SGPR pairs, VCC and EXEC
 * (the branch masks compiled code builds around every `if`): exec_sop.c's reference
 * without its operand decoding. gfx9 encodings only (wave64). */
static inline bool mask_code(unsigned code)
{
  return code < ISA_OP_SGPR_LAST || code == ISA_OP_VCC_LO || code == ISA_OP_EXEC_LO;
}

static inline uint64_t mask_read(const struct isa_wave *w, unsigned code)
{
  if (code == ISA_OP_VCC_LO)
    return w->vcc;
  if (code == ISA_OP_EXEC_LO)
    return w->exec;
  return w->sgpr[code] | (uint64_t)w->sgpr[code + 1] << 32;
}

static inline void mask_write(struct isa_wave *w, unsigned code, uint64_t v)
{
  if (code == ISA_OP_VCC_LO)
    w->vcc = v;
  else if (code == ISA_OP_EXEC_LO)
    w->exec = v;
  else {
    w->sgpr[code] = (uint32_t)v;
    w->sgpr[code + 1] = (uint32_t)(v >> 32);
  }
}

#define MASK_OP(name, expr)                                                                \
  static int f_##name(struct isa_wave *w, const struct isa_inst *in)                       \
  {                                                                                        \
    uint64_t a = mask_read(w, in->src[0]), b = mask_read(w, in->src[1]), d = (expr);       \
    mask_write(w, in->dst, d);                                                             \
    w->scc = d != 0;                                                                       \
    w->pc += 4;                                                                            \
    return 0;                                                                              \
  }
MASK_OP(s_and_b64, a & b)
MASK_OP(s_or_b64, a | b)
MASK_OP(s_xor_b64, a ^ b)
#define SAVEEXEC_OP(name, expr)                                                            \
  static int f_##name(struct isa_wave *w, const struct isa_inst *in)                       \
  {                                                                                        \
    uint64_t s = mask_read(w, in->src[0]), e = w->exec, n = (expr);                        \
    w->exec = n;                                                                           \
    mask_write(w, in->dst, e);                                                             \
    w->scc = n != 0;                                                                       \
    w->pc += 4;                                                                            \
    return 0;                                                                              \
  }
SAVEEXEC_OP(s_and_saveexec_b64, s & e)
SAVEEXEC_OP(s_or_saveexec_b64, s | e)

/* ---- scalar 32-bit logic and moves (wave32's lane masks: EXEC_LO, VCC_LO, one SGPR) ----
 * s_and/or/xor_b32, s_mov_b32 (exec_sop.c) and gfx11/gfx12's s_and/or_saveexec_b32
 * (exec_gfx11.c) between SGPRs, VCC_LO and EXEC_LO, with integer inline constants and
 * literals as sources: the reference without its operand decoding. EXEC_LO and VCC_LO keep
 * their high halves, as isa_write_s32 does. */
/* an inline integer or the literal: the constants the b32 forms read (b32_const) */
static inline bool b32_int_const(unsigned code)
{
  return code == ISA_OP_LITERAL || (code >= ISA_OP_ZERO && code <= 208);
}
static inline bool b32_src(unsigned code)
{
  return code <= ISA_OP_SGPR_LAST || code == ISA_OP_VCC_LO || code == ISA_OP_EXEC_LO ||
         b32_int_const(code);
}

static inline bool b32_dst(unsigned code)
{
  return code <= ISA_OP_SGPR_LAST || code == ISA_OP_VCC_LO || code == ISA_OP_EXEC_LO;
}

static inline uint32_t b32_read(const struct isa_wave *w, const struct isa_inst *in, unsigned code)
{
  if (code <= ISA_OP_SGPR_LAST)
    return w->sgpr[code];
  if (code == ISA_OP_VCC_LO)
    return (uint32_t)w->vcc;
  if (code == ISA_OP_EXEC_LO)
    return (uint32_t)w->exec;
  if (code == ISA_OP_LITERAL)
    return in->literal;
  return (uint32_t)(code <= 192 ? (int32_t)code - 128 : 192 - (int32_t)code);
}

static inline void b32_write(struct isa_wave *w, unsigned code, uint32_t v)
{
  if (code <= ISA_OP_SGPR_LAST)
    w->sgpr[code] = v;
  else if (code == ISA_OP_VCC_LO)
    w->vcc = (w->vcc & ~0xffffffffull) | v;
  else
    w->exec = (w->exec & ~0xffffffffull) | v;
}

/* The operand shapes of compiled code's scalar arithmetic, each its own function (issue 24:
 * b32_read's and b32_write's tests were half of a ~20-35 host instruction s_and/s_mul/s_add):
 * _ss reads two SGPRs, _sk an SGPR and a constant (literal or inline integer), and both write
 * an SGPR (the compares write SCC only). */
static inline uint32_t b32_const(const struct isa_inst *in, unsigned code)
{
  if (code == ISA_OP_LITERAL)
    return in->literal;
  return (uint32_t)(code <= 192 ? (int32_t)code - 128 : 192 - (int32_t)code);
}
#define SHAPED(name, store)                                                              \
  static int f_##name(struct isa_wave *w, const struct isa_inst *in)                       \
  {                                                                                        \
    uint32_t a = b32_read(w, in, in->src[0]), b = b32_read(w, in, in->src[1]), d;          \
    BODY_##name;                                                                           \
    store(w, in->dst, d);                                                                  \
    w->pc += in->size;                                                                     \
    return 0;                                                                              \
  }                                                                                        \
  static int f_##name##_ss(struct isa_wave *w, const struct isa_inst *in)                  \
  {                                                                                        \
    uint32_t a = w->sgpr[in->src[0]], b = w->sgpr[in->src[1]], d;                          \
    BODY_##name;                                                                           \
    store##_sgpr(w, in->dst, d);                                                           \
    w->pc += in->size;                                                                     \
    return 0;                                                                              \
  }                                                                                        \
  static int f_##name##_sk(struct isa_wave *w, const struct isa_inst *in)                  \
  {                                                                                        \
    uint32_t a = w->sgpr[in->src[0]], b = b32_const(in, in->src[1]), d;                    \
    BODY_##name;                                                                           \
    store##_sgpr(w, in->dst, d);                                                           \
    w->pc += in->size;                                                                     \
    return 0;                                                                              \
  }
static inline void b32_store(struct isa_wave *w, unsigned code, uint32_t v)
{
  b32_write(w, code, v);
}
static inline void b32_store_sgpr(struct isa_wave *w, unsigned code, uint32_t v)
{
  w->sgpr[code] = v;
}
static inline void no_store(struct isa_wave *w, unsigned code, uint32_t v)
{
  (void)w; (void)code; (void)v;
}
static inline void no_store_sgpr(struct isa_wave *w, unsigned code, uint32_t v)
{
  (void)w; (void)code; (void)v;
}

#define BODY_s_and_b32 d = a & b; w->scc = d != 0
#define BODY_s_or_b32 d = a | b; w->scc = d != 0
#define BODY_s_xor_b32 d = a ^ b; w->scc = d != 0
SHAPED(s_and_b32, b32_store)
SHAPED(s_or_b32, b32_store)
SHAPED(s_xor_b32, b32_store)
static int f_s_mov_b32(struct isa_wave *w, const struct isa_inst *in)
{
  b32_write(w, in->dst, b32_read(w, in, in->src[0]));
  w->pc += in->size;
  return 0;
}
static int f_s_mov_b32_s(struct isa_wave *w, const struct isa_inst *in)
{
  w->sgpr[in->dst] = w->sgpr[in->src[0]];
  w->pc += in->size;
  return 0;
}
static int f_s_mov_b32_k(struct isa_wave *w, const struct isa_inst *in)
{
  w->sgpr[in->dst] = b32_const(in, in->src[0]);
  w->pc += in->size;
  return 0;
}
#define SAVEEXEC32_OP(name, expr)                                                          \
  static int f_##name(struct isa_wave *w, const struct isa_inst *in)                       \
  {                                                                                        \
    uint32_t s = b32_read(w, in, in->src[0]), e = (uint32_t)w->exec, n = (expr);           \
    w->exec = (w->exec & ~0xffffffffull) | n;                                              \
    b32_write(w, in->dst, e);                                                              \
    w->scc = n != 0;                                                                       \
    w->pc += in->size;                                                                     \
    return 0;                                                                              \
  }
SAVEEXEC32_OP(s_and_saveexec_b32, s & e)
SAVEEXEC32_OP(s_or_saveexec_b32, s | e)

static isa_exec_fn *b32_select(const struct isa_inst *in)
{
  static const struct { const char *name; isa_exec_fn *ref, *fast; uint16_t op; } tab[] = {
    { "s_and_b32", isa_exec_sop2, f_s_and_b32, 12 },
    { "s_or_b32", isa_exec_sop2, f_s_or_b32, 14 },
    { "s_xor_b32", isa_exec_sop2, f_s_xor_b32, 16 },
    { "s_mov_b32", isa_exec_sop1, f_s_mov_b32, 0 },
    { "s_and_saveexec_b32", g11_exec_sop1, f_s_and_saveexec_b32, 0xffff },
    { "s_or_saveexec_b32", g11_exec_sop1, f_s_or_saveexec_b32, 0xffff },
  };
  if (!in->name || !b32_src(in->src[0]) || (in->fmt == ISA_SOP2 && !b32_src(in->src[1])))
    return NULL;
  for (unsigned k = 0; k < sizeof tab / sizeof tab[0]; k++) {
    if (in->exec != tab[k].ref || strcmp(in->name, tab[k].name) ||
        (tab[k].op != 0xffff && in->op != tab[k].op))
      continue;
    /* saveexec: the saved mask into an SGPR or VCC_LO (not EXEC_LO) */
    if (!b32_dst(in->dst) || (tab[k].op == 0xffff && in->dst == ISA_OP_EXEC_LO))
      return NULL;
    return tab[k].fast;
  }
  return NULL;
}

/* ---- scalar 32-bit arithmetic and compares (a loop's counter and its exit test, issue 24):
 * s_add/sub_u32/i32, s_lshl/lshr_b32, s_ashr_i32, s_mul_i32 (exec_sop.c isa_exec_sop2) and
 * s_cmp_*_i32/u32 (isa_exec_sopc) on the sources and destinations of the b32 forms above:
 * the reference's operations by its opcode, without its operand decoding and switch (the
 * reference ran ~40-65 host instructions each). ---- */
#define BODY_s_add_u32 d = a + b; w->scc = d < a
#define BODY_s_sub_u32 d = a - b; w->scc = b > a
#define BODY_s_add_i32 d = a + b; w->scc = ((~(a ^ b)) & (a ^ d)) >> 31
#define BODY_s_sub_i32 d = a - b; w->scc = ((a ^ b) & (a ^ d)) >> 31
#define BODY_s_lshl_b32 d = a << (b & 31); w->scc = d != 0
#define BODY_s_lshr_b32 d = a >> (b & 31); w->scc = d != 0
#define BODY_s_ashr_i32 d = (uint32_t)((int32_t)a >> (b & 31)); w->scc = d != 0
#define BODY_s_mul_i32 d = (uint32_t)((int64_t)(int32_t)a * (int32_t)b)
SHAPED(s_add_u32, b32_store)
SHAPED(s_sub_u32, b32_store)
SHAPED(s_add_i32, b32_store)
SHAPED(s_sub_i32, b32_store)
SHAPED(s_lshl_b32, b32_store)
SHAPED(s_lshr_b32, b32_store)
SHAPED(s_ashr_i32, b32_store)
SHAPED(s_mul_i32, b32_store)
#define CMP32_BODY(expr) int32_t x = (int32_t)a, y = (int32_t)b; (void)x; (void)y; \
                         w->scc = (expr); d = 0
#define BODY_s_cmp_eq_i32 CMP32_BODY(x == y)
#define BODY_s_cmp_lg_i32 CMP32_BODY(x != y)
#define BODY_s_cmp_gt_i32 CMP32_BODY(x > y)
#define BODY_s_cmp_ge_i32 CMP32_BODY(x >= y)
#define BODY_s_cmp_lt_i32 CMP32_BODY(x < y)
#define BODY_s_cmp_le_i32 CMP32_BODY(x <= y)
#define BODY_s_cmp_eq_u32 CMP32_BODY(a == b)
#define BODY_s_cmp_lg_u32 CMP32_BODY(a != b)
#define BODY_s_cmp_gt_u32 CMP32_BODY(a > b)
#define BODY_s_cmp_ge_u32 CMP32_BODY(a >= b)
#define BODY_s_cmp_lt_u32 CMP32_BODY(a < b)
#define BODY_s_cmp_le_u32 CMP32_BODY(a <= b)
SHAPED(s_cmp_eq_i32, no_store)
SHAPED(s_cmp_lg_i32, no_store)
SHAPED(s_cmp_gt_i32, no_store)
SHAPED(s_cmp_ge_i32, no_store)
SHAPED(s_cmp_lt_i32, no_store)
SHAPED(s_cmp_le_i32, no_store)
SHAPED(s_cmp_eq_u32, no_store)
SHAPED(s_cmp_lg_u32, no_store)
SHAPED(s_cmp_gt_u32, no_store)
SHAPED(s_cmp_ge_u32, no_store)
SHAPED(s_cmp_lt_u32, no_store)
SHAPED(s_cmp_le_u32, no_store)

/* The shaped form of generic fast function `f` for `in`'s operands, else `f`. */
static isa_exec_fn *shaped(const struct isa_inst *in, isa_exec_fn *f)
{
#define SH(name) { f_##name, f_##name##_ss, f_##name##_sk }
  static isa_exec_fn *const tab[][3] = {
    SH(s_and_b32), SH(s_or_b32), SH(s_xor_b32), SH(s_add_u32), SH(s_sub_u32), SH(s_add_i32),
    SH(s_sub_i32), SH(s_lshl_b32), SH(s_lshr_b32), SH(s_ashr_i32), SH(s_mul_i32),
    SH(s_cmp_eq_i32), SH(s_cmp_lg_i32), SH(s_cmp_gt_i32), SH(s_cmp_ge_i32), SH(s_cmp_lt_i32),
    SH(s_cmp_le_i32), SH(s_cmp_eq_u32), SH(s_cmp_lg_u32), SH(s_cmp_gt_u32), SH(s_cmp_ge_u32),
    SH(s_cmp_lt_u32), SH(s_cmp_le_u32),
  };
#undef SH
  if (!f)
    return f;
  bool sgpr0 = in->src[0] <= ISA_OP_SGPR_LAST, sgpr1 = in->src[1] <= ISA_OP_SGPR_LAST;
  /* b32_const's domain, as b32_src's (not inline floats or specials) */
  bool const0 = b32_int_const(in->src[0]), const1 = b32_int_const(in->src[1]);
  bool sdst = in->fmt == ISA_SOPC || in->dst <= ISA_OP_SGPR_LAST;
  if (f == f_s_mov_b32)
    return in->dst > ISA_OP_SGPR_LAST ? f : sgpr0 ? f_s_mov_b32_s : const0 ? f_s_mov_b32_k : f;
  for (unsigned k = 0; k < sizeof tab / sizeof tab[0]; k++)
    if (tab[k][0] == f)
      return !sdst || !sgpr0 ? f : sgpr1 ? tab[k][1] : const1 ? tab[k][2] : f;
  return f;
}

/* by the reference function and the opcode it switches on (gfx11/gfx12 encodings decode
 * onto gfx9's opcodes of the same name, so they qualify alike) */
static isa_exec_fn *arith32_select(const struct isa_inst *in)
{
  static isa_exec_fn *const sop2[37] = {
    [0] = f_s_add_u32, [1] = f_s_sub_u32, [2] = f_s_add_i32, [3] = f_s_sub_i32,
    [28] = f_s_lshl_b32, [30] = f_s_lshr_b32, [32] = f_s_ashr_i32, [36] = f_s_mul_i32,
  };
  static isa_exec_fn *const sopc[12] = {
    f_s_cmp_eq_i32, f_s_cmp_lg_i32, f_s_cmp_gt_i32, f_s_cmp_ge_i32, f_s_cmp_lt_i32,
    f_s_cmp_le_i32, f_s_cmp_eq_u32, f_s_cmp_lg_u32, f_s_cmp_gt_u32, f_s_cmp_ge_u32,
    f_s_cmp_lt_u32, f_s_cmp_le_u32,
  };
  if (!b32_src(in->src[0]) || !b32_src(in->src[1]))
    return NULL;
  if (in->fmt == ISA_SOP2 && in->exec == isa_exec_sop2 && in->op < 37 && b32_dst(in->dst))
    return sop2[in->op];
  if (in->fmt == ISA_SOPC && in->exec == isa_exec_sopc && in->op < 12)
    return sopc[in->op];
  return NULL;
}

/* ---- program control: gfx9's s_waitcnt and branches (exec_sopp.c without its switch) ---- */
static int f_s_waitcnt(struct isa_wave *w, const struct isa_inst *in)
{
  (void)in;
  isa_mem_fence();
  w->pc += 4;
  return 0;
}
#define BRANCH_OP(name, taken)                                                             \
  static int f_##name(struct isa_wave *w, const struct isa_inst *in)                       \
  {                                                                                        \
    w->pc += (taken) ? 4 + (int64_t)in->simm * 4 : 4;                                      \
    return 0;                                                                              \
  }
BRANCH_OP(s_branch, true)
BRANCH_OP(s_cbranch_scc0, !w->scc)
BRANCH_OP(s_cbranch_scc1, w->scc)
BRANCH_OP(s_cbranch_vccz, w->vcc == 0)
BRANCH_OP(s_cbranch_vccnz, w->vcc != 0)
BRANCH_OP(s_cbranch_execz, w->exec == 0)
BRANCH_OP(s_cbranch_execnz, w->exec != 0)

/* gfx11/gfx12 (exec_gfx11.c g11_exec_sopp): the mask branches look at a wave32's low half;
 * the hints gfx9 has no opcode for (s_delay_alu, s_clause, ...) only move the pc, gfx12's
 * s_wait_* are an ordering point as s_waitcnt is (without the reference's name compares) */
static inline uint64_t lanes_of(const struct isa_wave *w, uint64_t m)
{
  return w->wave32 ? (uint32_t)m : m;
}
BRANCH_OP(g11_cbranch_vccz, lanes_of(w, w->vcc) == 0)
BRANCH_OP(g11_cbranch_vccnz, lanes_of(w, w->vcc) != 0)
BRANCH_OP(g11_cbranch_execz, lanes_of(w, w->exec) == 0)
BRANCH_OP(g11_cbranch_execnz, lanes_of(w, w->exec) != 0)
static int f_g11_hint(struct isa_wave *w, const struct isa_inst *in)
{
  (void)in;
  w->pc += 4;
  return 0;
}

/* s_endpgm (gfx9 opcode 1; gfx11/gfx12 decode onto it): exec_sopp.c's case without its switch */
static int f_s_endpgm(struct isa_wave *w, const struct isa_inst *in)
{
  (void)in;
  w->ended = true;
  return 0;
}

/* gfx11/gfx12's s_sendmsg sendmsg(MSG_DEALLOC_VGPRS), which every wave of clang-19's code
 * ends with: g11_exec_sopp's case 16 without isa_sendmsg's family lookup (the wave's
 * isa_target_of, ~150 host instructions a wave in all) */
static int f_g11_dealloc_vgprs(struct isa_wave *w, const struct isa_inst *in)
{
  (void)in;
  w->no_vgprs = true;
  w->pc += 4;
  return 0;
}

/* g11_exec_sopp's cases gfx9 has no opcode for, chosen here by name once instead of by name
 * each time they run: gfx12's s_barrier_wait (after s_barrier_signal -1), s_round_mode and
 * s_denorm_mode (MODE's rounding and denormal fields) */
static int f_g11_barrier_wait(struct isa_wave *w, const struct isa_inst *in)
{
  (void)in;
  w->at_barrier = true;
  w->pc += 4;
  return 0;
}
static int f_g11_round_mode(struct isa_wave *w, const struct isa_inst *in)
{
  w->mode = (w->mode & ~0xfu) | ((uint32_t)in->simm & 0xf);
  w->pc += 4;
  return 0;
}
static int f_g11_denorm_mode(struct isa_wave *w, const struct isa_inst *in)
{
  w->mode = (w->mode & ~0xf0u) | ((uint32_t)in->simm & 0xf) << 4;
  w->pc += 4;
  return 0;
}

static isa_exec_fn *sopp_select(const struct isa_inst *in)
{
  static isa_exec_fn *const tab[10] = { [2] = f_s_branch, [4] = f_s_cbranch_scc0,
                                        [5] = f_s_cbranch_scc1, [6] = f_s_cbranch_vccz,
                                        [7] = f_s_cbranch_vccnz, [8] = f_s_cbranch_execz,
                                        [9] = f_s_cbranch_execnz };
  static isa_exec_fn *const g11[10] = { [0] = f_g11_hint /* s_nop */, [2] = f_s_branch,
                                        [4] = f_s_cbranch_scc0,
                                        [5] = f_s_cbranch_scc1, [6] = f_g11_cbranch_vccz,
                                        [7] = f_g11_cbranch_vccnz, [8] = f_g11_cbranch_execz,
                                        [9] = f_g11_cbranch_execnz };
  if (in->size != 4)
    return NULL;
  if (in->exec == g11_exec_sopp) {
    if (in->op == 1)
      return f_s_endpgm;
    if (in->op == 12)
      return f_s_waitcnt;
    if (in->op < 10)
      return g11[in->op];
    if (in->op == 16 && (in->simm & 0xff) == 3)   /* trap.c MSG_DEALLOC_VGPRS_GFX11 */
      return f_g11_dealloc_vgprs;
    if (in->op != 0xffff || !in->name)
      return NULL;
    if (!strcmp(in->name, "s_barrier_wait"))
      return f_g11_barrier_wait;
    if (!strcmp(in->name, "s_round_mode"))
      return f_g11_round_mode;
    if (!strcmp(in->name, "s_denorm_mode"))
      return f_g11_denorm_mode;
    return !strncmp(in->name, "s_wait", 6) ? f_s_waitcnt : f_g11_hint;
  }
  if (in->exec != isa_exec_sopp || in->target >= ISA_TARGET_GFX1100)
    return NULL;
  if (in->op == 12)
    return f_s_waitcnt;
  if (in->op == 1)
    return f_s_endpgm;
  return in->op < 10 ? tab[in->op] : NULL;
}

static isa_exec_fn *mask_select(const struct isa_inst *in)
{
  static const struct { const char *name; isa_exec_fn *ref, *fast; } tab[] = {
    { "s_and_b64", isa_exec_sop2, f_s_and_b64 },
    { "s_or_b64", isa_exec_sop2, f_s_or_b64 },
    { "s_xor_b64", isa_exec_sop2, f_s_xor_b64 },
    { "s_and_saveexec_b64", isa_exec_sop1, f_s_and_saveexec_b64 },
    { "s_or_saveexec_b64", isa_exec_sop1, f_s_or_saveexec_b64 },
  };
  if (in->target >= ISA_TARGET_GFX1100 || in->size != 4 || !in->name ||
      (in->fmt != ISA_SOP2 && in->fmt != ISA_SOP1) || !mask_code(in->dst) ||
      !mask_code(in->src[0]) || (in->fmt == ISA_SOP2 && !mask_code(in->src[1])))
    return NULL;
  for (unsigned k = 0; k < sizeof tab / sizeof tab[0]; k++)
    if (in->exec == tab[k].ref && !strcmp(in->name, tab[k].name))
      return tab[k].fast;
  return NULL;
}

isa_exec_fn *isa_fast_select(const struct isa_inst *in)
{
  if (in->fmt == ISA_SOP2 || in->fmt == ISA_SOP1) {
    isa_exec_fn *f = mask_select(in);
    if (!f)
      f = b32_select(in);
    return shaped(in, f ? f : arith32_select(in));
  }
  if (in->fmt == ISA_SOPC)
    return shaped(in, arith32_select(in));
  if (in->fmt == ISA_SOPP)
    return sopp_select(in);
  if (in->exec == isa_exec_smem && in->fmt == ISA_SMEM && in->op <= 4 && in->size == 8 &&
      (!in->soe || in->soffset == 0xffff) && in->saddr < ISA_OP_SGPR_LAST &&
      in->dwords >= 1 && in->dwords <= 16 && in->sdst + in->dwords <= ISA_OP_SGPR_LAST + 1u)
    return s_load_select(in);
  if (in->exec == isa_exec_ds && in->fmt == ISA_DS && !in->gds && in->addr >= ISA_OP_VGPR0)
    return in->op >= 54 && in->op <= 56 ? f_ds_read_b32 : f_ds;
  if (in->exec == isa_exec_flat && in->fmt == ISA_GLOBAL && in->seg == 2 && !in->lds &&
      (in->op == 20 || in->op == 28) && in->addr >= ISA_OP_VGPR0)
    return f_global_dword;
  if (in->exec == isa_exec_flat && in->fmt == ISA_GLOBAL && in->seg == 2 && !in->lds &&
      in->op == 64 + ISA_AT_ADD && !in->glc && in->addr >= ISA_OP_VGPR0 &&
      in->data >= ISA_OP_VGPR0 && in->data < ISA_OP_AGPR0)
    return f_global_atomic_add;
  if (!in->exec || in->sdwa || in->dpp || in->abs || in->neg || in->neg_hi || in->clamp ||
      in->omod || in->opsel || in->opsel_hi)
    return NULL;
  switch (in->fmt) {
  case ISA_VOP1: case ISA_VOP2: case ISA_VOPC: case ISA_VOP3A: case ISA_VOP3B: break;
  default: return NULL;
  }
  pthread_once(&ops_once, ops_init);
  for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    const struct fast_op *o = &ops[k];
    bool hit = false;
    for (unsigned j = 0; j < 4 && o->ref[j]; j++)
      hit |= o->ref[j] == in->exec;
    if (!hit)
      continue;
    for (unsigned i = 0; i < o->nsrc; i++)
      if (!src_ok(in->src[i]))
        return NULL;
    if (o->kind == K_CMP) {
      /* v_cmpx shares the compare's semantics (its opcode has bit 4 set, exec_vcmp.c): the
       * fast compares write EXEC as well for it (cmp_put) */
    } else if (!vgpr_code(in->dst)) {
      return NULL;
    }
    if (o->fast == f_v_fma_f32 && vgpr_code(in->src[0]) && vgpr_code(in->src[1]) &&
        vgpr_code(in->src[2]) && isa_host_fma())
      return f_v_fma_f32_vvv;
    return o->fast;
  }
  return NULL;
}

/* Whether `in`'s fast semantics compute each lane from that lane's own VGPRs and LDS words
 * and from values equal in every lane, write no SGPR, VCC or EXEC but a lane mask to
 * in->sdst, and never fall back to a reference form that is not lane by lane: the decode.c
 * gang may then run them once for two wave32 waves whose rows are interleaved into 64-lane
 * rows (isa_gang_run). 0: no; else ISA_GANG_* bits (fast.h). */
/* add64 for 64 lanes without the wave64 first-alone rule (mask_hi_read): the gang's merged
 * call of two wave32 pairs, whose masks it splits after (add64_rows reads every source
 * before it writes a mask) */
FAST_FN static int add64_wide(struct isa_wave *w, const struct isa_inst *in)
{
  return add64_rows(w, in, 64u);
}
/* (the address of the static clones' dispatcher: an exported target_clones function's
 * clones clang names apart) */
isa_exec_fn *isa_fast_add64_wide(void)
{
  return add64_wide;
}

/* a mask destination the gang can split: VCC_LO or an SGPR below the last (a merged call
 * writes it and the one above) */
static bool gang_mask(unsigned code)
{
  return code == ISA_OP_VCC_LO || code < ISA_OP_SGPR_LAST;
}

/* for source `k` (ISA_GANG_SRC0 << k): that bit and ISA_GANG_SGPR when `code` is an SGPR
 * (pair) source, 0 for one equal in every wave, ~0u for any other */
static unsigned gang_src(unsigned c, unsigned k)
{
  if (vgpr_code(c) || (c >= ISA_OP_ZERO && c <= 208) ||
      (c >= ISA_OP_F_HALF && c <= ISA_OP_INV_2PI) || c == ISA_OP_LITERAL)
    return 0;
  return c < ISA_OP_SGPR_LAST ? (unsigned)ISA_GANG_SGPR | (unsigned)ISA_GANG_SRC0 << k : ~0u;
}

unsigned isa_fast_scalar(const struct isa_inst *in)
{
  isa_exec_fn *f = in->fast;
  if (!f || in->target < ISA_TARGET_GFX1100)   /* wave32: gfx11/gfx12 only */
    return 0;
  if (f == f_s_load || f == f_s_load1 || f == f_s_load2 || f == f_s_load4 || f == f_s_load8 ||
      f == f_s_load16)   /* s_load_select's forms */
    return ISA_GSC_OK | ISA_GSC_SADDR;
  if (f == f_g11_hint)
    return ISA_GSC_OK | ISA_GSC_NOP;
  if (f == f_s_waitcnt)
    return ISA_GSC_OK | ISA_GSC_WAIT;
  if (f == f_s_branch)
    return ISA_GSC_OK;
  if (f == f_s_cbranch_scc0 || f == f_s_cbranch_scc1)
    return ISA_GSC_OK | ISA_GSC_SCC_IN;
  if (f == f_g11_cbranch_vccz || f == f_g11_cbranch_vccnz)
    return ISA_GSC_OK | ISA_GSC_VCC_IN;
  if (f == f_g11_cbranch_execz || f == f_g11_cbranch_execnz)
    return ISA_GSC_OK | ISA_GSC_EXEC_IN;
  /* SALU arithmetic is not here: run again it costs less than compared and copied */
  return 0;
}

unsigned isa_fast_lanewise(const struct isa_inst *in)
{
  if (!in->fast)
    return 0;
  const struct isa_inst *hi = in->pair;
  if (in->fast == f_add64 && hi && hi->size) {   /* a fused add pair */
    unsigned k0 = in->sdst, k1 = hi->sdst, r = ISA_GANG_OK | ISA_GANG_PAIR | ISA_GANG_MASK;
    if (!gang_mask(k0) || !(k1 == ISA_OP_NULL || gang_mask(k1)) ||
        (k0 != k1 && k1 != ISA_OP_NULL && (k0 + 1 == k1 || k1 + 1 == k0)))
      return 0;
    for (unsigned i = 0; i < 2; i++)
      r |= gang_src(in->src[i], i) | gang_src(hi->src[i], 2 + i);
    return r > 0xffff ? 0 : r;
  }
  if (in->fast == f_ds_read_b32 || in->fast == f_v_fma_f32_vvv)
    return ISA_GANG_OK;
  if (in->fast == f_global_dword)
    return ISA_GANG_OK | ISA_GANG_GLOBAL;
  if (in->fast == f_ds)
    return in->op == 13 || in->op == 14 || in->op == 15 || in->op == 77 || in->op == 118 ||
                   in->op == 119 || in->op == 120
             ? ISA_GANG_OK
             : 0;
  pthread_once(&ops_once, ops_init);
  for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    const struct fast_op *o = &ops[k];
    if (o->fast != in->fast)
      continue;
    unsigned r = ISA_GANG_OK, nsrc = o->nsrc;
    /* v_cndmask_b32 and the carry-in forms read a lane mask (S2): the gang puts the second
     * wave's above the first's for the call */
    if (!strcmp(o->name, "v_cndmask_b32") ||
        (o->kind == K_SDST && strcmp(o->name, "v_add_co_u32") && strcmp(o->name, "v_sub_co_u32") &&
         strcmp(o->name, "v_subrev_co_u32") && strcmp(o->name, "v_mad_u64_u32"))) {
      unsigned kin = in->src[2], kout = in->sdst;
      if (!gang_mask(kin) || (o->kind == K_SDST && kout != ISA_OP_NULL && kout != kin &&
                              (!gang_mask(kout) || kout + 1 == kin || kin + 1 == kout)))
        return 0;
      /* a source in the register the join fills (`v_cndmask_b32_e64 v0, s1, v1, s0`) */
      if (kin < ISA_OP_SGPR_LAST && (in->src[0] == kin + 1u || in->src[1] == kin + 1u))
        return 0;
      r |= ISA_GANG_MASKIN;
      nsrc = 2;
    }
    if (o->kind == K_CMP && (in->op & 0x10))   /* v_cmpx: writes EXEC as well (cmp_put) */
      r |= ISA_GANG_EXEC;
    if (o->kind != K_PLAIN && in->sdst != ISA_OP_NULL) {
      /* a lane mask to VCC or an SGPR: a merged call writes 64 bits, the gang splits them */
      if (!gang_mask(in->sdst))
        return 0;
      r |= ISA_GANG_MASK;
    }
    for (unsigned i = 0; i < nsrc; i++)
      r |= gang_src(in->src[i], i);
    return r > 0xffff ? 0 : r;
  }
  return 0;
}
