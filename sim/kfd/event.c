/* SPDX-License-Identifier: MIT */
/* event.c — KFD events: CREATE/DESTROY/SET/RESET/WAIT_EVENTS and the event page.
 * Signal events own the slot of the event page whose index is their id; the GPU writes a
 * slot and raises an interrupt, and the driver sets every event whose slot was written.
 * A dGPU runtime hands the driver its own page (a GTT buffer) with the first CREATE_EVENT;
 * otherwise the driver allocates one that the runtime maps through /dev/kfd. Each wait
 * blocks on a condition variable of its own with only the event lock held across the sleep,
 * never the process lock, and follows the kernel's waiter rules: setting an event wakes
 * that event's waiters only (the kernel's per-event wait queue; a process-wide broadcast
 * woke every thread blocked on any event at each completion), and an auto-reset event that
 * is set while someone waits wakes the waiters and stays unsignaled. */
#include "kfd/kfd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define EVENT_LIMIT KFD_SIGNAL_EVENT_LIMIT
#define PAGE_BYTES (EVENT_LIMIT * 8ull)
#define TIMEOUT_INFINITE 0xffffffffu

struct sim_event_waiter {
  struct sim_event_waiter *next;   /* in the event's list while waiting */
  struct sim_event *ev;            /* NULL once the event is destroyed */
  pthread_cond_t *wake;            /* its WAIT_EVENTS call's own, signalled with ev_lock held */
  bool activated;
  bool age_enabled;   /* 1.14: the caller gave the age it last saw */
};

static struct sim_event *event_find(struct sim_kfd_process *p, uint32_t id)
{
  for (struct sim_event *e = p->events; e; e = e->next)
    if (e->id == id)
      return e;
  return NULL;
}

static bool is_signal(const struct sim_event *e)
{
  return e->type == KFD_IOC_EVENT_SIGNAL || e->type == KFD_IOC_EVENT_DEBUG_EVENT;
}

/* The user's own page: a GTT buffer named by its handle (kfd_kmap_event_page). */
static int use_user_page(struct sim_kfd_process *p, uint64_t handle)
{
  if (p->signal_page)
    return -EINVAL;   /* the event page is already set */
  pthread_mutex_lock(&p->lock);
  int r = 0;
  struct sim_pdd *pdd = sim_pdd_by_id(p, (uint32_t)(handle >> 32));
  struct sim_bo *bo = NULL;
  if (!pdd)
    r = -EINVAL;
  else if ((r = sim_pdd_bind(pdd)) == 0) {
    bo = sim_bo_lookup(p, handle);
    /* the kernel maps it into its own address space: only a GTT buffer qualifies */
    if (!bo || !(bo->flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT))
      r = -EINVAL;
  }
  if (!r) {
    bo->is_event_page = true;
    p->signal_page = bo->host;
    p->signal_mapped_size = bo->bo_size < PAGE_BYTES ? bo->bo_size : PAGE_BYTES;
    p->signal_handle = handle;
  }
  pthread_mutex_unlock(&p->lock);
  return r;
}

static int own_page(struct sim_kfd_process *p)
{
  if (p->signal_page)
    return 0;
  void *host;
  pthread_mutex_lock(&p->lock);
  int r = sim_store_alloc(p, PAGE_BYTES, &p->signal_off, &host);
  pthread_mutex_unlock(&p->lock);
  if (r)
    return r;
  memset(host, 0xff, PAGE_BYTES);   /* every slot unsignaled */
  p->signal_page = host;
  p->signal_own = true;
  p->signal_mapped_size = 256 * 8;   /* what the oldest runtimes map, until mmap says more */
  return 0;
}

