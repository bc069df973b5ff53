/* SPDX-License-Identifier: MIT */
/* test_isa_image_gfx11.c — gfx11 (RDNA3) image instructions on sim/isa: MIMG code assembled
 * by llvm-mc-19 --mcpu=gfx1100 (dim field, NSA address lists, gfx11's unorm bit) runs on a
 * GPU whose model says gfx1100, with T#s and S#s built here from the RDNA3 ISA's field tables
 * (FORMAT in word1[27:20], WIDTH split across word1[31:30] and word2[11:0], HEIGHT
 * word2[27:14], DEPTH or gfx10.3+'s PITCH - 1 in word4, BASE_ARRAY word4[28:16]), every result
 * against a host reference: image_load of 8_8_8_8_UNORM with a DST_SEL swizzle and a padded
 * pitch (zero outside), image_store of 32_FLOAT into a 2D array at addrlib's linear pitch
 * (dropped outside), image_sample_lz bilinear with unnormalized coordinates and clamping;
 * a 4-level mip chain in gfx10+'s LINEAR layout (smallest level first, each level at its own
 * 256-byte pitch) through image_store_mip (every texel of the chain checked), image_load_mip
 * and image_sample_l against offsets computed here from addrlib's formula, and a 3D chain
 * (each slice holding the chain) through image_store_mip.
 * gfx1201 (RDNA4): VIMAGE/VSAMPLE code (llvm-mc-19 --mcpu=gfx1201) with gfx12's T#/S# built
 * here from Mesa's gfx12 field positions (FORMAT word1[24:17], HEIGHT word2[29:14], DEPTH or
 * PITCH - 1 word4[13:0] with PITCH_MSB [15:14], 3D/array rows in 128-byte multiples, S#
 * MAX_LOD word1[25:13]): a load at a pitch above 16384 texels (PITCH_MSB), a store into a 2D
 * array at 128-byte rows plus image_atomic_add_uint returning the old values, a bilinear
 * sample, gather4 and get_resinfo, each against its host reference. */
#include "kfd_fixture.h"
#define ISA_FX_MC "/usr/bin/llvm-mc-19"
#include "isa_fixture.h"
#include "image_fixture.h"

#include "dev/catalog.h"
#include "isa/exec.h"
#include "isa/image.h"

#define NEED(code) do { if (!(code)) { fprintf(stderr, "llvm-mc-19 missing: skipped\n"); return; } } while (0)

static void as_gfx1100(void)
{
  isa_fx_as_target(110000);
}

/* unified FORMAT numbers (the RDNA3 ISA's image format table) and T# TYPEs */
enum { F_32_FLOAT = 22, F_8_8_8_8_UNORM = 42 };
enum { T_2D = 9, T_2D_ARRAY = 13 };
#define SEL_ZYXW (6u | 5u << 3 | 4u << 6 | 7u << 9)
#define SEL_XYZW (4u | 5u << 3 | 6u << 6 | 7u << 9)

/* the T# words gfx11 and gfx12 lay out alike, with FORMAT at word1 bit fmt_lo (20, 17) */
static void tsharp_at(uint32_t *d, uint64_t base, unsigned fmt, unsigned fmt_lo, unsigned w,
                      unsigned h, unsigned type, unsigned sel, unsigned field4)
{
  memset(d, 0, 32);
  d[0] = (uint32_t)(base >> 8);
  d[1] = (uint32_t)(base >> 40) & 0xff;
  d[1] |= fmt << fmt_lo | ((w - 1) & 3u) << 30;
  d[2] = (w - 1) >> 2 | (h - 1) << 14;
  d[3] = sel | type << 28;   /* SW_MODE 0: linear */
  d[4] = field4;
}

/* a gfx11 T#; field4 is word4[13:0]: pitch - 1 (1D/2D) or the last slice / depth - 1 */
static void tsharp(uint32_t *d, uint64_t base, unsigned fmt, unsigned w, unsigned h,
                   unsigned type, unsigned sel, unsigned field4)
{
  tsharp_at(d, base, fmt, 20, w, h, type, sel, field4);
}

/* runs src for `cpu` as one wave32: v0 the lane id, s[0:1] out, s[4:11] t, s[12:15] s */
static void run_on(const char *cpu, const char *src, uint32_t *out, const uint32_t t[8],
                   const uint32_t s[4])
{
  void *code = isa_fx_code_for(cpu, src, NULL);
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, (uintptr_t)out, 0);
  r.wg.wave_size = 32;
  r.wg.vgpr_alloc = 64;
  r.wg.sgpr_alloc = 104;
  r.init[0].exec = 0xffffffffull;
  for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++)
    r.init[0].vgpr[0][l] = l;
  for (unsigned i = 0; i < 8; i++)
    r.init[0].sgpr[4 + i] = t[i];
  for (unsigned i = 0; i < 4 && s; i++)
    r.init[0].sgpr[12 + i] = s[i];
  r.init[0].sgpr_count = 16;
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
}

static void run(const char *src, uint32_t *out, const uint32_t t[8], const uint32_t s[4])
{
  run_on("gfx1100", src, out, t, s);
}

static float f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t u32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* the bilinear cases' image: 6x4 texels x + 10y, rows `pitch` floats apart */
static void fill_ramp(float *img, unsigned pitch)
{
  for (unsigned y = 0; y < 4; y++)
    for (unsigned x = 0; x < 6; x++)
      img[y * pitch + x] = (float)x + 10.0f * (float)y;
}

/* the bilinear cases' kernel (the wait between is the target's): lane l samples
 * (l % 8 + 1.0, l / 8 + 0.5) unnormalized into v4, then stores it at out[l] */
