/* SPDX-License-Identifier: MIT */
/* test_sim_topology.c — the catalogue and the KFD topology text against a real board: the
 * gfx906 capture in tests/fixtures/topology (same keys in the same order, the board's
 * values equal), and the structure of multi-GPU topologies. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev/catalog.h"
#include "dev/topology.h"
#include "sim.h"

#define FIXTURE TEST_SRCDIR "/fixtures/topology/workstation-gfx906-gfx1102-gfx1032/nodes"
#define NODEPROPS TEST_SRCDIR "/fixtures/topology/node-properties"

static char *slurp(const char *path)
{
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "cannot open %s", path);
  static char buf[8192];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return buf; /* consumed before the next call */
}

struct kv {
  char key[64];
  unsigned long long val;
};

/* "name value" lines into kv[]; returns the count. */
static int parse(const char *text, struct kv *kv, int max)
{
  int n = 0, used;
  const char *p = text;
  while (n < max && sscanf(p, "%63s %llu\n%n", kv[n].key, &kv[n].val, &used) == 2) {
    p += used;
    n++;
  }
  return n;
}

static unsigned long long get(const struct kv *kv, int n, const char *key)
{
  for (int i = 0; i < n; i++)
    if (strcmp(kv[i].key, key) == 0)
      return kv[i].val;
  ck_abort_msg("no key %s", key);
  return 0;
}

/* Node `node`'s properties as we print them and the capture's at `capture`, parsed into ours
 * and real (64 each): the same keys in the same order. Returns their count. */
static int node_vs_capture(unsigned node, const char *capture, struct kv *ours, struct kv *real)
{
  char text[SIM_TOPO_PAGE];
  sim_topo_node_text(node, text, sizeof text);
  int n = parse(text, ours, 64);
  int m = parse(slurp(capture), real, 64);
  ck_assert_int_eq(n, m);
  for (int i = 0; i < n; i++)
    ck_assert_str_eq(ours[i].key, real[i].key);
  return n;
}

/* Every value of ours equals real's but those of the keys in `machine` (the machine's, not
 * the board's) */
static void values_equal_but(const struct kv *ours, const struct kv *real, int n,
                             const char *const *machine, size_t count)
{
  for (int i = 0; i < n; i++) {
    int skip = 0;
    for (size_t j = 0; j < count; j++)
      skip |= strcmp(ours[i].key, machine[j]) == 0;
    if (!skip)
      ck_assert_msg(ours[i].val == real[i].val, "%s: %llu, captured %llu", ours[i].key,
                    ours[i].val, real[i].val);
  }
}

START_TEST(catalog_lookup)
{
  ck_assert_ptr_nonnull(sim_catalog_find("gfx900"));
  ck_assert_ptr_nonnull(sim_catalog_find("gfx906"));
  ck_assert_ptr_nonnull(sim_catalog_find("gfx90a"));
  ck_assert_ptr_null(sim_catalog_find("gfx1234"));
  ck_assert_ptr_null(sim_catalog_find(NULL));
  ck_assert_str_eq(sim_catalog_at(0)->name, "gfx900"); /* the default comes first */
  unsigned n = 0;
  while (sim_catalog_at(n))
    n++;
  ck_assert_uint_ge(n, 3);
  for (unsigned i = 0; i < n; i++) {
    const struct sim_gpu_model *m = sim_catalog_at(i);
    ck_assert_uint_eq(m->simd_count, m->cu_count * m->simd_per_cu);
    ck_assert_uint_le(m->cu_count, m->array_count * m->cu_per_simd_array);
    ck_assert_uint_eq(m->vendor_id, 0x1002);
    ck_assert_ptr_nonnull(m->asic_name);
  }
  ck_assert_uint_eq(sim_catalog_find("gfx900")->device_id, 0x687f);
  ck_assert_uint_eq(sim_catalog_find("gfx906")->device_id, 0x66af);
  ck_assert_uint_eq(sim_catalog_find("gfx90a")->device_id, 0x740f);
}
END_TEST

