/* SPDX-License-Identifier: MIT */
/* test_agents.c — agents, ISAs, pools and system info built from the captured topologies
 * (no device: core_runtime_acquire with no_device), checked against the fixture numbers. */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/runtime.h"
#include "hsa.h"
#include "hsa_ext_amd.h"

#define FIX TEST_SRCDIR "/fixtures/topology"
#define WS FIX "/workstation-gfx906-gfx1102-gfx1032"

static void init_at(const char *root) {
  struct core_options o = {.sysfs_root = root, .no_device = true};
  ck_assert_int_eq(core_runtime_acquire(&o), HSA_STATUS_SUCCESS);
}

struct agent_list { hsa_agent_t a[16]; unsigned n; };

static hsa_status_t collect(hsa_agent_t agent, void *data) {
  struct agent_list *l = data;
  if (l->n < 16) l->a[l->n++] = agent;
  return HSA_STATUS_SUCCESS;
}

static struct agent_list agents(void) {
  struct agent_list l = {.n = 0};
  ck_assert_int_eq(hsa_iterate_agents(collect, &l), HSA_STATUS_SUCCESS);
  return l;
}

static uint32_t u32(hsa_agent_t a, int attr) {
  uint32_t v = 0xdeadbeef;
  ck_assert_int_eq(hsa_agent_get_info(a, (hsa_agent_info_t)attr, &v), HSA_STATUS_SUCCESS);
  return v;
}

static const char *str(hsa_agent_t a, int attr) {
  static char buf[4][64];
  static int i;
  char *b = buf[i++ % 4];
  ck_assert_int_eq(hsa_agent_get_info(a, (hsa_agent_info_t)attr, b), HSA_STATUS_SUCCESS);
  return b;
}

