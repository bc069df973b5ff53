/* SPDX-License-Identifier: MIT */
/* debug.c — the debugger interface of KFD 1.13 as far as a runtime and a debugger of the same
 * process use it (kfd_ioctl_runtime_enable, kfd_ioctl_set_debug_trap):
 * - RUNTIME_ENABLE with the enable bit: refused with EBUSY when already enabled, EEXIST once
 *   the process has a queue; records the runtime's _amdgpu_r_debug address and whether trap
 *   temporaries are to be set up. Without it: disabled again (always succeeds).
 * - DBG_TRAP: pid names the debugged process. The model holds one process per simulator, so
 *   another live pid cannot be reached: EPERM unless the caller ptraces it (the kernel's check),
 *   and ESRCH for a pid with no process. On the caller itself: ENABLE (EALREADY when enabled)
 *   takes a dup of the debugger's event file and copies the runtime info (kfd_runtime_info,
 *   at most rinfo_size bytes; the full size comes back); DISABLE drops it; any other op before
 *   ENABLE is EINVAL; the queue and wave ops need the runtime enabled (EPERM otherwise).
 *   SET_EXCEPTIONS_ENABLED and SET_FLAGS are recorded; QUERY_DEBUG_EVENT has nothing pending
 *   (EAGAIN); the snapshots report no entries; what the model cannot do (suspending waves,
 *   launch modes, address watches) is EOPNOTSUPP, not a pretended success.
 * The hardware side of TTMP setup (trap temporaries at wave launch) is not modelled.
 * - A wave's SQ interrupt from inside a trap handler (sim_kfd_wave_interrupt) with a trap code
 *   in data[23:10] (kfd_set_dbg_ev_from_interrupt): with a debugger whose exception mask takes
 *   the code, a byte on its event file (the queue's exception status it would query is not
 *   kept); else, with the runtime enabled and a queue wave code (EC 1..6: abort, trap, math,
 *   illegal instruction, memory and aperture violation), the code is ORed into the 64-bit
 *   error payload the queue's CWSR header names (err_payload_addr) and the header's
 *   err_event_id is set, as kfd_send_exception_to_runtime does; otherwise the data is an event
 *   id as for any SQ interrupt. */
#include "kfd/kfd.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int sim_kfd_runtime_enable(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_runtime_enable_args *a = data;
  int r = 0;
  pthread_mutex_lock(&p->lock);
  if (a->mode_mask & KFD_RUNTIME_ENABLE_MODE_ENABLE_MASK) {
    if (p->runtime.runtime_state != DEBUG_RUNTIME_STATE_DISABLED)
      r = -EBUSY;
    else if (p->queues)
      r = -EEXIST;   /* enabling is only allowed while the process has no queue */
    if (!r) {
      p->runtime.runtime_state = DEBUG_RUNTIME_STATE_ENABLED;
      p->runtime.r_debug = a->r_debug;
      p->runtime.ttmp_setup = (a->mode_mask & KFD_RUNTIME_ENABLE_MODE_TTMP_SAVE_MASK) != 0;
    }
  } else {
    p->runtime.runtime_state = DEBUG_RUNTIME_STATE_DISABLED;
    p->runtime.r_debug = 0;
    p->runtime.ttmp_setup = 0;
  }
  pthread_mutex_unlock(&p->lock);
  return r;
}

/* Is pid ptraced by this process? (/proc/PID/status: TracerPid) */
static bool traced_by_us(uint32_t pid)
{
  char path[64], line[128];
  snprintf(path, sizeof path, "/proc/%u/status", pid);
  FILE *f = fopen(path, "r");
  if (!f)
    return false;
  long tracer = 0;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "TracerPid: %ld", &tracer) == 1)
      break;
  fclose(f);
  return tracer == (long)getpid();
}

