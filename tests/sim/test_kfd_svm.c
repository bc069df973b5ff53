/* SPDX-License-Identifier: MIT */
/* test_kfd_svm.c — the SVM ioctl keeps attributes per range as the kernel does: SET_ATTR on
 * part of a range splits it, GET_ATTR over several ranges merges them (locations only when
 * all agree, access only where all grant it, flags by and/or, smallest granularity) and
 * ignores the gaps between them, memory without ranges answers the defaults, unmapped pages
 * lose their attributes, memory a KFD buffer object is mapped at is refused. A prefetch that
 * migrates tells the GPU's SMI clients (MIGRATE_START/END records in the kernel's text). */
#include "kfd_fixture.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define PG 4096u

struct svm_call {
  struct kfd_ioctl_svm_attribute at[4];
};

/* One SVM ioctl on pages [first, first+n) of base with the attributes of c (written back).
 * The argument block is the header followed by its attributes (a flexible array member),
 * so it is built on the heap. */
static int svm(char *base, unsigned first, unsigned n, uint32_t op, struct svm_call *c,
               uint32_t nattr)
{
  size_t size = sizeof(struct kfd_ioctl_svm_args) + nattr * sizeof c->at[0];
  struct kfd_ioctl_svm_args *h = calloc(1, sizeof *h + sizeof c->at);
  ck_assert_ptr_nonnull(h);
  h->start_addr = (uintptr_t)base + first * PG;
  h->size = (uint64_t)n * PG;
  h->op = op;
  h->nattr = nattr;
  memcpy(h->attrs, c->at, nattr * sizeof c->at[0]);
  unsigned long req = _IOC(_IOC_READ | _IOC_WRITE, 'K', _IOC_NR(AMDKFD_IOC_SVM), size);
  int r = kio(req, h);
  memcpy(c->at, h->attrs, nattr * sizeof c->at[0]);
  free(h);
  return r;
}

static int set1(char *base, unsigned first, unsigned n, uint32_t type, uint32_t value)
{
  struct svm_call c = { .at = { { type, value } } };
  return svm(base, first, n, KFD_IOCTL_SVM_OP_SET_ATTR, &c, 1);
}

/* GET_ATTR of one attribute: its value (for ACCESS: the type answered). */
static uint32_t get1(char *base, unsigned first, unsigned n, uint32_t type, uint32_t value)
{
  struct svm_call c = { .at = { { type, value } } };
  ck_assert_int_eq(svm(base, first, n, KFD_IOCTL_SVM_OP_GET_ATTR, &c, 1), 0);
  return type == KFD_IOCTL_SVM_ATTR_ACCESS ? c.at[0].type : c.at[0].value;
}

