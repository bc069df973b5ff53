/* SPDX-License-Identifier: MIT */
/* placement.h — which compute unit runs each work-group of a dispatch (inside sim/cp). */
#ifndef SIM_CP_PLACEMENT_H
#define SIM_CP_PLACEMENT_H

#include <stdint.h>

#include "cp/engine.h"

#define CP_MAX_CUS 512   /* 8 SEs x 2 arrays x 16 CUs; 8 XCCs x 4 SEs x 16 CUs */
#define CP_MAX_XCCS 8

struct cp_placement {
  unsigned count;               /* CUs the queue may use; 0: none (the queue hangs) */
  uint32_t hw_id[CP_MAX_CUS];   /* HW_REG_HW_ID of each, WAVE_ID and SIMD_ID 0, by XCC (gfx11+:
                                 * HW_REG_HW_ID1's SE, SA and WGP of each WGP) */
  uint32_t hw_id2;              /* gfx11+: HW_REG_HW_ID2 (queue, pipe, ME, VMID) */
  /* multi-XCC chips (gfx942): the XCCs that have CUs enabled, where each one's CUs start
   * in hw_id[], and how many it has */
  unsigned xccs, xcc_id[CP_MAX_XCCS], xcc_first[CP_MAX_XCCS], xcc_count[CP_MAX_XCCS];
};

/* The CUs the queue's CU mask enables, in the order the mask's bits name them. */
void cp_placement_init(struct cp_placement *pl, struct cp_queue *cq);
/* HW_ID (without WAVE_ID/SIMD_ID) of the CU that runs work-group `item`, and its XCC: the
 * work-groups go round the XCCs one at a time, and round each XCC's CUs. */
static inline uint32_t cp_placement_hw_id(const struct cp_placement *pl, uint64_t item,
                                          uint32_t *xcc)
{
  *xcc = 0;
  if (!pl->count)
    return 0;
  if (pl->xccs <= 1) {
    *xcc = pl->xccs ? pl->xcc_id[0] : 0;
    return pl->hw_id[item % pl->count];
  }
  unsigned x = (unsigned)(item % pl->xccs);
  *xcc = pl->xcc_id[x];
  return pl->hw_id[pl->xcc_first[x] + (item / pl->xccs) % pl->xcc_count[x]];
}

#endif
