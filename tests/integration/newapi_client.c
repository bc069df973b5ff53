/* SPDX-License-Identifier: MIT */
/* newapi_client.c — the entry points of the newest ROCR export list (newapi.sh runs it under
 * hsa-sim): hsa_amd_signal_wait_all, _signal_get_event_id, _memory_get_preferred_copy_engine,
 * _memory_async_batch_copy, _agent_preload, _counted_queue_acquire/release,
 * _sdma_queue_create/destroy/get_info/ring_doorbell (a COPY_LINEAR packet written into the
 * ring by hand), _svm_discard_batch_async, _ais_file_read/write, _enable_logging,
 * _agent_set_async_scratch_limit (statuses) and _async_function. Every result is checked
 * against something computed here: bytes against the host pattern, event ids against the
 * amd_signal_t the CP reads, engine masks against the KFD sysfs topology, file contents
 * with pread, log lines against the queue ids. One "name ok" line per check.
 *
 * `newapi_client peer` prints only what ROCR 5.2.3 also implements (hsa_amd_async_function),
 * as values, for the comparison with ROCR; `newapi_client preload` only preloads the GPU
 * (newapi.sh counts the SDMA queues it made in the simulator's trace). `newapi_client DIR`
 * runs everything, with its AIS file in DIR; `newapi_client scratch CO` dispatches CO's `priv`
 * kernel around scratch limits. */
#define _GNU_SOURCE
#define CLIENT_CHECK_COUNTS
#include "lib/client.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "hsa/amd_hsa_queue.h"
#include "hsa/amd_hsa_signal.h"

#define MIB (1u << 20)

static struct client_agents ag;
static hsa_amd_memory_pool_t sys_pool, dev_pool;
static uint64_t tick_hz;

static uint64_t now_ns(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void sleep_ms(unsigned ms)
{
  struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

static hsa_status_t pick_pool(hsa_amd_memory_pool_t p, void *data)
{
  hsa_amd_memory_pool_t *out = data;
  hsa_amd_segment_t seg;
  bool alloc = false;
  uint32_t flags = 0;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  if (seg == HSA_AMD_SEGMENT_GLOBAL && alloc && !out->handle &&
      !(flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT))
    *out = p;
  return HSA_STATUS_SUCCESS;
}

static void *sys_alloc(size_t n)
{
  void *p = NULL;
  if (hsa_amd_memory_pool_allocate(sys_pool, n, 0, &p) != HSA_STATUS_SUCCESS) return NULL;
  hsa_agent_t both[2] = {ag.gpu, ag.cpu};
  hsa_amd_agents_allow_access(2, both, NULL, p);
  return p;
}

static void *dev_alloc(size_t n)
{
  void *p = NULL;
  if (hsa_amd_memory_pool_allocate(dev_pool, n, 0, &p) != HSA_STATUS_SUCCESS) return NULL;
  return p;
}

static uint8_t pat(size_t i, unsigned seed) { return (uint8_t)((i * 2654435761u) >> 13) ^ (uint8_t)seed; }

static void fill(uint8_t *p, size_t n, unsigned seed)
{
  for (size_t i = 0; i < n; i++) p[i] = pat(i, seed);
}

/* index of the first byte of p that is not pattern `seed` from `from`, n if none */
static size_t mismatch(const uint8_t *p, size_t n, unsigned seed, size_t from)
{
  for (size_t i = 0; i < n; i++)
    if (p[i] != pat(from + i, seed)) return i;
  return n;
}

/* device bytes into a host buffer with the plain (synchronous) copy */
static void to_host(void *host, const void *dev, size_t n) { hsa_memory_copy(host, dev, n); }

/* ---- hsa_amd_async_function --------------------------------------------------------- */
static _Atomic int fn_ran;
static pthread_t fn_thread;

static void fn(void *arg)
{
  fn_thread = pthread_self();
  atomic_store(&fn_ran, *(int *)arg);
}

static void test_async_function(bool peer)
{
  static int token = 42;
  hsa_status_t st = hsa_amd_async_function(fn, &token);
  uint64_t end = now_ns() + 5000000000ull;
  while (!atomic_load(&fn_ran) && now_ns() < end) sleep_ms(1);
  bool other = atomic_load(&fn_ran) && !pthread_equal(fn_thread, pthread_self());
  hsa_status_t null_st = hsa_amd_async_function(NULL, NULL);
  if (peer) {
    printf("async_function %d ran %d other_thread %d null 0x%x\n", st, atomic_load(&fn_ran),
           other, null_st);
    return;
  }
  CHECK("async_function", st == HSA_STATUS_SUCCESS && atomic_load(&fn_ran) == 42 && other,
        "st 0x%x ran %d other %d", st, atomic_load(&fn_ran), other);
  CHECK("async_function_null", null_st == HSA_STATUS_ERROR_INVALID_ARGUMENT, "0x%x", null_st);
}

/* ---- hsa_amd_signal_wait_all ---------------------------------------------------------- */
static hsa_signal_t later_sigs[3];
static void *store_later(void *arg)
{
  (void)arg;
  sleep_ms(30);
  hsa_signal_store_screlease(later_sigs[0], 0);
  sleep_ms(5);
  hsa_signal_store_screlease(later_sigs[1], 7);
  sleep_ms(5);
  hsa_signal_store_screlease(later_sigs[2], -5);
  return NULL;
}

static void test_wait_all(void)
{
  for (int i = 0; i < 3; i++) hsa_signal_create(1, 0, NULL, &later_sigs[i]);
  hsa_signal_condition_t conds[3] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_GTE,
                                     HSA_SIGNAL_CONDITION_LT};
  hsa_signal_value_t vals[3] = {0, 5, 0}, got[3] = {9, 9, 9};
  pthread_t t;
  pthread_create(&t, NULL, store_later, NULL);
  uint64_t t0 = now_ns();
  uint32_t r = hsa_amd_signal_wait_all(3, later_sigs, conds, vals, UINT64_MAX,
                                       HSA_WAIT_STATE_BLOCKED, got);
  uint64_t took = now_ns() - t0;
  pthread_join(t, NULL);
  CHECK("wait_all_met", r == 0 && got[0] == 0 && got[1] == 7 && got[2] == -5 && took >= 35000000,
        "r %u got %ld %ld %ld after %lu ns", r, (long)got[0], (long)got[1], (long)got[2],
        (unsigned long)took);

  /* NE never met: times out after the hint, not before */
  hsa_signal_t s;
  hsa_signal_create(3, 0, NULL, &s);
  hsa_signal_condition_t ne = HSA_SIGNAL_CONDITION_NE;
  hsa_signal_value_t three = 3;
  uint64_t hint = tick_hz / 25;   /* 40 ms */
  t0 = now_ns();
  r = hsa_amd_signal_wait_all(1, &s, &ne, &three, hint, HSA_WAIT_STATE_BLOCKED, NULL);
  took = now_ns() - t0;
  CHECK("wait_all_timeout", r == UINT32_MAX && took >= 40000000 && took < 2000000000ull,
        "r %u after %lu ns", r, (unsigned long)took);

  /* one met, one not: still a timeout */
  hsa_signal_t two[2] = {later_sigs[0], s};
  hsa_signal_condition_t c2[2] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ};
  hsa_signal_value_t v2[2] = {0, 0};
  r = hsa_amd_signal_wait_all(2, two, c2, v2, tick_hz / 50, HSA_WAIT_STATE_ACTIVE, NULL);
  CHECK("wait_all_partial", r == UINT32_MAX, "r %u", r);

  /* a destroyed signal and a null handle count as value 0, condition met (ROCR's rule) */
  hsa_signal_t dead;
  hsa_signal_create(5, 0, NULL, &dead);
  hsa_signal_destroy(dead);
  hsa_signal_t three_sigs[3] = {later_sigs[0], dead, {0}};
  hsa_signal_condition_t c3[3] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_EQ,
                                  HSA_SIGNAL_CONDITION_EQ};
  hsa_signal_value_t v3[3] = {0, 5, 5}, g3[3] = {9, 9, 9};
  r = hsa_amd_signal_wait_all(3, three_sigs, c3, v3, tick_hz, HSA_WAIT_STATE_BLOCKED, g3);
  CHECK("wait_all_destroyed", r == 0 && g3[0] == 0 && g3[1] == 0 && g3[2] == 0,
        "r %u got %ld %ld %ld", r, (long)g3[0], (long)g3[1], (long)g3[2]);

  hsa_signal_condition_t bad = (hsa_signal_condition_t)99;
  CHECK("wait_all_bad_args",
        hsa_amd_signal_wait_all(0, later_sigs, conds, vals, 0, HSA_WAIT_STATE_ACTIVE, NULL) ==
                UINT32_MAX &&
            hsa_amd_signal_wait_all(1, later_sigs, &bad, vals, 0, HSA_WAIT_STATE_ACTIVE, NULL) ==
                UINT32_MAX &&
            hsa_amd_signal_wait_all(1, NULL, conds, vals, 0, HSA_WAIT_STATE_ACTIVE, NULL) ==
                UINT32_MAX,
        "accepted");
  hsa_signal_destroy(s);
  for (int i = 0; i < 3; i++) hsa_signal_destroy(later_sigs[i]);
}

