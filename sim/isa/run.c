/* SPDX-License-Identifier: MIT */
/* run.c — one workgroup at a time per calling thread: its waves run cooperatively, each
 * until it ends or reaches s_barrier, then the next; when every live wave waits at the
 * barrier they all go on. Register files and LDS are kept per thread between calls. */
#include "isa/exec.h"
#include "isa/fast.h"
#include "isa/gang.h"
#include "isa/probe.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VGPR_SLACK 8   /* rows past vgpr_alloc that wide operands may touch before the check */

struct run_buf {
  struct isa_wave waves[SIM_ISA_MAX_WAVES_PER_GROUP];
  uint32_t (*vgpr)[SIM_ISA_WAVE_SIZE];
  size_t vgpr_rows;
  uint8_t *lds;
  size_t lds_size;
  /* the translation entries of this thread's last workgroup that may be kept, valid while
   * the VM generation reads tlb_gen (sim_vm_generation) on tlb_gpu */
  struct isa_tlb_entry tlb[ISA_GROUP_TLB];
  unsigned tlb_next;
  uint8_t tlb_hint[ISA_TLB_HINTS];   /* hints only: checked against the entries on use, so
                                        they stay whatever the VM does (isa_group.tlb_hint) */
  uint64_t tlb_gen;
  const struct sim_gpu *tlb_gpu;
};

static pthread_key_t buf_key;
static pthread_once_t buf_once = PTHREAD_ONCE_INIT;

static void buf_free(void *p)
{
  struct run_buf *b = p;
  free(b->vgpr);
  free(b->lds);
  free(b);
}

static void buf_key_init(void)
{
  pthread_key_create(&buf_key, buf_free);
}

/* the thread's buffers (also held by buf_key, whose destructor frees them at its exit): one
 * thread-local read a group instead of pthread_once and pthread_getspecific */
static __thread struct run_buf *buf_mine;

static struct run_buf *run_buf(size_t vgpr_rows, size_t lds)
{
  struct run_buf *b = buf_mine;
  if (__builtin_expect(!b, 0)) {
    pthread_once(&buf_once, buf_key_init);
    if (!(b = calloc(1, sizeof *b)))
      return NULL;
    if (pthread_setspecific(buf_key, b)) {
      free(b);
      return NULL;
    }
    buf_mine = b;
  }
  if (b->vgpr_rows < vgpr_rows) {
    /* zeroed once; later workgroups find what earlier ones left, as VGPRs are undefined at
     * wave start except for the initialized ones */
    void *n = calloc(vgpr_rows, sizeof *b->vgpr);
    if (!n)
      return NULL;
    free(b->vgpr);
    b->vgpr = n;
    b->vgpr_rows = vgpr_rows;
  }
  if (b->lds_size < lds) {
    /* zeroed once: LDS is undefined at workgroup start, so later groups may see old data */
    void *n = calloc(1, lds);
    if (!n)
      return NULL;
    free(b->lds);
    b->lds = n;
    b->lds_size = lds;
  }
  return b;
}

/* Zeroes `n` bytes at `p` sixteen at a time. The stored value is read from a volatile, so the
 * compiler cannot turn the loop back into memset, which gcc expands into `rep stosq` for
 * these sizes: that instruction's start-up made it about a third of run()'s time (perf,
 * gfx1100 vadd wave32: 29% of run's samples on the one instruction). */
static volatile uint32_t zero_word;
typedef uint32_t zero_v4 __attribute__((vector_size(16)));
static inline void zero_bytes(void *p, size_t n)
{
  zero_v4 z = (zero_v4){ 0 } + zero_word;
  char *d = p;
  size_t k = 0;
#pragma GCC unroll 64
  for (; k + sizeof z <= n; k += sizeof z)   /* n is a constant: unrolled into the stores */
    memcpy(d + k, &z, sizeof z);
  for (; k < n; k++)
    d[k] = 0;
}

