/* SPDX-License-Identifier: MIT */
/* signal.h — HSA signals as amd_signal_t in GPU-visible memory, the handle users hold being
 * the address of that amd_signal_t (so the CP decrements handle + 8 and reads the event
 * mailbox at handle + 16, as hardware does). What other runtime modules need of them.
 *
 * Stale handles: slots live in an arena kept for the process and a destroyed slot is
 * quarantined (internal.h), so a destroyed or made-up handle is refused in O(1)
 * (INVALID_SIGNAL where there is a status). Calls without a status name it once on stderr
 * and do nothing: loads, exchanges and CAS return INT64_MAX, waits return at once with a
 * value failing their condition (stale.c). */
#ifndef SIGNALS_SIGNAL_H
#define SIGNALS_SIGNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "amd_hsa_queue.h"
#include "amd_hsa_signal.h"
#include "hsa.h"

/* The amd_signal_t behind a live handle, NULL for anything else (freed, foreign, 0). */
amd_signal_t *sig_from_handle(hsa_signal_t s);

/* A signal whose stores ring a queue's hardware doorbell (kind AMD_SIGNAL_KIND_DOORBELL):
 * hsa_signal_store_* on it write `doorbell` (the queue's slot in the mmapped doorbell page);
 * loads return the last value written. `queue` goes in queue_ptr. */
hsa_status_t sig_doorbell_create(volatile uint64_t *doorbell, amd_queue_t *queue,
                                 hsa_signal_t *out);
/* A user signal with an interrupt (KFD signal event and mailbox) the runtime uses for its own
 * completion tracking (queues' internal signals, copies). */
/* Sets up what signals need from the driver, the event page above all: the CP writes
 * interrupt signals' mailboxes there through GPUVM, so the runtime's page must reach the
 * kernel with the process's first signal event, before any other module creates one.
 * SUCCESS when ready, else an HSA status (NOT_INITIALIZED when the runtime is closed). */
hsa_status_t sig_ensure_init(void);
/* True when a signal event may be created now (see sig_ensure_init); retries the event page
 * when an earlier attempt was refused. */
bool sig_events_possible(void);
hsa_status_t sig_create_internal(hsa_signal_value_t initial, bool interrupt, hsa_signal_t *out);
void sig_destroy_internal(hsa_signal_t s);

/* The runtime's own async handlers and calls for what only GPU work can cause (a queue's
 * inactive signal, the fault watcher's start; async.c): listed now, run by the handler
 * thread, which they do not start. It starts at the first doorbell rung through a signal
 * store, the first wait about to block, any public registration, or sig_async_start_pending.
 * Same statuses as hsa_amd_signal_async_handler / hsa_amd_async_function. */
hsa_status_t sig_async_handler_deferred(hsa_signal_t signal, hsa_signal_condition_t cond,
                                        hsa_signal_value_t value,
                                        bool (*handler)(hsa_signal_value_t value, void *arg),
                                        void *arg);
hsa_status_t sig_async_function_deferred(void (*fn)(void *arg), void *arg);
/* Starts the handler thread now if deferred work waits for it (a failure is said once on
 * stderr and retried at the next call). */
void sig_async_start_pending(void);
/* While the handler thread has not started: drops the entries of (signal, arg) and returns
 * true (no handler call can be running or come). False once it runs: the caller must then
 * have its handler deregister itself. */
bool sig_async_cancel(hsa_signal_t signal, void *arg);

/* Waits like hsa_signal_wait_scacquire; timeout in nanoseconds (UINT64_MAX = forever). */
hsa_signal_value_t sig_wait(hsa_signal_t s, hsa_signal_condition_t cond,
                            hsa_signal_value_t value, uint64_t timeout_ns);

/* hsa_amd_signal_wait_any, BLOCKED, timeout in nanoseconds, for a runtime thread whose
 * signals[0] is its own (no other thread ever waits on it, and it has an event): while no
 * other thread waits on any of the signals it sleeps without waking up on its own, even
 * below KFD 1.14 (see wait.c). The index met, or UINT32_MAX on timeout or a dead signal. */
uint32_t sig_wait_any_lone(uint32_t n, const hsa_signal_t *signals,
                           const hsa_signal_condition_t *conds, const hsa_signal_value_t *values,
                           uint64_t timeout_ns);

/* At hsa_init, before any runtime thread exists: registers the process for the membarrier
 * that lets signal stores skip their fence (internal.h). Single-threaded, the kernel only
 * fences; with threads it waits a grace period (0.1-3 ms, asleep), which the first signal
 * event, usually in the first hsa_queue_create, would otherwise pay. */
void sig_open(void);

/* Frees every signal, stops the async handler thread (hsa_shut_down). */
void sig_shutdown(void);

#endif
