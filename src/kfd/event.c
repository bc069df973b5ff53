/* SPDX-License-Identifier: MIT */
/* event.c — KFD events and the event page (see event.h). The page state is per process,
 * as the kernel's is; one mutex orders "page missing → first CREATE_EVENT → map". */
#include "kfd/event.h"

#include <kfd_abi/kfd_ioctl_supp.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

_Static_assert(KFD_EVENT_TYPE_SIGNAL == KFD_IOC_EVENT_SIGNAL, "SIGNAL");
_Static_assert(KFD_EVENT_TYPE_HW_EXCEPTION == KFD_IOC_EVENT_HW_EXCEPTION, "HW_EXCEPTION");
_Static_assert(KFD_EVENT_TYPE_MEMORY == KFD_IOC_EVENT_MEMORY, "MEMORY");
_Static_assert(KFD_WAIT_COMPLETE == KFD_IOC_WAIT_RESULT_COMPLETE, "COMPLETE");
_Static_assert(KFD_WAIT_TIMEOUT == KFD_IOC_WAIT_RESULT_TIMEOUT, "TIMEOUT");
_Static_assert(KFD_WAIT_FAIL == KFD_IOC_WAIT_RESULT_FAIL, "FAIL");

static pthread_mutex_t page_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t provided_handle;      /* a BO waiting to be handed over, 0 if none */
static void *provided_cpu;
static volatile uint64_t *page;       /* the event page once the kernel has one */
static size_t page_slots;
static bool page_mapped;              /* page is our mmap of the kernel's page */
static pid_t page_pid;                /* the process the page belongs to */

/* Called with page_lock held: a forked child has a new KFD process and no page. */
static void check_owner(void)
{
  if (page && page_pid != getpid()) {
    if (page_mapped)
      munmap((void *)(uintptr_t)page, KFD_EVENT_PAGE_SIZE);
    page = NULL;
    page_slots = 0;
    page_mapped = false;
  }
}

int kfd_event_page_provide(uint64_t bo_handle, void *cpu)
{
  if (!bo_handle || !cpu)
    return -EINVAL;
  pthread_mutex_lock(&page_lock);
  check_owner();
  int r = page ? -EBUSY : 0;
  if (!r) {
    provided_handle = bo_handle;
    provided_cpu = cpu;
  }
  pthread_mutex_unlock(&page_lock);
  return r;
}

volatile uint64_t *kfd_event_page(size_t *slots)
{
  pthread_mutex_lock(&page_lock);
  check_owner();
  volatile uint64_t *p = page;
  if (slots)
    *slots = page ? page_slots : 0;
  pthread_mutex_unlock(&page_lock);
  return p;
}

int kfd_event_create(const struct kfd_device *dev, uint32_t type, bool auto_reset,
                     uint32_t node_id, struct kfd_event *out)
{
  if (!dev || dev->fd < 0 || !out)
    return -EINVAL;
  struct kfd_ioctl_create_event_args a;
  memset(&a, 0, sizeof a);
  a.event_type = type;
  a.auto_reset = auto_reset ? 1 : 0;
  a.node_id = node_id;
  bool is_signal = type == KFD_IOC_EVENT_SIGNAL || type == KFD_IOC_EVENT_DEBUG_EVENT;

  /* Held across the ioctl so the first signal event hands over (or maps) the page once. */
  pthread_mutex_lock(&page_lock);
  check_owner();
  bool handing_over = is_signal && !page && provided_handle;
  if (handing_over)
    a.event_page_offset = provided_handle;
  int r = kfd_ioctl(dev->fd, AMDKFD_IOC_CREATE_EVENT, &a);
  if (r && !(type == KFD_IOC_EVENT_HW_EXCEPTION && r == -EINVAL))   /* a probe, not a failure */
    kfd_report("AMDKFD_IOC_CREATE_EVENT", r);
  if (r) {
    pthread_mutex_unlock(&page_lock);
    return r;
  }
  if (handing_over) {
    page = provided_cpu;
    page_pid = getpid();
    page_slots = KFD_SIGNAL_EVENT_LIMIT;
    provided_handle = 0;
    provided_cpu = NULL;
  } else if (is_signal && !page && a.event_page_offset) {
    void *m = mmap(NULL, KFD_EVENT_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd,
                   (off_t)a.event_page_offset);
    if (m == MAP_FAILED) {
      r = -errno;
      struct kfd_ioctl_destroy_event_args d = {.event_id = a.event_id};
      kfd_ioctl(dev->fd, AMDKFD_IOC_DESTROY_EVENT, &d);
      pthread_mutex_unlock(&page_lock);
      return r;
    }
    page = m;
    page_pid = getpid();
    page_slots = KFD_SIGNAL_EVENT_LIMIT;
    page_mapped = true;
  }
  memset(out, 0, sizeof *out);
  out->id = a.event_id;
  out->type = type;
  out->trigger_data = a.event_trigger_data;
  if (is_signal) {
    if (!page || a.event_slot_index >= page_slots) {
      /* a slot we cannot reach: the event is useless to the CP */
      struct kfd_ioctl_destroy_event_args d = {.event_id = a.event_id};
      kfd_ioctl(dev->fd, AMDKFD_IOC_DESTROY_EVENT, &d);
      pthread_mutex_unlock(&page_lock);
      return -EFAULT;
    }
    out->slot = a.event_slot_index;
    out->mailbox = page + a.event_slot_index;
  }
  pthread_mutex_unlock(&page_lock);
  return 0;
}

