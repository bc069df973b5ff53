/* SPDX-License-Identifier: MIT */
/* kfd_ioctl_supp.h — the KFD interface newer than the <linux/kfd_ioctl.h> of Debian 12
 * (linux-libc-dev 6.1, KFD 1.11), written here from the kernel's uapi facts (numbers and
 * layouts), for the runtime's src/kfd and the simulator's sim/kfd alike (DESIGN.md §3). It
 * is not installed. Every item yields to the system header when that defines it, so a
 * newer linux-libc-dev wins; tests/unit/test_kfd_abi_supp.c pins each number and size.
 *
 * What each interface minor version brought (what the kernel's GET_VERSION answers):
 *   1.12  AMDKFD_IOC_EXPORT_DMABUF: a KFD buffer object as a dma-buf descriptor
 *   1.13  the debugger interface: AMDKFD_IOC_RUNTIME_ENABLE, AMDKFD_IOC_DBG_TRAP
 *   1.14  event age: WAIT_EVENTS reads and returns the age of a signal event
 *   1.15  GEM_VA on the render node may manage mappings in a compute VM (no KFD ioctl);
 *         the kernels of this level also take KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT
 *   1.16  KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS (VRAM in one piece)
 *   1.17  SDMA queues on a chosen engine: queue type SDMA_BY_ENG_ID and the create-queue
 *         argument's sdma_engine_id (the argument grows from 88 to 96 bytes)
 *   1.18  set_memory_policy's last word becomes misc_process_flag (MFMA high precision) */
#ifndef KFD_ABI_KFD_IOCTL_SUPP_H
#define KFD_ABI_KFD_IOCTL_SUPP_H

#include <linux/kfd_ioctl.h>
#include <string.h>

/* The minor versions this header knows; the system header's own is KFD_IOCTL_MINOR_VERSION. */
#define KFD_SUPP_MINOR_OLDEST 11   /* Debian 12's header */
#define KFD_SUPP_MINOR_NEWEST 18

/* One past the highest ioctl number of the newest interface known here (0x26, DBG_TRAP). */
#define KFD_SUPP_COMMAND_END 0x27

/* ---- 1.12: export a buffer object as a dma-buf ---- */
#ifndef AMDKFD_IOC_EXPORT_DMABUF
struct kfd_ioctl_export_dmabuf_args {
  __u64 handle;      /* in: the buffer object's handle */
  __u32 flags;       /* in: O_CLOEXEC, O_RDWR ... for the new descriptor */
  __u32 dmabuf_fd;   /* out */
};
#define AMDKFD_IOC_EXPORT_DMABUF AMDKFD_IOWR(0x24, struct kfd_ioctl_export_dmabuf_args)
#endif

/* ---- 1.13: runtime enable and the debugger's trap interface ---- */
#ifndef AMDKFD_IOC_RUNTIME_ENABLE
#define KFD_RUNTIME_ENABLE_MODE_ENABLE_MASK 1
#define KFD_RUNTIME_ENABLE_MODE_TTMP_SAVE_MASK 2
struct kfd_ioctl_runtime_enable_args {
  __u64 r_debug;             /* in: address of the runtime's _amdgpu_r_debug */
  __u32 mode_mask;           /* in: KFD_RUNTIME_ENABLE_MODE_* */
  __u32 capabilities_mask;   /* out */
};
#define AMDKFD_IOC_RUNTIME_ENABLE AMDKFD_IOWR(0x25, struct kfd_ioctl_runtime_enable_args)
#endif

