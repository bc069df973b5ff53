/* SPDX-License-Identifier: MIT */
/* test_signal.c — signal objects and their value operations on the driver model (runs
 * itself under hsa-sim): every load/store/add/subtract/and/or/xor/exchange/cas name against
 * a host model of the value, the amd_signal_t the handle points at, which signals get a KFD
 * event, invalid handles and arguments, doorbell and internal signals, groups, IPC, and
 * 8 threads of add/cas ending on the exact total. */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/runtime.h"
#include "hsa.h"
#include "hsa_ext_amd.h"
#include "kfd/event.h"
#include "kfd/memory.h"
#include "signals/internal.h"
#include "signals/signal.h"
#include "unit/sim_reexec.h"

SIM_REEXEC("--gpus", "1")

static void setup(void) { ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS); }
static void teardown(void) { ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS); }

static hsa_signal_t make(hsa_signal_value_t v) {
  hsa_signal_t s;
  ck_assert_int_eq(hsa_signal_create(v, 0, NULL, &s), HSA_STATUS_SUCCESS);
  return s;
}

static const amd_signal_t *amd(hsa_signal_t s) { return (const amd_signal_t *)(uintptr_t)s.handle; }

/* ---- the value operations against a model ------------------------------------------------ */

typedef void (*op_fn)(hsa_signal_t, hsa_signal_value_t);
typedef hsa_signal_value_t (*ret_fn)(hsa_signal_t, hsa_signal_value_t);
typedef hsa_signal_value_t (*cas_fn)(hsa_signal_t, hsa_signal_value_t, hsa_signal_value_t);
typedef hsa_signal_value_t (*load_fn)(hsa_signal_t);

