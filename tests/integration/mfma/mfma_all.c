/* SPDX-License-Identifier: MIT */
/* Runs every case named on the command line through the kernel corpus harness
 * (tests/kernels/harness.c, built with main renamed harness_main) in one process, so the
 * simulator starts once: mfma_all CODE_OBJECT CASE... Prints PASS/FAIL per case; exits 0
 * when all pass. A case that cannot be set up ends the process (the harness's own exit). */
#include <stdio.h>

int harness_main(int argc, char **argv);

int main(int argc, char **argv)
{
  if (argc < 3) {
    fprintf(stderr, "usage: mfma_all CODE_OBJECT CASE...\n");
    return 2;
  }
  int bad = 0;
  for (int i = 2; i < argc; i++) {
    char *args[] = {"harness", "--timeout", "60", argv[i], argv[1], NULL};
    int rc = harness_main(5, args);
    printf("%s  %s\n", rc ? "FAIL" : "PASS", argv[i]);
    fflush(stdout);
    bad |= rc != 0;
  }
  return bad;
}