/* gfx906 node 1 against the capture: same keys in the same order; the board's values equal. */
START_TEST(gfx906_matches_capture)
{
  setenv("HSA_SIM_CONFIG", "gpu=gfx906", 1);
  struct kv ours[64], real[64];
  int n = node_vs_capture(1, FIXTURE "/1/properties", ours, real), m = n;
  static const char *const board[] = {
    "simd_count", "max_waves_per_simd", "lds_size_in_kb", "gds_size_in_kb", "num_gws",
    "wave_front_size", "array_count", "simd_arrays_per_engine", "cu_per_simd_array",
    "simd_per_cu", "max_slots_scratch_cu", "gfx_target_version", "vendor_id", "device_id",
    "location_id", "domain", "hive_id", "num_sdma_engines", "num_sdma_xgmi_engines",
    "num_sdma_queues_per_engine", "num_cp_queues", "max_engine_clk_fcompute",
    "local_mem_size", "fw_version", "capability", "capability2", "debug_prop",
    "sdma_fw_version", "unique_id", "num_xcc", "mem_banks_count", "cpu_cores_count",
    "simd_id_base",
  };
  for (size_t i = 0; i < sizeof board / sizeof board[0]; i++)
    ck_assert_msg(get(ours, n, board[i]) == get(real, m, board[i]), "%s: %llu, captured %llu",
                  board[i], get(ours, n, board[i]), get(real, m, board[i]));
  /* The capture's render minor reads 0 (a container); ours must name a real node. */
  ck_assert_uint_eq(get(ours, n, "drm_render_minor"), 128);

  char text[SIM_TOPO_PAGE];
  sim_topo_mem_bank_text(1, 0, text, sizeof text);
  ck_assert_str_eq(text, slurp(FIXTURE "/1/mem_banks/0/properties"));
  sim_topo_io_link_text(1, 0, text, sizeof text);
  ck_assert_str_eq(text, slurp(FIXTURE "/1/io_links/0/properties"));
  sim_topo_name_text(1, text, sizeof text);
  ck_assert_str_eq(text, slurp(FIXTURE "/1/name"));
}
END_TEST

/* MI300X (gfx942, SPX) against its captured node: same keys in the same order (with the
 * cwsr_size/ctl_stack_size that 6.12+ kernels publish, computed here from the geometry),
 * the board's values and its memory bank equal. */
START_TEST(gfx942_matches_capture)
{
  setenv("HSA_SIM_CONFIG", "gpu=gfx942", 1);
  struct kv ours[64], real[64];
  int n = node_vs_capture(1, NODEPROPS "/gfx942-mi300x.properties", ours, real);
  /* not the board's: links, caches and PCI place belong to the machine it sat in */
  static const char *const machine[] = {
    "caches_count", "io_links_count", "p2p_links_count", "simd_id_base", "location_id",
    "drm_render_minor", "hive_id",
  };
  values_equal_but(ours, real, n, machine, sizeof machine / sizeof machine[0]);
  char text[SIM_TOPO_PAGE];
  sim_topo_mem_bank_text(1, 0, text, sizeof text);
  ck_assert_str_eq(text, slurp(NODEPROPS "/gfx942-mi300x.mem_bank0"));
  struct sim_queue_sizes qs;
  sim_model_queue_sizes(sim_gpu(0)->model, &qs);
  ck_assert_uint_eq(qs.eop_size, 4096);
  /* (cwsr 23203840 + 1520 waves x 32 debugger bytes) x 8 XCCs */
  ck_assert_uint_eq(qs.cwsr_total, (23203840ull + 48640) * 8);
}
END_TEST

/* RX 9070 XT (gfx1201) against its captured node: same keys in the same order, the board's
 * values equal, cwsr_size and ctl_stack_size (the 0x7000 the capture shows is 2048 waves x
 * 12 bytes, not a cap) computed from the geometry as kfd_queue.c does. */
