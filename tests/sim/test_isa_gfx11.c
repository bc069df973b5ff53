/* SPDX-License-Identifier: MIT */
/* test_isa_gfx11.c — sim/isa's gfx11 (RDNA3) and gfx12 (RDNA4) encodings, in wave32 and
 * wave64: code assembled by llvm-mc-19 --mcpu=gfx1100/gfx1201 at test time
 * (-mattr=+wavefrontsize64 for wave64) runs on a GPU whose model says gfx1100 or gfx1201
 * (gfx_target_version 110000, 120001), and every result is
 * compared with a host computation: scalar ALU and branches, SMEM, the VALU in its VOP1/
 * VOP2/VOPC/VOP3/VOP3B/VOPD forms with literals, lane masks (VCC and carries in one SGPR in
 * wave32, two in wave64), v_cmpx writing EXEC only, saveexec, global/scratch/LDS memory
 * (scratch's lane swizzle by wave size), ds_bpermute wrapping at the wave size, gfx10+'s DPP
 * row_xmask/row_share; gfx12's split
 * wait counters, s_barrier_signal/wait, SALU float and 64-bit SALU arithmetic, v_s_rcp_f32;
 * WMMA/SWMMAC modifiers (NEG/NEG_HI, an inline-constant C, index_key) by exact relations. */
#include "kfd_fixture.h"
#define ISA_FX_MC "/usr/bin/llvm-mc-19"
#include "isa_fixture.h"

#include "dev/catalog.h"
#include "isa/exec.h"
#include "isa/fp.h"
#include "isa/gfx11.h"
#include "isa/names.h"

#include <math.h>

#define NEED(code) do { if (!(code)) { fprintf(stderr, "llvm-mc-19 missing: skipped\n"); return; } } while (0)

/* GPU 0 as a gfx1100 or gfx1201 for the ISA (the catalogue's gfx900 board with the target
 * version; the boards themselves are sim/dev's) */
static bool gfx12;   /* the case runs gfx1201 code */

static void as_target(unsigned version)
{
  isa_fx_as_target(version);
  gfx12 = version >= 120000;
}

static void as_gfx1100(void)
{
  as_target(110000);
}

/* `src` with the mask spellings of the wave size: VCC, EXEC, MASK (an SGPR mask at s20),
 * SAVEEXEC (s_and_saveexec_b32/_b64), OREXEC (s_or_b32/b64), SAVED (s22 or s[22:23]), DUAL
 * (a VOPD pair in wave32, which alone has VOPD; the two instructions in wave64) */
/* a work-group barrier with its fence, as clang-19 emits it for gfx1100: the invalidations
 * of caches the model has not are no-ops, not illegal instructions */
#define BARRIER11 "s_barrier\nbuffer_gl0_inv\nbuffer_gl1_inv"
static void *code_for(bool w32, const char *src)
{
  enum { N = 13 };
  static const char *const from[N] = {"VCC", "EXEC", "MASK", "SAVEEXEC", "OREXEC", "SAVED", "DUAL",
                                      "WAITK", "WAITV", "WAITS", "WAITD", "BARRIER", "MAD64"};
  const char *to32[N] = {"vcc_lo", "exec_lo", "s20", "s_and_saveexec_b32", "s_or_b32", "s22",
                         "v_dual_mul_f32 v10, 0x40400000, v8 :: v_dual_add_nc_u32 v11, 7, v9",
                         "s_waitcnt lgkmcnt(0)", "s_waitcnt vmcnt(0)", "s_waitcnt_vscnt null, 0x0",
                         "s_waitcnt lgkmcnt(0)", BARRIER11, "v_mad_u64_u32"};
  const char *to64[N] = {"vcc", "exec", "s[20:21]", "s_and_saveexec_b64", "s_or_b64", "s[22:23]",
                         "v_mul_f32_e32 v10, 0x40400000, v8\nv_add_nc_u32_e32 v11, 7, v9",
                         "s_waitcnt lgkmcnt(0)", "s_waitcnt vmcnt(0)", "s_waitcnt_vscnt null, 0x0",
                         "s_waitcnt lgkmcnt(0)", BARRIER11, "v_mad_u64_u32"};
  static const char *const to12[N] = {[7] = "s_wait_kmcnt 0x0", [8] = "s_wait_loadcnt 0x0",
    [9] = "s_wait_storecnt 0x0", [10] = "s_wait_dscnt 0x0",
    [11] = "s_barrier_signal -1\ns_barrier_wait 0xffff", [12] = "v_mad_co_u64_u32"};
  char buf[8192];
  size_t n = 0;
  for (const char *p = src; *p && n < sizeof buf - 32;) {
    bool done = false;
    for (unsigned k = 0; k < N && !done; k++) {
      size_t l = strlen(from[k]);
      if (!strncmp(p, from[k], l) && !(p[l] >= 'A' && p[l] <= 'Z')) {
        const char *t = gfx12 && to12[k] ? to12[k] : w32 ? to32[k] : to64[k];
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", t);
        p += l;
        done = true;
      }
    }
    if (!done)
      buf[n++] = *p++;
  }
  buf[n] = 0;
  const char *cpu = gfx12 ? (w32 ? "gfx1201" : "gfx1201 -mattr=+wavefrontsize64")
                          : (w32 ? "gfx1100" : "gfx1100 -mattr=+wavefrontsize64");
  return isa_fx_code_for(cpu, buf, NULL);
}

/* `waves` waves of `wave_size` lanes: v0 = the flat work-item id, s[0:1] = out, s[2:3] = in */
static void setup(struct isa_fx_run *r, void *code, unsigned waves, unsigned wave_size,
                  void *out, void *in)
{
  isa_fx_setup(r, code, waves, (uintptr_t)out, (uintptr_t)in);
  r->wg.wave_size = wave_size;
  r->wg.vgpr_alloc = 64;
  r->wg.sgpr_alloc = 104;
  for (unsigned i = 0; i < waves; i++) {
    r->init[i].exec = wave_size == 32 ? 0xffffffffull : ~0ull;
    for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++)
      r->init[i].vgpr[0][l] = l + wave_size * i;
  }
}

/* ---- VALU, lane masks, VOPD, global memory ---- */
static const char valu_code[] =
  "s_load_b32 s6, s[2:3], 0x0\n"                   /* k = in[0] */
  "v_lshlrev_b32_e32 v1, 2, v0\n"                  /* byte offset of the item */
  "WAITK\n"
  "global_load_b32 v2, v1, s[2:3] offset:64\n"     /* x = in[16 + id] */
  "WAITV\n"
  "v_mul_lo_u32 v3, v2, s6\n"
  "v_add_nc_u32_e32 v3, v3, v0\n"                  /* r0 = x * k + id */
  "global_store_b32 v1, v3, s[0:1]\n"
  "v_cmp_gt_u32_e32 VCC, 5, v0\n"                  /* id < 5 */
  "v_cndmask_b32_e64 v4, v2, v3, VCC\n"            /* r1 = id < 5 ? r0 : x */
  "global_store_b32 v1, v4, s[0:1] offset:512\n"
  "v_mov_b32_e32 v5, 0xfffffff0\n"                 /* 64-bit: 0xfffffff0 + id + (k << 32) */
  "v_add_co_u32 v6, MASK, v5, v0\n"
  "v_add_co_ci_u32_e64 v7, MASK, s6, 0, MASK\n"
  "global_store_b32 v1, v7, s[0:1] offset:1024\n"  /* r2 = the high half */
  "v_cvt_f32_u32_e32 v8, v2\n"
  "v_mov_b32_e32 v9, v0\n"
  "DUAL\n"
  "v_cvt_u32_f32_e32 v10, v10\n"
  "v_add_nc_u32_e32 v10, v10, v11\n"               /* r3 = 3x + id + 7 */
  "global_store_b32 v1, v10, s[0:1] offset:1536\n"
  "v_xor3_b32 v12, v2, v0, 0x5a5a\n"
  "v_lshl_or_b32 v12, v12, 4, 3\n"                 /* r4 = ((x ^ id ^ 0x5a5a) << 4) | 3 */
  "global_store_b32 v1, v12, s[0:1] offset:2048\n"
  "MAD64 v[14:15], null, v2, v2, v[6:7]\n" /* r5 = hi(x * x + that 64-bit value) */
  "global_store_b32 v1, v15, s[0:1] offset:2560\n"
  "v_and_b32_e32 v16, 1, v0\n"                     /* odd items: 1, even: 2 (saveexec) */
  "v_mov_b32_e32 v17, 2\n"
  "v_cmp_ne_u32_e32 VCC, 0, v16\n"
  "SAVEEXEC SAVED, VCC\n"
  "v_mov_b32_e32 v17, 1\n"
  "OREXEC EXEC, EXEC, SAVED\n"
  "global_store_b32 v1, v17, s[0:1] offset:3072\n"
  "v_cmpx_gt_u32_e32 9, v0\n"                      /* only id < 9 go on; VCC untouched */
  "v_mov_b32_e32 v18, 77\n"
  "global_store_b32 v1, v18, s[0:1] offset:3584\n" /* r7 = 77 where id < 9 */
  "s_endpgm\n";

