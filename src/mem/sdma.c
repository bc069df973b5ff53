/* SPDX-License-Identifier: MIT */
/* sdma.c — copies on a GPU's SDMA engine, for memory the CPU cannot reach (VRAM behind a
 * small BAR) and for copies asked to run there (force_copy_on_sdma). One KFD SDMA queue per
 * SDMA engine of a GPU (src/copy spreads large copies over them), each made on first use:
 * a 64 KiB ring of SDMA v4 packets (COPY_LINEAR in pieces of at most 4 MiB, whose count
 * field is 22 bits of "bytes - 1", 30 bits and 1 GiB pieces from gfx10.3; CONST_FILL for
 * fills; rectangles from sdma_rect.c; FENCE to report progress; from gfx10, as ROCR's
 * BlitSdmaV5, each submission between GCR_REQ cache controls and FENCEs uncached), read and
 * write pointers in bytes that only grow,
 * the write pointer rung on the queue's 64-bit doorbell. Waiting is the caller's: it polls
 * the fence word for its sequence number for a moment, then sleeps in WAIT_EVENTS: each
 * submission ends with the engine writing the queue's own signal event's mailbox and raising
 * its TRAP interrupt with that event's id (the kernel then sets the event), as ROCR's SDMA
 * blits end. So a long copy costs its waiter no CPU, which the engine (on hsa-sim, a thread
 * of the same machine) needs. Without an event page yet (no signal event made) it polls.
 *
 * An engine that stops (a VM fault, or a packet it refused, after which the driver resets
 * the GPU) never writes the fence. So the wait also looks, every millisecond, at a memory
 * exception and a HW exception event of its own: one naming this GPU ends the wait with an
 * error, and the engine is not used again. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/agent.h"
#include "core/runtime.h"
#include "kfd/event.h"
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
#define SDMA_OP_POLL_REGMEM 8u
#define SDMA_POLL_MEM (1u << 31)      /* poll memory (not a register) */
#define SDMA_POLL_GE (5u << 28)       /* compare function: >= */
#define SDMA_POLL_FOREVER (0xfffu << 16 | 10u)   /* retry count (0xfff: for ever), interval */
#define SDMA_OP_TRAP 6u
#define SDMA_OP_CONST_FILL 11u
#define SDMA_OP_ATOMIC 10u
#define SDMA_ATOMIC_ADD64 (47u << 25)
#define SDMA_FILL_DWORDS (2u << 30)   /* CONST_FILL fill size field: 4-byte pattern */
/* SDMA v5+ (gfx10+): GCR_REQ, op 17 sub-op 1 (a user queue's), 5 dwords; GCR_CNTL bits 15:0
 * sit in dw2 31:16. Like ROCR: before the work, write back and invalidate GL2, GL1, GLV
 * and the scalar cache (GLK); after it, write back GL2 and GLK. FENCE asks MTYPE 3 (UC). */
#define SDMA_OP_GCR (17u | 1u << 8)
#define GCR_GLK_WB (1u << 6)
#define GCR_GLK_INV (1u << 7)
#define GCR_GLV_INV (1u << 8)
#define GCR_GL1_INV (1u << 9)
#define GCR_GL2_INV (1u << 14)
#define GCR_GL2_WB (1u << 15)
#define SDMA_FENCE_MTYPE_UC (3u << 16)

struct engine {
  pthread_mutex_t lock;
  bool tried, ok;
  const struct core_agent *gpu;
  _Atomic bool dead;          /* its GPU faulted or was reset: the queue runs no more */
  bool have_events, have_done;
  struct kfd_event fault_ev, reset_ev;
  struct kfd_event done_ev;   /* signal event the engine's TRAP sets after each submission */
  uint32_t *ring;
  uint64_t *ptrs;             /* [0] read pointer (engine writes), [1] write pointer */
  _Atomic uint32_t *fence;    /* the engine writes each fence's sequence number here */
  uint32_t seq;
  _Atomic uint32_t *piece;    /* split copies: the number of the last piece it finished */
  uint32_t split_seq;         /* queue 0's: numbers its GPU's split copies (all locks held) */
  uint64_t wp;                /* bytes submitted */
  uint64_t next_look;         /* ms: when a submission without a waiter looks for faults again */
  bool gcr;                   /* gfx10+: GCR_REQ around each submission, FENCE with MTYPE UC */
  uint32_t max_copy;          /* bytes per COPY_LINEAR: 22-bit count, 30-bit from gfx10.3 */
  struct kfd_queue kq;
};

