/* SPDX-License-Identifier: MIT */
/* trap_dump.c — writes the second-level trap handler a runtime installed to a file, for
 * isa_objdump.sh: run under `hsa-sim --trace=TRACE`, it finds SET_TRAP_HANDLER's tba_addr in
 * TRACE after hsa_init and copies the code there (host memory of this process) up to and
 * including its first s_rfe_b64 ttmp[0:1]. Usage: trap_dump TRACE OUT. Exit 0 = written. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/hsa.h"

#define S_RFE_B64_TTMP0 0xbe801f6cu
#define MAX_WORDS 2048u

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s TRACE OUT\n", argv[0]);
    return 2;
  }
  if (hsa_init() != HSA_STATUS_SUCCESS) {
    fprintf(stderr, "hsa_init failed\n");
    return 1;
  }
  FILE *t = fopen(argv[1], "r");
  if (!t) {
    perror(argv[1]);
    return 1;
  }
  char line[512];
  uint64_t tba = 0;
  while (fgets(line, sizeof(line), t)) {
    const char *p = strstr(line, "SET_TRAP_HANDLER(tba_addr=");
    if (p) tba = strtoull(p + strlen("SET_TRAP_HANDLER(tba_addr="), NULL, 0);
  }
  fclose(t);
  if (!tba) {
    fprintf(stderr, "no SET_TRAP_HANDLER with a TBA in %s\n", argv[1]);
    return 1;
  }
  const uint32_t *code = (const uint32_t *)(uintptr_t)tba;
  unsigned n = 0;
  while (n < MAX_WORDS && code[n] != S_RFE_B64_TTMP0) n++;
  if (n == MAX_WORDS) {
    fprintf(stderr, "no s_rfe_b64 in the first %u words at 0x%llx\n", MAX_WORDS,
            (unsigned long long)tba);
    return 1;
  }
  FILE *o = fopen(argv[2], "wb");
  if (!o || fwrite(code, 4, n + 1, o) != n + 1 || fclose(o)) {
    perror(argv[2]);
    return 1;
  }
  printf("%u bytes of trap handler at 0x%llx\n", 4 * (n + 1), (unsigned long long)tba);
  hsa_shut_down();
  return 0;
}
