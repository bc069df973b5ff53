/* SPDX-License-Identifier: MIT */
/* test_isa_core.c — sim/isa's scalar, branch, memory and fault semantics on code assembled
 * by llvm-mc at test time; every result is checked against a host computation. */
#include "kfd_fixture.h"
#include "isa_fixture.h"

#define NEED(code) do { if (!(code)) { fprintf(stderr, "llvm-mc missing: skipped\n"); return; } } while (0)

/* ---- scalar ALU ---- */
START_TEST(scalar_alu)
{
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  void *code = isa_fx_code(
    "s_mov_b32 s10, 0xfffffff0\n"
    "s_add_u32 s11, s10, 0x20\n"        /* 0x10, carry */
    "s_addc_u32 s12, 0, 0\n"            /* 1 */
    "s_mov_b32 s13, 0x80004\n"
    "s_bfe_u32 s13, 0x12345678, s13\n"   /* offset 4, width 8 -> 0x67 */
    "s_mov_b32 s14, 0x40004\n"
    "s_bfe_i32 s14, 0xf0, s14\n"         /* 0xf sign-extended from 4 bits: -1 */
    "s_brev_b32 s15, 1\n"
    "s_bcnt1_i32_b32 s16, 0xf0f0\n"
    "s_ff1_i32_b32 s17, 0x100\n"
    "s_flbit_i32_b32 s18, 0x100\n"
    "s_mov_b64 s[20:21], 3\n"
    "s_lshl_b64 s[20:21], s[20:21], 40\n"
    "s_min_i32 s22, -5, 3\n"
    "s_mul_hi_u32 s23, 0x80000000, 6\n"
    "s_movk_i32 s24, 0xff00\n"          /* sign-extended */
    "s_cmp_lt_i32 s24, 0\n"
    "s_cselect_b32 s25, 7, 9\n"
    "s_mov_b32 s26, 0\n"                /* loop: s26 = sum 1..10 */
    "s_mov_b32 s27, 10\n"
    "L1:\n"
    "s_add_u32 s26, s26, s27\n"
    "s_sub_u32 s27, s27, 1\n"
    "s_cmp_lg_u32 s27, 0\n"
    "s_cbranch_scc1 L1\n"
    "s_getreg_b32 s28, hwreg(HW_REG_MODE)\n"
    "s_getpc_b64 s[30:31]\n"
    "s_mov_b32 s29, 0xabcd0000\n"
    "s_pack_lh_b32_b16 s29, 0x1234, s29\n"
    "s_store_dwordx2 s[10:11], s[2:3], 0x0\n"
    "s_store_dwordx2 s[12:13], s[2:3], 0x8\n"
    "s_store_dwordx2 s[14:15], s[2:3], 0x10\n"
    "s_store_dwordx2 s[16:17], s[2:3], 0x18\n"
    "s_store_dwordx2 s[18:19], s[2:3], 0x20\n"
    "s_store_dwordx2 s[20:21], s[2:3], 0x28\n"
    "s_store_dwordx2 s[22:23], s[2:3], 0x30\n"
    "s_store_dwordx2 s[24:25], s[2:3], 0x38\n"
    "s_store_dwordx4 s[28:31], s[2:3], 0x48\n"
    "s_store_dwordx2 s[26:27], s[2:3], 0x40\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  ck_assert_uint_eq(out[0], 0xfffffff0u);
  ck_assert_uint_eq(out[1], 0x10);
  ck_assert_uint_eq(out[2], 1);
  ck_assert_uint_eq(out[3], 0x67);
  ck_assert_uint_eq(out[4], 0xffffffffu);
  ck_assert_uint_eq(out[5], 0x80000000u);
  ck_assert_uint_eq(out[6], 8);
  ck_assert_uint_eq(out[7], 8);
  ck_assert_uint_eq(out[8], 23);
  ck_assert_uint_eq(out[10], 0);
  ck_assert_uint_eq(out[11], 3u << 8);
  ck_assert_uint_eq(out[12], (uint32_t)-5);
  ck_assert_uint_eq(out[13], 3);
  ck_assert_uint_eq(out[14], 0xffffff00u);
  ck_assert_uint_eq(out[15], 7);
  ck_assert_uint_eq(out[16], 55);
  ck_assert_uint_eq(out[17], 0);
  ck_assert_uint_eq(out[18], 0x3f0u);   /* MODE from rsrc1: denormals, DX10 clamp, IEEE */
  ck_assert_uint_eq(out[19], 0xabcd1234u);
  uint64_t pc = out[20] | (uint64_t)out[21] << 32;   /* s[30:31] */
  ck_assert(pc > (uintptr_t)code && pc < (uintptr_t)code + 4096);
}
END_TEST

/* ---- more scalar operations, one snippet each: the result in s[6:7], SCC in s8 ---- */
struct sop_case {
  const char *code;
  uint64_t want;
  int scc;   /* -1: not checked */
};

static const struct sop_case sop_cases[] = {
  {"s_mov_b32 s6, 0x01000080\ns_wqm_b32 s6, s6\ns_mov_b32 s7, 0", 0x0f0000f0, 1},
  {"s_mov_b64 s[6:7], 0x10\ns_mov_b32 s7, 0x100\ns_quadmask_b64 s[6:7], s[6:7]", 0x402, 1},
  {"s_bitreplicate_b64_b32 s[6:7], 0x80000005", 0xc000000000000033ull, -1},
  {"s_mov_b64 exec, 0xff\ns_mov_b64 s[2:3], 0x0f\ns_andn1_wrexec_b64 s[6:7], s[2:3]", 0xf0, 1},
  {"s_mov_b32 s10, 77\ns_mov_b32 m0, 4\ns_movrels_b32 s6, s6\ns_mov_b32 s7, 0", 77, -1},
  {"s_mov_b32 m0, 1\ns_movreld_b32 s6, 99\ns_mov_b32 s6, 0", 99ull << 32, -1},
  {"s_movk_i32 s6, 0xfffe\ns_cmpk_lt_i32 s6, 0x1\ns_mov_b32 s7, 0", 0xfffffffe, 1},
  {"s_movk_i32 s6, 0xfffe\ns_cmpk_lt_u32 s6, 0x1\ns_mov_b32 s7, 0", 0xfffffffe, 0},
  {"s_mov_b32 s6, 0x7fffffff\ns_addk_i32 s6, 0x1\ns_mov_b32 s7, 0", 0x80000000, 1},
  {"s_mov_b64 s[6:7], 0x80000000\ns_lshl_b64 s[6:7], s[6:7], 31\ns_bitcmp1_b64 s[6:7], 62", 1ull << 62, 1},
  {"s_cmp_eq_u32 0, 0\ns_cselect_b64 s[6:7], -1, 0", ~0ull, 1},
  {"s_mov_b32 s6, 0\ns_mov_b32 s7, 0x80\ns_bfe_i64 s[6:7], s[6:7], 0x40024", ~0ull << 3, 1},
  {"s_mov_b32 s6, 0\ns_mov_b32 s7, 0x80000000\ns_ashr_i64 s[6:7], s[6:7], 40", ~0ull << 23, 1},
  {"s_mov_b32 s6, 0\ns_mov_b32 s7, 0xffff0000\ns_flbit_i32_i64 s6, s[6:7]\ns_mov_b32 s7, 0", 16, -1},
  {"s_ff0_i32_b32 s6, 0xff\ns_mov_b32 s7, 0", 8, -1},
  {"s_bcnt0_i32_b32 s6, 0xff\ns_mov_b32 s7, 0", 24, 1},
  {"s_sext_i32_i8 s6, 0x80\ns_mov_b32 s7, 0", 0xffffff80u, -1},
  {"s_mov_b64 s[6:7], 0\ns_bitset1_b64 s[6:7], 33", 1ull << 33, -1},
  {"s_mov_b64 s[6:7], 1.0", 0x3ff0000000000000ull, -1},
  /* a 32-bit literal zero-extends into a b64 operand and sign-extends into an i64 one */
  {"s_mov_b64 s[6:7], 0xfffffff0", 0xfffffff0ull, -1},
  {"s_ashr_i64 s[6:7], 0xfffffff0, 1", 0xfffffffffffffff8ull, 1},
  {"s_mov_b32 s6, -2\ns_mov_b32 s7, 0\ns_absdiff_i32 s6, s6, 5", 7, 1},
  {"s_mov_b32 s6, 0x40000000\ns_lshl2_add_u32 s6, s6, 1\ns_mov_b32 s7, 0", 1, 1},
  {"s_mov_b32 s6, -7\ns_mul_hi_i32 s6, s6, 0x40000000\ns_mov_b32 s7, 0", 0xfffffffeu, -1},
  {"s_mov_b32 s6, 5\ns_mov_b32 s7, 0\ns_cmp_lg_u64 s[6:7], 5", 5, 0},
  {"s_mov_b64 vcc, 0\ns_mov_b64 s[6:7], 1\ns_cbranch_vccz 1\ns_mov_b64 s[6:7], 2", 1, -1},
  {"s_getpc_b64 s[6:7]\ns_add_u32 s6, s6, 16\ns_addc_u32 s7, s7, 0\ns_setpc_b64 s[6:7]\n"
   "s_mov_b64 s[6:7], 3\ns_mov_b64 s[6:7], 4", 4, -1},
  {"s_call_b64 s[2:3], 2\ns_mov_b64 s[6:7], 6\ns_branch 2\ns_mov_b64 s[6:7], 5\ns_setpc_b64 s[2:3]",
   6, -1},
  {"s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 0xb\ns_getreg_b32 s6, hwreg(HW_REG_MODE)\n"
   "s_mov_b32 s7, 0", 0x3fb, -1},
};

START_TEST(scalar_ops_table)
{
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  const struct sop_case *c = &sop_cases[_i];
  char src[512];
  snprintf(src, sizeof src, "%s\ns_cselect_b32 s8, 1, 0\ns_store_dwordx2 s[6:7], s[0:1], 0x0\n"
           "s_store_dword s8, s[0:1], 0x8\ns_endpgm\n", c->code);
  void *code = isa_fx_code(src);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)out, 0);
  ck_assert_msg(isa_fx_go(&r) == 0, "%s: fault: %s", c->code, r.fault.text);
  uint64_t got = out[0] | (uint64_t)out[1] << 32;
  ck_assert_msg(got == c->want, "%s: got 0x%llx want 0x%llx", c->code, (unsigned long long)got,
                (unsigned long long)c->want);
  if (c->scc >= 0)
    ck_assert_msg(out[2] == (uint32_t)c->scc, "%s: scc %u", c->code, out[2]);
}
END_TEST

