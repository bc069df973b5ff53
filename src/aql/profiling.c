/* SPDX-License-Identifier: MIT */
/* profiling.c — dispatch timestamps of profiled queues (hsa_amd_profiling_set_profiler_enabled
 * sets AMD_QUEUE_PROPERTIES_ENABLE_PROFILING; the CP then writes the GPU clock at the start
 * and end of each packet into its completion signal's start_ts/end_ts) and their translation
 * from the GPU's clock to the system clock HSA_SYSTEM_INFO_TIMESTAMP counts in.
 *
 * Translation: one GET_CLOCK_COUNTERS sample (GPU and system clock read together) taken now,
 * and the two nominal frequencies; a tick is placed relative to the sample. Dispatches are
 * short-lived and looked at soon after, so the drift between the two clocks over the gap
 * (ppm) is far below the clocks' own resolution. */
#include "aql/internal.h"
#include "core/runtime.h"
#include "signals/signal.h"

static hsa_status_t gpu_of(hsa_agent_t handle, const struct core_agent **out) {
  const struct core_agent *a = core_agent_from_handle(handle);
  if (!a || a->kind != CORE_AGENT_GPU) return HSA_STATUS_ERROR_INVALID_AGENT;
  *out = a;
  return HSA_STATUS_SUCCESS;
}

static uint64_t to_system(const struct core_agent *a, uint64_t tick) {
  struct core_runtime *rt = core_rt();
  struct kfd_clock_counters c;
  if (rt->kfd.fd < 0 || kfd_get_clock_counters(&rt->kfd, a->gpu_id, &c) != 0 || !a->timestamp_freq)
    return tick;   /* no GPU clock to relate to: the tick as it is */
  uint64_t sys_freq = c.system_clock_freq ? c.system_clock_freq : rt->sys_clock_freq;
  double ratio = (double)sys_freq / (double)a->timestamp_freq;
  double delta = ((double)(int64_t)(tick - c.gpu_clock_counter)) * ratio;
  return (uint64_t)((int64_t)c.system_clock_counter + (int64_t)delta);
}

hsa_status_t hsa_amd_profiling_convert_tick_to_system_domain(hsa_agent_t agent, uint64_t agent_tick,
                                                             uint64_t *system_tick) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!system_tick) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_agent *a;
  hsa_status_t st = gpu_of(agent, &a);
  if (st != HSA_STATUS_SUCCESS) return st;
  *system_tick = to_system(a, agent_tick);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_profiling_get_dispatch_time(hsa_agent_t agent, hsa_signal_t signal,
                                                 hsa_amd_profiling_dispatch_time_t *time) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!time) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_agent *a;
  hsa_status_t st = gpu_of(agent, &a);
  if (st != HSA_STATUS_SUCCESS) return st;
  amd_signal_t *s = sig_from_handle(signal);
  if (!s) return HSA_STATUS_ERROR_INVALID_SIGNAL;
  uint64_t start = __atomic_load_n(&s->start_ts, __ATOMIC_ACQUIRE);
  uint64_t end = __atomic_load_n(&s->end_ts, __ATOMIC_ACQUIRE);
  /* the end first, as ROCR does: the duration is not stretched by the sampling latency */
  time->end = to_system(a, end);
  time->start = to_system(a, start);
  return HSA_STATUS_SUCCESS;
}
