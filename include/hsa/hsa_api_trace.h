/* SPDX-License-Identifier: MIT */
/* HSA API dispatch tables passed to tools; ABI-compatible with ROCr, usable from C and C++. */
#ifndef HSA_RUNTIME_INC_HSA_API_TRACE_H
#define HSA_RUNTIME_INC_HSA_API_TRACE_H

#include "hsa.h"
#include "hsa_api_trace_version.h"
#include "hsa_ext_image.h"
#include "hsa_ext_amd.h"
#include "hsa_ext_finalize.h"
#include "hsa_amd_tool.h"
#include "hsa_ven_amd_pc_sampling.h"

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * Layout rules: every table starts with an ApiTableVersion whose minor_id
 * holds sizeof(table); the entries after it are function pointers whose
 * position is the ABI.  Never reorder; add new entries at the end only.
 */

/* Pointer type of the declared function fn. */
#ifdef __cplusplus
#define HSA_API_TRACE_FN(fn) decltype(fn)*
#else
#define HSA_API_TRACE_FN(fn) __typeof__(fn)*
#endif

/* Byte view of a table pointer without C++ old-style-cast warnings. */
#ifdef __cplusplus
#define HSA_API_TRACE_BYTES_(p) static_cast<char*>(p)
#else
#define HSA_API_TRACE_BYTES_(p) ((char*)(p))
#endif

/* Naming a function here is not a call; keep deprecation noise out. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Smaller of two sizes; used when copying tables of different versions. */
static inline uint32_t Min(const uint32_t a, const uint32_t b) {
  return (a < b) ? a : b;
}

/* ---- Tool-only intercept queue interfaces ---- */

/* Vendor AQL format code of amd_aql_intercept_marker_t. */
static const uint32_t AMD_AQL_FORMAT_INTERCEPT_MARKER = 0xFE;

struct amd_aql_intercept_marker_s;

/* Called when a marker packet reaches the head of the intercept queue. */
typedef void (*amd_intercept_marker_handler)(
    const struct amd_aql_intercept_marker_s* packet, hsa_queue_t* queue,
    uint64_t packet_id);

/* 64-byte vendor packet; tells a tool where the next packet will land. */
typedef struct amd_aql_intercept_marker_s {
  uint16_t header;      /* packet type HSA_PACKET_TYPE_VENDOR_SPECIFIC */
  uint8_t format;       /* AMD_AQL_FORMAT_INTERCEPT_MARKER */
  uint8_t reserved[5];  /* zero */
#ifdef HSA_LARGE_MODEL
  amd_intercept_marker_handler callback;
#elif defined HSA_LITTLE_ENDIAN
  amd_intercept_marker_handler callback;
  uint32_t reserved1;   /* zero */
#else
  uint32_t reserved1;   /* zero */
  amd_intercept_marker_handler callback;
#endif
  uint64_t user_data[6];
} amd_aql_intercept_marker_t;

typedef void (*hsa_amd_queue_intercept_packet_writer)(const void* pkts,
                                                      uint64_t pkt_count);

typedef void (*hsa_amd_queue_intercept_handler)(
    const void* pkts, uint64_t pkt_count, uint64_t user_pkt_index, void* data,
    hsa_amd_queue_intercept_packet_writer writer);

hsa_status_t hsa_amd_queue_intercept_register(
    hsa_queue_t* queue, hsa_amd_queue_intercept_handler callback,
    void* user_data);

hsa_status_t hsa_amd_queue_intercept_create(
    hsa_agent_t agent_handle, uint32_t size, hsa_queue_type32_t type,
    void (*callback)(hsa_status_t status, hsa_queue_t* source, void* data),
    void* data, uint32_t private_segment_size, uint32_t group_segment_size,
    hsa_queue_t** queue);

typedef void (*hsa_amd_runtime_queue_notifier)(const hsa_queue_t* queue,
                                               hsa_agent_t agent, void* data);

hsa_status_t hsa_amd_runtime_queue_create_register(
    hsa_amd_runtime_queue_notifier callback, void* user_data);

/* ---- Tables ---- */

/* Header at offset 0 of every table. minor_id = sizeof(table). */
typedef struct ApiTableVersion {
  uint32_t major_id;
  uint32_t minor_id;
  uint32_t step_id;
  uint32_t reserved;
} ApiTableVersion;

/* Tool event callbacks (scratch memory tracking). */
typedef struct ToolsApiTable {
  ApiTableVersion version;

  hsa_amd_tool_event hsa_amd_tool_scratch_event_alloc_start_fn;
  hsa_amd_tool_event hsa_amd_tool_scratch_event_alloc_end_fn;
  hsa_amd_tool_event hsa_amd_tool_scratch_event_free_start_fn;
  hsa_amd_tool_event hsa_amd_tool_scratch_event_free_end_fn;
  hsa_amd_tool_event hsa_amd_tool_scratch_event_async_reclaim_start_fn;
  hsa_amd_tool_event hsa_amd_tool_scratch_event_async_reclaim_end_fn;
} ToolsApiTable;

