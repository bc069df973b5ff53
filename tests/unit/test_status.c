/* SPDX-License-Identifier: MIT */
/* test_status.c — hsa_status_string covers every status code and rejects the rest. */
#include <check.h>
#include <string.h>

#include "hsa.h"
#include "hsa_ext_amd.h"
#include "hsa_ext_finalize.h"
#include "hsa_ext_image.h"

/* Every code the HSA, image, finalizer and AMD headers define, listed independently of
 * the table in status.c, with the enumerator's own name the text must start with. */
#define CODE(c) {c, #c}
static const struct { int code; const char *name; } all_codes[] = {
  CODE(HSA_STATUS_SUCCESS), CODE(HSA_STATUS_INFO_BREAK), CODE(HSA_STATUS_ERROR),
  CODE(HSA_STATUS_ERROR_INVALID_ARGUMENT), CODE(HSA_STATUS_ERROR_INVALID_QUEUE_CREATION),
  CODE(HSA_STATUS_ERROR_INVALID_ALLOCATION), CODE(HSA_STATUS_ERROR_INVALID_AGENT),
  CODE(HSA_STATUS_ERROR_INVALID_REGION), CODE(HSA_STATUS_ERROR_INVALID_SIGNAL),
  CODE(HSA_STATUS_ERROR_INVALID_QUEUE), CODE(HSA_STATUS_ERROR_OUT_OF_RESOURCES),
  CODE(HSA_STATUS_ERROR_INVALID_PACKET_FORMAT), CODE(HSA_STATUS_ERROR_RESOURCE_FREE),
  CODE(HSA_STATUS_ERROR_NOT_INITIALIZED), CODE(HSA_STATUS_ERROR_REFCOUNT_OVERFLOW),
  CODE(HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS), CODE(HSA_STATUS_ERROR_INVALID_INDEX),
  CODE(HSA_STATUS_ERROR_INVALID_ISA), CODE(HSA_STATUS_ERROR_INVALID_ISA_NAME),
  CODE(HSA_STATUS_ERROR_INVALID_CODE_OBJECT), CODE(HSA_STATUS_ERROR_INVALID_EXECUTABLE),
  CODE(HSA_STATUS_ERROR_FROZEN_EXECUTABLE), CODE(HSA_STATUS_ERROR_INVALID_SYMBOL_NAME),
  CODE(HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED), CODE(HSA_STATUS_ERROR_VARIABLE_UNDEFINED),
  CODE(HSA_STATUS_ERROR_EXCEPTION), CODE(HSA_STATUS_ERROR_INVALID_CODE_SYMBOL),
  CODE(HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL), CODE(HSA_STATUS_ERROR_INVALID_FILE),
  CODE(HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER), CODE(HSA_STATUS_ERROR_INVALID_CACHE),
  CODE(HSA_STATUS_ERROR_INVALID_WAVEFRONT), CODE(HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP),
  CODE(HSA_STATUS_ERROR_INVALID_RUNTIME_STATE), CODE(HSA_STATUS_ERROR_FATAL),
  CODE(HSA_EXT_STATUS_ERROR_INVALID_PROGRAM), CODE(HSA_EXT_STATUS_ERROR_INVALID_MODULE),
  CODE(HSA_EXT_STATUS_ERROR_INCOMPATIBLE_MODULE),
  CODE(HSA_EXT_STATUS_ERROR_MODULE_ALREADY_INCLUDED),
  CODE(HSA_EXT_STATUS_ERROR_SYMBOL_MISMATCH), CODE(HSA_EXT_STATUS_ERROR_FINALIZATION_FAILED),
  CODE(HSA_EXT_STATUS_ERROR_DIRECTIVE_MISMATCH),
  CODE(HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED),
  CODE(HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED),
  CODE(HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED),
  CODE(HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED),
  CODE(HSA_STATUS_ERROR_INVALID_MEMORY_POOL), CODE(HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION),
  CODE(HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION), CODE(HSA_STATUS_ERROR_MEMORY_FAULT),
  CODE(HSA_STATUS_CU_MASK_REDUCED), CODE(HSA_STATUS_ERROR_OUT_OF_REGISTERS),
  CODE(HSA_STATUS_ERROR_RESOURCE_BUSY), CODE(HSA_STATUS_ERROR_NOT_SUPPORTED),
  CODE(HSA_STATUS_ERROR_XNACK_DISABLED),
};
#define NCODES (sizeof all_codes / sizeof all_codes[0])

START_TEST(every_code_has_its_own_text) {
  const char *text = NULL;
  ck_assert_int_eq(hsa_status_string((hsa_status_t)all_codes[_i].code, &text), HSA_STATUS_SUCCESS);
  ck_assert_ptr_nonnull(text);
  /* The text starts with the enumerator's name, then says something about it. */
  size_t n = strlen(all_codes[_i].name);
  ck_assert_msg(strncmp(text, all_codes[_i].name, n) == 0 && text[n] == ':',
                "text for %s is \"%s\"", all_codes[_i].name, text);
  ck_assert_uint_gt(strlen(text), n + 20);
}
END_TEST

START_TEST(texts_are_distinct) {
  const char *a, *b;
  for (size_t j = 0; j < NCODES; j++) {
    if ((int)j == _i)
      continue;
    ck_assert_int_eq(hsa_status_string((hsa_status_t)all_codes[_i].code, &a), HSA_STATUS_SUCCESS);
    ck_assert_int_eq(hsa_status_string((hsa_status_t)all_codes[j].code, &b), HSA_STATUS_SUCCESS);
    ck_assert_str_ne(a, b);
  }
}
END_TEST

START_TEST(unknown_codes_and_null_are_rejected) {
  const char *text = "untouched";
  ck_assert_int_eq(hsa_status_string((hsa_status_t)0x1027, &text),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_status_string((hsa_status_t)0x7fffffff, &text),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_status_string((hsa_status_t)2, &text), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_str_eq(text, "untouched");
  ck_assert_int_eq(hsa_status_string(HSA_STATUS_SUCCESS, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("status");
  TCase *tc = tcase_create("strings");
  tcase_add_loop_test(tc, every_code_has_its_own_text, 0, (int)NCODES);
  tcase_add_loop_test(tc, texts_are_distinct, 0, (int)NCODES);
  tcase_add_test(tc, unknown_codes_and_null_are_rejected);
  suite_add_tcase(s, tc);
  return s;
}
