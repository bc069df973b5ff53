/* SPDX-License-Identifier: MIT */
/* agent.c — turning the KFD topology into agents: a CPU agent per node with CPU cores, a GPU
 * agent per usable GPU node (ROCR_VISIBLE_DEVICES order, HSA_OVERRIDE_GFX_VERSION applied),
 * with their regions and caches. Also agent handles and hsa_iterate_agents. */
#include "core/agent.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/quarantine.h"
#include "core/runtime.h"

#define PAGE 4096u

hsa_agent_t core_agent_handle(const struct core_agent *agent) {
  hsa_agent_t h = {(uint64_t)(uintptr_t)agent};
  return h;
}

/* Handles are checked against the live agent list, never dereferenced blindly. */
const struct core_agent *core_agent_from_handle(hsa_agent_t handle) {
  struct core_runtime *rt = core_rt();
  if (!rt || handle.handle == 0) return NULL;
  for (unsigned i = 0; i < rt->agent_count; i++)
    if ((uint64_t)(uintptr_t)rt->agents[i] == handle.handle) return rt->agents[i];
  return NULL;
}

const struct core_region *core_region_from_handle(uint64_t handle) {
  struct core_runtime *rt = core_rt();
  if (!rt || handle == 0) return NULL;
  /* a region handle is the address of a region inside its agent's array: one range test
   * per agent, not a compare per region (every pool allocation starts here) */
  for (unsigned i = 0; i < rt->agent_count; i++) {
    const struct core_agent *a = rt->agents[i];
    uint64_t off = handle - (uint64_t)(uintptr_t)a->regions;
    if (off < (uint64_t)a->region_count * sizeof(a->regions[0]) &&
        off % sizeof(a->regions[0]) == 0)
      return &a->regions[off / sizeof(a->regions[0])];
  }
  return NULL;
}

const struct core_cache *core_cache_from_handle(uint64_t handle) {
  struct core_runtime *rt = core_rt();
  if (!rt || handle == 0) return NULL;
  for (unsigned i = 0; i < rt->agent_count; i++)
    for (unsigned c = 0; c < rt->agents[i]->cache_count; c++)
      if ((uint64_t)(uintptr_t)&rt->agents[i]->caches[c] == handle)
        return &rt->agents[i]->caches[c];
  return NULL;
}

const struct core_agent *core_first_gpu(void) {
  struct core_runtime *rt = core_rt();
  return rt && rt->gpu_count ? rt->agents[rt->cpu_count] : NULL;
}

const struct core_agent *core_gpu(unsigned index) {
  struct core_runtime *rt = core_rt();
  for (unsigned i = rt->cpu_count; i < rt->agent_count; i++)
    if (rt->agents[i]->gpu_index == index) return rt->agents[i];
  return NULL;
}

bool core_gpu_usable(const struct core_agent *a) {
  return a->kind == CORE_AGENT_GPU && a->drm.fd >= 0 && a->gpu_index < CORE_MAX_GPUS;
}

uint64_t core_usable_gpus(void) {
  struct core_runtime *rt = core_rt();
  if (rt->no_device || rt->kfd.fd < 0) return 0;
  uint64_t m = 0;
  for (unsigned i = rt->cpu_count; i < rt->agent_count; i++)
    if (core_gpu_usable(rt->agents[i])) m |= 1ull << rt->agents[i]->gpu_index;
  return m;
}

/* "model name" of /proc/cpuinfo: what ROCR shows as a CPU agent's name. */
static void cpu_model_name(char *buf, size_t size) {
  buf[0] = '\0';
  FILE *f = fopen("/proc/cpuinfo", "re");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof(line), f)) {
    if (strncmp(line, "model name", 10) != 0) continue;
    char *colon = strchr(line, ':');
    if (!colon) continue;
    char *v = colon + 1;
    while (*v == ' ' || *v == '\t') v++;
    v[strcspn(v, "\n")] = '\0';
    snprintf(buf, size, "%s", v);
    break;
  }
  fclose(f);
}

static const struct kfd_mem_bank *first_bank(const struct kfd_node *node, bool vram) {
  for (unsigned i = 0; i < node->mem_bank_count; i++) {
    const struct kfd_mem_bank *b = &node->mem_banks[i];
    if (b->size_in_bytes == 0) continue;
    bool is_vram = b->heap_type == KFD_HEAP_FB_PUBLIC || b->heap_type == KFD_HEAP_FB_PRIVATE;
    if (vram ? is_vram : b->heap_type == KFD_HEAP_SYSTEM) return b;
  }
  return NULL;
}

