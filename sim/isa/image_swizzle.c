/* SPDX-License-Identifier: MIT */
/* image_swizzle.c — gfx9's tiled image layouts: where element (x, y, z) of a surface in a
 * 4 KiB or 64 KiB swizzle mode lies, as addrlib's gfx9 equations describe it (read in AMD's
 * addrlib, Gfx9Lib's thin and thick equations; checked against addrlib's own addresses in
 * tests/fixtures/image/gfx9_swizzle.txt).
 *
 * A surface is a row-major array of blocks (pitch / block width of them a row, the height
 * rounded up to the block height a slice of blocks; 3D thick blocks also span block-depth
 * slices). Inside a block every address bit is one bit of a coordinate:
 *  - the bits below log2(element bytes) are the byte in the element;
 *  - then the 256-byte micro block: a fixed order per element size and kind (S standard, D
 *    display (a 3D image's thin D blocks take S's), Z Morton order of x then y for thin
 *    blocks; 1 KiB micro blocks of x, y and z for thick S and Z);
 *  - above it, alternately y and x (thin: even address bits y) or x, z, y (thick: bit i % 3
 *    of 0, 1, 2), continuing the coordinates' bits where the micro block stopped.
 * The _X modes then XOR the bits above the 256-byte pipe interleave: P pipe bits
 * (min(block bits - 8, log2 pipes + log2 shader engines)) and after them B bank bits
 * (min(block bits - 8 - P, log2 banks)), each with higher bits of the same pattern (which
 * continues beyond the block: bits of the block's own coordinates). Thin: pipe bit i with
 * pattern bit 8 + 2P - 1 - i and slice bit P - 1 - i; bank bit i with pattern bit
 * 8 + P + 2B - 1 - i and slice bit P + B - 1 - i. Thick: pipe bit i with pattern bits
 * 8 + 3P - 1 - 2i and 8 + 3P - 2 - 2i; bank bit i likewise from 8 + P + 3B - 1 - 2i and
 * - 2 - 2i. Non-X modes have no XOR. The pipe interleave is 256 bytes on every gfx9. */
#include "isa/image.h"

#include <string.h>

enum { CX = IMG_SWZ_X, CY = IMG_SWZ_Y, CZ = IMG_SWZ_Z };
#define X(i) (CX | (i))
#define Y(i) (CY | (i))
#define Z(i) (CZ | (i))

/* the 256-byte micro block of thin S and D, bits from log2(element bytes) up */
static const uint8_t micro_s[5][8] = {
  {X(0), X(1), X(2), X(3), Y(0), Y(1), Y(2), Y(3)},
  {X(0), X(1), X(2), Y(0), Y(1), Y(2), X(3)},
  {X(0), X(1), Y(0), Y(1), Y(2), X(2)},
  {X(0), Y(0), Y(1), X(1), X(2)},
  {Y(0), Y(1), X(0), X(1)},
};
static const uint8_t micro_d[5][8] = {
  {X(0), X(1), X(2), Y(1), Y(0), Y(2), X(3), Y(3)},
  {X(0), X(1), X(2), Y(0), Y(1), Y(2), X(3)},
  {X(0), X(1), Y(0), X(2), Y(1), Y(2)},
  {X(0), Y(0), X(1), X(2), Y(1)},
  {X(0), Y(0), X(1), Y(1)},
};
/* the 1 KiB micro block of thick Z and S */
static const uint8_t micro3_z[5][10] = {
  {X(0), Y(0), X(1), Y(1), Z(0), Z(1), X(2), Z(2), Y(2), X(3)},
  {X(0), Y(0), X(1), Y(1), Z(0), Z(1), Z(2), Y(2), X(2)},
  {X(0), Y(0), X(1), Z(0), Y(1), Z(1), Y(2), X(2)},
  {X(0), Y(0), Z(0), X(1), Z(1), Y(1), X(2)},
  {X(0), Y(0), Z(0), Z(1), Y(1), X(1)},
};
static const uint8_t micro3_s[5][10] = {
  {X(0), X(1), X(2), X(3), Y(0), Y(1), Z(0), Z(1), Z(2), Y(2)},
  {X(0), X(1), X(2), Y(0), Y(1), Z(0), Z(1), Z(2), Y(2)},
  {X(0), X(1), Y(0), Y(1), Z(0), Z(1), Y(2), X(2)},
  {X(0), Y(0), Y(1), Z(0), Z(1), X(1), X(2)},
  {Y(0), Y(1), Z(0), Z(1), X(0), X(1)},
};

