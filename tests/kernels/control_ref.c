/* SPDX-License-Identifier: MIT */
/* Host references for control.cl. */
#include <string.h>

#include "kcase.h"

static void ref_div(const struct kcase *c, void *const *b)
{
  const uint32_t *in = b[0];
  uint32_t *out = b[1];
  for (size_t i = 0; i < c->bufs[0].count; i++) {
    uint32_t x = in[i], r;
    if (x & 1) { r = x * 3u + 1u; if (x & 2) r ^= 0x55u; else r += 7u; } else r = x >> 1;
    uint32_t steps = 0, y = (x & 0xffffu) | 1u;
    while (y != 1u && steps < 400u) { y = (y & 1u) ? 3u * y + 1u : y >> 1; steps++; }
    uint32_t acc = 0;
    for (uint32_t k = 0; k < (x & 31u); k++) {
      if ((k ^ x) & 4u) continue;
      acc += k * x;
      if (acc > 0xc0000000u) break;
    }
    out[i * 4 + 0] = r; out[i * 4 + 1] = steps; out[i * 4 + 2] = acc;
    out[i * 4 + 3] = x % 5u == 0u ? 0 : x ^ (steps << 16);
  }
}

static void fix_div(const struct kcase *c, void *const *b)
{
  uint32_t *in = b[0];
  for (size_t i = 0; i < c->bufs[0].count; i += 7) in[i] = (uint32_t)i * 5u;   /* early returns */
}

static void ref_priv(const struct kcase *c, void *const *b)
{
  const uint32_t *in = b[0];
  uint32_t *out = b[1];
  for (size_t i = 0; i < c->bufs[0].count; i++) {
    uint32_t a[80], x = in[i];
    for (uint32_t k = 0; k < 80; k++) a[k] = x * k + (k ^ (uint32_t)i);
    uint32_t idx = x;
    for (uint32_t k = 0; k < 60; k++) {
      idx = idx * 1103515245u + 12345u;
      uint32_t j = (idx >> 16) % 80;
      a[j] += a[(j * 7u + k) % 80];
    }
    uint32_t s = 0;
    for (uint32_t k = 0; k < 80; k++) s = s * 31u + a[k];
    out[i] = s;
  }
}

static void ref_grid(const struct kcase *c, void *const *b)
{
  uint32_t *out = b[0];
  uint32_t n[3] = {1, 1, 1}, w[3] = {1, 1, 1};
  for (unsigned d = 0; d < c->dims; d++) { n[d] = c->grid[d]; w[d] = c->wg[d]; }
  for (uint32_t z = 0; z < n[2]; z++)
    for (uint32_t y = 0; y < n[1]; y++)
      for (uint32_t x = 0; x < n[0]; x++) {
        const uint32_t p[3] = {x, y, z};
        uint32_t l[3], g[3], s[3], ng[3];
        for (int d = 0; d < 3; d++) {
          g[d] = p[d] / w[d]; l[d] = p[d] % w[d];
          s[d] = n[d] - g[d] * w[d] < w[d] ? n[d] - g[d] * w[d] : w[d];
          ng[d] = (n[d] + w[d] - 1) / w[d];
        }
        uint32_t *o = out + ((z * n[1] + y) * n[0] + x) * 6;
        o[0] = x | y << 10 | z << 20;
        o[1] = l[0] | l[1] << 10 | l[2] << 20;
        o[2] = g[0] | g[1] << 10 | g[2] << 20;
        o[3] = s[0] | s[1] << 10 | s[2] << 20;
        o[4] = ng[0] | ng[1] << 10 | ng[2] << 20;
        o[5] = c->dims;
      }
}

static uint32_t mix(uint32_t x, uint32_t y, const uint32_t *tab)
{
  uint32_t h = x ^ 0x9e3779b9u;
  for (uint32_t k = 0; k < (y & 7u) + 1u; k++) h = (h << 5 | h >> 27) + tab[(h + k) & 15u];
  return h;
}

static void ref_call(const struct kcase *c, void *const *b)
{
  const uint32_t *in = b[0], *tab = b[1];
  uint64_t *out = b[2];
  for (size_t i = 0; i < c->bufs[0].count; i++) {
    uint32_t x = in[i];
    uint32_t h = (x & 1u) ? mix(x, (uint32_t)i, tab) : mix(x ^ 1u, x, tab);
    out[i] = ((uint64_t)h * x + (uint32_t)i) ^ ((uint64_t)x << 32);
  }
}

#define GRID(nm, d, gx, gy, gz, wx, wy, wz) \
  { .name = nm, .source = "control.cl", .kernel = "grid_ids", .dims = d, .grid = {gx, gy, gz}, \
    .wg = {wx, wy, wz}, .nbufs = 1, .bufs = { KC_OUT(KC_U32, (gx) * (gy) * (gz) * 6, 0) }, \
    .nargs = 4, .args = { KC_BUF(0), KC_U32(gx), KC_U32(gy), KC_U32(gz) }, .ref = ref_grid }

static const struct kcase cases[] = {
  { .name = "divergence", .source = "control.cl", .kernel = "divergence", .dims = 1,
    .grid = {1500}, .wg = {192}, .nbufs = 2,
    .bufs = { KC_IN(KC_U32, 1500, KC_RAND, 0, 0), KC_OUT(KC_U32, 1500 * 4, 0) },
    .nargs = 3, .args = { KC_BUF(0), KC_BUF(1), KC_U32(1500) }, .ref = ref_div, .fixup = fix_div,
    .seed = 11 },
  { .name = "private_array", .source = "control.cl", .kernel = "private_array", .dims = 1,
    .grid = {700}, .wg = {64}, .nbufs = 2,
    .bufs = { KC_IN(KC_U32, 700, KC_RAND, 0, 0), KC_OUT(KC_U32, 700, 0) },
    .nargs = 3, .args = { KC_BUF(0), KC_BUF(1), KC_U32(700) }, .ref = ref_priv, .seed = 12 },
  GRID("grid_1d", 1, 1000, 1, 1, 64, 1, 1),
  GRID("grid_2d", 2, 37, 29, 1, 8, 8, 1),
  GRID("grid_3d", 3, 13, 7, 5, 4, 4, 4),
  { .name = "call_fn", .source = "control.cl", .kernel = "call_fn", .dims = 1,
    .grid = {900}, .wg = {128}, .nbufs = 3,
    .bufs = { KC_IN(KC_U32, 900, KC_RAND, 0, 0), KC_IN(KC_U32, 16, KC_RAND, 0, 0), KC_OUT(KC_U64, 900, 0) },
    .nargs = 4, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2), KC_U32(900) }, .ref = ref_call, .seed = 13 },
};
KC_REGISTER(cases)
