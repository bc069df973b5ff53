/* SPDX-License-Identifier: MIT */
/* api.c — the images extension's queries and object functions: capabilities, data sizes,
 * image create/destroy (plain, with a layout, AMD's with a descriptor template, v2), samplers,
 * and hsa_amd_image_get_info_max_dim. Statuses as ROCR 5.2.3's where it returns one (where it
 * aborts or crashes, the documented error). */
#include <string.h>

#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "image/internal.h"
#include "mem/mem.h"

#define CHECK_OPEN()                                              \
  do {                                                            \
    if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED; \
  } while (0)

/* Bytes per texel of a gfx9 IMG_DATA_FORMAT (0 for the ones images here do not use). */
static unsigned gfx9_texel_bytes(unsigned df) {
  static const uint8_t bytes[22] = {0, 1, 2, 2, 4, 4, 4, 4, 4, 4, 4, 8, 8, 12, 16, 0,
                                    2, 2, 2, 2, 4, 4};
  return df < sizeof(bytes) ? bytes[df] : 0;
}

/* As ROCR 5.2.3, the _with_layout functions take the linear layout only (the opaque one is the
 * plain function's): another layout is an unknown agent's HSA_STATUS_ERROR_INVALID_AGENT, else
 * HSA_STATUS_ERROR_INVALID_ARGUMENT; HSA_STATUS_SUCCESS for the linear layout. */
static hsa_status_t linear_only(hsa_agent_t agent, hsa_ext_image_data_layout_t layout) {
  if (layout == HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR) return HSA_STATUS_SUCCESS;
  return core_agent_from_handle(agent) ? HSA_STATUS_ERROR_INVALID_ARGUMENT
                                       : HSA_STATUS_ERROR_INVALID_AGENT;
}

hsa_status_t hsa_ext_image_get_capability(hsa_agent_t agent, hsa_ext_image_geometry_t geometry,
                                          const hsa_ext_image_format_t *image_format,
                                          uint32_t *capability_mask) {
  CHECK_OPEN();
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!image_format || !capability_mask || (unsigned)geometry > HSA_EXT_IMAGE_GEOMETRY_2DADEPTH)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct img_format f;
  *capability_mask = img_agent_has_images(a) && img_format_lookup(geometry, image_format, &f) ? f.caps : 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_ext_image_get_capability_with_layout(hsa_agent_t agent,
                                                      hsa_ext_image_geometry_t geometry,
                                                      const hsa_ext_image_format_t *image_format,
                                                      hsa_ext_image_data_layout_t image_data_layout,
                                                      uint32_t *capability_mask) {
  CHECK_OPEN();
  hsa_status_t st = linear_only(agent, image_data_layout);
  if (st != HSA_STATUS_SUCCESS) return st;
  return hsa_ext_image_get_capability(agent, geometry, image_format, capability_mask);
}

static bool access_ok(hsa_access_permission_t p) {
  return p >= HSA_ACCESS_PERMISSION_RO && p <= HSA_ACCESS_PERMISSION_RW;
}

/* Whether `levels` mip levels suit the image on agent `a` (0 counts as 1): not 1DB, at most
 * img_max_levels (layout.c lays out gfx9's, gfx11's and gfx12's LINEAR chains). */
static bool levels_ok(const struct core_agent *a, const hsa_ext_image_descriptor_t *d, size_t levels) {
  if (levels <= 1) return true;
  return d->geometry != HSA_EXT_IMAGE_GEOMETRY_1DB && levels <= img_max_levels(d);
}

/* ROCR 5.2.3's opaque layout on gfx9 (a base-profile agent, one level): addrlib's preferred
 * tiled mode for 2D kinds, arrays and 3D, from the GB_ADDR_CONFIG the driver reports (ROCR
 * asks hsaKmtGetTileConfig); on gfx11 and gfx12 the newest ROCR's (tile_gfx11.c,
 * tile_gfx12.c). False: the linear layout. */
