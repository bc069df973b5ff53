/* SPDX-License-Identifier: MIT */
/* dispatch_client.c — kernel dispatches for the dispatch_*.sh tests; runs on our runtime and
 * on ROCR 5.2.3 (the peer) under hsa-sim. Kernels come from dispatch_kernels.cl, compiled by
 * the script. Modes (CO = the code object):
 *   scratch CO  kernels `priv` and `bigpriv` need private memory; the queue is created with
 *               none, so the runtime must grow scratch when the CP asks (for every slot of
 *               the device, or for bigpriv's huge need for that dispatch only); results
 *               checked on the host
 *   fault CO    kernel `poke` stores to an address no GPU mapping covers: the queue callback
 *               must be called with a memory error and the process go on
 *   badpkt CO   a dispatch with a zero work-group size and a packet of an undefined type: the
 *               queue callback must be called with an error
 *   profile CO  a dispatch on a profiled queue: its start/end times, in the system clock
 *   selfdestroy CO  a queue error callback destroys its own queue (ours only)
 *   destroybusy CO  queues destroyed while a kernel runs on them; the GPU goes on
 *   probe CO    only checks that the GPU processes a barrier packet
 * Prints "ok ..." / "FAIL ..." lines; exit 0 = pass, 1 = fail, 3 = the GPU processed nothing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CLIENT_QUEUE_ERRORS
#include "lib/client.h"

static hsa_agent_t gpu;
static hsa_region_t kernarg_region, data_region;
static hsa_executable_t exec;

static void *alloc(hsa_region_t r, size_t n) {
  void *p = NULL;
  CHECK(hsa_memory_allocate(r, n, &p));
  memset(p, 0, n);
  return p;
}

static hsa_queue_t *queue(void) {
  hsa_queue_t *q = NULL;
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, on_error, NULL, UINT32_MAX, UINT32_MAX, &q));
  return q;
}

static int wait_done(hsa_signal_t s, unsigned seconds) {
  return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, seconds * 1000000000ull,
                                   HSA_WAIT_STATE_BLOCKED) == 0;
}

static void probe(void) {
  hsa_queue_t *q = queue();
  hsa_signal_t s;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  uint64_t idx = hsa_queue_add_write_index_relaxed(q, 1);
  hsa_barrier_and_packet_t *p = (hsa_barrier_and_packet_t *)q->base_address + idx % q->size;
  memset((char *)p + 4, 0, sizeof(*p) - 4);
  p->completion_signal = s;
  __atomic_store_n((uint32_t *)p, HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE,
                   __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
  if (!wait_done(s, 20)) {
    printf("NOCP the GPU did not process a barrier packet\n");
    exit(3);
  }
  hsa_signal_destroy(s);
  CHECK(hsa_queue_destroy(q));
}

static void scratch_test(const char *name, uint32_t words) {
  struct client_kernel k = client_kernel_named(exec, gpu, name);
  if (k.priv < words * 4) FAIL("kernel %s uses %u private bytes (the compiler kept it in registers)", name, k.priv);
  const uint32_t n = 4096;
  uint32_t *out = alloc(data_region, n * 4);
  struct { uint32_t *out; uint32_t n; } *args = alloc(kernarg_region, k.kernarg_size);
  args->out = out, args->n = n;
  hsa_queue_t *q = queue();
  hsa_signal_t done;
  CHECK(hsa_signal_create(1, 0, NULL, &done));
  client_dispatch(q, &k, args, n, 64, done);
  if (!wait_done(done, 120)) FAIL("dispatch needing scratch did not complete (errors %d)", errors);
  for (uint32_t i = 0; i < n; i++) {
    /* what priv/bigpriv compute: t[j] = i * j + 1 for j < words, then t[(i * 7) % words] */
    uint32_t j = (i * 7) % words, want = i * j + 1;
    if (out[i] != want) FAIL("out[%u] = %u, want %u", i, out[i], want);
  }
  printf("ok scratch (%s) %u private bytes per item, %u results\n", name, k.priv, n);
  CHECK(hsa_queue_destroy(q));
}

