/* SPDX-License-Identifier: MIT */
/* queue_work.c — queues doing work, for the queue_*.sh tests (runs on ours and on ROCR).
 *   queue_work leak N           create and destroy N GPU queues; prints open fds and mappings
 *                               before and after (after one warm-up queue)
 *   queue_work barrier cpu|gpu  barrier-AND / barrier-OR dependency chains with completion
 *                               signals: packets must not complete before their dependencies
 *   queue_work mp cpu|gpu T N   T threads submit N barrier packets each to one queue, each
 *                               with its own completion signal: every one must complete
 *   queue_work stress gpu T N R R rounds of T threads x N barrier packets on one queue (each
 *                               round starting together after 10 ms of idleness), all counting
 *                               down one signal; a round not done within 60 s is a stall and
 *                               fails with what the queue shows
 *   queue_work call             agent dispatch packets on a CPU agent's queue (our extension)
 *   queue_work allgpus          two queues on every GPU, a barrier through each
 *   queue_work cpuerr           a kernel dispatch on a CPU queue reaches its callback, stops it
 * Prints "ok ..." lines and exits 0 on success, "FAIL ..." and 1 otherwise, 3 when the GPU
 * never processed a packet (no command processor in this simulator yet). */
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
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
    exit(1);                                                                               \
  } while (0)
#define CHECK(call)                                                                        \
  do {                                                                                     \
    hsa_status_t s_ = (call);                                                              \
    if (s_ != HSA_STATUS_SUCCESS) FAIL("%s = 0x%x (line %d)", #call, (unsigned)s_, __LINE__); \
  } while (0)

static hsa_agent_t gpu, cpu;
static int have_gpu, have_cpu;

static hsa_status_t pick(hsa_agent_t a, void *data) {
  (void)data;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !have_gpu) gpu = a, have_gpu = 1;
  if (t == HSA_DEVICE_TYPE_CPU && !have_cpu) cpu = a, have_cpu = 1;
  return HSA_STATUS_SUCCESS;
}

static int count_fds(void) {
  int n = 0;
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  while (readdir(d)) n++;
  closedir(d);
  return n;
}

static int count_maps(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) return -1;
  int n = 0, c;
  while ((c = fgetc(f)) != EOF) n += c == '\n';
  fclose(f);
  return n;
}