/* ---- hsa_amd_signal_get_event_id --------------------------------------------------- */
static void test_event_id(void)
{
  hsa_signal_t a, b, g;
  hsa_signal_create(1, 0, NULL, &a);
  hsa_signal_create(1, 0, NULL, &b);
  uint32_t ea = 0, eb = 0, eg = 0;
  hsa_status_t sa = hsa_amd_signal_get_event_id(a, &ea);
  hsa_status_t sb = hsa_amd_signal_get_event_id(b, &eb);
  const amd_signal_t *aa = (const amd_signal_t *)(uintptr_t)a.handle;
  const amd_signal_t *ab = (const amd_signal_t *)(uintptr_t)b.handle;
  CHECK("event_id_interrupt",
        sa == HSA_STATUS_SUCCESS && sb == HSA_STATUS_SUCCESS && aa->event_mailbox_ptr &&
            ea == aa->event_id && eb == ab->event_id && ea != eb,
        "st 0x%x 0x%x ids %u %u, amd_signal_t says %u %u", sa, sb, ea, eb, aa->event_id,
        ab->event_id);
  /* a signal without a driver event has no id to give */
  hsa_amd_signal_create(1, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &g);
  const amd_signal_t *agg = (const amd_signal_t *)(uintptr_t)g.handle;
  hsa_status_t sg = hsa_amd_signal_get_event_id(g, &eg);
  CHECK("event_id_no_event",
        agg->event_mailbox_ptr ? (sg == HSA_STATUS_SUCCESS && eg == agg->event_id)
                               : sg == HSA_STATUS_ERROR_INVALID_ARGUMENT,
        "st 0x%x mailbox %lx", sg, (unsigned long)agg->event_mailbox_ptr);
  hsa_signal_destroy(b);
  CHECK("event_id_bad",
        hsa_amd_signal_get_event_id(b, &eb) == HSA_STATUS_ERROR_INVALID_SIGNAL &&
            hsa_amd_signal_get_event_id(a, NULL) == HSA_STATUS_ERROR_INVALID_ARGUMENT,
        "accepted");
  hsa_signal_destroy(a);
  hsa_signal_destroy(g);
}

/* ---- hsa_amd_memory_get_preferred_copy_engine -------------------------------------------- */
static long sysfs_link_mask(uint32_t node, uint32_t to)
{
  for (int l = 0; l < 16; l++) {
    char path[128], line[128];
    snprintf(path, sizeof path, "/sys/class/kfd/kfd/topology/nodes/%u/io_links/%d/properties",
             node, l);
    FILE *f = fopen(path, "r");
    if (!f) break;
    long mask = -1, dst = -1;
    while (fgets(line, sizeof line, f)) {
      sscanf(line, "node_to %ld", &dst);
      sscanf(line, "recommended_sdma_engine_id_mask %ld", &mask);
    }
    fclose(f);
    if (dst == (long)to) return mask;
  }
  return -1;
}

static void test_preferred(void)
{
  uint32_t gnode = 0, cnode = 0, m1 = 99, m2 = 99;
  hsa_agent_get_info(ag.gpu, HSA_AGENT_INFO_NODE, &gnode);
  hsa_agent_get_info(ag.cpu, HSA_AGENT_INFO_NODE, &cnode);
  long want = sysfs_link_mask(gnode, cnode);
  hsa_status_t s1 = hsa_amd_memory_get_preferred_copy_engine(ag.gpu, ag.cpu, &m1);
  hsa_status_t s2 = hsa_amd_memory_get_preferred_copy_engine(ag.cpu, ag.gpu, &m2);
  CHECK("preferred_engine", want > 0 && s1 == HSA_STATUS_SUCCESS && s2 == HSA_STATUS_SUCCESS &&
                                m1 == (uint32_t)want && m2 == (uint32_t)want,
        "sysfs %ld, got 0x%x/0x%x st 0x%x/0x%x", want, m1, m2, s1, s2);
  hsa_agent_t bogus = {0x1234};
  CHECK("preferred_engine_bad",
        hsa_amd_memory_get_preferred_copy_engine(ag.gpu, ag.gpu, &m1) ==
                HSA_STATUS_ERROR_INVALID_AGENT &&
            hsa_amd_memory_get_preferred_copy_engine(bogus, ag.gpu, &m1) ==
                HSA_STATUS_ERROR_INVALID_AGENT &&
            hsa_amd_memory_get_preferred_copy_engine(ag.cpu, ag.gpu, NULL) ==
                HSA_STATUS_ERROR_INVALID_ARGUMENT,
        "accepted");
}

/* ---- hsa_amd_memory_async_batch_copy ------------------------------------------------ */
static hsa_amd_memory_copy_op_t op_linear(void *dst, hsa_agent_t da, void *src, hsa_agent_t sa,
                                          size_t n, hsa_signal_t done)
{
  hsa_amd_memory_copy_op_t op;
  memset(&op, 0, sizeof op);
  op.version = HSA_AMD_MEMORY_COPY_OP_VERSION;
  op.type = HSA_AMD_MEMORY_COPY_OP_LINEAR;
  op.completion_signal = done;
  op.src = src;
  op.src_agent = sa;
  op.dst = dst;
  op.dst_agent = da;
  op.size = n;
  return op;
}

static bool wait_zero(hsa_signal_t s, unsigned ms)
{
  return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, tick_hz / 1000 * ms,
                                   HSA_WAIT_STATE_BLOCKED) == 0;
}

