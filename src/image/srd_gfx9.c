/* SPDX-License-Identifier: MIT */
/* srd_gfx9.c — the gfx9 (GCN5, CDNA) resource descriptors of an image, written from the Vega
 * ISA's "Image Resource" and "Buffer Resource" tables, and the sampler descriptor from its
 * "Image Sampler" table. Bit positions are the documents' (lsb, width). */
#include "image/internal.h"


/* SQ_RSRC_IMG_* (gfx11 has the same numbers) */
unsigned img_rsrc_type(hsa_ext_image_geometry_t g) {
  switch (g) {
  case HSA_EXT_IMAGE_GEOMETRY_1D: return 8;
  case HSA_EXT_IMAGE_GEOMETRY_3D: return 10;
  case HSA_EXT_IMAGE_GEOMETRY_1DA: return 12;
  case HSA_EXT_IMAGE_GEOMETRY_2DA:
  case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH: return 13;
  default: return 9; /* 2D, 2DDEPTH */
  }
}

/* The border colour swizzle (TEX_BC_SWIZZLE): where the border's alpha and red land, from the
 * destination selects: XYZW 0, XWYZ 1, WZYX 2, WXYZ 3, ZYXW 4, YXWZ 5. */
unsigned img_bc_swizzle(const uint8_t sel[4]) {
  if (sel[3] == IMG_SEL_X) {
    if (sel[2] == IMG_SEL_Y) return 2;
    if (sel[0] == IMG_SEL_X && sel[1] == IMG_SEL_X && sel[2] == IMG_SEL_X) return 0;
    return 3;
  }
  if (sel[0] == IMG_SEL_X) {
    if (sel[1] == IMG_SEL_Y || (sel[1] == IMG_SEL_X && sel[2] == IMG_SEL_X && sel[3] == IMG_SEL_W))
      return 0;
    return 1;
  }
  if (sel[1] == IMG_SEL_X) return 5;
  if (sel[2] == IMG_SEL_X) return 4;
  return 0;
}

void img_srd_gfx9(const struct img_srd_in *in, uint32_t srd[8]) {
  const struct img_format *f = in->fmt;
  for (int i = 0; i < 8; i++) srd[i] = 0;
  if (in->geometry == HSA_EXT_IMAGE_GEOMETRY_1DB) {
    /* V#: byte address, stride = texel size, num_records in records (stride != 0). */
    srd[0] = (uint32_t)in->va;
    img_put(&srd[1], 0, 16, in->va >> 32);
    img_put(&srd[1], 16, 14, f->elem_size);
    srd[2] = in->width;
    for (int c = 0; c < 4; c++) img_put(&srd[3], 3u * c, 3, f->sel[c]);
    img_put(&srd[3], 12, 3, f->num_format);
    img_put(&srd[3], 15, 4, f->data_format);
    /* TYPE (bits 31:30) 0: buffer */
    return;
  }
  srd[0] = (uint32_t)(in->va >> 8);                 /* BASE_ADDRESS: 256-byte units */
  img_put(&srd[1], 0, 8, in->va >> 40);                 /* BASE_ADDRESS_HI */
  img_put(&srd[1], 20, 6, f->data_format);              /* DATA_FORMAT */
  img_put(&srd[1], 26, 4, f->num_format);               /* NUM_FORMAT */
  img_put(&srd[2], 0, 14, in->width - 1);               /* WIDTH */
  img_put(&srd[2], 14, 14, in->height - 1);             /* HEIGHT */
  for (int c = 0; c < 4; c++) img_put(&srd[3], 3u * c, 3, f->sel[c]); /* DST_SEL_X..W */
  img_put(&srd[3], 12, 4, in->base_level);              /* BASE_LEVEL */
  img_put(&srd[3], 16, 4, in->last_level);              /* LAST_LEVEL */
  img_put(&srd[3], 20, 5, in->swizzle_mode);            /* SW_MODE */
  img_put(&srd[3], 28, 4, img_rsrc_type(in->geometry));     /* TYPE */
  img_put(&srd[4], 0, 13, in->depth - 1);               /* DEPTH: depth or layers, minus one */
  img_put(&srd[4], 13, 16, in->pitch - 1);              /* PITCH, texels minus one */
  img_put(&srd[4], 29, 3, img_bc_swizzle(f->sel));          /* BC_SWIZZLE */
  img_put(&srd[5], 28, 4, in->max_mip);                 /* MAX_MIP */
}

/* SQ_TEX_CLAMP for an HSA addressing mode; -1 for none. */
static int clamp_of(uint32_t mode) {
  switch (mode) {
  case HSA_EXT_SAMPLER_ADDRESSING_MODE_UNDEFINED:
  case HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT: return 0;         /* WRAP */
  case HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT: return 1; /* MIRROR */
  case HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE: return 2;   /* CLAMP_LAST_TEXEL */
  case HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER: return 6; /* CLAMP_BORDER */
  default: return -1;
  }
}

bool img_sampler_gfx9(const struct img_sampler_in *in, uint32_t srd[4]) {
  srd[0] = srd[1] = srd[2] = srd[3] = 0;
  for (int i = 0; i < 3; i++) {
    int c = clamp_of(in->address[i]);
    if (c < 0) return false;
    img_put(&srd[0], 3u * i, 3, (uint32_t)c);          /* CLAMP_X, _Y, _Z */
  }
  if (in->coordinate > HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED) return false;
  if (in->filter > HSA_EXT_SAMPLER_FILTER_MODE_LINEAR) return false;
  img_put(&srd[0], 15, 1, in->coordinate == HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED); /* FORCE_UNNORMALIZED */
  img_put(&srd[1], 12, 12, 4095);                       /* MAX_LOD */
  unsigned xy = in->filter == HSA_EXT_SAMPLER_FILTER_MODE_LINEAR ? 1 : 0; /* BILINEAR : POINT */
  img_put(&srd[2], 20, 2, xy);                          /* XY_MAG_FILTER */
  img_put(&srd[2], 22, 2, xy);                          /* XY_MIN_FILTER */
  /* Z_FILTER, MIP_FILTER none; BORDER_COLOR_TYPE (31:30) 0, transparent black */
  return true;
}
