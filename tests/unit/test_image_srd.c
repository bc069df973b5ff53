/* SPDX-License-Identifier: MIT */
/* test_image_srd.c — src/image's descriptors and layout against values worked out by hand
 * from the Vega ISA's tables: the image resource (T#: BASE_ADDRESS 256-byte units in dword 0
 * and bits 7:0 of dword 1, DATA_FORMAT 25:20, NUM_FORMAT 29:26; WIDTH-1 13:0 and HEIGHT-1
 * 27:14 of dword 2; DST_SEL 11:0, SW_MODE 24:20, TYPE 31:28 of dword 3; DEPTH-1 12:0,
 * PITCH-1 28:13, BC_SWIZZLE 31:29 of dword 4), the buffer resource (V#: byte address, STRIDE
 * 29:16 of dword 1, NUM_RECORDS, DST_SEL/NUM_FORMAT 14:12/DATA_FORMAT 18:15 of dword 3) and
 * the sampler (S#: CLAMP_X/Y/Z 2:0/5:3/8:6 and FORCE_UNNORMALIZED 15 of dword 0, MAX_LOD
 * 23:12 of dword 1, XY_MAG/XY_MIN_FILTER 21:20/23:22 of dword 2). */
#include <check.h>
#include <string.h>

#include "hsa_ext_amd.h"
#include "image/internal.h"
#include "image_fixture.h"

#define T(x) HSA_EXT_IMAGE_CHANNEL_TYPE_##x
#define O(x) HSA_EXT_IMAGE_CHANNEL_ORDER_##x

static struct img_format fmt(hsa_ext_image_geometry_t g, uint32_t order, uint32_t type) {
  hsa_ext_image_format_t f = {type, order};
  struct img_format out;
  memset(&out, 0xcc, sizeof(out));
  ck_assert_msg(img_format_lookup(g, &f, &out), "format %u/%u not supported", order, type);
  return out;
}

static void expect(const uint32_t *got, const uint32_t *want, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    ck_assert_msg(got[i] == want[i], "dword %u: %#010x, expected %#010x", i, got[i], want[i]);
}

START_TEST(t_2d_rgba8) {
  struct img_format f = fmt(HSA_EXT_IMAGE_GEOMETRY_2D, O(RGBA), T(UNORM_INT8));
  ck_assert_uint_eq(f.elem_size, 4);
  struct img_srd_in in = {HSA_EXT_IMAGE_GEOMETRY_2D, &f, 0x7f1234567800ull, 100, 37, 1, 128, 0, 0, 0, 0};
  uint32_t srd[8];
  img_srd_gfx9(&in, srd);
  /* 0x7f1234567800 >> 8 = 0x7f12345678: low 32 bits 0x12345678, bits 39:32 0x7f;
   * DATA_FORMAT 8_8_8_8 = 10 -> 0xa00000; width 99, height 36 << 14 = 0x90000;
   * selects X,Y,Z,W = 4,5,6,7 -> 0xfac, TYPE 2D = 9; PITCH 127 << 13 = 0xfe000. */
  const uint32_t want[8] = {0x12345678, 0x00a0007f, 0x00090063, 0x90000fac, 0x000fe000, 0, 0, 0};
  expect(srd, want, 8);
}
END_TEST

START_TEST(t_3d_r_float) {
  struct img_format f = fmt(HSA_EXT_IMAGE_GEOMETRY_3D, O(R), T(FLOAT));
  struct img_srd_in in = {HSA_EXT_IMAGE_GEOMETRY_3D, &f, 0x100000ull, 9, 7, 5, 64, 0, 0, 0, 0};
  uint32_t srd[8];
  img_srd_gfx9(&in, srd);
  /* base 0x1000; DATA_FORMAT 32 = 4 (0x400000), NUM_FORMAT FLOAT = 7 (0x1c000000);
   * width 8, height 6 << 14 = 0x18000; selects X,0,0,1 = 4 | 1 << 9 = 0x204, TYPE 3D = 10;
   * DEPTH 4, PITCH 63 << 13 = 0x7e000; the border swizzle of an R image (green not from Y)
   * XWYZ = 1 << 29. */
  const uint32_t want[8] = {0x1000, 0x1c400000, 0x00018008, 0xa0000204, 0x2007e004, 0, 0, 0};
  expect(srd, want, 8);
}
END_TEST