enum kind { K_Z, K_S, K_D };

bool img_swizzle_init(struct img_swizzle *s, uint32_t gb_addr_config, unsigned sw_mode,
                      bool tex3d, unsigned bytes)
{
  memset(s, 0, sizeof *s);
  unsigned e;
  switch (bytes) {
  case 1: e = 0; break;
  case 2: e = 1; break;
  case 4: e = 2; break;
  case 8: e = 3; break;
  case 16: e = 4; break;
  default: return false;
  }
  /* 4/5/6 SW_4KB_Z/S/D, 8/9/10 SW_64KB_Z/S/D, 20/21/22 and 24/25/26 their _X forms */
  bool xor_ = sw_mode >= 20;
  unsigned m = xor_ ? sw_mode - 16 : sw_mode;
  if (m < 4 || m > 10 || m == 7)
    return false;
  s->block_log2 = m < 8 ? 12 : 16;
  enum kind k = (enum kind)((m - 4) % 4);
  s->thick = tex3d && k != K_D;

  uint8_t pat[32];
  memset(pat, 0, sizeof pat);
  unsigned xi = 0, yi = 0, zi = 0, low;
  if (s->thick) {
    const uint8_t *mb = k == K_Z ? micro3_z[e] : micro3_s[e];
    for (unsigned i = e; i < 10; i++)
      pat[i] = mb[i - e];
    low = 10;
  } else if (k == K_Z) {
    if (e > 3)
      return false;   /* addrlib has no thin Z equation for 16-byte elements */
    for (unsigned i = e; i < 6; i++)
      pat[i] = ((i - e) & 1) ? Y(yi++) : X(xi++);
    low = 6;
  } else {
    /* a 3D image's thin D blocks take the standard micro block (addrlib counts D as S for
     * 3D resources) */
    const uint8_t *mb = k == K_S || tex3d ? micro_s[e] : micro_d[e];
    for (unsigned i = e; i < 8; i++)
      pat[i] = mb[i - e];
    low = 8;
  }
  if (low != 6) {   /* continue each coordinate after the micro block's highest bit */
    for (unsigned i = e; i < low; i++) {
      unsigned c = pat[i] & 0xe0, n = (pat[i] & 31u) + 1;
      if (c == CX && n > xi) xi = n;
      if (c == CY && n > yi) yi = n;
      if (c == CZ && n > zi) zi = n;
    }
  }
  for (unsigned i = low; i < 32; i++) {
    if (s->thick)
      pat[i] = i % 3 == 0 ? X(xi++) : i % 3 == 1 ? Z(zi++) : Y(yi++);
    else
      pat[i] = (i & 1) ? X(xi++) : Y(yi++);
  }
  for (unsigned i = 0; i < s->block_log2; i++) {
    s->src[i] = pat[i];
    unsigned c = pat[i] & 0xe0;
    if (c == CX) s->bw_log2++;
    if (c == CY) s->bh_log2++;
    if (c == CZ) s->bd_log2++;
  }
  if (xor_) {
    unsigned pipes = gb_addr_config & 7, se = (gb_addr_config >> 19) & 3;
    unsigned banks = (gb_addr_config >> 12) & 7;
    unsigned avail = s->block_log2 - 8;
    unsigned P = pipes + se < avail ? pipes + se : avail;
    unsigned B = banks < avail - P ? banks : avail - P;
    for (unsigned i = 0; i < P; i++) {
      if (s->thick) {
        s->xa[8 + i] = pat[8 + 3 * P - 1 - 2 * i];
        s->xb[8 + i] = pat[8 + 3 * P - 2 - 2 * i];
      } else {
        s->xa[8 + i] = pat[8 + 2 * P - 1 - i];
        s->xb[8 + i] = (uint8_t)Z(P - 1 - i);
      }
    }
    unsigned b0 = 8 + P;
    for (unsigned i = 0; i < B; i++) {
      if (s->thick) {
        s->xa[b0 + i] = pat[b0 + 3 * B - 1 - 2 * i];
        s->xb[b0 + i] = pat[b0 + 3 * B - 2 - 2 * i];
      } else {
        s->xa[b0 + i] = pat[b0 + 2 * B - 1 - i];
        s->xb[b0 + i] = (uint8_t)Z(P + B - 1 - i);
      }
    }
  }
  return true;
}

