/* SPDX-License-Identifier: MIT */
/* Host references for wave.hip: the 64-lane wave modelled lane by lane. */
#include <string.h>

#include "kcase.h"

static void ref_wave(const struct kcase *c, void *const *b)
{
  const uint32_t *in = b[0];
  uint32_t *out = b[1];
  uint64_t *masks = b[2];
  for (size_t w = 0; w < c->bufs[0].count / 64; w++) {
    const uint32_t *x = in + w * 64;
    uint64_t bal = 0, db = 0;
    int first8 = -1;
    for (int l = 0; l < 64; l++) {
      if (x[l] & 1) bal |= 1ull << l;
      if ((x[l] & 2) && (x[l] & 4)) db |= 1ull << l;
      if ((x[l] & 8) && first8 < 0) first8 = l;
    }
    uint32_t s[64], t[64];
    memcpy(s, x, sizeof s);
    for (int off = 32; off > 0; off >>= 1) {
      for (int l = 0; l < 64; l++) t[l] = s[l] + (l + off < 64 ? s[l + off] : s[l]);
      memcpy(s, t, sizeof s);
    }
    for (int l = 0; l < 64; l++) {
      uint32_t *o = out + (w * 64 + (size_t)l) * 9;
      o[0] = (uint32_t)l; o[1] = x[0]; o[2] = x[(l + 5) & 63]; o[3] = x[(l * 7) & 63];
      o[4] = x[l ^ 13]; o[5] = s[0];
      o[6] = (uint32_t)__builtin_popcountll(l ? bal & ((1ull << l) - 1) : 0);
      o[7] = (uint32_t)__builtin_popcountll(bal);
      o[8] = (x[l] & 8) ? x[first8] ^ 0x5a5a5a5au : 0;
      masks[(w * 64 + (size_t)l) * 2] = bal;
      masks[(w * 64 + (size_t)l) * 2 + 1] = (x[l] & 2) ? db : 0;
    }
  }
}

static void init_scan(const struct kcase *c, void *const *b)
{
  (void)c;
  ((uint32_t *)b[2])[2] = 0xffffffffu;
}

static void ref_scan(const struct kcase *c, void *const *b)
{
  const uint32_t *in = b[0];
  uint32_t *scan = b[1], *tot = b[2];
  tot[0] = 0; tot[1] = 0; tot[2] = 0xffffffffu;
  for (size_t g = 0; g < c->bufs[0].count / 256; g++) {
    uint32_t s = 0;
    for (size_t t = 0; t < 256; t++) { s += in[g * 256 + t] & 0xffff; scan[g * 256 + t] = s; }
    tot[0] += s;
    if (s > tot[1]) tot[1] = s;
    if (s < tot[2]) tot[2] = s;
  }
}

#define NW 512
#define NS 2048
static const struct kcase cases[] = {
  { .name = "hip_wave_ops", .source = "wave.hip", .kernel = "wave_ops", .dims = 1,
    .grid = {NW}, .wg = {128}, .nbufs = 3,
    .bufs = { KC_IN(KC_U32, NW, KC_RAND, 0, 0), KC_OUT(KC_U32, NW * 9, 0), KC_OUT(KC_U64, NW * 2, 0) },
    .nargs = 3, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2) }, .ref = ref_wave, .seed = 14 },
  { .name = "hip_block_scan", .source = "wave.hip", .kernel = "block_scan", .dims = 1,
    .grid = {NS}, .wg = {256}, .nbufs = 3,
    .bufs = { KC_IN(KC_U32, NS, KC_RAND, 0, 0), KC_OUT(KC_U32, NS, 0), KC_OUT(KC_U32, 3, 0) },
    .nargs = 3, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2) }, .ref = ref_scan, .fixup = init_scan,
    .seed = 15 },
};
KC_REGISTER(cases)