START_TEST(t_arrays_and_swizzles) {
  uint32_t srd[8];
  /* 1DA: TYPE 12, DEPTH = layers - 1 */
  struct img_format f = fmt(HSA_EXT_IMAGE_GEOMETRY_1DA, O(RG), T(SNORM_INT16));
  struct img_srd_in in = {HSA_EXT_IMAGE_GEOMETRY_1DA, &f, 0x200000ull, 70, 1, 4, 128, 0, 0, 0, 0};
  img_srd_gfx9(&in, srd);
  ck_assert_uint_eq(srd[1], (5u << 20) | (1u << 26));    /* 16_16, SNORM */
  ck_assert_uint_eq(srd[3] >> 28, 12);
  ck_assert_uint_eq(srd[3] & 0xfff, 4u | 5u << 3 | 0u << 6 | 1u << 9);
  ck_assert_uint_eq(srd[4] & 0x1fff, 3);
  /* 2DA of BGRA: selects Z,Y,X,W (6 | 5 << 3 | 4 << 6 | 7 << 9 = 0xf2e); border swizzle ZYXW 4 */
  f = fmt(HSA_EXT_IMAGE_GEOMETRY_2DA, O(BGRA), T(UNORM_INT8));
  struct img_srd_in in2 = {HSA_EXT_IMAGE_GEOMETRY_2DA, &f, 0x300000ull, 16, 6, 3, 64, 0, 0, 0, 0};
  img_srd_gfx9(&in2, srd);
  ck_assert_uint_eq(srd[3], 0xd0000000u | 0xf2eu);
  ck_assert_uint_eq(srd[4], 2u | 63u << 13 | 4u << 29);
  /* ARGB: selects Y,Z,W,X (5,6,7,4 = 0x9f5); border swizzle WXYZ is 3 */
  f = fmt(HSA_EXT_IMAGE_GEOMETRY_2D, O(ARGB), T(UNSIGNED_INT8));
  struct img_srd_in in3 = {HSA_EXT_IMAGE_GEOMETRY_2D, &f, 0x300000ull, 16, 6, 1, 64, 0, 0, 0, 0};
  img_srd_gfx9(&in3, srd);
  ck_assert_uint_eq(srd[3] & 0xfff, 0x9f5u);
  ck_assert_uint_eq(srd[4] >> 29, 3);
  ck_assert_uint_eq((srd[1] >> 26) & 0xf, 4); /* UINT */
  /* RGB 565: a 16-bit packed format (5_6_5 = 16), red in the high bits: selects Z,Y,X,1 */
  f = fmt(HSA_EXT_IMAGE_GEOMETRY_2D, O(RGB), T(UNORM_SHORT_565));
  ck_assert_uint_eq(f.elem_size, 2);
  img_srd_gfx9(&in3, srd);
  ck_assert_uint_eq((srd[1] >> 20) & 0x3f, 16);
  ck_assert_uint_eq(srd[3] & 0xfff, 6u | 5u << 3 | 4u << 6 | 1u << 9);
  /* sRGBA reads with NUM_FORMAT SRGB (9) */
  f = fmt(HSA_EXT_IMAGE_GEOMETRY_2D, O(SRGBA), T(UNORM_INT8));
  img_srd_gfx9(&in3, srd);
  ck_assert_uint_eq((srd[1] >> 26) & 0xf, 9);
}
END_TEST

START_TEST(t_1db_buffer) {
  struct img_format f = fmt(HSA_EXT_IMAGE_GEOMETRY_1DB, O(R), T(UNSIGNED_INT8));
  struct img_srd_in in = {HSA_EXT_IMAGE_GEOMETRY_1DB, &f, 0x7f0000001234ull, 1000, 1, 1, 1024, 0, 0, 0, 0};
  uint32_t srd[8];
  img_srd_gfx9(&in, srd);
  /* byte address 0x7f0000001234 (bits 47:32 0x7f00); STRIDE 1 << 16; 1000 records; selects
   * X,0,0,1 = 0x204, NUM_FORMAT UINT 4 << 12, DATA_FORMAT 8 = 1 << 15; TYPE buffer 0. */
  const uint32_t want[8] = {0x00001234, 0x00017f00, 1000, 0x0000c204, 0, 0, 0, 0};
  expect(srd, want, 8);
  /* 16-bit packed formats have no buffer data format: not for 1DB */
  hsa_ext_image_format_t p = {T(UNORM_SHORT_565), O(RGB)};
  struct img_format out;
  ck_assert(!img_format_lookup(HSA_EXT_IMAGE_GEOMETRY_1DB, &p, &out));
}
END_TEST

/* gfx11 (RDNA3 ISA "Image Resource" table): FORMAT 27:20 of dword 1 (the unified number),
 * WIDTH-1 bits 1:0 in 31:30 of dword 1 and bits 13:2 in 11:0 of dword 2, HEIGHT-1 27:14;
 * dword 3 as gfx9's plus BC_SWIZZLE 27:25; dword 4 PITCH-1 13:0 for 1D/2D, DEPTH-1 12:0
 * otherwise; the V#'s FORMAT 17:12 of dword 3. */
