/* SPDX-License-Identifier: MIT */
/* scratch.c — a GPU queue's private segment (scratch) backing memory.
 *
 * Like ROCR 5.2: a queue starts with the scratch its creator asked for (none by default on
 * dGPUs) and grows it when the command processor meets a dispatch that needs more: it writes
 * 0x1 (wave64) or 0x400 (wave32) into queue_inactive_signal and waits; error.c calls
 * aql_scratch_grow, which sizes the memory for every scratch slot of the device (or, when
 * that is above the agent's limit, scratch_limit.c, for this one dispatch only, marked
 * USE_SCRATCH_ONCE so the CP gives it back with code 512), rewrites the amd_queue_t fields and lets the CP go on.
 *
 * What the CP reads: scratch_resource_descriptor (a GCN buffer resource over the memory,
 * swizzled per lane), scratch_backing_memory_location (its address: flat scratch on gfx9+),
 * scratch_backing_memory_byte_size, scratch_wave64_lane_byte_size and compute_tmpring_size
 * (WAVES bits 0-11, WAVESIZE from bit 12 in 1 KiB units, 256 B from gfx11; from gfx11 WAVES
 * counts the waves of one shader engine). */
#include "aql/internal.h"
#include "mem/mem.h"

#include <string.h>

#define ALIGN_UP(v, a) (((v) + (a) - 1) / (a) * (a))
/* COMPUTE_TMPRING_SIZE.WAVESIZE is 13 bits of KiB: the largest per-wave scratch. */
#define MAX_WAVE_SCRATCH 8387584ull

static uint32_t major(const struct aql_queue *q) { return q->agent->isa->major; }

static uint32_t wave_unit(const struct aql_queue *q) { return major(q) >= 11 ? 256u : 1024u; }

static uint32_t num_cu(const struct aql_queue *q) { return q->amd->max_cu_id + 1; }

static uint32_t engines(const struct aql_queue *q) {
  const struct kfd_node_props *p = &q->agent->node->props;
  uint64_t per = p->simd_arrays_per_engine ? p->simd_arrays_per_engine : 1;
  uint64_t e = p->array_count / per;
  return e ? (uint32_t)e : 1;
}

/* Scratch slots of the device: every CU (rounded up to whole engines) times its slots. */
static uint64_t device_slots(const struct aql_queue *q) {
  uint64_t slots = q->agent->node->props.max_slots_scratch_cu;
  if (!slots) slots = 32;
  return ALIGN_UP((uint64_t)num_cu(q), engines(q)) * slots;
}

void aql_scratch_publish(struct aql_queue *q) {
  amd_queue_t *amd = q->amd;
  const struct aql_scratch *s = &q->scratch;
  uint64_t base = (uint64_t)(uintptr_t)s->base;
  uint32_t w[4];
  w[0] = (uint32_t)base;
  w[1] = (uint32_t)(base >> 32) & 0xffffu;   /* BASE_HI; STRIDE 0, no cache swizzle */
  w[1] |= 1u << 31;                          /* SWIZZLE_ENABLE: per-lane interleaving */
  w[2] = (uint32_t)s->size;                  /* NUM_RECORDS */
  if (major(q) < 10) {
    /* DST_SEL XYZW, NUM_FORMAT UINT, DATA_FORMAT 32, ELEMENT_SIZE 4 B, INDEX_STRIDE 64,
     * ADD_TID_ENABLE; ATC (bit 24) only for APUs using IOMMU memory. */
    w[3] = 4u | 5u << 3 | 6u << 6 | 7u << 9 | 4u << 12 | 4u << 15 | 1u << 19 | 3u << 21 |
           1u << 23;
    if (q->agent->profile == HSA_PROFILE_FULL) w[3] |= 1u << 24;
  } else {
    /* DST_SEL XYZW, FORMAT 32_UINT, INDEX_STRIDE from the CP, ADD_TID_ENABLE,
     * RESOURCE_LEVEL 1, OOB_SELECT 2 (no bounds check when swizzled). */
    w[3] = 4u | 5u << 3 | 6u << 6 | 7u << 9 | 20u << 12 | 1u << 23 | 1u << 24 | 2u << 28;
  }
  memcpy(amd->scratch_resource_descriptor, w, sizeof(w));
  amd->scratch_backing_memory_location = base;
  amd->scratch_backing_memory_byte_size = s->size;
  amd->scratch_wave64_lane_byte_size = (uint32_t)(s->per_thread * s->lanes / 64);
  uint32_t tmpring = 0;
  if (s->size) {
    uint32_t unit = wave_unit(q);
    uint64_t wave = (s->lanes * s->per_thread + unit - 1) / unit;
    /* WAVES counts one XCC's waves: each XCC of a gfx942 gets its share of the buffer */
    uint64_t xcc = q->agent->node->props.num_xcc ? q->agent->node->props.num_xcc : 1;
    uint64_t waves = s->size / xcc / (wave * unit);
    /* gfx11+: WAVES counts one shader engine's waves */
    if (major(q) >= 11) waves /= engines(q);
    uint64_t max_waves = (uint64_t)num_cu(q) * (q->agent->node->props.max_slots_scratch_cu
                                                   ? q->agent->node->props.max_slots_scratch_cu
                                                   : 32);
    if (waves > max_waves) waves = max_waves;
    /* WAVESIZE: 13 bits (gfx9/10), 15 (gfx11), 18 (gfx12) */
    uint32_t size_bits = major(q) >= 12 ? 18 : major(q) >= 11 ? 15 : 13;
    tmpring = (uint32_t)(waves & 0xfff) | (uint32_t)(wave & ((1u << size_bits) - 1)) << 12;
  }
  amd->compute_tmpring_size = tmpring;
  if (s->once)
    __atomic_fetch_or(&amd->queue_properties, AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE,
                      __ATOMIC_RELEASE);
  else
    __atomic_fetch_and(&amd->queue_properties, ~(uint32_t)AMD_QUEUE_PROPERTIES_USE_SCRATCH_ONCE,
                       __ATOMIC_RELEASE);
}