#define BILINEAR_SAMPLE                                                                   \
  "v_and_b32_e32 v1, 7, v0\n"                                                            \
  "v_lshrrev_b32_e32 v2, 3, v0\n"                                                        \
  "v_cvt_f32_u32_e32 v1, v1\n"                                                           \
  "v_cvt_f32_u32_e32 v2, v2\n"                                                           \
  "v_add_f32_e32 v1, 1.0, v1\n"                                                          \
  "v_add_f32_e32 v2, 0.5, v2\n"                                                          \
  "image_sample_lz v4, [v1, v2], s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n"
#define BILINEAR_STORE                                                                    \
  "v_lshlrev_b32_e32 v3, 2, v0\n"                                                        \
  "global_store_b32 v3, v4, s[0:1]\n"                                                    \
  "s_endpgm\n"

/* the bilinear cases' result: lane l sampled (l % 8 + 1.0, l / 8 + 0.5) of 6x4 texels x + 10y
 * clamped to the edge: the mean of columns x and x + 1 (at most 5), row y */
static void check_bilinear(const uint32_t *out)
{
  for (unsigned l = 0; l < 32; l++) {
    unsigned x = l % 8, y = l / 8;
    unsigned x0 = x < 5 ? x : 5, x1 = x + 1 < 5 ? x + 1 : 5;
    float want = ((float)x0 + (float)x1) / 2 + 10.0f * (float)y;
    ck_assert_msg(out[l] == u32(want), "lane %u: %g, want %g", l, (double)f32(out[l]),
                  (double)want);
  }
}

/* 5x3 texels of 8_8_8_8_UNORM, rows 8 texels apart; lane l reads (l % 8, l / 8) through an
 * NSA address list, ZYXW */
START_TEST(load_unorm_nsa_pitch)
{
  as_gfx1100();
  uint8_t *img = isa_fx_mem(4096);
  uint32_t *out = isa_fx_mem(4096), t[8];
  for (unsigned i = 0; i < 4096; i++)
    img[i] = (uint8_t)(i * 37 + 11);
  tsharp(t, (uintptr_t)img, F_8_8_8_8_UNORM, 5, 3, T_2D, SEL_ZYXW, 8 - 1);
  run("v_and_b32_e32 v1, 7, v0\n"
      "v_lshrrev_b32_e32 v2, 3, v0\n"
      "image_load v[4:7], [v1, v2], s[4:11] dmask:0xf dim:SQ_RSRC_IMG_2D\n"
      "s_waitcnt vmcnt(0)\n"
      "v_lshlrev_b32_e32 v3, 4, v0\n"
      "global_store_b128 v3, v[4:7], s[0:1]\n"
      "s_endpgm\n", out, t, NULL);
  for (unsigned l = 0; l < 32; l++) {
    unsigned x = l % 8, y = l / 8;
    float c[4] = {0, 0, 0, 0};
    if (x < 5 && y < 3)
      for (unsigned i = 0; i < 4; i++)
        c[i] = (float)img[(y * 8 + x) * 4 + i] / 255.0f;
    const float want[4] = {c[2], c[1], c[0], c[3]};
    for (unsigned i = 0; i < 4; i++)
      ck_assert_msg(out[4 * l + i] == u32(want[i]), "lane %u ch %u: %g, want %g", l, i,
                    (double)f32(out[4 * l + i]), (double)want[i]);
  }
}
END_TEST

/* 3x2x2 32_FLOAT array: rows are 64 texels (256 bytes) apart; lane l stores l at
 * (l & 3, (l >> 2) & 1, l >> 3) from consecutive address VGPRs */
START_TEST(store_array_linear_pitch)
{
  as_gfx1100();
  uint32_t *img = isa_fx_mem(8192), *out = isa_fx_mem(4096), t[8];
  for (unsigned i = 0; i < 2048; i++)
    img[i] = 0xcdcdcdcdu;
  tsharp(t, (uintptr_t)img, F_32_FLOAT, 3, 2, T_2D_ARRAY, SEL_XYZW, 2 - 1);
  run("v_and_b32_e32 v1, 3, v0\n"
      "v_bfe_u32 v2, v0, 2, 1\n"
      "v_lshrrev_b32_e32 v3, 3, v0\n"
      "v_cvt_f32_u32_e32 v4, v0\n"
      "image_store v4, v[1:3], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY\n"
      "s_endpgm\n", out, t, NULL);
  for (unsigned z = 0; z < 4; z++)
    for (unsigned y = 0; y < 2; y++)
      for (unsigned x = 0; x < 64; x++) {
        uint32_t want = 0xcdcdcdcdu;
        if (x < 3 && z < 2)
          want = u32((float)(x | y << 2 | z << 3));
        ck_assert_msg(img[(z * 2 + y) * 64 + x] == want, "(%u, %u, %u): 0x%08x, want 0x%08x",
                      x, y, z, img[(z * 2 + y) * 64 + x], want);
      }
}
END_TEST

/* 6x4 32_FLOAT texels x + 10 y; lane l samples at (x + 1, y + 0.5), unnormalized by the
 * instruction's unorm, bilinear, clamp to the last texel: the mean of texels x and x + 1 */
START_TEST(sample_bilinear_unnormalized)
{
  as_gfx1100();
  float *img = isa_fx_mem(8192);
  uint32_t *out = isa_fx_mem(4096), t[8], s[4];
  fill_ramp(img, 64);   /* 256-byte rows */
  tsharp(t, (uintptr_t)img, F_32_FLOAT, 6, 4, T_2D, SEL_XYZW, 64 - 1);
  s[0] = 2 | 2 << 3 | 2 << 6;              /* CLAMP_X/Y/Z: clamp to the last texel */
  s[1] = 0xfffu << 12;                     /* MAX_LOD */
  s[2] = 1u << 20 | 1u << 22;              /* XY_MAG/MIN_FILTER bilinear */
  s[3] = 0;
  run(BILINEAR_SAMPLE "s_waitcnt vmcnt(0)\n" BILINEAR_STORE, out, t, s);
  check_bilinear(out);
}
END_TEST

