/* SPDX-License-Identifier: MIT */
/* image_format.c — the image resource and sampler descriptors (gfx9 field layouts) and the
 * texel formats: DATA_FORMAT (bit widths of the components) x NUM_FORMAT (how they read). */
#include "isa/image.h"
#include "isa/gfx11.h"

#include <math.h>
#include <string.h>

static unsigned bits(uint32_t v, unsigned lo, unsigned n) { return (v >> lo) & ((1u << n) - 1); }

void img_tsharp_decode(const uint32_t d[8], struct img_tsharp *t)
{
  memset(t, 0, sizeof *t);
  t->base = ((uint64_t)d[0] << 8) | ((uint64_t)bits(d[1], 0, 8) << 40);
  t->min_lod = bits(d[1], 8, 12);
  t->dfmt = bits(d[1], 20, 6);
  t->nfmt = bits(d[1], 26, 4);
  t->width = bits(d[2], 0, 14) + 1;
  t->height = bits(d[2], 14, 14) + 1;
  for (unsigned i = 0; i < 4; i++)
    t->dst_sel[i] = bits(d[3], 3 * i, 3);
  t->base_level = bits(d[3], 12, 4);
  t->last_level = bits(d[3], 16, 4);
  t->sw_mode = bits(d[3], 20, 5);
  t->type = bits(d[3], 28, 4);
  t->depth = bits(d[4], 0, 13) + 1;
  t->pitch = bits(d[4], 13, 16) + 1;
  t->base_array = bits(d[5], 0, 13);
  t->max_mip = bits(d[5], 28, 4);
  switch (t->type) {
  case IMG_TYPE_1D: t->coords = 1; t->height = 1; t->depth = 1; break;
  case IMG_TYPE_1D_ARRAY: t->coords = 2; t->height = 1; t->array = true; break;
  case IMG_TYPE_2D: case IMG_TYPE_2D_MSAA: t->coords = 2; t->depth = 1; break;
  case IMG_TYPE_2D_ARRAY: case IMG_TYPE_2D_MSAA_ARRAY: t->coords = 3; t->array = true; break;
  default: t->coords = 3; break;   /* 3D, cube (face as the third) */
  }
}

void img_ssharp_decode(const uint32_t d[4], struct img_ssharp *s)
{
  memset(s, 0, sizeof *s);
  for (unsigned i = 0; i < 3; i++)
    s->clamp[i] = bits(d[0], 3 * i, 3);
  s->depth_compare = bits(d[0], 12, 3);
  s->force_unnorm = bits(d[0], 15, 1);
  s->min_lod = bits(d[1], 0, 12);
  s->max_lod = bits(d[1], 12, 12);
  s->lod_bias = (int)(bits(d[2], 0, 14) << 18) >> 18;
  s->mag_filter = bits(d[2], 20, 2);
  s->min_filter = bits(d[2], 22, 2);
  s->z_filter = bits(d[2], 24, 2);
  s->mip_filter = bits(d[2], 26, 2);
  s->border_type = bits(d[3], 30, 2);
}

void img_tsharp_decode_gfx11(const uint32_t d[8], struct img_tsharp *t)
{
  uint32_t g9[8] = {d[0], bits(d[1], 0, 8), 0, d[3], 0, 0, 0, 0};
  img_tsharp_decode(g9, t);   /* base, dst_sel, levels, sw_mode, type, then ours below */
  unsigned u = bits(d[1], 20, 8);
  if (u < 64) {
    uint8_t df, nf;
    g11_unified_format(u, &df, &nf);
    t->dfmt = df;
    t->nfmt = nf;
  } else {   /* 64.. the image-only formats: sRGB and the packed 16-bit ones */
    static const uint8_t df[8] = {1, 3, 10, 0, 16, 17, 18, 19};
    t->dfmt = u < 72 ? df[u - 64] : 0;
    t->nfmt = u < 67 ? 9 : 0;
  }
  t->min_lod = 0;
  t->width = (bits(d[1], 30, 2) | bits(d[2], 0, 12) << 2) + 1;
  t->height = bits(d[2], 14, 14) + 1;
  t->depth = bits(d[4], 0, 13) + 1;
  t->base_array = bits(d[4], 16, 13);
  t->max_mip = bits(d[1], 16, 4);
  t->rdna_chain = true;
  t->pitch = 0;
  if (t->type == IMG_TYPE_1D || t->type == IMG_TYPE_1D_ARRAY)
    t->height = 1;
  if (t->type == IMG_TYPE_1D || t->type == IMG_TYPE_2D || t->type == IMG_TYPE_2D_MSAA) {
    if (bits(d[4], 0, 14) + 1 >= t->width)
      t->pitch = bits(d[4], 0, 14) + 1;
    t->depth = 1;
  }
}

