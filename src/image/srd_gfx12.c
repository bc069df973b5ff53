/* SPDX-License-Identifier: MIT */
/* srd_gfx12.c — the gfx12 (RDNA4) resource descriptors of an image and the sampler
 * descriptor. Field positions are Mesa's gfx12 ones (its register database, as
 * ac_build_gfx12_texture_descriptor and ac_set_mutable_tex_desc_fields write them): the
 * unified FORMAT (gfx11's numbers) moved down in word 1 below a BASE_LEVEL, MAX_MIP and
 * LAST_LEVEL widened to 5 bits, WIDTH and HEIGHT to 16 bits, DEPTH to 14 bits (1D/2D: PITCH -
 * 1, its two high bits in PITCH_MSB above it); the S# has 13-bit MIN_LOD/MAX_LOD. A 1DB
 * image's buffer descriptor is gfx11's. The hardware's linear rows are multiples of 128 bytes
 * on gfx12 (256 before): the pitch of 3D and array images, whose T# has none. Bit positions
 * are (lsb, width). */
#include "image/internal.h"

void img_srd_gfx12(const struct img_srd_in *in, uint32_t srd[8]) {
  const struct img_format *f = in->fmt;
  if (in->geometry == HSA_EXT_IMAGE_GEOMETRY_1DB) {
    img_srd_gfx11(in, srd);   /* V#: gfx11's fields */
    return;
  }
  uint32_t u = img_unified_format(f->data_format, f->num_format);
  for (int i = 0; i < 8; i++) srd[i] = 0;
  srd[0] = (uint32_t)(in->va >> 8);                  /* BASE_ADDRESS: 256-byte units */
  img_put(&srd[1], 0, 8, in->va >> 40);                  /* BASE_ADDRESS_HI */
  img_put(&srd[1], 12, 5, in->max_mip);                  /* MAX_MIP */
  img_put(&srd[1], 17, 8, u);                            /* FORMAT */
  img_put(&srd[1], 25, 5, in->base_level);               /* BASE_LEVEL */
  img_put(&srd[1], 30, 2, in->width - 1);                /* WIDTH[1:0] */
  img_put(&srd[2], 0, 14, (in->width - 1) >> 2);         /* WIDTH[15:2] */
  img_put(&srd[2], 14, 16, in->height - 1);              /* HEIGHT */
  for (int c = 0; c < 4; c++) img_put(&srd[3], 3u * c, 3, f->sel[c]); /* DST_SEL_X..W */
  img_put(&srd[3], 15, 5, in->last_level);               /* LAST_LEVEL */
  img_put(&srd[3], 20, 5, in->swizzle_mode);             /* SW_MODE */
  img_put(&srd[3], 25, 3, img_bc_swizzle(f->sel));       /* BC_SWIZZLE */
  img_put(&srd[3], 28, 4, img_rsrc_type(in->geometry));  /* TYPE */
  /* a mip chain's levels each have the hardware's pitch (as on gfx11): no PITCH then */
  if (img_pitch_in_srd_gfx11(in->geometry) && !in->max_mip) {
    img_put(&srd[4], 0, 14, in->pitch - 1);              /* PITCH - 1 in DEPTH ... */
    img_put(&srd[4], 14, 2, (in->pitch - 1) >> 14);      /* ... and PITCH_MSB */
  } else {
    img_put(&srd[4], 0, 14, in->depth - 1);              /* DEPTH: depth or last layer */
  }
}

hsa_status_t img_layout_gfx12(const hsa_ext_image_descriptor_t *d, const struct img_format *f,
                              size_t row_pitch, size_t slice_pitch, struct img_layout *out) {
  if (img_pitch_in_srd_gfx11(d->geometry) || d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DB)
    return img_layout_linear(d, f, row_pitch, slice_pitch, out);
  /* 3D and arrays: the hardware's rows only (the T# has no pitch): addrlib's gfx12 LINEAR
   * layout of one level (128-byte rows; a layer or slice of rows rounded up to 256 bytes) */
  struct img_layout l;
  img_layout_mips_gfx12(d, f, 1, &l);
  if (row_pitch && row_pitch != l.row_pitch) return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED;
  if (slice_pitch && slice_pitch != l.slice_pitch) return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED;
  *out = l;   /* alignment 256: the T#'s address is in 256-byte units */
  return HSA_STATUS_SUCCESS;
}

bool img_sampler_gfx12(const struct img_sampler_in *in, uint32_t srd[4]) {
  if (!img_sampler_gfx9(in, srd)) return false;   /* word0, filters: gfx9's positions */
  srd[1] = 0;
  img_put(&srd[1], 0, 13, 0);                            /* MIN_LOD */
  img_put(&srd[1], 13, 13, 17u << 8);                    /* MAX_LOD: 17.0, the largest Mesa writes */
  return true;
}
