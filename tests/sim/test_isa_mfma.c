/* SPDX-License-Identifier: MIT */
/* test_isa_mfma.c — gfx90a's accumulation registers and matrix core on sim/isa (exec_mfma.c),
 * from code assembled by llvm-mc: AGPRs live in the unified register file from the kernel
 * descriptor's ACCUM_OFFSET on (a VGPR move past the offset sees them), acc-bit loads and
 * stores and v_accvgpr_read/write/mov move data through them, an AGPR past the allocation
 * faults, and v_mfma_f32_4x4x1f32 (16 blocks) and v_mfma_i32_16x16x16i8 put their results
 * where AMD's matrix instruction calculator says, against a host computation. */
#include "kfd_fixture.h"
#include "isa_fixture.h"

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

Suite *test_suite(void)
{
  Suite *s = suite_create("isa_mfma");
  TCase *t = tcase_create("mfma");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, agpr_moves_and_memory);
  tcase_add_test(t, agpr_past_allocation_faults);
  tcase_add_test(t, mfma_f32_4x4x1_layout);
  tcase_add_test(t, mfma_i32_16x16x16_layout);
  suite_add_tcase(s, t);
  return s;
}