/* ---- gfx1100 mip chains ---- */
/* gfx10+'s LINEAR chain as addrlib lays it out (Gfx11Lib::HwlComputeSurfaceInfoLinear): level i
 * is ceil(W / 2^i) x ceil(H / 2^i) texels at its own pitch (rounded up to 256 bytes: 64 texels
 * of 4 bytes), the smallest level first. A 70 x 5 32_FLOAT image of 4 levels: pitches 128, 64,
 * 64, 64 texels, rows 5, 3, 2, 1; level 3 at texel 0, level 2 at 64, level 1 at 192, level 0
 * at 384; 1024 texels in all. Sizes the kernel sees: 70x5, 35x2, 17x1, 8x1. */
#define MW 70u
#define MH 5u
#define MLEVELS 4u
static unsigned ceil_sh(unsigned v, unsigned i) { return (v + (1u << i) - 1) >> i; }
static unsigned floor_sh(unsigned v, unsigned i) { return v >> i ? v >> i : 1; }
static unsigned m_pitch(unsigned i) { return (ceil_sh(MW, i) + 63) / 64 * 64; }
static unsigned m_off(unsigned i)
{
  unsigned o = 0;
  for (unsigned j = MLEVELS - 1; j > i; j--)
    o += m_pitch(j) * ceil_sh(MH, j);
  return o;
}

/* a 2D T# of the chain: BASE_LEVEL 0, LAST_LEVEL and MAX_MIP (word1[19:16]) levels - 1, word4
 * 0 (no PITCH: a mip chain's pitches are the hardware's) */
static void tsharp_mips(uint32_t *t, const void *img)
{
  tsharp(t, (uintptr_t)img, F_32_FLOAT, MW, MH, T_2D, SEL_XYZW, 0);
  t[1] |= (MLEVELS - 1) << 16;
  t[3] |= (MLEVELS - 1) << 16;
}

/* run() with v1..v8 of lane l taken from out[8 l .. 8 l + 7] (v[0..7][l]) first; v9 = 32 l */
static void run_v(const char *body, uint32_t *out, const uint32_t t[8], const uint32_t s[4],
                  uint32_t v[8][32])
{
  for (unsigned l = 0; l < 32; l++)
    for (unsigned k = 0; k < 8; k++)
      out[8 * l + k] = v[k][l];
  char src[2048];
  snprintf(src, sizeof src,
           "v_lshlrev_b32_e32 v9, 5, v0\n"
           "global_load_b128 v[1:4], v9, s[0:1]\n"
           "global_load_b128 v[5:8], v9, s[0:1] offset:16\n"
           "s_waitcnt vmcnt(0)\n%s", body);
  run(src, out, t, s);
}

/* image_store_mip: lane l writes l at (l >> 2, 0) of level l & 3; every texel of the chain
 * checked (the rest keep their 0xcd bytes) */
START_TEST(mip_chain_store)
{
  as_gfx1100();
  uint32_t *img = isa_fx_mem(8192), *out = isa_fx_mem(4096), t[8];
  for (unsigned i = 0; i < 2048; i++)
    img[i] = 0xcdcdcdcdu;
  tsharp_mips(t, img);
  static uint32_t v[8][32];
  for (unsigned l = 0; l < 32; l++) {
    v[0][l] = l >> 2;   /* v1: x */
    v[1][l] = 0;        /* v2: y */
    v[2][l] = l & 3;    /* v3: the level */
    v[3][l] = u32((float)l);
  }
  run_v("image_store_mip v4, [v1, v2, v3], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n"
        "s_endpgm\n", out, t, NULL, v);
  for (unsigned i = 0; i < 2048; i++) {
    uint32_t want = 0xcdcdcdcdu;
    for (unsigned l = 0; l < 32; l++)
      if (i == m_off(l & 3) + (l >> 2))
        want = u32((float)l);
    ck_assert_msg(img[i] == want, "texel %u: 0x%08x, want 0x%08x", i, img[i], want);
  }
}
END_TEST

/* texel i of the chain holds i; lane l reads (x, y) = ((l >> 2) & 3, (l >> 4) & 1) of level
 * l & 3 through image_load_mip (0 outside the level: level 2 and 3 have one row) and samples
 * its centre through image_sample_l, LOD = the level, point filters, MIP_FILTER point, clamp
 * to the last texel (level 3's y = 1 reads row 0) */
