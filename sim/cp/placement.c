/* SPDX-License-Identifier: MIT */
/* placement.c — where a queue's work-groups run. The driver turns a queue's CU mask into the
 * per-shader-engine enable masks of its MQD spreading the mask's bits evenly: bit 0 is CU 0
 * of SE 0's first array, bit 1 CU 0 of SE 1, ... then CU 0 of each engine's second array,
 * then CU 1 everywhere, counting only the CUs each array has (Linux's
 * mqd_symmetrically_map_cu_mask); bits past the GPU's CU count are ignored. No mask set means
 * every CU. The workload manager then hands work-groups to the enabled CUs in turn; a wave
 * finds its CU, array and engine in HW_REG_HW_ID (gfx9 fields: WAVE_ID 3:0, SIMD_ID 5:4,
 * PIPE_ID 7:6, CU_ID 11:8, SH_ID 12, SE_ID 14:13 and bit 15 on the 8-engine gfx90a, TG_ID
 * 19:16, VM_ID 23:20, QUEUE_ID 26:24, STATE_ID 29:27, ME_ID 31:30). */
#include "cp/placement.h"

#include <string.h>

/* The hardware scheduler maps user queues on the first compute micro engine (ME 1), four
 * pipes of eight queues; KFD processes get the VMIDs from 8 up (the first here). */
#define HW_ID_ME 1u
#define HW_ID_VMID 8u

void cp_placement_init(struct cp_placement *pl, struct cp_queue *cq)
{
  const struct sim_gpu_model *m = cq->gpu->model;
  unsigned nsh = m->simd_arrays_per_engine ? m->simd_arrays_per_engine : 1;
  unsigned nse = m->array_count / nsh ? m->array_count / nsh : 1;
  unsigned per_sh = m->array_count ? m->cu_count / m->array_count : m->cu_count;
  if (per_sh > 16)
    per_sh = 16;

  uint32_t mask[32], bits;
  pthread_mutex_lock(cq->qpd->lock);
  memcpy(mask, cq->mqd->cu_mask, sizeof mask);
  bits = cq->mqd->cu_mask_count;
  pthread_mutex_unlock(cq->qpd->lock);
  if (bits > m->cu_count)
    bits = m->cu_count;

  uint32_t slot = cq->mqd->queue_id % 32;
  uint32_t fixed = HW_ID_ME << 30 | (slot % 8) << 24 | HW_ID_VMID << 20 | (slot / 8) << 6;
  pl->count = 0;
  unsigned i = 0;
  for (unsigned cu = 0; cu < per_sh; cu++)
    for (unsigned sh = 0; sh < nsh; sh++)
      for (unsigned se = 0; se < nse; se++, i++) {
        if (bits && i >= bits)
          return;
        if ((!bits || (mask[i / 32] >> (i % 32) & 1)) && pl->count < CP_MAX_CUS)
          pl->hw_id[pl->count++] = fixed | (se & 7) << 13 | (sh & 1) << 12 | cu << 8;
      }
}
