/* SPDX-License-Identifier: MIT */
/* misuse_client.c — the API misused on purpose: destroyed, stale (slot reused) and made-up
 * handles of every kind, calls after hsa_shut_down, absurd sizes. Each case runs in a child
 * process of its own (this program run again with --case NAME), since a runtime may crash or
 * hang on one; the parent says what each child printed, or how it died.
 *
 *   misuse_client            one line per case: "name<TAB>result"
 *   misuse_client --check    the same, and exit 1 unless every result is the expected one
 *                            (our runtime's documented answer)
 *   misuse_client --list     "name<TAB>what<TAB>expected" per case
 *
 * A result is a status name (INVALID_SIGNAL, ...), "returns X" for calls without a status
 * ("at once" when a wait did not block), "no effect" for a void call that returned, or
 * "crash (SIGSEGV)", "abort", "hang" (killed after CASE_SECONDS) for a child that died. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hsa.h"
#include "hsa_ext_amd.h"

#define CASE_SECONDS 5

/* ---- results -------------------------------------------------------------------------- */

static char result[160];

static const char *status_name(hsa_status_t s) {
  switch ((int)s) {
#define N(x) case HSA_STATUS_##x: return #x;
    N(SUCCESS) N(INFO_BREAK) N(ERROR) N(ERROR_INVALID_ARGUMENT) N(ERROR_INVALID_QUEUE_CREATION)
    N(ERROR_INVALID_ALLOCATION) N(ERROR_INVALID_AGENT) N(ERROR_INVALID_REGION)
    N(ERROR_INVALID_SIGNAL) N(ERROR_INVALID_QUEUE) N(ERROR_OUT_OF_RESOURCES)
    N(ERROR_INVALID_PACKET_FORMAT) N(ERROR_RESOURCE_FREE) N(ERROR_NOT_INITIALIZED)
    N(ERROR_REFCOUNT_OVERFLOW) N(ERROR_INCOMPATIBLE_ARGUMENTS) N(ERROR_INVALID_INDEX)
    N(ERROR_INVALID_ISA) N(ERROR_INVALID_ISA_NAME) N(ERROR_INVALID_CODE_OBJECT)
    N(ERROR_INVALID_EXECUTABLE) N(ERROR_FROZEN_EXECUTABLE) N(ERROR_INVALID_SYMBOL_NAME)
    N(ERROR_VARIABLE_ALREADY_DEFINED) N(ERROR_VARIABLE_UNDEFINED) N(ERROR_EXCEPTION)
    N(ERROR_INVALID_CODE_SYMBOL) N(ERROR_INVALID_EXECUTABLE_SYMBOL) N(ERROR_INVALID_FILE)
    N(ERROR_INVALID_CODE_OBJECT_READER) N(ERROR_INVALID_CACHE) N(ERROR_INVALID_WAVEFRONT)
    N(ERROR_INVALID_SIGNAL_GROUP) N(ERROR_INVALID_RUNTIME_STATE) N(ERROR_FATAL)
    N(ERROR_INVALID_MEMORY_POOL) N(ERROR_MEMORY_APERTURE_VIOLATION) N(ERROR_RESOURCE_BUSY)
#undef N
  }
  static char buf[32];
  snprintf(buf, sizeof(buf), "status 0x%x", (unsigned)s);
  return buf;
}

/* "ERROR_INVALID_SIGNAL" reads as "INVALID_SIGNAL" in the table. */
static const char *st(hsa_status_t s) {
  const char *n = status_name(s);
  return strncmp(n, "ERROR_", 6) == 0 ? n + 6 : n;
}

static const char *value_text(int64_t v) {
  static char buf[48];
  if (v == INT64_MAX) return "INT64_MAX";
  if (v == INT64_MIN) return "INT64_MIN";
  snprintf(buf, sizeof(buf), "%" PRId64, v);
  return buf;
}

static uint64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

/* ---- what the cases need ---------------------------------------------------------------- */

static hsa_agent_t gpu, cpu;
static hsa_region_t sys_region;
static hsa_amd_memory_pool_t sys_pool, gpu_pool;