static void valu_case(bool w32, unsigned version)
{
  as_target(version);
  unsigned ws = w32 ? 32 : 64, waves = 2, items = ws * waves;
  uint32_t *out = isa_fx_mem(8192), *in = isa_fx_mem(4096);
  memset(out, 0xee, 8192);
  in[0] = 0x9e3779b1u;
  for (unsigned i = 0; i < items; i++)
    in[16 + i] = (i * 2654435761u + 12345u) & 0xffffffu;   /* 3x fits 32 bits */
  void *code = code_for(w32, valu_code);
  NEED(code);
  struct isa_fx_run r;
  setup(&r, code, waves, ws, out, in);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  /* each wave saw its own ids; the group wrote every item */
  for (unsigned id = 0; id < items; id++) {
    uint32_t k = in[0], x = in[16 + id];
    uint32_t r0 = x * k + id;
    ck_assert_uint_eq(out[id], r0);
    ck_assert_uint_eq(out[128 + id], id < 5 ? r0 : x);
    uint64_t v = 0xfffffff0ull + id + ((uint64_t)k << 32);
    ck_assert_uint_eq(out[256 + id], (uint32_t)(v >> 32));
    ck_assert_uint_eq(out[384 + id], (uint32_t)(3.0f * (float)x) + id + 7);
    ck_assert_uint_eq(out[512 + id], ((x ^ id ^ 0x5a5au) << 4) | 3);
    uint64_t m = (uint64_t)x * x + v;
    ck_assert_uint_eq(out[640 + id], (uint32_t)(m >> 32));
    ck_assert_uint_eq(out[768 + id], (id & 1) ? 1 : 2);
    ck_assert_uint_eq(out[896 + id], id < 9 ? 77u : 0xeeeeeeeeu);
  }
}

START_TEST(valu_wave32) { valu_case(true, 110000); }
END_TEST
START_TEST(valu_wave64) { valu_case(false, 110000); }
END_TEST
START_TEST(gfx12_valu_wave32) { valu_case(true, 120001); }
END_TEST
START_TEST(gfx12_valu_wave64) { valu_case(false, 120001); }
END_TEST

/* ---- what gfx9 has no operation for (exec_rdna.c), DPP8, 16-bit results ----
 * x = in[id], y = in[64 + id] (random words; wave64 and wave32, one wave):
 *   DPP8 dpp8:[7,6,5,4,3,2,1,0]: lane l reads x of lane (l & ~7) | (7 - l % 8);
 *   v_dot4_i32_iu8 neg_lo:[1,0,0]: id + the sum of signed bytes of x times unsigned bytes of y;
 *   v_maxmin_i32: min(max(x, y), id) signed; v_minmax_f32 (gfx12: _num_): max(min(fx, fy), fid)
 *   of the u32 values as floats;
 *   v_add_nc_u16 into a register holding x: the high half of x kept (gfx10+), not zeroed;
 *   v_permlane64_b32 (wave64): x of lane l ^ 32; in wave32 no operation (v12 keeps 5);
 *   gfx12: v_minimum_f32 of fx, fy; v_minimum_f32 -0, +0 = -0; v_maximum_f32 NaN, 1 = NaN;
 *   v_permlane16_var_b32: x of lane 16 (l / 16) + y % 16; v_pk_minimum/maximum_f16 with -0,
 *   NaN and op_sel/op_sel_hi crossing the halves. */
static void rdna_case(bool w32, unsigned version)
{
  as_target(version);
  unsigned ws = w32 ? 32 : 64;
  uint32_t *out = isa_fx_mem(16384), *in = isa_fx_mem(4096);
  memset(out, 0xee, 16384);
  uint32_t st = 99u + ws + version;
  for (unsigned i = 0; i < 128; i++) {
    st = st * 1664525u + 1013904223u;
    in[i] = st ^ (st >> 13);
  }
  char src[4096];
  snprintf(src, sizeof src,
    "v_lshlrev_b32_e32 v1, 2, v0\n"
    "global_load_b32 v2, v1, s[2:3]\n"
    "global_load_b32 v3, v1, s[2:3] offset:256\n"
    "WAITV\n"
    "v_mov_b32_dpp v4, v2 dpp8:[7,6,5,4,3,2,1,0]\n"
    "global_store_b32 v1, v4, s[0:1]\n"
    "v_dot4_i32_iu8 v5, v2, v3, v0 neg_lo:[1,0,0]\n"
    "global_store_b32 v1, v5, s[0:1] offset:256\n"
    "v_maxmin_i32 v6, v2, v3, v0\n"
    "global_store_b32 v1, v6, s[0:1] offset:512\n"
    "v_mov_b32_e32 v7, v2\n"
    "v_add_nc_u16 v7, v2, v3\n"
    "global_store_b32 v1, v7, s[0:1] offset:768\n"
    "v_cvt_f32_u32_e32 v8, v2\n"
    "v_cvt_f32_u32_e32 v9, v3\n"
    "v_cvt_f32_u32_e32 v10, v0\n"
    "%s v11, v8, v9, v10\n"
    "global_store_b32 v1, v11, s[0:1] offset:1024\n"
    "v_mov_b32_e32 v12, 5\n"
    "v_permlane64_b32 v12, v2\n"
    "global_store_b32 v1, v12, s[0:1] offset:1280\n"
    "%s"
    "s_endpgm\n",
    version >= 120000 ? "v_minmax_num_f32" : "v_minmax_f32",
    version >= 120000 ?
    "v_minimum_f32 v13, v8, v9\n"
    "global_store_b32 v1, v13, s[0:1] offset:1536\n"
    "v_minimum_f32 v14, 0x80000000, 0\n"
    "global_store_b32 v1, v14, s[0:1] offset:1792\n"
    "v_maximum_f32 v15, 0x7fc00000, 1.0\n"
    "global_store_b32 v1, v15, s[0:1] offset:2048\n"
    "v_permlane16_var_b32 v16, v2, v3\n"
    "global_store_b32 v1, v16, s[0:1] offset:2304\n"
    "v_mov_b32_e32 v17, 0x7e008000\n"               /* halves: -0, NaN */
    "v_mov_b32_e32 v18, 0x3c000000\n"               /* halves: +0, 1.0 */
    "v_pk_minimum_f16 v19, v17, v18\n"              /* -0, NaN */
    "v_pk_maximum_f16 v20, v17, v18 op_sel:[1,0] op_sel_hi:[0,1]\n" /* max(NaN,+0), max(-0,1) */
    "global_store_b32 v1, v19, s[0:1] offset:2560\n"
    "global_store_b32 v1, v20, s[0:1] offset:2816\n" : "");
  void *code = code_for(w32, src);
  NEED(code);
  struct isa_fx_run r;
  setup(&r, code, 1, ws, out, in);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned l = 0; l < ws; l++) {
    uint32_t x = in[l], y = in[64 + l];
    ck_assert_msg(out[l] == in[(l & ~7u) | (7 - l % 8)], "dpp8 lane %u", l);
    int32_t dot = (int32_t)l;
    for (unsigned k = 0; k < 4; k++)
      dot += (int8_t)(x >> (8 * k)) * (int32_t)((y >> (8 * k)) & 0xff);
    ck_assert_msg(out[64 + l] == (uint32_t)dot, "dot4 lane %u: %d, want %d", l, (int32_t)out[64 + l], dot);
    int32_t mx = (int32_t)x > (int32_t)y ? (int32_t)x : (int32_t)y;
    ck_assert_int_eq((int32_t)out[128 + l], mx < (int32_t)l ? mx : (int32_t)l);
    ck_assert_msg(out[192 + l] == ((x & 0xffff0000u) | ((x + y) & 0xffffu)), "u16 lane %u: %08x",
                  l, out[192 + l]);
    float fx = (float)x, fy = (float)y, mn = fx < fy ? fx : fy, want = mn > (float)l ? mn : (float)l, got;
    memcpy(&got, &out[256 + l], 4);
    ck_assert_msg(got == want, "minmax lane %u", l);
    ck_assert_uint_eq(out[320 + l], w32 ? 5u : in[l ^ 32]);
    if (version >= 120000) {
      memcpy(&got, &out[384 + l], 4);
      ck_assert(got == mn);
      ck_assert_uint_eq(out[448 + l], 0x80000000u);
      ck_assert_uint_eq(out[512 + l] & 0x7fc00000u, 0x7fc00000u);
      ck_assert_uint_eq(out[576 + l], in[(l / 16) * 16 + y % 16]);
      ck_assert_uint_eq(out[640 + l], 0x7e008000u);
      ck_assert_uint_eq(out[704 + l], 0x3c007e00u);
    }
  }
}

/* ---- WMMA modifiers (exec_wmma.c), by relations that hold whatever the layout: with
 * integer f16 inputs every sum is exact, so (-A)(-B) + C = D, -(A)B - C = -D,
 * AB + |C| = D - C + |C|, AB + 1.0 (an inline-constant C) = D - C + 1; SWMMAC's index_key:1
 * reads the upper 16 bits of the index VGPR as index_key:0 reads them shifted down. (The
 * layouts and every form are kernels_rdna.sh's, against the host's product.) One wave32. */