static int trap_enable(struct sim_kfd_process *p, struct kfd_ioctl_dbg_trap_enable_args *e)
{
  if (p->debug_trap_enabled)
    return -EALREADY;
  uint32_t copy = e->rinfo_size < sizeof p->runtime ? e->rinfo_size : (uint32_t)sizeof p->runtime;
  if (syscall(SYS_fcntl, (int)e->dbg_fd, F_GETFD) < 0)
    return -EBADF;
  int fd = (int)syscall(SYS_fcntl, (int)e->dbg_fd, F_DUPFD_CLOEXEC, 200);
  if (fd < 0)
    return -EMFILE;
  if (copy && sim_copy_to_user(e->rinfo_ptr, &p->runtime, copy)) {
    syscall(SYS_close, fd);
    return -EFAULT;
  }
  p->dbg_ev_fd = fd;
  p->debug_trap_enabled = true;
  p->exception_enable_mask = e->exception_mask;
  e->rinfo_size = sizeof p->runtime;
  return 0;
}

static void trap_disable(struct sim_kfd_process *p)
{
  if (p->dbg_ev_fd >= 0)
    syscall(SYS_close, p->dbg_ev_fd);
  p->dbg_ev_fd = -1;
  p->debug_trap_enabled = false;
  p->exception_enable_mask = 0;
  p->dbg_flags = 0;
}

int sim_kfd_dbg_trap(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_dbg_trap_args *a = data;
  if ((pid_t)a->pid != p->pid) {
    if (a->pid == 0 || kill((pid_t)a->pid, 0) != 0)
      return -ESRCH;
    return traced_by_us(a->pid) ? -ESRCH : -EPERM;   /* its KFD is another simulator's */
  }
  int r = 0;
  pthread_mutex_lock(&p->lock);
  bool needs_runtime = a->op == KFD_IOC_DBG_TRAP_SET_WAVE_LAUNCH_OVERRIDE ||
                       a->op == KFD_IOC_DBG_TRAP_SET_WAVE_LAUNCH_MODE ||
                       a->op == KFD_IOC_DBG_TRAP_SUSPEND_QUEUES ||
                       a->op == KFD_IOC_DBG_TRAP_RESUME_QUEUES ||
                       a->op == KFD_IOC_DBG_TRAP_SET_NODE_ADDRESS_WATCH ||
                       a->op == KFD_IOC_DBG_TRAP_CLEAR_NODE_ADDRESS_WATCH ||
                       a->op == KFD_IOC_DBG_TRAP_SET_FLAGS;
  if (a->op != KFD_IOC_DBG_TRAP_ENABLE && !p->debug_trap_enabled)
    r = -EINVAL;
  else if (needs_runtime && p->runtime.runtime_state != DEBUG_RUNTIME_STATE_ENABLED)
    r = -EPERM;
  else
    switch (a->op) {
    case KFD_IOC_DBG_TRAP_ENABLE:
      r = trap_enable(p, &a->enable);
      break;
    case KFD_IOC_DBG_TRAP_DISABLE:
      trap_disable(p);
      break;
    case KFD_IOC_DBG_TRAP_SET_EXCEPTIONS_ENABLED:
      p->exception_enable_mask = a->set_exceptions_enabled.exception_mask;
      break;
    case KFD_IOC_DBG_TRAP_SET_FLAGS:
      p->dbg_flags = a->set_flags.flags;
      break;
    case KFD_IOC_DBG_TRAP_QUERY_DEBUG_EVENT:
      r = -EAGAIN;   /* no debug event is pending */
      break;
    case KFD_IOC_DBG_TRAP_GET_QUEUE_SNAPSHOT:
      a->queue_snapshot.num_queues = 0;
      break;
    case KFD_IOC_DBG_TRAP_GET_DEVICE_SNAPSHOT:
      a->device_snapshot.num_devices = 0;
      break;
    case KFD_IOC_DBG_TRAP_SEND_RUNTIME_EVENT:
    case KFD_IOC_DBG_TRAP_SET_WAVE_LAUNCH_OVERRIDE:
    case KFD_IOC_DBG_TRAP_SET_WAVE_LAUNCH_MODE:
    case KFD_IOC_DBG_TRAP_SUSPEND_QUEUES:
    case KFD_IOC_DBG_TRAP_RESUME_QUEUES:
    case KFD_IOC_DBG_TRAP_SET_NODE_ADDRESS_WATCH:
    case KFD_IOC_DBG_TRAP_CLEAR_NODE_ADDRESS_WATCH:
    case KFD_IOC_DBG_TRAP_QUERY_EXCEPTION_INFO:
      r = -EOPNOTSUPP;   /* not modelled */
      break;
    default:
      r = -EINVAL;
    }
  pthread_mutex_unlock(&p->lock);
  return r;
}