static hsa_queue_t *make_queue(hsa_agent_t a, uint32_t size) {
  hsa_queue_t *q = NULL;
  CHECK(hsa_queue_create(a, size, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  return q;
}

/* stress: give the CPU away between publishing a packet and ringing, as a preempted producer
 * does, so other producers' doorbell stores overtake this one */
static int yield_before_ring;

/* Reserves a slot, writes a barrier packet with its header last, rings the doorbell. */
static void submit_barrier(hsa_queue_t *q, uint16_t type, const hsa_signal_t *deps, int ndeps,
                           hsa_signal_t completion) {
  uint64_t idx = hsa_queue_add_write_index_scacq_screl(q, 1);
  while (idx - hsa_queue_load_read_index_scacquire(q) >= q->size) sched_yield();
  hsa_barrier_and_packet_t *p =
      (hsa_barrier_and_packet_t *)q->base_address + (idx & (q->size - 1));
  memset((char *)p + 4, 0, sizeof(*p) - 4);
  for (int i = 0; i < ndeps; i++) p->dep_signal[i] = deps[i];
  p->completion_signal = completion;
  uint16_t header = (uint16_t)(type << HSA_PACKET_HEADER_TYPE |
                               HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                               HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  __atomic_store_n((uint32_t *)p, header, __ATOMIC_RELEASE);
  if (yield_before_ring) sched_yield();
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
}

static hsa_signal_t sig(hsa_signal_value_t v) {
  hsa_signal_t s;
  CHECK(hsa_signal_create(v, 0, NULL, &s));
  return s;
}

static hsa_signal_value_t wait_lt1(hsa_signal_t s, uint64_t ms) {
  return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, ms * 1000000ull,
                                   HSA_WAIT_STATE_BLOCKED);
}

/* The first packet tells whether anything processes the queue at all. */
static void probe(hsa_queue_t *q, int is_gpu) {
  hsa_signal_t done = sig(1);
  submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, NULL, 0, done);
  if (wait_lt1(done, 20000) != 0) {
    if (is_gpu) {
      printf("NOCP the GPU did not process a barrier packet in 20 s\n");
      exit(3);
    }
    FAIL("the CPU queue did not process a barrier packet");
  }
  hsa_signal_destroy(done);
}

static void barrier_test(hsa_agent_t a, int is_gpu) {
  hsa_queue_t *q = make_queue(a, is_gpu ? 64 : 16);
  probe(q, is_gpu);
  /* AND chain: p1 waits on d1,d2; p2 (barrier bit) waits on p1's completion. */
  hsa_signal_t d1 = sig(1), d2 = sig(1), c1 = sig(1), c2 = sig(1);
  hsa_signal_t deps[2] = {d1, d2};
  submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, deps, 2, c1);
  submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, &c1, 1, c2);
  usleep(200000);
  if (hsa_signal_load_scacquire(c1) != 1 || hsa_signal_load_scacquire(c2) != 1)
    FAIL("AND barrier completed before its dependencies");
  hsa_signal_store_screlease(d1, 0);
  usleep(200000);
  if (hsa_signal_load_scacquire(c1) != 1) FAIL("AND barrier completed with one of two deps");
  hsa_signal_store_screlease(d2, 0);
  if (wait_lt1(c2, 10000) != 0 || hsa_signal_load_scacquire(c1) != 0)
    FAIL("AND chain did not complete");
  printf("ok and_chain\n");
  /* OR: completes when either dependency is 0. */
  hsa_signal_t o1 = sig(1), o2 = sig(1), c3 = sig(1);
  hsa_signal_t odeps[2] = {o1, o2};
  submit_barrier(q, HSA_PACKET_TYPE_BARRIER_OR, odeps, 2, c3);
  usleep(200000);
  if (hsa_signal_load_scacquire(c3) != 1) FAIL("OR barrier completed with no dependency met");
  hsa_signal_store_screlease(o2, 0);
  if (wait_lt1(c3, 10000) != 0) FAIL("OR barrier did not complete");
  printf("ok or_barrier\n");
  /* A completion signal is decremented, not set: 5 becomes 4. */
  hsa_signal_t c5 = sig(5);
  submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, NULL, 0, c5);
  if (hsa_signal_wait_scacquire(c5, HSA_SIGNAL_CONDITION_LT, 5, 10000000000ull,
                                HSA_WAIT_STATE_BLOCKED) != 4)
    FAIL("completion signal not decremented by one");
  printf("ok decrement\n");
  uint64_t w = hsa_queue_load_write_index_scacquire(q);
  for (int i = 0; i < 200 && hsa_queue_load_read_index_scacquire(q) != w; i++) usleep(10000);
  if (hsa_queue_load_read_index_scacquire(q) != w) FAIL("read index did not reach write index");
  printf("ok read_index %lu\n", (unsigned long)w);
  hsa_signal_t all[] = {d1, d2, c1, c2, o1, o2, c3, c5};
  for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++) hsa_signal_destroy(all[i]);
  CHECK(hsa_queue_destroy(q));
}

struct producer {
  hsa_queue_t *q;
  int n;
  hsa_signal_t *done;
};

static void *produce(void *arg) {
  struct producer *p = arg;
  for (int i = 0; i < p->n; i++) submit_barrier(p->q, HSA_PACKET_TYPE_BARRIER_AND, NULL, 0, p->done[i]);
  return NULL;
}

