/* SPDX-License-Identifier: MIT */
/* queue.c — hsa_queue_create/destroy/inactivate for GPU agents (KFD compute AQL queues the
 * command processor reads), the registry of live queues, and the per-queue AMD extensions
 * (priority, profiling, queue info). CPU agents' queues are in cpu.c, soft queues in soft.c. */
#include "aql/aql.h"
#include "aql/internal.h"
#include "core/log.h"
#include "core/runtime.h"
#include "hsa_ext_amd.h"
#include "mem/mem.h"
#include "signals/signal.h"

#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ROCR's limits: a private segment larger than this per work-item is refused. */
#define MAX_PRIVATE_PER_ITEM 262128u

/* ---- registry ------------------------------------------------------------------------ */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct aql_queue *reg_head;
static _Atomic uint64_t next_id;

uint64_t aql_next_queue_id(void) { return atomic_fetch_add(&next_id, 1); }

hsa_status_t aql_register(struct aql_queue *q) {
  if (atomic_load(&q->refs) == 0) atomic_store(&q->refs, 1);   /* cpu.c adds its thread's */
  pthread_mutex_lock(&reg_lock);
  q->next = reg_head;
  reg_head = q;
  pthread_mutex_unlock(&reg_lock);
  aql_slot_set(q->amd, q);
  return HSA_STATUS_SUCCESS;
}

/* O(1) by the handle's page; a destroyed queue's page names no queue (slots.c). */
struct aql_queue *aql_lookup(const hsa_queue_t *handle) {
  handle = aql_share_target(handle);   /* a counted queue's handle: the queue it shares */
  return handle ? aql_slot_get(handle) : NULL;
}

/* Removes q from the registry; false when it was not there (a concurrent destroy won). */
static bool unregister(struct aql_queue *q) {
  bool found = false;
  pthread_mutex_lock(&reg_lock);
  for (struct aql_queue **l = &reg_head; *l; l = &(*l)->next)
    if (*l == q) {
      *l = q->next;
      found = true;
      break;
    }
  pthread_mutex_unlock(&reg_lock);
  if (found) aql_slot_set(q->amd, NULL);
  return found;
}

void aql_put(struct aql_queue *q) {
  if (atomic_fetch_sub(&q->refs, 1) != 1) return;
  aql_slot_free(q->amd);
  pthread_mutex_destroy(&q->lock);
  free(q);
}

void aql_for_each(const struct core_agent *agent, void (*fn)(struct aql_queue *q, void *arg),
                  void *arg) {
  /* Take references under the lock, call outside it. */
  pthread_mutex_lock(&reg_lock);
  size_t n = 0;
  for (struct aql_queue *q = reg_head; q; q = q->next) n++;
  struct aql_queue **list = n ? calloc(n, sizeof(*list)) : NULL;
  size_t k = 0;
  if (list)
    for (struct aql_queue *q = reg_head; q; q = q->next)
      if (!agent || q->agent == agent) {
        atomic_fetch_add(&q->refs, 1);
        list[k++] = q;
      }
  pthread_mutex_unlock(&reg_lock);
  for (size_t i = 0; i < k; i++) {
    fn(list[i], arg);
    aql_put(list[i]);
  }
  free(list);
}

amd_queue_t *aql_amd_queue_alloc(uint32_t size, hsa_queue_type32_t type, uint32_t features,
                                 void *ring) {
  amd_queue_t *amd = aql_slot_alloc();   /* zeroed */
  if (!amd) return NULL;
  amd->hsa_queue.type = type;
  amd->hsa_queue.features = features;
  amd->hsa_queue.base_address = ring;
  amd->hsa_queue.size = size;
  amd->hsa_queue.id = aql_next_queue_id();
  amd->read_dispatch_id_field_base_byte_offset =
      (uint32_t)offsetof(amd_queue_t, read_dispatch_id);
  amd->queue_properties = AMD_QUEUE_PROPERTIES_IS_PTR64;
  amd->scratch_last_used_index = UINT64_MAX;
  return amd;
}

