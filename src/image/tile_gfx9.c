/* SPDX-License-Identifier: MIT */
/* tile_gfx9.c — gfx9's tiled image layouts on the host: which swizzle mode ROCR 5.2.3 gives an
 * opaque image (addrlib's preferred setting), the sizes that follow, and where texel (x, y, z)
 * lies (addrlib's gfx9 equations, from the chip's GB_ADDR_CONFIG), so that the host data
 * operations reach the texels the texture unit addresses. Checked against addrlib's own
 * numbers (tests/fixtures/image/gfx9_swizzle.txt, tests/unit/test_image_srd.c).
 *
 * The equations. A surface is a row-major array of blocks (4 KiB or 64 KiB); inside a block
 * each address bit is one coordinate bit: the byte within the texel, then a 256-byte micro
 * block in a fixed order per texel size (display order for 2D D modes; standard order for S,
 * and for D in a 3D image; Morton x-then-y for thin Z), then alternately y and x (even address
 * bits y). Thick blocks (3D images in S or Z modes) have a 1 KiB micro block of x, y and z and
 * then x, z, y by address bit % 3. The _X modes XOR the bits above the 256-byte pipe
 * interleave: P = min(block bits - 8, log2 pipes + log2 SEs) pipe bits, then B = min(block
 * bits - 8 - P, log2 banks) bank bits, each with higher bits of the same pattern (continued
 * past the block, so bits of the block's coordinates) and, thin, with the slice's bits
 * reversed; thick, with two pattern bits each.
 *
 * The choice (Gfx9Lib::HwlGetPreferredSurfaceSetting as ROCR calls it: a texture, no 256-byte
 * or variable blocks): each allowed block (2D: thin 4 KiB, thin 64 KiB; 3D: thin 4 KiB, thick
 * 4 KiB, thin 64 KiB, thick 64 KiB, in that order) pads the image to whole blocks; a later
 * block replaces the best so far when its padded size is at most twice the best's. 2D and thin
 * blocks then take the D_X mode, thick ones Z_X. */
#include <string.h>

#include "image/internal.h"

enum { CX = IMG_TC_X, CY = IMG_TC_Y, CZ = IMG_TC_Z };
#define X(i) (CX | (i))
#define Y(i) (CY | (i))
#define Z(i) (CZ | (i))

static const uint8_t std2d[5][8] = {
    {X(0), X(1), X(2), X(3), Y(0), Y(1), Y(2), Y(3)}, {X(0), X(1), X(2), Y(0), Y(1), Y(2), X(3)},
    {X(0), X(1), Y(0), Y(1), Y(2), X(2)},             {X(0), Y(0), Y(1), X(1), X(2)},
    {Y(0), Y(1), X(0), X(1)},
};
static const uint8_t disp2d[5][8] = {
    {X(0), X(1), X(2), Y(1), Y(0), Y(2), X(3), Y(3)}, {X(0), X(1), X(2), Y(0), Y(1), Y(2), X(3)},
    {X(0), X(1), Y(0), X(2), Y(1), Y(2)},             {X(0), Y(0), X(1), X(2), Y(1)},
    {X(0), Y(0), X(1), Y(1)},
};
static const uint8_t z3d[5][10] = {
    {X(0), Y(0), X(1), Y(1), Z(0), Z(1), X(2), Z(2), Y(2), X(3)},
    {X(0), Y(0), X(1), Y(1), Z(0), Z(1), Z(2), Y(2), X(2)},
    {X(0), Y(0), X(1), Z(0), Y(1), Z(1), Y(2), X(2)},
    {X(0), Y(0), Z(0), X(1), Z(1), Y(1), X(2)},
    {X(0), Y(0), Z(0), Z(1), Y(1), X(1)},
};
static const uint8_t s3d[5][10] = {
    {X(0), X(1), X(2), X(3), Y(0), Y(1), Z(0), Z(1), Z(2), Y(2)},
    {X(0), X(1), X(2), Y(0), Y(1), Z(0), Z(1), Z(2), Y(2)},
    {X(0), X(1), Y(0), Y(1), Z(0), Z(1), Y(2), X(2)},
    {X(0), Y(0), Y(1), Z(0), Z(1), X(1), X(2)},
    {Y(0), Y(1), Z(0), Z(1), X(0), X(1)},
};