START_TEST(gfx1201_matches_capture)
{
  setenv("HSA_SIM_CONFIG", "gpu=gfx1201", 1);
  struct kv ours[64], real[64];
  int n = node_vs_capture(1, NODEPROPS "/gfx1201.properties", ours, real);
  static const char *const machine[] = {
    "caches_count", "io_links_count", "p2p_links_count", "simd_id_base", "location_id",
    "drm_render_minor", "hive_id", "max_engine_clk_ccompute",
  };
  values_equal_but(ours, real, n, machine, sizeof machine / sizeof machine[0]);
  struct sim_queue_sizes qs;
  sim_model_queue_sizes(sim_gpu(0)->model, &qs);
  ck_assert_uint_eq(qs.eop_size, 4096);
  ck_assert_uint_eq(qs.debug_size, 2048 * 32);
  ck_assert_uint_eq(qs.cwsr_total, 30699520ull + 2048 * 32);
}
END_TEST

/* RX 7900 XTX (gfx1100): the keys of the captured gfx1102 node (same family and kernel
 * generation) plus the cwsr_size/ctl_stack_size newer kernels add; the family's values
 * (wave32, 2 SIMDs per CU, 16 waves, arrays of 8 CUs) equal the capture's; Navi 31's counts;
 * the save area of 96 CUs x 32 waves: control stack 40 + 3072 x 12 + 8 bytes in pages
 * (40960), plus 96 x (0x60000 VGPR + 0x4000 SGPR + 0x10000 LDS + 0x1000 HW regs). */
START_TEST(gfx1100_has_the_rdna3_shape)
{
  setenv("HSA_SIM_CONFIG", "gpu=gfx1100,gpus=2", 1);
  ck_assert_uint_eq(sim_gpu_count(), 2);
  char text[SIM_TOPO_PAGE];
  sim_topo_node_text(2, text, sizeof text);
  struct kv ours[64], real[64];
  int n = parse(text, ours, 64);
  int m = parse(slurp(FIXTURE "/2/properties"), real, 64);
  ck_assert_int_eq(n, m + 2);
  for (int i = 0, j = 0; i < n; i++) {
    if (!strcmp(ours[i].key, "cwsr_size") || !strcmp(ours[i].key, "ctl_stack_size"))
      continue;
    ck_assert_str_eq(ours[i].key, real[j++].key);
  }
  static const char *const family[] = {
    "max_waves_per_simd", "lds_size_in_kb", "gds_size_in_kb", "num_gws", "wave_front_size",
    "simd_arrays_per_engine", "cu_per_simd_array", "simd_per_cu", "max_slots_scratch_cu",
    "vendor_id", "num_sdma_engines", "num_sdma_xgmi_engines", "num_sdma_queues_per_engine",
    "num_cp_queues", "local_mem_size", "fw_version", "capability", "capability2",
    "debug_prop", "sdma_fw_version", "num_xcc", "mem_banks_count", "cpu_cores_count",
  };
  for (size_t i = 0; i < sizeof family / sizeof family[0]; i++)
    ck_assert_msg(get(ours, n, family[i]) == get(real, m, family[i]), "%s: %llu, captured %llu",
                  family[i], get(ours, n, family[i]), get(real, m, family[i]));
  ck_assert_uint_eq(get(ours, n, "gfx_target_version"), 110000);
  ck_assert_uint_eq(get(ours, n, "simd_count"), 192);
  ck_assert_uint_eq(get(ours, n, "array_count"), 12);
  ck_assert_uint_eq(get(ours, n, "device_id"), 0x744c);
  ck_assert_uint_eq(get(ours, n, "ctl_stack_size"), 40960);
  ck_assert_uint_eq(get(ours, n, "cwsr_size"), 40960 + 96 * (0x60000 + 0x4000 + 0x10000 + 0x1000));
  ck_assert_uint_eq(get(ours, n, "drm_render_minor"), 129);
  /* 24 GiB of GDDR6 on a 384-bit bus */
  sim_topo_mem_bank_text(2, 0, text, sizeof text);
  n = parse(text, ours, 64);
  ck_assert_uint_eq(get(ours, n, "size_in_bytes"), 24ull * 1024 * 1024 * 1024 - 16 * 1024 * 1024);
  ck_assert_uint_eq(get(ours, n, "width"), 384);
}
END_TEST

