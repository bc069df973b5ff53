/* SPDX-License-Identifier: MIT */
/* topology.c — KFD topology text from the catalogue and the host. */
#include "dev/topology.h"

#include <linux/kfd_sysfs.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "dev/catalog.h"
#include "dev/host.h"
#include "sim.h"

/* An output page: appends never overrun, like the kernel's sysfs_emit_at. */
struct page {
  char *buf;
  size_t len, used;
};

__attribute__((format(printf, 2, 3))) static void emit(struct page *p, const char *fmt, ...)
{
  if (p->used + 1 >= p->len)
    return;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(p->buf + p->used, p->len - p->used, fmt, ap);
  va_end(ap);
  if (n > 0)
    p->used += (size_t)n < p->len - p->used ? (size_t)n : p->len - p->used - 1;
}

static void prop(struct page *p, const char *name, uint64_t v)
{
  emit(p, "%s %llu\n", name, (unsigned long long)v);
}

static struct page page_of(char *buf, size_t len)
{
  struct page p = { buf, len, 0 };
  if (len)
    buf[0] = '\0';
  return p;
}

static const struct sim_gpu *node_gpu(unsigned node)
{
  return node ? sim_gpu(node - 1) : NULL;
}

unsigned sim_topo_node_count(void)
{
  return 1 + sim_gpu_count();
}

/* GPU caches: one L1 per compute unit, the L2 (and L3, where the chip has one) shared by
 * all of them. The CPU node lists none: the thunk reads the host's caches itself. */
unsigned sim_topo_cache_count(unsigned node)
{
  const struct sim_gpu *g = node_gpu(node);
  if (!g)
    return 0;
  return g->model->cu_count + 1 + (g->model->l3_kb ? 1 : 0);
}

unsigned sim_topo_io_link_count(unsigned node)
{
  if (node >= sim_topo_node_count())
    return 0;
  return node == 0 ? sim_gpu_count() : 1;
}

unsigned sim_topo_p2p_link_count(unsigned node)
{
  return node_gpu(node) ? sim_gpu_count() - 1 : 0;
}

size_t sim_topo_generation_text(char *buf, size_t len)
{
  struct page p = page_of(buf, len);
  emit(&p, "%u\n", 1u);
  return p.used;
}

size_t sim_topo_system_text(char *buf, size_t len)
{
  struct page p = page_of(buf, len);
  prop(&p, "platform_oem", 0);
  prop(&p, "platform_id", 0);
  prop(&p, "platform_rev", 0);
  return p.used;
}

size_t sim_topo_gpu_id_text(unsigned node, char *buf, size_t len)
{
  const struct sim_gpu *g = node_gpu(node);
  struct page p = page_of(buf, len);
  emit(&p, "%u\n", g ? g->gpu_id : 0u);
  return p.used;
}

size_t sim_topo_name_text(unsigned node, char *buf, size_t len)
{
  const struct sim_gpu *g = node_gpu(node);
  struct page p = page_of(buf, len);
  emit(&p, "%s\n", g ? g->model->asic_name : "");
  return p.used;
}

size_t sim_topo_node_text(unsigned node, char *buf, size_t len)
{
  struct page p = page_of(buf, len);
  if (node >= sim_topo_node_count())
    return 0;
  const struct sim_host *h = sim_host();
  const struct sim_gpu *g = node_gpu(node);
  const struct sim_gpu_model *m = g ? g->model : NULL;
#define G(field) (m ? (uint64_t)m->field : 0)
  prop(&p, "cpu_cores_count", g ? 0 : h->cores);
  prop(&p, "simd_count", G(simd_count));
  prop(&p, "mem_banks_count", 1);
  prop(&p, "caches_count", sim_topo_cache_count(node));
  prop(&p, "io_links_count", sim_topo_io_link_count(node));
  prop(&p, "p2p_links_count", sim_topo_p2p_link_count(node));
  prop(&p, "cpu_core_id_base", 0);
  prop(&p, "simd_id_base", g ? g->simd_id_base : 0);
  prop(&p, "max_waves_per_simd", G(max_waves_per_simd));
  prop(&p, "lds_size_in_kb", G(lds_size_in_kb));
  prop(&p, "gds_size_in_kb", G(gds_size_in_kb));
  prop(&p, "num_gws", G(num_gws));
  prop(&p, "wave_front_size", G(wave_front_size));
  prop(&p, "array_count", G(array_count));
  prop(&p, "simd_arrays_per_engine", G(simd_arrays_per_engine));
  prop(&p, "cu_per_simd_array", G(cu_per_simd_array));
  prop(&p, "simd_per_cu", G(simd_per_cu));
  prop(&p, "max_slots_scratch_cu", G(max_slots_scratch_cu));
  prop(&p, "gfx_target_version", G(gfx_target_version));
  prop(&p, "vendor_id", G(vendor_id));
  prop(&p, "device_id", G(device_id));
  prop(&p, "location_id", g ? g->location_id : 0);
  prop(&p, "domain", g ? g->domain : 0);
  prop(&p, "drm_render_minor", g ? g->render_minor : 0);
  prop(&p, "hive_id", 0);
  prop(&p, "num_sdma_engines", G(num_sdma_engines));
  prop(&p, "num_sdma_xgmi_engines", G(num_sdma_xgmi_engines));
  prop(&p, "num_sdma_queues_per_engine", G(num_sdma_queues_per_engine));
  prop(&p, "num_cp_queues", G(num_cp_queues));
  if (m && m->queue_buffer_checks) {   /* 6.12+ kernels publish what they enforce */
    struct sim_queue_sizes qs;
    sim_model_queue_sizes(m, &qs);
    prop(&p, "cwsr_size", qs.cwsr_size);
    prop(&p, "ctl_stack_size", qs.ctl_stack_size);
  }
  if (g) { /* the kernel prints these for GPU nodes only */
    prop(&p, "max_engine_clk_fcompute", m->max_engine_clk_fcompute);
    prop(&p, "local_mem_size", 0);
    prop(&p, "fw_version", m->fw_version);
    prop(&p, "capability", m->capability);
    prop(&p, "capability2", m->capability2);
    prop(&p, "debug_prop", m->debug_prop);
    prop(&p, "sdma_fw_version", m->sdma_fw_version);
    prop(&p, "unique_id", m->unique_id ? m->unique_id + g->index : 0);
    prop(&p, "num_xcc", sim_model_xcc(m));
  }
  prop(&p, "max_engine_clk_ccompute",
       m && m->max_engine_clk_ccompute ? m->max_engine_clk_ccompute : h->max_mhz);
#undef G
  return p.used;
}

