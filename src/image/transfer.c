/* SPDX-License-Identifier: MIT */
/* transfer.c — hsa_ext_image_import, _export, _copy and _clear on the host: the bytes an
 * operation touches (from its first texel to its last, in the image's linear layout; a tiled
 * image's whole surface) are brought to a host buffer with hsa_memory_copy (which reaches VRAM
 * through the copy engine and host memory directly), changed there and written back. A tiled
 * image's texels are found through gfx9's or gfx12's swizzle equations (tile_gfx9.c,
 * tile_gfx12.c), texel by texel. Clear converts its value to the
 * image's format as the hardware's format conversion does for stores (round to nearest,
 * saturate; sRGB encoded). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "image/internal.h"

struct box { uint32_t x, y, z, w, h, d; };

/* The region as a box inside the image (range 0 in y or z counts as 1); false when outside. */
static bool region_box(const struct img_image *im, const hsa_dim3_t *off, const hsa_dim3_t *range,
                       struct box *b) {
  b->x = off->x;
  b->y = off->y;
  b->z = off->z;
  b->w = range->x;
  b->h = range->y ? range->y : 1;
  b->d = range->z ? range->z : 1;
  return (uint64_t)b->x + b->w <= im->ext.w && (uint64_t)b->y + b->h <= im->ext.h &&
         (uint64_t)b->z + b->d <= im->ext.d;
}

static size_t offset_of(const struct img_image *im, uint32_t x, uint32_t y, uint32_t z) {
  if (im->tile.block_log2 && im->desc.geometry == HSA_EXT_IMAGE_GEOMETRY_1DA)
    return img_tile_offset(&im->tile, x, 0, y);   /* the layer is the surface's slice */
  if (im->tile.block_log2) return img_tile_offset(&im->tile, x, y, z);
  return (size_t)z * im->slice_pitch + (size_t)y * im->row_pitch + (size_t)x * im->fmt.elem_size;
}

/* Texels of a row that lie one after the other from (x, y, z): the whole run when linear, one
 * when tiled. */
static uint32_t run_of(const struct img_image *im, uint32_t w) {
  return im->tile.block_log2 ? 1 : w;
}

/* The image bytes a box spans: [start, start + len); offsets into the span are offset_of's
 * minus `start`. */
static void span_of(const struct img_image *im, const struct box *b, size_t *start, size_t *len) {
  if (im->tile.block_log2) {
    *start = 0;
    *len = im->size;
    return;
  }
  *start = offset_of(im, b->x, b->y, b->z);
  *len = offset_of(im, b->x + b->w, b->y + b->h - 1, b->z + b->d - 1) - *start;
}

/* The span's bytes on the host (read from the image), or NULL. */
static uint8_t *fetch(const struct img_image *im, size_t start, size_t len, hsa_status_t *st) {
  uint8_t *buf = malloc(len ? len : 1);
  if (!buf) {
    *st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    return NULL;
  }
  *st = hsa_memory_copy(buf, im->data + start, len);
  if (*st != HSA_STATUS_SUCCESS) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* Moves texel rows between the host copy of an image span and linear memory with pitches. */
static void move_rows(const struct img_image *im, const struct box *b, uint8_t *span,
                      uint8_t *mem, size_t row_pitch, size_t slice_pitch, bool to_image) {
  /* A 1DA image's layers (the box's y) are slices of the linear memory. */
  if (im->desc.geometry == HSA_EXT_IMAGE_GEOMETRY_1DA) row_pitch = slice_pitch;
  uint32_t run = run_of(im, b->w);
  size_t bytes = (size_t)run * im->fmt.elem_size;
  size_t start, len;
  span_of(im, b, &start, &len);
  for (uint32_t z = 0; z < b->d; z++)
    for (uint32_t y = 0; y < b->h; y++)
      for (uint32_t x = 0; x < b->w; x += run) {
        uint8_t *img = span + offset_of(im, b->x + x, b->y + y, b->z + z) - start;
        uint8_t *lin = mem + (size_t)z * slice_pitch + (size_t)y * row_pitch +
                       (size_t)x * im->fmt.elem_size;
        if (to_image) memcpy(img, lin, bytes);
        else memcpy(lin, img, bytes);
      }
}

static hsa_status_t check(hsa_agent_t agent, uint64_t handle, struct img_image **im) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!core_agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  *im = img_image_from_handle(handle);
  if (!*im) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* The host copies know the linear layout and gfx9's and gfx12's tiled modes only. */
  return (*im)->tiled ? HSA_STATUS_ERROR : HSA_STATUS_SUCCESS;
}

