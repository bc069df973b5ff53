/* SPDX-License-Identifier: MIT */
/* amd_queue_t: the AMD-specific queue descriptor that wraps hsa_queue_t. */

#ifndef AMD_HSA_QUEUE_H
#define AMD_HSA_QUEUE_H

#include "amd_hsa_common.h"
#include "hsa.h"

/* queue_properties bits */
typedef uint32_t amd_queue_properties32_t;
enum amd_queue_properties_t {
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER, 0, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_IS_PTR64, 1, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_ENABLE_TRAP_HANDLER_DEBUG_SGPRS, 2, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_ENABLE_PROFILING, 3, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE, 4, 1),
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_PROPERTIES_RESERVED1, 5, 27)
};

#define AMD_QUEUE_ALIGN_BYTES 64
#define AMD_QUEUE_ALIGN __ALIGNED__(AMD_QUEUE_ALIGN_BYTES)

/* caps bits (set by firmware that supports dual scratch / async reclaim) */
typedef uint32_t amd_queue_capabilities32_t;
enum amd_queue_capabilities_t {
  AMD_HSA_BITS_CREATE_ENUM_ENTRIES(AMD_QUEUE_CAPS_ASYNC_RECLAIM, 0, 1),
};

/* 256-byte, 64-byte aligned queue descriptor read by CP firmware. */
typedef struct AMD_QUEUE_ALIGN amd_queue_s {
  hsa_queue_t hsa_queue;                          /* 0x00 */
  /* ROCm 5.2 calls these 16 bytes reserved1[4]; later ROCm uses the first word as caps. */
  union {
    uint32_t reserved1[4];                        /* 0x28 */
    uint32_t caps;
  };
  volatile uint64_t write_dispatch_id;            /* 0x38 */
  uint32_t group_segment_aperture_base_hi;
  uint32_t private_segment_aperture_base_hi;
  uint32_t max_cu_id;
  uint32_t max_wave_id;
  volatile uint64_t max_legacy_doorbell_dispatch_id_plus_1;
  volatile uint32_t legacy_doorbell_lock;
  uint32_t reserved2[9];
  volatile uint64_t read_dispatch_id;             /* 0x80 */
  uint32_t read_dispatch_id_field_base_byte_offset;
  uint32_t compute_tmpring_size;
  uint32_t scratch_resource_descriptor[4];
  uint64_t scratch_backing_memory_location;
  uint64_t scratch_backing_memory_byte_size;
  uint32_t scratch_wave64_lane_byte_size;
  amd_queue_properties32_t queue_properties;
  /* Older headers called these 8 bytes reserved3[2]; both names are kept. */
  union {
    volatile uint64_t scratch_last_used_index;
    uint32_t reserved3[2];
  };
  hsa_signal_t queue_inactive_signal;
  /* ROCm 5.2 calls these 56 bytes reserved4[14]; later ROCm put a second (alternate)
     scratch area here, used with AMD_QUEUE_CAPS_ASYNC_RECLAIM. */
  union {
    uint32_t reserved4[14];
    struct {
      uint32_t alt_scratch_reserved[2];
      volatile uint64_t alt_scratch_last_used_index;
      uint64_t alt_scratch_backing_memory_location;
      uint64_t alt_scratch_backing_memory_byte_size;
      uint32_t alt_scratch_dispatch_limit_x;
      uint32_t alt_scratch_dispatch_limit_y;
      uint32_t alt_scratch_dispatch_limit_z;
      uint32_t alt_scratch_wave64_lane_byte_size;
      uint32_t alt_compute_tmpring_size;
      uint32_t reserved5;
    };
  };
} amd_queue_t;

#endif /* AMD_HSA_QUEUE_H */