static void wmma_mods_case(unsigned version)
{
  as_target(version);
  bool g12 = gfx12;
  uint32_t *out = isa_fx_mem(32 * 256), *in = isa_fx_mem(32 * 128);
  memset(out, 0xee, 32 * 256);
  uint32_t seed = 2024;
  for (unsigned l = 0; l < 32; l++) {
    uint32_t *p = in + l * 32;
    for (unsigned d = 0; d < 32; d++) {
      seed = seed * 1103515245u + 12345u;
      int a = (int)((seed >> 16) % 7) - 3, b = (int)((seed >> 8) % 7) - 3;
      p[d] = fp_f32_to_f16((float)a) | fp_f32_to_f16((float)b) << 16;   /* A, B halves */
    }
    for (unsigned r = 0; r < 8; r++) {   /* C: f32 integers in [-8, 8] */
      seed = seed * 1103515245u + 12345u;
      float c = (float)((int)((seed >> 16) % 17) - 8);
      memcpy(&p[(g12 ? 8 : 16) + r], &c, 4);
    }
    seed = seed * 1103515245u + 12345u;
    p[16] = g12 ? seed : p[16];        /* gfx12: the SWMMAC indices */
  }
  const char *ld11 =
    "global_load_b128 v[8:11], v1, s[2:3]\nglobal_load_b128 v[12:15], v1, s[2:3] offset:16\n"
    "global_load_b128 v[16:19], v1, s[2:3] offset:32\nglobal_load_b128 v[20:23], v1, s[2:3] offset:48\n"
    "global_load_b128 v[24:27], v1, s[2:3] offset:64\nglobal_load_b128 v[28:31], v1, s[2:3] offset:80\n"
    "s_waitcnt vmcnt(0)\n";
  const char *ld12 =
    "global_load_b128 v[8:11], v1, s[2:3]\nglobal_load_b128 v[12:15], v1, s[2:3] offset:16\n"
    "global_load_b128 v[16:19], v1, s[2:3] offset:32\nglobal_load_b128 v[20:23], v1, s[2:3] offset:48\n"
    "global_load_b32 v24, v1, s[2:3] offset:64\nglobal_load_b128 v[32:35], v1, s[2:3] offset:80\n"
    "global_load_b128 v[36:39], v1, s[2:3] offset:96\ns_wait_loadcnt 0x0\n";
  const char *ab = g12 ? "v[8:11], v[12:15]" : "v[8:15], v[16:23]", *c = g12 ? "v[16:23]" : "v[24:31]";
  char src[4096];
  int n = snprintf(src, sizeof src, "v_lshlrev_b32_e32 v1, 7, v0\nv_lshlrev_b32_e32 v2, 8, v0\n%s",
                   g12 ? ld12 : ld11);
  static const char *const mods[5] = {"", " neg_lo:[1,1,0] neg_hi:[1,1,0]", " neg_lo:[1,0,1] neg_hi:[1,0,0]",
                                      " neg_hi:[0,0,1]", ""};
  for (unsigned v = 0; v < 5; v++)
    n += snprintf(src + n, sizeof src - (size_t)n,
                  "v_wmma_f32_16x16x16_f16 v[40:47], %s, %s%s\n"
                  "global_store_b128 v2, v[40:43], s[0:1] offset:%u\n"
                  "global_store_b128 v2, v[44:47], s[0:1] offset:%u\n",
                  ab, v == 4 ? "1.0" : c, mods[v], 32 * v, 32 * v + 16);
  if (g12) {
    const char *copy = "v_mov_b32_e32 v48, v16\nv_mov_b32_e32 v49, v17\nv_mov_b32_e32 v50, v18\n"
                       "v_mov_b32_e32 v51, v19\nv_mov_b32_e32 v52, v20\nv_mov_b32_e32 v53, v21\n"
                       "v_mov_b32_e32 v54, v22\nv_mov_b32_e32 v55, v23\n";
    n += snprintf(src + n, sizeof src - (size_t)n,
                  "%sv_swmmac_f32_16x16x32_f16 v[48:55], v[8:11], v[32:39], v24 index_key:1\n"
                  "global_store_b128 v2, v[48:51], s[0:1] offset:160\n"
                  "global_store_b128 v2, v[52:55], s[0:1] offset:176\n"
                  "v_lshrrev_b32_e32 v25, 16, v24\n"
                  "%sv_swmmac_f32_16x16x32_f16 v[48:55], v[8:11], v[32:39], v25\n"
                  "global_store_b128 v2, v[48:51], s[0:1] offset:192\n"
                  "global_store_b128 v2, v[52:55], s[0:1] offset:208\n", copy, copy);
  }
  snprintf(src + n, sizeof src - (size_t)n, "s_endpgm\n");
  void *code = code_for(true, src);
  NEED(code);
  struct isa_fx_run r;
  setup(&r, code, 1, 32, out, in);
  r.wg.vgpr_alloc = 64;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  unsigned same = 0;
  for (unsigned l = 0; l < 32; l++) {
    const float *o = (const float *)(out + l * 64), *cin = (const float *)(in + l * 32 + (g12 ? 8 : 16));
    for (unsigned k = 0; k < 8; k++) {
      float d = o[k], cc = cin[k];
      ck_assert_msg(d == d && fabsf(d) < 1000, "lane %u D[%u] = %g", l, k, d);
      ck_assert_msg(o[8 + k] == d, "lane %u: (-A)(-B) + C = %g, not %g", l, o[8 + k], d);
      ck_assert_msg(o[16 + k] == -d, "lane %u: -AB - C = %g, not %g", l, o[16 + k], -d);
      ck_assert_msg(o[24 + k] == d - cc + fabsf(cc), "lane %u: AB + |C| = %g", l, o[24 + k]);
      ck_assert_msg(o[32 + k] == d - cc + 1, "lane %u: AB + 1.0 = %g", l, o[32 + k]);
      if (g12) {
        ck_assert_msg(o[40 + k] == o[48 + k], "lane %u: index_key:1 gives %g, the shifted indices %g",
                      l, o[40 + k], o[48 + k]);
        same += o[40 + k] == cc;
      }
    }
  }
  ck_assert_uint_lt(same, 64);   /* the SWMMAC did add something */
}

START_TEST(wmma_modifiers) { wmma_mods_case(110000); }
END_TEST
START_TEST(gfx12_wmma_modifiers) { wmma_mods_case(120001); }
END_TEST

START_TEST(rdna_ops_wave32) { rdna_case(true, 110000); }
END_TEST
START_TEST(rdna_ops_wave64) { rdna_case(false, 110000); }
END_TEST
START_TEST(gfx12_rdna_ops_wave32) { rdna_case(true, 120001); }
END_TEST
START_TEST(gfx12_rdna_ops_wave64) { rdna_case(false, 120001); }
END_TEST

/* ---- scalar ALU, branches, SCC, the wave32 mask registers ---- */
static const char scalar_src[] =
  "s_mov_b32 s10, 0xfffffff0\n"
  "s_add_u32 s11, s10, 0x20\n"
  "s_addc_u32 s12, 0, 0\n"                         /* carry: 1 */
  "s_and_not1_b32 s13, 0xff, 0x0f\n"               /* 0xf0 */
  "s_ctz_i32_b32 s14, 0x100\n"                     /* 8 */
  "s_clz_i32_u32 s15, 0x100\n"                     /* 23 */
  "s_mov_b32 s16, 0\n"
  "s_mov_b32 s17, 10\n"
  "L1:\n"
  "s_add_u32 s16, s16, s17\n"
  "s_sub_u32 s17, s17, 1\n"
  "s_cmp_lg_u32 s17, 0\n"
  "s_cbranch_scc1 L1\n"                            /* 55 */
  "s_bcnt1_i32_b32 s18, EXEC_LO_OR\n"
  "s_mov_b32 s19, 0\n"
  "v_cmp_eq_u32_e32 VCC, 1, v0\n"                  /* one lane */
  "s_cbranch_vccz L2\n"
  "s_mov_b32 s19, 1\n"
  "L2:\n"
  "s_delay_alu instid0(SALU_CYCLE_1)\n"
  "s_clause 0x1\n"
  "s_store_b64 s[10:11], s[0:1], 0x0\n"
  "s_endpgm\n";

START_TEST(scalar_and_branches)
{
  as_gfx1100();
  for (int w32 = 1; w32 >= 0; w32--) {
    uint32_t *out = isa_fx_mem(4096);
    char src[4096];
    /* gfx11 has no s_store: the results go out through a VGPR and global_store */
    snprintf(src, sizeof src, "%s", scalar_src);
    char *st = strstr(src, "s_clause");
    snprintf(st, sizeof src - (size_t)(st - src),
             "v_mov_b32_e32 v1, 0\n"
             "v_mov_b32_e32 v2, s11\n v_mov_b32_e32 v3, s12\n v_mov_b32_e32 v4, s13\n"
             "v_mov_b32_e32 v5, s14\n v_mov_b32_e32 v6, s15\n v_mov_b32_e32 v7, s16\n"
             "v_mov_b32_e32 v8, s18\n v_mov_b32_e32 v9, s19\n"
             "s_clause 0x1\n"
             "global_store_b128 v1, v[2:5], s[0:1]\n"
             "global_store_b128 v1, v[6:9], s[0:1] offset:16\n"
             "s_endpgm\n");
    char *e = strstr(src, "EXEC_LO_OR");
    memcpy(e, w32 ? "exec_lo   " : "exec_lo   ", 10);
    void *code = code_for(w32, src);
    NEED(code);
    struct isa_fx_run r;
    setup(&r, code, 1, w32 ? 32 : 64, out, out);
    r.init[0].exec = w32 ? 0x0000ffffull : 0xffff0000ffffull;   /* 16 lanes / 32 lanes */
    ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
    ck_assert_uint_eq(out[0], 0x10);
    ck_assert_uint_eq(out[1], 1);
    ck_assert_uint_eq(out[2], 0xf0);
    ck_assert_uint_eq(out[3], 8);
    ck_assert_uint_eq(out[4], 23);
    ck_assert_uint_eq(out[5], 55);
    ck_assert_uint_eq(out[6], 16);   /* exec_lo's lanes */
    ck_assert_uint_eq(out[7], 1);    /* lane 1 compared equal: VCC not zero */
  }
}
END_TEST

