/* SPDX-License-Identifier: MIT */
/* test_sdma_rect.c — COPY_LINEAR_SUB_WINDOW (the rectangle copy ROCR's
 * hsa_amd_memory_async_copy_rect sends) on the SDMA engine model, compared byte for byte with
 * a host reference over whole buffers (what must change and what must not), for every
 * element size, offsets on every axis, different pitches on each side and several depths;
 * and packets the engine cannot run: the queue stops at the packet, the driver resets the
 * GPU (a HW exception event the process can wait for) and stderr names the packet and its
 * ring offset. */
#include "kfd_fixture.h"
#include "cp_fixture.h"
#include "sdma_fixture.h"

#include <stdio.h>

#define BUF (128u * 1024u)

struct win {
  uint32_t base_off;               /* from the buffer's start, dword aligned */
  uint32_t x, y, z, pitch, slice;  /* elements; pitch and slice as the copy sees them */
};

struct rect_case {
  unsigned e;                      /* element: 1 << e bytes */
  struct win src, dst;
  uint32_t w, h, d;
};

static const struct rect_case cases[] = {
  { 0, { 0, 3, 2, 0, 37, 37 * 9 }, { 8, 1, 5, 0, 50, 50 * 12 }, 29, 4, 1 },
  { 1, { 4, 5, 1, 2, 40, 40 * 10 + 6 }, { 0, 0, 3, 1, 33, 33 * 8 }, 17, 6, 3 },
  { 2, { 0, 1, 0, 1, 64, 64 * 20 }, { 12, 7, 2, 0, 30, 30 * 7 }, 23, 5, 4 },
  { 3, { 8, 0, 4, 0, 16, 16 * 8 }, { 4, 2, 0, 3, 20, 20 * 5 }, 13, 3, 2 },
  { 4, { 16, 3, 1, 1, 12, 12 * 6 }, { 4, 1, 2, 0, 9, 9 * 4 + 1 }, 7, 3, 2 },
  /* ROCR's forms: offsets only in x below a dword; a 2-D copy of wide rows as planes */
  { 0, { 4, 3, 0, 0, 0x7ffff + 1, 1001 }, { 0, 1, 0, 0, 0x7ffff + 1, 1200 }, 1000, 1, 50 },
  { 2, { 0, 0, 0, 0, 300, 1 }, { 4, 0, 0, 0, 257, 1 }, 256, 70, 1 },
};

/* dw0..12 of the packet, fields as the kernel's vega10 header places them */
static void put_sub_window(struct sdmaq *s, const struct rect_case *c, uint64_t src, uint64_t dst)
{
  const struct win *w[2] = { &c->src, &c->dst };
  uint64_t va[2] = { src + c->src.base_off, dst + c->dst.base_off };
  uint32_t p[13];
  p[0] = 1u | 4u << 8 | (uint32_t)c->e << 29;
  for (unsigned i = 0; i < 2; i++) {
    uint32_t *q = &p[1 + 5 * i];
    q[0] = (uint32_t)va[i];
    q[1] = (uint32_t)(va[i] >> 32);
    q[2] = w[i]->x | w[i]->y << 16;
    q[3] = w[i]->z | (w[i]->pitch - 1) << 13;
    q[4] = w[i]->slice - 1;
  }
  p[11] = (c->w - 1) | (c->h - 1) << 16;
  p[12] = c->d - 1;
  put(s, p, 13);
}

static uint64_t elem_off(const struct win *w, unsigned e, uint64_t x, uint64_t y, uint64_t z)
{
  return w->base_off + (((w->z + z) * w->slice + (w->y + y) * w->pitch + w->x + x) << e);
}

/* What the copy must leave in dst: element by element, byte by byte. */
static void reference(const struct rect_case *c, uint8_t *dst, const uint8_t *src)
{
  for (uint64_t z = 0; z < c->d; z++)
    for (uint64_t y = 0; y < c->h; y++)
      for (uint64_t x = 0; x < c->w; x++)
        for (uint64_t b = 0; b < (1u << c->e); b++) {
          uint64_t so = elem_off(&c->src, c->e, x, y, z) + b;
          uint64_t d = elem_off(&c->dst, c->e, x, y, z) + b;
          ck_assert_uint_lt(so, BUF);
          ck_assert_uint_lt(d, BUF);
          dst[d] = src[so];
        }
}

START_TEST(sub_window_copies_match_the_host)
{
  struct sdmaq s;
  sq_setup(&s);
  struct buf src = cpx_gtt(BUF), dst = cpx_gtt(BUF), done = cpx_gtt(4096);
  static uint8_t want[BUF];
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const struct rect_case *c = &cases[i];
    for (unsigned k = 0; k < BUF; k++) {
      src.host[k] = (uint8_t)(k * 7 + k / 251 + i);
      dst.host[k] = (uint8_t)(0xe5 ^ (k * 3));
    }
    memcpy(want, dst.host, BUF);
    reference(c, want, src.host);
    put_sub_window(&s, c, src.va, dst.va);
    fence(&s, done.va, 100 + i);
    ring(&s);
    ck_assert_msg(wait32((uint32_t *)done.host, 100 + i), "case %u: the copy did not finish", i);
    ck_assert_msg(memcmp(dst.host, want, BUF) == 0, "case %u (element %u bytes): bytes differ", i,
                  1u << c->e);
  }
  ck_assert(cpx_until64((int64_t *)s.ptrs.host, (int64_t)s.wptr, 5000));
}
END_TEST