void img_ssharp_decode_gfx11(const uint32_t d[4], struct img_ssharp *s)
{
  img_ssharp_decode(d, s);
  s->lod_bias = 0;
}

/* gfx10+'s LINEAR chain: level i at its own pitch (ceil(W / 2^i) rounded up to 256-byte rows),
 * ceil(H / 2^i) rows, the smallest level first */
static uint64_t level_bytes_rdna(const struct img_tsharp *t, unsigned bytes, unsigned i)
{
  unsigned w = (t->width + (1u << i) - 1) >> i, h = (t->height + (1u << i) - 1) >> i;
  return (uint64_t)img_linear_pitch(w, bytes) * bytes * h;
}

/* width in elements rounded up so that a row is a multiple of 128 bytes (gfx12's pitch) */
static unsigned pitch_128(unsigned width, unsigned bytes)
{
  unsigned a = 128;
  while (a > 1 && bytes % 2 == 0) {
    bytes /= 2;
    a /= 2;
  }
  return (width + a - 1) / a * a;
}

static void level_select_rdna(struct img_tsharp *t, unsigned bytes, unsigned level, unsigned last)
{
  uint64_t chain = 0, before = 0;
  for (unsigned i = last + 1; i-- > 0;) {
    if (i == level)
      before = chain;
    chain += level_bytes_rdna(t, bytes, i);
  }
  t->slice_bytes = chain;
  t->base += before;
  unsigned w = (t->width + (1u << level) - 1) >> level;
  t->pitch = t->gfx12_rows ? pitch_128(w, bytes) : img_linear_pitch(w, bytes);
  t->width = t->width >> level ? t->width >> level : 1;
  t->height = t->height >> level ? t->height >> level : 1;
  if (t->type == IMG_TYPE_3D)
    t->depth = t->depth >> level ? t->depth >> level : 1;
}

void img_level_select(struct img_tsharp *t, unsigned bytes, unsigned level)
{
  unsigned last = t->max_mip > t->last_level ? t->max_mip : t->last_level;
  if (t->swz && last) {   /* gfx9 tiled chain: the level's blocks in the chain (image_swizzle.c) */
    img_swizzle_chain(t->swz, t->width, t->height, t->depth, t->type == IMG_TYPE_3D, last + 1,
                      level, &t->swl);
    t->swz_chain = true;
    t->width = t->width >> level ? t->width >> level : 1;
    t->height = t->height >> level ? t->height >> level : 1;
    if (t->type == IMG_TYPE_3D)
      t->depth = t->depth >> level ? t->depth >> level : 1;
    return;
  }
  if (t->swz)   /* one tiled level: its blocks from the base, at the pitch exec_mimg.c set */
    return;
  bool custom_pitch = t->type == IMG_TYPE_1D || t->type == IMG_TYPE_2D || t->type == IMG_TYPE_2D_MSAA;
  if (t->rdna_chain && (last || (t->gfx12_rows && !custom_pitch))) {
    level_select_rdna(t, bytes, level, last);
    return;
  }
  uint64_t rows = 0, before = 0;
  for (unsigned i = 0; i <= last; i++) {
    uint64_t r = ((uint64_t)t->height + (1u << i) - 1) >> i;   /* ceil(H / 2^i) */
    if (i == level) before = rows;
    rows += r;
  }
  uint64_t row_bytes = (uint64_t)t->pitch * bytes;
  t->slice_bytes = rows * row_bytes;
  t->base += before * row_bytes;
  if (level) {
    t->width = t->width >> level ? t->width >> level : 1;
    t->height = t->height >> level ? t->height >> level : 1;
    if (t->type == IMG_TYPE_3D)
      t->depth = t->depth >> level ? t->depth >> level : 1;
  }
}

