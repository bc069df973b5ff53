/* SPDX-License-Identifier: MIT */
/* test_topology.c — src/kfd parses the captured real KFD topologies into the numbers the
 * fixture files hold (values below are read off tests/fixtures/topology by hand). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kfd/kfd.h"

#define WS TEST_SRCDIR "/fixtures/topology/workstation-gfx906-gfx1102-gfx1032"
#define NP TEST_SRCDIR "/fixtures/topology/node-properties"

START_TEST(workstation_nodes) {
  struct kfd_topology t;
  ck_assert_int_eq(kfd_topology_read(WS, &t), 0);
  ck_assert_uint_eq(t.node_count, 4);
  ck_assert(!t.has_generation_id); /* not captured */

  const struct kfd_node *cpu = &t.nodes[0];
  ck_assert_uint_eq(cpu->props.cpu_cores_count, 24);
  ck_assert_uint_eq(cpu->props.simd_count, 0);
  ck_assert_uint_eq(cpu->props.max_engine_clk_ccompute, 4000);
  ck_assert_uint_eq(cpu->mem_bank_count, 1);
  ck_assert_uint_eq(cpu->mem_banks[0].heap_type, KFD_HEAP_SYSTEM);
  ck_assert_uint_eq(cpu->mem_banks[0].size_in_bytes, 33453576192ull);
  ck_assert_uint_eq(cpu->mem_banks[0].width, 72);
  ck_assert_uint_eq(cpu->link_count, 3);
  for (unsigned i = 0; i < 3; i++) {
    ck_assert_uint_eq(cpu->links[i].node_from, 0);
    ck_assert_uint_eq(cpu->links[i].node_to, i + 1);
    ck_assert_uint_eq(cpu->links[i].type, KFD_LINK_PCIEXPRESS);
    ck_assert_uint_eq(cpu->links[i].weight, 20);
    ck_assert_uint_eq(cpu->links[i].max_bandwidth, 32000);
    ck_assert(!cpu->links[i].p2p);
  }
  ck_assert(!cpu->has_gpu_id);

  const struct kfd_node *vega = &t.nodes[1];
  ck_assert_str_eq(vega->name, "vega20");
  ck_assert_uint_eq(vega->props.gfx_target_version, 90006);
  ck_assert_uint_eq(vega->props.simd_count, 240);
  ck_assert_uint_eq(vega->props.simd_per_cu, 4);
  ck_assert_uint_eq(vega->props.device_id, 26287);
  ck_assert_uint_eq(vega->props.location_id, 25344);
  ck_assert_uint_eq(vega->props.capability, 2892210816u);
  ck_assert_uint_eq(vega->props.unique_id, 985321441578344217ull);
  ck_assert_uint_eq(vega->props.max_engine_clk_fcompute, 1801);
  ck_assert_uint_eq(vega->props.num_xcc, 1);
  ck_assert_uint_eq(vega->mem_bank_count, 1);
  ck_assert_uint_eq(vega->mem_banks[0].heap_type, KFD_HEAP_FB_PUBLIC);
  ck_assert_uint_eq(vega->mem_banks[0].size_in_bytes, 17163091968ull);
  ck_assert_uint_eq(vega->mem_banks[0].width, 4096);
  ck_assert(vega->mem_banks[0].has_used_memory);
  ck_assert_uint_eq(vega->mem_banks[0].used_memory, 10874880);
  /* one io_link to the CPU, then two p2p links to the other GPUs */
  ck_assert_uint_eq(vega->link_count, 3);
  ck_assert(!vega->links[0].p2p);
  ck_assert_uint_eq(vega->links[0].node_to, 0);
  ck_assert(vega->links[1].p2p && vega->links[2].p2p);
  ck_assert_uint_eq(vega->links[1].node_to, 2);
  ck_assert_uint_eq(vega->links[2].node_to, 3);
  ck_assert_uint_eq(vega->links[1].weight, 40);

  ck_assert_str_eq(t.nodes[2].name, ""); /* nodes/2/name was not captured */
  ck_assert_uint_eq(t.nodes[2].props.gfx_target_version, 110002);
  ck_assert_uint_eq(t.nodes[2].props.wave_front_size, 32);
  ck_assert_uint_eq(t.nodes[2].mem_banks[0].size_in_bytes, 8573157376ull);
  ck_assert(!t.nodes[2].mem_banks[0].has_used_memory);
  ck_assert_str_eq(t.nodes[3].name, "dimgrey_cavefish");
  ck_assert_uint_eq(t.nodes[3].props.gfx_target_version, 100302);
  ck_assert_uint_eq(t.nodes[3].props.max_engine_clk_fcompute, 2765);
  ck_assert_uint_eq(t.nodes[3].mem_banks[0].mem_clk_max, 1094);
  kfd_topology_free(&t);
  ck_assert_uint_eq(t.node_count, 0);
}
END_TEST

