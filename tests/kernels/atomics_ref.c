/* SPDX-License-Identifier: MIT */
/* Host references for atomics.cl. */
#include "kcase.h"

static void init32(const struct kcase *c, void *const *b)
{
  (void)c;
  uint32_t *red = b[4];
  for (size_t k = 0; k < 10; k++) red[k] = 0;
  red[1] = 0xffffffffu; red[3] = 0x7fffffffu; red[4] = 0x80000000u; red[6] = 0xffffffffu;
  red[8] = 0x12345678u;
}

static void ref32(const struct kcase *c, void *const *b)
{
  const uint32_t *in = b[0];
  uint32_t *counter = b[1], *slots = b[2], *hist = b[3], *red = b[4];
  size_t n = c->bufs[0].count;
  init32(c, b);
  counter[0] = (uint32_t)n;
  for (size_t k = 0; k < 64; k++) hist[k] = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t x = in[i];
    slots[i] = 1;
    hist[x & 63]++;
    red[0] += x;
    if (x < red[1]) red[1] = x;
    if (x > red[2]) red[2] = x;
    if ((int32_t)x < (int32_t)red[3]) red[3] = x;
    if ((int32_t)x > (int32_t)red[4]) red[4] = x;
    red[5] |= x & 0x0f0f0f0fu;
    red[6] &= x | 0x00ff00ffu;
    red[7] ^= x;
    red[8] -= x >> 4;
    if (x & 1) red[9] = 7;
  }
}

static void initcas(const struct kcase *c, void *const *b)
{
  (void)c;
  *(uint32_t *)b[1] = 1;
}

static void refcas(const struct kcase *c, void *const *b)
{
  const uint32_t *in = b[0];
  uint32_t *prod = b[1];
  uint64_t *sum = b[2];
  *prod = 1;
  sum[0] = sum[1] = 0;
  for (size_t i = 0; i < c->bufs[0].count; i++) {
    *prod *= in[i] * 2u + 1u;
    sum[0] += (uint64_t)in[i] << 20;
    sum[1] += (uint64_t)in[i] * in[i];
  }
}

static void ref_last(const struct kcase *c, void *const *b)
{
  const uint32_t *in = b[0];
  uint32_t *partial = b[1], *count = b[2], *result = b[3];
  size_t n = c->bufs[0].count, groups = c->bufs[1].count / 2;
  result[0] = result[1] = 0;
  for (size_t g = 0; g < groups; g++) {
    uint32_t s = 0, m = 0;
    for (size_t i = g * 64; i < (g + 1) * 64 && i < n; i++) {
      s += in[i];
      m = (in[i] >> 8) > m ? in[i] >> 8 : m;
    }
    partial[g * 2] = s; partial[g * 2 + 1] = m;
    result[0] += s;
    result[1] = m > result[1] ? m : result[1];
  }
  count[0] = (uint32_t)groups;
}

#define NA 2000
#define NL 5000
static const struct kcase cases[] = {
  { .name = "atomics32", .source = "atomics.cl", .kernel = "atomics32", .dims = 1,
    .grid = {NA}, .wg = {128}, .nbufs = 5,
    .bufs = { KC_IN(KC_U32, NA, KC_RAND, 0, 0), KC_OUT(KC_U32, 1, 0), KC_OUT(KC_U32, NA, 0),
              KC_OUT(KC_U32, 64, 0), KC_OUT(KC_U32, 10, 0) },
    .nargs = 6, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2), KC_BUF(3), KC_BUF(4), KC_U32(NA) },
    .ref = ref32, .fixup = init32, .seed = 9 },
  { .name = "atomic_cas", .source = "atomics.cl", .kernel = "atomic_cas", .dims = 1,
    .grid = {NA}, .wg = {64}, .nbufs = 3,
    .bufs = { KC_IN(KC_U32, NA, KC_RAND, 0, 0), KC_OUT(KC_U32, 1, 0), KC_OUT(KC_U64, 2, 0) },
    .nargs = 4, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2), KC_U32(NA) },
    .ref = refcas, .fixup = initcas, .seed = 10 },
  { .name = "last_group", .source = "atomics.cl", .kernel = "last_group", .dims = 1,
    .grid = {NL}, .wg = {64}, .nbufs = 4,
    .bufs = { KC_IN(KC_U32, NL, KC_RAND, 0, 0), KC_OUT(KC_U32, (NL + 63) / 64 * 2, 0),
              KC_OUT(KC_U32, 1, 0), KC_OUT(KC_U32, 2, 0) },
    .nargs = 5, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2), KC_BUF(3), KC_U32(NL) },
    .ref = ref_last, .seed = 19 },
};
KC_REGISTER(cases)
