/* SPDX-License-Identifier: MIT */
/* Host references for mfma.cl: D[b] = A[b] x B[b] + C[b] for each of the B blocks, in plain
 * C, row-major. The inputs are small integers (A, B in [-8, 8] for the 8-bit float forms,
 * [-16, 16] for the other float forms, [-128, 127] for i8; C in [-1000, 1000]), so every
 * product and every partial sum is an integer below 2^24 and exact in f32, whatever order
 * the hardware sums in: float results are compared bitwise (ulp 0). */
#include <string.h>

#include "kcase.h"

struct shape { const char *kernel; unsigned m, n, k, b, sparse; };

/* sparse kernels (mfma.cl's smf_*): the two positions of each group of 4 along K that row i
 * keeps, by (i + group) % 6 */
static const unsigned char smf_lo[6] = {0, 0, 0, 1, 1, 2}, smf_hi[6] = {1, 2, 3, 2, 3, 3};

static const struct shape shapes[] = {
  {"mf_f32_32x32x1", 32, 32, 1, 2}, {"mf_f32_4x4x1", 4, 4, 1, 16},
  {"mf_f16_32x32x8", 32, 32, 8, 1}, {"mf_f16_16x16x16", 16, 16, 16, 1},
  {"mf_bf16_16x16x16", 16, 16, 16, 1}, {"mf_i8_16x16x16", 16, 16, 16, 1},
  {"mf_bf16_32x32x2", 32, 32, 2, 2}, {"mf_i8_16x16x32", 16, 16, 32, 1},
  {"mf_xf32_16x16x8", 16, 16, 8, 1}, {"mf_fp8_16x16x32", 16, 16, 32, 1},
  {"mf_bf8fp8_32x32x16", 32, 32, 16, 1}, {"mf_f64_16x16x4", 16, 16, 4, 1},
  {"mf_f64_4x4x4", 4, 4, 4, 4}, {"smf_f16_16x16x32", 16, 16, 32, 1, 1},
};

static const struct shape *shape_of(const struct kcase *c)
{
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
    if (!strcmp(shapes[i].kernel, c->kernel))
      return &shapes[i];
  return NULL;
}

static void ref(const struct kcase *c, void *const *b)
{
  const struct shape *s = shape_of(c);
  if (!s)
    return;
  const int32_t *A = b[0], *B = b[1], *C = b[2];
  for (unsigned blk = 0; blk < s->b; blk++)
    for (unsigned i = 0; i < s->m; i++)
      for (unsigned j = 0; j < s->n; j++) {
        int64_t sum = C[(blk * s->m + i) * s->n + j];
        for (unsigned k = 0; k < s->k; k++) {
          unsigned p = (i + k / 4) % 6;
          if (s->sparse && k % 4 != smf_lo[p] && k % 4 != smf_hi[p])
            continue;   /* an element the sparse A does not hold: zero */
          sum += (int64_t)A[(blk * s->m + i) * s->k + k] * B[(blk * s->k + k) * s->n + j];
        }
        size_t o = (blk * s->m + i) * s->n + j;
        switch (c->bufs[3].type) {
        case KC_F32: ((float *)b[3])[o] = (float)sum; break;
        case KC_F64: ((double *)b[3])[o] = (double)sum; break;
        default: ((int32_t *)b[3])[o] = (int32_t)sum; break;
        }
      }
}

#define CASE(kern, M, N, K, B, lo, hi, out)                                                     \
  { .name = kern, .source = "mfma.cl", .kernel = kern, .dims = 1, .grid = {64, 1, 1},          \
    .wg = {64, 1, 1}, .nbufs = 4,                                                               \
    .bufs = { KC_IN(KC_I32, (M) * (K) * (B), KC_RANGE, lo, hi),                                 \
              KC_IN(KC_I32, (K) * (N) * (B), KC_RANGE, lo, hi),                                 \
              KC_IN(KC_I32, (M) * (N) * (B), KC_RANGE, -1000, 1000), KC_OUT(out, (M) * (N) * (B), 0) }, \
    .nargs = 4, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2), KC_BUF(3) }, .ref = ref, .seed = 20 }

static const struct kcase cases[] = {
  CASE("mf_f32_32x32x1", 32, 32, 1, 2, -16, 16, KC_F32),
  CASE("mf_f32_4x4x1", 4, 4, 1, 16, -16, 16, KC_F32),
  CASE("mf_f16_32x32x8", 32, 32, 8, 1, -16, 16, KC_F32),
  CASE("mf_f16_16x16x16", 16, 16, 16, 1, -16, 16, KC_F32),
  CASE("mf_bf16_16x16x16", 16, 16, 16, 1, -16, 16, KC_F32),
  CASE("mf_i8_16x16x16", 16, 16, 16, 1, -128, 127, KC_I32),          /* gfx90a */
  CASE("mf_bf16_32x32x2", 32, 32, 2, 2, -16, 16, KC_F32),            /* gfx90a */
  CASE("mf_i8_16x16x32", 16, 16, 32, 1, -128, 127, KC_I32),          /* gfx942 */
  CASE("mf_xf32_16x16x8", 16, 16, 8, 1, -16, 16, KC_F32),            /* gfx942 */
  CASE("mf_fp8_16x16x32", 16, 16, 32, 1, -8, 8, KC_F32),             /* gfx942 */
  CASE("mf_bf8fp8_32x32x16", 32, 32, 16, 1, -8, 8, KC_F32),          /* gfx942 */
  CASE("smf_f16_16x16x32", 16, 16, 32, 1, -16, 16, KC_F32),          /* gfx942: v_smfmac */
  CASE("mf_f64_16x16x4", 16, 16, 4, 1, -16, 16, KC_F64),
  CASE("mf_f64_4x4x4", 4, 4, 4, 4, -16, 16, KC_F64),
};

/* bench/isa_throughput.sh: the 32x32x8 f16 product by 4096 waves at once (each computes the
 * same D, so the reference holds) */
static struct kcase bench_cases[] = {
  CASE("mf_f16_32x32x8", 32, 32, 8, 1, -16, 16, KC_F32),
};
__attribute__((constructor)) static void bench_register(void)
{
  bench_cases[0].name = "bench_mfma_f16_32x32x8";
  bench_cases[0].grid[0] = 64 * 4096;
  bench_cases[0].bench = 1;
  kc_register(bench_cases, 1);
}
KC_REGISTER(cases)
