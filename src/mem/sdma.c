/* sdma.c — copies on a GPU's SDMA engine, for memory the CPU cannot reach (VRAM behind a
 * small BAR) and for copies asked to run there (force_copy_on_sdma). One KFD SDMA queue per
 * GPU, made on first use: a 64 KiB ring of SDMA v4 packets (COPY_LINEAR in pieces of at most
 * 4 MiB, whose count field is 22 bits of "bytes - 1"; CONST_FILL for fills; FENCE to
 * report progress), read and
 * write pointers in bytes that only grow, the write pointer rung on the queue's 64-bit
 * doorbell. Waiting is the caller's: it polls the fence word for its sequence number. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "kfd/queue.h"
#include "mem/internal.h"
#include "mem/mem.h"

#define RING_BYTES (64u * 1024u)
/* Bytes per COPY_LINEAR / CONST_FILL: the count field holds 22 bits of "bytes - 1"; ROCR
 * keeps each piece a little under 4 MiB, 32-byte aligned, and so do we. */
#define MAX_COPY 0x3fffe0u

#define SDMA_OP_NOP 0u
#define SDMA_OP_COPY 1u       /* sub-op 0: linear */
#define SDMA_OP_FENCE 5u
#define SDMA_OP_CONST_FILL 11u
#define SDMA_FILL_DWORDS (2u << 30)   /* CONST_FILL fill size field: 4-byte pattern */

struct engine {
  pthread_mutex_t lock;
  bool tried, ok;
  uint32_t *ring;
  uint64_t *ptrs;             /* [0] read pointer (engine writes), [1] write pointer */
  _Atomic uint32_t *fence;    /* the engine writes each fence's sequence number here */
  uint32_t seq;
  uint64_t wp;                /* bytes submitted */
  struct kfd_queue kq;
};

static struct engine engines[MEM_MAX_GPUS];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init_locks(void) {
  for (unsigned i = 0; i < MEM_MAX_GPUS; i++) pthread_mutex_init(&engines[i].lock, NULL);
}

static uint32_t gfx_version(const struct core_agent *a) {
  return a->isa ? (a->isa->major << 16 | a->isa->minor << 8 | a->isa->stepping) : 0;
}

/* engine lock held */
static bool start(struct engine *e, const struct core_agent *gpu) {
  if (e->tried) return e->ok;
  e->tried = true;
  e->ring = mem_system(RING_BYTES, RING_BYTES, MEM_F_NO_SUBALLOC | MEM_F_UNCACHED);
  e->ptrs = mem_system(2 * sizeof(uint64_t), 64, MEM_F_UNCACHED);
  e->fence = mem_system(sizeof(uint32_t), 64, MEM_F_UNCACHED);
  if (!e->ring || !e->ptrs || !e->fence) goto fail;
  memset(e->ring, 0, RING_BYTES);
  e->ptrs[0] = e->ptrs[1] = 0;
  atomic_store_explicit(e->fence, 0, memory_order_relaxed);
  struct kfd_queue_sizes sz;
  kfd_queue_sizes(&gpu->node->props, gfx_version(gpu), &sz);
  struct kfd_queue_args a = {
      .gpu_id = gpu->gpu_id, .type = KFD_QUEUE_SDMA, .percentage = 100,
      .priority = kfd_queue_priority(0), .ring = (uint64_t)(uintptr_t)e->ring,
      .ring_size = RING_BYTES, .read_ptr = &e->ptrs[0], .write_ptr = &e->ptrs[1],
      .doorbell_slice = sz.doorbell_slice};
  if (kfd_queue_create(&core_rt()->kfd, &a, &e->kq) != 0) goto fail;
  e->ok = true;
  return true;
fail:
  mem_release(e->ring);
  mem_release(e->ptrs);
  mem_release((void *)e->fence);
  e->ring = NULL;
  e->ptrs = NULL;
  e->fence = NULL;
  e->tried = false;   /* a refusal (no memory, no queue slot) may pass: the next copy retries */
  return false;
}

static uint64_t read_ptr(const struct engine *e) {
  return __atomic_load_n(&e->ptrs[0], __ATOMIC_ACQUIRE);
}

/* Room for n dwords without crossing the ring's end (NOPs fill the tail when needed). */
static void reserve(struct engine *e, uint32_t n) {
  uint64_t at = (e->wp % RING_BYTES) / 4, left = RING_BYTES / 4 - at;
  uint32_t need = n + (left < n ? (uint32_t)left : 0);
  while (e->wp + 4ull * need - read_ptr(e) > RING_BYTES) sched_yield();
  if (left < n) {
    for (uint64_t i = 0; i < left; i++) e->ring[at + i] = SDMA_OP_NOP;
    e->wp += 4 * left;
  }
}