/* ---- exec masking, saveexec and branches on exec ---- */
START_TEST(exec_masking)
{
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  void *code = isa_fx_code(
    "s_mov_b64 s[6:7], exec\n"
    "s_mov_b32 exec_lo, 5\n"
    "s_mov_b32 exec_hi, 0x80000000\n"
    "global_store_dword v1, v0, s[2:3]\n"      /* lanes 0, 2, 63 */
    "s_mov_b64 s[8:9], 0x30\n"
    "s_and_saveexec_b64 s[10:11], s[8:9]\n"    /* exec = 0x5 & 0x30 = 0 */
    "s_cbranch_execz L_skip\n"
    "global_store_dword v1, v1, s[2:3]\n"      /* must not run */
    "L_skip:\n"
    "s_mov_b64 exec, s[10:11]\n"
    "s_andn2_b64 exec, s[6:7], exec\n"         /* every lane but 0, 2, 63 */
    "s_mov_b64 exec, 0x2\n"
    "global_store_dword v1, v2, s[2:3] offset:256\n"   /* lane 1 writes out[64 + 1] */
    "s_endpgm\n");
  NEED(code);
  for (unsigned i = 0; i < 128; i++)
    out[i] = 0xdead;
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned i = 0; i < 64; i++)
    ck_assert_uint_eq(out[i], (i == 0 || i == 2 || i == 63) ? i : 0xdead);
  ck_assert_uint_eq(out[65], 4 * (63 - 1));
  ck_assert_uint_eq(out[64], 0xdead);
}
END_TEST

