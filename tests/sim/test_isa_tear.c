/* SPDX-License-Identifier: MIT */
/* test_isa_tear.c — single-copy atomicity of naturally aligned 64-bit accesses (issue 16):
 * one side keeps storing (i, i) into 64 eight-byte slots while the other, on other host
 * threads, polls them and counts values whose halves differ. rocPRIM's look-back scan
 * publishes flag and prefix with one global_store_dwordx2 and polls them with
 * global_load_dwordx2 glc, so a torn pair is a wrong sum. Each side is a wave of its own
 * workgroup (workgroups run on several threads) or a host thread using 64-bit atomics.
 * One test per GPU family; all cases run, the failures are reported together. */
#include <pthread.h>
#include <stdarg.h>
#include <time.h>

#include "kfd_fixture.h"
#include "isa_fixture.h"

static const char *const families[] = { "gfx900", "gfx906", "gfx90a" };

/* Who stores and who polls. X4 stores (i, i, i, i) into 16-byte slots: only each aligned
 * 64-bit half is single-copy atomic (as on hardware), so only those are compared. */
enum side { GLOBAL, FLAT, BUFFER, TBUFFER, GLOBAL_X4, SMEM, HOST };

static const struct tcase_def {
  const char *name;
  enum side writer, poller;
} cases[] = {
  { "global_store_dwordx2 -> global_load_dwordx2 glc", GLOBAL, GLOBAL },
  { "flat_store_dwordx2 -> flat_load_dwordx2 glc", FLAT, FLAT },
  { "buffer_store_dwordx2 -> buffer_load_dwordx2 glc", BUFFER, BUFFER },
  { "tbuffer_store_format_xy -> tbuffer_load_format_xy glc (32_32)", TBUFFER, TBUFFER },
  { "global_store_dwordx4 -> global_load_dwordx4 glc", GLOBAL_X4, GLOBAL_X4 },
  { "global_store_dwordx2 -> s_load_dwordx2/x4 glc", GLOBAL, SMEM },
  { "host 64-bit stores -> global_load_dwordx2 glc", HOST, GLOBAL },
  { "host 64-bit stores -> buffer_load_dwordx2 glc", HOST, BUFFER },
  { "global_store_dwordx2 -> host 64-bit loads", GLOBAL, HOST },
};
#define NCASES (sizeof cases / sizeof *cases)

/* Values a wave stores per slot; a host writer stores for HOST_SECONDS instead (it is far
 * faster than a wave), then HOST_LAST. Long enough that the unfixed model tears in most
 * cases even on a busy 2-core machine. */
#define WAVE_N 40000u
#define HOST_SECONDS 0.4
#define HOST_LAST 0xffffffffu
/* Pollers per writer: on a busy machine, more of our threads make it likelier that one
 * polls while the writer is between two halves. */
#define POLLERS 2

/* aux memory: the poller's "running" flag, its results (tears, polls), torn pairs */
enum { AUX_FLAG = 0, AUX_TEARS = 2, AUX_POLLS = 3, AUX_TORN = 256 };

/* All code of a family is assembled at once (llvm-mc is slow to start): case i's writer
 * at page 2i, its poller at page 2i + 1. */
#define PAGE 4096

static size_t put(char *b, size_t at, size_t sz, const char *fmt, ...)
  __attribute__((format(printf, 4, 5)));
static size_t put(char *b, size_t at, size_t sz, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(b + at, sz - at, fmt, ap);
  va_end(ap);
  ck_assert(n >= 0 && (size_t)n < sz - at);
  return at + (size_t)n;
}

/* v6 = the lane's slot offset (v18 its 8-byte one); flat: v[6:7] the slot's address;
 * (t)buffer: s[12:15] a raw V# of the slots */
static size_t addressing(char *b, size_t at, size_t sz, enum side k)
{
  at = put(b, at, sz, "v_lshlrev_b32_e32 v6, %u, v0\nv_lshlrev_b32_e32 v18, 3, v0\n",
           k == GLOBAL_X4 ? 4u : 3u);
  if (k == FLAT)
    at = put(b, at, sz, "v_mov_b32_e32 v7, s1\nv_add_co_u32_e32 v6, vcc, s0, v6\n"
             "v_addc_co_u32_e32 v7, vcc, 0, v7, vcc\n");
  if (k == BUFFER || k == TBUFFER)
    at = put(b, at, sz, "s_mov_b32 s12, s0\ns_and_b32 s13, s1, 0xffff\n"
             "s_mov_b32 s14, 0x1000\ns_mov_b32 s15, 0x27000\n");
  return at;
}

