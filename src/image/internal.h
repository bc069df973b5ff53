/* SPDX-License-Identifier: MIT */
/* internal.h — what src/image's files share: the format table, the linear layout, the
 * descriptor writers (T#, V#, S#) of each GPU family, and the image and sampler objects. */
#ifndef IMAGE_INTERNAL_H
#define IMAGE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/agent.h"
#include "hsa.h"
#include "hsa_ext_image.h"

/* Destination selects of a descriptor (the hardware's SQ_SEL_*). */
enum { IMG_SEL_0 = 0, IMG_SEL_1 = 1, IMG_SEL_X = 4, IMG_SEL_Y = 5, IMG_SEL_Z = 6, IMG_SEL_W = 7 };

/* gfx9 IMG_NUM_FORMAT / BUF_NUM_FORMAT values. */
enum { IMG_NUM_UNORM = 0, IMG_NUM_SNORM = 1, IMG_NUM_UINT = 4, IMG_NUM_SINT = 5, IMG_NUM_FLOAT = 7,
       IMG_NUM_SRGB = 9 };

/* gfx9 IMG_DATA_FORMAT / BUF_DATA_FORMAT values. */
enum { IMG_DF_8 = 1, IMG_DF_16 = 2, IMG_DF_8_8 = 3, IMG_DF_32 = 4, IMG_DF_16_16 = 5,
       IMG_DF_2_10_10_10 = 9, IMG_DF_8_8_8_8 = 10, IMG_DF_32_32 = 11, IMG_DF_16_16_16_16 = 12,
       IMG_DF_32_32_32_32 = 14, IMG_DF_5_6_5 = 16, IMG_DF_1_5_5_5 = 17 };

/* One supported (channel order, channel type): how the hardware stores and reads it. */
struct img_format {
  uint32_t caps;          /* hsa_ext_image_capability_t bits; 0 = not supported */
  uint8_t elem_size;      /* bytes per texel */
  uint8_t channels;       /* stored components (1, 2, 3 packed, 4) */
  uint8_t bits;           /* bits per component; 0 for the packed formats */
  uint8_t data_format;    /* IMG_DF_* (gfx9 numbering) */
  uint8_t num_format;     /* IMG_NUM_* */
  uint8_t sel[4];         /* dst_sel of x, y, z, w */
};

/* The format's description for `geometry` on an agent with image hardware; false (and *out
 * untouched) when the combination is not supported. */
bool img_format_lookup(hsa_ext_image_geometry_t geometry, const hsa_ext_image_format_t *format,
                       struct img_format *out);
/* Whether the agent is a GPU whose image descriptors this runtime writes: gfx9 with image
 * hardware (gfx94x has none), gfx1100 and gfx12 (gfx1200/gfx1201). */
bool img_agent_has_images(const struct core_agent *a);

/* The texel box an image's data spans in the linear layout: x = width, y = height or the
 * 1DA layers, z = depth or the 2DA layers (each at least 1). */
struct img_extent { uint32_t w, h, d; };
struct img_extent img_extent_of(const hsa_ext_image_descriptor_t *desc);

/* The linear layout of an image: row and slice pitch in bytes, the size and alignment of its
 * data. row_pitch and slice_pitch the caller's (0 = computed). Returns SUCCESS, or
 * HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED for pitches the layout cannot have. */
struct img_layout { size_t row_pitch, slice_pitch, size, alignment; };
hsa_status_t img_layout_linear(const hsa_ext_image_descriptor_t *desc, const struct img_format *f,
                               size_t row_pitch, size_t slice_pitch, struct img_layout *out);

/* The LINEAR mip chain of `levels` levels (gfx9 addrlib's layout, which the texture unit
 * addresses): the level-0 row pitch for every level, level i's ceil(H / 2^i) rows (one row
 * for 1D kinds) after the levels before it, a 3D slice or array layer holding the whole chain.
 * row_pitch the rows', slice_pitch a slice's or layer's (the chain), size all of them. One
 * level: img_layout_linear's layout. */
void img_layout_mips(const hsa_ext_image_descriptor_t *desc, const struct img_format *f,
                     unsigned levels, struct img_layout *out);