static void mp_test(hsa_agent_t a, int is_gpu, int threads, int n) {
  hsa_queue_t *q = make_queue(a, 64);   /* small: producers wrap the ring many times */
  probe(q, is_gpu);
  struct producer *ps = calloc((size_t)threads, sizeof(*ps));
  pthread_t *tid = calloc((size_t)threads, sizeof(*tid));
  for (int t = 0; t < threads; t++) {
    ps[t].q = q;
    ps[t].n = n;
    ps[t].done = calloc((size_t)n, sizeof(hsa_signal_t));
    for (int i = 0; i < n; i++) ps[t].done[i] = sig(1);
  }
  for (int t = 0; t < threads; t++) pthread_create(&tid[t], NULL, produce, &ps[t]);
  for (int t = 0; t < threads; t++) pthread_join(tid[t], NULL);
  int lost = 0;
  for (int t = 0; t < threads; t++)
    for (int i = 0; i < n; i++) {
      if (wait_lt1(ps[t].done[i], 20000) != 0) lost++;
      hsa_signal_destroy(ps[t].done[i]);
    }
  if (lost) FAIL("%d of %d packets never completed", lost, threads * n);
  uint64_t w = hsa_queue_load_write_index_relaxed(q);
  if (w != (uint64_t)threads * n + 1) FAIL("write index %lu, want %d", (unsigned long)w, threads * n + 1);
  printf("ok mp %d x %d packets\n", threads, n);
  CHECK(hsa_queue_destroy(q));
}

struct stresser {
  hsa_queue_t *q;
  int n;
  hsa_signal_t count;
  pthread_barrier_t *go;
};

static void *stress_produce(void *arg) {
  struct stresser *p = arg;
  pthread_barrier_wait(p->go);   /* all at once: their doorbell stores race */
  for (int i = 0; i < p->n; i++) submit_barrier(p->q, HSA_PACKET_TYPE_BARRIER_AND, NULL, 0, p->count);
  return NULL;
}

/* Producers ring with their own packet ids, so the doorbell's last value is often lower than
 * an earlier one: a packet processor bounded by the doorbell value it reads stalls at the
 * end of a round, most often when the burst starts on an idle queue (it wakes up to find
 * only the last value). */
static void stress_test(hsa_agent_t a, int is_gpu, int threads, int n, int rounds) {
  hsa_queue_t *q = make_queue(a, 64);
  probe(q, is_gpu);
  hsa_signal_t count = sig(0);
  pthread_t *tid = calloc((size_t)threads, sizeof(*tid));
  struct stresser *ps = calloc((size_t)threads, sizeof(*ps));
  pthread_barrier_t go;
  pthread_barrier_init(&go, NULL, (unsigned)threads);
  yield_before_ring = 1;
  for (int r = 0; r < rounds; r++) {
    hsa_signal_store_screlease(count, (hsa_signal_value_t)threads * n);
    usleep(10000);   /* idle: the packet processor goes to sleep, so the burst below wakes it */
    for (int t = 0; t < threads; t++) {
      ps[t] = (struct stresser){ q, n, count, &go };
      pthread_create(&tid[t], NULL, stress_produce, &ps[t]);
    }
    for (int t = 0; t < threads; t++) pthread_join(tid[t], NULL);
    hsa_signal_value_t left = hsa_signal_wait_scacquire(count, HSA_SIGNAL_CONDITION_EQ, 0,
                                                        60000000000ull, HSA_WAIT_STATE_BLOCKED);
    if (left != 0)
      FAIL("stall in round %d: %ld of %d packets not done after 60 s (read index %lu, write "
           "index %lu)", r, (long)left, threads * n,
           (unsigned long)hsa_queue_load_read_index_scacquire(q),
           (unsigned long)hsa_queue_load_write_index_scacquire(q));
  }
  uint64_t w = hsa_queue_load_write_index_scacquire(q);
  if (w != (uint64_t)threads * n * rounds + 1)
    FAIL("write index %lu, want %d", (unsigned long)w, threads * n * rounds + 1);
  printf("ok stress %d rounds of %d x %d packets\n", rounds, threads, n);
  pthread_barrier_destroy(&go);
  hsa_signal_destroy(count);
  CHECK(hsa_queue_destroy(q));
}

