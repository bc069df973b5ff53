/* extension.c — extension support queries and the function tables of the extensions:
 * hsa_system_(major_)extension_supported, hsa_system_get_(major_)extension_table,
 * hsa_agent_(major_)extension_supported. */
#include "core/extension.h"

#include <dlfcn.h>
#include <string.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "tools/tools.h"
#include "hsa.h"
#include "hsa_ven_amd_loader.h"

/* The loader (src/loader) defines these; weak so this table builds before it exists. */
#pragma weak hsa_ven_amd_loader_query_host_address
#pragma weak hsa_ven_amd_loader_query_segment_descriptors
#pragma weak hsa_ven_amd_loader_query_executable
#pragma weak hsa_ven_amd_loader_executable_iterate_loaded_code_objects
#pragma weak hsa_ven_amd_loader_loaded_code_object_get_info
#pragma weak hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size
#pragma weak hsa_ven_amd_loader_iterate_executables

bool core_extension_images_available(void) { return false; }

bool core_extension_aqlprofile_available(void) {
  void *lib = dlopen("libhsa-amd-aqlprofile64.so", RTLD_LAZY | RTLD_LOCAL);
  if (!lib) return false;
  dlclose(lib);
  return true;
}

static bool known_extension(uint16_t e) {
  return e <= HSA_EXTENSION_STD_LAST || (e >= HSA_AMD_FIRST_EXTENSION && e <= HSA_AMD_LAST_EXTENSION);
}

hsa_status_t hsa_system_major_extension_supported(uint16_t extension, uint16_t version_major,
                                                  uint16_t *version_minor, bool *result) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!version_minor || !result) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  bool yes = version_major == 1 &&
             ((extension == HSA_EXTENSION_IMAGES && core_extension_images_available()) ||
              (extension == HSA_EXTENSION_AMD_LOADER && hsa_ven_amd_loader_query_host_address) ||
              extension == HSA_EXTENSION_AMD_AQLPROFILE);
  *result = yes;
  if (yes) *version_minor = 0;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_extension_supported(uint16_t extension, uint16_t version_major,
                                            uint16_t version_minor, bool *result) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!known_extension(extension) || !result) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint16_t minor = 0;
  bool yes = false;
  hsa_system_major_extension_supported(extension, version_major, &minor, &yes);
  *result = yes && version_minor <= minor;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t loader_table(size_t length, void *table) {
  if (!hsa_ven_amd_loader_query_host_address) return HSA_STATUS_ERROR;
  hsa_ven_amd_loader_1_03_pfn_t t;
  t.hsa_ven_amd_loader_query_host_address = hsa_ven_amd_loader_query_host_address;
  t.hsa_ven_amd_loader_query_segment_descriptors = hsa_ven_amd_loader_query_segment_descriptors;
  t.hsa_ven_amd_loader_query_executable = hsa_ven_amd_loader_query_executable;
  t.hsa_ven_amd_loader_executable_iterate_loaded_code_objects =
      hsa_ven_amd_loader_executable_iterate_loaded_code_objects;
  t.hsa_ven_amd_loader_loaded_code_object_get_info =
      hsa_ven_amd_loader_loaded_code_object_get_info;
  t.hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size =
      hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size;
  t.hsa_ven_amd_loader_iterate_executables = hsa_ven_amd_loader_iterate_executables;
  /* Older callers ask for a prefix of the table (an earlier minor version). */
  memcpy(table, &t, length < sizeof(t) ? length : sizeof(t));
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_system_get_major_extension_table(uint16_t extension, uint16_t version_major,
                                                  size_t table_length, void *table) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!table || table_length == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (extension == HSA_EXTENSION_AMD_LOADER) {
    if (version_major != 1) return HSA_STATUS_ERROR;
    return loader_table(table_length, table);
  }
  if (extension == HSA_EXTENSION_AMD_AQLPROFILE)
    return tools_aqlprofile_table(version_major, table_length, table);
  /* Images: once core_extension_images_available(). */
  return HSA_STATUS_ERROR;
}

hsa_status_t hsa_system_get_extension_table(uint16_t extension, uint16_t version_major,
                                            uint16_t version_minor, void *table) {
  size_t length = 0;
  if (extension == HSA_EXTENSION_AMD_LOADER && version_major == 1) {
    static const size_t sizes[] = {sizeof(hsa_ven_amd_loader_1_00_pfn_t),
                                   sizeof(hsa_ven_amd_loader_1_01_pfn_t),
                                   sizeof(hsa_ven_amd_loader_1_02_pfn_t),
                                   sizeof(hsa_ven_amd_loader_1_03_pfn_t)};
    length = version_minor < 4 ? sizes[version_minor] : 0;
  }
  if (extension == HSA_EXTENSION_AMD_AQLPROFILE && version_major == 1 && version_minor == 0)
    length = TOOLS_AQLPROFILE_TABLE_5_2_SIZE;
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (length == 0) return table ? HSA_STATUS_ERROR : HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return hsa_system_get_major_extension_table(extension, version_major, length, table);
}

hsa_status_t hsa_agent_major_extension_supported(uint16_t extension, hsa_agent_t agent,
                                                 uint16_t version_major, uint16_t *version_minor,
                                                 bool *result) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!known_extension(extension) || !result) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *result = false;
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  /* As ROCR: GPU agents claim every major version up to their HSA version (1). */
  if (a->kind == CORE_AGENT_GPU && version_major <= 1) {
    if (version_minor) *version_minor = 0;
    *result = true;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_extension_supported(uint16_t extension, hsa_agent_t agent,
                                           uint16_t version_major, uint16_t version_minor,
                                           bool *result) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!known_extension(extension) || !result) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint16_t minor = 0;
  bool yes = false;
  hsa_status_t st = hsa_agent_major_extension_supported(extension, agent, version_major, &minor,
                                                        &yes);
  if (st != HSA_STATUS_SUCCESS) return st;
  *result = yes && version_minor <= minor;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_extension_get_name(uint16_t extension, const char **name) {
  static const struct { uint16_t id; const char *name; } names[] = {
      {HSA_EXTENSION_FINALIZER, "HSA_EXTENSION_FINALIZER"},
      {HSA_EXTENSION_IMAGES, "HSA_EXTENSION_IMAGES"},
      {HSA_EXTENSION_PERFORMANCE_COUNTERS, "HSA_EXTENSION_PERFORMANCE_COUNTERS"},
      {HSA_EXTENSION_PROFILING_EVENTS, "HSA_EXTENSION_PROFILING_EVENTS"},
      {HSA_EXTENSION_AMD_PROFILER, "HSA_EXTENSION_AMD_PROFILER"},
      {HSA_EXTENSION_AMD_LOADER, "HSA_EXTENSION_AMD_LOADER"},
      {HSA_EXTENSION_AMD_AQLPROFILE, "HSA_EXTENSION_AMD_AQLPROFILE"},
  };
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!name) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    if (names[i].id == extension) {
      *name = names[i].name;
      return HSA_STATUS_SUCCESS;
    }
  /* As ROCR: unknown extensions (PC sampling included) get a placeholder name too. */
  *name = "HSA_EXTENSION_INVALID";
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}