/* bank: the memory bank behind the region (width and clock), NULL for LDS. */
static void add_region(struct core_agent *a, enum core_heap heap, bool fine, bool kernarg,
                       uint64_t size, uint64_t base, const struct kfd_mem_bank *bank) {
  if (a->region_count == CORE_MAX_REGIONS) return;
  struct core_region *r = &a->regions[a->region_count++];
  r->magic = CORE_REGION_MAGIC;
  r->owner = a;
  r->heap = heap;
  r->fine_grain = fine;
  r->kernarg = kernarg;
  r->size = size;
  r->base = base;
  r->bus_width = bank ? (uint32_t)bank->width : 0;
  r->max_clock_mhz = bank ? (uint32_t)bank->mem_clk_max : 0;
  r->max_alloc = size & ~(uint64_t)(PAGE - 1);
}

/* The extended-scope fine-grained pool of the newest ROCR: memory whose device-scope atomics
 * are promoted to system scope, allocated with the KFD flag EXT_COHERENT. ROCR offers it on
 * every GPU's local memory (gfx12.0 excepted) and on the CPU agents; here it is offered for
 * gfx942 (9.4.x) only, so the older chips keep matching ROCR 5.2.3, their peer, and only
 * where the kernel knows the flag (KFD 1.15 on): an older kernel ignores the bit and would
 * hand out ordinary fine-grained memory under the pool's name. */
static bool ext_scope_fine(const struct core_runtime *rt, const struct core_isa *isa) {
  return rt->kfd.fd >= 0 && rt->kfd.minor >= 15 && isa && isa->major == 9 && isa->minor == 4;
}

/* A copy of region `from` of agent a as its extended-scope fine-grained twin, inserted at
 * position `at` (only while the runtime is built: no handle exists yet). */
static void add_ext_region(struct core_agent *a, unsigned from, unsigned at) {
  if (a->region_count == CORE_MAX_REGIONS || from >= a->region_count || at > a->region_count)
    return;
  struct core_region r = a->regions[from];
  r.fine_grain = false;
  r.kernarg = false;
  r.ext_fine = true;
  memmove(&a->regions[at + 1], &a->regions[at], (a->region_count - at) * sizeof(r));
  a->regions[at] = r;
  a->region_count++;
}

static struct core_agent *new_cpu(struct core_runtime *rt, const struct kfd_node *node,
                                  uint32_t node_id) {
  struct core_agent *a = calloc(1, sizeof(*a));
  if (!a) return NULL;
  a->kind = CORE_AGENT_CPU;
  a->node = node;
  a->node_id = node_id;
  a->drm.fd = -1;
  a->profile = HSA_PROFILE_FULL;
  cpu_model_name(a->name, sizeof(a->name));
  memcpy(a->product_name, a->name, sizeof(a->name));
  atomic_store_explicit(&a->product_name_loaded, true, memory_order_relaxed);
  snprintf(a->uuid, sizeof(a->uuid), "CPU-XX");
  const struct kfd_mem_bank *sys = first_bank(node, false);
  uint64_t size = sys ? sys->size_in_bytes : 0;
  bool apu = node->props.simd_count > 0;
  /* System memory appears three times, as ROCR shows it: fine-grained, kernarg, and (on
   * dGPU systems) coarse-grained. */
  add_region(a, CORE_HEAP_SYSTEM, true, false, size, 0, sys);
  add_region(a, CORE_HEAP_SYSTEM, true, true, size, 0, sys);
  if (!apu) add_region(a, CORE_HEAP_SYSTEM, false, false, size, 0, sys);
  rt->max_sysmem_alloc += size & ~(uint64_t)(PAGE - 1);
  return a;   /* caches: core_agent_load_caches */
}