/* The byte offset of level `level`'s first texel in the chain of row pitch `row_pitch`. */
size_t img_level_offset(const hsa_ext_image_descriptor_t *desc, size_t row_pitch, unsigned level);
/* gfx10+'s (gfx11's) LINEAR mip chain (addrlib's Gfx11Lib::HwlComputeSurfaceInfoLinear): the
 * smallest level first, level i at its own row pitch (ceil(W / 2^i) texels rounded up to 256
 * bytes) with ceil(H / 2^i) rows (one for 1D kinds); a 3D slice or array layer holds the whole
 * chain. Layout: row_pitch level 0's, slice_pitch the chain's, size all slices or layers. */
void img_layout_mips_gfx11(const hsa_ext_image_descriptor_t *desc, const struct img_format *f,
                           unsigned levels, struct img_layout *out);
/* level `level`'s row pitch in bytes, and its first byte's offset in a chain of `levels` */
size_t img_level_pitch_gfx11(const hsa_ext_image_descriptor_t *desc, const struct img_format *f,
                             unsigned level);
size_t img_level_offset_gfx11(const hsa_ext_image_descriptor_t *desc, const struct img_format *f,
                              unsigned levels, unsigned level);
/* gfx12's LINEAR layout (addrlib's Gfx12Lib, newest ROCR's copy; tests/fixtures/image/
 * gfx12_mips.txt): a level's row pitch is ceil(W / 2^i) texels rounded up to 128 bytes, its
 * size in the chain rows of that width rounded up to 256 bytes, except level 0 when the image
 * is neither 3D nor layered (one slice): rows of its 128-byte pitch. The offsets are gfx11's
 * (img_level_offset_gfx11). Layout: row_pitch level 0's, slice_pitch a slice's or layer's (the
 * chain; one level too), size all slices or layers. */
void img_layout_mips_gfx12(const hsa_ext_image_descriptor_t *desc, const struct img_format *f,
                           unsigned levels, struct img_layout *out);
size_t img_level_pitch_gfx12(const hsa_ext_image_descriptor_t *desc, const struct img_format *f,
                             unsigned level);
/* The most levels an image of `desc` can have: floor(log2(largest dimension)) + 1, where the
 * dimensions are the ones the levels halve (width; height of 2D kinds; depth of 3D). */
unsigned img_max_levels(const hsa_ext_image_descriptor_t *desc);

/* gfx9's tiled layouts (tile_gfx9.c, addrlib's gfx9 equations and preferred setting): a
 * swizzle mode's block (1 << block_log2 bytes; its width, height and depth in texels, log2),
 * the coordinate bit of each address bit in the block and the two XORed into it (pipe and
 * bank bits of the _X modes, from GB_ADDR_CONFIG), and the surface's pitch and height
 * (texels; the height is rounded up to the block's here). */
struct img_tile {
  unsigned sw_mode, block_log2, bw_log2, bh_log2, bd_log2;
  bool thick;                       /* 3D blocks: slices step by the block depth */
  uint8_t src[18], xa[18], xb[18];  /* IMG_TC_* | bit index; 0 none (gfx12's 256 KiB: 18 bits) */
  uint32_t pitch, height;
  /* a mip chain (img_tile_chain; all 0 for one level): the level addressed, its first block
   * (x, y, z in blocks) in the chain's rectangle of blocks (pitch x height texels a slice),
   * and its offset in the mip tail's block (XORed into the in-block bits) */
  uint32_t pos_w, pos_h, pos_d, tail;
};
/* the coordinate of a bit in img_tile's src/xa/xb (| the bit's index) */
enum { IMG_TC_X = 1 << 5, IMG_TC_Y = 2 << 5, IMG_TC_Z = 3 << 5 };
/* Modes 4/5/6 SW_4KB_Z/S/D, 8/9/10 SW_64KB_Z/S/D and their _X forms 20..22, 24..26 of
 * `bytes`-byte texels (1..16); false for others (the caller keeps its refusal). pitch and
 * height are left 0. */
bool img_tile_init(struct img_tile *t, uint32_t gb_addr_config, unsigned sw_mode, bool tex3d,
                   unsigned bytes);
/* Byte offset of texel (x, y, z) (z the 3D slice or the layer) from the surface's base. */
size_t img_tile_offset(const struct img_tile *t, uint32_t x, uint32_t y, uint32_t z);
/* gfx9's tiled mip chain (addrlib's Gfx9Lib layout, tests/fixtures/image/gfx9_mips.txt) of
 * `levels` levels of a w x h image of n layers or 3D depth, in t's mode (img_tile_init'ed):
 * sets t's pitch and height to the chain's rectangle and addresses level `level` (0 ..
 * levels - 1); *l the chain's sizes (row_pitch the chain's, slice_pitch a slice's). */
