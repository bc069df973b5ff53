/* SPDX-License-Identifier: MIT */
/* srd_gfx11.c — the gfx11 (RDNA3) resource descriptors of an image, from the RDNA3 ISA's
 * "Image Resource" and "Buffer Resource" tables, and the sampler descriptor from its "Image
 * Sampler" table. gfx10+ names a texel format by one unified FORMAT number (the tables'
 * enumeration: each data format with its number formats in turn, then the image-only sRGB
 * and packed 16-bit ones) instead of gfx9's DATA_FORMAT/NUM_FORMAT pair. Bit positions are
 * the documents' (lsb, width). */
#include "image/internal.h"


/* (ROCR's gfx11 image manager writes the same fields: its FORMAT table, BC_SWIZZLE, PITCH of
 * 1D/2D only, the S# of gfx9's fields.) */

/* The unified FORMAT of a gfx9 (DATA_FORMAT, NUM_FORMAT) pair, 0 if it has none. Formats
 * 1..63 enumerate data formats 1..14 in order, each with the number formats it comes in
 * (0 UNORM, 1 SNORM, 2 USCALED, 3 SSCALED, 4 UINT, 5 SINT, 7 FLOAT). */
uint32_t img_unified_format(unsigned df, unsigned nf) {
  static const char *const nfs[15] = {"", "012345", "0123457", "012345", "457", "0123457", "7",
                                      "7", "0145", "012345", "012345", "457", "0123457", "457",
                                      "457"};
  if (nf == IMG_NUM_SRGB) {
    switch (df) {
    case IMG_DF_8: return 64;
    case IMG_DF_8_8: return 65;
    case IMG_DF_8_8_8_8: return 66;
    default: return 0;
    }
  }
  if (df == IMG_DF_5_6_5 && nf == IMG_NUM_UNORM) return 68;
  if (df == IMG_DF_1_5_5_5 && nf == IMG_NUM_UNORM) return 69;
  uint32_t u = 1;
  for (unsigned d = 1; d < 15; d++)
    for (const char *p = nfs[d]; *p; p++, u++)
      if (d == df && (unsigned)(*p - '0') == nf) return u;
  return 0;
}

bool img_pitch_in_srd_gfx11(hsa_ext_image_geometry_t g) {
  return g == HSA_EXT_IMAGE_GEOMETRY_1D || g == HSA_EXT_IMAGE_GEOMETRY_2D ||
         g == HSA_EXT_IMAGE_GEOMETRY_2DDEPTH;
}

void img_srd_gfx11(const struct img_srd_in *in, uint32_t srd[8]) {
  const struct img_format *f = in->fmt;
  uint32_t u = img_unified_format(f->data_format, f->num_format);
  for (int i = 0; i < 8; i++) srd[i] = 0;
  if (in->geometry == HSA_EXT_IMAGE_GEOMETRY_1DB) {
    /* V#: byte address, STRIDE = texel size, NUM_RECORDS in records, FORMAT 6 bits */
    srd[0] = (uint32_t)in->va;
    img_put(&srd[1], 0, 16, in->va >> 32);               /* BASE_ADDRESS_HI */
    img_put(&srd[1], 16, 14, f->elem_size);              /* STRIDE */
    srd[2] = in->width;                              /* NUM_RECORDS */
    for (int c = 0; c < 4; c++) img_put(&srd[3], 3u * c, 3, f->sel[c]);
    img_put(&srd[3], 12, 6, u);                          /* FORMAT */
    return;   /* OOB_SELECT 0 (structured: index < NUM_RECORDS), TYPE (31:30) 0: buffer */
  }
  srd[0] = (uint32_t)(in->va >> 8);                  /* BASE_ADDRESS: 256-byte units */
  img_put(&srd[1], 0, 8, in->va >> 40);                  /* BASE_ADDRESS_HI */
  img_put(&srd[1], 20, 8, u);                            /* FORMAT */
  img_put(&srd[1], 30, 2, in->width - 1);                /* WIDTH[1:0] */
  img_put(&srd[2], 0, 12, (in->width - 1) >> 2);         /* WIDTH[13:2] */
  img_put(&srd[2], 14, 14, in->height - 1);              /* HEIGHT */
  for (int c = 0; c < 4; c++) img_put(&srd[3], 3u * c, 3, f->sel[c]); /* DST_SEL_X..W */
  img_put(&srd[1], 16, 4, in->max_mip);                  /* MAX_MIP */
  img_put(&srd[3], 12, 4, in->base_level);               /* BASE_LEVEL */
  img_put(&srd[3], 16, 4, in->last_level);               /* LAST_LEVEL */
  img_put(&srd[3], 20, 5, in->swizzle_mode);             /* SW_MODE */
  img_put(&srd[3], 25, 3, img_bc_swizzle(f->sel));       /* BC_SWIZZLE */
  img_put(&srd[3], 28, 4, img_rsrc_type(in->geometry));      /* TYPE */
  /* A mip chain's levels each have the hardware's pitch (as Mesa, which writes a custom pitch
   * for one-level linear images only): DEPTH then holds depth - 1 (0 for 1D/2D). */
  if (img_pitch_in_srd_gfx11(in->geometry) && !in->max_mip)
    img_put(&srd[4], 0, 14, in->pitch - 1);              /* gfx10.3+: PITCH - 1 of 1D/2D */
  else
    img_put(&srd[4], 0, 13, in->depth - 1);              /* DEPTH: depth or last layer */
}

/* gfx11's S#: the fields used here sit where gfx9 has them (word 2's low bits are the border
 * colour pointer there, no LOD bias is written on either). */
bool img_sampler_gfx11(const struct img_sampler_in *in, uint32_t srd[4]) {
  return img_sampler_gfx9(in, srd);
}
