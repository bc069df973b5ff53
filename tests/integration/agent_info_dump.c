/* SPDX-License-Identifier: MIT */
/* agent_info_dump.c — prints everything the information API says about the system, one
 * "key status value" line each, so two runtimes can be compared line by line
 * (tests/integration/agent_info_vs_rocr.sh). Handles are printed as indices or names. */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <hsa/hsa_ext_image.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MAXA 16
static hsa_agent_t agents[MAXA];
static unsigned nagents;

static hsa_status_t add_agent(hsa_agent_t a, void *d) {
  (void)d;
  if (nagents < MAXA) agents[nagents++] = a;
  return HSA_STATUS_SUCCESS;
}

static int agent_index(hsa_agent_t a) {
  for (unsigned i = 0; i < nagents; i++)
    if (agents[i].handle == a.handle) return (int)i;
  return -1;
}

enum kind { U8, U16, U32, U64, BOOL, STR, BYTES128, BYTES8, DIM3_16, DIM3_32, CACHE4, ISA, AGENT };

static void print_value(enum kind k, const void *v) {
  switch (k) {
  case U8: printf("%u", *(const uint8_t *)v); break;
  case U16: printf("%u", *(const uint16_t *)v); break;
  case U32: printf("%" PRIu32, *(const uint32_t *)v); break;
  case U64: printf("%" PRIu64, *(const uint64_t *)v); break;
  case BOOL: printf("%d", *(const bool *)v); break;
  case STR: printf("'%.64s'", (const char *)v); break;
  case BYTES8:
  case BYTES128:
    for (unsigned i = 0; i < (k == BYTES8 ? 8u : 128u); i++) printf("%02x", ((const uint8_t *)v)[i]);
    break;
  case DIM3_16: {
    const uint16_t *d = v;
    printf("%u,%u,%u", d[0], d[1], d[2]);
    break;
  }
  case DIM3_32: case CACHE4: {
    const uint32_t *d = v;
    printf("%u,%u,%u", d[0], d[1], d[2]);
    if (k == CACHE4) printf(",%u", d[3]);
    break;
  }
  case ISA: {
    hsa_isa_t isa = *(const hsa_isa_t *)v;
    char name[128] = "";
    if (isa.handle == 0) printf("none");
    else if (hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name) == HSA_STATUS_SUCCESS)
      printf("%s", name);
    else printf("?");
    break;
  }
  case AGENT: printf("agent%d", agent_index(*(const hsa_agent_t *)v)); break;
  }
}

