/* SPDX-License-Identifier: MIT */
/* test_sdma_queues.c — every SDMA queue a board has, copying at once through the KFD ABI, on
 * every modelled board. Each queue's doorbell must be the one amdgpu's doorbell layout gives its
 * engine and queue (Vega 10: engines at 0xf0 and 0xf2; Vega 20, Aldebaran, MI300 (layout 1,
 * sixteen engines) and Navi 10 onwards (soc21/soc24: two engines): 0x100 + 10 * engine;
 * hardware queue q at (q & 1) * 512 + q / 2 from there; on SDMA v6/v7 (gfx11, gfx12) KFD's
 * queues start at hardware queue 2, the first two of each engine being amdgpu's gfx and paging
 * rings), no two queues may share one, and every queue's copy must
 * land whole: queue i's packets are i dwords longer than queue 0's, so two queues answering
 * one doorbell would each see the other's write pointer and stop short or run past their
 * packets. */
#include <stdlib.h>

#include "kfd_fixture.h"
#include "cp_fixture.h"
#include "sdma_fixture.h"

#define MAXQ 128u
#define BYTES 5000u

static const char *const boards[] = { "gfx900", "gfx906", "gfx90a", "gfx1201", "gfx942",
                                      "gfx942-apu", "gfx1100" };

/* The sanitizer and clang configurations (HSA_TEST_SANITIZED, HSA_TEST_LIGHT) take the first
 * four boards: gfx942's 128 queues (and as many engine threads) are the slow case. */
static int boards_to_run(void)
{
  const char *san = getenv("HSA_TEST_SANITIZED"), *light = getenv("HSA_TEST_LIGHT");
  if ((san && strcmp(san, "1") == 0) || (light && strcmp(light, "1") == 0))
    return 4;
  return (int)(sizeof boards / sizeof boards[0]);
}

static bool rdna(const char *board)
{
  return strncmp(board, "gfx1", 4) == 0;
}

/* amdgpu's first doorbell of each SDMA engine (xGMI engines after the PCIe ones) */
static uint32_t engine_doorbell(const char *board, unsigned e)
{
  if (strcmp(board, "gfx900") == 0)
    return 0xf0 + 2 * e;
  return 0x100 + 10 * e;
}

struct q {
  struct buf ring, ptrs, src, dst;
  uint64_t wptr;
  uint32_t doorbell;
};

static void qput(struct q *q, const uint32_t *dw, unsigned n)
{
  for (unsigned i = 0; i < n; i++) {
    memcpy(q->ring.host + q->wptr % SQ_RING, &dw[i], 4);
    q->wptr += 4;
  }
}

