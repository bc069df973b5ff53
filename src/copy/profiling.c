/* SPDX-License-Identifier: MIT */
/* profiling.c — timestamps of asynchronous copies (hsa_amd_profiling_async_copy_enable).
 * While enabled, each copy submitted marks its completion signal as carrying copy times and
 * its engine writes the system clock (HSA_SYSTEM_INFO_TIMESTAMP's domain) into the
 * signal's start_ts/end_ts around the copy, so no translation is needed when read back.
 * As ROCR: a signal that never took a profiled copy has no times (HSA_STATUS_ERROR), and
 * the mark stays until the signal is destroyed. Host-to-host copies are timed too, as later
 * ROCR times them (5.2.3 did not: its host copies left no times). The mark is the amd_signal_t's reserved1
 * word, which nothing else uses and which signal creation zeroes, so a reused slot starts
 * without it. */
#include <stdatomic.h>

#include "copy/internal.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "signals/signal.h"

#define COPY_TIMED 0x50524f46u   /* reserved1 of a signal that carries copy times */

static _Atomic bool profiling;

hsa_status_t hsa_amd_profiling_async_copy_enable(bool enable) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  atomic_store_explicit(&profiling, enable, memory_order_relaxed);
  return HSA_STATUS_SUCCESS;
}

void copy_profile_reset(void) {
  atomic_store_explicit(&profiling, false, memory_order_relaxed);
}

bool copy_profile_begin(hsa_signal_t completion) {
  if (!atomic_load_explicit(&profiling, memory_order_relaxed)) return false;
  amd_signal_t *a = sig_from_handle(completion);
  if (!a) return false;
  a->reserved1 = COPY_TIMED;
  return true;
}

uint64_t copy_profile_now(void) {
  uint64_t t = 0;
  hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t);
  return t;
}

hsa_status_t hsa_amd_profiling_get_async_copy_time(hsa_signal_t signal,
                                                   hsa_amd_profiling_async_copy_time_t *time) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  /* ROCR 5.2.3: a null handle is a bad argument, any other dead one a bad signal. */
  if (!time || signal.handle == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  amd_signal_t *a = sig_from_handle(signal);
  if (!a) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (a->reserved1 != COPY_TIMED) return HSA_STATUS_ERROR;
  time->start = a->start_ts;
  time->end = a->end_ts;
  return HSA_STATUS_SUCCESS;
}
