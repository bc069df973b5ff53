/* SPDX-License-Identifier: MIT */
/* image.h — what the image files of sim/isa share (exec_mimg.c, image_format.c, sample.c):
 * the gfx9 image resource (T#, 8 dwords) and sampler (S#, 4 dwords) as the Vega ISA's
 * "Image Resource" and "Image Sampler" tables lay them out, the texel formats, and the
 * sampler's addressing and filtering. */
#ifndef SIM_ISA_IMAGE_H
#define SIM_ISA_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

/* T# TYPE (word3[31:28]) */
enum { IMG_TYPE_1D = 8, IMG_TYPE_2D = 9, IMG_TYPE_3D = 10, IMG_TYPE_CUBE = 11,
       IMG_TYPE_1D_ARRAY = 12, IMG_TYPE_2D_ARRAY = 13, IMG_TYPE_2D_MSAA = 14,
       IMG_TYPE_2D_MSAA_ARRAY = 15 };

struct img_swizzle;
struct img_tsharp {
  uint64_t base;             /* byte address: word0 (bits 39:8) and word1[7:0] (47:40) */
  unsigned min_lod;          /* word1[19:8] */
  unsigned dfmt, nfmt;       /* word1[25:20] DATA_FORMAT, word1[29:26] NUM_FORMAT */
  unsigned width, height;    /* word2[13:0] + 1, word2[27:14] + 1 (1 for 1D types) */
  unsigned dst_sel[4];       /* word3[11:0]: 0 -> 0, 1 -> 1, 4..7 -> X..W */
  unsigned base_level, last_level;   /* word3[15:12], [19:16] */
  unsigned sw_mode;          /* word3[24:20]: 0 LINEAR */
  unsigned type;             /* word3[31:28] */
  unsigned depth;            /* word4[12:0] + 1: 3D depth or the array's last slice + 1 */
  unsigned pitch;            /* word4[28:13] + 1, in elements */
  unsigned base_array;       /* word5[12:0] */
  unsigned max_mip;          /* word5[31:28]: the resource's last level (gfx11: word1[19:16]) */
  bool rdna_chain;           /* gfx10+ (the gfx11/gfx12 decoders): a LINEAR mip chain is laid
                              * out smallest level first, each level at its own pitch */
  bool gfx12_rows;           /* gfx12: a level's rows are 128-byte multiples, its slice of
                              * rows rounded up to 256 bytes (img_level_select) */
  uint64_t slice_bytes;      /* bytes from one slice (3D) or layer to the next: the mip
                              * chain's (img_level_select); 0 until selected */
  const struct img_swizzle *swz;   /* gfx9 tiled SW_MODE (exec_mimg.c sets it): the texel
                              * addresses of image_swizzle.c; NULL: LINEAR */
  bool swz_chain;            /* a tiled mip chain: the level's place in it is swl
                              * (img_level_select) */
  struct img_swizzle_level {
    unsigned pitch, height;  /* the chain's rectangle of blocks, in elements */
    unsigned pos_w, pos_h, pos_d;   /* the level's first block in it */
    unsigned tail;           /* its offset in the mip tail's block (0: not in the tail) */
  } swl;
  unsigned coords;           /* address components of the type: 1, 2 or 3 */
  bool array;                /* 1D/2D arrays: the last coordinate is a slice */
};

struct img_ssharp {
  unsigned clamp[3];         /* word0[2:0], [5:3], [8:6] (enum below) */
  unsigned depth_compare;    /* word0[14:12] */
  bool force_unnorm;         /* word0[15] */
  unsigned min_lod, max_lod; /* word1[11:0], [23:12], 4.8 fixed point */
  int lod_bias;              /* word2[13:0], s5.8 */
  unsigned mag_filter, min_filter, z_filter, mip_filter;   /* word2[21:20],[23:22],[25:24],[27:26] */
  unsigned border_type;      /* word3[31:30] */
};