/* ---- a block store whose inactive lanes' slots lie before the buffer: no fault ---- */
START_TEST(block_store_partial_exec)
{
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  void *code = isa_fx_code(
    "s_mov_b32 exec_lo, 0xfffffff0\n"
    "s_mov_b32 exec_hi, 0x7fffffff\n"
    "global_store_dword v1, v0, s[2:3] offset:-16\n"   /* lanes 0..3 would be before out */
    "s_endpgm\n");
  NEED(code);
  for (unsigned i = 0; i < 64; i++)
    out[i] = 0xdead;
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned l = 4; l < 64; l++)
    ck_assert_uint_eq(out[l - 4], l == 63 ? 0xdead : l);
  ck_assert_uint_eq(out[60], 0xdead);
}
END_TEST

/* ---- LDS and s_barrier across 4 waves ---- */
START_TEST(lds_barrier_4_waves)
{
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  void *code = isa_fx_code(
    "ds_write_b32 v1, v0\n"           /* lds[id] = id */
    "s_waitcnt lgkmcnt(0)\n"
    "s_barrier\n"
    "ds_read_b32 v3, v2\n"            /* lds[255 - id]: written by another wave */
    "ds_read2_b32 v[4:5], v1 offset1:1\n"
    "ds_add_rtn_u32 v6, v1, v0 offset:1024\n"  /* lds[256 + id] += id: old value is 0 */
    "s_waitcnt lgkmcnt(0)\n"
    "global_store_dword v1, v3, s[2:3]\n"
    "global_store_dword v1, v5, s[2:3] offset:1024\n"
    "global_store_dword v1, v6, s[2:3] offset:2048\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 4, 0, (uintptr_t)out);
  r.wg.lds_bytes = 2048;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned i = 0; i < 256; i++) {
    ck_assert_uint_eq(out[i], 255 - i);
    ck_assert_uint_eq(out[256 + i], i == 255 ? 0 : i + 1);   /* lds[1024] is the add area: 0 */
    ck_assert_uint_eq(out[512 + i], 0);
  }
}
END_TEST

