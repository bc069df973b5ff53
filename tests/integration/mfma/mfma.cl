/* SPDX-License-Identifier: MIT */
// MFMA kernels (tests/integration/mfma.sh): one wave multiplies B blocks of an M x K by a
// K x N matrix and adds C. Matrices are row-major in memory (A[b][i][k], B[b][k][j],
// C/D[b][i][j]); each lane loads its operands where AMD's matrix instruction calculator
// places them and stores its results back from there. Inputs are small integers (given as
// int), converted here to the instruction's type.
// Built with -nogpulib: no OpenCL library calls, only clang builtins.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

typedef float f32x16 __attribute__((ext_vector_type(16)));
typedef float f32x32 __attribute__((ext_vector_type(32)));

enum { T_F32, T_F16, T_BF16, T_I8, T_F64, T_FP8, T_BF8 };

// E4M3 (bias 8) and E5M2 (bias 16) of an integer of magnitude at most 8
static uint enc8(int v, int mbits, int bias)
{
  if (!v)
    return 0;
  uint s = v < 0 ? 0x80u : 0u, a = (uint)(v < 0 ? -v : v);
  int e = 31 - __builtin_clz(a);
  uint m = ((a << mbits) >> e) & ((1u << mbits) - 1);
  return s | (uint)(e + bias) << mbits | m;
}

static ulong ebits(int v, int t)
{
  switch (t) {
  case T_F32: return as_uint((float)v);
  case T_F16: return as_ushort((half)v);
  case T_BF16: return as_uint((float)v) >> 16;
  case T_I8: return (uchar)(char)v;
  case T_FP8: return enc8(v, 3, 8);
  case T_BF8: return enc8(v, 2, 16);
  default: return as_ulong((double)v);
  }
}

static int width(int t)
{
  return t == T_F64 ? 64 : t == T_F32 ? 32 : t == T_F16 || t == T_BF16 ? 16 : 8;
}

// A lane's packed operand: elements k = E * (t / B) + e of row i of block t % B, with
// i = lane % M, t = lane / M (the calculator's "A[i][k].block Lane: i + M * block + M * B *
// floor(k / E)"); B alike with j for i and its rows k.
static ulong operand(global const int *X, int isb, int lane, int M, int K, int B, int E, int t)
{
  int i = lane % M, g = lane / M, b = g % B, k0 = E * (g / B);
  ulong bits = 0;
  for (int e = 0; e < E; e++) {
    int k = k0 + e;
    int v = isb ? X[(b * K + k) * M + i] : X[(b * M + i) * K + k];
    bits |= ebits(v, t) << (e * width(t));
  }
  return bits;
}

// Where result register r of `lane` goes in D[b][i][j] (f32/i32): for N >= 16 the
// calculator's "C or D i: 4 * G * floor((r % R) / 4) + 4 * floor(lane / N) + r % 4, j:
// lane % N, block: floor(r / R)" (G = 64 / N lane groups, R = M * N / 64); 4x4: i = r,
// j = lane % 4, block = lane / 4.
static int dpos(int r, int lane, int M, int N)
{
  if (N == 4)
    return (lane / 4) * 16 + r * 4 + lane % 4;
  int R = M * N / 64, G = 64 / N, rr = r % R;
  int i = 4 * G * (rr / 4) + 4 * (lane / N) + rr % 4;
  return (r / R) * M * N + i * N + lane % N;
}

// f64: register pair p: i = 4 * p + lane / 16 (16x16), or i = lane / 16 with block
// (lane / 4) % 4 (4x4, four blocks); j = lane % N.
static int dpos64(int p, int lane, int M, int N)
{
  if (M == 4)
    return ((lane / 4) % 4) * 16 + (lane / 16) * 4 + lane % 4;
  return (4 * p + lane / 16) * N + lane % N;
}