static const char *isa_name(hsa_agent_t a) {
  static char name[80];
  hsa_isa_t isa;
  uint32_t len = 0;
  ck_assert_int_eq(hsa_agent_get_info(a, HSA_AGENT_INFO_ISA, &isa), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(len, strlen(name) + 1);
  return name;
}

/* Expected per GPU, from the fixture properties files. */
static const struct {
  const char *name, *isa, *uuid;
  uint32_t cu, wave, chip, bdf, clock, se, sa, waves_cu, width, mclk, asic_rev, ucode, sdma;
  uint64_t vram;
} gpus[] = {
  {"gfx906", "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-", "GPU-0dac90a172da5f19", 60, 64, 26287,
   25344, 1801, 4, 1, 40, 4096, 1000, 1, 472, 145, 17163091968ull},
  {"gfx1102", "amdgcn-amd-amdhsa--gfx1102", "GPU-XX", 28, 32, 29833, 26112, 810, 2, 2, 32, 128,
   674, 0, 2590 & 0x3ff, 21, 8573157376ull},
  {"gfx1032", "amdgcn-amd-amdhsa--gfx1032", "GPU-XX", 32, 32, 29679, 17152, 2765, 2, 2, 32, 128,
   1094, 0, 122, 76, 8573157376ull},
};

struct pool_list { hsa_amd_memory_pool_t p[8]; unsigned n; };
static hsa_status_t collect_pool(hsa_amd_memory_pool_t p, void *data) {
  struct pool_list *l = data;
  if (l->n < 8) l->p[l->n++] = p;
  return HSA_STATUS_SUCCESS;
}

START_TEST(workstation_agents) {
  unsetenv("ROCR_VISIBLE_DEVICES");
  unsetenv("HSA_OVERRIDE_GFX_VERSION");
  init_at(WS);
  struct agent_list l = agents();
  ck_assert_uint_eq(l.n, 4);

  hsa_agent_t cpu = l.a[0];
  hsa_device_type_t dev;
  ck_assert_int_eq(hsa_agent_get_info(cpu, HSA_AGENT_INFO_DEVICE, &dev), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(dev, HSA_DEVICE_TYPE_CPU);
  ck_assert_str_eq(str(cpu, HSA_AGENT_INFO_VENDOR_NAME), "CPU");
  ck_assert_str_eq(str(cpu, HSA_AMD_AGENT_INFO_UUID), "CPU-XX");
  ck_assert_uint_eq(u32(cpu, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), 24);
  ck_assert_uint_eq(u32(cpu, HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY), 4000);
  ck_assert_uint_eq(u32(cpu, HSA_AGENT_INFO_NODE), 0);
  ck_assert_uint_eq(u32(cpu, HSA_AGENT_INFO_FEATURE), 0);
  hsa_isa_t none;
  ck_assert_int_eq(hsa_agent_get_info(cpu, HSA_AGENT_INFO_ISA, &none), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(none.handle, 0);
  /* CPU answers no GPU-only attribute */
  uint64_t big;
  ck_assert_int_eq(hsa_agent_get_info(cpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_MEMORY_AVAIL,
                                      &big), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  struct pool_list pl = {.n = 0};
  ck_assert_int_eq(hsa_amd_agent_iterate_memory_pools(cpu, collect_pool, &pl), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(pl.n, 3); /* fine, kernarg, coarse */
  uint32_t flags[3];
  for (unsigned i = 0; i < 3; i++) {
    size_t size = 0;
    ck_assert_int_eq(hsa_amd_memory_pool_get_info(pl.p[i], HSA_AMD_MEMORY_POOL_INFO_SIZE, &size),
                     HSA_STATUS_SUCCESS);
    ck_assert_uint_eq(size, 33453576192ull);
    ck_assert_int_eq(hsa_amd_memory_pool_get_info(pl.p[i], HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE,
                                                  &size), HSA_STATUS_SUCCESS);
    ck_assert_uint_eq(size, 33453576192ull); /* one CPU node, already page-aligned */
    hsa_amd_memory_pool_get_info(pl.p[i], HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags[i]);
  }
  ck_assert_uint_eq(flags[0], HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
  ck_assert_uint_eq(flags[1], HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED |
                                  HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT);
  ck_assert_uint_eq(flags[2], HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED);

  for (unsigned g = 0; g < 3; g++) {
    hsa_agent_t a = l.a[1 + g];
    ck_assert_int_eq(hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &dev), HSA_STATUS_SUCCESS);
    ck_assert_int_eq(dev, HSA_DEVICE_TYPE_GPU);
    ck_assert_str_eq(str(a, HSA_AGENT_INFO_NAME), gpus[g].name);
    ck_assert_str_eq(str(a, HSA_AGENT_INFO_VENDOR_NAME), "AMD");
    ck_assert_str_eq(isa_name(a), gpus[g].isa);
    ck_assert_str_eq(str(a, HSA_AMD_AGENT_INFO_UUID), gpus[g].uuid);
    ck_assert_uint_eq(u32(a, HSA_AGENT_INFO_NODE), 1 + g);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_DRIVER_NODE_ID), 1 + g);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), gpus[g].cu);
    ck_assert_uint_eq(u32(a, HSA_AGENT_INFO_WAVEFRONT_SIZE), gpus[g].wave);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_CHIP_ID), gpus[g].chip);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_BDFID), gpus[g].bdf);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY), gpus[g].clock);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES), gpus[g].se);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE), gpus[g].sa);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU), gpus[g].waves_cu);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_MEMORY_WIDTH), gpus[g].width);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY), gpus[g].mclk);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_ASIC_REVISION), gpus[g].asic_rev);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_UCODE_VERSION), gpus[g].ucode);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION), gpus[g].sdma);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS), 4);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_NUM_SDMA_ENG), 2);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_NUM_XCC), 1);
    ck_assert_uint_eq(u32(a, HSA_AGENT_INFO_PROFILE), HSA_PROFILE_BASE);
    ck_assert_uint_eq(u32(a, HSA_AGENT_INFO_FEATURE), HSA_AGENT_FEATURE_KERNEL_DISPATCH);
    ck_assert_uint_eq(u32(a, HSA_AGENT_INFO_QUEUES_MAX), 128);
    ck_assert_uint_eq(u32(a, HSA_AGENT_INFO_QUEUE_MIN_SIZE), 64);
    ck_assert_uint_eq(u32(a, HSA_AGENT_INFO_QUEUE_MAX_SIZE), 131072);
    ck_assert_uint_eq(u32(a, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE), 1024);
    ck_assert_uint_eq(u32(a, HSA_AMD_AGENT_INFO_CACHELINE_SIZE), 64); /* no caches captured */
    uint32_t caches[4];
    ck_assert_int_eq(hsa_agent_get_info(a, HSA_AGENT_INFO_CACHE_SIZE, caches), HSA_STATUS_SUCCESS);
    ck_assert_uint_eq(caches[0] + caches[1] + caches[2] + caches[3], 0);
    hsa_agent_t near;
    ck_assert_int_eq(hsa_agent_get_info(a, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NEAREST_CPU, &near),
                     HSA_STATUS_SUCCESS);
    ck_assert_uint_eq(near.handle, cpu.handle);
    uint16_t dim[3];
    ck_assert_int_eq(hsa_agent_get_info(a, HSA_AGENT_INFO_WORKGROUP_MAX_DIM, dim), HSA_STATUS_SUCCESS);
    ck_assert_uint_eq(dim[2], 1024);

    pl.n = 0;
    ck_assert_int_eq(hsa_amd_agent_iterate_memory_pools(a, collect_pool, &pl), HSA_STATUS_SUCCESS);
    ck_assert_uint_eq(pl.n, 2); /* VRAM (coarse), LDS */
    size_t size;
    hsa_amd_segment_t seg;
    hsa_amd_memory_pool_get_info(pl.p[0], HSA_AMD_MEMORY_POOL_INFO_SIZE, &size);
    ck_assert_uint_eq(size, gpus[g].vram);
    hsa_amd_memory_pool_get_info(pl.p[0], HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, &size);
    ck_assert_uint_eq(size, gpus[g].vram & ~4095ull);
    hsa_amd_memory_pool_get_info(pl.p[0], HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
    ck_assert_int_eq(seg, HSA_AMD_SEGMENT_GLOBAL);
    hsa_amd_memory_pool_get_info(pl.p[1], HSA_AMD_MEMORY_POOL_INFO_SIZE, &size);
    ck_assert_uint_eq(size, 64 * 1024);
    hsa_amd_memory_pool_get_info(pl.p[1], HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
    ck_assert_int_eq(seg, HSA_AMD_SEGMENT_GROUP);
    /* The CPU reaches VRAM over the PCIe io_link (one hop) once access is granted. */
    hsa_amd_memory_pool_access_t acc;
    ck_assert_int_eq(hsa_amd_agent_memory_pool_get_info(cpu, pl.p[0],
                         HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &acc), HSA_STATUS_SUCCESS);
    ck_assert_int_eq(acc, HSA_AMD_MEMORY_POOL_ACCESS_DISALLOWED_BY_DEFAULT);
    hsa_amd_memory_pool_link_info_t li;
    hsa_amd_agent_memory_pool_get_info(cpu, pl.p[0], HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO, &li);
    ck_assert_int_eq(li.link_type, HSA_AMD_LINK_INFO_TYPE_PCIE);
    /* io_link flags 3: the flags apply (bit 0) and the link is not coherent (bit 1) */
    ck_assert(!li.coherent_support);
    ck_assert(li.atomic_support_32bit && li.atomic_support_64bit);
    ck_assert_uint_eq(li.numa_distance, 20);
    ck_assert_uint_eq(li.max_bandwidth, 32000);
  }
  /* gfx906 -> gfx1102 memory: p2p link of weight 40 */
  pl.n = 0;
  hsa_amd_agent_iterate_memory_pools(l.a[2], collect_pool, &pl);
  uint32_t hops = 9;
  ck_assert_int_eq(hsa_amd_agent_memory_pool_get_info(l.a[1], pl.p[0],
                       HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS, &hops), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(hops, 1);
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(visible_devices_and_override) {
  setenv("ROCR_VISIBLE_DEVICES", "2,0", 1);
  init_at(WS);
  struct agent_list l = agents();
  ck_assert_uint_eq(l.n, 3);
  ck_assert_str_eq(str(l.a[1], HSA_AGENT_INFO_NAME), "gfx1032");
  ck_assert_str_eq(str(l.a[2], HSA_AGENT_INFO_NAME), "gfx906");
  ck_assert_uint_eq(u32(l.a[1], HSA_AGENT_INFO_NODE), 3); /* node ids stay the driver's */
  hsa_shut_down();

  setenv("ROCR_VISIBLE_DEVICES", "GPU-0DAC90A1", 1); /* a unique UUID prefix */
  init_at(WS);
  l = agents();
  ck_assert_uint_eq(l.n, 2);
  ck_assert_str_eq(str(l.a[1], HSA_AGENT_INFO_NAME), "gfx906");
  hsa_shut_down();

  setenv("ROCR_VISIBLE_DEVICES", "1,7,0", 1); /* 7 is out of range: the list ends there */
  init_at(WS);
  l = agents();
  ck_assert_uint_eq(l.n, 2);
  ck_assert_str_eq(str(l.a[1], HSA_AGENT_INFO_NAME), "gfx1102");
  hsa_shut_down();

  setenv("ROCR_VISIBLE_DEVICES", "", 1); /* none */
  init_at(WS);
  ck_assert_uint_eq(agents().n, 1);
  hsa_shut_down();
  unsetenv("ROCR_VISIBLE_DEVICES");

  setenv("HSA_OVERRIDE_GFX_VERSION", "10.3.0", 1);
  setenv("HSA_OVERRIDE_GFX_VERSION_1", "9.0.8", 1); /* per node wins */
  init_at(WS);
  l = agents();
  ck_assert_uint_eq(l.n, 4);
  ck_assert_str_eq(isa_name(l.a[1]), "amdgcn-amd-amdhsa--gfx908:sramecc+:xnack-");
  ck_assert_str_eq(str(l.a[2], HSA_AGENT_INFO_NAME), "gfx1030");
  ck_assert_str_eq(str(l.a[3], HSA_AGENT_INFO_NAME), "gfx1030");
  hsa_shut_down();
  unsetenv("HSA_OVERRIDE_GFX_VERSION");
  unsetenv("HSA_OVERRIDE_GFX_VERSION_1");
}
END_TEST

/* One GPU node taken from another machine, placed after the workstation's CPU node. */
static char tmp_root[64];
static void make_single(const char *props, const char *bank) {
  snprintf(tmp_root, sizeof(tmp_root), "/tmp/agents-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(tmp_root));
  char cmd[1024];
  snprintf(cmd, sizeof(cmd),
           "set -e; cd %s; mkdir -p nodes/0/mem_banks/0 nodes/1/mem_banks/0; "
           "cp %s/nodes/0/properties nodes/0/; cp %s/nodes/0/mem_banks/0/properties nodes/0/mem_banks/0/;"
           "cp %s/node-properties/%s nodes/1/properties; %s",
           tmp_root, WS, WS, FIX, props,
           bank ? "true" : "printf 'heap_type 1\\nsize_in_bytes 1073741824\\nwidth 64\\n' > nodes/1/mem_banks/0/properties");
  ck_assert_int_eq(system(cmd), 0);
  if (bank) {
    snprintf(cmd, sizeof(cmd), "cp %s/node-properties/%s %s/nodes/1/mem_banks/0/properties", FIX,
             bank, tmp_root);
    ck_assert_int_eq(system(cmd), 0);
  }
}
static void remove_single(void) {
  char cmd[128];
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp_root);
  ck_assert_int_eq(system(cmd), 0);
}

START_TEST(other_gpus) {
  make_single("gfx942-mi300x.properties", "gfx942-mi300x.mem_bank0");
  init_at(tmp_root);
  struct agent_list l = agents();
  ck_assert_uint_eq(l.n, 2);
  ck_assert_str_eq(isa_name(l.a[1]), "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-");
  ck_assert_uint_eq(u32(l.a[1], HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), 304);
  ck_assert_uint_eq(u32(l.a[1], HSA_AMD_AGENT_INFO_NUM_XCC), 8);
  ck_assert_uint_eq(u32(l.a[1], HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES), 32);
  ck_assert_uint_eq(u32(l.a[1], HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG), 14);
  ck_assert_uint_eq(u32(l.a[1], HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES), 0); /* no images */
  ck_assert_str_eq(str(l.a[1], HSA_AMD_AGENT_INFO_UUID), "GPU-4da18c0d44793f03");
  struct pool_list pl = {.n = 0};
  hsa_amd_agent_iterate_memory_pools(l.a[1], collect_pool, &pl);
  ck_assert_uint_eq(pl.n, 3); /* in an XGMI hive VRAM is also offered fine-grained */
  size_t size;
  hsa_amd_memory_pool_get_info(pl.p[0], HSA_AMD_MEMORY_POOL_INFO_SIZE, &size);
  ck_assert_uint_eq(size, 206141652992ull);
  hsa_shut_down();
  remove_single();

  make_single("gfx950-mi350x.properties", NULL);
  init_at(tmp_root);
  l = agents();
  ck_assert_str_eq(isa_name(l.a[1]), "amdgcn-amd-amdhsa--gfx950:sramecc+:xnack-");
  ck_assert_uint_eq(u32(l.a[1], HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), 256);
  pl.n = 0;
  hsa_amd_agent_iterate_memory_pools(l.a[1], collect_pool, &pl);
  hsa_amd_memory_pool_get_info(pl.p[pl.n - 1], HSA_AMD_MEMORY_POOL_INFO_SIZE, &size);
  ck_assert_uint_eq(size, 160 * 1024);
  hsa_shut_down();
  remove_single();

  make_single("gfx1201.properties", NULL);
  init_at(tmp_root);
  l = agents();
  ck_assert_str_eq(isa_name(l.a[1]), "amdgcn-amd-amdhsa--gfx1201");
  ck_assert_uint_eq(u32(l.a[1], HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT), 64);
  ck_assert_uint_eq(u32(l.a[1], HSA_AGENT_INFO_WAVEFRONT_SIZE), 32);
  ck_assert_uint_eq(u32(l.a[1], HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY), 2400);
  hsa_shut_down();
  remove_single();
}
END_TEST

START_TEST(isa_api) {
  init_at(WS);
  struct agent_list l = agents();
  hsa_isa_t agent_isa, isa;
  hsa_agent_get_info(l.a[1], HSA_AGENT_INFO_ISA, &agent_isa);
  ck_assert_int_eq(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-", &isa),
                   HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(isa.handle, agent_isa.handle);
  bool ok = false;
  ck_assert_int_eq(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx906", &isa), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_isa_compatible(isa, agent_isa, &ok), HSA_STATUS_SUCCESS);
  ck_assert(ok); /* "any" runs everywhere */
  hsa_isa_from_name("amdgcn-amd-amdhsa--gfx906:sramecc-", &isa);
  hsa_isa_compatible(isa, agent_isa, &ok);
  ck_assert(!ok);
  hsa_isa_from_name("amdgcn-amd-amdhsa--gfx906:xnack-", &isa);
  hsa_isa_compatible(isa, agent_isa, &ok);
  ck_assert(ok);
  hsa_isa_from_name("amdgcn-amd-amdhsa--gfx90a", &isa);
  hsa_isa_compatible(isa, agent_isa, &ok);
  ck_assert(!ok);
  ck_assert_int_eq(hsa_isa_from_name("amdgcn-amd-amdhsa--gfx1102:xnack-", &isa),
                   HSA_STATUS_ERROR_INVALID_ISA_NAME); /* gfx1102 has no xnack */
  ck_assert_int_eq(hsa_isa_from_name("gfx906", &isa), HSA_STATUS_ERROR_INVALID_ISA_NAME);
  hsa_isa_t bad = {12345};
  ck_assert_int_eq(hsa_isa_compatible(bad, agent_isa, &ok), HSA_STATUS_ERROR_INVALID_ISA);
  char name[80];
  ck_assert_int_eq(hsa_isa_get_info_alt(bad, HSA_ISA_INFO_NAME, name), HSA_STATUS_ERROR_INVALID_ISA);
  ck_assert_int_eq(hsa_isa_get_info(agent_isa, HSA_ISA_INFO_NAME, 1, name),
                   HSA_STATUS_ERROR_INVALID_INDEX);
  uint32_t wf = 0;
  ck_assert_int_eq(hsa_isa_get_info_alt(agent_isa, HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE,
                                        &wf), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(wf, 64);
  hsa_shut_down();
}
END_TEST

START_TEST(system_info) {
  init_at(WS);
  uint16_t major = 0, minor = 0;
  uint64_t freq = 0, wait = 0, t1 = 0, t2 = 0;
  ck_assert_int_eq(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &major), HSA_STATUS_SUCCESS);
  hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MINOR, &minor);
  ck_assert_uint_eq(major, 1);
  ck_assert_uint_eq(minor, 1);
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq);
  ck_assert_uint_eq(freq, 1000000000u);
  hsa_system_get_info(HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT, &wait);
  ck_assert_uint_eq(wait, UINT64_MAX);
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t1);
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t2);
  ck_assert_uint_ge(t2, t1);
  hsa_endianness_t e;
  hsa_system_get_info(HSA_SYSTEM_INFO_ENDIANNESS, &e);
  ck_assert_int_eq(e, HSA_ENDIANNESS_LITTLE);
  hsa_machine_model_t m;
  hsa_system_get_info(HSA_SYSTEM_INFO_MACHINE_MODEL, &m);
  ck_assert_int_eq(m, HSA_MACHINE_MODEL_LARGE);
  uint8_t ext[128];
  hsa_system_get_info(HSA_SYSTEM_INFO_EXTENSIONS, ext);
  ck_assert(ext[HSA_EXTENSION_AMD_PROFILER / 8] & (1u << (HSA_EXTENSION_AMD_PROFILER % 8)));
  ck_assert_int_eq(hsa_system_get_info((hsa_system_info_t)0x7777, &freq),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, NULL),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_shut_down();
}
END_TEST

