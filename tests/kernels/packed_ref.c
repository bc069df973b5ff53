/* SPDX-License-Identifier: MIT */
/* Host reference for packed.hip: half precision by hand (normal numbers only, which the
 * inputs guarantee), each result rounded once to nearest even from an exact double. */
#include <math.h>

#include "kcase.h"

static double half_value(uint32_t h)
{
  int e = (int)((h >> 10) & 31) - 15;
  double m = 1.0 + (double)(h & 1023) / 1024.0;
  return ((h >> 15) & 1 ? -1.0 : 1.0) * ldexp(m, e);
}

static uint32_t half_bits(double v)
{
  uint32_t sign = v < 0 ? 0x8000u : 0;
  int e;
  double m = frexp(fabs(v), &e);          /* 0.5 <= m < 1 */
  double r = nearbyint(ldexp(m, 11));     /* 11 significant bits, ties to even */
  if (r >= 2048.0) { r = 1024.0; e++; }
  return sign | (uint32_t)(e - 1 + 15) << 10 | ((uint32_t)r - 1024u);
}

/* Halves in +-[0.5, 2): sums, products and fma results are exact in double. */
static void fix(const struct kcase *c, void *const *b)
{
  for (unsigned k = 0; k < 3; k++) {
    uint32_t *p = b[k];
    for (size_t i = 0; i < c->bufs[k].count; i++) {
      uint32_t r = p[i], lo = (r & 0x83ffu) | ((r & 0x400u) ? 0x3800u : 0x3c00u);
      uint32_t hi = ((r >> 16) & 0x83ffu) | ((r & 0x4000000u) ? 0x3800u : 0x3c00u);
      p[i] = lo | hi << 16;
    }
  }
}

static void ref(const struct kcase *c, void *const *b)
{
  const uint32_t *a = b[0], *bb = b[1], *cc = b[2];
  uint32_t *out = b[3];
  int32_t *dots = b[4];
  for (size_t i = 0; i < c->bufs[0].count; i++) {
    uint32_t r[3] = {0, 0, 0};
    for (int h = 0; h < 32; h += 16) {
      double x = half_value(a[i] >> h & 0xffff), y = half_value(bb[i] >> h & 0xffff);
      double z = half_value(cc[i] >> h & 0xffff);
      r[0] |= half_bits(x + y) << h;
      r[1] |= half_bits(x * y) << h;
      r[2] |= half_bits(x * y + z) << h;
    }
    out[i * 3 + 0] = r[0]; out[i * 3 + 1] = r[1]; out[i * 3 + 2] = r[2];
    uint32_t s = cc[i];
    for (int k = 0; k < 32; k += 8)
      s += (uint32_t)((int32_t)(int8_t)(a[i] >> k) * (int32_t)(int8_t)(bb[i] >> k));
    dots[i * 2 + 0] = (int32_t)s;
    dots[i * 2 + 1] = (int32_t)(cc[i] + (a[i] & 0xffff) * (bb[i] & 0xffff) + (a[i] >> 16) * (bb[i] >> 16));
  }
}

#define NP 1024
static const struct kcase cases[] = {
  { .name = "hip_packed_ops", .source = "packed.hip", .kernel = "packed_ops", .dims = 1,
    .grid = {NP}, .wg = {256}, .nbufs = 5,
    .bufs = { KC_IN(KC_U32, NP, KC_RAND, 0, 0), KC_IN(KC_U32, NP, KC_RAND, 0, 0),
              KC_IN(KC_U32, NP, KC_RAND, 0, 0), KC_OUT(KC_U32, NP * 3, 0), KC_OUT(KC_I32, NP * 2, 0) },
    .nargs = 5, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2), KC_BUF(3), KC_BUF(4) },
    .ref = ref, .fixup = fix, .seed = 17 },
};
KC_REGISTER(cases)