// Register r of a result, for r in 0..N-1, with constant indices only: at -O0 a variable
// subscript of a vector would make clang use GPR indexing (s_set_gpr_idx_on).
#define REP4(F, o) F(o) F(o + 1) F(o + 2) F(o + 3)
#define REP16(F) REP4(F, 0) REP4(F, 4) REP4(F, 8) REP4(F, 12)
#define REP32(F) REP16(F) REP4(F, 16) REP4(F, 20) REP4(F, 24) REP4(F, 28)
#define REP_4(F) REP4(F, 0)
#define REP_16(F) REP16(F)
#define REP_32(F) REP32(F)
#define F32_CASE(NAME, CALL, M, N, K, B, E, T, TIN, AS, TC, NOUT)                             \
  kernel void NAME(global const int *A, global const int *Bm, global const int *C,             \
                   global float *D)                                                             \
  {                                                                                              \
    int l = (int)__builtin_amdgcn_workitem_id_x();                                                                     \
    TIN a = AS(operand(A, 0, l, M, K, B, E, T)), b = AS(operand(Bm, 1, l, N, K, B, E, T));      \
    const int mm = M, nn = N;                                                                    \
    TC c, d;                                                                                     \
    REP_##NOUT(LOADC)                                                                            \
    d = CALL(a, b, c, 0, 0, 0);                                                                  \
    REP_##NOUT(STORED)                                                                           \
  }
#define I32_CASE(NAME, CALL, M, N, K, B, E, TIN, AS, NOUT)                                      \
  kernel void NAME(global const int *A, global const int *Bm, global const int *C, global int *D) \
  {                                                                                              \
    int l = (int)__builtin_amdgcn_workitem_id_x();                                                                     \
    TIN a = AS(operand(A, 0, l, M, K, B, E, T_I8)), b = AS(operand(Bm, 1, l, N, K, B, E, T_I8)); \
    const int mm = M, nn = N;                                                                    \
    int4 c, d;                                                                                   \
    REP_##NOUT(LOADC)                                                                            \
    d = CALL(a, b, c, 0, 0, 0);                                                                  \
    REP_##NOUT(STORED)                                                                           \
  }

#define LOADC(r) c[r] = C[dpos(r, l, mm, nn)];
#define STORED(r) D[dpos(r, l, mm, nn)] = d[r];
#define U32(x) ((uint)(x))
#define AS_F(x) as_float((uint)(x))
#define AS_S2(x) as_short2((uint)(x))

F32_CASE(mf_f32_32x32x1, __builtin_amdgcn_mfma_f32_32x32x1f32, 32, 32, 1, 2, 1, T_F32, float, AS_F, f32x32, 32)
F32_CASE(mf_f32_4x4x1, __builtin_amdgcn_mfma_f32_4x4x1f32, 4, 4, 1, 16, 1, T_F32, float, AS_F, float4, 4)
F32_CASE(mf_f16_32x32x8, __builtin_amdgcn_mfma_f32_32x32x8f16, 32, 32, 8, 1, 4, T_F16, half4, as_half4, f32x16, 16)
F32_CASE(mf_f16_16x16x16, __builtin_amdgcn_mfma_f32_16x16x16f16, 16, 16, 16, 1, 4, T_F16, half4, as_half4, float4, 4)
F32_CASE(mf_bf16_16x16x16, __builtin_amdgcn_mfma_f32_16x16x16bf16_1k, 16, 16, 16, 1, 4, T_BF16, short4, as_short4, float4, 4)
#ifdef __gfx942__
I32_CASE(mf_i8_16x16x32, __builtin_amdgcn_mfma_i32_16x16x32_i8, 16, 16, 32, 1, 8, long, (long), 4)
F32_CASE(mf_xf32_16x16x8, __builtin_amdgcn_mfma_f32_16x16x8_xf32, 16, 16, 8, 1, 2, T_F32, float2, as_float2, float4, 4)
F32_CASE(mf_fp8_16x16x32, __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8, 16, 16, 32, 1, 8, T_FP8, long, (long), float4, 4)
// bf8 A, fp8 B
kernel void mf_bf8fp8_32x32x16(global const int *A, global const int *Bm, global const int *C,
                               global float *D)
{
  int l = (int)__builtin_amdgcn_workitem_id_x();
  long a = (long)operand(A, 0, l, 32, 16, 1, 8, T_BF8), b = (long)operand(Bm, 1, l, 32, 16, 1, 8, T_FP8);
  f32x16 c, d;
  const int mm = 32, nn = 32;
  REP16(LOADC)
  d = __builtin_amdgcn_mfma_f32_32x32x16_bf8_fp8(a, b, c, 0, 0, 0);
  REP16(STORED)
}