struct attr { const char *name; int id; enum kind kind; };
#define A(id, k) {#id, id, k}
static const struct attr agent_attrs[] = {
  A(HSA_AGENT_INFO_NAME, STR), A(HSA_AGENT_INFO_VENDOR_NAME, STR), A(HSA_AGENT_INFO_FEATURE, U32),
  A(HSA_AGENT_INFO_MACHINE_MODEL, U32), A(HSA_AGENT_INFO_PROFILE, U32),
  A(HSA_AGENT_INFO_DEFAULT_FLOAT_ROUNDING_MODE, U32),
  A(HSA_AGENT_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES, U32),
  A(HSA_AGENT_INFO_FAST_F16_OPERATION, BOOL), A(HSA_AGENT_INFO_WAVEFRONT_SIZE, U32),
  A(HSA_AGENT_INFO_WORKGROUP_MAX_DIM, DIM3_16), A(HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, U32),
  A(HSA_AGENT_INFO_GRID_MAX_DIM, DIM3_32), A(HSA_AGENT_INFO_GRID_MAX_SIZE, U32),
  A(HSA_AGENT_INFO_FBARRIER_MAX_SIZE, U32), A(HSA_AGENT_INFO_QUEUES_MAX, U32),
  A(HSA_AGENT_INFO_QUEUE_MIN_SIZE, U32), A(HSA_AGENT_INFO_QUEUE_MAX_SIZE, U32),
  A(HSA_AGENT_INFO_QUEUE_TYPE, U32), A(HSA_AGENT_INFO_NODE, U32), A(HSA_AGENT_INFO_DEVICE, U32),
  A(HSA_AGENT_INFO_CACHE_SIZE, CACHE4), A(HSA_AGENT_INFO_ISA, ISA),
  A(HSA_AGENT_INFO_EXTENSIONS, BYTES128), A(HSA_AGENT_INFO_VERSION_MAJOR, U16),
  A(HSA_AGENT_INFO_VERSION_MINOR, U16),
  A(HSA_EXT_AGENT_INFO_MAX_IMAGE_RD_HANDLES, U32), A(HSA_EXT_AGENT_INFO_MAX_IMAGE_RORW_HANDLES, U32),
  A(HSA_EXT_AGENT_INFO_MAX_SAMPLER_HANDLERS, U32),
  A(HSA_AMD_AGENT_INFO_CHIP_ID, U32), A(HSA_AMD_AGENT_INFO_CACHELINE_SIZE, U32),
  A(HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, U32), A(HSA_AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY, U32),
  A(HSA_AMD_AGENT_INFO_DRIVER_NODE_ID, U32), A(HSA_AMD_AGENT_INFO_MAX_ADDRESS_WATCH_POINTS, U32),
  A(HSA_AMD_AGENT_INFO_BDFID, U32), A(HSA_AMD_AGENT_INFO_MEMORY_WIDTH, U32),
  A(HSA_AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY, U32), A(HSA_AMD_AGENT_INFO_PRODUCT_NAME, STR),
  A(HSA_AMD_AGENT_INFO_MAX_WAVES_PER_CU, U32), A(HSA_AMD_AGENT_INFO_NUM_SIMDS_PER_CU, U32),
  A(HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES, U32), A(HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE, U32),
  A(HSA_AMD_AGENT_INFO_DOMAIN, U32), A(HSA_AMD_AGENT_INFO_COOPERATIVE_QUEUES, BOOL),
  A(HSA_AMD_AGENT_INFO_UUID, STR), A(HSA_AMD_AGENT_INFO_ASIC_REVISION, U32),
  A(HSA_AMD_AGENT_INFO_SVM_DIRECT_HOST_ACCESS, BOOL),
  A(HSA_AMD_AGENT_INFO_COOPERATIVE_COMPUTE_UNIT_COUNT, U32),
  A(HSA_AMD_AGENT_INFO_TIMESTAMP_FREQUENCY, U64), A(HSA_AMD_AGENT_INFO_ASIC_FAMILY_ID, U32),
  A(HSA_AMD_AGENT_INFO_UCODE_VERSION, U32), A(HSA_AMD_AGENT_INFO_SDMA_UCODE_VERSION, U32),
  A(HSA_AMD_AGENT_INFO_NUM_SDMA_ENG, U32), A(HSA_AMD_AGENT_INFO_NUM_SDMA_XGMI_ENG, U32),
  A(HSA_AMD_AGENT_INFO_IOMMU_SUPPORT, U32), A(HSA_AMD_AGENT_INFO_NUM_XCC, U32),
  A(HSA_AMD_AGENT_INFO_DRIVER_UID, U32), A(HSA_AMD_AGENT_INFO_NEAREST_CPU, AGENT),
  A(HSA_AMD_AGENT_INFO_MEMORY_PROPERTIES, BYTES8),
};
static const struct attr system_attrs[] = {
  A(HSA_SYSTEM_INFO_VERSION_MAJOR, U16), A(HSA_SYSTEM_INFO_VERSION_MINOR, U16),
  A(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, U64), A(HSA_SYSTEM_INFO_SIGNAL_MAX_WAIT, U64),
  A(HSA_SYSTEM_INFO_ENDIANNESS, U32), A(HSA_SYSTEM_INFO_MACHINE_MODEL, U32),
  A(HSA_SYSTEM_INFO_EXTENSIONS, BYTES128), A(HSA_AMD_SYSTEM_INFO_SVM_SUPPORTED, BOOL),
  A(HSA_AMD_SYSTEM_INFO_SVM_ACCESSIBLE_BY_DEFAULT, BOOL),
};
static const struct attr pool_attrs[] = {
  A(HSA_AMD_MEMORY_POOL_INFO_SEGMENT, U32), A(HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, U32),
  A(HSA_AMD_MEMORY_POOL_INFO_SIZE, U64), A(HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, BOOL),
  A(HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_GRANULE, U64),
  A(HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALIGNMENT, U64),
  A(HSA_AMD_MEMORY_POOL_INFO_ACCESSIBLE_BY_ALL, BOOL), A(HSA_AMD_MEMORY_POOL_INFO_ALLOC_MAX_SIZE, U64),
};
static const struct attr region_attrs[] = {
  A(HSA_REGION_INFO_SEGMENT, U32), A(HSA_REGION_INFO_GLOBAL_FLAGS, U32), A(HSA_REGION_INFO_SIZE, U64),
  A(HSA_REGION_INFO_ALLOC_MAX_SIZE, U64), A(HSA_REGION_INFO_RUNTIME_ALLOC_ALLOWED, BOOL),
  A(HSA_REGION_INFO_RUNTIME_ALLOC_GRANULE, U64), A(HSA_REGION_INFO_RUNTIME_ALLOC_ALIGNMENT, U64),
  A(HSA_AMD_REGION_INFO_HOST_ACCESSIBLE, BOOL), A(HSA_AMD_REGION_INFO_BUS_WIDTH, U32),
  A(HSA_AMD_REGION_INFO_MAX_CLOCK_FREQUENCY, U32),
};
static const struct attr isa_attrs[] = {
  A(HSA_ISA_INFO_NAME_LENGTH, U32), A(HSA_ISA_INFO_NAME, STR),
  A(HSA_ISA_INFO_CALL_CONVENTION_COUNT, U32),
  A(HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONT_SIZE, U32),
  A(HSA_ISA_INFO_CALL_CONVENTION_INFO_WAVEFRONTS_PER_COMPUTE_UNIT, U32),
  A(HSA_ISA_INFO_MACHINE_MODELS, U16), A(HSA_ISA_INFO_PROFILES, U16),
  A(HSA_ISA_INFO_DEFAULT_FLOAT_ROUNDING_MODES, U32),
  A(HSA_ISA_INFO_BASE_PROFILE_DEFAULT_FLOAT_ROUNDING_MODES, U32),
  A(HSA_ISA_INFO_FAST_F16_OPERATION, BOOL), A(HSA_ISA_INFO_WORKGROUP_MAX_DIM, DIM3_16),
  A(HSA_ISA_INFO_WORKGROUP_MAX_SIZE, U32), A(HSA_ISA_INFO_GRID_MAX_DIM, DIM3_32),
  A(HSA_ISA_INFO_GRID_MAX_SIZE, U64), A(HSA_ISA_INFO_FBARRIER_MAX_SIZE, U32),
};
#undef A