int sim_kfd_create_event(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_create_event_args *a = data;
  int r = 0;
  pthread_mutex_lock(&p->ev_lock);
  if (a->event_page_offset && (r = use_user_page(p, a->event_page_offset)) != 0)
    goto out;
  struct sim_event *e = calloc(1, sizeof *e);
  if (!e) {
    r = -ENOMEM;
    goto out;
  }
  e->type = a->event_type;
  e->auto_reset = a->auto_reset != 0;
  e->age = 1;
  a->event_page_offset = 0;
  if (is_signal(e)) {
    if (p->signal_mapped_size && p->signal_count == p->signal_mapped_size / 8) {
      free(e);
      r = -ENOSPC;   /* every mapped slot is taken */
      goto out;
    }
    if ((r = own_page(p)) != 0) {
      free(e);
      goto out;
    }
    uint32_t id = 0, lim = (uint32_t)(p->signal_mapped_size / 8);
    while (id < lim && event_find(p, id))
      id++;
    if (id >= lim) {
      free(e);
      r = -ENOSPC;
      goto out;
    }
    e->id = id;
    __atomic_store_n(&p->signal_page[id], SIM_UNSIGNALED_SLOT, __ATOMIC_RELEASE);
    p->signal_count++;
    a->event_page_offset = SIM_MMAP_TYPE_EVENTS;
    a->event_slot_index = id;
  } else {
    uint32_t id = p->next_other_event;
    while (event_find(p, id))
      id = id == 0x7fffffffu ? SIM_FIRST_NONSIGNAL_EVENT_ID : id + 1;
    p->next_other_event = id == 0x7fffffffu ? SIM_FIRST_NONSIGNAL_EVENT_ID : id + 1;
    e->id = id;
  }
  e->next = p->events;
  p->events = e;
  a->event_id = e->id;
  a->event_trigger_data = e->id;
out:
  pthread_mutex_unlock(&p->ev_lock);
  return r;
}

int sim_kfd_destroy_event(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_destroy_event_args *a = data;
  int r = -EINVAL;
  pthread_mutex_lock(&p->ev_lock);
  for (struct sim_event **link = &p->events; *link; link = &(*link)->next) {
    struct sim_event *e = *link;
    if (e->id != a->event_id)
      continue;
    *link = e->next;
    for (struct sim_event_waiter *w = e->waiters; w; w = w->next) {
      w->ev = NULL;   /* its waiters fail */
      pthread_cond_signal(w->wake);
    }
    if (is_signal(e))
      p->signal_count--;
    free(e);
    r = 0;
    break;
  }
  pthread_mutex_unlock(&p->ev_lock);
  return r;
}

/* Called with ev_lock held. */
static void set_event(struct sim_kfd_process *p, struct sim_event *e)
{
  /* an auto-reset event that wakes someone is consumed by that wake-up */
  e->signaled = !e->auto_reset || !e->waiters;
  if (++e->age == 0)
    e->age = 2;   /* 0 means "no age" and 1 is where every event starts */
  /* as the kernel's per-event wait queue: only this event's waiters wake */
  for (struct sim_event_waiter *w = e->waiters; w; w = w->next) {
    w->activated = true;
    pthread_cond_signal(w->wake);
  }
}

int sim_kfd_set_event(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_set_event_args *a = data;
  pthread_mutex_lock(&p->ev_lock);
  struct sim_event *e = event_find(p, a->event_id);
  int r = e && e->type == KFD_IOC_EVENT_SIGNAL ? 0 : -EINVAL;   /* only signal events */
  if (!r)
    set_event(p, e);
  pthread_mutex_unlock(&p->ev_lock);
  return r;
}

int sim_kfd_reset_event(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_reset_event_args *a = data;
  pthread_mutex_lock(&p->ev_lock);
  struct sim_event *e = event_find(p, a->event_id);
  int r = e && e->type == KFD_IOC_EVENT_SIGNAL ? 0 : -EINVAL;
  if (!r)
    e->signaled = false;
  pthread_mutex_unlock(&p->ev_lock);
  return r;
}

void sim_kfd_signal_interrupt(uint32_t event_id)
{
  struct sim_kfd_process *p = sim_kfd_current();
  if (!p)
    return;
  pthread_mutex_lock(&p->ev_lock);
  uint64_t *slots = p->signal_page;
  struct sim_event *e = event_find(p, event_id);
  if (slots && e && is_signal(e) && event_id < p->signal_mapped_size / 8 &&
      __atomic_load_n(&slots[event_id], __ATOMIC_ACQUIRE) != SIM_UNSIGNALED_SLOT) {
    __atomic_store_n(&slots[event_id], SIM_UNSIGNALED_SLOT, __ATOMIC_RELEASE);
    set_event(p, e);
  } else if (slots) {
    /* the id is not trustworthy: scan every signal event's slot */
    for (e = p->events; e; e = e->next)
      if (is_signal(e) && e->id < p->signal_mapped_size / 8 &&
          __atomic_load_n(&slots[e->id], __ATOMIC_ACQUIRE) != SIM_UNSIGNALED_SLOT) {
        __atomic_store_n(&slots[e->id], SIM_UNSIGNALED_SLOT, __ATOMIC_RELEASE);
        set_event(p, e);
      }
  }
  pthread_mutex_unlock(&p->ev_lock);
}