static int log2_bytes(unsigned bytes) {
  for (int e = 0; e <= 4; e++)
    if (bytes == 1u << e) return e;
  return -1;
}

bool img_tile_init(struct img_tile *t, uint32_t gb_addr_config, unsigned sw_mode, bool tex3d,
                   unsigned bytes) {
  memset(t, 0, sizeof(*t));
  int e = log2_bytes(bytes);
  if (e < 0) return false;
  bool xor_modes = sw_mode >= 20;
  unsigned m = xor_modes ? sw_mode - 16 : sw_mode;   /* 4..6 4 KiB Z/S/D, 8..10 64 KiB */
  if (m < 4 || m > 10 || m == 7) return false;
  unsigned kind = (m - 4) % 4;                       /* 0 Z, 1 S, 2 D */
  t->sw_mode = sw_mode;
  t->block_log2 = m < 8 ? 12 : 16;
  t->thick = tex3d && kind != 2;
  uint8_t pat[32] = {0};
  unsigned n[4] = {0, 0, 0, 0};                      /* next bit of x, y, z (index by code >> 5) */
  unsigned low;
  if (t->thick) {
    const uint8_t *mb = kind == 0 ? z3d[e] : s3d[e];
    for (unsigned i = (unsigned)e; i < 10; i++) pat[i] = mb[i - (unsigned)e];
    low = 10;
  } else if (kind == 0) {
    if (e > 3) return false;                         /* no thin Z for 16-byte texels */
    for (unsigned i = (unsigned)e; i < 6; i++)
      pat[i] = ((i - (unsigned)e) & 1) ? (uint8_t)Y(n[2]++) : (uint8_t)X(n[1]++);
    low = 6;
  } else {
    const uint8_t *mb = kind == 1 || tex3d ? std2d[e] : disp2d[e];
    for (unsigned i = (unsigned)e; i < 8; i++) pat[i] = mb[i - (unsigned)e];
    low = 8;
  }
  for (unsigned i = (unsigned)e; i < low; i++) {
    unsigned c = pat[i] >> 5, b = (pat[i] & 31u) + 1;
    if (b > n[c]) n[c] = b;
  }
  for (unsigned i = low; i < 32; i++) {
    if (t->thick)
      pat[i] = i % 3 == 0 ? (uint8_t)X(n[1]++) : i % 3 == 1 ? (uint8_t)Z(n[3]++) : (uint8_t)Y(n[2]++);
    else
      pat[i] = (i & 1) ? (uint8_t)X(n[1]++) : (uint8_t)Y(n[2]++);
  }
  for (unsigned i = 0; i < t->block_log2; i++) {
    t->src[i] = pat[i];
    if ((pat[i] & 0xe0) == CX) t->bw_log2++;
    if ((pat[i] & 0xe0) == CY) t->bh_log2++;
    if ((pat[i] & 0xe0) == CZ) t->bd_log2++;
  }
  if (xor_modes) {
    unsigned pipes = gb_addr_config & 7, se = (gb_addr_config >> 19) & 3;
    unsigned banks = (gb_addr_config >> 12) & 7, avail = t->block_log2 - 8;
    unsigned p = pipes + se < avail ? pipes + se : avail;
    unsigned b = banks < avail - p ? banks : avail - p;
    for (unsigned i = 0; i < p; i++) {
      t->xa[8 + i] = t->thick ? pat[8 + 3 * p - 1 - 2 * i] : pat[8 + 2 * p - 1 - i];
      t->xb[8 + i] = t->thick ? pat[8 + 3 * p - 2 - 2 * i] : (uint8_t)Z(p - 1 - i);
    }
    for (unsigned i = 0, s = 8 + p; i < b; i++) {
      t->xa[s + i] = t->thick ? pat[s + 3 * b - 1 - 2 * i] : pat[s + 2 * b - 1 - i];
      t->xb[s + i] = t->thick ? pat[s + 3 * b - 2 - 2 * i] : (uint8_t)Z(p + b - 1 - i);
    }
  }
  return true;
}

static unsigned coord_bit(uint8_t code, uint32_t x, uint32_t y, uint32_t z) {
  unsigned i = code & 31u;
  switch (code & 0xe0) {
  case CX: return x >> i & 1;
  case CY: return y >> i & 1;
  case CZ: return z >> i & 1;
  default: return 0;
  }
}

