/* SPDX-License-Identifier: MIT */
/* Host reference for subgroups_amd.cl: work-groups of 128, waves (sub-groups) of
 * kc_wave_size lanes (64, or 32 for a wave32 RDNA code object), the grid's last work-group
 * partial. */
#include "kcase.h"

static void ref(const struct kcase *c, void *const *b)
{
  const uint32_t *in = b[0];
  uint32_t *out = b[1];
  uint32_t n = c->grid[0], wg = c->wg[0], ws = kc_wave_size;
  for (uint32_t g0 = 0; g0 < n; g0 += wg) {
    uint32_t lsize = n - g0 < wg ? n - g0 : wg, nsg = (lsize + ws - 1) / ws;
    for (uint32_t s = 0; s < nsg; s++) {
      uint32_t base = g0 + s * ws, size = lsize - s * ws < ws ? lsize - s * ws : ws;
      uint32_t sum = 0, mn = 0xffffffffu, mx = 0, any = 0, all = 1;
      for (uint32_t l = 0; l < size; l++) {
        uint32_t x = in[base + l] & 0xffff;
        sum += x; mn = x < mn ? x : mn; mx = x > mx ? x : mx;
        any |= x > 0xfff0u; all &= x != 0;
      }
      uint32_t run = 0, runmax = 0;
      for (uint32_t l = 0; l < size; l++) {
        uint32_t x = in[base + l] & 0xffff, *o = out + (size_t)(base + l) * 8;
        run += x;
        o[0] = sum; o[1] = run; o[2] = runmax;
        o[3] = in[base + 7] & 0xffff;
        o[4] = any | all << 1;
        o[5] = l | s << 8 | nsg << 16;
        o[6] = size | ws << 8;
        o[7] = mn ^ mx << 16;
        runmax = x > runmax ? x : runmax;
      }
    }
  }
}

/* Some waves have a zero or a large value, so any/all are not constant. */
static void fix(const struct kcase *c, void *const *b)
{
  uint32_t *in = b[0];
  for (size_t i = 0; i < c->bufs[0].count; i += 150) in[i] = 0;
  for (size_t i = 77; i < c->bufs[0].count; i += 211) in[i] = 0xfffffu;
}

#define NG 500
static const struct kcase cases[] = {
  { .name = "subgroups", .source = "subgroups_amd.cl", .kernel = "subgroups", .dims = 1,
    .grid = {NG}, .wg = {128}, .nbufs = 2,
    .bufs = { KC_IN(KC_U32, NG, KC_RAND, 0, 0), KC_OUT(KC_U32, NG * 8, 0) },
    .nargs = 3, .args = { KC_BUF(0), KC_BUF(1), KC_U32(NG) }, .ref = ref, .fixup = fix, .seed = 18 },
};
KC_REGISTER(cases)
