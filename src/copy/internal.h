/* SPDX-License-Identifier: MIT */
/* internal.h — what the files of src/copy share: the job every engine queue holds and the
 * engines that run them. */
#ifndef COPY_INTERNAL_H
#define COPY_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/agent.h"
#include "hsa.h"
#include "mem/sdma.h"

#define COPY_MAX_GPUS 64u   /* as mem's table of GPUs */

struct copy_job;
/* The operation of a job, run by its engine's worker once every dependency is 0. */
typedef hsa_status_t (*copy_op)(struct copy_job *j);

/* The pieces of one copy spread over several engines: the last to finish completes it. */
struct copy_split {
  atomic_uint left;        /* pieces not finished */
  atomic_bool started;     /* a piece began (the copy's start time is taken once) */
  atomic_bool failed;      /* a piece failed: the copy is not completed */
};

struct copy_job {
  struct copy_job *next;            /* in its engine's queue */
  copy_op op;
  const struct core_agent *gpu;     /* SDMA jobs: the GPU, and which of its queues */
  unsigned ring;
  const struct core_agent *flush;   /* CPU copy into this GPU's VRAM: flush its HDP after */
  const struct core_agent *target;  /* prefetch: where the pages go */
  void *dst;
  const void *src;
  size_t size;
  struct mem_rect rect;
  hsa_signal_t completion;          /* decremented by 1 when done (handle 0: none) */
  bool timed;                       /* write the completion's start_ts/end_ts (profiling.c) */
  struct copy_split *split;         /* NULL unless spread over several engines */
  void *ctx;                        /* the op's own data (batch.c), freed by the op */
  void (*ctx_free)(void *);         /* if set: frees ctx when the job is dropped unrun */
  uint32_t ndeps;
  hsa_signal_t deps[];
};

/* A job waiting for `ndeps` dependencies (copied), to decrement `completion` (handle 0: no
 * signal); NULL when out of memory. Copies mark it timed themselves (copy_profile_begin). */
struct copy_job *copy_job_new(uint32_t ndeps, const hsa_signal_t *deps, hsa_signal_t completion);
/* Whether every dependency of j is 0 now. */
bool copy_job_ready(const struct copy_job *j);
/* Runs j on this thread (its dependencies met), completes it and frees it. */
void copy_job_finish(struct copy_job *j);
/* Queues j on the CPU engine, or on SDMA queue `ring` of gpu; the engine's worker starts on
 * first use. OUT_OF_RESOURCES (j freed) when the worker cannot start: copy_sdma_start starts
 * it ahead, after which a submission to that engine cannot fail. */
hsa_status_t copy_sdma_start(const struct core_agent *gpu, unsigned ring);
hsa_status_t copy_submit_cpu(struct copy_job *j);
/* gpu->gpu_index < COPY_MAX_GPUS, ring < mem_sdma_queues(gpu). */
hsa_status_t copy_submit_sdma(const struct core_agent *gpu, unsigned ring, struct copy_job *j);

/* profiling.c: marks a copy's completion signal as timed when copy profiling is on (true
 * then: the copy writes its start_ts/end_ts with copy_profile_now, the system clock). */
bool copy_profile_begin(hsa_signal_t completion);
uint64_t copy_profile_now(void);
void copy_profile_reset(void);
/* engine.c */
void copy_engines_shutdown(void);
/* sdma_queue.c: destroys the application's SDMA queues (hsa_shut_down). */
void copy_sdma_queues_shutdown(void);
/* move.c: copies size bytes now, on the CPU or an SDMA engine (see there). */
hsa_status_t copy_move(void *dst, const void *src, size_t size);

#endif
