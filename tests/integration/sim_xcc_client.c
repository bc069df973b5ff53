/* SPDX-License-Identifier: MIT */
/* sim_xcc_client.c — where an MI300X (gfx942, SPX: 8 XCCs of 4 engines) runs a dispatch's
 * work-groups, through the HSA API. argv[1] is a code object whose kernel ids(out) stores,
 * from the first work-item of each work-group g, HW_REG_XCC_ID at out[2g] and HW_REG_HW_ID
 * at out[2g + 1]. 64 work-groups run under several masks of hsa_amd_queue_cu_set_mask; for
 * each, one "name ok" / "name FAIL why" line (N = argv[2], the XCC count: 8 by default, 6 for
 * MI300A, gfx942-apu):
 *   - work-group g runs on XCC g % N (the hardware deals work-groups to the XCCs in turn;
 *     every mask here leaves each XCC some CU);
 *   - its CU is in the mask: the driver gives XCC x the mask's bits x, x + N, x + 2N, ...,
 *     and spreads each XCC's share as on one-XCC chips (engines first, then CUs), so CU c of
 *     engine e on XCC x is mask bit x + N * (4 c + e) (for c < 9, which every engine has);
 *   - the work-groups of an XCC use min(their number, its CUs in the mask) different CUs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLIENT_CHECK_COUNTS
#include "lib/client.h"

enum { GROUPS = 64, MAX_XCCS = 8, SES = 4 };
static unsigned XCCS = 8;   /* argv[2]: 8 on MI300X (gfx942), 6 on MI300A (gfx942-apu) */

static hsa_agent_t gpu;
static int have_gpu;
static hsa_region_t sys_region, kernarg_region;

static hsa_status_t find_regions(hsa_region_t r, void *d)
{
  (void)d;
  hsa_region_segment_t seg;
  uint32_t flags;
  hsa_region_get_info(r, HSA_REGION_INFO_SEGMENT, &seg);
  if (seg != HSA_REGION_SEGMENT_GLOBAL)
    return HSA_STATUS_SUCCESS;
  hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
  if (flags & HSA_REGION_GLOBAL_FLAG_KERNARG)
    kernarg_region = r;
  else if ((flags & HSA_REGION_GLOBAL_FLAG_FINE_GRAINED) && !sys_region.handle)
    sys_region = r;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_agents(hsa_agent_t a, void *d)
{
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !have_gpu) {
    gpu = a;
    have_gpu = 1;
  } else if (t == HSA_DEVICE_TYPE_CPU) {
    hsa_agent_iterate_regions(a, find_regions, NULL);
  }
  return HSA_STATUS_SUCCESS;
}

static int bit_set(const uint32_t *mask, uint32_t nbits, int b)
{
  return !nbits || (b >= 0 && (uint32_t)b < nbits && (mask[b / 32] >> (b % 32) & 1));
}

