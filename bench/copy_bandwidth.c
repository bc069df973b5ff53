/* SPDX-License-Identifier: MIT */
/* copy_bandwidth.c — hsa_amd_memory_async_copy bandwidth: host to device, device to host and
 * device to device, and plain memcpy between two host buffers as the reference. Host buffers
 * come from the CPU's fine-grained pool (made reachable by the GPU), device buffers from the
 * GPU's coarse-grained pool. Links only libhsa-runtime64.so.1: the same binary runs on our
 * runtime and on ROCR (pick with LD_LIBRARY_PATH).
 *   copy_bandwidth [REPS] [MIB]...        (default 5; 1 16 64)
 * Before timing a size, one round trip host -> device -> device -> host is compared with the
 * source, so a copy that moves nothing (or the wrong bytes) is reported, not timed. Each kind
 * starts with untimed copies, at least WARM of them and WARM_S seconds of them (a queue's
 * wake-up from idle is sim_cp_latency's figure, and under hsa-sim the first 3-5 copies after a
 * change of direction take 50-850 us: bench/README.md, copy_bandwidth, seventh pass); then
 * REPS timed ones, more while they have taken less than MIN_S seconds (a 1 MiB copy takes
 * ~30 us: three of them are a sample of scheduling, not of bandwidth). memcpy follows the same
 * rule. Prints
 * "<kind> <MiB> <GB/s median> <GB/s best>" lines, kind = memcpy, h2d, d2h, d2d; a kind that
 * fails prints "<kind> <MiB> error <why>". */
#include <hsa.h>
#include <hsa_ext_amd.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARM 2         /* untimed copies of each kind before its timed ones, at least */
#define WARM_S 1e-3    /* and at least this long */
#define MIN_S 2e-3     /* timed copies go on until REPS of them and this long */
#define MAX_REPS 1000

static hsa_agent_t cpu, gpu;
static hsa_amd_memory_pool_t fine, device;

static hsa_status_t on_pool(hsa_amd_memory_pool_t p, void *d) {
  uint32_t f = 0;
  bool alloc = false;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &f);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
  if (!alloc) return HSA_STATUS_SUCCESS;
  if (d == &cpu && (f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) &&
      !(f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT) && !fine.handle)
    fine = p;
  if (d == &gpu && (f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !device.handle)
    device = p;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t on_agent(hsa_agent_t a, void *d) {
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) cpu = a;
  if (t == HSA_DEVICE_TYPE_GPU && !gpu.handle) gpu = a;
  return HSA_STATUS_SUCCESS;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static hsa_signal_t done;

/* One asynchronous copy, waited for; its seconds, or a negative value on failure. */
static double copy(void *dst, hsa_agent_t da, const void *src, hsa_agent_t sa, size_t n,
                   const char **why) {
  hsa_signal_store_screlease(done, 1);
  double t0 = now();
  hsa_status_t st = hsa_amd_memory_async_copy(dst, da, src, sa, n, 0, NULL, done);
  if (st != HSA_STATUS_SUCCESS) {
    if (hsa_status_string(st, why) != HSA_STATUS_SUCCESS || !*why) *why = "refused";
    return -1;
  }
  /* A copy that never completes is a result too: give up after 60 s. */
  while (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED) >= 1)
    if (now() - t0 > 60) {
      *why = "did not complete in 60 s";
      return -1;
    }
  return now() - t0;
}

