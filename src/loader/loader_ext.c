/* SPDX-License-Identifier: MIT */
/* loader_ext.c — the AMD loader extension (hsa_ven_amd_loader 1.00..1.03) that debuggers,
 * profilers and HIP use: host addresses of loaded code, segment descriptors, which executable
 * holds an address, loaded code objects and their storage, load address and URI. */
#include <string.h>

#include "core/runtime.h"
#include "hsa_ven_amd_loader.h"
#include "loader/internal.h"

static struct ldr_lco *lco_at(uint64_t addr) {
  for (struct ldr_executable *e = ldr_executable_first(); e; e = ldr_executable_next(e))
    for (struct ldr_lco *l = ldr_executable_lcos(e); l; l = l->next)
      if (addr >= l->load_base && addr - l->load_base < l->load_size) return l;
  return NULL;
}

hsa_status_t hsa_ven_amd_loader_query_host_address(const void *device_address,
                                                   const void **host_address) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!device_address || !host_address) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_lock();
  struct ldr_lco *l = lco_at((uint64_t)(uintptr_t)device_address);
  ldr_unlock();
  if (!l) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* Segments are written in place through a host mapping: same address. */
  *host_address = device_address;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_ven_amd_loader_query_executable(const void *device_address,
                                                 hsa_executable_t *executable) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!device_address || !executable) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_lock();
  struct ldr_lco *l = lco_at((uint64_t)(uintptr_t)device_address);
  if (l) *executable = ldr_executable_handle(l->exec);
  ldr_unlock();
  return l ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
}

hsa_status_t hsa_ven_amd_loader_query_segment_descriptors(
    hsa_ven_amd_loader_segment_descriptor_t *descs, size_t *count) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!count || (*count == 0) != (descs == NULL)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_lock();
  size_t n = 0;
  for (struct ldr_executable *e = ldr_executable_first(); e; e = ldr_executable_next(e))
    for (struct ldr_lco *l = ldr_executable_lcos(e); l; l = l->next) n++;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (*count == 0) {
    *count = n;
  } else if (*count != n) {
    st = HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
  } else {
    size_t i = 0;
    for (struct ldr_executable *e = ldr_executable_first(); e; e = ldr_executable_next(e))
      for (struct ldr_lco *l = ldr_executable_lcos(e); l; l = l->next, i++) {
        hsa_ven_amd_loader_segment_descriptor_t *d = &descs[i];
        memset(d, 0, sizeof(*d));
        d->agent = l->agent;
        d->executable = ldr_executable_handle(e);
        d->code_object_storage_type = HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
        d->code_object_storage_base = l->storage;
        d->code_object_storage_size = l->storage_size;
        d->code_object_storage_offset = 0;
        d->segment_base = (const void *)(uintptr_t)l->load_base;
        d->segment_size = l->load_size;
      }
  }
  ldr_unlock();
  return st;
}

hsa_status_t hsa_ven_amd_loader_executable_iterate_loaded_code_objects(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t, hsa_loaded_code_object_t, void *), void *data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_lock();
  struct ldr_executable *e = ldr_executable_find(executable);
  hsa_status_t st = e ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_EXECUTABLE;
  for (struct ldr_lco *l = e ? ldr_executable_lcos(e) : NULL; l && st == HSA_STATUS_SUCCESS;
       l = l->next) {
    hsa_loaded_code_object_t h = {(uint64_t)(uintptr_t)l};
    st = callback(executable, h, data);
  }
  ldr_unlock();
  return st;
}

hsa_status_t hsa_ven_amd_loader_loaded_code_object_get_info(
    hsa_loaded_code_object_t loaded, hsa_ven_amd_loader_loaded_code_object_info_t attribute,
    void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_lock();
  struct ldr_lco *l = ldr_lco_find(loaded);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (!l) {
    st = HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  } else {
    switch (attribute) {
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE:
      *(hsa_executable_t *)value = ldr_executable_handle(l->exec);
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND:
      *(uint32_t *)value = l->agent.handle ? HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT :
                                             HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_PROGRAM;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT:
      if (!l->agent.handle) st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
      else *(hsa_agent_t *)value = l->agent;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE:
      /* File readers map their file: the bytes are in memory either way (as ROCR says). */
      *(uint32_t *)value = HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE:
      *(uint64_t *)value = (uint64_t)(uintptr_t)l->storage;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE:
      *(uint64_t *)value = l->storage_size;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA:
      *(int64_t *)value = l->delta;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE:
      *(uint64_t *)value = l->load_base;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE:
      *(uint64_t *)value = l->load_size;
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH:
      *(uint32_t *)value = (uint32_t)strlen(l->lm.l_name);
      break;
    case HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI:
      memcpy(value, l->lm.l_name, strlen(l->lm.l_name));
      break;
    default:   /* _STORAGE_FILE too: there is no file descriptor to give */
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
  }
  ldr_unlock();
  return st;
}

hsa_status_t hsa_ven_amd_loader_iterate_executables(
    hsa_status_t (*callback)(hsa_executable_t, void *), void *data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  ldr_lock();
  hsa_status_t st = HSA_STATUS_SUCCESS;
  for (struct ldr_executable *e = ldr_executable_first(); e && st == HSA_STATUS_SUCCESS;
       e = ldr_executable_next(e))
    st = callback(ldr_executable_handle(e), data);
  ldr_unlock();
  return st;
}

/* The extension's function table, as core hands it out (hsa_system_get_extension_table). */
static size_t loader_table_size(uint16_t version_major, uint16_t version_minor) {
  static const size_t sizes[] = {sizeof(hsa_ven_amd_loader_1_00_pfn_t),
                                 sizeof(hsa_ven_amd_loader_1_01_pfn_t),
                                 sizeof(hsa_ven_amd_loader_1_02_pfn_t),
                                 sizeof(hsa_ven_amd_loader_1_03_pfn_t)};
  return version_major == 1 && version_minor < 4 ? sizes[version_minor] : 0;
}

static hsa_status_t loader_table(uint16_t version_major, size_t length, void *table) {
  if (version_major != 1) return HSA_STATUS_ERROR;
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

const struct core_extension ldr_loader_extension = {HSA_EXTENSION_AMD_LOADER, loader_table_size,
                                                    loader_table};