static void gpu_caches(struct core_agent *a) {
  const struct kfd_node *node = a->node;
  a->caches = node->cache_count ? calloc(node->cache_count, sizeof(*a->caches)) : NULL;
  if (!a->caches) return;
  /* Only the data caches of the GPU's compute units count, as in ROCR. */
  for (unsigned i = 0; i < node->cache_count; i++) {
    const struct kfd_cache *c = &node->caches[i];
    if (!(c->type & KFD_CACHE_TYPE_HSACU) || (c->type & KFD_CACHE_TYPE_INSTRUCTION)) continue;
    if (c->level == 0 || c->level > 4) continue;
    struct core_cache *cc = &a->caches[a->cache_count++];
    cc->magic = CORE_CACHE_MAGIC;
    cc->level = (uint8_t)c->level;
    cc->size = (uint32_t)(c->size * 1024);
    snprintf(cc->name, sizeof(cc->name), "%s L%u", a->name, (unsigned)c->level);
  }
}

void core_agent_load_caches(const struct core_agent *agent) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  if (atomic_load_explicit(&agent->caches_loaded, memory_order_acquire)) return;
  struct core_agent *a = (struct core_agent *)agent;   /* a runtime-owned heap object */
  pthread_mutex_lock(&lock);
  if (!atomic_load_explicit(&a->caches_loaded, memory_order_relaxed)) {
    struct kfd_node *node = (struct kfd_node *)a->node;   /* rt->topo's, likewise */
    if (kfd_node_read_caches(node) != 0)
      fprintf(stderr, "hsa-runtime64: cannot read the caches of KFD node %u.\n",
              node->sysfs_index);
    if (a->kind == CORE_AGENT_GPU) gpu_caches(a);
    else a->cache_count = core_cpu_caches(node, node->sysfs_index, &a->caches, a->name);
    atomic_store_explicit(&a->caches_loaded, true, memory_order_release);
  }
  pthread_mutex_unlock(&lock);
}

const char *core_agent_product_name(const struct core_agent *agent) {
  static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  if (atomic_load_explicit(&agent->product_name_loaded, memory_order_acquire)) return agent->product_name;
  struct core_agent *a = (struct core_agent *)agent;   /* a runtime-owned heap object */
  pthread_mutex_lock(&lock);
  if (!atomic_load_explicit(&a->product_name_loaded, memory_order_relaxed)) {
    kfd_drm_marketing_name(&a->drm, a->product_name, sizeof(a->product_name));
    atomic_store_explicit(&a->product_name_loaded, true, memory_order_release);
  }
  pthread_mutex_unlock(&lock);
  return a->product_name;
}

/* The processor version of a GPU node: gfx_target_version unless overridden by the user. */
static bool gpu_version(const struct kfd_node *node, uint32_t node_id, uint32_t *major,
                        uint32_t *minor, uint32_t *stepping) {
  uint64_t v = node->props.gfx_target_version;
  *major = (uint32_t)(v / 10000);
  *minor = (uint32_t)(v / 100 % 100);
  *stepping = (uint32_t)(v % 100);
  int o = core_env_gfx_override(node_id, major, minor, stepping);
  if (o < 0) {
    fprintf(stderr, "hsa-runtime64: HSA_OVERRIDE_GFX_VERSION must be major.minor.stepping, "
                    "e.g. 10.3.0; ignored.\n");
    *major = (uint32_t)(v / 10000);
    *minor = (uint32_t)(v / 100 % 100);
    *stepping = (uint32_t)(v % 100);
  }
  return *major != 0;
}