static void emit(struct engine *e, const uint32_t *p, uint32_t n) {
  reserve(e, n);
  uint64_t at = (e->wp % RING_BYTES) / 4;
  for (uint32_t i = 0; i < n; i++) e->ring[at + i] = p[i];
  e->wp += 4ull * n;
}

static void ring_doorbell(struct engine *e) {
  /* The packets must be visible before the engine learns about them. */
  __atomic_store_n(&e->ptrs[1], e->wp, __ATOMIC_RELEASE);
  __atomic_store_n(e->kq.doorbell, e->wp, __ATOMIC_RELEASE);
}

/* Emits the packets of one operation (built by `put`) and a fence, then waits for it. */
typedef void (*put_fn)(struct engine *e, uint64_t dst, uint64_t src, size_t size, uint32_t value);

static hsa_status_t run(const struct core_agent *gpu, put_fn put, uint64_t dst, uint64_t src,
                        size_t size, uint32_t value) {
  if (!gpu || gpu->kind != CORE_AGENT_GPU || gpu->gpu_index >= MEM_MAX_GPUS)
    return HSA_STATUS_ERROR_INVALID_AGENT;
  pthread_once(&once, init_locks);
  /* CPU writes into VRAM through the BAR must have left the HDP before the engine reads. */
  mem_hdp_flush(gpu);
  struct engine *e = &engines[gpu->gpu_index];
  pthread_mutex_lock(&e->lock);
  if (!start(e, gpu)) {
    pthread_mutex_unlock(&e->lock);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  put(e, dst, src, size, value);
  uint32_t seq = ++e->seq;
  uint64_t f = (uint64_t)(uintptr_t)e->fence;
  uint32_t fence[4] = {SDMA_OP_FENCE, (uint32_t)f, (uint32_t)(f >> 32), seq};
  emit(e, fence, 4);
  ring_doorbell(e);
  _Atomic uint32_t *word = e->fence;
  pthread_mutex_unlock(&e->lock);
  /* Sequence numbers wrap; the difference tells which came first. */
  while ((int32_t)(atomic_load_explicit(word, memory_order_acquire) - seq) < 0) sched_yield();
  return HSA_STATUS_SUCCESS;
}

static void put_copy(struct engine *e, uint64_t d, uint64_t s, size_t size, uint32_t unused) {
  for (size_t done = 0; done < size;) {
    uint32_t n = size - done > MAX_COPY ? MAX_COPY : (uint32_t)(size - done);
    uint32_t p[7] = {SDMA_OP_COPY, n - 1, 0, (uint32_t)(s + done), (uint32_t)((s + done) >> 32),
                     (uint32_t)(d + done), (uint32_t)((d + done) >> 32)};
    emit(e, p, 7);
    done += n;
  }
}

/* CONST_FILL counts bytes too (minus one, 22 bits); pieces stay dword multiples. */
static void put_fill(struct engine *e, uint64_t d, uint64_t unused, size_t size, uint32_t value) {
  const uint32_t max = MAX_COPY;
  for (size_t done = 0; done < size;) {
    uint32_t n = size - done > max ? max : (uint32_t)(size - done);
    uint32_t p[5] = {SDMA_OP_CONST_FILL | SDMA_FILL_DWORDS, (uint32_t)(d + done),
                     (uint32_t)((d + done) >> 32), value, n - 1};
    emit(e, p, 5);
    done += n;
  }
}

hsa_status_t mem_sdma_copy(const struct core_agent *gpu, void *dst, const void *src,
                           size_t size) {
  return run(gpu, put_copy, (uint64_t)(uintptr_t)dst, (uint64_t)(uintptr_t)src, size, 0);
}

hsa_status_t mem_sdma_fill(const struct core_agent *gpu, void *dst, uint32_t value,
                           size_t count) {
  return run(gpu, put_fill, (uint64_t)(uintptr_t)dst, 0, count * 4, value);
}

void mem_sdma_shutdown(void) {
  pthread_once(&once, init_locks);
  for (unsigned i = 0; i < MEM_MAX_GPUS; i++) {
    struct engine *e = &engines[i];
    pthread_mutex_lock(&e->lock);
    if (e->ok) {
      kfd_queue_destroy(&core_rt()->kfd, &e->kq);
      kfd_queue_doorbell_release(&e->kq);
    }
    /* The ring and pointers are internal allocations: mem_shutdown frees them next. */
    e->tried = e->ok = false;
    e->ring = NULL;
    e->ptrs = NULL;
    e->fence = NULL;
    e->seq = 0;
    e->wp = 0;
    pthread_mutex_unlock(&e->lock);
  }
}
