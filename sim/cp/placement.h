/* SPDX-License-Identifier: MIT */
/* placement.h — which compute unit runs each work-group of a dispatch (inside sim/cp). */
#ifndef SIM_CP_PLACEMENT_H
#define SIM_CP_PLACEMENT_H

#include <stdint.h>

#include "cp/engine.h"

#define CP_MAX_CUS 256   /* 8 SEs x 2 arrays x 16 CUs */

struct cp_placement {
  unsigned count;               /* CUs the queue may use; 0: none (the queue hangs) */
  uint32_t hw_id[CP_MAX_CUS];   /* HW_REG_HW_ID of each, WAVE_ID and SIMD_ID 0 */
};

/* The CUs the queue's CU mask enables, in the order the mask's bits name them. */
void cp_placement_init(struct cp_placement *pl, struct cp_queue *cq);
/* HW_ID (without WAVE_ID/SIMD_ID) of the CU that runs work-group `item`. */
static inline uint32_t cp_placement_hw_id(const struct cp_placement *pl, uint64_t item)
{
  return pl->count ? pl->hw_id[item % pl->count] : 0;
}

#endif