START_TEST(mip_chain_load_sample)
{
  as_gfx1100();
  float *img = isa_fx_mem(8192);
  uint32_t *out = isa_fx_mem(4096), t[8], s[4];
  for (unsigned i = 0; i < 2048; i++)
    img[i] = (float)i;
  tsharp_mips(t, img);
  s[0] = 2 | 2 << 3 | 2 << 6;              /* CLAMP_X/Y/Z: clamp to the last texel */
  s[1] = 0xfffu << 12;                     /* MAX_LOD */
  s[2] = 1u << 26;                         /* point filters, MIP_FILTER point */
  s[3] = 0;
  static uint32_t v[8][32];
  for (unsigned l = 0; l < 32; l++) {
    unsigned x = (l >> 2) & 3, y = (l >> 4) & 1, m = l & 3;
    v[0][l] = x;                                               /* v1..v3: x, y, level */
    v[1][l] = y;
    v[2][l] = m;
    v[4][l] = u32(((float)x + 0.5f) / (float)floor_sh(MW, m));  /* v5..v7: s, t, lod */
    v[5][l] = u32(((float)y + 0.5f) / (float)floor_sh(MH, m));
    v[6][l] = u32((float)m);
  }
  run_v("image_load_mip v4, [v1, v2, v3], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm\n"
        "image_sample_l v8, [v5, v6, v7], s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
        "s_waitcnt vmcnt(0)\n"
        "global_store_b32 v9, v4, s[0:1]\n"
        "global_store_b32 v9, v8, s[0:1] offset:4\n"
        "s_endpgm\n", out, t, s, v);
  for (unsigned l = 0; l < 32; l++) {
    unsigned x = (l >> 2) & 3, y = (l >> 4) & 1, m = l & 3;
    unsigned h = floor_sh(MH, m), yc = y < h ? y : h - 1;
    float load = y < h ? (float)(m_off(m) + y * m_pitch(m) + x) : 0.0f;
    float smp = (float)(m_off(m) + yc * m_pitch(m) + x);
    ck_assert_msg(out[8 * l] == u32(load), "lane %u load: %g, want %g", l,
                  (double)f32(out[8 * l]), (double)load);
    ck_assert_msg(out[8 * l + 1] == u32(smp), "lane %u sample: %g, want %g", l,
                  (double)f32(out[8 * l + 1]), (double)smp);
  }
}
END_TEST

/* a 9x3x4 32_FLOAT 3D chain of 3 levels (9x3x4, 4x1x2, 2x1x1 as kernels see them): every level
 * at a 64-texel pitch with ceil(3 / 2^i) rows (3, 2, 1), the smallest first (level 2 at 0,
 * level 1 at 64, level 0 at 192), each of the 4 slices holding the 384-texel chain. Lane l
 * stores l at (l & 1, (l >> 1) & 1, (l >> 2) & 1) of level l >> 3: outside the level (rows,
 * slices, level 3 beyond LAST_LEVEL) dropped; every texel checked. */
START_TEST(mip_chain_3d_store)
{
  as_gfx1100();
  uint32_t *img = isa_fx_mem(8192), *out = isa_fx_mem(4096), t[8];
  for (unsigned i = 0; i < 2048; i++)
    img[i] = 0xcdcdcdcdu;
  tsharp(t, (uintptr_t)img, F_32_FLOAT, 9, 3, 10, SEL_XYZW, 4 - 1);   /* TYPE 3D, DEPTH 4 */
  t[1] |= 2u << 16;   /* MAX_MIP */
  t[3] |= 2u << 16;   /* LAST_LEVEL */
  static uint32_t v[8][32];
  for (unsigned l = 0; l < 32; l++) {
    v[0][l] = l & 1;
    v[1][l] = (l >> 1) & 1;
    v[2][l] = (l >> 2) & 1;
    v[3][l] = l >> 3;
    v[4][l] = u32((float)l);
  }
  run_v("image_store_mip v5, [v1, v2, v3, v4], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_3D unorm\n"
        "s_endpgm\n", out, t, NULL, v);
  static const unsigned off[3] = {192, 64, 0};
  for (unsigned i = 0; i < 2048; i++) {
    uint32_t want = 0xcdcdcdcdu;
    for (unsigned l = 0; l < 32; l++) {
      unsigned x = l & 1, y = (l >> 1) & 1, z = (l >> 2) & 1, m = l >> 3;
      if (m < 3 && x < floor_sh(9, m) && y < floor_sh(3, m) && z < floor_sh(4, m) &&
          i == off[m] + z * 384 + y * 64 + x)
        want = u32((float)l);
    }
    ck_assert_msg(img[i] == want, "texel %u: 0x%08x, want 0x%08x", i, img[i], want);
  }
}
END_TEST

/* ---- gfx1201 ---- */
static void as_gfx1201(void)
{
  isa_fx_as_target(120001);
}

enum { F_8_UNORM = 1, F_32_UINT = 20 };

/* a gfx12 T#; field4 is word4[15:0]: pitch - 1 (1D/2D, PITCH_MSB in 15:14) or the last slice */
static void tsharp12(uint32_t *d, uint64_t base, unsigned fmt, unsigned w, unsigned h,
                     unsigned type, unsigned sel, unsigned field4)
{
  tsharp_at(d, base, fmt, 17, w, h, type, sel, field4);
}

static void run12(const char *src, uint32_t *out, const uint32_t t[8], const uint32_t s[4])
{
  run_on("gfx1201", src, out, t, s);
}

/* 8_UNORM, 20 x 2 texels, rows 16512 texels apart (PITCH - 1 = 0x407f: PITCH_MSB 1); lane l
 * reads (l % 16 + 4 * (l / 16) ... ) = (l % 20, l / 20), XXXX selects */