#define SEVEN(op)                                                                        \
  {hsa_signal_##op##_relaxed, hsa_signal_##op##_scacquire, hsa_signal_##op##_acquire,   \
   hsa_signal_##op##_screlease, hsa_signal_##op##_release, hsa_signal_##op##_scacq_screl, \
   hsa_signal_##op##_acq_rel}

enum { ADD, SUB, AND, OR, XOR, NOPS };
static const op_fn rmw[NOPS][7] = {SEVEN(add), SEVEN(subtract), SEVEN(and), SEVEN(or), SEVEN(xor)};
static const ret_fn xchg[7] = SEVEN(exchange);
static const cas_fn cas[7] = SEVEN(cas);
static const load_fn loads[3] = {hsa_signal_load_relaxed, hsa_signal_load_scacquire,
                                 hsa_signal_load_acquire};
static const op_fn stores[5] = {hsa_signal_store_relaxed, hsa_signal_store_screlease,
                                hsa_signal_store_release, hsa_signal_silent_store_relaxed,
                                hsa_signal_silent_store_screlease};

static int64_t model_apply(int op, int64_t m, int64_t v) {
  uint64_t a = (uint64_t)m, b = (uint64_t)v;
  switch (op) {
  case ADD: return (int64_t)(a + b);
  case SUB: return (int64_t)(a - b);
  case AND: return (int64_t)(a & b);
  case OR: return (int64_t)(a | b);
  default: return (int64_t)(a ^ b);
  }
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static int64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (int64_t)rng;
}

/* Runs every operation name on s many times; `value_of` reads the value independently. */
static void check_ops(hsa_signal_t s, int64_t (*value_of)(hsa_signal_t)) {
  int64_t m = rnd();
  hsa_signal_store_relaxed(s, m);
  ck_assert_int_eq(value_of(s), m);
  for (int round = 0; round < 50; round++) {
    for (int i = 0; i < 5; i++) {
      m = rnd();
      stores[i](s, m);
      ck_assert_int_eq(value_of(s), m);
      for (int l = 0; l < 3; l++)
        ck_assert_int_eq(loads[l](s), m);
    }
    for (int op = 0; op < NOPS; op++)
      for (int o = 0; o < 7; o++) {
        int64_t v = round & 1 ? rnd() : rnd() % 100;
        rmw[op][o](s, v);
        m = model_apply(op, m, v);
        ck_assert_msg(value_of(s) == m, "op %d order %d: %lld want %lld", op, o,
                      (long long)value_of(s), (long long)m);
      }
    for (int o = 0; o < 7; o++) {
      int64_t v = rnd();
      ck_assert_int_eq(xchg[o](s, v), m);
      m = v;
      ck_assert_int_eq(value_of(s), m);
      int64_t w = rnd();
      ck_assert_int_eq(cas[o](s, m + 1, w), m);    /* mismatch: returns value, no change */
      ck_assert_int_eq(value_of(s), m);
      ck_assert_int_eq(cas[o](s, m, w), m);        /* match: swaps */
      m = w;
      ck_assert_int_eq(value_of(s), m);
    }
  }
}

static int64_t raw_value(hsa_signal_t s) { return amd(s)->value; }

START_TEST(ops_match_model_on_user_signal) {
  hsa_signal_t s = make(0);
  check_ops(s, raw_value);
  ck_assert_int_eq(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(ops_match_model_on_polled_signal) {
  hsa_signal_t s;
  ck_assert_int_eq(hsa_amd_signal_create(3, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &s),
                   HSA_STATUS_SUCCESS);
  check_ops(s, raw_value);
  ck_assert_int_eq(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
}
END_TEST

/* Doorbell signals: the value each operation produces lands in the doorbell word. */
static volatile uint64_t doorbell_word;
static int64_t doorbell_value(hsa_signal_t s) { (void)s; return (int64_t)doorbell_word; }

START_TEST(doorbell_signal_rings_every_value) {
  amd_queue_t q;
  hsa_signal_t s;
  ck_assert_int_eq(sig_doorbell_create(&doorbell_word, &q, &s), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(amd(s)->kind, AMD_SIGNAL_KIND_DOORBELL);
  ck_assert_ptr_eq((void *)amd(s)->hardware_doorbell_ptr, (void *)&doorbell_word);
  ck_assert_ptr_eq(amd(s)->queue_ptr, &q);
  ck_assert_ptr_eq(sig_from_handle(s), amd(s));
  check_ops(s, doorbell_value);
  hsa_signal_store_screlease(s, 41);
  ck_assert_uint_eq(doorbell_word, 41);
  ck_assert_int_eq(hsa_signal_load_scacquire(s), 41);
  /* not the user's to destroy */
  ck_assert_int_eq(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL);
  sig_destroy_internal(s);
  ck_assert_ptr_null(sig_from_handle(s));
}
END_TEST

/* ---- layout, events, creation arguments ---------------------------------------------------- */

static hsa_agent_t cpu_agent, gpu_agent;
static hsa_status_t find_agents(hsa_agent_t a, void *unused) {
  (void)unused;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_CPU && !cpu_agent.handle) cpu_agent = a;
  if (t == HSA_DEVICE_TYPE_GPU && !gpu_agent.handle) gpu_agent = a;
  return HSA_STATUS_SUCCESS;
}

START_TEST(handle_is_the_amd_signal) {
  hsa_signal_t s = make(-77);
  const amd_signal_t *a = amd(s);
  ck_assert_uint_eq(s.handle % AMD_SIGNAL_ALIGN_BYTES, 0);
  ck_assert_int_eq(a->kind, AMD_SIGNAL_KIND_USER);
  ck_assert_int_eq(a->value, -77);
  ck_assert_ptr_eq(sig_from_handle(s), a);
  /* the CP decrements handle + 8: a change made there is the signal's value */
  __atomic_fetch_sub((int64_t *)(uintptr_t)(s.handle + 8), 3, __ATOMIC_SEQ_CST);
  ck_assert_int_eq(hsa_signal_load_relaxed(s), -80);
  ck_assert_int_eq(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
  ck_assert_ptr_null(sig_from_handle(s));
}
END_TEST

/* Which signals get a KFD event: ROCR's rule (CPU among consumers or none; not GPU-only/IPC).
 * The mailbox must be a slot of the event page the driver knows: SET_EVENT on that id works,
 * and the slot reads "unsignaled" until the GPU writes it. */
START_TEST(interrupt_signals_have_events) {
  hsa_iterate_agents(find_agents, NULL);
  ck_assert(cpu_agent.handle && gpu_agent.handle);
  hsa_signal_t plain = make(1), with_cpu, gpu_only, attr_gpu_only;
  hsa_agent_t both[2] = {gpu_agent, cpu_agent};
  ck_assert_int_eq(hsa_signal_create(1, 2, both, &with_cpu), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_create(1, 1, &gpu_agent, &gpu_only), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_amd_signal_create(1, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &attr_gpu_only),
                   HSA_STATUS_SUCCESS);
  const amd_signal_t *p = amd(plain), *c = amd(with_cpu);
  ck_assert_uint_ne(p->event_mailbox_ptr, 0);
  ck_assert_uint_ne(c->event_mailbox_ptr, 0);
  ck_assert_uint_ne(p->event_id, c->event_id);
  ck_assert_uint_eq(amd(gpu_only)->event_mailbox_ptr, 0);
  ck_assert_uint_eq(amd(attr_gpu_only)->event_mailbox_ptr, 0);
  ck_assert_uint_eq(*(volatile uint64_t *)(uintptr_t)p->event_mailbox_ptr, UINT64_MAX);
  /* slot = event id: the mailboxes are 8 bytes apart per id */
  ck_assert_int_eq((int64_t)(c->event_mailbox_ptr - p->event_mailbox_ptr),
                   ((int64_t)c->event_id - (int64_t)p->event_id) * 8);
  struct core_runtime *rt = core_rt();
  /* a dGPU: the page is our GTT buffer in the GPUVM aperture, which the CP can write */
  const struct core_agent *g = rt->agents[rt->cpu_count];
  ck_assert(g->has_aperture && !g->drm.integrated);
  ck_assert_uint_ge(p->event_mailbox_ptr, g->aperture.gpuvm_base);
  ck_assert_uint_lt(p->event_mailbox_ptr, g->aperture.gpuvm_limit);
  ck_assert_int_eq(kfd_event_set(&rt->kfd, p->event_id), 0);
  uint32_t res, id = p->event_id;
  ck_assert_int_eq(kfd_event_wait(&rt->kfd, &id, 1, true, 0, &res), 0);
  ck_assert_uint_eq(res, KFD_IOC_WAIT_RESULT_COMPLETE);
  /* destroy gives the event back to a pool: the next interrupt signal reuses it, in another
   * slot (the destroyed one is quarantined, its mailbox cleared so the CP raises nothing) */
  uint32_t old_id = p->event_id;
  hsa_signal_t plain2;
  ck_assert_int_eq(hsa_signal_destroy(plain), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(amd(plain)->kind, AMD_SIGNAL_KIND_INVALID);
  ck_assert_uint_eq(amd(plain)->event_mailbox_ptr, 0);
  ck_assert_int_eq(hsa_signal_create(5, 0, NULL, &plain2), HSA_STATUS_SUCCESS);
  ck_assert_uint_ne(plain2.handle, plain.handle);
  ck_assert_uint_eq(amd(plain2)->event_id, old_id);
  ck_assert_int_eq(amd(plain2)->value, 5);
  hsa_signal_destroy(plain2);
  hsa_signal_destroy(with_cpu);
  hsa_signal_destroy(gpu_only);
  hsa_signal_destroy(attr_gpu_only);
}
END_TEST

START_TEST(interrupts_off_gives_no_events) {
  setenv("HSA_ENABLE_INTERRUPT", "0", 1);
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
  hsa_signal_t s = make(0);
  ck_assert_uint_eq(amd(s)->event_mailbox_ptr, 0);
  volatile hsa_signal_value_t *vp = NULL;
  ck_assert_int_eq(hsa_amd_signal_value_pointer(s, &vp), HSA_STATUS_SUCCESS);
  ck_assert_ptr_eq((void *)vp, (void *)(uintptr_t)(s.handle + 8));
  hsa_signal_destroy(s);
  unsetenv("HSA_ENABLE_INTERRUPT");
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(create_and_destroy_reject_bad_input) {
  hsa_iterate_agents(find_agents, NULL);
  hsa_signal_t s;
  ck_assert_int_eq(hsa_signal_create(0, 0, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_signal_create(0, 1, NULL, &s), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_agent_t dup[2] = {cpu_agent, cpu_agent};
  ck_assert_int_eq(hsa_signal_create(0, 2, dup, &s), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_agent_t bogus = {cpu_agent.handle + 1};
  ck_assert_int_eq(hsa_signal_create(0, 1, &bogus, &s), HSA_STATUS_ERROR_INVALID_AGENT);

  hsa_signal_t zero = {0}, odd = {0x1234}, stack = {(uint64_t)(uintptr_t)&s};
  ck_assert_int_eq(hsa_signal_destroy(zero), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_signal_destroy(odd), HSA_STATUS_ERROR_INVALID_SIGNAL);
  ck_assert_int_eq(hsa_signal_destroy(stack), HSA_STATUS_ERROR_INVALID_SIGNAL);
  /* an address inside a live signal is not a handle either */
  hsa_signal_t t = make(1), inner = {t.handle + 8};
  s = make(9);
  ck_assert_int_eq(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL);
  ck_assert_int_eq(hsa_signal_destroy(inner), HSA_STATUS_ERROR_INVALID_SIGNAL);
  /* operations on invalid handles do nothing; loads give INT64_MAX ("not done"), waits a
   * value failing their condition */
  hsa_signal_store_relaxed(s, 5);
  hsa_signal_add_scacq_screl(zero, 5);
  hsa_signal_store_screlease(stack, 5);
  ck_assert_int_eq(hsa_signal_load_relaxed(zero), INT64_MAX);
  ck_assert_int_eq(hsa_signal_exchange_relaxed(odd, 3), INT64_MAX);
  ck_assert_int_eq(hsa_signal_cas_relaxed(s, 0, 3), INT64_MAX);
  ck_assert_int_eq(hsa_signal_wait_scacquire(zero, HSA_SIGNAL_CONDITION_EQ, 0, 1000,
                                             HSA_WAIT_STATE_ACTIVE), 1);
  ck_assert_int_eq(hsa_signal_load_relaxed(t), 1);
  volatile hsa_signal_value_t *vp;
  ck_assert_int_eq(hsa_amd_signal_value_pointer(t, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_amd_signal_value_pointer(zero, &vp), HSA_STATUS_ERROR_INVALID_SIGNAL);
  /* an interrupt signal's value must not change behind the runtime's back (ROCR rule) */
  ck_assert_int_eq(hsa_amd_signal_value_pointer(t, &vp), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_signal_destroy(t);
}
END_TEST

START_TEST(calls_before_init_fail_cleanly) {
  hsa_signal_t s;
  ck_assert_int_eq(hsa_signal_create(0, 0, NULL, &s), HSA_STATUS_ERROR_NOT_INITIALIZED);
  hsa_signal_t zero = {0};
  ck_assert_int_eq(hsa_signal_destroy(zero), HSA_STATUS_ERROR_NOT_INITIALIZED);
  ck_assert_int_eq(hsa_signal_load_relaxed(zero), INT64_MAX);
  /* a handle from an earlier session is dead after shut down, and stays refused by the next */
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
  s = make(4);
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_load_relaxed(s), INT64_MAX);
  hsa_signal_store_relaxed(s, 1);
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
  hsa_signal_t n = make(4);
  ck_assert_uint_ne(n.handle, s.handle);
  ck_assert_int_eq(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL);
  ck_assert_int_eq(hsa_signal_load_relaxed(n), 4);
  ck_assert_int_eq(hsa_signal_destroy(n), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
}
END_TEST

/* ---- contention ------------------------------------------------------------------------------ */

#define THREADS 8
#define ITERS 20000
static hsa_signal_t shared;
static void *hammer_exact(void *arg) {
  uintptr_t k = (uintptr_t)arg;
  for (int i = 0; i < ITERS; i++) {
    if (k & 1) {
      hsa_signal_add_scacq_screl(shared, 3);
    } else {
      hsa_signal_value_t seen = hsa_signal_load_relaxed(shared), old;
      while ((old = hsa_signal_cas_scacq_screl(shared, seen, seen + 3)) != seen)
        seen = old;
    }
    hsa_signal_subtract_relaxed(shared, 1);
    hsa_signal_or_relaxed(shared, 0);
  }
  return NULL;
}

START_TEST(contended_total_is_exact) {
  shared = make(1000);
  pthread_t t[THREADS];
  for (uintptr_t k = 0; k < THREADS; k++)
    pthread_create(&t[k], NULL, hammer_exact, (void *)k);
  for (int k = 0; k < THREADS; k++)
    pthread_join(t[k], NULL);
  ck_assert_int_eq(hsa_signal_load_scacquire(shared), 1000 + (int64_t)THREADS * ITERS * 2);
  hsa_signal_destroy(shared);
}
END_TEST

/* Many signals: creation grows past one chunk, every handle stays distinct and valid. */
START_TEST(many_signals) {
  enum { N = 1500 };
  hsa_signal_t *s = malloc(N * sizeof *s);
  for (int i = 0; i < N; i++) {
    ck_assert_int_eq(hsa_signal_create(i, 0, NULL, &s[i]), HSA_STATUS_SUCCESS);
  }
  for (int i = 0; i < N; i++)
    ck_assert_int_eq(hsa_signal_load_relaxed(s[i]), i);
  for (int i = 0; i < N; i += 2)
    ck_assert_int_eq(hsa_signal_destroy(s[i]), HSA_STATUS_SUCCESS);
  for (int i = 1; i < N; i += 2)
    ck_assert_int_eq(hsa_signal_load_relaxed(s[i]), i);
  for (int i = 1; i < N; i += 2)
    ck_assert_int_eq(hsa_signal_destroy(s[i]), HSA_STATUS_SUCCESS);
  free(s);
}
END_TEST

/* ---- groups -------------------------------------------------------------------------------- */

START_TEST(groups) {
  hsa_signal_t s[3] = {make(1), make(1), make(1)};
  hsa_signal_group_t g, bad = {0};
  ck_assert_int_eq(hsa_signal_group_create(0, s, 0, NULL, &g), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_signal_group_create(3, s, 0, NULL, NULL),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_signal_t withbad[2] = {s[0], {0x40}};
  ck_assert_int_eq(hsa_signal_group_create(2, withbad, 0, NULL, &g),
                   HSA_STATUS_ERROR_INVALID_SIGNAL);
  ck_assert_int_eq(hsa_signal_group_create(3, s, 0, NULL, &g), HSA_STATUS_SUCCESS);
  hsa_signal_condition_t c[3] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ,
                                 HSA_SIGNAL_CONDITION_EQ};
  hsa_signal_value_t v[3] = {0, 0, 0}, got;
  hsa_signal_t which;
  hsa_signal_store_relaxed(s[2], 0);
  ck_assert_int_eq(hsa_signal_group_wait_any_scacquire(g, c, v, HSA_WAIT_STATE_BLOCKED, &which,
                                                       &got), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(which.handle, s[2].handle);
  ck_assert_int_eq(got, 0);
  c[1] = HSA_SIGNAL_CONDITION_GTE;
  v[1] = -5;   /* s[1] = 1 >= -5 now holds; s[0] (1) and s[2] (0) do not */
  v[2] = 7;
  v[0] = 9;
  ck_assert_int_eq(hsa_signal_group_wait_any_relaxed(g, c, v, HSA_WAIT_STATE_ACTIVE, &which,
                                                     &got), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(which.handle, s[1].handle);
  ck_assert_int_eq(got, 1);
  ck_assert_int_eq(hsa_signal_group_wait_any_relaxed(g, NULL, v, HSA_WAIT_STATE_ACTIVE, &which,
                                                     &got), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_signal_group_wait_any_relaxed(bad, c, v, HSA_WAIT_STATE_ACTIVE, &which,
                                                     &got), HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP);
  ck_assert_int_eq(hsa_signal_group_destroy(g), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_group_destroy(g), HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP);
  for (int i = 0; i < 3; i++)
    hsa_signal_destroy(s[i]);
}
END_TEST

/* ---- IPC ----------------------------------------------------------------------------------- */

START_TEST(ipc_signal_shares_its_value) {
  hsa_signal_t s, plain = make(0), att;
  hsa_amd_ipc_signal_t h;
  ck_assert_int_eq(hsa_amd_signal_create(11, 0, NULL, HSA_AMD_SIGNAL_IPC, &s), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(amd(s)->kind, AMD_SIGNAL_KIND_USER);
  ck_assert_int_eq(hsa_amd_ipc_signal_create(plain, &h), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_amd_ipc_signal_create(s, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_amd_ipc_signal_create(s, &h), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_amd_ipc_signal_attach(&h, &att), HSA_STATUS_SUCCESS);
  ck_assert_uint_ne(att.handle, s.handle);   /* a second mapping of the same page */
  /* both mappings are GPU memory at the handle's address: the driver maps them on the GPU
   * (asked the strict way: UNMAP of an object a GPU does not map fails) */
  struct core_runtime *rt = core_rt();
  const struct core_agent *g = rt->agents[rt->cpu_count];
  hsa_signal_t both[2] = {s, att};
  for (int i = 0; i < 2; i++) {
    uint64_t bo = sig_obj_any(both[i])->ipc_bo;
    ck_assert_uint_ne(bo, 0);
    ck_assert_uint_ge(both[i].handle, g->aperture.gpuvm_base);
    ck_assert_uint_lt(both[i].handle, g->aperture.gpuvm_limit);
    uint32_t id = g->gpu_id;
    ck_assert_int_eq(kfd_mem_unmap(&rt->kfd, bo, &id, 1), 0);
    ck_assert_int_eq(kfd_mem_map(&rt->kfd, bo, &id, 1), 0);
  }
  ck_assert_int_eq(hsa_signal_load_relaxed(att), 11);
  hsa_signal_add_screlease(att, 4);
  ck_assert_int_eq(hsa_signal_load_scacquire(s), 15);
  ck_assert_int_eq(hsa_signal_wait_scacquire(att, HSA_SIGNAL_CONDITION_EQ, 15, UINT64_MAX,
                                             HSA_WAIT_STATE_BLOCKED), 15);
  hsa_amd_ipc_signal_t junk;
  memset(&junk, 0x5a, sizeof junk);
  ck_assert_int_eq(hsa_amd_ipc_signal_attach(&junk, &att), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_amd_ipc_signal_attach(NULL, &att), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_signal_destroy(att), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_destroy(s), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_destroy(s), HSA_STATUS_ERROR_INVALID_SIGNAL);
  hsa_signal_destroy(plain);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("signal");
  TCase *tc = tcase_create("objects");
  tcase_set_timeout(tc, 60);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, ops_match_model_on_user_signal);
  tcase_add_test(tc, ops_match_model_on_polled_signal);
  tcase_add_test(tc, doorbell_signal_rings_every_value);
  tcase_add_test(tc, handle_is_the_amd_signal);
  tcase_add_test(tc, interrupt_signals_have_events);
  tcase_add_test(tc, create_and_destroy_reject_bad_input);
  tcase_add_test(tc, contended_total_is_exact);
  tcase_add_test(tc, many_signals);
  tcase_add_test(tc, groups);
  tcase_add_test(tc, ipc_signal_shares_its_value);
  suite_add_tcase(s, tc);
  TCase *life = tcase_create("lifetime");
  tcase_add_test(life, calls_before_init_fail_cleanly);
  tcase_add_test(life, interrupts_off_gives_no_events);
  suite_add_tcase(s, life);
  return s;
}