int kfd_event_destroy(const struct kfd_device *dev, uint32_t id)
{
  if (!dev || dev->fd < 0)
    return -EINVAL;
  struct kfd_ioctl_destroy_event_args a = {.event_id = id};
  return kfd_ioctl(dev->fd, AMDKFD_IOC_DESTROY_EVENT, &a);
}

int kfd_event_set(const struct kfd_device *dev, uint32_t id)
{
  if (!dev || dev->fd < 0)
    return -EINVAL;
  struct kfd_ioctl_set_event_args a = {.event_id = id};
  return kfd_ioctl(dev->fd, AMDKFD_IOC_SET_EVENT, &a);
}

int kfd_event_wait_data(const struct kfd_device *dev, struct kfd_event_data *data, uint32_t n,
                        bool all, uint32_t timeout_ms, uint32_t *result)
{
  if (result)
    *result = KFD_IOC_WAIT_RESULT_FAIL;
  if (!dev || dev->fd < 0 || !data || !n)
    return -EINVAL;
  struct kfd_ioctl_wait_events_args a;
  memset(&a, 0, sizeof a);
  a.events_ptr = (uint64_t)(uintptr_t)data;
  a.num_events = n;
  a.wait_for_all = all ? 1 : 0;
  a.timeout = timeout_ms;
  /* Not kfd_ioctl: a signal-interrupted wait must come back to the caller, which re-checks
   * its condition and its own deadline rather than restarting the full timeout. */
  int r = ioctl(dev->fd, AMDKFD_IOC_WAIT_EVENTS, &a) == 0 ? 0 : -errno;
  if (result)
    *result = r ? KFD_IOC_WAIT_RESULT_FAIL : a.wait_result;
  return r;
}

/* WAIT_EVENTS on ids; with ages (1.14), each signal event's last seen age goes in and the
 * ages of the events that were set come back. */
static int wait_ids(const struct kfd_device *dev, const uint32_t *ids, uint64_t *ages,
                    uint32_t n, bool all, uint32_t timeout_ms, uint32_t *result)
{
  if (result)
    *result = KFD_IOC_WAIT_RESULT_FAIL;
  if (!ids || !n)
    return -EINVAL;
  struct kfd_event_data small[8];
  struct kfd_event_data *d = n <= 8 ? small : calloc(n, sizeof *d);
  if (!d)
    return -ENOMEM;
  memset(d, 0, n * sizeof *d);
  for (uint32_t i = 0; i < n; i++) {
    d[i].event_id = ids[i];
    if (ages)
      kfd_supp_set_event_age(&d[i], ages[i]);
  }
  int r = kfd_event_wait_data(dev, d, n, all, timeout_ms, result);
  /* the kernel writes the age back only for the events that were set */
  for (uint32_t i = 0; ages && !r && i < n; i++)
    ages[i] = kfd_supp_event_age(&d[i]);
  if (d != small)
    free(d);
  return r;
}

int kfd_event_wait(const struct kfd_device *dev, const uint32_t *ids, uint32_t n, bool all,
                   uint32_t timeout_ms, uint32_t *result)
{
  return wait_ids(dev, ids, NULL, n, all, timeout_ms, result);
}

bool kfd_has_event_age(const struct kfd_device *dev)
{
  return dev->major == 1 && dev->minor >= 14;   /* event age came with 1.14 */
}

int kfd_event_wait_age(const struct kfd_device *dev, const uint32_t *ids, uint64_t *ages,
                       uint32_t n, uint32_t timeout_ms, uint32_t *result)
{
  if (!ages) {
    if (result)
      *result = KFD_IOC_WAIT_RESULT_FAIL;
    return -EINVAL;
  }
  return wait_ids(dev, ids, ages, n, false, timeout_ms, result);
}

void kfd_event_page_release(void)
{
  pthread_mutex_lock(&page_lock);
  provided_handle = 0;
  provided_cpu = NULL;
  pthread_mutex_unlock(&page_lock);
}
