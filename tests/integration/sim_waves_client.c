/* SPDX-License-Identifier: MIT */
/* sim_waves_client.c — where waves run and how they are stopped, through the plain HSA API
 * (built against Debian's ROCR 5.2.3 or ours). argv[1] is a code object with two kernels:
 *   spin(flag, started): every work-group counts itself in `started`, then waits for a flag
 *     nobody sets: a kernel that never ends;
 *   cuid(out): the first work-item of each work-group stores HW_REG_HW_ID (HW_REG_HW_ID1 on
 *     gfx11/gfx12, whose CU masks enable work-group processors: CU pairs).
 * Checks, one "name ok" / "name FAIL why" line each:
 *   - cuid under hsa_amd_queue_cu_set_mask with several masks: every recorded CU (SE, SH, CU
 *     fields of HW_ID, turned back into a mask bit as the driver spreads the mask over the
 *     shader engines) is in the mask, and a mask of several CUs shows more than one;
 *   - spin on a queue that is then destroyed: hsa_queue_destroy returns within a second;
 *     a dispatch on a new queue afterwards completes.
 * argv[2] = "exit": dispatch spin and return from main without destroying anything (the
 * process must still end); "shutdown": dispatch spin and call hsa_shut_down with its queue
 * alive (it must return within a second); "nocu": the checks without the CU masks (gfx942,
 * whose masks sim_xcc.sh checks per XCC). Exit 0 only if every check passed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CLIENT_CHECK_COUNTS
#include "lib/client.h"

static hsa_agent_t gpu, cpu;
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
    cpu = a;
    hsa_agent_iterate_regions(a, find_regions, NULL);
  }
  return HSA_STATUS_SUCCESS;
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static hsa_executable_t exe;

/* Submits `k` over `groups` work-groups of `wg` items with two pointer arguments. */
static void dispatch(hsa_queue_t *q, const struct client_kernel *k, uint32_t groups, uint16_t wg,
                     void *a0, void *a1, hsa_signal_t done)
{
  void *ka;
  hsa_memory_allocate(kernarg_region, k->kernarg_size < 64 ? 64 : k->kernarg_size, &ka);
  memset(ka, 0, k->kernarg_size);
  void *args[2] = { a0, a1 };
  memcpy(ka, args, k->kernarg_size < sizeof args ? k->kernarg_size : sizeof args);
  client_dispatch(q, k, ka, groups * wg, wg, done);
}

static uint32_t n_se, n_sh, n_cu;   /* shader engines, arrays per engine, CUs on the GPU */
static int wgp;                     /* gfx11+: CU masks and HW_ID1 in work-group processors */

/* The CU-mask bit of the CU a HW_ID names: the driver spreads mask bits over the engines
 * first, then the arrays, then the CUs of an array (bit i: SE i % n_se, ...). In WGP mode
 * (gfx10+) a pair of bits names a WGP (HW_ID1: WGP_ID 13:10, SA_ID 16, SE_ID 20:18) in the
 * same order: the first bit of its pair. */
static int mask_bit(uint32_t hw_id)
{
  if (wgp) {
    uint32_t w = hw_id >> 10 & 15, sa = hw_id >> 16 & 1, se = hw_id >> 18 & 7;
    if (se >= n_se || sa >= n_sh || w >= n_cu / (n_se * n_sh) / 2)
      return -1;
    return (int)((w * n_sh + sa) * n_se + se) * 2;
  }
  uint32_t cu = hw_id >> 8 & 15, sh = hw_id >> 12 & 1, se = hw_id >> 13 & 7;
  if (se >= n_se || sh >= n_sh || cu >= n_cu / (n_se * n_sh))
    return -1;
  return (int)((cu * n_sh + sh) * n_se + se);
}

static int mask_has(const uint32_t *mask, int b)
{
  uint32_t en = wgp ? 3 : 1;   /* either bit of a WGP's pair enables it */
  return mask[b / 32] >> (b % 32) & en;
}

enum { GROUPS = 64 };

/* cuid under `mask` (words of n bits; n 0 = no mask set): every CU in the mask, and more than
 * one when the mask has several. */
static void cu_mask_check(const char *name, const struct client_kernel *k, const uint32_t *mask,
                          uint32_t nbits)
{
  hsa_queue_t *q;
  if (hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q)) {
    CHECK(name, 0, "cannot create a queue");
    return;
  }
  hsa_status_t st = nbits ? hsa_amd_queue_cu_set_mask(q, nbits, mask) : HSA_STATUS_SUCCESS;
  uint32_t *out;
  hsa_memory_allocate(sys_region, GROUPS * 4, (void **)&out);
  memset(out, 0xff, GROUPS * 4);
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  dispatch(q, k, GROUPS, 64, out, NULL, done);
  int ok = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, 30000000000ull,
                                     HSA_WAIT_STATE_BLOCKED) == 0;
  int in_mask = 1, distinct = 0, wanted = 0, bad = -1;
  uint8_t seen[1024] = {0};
  for (uint32_t i = 0; i < nbits; i += wgp ? 2 : 1)
    wanted += mask_has(mask, (int)i) != 0;
  for (int g = 0; ok && g < GROUPS; g++) {
    int b = mask_bit(out[g]);
    if (b < 0 || (nbits && (b >= (int)nbits || !mask_has(mask, b)))) {
      in_mask = 0;
      bad = g;
      break;
    }
    distinct += !seen[b];
    seen[b] = 1;
  }
  int spread = nbits ? (wanted > 1 ? distinct > 1 : distinct == 1) : distinct > 1;
  CHECK(name, st == HSA_STATUS_SUCCESS && ok && in_mask && spread,
        "set_mask 0x%x, done %d, group %d HW_ID 0x%08x (bit %d), %d distinct CUs", (unsigned)st,
        ok, bad, bad >= 0 ? out[bad] : 0, bad >= 0 ? mask_bit(out[bad]) : -1, distinct);
  hsa_signal_destroy(done);
  hsa_memory_free(out);
  hsa_queue_destroy(q);
}