START_TEST(lds_out_of_range_and_swizzle)
{
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  void *code = isa_fx_code(
    "ds_write_b32 v1, v0\n"
    "ds_write_b32 v1, v0 offset:512\n"            /* beyond the 512-byte granule: dropped */
    "ds_read_b32 v3, v1 offset:512\n"             /* beyond: 0 */
    "ds_write_b32 v1, v1 offset:256\n"            /* past lds_bytes, inside the granule */
    "ds_read_b32 v8, v1 offset:256\n"
    "ds_swizzle_b32 v4, v1 offset:swizzle(SWAP,1)\n"          /* data comes from ADDR */
    "ds_swizzle_b32 v6, v0 offset:swizzle(QUAD_PERM,3,2,1,0)\n"
    "ds_swizzle_b32 v7, v0 offset:swizzle(BROADCAST,8,2)\n"
    "ds_bpermute_b32 v5, v2, v0\n"                /* lane l reads lane 63 - l */
    "s_waitcnt lgkmcnt(0)\n"
    "global_store_dword v1, v3, s[2:3]\n"
    "global_store_dword v1, v4, s[2:3] offset:256\n"
    "global_store_dword v1, v5, s[2:3] offset:512\n"
    "global_store_dword v1, v6, s[2:3] offset:768\n"
    "global_store_dword v1, v7, s[2:3] offset:1024\n"
    "global_store_dword v1, v8, s[2:3] offset:1280\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, (uintptr_t)out);
  r.wg.lds_bytes = 260;   /* allocated in 512-byte granules */
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned i = 0; i < 64; i++) {
    ck_assert_uint_eq(out[i], 0);
    ck_assert_uint_eq(out[64 + i], 4 * (i ^ 1));
    ck_assert_uint_eq(out[128 + i], 63 - i);
    ck_assert_uint_eq(out[192 + i], (i & ~3u) | (3 - (i & 3)));
    ck_assert_uint_eq(out[256 + i], (i & ~7u) | 2);
    ck_assert_uint_eq(out[320 + i], 4 * i);
  }
}
END_TEST

/* ---- global loads, stores, atomics ---- */
START_TEST(global_memory_and_atomics)
{
  fx_open();
  uint32_t *in = isa_fx_mem(8192), *out = isa_fx_mem(8192);
  for (unsigned i = 0; i < 256; i++)
    in[i] = i * 3 + 1;
  in[1024] = 0;   /* the counter, at byte 4096 */
  uint64_t *q = (uint64_t *)(in + 1100);
  q[0] = 5;
  void *code = isa_fx_code(
    "global_load_dword v3, v1, s[0:1]\n"
    "s_add_u32 s8, s0, 8\n"
    "s_addc_u32 s9, s1, 0\n"
    "global_load_dwordx2 v[4:5], v1, s[8:9] offset:-4\n"   /* negative offset: in[id + 1] */
    "s_waitcnt vmcnt(0)\n"
    "global_store_dword v1, v3, s[2:3]\n"
    "global_store_dword v1, v4, s[2:3] offset:1024\n"
    "s_add_u32 s6, s0, 4096\n"
    "s_addc_u32 s7, s1, 0\n"
    "global_atomic_add v7, v1, v0, s[6:7] glc\n"
    "s_waitcnt vmcnt(0)\n"
    "global_store_dword v1, v7, s[2:3] offset:2048\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 4, (uintptr_t)in, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned i = 0; i < 256; i++) {
    ck_assert_uint_eq(out[i], i * 3 + 1);
    ck_assert_uint_eq(out[256 + i], i < 255 ? (i + 1) * 3 + 1 : 0);
    ck_assert_uint_eq(in[1024 + i], i + (1024 + i == 1100 ? 5 : 0));
    ck_assert_uint_eq(out[512 + i], 1024 + i == 1100 ? 5 : 0);
  }
}
END_TEST

