/* SPDX-License-Identifier: MIT */
/* trap_client.c — device traps reach the queue's callback; runs on our runtime and on ROCR
 * 5.2.3 (the peer) under hsa-sim, kernels from trap_kernels.cl. Modes (CO = code object):
 *   trap CO       trap_all (every wave stores, then runs s_trap 2): the callback gets
 *                 HSA_STATUS_ERROR_EXCEPTION, the dispatch never completes, each wave that
 *                 ran stored all its lanes, and a new queue
 *                 then runs a kernel (the process goes on)
 *   abort CO      check_abort: one work-item of 256 fails its check and aborts; the callback
 *                 gets HSA_STATUS_ERROR_EXCEPTION and the other work-groups finish
 *   debugtrap CO  debug_trap (s_trap 3, no debugger): no error, the kernel completes
 *   illegal CO    illegal_inst (an encoding the hardware rejects): the runtime's handler
 *                 reports it, the callback gets HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION, and
 *                 the dispatch never completes
 *   fpexcp CO     fp_overflow built with the overflow exception enabled (x * x, x = 1e38):
 *                 the wave enters the handler (trap_device.sh checks the trace); the
 *                 handler returns, no queue error, the dispatch completes with +inf
 *   fault CO      fill with its output pointer at an address the GPU does not map (a GPUVM
 *                 fault: the VM fault interrupt and the wave's memory violation): the callback
 *                 gets HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION, the dispatch never completes
 *   fpexcp_halts CO  the same kernel where the handler parks the wave for a debugger (ROCR
 *                 5.2.3's does: SQ interrupt with bit 23, wave halted): no queue error, the
 *                 dispatch does not complete, the queue is destroyed all the same
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

static hsa_agent_t gpu;
static hsa_region_t kernarg_region, data_region;
static hsa_executable_t exec;

/* Dispatches `name` over N work-items in groups of 64 on a new queue; args are the output
 * pointer and `arg`. Returns the queue; *done is the completion signal. */
static hsa_queue_t *run(const char *name, int32_t *out, int32_t arg, hsa_signal_t *done) {
  struct client_kernel k = client_kernel_named(exec, gpu, name);
  struct { int32_t *out; int32_t arg; } *args = NULL;
  CHECK(hsa_memory_allocate(kernarg_region, k.kernarg_size > 16 ? k.kernarg_size : 16,
                            (void **)&args));
  args->out = out, args->arg = arg;
  hsa_queue_t *q = NULL;
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, on_error, NULL, UINT32_MAX, UINT32_MAX, &q));
  CHECK(hsa_signal_create(1, 0, NULL, done));
  client_dispatch(q, &k, args, N, 64, *done);
  return q;
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

/* Every wave stores `want`, then stops the queue (a trap, an illegal instruction). Once the
 * runtime stops the queue (ROCR deactivates it on the error) no further work-group starts,
 * on hardware as on hsa-sim, so how many ran is timing. A wave's store is one instruction:
 * each 32 lanes (a wave32, or half a wave64) are all `want` or all 0, and the wave that
 * stopped the queue stored first. */
static void stored_before_stop(const int32_t *out, int32_t want, const char *what) {
  unsigned ran = 0;
  for (unsigned w = 0; w < N / 32; w++) {
    unsigned hits = 0;
    for (unsigned i = w * 32; i < w * 32 + 32; i++) {
      if (out[i] != 0 && out[i] != want)
        FAIL("%s: out[%u] = %d, want 0 or %d", what, i, out[i], want);
      hits += out[i] == want;
    }
    if (hits != 0 && hits != 32) FAIL("%s: lanes %u-%u stored %u of 32", what, w * 32, w * 32 + 31, hits);
    ran += hits == 32;
  }
  if (!ran) FAIL("%s: no wave stored before the queue stopped", what);
  printf("ok %s: %u of %u 32-lane groups stored before the queue stopped\n", what, ran, N / 32);
}

