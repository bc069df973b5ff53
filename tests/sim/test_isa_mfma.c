/* SPDX-License-Identifier: MIT */
/* test_isa_mfma.c — gfx90a's accumulation registers and matrix core on sim/isa (exec_mfma.c),
 * from code assembled by llvm-mc: AGPRs live in the unified register file from the kernel
 * descriptor's ACCUM_OFFSET on (a VGPR move past the offset sees them), acc-bit loads and
 * stores and v_accvgpr_read/write/mov move data through them, an AGPR past the allocation
 * faults, and v_mfma_f32_4x4x1f32 (16 blocks) and v_mfma_i32_16x16x16i8 put their results
 * where AMD's matrix instruction calculator says, against a host computation; gfx942's fp8
 * conversions round as a nearest-value search on the host does; gfx942's sparse MFMA and
 * stochastic-rounding conversions against host models of their definitions (every v_smfmac
 * form against the host's dense product). */
#include "kfd_fixture.h"
#include "isa_fixture.h"

#include <math.h>

#define NEED(code) do { if (!(code)) { fprintf(stderr, "llvm-mc missing: skipped\n"); return; } } while (0)

/* ACCUM_OFFSET 8 (RSRC3[5:0] = 1): a0 is v8 of the unified file */
START_TEST(agpr_moves_and_memory)
{
  fx_cfg.gpu_model = "gfx90a";
  fx_open();
  uint32_t *in = isa_fx_mem(4096), *out = isa_fx_mem(4096);
  for (unsigned l = 0; l < 64; l++)
    in[l] = 1000 + 7 * l;
  uint8_t *code = isa_fx_code_for("gfx90a",
    "global_load_dword a1, v1, s[0:1]\n"      /* a1 = in[lane] */
    "s_waitcnt vmcnt(0)\n"
    "v_accvgpr_mov_b32 a2, a1\n"
    "v_accvgpr_read_b32 v5, a2\n"
    "v_add_u32_e32 v5, 1, v5\n"
    "v_accvgpr_write_b32 a3, v5\n"            /* a3 = in + 1 */
    "global_store_dword v1, a3, s[2:3]\n"     /* out[lane] = in + 1 */
    "v_mov_b32_e32 v6, v10\n"                 /* v10 is a2 */
    "global_store_dword v1, v6, s[2:3] offset:256\n"
    "s_endpgm\n", NULL);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)in, (uintptr_t)out);
  r.wg.rsrc3 = 1;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned l = 0; l < 64; l++) {
    ck_assert_uint_eq(out[l], in[l] + 1);
    ck_assert_uint_eq(out[64 + l], in[l]);
  }
}
END_TEST

/* 64 rows allocated, ACCUM_OFFSET 8: a55 is the last AGPR, a56 faults with its name */
START_TEST(agpr_past_allocation_faults)
{
  fx_cfg.gpu_model = "gfx90a";
  fx_open();
  uint8_t *code = isa_fx_code_for("gfx90a", "v_accvgpr_write_b32 a55, v0\n"
                                            "v_accvgpr_write_b32 a56, v0\ns_endpgm\n", NULL);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, 0);
  r.wg.rsrc3 = 1;
  ck_assert_int_eq(isa_fx_go(&r), -1);
  ck_assert_int_eq(r.fault.kind, SIM_ISA_FAULT_ILLEGAL);
  ck_assert_msg(strstr(r.fault.text, "a56") && strstr(r.fault.text, "AGPR"), "%s", r.fault.text);
  ck_assert_uint_eq(r.fault.pc, (uintptr_t)code + 8);
}
END_TEST

/* 16 blocks of 4x4x1: A[b][i][0] = lane i + 4 b as a float, B = 2, C = 1; D[b][i][j] is
 * dword i of lane 4 b + j: (i + 4 b) * 2 + 1 */
START_TEST(mfma_f32_4x4x1_layout)
{
  fx_cfg.gpu_model = "gfx90a";
  fx_open();
  float *out = isa_fx_mem(4096);
  uint8_t *code = isa_fx_code_for("gfx90a",
    "v_cvt_f32_u32_e32 v3, v0\n"
    "v_mov_b32_e32 v4, 2.0\n"
    "v_mfma_f32_4x4x1f32 a[0:3], v3, v4, 1.0\n"
    "s_nop 7\n"
    "global_store_dword v1, a0, s[0:1]\n"
    "global_store_dword v1, a1, s[0:1] offset:256\n"
    "global_store_dword v1, a2, s[0:1] offset:512\n"
    "global_store_dword v1, a3, s[0:1] offset:768\n"
    "s_endpgm\n", NULL);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)out, 0);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned i = 0; i < 4; i++)
    for (unsigned lane = 0; lane < 64; lane++) {
      unsigned b = lane / 4;
      ck_assert_msg(out[i * 64 + lane] == (float)((i + 4 * b) * 2 + 1), "dword %u lane %u: %g",
                    i, lane, (double)out[i * 64 + lane]);
    }
}
END_TEST