static uint32_t wait_condition(bool all, uint32_t n, const struct sim_event_waiter *w)
{
  uint32_t activated = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (!w[i].ev)
      return KFD_IOC_WAIT_RESULT_FAIL;
    if (w[i].activated) {
      if (!all)
        return KFD_IOC_WAIT_RESULT_COMPLETE;
      activated++;
    }
  }
  return activated == n ? KFD_IOC_WAIT_RESULT_COMPLETE : KFD_IOC_WAIT_RESULT_TIMEOUT;
}

static void unlink_waiter(struct sim_event_waiter *w)
{
  if (!w->ev)
    return;
  for (struct sim_event_waiter **l = &w->ev->waiters; *l; l = &(*l)->next)
    if (*l == w) {
      *l = w->next;
      break;
    }
}

/* Memory and hardware exception events carry data back to the waiter. */
static int copy_event_data(uint32_t n, const struct sim_event_waiter *w, uint64_t user)
{
  for (uint32_t i = 0; i < n; i++) {
    const struct sim_event *e = w[i].ev;
    if (!e)
      continue;
    uint64_t dst = user + (uint64_t)i * sizeof(struct kfd_event_data);
    if (e->type == KFD_IOC_EVENT_MEMORY && w[i].activated) {
      if (sim_copy_to_user(dst + offsetof(struct kfd_event_data, memory_exception_data),
                           &e->mem_exc, sizeof e->mem_exc))
        return -EFAULT;
    } else if (e->type == KFD_IOC_EVENT_HW_EXCEPTION && w[i].activated) {
      if (sim_copy_to_user(dst + offsetof(struct kfd_event_data, hw_exception_data),
                           &e->hw_exc, sizeof e->hw_exc))
        return -EFAULT;
    } else if (e->type == KFD_IOC_EVENT_SIGNAL && w[i].activated && w[i].age_enabled) {
      /* the age goes where the union begins (signal_event_data.last_event_age) */
      if (sim_copy_to_user(dst + offsetof(struct kfd_event_data, memory_exception_data),
                           &e->age, sizeof e->age))
        return -EFAULT;
    }
  }
  return 0;
}

int sim_kfd_wait_events(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_wait_events_args *a = data;
  uint32_t n = a->num_events;
  bool all = a->wait_for_all != 0;
  int r = 0;
  struct sim_event_waiter *w = calloc(n ? n : 1, sizeof *w);
  if (!w) {
    a->wait_result = KFD_IOC_WAIT_RESULT_FAIL;
    return -ENOMEM;
  }
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  if (a->timeout != TIMEOUT_INFINITE) {
    deadline.tv_sec += a->timeout / 1000;
    deadline.tv_nsec += (long)(a->timeout % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
      deadline.tv_sec++;
      deadline.tv_nsec -= 1000000000L;
    }
  }

  pthread_cond_t wake;   /* one sleeping thread: this call's */
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&wake, &ca);
  pthread_condattr_destroy(&ca);
  pthread_mutex_lock(&p->ev_lock);
  uint32_t inited = 0;
  for (; inited < n; inited++) {
    struct kfd_event_data ed;
    if (sim_copy_from_user(&ed, a->events_ptr + (uint64_t)inited * sizeof ed, sizeof ed)) {
      r = -EFAULT;
      break;
    }
    struct sim_event *e = event_find(p, ed.event_id);
    if (!e) {
      r = -EINVAL;
      break;
    }
    w[inited].ev = e;
    w[inited].wake = &wake;
    w[inited].activated = e->signaled;
    e->signaled = e->signaled && !e->auto_reset;   /* an auto-reset event is consumed here */
    /* 1.14: a signal event set since the age the caller last saw counts as signaled now, so
     * a set that came between the caller's look at its memory and this wait is not lost */
    uint64_t seen = kfd_supp_event_age(&ed);
    if (sim_kfd_level() >= 14 && e->type == KFD_IOC_EVENT_SIGNAL && seen) {
      w[inited].age_enabled = true;
      if (seen != e->age)
        w[inited].activated = true;
    }
    if (!w[inited].activated) {
      w[inited].next = e->waiters;
      e->waiters = &w[inited];
    }
  }
  uint32_t result = KFD_IOC_WAIT_RESULT_FAIL;
  if (!r) {
    for (;;) {
      result = wait_condition(all, n, w);
      if (result != KFD_IOC_WAIT_RESULT_TIMEOUT || a->timeout == 0)
        break;
      int t = a->timeout == TIMEOUT_INFINITE
                  ? pthread_cond_wait(&wake, &p->ev_lock)
                  : pthread_cond_timedwait(&wake, &p->ev_lock, &deadline);
      if (t == ETIMEDOUT) {
        result = wait_condition(all, n, w);
        break;
      }
    }
    if (result == KFD_IOC_WAIT_RESULT_COMPLETE)
      r = copy_event_data(n, w, a->events_ptr);
  }
  for (uint32_t i = 0; i < inited; i++)
    unlink_waiter(&w[i]);
  pthread_mutex_unlock(&p->ev_lock);
  pthread_cond_destroy(&wake);
  free(w);
  if (r)
    result = KFD_IOC_WAIT_RESULT_FAIL;
  else if (result == KFD_IOC_WAIT_RESULT_FAIL)
    r = -EIO;   /* an event was destroyed under the waiter */
  a->wait_result = result;
  return r;
}