/* Every slot starts as an INVALID packet so the packet processor stops at it. */
static void ring_clear(void *ring, uint32_t packets) {
  for (uint32_t i = 0; i < packets; i++)
    __atomic_store_n((uint16_t *)((char *)ring + (size_t)i * 64), (uint16_t)HSA_PACKET_TYPE_INVALID,
                     __ATOMIC_RELAXED);
}

/* ---- GPU queues ------------------------------------------------------------------------- */
static uint32_t gfx_version(const struct core_agent *a) {
  return a->isa->major << 16 | a->isa->minor << 8 | a->isa->stepping;
}

static void gpu_release(struct aql_queue *q) {
  struct core_runtime *rt = core_rt();
  if (q->kq.doorbell) aql_trap_unbind(q);
  if (q->doorbell.handle) sig_destroy_internal(q->doorbell);
  q->doorbell.handle = 0;
  if (q->inactive.handle) sig_destroy_internal(q->inactive);
  q->inactive.handle = 0;
  if (q->kq.doorbell && rt) kfd_queue_doorbell_release(&q->kq);
  aql_scratch_free(q);
  mem_release(q->ring);
  mem_release(q->eop);
  mem_release(q->cwsr);
  q->ring = q->eop = q->cwsr = NULL;
}

/* Stops the hardware queue (ROCR's Inactivate): the KFD queue is destroyed, memory stays. */
static void gpu_inactivate(struct aql_queue *q) {
  if (!atomic_exchange(&q->active, false)) return;
  struct core_runtime *rt = core_rt();
  if (q->kind == AQL_GPU && rt && q->kq.doorbell) kfd_queue_destroy(&rt->kfd, &q->kq);
  atomic_thread_fence(memory_order_acquire);
}