/* 16x16x16 i8: A[i][k] = byte k % 4 of lane i + 16 (k / 4), B[k][j] likewise with j; D[i][j]
 * is dword i % 4 of lane j + 16 (i / 4). Inputs from memory, C = 0; the host multiplies. */
START_TEST(mfma_i32_16x16x16_layout)
{
  fx_cfg.gpu_model = "gfx90a";
  fx_open();
  int8_t *ab = isa_fx_mem(4096);
  int32_t *out = isa_fx_mem(4096);
  for (unsigned n = 0; n < 512; n++)
    ab[n] = (int8_t)(n * 37 + 11);
  uint8_t *code = isa_fx_code_for("gfx90a",
    "global_load_dword v3, v1, s[0:1]\n"              /* A: dword of lane */
    "global_load_dword v4, v1, s[0:1] offset:256\n"   /* B */
    "s_waitcnt vmcnt(0)\n"
    "v_mfma_i32_16x16x16i8 a[0:3], v3, v4, 0\n"
    "s_nop 7\n"
    "s_nop 7\n"
    "global_store_dword v1, a0, s[2:3]\n"
    "global_store_dword v1, a1, s[2:3] offset:256\n"
    "global_store_dword v1, a2, s[2:3] offset:512\n"
    "global_store_dword v1, a3, s[2:3] offset:768\n"
    "s_endpgm\n", NULL);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)ab, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned i = 0; i < 16; i++)
    for (unsigned j = 0; j < 16; j++) {
      int32_t want = 0;
      for (unsigned k = 0; k < 16; k++)
        want += ab[4 * (i + 16 * (k / 4)) + k % 4] * ab[256 + 4 * (j + 16 * (k / 4)) + k % 4];
      int32_t got = out[(i % 4) * 64 + j + 16 * (i / 4)];
      ck_assert_msg(got == want, "D[%u][%u] = %d, want %d", i, j, got, want);
    }
}
END_TEST

/* gfx942's fp8 (E4M3, bias 8) conversions against a host that rounds by searching all 255
 * codes for the nearest value (ties to the even code): v_cvt_pk_fp8_f32 packs two rounded
 * f32s into the high word (op_sel[3]), keeping the low one; v_cvt_f32_fp8 with SDWA reads
 * byte 3 back; v_cvt_pk_f32_fp8 turns both bytes of the high word into two f32s. */
static double fp8_host(unsigned c)
{
  unsigned e = c >> 3 & 15, m = c & 7;
  double v = e ? ldexp(1.0 + m / 8.0, (int)e - 8) : ldexp(m / 8.0, -7);
  return c & 0x80 ? -v : v;
}

static unsigned fp8_nearest(float f)
{
  unsigned best = 0;
  for (unsigned c = 0; c < 256; c++) {
    if (c == 0x80)
      continue;
    double d = fabs(fp8_host(c) - f), bd = fabs(fp8_host(best) - f);
    if (d < bd || (d == bd && !(c & 1) && (best & 1)))
      best = c;
  }
  return best;
}

START_TEST(fp8_conversions_gfx942)
{
  fx_cfg.gpu_model = "gfx942";
  fx_open();
  uint32_t *out = isa_fx_mem(4 * 4096);
  uint8_t *code = isa_fx_code_for("gfx940",   /* LLVM 15's name for these encodings */
    "v_cvt_f32_u32_e32 v3, v0\n"
    "v_mul_f32_e32 v4, 0x40700000, v3\n"           /* 3.75 * lane: up to 236.25 */
    "v_mov_b32_e32 v7, 0x3e99999a\n"
    "v_fma_f32 v3, v3, v7, -4.0\n"                  /* 0.3 * lane - 4 */
    "v_mov_b32_e32 v5, 0x1234\n"
    "v_cvt_pk_fp8_f32 v5, v3, v4 op_sel:[0,0,1]\n"
    "v_cvt_f32_fp8_sdwa v6, v5 src0_sel:BYTE_3\n"
    "v_cvt_pk_f32_fp8_sdwa v[8:9], v5 src0_sel:WORD_1\n"
    "global_store_dword v1, v5, s[0:1]\n"
    "global_store_dword v1, v6, s[0:1] offset:256\n"
    "global_store_dword v1, v8, s[0:1] offset:512\n"
    "global_store_dword v1, v9, s[0:1] offset:768\n"
    "s_endpgm\n", NULL);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)out, 0);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned l = 0; l < 64; l++) {
    float x = fmaf((float)l, 0.3f, -4.0f), y = 3.75f * (float)l;
    unsigned cx = fp8_nearest(x), cy = fp8_nearest(y);
    ck_assert_msg(out[l] == (0x1234u | cx << 16 | cy << 24), "lane %u: 0x%08x, want %02x %02x",
                  l, out[l], cy, cx);
    float f6, f8, f9;
    memcpy(&f6, &out[64 + l], 4);
    memcpy(&f8, &out[128 + l], 4);
    memcpy(&f9, &out[192 + l], 4);
    ck_assert_msg(f6 == (float)fp8_host(cy) && f8 == (float)fp8_host(cx) && f9 == f6,
                  "lane %u: %g %g %g", l, (double)f6, (double)f8, (double)f9);
  }
}
END_TEST