#ifndef AMDKFD_IOC_DBG_TRAP
/* kfd_ioctl_dbg_trap_args.op */
enum kfd_dbg_trap_operations {
  KFD_IOC_DBG_TRAP_ENABLE = 0,
  KFD_IOC_DBG_TRAP_DISABLE = 1,
  KFD_IOC_DBG_TRAP_SEND_RUNTIME_EVENT = 2,
  KFD_IOC_DBG_TRAP_SET_EXCEPTIONS_ENABLED = 3,
  KFD_IOC_DBG_TRAP_SET_WAVE_LAUNCH_OVERRIDE = 4,
  KFD_IOC_DBG_TRAP_SET_WAVE_LAUNCH_MODE = 5,
  KFD_IOC_DBG_TRAP_SUSPEND_QUEUES = 6,
  KFD_IOC_DBG_TRAP_RESUME_QUEUES = 7,
  KFD_IOC_DBG_TRAP_SET_NODE_ADDRESS_WATCH = 8,
  KFD_IOC_DBG_TRAP_CLEAR_NODE_ADDRESS_WATCH = 9,
  KFD_IOC_DBG_TRAP_SET_FLAGS = 10,
  KFD_IOC_DBG_TRAP_QUERY_DEBUG_EVENT = 11,
  KFD_IOC_DBG_TRAP_QUERY_EXCEPTION_INFO = 12,
  KFD_IOC_DBG_TRAP_GET_QUEUE_SNAPSHOT = 13,
  KFD_IOC_DBG_TRAP_GET_DEVICE_SNAPSHOT = 14,
};
struct kfd_ioctl_dbg_trap_enable_args {
  __u64 exception_mask;
  __u64 rinfo_ptr;
  __u32 rinfo_size;
  __u32 dbg_fd;
};
struct kfd_ioctl_dbg_trap_send_runtime_event_args {
  __u64 exception_mask;
  __u32 gpu_id;
  __u32 queue_id;
};
struct kfd_ioctl_dbg_trap_set_exceptions_enabled_args {
  __u64 exception_mask;
};
struct kfd_ioctl_dbg_trap_set_wave_launch_override_args {
  __u32 override_mode;
  __u32 enable_mask;
  __u32 support_request_mask;
  __u32 pad;
};
struct kfd_ioctl_dbg_trap_set_wave_launch_mode_args {
  __u32 launch_mode;
  __u32 pad;
};
struct kfd_ioctl_dbg_trap_suspend_queues_args {
  __u64 exception_mask;
  __u64 queue_array_ptr;
  __u32 num_queues;
  __u32 grace_period;
};
struct kfd_ioctl_dbg_trap_resume_queues_args {
  __u64 queue_array_ptr;
  __u32 num_queues;
  __u32 pad;
};
struct kfd_ioctl_dbg_trap_set_node_address_watch_args {
  __u64 address;
  __u32 mode;
  __u32 mask;
  __u32 gpu_id;
  __u32 id;
};
struct kfd_ioctl_dbg_trap_clear_node_address_watch_args {
  __u32 gpu_id;
  __u32 id;
};
struct kfd_ioctl_dbg_trap_set_flags_args {
  __u32 flags;
  __u32 pad;
};
struct kfd_ioctl_dbg_trap_query_debug_event_args {
  __u64 exception_mask;
  __u32 gpu_id;
  __u32 queue_id;
};
struct kfd_ioctl_dbg_trap_query_exception_info_args {
  __u64 info_ptr;
  __u32 info_size;
  __u32 source_id;
  __u32 exception_code;
  __u32 clear_exception;
};
struct kfd_ioctl_dbg_trap_queue_snapshot_args {
  __u64 exception_mask;
  __u64 snapshot_buf_ptr;
  __u32 num_queues;
  __u32 entry_size;
};
struct kfd_ioctl_dbg_trap_device_snapshot_args {
  __u64 exception_mask;
  __u64 snapshot_buf_ptr;
  __u32 num_devices;
  __u32 entry_size;
};
struct kfd_ioctl_dbg_trap_args {
  __u32 pid;   /* the debugged process */
  __u32 op;    /* enum kfd_dbg_trap_operations */
  union {
    struct kfd_ioctl_dbg_trap_enable_args enable;
    struct kfd_ioctl_dbg_trap_send_runtime_event_args send_runtime_event;
    struct kfd_ioctl_dbg_trap_set_exceptions_enabled_args set_exceptions_enabled;
    struct kfd_ioctl_dbg_trap_set_wave_launch_override_args launch_override;
    struct kfd_ioctl_dbg_trap_set_wave_launch_mode_args launch_mode;
    struct kfd_ioctl_dbg_trap_suspend_queues_args suspend_queues;
    struct kfd_ioctl_dbg_trap_resume_queues_args resume_queues;
    struct kfd_ioctl_dbg_trap_set_node_address_watch_args set_node_address_watch;
    struct kfd_ioctl_dbg_trap_clear_node_address_watch_args clear_node_address_watch;
    struct kfd_ioctl_dbg_trap_set_flags_args set_flags;
    struct kfd_ioctl_dbg_trap_query_debug_event_args query_debug_event;
    struct kfd_ioctl_dbg_trap_query_exception_info_args query_exception_info;
    struct kfd_ioctl_dbg_trap_queue_snapshot_args queue_snapshot;
    struct kfd_ioctl_dbg_trap_device_snapshot_args device_snapshot;
  };
};
#define AMDKFD_IOC_DBG_TRAP AMDKFD_IOWR(0x26, struct kfd_ioctl_dbg_trap_args)
/* What DBG_TRAP ENABLE copies to the debugger (rinfo_ptr, at most rinfo_size bytes; the
 * full size comes back in rinfo_size): the runtime's RUNTIME_ENABLE state. */
