/* SPDX-License-Identifier: MIT */
/* rdna_client.c — what needs no shader on an RDNA3/RDNA4 model (sim_rdna.sh): on every GPU
 * agent, an AQL queue of the runtime's making is accepted by the driver model's rules (the
 * node's CWSR, control stack and EOP sizes, the MES write-pointer rules), then SDMA copies
 * host -> device -> host (hsa_amd_memory_async_copy) and a fill (hsa_amd_memory_fill) of
 * device memory read back, each compared with what the host computed; CU masks go in WGP
 * pairs (half a pair refused). Prints one "ok" line
 * per check; exit 0 = pass. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa.h"
#include "hsa_ext_amd.h"

#define FAIL(...) do { printf("FAIL "); printf(__VA_ARGS__); printf("\n"); exit(1); } while (0)
#define CHECK(x) do { hsa_status_t s_ = (x); if (s_ != HSA_STATUS_SUCCESS) FAIL("%s: 0x%x", #x, (unsigned)s_); } while (0)

static hsa_agent_t cpu, gpus[8];
static unsigned ngpu;
static hsa_amd_memory_pool_t pool, host_pool;
static int have_pool, have_host;

static hsa_status_t agent_cb(hsa_agent_t a, void *d) {
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && ngpu < 8) gpus[ngpu++] = a;
  if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) cpu = a;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t pool_cb(hsa_amd_memory_pool_t p, void *data) {
  hsa_amd_segment_t seg;
  uint32_t flags = 0;
  bool alloc = false;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
  if (seg != HSA_AMD_SEGMENT_GLOBAL || !alloc) return HSA_STATUS_SUCCESS;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (data == &pool && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !have_pool)
    pool = p, have_pool = 1;
  if (data == &host_pool && (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !have_host)
    host_pool = p, have_host = 1;
  return HSA_STATUS_SUCCESS;
}

static void copy(void *dst, hsa_agent_t da, const void *src, hsa_agent_t sa, size_t n) {
  hsa_signal_t done;
  CHECK(hsa_signal_create(1, 0, NULL, &done));
  CHECK(hsa_amd_memory_async_copy(dst, da, src, sa, n, 0, NULL, done));
  if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 60ull * 1000000000ull,
                                HSA_WAIT_STATE_BLOCKED) != 0)
    FAIL("async copy of %zu bytes did not complete", n);
  CHECK(hsa_signal_destroy(done));
}

int main(void) {
  CHECK(hsa_init());
  CHECK(hsa_iterate_agents(agent_cb, NULL));
  if (!ngpu) FAIL("no GPU agent");
  have_host = 0;
  CHECK(hsa_amd_agent_iterate_memory_pools(cpu, pool_cb, &host_pool));
  if (!have_host) FAIL("no fine-grained system pool");
  const size_t n = (5u << 20) + 12;   /* more than one 4 MiB COPY_LINEAR piece */
  uint8_t *h = NULL, *back = NULL;
  CHECK(hsa_amd_memory_pool_allocate(host_pool, n, 0, (void **)&h));
  CHECK(hsa_amd_memory_pool_allocate(host_pool, n, 0, (void **)&back));
  for (unsigned g = 0; g < ngpu; g++) {
    char name[64] = {0};
    CHECK(hsa_agent_get_info(gpus[g], HSA_AGENT_INFO_NAME, name));
    /* LLVM's target IDs: gfx11/gfx12 have neither xnack nor sramecc */
    char full[96], feat[112];
    snprintf(full, sizeof full, "amdgcn-amd-amdhsa--%s", name);
    hsa_isa_t isa;
    CHECK(hsa_isa_from_name(full, &isa));
    snprintf(feat, sizeof feat, "%s:xnack+", full);
    if (hsa_isa_from_name(feat, &isa) != HSA_STATUS_ERROR_INVALID_ISA_NAME) FAIL("%s accepted", feat);
    snprintf(feat, sizeof feat, "%s:sramecc-", full);
    if (hsa_isa_from_name(feat, &isa) != HSA_STATUS_ERROR_INVALID_ISA_NAME) FAIL("%s accepted", feat);
    hsa_queue_t *q = NULL;
    CHECK(hsa_queue_create(gpus[g], 256, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
    /* CUs go in WGP pairs: half a pair is refused, whole pairs reach the driver */
    uint32_t odd[4] = {0x1u, 0, 0, 0}, pairs[4] = {0xf0f0000fu, 0x3u, 0, 0}, got[4] = {0};
    hsa_status_t st = hsa_amd_queue_cu_set_mask(q, 128, odd);
    if (st != HSA_STATUS_ERROR_INVALID_ARGUMENT) FAIL("GPU %u: half a WGP: 0x%x", g, (unsigned)st);
    CHECK(hsa_amd_queue_cu_set_mask(q, 128, pairs));
    CHECK(hsa_amd_queue_cu_get_mask(q, 128, got));
    if (got[0] != pairs[0] || got[1] != pairs[1]) FAIL("GPU %u: CU mask reads 0x%x 0x%x", g, got[0], got[1]);
    CHECK(hsa_queue_destroy(q));
    printf("ok %s GPU %u: AQL queue created, CU mask in WGP pairs, destroyed\n", name, g);
    have_pool = 0;
    CHECK(hsa_amd_agent_iterate_memory_pools(gpus[g], pool_cb, &pool));
    if (!have_pool) FAIL("no coarse-grained pool on GPU %u", g);
    uint8_t *d = NULL;
    CHECK(hsa_amd_memory_pool_allocate(pool, n, 0, (void **)&d));
    CHECK(hsa_amd_agents_allow_access(1, &gpus[g], NULL, h));
    CHECK(hsa_amd_agents_allow_access(1, &gpus[g], NULL, back));
    for (size_t i = 0; i < n; i++) h[i] = (uint8_t)(i * 131u + g * 7u + (i >> 13));
    memset(back, 0, n);
    copy(d, gpus[g], h, cpu, n);
    copy(back, cpu, d, gpus[g], n);
    if (memcmp(back, h, n)) FAIL("GPU %u: host -> device -> host copy differs", g);
    printf("ok %s GPU %u: %zu bytes host -> device -> host\n", name, g, n);
    const uint32_t pattern = 0xc0ffee00u + g;
    CHECK(hsa_amd_memory_fill(d + 64, pattern, (n - 128) / 4));
    copy(back, cpu, d, gpus[g], n);
    for (size_t i = 0; i < n; i++) {
      uint8_t want = i >= 64 && i < 64 + (n - 128) / 4 * 4 ? (uint8_t)(pattern >> 8 * (i % 4)) : h[i];
      if (back[i] != want) FAIL("GPU %u: fill: byte %zu is 0x%02x, want 0x%02x", g, i, back[i], want);
    }
    printf("ok %s GPU %u: fill of %zu dwords\n", name, g, (n - 128) / 4);
    CHECK(hsa_amd_memory_pool_free(d));
  }
  CHECK(hsa_amd_memory_pool_free(h));
  CHECK(hsa_amd_memory_pool_free(back));
  CHECK(hsa_shut_down());
  printf("ok shut_down\n");
  return 0;
}
