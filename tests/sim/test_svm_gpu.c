/* SPDX-License-Identifier: MIT */
/* test_svm_gpu.c — SVM ranges reach the GPU as the kernel maps them (svm_range_validate_and_map):
 * an SDMA engine copies to and from plain user memory once SET_ATTR grants the GPU access (and
 * after a prefetch), gets a VM fault (memory exception event) without access, after NO_ACCESS,
 * and after the memory was unmapped; with XNACK on (gfx90a) an access to memory no range
 * covers is a retry fault the driver services, except where a range denies that GPU. Bytes
 * are compared with what the host computes. GPU_RO and read-only CPU mappings refuse GPU writes. */
#include "kfd_fixture.h"
#include "cp_fixture.h"
#include "sdma_fixture.h"

#include <stdlib.h>

#define PG 4096u
#define N (3 * PG)

static int svm1(void *base, uint64_t size, uint32_t op, uint32_t type, uint32_t *value)
{
  struct kfd_ioctl_svm_args *h = calloc(1, sizeof *h + sizeof h->attrs[0]);
  ck_assert_ptr_nonnull(h);
  h->start_addr = (uintptr_t)base;
  h->size = size;
  h->op = op;
  h->nattr = 1;
  h->attrs[0].type = type;
  h->attrs[0].value = *value;
  unsigned long req = _IOC(_IOC_READ | _IOC_WRITE, 'K', _IOC_NR(AMDKFD_IOC_SVM),
                           sizeof *h + sizeof h->attrs[0]);
  int r = kio(req, h);
  *value = type == KFD_IOCTL_SVM_ATTR_ACCESS && op == KFD_IOCTL_SVM_OP_GET_ATTR ? h->attrs[0].type
                                                                                  : h->attrs[0].value;
  free(h);
  return r;
}

static int set1(void *base, uint64_t size, uint32_t type, uint32_t value)
{
  return svm1(base, size, KFD_IOCTL_SVM_OP_SET_ATTR, type, &value);
}

static uint8_t *user_pages(size_t n)
{
  uint8_t *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(m, MAP_FAILED);
  return m;
}

static void copy(struct sdmaq *s, uint64_t dst, uint64_t src, uint32_t bytes)
{
  uint32_t c[7] = { 1, bytes - 1, 0, (uint32_t)src, (uint32_t)(src >> 32), (uint32_t)dst,
                    (uint32_t)(dst >> 32) };
  put(s, c, 7);
}

static uint32_t memory_event(void)
{
  struct kfd_ioctl_create_event_args e = { .event_type = KFD_IOC_EVENT_MEMORY };
  ck_assert_int_eq(kio(AMDKFD_IOC_CREATE_EVENT, &e), 0);
  return e.event_id;
}

/* A copy from `src` (an SVM address) must fault at it: the event names it, the fence after
 * it never lands. */
static void expect_fault(uint64_t src)
{
  struct sdmaq s;
  sq_setup(&s);
  uint32_t ev = memory_event();
  struct buf dst = cpx_gtt(PG), done = cpx_gtt(PG);
  copy(&s, dst.va, src, 64);
  fence(&s, done.va, 1);
  ring(&s);
  struct kfd_event_data d;
  ck_assert_uint_eq(cpx_wait_event(ev, 5000, &d), KFD_IOC_WAIT_RESULT_COMPLETE);
  ck_assert_uint_eq(d.memory_exception_data.va, src & ~(uint64_t)(PG - 1));   /* its page */
  cpx_sleep_ms(20);
  ck_assert_uint_eq(*(uint32_t *)done.host, 0);
}

static const char *const boards[] = { "gfx900", "gfx906", "gfx90a", "gfx942", "gfx942-apu",
                                      "gfx1100", "gfx1201" };