START_TEST(gfx12_load_pitch_msb)
{
  as_gfx1201();
  const unsigned pitch = 16512;
  uint8_t *img = isa_fx_mem(2 * pitch);
  uint32_t *out = isa_fx_mem(4096), t[8];
  for (unsigned i = 0; i < 2 * pitch; i++)
    img[i] = (uint8_t)(i * 29 + 3);
  tsharp12(t, (uintptr_t)img, F_8_UNORM, 20, 2, T_2D, 4u | 4u << 3 | 4u << 6 | 1u << 9,
           (pitch - 1) & 0xffff);
  run12("v_cvt_f32_u32_e32 v3, v0\n"
        "v_mul_f32_e32 v3, 0x3d4ccccd, v3\n"      /* l / 20 */
        "v_cvt_floor_i32_f32_e32 v2, v3\n"
        "v_mul_u32_u24_e32 v3, 20, v2\n"
        "v_sub_nc_u32_e32 v1, v0, v3\n"
        "image_load v[4:7], [v1, v2], s[4:11] dmask:0xf dim:SQ_RSRC_IMG_2D\n"
        "s_wait_loadcnt 0x0\n"
        "v_lshlrev_b32_e32 v3, 4, v0\n"
        "global_store_b128 v3, v[4:7], s[0:1]\n"
        "s_endpgm\n", out, t, NULL);
  for (unsigned l = 0; l < 32; l++) {
    unsigned x = l % 20, y = l / 20;
    float c = (float)img[y * pitch + x] / 255.0f;
    const float want[4] = {c, c, c, 1.0f};
    for (unsigned i = 0; i < 4; i++)
      ck_assert_msg(out[4 * l + i] == u32(want[i]), "lane %u ch %u: %g, want %g", l, i,
                    (double)f32(out[4 * l + i]), (double)want[i]);
  }
}
END_TEST

/* 3x2x2 32_UINT array: gfx12's rows are 32 texels (128 bytes) apart, its layers 128 texels
 * (two rows rounded up to 256 bytes each: addrlib's gfx12 LINEAR layout). Lane l stores l + 100 at
 * (l & 3, (l >> 2) & 1, l >> 3) (dropped outside), then adds l and returns the stored value */
START_TEST(gfx12_store_atomic_array)
{
  as_gfx1201();
  uint32_t *img = isa_fx_mem(8192), *out = isa_fx_mem(4096), t[8];
  for (unsigned i = 0; i < 2048; i++)
    img[i] = 0xcdcdcdcdu;
  tsharp12(t, (uintptr_t)img, F_32_UINT, 3, 2, T_2D_ARRAY, SEL_XYZW, 2 - 1);
  run12("v_and_b32_e32 v1, 3, v0\n"
        "v_bfe_u32 v2, v0, 2, 1\n"
        "v_lshrrev_b32_e32 v3, 3, v0\n"
        "v_add_nc_u32_e32 v4, 100, v0\n"
        "image_store v4, [v1, v2, v3], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY\n"
        "s_wait_storecnt 0x0\n"
        "v_mov_b32_e32 v5, v0\n"
        "image_atomic_add_uint v5, [v1, v2, v3], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY th:TH_ATOMIC_RETURN\n"
        "s_wait_loadcnt 0x0\n"
        "v_lshlrev_b32_e32 v6, 2, v0\n"
        "global_store_b32 v6, v5, s[0:1]\n"
        "s_endpgm\n", out, t, NULL);
  for (unsigned z = 0; z < 4; z++)
    for (unsigned y = 0; y < 2; y++)
      for (unsigned x = 0; x < 32; x++) {
        unsigned l = x | y << 2 | z << 3;
        uint32_t want = x < 3 && z < 2 ? 100 + 2 * l : 0xcdcdcdcdu;
        ck_assert_msg(img[z * 128 + y * 32 + x] == want, "(%u, %u, %u): 0x%08x, want 0x%08x",
                      x, y, z, img[z * 128 + y * 32 + x], want);
      }
  for (unsigned l = 0; l < 32; l++) {
    uint32_t want = (l & 3) < 3 && (l >> 3) < 2 ? 100 + l : 0;   /* out of range: 0 */
    ck_assert_msg(out[l] == want, "lane %u returned %u, want %u", l, out[l], want);
  }
}
END_TEST

/* gfx12's LINEAR layouts and mip chains against addrlib (tests/fixtures/image/gfx12_mips.txt,
 * the newest ROCR's addrlib for gfx1201): for every surface a gfx12 T# (MAX_MIP and
 * LAST_LEVEL levels - 1; one-level 1D/2D with addrlib's pitch as PITCH) decoded by hsa-sim,
 * and for every sample the byte img_level_select's level base, slice size and pitch give. */
START_TEST(gfx12_chain_vs_addrlib)
{
  struct imgfx fx = imgfx_read("gfx12_mips.txt");
  static const unsigned type[5] = {8, 12, T_2D, T_2D_ARRAY, 10};   /* 1D 1DA 2D 2DA 3D */
  unsigned samples = 0, pitch0 = 0;
  uint32_t d[8];
  memset(d, 0, sizeof d);
  for (unsigned i = 0; i < fx.n; i++) {
    const struct imgfx_surface *f = &fx.s[i];
    unsigned kind = f->geo, bpp = f->bpp, sl = f->slices, levels = f->levels;
    for (unsigned k = 0; k < f->nlevels; k++) {
      const struct imgfx_level *m = &f->lv[k];
      if (m->level == 0)
        pitch0 = (unsigned)m->pitch;
      unsigned fmt = bpp == 8 ? 1 : bpp == 16 ? 7 : bpp == 32 ? 20 : bpp == 64 ? 48 : 61;
      unsigned f4 = kind == 4 || kind == 1 || kind == 3 ? sl - 1 : levels > 1 ? 0 : pitch0 - 1;
      tsharp12(d, 0x100000, fmt, f->w, kind < 2 ? 1 : f->h, type[kind], SEL_XYZW, f4);
      d[1] |= (levels - 1) << 12;   /* MAX_MIP */
      d[3] |= (levels - 1) << 15;   /* LAST_LEVEL */
      /* the samples of this level (they follow its L line in the fixture) */
      for (unsigned j = 0; j < f->nsamples; j++) {
        const struct imgfx_sample *a = &f->sample[j];
        if (a->level != m->level)
          continue;
        struct img_tsharp t;
        img_tsharp_decode_gfx12(d, &t);
        img_level_select(&t, bpp / 8, a->level);
        uint64_t got = t.base - 0x100000 + (uint64_t)a->z * t.slice_bytes +
                       ((uint64_t)a->y * t.pitch + a->x) * (bpp / 8);
        ck_assert_msg(got == a->off, "level %u (%u,%u,%u): %llu, addrlib %llu (%ux%ux%u kind %u "
                      "bpp %u, %u levels)", a->level, a->x, a->y, a->z, (unsigned long long)got,
                      a->off, f->w, f->h, sl, kind, bpp, levels);
        samples++;
      }
    }
  }
  ck_assert_uint_ge(fx.n, 90);
  ck_assert_uint_ge(samples, 1500);
  imgfx_free(&fx);
}
END_TEST

