/* SPDX-License-Identifier: MIT */
/* queue.c — user-mode queues: CREATE/DESTROY/UPDATE_QUEUE, SET_CU_MASK,
 * GET_QUEUE_WAVE_STATE and ALLOC_QUEUE_GWS with the kernel's checks and errnos. Queue ids
 * are per process, lowest free first. SDMA queues take an engine/queue slot of the device
 * and the doorbell the hardware routes to that engine; from KFD 1.17 SDMA_BY_ENG_ID names the
 * engine (PCIe engines first, then xGMI ones), as allocate_sdma_queue places it. */
#include "kfd/kfd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define ENOTSUPP 524   /* the kernel-internal errno KFD leaks for an unknown queue type */

/* Queues 2k and 2k+1 of an SDMA engine ring doorbell k of its range in the first and in the
 * second doorbell page (KFD's allocate_doorbell); the ranges are the chip's (catalog). */
#define DOORBELL_MIRROR (SIM_DOORBELLS_PER_PROCESS / 2)

/* SDMA v6 and v7 (gfx11, gfx12) keep the first two queues of every engine for amdgpu's own
 * gfx and paging rings: KFD clears the first engines x 2 slots of its SDMA bitmap, and the
 * topology's num_sdma_queues_per_engine (the catalogue's) counts only the others. */
static unsigned sdma_reserved_per_engine(const struct sim_gpu_model *m)
{
  return sim_model_sdma_major(m) >= 6 ? 2 : 0;
}

static bool slot_test(const uint64_t *map, unsigned i) { return map[i / 64] >> (i % 64) & 1; }
static void slot_set(uint64_t *map, unsigned i) { map[i / 64] |= 1ull << (i % 64); }
static void slot_clear(uint64_t *map, unsigned i) { map[i / 64] &= ~(1ull << (i % 64)); }

static bool is_pow2(uint32_t v)
{
  return v && !(v & (v - 1));
}

static struct sim_queue *queue_find(struct sim_kfd_process *p, uint32_t id)
{
  for (struct sim_queue *q = p->queues; q; q = q->next)
    if (q->id == id)
      return q;
  return NULL;
}

/* Active queues are those the scheduler runs: a ring, a size and a nonzero share. */
static bool queue_active(const struct sim_queue *q)
{
  return q->ring_size > 0 && q->ring != 0 && q->percent > 0;
}

/* The checks create and update share, in the kernel's order: share and priority
 * ranges, a readable ring, a power-of-two ring size. */
static int queue_args_check(uint32_t percentage, uint32_t priority, uint64_t ring,
                            uint64_t ring_size)
{
  if ((percentage & 0xff) > KFD_MAX_QUEUE_PERCENTAGE || priority > KFD_MAX_QUEUE_PRIORITY)
    return -EINVAL;
  if (ring && !sim_access_ok(ring, 8))
    return -EFAULT;
  if (ring_size && !is_pow2(ring_size))
    return -EINVAL;
  return 0;
}

/* Gives back the queue's SDMA slot or its doorbell. */
static void queue_release_slot(struct sim_queue *q)
{
  if (q->type == KFD_IOC_QUEUE_TYPE_SDMA || q->type == KFD_IOC_QUEUE_TYPE_SDMA_XGMI) {
    const struct sim_gpu_model *m = q->pdd->gpu->model;
    bool xgmi = q->type == KFD_IOC_QUEUE_TYPE_SDMA_XGMI;
    unsigned engines = xgmi ? m->num_sdma_xgmi_engines : m->num_sdma_engines;
    unsigned e = q->sdma_engine - (xgmi ? m->num_sdma_engines : 0);
    slot_clear(xgmi ? q->pdd->sdma_xgmi_used : q->pdd->sdma_used, q->sdma_queue * engines + e);
  } else {
    sim_doorbell_free(q->pdd, q->doorbell_id);
  }
}