unsigned img_linear_pitch(unsigned width, unsigned bytes)
{
  unsigned a = 256;
  while (a > 1 && bytes % 2 == 0) {   /* 256 / gcd(256, bytes) elements */
    bytes /= 2;
    a /= 2;
  }
  return (width + a - 1) / a * a;
}

bool img_fmt_of(unsigned dfmt, unsigned nfmt, struct img_fmt *f)
{
  /* component widths from the least significant bits; the names list the most significant
   * first (2_10_10_10 is X in bits 9:0 ... W in 31:30) */
  static const struct { unsigned char comps, b[4]; } t[20] = {
    [1] = {1, {8}}, [2] = {1, {16}}, [3] = {2, {8, 8}}, [4] = {1, {32}}, [5] = {2, {16, 16}},
    [6] = {3, {11, 11, 10}}, [7] = {3, {10, 11, 11}}, [8] = {4, {2, 10, 10, 10}},
    [9] = {4, {10, 10, 10, 2}}, [10] = {4, {8, 8, 8, 8}}, [11] = {2, {32, 32}},
    [12] = {4, {16, 16, 16, 16}}, [13] = {3, {32, 32, 32}}, [14] = {4, {32, 32, 32, 32}},
    [16] = {3, {5, 6, 5}}, [17] = {4, {5, 5, 5, 1}}, [18] = {4, {1, 5, 5, 5}},
    [19] = {4, {4, 4, 4, 4}},
  };
  memset(f, 0, sizeof *f);
  if (dfmt >= 20 || !t[dfmt].comps)
    return false;
  if (nfmt == 6 || nfmt == 8 || nfmt > 9)
    return false;
  unsigned sh = 0;
  for (unsigned i = 0; i < t[dfmt].comps; i++) {
    f->bits[i] = t[dfmt].b[i];
    f->shift[i] = sh;
    sh += f->bits[i];
    /* floats exist as 16 and 32 bits only here (the 10/11-bit floats are not modelled) */
    if (nfmt == 7 && f->bits[i] != 16 && f->bits[i] != 32)
      return false;
    if (nfmt == 9 && f->bits[i] != 8)   /* sRGB: 8-bit components */
      return false;
  }
  f->comps = t[dfmt].comps;
  f->bytes = sh / 8;
  f->nfmt = nfmt;
  f->is_int = nfmt == 4 || nfmt == 5;
  return true;
}

static uint32_t fbits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static float ffrom(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }

float img_f16_to_f32(uint16_t h)
{
  unsigned e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY)
                                                     : ldexpf((float)(m | 1024), (int)e - 25);
  return (h & 0x8000) ? -v : v;
}

uint16_t img_f32_to_f16(float x)
{
  uint32_t u = fbits(x), s = (u >> 16) & 0x8000, m = u & 0x7fffff;
  int e = (int)((u >> 23) & 0xff) - 127 + 15;
  if (((u >> 23) & 0xff) == 0xff)
    return (uint16_t)(s | 0x7c00 | (m ? 0x200 : 0));
  if (e >= 31)
    return (uint16_t)(s | 0x7c00);
  if (e <= 0) {
    if (e < -10)
      return (uint16_t)s;
    m |= 0x800000;
    uint32_t sh = (uint32_t)(14 - e), r = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    if (rem > half || (rem == half && (r & 1)))
      r++;
    return (uint16_t)(s | r);
  }
  uint32_t r = (uint32_t)e << 10 | m >> 13, rem = m & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (r & 1)))
    r++;
  return (uint16_t)(s | r);
}

