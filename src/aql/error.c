/* SPDX-License-Identifier: MIT */
/* error.c — queue errors reach the queue's callback; the runtime survives them.
 *
 * Two sources:
 *  - queue_inactive_signal: the command processor writes a code into it and raises its
 *    interrupt. 0x1/0x400 ask for more scratch (scratch.c grows it and the queue goes on),
 *    512 gives a single-use scratch back; anything else is an error in a packet or a wave
 *    (codes as ROCR 5.2 reads them: 0x2 bad dimensions, 0x4 group segment, 0x8 no code,
 *    0x20/0x100 packet format, 0x40 group too large, 0x80 out of VGPRs, 0x20000000 memory
 *    violation, 0x40000000 illegal instruction, 0x80000000 debug trap). The last three come
 *    from our trap handler (trap.c), which also leaves the stopped wave's PC: the message
 *    names the kernel and the offset.
 *  - KFD memory exception events (a GPU page fault: the kernel does not say which queue);
 *    the handlers of hsa_amd_register_system_event_handler (sysevent.c) get them first.
 *
 * Policy (ROCR 5.2 aborts the process on a VM fault; we do not):
 *  - A fault on GPU X is reported as HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION (what later
 *    ROCR reports for a device memory violation) to every active queue of X: the kernel
 *    evicts all of the process's queues on a GPU that faulted, so none of them runs again
 *    (queues with work in flight are told first). A line like ROCR's "Memory access fault
 *    by GPU node-N ... on address 0x..." goes to stderr. The process, its memory, signals,
 *    CPU queues and other GPUs go on; new queues on X can be created and destroyed but the
 *    kernel does not run them.
 *  - A queue reports at most one error; it is then suspended (UPDATE_QUEUE with 0 percent,
 *    ROCR's Suspend) and stays so until destroyed. Other queues go on.
 *  - Without a callback, the error is printed on stderr and the process goes on (ROCR's
 *    default handler aborts).
 *  - The kernel keeps the queues of a faulted (or reset) GPU evicted until the process exits,
 *    across closing and reopening /dev/kfd. New queues there would never run, so
 *    hsa_queue_create on that GPU fails with OUT_OF_RESOURCES and says why, also after
 *    hsa_shut_down and a new hsa_init. */
#include "aql/internal.h"
#include "core/code_name.h"
#include "core/runtime.h"
#include "kfd/event.h"
#include "signals/signal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

