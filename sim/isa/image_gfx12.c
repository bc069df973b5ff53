/* SPDX-License-Identifier: MIT */
/* image_gfx12.c — the gfx12 (RDNA4) image resource (T#) and sampler (S#) layouts (image.h
 * lists the fields), decoded into the model's gfx9-shaped records so that exec_mimg.c and
 * sample.c run unchanged. Field positions are those Mesa's gfx12 descriptor code writes
 * (ac_build_gfx12_texture_descriptor, ac_set_mutable_tex_desc_fields, the sampler's _GFX12
 * fields); the unified FORMAT numbers are gfx11's. */
#include "isa/gfx11.h"
#include "isa/image.h"

static unsigned bits(uint32_t w, unsigned lsb, unsigned width)
{
  return (w >> lsb) & (width >= 32 ? 0xffffffffu : (1u << width) - 1u);
}

/* width in elements rounded up so that a row is a multiple of `align` bytes */
static unsigned pitch_of(unsigned width, unsigned bytes, unsigned align)
{
  unsigned a = align;
  while (a > 1 && bytes % 2 == 0) {   /* align / gcd(align, bytes) elements */
    bytes /= 2;
    a /= 2;
  }
  return (width + a - 1) / a * a;
}

void img_tsharp_decode_gfx12(const uint32_t d[8], struct img_tsharp *t)
{
  /* word1's format and width moved: decode gfx11's shape with them put back, then the rest */
  uint32_t g11[8] = {d[0], bits(d[1], 0, 8) | bits(d[1], 17, 8) << 20, 0, d[3], 0, 0, 0, 0};
  img_tsharp_decode_gfx11(g11, t);   /* base, FORMAT, dst_sel, sw_mode, type */
  t->base_level = bits(d[1], 25, 5);
  t->last_level = bits(d[3], 15, 5);
  t->max_mip = bits(d[1], 12, 5);
  t->width = (bits(d[1], 30, 2) | bits(d[2], 0, 14) << 2) + 1;
  t->height = bits(d[2], 14, 16) + 1;
  t->depth = bits(d[4], 0, 14) + 1;
  t->base_array = bits(d[4], 16, 14);
  t->pitch = 0;
  t->gfx12_rows = true;
  if (t->type == IMG_TYPE_1D || t->type == IMG_TYPE_1D_ARRAY)
    t->height = 1;
  if (t->type == IMG_TYPE_1D || t->type == IMG_TYPE_2D || t->type == IMG_TYPE_2D_MSAA) {
    unsigned p = (bits(d[4], 0, 14) | bits(d[4], 14, 2) << 14) + 1;
    if (p >= t->width)
      t->pitch = p;
    t->depth = 1;
  }
  struct img_fmt f;
  if (!t->pitch && img_fmt_of(t->dfmt, t->nfmt, &f))
    t->pitch = pitch_of(t->width, f.bytes, 128);
}

void img_ssharp_decode_gfx12(const uint32_t d[4], struct img_ssharp *s)
{
  img_ssharp_decode(d, s);   /* word0, filters, border type, LOD_BIAS where gfx9 has them */
  s->min_lod = bits(d[1], 0, 13);
  s->max_lod = bits(d[1], 13, 13);
}