/* on every board (each loop iteration is a forked child of its own) */
START_TEST(access_maps_the_range_for_sdma)
{
  fx_cfg.gpu_model = boards[_i];
  fx_open();
  uint8_t *m = user_pages(N);
  for (unsigned i = 0; i < N; i++)
    m[i] = (uint8_t)(i * 5 + 3);
  ck_assert_int_eq(set1(m, N, KFD_IOCTL_SVM_ATTR_ACCESS, GPU0), 0);
  struct sdmaq s;
  sq_setup(&s);
  struct buf g = cpx_gtt(N), done = cpx_gtt(PG);
  for (unsigned i = 0; i < N; i++)
    g.host[i] = (uint8_t)(i * 11 + 1);
  uint64_t sv = (uintptr_t)m;
  copy(&s, g.va, sv + 100, 9000);            /* SVM -> GTT, across pages */
  copy(&s, sv + 2 * PG + 8, g.va + 9000, 1000);   /* GTT -> SVM */
  fence(&s, done.va, 1);
  ring(&s);
  ck_assert(wait32((uint32_t *)done.host, 1));
  uint8_t want_g[N], want_m[N];
  for (unsigned i = 0; i < N; i++)
    want_m[i] = (uint8_t)(i * 5 + 3), want_g[i] = (uint8_t)(i * 11 + 1);
  memcpy(want_g, want_m + 100, 9000);
  memcpy(want_m + 2 * PG + 8, want_g + 9000, 1000);
  ck_assert_int_eq(memcmp(g.host, want_g, N), 0);
  ck_assert_int_eq(memcmp(m, want_m, N), 0);

  /* prefetch to the GPU (it migrates; the range stays reachable) and back to system memory */
  ck_assert_int_eq(set1(m, N, KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, GPU0), 0);
  uint32_t v = 0;
  ck_assert_int_eq(svm1(m, N, KFD_IOCTL_SVM_OP_GET_ATTR, KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, &v), 0);
  ck_assert_uint_eq(v, GPU0);
  memset(g.host, 0, N);
  copy(&s, g.va, sv, N);
  fence(&s, done.va, 2);
  ring(&s);
  ck_assert(wait32((uint32_t *)done.host, 2));
  ck_assert_int_eq(memcmp(g.host, want_m, N), 0);
  ck_assert_int_eq(set1(m, N, KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, KFD_IOCTL_SVM_LOCATION_SYSMEM), 0);
  for (unsigned i = 0; i < N; i++)
    g.host[i] = (uint8_t)(i ^ 0x5a);
  copy(&s, sv, g.va, N);
  fence(&s, done.va, 3);
  ring(&s);
  ck_assert(wait32((uint32_t *)done.host, 3));
  ck_assert_int_eq(memcmp(m, g.host, N), 0);
}
END_TEST

START_TEST(no_access_is_a_vm_fault)
{
  fx_open();
  uint8_t *m = user_pages(N);
  /* a range with attributes but no access for the GPU (XNACK off: nothing maps it) */
  ck_assert_int_eq(set1(m, N, KFD_IOCTL_SVM_ATTR_SET_FLAGS, KFD_IOCTL_SVM_FLAG_COHERENT), 0);
  expect_fault((uintptr_t)m + PG);
}
END_TEST

START_TEST(no_access_after_access_unmaps)
{
  fx_open();
  uint8_t *m = user_pages(N);
  ck_assert_int_eq(set1(m, N, KFD_IOCTL_SVM_ATTR_ACCESS, GPU0), 0);
  ck_assert_int_eq(set1(m + PG, PG, KFD_IOCTL_SVM_ATTR_NO_ACCESS, GPU0), 0);
  expect_fault((uintptr_t)m + PG + 64);
}
END_TEST

/* GPU_RO (svm_range_get_pte_flags) and a CPU mapping without PROT_WRITE map the pages
 * read-only: the GPU reads them, a write is refused (a permission fault); clearing GPU_RO on a
 * writable mapping gives the write back. */
START_TEST(gpu_ro_and_read_only_memory_refuse_writes)
{
  fx_open();
  uint8_t *m = user_pages(N);
  ck_assert_int_eq(set1(m, N, KFD_IOCTL_SVM_ATTR_ACCESS, GPU0), 0);
  ck_assert_ptr_eq(sim_vm_translate_write(sim_gpu(0), (uintptr_t)m + 8, 8), m + 8);
  ck_assert_int_eq(set1(m + PG, PG, KFD_IOCTL_SVM_ATTR_SET_FLAGS, KFD_IOCTL_SVM_FLAG_GPU_RO), 0);
  ck_assert_ptr_eq(sim_vm_translate(sim_gpu(0), (uintptr_t)m + PG + 8, 8), m + PG + 8);
  ck_assert_ptr_null(sim_vm_translate_write(sim_gpu(0), (uintptr_t)m + PG + 8, 8));
  ck_assert_ptr_eq(sim_vm_translate_write(sim_gpu(0), (uintptr_t)m + 2 * PG, 8), m + 2 * PG);
  uint64_t lo, hi;
  bool w = true;
  ck_assert_ptr_eq(sim_vm_lookup_prot(sim_gpu(0), (uintptr_t)m + PG, &lo, &hi, &w), m + PG);
  ck_assert(!w);
  ck_assert_int_eq(set1(m + PG, PG, KFD_IOCTL_SVM_ATTR_CLR_FLAGS, KFD_IOCTL_SVM_FLAG_GPU_RO), 0);
  ck_assert_ptr_eq(sim_vm_translate_write(sim_gpu(0), (uintptr_t)m + PG + 8, 8), m + PG + 8);
  ck_assert_int_eq(mprotect(m + 2 * PG, PG, PROT_READ), 0);
  sim_kfd_mprotected(m + 2 * PG, PG);   /* what sim/os's mprotect tells the model */
  ck_assert_ptr_eq(sim_vm_translate(sim_gpu(0), (uintptr_t)m + 2 * PG, 8), m + 2 * PG);
  ck_assert_ptr_null(sim_vm_translate_write(sim_gpu(0), (uintptr_t)m + 2 * PG, 8));
  ck_assert_ptr_eq(sim_vm_translate_write(sim_gpu(0), (uintptr_t)m + 8, 8), m + 8);
}
END_TEST