static void test_batch_copy(void)
{
  const size_t n = MIB;
  uint8_t *h1 = sys_alloc(n), *h2 = sys_alloc(n), *h3 = sys_alloc(n), *chk = malloc(n);
  uint8_t *d1 = dev_alloc(n), *d2 = dev_alloc(n), *d3 = dev_alloc(n);
  _Atomic uint64_t *words = sys_alloc(4096);
  if (!h1 || !h2 || !h3 || !d1 || !d2 || !d3 || !chk || !words) {
    CHECK("batch_alloc", 0, "allocation failed");
    return;
  }
  fill(h1, n, 1);
  fill(h2, n, 2);
  memset(h3, 0, n);
  hsa_signal_t done;
  hsa_signal_create(3, 0, NULL, &done);
  /* 1: host -> d1; 2: broadcast host -> d2, d3; 3: waits for words[0] == 1, then host(h2)
   * -> h3 and adds 5 to words[1] */
  hsa_amd_memory_copy_op_t ops[3];
  ops[0] = op_linear(d1, ag.gpu, h1, ag.cpu, n, done);
  void *bdst[2] = {d2, d3};
  hsa_agent_t bag[2] = {ag.gpu, ag.gpu};
  ops[1] = op_linear(NULL, ag.gpu, h1, ag.cpu, n, done);
  ops[1].type = HSA_AMD_MEMORY_COPY_OP_LINEAR_BROADCAST;
  ops[1].num_entries = 2;
  ops[1].dst_list = bdst;
  ops[1].dst_agent_list = bag;
  ops[2] = op_linear(h3, ag.cpu, h2, ag.cpu, n, done);
  atomic_store(&words[0], 0);
  atomic_store(&words[1], 10);
  ops[2].wait.function = HSA_AMD_MEMORY_COPY_WAIT_EQ;
  ops[2].wait.addr = (void *)&words[0];
  ops[2].wait.value = 1;
  ops[2].wait.mask = ~0ull;
  ops[2].signal.operation = HSA_AMD_MEMORY_COPY_SIGNAL_ADD;
  ops[2].signal.addr = (void *)&words[1];
  ops[2].signal.data = 5;
  hsa_status_t st = hsa_amd_memory_async_batch_copy(ops, 3, 0, NULL);
  sleep_ms(50);
  hsa_signal_value_t mid = hsa_signal_load_scacquire(done);
  uint64_t mid_word = atomic_load(&words[1]);
  atomic_store(&words[0], 1);
  bool ok = st == HSA_STATUS_SUCCESS && wait_zero(done, 10000);
  CHECK("batch_wait_gate", ok && mid >= 1 && mid_word == 10 && atomic_load(&words[1]) == 15,
        "st 0x%x done %d before the gate: signal %ld word %lu, after: word %lu", st, ok,
        (long)mid, (unsigned long)mid_word, (unsigned long)atomic_load(&words[1]));
  size_t bad1, bad2, bad3, bad4;
  to_host(chk, d1, n);
  bad1 = mismatch(chk, n, 1, 0);
  to_host(chk, d2, n);
  bad2 = mismatch(chk, n, 1, 0);
  to_host(chk, d3, n);
  bad3 = mismatch(chk, n, 1, 0);
  bad4 = mismatch(h3, n, 2, 0);
  CHECK("batch_linear_broadcast", bad1 == n && bad2 == n && bad3 == n && bad4 == n,
        "first bad byte d1 %zu d2 %zu d3 %zu h3 %zu of %zu", bad1, bad2, bad3, bad4, n);

  /* swap d1 (pattern 1) with h2 (pattern 2); multi-linear: halves of d2 -> h3 swapped;
   * indirect source: *pp = d3 -> h1 */
  fill(h3, n, 9);
  hsa_signal_store_relaxed(done, 3);
  hsa_amd_memory_copy_op_t two[3];
  two[0] = op_linear(h2, ag.cpu, d1, ag.gpu, 0, done);
  two[0].type = HSA_AMD_MEMORY_COPY_OP_LINEAR_SWAP;
  two[0].src_size = two[0].dst_size = n;
  void *msrc[2] = {d2, d2 + n / 2}, *mdst[2] = {h3 + n / 2, h3};
  size_t msz[2] = {n / 2, n / 2};
  hsa_agent_t mag[2] = {ag.cpu, ag.cpu};
  two[1] = op_linear(NULL, ag.cpu, NULL, ag.gpu, 0, done);
  two[1].num_entries = 2;
  two[1].src_list = msrc;
  two[1].dst_list = mdst;
  two[1].dst_agent_list = mag;
  two[1].size_list = msz;
  void **pp = (void **)&words[8];
  *pp = d3;
  memset(h1, 0, n);
  two[2] = op_linear(h1, ag.cpu, pp, ag.gpu, n, done);
  two[2].type = HSA_AMD_MEMORY_COPY_OP_LINEAR_INDIRECT_SRC;
  hsa_signal_t dep;
  hsa_signal_create(1, 0, NULL, &dep);
  st = hsa_amd_memory_async_batch_copy(two, 3, 1, &dep);
  sleep_ms(20);
  mid = hsa_signal_load_scacquire(done);
  hsa_signal_store_screlease(dep, 0);
  ok = st == HSA_STATUS_SUCCESS && wait_zero(done, 10000);
  to_host(chk, d1, n);
  size_t s1 = mismatch(chk, n, 2, 0), s2 = mismatch(h2, n, 1, 0);
  CHECK("batch_swap", ok && mid == 3 && s1 == n && s2 == n,
        "st 0x%x ok %d before dep %ld, first bad d1 %zu h2 %zu", st, ok, (long)mid, s1, s2);
  size_t m1 = mismatch(h3, n / 2, 1, n / 2), m2 = mismatch(h3 + n / 2, n / 2, 1, 0);
  CHECK("batch_multi_linear", m1 == n / 2 && m2 == n / 2, "first bad %zu %zu", m1, m2);
  size_t i1 = mismatch(h1, n, 1, 0);
  CHECK("batch_indirect_src", i1 == n, "first bad %zu", i1);

  /* ROCR's statuses */
  hsa_signal_store_relaxed(done, 1);
  hsa_amd_memory_copy_op_t bad = op_linear(d1, ag.gpu, h1, ag.cpu, 64, done);
  bad.version = 2;
  hsa_status_t v = hsa_amd_memory_async_batch_copy(&bad, 1, 0, NULL);
  hsa_amd_memory_copy_op_t pair[2] = {op_linear(d1, ag.gpu, h1, ag.cpu, 64, done),
                                      op_linear(d1, ag.gpu, h1, ag.cpu, 64, dep)};
  hsa_status_t mixed = hsa_amd_memory_async_batch_copy(pair, 2, 0, NULL);
  hsa_amd_memory_copy_op_t badagent = op_linear(d1, (hsa_agent_t){0x99}, h1, ag.cpu, 64, done);
  hsa_status_t ba = hsa_amd_memory_async_batch_copy(&badagent, 1, 0, NULL);
  hsa_amd_memory_copy_op_t nulldst = op_linear(NULL, ag.gpu, h1, ag.cpu, 64, done);
  hsa_status_t nd = hsa_amd_memory_async_batch_copy(&nulldst, 1, 0, NULL);
  hsa_status_t none = hsa_amd_memory_async_batch_copy(NULL, 1, 0, NULL);
  hsa_signal_destroy(dep);
  hsa_amd_memory_copy_op_t deadsig = op_linear(d1, ag.gpu, h1, ag.cpu, 64, dep);
  hsa_status_t ds = hsa_amd_memory_async_batch_copy(&deadsig, 1, 0, NULL);
  CHECK("batch_statuses",
        v == HSA_STATUS_ERROR_INVALID_ARGUMENT && mixed == HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            ba == HSA_STATUS_ERROR_INVALID_AGENT && nd == HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            none == HSA_STATUS_ERROR_INVALID_ARGUMENT && ds == HSA_STATUS_ERROR_INVALID_SIGNAL &&
            hsa_signal_load_relaxed(done) == 1,
        "version 0x%x mixed 0x%x agent 0x%x null 0x%x none 0x%x dead 0x%x", v, mixed, ba, nd,
        none, ds);
  hsa_signal_destroy(done);
  free(chk);
  void *all[] = {h1, h2, h3, d1, d2, d3, (void *)words};
  for (unsigned i = 0; i < sizeof all / sizeof *all; i++) hsa_amd_memory_pool_free(all[i]);
}

/* ---- hsa_amd_agent_preload -------------------------------------------------------------- */
static void test_preload(void)
{
  hsa_status_t g = hsa_amd_agent_preload(ag.gpu, 0);
  hsa_status_t c = hsa_amd_agent_preload(ag.cpu, 0);
  hsa_status_t b = hsa_amd_agent_preload((hsa_agent_t){0x77}, 0);
  /* the newest agent attributes: clock counters (1.11) move forward with the system clock's
   * frequency, no PM4 emulation, no expert scheduling mode */
  hsa_amd_clock_counters_t k0 = {0}, k1 = {0};
  uint64_t hz = 0;
  bool pm4 = true, expert = true;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &hz);
  hsa_status_t ck = hsa_agent_get_info(ag.gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CLOCK_COUNTERS,
                                       &k0);
  sleep_ms(2);
  hsa_agent_get_info(ag.gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CLOCK_COUNTERS, &k1);
  hsa_agent_get_info(ag.gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_PM4_EMULATION, &pm4);
  hsa_agent_get_info(ag.gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_HAS_EXPERT_SCHED_MODE, &expert);
  CHECK("preload", g == HSA_STATUS_SUCCESS && c == HSA_STATUS_ERROR_INVALID_AGENT &&
                       b == HSA_STATUS_ERROR_INVALID_AGENT && ck == 0 &&
                       k1.gpu_clock_counter > k0.gpu_clock_counter &&
                       k1.system_clock_counter > k0.system_clock_counter &&
                       k0.system_clock_frequency == hz && !pm4 && !expert,
        "gpu 0x%x cpu 0x%x bogus 0x%x; clocks 0x%x gpu %llu->%llu sys %llu->%llu freq %llu/%llu "
        "pm4 %d expert %d", g, c, b, ck, (unsigned long long)k0.gpu_clock_counter,
        (unsigned long long)k1.gpu_clock_counter, (unsigned long long)k0.system_clock_counter,
        (unsigned long long)k1.system_clock_counter,
        (unsigned long long)k0.system_clock_frequency, (unsigned long long)hz, pm4, expert);
  fprintf(stderr, "newapi: preloaded\n");
}