static void trap_test(void) {
  int32_t *out = buffer();
  hsa_signal_t done;
  hsa_queue_t *q = run("trap_all", out, 0, &done);
  expect_exception("trap");
  stored_before_stop(out, 1, "trap_all");
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
  stored_before_stop(out, 6, "illegal_inst");
  if (hsa_signal_load_scacquire(done) != 1) FAIL("the dispatch with the illegal instruction completed");
  CHECK(hsa_queue_destroy(q));
  hsa_signal_destroy(done);
}

static void fault_test(void) {
  hsa_signal_t done;
  hsa_queue_t *q = run("fill", (int32_t *)(uintptr_t)0x10000, 0, &done);
  if (!wait_error(60)) FAIL("fault: no queue error reported");
  if (last_error != (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION)
    FAIL("fault: reported as 0x%x, not HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION",
         (unsigned)last_error);
  printf("ok fault reported: HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION\n");
  if (hsa_signal_load_scacquire(done) != 1) FAIL("the faulting dispatch completed");
  CHECK(hsa_queue_destroy(q));
  hsa_signal_destroy(done);
}

static void fpexcp_test(int halts) {
  int32_t *out = buffer();
  float x = 1e38f;
  int32_t xb;
  memcpy(&xb, &x, 4);
  hsa_signal_t done;
  hsa_queue_t *q = run("fp_overflow", out, xb, &done);
  if (halts) {
    if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 3000000000ull,
                                  HSA_WAIT_STATE_BLOCKED) < 1)
      FAIL("fp_overflow completed: the handler did not halt the wave");
    if (errors) FAIL("fp_overflow reported 0x%x", (unsigned)last_error);
    printf("ok an enabled overflow exception halts the wave in the handler, no queue error\n");
    CHECK(hsa_queue_destroy(q));
    hsa_signal_destroy(done);
    return;
  }
  if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 60000000000ull,
                                HSA_WAIT_STATE_BLOCKED) != 0)
    FAIL("fp_overflow did not complete (errors %d, last 0x%x)", errors, (unsigned)last_error);
  if (errors) FAIL("fp_overflow reported 0x%x", (unsigned)last_error);
  for (unsigned i = 0; i < N; i++)
    if (out[i] != 0x7f800000) FAIL("fp_overflow: out[%u] = 0x%x, want +inf", i, (unsigned)out[i]);
  printf("ok an enabled overflow exception goes on after the handler\n");
  CHECK(hsa_queue_destroy(q));
  hsa_signal_destroy(done);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s trap|abort|debugtrap|illegal|fault|fpexcp|fpexcp_halts CO\n", argv[0]);
    return 2;
  }
  setvbuf(stdout, NULL, _IONBF, 0);
  CHECK(hsa_init());
  struct client_agents ag = {0};
  hsa_iterate_agents(client_pick_agents, &ag);
  if (!(gpu = ag.gpu).handle) FAIL("no GPU agent");
  struct client_regions rg = {0};
  hsa_agent_iterate_regions(gpu, client_pick_regions, &rg);
  kernarg_region = rg.kernarg, data_region = rg.fine;
  if (!kernarg_region.handle || !data_region.handle) FAIL("no kernarg or fine-grained region");
  client_load(gpu, argv[2], &exec);
  if (!strcmp(argv[1], "trap"))
    trap_test();
  else if (!strcmp(argv[1], "abort"))
    abort_test();
  else if (!strcmp(argv[1], "debugtrap"))
    debugtrap_test();
  else if (!strcmp(argv[1], "fault"))
    fault_test();
  else if (!strcmp(argv[1], "illegal"))
    illegal_test();
  else if (!strcmp(argv[1], "fpexcp") || !strcmp(argv[1], "fpexcp_halts"))
    fpexcp_test(!strcmp(argv[1], "fpexcp_halts"));
  else
    FAIL("unknown mode %s", argv[1]);
  CHECK(hsa_executable_destroy(exec));
  CHECK(hsa_shut_down());
  printf("ok shut_down\n");
  return 0;
}
