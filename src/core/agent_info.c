/* SPDX-License-Identifier: MIT */
/* agent_info.c — hsa_agent_get_info: every hsa_agent_info_t, image and hsa_amd_agent_info_t
 * attribute ROCR answers, with ROCR's values for CPU and GPU agents. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "core/agent.h"
#include "core/extension.h"
#include "core/mmio.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "hsa_ext_image.h"

#define NAME_SIZE 64

static void put_name(void *value, const char *s) {
  size_t n = strnlen(s, NAME_SIZE - 1);
  memset(value, 0, NAME_SIZE);
  memcpy(value, s, n);
}

static uint32_t watch_points(const struct kfd_node *n) {
  return 1u << ((n->props.capability & KFD_CAP_WATCH_POINTS_TOTALBITS_MASK) >>
                KFD_CAP_WATCH_POINTS_TOTALBITS_SHIFT);
}

static uint32_t asic_revision(const struct kfd_node *n) {
  return (uint32_t)((n->props.capability & KFD_CAP_ASIC_REVISION_MASK) >>
                    KFD_CAP_ASIC_REVISION_SHIFT);
}

/* Per level, the size in bytes of the first data cache of that level (0 if none). */
static void cache_sizes(const struct core_agent *a, uint32_t out[4], bool last_wins) {
  memset(out, 0, 4 * sizeof(uint32_t));
  core_agent_load_caches(a);
  for (unsigned i = 0; i < a->cache_count; i++) {
    unsigned l = a->caches[i].level - 1u;
    if (l < 4 && (last_wins || out[l] == 0)) out[l] = a->caches[i].size;
  }
}

/* Attributes CPU and GPU agents answer alike. 1 answered, 0 not one of these. */
static int common_info(const struct core_agent *a, uint32_t attr, void *value) {
  const struct kfd_node *n = a->node;
  switch (attr) {
  case HSA_AGENT_INFO_MACHINE_MODEL:
    *(hsa_machine_model_t *)value = HSA_MACHINE_MODEL_LARGE;
    return 1;
  case HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES:
  case HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE:
    *(hsa_default_float_rounding_mode_t *)value = HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR;
    return 1;
  case HSA_AGENT_INFO_PROFILE:
    *(hsa_profile_t *)value = a->profile;
    return 1;
  case HSA_AGENT_INFO_QUEUE_TYPE:
    *(hsa_queue_type32_t *)value = HSA_QUEUE_TYPE_MULTI;
    return 1;
  case HSA_AGENT_INFO_NODE:
  case HSA_AMD_AGENT_INFO_DRIVER_NODE_ID:
    *(uint32_t *)value = a->node_id;
    return 1;
  case HSA_AGENT_INFO_VERSION_MAJOR:
  case HSA_AGENT_INFO_VERSION_MINOR:
    *(uint16_t *)value = 1;
    return 1;
  case HSA_AMD_AGENT_INFO_CHIP_ID:
    *(uint32_t *)value = (uint32_t)n->props.device_id;
    return 1;
  case HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS:
    *(uint32_t *)value = watch_points(n);
    return 1;
  case HSA_AMD_AGENT_INFO_BDFID:
    *(uint32_t *)value = (uint32_t)n->props.location_id;
    return 1;
  case HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU:
    *(uint32_t *)value = (uint32_t)(n->props.simd_per_cu * n->props.max_waves_per_simd);
    return 1;
  case HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU:
    *(uint32_t *)value = (uint32_t)n->props.simd_per_cu;
    return 1;
  case HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES:
    /* The driver reports all arrays; engines = arrays / arrays per engine (GPUs only). */
    *(uint32_t *)value = (a->kind == CORE_AGENT_GPU && n->props.simd_arrays_per_engine)
                             ? (uint32_t)(n->props.array_count / n->props.simd_arrays_per_engine)
                             : 0;
    return 1;
  case HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE:
    *(uint32_t *)value = (uint32_t)n->props.simd_arrays_per_engine;
    return 1;
  case HSA_AMD_AGENT_INFO_DOMAIN:
    *(uint32_t *)value = (uint32_t)n->props.domain;
    return 1;
  case HSA_AMD_AGENT_INFO_UUID:
    memcpy(value, a->uuid, strlen(a->uuid) + 1);
    return 1;
  case HSA_AMD_AGENT_INFO_ASIC_REVISION:
    *(uint32_t *)value = asic_revision(n);
    return 1;
  default:
    return 0;
  }
}

