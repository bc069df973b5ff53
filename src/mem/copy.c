/* SPDX-License-Identifier: MIT */
/* copy.c — hsa_memory_copy, hsa_amd_memory_fill and the asynchronous copies.
 * Copies and fills that touch device memory (VRAM) move the data the GPU sees: they run on
 * the owning GPU's SDMA engine (sdma.c), as ROCR's do. Going through the pointer's CPU view
 * would be wrong whenever that view is not the GPU's: ROCm's OpenCL runtime maps its own pages
 * over the CPU view of device buffers (MAP_FIXED at the same address), and VRAM behind a small
 * BAR has no CPU view at all. Host-to-host copies (system and locked memory, which the runtime
 * knows to be plain pages at those addresses) are CPU copies: the asynchronous ones run on a
 * thread of their own per request, as ROCR does for them — it waits for the dependencies,
 * copies, then decrements the completion signal. A device copy no engine can make (its GPU
 * does not map the other side and it cannot be locked) falls back to the CPU view. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/internal.h"
#include "mem/mem.h"
#include "signals/signal.h"

void *mem_cpu_ptr(const void *p, size_t size) {
  uintptr_t a = (uintptr_t)p;
  if (a + size < a) return NULL;
  void *out = NULL;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find(a);
  if (!r) {
    out = (void *)p;   /* locked memory by its host address, or the caller's own memory */
  } else if (r->kind == MEM_KIND_LOCKED) {
    if (a + size <= r->base + r->size) out = (void *)(r->host_base + (a - r->base));
  } else if (r->bo && r->bo->cpu_visible &&
             a + size <= (uintptr_t)r->bo->va + r->bo->size) {
    out = (void *)p;
  }
  pthread_mutex_unlock(&mem_mutex);
  return out;
}

/* The GPU whose VRAM holds p, if any: CPU writes there need an HDP flush to reach it. */
static const struct core_agent *vram_owner(const void *p) {
  struct mem_block b;
  return mem_lookup(p, &b) && b.device ? b.owner : NULL;
}

bool mem_gpu_reaches(const void *p, size_t size, const struct core_agent *gpu) {
  uintptr_t a = (uintptr_t)p;
  if (!gpu || gpu->kind != CORE_AGENT_GPU || a + size < a) return false;
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find(a);
  bool ok = r && r->bo && (r->bo->mapped & (1ull << gpu->gpu_index)) &&
            a + size <= (uintptr_t)r->bo->va + r->bo->size;
  pthread_mutex_unlock(&mem_mutex);
  return ok;
}

/* A GPU whose VM maps both ranges (the owner of device memory first), or NULL. */
static const struct core_agent *engine_for(void *dst, const void *src, size_t size,
                                           const struct core_agent *prefer) {
  if (prefer && mem_gpu_reaches(dst, size, prefer) && mem_gpu_reaches(src, size, prefer))
    return prefer;
  struct mem_block b;
  const void *sides[2] = {src, dst};
  for (int i = 0; i < 2; i++)
    if (mem_lookup(sides[i], &b) && b.device && mem_gpu_reaches(dst, size, b.owner) &&
        mem_gpu_reaches(src, size, b.owner))
      return b.owner;
  return NULL;
}

