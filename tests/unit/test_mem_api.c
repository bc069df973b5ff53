/* SPDX-License-Identifier: MIT */
/* test_mem_api.c — the memory API on the driver model (two simulated GPUs), where the
 * comparison with ROCR (integration/mem_vs_rocr) cannot look: which GPU VMs map each buffer
 * object (asked of the strict driver: UNMAP of a GPU that does not map it is EINVAL),
 * sub-allocation, threads, rectangle copies, copy engines, coherency types. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "kfd/memory.h"
#include "mem/internal.h"
#include "mem/mem.h"
#include "unit/sim_reexec.h"

/* Debian 12's kernel interface: the refusals of IPC (1.12) and vmem (1.15) below are its */
SIM_REEXEC("--gpus", "2", "--kfd-version", "1.11")

static struct core_runtime *rt;
static hsa_agent_t cpu, gpu[2];
static hsa_amd_memory_pool_t sys_fine, sys_coarse, dev[2];

static hsa_status_t pool_cb(hsa_amd_memory_pool_t p, void *data) {
  const struct core_region *r = core_region_from_handle(p.handle);
  if (r->owner->kind == CORE_AGENT_CPU) {
    if (r->fine_grain && !r->kernarg) sys_fine = p;
    if (!r->fine_grain) sys_coarse = p;
  } else if (r->heap != CORE_HEAP_LDS && !r->fine_grain) {
    dev[r->owner->gpu_index] = p;
  }
  return HSA_STATUS_SUCCESS;
}

static void setup(void) {
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);
  rt = core_rt();
  ck_assert_uint_eq(rt->gpu_count, 2);
  cpu = core_agent_handle(rt->agents[0]);
  for (unsigned i = 0; i < 2; i++) {
    gpu[i] = core_agent_handle(rt->agents[rt->cpu_count + i]);
    hsa_amd_agent_iterate_memory_pools(gpu[i], pool_cb, NULL);
  }
  hsa_amd_agent_iterate_memory_pools(cpu, pool_cb, NULL);
  ck_assert(sys_fine.handle && sys_coarse.handle && dev[0].handle && dev[1].handle);
}

static void teardown(void) { ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS); }

/* The GPUs (bit per index) whose VM maps the buffer object holding p. */
static unsigned mapped_on(const void *p) {
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find((uintptr_t)p);
  ck_assert_ptr_nonnull(r);
  uint64_t handle = r->bo->handle;
  pthread_mutex_unlock(&mem_mutex);
  unsigned m = 0;
  for (unsigned i = 0; i < 2; i++) {
    uint32_t id = rt->agents[rt->cpu_count + i]->gpu_id;
    int rc = kfd_mem_unmap(&rt->kfd, handle, &id, 1);
    if (rc == 0) {
      m |= 1u << i;
      ck_assert_int_eq(kfd_mem_map(&rt->kfd, handle, &id, 1), 0);
    } else {
      ck_assert_int_eq(rc, -EINVAL);
    }
  }
  return m;
}

