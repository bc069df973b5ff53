/* SPDX-License-Identifier: MIT */
/* extension.c — extension support queries and the function tables of the extensions:
 * hsa_system_(major_)extension_supported, hsa_system_get_(major_)extension_table,
 * hsa_agent_(major_)extension_supported. */
#include "core/extension.h"

#include <dlfcn.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "hsa.h"

#define CORE_MAX_EXTENSIONS 8

/* Written only before the first open (src/runtime.c, once); read after core_runtime_is_open,
 * whose acquire orders these reads after those writes. */
static const struct core_extension *provided[CORE_MAX_EXTENSIONS];
static unsigned provided_count;

void core_extension_provide(const struct core_extension *ext) {
  if (provided_count < CORE_MAX_EXTENSIONS) provided[provided_count++] = ext;
}

static const struct core_extension *provider(uint16_t id) {
  for (unsigned i = 0; i < provided_count; i++)
    if (provided[i]->id == id) return provided[i];
  return NULL;
}

bool core_extension_images_available(void) { return provider(HSA_EXTENSION_IMAGES) != NULL; }

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
             provider(extension) != NULL;
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

hsa_status_t hsa_system_get_major_extension_table(uint16_t extension, uint16_t version_major,
                                                  size_t table_length, void *table) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!table || table_length == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_extension *ext = provider(extension);
  if (ext) return ext->table(version_major, table_length, table);
  return HSA_STATUS_ERROR;
}

hsa_status_t hsa_system_get_extension_table(uint16_t extension, uint16_t version_major,
                                            uint16_t version_minor, void *table) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_extension *ext = provider(extension);
  size_t length = ext ? ext->table_size(version_major, version_minor) : 0;
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
