/* SPDX-License-Identifier: MIT */
/* sample_dispatch.c — the main job: run a kernel on a GPU through the HSA API, as any HSA
 * client would (public API only), and check its result on the host.
 *
 *   sample_dispatch --isa         print the first GPU's target ID (what to compile for)
 *   sample_dispatch CODE_OBJECT   load CODE_OBJECT (an amdgcn-amd-amdhsa ELF with the kernel
 *                                 vector_add(a, b, c, n): c[i] = 3 * a[i] + b[i], built from
 *                                 samples/kernels/vector_add.cl), dispatch it over N elements
 *                                 (env SAMPLE_N, default 1000000), wait for its completion
 *                                 signal and compare c with the host's answer.
 *
 * It never fakes a result: exit 0 only when every element is right; 1 when something failed
 * or the answer is wrong, 2 when there is no GPU or no code object, 3 when the dispatch did
 * not complete within SAMPLE_TIMEOUT seconds (default 120). */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KERNEL "vector_add"

static void report(const char *what, hsa_status_t status) {
  const char *text = NULL;
  if (hsa_status_string(status, &text) != HSA_STATUS_SUCCESS) text = "(unknown status)";
  fprintf(stderr, "sample_dispatch: %s failed: %s\n", what, text);
}

#define TRY(what, call)                                                                   \
  do {                                                                                    \
    hsa_status_t st_ = (call);                                                            \
    if (st_ != HSA_STATUS_SUCCESS) {                                                      \
      report(what, st_);                                                                  \
      return 1;                                                                           \
    }                                                                                     \
  } while (0)

struct found {
  hsa_agent_t gpu;
  bool have_gpu;
  hsa_region_t kernarg, data;
  bool have_kernarg, have_data;
};

static hsa_status_t find_gpu(hsa_agent_t agent, void *arg) {
  struct found *f = arg;
  hsa_device_type_t type;
  if (hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS)
    return HSA_STATUS_ERROR;
  if (type == HSA_DEVICE_TYPE_GPU && !f->have_gpu) {
    f->gpu = agent;
    f->have_gpu = true;
  }
  return HSA_STATUS_SUCCESS;
}

/* System memory the GPU reaches: a kernarg region and a fine-grained one for the data. */
static hsa_status_t find_regions(hsa_region_t region, void *arg) {
  struct found *f = arg;
  hsa_region_segment_t segment;
  uint32_t flags = 0;
  hsa_region_get_info(region, HSA_REGION_INFO_SEGMENT, &segment);
  if (segment != HSA_REGION_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  hsa_region_get_info(region, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
  if ((flags & HSA_REGION_GLOBAL_FLAG_KERNARG) && !f->have_kernarg) {
    f->kernarg = region;
    f->have_kernarg = true;
  }
  if ((flags & HSA_REGION_GLOBAL_FLAG_FINE_GRAINED) && !f->have_data) {
    f->data = region;
    f->have_data = true;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t first_isa(hsa_isa_t isa, void *arg) {
  *(hsa_isa_t *)arg = isa;
  return HSA_STATUS_INFO_BREAK;
}

/* "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-" -> "gfx906:sramecc+:xnack-" */
static int print_target(hsa_agent_t gpu) {
  hsa_isa_t isa = {0};
  hsa_agent_iterate_isas(gpu, first_isa, &isa);
  uint32_t len = 0;
  if (!isa.handle || hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, &len) != HSA_STATUS_SUCCESS)
    return 1;
  char *name = calloc(1, len + 1);
  if (!name || hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, name) != HSA_STATUS_SUCCESS) return 1;
  const char *target = strstr(name, "--");
  printf("%s\n", target ? target + 2 : name);
  free(name);
  return 0;
}

static void *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = NULL;
  if (fseek(f, 0, SEEK_END) == 0) {
    long n = ftell(f);
    if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) &&
        fread(buf, 1, (size_t)n, f) == (size_t)n)
      *size = (size_t)n;
    else {
      free(buf);
      buf = NULL;
    }
  }
  fclose(f);
  return buf;
}

static volatile hsa_status_t queue_error = HSA_STATUS_SUCCESS;

