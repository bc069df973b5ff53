/* SPDX-License-Identifier: MIT */
/* image_swizzle_gfx12.c — gfx12's (RDNA4's) tiled image layouts: where element (x, y, z) of a
 * surface in one of gfx12's swizzle modes lies. Read from addrlib's gfx12 addresses (the newest
 * ROCR's copy) by probing one coordinate bit at a time and checked against every sample of
 * tests/fixtures/image/gfx12_swizzle.txt (test_isa_image_gfx11's gfx12_swizzle_vs_addrlib).
 *
 * SW_MODE (T# word3[24:20]): 1 256B_2D, 2 4KB_2D, 3 64KB_2D, 4 256KB_2D, 5 4KB_3D, 6 64KB_3D,
 * 7 256KB_3D. gfx12 has no pipe or bank XOR: inside a block (2^8, 2^12, 2^16 or 2^18 bytes) each
 * address bit is one coordinate bit, with no dependence on GB_ADDR_CONFIG:
 *  - below log2(element bytes): the byte in the element;
 *  - 2D modes: up to bit 7 a 256-byte micro block per element size (micro2 below), then y and
 *    x alternately (even address bits y), each coordinate continuing after its last micro bit;
 *    a 2D mode's slices (array layers, or a 3D image's depth) are whole slices of blocks;
 *  - 3D modes: up to bit 8 a 512-byte micro block of x, y and z (micro3), then x, z, y by
 *    address bit % 3 (0, 1, 2); blocks span block-depth slices.
 * Blocks are row-major: the pitch (the width rounded up to the block width) / block width of
 * them a row, the height rounded up to the block height a slice of blocks. */
#include "isa/image.h"

#include <string.h>

#define X(i) (IMG_SWZ_X | (i))
#define Y(i) (IMG_SWZ_Y | (i))
#define Z(i) (IMG_SWZ_Z | (i))

/* from bit log2(element bytes) to bit 7 */
static const uint8_t micro2[5][8] = {
  {X(0), X(1), Y(0), X(2), Y(1), Y(2), X(3), Y(3)},
  {X(0), Y(0), X(1), Y(1), X(2), Y(2), X(3)},
  {X(0), Y(0), X(1), Y(1), X(2), Y(2)},
  {X(0), Y(0), X(1), X(2), Y(1)},
  {X(0), Y(0), X(1), Y(1)},
};
/* from bit log2(element bytes) to bit 8 */
static const uint8_t micro3[5][9] = {
  {X(0), X(1), Z(0), Y(0), Y(1), Z(1), X(2), Z(2), Y(2)},
  {X(0), Z(0), Y(0), X(1), Z(1), Y(1), Z(2), Y(2)},
  {X(0), Y(0), X(1), Z(0), Y(1), Z(1), Y(2)},
  {X(0), Y(0), Z(0), X(1), Z(1), Y(1)},
  {X(0), Z(0), Y(0), Z(1), Y(1)},
};

bool img_swizzle_init_gfx12(struct img_swizzle *s, unsigned sw_mode, unsigned bytes)
{
  memset(s, 0, sizeof *s);
  unsigned e;
  switch (bytes) {
  case 1: e = 0; break;
  case 2: e = 1; break;
  case 4: e = 2; break;
  case 8: e = 3; break;
  case 16: e = 4; break;
  default: return false;
  }
  static const uint8_t block_log2[8] = {0, 8, 12, 16, 18, 12, 16, 18};
  if (sw_mode < 1 || sw_mode > 7)
    return false;
  s->block_log2 = block_log2[sw_mode];
  s->thick = sw_mode >= 5;
  unsigned low = s->thick ? 9 : 8, n[4] = {0, 0, 0, 0};   /* next bit of x, y, z by code >> 5 */
  for (unsigned i = e; i < low; i++) {
    uint8_t c = s->thick ? micro3[e][i - e] : micro2[e][i - e];
    s->src[i] = c;
    if ((c & 31u) + 1 > n[c >> 5]) n[c >> 5] = (c & 31u) + 1;
  }
  for (unsigned i = low; i < s->block_log2; i++) {
    unsigned k = s->thick ? (i % 3 == 0 ? 1 : i % 3 == 1 ? 3 : 2) : (i & 1) ? 1 : 2;
    s->src[i] = (uint8_t)((k << 5) | n[k]++);
  }
  s->bw_log2 = n[1];
  s->bh_log2 = n[2];
  s->bd_log2 = s->thick ? n[3] : 0;
  return true;
}