START_TEST(global_atomic_contention)
{
  fx_open();
  uint32_t *buf = isa_fx_mem(8192), *out = isa_fx_mem(8192);
  void *code = isa_fx_code(
    "global_load_dword v3, v1, s[0:1] offset:1024\n"      /* zeros */
    "s_waitcnt vmcnt(0)\n"
    "global_atomic_add v4, v3, v0, s[0:1] glc\n"          /* everyone adds id to buf[0] */
    "global_atomic_umax v3, v0, s[0:1] offset:4\n"
    "global_load_dword v5, v3, s[0:1] offset:8\n"
    "s_waitcnt vmcnt(0)\n"
    "global_atomic_cmpswap_x2 v[6:7], v3, v[4:7], s[0:1] offset:16 glc\n"
    "s_waitcnt vmcnt(0)\n"
    "global_store_dword v1, v4, s[2:3]\n"
    "s_endpgm\n");
  NEED(code);
  memset(buf, 0, 8192);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 4, (uintptr_t)buf, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  ck_assert_uint_eq(buf[0], 255 * 256 / 2);
  ck_assert_uint_eq(buf[1], 255);
  /* the returned old values are the distinct partial sums */
  static bool seen[255 * 256 / 2 + 1];
  memset(seen, 0, sizeof seen);
  for (unsigned i = 0; i < 256; i++) {
    ck_assert_uint_le(out[i], 255 * 256 / 2);
    ck_assert(!seen[out[i]] || out[i] == 0);
    seen[out[i]] = true;
  }
}
END_TEST

/* ---- buffer loads through a V#: out-of-range reads return 0 ---- */
START_TEST(buffer_out_of_range)
{
  fx_open();
  uint32_t *in = isa_fx_mem(4096), *out = isa_fx_mem(4096);
  for (unsigned i = 0; i < 64; i++)
    in[i] = 1000 + i;
  void *code = isa_fx_code(
    "s_mov_b32 s8, s0\n"
    "s_and_b32 s9, s1, 0xffff\n"          /* stride 0 */
    "s_mov_b32 s10, 100\n"                /* num_records: 100 bytes */
    "s_mov_b32 s11, 0x27000\n"            /* dst_sel/format: a raw dword buffer */
    "buffer_load_dword v3, v1, s[8:11], 0 offen\n"
    "buffer_load_dword v4, v1, s[8:11], 0 offen offset:8\n"
    "s_movk_i32 s12, 0x4\n"
    "buffer_load_dword v5, v1, s[8:11], s12 offen\n"
    "s_waitcnt vmcnt(0)\n"
    "global_store_dword v1, v3, s[2:3]\n"
    "global_store_dword v1, v4, s[2:3] offset:256\n"
    "global_store_dword v1, v5, s[2:3] offset:512\n"
    "buffer_store_dword v0, v1, s[8:11], 0 offen offset:1024\n"   /* all out of range */
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)in, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned i = 0; i < 64; i++) {
    ck_assert_uint_eq(out[i], 4 * i < 100 ? 1000 + i : 0);
    ck_assert_uint_eq(out[64 + i], 4 * i + 8 < 100 ? 1000 + i + 2 : 0);
    ck_assert_uint_eq(out[128 + i], 4 * i + 4 < 100 ? 1000 + i + 1 : 0);
    ck_assert_uint_eq(in[256 + i], 0);
  }
}
END_TEST

