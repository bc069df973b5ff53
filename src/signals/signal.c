/* SPDX-License-Identifier: MIT */
/* signal.c — signal slots and handles: the arena of amd_signal_t in GPU-visible memory, the
 * free FIFOs that quarantine destroyed slots, create/destroy (API and internal), doorbell
 * signals, shutdown. Interrupt signals (ROCR's rule: interrupts enabled, not GPU-only or IPC,
 * and no consumer list or one that names a CPU) carry a KFD signal event; a destroyed
 * signal's event goes back to a pool the next interrupt signal takes it from (no ioctl), so
 * quarantined slots hold no events. */
#include "signals/internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/mem.h"

struct sig_state sig_g;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;   /* arena, FIFOs, events, init */
_Atomic uintptr_t sig_arena_base;
_Atomic uintptr_t sig_arena_used;
struct sig_chunk *sig_chunk_tab[SIG_ARENA_CHUNKS];

/* Freed slots, oldest first. Doorbell slots only ever hold doorbell signals, so a stale
 * handle of one never finds a plain value where the doorbell pointer was (the two share a
 * union). Both outlive hsa_shut_down: the quarantine spans runtimes. Never-used slots are
 * not in the FIFO: they go first, in order, from the chunk last grown (its `handed` count),
 * so a new chunk's records are written one by one as signals take them, not all at once. */
struct fifo {
  struct sig_obj *head, *tail;
  uint32_t len, keep;   /* keep: the quarantine length */
  struct sig_chunk *fresh;   /* the chunk last grown for this FIFO: its never-used slots */
};
static struct fifo free_user = {.keep = SIG_QUARANTINE};
static struct fifo free_doorbell = {.keep = SIG_QUARANTINE_DOORBELL};

/* KFD events of destroyed signals, for the next interrupt signal (this runtime's). */
static struct kfd_event *events;
static uint32_t event_count, event_cap;
static bool events_short;   /* the driver said ENOSPC: no more events until shutdown */

static bool env_interrupts(void)
{
  const char *e = getenv("HSA_ENABLE_INTERRUPT");
  return !(e && e[0] == '0' && e[1] == '\0');
}

hsa_status_t sig_ensure_init(void)
{
  if (!core_runtime_is_open())
    return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (atomic_load_explicit(&sig_g.ready, memory_order_acquire))
    return HSA_STATUS_SUCCESS;
  pthread_mutex_lock(&lock);
  if (!atomic_load_explicit(&sig_g.ready, memory_order_relaxed)) {
    struct core_runtime *rt = core_rt();
    sig_g.dev = rt->no_device || rt->kfd.fd < 0 ? NULL : &rt->kfd;
    sig_g.interrupts = sig_g.dev && env_interrupts();
    sig_g.ts_freq = rt->sys_clock_freq ? rt->sys_clock_freq : 1000000000ull;
    if (sig_g.interrupts && !sig_event_page_ready(rt)) {
      /* A signal event now would give the process the kernel's page for good, where the CP
       * cannot write: poll instead until a later hsa_init gets the page made. */
      sig_g.interrupts = false;
      fprintf(stderr, "hsa-runtime64: the GPU event page could not be set up; signal waits "
                      "poll instead of sleeping until the next hsa_init.\n");
    }
    atomic_store_explicit(&sig_g.ready, true, memory_order_release);
  }
  pthread_mutex_unlock(&lock);
  return HSA_STATUS_SUCCESS;
}

void sig_open(void)
{
  struct core_runtime *rt = core_rt();
  /* only where signals can have events: the flag matters to no other signal */
  if (rt && !rt->no_device && rt->kfd.fd >= 0 && env_interrupts())
    sig_light_stores_init();
}

bool sig_events_possible(void)
{
  struct core_runtime *rt = core_rt();
  return rt && rt->kfd.fd >= 0 && sig_event_page_ready(rt);
}

