/* cache.c — agent caches: hsa_agent_iterate_caches, hsa_cache_get_info, and the CPU's caches
 * read from the OS (recent kernels give the KFD's CPU nodes no caches/ directory). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "kfd/kfd.h"

/* Data and unified caches of cpu0, one per level (cpu0 stands for the node: cores of a node
 * share one design). */
unsigned core_cpu_caches(struct core_cache **out, const char *agent_name) {
  *out = calloc(8, sizeof(**out));
  if (!*out) return 0;
  unsigned count = 0;
  for (unsigned idx = 0; idx < 16 && count < 8; idx++) {
    char path[128], type[32], size[32];
    uint64_t level;
    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%u/type", idx);
    if (kfd_sysfs_read_line(path, type, sizeof(type)) != 0) break;
    if (strcmp(type, "Instruction") == 0) continue;
    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%u/level", idx);
    if (kfd_sysfs_read_u64(path, &level) != 0 || level == 0 || level > 4) continue;
    snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%u/size", idx);
    if (kfd_sysfs_read_line(path, size, sizeof(size)) != 0) continue;
    char *end = NULL;
    unsigned long v = strtoul(size, &end, 10);
    if (end && (*end == 'K' || *end == 'k')) v *= 1024;
    else if (end && *end == 'M') v *= 1024 * 1024;
    struct core_cache *c = &(*out)[count++];
    c->magic = CORE_CACHE_MAGIC;
    c->level = (uint8_t)level;
    c->size = (uint32_t)v;
    snprintf(c->name, sizeof(c->name), "%s L%u", agent_name, (unsigned)level);
  }
  return count;
}

hsa_status_t hsa_agent_iterate_caches(hsa_agent_t agent,
                                      hsa_status_t (*callback)(hsa_cache_t cache, void *data),
                                      void *data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (unsigned i = 0; i < a->cache_count; i++) {
    hsa_cache_t c = {(uint64_t)(uintptr_t)&a->caches[i]};
    hsa_status_t st = callback(c, data);
    if (st != HSA_STATUS_SUCCESS) return st;
  }
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_cache_get_info(hsa_cache_t cache, hsa_cache_info_t attribute, void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_cache *c = core_cache_from_handle(cache.handle);
  if (!c) return HSA_STATUS_ERROR_INVALID_CACHE;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  switch (attribute) {
  case HSA_CACHE_INFO_NAME_LENGTH:
    *(uint32_t *)value = (uint32_t)strlen(c->name);
    break;
  case HSA_CACHE_INFO_NAME:
    /* ROCR writes a pointer to its name here (not the characters the spec describes);
     * binaries built against ROCR read it that way. The string lives until hsa_shut_down. */
    *(const char **)value = c->name;
    break;
  case HSA_CACHE_INFO_LEVEL:
    *(uint8_t *)value = c->level;
    break;
  case HSA_CACHE_INFO_SIZE:
    *(uint32_t *)value = c->size;
    break;
  default:
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return HSA_STATUS_SUCCESS;
}