static void on_queue_error(hsa_status_t status, hsa_queue_t *queue, void *data) {
  (void)queue;
  (void)data;
  queue_error = status;
  report("the dispatch (queue error callback)", status);
}

/* The kernel's arguments as the code object's metadata lays them out: three pointers and
 * n, then the hidden arguments (global offsets, ...), which stay zero. */
struct args {
  const uint32_t *a, *b;
  uint32_t *c;
  uint32_t n;
};

static int run(hsa_agent_t gpu, const struct found *f, const char *path, uint32_t n,
               unsigned timeout_s) {
  size_t co_size = 0;
  void *co = read_file(path, &co_size);
  if (!co) {
    fprintf(stderr, "sample_dispatch: cannot read the code object %s\n", path);
    return 2;
  }
  /* e_ident[EI_ABIVERSION] 3 = code object v5, whose kernels read the grid from hidden
   * arguments that only the metadata locates; this sample fills the explicit ones only. */
  if (co_size > 8 && ((const unsigned char *)co)[8] >= 3) {
    fprintf(stderr, "sample_dispatch: %s is code object v5 or later; this sample fills no "
                    "hidden kernel arguments: compile with -mcode-object-version=4\n", path);
    free(co);
    return 1;
  }
  hsa_code_object_reader_t reader;
  TRY("hsa_code_object_reader_create_from_memory",
      hsa_code_object_reader_create_from_memory(co, co_size, &reader));
  hsa_profile_t profile;
  hsa_agent_get_info(gpu, HSA_AGENT_INFO_PROFILE, &profile);
  hsa_executable_t exec;
  TRY("hsa_executable_create_alt",
      hsa_executable_create_alt(profile, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &exec));
  TRY("hsa_executable_load_agent_code_object",
      hsa_executable_load_agent_code_object(exec, gpu, reader, NULL, NULL));
  TRY("hsa_executable_freeze", hsa_executable_freeze(exec, NULL));
  hsa_executable_symbol_t sym;
  TRY("hsa_executable_get_symbol_by_name",
      hsa_executable_get_symbol_by_name(exec, KERNEL ".kd", &gpu, &sym));
  uint64_t kernel_object = 0;
  uint32_t kernarg_size = 0, group_size = 0, private_size = 0;
  TRY("kernel object", hsa_executable_symbol_get_info(
                           sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kernel_object));
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
                                 &kernarg_size);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE,
                                 &group_size);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE,
                                 &private_size);
  if (kernarg_size < sizeof(struct args)) kernarg_size = sizeof(struct args);
  printf("loaded %s: kernel %s, %u bytes of arguments\n", path, KERNEL, kernarg_size);

  /* Inputs and output in fine-grained system memory; arguments in the kernarg region. */
  uint32_t *a, *b, *c;
  void *kernarg;
  size_t bytes = (size_t)n * sizeof(uint32_t);
  TRY("allocating a", hsa_memory_allocate(f->data, bytes, (void **)&a));
  TRY("allocating b", hsa_memory_allocate(f->data, bytes, (void **)&b));
  TRY("allocating c", hsa_memory_allocate(f->data, bytes, (void **)&c));
  TRY("allocating the kernel arguments", hsa_memory_allocate(f->kernarg, kernarg_size, &kernarg));
  for (uint32_t i = 0; i < n; i++) {
    a[i] = i * 2654435761u;
    b[i] = ~i;
    c[i] = 0xdeadbeef;
  }
  memset(kernarg, 0, kernarg_size);
  struct args args = {a, b, c, n};
  memcpy(kernarg, &args, sizeof(args));

  hsa_queue_t *queue;
  TRY("hsa_queue_create", hsa_queue_create(gpu, 128, HSA_QUEUE_TYPE_MULTI, on_queue_error, NULL,
                                           UINT32_MAX, UINT32_MAX, &queue));
  hsa_signal_t done;
  TRY("hsa_signal_create", hsa_signal_create(1, 0, NULL, &done));

  /* Reserve a slot, fill the packet, publish its header last, ring the doorbell. */
  uint64_t index = hsa_queue_add_write_index_screlease(queue, 1);
  while (index - hsa_queue_load_read_index_scacquire(queue) >= queue->size) {
  }
  hsa_kernel_dispatch_packet_t *p =
      (hsa_kernel_dispatch_packet_t *)queue->base_address + (index & (queue->size - 1));
  memset((char *)p + 4, 0, sizeof(*p) - 4);
  p->workgroup_size_x = 256;
  p->workgroup_size_y = 1;
  p->workgroup_size_z = 1;
  p->grid_size_x = n;
  p->grid_size_y = 1;
  p->grid_size_z = 1;
  p->private_segment_size = private_size;
  p->group_segment_size = group_size;
  p->kernel_object = kernel_object;
  p->kernarg_address = kernarg;
  p->completion_signal = done;
  uint16_t header = HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
                    1 << HSA_PACKET_HEADER_BARRIER |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
  uint16_t setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  __atomic_store_n((uint32_t *)p, (uint32_t)header | (uint32_t)setup << 16, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(queue->doorbell_signal, (hsa_signal_value_t)index);
  printf("dispatched %s over %u work-items (work-groups of 256) on queue %lu\n", KERNEL, n,
         (unsigned long)queue->id);

  hsa_signal_value_t v = hsa_signal_wait_scacquire(
      done, HSA_SIGNAL_CONDITION_LT, 1, (uint64_t)timeout_s * 1000000000ull, HSA_WAIT_STATE_BLOCKED);
  int rc;
  if (queue_error != HSA_STATUS_SUCCESS) {
    rc = 1;
  } else if (v != 0) {
    fprintf(stderr, "sample_dispatch: the dispatch did not complete in %u s\n", timeout_s);
    rc = 3;
  } else {
    uint32_t wrong = 0, first = 0;
    for (uint32_t i = 0; i < n; i++)
      if (c[i] != a[i] * 3u + b[i] && wrong++ == 0) first = i;
    if (wrong) {
      fprintf(stderr, "sample_dispatch: %u of %u results are wrong (first at %u: %u, want %u)\n",
              wrong, n, first, c[first], a[first] * 3u + b[first]);
      rc = 1;
    } else {
      printf("completed: all %u results equal the host's 3*a[i]+b[i]\n", n);
      rc = 0;
    }
  }
  hsa_queue_destroy(queue);
  hsa_signal_destroy(done);
  hsa_memory_free(kernarg);
  hsa_memory_free(a);
  hsa_memory_free(b);
  hsa_memory_free(c);
  hsa_executable_destroy(exec);
  hsa_code_object_reader_destroy(reader);
  free(co);
  return rc;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  hsa_status_t status = hsa_init();
  if (status != HSA_STATUS_SUCCESS) {
    report("hsa_init", status);
    fprintf(stderr, "sample_dispatch: no GPU work was done.\n");
    return 2;
  }
  struct found f = {0};
  hsa_iterate_agents(find_gpu, &f);
  if (!f.have_gpu) {
    fprintf(stderr, "sample_dispatch: no GPU agent found; no GPU work was done.\n");
    hsa_shut_down();
    return 2;
  }
  int rc;
  if (argc > 1 && !strcmp(argv[1], "--isa")) {
    rc = print_target(f.gpu);
  } else if (argc < 2) {
    fprintf(stderr, "usage: sample_dispatch --isa | CODE_OBJECT (scripts/demo.sh builds one)\n");
    rc = 2;
  } else {
    char name[64] = {0};
    hsa_agent_get_info(f.gpu, HSA_AGENT_INFO_NAME, name);
    printf("agent: %s\n", name);
    hsa_agent_iterate_regions(f.gpu, find_regions, &f);
    const char *ns = getenv("SAMPLE_N"), *ts = getenv("SAMPLE_TIMEOUT");
    uint32_t n = ns ? (uint32_t)strtoul(ns, NULL, 0) : 1000000u;
    unsigned timeout = ts ? (unsigned)strtoul(ts, NULL, 0) : 120u;
    if (!f.have_kernarg || !f.have_data) {
      fprintf(stderr, "sample_dispatch: no kernarg or fine-grained region on %s\n", name);
      rc = 1;
    } else {
      rc = run(f.gpu, &f, argv[1], n ? n : 1, timeout ? timeout : 1);
    }
  }
  hsa_shut_down();
  return rc;
}