uint64_t sig_ticks_to_ns(uint64_t ticks)
{
  if (ticks == UINT64_MAX)
    return UINT64_MAX;
  uint64_t f = sig_g.ts_freq ? sig_g.ts_freq : 1000000000ull;
  unsigned __int128 ns = (unsigned __int128)ticks * 1000000000u / f;
  return ns >= UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

/* ---- registry -------------------------------------------------------------------------- */

amd_signal_t *sig_from_handle(hsa_signal_t s)
{
  struct sig_obj *o = sig_obj_of(s);
  return o ? o->amd : NULL;
}

static struct sig_chunk *chunk_of(const struct sig_obj *o)
{
  uintptr_t off = (uintptr_t)o->amd - atomic_load_explicit(&sig_arena_base, memory_order_relaxed);
  return sig_chunk_tab[off >> SIG_CHUNK_SHIFT];
}

static void fifo_push(struct fifo *f, struct sig_obj *o)
{
  o->next_free = NULL;
  if (f->tail)
    f->tail->next_free = o;
  else
    f->head = o;
  f->tail = o;
  f->len++;
}

static struct sig_obj *fifo_pop(struct fifo *f)
{
  struct sig_obj *o = f->head;
  if (!o)
    return NULL;
  f->head = o->next_free;
  if (!f->head)
    f->tail = NULL;
  o->next_free = NULL;
  f->len--;
  return o;
}

/* A forked child gets no copy of the arena's pages (MADV_DONTFORK, as all GPU-visible host
 * memory): fresh zeroed ones (kind INVALID) go there, so the handles it inherited read dead
 * slots and its own hsa_init can reuse them, instead of faulting. */
static void child_after_fork(void)
{
  uintptr_t base = atomic_load_explicit(&sig_arena_base, memory_order_relaxed);
  uintptr_t used = atomic_load_explicit(&sig_arena_used, memory_order_relaxed);
  if (base && used)
    mem_arena_commit((void *)base, used);
}

/* Called with lock held: the next chunk of the arena onto f (its slots never used). */
static bool grow(struct fifo *f)
{
  uintptr_t base = atomic_load_explicit(&sig_arena_base, memory_order_relaxed);
  if (!base) {
    /* once per process: the arena's addresses are never given back */
    base = (uintptr_t)mem_arena_reserve((size_t)SIG_ARENA_CHUNKS << SIG_CHUNK_SHIFT);
    if (!base)
      return false;
    atomic_store_explicit(&sig_arena_base, base, memory_order_relaxed);
    pthread_atfork(NULL, NULL, child_after_fork);
  }
  uintptr_t used = atomic_load_explicit(&sig_arena_used, memory_order_relaxed);
  uintptr_t i = used >> SIG_CHUNK_SHIFT;
  if (i == SIG_ARENA_CHUNKS)
    return false;
  amd_signal_t *amd = (amd_signal_t *)(base + used);
  /* The records of every chunk live in one reservation, made once and never freed (so
   * growing adds no mapping). It is reserved without access, so a system with strict
   * overcommit charges only the chunks in use; a chunk's pages are opened when it is added,
   * touched only when a signal first takes one of its slots, and an untouched record reads
   * as a never-used, free slot. */
  static struct sig_chunk *records;
  if (!records) {
    void *r = mmap(NULL, (size_t)SIG_ARENA_CHUNKS * sizeof *records, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r == MAP_FAILED)
      return false;
    records = r;
  }
  struct sig_chunk *c = &records[i];
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t lo = (uintptr_t)c & ~(page - 1), hi = ((uintptr_t)(c + 1) + page - 1) & ~(page - 1);
  if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) != 0)
    return false;
  if (!mem_arena_commit(amd, 1u << SIG_CHUNK_SHIFT))
    return false;
  c->slots = amd;
  f->fresh = c;
  sig_chunk_tab[i] = c;
  atomic_store_explicit(&sig_arena_used, used + (1u << SIG_CHUNK_SHIFT), memory_order_release);
  return true;
}

/* Called with lock held: a slot for a new signal. A destroyed slot comes back only once
 * f->keep others were freed after it; until then the arena grows (and when it cannot, the
 * quarantine gives way rather than the allocation). */
/* The next never-used slot of f's newest chunk, its record made ready (harmless when it is
 * not taken after all), or NULL when there is none. */
static struct sig_obj *fresh_slot(struct fifo *f)
{
  struct sig_chunk *c = f->fresh;
  if (!c || c->handed == SIG_CHUNK_SIGNALS)
    return NULL;
  struct sig_obj *o = &c->objs[c->handed];
  o->amd = &c->slots[c->handed];
  o->ipc_fd = -1;
  return o;
}