static void leak_cycles(int n) {
  for (int i = 0; i < n; i++) {
    hsa_queue_t *q = make_queue(gpu, 64 << (i % 4));
    if (i % 3 == 0) {   /* and some with work left in flight */
      hsa_signal_t s = sig(1);
      hsa_signal_t dep = sig(1);
      submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, &dep, 1, s);
      CHECK(hsa_queue_destroy(q));
      hsa_signal_destroy(s);
      hsa_signal_destroy(dep);
    } else {
      CHECK(hsa_queue_destroy(q));
    }
  }
}

static void leak_test(int n) {
  /* Warm-up: what the process keeps (doorbell and event pages, signal and sub-allocator
   * chunks, the fault-watch events) exists before the count. */
  leak_cycles(30);
  int fds = count_fds(), maps = count_maps();
  uint64_t ts;
  /* each a GET_CLOCK_COUNTERS ioctl: marks where the counted cycles start and end in the
   * simulator's trace, for the script to count buffer objects in between */
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ts);
  leak_cycles(n);
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &ts);
  printf("fds %d %d\nmaps %d %d\n", fds, count_fds(), maps, count_maps());
}

/* The memory n live queues add: the context-save area (~21 MiB a queue on gfx900) is fresh
 * zeroed memory that only a wave save touches, so it must stay out of the resident set. */
static long rss_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long v = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6)) v = strtol(line + 6, NULL, 10);
  if (f) fclose(f);
  return v;
}

static void rss_test(int n) {
  hsa_queue_t *q[64];
  if (n > 64) n = 64;
  CHECK(hsa_queue_destroy(make_queue(gpu, 1024)));   /* warm-up: the process-wide pieces */
  long before = rss_kib();
  for (int i = 0; i < n; i++) q[i] = make_queue(gpu, 1024);
  long after = rss_kib();
  for (int i = 0; i < n; i++) CHECK(hsa_queue_destroy(q[i]));
  printf("rss_growth_kib %ld\n", after - before);
}

static void hello(uint64_t a, uint64_t b, uint64_t c, void *ret) {
  *(uint64_t *)ret = a * 100 + b * 10 + c;
}

static void call_test(void) {
  hsa_queue_t *q = make_queue(cpu, 16);
  uint64_t result = 0;
  hsa_signal_t done = sig(1);
  uint64_t idx = hsa_queue_add_write_index_relaxed(q, 1);
  hsa_agent_dispatch_packet_t *p = (hsa_agent_dispatch_packet_t *)q->base_address + (idx % q->size);
  memset((char *)p + 4, 0, sizeof(*p) - 4);
  p->arg[0] = (uint64_t)(uintptr_t)hello;
  p->arg[1] = 1, p->arg[2] = 2, p->arg[3] = 3;
  p->return_address = &result;
  p->completion_signal = done;
  /* header and type in one store: the packet becomes valid with its function set */
  __atomic_store_n((uint32_t *)p,
                   HSA_PACKET_TYPE_AGENT_DISPATCH << HSA_PACKET_HEADER_TYPE | 1u << 16,
                   __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
  if (wait_lt1(done, 10000) != 0) FAIL("agent dispatch did not complete");
  if (result != 123) FAIL("agent dispatch result %lu, want 123", (unsigned long)result);
  printf("ok agent_dispatch 123\n");
  hsa_signal_destroy(done);
  CHECK(hsa_queue_destroy(q));
}

/* Every GPU at once: a queue on each (each GPU's own doorbell slice), a barrier on each. */
static hsa_agent_t gpus[8];
static int ngpus;
static hsa_status_t all_gpus(hsa_agent_t a, void *d) {
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && ngpus < 8) gpus[ngpus++] = a;
  return HSA_STATUS_SUCCESS;
}

