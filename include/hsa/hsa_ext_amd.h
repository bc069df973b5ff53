/* SPDX-License-Identifier: MIT */
/* AMD extensions to the HSA runtime API (hsa_amd_*): AMD agent/region info,
   memory pools, async copies, signals, IPC, SVM, virtual memory, profiling. */

#ifndef HSA_RUNTIME_EXT_AMD_H_
#define HSA_RUNTIME_EXT_AMD_H_

#include "hsa.h"
#include "hsa_ext_image.h"
#include "hsa_ven_amd_pc_sampling.h"

/* Version of this AMD extension interface */
#define HSA_AMD_INTERFACE_VERSION_MAJOR 1
#define HSA_AMD_INTERFACE_VERSION_MINOR 26

#ifdef __cplusplus
extern "C" {
#endif

/* Set / test bit "bit" of a little-endian byte-array bitmask */
static __inline__ __attribute__((always_inline)) void hsa_flag_set64(uint8_t* value, uint32_t bit) {
  unsigned int index = bit / 8;
  unsigned int subBit = bit % 8;
  (((uint8_t*)value)[index]) |= (1 << subBit);
}

static __inline__ __attribute__((always_inline)) bool hsa_flag_isset64(uint8_t* value,
                                                                       uint32_t bit) {
  unsigned int index = bit / 8;
  unsigned int subBit = bit % 8;
  return ((uint8_t*)value)[index] & (1 << subBit);
}

/* AMD vendor AQL packets */
typedef uint32_t hsa_signal_condition32_t;

typedef enum {
  HSA_AMD_PACKET_TYPE_BARRIER_VALUE = 2,
  HSA_AMD_PACKET_TYPE_AIE_ERT = 3
} hsa_amd_packet_type_t;

typedef uint8_t hsa_amd_packet_type8_t;

typedef struct hsa_amd_packet_header_s {
  uint16_t header;
  hsa_amd_packet_type8_t AmdFormat;
  uint8_t reserved;
} hsa_amd_vendor_packet_header_t;

/* Barrier that waits until (signal value & mask) cond value (64 bytes) */
typedef struct hsa_amd_barrier_value_packet_s {
  hsa_amd_vendor_packet_header_t header;
  uint32_t reserved0;
  hsa_signal_t signal;
  hsa_signal_value_t value;
  hsa_signal_value_t mask;
  hsa_signal_condition32_t cond;
  uint32_t reserved1;
  uint64_t reserved2;
  uint64_t reserved3;
  hsa_signal_t completion_signal;
} hsa_amd_barrier_value_packet_t;

/* AIE (XDNA) ERT command states, opcodes and types */
typedef enum {
  HSA_AMD_AIE_ERT_STATE_NEW = 1,
  HSA_AMD_AIE_ERT_STATE_QUEUED = 2,
  HSA_AMD_AIE_ERT_STATE_RUNNING = 3,
  HSA_AMD_AIE_ERT_STATE_COMPLETED = 4,
  HSA_AMD_AIE_ERT_STATE_ERROR = 5,
  HSA_AMD_AIE_ERT_STATE_ABORT = 6,
  HSA_AMD_AIE_ERT_STATE_SUBMITTED = 7,
  HSA_AMD_AIE_ERT_STATE_TIMEOUT = 8,
  HSA_AMD_AIE_ERT_STATE_NORESPONSE = 9,
  HSA_AMD_AIE_ERT_STATE_SKERROR = 10,
  HSA_AMD_AIE_ERT_STATE_SKCRASHED = 11,
  HSA_AMD_AIE_ERT_STATE_MAX
} hsa_amd_aie_ert_state;

typedef enum {
  HSA_AMD_AIE_ERT_START_CU = 0,
  HSA_AMD_AIE_ERT_START_KERNEL = 0,
  HSA_AMD_AIE_ERT_CONFIGURE = 2,
  HSA_AMD_AIE_ERT_EXIT = 3,
  HSA_AMD_AIE_ERT_ABORT = 4,
  HSA_AMD_AIE_ERT_EXEC_WRITE = 5,
  HSA_AMD_AIE_ERT_CU_STAT = 6,
  HSA_AMD_AIE_ERT_START_COPYBO = 7,
  HSA_AMD_AIE_ERT_SK_CONFIG = 8,
  HSA_AMD_AIE_ERT_SK_START = 9,
  HSA_AMD_AIE_ERT_SK_UNCONFIG = 10,
  HSA_AMD_AIE_ERT_INIT_CU = 11,
  HSA_AMD_AIE_ERT_START_FA = 12,
  HSA_AMD_AIE_ERT_CLK_CALIB = 13,
  HSA_AMD_AIE_ERT_MB_VALIDATE = 14,
  HSA_AMD_AIE_ERT_START_KEY_VAL = 15,
  HSA_AMD_AIE_ERT_ACCESS_TEST_C = 16,
  HSA_AMD_AIE_ERT_ACCESS_TEST = 17,
  HSA_AMD_AIE_ERT_START_DPU = 18,
  HSA_AMD_AIE_ERT_CMD_CHAIN = 19,
  HSA_AMD_AIE_ERT_START_NPU = 20,
  HSA_AMD_AIE_ERT_START_NPU_PREEMPT = 21
} hsa_amd_aie_ert_cmd_opcode_t;

typedef enum {
  HSA_AMD_AIE_ERT_CMD_TYPE_DEFAULT = 0,
  HSA_AMD_AIE_ERT_CMD_TYPE_KDS_LOCAL = 1,
  HSA_AMD_AIE_ERT_CMD_TYPE_CTRL = 2,
  HSA_AMD_AIE_ERT_CMD_TYPE_CU = 3,
  HSA_AMD_AIE_ERT_CMD_TYPE_SCU = 4
} hsa_amd_aie_ert_cmd_type_t;

/* AIE ERT command header and payloads */
typedef struct hsa_amd_aie_ert_start_kernel_header_s {
  uint32_t state : 4;
  uint32_t stat_enabled : 1;
  uint32_t unused : 5;
  uint32_t extra_cu_masks : 2;
  uint32_t count : 11;
  uint32_t opcode : 5;
  uint32_t type : 4;
} hsa_amd_aie_ert_start_kernel_header_t;

typedef struct hsa_amd_aie_ert_start_kernel_data_s {
  uint32_t cu_mask;
  uint32_t data[];
} hsa_amd_aie_ert_start_kernel_data_t;

typedef struct hsa_amd_aie_ert_command_chain_data_s {
  uint32_t command_count;
  uint32_t submit_index;
  uint32_t error_index;
  uint32_t reserved[3];
  uint64_t data[];
} hsa_amd_aie_ert_command_chain_data_t;

/* AIE ERT vendor packet (64 bytes) */
typedef struct hsa_amd_aie_ert_packet_s {
  hsa_amd_vendor_packet_header_t header;
  struct {
    uint32_t state : 4;
    uint32_t custom : 8;
    uint32_t count : 11;
    uint32_t opcode : 5;
    uint32_t type : 4;
  };
  uint64_t reserved0;
  uint64_t reserved1;
  uint64_t reserved2;
  uint64_t reserved3;
  uint64_t reserved4;
  uint64_t reserved5;
  uint64_t payload_data;
} hsa_amd_aie_ert_packet_t;

/* AMD-specific hsa_status_t values */
enum {
  HSA_STATUS_ERROR_INVALID_MEMORY_POOL = 40,
  HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION = 41,
  HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION = 42,
  HSA_STATUS_ERROR_MEMORY_FAULT = 43,
  HSA_STATUS_CU_MASK_REDUCED = 44,
  HSA_STATUS_ERROR_OUT_OF_REGISTERS = 45,
  HSA_STATUS_ERROR_RESOURCE_BUSY = 46,
  HSA_STATUS_ERROR_NOT_SUPPORTED = 47,
  HSA_STATUS_ERROR_XNACK_DISABLED = 48,
};

/* Values of HSA_AMD_AGENT_INFO_IOMMU_SUPPORT */
typedef enum {
  HSA_IOMMU_SUPPORT_NONE = 0,
  HSA_IOMMU_SUPPORT_V2 = 1,
} hsa_amd_iommu_version_t;

/* AMD agent attributes for hsa_agent_get_info */
typedef enum hsa_amd_agent_info_s {
  HSA_AMD_AGENT_INFO_CHIP_ID = 0xA000,
  HSA_AMD_AGENT_INFO_CACHELINE_SIZE = 0xA001,
  HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT = 0xA002,
  HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY = 0xA003,
  HSA_AMD_AGENT_INFO_DRIVER_NODE_ID = 0xA004,
  HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS = 0xA005,
  HSA_AMD_AGENT_INFO_BDFID = 0xA006,
  HSA_AMD_AGENT_INFO_MEMORY_WIDTH = 0xA007,
  HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY = 0xA008,
  HSA_AMD_AGENT_INFO_PRODUCT_NAME = 0xA009,
  HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU = 0xA00A,
  HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU = 0xA00B,
  HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES = 0xA00C,
  HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE = 0xA00D,
  HSA_AMD_AGENT_INFO_HDP_FLUSH = 0xA00E,
  HSA_AMD_AGENT_INFO_DOMAIN = 0xA00F,
  HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES = 0xA010,
  HSA_AMD_AGENT_INFO_UUID = 0xA011,
  HSA_AMD_AGENT_INFO_ASIC_REVISION = 0xA012,
  HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS = 0xA013,
  HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT = 0xA014,
  HSA_AMD_AGENT_INFO_MEMORY_AVAIL = 0xA015,
  HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY = 0xA016,
  HSA_AMD_AGENT_INFO_ASIC_FAMILY_ID = 0xA107,
  HSA_AMD_AGENT_INFO_UCODE_VERSION = 0xA108,
  HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION = 0xA109,
  HSA_AMD_AGENT_INFO_NUM_SDMA_ENG = 0xA10A,
  HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG = 0xA10B,
  HSA_AMD_AGENT_INFO_IOMMU_SUPPORT = 0xA110,
  HSA_AMD_AGENT_INFO_NUM_XCC = 0xA111,
  HSA_AMD_AGENT_INFO_DRIVER_UID = 0xA112,
  HSA_AMD_AGENT_INFO_NEAREST_CPU = 0xA113,
  HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES = 0xA114,
  HSA_AMD_AGENT_INFO_AQL_EXTENSIONS = 0xA115,
  HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_MAX = 0xA116,      /* uint64_t */
  HSA_AMD_AGENT_INFO_SCRATCH_LIMIT_CURRENT = 0xA117,  /* uint64_t */
  HSA_AMD_AGENT_INFO_CLOCK_COUNTERS = 0xA118,         /* hsa_amd_clock_counters_t (1.11) */
  HSA_AMD_AGENT_INFO_PM4_EMULATION = 0xA119,          /* bool */
  HSA_AMD_AGENT_INFO_LUID = 0xA11A,                   /* Windows only */
  HSA_AMD_AGENT_INFO_HAS_EXPERT_SCHED_MODE = 0xA11B,  /* bool */
  HSA_AMD_AGENT_INFO_CUID = 0xA11C,                   /* uint8_t[16] */
  HSA_AMD_AGENT_INFO_KERNEL_WG_MAX_SIZE = 0xA11D,     /* uint64_t */
  HSA_AMD_AGENT_INFO_KERNEL_CLUSTER_MAX_DIM = 0xA11E, /* hsa_amd_dim3_t */
  HSA_AMD_AGENT_INFO_KERNEL_CLUSTER_MAX_SIZE = 0xA11F,/* uint64_t */
  HSA_AMD_AGENT_INFO_CLUSTER_MAX_DIM = 0xA120,        /* hsa_amd_dim3_t */
  HSA_AMD_AGENT_INFO_CLUSTER_MAX_SIZE = 0xA121,       /* uint64_t */
  HSA_AMD_AGENT_INFO_KERNEL_WG_MAX_DIM = 0xA122       /* hsa_amd_dim3_t */
} hsa_amd_agent_info_t;

/* HSA_AMD_AGENT_INFO_CLOCK_COUNTERS: the driver's clocks read together */
typedef struct hsa_amd_clock_counters_s {
  uint64_t gpu_clock_counter;
  uint64_t cpu_clock_counter;
  uint64_t system_clock_counter;
  uint64_t system_clock_frequency;
} hsa_amd_clock_counters_t;

/* Dispatch dimension limits */
typedef struct hsa_amd_dim3_s {
  uint64_t x;
  uint64_t y;
  uint64_t z;
} hsa_amd_dim3_t;

/* Bits of HSA_AMD_AGENT_INFO_AQL_EXTENSIONS */
typedef enum hsa_amd_agent_aql_properties_s {
  HSA_AMD_AQL_PROPERTY_EXT_DISPATCH = (1 << 0),
} hsa_amd_agent_aql_properties_t;

/* Bits of HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES */
typedef enum hsa_amd_agent_memory_properties_s {
  HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU = (1 << 0),
} hsa_amd_agent_memory_properties_t;

/* SDMA engine bits (copy_engine_status mask, async_copy_on_engine id) */
typedef enum hsa_amd_sdma_engine_id {
  HSA_AMD_SDMA_ENGINE_0 = 0x1,
  HSA_AMD_SDMA_ENGINE_1 = 0x2,
  HSA_AMD_SDMA_ENGINE_2 = 0x4,
  HSA_AMD_SDMA_ENGINE_3 = 0x8,
  HSA_AMD_SDMA_ENGINE_4 = 0x10,
  HSA_AMD_SDMA_ENGINE_5 = 0x20,
  HSA_AMD_SDMA_ENGINE_6 = 0x40,
  HSA_AMD_SDMA_ENGINE_7 = 0x80,
  HSA_AMD_SDMA_ENGINE_8 = 0x100,
  HSA_AMD_SDMA_ENGINE_9 = 0x200,
  HSA_AMD_SDMA_ENGINE_10 = 0x400,
  HSA_AMD_SDMA_ENGINE_11 = 0x800,
  HSA_AMD_SDMA_ENGINE_12 = 0x1000,
  HSA_AMD_SDMA_ENGINE_13 = 0x2000,
  HSA_AMD_SDMA_ENGINE_14 = 0x4000,
  HSA_AMD_SDMA_ENGINE_15 = 0x8000
} hsa_amd_sdma_engine_id_t;

/* HDP flush register addresses (HSA_AMD_AGENT_INFO_HDP_FLUSH) */
typedef struct hsa_amd_hdp_flush_s {
  uint32_t* HDP_MEM_FLUSH_CNTL;
  uint32_t* HDP_REG_FLUSH_CNTL;
} hsa_amd_hdp_flush_t;

/* AMD region attributes for hsa_region_get_info */
typedef enum hsa_amd_region_info_s {
  HSA_AMD_REGION_INFO_HOST_ACCESSIBLE = 0xA000,
  HSA_AMD_REGION_INFO_BASE = 0xA001,
  HSA_AMD_REGION_INFO_BUS_WIDTH = 0xA002,
  HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY = 0xA003,
} hsa_amd_region_info_t;

/* Host/agent coherency */
typedef enum hsa_amd_coherency_type_s {
  HSA_AMD_COHERENCY_TYPE_COHERENT = 0,
  HSA_AMD_COHERENCY_TYPE_NONCOHERENT = 1
} hsa_amd_coherency_type_t;

hsa_status_t HSA_API hsa_amd_coherency_get_type(hsa_agent_t agent, hsa_amd_coherency_type_t* type);

hsa_status_t HSA_API hsa_amd_coherency_set_type(hsa_agent_t agent, hsa_amd_coherency_type_t type);

/* Profiling timestamps */
typedef struct hsa_amd_profiling_dispatch_time_s {
  uint64_t start;
  uint64_t end;
} hsa_amd_profiling_dispatch_time_t;

typedef struct hsa_amd_profiling_async_copy_time_s {
  uint64_t start;
  uint64_t end;
} hsa_amd_profiling_async_copy_time_t;

hsa_status_t HSA_API hsa_amd_profiling_set_profiler_enabled(hsa_queue_t* queue, int enable);

hsa_status_t HSA_API hsa_amd_profiling_async_copy_enable(bool enable);

hsa_status_t HSA_API hsa_amd_profiling_get_dispatch_time(hsa_agent_t agent, hsa_signal_t signal,
                                                         hsa_amd_profiling_dispatch_time_t* time);

hsa_status_t HSA_API hsa_amd_profiling_get_async_copy_time(
    hsa_signal_t signal, hsa_amd_profiling_async_copy_time_t* time);

hsa_status_t HSA_API hsa_amd_profiling_convert_tick_to_system_domain(hsa_agent_t agent,
                                                                     uint64_t agent_tick,
                                                                     uint64_t* system_tick);

/* Signals: creation attributes, value pointer, async handlers, waits */
typedef enum {
  HSA_AMD_SIGNAL_AMD_GPU_ONLY = 1,
  HSA_AMD_SIGNAL_IPC = 2,
} hsa_amd_signal_attribute_t;

hsa_status_t HSA_API hsa_amd_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                                           const hsa_agent_t* consumers, uint64_t attributes,
                                           hsa_signal_t* signal);