static struct sig_obj *take(struct fifo *f)
{
  struct sig_obj *o = fresh_slot(f);
  if (!o && f->len <= f->keep && grow(f))
    o = fresh_slot(f);
  bool fresh = o != NULL;
  if (!o && !(o = f->head))
    return NULL;
  struct sig_chunk *c = chunk_of(o);
  /* each runtime registers the pages it uses with its driver */
  if (!c->registered &&
      !(c->registered = mem_system_at(c->slots, 1u << SIG_CHUNK_SHIFT, MEM_F_UNCACHED)))
    return NULL;   /* nothing taken */
  if (fresh)
    c->handed++;
  else
    fifo_pop(f);
  return o;
}

/* Gives o an event when it asked for one and can have one. Called with lock held. */
static void attach_event(struct sig_obj *o)
{
  if (!(o->flags & SIG_F_INTERRUPT))
    return;
  bool have = false;
  if (event_count) {
    o->event = events[--event_count];
    have = true;
  } else if (sig_g.interrupts && !events_short) {
    int r = kfd_event_create(sig_g.dev, KFD_EVENT_TYPE_SIGNAL, true, 0, &o->event);
    have = r == 0;
    if (r == -ENOSPC)
      events_short = true;
  }
  if (!have) {
    o->flags &= ~(uint32_t)SIG_F_INTERRUPT;   /* out of events: a polled signal, as ROCR */
    return;
  }
  sig_light_stores_init();
  o->amd->event_mailbox_ptr = (uint64_t)(uintptr_t)o->event.mailbox;
  o->amd->event_id = o->event.id;
  atomic_store_explicit(&o->event_id, o->event.id, memory_order_relaxed);
  atomic_store_explicit(&o->has_event, true, memory_order_relaxed);
}

/* Takes o's event back into the pool (lock held); the CP no longer raises it for o. */
static void detach_event(struct sig_obj *o)
{
  if (!atomic_load_explicit(&o->has_event, memory_order_relaxed))
    return;
  atomic_store_explicit(&o->has_event, false, memory_order_relaxed);
  o->amd->event_mailbox_ptr = 0;
  o->amd->event_id = 0;
  if (event_count == event_cap) {
    uint32_t cap = event_cap ? event_cap * 2 : 64;
    struct kfd_event *n = realloc(events, cap * sizeof *n);
    if (!n) {
      kfd_event_destroy(sig_g.dev, o->event.id);
      return;
    }
    events = n;
    event_cap = cap;
  }
  events[event_count++] = o->event;
}

static void init_amd(struct sig_obj *o, int64_t initial)
{
  amd_signal_t *a = o->amd;
  atomic_store_explicit((_Atomic int64_t *)(uintptr_t)&a->value, initial, memory_order_relaxed);
  a->event_mailbox_ptr = 0;
  a->event_id = 0;
  a->reserved1 = 0;
  a->start_ts = a->end_ts = 0;
  a->reserved2 = 0;
  a->reserved3[0] = a->reserved3[1] = 0;
  atomic_store_explicit(&o->shadow, initial, memory_order_relaxed);
}

struct sig_obj *sig_obj_new(int64_t initial, uint32_t flags, volatile uint64_t *doorbell,
                            amd_queue_t *queue)
{
  bool db = flags & SIG_F_DOORBELL;
  pthread_mutex_lock(&lock);
  struct sig_obj *o = take(db ? &free_doorbell : &free_user);
  if (!o) {
    pthread_mutex_unlock(&lock);
    return NULL;
  }
  o->flags = flags;
  atomic_store_explicit(&o->waiters, 0, memory_order_relaxed);
  if (db) {
    amd_signal_t *a = o->amd;
    __atomic_store_n(&a->hardware_doorbell_ptr, doorbell, __ATOMIC_RELAXED);
    a->event_mailbox_ptr = 0;
    a->event_id = 0;
    a->queue_ptr = queue;
    atomic_store_explicit(&o->shadow, initial, memory_order_relaxed);
  } else {
    init_amd(o, initial);
    attach_event(o);
  }
  pthread_mutex_unlock(&lock);
  /* kind last, with release: the CP and other threads see a complete signal */
  __atomic_store_n(&o->amd->kind, (int64_t)(db ? AMD_SIGNAL_KIND_DOORBELL : AMD_SIGNAL_KIND_USER),
                   __ATOMIC_RELEASE);
  atomic_store_explicit(&o->state, SIG_LIVE, memory_order_release);
  return o;
}

