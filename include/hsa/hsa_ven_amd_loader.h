/* SPDX-License-Identifier: MIT */
/* AMD loader vendor extension (hsa_ven_amd_loader_*): queries about loaded
   code objects and executables. */

#ifndef HSA_VEN_AMD_LOADER_H
#define HSA_VEN_AMD_LOADER_H

#include "hsa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Host copy of a device address in a loaded read-only/code segment */
hsa_status_t hsa_ven_amd_loader_query_host_address(const void* device_address,
                                                   const void** host_address);

/* Where a loaded code object came from */
typedef enum {
  HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_NONE = 0,
  HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_FILE = 1,

  HSA_VEN_AMD_LOADER_CODE_OBJECT_STORAGE_TYPE_MEMORY = 2
} hsa_ven_amd_loader_code_object_storage_type_t;

/* One loaded segment (for debuggers/profilers) */
typedef struct hsa_ven_amd_loader_segment_descriptor_s {
  hsa_agent_t agent;
  hsa_executable_t executable;

  hsa_ven_amd_loader_code_object_storage_type_t code_object_storage_type;
  const void* code_object_storage_base;

  size_t code_object_storage_size;
  size_t code_object_storage_offset;

  const void* segment_base;
  size_t segment_size;
} hsa_ven_amd_loader_segment_descriptor_t;

hsa_status_t hsa_ven_amd_loader_query_segment_descriptors(
    hsa_ven_amd_loader_segment_descriptor_t* segment_descriptors, size_t* num_segment_descriptors);

/* Executable that contains a device address */
hsa_status_t hsa_ven_amd_loader_query_executable(const void* device_address,
                                                 hsa_executable_t* executable);

/* Loaded code objects of an executable */
hsa_status_t hsa_ven_amd_loader_executable_iterate_loaded_code_objects(
    hsa_executable_t executable,
    hsa_status_t (*callback)(hsa_executable_t executable,
                             hsa_loaded_code_object_t loaded_code_object, void* data),
    void* data);

/* Loaded code object kinds and info attributes */
typedef enum {
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_PROGRAM = 1,
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_AGENT = 2
} hsa_ven_amd_loader_loaded_code_object_kind_t;

typedef enum hsa_ven_amd_loader_loaded_code_object_info_e {
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_EXECUTABLE = 1,
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND = 2,

  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT = 3,
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_TYPE = 4,

  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_BASE = 5,
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE = 6,

  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE = 7,
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA = 8,

  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE = 9,
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE = 10,

  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH = 11,
  HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI = 12,
} hsa_ven_amd_loader_loaded_code_object_info_t;

hsa_status_t hsa_ven_amd_loader_loaded_code_object_get_info(
    hsa_loaded_code_object_t loaded_code_object,
    hsa_ven_amd_loader_loaded_code_object_info_t attribute, void* value);

/* Code object reader over a byte range of a file */
hsa_status_t hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
    hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t* code_object_reader);

/* All executables in the process */
hsa_status_t hsa_ven_amd_loader_iterate_executables(
    hsa_status_t (*callback)(hsa_executable_t executable, void* data), void* data);

/* Extension version (1.03) and the function tables of each version */
#define hsa_ven_amd_loader 001003

typedef struct hsa_ven_amd_loader_1_00_pfn_s {
  hsa_status_t (*hsa_ven_amd_loader_query_host_address)(const void* device_address,
                                                        const void** host_address);
  hsa_status_t (*hsa_ven_amd_loader_query_segment_descriptors)(
      hsa_ven_amd_loader_segment_descriptor_t* segment_descriptors,
      size_t* num_segment_descriptors);
  hsa_status_t (*hsa_ven_amd_loader_query_executable)(const void* device_address,
                                                      hsa_executable_t* executable);
} hsa_ven_amd_loader_1_00_pfn_t;

typedef struct hsa_ven_amd_loader_1_01_pfn_s {
  hsa_status_t (*hsa_ven_amd_loader_query_host_address)(const void* device_address,
                                                        const void** host_address);
  hsa_status_t (*hsa_ven_amd_loader_query_segment_descriptors)(
      hsa_ven_amd_loader_segment_descriptor_t* segment_descriptors,
      size_t* num_segment_descriptors);
  hsa_status_t (*hsa_ven_amd_loader_query_executable)(const void* device_address,
                                                      hsa_executable_t* executable);
  hsa_status_t (*hsa_ven_amd_loader_executable_iterate_loaded_code_objects)(
      hsa_executable_t executable,
      hsa_status_t (*callback)(hsa_executable_t executable,
                               hsa_loaded_code_object_t loaded_code_object, void* data),
      void* data);
  hsa_status_t (*hsa_ven_amd_loader_loaded_code_object_get_info)(
      hsa_loaded_code_object_t loaded_code_object,
      hsa_ven_amd_loader_loaded_code_object_info_t attribute, void* value);
} hsa_ven_amd_loader_1_01_pfn_t;

typedef struct hsa_ven_amd_loader_1_02_pfn_s {
  hsa_status_t (*hsa_ven_amd_loader_query_host_address)(const void* device_address,
                                                        const void** host_address);
  hsa_status_t (*hsa_ven_amd_loader_query_segment_descriptors)(
      hsa_ven_amd_loader_segment_descriptor_t* segment_descriptors,
      size_t* num_segment_descriptors);
  hsa_status_t (*hsa_ven_amd_loader_query_executable)(const void* device_address,
                                                      hsa_executable_t* executable);
  hsa_status_t (*hsa_ven_amd_loader_executable_iterate_loaded_code_objects)(
      hsa_executable_t executable,
      hsa_status_t (*callback)(hsa_executable_t executable,
                               hsa_loaded_code_object_t loaded_code_object, void* data),
      void* data);
  hsa_status_t (*hsa_ven_amd_loader_loaded_code_object_get_info)(
      hsa_loaded_code_object_t loaded_code_object,
      hsa_ven_amd_loader_loaded_code_object_info_t attribute, void* value);
  hsa_status_t (*hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size)(
      hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t* code_object_reader);
} hsa_ven_amd_loader_1_02_pfn_t;

typedef struct hsa_ven_amd_loader_1_03_pfn_s {
  hsa_status_t (*hsa_ven_amd_loader_query_host_address)(const void* device_address,
                                                        const void** host_address);
  hsa_status_t (*hsa_ven_amd_loader_query_segment_descriptors)(
      hsa_ven_amd_loader_segment_descriptor_t* segment_descriptors,
      size_t* num_segment_descriptors);
  hsa_status_t (*hsa_ven_amd_loader_query_executable)(const void* device_address,
                                                      hsa_executable_t* executable);
  hsa_status_t (*hsa_ven_amd_loader_executable_iterate_loaded_code_objects)(
      hsa_executable_t executable,
      hsa_status_t (*callback)(hsa_executable_t executable,
                               hsa_loaded_code_object_t loaded_code_object, void* data),
      void* data);
  hsa_status_t (*hsa_ven_amd_loader_loaded_code_object_get_info)(
      hsa_loaded_code_object_t loaded_code_object,
      hsa_ven_amd_loader_loaded_code_object_info_t attribute, void* value);
  hsa_status_t (*hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size)(
      hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t* code_object_reader);
  hsa_status_t (*hsa_ven_amd_loader_iterate_executables)(
      hsa_status_t (*callback)(hsa_executable_t executable, void* data), void* data);
} hsa_ven_amd_loader_1_03_pfn_t;

#ifdef __cplusplus
}
#endif

#endif /* HSA_VEN_AMD_LOADER_H */