int sim_kfd_create_queue(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_create_queue_args *a = data;
  int r = queue_args_check(a->queue_percentage, a->queue_priority, a->ring_base_address,
                           a->ring_size);
  if (r)
    return r;
  if (!sim_access_ok(a->read_pointer_address, 4) || !sim_access_ok(a->write_pointer_address, 4))
    return -EFAULT;
  if ((a->eop_buffer_address && !sim_access_ok(a->eop_buffer_address, 4)) ||
      (a->ctx_save_restore_address && !sim_access_ok(a->ctx_save_restore_address, 4)))
    return -EFAULT;
  /* SDMA_BY_ENG_ID is 1.17's; an older kernel's type check knows only 0..3 */
  bool by_engine = a->queue_type == KFD_IOC_QUEUE_TYPE_SDMA_BY_ENG_ID && sim_kfd_level() >= 17;
  if (a->queue_type > KFD_IOC_QUEUE_TYPE_SDMA_XGMI && !by_engine)
    return -ENOTSUPP;
  /* from 1.17 the argument has sdma_engine_id after ctl_stack_size (an 88-byte caller's reads
   * as 0: the kernel zero-fills what the caller's size leaves out) */
  uint32_t engine_id = kfd_supp_create_queue_engine(a);

  r = 0;
  pthread_mutex_lock(&p->lock);
  struct sim_pdd *pdd = sim_pdd_by_id(p, a->gpu_id);
  struct sim_queue *q = NULL;
  if (!pdd) {
    r = -EINVAL;
    goto out;
  }
  if (sim_pdd_bind(pdd)) {
    r = -ESRCH;
    goto out;
  }
  const struct sim_gpu_model *m = pdd->gpu->model;
  if (by_engine && engine_id >= m->num_sdma_engines + m->num_sdma_xgmi_engines) {
    r = -EINVAL;   /* past the device's last SDMA engine, PCIe ones then xGMI ones */
    goto out;
  }
  if ((r = sim_doorbell_pages(pdd)) != 0)
    goto out;
  if ((r = sim_queue_buffers_check(p, pdd, a)) != 0)   /* 6.12+ kernels: qbufs.c */
    goto out;
  uint32_t id = 0;
  while (id < SIM_MAX_QUEUES && (p->queue_ids[id / 64] & (1ull << (id % 64))))
    id++;
  if (id >= SIM_MAX_QUEUES) {
    r = -ENOMEM;
    goto out;
  }
  if (!(q = calloc(1, sizeof *q))) {
    r = -ENOMEM;
    goto out;
  }
  q->pdd = pdd;
  q->id = id;
  q->type = a->queue_type;
  if (by_engine)   /* becomes a queue of the engine's kind, on that engine */
    q->type = engine_id < m->num_sdma_engines ? KFD_IOC_QUEUE_TYPE_SDMA
                                              : KFD_IOC_QUEUE_TYPE_SDMA_XGMI;
  if (q->type == KFD_IOC_QUEUE_TYPE_SDMA || q->type == KFD_IOC_QUEUE_TYPE_SDMA_XGMI) {
    bool xgmi = q->type == KFD_IOC_QUEUE_TYPE_SDMA_XGMI;
    unsigned engines = xgmi ? m->num_sdma_xgmi_engines : m->num_sdma_engines;
    /* the engine's hardware queues: those KFD may use and the reserved ones before them */
    unsigned reserved = xgmi ? 0 : sdma_reserved_per_engine(m);
    unsigned per = m->num_sdma_queues_per_engine + reserved;
    uint64_t *used = xgmi ? pdd->sdma_xgmi_used : pdd->sdma_used;
    unsigned slot = reserved * engines, n = engines * per, step = 1;
    if (n > SIM_SDMA_SLOTS)
      n = SIM_SDMA_SLOTS;   /* KFD_MAX_SDMA_QUEUES */
    if (by_engine) {   /* that engine's slots only: engine, engine + engines, ... */
      slot += engine_id - (xgmi ? m->num_sdma_engines : 0);
      step = engines;
    }
    while (slot < n && slot_test(used, slot))
      slot += step;
    if (slot >= n) {
      free(q);
      r = -ENOMEM;   /* no SDMA queue left on the device (or on that engine) */
      goto out;
    }
    slot_set(used, slot);
    /* slots are handed out engine-major: queue k of every engine before queue k+1 */
    q->sdma_engine = slot % engines + (xgmi ? m->num_sdma_engines : 0);
    q->sdma_queue = slot / engines;
    q->doorbell_id = m->sdma_doorbell[q->sdma_engine] + (q->sdma_queue & 1) * DOORBELL_MIRROR +
                     (q->sdma_queue >> 1);
    sim_trace("kfd: queue %u is queue %u of SDMA engine %u", id, q->sdma_queue, q->sdma_engine);
  } else if ((r = sim_doorbell_alloc(pdd, &q->doorbell_id)) != 0) {
    free(q);
    goto out;
  }
  q->ring = a->ring_base_address;
  q->rptr = a->read_pointer_address;
  q->wptr = a->write_pointer_address;
  q->ring_size = a->ring_size;
  q->percent = a->queue_percentage & 0xff;
  q->priority = a->queue_priority;
  q->mqd.eop = a->eop_buffer_address;   /* kept in the MQD only: nothing else reads them */
  q->mqd.eop_size = a->eop_buffer_size;
  q->mqd.ctx_save = a->ctx_save_restore_address;
  q->mqd.ctx_save_size = a->ctx_save_restore_size;
  q->mqd.ctl_stack_size = a->ctl_stack_size;
  sim_mqd_init(q);
  if ((r = sim_cp_queue_start(&q->mqd, &q->engine)) != 0) {   /* the engine that processes it (sim/cp) */
    queue_release_slot(q);
    free(q);
    goto out;
  }
  p->queue_ids[id / 64] |= 1ull << (id % 64);
  q->next = p->queues;
  p->queues = q;
  a->queue_id = id;
  a->doorbell_offset = SIM_MMAP_TYPE_DOORBELL | SIM_MMAP_GPU_ID(a->gpu_id) |
                       (uint64_t)q->doorbell_id * SIM_DOORBELL_SIZE;
out:
  pthread_mutex_unlock(&p->lock);
  return r;
}

