/* SPDX-License-Identifier: MIT */
/* trap_client.c — device traps reach the queue's callback; runs on our runtime and on ROCR
 * 5.2.3 (the peer) under hsa-sim, kernels from trap_kernels.cl. Modes (CO = code object):
 *   trap CO       trap_all (every wave runs s_trap 2): the callback gets
 *                 HSA_STATUS_ERROR_EXCEPTION, the dispatch never completes, and a new queue
 *                 then runs a kernel (the process goes on)
 *   abort CO      check_abort: one work-item of 256 fails its check and aborts; the callback
 *                 gets HSA_STATUS_ERROR_EXCEPTION and the other work-groups finish
 *   debugtrap CO  debug_trap (s_trap 3, no debugger): no error, the kernel completes
 *   illegal CO    illegal_inst (an encoding the hardware rejects): the runtime's handler
 *                 reports it, the callback gets HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, and
 *                 the dispatch never completes
 * Prints "ok ..." / "FAIL ..." lines; exit 0 = pass. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

#define FAIL(...)                                                                          \
  do {                                                                                     \
    printf("FAIL ");                                                                       \
    printf(__VA_ARGS__);                                                                   \
    printf("\n");                                                                          \
    fflush(stdout);                                                                        \
    _exit(1);                                                                              \
  } while (0)
#define CHECK(call)                                                                        \
  do {                                                                                     \
    hsa_status_t s_ = (call);                                                              \
    if (s_ != HSA_STATUS_SUCCESS) FAIL("%s = 0x%x (line %d)", #call, (unsigned)s_, __LINE__); \
  } while (0)

#define N 256u

static hsa_agent_t gpu;
static int have_gpu;
static hsa_region_t kernarg_region, data_region;
static int have_kernarg, have_data;
static hsa_executable_t exec;

static hsa_status_t pick(hsa_agent_t a, void *d) {
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !have_gpu) gpu = a, have_gpu = 1;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t pick_region(hsa_region_t r, void *d) {
  (void)d;
  hsa_region_segment_t seg;
  uint32_t flags = 0;
  hsa_region_get_info(r, HSA_REGION_INFO_SEGMENT, &seg);
  if (seg != HSA_REGION_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
  if ((flags & HSA_REGION_GLOBAL_FLAG_KERNARG) && !have_kernarg) kernarg_region = r, have_kernarg = 1;
  if ((flags & HSA_REGION_GLOBAL_FLAG_FINE_GRAINED) && !have_data) data_region = r, have_data = 1;
  return HSA_STATUS_SUCCESS;
}

static void load(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) FAIL("cannot open %s", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)n);
  if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) FAIL("cannot read %s", path);
  fclose(f);
  hsa_code_object_reader_t r;
  CHECK(hsa_code_object_reader_create_from_memory(buf, (size_t)n, &r));
  CHECK(hsa_executable_create_alt(HSA_PROFILE_BASE, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                  &exec));
  CHECK(hsa_executable_load_agent_code_object(exec, gpu, r, NULL, NULL));
  CHECK(hsa_executable_freeze(exec, NULL));
}

static uint64_t kernel(const char *name, uint32_t *kernarg_size) {
  char sym_name[64];
  snprintf(sym_name, sizeof(sym_name), "%s.kd", name);
  hsa_executable_symbol_t sym;
  CHECK(hsa_executable_get_symbol_by_name(exec, sym_name, &gpu, &sym));
  uint64_t object = 0;
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &object);
  hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
                                 kernarg_size);
  return object;
}

static volatile int errors;
static volatile hsa_status_t last_error;
static void on_error(hsa_status_t s, hsa_queue_t *q, void *d) {
  (void)q;
  (void)d;
  last_error = s;
  __atomic_add_fetch(&errors, 1, __ATOMIC_SEQ_CST);
}

/* Dispatches `name` over N work-items in groups of 64 on a new queue; args are the output
 * pointer and `arg`. Returns the queue; *done is the completion signal. */
static hsa_queue_t *run(const char *name, int32_t *out, int32_t arg, hsa_signal_t *done) {
  uint32_t ksize = 0;
  uint64_t object = kernel(name, &ksize);
  struct { int32_t *out; int32_t arg; } *args = NULL;
  CHECK(hsa_memory_allocate(kernarg_region, ksize > 16 ? ksize : 16, (void **)&args));
  args->out = out, args->arg = arg;
  hsa_queue_t *q = NULL;
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, on_error, NULL, UINT32_MAX, UINT32_MAX, &q));
  CHECK(hsa_signal_create(1, 0, NULL, done));
  uint64_t idx = hsa_queue_add_write_index_scacq_screl(q, 1);
  hsa_kernel_dispatch_packet_t *p = (hsa_kernel_dispatch_packet_t *)q->base_address + (idx % q->size);
  memset((char *)p + 4, 0, sizeof(*p) - 4);
  p->workgroup_size_x = 64, p->workgroup_size_y = 1, p->workgroup_size_z = 1;
  p->grid_size_x = N, p->grid_size_y = 1, p->grid_size_z = 1;
  p->kernel_object = object;
  p->kernarg_address = args;
  p->completion_signal = *done;
  uint32_t header = HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE |
                    1u << HSA_PACKET_HEADER_BARRIER |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
  __atomic_store_n((uint32_t *)p, header | 1u << 16, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
  return q;
}

static int wait_error(unsigned seconds) {
  for (unsigned i = 0; i < seconds * 100 && !errors; i++) usleep(10000);
  return errors;
}