static struct engine engines[MEM_MAX_GPUS][MEM_SDMA_MAX];
static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_bool locks_ready;   /* init_locks ran: some engine may have been used */

static void init_locks(void) {
  for (unsigned i = 0; i < MEM_MAX_GPUS; i++)
    for (unsigned k = 0; k < MEM_SDMA_MAX; k++) pthread_mutex_init(&engines[i][k].lock, NULL);
  atomic_store_explicit(&locks_ready, true, memory_order_release);
}

unsigned mem_sdma_queues(const struct core_agent *gpu) {
  if (!gpu || gpu->kind != CORE_AGENT_GPU) return 0;
  uint64_t n = gpu->node->props.num_sdma_engines;
  return n == 0 ? 1u : n > MEM_SDMA_MAX ? MEM_SDMA_MAX : (unsigned)n;
}

static uint32_t gfx_version(const struct core_agent *a) {
  return a->isa ? (a->isa->major << 16 | a->isa->minor << 8 | a->isa->stepping) : 0;
}

/* engine lock held */
static bool start(struct engine *e, const struct core_agent *gpu) {
  if (e->tried) return e->ok;
  e->tried = true;
  e->gpu = gpu;
  e->gcr = gpu->isa && gpu->isa->major >= 10;
  /* SDMA 5.2+ (gfx10.3 on) counts 30 bits, as ROCR's copy size override for them says */
  e->max_copy = gpu->isa && (gpu->isa->major >= 11 || (gpu->isa->major == 10 && gpu->isa->minor >= 3))
                    ? 0x3fffffe0u : MAX_COPY;
  e->ring = mem_system(RING_BYTES, RING_BYTES, MEM_F_NO_SUBALLOC | MEM_F_UNCACHED);
  /* read and write pointers on a page of their own: 6.12+ kernels want each to be the
   * first page of a one-page buffer (kfd_queue.c) */
  mem_system_owner(gpu);   /* MES GPUs take only write pointers of their own */
  e->ptrs = mem_system(4096, 4096, MEM_F_NO_SUBALLOC | MEM_F_UNCACHED);
  mem_system_owner(NULL);
  e->fence = mem_system(sizeof(uint32_t), 64, MEM_F_UNCACHED);
  e->piece = mem_system(sizeof(uint32_t), 64, MEM_F_UNCACHED);
  if (!e->ring || !e->ptrs || !e->fence || !e->piece) goto fail;
  atomic_store_explicit(e->piece, 0, memory_order_relaxed);
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
  /* From KFD 1.17 ring k is a queue of SDMA engine k itself (before, the kernel put each new
   * queue on the next engine with a free slot, whatever ring asked first). */
  if (kfd_has_sdma_by_engine(&core_rt()->kfd)) {
    a.type = KFD_QUEUE_SDMA_BY_ENG_ID;
    a.sdma_engine_id = (uint32_t)(e - engines[gpu->gpu_index]);
  }
  if (kfd_queue_create(&core_rt()->kfd, &a, &e->kq) != 0) goto fail;
  /* optional: without them a stopped engine is waited for, as before */
  const struct kfd_device *dev = &core_rt()->kfd;
  e->have_events = kfd_event_create(dev, KFD_EVENT_TYPE_MEMORY, true, 0, &e->fault_ev) == 0;
  if (e->have_events &&
      kfd_event_create(dev, KFD_EVENT_TYPE_HW_EXCEPTION, true, 0, &e->reset_ev) != 0) {
    kfd_event_destroy(dev, e->fault_ev.id);
    e->have_events = false;
  }
  /* The event page belongs to signals' set-up (the first signal event hands the kernel the
   * runtime's page): only once it exists may this queue have a signal event of its own. */
  size_t slots = 0;
  e->have_done = e->have_events && kfd_event_page(&slots) &&
                 kfd_event_create(dev, KFD_EVENT_TYPE_SIGNAL, true, 0, &e->done_ev) == 0;
  e->ok = true;
  return true;
fail:
  mem_release(e->ring);
  mem_release(e->ptrs);
  mem_release((void *)e->fence);
  mem_release((void *)e->piece);
  e->ring = NULL;
  e->ptrs = NULL;
  e->fence = NULL;
  e->piece = NULL;
  e->tried = false;   /* a refusal (no memory, no queue slot) may pass: the next copy retries */
  return false;
}