static hsa_status_t cpu_info(const struct core_agent *a, uint32_t attr, void *value) {
  const struct kfd_node *n = a->node;
  switch (attr) {
  case HSA_AGENT_INFO_NAME:
  case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
    put_name(value, a->name);
    break;
  case HSA_AGENT_INFO_VENDOR_NAME:
    put_name(value, "CPU");
    break;
  case HSA_AGENT_INFO_FEATURE:
    *(hsa_agent_feature_t *)value = (hsa_agent_feature_t)0;
    break;
  case HSA_AGENT_INFO_FAST_F16_OPERATION:
    *(bool *)value = false;
    break;
  case HSA_AGENT_INFO_WAVEFRONT_SIZE:
  case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
  case HSA_AGENT_INFO_GRID_MAX_SIZE:
  case HSA_AGENT_INFO_FBARRIER_MAX_SIZE:
  case HSA_AGENT_INFO_QUEUES_MAX:
  case HSA_AGENT_INFO_QUEUE_MIN_SIZE:
  case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
  case HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS:
  case HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES:
  case HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES:
  case HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS:
    *(uint32_t *)value = 0;
    break;
  case HSA_AGENT_INFO_WORKGROUP_MAX_DIM:
    memset(value, 0, 3 * sizeof(uint16_t));
    break;
  case HSA_AGENT_INFO_GRID_MAX_DIM:
    memset(value, 0, sizeof(hsa_dim3_t));
    break;
  case HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS:
    memset(value, 0, 2 * sizeof(uint32_t));
    break;
  case HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS:
    memset(value, 0, 3 * sizeof(uint32_t));
    break;
  case HSA_AGENT_INFO_DEVICE:
    *(hsa_device_type_t *)value = HSA_DEVICE_TYPE_CPU;
    break;
  case HSA_AGENT_INFO_CACHE_SIZE:
    cache_sizes(a, value, true);
    break;
  case HSA_AGENT_INFO_ISA:
    ((hsa_isa_t *)value)->handle = 0;
    break;
  case HSA_AGENT_INFO_EXTENSIONS:
    memset(value, 0, 128);
    break;
  case HSA_AMD_AGENT_INFO_CACHELINE_SIZE:
    *(uint32_t *)value = 64;
    break;
  case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:
    *(uint32_t *)value = (uint32_t)n->props.cpu_cores_count;
    break;
  case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY:
    *(uint32_t *)value = (uint32_t)n->props.max_engine_clk_ccompute;
    break;
  case HSA_AMD_AGENT_INFO_HDP_FLUSH:
    memset(value, 0, sizeof(hsa_amd_hdp_flush_t));
    break;
  default:
    return common_info(a, attr, value) ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

/* HSA_MAX_QUEUES caps the queues per GPU; ROCR's 64-bit Linux default and maximum is 128. */
static uint32_t max_queues(void) {
  const char *v = getenv("HSA_MAX_QUEUES");
  unsigned long q = v ? strtoul(v, NULL, 0) : 0;
  return (q == 0 || q > 128) ? 128 : (uint32_t)q;
}

static bool aqlprofile_present(void) {
  void *lib = dlopen("libhsa-amd-aqlprofile64.so", RTLD_LAZY | RTLD_LOCAL);
  if (!lib) return false;
  dlclose(lib);
  return true;
}

bool core_agent_has_images(const struct core_agent *a) {
  /* gfx94x has no image hardware; src/image writes gfx9's, gfx1100's and gfx12's descriptors. */
  if (!a || a->kind != CORE_AGENT_GPU || !a->isa) return false;
  return (a->isa->major == 9 && a->isa->minor != 4) || (a->isa->major == 11 && a->isa->minor == 0) ||
         (a->isa->major == 12 && a->isa->minor == 0);
}

/* The image size limits (ROCR's on gfx9: 14-bit sizes and 13-bit depth/layers in the
 * descriptor; 1DB images are buffers with a 32-bit record count); zeros without images. */
static void image_limits(bool images, uint32_t attr, void *value) {
  uint32_t *v = value;
  uint32_t dim = images ? 16384 : 0, layers = images ? 8192 : 0;
  switch (attr) {
  case HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS:
    v[0] = dim;
    break;
  case HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS:
    v[0] = images ? UINT32_MAX : 0;
    break;
  case HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS:
    v[0] = v[1] = dim;
    v[2] = layers;
    break;
  case HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS:
    v[0] = layers;
    break;
  default: /* the 2D kinds */
    v[0] = v[1] = dim;
    break;
  }
}

static hsa_status_t gpu_info(const struct core_agent *a, uint32_t attr, void *value) {
  const struct kfd_node *n = a->node;
  const struct core_isa *isa = a->isa;
  bool images = core_agent_has_images(a);
  switch (attr) {
  case HSA_AGENT_INFO_NAME:
    put_name(value, a->name);
    break;
  case HSA_AGENT_INFO_VENDOR_NAME:
    put_name(value, "AMD");
    break;
  case HSA_AGENT_INFO_FEATURE:
    *(hsa_agent_feature_t *)value = HSA_AGENT_FEATURE_KERNEL_DISPATCH;
    break;
  case HSA_AGENT_INFO_FAST_F16_OPERATION:
    *(bool *)value = isa->major >= 8;
    break;
  case HSA_AGENT_INFO_WAVEFRONT_SIZE:
    *(uint32_t *)value = (uint32_t)n->props.wave_front_size;
    break;
  case HSA_AGENT_INFO_WORKGROUP_MAX_DIM: {
    const uint16_t dim[3] = {1024, 1024, 1024};
    memcpy(value, dim, sizeof(dim));
    break;
  }
  case HSA_AGENT_INFO_WORKGROUP_MAX_SIZE:
    *(uint32_t *)value = 1024;
    break;
  case HSA_AGENT_INFO_GRID_MAX_DIM: {
    const hsa_dim3_t dim = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    memcpy(value, &dim, sizeof(dim));
    break;
  }
  case HSA_AGENT_INFO_GRID_MAX_SIZE:
    *(uint32_t *)value = UINT32_MAX;
    break;
  case HSA_AGENT_INFO_FBARRIER_MAX_SIZE:
    *(uint32_t *)value = 32;
    break;
  case HSA_AGENT_INFO_QUEUES_MAX:
    *(uint32_t *)value = max_queues();
    break;
  case HSA_AGENT_INFO_QUEUE_MIN_SIZE:
    *(uint32_t *)value = 0x40;      /* 64 packets = 4 KiB */
    break;
  case HSA_AGENT_INFO_QUEUE_MAX_SIZE:
    *(uint32_t *)value = 0x20000;   /* 128 Ki packets = 8 MiB */
    break;
  case HSA_AGENT_INFO_DEVICE:
    *(hsa_device_type_t *)value = HSA_DEVICE_TYPE_GPU;
    break;
  case HSA_AGENT_INFO_CACHE_SIZE:
    cache_sizes(a, value, false);
    break;
  case HSA_AGENT_INFO_ISA:
    *(hsa_isa_t *)value = core_isa_handle(isa);
    break;
  case HSA_AGENT_INFO_EXTENSIONS: {
    uint8_t *bits = value;
    memset(bits, 0, 128);
    if (images && core_extension_images_available()) bits[HSA_EXTENSION_IMAGES / 8] |= 1u << (HSA_EXTENSION_IMAGES % 8);
    if (aqlprofile_present())
      bits[HSA_EXTENSION_AMD_AQLPROFILE / 8] |= 1u << (HSA_EXTENSION_AMD_AQLPROFILE % 8);
    bits[HSA_EXTENSION_AMD_PROFILER / 8] |= 1u << (HSA_EXTENSION_AMD_PROFILER % 8);
    break;
  }
  case HSA_EXT_AGENT_INFO_IMAGE_1D_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_1DA_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_1DB_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_2D_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_2DA_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_2DDEPTH_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_2DADEPTH_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_3D_MAX_ELEMENTS:
  case HSA_EXT_AGENT_INFO_IMAGE_ARRAY_MAX_LAYERS:
    image_limits(images, attr, value);
    break;
  case HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES:
    *(uint32_t *)value = images ? 128 : 0;
    break;
  case HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES:
    *(uint32_t *)value = images ? 64 : 0;
    break;
  case HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS:
    *(uint32_t *)value = images ? 16 : 0;
    break;
  case HSA_AMD_AGENT_INFO_CACHELINE_SIZE: {
    uint32_t line = 64; /* when the driver reports no L2 line size */
    core_agent_load_caches(a);
    for (unsigned i = 0; i < n->cache_count; i++)
      if (n->caches[i].level == 2 && n->caches[i].cache_line_size) {
        line = (uint32_t)n->caches[i].cache_line_size;
        break;
      }
    *(uint32_t *)value = line;
    break;
  }
  case HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT:
  case HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT:
    *(uint32_t *)value =
        n->props.simd_per_cu ? (uint32_t)(n->props.simd_count / n->props.simd_per_cu) : 0;
    break;
  case HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY:
    *(uint32_t *)value = (uint32_t)n->props.max_engine_clk_fcompute;
    break;
  case HSA_AMD_AGENT_INFO_MEMORY_WIDTH:
    *(uint32_t *)value = a->memory_bus_width;
    break;
  case HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY:
    *(uint32_t *)value = a->memory_max_clock_mhz;
    break;
  case HSA_AMD_AGENT_INFO_PRODUCT_NAME:
    put_name(value, core_agent_product_name(a));
    break;
  case HSA_AMD_AGENT_INFO_HDP_FLUSH: {
    /* The HDP flush registers: the first two dwords of the GPU's MMIO remap page, mapped on
     * first use (NULL when the driver has none). */
    volatile uint32_t *m = core_mmio_page(a);
    hsa_amd_hdp_flush_t *h = value;
    h->HDP_MEM_FLUSH_CNTL = m ? (uint32_t *)(uintptr_t)(m + CORE_HDP_MEM_FLUSH_CNTL) : NULL;
    h->HDP_REG_FLUSH_CNTL = m ? (uint32_t *)(uintptr_t)(m + CORE_HDP_REG_FLUSH_CNTL) : NULL;
    break;
  }
  case HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES:
    *(bool *)value = n->props.num_gws != 0;
    break;
  case HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS:
    *(bool *)value = (n->props.capability & KFD_CAP_FLAGS_COHERENTHOSTACCESS) != 0;
    break;
  case HSA_AMD_AGENT_INFO_MEMORY_AVAIL: {
    uint64_t avail = 0;
    struct core_runtime *rt = core_rt();
    if (rt->kfd.fd >= 0 && kfd_available_memory(&rt->kfd, a->gpu_id, &avail) == 0) {
      *(uint64_t *)value = avail;
      break;
    }
    for (unsigned i = 0; i < a->region_count; i++)
      if (a->regions[i].heap != CORE_HEAP_LDS && !a->regions[i].fine_grain) avail = a->regions[i].size;
    for (unsigned i = 0; i < n->mem_bank_count; i++)
      if (n->mem_banks[i].has_used_memory && n->mem_banks[i].used_memory <= avail)
        avail -= n->mem_banks[i].used_memory;
    *(uint64_t *)value = avail;
    break;
  }
  case HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY:
    *(uint64_t *)value = a->timestamp_freq;
    break;
  case HSA_AMD_AGENT_INFO_ASIC_FAMILY_ID:
    *(uint32_t *)value = a->drm.family_id;
    break;
  case HSA_AMD_AGENT_INFO_UCODE_VERSION:
    *(uint32_t *)value = (uint32_t)(n->props.fw_version & 0x3ff);
    break;
  case HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION:
    *(uint32_t *)value = (uint32_t)(n->props.sdma_fw_version & 0x3ff);
    break;
  case HSA_AMD_AGENT_INFO_NUM_SDMA_ENG:
    *(uint32_t *)value = (uint32_t)n->props.num_sdma_engines;
    break;
  case HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG:
    *(uint32_t *)value = (uint32_t)n->props.num_sdma_xgmi_engines;
    break;
  case HSA_AMD_AGENT_INFO_IOMMU_SUPPORT:
    *(hsa_amd_iommu_version_t *)value = (n->props.capability & KFD_CAP_ATS_PRESENT)
                                            ? HSA_IOMMU_SUPPORT_V2
                                            : HSA_IOMMU_SUPPORT_NONE;
    break;
  case HSA_AMD_AGENT_INFO_NUM_XCC:
    *(uint32_t *)value = n->props.num_xcc ? (uint32_t)n->props.num_xcc : 1;
    break;
  case HSA_AMD_AGENT_INFO_DRIVER_UID:
    *(uint32_t *)value = a->gpu_id;
    break;
  case HSA_AMD_AGENT_INFO_NEAREST_CPU:
    *(hsa_agent_t *)value = core_agent_handle(a->nearest_cpu);
    break;
  case HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES:
    memset(value, 0, 8);
    if (a->drm.integrated) ((uint8_t *)value)[0] |= HSA_AMD_MEMORY_PROPERTY_AGENT_IS_APU;
    break;
  case HSA_AMD_AGENT_INFO_AQL_EXTENSIONS:
    memset(value, 0, 8);
    break;
  case HSA_AMD_AGENT_INFO_CLOCK_COUNTERS: {   /* the driver's GET_CLOCK_COUNTERS, as ROCR */
    struct core_runtime *rt = core_rt();
    struct kfd_clock_counters c;
    if (rt->kfd.fd < 0 || kfd_get_clock_counters(&rt->kfd, a->gpu_id, &c) != 0)
      return HSA_STATUS_ERROR;
    hsa_amd_clock_counters_t out = {c.gpu_clock_counter, c.cpu_clock_counter,
                                    c.system_clock_counter, c.system_clock_freq};
    memcpy(value, &out, sizeof out);
    break;
  }
  case HSA_AMD_AGENT_INFO_PM4_EMULATION:          /* a real CP runs PM4 */
  case HSA_AMD_AGENT_INFO_HAS_EXPERT_SCHED_MODE:  /* needs KFD 1.20, not used here */
    *(bool *)value = false;
    break;
  default:
    return common_info(a, attr, value) ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute, void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  return a->kind == CORE_AGENT_GPU ? gpu_info(a, (uint32_t)attribute, value)
                                   : cpu_info(a, (uint32_t)attribute, value);
}

hsa_status_t hsa_agent_get_exception_policies(hsa_agent_t agent, hsa_profile_t profile,
                                              uint16_t *mask) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!mask) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (profile != HSA_PROFILE_BASE && profile != HSA_PROFILE_FULL)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!core_agent_from_handle(agent)) return HSA_STATUS_ERROR_INVALID_AGENT;
  *mask = 0;
  return HSA_STATUS_SUCCESS;
}
