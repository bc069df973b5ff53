/* SPDX-License-Identifier: MIT */
/* tile_gfx12.c — gfx12's (RDNA4's) tiled image layouts on the host: which swizzle mode the
 * newest ROCR gives an opaque image (ImageManagerGfx12 over addrlib's gfx12 sizes), the sizes
 * that follow, and where texel (x, y, z) lies, so that the host data operations reach the
 * texels the texture unit addresses. Read from addrlib's numbers and checked against them
 * (tests/fixtures/image/gfx12_swizzle.txt, tests/unit/test_image_srd.c).
 *
 * The equations. gfx12 has no pipe or bank XOR: inside a block (256 B, 4, 64 or 256 KiB) each
 * address bit is one coordinate bit. Below log2(texel bytes) the byte in the texel; 2D modes
 * (1-4) then a 256-byte micro block per texel size and above it y and x alternately (even
 * address bits y); 3D modes (5-7) a 512-byte micro block of x, y, z and above it x, z, y by
 * address bit % 3. Blocks are row-major (the pitch is the width rounded up to the block's), a
 * 2D mode's slices (layers, a 3D image's depth) whole slices of blocks.
 *
 * The choice (ROCR's GetAddrlibSurfaceInfoNv for a tiled image): the modes addrlib allows
 * (LINEAR only when the height is at most 1; 256B_2D not for 3D images, which ROCR views as 2D
 * arrays; 4KB, 64KB, 256KB_2D), in that order, each with addrlib's size; the first is taken and
 * a later one whenever its size is at most twice the size taken so far. */
#include "image/internal.h"

#include <string.h>

#define X(i) (IMG_TC_X | (i))
#define Y(i) (IMG_TC_Y | (i))
#define Z(i) (IMG_TC_Z | (i))

static const uint8_t micro2[5][8] = {   /* bit log2(bytes) .. 7 */
    {X(0), X(1), Y(0), X(2), Y(1), Y(2), X(3), Y(3)}, {X(0), Y(0), X(1), Y(1), X(2), Y(2), X(3)},
    {X(0), Y(0), X(1), Y(1), X(2), Y(2)},             {X(0), Y(0), X(1), X(2), Y(1)},
    {X(0), Y(0), X(1), Y(1)},
};
static const uint8_t micro3[5][9] = {   /* bit log2(bytes) .. 8 */
    {X(0), X(1), Z(0), Y(0), Y(1), Z(1), X(2), Z(2), Y(2)},
    {X(0), Z(0), Y(0), X(1), Z(1), Y(1), Z(2), Y(2)},
    {X(0), Y(0), X(1), Z(0), Y(1), Z(1), Y(2)},
    {X(0), Y(0), Z(0), X(1), Z(1), Y(1)},
    {X(0), Z(0), Y(0), Z(1), Y(1)},
};

bool img_tile_init_gfx12(struct img_tile *t, unsigned sw_mode, unsigned bytes) {
  memset(t, 0, sizeof(*t));
  static const uint8_t block_log2[8] = {0, 8, 12, 16, 18, 12, 16, 18};
  unsigned e = 0;
  while (e <= 4 && bytes != 1u << e) e++;
  if (e > 4 || sw_mode < 1 || sw_mode > 7) return false;
  t->sw_mode = sw_mode;
  t->block_log2 = block_log2[sw_mode];
  t->thick = sw_mode >= 5;
  unsigned low = t->thick ? 9 : 8, n[4] = {0, 0, 0, 0};   /* next bit of x, y, z (code >> 5) */
  for (unsigned i = e; i < low; i++) {
    uint8_t c = t->thick ? micro3[e][i - e] : micro2[e][i - e];
    t->src[i] = c;
    if ((c & 31u) + 1 > n[c >> 5]) n[c >> 5] = (c & 31u) + 1;
  }
  for (unsigned i = low; i < t->block_log2; i++) {
    unsigned k = t->thick ? (i % 3 == 0 ? 1u : i % 3 == 1 ? 3u : 2u) : (i & 1) ? 1u : 2u;
    t->src[i] = (uint8_t)(k << 5 | n[k]++);
  }
  t->bw_log2 = n[1];
  t->bh_log2 = n[2];
  t->bd_log2 = t->thick ? n[3] : 0;
  return true;
}

bool img_tile_choose_gfx12(const hsa_ext_image_descriptor_t *d, const struct img_format *f,
                           struct img_tile *t, struct img_layout *l) {
  if (d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DB) return false;
  bool tex3d = d->geometry == HSA_EXT_IMAGE_GEOMETRY_3D;
  uint64_t w = d->width ? d->width : 1, h = d->height ? d->height : 1;
  uint64_t n = d->array_size > d->depth ? d->array_size : d->depth;
  if (!n) n = 1;
  unsigned best = 0;
  uint64_t best_size = 0;
  if (d->height <= 1) {   /* LINEAR is a candidate only for one row (ROCR drops it otherwise) */
    struct img_layout lin;
    img_layout_mips_gfx12(d, f, 1, &lin);
    best_size = lin.size;
  }
  for (unsigned m = tex3d ? 2 : 1; m <= 4; m++) {
    struct img_tile c;
    if (!img_tile_init_gfx12(&c, m, f->elem_size)) return false;
    uint64_t size = img_align_log2(w, c.bw_log2) * img_align_log2(h, c.bh_log2) * n * f->elem_size;
    if (!best_size || size <= 2 * best_size) {
      best_size = size;
      best = m;
    }
  }
  if (!best || !img_tile_init_gfx12(t, best, f->elem_size)) return false;   /* LINEAR */
  img_tile_surface(t, f, w, h, n, l);
  return true;
}