/* hsa_ext_finalize.h entry points. */
typedef struct FinalizerExtTable {
  ApiTableVersion version;

  HSA_API_TRACE_FN(hsa_ext_program_create) hsa_ext_program_create_fn;
  HSA_API_TRACE_FN(hsa_ext_program_destroy) hsa_ext_program_destroy_fn;
  HSA_API_TRACE_FN(hsa_ext_program_add_module) hsa_ext_program_add_module_fn;
  HSA_API_TRACE_FN(hsa_ext_program_iterate_modules) hsa_ext_program_iterate_modules_fn;
  HSA_API_TRACE_FN(hsa_ext_program_get_info) hsa_ext_program_get_info_fn;
  HSA_API_TRACE_FN(hsa_ext_program_finalize) hsa_ext_program_finalize_fn;
} FinalizerExtTable;

/* hsa_ext_image.h entry points. */
typedef struct ImageExtTable {
  ApiTableVersion version;

  HSA_API_TRACE_FN(hsa_ext_image_get_capability) hsa_ext_image_get_capability_fn;
  HSA_API_TRACE_FN(hsa_ext_image_data_get_info) hsa_ext_image_data_get_info_fn;
  HSA_API_TRACE_FN(hsa_ext_image_create) hsa_ext_image_create_fn;
  HSA_API_TRACE_FN(hsa_ext_image_import) hsa_ext_image_import_fn;
  HSA_API_TRACE_FN(hsa_ext_image_export) hsa_ext_image_export_fn;
  HSA_API_TRACE_FN(hsa_ext_image_copy) hsa_ext_image_copy_fn;
  HSA_API_TRACE_FN(hsa_ext_image_clear) hsa_ext_image_clear_fn;
  HSA_API_TRACE_FN(hsa_ext_image_destroy) hsa_ext_image_destroy_fn;
  HSA_API_TRACE_FN(hsa_ext_sampler_create) hsa_ext_sampler_create_fn;
  HSA_API_TRACE_FN(hsa_ext_sampler_destroy) hsa_ext_sampler_destroy_fn;
  HSA_API_TRACE_FN(hsa_ext_image_get_capability_with_layout) hsa_ext_image_get_capability_with_layout_fn;
  HSA_API_TRACE_FN(hsa_ext_image_data_get_info_with_layout) hsa_ext_image_data_get_info_with_layout_fn;
  HSA_API_TRACE_FN(hsa_ext_image_create_with_layout) hsa_ext_image_create_with_layout_fn;
  HSA_API_TRACE_FN(hsa_ext_sampler_create_v2) hsa_ext_sampler_create_v2_fn;
} ImageExtTable;

/* hsa_ven_amd_pc_sampling.h entry points. */
typedef struct PcSamplingExtTable {
  ApiTableVersion version;

  HSA_API_TRACE_FN(hsa_ven_amd_pcs_iterate_configuration) hsa_ven_amd_pcs_iterate_configuration_fn;
  HSA_API_TRACE_FN(hsa_ven_amd_pcs_create) hsa_ven_amd_pcs_create_fn;
  HSA_API_TRACE_FN(hsa_ven_amd_pcs_create_from_id) hsa_ven_amd_pcs_create_from_id_fn;
  HSA_API_TRACE_FN(hsa_ven_amd_pcs_destroy) hsa_ven_amd_pcs_destroy_fn;
  HSA_API_TRACE_FN(hsa_ven_amd_pcs_start) hsa_ven_amd_pcs_start_fn;
  HSA_API_TRACE_FN(hsa_ven_amd_pcs_stop) hsa_ven_amd_pcs_stop_fn;
  HSA_API_TRACE_FN(hsa_ven_amd_pcs_flush) hsa_ven_amd_pcs_flush_fn;
} PcSamplingExtTable;

