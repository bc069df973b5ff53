/* SPDX-License-Identifier: MIT */
/* event.h — KFD events: thin wrappers over AMDKFD_IOC_CREATE/DESTROY/SET/WAIT_EVENTS
 * and the process's event page (the slots the command processor writes an event id into
 * before it raises an interrupt; the driver then sets the event owning the slot).
 *
 * The event page is per process (per /dev/kfd open). On dGPUs the runtime supplies it: a
 * GTT buffer object of KFD_EVENT_PAGE_SIZE bytes, mapped on the GPUs, handed to the kernel
 * with the first CREATE_EVENT (kfd_event_page_provide before that). Without one the kernel
 * allocates the page itself and kfd_event_create maps it from /dev/kfd at the offset the
 * kernel returns. Either way a signal event's mailbox is page + slot * 8.
 * Thread-safe. Functions return 0 or -errno like kfd_ioctl. */
#ifndef KFD_EVENT_H
#define KFD_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/kfd_ioctl.h>

#include "kfd/kfd.h"

#define KFD_EVENT_PAGE_SIZE ((size_t)KFD_SIGNAL_EVENT_LIMIT * 8u)
#define KFD_EVENT_SLOT_UNSIGNALED UINT64_MAX   /* what the kernel writes into a free slot */
#define KFD_EVENT_TIMEOUT_INFINITE 0xffffffffu  /* WAIT_EVENTS timeout (ms) for "forever" */
/* Event types and wait results with the kernel's values (event.c checks them against
 * <linux/kfd_ioctl.h>): callers name no uapi constant. */
#define KFD_EVENT_TYPE_SIGNAL       0u
#define KFD_EVENT_TYPE_HW_EXCEPTION 3u
#define KFD_EVENT_TYPE_MEMORY       8u
#define KFD_WAIT_COMPLETE           0u
#define KFD_WAIT_TIMEOUT            1u
#define KFD_WAIT_FAIL               2u

/* Event types: KFD_IOC_EVENT_SIGNAL, _HW_EXCEPTION, _MEMORY, ... from <linux/kfd_ioctl.h>. */
struct kfd_event {
  uint32_t id;                  /* event_id, what WAIT/SET/RESET/DESTROY take */
  uint32_t type;                /* KFD_IOC_EVENT_* */
  uint32_t trigger_data;        /* event_trigger_data: what the CP writes into the mailbox */
  uint32_t slot;                /* signal events: slot index in the event page */
  volatile uint64_t *mailbox;   /* signal events: the slot's address (CPU = GPU VA), else NULL */
};

/* A GTT buffer object for the event page (at least KFD_EVENT_PAGE_SIZE bytes, mapped on every
 * GPU, `cpu` its address on CPU and GPU) that the next CREATE_EVENT hands to the kernel. Only
 * before the page exists; -EBUSY afterwards. The caller keeps owning the memory and must keep
 * it alive for the life of the process once the kernel has taken it. */
int kfd_event_page_provide(uint64_t bo_handle, void *cpu);
/* The event page's CPU address and slot count, NULL/0 before the first signal event. */
volatile uint64_t *kfd_event_page(size_t *slots);

/* AMDKFD_IOC_CREATE_EVENT on dev. node_id matters only for some types (0 otherwise).
 * Signal events get their slot and mailbox (mapping the kernel's page on first use). */
int kfd_event_create(const struct kfd_device *dev, uint32_t type, bool auto_reset,
                     uint32_t node_id, struct kfd_event *out);
int kfd_event_destroy(const struct kfd_device *dev, uint32_t id);
int kfd_event_set(const struct kfd_device *dev, uint32_t id);     /* signal events only */

/* AMDKFD_IOC_WAIT_EVENTS on n events (ids). all: every one must be set, else any.
 * timeout_ms: 0 polls, KFD_EVENT_TIMEOUT_INFINITE blocks. *result = KFD_WAIT_
 * COMPLETE / TIMEOUT / FAIL. Auto-reset events are consumed by the wait that sees them. */
int kfd_event_wait(const struct kfd_device *dev, const uint32_t *ids, uint32_t n, bool all,
                   uint32_t timeout_ms, uint32_t *result);
/* The same with the kernel's event data: data[i].event_id in, and for activated MEMORY /
 * HW_EXCEPTION events data[i].memory_exception_data / hw_exception_data out. */
int kfd_event_wait_data(const struct kfd_device *dev, struct kfd_event_data *data, uint32_t n,
                        bool all, uint32_t timeout_ms, uint32_t *result);

/* KFD 1.14 event age: a signal event counts its sets, and a wait given the count the caller
 * last saw (ages[i], 1 at first; 0 would mean "no age") returns at once when the event was set
 * since, so a set between the caller's look at its memory and the wait is never lost. Waits
 * for any of ids; ages are updated for the events that were set. Only where
 * kfd_has_event_age. */
bool kfd_has_event_age(const struct kfd_device *dev);
int kfd_event_wait_age(const struct kfd_device *dev, const uint32_t *ids, uint64_t *ages,
                       uint32_t n, uint32_t timeout_ms, uint32_t *result);

/* For hsa_shut_down: drops a provided page the kernel never took. The event page itself is
 * the KFD process's, which outlives /dev/kfd closes (the kernel refuses to free its BO), so
 * it stays known and mapped for the next open; a forked child starts without one. */
void kfd_event_page_release(void);

#endif