/* A never-ending kernel; returns its queue once every work-group started (NULL on failure). */
static hsa_queue_t *start_spin(const struct client_kernel *k, uint32_t **started)
{
  hsa_queue_t *q;
  if (hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q))
    return NULL;
  uint32_t *mem;
  hsa_memory_allocate(sys_region, 8, (void **)&mem);
  mem[0] = mem[1] = 0;   /* the flag (never set) and the started count */
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  dispatch(q, k, 2, 256, &mem[0], &mem[1], done);
  double t0 = now_s();
  while (__atomic_load_n(&mem[1], __ATOMIC_ACQUIRE) < 1 && now_s() - t0 < 20)
    nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
  *started = &mem[1];
  return q;
}

int main(int argc, char **argv)
{
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc < 2 || hsa_init() != HSA_STATUS_SUCCESS) {
    printf("init FAIL\n");
    return 1;
  }
  hsa_iterate_agents(find_agents, NULL);
  struct client_kernel spin, cuid;
  if (!have_gpu || client_load_file(gpu, argv[1], HSA_PROFILE_FULL, &exe) ||
      client_kernel(exe, gpu, "spin.kd", &spin) || client_kernel(exe, gpu, "cuid.kd", &cuid)) {
    printf("load FAIL\n");
    return 1;
  }
  uint32_t *started;
  if (argc > 2 && !strcmp(argv[2], "exit")) {
    hsa_queue_t *q = start_spin(&spin, &started);
    CHECK("exit_spin_started", q && *started >= 1, "no work-group started");
    return 0;   /* the process ends with the kernel still running */
  }
  if (argc > 2 && !strcmp(argv[2], "shutdown")) {   /* the runtime tears the queue down */
    hsa_queue_t *q = start_spin(&spin, &started);
    CHECK("shutdown_spin_started", q && *started >= 1, "no work-group started");
    double t0 = now_s();
    hsa_status_t st = hsa_shut_down();
    double t = now_s() - t0;
    CHECK("shutdown_prompt", st == HSA_STATUS_SUCCESS && t < 1.0, "status 0x%x after %.3f s",
          (unsigned)st, t);
    return failures ? 1 : 0;
  }
  int cu_checks = !(argc > 2 && !strcmp(argv[2], "nocu"));
  char agent_name[64] = "";
  hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, agent_name);
  wgp = !strncmp(agent_name, "gfx1", 4);
  hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_SHADER_ENGINES, &n_se);
  hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_SHADER_ARRAYS_PER_SE, &n_sh);
  hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, &n_cu);
  printf("shape %u SE x %u SH, %u CUs\n", n_se, n_sh, n_cu);

  if (cu_checks && !wgp) {
    cu_mask_check("cu_all", &cuid, NULL, 0);
    cu_mask_check("cu_mask_one", &cuid, (uint32_t[]){ 0x1 }, 32);
    cu_mask_check("cu_mask_se1", &cuid, (uint32_t[]){ 0x2 }, 32);
    cu_mask_check("cu_mask_two", &cuid, (uint32_t[]){ 0x6 }, 32);
    cu_mask_check("cu_mask_second_cus", &cuid, (uint32_t[]){ 0xf0 }, 32);
    cu_mask_check("cu_mask_high", &cuid, (uint32_t[]){ 0x0, 0x30 }, 64);
  } else if (cu_checks) {   /* the same WGPs' pairs: runtimes refuse half a pair */
    cu_mask_check("cu_all", &cuid, NULL, 0);
    cu_mask_check("cu_mask_one", &cuid, (uint32_t[]){ 0x3 }, 32);
    cu_mask_check("cu_mask_se1", &cuid, (uint32_t[]){ 0xc }, 32);
    cu_mask_check("cu_mask_two", &cuid, (uint32_t[]){ 0x3c }, 32);
    cu_mask_check("cu_mask_second_cus", &cuid, (uint32_t[]){ 0xff00 }, 32);
    cu_mask_check("cu_mask_high", &cuid, (uint32_t[]){ 0x0, 0x30 }, 64);
  }

  hsa_queue_t *q = start_spin(&spin, &started);
  CHECK("spin_started", q && *started >= 1, "no work-group started");
  if (q) {
    double t0 = now_s();
    hsa_status_t st = hsa_queue_destroy(q);
    double t = now_s() - t0;
    CHECK("destroy_prompt", st == HSA_STATUS_SUCCESS && t < 1.0, "status 0x%x after %.3f s",
          (unsigned)st, t);
  }
  if (cu_checks)
    cu_mask_check("after_destroy", &cuid, NULL, 0);
  CHECK("shut_down", hsa_shut_down() == HSA_STATUS_SUCCESS, "failed");
  return failures ? 1 : 0;
}