/* hsa_ext_amd.h entry points (plus the tool-only ones above). */
typedef struct AmdExtTable {
  ApiTableVersion version;

  /* ROCm 5.2 layout: every 5.2 entry keeps its offset, later ones are appended. */
  HSA_API_TRACE_FN(hsa_amd_coherency_get_type) hsa_amd_coherency_get_type_fn;
  HSA_API_TRACE_FN(hsa_amd_coherency_set_type) hsa_amd_coherency_set_type_fn;
  HSA_API_TRACE_FN(hsa_amd_profiling_set_profiler_enabled) hsa_amd_profiling_set_profiler_enabled_fn;
  HSA_API_TRACE_FN(hsa_amd_profiling_async_copy_enable) hsa_amd_profiling_async_copy_enable_fn;
  HSA_API_TRACE_FN(hsa_amd_profiling_get_dispatch_time) hsa_amd_profiling_get_dispatch_time_fn;
  HSA_API_TRACE_FN(hsa_amd_profiling_get_async_copy_time) hsa_amd_profiling_get_async_copy_time_fn;
  HSA_API_TRACE_FN(hsa_amd_profiling_convert_tick_to_system_domain) hsa_amd_profiling_convert_tick_to_system_domain_fn;
  HSA_API_TRACE_FN(hsa_amd_signal_async_handler) hsa_amd_signal_async_handler_fn;
  HSA_API_TRACE_FN(hsa_amd_async_function) hsa_amd_async_function_fn;
  HSA_API_TRACE_FN(hsa_amd_signal_wait_any) hsa_amd_signal_wait_any_fn;
  HSA_API_TRACE_FN(hsa_amd_queue_cu_set_mask) hsa_amd_queue_cu_set_mask_fn;
  HSA_API_TRACE_FN(hsa_amd_memory_pool_get_info) hsa_amd_memory_pool_get_info_fn;
  HSA_API_TRACE_FN(hsa_amd_agent_iterate_memory_pools) hsa_amd_agent_iterate_memory_pools_fn;
  HSA_API_TRACE_FN(hsa_amd_memory_pool_allocate) hsa_amd_memory_pool_allocate_fn;
  HSA_API_TRACE_FN(hsa_amd_memory_pool_free) hsa_amd_memory_pool_free_fn;
  HSA_API_TRACE_FN(hsa_amd_memory_async_copy) hsa_amd_memory_async_copy_fn;

  HSA_API_TRACE_FN(hsa_amd_agent_memory_pool_get_info) hsa_amd_agent_memory_pool_get_info_fn;
  HSA_API_TRACE_FN(hsa_amd_agents_allow_access) hsa_amd_agents_allow_access_fn;
  HSA_API_TRACE_FN(hsa_amd_memory_pool_can_migrate) hsa_amd_memory_pool_can_migrate_fn;
  HSA_API_TRACE_FN(hsa_amd_memory_migrate) hsa_amd_memory_migrate_fn;
  HSA_API_TRACE_FN(hsa_amd_memory_lock) hsa_amd_memory_lock_fn;
  HSA_API_TRACE_FN(hsa_amd_memory_unlock) hsa_amd_memory_unlock_fn;
  HSA_API_TRACE_FN(hsa_amd_memory_fill) hsa_amd_memory_fill_fn;
  HSA_API_TRACE_FN(hsa_amd_interop_map_buffer) hsa_amd_interop_map_buffer_fn;
  HSA_API_TRACE_FN(hsa_amd_interop_unmap_buffer) hsa_amd_interop_unmap_buffer_fn;
  HSA_API_TRACE_FN(hsa_amd_image_create) hsa_amd_image_create_fn;
  HSA_API_TRACE_FN(hsa_amd_pointer_info) hsa_amd_pointer_info_fn;
  HSA_API_TRACE_FN(hsa_amd_pointer_info_set_userdata) hsa_amd_pointer_info_set_userdata_fn;
  HSA_API_TRACE_FN(hsa_amd_ipc_memory_create) hsa_amd_ipc_memory_create_fn;
  HSA_API_TRACE_FN(hsa_amd_ipc_memory_attach) hsa_amd_ipc_memory_attach_fn;
  HSA_API_TRACE_FN(hsa_amd_ipc_memory_detach) hsa_amd_ipc_memory_detach_fn;
  HSA_API_TRACE_FN(hsa_amd_signal_create) hsa_amd_signal_create_fn;
  HSA_API_TRACE_FN(hsa_amd_ipc_signal_create) hsa_amd_ipc_signal_create_fn;
  HSA_API_TRACE_FN(hsa_amd_ipc_signal_attach) hsa_amd_ipc_signal_attach_fn;
  HSA_API_TRACE_FN(hsa_amd_register_system_event_handler) hsa_amd_register_system_event_handler_fn;
  HSA_API_TRACE_FN(hsa_amd_queue_intercept_create) hsa_amd_queue_intercept_create_fn;
  HSA_API_TRACE_FN(hsa_amd_queue_intercept_register) hsa_amd_queue_intercept_register_fn;
  HSA_API_TRACE_FN(hsa_amd_queue_set_priority) hsa_amd_queue_set_priority_fn;
  HSA_API_TRACE_FN(hsa_amd_memory_async_copy_rect) hsa_amd_memory_async_copy_rect_fn;
  HSA_API_TRACE_FN(hsa_amd_runtime_queue_create_register) hsa_amd_runtime_queue_create_register_fn;
  HSA_API_TRACE_FN(hsa_amd_memory_lock_to_pool) hsa_amd_memory_lock_to_pool_fn;
  HSA_API_TRACE_FN(hsa_amd_register_deallocation_callback) hsa_amd_register_deallocation_callback_fn;
  HSA_API_TRACE_FN(hsa_amd_deregister_deallocation_callback) hsa_amd_deregister_deallocation_callback_fn;
  HSA_API_TRACE_FN(hsa_amd_signal_value_pointer) hsa_amd_signal_value_pointer_fn;
  HSA_API_TRACE_FN(hsa_amd_svm_attributes_set) hsa_amd_svm_attributes_set_fn;
  HSA_API_TRACE_FN(hsa_amd_svm_attributes_get) hsa_amd_svm_attributes_get_fn;
  HSA_API_TRACE_FN(hsa_amd_svm_prefetch_async) hsa_amd_svm_prefetch_async_fn;

  HSA_API_TRACE_FN(hsa_amd_queue_cu_get_mask) hsa_amd_queue_cu_get_mask_fn;

  /* Later ROCm releases inserted spm_* (5.5) and the copy-engine pair (5.6) in the
     middle of the table (ROCm 6 renumbered it, major id 2). This runtime serves tools
     built for the ROCm 5.2 layout (Debian 12), so they are appended here instead. */
  HSA_API_TRACE_FN(hsa_amd_spm_acquire) hsa_amd_spm_acquire_fn;
  HSA_API_TRACE_FN(hsa_amd_spm_release) hsa_amd_spm_release_fn;
  HSA_API_TRACE_FN(hsa_amd_spm_set_dest_buffer) hsa_amd_spm_set_dest_buffer_fn;
  HSA_API_TRACE_FN(hsa_amd_memory_async_copy_on_engine) hsa_amd_memory_async_copy_on_engine_fn;
  HSA_API_TRACE_FN(hsa_amd_memory_copy_engine_status) hsa_amd_memory_copy_engine_status_fn;
  HSA_API_TRACE_FN(hsa_amd_portable_export_dmabuf) hsa_amd_portable_export_dmabuf_fn;
  HSA_API_TRACE_FN(hsa_amd_portable_close_dmabuf) hsa_amd_portable_close_dmabuf_fn;
  HSA_API_TRACE_FN(hsa_amd_vmem_address_reserve) hsa_amd_vmem_address_reserve_fn;
  HSA_API_TRACE_FN(hsa_amd_vmem_address_free) hsa_amd_vmem_address_free_fn;
  HSA_API_TRACE_FN(hsa_amd_vmem_handle_create) hsa_amd_vmem_handle_create_fn;
  HSA_API_TRACE_FN(hsa_amd_vmem_handle_release) hsa_amd_vmem_handle_release_fn;
  HSA_API_TRACE_FN(hsa_amd_vmem_map) hsa_amd_vmem_map_fn;
  HSA_API_TRACE_FN(hsa_amd_vmem_unmap) hsa_amd_vmem_unmap_fn;
  HSA_API_TRACE_FN(hsa_amd_vmem_set_access) hsa_amd_vmem_set_access_fn;
  HSA_API_TRACE_FN(hsa_amd_vmem_get_access) hsa_amd_vmem_get_access_fn;
  HSA_API_TRACE_FN(hsa_amd_vmem_export_shareable_handle) hsa_amd_vmem_export_shareable_handle_fn;
  HSA_API_TRACE_FN(hsa_amd_vmem_import_shareable_handle) hsa_amd_vmem_import_shareable_handle_fn;
  HSA_API_TRACE_FN(hsa_amd_vmem_retain_alloc_handle) hsa_amd_vmem_retain_alloc_handle_fn;
  HSA_API_TRACE_FN(hsa_amd_vmem_get_alloc_properties_from_handle) hsa_amd_vmem_get_alloc_properties_from_handle_fn;
  HSA_API_TRACE_FN(hsa_amd_agent_set_async_scratch_limit) hsa_amd_agent_set_async_scratch_limit_fn;
  HSA_API_TRACE_FN(hsa_amd_queue_get_info) hsa_amd_queue_get_info_fn;
  HSA_API_TRACE_FN(hsa_amd_vmem_address_reserve_align) hsa_amd_vmem_address_reserve_align_fn;
  HSA_API_TRACE_FN(hsa_amd_enable_logging) hsa_amd_enable_logging_fn;
  HSA_API_TRACE_FN(hsa_amd_signal_wait_all) hsa_amd_signal_wait_all_fn;
  HSA_API_TRACE_FN(hsa_amd_memory_get_preferred_copy_engine) hsa_amd_memory_get_preferred_copy_engine_fn;
  HSA_API_TRACE_FN(hsa_amd_portable_export_dmabuf_v2) hsa_amd_portable_export_dmabuf_v2_fn;
} AmdExtTable;