hsa_status_t HSA_API hsa_amd_signal_value_pointer(hsa_signal_t signal,
                                                  volatile hsa_signal_value_t** value_ptr);

typedef bool (*hsa_amd_signal_handler)(hsa_signal_value_t value, void* arg);

hsa_status_t HSA_API hsa_amd_signal_async_handler(hsa_signal_t signal, hsa_signal_condition_t cond,
                                                  hsa_signal_value_t value,
                                                  hsa_amd_signal_handler handler, void* arg);

uint32_t HSA_API hsa_amd_signal_wait_any(uint32_t signal_count, hsa_signal_t* signals,
                                         hsa_signal_condition_t* conds, hsa_signal_value_t* values,
                                         uint64_t timeout_hint, hsa_wait_state_t wait_hint,
                                         hsa_signal_value_t* satisfying_value);

/* Run a callback on the runtime's async thread */
hsa_status_t HSA_API hsa_amd_async_function(void (*callback)(void* arg), void* arg);

/* Images with an explicit, driver-specific layout */
typedef struct hsa_amd_image_descriptor_s {
  uint32_t version;
  uint32_t deviceID;
  uint32_t data[1];
} hsa_amd_image_descriptor_t;

hsa_status_t HSA_API hsa_amd_image_create(hsa_agent_t agent,
                                          const hsa_ext_image_descriptor_t* image_descriptor,
                                          const hsa_amd_image_descriptor_t* image_layout,
                                          const void* image_data,
                                          hsa_access_permission_t access_permission,
                                          hsa_ext_image_t* image);