static struct core_agent *new_gpu(struct core_runtime *rt, const struct kfd_node *node,
                                  uint32_t node_id, struct kfd_drm *drm) {
  uint32_t major, minor, stepping;
  if (!gpu_version(node, node_id, &major, &minor, &stepping)) {
    /* Kernels before 5.x do not report gfx_target_version; ROCR's thunk falls back to a
     * device-id table, which this runtime does not carry. */
    fprintf(stderr, "hsa-runtime64: GPU node %u has no gfx_target_version (kernel too old?); "
                    "skipped. Set HSA_OVERRIDE_GFX_VERSION=major.minor.stepping to use it.\n",
            node_id);
    return NULL;
  }
  enum core_feature sramecc = CORE_FEATURE_UNSUPPORTED, xnack = CORE_FEATURE_UNSUPPORTED;
  if (core_isa_supports_sramecc(major, minor, stepping))
    sramecc = (node->props.capability & KFD_CAP_SRAM_EDCSUPPORTED) ? CORE_FEATURE_ON
                                                                   : CORE_FEATURE_OFF;
  if (core_isa_supports_xnack(major, minor, stepping))
    xnack = rt->xnack ? CORE_FEATURE_ON : CORE_FEATURE_OFF;
  const struct core_isa *isa = core_isa_find(major, minor, stepping, sramecc, xnack);
  if (!isa) {
    char p[16];
    core_isa_processor_name(major, minor, stepping, p, sizeof(p));
    fprintf(stderr, "hsa-runtime64: GPU node %u is a %s, which this runtime does not know; "
                    "skipped (HSA_OVERRIDE_GFX_VERSION can name a compatible one).\n", node_id, p);
    return NULL;
  }
  struct core_agent *a = calloc(1, sizeof(*a));
  if (!a) return NULL;
  a->kind = CORE_AGENT_GPU;
  a->node = node;
  a->node_id = node_id;
  a->gpu_id = node->gpu_id;
  a->isa = isa;
  a->drm = *drm;
  drm->fd = -1;
  a->profile = node->props.cpu_cores_count > 0 ? HSA_PROFILE_FULL : HSA_PROFILE_BASE;
  snprintf(a->name, sizeof(a->name), "%s", isa->processor);
  /* product_name: core_agent_product_name, on first request */
  if (node->props.unique_id)
    snprintf(a->uuid, sizeof(a->uuid), "GPU-%016" PRIx64, node->props.unique_id);
  else
    snprintf(a->uuid, sizeof(a->uuid), "GPU-XX");
  a->timestamp_freq = a->drm.gpu_counter_freq_khz * 1000u;

  const struct kfd_mem_bank *vram = first_bank(node, true);
  if (vram) {
    a->memory_bus_width = (uint32_t)vram->width;
    a->memory_max_clock_mhz = (uint32_t)vram->mem_clk_max;
  } else if (a->profile == HSA_PROFILE_FULL && first_bank(node, false)) {
    a->memory_bus_width = (uint32_t)first_bank(node, false)->width;
    a->memory_max_clock_mhz = (uint32_t)first_bank(node, false)->mem_clk_max;
  }
  if (vram) {
    enum core_heap heap = vram->heap_type == KFD_HEAP_FB_PRIVATE ? CORE_HEAP_FB_PRIVATE
                                                                  : CORE_HEAP_FB_PUBLIC;
    add_region(a, heap, false, false, vram->size_in_bytes, 0, vram);
    /* then its extended-scope twin (an APU's "VRAM" is its share of system memory) */
    if (ext_scope_fine(rt, isa)) add_ext_region(a, a->region_count - 1, a->region_count);
    /* Fine-grained VRAM is offered where peers reach it coherently: XGMI hives. */
    if (node->props.hive_id != 0) add_region(a, heap, true, false, vram->size_in_bytes, 0, vram);
  }
  add_region(a, CORE_HEAP_LDS, false, false, node->props.lds_size_in_kb * 1024, 0, NULL);
  return a;   /* caches: core_agent_load_caches */
}

/* Opens a GPU node's render node. 1 usable, 0 not usable (skipped, like libhsakmt does for
 * nodes whose render node is missing or forbidden), <0 error. */
static int open_gpu_device(struct core_runtime *rt, const struct kfd_node *node,
                           struct kfd_drm *drm) {
  memset(drm, 0, sizeof(*drm));
  drm->fd = -1;
  if (rt->no_device) return 1;
  if (node->gpu_id_denied) return 0;
  int rc = kfd_drm_open(rt->dri_dir, (unsigned)node->props.drm_render_minor, drm);
  if (rc == 0) return 1;
  if (rc == -EACCES || rc == -EPERM)
    fprintf(stderr, "hsa-runtime64: permission denied opening %s/renderD%u: add the user to the "
                    "'render' group (and 'video' on older distributions); this GPU is skipped.\n",
            rt->dri_dir, (unsigned)node->props.drm_render_minor);
  else
    fprintf(stderr, "hsa-runtime64: cannot open %s/renderD%u (%s); this GPU is skipped.\n",
            rt->dri_dir, (unsigned)node->props.drm_render_minor, strerror(-rc));
  return 0;
}

