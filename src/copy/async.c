/* SPDX-License-Identifier: MIT */
/* async.c — hsa_amd_memory_async_copy(_on_engine), hsa_amd_memory_copy_engine_status and
 * hsa_amd_memory_async_copy_rect: the checks and statuses of ROCR, then a job on an engine
 * (engine.c). Copies that touch device memory run on an SDMA queue of a GPU that maps both
 * sides, so they move what the GPU sees (see mem/copy.c); host to host, the CPU engine copies.
 * As ROCR keeps one blit engine per direction, host-to-device copies go to the GPU's first
 * SDMA queue and device-to-host ones to its second. A copy on SDMA whose dependencies are
 * already met (and that is not timed) goes straight onto its queue from the caller's thread,
 * the engine itself decrementing the completion signal and raising its event, as ROCR's do.
 * A linear SDMA copy of at least SPLIT_MIN bytes is cut into one piece per SDMA queue, which
 * run side by side: a ready one from the caller's thread (mem_sdma_copy_split: the other
 * queues FENCE a word each after their piece, the direction's queue POLL_REGMEMs those words
 * after its own and completes the signal; no runtime thread, as ROCR's gang copies), one
 * handed to the workers (its dependencies not met yet, or timed) as one job per queue, the
 * last to finish completing it. A small host copy whose dependencies are met is done before
 * the call returns (finishing early is allowed). Everything else is a job for an engine's
 * worker. */
#include <stdlib.h>
#include <string.h>

#include "copy/internal.h"
#include "core/agent.h"
#include "core/log.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/sdma.h"
#include "signals/signal.h"

#define INLINE_MAX (64u * 1024u)          /* bytes an async copy may do before returning */
#define SPLIT_MIN (8u * 1024u * 1024u)    /* a linear SDMA copy this large uses every queue */
#define ANY_RING UINT32_MAX