/* hsa.h entry points. */
typedef struct CoreApiTable {
  ApiTableVersion version;

  /* HSA 1.0: runtime, system, agents, queues */
  HSA_API_TRACE_FN(hsa_init) hsa_init_fn;
  HSA_API_TRACE_FN(hsa_shut_down) hsa_shut_down_fn;
  HSA_API_TRACE_FN(hsa_system_get_info) hsa_system_get_info_fn;
  HSA_API_TRACE_FN(hsa_system_extension_supported) hsa_system_extension_supported_fn;
  HSA_API_TRACE_FN(hsa_system_get_extension_table) hsa_system_get_extension_table_fn;
  HSA_API_TRACE_FN(hsa_iterate_agents) hsa_iterate_agents_fn;
  HSA_API_TRACE_FN(hsa_agent_get_info) hsa_agent_get_info_fn;
  HSA_API_TRACE_FN(hsa_queue_create) hsa_queue_create_fn;
  HSA_API_TRACE_FN(hsa_soft_queue_create) hsa_soft_queue_create_fn;
  HSA_API_TRACE_FN(hsa_queue_destroy) hsa_queue_destroy_fn;
  HSA_API_TRACE_FN(hsa_queue_inactivate) hsa_queue_inactivate_fn;
  HSA_API_TRACE_FN(hsa_queue_load_read_index_scacquire) hsa_queue_load_read_index_scacquire_fn;
  HSA_API_TRACE_FN(hsa_queue_load_read_index_relaxed) hsa_queue_load_read_index_relaxed_fn;
  HSA_API_TRACE_FN(hsa_queue_load_write_index_scacquire) hsa_queue_load_write_index_scacquire_fn;
  HSA_API_TRACE_FN(hsa_queue_load_write_index_relaxed) hsa_queue_load_write_index_relaxed_fn;
  HSA_API_TRACE_FN(hsa_queue_store_write_index_relaxed) hsa_queue_store_write_index_relaxed_fn;
  HSA_API_TRACE_FN(hsa_queue_store_write_index_screlease) hsa_queue_store_write_index_screlease_fn;
  HSA_API_TRACE_FN(hsa_queue_cas_write_index_scacq_screl) hsa_queue_cas_write_index_scacq_screl_fn;
  HSA_API_TRACE_FN(hsa_queue_cas_write_index_scacquire) hsa_queue_cas_write_index_scacquire_fn;
  HSA_API_TRACE_FN(hsa_queue_cas_write_index_relaxed) hsa_queue_cas_write_index_relaxed_fn;
  HSA_API_TRACE_FN(hsa_queue_cas_write_index_screlease) hsa_queue_cas_write_index_screlease_fn;
  HSA_API_TRACE_FN(hsa_queue_add_write_index_scacq_screl) hsa_queue_add_write_index_scacq_screl_fn;
  HSA_API_TRACE_FN(hsa_queue_add_write_index_scacquire) hsa_queue_add_write_index_scacquire_fn;
  HSA_API_TRACE_FN(hsa_queue_add_write_index_relaxed) hsa_queue_add_write_index_relaxed_fn;
  HSA_API_TRACE_FN(hsa_queue_add_write_index_screlease) hsa_queue_add_write_index_screlease_fn;
  HSA_API_TRACE_FN(hsa_queue_store_read_index_relaxed) hsa_queue_store_read_index_relaxed_fn;
  HSA_API_TRACE_FN(hsa_queue_store_read_index_screlease) hsa_queue_store_read_index_screlease_fn;

  /* HSA 1.0: regions and memory */
  HSA_API_TRACE_FN(hsa_agent_iterate_regions) hsa_agent_iterate_regions_fn;
  HSA_API_TRACE_FN(hsa_region_get_info) hsa_region_get_info_fn;
  HSA_API_TRACE_FN(hsa_agent_get_exception_policies) hsa_agent_get_exception_policies_fn;
  HSA_API_TRACE_FN(hsa_agent_extension_supported) hsa_agent_extension_supported_fn;
  HSA_API_TRACE_FN(hsa_memory_register) hsa_memory_register_fn;
  HSA_API_TRACE_FN(hsa_memory_deregister) hsa_memory_deregister_fn;
  HSA_API_TRACE_FN(hsa_memory_allocate) hsa_memory_allocate_fn;
  HSA_API_TRACE_FN(hsa_memory_free) hsa_memory_free_fn;
  HSA_API_TRACE_FN(hsa_memory_copy) hsa_memory_copy_fn;
  HSA_API_TRACE_FN(hsa_memory_assign_agent) hsa_memory_assign_agent_fn;

  /* HSA 1.0: signals */
  HSA_API_TRACE_FN(hsa_signal_create) hsa_signal_create_fn;
  HSA_API_TRACE_FN(hsa_signal_destroy) hsa_signal_destroy_fn;
  HSA_API_TRACE_FN(hsa_signal_load_relaxed) hsa_signal_load_relaxed_fn;
  HSA_API_TRACE_FN(hsa_signal_load_scacquire) hsa_signal_load_scacquire_fn;
  HSA_API_TRACE_FN(hsa_signal_store_relaxed) hsa_signal_store_relaxed_fn;
  HSA_API_TRACE_FN(hsa_signal_store_screlease) hsa_signal_store_screlease_fn;
  HSA_API_TRACE_FN(hsa_signal_wait_relaxed) hsa_signal_wait_relaxed_fn;
  HSA_API_TRACE_FN(hsa_signal_wait_scacquire) hsa_signal_wait_scacquire_fn;
  HSA_API_TRACE_FN(hsa_signal_and_relaxed) hsa_signal_and_relaxed_fn;
  HSA_API_TRACE_FN(hsa_signal_and_scacquire) hsa_signal_and_scacquire_fn;
  HSA_API_TRACE_FN(hsa_signal_and_screlease) hsa_signal_and_screlease_fn;
  HSA_API_TRACE_FN(hsa_signal_and_scacq_screl) hsa_signal_and_scacq_screl_fn;
  HSA_API_TRACE_FN(hsa_signal_or_relaxed) hsa_signal_or_relaxed_fn;
  HSA_API_TRACE_FN(hsa_signal_or_scacquire) hsa_signal_or_scacquire_fn;
  HSA_API_TRACE_FN(hsa_signal_or_screlease) hsa_signal_or_screlease_fn;
  HSA_API_TRACE_FN(hsa_signal_or_scacq_screl) hsa_signal_or_scacq_screl_fn;
  HSA_API_TRACE_FN(hsa_signal_xor_relaxed) hsa_signal_xor_relaxed_fn;
  HSA_API_TRACE_FN(hsa_signal_xor_scacquire) hsa_signal_xor_scacquire_fn;
  HSA_API_TRACE_FN(hsa_signal_xor_screlease) hsa_signal_xor_screlease_fn;
  HSA_API_TRACE_FN(hsa_signal_xor_scacq_screl) hsa_signal_xor_scacq_screl_fn;
  HSA_API_TRACE_FN(hsa_signal_exchange_relaxed) hsa_signal_exchange_relaxed_fn;
  HSA_API_TRACE_FN(hsa_signal_exchange_scacquire) hsa_signal_exchange_scacquire_fn;
  HSA_API_TRACE_FN(hsa_signal_exchange_screlease) hsa_signal_exchange_screlease_fn;
  HSA_API_TRACE_FN(hsa_signal_exchange_scacq_screl) hsa_signal_exchange_scacq_screl_fn;
  HSA_API_TRACE_FN(hsa_signal_add_relaxed) hsa_signal_add_relaxed_fn;
  HSA_API_TRACE_FN(hsa_signal_add_scacquire) hsa_signal_add_scacquire_fn;
  HSA_API_TRACE_FN(hsa_signal_add_screlease) hsa_signal_add_screlease_fn;
  HSA_API_TRACE_FN(hsa_signal_add_scacq_screl) hsa_signal_add_scacq_screl_fn;
  HSA_API_TRACE_FN(hsa_signal_subtract_relaxed) hsa_signal_subtract_relaxed_fn;
  HSA_API_TRACE_FN(hsa_signal_subtract_scacquire) hsa_signal_subtract_scacquire_fn;
  HSA_API_TRACE_FN(hsa_signal_subtract_screlease) hsa_signal_subtract_screlease_fn;
  HSA_API_TRACE_FN(hsa_signal_subtract_scacq_screl) hsa_signal_subtract_scacq_screl_fn;
  HSA_API_TRACE_FN(hsa_signal_cas_relaxed) hsa_signal_cas_relaxed_fn;
  HSA_API_TRACE_FN(hsa_signal_cas_scacquire) hsa_signal_cas_scacquire_fn;
  HSA_API_TRACE_FN(hsa_signal_cas_screlease) hsa_signal_cas_screlease_fn;
  HSA_API_TRACE_FN(hsa_signal_cas_scacq_screl) hsa_signal_cas_scacq_screl_fn;

  /* HSA 1.0: ISA */
  HSA_API_TRACE_FN(hsa_isa_from_name) hsa_isa_from_name_fn;
  HSA_API_TRACE_FN(hsa_isa_get_info) hsa_isa_get_info_fn;
  HSA_API_TRACE_FN(hsa_isa_compatible) hsa_isa_compatible_fn;

  /* HSA 1.0: code objects (deprecated by HSA 1.1) */
  HSA_API_TRACE_FN(hsa_code_object_serialize) hsa_code_object_serialize_fn;
  HSA_API_TRACE_FN(hsa_code_object_deserialize) hsa_code_object_deserialize_fn;
  HSA_API_TRACE_FN(hsa_code_object_destroy) hsa_code_object_destroy_fn;
  HSA_API_TRACE_FN(hsa_code_object_get_info) hsa_code_object_get_info_fn;
  HSA_API_TRACE_FN(hsa_code_object_get_symbol) hsa_code_object_get_symbol_fn;
  HSA_API_TRACE_FN(hsa_code_symbol_get_info) hsa_code_symbol_get_info_fn;
  HSA_API_TRACE_FN(hsa_code_object_iterate_symbols) hsa_code_object_iterate_symbols_fn;

  /* HSA 1.0: executables */
  HSA_API_TRACE_FN(hsa_executable_create) hsa_executable_create_fn;
  HSA_API_TRACE_FN(hsa_executable_destroy) hsa_executable_destroy_fn;
  HSA_API_TRACE_FN(hsa_executable_load_code_object) hsa_executable_load_code_object_fn;
  HSA_API_TRACE_FN(hsa_executable_freeze) hsa_executable_freeze_fn;
  HSA_API_TRACE_FN(hsa_executable_get_info) hsa_executable_get_info_fn;
  HSA_API_TRACE_FN(hsa_executable_global_variable_define) hsa_executable_global_variable_define_fn;
  HSA_API_TRACE_FN(hsa_executable_agent_global_variable_define) hsa_executable_agent_global_variable_define_fn;
  HSA_API_TRACE_FN(hsa_executable_readonly_variable_define) hsa_executable_readonly_variable_define_fn;
  HSA_API_TRACE_FN(hsa_executable_validate) hsa_executable_validate_fn;
  HSA_API_TRACE_FN(hsa_executable_get_symbol) hsa_executable_get_symbol_fn;
  HSA_API_TRACE_FN(hsa_executable_symbol_get_info) hsa_executable_symbol_get_info_fn;
  HSA_API_TRACE_FN(hsa_executable_iterate_symbols) hsa_executable_iterate_symbols_fn;

  /* HSA 1.0: status strings */
  HSA_API_TRACE_FN(hsa_status_string) hsa_status_string_fn;

  /* HSA 1.1: extensions, caches, signal groups */
  HSA_API_TRACE_FN(hsa_extension_get_name) hsa_extension_get_name_fn;
  HSA_API_TRACE_FN(hsa_system_major_extension_supported) hsa_system_major_extension_supported_fn;
  HSA_API_TRACE_FN(hsa_system_get_major_extension_table) hsa_system_get_major_extension_table_fn;
  HSA_API_TRACE_FN(hsa_agent_major_extension_supported) hsa_agent_major_extension_supported_fn;
  HSA_API_TRACE_FN(hsa_cache_get_info) hsa_cache_get_info_fn;
  HSA_API_TRACE_FN(hsa_agent_iterate_caches) hsa_agent_iterate_caches_fn;
  HSA_API_TRACE_FN(hsa_signal_silent_store_relaxed) hsa_signal_silent_store_relaxed_fn;
  HSA_API_TRACE_FN(hsa_signal_silent_store_screlease) hsa_signal_silent_store_screlease_fn;
  HSA_API_TRACE_FN(hsa_signal_group_create) hsa_signal_group_create_fn;
  HSA_API_TRACE_FN(hsa_signal_group_destroy) hsa_signal_group_destroy_fn;
  HSA_API_TRACE_FN(hsa_signal_group_wait_any_scacquire) hsa_signal_group_wait_any_scacquire_fn;
  HSA_API_TRACE_FN(hsa_signal_group_wait_any_relaxed) hsa_signal_group_wait_any_relaxed_fn;

  /* HSA 1.1: ISA and wavefronts */
  HSA_API_TRACE_FN(hsa_agent_iterate_isas) hsa_agent_iterate_isas_fn;
  HSA_API_TRACE_FN(hsa_isa_get_info_alt) hsa_isa_get_info_alt_fn;
  HSA_API_TRACE_FN(hsa_isa_get_exception_policies) hsa_isa_get_exception_policies_fn;
  HSA_API_TRACE_FN(hsa_isa_get_round_method) hsa_isa_get_round_method_fn;
  HSA_API_TRACE_FN(hsa_wavefront_get_info) hsa_wavefront_get_info_fn;
  HSA_API_TRACE_FN(hsa_isa_iterate_wavefronts) hsa_isa_iterate_wavefronts_fn;

  /* HSA 1.1: code object readers, executables */
  HSA_API_TRACE_FN(hsa_code_object_get_symbol_from_name) hsa_code_object_get_symbol_from_name_fn;
  HSA_API_TRACE_FN(hsa_code_object_reader_create_from_file) hsa_code_object_reader_create_from_file_fn;
  HSA_API_TRACE_FN(hsa_code_object_reader_create_from_memory) hsa_code_object_reader_create_from_memory_fn;
  HSA_API_TRACE_FN(hsa_code_object_reader_destroy) hsa_code_object_reader_destroy_fn;
  HSA_API_TRACE_FN(hsa_executable_create_alt) hsa_executable_create_alt_fn;
  HSA_API_TRACE_FN(hsa_executable_load_program_code_object) hsa_executable_load_program_code_object_fn;
  HSA_API_TRACE_FN(hsa_executable_load_agent_code_object) hsa_executable_load_agent_code_object_fn;
  HSA_API_TRACE_FN(hsa_executable_validate_alt) hsa_executable_validate_alt_fn;
  HSA_API_TRACE_FN(hsa_executable_get_symbol_by_name) hsa_executable_get_symbol_by_name_fn;
  HSA_API_TRACE_FN(hsa_executable_iterate_agent_symbols) hsa_executable_iterate_agent_symbols_fn;
  HSA_API_TRACE_FN(hsa_executable_iterate_program_symbols) hsa_executable_iterate_program_symbols_fn;
} CoreApiTable;

