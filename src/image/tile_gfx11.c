/* SPDX-License-Identifier: MIT */
/* tile_gfx11.c — gfx11's (RDNA3's) tiled image layouts on the host, for the GB_ADDR_CONFIG of
 * hsa-sim's gfx1100 (0x545: 32 pipes, 32 packers, 256-byte interleave; others stay LINEAR):
 * which swizzle mode a gfx11 ROCR (the newest, ImageManagerGfx11 with addrlib's
 * Addr2GetPreferredSurfaceSetting, no forbidden block) gives an opaque image, the sizes, and
 * where texel (x, y, z) lies. Read from addrlib's numbers and checked against them
 * (tests/fixtures/image/gfx11_swizzle.txt, tests/unit/test_image_srd.c).
 *
 * The equations: each address bit of a block is the XOR of at most three coordinate bits
 * (img_tile's src/xa/xb): bits 0..7 gfx12's 256-byte micro block (the same per texel size),
 * bits 8 and up the table below (the pipe XOR brings in coordinate bits above the block and
 * the slice's low bits). Z_X gives R_X's addresses here. Blocks are row-major, the pitch the
 * width rounded up to the block width, a slice (layer; a 3D image's depth slice, ROCR viewing
 * 3D images as 2D arrays) a whole slice of blocks.
 *
 * The choice: 2D kinds and arrays take the first of LINEAR (only for one row), 256 B, 4 KiB,
 * 64 KiB, 256 KiB blocks, and a later one whenever its padded size is at most twice the size
 * taken so far; 256 B is SW_256B_D, 4 KiB SW_4KB_D_X, 64/256 KiB the R_X modes. 3D images
 * (thin blocks only: no LINEAR, 256 B or 4 KiB) choose between 64 and 256 KiB the same way and
 * take Z_X (R_X for 16-byte texels, which Z does not allow). 1D kinds stay LINEAR (addrlib
 * offers them 64 KiB blocks too, never within twice the linear size). */
#include "image/internal.h"

#include <string.h>

static const char *const upper[3][5] = {   /* bits 8.. of 4KB_D_X, 64KB_R_X, 256KB_R_X */
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

bool img_tile_init_gfx11(struct img_tile *t, uint32_t gb_addr_config, unsigned sw_mode,
                         unsigned bytes) {
  unsigned kind;   /* 0 4 KiB, 1 64 KiB, 2 256 KiB, 3 the micro block alone */
  switch (sw_mode) {
  case 2: kind = 3; break;
  case 22: kind = 0; break;
  case 24: case 27: kind = 1; break;
  case 28: case 31: kind = 2; break;
  default: return false;
  }
  if ((gb_addr_config & 0x7ff) != 0x545 || ((sw_mode == 24 || sw_mode == 28) && bytes > 8) ||
      !img_tile_init_gfx12(t, 1, bytes))   /* 256B_2D: gfx11's micro block too */
    return false;
  t->sw_mode = sw_mode;
  if (kind == 3) return true;
  static const unsigned block_log2[3] = {12, 16, 18};
  unsigned e = (unsigned)__builtin_ctz(bytes);
  t->block_log2 = block_log2[kind];
  const char *p = upper[kind][e];
  for (unsigned bit = 8; bit < t->block_log2; bit++) {
    uint8_t *dst[3] = {&t->src[bit], &t->xa[bit], &t->xb[bit]};
    for (unsigned k = 0; k < 3 && *p && *p != ' '; k++) {
      unsigned c = *p == 'x' ? 1u : *p == 'y' ? 2u : 3u, i = 0;
      for (p++; *p >= '0' && *p <= '9'; p++) i = i * 10 + (unsigned)(*p - '0');
      *dst[k] = (uint8_t)(c << 5 | i);
      if (*p == '^') p++;
    }
    while (*p == ' ') p++;
  }
  t->bw_log2 = (t->block_log2 - e + 1) / 2;   /* x takes the larger half of the texel bits */
  t->bh_log2 = (t->block_log2 - e) / 2;
  return true;
}

bool img_tile_choose_gfx11(const hsa_ext_image_descriptor_t *d, const struct img_format *f,
                           uint32_t gb_addr_config, struct img_tile *t, struct img_layout *l) {
  bool tex3d = d->geometry == HSA_EXT_IMAGE_GEOMETRY_3D;
  if (!img_tile_geometry(d->geometry)) return false;
  uint64_t w = d->width ? d->width : 1, h = d->height ? d->height : 1;
  uint64_t n = d->array_size > d->depth ? d->array_size : d->depth;
  if (!n) n = 1;
  unsigned best = 0;
  uint64_t best_size = 0;
  if (!tex3d && d->height <= 1) {
    struct img_layout lin;
    if (img_layout_linear(d, f, 0, 0, &lin) != HSA_STATUS_SUCCESS) return false;
    best_size = lin.size;
  }
  bool z = tex3d && f->elem_size <= 8;
  const unsigned modes[4] = {2, 22, z ? 24u : 27u, z ? 28u : 31u};
  for (unsigned i = tex3d ? 2 : 0; i < 4; i++) {
    struct img_tile c;
    if (!img_tile_init_gfx11(&c, gb_addr_config, modes[i], f->elem_size)) return false;
    uint64_t size = img_align_log2(w, c.bw_log2) * img_align_log2(h, c.bh_log2) * n * f->elem_size;
    if (!best_size || size <= 2 * best_size) {
      best_size = size;
      best = modes[i];
    }
  }
  if (!best || !img_tile_init_gfx11(t, gb_addr_config, best, f->elem_size)) return false;
  img_tile_surface(t, f, w, h, n, l);
  return true;
}