size_t img_tile_offset(const struct img_tile *t, uint32_t x, uint32_t y, uint32_t z) {
  size_t in_block = 0;
  for (unsigned i = 0; i < t->block_log2; i++)
    in_block |= (size_t)(coord_bit(t->src[i], x, y, z) ^ coord_bit(t->xa[i], x, y, z) ^
                         coord_bit(t->xb[i], x, y, z)) << i;
  in_block = (in_block ^ t->tail) & (((size_t)1 << t->block_log2) - 1);
  size_t row = t->pitch >> t->bw_log2, rows = (t->height + (1u << t->bh_log2) - 1) >> t->bh_log2;
  size_t zb = (t->thick ? z >> t->bd_log2 : z) + t->pos_d;
  size_t block = (zb * rows + (y >> t->bh_log2) + t->pos_h) * row + (x >> t->bw_log2) + t->pos_w;
  return (block << t->block_log2) | in_block;
}

static uint32_t half_up(uint32_t v) { return (v >> 1) + (v & 1); }
static uint32_t half_1(uint32_t v) { return v > 1 ? v >> 1 : 1; }

/* The chain as addrlib lays it out (facts from its numbers, tests/fixtures/image/
 * gfx9_mips.txt):
 * - the mip tail: a level whose size is within the tail (thin blocks: half the block width by
 *   the block height; thick: the block halved in height for 4 KiB, in width for 64 KiB) and
 *   every later level share one block; the first such level is found on the sizes rounded up
 *   to blocks and halved (level 0: its own size). A chain starting in the tail is one block.
 * - otherwise level 0's blocks (W x H x D in blocks) fix a major direction: Y when W < H, else
 *   X (thick: Y needs H >= D, X needs W >= D, else Z). Level 1 sits beside level 0 across the
 *   major direction (Y: to the right, else below), making the chain's rectangle wider or taller
 *   by level 1's blocks (half of level 0's, rounded up; 2 if that is 1 and the tail starts
 *   after level 2); level 2 and later are stacked along the major direction, level 3 again
 *   across. Each step moves by the previous level's blocks, halved (rounded up) each level;
 *   the level after one of 1 x <= 2 blocks (thin 4/64 KiB; thick by block size) starts the
 *   tail there.
 * - in the tail, level k (0 the first) lies at byte blocksize / 2^(k+1) of the block while that
 *   is at least 2 KiB, then at 6, 5, 4, 3, 2, 1, 0 x 256 bytes: its texels are the in-block
 *   equation of its own coordinates with that offset XORed in. */