struct sig_obj *sig_obj_adopt(amd_signal_t *amd, uint32_t flags, int fd, void *map, size_t size,
                              uint64_t bo)
{
  struct sig_obj *o = aligned_alloc(_Alignof(struct sig_obj), sizeof *o);
  if (!o)
    return NULL;
  memset(o, 0, sizeof *o);
  o->amd = amd;
  o->flags = flags;
  o->ipc_fd = fd;
  o->ipc_map = map;
  o->ipc_size = size;
  o->ipc_bo = bo;
  atomic_store_explicit(&o->state, SIG_LIVE, memory_order_release);
  pthread_mutex_lock(&lock);
  bool ok = sig_ipc_insert(o);
  pthread_mutex_unlock(&lock);
  if (!ok) {
    free(o);
    return NULL;
  }
  return o;
}

void sig_notify(struct sig_obj *o)
{
  if (!atomic_load_explicit(&o->has_event, memory_order_relaxed))
    return;
  /* pairs with the waiter's barrier between counting itself and re-reading the value: a
   * full fence here, unless the waiter's heavy barrier stands for it (internal.h) */
  if (__builtin_expect(atomic_load_explicit(&sig_light_stores, memory_order_relaxed), 1))
    atomic_signal_fence(memory_order_seq_cst);
  else
    atomic_thread_fence(memory_order_seq_cst);
  if (atomic_load_explicit(&o->waiters, memory_order_relaxed))
    kfd_event_set(sig_g.dev, atomic_load_explicit(&o->event_id, memory_order_relaxed));
}

/* Called with lock held, o already DYING: wake its waiters, mark the slot dead for the CP
 * and for stale handles, and put it at the end of its FIFO. */
static void retire(struct sig_obj *o)
{
  atomic_fetch_add(&o->gen, 1);
  if (atomic_load_explicit(&o->has_event, memory_order_relaxed)) {
    /* blocked waiters wake, see the signal gone and return */
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&o->waiters, memory_order_relaxed))
      kfd_event_set(sig_g.dev, o->event.id);
    detach_event(o);
  }
  __atomic_store_n(&o->amd->kind, (int64_t)AMD_SIGNAL_KIND_INVALID, __ATOMIC_RELEASE);
  atomic_store_explicit(&o->state, SIG_FREE, memory_order_release);
  fifo_push((o->flags & SIG_F_DOORBELL) ? &free_doorbell : &free_user, o);
}

hsa_status_t sig_obj_destroy(struct sig_obj *o)
{
  uint32_t live = SIG_LIVE;
  if (!atomic_compare_exchange_strong(&o->state, &live, SIG_DYING))
    return HSA_STATUS_ERROR_INVALID_SIGNAL;   /* someone else destroyed it first */
  if (o->flags & (SIG_F_IPC | SIG_F_ATTACHED)) {
    atomic_fetch_add(&o->gen, 1);
    sig_ipc_release(o);   /* outside the arena: its mapping is kept until shutdown */
    return HSA_STATUS_SUCCESS;
  }
  pthread_mutex_lock(&lock);
  retire(o);
  pthread_mutex_unlock(&lock);
  return HSA_STATUS_SUCCESS;
}

/* ---- API -------------------------------------------------------------------------------- */

hsa_status_t hsa_amd_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                                   const hsa_agent_t *consumers, uint64_t attributes,
                                   hsa_signal_t *signal)
{
  hsa_status_t st = sig_ensure_init();
  if (st != HSA_STATUS_SUCCESS)
    return st;
  if (!signal || (num_consumers && !consumers))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  bool has_cpu = false;
  for (uint32_t i = 0; i < num_consumers; i++) {
    const struct core_agent *a = core_agent_from_handle(consumers[i]);
    if (!a)
      return HSA_STATUS_ERROR_INVALID_AGENT;
    for (uint32_t j = 0; j < i; j++)
      if (consumers[j].handle == consumers[i].handle)
        return HSA_STATUS_ERROR_INVALID_ARGUMENT;   /* duplicates, as the spec says */
    has_cpu |= a->kind == CORE_AGENT_CPU;
  }
  bool ipc = attributes & HSA_AMD_SIGNAL_IPC;
  bool interrupt = !ipc && !(attributes & HSA_AMD_SIGNAL_AMD_GPU_ONLY) &&
                   (num_consumers == 0 || has_cpu);
  if (ipc)
    return sig_ipc_create(initial_value, signal);
  struct sig_obj *o = sig_obj_new(initial_value, interrupt ? SIG_F_INTERRUPT : 0, NULL, NULL);
  if (!o)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  *signal = sig_handle_of(o);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                               const hsa_agent_t *consumers, hsa_signal_t *signal)
{
  return hsa_amd_signal_create(initial_value, num_consumers, consumers, 0, signal);
}

