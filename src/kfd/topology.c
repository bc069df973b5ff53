/* SPDX-License-Identifier: MIT */
/* topology.c — the KFD sysfs topology (nodes, memory banks, caches, links) as plain structs.
 * The root is a parameter so captured topologies and the simulator's tree parse the same way. */
#include "kfd/kfd.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROPS_BUF 8192 /* a properties file is at most a page; leave room */
#define MAX_RETRIES 8  /* generation_id changes only on hotplug; a few tries suffice */

/* name -> offset table, so adding a property the kernel grows is one line. */
#define F(name) {#name, offsetof(struct kfd_node_props, name)}
static const struct { const char *key; size_t off; } node_fields[] = {
  F(cpu_cores_count), F(simd_count), F(mem_banks_count), F(caches_count), F(io_links_count),
  F(p2p_links_count), F(cpu_core_id_base), F(simd_id_base), F(max_waves_per_simd),
  F(lds_size_in_kb), F(gds_size_in_kb), F(num_gws), F(wave_front_size), F(array_count),
  F(simd_arrays_per_engine), F(cu_per_simd_array), F(simd_per_cu), F(max_slots_scratch_cu),
  F(gfx_target_version), F(vendor_id), F(device_id), F(location_id), F(domain),
  F(drm_render_minor), F(hive_id), F(num_sdma_engines), F(num_sdma_xgmi_engines),
  F(num_sdma_queues_per_engine), F(num_cp_queues), F(max_engine_clk_fcompute),
  F(max_engine_clk_ccompute), F(local_mem_size), F(fw_version), F(capability), F(capability2),
  F(debug_prop), F(sdma_fw_version), F(unique_id), F(num_xcc), F(cwsr_size), F(ctl_stack_size),
};
#undef F

const uint64_t *kfd_node_props_field(const struct kfd_node_props *props, const char *key) {
  for (size_t i = 0; i < sizeof(node_fields) / sizeof(node_fields[0]); i++)
    if (strcmp(node_fields[i].key, key) == 0)
      return (const uint64_t *)(const void *)((const char *)props + node_fields[i].off);
  return NULL;
}

static int set_node_field(const char *key, uint64_t value, void *arg) {
  uint64_t *field = (uint64_t *)kfd_node_props_field(arg, key);
  if (field) *field = value;
  return 0;
}

int kfd_node_props_read(const char *path, struct kfd_node_props *props) {
  char *buf = malloc(PROPS_BUF);
  if (!buf) return -ENOMEM;
  memset(props, 0, sizeof(*props));
  long n = kfd_sysfs_read(path, buf, PROPS_BUF);
  if (n >= 0) kfd_sysfs_for_each(buf, set_node_field, props);
  free(buf);
  return n < 0 ? (int)n : 0;
}

/* Generic "key value" files into a struct of uint64_t fields, by a small name table. */
struct field_map { const char *key; size_t off; };

struct fill_ctx { const struct field_map *map; size_t n; void *obj; };

static int fill_field(const char *key, uint64_t value, void *arg) {
  struct fill_ctx *ctx = arg;
  for (size_t i = 0; i < ctx->n; i++)
    if (strcmp(ctx->map[i].key, key) == 0)
      *(uint64_t *)(void *)((char *)ctx->obj + ctx->map[i].off) = value;
  return 0;
}

static int read_fields(const char *path, const struct field_map *map, size_t n, void *obj) {
  char buf[PROPS_BUF / 2];
  long len = kfd_sysfs_read(path, buf, sizeof(buf));
  if (len < 0) return (int)len;
  struct fill_ctx ctx = {map, n, obj};
  kfd_sysfs_for_each(buf, fill_field, &ctx);
  return 0;
}

