/* SPDX-License-Identifier: MIT */
/* dispatch.c — kernel dispatch set-up as AMDGPUUsage "Kernel Descriptor" and "Initial Kernel
 * Execution State" define it. Two front ends fill one launch description (struct cp_launch):
 * an AQL dispatch packet, whose 64-byte descriptor at kernel_object gives the entry point,
 * COMPUTE_PGM_RSRC1/2 and the user SGPR enables (user SGPRs dense from s0 in the fixed
 * order), and a PM4 DISPATCH_DIRECT/INDIRECT, where the COMPUTE_* registers give all of it
 * (pm4disp.c). The system SGPRs (work-group ids, info, scratch wave offset) start at
 * RSRC2.USER_SGPR; v0..v2 hold the work-item ids (packed into v0 on gfx90a). Work-groups are
 * run one after the other, x fastest; partial work-groups at the grid's edge are dispatched
 * with their actual size. Scratch on an AQL queue comes from the queue (amd_queue_t): the V#
 * and the backing address ROCR set, per-wave slices of COMPUTE_TMPRING_SIZE.WAVESIZE KiB. */
#include "cp/aql.h"
#include "cp/placement.h"
#include "cp/pool.h"
#include "isa/isa.h"
#include "isa/thread_block.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>


#define KD_ENTRY 16
#define KD_RSRC3 44
#define KD_RSRC1 48
#define KD_RSRC2 52
#define KD_FLAGS 56
#define KD_WAVE32 (1u << 10)   /* kernel_code_properties: ENABLE_WAVEFRONT_SIZE32 (gfx10+) */

#define MAX_GROUP_ITEMS 1024u
#define MAX_LDS_BYTES 65536u

struct dispatch {
  uint16_t wg[3];
  uint32_t grid[3];
  uint32_t private_size, group_size;
  uint64_t kernel_object, kernarg;
};

static uint32_t rd32(const uint8_t *p)
{
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}

static uint16_t rd16(const uint8_t *p)
{
  uint16_t v;
  memcpy(&v, p, 2);
  return v;
}