static hsa_status_t find_pool(hsa_amd_memory_pool_t p, void *data) {
  hsa_amd_segment_t seg;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  bool alloc = false;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
  hsa_amd_memory_pool_t *out = data;
  if (seg == HSA_AMD_SEGMENT_GLOBAL && alloc && !out->handle) *out = p;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_region(hsa_region_t r, void *data) {
  (void)data;
  hsa_region_segment_t seg;
  uint32_t flags = 0;
  hsa_region_get_info(r, HSA_REGION_INFO_SEGMENT, &seg);
  hsa_region_get_info(r, HSA_REGION_INFO_GLOBAL_FLAGS, &flags);
  if (seg == HSA_REGION_SEGMENT_GLOBAL && (flags & HSA_REGION_GLOBAL_FLAG_FINE_GRAINED) &&
      !sys_region.handle)
    sys_region = r;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_agent(hsa_agent_t a, void *data) {
  (void)data;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !gpu.handle) {
    gpu = a;
    hsa_amd_agent_iterate_memory_pools(a, find_pool, &gpu_pool);
  }
  if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) {
    cpu = a;
    hsa_agent_iterate_regions(a, find_region, NULL);
    hsa_amd_agent_iterate_memory_pools(a, find_pool, &sys_pool);
  }
  return HSA_STATUS_SUCCESS;
}