static unsigned bit_of(uint8_t code, unsigned x, unsigned y, unsigned z)
{
  unsigned i = code & 31u;
  switch (code & 0xe0) {
  case CX: return x >> i & 1;
  case CY: return y >> i & 1;
  case CZ: return z >> i & 1;
  default: return 0;
  }
}

uint64_t img_swizzle_offset(const struct img_swizzle *s, unsigned x, unsigned y, unsigned z,
                            unsigned pitch, unsigned height)
{
  const struct img_swizzle_level lv = {pitch, height, 0, 0, 0, 0};
  return img_swizzle_offset_level(s, &lv, x, y, z);
}

static unsigned up_to(unsigned v, unsigned log2)
{
  return (v + (1u << log2) - 1) >> log2 << log2;
}

static unsigned half_up(unsigned v) { return (v >> 1) + (v & 1); }
static unsigned half_1(unsigned v) { return v > 1 ? v >> 1 : 1; }

/* The chain (facts from addrlib's numbers):
 * - the mip tail holds the first level that fits in it (thin: half the block width by the
 *   block height; thick: the block halved in height for 4 KiB blocks, in width for 64 KiB)
 *   and every later one, in one block; the fit is tested on level 0's own size, then on the
 *   sizes rounded up to blocks and halved. A chain whose level 0 fits is that one block.
 * - otherwise level 0's extent in blocks W x H x D picks the major direction: Y when W < H,
 *   else X (thick blocks: Y also needs H >= D and X W >= D, else Z). Level 1 lies across it
 *   (Y major: right of level 0, else below), the rectangle growing by level 1's blocks (half
 *   of level 0's, rounded up; 2 when that is 1 and the tail begins after level 2); levels
 *   2, 4, 5, ... follow along the major direction, level 3 across again, each step the size
 *   of the level before (halved, rounded up, per level). The level after one of 1 x 1..2
 *   blocks (thin 4/64 KiB; thick: by block size) begins the tail where it would lie.
 * - level k of the tail (0 its first) sits at byte blocksize / 2^(k+1) of the block while
 *   that is 2 KiB or more, then at 6, 5, 4, 3, 2, 1, 0 x 256: its own coordinates through the
 *   block's equation, that offset XORed in. */