/* Between an image region and linear memory `mem` (pitches 0: packed). */
static hsa_status_t transfer(hsa_agent_t agent, uint64_t handle, void *mem, size_t row_pitch,
                             size_t slice_pitch, const hsa_ext_image_region_t *region,
                             bool to_image) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!mem || !region) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct img_image *im;
  hsa_status_t st = check(agent, handle, &im);
  if (st != HSA_STATUS_SUCCESS) return st;
  struct box b;
  if (!region_box(im, &region->offset, &region->range, &b)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (b.w == 0) return HSA_STATUS_SUCCESS;
  /* Pitches smaller than the region's rows and slices mean those (the HSA rule). */
  size_t row = (size_t)b.w * im->fmt.elem_size;
  if (row_pitch > row) row = row_pitch;
  /* A 1DA image's layers are the region's y and follow each other at the slice pitch. */
  bool layers_in_y = im->desc.geometry == HSA_EXT_IMAGE_GEOMETRY_1DA;
  size_t rows = layers_in_y ? 1 : b.h;
  size_t slice = row * rows;
  if (slice_pitch > slice) slice = slice_pitch;
  size_t mem_len = layers_in_y
                       ? (size_t)(b.h - 1) * slice + (size_t)b.w * im->fmt.elem_size
                       : (size_t)(b.d - 1) * slice + (size_t)(b.h - 1) * row +
                             (size_t)b.w * im->fmt.elem_size;
  size_t start, len;
  span_of(im, &b, &start, &len);
  uint8_t *span = fetch(im, start, len, &st);
  if (!span) return st;
  uint8_t *lin = malloc(mem_len);
  if (!lin) {
    free(span);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  if (to_image) {
    st = hsa_memory_copy(lin, mem, mem_len);
    if (st == HSA_STATUS_SUCCESS) {
      move_rows(im, &b, span, lin, row, slice, true);
      st = hsa_memory_copy(im->data + start, span, len);
    }
  } else {
    /* the gaps between rows in `mem` keep their bytes */
    st = hsa_memory_copy(lin, mem, mem_len);
    if (st == HSA_STATUS_SUCCESS) {
      move_rows(im, &b, span, lin, row, slice, false);
      st = hsa_memory_copy(mem, lin, mem_len);
    }
  }
  free(lin);
  free(span);
  return st;
}

hsa_status_t hsa_ext_image_import(hsa_agent_t agent, const void *src_memory, size_t src_row_pitch,
                                  size_t src_slice_pitch, hsa_ext_image_t dst_image,
                                  const hsa_ext_image_region_t *image_region) {
  return transfer(agent, dst_image.handle, (void *)(uintptr_t)src_memory, src_row_pitch,
                  src_slice_pitch, image_region, true);
}

hsa_status_t hsa_ext_image_export(hsa_agent_t agent, hsa_ext_image_t src_image, void *dst_memory,
                                  size_t dst_row_pitch, size_t dst_slice_pitch,
                                  const hsa_ext_image_region_t *image_region) {
  return transfer(agent, src_image.handle, dst_memory, dst_row_pitch, dst_slice_pitch,
                  image_region, false);
}

hsa_status_t hsa_ext_image_copy(hsa_agent_t agent, hsa_ext_image_t src_image,
                                const hsa_dim3_t *src_offset, hsa_ext_image_t dst_image,
                                const hsa_dim3_t *dst_offset, const hsa_dim3_t *range) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!src_offset || !dst_offset || !range) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct img_image *src, *dst;
  hsa_status_t st = check(agent, src_image.handle, &src);
  if (st != HSA_STATUS_SUCCESS) return st;
  if ((st = check(agent, dst_image.handle, &dst)) != HSA_STATUS_SUCCESS) return st;
  /* Texels move as they are: both formats must store the same bytes per texel. */
  if (src->fmt.elem_size != dst->fmt.elem_size) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct box sb, db;
  if (!region_box(src, src_offset, range, &sb) || !region_box(dst, dst_offset, range, &db))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (sb.w == 0) return HSA_STATUS_SUCCESS;
  size_t s_start, s_len, d_start, d_len;
  span_of(src, &sb, &s_start, &s_len);
  span_of(dst, &db, &d_start, &d_len);
  uint8_t *s = fetch(src, s_start, s_len, &st);
  if (!s) return st;
  uint8_t *d = fetch(dst, d_start, d_len, &st);
  if (!d) {
    free(s);
    return st;
  }
  uint32_t run = run_of(src, sb.w) < run_of(dst, sb.w) ? run_of(src, sb.w) : run_of(dst, sb.w);
  size_t bytes = (size_t)run * src->fmt.elem_size;
  for (uint32_t z = 0; z < sb.d; z++)
    for (uint32_t y = 0; y < sb.h; y++)
      for (uint32_t x = 0; x < sb.w; x += run)
        memcpy(d + offset_of(dst, db.x + x, db.y + y, db.z + z) - d_start,
               s + offset_of(src, sb.x + x, sb.y + y, sb.z + z) - s_start, bytes);
  st = hsa_memory_copy(dst->data + d_start, d, d_len);
  free(d);
  free(s);
  return st;
}

