/* SPDX-License-Identifier: MIT */
/* pm4disp.c — DISPATCH_DIRECT/INDIRECT: a launch described by the COMPUTE_* SH registers
 * (gfx9 offsets, dwords) that SET_SH_REG wrote, as the hardware takes them:
 *  - COMPUTE_PGM_LO/HI: the code address >> 8; COMPUTE_PGM_RSRC1/2 as in a kernel
 *    descriptor; RSRC2.USER_SGPR user SGPRs s0.. come from COMPUTE_USER_DATA_0..15, then
 *    the system SGPRs its enable bits ask for, and LDS_SIZE (128-dword granules) is the
 *    group's LDS;
 *  - COMPUTE_NUM_THREAD_X/Y/Z: the work-group size (NUM_THREAD_FULL, bits 15:0) and, with
 *    DISPATCH_INITIATOR.PARTIAL_TG_EN, the size of the last, partial group (bits 31:16);
 *  - the packet's dimensions are the end of the dispatch, in work-groups, or in work-items
 *    with DISPATCH_INITIATOR.USE_THREAD_DIMENSIONS; COMPUTE_START_X/Y/Z its first
 *    work-group (0 with FORCE_START_AT_000);
 *  - with RSRC2.SCRATCH_EN, COMPUTE_TMPRING_SIZE (WAVES, WAVESIZE in KiB) and
 *    COMPUTE_DISPATCH_SCRATCH_BASE_LO/HI (>> 8) place each wave's scratch.
 * COMPUTE_PGM_RSRC3 (0x2e2d, as kfdtest's gfx9 dispatches write it) gives gfx90a/gfx942 their
 * ACCUM_OFFSET; COMPUTE_RESOURCE_LIMITS is kept but changes nothing the model runs. */
#include "cp/aql.h"

#include <string.h>

#define R(reg) ((reg) - CP_SH_REG_BASE)
#define DISPATCH_INITIATOR R(0x2e00u)
#define DIM_X R(0x2e01u)
#define START_X R(0x2e04u)
#define NUM_THREAD_X R(0x2e07u)
#define PGM_LO R(0x2e0cu)
#define PGM_HI R(0x2e0du)
#define SCRATCH_BASE_LO R(0x2e10u)
#define SCRATCH_BASE_HI R(0x2e11u)
#define PGM_RSRC1 R(0x2e12u)
#define PGM_RSRC2 R(0x2e13u)
#define PGM_RSRC3 R(0x2e2du)
#define TMPRING_SIZE R(0x2e18u)
#define USER_DATA_0 R(0x2e40u)

#define INIT_COMPUTE_SHADER_EN (1u << 0)
#define INIT_PARTIAL_TG_EN (1u << 1)
#define INIT_FORCE_START_AT_000 (1u << 2)
#define INIT_USE_THREAD_DIMENSIONS (1u << 5)

#define MAX_GROUP_ITEMS 1024u
#define MAX_LDS_BYTES 65536u
#define MAX_USER_SGPRS 16u

static enum cp_step refuse(struct cp_queue *cq, uint64_t amd_queue, const char *why)
{
  cp_pm4_error(cq, amd_queue, why, 3u << 30 | 0x15u << 8);
  return CP_HALTED;
}