void img_swizzle_chain(const struct img_swizzle *s, unsigned w, unsigned h, unsigned n,
                       bool tex3d, unsigned levels, unsigned level, struct img_swizzle_level *out)
{
  unsigned bw = 1u << s->bw_log2, bh = 1u << s->bh_log2, bd = 1u << s->bd_log2;
  unsigned tw = bw, th = bh, td = bd;
  if (!s->thick)
    tw >>= 1;
  else if (s->block_log2 % 3 == 0)
    th >>= 1;
  else if (s->block_log2 % 3 == 1)
    tw >>= 1;
  else
    td >>= 1;
  unsigned p0 = up_to(w, s->bw_log2), h0 = up_to(h, s->bh_log2);
  unsigned slices = s->thick ? up_to(n, s->bd_log2) : n;
  unsigned first = levels, mw = w, mh = h, md = tex3d ? n : 1;
  for (unsigned i = 0; i < levels; i++) {
    if (mw <= tw && mh <= th && (!s->thick || md <= td)) {
      first = i;
      break;
    }
    mw = half_1(up_to(mw, s->bw_log2));
    mh = half_1(up_to(mh, s->bh_log2));
    md = tex3d ? half_1(s->thick ? up_to(md, s->bd_log2) : md) : 1;
  }
  unsigned ending = first < levels - 1 ? first : levels - 1;
  memset(out, 0, sizeof *out);
  out->pitch = p0;
  out->height = h0;
  unsigned tail_from = levels;
  if (levels > 1 && ending == 0) {
    tail_from = 0;
  } else if (levels > 1) {
    unsigned wb = p0 / bw, hb = h0 / bh, db = slices / bd;
    bool ymaj = wb < hb, xmaj = !ymaj;
    if (s->thick) {
      ymaj = ymaj && hb >= db;
      xmaj = xmaj && wb >= db;
    }
    unsigned m1 = half_up(ymaj ? wb : hb);
    if (m1 == 1 && ending > 2)
      m1++;
    if (ymaj)
      out->pitch += m1 * bw;
    else
      out->height += m1 * bh;
    for (unsigned i = 1; i <= level; i++) {
      if (i == 1 || i == 3) {
        if (ymaj)
          out->pos_w += wb;
        else
          out->pos_h += hb;
      } else if (xmaj) {
        out->pos_w += wb;
      } else if (ymaj) {
        out->pos_h += hb;
      } else {
        out->pos_d += db;
      }
      bool in_tail;
      if (s->thick) {
        unsigned dim = s->block_log2 % 3;
        in_tail = dim == 0 ? wb <= 2 && hb == 1 && db <= 2
                : dim == 1 ? wb == 1 && hb <= 2 && db <= 2
                           : wb <= 2 && hb <= 2 && db == 1;
      } else {
        in_tail = (s->block_log2 & 1) ? wb <= 2 && hb == 1 : wb == 1 && hb <= 2;
      }
      if (in_tail) {
        tail_from = i;
        break;
      }
      wb = half_up(wb);
      hb = half_up(hb);
      db = half_up(db);
    }
  }
  if (levels > 1 && level >= tail_from) {
    unsigned v = level - tail_from + 20 - s->block_log2;
    out->tail = (v <= 8 ? 2048u >> v : v <= 15 ? 15u - v : 0) << 8;
  }
}

uint64_t img_swizzle_offset_level(const struct img_swizzle *s, const struct img_swizzle_level *lv,
                                  unsigned x, unsigned y, unsigned z)
{
  unsigned pitch = lv->pitch, height = lv->height;
  uint64_t in_block = 0;
  for (unsigned i = 0; i < s->block_log2; i++) {
    unsigned b = bit_of(s->src[i], x, y, z) ^ bit_of(s->xa[i], x, y, z) ^
                 bit_of(s->xb[i], x, y, z);
    in_block |= (uint64_t)b << i;
  }
  in_block = (in_block ^ lv->tail) & ((1ull << s->block_log2) - 1);
  uint64_t bw = 1u << s->bw_log2, bh = 1u << s->bh_log2;
  uint64_t row = (pitch + bw - 1) / bw, rows = (height + bh - 1) / bh;
  uint64_t zb = (s->thick ? z >> s->bd_log2 : z) + lv->pos_d;
  uint64_t block = (zb * rows + (y >> s->bh_log2) + lv->pos_h) * row + (x >> s->bw_log2) + lv->pos_w;
  return (block << s->block_log2) | in_block;
}
