/* SPDX-License-Identifier: MIT */
/* What the tiled layouts of every family share (tile_gfx9.c, tile_gfx11.c, tile_gfx12.c):
 * which geometries may be tiled, rounding to a block, and a one-level surface's sizes. */
#include "image/internal.h"

uint64_t img_align_log2(uint64_t v, unsigned log2) {
  return (v + ((uint64_t)1 << log2) - 1) >> log2 << log2;
}

/* 1D kinds stay linear in every ROCR's choice (addrlib is asked for 2D and 3D only) */
bool img_tile_geometry(hsa_ext_image_geometry_t g) {
  switch (g) {
  case HSA_EXT_IMAGE_GEOMETRY_2D:
  case HSA_EXT_IMAGE_GEOMETRY_2DA:
  case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH:
  case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH:
  case HSA_EXT_IMAGE_GEOMETRY_3D: return true;
  default: return false;
  }
}

void img_tile_surface(struct img_tile *t, const struct img_format *f, uint64_t w, uint64_t h,
                      uint64_t n, struct img_layout *l) {
  t->pitch = (uint32_t)img_align_log2(w, t->bw_log2);
  t->height = (uint32_t)h;
  l->row_pitch = (size_t)t->pitch * f->elem_size;
  l->slice_pitch = (size_t)(img_align_log2(h, t->bh_log2) * t->pitch) * f->elem_size;
  l->size = l->slice_pitch * n;
  l->alignment = (size_t)1 << t->block_log2;
}
