/* SPDX-License-Identifier: MIT */
/* prefetch.c — hsa_amd_svm_prefetch_async: ROCR's checks, then a job on the CPU engine that
 * sets the range's prefetch location once its dependencies are 0 (mem_svm_prefetch: the kernel
 * migrates the pages) and then decrements the completion signal, if one was given. A kernel
 * refusal is not reported (ROCR only asserts). With its dependencies met, it is done before
 * the call returns. */
#include "copy/internal.h"
#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "signals/signal.h"

static hsa_status_t op_prefetch(struct copy_job *j) {
  mem_svm_prefetch(j->dst, j->size, j->target);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_svm_prefetch_async(void *ptr, size_t size, hsa_agent_t agent,
                                        uint32_t num_dep_signals, const hsa_signal_t *dep_signals,
                                        hsa_signal_t completion_signal) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  const struct core_agent *a = core_agent_from_handle(agent);
  if (!a) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (num_dep_signals && !dep_signals) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < num_dep_signals; i++)
    if (!sig_from_handle(dep_signals[i])) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (completion_signal.handle && !sig_from_handle(completion_signal))
    return HSA_STATUS_ERROR_INVALID_SIGNAL;
  struct copy_job *j = copy_job_new(num_dep_signals, dep_signals, completion_signal);
  if (!j) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  j->op = op_prefetch;
  j->dst = ptr;
  j->size = size;
  j->target = a;
  if (copy_job_ready(j)) {
    copy_job_finish(j);
    return HSA_STATUS_SUCCESS;
  }
  return copy_submit_cpu(j);
}
