/* SPDX-License-Identifier: MIT */
/* tools_aqlprofile_fake.c — for tools_aqlprofile.sh: a stand-in libhsa-amd-aqlprofile64.so
 * with the version functions (major version from $FAKE_AQLPROFILE_MAJOR, default 2) and an
 * error string; the other entries are absent. */
#include <stdint.h>
#include <stdlib.h>

typedef int hsa_status_t;
uint32_t hsa_ven_amd_aqlprofile_version_major(void);
uint32_t hsa_ven_amd_aqlprofile_version_minor(void);
hsa_status_t hsa_ven_amd_aqlprofile_error_string(const char **str);

uint32_t hsa_ven_amd_aqlprofile_version_major(void) {
  const char *v = getenv("FAKE_AQLPROFILE_MAJOR");
  return v ? (uint32_t)atoi(v) : 2;
}
uint32_t hsa_ven_amd_aqlprofile_version_minor(void) { return 7; }
hsa_status_t hsa_ven_amd_aqlprofile_error_string(const char **str) {
  *str = "fake aqlprofile";
  return 0;
}