static bool opaque_tiled(const struct core_agent *a, const hsa_ext_image_descriptor_t *d,
                         const struct img_format *f, unsigned levels, struct img_tile *t,
                         struct img_layout *l) {
  if (a->profile != HSA_PROFILE_BASE) return false;
  /* gfx12: the newest ROCR's choice over addrlib's gfx12 modes; its chains stay LINEAR (ROCR's
   * gfx12 image manager writes no mip levels) */
  if (a->isa->major == 12) return levels <= 1 && img_tile_choose_gfx12(d, f, t, l);
  if (a->isa->major != 9 && a->isa->major != 11) return false;
  struct core_runtime *rt = core_rt();
  uint32_t gb;
  if (rt->kfd.fd < 0 || kfd_get_gb_addr_config(&rt->kfd, a->gpu_id, &gb) != 0) return false;
  /* gfx11: a gfx11 ROCR's choice (tile_gfx11.c; GB_ADDR_CONFIG 0x545 only), one level */
  if (a->isa->major == 11) return levels <= 1 && img_tile_choose_gfx11(d, f, gb, t, l);
  if (!img_tile_choose(d, f, gb, t, l)) return false;
  if (levels > 1) {   /* a mip chain: ROCR's mode for the image, addrlib's chain in it */
    struct img_extent e = img_extent_of(d);
    img_tile_chain(t, e.w, e.h, e.d, d->geometry == HSA_EXT_IMAGE_GEOMETRY_3D, levels, 0, l,
                   f->elem_size);
  }
  return true;
}

/* What data_info and create check first, in ROCR's order: the agent, the arguments (the
 * descriptor, `args_ok` for the caller's pointers, the access permission), the descriptor's
 * geometry, extent and format (f). */
