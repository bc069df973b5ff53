/* run.c — one workgroup at a time per calling thread: its waves run cooperatively, each
 * until it ends or reaches s_barrier, then the next; when every live wave waits at the
 * barrier they all go on. Register files and LDS are kept per thread between calls. */
#include "isa/exec.h"

#include <pthread.h>
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

static struct run_buf *run_buf(size_t vgpr_rows, size_t lds)
{
  pthread_once(&buf_once, buf_key_init);
  struct run_buf *b = pthread_getspecific(buf_key);
  if (!b) {
    if (!(b = calloc(1, sizeof *b)))
      return NULL;
    pthread_setspecific(buf_key, b);
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

static int bad(struct sim_isa_fault *f, const struct sim_isa_workgroup *wg, const char *why)
{
  memset(f, 0, sizeof *f);
  f->kind = SIM_ISA_FAULT_ILLEGAL;
  f->pc = wg ? wg->code_entry : 0;
  snprintf(f->text, sizeof f->text, "workgroup not runnable: %s", why);
  return -1;
}

int sim_isa_run_workgroup(const struct sim_isa_workgroup *wg, struct sim_isa_fault *fault)
{
  struct sim_isa_fault dummy;
  if (!fault)
    fault = &dummy;
  if (!wg || !wg->gpu || !wg->waves)
    return bad(fault, wg, "no GPU or no waves");
  if (wg->wave_count == 0 || wg->wave_count > SIM_ISA_MAX_WAVES_PER_GROUP)
    return bad(fault, wg, "wave count out of range");
  if (wg->vgpr_alloc == 0 || wg->vgpr_alloc > 2 * ISA_MAX_VGPRS)
    return bad(fault, wg, "VGPR allocation out of range");
  /* gfx90a's unified file counts AGPRs too (up to 512): the VGPRs are at most 256 */
  unsigned valloc = wg->vgpr_alloc < ISA_MAX_VGPRS ? wg->vgpr_alloc : ISA_MAX_VGPRS;
  unsigned rows = valloc + VGPR_SLACK;
  /* LDS is allocated in 128-dword granules: accesses within the granule are in range */
  uint32_t lds_size = (uint32_t)(((uint64_t)wg->lds_bytes + 511) & ~511ull);
  if (wg->lds_bytes > 65536)
    return bad(fault, wg, "LDS size beyond 64 KiB");
  struct run_buf *b = run_buf((size_t)rows * wg->wave_count, lds_size);
  if (!b)
    return bad(fault, wg, "out of memory");

  struct isa_group g;
  memset(&g, 0, sizeof g);
  g.wg = wg;
  g.lds = lds_size ? b->lds : NULL;
  g.lds_size = lds_size;
  g.waves = b->waves;
  uint32_t mode = ((wg->rsrc1 >> 12) & 0xff) | ((wg->rsrc1 >> 21) & 1) << 8 |
                  ((wg->rsrc1 >> 23) & 1) << 9;
  for (unsigned i = 0; i < wg->wave_count; i++) {
    struct isa_wave *w = &b->waves[i];
    const struct sim_isa_wave_init *init = &wg->waves[i];
    memset(w, 0, sizeof *w);
    w->group = &g;
    w->id = i;
    w->pc = wg->code_entry;
    unsigned ns = init->sgpr_count < SIM_ISA_MAX_INIT_SGPRS ? init->sgpr_count : SIM_ISA_MAX_INIT_SGPRS;
    memcpy(w->sgpr, init->sgpr, ns * sizeof *w->sgpr);
    w->exec = init->exec;
    w->mode = mode;
    w->sgpr_alloc = wg->sgpr_alloc && wg->sgpr_alloc < ISA_MAX_SGPRS ? wg->sgpr_alloc : ISA_MAX_SGPRS;
    w->vgpr_alloc = valloc;
    w->vgpr = b->vgpr + (size_t)rows * i;
    unsigned nv = init->vgpr_count < SIM_ISA_MAX_INIT_VGPRS ? init->vgpr_count : SIM_ISA_MAX_INIT_VGPRS;
    if (nv > valloc)
      nv = valloc;
    memcpy(w->vgpr, init->vgpr, nv * sizeof *w->vgpr);
    w->scratch_wave_offset = init->scratch_wave_offset;
    w->scratch_va = wg->scratch_base + init->scratch_wave_offset;
    w->flat_scratch = wg->scratch_per_wave ? w->scratch_va : 0;
    w->hw_id = (i & 0xf) | (i & 3) << 4;
  }

  int rc = 0;
  for (;;) {
    unsigned live = 0, waiting = 0;
    for (unsigned i = 0; i < wg->wave_count; i++) {
      struct isa_wave *w = &b->waves[i];
      if (w->ended)
        continue;
      if (!w->at_barrier && isa_wave_run(w)) {
        *fault = w->fault;
        if (fault->pc == 0)
          fault->pc = w->pc;
        rc = -1;
        goto out;
      }
      if (!w->ended) {
        live++;
        waiting += w->at_barrier;
      }
    }
    if (!live)
      break;
    if (waiting == live)   /* every live wave arrived: the barrier opens */
      for (unsigned i = 0; i < wg->wave_count; i++)
        b->waves[i].at_barrier = false;
  }
out:
  isa_group_release(&g);
  if (!rc)
    memset(fault, 0, sizeof *fault);
  return rc;
}
