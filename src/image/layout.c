/* SPDX-License-Identifier: MIT */
/* layout.c — an image's extent, its linear layout (rows of texels padded to 256 bytes, as the
 * hardware's linear swizzle mode and ROCR's addrlib lay them out), the agent's size limits,
 * and the descriptor checks every entry point makes, in ROCR 5.2.3's order. */
#include "image/internal.h"
#include "hsa_ext_amd.h"

#define ROW_ALIGN 256u

static size_t at_least_1(size_t v) { return v ? v : 1; }

struct img_extent img_extent_of(const hsa_ext_image_descriptor_t *d) {
  struct img_extent e = {(uint32_t)at_least_1(d->width), 1, 1};
  switch (d->geometry) {
  case HSA_EXT_IMAGE_GEOMETRY_2D:
  case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH:
    e.h = (uint32_t)at_least_1(d->height);
    break;
  case HSA_EXT_IMAGE_GEOMETRY_3D:
    e.h = (uint32_t)at_least_1(d->height);
    e.d = (uint32_t)at_least_1(d->depth);
    break;
  case HSA_EXT_IMAGE_GEOMETRY_1DA:
    e.h = (uint32_t)at_least_1(d->array_size);
    break;
  case HSA_EXT_IMAGE_GEOMETRY_2DA:
  case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH:
    e.h = (uint32_t)at_least_1(d->height);
    e.d = (uint32_t)at_least_1(d->array_size);
    break;
  default:
    break;
  }
  return e;
}

hsa_status_t img_layout_linear(const hsa_ext_image_descriptor_t *d, const struct img_format *f,
                               size_t row_pitch, size_t slice_pitch, struct img_layout *out) {
  struct img_extent e = img_extent_of(d);
  size_t min_row = ((size_t)e.w * f->elem_size + ROW_ALIGN - 1) / ROW_ALIGN * ROW_ALIGN;
  size_t row = min_row;
  if (row_pitch) {
    /* A row pitch the hardware can describe: whole 256-byte units, at least one row.
     * (ROCR 5.2.3 aborts in an addrlib assertion on any other; we refuse it.) */
    if (row_pitch < min_row || row_pitch % ROW_ALIGN) return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED;
    row = row_pitch;
  }
  /* (A 1DB image's slice pitch is not checked, as ROCR does not.) 1DA layers are rows; 2DA layers and 3D slices are planes of `rows` rows. */
  size_t rows = d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? 1 : e.h;
  size_t slice = row * rows;
  if (slice_pitch && d->geometry != HSA_EXT_IMAGE_GEOMETRY_1DB && slice_pitch != slice)
    return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED;
  size_t slices = d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? e.h : e.d;
  out->row_pitch = row;
  out->slice_pitch = d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? row : slice;
  out->size = slice * slices;
  out->alignment = ROW_ALIGN;
  return HSA_STATUS_SUCCESS;
}

unsigned img_max_levels(const hsa_ext_image_descriptor_t *d) {
  struct img_extent e = img_extent_of(d);
  uint32_t m = e.w;
  if (d->geometry == HSA_EXT_IMAGE_GEOMETRY_2D || d->geometry == HSA_EXT_IMAGE_GEOMETRY_2DDEPTH ||
      d->geometry == HSA_EXT_IMAGE_GEOMETRY_2DA || d->geometry == HSA_EXT_IMAGE_GEOMETRY_2DADEPTH ||
      d->geometry == HSA_EXT_IMAGE_GEOMETRY_3D)
    m = e.h > m ? e.h : m;
  if (d->geometry == HSA_EXT_IMAGE_GEOMETRY_3D) m = e.d > m ? e.d : m;
  unsigned n = 1;
  while (m >>= 1) n++;
  return n;
}

/* Rows level i takes in the chain: ceil(rows0 / 2^i) (addrlib halves rounding up). */
static size_t level_rows(size_t rows0, unsigned i) { return (rows0 + ((size_t)1 << i) - 1) >> i; }

static bool is_1d_kind(hsa_ext_image_geometry_t g) {
  return g == HSA_EXT_IMAGE_GEOMETRY_1D || g == HSA_EXT_IMAGE_GEOMETRY_1DA ||
         g == HSA_EXT_IMAGE_GEOMETRY_1DB;
}

void img_layout_mips(const hsa_ext_image_descriptor_t *d, const struct img_format *f,
                     unsigned levels, struct img_layout *out) {
  img_layout_linear(d, f, 0, 0, out);
  if (levels <= 1) return;
  struct img_extent e = img_extent_of(d);
  size_t rows0 = is_1d_kind(d->geometry) ? 1 : e.h, rows = 0;
  for (unsigned i = 0; i < levels; i++) rows += level_rows(rows0, i);
  size_t slices = d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? e.h : e.d;
  out->slice_pitch = out->row_pitch * rows;
  out->size = out->slice_pitch * slices;
}

size_t img_level_offset(const hsa_ext_image_descriptor_t *d, size_t row_pitch, unsigned level) {
  struct img_extent e = img_extent_of(d);
  size_t rows0 = is_1d_kind(d->geometry) ? 1 : e.h, rows = 0;
  for (unsigned i = 0; i < level; i++) rows += level_rows(rows0, i);
  return rows * row_pitch;
}