static void die(const char *what, hsa_status_t s) {
  printf("setup failed: %s: %s\n", what, st(s));
  fflush(stdout);
  _exit(2);
}
#define MUST(call)                                  \
  do {                                              \
    hsa_status_t s_ = (call);                       \
    if (s_ != HSA_STATUS_SUCCESS) die(#call, s_);   \
  } while (0)

static void init(void) {
  MUST(hsa_init());
  gpu.handle = cpu.handle = sys_region.handle = sys_pool.handle = gpu_pool.handle = 0;
  MUST(hsa_iterate_agents(find_agent, NULL));
  if (!gpu.handle || !cpu.handle || !sys_region.handle || !sys_pool.handle || !gpu_pool.handle)
    die("finding a GPU, a CPU and their memory", HSA_STATUS_ERROR);
}

/* A handle that was never an object: the address of zeroed, mapped memory (so a runtime that
 * reads through it misreads rather than faults), suitably aligned for any kind. */
static uint64_t made_up(void) {
  static void *block;
  if (!block) {
    block = aligned_alloc(4096, 65536);
    memset(block, 0, 65536);
  }
  return (uint64_t)(uintptr_t)block + 4096;
}

static hsa_signal_t signal_of(int64_t v) {
  hsa_signal_t s;
  MUST(hsa_signal_create(v, 0, NULL, &s));
  return s;
}

static hsa_queue_t *gpu_queue(void) {
  hsa_queue_t *q;
  MUST(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  return q;
}

static void *sys_alloc(size_t size) {
  void *p;
  MUST(hsa_amd_memory_pool_allocate(sys_pool, size, 0, &p));
  return p;
}

static hsa_executable_t executable(void) {
  hsa_executable_t e;
  MUST(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                 &e));
  return e;
}

static char co_bytes[256] = "\177ELF";
static hsa_code_object_reader_t reader(void) {
  hsa_code_object_reader_t r;
  MUST(hsa_code_object_reader_create_from_memory(co_bytes, sizeof(co_bytes), &r));
  return r;
}

static hsa_signal_group_t group(hsa_signal_t s) {
  hsa_signal_group_t g;
  MUST(hsa_signal_group_create(1, &s, 0, NULL, &g));
  return g;
}

static void ret_status(hsa_status_t s) { snprintf(result, sizeof(result), "%s", st(s)); }
static void ret_value(int64_t v) { snprintf(result, sizeof(result), "returns %s", value_text(v)); }
static void ret_text(const char *t) { snprintf(result, sizeof(result), "%s", t); }

/* A wait that should not block: the value, and whether it came back at once. */
static void ret_wait(hsa_signal_t s, hsa_signal_condition_t c, int64_t cmp) {
  uint64_t t0 = now_ms();
  int64_t v = hsa_signal_wait_scacquire(s, c, cmp, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
  uint64_t ms = now_ms() - t0;
  if (ms < 1000) snprintf(result, sizeof(result), "returns %s at once", value_text(v));
  else snprintf(result, sizeof(result), "returns %s after %" PRIu64 " ms", value_text(v), ms);
}

/* ---- the cases ------------------------------------------------------------------------------ */

/* signals */
static void signal_destroy_twice(void) {
  init();
  hsa_signal_t s = signal_of(1);
  MUST(hsa_signal_destroy(s));
  ret_status(hsa_signal_destroy(s));
}
static void signal_destroy_stale(void) {
  init();
  hsa_signal_t a = signal_of(1);
  MUST(hsa_signal_destroy(a));
  hsa_signal_t b = signal_of(2);
  ret_status(hsa_signal_destroy(a));
  (void)b;
}
static void signal_stale_spares_new(void) {
  init();
  hsa_signal_t a = signal_of(1);
  MUST(hsa_signal_destroy(a));
  hsa_signal_t b = signal_of(2);
  hsa_signal_destroy(a);
  ret_status(hsa_signal_destroy(b));
}
static void signal_destroy_made_up(void) {
  init();
  hsa_signal_t s = {made_up()};
  ret_status(hsa_signal_destroy(s));
}
static void signal_destroy_zero(void) {
  init();
  hsa_signal_t s = {0};
  ret_status(hsa_signal_destroy(s));
}
static void signal_load_destroyed(void) {
  init();
  hsa_signal_t s = signal_of(1);
  MUST(hsa_signal_destroy(s));
  ret_value(hsa_signal_load_scacquire(s));
}
static void signal_wait_destroyed(void) {
  init();
  hsa_signal_t s = signal_of(1);
  MUST(hsa_signal_destroy(s));
  ret_wait(s, HSA_SIGNAL_CONDITION_EQ, 0);
}
static void signal_wait_lt_destroyed(void) {
  init();
  hsa_signal_t s = signal_of(1);
  MUST(hsa_signal_destroy(s));
  ret_wait(s, HSA_SIGNAL_CONDITION_LT, 1);
}
static void signal_store_destroyed(void) {
  init();
  hsa_signal_t s = signal_of(1);
  MUST(hsa_signal_destroy(s));
  hsa_signal_t n = signal_of(2);
  hsa_signal_store_screlease(s, 0);
  snprintf(result, sizeof(result), "no effect%s",
           hsa_signal_load_relaxed(n) == 2 ? "" : " here, but the new signal changed");
}
static void signal_load_made_up(void) {
  init();
  hsa_signal_t s = {made_up()};
  ret_value(hsa_signal_load_relaxed(s));
}
static void signal_store_made_up(void) {
  init();
  hsa_signal_t s = {made_up()};
  hsa_signal_store_relaxed(s, 5);
  ret_text("no effect");
}
static void signal_wait_made_up(void) {
  init();
  hsa_signal_t s = {made_up()};
  ret_wait(s, HSA_SIGNAL_CONDITION_EQ, 0);
}
static bool handler(hsa_signal_value_t v, void *arg) {
  (void)v;
  (void)arg;
  return false;
}
static void signal_handler_destroyed(void) {
  init();
  hsa_signal_t s = signal_of(1);
  MUST(hsa_signal_destroy(s));
  ret_status(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_EQ, 0, handler, NULL));
}
static void signal_value_pointer_made_up(void) {
  init();
  hsa_signal_t s = {made_up()};
  volatile hsa_signal_value_t *p;
  ret_status(hsa_amd_signal_value_pointer(s, &p));
}
static void signal_before_shutdown_destroy(void) {
  init();
  hsa_signal_t a = signal_of(1);
  MUST(hsa_shut_down());
  init();
  hsa_signal_t b = signal_of(2);
  ret_status(hsa_signal_destroy(a));
  (void)b;
}
static void signal_load_after_shutdown(void) {
  init();
  hsa_signal_t s = signal_of(1);
  MUST(hsa_shut_down());
  ret_value(hsa_signal_load_relaxed(s));
}
static void signal_wait_any_destroyed(void) {
  init();
  hsa_signal_t s = signal_of(1);
  MUST(hsa_signal_destroy(s));
  hsa_signal_condition_t c = HSA_SIGNAL_CONDITION_EQ;
  hsa_signal_value_t v = 0;
  uint64_t t0 = now_ms();
  uint32_t i = hsa_amd_signal_wait_any(1, &s, &c, &v, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &v);
  snprintf(result, sizeof(result), "returns %s%s", i == UINT32_MAX ? "UINT32_MAX" : "an index",
           now_ms() - t0 < 1000 ? " at once" : " late");
}

/* signal groups */
static void group_destroy_twice(void) {
  init();
  hsa_signal_group_t g = group(signal_of(1));
  MUST(hsa_signal_group_destroy(g));
  ret_status(hsa_signal_group_destroy(g));
}
static void group_destroy_stale(void) {
  init();
  hsa_signal_t s = signal_of(1);
  hsa_signal_group_t a = group(s);
  MUST(hsa_signal_group_destroy(a));
  hsa_signal_group_t b = group(s);
  ret_status(hsa_signal_group_destroy(a));
  (void)b;
}
static void group_destroy_made_up(void) {
  init();
  hsa_signal_group_t g = {made_up()};
  ret_status(hsa_signal_group_destroy(g));
}
static void group_create_empty(void) {
  init();
  hsa_signal_t s = signal_of(1);
  hsa_signal_group_t g;
  ret_status(hsa_signal_group_create(0, &s, 0, NULL, &g));
}

/* queues */
static void queue_destroy_twice(void) {
  init();
  hsa_queue_t *q = gpu_queue();
  MUST(hsa_queue_destroy(q));
  ret_status(hsa_queue_destroy(q));
}
static void queue_destroy_stale(void) {
  init();
  hsa_queue_t *a = gpu_queue();
  MUST(hsa_queue_destroy(a));
  hsa_queue_t *b = gpu_queue();
  ret_status(hsa_queue_destroy(a));
  (void)b;
}
static void queue_destroy_made_up(void) {
  init();
  hsa_queue_t *q = gpu_queue();
  hsa_queue_t *fake = (hsa_queue_t *)(uintptr_t)made_up();
  memcpy(fake, q, sizeof(*q));   /* a copy of a real one, at another address */
  ret_status(hsa_queue_destroy(fake));
}
static void queue_index_destroyed(void) {
  init();
  hsa_queue_t *q = gpu_queue();
  MUST(hsa_queue_destroy(q));
  uint64_t w = hsa_queue_add_write_index_scacq_screl(q, 1);
  w = hsa_queue_load_write_index_relaxed(q);
  (void)hsa_queue_load_read_index_scacquire(q);
  snprintf(result, sizeof(result), "returns %" PRIu64, w);
}
static void queue_before_shutdown_destroy(void) {
  init();
  hsa_queue_t *a = gpu_queue();
  MUST(hsa_shut_down());
  init();
  hsa_queue_t *b = gpu_queue();
  ret_status(hsa_queue_destroy(a));
  (void)b;
}
static void queue_destroy_null(void) {
  init();
  ret_status(hsa_queue_destroy(NULL));
}
static void queue_inactivate_made_up(void) {
  init();
  ret_status(hsa_queue_inactivate((hsa_queue_t *)(uintptr_t)made_up()));
}
static void queue_size_2_31(void) {
  init();
  hsa_queue_t *q;
  ret_status(hsa_queue_create(gpu, 1u << 31, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                              UINT32_MAX, &q));
}
static void queue_size_0(void) {
  init();
  hsa_queue_t *q;
  ret_status(hsa_queue_create(gpu, 0, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                              &q));
}
static void queue_size_3(void) {
  init();
  hsa_queue_t *q;
  ret_status(hsa_queue_create(gpu, 3, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                              &q));
}

/* agents, regions, pools, caches, ISAs, wavefronts */
static void agent_made_up(void) {
  init();
  hsa_agent_t a = {made_up()};
  char name[64];
  ret_status(hsa_agent_get_info(a, HSA_AGENT_INFO_NAME, name));
}
static void agent_before_shutdown(void) {
  init();
  hsa_agent_t old = gpu;
  MUST(hsa_shut_down());
  init();
  char name[64];
  ret_status(hsa_agent_get_info(old, HSA_AGENT_INFO_NAME, name));
}
static void region_made_up(void) {
  init();
  hsa_region_t r = {made_up()};
  size_t size;
  ret_status(hsa_region_get_info(r, HSA_REGION_INFO_SIZE, &size));
}
static void pool_made_up(void) {
  init();
  hsa_amd_memory_pool_t p = {made_up()};
  size_t size;
  ret_status(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SIZE, &size));
}
static void pool_allocate_made_up(void) {
  init();
  hsa_amd_memory_pool_t p = {made_up()};
  void *ptr;
  ret_status(hsa_amd_memory_pool_allocate(p, 4096, 0, &ptr));
}
static void cache_made_up(void) {
  init();
  hsa_cache_t c = {made_up()};
  uint32_t size;
  ret_status(hsa_cache_get_info(c, HSA_CACHE_INFO_SIZE, &size));
}
static void isa_made_up(void) {
  init();
  hsa_isa_t i = {made_up()};
  uint32_t len;
  ret_status(hsa_isa_get_info_alt(i, HSA_ISA_INFO_NAME_LENGTH, &len));
}
static void wavefront_made_up(void) {
  init();
  hsa_wavefront_t w = {made_up()};
  uint32_t size;
  ret_status(hsa_wavefront_get_info(w, HSA_WAVEFRONT_INFO_SIZE, &size));
}

