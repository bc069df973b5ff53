/* SPDX-License-Identifier: MIT */
/* sdma_queue.c — hsa_amd_sdma_queue_*: SDMA queues the application drives itself. The
 * runtime makes a KFD SDMA queue on the GPU (ring and read/write pointers in host memory
 * mapped on every GPU, the doorbell in the queue's doorbell page) and hands out where they
 * are (HSA_AMD_SDMA_QUEUE_INFO_RESOURCE); the caller writes SDMA packets of the GPU's SDMA
 * generation into the ring at (write pointer % ring size), then publishes the new write
 * pointer, in bytes from the ring's start without wrapping, with
 * hsa_amd_sdma_queue_ring_doorbell (or by storing it to write_ptr and doorbell itself); the
 * engine advances read_ptr as it consumes them. These queues are the caller's alone: the
 * runtime's own copies never use them.
 *
 * A handle is slot + 1 with a generation in the upper half, so a destroyed queue's handle is
 * refused (INVALID_QUEUE) rather than reaching a newer queue. As in the newest ROCR, every
 * such queue is made on a named engine (KFD queue type SDMA_BY_ENG_ID, KFD 1.17), so an older
 * kernel gets INVALID_QUEUE_CREATION; HSA_AMD_SDMA_QUEUE_FLAG_USE_ENGINE_ID names the engine
 * (its bit checked against the GPU's PCIe and xGMI engines), without it the engines are taken
 * round-robin from engine 0. An engine with no free queue slot left is OUT_OF_RESOURCES. */
#include <pthread.h>
#include <string.h>

#include "copy/internal.h"
#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "kfd/queue.h"
#include "mem/mem.h"
#include "mem/sdma.h"

#define MAX_QUEUES 64u
#define DEFAULT_RING (64u * 1024u)
#define MIN_RING 4096u
#define MAX_RING (1u << 22)
#define MIN_SUBMISSION 32u   /* packets padded with NOPs to 32 bytes, as ROCR's blits do */

