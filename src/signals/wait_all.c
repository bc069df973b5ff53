/* SPDX-License-Identifier: MIT */
/* wait_all.c — hsa_amd_signal_wait_all: wait until every signal has met its condition.
 *
 * Each signal is waited on alone, in turn, with what is left of the timeout (the one loop of
 * wait.c: spin, then block in its KFD event); a signal counts as done once it was seen to
 * meet its condition, as ROCR's all-of wait records each one. As ROCR documents, a null or
 * invalid handle, and a signal destroyed while waited on, count as value 0 with the
 * condition met. Returns 0 when all are done, UINT32_MAX (-1) on timeout or bad arguments. */
#include "signals/internal.h"

#include <stdlib.h>

#include "hsa_ext_amd.h"

uint32_t hsa_amd_signal_wait_all(uint32_t signal_count, hsa_signal_t *signals,
                                 hsa_signal_condition_t *conds, hsa_signal_value_t *values,
                                 uint64_t timeout_hint, hsa_wait_state_t wait_hint,
                                 hsa_signal_value_t *satisfying_values)
{
  if (sig_ensure_init() != HSA_STATUS_SUCCESS || !signal_count || !signals || !conds || !values)
    return UINT32_MAX;
  for (uint32_t i = 0; i < signal_count; i++)
    if (!sig_cond_valid(conds[i]))
      return UINT32_MAX;
  uint64_t timeout_ns = sig_ticks_to_ns(timeout_hint);
  uint64_t start = sig_now_ns();
  for (uint32_t i = 0; i < signal_count; i++) {
    hsa_signal_value_t v = 0;
    if (signals[i].handle && sig_obj_of(signals[i])) {
      uint64_t left = timeout_ns;
      if (timeout_ns != UINT64_MAX) {
        uint64_t spent = sig_now_ns() - start;
        left = spent >= timeout_ns ? 0 : timeout_ns - spent;
      }
      uint32_t dead = UINT32_MAX;
      uint32_t r = sig_wait_objs(1, &signals[i], &conds[i], &values[i], left, wait_hint, &v,
                                 &dead);
      if (dead == 0)
        v = 0;              /* destroyed meanwhile: as an invalid handle */
      else if (r != 0)
        return UINT32_MAX;  /* timed out on this one */
    }
    if (satisfying_values)
      satisfying_values[i] = v;
  }
  atomic_thread_fence(memory_order_acquire);
  return 0;
}

hsa_status_t hsa_amd_signal_get_event_id(hsa_signal_t signal, uint32_t *event_id)
{
  hsa_status_t st = sig_ensure_init();
  if (st != HSA_STATUS_SUCCESS)
    return st;
  struct sig_obj *o = sig_obj_of(signal);
  if (!o)
    return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (!event_id)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* Only an interrupt signal has a driver event (its id is also in amd_signal_t.event_id,
   * where the CP finds it); any other signal has none to give. */
  if (!atomic_load_explicit(&o->has_event, memory_order_acquire))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  *event_id = atomic_load_explicit(&o->event_id, memory_order_relaxed);
  return HSA_STATUS_SUCCESS;
}