int sim_kfd_destroy_queue(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_destroy_queue_args *a = data;
  int r = -EINVAL;
  struct sim_queue *dead = NULL;
  pthread_mutex_lock(&p->lock);
  for (struct sim_queue **link = &p->queues; *link; link = &(*link)->next) {
    struct sim_queue *q = *link;
    if (q->id != a->queue_id)
      continue;
    *link = q->next;
    queue_release_slot(q);
    p->queue_ids[q->id / 64] &= ~(1ull << (q->id % 64));
    dead = q;
    r = 0;
    break;
  }
  pthread_mutex_unlock(&p->lock);
  if (dead) {   /* its engine thread takes p->lock: stop it outside */
    sim_cp_queue_stop(dead->engine);
    free(dead);
  }
  return r;
}

int sim_kfd_update_queue(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_update_queue_args *a = data;
  int r = queue_args_check(a->queue_percentage, a->queue_priority, a->ring_base_address,
                           a->ring_size);
  if (r)
    return r;
  pthread_mutex_lock(&p->lock);
  struct sim_queue *q = queue_find(p, a->queue_id);
  if (q) {
    q->ring = a->ring_base_address;
    q->ring_size = a->ring_size;
    q->percent = a->queue_percentage & 0xff;
    q->priority = a->queue_priority;
    sim_mqd_update(q);
    sim_cp_queue_update(q->engine);
  }
  pthread_mutex_unlock(&p->lock);
  return q ? 0 : -EFAULT;   /* the kernel's answer for an unknown queue id */
}

int sim_kfd_set_cu_mask(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_set_cu_mask_args *a = data;
  if (a->num_cu_mask % 32 || a->num_cu_mask == 0)
    return -EINVAL;
  uint32_t count = a->num_cu_mask > 1024 ? 1024 : a->num_cu_mask;   /* extra bits dropped */
  uint32_t mask[32] = {0};
  if (sim_copy_from_user(mask, a->cu_mask_ptr, count / 32 * sizeof(uint32_t)))
    return -EFAULT;
  pthread_mutex_lock(&p->lock);
  struct sim_queue *q = queue_find(p, a->queue_id);
  if (q) {
    memcpy(q->cu_mask, mask, sizeof mask);
    q->cu_mask_count = count;
    sim_mqd_update(q);
  }
  pthread_mutex_unlock(&p->lock);
  return q ? 0 : -EFAULT;
}

int sim_kfd_get_queue_wave_state(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_get_queue_wave_state_args *a = data;
  int r = 0;
  pthread_mutex_lock(&p->lock);
  struct sim_queue *q = queue_find(p, a->queue_id);
  if (!q)
    r = -EFAULT;
  else if ((q->type != KFD_IOC_QUEUE_TYPE_COMPUTE && q->type != KFD_IOC_QUEUE_TYPE_COMPUTE_AQL) ||
           queue_active(q))
    r = -EINVAL;   /* only an inactive compute queue has saved waves to report */
  else {
    /* nothing was preempted mid-wave: an empty control stack and save area */
    a->ctl_stack_used_size = 0;
    a->save_area_used_size = 0;
  }
  pthread_mutex_unlock(&p->lock);
  return r;
}

int sim_kfd_alloc_queue_gws(struct sim_kfd_process *p, void *data)
{
  struct kfd_ioctl_alloc_queue_gws_args *a = data;
  int r = 0;
  pthread_mutex_lock(&p->lock);
  struct sim_queue *q = queue_find(p, a->queue_id);
  if (!q)
    r = -EINVAL;
  else if (!q->pdd->gpu->model->num_gws)
    r = -ENODEV;
  else if (a->num_gws) {
    for (struct sim_queue *o = p->queues; o && !r; o = o->next)
      if (o != q && o->gws && o->pdd == q->pdd)
        r = -EBUSY;   /* one queue of the process holds the GWS */
    if (!r)
      q->gws = true;
  } else
    q->gws = false;
  pthread_mutex_unlock(&p->lock);
  a->first_gws = 0;
  return r;
}