static hsa_status_t gpu_create(const struct core_agent *agent, uint32_t size,
                               aql_callback_t cb, void *data, uint32_t private_size,
                               struct aql_queue **out) {
  struct core_runtime *rt = core_rt();
  if (!rt || rt->kfd.fd < 0) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  char why[160];
  if (aql_gpu_stopped(agent->gpu_id, why, sizeof(why))) {
    fprintf(stderr, "hsa-runtime64: hsa_queue_create: GPU node %u (%s) had %s in this process; "
                    "the driver keeps the process's queues on it stopped until the process "
                    "exits, so no queue is created there. Restart the process to use it "
                    "again (the CPU and other GPUs still work).\n",
            agent->node_id, agent->name, why);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  /* Without the fault watcher a GPU fault on this queue would reach no callback and its
   * dispatch would never complete: refuse the queue instead (ROCR: OUT_OF_RESOURCES). */
  if (aql_fault_watch_start() != HSA_STATUS_SUCCESS) {
    fprintf(stderr, "hsa-runtime64: hsa_queue_create: cannot watch the GPU for faults (the "
                    "driver refused an event); no queue was created. Free events or queues "
                    "and retry.\n");
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  struct aql_queue *q = calloc(1, sizeof(*q));
  if (!q) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  pthread_mutex_init(&q->lock, NULL);
  q->kind = AQL_GPU;
  q->agent = agent;
  q->callback = cb;
  q->data = data;
  q->priority = kfd_queue_priority(0);
  q->ring_bytes = (uint64_t)size * 64;
  hsa_status_t st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;

  q->ring = mem_system(q->ring_bytes, 4096, MEM_F_EXECUTABLE | MEM_F_NO_SUBALLOC);
  if (!q->ring) goto fail;
  ring_clear(q->ring, size);
  /* the page holding the write pointer is this GPU's own (MES GPUs take no other) */
  mem_system_owner(agent);
  q->amd = aql_amd_queue_alloc(size, HSA_QUEUE_TYPE_MULTI, HSA_QUEUE_FEATURE_KERNEL_DISPATCH,
                               q->ring);
  mem_system_owner(NULL);
  if (!q->amd) goto fail;
  amd_queue_t *amd = q->amd;
  const struct kfd_node_props *p = &agent->node->props;
  uint32_t simd_per_cu = p->simd_per_cu ? (uint32_t)p->simd_per_cu : 4;
  amd->max_cu_id = (uint32_t)(p->simd_count / simd_per_cu) - 1;
  amd->max_wave_id = (uint32_t)(p->max_waves_per_simd * simd_per_cu) - 1;
  if (agent->has_aperture) {
    amd->group_segment_aperture_base_hi = (uint32_t)(agent->aperture.lds_base >> 32);
    amd->private_segment_aperture_base_hi = (uint32_t)(agent->aperture.scratch_base >> 32);
  }

  struct kfd_queue_sizes sz;
  kfd_queue_sizes(p, gfx_version(agent), &sz);
  if (sz.eop_size && !(q->eop = mem_device(agent, sz.eop_size, 4096, MEM_F_NO_SUBALLOC)))
    goto fail;
  if (sz.ctx_total) {
    /* Fresh pages of its own (no sub-allocation), zero already: only the headers are
     * written, as the thunk does, so the save area costs no memory until a wave is saved. */
    if (!(q->cwsr = mem_system(sz.ctx_total, 4096, MEM_F_NO_SUBALLOC | MEM_F_ZERO))) goto fail;
    kfd_queue_cwsr_header(q->cwsr, &sz, 0, NULL);
  }

  /* The CP writes error codes and scratch requests here and raises its interrupt. Any
   * failure is the driver's or memory's: the caller passed no signal to blame. */
  if (sig_create_internal(0, true, &q->inactive) != HSA_STATUS_SUCCESS) goto fail;
  amd->queue_inactive_signal = q->inactive;

  if ((st = aql_scratch_init(q, private_size)) != HSA_STATUS_SUCCESS) goto fail;
  /* device traps (assert, abort) reach the queue's callback through our trap handler */
  aql_trap_install(agent);

  struct kfd_queue_args ka = {
      .gpu_id = agent->gpu_id, .type = KFD_QUEUE_COMPUTE_AQL, .percentage = 100,
      .priority = q->priority, .ring = (uint64_t)(uintptr_t)q->ring,
      .ring_size = q->ring_bytes, .read_ptr = &amd->read_dispatch_id,
      .write_ptr = &amd->write_dispatch_id, .eop = (uint64_t)(uintptr_t)q->eop,
      .eop_size = q->eop ? sz.eop_size : 0, .ctx_save = (uint64_t)(uintptr_t)q->cwsr,
      .ctx_save_size = q->cwsr ? sz.ctx_save_size : 0,
      .ctl_stack_size = q->cwsr ? sz.ctl_stack_size : 0, .doorbell_slice = sz.doorbell_slice};
  int rc = kfd_queue_create(&rt->kfd, &ka, &q->kq);
  if (rc) {
    st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    goto fail;
  }
  atomic_store(&q->active, true);
  aql_trap_bind(q);
  if ((st = sig_doorbell_create(q->kq.doorbell, amd, &q->doorbell)) != HSA_STATUS_SUCCESS)
    goto fail;
  amd->hsa_queue.doorbell_signal = q->doorbell;

  if ((st = aql_inactive_handler_start(q)) != HSA_STATUS_SUCCESS) goto fail;
  /* A global HSA_CU_MASK applies from the start; without one nothing is sent. */
  hsa_status_t cu = aql_cu_mask_apply(q, 0, NULL);
  if (cu != HSA_STATUS_SUCCESS && cu != (hsa_status_t)HSA_STATUS_CU_MASK_REDUCED) {
    st = cu;
    aql_inactive_handler_stop(q);
    goto fail;
  }
  *out = q;
  return HSA_STATUS_SUCCESS;

fail:
  gpu_inactivate(q);
  gpu_release(q);
  aql_slot_free(q->amd);
  pthread_mutex_destroy(&q->lock);
  free(q);
  return st;
}

static void gpu_destroy(struct aql_queue *q) {
  aql_inactive_handler_stop(q);
  gpu_inactivate(q);
  gpu_release(q);
}

/* Cooperative queues: one per agent, shared and counted (ROCR hands out its GWS queue). */
static pthread_mutex_t coop_lock = PTHREAD_MUTEX_INITIALIZER;

static hsa_status_t coop_create(const struct core_agent *agent, uint32_t size, aql_callback_t cb,
                                void *data, uint32_t private_size, struct aql_queue **out) {
  if (!agent->node->props.num_gws) return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
  pthread_mutex_lock(&coop_lock);
  struct aql_queue *found = NULL;
  pthread_mutex_lock(&reg_lock);
  for (struct aql_queue *q = reg_head; q; q = q->next)
    if (q->agent == agent && q->cooperative) found = q;
  if (found) found->coop_refs++;
  pthread_mutex_unlock(&reg_lock);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (found) {
    *out = found;
  } else if ((st = gpu_create(agent, size, cb, data, private_size, out)) == HSA_STATUS_SUCCESS) {
    uint32_t first;
    if (kfd_queue_alloc_gws(&core_rt()->kfd, &(*out)->kq, 1, &first)) {
      gpu_destroy(*out);
      aql_slot_free((*out)->amd);
      free(*out);
      st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    } else {
      (*out)->cooperative = true;
      (*out)->coop_refs = 1;
      (*out)->amd->hsa_queue.type = HSA_QUEUE_TYPE_COOPERATIVE;
      aql_register(*out);
    }
  }
  pthread_mutex_unlock(&coop_lock);
  return st;
}

/* ---- the API ------------------------------------------------------------------------------ */
static bool pow2(uint32_t v) { return v && !(v & (v - 1)); }

hsa_status_t hsa_queue_create(hsa_agent_t agent_handle, uint32_t size,
                                      hsa_queue_type32_t type,
                                      void (*callback)(hsa_status_t, hsa_queue_t *, void *),
                                      void *data, uint32_t private_segment_size,
                                      uint32_t group_segment_size, hsa_queue_t **queue) {
  (void)group_segment_size;   /* LDS is per dispatch; nothing to reserve per queue */
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!queue || !pow2(size) || type > HSA_QUEUE_TYPE_COOPERATIVE)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  const struct core_agent *agent = core_agent_from_handle(agent_handle);
  if (!agent) return HSA_STATUS_ERROR_INVALID_AGENT;
  if (agent->kind == CORE_AGENT_CPU) {
    if (type == HSA_QUEUE_TYPE_COOPERATIVE) return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
    return aql_cpu_queue_create(agent, size, type, callback, data, queue);
  }
  if (agent->isa->major < 9) {
    /* gfx7/8 ring 32-bit legacy doorbells with a proxy write index and a doubly mapped
     * ring; only the SOC15 (gfx9+) AQL doorbell is implemented. Say so once. */
    static atomic_bool said;
    if (!atomic_exchange(&said, true))
      fprintf(stderr, "hsa-runtime64: %s: AQL queues on GPUs before gfx9 (legacy doorbells) are "
                      "not supported by this runtime.\n", agent->name);
    return HSA_STATUS_ERROR_INVALID_QUEUE_CREATION;
  }
  struct aql_queue *q = NULL;
  hsa_status_t st;
  if (private_segment_size == UINT32_MAX)   /* "default": none on dGPUs, grown on demand */
    private_segment_size = 0;
  if (type == HSA_QUEUE_TYPE_COOPERATIVE) {
    st = coop_create(agent, size, callback, data, private_segment_size, &q);
  } else {
    uint32_t min = 0, max = 0;
    hsa_agent_get_info(agent_handle, HSA_AGENT_INFO_QUEUE_MIN_SIZE, &min);
    hsa_agent_get_info(agent_handle, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &max);
    if (max && size > max) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    if (size < min) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
    if (private_segment_size > MAX_PRIVATE_PER_ITEM) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    st = gpu_create(agent, size, callback, data, private_segment_size, &q);
    if (st == HSA_STATUS_SUCCESS) aql_register(q);
  }
  if (st == HSA_STATUS_SUCCESS) {
    *queue = aql_handle(q);
    core_log(HSA_AMD_LOG_FLAG_INFO, "created AQL queue id=%" PRIu64 " agent=%s address=%p "
             "packets=%u", q->amd->hsa_queue.id, agent->name, (void *)*queue, size);
  }
  return st;
}

hsa_status_t hsa_queue_destroy(hsa_queue_t *queue) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!queue) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* a counted queue's handle is given back with hsa_amd_counted_queue_release */
  if (aql_is_share(queue)) return HSA_STATUS_ERROR_INVALID_QUEUE;
  struct aql_queue *q = aql_lookup(queue);
  if (!q) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (q->cooperative) {
    pthread_mutex_lock(&coop_lock);
    bool last = --q->coop_refs == 0;
    pthread_mutex_unlock(&coop_lock);
    if (!last) {
      aql_put(q);
      return HSA_STATUS_SUCCESS;
    }
  }
  if (!unregister(q)) {   /* another thread destroyed it meanwhile */
    aql_put(q);
    return HSA_STATUS_ERROR_INVALID_QUEUE;
  }
  aql_counted_drop(queue);
  core_log(HSA_AMD_LOG_FLAG_INFO, "destroyed AQL queue id=%" PRIu64 " address=%p",
           q->amd->hsa_queue.id, (void *)queue);
  switch (q->kind) {
  case AQL_GPU: gpu_destroy(q); break;
  case AQL_CPU: aql_cpu_queue_stop(q); break;
  case AQL_SOFT: aql_soft_queue_release(q); break;
  }
  aql_put(q);   /* the registry's reference */
  aql_put(q);   /* ours */
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_queue_inactivate(hsa_queue_t *queue) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!queue) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct aql_queue *q = aql_lookup(queue);
  if (!q) return HSA_STATUS_ERROR_INVALID_QUEUE;
  if (q->kind == AQL_GPU) {
    pthread_mutex_lock(&q->lock);
    gpu_inactivate(q);
    pthread_mutex_unlock(&q->lock);
  } else {
    atomic_store(&q->active, false);
  }
  aql_put(q);
  return HSA_STATUS_SUCCESS;
}

