/* SPDX-License-Identifier: MIT */
/* Host references for float_ops.cl. Transcendentals are computed in double and rounded once,
 * which is within 0.5 ulp of the true value; the device libraries may be 4 ulp away. */
#include <math.h>

#include "kcase.h"

static void fixf(const struct kcase *c, void *const *b)
{
  float *y = b[1];
  for (size_t i = 0; i < c->bufs[1].count; i++)   /* divisor away from 0, either sign */
    if (fabsf(y[i]) < 0.5f) y[i] = y[i] < 0 ? y[i] - 0.5f : y[i] + 0.5f;
}

static void ref32(const struct kcase *c, void *const *b)
{
  const float *a = b[0], *bb = b[1], *cc = b[2];
  float *ex = b[3], *ds = b[4], *tr = b[5];
  for (size_t i = 0; i < c->bufs[0].count; i++) {
    float x = a[i], y = bb[i], z = cc[i];
    float *e = ex + i * 8;
    e[0] = x + y;
    e[1] = x - z;
    e[2] = x * y;
    e[3] = fmaf(x, y, z);
    e[4] = fminf(x, z);
    e[5] = floorf(x * 4.0f);
    e[6] = (float)(int)(y * 1000.0f);
    e[7] = (float)((uint32_t)((uint32_t)i * 2654435761u) >> 1);
    ds[i * 2 + 0] = x / y;
    ds[i * 2 + 1] = sqrtf(fabsf(x));
    float *t = tr + i * 4;
    t[0] = (float)exp((double)x);
    t[1] = (float)log(fabs((double)y));
    t[2] = (float)sin((double)x);
    t[3] = (float)cos((double)z);
  }
}

static void fixd(const struct kcase *c, void *const *b)
{
  double *y = b[1];
  for (size_t i = 0; i < c->bufs[1].count; i++)
    if (fabs(y[i]) < 1e-3) y[i] = 1.0 / 3.0;
}

static void ref64(const struct kcase *c, void *const *b)
{
  const double *a = b[0], *bb = b[1], *cc = b[2];
  double *o = b[3];
  for (size_t i = 0; i < c->bufs[0].count; i++, o += 6) {
    double x = a[i], y = bb[i], z = cc[i];
    o[0] = x + y;
    o[1] = x * y;
    o[2] = x / y;
    o[3] = sqrt(fabs(x));
    o[4] = fma(x, y, z);
    o[5] = (double)(int64_t)(x * 1e6) - z;
  }
}

#define NF 1024
#define ND 800
static const struct kcase cases[] = {
  { .name = "f32_ops", .source = "float_ops.cl", .kernel = "f32_ops", .dims = 1,
    .grid = {NF}, .wg = {256}, .nbufs = 6,
    .bufs = { KC_IN(KC_F32, NF, KC_RAND, -10, 10), KC_IN(KC_F32, NF, KC_RAND, -20, 20),
              KC_IN(KC_F32, NF, KC_RAND, -10, 10),
              KC_OUT(KC_F32, NF * 8, 0), KC_OUT(KC_F32, NF * 2, 3), KC_OUT(KC_F32, NF * 4, 4) },
    .nargs = 7, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2), KC_BUF(3), KC_BUF(4), KC_BUF(5), KC_U32(NF) },
    .ref = ref32, .fixup = fixf, .seed = 3 },
  { .name = "f64_ops", .source = "float_ops.cl", .kernel = "f64_ops", .dims = 1,
    .grid = {ND}, .wg = {64}, .nbufs = 4,
    .bufs = { KC_IN(KC_F64, ND, KC_RAND, -1000, 1000), KC_IN(KC_F64, ND, KC_RAND, -50, 50),
              KC_IN(KC_F64, ND, KC_RAND, -1000, 1000), KC_OUT(KC_F64, ND * 6, 0) },
    .nargs = 5, .args = { KC_BUF(0), KC_BUF(1), KC_BUF(2), KC_BUF(3), KC_U32(ND) },
    .ref = ref64, .fixup = fixd, .seed = 4 },
};
KC_REGISTER(cases)