START_TEST(t_gfx11) {
  struct img_format f = fmt(HSA_EXT_IMAGE_GEOMETRY_2D, O(RGBA), T(UNORM_INT8));
  struct img_srd_in in = {HSA_EXT_IMAGE_GEOMETRY_2D, &f, 0x7f1234567800ull, 100, 37, 1, 128, 0, 0, 0, 0};
  uint32_t srd[8];
  img_srd_gfx11(&in, srd);
  /* 8_8_8_8_UNORM = 42 << 20 = 0x2a00000; width 99 = 0b1100011: 3 << 30, 24 in dword 2;
   * height 36 << 14 = 0x90000; PITCH 127 */
  const uint32_t want[8] = {0x12345678, 0xc2a0007f, 0x00090018, 0x90000fac, 0x7f, 0, 0, 0};
  expect(srd, want, 8);
  struct img_format r = fmt(HSA_EXT_IMAGE_GEOMETRY_3D, O(R), T(FLOAT));
  struct img_srd_in in3 = {HSA_EXT_IMAGE_GEOMETRY_3D, &r, 0x100000ull, 9, 7, 5, 64, 0, 0, 0, 0};
  img_srd_gfx11(&in3, srd);
  /* 32_FLOAT = 22 << 20; width 8: 0 << 30, 2 in dword 2; height 6 << 14; BC_SWIZZLE XWYZ
   * (1 << 25: green is not Y); DEPTH 4 (no pitch) */
  const uint32_t want3[8] = {0x1000, 0x01600000, 0x00018002, 0xa2000204, 4, 0, 0, 0};
  expect(srd, want3, 8);
  struct img_format b = fmt(HSA_EXT_IMAGE_GEOMETRY_1DB, O(R), T(UNSIGNED_INT8));
  struct img_srd_in inb = {HSA_EXT_IMAGE_GEOMETRY_1DB, &b, 0x7f0000001234ull, 1000, 1, 1, 1024, 0, 0, 0, 0};
  img_srd_gfx11(&inb, srd);
  /* 8_UINT = 5 << 12; OOB_SELECT 0 (structured), TYPE 0 */
  const uint32_t wantb[8] = {0x00001234, 0x00017f00, 1000, 0x00005204, 0, 0, 0, 0};
  expect(srd, wantb, 8);
  /* the unified numbers of a few pairs: 8_8_8_8_SRGB 66, 32_32_32_32_FLOAT 63,
   * 10_10_10_2_SINT 35, 5_6_5_UNORM 68, 16_FLOAT 13, and none for 32_UNORM */
  ck_assert_uint_eq(img_unified_format(IMG_DF_8_8_8_8, IMG_NUM_SRGB), 66);
  ck_assert_uint_eq(img_unified_format(IMG_DF_32_32_32_32, IMG_NUM_FLOAT), 63);
  ck_assert_uint_eq(img_unified_format(8, IMG_NUM_SINT), 35);
  ck_assert_uint_eq(img_unified_format(IMG_DF_5_6_5, IMG_NUM_UNORM), 68);
  ck_assert_uint_eq(img_unified_format(IMG_DF_16, IMG_NUM_FLOAT), 13);
  ck_assert_uint_eq(img_unified_format(IMG_DF_32, IMG_NUM_UNORM), 0);
  uint32_t s9[4], s11[4];
  struct img_sampler_in lin = {{HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE,
                                HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT,
                                HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER},
                               HSA_EXT_SAMPLER_FILTER_MODE_LINEAR,
                               HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED};
  ck_assert(img_sampler_gfx11(&lin, s11));
  /* CLAMP 2, 0, 6; FORCE_UNNORMALIZED; MAX_LOD 4095; bilinear */
  const uint32_t wants[4] = {2u | 6u << 6 | 1u << 15, 0xfff000, 0x500000, 0};
  expect(s11, wants, 4);
  ck_assert(img_sampler_gfx9(&lin, s9));
  expect(s9, s11, 4);
}
END_TEST

/* gfx12 (Mesa's gfx12 fields): FORMAT 24:17 of dword 1, WIDTH-1 bits 1:0 in 31:30 and bits
 * 15:2 in 13:0 of dword 2, HEIGHT-1 29:14; dword 3 DST_SEL, BC_SWIZZLE 27:25, TYPE; dword 4
 * PITCH-1 bits 13:0 with bits 15:14 above (PITCH_MSB) for 1D/2D, DEPTH-1 13:0 otherwise; 3D
 * and arrays in 128-byte rows; the S#'s MAX_LOD 25:13 of dword 1; the V# is gfx11's. */
