/* SPDX-License-Identifier: MIT */
/* AMD PC sampling vendor extension (hsa_ven_amd_pcs_*). */

#ifndef HSA_VEN_AMD_PC_SAMPLING_H
#define HSA_VEN_AMD_PC_SAMPLING_H

#include "hsa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sample record written by the host-trap method (64 bytes) */
typedef struct {
  uint64_t pc;
  uint64_t exec_mask;
  uint32_t workgroup_id_x;
  uint32_t workgroup_id_y;
  uint32_t workgroup_id_z;
  uint32_t wave_in_wg : 6;
  uint32_t chiplet : 3;
  uint32_t reserved : 23;
  uint32_t hw_id;
  uint32_t reserved0;
  uint64_t reserved1;
  uint64_t timestamp;
  uint64_t correlation_id;
} perf_sample_hosttrap_v1_t;

/* Sample record written by the stochastic (snapshot) method (64 bytes) */
typedef struct {
  uint64_t pc;
  uint64_t exec_mask;
  uint32_t workgroup_id_x;
  uint32_t workgroup_id_y;
  uint32_t workgroup_id_z;
  uint32_t wave_in_wg : 6;
  uint32_t chiplet : 3;
  uint32_t reserved : 23;
  uint32_t hw_id;
  uint32_t perf_snapshot_data;
  uint32_t perf_snapshot_data1;
  uint32_t perf_snapshot_data2;
  uint64_t timestamp;
  uint64_t correlation_id;
} perf_sample_snapshot_v1_t;

/* Sampling methods and interval units */
typedef enum {
  HSA_VEN_AMD_PCS_METHOD_HOSTTRAP_V1,
  HSA_VEN_AMD_PCS_METHOD_STOCHASTIC_V1
} hsa_ven_amd_pcs_method_kind_t;

typedef enum {
  HSA_VEN_AMD_PCS_INTERVAL_UNITS_MICRO_SECONDS,
  HSA_VEN_AMD_PCS_INTERVAL_UNITS_CLOCK_CYCLES,
  HSA_VEN_AMD_PCS_INTERVAL_UNITS_INSTRUCTIONS
} hsa_ven_amd_pcs_units_t;

/* Data delivery: the runtime calls data_ready, the client pulls with data_copy */
typedef hsa_status_t (*hsa_ven_amd_pcs_data_copy_callback_t)(void* hsa_callback_data,
                                                             size_t data_size, void* destination);

typedef void (*hsa_ven_amd_pcs_data_ready_callback_t)(
    void* client_callback_data, size_t data_size, size_t lost_sample_count,
    hsa_ven_amd_pcs_data_copy_callback_t data_copy_callback, void* hsa_callback_data);

/* Opaque session handle */
typedef struct {
  uint64_t handle;
} hsa_ven_amd_pcs_t;

/* One supported configuration of an agent */
typedef enum {
  HSA_VEN_AMD_PCS_CONFIGURATION_FLAGS_INTERVAL_POWER_OF_2 = (1 << 0)
} hsa_ven_amd_pcs_configuration_flags_t;

typedef struct {
  hsa_ven_amd_pcs_method_kind_t method;
  hsa_ven_amd_pcs_units_t units;
  size_t min_interval;
  size_t max_interval;
  uint64_t flags;
} hsa_ven_amd_pcs_configuration_t;

/* Session API */
typedef hsa_status_t (*hsa_ven_amd_pcs_iterate_configuration_callback_t)(
    const hsa_ven_amd_pcs_configuration_t* configuration, void* callback_data);

hsa_status_t HSA_API hsa_ven_amd_pcs_iterate_configuration(
    hsa_agent_t agent, hsa_ven_amd_pcs_iterate_configuration_callback_t configuration_callback,
    void* callback_data);

hsa_status_t HSA_API hsa_ven_amd_pcs_create(
    hsa_agent_t agent, hsa_ven_amd_pcs_method_kind_t method, hsa_ven_amd_pcs_units_t units,
    size_t interval, size_t latency, size_t buffer_size,
    hsa_ven_amd_pcs_data_ready_callback_t data_ready_callback, void* client_callback_data,
    hsa_ven_amd_pcs_t* pc_sampling);

hsa_status_t HSA_API hsa_ven_amd_pcs_create_from_id(
    uint32_t pcs_id, hsa_agent_t agent, hsa_ven_amd_pcs_method_kind_t method,
    hsa_ven_amd_pcs_units_t units, size_t interval, size_t latency, size_t buffer_size,
    hsa_ven_amd_pcs_data_ready_callback_t data_ready_callback, void* client_callback_data,
    hsa_ven_amd_pcs_t* pc_sampling);

hsa_status_t HSA_API hsa_ven_amd_pcs_destroy(hsa_ven_amd_pcs_t pc_sampling);

hsa_status_t HSA_API hsa_ven_amd_pcs_start(hsa_ven_amd_pcs_t pc_sampling);

hsa_status_t HSA_API hsa_ven_amd_pcs_stop(hsa_ven_amd_pcs_t pc_sampling);

hsa_status_t HSA_API hsa_ven_amd_pcs_flush(hsa_ven_amd_pcs_t pc_sampling);

/* Extension function table, version 1.00 */
#define hsa_ven_amd_pc_sampling_1_00

typedef struct hsa_ven_amd_pc_sampling_1_00_pfn_t {
  hsa_status_t (*hsa_ven_amd_pcs_iterate_configuration)(
      hsa_agent_t agent, hsa_ven_amd_pcs_iterate_configuration_callback_t configuration_callback,
      void* callback_data);
  hsa_status_t (*hsa_ven_amd_pcs_create)(hsa_agent_t agent, hsa_ven_amd_pcs_method_kind_t method,
                                         hsa_ven_amd_pcs_units_t units, size_t interval,
                                         size_t latency, size_t buffer_size,
                                         hsa_ven_amd_pcs_data_ready_callback_t data_ready_callback,
                                         void* client_callback_data,
                                         hsa_ven_amd_pcs_t* pc_sampling);
  hsa_status_t (*hsa_ven_amd_pcs_create_from_id)(
      uint32_t pcs_id, hsa_agent_t agent, hsa_ven_amd_pcs_method_kind_t method,
      hsa_ven_amd_pcs_units_t units, size_t interval, size_t latency, size_t buffer_size,
      hsa_ven_amd_pcs_data_ready_callback_t data_ready_callback, void* client_callback_data,
      hsa_ven_amd_pcs_t* pc_sampling);
  hsa_status_t (*hsa_ven_amd_pcs_destroy)(hsa_ven_amd_pcs_t pc_sampling);

  hsa_status_t (*hsa_ven_amd_pcs_start)(hsa_ven_amd_pcs_t pc_sampling);
  hsa_status_t (*hsa_ven_amd_pcs_stop)(hsa_ven_amd_pcs_t pc_sampling);

  hsa_status_t (*hsa_ven_amd_pcs_flush)(hsa_ven_amd_pcs_t pc_sampling);
} hsa_ven_amd_pc_sampling_1_00_pfn_t;

#ifdef __cplusplus
}
#endif

#endif /* HSA_VEN_AMD_PC_SAMPLING_H */