static void all_gpus_test(void) {
  hsa_iterate_agents(all_gpus, NULL);
  hsa_queue_t *qs[8][2];
  for (int g = 0; g < ngpus; g++)
    for (int k = 0; k < 2; k++) qs[g][k] = make_queue(gpus[g], 64);
  for (int g = 0; g < ngpus; g++)
    for (int k = 0; k < 2; k++) {
      if (g > 0 && qs[g][k]->doorbell_signal.handle == qs[0][k]->doorbell_signal.handle)
        FAIL("two GPUs share a doorbell signal");
      probe(qs[g][k], 1);
    }
  for (int g = 0; g < ngpus; g++)
    for (int k = 0; k < 2; k++) CHECK(hsa_queue_destroy(qs[g][k]));
  printf("ok %d GPUs, 2 queues each\n", ngpus);
}

static volatile hsa_status_t cpu_error;
static hsa_queue_t *volatile cpu_error_queue;
static void on_cpu_error(hsa_status_t s, hsa_queue_t *q, void *d) {
  (void)d;
  cpu_error_queue = q;
  cpu_error = s;
}

/* A kernel dispatch packet on a CPU queue is not something a CPU agent runs: the callback is
 * told, the queue stops, later packets stay unprocessed. */
static void cpu_error_test(void) {
  hsa_queue_t *q = NULL;
  CHECK(hsa_queue_create(cpu, 16, HSA_QUEUE_TYPE_MULTI, on_cpu_error, NULL, 0, 0, &q));
  hsa_signal_t done = sig(1);
  uint64_t idx = hsa_queue_add_write_index_relaxed(q, 1);
  hsa_kernel_dispatch_packet_t *p = (hsa_kernel_dispatch_packet_t *)q->base_address + idx % q->size;
  memset((char *)p + 4, 0, sizeof(*p) - 4);
  p->completion_signal = done;
  __atomic_store_n((uint32_t *)p, HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE,
                   __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
  for (int i = 0; i < 1000 && !cpu_error; i++) usleep(10000);
  if (cpu_error != HSA_STATUS_ERROR_INVALID_PACKET_FORMAT || cpu_error_queue != q)
    FAIL("CPU queue error 0x%x on %p", (unsigned)cpu_error, (void *)cpu_error_queue);
  hsa_signal_t after = sig(1);
  submit_barrier(q, HSA_PACKET_TYPE_BARRIER_AND, NULL, 0, after);
  usleep(100000);
  if (hsa_signal_load_scacquire(after) != 1 || hsa_signal_load_scacquire(done) != 1)
    FAIL("a stopped CPU queue went on");
  printf("ok cpu queue error 0x%x\n", (unsigned)cpu_error);
  CHECK(hsa_queue_destroy(q));
  hsa_signal_destroy(done);
  hsa_signal_destroy(after);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc < 2) return 2;
  CHECK(hsa_init());
  hsa_iterate_agents(pick, NULL);
  int on_gpu = argc > 2 && !strcmp(argv[2], "gpu");
  if ((on_gpu || !strcmp(argv[1], "leak") || !strcmp(argv[1], "rss")) && !have_gpu) FAIL("no GPU agent");
  hsa_agent_t a = on_gpu ? gpu : cpu;
  if (!strcmp(argv[1], "leak"))
    leak_test(argc > 2 ? atoi(argv[2]) : 200);
  else if (!strcmp(argv[1], "rss"))
    rss_test(argc > 2 ? atoi(argv[2]) : 16);
  else if (!strcmp(argv[1], "barrier"))
    barrier_test(a, on_gpu);
  else if (!strcmp(argv[1], "mp"))
    mp_test(a, on_gpu, argc > 3 ? atoi(argv[3]) : 8, argc > 4 ? atoi(argv[4]) : 100);
  else if (!strcmp(argv[1], "stress"))
    stress_test(a, on_gpu, argc > 3 ? atoi(argv[3]) : 16, argc > 4 ? atoi(argv[4]) : 50,
                argc > 5 ? atoi(argv[5]) : 30);
  else if (!strcmp(argv[1], "call"))
    call_test();
  else if (!strcmp(argv[1], "cpuerr"))
    cpu_error_test();
  else if (!strcmp(argv[1], "allgpus"))
    all_gpus_test();
  else
    return 2;
  CHECK(hsa_shut_down());
  return 0;
}