hsa_status_t hsa_memory_copy(void *dst, const void *src, size_t size) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!dst || !src) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (size == 0) return HSA_STATUS_SUCCESS;
  void *d = mem_cpu_ptr(dst, size);
  const void *s = mem_cpu_ptr(src, size);
  const struct core_agent *dst_vram = vram_owner(dst), *src_vram = vram_owner(src);
  if (!d || !s || dst_vram || src_vram) {
    const struct core_agent *gpu = engine_for(dst, src, size, NULL);
    if (gpu) return mem_sdma_copy(gpu, dst, src, size);
    /* Host memory the engine's GPU does not map is locked for the copy, as ROCR does. */
    const struct core_agent *owner = dst_vram ? dst_vram : src_vram;
    void *vram = dst_vram ? dst : (void *)src, *host = dst_vram ? (void *)src : dst;
    if (owner && mem_gpu_reaches(vram, size, owner) && !mem_lookup(host, NULL)) {
      hsa_agent_t agent = core_agent_handle(owner);
      void *alias = NULL;
      hsa_status_t st = hsa_amd_memory_lock(host, size, &agent, 1, &alias);
      if (st != HSA_STATUS_SUCCESS) return st;
      st = dst_vram ? mem_sdma_copy(owner, dst, alias, size)
                    : mem_sdma_copy(owner, alias, src, size);
      hsa_amd_memory_unlock(host);
      return st;
    }
    if (!d || !s) return HSA_STATUS_ERROR;
  }
  memmove(d, s, size);
  if (dst_vram) mem_hdp_flush(dst_vram);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_memory_fill(void *ptr, uint32_t value, size_t count) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!ptr || (uintptr_t)ptr % 4) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (count == 0) return HSA_STATUS_SUCCESS;
  if (count > SIZE_MAX / 4) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  size_t bytes = count * 4;
  /* ROCR fills only memory it knows (its allocations, locked memory), wholly inside one. */
  pthread_mutex_lock(&mem_mutex);
  struct mem_rec *r = mem_table_find((uintptr_t)ptr);
  if (!r) r = mem_table_find_host((uintptr_t)ptr);
  bool known = r && ((uintptr_t)ptr + bytes <= r->base + r->size ||
                     (r->kind == MEM_KIND_LOCKED &&
                      (uintptr_t)ptr - r->host_base + bytes <= r->host_size));
  pthread_mutex_unlock(&mem_mutex);
  if (!known) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  /* Device memory: the owner's SDMA engine fills what the GPU sees (see the top). */
  struct mem_block b;
  if (mem_lookup(ptr, &b) && b.device && mem_gpu_reaches(ptr, bytes, b.owner))
    return mem_sdma_fill(b.owner, ptr, value, count);
  uint32_t *p = mem_cpu_ptr(ptr, bytes);
  if (!p) return HSA_STATUS_ERROR;
  for (size_t i = 0; i < count; i++) p[i] = value;
  const struct core_agent *owner = vram_owner(ptr);
  if (owner) mem_hdp_flush(owner);
  return HSA_STATUS_SUCCESS;
}

/* ---- asynchronous copies ------------------------------------------------------------- */

#define INLINE_MAX (64u * 1024u)   /* bytes an async copy may do before returning */

struct copy_job {
  const struct core_agent *sdma;   /* copy on this GPU's SDMA engine (GPU addresses) */
  const struct core_agent *flush;  /* CPU copy into this GPU's VRAM: flush its HDP after */
  void *dst;                       /* a rectangle's: the CPU address of its first byte */
  const void *src;
  size_t size;                     /* linear copy */
  bool is_rect;
  struct mem_rect rect;
  hsa_signal_t completion;
  bool timed;                    /* write start_ts/end_ts of completion (profiling.c) */
  uint32_t ndeps;
  hsa_signal_t deps[];
};

static void *copy_thread(void *arg) {
  struct copy_job *j = arg;
  for (uint32_t i = 0; i < j->ndeps; i++)
    while (hsa_signal_wait_scacquire(j->deps[i], HSA_SIGNAL_CONDITION_EQ, 0, UINT64_MAX,
                                     HSA_WAIT_STATE_BLOCKED) != 0) {
    }
  amd_signal_t *timed = j->timed ? sig_from_handle(j->completion) : NULL;
  if (timed) timed->start_ts = mem_copy_profile_now();
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (j->is_rect && j->sdma) st = mem_sdma_rect(j->sdma, &j->rect);
  else if (j->is_rect) mem_rect_cpu(&j->rect, j->dst, j->src);
  else if (j->sdma) st = mem_sdma_copy(j->sdma, j->dst, j->src, j->size);
  else memmove(j->dst, j->src, j->size);
  if (st != HSA_STATUS_SUCCESS) {
    /* The bytes did not move: completing the signal would say they did. */
    fprintf(stderr, "hsa-runtime64: an asynchronous copy on the SDMA engine of GPU node-%u "
                    "failed; its completion signal stays as it is\n", j->sdma->node_id);
    free(j);
    return NULL;
  }
  if (j->flush) mem_hdp_flush(j->flush);
  if (timed) timed->end_ts = mem_copy_profile_now();
  hsa_signal_subtract_screlease(j->completion, 1);
  free(j);
  return NULL;
}

