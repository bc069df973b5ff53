/* SPDX-License-Identifier: MIT */
/* test_sdma_v6v7.c — the SDMA v6 (gfx1100) and v7 (gfx1201) engines through the KFD ABI: a
 * submission wrapped in GCR_REQ packets as ROCR sends it (invalidate before, write back
 * after) copies and fills what the host computes; COPY_LINEAR's 30-bit count; gfx12's
 * sub-window layout moves the rectangle the host computes (and gfx11 keeps v4's); GCR_REQ
 * stops a gfx900 (v4) queue, which has no such opcode. */
#include "kfd_fixture.h"
#include "cp_fixture.h"
#include "sdma_fixture.h"

/* ROCR's user GCR: sub-op 1, GL2 and GLK write-back, with the invalidates when asked */
static void gcr(struct sdmaq *s, bool invalidate)
{
  uint32_t cntl = 1u << 15 | 1u << 6;                     /* GL2_WB, GLK_WB */
  if (invalidate)
    cntl |= 1u << 14 | 1u << 9 | 1u << 8 | 1u << 7;       /* GL2, GL1, GLV, GLK INV */
  uint32_t p[5] = { 17u | 1u << 8, 0, cntl << 16, (cntl >> 16) & 7, 0 };
  put(s, p, 5);
}

static void gcr_wrapped_copy_and_fill(const char *model)
{
  fx_cfg.gpu_model = model;
  struct sdmaq s;
  sq_setup(&s);
  struct buf src = cpx_gtt(3 * 4096), dst = cpx_gtt(3 * 4096), done = cpx_gtt(4096);
  for (unsigned i = 0; i < 3 * 4096; i++)
    src.host[i] = (uint8_t)(i * 13 + 1);
  gcr(&s, true);
  uint32_t copy[7] = { 1, 9000 - 1, 0, (uint32_t)(src.va + 3), (uint32_t)((src.va + 3) >> 32),
                       (uint32_t)(dst.va + 1), (uint32_t)((dst.va + 1) >> 32) };
  put(&s, copy, 7);
  uint32_t fill[5] = { 11u | 2u << 30, (uint32_t)(dst.va + 10000), (uint32_t)((dst.va + 10000) >> 32),
                       0x5a6b7c8du, 32 * 4 - 1 };
  put(&s, fill, 5);
  gcr(&s, false);
  /* FENCE with MTYPE 3 (uncached), as ROCR sends it from gfx10 on */
  uint32_t f[4] = { 5u | 3u << 16, (uint32_t)done.va, (uint32_t)(done.va >> 32), 0x900d };
  put(&s, f, 4);
  ring(&s);
  ck_assert(wait32((uint32_t *)done.host, 0x900d));
  uint8_t want[3 * 4096];
  memset(want, 0, sizeof want);
  memcpy(want + 1, src.host + 3, 9000);
  for (unsigned i = 0; i < 32; i++)
    memcpy(want + 10000 + 4 * i, &(uint32_t){ 0x5a6b7c8du }, 4);
  ck_assert_int_eq(memcmp(dst.host, want, sizeof want), 0);
  ck_assert(cpx_until64((int64_t *)s.ptrs.host, (int64_t)s.wptr, 5000));
}

START_TEST(v6_gcr_copy_fill) { gcr_wrapped_copy_and_fill("gfx1100"); }
END_TEST
START_TEST(v7_gcr_copy_fill) { gcr_wrapped_copy_and_fill("gfx1201"); }
END_TEST

/* A copy of 4 MiB + 4 KiB in one packet: bits above 21 of the count are read on v6. */
START_TEST(v6_copy_count_is_30_bits)
{
  fx_cfg.gpu_model = "gfx1100";
  struct sdmaq s;
  sq_setup(&s);
  const uint64_t n = (4u << 20) + 4096;
  struct buf src = cpx_gtt(n), dst = cpx_gtt(n), done = cpx_gtt(4096);
  for (uint64_t i = 0; i < n; i += 4096)
    src.host[i] = (uint8_t)(i >> 12 | 1);
  src.host[n - 1] = 0x77;
  uint32_t copy[7] = { 1, (uint32_t)(n - 1), 0, (uint32_t)src.va, (uint32_t)(src.va >> 32),
                       (uint32_t)dst.va, (uint32_t)(dst.va >> 32) };
  put(&s, copy, 7);
  fence(&s, done.va, 1);
  ring(&s);
  ck_assert(wait32((uint32_t *)done.host, 1));
  ck_assert_int_eq(memcmp(dst.host, src.host, n), 0);
}
END_TEST

