/* SPDX-License-Identifier: MIT */
/* format.c — which (geometry, channel order, channel type) an agent's image hardware supports,
 * with the access it allows, and how each is stored: texel size, the descriptor's data and
 * number formats and destination selects. The set is what ROCR 5.2.3 reports on gfx9
 * (image_vs_rocr.sh compares every combination). */
#include <stdint.h>

#include "image/internal.h"

#define T(x) HSA_EXT_IMAGE_CHANNEL_TYPE_##x
#define O(x) HSA_EXT_IMAGE_CHANNEL_ORDER_##x
#define RO HSA_EXT_IMAGE_CAPABILITY_READ_ONLY
#define WO HSA_EXT_IMAGE_CAPABILITY_WRITE_ONLY
#define RW HSA_EXT_IMAGE_CAPABILITY_READ_WRITE

bool img_agent_has_images(const struct core_agent *a) {
  return core_agent_has_images(a);
}

/* Component size and number format of the plain (unpacked) channel types. */
static bool plain_type(uint32_t t, uint8_t *bits, uint8_t *num) {
  switch (t) {
  case T(SNORM_INT8): *bits = 8; *num = IMG_NUM_SNORM; return true;
  case T(SNORM_INT16): *bits = 16; *num = IMG_NUM_SNORM; return true;
  case T(UNORM_INT8): *bits = 8; *num = IMG_NUM_UNORM; return true;
  case T(UNORM_INT16): *bits = 16; *num = IMG_NUM_UNORM; return true;
  case T(SIGNED_INT8): *bits = 8; *num = IMG_NUM_SINT; return true;
  case T(SIGNED_INT16): *bits = 16; *num = IMG_NUM_SINT; return true;
  case T(SIGNED_INT32): *bits = 32; *num = IMG_NUM_SINT; return true;
  case T(UNSIGNED_INT8): *bits = 8; *num = IMG_NUM_UINT; return true;
  case T(UNSIGNED_INT16): *bits = 16; *num = IMG_NUM_UINT; return true;
  case T(UNSIGNED_INT32): *bits = 32; *num = IMG_NUM_UINT; return true;
  case T(HALF_FLOAT): *bits = 16; *num = IMG_NUM_FLOAT; return true;
  case T(FLOAT): *bits = 32; *num = IMG_NUM_FLOAT; return true;
  default: return false;
  }
}

static uint8_t data_format(unsigned channels, unsigned bits) {
  static const uint8_t df[3][3] = {
      {IMG_DF_8, IMG_DF_16, IMG_DF_32},
      {IMG_DF_8_8, IMG_DF_16_16, IMG_DF_32_32},
      {IMG_DF_8_8_8_8, IMG_DF_16_16_16_16, IMG_DF_32_32_32_32},
  };
  unsigned row = channels == 1 ? 0 : channels == 2 ? 1 : 2;
  unsigned col = bits == 8 ? 0 : bits == 16 ? 1 : 2;
  return df[row][col];
}

static void sel(struct img_format *f, uint8_t x, uint8_t y, uint8_t z, uint8_t w) {
  f->sel[0] = x;
  f->sel[1] = y;
  f->sel[2] = z;
  f->sel[3] = w;
}

enum { X = IMG_SEL_X, Y = IMG_SEL_Y, Z = IMG_SEL_Z, W = IMG_SEL_W, S0 = IMG_SEL_0, S1 = IMG_SEL_1 };

bool img_format_lookup(hsa_ext_image_geometry_t geometry, const hsa_ext_image_format_t *format,
                       struct img_format *out) {
  if (!format || (unsigned)geometry > HSA_EXT_IMAGE_GEOMETRY_2DADEPTH) return false;
  uint32_t o = format->channel_order, t = format->channel_type;
  bool depth_geometry = geometry == HSA_EXT_IMAGE_GEOMETRY_2DDEPTH ||
                        geometry == HSA_EXT_IMAGE_GEOMETRY_2DADEPTH;
  bool buffer = geometry == HSA_EXT_IMAGE_GEOMETRY_1DB;
  if (depth_geometry && o != O(DEPTH)) return false;
  struct img_format f = {.caps = RO | WO | RW};
  uint8_t bits = 0, num = 0;
  bool plain = plain_type(t, &bits, &num);
  bool normalized_or_float = t == T(SNORM_INT8) || t == T(SNORM_INT16) || t == T(UNORM_INT8) ||
                             t == T(UNORM_INT16) || t == T(HALF_FLOAT) || t == T(FLOAT);
  bool byte_type = t == T(SNORM_INT8) || t == T(UNORM_INT8) || t == T(SIGNED_INT8) ||
                   t == T(UNSIGNED_INT8);
  switch (o) {
  case O(A): case O(R): case O(RG): case O(RA): case O(RGBA):
    if (!plain) return false;
    f.channels = o == O(RGBA) ? 4 : (o == O(RG) || o == O(RA)) ? 2 : 1;
    if (o == O(A)) sel(&f, S0, S0, S0, X);
    else if (o == O(R)) sel(&f, X, S0, S0, S1);
    else if (o == O(RG)) sel(&f, X, Y, S0, S1);
    else if (o == O(RA)) sel(&f, X, S0, S0, Y);
    else sel(&f, X, Y, Z, W);
    break;
  case O(BGRA): case O(ARGB):
    if (!plain || !byte_type) return false;
    f.channels = 4;
    if (o == O(BGRA)) sel(&f, Z, Y, X, W);   /* stored B, G, R, A */
    else sel(&f, Y, Z, W, X);                /* stored A, R, G, B */
    break;
  case O(SRGBA):
    if (t != T(UNORM_INT8) || buffer) return false;
    f.channels = 4;
    f.caps = RO;
    sel(&f, X, Y, Z, W);
    break;
  case O(INTENSITY): case O(LUMINANCE):
    if (!plain || !normalized_or_float) return false;
    f.channels = 1;
    if (o == O(INTENSITY)) sel(&f, X, X, X, X);
    else sel(&f, X, X, X, S1);
    break;
  case O(DEPTH):
    if (t != T(UNORM_INT16) && t != T(FLOAT)) return false;
    f.channels = 1;
    f.caps = RO | WO;
    sel(&f, X, S0, S0, S0);
    break;
  case O(RGB):
    /* Packed: red in the high bits, blue in the low ones; the hardware's formats put their
     * first component (x) in the low bits, hence the reversed selects. */
    f.channels = 3;
    f.num_format = IMG_NUM_UNORM;
    sel(&f, Z, Y, X, S1);
    if (t == T(UNORM_SHORT_101010)) {
      f.elem_size = 4;
      f.data_format = IMG_DF_2_10_10_10;
    } else if ((t == T(UNORM_SHORT_565) || t == T(UNORM_SHORT_555)) && !buffer) {
      /* a buffer descriptor's 4-bit data format cannot name the 16-bit packed formats */
      f.elem_size = 2;
      f.data_format = t == T(UNORM_SHORT_565) ? IMG_DF_5_6_5 : IMG_DF_1_5_5_5;
    } else {
      return false;
    }
    *out = f;
    return true;
  default:
    return false;
  }
  f.bits = bits;
  f.num_format = o == O(SRGBA) ? IMG_NUM_SRGB : num;
  f.elem_size = (uint8_t)(f.channels * bits / 8);
  f.data_format = data_format(f.channels, bits);
  *out = f;
  return true;
}