void img_tile_chain(struct img_tile *t, uint32_t w, uint32_t h, uint32_t n, bool tex3d,
                    unsigned levels, unsigned level, struct img_layout *l, size_t bytes) {
  uint32_t bw = 1u << t->bw_log2, bh = 1u << t->bh_log2, bd = 1u << t->bd_log2;
  uint32_t tw = bw, th = bh, td = bd;
  if (!t->thick) tw >>= 1;
  else if (t->block_log2 % 3 == 0) th >>= 1;
  else if (t->block_log2 % 3 == 1) tw >>= 1;
  else td >>= 1;
  uint32_t p0 = (uint32_t)img_align_log2(w, t->bw_log2), h0 = (uint32_t)img_align_log2(h, t->bh_log2);
  uint32_t slices = t->thick ? (uint32_t)img_align_log2(n, t->bd_log2) : n;
  /* the first level in the tail */
  unsigned first = levels;
  uint32_t mw = w, mh = h, md = tex3d ? n : 1;
  for (unsigned i = 0; i < levels; i++) {
    if (mw <= tw && mh <= th && (!t->thick || md <= td)) {
      first = i;
      break;
    }
    mw = half_1((uint32_t)img_align_log2(mw, t->bw_log2));
    mh = half_1((uint32_t)img_align_log2(mh, t->bh_log2));
    md = tex3d ? half_1(t->thick ? (uint32_t)img_align_log2(md, t->bd_log2) : md) : 1;
  }
  unsigned ending = first < levels - 1 ? first : levels - 1;
  uint32_t cp = p0, ch = h0;
  t->pos_w = t->pos_h = t->pos_d = t->tail = 0;
  unsigned in_tail = levels;   /* the level whose start begins the tail, as positioned */
  if (levels > 1 && ending == 0) {
    in_tail = 0;
  } else if (levels > 1) {
    uint32_t wb = p0 / bw, hb = h0 / bh, db = slices / bd;
    bool ymaj = wb < hb, xmaj = !ymaj;
    if (t->thick) {
      ymaj = ymaj && hb >= db;
      xmaj = xmaj && wb >= db;
    }
    uint32_t m1 = half_up(ymaj ? wb : hb);
    if (m1 == 1 && ending > 2) m1++;
    if (ymaj) cp += m1 * bw;
    else ch += m1 * bh;
    for (unsigned i = 1; i <= level; i++) {
      if (i == 1 || i == 3) {
        if (ymaj) t->pos_w += wb;
        else t->pos_h += hb;
      } else if (xmaj) {
        t->pos_w += wb;
      } else if (ymaj) {
        t->pos_h += hb;
      } else {
        t->pos_d += db;
      }
      bool tail;
      if (t->thick) {
        unsigned dim = t->block_log2 % 3;
        tail = dim == 0 ? wb <= 2 && hb == 1 && db <= 2
             : dim == 1 ? wb == 1 && hb <= 2 && db <= 2
                        : wb <= 2 && hb <= 2 && db == 1;
      } else {
        tail = (t->block_log2 & 1) ? wb <= 2 && hb == 1 : wb == 1 && hb <= 2;
      }
      if (tail) {
        in_tail = i;
        break;
      }
      wb = half_up(wb);
      hb = half_up(hb);
      db = half_up(db);
    }
  }
  if (levels > 1 && level >= in_tail) {
    unsigned v = level - in_tail + 20 - t->block_log2;
    t->tail = (v <= 8 ? 2048u >> v : v <= 15 ? 15u - v : 0) << 8;
  }
  t->pitch = cp;
  t->height = ch;
  l->row_pitch = (size_t)cp * bytes;
  l->slice_pitch = (size_t)cp * ch * bytes;
  l->size = l->slice_pitch * (t->thick ? slices / bd * bd : slices);
  l->alignment = (size_t)1 << t->block_log2;
}

bool img_tile_choose(const hsa_ext_image_descriptor_t *d, const struct img_format *f,
                     uint32_t gb_addr_config, struct img_tile *t, struct img_layout *l) {
  bool tex3d = d->geometry == HSA_EXT_IMAGE_GEOMETRY_3D;
  if (!img_tile_geometry(d->geometry)) return false;   /* 1D kinds stay linear */
  uint64_t w = d->width ? d->width : 1, h = d->height ? d->height : 1;
  uint64_t n = d->array_size > d->depth ? d->array_size : d->depth;
  if (!n) n = 1;
  /* candidates in addrlib's block order: thin 4 KiB (D), thick 4 KiB (S), thin 64 KiB, thick */
  static const unsigned modes3d[4] = {6, 5, 10, 9}, modes2d[2] = {6, 10};
  const unsigned *cand = tex3d ? modes3d : modes2d;
  unsigned count = tex3d ? 4 : 2, best = 0;
  uint64_t best_size = 0;
  for (unsigned i = 0; i < count; i++) {
    struct img_tile c;
    if (!img_tile_init(&c, gb_addr_config, cand[i], tex3d, f->elem_size)) return false;
    uint64_t pad = img_align_log2(w, c.bw_log2) * img_align_log2(h, c.bh_log2) * img_align_log2(n, c.bd_log2);
    if (!best_size || pad <= 2 * best_size) {
      best_size = pad;
      best = i;
    }
  }
  /* the X form: D_X for 2D and thin blocks, Z_X for thick ones */
  bool thick = tex3d && (cand[best] == 5 || cand[best] == 9);
  unsigned mode = 16 + (thick ? cand[best] - 1 : cand[best]);
  if (!img_tile_init(t, gb_addr_config, mode, tex3d, f->elem_size)) return false;
  t->pitch = (uint32_t)img_align_log2(w, t->bw_log2);
  t->height = (uint32_t)h;
  uint64_t ph = img_align_log2(h, t->bh_log2), slices = img_align_log2(n, t->bd_log2);
  l->row_pitch = (size_t)t->pitch * f->elem_size;
  l->slice_pitch = (size_t)(t->pitch * ph) * f->elem_size;
  l->size = (size_t)(t->pitch * ph * slices) * f->elem_size;
  l->alignment = (size_t)1 << t->block_log2;
  return true;
}