size_t sim_topo_mem_bank_text(unsigned node, unsigned bank, char *buf, size_t len)
{
  struct page p = page_of(buf, len);
  if (node >= sim_topo_node_count() || bank != 0)
    return 0;
  const struct sim_gpu *g = node_gpu(node);
  prop(&p, "heap_type", g ? 1 : 0); /* HSA_MEM_HEAP_TYPE_FB_PUBLIC : SYSTEM */
  prop(&p, "size_in_bytes", g ? g->vram_bytes : sim_host()->mem_bytes);
  prop(&p, "flags", 0);
  prop(&p, "width", g ? g->model->vram_width : 0);
  prop(&p, "mem_clk_max", g ? g->model->local_mem_clk_max : 0);
  return p.used;
}

/* What KFD makes of a GPU data cache's CRAT flags: HSA_CACHE_TYPE_DATA | _HSACU. */
#define CACHE_TYPE_GPU_DATA (HSA_CACHE_TYPE_DATA | HSA_CACHE_TYPE_HSACU)

size_t sim_topo_cache_text(unsigned node, unsigned cache, char *buf, size_t len)
{
  struct page p = page_of(buf, len);
  const struct sim_gpu *g = node_gpu(node);
  if (!g || cache >= sim_topo_cache_count(node))
    return 0;
  const struct sim_gpu_model *m = g->model;
  unsigned level, size_kb, first_cu, cus;
  if (cache < m->cu_count) {
    level = 1, size_kb = m->l1_kb, first_cu = cache, cus = 1;
  } else if (cache == m->cu_count) {
    level = 2, size_kb = m->l2_kb, first_cu = 0, cus = m->cu_count;
  } else {
    level = 3, size_kb = m->l3_kb, first_cu = 0, cus = m->cu_count;
  }
  prop(&p, "processor_id_low", g->simd_id_base + first_cu);
  prop(&p, "level", level);
  prop(&p, "size", size_kb);
  prop(&p, "cache_line_size", m->cacheline_bytes);
  prop(&p, "cache_lines_per_tag", 0);
  prop(&p, "association", 0);
  prop(&p, "latency", 0);
  prop(&p, "type", CACHE_TYPE_GPU_DATA);
  /* One bit per compute unit sharing the cache, over CRAT's 32-byte sibling map. */
  emit(&p, "sibling_map ");
  for (unsigned bit = 0; bit < 32 * 8; bit++)
    emit(&p, "%d%s", bit < cus, bit + 1 < 32 * 8 ? "," : "\n");
  return p.used;
}

/* PCIe x16 bandwidth in MB/s as KFD reports it: 32000 for gen 4, half per generation back. */
static unsigned pcie_mbps(const struct sim_gpu_model *m)
{
  unsigned gen = m->pcie_gen ? m->pcie_gen : 3;
  return gen >= 4 ? 32000u << (gen - 4) : 32000u >> (4 - gen);
}

static void link_text(struct page *p, unsigned from, unsigned to, unsigned weight,
                      unsigned bw, unsigned sdma_mask, unsigned flags)
{
  prop(p, "type", 2); /* PCIe */
  prop(p, "version_major", 0);
  prop(p, "version_minor", 0);
  prop(p, "node_from", from);
  prop(p, "node_to", to);
  prop(p, "weight", weight);
  prop(p, "min_latency", 0);
  prop(p, "max_latency", 0);
  prop(p, "min_bandwidth", 0);
  prop(p, "max_bandwidth", bw);
  prop(p, "recommended_transfer_size", 0);
  prop(p, "recommended_sdma_engine_id_mask", sdma_mask);
  prop(p, "flags", flags);
}

size_t sim_topo_io_link_text(unsigned node, unsigned link, char *buf, size_t len)
{
  struct page p = page_of(buf, len);
  if (link >= sim_topo_io_link_count(node))
    return 0;
  /* CPU<->GPU over PCIe: weight 20; the CPU side is flagged non-coherent as KFD does. */
  const struct sim_gpu *g = node == 0 ? sim_gpu(link) : node_gpu(node);
  unsigned mask = (1u << g->model->num_sdma_engines) - 1;
  if (node == 0)
    link_text(&p, 0, g->node_id, 20, pcie_mbps(g->model), mask, 3);
  else
    link_text(&p, node, 0, 20, pcie_mbps(g->model), mask, 1);
  return p.used;
}

size_t sim_topo_p2p_link_text(unsigned node, unsigned link, char *buf, size_t len)
{
  struct page p = page_of(buf, len);
  const struct sim_gpu *g = node_gpu(node);
  if (!g || link >= sim_topo_p2p_link_count(node))
    return 0;
  /* GPU<->GPU through the CPU's root complex: two PCIe hops, weight 40. */
  unsigned to = link + 1 >= node ? link + 2 : link + 1;
  link_text(&p, node, to, 40, pcie_mbps(g->model), 0, 3);
  return p.used;
}