/* executables, code object readers, code objects */
static void executable_destroy_twice(void) {
  init();
  hsa_executable_t e = executable();
  MUST(hsa_executable_destroy(e));
  ret_status(hsa_executable_destroy(e));
}
static void executable_destroy_stale(void) {
  init();
  hsa_executable_t a = executable();
  MUST(hsa_executable_destroy(a));
  hsa_executable_t b = executable();
  ret_status(hsa_executable_destroy(a));
  (void)b;
}
static void executable_made_up(void) {
  init();
  hsa_executable_t e = {made_up()};
  ret_status(hsa_executable_freeze(e, NULL));
}
static void reader_destroy_twice(void) {
  init();
  hsa_code_object_reader_t r = reader();
  MUST(hsa_code_object_reader_destroy(r));
  ret_status(hsa_code_object_reader_destroy(r));
}
static void reader_destroy_stale(void) {
  init();
  hsa_code_object_reader_t a = reader();
  MUST(hsa_code_object_reader_destroy(a));
  hsa_code_object_reader_t b = reader();
  ret_status(hsa_code_object_reader_destroy(a));
  (void)b;
}
static void reader_made_up(void) {
  init();
  hsa_code_object_reader_t r = {made_up()};
  ret_status(hsa_code_object_reader_destroy(r));
}
static void code_object_made_up(void) {
  init();
  hsa_code_object_t c = {made_up()};
  ret_status(hsa_code_object_destroy(c));
}

