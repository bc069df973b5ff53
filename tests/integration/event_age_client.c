/* SPDX-License-Identifier: MIT */
/* event_age_client.c — blocking waits and KFD event age. "client race ROUNDS": two threads
 * wait (BLOCKED) on one signal for each next value the main thread stores, so their waits on
 * the one KFD event race the store that sets it; the time from each store to both wake-ups
 * is measured and the longest printed ("worst_ms N"). With event age (1.14+) no wake-up is
 * lost and the waits carry no slices, so a lost one would show as a wait that runs to its
 * 3 s timeout ("lost N"). "client idle MS": one blocked wait that nobody ends, so the
 * simulator's trace counts how many WAIT_EVENTS calls it took (one, or a few, from 1.14; one
 * per 10 ms slice below). */
#include <hsa/hsa.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static hsa_signal_t sig;
static _Atomic int woke = 0, lost = 0, stop = 0;

static uint64_t now_ns(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void *waiter(void *unused)
{
  (void)unused;
  for (long want = 1; !atomic_load(&stop); want++) {
    hsa_signal_value_t v = hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_GTE, want,
                                                     3000000000ull, HSA_WAIT_STATE_BLOCKED);
    if (atomic_load(&stop))
      break;
    if (v < want) {
      atomic_fetch_add(&lost, 1);
      want = v;   /* catch up with the stores */
      continue;
    }
    want = v;
    atomic_fetch_add(&woke, 1);
  }
  return NULL;
}

int main(int argc, char **argv)
{
  if (argc != 3 || hsa_init() != HSA_STATUS_SUCCESS)
    return 2;
  long rounds = atol(argv[2]);
  if (hsa_signal_create(0, 0, NULL, &sig) != HSA_STATUS_SUCCESS)
    return 1;
  if (strcmp(argv[1], "idle") == 0) {
    uint64_t t0 = now_ns();
    hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_EQ, 1, (uint64_t)rounds * 1000000ull,
                              HSA_WAIT_STATE_BLOCKED);
    printf("idle_ms %llu\n", (unsigned long long)((now_ns() - t0) / 1000000ull));
    hsa_signal_destroy(sig);
    hsa_shut_down();
    return 0;
  }
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, waiter, NULL);
  uint64_t worst = 0;
  unsigned seed = 1;
  for (long r = 1; r <= rounds; r++) {
    /* let the waiters get into (or near) the kernel wait: 0..2 ms */
    struct timespec d = {0, (long)(rand_r(&seed) % 2000) * 1000};
    nanosleep(&d, NULL);
    int before = atomic_load(&woke);
    uint64_t t0 = now_ns();
    hsa_signal_store_screlease(sig, r);
    while (atomic_load(&woke) < before + 2 && now_ns() - t0 < 5000000000ull) {
      struct timespec s = {0, 20000};
      nanosleep(&s, NULL);
    }
    uint64_t dt = now_ns() - t0;
    if (dt > worst)
      worst = dt;
  }
  atomic_store(&stop, 1);
  hsa_signal_store_screlease(sig, rounds + 1000);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  printf("worst_ms %llu\nlost %d\nwoke %d\n", (unsigned long long)(worst / 1000000ull),
         atomic_load(&lost), atomic_load(&woke));
  hsa_signal_destroy(sig);
  hsa_shut_down();
  return 0;
}