#define M(type, name) {#name, offsetof(struct type, name)}
static const struct field_map mem_fields[] = {
  M(kfd_mem_bank, heap_type), M(kfd_mem_bank, size_in_bytes), M(kfd_mem_bank, flags),
  M(kfd_mem_bank, width), M(kfd_mem_bank, mem_clk_max),
};
static const struct field_map cache_fields[] = {
  M(kfd_cache, processor_id_low), M(kfd_cache, level), M(kfd_cache, size),
  {"cache_line_size", offsetof(struct kfd_cache, cache_line_size)},
  M(kfd_cache, cache_lines_per_tag), M(kfd_cache, association), M(kfd_cache, latency),
  M(kfd_cache, type),
};
static const struct field_map link_fields[] = {
  M(kfd_link, type), M(kfd_link, version_major), M(kfd_link, version_minor),
  M(kfd_link, node_from), M(kfd_link, node_to), M(kfd_link, weight), M(kfd_link, min_latency),
  M(kfd_link, max_latency), M(kfd_link, min_bandwidth), M(kfd_link, max_bandwidth),
  M(kfd_link, recommended_transfer_size), M(kfd_link, recommended_sdma_engine_id_mask),
  M(kfd_link, flags),
};
#undef M
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int cmp_unsigned(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

/* The numeric entries of a directory, sorted (sysfs lists them in creation order, not
 * numerically; "10" must follow "9"). *out is malloc'd; a missing dir gives 0 entries. */
static int list_indices(const char *dir, unsigned **out, unsigned *count) {
  *out = NULL;
  *count = 0;
  DIR *d = opendir(dir);
  if (!d) return errno == ENOENT ? 0 : -errno;
  unsigned cap = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    char *end = NULL;
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    unsigned long v = strtoul(e->d_name, &end, 10);
    if (*end != '\0' || v > 0xffffu) continue;
    if (*count == cap) {
      cap = cap ? cap * 2 : 8;
      unsigned *grown = realloc(*out, cap * sizeof(unsigned));
      if (!grown) {
        closedir(d);
        free(*out);
        *out = NULL;
        return -ENOMEM;
      }
      *out = grown;
    }
    (*out)[(*count)++] = (unsigned)v;
  }
  closedir(d);
  if (*count) qsort(*out, *count, sizeof(unsigned), cmp_unsigned);
  return 0;
}

static void free_node(struct kfd_node *node) {
  free(node->mem_banks);
  free(node->caches);
  free(node->links);
  free(node->caches_dir);
  node->caches_dir = NULL;
  node->mem_banks = NULL;
  node->caches = NULL;
  node->links = NULL;
}

/* The properties file's *_count says how many entries are valid; ROCR's thunk reads exactly
 * that many, so extra directories (or a short count) are treated the same way here. */
static unsigned at_most(unsigned n, uint64_t count) { return count < n ? (unsigned)count : n; }

static int read_mem_banks(const char *node_dir, struct kfd_node *node) {
  char path[512];
  unsigned *idx, n;
  snprintf(path, sizeof(path), "%s/mem_banks", node_dir);
  int rc = list_indices(path, &idx, &n);
  if (rc) return rc;
  n = at_most(n, node->props.mem_banks_count);
  node->mem_banks = n ? calloc(n, sizeof(*node->mem_banks)) : NULL;
  if (n && !node->mem_banks) rc = -ENOMEM;
  for (unsigned i = 0; rc == 0 && i < n; i++) {
    struct kfd_mem_bank *b = &node->mem_banks[i];
    snprintf(path, sizeof(path), "%s/mem_banks/%u/properties", node_dir, idx[i]);
    rc = read_fields(path, mem_fields, COUNT(mem_fields), b);
    snprintf(path, sizeof(path), "%s/mem_banks/%u/used_memory", node_dir, idx[i]);
    b->has_used_memory = kfd_sysfs_read_u64(path, &b->used_memory) == 0;
    if (rc == 0) node->mem_bank_count++;
  }
  free(idx);
  return rc;
}

static int read_caches(const char *node_dir, struct kfd_node *node) {
  char path[512];
  unsigned *idx, n;
  snprintf(path, sizeof(path), "%s/caches", node_dir);
  int rc = list_indices(path, &idx, &n);
  if (rc) return rc;
  n = at_most(n, node->props.caches_count);
  node->caches = n ? calloc(n, sizeof(*node->caches)) : NULL;
  if (n && !node->caches) rc = -ENOMEM;
  for (unsigned i = 0; rc == 0 && i < n; i++) {
    snprintf(path, sizeof(path), "%s/caches/%u/properties", node_dir, idx[i]);
    rc = read_fields(path, cache_fields, COUNT(cache_fields), &node->caches[i]);
    if (rc == 0) node->cache_count++;
  }
  free(idx);
  return rc;
}

static int read_links(const char *node_dir, const char *sub, bool p2p, struct kfd_node *node) {
  char path[512];
  unsigned *idx, n;
  snprintf(path, sizeof(path), "%s/%s", node_dir, sub);
  int rc = list_indices(path, &idx, &n);
  if (rc == 0) n = at_most(n, p2p ? node->props.p2p_links_count : node->props.io_links_count);
  if (rc || n == 0) {
    free(idx);
    return rc;
  }
  struct kfd_link *grown = realloc(node->links, (node->link_count + n) * sizeof(*grown));
  if (!grown) {
    free(idx);
    return -ENOMEM;
  }
  node->links = grown;
  for (unsigned i = 0; rc == 0 && i < n; i++) {
    struct kfd_link *l = &node->links[node->link_count];
    memset(l, 0, sizeof(*l));
    l->p2p = p2p;
    snprintf(path, sizeof(path), "%s/%s/%u/properties", node_dir, sub, idx[i]);
    rc = read_fields(path, link_fields, COUNT(link_fields), l);
    if (rc == 0) node->link_count++;
  }
  free(idx);
  return rc;
}

