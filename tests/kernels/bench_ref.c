/* SPDX-License-Identifier: MIT */
/* Host reference for bench.cl. */
#include "kcase.h"

static void ref_stride(const struct kcase *c, void *const *b)
{
  const uint32_t *in = b[0];
  uint32_t *sum = b[1];
  size_t n = c->grid[0], per = c->args[2].u;
  uint32_t s = 0;
  for (size_t k = 0; k < per; k++)
    for (size_t i = 0; i < n; i++) s += in[k * n + i] ^ (uint32_t)k;
  sum[0] = s;
}

#define STRIDE(nm, N, PER, bench_) \
  { .name = nm, .source = "bench.cl", .kernel = "reduce_stride", .dims = 1, .grid = {N}, .wg = {256}, \
    .nbufs = 2, .bufs = { KC_IN(KC_U32, (N) * (PER), KC_RAND, 0, 0), KC_OUT(KC_U32, 1, 0) }, \
    .nargs = 3, .args = { KC_BUF(0), KC_BUF(1), KC_U32(PER) }, .ref = ref_stride, .seed = 16, .bench = bench_ }

static const struct kcase cases[] = {
  STRIDE("reduce_stride", 1024, 5, 0),
  STRIDE("bench_reduce_stride", 1 << 16, 16, 1),
};
KC_REGISTER(cases)
