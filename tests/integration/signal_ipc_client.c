/* SPDX-License-Identifier: MIT */
/* signal_ipc_client.c — two processes share a signal: "create" makes an IPC signal holding 7,
 * prints its handle and waits (blocked) until the value is 42; "attach WORDS..." attaches to
 * the handle, reports the value it sees, and stores 42. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

int main(int argc, char **argv)
{
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (hsa_init() != HSA_STATUS_SUCCESS) return 2;
  hsa_amd_ipc_signal_t h;
  hsa_signal_t s;
  if (argc == 2 && strcmp(argv[1], "create") == 0) {
    if (hsa_amd_signal_create(7, 0, NULL, HSA_AMD_SIGNAL_IPC, &s) != HSA_STATUS_SUCCESS) return 3;
    if (hsa_amd_ipc_signal_create(s, &h) != HSA_STATUS_SUCCESS) return 4;
    printf("handle");
    for (int i = 0; i < 8; i++) printf(" %u", h.handle[i]);
    printf("\n");
    uint64_t f = 0;
    hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &f);
    hsa_signal_value_t v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 42, f * 20,
                                                     HSA_WAIT_STATE_BLOCKED);
    printf("creator saw %lld\n", (long long)v);
  } else if (argc == 10 && strcmp(argv[1], "attach") == 0) {
    for (int i = 0; i < 8; i++) h.handle[i] = (uint32_t)strtoul(argv[2 + i], NULL, 10);
    hsa_status_t st = hsa_amd_ipc_signal_attach(&h, &s);
    printf("attach %d\n", st);
    if (st != HSA_STATUS_SUCCESS) return 5;
    printf("attacher saw %lld\n", (long long)hsa_signal_load_scacquire(s));
    hsa_signal_store_screlease(s, 42);
    printf("destroy %d\n", hsa_signal_destroy(s));
  } else {
    return 1;
  }
  printf("shut_down %d\n", hsa_shut_down());
  return 0;
}