static int bad(struct sim_isa_fault *f, const struct sim_isa_workgroup *wg, const char *why)
{
  memset(f, 0, sizeof *f);
  f->kind = SIM_ISA_FAULT_ILLEGAL;
  f->pc = wg ? wg->code_entry : 0;
  snprintf(f->text, sizeof f->text, "workgroup not runnable: %s", why);
  return -1;
}

_Static_assert(SIM_ISA_PROBE_SGPRS == ISA_MAX_SGPRS && SIM_ISA_PROBE_VGPRS == ISA_MAX_VGPRS,
               "the probe state is the wave's");

/* A probe's registers into or out of wave `w`. */
static void probe_copy(struct isa_wave *w, struct sim_isa_probe *p, unsigned lds_bytes, bool in)
{
#define X(field) do { if (in) w->field = p->field; else p->field = w->field; } while (0)
  X(vcc); X(exec); X(flat_scratch); X(xnack_mask); X(m0); X(scc); X(mode); X(trapsts);
#undef X
  unsigned rows = w->vgpr_alloc;
  if (in) {   /* the pc stays wg->code_entry */
    memcpy(w->sgpr, p->sgpr, sizeof w->sgpr);
    memcpy(w->ttmp, p->ttmp, sizeof w->ttmp);
    memcpy(w->vgpr, p->vgpr, rows * sizeof *w->vgpr);
  } else {
    p->pc = w->pc;
    memcpy(p->sgpr, w->sgpr, sizeof p->sgpr);
    memcpy(p->ttmp, w->ttmp, sizeof p->ttmp);
    memcpy(p->vgpr, w->vgpr, rows * sizeof *w->vgpr);
  }
  if (p->lds && w->group->lds && lds_bytes) {
    if (in)
      memcpy(w->group->lds, p->lds, lds_bytes);
    else
      memcpy(p->lds, w->group->lds, lds_bytes);
  }
}

static int run(const struct sim_isa_workgroup *wg, struct sim_isa_probe *probe,
               struct sim_isa_fault *fault)
{
  struct sim_isa_fault dummy;
  if (!fault)
    fault = &dummy;
  if (!wg || !wg->gpu || !wg->waves)
    return bad(fault, wg, "no GPU or no waves");
  if (wg->wave_count == 0 || wg->wave_count > SIM_ISA_MAX_WAVES_PER_GROUP)
    return bad(fault, wg, "wave count out of range");
  if (wg->wave_size != 0 && wg->wave_size != 32 && wg->wave_size != 64)
    return bad(fault, wg, "wave size neither 32 nor 64");
  if (wg->vgpr_alloc == 0 || wg->vgpr_alloc > 2 * ISA_MAX_VGPRS)
    return bad(fault, wg, "VGPR allocation out of range");
  /* gfx90a's unified file counts AGPRs too (up to 512): the VGPRs are at most 256 */
  unsigned valloc = wg->vgpr_alloc < ISA_MAX_VGPRS ? wg->vgpr_alloc : ISA_MAX_VGPRS;
  unsigned rows = wg->vgpr_alloc + VGPR_SLACK;
  /* the AGPRs follow the VGPRs from ACCUM_OFFSET ((RSRC3[5:0] + 1) * 4) on: exec_mfma.c */
  unsigned acc_base = ((wg->rsrc3 & 63) + 1) * 4;
  unsigned acc_count = wg->vgpr_alloc > acc_base ? wg->vgpr_alloc - acc_base : 0;
  /* LDS is allocated in 128-dword granules: accesses within the granule are in range */
  uint32_t lds_size = (uint32_t)(((uint64_t)wg->lds_bytes + 511) & ~511ull);
  if (wg->lds_bytes > 65536)
    return bad(fault, wg, "LDS size beyond 64 KiB");
  /* wave32: waves 2p and 2p+1 share 64-lane rows, 2p's in lanes 0..31 and 2p+1's in 32..63
   * (a wave32 touches only its first 32 lanes), so that the gang (isa_gang_run) runs a lane
   * by lane operation once for both as 64 lanes; one row more at the end, so that the last
   * wave's rows read 64 lanes wide stay inside the buffer */
  bool paired = wg->wave_size == 32;
  size_t total = paired ? (size_t)rows * ((wg->wave_count + 1) / 2) + 1 : (size_t)rows * wg->wave_count;
  struct run_buf *b = run_buf(total, lds_size);
  if (!b)
    return bad(fault, wg, "out of memory");