hsa_status_t HSA_API hsa_amd_image_get_info_max_dim(hsa_agent_t agent, hsa_agent_info_t attribute,
                                                    void* value);

/* Queue compute-unit masks */
hsa_status_t HSA_API hsa_amd_queue_cu_set_mask(const hsa_queue_t* queue, uint32_t num_cu_mask_count,
                                               const uint32_t* cu_mask);

hsa_status_t HSA_API hsa_amd_queue_cu_get_mask(const hsa_queue_t* queue, uint32_t num_cu_mask_count,
                                               uint32_t* cu_mask);

/* Memory pools */
typedef enum {
  HSA_AMD_SEGMENT_GLOBAL = 0,
  HSA_AMD_SEGMENT_READONLY = 1,
  HSA_AMD_SEGMENT_PRIVATE = 2,
  HSA_AMD_SEGMENT_GROUP = 3,
} hsa_amd_segment_t;

typedef struct hsa_amd_memory_pool_s {
  uint64_t handle;
} hsa_amd_memory_pool_t;

typedef enum hsa_amd_memory_pool_global_flag_s {
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT = 1,
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED = 2,
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED = 4,
  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_EXTENDED_SCOPE_FINE_GRAINED = 8,
} hsa_amd_memory_pool_global_flag_t;