/* Suspends a GPU queue after an error (the scheduler stops running it; ROCR's Suspend). */
void aql_suspend(struct aql_queue *q) {
  struct core_runtime *rt = core_rt();
  pthread_mutex_lock(&q->lock);
  if (q->kind == AQL_GPU && rt && atomic_load(&q->active) && !q->suspended) {
    q->suspended = true;
    kfd_queue_update(&rt->kfd, &q->kq, 0, q->priority, (uint64_t)(uintptr_t)q->ring,
                     q->ring_bytes);
  }
  pthread_mutex_unlock(&q->lock);
}

hsa_status_t hsa_amd_queue_set_priority(hsa_queue_t *queue,
                                                hsa_amd_queue_priority_t priority) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!queue) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct aql_queue *q = aql_lookup(queue);
  if (!q) return HSA_STATUS_ERROR_INVALID_QUEUE;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  int level;
  switch (priority) {
  case HSA_AMD_QUEUE_PRIORITY_LOW: level = -3; break;
  case HSA_AMD_QUEUE_PRIORITY_NORMAL: level = 0; break;
  case HSA_AMD_QUEUE_PRIORITY_HIGH: level = 3; break;
  default: st = HSA_STATUS_ERROR_INVALID_ARGUMENT; level = 0; break;
  }
  if (st == HSA_STATUS_SUCCESS && q->kind == AQL_GPU) {
    pthread_mutex_lock(&q->lock);
    if (q->suspended || !atomic_load(&q->active)) {
      st = HSA_STATUS_ERROR_INVALID_QUEUE;
    } else {
      uint32_t prio = kfd_queue_priority(level);
      if (kfd_queue_update(&core_rt()->kfd, &q->kq, 100, prio, (uint64_t)(uintptr_t)q->ring,
                           q->ring_bytes))
        st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      else
        q->priority = prio;
    }
    pthread_mutex_unlock(&q->lock);
  }
  aql_put(q);
  return st;
}