static void fault_test(void) {
  struct client_kernel k = client_kernel_named(exec, gpu, "poke");
  struct { uint64_t addr; } *args = alloc(kernarg_region, k.kernarg_size > 8 ? k.kernarg_size : 8);
  args->addr = 0x3f0000000000ull;   /* inside the GPU VM range, mapped by nothing */
  hsa_queue_t *q = queue();
  hsa_signal_t done;
  CHECK(hsa_signal_create(1, 0, NULL, &done));
  client_dispatch(q, &k, args, 64, 64, done);
  if (!wait_error(60)) FAIL("no queue error reported for the faulting kernel");
  printf("ok fault reported: 0x%x\n", (unsigned)last_error);
  if (last_error != (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION &&
      last_error != (hsa_status_t)HSA_STATUS_ERROR_MEMORY_FAULT)
    FAIL("fault reported as 0x%x, not a memory fault", (unsigned)last_error);
  CHECK(hsa_queue_destroy(q));
  /* The kernel evicted the process's queues on this GPU for good (as Linux does after a VM
   * fault): a new queue there would never run, so creation is refused with a status, also
   * after a new hsa_init (the kernel's process outlives the runtime). The process itself goes
   * on: memory is used and freed. */
  hsa_queue_t *q2 = NULL;
  hsa_status_t st = hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, on_error, NULL, UINT32_MAX,
                                     UINT32_MAX, &q2);
  if (st != HSA_STATUS_ERROR_OUT_OF_RESOURCES)
    FAIL("a queue on the faulted GPU: status 0x%x, want OUT_OF_RESOURCES", (unsigned)st);
  uint32_t *mem = alloc(data_region, 4096);
  mem[0] = 7;
  CHECK(hsa_memory_free(mem));
  hsa_executable_destroy(exec);
  CHECK(hsa_shut_down());
  CHECK(hsa_init());
  struct client_agents ag = {0};
  hsa_iterate_agents(client_pick_agents, &ag);
  if (!(gpu = ag.gpu).handle) FAIL("no GPU after a new hsa_init");
  st = hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, on_error, NULL, UINT32_MAX, UINT32_MAX,
                        &q2);
  if (st != HSA_STATUS_ERROR_OUT_OF_RESOURCES)
    FAIL("after hsa_init again, a queue on the faulted GPU: status 0x%x", (unsigned)st);
  CHECK(hsa_executable_create_alt(HSA_PROFILE_BASE, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                  NULL, &exec));   /* main destroys one */
  printf("ok after fault\n");
}

/* Profiling: the dispatch's start and end, translated to the system clock, fall between two
 * HSA_SYSTEM_INFO_TIMESTAMP readings taken around it (give or take a millisecond for the
 * translation between the two clocks), in order. */
static void profile_test(void) {
  struct client_kernel k = client_kernel_named(exec, gpu, "poke");
  uint32_t *buf = alloc(data_region, 64 * 4);
  struct { uint32_t *p; } *args = alloc(kernarg_region, k.kernarg_size > 8 ? k.kernarg_size : 8);
  args->p = buf;
  hsa_queue_t *q = queue();
  CHECK(hsa_amd_profiling_set_profiler_enabled(q, 1));
  hsa_signal_t done;
  CHECK(hsa_signal_create(1, 0, NULL, &done));
  uint64_t freq = 0, before = 0, after = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq);
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &before);
  client_dispatch(q, &k, args, 64, 64, done);
  if (!wait_done(done, 60)) FAIL("profiled dispatch did not complete");
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &after);
  if (buf[63] != 42) FAIL("poke did not store");
  hsa_amd_profiling_dispatch_time_t t;
  CHECK(hsa_amd_profiling_get_dispatch_time(gpu, done, &t));
  uint64_t slack = freq / 1000;
  if (t.start > t.end) FAIL("start %lu after end %lu", (unsigned long)t.start, (unsigned long)t.end);
  if (t.start + slack < before || t.end > after + slack)
    FAIL("dispatch [%lu, %lu] outside [%lu, %lu]", (unsigned long)t.start, (unsigned long)t.end,
         (unsigned long)before, (unsigned long)after);
  uint64_t sys = 0;
  CHECK(hsa_amd_profiling_convert_tick_to_system_domain(gpu, 0, &sys));
  hsa_agent_t bad = {0};
  if (hsa_amd_profiling_get_dispatch_time(bad, done, &t) == HSA_STATUS_SUCCESS)
    FAIL("dispatch time for agent 0");
  printf("ok profile %lu ticks\n", (unsigned long)(t.end - t.start));
  CHECK(hsa_queue_destroy(q));
}

/* A callback that destroys its own queue (from the runtime's handler thread). */
static volatile int self_destroyed = -1;
static void destroy_self(hsa_status_t s, hsa_queue_t *q, void *d) {
  (void)d;
  last_error = s;
  self_destroyed = (int)hsa_queue_destroy(q);
}

