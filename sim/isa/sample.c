/* SPDX-License-Identifier: MIT */
/* sample.c — the sampler: addressing modes (wrap, mirror, clamp to the last texel, border,
 * mirror once) and point / linear filtering over 1, 2 or 3 dimensions. Texel-space
 * coordinates become fixed point with IMG_FILTER_FRAC_BITS (8) fraction bits, rounded to
 * nearest, before a texel is picked (point: floor) or the weights are taken (linear: the
 * fraction of u - 0.5, so a multiple of 1/256): D3D's 8-bit sub-texel precision, which the
 * hardware meets (how it rounds is not documented; nearest is assumed). The blend runs in f32. The border colour is the S#'s
 * BORDER_COLOR_TYPE (transparent black, opaque black, opaque white; the register palette
 * reads as transparent black), given as the texel's four channels before dst_sel. gather4's
 * footprint (img_gather) is the bilinear one. */
#include "isa/image.h"

#include <math.h>
#include <string.h>

static uint32_t fbits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static float ffrom(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }

int img_address(unsigned mode, int i, int n)
{
  switch (mode) {
  case IMG_WRAP:
    return ((i % n) + n) % n;
  case IMG_MIRROR: {
    int m = i < 0 ? -1 - i : i;
    m %= 2 * n;
    return m >= n ? 2 * n - 1 - m : m;
  }
  case IMG_CLAMP_LAST:
    return i < 0 ? 0 : i >= n ? n - 1 : i;
  case IMG_MIRROR_ONCE_LAST: {
    int m = i < 0 ? -1 - i : i;
    return m >= n ? n - 1 : m;
  }
  case IMG_MIRROR_ONCE_HALF_BORDER: case IMG_MIRROR_ONCE_BORDER: {
    int m = i < 0 ? -1 - i : i;
    return m >= n ? -1 : m;
  }
  default:   /* the border modes */
    return i < 0 || i >= n ? -1 : i;
  }
}

static void border(const struct img_ssharp *s, bool is_int, uint32_t out[4])
{
  uint32_t one = is_int ? 1 : fbits(1.0f);
  out[0] = out[1] = out[2] = s->border_type == 2 ? one : 0;
  out[3] = s->border_type == 1 || s->border_type == 2 ? one : 0;
}

/* A texel-space coordinate in fixed point with IMG_FILTER_FRAC_BITS fraction bits, rounded
 * to nearest even (huge values and NaN kept as they are: ifloor clamps them). */
static float subtexel(float u)
{
  const float one = (float)(1 << IMG_FILTER_FRAC_BITS);
  return fabsf(u) < 1e6f ? rintf(u * one) / one : u;
}

/* Clamps huge coordinates so that floor() fits an int. */
static int ifloor(float x)
{
  if (!(x > -1e8f)) return -100000000;
  if (x > 1e8f) return 100000000;
  return (int)floorf(x);
}

int img_sample(const struct img_tsharp *t, const struct img_ssharp *s, const struct img_fmt *f,
               const float *c, int slice, bool linear, img_fetch_fn *fetch, void *ctx,
               uint32_t out[4])
{
  unsigned nd = t->coords - (t->array ? 1u : 0u);
  int size[3] = {(int)t->width, (int)t->height, (int)t->depth};
  if (f->is_int)
    linear = false;   /* integer texels are not filtered */
  int base[3] = {0, 0, 0};
  float w[3][2] = {{1, 0}, {1, 0}, {1, 0}};
  for (unsigned k = 0; k < nd; k++) {
    float q = subtexel(c[k]);
    if (!linear) {
      base[k] = ifloor(q);
      continue;
    }
    float u = q - 0.5f;   /* exact while |q| < 2^15 */
    base[k] = ifloor(u);
    float a = u - floorf(u);
    if (!(a >= 0 && a < 1)) a = 0;   /* NaN, or a coordinate ifloor clamped */
    w[k][0] = 1 - a;
    w[k][1] = a;
  }
  unsigned corners = linear ? 1u << nd : 1u;
  float acc[4] = {0, 0, 0, 0};
  for (unsigned q = 0; q < corners; q++) {
    int at[3] = {0, 0, slice};
    float wt = 1;
    bool out_of = false;
    for (unsigned k = 0; k < nd; k++) {
      unsigned b = (q >> k) & 1;
      int m = img_address(s->clamp[k], base[k] + (int)b, size[k]);
      if (m < 0) out_of = true;
      at[k] = m;
      wt *= w[k][b];
    }
    uint32_t tx[4];
    if (out_of) {
      border(s, f->is_int, tx);
    } else if (fetch(ctx, at[0], at[1], at[2], tx)) {
      return -1;
    }
    if (!linear) {
      memcpy(out, tx, sizeof tx);
      return 0;
    }
    if (wt == 0)
      continue;
    for (unsigned i = 0; i < 4; i++)
      acc[i] += wt * ffrom(tx[i]);
  }
  for (unsigned i = 0; i < 4; i++)
    out[i] = fbits(acc[i]);
  return 0;
}

int img_gather(const struct img_tsharp *t, const struct img_ssharp *s, const struct img_fmt *f,
               const float *c, int slice, img_fetch_fn *fetch, void *ctx, uint32_t out[4][4])
{
  int i0 = ifloor(subtexel(c[0]) - 0.5f), j0 = ifloor(subtexel(c[1]) - 0.5f);
  static const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
  for (unsigned k = 0; k < 4; k++) {
    int x = img_address(s->clamp[0], i0 + dx[k], (int)t->width);
    int y = img_address(s->clamp[1], j0 + dy[k], (int)t->height);
    if (x < 0 || y < 0)
      border(s, f->is_int, out[k]);
    else if (fetch(ctx, x, y, slice, out[k]))
      return -1;
  }
  return 0;
}