/* ---- clear: one texel of the image's format from four components ---- */

static uint16_t to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
  if (exp == 0xff) return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0)); /* inf, NaN */
  int e = (int)exp - 127 + 15;
  if (e >= 31) return (uint16_t)(sign | 0x7c00u);                        /* overflow: inf */
  if (e <= 0) {                                                           /* subnormal or 0 */
    if (e < -10) return (uint16_t)sign;
    man |= 0x800000u;
    unsigned shift = (unsigned)(14 - e);
    uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++;                  /* may carry into exp */
  return (uint16_t)(sign | h);
}

static uint32_t unorm(float v, unsigned bits) {
  float max = (float)((1u << bits) - 1);
  if (!(v > 0.0f)) return 0;  /* NaN too */
  if (v >= 1.0f) return (uint32_t)max;
  return (uint32_t)lrintf(v * max);
}

static uint32_t snorm(float v, unsigned bits) {
  float max = (float)((1u << (bits - 1)) - 1);
  if (v != v) v = 0.0f;
  if (v < -1.0f) v = -1.0f;
  if (v > 1.0f) v = 1.0f;
  return (uint32_t)(int32_t)lrintf(v * max) & ((bits == 32) ? 0xffffffffu : ((1u << bits) - 1));
}

static float srgb_encode(float c) {
  if (!(c > 0.0f)) return 0.0f;
  if (c >= 1.0f) return 1.0f;
  return c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

static uint32_t sat_int(int64_t v, int64_t lo, int64_t hi) {
  return (uint32_t)(v < lo ? lo : v > hi ? hi : v);
}

/* The value `c` (0..3 = R, G, B, A of the clear data) of stored component i, for each order. */
static int source_component(uint32_t order, unsigned i) {
  switch (order) {
  case HSA_EXT_IMAGE_CHANNEL_ORDER_A: return 3;
  case HSA_EXT_IMAGE_CHANNEL_ORDER_RA: return i == 0 ? 0 : 3;
  case HSA_EXT_IMAGE_CHANNEL_ORDER_BGRA: { static const int m[4] = {2, 1, 0, 3}; return m[i]; }
  case HSA_EXT_IMAGE_CHANNEL_ORDER_ARGB: { static const int m[4] = {3, 0, 1, 2}; return m[i]; }
  default: return (int)i; /* R, RG, RGBA, sRGBA, intensity, luminance, depth */
  }
}

static void encode_texel(const struct img_format *f, const hsa_ext_image_format_t *fmt,
                         const void *data, uint8_t *out) {
  const float *fv = data;
  const int32_t *iv = data;
  const uint32_t *uv = data;
  uint32_t t = fmt->channel_type;
  if (fmt->channel_order == HSA_EXT_IMAGE_CHANNEL_ORDER_RGB) {
    uint32_t r, g, b, v;
    if (t == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_565) {
      r = unorm(fv[0], 5), g = unorm(fv[1], 6), b = unorm(fv[2], 5);
      v = r << 11 | g << 5 | b;
    } else if (t == HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_SHORT_555) {
      r = unorm(fv[0], 5), g = unorm(fv[1], 5), b = unorm(fv[2], 5);
      v = r << 10 | g << 5 | b;
    } else {
      r = unorm(fv[0], 10), g = unorm(fv[1], 10), b = unorm(fv[2], 10);
      v = r << 20 | g << 10 | b;
    }
    memcpy(out, &v, f->elem_size);
    return;
  }
  for (unsigned i = 0; i < f->channels; i++) {
    int c = source_component(fmt->channel_order, i);
    uint32_t v = 0;
    float x = fv[c];
    if (fmt->channel_order == HSA_EXT_IMAGE_CHANNEL_ORDER_SRGBA && c < 3) x = srgb_encode(x);
    switch (t) {
    case HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT8: v = snorm(x, 8); break;
    case HSA_EXT_IMAGE_CHANNEL_TYPE_SNORM_INT16: v = snorm(x, 16); break;
    case HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8: v = unorm(x, 8); break;
    case HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16: v = unorm(x, 16); break;
    case HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT8: v = sat_int(iv[c], INT8_MIN, INT8_MAX); break;
    case HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT16: v = sat_int(iv[c], INT16_MIN, INT16_MAX); break;
    case HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32: v = (uint32_t)iv[c]; break;
    case HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8: v = uv[c] > UINT8_MAX ? UINT8_MAX : uv[c]; break;
    case HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT16: v = uv[c] > UINT16_MAX ? UINT16_MAX : uv[c]; break;
    case HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT32: v = uv[c]; break;
    case HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT: v = to_half(x); break;
    default: memcpy(&v, &x, 4); break; /* FLOAT */
    }
    unsigned bytes = f->bits / 8;
    memcpy(out + i * bytes, &v, bytes); /* little-endian */
  }
}

hsa_status_t hsa_ext_image_clear(hsa_agent_t agent, hsa_ext_image_t image, const void *data,
                                 const hsa_ext_image_region_t *image_region) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!data || !image_region) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct img_image *im;
  hsa_status_t st = check(agent, image.handle, &im);
  if (st != HSA_STATUS_SUCCESS) return st;
  struct box b;
  if (!region_box(im, &image_region->offset, &image_region->range, &b))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (b.w == 0) return HSA_STATUS_SUCCESS;
  uint8_t texel[16];
  encode_texel(&im->fmt, &im->desc.format, data, texel);
  size_t start, len;
  span_of(im, &b, &start, &len);
  uint8_t *span = fetch(im, start, len, &st);
  if (!span) return st;
  uint32_t run = run_of(im, b.w);
  for (uint32_t z = 0; z < b.d; z++)
    for (uint32_t y = 0; y < b.h; y++)
      for (uint32_t x = 0; x < b.w; x += run) {
        uint8_t *p = span + offset_of(im, b.x + x, b.y + y, b.z + z) - start;
        for (uint32_t i = 0; i < run; i++)
          memcpy(p + (size_t)i * im->fmt.elem_size, texel, im->fmt.elem_size);
      }
  st = hsa_memory_copy(im->data + start, span, len);
  free(span);
  return st;
}
