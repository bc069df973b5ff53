/* SPDX-License-Identifier: MIT */
/* Host references for wmma_rdna.cl (kernels_rdna.sh links this into its harness only): the
 * plain matrix product D = A x B + C of each variant, 256 ints each. A is 16x64, B 64x16 (the
 * first K of each used), C 16x16, all in [-3, 3] ([-8, 8] for C); the unsigned B of the iu8/iu4 forms is (b + 3) * 40
 * and (b + 3) * 2; a sparse A keeps two of each group of 4 (the pair s % 6 picks).
 * wmma_gfx11 (gfx1100): 0 f32_f16, 1 f32_bf16, 2 f16_f16, 3 f16_f16 with OPSEL[2] (the high
 *   halves; the low halves of D must stay C's: their difference is added times 1000),
 *   4 bf16_bf16, 5 iu8 signed x unsigned, 6 iu8 signed x signed, 7 iu4 signed x unsigned.
 * wmma_gfx12 (gfx1201): 0-3 as gfx11's 0, 1, 2, 4; 4-6 as gfx11's 5-7; 7 i32_16x16x32_iu4
 *   (signed x unsigned); 8 f32 fp8 x fp8, 9 f32 fp8 x bf8; 10 swmmac f32_16x16x32_f16,
 *   11 swmmac i32_16x16x32_iu8 (signed x unsigned), 12 swmmac f32_16x16x32_bf16,
 *   13 swmmac f16_16x16x32_f16, 14 swmmac bf16_16x16x32_bf16, 15 swmmac f32 fp8 x bf8,
 *   16 swmmac i32_16x16x32_iu4 and 17 i32_16x16x64_iu4 (signed x unsigned); 18 four chained
 *   v_dot4_f32_{fp8,bf8}_{fp8,bf8} (K 0-3 fp8 x bf8, 4-7 bf8 x fp8, 8-11 fp8 x fp8, 12-15
 *   bf8 x bf8). */
#include "kcase.h"

enum { PLAIN, U8B, U4B, SPARSE, SPARSE_U8B, SPARSE_U4B };

static void product(const int32_t *a, const int32_t *b, const int32_t *c, const uint32_t *s,
                    int kind, unsigned kk, int32_t *d)
{
  static const int p0[6] = {0, 0, 0, 1, 1, 2}, p1[6] = {1, 2, 3, 2, 3, 3};
  for (unsigned i = 0; i < 16; i++)
    for (unsigned j = 0; j < 16; j++) {
      int64_t acc = c[i * 16 + j];
      for (unsigned k = 0; k < kk; k++) {
        int64_t x = a[i * 64 + k], y = b[k * 16 + j];
        if (kk == 64 && k % 32 >= 16) x = 0;   /* (wmma_rdna.cl: clang-19's 16-bit index) */
        if (kind == U8B || kind == SPARSE_U8B) y = (y + 3) * 40;
        if (kind == U4B || kind == SPARSE_U4B) y = (y + 3) * 2;
        if (kind >= SPARSE) {
          unsigned sel = s[i * 16 + k / 4] % 6;
          if ((int)(k % 4) != p0[sel] && (int)(k % 4) != p1[sel]) continue;
        }
        acc += x * y;
      }
      d[i * 16 + j] = (int32_t)acc;
    }
}

static void ref_gfx11(const struct kcase *c, void *const *b)
{
  static const int kind[8] = {PLAIN, PLAIN, PLAIN, PLAIN, PLAIN, U8B, PLAIN, U4B};
  int32_t *out = b[4];
  for (unsigned v = 0; v < 8; v++)
    product(b[0], b[1], b[2], b[3], kind[v], 16, out + 256 * v);
  (void)c;
}

static void ref_gfx12(const struct kcase *c, void *const *b)
{
  static const int kind[19] = {PLAIN, PLAIN, PLAIN, PLAIN, U8B, PLAIN, U4B, U4B, PLAIN, PLAIN,
                               SPARSE, SPARSE_U8B, SPARSE, SPARSE, SPARSE, SPARSE, SPARSE_U4B,
                               SPARSE_U4B, PLAIN};
  static const unsigned kk[19] = {16, 16, 16, 16, 16, 16, 16, 32, 16, 16, 32, 32, 32, 32, 32, 32,
                                  32, 64, 16};
  int32_t *out = b[4];
  for (unsigned v = 0; v < 19; v++)
    product(b[0], b[1], b[2], b[3], kind[v], kk[v], out + 256 * v);
  (void)c;
}

#define WMMA_CASE(nm, ref_, nv)                                                                 \
  { .name = nm, .source = "wmma_rdna.cl", .kernel = "wmma_all", .dims = 1, .grid = {64},     \
    .wg = {64}, .nbufs = 5,                                                                    \
    .bufs = { KC_IN(KC_I32, 16 * 64, KC_RANGE, -3, 3), KC_IN(KC_I32, 64 * 16, KC_RANGE, -3, 3), \
              KC_IN(KC_I32, 256, KC_RANGE, -8, 8), KC_IN(KC_U32, 16 * 16, KC_RANGE, 0, 1000),   \
              KC_OUT(KC_I32, 256 * (nv), 0) },                                                 \
    .nargs = 5, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2), KC_BUF(3), KC_BUF(4) },             \
    .ref = ref_, .seed = 21 }

static const struct kcase wmma_cases[] = {
  WMMA_CASE("wmma_gfx11", ref_gfx11, 8),
  WMMA_CASE("wmma_gfx12", ref_gfx12, 19),
};
KC_REGISTER(wmma_cases)