/* ---- counted queues ---------------------------------------------------------------- */
/* A barrier-AND packet with a completion signal through queue q: the queue runs. */
static bool queue_runs(hsa_queue_t *q)
{
  hsa_signal_t s;
  hsa_signal_create(1, 0, NULL, &s);
  uint64_t idx = hsa_queue_add_write_index_scacq_screl(q, 1);
  hsa_barrier_and_packet_t *p =
      (hsa_barrier_and_packet_t *)q->base_address + (idx & (q->size - 1));
  memset((uint8_t *)p + 4, 0, sizeof *p - 4);
  p->completion_signal = s;
  uint16_t header = HSA_PACKET_TYPE_BARRIER_AND << HSA_PACKET_HEADER_TYPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE |
                    HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE;
  __atomic_store_n((uint32_t *)p, header, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
  bool ok = wait_zero(s, 10000);
  hsa_signal_destroy(s);
  return ok;
}

static _Atomic int counted_errors;
static _Atomic hsa_status_t counted_status;
static void *_Atomic counted_data;
static hsa_queue_t *_Atomic counted_source;
static void on_counted_error(hsa_status_t status, hsa_queue_t *source, void *data)
{
  atomic_store(&counted_status, status);
  atomic_store(&counted_source, source);
  atomic_store(&counted_data, data);
  atomic_fetch_add(&counted_errors, 1);
}

static void test_counted(void)
{
  setenv("GPU_MAX_HW_QUEUES", "2", 1);
  hsa_queue_t *q[3] = {NULL, NULL, NULL};
  hsa_status_t st[3];
  for (int i = 0; i < 3; i++)
    st[i] = hsa_amd_counted_queue_acquire(ag.gpu, HSA_QUEUE_TYPE_MULTI,
                                          HSA_AMD_QUEUE_PRIORITY_NORMAL, NULL, NULL, 0, &q[i]);
  int32_t u0 = 0, u1 = 0, unc = 0;
  uint32_t id0 = 0, id2 = 0;
  hsa_amd_queue_get_info(q[0], HSA_QUEUE_INFO_USE_COUNT, &u0);
  hsa_amd_queue_get_info(q[1], HSA_QUEUE_INFO_USE_COUNT, &u1);
  hsa_amd_queue_get_info(q[0], HSA_QUEUE_INFO_HW_ID, &id0);
  hsa_amd_queue_get_info(q[2], HSA_QUEUE_INFO_HW_ID, &id2);
  /* three handles (one each, as ROCR), two hardware queues: the third shares a ring */
  bool shared = q[0] && q[1] && q[2] && q[0]->base_address != q[1]->base_address &&
                (q[2]->base_address == q[0]->base_address ||
                 q[2]->base_address == q[1]->base_address);
  CHECK("counted_acquire",
        st[0] == 0 && st[1] == 0 && st[2] == 0 && q[0] != q[1] && q[2] != q[0] &&
            q[2] != q[1] && shared && u0 + u1 == 3 &&
            id0 == (uint32_t)q[0]->id && id2 == (uint32_t)q[2]->id,
        "st %x %x %x queues %p %p %p uses %d %d hw ids %u %u", st[0], st[1], st[2],
        (void *)q[0], (void *)q[1], (void *)q[2], u0, u1, id0, id2);
  CHECK("counted_runs", q[0] && q[1] && q[2] && queue_runs(q[0]) && queue_runs(q[1]) &&
                            queue_runs(q[2]) && queue_runs(q[0]), "a packet did not complete");
  hsa_queue_t *plain = NULL;
  hsa_queue_create(ag.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &plain);
  hsa_amd_queue_get_info(plain, HSA_QUEUE_INFO_USE_COUNT, &unc);
  uint8_t vmaj = 0, vmin = 0, props[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  uint64_t ring = 0;
  hsa_status_t sv = hsa_amd_queue_get_info(
      q[0], HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_DISPATCH_PKT_VERSION_MAJOR, &vmaj);
  hsa_amd_queue_get_info(plain, HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_BARRIER_PKT_VERSION_MINOR,
                         &vmin);
  hsa_status_t sp = hsa_amd_queue_get_info(plain, HSA_AMD_QUEUE_INFO_PROPERTIES, props);
  hsa_status_t sr = hsa_amd_queue_get_info(plain, HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_RING_BUFFER,
                                           &ring);
  bool no_props = true;
  for (int i = 0; i < 8; i++) no_props = no_props && props[i] == 0;
  CHECK("counted_plain_queue", unc == -1 && sv == 0 && vmaj == 0xff && vmin == 0xff && sp == 0 &&
        no_props && sr == HSA_STATUS_ERROR_INVALID_ARGUMENT,
        "use count %d; metadata versions 0x%x %x (0x%x), properties 0x%x, ring 0x%x", unc, vmaj,
        vmin, sv, sp, sr);
  hsa_queue_destroy(plain);
  hsa_queue_t *mate = q[2] && q[0] && q[2]->base_address == q[0]->base_address ? q[0] : q[1];
  hsa_status_t r2 = hsa_amd_counted_queue_release(q[2]);
  int32_t after = 0;
  hsa_amd_queue_get_info(mate, HSA_QUEUE_INFO_USE_COUNT, &after);   /* q[2]'s queue's users */
  hsa_status_t r0 = hsa_amd_counted_queue_release(q[0]);
  hsa_status_t r1 = hsa_amd_counted_queue_release(q[1]);
  hsa_status_t again = hsa_amd_counted_queue_release(q[1]);
  int32_t gone_count = 5;   /* a released handle is refused, as ROCR's own test requires */
  hsa_status_t gone = hsa_amd_queue_get_info(q[1], HSA_QUEUE_INFO_USE_COUNT, &gone_count);
  CHECK("counted_release", r2 == 0 && after == 1 && r0 == 0 && r1 == 0 &&
                               again == HSA_STATUS_ERROR_INVALID_ARGUMENT &&
                               gone == HSA_STATUS_ERROR_INVALID_ARGUMENT && gone_count == 5,
        "release %x use count after %d, %x %x, again %x, info after %x", r2, after, r0, r1,
        again, gone);
  hsa_queue_t *x = NULL;
  CHECK("counted_statuses",
        hsa_amd_counted_queue_acquire(ag.cpu, HSA_QUEUE_TYPE_MULTI, HSA_AMD_QUEUE_PRIORITY_NORMAL,
                                      NULL, NULL, 0, &x) == HSA_STATUS_ERROR_INVALID_AGENT &&
            hsa_amd_counted_queue_acquire(ag.gpu, HSA_QUEUE_TYPE_COOPERATIVE,
                                          HSA_AMD_QUEUE_PRIORITY_NORMAL, NULL, NULL, 0, &x) ==
                HSA_STATUS_ERROR_INVALID_QUEUE_CREATION &&
            hsa_amd_counted_queue_acquire(ag.gpu, HSA_QUEUE_TYPE_MULTI,
                                          (hsa_amd_queue_priority_t)9, NULL, NULL, 0, &x) ==
                HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            hsa_amd_counted_queue_acquire(ag.gpu, HSA_QUEUE_TYPE_MULTI,
                                          HSA_AMD_QUEUE_PRIORITY_NORMAL, NULL, NULL, 0, NULL) ==
                HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            hsa_amd_counted_queue_release(NULL) == HSA_STATUS_ERROR_INVALID_ARGUMENT,
        "accepted");

  /* A queue error, as in the newest ROCR: the hardware queue was made with its first
   * acquirer's callback and data, and names itself (not an acquire's handle) */
  setenv("GPU_MAX_HW_QUEUES", "1", 1);
  static int first_data, second_data;
  hsa_queue_t *qa = NULL, *qb = NULL;
  hsa_status_t sa = hsa_amd_counted_queue_acquire(ag.gpu, HSA_QUEUE_TYPE_MULTI,
                                                  HSA_AMD_QUEUE_PRIORITY_HIGH, on_counted_error,
                                                  &first_data, 0, &qa);
  hsa_status_t sb = hsa_amd_counted_queue_acquire(ag.gpu, HSA_QUEUE_TYPE_MULTI,
                                                  HSA_AMD_QUEUE_PRIORITY_HIGH, on_counted_error,
                                                  &second_data, 0, &qb);
  if (sa == 0 && sb == 0) {   /* a dispatch of no dimensions: the CP's first queue error */
    uint64_t idx = hsa_queue_add_write_index_scacq_screl(qb, 1);
    hsa_kernel_dispatch_packet_t *p =
        (hsa_kernel_dispatch_packet_t *)qb->base_address + (idx & (qb->size - 1));
    memset((uint8_t *)p + 4, 0, sizeof *p - 4);
    p->workgroup_size_x = p->workgroup_size_y = p->workgroup_size_z = 1;
    p->grid_size_x = p->grid_size_y = p->grid_size_z = 1;
    uint16_t header = HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE;
    __atomic_store_n((uint32_t *)p, header, __ATOMIC_RELEASE);   /* setup 0: no dimensions */
    hsa_signal_store_screlease(qb->doorbell_signal, (hsa_signal_value_t)idx);
    for (int i = 0; i < 500 && !atomic_load(&counted_errors); i++) sleep_ms(10);
  }
  const hsa_queue_t *src = atomic_load(&counted_source);
  CHECK("counted_error", sa == 0 && sb == 0 && atomic_load(&counted_errors) == 1 &&
        atomic_load(&counted_status) == HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS &&
        atomic_load(&counted_data) == &first_data && src && src != qa && src != qb &&
        src->id == qa->id && src->base_address == qa->base_address,
        "acquire 0x%x 0x%x errors %d status 0x%x first %d source %p (acquires %p %p)", sa, sb,
        atomic_load(&counted_errors), atomic_load(&counted_status),
        atomic_load(&counted_data) == &first_data, (const void *)src, (void *)qa, (void *)qb);
  if (qa) hsa_amd_counted_queue_release(qa);
  if (qb) hsa_amd_counted_queue_release(qb);
  unsetenv("GPU_MAX_HW_QUEUES");
}

/* ---- application SDMA queues -------------------------------------------------------- */
static size_t put_copy(uint8_t *ring, const hsa_amd_sdma_queue_resource_t *r, size_t min,
                       const void *src, void *dst, uint32_t bytes)
{
  /* SDMA COPY_LINEAR: op 1, sub-op 0; count = bytes - 1; parameters; src; dst */
  uint32_t pkt[7] = {1u, bytes - 1, 0, (uint32_t)(uintptr_t)src,
                     (uint32_t)((uintptr_t)src >> 32), (uint32_t)(uintptr_t)dst,
                     (uint32_t)((uintptr_t)dst >> 32)};
  size_t sub = sizeof pkt > min ? sizeof pkt : min;
  uint64_t wp = *r->write_ptr;
  memset(ring + wp % r->ring_size, 0, sub);   /* zero dwords are NOP packets */
  memcpy(ring + wp % r->ring_size, pkt, sizeof pkt);
  return sub;
}

static bool consumed(const hsa_amd_sdma_queue_resource_t *r, uint64_t wp)
{
  uint64_t end = now_ns() + 5000000000ull;
  while (*r->read_ptr < wp)
    if (now_ns() > end) return false;
  return true;
}

static void test_sdma_queue(void)
{
  hsa_amd_sdma_queue_t q, q2;
  hsa_status_t st = hsa_amd_sdma_queue_create(ag.gpu, 0, (hsa_amd_sdma_engine_id_t)0, 0, &q);
  hsa_amd_sdma_queue_resource_t r;
  memset(&r, 0, sizeof r);
  size_t min = 0;
  hsa_agent_t owner = {0};
  uint64_t id1 = 0, id2 = 0;
  hsa_amd_sdma_queue_get_info(q, HSA_AMD_SDMA_QUEUE_INFO_RESOURCE, &r);
  hsa_amd_sdma_queue_get_info(q, HSA_AMD_SDMA_QUEUE_INFO_MIN_SUBMISSION_SIZE, &min);
  hsa_amd_sdma_queue_get_info(q, HSA_AMD_SDMA_QUEUE_INFO_AGENT, &owner);
  hsa_amd_sdma_queue_get_info(q, HSA_AMD_SDMA_QUEUE_INFO_QUEUE_ID, &id1);
  /* engine 1: on gfx900 (two queues per engine) the preload's queue and q fill engine 0 */
  hsa_status_t st2 = hsa_amd_sdma_queue_create(ag.gpu, HSA_AMD_SDMA_QUEUE_FLAG_USE_ENGINE_ID,
                                                HSA_AMD_SDMA_ENGINE_1, 8192, &q2);
  hsa_amd_sdma_queue_get_info(q2, HSA_AMD_SDMA_QUEUE_INFO_QUEUE_ID, &id2);
  CHECK("sdma_queue_create", st == 0 && st2 == 0 && r.ring_base && r.ring_size >= 4096 &&
                                 r.read_ptr && r.write_ptr && r.doorbell && min >= 4 &&
                                 owner.handle == ag.gpu.handle && id1 != id2,
        "st %x %x ring %p size %zu min %zu ids %lu %lu", st, st2, r.ring_base, r.ring_size, min,
        (unsigned long)id1, (unsigned long)id2);
  if (st) return;
  const uint32_t n = 64 * 1024;
  uint8_t *src = sys_alloc(n), *back = sys_alloc(n), *dev = dev_alloc(n), *chk = malloc(n);
  fill(src, n, 5);
  memset(back, 0, n);
  /* host -> device through the API's doorbell */
  size_t sub = put_copy(r.ring_base, &r, min, src, dev, n);
  uint64_t wp = *r.write_ptr + sub;
  hsa_status_t rd = hsa_amd_sdma_queue_ring_doorbell(q, wp);
  bool c1 = rd == 0 && consumed(&r, wp);
  to_host(chk, dev, n);
  size_t b1 = mismatch(chk, n, 5, 0);
  CHECK("sdma_queue_doorbell_api", c1 && b1 == n, "rung 0x%x consumed %d first bad %zu", rd, c1,
        b1);
  /* device -> host by storing the write pointer and the doorbell directly */
  sub = put_copy(r.ring_base, &r, min, dev, back, n);
  wp = *r.write_ptr + sub;
  __atomic_store_n(r.write_ptr, wp, __ATOMIC_RELEASE);
  __atomic_store_n(r.doorbell, wp, __ATOMIC_RELEASE);
  bool c2 = consumed(&r, wp);
  size_t b2 = mismatch(back, n, 5, 0);
  CHECK("sdma_queue_doorbell_direct", c2 && b2 == n, "consumed %d first bad %zu", c2, b2);
  hsa_status_t back_st = hsa_amd_sdma_queue_ring_doorbell(q, wp - 4);
  hsa_status_t odd = hsa_amd_sdma_queue_ring_doorbell(q, wp + 2);
  hsa_status_t far = hsa_amd_sdma_queue_ring_doorbell(q, wp + r.ring_size + 32);
  hsa_status_t d1 = hsa_amd_sdma_queue_destroy(q);
  hsa_status_t d1again = hsa_amd_sdma_queue_destroy(q);
  hsa_status_t stale = hsa_amd_sdma_queue_get_info(q, HSA_AMD_SDMA_QUEUE_INFO_RESOURCE, &r);
  hsa_amd_sdma_queue_t x;
  hsa_status_t cpu = hsa_amd_sdma_queue_create(ag.cpu, 0, (hsa_amd_sdma_engine_id_t)0, 0, &x);
  hsa_status_t flags = hsa_amd_sdma_queue_create(ag.gpu, 0x80, (hsa_amd_sdma_engine_id_t)0, 0, &x);
  hsa_status_t eng = hsa_amd_sdma_queue_create(ag.gpu, HSA_AMD_SDMA_QUEUE_FLAG_USE_ENGINE_ID,
                                               (hsa_amd_sdma_engine_id_t)0x3, 0, &x);
  hsa_status_t size = hsa_amd_sdma_queue_create(ag.gpu, 0, (hsa_amd_sdma_engine_id_t)0, 5000, &x);
  CHECK("sdma_queue_statuses",
        back_st == HSA_STATUS_ERROR_INVALID_ARGUMENT && odd == HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            far == HSA_STATUS_ERROR_INVALID_ARGUMENT && d1 == 0 &&
            d1again == HSA_STATUS_ERROR_INVALID_QUEUE && stale == HSA_STATUS_ERROR_INVALID_QUEUE &&
            cpu == HSA_STATUS_ERROR_INVALID_AGENT && flags == HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            eng == HSA_STATUS_ERROR_INVALID_ARGUMENT && size == HSA_STATUS_ERROR_INVALID_ARGUMENT,
        "back %x odd %x far %x destroy %x again %x stale %x cpu %x flags %x engine %x size %x",
        back_st, odd, far, d1, d1again, stale, cpu, flags, eng, size);
  hsa_amd_sdma_queue_destroy(q2);
  free(chk);
  hsa_amd_memory_pool_free(src);
  hsa_amd_memory_pool_free(back);
  hsa_amd_memory_pool_free(dev);
}

/* "engine": an application SDMA queue asked for on engine 1 (USE_ENGINE_ID), made before
 * the runtime has any SDMA queue of its own, copies host bytes through its ring, then two
 * queues without an engine (round-robin: engines 0 and 1); newapi.sh reads from the
 * simulator's trace which engine each queue is on. Below KFD 1.17 (no SDMA_BY_ENG_ID) the
 * newest ROCR refuses the call: "engine_queue refused". */
static int engine_mode(void)
{
  hsa_amd_sdma_queue_t q;
  hsa_status_t st = hsa_amd_sdma_queue_create(ag.gpu, HSA_AMD_SDMA_QUEUE_FLAG_USE_ENGINE_ID,
                                              HSA_AMD_SDMA_ENGINE_1, 0, &q);
  if (st == HSA_STATUS_ERROR_INVALID_QUEUE_CREATION) {
    hsa_status_t st0 = hsa_amd_sdma_queue_create(ag.gpu, 0, (hsa_amd_sdma_engine_id_t)0, 0, &q);
    printf("engine_queue refused 0x%x\n", st0);
    return st0 != HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
  }
  if (st) {
    printf("engine_queue FAIL create 0x%x\n", st);
    return 1;
  }
  hsa_amd_sdma_queue_resource_t r;
  size_t min = 0;
  hsa_amd_sdma_queue_get_info(q, HSA_AMD_SDMA_QUEUE_INFO_RESOURCE, &r);
  hsa_amd_sdma_queue_get_info(q, HSA_AMD_SDMA_QUEUE_INFO_MIN_SUBMISSION_SIZE, &min);
  const uint32_t n = 16 * 1024;
  uint8_t *src = sys_alloc(n), *back = sys_alloc(n);
  fill(src, n, 9);
  memset(back, 0, n);
  size_t sub = put_copy(r.ring_base, &r, min, src, back, n);
  uint64_t wp = *r.write_ptr + sub;
  hsa_status_t rd = hsa_amd_sdma_queue_ring_doorbell(q, wp);
  bool c = rd == 0 && consumed(&r, wp);
  size_t b = mismatch(back, n, 9, 0);
  hsa_amd_sdma_queue_t q0, q1;
  hsa_status_t a0 = hsa_amd_sdma_queue_create(ag.gpu, 0, (hsa_amd_sdma_engine_id_t)0, 0, &q0);
  hsa_status_t a1 = hsa_amd_sdma_queue_create(ag.gpu, 0, (hsa_amd_sdma_engine_id_t)0, 0, &q1);
  CHECK("engine_queue", c && b == n && a0 == 0 && a1 == 0,
        "rung 0x%x consumed %d first bad %zu auto 0x%x 0x%x", rd, c, b, a0, a1);
  hsa_amd_sdma_queue_destroy(q1);
  hsa_amd_sdma_queue_destroy(q0);
  hsa_amd_sdma_queue_destroy(q);
  hsa_amd_memory_pool_free(src);
  hsa_amd_memory_pool_free(back);
  return failures != 0;
}

/* ---- hsa_amd_svm_discard_batch_async ------------------------------------------------ */
/* Without XNACK (the main run): the pointer and count checks first, then XNACK_DISABLED, as
 * the newest ROCR answers. */
static void test_discard(void)
{
  size_t n = 8192;
  uint8_t *a = sys_alloc(n), *b = sys_alloc(n);
  hsa_signal_t dep, done;
  hsa_signal_create(1, 0, NULL, &dep);
  hsa_signal_create(1, 0, NULL, &done);
  void *ptrs[2] = {a, b};
  size_t sizes[2] = {n, n};
  bool xnack = true;
  hsa_system_get_info(HSA_AMD_SYSTEM_INFO_XNACK_ENABLED, &xnack);
  hsa_status_t st = hsa_amd_svm_discard_batch_async(ptrs, sizes, 2, 1, &dep, done);
  CHECK("discard_ordered", !xnack && st == (hsa_status_t)HSA_STATUS_ERROR_XNACK_DISABLED &&
        hsa_signal_load_scacquire(done) == 1, "xnack %d st 0x%x", xnack, st);
  CHECK("discard_statuses",
        hsa_amd_svm_discard_batch_async(ptrs, sizes, 0, 0, NULL, done) ==
                HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            hsa_amd_svm_discard_batch_async(NULL, sizes, 1, 0, NULL, done) ==
                HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            hsa_amd_svm_discard_batch_async(ptrs, NULL, 1, 0, NULL, done) ==
                HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            hsa_amd_svm_discard_batch_async(ptrs, sizes, 1, 0, NULL, done) ==
                (hsa_status_t)HSA_STATUS_ERROR_XNACK_DISABLED,
        "accepted");
  hsa_signal_destroy(dep);
  hsa_signal_destroy(done);
  hsa_amd_memory_pool_free(a);
  hsa_amd_memory_pool_free(b);
}

/* With XNACK (newapi.sh: gfx942, HSA_XNACK=1), as ROCR's own test of it: reserved ranges
 * prefetched to the GPU stay there until the dependencies are 0, then their prefetch
 * location is system memory (the CPU agent); a stack buffer is INVALID_ARGUMENT; a destroyed
 * dependency drops the discard, leaving the completion signal as it is. */
static uint64_t prefetch_loc(void *p, size_t n)
{
  hsa_amd_svm_attribute_pair_t at = {HSA_AMD_SVM_ATTRIB_PREFETCH_LOCATION, 0};
  return hsa_amd_svm_attributes_get(p, n, &at, 1) == HSA_STATUS_SUCCESS ? at.value : 1;
}

static int discard_mode(void)
{
  bool xnack = false;
  hsa_system_get_info(HSA_AMD_SYSTEM_INFO_XNACK_ENABLED, &xnack);
  CHECK("discard_xnack", xnack, "XNACK is off");
  enum { R = 3, N = 2 * 4096 };
  void *ptrs[R];
  size_t sizes[R];
  bool set = true, on_gpu = true;
  hsa_signal_t sig, dep, done;
  hsa_signal_create(1, 0, NULL, &sig);
  hsa_signal_create(1, 0, NULL, &dep);
  hsa_signal_create(1, 0, NULL, &done);
  for (int i = 0; i < R; i++) {
    ptrs[i] = NULL;
    sizes[i] = N;
    set = set && hsa_amd_vmem_address_reserve(&ptrs[i], N, 0, HSA_AMD_VMEM_ADDRESS_NO_REGISTER) ==
                     HSA_STATUS_SUCCESS;
    if (!set) break;
    hsa_amd_svm_attribute_pair_t at[2] = {{HSA_AMD_SVM_ATTRIB_PREFERRED_LOCATION, ag.gpu.handle},
                                          {HSA_AMD_SVM_ATTRIB_AGENT_ACCESSIBLE, ag.gpu.handle}};
    set = set && hsa_amd_svm_attributes_set(ptrs[i], N, at, 2) == HSA_STATUS_SUCCESS;
    memset(ptrs[i], 0x5a, N);
    hsa_signal_store_relaxed(sig, 1);
    set = set && hsa_amd_svm_prefetch_async(ptrs[i], N, ag.gpu, 0, NULL, sig) == 0 &&
          wait_zero(sig, 5000);
    on_gpu = on_gpu && prefetch_loc(ptrs[i], N) == ag.gpu.handle;
  }
  hsa_status_t st = set ? hsa_amd_svm_discard_batch_async(ptrs, sizes, R, 1, &dep, done)
                        : HSA_STATUS_ERROR;
  sleep_ms(20);
  hsa_signal_value_t before = hsa_signal_load_scacquire(done);
  bool still = true;
  for (int i = 0; i < R; i++) still = still && prefetch_loc(ptrs[i], N) == ag.gpu.handle;
  hsa_signal_store_screlease(dep, 0);
  bool ok = wait_zero(done, 5000), sys = true;
  for (int i = 0; i < R; i++) {   /* ROCR's test: still a reserved range afterwards */
    hsa_amd_pointer_info_t pi = {.size = sizeof pi};
    sys = sys && prefetch_loc(ptrs[i], N) == ag.cpu.handle &&
          hsa_amd_pointer_info(ptrs[i], &pi, NULL, NULL, NULL) == 0 &&
          pi.type == HSA_EXT_POINTER_TYPE_RESERVED_ADDR;
  }
  CHECK("discard_to_system", set && on_gpu && st == 0 && before == 1 && still && ok && sys,
        "set %d on_gpu %d st 0x%x before %ld still %d done %d sys %d", set, on_gpu, st,
        (long)before, still, ok, sys);

  char stack[4096];
  void *sp[1] = {stack};
  size_t ss[1] = {sizeof stack};
  hsa_signal_t gone;
  hsa_signal_create(1, 0, NULL, &gone);
  hsa_signal_store_relaxed(done, 1);
  hsa_status_t s2 = hsa_amd_svm_discard_batch_async(ptrs, sizes, 1, 1, &gone, done);
  hsa_signal_destroy(gone);   /* before it reached 0: the discard is dropped */
  sleep_ms(50);
  CHECK("discard_refusals",
        hsa_amd_svm_discard_batch_async(sp, ss, 1, 0, NULL, done) ==
                HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            hsa_amd_svm_discard_batch_async(ptrs, sizes, 1, 1, NULL, done) ==
                HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            hsa_amd_svm_discard_batch_async(ptrs, sizes, 1, 0, &dep, done) ==
                HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            s2 == 0 && hsa_signal_load_scacquire(done) == 1,
        "s2 0x%x done %ld", s2, (long)hsa_signal_load_scacquire(done));
  for (int i = 0; i < R; i++)
    if (ptrs[i]) hsa_amd_vmem_address_free(ptrs[i], N);
  hsa_signal_destroy(sig);
  hsa_signal_destroy(dep);
  hsa_signal_destroy(done);
  return failures != 0;
}

/* ---- AIS file read/write ------------------------------------------------------------- */
static void test_ais(const char *dir, const char *tag)
{
  char path[512];
  snprintf(path, sizeof path, "%s/ais-%s.bin", dir, tag);
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  const size_t n = MIB + 100, off = 4096;
  uint8_t *host = malloc(n), *dev = dev_alloc(n), *dev2 = dev_alloc(n), *chk = malloc(n);
  if (fd < 0 || !host || !dev || !dev2 || !chk) {
    CHECK("ais_setup", 0, "%s: %s", path, strerror(errno));
    return;
  }
  fill(host, n, 7);
  hsa_memory_copy(dev, host, n);
  hsa_amd_ais_file_handle_t h;
  memset(&h, 0, sizeof h);
  h.fd = fd;
  uint64_t copied = 0;
  int32_t why = -1;
  hsa_status_t w = hsa_amd_ais_file_write(h, dev, n, (int64_t)off, &copied, &why);
  ssize_t got = pread(fd, chk, n, (off_t)off);
  size_t bw = got == (ssize_t)n ? mismatch(chk, n, 7, 0) : 0;
  char name[64];
  snprintf(name, sizeof name, "ais_write_%s", tag);
  CHECK(name, w == 0 && copied == n && why == 0 && bw == n,
        "st %x copied %lu status %d pread %zd first bad %zu", w, (unsigned long)copied, why, got,
        bw);
  /* read back from the middle: offset off + 8192, to the end of the file (short) */
  copied = 0;
  hsa_status_t r = hsa_amd_ais_file_read(h, dev2, n, (int64_t)(off + 8192), &copied, &why);
  memset(chk, 0, n);
  to_host(chk, dev2, n - 8192);
  size_t br = mismatch(chk, n - 8192, 7, 8192);
  snprintf(name, sizeof name, "ais_read_%s", tag);
  CHECK(name, r == 0 && copied == n - 8192 && br == n - 8192,
        "st %x copied %lu (want %zu) first bad %zu", r, (unsigned long)copied, n - 8192, br);
  hsa_amd_ais_file_handle_t badfd;
  memset(&badfd, 0, sizeof badfd);
  badfd.fd = -1;
  int ro = open(path, O_RDONLY | O_CLOEXEC);
  hsa_amd_ais_file_handle_t roh;
  memset(&roh, 0, sizeof roh);
  roh.fd = ro;
  hsa_status_t e_ro = hsa_amd_ais_file_write(roh, dev, 4096, 0, &copied, &why);
  int32_t ro_why = why;
  snprintf(name, sizeof name, "ais_statuses_%s", tag);
  CHECK(name,
        hsa_amd_ais_file_read(badfd, dev, 16, 0, &copied, &why) ==
                HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            hsa_amd_ais_file_read(h, dev, 0, 0, &copied, &why) ==
                HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            hsa_amd_ais_file_read(h, NULL, 16, 0, &copied, &why) ==
                HSA_STATUS_ERROR_INVALID_ARGUMENT &&
            hsa_amd_ais_file_read(h, host, 16, 0, &copied, &why) ==
                HSA_STATUS_ERROR_INVALID_ALLOCATION &&
            hsa_amd_ais_file_read(h, dev, n + 4096, 0, &copied, &why) ==
                HSA_STATUS_ERROR_INVALID_ALLOCATION &&
            e_ro == HSA_STATUS_ERROR && ro_why == EBADF,
        "write to a read-only descriptor: %x (status %d)", e_ro, ro_why);
  close(ro);
  close(fd);
  unlink(path);
  free(host);
  free(chk);
  hsa_amd_memory_pool_free(dev);
  hsa_amd_memory_pool_free(dev2);
}

/* ---- hsa_amd_enable_logging ----------------------------------------------------------- */
static void test_logging(void)
{
  FILE *f = tmpfile();
  uint8_t flags[8] = {0};
  hsa_flag_set64(flags, HSA_AMD_LOG_FLAG_INFO);
  hsa_flag_set64(flags, HSA_AMD_LOG_FLAG_SDMA);
  hsa_status_t st = hsa_amd_enable_logging(flags, f);
  hsa_queue_t *q = NULL;
  hsa_queue_create(ag.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q);
  uint64_t id = q ? q->id : 0;
  uint8_t *h = sys_alloc(4096), *d = dev_alloc(4096);
  hsa_signal_t s;
  hsa_signal_create(1, 0, NULL, &s);
  hsa_amd_memory_async_copy(d, ag.gpu, h, ag.cpu, 4096, 0, NULL, s);
  wait_zero(s, 5000);
  uint8_t off[8] = {0};
  hsa_status_t st0 = hsa_amd_enable_logging(off, f);
  hsa_queue_t *q2 = NULL;
  hsa_queue_create(ag.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q2);
  fflush(f);
  rewind(f);
  char line[512], want[64];
  snprintf(want, sizeof want, "created AQL queue id=%lu ", (unsigned long)id);
  int queue_lines = 0, mine = 0, sdma = 0;
  while (fgets(line, sizeof line, f)) {
    if (strstr(line, "created AQL queue")) queue_lines++;
    if (strstr(line, want)) mine++;
    if (strstr(line, ": sdma: copy 4096 bytes")) sdma++;
  }
  CHECK("enable_logging", st == 0 && st0 == 0 && queue_lines == 1 && mine == 1 && sdma == 1,
        "st %x/%x queue lines %d (id %lu: %d) sdma lines %d", st, st0, queue_lines,
        (unsigned long)id, mine, sdma);
  CHECK("enable_logging_null", hsa_amd_enable_logging(NULL, NULL) == HSA_STATUS_ERROR_INVALID_ARGUMENT,
        "accepted");
  fclose(f);
  hsa_queue_destroy(q);
  hsa_queue_destroy(q2);
  hsa_signal_destroy(s);
  hsa_amd_memory_pool_free(h);
  hsa_amd_memory_pool_free(d);
}

/* ---- hsa_amd_agent_set_async_scratch_limit (statuses; scratch itself: newapi.sh) -------- */
static void test_scratch_limit(void)
{
  CHECK("scratch_limit_statuses",
        hsa_amd_agent_set_async_scratch_limit(ag.gpu, 1u << 20) == HSA_STATUS_SUCCESS &&
            hsa_amd_agent_set_async_scratch_limit(ag.cpu, 0) == HSA_STATUS_ERROR_INVALID_AGENT &&
            hsa_amd_agent_set_async_scratch_limit((hsa_agent_t){5}, 0) ==
                HSA_STATUS_ERROR_INVALID_AGENT &&
            hsa_amd_agent_set_async_scratch_limit(ag.gpu, 146800640) == HSA_STATUS_SUCCESS,
        "refused or accepted wrongly");
}

/* ---- hsa_amd_agent_set_async_scratch_limit with a kernel that needs scratch ------------
 * `priv` (dispatch_kernels.cl) keeps 64 words per item in scratch. The queue's amd_queue_t
 * (what the CP reads) shows the scratch it holds and whether it is single-use. */
static bool dispatch_priv(hsa_queue_t *q, const struct client_kernel *k, hsa_region_t kernarg)
{
  const uint32_t n = 1024;
  uint32_t *out = sys_alloc(n * 4);
  struct { uint32_t *out; uint32_t n; } *args = NULL;
  hsa_memory_allocate(kernarg, k->kernarg_size > 16 ? k->kernarg_size : 16, (void **)&args);
  args->out = out;
  args->n = n;
  hsa_signal_t done;
  hsa_signal_create(1, 0, NULL, &done);
  client_dispatch(q, k, args, n, 64, done);
  bool ok = wait_zero(done, 60000);
  for (uint32_t i = 0; ok && i < n; i++) ok = out[i] == i * ((i * 7) % 64) + 1;
  hsa_signal_destroy(done);
  hsa_memory_free(args);
  hsa_amd_memory_pool_free(out);
  return ok;
}

static uint64_t kept(const hsa_queue_t *q) {
  const amd_queue_t *a = (const amd_queue_t *)q;
  return __atomic_load_n(&a->scratch_backing_memory_byte_size, __ATOMIC_ACQUIRE);
}

static int scratch_mode(const char *co)
{
  hsa_executable_t exec;
  struct client_kernel k = {0};
  struct client_regions rg = {{0}, {0}};
  hsa_agent_iterate_regions(ag.gpu, client_pick_regions, &rg);
  if (client_load_file(ag.gpu, co, HSA_PROFILE_BASE, &exec) != HSA_STATUS_SUCCESS ||
      client_kernel(exec, ag.gpu, "priv.kd", &k) != HSA_STATUS_SUCCESS || k.priv < 256) {
    printf("scratch_setup FAIL cannot load priv from %s (%u private bytes)\n", co, k.priv);
    return 1;
  }
  hsa_queue_t *q = NULL;
  hsa_queue_create(ag.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q);
  uint64_t none = kept(q);
  bool r1 = dispatch_priv(q, &k, rg.kernarg);
  uint64_t grown = kept(q);
  CHECK("scratch_grown_kept", none == 0 && r1 && grown > 0, "before %lu results %d after %lu",
        (unsigned long)none, r1, (unsigned long)grown);
  /* a limit below what the queue keeps: given back now (the queue is idle) */
  hsa_status_t st = hsa_amd_agent_set_async_scratch_limit(ag.gpu, grown - 1);
  uint64_t after = kept(q);
  CHECK("scratch_limit_frees", st == 0 && after == 0, "st %x kept %lu", st,
        (unsigned long)after);
  /* the next dispatch gets single-use scratch sized for it alone (USE_SCRATCH_ONCE; the CP
   * gives it back with code 512, which hsa-sim does not model yet) */
  bool r2 = dispatch_priv(q, &k, rg.kernarg);
  uint64_t once = kept(q);
  uint32_t props = __atomic_load_n(&((const amd_queue_t *)q)->queue_properties, __ATOMIC_ACQUIRE);
  CHECK("scratch_limit_single_use",
        r2 && once > 0 && once < grown && (props & AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE),
        "results %d kept %lu of %lu properties 0x%x", r2, (unsigned long)once,
        (unsigned long)grown, props);
  /* raised again: a queue keeps what it grows */
  st = hsa_amd_agent_set_async_scratch_limit(ag.gpu, 146800640);
  hsa_queue_t *q2 = NULL;
  hsa_queue_create(ag.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q2);
  bool r3 = dispatch_priv(q2, &k, rg.kernarg);
  uint64_t again = kept(q2);
  props = __atomic_load_n(&((const amd_queue_t *)q2)->queue_properties, __ATOMIC_ACQUIRE);
  CHECK("scratch_limit_raised",
        st == 0 && r3 && again == grown && !(props & AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE),
        "results %d kept %lu of %lu properties 0x%x", r3, (unsigned long)again,
        (unsigned long)grown, props);
  hsa_queue_destroy(q2);
  hsa_queue_destroy(q);
  hsa_executable_destroy(exec);
  hsa_shut_down();
  printf("failures %d\n", failures);
  return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
  bool peer = argc > 1 && strcmp(argv[1], "peer") == 0;
  if (hsa_init() != HSA_STATUS_SUCCESS) {
    printf("hsa_init FAIL\n");
    return 1;
  }
  hsa_iterate_agents(client_pick_agents, &ag);
  if (!ag.gpu.handle || !ag.cpu.handle) {
    printf("agents FAIL\n");
    return 1;
  }
  if (argc > 1 && strcmp(argv[1], "preload") == 0) {   /* newapi.sh counts its queues */
    hsa_status_t st = hsa_amd_agent_preload(ag.gpu, 0);
    hsa_shut_down();
    printf("preload 0x%x\n", st);
    return st != HSA_STATUS_SUCCESS;
  }
  if (argc > 1 && strcmp(argv[1], "engine") == 0) {
    hsa_amd_agent_iterate_memory_pools(ag.cpu, pick_pool, &sys_pool);
    int rc = engine_mode();
    hsa_shut_down();
    return rc;
  }
  if (argc > 1 && strcmp(argv[1], "discard") == 0) {   /* under HSA_XNACK=1 */
    hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &tick_hz);
    int rc = discard_mode();
    hsa_shut_down();
    return rc;
  }
  if (argc > 2 && strcmp(argv[1], "scratch") == 0) {
    hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &tick_hz);
    hsa_amd_agent_iterate_memory_pools(ag.cpu, pick_pool, &sys_pool);
    return scratch_mode(argv[2]);
  }
  test_async_function(peer);
  if (peer) {
    hsa_shut_down();
    return 0;
  }
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &tick_hz);
  hsa_amd_agent_iterate_memory_pools(ag.cpu, pick_pool, &sys_pool);
  hsa_amd_agent_iterate_memory_pools(ag.gpu, pick_pool, &dev_pool);
  const char *dir = argc > 1 ? argv[1] : "/tmp";
  test_preload();
  test_wait_all();
  test_event_id();
  test_preferred();
  test_batch_copy();
  test_counted();
  test_sdma_queue();
  test_discard();
  test_ais(dir, "dir");
  test_ais("/dev/shm", "shm");
  test_logging();
  test_scratch_limit();
  hsa_shut_down();
  printf("failures %d\n", failures);
  return failures ? 1 : 0;
}
