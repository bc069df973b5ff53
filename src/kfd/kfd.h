/* SPDX-License-Identifier: MIT */
/* kfd.h — the kernel boundary: plain C views of the KFD sysfs topology, /dev/kfd, the DRM
 * render nodes, apertures and clocks. No HSA objects and no policy here: core/ decides. */
#ifndef KFD_KFD_H
#define KFD_KFD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the kernel exposes things; tests and the simulator pass other roots. */
#define KFD_SYSFS_ROOT "/sys/devices/virtual/kfd/kfd/topology"
#define KFD_DEVICE_PATH "/dev/kfd"
#define KFD_DRI_DIR "/dev/dri"

/* ---- sysfs helpers (sysfs.c) ---------------------------------------------------------- */
/* Reads a whole small file into buf (NUL-terminated). Returns bytes read or -errno. */
long kfd_sysfs_read(const char *path, char *buf, size_t size);
/* Calls fn(key, value, arg) for every "name number" line; stops when fn returns nonzero
 * and returns that value, else 0. Lines that do not parse are skipped. */
int kfd_sysfs_for_each(const char *text, int (*fn)(const char *key, uint64_t value, void *arg),
                       void *arg);
/* A file holding one unsigned number. 0 or -errno. */
int kfd_sysfs_read_u64(const char *path, uint64_t *value);
/* A file holding one line of text, trailing newline removed. 0 or -errno. */
int kfd_sysfs_read_line(const char *path, char *buf, size_t size);

/* ---- topology (topology.c) -------------------------------------------------------------- */
/* nodes/N/properties, field for field as the kernel names them. */
struct kfd_node_props {
  uint64_t cpu_cores_count, simd_count, mem_banks_count, caches_count, io_links_count,
      p2p_links_count, cpu_core_id_base, simd_id_base, max_waves_per_simd, lds_size_in_kb,
      gds_size_in_kb, num_gws, wave_front_size, array_count, simd_arrays_per_engine,
      cu_per_simd_array, simd_per_cu, max_slots_scratch_cu, gfx_target_version, vendor_id,
      device_id, location_id, domain, drm_render_minor, hive_id, num_sdma_engines,
      num_sdma_xgmi_engines, num_sdma_queues_per_engine, num_cp_queues, max_engine_clk_fcompute,
      max_engine_clk_ccompute, local_mem_size, fw_version, capability, capability2, debug_prop,
      sdma_fw_version, unique_id, num_xcc, cwsr_size, ctl_stack_size;
};

/* The HSA_CAP_* bits of `capability` the runtime reads (kernel kfd_topology.h values). */
#define KFD_CAP_ATS_PRESENT 0x00000002u
#define KFD_CAP_WATCH_POINTS_TOTALBITS_MASK 0x00000f00u
#define KFD_CAP_WATCH_POINTS_TOTALBITS_SHIFT 8
#define KFD_CAP_ASIC_REVISION_MASK 0x03c00000u
#define KFD_CAP_ASIC_REVISION_SHIFT 22
#define KFD_CAP_SRAM_EDCSUPPORTED 0x04000000u
#define KFD_CAP_SVMAPI_SUPPORTED 0x08000000u
#define KFD_CAP_FLAGS_COHERENTHOSTACCESS 0x10000000u

/* mem_banks/N/properties; heap types as in the kernel (HSA_MEM_HEAP_TYPE_*). */
enum { KFD_HEAP_SYSTEM = 0, KFD_HEAP_FB_PUBLIC = 1, KFD_HEAP_FB_PRIVATE = 2 };
struct kfd_mem_bank {
  uint64_t heap_type, size_in_bytes, flags, width, mem_clk_max;
  uint64_t used_memory; /* mem_banks/N/used_memory when present */
  bool has_used_memory;
};

/* caches/N/properties. `type` bits: HSA_CACHE_TYPE_* (1 data, 2 instruction, 4 CPU, 8 HSACU). */
#define KFD_CACHE_TYPE_DATA 0x1u
#define KFD_CACHE_TYPE_INSTRUCTION 0x2u
#define KFD_CACHE_TYPE_CPU 0x4u
#define KFD_CACHE_TYPE_HSACU 0x8u
struct kfd_cache {
  uint64_t processor_id_low, level, size, cache_line_size, cache_lines_per_tag, association,
      latency, type;
};

/* io_links/N and p2p_links/N properties. Link types as the kernel's CRAT_IOLINK_TYPE_*. */
enum { KFD_LINK_HYPERTRANSPORT = 1, KFD_LINK_PCIEXPRESS = 2, KFD_LINK_QPI_1_1 = 5,
       KFD_LINK_INFINIBAND = 9, KFD_LINK_XGMI = 11 };
struct kfd_link {
  uint64_t type, version_major, version_minor, node_from, node_to, weight, min_latency,
      max_latency, min_bandwidth, max_bandwidth, recommended_transfer_size,
      recommended_sdma_engine_id_mask, flags;
  bool p2p; /* from p2p_links/, not io_links/ */
};

struct kfd_node {
  unsigned sysfs_index;       /* N in nodes/N */
  uint32_t gpu_id;            /* nodes/N/gpu_id; 0 for CPU nodes */
  bool has_gpu_id;            /* false when the file is absent (captures) */
  bool gpu_id_denied;         /* reading gpu_id failed with EPERM (cgroup hides it) */
  char name[64];              /* nodes/N/name, "" when absent */
  struct kfd_node_props props;
  struct kfd_mem_bank *mem_banks;
  unsigned mem_bank_count;
  struct kfd_cache *caches;
  unsigned cache_count;
  char *caches_dir;           /* deferred: the node's directory, caches not read yet */
  struct kfd_link *links;     /* io_links first, then p2p_links */
  unsigned link_count;
};