/* gfx11's and gfx12's tiled layouts against addrlib (tests/fixtures/image/gfx11_swizzle.txt,
 * gfx12_swizzle.txt: the newest ROCR's addrlib for gfx1100's GB_ADDR_CONFIG 0x545 and for
 * gfx1201): for every tiled surface (ROCR's choice and every mode forced) hsa-sim's block
 * (img_swizzle_init_gfx11/_gfx12) is addrlib's block, the width rounded up to it addrlib's
 * pitch, the padded size addrlib's size, and every sample's byte offset img_swizzle_offset's. */
static void swizzle_vs_addrlib(const char *file, bool gfx11, unsigned min_surfaces,
                               unsigned min_samples)
{
  struct imgfx fx = imgfx_read(file);
  unsigned samples = 0, surfaces = 0;
  struct img_swizzle s;
  memset(&s, 0, sizeof s);
  for (unsigned i = 0; i < fx.n; i++) {
    const struct imgfx_surface *f = &fx.s[i];
    unsigned bpp = f->bpp, w = f->w, h = f->h, n = f->slices, mode = f->mode;
    if (!mode)
      continue;   /* LINEAR: listed for the choice only, without samples */
    ck_assert_msg(gfx11 ? img_swizzle_init_gfx11(&s, 0x545, mode, bpp / 8)
                        : img_swizzle_init_gfx12(&s, mode, bpp / 8), "mode %u bpp %u", mode, bpp);
    ck_assert_uint_eq(1u << s.bw_log2, f->bw);
    ck_assert_uint_eq(1u << s.bh_log2, f->bh);
    ck_assert_uint_eq(1u << s.bd_log2, f->bd);
    ck_assert_uint_eq(1u << s.block_log2, f->align);
    unsigned p = (w + f->bw - 1) / f->bw * f->bw, hh = (h + f->bh - 1) / f->bh * f->bh;
    unsigned nn = (n + f->bd - 1) / f->bd * f->bd;
    ck_assert_uint_eq(p, f->pitch);
    ck_assert_uint_eq(hh, f->pad_h);
    ck_assert_uint_eq((unsigned long long)p * hh * nn * (bpp / 8), f->size);
    surfaces++;
    for (unsigned j = 0; j < f->nsamples; j++, samples++) {
      const struct imgfx_sample *a = &f->sample[j];
      uint64_t got = img_swizzle_offset(&s, a->x, a->y, a->z, f->pitch, h ? h : 1);
      ck_assert_msg(got == a->off, "%s mode %u bpp %u %ux%ux%u (%u,%u,%u): %llu, addrlib %llu",
                    file, mode, bpp, w, h, n, a->x, a->y, a->z, (unsigned long long)got, a->off);
    }
  }
  ck_assert_uint_ge(surfaces, min_surfaces);
  ck_assert_uint_ge(samples, min_samples);
  imgfx_free(&fx);
}

START_TEST(gfx12_swizzle_vs_addrlib)
{
  swizzle_vs_addrlib("gfx12_swizzle.txt", false, 250, 5000);
  struct img_swizzle s;
  ck_assert(!img_swizzle_init_gfx12(&s, 0, 4));    /* LINEAR is no swizzle */
  ck_assert(!img_swizzle_init_gfx12(&s, 8, 4));    /* no such gfx12 mode */
  ck_assert(!img_swizzle_init_gfx12(&s, 2, 12));   /* no 12-byte swizzle */
}
END_TEST

START_TEST(gfx11_swizzle_vs_addrlib)
{
  swizzle_vs_addrlib("gfx11_swizzle.txt", true, 400, 7500);
  struct img_swizzle s;
  ck_assert(!img_swizzle_init_gfx11(&s, 0x545, 24, 16));       /* no Z_X of 16-byte texels */
  ck_assert(!img_swizzle_init_gfx11(&s, 0x545, 26, 4));        /* 64KB_D_X: not modelled */
  ck_assert(!img_swizzle_init_gfx11(&s, 0x2a114042, 27, 4));   /* another chip's pipes */
}
END_TEST

/* A tiled gfx12 image through VIMAGE: 13 x 5 texels of 32_UINT, 2 layers (2D array) or 2 deep
 * (3D), in SW_MODE `mode`. Lane l stores to (l & 15, l >> 4 + 2k, z) for k = 0..2, z = 0..1
 * (x >= 13 out of range: dropped), then loads the same texels back. Every in-range texel must
 * be at the byte addrlib's equations give (img_swizzle_offset, checked against the fixture
 * above; and texel (1, 0, 0) at addrlib's own byte `want1`), nothing else written, and the
 * loads return the stored values (0 out of range). */