/* kfd_queue.c's per-chip rules on synthetic nodes: gfx10 caps the control stack at 0x7000
 * (gfx1030, 80 CUs: 40 + 2560 x 12 + 8 bytes would take 8 pages), gfx11+ does not; gfx1101
 * saves 0x60000 VGPR bytes per CU, gfx1102 (the smaller register file) 0x40000. */
START_TEST(queue_size_rules_per_chip)
{
  struct sim_queue_sizes qs;
  struct sim_gpu_model m = { .gfx_target_version = 100300, .simd_count = 160, .simd_per_cu = 2,
                             .array_count = 8, .simd_arrays_per_engine = 2 };
  sim_model_queue_sizes(&m, &qs);
  ck_assert_uint_eq(qs.ctl_stack_size, 0x7000);
  ck_assert_uint_eq(qs.cwsr_size, 0x7000 + 80 * (0x40000 + 0x4000 + 0x10000 + 0x1000));
  m.gfx_target_version = 110001;   /* the same geometry on gfx11: no cap, 1.5x VGPRs */
  sim_model_queue_sizes(&m, &qs);
  ck_assert_uint_eq(qs.ctl_stack_size, 32768);
  ck_assert_uint_eq(qs.cwsr_size, 32768 + 80 * (0x60000 + 0x4000 + 0x10000 + 0x1000));
  m.gfx_target_version = 110002;   /* gfx1102 (the captured 28-CU node's chip) */
  m.simd_count = 56;
  sim_model_queue_sizes(&m, &qs);
  ck_assert_uint_eq(qs.ctl_stack_size, 12288);   /* 40 + 896 x 12 + 8 */
  ck_assert_uint_eq(qs.cwsr_size, 12288 + 28 * (0x40000 + 0x4000 + 0x10000 + 0x1000));
  ck_assert_uint_eq(qs.eop_size, 4096);
}
END_TEST

/* MI300A: the same XCCs (so the same per-XCC CWSR figures), six of them; its one bank is
 * system memory, the half of it TTM lets the GPU use, whatever --vram says. */
START_TEST(gfx942_apu_bank_is_system_memory)
{
  setenv("HSA_SIM_CONFIG", "gpu=gfx942-apu,gpus=2,vram=4G", 1);
  ck_assert_uint_eq(sim_gpu_count(), 2);
  char text[SIM_TOPO_PAGE];
  struct kv kv[64];
  int n = parse((sim_topo_node_text(2, text, sizeof text), text), kv, 64);
  ck_assert_uint_eq(get(kv, n, "mem_banks_count"), 1);
  ck_assert_uint_eq(get(kv, n, "num_xcc"), 6);
  ck_assert_uint_eq(get(kv, n, "simd_count"), 6 * 38 * 4);
  ck_assert_uint_eq(get(kv, n, "gfx_target_version"), 90402);
  ck_assert_uint_eq(get(kv, n, "cwsr_size"), 23203840);
  ck_assert_uint_eq(get(kv, n, "ctl_stack_size"), 12288);
  uint64_t ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
  n = parse((sim_topo_mem_bank_text(2, 0, text, sizeof text), text), kv, 64);
  ck_assert_uint_eq(get(kv, n, "heap_type"), 1);   /* FB_PUBLIC, as KFD reports it */
  ck_assert_uint_eq(get(kv, n, "size_in_bytes"), ram / 2 / 4096 * 4096);
  ck_assert_uint_eq(sim_gpu(1)->vram_bytes, ram / 2 / 4096 * 4096);
}
END_TEST