/* ---- packets the engine cannot run ---------------------------------------------------- */

static const struct bad_packet {
  uint32_t dw[13];
  unsigned n;
  const char *why;   /* a word of the reason stderr must give */
} bad[] = {
  { { 0x3f }, 1, "opcode" },
  { { 1u | 4u << 8 | 5u << 29, 0x1000, 0, 0, 15u << 13, 0, 0x2000, 0, 0, 15u << 13, 0, 3, 0 },
    13, "element size" },
  { { 1u | 4u << 8, 0x1002, 0, 0, 15u << 13, 0, 0x2000, 0, 0, 15u << 13, 0, 3, 0 },
    13, "dword aligned" },
  { { 1u | 1u << 8 }, 1, "sub-op" },
  { { 14, 0, 0 }, 3, "privileged" },
  { { 8u | 7u << 28 | 1u << 31, 0x1000, 0, 0, ~0u, 0xfffu << 16 }, 6, "reserved" },
  { { 4, 0x1000, 0, 8, 0, 0 }, 6, "INDIRECT" },
  /* sub-ops a known opcode does not have, or has and the model does not run */
  { { 0u | 1u << 8 }, 1, "sub-op" },                                     /* NOP */
  { { 5u | 1u << 8, 0x1000, 0, 1 }, 4, "sub-op" },                        /* FENCE */
  { { 6u | 2u << 8, 1 }, 2, "sub-op" },                                   /* TRAP */
  { { 11u | 2u << 30 | 1u << 8, 0x1000, 0, 0, 3 }, 5, "sub-op" },         /* CONST_FILL */
  { { 8u | 1u << 31 | 2u << 8, 0x1000, 0, 0, 0, 0xfffu << 16 }, 6, "POLL_REGMEM sub-op" },
  { { 2u | 1u << 8, 0x1000, 0, 0, 0 }, 5, "WRITE sub-op" },              /* tiled */
  { { 13u | 3u << 8, 0x1000, 0 }, 3, "TIMESTAMP" },
};

/* Reads what was written to fd since `from` (a memfd standing in for stderr). */
static void read_all(int fd, char *out, size_t cap)
{
  ssize_t n = pread(fd, out, cap - 1, 0);
  out[n > 0 ? n : 0] = 0;
}

START_TEST(a_packet_the_engine_cannot_run_stops_the_queue_and_resets_the_gpu)
{
  const struct bad_packet *b = &bad[_i];
  struct sdmaq s;
  sq_setup(&s);
  struct kfd_ioctl_create_event_args e = { .event_type = KFD_IOC_EVENT_HW_EXCEPTION };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &e), 0);
  struct buf done = cpx_gtt(4096);
  int err = (int)syscall(SYS_memfd_create, "stderr", 0), saved = dup(2);
  ck_assert_int_ge(err, 0);
  ck_assert_int_eq(dup2(err, 2), 2);
  uint32_t nops[3] = { 0, 0, 0 };
  put(&s, nops, 3);   /* the bad packet sits at ring offset 0xc */
  put(&s, b->dw, b->n);
  fence(&s, done.va, 1);
  ring(&s);
  struct kfd_event_data d;
  uint32_t r = cpx_wait_event(e.event_id, 5000, &d);
  char text[1024];
  read_all(err, text, sizeof text);
  dup2(saved, 2);
  fputs(text, stderr);
  ck_assert_uint_eq(r, KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_uint_eq(d.hw_exception_data.gpu_id, GPU0);
  ck_assert_uint_eq(d.hw_exception_data.reset_type, KFD_HW_EXCEPTION_WHOLE_GPU_RESET);
  ck_assert_uint_eq(d.hw_exception_data.reset_cause, KFD_HW_EXCEPTION_GPU_HANG);
  ck_assert_uint_eq(d.hw_exception_data.memory_lost, 1);
  ck_assert_ptr_nonnull(strstr(text, "stopped at ring offset 0xc"));
  ck_assert_msg(strstr(text, b->why) != NULL, "stderr does not say \"%s\": %s", b->why, text);
  cpx_sleep_ms(50);
  ck_assert_uint_eq(sq_rptr(&s), 12);                 /* stopped at the packet */
  ck_assert_uint_eq(*(uint32_t *)done.host, 0);      /* nothing after it ran */
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("sdma_rect");
  TCase *t = tcase_create("sdma");
  tcase_set_timeout(t, 30);
  tcase_add_test(t, sub_window_copies_match_the_host);
  tcase_add_loop_test(t, a_packet_the_engine_cannot_run_stops_the_queue_and_resets_the_gpu, 0,
                      (int)(sizeof bad / sizeof bad[0]));
  suite_add_tcase(s, t);
  return s;
}
