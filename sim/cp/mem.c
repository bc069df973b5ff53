/* SPDX-License-Identifier: MIT */
/* mem.c — what the command processor and the SDMA engines share: the GPU timestamp, VM faults
 * and the AMD signal (amd_signal_t) operations the end-of-pipe performs. Every access goes
 * through the GPU's VM (sim_vm_translate): host memory is coherent, so plain atomics with
 * the orders below are what the hardware's fences amount to. */
#include "cp/cp.h"

#include <stdatomic.h>
#include <string.h>

uint64_t sim_gpu_clock_counter(void);   /* sim/kfd/devcfg.c: the RLC counter the KFD reports */

uint64_t sim_cp_now(void)
{
  return sim_gpu_clock_counter();
}

void sim_cp_vm_fault(struct sim_gpu *gpu, uint64_t va, bool write)
{
  sim_trace("gpu %u: VM fault at 0x%llx (%s)", gpu->index, (unsigned long long)va,
            write ? "write" : "read");
  /* a write to a page that is mapped but read-only is a permission fault, not a missing page */
  bool present = write && sim_vm_translate(gpu, va, 1);
  sim_kfd_vm_fault_event(gpu, va, !present, write);
  sim_dbwatch_kick();
}

void sim_gpu_vm_fault(struct sim_gpu *gpu, uint64_t va, bool write)
{
  sim_cp_vm_fault(gpu, va, write);
}

void sim_cp_gpu_hang(struct sim_gpu *gpu)
{
  sim_kfd_gpu_reset_event(gpu);
  sim_dbwatch_kick();
}

static void *sig_mem(struct sim_gpu *gpu, uint64_t handle, bool write)
{
  void *m = write ? sim_vm_translate_write(gpu, handle, AMD_SIGNAL_SIZE)
                  : sim_vm_translate(gpu, handle, AMD_SIGNAL_SIZE);
  if (!m || (handle & 7))
    sim_cp_vm_fault(gpu, handle, write);
  return (handle & 7) ? NULL : m;
}

bool sim_cp_signal_load(struct sim_gpu *gpu, uint64_t handle, int64_t *value)
{
  char *s = sig_mem(gpu, handle, false);
  if (!s)
    return false;
  *value = __atomic_load_n((int64_t *)(s + AMD_SIGNAL_VALUE), __ATOMIC_ACQUIRE);
  return true;
}

bool sim_cp_signal_complete(struct sim_gpu *gpu, uint64_t handle, bool store, int64_t value)
{
  char *s = sig_mem(gpu, handle, true);
  if (!s)
    return false;
  int64_t *v = (int64_t *)(s + AMD_SIGNAL_VALUE);
  if (store)
    __atomic_store_n(v, value, __ATOMIC_RELEASE);
  else
    __atomic_fetch_sub(v, 1, __ATOMIC_ACQ_REL);
  uint64_t mailbox = __atomic_load_n((uint64_t *)(s + AMD_SIGNAL_MAILBOX), __ATOMIC_ACQUIRE);
  if (mailbox) {
    uint32_t id = __atomic_load_n((uint32_t *)(s + AMD_SIGNAL_EVENT_ID), __ATOMIC_RELAXED);
    uint64_t *slot = sim_vm_translate_write(gpu, mailbox, 8);
    if (!slot || (mailbox & 7)) {
      sim_cp_vm_fault(gpu, mailbox, true);
      return false;
    }
    __atomic_store_n(slot, (uint64_t)id, __ATOMIC_RELEASE);
    sim_kfd_signal_interrupt(id);
  }
  return true;
}

bool sim_cp_poll_compare(uint32_t v, unsigned fn, uint32_t ref)
{
  switch (fn) {
  case 0: return true;
  case 1: return v < ref;
  case 2: return v <= ref;
  case 3: return v == ref;
  case 4: return v != ref;
  case 5: return v >= ref;
  case 6: return v > ref;
  default: return false;
  }
}
