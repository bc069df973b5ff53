/* SPDX-License-Identifier: MIT */
/* discard.c — hsa_amd_svm_discard_batch_async: the caller says it no longer needs the
 * contents of some SVM ranges, so a runtime may drop them instead of migrating them. This
 * runtime takes it as the hint it is and moves nothing: each range keeps its bytes (a valid
 * outcome, the contents being undefined afterwards). It checks the arguments as ROCR does,
 * waits for the dependencies on the CPU engine and then decrements the completion signal
 * (if one was given), so callers ordering work on the signal see it complete in order. */
#include "copy/internal.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "signals/signal.h"

static hsa_status_t op_none(struct copy_job *j) {
  (void)j;
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_svm_discard_batch_async(void **ptrs, size_t *sizes, uint32_t count,
                                             uint32_t num_dep_signals,
                                             const hsa_signal_t *dep_signals,
                                             hsa_signal_t completion_signal) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!count || !ptrs || !sizes) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < count; i++)
    if (!ptrs[i] || !sizes[i]) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if ((num_dep_signals == 0) != (dep_signals == NULL)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < num_dep_signals; i++)
    if (!sig_from_handle(dep_signals[i])) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (completion_signal.handle && !sig_from_handle(completion_signal))
    return HSA_STATUS_ERROR_INVALID_SIGNAL;
  struct copy_job *j = copy_job_new(num_dep_signals, dep_signals, completion_signal);
  if (!j) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  j->op = op_none;
  if (copy_job_ready(j)) {
    copy_job_finish(j);
    return HSA_STATUS_SUCCESS;
  }
  return copy_submit_cpu(j);
}