/* ROCR: a null handle is a bad argument, any other dead handle a bad signal. */
static hsa_status_t check_signal(hsa_signal_t s) {
  if (s.handle == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return sig_from_handle(s) ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_SIGNAL;
}

static hsa_status_t check_signals(uint32_t n, const hsa_signal_t *deps, hsa_signal_t done) {
  if ((n == 0) != (deps == NULL)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  for (uint32_t i = 0; i < n && st == HSA_STATUS_SUCCESS; i++) st = check_signal(deps[i]);
  return st == HSA_STATUS_SUCCESS ? check_signal(done) : st;
}

static struct copy_job *new_job(uint32_t n, const hsa_signal_t *deps, hsa_signal_t done) {
  struct copy_job *j = calloc(1, sizeof(*j) + n * sizeof(hsa_signal_t));
  if (!j) return NULL;
  j->completion = done;
  j->timed = mem_copy_profile_begin(done);
  j->ndeps = n;
  if (n) memcpy(j->deps, deps, n * sizeof(hsa_signal_t));
  return j;
}

static hsa_status_t start(struct copy_job *j) {
  pthread_attr_t attr;
  pthread_t t;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  int rc = pthread_create(&t, &attr, copy_thread, j);
  pthread_attr_destroy(&attr);
  if (rc) {
    free(j);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t async_copy(void *dst, hsa_agent_t dst_agent, const void *src,
                               hsa_agent_t src_agent, size_t size, uint32_t num_dep_signals,
                               const hsa_signal_t *dep_signals, hsa_signal_t completion_signal,
                               bool force_sdma) {
  if (!dst || !src) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if ((num_dep_signals == 0) != (dep_signals == NULL)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_agent *da = core_agent_from_handle(dst_agent);
  const struct core_agent *sa = core_agent_from_handle(src_agent);
  if (!da || !sa) return HSA_STATUS_ERROR_INVALID_AGENT;
  hsa_status_t st = check_signals(num_dep_signals, dep_signals, completion_signal);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (size == 0) return HSA_STATUS_SUCCESS;   /* ROCR neither copies nor signals */
  void *d = mem_cpu_ptr(dst, size);
  const void *s = mem_cpu_ptr(src, size);
  const struct core_agent *engine = NULL;
  if (force_sdma || !d || !s || vram_owner(dst) || vram_owner(src)) {
    /* As ROCR picks its copy agent: the source GPU, else the destination GPU. */
    const struct core_agent *prefer = sa->kind == CORE_AGENT_GPU ? sa
                                      : da->kind == CORE_AGENT_GPU ? da
                                                                   : NULL;
    engine = engine_for(dst, src, size, prefer);
    if (!engine && (!d || !s)) return HSA_STATUS_ERROR;
  }
  struct copy_job *j = new_job(num_dep_signals, dep_signals, completion_signal);
  if (!j) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  j->sdma = engine;
  j->flush = engine ? NULL : vram_owner(dst);
  j->dst = engine ? dst : d;
  j->src = engine ? src : s;
  j->size = size;
  /* A small copy whose dependencies are already met is done before returning: finishing
   * early is allowed, and a thread costs more than the copy. */
  bool ready = size <= INLINE_MAX;
  for (uint32_t i = 0; ready && i < num_dep_signals; i++)
    ready = hsa_signal_load_scacquire(dep_signals[i]) == 0;
  if (ready) {
    copy_thread(j);
    return HSA_STATUS_SUCCESS;
  }
  return start(j);
}


hsa_status_t hsa_amd_memory_async_copy(void *dst, hsa_agent_t dst_agent, const void *src,
                                       hsa_agent_t src_agent, size_t size,
                                       uint32_t num_dep_signals, const hsa_signal_t *dep_signals,
                                       hsa_signal_t completion_signal) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return async_copy(dst, dst_agent, src, src_agent, size, num_dep_signals, dep_signals,
                    completion_signal, false);
}

/* The SDMA engines of the GPU side of a copy, as a mask of HSA_AMD_SDMA_ENGINE_* bits. */
static uint32_t engines_of(const struct core_agent *a) {
  if (!a || a->kind != CORE_AGENT_GPU) return 0;
  uint64_t n = a->node->props.num_sdma_engines + a->node->props.num_sdma_xgmi_engines;
  return n >= 32 ? UINT32_MAX : (uint32_t)((1ull << n) - 1);
}

hsa_status_t hsa_amd_memory_async_copy_on_engine(void *dst, hsa_agent_t dst_agent,
                                                 const void *src, hsa_agent_t src_agent,
                                                 size_t size, uint32_t num_dep_signals,
                                                 const hsa_signal_t *dep_signals,
                                                 hsa_signal_t completion_signal,
                                                 hsa_amd_sdma_engine_id_t engine_id,
                                                 bool force_copy_on_sdma) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_agent *d = core_agent_from_handle(dst_agent);
  const struct core_agent *s = core_agent_from_handle(src_agent);
  if (d && s) {
    uint32_t engines = engines_of(d) | engines_of(s);
    uint32_t e = (uint32_t)engine_id;
    if (engines && (e == 0 || (e & (e - 1)) || !(e & engines)))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  return async_copy(dst, dst_agent, src, src_agent, size, num_dep_signals, dep_signals,
                    completion_signal, force_copy_on_sdma);
}

hsa_status_t hsa_amd_memory_copy_engine_status(hsa_agent_t dst_agent, hsa_agent_t src_agent,
                                               uint32_t *engine_ids_mask) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_agent *d = core_agent_from_handle(dst_agent);
  const struct core_agent *s = core_agent_from_handle(src_agent);
  if (!d || !s) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!engine_ids_mask) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* SDMA copies finish before their call returns to the copy thread: every engine is free
   * to take the next one. */
  uint32_t engines = engines_of(d) | engines_of(s);
  if (!engines) return HSA_STATUS_ERROR_INVALID_AGENT;
  *engine_ids_mask = engines;
  return HSA_STATUS_SUCCESS;
}

/* ROCR's checks and statuses, in its order. Both sides must be mapped on the copy agent
 * (ROCR's engine would fault otherwise). A rectangle touching device memory runs on the copy
 * agent's SDMA engine, as in ROCR (see the top); host to host, the CPU copies it. */
hsa_status_t hsa_amd_memory_async_copy_rect(const hsa_pitched_ptr_t *dst,
                                            const hsa_dim3_t *dst_offset,
                                            const hsa_pitched_ptr_t *src,
                                            const hsa_dim3_t *src_offset, const hsa_dim3_t *range,
                                            hsa_agent_t copy_agent, hsa_amd_copy_direction_t dir,
                                            uint32_t num_dep_signals,
                                            const hsa_signal_t *dep_signals,
                                            hsa_signal_t completion_signal) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!dst || !src || !dst_offset || !src_offset || !range)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if ((num_dep_signals == 0) != (dep_signals == NULL)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (dir == hsaHostToHost || (unsigned)dir > hsaDeviceToDevice)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_agent *a = core_agent_from_handle(copy_agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (a->kind != CORE_AGENT_GPU) return HSA_STATUS_ERROR_INVALID_AGENT;
  hsa_status_t st = check_signals(num_dep_signals, dep_signals, completion_signal);
  if (st != HSA_STATUS_SUCCESS) return st;
  if (range->x == 0 || range->y == 0 || range->z == 0) return HSA_STATUS_SUCCESS;
  if (a->isa && a->isa->major < 9) return HSA_STATUS_ERROR_INVALID_AGENT;   /* no sub-window */
  struct mem_rect r = {*dst, *src, *dst_offset, *src_offset, *range};
  st = mem_rect_check(&r);
  if (st != HSA_STATUS_SUCCESS) return st;
  const void *d0 = (const void *)(uintptr_t)mem_rect_first(dst, dst_offset);
  const void *s0 = (const void *)(uintptr_t)mem_rect_first(src, src_offset);
  uint64_t dn = mem_rect_span(dst, range), sn = mem_rect_span(src, range);
  if (!mem_gpu_reaches(d0, dn, a) || !mem_gpu_reaches(s0, sn, a))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  void *d = mem_cpu_ptr(d0, dn);
  const void *s = mem_cpu_ptr(s0, sn);
  struct copy_job *j = new_job(num_dep_signals, dep_signals, completion_signal);
  if (!j) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  j->is_rect = true;
  j->rect = r;
  j->sdma = d && s && !vram_owner(d0) && !vram_owner(s0) ? NULL : a;
  j->flush = j->sdma ? NULL : vram_owner(d0);
  j->dst = d;
  j->src = s;
  return start(j);
}
