/* SPDX-License-Identifier: MIT */
/* tools_aqlprofile_client.c — for tools_aqlprofile.sh: asks for the AQL profile extension's
 * table both ways and prints what it got: statuses, which entries are set, what the
 * library's functions answer, and whether the length-less call wrote past ROCm 5.2's table. */
#include <hsa/hsa.h>
#include <hsa/hsa_ven_amd_aqlprofile.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define PFN52 offsetof(hsa_ven_amd_aqlprofile_pfn_t, hsa_ven_amd_aqlprofile_iterate_event_ids)

static void show(const char *what, hsa_status_t st, const hsa_ven_amd_aqlprofile_pfn_t *t) {
  printf("%s status %#x", what, (unsigned)st);
  if (st == HSA_STATUS_SUCCESS) {
    const char *s = NULL;
    printf(" major %u minor %u", t->hsa_ven_amd_aqlprofile_version_major(),
           t->hsa_ven_amd_aqlprofile_version_minor());
    t->hsa_ven_amd_aqlprofile_error_string(&s);
    printf(" error_string '%s' set", s);
    void *const *p = (void *const *)t;
    for (size_t i = 0; i < PFN52 / sizeof(void *); i++) printf(" %d", p[i] != NULL);
  }
  printf("\n");
}

int main(void) {
  if (hsa_init() != HSA_STATUS_SUCCESS) return 1;
  bool yes = false;
  hsa_system_extension_supported(HSA_EXTENSION_AMD_AQLPROFILE, 1, 0, &yes);
  printf("supported %d\n", yes);
  union { hsa_ven_amd_aqlprofile_pfn_t t; unsigned char bytes[512]; } u;
  memset(&u, 0xa5, sizeof(u));
  show("major", hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_AQLPROFILE, 1, PFN52, &u.t), &u.t);
  int past = 0;
  for (size_t i = PFN52; i < sizeof(u.bytes); i++) past |= u.bytes[i] != 0xa5;
  printf("major wrote past the given length %d\n", past);
  memset(&u, 0xa5, sizeof(u));
  show("old", hsa_system_get_extension_table(HSA_EXTENSION_AMD_AQLPROFILE, 1, 0, &u.t), &u.t);
  past = 0;
  for (size_t i = PFN52; i < sizeof(u.bytes); i++) past |= u.bytes[i] != 0xa5;
  printf("old wrote past the 5.2 table %d\n", past);
  show("major2", hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_AQLPROFILE, 2, PFN52, &u.t), &u.t);
  return hsa_shut_down() == HSA_STATUS_SUCCESS ? 0 : 2;
}
