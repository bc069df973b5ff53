/* SPDX-License-Identifier: MIT */
/* cache.c — agent caches: hsa_agent_iterate_caches, hsa_cache_get_info, and the CPU's caches
 * (from the KFD when it lists them, else from the OS, as ROCR's thunk does). */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "kfd/kfd.h"

/* First number of a shared_cpu_list such as "0-3,8-11" or "5". */
static long first_cpu(const char *path) {
  char buf[256];
  if (kfd_sysfs_read_line(path, buf, sizeof(buf)) != 0) return -1;
  return strtol(buf, NULL, 10);
}

static unsigned long parse_size(const char *s) {
  char *end = NULL;
  unsigned long v = strtoul(s, &end, 10);
  if (end && (*end == 'K' || *end == 'k')) v *= 1024;
  else if (end && *end == 'M') v *= 1024 * 1024;
  return v;
}

/* The CPU caches of NUMA node `numa`, listed the way ROCR ends up with them: each cache once
 * (at the first CPU sharing it), and only pure data caches (ROCR drops instruction caches, and
 * unified ones because the thunk marks them instruction too). */
static unsigned os_cpu_caches(unsigned numa, struct core_cache **out, const char *agent_name) {
  char dir[96];
  snprintf(dir, sizeof(dir), "/sys/devices/system/node/node%u", numa);
  DIR *d = opendir(dir);
  if (!d && numa == 0) { /* kernels without NUMA: all CPUs */
    snprintf(dir, sizeof(dir), "/sys/devices/system/cpu");
    d = opendir(dir);
  }
  if (!d) return 0;
  unsigned count = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, "cpu", 3) != 0 || !isdigit((unsigned char)e->d_name[3])) continue;
    long cpu = strtol(e->d_name + 3, NULL, 10);
    for (unsigned idx = 0; idx < 16; idx++) {
      char path[400], type[32], size[32];
      uint64_t level = 0;
      snprintf(path, sizeof(path), "%s/%s/cache/index%u/type", dir, e->d_name, idx);
      if (kfd_sysfs_read_line(path, type, sizeof(type)) != 0) break;
      if (strcmp(type, "Data") != 0) continue;
      snprintf(path, sizeof(path), "%s/%s/cache/index%u/shared_cpu_list", dir, e->d_name, idx);
      if (first_cpu(path) != cpu) continue;
      snprintf(path, sizeof(path), "%s/%s/cache/index%u/level", dir, e->d_name, idx);
      if (kfd_sysfs_read_u64(path, &level) != 0 || level == 0 || level > 4) continue;
      snprintf(path, sizeof(path), "%s/%s/cache/index%u/size", dir, e->d_name, idx);
      if (kfd_sysfs_read_line(path, size, sizeof(size)) != 0) continue;
      if (count == cap) {
        cap = cap ? cap * 2 : 16;
        struct core_cache *grown = realloc(*out, cap * sizeof(**out));
        if (!grown) break;
        *out = grown;
      }
      struct core_cache *c = &(*out)[count++];
      memset(c, 0, sizeof(*c));
      c->magic = CORE_CACHE_MAGIC;
      c->level = (uint8_t)level;
      c->size = (uint32_t)parse_size(size);
      snprintf(c->name, sizeof(c->name), "%s L%u", agent_name, (unsigned)level);
    }
  }
  closedir(d);
  return count;
}

unsigned core_cpu_caches(const struct kfd_node *node, unsigned numa, struct core_cache **out,
                         const char *agent_name) {
  *out = NULL;
  if (node->cache_count == 0) return os_cpu_caches(numa, out, agent_name);
  /* The driver reported the node's caches: keep the CPU data caches, as ROCR does. */
  *out = calloc(node->cache_count, sizeof(**out));
  if (!*out) return 0;
  unsigned count = 0;
  for (unsigned i = 0; i < node->cache_count; i++) {
    const struct kfd_cache *k = &node->caches[i];
    if (!(k->type & KFD_CACHE_TYPE_CPU) || (k->type & KFD_CACHE_TYPE_INSTRUCTION)) continue;
    if (k->level == 0 || k->level > 4) continue;
    struct core_cache *c = &(*out)[count++];
    c->magic = CORE_CACHE_MAGIC;
    c->level = (uint8_t)k->level;
    c->size = (uint32_t)(k->size * 1024);
    snprintf(c->name, sizeof(c->name), "%s L%u", agent_name, (unsigned)k->level);
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
  core_agent_load_caches(a);
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
