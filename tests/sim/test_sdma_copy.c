/* SPDX-License-Identifier: MIT */
/* test_sdma_copy.c — the SDMA engine model through the KFD ABI (sdma_fixture.h). Results
 * are compared with memcmp against what the host computes; FENCE, TRAP (a KFD event),
 * POLL_REGMEM, ATOMIC and TIMESTAMP are checked by their effects, an unmapped address by its
 * memory exception event. */
#include <stdlib.h>

#include "kfd_fixture.h"
#include "cp_fixture.h"
#include "sdma_fixture.h"

START_TEST(copy_fill_fence)
{
  struct sdmaq s;
  sq_setup(&s);
  struct buf src = cpx_gtt(3 * 4096), dst = cpx_gtt(3 * 4096), done = cpx_gtt(4096);
  for (unsigned i = 0; i < 3 * 4096; i++)
    src.host[i] = (uint8_t)(i * 7 + 3);
  uint32_t copy[7] = { 1, 10000 - 1, 0, (uint32_t)(src.va + 5), (uint32_t)((src.va + 5) >> 32),
                       (uint32_t)(dst.va + 9), (uint32_t)((dst.va + 9) >> 32) };
  put(&s, copy, 7);
  uint32_t fill[5] = { 11u | 2u << 30, (uint32_t)(dst.va + 10012), (uint32_t)((dst.va + 10012) >> 32),
                       0xa1b2c3d4u, 64 - 1 };
  put(&s, fill, 5);
  fence(&s, done.va, 0x600d);
  ring(&s);
  ck_assert(wait32((uint32_t *)done.host, 0x600d));
  uint8_t want[3 * 4096];
  memset(want, 0, sizeof want);
  memcpy(want + 9, src.host + 5, 10000);
  for (unsigned i = 0; i < 16; i++)
    memcpy(want + 10012 + 4 * i, &(uint32_t){ 0xa1b2c3d4u }, 4);
  ck_assert_int_eq(memcmp(dst.host, want, sizeof want), 0);
  /* the engine wrote its read pointer back: everything consumed */
  ck_assert(cpx_until64((int64_t *)s.ptrs.host, (int64_t)s.wptr, 5000));
}
END_TEST

START_TEST(copy_across_buffers_and_ring_wrap)
{
  struct sdmaq s;
  sq_setup(&s);
  struct buf a = cpx_gtt(4096), done = cpx_gtt(4096);
  uint64_t next = cpx_next_va;
  struct buf lo = cpx_gtt(4096);
  cpx_next_va = next + 4096;   /* the next buffer directly above: one range, two objects */
  struct buf hi = cpx_gtt(4096);
  ck_assert_uint_eq(hi.va, lo.va + 4096);
  for (unsigned i = 0; i < 4096; i++)
    a.host[i] = (uint8_t)(255 - i % 251);
  /* NOPs up to 8 bytes before the ring's end, consumed first, so the copy packet wraps */
  uint32_t nop = 0;
  while (s.wptr % 4096 != 4096 - 8)
    put(&s, &nop, 1);
  ring(&s);
  ck_assert(cpx_until64((int64_t *)s.ptrs.host, (int64_t)s.wptr, 5000));
  uint64_t at = lo.va + 2048;
  uint32_t copy[7] = { 1, 4096 - 1, 0, (uint32_t)a.va, (uint32_t)(a.va >> 32), (uint32_t)at,
                       (uint32_t)(at >> 32) };
  put(&s, copy, 7);
  fence(&s, done.va, 0xfeed);
  ring(&s);
  ck_assert(wait32((uint32_t *)done.host, 0xfeed));
  ck_assert_int_eq(memcmp(lo.host + 2048, a.host, 2048), 0);
  ck_assert_int_eq(memcmp(hi.host, a.host + 2048, 2048), 0);
}
END_TEST

/* COPY_LINEAR with the broadcast bit: 9 dwords, the same bytes to two destinations; the
 * packets after it still run (a 7-dword framing would run its destinations as packets). On
 * every board (SDMA v4.0, v4.2, v4.4, v6 and v7 all have the broadcast form). */
static const char *const bcast_boards[] = { "gfx900", "gfx906", "gfx90a", "gfx942", "gfx942-apu",
                                            "gfx1100", "gfx1201" };

