/* SPDX-License-Identifier: MIT */
/* placement.c — where a queue's work-groups run. The driver turns a queue's CU mask into the
 * per-shader-engine enable masks of its MQD spreading the mask's bits evenly: bit 0 is CU 0
 * of SE 0's first array, bit 1 CU 0 of SE 1, ... then CU 0 of each engine's second array,
 * then CU 1 everywhere, counting only the CUs each array has (Linux's
 * mqd_symmetrically_map_cu_mask); bits past the GPU's CU count are ignored. No mask set means
 * every CU. The workload manager then hands work-groups to the enabled CUs in turn; a wave
 * finds its CU, array and engine in HW_REG_HW_ID (gfx9 fields: WAVE_ID 3:0, SIMD_ID 5:4,
 * PIPE_ID 7:6, CU_ID 11:8, SH_ID 12, SE_ID 14:13 and bit 15 on the 8-engine gfx90a, TG_ID
 * 19:16, VM_ID 23:20, QUEUE_ID 26:24, STATE_ID 29:27, ME_ID 31:30).
 *
 * gfx942 (MI300, SPX mode): the node's CUs are num_xcc dies (XCCs) of their own engines;
 * the driver writes the queue's MQD once per XCC, XCC k taking every num_xcc-th bit of the
 * mask from bit k, and the hardware hands a dispatch's work-groups to the XCCs in turn (one
 * each). A wave reads its XCC in HW_REG_XCC_ID. An XCC the mask leaves without a CU gets no
 * work-groups here (what the hardware does then is not modelled: the others take them).
 *
 * gfx11 and gfx12 run compute in WGP mode: the driver enables CUs in pairs (a work-group
 * processor), taking mask bits two at a time (either bit of a pair enables the WGP; pair k is
 * the k-th WGP in the same (WGP, array, engine) order), and a wave finds its place in
 * HW_REG_HW_ID1 (WAVE_ID 4:0, SIMD_ID 9:8, WGP_ID 13:10, SA_ID 16, SE_ID 20:18) and its
 * queue in HW_REG_HW_ID2 (QUEUE_ID 3:0, PIPE_ID 5:4, ME_ID 9:8, VM_ID 27:24). */
#include "cp/placement.h"

#include <string.h>

/* The hardware scheduler maps user queues on the first compute micro engine (ME 1), four
 * pipes of eight queues; KFD processes get the VMIDs from 8 up (the first here). */
#define HW_ID_ME 1u
#define HW_ID_VMID 8u

/* One XCC's CUs the mask enables: bit inst + k * stride names the k-th CU in the order of
 * (CU, array, engine); cus[se] CUs in each of nse engines' nsh arrays. Appends to pl. */
static void map_xcc(struct cp_placement *pl, const uint32_t *mask, unsigned bits, unsigned inst,
                    unsigned stride, unsigned nse, unsigned nsh, const unsigned *cus, uint32_t fixed,
                    bool wgp)
{
  unsigned i = inst, most = 0, step = wgp ? 2 : 1;
  uint32_t en = wgp ? 3 : 1;
  for (unsigned se = 0; se < nse; se++)
    most = cus[se] > most ? cus[se] : most;
  for (unsigned cu = 0; cu < most && cu < 16; cu += step)
    for (unsigned sh = 0; sh < nsh; sh++)
      for (unsigned se = 0; se < nse; se++) {
        if (cus[se] <= cu)
          continue;
        if (bits && i >= bits)
          return;
        if ((!bits || (mask[i / 32] >> (i % 32) & en)) && pl->count < CP_MAX_CUS)
          pl->hw_id[pl->count++] = wgp ? (se & 7) << 18 | (sh & 1) << 16 | (cu / 2) << 10
                                       : fixed | (se & 7) << 13 | (sh & 1) << 12 | cu << 8;
        i += stride * step;
      }
}

void cp_placement_init(struct cp_placement *pl, struct cp_queue *cq)
{
  const struct sim_gpu_model *m = cq->gpu->model;
  unsigned nxcc = sim_model_xcc(m) <= CP_MAX_XCCS ? sim_model_xcc(m) : CP_MAX_XCCS;
  unsigned nsh = m->simd_arrays_per_engine ? m->simd_arrays_per_engine : 1;
  unsigned arrays = m->array_count / nxcc ? m->array_count / nxcc : 1;   /* per XCC */
  unsigned nse = arrays / nsh ? arrays / nsh : 1;
  if (nse > 8)
    nse = 8;
  /* CUs per array: gfx9's are even; an XCC of MI300 has 38 CUs on 4 engines, which the model
   * puts as 10, 10, 9, 9 (the engines' own counts are not in the topology) */
  unsigned xcc_cus = m->cu_count / nxcc, cus[8];
  for (unsigned se = 0; se < nse; se++) {
    unsigned per = xcc_cus / (nse * nsh), extra = xcc_cus % (nse * nsh);
    cus[se] = per + (se < extra / nsh ? 1 : 0);
    if (cus[se] > 16)
      cus[se] = 16;
  }

  uint32_t mask[32], bits;
  pthread_mutex_lock(cq->qpd->lock);
  memcpy(mask, cq->mqd->cu_mask, sizeof mask);
  bits = cq->mqd->cu_mask_count;
  pthread_mutex_unlock(cq->qpd->lock);
  if (bits > m->cu_count)
    bits = m->cu_count;

  uint32_t slot = cq->mqd->queue_id % 32;
  uint32_t fixed = HW_ID_ME << 30 | (slot % 8) << 24 | HW_ID_VMID << 20 | (slot / 8) << 6;
  bool wgp = sim_model_gfx_major(m) >= 10;
  pl->hw_id2 = wgp ? HW_ID_VMID << 24 | HW_ID_ME << 8 | (slot / 8) << 4 | (slot % 8) : 0;
  pl->count = 0;
  pl->xccs = 0;
  /* GC 9.4.3 (gfx942): every XCC gets its own copy of the MQD; XCC `inst` takes the mask's
   * bits inst, inst + num_xcc, inst + 2 num_xcc, ... in the one-XCC order (Linux's
   * mqd_symmetrically_map_cu_mask with its inst argument) */
  for (unsigned x = 0; x < nxcc; x++) {
    unsigned first = pl->count;
    map_xcc(pl, mask, bits, x, nxcc, nse, nsh, cus, fixed, wgp);
    if (pl->count > first) {
      pl->xcc_id[pl->xccs] = x;
      pl->xcc_first[pl->xccs] = first;
      pl->xcc_count[pl->xccs++] = pl->count - first;
    }
  }
}