typedef enum hsa_amd_memory_pool_location_s {
  HSA_AMD_MEMORY_POOL_LOCATION_CPU = 0,
  HSA_AMD_MEMORY_POOL_LOCATION_GPU = 1
} hsa_amd_memory_pool_location_t;

typedef enum {
  HSA_AMD_MEMORY_POOL_INFO_SEGMENT = 0,
  HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS = 1,
  HSA_AMD_MEMORY_POOL_INFO_SIZE = 2,
  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED = 5,
  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE = 6,
  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT = 7,
  HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL = 15,
  HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE = 16,
  HSA_AMD_MEMORY_POOL_INFO_LOCATION = 17,
  HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_REC_GRANULE = 18,
} hsa_amd_memory_pool_info_t;

typedef enum hsa_amd_memory_pool_flag_s {
  HSA_AMD_MEMORY_POOL_STANDARD_FLAG = 0,
  HSA_AMD_MEMORY_POOL_PCIE_FLAG = (1 << 0),
  HSA_AMD_MEMORY_POOL_CONTIGUOUS_FLAG = (1 << 1),
  HSA_AMD_MEMORY_POOL_EXECUTABLE_FLAG = (1 << 2),
} hsa_amd_memory_pool_flag_t;

hsa_status_t HSA_API hsa_amd_memory_pool_get_info(hsa_amd_memory_pool_t memory_pool,
                                                  hsa_amd_memory_pool_info_t attribute,
                                                  void* value);

hsa_status_t HSA_API hsa_amd_agent_iterate_memory_pools(
    hsa_agent_t agent, hsa_status_t (*callback)(hsa_amd_memory_pool_t memory_pool, void* data),
    void* data);

hsa_status_t HSA_API hsa_amd_memory_pool_allocate(hsa_amd_memory_pool_t memory_pool, size_t size,
                                                  uint32_t flags, void** ptr);

hsa_status_t HSA_API hsa_amd_memory_pool_free(void* ptr);

/* Asynchronous copies */
hsa_status_t HSA_API hsa_amd_memory_async_copy(void* dst, hsa_agent_t dst_agent, const void* src,
                                               hsa_agent_t src_agent, size_t size,
                                               uint32_t num_dep_signals,
                                               const hsa_signal_t* dep_signals,
                                               hsa_signal_t completion_signal);

hsa_status_t HSA_API hsa_amd_memory_async_copy_on_engine(
    void* dst, hsa_agent_t dst_agent, const void* src, hsa_agent_t src_agent, size_t size,
    uint32_t num_dep_signals, const hsa_signal_t* dep_signals, hsa_signal_t completion_signal,
    hsa_amd_sdma_engine_id_t engine_id, bool force_copy_on_sdma);

hsa_status_t HSA_API hsa_amd_memory_copy_engine_status(hsa_agent_t dst_agent, hsa_agent_t src_agent,
                                                       uint32_t* engine_ids_mask);

/* Rectangular (pitched) copies */
typedef struct hsa_pitched_ptr_s {
  void* base;
  size_t pitch;
  size_t slice;
} hsa_pitched_ptr_t;

typedef enum {
  hsaHostToHost = 0,
  hsaHostToDevice = 1,
  hsaDeviceToHost = 2,
  hsaDeviceToDevice = 3
} hsa_amd_copy_direction_t;

hsa_status_t HSA_API hsa_amd_memory_async_copy_rect(
    const hsa_pitched_ptr_t* dst, const hsa_dim3_t* dst_offset, const hsa_pitched_ptr_t* src,
    const hsa_dim3_t* src_offset, const hsa_dim3_t* range, hsa_agent_t copy_agent,
    hsa_amd_copy_direction_t dir, uint32_t num_dep_signals, const hsa_signal_t* dep_signals,
    hsa_signal_t completion_signal);

/* Agent access to pools and link topology */
typedef enum {
  HSA_AMD_MEMORY_POOL_ACCESS_NEVER_ALLOWED = 0,
  HSA_AMD_MEMORY_POOL_ACCESS_ALLOWED_BY_DEFAULT = 1,
  HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT = 2
} hsa_amd_memory_pool_access_t;

typedef enum {
  HSA_AMD_LINK_INFO_TYPE_HYPERTRANSPORT = 0,
  HSA_AMD_LINK_INFO_TYPE_QPI = 1,
  HSA_AMD_LINK_INFO_TYPE_PCIE = 2,
  HSA_AMD_LINK_INFO_TYPE_INFINBAND = 3,
  HSA_AMD_LINK_INFO_TYPE_XGMI = 4
} hsa_amd_link_info_type_t;

typedef struct hsa_amd_memory_pool_link_info_s {
  uint32_t min_latency;
  uint32_t max_latency;
  uint32_t min_bandwidth;
  uint32_t max_bandwidth;
  bool atomic_support_32bit;
  bool atomic_support_64bit;
  bool coherent_support;
  hsa_amd_link_info_type_t link_type;
  uint32_t numa_distance;
} hsa_amd_memory_pool_link_info_t;

typedef enum {
  HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS = 0,
  HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS = 1,
  HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO = 2
} hsa_amd_agent_memory_pool_info_t;

hsa_status_t HSA_API hsa_amd_agent_memory_pool_get_info(hsa_agent_t agent,
                                                        hsa_amd_memory_pool_t memory_pool,
                                                        hsa_amd_agent_memory_pool_info_t attribute,
                                                        void* value);

/* Access grants, migration, host memory locking, fill */
hsa_status_t HSA_API hsa_amd_agents_allow_access(uint32_t num_agents, const hsa_agent_t* agents,
                                                 const uint32_t* flags, const void* ptr);