/* memory pointers */
static void pool_free_twice(void) {
  init();
  void *p = sys_alloc(4096);
  MUST(hsa_amd_memory_pool_free(p));
  ret_status(hsa_amd_memory_pool_free(p));
}
/* Memory is the one kind whose handle is the object itself: a freed range may come back at
 * once, and then the stale pointer is the new allocation. */
static void pool_free_stale(void) {
  init();
  void *a = sys_alloc(4096);
  MUST(hsa_amd_memory_pool_free(a));
  void *b = sys_alloc(4096);
  hsa_status_t s = hsa_amd_memory_pool_free(a);
  snprintf(result, sizeof(result), "%s%s", st(s), a == b ? " (B reused A's address: B freed)" : "");
}
static void pool_free_made_up(void) {
  init();
  ret_status(hsa_amd_memory_pool_free((void *)(uintptr_t)made_up()));
}
static void memory_free_made_up(void) {
  init();
  ret_status(hsa_memory_free((void *)(uintptr_t)made_up()));
}
static void lock_unmapped(void) {
  init();
  void *agent_ptr;
  ret_status(hsa_amd_memory_lock((void *)(uintptr_t)0x10000, 4096, NULL, 0, &agent_ptr));
}
static void unlock_never_locked(void) {
  init();
  ret_status(hsa_amd_memory_unlock((void *)(uintptr_t)made_up()));
}
static void allow_access_freed(void) {
  init();
  void *p = sys_alloc(4096);
  MUST(hsa_amd_memory_pool_free(p));
  ret_status(hsa_amd_agents_allow_access(1, &gpu, NULL, p));
}
static void allow_access_made_up(void) {
  init();
  ret_status(hsa_amd_agents_allow_access(1, &gpu, NULL, (void *)(uintptr_t)made_up()));
}

/* absurd sizes */
static void pool_allocate_2_62(void) {
  init();
  void *p;
  ret_status(hsa_amd_memory_pool_allocate(gpu_pool, 1ull << 62, 0, &p));
}
static void memory_allocate_2_62(void) {
  init();
  void *p;
  ret_status(hsa_memory_allocate(sys_region, 1ull << 62, &p));
}
static void pool_allocate_0(void) {
  init();
  void *p;
  ret_status(hsa_amd_memory_pool_allocate(sys_pool, 0, 0, &p));
}
static void memory_copy_2_62(void) {
  init();
  void *a = sys_alloc(4096), *b = sys_alloc(4096);
  ret_status(hsa_memory_copy(a, b, 1ull << 62));
}
static void memory_copy_0(void) {
  init();
  void *a = sys_alloc(4096), *b = sys_alloc(4096);
  ret_status(hsa_memory_copy(a, b, 0));
}
static void async_copy_2_62(void) {
  init();
  void *a = sys_alloc(4096), *b = sys_alloc(4096);
  hsa_signal_t done = signal_of(1);
  hsa_status_t s = hsa_amd_memory_async_copy(a, cpu, b, cpu, 1ull << 62, 0, NULL, done);
  printf("%s\n", st(s));
  fflush(stdout);
  /* an accepted copy runs on another thread: see it through, so what it does is the case's */
  if (s == HSA_STATUS_SUCCESS) {
    uint64_t freq = 1000000000;
    hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq);
    hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 3 * freq, HSA_WAIT_STATE_BLOCKED);
  }
  _exit(0);
}
static void fill_2_62(void) {
  init();
  void *a = sys_alloc(4096);
  ret_status(hsa_amd_memory_fill(a, 0, 1ull << 62));
}