/* gfx942's sparse MFMA, v_smfmac_f32_16x16x32_f16, against a host product of the dense
 * matrices the operands stand for: row i of A holds, in lane i + 16 g, logical elements
 * 8 g .. 8 g + 7 of which 2 per group of 4 are stored (4 halves in v[4:5]); index c (2 bits
 * of the byte ABID picks, here byte 2) places stored value c at element 4 (c / 2) + index;
 * B[k][j] is half k % 8 of lane j + 16 (k / 8) (v[6:9]); C is D's registers (v[10:13]),
 * D[i][j] dword i % 4 of lane j + 16 (i / 4). Small integers: the sums are exact. */
static uint32_t lcg(uint32_t *st)
{
  *st = *st * 1664525u + 1013904223u;
  return *st >> 8;
}

static uint16_t f16_int(int v)   /* a small integer as an f16 (|v| < 64) */
{
  if (!v)
    return 0;
  unsigned a = (unsigned)abs(v), e = 31 - (unsigned)__builtin_clz(a);
  return (uint16_t)((v < 0 ? 0x8000u : 0) | (e + 15) << 10 | ((a << (10 - e)) & 0x3ff));
}

/* two distinct positions of 4, in order, as the 4-bit pair of index fields */
static unsigned pair_of(uint32_t r)
{
  static const uint8_t p[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  const uint8_t *q = p[r % 6];
  return q[0] | (unsigned)q[1] << 2;
}

static uint16_t bf16_int(int v)   /* a small integer as a bf16: the float's high half */
{
  float f = (float)v;
  uint32_t u;
  memcpy(&u, &f, 4);
  return (uint16_t)(u >> 16);
}

/* _i 0: v_smfmac_f32_16x16x32_f16; 1: the bf16 form, the same layout */
START_TEST(smfmac_f16_16x16x32)
{
  uint16_t (*const enc)(int) = _i ? bf16_int : f16_int;
  fx_cfg.gpu_model = "gfx942";
  fx_open();
  uint32_t *in = isa_fx_mem(8 * 256 * 4), *out = isa_fx_mem(4 * 256);
  int av[64][4], bv[64][8];
  float cv[4][64];
  uint32_t st = 12345;
  for (unsigned l = 0; l < 64; l++) {
    for (unsigned x = 0; x < 4; x++)
      av[l][x] = (int)(lcg(&st) % 15) - 7;
    for (unsigned x = 0; x < 8; x++)
      bv[l][x] = (int)(lcg(&st) % 15) - 7;
    for (unsigned x = 0; x < 4; x++)
      cv[x][l] = (float)((int)(lcg(&st) % 200) - 100);
    in[l] = enc(av[l][0]) | (uint32_t)enc(av[l][1]) << 16;
    in[64 + l] = enc(av[l][2]) | (uint32_t)enc(av[l][3]) << 16;
    for (unsigned x = 0; x < 4; x++)
      in[128 + 64 * x + l] = enc(bv[l][2 * x]) | (uint32_t)enc(bv[l][2 * x + 1]) << 16;
    for (unsigned x = 0; x < 4; x++)
      memcpy(&in[384 + 64 * x + l], &cv[x][l], 4);
    /* indices: random bytes, byte 2 the set used (two valid pairs) */
    in[640 + l] = (lcg(&st) & 0xff00ffffu) |
                  (pair_of(lcg(&st)) | pair_of(lcg(&st)) << 4) << 16;
  }
  char src[2048];
  int n = 0;
  for (unsigned r = 0; r < 11; r++)   /* v[4:5] A, v[6:9] B, v[10:13] C, v14 index */
    n += snprintf(src + n, sizeof src - (size_t)n,
                  "global_load_dword v%u, v1, s[0:1] offset:%u\n", r == 10 ? 14 : 4 + r, r * 256);
  snprintf(src + n, sizeof src - (size_t)n,
           "s_waitcnt vmcnt(0)\n"
           "v_smfmac_f32_16x16x32_%s v[10:13], v[4:5], v[6:9], v14 abid:2\n"
           "s_nop 7\ns_nop 7\n"
           "global_store_dword v1, v10, s[2:3]\n"
           "global_store_dword v1, v11, s[2:3] offset:256\n"
           "global_store_dword v1, v12, s[2:3] offset:512\n"
           "global_store_dword v1, v13, s[2:3] offset:768\n"
           "s_endpgm\n", _i ? "bf16" : "f16");
  uint8_t *code = isa_fx_code_for("gfx940", src, NULL);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)in, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  /* the dense A (16 x 32) and B (32 x 16) */
  int a[16][32] = {{0}}, b[32][16];
  for (unsigned i = 0; i < 16; i++)
    for (unsigned g = 0; g < 4; g++) {
      unsigned lane = i + 16 * g, ix = in[640 + lane] >> 16 & 0xff;
      for (unsigned c = 0; c < 4; c++)
        a[i][8 * g + 4 * (c / 2) + (ix >> (2 * c) & 3)] = av[lane][c];
    }
  for (unsigned k = 0; k < 32; k++)
    for (unsigned j = 0; j < 16; j++)
      b[k][j] = bv[j + 16 * (k / 8)][k % 8];
  for (unsigned i = 0; i < 16; i++)
    for (unsigned j = 0; j < 16; j++) {
      unsigned reg = i % 4, lane = j + 16 * (i / 4);
      int sum = 0;
      for (unsigned k = 0; k < 32; k++)
        sum += a[i][k] * b[k][j];
      float want = cv[reg][lane] + (float)sum, got;
      memcpy(&got, &out[64 * reg + lane], 4);
      ck_assert_msg(got == want, "%s: D[%u][%u] = %g, want %g", _i ? "bf16" : "f16", i, j,
                    (double)got, (double)want);
    }
}
END_TEST

