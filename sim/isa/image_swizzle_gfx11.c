/* SPDX-License-Identifier: MIT */
/* image_swizzle_gfx11.c — gfx11's (RDNA3's) tiled image layouts for hsa-sim's gfx1100
 * GB_ADDR_CONFIG (0x545: 32 pipes, 32 packers, 256-byte pipe interleave): where element
 * (x, y, z) of a surface in the swizzle modes a gfx11 ROCR uses lies. Read from addrlib's gfx11
 * addresses (the newest ROCR's copy) one coordinate bit at a time; checked against every sample
 * of tests/fixtures/image/gfx11_swizzle.txt (test_isa_image_gfx11's gfx11_swizzle_vs_addrlib).
 *
 * Every address bit of a block is the XOR of at most three coordinate bits (addrlib's gfx10+
 * equations are XORs of coordinate bits), so the layout fits img_swizzle's src/xa/xb:
 *  - bits 0..7: the 256-byte micro block, the same per element size as gfx12's 2D modes (the
 *    byte in the element, then x and y bits; img_swizzle_init_gfx12's 256B_2D);
 *  - bits 8 and up (4KB_D_X: 4 of them, 64KB_R_X/Z_X: 8, 256KB_R_X/Z_X: 10): the table below,
 *    one word per address bit, of x, y and z (the slice) bits; the pipe XOR takes coordinate
 *    bits above the block (x8, y9, ...) and the slice's low bits. Z_X and R_X give the same
 *    addresses here (for the 1- to 8-byte elements Z_X allows).
 * Blocks are row-major with the width rounded up to the block width, a slice (layer, or a 3D
 * image's depth slice: ROCR views 3D images as 2D arrays) a whole slice of blocks. */
#include "isa/image.h"

#include <string.h>

/* bits 8.. of SW_4KB_D_X, SW_64KB_R_X, SW_256KB_R_X for 1, 2, 4, 8 and 16-byte elements */
static const char *const upper[3][5] = {
  {"x7^y4^z3 x4^y7^z2 x6^y5^z1 x5^y6^z0", "x7^y3^z3 x4^y6^z2 x6^y4^z1 x5^y5^z0",
   "x6^y3^z3 x3^y6^z2 x5^y4^z1 x4^y5^z0", "x6^y2^z3 x3^y5^z2 x5^y3^z1 x4^y4^z0",
   "x5^y2^z3 x2^y5^z2 x4^y3^z1 x3^y4^z0"},
  {"x9^y4^y9 x4^y4^z1 x8^y5^z0 x5^y8 x7^y6 x7 y7 x6^y7",
   "x9^y4^y9 x4^y4^z1 x8^y5^z0 x5^y8 x7^y6 y3 x7 x6^y7",
   "x9^y4^y9 x4^y4^z1 x8^y5^z0 x5^y8 x7^y6 x3 y3 x6^y7",
   "x9^y4^y9 x4^y4^z3 x8^y5^z2 x5^y8^z1 x7^y2^y6 x3 y3 x6^y7^z0",
   "x9^y4^y9 x4^y4^z2 x8^y5^z1 x5^y8^z0 x7^y2^y6 x3 y3 x2^x6^y7"},
  {"x9^y4^y9 x4^y4^z1 x8^y5^z0 x5^y8 x7^y6 x7 y7 x8^y9 x9^y8 x6^y7",
   "x9^y4^y9 x4^y4^z1 x8^y5^z0 x5^y8 x7^y6 y3 x7 x8^y8 x9^y7 x6^y7",
   "x9^y4^y9 x4^y4^z1 x8^y5^z0 x5^y8 x7^y6 x3 y3 x7^y8 x8^y7 x6^y7",
   "x9^y4^y9 x4^y4^z4 x8^y5^z3 x5^y8^z2 x7^y6^z1 y2 x3 x8^y3 x7^y7 x6^y7^z0",
   "x9^y4^y9 x4^y4^z4 x8^y5^z3 x5^y8^z2 x7^y6^z1 x2 y2 x7^y3 x3^y7 x6^y7^z0"},
};

bool img_swizzle_init_gfx11(struct img_swizzle *s, uint32_t gb_addr_config, unsigned sw_mode,
                            unsigned bytes)
{
  unsigned kind;   /* 0 4 KiB, 1 64 KiB, 2 256 KiB */
  switch (sw_mode) {
  case 2: kind = 3; break;                 /* SW_256B_D: the micro block alone */
  case 22: kind = 0; break;                /* SW_4KB_D_X */
  case 24: case 27: kind = 1; break;       /* SW_64KB_Z_X, SW_64KB_R_X */
  case 28: case 31: kind = 2; break;       /* SW_256KB_Z_X, SW_256KB_R_X */
  default: return false;
  }
  if ((gb_addr_config & 0x7ff) != 0x545 || ((sw_mode == 24 || sw_mode == 28) && bytes > 8) ||
      !img_swizzle_init_gfx12(s, 1, bytes))
    return false;
  if (kind == 3)
    return true;
  static const unsigned block_log2[3] = {12, 16, 18};
  unsigned e = (unsigned)__builtin_ctz(bytes);
  s->block_log2 = block_log2[kind];
  const char *p = upper[kind][e];
  for (unsigned bit = 8; bit < s->block_log2; bit++) {
    uint8_t *dst[3] = {&s->src[bit], &s->xa[bit], &s->xb[bit]};
    for (unsigned t = 0; t < 3 && *p && *p != ' '; t++) {
      unsigned c = *p == 'x' ? 1 : *p == 'y' ? 2 : 3, i = 0;
      for (p++; *p >= '0' && *p <= '9'; p++)
        i = i * 10 + (unsigned)(*p - '0');
      *dst[t] = (uint8_t)(c << 5 | i);
      if (*p == '^')
        p++;
    }
    while (*p == ' ')
      p++;
  }
  /* the block: of its block_log2 - log2(bytes) element bits, x takes the larger half */
  s->bw_log2 = (s->block_log2 - e + 1) / 2;
  s->bh_log2 = (s->block_log2 - e) / 2;
  return true;
}
