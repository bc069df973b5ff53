/* SPDX-License-Identifier: MIT */
/* signal_client.c — exercises the HSA signal API with defined behaviour only and prints
 * every observable result, one per line, so two runtimes can be compared line for line
 * (tests/integration/signal_vs_rocr.sh runs it on Debian's ROCR 5.2.3 and on ours under
 * hsa-sim). Timing results are printed as facts ("early" / "ok"), not durations. */
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ext_amd.h"

static uint64_t now_ns(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

#define SEVEN(op)                                                                           \
  {hsa_signal_##op##_relaxed, hsa_signal_##op##_scacquire, hsa_signal_##op##_acquire,      \
   hsa_signal_##op##_screlease, hsa_signal_##op##_release, hsa_signal_##op##_scacq_screl,   \
   hsa_signal_##op##_acq_rel}
static const char *const orders[7] = {"relaxed", "scacquire", "acquire", "screlease",
                                      "release", "scacq_screl", "acq_rel"};

static sem_t fired;
static hsa_signal_value_t fired_value;
static bool on_signal(hsa_signal_value_t v, void *arg)
{
  (void)arg;
  fired_value = v;
  sem_post(&fired);
  return false;
}

static hsa_agent_t cpu, gpu;
static hsa_status_t agents(hsa_agent_t a, void *d)
{
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) cpu = a;
  if (t == HSA_DEVICE_TYPE_GPU && !gpu.handle) gpu = a;
  return HSA_STATUS_SUCCESS;
}

static void timeouts(const char *what, hsa_signal_t s, uint64_t freq)
{
  const hsa_wait_state_t hint[2] = {HSA_WAIT_STATE_ACTIVE, HSA_WAIT_STATE_BLOCKED};
  for (int h = 0; h < 2; h++) {
    uint64_t t0 = now_ns();
    hsa_signal_value_t v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 99,
                                                     freq / 1000 * 20, hint[h]);
    uint64_t dt = now_ns() - t0;
    /* a timeout hint may be cut short by the spec; report whether it was honoured */
    printf("%s timeout hint %d value %lld %s\n", what, h, (long long)v,
           dt >= 20000000ull ? "ok" : "early");
  }
}