START_TEST(broadcast_copy_writes_both_destinations)
{
  fx_cfg.gpu_model = bcast_boards[_i];   /* each iteration is a fresh (forked) process */
  struct sdmaq s;
  sq_setup(&s);
  struct buf src = cpx_gtt(8192), d1 = cpx_gtt(8192), d2 = cpx_gtt(8192), d3 = cpx_gtt(4096);
  struct buf done = cpx_gtt(4096);
  for (unsigned i = 0; i < 8192; i++)
    src.host[i] = (uint8_t)(i * 13 + 1);
  uint64_t a = src.va + 3, b = d1.va + 100, c = d2.va + 7;
  uint32_t bc[9] = { 1u | 1u << 27, 6000 - 1, 0, (uint32_t)a, (uint32_t)(a >> 32), (uint32_t)b,
                     (uint32_t)(b >> 32), (uint32_t)c, (uint32_t)(c >> 32) };
  put(&s, bc, 9);
  uint32_t copy[7] = { 1, 64 - 1, 0, (uint32_t)src.va, (uint32_t)(src.va >> 32), (uint32_t)d3.va,
                       (uint32_t)(d3.va >> 32) };
  put(&s, copy, 7);
  fence(&s, done.va, 0xb0ad);
  ring(&s);
  ck_assert(wait32((uint32_t *)done.host, 0xb0ad));
  uint8_t want1[8192] = { 0 }, want2[8192] = { 0 };
  memcpy(want1 + 100, src.host + 3, 6000);
  memcpy(want2 + 7, src.host + 3, 6000);
  ck_assert_int_eq(memcmp(d1.host, want1, sizeof want1), 0);
  ck_assert_int_eq(memcmp(d2.host, want2, sizeof want2), 0);
  ck_assert_int_eq(memcmp(d3.host, src.host, 64), 0);
  ck_assert_uint_eq(d3.host[64], 0);
  ck_assert(cpx_until64((int64_t *)s.ptrs.host, (int64_t)s.wptr, 5000));
}
END_TEST

START_TEST(poll_atomic_timestamp_trap)
{
  struct sdmaq s;
  sq_setup(&s);
  struct buf m = cpx_gtt(4096);
  struct buf page;
  uint64_t slot;
  uint32_t ev = cpx_event(&page, &slot);
  /* wait until m[0] & 0xff == 7, then add 5 to m[8..15], a timestamp into m[16..23], trap */
  uint32_t poll[6] = { 8u | 3u << 28 | 1u << 31, (uint32_t)m.va, (uint32_t)(m.va >> 32), 7, 0xff,
                       10 | 0xfff << 16 };
  put(&s, poll, 6);
  uint32_t atomic[8] = { 10u | 47u << 25, (uint32_t)(m.va + 8), (uint32_t)((m.va + 8) >> 32), 5, 0,
                         0, 0, 0 };
  put(&s, atomic, 8);
  uint32_t ts[3] = { 13u | 2u << 8, (uint32_t)(m.va + 16), (uint32_t)((m.va + 16) >> 32) };
  put(&s, ts, 3);
  uint32_t slotw[4] = { 5, (uint32_t)slot, (uint32_t)(slot >> 32), ev };   /* mailbox, then trap */
  put(&s, slotw, 4);
  uint32_t trap[2] = { 6, ev };
  put(&s, trap, 2);
  uint64_t before = 0;
  memcpy(m.host + 8, &(uint64_t){ 100 }, 8);
  ring(&s);
  ck_assert_uint_eq(cpx_wait_event(ev, 100, NULL), KFD_IOC_WAIT_RESULT_TIMEOUT);
  memcpy(&before, m.host + 8, 8);
  ck_assert_uint_eq(before, 100);   /* still polling */
  __atomic_store_n((uint32_t *)m.host, 0x307u, __ATOMIC_RELEASE);   /* masked: 7 */
  ck_assert_uint_eq(cpx_wait_event(ev, 5000, NULL), KFD_IOC_WAIT_RESULT_COMPLETE);
  uint64_t sum, stamp;
  memcpy(&sum, m.host + 8, 8);
  memcpy(&stamp, m.host + 16, 8);
  ck_assert_uint_eq(sum, 105);
  ck_assert_uint_ne(stamp, 0);
}
END_TEST

/* ROCR 5.2.3's HDP flush (a register poll, function "always") and amdgpu's (the HDP flush
 * bit, "equal" on the flush registers) pass at once; a dword fill fills whole dwords whether
 * its count is ROCR's (dwords - 1) * 4 or amdgpu's and Mesa's bytes - 1. */