/* after hsa_shut_down */
static void after_shutdown(void) { init(); MUST(hsa_shut_down()); }
static void down_signal_create(void) {
  after_shutdown();
  hsa_signal_t s;
  ret_status(hsa_signal_create(0, 0, NULL, &s));
}
static void down_queue_create(void) {
  after_shutdown();
  hsa_queue_t *q;
  ret_status(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, 0, 0, &q));
}
static void down_queue_destroy(void) {
  init();
  hsa_queue_t *q = gpu_queue();
  MUST(hsa_shut_down());
  ret_status(hsa_queue_destroy(q));
}
static void down_signal_destroy(void) {
  init();
  hsa_signal_t s = signal_of(1);
  MUST(hsa_shut_down());
  ret_status(hsa_signal_destroy(s));
}
static void down_agent_get_info(void) {
  after_shutdown();
  char name[64];
  ret_status(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name));
}
static void down_pool_allocate(void) {
  after_shutdown();
  void *p;
  ret_status(hsa_amd_memory_pool_allocate(sys_pool, 4096, 0, &p));
}
static void down_executable_create(void) {
  after_shutdown();
  hsa_executable_t e;
  ret_status(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                       NULL, &e));
}
static void down_system_get_info(void) {
  after_shutdown();
  uint16_t v;
  ret_status(hsa_system_get_info(HSA_SYSTEM_INFO_VERSION_MAJOR, &v));
}
static void down_shut_down(void) {
  after_shutdown();
  ret_status(hsa_shut_down());
}

