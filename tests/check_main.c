/* SPDX-License-Identifier: MIT */
/* check_main.c — the main() of every Check test program: each test file provides
 * test_suite(), this runs it and turns failures into the exit status. */
#include <check.h>
#include <stdlib.h>

Suite *test_suite(void);

int main(void) {
  SRunner *runner = srunner_create(test_suite());
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