static hsa_status_t check_image(hsa_agent_t agent, const hsa_ext_image_descriptor_t *desc,
                                hsa_access_permission_t access, bool args_ok,
                                const struct core_agent **a, struct img_format *f) {
  *a = core_agent_from_handle(agent);
  if (!*a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!desc || !args_ok || !access_ok(access)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return img_check_descriptor(*a, desc, f);
}

static hsa_status_t data_info(hsa_agent_t agent, const hsa_ext_image_descriptor_t *desc,
                              hsa_access_permission_t access, bool opaque, size_t row_pitch,
                              size_t slice_pitch, unsigned levels, hsa_ext_image_data_info_t *info) {
  const struct core_agent *a;
  struct img_format f;
  hsa_status_t st = check_image(agent, desc, access, info != NULL, &a, &f);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (!levels_ok(a, desc, levels)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct img_layout l;
  struct img_tile t;
  if (opaque && opaque_tiled(a, desc, &f, levels, &t, &l)) {
    info->size = l.size;
    info->alignment = l.alignment;
    return HSA_STATUS_SUCCESS;
  }
  st = a->isa->major >= 12 ? img_layout_gfx12(desc, &f, row_pitch, slice_pitch, &l)
                           : img_layout_linear(desc, &f, row_pitch, slice_pitch, &l);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (levels > 1 && a->isa->major >= 12) img_layout_mips_gfx12(desc, &f, levels, &l);
  else if (levels > 1 && a->isa->major >= 10) img_layout_mips_gfx11(desc, &f, levels, &l);
  else if (levels > 1) img_layout_mips(desc, &f, levels, &l);
  info->size = l.size;
  info->alignment = l.alignment;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_ext_image_data_get_info(hsa_agent_t agent,
                                         const hsa_ext_image_descriptor_t *image_descriptor,
                                         hsa_access_permission_t access_permission,
                                         hsa_ext_image_data_info_t *image_data_info) {
  CHECK_OPEN();
  /* The opaque layout: ROCR's tiled one for 2D kinds and 3D on gfx9 (README). */
  return data_info(agent, image_descriptor, access_permission, true, 0, 0, 1, image_data_info);
}

hsa_status_t hsa_ext_image_data_get_info_with_layout(
    hsa_agent_t agent, const hsa_ext_image_descriptor_t *image_descriptor,
    hsa_access_permission_t access_permission, hsa_ext_image_data_layout_t image_data_layout,
    size_t image_data_row_pitch, size_t image_data_slice_pitch,
    hsa_ext_image_data_info_t *image_data_info) {
  CHECK_OPEN();
  hsa_status_t st = linear_only(agent, image_data_layout);
  if (st != HSA_STATUS_SUCCESS) return st;
  return data_info(agent, image_descriptor, access_permission, false, image_data_row_pitch,
                   image_data_slice_pitch, 1, image_data_info);
}

/* Makes an image of `desc` over `data` with `levels` mip levels; `templ` an AMD descriptor
 * template (8 dwords) or NULL. */
static hsa_status_t create(hsa_agent_t agent, const hsa_ext_image_descriptor_t *desc,
                           const void *data, hsa_access_permission_t access, bool opaque,
                           size_t row_pitch, size_t slice_pitch, unsigned levels,
                           const uint32_t *templ, hsa_ext_image_t *image) {
  const struct core_agent *a;
  struct img_format f;
  hsa_status_t st = check_image(agent, desc, access, data && image, &a, &f);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (!levels_ok(a, desc, levels)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (levels == 0) levels = 1;
  bool gfx12 = a->isa->major >= 12;
  struct img_layout l;
  st = gfx12 ? img_layout_gfx12(desc, &f, row_pitch, slice_pitch, &l)
             : img_layout_linear(desc, &f, row_pitch, slice_pitch, &l);
  if (st != HSA_STATUS_SUCCESS) return st;
  bool gfx11 = a->isa->major >= 10;
  if (levels > 1 && gfx12) img_layout_mips_gfx12(desc, &f, levels, &l);
  else if (levels > 1 && gfx11) img_layout_mips_gfx11(desc, &f, levels, &l);
  else if (levels > 1) img_layout_mips(desc, &f, levels, &l);
  struct img_tile tile;
  bool tiled = opaque && !templ && opaque_tiled(a, desc, &f, levels, &tile, &l);
  /* As ROCR: the data at the alignment data_get_info gave (a T# holds the address >> 8). */
  if ((uintptr_t)data % l.alignment) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (gfx11 && templ) return HSA_STATUS_ERROR_INVALID_ARGUMENT;   /* templates: gfx9 layout only */
  if (gfx11 && !gfx12 && !tiled && !img_pitch_in_srd_gfx11(desc->geometry) &&
      desc->geometry != HSA_EXT_IMAGE_GEOMETRY_1DB) {
    /* gfx11's T# has no pitch for 3D and arrays: the hardware's (256-byte rows) only */
    struct img_layout min;
    img_layout_linear(desc, &f, 0, 0, &min);
    if (l.row_pitch != min.row_pitch)
      return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED;
  }
  size_t row_bytes = l.row_pitch;
  if (templ && desc->geometry != HSA_EXT_IMAGE_GEOMETRY_1DB) {
    /* A template's texel size must be the format's; its PITCH is the rows' (in texels). */
    if (gfx9_texel_bytes((templ[1] >> 20) & 0x3f) != f.elem_size)
      return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED;
    row_bytes = (size_t)(((templ[4] >> 13) & 0xffff) + 1) * f.elem_size;
  }
  struct img_image *im = img_image_new();
  if (!im) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  im->agent = a;
  im->desc = *desc;
  im->fmt = f;
  im->ext = img_extent_of(desc);
  im->data = (uint8_t *)(uintptr_t)data;
  im->base = im->data;
  if (levels > 1 && gfx11) im->data += img_level_offset_gfx11(desc, &f, levels, 0);   /* level 0: last */
  im->row_pitch = row_bytes;
  im->slice_pitch = desc->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? row_bytes
                                                                 : row_bytes * im->ext.h;
  im->levels = levels;
  im->size = l.size;
  if (tiled) im->tile = tile;
  if (levels > 1 || (gfx12 && !img_pitch_in_srd_gfx11(desc->geometry) &&
                     desc->geometry != HSA_EXT_IMAGE_GEOMETRY_1DB)) {
    /* a slice or layer holds the chain (1DA: its layers are the "rows"); gfx12's layers and
     * slices are of 256-byte rows even with one level */
    im->slice_pitch = l.slice_pitch;
    if (desc->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA) im->row_pitch = l.slice_pitch;
  }
  struct img_srd_in in = {
      .geometry = desc->geometry,
      .fmt = &f,
      .va = (uint64_t)(uintptr_t)data,
      .width = im->ext.w,
      .height = desc->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? 1 : im->ext.h,
      .depth = desc->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? im->ext.h : im->ext.d,
      .pitch = (uint32_t)(l.row_pitch / f.elem_size),
      .swizzle_mode = tiled ? tile.sw_mode : 0,
      .base_level = 0,
      .last_level = levels - 1,
      .max_mip = levels - 1,
  };
  if (gfx12)
    img_srd_gfx12(&in, im->srd);   /* img_layout_gfx12 checked the pitch of 3D and arrays */
  else if (gfx11)
    img_srd_gfx11(&in, im->srd);
  else
    img_srd_gfx9(&in, im->srd);
  if (templ && desc->geometry != HSA_EXT_IMAGE_GEOMETRY_1DB) {
    /* AMD's layout template (what graphics interop hands over): its words, with this image's
     * address, data and number format and selects, the TYPE of 1D kinds, and its metadata
     * address, an offset from the data, made absolute (as ROCR does). */
    uint32_t mine[8];
    memcpy(mine, im->srd, sizeof(mine));
    memcpy(im->srd, templ, sizeof(im->srd));
    im->srd[0] = mine[0];
    im->srd[1] = (templ[1] & ~0x3ff000ffu) | (mine[1] & 0x3ff000ffu);
    uint32_t keep3 = desc->geometry == HSA_EXT_IMAGE_GEOMETRY_1D ||
                             desc->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA
                         ? 0xf0000fffu
                         : 0xfffu;
    im->srd[3] = (templ[3] & ~keep3) | (mine[3] & keep3);
    uint64_t meta = ((uint64_t)((templ[5] >> 17) & 0xff) << 40) | ((uint64_t)templ[7] << 8);
    meta += (uint64_t)(uintptr_t)data;
    im->srd[7] = (uint32_t)(meta >> 8);
    im->srd[5] = (templ[5] & ~(0xffu << 17)) | ((uint32_t)((meta >> 40) & 0xff) << 17);
    /* a tiled template: the host addresses the gfx9 modes tile_gfx9.c knows */
    unsigned mode = (templ[3] >> 20) & 0x1f;
    struct img_tile tt;
    uint32_t gb;
    struct core_runtime *rt = core_rt();
    if (mode && !gfx11 && rt->kfd.fd >= 0 && kfd_get_gb_addr_config(&rt->kfd, a->gpu_id, &gb) == 0 &&
        img_tile_init(&tt, gb, mode, desc->geometry == HSA_EXT_IMAGE_GEOMETRY_3D, f.elem_size)) {
      tt.pitch = (uint32_t)(row_bytes / f.elem_size);
      tt.height = im->ext.h;
      size_t rows = ((size_t)im->ext.h + (1u << tt.bh_log2) - 1) >> tt.bh_log2 << tt.bh_log2;
      size_t slices = ((size_t)im->ext.d + (1u << tt.bd_log2) - 1) >> tt.bd_log2 << tt.bd_log2;
      if (tt.pitch % (1u << tt.bw_log2) == 0) {
        im->tile = tt;
        im->size = (size_t)tt.pitch * rows * slices * f.elem_size;
      }
    }
    im->tiled = mode != 0 && im->tile.block_log2 == 0;
  }
  im->hsail[0] = desc->format.channel_type;
  im->hsail[1] = desc->format.channel_order;
  im->hsail[2] = im->ext.w;
  image->handle = (uint64_t)(uintptr_t)im->srd;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_ext_image_create(hsa_agent_t agent, const hsa_ext_image_descriptor_t *image_descriptor,
                                  const void *image_data, hsa_access_permission_t access_permission,
                                  hsa_ext_image_t *image) {
  CHECK_OPEN();
  return create(agent, image_descriptor, image_data, access_permission, true, 0, 0, 1, NULL, image);
}

hsa_status_t hsa_ext_image_create_with_layout(hsa_agent_t agent,
                                              const hsa_ext_image_descriptor_t *image_descriptor,
                                              const void *image_data,
                                              hsa_access_permission_t access_permission,
                                              hsa_ext_image_data_layout_t image_data_layout,
                                              size_t image_data_row_pitch,
                                              size_t image_data_slice_pitch, hsa_ext_image_t *image) {
  CHECK_OPEN();
  hsa_status_t st = linear_only(agent, image_data_layout);
  if (st != HSA_STATUS_SUCCESS) return st;
  return create(agent, image_descriptor, image_data, access_permission, false,
                image_data_row_pitch, image_data_slice_pitch, 1, NULL, image);
}

hsa_status_t hsa_amd_image_create(hsa_agent_t agent, const hsa_ext_image_descriptor_t *image_descriptor,
                                  const hsa_amd_image_descriptor_t *image_layout,
                                  const void *image_data, hsa_access_permission_t access_permission,
                                  hsa_ext_image_t *image) {
  CHECK_OPEN();
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!image_layout || !image_descriptor || !image) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* ROCR's checks and statuses: the data 256-byte aligned, version 1, and deviceID the PCI
   * vendor (AMD, 0x1002) over this agent's chip id; data[] holds the 8-dword T#. */
  if ((uintptr_t)image_data % 256) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  uint32_t chip = 0;
  hsa_agent_get_info(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &chip);
  if (image_layout->version != 1 || image_layout->deviceID != (0x1002u << 16 | chip))
    return (hsa_status_t)HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED;
  return create(agent, image_descriptor, image_data, access_permission, false, 0, 0, 1,
                image_layout->data,
                image);
}

hsa_status_t hsa_ext_image_destroy(hsa_agent_t agent, hsa_ext_image_t image) {
  CHECK_OPEN();
  if (!core_agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  /* ROCR 5.2.3 aborts on an image destroyed twice; we refuse it as it refuses handle 0. */
  return img_image_free(image.handle) ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

/* Version 2: the v1 descriptor and the levels (0 counts as 1). */
static bool v1_of(const hsa_ext_image_descriptor_v2_t *d2, hsa_ext_image_descriptor_t *d,
                  unsigned *levels) {
  if (!d2 || d2->mipmap_levels > 16) return false;   /* LAST_LEVEL is 4 bits */
  d->geometry = d2->geometry;
  d->width = d2->width;
  d->height = d2->height;
  d->depth = d2->depth;
  d->array_size = d2->array_size;
  d->format = d2->format;
  *levels = d2->mipmap_levels ? (unsigned)d2->mipmap_levels : 1;
  return true;
}

hsa_status_t hsa_ext_image_data_get_info_v2(hsa_agent_t agent,
                                            const hsa_ext_image_descriptor_v2_t *image_descriptor,
                                            hsa_access_permission_t access_permission,
                                            hsa_ext_image_data_info_t *image_data_info) {
  CHECK_OPEN();
  hsa_ext_image_descriptor_t d;
  unsigned levels;
  if (!v1_of(image_descriptor, &d, &levels)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return data_info(agent, &d, access_permission, true, 0, 0, levels, image_data_info);
}

hsa_status_t hsa_ext_image_create_v2(hsa_agent_t agent,
                                     const hsa_ext_image_descriptor_v2_t *image_descriptor,
                                     const void *image_data, hsa_access_permission_t access_permission,
                                     hsa_ext_image_t *image) {
  CHECK_OPEN();
  hsa_ext_image_descriptor_t d;
  unsigned levels;
  if (!v1_of(image_descriptor, &d, &levels)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return create(agent, &d, image_data, access_permission, true, 0, 0, levels, NULL, image);
}

hsa_status_t hsa_ext_image_destroy_v2(hsa_agent_t agent, hsa_ext_image_t image) {
  return hsa_ext_image_destroy(agent, image);
}

/* A level of a mipmapped image: a new image object over the same data whose T# has BASE_LEVEL
 * = LAST_LEVEL = the level (the chain's layout, MAX_MIP, kept: how the hardware views one
 * level), and whose host record is the level's (extent, first texel; the chain's pitches), so
 * import/export/clear/copy reach that level. Destroyed with hsa_ext_image_destroy(_v2). */
hsa_status_t hsa_ext_image_mipmap_array_get_level(hsa_agent_t agent,
                                                  const hsa_ext_image_t *mipmapped_array,
                                                  uint32_t mip_level,
                                                  const hsa_ext_image_descriptor_v2_t *image_descriptor,
                                                  hsa_ext_image_t *level_image) {
  CHECK_OPEN();
  if (!core_agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  (void)image_descriptor;
  struct img_image *src = mipmapped_array ? img_image_from_handle(mipmapped_array->handle) : NULL;
  if (!src || !level_image) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (mip_level >= src->levels) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (src->levels == 1) {   /* one level: the image itself */
    *level_image = *mipmapped_array;
    return HSA_STATUS_SUCCESS;
  }
  struct img_image *im = img_image_new();
  if (!im) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  uint64_t magic = im->magic;
  memcpy(im, src, sizeof(*im));
  im->magic = magic;
  if (src->agent->isa->major >= 12) {
    img_put(&im->srd[1], 25, 5, mip_level);             /* gfx12 BASE_LEVEL */
    img_put(&im->srd[3], 15, 5, mip_level);             /* gfx12 LAST_LEVEL */
  } else {
    img_put(&im->srd[3], 12, 4, mip_level);             /* BASE_LEVEL */
    img_put(&im->srd[3], 16, 4, mip_level);             /* LAST_LEVEL */
  }
  uint32_t s = mip_level;
  struct img_extent e = src->ext;
  e.w = e.w >> s ? e.w >> s : 1;
  if (src->desc.geometry != HSA_EXT_IMAGE_GEOMETRY_1DA) e.h = e.h >> s ? e.h >> s : 1;
  if (src->desc.geometry == HSA_EXT_IMAGE_GEOMETRY_3D) e.d = e.d >> s ? e.d >> s : 1;
  im->ext = e;
  if (src->agent->isa->major >= 10) {   /* gfx11: the level at its own pitch (1DA: rows are layers) */
    im->data = src->base + img_level_offset_gfx11(&src->desc, &src->fmt, src->levels, mip_level);
    if (src->desc.geometry != HSA_EXT_IMAGE_GEOMETRY_1DA)
      im->row_pitch = src->agent->isa->major >= 12
                          ? img_level_pitch_gfx12(&src->desc, &src->fmt, mip_level)
                          : img_level_pitch_gfx11(&src->desc, &src->fmt, mip_level);
  } else if (src->tile.block_log2) {   /* gfx9 tiled chain: the level's blocks in the chain */
    struct img_layout l;
    img_tile_chain(&im->tile, src->ext.w, src->ext.h, src->ext.d,
                   src->desc.geometry == HSA_EXT_IMAGE_GEOMETRY_3D, src->levels, mip_level, &l,
                   src->fmt.elem_size);
  } else {
    size_t row = src->desc.geometry == HSA_EXT_IMAGE_GEOMETRY_1DA
                     ? src->row_pitch / src->levels   /* the layers' stride holds every level's row */
                     : src->row_pitch;
    im->data = src->data + img_level_offset(&src->desc, row, mip_level);
  }
  im->levels = 1;
  level_image->handle = (uint64_t)(uintptr_t)im->srd;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t sampler_create(hsa_agent_t agent, const struct img_sampler_in *in,
                                   hsa_ext_sampler_t *sampler) {
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!sampler) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!img_agent_has_images(a)) return HSA_STATUS_ERROR_INVALID_AGENT;
  uint32_t srd[4];
  /* ROCR 5.2.3 accepts modes outside the enums; later ROCR (and we) refuse them. */
  bool ok = a->isa->major >= 12   ? img_sampler_gfx12(in, srd)
            : a->isa->major >= 10 ? img_sampler_gfx11(in, srd)
                                  : img_sampler_gfx9(in, srd);
  if (!ok) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct img_sampler *s = img_sampler_new();
  if (!s) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  memcpy(s->srd, srd, sizeof(srd));
  sampler->handle = (uint64_t)(uintptr_t)s->srd;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_ext_sampler_create(hsa_agent_t agent,
                                    const hsa_ext_sampler_descriptor_t *sampler_descriptor,
                                    hsa_ext_sampler_t *sampler) {
  CHECK_OPEN();
  if (!sampler_descriptor) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct img_sampler_in in = {
      {sampler_descriptor->address_mode, sampler_descriptor->address_mode,
       sampler_descriptor->address_mode},
      sampler_descriptor->filter_mode, sampler_descriptor->coordinate_mode};
  return sampler_create(agent, &in, sampler);
}

hsa_status_t hsa_ext_sampler_create_v2(hsa_agent_t agent,
                                       const hsa_ext_sampler_descriptor_v2_t *sampler_descriptor,
                                       hsa_ext_sampler_t *sampler) {
  CHECK_OPEN();
  if (!sampler_descriptor) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct img_sampler_in in = {
      {sampler_descriptor->address_modes[0], sampler_descriptor->address_modes[1],
       sampler_descriptor->address_modes[2]},
      sampler_descriptor->filter_mode, sampler_descriptor->coordinate_mode};
  return sampler_create(agent, &in, sampler);
}

hsa_status_t hsa_ext_sampler_destroy(hsa_agent_t agent, hsa_ext_sampler_t sampler) {
  CHECK_OPEN();
  if (!core_agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  /* ROCR 5.2.3 aborts on a sampler destroyed twice; we refuse it as it refuses handle 0. */
  return img_sampler_free(sampler.handle) ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_amd_image_get_info_max_dim(hsa_agent_t agent, hsa_agent_info_t attribute,
                                            void *value) {
  CHECK_OPEN();
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch ((uint32_t)attribute) {
  case HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS:
    /* core answers the limits (hsa_agent_get_info); the same values */
    return hsa_agent_get_info(agent, attribute, value);
  default:
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
}