int main(void)
{
  typedef void (*op_fn)(hsa_signal_t, hsa_signal_value_t);
  typedef hsa_signal_value_t (*ret_fn)(hsa_signal_t, hsa_signal_value_t);
  typedef hsa_signal_value_t (*cas_fn)(hsa_signal_t, hsa_signal_value_t, hsa_signal_value_t);
  static const op_fn rmw[5][7] = {SEVEN(add), SEVEN(subtract), SEVEN(and), SEVEN(or), SEVEN(xor)};
  static const char *const rmw_names[5] = {"add", "subtract", "and", "or", "xor"};
  static const ret_fn xchg[7] = SEVEN(exchange);
  static const cas_fn cas[7] = SEVEN(cas);

  setvbuf(stdout, NULL, _IOLBF, 0);
  printf("init %d\n", hsa_init());
  hsa_iterate_agents(agents, NULL);
  uint64_t freq = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq);

  hsa_signal_t s, g;
  printf("create %d\n", hsa_signal_create(100, 0, NULL, &s));
  printf("create_gpu_only %d\n", hsa_amd_signal_create(5, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &g));
  printf("create_null %d\n", hsa_signal_create(0, 0, NULL, NULL));
  hsa_agent_t dup[2] = {cpu, cpu};
  hsa_signal_t x;
  printf("create_dup_consumers %d\n", hsa_signal_create(0, 2, dup, &x));
  hsa_agent_t both[2] = {gpu, cpu};
  printf("create_consumers %d\n", hsa_signal_create(3, 2, both, &x));
  printf("load_consumers %lld\n", (long long)hsa_signal_load_relaxed(x));
  printf("destroy_consumers %d\n", hsa_signal_destroy(x));

  /* layout: the handle is the amd_signal_t, value at +8 */
  printf("value_at_8 %lld\n", (long long)*(volatile int64_t *)(uintptr_t)(s.handle + 8));
  printf("kind %lld\n", (long long)*(volatile int64_t *)(uintptr_t)s.handle);

  hsa_signal_t sigs[2] = {s, g};
  const char *names[2] = {"interrupt", "gpu_only"};
  for (int k = 0; k < 2; k++) {
    hsa_signal_t t = sigs[k];
    int64_t v = 12345;
    hsa_signal_store_relaxed(t, v);
    for (int op = 0; op < 5; op++)
      for (int o = 0; o < 7; o++) {
        rmw[op][o](t, 0x35 + op * 7 + o);
        printf("%s %s_%s %lld\n", names[k], rmw_names[op], orders[o],
               (long long)hsa_signal_load_scacquire(t));
      }
    for (int o = 0; o < 7; o++) {
      printf("%s exchange_%s %lld", names[k], orders[o], (long long)xchg[o](t, 1000 + o));
      printf(" %lld\n", (long long)hsa_signal_load_relaxed(t));
      printf("%s cas_miss_%s %lld", names[k], orders[o], (long long)cas[o](t, -1, 7));
      printf(" %lld\n", (long long)hsa_signal_load_relaxed(t));
      printf("%s cas_hit_%s %lld", names[k], orders[o], (long long)cas[o](t, 1000 + o, 2000 + o));
      printf(" %lld\n", (long long)hsa_signal_load_acquire(t));
    }
    hsa_signal_silent_store_relaxed(t, -3);
    printf("%s silent_store_relaxed %lld\n", names[k], (long long)hsa_signal_load_relaxed(t));
    hsa_signal_silent_store_screlease(t, -4);
    printf("%s silent_store_screlease %lld\n", names[k], (long long)hsa_signal_load_relaxed(t));
    hsa_signal_store_release(t, -5);
    printf("%s store_release %lld\n", names[k], (long long)hsa_signal_load_relaxed(t));
    hsa_signal_store_screlease(t, 7);
    printf("%s wait_eq %lld\n", names[k], (long long)hsa_signal_wait_scacquire(
               t, HSA_SIGNAL_CONDITION_EQ, 7, UINT64_MAX, HSA_WAIT_STATE_BLOCKED));
    printf("%s wait_ne %lld\n", names[k], (long long)hsa_signal_wait_relaxed(
               t, HSA_SIGNAL_CONDITION_NE, 8, UINT64_MAX, HSA_WAIT_STATE_ACTIVE));
    printf("%s wait_lt %lld\n", names[k], (long long)hsa_signal_wait_acquire(
               t, HSA_SIGNAL_CONDITION_LT, 8, UINT64_MAX, HSA_WAIT_STATE_BLOCKED));
    printf("%s wait_gte %lld\n", names[k], (long long)hsa_signal_wait_scacquire(
               t, HSA_SIGNAL_CONDITION_GTE, 7, UINT64_MAX, HSA_WAIT_STATE_ACTIVE));
    timeouts(names[k], t, freq);
  }

  /* value pointer: only polled signals (ROCR's rule) */
  volatile hsa_signal_value_t *vp = NULL;
  printf("value_pointer_interrupt %d\n", hsa_amd_signal_value_pointer(s, &vp));
  hsa_status_t st = hsa_amd_signal_value_pointer(g, &vp);
  printf("value_pointer_gpu_only %d at_8 %d\n", st, st == 0 && (uintptr_t)vp == g.handle + 8);

  /* wait_any */
  hsa_signal_t any[2] = {s, g};
  hsa_signal_condition_t conds[2] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ};
  hsa_signal_value_t vals[2] = {1, 2}, sat = 0;
  hsa_signal_store_relaxed(s, 0);
  hsa_signal_store_relaxed(g, 2);
  printf("wait_any %u", hsa_amd_signal_wait_any(2, any, conds, vals, UINT64_MAX,
                                                 HSA_WAIT_STATE_ACTIVE, &sat));
  printf(" %lld\n", (long long)sat);

  /* groups */
  hsa_signal_group_t grp;
  printf("group_create %d\n", hsa_signal_group_create(1, &s, 0, NULL, &grp));
  printf("group_create_empty %d\n", hsa_signal_group_create(0, &s, 0, NULL, &grp));
  hsa_signal_t which = {0};
  hsa_signal_value_t wv = 0;
  hsa_signal_store_relaxed(s, 1);
  st = hsa_signal_group_wait_any_scacquire(grp, conds, vals, HSA_WAIT_STATE_BLOCKED, &which, &wv);
  printf("group_wait %d %d %lld\n", st, which.handle == s.handle, (long long)wv);
  printf("group_destroy %d\n", hsa_signal_group_destroy(grp));

  /* async handler */
  sem_init(&fired, 0, 0);
  hsa_signal_store_relaxed(s, 0);
  printf("async_bad_handler %d\n", hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 3, NULL, NULL));
  printf("async_gpu_only %d\n", hsa_amd_signal_async_handler(g, HSA_SIGNAL_CONDITION_EQ, 3, on_signal, NULL));
  printf("async %d\n", hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 3, on_signal, NULL));
  hsa_signal_store_screlease(s, 2);
  hsa_signal_store_screlease(s, 3);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_sec += 10;
  int r = sem_timedwait(&fired, &ts);
  printf("async_fired %d %lld\n", r, (long long)fired_value);

  printf("destroy %d\n", hsa_signal_destroy(s));
  printf("destroy_gpu_only %d\n", hsa_signal_destroy(g));
  printf("shut_down %d\n", hsa_shut_down());
  return 0;
}