static hsa_status_t op_linear(struct copy_job *j) {
  if (j->gpu) return mem_sdma_copy_on(j->gpu, j->ring, j->dst, j->src, j->size);
  memmove(j->dst, j->src, j->size);
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t op_rect(struct copy_job *j) {
  if (j->gpu) return mem_sdma_rect(j->gpu, &j->rect);
  mem_rect_cpu(&j->rect, j->dst, j->src);
  return HSA_STATUS_SUCCESS;
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

/* j on its engine: the GPU's SDMA queue `ring`, or the CPU (j->gpu NULL). */
static hsa_status_t submit(struct copy_job *j, unsigned ring) {
  if (!j->gpu) return copy_submit_cpu(j);
  return copy_submit_sdma(j->gpu, ring, j);
}

/* A linear SDMA copy cut into one piece per queue of its GPU, each a job of its own with the
 * same dependencies; the last piece to finish completes the copy. */
static hsa_status_t submit_split(struct copy_job *j, unsigned n) {
  struct copy_split *sp = calloc(1, sizeof(*sp));
  struct copy_job *piece[MEM_SDMA_MAX] = {NULL};
  bool ok = sp != NULL;
  /* Every worker running first: then no submission below can fail half-way. */
  for (unsigned k = 0; ok && k < n; k++) ok = copy_sdma_start(j->gpu, k) == HSA_STATUS_SUCCESS;
  for (unsigned k = 1; ok && k < n; k++) {
    piece[k] = copy_job_new(j->ndeps, j->deps, j->completion);
    ok = piece[k] != NULL;
  }
  if (!ok) {
    for (unsigned k = 1; k < n; k++) free(piece[k]);
    free(sp);
    return submit(j, 0);   /* in one piece then */
  }
  piece[0] = j;
  atomic_init(&sp->left, n);
  atomic_init(&sp->started, false);
  atomic_init(&sp->failed, false);
  /* piece 0 is j itself: what it describes is read before the loop changes it */
  char *dst = j->dst;
  const char *src = j->src;
  size_t size = j->size, each = (size / n + 4095) & ~(size_t)4095, at = 0;
  for (unsigned k = 0; k < n; k++) {
    struct copy_job *p = piece[k];
    size_t len = k + 1 == n ? size - at : each;
    p->op = op_linear;
    p->gpu = j->gpu;
    p->timed = j->timed;
    p->split = sp;
    p->dst = dst + at;
    p->src = src + at;
    p->size = len;
    at += len;
  }
  for (unsigned k = 0; k < n; k++) copy_submit_sdma(piece[k]->gpu, k, piece[k]);
  return HSA_STATUS_SUCCESS;
}

/* A copy ready to go straight onto the SDMA queue, ended by the engine itself (ROCR's way):
 * no worker, no waiting thread. Only for a plain user signal; false (j kept) otherwise or when
 * the queue refuses, and the worker path reports what goes wrong. */
static bool direct(struct copy_job *j, unsigned ring, bool split) {
  amd_signal_t *a = sig_from_handle(j->completion);
  /* the engine writes the signal itself: it must be mapped in this GPU's VM (an IPC signal
   * of another process may not be) */
  if (!a || a->kind != AMD_SIGNAL_KIND_USER ||
      !mem_gpu_reaches((const void *)(uintptr_t)&a->value, 8, j->gpu))
    return false;
  struct mem_sdma_done done = {(uint64_t)(uintptr_t)&a->value,
                               (uint64_t)(uintptr_t)a->event_mailbox_ptr, a->event_id};
  hsa_status_t st = split ? mem_sdma_copy_split(j->gpu, ring, j->dst, j->src, j->size, &done)
                          : mem_sdma_copy_async(j->gpu, ring, j->dst, j->src, j->size, &done);
  if (st != HSA_STATUS_SUCCESS) return false;
  free(j);
  return true;
}

static hsa_status_t async_copy(void *dst, hsa_agent_t dst_agent, const void *src,
                               hsa_agent_t src_agent, size_t size, uint32_t num_dep_signals,
                               const hsa_signal_t *dep_signals, hsa_signal_t completion_signal,
                               bool force_sdma, uint32_t ring) {
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
  const struct core_agent *dst_vram = mem_vram_owner(dst), *src_vram = mem_vram_owner(src);
  const struct core_agent *engine = NULL;
  if (force_sdma || !d || !s || dst_vram || src_vram) {
    /* As ROCR picks its copy agent: the source GPU, else the destination GPU. */
    const struct core_agent *prefer = sa->kind == CORE_AGENT_GPU ? sa
                                      : da->kind == CORE_AGENT_GPU ? da
                                                                   : NULL;
    engine = mem_copy_gpu(dst, src, size, prefer);
    if (!engine && (!d || !s)) return HSA_STATUS_ERROR;
    if (engine && engine->gpu_index >= COPY_MAX_GPUS) return HSA_STATUS_ERROR_INVALID_AGENT;
  }
  struct copy_job *j = copy_job_new(num_dep_signals, dep_signals, completion_signal);
  if (!j) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  j->timed = copy_profile_begin(completion_signal);
  j->op = op_linear;
  j->gpu = engine;
  j->flush = engine ? NULL : dst_vram;
  j->dst = engine ? dst : d;
  j->src = engine ? src : s;
  j->size = size;
  unsigned queues = engine ? mem_sdma_queues(engine) : 1;
  if (ring == ANY_RING || ring >= queues)
    ring = src_vram && !dst_vram ? 1u % queues : 0u;   /* one queue per direction */
  if (engine)
    core_log(HSA_AMD_LOG_FLAG_SDMA, "copy %zu bytes %p -> %p on SDMA queue %u of %s", size,
             src, dst, ring, engine->name);
  bool ready = copy_job_ready(j);
  bool cut = engine && queues > 1 && size >= SPLIT_MIN;
  if (ready && engine && !j->timed && direct(j, ring, cut)) return HSA_STATUS_SUCCESS;
  if (ready && size <= INLINE_MAX) {
    if (engine) j->ring = ring;
    copy_job_finish(j);
    return HSA_STATUS_SUCCESS;
  }
  if (cut) return submit_split(j, queues);
  return submit(j, ring);
}

hsa_status_t hsa_amd_memory_async_copy(void *dst, hsa_agent_t dst_agent, const void *src,
                                       hsa_agent_t src_agent, size_t size,
                                       uint32_t num_dep_signals, const hsa_signal_t *dep_signals,
                                       hsa_signal_t completion_signal) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return async_copy(dst, dst_agent, src, src_agent, size, num_dep_signals, dep_signals,
                    completion_signal, false, ANY_RING);
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
  uint32_t e = (uint32_t)engine_id;
  if (d && s) {
    uint32_t engines = engines_of(d) | engines_of(s);
    if (engines && (e == 0 || (e & (e - 1)) || !(e & engines)))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  /* The engine asked for, when it is one of the GPU's SDMA queues (an XGMI one is not). */
  return async_copy(dst, dst_agent, src, src_agent, size, num_dep_signals, dep_signals,
                    completion_signal, force_copy_on_sdma,
                    e ? (uint32_t)__builtin_ctz(e) : ANY_RING);
}

hsa_status_t hsa_amd_memory_copy_engine_status(hsa_agent_t dst_agent, hsa_agent_t src_agent,
                                               uint32_t *engine_ids_mask) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_agent *d = core_agent_from_handle(dst_agent);
  const struct core_agent *s = core_agent_from_handle(src_agent);
  if (!d || !s) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!engine_ids_mask) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* Each engine's jobs wait in its own queue, never in the hardware ring: every engine is
   * free to take the next one. */
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
  if (a->kind != CORE_AGENT_GPU || a->gpu_index >= COPY_MAX_GPUS)
    return HSA_STATUS_ERROR_INVALID_AGENT;
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
  struct copy_job *j = copy_job_new(num_dep_signals, dep_signals, completion_signal);
  if (!j) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  j->timed = copy_profile_begin(completion_signal);
  j->op = op_rect;
  j->rect = r;
  j->gpu = d && s && !mem_vram_owner(d0) && !mem_vram_owner(s0) ? NULL : a;
  j->flush = j->gpu ? NULL : mem_vram_owner(d0);
  j->dst = d;
  j->src = s;
  return submit(j, 0);   /* rectangles use the GPU's first queue (mem_sdma_rect) */
}