static void xcc_check(const char *name, const struct client_kernel *k, const uint32_t *mask,
                      uint32_t nbits)
{
  hsa_queue_t *q;
  if (hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q)) {
    CHECK(name, 0, "cannot create a queue");
    return;
  }
  hsa_status_t st = nbits ? hsa_amd_queue_cu_set_mask(q, nbits, mask) : HSA_STATUS_SUCCESS;
  uint32_t *out;
  void *ka;
  hsa_memory_allocate(sys_region, GROUPS * 8, (void **)&out);
  memset(out, 0xff, GROUPS * 8);
  hsa_memory_allocate(kernarg_region, 64, &ka);
  memset(ka, 0, 64);
  memcpy(ka, &out, sizeof out);
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  client_dispatch(q, k, ka, GROUPS * 64, 64, done);
  int ok = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 30000000000ull,
                                     HSA_WAIT_STATE_BLOCKED) == 0;
  int bad = -1, why = 0;
  unsigned distinct[MAX_XCCS] = {0}, want[MAX_XCCS] = {0};
  uint8_t seen[MAX_XCCS][64] = {{0}};
  for (int g = 0; ok && g < GROUPS && bad < 0; g++) {
    uint32_t xcc = out[2 * g], hw = out[2 * g + 1];
    uint32_t cu = hw >> 8 & 15, sh = hw >> 12 & 1, se = hw >> 13 & 3;
    int pos = (int)(cu * SES + se), b = (int)xcc + (int)XCCS * pos;
    if (xcc != (uint32_t)g % XCCS) { bad = g; why = 1; }
    else if (sh || cu >= 9 || !bit_set(mask, nbits, b)) { bad = g; why = 2; }
    else if (!seen[xcc][pos]) { seen[xcc][pos] = 1; distinct[xcc]++; }
  }
  int spread = 1;
  for (unsigned x = 0; x < XCCS; x++) {
    unsigned n = 0;
    for (uint32_t b = x; nbits && b < nbits; b += XCCS)
      n += mask[b / 32] >> (b % 32) & 1;
    unsigned groups = (GROUPS - x + XCCS - 1) / XCCS;   /* work-groups x, x + XCCS, ... */
    want[x] = !nbits || n > groups ? groups : n;
    spread &= distinct[x] == want[x];
  }
  CHECK(name, st == HSA_STATUS_SUCCESS && ok && bad < 0 && spread,
        "set_mask 0x%x, done %d, group %d %s (XCC %u, HW_ID 0x%08x), XCC 0 used %u CUs of %u",
        (unsigned)st, ok, bad, why == 1 ? "on the wrong XCC" : why == 2 ? "on a CU outside the mask" : "",
        bad >= 0 ? out[2 * bad] : 0, bad >= 0 ? out[2 * bad + 1] : 0, distinct[0], want[0]);
  hsa_signal_destroy(done);
  hsa_memory_free(out);
  hsa_queue_destroy(q);
}

int main(int argc, char **argv)
{
  if (argc < 2 || hsa_init()) {
    printf("usage: sim_xcc_client CODE_OBJECT (hsa_init must succeed)\n");
    return 1;
  }
  hsa_iterate_agents(find_agents, NULL);
  hsa_executable_t exe;
  struct client_kernel ids;
  if (!have_gpu || client_load_file(gpu, argv[1], HSA_PROFILE_FULL, &exe) ||
      client_kernel(exe, gpu, "ids.kd", &ids)) {
    printf("load FAIL\n");
    return 1;
  }
  if (argc > 2)
    XCCS = (unsigned)atoi(argv[2]);
  if (XCCS < 1 || XCCS > MAX_XCCS) {
    printf("xcc count FAIL %u\n", XCCS);
    return 1;
  }
  /* bit b names position b / XCCS (CU c of engine e: 4 c + e) of XCC b % XCCS */
  uint32_t n = XCCS, all = (1u << n) - 1;
  uint64_t cu0_all = (1ull << (4 * n)) - 1, cu1_se0 = (uint64_t)all << (4 * n);
  xcc_check("xcc_all", &ids, NULL, 0);
  xcc_check("xcc_first_cu", &ids, (uint32_t[]){ all }, 32);           /* CU 0 of engine 0 */
  xcc_check("xcc_se1_cu0", &ids, (uint32_t[]){ all << n }, 32);       /* CU 0 of engine 1 */
  xcc_check("xcc_cu0_all_se", &ids, (uint32_t[]){ (uint32_t)cu0_all, (uint32_t)(cu0_all >> 32) },
            64);                                                        /* CU 0 everywhere */
  xcc_check("xcc_cu1_se0", &ids, (uint32_t[]){ (uint32_t)cu1_se0, (uint32_t)(cu1_se0 >> 32) },
            64);                                                        /* CU 1 of engine 0 */
  xcc_check("xcc_odd_bits", &ids, (uint32_t[]){ 0xaaaaaaaa, 0x55555555, 0xffffffff }, 96);
  return failures ? 1 : 0;
}