enum kfd_dbg_runtime_state {
  DEBUG_RUNTIME_STATE_DISABLED = 0,
  DEBUG_RUNTIME_STATE_ENABLED = 1,
  DEBUG_RUNTIME_STATE_ENABLED_BUSY = 2,
  DEBUG_RUNTIME_STATE_ENABLED_ERROR = 3,
};
struct kfd_runtime_info {
  __u64 r_debug;
  __u32 runtime_state;
  __u32 ttmp_setup;
};
#endif

/* ---- 1.14: event age ----
 * A signal event's kfd_event_data carries, in the first 8 bytes of its union, the age the
 * caller last saw (in) and the event's age now (out); 0 in means "no age" (the old wait).
 * The struct's size and the union's place do not change, so these accessors serve both the
 * old header (no signal_event_data member) and the new one. */
#if KFD_IOCTL_MINOR_VERSION < 14
struct kfd_hsa_signal_event_data {
  __u64 last_event_age;
};
#endif
static inline __u64 kfd_supp_event_age(const struct kfd_event_data *e)
{
  __u64 age;
  memcpy(&age, &e->memory_exception_data, sizeof age);
  return age;
}
static inline void kfd_supp_set_event_age(struct kfd_event_data *e, __u64 age)
{
  memcpy(&e->memory_exception_data, &age, sizeof age);
}

/* ---- 1.16: contiguous VRAM; and 1.15's extended-coherence flag beside it ---- */
#ifndef KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS
#define KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS (1 << 23)
#endif
#ifndef KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT
#define KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT (1 << 24)
#endif

/* ---- 1.17: SDMA queue on a given engine ---- */
#ifndef KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID
#define KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID 0x4
#endif
/* The create-queue argument as of 1.17 (a kernel copies what the caller's size names and
 * zero-fills the rest, so the 88-byte form stays valid). */
#define KFD_SUPP_CREATE_QUEUE_SIZE_V17 96u
#define KFD_SUPP_CREATE_QUEUE_SIZE_V11 88u
/* sdma_engine_id's place in the 1.17 form (after ctl_stack_size); accessors on a buffer of at
 * least KFD_SUPP_CREATE_QUEUE_SIZE_V17 bytes, whichever header declared the struct */
#define KFD_SUPP_CREATE_QUEUE_ENGINE_OFFSET 88u
static inline __u32 kfd_supp_create_queue_engine(const void *args)
{
  __u32 id;
  memcpy(&id, (const char *)args + KFD_SUPP_CREATE_QUEUE_ENGINE_OFFSET, sizeof id);
  return id;
}
static inline void kfd_supp_set_create_queue_engine(void *args, __u32 id)
{
  memcpy((char *)args + KFD_SUPP_CREATE_QUEUE_ENGINE_OFFSET, &id, sizeof id);
}
/* CREATE_QUEUE with the 96-byte argument of 1.17 (the number encodes the size) */
#define AMDKFD_SUPP_IOC_CREATE_QUEUE_V17 \
  _IOC(_IOC_READ | _IOC_WRITE, AMDKFD_IOCTL_BASE, 0x02, KFD_SUPP_CREATE_QUEUE_SIZE_V17)

/* ---- 1.18: per-process flags in set_memory_policy's last word ---- */
#ifndef KFD_PROC_FLAG_MFMA_HIGH_PRECISION
#define KFD_PROC_FLAG_MFMA_HIGH_PRECISION (1 << 0)
#endif

/* ---- SMI events newer than 6.1's enum (an enum: no #ifndef, hence the prefix) ---- */
#define KFD_SUPP_SMI_EVENT_PROCESS_START 12
#define KFD_SUPP_SMI_EVENT_PROCESS_END 13

#endif