/* Root table: one pointer per sub-table. */
typedef struct HsaApiTable {
  ApiTableVersion version;

  CoreApiTable* core_;
  AmdExtTable* amd_ext_;
  FinalizerExtTable* finalizer_ext_;
  ImageExtTable* image_ext_;
  ToolsApiTable* tools_;
  PcSamplingExtTable* pc_sampling_ext_;
} HsaApiTable;

/* Storage for a root table and all of its sub-tables. */
typedef struct HsaApiTableContainer {
  HsaApiTable root;
  CoreApiTable core;
  AmdExtTable amd_ext;
  FinalizerExtTable finalizer_ext;
  ImageExtTable image_ext;
  ToolsApiTable tools;
  PcSamplingExtTable pc_sampling_ext;

#ifdef __cplusplus
  /* Same effect as hsaApiTableContainerInit(this). */
  HsaApiTableContainer();
#endif
} HsaApiTableContainer;

/* ---- Helpers ---- */

/* Zero a container, stamp each table's version and link root to the
   sub-tables. C replacement for the C++ constructor. */
static inline void hsaApiTableContainerInit(HsaApiTableContainer* c) {
  memset(&c->root, 0, sizeof(c->root));
  memset(&c->core, 0, sizeof(c->core));
  memset(&c->amd_ext, 0, sizeof(c->amd_ext));
  memset(&c->finalizer_ext, 0, sizeof(c->finalizer_ext));
  memset(&c->image_ext, 0, sizeof(c->image_ext));
  memset(&c->tools, 0, sizeof(c->tools));
  memset(&c->pc_sampling_ext, 0, sizeof(c->pc_sampling_ext));

  c->root.version.major_id = HSA_API_TABLE_MAJOR_VERSION;
  c->root.version.minor_id = sizeof(HsaApiTable);
  c->root.version.step_id = HSA_API_TABLE_STEP_VERSION;

  c->core.version.major_id = HSA_CORE_API_TABLE_MAJOR_VERSION;
  c->core.version.minor_id = sizeof(CoreApiTable);
  c->core.version.step_id = HSA_CORE_API_TABLE_STEP_VERSION;
  c->root.core_ = &c->core;

  c->amd_ext.version.major_id = HSA_AMD_EXT_API_TABLE_MAJOR_VERSION;
  c->amd_ext.version.minor_id = sizeof(AmdExtTable);
  c->amd_ext.version.step_id = HSA_AMD_EXT_API_TABLE_STEP_VERSION;
  c->root.amd_ext_ = &c->amd_ext;

  c->finalizer_ext.version.major_id = HSA_FINALIZER_API_TABLE_MAJOR_VERSION;
  c->finalizer_ext.version.minor_id = sizeof(FinalizerExtTable);
  c->finalizer_ext.version.step_id = HSA_FINALIZER_API_TABLE_STEP_VERSION;
  c->root.finalizer_ext_ = &c->finalizer_ext;

  c->image_ext.version.major_id = HSA_IMAGE_API_TABLE_MAJOR_VERSION;
  c->image_ext.version.minor_id = sizeof(ImageExtTable);
  c->image_ext.version.step_id = HSA_IMAGE_API_TABLE_STEP_VERSION;
  c->root.image_ext_ = &c->image_ext;

  c->tools.version.major_id = HSA_TOOLS_API_TABLE_MAJOR_VERSION;
  c->tools.version.minor_id = sizeof(ToolsApiTable);
  c->tools.version.step_id = HSA_TOOLS_API_TABLE_STEP_VERSION;
  c->root.tools_ = &c->tools;

  c->pc_sampling_ext.version.major_id = HSA_PC_SAMPLING_API_TABLE_MAJOR_VERSION;
  c->pc_sampling_ext.version.minor_id = sizeof(PcSamplingExtTable);
  c->pc_sampling_ext.version.step_id = HSA_PC_SAMPLING_API_TABLE_STEP_VERSION;
  c->root.pc_sampling_ext_ = &c->pc_sampling_ext;
}

