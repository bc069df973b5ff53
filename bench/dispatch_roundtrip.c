/* SPDX-License-Identifier: MIT */
/* dispatch_roundtrip.c — the round trip of an empty kernel: write the dispatch packet, ring
 * the doorbell, wait for the completion signal. Public HSA API only, so the same binary runs
 * on our runtime and on Debian's ROCR 5.2.3 (pick with LD_LIBRARY_PATH).
 *   dispatch_roundtrip CODE_OBJECT [N]
 * Prints "<wait> median_us p90_us" for wait = busy (HSA_WAIT_STATE_ACTIVE, spinning) and
 * interrupt (HSA_WAIT_STATE_BLOCKED, sleeping in the KFD event wait), N dispatches each
 * after 20 warm-up ones. The kernel is `empty` from dispatch_roundtrip.cl. */
#include <hsa.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib.h"

static hsa_agent_t gpu;
static int found;
static hsa_region_t kernarg;
static int have_kernarg;

static hsa_status_t pick(hsa_agent_t a, void *d) {
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !found) gpu = a, found = 1;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t pick_region(hsa_region_t r, void *d) {
  (void)d;
  uint32_t flags = 0;
  hsa_region_segment_t seg;
  hsa_region_get_info(r, HSA_REGION_INFO_SEGMENT, &seg);
  hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
  if (seg == HSA_REGION_SEGMENT_GLOBAL && (flags & HSA_REGION_GLOBAL_FLAG_KERNARG) && !have_kernarg)
    kernarg = r, have_kernarg = 1;
  return HSA_STATUS_SUCCESS;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#define DIE(...) do { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)

int main(int argc, char **argv) {
  if (argc < 2) DIE("usage: dispatch_roundtrip CODE_OBJECT [N]");
  int n = argc > 2 ? atoi(argv[2]) : 500;
  if (hsa_init() != HSA_STATUS_SUCCESS) DIE("hsa_init");
  hsa_iterate_agents(pick, NULL);
  if (!found) DIE("no GPU");
  hsa_agent_iterate_regions(gpu, pick_region, NULL);
  FILE *f = fopen(argv[1], "rb");
  if (!f) DIE("cannot open %s", argv[1]);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *co = malloc((size_t)size);
  if (fread(co, 1, (size_t)size, f) != (size_t)size) DIE("read");
  fclose(f);
  hsa_code_object_reader_t reader;
  hsa_executable_t exec;
  hsa_executable_symbol_t sym;
  uint64_t object = 0;
  uint32_t kas = 0;
  if (hsa_code_object_reader_create_from_memory(co, (size_t)size, &reader) ||
      hsa_executable_create_alt(HSA_PROFILE_BASE, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                &exec) ||
      hsa_executable_load_agent_code_object(exec, gpu, reader, NULL, NULL) ||
      hsa_executable_freeze(exec, NULL) ||
      hsa_executable_get_symbol_by_name(exec, "empty.kd", &gpu, &sym) ||
      hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object))
    DIE("loading the kernel failed");
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &kas);
  void *args = NULL;
  if (hsa_memory_allocate(kernarg, kas ? kas : 64, &args)) DIE("kernarg");
  memset(args, 0, kas ? kas : 64);
  hsa_queue_t *q;
  if (hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX, &q))
    DIE("queue");
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  double *t = calloc((size_t)n, sizeof(double));
  const char *names[2] = {"busy", "interrupt"};
  const hsa_wait_state_t states[2] = {HSA_WAIT_STATE_ACTIVE, HSA_WAIT_STATE_BLOCKED};
  for (int w = 0; w < 2; w++) {
    for (int i = -20; i < n; i++) {
      hsa_signal_store_relaxed(done, 1);
      double t0 = now_us();
      uint64_t idx = hsa_queue_add_write_index_relaxed(q, 1);
      hsa_kernel_dispatch_packet_t *p = (hsa_kernel_dispatch_packet_t *)q->base_address + idx % q->size;
      memset((char *)p + 4, 0, sizeof(*p) - 4);
      p->workgroup_size_x = p->workgroup_size_y = p->workgroup_size_z = 1;
      p->grid_size_x = p->grid_size_y = p->grid_size_z = 1;
      p->kernel_object = object;
      p->kernarg_address = args;
      p->completion_signal = done;
      uint32_t header = HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
                        HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                        HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
      __atomic_store_n((uint32_t *)p, header | 1u << 16, __ATOMIC_RELEASE);
      hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
      if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 10000000000ull, states[w]) != 0)
        DIE("dispatch %d did not complete", i);
      if (i >= 0) t[i] = now_us() - t0;
    }
    qsort(t, (size_t)n, sizeof(double), cmp);
    printf("%s %.1f %.1f\n", names[w], t[n / 2], t[n * 9 / 10]);
  }
  hsa_signal_destroy(done);
  hsa_queue_destroy(q);
  hsa_memory_free(args);
  hsa_executable_destroy(exec);
  hsa_code_object_reader_destroy(reader);
  hsa_shut_down();
  return 0;
}
