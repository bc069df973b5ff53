/* SPDX-License-Identifier: MIT */
/* test_isa_mfma.c — gfx90a's accumulation registers and matrix core on sim/isa (exec_mfma.c),
 * from code assembled by llvm-mc: AGPRs live in the unified register file from the kernel
 * descriptor's ACCUM_OFFSET on (a VGPR move past the offset sees them), acc-bit loads and
 * stores and v_accvgpr_read/write/mov move data through them, an AGPR past the allocation
 * faults, and v_mfma_f32_4x4x1f32 (16 blocks) and v_mfma_i32_16x16x16i8 put their results
 * where AMD's matrix instruction calculator says, against a host computation; gfx942's fp8
 * conversions round as a nearest-value search on the host does. */
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
  suite_add_tcase(s, t);
  return s;
}