static void selfdestroy_test(void) {
  hsa_queue_t *q = NULL;
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, destroy_self, NULL, UINT32_MAX,
                         UINT32_MAX, &q));
  uint64_t idx = hsa_queue_add_write_index_relaxed(q, 1);
  uint32_t *p = (uint32_t *)((hsa_kernel_dispatch_packet_t *)q->base_address + idx % q->size);
  memset(p + 1, 0, 60);
  __atomic_store_n(p, 6u << HSA_PACKET_HEADER_TYPE, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
  for (int i = 0; i < 3000 && self_destroyed < 0; i++) usleep(10000);
  if (self_destroyed != HSA_STATUS_SUCCESS) FAIL("destroy from the callback: %d", self_destroyed);
  if (hsa_queue_destroy(q) != HSA_STATUS_ERROR_INVALID_QUEUE) FAIL("queue still alive");
  printf("ok destroyed from its own callback (0x%x)\n", (unsigned)last_error);
}

/* Destroying a queue while a kernel runs on it: no crash, no hang. */
static void destroy_busy_test(void) {
  struct client_kernel k = client_kernel_named(exec, gpu, "priv");
  const uint32_t n = 1u << 18;
  uint32_t *out = alloc(data_region, n * 4);
  struct { uint32_t *out; uint32_t n; } *args = alloc(kernarg_region, k.kernarg_size);
  args->out = out, args->n = n;
  for (int round = 0; round < 5; round++) {
    hsa_queue_t *q = queue();
    hsa_signal_t done;
    CHECK(hsa_signal_create(1, 0, NULL, &done));
    client_dispatch(q, &k, args, n, 64, done);
    usleep(20000 * round);
    CHECK(hsa_queue_destroy(q));
    hsa_signal_destroy(done);
  }
  printf("ok destroyed with kernels in flight\n");
  probe();   /* the GPU still runs new queues */
}

static void badpkt_test(void) {
  struct client_kernel k = client_kernel_named(exec, gpu, "poke");
  void *args = alloc(kernarg_region, 64);
  hsa_queue_t *q = queue();
  hsa_signal_t done;
  CHECK(hsa_signal_create(1, 0, NULL, &done));
  client_dispatch(q, &k, args, 64, 0, done);   /* work-group size 0 */
  if (!wait_error(30)) FAIL("no queue error for a zero work-group size");
  printf("ok bad dimensions: 0x%x\n", (unsigned)last_error);
  if (last_error != HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS &&
      last_error != HSA_STATUS_ERROR_INVALID_ARGUMENT)
    FAIL("zero work-group size reported as 0x%x", (unsigned)last_error);
  CHECK(hsa_queue_destroy(q));
  errors = 0;
  q = queue();
  uint64_t idx = hsa_queue_add_write_index_relaxed(q, 1);
  uint32_t *p = (uint32_t *)((hsa_kernel_dispatch_packet_t *)q->base_address + idx % q->size);
  memset(p + 1, 0, 60);
  __atomic_store_n(p, 6u << HSA_PACKET_HEADER_TYPE, __ATOMIC_RELEASE);   /* no such type */
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
  if (!wait_error(30)) FAIL("no queue error for an undefined packet type");
  printf("ok bad packet type: 0x%x\n", (unsigned)last_error);
  if (last_error != HSA_STATUS_ERROR_INVALID_PACKET_FORMAT)
    FAIL("undefined packet type reported as 0x%x", (unsigned)last_error);
  CHECK(hsa_queue_destroy(q));
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc < 3) return 2;
  CHECK(hsa_init());
  struct client_agents ag = {0};
  hsa_iterate_agents(client_pick_agents, &ag);
  if (!(gpu = ag.gpu).handle) FAIL("no GPU");
  struct client_regions rg = {0};
  hsa_agent_iterate_regions(gpu, client_pick_regions, &rg);
  kernarg_region = rg.kernarg, data_region = rg.fine;
  if (!kernarg_region.handle || !data_region.handle) FAIL("no kernarg or fine-grained region");
  probe();
  if (!strcmp(argv[1], "probe")) {
    printf("ok probe\n");
    return 0;
  }
  client_load(gpu, argv[2], &exec);
  if (!strcmp(argv[1], "scratch")) {
    scratch_test("priv", 64);
    scratch_test("bigpriv", 600);
  }
  else if (!strcmp(argv[1], "fault"))
    fault_test();
  else if (!strcmp(argv[1], "badpkt"))
    badpkt_test();
  else if (!strcmp(argv[1], "profile"))
    profile_test();
  else if (!strcmp(argv[1], "selfdestroy"))
    selfdestroy_test();
  else if (!strcmp(argv[1], "destroybusy"))
    destroy_busy_test();
  else
    return 2;
  hsa_executable_destroy(exec);
  CHECK(hsa_shut_down());
  printf("ok shut_down\n");
  return 0;
}