/* v_smfmac_i32_32x32x32_i8 with CBSZ 1 (the first index set whatever ABID says) into AGPRs:
 * A 8 stored bytes of 16 logical a lane, index fields in the low 16 bits; D[i][j] of the
 * 32x32 result is dword 4 (i / 8) + i % 4 of lane 32 ((i / 4) % 2) + j. */
START_TEST(smfmac_i8_32x32x32_agpr)
{
  fx_cfg.gpu_model = "gfx942";
  fx_open();
  uint32_t *in = isa_fx_mem(8 * 256 * 4), *out = isa_fx_mem(16 * 256);
  int8_t av[64][8], bv[64][16];
  uint32_t st = 777, ixv[64];
  for (unsigned l = 0; l < 64; l++) {
    for (unsigned x = 0; x < 8; x++)
      av[l][x] = (int8_t)lcg(&st);
    for (unsigned x = 0; x < 16; x++)
      bv[l][x] = (int8_t)lcg(&st);
    memcpy(&in[l], &av[l][0], 4);
    memcpy(&in[64 + l], &av[l][4], 4);
    for (unsigned x = 0; x < 4; x++)
      memcpy(&in[128 + 64 * x + l], &bv[l][4 * x], 4);
    ixv[l] = (lcg(&st) << 16);
    for (unsigned q = 0; q < 4; q++)
      ixv[l] |= pair_of(lcg(&st)) << (4 * q);
    in[384 + l] = ixv[l];
  }
  uint8_t *code = isa_fx_code_for("gfx940",
    "global_load_dword v4, v1, s[0:1]\n"
    "global_load_dword v5, v1, s[0:1] offset:256\n"
    "global_load_dword v6, v1, s[0:1] offset:512\n"
    "global_load_dword v7, v1, s[0:1] offset:768\n"
    "global_load_dword v8, v1, s[0:1] offset:1024\n"
    "global_load_dword v9, v1, s[0:1] offset:1280\n"
    "global_load_dword v14, v1, s[0:1] offset:1536\n"
    "s_waitcnt vmcnt(0)\n"
    ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    "v_accvgpr_write_b32 a\\r, -3\n"
    ".endr\n"
    "v_smfmac_i32_32x32x32_i8 a[0:15], v[4:5], v[6:9], v14 cbsz:1 abid:1\n"
    "s_nop 7\ns_nop 7\ns_nop 7\n"
    ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    "global_store_dword v1, a\\r, s[2:3] offset:\\r*256\n"
    ".endr\n"
    "s_endpgm\n", NULL);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)in, (uintptr_t)out);
  r.wg.vgpr_alloc = 128;
  r.wg.rsrc3 = 3;   /* ACCUM_OFFSET 16: a0 is v16 */
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned i = 0; i < 32; i++)
    for (unsigned j = 0; j < 32; j++) {
      int32_t want = -3;
      for (unsigned g = 0; g < 2; g++) {
        unsigned la = i + 32 * g, lb = j + 32 * g;
        for (unsigned c = 0; c < 8; c++) {
          unsigned k = 4 * (c / 2) + (ixv[la] >> (2 * c) & 3);
          want += av[la][c] * bv[lb][k];
        }
      }
      unsigned reg = 4 * (i / 8) + i % 4, lane = 32 * ((i / 4) % 2) + j;
      int32_t got = (int32_t)out[64 * reg + lane];
      ck_assert_msg(got == want, "D[%u][%u] = %d, want %d", i, j, got, want);
    }
}
END_TEST