hsa_status_t aql_cp_error_status(int64_t code) {
  if (code == 0) return HSA_STATUS_SUCCESS;
  if (code & 0x2) return HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS;
  if (code & 0x4) return HSA_STATUS_ERROR_INVALID_ALLOCATION;
  if (code & 0x8) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  if (code & (0x20 | 0x100)) return HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
  if (code & 0x40) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (code & 0x80) return (hsa_status_t)HSA_STATUS_ERROR_OUT_OF_REGISTERS;
  if (code & 0x20000000) return (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION;
  if (code & 0x40000000) return (hsa_status_t)HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION;
  if (code & 0x80000000) return HSA_STATUS_ERROR_EXCEPTION;
  return HSA_STATUS_ERROR;
}

void aql_report(struct aql_queue *q, hsa_status_t status) {
  if (atomic_exchange(&q->errored, true)) return;
  aql_suspend(q);
  if (q->callback) {
    q->callback(status, aql_handle(q), q->data);
    return;
  }
  const char *text = NULL;
  if (hsa_status_string(status, &text) != HSA_STATUS_SUCCESS) text = "unknown error";
  fprintf(stderr, "hsa-runtime64: queue %" PRIu64 " stopped: %s (no error callback was given)\n",
          q->amd->hsa_queue.id, text);
}

/* ---- queue_inactive_signal ----------------------------------------------------------- */
static void name_running(struct aql_queue *q, void *arg);

/* A wave our trap handler (trap.c) stopped: which instruction, in which kernel (for code
 * outside any kernel's, e.g. a called __assert_fail, the kernel the queue was running). */
static void say_where(struct aql_queue *q, int64_t code) {
  uint64_t pc;
  unsigned id;
  if (!(code & 0xe0000000) || !aql_trap_where(q, &pc, &id)) return;
  char what[64], name[384];
  if (code & 0x80000000)
    snprintf(what, sizeof(what), "s_trap %u%s", id,
             id == 2 ? " (llvm.trap: __builtin_trap, abort or a failed assert)" : "");
  else
    snprintf(what, sizeof(what), "%s",
             code & 0x40000000 ? "an illegal instruction" : "a memory violation");
  bool named = core_name_code(pc, name, sizeof(name));
  if (!named) snprintf(name, sizeof(name), "in no loaded code object");
  fprintf(stderr, "hsa-runtime64: queue %" PRIu64 ": a wave stopped at %s at 0x%" PRIx64
                  ": %s.\n", q->amd->hsa_queue.id, what, pc, name);
  if (strncmp(name, "kernel ", 7) != 0) name_running(q, NULL);
}

/* The queue whose handler runs on this thread: a callback destroying its own queue must not
 * wait for the handler it is called from. */
static _Thread_local struct aql_queue *in_handler;

static bool inactive_handler(hsa_signal_value_t value, void *arg) {
  struct aql_queue *q = arg;
  if (atomic_load(&q->handler_state) & AQL_HANDLER_TERMINATE) goto done;
  if (value == 512) {   /* the single-use scratch is free again */
    aql_scratch_reclaim(q);
    hsa_signal_store_screlease(q->inactive, 0);
    return true;
  }
  if (value & 0x401) {  /* a dispatch needs more scratch */
    hsa_status_t st = aql_scratch_grow(q, value);
    if (st == HSA_STATUS_SUCCESS) {
      hsa_signal_store_screlease(q->inactive, 0);   /* the CP goes on */
      return true;
    }
    in_handler = q;
    aql_report(q, st);
  } else {
    in_handler = q;
    say_where(q, value);
    aql_report(q, aql_cp_error_status(value));
  }
  if (!in_handler) return false;   /* the callback destroyed the queue: nothing is left */
  in_handler = NULL;
done:
  /* No more handling: tell a waiting destroy, and stay registered no longer. */
  atomic_fetch_or(&q->handler_state, AQL_HANDLER_DONE);
  hsa_signal_store_screlease(q->inactive, AQL_INACTIVE_DONE);
  return false;
}

/* Listed now, run by the async handler thread once the queue's first doorbell (or any wait
 * about to block) has started it: the CP's code waits in the signal until then. */
hsa_status_t aql_inactive_handler_start(struct aql_queue *q) {
  atomic_store(&q->handler_state, 0);
  return sig_async_handler_deferred(q->inactive, HSA_SIGNAL_CONDITION_NE, 0, inactive_handler, q);
}

void aql_inactive_handler_stop(struct aql_queue *q) {
  if (!q->inactive.handle) return;
  atomic_fetch_or(&q->handler_state, AQL_HANDLER_TERMINATE);
  if (in_handler == q) {   /* called from q's own error callback */
    in_handler = NULL;
    atomic_fetch_or(&q->handler_state, AQL_HANDLER_DONE);
    return;
  }
  if (sig_async_cancel(q->inactive, q)) {   /* never rung: the handler never ran, nor will */
    atomic_fetch_or(&q->handler_state, AQL_HANDLER_DONE);
    return;
  }
  while (!(atomic_load(&q->handler_state) & AQL_HANDLER_DONE)) {
    hsa_signal_store_screlease(q->inactive, AQL_INACTIVE_STOP);
    sig_wait(q->inactive, HSA_SIGNAL_CONDITION_NE, AQL_INACTIVE_STOP, 100000000ull);
  }
}

/* ---- GPU memory faults ------------------------------------------------------------------ */
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t watch_thread;
static bool watching;
static atomic_bool watch_stop;
static struct kfd_event mem_event, hw_event, wake_event;
static bool has_hw;
static bool spawned;         /* the watcher thread exists (joined by aql_fault_watch_stop) */
static unsigned watch_gen;   /* bumped by each stop: a start asked for before it is void */

struct fault {
  const struct core_agent *agent;
  hsa_status_t status;
  bool busy_only;
  unsigned hits;
};

static bool queue_busy(const struct aql_queue *q) {
  return __atomic_load_n(&q->amd->read_dispatch_id, __ATOMIC_ACQUIRE) <
         __atomic_load_n(&q->amd->write_dispatch_id, __ATOMIC_ACQUIRE);
}

static void fault_one(struct aql_queue *q, void *arg) {
  struct fault *f = arg;
  if (q->kind != AQL_GPU || !atomic_load(&q->active)) return;
  if (f->busy_only && !queue_busy(q)) return;
  f->hits++;
  aql_report(q, f->status);
}

static const struct core_agent *agent_of_gpu(uint32_t gpu_id) {
  struct core_runtime *rt = core_rt();
  for (unsigned i = 0; rt && i < rt->agent_count; i++)
    if (rt->agents[i]->kind == CORE_AGENT_GPU && rt->agents[i]->gpu_id == gpu_id)
      return rt->agents[i];
  return NULL;
}

/* GPUs the kernel stopped for this process, kept for the process's life (not the runtime's). */
#define STOPPED_MAX 64
static struct { uint32_t gpu_id; char why[160]; } stopped[STOPPED_MAX];
static unsigned stopped_count;
static pthread_mutex_t stopped_lock = PTHREAD_MUTEX_INITIALIZER;

static void mark_stopped(uint32_t gpu_id, const char *why) {
  pthread_mutex_lock(&stopped_lock);
  bool known = false;
  for (unsigned i = 0; i < stopped_count; i++) known |= stopped[i].gpu_id == gpu_id;
  if (!known && stopped_count < STOPPED_MAX) {
    stopped[stopped_count].gpu_id = gpu_id;
    snprintf(stopped[stopped_count].why, sizeof(stopped[0].why), "%s", why);
    stopped_count++;
  }
  pthread_mutex_unlock(&stopped_lock);
}

bool aql_gpu_stopped(uint32_t gpu_id, char *why, size_t why_size) {
  bool found = false;
  pthread_mutex_lock(&stopped_lock);
  for (unsigned i = 0; i < stopped_count && !found; i++)
    if (stopped[i].gpu_id == gpu_id) {
      found = true;
      if (why) snprintf(why, why_size, "%s", stopped[i].why);
    }
  pthread_mutex_unlock(&stopped_lock);
  return found;
}

/* Names the kernel each busy queue of the GPU is running (the dispatch at its read index):
 * the KFD's fault data has no PC, so this is how a user learns which kernel faulted. */
static void name_running(struct aql_queue *q, void *arg) {
  (void)arg;
  if (q->kind != AQL_GPU || !atomic_load(&q->active) || !queue_busy(q)) return;
  uint64_t rd = __atomic_load_n(&q->amd->read_dispatch_id, __ATOMIC_ACQUIRE);
  const hsa_kernel_dispatch_packet_t *p =
      (const hsa_kernel_dispatch_packet_t *)q->ring + (rd % q->amd->hsa_queue.size);
  uint16_t header = __atomic_load_n(&p->header, __ATOMIC_ACQUIRE);
  if (((header >> HSA_PACKET_HEADER_TYPE) & 0xff) != HSA_PACKET_TYPE_KERNEL_DISPATCH) return;
  char name[384];
  if (!core_name_code(p->kernel_object, name, sizeof(name)))
    snprintf(name, sizeof(name), "the kernel object at 0x%" PRIx64, p->kernel_object);
  fprintf(stderr, "hsa-runtime64:   queue %" PRIu64 " was running %s (dispatch %" PRIu64
                  ", grid %ux%ux%u).\n", q->amd->hsa_queue.id, name, rd, p->grid_size_x,
          p->grid_size_y, p->grid_size_z);
}

static void fault_on(uint32_t gpu_id, hsa_status_t status) {
  struct fault f = {agent_of_gpu(gpu_id), status, true, 0};
  if (!f.agent) return;
  aql_for_each(f.agent, fault_one, &f);   /* the likely culprits first */
  f.busy_only = false;
  aql_for_each(f.agent, fault_one, &f);   /* then the rest: all were evicted */
}

/* hsa_amd_memory_fault_reason_t bits of a kernel memory exception, as ROCR sets them */
static uint32_t fault_reasons(const struct kfd_hsa_memory_exception_data *m) {
  uint32_t r = 0;
  if (m->failure.NotPresent) r |= HSA_AMD_MEMORY_FAULT_PAGE_NOT_PRESENT;
  if (m->failure.ReadOnly) r |= HSA_AMD_MEMORY_FAULT_READ_ONLY;
  if (m->failure.NoExecute) r |= HSA_AMD_MEMORY_FAULT_NX;
  if (m->failure.imprecise) r |= HSA_AMD_MEMORY_FAULT_IMPRECISE;
  if (m->ErrorType == KFD_MEM_ERR_SRAM_ECC) r |= HSA_AMD_MEMORY_FAULT_SRAMECC;
  if (m->ErrorType == KFD_MEM_ERR_POISON_CONSUMED) r |= HSA_AMD_MEMORY_FAULT_DRAMECC;
  if (m->ErrorType == KFD_MEM_ERR_GPU_HANG) r |= (uint32_t)HSA_AMD_MEMORY_FAULT_HANG;
  return r;
}

static void *watch_main(void *arg) {
  (void)arg;
  struct core_runtime *rt = core_rt();
  const struct kfd_device dev = rt->kfd;
  while (!atomic_load(&watch_stop)) {
    struct kfd_event_data d[3];
    memset(d, 0, sizeof(d));
    d[0].event_id = mem_event.id;
    d[1].event_id = hw_event.id;
    d[2].event_id = wake_event.id;
    uint32_t n = has_hw ? 3 : 2;
    if (n == 2) d[1].event_id = wake_event.id;
    uint32_t result = 0;
    int rc = kfd_event_wait_data(&dev, d, n, false, KFD_EVENT_TIMEOUT_INFINITE, &result);
    if (atomic_load(&watch_stop)) break;
    if (rc || result != KFD_WAIT_COMPLETE) continue;
    const struct kfd_hsa_memory_exception_data *m = &d[0].memory_exception_data;
    if (m->gpu_id) {
      const struct core_agent *a = agent_of_gpu(m->gpu_id);
      hsa_amd_event_t ev;
      memset(&ev, 0, sizeof(ev));
      ev.event_type = HSA_AMD_GPU_MEMORY_FAULT_EVENT;
      if (a) ev.memory_fault.agent = core_agent_handle(a);
      ev.memory_fault.virtual_address = m->va;
      ev.memory_fault.fault_reason_mask = fault_reasons(m);
      bool handled = a && aql_system_event(&ev);
      const char *why = m->failure.NotPresent ? "Page not present or supervisor privilege."
                        : m->failure.ReadOnly ? "Write access to a read-only page."
                        : m->failure.NoExecute ? "Execute access to a non-executable page."
                                               : "Unknown.";
      if (!handled)
        fprintf(stderr, "hsa-runtime64: Memory access fault by GPU node-%u on address 0x%" PRIx64
                        "%s. Reason: %s The process's queues on that GPU are stopped.\n",
                a ? a->node_id : 0u, (uint64_t)m->va, m->failure.imprecise ? " (imprecise)" : "",
                why);
      char what[160];
      snprintf(what, sizeof(what), "a memory access fault on address 0x%" PRIx64,
               (uint64_t)m->va);
      mark_stopped(m->gpu_id, what);
      if (a) aql_for_each(a, name_running, NULL);
      fault_on(m->gpu_id, (hsa_status_t)HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION);
    }
    if (n == 3 && d[1].hw_exception_data.gpu_id) {
      const struct kfd_hsa_hw_exception_data *x = &d[1].hw_exception_data;
      const struct core_agent *a = agent_of_gpu(x->gpu_id);
      hsa_amd_event_t ev;
      memset(&ev, 0, sizeof(ev));
      ev.event_type = HSA_AMD_GPU_HW_EXCEPTION_EVENT;
      if (a) ev.hw_exception.agent = core_agent_handle(a);
      ev.hw_exception.reset_type = HSA_AMD_HW_EXCEPTION_RESET_TYPE_OTHER;
      ev.hw_exception.reset_cause = x->reset_cause == KFD_HW_EXCEPTION_ECC
                                        ? HSA_AMD_HW_EXCEPTION_CAUSE_ECC
                                        : HSA_AMD_HW_EXCEPTION_CAUSE_GPU_HANG;
      if (!(a && aql_system_event(&ev)))
        fprintf(stderr, "hsa-runtime64: GPU %u was reset; its queues are stopped.\n",
                d[1].hw_exception_data.gpu_id);
      mark_stopped(d[1].hw_exception_data.gpu_id, "a GPU reset");
      fault_on(d[1].hw_exception_data.gpu_id, HSA_STATUS_ERROR);
    }
  }
  return NULL;
}

/* On the async handler thread: the watcher asked for by aql_fault_watch_start, unless the
 * watch stopped (or stopped and started again) meanwhile. */
static void spawn_watcher(void *arg) {
  pthread_mutex_lock(&watch_lock);
  if (watching && !spawned && watch_gen == (unsigned)(uintptr_t)arg) {
    if (pthread_create(&watch_thread, NULL, watch_main, NULL) == 0)
      spawned = true;
    else
      fprintf(stderr, "hsa-runtime64: cannot start the thread that watches the GPU for faults; "
                      "a GPU memory fault will not be reported.\n");
  }
  pthread_mutex_unlock(&watch_lock);
}

hsa_status_t aql_fault_watch_start(void) {
  struct core_runtime *rt = core_rt();
  if (!rt || rt->kfd.fd < 0) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  /* The wake-up event below is a signal event: the event page must be ours by then. */
  hsa_status_t st = sig_ensure_init();
  if (st != HSA_STATUS_SUCCESS) return st;
  if (!sig_events_possible()) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  pthread_mutex_lock(&watch_lock);
  if (watching) goto out;
  st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  if (kfd_event_create(&rt->kfd, KFD_EVENT_TYPE_MEMORY, true, 0, &mem_event)) goto out;
  if (kfd_event_create(&rt->kfd, KFD_EVENT_TYPE_SIGNAL, true, 0, &wake_event)) {
    kfd_event_destroy(&rt->kfd, mem_event.id);
    goto out;
  }
  /* Optional where the kernel does not know the type (EINVAL); any other refusal (ENOMEM,
   * no event slots) is a failure, or GPU resets would go unreported. */
  int hw = kfd_event_create(&rt->kfd, KFD_EVENT_TYPE_HW_EXCEPTION, true, 0, &hw_event);
  has_hw = hw == 0;
  if (hw && hw != -EINVAL) {
    kfd_event_destroy(&rt->kfd, mem_event.id);
    kfd_event_destroy(&rt->kfd, wake_event.id);
    goto out;
  }
  atomic_store(&watch_stop, false);
  /* The events latch a fault until the watcher waits, and only GPU work faults: the async
   * handler thread creates the watcher once a doorbell (or a wait about to block) has
   * started it, and hsa_queue_create starts no thread. Directly when that cannot be. */
  if (sig_async_function_deferred(spawn_watcher, (void *)(uintptr_t)watch_gen) !=
      HSA_STATUS_SUCCESS) {
    if (pthread_create(&watch_thread, NULL, watch_main, NULL)) {
      kfd_event_destroy(&rt->kfd, mem_event.id);
      kfd_event_destroy(&rt->kfd, wake_event.id);
      if (has_hw) kfd_event_destroy(&rt->kfd, hw_event.id);
      goto out;
    }
    spawned = true;
  }
  watching = true;
  st = HSA_STATUS_SUCCESS;
out:
  pthread_mutex_unlock(&watch_lock);
  return st;
}

void aql_fault_watch_stop(void) {
  struct core_runtime *rt = core_rt();
  pthread_mutex_lock(&watch_lock);
  if (watching && rt) {
    atomic_store(&watch_stop, true);
    if (spawned) {
      kfd_event_set(&rt->kfd, wake_event.id);
      pthread_join(watch_thread, NULL);
    }
    spawned = false;
    watch_gen++;
    kfd_event_destroy(&rt->kfd, mem_event.id);
    kfd_event_destroy(&rt->kfd, wake_event.id);
    if (has_hw) kfd_event_destroy(&rt->kfd, hw_event.id);
    has_hw = false;
    watching = false;
  }
  pthread_mutex_unlock(&watch_lock);
}