static void bind_xnack(struct core_runtime *rt) {
  rt->xnack = false;
  if (rt->kfd.fd < 0) {
    rt->xnack = core_env_xnack() == 1;
    return;
  }
  int want = core_env_xnack();
  if (want >= 0 && kfd_set_xnack_mode(&rt->kfd, want == 1) == 0) {
    rt->xnack = want == 1;
    return;
  }
  bool on = false;
  if (kfd_get_xnack_mode(&rt->kfd, &on) == 0) rt->xnack = on;
}

/* Binds each GPU's VM to this process and records its apertures (LDS base for the region).
 * A GPU whose VM or apertures the driver refuses could run nothing (every queue and
 * allocation would fail), so hsa_init fails as ROCR's does, and a later one tries again. */
static hsa_status_t attach_vms(struct core_runtime *rt) {
  if (rt->kfd.fd < 0 || rt->gpu_count == 0) return HSA_STATUS_SUCCESS;
  struct kfd_aperture ap[64];
  unsigned n = 0;
  if (kfd_get_apertures(&rt->kfd, ap, 64, &n) != 0) {
    fprintf(stderr, "hsa-runtime64: hsa_init: the driver did not give this process its GPU "
                    "address ranges; no GPU can be used, so hsa_init fails. Retry, or check "
                    "dmesg for the driver's reason.\n");
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  for (unsigned i = rt->cpu_count; i < rt->agent_count; i++) {
    struct core_agent *a = rt->agents[i];
    for (unsigned k = 0; k < n; k++) {
      if (ap[k].gpu_id != a->gpu_id) continue;
      a->aperture = ap[k];
      a->has_aperture = true;
      for (unsigned r = 0; r < a->region_count; r++)
        if (a->regions[r].heap == CORE_HEAP_LDS) a->regions[r].base = ap[k].lds_base;
    }
    if (a->drm.fd >= 0 && kfd_acquire_vm(&rt->kfd, a->gpu_id, a->drm.fd) != 0) {
      fprintf(stderr, "hsa-runtime64: hsa_init: GPU node %u (%s) cannot be given an address "
                      "space in this process, so hsa_init fails; retry, or hide the GPU with "
                      "ROCR_VISIBLE_DEVICES.\n", a->node_id, a->name);
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    }
  }
  return HSA_STATUS_SUCCESS;
}

static const struct core_agent *nearest_cpu(struct core_runtime *rt, const struct kfd_node *n) {
  for (unsigned l = 0; l < n->link_count; l++) {
    uint64_t to = n->links[l].node_to;
    if (to >= rt->node_of_sysfs_count || rt->node_of_sysfs[to] < 0) continue;
    for (unsigned c = 0; c < rt->cpu_count; c++)
      if (rt->agents[c]->node_id == (uint32_t)rt->node_of_sysfs[to]) return rt->agents[c];
  }
  return rt->cpu_count ? rt->agents[0] : NULL;
}

hsa_status_t core_agents_build(struct core_runtime *rt) {
  unsigned n = rt->topo.node_count;
  struct kfd_drm *drms = calloc(n ? n : 1, sizeof(*drms));
  bool *usable = calloc(n ? n : 1, sizeof(*usable));
  rt->agents = calloc(2 * (size_t)(n ? n : 1), sizeof(*rt->agents));
  rt->node_of_sysfs_count = 0;
  for (unsigned i = 0; i < n; i++)
    if (rt->topo.nodes[i].sysfs_index + 1 > rt->node_of_sysfs_count)
      rt->node_of_sysfs_count = rt->topo.nodes[i].sysfs_index + 1;
  rt->node_of_sysfs = calloc(rt->node_of_sysfs_count ? rt->node_of_sysfs_count : 1, sizeof(int));
  if (!drms || !usable || !rt->agents || !rt->node_of_sysfs) {
    free(drms);
    free(usable);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  for (unsigned i = 0; i < rt->node_of_sysfs_count; i++) rt->node_of_sysfs[i] = -1;

  /* HSA node ids count only the nodes this process can use. */
  uint32_t next_id = 0;
  unsigned gpu_nodes = 0;
  for (unsigned i = 0; i < n; i++) {
    const struct kfd_node *node = &rt->topo.nodes[i];
    drms[i].fd = -1;
    bool gpu = node->props.simd_count > 0 && (!node->has_gpu_id || node->gpu_id != 0 ||
                                              rt->no_device);
    usable[i] = gpu ? open_gpu_device(rt, node, &drms[i]) == 1 : !node->gpu_id_denied;
    if (!usable[i]) continue;
    rt->node_of_sysfs[node->sysfs_index] = (int)next_id++;
    if (node->props.simd_count > 0) gpu_nodes++;
  }
  bind_xnack(rt);

  for (unsigned i = 0; i < n; i++) {
    const struct kfd_node *node = &rt->topo.nodes[i];
    if (!usable[i] || node->props.cpu_cores_count == 0) continue;
    struct core_agent *a = new_cpu(rt, node, (uint32_t)rt->node_of_sysfs[node->sysfs_index]);
    if (!a) goto oom;
    rt->agents[rt->agent_count++] = a;
    rt->cpu_count++;
  }

  /* GPUs in enumeration order, then reordered and filtered by ROCR_VISIBLE_DEVICES. */
  unsigned *gpu_node = calloc(gpu_nodes ? gpu_nodes : 1, sizeof(unsigned));
  uint64_t *uuids = calloc(gpu_nodes ? gpu_nodes : 1, sizeof(uint64_t));
  int *rank = calloc(gpu_nodes ? gpu_nodes : 1, sizeof(int));
  if (!gpu_node || !uuids || !rank) {
    free(gpu_node);
    free(uuids);
    free(rank);
    goto oom;
  }
  unsigned g = 0;
  for (unsigned i = 0; i < n; i++)
    if (usable[i] && rt->topo.nodes[i].props.simd_count > 0) {
      gpu_node[g] = i;
      uuids[g++] = rt->topo.nodes[i].props.unique_id;
    }
  unsigned visible = core_env_visible_gpus(getenv("ROCR_VISIBLE_DEVICES"), gpu_nodes, uuids, rank);
  for (unsigned r = 0; r < visible; r++) {
    for (unsigned k = 0; k < gpu_nodes; k++) {
      if (rank[k] != (int)r) continue;
      unsigned i = gpu_node[k];
      const struct kfd_node *node = &rt->topo.nodes[i];
      struct core_agent *a =
          new_gpu(rt, node, (uint32_t)rt->node_of_sysfs[node->sysfs_index], &drms[i]);
      if (!a) continue;
      a->gpu_index = rt->gpu_count++;
      rt->agents[rt->agent_count++] = a;
    }
  }
  free(gpu_node);
  free(uuids);
  free(rank);
  /* The CPU agents' extended-scope pool, after the fine-grained one, where a GPU has its own */
  bool ext = false;
  for (unsigned i = rt->cpu_count; i < rt->agent_count; i++)
    ext |= ext_scope_fine(rt, rt->agents[i]->isa);
  for (unsigned i = 0; ext && i < rt->cpu_count; i++) add_ext_region(rt->agents[i], 0, 1);
  for (unsigned i = rt->cpu_count; i < rt->agent_count; i++)
    rt->agents[i]->nearest_cpu = nearest_cpu(rt, rt->agents[i]->node);
  for (unsigned i = 0; i < n; i++) kfd_drm_close(&drms[i]); /* hidden or skipped GPUs */
  free(drms);
  free(usable);
  return attach_vms(rt);

oom:
  for (unsigned i = 0; i < n; i++) kfd_drm_close(&drms[i]);
  free(drms);
  free(usable);
  return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

void core_agents_free(struct core_runtime *rt) {
  for (unsigned i = 0; i < rt->agent_count; i++) {
    struct core_agent *a = rt->agents[i];
    kfd_drm_close(&a->drm);
    /* kept a while: a handle from before hsa_shut_down must not match the next runtime's */
    core_free_later(a->caches, a->cache_count * sizeof(*a->caches));
    core_free_later(a, sizeof(*a));
  }
  free(rt->agents);
  rt->agents = NULL;
  rt->agent_count = rt->cpu_count = rt->gpu_count = 0;
}

hsa_status_t hsa_iterate_agents(hsa_status_t (*callback)(hsa_agent_t agent, void *data),
                                void *data) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!callback) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct core_runtime *rt = core_rt();
  for (unsigned i = 0; i < rt->agent_count; i++) {
    hsa_status_t st = callback(core_agent_handle(rt->agents[i]), data);
    if (st != HSA_STATUS_SUCCESS) return st;
  }
  return HSA_STATUS_SUCCESS;
}