static char *pages(unsigned n)
{
  char *m = mmap(NULL, n * PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ck_assert_ptr_ne(m, MAP_FAILED);
  return m;
}

#define LOC KFD_IOCTL_SVM_ATTR_PREFERRED_LOC
#define SYSMEM KFD_IOCTL_SVM_LOCATION_SYSMEM
#define UNDEF KFD_IOCTL_SVM_LOCATION_UNDEFINED

START_TEST(svm_defaults_and_split)
{
  fx_open();
  char *m = pages(4);
  /* No range: the defaults. */
  ck_assert_uint_eq(get1(m, 0, 4, LOC, 0), UNDEF);
  ck_assert_uint_eq(get1(m, 0, 4, KFD_IOCTL_SVM_ATTR_GRANULARITY, 0), 9);
  ck_assert_uint_eq(get1(m, 0, 4, KFD_IOCTL_SVM_ATTR_SET_FLAGS, 0),
                    KFD_IOCTL_SVM_FLAG_HOST_ACCESS | KFD_IOCTL_SVM_FLAG_COHERENT);
  ck_assert_uint_eq(get1(m, 0, 4, KFD_IOCTL_SVM_ATTR_ACCESS, GPU0), KFD_IOCTL_SVM_ATTR_NO_ACCESS);
  /* The whole region on GPU0, then its second page in system memory: split in three. */
  ck_assert_int_eq(set1(m, 0, 4, LOC, GPU0), 0);
  ck_assert_int_eq(set1(m, 1, 1, LOC, SYSMEM), 0);
  ck_assert_uint_eq(get1(m, 0, 1, LOC, 0), GPU0);
  ck_assert_uint_eq(get1(m, 1, 1, LOC, 0), SYSMEM);
  ck_assert_uint_eq(get1(m, 2, 2, LOC, 0), GPU0);
  ck_assert_uint_eq(get1(m, 0, 4, LOC, 0), UNDEF);   /* they differ */
  ck_assert_uint_eq(get1(m, 1, 3, LOC, 0), UNDEF);
}
END_TEST

START_TEST(svm_merge_rules)
{
  fx_open();
  char *m = pages(6);
  /* Ranges on pages 1-2 only: a query over 0-3 sees them, not the gaps. */
  ck_assert_int_eq(set1(m, 1, 2, LOC, GPU0), 0);
  ck_assert_uint_eq(get1(m, 0, 4, LOC, 0), GPU0);
  /* Access: where all grant it. */
  ck_assert_int_eq(set1(m, 1, 1, KFD_IOCTL_SVM_ATTR_ACCESS, GPU0), 0);
  ck_assert_int_eq(set1(m, 2, 1, KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE, GPU0), 0);
  ck_assert_uint_eq(get1(m, 1, 1, KFD_IOCTL_SVM_ATTR_ACCESS, GPU0), KFD_IOCTL_SVM_ATTR_ACCESS);
  ck_assert_uint_eq(get1(m, 2, 1, KFD_IOCTL_SVM_ATTR_ACCESS, GPU0),
                    KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE);
  ck_assert_uint_eq(get1(m, 1, 2, KFD_IOCTL_SVM_ATTR_ACCESS, GPU0), KFD_IOCTL_SVM_ATTR_NO_ACCESS);
  ck_assert_int_eq(set1(m, 1, 1, KFD_IOCTL_SVM_ATTR_NO_ACCESS, GPU0), 0);
  ck_assert_uint_eq(get1(m, 1, 1, KFD_IOCTL_SVM_ATTR_ACCESS, GPU0), KFD_IOCTL_SVM_ATTR_NO_ACCESS);
  /* Flags: SET answers those set in all, CLR those clear in all. */
  ck_assert_int_eq(set1(m, 1, 1, KFD_IOCTL_SVM_ATTR_SET_FLAGS, KFD_IOCTL_SVM_FLAG_GPU_RO), 0);
  ck_assert_int_eq(set1(m, 2, 1, KFD_IOCTL_SVM_ATTR_CLR_FLAGS, KFD_IOCTL_SVM_FLAG_COHERENT), 0);
  ck_assert_uint_eq(get1(m, 1, 2, KFD_IOCTL_SVM_ATTR_SET_FLAGS, 0), KFD_IOCTL_SVM_FLAG_HOST_ACCESS);
  ck_assert_uint_eq(get1(m, 1, 2, KFD_IOCTL_SVM_ATTR_CLR_FLAGS, 0),
                    ~(uint32_t)(KFD_IOCTL_SVM_FLAG_HOST_ACCESS | KFD_IOCTL_SVM_FLAG_COHERENT |
                                KFD_IOCTL_SVM_FLAG_GPU_RO));
  ck_assert_uint_eq(get1(m, 1, 1, KFD_IOCTL_SVM_ATTR_SET_FLAGS, 0),
                    KFD_IOCTL_SVM_FLAG_HOST_ACCESS | KFD_IOCTL_SVM_FLAG_COHERENT |
                    KFD_IOCTL_SVM_FLAG_GPU_RO);
  /* Granularity: the smallest; the kernel keeps at most 0x3f. */
  ck_assert_int_eq(set1(m, 1, 1, KFD_IOCTL_SVM_ATTR_GRANULARITY, 5), 0);
  ck_assert_int_eq(set1(m, 2, 1, KFD_IOCTL_SVM_ATTR_GRANULARITY, 0x50), 0);
  ck_assert_uint_eq(get1(m, 2, 1, KFD_IOCTL_SVM_ATTR_GRANULARITY, 0), 0x3f);
  ck_assert_uint_eq(get1(m, 0, 6, KFD_IOCTL_SVM_ATTR_GRANULARITY, 0), 5);
  /* Prefetch location: kept like the preferred one. */
  ck_assert_int_eq(set1(m, 1, 2, KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, SYSMEM), 0);
  ck_assert_uint_eq(get1(m, 1, 2, KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, 0), SYSMEM);
}
END_TEST

START_TEST(svm_errors_and_unmap)
{
  fx_open();
  char *m = pages(4);
  struct svm_call c = { .at = { { KFD_IOCTL_SVM_ATTR_NO_ACCESS, GPU0 } } };
  /* NO_ACCESS and ACCESS_IN_PLACE are answers of GET, not questions. */
  ck_assert_int_eq(svm(m, 0, 1, KFD_IOCTL_SVM_OP_GET_ATTR, &c, 1), -EINVAL);
  ck_assert_int_eq(set1(m, 0, 1, KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, UNDEF), -EINVAL);
  ck_assert_int_eq(set1(m, 0, 1, LOC, 0x4242), -EINVAL);
  /* Unmapped pages lose their attributes; memory mapped again there starts fresh. */
  ck_assert_int_eq(set1(m, 0, 4, LOC, GPU0), 0);
  ck_assert_int_eq(munmap(m + PG, PG), 0);
  ck_assert_int_eq(set1(m, 0, 2, LOC, SYSMEM), -EFAULT);
  ck_assert_ptr_eq(mmap(m + PG, PG, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0), m + PG);
  ck_assert_uint_eq(get1(m, 1, 1, LOC, 0), UNDEF);
  ck_assert_uint_eq(get1(m, 0, 1, LOC, 0), GPU0);
  ck_assert_uint_eq(get1(m, 2, 2, LOC, 0), GPU0);
  ck_assert_uint_eq(get1(m, 0, 4, LOC, 0), GPU0);   /* the gap is not a range */
  /* A buffer object mapped on the GPU at these pages: the kernel refuses SVM there. */
  char *u = pages(2);
  struct kfd_ioctl_alloc_memory_of_gpu_args a = {
    .va_addr = (uintptr_t)u, .size = 2 * PG, .gpu_id = GPU0, .mmap_offset = (uintptr_t)u,
    .flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | FX_WRITABLE };
  ck_assert_int_eq(kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a), 0);
  uint64_t h = a.handle;
  ck_assert_int_eq(set1(u, 0, 2, LOC, GPU0), 0);   /* not mapped on a GPU yet */
  uint32_t ids[1] = { GPU0 };
  ck_assert_int_eq(fx_map(h, ids, 1, true), 0);
  ck_assert_int_eq(set1(u, 1, 1, LOC, GPU0), -EADDRINUSE);
  ck_assert_int_eq(svm(u, 0, 1, KFD_IOCTL_SVM_OP_GET_ATTR, &c, 0), -EADDRINUSE);
}
END_TEST