static uint64_t read_ptr(const struct engine *e) {
  return __atomic_load_n(&e->ptrs[0], __ATOMIC_ACQUIRE);
}

static uint64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

/* Whether a fault or reset of e's GPU was reported since the last look (then e is dead). */
static bool engine_lost(struct engine *e) {
  const struct core_agent *gpu = e->gpu;
  if (atomic_load(&e->dead)) return true;
  if (!e->have_events) return false;
  struct kfd_event_data d[2];
  memset(d, 0, sizeof(d));
  d[0].event_id = e->fault_ev.id;
  d[1].event_id = e->reset_ev.id;
  uint32_t result = 0;
  if (kfd_event_wait_data(&core_rt()->kfd, d, 2, false, 0, &result) != 0 ||
      result != KFD_WAIT_COMPLETE)
    return false;
  const char *what = d[0].memory_exception_data.gpu_id == gpu->gpu_id   ? "a memory fault"
                     : d[1].hw_exception_data.gpu_id == gpu->gpu_id ? "a reset"
                                                                      : NULL;
  if (!what) return false;   /* another GPU's */
  if (!atomic_exchange(&e->dead, true))
    fprintf(stderr, "hsa-runtime64: the SDMA engine of GPU node-%" PRIu32 " stopped (%s of the "
                    "GPU): its copies fail from now on\n", gpu->node_id, what);
  return true;
}

/* One round of waiting for the engine: false once it is lost (looked at every millisecond). */
static bool wait_round(struct engine *e, uint64_t *next_look) {
  sched_yield();
  if (now_ms() < *next_look) return true;
  *next_look = now_ms() + 1;
  return !engine_lost(e);
}

/* A submission that nobody waits for (mem_sdma_copy_async/_split) looks at the fault and reset
 * events at most this often. Each look is a WAIT_EVENTS call: 30-60 us under hsa-sim, which
 * every ~30th 1 MiB copy paid when it was once a millisecond (the submission's p90 was 20-36 us
 * for 4 KiB copies against 0.4-0.6 us for the others); a lost engine is still found within
 * this long, and its copies fail from then on. */
#define SUBMIT_LOOK_MS 10u

#define SPIN_ROUNDS 64   /* yields before sleeping on the events: a short copy's latency */

/* Sleeps until the engine's TRAP, a fault or a reset (at most a millisecond: the auto-reset
 * event may wake another waiter of this queue instead); false once the engine is lost. */