START_TEST(hdp_flushes_and_both_fill_counts)
{
  struct sdmaq s;
  sq_setup(&s);
  struct buf dst = cpx_gtt(4096), done = cpx_gtt(4096);
  uint32_t rocr_hdp[6] = { 8, 0, 0x80000000u, 0, 0, 0 };
  uint32_t amdgpu_hdp[6] = { 8u | 1u << 26 | 3u << 28, 0x1234, 0x5678, 0, 0, 10 | 0xfffu << 16 };
  put(&s, rocr_hdp, 6);
  put(&s, amdgpu_hdp, 6);
  uint32_t rocr_fill[5] = { 11u | 2u << 30, (uint32_t)dst.va, (uint32_t)(dst.va >> 32),
                            0x11223344u, (10 - 1) * 4 };
  uint64_t at = dst.va + 64;
  uint32_t mesa_fill[5] = { 11u | 2u << 30, (uint32_t)at, (uint32_t)(at >> 32), 0x55667788u,
                            6 * 4 - 1 };
  put(&s, rocr_fill, 5);
  put(&s, mesa_fill, 5);
  fence(&s, done.va, 7);
  ring(&s);
  ck_assert(wait32((uint32_t *)done.host, 7));
  uint32_t got[24];
  memcpy(got, dst.host, sizeof got);
  for (unsigned i = 0; i < 24; i++)
    ck_assert_uint_eq(got[i], i < 10 ? 0x11223344u : i >= 16 && i < 22 ? 0x55667788u : 0);
}
END_TEST

START_TEST(unmapped_copy_source_raises_memory_event)
{
  struct sdmaq s;
  sq_setup(&s);
  struct kfd_ioctl_create_event_args e = { .event_type = KFD_IOC_EVENT_MEMORY };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &e), 0);
  struct buf dst = cpx_gtt(4096), done = cpx_gtt(4096);
  uint64_t bad = 0x5500000000ull;
  uint32_t copy[7] = { 1, 64 - 1, 0, (uint32_t)bad, (uint32_t)(bad >> 32), (uint32_t)dst.va,
                       (uint32_t)(dst.va >> 32) };
  put(&s, copy, 7);
  fence(&s, done.va, 1);
  ring(&s);
  struct kfd_event_data d;
  ck_assert_uint_eq(cpx_wait_event(e.event_id, 5000, &d), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_uint_eq(d.memory_exception_data.va, bad);
  ck_assert_uint_eq(d.memory_exception_data.gpu_id, GPU0);
  cpx_sleep_ms(50);
  ck_assert_uint_eq(*(uint32_t *)done.host, 0);   /* the engine stopped at the fault */
}
END_TEST

/* A buffer object allocated without WRITABLE is mapped read-only: the engine copies from it,
 * and a copy into it is a permission fault (the event says ReadOnly, not NotPresent; nothing
 * is written, the engine stops before the fence). */
START_TEST(copy_into_read_only_memory_is_a_permission_fault)
{
  struct sdmaq s;
  sq_setup(&s);
  struct kfd_ioctl_create_event_args e = { .event_type = KFD_IOC_EVENT_MEMORY };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &e), 0);
  struct buf ro = cpx_gtt_flags(4096, KFD_IOC_ALLOC_MEM_FLAGS_GTT), dst = cpx_gtt(4096);
  struct buf done = cpx_gtt(4096);
  for (unsigned i = 0; i < 4096; i++)
    ro.host[i] = (uint8_t)(i * 5 + 1);
  uint32_t in[7] = { 1, 256 - 1, 0, (uint32_t)ro.va, (uint32_t)(ro.va >> 32), (uint32_t)dst.va,
                     (uint32_t)(dst.va >> 32) };
  put(&s, in, 7);
  fence(&s, done.va, 1);
  uint32_t out[7] = { 1, 64 - 1, 0, (uint32_t)dst.va, (uint32_t)(dst.va >> 32),
                      (uint32_t)(ro.va + 512), (uint32_t)((ro.va + 512) >> 32) };
  put(&s, out, 7);
  fence(&s, done.va, 2);
  ring(&s);
  struct kfd_event_data d;
  ck_assert_uint_eq(cpx_wait_event(e.event_id, 5000, &d), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_uint_eq(d.memory_exception_data.va, ro.va);
  ck_assert_uint_eq(d.memory_exception_data.gpu_id, GPU0);
  ck_assert_uint_eq(d.memory_exception_data.failure.NotPresent, 0);
  ck_assert_uint_eq(d.memory_exception_data.failure.ReadOnly, 1);
  cpx_sleep_ms(50);
  ck_assert_uint_eq(*(uint32_t *)done.host, 1);   /* the read-only source was copied */
  ck_assert_int_eq(memcmp(dst.host, ro.host, 256), 0);
  for (unsigned i = 512; i < 576; i++)             /* nothing written into it */
    ck_assert_uint_eq(ro.host[i], (uint8_t)(i * 5 + 1));
}
END_TEST

/* Large COPY_LINEARs (3 MiB, unaligned ends): every byte lands and the next packet starts only
 * after the last one (the second copy reads the first one's destination; the test spins on the
 * FENCE after each round and compares at once), an overlapping copy gives memmove's result,
 * and a copy that runs into an unmapped page faults at that page's address. Any model that
 * copies a large packet in parts (threads, bursts) must keep all of this; bench/README.md
 * (copy_bandwidth, seventh pass) has the two that were tried. threads=4: such a model would
 * have helpers even on a one-CPU runner. */