START_TEST(every_sdma_queue_copies_at_once)
{
  const char *board = boards[_i];
  fx_cfg.gpu_model = board;   /* each test runs in a fresh (forked) process */
  fx_open();
  const struct sim_gpu_model *m = sim_gpu(0)->model;
  unsigned per = m->num_sdma_queues_per_engine;
  unsigned n_pcie = m->num_sdma_engines * per, n = n_pcie + m->num_sdma_xgmi_engines * per;
  ck_assert_uint_le(n, MAXQ);
  if (strcmp(board, "gfx900") != 0)   /* 2 engines x 8 queues on Vega 20, Aldebaran, MI300; */
    ck_assert_uint_ge(n_pcie, rdna(board) ? 12 : 16);   /* x 6 beside amdgpu's 2 on gfx11/12 */
  if (strncmp(board, "gfx942", 6) == 0)
    ck_assert_uint_eq(n, 128);   /* 2 PCIe and 14 xGMI engines */
  static struct q qs[MAXQ];
  struct buf done = cpx_gtt(4096);
  volatile uint64_t *bells = NULL;
  for (unsigned i = 0; i < n; i++) {
    struct q *q = &qs[i];
    q->ring = cpx_gtt(SQ_RING);
    q->ptrs = cpx_gtt(4096);
    q->src = cpx_gtt(BYTES + 64);
    q->dst = cpx_gtt(BYTES + 64);
    for (unsigned k = 0; k < BYTES + 64; k++)
      q->src.host[k] = (uint8_t)(k * 31 + i * 7 + 1);
    bool xgmi = i >= n_pcie;
    struct kfd_ioctl_create_queue_args c = {
      .ring_base_address = q->ring.va, .ring_size = SQ_RING, .gpu_id = GPU0,
      .read_pointer_address = q->ptrs.va, .write_pointer_address = q->ptrs.va + 8,
      .queue_type = xgmi ? KFD_IOC_QUEUE_TYPE_SDMA_XGMI : KFD_IOC_QUEUE_TYPE_SDMA,
      .queue_percentage = 100, .queue_priority = 7 };
    ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &c), 0);
    if (!bells)
      bells = cpx_doorbells(c.doorbell_offset);
    q->doorbell = (uint32_t)((c.doorbell_offset & (SIM_DOORBELL_SLICE - 1)) / 8);
    /* KFD hands slots out engine-major: queue k of every engine before queue k + 1 */
    unsigned engines = xgmi ? m->num_sdma_xgmi_engines : m->num_sdma_engines;
    unsigned slot = xgmi ? i - n_pcie : i;
    unsigned e = slot % engines + (xgmi ? m->num_sdma_engines : 0), k = slot / engines;
    if (rdna(board))
      k += 2;   /* hardware queues 0 and 1 are amdgpu's */
    uint32_t want = engine_doorbell(board, e) + (k & 1) * 512 + k / 2;
    ck_assert_msg(q->doorbell == want, "%s queue %u (engine %u, queue %u): doorbell 0x%x, not 0x%x",
                  board, i, e, k, q->doorbell, want);
    for (unsigned j = 0; j < i; j++)
      ck_assert_msg(qs[j].doorbell != q->doorbell, "%s queues %u and %u share doorbell 0x%x",
                    board, j, i, q->doorbell);
  }
  /* all packets first, then every doorbell: the engines run side by side */
  for (unsigned i = 0; i < n; i++) {
    struct q *q = &qs[i];
    uint32_t nop = (i ? i - 1 : 0) << 16;   /* a NOP of i dwords (none for queue 0) */
    if (i)
      qput(q, &nop, 1);
    for (unsigned k = 1; k < i; k++)
      qput(q, &(uint32_t){ 0 }, 1);
    uint64_t s = q->src.va + i, d = q->dst.va + 64 - i % 64;
    uint32_t copy[7] = { 1, BYTES - 1, 0, (uint32_t)s, (uint32_t)(s >> 32), (uint32_t)d,
                         (uint32_t)(d >> 32) };
    qput(q, copy, 7);
    uint64_t f = done.va + 4 * i;
    uint32_t fence_pkt[4] = { 5, (uint32_t)f, (uint32_t)(f >> 32), 0x5d000000u + i };
    qput(q, fence_pkt, 4);
  }
  for (unsigned i = 0; i < n; i++) {
    __atomic_store_n((uint64_t *)(qs[i].ptrs.host + 8), qs[i].wptr, __ATOMIC_RELEASE);
    __atomic_store_n(&bells[qs[i].doorbell], qs[i].wptr, __ATOMIC_RELEASE);
  }
  for (unsigned i = 0; i < n; i++) {
    struct q *q = &qs[i];
    ck_assert_msg(wait32((uint32_t *)done.host + i, 0x5d000000u + i), "%s queue %u: no fence",
                  board, i);
    ck_assert_msg(cpx_until64((int64_t *)q->ptrs.host, (int64_t)q->wptr, 5000),
                  "%s queue %u: read pointer 0x%llx, not 0x%llx", board, i,
                  (unsigned long long)*(uint64_t *)q->ptrs.host, (unsigned long long)q->wptr);
    uint8_t want[BYTES + 64];
    memset(want, 0, sizeof want);
    memcpy(want + 64 - i % 64, q->src.host + i, BYTES);
    ck_assert_msg(memcmp(q->dst.host, want, sizeof want) == 0, "%s queue %u: bytes differ",
                  board, i);
  }
}
END_TEST

/* One copy cut over two engines, as runtimes cut large copies: engine 1 copies its half and
 * FENCEs a word; engine 0 copies its half, POLL_REGMEMs that word (>=) and only then writes
 * its own fence. Engine 0's doorbell rings first, so it reaches the poll before the word is
 * written: its fence must come after engine 1's half has landed, and both halves whole. */