struct kfd_topology {
  uint64_t generation_id;     /* 0 when the file is absent */
  bool has_generation_id;
  uint64_t platform_oem, platform_id, platform_rev; /* system_properties */
  struct kfd_node *nodes;
  unsigned node_count;
};

/* Reads the topology under root (KFD_SYSFS_ROOT or a copy). Re-reads when generation_id
 * changed meanwhile. 0 or -errno (-ENOENT: no KFD topology at all). */
int kfd_topology_read(const char *root, struct kfd_topology *topo);
/* The same, leaving every node's caches/ for kfd_node_read_caches (a GPU node lists dozens of
 * caches, most of hsa_init's reads, which few programs ask about). */
int kfd_topology_read_deferred(const char *root, struct kfd_topology *topo);
/* Reads a node's deferred caches (nothing when they were read): 0 or -errno. The caller
 * serialises calls for one node. */
int kfd_node_read_caches(struct kfd_node *node);
void kfd_topology_free(struct kfd_topology *topo);
/* Parses one node properties file (also used on single captured files). 0 or -errno. */
int kfd_node_props_read(const char *path, struct kfd_node_props *props);
/* Looks up a property of `props` by its sysfs name; NULL when unknown. */
const uint64_t *kfd_node_props_field(const struct kfd_node_props *props, const char *key);

/* ---- /dev/kfd (device.c) ------------------------------------------------------------------ */
struct kfd_device {
  int fd;
  uint32_t major, minor;      /* AMDKFD_IOC_GET_VERSION */
};
/* Opens path O_RDWR|O_CLOEXEC and reads the interface version. 0 or -errno; -EPROTO when the
 * interface major version is not the one <linux/kfd_ioctl.h> describes (then *dev still holds
 * the version read, and no fd). */
int kfd_device_open(const char *path, struct kfd_device *dev);
void kfd_device_close(struct kfd_device *dev);
/* ioctl that retries on EINTR/EAGAIN; returns 0 or -errno. */
int kfd_ioctl(int fd, unsigned long request, void *arg);
/* Names a refused kernel call once on stderr (call, errno, its usual meaning) unless
 * HSA_ENABLE_DRIVER_MESSAGES=0; rc is the -errno a kfd_* call returned (>= 0: nothing). */
void kfd_report(const char *call, int rc);

/* XNACK mode of the process: *enabled set from the driver (AMDKFD_IOC_SET_XNACK_MODE with -1).
 * set_xnack_mode asks for a mode. 0 or -errno (-ENOTTY/-EINVAL on kernels without it). */
int kfd_get_xnack_mode(const struct kfd_device *dev, bool *enabled);
int kfd_set_xnack_mode(const struct kfd_device *dev, bool enabled);
/* AMDKFD_IOC_AVAILABLE_MEMORY: VRAM this process can still allocate on gpu_id. */
int kfd_available_memory(const struct kfd_device *dev, uint32_t gpu_id, uint64_t *bytes);

/* ---- DRM render node (drm.c) ----------------------------------------------------------------- */
struct kfd_drm {
  int fd;                     /* -1 when not open */
  uint32_t family_id, chip_external_rev, chip_rev;
  uint64_t gpu_counter_freq_khz;
  bool integrated;            /* AMDGPU_IDS_FLAGS_FUSION */
};
/* Opens <dri_dir>/renderD<minor> and reads its chip info (AMDGPU_INFO_DEV_INFO). 0 or -errno. */
int kfd_drm_open(const char *dri_dir, unsigned minor, struct kfd_drm *drm);
/* libdrm_amdgpu's marketing name of the open node (amdgpu.ids), "" when it has none. */
void kfd_drm_marketing_name(const struct kfd_drm *drm, char *name, size_t size);
void kfd_drm_close(struct kfd_drm *drm);

/* ---- VM and apertures (apertures.c) ---------------------------------------------------------- */
struct kfd_aperture {
  uint32_t gpu_id;
  uint64_t lds_base, lds_limit, scratch_base, scratch_limit, gpuvm_base, gpuvm_limit;
};
/* AMDKFD_IOC_GET_PROCESS_APERTURES_NEW: fills up to max entries, *count = how many. */
int kfd_get_apertures(const struct kfd_device *dev, struct kfd_aperture *out, unsigned max,
                      unsigned *count);
/* AMDKFD_IOC_ACQUIRE_VM: binds the render node's VM to this process for gpu_id. */
int kfd_acquire_vm(const struct kfd_device *dev, uint32_t gpu_id, int drm_fd);

/* ---- clocks (clock.c) ------------------------------------------------------------------------ */
struct kfd_clock_counters {
  uint64_t gpu_clock_counter, cpu_clock_counter, system_clock_counter, system_clock_freq;
};
/* AMDKFD_IOC_GET_CLOCK_COUNTERS (gpu_id 0 gives the CPU/system clocks only). */
int kfd_get_clock_counters(const struct kfd_device *dev, uint32_t gpu_id,
                           struct kfd_clock_counters *out);
/* The same clocks read from the OS when there is no device (boot time in ns). */
void kfd_host_clock_counters(struct kfd_clock_counters *out);
/* AMDKFD_IOC_GET_TILE_CONFIG's GB_ADDR_CONFIG of gpu_id (what addrlib's gfx9 swizzle
 * equations are built from). */
int kfd_get_gb_addr_config(const struct kfd_device *dev, uint32_t gpu_id, uint32_t *out);

#endif