#define BIG (3u * 1024u * 1024u + 1237u)

static bool spin32(volatile uint32_t *p, uint32_t want)
{
  for (unsigned long i = 0; i < 4000000000ul; i++)
    if (__atomic_load_n(p, __ATOMIC_ACQUIRE) == want)
      return true;
  return false;
}

static void copy_packet(struct sdmaq *s, uint64_t dst, uint64_t src, uint32_t n)
{
  uint32_t c[7] = { 1, n - 1, 0, (uint32_t)src, (uint32_t)(src >> 32), (uint32_t)dst,
                    (uint32_t)(dst >> 32) };
  put(s, c, 7);
}

START_TEST(large_copy_in_pieces_is_whole_before_the_next_packet)
{
  fx_cfg.threads = 4;
  struct sdmaq s;
  sq_setup(&s);
  struct buf a = cpx_gtt(BIG + 4096), b = cpx_gtt(BIG + 4096), c = cpx_gtt(BIG + 4096);
  struct buf ov = cpx_gtt(2 * BIG), done = cpx_gtt(4096);
  uint8_t *want = malloc(2 * BIG);
  ck_assert_ptr_nonnull(want);
  for (uint32_t round = 1; round <= 6; round++) {
    for (uint32_t i = 0; i < BIG + 4096; i++)
      a.host[i] = (uint8_t)(i * 31 + round * 17 + (i >> 13));
    copy_packet(&s, b.va + 5, a.va + 3, BIG);
    copy_packet(&s, c.va + 11, b.va + 5, BIG);
    fence(&s, done.va, round);
    ring(&s);
    ck_assert(spin32((uint32_t *)done.host, round));
    ck_assert_int_eq(memcmp(c.host + 11, a.host + 3, BIG), 0);
    ck_assert_int_eq(memcmp(b.host + 5, a.host + 3, BIG), 0);
    ck_assert_uint_eq(c.host[10], 0);   /* nothing outside the range */
    ck_assert_uint_eq(c.host[11 + BIG], 0);
  }
  /* overlapping, destination above the source: a forward split would copy copied bytes */
  for (uint32_t i = 0; i < 2 * BIG; i++)
    ov.host[i] = want[i] = (uint8_t)(i * 7 + (i >> 11));
  memmove(want + 70001, want + 3, BIG);
  copy_packet(&s, ov.va + 70001, ov.va + 3, BIG);
  fence(&s, done.va, 100);
  ring(&s);
  ck_assert(spin32((uint32_t *)done.host, 100));
  ck_assert_int_eq(memcmp(ov.host, want, 2 * BIG), 0);
  free(want);
  ck_assert(cpx_until64((int64_t *)s.ptrs.host, (int64_t)s.wptr, 5000));
}
END_TEST

START_TEST(large_copy_into_an_unmapped_page_faults_there)
{
  fx_cfg.threads = 4;
  struct sdmaq s;
  sq_setup(&s);
  struct kfd_ioctl_create_event_args e = { .event_type = KFD_IOC_EVENT_MEMORY };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &e), 0);
  struct buf src = cpx_gtt(1u << 20), dst = cpx_gtt(512u << 10), done = cpx_gtt(4096);
  /* dst is followed by a 64 KiB hole (cpx_gtt_flags): the copy's last 512 KiB are unmapped */
  copy_packet(&s, dst.va, src.va, 1u << 20);
  fence(&s, done.va, 1);
  ring(&s);
  struct kfd_event_data d;
  ck_assert_uint_eq(cpx_wait_event(e.event_id, 5000, &d), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_uint_eq(d.memory_exception_data.va, dst.va + (512u << 10));
  cpx_sleep_ms(50);
  ck_assert_uint_eq(*(uint32_t *)done.host, 0);   /* the engine stopped at the fault */
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("sdma_copy");
  TCase *t = tcase_create("sdma");
  tcase_set_timeout(t, 30);
  tcase_add_test(t, copy_fill_fence);
  tcase_add_test(t, copy_across_buffers_and_ring_wrap);
  tcase_add_loop_test(t, broadcast_copy_writes_both_destinations, 0,
                      (int)(sizeof bcast_boards / sizeof bcast_boards[0]));
  tcase_add_test(t, poll_atomic_timestamp_trap);
  tcase_add_test(t, hdp_flushes_and_both_fill_counts);
  tcase_add_test(t, unmapped_copy_source_raises_memory_event);
  tcase_add_test(t, copy_into_read_only_memory_is_a_permission_fault);
  tcase_add_test(t, large_copy_in_pieces_is_whole_before_the_next_packet);
  tcase_add_test(t, large_copy_into_an_unmapped_page_faults_there);
  suite_add_tcase(s, t);
  return s;
}