struct user_sdma {
  bool live;
  uint32_t gen;
  const struct core_agent *gpu;
  void *ring;
  size_t ring_size;
  uint64_t *ptrs;   /* [0] read pointer (the engine's), [1] write pointer */
  struct kfd_queue kq;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct user_sdma queues[MAX_QUEUES];
static unsigned next_engine[CORE_MAX_GPUS];   /* round-robin choice per GPU, lock held */

/* lock held */
static struct user_sdma *lookup(hsa_amd_sdma_queue_t h) {
  uint64_t slot = (h.handle & 0xffffffffu) - 1;
  if (slot >= MAX_QUEUES) return NULL;
  struct user_sdma *q = &queues[slot];
  return q->live && q->gen == (uint32_t)(h.handle >> 32) ? q : NULL;
}

static uint32_t engines_of(const struct core_agent *a) {
  uint64_t n = a->node->props.num_sdma_engines + a->node->props.num_sdma_xgmi_engines;
  return n >= 32 ? UINT32_MAX : (uint32_t)((1ull << n) - 1);
}

static uint32_t gfx_version(const struct core_agent *a) {
  return a->isa ? (a->isa->major << 16 | a->isa->minor << 8 | a->isa->stepping) : 0;
}

/* lock held */
static void release(struct user_sdma *q) {
  kfd_queue_destroy(&core_rt()->kfd, &q->kq);
  kfd_queue_doorbell_release(&q->kq);
  mem_release(q->ring);
  mem_release(q->ptrs);
  q->live = false;
  q->gen++;
}

hsa_status_t hsa_amd_sdma_queue_create(hsa_agent_t agent, uint32_t flags,
                                       hsa_amd_sdma_engine_id_t engine_id, size_t ring_size,
                                       hsa_amd_sdma_queue_t *queue) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a || a->kind != CORE_AGENT_GPU) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (!queue || (flags & ~(uint32_t)HSA_AMD_SDMA_QUEUE_FLAG_USE_ENGINE_ID))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (flags & HSA_AMD_SDMA_QUEUE_FLAG_USE_ENGINE_ID) {
    uint32_t e = (uint32_t)engine_id;
    if (!e || (e & (e - 1)) || !(e & engines_of(a))) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  if (!ring_size) ring_size = DEFAULT_RING;
  if (ring_size < MIN_RING || ring_size > MAX_RING || (ring_size & (ring_size - 1)))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  uint32_t engines = engines_of(a);
  if (!kfd_has_sdma_by_engine(&core_rt()->kfd) || !engines)
    return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;   /* no queues by engine id before 1.17 */
  pthread_mutex_lock(&lock);
  struct user_sdma *q = NULL;
  for (unsigned i = 0; i < MAX_QUEUES && !q; i++)
    if (!queues[i].live) q = &queues[i];
  hsa_status_t st = q ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (q) {
    q->ring = mem_system(ring_size, ring_size, MEM_F_NO_SUBALLOC | MEM_F_UNCACHED);
    /* each pointer the first word of a page of its own is what newer kernels want; both
     * on one page is what they accept for SDMA (as the runtime's own SDMA queues) */
    q->ptrs = mem_system(4096, 4096, MEM_F_NO_SUBALLOC | MEM_F_UNCACHED);
    if (!q->ring || !q->ptrs) st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  if (st == HSA_STATUS_SUCCESS) {
    memset(q->ring, 0, ring_size);
    q->ptrs[0] = q->ptrs[1] = 0;
    struct kfd_queue_sizes sz;
    kfd_queue_sizes(&a->node->props, gfx_version(a), &sz);
    struct kfd_queue_args args = {
        .gpu_id = a->gpu_id, .percentage = 100,
        .priority = kfd_queue_priority(0), .ring = (uint64_t)(uintptr_t)q->ring,
        .ring_size = ring_size, .read_ptr = &q->ptrs[0], .write_ptr = &q->ptrs[1],
        .doorbell_slice = sz.doorbell_slice, .type = KFD_QUEUE_SDMA_BY_ENG_ID};
    if (flags & HSA_AMD_SDMA_QUEUE_FLAG_USE_ENGINE_ID) {
      args.sdma_engine_id = (uint32_t)__builtin_ctz((uint32_t)engine_id);
    } else {
      unsigned n = (unsigned)__builtin_popcount(engines), *next = &next_engine[a->gpu_index % CORE_MAX_GPUS];
      args.sdma_engine_id = *next % n;
      *next = (*next + 1) % n;
    }
    if (kfd_queue_create(&core_rt()->kfd, &args, &q->kq) != 0)
      st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  if (st == HSA_STATUS_SUCCESS) {
    q->gpu = a;
    q->ring_size = ring_size;
    q->live = true;
    queue->handle = (uint64_t)q->gen << 32 | (uint64_t)(q - queues + 1);
  } else if (q) {
    mem_release(q->ring);
    mem_release(q->ptrs);
    q->ring = NULL;
    q->ptrs = NULL;
  }
  pthread_mutex_unlock(&lock);
  return st;
}

hsa_status_t hsa_amd_sdma_queue_destroy(hsa_amd_sdma_queue_t queue) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  pthread_mutex_lock(&lock);
  struct user_sdma *q = lookup(queue);
  if (q) release(q);
  pthread_mutex_unlock(&lock);
  return q ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_QUEUE;
}

hsa_status_t hsa_amd_sdma_queue_get_info(hsa_amd_sdma_queue_t queue,
                                         hsa_amd_sdma_queue_info_t attribute, void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  pthread_mutex_lock(&lock);
  struct user_sdma *q = lookup(queue);
  hsa_status_t st = q ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_QUEUE;
  if (q) switch ((int)attribute) {
    case HSA_AMD_SDMA_QUEUE_INFO_AGENT:
      *(hsa_agent_t *)value = core_agent_handle(q->gpu);
      break;
    case HSA_AMD_SDMA_QUEUE_INFO_RESOURCE: {
      hsa_amd_sdma_queue_resource_t r = {q->ring, q->ring_size, &q->ptrs[0], &q->ptrs[1],
                                         q->kq.doorbell};
      *(hsa_amd_sdma_queue_resource_t *)value = r;
      break;
    }
    case HSA_AMD_SDMA_QUEUE_INFO_MIN_SUBMISSION_SIZE:
      *(size_t *)value = MIN_SUBMISSION;
      break;
    case HSA_AMD_SDMA_QUEUE_INFO_QUEUE_ID:
      *(uint64_t *)value = q->kq.queue_id;
      break;
    default:
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
    }
  pthread_mutex_unlock(&lock);
  return st;
}

hsa_status_t hsa_amd_sdma_queue_ring_doorbell(hsa_amd_sdma_queue_t queue, uint64_t write_ptr) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  pthread_mutex_lock(&lock);
  struct user_sdma *q = lookup(queue);
  hsa_status_t st = q ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_INVALID_QUEUE;
  if (q) {
    uint64_t wp = __atomic_load_n(&q->ptrs[1], __ATOMIC_RELAXED);
    uint64_t rp = __atomic_load_n(&q->ptrs[0], __ATOMIC_ACQUIRE);
    /* forward only, whole dwords, and never more than a ring ahead of the engine */
    if (write_ptr < wp || (write_ptr & 3) || write_ptr - rp > q->ring_size) {
      st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
    } else {
      /* the packets must be visible before the engine learns of them */
      __atomic_store_n(&q->ptrs[1], write_ptr, __ATOMIC_RELEASE);
      __atomic_store_n(q->kq.doorbell, write_ptr, __ATOMIC_RELEASE);
    }
  }
  pthread_mutex_unlock(&lock);
  return st;
}

/* hsa_shut_down: queues the application left are destroyed with the runtime. */
void copy_sdma_queues_shutdown(void) {
  pthread_mutex_lock(&lock);
  for (unsigned i = 0; i < MAX_QUEUES; i++)
    if (queues[i].live) release(&queues[i]);
  pthread_mutex_unlock(&lock);
}