/* |v| <= 7 as an 8-bit float with `mb` mantissa bits and exponent bias `bias` (gfx942's
 * FNUZ formats: fp8 3, 8; bf8 2, 16): exact for these integers */
static uint8_t f8_int(int v, unsigned mb, unsigned bias)
{
  if (!v)
    return 0;
  unsigned a = (unsigned)abs(v), e = 31 - (unsigned)__builtin_clz(a);
  return (uint8_t)((v < 0 ? 0x80u : 0) | (e + bias) << mb | ((a << mb >> e) & ((1u << mb) - 1)));
}

/* The fp8/bf8 sparse forms v_smfmac_f32_32x32x32_{fp8,bf8}_{fp8,bf8}: the i8 form's layout
 * (above) with 8-bit floats (A's format first), into AGPRs with CBSZ 1, C = -4.0; small
 * integers, so the f32 sums are exact. */
static const struct { const char *name; unsigned amb, abias, bmb, bbias; } smf8[] = {
  { "v_smfmac_f32_32x32x32_fp8_fp8", 3, 8, 3, 8 },
  { "v_smfmac_f32_32x32x32_bf8_fp8", 2, 16, 3, 8 },
  { "v_smfmac_f32_32x32x32_fp8_bf8", 3, 8, 2, 16 },
  { "v_smfmac_f32_32x32x32_bf8_bf8", 2, 16, 2, 16 },
};

START_TEST(smfmac_f8_32x32x32_agpr)
{
  fx_cfg.gpu_model = "gfx942";
  fx_open();
  uint32_t *in = isa_fx_mem(8 * 256 * 4), *out = isa_fx_mem(16 * 256);
  int av[64][8], bv[64][16];
  uint32_t st = 4242 + (uint32_t)_i, ixv[64];
  for (unsigned l = 0; l < 64; l++) {
    uint8_t ab[8], bb[16];
    for (unsigned x = 0; x < 8; x++) {
      av[l][x] = (int)(lcg(&st) % 15) - 7;
      ab[x] = f8_int(av[l][x], smf8[_i].amb, smf8[_i].abias);
    }
    for (unsigned x = 0; x < 16; x++) {
      bv[l][x] = (int)(lcg(&st) % 15) - 7;
      bb[x] = f8_int(bv[l][x], smf8[_i].bmb, smf8[_i].bbias);
    }
    memcpy(&in[l], &ab[0], 4);
    memcpy(&in[64 + l], &ab[4], 4);
    for (unsigned x = 0; x < 4; x++)
      memcpy(&in[128 + 64 * x + l], &bb[4 * x], 4);
    ixv[l] = (lcg(&st) << 16);
    for (unsigned q = 0; q < 4; q++)
      ixv[l] |= pair_of(lcg(&st)) << (4 * q);
    in[384 + l] = ixv[l];
  }
  char src[2048];
  snprintf(src, sizeof src,
    "global_load_dword v4, v1, s[0:1]\n"
    "global_load_dword v5, v1, s[0:1] offset:256\n"
    "global_load_dword v6, v1, s[0:1] offset:512\n"
    "global_load_dword v7, v1, s[0:1] offset:768\n"
    "global_load_dword v8, v1, s[0:1] offset:1024\n"
    "global_load_dword v9, v1, s[0:1] offset:1280\n"
    "global_load_dword v14, v1, s[0:1] offset:1536\n"
    "s_waitcnt vmcnt(0)\n"
    ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    "v_accvgpr_write_b32 a\\r, -4.0\n"
    ".endr\n"
    "%s a[0:15], v[4:5], v[6:9], v14 cbsz:1 abid:1\n"
    "s_nop 7\ns_nop 7\ns_nop 7\n"
    ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    "global_store_dword v1, a\\r, s[2:3] offset:\\r*256\n"
    ".endr\n"
    "s_endpgm\n", smf8[_i].name);
  uint8_t *code = isa_fx_code_for("gfx940", src, NULL);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)in, (uintptr_t)out);
  r.wg.vgpr_alloc = 128;
  r.wg.rsrc3 = 3;   /* ACCUM_OFFSET 16: a0 is v16 */
  ck_assert_msg(isa_fx_go(&r) == 0, "%s: fault: %s", smf8[_i].name, r.fault.text);
  for (unsigned i = 0; i < 32; i++)
    for (unsigned j = 0; j < 32; j++) {
      int want = -4;
      for (unsigned g = 0; g < 2; g++) {
        unsigned la = i + 32 * g, lb = j + 32 * g;
        for (unsigned c = 0; c < 8; c++) {
          unsigned k = 4 * (c / 2) + (ixv[la] >> (2 * c) & 3);
          want += av[la][c] * bv[lb][k];
        }
      }
      unsigned reg = 4 * (i / 8) + i % 4, lane = 32 * ((i / 4) % 2) + j;
      float got;
      memcpy(&got, &out[64 * reg + lane], 4);
      ck_assert_msg(got == (float)want, "%s: D[%u][%u] = %g, want %d", smf8[_i].name, i, j,
                    (double)got, want);
    }
}
END_TEST