/* S# CLAMP_* */
enum { IMG_WRAP = 0, IMG_MIRROR = 1, IMG_CLAMP_LAST = 2, IMG_MIRROR_ONCE_LAST = 3,
       IMG_CLAMP_HALF_BORDER = 4, IMG_MIRROR_ONCE_HALF_BORDER = 5, IMG_CLAMP_BORDER = 6,
       IMG_MIRROR_ONCE_BORDER = 7 };

void img_tsharp_decode(const uint32_t d[8], struct img_tsharp *t);
void img_ssharp_decode(const uint32_t d[4], struct img_ssharp *s);
/* gfx11 (RDNA3) field layouts (the RDNA3 ISA's "Image Resource"/"Image Sampler" tables):
 * T# word1 BASE_ADDRESS_HI [7:0], MAX_MIP [19:16], FORMAT [27:20] (the unified format, as
 * dfmt/nfmt here), WIDTH[1:0] [31:30]; word2 WIDTH[13:2] [11:0], HEIGHT [27:14]; word3 as
 * gfx9's (BC_SWIZZLE [27:25]); word4 DEPTH [12:0] (3D depth - 1 or the last slice; for 1D/2D
 * gfx10.3+'s PITCH - 1 [13:0]), BASE_ARRAY [28:16]. The pitch of 1D/2D is that field when it
 * is at least WIDTH - 1, else (and for 3D and arrays) t->pitch is 0: img_linear_pitch. S#: the
 * gfx9 fields but LOD_BIAS (word2 holds the border colour pointer there: bias 0). */
void img_tsharp_decode_gfx11(const uint32_t d[8], struct img_tsharp *t);
void img_ssharp_decode_gfx11(const uint32_t d[4], struct img_ssharp *s);
/* Makes *t describe mip level `level` (counted from level 0 of the resource) of the LINEAR
 * mip chain of texels of `bytes` bytes (addrlib's layout, which the texture unit addresses);
 * a slice (3D) or layer holds the whole chain of levels 0..max(MAX_MIP, LAST_LEVEL). gfx9:
 * every level keeps the level-0 pitch; level i takes ceil(H / 2^i) rows (H the height, 1 for
 * 1D types) after the rows of the levels before it. gfx10+ (t->rdna_chain, gfx11's
 * Gfx11Lib::HwlComputeSurfaceInfoLinear): the smallest level first, level i at its own pitch
 * (ceil(W / 2^i) elements rounded up to 256-byte rows, which t->pitch becomes) and
 * ceil(H / 2^i) rows, so level i starts after levels last..i+1. WIDTH, HEIGHT and a 3D DEPTH
 * become the level's (max(1, n >> i)), BASE the level's first texel, slice_bytes the chain's
 * size. Level 0 of a one-level chain is the plain linear layout (the T#'s pitch kept).
 * gfx12 (t->gfx12_rows, Gfx12Lib's LINEAR layout): as gfx10+, but a level's pitch is
 * ceil(W / 2^i) elements rounded up to 128-byte rows while its share of the chain stays rows
 * rounded up to 256 bytes; so even one level of 3D or an array has slices of 256-byte rows
 * (1D/2D with one level keep the T#'s PITCH). */
void img_level_select(struct img_tsharp *t, unsigned bytes, unsigned level);
/* gfx12 (RDNA4) layouts (image_gfx12.c, from Mesa's gfx12 descriptor fields): T# word1
 * BASE_ADDRESS_HI [7:0], MAX_MIP [16:12], FORMAT [24:17] (gfx11's unified numbers),
 * BASE_LEVEL [29:25], WIDTH[1:0] [31:30]; word2 WIDTH[15:2] [13:0], HEIGHT [29:14]; word3
 * DST_SEL [11:0], LAST_LEVEL [19:15], SW_MODE [24:20], BC_SWIZZLE [27:25], TYPE [31:28];
 * word4 DEPTH [13:0] (1D/2D: PITCH - 1 with PITCH_MSB [15:14] above it), BASE_ARRAY [29:16].
 * 3D and arrays have the hardware's linear pitch: rows of 128-byte multiples (slices of
 * 256-byte multiples: img_level_select). S#: gfx9's
 * word0, MIN_LOD [12:0] and MAX_LOD [25:13] of word1, LOD_BIAS word2[13:0], gfx9's filters
 * and BORDER_COLOR_TYPE. */