void aql_scratch_free(struct aql_queue *q) {
  mem_release(q->scratch.base);
  memset(&q->scratch, 0, sizeof(q->scratch));
}

/* Allocates `size` bytes of device scratch for `per_thread` bytes per lane. */
static bool scratch_alloc(struct aql_queue *q, uint64_t size, uint64_t per_thread, uint32_t lanes,
                          bool once) {
  size = ALIGN_UP(size, 4096);
  if (ALIGN_UP(per_thread * lanes, 1024) > MAX_WAVE_SCRATCH) return false;
  void *mem = mem_device(q->agent, size, 4096, MEM_F_NO_SUBALLOC);
  if (!mem) return false;
  q->scratch = (struct aql_scratch){mem, size, per_thread, lanes, once};
  return true;
}

hsa_status_t aql_scratch_init(struct aql_queue *q, uint32_t private_segment_size) {
  memset(&q->scratch, 0, sizeof(q->scratch));
  q->scratch.lanes = 64;
  if (private_segment_size) {
    uint64_t per = ALIGN_UP((uint64_t)private_segment_size, 1024u / 64u);
    if (!scratch_alloc(q, per * 64 * device_slots(q), per, 64, false))
      return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  aql_scratch_publish(q);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t aql_scratch_grow(struct aql_queue *q, int64_t code) {
  amd_queue_t *amd = q->amd;
  uint64_t rd = __atomic_load_n(&amd->read_dispatch_id, __ATOMIC_ACQUIRE);
  const hsa_kernel_dispatch_packet_t *pkt =
      (const hsa_kernel_dispatch_packet_t *)amd->hsa_queue.base_address +
      (rd & (amd->hsa_queue.size - 1));
  uint32_t lanes = (code & 0x400) ? 32 : 64;
  uint64_t per = ALIGN_UP((uint64_t)pkt->private_segment_size, 1024u / lanes);
  if (!per || !pkt->workgroup_size_x || !pkt->workgroup_size_y || !pkt->workgroup_size_z)
    return HSA_STATUS_ERROR_INVALID_PACKET_FORMAT;
  uint64_t slots = device_slots(q);
  uint64_t size = per * lanes * slots;
  bool once = false;
  if (size > aql_scratch_limit(q->agent)) {
    /* Too much to keep: enough for this dispatch's waves, given back after it. */
    uint64_t lanes_per_group =
        (uint64_t)pkt->workgroup_size_x * pkt->workgroup_size_y * pkt->workgroup_size_z;
    uint64_t waves_per_group = (lanes_per_group + lanes - 1) / lanes;
    uint64_t groups = ((uint64_t)pkt->grid_size_x + pkt->workgroup_size_x - 1) /
                      pkt->workgroup_size_x *
                      (((uint64_t)pkt->grid_size_y + pkt->workgroup_size_y - 1) /
                       pkt->workgroup_size_y) *
                      (((uint64_t)pkt->grid_size_z + pkt->workgroup_size_z - 1) /
                       pkt->workgroup_size_z);
    uint64_t wanted = groups * waves_per_group;
    if (wanted < engines(q)) wanted = engines(q);
    if (wanted < slots) slots = wanted;
    size = per * lanes * slots;
    once = true;
  }
  pthread_mutex_lock(&q->lock);
  aql_scratch_free(q);
  bool ok = scratch_alloc(q, size, per, lanes, once);
  if (!ok && !once) {
    /* Not enough memory for every slot: try the dispatch alone, single use. */
    ok = scratch_alloc(q, per * lanes * engines(q), per, lanes, true);
  }
  aql_scratch_publish(q);
  pthread_mutex_unlock(&q->lock);
  return ok ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
}

void aql_scratch_reclaim(struct aql_queue *q) {
  pthread_mutex_lock(&q->lock);
  aql_scratch_free(q);
  q->scratch.lanes = 64;
  aql_scratch_publish(q);
  pthread_mutex_unlock(&q->lock);
}