/* The remaining sparse forms, each against the host's dense product in one generic check:
 * f16/bf16 32x32x16 (4 stored halves of 8 logical a lane, the index byte ABID 3 picks),
 * i8 and the four fp8/bf8 16x16x64 (8 stored bytes of 16 logical, the index half ABID 1
 * picks), all into AGPRs. Lane i + M g of A holds logical K elements E g .. E g + E - 1;
 * B[k][j] is element k % E of lane j + M (k / E); D[i][j] is, for M 16, dword i % 4 of
 * lane 16 (i / 4) + j, for M 32 dword 4 (i / 8) + i % 4 of lane 32 ((i / 4) % 2) + j. */
enum { SM_F16, SM_BF16, SM_I8, SM_FP8, SM_BF8 };
static const struct { const char *name; unsigned m, e, a, b; } smx[] = {
  { "v_smfmac_f32_32x32x16_f16", 32, 8, SM_F16, SM_F16 },
  { "v_smfmac_f32_32x32x16_bf16", 32, 8, SM_BF16, SM_BF16 },
  { "v_smfmac_i32_16x16x64_i8", 16, 16, SM_I8, SM_I8 },
  { "v_smfmac_f32_16x16x64_fp8_fp8", 16, 16, SM_FP8, SM_FP8 },
  { "v_smfmac_f32_16x16x64_bf8_fp8", 16, 16, SM_BF8, SM_FP8 },
  { "v_smfmac_f32_16x16x64_fp8_bf8", 16, 16, SM_FP8, SM_BF8 },
  { "v_smfmac_f32_16x16x64_bf8_bf8", 16, 16, SM_BF8, SM_BF8 },
};

static unsigned smx_enc(unsigned kind, int v)
{
  switch (kind) {
  case SM_F16: return f16_int(v);
  case SM_BF16: return bf16_int(v);
  case SM_I8: return (uint8_t)v;
  case SM_FP8: return f8_int(v, 3, 8);
  default: return f8_int(v, 2, 16);
  }
}

static int smx_val(unsigned kind, uint32_t *st)   /* i8: any byte; floats: |v| <= 7 */
{
  return kind == SM_I8 ? (int8_t)lcg(st) : (int)(lcg(st) % 15) - 7;
}