/* A 5 x 3 x 2 rectangle of 4-byte elements, from (2, 1, 0) of a 16 x 8 x 2 source to (1, 2, 1)
 * of a 12 x 6 x 3 destination, in each chip's sub-window layout. */
#define SW 16u
#define SH 8u
#define DW 12u
#define DH 6u
static void rect_packet(uint32_t *p, bool gfx12, uint64_t s, uint64_t d)
{
  memset(p, 0, 13 * 4);
  p[0] = 1u | 4u << 8 | 2u << 29;   /* COPY, sub-window, 4-byte elements */
  p[1] = (uint32_t)s, p[2] = (uint32_t)(s >> 32);
  p[6] = (uint32_t)d, p[7] = (uint32_t)(d >> 32);
  if (gfx12) {
    p[3] = 2 | 1u << 16;               p[4] = 0 | (SW - 1) << 16;   p[5] = SW * SH - 1;
    p[8] = 1 | 2u << 16;               p[9] = 1 | (DW - 1) << 16;   p[10] = DW * DH - 1;
    p[11] = (5 - 1) | (3 - 1) << 16;   p[12] = 2 - 1;
  } else {
    p[3] = 2 | 1u << 16;               p[4] = 0 | (SW - 1) << 13;   p[5] = SW * SH - 1;
    p[8] = 1 | 2u << 16;               p[9] = 1 | (DW - 1) << 13;   p[10] = DW * DH - 1;
    p[11] = (5 - 1) | (3 - 1) << 16;   p[12] = 2 - 1;
  }
}

static void rect(const char *model, bool gfx12)
{
  fx_cfg.gpu_model = model;
  struct sdmaq s;
  sq_setup(&s);
  struct buf src = cpx_gtt(4096), dst = cpx_gtt(4096), done = cpx_gtt(4096);
  uint32_t *sv = (uint32_t *)src.host, *dv = (uint32_t *)dst.host;
  for (unsigned i = 0; i < SW * SH * 2; i++)
    sv[i] = 0x1000u + i;
  uint32_t p[13];
  rect_packet(p, gfx12, src.va, dst.va);
  put(&s, p, 13);
  fence(&s, done.va, 2);
  ring(&s);
  ck_assert(wait32((uint32_t *)done.host, 2));
  uint32_t want[DW * DH * 3];
  memset(want, 0, sizeof want);
  for (unsigned z = 0; z < 2; z++)
    for (unsigned y = 0; y < 3; y++)
      for (unsigned x = 0; x < 5; x++)
        want[(1 + z) * DW * DH + (2 + y) * DW + 1 + x] = sv[z * SW * SH + (1 + y) * SW + 2 + x];
  ck_assert_int_eq(memcmp(dv, want, sizeof want), 0);
}

START_TEST(v7_sub_window_layout) { rect("gfx1201", true); }
END_TEST
START_TEST(v6_sub_window_layout) { rect("gfx1100", false); }
END_TEST

/* v4 has no GCR_REQ: the queue stops there (the copy after it never runs). */
START_TEST(v4_refuses_gcr)
{
  fx_cfg.gpu_model = "gfx900";
  struct sdmaq s;
  sq_setup(&s);
  struct buf done = cpx_gtt(4096);
  gcr(&s, true);
  fence(&s, done.va, 3);
  ring(&s);
  cpx_sleep_ms(100);
  ck_assert_uint_eq(*(volatile uint32_t *)done.host, 0);
  ck_assert_uint_eq(sq_rptr(&s), 0);
}
END_TEST

Suite *test_suite(void)
{
  Suite *su = suite_create("sdma_v6v7");
  TCase *t = tcase_create("sdma_v6v7");
  tcase_set_timeout(t, 20);
  tcase_add_test(t, v6_gcr_copy_fill);
  tcase_add_test(t, v7_gcr_copy_fill);
  tcase_add_test(t, v6_copy_count_is_30_bits);
  tcase_add_test(t, v7_sub_window_layout);
  tcase_add_test(t, v6_sub_window_layout);
  tcase_add_test(t, v4_refuses_gcr);
  suite_add_tcase(su, t);
  return su;
}