START_TEST(single_properties_files) {
  struct kfd_node_props p;
  ck_assert_int_eq(kfd_node_props_read(NP "/gfx942-mi300x.properties", &p), 0);
  ck_assert_uint_eq(p.gfx_target_version, 90402);
  ck_assert_uint_eq(p.simd_count, 1216);
  ck_assert_uint_eq(p.num_xcc, 8);
  ck_assert_uint_eq(p.hive_id, 7773567030725891371ull);
  ck_assert_uint_eq(p.num_sdma_xgmi_engines, 14);
  ck_assert_uint_eq(p.cwsr_size, 23203840);
  ck_assert_uint_eq(p.capability2, 1);

  ck_assert_int_eq(kfd_node_props_read(NP "/gfx950-mi350x.properties", &p), 0);
  ck_assert_uint_eq(p.gfx_target_version, 90500);
  ck_assert_uint_eq(p.lds_size_in_kb, 160);
  ck_assert_uint_eq(p.simd_count, 1024);

  ck_assert_int_eq(kfd_node_props_read(NP "/gfx1201.properties", &p), 0);
  ck_assert_uint_eq(p.gfx_target_version, 120001);
  ck_assert_uint_eq(p.max_engine_clk_ccompute, 4500);
  ck_assert_uint_eq(p.unique_id, 2903314361593472692ull);

  ck_assert_int_eq(kfd_node_props_read(NP "/no-such-file", &p), -ENOENT);
  const uint64_t *f = kfd_node_props_field(&p, "simd_count");
  ck_assert_ptr_nonnull(f);
  ck_assert_ptr_null(kfd_node_props_field(&p, "no_such_property"));
}
END_TEST

/* A tree made here: nodes listed out of numeric order (10 after 2), generation_id present,
 * unknown keys and a malformed line ignored. */
static char tmp_root[64];

static void write_file(const char *rel, const char *text) {
  char path[256], dir[320];
  snprintf(path, sizeof(path), "%s/%s", tmp_root, rel);
  snprintf(dir, sizeof(dir), "mkdir -p \"$(dirname '%s')\"", path);
  ck_assert_int_eq(system(dir), 0);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
}