START_TEST(smfmac_more_agpr)
{
  const unsigned m = smx[_i].m, e = smx[_i].e, bits = 128 / e;   /* bits an element */
  const bool isint = smx[_i].a == SM_I8;
  fx_cfg.gpu_model = "gfx942";
  fx_open();
  uint32_t *in = isa_fx_mem(8 * 256 * 4), *out = isa_fx_mem(16 * 256);
  int av[64][8], bv[64][16];
  uint32_t st = 9090 + (uint32_t)_i, ix[64];
  for (unsigned l = 0; l < 64; l++) {
    uint64_t aw = 0, bw[2] = {0, 0};
    for (unsigned x = 0; x < e / 2; x++) {
      av[l][x] = smx_val(smx[_i].a, &st);
      aw |= (uint64_t)smx_enc(smx[_i].a, av[l][x]) << (bits * x);
    }
    for (unsigned x = 0; x < e; x++) {
      bv[l][x] = smx_val(smx[_i].b, &st);
      bw[x / (e / 2)] |= (uint64_t)smx_enc(smx[_i].b, bv[l][x]) << (bits * (x % (e / 2)));
    }
    in[l] = (uint32_t)aw;
    in[64 + l] = (uint32_t)(aw >> 32);
    for (unsigned x = 0; x < 4; x++)
      in[128 + 64 * x + l] = (uint32_t)(bw[x / 2] >> (32 * (x % 2)));
    /* the set used: byte 3 (16-bit A) or the high half (8-bit A); the rest random */
    uint32_t set = 0;
    for (unsigned q = 0; q < e / 4; q++)
      set |= pair_of(lcg(&st)) << (4 * q);
    ix[l] = set;
    in[384 + l] = e == 8 ? (lcg(&st) & 0x00ffffffu) | set << 24 : (lcg(&st) & 0xffffu) | set << 16;
  }
  char src[2048];
  snprintf(src, sizeof src,
    "global_load_dword v4, v1, s[0:1]\n"
    "global_load_dword v5, v1, s[0:1] offset:256\n"
    "global_load_dword v6, v1, s[0:1] offset:512\n"
    "global_load_dword v7, v1, s[0:1] offset:768\n"
    "global_load_dword v8, v1, s[0:1] offset:1024\n"
    "global_load_dword v9, v1, s[0:1] offset:1280\n"
    "global_load_dword v14, v1, s[0:1] offset:1536\n"
    "s_waitcnt vmcnt(0)\n"
    ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    "v_accvgpr_write_b32 a\\r, %s\n"
    ".endr\n"
    "%s a[0:%u], v[4:5], v[6:9], v14 abid:%u\n"
    "s_nop 7\ns_nop 7\ns_nop 7\n"
    ".irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    "global_store_dword v1, a\\r, s[2:3] offset:\\r*256\n"
    ".endr\n"
    "s_endpgm\n", isint ? "-3" : "-4.0", smx[_i].name, m == 32 ? 15 : 3, e == 8 ? 3 : 1);
  uint8_t *code = isa_fx_code_for("gfx940", src, NULL);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)in, (uintptr_t)out);
  r.wg.vgpr_alloc = 128;
  r.wg.rsrc3 = 3;   /* ACCUM_OFFSET 16: a0 is v16 */
  ck_assert_msg(isa_fx_go(&r) == 0, "%s: fault: %s", smx[_i].name, r.fault.text);
  /* the dense A (M x K) and B (K x M), K = E * (64 / M) */
  const unsigned kk = e * (64 / m);
  static int a[32][64], b[64][32];
  memset(a, 0, sizeof a);
  for (unsigned i = 0; i < m; i++)
    for (unsigned g = 0; g < 64 / m; g++) {
      unsigned lane = i + m * g;
      for (unsigned c = 0; c < e / 2; c++)
        a[i][e * g + 4 * (c / 2) + (ix[lane] >> (2 * c) & 3)] = av[lane][c];
    }
  for (unsigned k = 0; k < kk; k++)
    for (unsigned j = 0; j < m; j++)
      b[k][j] = bv[j + m * (k / e)][k % e];
  for (unsigned i = 0; i < m; i++)
    for (unsigned j = 0; j < m; j++) {
      int32_t want = isint ? -3 : -4;
      for (unsigned k = 0; k < kk; k++)
        want += a[i][k] * b[k][j];
      unsigned reg = m == 16 ? i % 4 : 4 * (i / 8) + i % 4;
      unsigned lane = m == 16 ? 16 * (i / 4) + j : 32 * ((i / 4) % 2) + j;
      uint32_t raw = out[64 * reg + lane];
      if (isint) {
        ck_assert_msg((int32_t)raw == want, "%s: D[%u][%u] = %d, want %d", smx[_i].name, i, j,
                      (int32_t)raw, want);
      } else {
        float got;
        memcpy(&got, &raw, 4);
        ck_assert_msg(got == (float)want, "%s: D[%u][%u] = %g, want %d", smx[_i].name, i, j,
                      (double)got, want);
      }
    }
  /* the registers past D keep C (M 16: a4.. hold -3 / -4.0 untouched) */
  if (m == 16) {
    float c4;
    memcpy(&c4, &out[64 * 4], 4);
    ck_assert_msg(isint ? (int32_t)out[64 * 4] == -3 : c4 == -4.0f, "%s: a4 changed", smx[_i].name);
  }
}
END_TEST