START_TEST(cpu_node_matches_capture_layout)
{
  struct kv ours[64], real[64];
  int n = node_vs_capture(0, FIXTURE "/0/properties", ours, real), m;
  char text[SIM_TOPO_PAGE];
  ck_assert_uint_gt(get(ours, n, "cpu_cores_count"), 0);
  ck_assert_uint_eq(get(ours, n, "simd_count"), 0);
  ck_assert_uint_eq(get(ours, n, "io_links_count"), 1);
  ck_assert_uint_gt(get(ours, n, "max_engine_clk_ccompute"), 0);
  sim_topo_mem_bank_text(0, 0, text, sizeof text);
  n = parse(text, ours, 64);
  m = parse(slurp(FIXTURE "/0/mem_banks/0/properties"), real, 64);
  ck_assert_int_eq(n, m);
  ck_assert_uint_eq(get(ours, n, "heap_type"), 0);
  ck_assert_uint_gt(get(ours, n, "size_in_bytes"), 0);
  sim_topo_io_link_text(0, 0, text, sizeof text);
  n = parse(text, ours, 64);
  m = parse(slurp(FIXTURE "/0/io_links/0/properties"), real, 64);
  ck_assert_int_eq(n, m);
  for (int i = 0; i < n; i++)
    ck_assert_str_eq(ours[i].key, real[i].key);
  ck_assert_uint_eq(get(ours, n, "node_to"), 1);
  ck_assert_uint_eq(get(ours, n, "flags"), get(real, m, "flags"));
}
END_TEST

START_TEST(default_is_one_gfx900)
{
  unsetenv("HSA_SIM_CONFIG");
  ck_assert_uint_eq(sim_gpu_count(), 1);
  struct sim_gpu *g = sim_gpu(0);
  ck_assert_str_eq(g->model->name, "gfx900");
  ck_assert_uint_eq(g->node_id, 1);
  ck_assert_uint_eq(g->render_minor, 128);
  ck_assert_uint_ne(g->gpu_id, 0);
  ck_assert_ptr_eq(sim_gpu_by_id(g->gpu_id), g);
  ck_assert_ptr_eq(sim_gpu_by_minor(128), g);
  ck_assert_ptr_null(sim_gpu_by_minor(129));
  ck_assert_ptr_null(sim_gpu(1));
  ck_assert_uint_eq(g->vram_bytes, g->model->default_vram_bytes);
  char text[SIM_TOPO_PAGE];
  sim_topo_gpu_id_text(1, text, sizeof text);
  ck_assert_uint_eq(strtoul(text, NULL, 10), g->gpu_id);
  sim_topo_gpu_id_text(0, text, sizeof text);
  ck_assert_str_eq(text, "0\n");
  sim_topo_system_text(text, sizeof text);
  ck_assert_str_eq(text, "platform_oem 0\nplatform_id 0\nplatform_rev 0\n");
}
END_TEST