hsa_status_t hsa_amd_profiling_set_profiler_enabled(hsa_queue_t *queue, int enable) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  struct aql_queue *q = aql_lookup(queue);
  if (!q) return queue ? HSA_STATUS_ERROR_INVALID_QUEUE : HSA_STATUS_ERROR_INVALID_ARGUMENT;
  /* The CP writes start/end timestamps into completion signals of profiled queues. */
  if (enable)
    __atomic_fetch_or(&q->amd->queue_properties, AMD_QUEUE_PROPERTIES_ENABLE_PROFILING,
                      __ATOMIC_RELEASE);
  else
    __atomic_fetch_and(&q->amd->queue_properties, ~(uint32_t)AMD_QUEUE_PROPERTIES_ENABLE_PROFILING,
                       __ATOMIC_RELEASE);
  aql_put(q);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_amd_queue_get_info(hsa_queue_t *queue, hsa_queue_info_attribute_t attribute,
                                            void *value) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!queue || !value) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (aql_share_released(queue)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;   /* as ROCR */
  struct aql_queue *q = aql_lookup(queue);
  if (!q) return HSA_STATUS_ERROR_INVALID_QUEUE;
  hsa_status_t st = HSA_STATUS_SUCCESS;
  switch ((int)attribute) {
  case HSA_AMD_QUEUE_INFO_AGENT:
    *(hsa_agent_t *)value = core_agent_handle(q->agent);
    break;
  case HSA_AMD_QUEUE_INFO_DOORBELL_ID:
    if (q->kind == AQL_GPU && q->kq.doorbell) {
      *(uint64_t *)value = (uint64_t)(uintptr_t)q->kq.doorbell;
      /* rung directly, it would not start the error handler's thread (async.c) */
      sig_async_start_pending();
    } else
      st = HSA_STATUS_ERROR_INVALID_QUEUE;
    break;
  case HSA_QUEUE_INFO_USE_COUNT: {
    int64_t n = aql_counted_use_count(queue);
    *(int32_t *)value = (int32_t)n;   /* -1 for a queue not from counted_queue_acquire */
    break;
  }
  case HSA_QUEUE_INFO_HW_ID:
    *(uint32_t *)value = (uint32_t)q->amd->hsa_queue.id;
    break;
  /* no metadata prefetch packets here: their versions read 0xFF, as ROCR documents for
   * hardware without them; no queue property bit is set; there is no metadata ring */
  case HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_DISPATCH_PKT_VERSION_MAJOR:
  case HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_DISPATCH_PKT_VERSION_MINOR:
  case HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_BARRIER_PKT_VERSION_MAJOR:
  case HSA_AMD_QUEUE_INFO_PREFETCH_METADATA_BARRIER_PKT_VERSION_MINOR:
    *(uint8_t *)value = 0xff;
    break;
  case HSA_AMD_QUEUE_INFO_PROPERTIES:
    memset(value, 0, 8);
    break;
  default:
    st = HSA_STATUS_ERROR_INVALID_ARGUMENT;
  }
  aql_put(q);
  return st;
}

static void destroy_one(struct aql_queue *q, void *arg) {
  (void)arg;
  if (q->cooperative) q->coop_refs = 1;
  hsa_queue_t *h = aql_handle(q);
  /* Like hsa_queue_destroy, without the open check (the runtime is closing). */
  struct aql_queue *again = aql_lookup(h);
  if (!again) return;
  if (unregister(again)) {
    switch (again->kind) {
    case AQL_GPU: gpu_destroy(again); break;
    case AQL_CPU: aql_cpu_queue_stop(again); break;
    case AQL_SOFT: aql_soft_queue_release(q); break;
    }
    aql_put(again);
  }
  aql_put(again);
}

void aql_shutdown(void) {
  aql_counted_forget();
  aql_for_each(NULL, destroy_one, NULL);
  aql_fault_watch_stop();
  aql_system_events_reset();
  aql_trap_shutdown();
}