START_TEST(poll_waits_for_another_engines_fence)
{
  fx_cfg.gpu_model = "gfx900";
  fx_open();
  enum { HALF = 3u << 20 };   /* each half: a COPY_LINEAR, milliseconds on the host */
  struct q qs[2];
  struct buf done = cpx_gtt(4096), src = cpx_gtt(2 * HALF), dst = cpx_gtt(2 * HALF);
  for (unsigned k = 0; k < 2 * HALF; k++)
    src.host[k] = (uint8_t)(k * 13 + 5);
  volatile uint64_t *bells = NULL;
  for (unsigned i = 0; i < 2; i++) {
    struct q *q = &qs[i];
    memset(q, 0, sizeof *q);
    q->ring = cpx_gtt(SQ_RING);
    q->ptrs = cpx_gtt(4096);
    struct kfd_ioctl_create_queue_args c = {
      .ring_base_address = q->ring.va, .ring_size = SQ_RING, .gpu_id = GPU0,
      .read_pointer_address = q->ptrs.va, .write_pointer_address = q->ptrs.va + 8,
      .queue_type = KFD_IOC_QUEUE_TYPE_SDMA, .queue_percentage = 100, .queue_priority = 7 };
    ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_QUEUE, &c), 0);
    if (!bells)
      bells = cpx_doorbells(c.doorbell_offset);
    q->doorbell = (uint32_t)((c.doorbell_offset & (SIM_DOORBELL_SLICE - 1)) / 8);
    uint64_t s = src.va + i * HALF, d = dst.va + i * HALF;
    uint32_t copy[7] = { 1, HALF - 1, 0, (uint32_t)s, (uint32_t)(s >> 32), (uint32_t)d,
                         (uint32_t)(d >> 32) };
    qput(q, copy, 7);
  }
  uint64_t w = done.va, f = done.va + 64;
  uint32_t post[4] = { 5, (uint32_t)w, (uint32_t)(w >> 32), 7 };
  qput(&qs[1], post, 4);
  /* memory, function >= (5), reference 7, all bits, retries for ever (0xfff), interval 10 */
  uint32_t poll[6] = { 8u | 1u << 31 | 5u << 28, (uint32_t)w, (uint32_t)(w >> 32), 7,
                       0xffffffffu, 0xfffu << 16 | 10u };
  qput(&qs[0], poll, 6);
  uint32_t fence_pkt[4] = { 5, (uint32_t)f, (uint32_t)(f >> 32), 0x600d };
  qput(&qs[0], fence_pkt, 4);
  for (unsigned i = 0; i < 2; i++) {
    __atomic_store_n((uint64_t *)(qs[i].ptrs.host + 8), qs[i].wptr, __ATOMIC_RELEASE);
    __atomic_store_n(&bells[qs[i].doorbell], qs[i].wptr, __ATOMIC_RELEASE);
    if (!i)   /* engine 0 gets to its poll (or into its copy) first */
      ck_assert(cpx_until64((int64_t *)qs[0].ptrs.host, 28, 5000));
  }
  ck_assert_msg(wait32((uint32_t *)done.host + 16, 0x600d), "engine 0 never passed its poll");
  ck_assert_uint_eq(*(volatile uint32_t *)done.host, 7);   /* engine 1's fence came first */
  ck_assert_msg(memcmp(dst.host, src.host, 2 * HALF) == 0, "the halves did not both land");
}
END_TEST

/* A CP queue never gets a doorbell the chip routes to SDMA, IH or VCN (KFD reserves that range
 * in both doorbell pages); every board of the catalogue has its SDMA doorbells. */
START_TEST(catalogue_doorbell_layouts)
{
  for (unsigned i = 0; sim_catalog_at(i); i++) {
    const struct sim_gpu_model *m = sim_catalog_at(i);
    unsigned engines = m->num_sdma_engines + m->num_sdma_xgmi_engines;
    ck_assert_uint_le(engines, sizeof m->sdma_doorbell / sizeof m->sdma_doorbell[0]);
    for (unsigned e = 0; e < engines; e++) {
      unsigned first = m->sdma_doorbell[e];
      unsigned last = first + (m->num_sdma_queues_per_engine - 1) / 2;
      ck_assert_msg(first >= m->non_cp_first && last <= m->non_cp_last,
                    "%s engine %u: doorbells 0x%x-0x%x outside the non-CP range", m->name, e,
                    first, last);
      if (e)
        ck_assert_msg(first > m->sdma_doorbell[e - 1] +
                                  (m->num_sdma_queues_per_engine - 1) / 2,
                      "%s engines %u and %u overlap", m->name, e - 1, e);
    }
  }
}
END_TEST

/* KFD's doorbell bitmap: a CP queue's doorbell is any of the process's 1024 but those the chip
 * routes elsewhere (0x100-0x18f on Vega 20 and Navi 10 onwards, 0xf0-0xff on Vega 10,
 * 0x100-0x1e8 on MI300, in both pages). */
START_TEST(cp_doorbells_avoid_the_non_cp_range)
{
  const char *board = boards[_i];
  fx_cfg.gpu_model = board;
  fx_open();
  struct sim_kfd_process *p = sim_kfd_current();
  ck_assert_ptr_nonnull(p);
  struct sim_pdd *pdd = sim_pdd_by_id(p, GPU0);
  ck_assert_ptr_nonnull(pdd);
  unsigned lo = strcmp(board, "gfx900") == 0 ? 0xf0 : 0x100;
  unsigned hi = strcmp(board, "gfx900") == 0 ? 0xff : 0x18f;
  if (strncmp(board, "gfx942", 6) == 0)
    hi = 0x1e8;   /* MI300's layout 1: SDMA, IH and VCN up to 0x1e8 */
  unsigned n = 0;
  uint32_t id;
  pthread_mutex_lock(&p->lock);
  while (sim_doorbell_alloc(pdd, &id) == 0) {
    unsigned k = id % 512;
    ck_assert_msg(k < lo || k > hi, "%s: CP doorbell 0x%x is in the non-CP range", board, id);
    n++;
  }
  pthread_mutex_unlock(&p->lock);
  ck_assert_uint_eq(n, 1024 - 2 * (hi - lo + 1));
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("sdma_queues");
  TCase *t = tcase_create("sdma");
  tcase_set_timeout(t, 60);
  tcase_add_loop_test(t, every_sdma_queue_copies_at_once, 0, boards_to_run());
  tcase_add_test(t, catalogue_doorbell_layouts);
  tcase_add_test(t, poll_waits_for_another_engines_fence);
  tcase_add_loop_test(t, cp_doorbells_avoid_the_non_cp_range, 0, boards_to_run());
  suite_add_tcase(s, t);
  return s;
}
