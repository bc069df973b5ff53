/* signal.c — signal records and handles: chunks of amd_signal_t in GPU-visible memory, the
 * lock-free handle check, create/destroy (API and internal), doorbell signals, shutdown.
 * Interrupt signals (ROCR's rule: interrupts enabled, not GPU-only or IPC, and no consumer
 * list or one that names a CPU) carry a KFD signal event; the event stays with the slot when
 * the signal is destroyed, so the next interrupt signal there reuses it without ioctls. */
#include "signals/internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/mem.h"

#define CHUNK_SIGNALS 256u

struct sig_state sig_g;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;   /* chunks, free list, init */
struct sig_chunk *sig_chunks[SIG_MAX_CHUNKS];
_Atomic uint32_t sig_chunk_count;
/* Doorbell slots only ever hold doorbell signals, so a stale handle of one never finds a
 * plain value where the doorbell pointer was (the two share a union). */
static struct sig_obj *free_list, *free_doorbells;
static bool events_short;   /* the event page is full: reuse free slots that have an event */

static bool env_interrupts(void)
{
  const char *e = getenv("HSA_ENABLE_INTERRUPT");
  return !(e && e[0] == '0' && e[1] == '\0');
}

hsa_status_t sig_ensure_init(void)
{
  if (!core_runtime_is_open())
    return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (__atomic_load_n(&sig_g.ready, __ATOMIC_ACQUIRE))
    return HSA_STATUS_SUCCESS;
  pthread_mutex_lock(&lock);
  if (!sig_g.ready) {
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
    __atomic_store_n(&sig_g.ready, true, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&lock);
  return HSA_STATUS_SUCCESS;
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

/* Called with lock held. */
static bool add_chunk(amd_signal_t *base, uint32_t count, struct sig_obj *objs, bool own)
{
  uint32_t n = atomic_load_explicit(&sig_chunk_count, memory_order_relaxed);
  if (n == SIG_MAX_CHUNKS)
    return false;
  struct sig_chunk *c = calloc(1, sizeof *c);
  if (!c)
    return false;
  c->base = base;
  c->count = count;
  c->objs = objs;
  c->own_mapping = own;
  for (uint32_t i = 0; i < count; i++) {
    objs[i].amd = &base[i];
    objs[i].ipc_fd = -1;
  }
  sig_chunks[n] = c;
  atomic_store_explicit(&sig_chunk_count, n + 1, memory_order_release);
  return true;
}

/* Called with lock held: a fresh chunk onto a free list. */
static bool grow(struct sig_obj **list)
{
  amd_signal_t *base = mem_system(CHUNK_SIGNALS * sizeof(amd_signal_t), 4096,
                                  MEM_F_UNCACHED | MEM_F_ZERO);
  struct sig_obj *objs = calloc(CHUNK_SIGNALS, sizeof *objs);
  if (!base || !objs || !add_chunk(base, CHUNK_SIGNALS, objs, false)) {
    mem_release(base);
    free(objs);
    return false;
  }
  memset(base, 0, CHUNK_SIGNALS * sizeof(amd_signal_t));
  for (uint32_t i = CHUNK_SIGNALS; i-- > 0;) {
    objs[i].next_free = *list;
    *list = &objs[i];
  }
  return true;
}

/* Gives o an event when it asked for one and can have one. Called with lock held. */
static void attach_event(struct sig_obj *o)
{
  if (!(o->flags & SIG_F_INTERRUPT))
    return;
  if (!o->has_event && sig_g.interrupts && !events_short) {
    int r = kfd_event_create(sig_g.dev, KFD_IOC_EVENT_SIGNAL, true, 0, &o->event);
    if (r == 0)
      o->has_event = true;
    else if (r == -ENOSPC)
      events_short = true;   /* every slot has an event (kept by its signal slot) */
  }
  if (!o->has_event) {
    o->flags &= ~(uint32_t)SIG_F_INTERRUPT;   /* out of events: a polled signal, as ROCR */
    return;
  }
  o->amd->event_mailbox_ptr = (uint64_t)(uintptr_t)o->event.mailbox;
  o->amd->event_id = o->event.id;
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
  struct sig_obj **list = db ? &free_doorbells : &free_list;
  pthread_mutex_lock(&lock);
  if (!*list && !grow(list)) {
    pthread_mutex_unlock(&lock);
    return NULL;
  }
  struct sig_obj **pick = list;
  if (events_short && (flags & SIG_F_INTERRUPT)) {
    /* events are scarce: a free slot that kept one serves an interrupt signal best */
    for (struct sig_obj **l = list; *l; l = &(*l)->next_free)
      if ((*l)->has_event) {
        pick = l;
        break;
      }
  }
  struct sig_obj *o = *pick;
  *pick = o->next_free;
  o->next_free = NULL;
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
  struct sig_obj *o = calloc(1, sizeof *o);
  if (!o)
    return NULL;
  pthread_mutex_lock(&lock);
  bool ok = add_chunk(amd, 1, o, map != NULL);
  pthread_mutex_unlock(&lock);
  if (!ok) {
    free(o);
    return NULL;
  }
  o->flags = flags;
  o->ipc_fd = fd;
  o->ipc_map = map;
  o->ipc_size = size;
  o->ipc_bo = bo;
  atomic_store_explicit(&o->state, SIG_LIVE, memory_order_release);
  return o;
}

void sig_notify(struct sig_obj *o)
{
  if (!o->has_event)
    return;
  /* pairs with the waiter's fence between counting itself and re-reading the value */
  atomic_thread_fence(memory_order_seq_cst);
  if (atomic_load_explicit(&o->waiters, memory_order_relaxed))
    kfd_event_set(sig_g.dev, o->event.id);
}

hsa_status_t sig_obj_destroy(struct sig_obj *o)
{
  uint32_t live = SIG_LIVE;
  if (!atomic_compare_exchange_strong(&o->state, &live, SIG_DYING))
    return HSA_STATUS_ERROR_INVALID_SIGNAL;   /* someone else destroyed it first */
  atomic_fetch_add(&o->gen, 1);
  if (o->has_event) {
    /* blocked waiters wake, see the signal gone and return */
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&o->waiters, memory_order_relaxed))
      kfd_event_set(sig_g.dev, o->event.id);
  }
  if (o->flags & (SIG_F_IPC | SIG_F_ATTACHED)) {
    sig_ipc_release(o);   /* its own chunk: never reused, its mapping kept until shutdown */
    return HSA_STATUS_SUCCESS;
  }
  __atomic_store_n(&o->amd->kind, (int64_t)AMD_SIGNAL_KIND_INVALID, __ATOMIC_RELEASE);
  pthread_mutex_lock(&lock);
  atomic_store_explicit(&o->state, SIG_FREE, memory_order_release);
  struct sig_obj **list = (o->flags & SIG_F_DOORBELL) ? &free_doorbells : &free_list;
  o->next_free = *list;
  *list = o;
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

/* ---- shutdown --------------------------------------------------------------------------- */

void sig_shutdown(void)
{
  sig_async_stop();
  sig_groups_free();
  pthread_mutex_lock(&lock);
  uint32_t n = atomic_load_explicit(&sig_chunk_count, memory_order_relaxed);
  atomic_store_explicit(&sig_chunk_count, 0, memory_order_release);   /* every handle now foreign */
  for (uint32_t i = 0; i < n; i++) {
    struct sig_chunk *c = sig_chunks[i];
    for (uint32_t j = 0; j < c->count; j++) {
      struct sig_obj *o = &c->objs[j];
      if (o->has_event && sig_g.dev)
        kfd_event_destroy(sig_g.dev, o->event.id);
      sig_ipc_release(o);
    }
    if (c->own_mapping)
      sig_ipc_unmap(&c->objs[0]);
    else
      mem_release(c->base);
    free(c->objs);
    free(c);
    sig_chunks[i] = NULL;
  }
  free_list = free_doorbells = NULL;
  events_short = false;
  kfd_event_page_release();   /* the page itself stays: the KFD process keeps it */
  memset(&sig_g, 0, sizeof sig_g);
  pthread_mutex_unlock(&lock);
}