struct kase {
  const char *name, *what, *expect;
  void (*run)(void);
};
#define K(fn, what, expect) {#fn, what, expect, fn}
static const struct kase cases[] = {
    K(signal_destroy_twice, "hsa_signal_destroy twice", "INVALID_SIGNAL"),
    K(signal_destroy_stale, "destroy A, create B, destroy A", "INVALID_SIGNAL"),
    K(signal_stale_spares_new, "... then destroy B", "SUCCESS"),
    K(signal_destroy_made_up, "hsa_signal_destroy, made-up handle", "INVALID_SIGNAL"),
    K(signal_destroy_zero, "hsa_signal_destroy, handle 0", "INVALID_ARGUMENT"),
    K(signal_load_destroyed, "load of a destroyed signal (was 1)", "returns INT64_MAX"),
    K(signal_wait_destroyed, "wait EQ 0, destroyed signal, no timeout", "returns 1 at once"),
    K(signal_wait_lt_destroyed, "wait LT 1, destroyed signal, no timeout", "returns 1 at once"),
    K(signal_store_destroyed, "store to a destroyed signal", "no effect"),
    K(signal_load_made_up, "load, made-up handle", "returns INT64_MAX"),
    K(signal_store_made_up, "store, made-up handle", "no effect"),
    K(signal_wait_made_up, "wait EQ 0, made-up handle", "returns 1 at once"),
    K(signal_wait_any_destroyed, "hsa_amd_signal_wait_any, destroyed signal",
      "returns UINT32_MAX at once"),
    K(signal_handler_destroyed, "async handler on a destroyed signal", "INVALID_SIGNAL"),
    K(signal_value_pointer_made_up, "hsa_amd_signal_value_pointer, made-up", "INVALID_SIGNAL"),
    K(signal_before_shutdown_destroy, "destroy a signal from before hsa_shut_down+hsa_init",
      "INVALID_SIGNAL"),
    K(signal_load_after_shutdown, "load after hsa_shut_down", "returns INT64_MAX"),
    K(group_destroy_twice, "hsa_signal_group_destroy twice", "INVALID_SIGNAL_GROUP"),
    K(group_destroy_stale, "destroy group A, create B, destroy A", "INVALID_SIGNAL_GROUP"),
    K(group_destroy_made_up, "hsa_signal_group_destroy, made-up", "INVALID_SIGNAL_GROUP"),
    K(group_create_empty, "hsa_signal_group_create of 0 signals", "INVALID_ARGUMENT"),
    K(queue_destroy_twice, "hsa_queue_destroy twice", "INVALID_QUEUE"),
    K(queue_destroy_stale, "destroy queue A, create B, destroy A", "INVALID_QUEUE"),
    K(queue_destroy_made_up, "hsa_queue_destroy of a copy of a queue", "INVALID_QUEUE"),
    K(queue_index_destroyed, "add+load write index of a destroyed queue", "returns 1"),
    K(queue_before_shutdown_destroy, "destroy a queue from before hsa_shut_down+hsa_init",
      "INVALID_QUEUE"),
    K(queue_destroy_null, "hsa_queue_destroy(NULL)", "INVALID_ARGUMENT"),
    K(queue_inactivate_made_up, "hsa_queue_inactivate, made-up", "INVALID_QUEUE"),
    K(queue_size_2_31, "hsa_queue_create, size 2^31", "OUT_OF_RESOURCES"),
    K(queue_size_0, "hsa_queue_create, size 0", "INVALID_ARGUMENT"),
    K(queue_size_3, "hsa_queue_create, size 3", "INVALID_ARGUMENT"),
    K(agent_made_up, "hsa_agent_get_info, made-up", "INVALID_AGENT"),
    K(agent_before_shutdown, "GPU agent from before hsa_shut_down+hsa_init", "INVALID_AGENT"),
    K(region_made_up, "hsa_region_get_info, made-up", "INVALID_REGION"),
    K(pool_made_up, "hsa_amd_memory_pool_get_info, made-up", "INVALID_MEMORY_POOL"),
    K(pool_allocate_made_up, "hsa_amd_memory_pool_allocate, made-up pool",
      "INVALID_MEMORY_POOL"),
    K(cache_made_up, "hsa_cache_get_info, made-up", "INVALID_CACHE"),
    K(isa_made_up, "hsa_isa_get_info_alt, made-up", "INVALID_ISA"),
    K(wavefront_made_up, "hsa_wavefront_get_info, made-up", "INVALID_WAVEFRONT"),
    K(executable_destroy_twice, "hsa_executable_destroy twice", "INVALID_EXECUTABLE"),
    K(executable_destroy_stale, "destroy executable A, create B, destroy A",
      "INVALID_EXECUTABLE"),
    K(executable_made_up, "hsa_executable_freeze, made-up", "INVALID_EXECUTABLE"),
    K(reader_destroy_twice, "hsa_code_object_reader_destroy twice",
      "INVALID_CODE_OBJECT_READER"),
    K(reader_destroy_stale, "destroy reader A, create B, destroy A",
      "INVALID_CODE_OBJECT_READER"),
    K(reader_made_up, "hsa_code_object_reader_destroy, made-up", "INVALID_CODE_OBJECT_READER"),
    K(code_object_made_up, "hsa_code_object_destroy, made-up", "INVALID_CODE_OBJECT"),
    K(pool_free_twice, "hsa_amd_memory_pool_free twice", "INVALID_ALLOCATION"),
    K(pool_free_stale, "free A, allocate B, free A",
      "SUCCESS (B reused A's address: B freed)"),
    K(pool_free_made_up, "hsa_amd_memory_pool_free, made-up pointer", "INVALID_ALLOCATION"),
    K(memory_free_made_up, "hsa_memory_free, made-up pointer", "INVALID_ALLOCATION"),
    K(lock_unmapped, "hsa_amd_memory_lock of unmapped memory", "INVALID_ARGUMENT"),
    K(unlock_never_locked, "hsa_amd_memory_unlock, never locked", "SUCCESS"),
    K(allow_access_freed, "hsa_amd_agents_allow_access, freed pointer", "ERROR"),
    K(allow_access_made_up, "hsa_amd_agents_allow_access, made-up pointer", "ERROR"),
    K(pool_allocate_2_62, "hsa_amd_memory_pool_allocate, 2^62 bytes", "INVALID_ALLOCATION"),
    K(memory_allocate_2_62, "hsa_memory_allocate, 2^62 bytes", "INVALID_ALLOCATION"),
    K(pool_allocate_0, "hsa_amd_memory_pool_allocate, 0 bytes", "INVALID_ARGUMENT"),
    K(memory_copy_2_62, "hsa_memory_copy of 2^62 bytes (4 KiB buffers)", "ERROR"),
    K(memory_copy_0, "hsa_memory_copy of 0 bytes", "SUCCESS"),
    K(async_copy_2_62, "hsa_amd_memory_async_copy of 2^62 bytes", "ERROR"),
    K(fill_2_62, "hsa_amd_memory_fill of 2^62 dwords", "INVALID_ARGUMENT"),
    K(down_signal_create, "hsa_signal_create after hsa_shut_down", "NOT_INITIALIZED"),
    K(down_signal_destroy, "hsa_signal_destroy after hsa_shut_down", "NOT_INITIALIZED"),
    K(down_queue_create, "hsa_queue_create after hsa_shut_down", "NOT_INITIALIZED"),
    K(down_queue_destroy, "hsa_queue_destroy after hsa_shut_down", "NOT_INITIALIZED"),
    K(down_agent_get_info, "hsa_agent_get_info after hsa_shut_down", "NOT_INITIALIZED"),
    K(down_pool_allocate, "hsa_amd_memory_pool_allocate after hsa_shut_down", "NOT_INITIALIZED"),
    K(down_executable_create, "hsa_executable_create_alt after hsa_shut_down",
      "NOT_INITIALIZED"),
    K(down_system_get_info, "hsa_system_get_info after hsa_shut_down", "NOT_INITIALIZED"),
    K(down_shut_down, "hsa_shut_down twice", "NOT_INITIALIZED"),
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* ---- the parent: one child per case ------------------------------------------------------ */

static void classify(int status, bool timed_out, const char *out, char *res, size_t size) {
  size_t n = strcspn(out, "\n");
  if (n && strncmp(out, "setup failed", 12) != 0 && WIFSIGNALED(status) && !timed_out) {
    int sig = WTERMSIG(status);   /* the call returned, then the runtime died */
    snprintf(res, size, "%.*s, then %s", (int)n, out,
             sig == SIGABRT ? "abort" : sig == SIGSEGV ? "crash (SIGSEGV)" : strsignal(sig));
  } else if (n && strncmp(out, "setup failed", 12) != 0) {
    snprintf(res, size, "%.*s", (int)n, out);
  } else if (timed_out) {
    snprintf(res, size, "hang");
  } else if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    if (sig == SIGABRT) snprintf(res, size, "abort");
    else snprintf(res, size, "crash (%s)", sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS"
                                           : sig == SIGFPE ? "SIGFPE" : strsignal(sig));
  } else if (n) {
    snprintf(res, size, "%.*s", (int)n, out);
  } else {
    snprintf(res, size, "exit %d, nothing printed", WEXITSTATUS(status));
  }
}

