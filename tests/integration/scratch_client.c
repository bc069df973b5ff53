/* SPDX-License-Identifier: MIT */
/* scratch_client.c — scratch growth on one queue created without scratch: priv_small (256
 * bytes of private memory a work-item), then priv_big (16 KiB), then priv_small again, each
 * over 256 work-items in groups of 64, every result against the host's computation of the
 * same function. Each of the first two makes the CP ask for scratch (the runtime grows it);
 * scratch_rdna.sh reads the simulator's trace for the CP's request codes. Usage: CO.
 * Prints "ok ..." / "FAIL ..." lines; exit 0 = pass. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CLIENT_EXIT _exit
#define CLIENT_QUEUE_ERRORS
#include "lib/client.h"

#define N 256u

static uint32_t host_mix(unsigned n, uint32_t seed, uint32_t gid) {
  uint32_t *a = malloc(n * sizeof(uint32_t));
  if (!a) FAIL("no host memory");
  uint32_t x = seed ^ gid * 2654435761u;
  for (uint32_t k = 0; k < n; k++) a[k] = x * k + (k ^ gid);
  uint32_t idx = x;
  for (uint32_t k = 0; k < 64; k++) {
    idx = idx * 1103515245u + 12345u;
    uint32_t j = (idx >> 16) % n;
    a[j] += a[(j * 7u + k) % n];
  }
  uint32_t s = 0;
  for (uint32_t k = 0; k < n; k++) s = s * 31u + a[k];
  free(a);
  return s;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s CO\n", argv[0]);
    return 2;
  }
  setvbuf(stdout, NULL, _IONBF, 0);
  CHECK(hsa_init());
  struct client_agents ag = {0};
  hsa_iterate_agents(client_pick_agents, &ag);
  hsa_agent_t gpu = ag.gpu;
  if (!gpu.handle) FAIL("no GPU agent");
  struct client_regions rg = {0};
  hsa_agent_iterate_regions(gpu, client_pick_regions, &rg);
  if (!rg.kernarg.handle || !rg.fine.handle) FAIL("no kernarg or fine-grained region");
  hsa_executable_t exec;
  client_load(gpu, argv[1], &exec);
  hsa_queue_t *q = NULL;
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, on_error, NULL, UINT32_MAX, UINT32_MAX, &q));
  static const struct { const char *name; unsigned n; uint32_t seed; } runs[] = {
    {"priv_small", 64, 0x1234}, {"priv_big", 4096, 0x5678}, {"priv_small", 64, 0x9abc}};
  for (unsigned r = 0; r < 3; r++) {
    struct client_kernel k = client_kernel_named(exec, gpu, runs[r].name);
    uint32_t *out = NULL;
    struct { uint32_t *out; uint32_t seed; } *args = NULL;
    CHECK(hsa_memory_allocate(rg.fine, N * sizeof(uint32_t), (void **)&out));
    CHECK(hsa_memory_allocate(rg.kernarg, k.kernarg_size > 16 ? k.kernarg_size : 16, (void **)&args));
    memset(out, 0, N * sizeof(uint32_t));
    args->out = out, args->seed = runs[r].seed;
    hsa_signal_t done;
    CHECK(hsa_signal_create(1, 0, NULL, &done));
    client_dispatch(q, &k, args, N, 64, done);
    if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 120000000000ull,
                                  HSA_WAIT_STATE_BLOCKED) != 0)
      FAIL("%s did not complete (errors %d, last 0x%x)", runs[r].name, errors, (unsigned)last_error);
    if (errors) FAIL("%s: queue error 0x%x", runs[r].name, (unsigned)last_error);
    for (uint32_t i = 0; i < N; i++) {
      uint32_t want = host_mix(runs[r].n, runs[r].seed, i);
      if (out[i] != want) FAIL("%s: out[%u] = 0x%x, the host computes 0x%x", runs[r].name, i, out[i], want);
    }
    printf("ok %s (private segment %u bytes): %u results as the host computes them\n",
           runs[r].name, k.priv, N);
    hsa_signal_destroy(done);
    hsa_memory_free(out);
    hsa_memory_free(args);
  }
  CHECK(hsa_queue_destroy(q));
  CHECK(hsa_executable_destroy(exec));
  CHECK(hsa_shut_down());
  printf("ok shut_down\n");
  return 0;
}