hsa_status_t HSA_API hsa_amd_memory_pool_can_migrate(hsa_amd_memory_pool_t src_memory_pool,
                                                     hsa_amd_memory_pool_t dst_memory_pool,
                                                     bool* result);

hsa_status_t HSA_API hsa_amd_memory_migrate(const void* ptr, hsa_amd_memory_pool_t memory_pool,
                                            uint32_t flags);

hsa_status_t HSA_API hsa_amd_memory_lock(void* host_ptr, size_t size, hsa_agent_t* agents,
                                         int num_agent, void** agent_ptr);

hsa_status_t HSA_API hsa_amd_memory_lock_to_pool(void* host_ptr, size_t size, hsa_agent_t* agents,
                                                 int num_agent, hsa_amd_memory_pool_t pool,
                                                 uint32_t flags, void** agent_ptr);

hsa_status_t HSA_API hsa_amd_memory_unlock(void* host_ptr);

hsa_status_t HSA_API hsa_amd_memory_fill(void* ptr, uint32_t value, size_t count);

/* Graphics interop buffers */
hsa_status_t HSA_API hsa_amd_interop_map_buffer(uint32_t num_agents, hsa_agent_t* agents,
                                                int interop_handle, uint32_t flags, size_t* size,
                                                void** ptr, size_t* metadata_size,
                                                const void** metadata);

hsa_status_t HSA_API hsa_amd_interop_unmap_buffer(void* ptr);

/* Pointer information */
typedef enum {
  HSA_EXT_POINTER_TYPE_UNKNOWN = 0,
  HSA_EXT_POINTER_TYPE_HSA = 1,
  HSA_EXT_POINTER_TYPE_LOCKED = 2,
  HSA_EXT_POINTER_TYPE_GRAPHICS = 3,
  HSA_EXT_POINTER_TYPE_IPC = 4,
  HSA_EXT_POINTER_TYPE_RESERVED_ADDR = 5,   /* an address range with no memory behind it */
  HSA_EXT_POINTER_TYPE_HSA_VMEM = 6         /* memory of the virtual memory API */
} hsa_amd_pointer_type_t;

/* Bits of hsa_amd_pointer_info_t::alloc_flags (interface 1.18) */
typedef enum hsa_amd_pointer_info_alloc_flag_s {
  HSA_AMD_POINTER_INFO_ALLOC_FLAG_EXECUTABLE = 1 << 0,
  HSA_AMD_POINTER_INFO_ALLOC_FLAG_CONTIGUOUS = 1 << 1,
  HSA_AMD_POINTER_INFO_ALLOC_FLAG_NONPAGED = 1 << 2,
  HSA_AMD_POINTER_INFO_ALLOC_FLAG_READONLY = 1 << 3,
  HSA_AMD_POINTER_INFO_ALLOC_FLAG_HOST_ACCESS = 1 << 4,
  HSA_AMD_POINTER_INFO_ALLOC_FLAG_ATOMIC_FULL = 1 << 5,
  HSA_AMD_POINTER_INFO_ALLOC_FLAG_ATOMIC_PARTIAL = 1 << 6,
} hsa_amd_pointer_info_alloc_flag_t;

/* Grows only: callers set size to what they know, the runtime fills that much. */
typedef struct hsa_amd_pointer_info_s {
  uint32_t size;
  hsa_amd_pointer_type_t type;
  void* agentBaseAddress;
  void* hostBaseAddress;
  size_t sizeInBytes;
  void* userData;
  hsa_agent_t agentOwner;
  uint32_t global_flags;
  bool registered;          /* 1.13: the allocation is known to the kernel driver */
  uint32_t alloc_flags;     /* 1.18: hsa_amd_pointer_info_alloc_flag_t bits */
} hsa_amd_pointer_info_t;

hsa_status_t HSA_API hsa_amd_pointer_info(const void* ptr, hsa_amd_pointer_info_t* info,
                                          void* (*alloc)(size_t), uint32_t* num_agents_accessible,
                                          hsa_agent_t** accessible);

hsa_status_t HSA_API hsa_amd_pointer_info_set_userdata(const void* ptr, void* userdata);

/* Inter-process memory and signal sharing */
typedef struct hsa_amd_ipc_memory_s {
  uint32_t handle[8];
} hsa_amd_ipc_memory_t;

hsa_status_t HSA_API hsa_amd_ipc_memory_create(void* ptr, size_t len, hsa_amd_ipc_memory_t* handle);

hsa_status_t HSA_API hsa_amd_ipc_memory_attach(const hsa_amd_ipc_memory_t* handle, size_t len,
                                               uint32_t num_agents,
                                               const hsa_agent_t* mapping_agents,
                                               void** mapped_ptr);

hsa_status_t HSA_API hsa_amd_ipc_memory_detach(void* mapped_ptr);

typedef hsa_amd_ipc_memory_t hsa_amd_ipc_signal_t;

hsa_status_t HSA_API hsa_amd_ipc_signal_create(hsa_signal_t signal, hsa_amd_ipc_signal_t* handle);

hsa_status_t HSA_API hsa_amd_ipc_signal_attach(const hsa_amd_ipc_signal_t* handle,
                                               hsa_signal_t* signal);

/* System events: memory faults, hardware exceptions, memory errors */
typedef enum hsa_amd_event_type_s {
  HSA_AMD_GPU_MEMORY_FAULT_EVENT = 0,
  HSA_AMD_GPU_HW_EXCEPTION_EVENT,
  HSA_AMD_GPU_MEMORY_ERROR_EVENT,
} hsa_amd_event_type_t;

typedef enum {
  HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT = 1 << 0,
  HSA_AMD_MEMORY_FAULT_READ_ONLY = 1 << 1,
  HSA_AMD_MEMORY_FAULT_NX = 1 << 2,
  HSA_AMD_MEMORY_FAULT_HOST_ONLY = 1 << 3,
  HSA_AMD_MEMORY_FAULT_DRAMECC = 1 << 4,
  HSA_AMD_MEMORY_FAULT_IMPRECISE = 1 << 5,
  HSA_AMD_MEMORY_FAULT_SRAMECC = 1 << 6,
  /* bit 31, written so the constant stays a signed int as in ROCm 5.2 */
  HSA_AMD_MEMORY_FAULT_HANG = -2147483647 - 1
} hsa_amd_memory_fault_reason_t;

typedef struct hsa_amd_gpu_memory_fault_info_s {
  hsa_agent_t agent;
  uint64_t virtual_address;
  uint32_t fault_reason_mask;
} hsa_amd_gpu_memory_fault_info_t;