/* gfx10+ (gfx11): level i is ceil(W / 2^i) texels rounded up to 256-byte rows at its own
 * pitch, ceil(rows0 / 2^i) rows, the smallest level first (Gfx11Lib::
 * HwlComputeSurfaceInfoLinear). */
size_t img_level_pitch_gfx11(const hsa_ext_image_descriptor_t *d, const struct img_format *f,
                             unsigned level) {
  struct img_extent e = img_extent_of(d);
  size_t w = level_rows(e.w, level);
  return (w * f->elem_size + ROW_ALIGN - 1) / ROW_ALIGN * ROW_ALIGN;
}

static size_t level_bytes_gfx11(const hsa_ext_image_descriptor_t *d, const struct img_format *f,
                                unsigned i) {
  struct img_extent e = img_extent_of(d);
  size_t rows0 = is_1d_kind(d->geometry) ? 1 : e.h;
  return img_level_pitch_gfx11(d, f, i) * level_rows(rows0, i);
}

size_t img_level_offset_gfx11(const hsa_ext_image_descriptor_t *d, const struct img_format *f,
                              unsigned levels, unsigned level) {
  size_t off = 0;
  for (unsigned i = levels; i-- > level + 1;) off += level_bytes_gfx11(d, f, i);
  return off;
}

void img_layout_mips_gfx11(const hsa_ext_image_descriptor_t *d, const struct img_format *f,
                           unsigned levels, struct img_layout *out) {
  img_layout_linear(d, f, 0, 0, out);
  if (levels <= 1) return;
  struct img_extent e = img_extent_of(d);
  size_t chain = img_level_offset_gfx11(d, f, levels, 0) + level_bytes_gfx11(d, f, 0);
  size_t slices = d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? e.h : e.d;
  out->slice_pitch = chain;
  out->size = chain * slices;
}

size_t img_level_pitch_gfx12(const hsa_ext_image_descriptor_t *d, const struct img_format *f,
                             unsigned level) {
  struct img_extent e = img_extent_of(d);
  size_t w = level_rows(e.w, level);
  return (w * f->elem_size + 127) / 128 * 128;
}

void img_layout_mips_gfx12(const hsa_ext_image_descriptor_t *d, const struct img_format *f,
                           unsigned levels, struct img_layout *out) {
  struct img_extent e = img_extent_of(d);
  bool a1 = d->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA;
  size_t slices = a1 ? e.h : e.d;
  size_t rows0 = is_1d_kind(d->geometry) ? 1 : e.h;
  bool trim = d->geometry != HSA_EXT_IMAGE_GEOMETRY_3D && slices <= 1;
  if (levels == 0) levels = 1;
  size_t chain = img_level_offset_gfx11(d, f, levels, 0) +
                 (trim ? img_level_pitch_gfx12(d, f, 0) : img_level_pitch_gfx11(d, f, 0)) * rows0;
  out->row_pitch = img_level_pitch_gfx12(d, f, 0);
  out->slice_pitch = chain;
  out->size = chain * slices;
  out->alignment = ROW_ALIGN;
}

void img_limits_of(const struct core_agent *a, struct img_limits *out) {
  (void)a;
  /* gfx9 to gfx12 descriptors: 14-bit width/height minus one, 13-bit depth/layers minus one;
   * 1DB images are buffer descriptors with a 32-bit record count. */
  out->dim1d = 16384;
  out->dim2d = 16384;
  out->dim3d_depth = 8192;
  out->layers = 8192;
  out->buffer = UINT32_MAX;
}

hsa_status_t img_check_descriptor(const struct core_agent *a, const hsa_ext_image_descriptor_t *d,
                                  struct img_format *f) {
  if (!d) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if ((unsigned)d->geometry > HSA_EXT_IMAGE_GEOMETRY_2DADEPTH) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!img_agent_has_images(a) || !img_format_lookup(d->geometry, &d->format, f))
    return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED;
  struct img_limits l;
  img_limits_of(a, &l);
  /* Each dimension against the geometry's limit; a dimension the geometry does not use may
   * be 0 or 1 (as ROCR: e.g. a 1D image of height 1), no more. */
  uint64_t w = l.dim2d, h = 1, dep = 1, layers = 1;
  switch (d->geometry) {
  case HSA_EXT_IMAGE_GEOMETRY_1D:
    w = l.dim1d;
    break;
  case HSA_EXT_IMAGE_GEOMETRY_1DA:
    w = l.dim1d;
    layers = l.layers;
    break;
  case HSA_EXT_IMAGE_GEOMETRY_1DB:
    w = l.buffer;
    break;
  case HSA_EXT_IMAGE_GEOMETRY_2D:
  case HSA_EXT_IMAGE_GEOMETRY_2DDEPTH:
    h = l.dim2d;
    break;
  case HSA_EXT_IMAGE_GEOMETRY_2DA:
  case HSA_EXT_IMAGE_GEOMETRY_2DADEPTH:
    h = l.dim2d;
    layers = l.layers;
    break;
  case HSA_EXT_IMAGE_GEOMETRY_3D:
    h = l.dim2d;
    dep = l.dim3d_depth;
    break;
  }
  bool ok = d->width <= w && d->height <= h && d->depth <= dep && d->array_size <= layers;
  return ok ? HSA_STATUS_SUCCESS : (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED;
}