/* ---- lane access: v_permlane16/x16 (ockl's sub-group reductions on gfx10+), v_readlane's
 * lane select taken modulo the wave size ---- */
static const char lanes_src[] =
  "v_lshlrev_b32_e32 v1, 2, v0\n"
  "v_add_nc_u32_e32 v2, 100, v0\n"                 /* x = 100 + lane */
  "s_mov_b32 s10, 0x89abcdef\n"                    /* sel(j) = 15 - j, sel(10) = 10: */
  "s_mov_b32 s11, 0x01234a67\n"                    /* no lane reads the disabled lane 5 */
  "v_mov_b32_e32 v3, 7\n"
  "v_mov_b32_e32 v4, 7\n"
  "v_cmpx_ne_u32_e32 5, v0\n"                      /* lane 5 keeps its 7 */
  "v_permlane16_b32 v3, v2, s10, s11\n"
  "v_permlanex16_b32 v4, v2, s10, s11\n"
  "v_readlane_b32 s12, v2, 33\n"                   /* EXEC does not matter */
  "s_mov_b32 EXEC_LO_ALL, -1\n"
  "v_mov_b32_e32 v5, s12\n"
  "global_store_b32 v1, v3, s[0:1]\n"
  "global_store_b32 v1, v4, s[0:1] offset:256\n"
  "global_store_b32 v1, v5, s[0:1] offset:512\n"
  "s_endpgm\n";

START_TEST(lanes_wave32_wave64)
{
  as_gfx1100();
  for (int w32 = 1; w32 >= 0; w32--) {
    unsigned ws = w32 ? 32 : 64;
    uint32_t *out = isa_fx_mem(4096);
    memset(out, 0xee, 4096);
    char src[4096];
    snprintf(src, sizeof src, "%s", lanes_src);
    char *e = strstr(src, "EXEC_LO_ALL");
    memcpy(e, w32 ? "exec_lo    " : "exec_hi    ", 11);
    if (!w32) {   /* wave64: both halves back on */
      char *m = strstr(src, "s_mov_b32 exec_hi");
      memcpy(m, "s_mov_b64 exec   ", 17);
    }
    void *code = code_for(w32, src);
    NEED(code);
    struct isa_fx_run r;
    setup(&r, code, 1, ws, out, out);
    ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
    for (unsigned l = 0; l < ws; l++) {
      unsigned j = l % 16 == 10 ? 10 : 15 - l % 16;
      ck_assert_uint_eq(out[l], (l == 5 ? 7 : 100 + (l / 16) * 16 + j));
      ck_assert_uint_eq(out[64 + l], (l == 5 ? 7 : 100 + ((l / 16) ^ 1) * 16 + j));
      /* RDNA: lane select bits [4:0] in wave32, [5:0] in wave64 */
      ck_assert_uint_eq(out[128 + l], (w32 ? 101u : 133u));
    }
  }
}
END_TEST

/* ---- scratch (the wave-size swizzle), LDS, ds_bpermute ---- */
static const char mem_src[] =
  "v_lshlrev_b32_e32 v1, 2, v0\n"
  "v_add_nc_u32_e32 v2, 0x1000, v0\n"
  "scratch_store_b32 off, v2, off offset:8\n"      /* private dword 2 of each lane */
  "v_mov_b32_e32 v3, 0\n"
  "WAITS\n"
  "scratch_load_b32 v3, off, off offset:8\n"
  "WAITV\n"
  "global_store_b32 v1, v3, s[0:1]\n"              /* r0 = 0x1000 + id */
  "v_mul_u32_u24_e32 v4, 3, v0\n"
  "ds_store_b32 v1, v4\n"
  "WAITD\n"
  "BARRIER\n"
  "v_xor_b32_e32 v5, 4, v1\n"                      /* the neighbour item's slot */
  "ds_load_b32 v6, v5\n"
  "WAITD\n"
  "global_store_b32 v1, v6, s[0:1] offset:512\n"   /* r1 = 3 * (id ^ 1) */
  "v_add_nc_u32_e32 v7, 4, v1\n"                   /* bpermute from lane + 1 (wraps) */
  "ds_bpermute_b32 v8, v7, v0\n"
  "WAITD\n"
  "global_store_b32 v1, v8, s[0:1] offset:1024\n"
  "v_mov_b32_dpp v9, v0 row_xmask:1 row_mask:0xf bank_mask:0xf\n"
  "v_mov_b32_dpp v10, v0 row_share:3 row_mask:0xf bank_mask:0xf\n"
  "global_store_b32 v1, v9, s[0:1] offset:1536\n"
  "global_store_b32 v1, v10, s[0:1] offset:2048\n"
  "s_endpgm\n";

static void mem_case(bool w32, unsigned version)
{
  as_target(version);
  unsigned ws = w32 ? 32 : 64;
  uint32_t *out = isa_fx_mem(4096);
  uint8_t *scratch = isa_fx_mem(65536);
  void *code = code_for(w32, mem_src);
  NEED(code);
  struct isa_fx_run r;
  setup(&r, code, 1, ws, out, out);
  r.wg.lds_bytes = 1024;
  r.wg.scratch_base = (uintptr_t)scratch;
  r.wg.scratch_per_wave = 4096;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned l = 0; l < ws; l++) {
    ck_assert_uint_eq(out[l], 0x1000 + l);
    ck_assert_uint_eq(out[128 + l], 3 * (l ^ 1));
    ck_assert_uint_eq(out[256 + l], (l + 1) % ws);
    ck_assert_uint_eq(out[384 + l], l ^ 1);                 /* DPP row_xmask:1 */
    ck_assert_uint_eq(out[512 + l], (l & ~15u) | 3);        /* DPP row_share:3 */
    /* AMDGPUUsage's swizzle: dword 2 of lane l at (2 * wave size + l) * 4 */
    uint32_t v;
    memcpy(&v, scratch + (2 * ws + l) * 4, 4);
    ck_assert_uint_eq(v, 0x1000 + l);
  }
}

START_TEST(memory_wave32) { mem_case(true, 110000); }
END_TEST
START_TEST(memory_wave64) { mem_case(false, 110000); }
END_TEST
START_TEST(gfx12_memory_wave32) { mem_case(true, 120001); }
END_TEST
START_TEST(gfx12_memory_wave64) { mem_case(false, 120001); }
END_TEST