typedef enum {
  HSA_AMD_MEMORY_ERROR_MEMORY_IN_USE = (1 << 0),
} hsa_amd_memory_error_reason_t;

typedef struct hsa_amd_gpu_memory_error_info_s {
  hsa_agent_t agent;
  uint64_t virtual_address;
  uint32_t error_reason_mask;
} hsa_amd_gpu_memory_error_info_t;

typedef enum {
  HSA_AMD_HW_EXCEPTION_RESET_TYPE_OTHER = 1 << 0,
} hsa_amd_hw_exception_reset_type_t;

typedef enum {
  HSA_AMD_HW_EXCEPTION_CAUSE_GPU_HANG = 1 << 0,
  HSA_AMD_HW_EXCEPTION_CAUSE_ECC = 1 << 1,
} hsa_amd_hw_exception_reset_cause_t;

typedef struct hsa_amd_gpu_hw_exception_info_s {
  hsa_agent_t agent;
  hsa_amd_hw_exception_reset_type_t reset_type;
  hsa_amd_hw_exception_reset_cause_t reset_cause;
} hsa_amd_gpu_hw_exception_info_t;

typedef struct hsa_amd_event_s {
  hsa_amd_event_type_t event_type;
  union {
    hsa_amd_gpu_memory_fault_info_t memory_fault;
    hsa_amd_gpu_hw_exception_info_t hw_exception;
    hsa_amd_gpu_memory_error_info_t memory_error;
  };
} hsa_amd_event_t;

typedef hsa_status_t (*hsa_amd_system_event_callback_t)(const hsa_amd_event_t* event, void* data);

hsa_status_t HSA_API hsa_amd_register_system_event_handler(hsa_amd_system_event_callback_t callback,
                                                           void* data);

/* Queue priority */
typedef enum hsa_amd_queue_priority_s {
  HSA_AMD_QUEUE_PRIORITY_LOW = 0,
  HSA_AMD_QUEUE_PRIORITY_NORMAL = 1,
  HSA_AMD_QUEUE_PRIORITY_HIGH = 2,
} hsa_amd_queue_priority_t;

hsa_status_t HSA_API hsa_amd_queue_set_priority(hsa_queue_t* queue,
                                                hsa_amd_queue_priority_t priority);

/* Callbacks run when an allocation is freed */
typedef void (*hsa_amd_deallocation_callback_t)(void* ptr, void* user_data);

hsa_status_t HSA_API hsa_amd_register_deallocation_callback(
    void* ptr, hsa_amd_deallocation_callback_t callback, void* user_data);

hsa_status_t HSA_API
hsa_amd_deregister_deallocation_callback(void* ptr, hsa_amd_deallocation_callback_t callback);

/* Shared virtual memory (SVM) attributes and prefetch */
typedef enum hsa_amd_svm_model_s {
  HSA_AMD_SVM_GLOBAL_FLAG_FINE_GRAINED = 0,
  HSA_AMD_SVM_GLOBAL_FLAG_COARSE_GRAINED = 1,
  HSA_AMD_SVM_GLOBAL_FLAG_INDETERMINATE = 2
} hsa_amd_svm_model_t;

typedef enum hsa_amd_svm_attribute_s {
  HSA_AMD_SVM_ATTRIB_GLOBAL_FLAG = 0,
  HSA_AMD_SVM_ATTRIB_READ_ONLY = 1,
  HSA_AMD_SVM_ATTRIB_HIVE_LOCAL = 2,
  HSA_AMD_SVM_ATTRIB_MIGRATION_GRANULARITY = 3,
  HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION = 4,
  HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION = 5,
  HSA_AMD_SVM_ATTRIB_READ_MOSTLY = 6,
  HSA_AMD_SVM_ATTRIB_GPU_EXEC = 7,
  HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE = 0x200,
  HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE_IN_PLACE = 0x201,
  HSA_AMD_SVM_ATTRIB_AGENT_NO_ACCESS = 0x202,
  HSA_AMD_SVM_ATTRIB_ACCESS_QUERY = 0x203,
} hsa_amd_svm_attribute_t;

typedef struct hsa_amd_svm_attribute_pair_s {
  uint64_t attribute;
  uint64_t value;
} hsa_amd_svm_attribute_pair_t;

hsa_status_t HSA_API hsa_amd_svm_attributes_set(void* ptr, size_t size,
                                                hsa_amd_svm_attribute_pair_t* attribute_list,
                                                size_t attribute_count);

hsa_status_t HSA_API hsa_amd_svm_attributes_get(void* ptr, size_t size,
                                                hsa_amd_svm_attribute_pair_t* attribute_list,
                                                size_t attribute_count);

hsa_status_t HSA_API hsa_amd_svm_prefetch_async(void* ptr, size_t size, hsa_agent_t agent,
                                                uint32_t num_dep_signals,
                                                const hsa_signal_t* dep_signals,
                                                hsa_signal_t completion_signal);

/* Streaming performance monitor (SPM) */
hsa_status_t HSA_API hsa_amd_spm_acquire(hsa_agent_t preferred_agent);

hsa_status_t HSA_API hsa_amd_spm_release(hsa_agent_t preferred_agent);

hsa_status_t HSA_API hsa_amd_spm_set_dest_buffer(hsa_agent_t preferred_agent, size_t size_in_bytes,
                                                 uint32_t* timeout, uint32_t* size_copied,
                                                 void* dest, bool* is_data_loss);

/* dma-buf export of allocations */
hsa_status_t HSA_API hsa_amd_portable_export_dmabuf(const void* ptr, size_t size, int* dmabuf,
                                                    uint64_t* offset);

hsa_status_t HSA_API hsa_amd_portable_close_dmabuf(int dmabuf);

/* How the importer is to reach the exported memory (flags of _v2) */
typedef enum {
  HSA_AMD_DMABUF_MAPPING_TYPE_NONE = 0,
  HSA_AMD_DMABUF_MAPPING_TYPE_PCIE = 1
} hsa_amd_dma_buf_mapping_type_t;

hsa_status_t HSA_API hsa_amd_portable_export_dmabuf_v2(const void* ptr, size_t size, int* dmabuf,
                                                       uint64_t* offset, uint64_t flags);

/* Virtual memory management: address ranges, physical handles, mapping */
typedef enum hsa_amd_vmem_address_reserve_flag_s {
  /* a range of host pages the driver is not told of */
  HSA_AMD_VMEM_ADDRESS_NO_REGISTER = (1UL << 0),
} hsa_amd_vmem_address_reserve_flag_t;