/* ---- scratch: flat scratch and the private segment buffer see the same swizzled layout ---- */
START_TEST(scratch_swizzle)
{
  fx_open();
  uint8_t *scratch = isa_fx_mem(2 * 65536);
  uint32_t *out = isa_fx_mem(4096);
  void *code = isa_fx_code(
    "s_mov_b32 flat_scratch_lo, s0\n"           /* this wave's slice: base + wave offset */
    "s_mov_b32 flat_scratch_hi, s1\n"
    "s_mov_b32 s5, 0\n"
    "scratch_store_dword off, v0, s5 offset:8\n"      /* private dword 2 of every lane */
    "scratch_store_dword v1, v2, off offset:64\n"     /* private byte 64 + 4 * id */
    "scratch_load_dword v3, off, s5 offset:8\n"
    "s_waitcnt vmcnt(0)\n"
    "global_store_dword v1, v3, s[2:3]\n"
    /* the private segment buffer as the runtime builds it: swizzled, ADD_TID, 4/64 */
    "s_mov_b32 s8, s0\n"
    "s_and_b32 s9, s1, 0xffff\n"
    "s_or_b32 s9, s9, 0x80000000\n"
    "s_mov_b32 s10, 0x20000\n"
    "s_mov_b32 s11, 0xea4000\n"
    "s_mov_b32 s12, 0x10000\n"                       /* soffset: the second wave slice */
    "buffer_store_dword v0, off, s[8:11], s12 offset:12\n"
    "buffer_load_dword v4, off, s[8:11], 0 offset:8\n"
    "s_waitcnt vmcnt(0)\n"
    "global_store_dword v1, v4, s[2:3] offset:256\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)scratch, (uintptr_t)out);
  r.wg.scratch_base = (uintptr_t)scratch;
  r.wg.scratch_per_wave = 65536;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned l = 0; l < 64; l++) {
    uint32_t v;
    memcpy(&v, scratch + 2 * 256 + 4 * l, 4);       /* dword 2 of lane l */
    ck_assert_uint_eq(v, l);
    ck_assert_uint_eq(out[l], l);
    ck_assert_uint_eq(out[64 + l], l);
    memcpy(&v, scratch + 65536 + 3 * 256 + 4 * l, 4);
    ck_assert_uint_eq(v, l);
  }
  /* byte 64 + 4l of lane l is dword 16 + l: at (16 + l) * 256 + 4 * l */
  for (unsigned l = 0; l < 64; l++) {
    uint32_t v;
    memcpy(&v, scratch + (16 + l) * 256 + 4 * l, 4);
    ck_assert_uint_eq(v, 4 * (63 - l));
  }
}
END_TEST

/* ---- faults ---- */
/* A GPUVM fault (XNACK off) is a memory-violation exception: with no second-level handler the
 * first level halts the wave at the access (the VM fault interrupt reports it to the driver). */
START_TEST(fault_unmapped_address)
{
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  size_t len;
  uint8_t *code = isa_fx_code_for("gfx900",
    "s_nop 0\n"
    "global_load_dword v3, v1, s[0:1] offset:16\n"
    "s_endpgm\n", &len);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0x7000000000ull, (uintptr_t)out);
  r.init[0].exec = 0xf0;   /* first active lane: 4 */
  ck_assert_int_eq(isa_fx_go(&r), -1);
  ck_assert_int_eq(r.fault.kind, SIM_ISA_HALTED);
  ck_assert_uint_eq(r.fault.pc, (uintptr_t)code + 4);
}
END_TEST

/* An opcode no gfx9 chip has is an illegal instruction to the hardware: TRAPSTS.ILLEGAL_INST,
 * and with no second-level handler the first level halts the wave at it (a named instruction
 * the model does not implement stays a simulator fault: agpr_memory_faults). */
START_TEST(unknown_opcode_halts_without_handler)
{
  fx_open();
  uint8_t *code = isa_fx_code(
    "s_nop 0\n"
    ".long 0xbe803f00\n"     /* SOP1 opcode 0x3f: none */
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 2, 0, 0);
  ck_assert_int_eq(isa_fx_go(&r), -1);
  ck_assert_int_eq(r.fault.kind, SIM_ISA_HALTED);
  ck_assert_uint_eq(r.fault.pc, (uintptr_t)code + 4);   /* at the illegal instruction */
  ck_assert_msg(strstr(r.fault.text, "halted") != NULL, "%s", r.fault.text);
}
END_TEST

/* With no second-level trap handler installed, the kernel's first-level handler steps over
 * an s_trap and returns with STATUS (SCC here) as it was: the wave goes on. */