static void tiled_round_trip(bool gfx11, unsigned mode, unsigned type, const char *dim, uint64_t want1)
{
  if (gfx11)
    as_gfx1100();
  else
    as_gfx1201();
  struct img_swizzle s;
  ck_assert(gfx11 ? img_swizzle_init_gfx11(&s, 0x545, mode, 4) : img_swizzle_init_gfx12(&s, mode, 4));
  const unsigned W = 13, H = 5, D = 2, pitch = (W + (1u << s.bw_log2) - 1) >> s.bw_log2 << s.bw_log2;
  size_t bytes = (size_t)img_swizzle_offset(&s, W - 1, H - 1, D - 1, pitch, H) + 4;
  bytes = (bytes + 65535) & ~(size_t)65535;
  uint32_t *img = isa_fx_mem(bytes), *out = isa_fx_mem(4096), t[8];
  for (size_t i = 0; i < bytes / 4; i++)
    img[i] = 0xcdcdcdcdu;
  if (gfx11)
    tsharp(t, (uintptr_t)img, F_32_UINT, W, H, type, SEL_XYZW, D - 1);
  else
    tsharp12(t, (uintptr_t)img, F_32_UINT, W, H, type, SEL_XYZW, D - 1);
  t[3] |= mode << 20;
  char src[4096];
  int n = snprintf(src, sizeof src, "v_and_b32_e32 v1, 15, v0\n");
  for (unsigned z = 0; z < D; z++)
    for (unsigned k = 0; k < 3; k++)
      n += snprintf(src + n, sizeof src - (size_t)n,
                    "v_lshrrev_b32_e32 v2, 4, v0\n"
                    "v_add_nc_u32_e32 v2, %u, v2\n"
                    "v_mov_b32_e32 v3, %u\n"
                    "v_lshlrev_b32_e32 v4, 8, v2\n"
                    "v_or_b32_e32 v4, v4, v1\n"
                    "v_or_b32_e32 v4, 0x5a%02x0000, v4\n"
                    "image_store v4, [v1, v2, v3], s[4:11] dmask:0x1 dim:%s\n"
                    "%s"
                    "image_load v5, [v1, v2, v3], s[4:11] dmask:0x1 dim:%s\n"
                    "%s"
                    "v_lshlrev_b32_e32 v6, 2, v0\n"
                    "global_store_b32 v6, v5, s[0:1] offset:%u\n",
                    2 * k, z, z, dim, gfx11 ? "s_waitcnt_vscnt null, 0x0\n" : "s_wait_storecnt 0x0\n",
                    dim, gfx11 ? "s_waitcnt vmcnt(0)\n" : "s_wait_loadcnt 0x0\n", (z * 3 + k) * 128);
  snprintf(src + n, sizeof src - (size_t)n, "s_endpgm\n");
  if (gfx11)
    run(src, out, t, NULL);
  else
    run12(src, out, t, NULL);
  unsigned found = 0;
  for (unsigned z = 0; z < D; z++)
    for (unsigned y = 0; y < H; y++)
      for (unsigned x = 0; x < W; x++) {
        uint64_t o = img_swizzle_offset(&s, x, y, z, pitch, H);
        uint32_t want = 0x5a000000u | z << 16 | y << 8 | x;
        ck_assert_msg(img[o / 4] == want, "mode %u (%u,%u,%u) at %llu: 0x%08x, want 0x%08x", mode,
                      x, y, z, (unsigned long long)o, img[o / 4], want);
      }
  for (size_t i = 0; i < bytes / 4; i++)
    found += img[i] != 0xcdcdcdcdu;
  ck_assert_uint_eq(found, W * H * D);   /* and nowhere else */
  ck_assert_uint_eq(img[want1 / 4], 0x5a000001u);
  for (unsigned z = 0; z < D; z++)
    for (unsigned k = 0; k < 3; k++)
      for (unsigned l = 0; l < 32; l++) {
        unsigned x = l & 15, y = (l >> 4) + 2 * k;
        uint32_t want = x < W && y < H ? 0x5a000000u | z << 16 | y << 8 | x : 0;
        ck_assert_msg(out[(z * 3 + k) * 32 + l] == want, "mode %u load (%u,%u,%u): 0x%08x, want 0x%08x",
                      mode, x, y, z, out[(z * 3 + k) * 32 + l], want);
      }
}

/* addrlib: in every 2D mode a 4-byte texel (1, 0) is at byte 4; in 4KB_3D too; on gfx1100 at
 * 4 too (its micro block is gfx12's) */
START_TEST(gfx12_tiled_store_load)
{
  tiled_round_trip(false, 1, T_2D_ARRAY, "SQ_RSRC_IMG_2D_ARRAY", 4);   /* 256B_2D */
  tiled_round_trip(false, 2, T_2D_ARRAY, "SQ_RSRC_IMG_2D_ARRAY", 4);   /* 4KB_2D */
  tiled_round_trip(false, 3, 10, "SQ_RSRC_IMG_3D", 4);                 /* 64KB_2D, a 3D image */
  tiled_round_trip(false, 5, 10, "SQ_RSRC_IMG_3D", 4);                 /* 4KB_3D */
}
END_TEST

/* gfx1100 (hsa-sim's GB_ADDR_CONFIG 0x545): the modes a gfx11 ROCR chooses */
START_TEST(gfx11_tiled_store_load)
{
  tiled_round_trip(true, 2, T_2D_ARRAY, "SQ_RSRC_IMG_2D_ARRAY", 4);    /* SW_256B_D */
  tiled_round_trip(true, 22, T_2D_ARRAY, "SQ_RSRC_IMG_2D_ARRAY", 4);   /* SW_4KB_D_X */
  tiled_round_trip(true, 27, T_2D_ARRAY, "SQ_RSRC_IMG_2D_ARRAY", 4);   /* SW_64KB_R_X */
  tiled_round_trip(true, 24, 10, "SQ_RSRC_IMG_3D", 4);                 /* SW_64KB_Z_X, 3D */
}
END_TEST