static float srgb_to_linear(float c)
{
  return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static float linear_to_srgb(float c)
{
  if (!(c > 0.0031308f))
    return c > 0 ? c * 12.92f : 0;
  return 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

static uint64_t load_bits(const uint8_t *p, unsigned lo, unsigned n)
{
  uint64_t v = 0;
  unsigned first = lo / 8, last = (lo + n - 1) / 8;
  for (unsigned b = last + 1; b-- > first;)
    v = v << 8 | p[b];
  v >>= lo % 8;
  return n >= 64 ? v : v & ((1ull << n) - 1);
}

static void store_bits(uint8_t *p, unsigned lo, unsigned n, uint64_t v)
{
  for (unsigned i = 0; i < n; i++) {
    unsigned b = lo + i;
    p[b / 8] = (uint8_t)((p[b / 8] & ~(1u << (b % 8))) | (((v >> i) & 1) << (b % 8)));
  }
}

void img_decode(const struct img_fmt *f, const uint8_t *texel, uint32_t out[4])
{
  bool fl = !f->is_int;
  out[0] = out[1] = out[2] = 0;
  out[3] = fl ? fbits(1.0f) : 1;
  for (unsigned i = 0; i < f->comps; i++) {
    unsigned n = f->bits[i];
    uint32_t raw = (uint32_t)load_bits(texel, f->shift[i], n);
    uint32_t max = n == 32 ? 0xffffffffu : (1u << n) - 1;
    int32_t sv = n == 32 ? (int32_t)raw : (int32_t)(raw << (32 - n)) >> (32 - n);
    uint32_t v;
    switch (f->nfmt) {
    case 0: v = fbits((float)raw / (float)max); break;                         /* UNORM */
    case 1: { float x = (float)sv / (float)(max >> 1); v = fbits(x < -1.f ? -1.f : x); break; }
    case 2: v = fbits((float)raw); break;                                      /* USCALED */
    case 3: v = fbits((float)sv); break;                                       /* SSCALED */
    case 4: v = raw; break;                                                    /* UINT */
    case 5: v = (uint32_t)sv; break;                                           /* SINT */
    case 7: v = n == 16 ? fbits(img_f16_to_f32((uint16_t)raw)) : raw; break;   /* FLOAT */
    case 9: {                                                                  /* SRGB */
      float x = (float)raw / (float)max;
      v = fbits(i < 3 ? srgb_to_linear(x) : x);
      break;
    }
    default: v = raw; break;
    }
    out[i] = v;
  }
}

static uint32_t norm_to(float x, float lo, unsigned scale)
{
  if (x != x) x = 0;
  if (x < lo) x = lo;
  if (x > 1) x = 1;
  return (uint32_t)(int32_t)rintf(x * (float)scale);
}

void img_encode(const struct img_fmt *f, const uint32_t in[4], uint8_t *texel)
{
  for (unsigned i = 0; i < f->comps; i++) {
    unsigned n = f->bits[i];
    uint32_t max = n == 32 ? 0xffffffffu : (1u << n) - 1;
    float x = ffrom(in[i]);
    uint64_t raw;
    switch (f->nfmt) {
    case 0: raw = norm_to(x, 0, max); break;
    case 1: raw = norm_to(x, -1, max >> 1) & max; break;
    case 2: case 3: {   /* scaled: the integer, kept in range of the conversion */
      float r = rintf(x);
      r = r != r ? 0 : r < -2147483648.0f ? -2147483648.0f : r > 2147483520.0f ? 2147483520.0f : r;
      raw = (uint32_t)(int32_t)r & max;
      break;
    }
    case 4: raw = in[i] > max ? max : in[i]; break;                            /* saturate */
    case 5: {
      int32_t v = (int32_t)in[i], hi = (int32_t)(max >> 1), lo = -hi - 1;
      raw = (uint32_t)(v > hi ? hi : v < lo ? lo : v) & max;
      break;
    }
    case 7: raw = n == 16 ? img_f32_to_f16(x) : in[i]; break;
    case 9: raw = norm_to(i < 3 ? linear_to_srgb(x) : x, 0, max); break;
    default: raw = in[i] & max; break;
    }
    store_bits(texel, f->shift[i], n, raw);
  }
}