START_TEST(trap_without_handler_steps_over)
{
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  uint8_t *code = isa_fx_code(
    "s_cmp_eq_u32 0, 0\n"                    /* SCC = 1 across the trap */
    "s_trap 2\n"
    "s_cselect_b32 s5, 0x22, 0x33\n"
    "s_store_dword s5, s[2:3], 0x0\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  ck_assert_uint_eq(out[0], 0x22);
}
END_TEST

START_TEST(fault_trap_and_vgpr_limit)
{
  fx_open();
  struct isa_fx_run r;
  uint8_t *code2 = isa_fx_code("global_load_dword v40, v1, s[0:1]\ns_endpgm\n");
  isa_fx_setup(&r, code2, 1, 0, 0);
  r.wg.vgpr_alloc = 8;
  ck_assert_int_eq(isa_fx_go(&r), -1);
  ck_assert_int_eq(r.fault.kind, SIM_ISA_FAULT_ILLEGAL);
  ck_assert_msg(strstr(r.fault.text, "v40") != NULL, "%s", r.fault.text);
}
END_TEST

/* ---- rewritten code is never run stale ---- */
START_TEST(rewritten_code_runs_fresh)
{
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  size_t len;
  uint32_t *code = isa_fx_code_for("gfx900",
    "s_movk_i32 s5, 0x1\n"
    "s_store_dword s5, s[2:3], 0x0\n"
    "s_endpgm\n", &len);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, (uintptr_t)out);
  ck_assert_int_eq(isa_fx_go(&r), 0);
  ck_assert_uint_eq(out[0], 1);
  code[0] = (code[0] & 0xffff0000u) | 0x2;   /* s_movk_i32 s5, 0x2 */
  ck_assert_int_eq(isa_fx_go(&r), 0);
  ck_assert_uint_eq(out[0], 2);
  sim_isa_invalidate(sim_gpu(0), 0, 0);
  code[0] = (code[0] & 0xffff0000u) | 0x3;
  ck_assert_int_eq(isa_fx_go(&r), 0);
  ck_assert_uint_eq(out[0], 3);
}
END_TEST

/* ---- the decoder takes any words: sizes stay 4, 8 or 12 and describe never overruns ---- */
START_TEST(decode_random_words)
{
  fx_open();
  uint32_t *page = isa_fx_mem(4096);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (unsigned round = 0; round < 200; round++) {
    for (unsigned i = 0; i < 1024; i++) {
      x ^= x << 13; x ^= x >> 7; x ^= x << 17;
      page[i] = (uint32_t)x;
    }
    sim_isa_invalidate(sim_gpu(0), (uintptr_t)page, 4096);
    for (unsigned off = 0; off < 4096; off += 4) {
      char buf[48];
      memset(buf, 0x55, sizeof buf);
      unsigned n = sim_isa_describe(sim_gpu(0), (uintptr_t)page + off, buf, 40);
      ck_assert(n == 0 || n == 4 || n == 8 || n == 12);
      ck_assert_uint_eq((uint8_t)buf[40], 0x55);   /* nothing written past the size given */
      if (n)
        ck_assert_uint_lt(strlen(buf), 40);
    }
  }
  char tiny[1];
  ck_assert_uint_eq(sim_isa_describe(sim_gpu(0), 0x1000, tiny, 1), 0);   /* unmapped */
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("isa_core");
  TCase *t = tcase_create("core");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, scalar_alu);
  tcase_add_loop_test(t, scalar_ops_table, 0, sizeof sop_cases / sizeof sop_cases[0]);
  tcase_add_test(t, exec_masking);
  tcase_add_test(t, block_store_partial_exec);
  tcase_add_test(t, lds_barrier_4_waves);
  tcase_add_test(t, lds_out_of_range_and_swizzle);
  tcase_add_test(t, global_memory_and_atomics);
  tcase_add_test(t, global_atomic_contention);
  tcase_add_test(t, buffer_out_of_range);
  tcase_add_test(t, scratch_swizzle);
  tcase_add_test(t, fault_unmapped_address);
  tcase_add_test(t, unknown_opcode_halts_without_handler);
  tcase_add_test(t, fault_trap_and_vgpr_limit);
  tcase_add_test(t, trap_without_handler_steps_over);
  tcase_add_test(t, rewritten_code_runs_fresh);
  tcase_add_test(t, decode_random_words);
  suite_add_tcase(s, t);
  return s;
}