START_TEST(bad_handles_and_lifetime) {
  char name[64];
  hsa_agent_t bogus = {0x1000};
  ck_assert_int_eq(hsa_agent_get_info(bogus, HSA_AGENT_INFO_NAME, name),
                   HSA_STATUS_ERROR_NOT_INITIALIZED);
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
  init_at(WS);
  init_at(WS); /* reference counted */
  struct agent_list l = agents();
  ck_assert_int_eq(hsa_agent_get_info(bogus, HSA_AGENT_INFO_NAME, name),
                   HSA_STATUS_ERROR_INVALID_AGENT);
  ck_assert_int_eq(hsa_agent_get_info(l.a[1], HSA_AGENT_INFO_NAME, NULL),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_agent_get_info(l.a[1], (hsa_agent_info_t)0x5555, name),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_iterate_agents(NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_region_t r = {l.a[1].handle};
  size_t sz;
  ck_assert_int_eq(hsa_region_get_info(r, HSA_REGION_INFO_SIZE, &sz), HSA_STATUS_ERROR_INVALID_REGION);
  hsa_amd_memory_pool_t p = {8};
  ck_assert_int_eq(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SIZE, &sz),
                   (hsa_status_t)HSA_STATUS_ERROR_INVALID_MEMORY_POOL);
  hsa_cache_t c = {16};
  ck_assert_int_eq(hsa_cache_get_info(c, HSA_CACHE_INFO_LEVEL, name), HSA_STATUS_ERROR_INVALID_CACHE);
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
  ck_assert_str_eq(str(l.a[1], HSA_AGENT_INFO_NAME), "gfx906"); /* still open once */
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_agent_get_info(l.a[1], HSA_AGENT_INFO_NAME, name),
                   HSA_STATUS_ERROR_NOT_INITIALIZED);
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_ERROR_NOT_INITIALIZED);
}
END_TEST