/* as sample_bilinear_unnormalized, with gfx12's S# (MAX_LOD word1[25:13]) and VSAMPLE's unorm */
START_TEST(gfx12_sample_bilinear)
{
  as_gfx1201();
  float *img = isa_fx_mem(8192);
  uint32_t *out = isa_fx_mem(4096), t[8], s[4];
  fill_ramp(img, 32);   /* 128-byte rows */
  tsharp12(t, (uintptr_t)img, F_32_FLOAT, 6, 4, T_2D, SEL_XYZW, 32 - 1);
  s[0] = 2 | 2 << 3 | 2 << 6;              /* CLAMP_X/Y/Z: clamp to the last texel */
  s[1] = (17u << 8) << 13;                 /* MAX_LOD 17.0 */
  s[2] = 1u << 20 | 1u << 22;              /* XY_MAG/MIN_FILTER bilinear */
  s[3] = 0;
  run12(BILINEAR_SAMPLE "s_wait_samplecnt 0x0\n" BILINEAR_STORE, out, t, s);
  check_bilinear(out);
}
END_TEST

/* 6x4 32_FLOAT texels x + 10 y: image_gather4_lz at (x + 1, y + 1) unnormalized gathers the
 * footprint (x, y + 1), (x + 1, y + 1), (x + 1, y), (x, y) (clamped to the last texel), and
 * image_get_resinfo of mip 0 gives (6, 4, 0, 1 level) */
START_TEST(gfx12_gather4_resinfo)
{
  as_gfx1201();
  float *img = isa_fx_mem(8192);
  uint32_t *out = isa_fx_mem(8192), t[8], s[4];
  for (unsigned y = 0; y < 4; y++)
    for (unsigned x = 0; x < 6; x++)
      img[y * 32 + x] = (float)x + 10.0f * (float)y;
  tsharp12(t, (uintptr_t)img, F_32_FLOAT, 6, 4, T_2D, SEL_XYZW, 32 - 1);
  s[0] = 2 | 2 << 3 | 2 << 6 | 1u << 15;   /* clamp to the last texel, FORCE_UNNORMALIZED */
  s[1] = (17u << 8) << 13;
  s[2] = 1u << 20 | 1u << 22;
  s[3] = 0;
  run12("v_and_b32_e32 v1, 7, v0\n"
        "v_lshrrev_b32_e32 v2, 3, v0\n"
        "v_cvt_f32_u32_e32 v1, v1\n"
        "v_cvt_f32_u32_e32 v2, v2\n"
        "v_add_f32_e32 v1, 1.0, v1\n"
        "v_add_f32_e32 v2, 1.0, v2\n"
        "image_gather4_lz v[4:7], [v1, v2], s[4:11], s[12:15] dmask:0x1 dim:SQ_RSRC_IMG_2D\n"
        "v_mov_b32_e32 v9, 0\n"
        "image_get_resinfo v[12:15], v9, s[4:11] dmask:0xf dim:SQ_RSRC_IMG_2D\n"
        "s_wait_samplecnt 0x0\n"
        "s_wait_loadcnt 0x0\n"
        "v_lshlrev_b32_e32 v3, 5, v0\n"
        "global_store_b128 v3, v[4:7], s[0:1]\n"
        "global_store_b128 v3, v[12:15], s[0:1] offset:16\n"
        "s_endpgm\n", out, t, s);
  for (unsigned l = 0; l < 32; l++) {
    unsigned x = l % 8, y = l / 8;
    unsigned i0 = x < 5 ? x : 5, i1 = x + 1 < 5 ? x + 1 : 5, j0 = y < 3 ? y : 3, j1 = y + 1 < 3 ? y + 1 : 3;
    const float want[4] = {(float)i0 + 10.0f * (float)j1, (float)i1 + 10.0f * (float)j1,
                           (float)i1 + 10.0f * (float)j0, (float)i0 + 10.0f * (float)j0};
    for (unsigned i = 0; i < 4; i++)
      ck_assert_msg(out[8 * l + i] == u32(want[i]), "lane %u texel %u: %g, want %g", l, i,
                    (double)f32(out[8 * l + i]), (double)want[i]);
    const uint32_t info[4] = {6, 4, 0, 1};
    for (unsigned i = 0; i < 4; i++)
      ck_assert_msg(out[8 * l + 4 + i] == info[i], "lane %u resinfo %u: %u, want %u", l, i,
                    out[8 * l + 4 + i], info[i]);
  }
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("isa_image_gfx11");
  TCase *t = tcase_create("image");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, load_unorm_nsa_pitch);
  tcase_add_test(t, store_array_linear_pitch);
  tcase_add_test(t, sample_bilinear_unnormalized);
  tcase_add_test(t, mip_chain_store);
  tcase_add_test(t, mip_chain_load_sample);
  tcase_add_test(t, mip_chain_3d_store);
  tcase_add_test(t, gfx12_load_pitch_msb);
  tcase_add_test(t, gfx12_store_atomic_array);
  tcase_add_test(t, gfx12_sample_bilinear);
  tcase_add_test(t, gfx12_gather4_resinfo);
  tcase_add_test(t, gfx12_chain_vs_addrlib);
  tcase_add_test(t, gfx12_swizzle_vs_addrlib);
  tcase_add_test(t, gfx12_tiled_store_load);
  tcase_add_test(t, gfx11_swizzle_vs_addrlib);
  tcase_add_test(t, gfx11_tiled_store_load);
  suite_add_tcase(s, t);
  return s;
}