void img_tsharp_decode_gfx12(const uint32_t d[8], struct img_tsharp *t);
void img_ssharp_decode_gfx12(const uint32_t d[4], struct img_ssharp *s);
/* addrlib's LINEAR pitch: width in elements rounded up so that a row is a multiple of 256
 * bytes */
unsigned img_linear_pitch(unsigned width, unsigned bytes);

/* gfx9's tiled layouts (image_swizzle.c, addrlib's gfx9 equations): the swizzle mode of a
 * surface of `bytes`-byte elements (1..16) as a source coordinate bit per address bit of the
 * block (1 << block_log2 bytes: 12 for 4 KiB, 16 for 64 KiB), and for the _X modes two more
 * bits XORed in (the pipe and bank bits), from the chip's GB_ADDR_CONFIG. Modes: SW_4KB_Z/S/D
 * (4, 5, 6), SW_64KB_Z/S/D (8, 9, 10) and their _X forms (20, 21, 22, 24, 25, 26); S and Z
 * are thick (3D blocks) for 3D images, D is thin. */
struct img_swizzle {
  unsigned block_log2;
  unsigned bw_log2, bh_log2, bd_log2;   /* the block in elements (bd 0 for thin) */
  bool thick;
  uint8_t src[18], xa[18], xb[18];      /* coordinate bit per address bit (0: none; gfx12's
                                         * 256 KiB blocks have 18) */
};
/* a coordinate bit in src/xa/xb: the coordinate's code | the bit's index */
enum { IMG_SWZ_X = 1 << 5, IMG_SWZ_Y = 2 << 5, IMG_SWZ_Z = 3 << 5 };
/* false for a mode, element size or type the model does not address (256-byte, VAR, _T and
 * R modes; thin Z of 16-byte elements) */
bool img_swizzle_init(struct img_swizzle *s, uint32_t gb_addr_config, unsigned sw_mode,
                      bool tex3d, unsigned bytes);
/* Byte offset of element (x, y, z) (z: the slice of an array or a 3D image) from the
 * surface's base, for a surface `pitch` elements wide (a multiple of the block width) and
 * `height` rows (rounded up to the block height here). */
uint64_t img_swizzle_offset(const struct img_swizzle *s, unsigned x, unsigned y, unsigned z,
                            unsigned pitch, unsigned height);
/* gfx9's tiled mip chains (addrlib's Gfx9Lib layout; tests/fixtures/image/gfx9_mips.txt):
 * where level `level` of a chain of `levels` levels of a w x h image of n slices (3D depth
 * or layers) lies: the levels share a rectangle of blocks (level 1 beside level 0 across the
 * major direction, later levels stacked along it) and the small ones one block (the mip
 * tail), each at its own offset in it (image_swizzle.c says how). */
void img_swizzle_chain(const struct img_swizzle *s, unsigned w, unsigned h, unsigned n,
                       bool tex3d, unsigned levels, unsigned level, struct img_swizzle_level *out);
/* Byte offset of element (x, y, z) of that level from the chain's base */
uint64_t img_swizzle_offset_level(const struct img_swizzle *s, const struct img_swizzle_level *lv,
                                  unsigned x, unsigned y, unsigned z);
/* gfx12's tiled layouts (image_swizzle_gfx12.c, from addrlib's gfx12 addresses): SW_MODE 1
 * 256B_2D, 2 4KB_2D, 3 64KB_2D, 4 256KB_2D and the 3D (thick) 5 4KB_3D, 6 64KB_3D, 7 256KB_3D
 * of `bytes`-byte elements, as img_swizzle_init's (no XOR bits: gfx12 has no pipe/bank XOR).
 * img_swizzle_offset addresses them with pitch = the width rounded up to the block width.
 * false for other modes (0 LINEAR is not a swizzle) and element sizes. */
