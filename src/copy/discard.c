/* SPDX-License-Identifier: MIT */
/* discard.c — hsa_amd_svm_discard_batch_async: the caller no longer needs the contents of some
 * SVM ranges. As the newest ROCR: it needs XNACK (HSA_STATUS_ERROR_XNACK_DISABLED without,
 * after the pointer and count checks), dependency signals and their count must agree, and
 * once every dependency is 0 each range's SVM prefetch location becomes system memory (KFD
 * has no discard: SVM_OP_SET_ATTR PREFETCH_LOC = SYSMEM, so device pages go back and the GPU
 * copy is dropped), after which the completion signal, if given, is decremented. A range must
 * lie in memory the runtime knows (an allocation, or an hsa_amd_vmem_address_reserve range);
 * anything else (a stack buffer, say) is INVALID_ARGUMENT, as ROCR refuses stack memory. The
 * kernel refusing a range (memory of a KFD buffer object is no SVM range) is not reported:
 * the call is a hint, and ROCR's prefetch path only asserts. */
#include <stdlib.h>
#include <string.h>

#include "copy/internal.h"
#include "core/agent.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/mem.h"
#include "mem/sdma.h"
#include "signals/signal.h"

struct span {
  void *ptr;
  size_t size;
};

struct discard {
  const struct core_agent *cpu;
  uint32_t count;
  struct span spans[];
};

static hsa_status_t op_discard(struct copy_job *j) {
  struct discard *d = j->ctx;
  j->ctx = NULL;
  for (uint32_t i = 0; d && i < d->count; i++)
    mem_svm_prefetch(d->spans[i].ptr, d->spans[i].size, d->cpu);
  free(d);
  return HSA_STATUS_SUCCESS;
}

static bool known(const void *p, size_t size) {
  struct mem_block b;
  if (mem_lookup(p, &b))
    return (uintptr_t)p - (uintptr_t)b.base <= b.size &&
           size <= b.size - ((uintptr_t)p - (uintptr_t)b.base);
  return mem_vmem_reserved(p, size);
}

hsa_status_t hsa_amd_svm_discard_batch_async(void **ptrs, size_t *sizes, uint32_t count,
                                             uint32_t num_dep_signals,
                                             const hsa_signal_t *dep_signals,
                                             hsa_signal_t completion_signal) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!count || !ptrs || !sizes) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct core_runtime *rt = core_rt();
  if (!rt->xnack) return (hsa_status_t)HSA_STATUS_ERROR_XNACK_DISABLED;
  if ((num_dep_signals == 0) != (dep_signals == NULL)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < count; i++)
    if (!ptrs[i] || !sizes[i] || !known(ptrs[i], sizes[i]))
      return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (uint32_t i = 0; i < num_dep_signals; i++)
    if (!sig_from_handle(dep_signals[i])) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (completion_signal.handle && !sig_from_handle(completion_signal))
    return HSA_STATUS_ERROR_INVALID_SIGNAL;
  if (!rt->cpu_count) return HSA_STATUS_ERROR_INVALID_AGENT;   /* no system memory agent */
  struct discard *d = malloc(sizeof(*d) + count * sizeof(d->spans[0]));
  struct copy_job *j = d ? copy_job_new(num_dep_signals, dep_signals, completion_signal) : NULL;
  if (!j) {
    free(d);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  d->cpu = rt->agents[0];   /* CPUs come first */
  d->count = count;
  for (uint32_t i = 0; i < count; i++) d->spans[i] = (struct span){ptrs[i], sizes[i]};
  j->op = op_discard;
  j->ctx = d;
  j->ctx_free = free;
  if (copy_job_ready(j)) {
    copy_job_finish(j);
    return HSA_STATUS_SUCCESS;
  }
  return copy_submit_cpu(j);
}
