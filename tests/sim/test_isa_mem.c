/* SPDX-License-Identifier: MIT */
/* test_isa_mem.c — sim/isa memory paths beyond the basics: FLAT addressing of the LDS and
 * private apertures, scalar buffer loads, MTBUF format conversions, 64-bit LDS atomics,
 * the trap handler, and workgroups on several threads hitting one atomic counter. */
#include <pthread.h>

#include "kfd_fixture.h"
#include "isa_fixture.h"

#define NEED(code) do { if (!(code)) { fprintf(stderr, "llvm-mc missing: skipped\n"); return; } } while (0)

uint64_t sim_gpu_clock_counter(void);   /* sim/kfd: GET_CLOCK_COUNTERS' GPU counter */

#define SHARED_BASE 0x1000000000000ull
#define PRIVATE_BASE 0x2000000000000ull

START_TEST(flat_reaches_lds_and_private)
{
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  uint8_t *scratch = isa_fx_mem(65536);
  void *code = isa_fx_code(
    "s_mov_b32 flat_scratch_lo, s0\n"
    "s_mov_b32 flat_scratch_hi, s1\n"
    "s_getreg_b32 s6, hwreg(HW_REG_SH_MEM_BASES, 16, 16)\n"
    "s_lshl_b32 s7, s6, 16\n"                        /* shared aperture, high half */
    "s_getreg_b32 s6, hwreg(HW_REG_SH_MEM_BASES, 0, 16)\n"
    "s_lshl_b32 s9, s6, 16\n"                        /* private aperture, high half */
    "s_mov_b64 s[10:11], src_shared_base\n"
    "s_store_dwordx2 s[10:11], s[2:3], 0x300\n"
    "s_store_dword s7, s[2:3], 0x308\n"
    "s_store_dword s9, s[2:3], 0x30c\n"
    "v_mov_b32_e32 v2, s7\n"
    "flat_store_dword v[1:2], v0\n"                  /* v2 = s7: LDS byte 4 * id */
    "s_waitcnt lgkmcnt(0)\n"
    "ds_read_b32 v3, v1\n"
    "v_mov_b32_e32 v2, s9\n"
    "flat_store_dword v[1:2], v0 offset:16\n"        /* private: byte 16 + 4 id of the lane */
    "flat_load_dword v4, v[1:2] offset:16\n"
    "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
    "global_store_dword v1, v3, s[2:3]\n"
    "global_store_dword v1, v4, s[2:3] offset:256\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)scratch, (uintptr_t)out);
  r.wg.lds_bytes = 256;
  r.wg.shared_base = SHARED_BASE;
  r.wg.shared_limit = SHARED_BASE + 0xffffffffull;
  r.wg.private_base = PRIVATE_BASE;
  r.wg.private_limit = PRIVATE_BASE + 0xffffffffull;
  r.init[0].vgpr_count = 2;   /* v2 is set by the code */
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  ck_assert_uint_eq(out[192], 0);
  ck_assert_uint_eq(out[193], (uint32_t)(SHARED_BASE >> 32));
  ck_assert_uint_eq(out[194], (uint32_t)(SHARED_BASE >> 32));
  ck_assert_uint_eq(out[195], (uint32_t)(PRIVATE_BASE >> 32));
  for (unsigned l = 0; l < 64; l++) {
    ck_assert_uint_eq(out[l], l);
    ck_assert_uint_eq(out[64 + l], l);
    uint32_t v;   /* private byte 16 + 4l of lane l: dword 4 + l, swizzled */
    memcpy(&v, scratch + (4 + l) * 256 + 4 * l, 4);
    ck_assert_uint_eq(v, l);
  }
}
END_TEST

START_TEST(scalar_buffer_and_atomics)
{
  fx_open();
  uint32_t *in = isa_fx_mem(4096), *out = isa_fx_mem(4096);
  for (unsigned i = 0; i < 64; i++)
    in[i] = 500 + i;
  in[100] = 7;
  void *code = isa_fx_code(
    "s_mov_b32 s8, s0\n"
    "s_and_b32 s9, s1, 0xffff\n"
    "s_mov_b32 s10, 24\n"                   /* 24 bytes: six dwords */
    "s_mov_b32 s11, 0\n"
    "s_buffer_load_dwordx8 s[12:19], s[8:11], 0x4\n"   /* dwords 1..8: 6..8 are out of range */
    "s_mov_b32 s20, 0x190\n"
    "s_load_dword s21, s[0:1], s20\n"       /* offset in an SGPR: in[100] */
    "s_mov_b32 s22, 5\n"
    "s_atomic_add s22, s[0:1], 0x190 glc\n" /* in[100] += 5, returns 7 */
    "s_waitcnt lgkmcnt(0)\n"
    "s_store_dwordx4 s[12:15], s[2:3], 0x0\n"
    "s_store_dwordx4 s[16:19], s[2:3], 0x10\n"
    "s_store_dword s21, s[2:3], 0x20\n"
    "s_store_dword s22, s[2:3], 0x24\n"
    "s_memtime s[24:25]\n"
    "s_memtime s[26:27]\n"
    "s_memrealtime s[28:29]\n"
    "s_waitcnt lgkmcnt(0)\n"
    "s_store_dwordx4 s[24:27], s[2:3], 0x28\n"
    "s_store_dwordx2 s[28:29], s[2:3], 0x38\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)in, (uintptr_t)out);
  uint64_t before = sim_gpu_clock_counter();
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  uint64_t after = sim_gpu_clock_counter();
  uint64_t real = out[14] | (uint64_t)out[15] << 32;   /* the driver's reference clock */
  ck_assert(real >= before && real <= after);
  for (unsigned i = 0; i < 8; i++)
    ck_assert_uint_eq(out[i], i < 5 ? 501 + i : 0);
  ck_assert_uint_eq(out[8], 7);
  ck_assert_uint_eq(out[9], 7);
  ck_assert_uint_eq(in[100], 12);
  uint64_t t0 = out[10] | (uint64_t)out[11] << 32, t1 = out[12] | (uint64_t)out[13] << 32;
  ck_assert(t1 >= t0 && t0 != 0);
}
END_TEST

START_TEST(smem_negative_offset)
{
  /* s_load's immediate offset is 21 bits signed on gfx9: base + (-8) is 8 bytes below the
   * base (rocSPARSE's gtsv reads rhs_scratch[i - 1] so). An SGPR offset adds unsigned. */
  fx_open();
  uint32_t *in = isa_fx_mem(4096), *out = isa_fx_mem(4096);
  for (unsigned i = 0; i < 64; i++)
    in[i] = 900 + i;
  void *code = isa_fx_code(
    "s_add_u32 s4, s0, 0x40\n"               /* s[4:5] = &in[16] */
    "s_addc_u32 s5, s1, 0\n"
    "s_load_dword s6, s[4:5], -0x8\n"        /* in[14] */
    "s_load_dwordx2 s[8:9], s[4:5], -0x40\n" /* in[0], in[1] */
    "s_mov_b32 s10, 8\n"
    "s_load_dword s7, s[4:5], s10\n"         /* in[18] */
    "s_waitcnt lgkmcnt(0)\n"
    "s_store_dword s6, s[2:3], 0x0\n"
    "s_store_dwordx2 s[8:9], s[2:3], 0x4\n"
    "s_store_dword s7, s[2:3], 0xc\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)in, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  ck_assert_uint_eq(out[0], 914);
  ck_assert_uint_eq(out[1], 900);
  ck_assert_uint_eq(out[2], 901);
  ck_assert_uint_eq(out[3], 918);
}
END_TEST

START_TEST(mtbuf_formats)
{
  fx_open();
  uint8_t *in = isa_fx_mem(4096);
  uint32_t *out = isa_fx_mem(4096);
  for (unsigned i = 0; i < 256; i++)
    in[i] = (uint8_t)(i * 5);
  void *code = isa_fx_code(
    "s_mov_b32 s8, s0\n"
    "s_and_b32 s9, s1, 0xffff\n"
    "s_mov_b32 s10, 4096\n"
    "s_mov_b32 s11, 0\n"
    "v_lshlrev_b32_e32 v3, 1, v0\n"           /* 2 bytes per lane */
    "tbuffer_load_format_xy v[4:5], v3, s[8:11], 0 format:[BUF_DATA_FORMAT_8_8, BUF_NUM_FORMAT_UINT] offen\n"
    "tbuffer_load_format_x v6, v3, s[8:11], 0 format:[BUF_DATA_FORMAT_8, BUF_NUM_FORMAT_UNORM] offen\n"
    "v_cvt_f32_u32_e32 v7, v0\n"
    "tbuffer_store_format_x v7, v1, s[8:11], 0 format:[BUF_DATA_FORMAT_16, BUF_NUM_FORMAT_FLOAT] offen offset:1024\n"
    "s_waitcnt vmcnt(0)\n"
    "global_store_dword v1, v4, s[2:3]\n"
    "global_store_dword v1, v5, s[2:3] offset:256\n"
    "global_store_dword v1, v6, s[2:3] offset:512\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)in, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned l = 0; l < 64; l++) {
    ck_assert_uint_eq(out[l], in[2 * l]);
    ck_assert_uint_eq(out[64 + l], in[2 * l + 1]);
    float f;
    memcpy(&f, &out[128 + l], 4);
    ck_assert_msg(f == (float)in[2 * l] / 255.0f, "lane %u: %g", l, f);
    /* half of l, 2 bytes at 1024 + 4l */
    uint16_t h;
    memcpy(&h, in + 1024 + 4 * l, 2);
    _Float16 hf;
    memcpy(&hf, &h, 2);
    ck_assert_msg((float)hf == (float)l, "lane %u: half %#x", l, h);
  }
}
END_TEST

/* 16_16_16_16 is one 8-byte element of four 16-bit components (it was read as four dwords,
 * 16 bytes, never unpacked). */
START_TEST(mtbuf_format_16x4)
{
  fx_open();
  uint16_t *in = isa_fx_mem(4096);
  uint32_t *out = isa_fx_mem(8192);
  for (unsigned i = 0; i < 2048; i++)
    in[i] = (uint16_t)(i * 977 + 3);
  void *code = isa_fx_code(
    "s_mov_b32 s8, s0\n"
    "s_and_b32 s9, s1, 0xffff\n"
    "s_mov_b32 s10, 4096\n"
    "s_mov_b32 s11, 0\n"
    "v_lshlrev_b32_e32 v3, 3, v0\n"           /* 8 bytes per lane */
    "tbuffer_load_format_xyzw v[4:7], v3, s[8:11], 0 format:[BUF_DATA_FORMAT_16_16_16_16, BUF_NUM_FORMAT_UINT] offen\n"
    "s_waitcnt vmcnt(0)\n"
    "v_lshlrev_b32_e32 v8, 4, v0\n"
    "global_store_dwordx4 v8, v[4:7], s[2:3]\n"
    "v_add_u32_e32 v4, 1, v4\n"
    "tbuffer_store_format_xy v[4:5], v3, s[8:11], 0 format:[BUF_DATA_FORMAT_16_16_16_16, BUF_NUM_FORMAT_UINT] offen offset:2048\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)in, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned l = 0; l < 64; l++) {
    for (unsigned c = 0; c < 4; c++)
      ck_assert_msg(out[4 * l + c] == in[4 * l + c], "lane %u comp %u: %#x, want %#x", l, c,
                    out[4 * l + c], in[4 * l + c]);
    /* the store writes x and y of its element and keeps z and w */
    ck_assert_uint_eq(in[1024 + 4 * l], (uint16_t)(in[4 * l] + 1));
    ck_assert_uint_eq(in[1024 + 4 * l + 1], in[4 * l + 1]);
    ck_assert_uint_eq(in[1024 + 4 * l + 2], (uint16_t)((1024 + 4 * l + 2) * 977 + 3));
  }
}
END_TEST

/* MUBUF's d16 format forms take the format from the V# (gfx9: DST_SEL [11:0], NUM_FORMAT
 * [14:12], DATA_FORMAT [18:15]) and move packed halves: s[8:11] is 8_8_8_8_UNORM with DST_SEL
 * (Z, Y, X, 1), s[12:15] 8_8_SINT. Loads: xyzw (halves of Z/255, Y/255, X/255, 1.0 by the
 * host's _Float16), xyz (the odd count's last high half 0), _hi_x (the high half, the low one
 * kept), xy SINT (16-bit sign-extended bytes). Stores (no select): xyzw writes the halves'
 * bytes back in x y z w order, _hi_x the high half's byte as x and keeps the other three. */
START_TEST(mubuf_format_d16)
{
  fx_open();
  uint8_t *in = isa_fx_mem(4096);
  uint32_t *out = isa_fx_mem(4096);
  for (unsigned i = 0; i < 4096; i++)
    in[i] = i < 256 ? (uint8_t)(i * 67 + 3) : 0xee;
  void *code = isa_fx_code(
    "s_mov_b32 s8, s0\n"
    "s_and_b32 s9, s1, 0xffff\n"
    "s_mov_b32 s10, 4096\n"
    "s_mov_b32 s11, 0x5032e\n"                /* DST_SEL Z Y X 1, 8_8_8_8, UNORM */
    "s_mov_b32 s12, s0\n"
    "s_mov_b32 s13, s9\n"
    "s_mov_b32 s14, 4096\n"
    "s_mov_b32 s15, 0x1d02c\n"                /* DST_SEL X Y 0 0, 8_8, SINT */
    "v_lshlrev_b32_e32 v3, 2, v0\n"
    "buffer_load_format_d16_xyzw v[4:5], v3, s[8:11], 0 offen\n"
    "v_mov_b32_e32 v7, -1\n"
    "buffer_load_format_d16_xyz v[6:7], v3, s[8:11], 0 offen\n"
    "v_mov_b32_e32 v8, 0x1234abcd\n"
    "buffer_load_format_d16_hi_x v8, v3, s[8:11], 0 offen\n"
    "buffer_load_format_d16_xy v9, v3, s[12:15], 0 offen\n"
    "s_waitcnt vmcnt(0)\n"
    "buffer_store_format_d16_xyzw v[4:5], v3, s[8:11], 0 offen offset:1024\n"
    "buffer_store_format_d16_hi_x v8, v3, s[8:11], 0 offen offset:2048\n"
    "global_store_dword v3, v4, s[2:3]\n"
    "global_store_dword v3, v5, s[2:3] offset:256\n"
    "global_store_dword v3, v6, s[2:3] offset:512\n"
    "global_store_dword v3, v7, s[2:3] offset:768\n"
    "global_store_dword v3, v8, s[2:3] offset:1024\n"
    "global_store_dword v3, v9, s[2:3] offset:1280\n"
    "s_waitcnt vmcnt(0)\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)in, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  isa_fx_check_mubuf_d16(in, out, 64);
}
END_TEST

START_TEST(lds_64bit_atomics)
{
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  void *code = isa_fx_code(
    "v_mov_b32_e32 v3, 0\n"
    "v_mov_b32_e32 v4, 1\n"
    "v_mov_b32_e32 v5, 1\n"
    "ds_write_b64 v3, v[3:4]\n"               /* lds[0..7] = 0x1_00000000 */
    "ds_add_u64 v3, v[4:5]\n"                 /* each lane adds 0x1_00000001 */
    "ds_max_rtn_u64 v[6:7], v3, v[0:1] offset:8\n"
    "ds_cmpst_rtn_b64 v[8:9], v3, v[3:4], v[4:5] offset:16\n"
    "s_waitcnt lgkmcnt(0)\n"
    "ds_read_b128 v[10:13], v3\n"
    "s_waitcnt lgkmcnt(0)\n"
    "global_store_dwordx4 v3, v[10:13], s[2:3]\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, (uintptr_t)out);
  r.wg.lds_bytes = 64;
  r.init[0].exec = 0xff;   /* 8 lanes */
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  uint64_t v0 = out[0] | (uint64_t)out[1] << 32, v1 = out[2] | (uint64_t)out[3] << 32;
  ck_assert_uint_eq(v0, 0x100000000ull + 8 * 0x100000001ull);
  ck_assert_uint_eq(v1, (uint64_t)4 * 7 << 32 | 7);   /* max of (id | 4 id << 32) */
}
END_TEST

START_TEST(lds_write2_b64_leaves_registers)
{
  /* ds_write2_b64 and ds_write2st64_b64 are stores: the registers named in the
   * instruction must keep their values (rocPRIM sorts and scans broke when they were
   * treated as the returning wrxchg2 forms and v0..v3 took old LDS contents). */
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  void *code = isa_fx_code(
    "v_mov_b32_e32 v3, 0x11\n"
    "v_mov_b32_e32 v4, 0x22\n"
    "v_mov_b32_e32 v5, 0x33\n"
    "v_mov_b32_e32 v6, 0x44\n"
    "v_lshlrev_b32_e32 v7, 4, v0\n"          /* 16 bytes per lane */
    "ds_write2_b64 v7, v[3:4], v[5:6] offset1:1\n"
    "ds_write2st64_b64 v7, v[5:6], v[3:4] offset0:2 offset1:3\n"
    "s_waitcnt lgkmcnt(0)\n"
    "global_store_dwordx4 v7, v[3:6], s[2:3]\n"
    "ds_read2_b64 v[8:11], v7 offset1:1\n"
    "s_waitcnt lgkmcnt(0)\n"
    "global_store_dwordx4 v7, v[8:11], s[2:3] offset:1024\n"
    "ds_read2st64_b64 v[8:11], v7 offset0:2 offset1:3\n"
    "s_waitcnt lgkmcnt(0)\n"
    "global_store_dwordx4 v7, v[8:11], s[2:3] offset:2048\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, (uintptr_t)out);
  r.wg.lds_bytes = 4 * 512 * 8;
  r.init[0].exec = 0xffff;   /* 16 lanes */
  memset(out, 0xee, 4096);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  static const uint32_t regs[4] = {0x11, 0x22, 0x33, 0x44};
  static const uint32_t st64[4] = {0x33, 0x44, 0x11, 0x22};
  for (unsigned l = 0; l < 16; l++)
    for (unsigned k = 0; k < 4; k++) {
      ck_assert_msg(out[4 * l + k] == regs[k], "lane %u v%u = %#x", l, 3 + k, out[4 * l + k]);
      ck_assert_uint_eq(out[256 + 4 * l + k], regs[k]);
      ck_assert_uint_eq(out[512 + 4 * l + k], st64[k]);
    }
}
END_TEST

START_TEST(lds_address_wraps_at_32_bits)
{
  /* A DS address is VGPR + offset in 32 bits: clang folds "x - 512" into a negative
   * base plus offset:512 (rocSPARSE's csrgemm multipass kernel clears and counts its LDS
   * table this way); computing it in 64 bits put such accesses out of range. */
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  void *code = isa_fx_code(
    "v_lshlrev_b32_e32 v1, 2, v0\n"            /* a = lane * 4 */
    "v_or_b32_e32 v2, 0xfffffe00, v1\n"        /* a - 512, as 32 bits */
    "v_add_u32_e32 v3, 0x100, v0\n"
    "ds_write_b32 v2, v3 offset:512\n"         /* lds[a] = 0x100 + lane */
    "v_mov_b32_e32 v4, 7\n"
    "ds_add_u32 v2, v4 offset:512\n"           /* lds[a] += 7 */
    "v_mov_b32_e32 v5, 0x5a\n"
    "v_or_b32_e32 v6, 0xffffff00, v0\n"        /* lane - 256 */
    "ds_write_b8 v6, v5 offset:320\n"          /* byte 64 + lane = 0x5a */
    "s_waitcnt lgkmcnt(0)\n"
    "ds_read_b32 v7, v1\n"
    "ds_read_b32 v8, v2 offset:512\n"
    "ds_read2_b32 v[9:10], v2 offset0:128 offset1:128\n"
    "ds_read_u8 v12, v6 offset:320\n"
    "s_waitcnt lgkmcnt(0)\n"
    "v_mov_b32_e32 v10, v12\n"
    "v_lshlrev_b32_e32 v11, 4, v0\n"
    "global_store_dwordx4 v11, v[7:10], s[2:3]\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, (uintptr_t)out);
  r.wg.lds_bytes = 1024;
  r.init[0].exec = 0xffff;   /* 16 lanes */
  memset(out, 0xee, 4096);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned l = 0; l < 16; l++) {
    ck_assert_msg(out[4 * l] == 0x107 + l, "lane %u: lds[%u] = %#x", l, 4 * l, out[4 * l]);
    ck_assert_msg(out[4 * l + 1] == 0x107 + l, "lane %u: wrapped read %#x", l, out[4 * l + 1]);
    ck_assert_msg(out[4 * l + 2] == 0x107 + l, "lane %u: wrapped read2 %#x", l, out[4 * l + 2]);
    ck_assert_msg(out[4 * l + 3] == 0x5a, "lane %u: wrapped byte %#x", l, out[4 * l + 3]);
  }
}
END_TEST

/* The first level enters a second-level handler with the hardware's return state in
 * ttmp0:1 (the s_trap's own address, its trap id in ttmp1[23:16]), STATUS in ttmp12 (PRIV
 * set) and the second-level TMA in ttmp14:15; the handler steps over the s_trap itself. */
START_TEST(trap_handler_entered)
{
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  uint8_t *code = isa_fx_code(
    "s_trap 5\n"
    "s_movk_i32 s5, 0x22\n"                  /* after the handler returns */
    "s_store_dword s5, s[2:3], 0x4\n"
    "s_endpgm\n"
    ".p2align 8\n"
    "handler:\n"
    "s_movk_i32 s6, 0x11\n"
    "s_store_dword s6, s[2:3], 0x0\n"
    "s_store_dwordx2 ttmp[0:1], s[2:3], 0x8\n"
    "s_store_dword ttmp12, s[2:3], 0x10\n"
    "s_store_dwordx2 ttmp[14:15], s[2:3], 0x18\n"
    "s_add_u32 ttmp0, ttmp0, 4\n"
    "s_addc_u32 ttmp1, ttmp1, 0\n"
    "s_rfe_b64 ttmp[0:1]\n");               /* ttmp1[31:16] is not part of the PC */
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, (uintptr_t)out);
  r.wg.tba = (uintptr_t)code + 256;
  r.wg.tma = 0x123456789000ull;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  ck_assert_uint_eq(out[0], 0x11);
  ck_assert_uint_eq(out[1], 0x22);
  ck_assert_uint_eq(out[2], (uint32_t)(uintptr_t)code);
  ck_assert_uint_eq(out[3] & 0xffff, (uint32_t)((uintptr_t)code >> 32) & 0xffff);
  ck_assert_uint_eq(out[3] >> 16, 5);
  ck_assert_uint_eq(out[4] & 0x20, 0x20);        /* STATUS.PRIV in the handler */
  ck_assert_uint_eq(((uint64_t)out[7] << 32 | out[6]), 0x123456789000ull);
}
END_TEST

/* A handler that returns with STATUS.HALT set halts the wave at the PC it returns to; the
 * workgroup can then never finish (SIM_ISA_HALTED), and a wave waiting at a barrier for
 * it waits for good. s_sethalt outside a handler halts at once. */
START_TEST(trap_handler_halts_wave)
{
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  uint8_t *code = isa_fx_code(
    "s_trap 2\n"
    "s_movk_i32 s5, 0x22\n"
    "s_store_dword s5, s[2:3], 0x4\n"
    "s_endpgm\n"
    ".p2align 8\n"
    "handler:\n"
    "s_bitset1_b32 ttmp12, 13\n"
    "s_movk_i32 s6, 0x11\n"
    "s_store_dword s6, s[2:3], 0x0\n"
    "s_setreg_b32 hwreg(HW_REG_STATUS), ttmp12\n"
    "s_rfe_b64 ttmp[0:1]\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, (uintptr_t)out);
  r.wg.tba = (uintptr_t)code + 256;
  ck_assert_int_eq(isa_fx_go(&r), -1);
  ck_assert_int_eq(r.fault.kind, SIM_ISA_HALTED);
  ck_assert_uint_eq(r.fault.pc, (uintptr_t)code);
  ck_assert_uint_eq(out[0], 0x11);               /* the handler ran to its end */
  ck_assert_uint_eq(out[1], 0);                  /* the wave did not go on */

  uint8_t *code2 = isa_fx_code(
    "s_movk_i32 s5, 0x33\n"
    "s_store_dword s5, s[2:3], 0x8\n"
    "s_sethalt 1\n"
    "s_store_dword s5, s[2:3], 0xc\n"
    "s_endpgm\n");
  NEED(code2);
  isa_fx_setup(&r, code2, 1, 0, (uintptr_t)out);
  ck_assert_int_eq(isa_fx_go(&r), -1);
  ck_assert_int_eq(r.fault.kind, SIM_ISA_HALTED);
  ck_assert_uint_eq(r.fault.pc, (uintptr_t)code2 + 16);   /* after the s_sethalt */
  ck_assert_uint_eq(out[2], 0x33);
  ck_assert_uint_eq(out[3], 0);
}
END_TEST

/* The first level keeps IB_STS[20:15] in bits 31:26 of ttmp11 (gfx9 up to gfx90a) or of
 * ttmp13 (GC 9.4.3: gfx940..gfx942, whose SPI fills ttmp11 with debug data), next to the
 * debugger's "debug trap enabled" flag in bit 23 (no debugger: 0); it leaves the other
 * register alone. The runtime's handler restores IB_STS from the one its chip uses. */
static void first_level_keeps(const char *model, const char *mcpu, uint32_t want11,
                              uint32_t want13)
{
  fx_cfg.gpu_model = model;
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  uint8_t *code = isa_fx_code_for(mcpu,
    "s_mov_b32 ttmp11, -1\n"
    "s_mov_b32 ttmp13, -1\n"
    "s_trap 5\n"
    "s_endpgm\n"
    ".p2align 8\n"
    "handler:\n"
    "s_store_dword ttmp11, s[2:3], 0x0\n"
    "s_store_dword ttmp13, s[2:3], 0x4\n"
    "s_add_u32 ttmp0, ttmp0, 4\n"
    "s_addc_u32 ttmp1, ttmp1, 0\n"
    "s_rfe_b64 ttmp[0:1]\n", NULL);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, (uintptr_t)out);
  r.wg.tba = (uintptr_t)code + 256;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  ck_assert_msg(out[0] == want11, "%s: ttmp11 %#x, want %#x", model, out[0], want11);
  ck_assert_msg(out[1] == want13, "%s: ttmp13 %#x, want %#x", model, out[1], want13);
}

START_TEST(trap_first_level_ib_sts_gfx9)
{
  first_level_keeps("gfx900", "gfx900", 0x037fffffu, 0xffffffffu);
}
END_TEST

START_TEST(trap_first_level_ib_sts_gfx942)
{
  first_level_keeps("gfx942", "gfx940", 0xffffffffu, 0x037fffffu);   /* LLVM 15's name */
}
END_TEST

/* Memory the GPU may read but not write: a buffer object allocated without WRITABLE. */
static uint32_t *ro_mem(size_t size)
{
  size = (size + 4095) & ~(size_t)4095;
  uint32_t *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(p, MAP_FAILED);
  struct kfd_ioctl_alloc_memory_of_gpu_args u = {
    .va_addr = (uintptr_t)p, .size = size, .gpu_id = GPU0, .mmap_offset = (uintptr_t)p,
    .flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &u), 0);
  uint32_t id = GPU0;
  ck_assert_int_eq(fx_map(u.handle, &id, 1, true), 0);
  return p;
}

/* A GPUVM fault with XNACK off (here a write to a read-only buffer object, after a read of it
 * worked) enters the trap handler as a memory-violation exception: trap id 0, TRAPSTS.MEM_VIOL
 * and XNACK_ERROR, ttmp0:1 at the access, and STATUS in ttmp12 with HALT set by the first
 * level, so the wave stays halted there once the handler restores STATUS. Nothing is written;
 * a vector store (global_store) faults the same way, its lanes stopped at the first page. */
START_TEST(mem_violation_enters_handler)
{
  static const char *const stores[] = {
    "s_store_dword s6, s[0:1], 0x40 glc\n",
    "v_mov_b32 v1, 0x40\nglobal_store_dword v1, v1, s[0:1]\n",
  };
  for (unsigned k = 0; k < 2; k++) {
    fx_open();
    uint32_t *out = isa_fx_mem(4096), *ro = ro_mem(4096);
    ro[0] = 0x1234;
    ro[16] = 0x5678;
    char src[1024];
    snprintf(src, sizeof src,
             "s_load_dword s6, s[0:1], 0x0 glc\n"
             "s_waitcnt lgkmcnt(0)\n"
             "s_store_dword s6, s[2:3], 0x10 glc\n"
             "s_waitcnt lgkmcnt(0)\n"
             "%s"
             "s_movk_i32 s5, 0x22\n"
             "s_store_dword s5, s[2:3], 0x14\n"
             "s_endpgm\n"
             ".p2align 8\n"
             "handler:\n"
             "s_getreg_b32 ttmp2, hwreg(HW_REG_TRAPSTS)\n"
             "s_store_dword ttmp2, s[2:3], 0x0 glc\n"
             "s_store_dword ttmp12, s[2:3], 0x4 glc\n"
             "s_store_dwordx2 ttmp[0:1], s[2:3], 0x8 glc\n"
             "s_waitcnt lgkmcnt(0)\n"
             "s_setreg_b32 hwreg(HW_REG_STATUS), ttmp12\n"
             "s_rfe_b64 ttmp[0:1]\n", stores[k]);
    size_t len;
    uint8_t *code = isa_fx_code_for("gfx900", src, &len);
    NEED(code);
    struct isa_fx_run r;
    isa_fx_setup(&r, code, 1, (uintptr_t)ro, (uintptr_t)out);
    r.wg.tba = (uintptr_t)code + 256;
    ck_assert_int_eq(isa_fx_go(&r), -1);
    ck_assert_msg(r.fault.kind == SIM_ISA_HALTED, "%s: %s", stores[k], r.fault.text);
    uint64_t at = (uintptr_t)code + 24 + (k ? 4 : 0);   /* the store (after v_mov) */
    ck_assert_uint_eq(r.fault.pc, at);
    ck_assert_uint_eq(out[4], 0x1234);                         /* the read went through */
    ck_assert_uint_eq(out[0] & 0x10000900u, 0x10000100u);      /* MEM_VIOL | XNACK_ERROR */
    ck_assert_uint_eq(out[1] & 0x2020u, 0x2020u);              /* HALT (first level), PRIV */
    ck_assert_uint_eq(out[2], (uint32_t)at);
    ck_assert_uint_eq(out[3] & 0xffffff, (uint32_t)(at >> 32) & 0xffff);   /* trap id 0 */
    ck_assert_uint_eq(out[5], 0);                              /* the wave did not go on */
    ck_assert_uint_eq(ro[16], 0x5678);                         /* nothing written */
  }
}
END_TEST

/* A floating-point exception enabled in COMPUTE_PGM_RSRC2.EXCP_EN (here overflow, bit 27)
 * sets TRAPSTS.EXCP (with the other flags the instruction raised: inexact) and enters the
 * handler (trap id 0) at the next instruction; the handler returns and the wave goes on. With
 * the bit clear the same kernel never enters the handler. */
START_TEST(fp_exception_enters_handler)
{
  for (unsigned enable = 0; enable < 2; enable++) {
    fx_open();
    uint32_t *out = isa_fx_mem(4096);
    uint8_t *code = isa_fx_code_for("gfx900",
      "v_mov_b32 v1, 0x7f000000\n"           /* 1.7e38 */
      "v_mul_f32 v2, v1, v1\n"               /* overflows to +inf */
      "s_movk_i32 s5, 0x22\n"
      "s_store_dword s5, s[2:3], 0x14\n"
      "s_endpgm\n"
      ".p2align 8\n"
      "handler:\n"
      "s_getreg_b32 ttmp2, hwreg(HW_REG_TRAPSTS)\n"
      "s_store_dword ttmp2, s[2:3], 0x0 glc\n"
      "s_store_dwordx2 ttmp[0:1], s[2:3], 0x8 glc\n"
      "s_movk_i32 ttmp2, 0x11\n"
      "s_store_dword ttmp2, s[2:3], 0x10 glc\n"
      "s_waitcnt lgkmcnt(0)\n"
      "s_and_b32 ttmp1, ttmp1, 0xffff\n"
      "s_setreg_b32 hwreg(HW_REG_STATUS), ttmp12\n"
      "s_rfe_b64 ttmp[0:1]\n", NULL);
    NEED(code);
    struct isa_fx_run r;
    isa_fx_setup(&r, code, 1, 0, (uintptr_t)out);
    r.wg.tba = (uintptr_t)code + 256;
    r.wg.rsrc2 |= enable ? 1u << 27 : 0;
    ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
    ck_assert_uint_eq(out[5], 0x22);                       /* the wave went on to its end */
    if (!enable) {
      ck_assert_uint_eq(out[4], 0);                        /* no trap */
      continue;
    }
    ck_assert_uint_eq(out[4], 0x11);
    ck_assert_uint_eq(out[0] & 0x1ff, 0x28);               /* overflow and inexact */
    uint64_t next = (uintptr_t)code + 8 + 4;               /* after v_mov (literal) and v_mul */
    ck_assert_uint_eq(out[2], (uint32_t)next);
    ck_assert_uint_eq(out[3], (uint32_t)(next >> 32) & 0xffff);   /* trap id 0 */
  }
}
END_TEST

/* s_sendmsg(MSG_GET_DOORBELL) answers the queue's doorbell id in EXEC_LO, clearing bit 31. */
START_TEST(sendmsg_get_doorbell)
{
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  uint8_t *code = isa_fx_code(
    "s_mov_b32 exec_lo, 0x80000000\n"
    "s_sendmsg sendmsg(MSG_GET_DOORBELL)\n"
    "wait:\n"
    "s_nop 7\n"
    "s_bitcmp0_b32 exec_lo, 31\n"
    "s_cbranch_scc0 wait\n"
    "s_mov_b32 s6, exec_lo\n"
    "s_store_dword s6, s[2:3], 0x0\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, (uintptr_t)out);
  r.wg.doorbell_id = 0x1a7;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  ck_assert_uint_eq(out[0], 0x1a7);
}
END_TEST

/* ---- several workgroups on several threads: atomics stay atomic ---- */
struct thr {
  struct isa_fx_run r;
  int rc;
};

static void *run_thread(void *p)
{
  struct thr *t = p;
  for (int i = 0; i < 20 && !t->rc; i++)
    t->rc = isa_fx_go(&t->r);
  return NULL;
}

START_TEST(workgroups_on_threads)
{
  fx_open();
  uint32_t *buf = isa_fx_mem(4096);
  void *code = isa_fx_code(
    "v_mov_b32_e32 v3, 0\n"
    "v_mov_b32_e32 v4, 1\n"
    "ds_write_b32 v3, v3\n"                /* LDS is undefined at start: clear the counter */
    "s_barrier\n"
    "s_movk_i32 s6, 0x40\n"
    "L:\n"
    "global_atomic_add v3, v4, s[0:1]\n"
    "ds_add_u32 v3, v4\n"
    "s_sub_u32 s6, s6, 1\n"
    "s_cmp_lg_u32 s6, 0\n"
    "s_cbranch_scc1 L\n"
    "s_barrier\n"
    "s_waitcnt lgkmcnt(0)\n"
    "ds_read_b32 v5, v3\n"
    "s_waitcnt lgkmcnt(0)\n"
    "v_cmp_eq_u32_e32 vcc, 0, v0\n"
    "s_and_saveexec_b64 s[8:9], vcc\n"
    "global_atomic_add v3, v5, s[0:1] offset:4\n"
    "s_endpgm\n");
  NEED(code);
  enum { T = 4 };
  static struct thr t[T];
  pthread_t th[T];
  for (unsigned i = 0; i < T; i++) {
    isa_fx_setup(&t[i].r, code, 2, (uintptr_t)buf, 0);
    t[i].r.wg.lds_bytes = 64;
    t[i].rc = 0;
  }
  for (unsigned i = 0; i < T; i++)
    ck_assert_int_eq(pthread_create(&th[i], NULL, run_thread, &t[i]), 0);
  for (unsigned i = 0; i < T; i++)
    pthread_join(th[i], NULL);
  for (unsigned i = 0; i < T; i++)
    ck_assert_msg(t[i].rc == 0, "fault: %s", t[i].r.fault.text);
  /* 4 threads x 20 workgroups x 2 waves x 64 lanes x 64 iterations */
  ck_assert_uint_eq(buf[0], 4u * 20 * 2 * 64 * 64);
  /* work-item 0 of each group adds the group's LDS total (2 x 64 x 64) after the barrier */
  ck_assert_uint_eq(buf[1], 4u * 20 * (2 * 64 * 64));
}
END_TEST

/* ---- wide accesses at every alignment: 64-bit pieces where aligned, dwords elsewhere,
 * bytes when misaligned, buffer range checks per dword (hostmem.h) ---- */
START_TEST(wide_accesses_any_alignment)
{
  fx_open();
  uint32_t *in = isa_fx_mem(4096), *out = isa_fx_mem(8192);
  for (unsigned i = 0; i < 1024; i++)
    in[i] = 0x1000 + i;
  void *code = isa_fx_code(
    "s_mov_b32 s8, s0\n"
    "s_and_b32 s9, s1, 0xffff\n"
    "s_movk_i32 s10, 0x100\n"               /* 64 dwords of in */
    "s_mov_b32 s11, 0x27000\n"
    "buffer_load_dwordx4 v[4:7], v1, s[8:11], 0 offen\n"   /* in[l..l+3], 0 past dword 63 */
    "v_lshlrev_b32_e32 v11, 4, v0\n"
    "global_store_dwordx4 v11, v[4:7], s[2:3]\n"           /* out[4l..]: 16-byte aligned */
    "global_load_dwordx3 v[8:10], v1, s[0:1] offset:4\n"   /* in[l+1..l+3]: 4 mod 8 for even l */
    "global_store_dwordx3 v11, v[8:10], s[2:3] offset:1028\n"  /* out[257 + 4l..]: 4 mod 8 */
    "s_add_u32 s12, s2, 0x800\n"
    "s_addc_u32 s13, s3, 0\n"
    "s_and_b32 s13, s13, 0xffff\n"
    "s_movk_i32 s14, 0x2d4\n"               /* 724 bytes: lane 60's dwords 1, 2 are out */
    "s_mov_b32 s15, 0x27000\n"
    "v_mul_u32_u24_e32 v12, 12, v0\n"
    "buffer_store_dwordx3 v[8:10], v12, s[12:15], 0 offen\n"   /* out[512 + 3l..] */
    "global_load_dwordx2 v[2:3], v1, s[0:1] offset:1\n"    /* misaligned: bytes 4l+1..4l+8 */
    "v_lshlrev_b32_e32 v13, 3, v0\n"
    "global_store_dwordx2 v13, v[2:3], s[2:3] offset:3072\n"   /* out[768 + 2l..] */
    "s_load_dwordx4 s[20:23], s[0:1], 0x4\n"    /* in[1..4]: 4 mod 8 */
    "s_load_dwordx8 s[24:31], s[0:1], 0x8\n"    /* in[2..9] */
    "s_waitcnt lgkmcnt(0)\n"
    "s_store_dwordx4 s[20:23], s[2:3], 0x1004\n"   /* out[1025..1028] */
    "s_store_dwordx4 s[24:27], s[2:3], 0x1020\n"   /* out[1032..1039] */
    "s_store_dwordx4 s[28:31], s[2:3], 0x1030\n"
    "s_dcache_wb\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)in, (uintptr_t)out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  const uint8_t *inb = (const uint8_t *)in;
  for (unsigned l = 0; l < 64; l++) {
    for (unsigned k = 0; k < 4; k++)
      ck_assert_uint_eq(out[4 * l + k], l + k < 64 ? in[l + k] : 0);
    for (unsigned k = 0; k < 3; k++) {
      ck_assert_uint_eq(out[257 + 4 * l + k], in[l + 1 + k]);
      ck_assert_uint_eq(out[512 + 3 * l + k], 12 * l + 4 * k < 724 ? in[l + 1 + k] : 0);
    }
    uint32_t mis[2];
    memcpy(mis, inb + 4 * l + 1, 8);
    ck_assert_uint_eq(out[768 + 2 * l], mis[0]);
    ck_assert_uint_eq(out[768 + 2 * l + 1], mis[1]);
  }
  for (unsigned k = 0; k < 4; k++)
    ck_assert_uint_eq(out[1025 + k], in[1 + k]);
  for (unsigned k = 0; k < 8; k++)
    ck_assert_uint_eq(out[1032 + k], in[2 + k]);
}
END_TEST

/* ---- sim_vm_lookup: the whole contiguous range behind an address ---- */
START_TEST(vm_lookup_ranges)
{
  fx_open();
  uint8_t *a = isa_fx_mem(3 * 4096);
  uint64_t lo = 0, hi = 0;
  ck_assert_ptr_eq(sim_vm_lookup(sim_gpu(0), (uintptr_t)a + 5000, &lo, &hi), a + 5000);
  ck_assert_uint_eq(lo, (uintptr_t)a);
  ck_assert_uint_eq(hi, (uintptr_t)a + 3 * 4096);
  ck_assert_ptr_null(sim_vm_lookup(sim_gpu(0), (uintptr_t)a + 3 * 4096 + 0x100000000ull, &lo, &hi));
  /* AQL queue memory maps its pages twice: each copy is its own contiguous range */
  struct kfd_ioctl_alloc_memory_of_gpu_args q = {
    .va_addr = 0xa000000, .size = 16384, .gpu_id = GPU0,
    .flags = VRAM_RW | KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &q), 0);
  uint32_t id = GPU0;
  ck_assert_int_eq(fx_map(q.handle, &id, 1, true), 0);
  uint8_t *p0 = sim_vm_lookup(sim_gpu(0), 0xa000010, &lo, &hi);
  ck_assert_ptr_nonnull(p0);
  ck_assert_uint_eq(lo, 0xa000000);
  ck_assert_uint_eq(hi, 0xa000000 + 8192);
  uint8_t *p1 = sim_vm_lookup(sim_gpu(0), 0xa000000 + 8192 + 0x10, &lo, &hi);
  ck_assert_ptr_eq(p1, p0);
  ck_assert_uint_eq(lo, 0xa000000 + 8192);
  ck_assert_uint_eq(hi, 0xa000000 + 16384);
}
END_TEST

/* ---- gfx942 scratch: bit 13 (SVE) says whether the VGPR address counts; an SGPR and a VGPR
 * address add up, and with neither the offset alone is the address ---- */
START_TEST(gfx942_scratch_address_forms)
{
  fx_cfg.gpu_model = "gfx942";
  fx_open();
  uint32_t *out = isa_fx_mem(4096);
  uint8_t *scratch = isa_fx_mem(65536);
  uint8_t *code = isa_fx_code_for("gfx940",   /* LLVM 15's name for these encodings */
    "s_mov_b32 flat_scratch_lo, s0\n"
    "s_mov_b32 flat_scratch_hi, s1\n"
    "v_mov_b32 v3, 16\n"
    "s_mov_b32 s6, 32\n"
    "scratch_store_dword v3, v0, off\n"             /* 16 */
    "scratch_store_dword off, v0, s6\n"             /* 32 */
    "scratch_store_dword v3, v0, s6 offset:16\n"    /* 16 + 32 + 16 = 64 */
    "scratch_store_dword off, v0, off offset:80\n"  /* 80 */
    "scratch_load_dword v4, v3, s6 offset:16\n"
    "s_waitcnt vmcnt(0)\n"
    "global_store_dword v1, v4, s[2:3]\n"
    "s_endpgm\n", NULL);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)scratch, (uintptr_t)out);
  r.wg.private_base = PRIVATE_BASE;
  r.wg.private_limit = PRIVATE_BASE + 0xffffffffull;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  static const unsigned dwords[] = { 4, 8, 16, 20 };   /* private byte o: dword o / 4 */
  for (unsigned l = 0; l < 64; l++) {
    for (unsigned k = 0; k < 4; k++) {
      uint32_t v;   /* swizzled: dword d of lane l at d * 256 + 4 l */
      memcpy(&v, scratch + dwords[k] * 256 + 4 * l, 4);
      ck_assert_msg(v == l, "lane %u, private dword %u: %u", l, dwords[k], v);
    }
    ck_assert_uint_eq(out[l], l);
  }
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("isa_mem");
  TCase *t = tcase_create("mem");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, flat_reaches_lds_and_private);
  tcase_add_test(t, scalar_buffer_and_atomics);
  tcase_add_test(t, smem_negative_offset);
  tcase_add_test(t, mtbuf_formats);
  tcase_add_test(t, mtbuf_format_16x4);
  tcase_add_test(t, mubuf_format_d16);
  tcase_add_test(t, lds_64bit_atomics);
  tcase_add_test(t, lds_write2_b64_leaves_registers);
  tcase_add_test(t, lds_address_wraps_at_32_bits);
  tcase_add_test(t, trap_handler_entered);
  tcase_add_test(t, trap_handler_halts_wave);
  tcase_add_test(t, mem_violation_enters_handler);
  tcase_add_test(t, fp_exception_enters_handler);
  tcase_add_test(t, trap_first_level_ib_sts_gfx9);
  tcase_add_test(t, trap_first_level_ib_sts_gfx942);
  tcase_add_test(t, sendmsg_get_doorbell);
  tcase_add_test(t, workgroups_on_threads);
  tcase_add_test(t, wide_accesses_any_alignment);
  tcase_add_test(t, vm_lookup_ranges);
  tcase_add_test(t, gfx942_scratch_address_forms);
  suite_add_tcase(s, t);
  return s;
}