enum cp_step cp_pm4_dispatch(struct cp_queue *cq, const uint32_t dim[3], uint32_t initiator,
                             uint64_t amd_queue)
{
  uint32_t *r = cq->sh;
  for (unsigned i = 0; i < 3; i++)   /* the packet writes these registers */
    r[DIM_X + i] = dim[i];
  r[DISPATCH_INITIATOR] = initiator;
  if (!(initiator & INIT_COMPUTE_SHADER_EN)) {
    sim_trace("cp: queue %u dispatch without COMPUTE_SHADER_EN launches nothing", cq->mqd->queue_id);
    return CP_WORK;
  }
  struct cp_launch l;
  memset(&l, 0, sizeof l);
  l.code_entry = ((uint64_t)(r[PGM_HI] & 0xff) << 32 | r[PGM_LO]) << 8;
  l.rsrc1 = r[PGM_RSRC1];
  l.rsrc2 = r[PGM_RSRC2];
  l.rsrc3 = r[PGM_RSRC3];
  l.nu = (l.rsrc2 >> 1) & 31;
  if (l.nu > MAX_USER_SGPRS)
    return refuse(cq, amd_queue, "more user SGPRs than COMPUTE_USER_DATA registers");
  memcpy(l.user, &r[USER_DATA_0], l.nu * 4u);
  /* gfx10+: CS_W32_EN (bit 15) launches wave32 */
  l.wave_size = cq->gpu->model->gfx_target_version >= 100000 && (initiator & (1u << 15)) ? 32 : 64;
  l.lds_bytes = ((l.rsrc2 >> 15) & 0x1ff) * 512u;
  if (l.lds_bytes > MAX_LDS_BYTES)
    return refuse(cq, amd_queue, "LDS_SIZE above the work-group's 64 KiB");
  uint32_t items = 1;
  for (unsigned i = 0; i < 3; i++) {
    uint32_t full = r[NUM_THREAD_X + i] & 0xffff, partial = r[NUM_THREAD_X + i] >> 16;
    if (!full || full > MAX_GROUP_ITEMS)
      return refuse(cq, amd_queue, "work-group size 0 or above 1024");
    items *= full;
    if (items > MAX_GROUP_ITEMS)
      return refuse(cq, amd_queue, "work-group of more than 1024 work-items");
    l.size[i] = (uint16_t)full;
    l.first[i] = (initiator & INIT_FORCE_START_AT_000) ? 0 : r[START_X + i];
    uint64_t end;
    if (initiator & INIT_USE_THREAD_DIMENSIONS)
      end = dim[i];
    else if ((initiator & INIT_PARTIAL_TG_EN) && partial && dim[i])
      end = (uint64_t)(dim[i] - 1) * full + (partial < full ? partial : full);
    else
      end = (uint64_t)dim[i] * full;
    if (end > UINT32_MAX)
      return refuse(cq, amd_queue, "dispatch of more than 2^32 work-items in a dimension");
    l.grid[i] = (uint32_t)end;
  }
  if (l.rsrc2 & 1) {   /* SCRATCH_EN */
    uint64_t wave_bytes;
    cp_tmpring_decode(cq->gpu, r[TMPRING_SIZE], &l.scratch_waves, &wave_bytes);
    l.scratch_per_wave = (uint32_t)wave_bytes;
    l.scratch_base = ((uint64_t)(r[SCRATCH_BASE_HI] & 0xffff) << 32 | r[SCRATCH_BASE_LO]) << 8;
    if (!l.scratch_waves)
      l.scratch_per_wave = 0;
  }
  sim_trace("cp: queue %u PM4 dispatch of 0x%llx, groups of %ux%ux%u, grid %ux%ux%u from %u,%u,%u",
            cq->mqd->queue_id, (unsigned long long)l.code_entry, l.size[0], l.size[1], l.size[2],
            l.grid[0], l.grid[1], l.grid[2], l.first[0], l.first[1], l.first[2]);
  uint32_t err = 0;
  switch (cp_launch_run(cq, &l, &err)) {
  case CP_DISPATCH_DONE:
    return CP_WORK;
  case CP_DISPATCH_ERROR:
    if (amd_queue) {
      cp_queue_error(cq, amd_queue, err);
    } else {
      /* a wave exception on a PM4 queue: the waves stop in the trap handler, nothing reaches
       * an AQL inactive signal; the queue stops here */
      sim_trace("cp: queue %u PM4 dispatch stopped by a wave exception (code 0x%x)", cq->mqd->queue_id,
                err);
      cq->halted = true;
    }
    return CP_HALTED;
  case CP_DISPATCH_HALTED:   /* a trap handler halted waves: the dispatch never completes */
    cq->halted = true;
    return CP_HALTED;
  default:
    return CP_HALTED;   /* VM fault raised, or the queue is being destroyed */
  }
}