hsa_status_t HSA_API hsa_amd_vmem_address_reserve(void** va, size_t size, uint64_t address,
                                                  uint64_t flags);

hsa_status_t HSA_API hsa_amd_vmem_address_reserve_align(void** va, size_t size, uint64_t address,
                                                        uint64_t alignment, uint64_t flags);

hsa_status_t HSA_API hsa_amd_vmem_address_free(void* va, size_t size);

typedef struct hsa_amd_vmem_alloc_handle_s {
  uint64_t handle;
} hsa_amd_vmem_alloc_handle_t;

typedef enum {
  MEMORY_TYPE_NONE,
  MEMORY_TYPE_PINNED,
} hsa_amd_memory_type_t;

hsa_status_t HSA_API hsa_amd_vmem_handle_create(hsa_amd_memory_pool_t pool, size_t size,
                                                hsa_amd_memory_type_t type, uint64_t flags,
                                                hsa_amd_vmem_alloc_handle_t* memory_handle);

hsa_status_t HSA_API hsa_amd_vmem_handle_release(hsa_amd_vmem_alloc_handle_t memory_handle);

hsa_status_t HSA_API hsa_amd_vmem_map(void* va, size_t size, size_t in_offset,
                                      hsa_amd_vmem_alloc_handle_t memory_handle, uint64_t flags);

hsa_status_t HSA_API hsa_amd_vmem_unmap(void* va, size_t size);

typedef struct hsa_amd_memory_access_desc_s {
  hsa_access_permission_t permissions;
  hsa_agent_t agent_handle;
} hsa_amd_memory_access_desc_t;

hsa_status_t HSA_API hsa_amd_vmem_set_access(void* va, size_t size,
                                             const hsa_amd_memory_access_desc_t* desc,
                                             size_t desc_cnt);

hsa_status_t HSA_API hsa_amd_vmem_get_access(void* va, hsa_access_permission_t* perms,
                                             hsa_agent_t agent_handle);

hsa_status_t HSA_API hsa_amd_vmem_export_shareable_handle(int* dmabuf_fd,
                                                          hsa_amd_vmem_alloc_handle_t handle,
                                                          uint64_t flags);

hsa_status_t HSA_API hsa_amd_vmem_import_shareable_handle(int dmabuf_fd,
                                                          hsa_amd_vmem_alloc_handle_t* handle);

hsa_status_t HSA_API hsa_amd_vmem_retain_alloc_handle(hsa_amd_vmem_alloc_handle_t* memory_handle,
                                                      void* addr);

hsa_status_t HSA_API hsa_amd_vmem_get_alloc_properties_from_handle(
    hsa_amd_vmem_alloc_handle_t memory_handle, hsa_amd_memory_pool_t* pool,
    hsa_amd_memory_type_t* type);

/* Scratch memory kept per agent for asynchronous reclaim */
hsa_status_t HSA_API hsa_amd_agent_set_async_scratch_limit(hsa_agent_t agent, size_t threshold);

/* Queue information */
typedef enum {
  HSA_AMD_QUEUE_INFO_AGENT,
  HSA_AMD_QUEUE_INFO_DOORBELL_ID,
  HSA_QUEUE_INFO_USE_COUNT,   /* uint32_t: sharers of a counted queue (-1: not counted) */
  HSA_QUEUE_INFO_HW_ID,       /* uint32_t: equal for queues on one hardware queue */
  /* uint8_t: versions of the metadata prefetch packets, 0xFF when not supported */
  HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_DISPATCH_PKT_VERSION_MAJOR,
  HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_DISPATCH_PKT_VERSION_MINOR,
  HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_BARRIER_PKT_VERSION_MAJOR,
  HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_BARRIER_PKT_VERSION_MINOR,
  HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_RING_BUFFER,   /* uint64_t, where the hardware has one */
  HSA_AMD_QUEUE_INFO_PROPERTIES,                      /* uint8_t[8] bit mask */
} hsa_queue_info_attribute_t;

hsa_status_t HSA_API hsa_amd_queue_get_info(hsa_queue_t* queue,
                                            hsa_queue_info_attribute_t attribute, void* value);

/* Runtime logging */
typedef enum hsa_amd_log_flag_s {
  HSA_AMD_LOG_FLAG_BLIT_KERNEL_PKTS = 0,
  HSA_AMD_LOG_FLAG_AQL = 0,
  HSA_AMD_LOG_FLAG_SDMA = 1,
  HSA_AMD_LOG_FLAG_INFO = 2,
} hsa_amd_log_flag_t;

hsa_status_t HSA_API hsa_amd_enable_logging(uint8_t* flags, void* file);

/* Wait until every signal meets its condition; 0 when they all did, -1 (as uint32_t) on
   timeout. A null or invalid signal counts as value 0 with its condition met. */
uint32_t HSA_API hsa_amd_signal_wait_all(uint32_t signal_count, hsa_signal_t* signals,
                                         hsa_signal_condition_t* conds, hsa_signal_value_t* values,
                                         uint64_t timeout_hint, hsa_wait_state_t wait_hint,
                                         hsa_signal_value_t* satisfying_values);

/* The driver event id behind an interrupt signal */
hsa_status_t HSA_API hsa_amd_signal_get_event_id(hsa_signal_t signal, uint32_t* event_id);

/* SDMA engines that give the best bandwidth from src_agent to dst_agent (0: no preference) */
hsa_status_t HSA_API hsa_amd_memory_get_preferred_copy_engine(hsa_agent_t dst_agent,
                                                              hsa_agent_t src_agent,
                                                              uint32_t* recommended_ids_mask);

/* Batched copies */
typedef enum {
  HSA_AMD_MEMORY_COPY_OP_LINEAR = 0,
  HSA_AMD_MEMORY_COPY_OP_LINEAR_BROADCAST = 1,
  HSA_AMD_MEMORY_COPY_OP_LINEAR_SWAP = 2,
  HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRC = 3,
  HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_DST = 4,
  HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRCDST = 5,
} hsa_amd_memory_copy_op_type_t;

typedef enum {
  HSA_AMD_MEMORY_COPY_WAIT_ALWAYS = 0,
  HSA_AMD_MEMORY_COPY_WAIT_LT = 1,
  HSA_AMD_MEMORY_COPY_WAIT_LE = 2,
  HSA_AMD_MEMORY_COPY_WAIT_EQ = 3,
  HSA_AMD_MEMORY_COPY_WAIT_NE = 4,
  HSA_AMD_MEMORY_COPY_WAIT_GE = 5,
  HSA_AMD_MEMORY_COPY_WAIT_GT = 6,
} hsa_amd_memory_copy_wait_function_t;

