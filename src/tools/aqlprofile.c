/* SPDX-License-Identifier: MIT */
/* aqlprofile.c — the AQL profile extension's table (HSA_EXTENSION_AMD_AQLPROFILE): the
 * functions of AMD's counter library libhsa-amd-aqlprofile64.so, which profilers reach
 * through hsa_system_get_(major_)extension_table. As ROCR: the requested major version must
 * be 1 and the library's own major version 2, else HSA_STATUS_ERROR. The library stays
 * loaded: the table's pointers lead into it. */
#include "tools/tools.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "hsa_ven_amd_aqlprofile.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void *lib; /* guarded by lock; never closed */

hsa_status_t tools_aqlprofile_table(uint16_t version_major, size_t length, void *table) {
  if (version_major != hsa_ven_amd_aqlprofile_VERSION_MAJOR) return HSA_STATUS_ERROR;
  pthread_mutex_lock(&lock);
  if (!lib) lib = dlopen("libhsa-amd-aqlprofile64.so", RTLD_LAZY);
  void *l = lib;
  pthread_mutex_unlock(&lock);
  if (!l) return HSA_STATUS_ERROR;

  hsa_ven_amd_aqlprofile_pfn_t t;
  /* Each entry by its own name; one the library lacks stays NULL, as in ROCR. */
#define RESOLVE(fn) (*(void **)&t.fn = dlsym(l, #fn))
  RESOLVE(hsa_ven_amd_aqlprofile_version_major);
  RESOLVE(hsa_ven_amd_aqlprofile_version_minor);
  RESOLVE(hsa_ven_amd_aqlprofile_error_string);
  RESOLVE(hsa_ven_amd_aqlprofile_validate_event);
  RESOLVE(hsa_ven_amd_aqlprofile_start);
  RESOLVE(hsa_ven_amd_aqlprofile_stop);
  RESOLVE(hsa_ven_amd_aqlprofile_read);
  RESOLVE(hsa_ven_amd_aqlprofile_legacy_get_pm4);
  RESOLVE(hsa_ven_amd_aqlprofile_get_info);
  RESOLVE(hsa_ven_amd_aqlprofile_iterate_data);
  RESOLVE(hsa_ven_amd_aqlprofile_iterate_event_ids);
  RESOLVE(hsa_ven_amd_aqlprofile_iterate_event_coord);
  RESOLVE(hsa_ven_amd_aqlprofile_att_marker);
#undef RESOLVE
  if (!t.hsa_ven_amd_aqlprofile_version_major ||
      t.hsa_ven_amd_aqlprofile_version_major() != HSA_AQLPROFILE_VERSION_MAJOR)
    return HSA_STATUS_ERROR;
  memcpy(table, &t, length < sizeof(t) ? length : sizeof(t));
  return HSA_STATUS_SUCCESS;
}

/* ROCm 5.2 callers, which pass no length, get the table as it was then (version 1.0). */
static size_t aqlprofile_table_size(uint16_t version_major, uint16_t version_minor) {
  return version_major == 1 && version_minor == 0 ? TOOLS_AQLPROFILE_TABLE_5_2_SIZE : 0;
}

const struct core_extension tools_aqlprofile_extension = {
    HSA_EXTENSION_AMD_AQLPROFILE, aqlprofile_table_size, tools_aqlprofile_table};
