/* SPDX-License-Identifier: MIT */
/* Host references for lds.cl; also the plain-C side of bench/isa_throughput. */
#include "kcase.h"

static void ref_vadd(const struct kcase *c, void *const *b)
{
  const float *x = b[0], *y = b[1];
  float *z = b[2];
  for (size_t i = 0; i < c->bufs[2].count; i++) z[i] = x[i] + y[i];
}

static void ref_reduce(const struct kcase *c, void *const *b)
{
  const uint32_t *in = b[0];
  uint32_t *part = b[1];
  size_t n = c->args[2].u;
  for (size_t g = 0; g < c->bufs[1].count; g++) {
    uint32_t s = 0;
    for (size_t i = g * 256; i < (g + 1) * 256 && i < n; i++) s += in[i] * 3u + (in[i] >> 7);
    part[g] = s;
  }
}

static void ref_transpose(const struct kcase *c, void *const *b)
{
  const float *in = b[0];
  float *out = b[1];
  size_t w = c->args[2].u, h = c->args[3].u;
  for (size_t y = 0; y < h; y++)
    for (size_t x = 0; x < w; x++) out[x * h + y] = in[y * w + x];
}

static void ref_matmul(const struct kcase *c, void *const *b)
{
  const float *A = b[0], *B = b[1];
  float *C = b[2];
  size_t m = c->args[3].u, n = c->args[4].u, k = c->args[5].u;
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < n; j++) C[i * n + j] = 0;
  for (size_t i = 0; i < m; i++)           /* i-k-j: the loop order -O2 vectorises */
    for (size_t t = 0; t < k; t++) {
      float a = A[i * k + t];
      for (size_t j = 0; j < n; j++) C[i * n + j] += a * B[t * n + j];
    }
}

#define UP(x, t) (((x) + (t) - 1) / (t) * (t))
#define VADD(nm, N, bench_) \
  { .name = nm, .source = "lds.cl", .kernel = "vadd", .dims = 1, .grid = {N}, .wg = {256}, \
    .nbufs = 3, .bufs = { KC_IN(KC_F32, N, KC_RAND, -100, 100), KC_IN(KC_F32, N, KC_RAND, -100, 100), \
                          KC_OUT(KC_F32, N, 0) }, \
    .nargs = 4, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2), KC_U32(N) }, .ref = ref_vadd, \
    .seed = 5, .bench = bench_ }
#define REDUCE(nm, N, bench_) \
  { .name = nm, .source = "lds.cl", .kernel = "reduce_lds", .dims = 1, .grid = {UP(N, 256)}, \
    .wg = {256}, .nbufs = 2, .bufs = { KC_IN(KC_U32, N, KC_RAND, 0, 0), KC_OUT(KC_U32, UP(N, 256) / 256, 0) }, \
    .nargs = 3, .args = { KC_BUF(0), KC_BUF(1), KC_U32(N) }, .ref = ref_reduce, .seed = 6, .bench = bench_ }
#define MATMUL(nm, M, N, K, bench_) \
  { .name = nm, .source = "lds.cl", .kernel = "matmul_tiled", .dims = 2, .grid = {UP(N, 16), UP(M, 16)}, \
    .wg = {16, 16}, .nbufs = 3, .bufs = { KC_IN(KC_F32, (M) * (K), KC_RANGE, -8, 8), \
                                          KC_IN(KC_F32, (K) * (N), KC_RANGE, -8, 8), KC_OUT(KC_F32, (M) * (N), 0) }, \
    .nargs = 6, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2), KC_U32(M), KC_U32(N), KC_U32(K) }, \
    .ref = ref_matmul, .seed = 7, .bench = bench_ }

static const struct kcase cases[] = {
  VADD("vadd", 3000, 0),
  REDUCE("reduce_lds", 5000, 0),
  { .name = "transpose", .source = "lds.cl", .kernel = "transpose", .dims = 2, .grid = {50, 37},
    .wg = {16, 16}, .nbufs = 2, .bufs = { KC_IN(KC_F32, 50 * 37, KC_RAND, -1, 1), KC_OUT(KC_F32, 50 * 37, 0) },
    .nargs = 4, .args = { KC_BUF(0), KC_BUF(1), KC_U32(50), KC_U32(37) }, .ref = ref_transpose, .seed = 8 },
  MATMUL("matmul_tiled", 40, 56, 35, 0),
  /* benchmark workloads (bench/isa_throughput.sh) */
  VADD("bench_vadd", 1 << 20, 1),
  REDUCE("bench_reduce", 1 << 20, 1),
  MATMUL("bench_matmul", 256, 256, 256, 1),
};
KC_REGISTER(cases)
