/* SPDX-License-Identifier: MIT */
/* sim_threads_client.c — two queues dispatching at once (sim_threads.sh): two host threads,
 * each with its own queue and buffers, submit a chain of `step` dispatches (sim_threads.cl)
 * back to back, packet k reading what packet k-1 wrote (barrier bit, system-scope fences), so
 * each packet's acquire must see every work-group of the one before. The final buffers and
 * the atomic counters are compared with the same chain computed on the host.
 *   sim_threads_client CODE_OBJECT */
#include <pthread.h>
#include <stdbool.h>

#include "lib/client.h"

struct chain {
  const char *name;
  uint32_t n;          /* work-items (a multiple of wg) */
  uint16_t wg;
  unsigned steps;
  hsa_queue_t *q;
  uint32_t *buf[2], *sum;
  void *kernarg;       /* steps blocks of kernarg_size bytes */
  hsa_signal_t done;
};

static hsa_agent_t gpu;
static struct client_kernel kern;
static struct client_regions regions;
static pthread_barrier_t start;

static void host_step(const uint32_t *in, uint32_t *out, uint32_t *sum, uint32_t n, uint32_t wg)
{
  for (uint32_t g = 0; g < n / wg; g++) {
    uint32_t group = 0;
    for (uint32_t l = 0; l < wg; l++) {
      uint32_t i = g * wg + l;
      uint32_t left = l == 0 ? in[(i + n - 1) % n] : in[i - 1];
      uint32_t right = l == wg - 1u ? in[(i + 1) % n] : in[i + 1];
      uint32_t r = left * 3u + in[i] * 5u + (right ^ (right >> 7)) + 0x9e3779b9u;
      for (int k = 0; k < 8; k++)
        r = (r * 1664525u + 1013904223u) ^ (r >> 13);
      out[i] = r;
      group += r & 0xffffu;
    }
    *sum += group;
  }
}

static void *alloc_fine(size_t bytes)
{
  void *p = NULL;
  CHECK(hsa_memory_allocate(regions.fine, bytes, &p));
  return p;
}

static void setup(struct chain *c)
{
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_SINGLE, NULL, NULL, UINT32_MAX, UINT32_MAX, &c->q));
  for (int b = 0; b < 2; b++)
    c->buf[b] = alloc_fine(c->n * sizeof(uint32_t));
  c->sum = alloc_fine(sizeof(uint32_t));
  *c->sum = 0;
  for (uint32_t i = 0; i < c->n; i++) {
    c->buf[0][i] = i * 2654435761u ^ c->n;
    c->buf[1][i] = 0;
  }
  uint32_t ka = (kern.kernarg_size + 63u) & ~63u;
  CHECK(hsa_memory_allocate(regions.kernarg, (size_t)ka * c->steps, &c->kernarg));
  memset(c->kernarg, 0, (size_t)ka * c->steps);
  for (unsigned s = 0; s < c->steps; s++) {
    char *k = (char *)c->kernarg + (size_t)ka * s;
    uint64_t in = (uint64_t)(uintptr_t)c->buf[s % 2], out = (uint64_t)(uintptr_t)c->buf[(s + 1) % 2];
    uint64_t sum = (uint64_t)(uintptr_t)c->sum;
    memcpy(k, &in, 8);
    memcpy(k + 8, &out, 8);
    memcpy(k + 16, &sum, 8);
    memcpy(k + 24, &c->n, 4);
  }
  CHECK(hsa_signal_create((hsa_signal_value_t)c->steps, 0, NULL, &c->done));
}

static void *submit(void *arg)
{
  struct chain *c = arg;
  uint32_t ka = (kern.kernarg_size + 63u) & ~63u;
  pthread_barrier_wait(&start);
  for (unsigned s = 0; s < c->steps; s++)
    client_dispatch(c->q, &kern, (char *)c->kernarg + (size_t)ka * s, c->n, c->wg, c->done);
  hsa_signal_value_t v = hsa_signal_wait_scacquire(c->done, HSA_SIGNAL_CONDITION_EQ, 0,
                                                    UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
  if (v != 0)
    FAIL("%s: completion signal %lld", c->name, (long long)v);
  return NULL;
}

static int check(const struct chain *c)
{
  uint32_t *a = malloc(c->n * sizeof(uint32_t)), *b = malloc(c->n * sizeof(uint32_t)), sum = 0;
  if (!a || !b)
    FAIL("out of memory");
  for (uint32_t i = 0; i < c->n; i++)
    a[i] = i * 2654435761u ^ c->n;
  for (unsigned s = 0; s < c->steps; s++) {
    host_step(a, b, &sum, c->n, c->wg);
    uint32_t *t = a;
    a = b;
    b = t;
  }
  const uint32_t *got = c->buf[c->steps % 2];
  unsigned bad = 0;
  for (uint32_t i = 0; i < c->n; i++)
    if (got[i] != a[i] && bad++ < 4)
      printf("%s: element %u is 0x%08x, the host says 0x%08x\n", c->name, i, got[i], a[i]);
  if (*c->sum != sum)
    printf("%s: the atomic sum is 0x%08x, the host says 0x%08x\n", c->name, *c->sum, sum);
  else if (!bad)
    printf("%s: %u steps of %u work-items in groups of %u match the host (sum 0x%08x)\n", c->name,
           c->steps, c->n, c->wg, sum);
  free(a);
  free(b);
  return bad || *c->sum != sum;
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: sim_threads_client CODE_OBJECT\n");
    return 2;
  }
  CHECK(hsa_init());
  struct client_agents ag = {0};
  hsa_iterate_agents(client_pick_agents, &ag);
  if (!ag.gpu.handle)
    FAIL("no GPU agent");
  gpu = ag.gpu;
  hsa_agent_iterate_regions(ag.cpu, client_pick_regions, &regions);
  if (!regions.kernarg.handle || !regions.fine.handle)
    FAIL("no kernarg or fine-grained region");
  hsa_executable_t exec;
  client_load(gpu, argv[1], &exec);
  kern = client_kernel_named(exec, gpu, "step");

  struct chain c[2] = {
    { .name = "queue A", .n = 32768, .wg = 256, .steps = 6 },
    { .name = "queue B", .n = 24576, .wg = 64, .steps = 8 },
  };
  for (int i = 0; i < 2; i++)
    setup(&c[i]);
  pthread_barrier_init(&start, NULL, 2);
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    if (pthread_create(&t[i], NULL, submit, &c[i]))
      FAIL("pthread_create");
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  int bad = 0;
  for (int i = 0; i < 2; i++)
    bad |= check(&c[i]);
  for (int i = 0; i < 2; i++) {
    hsa_signal_destroy(c[i].done);
    hsa_queue_destroy(c[i].q);
  }
  hsa_executable_destroy(exec);
  hsa_shut_down();
  if (bad)
    FAIL("the GPU's results differ from the host's");
  printf("ok\n");
  return 0;
}
