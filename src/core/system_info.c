/* SPDX-License-Identifier: MIT */
/* system_info.c — hsa_system_get_info: version, clocks, limits and extension bits. */
#include <string.h>

#include "core/extension.h"
#include "core/runtime.h"
#include "hsa.h"
#include "hsa_ext_amd.h"
#include "kfd/gem.h"

static void set_bit(uint8_t *bits, unsigned bit) { bits[bit / 8] |= (uint8_t)(1u << (bit % 8)); }

hsa_status_t hsa_system_get_info(hsa_system_info_t attribute, void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct core_runtime *rt = core_rt();
  switch ((int)attribute) {
  case HSA_SYSTEM_INFO_VERSION_MAJOR:
    *(uint16_t *)value = 1;
    break;
  case HSA_SYSTEM_INFO_VERSION_MINOR:
    *(uint16_t *)value = 1;
    break;
  case HSA_SYSTEM_INFO_TIMESTAMP: {
    struct kfd_clock_counters c;
    if (rt->kfd.fd < 0 || kfd_get_clock_counters(&rt->kfd, 0, &c) != 0)
      kfd_host_clock_counters(&c);
    *(uint64_t *)value = c.system_clock_counter;
    break;
  }
  case HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY:
    *(uint64_t *)value = rt->sys_clock_freq;
    break;
  case HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT:
    *(uint64_t *)value = UINT64_MAX;
    break;
  case HSA_SYSTEM_INFO_ENDIANNESS:
    *(hsa_endianness_t *)value =
        __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? HSA_ENDIANNESS_LITTLE : HSA_ENDIANNESS_BIG;
    break;
  case HSA_SYSTEM_INFO_MACHINE_MODEL:
    *(hsa_machine_model_t *)value = HSA_MACHINE_MODEL_LARGE;
    break;
  case HSA_SYSTEM_INFO_EXTENSIONS: {
    uint8_t *bits = value;
    memset(bits, 0, 128);
    if (core_extension_images_available()) set_bit(bits, HSA_EXTENSION_IMAGES);
    if (core_extension_aqlprofile_available()) set_bit(bits, HSA_EXTENSION_AMD_AQLPROFILE);
    set_bit(bits, HSA_EXTENSION_AMD_PROFILER);
    break;
  }
  case HSA_AMD_SYSTEM_INFO_BUILD_VERSION:
    *(const char **)value = "hsa-runtime64-c";
    break;
  case HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED: {
    bool all = true;
    for (unsigned i = rt->cpu_count; i < rt->agent_count; i++)
      all &= (rt->agents[i]->node->props.capability & KFD_CAP_SVMAPI_SUPPORTED) != 0;
    *(bool *)value = all;
    break;
  }
  case HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT: {
    bool all = true;
    for (unsigned i = rt->cpu_count; i < rt->agent_count; i++)
      all &= rt->agents[i]->isa->xnack == CORE_FEATURE_ON;
    *(bool *)value = all;
    break;
  }
  case HSA_AMD_SYSTEM_INFO_XNACK_ENABLED:
    *(bool *)value = rt->xnack;
    break;
  case HSA_AMD_SYSTEM_INFO_VIRTUAL_MEM_API_SUPPORTED:   /* hsa_amd_vmem_*: KFD 1.15 on */
    *(bool *)value = kfd_has_vm_gem_va(&rt->kfd);
    break;
  default:
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}