  struct isa_group g;
  memset(&g, 0, sizeof g);
  g.wg = wg;
  g.lds = lds_size ? b->lds : NULL;
  g.lds_size = lds_size;
  g.waves = b->waves;
  g.tlb_hint = b->tlb_hint;
  g.fast = isa_fast_enabled();
  /* read before any lookup of this group: entries it adds were looked up at gen or later */
  uint64_t gen = sim_vm_generation();
  /* the group works on the thread's entries in place (no copy in and out): they start empty
   * unless the VM generation and GPU are those of the thread's last group */
  g.tlb = b->tlb;
  if (b->tlb_gpu == wg->gpu && b->tlb_gen == gen) {
    g.tlb_next = b->tlb_next;
  } else {
    memset(b->tlb, 0, sizeof b->tlb);
  }
  uint32_t mode = ((wg->rsrc1 >> 12) & 0xff) | ((wg->rsrc1 >> 21) & 1) << 8 |
                  ((wg->rsrc1 >> 23) & 1) << 9 |
                  /* MODE.EXCP_EN[6:0] from RSRC2.EXCP_EN (bits 30:24), [8:7] from EXCP_EN_MSB */
                  ((wg->rsrc2 >> 24) & 0x7f) << ISA_MODE_EXCP_SHIFT |
                  ((wg->rsrc2 >> 13) & 3) << (ISA_MODE_EXCP_SHIFT + 7);
  for (unsigned i = 0; i < wg->wave_count; i++) {
    struct isa_wave *w = &b->waves[i];
    const struct sim_isa_wave_init *init = &wg->waves[i];
    /* zeroed but the fault text's bytes (160 of ~820), which no one reads unless a fault
     * fills them */
    zero_bytes(w, offsetof(struct isa_wave, fault.text));
    w->fault.text[0] = 0;
    zero_bytes((char *)w + offsetof(struct isa_wave, fault) + sizeof w->fault,
               sizeof *w - offsetof(struct isa_wave, fault) - sizeof w->fault);
    w->group = &g;
    w->id = i;
    w->pc = wg->code_entry;
    unsigned ns = init->sgpr_count < SIM_ISA_MAX_INIT_SGPRS ? init->sgpr_count : SIM_ISA_MAX_INIT_SGPRS;
    memcpy(w->sgpr, init->sgpr, ns * sizeof *w->sgpr);
    w->ttmp[7] = init->ttmp7;
    w->ttmp[9] = init->ttmp9;
    w->wave32 = wg->wave_size == 32;   /* 0 is 64 */
    w->exec = w->wave32 ? (uint32_t)init->exec : init->exec;
    w->mode = mode;
    w->sgpr_alloc = wg->sgpr_alloc && wg->sgpr_alloc < ISA_MAX_SGPRS ? wg->sgpr_alloc : ISA_MAX_SGPRS;
    w->vgpr_alloc = valloc;
    w->acc_base = acc_base;
    w->acc_count = acc_count;
    unsigned nv = init->vgpr_count < SIM_ISA_MAX_INIT_VGPRS ? init->vgpr_count : SIM_ISA_MAX_INIT_VGPRS;
    if (nv > valloc)
      nv = valloc;
    if (paired) {
      w->vgpr = (uint32_t (*)[SIM_ISA_WAVE_SIZE])(b->vgpr[(size_t)rows * (i / 2)] + 32 * (i % 2));
      for (unsigned r = 0; r < nv; r++)
        memcpy(w->vgpr[r], init->vgpr[r], 32 * sizeof init->vgpr[r][0]);
    } else {
      w->vgpr = b->vgpr + (size_t)rows * i;
      memcpy(w->vgpr, init->vgpr, nv * sizeof *w->vgpr);
    }
    w->scratch_wave_offset = init->scratch_wave_offset;
    w->scratch_va = wg->scratch_base + init->scratch_wave_offset;
    w->flat_scratch = wg->scratch_per_wave ? w->scratch_va : 0;
    /* the group's waves go round the CU's four SIMDs; WAVE_ID is the slot on its SIMD */
    w->hw_id = (wg->hw_id & ~0x3fu) | (i / 4 & 0xf) | (i % 4) << 4;
  }
  if (probe)
    probe_copy(&b->waves[0], probe, wg->lds_bytes, true);