void *sim_event_mmap(struct sim_kfd_process *p, void *addr, size_t len, int prot, int flags,
                     int *err)
{
  if (len > PAGE_BYTES) {   /* larger than the page's allocation order */
    *err = EINVAL;
    return MAP_FAILED;
  }
  pthread_mutex_lock(&p->ev_lock);
  void *m = MAP_FAILED;
  if (!p->signal_page || !p->signal_own) {
    *err = EINVAL;   /* no driver-allocated page to map */
  } else {
    m = sim_sys_mmap(addr, len, prot, flags, p->store_fd, (off_t)p->signal_off, err);
    if (m != MAP_FAILED)
      p->signal_mapped_size = SIM_PAGE_ALIGN(len);
  }
  pthread_mutex_unlock(&p->ev_lock);
  return m;
}

/* Added by sim/cp: a GPU VM fault of this process, as the kernel reports one on gfx9
 * (kfd_signal_vm_fault_event): the process's queues on that GPU are evicted, and every
 * memory exception event gets the page address, the GPU and the failure flags, and is set. */
void sim_kfd_vm_fault_event(struct sim_gpu *gpu, uint64_t va, bool not_present, bool write)
{
  struct sim_kfd_process *p = sim_kfd_current();
  if (!p)
    return;
  sim_kfd_evict_queues(p, gpu);
  struct kfd_hsa_memory_exception_data d;
  memset(&d, 0, sizeof d);
  d.va = va & ~(SIM_PAGE - 1);
  d.gpu_id = gpu->gpu_id;
  d.failure.NotPresent = not_present;
  d.failure.ReadOnly = !not_present && write;
  sim_smi_vm_fault(gpu);
  pthread_mutex_lock(&p->ev_lock);
  for (struct sim_event *e = p->events; e; e = e->next)
    if (e->type == KFD_IOC_EVENT_MEMORY) {
      e->mem_exc = d;
      set_event(p, e);
    }
  pthread_mutex_unlock(&p->ev_lock);
}

/* Added by sim/cp: the driver reset a hung GPU (kfd_signal_reset_event): the reset ends
 * every queue of the process on the GPU, and every HW exception event of the process learns
 * the GPU, a whole-GPU reset caused by a hang, and that memory may be lost (what the kernel
 * always says of a reset), and is set. */
void sim_kfd_gpu_reset_event(struct sim_gpu *gpu)
{
  struct sim_kfd_process *p = sim_kfd_current();
  if (!p)
    return;
  sim_kfd_evict_queues(p, gpu);
  struct kfd_hsa_hw_exception_data d;
  memset(&d, 0, sizeof d);
  d.reset_type = KFD_HW_EXCEPTION_WHOLE_GPU_RESET;
  d.reset_cause = KFD_HW_EXCEPTION_GPU_HANG;
  d.memory_lost = 1;
  d.gpu_id = gpu->gpu_id;
  sim_smi_gpu_reset(gpu, false);
  pthread_mutex_lock(&p->ev_lock);
  for (struct sim_event *e = p->events; e; e = e->next)
    if (e->type == KFD_IOC_EVENT_HW_EXCEPTION) {
      e->hw_exc = d;
      set_event(p, e);
    }
  pthread_mutex_unlock(&p->ev_lock);
  sim_smi_gpu_reset(gpu, true);
}

/* Added by sim/cp: a compute queue's micro engine met a command it cannot run (the CP's
 * bad-opcode interrupt). Linux 6.1 sets every HW exception event of the process
 * (kfd_signal_hw_exception_event) without filling their data; with none, it only logs. */
void sim_kfd_hw_exception_signal(void)
{
  struct sim_kfd_process *p = sim_kfd_current();
  if (!p)
    return;
  pthread_mutex_lock(&p->ev_lock);
  for (struct sim_event *e = p->events; e; e = e->next)
    if (e->type == KFD_IOC_EVENT_HW_EXCEPTION)
      set_event(p, e);
  pthread_mutex_unlock(&p->ev_lock);
}