/* v_cvt_sr_fp8_f32 / v_cvt_sr_bf8_f32: an input between two neighbouring codes lo and hi,
 * x = lo + (hi - lo) * d / 2^W (W = 20 for fp8, 21 for bf8), rounds to hi exactly when
 * the low W bits of the random operand are >= 2^W - d; the byte op_sel[3:2] names is
 * written, the other three kept. The codes' values come from the format, not the model. */
static double f8_value(unsigned c, bool bf8)
{
  unsigned mb = bf8 ? 2 : 3, bias = bf8 ? 16 : 8;
  unsigned e = (c & 0x7f) >> mb, m = c & ((1u << mb) - 1);
  double v = e ? ldexp(1.0 + (double)m / (1 << mb), (int)e - (int)bias)
               : ldexp((double)m / (1 << mb), 1 - (int)bias);
  return c & 0x80 ? -v : v;
}

START_TEST(cvt_sr_fp8_bf8)
{
  fx_cfg.gpu_model = "gfx942";
  fx_open();
  uint32_t *in = isa_fx_mem(4 * 256 * 4), *out = isa_fx_mem(2 * 256);
  unsigned want[2][64];
  uint32_t st = 4242;
  for (unsigned l = 0; l < 64; l++) {
    for (unsigned f = 0; f < 2; f++) {
      bool bf8 = f;
      unsigned wb = bf8 ? 21 : 20, c = lcg(&st) % 0x7f, neg = lcg(&st) & 1;
      uint32_t d = l < 4 ? (l == 0 ? 0 : l == 1 ? 1 : (1u << wb) - 1) : lcg(&st) & ((1u << wb) - 1);
      uint32_t rnd = lcg(&st) << 8 ^ lcg(&st);
      if (l == 2)
        rnd = 0;
      double lo = f8_value(c, bf8), hi = f8_value(c + 1, bf8);
      float x = (float)(lo + (hi - lo) * ldexp((double)d, -(int)wb));
      ck_assert(x == (float)(lo + (hi - lo) * ldexp((double)d, -(int)wb)));
      if (neg)
        x = -x;
      memcpy(&in[128 * f + l], &x, 4);
      in[128 * f + 64 + l] = rnd;
      unsigned code = (rnd & ((1u << wb) - 1)) >= (1u << wb) - d && d ? c + 1 : c;
      want[f][l] = code ? code | neg << 7 : 0;
    }
  }
  uint8_t *code = isa_fx_code_for("gfx940",
    "global_load_dword v4, v1, s[0:1]\n"
    "global_load_dword v5, v1, s[0:1] offset:256\n"
    "global_load_dword v6, v1, s[0:1] offset:512\n"
    "global_load_dword v7, v1, s[0:1] offset:768\n"
    "s_waitcnt vmcnt(0)\n"
    "v_mov_b32_e32 v8, 0x11223344\n"
    "v_mov_b32_e32 v9, 0x55667788\n"
    "v_cvt_sr_fp8_f32 v8, v4, v5 op_sel:[0,0,0,1]\n"    /* byte 2 */
    "v_cvt_sr_bf8_f32 v9, v6, v7 op_sel:[0,0,1,0]\n"    /* byte 1 */
    "global_store_dword v1, v8, s[2:3]\n"
    "global_store_dword v1, v9, s[2:3] offset:256\n"
    "s_endpgm\n", NULL);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)in, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned l = 0; l < 64; l++) {
    ck_assert_msg(out[l] == (0x11003344u | want[0][l] << 16), "fp8 lane %u: 0x%08x, want %02x",
                  l, out[l], want[0][l]);
    ck_assert_msg(out[64 + l] == (0x55660088u | want[1][l] << 8), "bf8 lane %u: 0x%08x, want %02x",
                  l, out[64 + l], want[1][l]);
  }
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("isa_mfma");
  TCase *t = tcase_create("mfma");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, agpr_moves_and_memory);
  tcase_add_test(t, agpr_past_allocation_faults);
  tcase_add_test(t, mfma_f32_4x4x1_layout);
  tcase_add_test(t, mfma_i32_16x16x16_layout);
  tcase_add_test(t, fp8_conversions_gfx942);
  tcase_add_loop_test(t, smfmac_f16_16x16x32, 0, 2);
  tcase_add_test(t, smfmac_i8_32x32x32_agpr);
  tcase_add_loop_test(t, smfmac_f8_32x32x32_agpr, 0, (int)(sizeof smf8 / sizeof smf8[0]));
  tcase_add_loop_test(t, smfmac_more_agpr, 0, (int)(sizeof smx / sizeof smx[0]));
  tcase_add_test(t, cvt_sr_fp8_bf8);
  suite_add_tcase(s, t);
  return s;
}