START_TEST(svm_migration_smi_records)
{
  fx_open();
  struct kfd_ioctl_smi_events_args sa = { .gpuid = GPU0 };
  ck_assert_int_eq(kio(AMDKFD_IOC_SMI_EVENTS, &sa), 0);
  int smi = (int)sa.anon_fd;
  char line[256] = { 0 };
  ck_assert_int_eq((int)read(smi, line, sizeof line), -1);
  ck_assert_int_eq(errno, EAGAIN);   /* nothing yet */
  uint64_t mask = KFD_SMI_EVENT_MASK_FROM_INDEX(KFD_SMI_EVENT_MIGRATE_START) |
                  KFD_SMI_EVENT_MASK_FROM_INDEX(KFD_SMI_EVENT_MIGRATE_END);
  ck_assert_int_eq((int)write(smi, &mask, sizeof mask), 8);
  char *m = pages(4);
  ck_assert_int_eq(set1(m, 1, 2, KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, GPU0), 0);
  ssize_t n = read(smi, line, sizeof line - 1);
  ck_assert_int_gt((int)n, 0);
  long long ns = 0;
  int pid = 0, trig = -1, trig2 = -1;
  unsigned long start = 0, count = 0, start2 = 0, count2 = 0;
  unsigned from = 9, to = 0, pf = 0, pref = 0, from2 = 9, to2 = 0;
  int k = sscanf(line, "5 %lld -%d @%lx(%lx) %x->%x %x:%x %d\n", &ns, &pid, &start, &count,
                 &from, &to, &pf, &pref, &trig);
  ck_assert_int_eq(k, 9);
  ck_assert_int_eq(pid, (int)getpid());
  ck_assert_uint_eq(start, ((uintptr_t)m + PG) / PG);
  ck_assert_uint_eq(count, 2);
  ck_assert_uint_eq(from, 0);   /* system memory */
  ck_assert_uint_eq(to, GPU0);
  ck_assert_uint_eq(pf, GPU0);
  ck_assert_uint_eq(pref, UNDEF);
  ck_assert_int_eq(trig, KFD_MIGRATE_TRIGGER_PREFETCH);
  const char *end = strchr(line, '\n');
  ck_assert_ptr_nonnull(end);
  k = sscanf(end + 1, "6 %lld -%d @%lx(%lx) %x->%x %d\n", &ns, &pid, &start2, &count2, &from2,
             &to2, &trig2);
  ck_assert_int_eq(k, 7);
  ck_assert_uint_eq(start2, start);
  ck_assert_uint_eq(to2, GPU0);
  /* not asked for: a VM fault's record does not come */
  mask = 0;
  ck_assert_int_eq((int)write(smi, &mask, sizeof mask), 8);
  ck_assert_int_eq(set1(m, 1, 2, KFD_IOCTL_SVM_ATTR_PREFETCH_LOC, SYSMEM), 0);
  ck_assert_int_eq((int)read(smi, line, sizeof line), -1);
  close(smi);
  munmap(m, 4 * PG);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("kfd_svm");
  TCase *t = tcase_create("svm");
  tcase_add_test(t, svm_defaults_and_split);
  tcase_add_test(t, svm_merge_rules);
  tcase_add_test(t, svm_errors_and_unmap);
  tcase_add_test(t, svm_migration_smi_records);
  suite_add_tcase(s, t);
  return s;
}