/* One timed copy of kind c (0 h2d, 1 d2h, 2 d2d) between the size's buffers. */
static double copy_kind(int c, void *hs, void *hd, void *d0, void *d1, size_t n, const char **why) {
  return c == 0   ? copy(d0, gpu, hs, cpu, n, why)
         : c == 1 ? copy(hd, cpu, d0, gpu, n, why)
                  : copy(d1, gpu, d0, gpu, n, why);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Whether timed sample `got` (0-based count so far) is wanted: REPS, and MIN_S in all. */
static int more(int got, int reps, double t0) {
  return got < reps || (got < MAX_REPS && now() - t0 < MIN_S);
}

static void report(const char *kind, unsigned mib, double *s, int reps) {
  qsort(s, (size_t)reps, sizeof *s, cmp_double);
  double bytes = (double)mib * 1048576.0;
  double med = reps % 2 ? s[reps / 2] : (s[reps / 2 - 1] + s[reps / 2]) / 2;
  printf("%s %u %.3f %.3f\n", kind, mib, bytes / med / 1e9, bytes / s[0] / 1e9);
  fflush(stdout);
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  if (reps < 1 || reps > 1000) reps = 5;
  unsigned sizes[16] = {1, 16, 64};
  int nsizes = 3;
  if (argc > 2) {
    nsizes = 0;
    for (int i = 2; i < argc && nsizes < 16; i++) sizes[nsizes++] = (unsigned)atoi(argv[i]);
  }
  if (hsa_init() != HSA_STATUS_SUCCESS) return 1;
  hsa_iterate_agents(on_agent, NULL);
  if (!cpu.handle || !gpu.handle) return 1;
  hsa_amd_agent_iterate_memory_pools(cpu, on_pool, &cpu);
  hsa_amd_agent_iterate_memory_pools(gpu, on_pool, &gpu);
  if (!fine.handle || !device.handle) return 1;
  if (hsa_signal_create(1, 0, NULL, &done) != HSA_STATUS_SUCCESS) return 1;
  double *s = calloc(MAX_REPS, sizeof *s);
  if (!s) return 1;
  for (int k = 0; k < nsizes; k++) {
    unsigned mib = sizes[k];
    size_t n = (size_t)mib << 20;
    /* The reference: memcpy between two host buffers, both already touched. */
    char *a = malloc(n), *b = malloc(n);
    if (!a || !b) return 1;
    memset(a, 1, n);
    memset(b, 2, n);
    int got = 0;
    for (double w0 = now(); got < WARM || now() - w0 < WARM_S; got++) {
      memcpy(b, a, n);
      __asm__ volatile("" : : "r"(b) : "memory");
    }
    got = 0;
    for (double t0 = now(); more(got, reps, t0); got++) {
      double t1 = now();
      memcpy(b, a, n);
      s[got] = now() - t1;
      __asm__ volatile("" : : "r"(b) : "memory");
    }
    report("memcpy", mib, s, got);
    free(a);
    free(b);

    void *hs = NULL, *hd = NULL, *d0 = NULL, *d1 = NULL;
    if (hsa_amd_memory_pool_allocate(fine, n, 0, &hs) || hsa_amd_memory_pool_allocate(fine, n, 0, &hd) ||
        hsa_amd_memory_pool_allocate(device, n, 0, &d0) ||
        hsa_amd_memory_pool_allocate(device, n, 0, &d1)) {
      printf("h2d %u error allocation failed\n", mib);
      continue;
    }
    hsa_amd_agents_allow_access(1, &gpu, NULL, hs);
    hsa_amd_agents_allow_access(1, &gpu, NULL, hd);
    for (size_t i = 0; i < n / 8; i++) ((uint64_t *)hs)[i] = i * 0x9e3779b97f4a7c15ull;
    memset(hd, 0, n);
    const char *why = NULL;
    const char *kind = "h2d";
    if (copy(d0, gpu, hs, cpu, n, &why) < 0) goto fail;
    kind = "d2d";
    if (copy(d1, gpu, d0, gpu, n, &why) < 0) goto fail;
    kind = "d2h";
    if (copy(hd, cpu, d1, gpu, n, &why) < 0) goto fail;
    if (memcmp(hs, hd, n)) {
      kind = "h2d";
      why = "the round trip host->device->device->host did not bring the bytes back";
      goto fail;
    }
    static const char *kinds[] = {"h2d", "d2h", "d2d"};
    for (int c = 0; c < 3; c++) {
      kind = kinds[c];
      /* untimed copies first: the engine of this direction may have gone idle meanwhile
       * (its wake-up is sim_cp_latency's figure, not a bandwidth), and the first copies after a
       * change of direction pay the simulator's hand-over between its engine threads */
      int got = 0;
      for (double w0 = now(); got < WARM || now() - w0 < WARM_S; got++)
        if (copy_kind(c, hs, hd, d0, d1, n, &why) < 0) goto fail;
      got = 0;
      for (double t0 = now(); more(got, reps, t0); got++) {
        double t = copy_kind(c, hs, hd, d0, d1, n, &why);
        if (t < 0) goto fail;
        s[got] = t;
      }
      report(kind, mib, s, got);
    }
    goto next;
  fail:
    printf("%s %u error %s\n", kind, mib, why ? why : "?");
    fflush(stdout);
  next:
    hsa_amd_memory_pool_free(hs);
    hsa_amd_memory_pool_free(hd);
    hsa_amd_memory_pool_free(d0);
    hsa_amd_memory_pool_free(d1);
  }
  free(s);
  hsa_signal_destroy(done);
  hsa_shut_down();
  return 0;
}