START_TEST(four_gpus_with_vram)
{
  setenv("HSA_SIM_CONFIG", "gpu=gfx90a,gpus=4,vram=4G", 1);
  ck_assert_uint_eq(sim_gpu_count(), 4);
  ck_assert_uint_eq(sim_topo_node_count(), 5);
  for (unsigned i = 0; i < 4; i++) {
    struct sim_gpu *g = sim_gpu(i);
    ck_assert_uint_eq(g->vram_bytes, 4ull << 30);
    ck_assert_uint_eq(g->render_minor, 128 + i);
    for (unsigned j = 0; j < i; j++) {
      ck_assert_uint_ne(sim_gpu(j)->gpu_id, g->gpu_id);
      ck_assert_uint_ne(sim_gpu(j)->location_id, g->location_id);
    }
  }
  char text[SIM_TOPO_PAGE];
  struct kv kv[64];
  int n = parse((sim_topo_node_text(0, text, sizeof text), text), kv, 64);
  ck_assert_uint_eq(get(kv, n, "io_links_count"), 4);
  n = parse((sim_topo_node_text(3, text, sizeof text), text), kv, 64);
  ck_assert_uint_eq(get(kv, n, "p2p_links_count"), 3);
  ck_assert_uint_eq(get(kv, n, "drm_render_minor"), 130);
  ck_assert_uint_eq(get(kv, n, "gfx_target_version"), 90010);
  /* p2p links from node 3 reach 1, 2 and 4; never itself. */
  unsigned seen = 0;
  for (unsigned l = 0; l < 3; l++) {
    n = parse((sim_topo_p2p_link_text(3, l, text, sizeof text), text), kv, 64);
    ck_assert_uint_eq(get(kv, n, "node_from"), 3);
    seen |= 1u << get(kv, n, "node_to");
  }
  ck_assert_uint_eq(seen, (1u << 1) | (1u << 2) | (1u << 4));
  n = parse((sim_topo_mem_bank_text(2, 0, text, sizeof text), text), kv, 64);
  ck_assert_uint_eq(get(kv, n, "size_in_bytes"), 4ull << 30);
  ck_assert_uint_eq(sim_topo_p2p_link_text(0, 0, text, sizeof text), 0);
  ck_assert_uint_eq(sim_topo_io_link_text(1, 1, text, sizeof text), 0);
}
END_TEST

START_TEST(caches)
{
  unsetenv("HSA_SIM_CONFIG");
  const struct sim_gpu_model *m = sim_gpu(0)->model;
  ck_assert_uint_eq(sim_topo_cache_count(0), 0);
  ck_assert_uint_eq(sim_topo_cache_count(1), m->cu_count + 1);
  char text[SIM_TOPO_PAGE];
  struct kv kv[16];
  int n = parse((sim_topo_cache_text(1, 0, text, sizeof text), text), kv, 16);
  ck_assert_uint_eq(get(kv, n, "level"), 1);
  ck_assert_uint_eq(get(kv, n, "size"), m->l1_kb);
  /* ROCR keeps only caches typed as GPU (HSACU) data caches: type 9 as KFD reports it. */
  ck_assert_uint_eq(get(kv, n, "type"), 9);
  ck_assert_ptr_nonnull(strstr(text, "\nsibling_map 1,0,0,"));
  n = parse((sim_topo_cache_text(1, m->cu_count, text, sizeof text), text), kv, 16);
  ck_assert_uint_eq(get(kv, n, "level"), 2);
  ck_assert_uint_eq(get(kv, n, "size"), m->l2_kb);
  ck_assert_uint_lt(strlen(text), SIM_TOPO_PAGE - 1);
  ck_assert_int_eq(text[strlen(text) - 1], '\n');
  /* A short buffer is cut, never overrun. */
  char small[16];
  size_t len = sim_topo_cache_text(1, 0, small, sizeof small);
  ck_assert_uint_lt(len, sizeof small);
  ck_assert_uint_eq(strlen(small), len);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("sim_topology");
  TCase *tc = tcase_create("topology");
  tcase_add_test(tc, catalog_lookup);
  tcase_add_test(tc, gfx906_matches_capture);
  tcase_add_test(tc, gfx942_matches_capture);
  tcase_add_test(tc, gfx942_apu_bank_is_system_memory);
  tcase_add_test(tc, gfx1201_matches_capture);
  tcase_add_test(tc, gfx1100_has_the_rdna3_shape);
  tcase_add_test(tc, queue_size_rules_per_chip);
  tcase_add_test(tc, cpu_node_matches_capture_layout);
  tcase_add_test(tc, default_is_one_gfx900);
  tcase_add_test(tc, four_gpus_with_vram);
  tcase_add_test(tc, caches);
  suite_add_tcase(s, tc);
  return s;
}