START_TEST(allow_access_maps_exactly_the_listed_gpus) {
  void *d = NULL, *s = NULL;
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(dev[0], 1 << 20, 0, &d), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(mapped_on(d), 1);
  ck_assert_int_eq(hsa_amd_agents_allow_access(1, &gpu[1], NULL, d), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(mapped_on(d), 3);   /* the owner stays */
  ck_assert_int_eq(hsa_amd_agents_allow_access(1, &cpu, NULL, d), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(mapped_on(d), 1);

  ck_assert_int_eq(hsa_amd_memory_pool_allocate(sys_fine, 1 << 20, 0, &s), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(mapped_on(s), 0);   /* restricted until access is granted */
  ck_assert_int_eq(hsa_amd_agents_allow_access(1, &gpu[1], NULL, s), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(mapped_on(s), 2);
  ck_assert_int_eq(hsa_amd_agents_allow_access(2, gpu, NULL, s), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(mapped_on(s), 3);
  ck_assert_int_eq(hsa_amd_agents_allow_access(1, &cpu, NULL, s), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(mapped_on(s), 0);
  ck_assert_int_eq(hsa_amd_memory_pool_free(d), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_amd_memory_pool_free(s), HSA_STATUS_SUCCESS);

  /* hsa_memory_allocate: system memory on every GPU at once. */
  const struct core_region *fine = core_region_from_handle(sys_fine.handle);
  hsa_region_t region = {(uint64_t)(uintptr_t)fine};
  ck_assert_int_eq(hsa_memory_allocate(region, 1 << 20, &s), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(mapped_on(s), 3);
  ck_assert_int_eq(hsa_memory_free(s), HSA_STATUS_SUCCESS);
}
END_TEST

START_TEST(small_pool_allocations_share_buffer_objects) {
  enum { N = 100 };
  void *p[N];
  for (int i = 0; i < N; i++) {
    ck_assert_int_eq(hsa_amd_memory_pool_allocate(i % 2 ? dev[1] : sys_fine, 4096 * (1 + i % 4),
                                                  0, &p[i]),
                     HSA_STATUS_SUCCESS);
    memset(p[i], i, 4096 * (1 + i % 4));
  }
  pthread_mutex_lock(&mem_mutex);
  struct mem_bo *b0 = mem_table_find((uintptr_t)p[0])->bo, *b1 = mem_table_find((uintptr_t)p[1])->bo;
  for (int i = 0; i < N; i++) {
    struct mem_rec *r = mem_table_find((uintptr_t)p[i]);
    ck_assert_ptr_eq(r->bo, i % 2 ? b1 : b0);
    ck_assert_uint_eq(r->size, 4096u * (1 + i % 4));
  }
  pthread_mutex_unlock(&mem_mutex);
  for (int i = 0; i < N; i++) {
    const unsigned char *c = p[i];
    for (size_t k = 0; k < 4096u * (1 + i % 4); k += 512) ck_assert_int_eq(c[k], i);
    ck_assert_int_eq(hsa_amd_memory_pool_free(p[i]), HSA_STATUS_SUCCESS);
  }
  ck_assert_int_eq(hsa_amd_memory_pool_free(p[0]), HSA_STATUS_ERROR_INVALID_ALLOCATION);
}
END_TEST

struct worker {
  hsa_amd_memory_pool_t pool;
  unsigned seed;
  int errors;
};

static void *work(void *arg) {
  struct worker *w = arg;
  void *mine[32] = {0};
  for (unsigned round = 0; round < 200; round++) {
    unsigned k = (round * 7 + w->seed) % 32;
    if (mine[k]) {
      const unsigned char *c = mine[k];
      if (c[0] != (unsigned char)(w->seed + k) || c[4095] != (unsigned char)(w->seed + k))
        w->errors++;
      if (hsa_amd_memory_pool_free(mine[k]) != HSA_STATUS_SUCCESS) w->errors++;
      mine[k] = NULL;
    } else {
      if (hsa_amd_memory_pool_allocate(w->pool, 4096, 0, &mine[k]) != HSA_STATUS_SUCCESS) {
        w->errors++;
        continue;
      }
      memset(mine[k], (int)(w->seed + k), 4096);
    }
  }
  for (unsigned k = 0; k < 32; k++)
    if (mine[k] && hsa_amd_memory_pool_free(mine[k]) != HSA_STATUS_SUCCESS) w->errors++;
  return NULL;
}

START_TEST(threads_allocate_and_free_concurrently) {
  pthread_t t[4];
  struct worker w[4];
  for (unsigned i = 0; i < 4; i++) {
    w[i] = (struct worker){.pool = i % 2 ? dev[0] : sys_coarse, .seed = i * 50, .errors = 0};
    ck_assert_int_eq(pthread_create(&t[i], NULL, work, &w[i]), 0);
  }
  for (unsigned i = 0; i < 4; i++) {
    pthread_join(t[i], NULL);
    ck_assert_int_eq(w[i].errors, 0);
  }
}
END_TEST

static int freed_inside;
static void free_another(void *ptr, void *data) {
  /* A callback may use the memory API (it runs unlocked). */
  freed_inside = hsa_amd_memory_pool_free(data) == HSA_STATUS_SUCCESS;
}

START_TEST(deallocation_callback_may_free) {
  void *a = NULL, *b = NULL;
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(sys_fine, 4096, 0, &a), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(sys_fine, 4096, 0, &b), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_amd_register_deallocation_callback(a, free_another, b),
                   HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_amd_memory_pool_free(a), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(freed_inside, 1);
  hsa_amd_pointer_info_t info = {.size = sizeof(info)};
  ck_assert_int_eq(hsa_amd_pointer_info(b, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(info.type, HSA_EXT_POINTER_TYPE_UNKNOWN);
}
END_TEST

START_TEST(locked_memory_reads_through_its_agent_address) {
  size_t n = 3 * 4096 + 123;
  unsigned char *host = malloc(n + 64);
  for (size_t i = 0; i < n; i++) host[i + 64] = (unsigned char)(i * 13);
  void *ap = NULL, *ap2 = NULL;
  ck_assert_int_eq(hsa_amd_memory_lock(host + 64, n, &gpu[1], 1, &ap), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(mapped_on(ap), 2);
  /* locking the same range again counts and may add GPUs */
  ck_assert_int_eq(hsa_amd_memory_lock(host + 64, n, NULL, 0, &ap2), HSA_STATUS_SUCCESS);
  ck_assert_ptr_eq(ap, ap2);
  ck_assert_uint_eq(mapped_on(ap), 3);
  unsigned char *copy = malloc(n);
  ck_assert_int_eq(hsa_memory_copy(copy, ap, n), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(memcmp(copy, host + 64, n), 0);
  ck_assert_int_eq(hsa_amd_memory_fill(ap, 0x01020304u, 2), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(host[64], 4);
  ck_assert_int_eq(host[64 + 7], 1);
  ck_assert_int_eq(hsa_amd_memory_unlock(host + 64), HSA_STATUS_SUCCESS);
  struct mem_block b;
  ck_assert(mem_lookup(ap, &b));   /* still locked once */
  ck_assert(b.locked);
  ck_assert_int_eq(hsa_amd_memory_unlock(host + 64), HSA_STATUS_SUCCESS);
  ck_assert(!mem_lookup(ap, &b));
  ck_assert(!mem_lookup(host + 64, &b));
  /* Overlapping locks are separate objects; unlock takes the one that starts there. */
  void *a1 = NULL, *a2 = NULL;
  ck_assert_int_eq(hsa_amd_memory_lock(host, 5000, NULL, 0, &a1), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_amd_memory_lock(host + 100, 100, NULL, 0, &a2), HSA_STATUS_SUCCESS);
  ck_assert_ptr_ne(a1, a2);
  ck_assert_int_eq(hsa_amd_memory_unlock(host + 100), HSA_STATUS_SUCCESS);
  hsa_amd_pointer_info_t pi = {.size = sizeof(pi)};
  ck_assert_int_eq(hsa_amd_pointer_info(host + 150, &pi, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(pi.type, HSA_EXT_POINTER_TYPE_LOCKED);
  ck_assert_ptr_eq(pi.hostBaseAddress, host);
  ck_assert_ptr_eq(pi.agentBaseAddress, a1);
  ck_assert_int_eq(hsa_amd_memory_unlock(host), HSA_STATUS_SUCCESS);
  ck_assert(!mem_lookup(host, &b));
  /* pages that are not mapped memory cannot be locked */
  ck_assert_int_ne(hsa_amd_memory_lock((void *)(uintptr_t)0x1000, 4096, NULL, 0, &ap),
                   HSA_STATUS_SUCCESS);
  free(copy);
  free(host);
}
END_TEST

START_TEST(rectangle_copy) {
  enum { W = 64, H = 8, D = 3 };
  unsigned char *src = NULL, *dst = NULL;
  size_t bytes = (size_t)W * H * D;
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(sys_fine, bytes, 0, (void **)&src), 0);
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(dev[0], bytes, 0, (void **)&dst), 0);
  for (size_t i = 0; i < bytes; i++) src[i] = (unsigned char)(i * 3 + 1);
  memset(dst, 0, bytes);
  hsa_pitched_ptr_t ps = {src, W, W * H}, pd = {dst, W, W * H};
  hsa_dim3_t so = {4, 1, 0}, dof = {10, 2, 1}, range = {20, 5, 2};
  hsa_signal_t done;
  ck_assert_int_eq(hsa_signal_create(1, 0, NULL, &done), 0);
  /* the copy agent must map both sides (ROCR's engine would fault): pool memory is its
   * owner's alone until access is granted */
  ck_assert_int_eq(hsa_amd_memory_async_copy_rect(&pd, &dof, &ps, &so, &range, gpu[0],
                                                  hsaHostToDevice, 0, NULL, done),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_amd_agents_allow_access(1, &gpu[0], NULL, src), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_amd_memory_async_copy_rect(&pd, &dof, &ps, &so, &range, gpu[0],
                                                  hsaHostToDevice, 0, NULL, done),
                   HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                             HSA_WAIT_STATE_BLOCKED), 0);
  for (unsigned z = 0; z < D; z++)
    for (unsigned y = 0; y < H; y++)
      for (unsigned x = 0; x < W; x++) {
        unsigned char want = 0;
        if (z >= 1 && z < 3 && y >= 2 && y < 7 && x >= 10 && x < 30) {
          size_t s = (size_t)(z - 1) * W * H + (size_t)(y - 2 + 1) * W + (x - 10 + 4);
          want = src[s];
        }
        ck_assert_int_eq(dst[(size_t)z * W * H + (size_t)y * W + x], want);
      }
  ck_assert_int_eq(hsa_amd_memory_async_copy_rect(&pd, &dof, &ps, &so, &range, cpu,
                                                  hsaHostToDevice, 0, NULL, done),
                   HSA_STATUS_ERROR_INVALID_AGENT);
  ck_assert_int_eq(hsa_amd_memory_async_copy_rect(&pd, &dof, &ps, &so, &range, gpu[0],
                                                  hsaHostToHost, 0, NULL, done),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_dim3_t wide = {W, 1, 1};
  ck_assert_int_eq(hsa_amd_memory_async_copy_rect(&pd, &dof, &ps, &so, &wide, gpu[0],
                                                  hsaHostToDevice, 0, NULL, done),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_signal_destroy(done);
  hsa_amd_memory_pool_free(src);
  hsa_amd_memory_pool_free(dst);
}
END_TEST

START_TEST(copy_engines_and_coherency) {
  uint32_t mask = 0;
  ck_assert_int_eq(hsa_amd_memory_copy_engine_status(gpu[0], cpu, &mask), HSA_STATUS_SUCCESS);
  const struct kfd_node *n = rt->agents[rt->cpu_count]->node;
  ck_assert_uint_eq(mask, (1u << (n->props.num_sdma_engines + n->props.num_sdma_xgmi_engines)) - 1);
  ck_assert_int_eq(hsa_amd_memory_copy_engine_status(cpu, cpu, &mask),
                   HSA_STATUS_ERROR_INVALID_AGENT);
  ck_assert_int_eq(hsa_amd_memory_copy_engine_status(gpu[0], cpu, NULL),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);

  hsa_amd_coherency_type_t t;
  ck_assert_int_eq(hsa_amd_coherency_get_type(gpu[1], &t), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(t, HSA_AMD_COHERENCY_TYPE_COHERENT);
  ck_assert_int_eq(hsa_amd_coherency_set_type(gpu[1], HSA_AMD_COHERENCY_TYPE_NONCOHERENT), 0);
  ck_assert_int_eq(hsa_amd_coherency_get_type(gpu[1], &t), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(t, HSA_AMD_COHERENCY_TYPE_NONCOHERENT);
  ck_assert_int_eq(hsa_amd_coherency_get_type(gpu[0], &t), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(t, HSA_AMD_COHERENCY_TYPE_COHERENT);
  ck_assert_int_eq(hsa_amd_coherency_set_type(gpu[1], (hsa_amd_coherency_type_t)5),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_amd_coherency_set_type(cpu, HSA_AMD_COHERENCY_TYPE_COHERENT),
                   HSA_STATUS_ERROR_INVALID_AGENT);
  ck_assert_int_eq(hsa_amd_coherency_get_type(cpu, &t), HSA_STATUS_ERROR_INVALID_AGENT);
}
END_TEST

START_TEST(pcie_flag_makes_device_memory_fine_grained) {
  void *p = NULL;
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(dev[1], 1 << 20, HSA_AMD_MEMORY_POOL_PCIE_FLAG, &p),
                   HSA_STATUS_SUCCESS);
  hsa_amd_pointer_info_t info = {.size = sizeof(info)};
  ck_assert_int_eq(hsa_amd_pointer_info(p, &info, NULL, NULL, NULL), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(info.global_flags, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED);
  pthread_mutex_lock(&mem_mutex);
  ck_assert(mem_table_find((uintptr_t)p)->bo->kfd_flags & KFD_MEM_COHERENT);
  pthread_mutex_unlock(&mem_mutex);
  ck_assert_int_eq(hsa_amd_memory_pool_free(p), HSA_STATUS_SUCCESS);
}
END_TEST

static hsa_region_t fine_region(void) {
  return (hsa_region_t){(uint64_t)(uintptr_t)core_region_from_handle(sys_fine.handle)};
}

static void pattern(unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)((i >> 12) * 7 + i * 13 + seed);
}

START_TEST(forced_engine_copy) {
  size_t n = (5u << 20) + 123;   /* more than one COPY_LINEAR packet */
  unsigned char *src = NULL, *back = NULL, *dv = NULL;
  ck_assert_int_eq(hsa_memory_allocate(fine_region(), n, (void **)&src), 0);
  ck_assert_int_eq(hsa_memory_allocate(fine_region(), n, (void **)&back), 0);
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(dev[0], n, 0, (void **)&dv), 0);
  pattern(src, n, 5);
  memset(back, 0, n);
  hsa_signal_t done;
  ck_assert_int_eq(hsa_signal_create(2, 0, NULL, &done), 0);
  ck_assert_int_eq(hsa_amd_memory_async_copy_on_engine(dv, gpu[0], src, cpu, n, 0, NULL, done,
                                                       HSA_AMD_SDMA_ENGINE_0, true),
                   HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 2, UINT64_MAX,
                                             HSA_WAIT_STATE_BLOCKED), 1);
  ck_assert_int_eq(hsa_amd_memory_async_copy_on_engine(back, cpu, dv, gpu[0], n, 0, NULL, done,
                                                       HSA_AMD_SDMA_ENGINE_0, true),
                   HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                             HSA_WAIT_STATE_BLOCKED), 0);
  ck_assert_int_eq(memcmp(src, back, n), 0);
  ck_assert_int_eq(memcmp(src, dv, n), 0);
  ck_assert_int_eq(hsa_amd_memory_async_copy_on_engine(dv, gpu[0], src, cpu, n, 0, NULL, done,
                                                       (hsa_amd_sdma_engine_id_t)0x3, true),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_signal_destroy(done);
  hsa_memory_free(src);
  hsa_memory_free(back);
  hsa_amd_memory_pool_free(dv);
}
END_TEST

/* VRAM the CPU cannot map (a small BAR): made so by taking the CPU mapping away from a
 * device allocation; only the SDMA engine can then move its bytes. */
START_TEST(device_memory_behind_a_small_bar_copies_through_sdma) {
  size_t n = (1u << 20) + 4096;
  unsigned char *host = NULL, *back = NULL, *dv = NULL;
  ck_assert_int_eq(hsa_memory_allocate(fine_region(), n, (void **)&host), 0);
  ck_assert_int_eq(hsa_memory_allocate(fine_region(), n, (void **)&back), 0);
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(dev[1], n, 0, (void **)&dv), 0);
  pattern(dv, n, 9);   /* written while the CPU still can */
  pattern(host, n, 9);
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find((uintptr_t)dv);
  ck_assert_ptr_null(r->chunk);
  r->bo->cpu_visible = false;
  ck_assert_int_eq(kfd_mem_cpu_unmap(r->bo->va, r->bo->size), 0);
  pthread_mutex_unlock(&mem_mutex);

  memset(back, 0, n);
  ck_assert_int_eq(hsa_memory_copy(back, dv, n), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(memcmp(back, host, n), 0);

  pattern(host, n, 77);
  ck_assert_int_eq(hsa_memory_copy(dv + 100, host, n - 100), HSA_STATUS_SUCCESS);
  hsa_signal_t done;
  ck_assert_int_eq(hsa_signal_create(1, 0, NULL, &done), 0);
  memset(back, 0, n);
  ck_assert_int_eq(hsa_amd_memory_async_copy(back, cpu, dv + 100, gpu[1], n - 100, 0, NULL, done),
                   HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                             HSA_WAIT_STATE_BLOCKED), 0);
  ck_assert_int_eq(memcmp(back, host, n - 100), 0);
  /* Plain host memory is locked for the copy. */
  unsigned char *plain = malloc(n);
  ck_assert_int_eq(hsa_memory_copy(plain, dv + 100, n - 100), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(memcmp(plain, host, n - 100), 0);
  struct mem_block blk;
  ck_assert(!mem_lookup(plain, &blk));   /* and unlocked after */
  free(plain);
  /* Fills go to the engine too. */
  ck_assert_int_eq(hsa_amd_memory_fill(dv + 4096, 0xa1b2c3d4u, 1000), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(hsa_memory_copy(back, dv + 4092, 4008), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(memcmp(back, host + 3992, 4), 0);   /* the byte before: untouched */
  for (unsigned k = 0; k < 1000; k++)
    ck_assert_uint_eq(((uint32_t *)(back + 4))[k], 0xa1b2c3d4u);
  ck_assert_int_eq(memcmp(back + 4004, host + 3992 + 4004, 4), 0);   /* the dword after */
  hsa_signal_destroy(done);
  hsa_memory_free(host);
  hsa_memory_free(back);
  ck_assert_int_eq(hsa_amd_memory_pool_free(dv), HSA_STATUS_SUCCESS);
}
END_TEST

/* Rectangles to and from VRAM the CPU cannot map go to the copy agent's SDMA engine as
 * COPY_LINEAR_SUB_WINDOW packets: odd widths and offsets (1-byte elements at the edges),
 * 16-byte-aligned middles, 3-D, and 2-D rows wider than the packet's pitch field. */
START_TEST(rectangle_copy_of_vram_the_cpu_cannot_map_runs_on_sdma) {
  enum { N = 3u << 20 };
  unsigned char *host = NULL, *back = NULL, *dv = NULL, *want = malloc(N);
  ck_assert_int_eq(hsa_memory_allocate(fine_region(), N, (void **)&host), 0);
  ck_assert_int_eq(hsa_memory_allocate(fine_region(), N, (void **)&back), 0);
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(dev[1], N, 0, (void **)&dv), 0);
  memset(dv, 0x77, N);   /* while the CPU still can */
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find((uintptr_t)dv);
  r->bo->cpu_visible = false;
  ck_assert_int_eq(kfd_mem_cpu_unmap(r->bo->va, r->bo->size), 0);
  pthread_mutex_unlock(&mem_mutex);
  static const struct {
    size_t hp, hs, dp, ds;
    hsa_dim3_t ho, dof, range;
  } c[] = {
    {256, 256 * 40, 300, 300 * 33, {3, 2, 1}, {17, 5, 2}, {203, 27, 3}},
    {64, 64 * 9, 100, 100 * 7 + 4, {1, 1, 1}, {2, 0, 3}, {59, 5, 5}},
    {(1u << 20) + 64, 0, 512, 0, {4, 0, 0}, {32, 1, 0}, {400, 2, 1}},
  };
  hsa_signal_t done;
  ck_assert_int_eq(hsa_signal_create(1, 0, NULL, &done), 0);
  for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
    pattern(host, N, i + 3);
    hsa_pitched_ptr_t ph = {host, c[i].hp, c[i].hs}, pd = {dv, c[i].dp, c[i].ds};
    /* host to VRAM, then back into a copy of the host buffer at the same place */
    hsa_signal_store_screlease(done, 1);
    ck_assert_int_eq(hsa_amd_memory_async_copy_rect(&pd, &c[i].dof, &ph, &c[i].ho, &c[i].range,
                                                    gpu[1], hsaHostToDevice, 0, NULL, done),
                     HSA_STATUS_SUCCESS);
    ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                               HSA_WAIT_STATE_BLOCKED), 0);
    memset(back, 0x11, N);
    memset(want, 0x11, N);
    hsa_pitched_ptr_t pb = {back, c[i].hp, c[i].hs};
    hsa_signal_store_screlease(done, 1);
    ck_assert_int_eq(hsa_amd_memory_async_copy_rect(&pb, &c[i].ho, &pd, &c[i].dof, &c[i].range,
                                                    gpu[1], hsaDeviceToHost, 0, NULL, done),
                     HSA_STATUS_SUCCESS);
    ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                               HSA_WAIT_STATE_BLOCKED), 0);
    for (size_t z = 0; z < c[i].range.z; z++)
      for (size_t y = 0; y < c[i].range.y; y++) {
        size_t at = (c[i].ho.z + z) * c[i].hs + (c[i].ho.y + y) * c[i].hp + c[i].ho.x;
        memcpy(want + at, host + at, c[i].range.x);
      }
    ck_assert_msg(memcmp(back, want, N) == 0, "case %u: the round trip differs", i);
  }
  /* what is around the rectangle in VRAM is untouched: read it all back linearly */
  ck_assert_int_eq(hsa_memory_copy(back, dv, 4096), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(back[0], 0x77);
  hsa_signal_destroy(done);
  hsa_memory_free(host);
  hsa_memory_free(back);
  free(want);
  ck_assert_int_eq(hsa_amd_memory_pool_free(dv), HSA_STATUS_SUCCESS);
}
END_TEST

/* An SDMA engine that stops never writes its fence: the wait sees the reset (a packet the
 * engine refused) or the memory fault the driver reports for that GPU and fails, and the
 * engine is not used again; the other GPU's goes on. */
START_TEST(a_stopped_sdma_engine_fails_its_copies_instead_of_hanging) {
  const struct core_agent *g0 = rt->agents[rt->cpu_count], *g1 = rt->agents[rt->cpu_count + 1];
  unsigned char *a = NULL, *b = NULL;
  ck_assert_int_eq(hsa_memory_allocate(fine_region(), 4096, (void **)&a), 0);
  ck_assert_int_eq(hsa_memory_allocate(fine_region(), 4096, (void **)&b), 0);
  pattern(b, 4096, 1);
  ck_assert_int_eq(mem_sdma_copy(g0, a, b, 4096), HSA_STATUS_SUCCESS);
  const uint32_t no_such_packet = 0x3f;
  ck_assert_int_eq(mem_sdma_packets(g0, &no_such_packet, 1, 1), HSA_STATUS_ERROR);
  ck_assert_int_eq(mem_sdma_copy(g0, a, b, 4096), HSA_STATUS_ERROR);
  /* a VM fault on the other GPU ends its engine the same way */
  memset(a, 0, 4096);
  ck_assert_int_eq(mem_sdma_copy(g1, a, b, 4096), HSA_STATUS_SUCCESS);
  ck_assert_int_eq(memcmp(a, b, 4096), 0);
  void *unmapped = (void *)(uintptr_t)0x7f0000000000ull;
  ck_assert_int_eq(mem_sdma_copy(g1, unmapped, b, 64), HSA_STATUS_ERROR);
  ck_assert_int_eq(mem_sdma_copy(g1, a, b, 64), HSA_STATUS_ERROR);
  hsa_memory_free(a);
  hsa_memory_free(b);
}
END_TEST

START_TEST(ipc_handles_cannot_be_made_on_this_kernel_interface) {
  void *d = NULL;
  hsa_amd_ipc_memory_t h;
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(dev[0], 1 << 20, 0, &d), 0);
  ck_assert_int_eq(hsa_amd_ipc_memory_create(d, 1 << 20, &h), HSA_STATUS_ERROR_OUT_OF_RESOURCES);
  ck_assert_int_eq(hsa_amd_ipc_memory_create((char *)d + 4096, 4096, &h),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_amd_ipc_memory_create(d, 1 << 20, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  memset(&h, 0, sizeof(h));
  void *m = NULL;
  ck_assert_int_eq(hsa_amd_ipc_memory_attach(&h, 4096, 1, &gpu[0], &m),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_amd_ipc_memory_detach(d), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  hsa_amd_memory_pool_free(d);
}
END_TEST

START_TEST(small_async_copies) {
  unsigned char *a = NULL, *b = NULL;
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(sys_fine, 4096, 0, (void **)&a), 0);
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(dev[1], 4096, 0, (void **)&b), 0);
  hsa_signal_t dep, done;
  ck_assert_int_eq(hsa_signal_create(0, 0, NULL, &dep), 0);
  ck_assert_int_eq(hsa_signal_create(3, 0, NULL, &done), 0);
  for (unsigned round = 0; round < 3; round++) {
    pattern(a, 4096, round);
    /* met dependency; unmet one released later; none */
    if (round == 1) hsa_signal_store_screlease(dep, 1);
    ck_assert_int_eq(hsa_amd_memory_async_copy(b, gpu[1], a, cpu, 4096 - round, round == 2 ? 0 : 1,
                                               round == 2 ? NULL : &dep, done),
                     HSA_STATUS_SUCCESS);
    if (round == 1) hsa_signal_store_screlease(dep, 0);
    ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 2 - round,
                                               UINT64_MAX, HSA_WAIT_STATE_BLOCKED),
                     2 - round);
    ck_assert_int_eq(memcmp(a, b, 4096 - round), 0);
  }
  hsa_signal_destroy(dep);
  hsa_signal_destroy(done);
  hsa_amd_memory_pool_free(a);
  hsa_amd_memory_pool_free(b);
}
END_TEST

static int thread_count(void) {
  DIR *d = opendir("/proc/self/task");
  ck_assert_ptr_nonnull(d);
  int n = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

static void wait_zero(hsa_signal_t s) {
  ck_assert_int_eq(hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                             HSA_WAIT_STATE_BLOCKED), 0);
}

/* src/copy: copies waiting for their dependencies sit in their engine's queue (no thread of
 * their own), a copy waiting for one queued behind it on the same engine still runs, a large
 * copy spread over both SDMA queues arrives whole, and hsa_shut_down joins the workers. */
START_TEST(async_copies_queue_on_one_worker_per_engine) {
  const size_t big = 16u << 20, small = 4096;
  unsigned char *h = NULL, *d = NULL, *back = NULL;
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(sys_fine, big, 0, (void **)&h), 0);
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(dev[0], big, 0, (void **)&d), 0);
  ck_assert_int_eq(hsa_amd_memory_pool_allocate(sys_fine, big, 0, (void **)&back), 0);
  /* reachable by the GPU, so the copies run on its SDMA queues (not the CPU fallback) */
  ck_assert_int_eq(hsa_amd_agents_allow_access(1, &gpu[0], NULL, h), 0);
  ck_assert_int_eq(hsa_amd_agents_allow_access(1, &gpu[0], NULL, back), 0);
  pattern(h, big, 7);
  uint32_t engines = 0;
  ck_assert_int_eq(hsa_agent_get_info(gpu[0], (hsa_agent_info_t)HSA_AMD_AGENT_INFO_NUM_SDMA_ENG,
                                      &engines), 0);
  ck_assert_uint_ge(engines, 2);   /* so the large copies below are cut in two */
  int at_start = thread_count();
  hsa_signal_t gate, done, mid;
  ck_assert_int_eq(hsa_signal_create(1, 0, NULL, &gate), 0);
  ck_assert_int_eq(hsa_signal_create(1, 0, NULL, &done), 0);
  /* warm-up: a large copy held back by the gate goes to the workers, cut over both SDMA
   * queues; its way back, ready at once, goes straight onto a queue */
  ck_assert_int_eq(hsa_amd_memory_async_copy(d, gpu[0], h, cpu, big, 1, &gate, done), 0);
  hsa_signal_store_screlease(gate, 0);
  wait_zero(done);
  hsa_signal_store_screlease(done, 1);
  ck_assert_int_eq(hsa_amd_memory_async_copy(back, cpu, d, gpu[0], big, 0, NULL, done), 0);
  wait_zero(done);
  ck_assert_int_eq(memcmp(back, h, big), 0);
  int warm = thread_count();
  hsa_signal_store_screlease(gate, 1);
  /* 32 copies held back by one gate, and one that waits for a copy queued after it */
  enum { N = 32 };
  hsa_signal_store_screlease(done, N + 1);
  ck_assert_int_eq(hsa_signal_create(1, 0, NULL, &mid), 0);
  ck_assert_int_eq(hsa_amd_memory_async_copy(d + N * small, gpu[0], h + N * small, cpu, small, 1,
                                             &mid, done), 0);
  for (unsigned i = 0; i < N; i++)
    ck_assert_int_eq(hsa_amd_memory_async_copy(d + i * small, gpu[0], h + i * small, cpu, small,
                                               1, &gate, i == N - 1 ? mid : done), 0);
  ck_assert_int_eq(thread_count(), warm);
  memset(back, 0, big);
  hsa_signal_store_screlease(gate, 0);
  ck_assert_int_eq(hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_EQ, 1, UINT64_MAX,
                                             HSA_WAIT_STATE_BLOCKED), 1);
  wait_zero(mid);
  hsa_signal_store_screlease(done, 1);
  ck_assert_int_eq(hsa_amd_memory_async_copy(back, cpu, d, gpu[0], (N + 1) * small, 0, NULL,
                                             done), 0);
  wait_zero(done);
  ck_assert_int_eq(memcmp(back, h, (N + 1) * small), 0);
  /* a copy still waiting at hsa_shut_down is dropped, and every worker is joined */
  hsa_signal_store_screlease(gate, 1);
  ck_assert_int_eq(hsa_amd_memory_async_copy(d, gpu[0], h, cpu, small, 1, &gate, done), 0);
  ck_assert_int_eq(hsa_shut_down(), HSA_STATUS_SUCCESS);
  /* what stays: the simulator's doorbell watcher, made for the process's first doorbell */
  ck_assert_int_le(thread_count(), at_start + 1);
  ck_assert_int_eq(hsa_init(), HSA_STATUS_SUCCESS);   /* for the fixture's hsa_shut_down */
}
END_TEST

START_TEST(vmem_is_refused_on_this_kernel_interface) {
  void *va = NULL;
  hsa_amd_vmem_alloc_handle_t h = {0};
  ck_assert_int_eq(hsa_amd_vmem_address_reserve(&va, 0, 0, 0), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_amd_vmem_address_reserve(&va, 1 << 20, 0, 0),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(hsa_amd_vmem_handle_create(dev[0], 1 << 20, MEMORY_TYPE_NONE, 0, &h),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  int local;
  ck_assert_int_eq(hsa_amd_vmem_address_free(&local, 4096), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  ck_assert_int_eq(hsa_amd_vmem_unmap(&local, 4096), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  ck_assert_int_eq(hsa_amd_vmem_handle_release(h), HSA_STATUS_ERROR_INVALID_ALLOCATION);
  hsa_amd_memory_access_desc_t d = {HSA_ACCESS_PERMISSION_RW, {0}};
  ck_assert_int_eq(hsa_amd_vmem_set_access(&local, 4096, &d, 1), HSA_STATUS_ERROR_INVALID_AGENT);
  d.agent_handle = gpu[0];
  /* an address in no reserved range: ROCR's bad argument */
  ck_assert_int_eq(hsa_amd_vmem_set_access(&local, 4096, &d, 1),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
}
END_TEST

Suite *test_suite(void) {
  Suite *s = suite_create("mem_api");
  TCase *tc = tcase_create("api");
  tcase_set_timeout(tc, 60);
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, allow_access_maps_exactly_the_listed_gpus);
  tcase_add_test(tc, small_pool_allocations_share_buffer_objects);
  tcase_add_test(tc, threads_allocate_and_free_concurrently);
  tcase_add_test(tc, deallocation_callback_may_free);
  tcase_add_test(tc, locked_memory_reads_through_its_agent_address);
  tcase_add_test(tc, rectangle_copy);
  tcase_add_test(tc, copy_engines_and_coherency);
  tcase_add_test(tc, pcie_flag_makes_device_memory_fine_grained);
  tcase_add_test(tc, forced_engine_copy);
  tcase_add_test(tc, device_memory_behind_a_small_bar_copies_through_sdma);
  tcase_add_test(tc, rectangle_copy_of_vram_the_cpu_cannot_map_runs_on_sdma);
  tcase_add_test(tc, a_stopped_sdma_engine_fails_its_copies_instead_of_hanging);
  tcase_add_test(tc, ipc_handles_cannot_be_made_on_this_kernel_interface);
  tcase_add_test(tc, vmem_is_refused_on_this_kernel_interface);
  tcase_add_test(tc, small_async_copies);
  tcase_add_test(tc, async_copies_queue_on_one_worker_per_engine);
  suite_add_tcase(s, tc);
  return s;
}
