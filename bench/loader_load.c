/* SPDX-License-Identifier: MIT */
/* loader_load.c — times what a HIP program does with a big module: reader from memory,
 * executable, load for the GPU, freeze, then one symbol lookup and kernel-object query per
 * kernel ("kN.kd"), destroy. Best of REPEAT rounds, in microseconds per phase.
 *   loader_load FILE KERNELS REPEAT [--no-freeze] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib.h"

#include "hsa/hsa.h"

static hsa_agent_t gpu;
static hsa_status_t find(hsa_agent_t a, void *d) {
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !gpu.handle) gpu = a;
  return HSA_STATUS_SUCCESS;
}

int main(int argc, char **argv) {
  if (argc < 4) return 2;
  int kernels = atoi(argv[2]), repeat = atoi(argv[3]);
  int freeze = !(argc > 4 && strcmp(argv[4], "--no-freeze") == 0);
  FILE *f = fopen(argv[1], "rb");
  if (!f) return 2;
  fseek(f, 0, SEEK_END);
  size_t size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  void *bytes = malloc(size);
  if (fread(bytes, 1, size, f) != size) return 2;
  fclose(f);
  if (hsa_init() != HSA_STATUS_SUCCESS) return 3;
  hsa_iterate_agents(find, NULL);
  double best_load = 1e300, best_freeze = 1e300, best_lookup = 1e300, best_destroy = 1e300;
  for (int r = 0; r < repeat; r++) {
    double t0 = now_us();
    hsa_code_object_reader_t reader;
    hsa_executable_t e;
    if (hsa_code_object_reader_create_from_memory(bytes, size, &reader) ||
        hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &e) ||
        hsa_executable_load_agent_code_object(e, gpu, reader, NULL, NULL)) {
      printf("load failed\n");
      return 4;
    }
    double t1 = now_us();
    if (freeze && hsa_executable_freeze(e, NULL)) return 5;
    double t2 = now_us();
    uint64_t sum = 0;
    for (int k = 0; k < kernels; k++) {
      char name[32];
      snprintf(name, sizeof(name), "k%d.kd", k);
      hsa_executable_symbol_t s;
      uint64_t obj = 0;
      uint32_t ks = 0;
      if (hsa_executable_get_symbol_by_name(e, name, &gpu, &s) ||
          hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &obj) ||
          hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &ks)) {
        printf("lookup of %s failed\n", name);
        return 6;
      }
      sum += obj + ks;
    }
    double t3 = now_us();
    hsa_executable_destroy(e);
    hsa_code_object_reader_destroy(reader);
    double t4 = now_us();
    if (!sum) return 7;
    if (t1 - t0 < best_load) best_load = t1 - t0;
    if (t2 - t1 < best_freeze) best_freeze = t2 - t1;
    if (t3 - t2 < best_lookup) best_lookup = t3 - t2;
    if (t4 - t3 < best_destroy) best_destroy = t4 - t3;
  }
  printf("load_us=%.0f freeze_us=%.0f lookup_us=%.0f destroy_us=%.0f\n", best_load,
         freeze ? best_freeze : 0.0, best_lookup, best_destroy);
  hsa_shut_down();
  free(bytes);
  return 0;
}