START_TEST(made_tree) {
  snprintf(tmp_root, sizeof(tmp_root), "/tmp/kfd-topo-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(tmp_root));
  write_file("generation_id", "7\n");
  write_file("system_properties", "platform_oem 1\nplatform_id 2\nplatform_rev 3\n");
  for (int n = 0; n < 11; n++) {
    char rel[64], text[128];
    snprintf(rel, sizeof(rel), "nodes/%d/properties", n);
    snprintf(text, sizeof(text),
             "simd_count %d\ncaches_count %d\nnew_kernel_key 5\ngarbage line\ngpu_thing -1\n",
             n * 4, n == 10);
    write_file(rel, text);
    snprintf(rel, sizeof(rel), "nodes/%d/gpu_id", n);
    snprintf(text, sizeof(text), "%d\n", n ? 1000 + n : 0);
    write_file(rel, text);
  }
  write_file("nodes/10/caches/0/properties",
             "processor_id_low 5\nlevel 2\nsize 4096\ncache_line_size 128\ntype 9\n");
  /* beyond caches_count: not read, as the thunk would not read it */
  write_file("nodes/10/caches/1/properties", "level 3\nsize 8\n");
  write_file("nodes/9/caches/0/properties", "level 1\nsize 16\n");
  struct kfd_topology t;
  ck_assert_int_eq(kfd_topology_read(tmp_root, &t), 0);
  ck_assert(t.has_generation_id);
  ck_assert_uint_eq(t.generation_id, 7);
  ck_assert_uint_eq(t.platform_rev, 3);
  ck_assert_uint_eq(t.node_count, 11);
  for (unsigned n = 0; n < 11; n++) {
    ck_assert_uint_eq(t.nodes[n].sysfs_index, n);
    ck_assert_uint_eq(t.nodes[n].props.simd_count, n * 4);
    ck_assert_uint_eq(t.nodes[n].gpu_id, n ? 1000 + n : 0);
  }
  ck_assert_uint_eq(t.nodes[10].cache_count, 1);
  ck_assert_uint_eq(t.nodes[9].cache_count, 0);
  ck_assert_uint_eq(t.nodes[10].caches[0].size, 4096);
  ck_assert_uint_eq(t.nodes[10].caches[0].cache_line_size, 128);
  ck_assert_uint_eq(t.nodes[10].caches[0].type, 9);
  /* Deferred: no caches until asked for, then exactly what the eager read found, once. */
  struct kfd_topology lazy;
  ck_assert_int_eq(kfd_topology_read_deferred(tmp_root, &lazy), 0);
  ck_assert_uint_eq(lazy.node_count, 11);
  for (unsigned n = 0; n < 11; n++) {
    struct kfd_node *l = &lazy.nodes[n];
    ck_assert_uint_eq(l->cache_count, 0);
    ck_assert_ptr_null(l->caches);
    for (int twice = 0; twice < 2; twice++) {
      ck_assert_int_eq(kfd_node_read_caches(l), 0);
      ck_assert_uint_eq(l->cache_count, t.nodes[n].cache_count);
    }
  }
  ck_assert_mem_eq(lazy.nodes[10].caches, t.nodes[10].caches, sizeof(*t.nodes[10].caches));
  kfd_topology_free(&lazy);
  kfd_topology_free(&t);
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp_root);
  ck_assert_int_eq(system(cmd), 0);
  ck_assert_int_eq(kfd_topology_read(tmp_root, &t), -ENOENT);
}
END_TEST

START_TEST(no_device) {
  struct kfd_device dev;
  ck_assert_int_eq(kfd_device_open("/nonexistent/kfd", &dev), -ENOENT);
  ck_assert_int_eq(dev.fd, -1);
  /* A file that is not the KFD: the version ioctl fails, nothing stays open. */
  ck_assert_int_lt(kfd_device_open("/dev/null", &dev), 0);
  ck_assert_int_eq(dev.fd, -1);
  struct kfd_drm drm;
  ck_assert_int_eq(kfd_drm_open("/nonexistent", 128, &drm), -ENOENT);
  struct kfd_clock_counters c;
  kfd_host_clock_counters(&c);
  ck_assert_uint_eq(c.system_clock_freq, 1000000000u);
  ck_assert_uint_gt(c.system_clock_counter, 0);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("topology");
  TCase *tc = tcase_create("kfd");
  tcase_add_test(tc, workstation_nodes);
  tcase_add_test(tc, single_properties_files);
  tcase_add_test(tc, made_tree);
  tcase_add_test(tc, no_device);
  suite_add_tcase(s, tc);
  return s;
}