/* Waits for the first poller's flag, then stores (i, i[, i, i]) for i = 1..n. */
static size_t writer_src(char *b, size_t at, size_t sz, enum side k, unsigned id)
{
  static const char *const store[] = {
    [GLOBAL] = "global_store_dwordx2 v6, v[2:3], s[0:1]",
    [FLAT] = "flat_store_dwordx2 v[6:7], v[2:3]",
    [BUFFER] = "buffer_store_dwordx2 v[2:3], v6, s[12:15], 0 offen",
    [TBUFFER] = "tbuffer_store_format_xy v[2:3], v6, s[12:15], 0 format:[BUF_DATA_FORMAT_32_32, BUF_NUM_FORMAT_UINT] offen",
    [GLOBAL_X4] = "global_store_dwordx4 v6, v[2:5], s[0:1]",
  };
  at = addressing(b, at, sz, k);
  return put(b, at, sz,
             "s_mov_b32 s9, 0\n"
             "wait%u:\n"
             "s_load_dword s8, s[2:3], 0x0 glc\n"
             "s_waitcnt lgkmcnt(0)\n"
             "s_cmp_eq_u32 s8, 0\n"
             "s_cbranch_scc1 wait%u\n"
             "loop%u:\n"
             "s_add_u32 s9, s9, 1\n"
             "v_mov_b32_e32 v2, s9\n"
             "v_mov_b32_e32 v3, s9\n"
             "v_mov_b32_e32 v4, s9\n"
             "v_mov_b32_e32 v5, s9\n"
             "%s\n"
             "s_cmp_lg_u32 s9, %u\n"
             "s_cbranch_scc1 loop%u\n"
             "s_endpgm\n", id, id, id, store[k], WAVE_N, id);
}

/* Sets its flag, then polls until lane 0's slot holds `last` (its high half in s22);
 * s20 counts torn pairs, s21 polls; vector pollers leave torn pairs at AUX_TORN. */
static size_t poller_src(char *b, size_t at, size_t sz, enum side k, uint32_t last, unsigned id)
{
  static const char *const load[] = {
    [GLOBAL] = "global_load_dwordx2 v[4:5], v6, s[0:1] glc",
    [FLAT] = "flat_load_dwordx2 v[4:5], v[6:7] glc",
    [BUFFER] = "buffer_load_dwordx2 v[4:5], v6, s[12:15], 0 offen glc",
    [TBUFFER] = "tbuffer_load_format_xy v[4:5], v6, s[12:15], 0 format:[BUF_DATA_FORMAT_32_32, BUF_NUM_FORMAT_UINT] offen glc",
  };
  at = addressing(b, at, sz, k);
  at = put(b, at, sz,
           "s_mov_b32 s20, 0\n"
           "s_mov_b32 s21, 0\n"
           "v_mov_b32_e32 v8, 1\n"
           "v_mov_b32_e32 v9, 0\n"
           "global_store_dword v9, v8, s[2:3]\n"
           "s_waitcnt vmcnt(0)\n"
           "poll%u:\n"
           "s_add_u32 s21, s21, 1\n", id);
  if (k == SMEM)   /* slot 0 by a dwordx2, slots 1 and 2 by one dwordx4 */
    at = put(b, at, sz,
             "s_load_dwordx2 s[24:25], s[0:1], 0x0 glc\n"
             "s_load_dwordx4 s[28:31], s[0:1], 0x8 glc\n"
             "s_waitcnt lgkmcnt(0)\n"
             "s_cmp_lg_u32 s24, s25\ns_cselect_b32 s10, 1, 0\ns_add_u32 s20, s20, s10\n"
             "s_cmp_lg_u32 s28, s29\ns_cselect_b32 s10, 1, 0\ns_add_u32 s20, s20, s10\n"
             "s_cmp_lg_u32 s30, s31\ns_cselect_b32 s10, 1, 0\ns_add_u32 s20, s20, s10\n"
             "s_mov_b32 s22, s25\n");
  else if (k == GLOBAL_X4)
    at = put(b, at, sz,
             "global_load_dwordx4 v[12:15], v6, s[0:1] glc\n"
             "s_waitcnt vmcnt(0)\n"
             "v_cmp_ne_u32_e32 vcc, v12, v13\n"
             "s_bcnt1_i32_b64 s10, vcc\ns_add_u32 s20, s20, s10\n"
             "v_cmp_ne_u32_e32 vcc, v14, v15\n"
             "s_bcnt1_i32_b64 s10, vcc\ns_add_u32 s20, s20, s10\n"
             "v_readfirstlane_b32 s22, v15\n");
  else
    at = put(b, at, sz,
             "%s\n"
             "s_waitcnt vmcnt(0)\n"
             "v_cmp_ne_u32_e32 vcc, v4, v5\n"
             "s_bcnt1_i32_b64 s10, vcc\ns_add_u32 s20, s20, s10\n"
             "s_and_saveexec_b64 s[16:17], vcc\n"
             "global_store_dwordx2 v18, v[4:5], s[2:3] offset:%u\n"
             "s_mov_b64 exec, s[16:17]\n"
             "v_readfirstlane_b32 s22, v5\n", load[k], AUX_TORN * 4);
  return put(b, at, sz,
             "s_cmp_lg_u32 s22, %u\n"
             "s_cbranch_scc1 poll%u\n"
             "v_mov_b32_e32 v10, s20\n"
             "v_mov_b32_e32 v11, s21\n"
             "global_store_dwordx2 v9, v[10:11], s[2:3] offset:%u\n"
             "s_endpgm\n", last, id, AUX_TEARS * 4);
}