static void expect_exception(const char *what) {
  if (!wait_error(60)) FAIL("%s: no queue error reported", what);
  if (last_error != HSA_STATUS_ERROR_EXCEPTION)
    FAIL("%s: reported as 0x%x, not HSA_STATUS_ERROR_EXCEPTION", what, (unsigned)last_error);
  printf("ok %s reported: HSA_STATUS_ERROR_EXCEPTION\n", what);
}

static int32_t *buffer(void) {
  int32_t *out = NULL;
  CHECK(hsa_memory_allocate(data_region, N * sizeof(int32_t), (void **)&out));
  memset(out, 0, N * sizeof(int32_t));
  return out;
}

static void trap_test(void) {
  int32_t *out = buffer();
  hsa_signal_t done;
  hsa_queue_t *q = run("trap_all", out, 0, &done);
  expect_exception("trap");
  for (unsigned i = 0; i < N; i++)
    if (out[i] != 1) FAIL("trap_all: out[%u] = %d before the trap, want 1", i, out[i]);
  if (hsa_signal_load_scacquire(done) != 1) FAIL("the trapped dispatch completed");
  CHECK(hsa_queue_destroy(q));
  hsa_signal_destroy(done);
  /* the process and the GPU go on: a new queue runs work */
  errors = 0;
  int32_t *out2 = buffer();
  hsa_queue_t *q2 = run("fill", out2, 0, &done);
  if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 60000000000ull,
                                HSA_WAIT_STATE_BLOCKED) != 0)
    FAIL("a dispatch on a new queue after the trap did not complete (errors %d)", errors);
  for (unsigned i = 0; i < N; i++)
    if (out2[i] != 5) FAIL("fill: out[%u] = %d, want 5", i, out2[i]);
  printf("ok a new queue runs after the trap\n");
  CHECK(hsa_queue_destroy(q2));
  hsa_signal_destroy(done);
}

static void abort_test(void) {
  int32_t *out = buffer();
  hsa_signal_t done;
  const int32_t bad = 77;   /* work-group 1 */
  hsa_queue_t *q = run("check_abort", out, bad, &done);
  expect_exception("abort");
  /* the other work-groups run to their end, as on hardware */
  for (unsigned t = 0; t < 2000; t++) {
    unsigned left = 0;
    for (unsigned i = 0; i < N; i++) left += (i / 64 != bad / 64) && out[i] != 4;
    if (!left) break;
    usleep(10000);
  }
  for (unsigned i = 0; i < N; i++) {
    int32_t want = i / 64 != bad / 64 ? 4 : i == (unsigned)bad ? 2 : -1;
    if (want >= 0 && out[i] != want) FAIL("check_abort: out[%u] = %d, want %d", i, out[i], want);
  }
  if (hsa_signal_load_scacquire(done) != 1) FAIL("the aborted dispatch completed");
  printf("ok the other work-groups finished\n");
  CHECK(hsa_queue_destroy(q));
  hsa_signal_destroy(done);
}

static void debugtrap_test(void) {
  int32_t *out = buffer();
  hsa_signal_t done;
  hsa_queue_t *q = run("debug_trap", out, 0, &done);
  if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 60000000000ull,
                                HSA_WAIT_STATE_BLOCKED) != 0)
    FAIL("debug_trap did not complete (errors %d, last 0x%x)", errors, (unsigned)last_error);
  if (errors) FAIL("debug_trap reported 0x%x", (unsigned)last_error);
  for (unsigned i = 0; i < N; i++)
    if (out[i] != 3) FAIL("debug_trap: out[%u] = %d, want 3", i, out[i]);
  printf("ok llvm.debugtrap with no debugger goes on\n");
  CHECK(hsa_queue_destroy(q));
  hsa_signal_destroy(done);
}

static void illegal_test(void) {
  int32_t *out = buffer();
  hsa_signal_t done;
  hsa_queue_t *q = run("illegal_inst", out, 0, &done);
  if (!wait_error(60)) FAIL("illegal: no queue error reported");
  if (last_error != (hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION)
    FAIL("illegal: reported as 0x%x, not HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION",
         (unsigned)last_error);
  printf("ok illegal reported: HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION\n");
  for (unsigned i = 0; i < N; i++)
    if (out[i] != 6) FAIL("illegal_inst: out[%u] = %d before the exception, want 6", i, out[i]);
  if (hsa_signal_load_scacquire(done) != 1) FAIL("the dispatch with the illegal instruction completed");
  CHECK(hsa_queue_destroy(q));
  hsa_signal_destroy(done);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s trap|abort|debugtrap|illegal CO\n", argv[0]);
    return 2;
  }
  setvbuf(stdout, NULL, _IONBF, 0);
  CHECK(hsa_init());
  hsa_iterate_agents(pick, NULL);
  if (!have_gpu) FAIL("no GPU agent");
  hsa_agent_iterate_regions(gpu, pick_region, NULL);
  if (!have_kernarg || !have_data) FAIL("no kernarg or fine-grained region");
  load(argv[2]);
  if (!strcmp(argv[1], "trap"))
    trap_test();
  else if (!strcmp(argv[1], "abort"))
    abort_test();
  else if (!strcmp(argv[1], "debugtrap"))
    debugtrap_test();
  else if (!strcmp(argv[1], "illegal"))
    illegal_test();
  else
    FAIL("unknown mode %s", argv[1]);
  CHECK(hsa_executable_destroy(exec));
  CHECK(hsa_shut_down());
  printf("ok shut_down\n");
  return 0;
}