// Sparse (v_smfmac): row i of A keeps, of each group of 4 elements along K starting at k0,
// positions smf_lo/smf_hi[(i + k0 / 4) % 6] (mfma_ref.c zeroes the others). A lane holds
// its 8 logical elements (the dense layout: row i, k = 8 (lane / 16) ...) compressed to 4
// halves, with the positions as 2-bit indices in byte 2 of the index register (ABID 2).
constant uchar smf_lo[6] = {0, 0, 0, 1, 1, 2}, smf_hi[6] = {1, 2, 3, 2, 3, 3};
typedef half half8_t __attribute__((ext_vector_type(8)));
kernel void smf_f16_16x16x32(global const int *A, global const int *Bm, global const int *C,
                             global float *D)
{
  int l = (int)__builtin_amdgcn_workitem_id_x(), i = l % 16, g = l / 16;
  half4 a;
  half8_t b;
  uint idx = 0;
  for (int h = 0; h < 2; h++) {
    int k0 = 8 * g + 4 * h, p = (i + k0 / 4) % 6;
    a[2 * h] = (half)A[i * 32 + k0 + smf_lo[p]];
    a[2 * h + 1] = (half)A[i * 32 + k0 + smf_hi[p]];
    idx |= (uint)(smf_lo[p] | smf_hi[p] << 2) << (4 * h);
  }
  for (int e = 0; e < 8; e++)
    b[e] = (half)Bm[(8 * g + e) * 16 + i];   // B[k][j], j = lane % 16
  float4 c, d;
  const int mm = 16, nn = 16;
  REP_4(LOADC)
  d = __builtin_amdgcn_smfmac_f32_16x16x32_f16(a, b, c, (int)(idx << 16 | 0xe4e4), 0, 2);
  REP_4(STORED)
}
#else
I32_CASE(mf_i8_16x16x16, __builtin_amdgcn_mfma_i32_16x16x16i8, 16, 16, 16, 1, 4, int, (int), 4)
F32_CASE(mf_bf16_32x32x2, __builtin_amdgcn_mfma_f32_32x32x2bf16, 32, 32, 2, 2, 2, T_BF16, short2, AS_S2, f32x32, 32)
#endif

// f64 16x16x4 (one block) and 4x4x4 (four blocks)
kernel void mf_f64_16x16x4(global const int *A, global const int *Bm, global const int *C, global double *D)
{
  int l = (int)__builtin_amdgcn_workitem_id_x();
  double a = (double)A[(l % 16) * 4 + l / 16], b = (double)Bm[(l / 16) * 16 + l % 16];
  double4 c, d;
#define LOADC64(p) c[p] = (double)C[dpos64(p, l, 16, 16)];
#define STORED64(p) D[dpos64(p, l, 16, 16)] = d[p];
  REP4(LOADC64, 0)
  d = __builtin_amdgcn_mfma_f64_16x16x4f64(a, b, c, 0, 0, 0);
  REP4(STORED64, 0)
}
kernel void mf_f64_4x4x4(global const int *A, global const int *Bm, global const int *C, global double *D)
{
  int l = (int)__builtin_amdgcn_workitem_id_x(), blk = (l / 4) % 4, i = l % 4, k = l / 16;
  double a = (double)A[(blk * 4 + i) * 4 + k], b = (double)Bm[(blk * 4 + k) * 4 + i];
  double c = (double)C[dpos64(0, l, 4, 4)];
  D[dpos64(0, l, 4, 4)] = __builtin_amdgcn_mfma_f64_4x4x4f64(a, b, c, 0, 0, 0);
}