static void *init_loop(void *arg) {
  struct core_options o = {.sysfs_root = WS, .no_device = true};
  for (int i = 0; i < 50; i++) {
    if (core_runtime_acquire(&o) != HSA_STATUS_SUCCESS) return (void *)1;
    char name[64];
    struct agent_list l = {.n = 0};
    if (hsa_iterate_agents(collect, &l) != HSA_STATUS_SUCCESS || l.n != 4) return (void *)2;
    if (hsa_agent_get_info(l.a[3], HSA_AGENT_INFO_NAME, name) != HSA_STATUS_SUCCESS ||
        strcmp(name, "gfx1032") != 0)
      return (void *)3;
    if (hsa_shut_down() != HSA_STATUS_SUCCESS) return (void *)4;
  }
  return arg;
}

START_TEST(threads) {
  pthread_t t[8];
  for (int i = 0; i < 8; i++) pthread_create(&t[i], NULL, init_loop, NULL);
  for (int i = 0; i < 8; i++) {
    void *rc;
    pthread_join(t[i], &rc);
    ck_assert_ptr_null(rc);
  }
  ck_assert(!core_runtime_is_open());
}
END_TEST

START_TEST(no_kfd) {
  struct core_options o = {.sysfs_root = WS, .kfd_path = "/nonexistent/kfd"};
  ck_assert_int_eq(core_runtime_acquire(&o), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  ck_assert(!core_runtime_is_open());
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("agents");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, workstation_agents);
  tcase_add_test(tc, visible_devices_and_override);
  tcase_add_test(tc, other_gpus);
  tcase_add_test(tc, isa_api);
  tcase_add_test(tc, system_info);
  tcase_add_test(tc, bad_handles_and_lifetime);
  tcase_add_test(tc, threads);
  tcase_add_test(tc, no_kfd);
  suite_add_tcase(s, tc);
  return s;
}