START_TEST(t_gfx12) {
  struct img_format f = fmt(HSA_EXT_IMAGE_GEOMETRY_2D, O(RGBA), T(UNORM_INT8));
  struct img_srd_in in = {HSA_EXT_IMAGE_GEOMETRY_2D, &f, 0x7f1234567800ull, 100, 37, 1, 128, 0, 0, 0, 0};
  uint32_t srd[8], g11[8];
  img_srd_gfx12(&in, srd);
  /* 8_8_8_8_UNORM = 42 << 17 = 0x540000; width 99: 3 << 30, 24 in dword 2; height 36 << 14;
   * PITCH 127 */
  const uint32_t want[8] = {0x12345678, 0xc054007f, 0x00090018, 0x90000fac, 0x7f, 0, 0, 0};
  expect(srd, want, 8);
  struct img_srd_in wide = {HSA_EXT_IMAGE_GEOMETRY_2D, &f, 0x100000ull, 16000, 2, 1, 16512, 0, 0, 0, 0};
  img_srd_gfx12(&wide, srd);
  /* width 15999 = 0x3e7f: 3 << 30, 0xf9f in dword 2; PITCH 16511 = 0x407f: 0x7f, MSB 1 */
  const uint32_t wantw[8] = {0x1000, 0xc0540000, 0x00004f9f, 0x90000fac, 0x407f, 0, 0, 0};
  expect(srd, wantw, 8);
  struct img_format r = fmt(HSA_EXT_IMAGE_GEOMETRY_3D, O(R), T(FLOAT));
  struct img_srd_in in3 = {HSA_EXT_IMAGE_GEOMETRY_3D, &r, 0x100000ull, 9, 7, 5, 32, 0, 0, 0, 0};
  img_srd_gfx12(&in3, srd);
  /* 32_FLOAT = 22 << 17; width 8: 2 in dword 2; height 6 << 14; BC_SWIZZLE XWYZ; DEPTH 4 */
  const uint32_t want3[8] = {0x1000, 0x002c0000, 0x00018002, 0xa2000204, 4, 0, 0, 0};
  expect(srd, want3, 8);
  struct img_format b = fmt(HSA_EXT_IMAGE_GEOMETRY_1DB, O(R), T(UNSIGNED_INT8));
  struct img_srd_in inb = {HSA_EXT_IMAGE_GEOMETRY_1DB, &b, 0x7f0000001234ull, 1000, 1, 1, 1024, 0, 0, 0, 0};
  img_srd_gfx12(&inb, srd);
  img_srd_gfx11(&inb, g11);
  expect(srd, g11, 8);
  /* layouts: a 9x7x5 R32F 3D image in 128-byte rows (36 -> 128) whose slices are of 256-byte
   * rows (addrlib's gfx12 LINEAR layout: 7 x 256), 2D ones in 256-byte rows; only the
   * hardware's pitches for 3D and arrays */
  hsa_ext_image_descriptor_t d3 = {HSA_EXT_IMAGE_GEOMETRY_3D, 9, 7, 5, 0, {T(FLOAT), O(R)}};
  struct img_layout l;
  ck_assert_int_eq(img_layout_gfx12(&d3, &r, 0, 0, &l), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(l.row_pitch, 128);
  ck_assert_uint_eq(l.slice_pitch, 1792);
  ck_assert_uint_eq(l.size, 8960);
  ck_assert_uint_eq(l.alignment, 256);
  ck_assert_int_eq(img_layout_gfx12(&d3, &r, 128, 1792, &l), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(img_layout_gfx12(&d3, &r, 128, 896, &l), HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED);
  ck_assert_int_eq(img_layout_gfx12(&d3, &r, 256, 0, &l), HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED);
  ck_assert_int_eq(img_layout_gfx12(&d3, &r, 0, 1024, &l), HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED);
  hsa_ext_image_descriptor_t d1a = {HSA_EXT_IMAGE_GEOMETRY_1DA, 10, 0, 0, 3, {T(FLOAT), O(R)}};
  ck_assert_int_eq(img_layout_gfx12(&d1a, &r, 0, 0, &l), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(l.row_pitch, 128);
  ck_assert_uint_eq(l.slice_pitch, 256);
  ck_assert_uint_eq(l.size, 768);
  hsa_ext_image_descriptor_t d2 = {HSA_EXT_IMAGE_GEOMETRY_2D, 9, 7, 0, 0, {T(FLOAT), O(R)}};
  ck_assert_int_eq(img_layout_gfx12(&d2, &r, 0, 0, &l), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(l.row_pitch, 256);
  uint32_t s12[4];
  struct img_sampler_in lin = {{HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE,
                                HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT,
                                HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER},
                               HSA_EXT_SAMPLER_FILTER_MODE_LINEAR,
                               HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED};
  ck_assert(img_sampler_gfx12(&lin, s12));
  /* CLAMP 2, 0, 6; FORCE_UNNORMALIZED; MAX_LOD 17.0 = 4352 << 13; bilinear */
  const uint32_t wants[4] = {2u | 6u << 6 | 1u << 15, 0x2200000, 0x500000, 0};
  expect(s12, wants, 4);
  lin.address[1] = 99;
  ck_assert(!img_sampler_gfx12(&lin, s12));
}
END_TEST

START_TEST(t_sampler) {
  uint32_t s[4];
  enum { EDGE = HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE,
         BORDER = HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER,
         REPEAT = HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT,
         MIRROR = HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT };
  struct img_sampler_in edge = {{EDGE, EDGE, EDGE}, HSA_EXT_SAMPLER_FILTER_MODE_NEAREST,
                                HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED};
  ck_assert(img_sampler_gfx9(&edge, s));
  /* CLAMP_LAST_TEXEL = 2 on each axis: 2 | 2 << 3 | 2 << 6 = 0x92; MAX_LOD 4095 << 12 */
  const uint32_t want1[4] = {0x92, 0xfff000, 0, 0};
  expect(s, want1, 4);
  struct img_sampler_in lin = {{REPEAT, REPEAT, REPEAT}, HSA_EXT_SAMPLER_FILTER_MODE_LINEAR,
                               HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED};
  ck_assert(img_sampler_gfx9(&lin, s));
  /* WRAP = 0, FORCE_UNNORMALIZED 1 << 15; BILINEAR (1) in XY_MAG 21:20 and XY_MIN 23:22 */
  const uint32_t want2[4] = {0x8000, 0xfff000, 0x500000, 0};
  expect(s, want2, 4);
  /* per axis (v2): repeat, mirrored repeat, border = WRAP 0, MIRROR 1, CLAMP_BORDER 6 */
  struct img_sampler_in axes = {{REPEAT, MIRROR, BORDER}, 0, 1};
  ck_assert(img_sampler_gfx9(&axes, s));
  ck_assert_uint_eq(s[0], 0u | 1u << 3 | 6u << 6);
  struct img_sampler_in bad = {{5, 1, 1}, 0, 1};
  ck_assert(!img_sampler_gfx9(&bad, s));
  bad.address[0] = 1;
  bad.filter = 2;
  ck_assert(!img_sampler_gfx9(&bad, s));
  bad.filter = 0;
  bad.coordinate = 2;
  ck_assert(!img_sampler_gfx9(&bad, s));
}
END_TEST

START_TEST(t_linear_layout) {
  hsa_ext_image_descriptor_t d;
  memset(&d, 0, sizeof(d));
  d.geometry = HSA_EXT_IMAGE_GEOMETRY_3D;
  d.width = 100;
  d.height = 37;
  d.depth = 5;
  d.format.channel_order = O(RGBA);
  d.format.channel_type = T(UNORM_INT8);
  struct img_format f = fmt(d.geometry, O(RGBA), T(UNORM_INT8));
  struct img_layout l;
  /* 400 bytes a row -> 512; 37 rows a slice; 5 slices */
  ck_assert_int_eq(img_layout_linear(&d, &f, 0, 0, &l), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(l.row_pitch, 512);
  ck_assert_uint_eq(l.slice_pitch, 512 * 37);
  ck_assert_uint_eq(l.size, 512 * 37 * 5);
  ck_assert_uint_eq(l.alignment, 256);
  ck_assert_int_eq(img_layout_linear(&d, &f, 1024, 1024 * 37, &l), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(l.size, 1024 * 37 * 5);
  /* not whole 256-byte units, too short, or a slice pitch other than rows x row pitch */
  ck_assert_int_eq(img_layout_linear(&d, &f, 640, 0, &l), HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED);
  ck_assert_int_eq(img_layout_linear(&d, &f, 256, 0, &l), HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED);
  ck_assert_int_eq(img_layout_linear(&d, &f, 512, 512 * 38, &l), HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED);
  /* 1DA: layers are rows of one row pitch each */
  d.geometry = HSA_EXT_IMAGE_GEOMETRY_1DA;
  d.array_size = 6;
  ck_assert_int_eq(img_layout_linear(&d, &f, 0, 0, &l), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(l.slice_pitch, 512);
  ck_assert_uint_eq(l.size, 512 * 6);
  /* zero sizes count as 1 */
  d.geometry = HSA_EXT_IMAGE_GEOMETRY_2D;
  d.width = 0;
  d.height = 0;
  ck_assert_int_eq(img_layout_linear(&d, &f, 0, 0, &l), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(l.size, 256);
}
END_TEST

START_TEST(t_formats) {
  /* what ROCR 5.2.3 reports on gfx9 (image_vs_rocr.sh checks all of them) */
  hsa_ext_image_format_t f;
  struct img_format out;
  f.channel_order = O(DEPTH);
  f.channel_type = T(UNORM_INT16);
  ck_assert(img_format_lookup(HSA_EXT_IMAGE_GEOMETRY_2DDEPTH, &f, &out));
  ck_assert_uint_eq(out.caps, HSA_EXT_IMAGE_CAPABILITY_READ_ONLY | HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY);
  /* depth reads x only: selects X,0,0,0 (ROCR's T# says the same) */
  ck_assert_uint_eq(out.sel[0], IMG_SEL_X);
  ck_assert_uint_eq(out.sel[3], IMG_SEL_0);
  f.channel_order = O(RGBA);
  ck_assert(!img_format_lookup(HSA_EXT_IMAGE_GEOMETRY_2DDEPTH, &f, &out));
  f.channel_type = T(UNORM_INT24);
  ck_assert(!img_format_lookup(HSA_EXT_IMAGE_GEOMETRY_2D, &f, &out));
  f.channel_order = O(BGRA);
  f.channel_type = T(UNORM_INT16);
  ck_assert(!img_format_lookup(HSA_EXT_IMAGE_GEOMETRY_2D, &f, &out));
  f.channel_order = O(RGBA);
  f.channel_type = T(FLOAT);
  ck_assert(img_format_lookup(HSA_EXT_IMAGE_GEOMETRY_2D, &f, &out));
  ck_assert_uint_eq(out.elem_size, 16);
  ck_assert_uint_eq(out.data_format, 14);
  ck_assert(!img_format_lookup((hsa_ext_image_geometry_t)8, &f, &out));
}
END_TEST

/* The image of a fixture surface (tests/image_fixture.h), as a descriptor of its geometry and
 * sizes and a format of its texel size; gfx9's TEX_2D with slices is a 2D array. */
static hsa_ext_image_descriptor_t fixture_image(const struct imgfx_surface *s, struct img_format *f) {
  static const hsa_ext_image_geometry_t geos[5] = {
      HSA_EXT_IMAGE_GEOMETRY_1D, HSA_EXT_IMAGE_GEOMETRY_1DA, HSA_EXT_IMAGE_GEOMETRY_2D,
      HSA_EXT_IMAGE_GEOMETRY_2DA, HSA_EXT_IMAGE_GEOMETRY_3D};
  unsigned g = s->geo == IMGFX_2D && s->slices > 1 ? IMGFX_2DA : s->geo;
  memset(f, 0, sizeof(*f));
  f->elem_size = (uint8_t)(s->bpp / 8);
  hsa_ext_image_descriptor_t d = {geos[g], s->w, g < 2 ? 0 : s->h, g == 4 ? s->slices : 0,
                                  g == 1 || g == 3 ? s->slices : 0, {T(FLOAT), O(R)}};
  return d;
}

/* gfx9's tiled layouts against addrlib (tests/fixtures/image/gfx9_swizzle.txt, made by ROCR
 * 5.2.3's addrlib for hsa-sim's GB_ADDR_CONFIG): every sample's byte offset, every block, and
 * for the surfaces whose mode ROCR's preferred setting chose, the same mode, pitch, size and
 * alignment from img_tile_choose. */
START_TEST(t_tiled_vs_addrlib) {
  struct imgfx fx = imgfx_read("gfx9_swizzle.txt");
  unsigned chosen = 0, samples = 0;
  struct img_tile t;
  memset(&t, 0, sizeof(t));
  for (unsigned i = 0; i < fx.n; i++) {
    const struct imgfx_surface *s = &fx.s[i];
    bool tex3d = s->geo == IMGFX_3D;
    ck_assert_msg(img_tile_init(&t, s->gb, s->mode, tex3d, s->bpp / 8), "refused: %s:%u", fx.path,
                  s->line);
    ck_assert_msg((1u << t.bw_log2) == s->bw && (1u << t.bh_log2) == s->bh &&
                  (1u << t.bd_log2) == s->bd &&
                  (s->mode >= 20 ? 1u << t.block_log2 : 256u) == s->align,
                  "block of %s:%u", fx.path, s->line);
    t.pitch = s->pitch;
    t.height = s->h;
    if (!strcmp(s->how, "rocr")) {
      struct img_format f;
      hsa_ext_image_descriptor_t d = fixture_image(s, &f);
      struct img_tile c;
      struct img_layout l;
      ck_assert_msg(img_tile_choose(&d, &f, s->gb, &c, &l), "no choice for %s:%u", fx.path, s->line);
      ck_assert_msg(c.sw_mode == s->mode && c.pitch == s->pitch && l.size == s->size &&
                    l.alignment == s->align && l.row_pitch == (size_t)s->pitch * s->bpp / 8,
                    "chose mode %u pitch %u size %zu align %zu for %s:%u", c.sw_mode, c.pitch, l.size,
                    l.alignment, fx.path, s->line);
      chosen++;
    }
    for (unsigned j = 0; j < s->nsamples; j++, samples++) {
      const struct imgfx_sample *a = &s->sample[j];
      size_t got = img_tile_offset(&t, a->x, a->y, a->z);
      ck_assert_msg(got == a->off, "(%u,%u,%u) at %zu, addrlib %llu (mode %u bpp %u %s %ux%ux%u)",
                    a->x, a->y, a->z, got, a->off, s->mode, s->bpp, s->type, s->w, s->h, s->slices);
    }
  }
  ck_assert_uint_ge(fx.n, 300);
  ck_assert_uint_ge(chosen, 100);
  ck_assert_uint_ge(samples, 6000);
  imgfx_free(&fx);
  /* 1D kinds and 12-byte texels stay linear; unknown modes are refused */
  hsa_ext_image_descriptor_t d1 = {HSA_EXT_IMAGE_GEOMETRY_1D, 100, 0, 0, 0, {T(FLOAT), O(R)}};
  struct img_format f4;
  memset(&f4, 0, sizeof(f4));
  f4.elem_size = 4;
  struct img_layout l;
  ck_assert(!img_tile_choose(&d1, &f4, 0x2a114042u, &t, &l));
  ck_assert(!img_tile_init(&t, 0x2a114042u, 23, false, 4));   /* SW_4KB_R_X */
  ck_assert(!img_tile_init(&t, 0x2a114042u, 26, false, 12));
}
END_TEST

/* gfx12's LINEAR layouts and mip chains against addrlib (tests/fixtures/image/gfx12_mips.txt,
 * made by the newest ROCR's addrlib, Addr3 for gfx1201): every surface's size and slice size
 * (2D and 1D with one level excepted: their T# has a PITCH, ours the 256-byte rows), every
 * level's offset and row pitch, and every sampled texel's byte offset. */
START_TEST(t_gfx12_vs_addrlib) {
  struct imgfx fx = imgfx_read("gfx12_mips.txt");
  unsigned lv = 0, samples = 0;
  struct img_layout l;
  memset(&l, 0, sizeof(l));
  for (unsigned i = 0; i < fx.n; i++) {
    const struct imgfx_surface *s = &fx.s[i];
    struct img_format f;
    hsa_ext_image_descriptor_t d = fixture_image(s, &f);
    if (s->levels > 1) {
      img_layout_mips_gfx12(&d, &f, s->levels, &l);
    } else {
      ck_assert_int_eq(img_layout_gfx12(&d, &f, 0, 0, &l), HSA_STATUS_SUCCESS);
      if (s->geo == IMGFX_1D || s->geo == IMGFX_2D) img_layout_mips_gfx12(&d, &f, 1, &l);
    }
    ck_assert_msg(l.size == s->size && l.slice_pitch == s->slice && l.alignment == s->align,
                  "size %zu slice %zu align %zu for %s:%u", l.size, l.slice_pitch, l.alignment,
                  fx.path, s->line);
    for (unsigned k = 0; k < s->nlevels; k++, lv++) {
      const struct imgfx_level *m = &s->lv[k];
      ck_assert_msg(img_level_offset_gfx11(&d, &f, s->levels, m->level) == m->offset &&
                    img_level_pitch_gfx12(&d, &f, m->level) == m->pitch * f.elem_size,
                    "level %u: offset %zu pitch %zu (%ux%ux%u kind %u bpp %u, %u levels)", m->level,
                    img_level_offset_gfx11(&d, &f, s->levels, m->level),
                    img_level_pitch_gfx12(&d, &f, m->level), s->w, s->h, s->slices, s->geo, s->bpp,
                    s->levels);
    }
    for (unsigned j = 0; j < s->nsamples; j++, samples++) {
      const struct imgfx_sample *a = &s->sample[j];
      size_t got = (size_t)a->z * l.slice_pitch + img_level_offset_gfx11(&d, &f, s->levels, a->level) +
                   (size_t)a->y * img_level_pitch_gfx12(&d, &f, a->level) + (size_t)a->x * f.elem_size;
      ck_assert_msg(got == a->off, "level %u (%u,%u,%u) at %zu, addrlib %llu (%ux%ux%u kind %u bpp %u)",
                    a->level, a->x, a->y, a->z, got, a->off, s->w, s->h, s->slices, s->geo, s->bpp);
    }
  }
  ck_assert_uint_ge(fx.n, 90);
  ck_assert_uint_ge(lv, 300);
  ck_assert_uint_ge(samples, 1500);
  imgfx_free(&fx);
}
END_TEST

/* gfx11's and gfx12's tiled layouts against addrlib (tests/fixtures/image/gfx11_swizzle.txt for
 * gfx1100's GB_ADDR_CONFIG 0x545, gfx12_swizzle.txt for gfx1201; the newest ROCR's addrlib): for
 * the surfaces whose mode ROCR's choice took, the same choice from img_tile_choose_gfx11/_gfx12
 * (LINEAR: false) with addrlib's pitch, slice, size and alignment; for every tiled surface the
 * block, and every sample's byte offset from img_tile_offset. */
static void swizzle_vs_addrlib(const char *file, bool gfx11, unsigned min_chosen,
                               unsigned min_linear, unsigned min_samples) {
  struct imgfx fx = imgfx_read(file);
  unsigned chosen = 0, linear = 0, samples = 0;
  struct img_tile t;
  memset(&t, 0, sizeof(t));
  for (unsigned i = 0; i < fx.n; i++) {
    const struct imgfx_surface *s = &fx.s[i];
    if (!strcmp(s->how, "rocr")) {
      struct img_format f;
      hsa_ext_image_descriptor_t d = fixture_image(s, &f);
      struct img_layout l;
      bool tiled = gfx11 ? img_tile_choose_gfx11(&d, &f, 0x545, &t, &l)
                         : img_tile_choose_gfx12(&d, &f, &t, &l);
      if (!s->mode) {
        ck_assert_msg(!tiled, "chose mode %u for LINEAR %s:%u", t.sw_mode, fx.path, s->line);
        linear++;
        continue;
      }
      ck_assert_msg(tiled && t.sw_mode == s->mode && t.pitch == s->pitch && l.size == s->size &&
                    l.alignment == s->align && l.row_pitch == (size_t)s->pitch * s->bpp / 8 &&
                    l.slice_pitch == s->slice,
                    "chose %d mode %u pitch %u size %zu align %zu slice %zu for %s:%u", tiled,
                    t.sw_mode, t.pitch, l.size, l.alignment, l.slice_pitch, fx.path, s->line);
      chosen++;
    } else {
      ck_assert_msg(gfx11 ? img_tile_init_gfx11(&t, 0x545, s->mode, s->bpp / 8)
                          : img_tile_init_gfx12(&t, s->mode, s->bpp / 8),
                    "refused: %s:%u", fx.path, s->line);
      t.pitch = s->pitch;
      t.height = s->h;
    }
    ck_assert_msg((1u << t.bw_log2) == s->bw && (1u << t.bh_log2) == s->bh &&
                  (1u << t.bd_log2) == s->bd && (1u << t.block_log2) == s->align,
                  "block of %s:%u", fx.path, s->line);
    for (unsigned j = 0; j < s->nsamples; j++, samples++) {
      const struct imgfx_sample *a = &s->sample[j];
      size_t got = img_tile_offset(&t, a->x, a->y, a->z);
      ck_assert_msg(got == a->off, "%s (%u,%u,%u) at %zu, addrlib %llu (mode %u bpp %u %s %ux%ux%u)",
                    file, a->x, a->y, a->z, got, a->off, s->mode, s->bpp, s->type, s->w, s->h,
                    s->slices);
    }
  }
  ck_assert_uint_ge(chosen, min_chosen);
  ck_assert_uint_ge(linear, min_linear);
  ck_assert_uint_ge(samples, min_samples);
  imgfx_free(&fx);
}

START_TEST(t_gfx12_swizzle_vs_addrlib) {
  swizzle_vs_addrlib("gfx12_swizzle.txt", false, 130, 30, 5000);
  struct img_tile t;
  ck_assert(!img_tile_init_gfx12(&t, 0, 4));
  ck_assert(!img_tile_init_gfx12(&t, 8, 4));
  ck_assert(!img_tile_init_gfx12(&t, 2, 12));
}
END_TEST

START_TEST(t_gfx11_swizzle_vs_addrlib) {
  swizzle_vs_addrlib("gfx11_swizzle.txt", true, 120, 60, 7500);
  struct img_tile t;
  ck_assert(!img_tile_init_gfx11(&t, 0x545, 24, 16));
  ck_assert(!img_tile_init_gfx11(&t, 0x545, 26, 4));
  ck_assert(!img_tile_init_gfx11(&t, 0x2a114042, 27, 4));   /* only 0x545's pipes are modelled */
  hsa_ext_image_descriptor_t d = {HSA_EXT_IMAGE_GEOMETRY_2D, 64, 64, 0, 0, {T(FLOAT), O(R)}};
  struct img_format f;
  memset(&f, 0, sizeof(f));
  f.elem_size = 4;
  struct img_layout l;
  ck_assert(!img_tile_choose_gfx11(&d, &f, 0x2a114042, &t, &l));   /* another chip: LINEAR */
}
END_TEST

/* gfx9's tiled mip chains against addrlib (tests/fixtures/image/gfx9_mips.txt, ROCR 5.2.3's
 * addrlib with the mode ROCR gives the image): per level img_tile_chain's chain rectangle,
 * size and alignment, and every sample's byte offset through img_tile_offset. */
START_TEST(t_tiled_mips_vs_addrlib) {
  struct imgfx fx = imgfx_read("gfx9_mips.txt");
  unsigned samples = 0;
  struct img_tile t;
  memset(&t, 0, sizeof(t));
  for (unsigned i = 0; i < fx.n; i++) {
    const struct imgfx_surface *s = &fx.s[i];
    bool tex3d = s->geo == IMGFX_3D;
    for (unsigned k = 0; k < s->nlevels; k++) {
      const struct imgfx_level *m = &s->lv[k];
      ck_assert_msg(img_tile_init(&t, s->gb, s->mode, tex3d, s->bpp / 8), "refused: mode %u", s->mode);
      struct img_layout l;
      img_tile_chain(&t, s->w, s->h, s->slices, tex3d, s->levels, m->level, &l, s->bpp / 8);
      ck_assert_msg(t.pitch == s->chain_w && t.height == s->chain_h && l.size == s->size &&
                    l.slice_pitch == s->slice && l.alignment == s->align && t.tail == m->tail,
                    "level %u: chain %ux%u size %zu slice %zu tail %u (%s %u %s %ux%ux%u, %u levels, "
                    "mode %u)", m->level, t.pitch, t.height, l.size, l.slice_pitch, t.tail, s->chip,
                    s->bpp, s->type, s->w, s->h, s->slices, s->levels, s->mode);
      /* the samples of this level (they follow its L line in the fixture) */
      for (unsigned j = 0; j < s->nsamples; j++) {
        const struct imgfx_sample *a = &s->sample[j];
        if (a->level != m->level) continue;
        size_t got = img_tile_offset(&t, a->x, a->y, a->z);
        ck_assert_msg(got == a->off, "level %u (%u,%u,%u) at %zu, addrlib %llu (%s %u %s %ux%ux%u, "
                      "%u levels, mode %u, block at %u,%u,%u)", a->level, a->x, a->y, a->z, got,
                      a->off, s->chip, s->bpp, s->type, s->w, s->h, s->slices, s->levels, s->mode,
                      t.pos_w, t.pos_h, t.pos_d);
        samples++;
      }
    }
  }
  ck_assert_uint_ge(fx.n, 150);
  ck_assert_uint_ge(samples, 7000);
  imgfx_free(&fx);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("image_srd");
  TCase *tc = tcase_create("gfx9");
  tcase_add_test(tc, t_2d_rgba8);
  tcase_add_test(tc, t_3d_r_float);
  tcase_add_test(tc, t_arrays_and_swizzles);
  tcase_add_test(tc, t_1db_buffer);
  tcase_add_test(tc, t_sampler);
  tcase_add_test(tc, t_gfx11);
  tcase_add_test(tc, t_gfx12);
  tcase_add_test(tc, t_linear_layout);
  tcase_add_test(tc, t_formats);
  tcase_add_test(tc, t_tiled_vs_addrlib);
  tcase_add_test(tc, t_gfx12_vs_addrlib);
  tcase_add_test(tc, t_tiled_mips_vs_addrlib);
  tcase_add_test(tc, t_gfx12_swizzle_vs_addrlib);
  tcase_add_test(tc, t_gfx11_swizzle_vs_addrlib);
  suite_add_tcase(s, tc);
  return s;
}