static void line(const char *prefix, const struct attr *a, hsa_status_t st, const void *v) {
  printf("%s %s status=%d", prefix, a->name, (int)st);
  if (st == HSA_STATUS_SUCCESS) {
    printf(" value=");
    print_value(a->kind, v);
  }
  printf("\n");
}

#define N(x) (sizeof(x) / sizeof((x)[0]))
#define MAXP 16
static hsa_amd_memory_pool_t pools[MAXP];
static unsigned npools;
static hsa_status_t add_pool(hsa_amd_memory_pool_t p, void *d) {
  (void)d;
  if (npools < MAXP) pools[npools++] = p;
  return HSA_STATUS_SUCCESS;
}
static hsa_region_t regions[MAXP];
static unsigned nregions;
static hsa_status_t add_region(hsa_region_t r, void *d) {
  (void)d;
  if (nregions < MAXP) regions[nregions++] = r;
  return HSA_STATUS_SUCCESS;
}
static hsa_status_t print_cache(hsa_cache_t c, void *d) {
  uint8_t level = 0;
  uint32_t size = 0;
  hsa_cache_get_info(c, HSA_CACHE_INFO_LEVEL, &level);
  hsa_cache_get_info(c, HSA_CACHE_INFO_SIZE, &size);
  printf("%s cache level=%u size=%u\n", (const char *)d, level, size);
  return HSA_STATUS_SUCCESS;
}