/* The CWSR area header (kfd_context_save_area_header, KFD 1.13): where the kernel finds a
 * queue's error payload and error event. */
enum { CSA_ERR_PAYLOAD_ADDR = 24, CSA_ERR_EVENT_ID = 32 };
#define CTXID_TRAP_CODE(d) (((d) & 0xfffc00u) >> 10)
#define CTXID_DOORBELL_ID(d) ((d) & 0x3ffu)
#define EC_MASK_QUEUE_WAVE 0x3fu   /* EC_QUEUE_WAVE_ABORT (1) .. _APERTURE_VIOLATION (6) */

/* true when the exception reached a debugger or the runtime (no event interrupt then) */
static bool exception_from_wave(struct sim_kfd_process *p, const struct sim_gpu *gpu,
                                uint32_t doorbell, uint32_t code)
{
  uint64_t csa = 0;
  bool found = false;
  pthread_mutex_lock(&p->lock);
  if (p->debug_trap_enabled && (p->exception_enable_mask & code)) {
    static const char dot = '.';
    if (p->dbg_ev_fd >= 0 && syscall(SYS_write, p->dbg_ev_fd, &dot, 1) < 0)
      sim_trace("kfd: the debugger's event file takes no write");
    pthread_mutex_unlock(&p->lock);
    return true;
  }
  if ((code & EC_MASK_QUEUE_WAVE) && p->runtime.runtime_state == DEBUG_RUNTIME_STATE_ENABLED)
    for (struct sim_queue *q = p->queues; q; q = q->next)
      if (q->pdd->gpu == gpu && q->doorbell_id == doorbell &&
          (q->type == KFD_IOC_QUEUE_TYPE_COMPUTE || q->type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL)) {
        csa = q->mqd.ctx_save;
        found = true;
        break;
      }
  pthread_mutex_unlock(&p->lock);
  if (!found)
    return false;
  /* the kernel's worker reads the header with get_user: a queue without a readable save
   * area gets nothing, and the interrupt is still taken */
  uint64_t payload_va = 0, err = 0;
  uint32_t ev = 0;
  if (csa && !sim_copy_from_user(&payload_va, csa + CSA_ERR_PAYLOAD_ADDR, 8) &&
      !sim_copy_from_user(&ev, csa + CSA_ERR_EVENT_ID, 4) && payload_va &&
      !sim_copy_from_user(&err, payload_va, 8)) {
    err |= code;
    if (!sim_copy_to_user(payload_va, &err, 8)) {
      struct kfd_ioctl_set_event_args set = { .event_id = ev };
      sim_trace("kfd: queue exception 0x%x (doorbell %u) to the runtime: payload 0x%llx, "
                "event %u", code, doorbell, (unsigned long long)err, ev);
      sim_kfd_set_event(p, &set);
    }
  }
  return true;
}

void sim_kfd_wave_interrupt(const struct sim_gpu *gpu, uint32_t data, bool priv)
{
  struct sim_kfd_process *p = sim_kfd_current();
  data &= 0xffffff;
  if (p && priv && CTXID_TRAP_CODE(data) &&
      exception_from_wave(p, gpu, CTXID_DOORBELL_ID(data), CTXID_TRAP_CODE(data)))
    return;
  sim_kfd_signal_interrupt(data);
}
