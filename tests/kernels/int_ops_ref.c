/* SPDX-License-Identifier: MIT */
/* Host references for int_ops.cl. */
#include "kcase.h"

static uint32_t rotl32(uint32_t x, uint32_t r) { r &= 31; return r ? (x << r) | (x >> (32 - r)) : x; }
static uint32_t clz32(uint32_t x) { return x ? (uint32_t)__builtin_clz(x) : 32; }
static uint64_t clz64(uint64_t x) { return x ? (uint64_t)__builtin_clzll(x) : 64; }

/* Divisors of every magnitude, never 0, and no INT_MIN / -1. */
static void fix32(const struct kcase *c, void *const *b)
{
  uint32_t *a = b[0], *d = b[1];
  for (size_t i = 0; i < c->bufs[1].count; i++) {
    d[i] >>= d[i] & 31;
    if (d[i] == 0) d[i] = 1;
    if (i % 17 == 0) a[i] = 0x80000000u;   /* edge values */
    if (i % 19 == 0) d[i] = 0xffffffffu;
    if (i % 23 == 0) a[i] = 0;
    if (a[i] == 0x80000000u && d[i] == 0xffffffffu) d[i] = 3;   /* undefined in C and OpenCL */
  }
}

static void ref32(const struct kcase *c, void *const *b)
{
  const uint32_t *a = b[0], *d = b[1];
  uint32_t *o = b[2];
  for (size_t i = 0; i < c->bufs[0].count; i++, o += 16) {
    uint32_t x = a[i], y = d[i];
    int32_t sx = (int32_t)x, sy = (int32_t)y;
    o[0] = x + y; o[1] = x - y; o[2] = x * y;
    o[3] = (uint32_t)(((uint64_t)x * y) >> 32);
    o[4] = (uint32_t)(((int64_t)sx * sy) >> 32);
    o[5] = x / y; o[6] = x % y;
    o[7] = (uint32_t)(sx / sy); o[8] = (uint32_t)(sx % sy);
    o[9] = x << (y & 31); o[10] = x >> (y & 31);
    o[11] = (uint32_t)(sx >> (y & 31));
    o[12] = (uint32_t)__builtin_popcount(x); o[13] = clz32(x);
    o[14] = rotl32(x, y);
    int64_t s = (int64_t)sx + sy;
    int32_t sat = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
    uint32_t ad = (uint32_t)(sx > sy ? (int64_t)sx - sy : (int64_t)sy - sx);
    uint32_t ha = (uint32_t)(((uint64_t)x + y) >> 1);
    o[15] = (uint32_t)sat ^ ad ^ (ha << 1);
  }
}

static void fix64(const struct kcase *c, void *const *b)
{
  uint64_t *a = b[0], *d = b[1];
  for (size_t i = 0; i < c->bufs[1].count; i++) {
    d[i] >>= d[i] & 63;
    if (d[i] == 0) d[i] = 1;
    if (i % 13 == 0) a[i] = 0x8000000000000000ull;
    if (i % 11 == 0) d[i] = 0xffffffffffffffffull;
    if (a[i] == 0x8000000000000000ull && d[i] == 0xffffffffffffffffull) d[i] = 5;
  }
}

static void ref64(const struct kcase *c, void *const *b)
{
  const uint64_t *a = b[0], *d = b[1];
  uint64_t *o = b[2];
  for (size_t i = 0; i < c->bufs[0].count; i++, o += 14) {
    uint64_t x = a[i], y = d[i];
    int64_t sx = (int64_t)x, sy = (int64_t)y;
    o[0] = x + y; o[1] = x - y; o[2] = x * y;
    o[3] = (uint64_t)(((unsigned __int128)x * y) >> 64);
    o[4] = (uint64_t)(((__int128)sx * sy) >> 64);
    o[5] = x / y; o[6] = x % y;
    o[7] = (uint64_t)(sx / sy); o[8] = (uint64_t)(sx % sy);
    o[9] = x << (y & 63); o[10] = x >> (y & 63);
    o[11] = (uint64_t)(sx >> (y & 63));
    o[12] = (uint64_t)__builtin_popcountll(x) | (clz64(x) << 8);
    o[13] = (uint64_t)(uint32_t)(x >> 32) * (uint32_t)y + (uint64_t)((int32_t)x < (int32_t)y);
  }
}

#define N32 1000
#define N64 700
static const struct kcase cases[] = {
  { .name = "int32_ops", .source = "int_ops.cl", .kernel = "int32_ops", .dims = 1,
    .grid = {N32}, .wg = {64}, .nbufs = 3,
    .bufs = { KC_IN(KC_U32, N32, KC_RAND, 0, 0), KC_IN(KC_U32, N32, KC_RAND, 0, 0),
              KC_OUT(KC_U32, N32 * 16, 0) },
    .nargs = 4, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2), KC_U32(N32) },
    .ref = ref32, .fixup = fix32, .seed = 1 },
  { .name = "int64_ops", .source = "int_ops.cl", .kernel = "int64_ops", .dims = 1,
    .grid = {N64}, .wg = {128}, .nbufs = 3,
    .bufs = { KC_IN(KC_U64, N64, KC_RAND, 0, 0), KC_IN(KC_U64, N64, KC_RAND, 0, 0),
              KC_OUT(KC_U64, N64 * 14, 0) },
    .nargs = 4, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2), KC_U32(N64) },
    .ref = ref64, .fixup = fix64, .seed = 2 },
};
KC_REGISTER(cases)