static bool sleep_round(struct engine *e) {
  const struct core_agent *gpu = e->gpu;
  struct kfd_event_data d[3];
  memset(d, 0, sizeof(d));
  d[0].event_id = e->fault_ev.id;
  d[1].event_id = e->reset_ev.id;
  d[2].event_id = e->done_ev.id;
  uint32_t result = 0;
  if (kfd_event_wait_data(&core_rt()->kfd, d, 3, false, 1, &result) != 0) return true;
  if (result != KFD_WAIT_COMPLETE) return true;
  const char *what = d[0].memory_exception_data.gpu_id == gpu->gpu_id   ? "a memory fault"
                     : d[1].hw_exception_data.gpu_id == gpu->gpu_id ? "a reset"
                                                                      : NULL;
  if (!what) return !atomic_load(&e->dead);
  if (!atomic_exchange(&e->dead, true))
    fprintf(stderr, "hsa-runtime64: the SDMA engine of GPU node-%" PRIu32 " stopped (%s of the "
                    "GPU): its copies fail from now on\n", gpu->node_id, what);
  return false;
}

static void ring_doorbell(struct engine *e) {
  /* The packets must be visible before the engine learns about them. */
  __atomic_store_n(&e->ptrs[1], e->wp, __ATOMIC_RELEASE);
  __atomic_store_n(e->kq.doorbell, e->wp, __ATOMIC_RELEASE);
}

/* Room for n dwords without crossing the ring's end (NOPs fill the tail when needed). A full
 * ring is emptied by the engine: it is told of what is written so far. */