/* Copy the entries (everything after the version header) of one table:
   size bytes in total, header included. Destination comes first. */
static inline void copyApi(void* dest, void* src, size_t size) {
  assert(size >= sizeof(ApiTableVersion));
  memcpy(HSA_API_TRACE_BYTES_(dest) + sizeof(ApiTableVersion),
         HSA_API_TRACE_BYTES_(src) + sizeof(ApiTableVersion),
         size - sizeof(ApiTableVersion));
}

/* Copy one sub-table if the major ids agree, limited to the smaller of the
   two sizes; otherwise mark dest as absent (all ids zero). */
static inline void copyElement(ApiTableVersion* dest, ApiTableVersion* src) {
  if (src->major_id && dest->major_id == src->major_id) {
    dest->step_id = src->step_id;
    dest->minor_id = Min(dest->minor_id, src->minor_id);
    copyApi(dest, src, dest->minor_id);
  } else {
    dest->major_id = 0;
    dest->minor_id = 0;
    dest->step_id = 0;
  }
}

/* Copy src into a dest whose versions were pre-set (e.g. by
   hsaApiTableContainerInit). dest keeps the smaller minor_id and takes
   src's step_id; sub-tables beyond dest's root size are left alone. */
static inline void copyTables(const HsaApiTable* src, HsaApiTable* dest) {
  if (dest->version.major_id != src->version.major_id) {
    dest->version.major_id = 0;
    dest->version.minor_id = 0;
    dest->version.step_id = 0;
    return;
  }

  dest->version.step_id = src->version.step_id;
  dest->version.minor_id = Min(dest->version.minor_id, src->version.minor_id);

  if (offsetof(HsaApiTable, core_) < dest->version.minor_id)
    copyElement(&dest->core_->version, &src->core_->version);
  if (offsetof(HsaApiTable, amd_ext_) < dest->version.minor_id)
    copyElement(&dest->amd_ext_->version, &src->amd_ext_->version);
  if (offsetof(HsaApiTable, finalizer_ext_) < dest->version.minor_id)
    copyElement(&dest->finalizer_ext_->version, &src->finalizer_ext_->version);
  if (offsetof(HsaApiTable, image_ext_) < dest->version.minor_id)
    copyElement(&dest->image_ext_->version, &src->image_ext_->version);
  if (offsetof(HsaApiTable, tools_) < dest->version.minor_id)
    copyElement(&dest->tools_->version, &src->tools_->version);
  if (offsetof(HsaApiTable, pc_sampling_ext_) < dest->version.minor_id)
    copyElement(&dest->pc_sampling_ext_->version,
                &src->pc_sampling_ext_->version);
}

#ifdef __cplusplus
} /* extern "C" */

inline HsaApiTableContainer::HsaApiTableContainer() {
  hsaApiTableContainerInit(this);
}
#endif

#undef HSA_API_TRACE_BYTES_

#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#endif /* HSA_RUNTIME_INC_HSA_API_TRACE_H */