struct side_run {
  struct isa_fx_run r;
  bool gpu;
  int rc;
  uint64_t *slots;
  uint32_t *aux;      /* this side's; the writer waits for the first poller's flag */
  uint64_t example;   /* host poller: a torn value */
};

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *host_writer(struct side_run *s)
{
  while (!__atomic_load_n(&s->aux[AUX_FLAG], __ATOMIC_ACQUIRE))
    ;
  double end = now_s() + HOST_SECONDS;
  for (uint64_t i = 1;; i++) {
    if ((i & 255) == 0 && now_s() > end)
      i = HOST_LAST;
    for (unsigned l = 0; l < 64; l++)
      __atomic_store_n(&s->slots[l], i << 32 | i, __ATOMIC_RELAXED);
    if (i == HOST_LAST)
      return NULL;
  }
}

static void *host_poller(struct side_run *s)
{
  uint32_t tears = 0, polls = 0;
  uint64_t last = (uint64_t)WAVE_N << 32 | WAVE_N;
  __atomic_store_n(&s->aux[AUX_FLAG], 1, __ATOMIC_RELEASE);
  for (uint64_t v0 = 0; v0 != last;) {
    polls++;
    for (unsigned l = 0; l < 64; l++) {
      uint64_t v = __atomic_load_n(&s->slots[l], __ATOMIC_RELAXED);
      if ((uint32_t)v != (uint32_t)(v >> 32)) {
        tears++;
        s->example = v;
      }
      if (l == 0)
        v0 = v;
    }
  }
  s->aux[AUX_TEARS] = tears;
  s->aux[AUX_POLLS] = polls;
  return NULL;
}

static void *run_writer(void *p)
{
  struct side_run *s = p;
  if (!s->gpu)
    return host_writer(s);
  s->rc = isa_fx_go(&s->r);
  return NULL;
}

static void *run_poller(void *p)
{
  struct side_run *s = p;
  if (!s->gpu)
    return host_poller(s);
  s->rc = isa_fx_go(&s->r);
  return NULL;
}