int kfd_node_read_caches(struct kfd_node *node) {
  if (!node->caches_dir) return 0;
  int rc = read_caches(node->caches_dir, node);
  free(node->caches_dir);
  node->caches_dir = NULL;
  return rc;
}

static int read_node(const char *root, unsigned index, bool defer, struct kfd_node *node) {
  char dir[384], path[512];
  memset(node, 0, sizeof(*node));
  node->sysfs_index = index;
  snprintf(dir, sizeof(dir), "%s/nodes/%u", root, index);

  uint64_t gpu_id = 0;
  snprintf(path, sizeof(path), "%s/gpu_id", dir);
  int rc = kfd_sysfs_read_u64(path, &gpu_id);
  node->has_gpu_id = rc == 0;
  node->gpu_id_denied = rc == -EPERM || rc == -EACCES;
  node->gpu_id = (uint32_t)gpu_id;

  snprintf(path, sizeof(path), "%s/name", dir);
  if (kfd_sysfs_read_line(path, node->name, sizeof(node->name)) != 0) node->name[0] = '\0';

  snprintf(path, sizeof(path), "%s/properties", dir);
  rc = kfd_node_props_read(path, &node->props);
  if (rc == 0) rc = read_mem_banks(dir, node);
  if (rc == 0 && defer && !(node->caches_dir = strdup(dir))) rc = -ENOMEM;
  if (rc == 0 && !defer) rc = read_caches(dir, node);
  if (rc == 0) rc = read_links(dir, "io_links", false, node);
  if (rc == 0) rc = read_links(dir, "p2p_links", true, node);
  if (rc) free_node(node);
  return rc;
}

static int read_once(const char *root, bool defer, struct kfd_topology *topo) {
  char path[384];
  char buf[1024];
  memset(topo, 0, sizeof(*topo));

  snprintf(path, sizeof(path), "%s/generation_id", root);
  topo->has_generation_id = kfd_sysfs_read_u64(path, &topo->generation_id) == 0;

  snprintf(path, sizeof(path), "%s/system_properties", root);
  if (kfd_sysfs_read(path, buf, sizeof(buf)) >= 0) {
    static const struct field_map sys_fields[] = {
      {"platform_oem", offsetof(struct kfd_topology, platform_oem)},
      {"platform_id", offsetof(struct kfd_topology, platform_id)},
      {"platform_rev", offsetof(struct kfd_topology, platform_rev)},
    };
    struct fill_ctx ctx = {sys_fields, COUNT(sys_fields), topo};
    kfd_sysfs_for_each(buf, fill_field, &ctx);
  }

  unsigned *idx, n;
  snprintf(path, sizeof(path), "%s/nodes", root);
  int rc = list_indices(path, &idx, &n);
  if (rc) return rc;
  if (n == 0) {
    free(idx);
    return -ENOENT;
  }
  topo->nodes = calloc(n, sizeof(*topo->nodes));
  if (!topo->nodes) {
    free(idx);
    return -ENOMEM;
  }
  for (unsigned i = 0; i < n; i++) {
    rc = read_node(root, idx[i], defer, &topo->nodes[i]);
    if (rc) break;
    topo->node_count++;
  }
  free(idx);
  if (rc) kfd_topology_free(topo);
  return rc;
}

static int topology_read(const char *root, bool defer, struct kfd_topology *topo) {
  char path[384];
  snprintf(path, sizeof(path), "%s/generation_id", root);
  for (int attempt = 0; attempt < MAX_RETRIES; attempt++) {
    int rc = read_once(root, defer, topo);
    if (rc) return rc;
    /* A hotplug while we read makes the snapshot inconsistent; the kernel bumps
     * generation_id then, so read again until it holds still. */
    uint64_t gen_after = 0;
    bool has_after = kfd_sysfs_read_u64(path, &gen_after) == 0;
    if (has_after == topo->has_generation_id && gen_after == topo->generation_id) return 0;
    kfd_topology_free(topo);
  }
  return -EAGAIN;
}

int kfd_topology_read(const char *root, struct kfd_topology *topo) {
  return topology_read(root, false, topo);
}

int kfd_topology_read_deferred(const char *root, struct kfd_topology *topo) {
  return topology_read(root, true, topo);
}

void kfd_topology_free(struct kfd_topology *topo) {
  for (unsigned i = 0; i < topo->node_count; i++) free_node(&topo->nodes[i]);
  free(topo->nodes);
  topo->nodes = NULL;
  topo->node_count = 0;
}
