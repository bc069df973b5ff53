/* SPDX-License-Identifier: MIT */
/* test_kfd_report.c — a refused kernel call is named once per (call, errno) on stderr, with
 * the errno's name and a meaning fitting the call, and not at all when
 * HSA_ENABLE_DRIVER_MESSAGES=0. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kfd/kfd.h"

/* Runs the calls with stderr sent to a file and returns what was written. */
static void capture(void (*fn)(void), char *out, size_t size) {
  fflush(stderr);
  FILE *tmp = tmpfile();
  ck_assert_ptr_nonnull(tmp);
  int saved = dup(2);
  dup2(fileno(tmp), 2);
  fn();
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t n = fread(out, 1, size - 1, tmp);
  out[n] = '\0';
  fclose(tmp);
}

static void refusals(void) {
  kfd_report("AMDKFD_IOC_CREATE_QUEUE", -ENOSPC);
  kfd_report("AMDKFD_IOC_CREATE_QUEUE", -ENOSPC);   /* said already */
  kfd_report("AMDKFD_IOC_CREATE_QUEUE", 0);         /* not a refusal */
  kfd_report("AMDKFD_IOC_ALLOC_MEMORY_OF_GPU", -ENOMEM);
}

static void silenced(void) {
  setenv("HSA_ENABLE_DRIVER_MESSAGES", "0", 1);
  kfd_report("AMDKFD_IOC_MAP_MEMORY_TO_GPU", -EFAULT);
  unsetenv("HSA_ENABLE_DRIVER_MESSAGES");
}

START_TEST(named_once_with_meaning) {
  char text[2048];
  capture(refusals, text, sizeof text);
  const char *q = strstr(text, "AMDKFD_IOC_CREATE_QUEUE: ENOSPC");
  ck_assert_msg(q != NULL, "got: %s", text);
  ck_assert_ptr_null(strstr(q + 1, "AMDKFD_IOC_CREATE_QUEUE"));
  ck_assert_ptr_nonnull(strstr(text, "hardware queue"));
  ck_assert_ptr_nonnull(strstr(text, "AMDKFD_IOC_ALLOC_MEMORY_OF_GPU: ENOMEM"));
  ck_assert_ptr_nonnull(strstr(text, "out of memory"));
  unsigned lines = 0;
  for (const char *c = text; *c; c++) lines += *c == '\n';
  ck_assert_uint_eq(lines, 2);
  capture(silenced, text, sizeof text);
  ck_assert_str_eq(text, "");
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("kfd_report");
  TCase *tc = tcase_create("report");
  tcase_add_test(tc, named_once_with_meaning);
  suite_add_tcase(s, tc);
  return s;
}