/* ---- gfx12's SALU float and 64-bit SALU arithmetic ---- */
START_TEST(gfx12_salu_float)
{
  as_target(120001);
  uint32_t *out = isa_fx_mem(4096);
  void *code = code_for(true,
    "s_mov_b32 s10, 0x40400000\n"                  /* 3.0 */
    "s_add_f32 s11, s10, 0.5\n"                    /* 3.5 */
    "s_mul_f32 s12, s11, -2.0\n"                   /* -7.0 */
    "s_fmamk_f32 s13, s10, 0x41200000, s11\n"      /* 3 * 10 + 3.5 = 33.5 */
    "s_cvt_i32_f32 s14, s12\n"                     /* -7 */
    "s_cvt_f32_u32 s15, 1000\n"
    "s_floor_f32 s16, s13\n"                       /* 33.0 */
    "s_mov_b32 s17, 0\n"
    "s_cmp_lt_f32 s12, s10\n"                      /* -7 < 3 */
    "s_cselect_b32 s17, 5, 6\n"
    "s_mov_b64 s[18:19], 0xffffffff\n"
    "s_add_nc_u64 s[18:19], s[18:19], 2\n"         /* 0x1_0000_0001 */
    "v_mov_b32_e32 v1, 0\n"
    "v_mov_b32_e32 v2, s11\n v_mov_b32_e32 v3, s12\n v_mov_b32_e32 v4, s13\n"
    "v_mov_b32_e32 v5, s14\n v_mov_b32_e32 v6, s15\n v_mov_b32_e32 v7, s16\n"
    "v_mov_b32_e32 v8, s17\n v_mov_b32_e32 v9, s18\n v_mov_b32_e32 v10, s19\n"
    "v_s_rcp_f32 s20, s10\n"
    "v_mov_b32_e32 v11, s20\n"
    "global_store_b128 v1, v[2:5], s[0:1]\n"
    "global_store_b128 v1, v[6:9], s[0:1] offset:16\n"
    "global_store_b64 v1, v[10:11], s[0:1] offset:32\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  setup(&r, code, 1, 32, out, out);
  r.init[0].exec = 1;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  float f;
  memcpy(&f, &out[0], 4); ck_assert(f == 3.5f);
  memcpy(&f, &out[1], 4); ck_assert(f == -7.0f);
  memcpy(&f, &out[2], 4); ck_assert(f == 33.5f);
  ck_assert_uint_eq(out[3], (uint32_t)-7);
  memcpy(&f, &out[4], 4); ck_assert(f == 1000.0f);
  memcpy(&f, &out[5], 4); ck_assert(f == 33.0f);
  ck_assert_uint_eq(out[6], 5);
  ck_assert_uint_eq(out[7], 1);
  ck_assert_uint_eq(out[8], 1);
  memcpy(&f, &out[9], 4); ck_assert(f == 1.0f / 3.0f);
}
END_TEST

/* gfx12's 16-bit SALU float (exec_rdna_salu.c), the values worked out by hand: f16 3.0
 * (0x4200) + 0.5 = 3.5 (0x4300); * -2.0 = -7 (0xc700); fmac: -7 * 0.5 + 3.0... into s13;
 * rounding to nearest even of 1 + 2^-10 + 2^-11 + 2^-21 = 0x3c02; s_cvt_f32_f16, s_cvt_f16_f32,
 * s_cvt_hi_f32_f16; s_cmp_lt_f16; s_minimum_f16 -0, +0 = -0; s_max_num_f16 with a NaN = the
 * number; s_maximum_f32 NaN, 1 = NaN; s_rndne_f16 2.5 = 2. High halves of results are 0. */
START_TEST(gfx12_salu_half)
{
  as_target(120001);
  uint32_t *out = isa_fx_mem(4096);
  void *code = code_for(true,
    "s_mov_b32 s10, 0xffff4200\n"                  /* 3.0, junk in the high half */
    "s_add_f16 s11, s10, 0.5\n"                    /* 0x4300 */
    "s_mul_f16 s12, s11, -2.0\n"                   /* 0xc700 */
    "s_mov_b32 s13, s10\n"
    "s_fmac_f16 s13, s12, 0.5\n"                   /* 3 - 3.5 = -0.5: 0xb800 */
    "s_mov_b32 s14, 0x1001\n"
    "s_add_f16 s14, 0x3c01, s14\n"                 /* 0x3c02 */
    "s_cvt_f32_f16 s15, s12\n"                     /* -7.0f */
    "s_cvt_f16_f32 s16, 0x3fc00000\n"              /* 1.5: 0x3e00 */
    "s_cvt_hi_f32_f16 s17, 0x3c000000\n"           /* 1.0f */
    "s_mov_b32 s18, 0\n"
    "s_cmp_lt_f16 s12, s10\n"
    "s_cselect_b32 s18, 5, 6\n"
    "s_minimum_f16 s19, 0x8000, 0\n"               /* 0x8000 */
    "s_max_num_f16 s20, s10, 0x7e00\n"             /* 0x4200 */
    "s_maximum_f32 s21, 0x7fc00000, 1.0\n"         /* NaN */
    "s_rndne_f16 s22, 0x4100\n"                    /* 2.0: 0x4000 */
    "v_mov_b32_e32 v1, 0\n"
    "v_mov_b32_e32 v2, s11\n v_mov_b32_e32 v3, s12\n v_mov_b32_e32 v4, s13\n"
    "v_mov_b32_e32 v5, s14\n v_mov_b32_e32 v6, s15\n v_mov_b32_e32 v7, s16\n"
    "v_mov_b32_e32 v8, s17\n v_mov_b32_e32 v9, s18\n v_mov_b32_e32 v10, s19\n"
    "v_mov_b32_e32 v11, s20\n v_mov_b32_e32 v12, s21\n v_mov_b32_e32 v13, s22\n"
    "global_store_b128 v1, v[2:5], s[0:1]\n"
    "global_store_b128 v1, v[6:9], s[0:1] offset:16\n"
    "global_store_b128 v1, v[10:13], s[0:1] offset:32\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  setup(&r, code, 1, 32, out, out);
  r.init[0].exec = 1;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  ck_assert_uint_eq(out[0], 0x4300);
  ck_assert_uint_eq(out[1], 0xc700);
  ck_assert_uint_eq(out[2], 0xb800);
  ck_assert_uint_eq(out[3], 0x3c02);
  ck_assert_uint_eq(out[4], 0xc0e00000u);
  ck_assert_uint_eq(out[5], 0x3e00);
  ck_assert_uint_eq(out[6], 0x3f800000u);
  ck_assert_uint_eq(out[7], 5);
  ck_assert_uint_eq(out[8], 0x8000);
  ck_assert_uint_eq(out[9], 0x4200);
  ck_assert_uint_eq(out[10] & 0x7fc00000u, 0x7fc00000u);
  ck_assert_uint_eq(out[11], 0x4000);
}
END_TEST

/* gfx12's sub-dword scalar loads: bytes and halves at any byte address, sign or zero
 * extended; the buffer forms range-checked against the V#'s NUM_RECORDS (0 beyond). */
START_TEST(gfx12_smem_subdword)
{
  as_target(120001);
  uint32_t *out = isa_fx_mem(4096);
  uint8_t *in = isa_fx_mem(4096);
  for (unsigned i = 0; i < 64; i++)
    in[i] = (uint8_t)(0x31 + 29 * i);
  void *code = code_for(true,
    "s_load_u8 s10, s[2:3], 0x5\n"
    "s_load_i8 s11, s[2:3], 0x3\n"
    "s_load_u16 s12, s[2:3], 0x9\n"                /* odd address */
    "s_load_i16 s13, s[2:3], 0xa\n"
    "s_mov_b32 s16, s2\n"
    "s_and_b32 s17, s3, 0xffff\n"
    "s_mov_b32 s18, 16\n"                          /* NUM_RECORDS: 16 bytes */
    "s_mov_b32 s19, 0\n"
    "s_buffer_load_i8 s14, s[16:19], 0x7\n"
    "s_buffer_load_u16 s15, s[16:19], 0xf\n"       /* bytes 15-16: past the end */
    "s_mov_b32 s20, 2\n"
    "s_buffer_load_u16 s21, s[16:19], s20 offset:0x4\n"
    "WAITK\n"
    "v_mov_b32_e32 v1, 0\n"
    "v_mov_b32_e32 v2, s10\n v_mov_b32_e32 v3, s11\n v_mov_b32_e32 v4, s12\n"
    "v_mov_b32_e32 v5, s13\n v_mov_b32_e32 v6, s14\n v_mov_b32_e32 v7, s15\n"
    "v_mov_b32_e32 v8, s21\n v_mov_b32_e32 v9, 0\n"
    "global_store_b128 v1, v[2:5], s[0:1]\n"
    "global_store_b128 v1, v[6:9], s[0:1] offset:16\n"
    "s_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  setup(&r, code, 1, 32, out, in);
  r.init[0].exec = 1;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  ck_assert_uint_eq(out[0], in[5]);
  ck_assert_uint_eq(out[1], (uint32_t)(int32_t)(int8_t)in[3]);
  ck_assert_uint_eq(out[2], in[9] | (uint32_t)in[10] << 8);
  ck_assert_uint_eq(out[3], (uint32_t)(int32_t)(int16_t)(in[10] | in[11] << 8));
  ck_assert_uint_eq(out[4], (uint32_t)(int32_t)(int8_t)in[7]);
  ck_assert_uint_eq(out[5], 0);
  ck_assert_uint_eq(out[6], in[6] | (uint32_t)in[7] << 8);
}
END_TEST

/* tbuffer with gfx10+'s unified formats (gfx1100's MTBUF, gfx1201's VBUFFER): each lane
 * stores (id, id + 1, 255 - id, 7) as BUF_FMT_8_8_8_8_UINT at 4 * id, reads the dword back
 * as BUF_FMT_32_UINT, and as BUF_FMT_16_16_SINT (two sign-extended halves). */
static void tbuffer_case(unsigned version)
{
  as_target(version);
  uint32_t *out = isa_fx_mem(4096), *buf = isa_fx_mem(4096);
  memset(buf, 0, 4096);
  const char *so = version >= 120000 ? "null" : "0";
  char src[2048];
  snprintf(src, sizeof src,
    "v_lshlrev_b32_e32 v1, 2, v0\n"
    "v_mov_b32_e32 v2, v0\n"
    "v_add_nc_u32_e32 v3, 1, v0\n"
    "v_sub_nc_u32_e32 v4, 0xff, v0\n"
    "v_mov_b32_e32 v5, 7\n"
    "tbuffer_store_format_xyzw v[2:5], v1, s[4:7], %s format:[BUF_FMT_8_8_8_8_UINT] offen\n"
    "WAITS\n"
    "tbuffer_load_format_x v6, v1, s[4:7], %s format:[BUF_FMT_32_UINT] offen\n"
    "tbuffer_load_format_xy v[7:8], v1, s[4:7], %s format:[BUF_FMT_16_16_SINT] offen\n"
    "WAITV\n"
    "global_store_b32 v1, v6, s[0:1]\n"
    "global_store_b32 v1, v7, s[0:1] offset:256\n"
    "global_store_b32 v1, v8, s[0:1] offset:512\n"
    "s_endpgm\n", so, so, so);
  void *code = code_for(true, src);
  NEED(code);
  struct isa_fx_run r;
  setup(&r, code, 1, 32, out, out);
  r.init[0].sgpr[4] = (uint32_t)(uintptr_t)buf;
  r.init[0].sgpr[5] = (uint32_t)((uintptr_t)buf >> 32) & 0xffff;
  r.init[0].sgpr[6] = 4096;          /* NUM_RECORDS */
  r.init[0].sgpr[7] = 0xfac;         /* DST_SEL X Y Z W */
  r.init[0].sgpr_count = 8;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned l = 0; l < 32; l++) {
    uint32_t want = l | (l + 1) << 8 | (255 - l) << 16 | 7u << 24;
    ck_assert_msg(buf[l] == want && out[l] == want, "lane %u: 0x%08x 0x%08x, want 0x%08x", l,
                  buf[l], out[l], want);
    ck_assert_uint_eq(out[64 + l], (uint32_t)(int32_t)(int16_t)(want & 0xffff));
    ck_assert_uint_eq(out[128 + l], (uint32_t)(int32_t)(int16_t)(want >> 16));
  }
}

/* The d16 tbuffer forms: components as packed halves, the low one first (an odd count leaves
 * the last VGPR's high half 0). Each lane's dword (l, 2l, 255 - l, 128) is loaded as
 * 8_8_8_8_UNORM (halves of x / 255, the host's _Float16 conversion), 8_8_8_8_SINT (16-bit
 * sign-extended) and 8_8_8_8_UINT (xyz), then stored back as 8_8_8_8_UNORM (the same bytes
 * again) and as 16_16_FLOAT (the halves as they are). */
static void tbuffer_d16_case(unsigned version)
{
  as_target(version);
  uint32_t *out = isa_fx_mem(4096), *buf = isa_fx_mem(4096);
  memset(out, 0, 4096);
  memset(buf, 0, 4096);
  for (unsigned l = 0; l < 32; l++)
    buf[l] = l | (2 * l) << 8 | (255 - l) << 16 | 128u << 24;
  const char *so = version >= 120000 ? "null" : "0";
  char src[2048];
  snprintf(src, sizeof src,
    "v_lshlrev_b32_e32 v1, 2, v0\n"
    "tbuffer_load_d16_format_xyzw v[2:3], v1, s[4:7], %s format:[BUF_FMT_8_8_8_8_UNORM] offen\n"
    "tbuffer_load_d16_format_xy v4, v1, s[4:7], %s format:[BUF_FMT_8_8_8_8_SINT] offen\n"
    "v_mov_b32_e32 v6, -1\n"
    "tbuffer_load_d16_format_xyz v[5:6], v1, s[4:7], %s format:[BUF_FMT_8_8_8_8_UINT] offen\n"
    "WAITV\n"
    "tbuffer_store_d16_format_xyzw v[2:3], v1, s[4:7], %s format:[BUF_FMT_8_8_8_8_UNORM] offen offset:1024\n"
    "tbuffer_store_d16_format_xy v2, v1, s[4:7], %s format:[BUF_FMT_16_16_FLOAT] offen offset:2048\n"
    "WAITS\n"
    "global_store_b32 v1, v2, s[0:1]\n"
    "global_store_b32 v1, v3, s[0:1] offset:256\n"
    "global_store_b32 v1, v4, s[0:1] offset:512\n"
    "global_store_b32 v1, v5, s[0:1] offset:768\n"
    "global_store_b32 v1, v6, s[0:1] offset:1024\n"
    "s_endpgm\n", so, so, so, so, so);
  void *code = code_for(true, src);
  NEED(code);
  struct isa_fx_run r;
  setup(&r, code, 1, 32, out, out);
  r.init[0].sgpr[4] = (uint32_t)(uintptr_t)buf;
  r.init[0].sgpr[5] = (uint32_t)((uintptr_t)buf >> 32) & 0xffff;
  r.init[0].sgpr[6] = 4096;          /* NUM_RECORDS */
  r.init[0].sgpr[7] = 0xfac;         /* DST_SEL X Y Z W */
  r.init[0].sgpr_count = 8;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  for (unsigned l = 0; l < 32; l++) {
    uint16_t h[4];
    for (unsigned c = 0; c < 4; c++) {
      _Float16 f = (_Float16)((float)((buf[l] >> (8 * c)) & 0xff) / 255.0f);
      memcpy(&h[c], &f, 2);
    }
    ck_assert_uint_eq(out[l], h[0] | (uint32_t)h[1] << 16);
    ck_assert_uint_eq(out[64 + l], h[2] | (uint32_t)h[3] << 16);
    ck_assert_uint_eq(out[128 + l], (uint16_t)(int8_t)l | (uint32_t)(uint16_t)(int8_t)(2 * l) << 16);
    ck_assert_uint_eq(out[192 + l], l | (2 * l) << 16);
    ck_assert_uint_eq(out[256 + l], 255 - l);
    ck_assert_uint_eq(buf[256 + l], buf[l]);
    ck_assert_uint_eq(buf[512 + l], out[l]);
  }
}

/* MUBUF's d16 format forms with the V#'s unified FORMAT (word3 [17:12]; llvm-mc-19 numbers
 * BUF_FMT_8_8_8_8_UNORM 42 and BUF_FMT_8_8_SINT 19 on gfx1100 and gfx1201) and its DST_SEL:
 * s[4:7] is 8_8_8_8_UNORM selecting (Z, Y, X, 1), s[8:11] 8_8_SINT. Loads: xyzw (halves of
 * Z/255, Y/255, X/255, 1.0 by the host's _Float16), xyz (the last high half 0), _hi_x (the
 * high half, the low one kept), xy SINT (sign-extended to 16 bits). Stores (no select): xyzw
 * writes the halves' bytes in x y z w order, _hi_x the high half as x, the rest kept. */
static void mubuf_d16_case(unsigned version)
{
  as_target(version);
  uint32_t *out = isa_fx_mem(4096);
  uint8_t *buf = isa_fx_mem(4096);
  for (unsigned i = 0; i < 4096; i++)
    buf[i] = i < 128 ? (uint8_t)(i * 67 + 3) : 0xee;
  const char *so = version >= 120000 ? "null" : "0";
  char src[2048];
  snprintf(src, sizeof src,
    "v_lshlrev_b32_e32 v1, 2, v0\n"
    "buffer_load_d16_format_xyzw v[2:3], v1, s[4:7], %s offen\n"
    "v_mov_b32_e32 v5, -1\n"
    "buffer_load_d16_format_xyz v[4:5], v1, s[4:7], %s offen\n"
    "v_mov_b32_e32 v6, 0x1234abcd\n"
    "buffer_load_d16_hi_format_x v6, v1, s[4:7], %s offen\n"
    "buffer_load_d16_format_xy v7, v1, s[8:11], %s offen\n"
    "WAITV\n"
    "buffer_store_d16_format_xyzw v[2:3], v1, s[4:7], %s offen offset:1024\n"
    "buffer_store_d16_hi_format_x v6, v1, s[4:7], %s offen offset:2048\n"
    "WAITS\n"
    "global_store_b32 v1, v2, s[0:1]\n"
    "global_store_b32 v1, v3, s[0:1] offset:256\n"
    "global_store_b32 v1, v4, s[0:1] offset:512\n"
    "global_store_b32 v1, v5, s[0:1] offset:768\n"
    "global_store_b32 v1, v6, s[0:1] offset:1024\n"
    "global_store_b32 v1, v7, s[0:1] offset:1280\n"
    "s_endpgm\n", so, so, so, so, so, so);
  void *code = code_for(true, src);
  NEED(code);
  struct isa_fx_run r;
  setup(&r, code, 1, 32, out, out);
  for (unsigned k = 0; k < 2; k++) {
    uint32_t *s = &r.init[0].sgpr[4 + 4 * k];
    s[0] = (uint32_t)(uintptr_t)buf;
    s[1] = (uint32_t)((uintptr_t)buf >> 32) & 0xffff;
    s[2] = 4096;                                   /* NUM_RECORDS */
    s[3] = k == 0 ? 0x32e | 42u << 12 : 0x2c | 19u << 12;
  }
  r.init[0].sgpr_count = 12;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
  isa_fx_check_mubuf_d16(buf, out, 32);
}

START_TEST(mubuf_d16) { mubuf_d16_case(110000); }
END_TEST
START_TEST(gfx12_mubuf_d16) { mubuf_d16_case(120001); }
END_TEST
START_TEST(tbuffer_d16) { tbuffer_d16_case(110000); }
END_TEST
START_TEST(gfx12_tbuffer_d16) { tbuffer_d16_case(120001); }
END_TEST

START_TEST(tbuffer_unified_formats) { tbuffer_case(110000); }
END_TEST
START_TEST(gfx12_tbuffer_unified_formats) { tbuffer_case(120001); }
END_TEST

/* ---- traps without a second-level handler (what runtimes install on gfx11+): s_trap is
 * stepped over, an illegal encoding halts the wave, as Linux's first level does ---- */
START_TEST(trap_without_handler)
{
  for (unsigned version = 110000; version <= 120001; version += 10001) {
    as_target(version);
    uint32_t *out = isa_fx_mem(4096);
    void *code = code_for(true,
      "s_trap 2\n"
      "v_mov_b32_e32 v1, 0\n"
      "v_mov_b32_e32 v2, 0x1234\n"
      "global_store_b32 v1, v2, s[0:1]\n"
      "s_endpgm\n");
    NEED(code);
    struct isa_fx_run r;
    setup(&r, code, 1, 32, out, out);
    ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
    ck_assert_uint_eq(out[0], 0x1234);
    /* an encoding neither family has (VOP3P opcode 0x7f): the wave halts there */
    uint32_t *bad = isa_fx_mem(4096);
    bad[0] = 0xbf800000u;   /* s_nop 0, twice */
    bad[1] = 0xbf800000u;
    bad[2] = 0xcc7f0000u;
    bad[3] = 0x00000000u;
    bad[4] = 0xbfb00000u;   /* s_endpgm on both */
    setup(&r, bad, 1, 32, out, out);
    ck_assert_int_eq(isa_fx_go(&r), -1);
    ck_assert_int_eq(r.fault.kind, SIM_ISA_HALTED);
    /* halted with its PC moved back 8 bytes from the illegal instruction */
    ck_assert_uint_eq(r.fault.pc, (uintptr_t)bad);
  }
}
END_TEST

/* ---- the first level's entry into a second level (cwsr_trap_handler_gfx10.asm for gfx11,
 * _gfx12.asm): ttmp0:1 = the s_trap's address with the trap id in ttmp1[23:16] (gfx11) or
 * ttmp1[31:28] (gfx12), ttmp12 = STATUS (gfx11: PRIV set, SCC in bit 0) or STATE_PRIV (gfx12:
 * SCC in bit 9) without HALT, ttmp14:15 = the second-level TMA; the handler steps over the
 * s_trap. MSG_DEALLOC_VGPRS sets STATUS.NO_VGPRS (bit 24 on both). ---- */
static const char trap_entry_src[] =
  "s_cmp_eq_u32 0, 0\n"                       /* SCC = 1 at the trap */
  "s_trap 5\n"
  "v_mov_b32_e32 v1, 0\n"
  "v_mov_b32_e32 v2, 0x22\n"
  "global_store_b32 v1, v2, s[0:1] offset:4\n"
  "s_getreg_b32 s6, hwreg(HW_REG_STATUS)\n"
  "s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\n"
  "s_getreg_b32 s7, hwreg(HW_REG_STATUS)\n"
  "v_mov_b32_e32 v2, s6\n"                    /* the model keeps the VGPRs' values */
  "v_mov_b32_e32 v3, s7\n"
  "global_store_b64 v1, v[2:3], s[0:1] offset:48\n"
  "s_endpgm\n"
  ".p2align 8\n"
  "handler:\n"
  "v_mov_b32_e32 v1, 0\n"
  "v_mov_b32_e32 v2, ttmp0\n"
  "v_mov_b32_e32 v3, ttmp1\n"
  "v_mov_b32_e32 v4, ttmp12\n"
  "v_mov_b32_e32 v5, ttmp14\n"
  "v_mov_b32_e32 v6, ttmp15\n"
  "global_store_b128 v1, v[2:5], s[0:1] offset:16\n"
  "global_store_b32 v1, v6, s[0:1] offset:32\n"
  "WAITS\n"
  "s_add_u32 ttmp0, ttmp0, 4\n"
  "s_addc_u32 ttmp1, ttmp1, 0\n"
  "s_and_b32 ttmp1, ttmp1, 0xffff\n"
  "s_rfe_b64 ttmp[0:1]\n";

START_TEST(trap_second_level_entry)
{
  for (unsigned version = 110000; version <= 120001; version += 10001) {
    as_target(version);
    uint32_t *out = isa_fx_mem(4096);
    memset(out, 0, 4096);
    uint8_t *code = code_for(true, trap_entry_src);
    NEED(code);
    struct isa_fx_run r;
    setup(&r, code, 1, 32, out, out);
    r.wg.tba = (uintptr_t)code + 256;
    r.wg.tma = 0x123456789000ull;
    ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
    ck_assert_uint_eq(out[1], 0x22);                          /* went on after the handler */
    uint64_t at = (uintptr_t)code + 4;                        /* the s_trap */
    ck_assert_uint_eq(out[4], (uint32_t)at);
    ck_assert_uint_eq(out[5] & 0xffff, (uint32_t)(at >> 32) & 0xffff);
    if (gfx12) {
      ck_assert_uint_eq(out[5] >> 28, 5);
      ck_assert_uint_eq((out[5] >> 16) & 0xfff, 0);
      ck_assert_uint_eq(out[6] & 0x4200u, 0x200u);            /* SCC, no HALT */
    } else {
      ck_assert_uint_eq(out[5] >> 16, 5);
      ck_assert_uint_eq(out[6] & 0x2021u, 0x21u);             /* PRIV, SCC, no HALT */
    }
    ck_assert_uint_eq(((uint64_t)out[8] << 32 | out[7]), 0x123456789000ull);
    ck_assert_uint_eq(out[12] & 0x1000000u, 0);               /* NO_VGPRS before the dealloc */
    ck_assert_uint_eq(out[13] & 0x1000000u, 0x1000000u);      /* and after */
  }
}
END_TEST

/* An illegal instruction enters the second level with trap id 0 and ttmp0:1 at it, TRAPSTS.
 * ILLEGAL_INST (gfx11) or EXCP_FLAG_PRIV.ILLEGAL_INST (gfx12), and no HALT from the first
 * level; the handler sets HALT itself and the wave stays there (no PC rewind with a second
 * level). */
START_TEST(trap_second_level_illegal)
{
  for (unsigned version = 110000; version <= 120001; version += 10001) {
    as_target(version);
    uint32_t *out = isa_fx_mem(4096);
    memset(out, 0, 4096);
    char src[1024];
    snprintf(src, sizeof src,
      "s_nop 0\n"
      ".long 0xcc7f0000, 0x00000000\n"          /* VOP3P opcode 0x7f: neither family has it */
      "v_mov_b32_e32 v1, 0\n"
      "v_mov_b32_e32 v2, 0x22\n"
      "global_store_b32 v1, v2, s[0:1] offset:4\n"
      "s_endpgm\n"
      ".p2align 8\n"
      "handler:\n"
      "s_getreg_b32 ttmp2, hwreg(%s)\n"
      "v_mov_b32_e32 v1, 0\n"
      "v_mov_b32_e32 v2, ttmp2\n"
      "v_mov_b32_e32 v3, ttmp12\n"
      "v_mov_b32_e32 v4, ttmp0\n"
      "v_mov_b32_e32 v5, ttmp1\n"
      "global_store_b128 v1, v[2:5], s[0:1] offset:16\n"
      "WAITS\n"
      "s_bitset1_b32 ttmp12, %u\n"
      "%s\n"
      "s_rfe_b64 ttmp[0:1]\n",
      gfx12 ? "HW_REG_EXCP_FLAG_PRIV" : "HW_REG_TRAPSTS", gfx12 ? 14u : 13u,
      gfx12 ? "s_lshr_b32 ttmp12, ttmp12, 9\ns_setreg_b32 hwreg(HW_REG_STATE_PRIV, 9, 7), ttmp12"
            : "s_setreg_b32 hwreg(HW_REG_STATUS), ttmp12");
    uint8_t *code = code_for(true, src);
    NEED(code);
    struct isa_fx_run r;
    setup(&r, code, 1, 32, out, out);
    r.wg.tba = (uintptr_t)code + 256;
    ck_assert_int_eq(isa_fx_go(&r), -1);
    ck_assert_msg(r.fault.kind == SIM_ISA_HALTED, "%s", r.fault.text);
    uint64_t at = (uintptr_t)code + 4;
    ck_assert_uint_eq(r.fault.pc, at);
    ck_assert_uint_eq(out[1], 0);                             /* the wave did not go on */
    ck_assert_uint_eq(out[4], gfx12 ? 0x40u : 0x800u);       /* ILLEGAL_INST only */
    ck_assert_uint_eq(out[5] & (gfx12 ? 0x4000u : 0x2000u), 0);   /* no HALT from the first level */
    ck_assert_uint_eq(out[6], (uint32_t)at);
    ck_assert_uint_eq(out[7] & 0xffffff, (uint32_t)(at >> 32) & 0xffff);   /* trap id 0 */
    ck_assert_uint_eq(out[7] >> 24, 0);
  }
}
END_TEST

/* ---- random words: the decoders and the text never crash, sizes stay 4..12 ---- */
/* The decoder's tables (decode_gfx11.c resolves an opcode by name at its first decode,
 * valu_find through a hash index) against the same resolution restated as plain scans: every
 * opcode of every format of both families, its mnemonic, gfx9 opcode and VALU descriptor;
 * and valu_find against valu_find_scan for every name the tables hold. */
static const struct valu_desc *ref_valu_named(const char *gfx11, const char *gfx9)
{
  for (unsigned i = 0; i < g11_valu_count; i++)
    if (!strcmp(g11_valu_ops[i].name, gfx11))
      return &g11_valu_ops[i];
  size_t n = strlen(gfx11);
  if (n > 4 && (!strcmp(gfx11 + n - 4, "_e32") || !strcmp(gfx11 + n - 4, "_e64")))
    n -= 4;
  for (unsigned i = 0; i < g11_rdna_count; i++)
    if (!strncmp(g11_rdna_ops[i].name, gfx11, n) && !g11_rdna_ops[i].name[n])
      return &g11_rdna_ops[i];
  for (unsigned i = 0; i < g11_wmma_count; i++)
    if (!strcmp(g11_wmma_ops[i].name, gfx11))
      return &g11_wmma_ops[i];
  return gfx9 ? valu_find_scan(gfx9) : NULL;
}

struct ref_ent {
  char name[48];             /* "" = no opcode */
  int op9;
  const struct valu_desc *d;
};

/* opcode `op` of format `f` in `ops` (the last row with that opcode), as decode_gfx11.c's
 * first version built its tables: name without _e32/_e64, gfx9 opcode by a scan of the gfx9
 * names, VALU descriptor */
static void ref_row(struct ref_ent *r, unsigned f, unsigned op, const struct g11_op *ops,
                    unsigned n, const char *const *t9, unsigned n9)
{
  memset(r, 0, sizeof *r);
  r->op9 = -1;
  for (unsigned i = 0; i < n; i++) {
    if (ops[i].op != op)
      continue;
    size_t l = strlen(ops[i].name);
    ck_assert_uint_lt(l, sizeof r->name);
    memcpy(r->name, ops[i].name, l + 1);
    if (l > 4 && (!strcmp(r->name + l - 4, "_e32") || !strcmp(r->name + l - 4, "_e64")))
      r->name[l - 4] = 0;
    if (t9 && ops[i].gfx9) {
      r->op9 = -1;
      for (unsigned k = 0; k < n9; k++)
        if (t9[k] && !strcmp(t9[k], ops[i].gfx9)) {
          r->op9 = (int)k;
          break;
        }
    }
    if (f >= G11_F_VOP1 && f <= G11_F_VOP3P)
      r->d = ref_valu_named(r->name, ops[i].gfx9);
  }
}

static void tables_case(uint8_t target)
{
  bool g12 = target == ISA_TARGET_GFX1201;
#define FMT(x, t9, n9, size)                                                                 \
  { g12 ? g12_##x : g11_##x, g12 ? g12_##x##_count : g11_##x##_count, t9, n9, size }
  const struct { const struct g11_op *ops; unsigned n; const char *const *t9; unsigned n9, size; }
  fmt[G11_F_COUNT] = {
    FMT(sop2, isa_sop2_names, 128, 128), FMT(sopk, isa_sopk_names, 32, 32),
    FMT(sop1, isa_sop1_names, 256, 256), FMT(sopc, isa_sopc_names, 128, 128),
    FMT(sopp, isa_sopp_names, 128, 128), FMT(smem, isa_smem_names, 256, 256),
    FMT(vop1, NULL, 0, 256), FMT(vop2, NULL, 0, 64), FMT(vopc, NULL, 0, 256),
    FMT(vop3, NULL, 0, 1024), FMT(vop3p, NULL, 0, 128), FMT(ds, isa_ds_names, 256, 256),
    FMT(flat, isa_flat_names, 128, 128), FMT(global, isa_global_names, 128, 128),
    FMT(scratch, isa_scratch_names, 128, 128), FMT(mubuf, isa_mubuf_names, 128, 256),
    FMT(mtbuf, isa_mtbuf_names, 16, 16),
  };
#undef FMT
  unsigned named = 0, with_op9 = 0, with_d = 0;
  /* from the top down, so that VOP3 entries resolve before the VOP1/VOP2/VOPC ones they
   * promote (the decoder resolves those on the way) */
  for (unsigned f = G11_F_COUNT; f-- > 0;)
    for (unsigned op = fmt[f].size; op-- > 0;) {
      struct ref_ent r;
      ref_row(&r, f, op, fmt[f].ops, fmt[f].n, fmt[f].t9, fmt[f].n9);
      if (f == G11_F_VOP3 && !r.name[0] && op < 0x200 && !(op >= 0x140 && op < 0x180)) {
        unsigned pf = op < 0x100 ? G11_F_VOPC : op < 0x180 ? G11_F_VOP2 : G11_F_VOP1;
        unsigned pop = op < 0x100 ? op : op < 0x180 ? op - 0x100 : op - 0x180;
        ref_row(&r, pf, pop, fmt[pf].ops, fmt[pf].n, fmt[pf].t9, fmt[pf].n9);
      }
      if (f == G11_F_SMEM) {
        if (!strcmp(r.name, "s_dcache_inv")) r.op9 = 0x20;
        else if (!strcmp(r.name, "s_load_b96")) r.op9 = 2;
        else if (!strcmp(r.name, "s_buffer_load_b96")) r.op9 = 10;
      }
      if (f <= G11_F_SOPC && r.name[0]) {
        if (g12_salu_float(r.name)) r.op9 = 0x4000 | (int)op;
        else if (g12_salu_half(r.name)) r.op9 = 0x5000 | (int)op;
      }
      const char *name = NULL;
      int op9 = 0;
      const struct valu_desc *d = NULL;
      bool have = g11_decode_entry(target, f, op, &name, &op9, &d);
      ck_assert_msg(have == (r.name[0] != 0), "target %u format %u opcode %#x: %s / %s", target,
                    f, op, have ? name : "(none)", r.name[0] ? r.name : "(none)");
      if (!have)
        continue;
      ck_assert_msg(!strcmp(name, r.name) && op9 == r.op9 && d == r.d,
                    "target %u format %u opcode %#x: %s %d %s, scanned %s %d %s", target, f, op,
                    name, op9, d ? d->name : "-", r.name, r.op9, r.d ? r.d->name : "-");
      named++;
      with_op9 += op9 >= 0;
      with_d += d != NULL;
    }
  /* the tables are not empty (gfx11 / gfx12: 1395 / 1481 opcodes, 508 / 547 with a gfx9
   * opcode, 771 / 759 with VALU semantics) */
  ck_assert_uint_gt(named, 1300);
  ck_assert_uint_gt(with_op9, 450);
  ck_assert_uint_gt(with_d, 700);
  for (unsigned f = 0; f < G11_F_COUNT; f++)
    for (unsigned i = 0; i < fmt[f].n; i++)
      if (fmt[f].ops[i].gfx9)
        ck_assert_msg(valu_find(fmt[f].ops[i].gfx9) == valu_find_scan(fmt[f].ops[i].gfx9),
                      "valu_find(%s)", fmt[f].ops[i].gfx9);
}

START_TEST(decode_tables)
{
  tables_case(ISA_TARGET_GFX1100);
  tables_case(ISA_TARGET_GFX1201);
  /* every VALU name of the gfx9 tables, and names none has */
#define EACH(x)                                                                              \
  for (unsigned i = 0; i < valu_##x##_count; i++)                                            \
    if (valu_##x##_ops[i].name)                                                              \
      ck_assert_msg(valu_find(valu_##x##_ops[i].name) == valu_find_scan(valu_##x##_ops[i].name), \
                    "valu_find(%s)", valu_##x##_ops[i].name);
  EACH(int) EACH(f32) EACH(f64) EACH(f16) EACH(cmp) EACH(cvt) EACH(pk) EACH(misc) EACH(g942)
  EACH(mai) EACH(fp8)
#undef EACH
  static const char *const absent[] = { "", "v_", "v_add_f32_e32", "s_add_u32", "v_add_f3",
                                        "v_add_f322" };
  for (unsigned i = 0; i < sizeof absent / sizeof absent[0]; i++)
    ck_assert_ptr_null(valu_find(absent[i]));
  ck_assert_ptr_nonnull(valu_find("v_add_f32"));
}
END_TEST

START_TEST(decode_random_words)
{
  uint64_t x = 0x9e3779b97f4a7c15ull;
  for (unsigned t = ISA_TARGET_GFX1100; t <= ISA_TARGET_GFX1201; t++)
    for (unsigned i = 0; i < 200000; i++) {
      uint32_t w[3];
      for (unsigned k = 0; k < 3; k++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        w[k] = (uint32_t)x;
      }
      if (i & 1)   /* the top bits pick the format: make each one common */
        w[0] = (w[0] & 0x03ffffffu) | (uint32_t)((x >> 40) & 0x3f) << 26;
      struct isa_inst in;
      isa_decode(w, 1 + (unsigned)(x % 3), 0x1000, (uint8_t)t, &in);
      ck_assert(in.size == 4 || in.size == 8 || in.size == 12);
      char buf[200];
      isa_describe_inst(&in, buf, sizeof buf);
      (void)isa_describe_exact(&in);
    }
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("isa_gfx11");
  TCase *t = tcase_create("gfx11");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, valu_wave32);
  tcase_add_test(t, valu_wave64);
  tcase_add_test(t, scalar_and_branches);
  tcase_add_test(t, lanes_wave32_wave64);
  tcase_add_test(t, memory_wave32);
  tcase_add_test(t, memory_wave64);
  tcase_add_test(t, gfx12_valu_wave32);
  tcase_add_test(t, gfx12_valu_wave64);
  tcase_add_test(t, gfx12_memory_wave32);
  tcase_add_test(t, gfx12_memory_wave64);
  tcase_add_test(t, gfx12_salu_float);
  tcase_add_test(t, gfx12_salu_half);
  tcase_add_test(t, gfx12_smem_subdword);
  tcase_add_test(t, tbuffer_unified_formats);
  tcase_add_test(t, gfx12_tbuffer_unified_formats);
  tcase_add_test(t, tbuffer_d16);
  tcase_add_test(t, gfx12_tbuffer_d16);
  tcase_add_test(t, mubuf_d16);
  tcase_add_test(t, gfx12_mubuf_d16);
  tcase_add_test(t, trap_without_handler);
  tcase_add_test(t, trap_second_level_entry);
  tcase_add_test(t, trap_second_level_illegal);
  tcase_add_test(t, decode_random_words);
  tcase_add_test(t, decode_tables);
  tcase_add_test(t, rdna_ops_wave32);
  tcase_add_test(t, rdna_ops_wave64);
  tcase_add_test(t, gfx12_rdna_ops_wave32);
  tcase_add_test(t, gfx12_rdna_ops_wave64);
  tcase_add_test(t, wmma_modifiers);
  tcase_add_test(t, gfx12_wmma_modifiers);
  suite_add_tcase(s, t);
  return s;
}