void img_tile_chain(struct img_tile *t, uint32_t w, uint32_t h, uint32_t n, bool tex3d,
                    unsigned levels, unsigned level, struct img_layout *l, size_t bytes);
/* v rounded up to a multiple of 2^log2 (tile.c). */
uint64_t img_align_log2(uint64_t v, unsigned log2);
/* Whether a ROCR may tile an image of geometry g: the 2D kinds and 3D (1D kinds stay linear). */
bool img_tile_geometry(hsa_ext_image_geometry_t g);
/* A one-level surface of n slices of w x h texels in t's blocks: t's pitch (w rounded up to the
 * block's width) and height, and *l's pitches, size and alignment (the block). */
void img_tile_surface(struct img_tile *t, const struct img_format *f, uint64_t w, uint64_t h,
                      uint64_t n, struct img_layout *l);
/* ROCR 5.2.3's opaque layout of a gfx9 image (2D kinds, arrays and 3D; 1D kinds and 12-byte
 * texels stay linear: false): the swizzle mode addrlib prefers, the surface's pitch, size and
 * alignment (the block). */
bool img_tile_choose(const hsa_ext_image_descriptor_t *desc, const struct img_format *f,
                     uint32_t gb_addr_config, struct img_tile *t, struct img_layout *l);

/* gfx12's tiled layouts (tile_gfx12.c, addrlib's gfx12 addresses; tests/fixtures/image/
 * gfx12_swizzle.txt): SW_MODE 1 256B_2D, 2 4KB_2D, 3 64KB_2D, 4 256KB_2D, 5 4KB_3D, 6 64KB_3D,
 * 7 256KB_3D of `bytes`-byte texels (1..16; no XOR bits); pitch and height left 0. */
bool img_tile_init_gfx12(struct img_tile *t, unsigned sw_mode, unsigned bytes);
/* The newest ROCR's opaque layout of a gfx12 image (one level): the mode its choice over
 * addrlib's sizes takes, the surface's pitch (the width rounded up to the block's), size and
 * alignment (the block); false when that choice is LINEAR (and for 1DB). */
bool img_tile_choose_gfx12(const hsa_ext_image_descriptor_t *desc, const struct img_format *f,
                           struct img_tile *t, struct img_layout *l);

/* gfx11's tiled layouts (tile_gfx11.c, addrlib's gfx11 addresses; tests/fixtures/image/
 * gfx11_swizzle.txt) for GB_ADDR_CONFIG 0x545 (hsa-sim's gfx1100; false for others): SW_MODE 2
 * SW_256B_D, 22 SW_4KB_D_X, 24/27 SW_64KB_Z_X/R_X, 28/31 SW_256KB_Z_X/R_X (Z_X up to 8-byte
 * texels); and a gfx11 ROCR's opaque layout of an image (one level; 1D kinds LINEAR: false). */
bool img_tile_init_gfx11(struct img_tile *t, uint32_t gb_addr_config, unsigned sw_mode,
                         unsigned bytes);
bool img_tile_choose_gfx11(const hsa_ext_image_descriptor_t *desc, const struct img_format *f,
                           uint32_t gb_addr_config, struct img_tile *t, struct img_layout *l);

/* Checks a descriptor for `agent` in ROCR's order: argument, format, sizes. */
hsa_status_t img_check_descriptor(const struct core_agent *a, const hsa_ext_image_descriptor_t *desc,
                                  struct img_format *f);

/* The agent's limits (hsa_amd_image_get_info_max_dim's answers). */
struct img_limits { uint32_t dim1d, dim2d, dim3d_depth, layers; uint64_t buffer; };
void img_limits_of(const struct core_agent *a, struct img_limits *out);

/* Descriptor writers. `va` the data's GPU address; pitch in texels. */
struct img_srd_in {
  hsa_ext_image_geometry_t geometry;
  const struct img_format *fmt;
  uint64_t va;
  uint32_t width, height, depth;   /* texels; depth = 3D depth or array layers (>= 1) */
  uint32_t pitch;                  /* texels per row */
  uint32_t swizzle_mode;           /* 0 = linear */
  uint32_t base_level, last_level; /* the levels kernels see (BASE_LEVEL, LAST_LEVEL) */
  uint32_t max_mip;                /* the resource's last level (gfx9 word5 MAX_MIP, gfx11
                                    * word1[19:16]; a gfx11 chain's T# has no PITCH) */
};
/* TEX_BC_SWIZZLE of destination selects (where the border colour's alpha and red land) */
unsigned img_bc_swizzle(const uint8_t sel[4]);
/* gfx9 (GCN5/CDNA): an 8-dword T#, or for 1DB a 4-dword V# (the rest zero). */
void img_srd_gfx9(const struct img_srd_in *in, uint32_t srd[8]);