  int rc = 0;
  for (;;) {
    unsigned live = 0, waiting = 0, halted = 0;
    for (unsigned i = 0; i < wg->wave_count; i++) {
      struct isa_wave *w = &b->waves[i];
      if (paired && !(i & 1) && i + 1 < wg->wave_count) {
        /* the pair in lockstep while it can; then each alone, below */
        struct isa_wave *v = &b->waves[i + 1], *who;
        if (!(w->ended | w->at_barrier | w->halted | v->ended | v->at_barrier | v->halted) &&
            isa_gang_run(w, v, &who)) {
          *fault = who->fault;
          if (fault->pc == 0)
            fault->pc = who->pc;
          rc = -1;
          goto out;
        }
      }
      if (w->ended)
        continue;
      if (!w->at_barrier && !w->halted && isa_wave_run(w)) {
        *fault = w->fault;
        if (fault->pc == 0)
          fault->pc = w->pc;
        rc = -1;
        goto out;
      }
      if (w->halted)
        halted++;
      else if (!w->ended) {
        live++;
        waiting += w->at_barrier;
      }
    }
    if (live && waiting == live && !halted) {   /* every live wave arrived: the barrier opens */
      for (unsigned i = 0; i < wg->wave_count; i++)
        b->waves[i].at_barrier = false;
      continue;
    }
    if (waiting == live && halted) {
      /* nothing left can run: a halted wave stays until the queue goes (the CP's business) */
      for (unsigned i = 0; i < wg->wave_count; i++)
        if (b->waves[i].halted) {
          memset(fault, 0, sizeof *fault);
          fault->kind = SIM_ISA_HALTED;
          fault->pc = b->waves[i].pc;
          snprintf(fault->text, sizeof fault->text, "wave %u halted at 0x%llx", i,
                   (unsigned long long)b->waves[i].pc);
          break;
        }
      rc = -1;
      goto out;
    }
    if (!live)
      break;
  }
out:
  if (probe)
    probe_copy(&b->waves[0], probe, wg->lds_bytes, false);
  isa_group_release(&g);
  /* only entries this group filled can be ones not to keep (the others were kept before) */
  if (g.tlb_drop)
    for (unsigned i = 0; i < ISA_GROUP_TLB; i++)
      if (!b->tlb[i].keep)
        b->tlb[i] = (struct isa_tlb_entry){ 0 };
  b->tlb_next = g.tlb_next;
  b->tlb_gen = gen;
  b->tlb_gpu = wg->gpu;
  if (!rc)
    memset(fault, 0, sizeof *fault);
  return rc;
}

int sim_isa_run_workgroup(const struct sim_isa_workgroup *wg, struct sim_isa_fault *fault)
{
  return run(wg, NULL, fault);
}

int sim_isa_run_probe(const struct sim_isa_workgroup *wg, struct sim_isa_probe *p,
                      struct sim_isa_fault *fault)
{
  struct sim_isa_fault dummy;
  if (!fault)
    fault = &dummy;
  if (!p || (wg && wg->wave_count != 1))
    return bad(fault, wg, "a probe runs one wave");
  return run(wg, p, fault);
}