START_TEST(munmap_drops_the_range)
{
  fx_open();
  uint8_t *m = user_pages(N);
  ck_assert_int_eq(set1(m, N, KFD_IOCTL_SVM_ATTR_ACCESS, GPU0), 0);
  /* what the interposer does for a munmap: tell the driver, then unmap; new memory there
   * has no range */
  ck_assert_int_eq(sim_kfd_munmap(m, N), 0);
  ck_assert_int_eq(munmap(m, N), 0);
  uint8_t *again = mmap(m, N, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  ck_assert_ptr_eq(again, m);
  expect_fault((uintptr_t)m);
}
END_TEST

/* gfx90a with XNACK on: plain memory is reached through the retry fault, unless denied */
START_TEST(xnack_services_retry_faults)
{
  fx_cfg.gpu_model = "gfx90a";   /* this test's forked child only */
  fx_open();
  struct kfd_ioctl_set_xnack_mode_args x = { .xnack_enabled = 1 };
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_XNACK_MODE, &x), 0);
  uint8_t *m = user_pages(N), *denied = user_pages(PG);
  for (unsigned i = 0; i < N; i++)
    m[i] = (uint8_t)(i * 3 + 7);
  struct sdmaq s;
  sq_setup(&s);
  struct buf g = cpx_gtt(N), done = cpx_gtt(PG);
  copy(&s, g.va, (uintptr_t)m, N);
  fence(&s, done.va, 1);
  ring(&s);
  ck_assert(wait32((uint32_t *)done.host, 1));
  ck_assert_int_eq(memcmp(g.host, m, N), 0);
  uint32_t v = GPU0;   /* the serviced fault made a range every GPU may access */
  ck_assert_int_eq(svm1(m, N, KFD_IOCTL_SVM_OP_GET_ATTR, KFD_IOCTL_SVM_ATTR_ACCESS, &v), 0);
  ck_assert_uint_eq(v, KFD_IOCTL_SVM_ATTR_ACCESS);
  ck_assert_int_eq(set1(denied, PG, KFD_IOCTL_SVM_ATTR_NO_ACCESS, GPU0), 0);
  expect_fault((uintptr_t)denied + 8);
}
END_TEST

START_TEST(xnack_only_where_the_kernel_allows_it)
{
  fx_cfg.gpu_model = "gfx906";
  fx_open();
  struct kfd_ioctl_set_xnack_mode_args x = { .xnack_enabled = 1 };
  ck_assert_int_eq(kio(AMDKFD_IOC_SET_XNACK_MODE, &x), -EPERM);
  uint8_t *m = user_pages(PG);
  expect_fault((uintptr_t)m);   /* XNACK off: no range, no mapping */
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("svm_gpu");
  TCase *t = tcase_create("svm");
  tcase_set_timeout(t, 30);
  tcase_add_loop_test(t, access_maps_the_range_for_sdma, 0, (int)(sizeof boards / sizeof boards[0]));
  tcase_add_test(t, no_access_is_a_vm_fault);
  tcase_add_test(t, no_access_after_access_unmaps);
  tcase_add_test(t, gpu_ro_and_read_only_memory_refuse_writes);
  tcase_add_test(t, munmap_drops_the_range);
  tcase_add_test(t, xnack_services_retry_faults);
  tcase_add_test(t, xnack_only_where_the_kernel_allows_it);
  suite_add_tcase(s, t);
  return s;
}
