/* SPDX-License-Identifier: MIT */
/* AMD AQL profiling extension (hsa_ven_amd_aqlprofile_*): counter and thread
   trace packets built by libhsa-amd-aqlprofile. */

#ifndef OPENSRC_HSA_RUNTIME_INC_HSA_VEN_AMD_AQLPROFILE_H_
#define OPENSRC_HSA_RUNTIME_INC_HSA_VEN_AMD_AQLPROFILE_H_

#include <stdint.h>
#include "hsa.h"

/* Interface version */
#define HSA_AQLPROFILE_VERSION_MAJOR 2
#define HSA_AQLPROFILE_VERSION_MINOR 0

#ifdef __cplusplus
extern "C" {
#endif

/* Library version query */
uint32_t hsa_ven_amd_aqlprofile_version_major(void);
uint32_t hsa_ven_amd_aqlprofile_version_minor(void);

/* Profile kinds: performance counters or thread trace */
typedef enum {
  HSA_VEN_AMD_AQLPROFILE_EVENT_TYPE_PMC = 0,
  HSA_VEN_AMD_AQLPROFILE_EVENT_TYPE_TRACE = 1,
} hsa_ven_amd_aqlprofile_event_type_t;

/* Hardware blocks that own counters */
typedef enum {
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_CPC = 0,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_CPF = 1,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GDS = 2,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GRBM = 3,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GRBMSE = 4,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SPI = 5,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SQ = 6,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SQCS = 7,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SRBM = 8,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SX = 9,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TA = 10,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCA = 11,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCC = 12,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TCP = 13,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_TD = 14,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_MCARB = 15,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_MCHUB = 16,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_MCMCBVM = 17,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_MCSEQ = 18,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_MCVML2 = 19,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_MCXBAR = 20,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_ATC = 21,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_ATCL2 = 22,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GCEA = 23,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_RPB = 24,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_SDMA = 25,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GL1A = 26,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GL1C = 27,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GL2A = 28,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GL2C = 29,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GCR = 30,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_GUS = 31,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_UMC = 32,
  HSA_VEN_AMD_AQLPROFILE_BLOCK_NAME_MMEA = 33,
  HSA_VEN_AMD_AQLPROFILE_BLOCKS_NUMBER
} hsa_ven_amd_aqlprofile_block_name_t;

/* One counter: block, block instance, counter id */
typedef struct {
  hsa_ven_amd_aqlprofile_block_name_t block_name;
  uint32_t block_index;
  uint32_t counter_id;
} hsa_ven_amd_aqlprofile_event_t;

hsa_status_t hsa_ven_amd_aqlprofile_validate_event(hsa_agent_t agent,
                                                   const hsa_ven_amd_aqlprofile_event_t* event,
                                                   bool* result);

/* Profile parameters (mostly thread trace) */
typedef enum {
  HSA_VEN_AMD_AQLPROFILE_PARAMETER_NAME_COMPUTE_UNIT_TARGET = 0,
  HSA_VEN_AMD_AQLPROFILE_PARAMETER_NAME_VM_ID_MASK = 1,
  HSA_VEN_AMD_AQLPROFILE_PARAMETER_NAME_MASK = 2,
  HSA_VEN_AMD_AQLPROFILE_PARAMETER_NAME_TOKEN_MASK = 3,
  HSA_VEN_AMD_AQLPROFILE_PARAMETER_NAME_TOKEN_MASK2 = 4,
  HSA_VEN_AMD_AQLPROFILE_PARAMETER_NAME_SE_MASK = 5,
  HSA_VEN_AMD_AQLPROFILE_PARAMETER_NAME_SAMPLE_RATE = 6,
  HSA_VEN_AMD_AQLPROFILE_PARAMETER_NAME_K_CONCURRENT = 7,
  HSA_VEN_AMD_AQLPROFILE_PARAMETER_NAME_SIMD_SELECTION = 8,
  HSA_VEN_AMD_AQLPROFILE_PARAMETER_NAME_OCCUPANCY_MODE = 9,
  HSA_VEN_AMD_AQLPROFILE_PARAMETER_NAME_ATT_BUFFER_SIZE = 10,
  HSA_VEN_AMD_AQLPROFILE_PARAMETER_NAME_PERFCOUNTER_MASK = 240,
  HSA_VEN_AMD_AQLPROFILE_PARAMETER_NAME_PERFCOUNTER_CTRL = 241,
  HSA_VEN_AMD_AQLPROFILE_PARAMETER_NAME_PERFCOUNTER_NAME = 242,
} hsa_ven_amd_aqlprofile_parameter_name_t;

typedef struct {
  hsa_ven_amd_aqlprofile_parameter_name_t parameter_name;
  uint32_t value;
} hsa_ven_amd_aqlprofile_parameter_t;

/* Thread-trace marker channels */
typedef enum {
  HSA_VEN_AMD_AQLPROFILE_ATT_CHANNEL_0 = 0,
  HSA_VEN_AMD_AQLPROFILE_ATT_CHANNEL_1,
  HSA_VEN_AMD_AQLPROFILE_ATT_CHANNEL_2,
  HSA_VEN_AMD_AQLPROFILE_ATT_CHANNEL_3
} hsa_ven_amd_aqlprofile_att_marker_channel_t;

/* A buffer: address and size */
typedef struct {
  void* ptr;
  uint32_t size;
} hsa_ven_amd_aqlprofile_descriptor_t;

/* Profile description passed to start/stop/read */
typedef struct {
  hsa_agent_t agent;
  hsa_ven_amd_aqlprofile_event_type_t type;
  const hsa_ven_amd_aqlprofile_event_t* events;
  uint32_t event_count;
  const hsa_ven_amd_aqlprofile_parameter_t* parameters;
  uint32_t parameter_count;
  hsa_ven_amd_aqlprofile_descriptor_t output_buffer;
  hsa_ven_amd_aqlprofile_descriptor_t command_buffer;
} hsa_ven_amd_aqlprofile_profile_t;

/* AMD vendor-specific AQL packet carrying PM4 commands (64 bytes) */
typedef struct {
  uint16_t header;
  uint16_t pm4_command[27];
  hsa_signal_t completion_signal;
} hsa_ext_amd_aql_pm4_packet_t;

/* Build start / stop / read packets for a profile */
hsa_status_t hsa_ven_amd_aqlprofile_start(hsa_ven_amd_aqlprofile_profile_t* profile,
                                          hsa_ext_amd_aql_pm4_packet_t* aql_start_packet);

hsa_status_t hsa_ven_amd_aqlprofile_stop(const hsa_ven_amd_aqlprofile_profile_t* profile,
                                         hsa_ext_amd_aql_pm4_packet_t* aql_stop_packet);

hsa_status_t hsa_ven_amd_aqlprofile_read(const hsa_ven_amd_aqlprofile_profile_t* profile,
                                         hsa_ext_amd_aql_pm4_packet_t* aql_read_packet);

/* Legacy PM4 conversion (size in bytes of the PM4 output) */
static const unsigned HSA_VEN_AMD_AQLPROFILE_LEGACY_PM4_PACKET_SIZE = 192;

hsa_status_t hsa_ven_amd_aqlprofile_legacy_get_pm4(const hsa_ext_amd_aql_pm4_packet_t* aql_packet,
                                                   void* data);

hsa_status_t hsa_ven_amd_aqlprofile_att_marker(hsa_ven_amd_aqlprofile_profile_t* profile,
                                               hsa_ext_amd_aql_pm4_packet_t* aql_marker_packet,
                                               uint32_t data,
                                               hsa_ven_amd_aqlprofile_att_marker_channel_t channel);

/* Per-sample output delivered to the data callback */
typedef struct {
  uint32_t sample_id;
  union {
    struct {
      hsa_ven_amd_aqlprofile_event_t event;
      uint64_t result;
    } pmc_data;
    hsa_ven_amd_aqlprofile_descriptor_t trace_data;
  };
} hsa_ven_amd_aqlprofile_info_data_t;

/* Block id query */
typedef struct {
  const char* name;
  uint32_t id;
  uint32_t instance_count;
} hsa_ven_amd_aqlprofile_id_query_t;

/* get_info / iterate_data selectors */
typedef enum {
  HSA_VEN_AMD_AQLPROFILE_INFO_COMMAND_BUFFER_SIZE = 0,
  HSA_VEN_AMD_AQLPROFILE_INFO_PMC_DATA_SIZE = 1,
  HSA_VEN_AMD_AQLPROFILE_INFO_PMC_DATA = 2,
  HSA_VEN_AMD_AQLPROFILE_INFO_TRACE_DATA = 3,
  HSA_VEN_AMD_AQLPROFILE_INFO_BLOCK_COUNTERS = 4,
  HSA_VEN_AMD_AQLPROFILE_INFO_BLOCK_ID = 5,
  HSA_VEN_AMD_AQLPROFILE_INFO_ENABLE_CMD = 6,
  HSA_VEN_AMD_AQLPROFILE_INFO_DISABLE_CMD = 7,
} hsa_ven_amd_aqlprofile_info_type_t;

typedef hsa_status_t (*hsa_ven_amd_aqlprofile_data_callback_t)(
    hsa_ven_amd_aqlprofile_info_type_t info_type, hsa_ven_amd_aqlprofile_info_data_t* info_data,
    void* callback_data);

hsa_status_t hsa_ven_amd_aqlprofile_get_info(const hsa_ven_amd_aqlprofile_profile_t* profile,
                                             hsa_ven_amd_aqlprofile_info_type_t attribute,
                                             void* value);

hsa_status_t hsa_ven_amd_aqlprofile_iterate_data(const hsa_ven_amd_aqlprofile_profile_t* profile,
                                                 hsa_ven_amd_aqlprofile_data_callback_t callback,
                                                 void* data);

/* Last error text */
hsa_status_t hsa_ven_amd_aqlprofile_error_string(const char** str);

/* Event id / coordinate enumeration */
typedef hsa_status_t (*hsa_ven_amd_aqlprofile_eventname_callback_t)(int id, const char* name);

hsa_status_t hsa_ven_amd_aqlprofile_iterate_event_ids(
    hsa_ven_amd_aqlprofile_eventname_callback_t callback);

typedef hsa_status_t (*hsa_ven_amd_aqlprofile_coordinate_callback_t)(int position, int id,
                                                                     int extent, int coordinate,
                                                                     const char* name,
                                                                     void* userdata);

hsa_status_t hsa_ven_amd_aqlprofile_iterate_event_coord(
    hsa_agent_t agent, hsa_ven_amd_aqlprofile_event_t event, uint32_t sample_id,
    hsa_ven_amd_aqlprofile_coordinate_callback_t callback, void* userdata);

/* Library name and function table */
#define hsa_ven_amd_aqlprofile_VERSION_MAJOR 1
#define hsa_ven_amd_aqlprofile_LIB(suff) "libhsa-amd-aqlprofile" suff ".so"

#ifdef HSA_LARGE_MODEL
static const char kAqlProfileLib[] = hsa_ven_amd_aqlprofile_LIB("64");
#else
static const char kAqlProfileLib[] = hsa_ven_amd_aqlprofile_LIB("");
#endif

typedef struct hsa_ven_amd_aqlprofile_1_00_pfn_s {
  uint32_t (*hsa_ven_amd_aqlprofile_version_major)(void);
  uint32_t (*hsa_ven_amd_aqlprofile_version_minor)(void);

  hsa_status_t (*hsa_ven_amd_aqlprofile_error_string)(const char** str);

  hsa_status_t (*hsa_ven_amd_aqlprofile_validate_event)(hsa_agent_t agent,
                                                        const hsa_ven_amd_aqlprofile_event_t* event,
                                                        bool* result);

  hsa_status_t (*hsa_ven_amd_aqlprofile_start)(hsa_ven_amd_aqlprofile_profile_t* profile,
                                               hsa_ext_amd_aql_pm4_packet_t* aql_start_packet);

  hsa_status_t (*hsa_ven_amd_aqlprofile_stop)(const hsa_ven_amd_aqlprofile_profile_t* profile,
                                              hsa_ext_amd_aql_pm4_packet_t* aql_stop_packet);

  hsa_status_t (*hsa_ven_amd_aqlprofile_read)(const hsa_ven_amd_aqlprofile_profile_t* profile,
                                              hsa_ext_amd_aql_pm4_packet_t* aql_read_packet);

  hsa_status_t (*hsa_ven_amd_aqlprofile_legacy_get_pm4)(
      const hsa_ext_amd_aql_pm4_packet_t* aql_packet, void* data);

  hsa_status_t (*hsa_ven_amd_aqlprofile_get_info)(const hsa_ven_amd_aqlprofile_profile_t* profile,
                                                  hsa_ven_amd_aqlprofile_info_type_t attribute,
                                                  void* value);

  hsa_status_t (*hsa_ven_amd_aqlprofile_iterate_data)(
      const hsa_ven_amd_aqlprofile_profile_t* profile,
      hsa_ven_amd_aqlprofile_data_callback_t callback, void* data);

  hsa_status_t (*hsa_ven_amd_aqlprofile_iterate_event_ids)(
      hsa_ven_amd_aqlprofile_eventname_callback_t);

  hsa_status_t (*hsa_ven_amd_aqlprofile_iterate_event_coord)(
      hsa_agent_t agent, hsa_ven_amd_aqlprofile_event_t event, uint32_t sample_id,
      hsa_ven_amd_aqlprofile_coordinate_callback_t callback, void* userdata);

  hsa_status_t (*hsa_ven_amd_aqlprofile_att_marker)(
      hsa_ven_amd_aqlprofile_profile_t* profile, hsa_ext_amd_aql_pm4_packet_t* aql_packet,
      uint32_t data, hsa_ven_amd_aqlprofile_att_marker_channel_t channel);
} hsa_ven_amd_aqlprofile_1_00_pfn_t;

typedef hsa_ven_amd_aqlprofile_1_00_pfn_t hsa_ven_amd_aqlprofile_pfn_t;

#ifdef __cplusplus
}
#endif

#endif /* OPENSRC_HSA_RUNTIME_INC_HSA_VEN_AMD_AQLPROFILE_H_ */