/* gfx11 (RDNA3): the 8-dword T# (unified FORMAT, split WIDTH, PITCH - 1 in word 4 for 1D/2D;
 * 3D and arrays have the hardware's linear pitch) or the 1DB V#. */
void img_srd_gfx11(const struct img_srd_in *in, uint32_t srd[8]);
/* Whether gfx11's T# holds the pitch (1D, 2D, 2DDEPTH) */
bool img_pitch_in_srd_gfx11(hsa_ext_image_geometry_t g);
/* gfx12 (RDNA4): the 8-dword T# (srd_gfx12.c; 1D/2D pitch as gfx11's, 3D and arrays the
 * hardware's 128-byte rows) or gfx11's 1DB V#; the layout of an image on gfx12 (3D and arrays
 * in 128-byte rows, the rest img_layout_linear's) */
void img_srd_gfx12(const struct img_srd_in *in, uint32_t srd[8]);
hsa_status_t img_layout_gfx12(const hsa_ext_image_descriptor_t *desc, const struct img_format *f,
                              size_t row_pitch, size_t slice_pitch, struct img_layout *out);
/* gfx10+'s unified FORMAT of a gfx9 (DATA_FORMAT, NUM_FORMAT) pair; 0 if none */
uint32_t img_unified_format(unsigned df, unsigned nf);

/* Sampler: per-axis addressing (HSA modes), filter, coordinates. */
struct img_sampler_in {
  uint32_t address[3];
  uint32_t filter;
  uint32_t coordinate;
};
/* Returns false for a mode outside the HSA enums. */
/* Put v's low `width` bits at bit `lsb` of descriptor word *w (the ISA tables' positions). */
static inline void img_put(uint32_t *w, unsigned lsb, unsigned width, uint64_t v) {
  uint32_t mask = (width >= 32 ? 0xffffffffu : ((1u << width) - 1u)) << lsb;
  *w = (*w & ~mask) | (((uint32_t)v << lsb) & mask);
}
unsigned img_rsrc_type(hsa_ext_image_geometry_t g);   /* SQ_RSRC_IMG_* of a geometry */
bool img_sampler_gfx9(const struct img_sampler_in *in, uint32_t srd[4]);
bool img_sampler_gfx11(const struct img_sampler_in *in, uint32_t srd[4]);
bool img_sampler_gfx12(const struct img_sampler_in *in, uint32_t srd[4]);

/* An image object: the descriptor first (the handle is its address, which the GPU reads),
 * then the HSAIL words ROCR keeps after it, then what the host needs. */
struct img_image {
  uint32_t srd[8];
  uint32_t hsail[8];        /* [0] channel type, [1] channel order, [2] width */
  uint64_t magic;
  const struct core_agent *agent;
  hsa_ext_image_descriptor_t desc;
  struct img_format fmt;
  struct img_extent ext;
  uint8_t *data;            /* the first texel of the level the host operations reach */
  uint8_t *base;            /* the resource's first byte (the T#'s address) */
  size_t row_pitch, slice_pitch;   /* level 0's; a 1DA image's layers are its "rows" */
  uint32_t levels;          /* mip levels of the resource (1: none) */
  bool tiled;               /* a tiled SW_MODE the host cannot address (an AMD template's):
                             * no host data operations */
  struct img_tile tile;     /* tile.block_log2 != 0: a gfx9 or gfx12 tiled layout the host
                             * addresses (a 1DA image's layer is its z) */
  size_t size;              /* the data's bytes (tiled layouts: the whole surface) */
};

struct img_sampler {
  uint32_t srd[4];
  uint32_t pad[4];
  uint64_t magic;
};

/* Live-object registry (handles are validated against it): new objects are zeroed and
 * registered; from_handle is NULL for anything not a live image; free is false for a handle
 * that is not a live object of the kind (destroyed already, or never made). */
struct img_image *img_image_new(void);
struct img_image *img_image_from_handle(uint64_t handle);
bool img_image_free(uint64_t handle);
struct img_sampler *img_sampler_new(void);
bool img_sampler_free(uint64_t handle);

#endif