static uint64_t rd64(const uint8_t *p)
{
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

static enum cp_dispatch_result fail(uint32_t *err, uint32_t code)
{
  *err = code;
  return CP_DISPATCH_ERROR;
}

/* What every work-group of one dispatch shares. */
struct grid {
  struct cp_queue *cq;
  struct sim_isa_workgroup wg;   /* template: waves and wave_count set per group */
  uint32_t user[16];
  unsigned nu, sys, tidig, wpg;
  uint32_t rsrc2, scratch_waves;
  bool packed;
  bool arch_sgprs;               /* gfx12: work-group ids in TTMP7/TTMP9 */
  unsigned wave;                 /* lanes per wave: 32 or 64 */
  uint16_t size[3];
  uint32_t grid[3], groups[3], first[3];
  pthread_mutex_t lock;          /* the first fault */
  struct sim_isa_fault fault;
  bool faulted, stopped;
  struct cp_placement place;     /* the CUs the queue's mask allows */
  atomic_bool halted;            /* a work-group's waves halted: the dispatch never ends */
  /* each worker's wave start states (isa_thread_block of its host thread), found once a
   * dispatch instead of once a work-group */
  struct sim_isa_wave_init **inits;
};

static bool never(void *arg)
{
  (void)arg;
  return false;
}

/* row[l] = v + step * l for the ws (32 or 64) lanes: 4 lanes a GNU C vector (one SSE2
 * register), unrolled (gcc's -O2 vectorised the plain constant-count loop, ~7 host
 * instructions per 4 lanes with its counting; a plain lane loop cost ~5 a lane) */
typedef uint32_t fill_v4 __attribute__((vector_size(16)));
static inline __attribute__((always_inline)) void fill_n(uint32_t *row, uint32_t v,
                                                         uint32_t step, unsigned n)
{
  fill_v4 x = { v, v + step, v + 2 * step, v + 3 * step }, d = { 0 };
  d += 4 * step;
#pragma GCC unroll 16
  for (unsigned l = 0; l < n; l += 4) {
    memcpy(row + l, &x, sizeof x);
    x += d;
  }
}
static void fill_row(uint32_t *row, uint32_t v, uint32_t step, unsigned ws)
{
  if (ws == 64)
    fill_n(row, v, step, 64);
  else
    fill_n(row, v, step, 32);
}

/* A work-group that could not finish: the dispatch stops (preempted) or faults (the first
 * fault is the one reported). Returns false, run_group's answer. */
static bool group_ended(struct grid *g, const struct sim_isa_fault *f)
{
  pthread_mutex_lock(&g->lock);
  if (f->kind == SIM_ISA_FAULT_PREEMPTED)
    g->stopped = true;
  else if (!g->faulted) {
    g->faulted = true;
    g->fault = *f;
  }
  pthread_mutex_unlock(&g->lock);
  return false;
}

/* Sets up and runs work-group `item` (x fastest) on host thread `worker`. */
static bool run_group(void *ctx, unsigned worker, uint64_t item)
{
  struct grid *g = ctx;
  /* filled by sim_isa_run_workgroup (zeroed on success, the fault on failure), here only on
   * the paths below that do not call it */
  struct sim_isa_fault f;
  /* a queue being destroyed, or evicted after a VM fault (the kernel preempts the process's
   * queues): no further work-group starts */
  if (atomic_load_explicit(&g->cq->stop, memory_order_acquire) ||
      __atomic_load_n(&g->cq->qpd->evicted, __ATOMIC_ACQUIRE)) {
    memset(&f, 0, sizeof f);
    f.kind = SIM_ISA_FAULT_PREEMPTED;
    return group_ended(g, &f);
  }
  /* per host thread, made on its first group (not static TLS, which every thread of the
   * program would pay for: sim/isa/thread_block.c); a worker is one thread during a job */
  struct sim_isa_wave_init *waves = g->inits[worker];
  if (__builtin_expect(!waves, 0))
    waves = g->inits[worker] =
        isa_thread_block(ISA_TB_WAVE_INIT, SIM_ISA_MAX_WAVES_PER_GROUP * sizeof *waves);
  if (!waves) {
    memset(&f, 0, sizeof f);
    f.kind = SIM_ISA_FAULT_ILLEGAL;
    snprintf(f.text, sizeof f.text, "the host has no memory left to start waves");
    return group_ended(g, &f);
  }
  uint32_t id[3] = { (uint32_t)(item % g->groups[0]), (uint32_t)(item / g->groups[0] % g->groups[1]),
                     (uint32_t)(item / ((uint64_t)g->groups[0] * g->groups[1])) };
  for (unsigned i = 0; i < 3; i++)   /* a PM4 dispatch may start at a work-group other than 0 */
    id[i] += g->first[i];
  uint32_t size[3];
  for (unsigned i = 0; i < 3; i++) {   /* a partial group at the grid's edge has its real size */
    uint64_t left = (uint64_t)g->grid[i] - (uint64_t)id[i] * g->size[i];
    size[i] = left < g->size[i] ? (uint32_t)left : g->size[i];
  }
  uint32_t items = size[0] * size[1] * size[2];
  const unsigned ws = g->wave;
  unsigned nw = (items + ws - 1) / ws;
  struct sim_isa_workgroup wg = g->wg;
  wg.hw_id = cp_placement_hw_id(&g->place, item, &wg.xcc_id);
  wg.hw_id2 = g->place.hw_id2;
  /* the rows run.c copies: v0 (packed ids) or v0..v<tidig> */
  unsigned rows = g->packed ? 1 : g->tidig + 1 > 3 ? 3 : g->tidig + 1;
  for (unsigned w = 0; w < nw; w++) {
    struct sim_isa_wave_init *wi = &waves[w];
    /* field by field: only what run.c reads (the user SGPRs, the system ones after them, the
     * rows above), not the whole ~1 KiB structure per wave */
    /* all 16 (a fixed-size copy, no libc call; those past nu are overwritten below or
     * beyond sgpr_count, which is all run.c copies) */
    _Static_assert(sizeof wi->sgpr >= sizeof g->user, "the user SGPRs fit");
    memcpy(wi->sgpr, g->user, sizeof g->user);
    unsigned n = g->sys > g->nu ? g->sys : g->nu;
    for (unsigned i = g->nu; i < n; i++)
      wi->sgpr[i] = 0;
    for (unsigned i = 0; i < 3; i++)
      if (g->rsrc2 & (1u << (7 + i)))
        wi->sgpr[n++] = id[i];
    if (g->rsrc2 & (1u << 10))
      wi->sgpr[n++] = (w == 0 ? 1u << 31 : 0) | nw;
    wi->ttmp9 = wi->ttmp7 = 0;
    if (g->arch_sgprs) {   /* gfx12: the work-group id in TTMP9 and TTMP7 as well */
      wi->ttmp9 = id[0];
      wi->ttmp7 = (id[1] & 0xffff) | id[2] << 16;
    }
    uint32_t slot = g->scratch_waves ? (worker * g->wpg + w) % g->scratch_waves : 0;
    wi->scratch_wave_offset = wg.scratch_per_wave * slot;
    if (g->rsrc2 & 1)
      wi->sgpr[n++] = wi->scratch_wave_offset;
    wi->sgpr_count = n;
    wi->vgpr_count = rows;
    /* x fastest, then y, then z: counted up instead of divided out per lane */
    uint32_t first = w * ws;
    uint32_t x = first % size[0], y = first / size[0] % size[1], z = first / (size[0] * size[1]);
    if (first + ws <= items && x + ws <= size[0]) {
      /* the whole wave in one row of the group (1D groups, rows of a multiple of the wave
       * size): x counts up, y and z are the row's; ids below 1024 so that + l never carries
       * into the packed y */
      wi->exec = ws == 64 ? ~0ull : 0xffffffffull;
      uint32_t v0 = g->packed ? x | (g->tidig >= 1 ? y << 10 : 0) | (g->tidig >= 2 ? z << 20 : 0) : x;
      fill_row(wi->vgpr[0], v0, 1, ws);
      for (unsigned r = 1; r < rows; r++)
        fill_row(wi->vgpr[r], r == 1 ? y : z, 0, ws);
      continue;
    }
    uint64_t exec = 0;
    for (unsigned l = 0; l < ws; l++, x++) {
      if (x == size[0]) {
        x = 0;
        if (++y == size[1]) {
          y = 0;
          z++;
        }
      }
      if (first + l >= items) {   /* lanes past the group's end hold 0 */
        for (unsigned r = 0; r < rows; r++)
          wi->vgpr[r][l] = 0;
        continue;
      }
      exec |= 1ull << l;
      if (g->packed) {
        wi->vgpr[0][l] = x | (g->tidig >= 1 ? y << 10 : 0) | (g->tidig >= 2 ? z << 20 : 0);
      } else {
        wi->vgpr[0][l] = x;
        if (rows > 1)
          wi->vgpr[1][l] = y;
        if (rows > 2)
          wi->vgpr[2][l] = z;
      }
    }
    wi->exec = exec;
  }
  wg.wave_count = nw;
  wg.waves = waves;
  if (sim_isa_run_workgroup(&wg, &f) == 0)
    return true;
  if (f.kind == SIM_ISA_HALTED) {
    /* halted waves keep their slots; the other work-groups run on, as on hardware */
    if (!atomic_exchange(&g->halted, true))
      sim_trace("cp: queue %u dispatch halted: %s", g->cq->mqd->queue_id, f.text);
    return true;
  }
  return group_ended(g, &f);   /* PREEMPTED: the queue is being destroyed, waves stopped */
}

enum cp_dispatch_result cp_launch_run(struct cp_queue *cq, const struct cp_launch *l,
                                      uint32_t *err)
{
  struct sim_gpu *gpu = cq->gpu;
  uint32_t rsrc1 = l->rsrc1, rsrc2 = l->rsrc2;
  unsigned sys = (rsrc2 >> 1) & 31;   /* where the hardware starts the system SGPRs */
  const struct sim_qpd *qpd = cq->qpd;
  struct sim_isa_workgroup wg;
  memset(&wg, 0, sizeof wg);
  static atomic_ullong dispatches;   /* numbers the dispatches for the code-page check */
  wg.dispatch_seq = atomic_fetch_add_explicit(&dispatches, 1, memory_order_relaxed) + 1;
  wg.gpu = gpu;
  wg.code_entry = l->code_entry;
  unsigned sg = (rsrc1 >> 6) & 15;
  wg.sgpr_alloc = (sg + 1) * 8 > 6 ? (sg + 1) * 8 - 6 : 0;   /* VCC, FLAT_SCRATCH, XNACK_MASK on top */
  if (wg.sgpr_alloc > 102)
    wg.sgpr_alloc = 102;
  /* gfx90a, gfx942 and gfx11+: ids packed in v0 */
  uint32_t gfxv = gpu->model->gfx_target_version;
  bool gfx10plus = gfxv >= 100000;
  bool packed = gfxv == 90010 || gfxv == 90402 || gfxv >= 110000;
  unsigned wave = gfx10plus && l->wave_size == 32 ? 32 : 64;
  wg.wave_size = wave;
  if (gfx10plus) {
    /* RSRC1.VGPRS in blocks of 8 (wave32) or 4 (wave64); the SGPR field is unused, every
     * wave has 106 SGPRs (and VCC) */
    wg.vgpr_alloc = ((rsrc1 & 63) + 1) * (wave == 32 ? 8 : 4);
    wg.sgpr_alloc = 106;
  } else {
    wg.vgpr_alloc = ((rsrc1 & 63) + 1) * (packed ? 8 : 4);   /* gfx90a allocates VGPRs by 8 */
  }
  wg.lds_bytes = l->lds_bytes;
  wg.rsrc1 = rsrc1;
  wg.rsrc2 = rsrc2;
  wg.rsrc3 = l->rsrc3;
  wg.shared_base = qpd->lds_base;
  wg.shared_limit = qpd->lds_limit;
  wg.private_base = qpd->scratch_base;
  wg.private_limit = qpd->scratch_limit;
  wg.scratch_base = l->scratch_base;
  wg.scratch_per_wave = l->scratch_per_wave;
  wg.tba = qpd->tba;
  wg.tma = qpd->tma;
  wg.preempt = &cq->stop;   /* destroying the queue preempts its running waves */
  wg.doorbell_id = cq->mqd->doorbell_id;

  struct grid g = { .cq = cq, .wg = wg, .nu = l->nu > 16 ? 16 : l->nu, .sys = sys, .rsrc2 = rsrc2,
                    .tidig = (rsrc2 >> 11) & 3, .packed = packed, .wave = wave,
                    .arch_sgprs = gfxv >= 120000,
                    .scratch_waves = l->scratch_waves };
  memcpy(g.user, l->user, sizeof g.user);
  memcpy(g.size, l->size, sizeof g.size);
  memcpy(g.grid, l->grid, sizeof g.grid);
  memcpy(g.first, l->first, sizeof g.first);
  for (unsigned i = 0; i < 3; i++) {
    uint32_t end = (uint32_t)(((uint64_t)l->grid[i] + l->size[i] - 1) / l->size[i]);
    g.groups[i] = end > l->first[i] ? end - l->first[i] : 0;
  }
  uint64_t count = (uint64_t)g.groups[0] * g.groups[1] * g.groups[2];
  if (!count)
    return CP_DISPATCH_DONE;
  /* work-groups side by side only while each running wave has its own scratch slot */
  unsigned wpg = ((uint32_t)l->size[0] * l->size[1] * l->size[2] + wave - 1) / wave;
  unsigned workers = cp_pool_workers();
  if (l->scratch_per_wave && l->scratch_waves / wpg < workers)
    workers = l->scratch_waves / wpg ? l->scratch_waves / wpg : 1;
  g.wpg = wpg;
  cp_placement_init(&g.place, cq);
  if (!g.place.count) {   /* a CU mask that enables no CU: the dispatch never starts */
    cp_poll_until(cq, never, NULL);
    return CP_DISPATCH_FAULT;
  }
  pthread_mutex_init(&g.lock, NULL);
  atomic_init(&g.halted, false);
  struct sim_isa_wave_init *inits[workers ? workers : 1];
  memset(inits, 0, sizeof inits);
  g.inits = inits;
  bool ok = cp_pool_run(count, workers, run_group, &g);
  pthread_mutex_destroy(&g.lock);
  if (ok)
    return atomic_load(&g.halted) ? CP_DISPATCH_HALTED : CP_DISPATCH_DONE;
  if (g.stopped)
    return CP_DISPATCH_FAULT;   /* the queue is being destroyed mid-dispatch */
  struct sim_isa_fault *f = &g.fault;
  sim_trace("cp: queue %u wave fault kind %d at pc 0x%llx: %s", cq->mqd->queue_id, (int)f->kind,
            (unsigned long long)f->pc, f->text);
  switch (f->kind) {
  case SIM_ISA_FAULT_MEMORY:
    sim_cp_vm_fault(gpu, f->addr, f->write);
    return CP_DISPATCH_FAULT;
  default:
    return fail(err, CP_ERR_ILLEGAL_INSTRUCTION);
  }
}

void cp_tmpring_decode(const struct sim_gpu *gpu, uint32_t tmpring, uint32_t *waves,
                       uint64_t *wave_bytes)
{
  /* gfx9/10: WAVESIZE 13 bits of KiB; gfx11 15 bits and gfx12 18 bits of 256 bytes, and
   * WAVES counts the waves of one shader engine */
  const struct sim_gpu_model *m = gpu->model;
  uint32_t gfxv = m->gfx_target_version;
  uint32_t size_bits = gfxv >= 120000 ? 18 : gfxv >= 110000 ? 15 : 13;
  uint32_t unit = gfxv >= 110000 ? 256u : 1024u;
  *waves = tmpring & 0xfff;
  *wave_bytes = (uint64_t)((tmpring >> 12) & ((1u << size_bits) - 1)) * unit;
  if (gfxv >= 110000)
    *waves *= m->array_count / (m->simd_arrays_per_engine ? m->simd_arrays_per_engine : 1);
}

enum cp_dispatch_result cp_dispatch(struct cp_queue *cq, const uint8_t *pkt, uint64_t pkt_va,
                                    uint64_t amd_queue, uint64_t dispatch_id, uint32_t *err)
{
  struct sim_gpu *gpu = cq->gpu;
  struct dispatch d;
  for (unsigned i = 0; i < 3; i++) {
    d.wg[i] = rd16(pkt + 4 + 2 * i);
    d.grid[i] = rd32(pkt + 12 + 4 * i);
  }
  d.private_size = rd32(pkt + 24);
  d.group_size = rd32(pkt + 28);
  d.kernel_object = rd64(pkt + 32);
  d.kernarg = rd64(pkt + 40);
  /* The checks in the precedence of the queue error bits (ROCR and our runtime test them in
   * this order: dimensions 0x2, group segment 0x4, code 0x8, then work-group size 0x40),
   * the first failing one reported. The dimension count (setup bits 1:0, 1..3) comes first:
   * the sizes are read through it. */
  unsigned dims = rd16(pkt + 2) & 3;
  if (dims == 0)
    return fail(err, CP_ERR_INVALID_DIM);
  if (!d.wg[0] || !d.wg[1] || !d.wg[2] || !d.grid[0] || !d.grid[1] || !d.grid[2])
    return fail(err, CP_ERR_INVALID_DIM);
  if (d.group_size > MAX_LDS_BYTES)
    return fail(err, CP_ERR_GROUP_MEMORY);
  if (!d.kernel_object || (d.kernel_object & 63))
    return fail(err, CP_ERR_INVALID_CODE);
  if ((uint32_t)d.wg[0] * d.wg[1] * d.wg[2] > MAX_GROUP_ITEMS)
    return fail(err, CP_ERR_GROUP_TOO_LARGE);
  const uint8_t *kd = sim_vm_translate(gpu, d.kernel_object, 64);
  if (!kd) {
    sim_cp_vm_fault(gpu, d.kernel_object, false);
    return CP_DISPATCH_FAULT;
  }
  int64_t entry_off;
  memcpy(&entry_off, kd + KD_ENTRY, 8);
  uint32_t rsrc1 = rd32(kd + KD_RSRC1), rsrc2 = rd32(kd + KD_RSRC2);
  uint16_t flags = rd16(kd + KD_FLAGS);

  /* the queue's scratch: ask the runtime for more when the dispatch needs more per lane */
  const uint8_t *aq = sim_vm_translate(gpu, amd_queue, AMD_QUEUE_BYTES);
  uint32_t tmpring = aq ? rd32(aq + AMD_QUEUE_TMPRING_SIZE) : 0;
  uint32_t lane_bytes = aq ? rd32(aq + AMD_QUEUE_SCRATCH_LANE_BYTES) : 0;
  uint32_t gfxv = gpu->model->gfx_target_version;
  bool wave32 = gfxv >= 100000 && (flags & KD_WAVE32);
  uint32_t scratch_waves;
  uint64_t wave_bytes;
  cp_tmpring_decode(gpu, tmpring, &scratch_waves, &wave_bytes);
  uint32_t private_size = (d.private_size + 3) & ~3u;
  if (private_size &&
      (!scratch_waves || !wave_bytes ||
       (wave32 ? (uint64_t)private_size * 32 > wave_bytes : private_size > lane_bytes))) {
    *err = wave32 ? CP_ERR_SCRATCH_WAVE32 : CP_ERR_SCRATCH_WAVE64;
    return CP_DISPATCH_SCRATCH;
  }

  /* user SGPRs, dense in the fixed order */
  struct cp_launch l;
  memset(&l, 0, sizeof l);
  uint32_t *user = l.user;
  unsigned nu = 0;
  if ((flags & 1) && aq)            /* private segment buffer V# */
    for (unsigned i = 0; i < 4; i++)
      user[nu++] = rd32(aq + AMD_QUEUE_SCRATCH_SRD + 4 * i);
  else if (flags & 1)
    for (unsigned i = 0; i < 4; i++)
      user[nu++] = 0;
#define PUT64(v) do { uint64_t v_ = (v); if (nu < 15) { user[nu++] = (uint32_t)v_; user[nu++] = (uint32_t)(v_ >> 32); } } while (0)
  if (flags & 2)
    PUT64(pkt_va);
  if (flags & 4)
    PUT64(amd_queue);
  if (flags & 8)
    PUT64(d.kernarg);
  if (flags & 16)
    PUT64(dispatch_id);
  if (flags & 32)
    PUT64(aq ? rd64(aq + AMD_QUEUE_SCRATCH_LOCATION) : 0);
  if ((flags & 64) && nu < 16)
    user[nu++] = private_size;
#undef PUT64
  l.nu = nu;
  l.code_entry = d.kernel_object + (uint64_t)entry_off;
  l.rsrc1 = rsrc1;
  l.rsrc2 = rsrc2;
  l.rsrc3 = rd32(kd + KD_RSRC3);
  for (unsigned i = 0; i < 3; i++) {
    l.size[i] = d.wg[i];
    l.grid[i] = d.grid[i];
  }
  l.lds_bytes = d.group_size;
  l.scratch_base = aq ? rd64(aq + AMD_QUEUE_SCRATCH_LOCATION) : 0;
  l.scratch_waves = scratch_waves;
  l.scratch_per_wave = private_size ? (uint32_t)wave_bytes : 0;
  l.wave_size = wave32 ? 32 : 64;
  return cp_launch_run(cq, &l, err);
}