static void reserve(struct engine *e, uint32_t n) {
  uint64_t at = (e->wp % RING_BYTES) / 4, left = RING_BYTES / 4 - at;
  uint32_t need = n + (left < n ? (uint32_t)left : 0);
  if (e->wp + 4ull * need - read_ptr(e) > RING_BYTES) ring_doorbell(e);
  uint64_t next_look = now_ms() + 1;
  while (e->wp + 4ull * need - read_ptr(e) > RING_BYTES)
    if (!wait_round(e, &next_look)) break;   /* the fence wait reports it */
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

/* hsa_amd_agent_preload: every SDMA queue of gpu made now rather than at its first copy. */
hsa_status_t mem_sdma_preload(const struct core_agent *gpu) {
  if (!gpu || gpu->kind != CORE_AGENT_GPU || gpu->gpu_index >= MEM_MAX_GPUS)
    return HSA_STATUS_ERROR_INVALID_AGENT;
  pthread_once(&once, init_locks);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  for (unsigned k = 0; k < mem_sdma_queues(gpu); k++) {
    struct engine *e = &engines[gpu->gpu_index][k];
    pthread_mutex_lock(&e->lock);
    if (!start(e, gpu)) st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    pthread_mutex_unlock(&e->lock);
  }
  return st;
}

/* gfx10+: the cache control before (invalidate) or after (write back) a submission. */
static void cache_control(struct engine *e, bool invalidate) {
  if (!e->gcr) return;
  uint32_t cntl = GCR_GL2_WB | GCR_GLK_WB;
  if (invalidate) cntl |= GCR_GL2_INV | GCR_GL1_INV | GCR_GLV_INV | GCR_GLK_INV;
  uint32_t p[5] = {SDMA_OP_GCR, 0, cntl << 16, 0, 0};
  emit(e, p, 5);
}

static uint32_t fence_op(const struct engine *e) {
  return SDMA_OP_FENCE | (e->gcr ? SDMA_FENCE_MTYPE_UC : 0);
}

/* Emits the packets of one operation (`put` with `arg`) and a fence, then waits for it. */
typedef void (*put_fn)(struct engine *e, const void *arg);

static hsa_status_t run(const struct core_agent *gpu, unsigned ring, put_fn put, const void *arg) {
  if (!gpu || gpu->kind != CORE_AGENT_GPU || gpu->gpu_index >= MEM_MAX_GPUS)
    return HSA_STATUS_ERROR_INVALID_AGENT;
  if (ring >= mem_sdma_queues(gpu)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  pthread_once(&once, init_locks);
  /* CPU writes into VRAM through the BAR must have left the HDP before the engine reads. */
  mem_hdp_flush(gpu);
  struct engine *e = &engines[gpu->gpu_index][ring];
  pthread_mutex_lock(&e->lock);
  if (!start(e, gpu)) {
    pthread_mutex_unlock(&e->lock);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  if (atomic_load(&e->dead)) {
    pthread_mutex_unlock(&e->lock);
    return HSA_STATUS_ERROR;
  }
  cache_control(e, true);
  put(e, arg);
  cache_control(e, false);
  uint32_t seq = ++e->seq;
  uint64_t f = (uint64_t)(uintptr_t)e->fence;
  uint32_t fence[4] = {fence_op(e), (uint32_t)f, (uint32_t)(f >> 32), seq};
  emit(e, fence, 4);
  if (e->have_done) {
    /* the mailbox says which event fired; the TRAP's context id names it */
    uint64_t m = (uint64_t)(uintptr_t)e->done_ev.mailbox;
    uint32_t mail[4] = {fence_op(e), (uint32_t)m, (uint32_t)(m >> 32), e->done_ev.id};
    uint32_t trap[2] = {SDMA_OP_TRAP, e->done_ev.id & 0xfffffffu};
    emit(e, mail, 4);
    emit(e, trap, 2);
  }
  ring_doorbell(e);
  bool can_sleep = e->have_done;
  _Atomic uint32_t *word = e->fence;
  pthread_mutex_unlock(&e->lock);
  /* Sequence numbers wrap; the difference tells which came first. */
  uint64_t next_look = now_ms() + 1;
  for (unsigned round = 0; (int32_t)(atomic_load_explicit(word, memory_order_acquire) - seq) < 0;
       round++) {
    bool alive = can_sleep && round >= SPIN_ROUNDS ? sleep_round(e) : wait_round(e, &next_look);
    if (!alive) return HSA_STATUS_ERROR;
  }
  return HSA_STATUS_SUCCESS;
}

struct linear {
  uint64_t dst, src;
  size_t size;
  uint32_t value;
};

static void put_copy(struct engine *e, const void *arg) {
  const struct linear *l = arg;
  uint64_t d = l->dst, s = l->src;
  size_t size = l->size;
  for (size_t done = 0; done < size;) {
    uint32_t n = size - done > e->max_copy ? e->max_copy : (uint32_t)(size - done);
    uint32_t p[7] = {SDMA_OP_COPY, n - 1, 0, (uint32_t)(s + done), (uint32_t)((s + done) >> 32),
                     (uint32_t)(d + done), (uint32_t)((d + done) >> 32)};
    emit(e, p, 7);
    done += n;
  }
}

/* CONST_FILL counts bytes too (minus one, 22 bits); pieces stay dword multiples. */
static void put_fill(struct engine *e, const void *arg) {
  const struct linear *l = arg;
  uint64_t d = l->dst;
  size_t size = l->size;
  uint32_t value = l->value;
  const uint32_t max = MAX_COPY;
  for (size_t done = 0; done < size;) {
    uint32_t n = size - done > max ? max : (uint32_t)(size - done);
    uint32_t p[5] = {SDMA_OP_CONST_FILL | SDMA_FILL_DWORDS, (uint32_t)(d + done),
                     (uint32_t)((d + done) >> 32), value, n - 1};
    emit(e, p, 5);
    done += n;
  }
}

hsa_status_t mem_sdma_copy_on(const struct core_agent *gpu, unsigned ring, void *dst,
                              const void *src, size_t size) {
  struct linear l = {(uint64_t)(uintptr_t)dst, (uint64_t)(uintptr_t)src, size, 0};
  return run(gpu, ring, put_copy, &l);
}

/* The engine completes the copy itself (mem_sdma_copy_async): the 64-bit add of -1 on the
 * completion value, then its event's mailbox and TRAP, so a blocked waiter wakes. */
static void put_done(struct engine *e, const struct mem_sdma_done *done) {
  uint64_t v = done->value_addr, minus1 = UINT64_MAX;
  uint32_t add[8] = {SDMA_OP_ATOMIC | SDMA_ATOMIC_ADD64, (uint32_t)v, (uint32_t)(v >> 32),
                     (uint32_t)minus1, (uint32_t)(minus1 >> 32), 0, 0, 0};
  emit(e, add, 8);
  if (!done->mailbox) return;
  uint64_t m = done->mailbox;
  uint32_t mail[4] = {fence_op(e), (uint32_t)m, (uint32_t)(m >> 32), done->event_id};
  uint32_t trap[2] = {SDMA_OP_TRAP, done->event_id & 0xfffffffu};
  emit(e, mail, 4);
  emit(e, trap, 2);
}

hsa_status_t mem_sdma_copy_async(const struct core_agent *gpu, unsigned ring, void *dst,
                                 const void *src, size_t size, const struct mem_sdma_done *done) {
  if (!gpu || gpu->kind != CORE_AGENT_GPU || gpu->gpu_index >= MEM_MAX_GPUS)
    return HSA_STATUS_ERROR_INVALID_AGENT;
  if (ring >= mem_sdma_queues(gpu)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  pthread_once(&once, init_locks);
  mem_hdp_flush(gpu);
  struct engine *e = &engines[gpu->gpu_index][ring];
  pthread_mutex_lock(&e->lock);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (!start(e, gpu)) st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  else if (atomic_load(&e->dead)) st = HSA_STATUS_ERROR;
  else if (now_ms() >= e->next_look) {
    /* a look at the fault events costs a driver call: once every SUBMIT_LOOK_MS is enough */
    e->next_look = now_ms() + SUBMIT_LOOK_MS;
    if (engine_lost(e)) st = HSA_STATUS_ERROR;
  }
  if (st == HSA_STATUS_SUCCESS) {
    struct linear l = {(uint64_t)(uintptr_t)dst, (uint64_t)(uintptr_t)src, size, 0};
    cache_control(e, true);
    put_copy(e, &l);
    cache_control(e, false);
    put_done(e, done);
    ring_doorbell(e);
  }
  pthread_mutex_unlock(&e->lock);
  return st;
}

hsa_status_t mem_sdma_copy_split(const struct core_agent *gpu, unsigned lead, void *dst,
                                 const void *src, size_t size, const struct mem_sdma_done *done) {
  unsigned n = mem_sdma_queues(gpu);
  if (n < 2 || lead >= n) return mem_sdma_copy_async(gpu, lead, dst, src, size, done);
  if (gpu->gpu_index >= MEM_MAX_GPUS) return HSA_STATUS_ERROR_INVALID_AGENT;
  pthread_once(&once, init_locks);
  mem_hdp_flush(gpu);
  struct engine *es = engines[gpu->gpu_index];
  for (unsigned k = 0; k < n; k++) pthread_mutex_lock(&es[k].lock);   /* in index order */
  hsa_status_t st = HSA_STATUS_SUCCESS;
  for (unsigned k = 0; k < n && st == HSA_STATUS_SUCCESS; k++)
    if (!start(&es[k], gpu)) st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    else if (atomic_load(&es[k].dead)) st = HSA_STATUS_ERROR;
  struct engine *l = &es[lead];
  if (st == HSA_STATUS_SUCCESS && now_ms() >= l->next_look) {
    l->next_look = now_ms() + SUBMIT_LOOK_MS;
    if (engine_lost(l)) st = HSA_STATUS_ERROR;
  }
  if (st == HSA_STATUS_SUCCESS) {
    /* per 4 KiB; the lead's piece last, so it starts no later than the others' */
    size_t each = (size / n + 4095) & ~(size_t)4095, at = 0;
    /* compared with >=: it wraps after 2^32 split copies (of 8 MiB or more: 32 EiB) */
    uint32_t seq = ++es[0].split_seq;
    uint32_t polls[MEM_SDMA_MAX][6];
    unsigned npolls = 0;
    for (unsigned k = 0; k < n; k++) {
      if (k == lead) continue;
      struct engine *e = &es[k];
      size_t len = at + each > size ? size - at : each;
      struct linear lin = {(uint64_t)(uintptr_t)dst + at, (uint64_t)(uintptr_t)src + at, len, 0};
      at += len;
      cache_control(e, true);
      if (len) put_copy(e, &lin);
      cache_control(e, false);
      uint64_t w = (uint64_t)(uintptr_t)e->piece;
      uint32_t fence[4] = {fence_op(e), (uint32_t)w, (uint32_t)(w >> 32), seq};
      emit(e, fence, 4);
      ring_doorbell(e);
      uint32_t poll[6] = {SDMA_OP_POLL_REGMEM | SDMA_POLL_MEM | SDMA_POLL_GE, (uint32_t)w,
                          (uint32_t)(w >> 32), seq, UINT32_MAX, SDMA_POLL_FOREVER};
      memcpy(polls[npolls++], poll, sizeof(poll));
    }
    struct linear lin = {(uint64_t)(uintptr_t)dst + at, (uint64_t)(uintptr_t)src + at, size - at, 0};
    cache_control(l, true);
    if (size > at) put_copy(l, &lin);
    for (unsigned i = 0; i < npolls; i++) emit(l, polls[i], 6);
    cache_control(l, false);
    put_done(l, done);
    ring_doorbell(l);
  }
  for (unsigned k = n; k-- > 0;) pthread_mutex_unlock(&es[k].lock);
  return st;
}

hsa_status_t mem_sdma_copy(const struct core_agent *gpu, void *dst, const void *src,
                           size_t size) {
  return mem_sdma_copy_on(gpu, 0, dst, src, size);
}

hsa_status_t mem_sdma_fill(const struct core_agent *gpu, void *dst, uint32_t value,
                           size_t count) {
  struct linear l = {(uint64_t)(uintptr_t)dst, 0, count * 4, value};
  return run(gpu, 0, put_fill, &l);
}

struct packets {
  const uint32_t *dw;
  size_t count;
  uint32_t each;
};

static void put_packets(struct engine *e, const void *arg) {
  const struct packets *p = arg;
  for (size_t i = 0; i < p->count; i++) emit(e, p->dw + i * p->each, p->each);
}

hsa_status_t mem_sdma_packets(const struct core_agent *gpu, const uint32_t *dw, size_t count,
                              uint32_t each) {
  struct packets p = {dw, count, each};
  return run(gpu, 0, put_packets, &p);
}

void mem_sdma_shutdown(void) {
  /* Never used since the process started: nothing to stop, and the engines' pages (untouched
   * static memory, ~20 page faults) stay untouched, which hsa_shut_down would otherwise pay. */
  if (!atomic_load_explicit(&locks_ready, memory_order_acquire)) return;
  for (unsigned i = 0; i < MEM_MAX_GPUS * MEM_SDMA_MAX; i++) {
    struct engine *e = &engines[i / MEM_SDMA_MAX][i % MEM_SDMA_MAX];
    pthread_mutex_lock(&e->lock);
    if (e->ok) {
      kfd_queue_destroy(&core_rt()->kfd, &e->kq);
      kfd_queue_doorbell_release(&e->kq);
    }
    if (e->have_events) {
      kfd_event_destroy(&core_rt()->kfd, e->fault_ev.id);
      kfd_event_destroy(&core_rt()->kfd, e->reset_ev.id);
    }
    if (e->have_done) kfd_event_destroy(&core_rt()->kfd, e->done_ev.id);
    e->have_events = e->have_done = false;
    atomic_store(&e->dead, false);
    /* The ring and pointers are internal allocations: mem_shutdown frees them next. */
    e->tried = e->ok = false;
    e->ring = NULL;
    e->ptrs = NULL;
    e->fence = NULL;
    e->piece = NULL;
    e->seq = 0;
    e->split_seq = 0;
    e->wp = 0;
    e->next_look = 0;
    pthread_mutex_unlock(&e->lock);
  }
}