hsa_status_t hsa_signal_destroy(hsa_signal_t signal)
{
  if (!core_runtime_is_open())
    return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!signal.handle)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;   /* the spec's answer for 0, and ROCR's */
  struct sig_obj *o = sig_obj_of(signal);
  if (!o || (o->flags & (SIG_F_INTERNAL | SIG_F_DOORBELL)))
    return HSA_STATUS_ERROR_INVALID_SIGNAL;   /* the runtime's own are not the user's to free */
  return sig_obj_destroy(o);
}

hsa_status_t hsa_amd_signal_value_pointer(hsa_signal_t signal,
                                          volatile hsa_signal_value_t **value_ptr)
{
  if (!core_runtime_is_open())
    return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!value_ptr)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct sig_obj *o = sig_obj_of(signal);
  if (!o)
    return HSA_STATUS_ERROR_INVALID_SIGNAL;
  /* as ROCR: only for polled signals, whose waiters need no event set on a change */
  if (o->flags & (SIG_F_INTERRUPT | SIG_F_DOORBELL))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *value_ptr = &o->amd->value;
  return HSA_STATUS_SUCCESS;
}

/* ---- internal users --------------------------------------------------------------------- */

hsa_status_t sig_create_internal(hsa_signal_value_t initial, bool interrupt, hsa_signal_t *out)
{
  hsa_status_t st = sig_ensure_init();
  if (st != HSA_STATUS_SUCCESS)
    return st;
  if (!out)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct sig_obj *o =
      sig_obj_new(initial, SIG_F_INTERNAL | (interrupt ? SIG_F_INTERRUPT : 0), NULL, NULL);
  if (!o)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  *out = sig_handle_of(o);
  return HSA_STATUS_SUCCESS;
}

void sig_destroy_internal(hsa_signal_t s)
{
  struct sig_obj *o = sig_obj_of(s);
  if (o)
    sig_obj_destroy(o);
}

hsa_status_t sig_doorbell_create(volatile uint64_t *doorbell, amd_queue_t *queue,
                                 hsa_signal_t *out)
{
  hsa_status_t st = sig_ensure_init();
  if (st != HSA_STATUS_SUCCESS)
    return st;
  if (!doorbell || !out)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct sig_obj *o = sig_obj_new(0, SIG_F_INTERNAL | SIG_F_DOORBELL, doorbell, queue);
  if (!o)
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  *out = sig_handle_of(o);
  return HSA_STATUS_SUCCESS;
}

/* ---- shutdown ------------------------------------------------------------------------- */

static void free_ipc(struct sig_obj *o)
{
  sig_ipc_release(o);
  sig_ipc_unmap(o);
  free(o);
}

void sig_shutdown(void)
{
  sig_async_stop();
  sig_groups_free();
  pthread_mutex_lock(&lock);
  /* Every signal still alive dies here like a destroyed one: its slot joins the quarantine
   * and its handle stays refused in the next runtime. The pages stay; their registration
   * with this runtime's driver goes. */
  uintptr_t used = atomic_load_explicit(&sig_arena_used, memory_order_relaxed);
  for (uintptr_t i = 0; i < used >> SIG_CHUNK_SHIFT; i++) {
    struct sig_chunk *c = sig_chunk_tab[i];
    for (uint32_t j = 0; j < c->handed; j++) {   /* the rest never held a signal */
      struct sig_obj *o = &c->objs[j];
      uint32_t live = SIG_LIVE;
      if (atomic_compare_exchange_strong(&o->state, &live, SIG_DYING))
        retire(o);
    }
    if (c->registered)
      mem_release(c->slots);
    c->registered = false;
  }
  for (uint32_t i = 0; i < event_count; i++)
    if (sig_g.dev)
      kfd_event_destroy(sig_g.dev, events[i].id);
  free(events);
  events = NULL;
  event_count = event_cap = 0;
  events_short = false;
  sig_ipc_reset(free_ipc);
  kfd_event_page_release();   /* the page itself stays: the KFD process keeps it */
  memset(&sig_g, 0, sizeof sig_g);
  pthread_mutex_unlock(&lock);
}