int main(void) {
  char prefix[64];
  uint8_t buf[256];
  setvbuf(stdout, NULL, _IOLBF, 0); /* keep what was printed if a runtime aborts */
  if (hsa_init() != HSA_STATUS_SUCCESS) {
    printf("hsa_init failed\n");
    return 1;
  }
  for (unsigned i = 0; i < N(system_attrs); i++) {
    memset(buf, 0, sizeof(buf));
    line("system", &system_attrs[i], hsa_system_get_info((hsa_system_info_t)system_attrs[i].id, buf), buf);
  }
  hsa_iterate_agents(add_agent, NULL);
  printf("agents %u\n", nagents);
  for (unsigned i = 0; i < nagents; i++) {
    snprintf(prefix, sizeof(prefix), "agent%u", i);
    for (unsigned k = 0; k < N(agent_attrs); k++) {
      memset(buf, 0, sizeof(buf));
      line(prefix, &agent_attrs[k],
           hsa_agent_get_info(agents[i], (hsa_agent_info_t)agent_attrs[k].id, buf), buf);
    }
    hsa_isa_t isa = {0};
    hsa_agent_get_info(agents[i], HSA_AGENT_INFO_ISA, &isa);
    if (isa.handle) {
      snprintf(prefix, sizeof(prefix), "agent%u.isa", i);
      for (unsigned k = 0; k < N(isa_attrs); k++) {
        memset(buf, 0, sizeof(buf));
        line(prefix, &isa_attrs[k], hsa_isa_get_info_alt(isa, (hsa_isa_info_t)isa_attrs[k].id, buf),
             buf);
      }
    }
    snprintf(prefix, sizeof(prefix), "agent%u", i);
    hsa_agent_iterate_caches(agents[i], print_cache, prefix);
    nregions = 0;
    hsa_agent_iterate_regions(agents[i], add_region, NULL);
    printf("agent%u regions %u\n", i, nregions);
    for (unsigned r = 0; r < nregions; r++) {
      snprintf(prefix, sizeof(prefix), "agent%u.region%u", i, r);
      for (unsigned k = 0; k < N(region_attrs); k++) {
        memset(buf, 0, sizeof(buf));
        line(prefix, &region_attrs[k],
             hsa_region_get_info(regions[r], (hsa_region_info_t)region_attrs[k].id, buf), buf);
      }
    }
  }
  /* Pools: every agent's own, then access and hops from every agent. */
  for (unsigned i = 0; i < nagents; i++) {
    unsigned first = npools;
    hsa_amd_agent_iterate_memory_pools(agents[i], add_pool, NULL);
    printf("agent%u pools %u\n", i, npools - first);
    for (unsigned p = first; p < npools; p++) {
      snprintf(prefix, sizeof(prefix), "pool%u(agent%u)", p, i);
      for (unsigned k = 0; k < N(pool_attrs); k++) {
        memset(buf, 0, sizeof(buf));
        line(prefix, &pool_attrs[k],
             hsa_amd_memory_pool_get_info(pools[p], (hsa_amd_memory_pool_info_t)pool_attrs[k].id, buf),
             buf);
      }
    }
  }
  for (unsigned i = 0; i < nagents; i++)
    for (unsigned p = 0; p < npools; p++) {
      uint32_t access = 99, hops = 99;
      hsa_amd_memory_pool_link_info_t li;
      memset(&li, 0, sizeof(li));
      hsa_amd_agent_memory_pool_get_info(agents[i], pools[p], HSA_AMD_AGENT_MEMORY_POOL_INFO_ACCESS, &access);
      hsa_amd_agent_memory_pool_get_info(agents[i], pools[p], HSA_AMD_AGENT_MEMORY_POOL_INFO_NUM_LINK_HOPS, &hops);
      hsa_amd_agent_memory_pool_get_info(agents[i], pools[p], HSA_AMD_AGENT_MEMORY_POOL_INFO_LINK_INFO, &li);
      printf("agent%u->pool%u access=%u hops=%u link type=%d atomics=%d,%d coherent=%d bw=%u..%u "
             "lat=%u..%u numa=%u\n", i, p, access, hops, (int)li.link_type, li.atomic_support_32bit,
             li.atomic_support_64bit, li.coherent_support, li.min_bandwidth, li.max_bandwidth,
             li.min_latency, li.max_latency, li.numa_distance);
    }
  /* No bogus handle here: ROCR dereferences it and crashes (ours returns INVALID_AGENT,
   * tests/unit/test_agents.c). */
  char name[64];
  printf("null value status=%d\n", (int)hsa_agent_get_info(agents[0], HSA_AGENT_INFO_NAME, NULL));
  printf("shut_down status=%d\n", (int)hsa_shut_down());
  printf("after shut_down status=%d\n", (int)hsa_agent_get_info(agents[0], HSA_AGENT_INFO_NAME, name));
  return 0;
}