/* One case; appends a line to `report` when it tore. */
static void run_case(const char *mcpu, const struct tcase_def *c, uint8_t *wcode, uint8_t *pcode,
                     char *report, size_t rsize)
{
  uint64_t *slots = isa_fx_mem(4096);
  static struct side_run w, p[POLLERS];
  for (unsigned j = 0; j < POLLERS; j++) {
    p[j] = (struct side_run){ .gpu = c->poller != HOST, .slots = slots, .aux = isa_fx_mem(4096) };
    if (p[j].gpu)
      isa_fx_setup(&p[j].r, pcode, 1, (uintptr_t)slots, (uintptr_t)p[j].aux);
  }
  w = (struct side_run){ .gpu = c->writer != HOST, .slots = slots, .aux = p[0].aux };
  if (w.gpu)
    isa_fx_setup(&w.r, wcode, 1, (uintptr_t)slots, (uintptr_t)w.aux);
  double t0 = now_s();
  pthread_t tw, tp[POLLERS];
  for (unsigned j = 0; j < POLLERS; j++)
    ck_assert_int_eq(pthread_create(&tp[j], NULL, run_poller, &p[j]), 0);
  ck_assert_int_eq(pthread_create(&tw, NULL, run_writer, &w), 0);
  pthread_join(tw, NULL);
  if (w.rc) {   /* release the pollers before failing */
    uint32_t last = w.gpu ? WAVE_N : HOST_LAST;
    for (unsigned i = 0; i < 512; i++)
      __atomic_store_n(&slots[i], (uint64_t)last << 32 | last, __ATOMIC_RELAXED);
  }
  for (unsigned j = 0; j < POLLERS; j++)
    pthread_join(tp[j], NULL);
  ck_assert_msg(w.rc == 0, "%s %s: writer fault: %s", mcpu, c->name, w.r.fault.text);
  uint32_t tears = 0, polls = 0;
  uint64_t torn = 0;
  for (unsigned j = 0; j < POLLERS; j++) {
    ck_assert_msg(p[j].rc == 0, "%s %s: poller fault: %s", mcpu, c->name, p[j].r.fault.text);
    tears += p[j].aux[AUX_TEARS];
    polls += p[j].aux[AUX_POLLS];
    if (p[j].example)
      torn = p[j].example;
    for (unsigned l = 0; l < 64 && !torn; l++)
      torn = (uint64_t)p[j].aux[AUX_TORN + 2 * l + 1] << 32 | p[j].aux[AUX_TORN + 2 * l];
  }
  fprintf(stderr, "%s %s: %u polls, %u torn pairs, %.2f s\n", mcpu, c->name, polls, tears,
          now_s() - t0);
  ck_assert_uint_gt(polls, 0);
  if (tears) {
    size_t at = strlen(report);
    snprintf(report + at, rsize - at, "\n  %s %s: %u torn pairs in %u polls", mcpu, c->name,
             tears, polls);
    if (torn) {
      at = strlen(report);
      snprintf(report + at, rsize - at, " (e.g. 0x%016llx)", (unsigned long long)torn);
    }
  }
}

START_TEST(no_torn_64bit_pairs)
{
  const char *mcpu = families[_i];
  fx_cfg.gpu_model = mcpu;   /* this test's forked child only */
  fx_open();
  static char src[NCASES * 2 * 2048];
  size_t at = 0;
  for (unsigned i = 0; i < NCASES; i++) {
    at = put(src, at, sizeof src, ".p2align 12\n");
    at = cases[i].writer == HOST ? put(src, at, sizeof src, "s_endpgm\n")
                                 : writer_src(src, at, sizeof src, cases[i].writer, i);
    at = put(src, at, sizeof src, ".p2align 12\n");
    at = cases[i].poller == HOST
           ? put(src, at, sizeof src, "s_endpgm\n")
           : poller_src(src, at, sizeof src, cases[i].poller,
                        cases[i].writer == HOST ? HOST_LAST : WAVE_N, i);
  }
  uint8_t *code = isa_fx_code_for(mcpu, src, NULL);
  if (!code) {
    fprintf(stderr, "llvm-mc missing: skipped\n");
    return;
  }
  char report[2048] = "";
  for (unsigned i = 0; i < NCASES; i++)
    run_case(mcpu, &cases[i], code + 2 * i * PAGE, code + (2 * i + 1) * PAGE, report,
             sizeof report);
  ck_assert_msg(!report[0], "values torn:%s", report);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("isa_tear");
  TCase *t = tcase_create("tear");
  tcase_set_timeout(t, 60);
  tcase_add_loop_test(t, no_torn_64bit_pairs, 0, (int)(sizeof families / sizeof *families));
  suite_add_tcase(s, t);
  return s;
}