typedef enum {
  HSA_AMD_MEMORY_COPY_SIGNAL_NONE = 0,
  HSA_AMD_MEMORY_COPY_SIGNAL_WRITE = 1,
  HSA_AMD_MEMORY_COPY_SIGNAL_ADD = 2,
  HSA_AMD_MEMORY_COPY_SIGNAL_SUB = 3,
} hsa_amd_memory_copy_signal_op_t;

#define HSA_AMD_MEMORY_COPY_OP_VERSION 1

/* One operation of hsa_amd_memory_async_batch_copy. Which union member applies depends on
   type and num_entries (0: one copy of size bytes from src to dst). */
typedef struct hsa_amd_memory_copy_op_s {
  uint16_t version;
  uint16_t type;
  uint16_t num_entries;
  uint16_t traffic_class;
  hsa_signal_t completion_signal;
  union {
    void* src;
    void** src_list;
  };
  union {
    hsa_agent_t src_agent;
    hsa_agent_t* src_agent_list;
  };
  union {
    hsa_agent_t dst_agent;
    hsa_agent_t* dst_agent_list;
  };
  union {
    void* dst;
    void** dst_list;
  };
  union {
    struct {
      size_t size;
      size_t unused_size;
    };
    struct {
      size_t src_size;
      size_t dst_size;
    };
    struct {
      size_t* size_list;
      size_t reserved0;
    };
  };
  struct {
    uint16_t function;
    uint16_t scope;
    uint32_t reserved;
    void* addr;
    uint64_t value;
    uint64_t mask;
  } wait;
  struct {
    uint16_t operation;
    uint16_t scope;
    uint32_t reserved;
    void* addr;
    uint64_t data;
  } signal;
  uint64_t reserved1[1];
} hsa_amd_memory_copy_op_t;

hsa_status_t HSA_API hsa_amd_memory_async_batch_copy(const hsa_amd_memory_copy_op_t* copy_ops,
                                                     uint32_t num_copy_ops,
                                                     uint32_t num_dep_signals,
                                                     const hsa_signal_t* dep_signals);

/* Set up an agent's internal resources ahead of first use; flags skip some of them */
typedef enum hsa_amd_agent_preload_flag_s {
  HSA_AMD_AGENT_PRELOAD_SKIP_CLOCK_SYNC = (1 << 0),
  HSA_AMD_AGENT_PRELOAD_SKIP_BLITS = (1 << 1)
} hsa_amd_agent_preload_flag_t;

hsa_status_t HSA_API hsa_amd_agent_preload(hsa_agent_t agent, uint64_t flags);

/* Queues shared with a use count */
hsa_status_t HSA_API hsa_amd_counted_queue_acquire(
    hsa_agent_t agent, hsa_queue_type_t type, hsa_amd_queue_priority_t priority,
    void (*callback)(hsa_status_t status, hsa_queue_t* source, void* data), void* data,
    uint64_t flags, hsa_queue_t** queue);

hsa_status_t HSA_API hsa_amd_counted_queue_release(hsa_queue_t* queue);

/* SVM ranges whose contents the caller no longer needs */
hsa_status_t HSA_API hsa_amd_svm_discard_batch_async(void** ptrs, size_t* sizes, uint32_t count,
                                                     uint32_t num_dep_signals,
                                                     const hsa_signal_t* dep_signals,
                                                     hsa_signal_t completion_signal);

/* File <-> device memory */
typedef struct hsa_amd_ais_file_handle_s {
  union {
    void* handle;
    int fd;
    uint8_t pad[8];
  };
} hsa_amd_ais_file_handle_t;

hsa_status_t HSA_API hsa_amd_ais_file_write(hsa_amd_ais_file_handle_t handle, void* devicePtr,
                                            uint64_t size, int64_t file_offset,
                                            uint64_t* size_copied, int32_t* status);

hsa_status_t HSA_API hsa_amd_ais_file_read(hsa_amd_ais_file_handle_t handle, void* devicePtr,
                                           uint64_t size, int64_t file_offset,
                                           uint64_t* size_copied, int32_t* status);

/* SDMA queues owned by the application: it writes SDMA packets into the ring itself */
typedef struct hsa_amd_sdma_queue_s {
  uint64_t handle;
} hsa_amd_sdma_queue_t;

typedef enum {
  HSA_AMD_SDMA_QUEUE_FLAG_USE_ENGINE_ID = (1 << 0),
} hsa_amd_sdma_queue_flag_t;

typedef enum {
  HSA_AMD_SDMA_QUEUE_INFO_AGENT = 0,
  HSA_AMD_SDMA_QUEUE_INFO_RESOURCE = 1,
  HSA_AMD_SDMA_QUEUE_INFO_MIN_SUBMISSION_SIZE = 2,
  HSA_AMD_SDMA_QUEUE_INFO_QUEUE_ID = 3,
} hsa_amd_sdma_queue_info_t;

/* Ring, pointers and doorbell of an SDMA queue; read/write pointers and doorbell values
   count bytes from the ring's start, without wrapping. */
typedef struct hsa_amd_sdma_queue_resource_s {
  void* ring_base;
  size_t ring_size;
  volatile uint64_t* read_ptr;
  volatile uint64_t* write_ptr;
  volatile uint64_t* doorbell;
} hsa_amd_sdma_queue_resource_t;

hsa_status_t HSA_API hsa_amd_sdma_queue_create(hsa_agent_t agent, uint32_t flags,
                                               hsa_amd_sdma_engine_id_t engine_id,
                                               size_t ring_size, hsa_amd_sdma_queue_t* queue);

hsa_status_t HSA_API hsa_amd_sdma_queue_destroy(hsa_amd_sdma_queue_t queue);

hsa_status_t HSA_API hsa_amd_sdma_queue_get_info(hsa_amd_sdma_queue_t queue,
                                                 hsa_amd_sdma_queue_info_t attribute, void* value);

hsa_status_t HSA_API hsa_amd_sdma_queue_ring_doorbell(hsa_amd_sdma_queue_t queue,
                                                      uint64_t write_ptr);

#ifdef __cplusplus
}
#endif

#endif /* HSA_RUNTIME_EXT_AMD_H_ */