bool img_swizzle_init_gfx12(struct img_swizzle *s, unsigned sw_mode, unsigned bytes);
/* gfx11's tiled layouts (image_swizzle_gfx11.c, from addrlib's gfx11 addresses) for
 * GB_ADDR_CONFIG 0x545 (hsa-sim's gfx1100): SW_MODE 2 SW_256B_D, 22 SW_4KB_D_X, 24/27
 * SW_64KB_Z_X/R_X, 28/31 SW_256KB_Z_X/R_X (Z_X of 1- to 8-byte elements); false for other
 * modes, element sizes and GB_ADDR_CONFIGs. Addressed as gfx12's (img_swizzle_offset, pitch the
 * width rounded up to the block width). */
bool img_swizzle_init_gfx11(struct img_swizzle *s, uint32_t gb_addr_config, unsigned sw_mode,
                            unsigned bytes);
/* hsa-sim's GB_ADDR_CONFIG of a GPU model (sim/kfd/devcfg.c) */
struct sim_gpu_model;
uint32_t sim_gb_addr_config(const struct sim_gpu_model *m);

/* A texel format: DATA_FORMAT x NUM_FORMAT. Components are listed from the least
 * significant bits (the data format's name lists them from the most significant). */
struct img_fmt {
  unsigned bytes, comps, bits[4], shift[4];
  unsigned nfmt;
  bool is_int;               /* UINT/SINT: no filtering, integer results */
};
/* false for a combination the model does not convert (compressed, shared-exponent, small
 * floats, depth-stencil) */
bool img_fmt_of(unsigned dfmt, unsigned nfmt, struct img_fmt *f);
/* Texel bytes (f->bytes of them, little-endian) to four 32-bit channels: f32 bits for the
 * float/normalized/scaled formats, integers for UINT/SINT; absent components read 0, the
 * fourth 1 (1.0f). */
void img_decode(const struct img_fmt *f, const uint8_t *texel, uint32_t out[4]);
/* Four channels (same convention) to texel bytes: unorm/snorm clamp and round to nearest
 * even, UINT/SINT saturate, f16 rounds to nearest even. */
void img_encode(const struct img_fmt *f, const uint32_t in[4], uint8_t *texel);
uint16_t img_f32_to_f16(float x);
float img_f16_to_f32(uint16_t h);

/* ---- sampling (sample.c) ---- */
/* Texel fetcher the sampler calls: writes the four decoded channels of texel (x, y, z) (z is
 * the slice for arrays) of the current image; coordinates are in range. Returns -1 after a
 * fault (the sample stops). */
typedef int img_fetch_fn(void *ctx, int x, int y, int z, uint32_t out[4]);

/* A texel coordinate mapped by an addressing mode into [0, n), or -1 for the border. */
int img_address(unsigned mode, int i, int n);

/* One sample: coordinates c[0..coords-1] (already in texel space: multiplied by the size
 * for normalized coordinates), slice index for arrays (already clamped), filter linear or
 * not. The result is the four channels (before dst_sel and dmask). */
int img_sample(const struct img_tsharp *t, const struct img_ssharp *s, const struct img_fmt *f,
               const float *c, int slice, bool linear, img_fetch_fn *fetch, void *ctx,
               uint32_t out[4]);

/* gather4: the four texels of the bilinear footprint of (c[0], c[1]) (texel space) in the
 * order the results take (x: (i0, j1), y: (i1, j1), z: (i1, j0), w: (i0, j0)), each as four
 * channels before dst_sel, the border colour outside. */
int img_gather(const struct img_tsharp *t, const struct img_ssharp *s, const struct img_fmt *f,
               const float *c, int slice, img_fetch_fn *fetch, void *ctx, uint32_t out[4][4]);

/* Texel-space coordinates keep this many fraction bits, rounded to nearest (the sub-texel
 * precision): point sampling picks floor() of it, linear weights are multiples of 2^-8. */
#define IMG_FILTER_FRAC_BITS 8

#endif