static void run_child(const char *self, const char *name, char *res, size_t size) {
  int fd[2];
  if (pipe(fd)) {
    snprintf(res, size, "pipe: %s", strerror(errno));
    return;
  }
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    close(fd[1]);
    execl(self, self, "--case", name, (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  char out[512] = {0};
  size_t got = 0;
  int status = 0;
  bool timed_out = false;
  uint64_t deadline = now_ms() + CASE_SECONDS * 1000u;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (now_ms() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      timed_out = true;
      break;
    }
    usleep(10000);
  }
  ssize_t r;
  while (got < sizeof(out) - 1 && (r = read(fd[0], out + got, sizeof(out) - 1 - got)) > 0)
    got += (size_t)r;
  close(fd[0]);
  classify(status, timed_out, out, res, size);
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--case") == 0) {
    for (size_t i = 0; i < NCASES; i++)
      if (strcmp(cases[i].name, argv[2]) == 0) {
        cases[i].run();
        printf("%s\n", result);
        fflush(stdout);
        _exit(0);   /* what the runtime does at exit is not the case */
      }
    fprintf(stderr, "no case %s\n", argv[2]);
    return 2;
  }
  if (argc == 2 && strcmp(argv[1], "--list") == 0) {
    for (size_t i = 0; i < NCASES; i++)
      printf("%s\t%s\t%s\n", cases[i].name, cases[i].what, cases[i].expect);
    return 0;
  }
  bool check = argc == 2 && strcmp(argv[1], "--check") == 0;
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) return 2;
  self[n] = 0;
  int bad = 0;
  for (size_t i = 0; i < NCASES; i++) {
    char res[256];
    run_child(self, cases[i].name, res, sizeof(res));
    printf("%s\t%s\n", cases[i].name, res);
    if (check && strcmp(res, cases[i].expect) != 0) {
      fprintf(stderr, "MISMATCH %s: got \"%s\", expected \"%s\"\n", cases[i].name, res,
              cases[i].expect);
      bad++;
    }
  }
  fflush(stdout);
  return bad ? 1 : 0;
}
