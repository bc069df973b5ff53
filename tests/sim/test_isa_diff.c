/* SPDX-License-Identifier: MIT */
/* test_isa_diff.c — the fast engine (sim/isa/fast.c) against the reference interpreter,
 * instruction by instruction and block by block. Every encoding of test_isa_wset's forms
 * (wset_forms.h: each opcode of the decoder's tables in each form, every candidate operand
 * combination the decoder takes) runs from the same random register state once on each
 * engine (sim_isa_probe_engine), in several states: random EXEC, every lane, no lane, wave32
 * with every lane and with random lanes, and a random MODE (rounding, denormals,
 * floating-point exceptions); the final states (every SGPR, VGPR row, special register, pc,
 * fault, and for memory forms the global, scratch and LDS bytes) must be identical. Then
 * random straight-line blocks of the encodings the fast engine specialises (VALU, LDS and
 * global dword accesses, the latter also in whole-wave and run address patterns; VALU
 * destinations rewritten so that results feed later instructions, EXEC-writing compares
 * mixed in; every other block with scalar compares, no-ops and forward branches between
 * them) run both ways and must end the same. No LLVM needed. DIFF_SEED=n runs another
 * seed; HSA_TEST_SANITIZED=1 runs a quarter of the forms. */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "kfd_fixture.h"
#include "isa_fixture.h"
#include "isa/exec.h"
#include "isa/fast.h"
#include "wset_forms.h"
#include "wset_llvm.h"
#include "wset_run.h"

#include <stdlib.h>
#include <time.h>

#define DIFF_PASSES 6
#define DIFF_BLOCK 16        /* instructions per random block */

struct diff_out {
  struct sim_isa_probe p;
  int rc;
  struct sim_isa_fault fault;
  uint8_t *g, *s, *lds;      /* memory after the run (memory forms only) */
};

struct diff_ctx {
  struct wset_env e;
  struct diff_out out[2];
  unsigned runs, mismatches, fast_hits;
};

static void diff_out_alloc(struct diff_out *o)
{
  o->g = malloc(WSET_GBUF);
  o->s = malloc(WSET_SBUF);
  o->lds = malloc(WSET_LDS);
  ck_assert(o->g && o->s && o->lds);
}

/* Pass-specific changes to the state wset_state made: wave size, EXEC, MODE. */
/* the register state's form for the fixed programs: a VOP3 with nothing chosen */
static const struct wset_form diff_blank = { .kind = WK_VOP3 };

/* a fixed program (its words) in GPU-visible memory */
static uint32_t *diff_code(const uint32_t *prog, size_t bytes)
{
  uint32_t *code = isa_fx_mem(bytes);
  memcpy(code, prog, bytes);
  return code;
}

static unsigned diff_state(struct diff_ctx *d, const struct wset_form *f, unsigned index,
                           unsigned pass)
{
  wset_state(&d->e, f, index, pass < 3 ? pass : pass == 4 ? 1 : 0);
  struct sim_isa_probe *p = d->e.init;
  uint64_t s = d->e.seed * 31 + index * 7 + pass;
  wset_rnd(&s);
  switch (pass) {
  case 3: p->exec = 0xffffffffull; return 32;              /* wave32, every lane */
  case 4:                                                  /* random MODE */
    p->mode = (WSET_MODE & ~0xffu) | (uint32_t)(wset_rnd(&s) & 0xff);
    if (wset_rnd(&s) & 1)
      p->mode |= (uint32_t)(wset_rnd(&s) & 0x3f) << ISA_MODE_EXCP_SHIFT;
    return 64;
  case 5: p->exec = (uint32_t)wset_rnd(&s) | 1; return 32;  /* wave32, random lanes */
  default: return 64;
  }
}

/* One run of the code at `entry` from d->e.init on the chosen engine. */
static void diff_run(struct diff_ctx *d, uint64_t entry, unsigned wave, bool reference,
                     bool restore, bool memory, struct diff_out *o)
{
  struct wset_env *e = &d->e;
  sim_isa_probe_engine(reference);
  if (restore || memory) {
    memcpy(e->gbuf, e->gref, WSET_GBUF);
    memcpy(e->sbuf, e->sref, WSET_SBUF);
    memcpy(e->lds, e->ldsref, WSET_LDS);
  }
  struct sim_isa_workgroup wg;
  struct sim_isa_wave_init wi;
  memset(&wg, 0, sizeof wg);
  memset(&wi, 0, sizeof wi);
  wg.gpu = sim_gpu(0);
  wg.code_entry = entry;
  wg.wave_count = 1;
  wg.wave_size = wave;
  wg.waves = &wi;
  wg.sgpr_alloc = 102;
  wg.vgpr_alloc = 256;
  wg.lds_bytes = WSET_LDS;
  wg.rsrc1 = 1u << 21 | 1u << 23 | 0xf0u << 12;
  wg.scratch_base = (uintptr_t)e->sbuf;
  wg.scratch_per_wave = WSET_SBUF;
  wg.shared_base = WSET_SHARED;
  wg.shared_limit = wg.shared_base + 0xffffffffull;
  wg.private_base = WSET_PRIVATE;
  wg.private_limit = wg.private_base + 0xffffffffull;
  wg.tba = entry + 16;
  memcpy(&o->p, e->init, sizeof o->p);
  o->p.lds = restore || memory ? e->lds : NULL;
  memset(&o->fault, 0, sizeof o->fault);
  o->rc = sim_isa_run_probe(&wg, &o->p, &o->fault);
  if (memory) {
    memcpy(o->g, e->gbuf, WSET_GBUF);
    memcpy(o->s, e->sbuf, WSET_SBUF);
    memcpy(o->lds, e->lds, WSET_LDS);
  }
}

/* The first difference between the two runs, or NULL. */
static const char *diff_cmp(const struct diff_out *a, const struct diff_out *b, bool memory,
                            char *buf, size_t n)
{
  const struct sim_isa_probe *p = &a->p, *q = &b->p;
  if (a->rc != b->rc || a->fault.kind != b->fault.kind || strcmp(a->fault.text, b->fault.text)) {
    snprintf(buf, n, "result: reference %d \"%.60s\", fast %d \"%.60s\"", a->rc, a->fault.text,
             b->rc, b->fault.text);
    return buf;
  }
#define F(x, name)                                                                          \
  if (p->x != q->x) {                                                                       \
    snprintf(buf, n, "%s: reference 0x%llx, fast 0x%llx", name, (unsigned long long)p->x,  \
             (unsigned long long)q->x);                                                     \
    return buf;                                                                             \
  }
  F(pc, "pc") F(vcc, "vcc") F(exec, "exec") F(flat_scratch, "flat_scratch")
  F(xnack_mask, "xnack_mask") F(m0, "m0") F(scc, "scc") F(mode, "mode") F(trapsts, "trapsts")
#undef F
  for (unsigned i = 0; i < SIM_ISA_PROBE_SGPRS; i++)
    if (p->sgpr[i] != q->sgpr[i]) {
      snprintf(buf, n, "s%u: reference 0x%x, fast 0x%x", i, p->sgpr[i], q->sgpr[i]);
      return buf;
    }
  for (unsigned i = 0; i < 16; i++)
    if (p->ttmp[i] != q->ttmp[i]) {
      snprintf(buf, n, "ttmp%u: reference 0x%x, fast 0x%x", i, p->ttmp[i], q->ttmp[i]);
      return buf;
    }
  for (unsigned r = 0; r < SIM_ISA_PROBE_VGPRS; r++)
    for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++)
      if (p->vgpr[r][l] != q->vgpr[r][l]) {
        snprintf(buf, n, "v%u lane %u: reference 0x%x, fast 0x%x", r, l, p->vgpr[r][l],
                 q->vgpr[r][l]);
        return buf;
      }
  if (memory && memcmp(a->lds, b->lds, WSET_LDS)) {
    snprintf(buf, n, "LDS differs");
    return buf;
  }
  if (memory && memcmp(a->g, b->g, WSET_GBUF)) {
    snprintf(buf, n, "global memory differs");
    return buf;
  }
  if (memory && memcmp(a->s, b->s, WSET_SBUF)) {
    snprintf(buf, n, "scratch differs");
    return buf;
  }
  return NULL;
}

/* Runs the code at `entry` both ways from the current d->e.init; true when they agree. */
static bool diff_both(struct diff_ctx *d, uint64_t entry, unsigned wave, bool restore,
                      bool memory, const char *what, unsigned pass)
{
  struct sim_isa_probe *init = d->e.init;
  struct sim_isa_probe keep;
  memcpy(&keep, init, sizeof keep);
  diff_run(d, entry, wave, true, restore, memory, &d->out[0]);
  memcpy(init, &keep, sizeof keep);
  diff_run(d, entry, wave, false, restore, memory, &d->out[1]);
  memcpy(init, &keep, sizeof keep);
  d->runs++;
  char buf[320];
  const char *why = diff_cmp(&d->out[0], &d->out[1], memory, buf, sizeof buf);
  if (!why)
    return true;
  if (d->mismatches++ < 20)
    fprintf(stderr, "  DIFF %s (pass %u, wave%u, exec 0x%llx, mode 0x%x): %s\n", what, pass,
            wave, (unsigned long long)keep.exec, keep.mode, why);
  return false;
}

static bool diff_memory_kind(unsigned kind)
{
  return !wset_is_valu(kind) && kind != WK_SOP2 && kind != WK_SOPK && kind != WK_SOP1 &&
         kind != WK_SOPC && kind != WK_SOPP;
}

/* Decodes the candidate; whether the decoder knows it, and its fast semantics. */
static bool diff_decode(const uint32_t *w, uint8_t target, struct isa_inst *in)
{
  isa_decode(w, 3, 0, target, in);
  return in->exec != isa_exec_unknown;
}

/* ---- random blocks of specialised VALU encodings ---- */
struct diff_enc {
  uint32_t w[3];
  unsigned nw;
};

/* After a block differed: the first instruction after which the states differ (the block
 * cut short by an s_endpgm there), named. */
static void diff_first(struct diff_ctx *d, uint32_t *block, unsigned wave, unsigned pass)
{
  unsigned mism = d->mismatches, at = 0;
  for (unsigned i = 0; i < DIFF_BLOCK; i++) {
    struct isa_inst in;
    isa_decode(block + at, 3, 0, isa_target_of(sim_gpu(0)), &in);
    unsigned next = at + in.size / 4;
    uint32_t save = block[next];
    block[next] = WSET_ENDPGM;
    char what[96];
    snprintf(what, sizeof what, "  instruction %u of it, %s (0x%08x 0x%08x)", i,
             in.name ? in.name : "?", block[at], in.size > 4 ? block[at + 1] : 0);
    bool same = diff_both(d, (uintptr_t)block, wave, true, true, what, pass);
    block[next] = save;
    if (!same)
      break;
    at = next;
  }
  d->mismatches = mism;   /* the block counted already */
}

static void diff_blocks(struct diff_ctx *d, const struct diff_enc *enc, unsigned nenc,
                        unsigned blocks)
{
  if (!nenc)
    return;
  /* room for a scalar compare or branch before each instruction */
  size_t len = (size_t)blocks * (DIFF_BLOCK * 4 + 4) * 4;
  uint32_t *code = isa_fx_mem(len);
  uint64_t s = d->e.seed ^ 0xb10c;
  unsigned at = 0;
  uint32_t *starts = malloc(blocks * sizeof *starts);
  ck_assert_ptr_nonnull(starts);
  static const unsigned vregs[] = { 10, 20, 30, 40 };
  for (unsigned b = 0; b < blocks; b++) {
    starts[b] = at;
    uint32_t w[DIFF_BLOCK][3];
    unsigned nw[DIFF_BLOCK];
    for (unsigned i = 0; i < DIFF_BLOCK; i++) {
      const struct diff_enc *x = &enc[wset_rnd(&s) % nenc];
      memcpy(w[i], x->w, sizeof w[i]);
      nw[i] = x->nw;
      /* rewrite the VGPR destination (VOP3: bits 7:0; VOP2/VOP1: bits 24:17) so that
       * results feed the following instructions */
      unsigned v = vregs[wset_rnd(&s) % 4];
      if ((w[i][0] >> 26) == 0x34) {
        struct isa_inst in;
        isa_decode(w[i], 3, 0, ISA_TARGET_GFX900, &in);
        if (in.fmt != ISA_VOPC && in.dst >= ISA_OP_VGPR0)
          w[i][0] = (w[i][0] & ~0xffu) | v;
      } else if (!(w[i][0] >> 31) && (w[i][0] >> 25) != 0x3e) {   /* VOP2 / VOP1, not VOPC */
        w[i][0] = (w[i][0] & ~(0xffu << 17)) | v << 17;
      }
    }
    /* every other block: scalar instructions between them, which the fast engine's blocks
     * (sim/isa/decode.c) run with their checks: a compare of two random SGPRs setting SCC
     * (s_cmp_*_i32/u32, SOPC 0..11), a no-op or s_waitcnt, or a conditional branch on
     * SCC/VCC/EXEC forward over the next one to three instructions (taken or not: a
     * block left in the middle, another entered there) */
    for (unsigned i = 0; i < DIFF_BLOCK; i++) {
      unsigned r = b % 2 ? (unsigned)(wset_rnd(&s) % 8) : 7;
      if (r < 2) {
        code[at++] = 0xbf000000u | (unsigned)(wset_rnd(&s) % 12) << 16 |
                     (unsigned)(wset_rnd(&s) % 16) << 8 | (unsigned)(wset_rnd(&s) % 16);
      } else if (r == 2) {
        code[at++] = wset_rnd(&s) % 2 ? 0xbf800000u : 0xbf8c0000u;   /* s_nop 0, s_waitcnt 0 */
      } else if (r < 5) {
        unsigned over = 1 + (unsigned)(wset_rnd(&s) % 3), dw = 0;
        for (unsigned k = i; k < i + over && k < DIFF_BLOCK; k++)
          dw += nw[k];
        code[at++] = 0xbf800000u | (4u + (unsigned)(wset_rnd(&s) % 6)) << 16 | dw;
      }
      for (unsigned k = 0; k < nw[i]; k++)
        code[at++] = w[i][k];
    }
    code[at++] = WSET_ENDPGM;
  }
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned pass = 0; pass < DIFF_PASSES; pass++) {
      if (pass == 2)
        continue;   /* no lane: nothing to compare beyond the single instructions */
      unsigned wave = diff_state(d, &diff_blank, 100000 + b, pass);
      char what[64];
      snprintf(what, sizeof what, "block %u", b);
      if (!diff_both(d, (uintptr_t)(code + starts[b]), wave, true, true, what, pass))
        diff_first(d, code + starts[b], wave, pass);
    }
  free(starts);
}

/* global_atomic_add with every lane at one address (the fast engine sums the lanes into one
 * host atomic; the random forms above give each lane its own address): saddr and 64-bit
 * address forms, wave64 and wave32, every lane on (words from llvm-mc-15 -mcpu=gfx900:
 * global_atomic_add v20, v21, s[40:41]; global_atomic_add v[20:21], v22, off offset:8). */
static void diff_atomic_uniform(struct diff_ctx *d, uint8_t target)
{
  static const uint32_t forms[2][2] = { { 0xdd088000u, 0x00281514u }, { 0xdd088008u, 0x007f1614u } };
  uint32_t *code = isa_fx_mem(64);
  uint64_t gb = (uintptr_t)d->e.gbuf, s = d->e.seed ^ 0xa70u;
  for (unsigned f = 0; f < 2; f++) {
    code[0] = forms[f][0];
    code[1] = forms[f][1];
    code[2] = WSET_ENDPGM;
    struct isa_inst in;
    isa_decode(code, 3, 0, target, &in);
    ck_assert_msg(in.fast != NULL, "global_atomic_add form %u has no fast semantics", f);
    for (unsigned pass = 1; pass <= 3; pass += 2) {   /* wave64 and wave32, every lane */
      unsigned wave = diff_state(d, &diff_blank, 200000 + f * 8 + pass, pass);
      struct sim_isa_probe *p = d->e.init;
      uint64_t at = gb + WSET_GBASE + 64 + 4 * (wset_rnd(&s) % 16);
      p->sgpr[40] = (uint32_t)gb;
      p->sgpr[41] = (uint32_t)(gb >> 32);
      for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++) {
        if (f == 0) {
          p->vgpr[20][l] = (uint32_t)(at - gb);
        } else {
          p->vgpr[20][l] = (uint32_t)(at - 8);
          p->vgpr[21][l] = (uint32_t)((at - 8) >> 32);
        }
        p->vgpr[21 + f][l] = (uint32_t)wset_rnd(&s);
      }
      char what[64];
      snprintf(what, sizeof what, "global_atomic_add at one address, form %u", f);
      diff_both(d, (uintptr_t)code, wave, true, true, what, pass);
    }
  }
}

/* global_load_dword / global_store_dword with the address patterns the fast engine copies
 * whole (every lane's dword after the one before, from an 8-byte-aligned start: one
 * translation and 64-bit pieces; from a start 4 bytes past one) and those it takes lane by
 * lane or in runs (two runs, one lane out of line, random dwords), wave64 and wave32, every
 * lane, in the 64-bit address and the saddr forms, once with the destination the address
 * register (words from llvm-mc-15 -mcpu=gfx900: global_load_dword v8, v[10:11], off;
 * global_load_dword v8, v10, s[40:41] offset:4; global_store_dword v[10:11], v12, off
 * offset:-8; global_store_dword v10, v12, s[40:41]; global_load_dword v10, v[10:11], off).
 * Fails on a wrong piece of the whole-wave copy (checked by breaking one 64-bit piece of the
 * load and of the store). */
static void diff_global_runs(struct diff_ctx *d, uint8_t target)
{
  static const uint32_t forms[5][2] = { { 0xdc508000u, 0x087f000au }, { 0xdc508004u, 0x0828000au },
                                        { 0xdc709ff8u, 0x007f0c0au }, { 0xdc708000u, 0x00280c0au },
                                        { 0xdc508000u, 0x0a7f000au } };
  static const int32_t offs[5] = { 0, 4, -8, 0, 0 };
  uint32_t *code = isa_fx_mem(64);
  uint64_t gb = (uintptr_t)d->e.gbuf, s = d->e.seed ^ 0x61bu;
  for (unsigned f = 0; f < 5; f++) {
    code[0] = forms[f][0];
    code[1] = forms[f][1];
    code[2] = WSET_ENDPGM;
    struct isa_inst in;
    isa_decode(code, 3, 0, target, &in);
    ck_assert_msg(in.fast != NULL, "global dword form %u has no fast semantics", f);
    bool saddr = f == 1 || f == 3;
    for (unsigned r = 0; r < 6; r++)
      for (unsigned pass = 1; pass <= 3; pass += 2) {   /* wave64 and wave32, every lane */
        unsigned wave = diff_state(d, &diff_blank, 500000 + f * 64 + r * 4 + pass, pass);
        struct sim_isa_probe *p = d->e.init;
        /* r: 0 contiguous from 8-aligned, 1 from 4 past it, 2 two runs, 3 one lane out of
         * line, 4 random dwords, 5 contiguous again (another start) */
        uint64_t at = gb + WSET_GBASE + 8 * (wset_rnd(&s) % 512) + (r == 1 ? 4 : 0);
        uint64_t at2 = gb + WSET_GBASE + 8192 + 8 * (wset_rnd(&s) % 512);
        p->sgpr[40] = (uint32_t)(gb + 64);
        p->sgpr[41] = (uint32_t)((gb + 64) >> 32);
        for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++) {
          uint64_t a = r == 2 && l >= wave / 2 ? at2 + 4 * l
                       : r == 4 ? gb + WSET_GBASE + 4 * (wset_rnd(&s) % 4096)
                       : at + 4 * l + (r == 3 && l == wave / 2 + 5 ? 8 : 0);
          a -= (uint64_t)(int64_t)offs[f];
          if (saddr) {
            p->vgpr[10][l] = (uint32_t)(a - (gb + 64));
          } else {
            p->vgpr[10][l] = (uint32_t)a;
            p->vgpr[11][l] = (uint32_t)(a >> 32);
          }
        }
        char what[64];
        snprintf(what, sizeof what, "global dword form %u, address pattern %u", f, r);
        diff_both(d, (uintptr_t)code, wave, true, true, what, pass);
      }
  }
}

/* ds_read_b32 / ds_read2_b32 with the address patterns the fast engine takes whole 16-lane
 * groups of (one address; consecutive dwords) mixed with random ones, wave64 and wave32,
 * every lane, the destination once the address register itself (words from llvm-mc-15
 * -mcpu=gfx900: ds_read2_b32 v[8:9], v10 offset0:2 offset1:3; ds_read_b32 v8, v10
 * offset:4; ds_read2_b32 v[10:11], v10 offset1:16; ds_read2st64_b32 v[8:9], v10
 * offset0:1 offset1:2). In two patterns of eight one group reaches past the LDS's end (one
 * address, a run that straddles it, or one lane of a random group): the engine checks the
 * groups as it classifies them and must leave those to the reference. */
static void diff_lds_groups(struct diff_ctx *d, uint8_t target)
{
  static const uint32_t forms[4][2] = { { 0xd86e0302u, 0x0800000au }, { 0xd86c0004u, 0x0800000au },
                                        { 0xd86e1000u, 0x0a00000au }, { 0xd8700201u, 0x0800000au } };
  /* the same four for gfx1100 (llvm-mc-19: ds_load_2addr_b32, ds_load_b32,
   * ds_load_2addr_stride64_b32) */
  static const uint32_t forms11[4][2] = { { 0xd8dc0302u, 0x0800000au }, { 0xd8d80004u, 0x0800000au },
                                          { 0xd8dc1000u, 0x0a00000au }, { 0xd8e00201u, 0x0800000au } };
  bool g11 = target == isa_target_named("gfx1100");
  uint32_t *code = isa_fx_mem(64);
  uint64_t s = d->e.seed ^ 0x1d5u;
  for (unsigned f = 0; f < 4; f++) {
    code[0] = g11 ? forms11[f][0] : forms[f][0];
    code[1] = g11 ? forms11[f][1] : forms[f][1];
    code[2] = WSET_ENDPGM;
    struct isa_inst in;
    isa_decode(code, 3, 0, target, &in);
    ck_assert_msg(in.fast != NULL, "ds form %u has no fast semantics", f);
    for (unsigned r = 0; r < 8; r++)
      for (unsigned pass = 1; pass <= 3; pass += 2) {   /* wave64 and wave32, every lane */
        unsigned wave = diff_state(d, &diff_blank, 400000 + f * 64 + r * 4 + pass, pass);
        struct sim_isa_probe *p = d->e.init;
        for (unsigned g = 0; g < SIM_ISA_WAVE_SIZE / 16; g++) {
          unsigned kind = (unsigned)(wset_rnd(&s) % 3);
          uint32_t base = 4 * (uint32_t)(wset_rnd(&s) % ((WSET_LDS - 256) / 4));
          for (unsigned j = 0; j < 16; j++)
            p->vgpr[10][16 * g + j] = kind == 0 ? base : kind == 1 ? base + 4 * j
                                      : 4 * (uint32_t)(wset_rnd(&s) % ((WSET_LDS - 256) / 4));
          if (r >= 6 && g == (unsigned)(wset_rnd(&s) % (SIM_ISA_WAVE_SIZE / 16))) {
            uint32_t end = WSET_LDS - 32 + 4 * (uint32_t)(wset_rnd(&s) % 16);
            for (unsigned j = 0; j < 16; j++)
              p->vgpr[10][16 * g + j] = kind == 0 ? end : kind == 1 ? end + 4 * j
                                        : j == 5 ? WSET_LDS + 4 : p->vgpr[10][16 * g + j];
          }
        }
        char what[64];
        snprintf(what, sizeof what, "ds read form %u, address pattern %u", f, r);
        diff_both(d, (uintptr_t)code, wave, true, true, what, pass);
      }
  }
}

/* v_add_co_u32 then v_addc_co_u32: the pair the fast engine runs as one 64-bit add
 * (isa_fast_fuse). Random pairs of the VOP2 (VCC) and VOP3B (an SGPR pair, VCC or EXEC as
 * the mask) forms with registers from a small set, so that the second often reads the
 * first's result or mask, the carry sometimes comes from elsewhere, and destinations
 * coincide; each from random registers in wave64 and wave32, all lanes and random lanes.
 * Fails when fewer than a quarter of them are pairs the engine fuses. */
static uint32_t diff_pair_src(uint64_t *s, bool vop3, bool *literal)
{
  static const uint16_t codes[] = { 256 + 10, 256 + 11, 256 + 12, 256 + 13, 40, 41, 42,
                                    ISA_OP_VCC_LO, 128, 129, 193, 255 };
  for (;;) {
    uint32_t c = codes[wset_rnd(s) % (sizeof codes / sizeof codes[0])];
    if (c == 255 && vop3)
      continue;   /* no literal in gfx9's VOP3 */
    if (c == 255)
      *literal = true;
    return c;
  }
}

static unsigned diff_pair_enc(uint64_t *s, uint32_t *out, unsigned op, uint32_t dst,
                              uint32_t sdst, uint32_t cin, bool vop3)
{
  bool literal = false;
  uint32_t s0 = diff_pair_src(s, vop3, &literal);
  uint32_t s1 = vop3 ? diff_pair_src(s, true, &literal) : 10 + (uint32_t)(wset_rnd(s) % 4);
  if (!vop3) {
    out[0] = op << 25 | dst << 17 | s1 << 9 | s0;
    if (literal)
      out[1] = (uint32_t)wset_rnd(s);
    return literal ? 2 : 1;
  }
  out[0] = 0x34u << 26 | (0x100u + op) << 16 | sdst << 8 | dst;
  out[1] = s0 | s1 << 9 | cin << 18;
  return 2;
}

static void diff_pairs(struct diff_ctx *d, uint8_t target, unsigned count)
{
  static const uint32_t masks[] = { ISA_OP_VCC_LO, 44, 46, 45, ISA_OP_EXEC_LO, 40 };
  const unsigned nm = sizeof masks / sizeof masks[0];
  uint32_t *code = isa_fx_mem((size_t)count * 8 * 4);
  uint64_t s = d->e.seed ^ 0xadd64u;
  unsigned fused = 0;
  for (unsigned i = 0; i < count; i++) {
    uint32_t *c = code + 8 * i;
    bool v3a = wset_rnd(&s) % 3 == 0, v3b = wset_rnd(&s) % 3 == 0;
    uint32_t mask = v3a ? masks[wset_rnd(&s) % nm] : ISA_OP_VCC_LO;
    uint32_t cin = wset_rnd(&s) % 5 ? mask : masks[wset_rnd(&s) % nm];
    uint32_t mask2 = v3b ? masks[wset_rnd(&s) % nm] : ISA_OP_VCC_LO;
    unsigned n = diff_pair_enc(&s, c, 25, 10 + (uint32_t)(wset_rnd(&s) % 4), mask, 0, v3a);
    n += diff_pair_enc(&s, c + n, 28, 10 + (uint32_t)(wset_rnd(&s) % 4), mask2, cin, v3b);
    c[n] = WSET_ENDPGM;
    struct isa_inst a, b;
    isa_decode(c, 3, 0, target, &a);
    isa_decode(c + a.size / 4, 3, a.size, target, &b);
    ck_assert_msg(a.name && !strncmp(a.name, "v_add_co_u32", 12) && b.name &&
                  !strncmp(b.name, "v_addc_co_u32", 13), "pair %u decodes as %s, %s", i,
                  a.name ? a.name : "?", b.name ? b.name : "?");
    fused += isa_fast_pairs(&a, &b);
    static const unsigned passes[] = { 0, 1, 3, 5 };
    for (unsigned k = 0; k < 4; k++) {
      unsigned wave = diff_state(d, &diff_blank, 300000 + i, passes[k]);
      char what[96];
      snprintf(what, sizeof what, "add64 pair %u (0x%08x 0x%08x 0x%08x 0x%08x)", i, c[0], c[1],
               c[2], c[3]);
      diff_both(d, (uintptr_t)c, wave, false, false, what, passes[k]);
    }
  }
  ck_assert_msg(fused >= count / 4, "only %u of %u add64 pairs fuse", fused, count);
}

/* Counted loops, whose back-edge the fast engine takes without leaving its block (decode.c
 * ENT_BRANCH) and whose counter and exit test are fast scalar forms (s_add/sub_u32/i32,
 * s_lshl/lshr_b32, s_ashr_i32, s_mul_i32, s_cmp_*): a reduce_stride-like body (a fused add
 * pair, v_xad_u32) then a second loop of one block, the first entered from a prologue, trip
 * counts 1-20 (words from llvm-mc-15 -mcpu=gfx900 of:
 *   s_mov_b32 s15, 7
 * loop:
 *   v_add_co_u32_e32 v10, vcc, s40, v10; v_addc_co_u32_e32 v11, vcc, v12, v11, vcc
 *   v_xad_u32 v13, v10, s11, v13; s_add_i32 s11, s11, 1; s_sub_u32 s12, s12, 3
 *   s_lshl_b32 s13, s11, 2; s_mul_i32 s14, s13, s12; s_add_u32 s15, s15, s14
 *   s_sub_i32 s16, s16, s15; s_lshr_b32 s17, s15, s11; s_ashr_i32 s18, s16, 3
 *   s_cmp_lt_u32 s11, s9; s_cbranch_scc1 loop; s_cmp_eq_u32 s11, s9; s_cbranch_scc0 loop
 *   s_cmp_ge_i32 s16, s17; s_cbranch_scc1 loop2; v_mov_b32 v14, s16
 * loop2:
 *   s_add_i32 s19, s19, -1; s_cmp_lg_u32 s19, 0; s_cbranch_scc1 loop2; s_endpgm).
 * Fails when a back-edge skips an iteration, restarts at the wrong entry, or a scalar form
 * computes a wrong SCC or result. */
static void diff_loops(struct diff_ctx *d, uint8_t target)
{
  static const uint32_t prog[] = {
    0xBE8F0087u, 0x32141428u, 0x3816170Cu, 0xD1F3000Du, 0x0434170Au, 0x810B810Bu, 0x808C830Cu,
    0x8E0D820Bu, 0x920E0C0Du, 0x800F0E0Fu, 0x81900F10u, 0x8F110B0Fu, 0x90128310u, 0xBF0A090Bu,
    0xBF85FFF2u, 0xBF06090Bu, 0xBF84FFF0u, 0xBF031110u, 0xBF850001u, 0x7E1C0210u, 0x8113C113u,
    0xBF078013u, 0xBF85FFFDu, 0xBF810000u,
  };
  if (target >= isa_target_named("gfx1100"))
    return;   /* gfx9 encodings */
  uint32_t *code = diff_code(prog, sizeof prog);
  uint64_t s = d->e.seed ^ 0x100bu;
  static const unsigned passes[] = { 0, 1, 3, 5 };
  for (unsigned r = 0; r < 24; r++) {
    unsigned pass = passes[r % 4];
    unsigned wave = diff_state(d, &diff_blank, 500000 + r, pass);
    struct sim_isa_probe *p = d->e.init;
    /* s11 counts up to s9 (1-20 trips, from near the top of the range in some runs), s19
     * down to 0 (1-10 trips) */
    uint32_t from = r % 3 ? (uint32_t)(wset_rnd(&s) % 1000) : 0xfffffff0u - (uint32_t)(r % 8);
    p->sgpr[11] = from;
    p->sgpr[9] = from + 1 + (uint32_t)(wset_rnd(&s) % 20);
    p->sgpr[19] = 1 + (uint32_t)(wset_rnd(&s) % 10);
    char what[64];
    snprintf(what, sizeof what, "counted loops, run %u", r);
    diff_both(d, (uintptr_t)code, wave, false, false, what, pass);
  }
}

/* Scalar arithmetic with a constant operand (the fast engine's per-shape forms: an SGPR and
 * an inline integer or literal run as `_sk`/`_k`; anything else, inline floats and special
 * sources included, through the generic read): words from llvm-mc-15 -mcpu=gfx900 of
 * s_mov_b32 s20, 1.0; s_mov_b32 s21, -4.0; s_mov_b32 s22, 0.15915494; s_and_b32 s23, s40,
 * 0.5; s_add_u32 s24, s40, 2.0; s_cmp_eq_u32 s40, 1.0; s_cselect_b32 s25, 1, 0; s_mov_b32
 * s26, src_shared_base; s_add_u32 s27, s40, src_private_base; s_cmp_eq_u32 s40, 0;
 * s_mov_b32 s28, src_scc; s_mul_i32 s29, s40, -16; s_mov_b32 s30, 64; s_xor_b32 s31, s40,
 * 0x12345678; s_endpgm. Fails when a form reads an inline float or a special source as an
 * inline integer. */
static void diff_salu_const(struct diff_ctx *d, uint8_t target)
{
  static const uint32_t prog[] = {
    0xbe9400f2u, 0xbe9500f7u, 0xbe9600f8u, 0x8617f028u, 0x8018f428u, 0xbf06f228u,
    0x85198081u, 0xbe9a00ebu, 0x801bed28u, 0xbf068028u, 0xbe9c00fdu, 0x921dd028u,
    0xbe9e00c0u, 0x881fff28u, 0x12345678u, 0xbf810000u,
  };
  if (target >= isa_target_named("gfx1100"))
    return;   /* gfx9 encodings */
  uint32_t *code = diff_code(prog, sizeof prog);
  static const uint32_t s40[] = { 0, 0x3f800000u, 7 };
  for (unsigned r = 0; r < 3; r++) {
    unsigned wave = diff_state(d, &diff_blank, 610000 + r, 0);
    d->e.init->sgpr[40] = s40[r];
    diff_both(d, (uintptr_t)code, wave, false, false, "scalar constants", 0);
    ck_assert_msg(d->out[0].p.sgpr[20] == 0x3f800000u && d->out[0].p.sgpr[21] == 0xc0800000u,
                  "reference: s20 0x%08x, s21 0x%08x", d->out[0].p.sgpr[20],
                  d->out[0].p.sgpr[21]);
  }
}

/* Scalar loads (the fast engine's one function a dword count, translated through the
 * instruction's hinted entry): from a buffer of its own, at bases that keep every load
 * inside, that put a 64-bit piece on a dword that is not 8-byte aligned, that make the
 * dwordx16 or the first load run past the buffer's end (a page fault, the wave's
 * memory-violation exception) or start past it, and an unmapped 1 GiB (words from llvm-mc-15
 * -mcpu=gfx900 of: s_load_dwordx4 s[20:23], s[40:41], 0x0; s_load_dword s24, s[40:41], 0x10;
 * s_load_dwordx2 s[26:27], s[40:41], 0x14; s_load_dwordx8 s[28:35], s[40:41], 0x20;
 * s_load_dwordx16 s[44:59], s[40:41], 0x40; s_endpgm). Fails when a form loads the wrong
 * dwords or count, writes SGPRs before a refused translation, or loses or changes the
 * fault. */
static void diff_s_load(struct diff_ctx *d, uint8_t target)
{
  static const uint32_t prog[] = {
    0xC00A0514u, 0x00000000u, 0xC0020614u, 0x00000010u, 0xC0060694u, 0x00000014u,
    0xC00E0714u, 0x00000020u, 0xC0120B14u, 0x00000040u, 0xBF810000u,
  };
  if (target >= isa_target_named("gfx1100"))
    return;   /* gfx9 encodings */
  uint32_t *code = diff_code(prog, sizeof prog);
  static uint8_t *buf;
  if (!buf) {
    buf = isa_fx_mem(4096);
    for (unsigned i = 0; i < 4096; i++)
      buf[i] = (uint8_t)(i * 37 + 11);
  }
  uint64_t b = (uintptr_t)buf;
  const uint64_t bases[] = { b, b + 4, b + 2048, b + 4096 - 0x80, b + 4096 - 0x7c,
                             b + 4096 - 0x50, b + 4096 - 8, b + 4096, 0x40000000u };
  unsigned faults = 0;
  for (unsigned r = 0; r < sizeof bases / sizeof bases[0]; r++)
    for (unsigned pass = 0; pass < 2; pass++) {
      unsigned wave = diff_state(d, &diff_blank, 600000 + r * 2 + pass, pass ? 3 : 0);
      struct sim_isa_probe *p = d->e.init;
      p->sgpr[40] = (uint32_t)bases[r];
      p->sgpr[41] = (uint32_t)(bases[r] >> 32);
      char what[64];
      snprintf(what, sizeof what, "s_load, base %u", r);
      diff_both(d, (uintptr_t)code, wave, false, false, what, pass ? 3 : 0);
      faults += d->out[0].rc != 0 || d->out[0].fault.kind != SIM_ISA_FAULT_NONE ||
                d->out[0].p.trapsts != 0;
    }
  ck_assert_msg(faults >= 8, "only %u of the s_load runs past the buffer faulted", faults);
}

/* 64-bit compares and shifts as the fast engine runs them (8-lane vectors of 32-bit halves,
 * sign-bit masks, a uniform source as one vector; shifts by a uniform count straight into
 * the destination rows): values from a small set where the high halves are equal in about
 * half the lanes and the low halves often, so the low-half and equality terms decide, plus
 * shifts by counts 0-63 into a pair overlapping the source (words from llvm-mc-15
 * -mcpu=gfx900 of:
 *   v_cmp_lt_u64_e32 vcc, v[12:13], v[10:11]; v_cmp_gt_u64_e64 s[50:51], v[12:13], v[10:11]
 *   v_cmp_le_u64_e64 s[52:53], s[40:41], v[10:11]; v_cmp_ge_u64_e64 s[54:55], v[10:11], s[40:41]
 *   v_cmp_lt_i64_e64 s[56:57], v[12:13], v[10:11]; v_cmp_gt_i64_e64 s[58:59], -1, v[10:11]
 *   v_cmp_le_i64_e64 s[60:61], v[12:13], v[10:11]; v_cmp_ge_i64_e64 s[62:63], v[12:13], v[10:11]
 *   v_cmp_eq_u64_e64 s[64:65], v[12:13], v[10:11]; v_cmp_ne_i64_e64 s[66:67], s[40:41], v[10:11]
 *   v_cmp_gt_u64_e32 vcc, s[40:41], v[10:11]; v_lshlrev_b64 v[14:15], s42, v[10:11]
 *   v_lshrrev_b64 v[16:17], s43, v[12:13]; v_lshlrev_b64 v[19:20], 33, v[18:19]
 *   v_lshrrev_b64 v[12:13], 7, v[12:13]; v_lshlrev_b64 v[10:11], 0, v[10:11]
 *   v_cmpx_lt_u64_e64 s[68:69], v[12:13], v[16:17]; s_endpgm).
 * Fails when a compare drops its low-half or equality term, or a shift by 32 or more, or
 * into an overlapping pair, is wrong (issue 24, branch h24v). */
static void diff_cmp64_shift64(struct diff_ctx *d, uint8_t target)
{
  static const uint32_t prog[] = {
    0x7DD2150Cu, 0xD0EC0032u, 0x0002150Cu, 0xD0EB0034u, 0x00021428u, 0xD0EE0036u, 0x0000510Au,
    0xD0E10038u, 0x0002150Cu, 0xD0E4003Au, 0x000214C1u, 0xD0E3003Cu, 0x0002150Cu, 0xD0E6003Eu,
    0x0002150Cu, 0xD0EA0040u, 0x0002150Cu, 0xD0E50042u, 0x00021428u, 0x7DD81428u, 0xD28F000Eu,
    0x0002142Au, 0xD2900010u, 0x0002182Bu, 0xD28F0013u, 0x000224A1u, 0xD290000Cu, 0x00021887u,
    0xD28F000Au, 0x00021480u, 0xD0F90044u, 0x0002210Cu, 0xBF810000u,
  };
  static const uint32_t vals[] = { 0, 1, 5, 0x7fffffffu, 0x80000000u, 0xffffffffu };
  const unsigned nv = sizeof vals / sizeof vals[0];
  if (target >= isa_target_named("gfx1100"))
    return;   /* gfx9 encodings */
  uint32_t *code = diff_code(prog, sizeof prog);
  uint64_t s = d->e.seed ^ 0xc64u;
  static const unsigned passes[] = { 0, 1, 3, 5 };
  for (unsigned r = 0; r < 32; r++) {
    unsigned pass = passes[r % 4];
    unsigned wave = diff_state(d, &diff_blank, 600000 + r, pass);
    struct sim_isa_probe *p = d->e.init;
    for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++) {
      p->vgpr[10][l] = vals[wset_rnd(&s) % nv];
      p->vgpr[11][l] = vals[wset_rnd(&s) % nv];
      p->vgpr[12][l] = wset_rnd(&s) % 3 ? p->vgpr[10][l] : vals[wset_rnd(&s) % nv];
      p->vgpr[13][l] = wset_rnd(&s) % 2 ? p->vgpr[11][l] : vals[wset_rnd(&s) % nv];
    }
    p->sgpr[40] = vals[wset_rnd(&s) % nv];
    p->sgpr[41] = r % 2 ? p->vgpr[11][r % 8] : vals[wset_rnd(&s) % nv];
    p->sgpr[42] = r < 4 ? 32u * r : (uint32_t)wset_rnd(&s);   /* & 63: 0, 32, 64, 96, random */
    p->sgpr[43] = r < 4 ? 31u + r : (uint32_t)wset_rnd(&s);
    char what[64];
    snprintf(what, sizeof what, "64-bit compares and shifts, run %u", r);
    diff_both(d, (uintptr_t)code, wave, false, false, what, pass);
  }
}

/* v_add/sub/subrev/mul_f32 as the fast engine runs them (8-lane vectors, the NaN rule in lane
 * masks): sources from quiet and signalling NaNs of both signs, infinities, zeros, a
 * denormal and normal values, so that both sources are NaN in many lanes (the left operand's
 * NaN, quieted; S1's for v_subrev), a NaN meets a number, inf - inf makes one; VGPR, SGPR,
 * f32 inline-constant and integer inline-constant (-6, a NaN pattern) sources, a destination
 * that is a source (words from llvm-mc-15 -mcpu=gfx900 of:
 *   v_add_f32_e32 v20, v21, v22; v_sub_f32_e32 v23, s40, v22; v_subrev_f32_e32 v24, v21, v22
 *   v_mul_f32_e32 v25, 0.5, v22; v_subrev_f32_e32 v26, s40, v21; v_mul_f32_e32 v27, -6, v21
 *   v_add_f32_e64 v28, v21, 1.0; v_sub_f32_e32 v21, v22, v21; s_endpgm).
 * Fails when v_subrev takes S0's NaN first, or two NaNs are merged (issue 24, branch h24v). */
static void diff_f32_nan(struct diff_ctx *d, uint8_t target)
{
  static const uint32_t prog[] = {
    0x02282D15u, 0x042E2C28u, 0x06302D15u, 0x0A322CF0u, 0x06342A28u, 0x0A362AC6u, 0xD101001Cu,
    0x0001E515u, 0x042A2B16u, 0xBF810000u,
  };
  static const uint32_t vals[] = { 0x7fc00000u, 0xffc12345u, 0x7f800001u, 0xff8abcdeu,
                                   0x7f800000u, 0xff800000u, 0, 0x80000000u, 1, 0x3f800000u,
                                   0xc0400000u, 0x7f7fffffu };
  const unsigned nv = sizeof vals / sizeof vals[0];
  if (target >= isa_target_named("gfx1100"))
    return;   /* gfx9 encodings */
  uint32_t *code = diff_code(prog, sizeof prog);
  uint64_t s = d->e.seed ^ 0xf32u;
  static const unsigned passes[] = { 0, 1, 3, 5 };
  for (unsigned r = 0; r < 16; r++) {
    unsigned pass = passes[r % 4];
    unsigned wave = diff_state(d, &diff_blank, 700000 + r, pass);
    struct sim_isa_probe *p = d->e.init;
    p->mode = WSET_MODE;   /* the default float mode, no exceptions: the fast forms apply */
    for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++) {
      p->vgpr[21][l] = vals[wset_rnd(&s) % nv] ^ (uint32_t)(wset_rnd(&s) % 4 == 0 ? l << 4 : 0);
      p->vgpr[22][l] = vals[wset_rnd(&s) % nv] ^ (uint32_t)(wset_rnd(&s) % 4 == 0 ? l << 8 : 0);
    }
    p->sgpr[40] = vals[wset_rnd(&s) % 4];   /* a NaN */
    char what[64];
    snprintf(what, sizeof what, "f32 add/sub/subrev/mul with NaNs, run %u", r);
    diff_both(d, (uintptr_t)code, wave, false, false, what, pass);
  }
}

static void diff_family(const char *mcpu, unsigned valu_bit, uint64_t seed0)
{
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  fx_cfg.gpu_model = mcpu;
  fx_open();
  ck_assert_str_eq(sim_gpu(0)->model->name, mcpu);
  uint8_t target = isa_target_named(mcpu);
  struct wset_list l;
  memset(&l, 0, sizeof l);
  /* gfx942: its own forms (wset_gfx942_forms); the gfx90a ones it shares run in diff_gfx90a */
  (valu_bit == VALU_GFX942 ? wset_gfx942_forms : wset_gfx9_forms)(&l, valu_bit);
  size_t len = (size_t)l.slots * WSET_SLOT;
  uint32_t *words = malloc(len);
  ck_assert_ptr_nonnull(words);
  wset_image(&l, words);

  static struct diff_ctx d;
  memset(&d, 0, sizeof d);
  const char *seed_env = getenv("DIFF_SEED");
  uint64_t seed = seed_env ? strtoull(seed_env, NULL, 0) : seed0;
  wset_env_init(&d.e, (const uint8_t *)words, len, seed);
  diff_out_alloc(&d.out[0]);
  diff_out_alloc(&d.out[1]);
  bool light = getenv("HSA_TEST_SANITIZED") != NULL;
  struct diff_enc *enc = calloc((size_t)l.slots, sizeof *enc);
  ck_assert_ptr_nonnull(enc);
  unsigned nenc = 0, forms = 0;

  for (unsigned i = 0; i < l.n; i++) {
    struct wset_form *f = &l.f[i];
    if (light && i % 4)
      continue;
    for (unsigned c = 0; c < f->ncand; c++) {
      struct isa_inst in;
      uint32_t w[3] = { f->cand[c][0], f->cand[c][1], f->cand[c][2] };
      if (f->cand_nw[c] < 3)
        w[f->cand_nw[c]] = WSET_ENDPGM;
      if (!diff_decode(w, target, &in))
        continue;
      forms++;
      if (in.fast) {
        d.fast_hits++;
        enc[nenc].nw = f->cand_nw[c];
        memcpy(enc[nenc].w, f->cand[c], sizeof enc[nenc].w);
        nenc++;
      }
      f->chosen = (int)c;
      /* memory restored for every memory form, compared where the engines' semantics
       * differ (both run in->exec else) */
      bool restore = diff_memory_kind(f->kind), memory = restore && in.fast;
      char what[96];
      snprintf(what, sizeof what, "%s/%s candidate %u", f->ours, f->variant, c);
      /* time-dependent results */
      if (strstr(f->ours, "memtime") || strstr(f->ours, "memrealtime"))
        continue;
      for (unsigned pass = 0; pass < DIFF_PASSES; pass++) {
        /* with no fast semantics both engines run in->exec: random lanes and random MODE
         * (the loop's exception handling) are enough */
        if (!in.fast && pass != 0 && pass != 4)
          continue;
        unsigned wave = diff_state(&d, f, i * WSET_MAXCAND + c, pass);
        if (!diff_both(&d, wset_slot_va(&d.e, f), wave, restore, memory, what, pass))
          break;
      }
    }
  }
  diff_blocks(&d, enc, nenc, light ? 50 : 400);
  diff_atomic_uniform(&d, target);
  diff_pairs(&d, target, light ? 60 : 300);
  diff_lds_groups(&d, target);
  diff_global_runs(&d, target);
  diff_loops(&d, target);
  diff_s_load(&d, target);
  diff_salu_const(&d, target);
  diff_cmp64_shift64(&d, target);
  diff_f32_nan(&d, target);
  sim_isa_probe_engine(false);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  fprintf(stderr, "%s: seed 0x%llx, %u encodings the decoder takes (%u with fast semantics), "
          "%u runs on both engines, %u differ; %.1f s\n", mcpu, (unsigned long long)seed,
          forms, d.fast_hits, d.runs, d.mismatches,
          (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
  ck_assert_msg(d.fast_hits >= (valu_bit == VALU_GFX942 ? 4u : light ? 20u : 100u),
                "%s: only %u encodings have fast semantics", mcpu, d.fast_hits);
  ck_assert_msg(d.mismatches == 0, "%s: %u runs differ between the engines", mcpu,
                d.mismatches);
  free(enc);
  free(words);
  for (unsigned k = 0; k < 2; k++) {
    free(d.out[k].g);
    free(d.out[k].s);
    free(d.out[k].lds);
  }
  wset_env_free(&d.e);
  free(l.f);
}

/* gfx1100 (wave32 code): VOPD (two VALU operations in one instruction, which the fast engine
 * runs as its two halves' fast semantics, isa_fast_fuse) and v_fmac_f32, random encodings
 * from registers in a small set (so that one half often writes what the other reads, in
 * both orders), random sources (VGPRs, SGPRs, inline constants, literals), in wave32 with
 * every lane and random lanes, wave64 with every lane and a random MODE. Words: VOPD is
 * 0x32 in [31:26], opx [25:22], opy [21:17], vsrc1x [16:9], src0x [8:0]; vdstx [31:24],
 * vdsty >> 1 [23:17], vsrc1y [16:9], src0y [8:0]; then a literal (llvm-mc-19 -mcpu=gfx1100:
 * v_dual_fmac_f32 v10, v11, v12 :: v_dual_mov_b32 v13, v14 is 0xc810190b 0x0a0c010e);
 * v_fmac_f32_e32 is VOP2 0x2b (0x5614190b: v10, v11, v12). Fails when a VOPD has no fast
 * semantics, or on a wrong half order or operand. */
static uint32_t diff_g11_src(uint64_t *s)
{
  switch (wset_rnd(s) % 5) {
  case 0: return 40 + (uint32_t)(wset_rnd(s) % 3);                  /* s40..s42 */
  case 1: return 128 + (uint32_t)(wset_rnd(s) % 80);                /* inline constants */
  case 2: return 255;                                               /* the literal */
  default: return 256 + 10 + (uint32_t)(wset_rnd(s) % 6);           /* v10..v15 */
  }
}

/* whether the fast engine's `bytes` of output equal the reference's; the first difference
 * to stderr, named by run and byte (and by wave, row and lane where each wave has `per_wave`
 * bytes of 32-lane rows; 0: one shared area) */
static bool gang_same_out(const char *what, unsigned r, unsigned waves, const uint8_t *ref,
                          const uint8_t *out, size_t bytes, size_t per_wave)
{
  for (size_t k = 0; k < bytes / 4; k++) {
    uint32_t x, y;
    memcpy(&x, ref + 4 * k, 4);
    memcpy(&y, out + 4 * k, 4);
    if (x == y)
      continue;
    if (per_wave)
      fprintf(stderr, "%s run %u (%u waves): wave %zu, row %zu, lane %zu: reference 0x%08x, "
              "fast 0x%08x\n", what, r, waves, k / (per_wave / 4), k % (per_wave / 4) / 32,
              k % 32, x, y);
    else
      fprintf(stderr, "%s run %u (%u waves): byte 0x%zx: reference 0x%08x, fast 0x%08x\n",
              what, r, waves, 4 * k, x, y);
    return false;
  }
  return true;
}

/* `bytes` of random words from `*s` */
static void gang_fill(uint8_t *p, size_t bytes, uint64_t *s)
{
  for (size_t k = 0; k < bytes / 4; k++) {
    uint32_t v = (uint32_t)wset_rnd(s);
    memcpy(p + 4 * k, &v, 4);
  }
}

/* One wave32 work-group of `waves` (`init`, `lds_bytes` of LDS) on the reference engine, then on the fast one
 * (the fast run's `bytes` of output stay in `out`, the reference's are copied to `ref`). */
static void gang_both(const uint32_t *code, struct sim_isa_wave_init *init, unsigned waves,
                      unsigned vgpr_alloc, uint32_t lds_bytes, uint8_t *out, uint8_t *ref,
                      size_t bytes, struct sim_isa_fault fault[2], int rc[2])
{
  for (unsigned engine = 0; engine < 2; engine++) {   /* the reference, then the fast one */
    struct sim_isa_workgroup wg;
    memset(&wg, 0, sizeof wg);
    memset(&fault[engine], 0, sizeof fault[engine]);
    wg.gpu = sim_gpu(0);
    wg.code_entry = (uintptr_t)code;
    wg.wave_count = waves;
    wg.wave_size = 32;
    wg.waves = init;
    wg.sgpr_alloc = 102;
    wg.vgpr_alloc = vgpr_alloc;
    wg.lds_bytes = lds_bytes;
    wg.rsrc1 = 1u << 21 | 1u << 23 | 0xf0u << 12;
    memset(out, 0xcd, bytes);
    sim_isa_probe_engine(engine == 0);
    rc[engine] = sim_isa_run_workgroup(&wg, &fault[engine]);
    if (engine == 0)
      memcpy(ref, out, bytes);
  }
}

/* Wave32 gangs (sim/isa decode.c isa_gang_run): 1-4 wave32 waves of one work-group, whose
 * pairs run in lockstep with the lane-by-lane operations done once for both over their
 * interleaved rows, against the reference engine (each wave alone). The program (llvm-mc-19
 * -mcpu=gfx1100): s_mov_b32 vcc_hi, s11; v_mov_b32 vN, v2 for v3..v39 but v6, v14, v38 (the
 * thread's VGPR file keeps the reference run's rows: a write the fast run skipped would not
 * show otherwise); v_add_nc_u32 v3, v0, v1; v_mul_f32 v4, v1, v2;
 * v_fmac_f32 v4, v1, v2; v_add_nc_u32 v5, s2, v0; v_lshlrev_b32 v6, 2, v0; ds_store_b32 v6,
 * v5; ds_store_b32 v6, v3 offset:512; s_waitcnt lgkmcnt(0); s_barrier; ds_load_b32 v7, v6
 * offset:4; ds_load_2addr_b32 v[8:9], v6 offset1:3; s_waitcnt lgkmcnt(0); s_cmp_eq_u32 s3,
 * 0; s_cbranch_scc1 1; v_add_nc_u32 v5, v5, v1; v_mov_b32 v10, v5; s_mov_b32 exec_lo, s4;
 * v_xor_b32 v11, v10, v3; v_lshlrev_b64 v[12:13], 3, v[3:4]; s_mov_b32 exec_lo, -1;
 * v_cndmask_b32_e64 v15, v1, v2, s5 (s5 the same in every wave, s6 too in half the runs:
 * a merged call reads s[5:6] with the second wave's s5 put in s6 for it); lane masks a merged
 * call writes as 64 bits and the gang splits: v_cmp_gt_u32 vcc_lo, v1, v2; v_cndmask_b32
 * v16, v1, v2, vcc_lo; v_cmp_lt_u64_e64 s8, v[1:2], v[3:4]; v_mov_b32 v17, s8; v_mov_b32 v18,
 * s9; v_add_co_u32 v19, s10, v1, v2; v_mov_b32 v20, s10; v_mad_u64_u32 v[21:22], null, v1,
 * v2, v[3:4]; v_mov_b32 v23, vcc_hi; v_mov_b32 v24, s11 (s9, s11: must stay); fused add
 * pairs (one whose second reads the SGPR above the first's mask, one through VCC across an
 * s_delay_alu) and a v_cmpx, merged with their masks and EXEC split: v_add_co_u32 v25, s12,
 * s2, v1; v_add_co_ci_u32_e64 v26, null, s13, v2, s12; v_add_co_u32 v27, vcc_lo, v1, v3;
 * s_delay_alu instid0(VALU_DEP_1); v_add_co_ci_u32_e32 v28, vcc_lo, v2, v4, vcc_lo;
 * v_mov_b32 v29, s13; v_mov_b32 v30, vcc_lo; v_cmpx_gt_u32 v1, v2; v_mov_b32 v31, v3;
 * s_mov_b32 exec_lo, -1; carries in (the mask joined for the call, split after):
 * v_add_co_ci_u32_e64 v32, s14, v1, v2, s8; v_add_co_ci_u32_e32 v33, vcc_lo, v1, v2,
 * vcc_lo; v_mov_b32 v34, s14; v_mov_b32 v35, s15; v_mov_b32 v36, vcc_lo; v_mov_b32 v37, s9;
 * v_cndmask_b32_e64 v39, s6, v1, s5 (S0 the SGPR a join would fill: never merged);
 * v_and_b32 v14, 31, v0; v_lshlrev_b32 v14, 2, v14; global_store_b32 v14, vN, s[0:1]
 * offset:128k for v3, v4, v5, v7..v13, v15..v31, then the same from v38 = v14 + 0x800 for
 * v32..v37, v39; s_endpgm. Per run: s2 the same in every wave or not
 * (a merged v_add of an SGPR must then not run), s3 sending some waves past the add (the
 * pair diverges), s4 a partial EXEC in some waves, or a wave started with a partial EXEC;
 * v0 = the work-item id, v1/v2 random (NaNs among them). Fails when a merged operation reads
 * one wave's operands for the other's lanes, a divergence or partial EXEC is run merged, or
 * the rows of the pair overlap. */
static void diff_gangs(uint64_t seed)
{
  static const uint32_t prog[] = {
    0xbeeb000bu, 0x7e060302u, 0x7e080302u, 0x7e0a0302u, 0x7e0e0302u, 0x7e100302u, 0x7e120302u,
    0x7e140302u, 0x7e160302u, 0x7e180302u, 0x7e1a0302u, 0x7e1e0302u, 0x7e200302u, 0x7e220302u,
    0x7e240302u, 0x7e260302u, 0x7e280302u, 0x7e2a0302u, 0x7e2c0302u, 0x7e2e0302u, 0x7e300302u,
    0x7e320302u, 0x7e340302u, 0x7e360302u, 0x7e380302u, 0x7e3a0302u, 0x7e3c0302u, 0x7e3e0302u,
    0x7e400302u, 0x7e420302u, 0x7e440302u, 0x7e460302u, 0x7e480302u, 0x7e4a0302u, 0x7e4e0302u,
    0x4a060300u, 0x10080501u, 0x56080501u, 0x4a0a0002u, 0x300c0082u, 0xd8340000u, 0x00000506u,
    0xd8340200u, 0x00000306u, 0xbf89fc07u, 0xbfbd0000u, 0xd8d80004u, 0x07000006u, 0xd8dc0300u,
    0x08000006u, 0xbf89fc07u, 0xbf068003u, 0xbfa20001u, 0x4a0a0305u, 0x7e140305u, 0xbefe0004u,
    0x3a16070au, 0xd73c000cu, 0x00020683u, 0xbefe00c1u, 0xd501000fu, 0x00160501u, 0x7c980501u,
    0x02200501u, 0xd4590008u, 0x00020701u, 0x7e220208u, 0x7e240209u, 0xd7000a13u, 0x00020501u,
    0x7e28020au, 0xd6fe7c15u, 0x040e0501u, 0x7e2e026bu, 0x7e30020bu, 0xd7000c19u, 0x00020202u,
    0xd5207c1au, 0x0032040du, 0xd7006a1bu, 0x00020701u, 0xbf870001u, 0x40380902u, 0x7e3a020du,
    0x7e3c026au, 0x7d980501u, 0x7e3e0303u, 0xbefe00c1u, 0xd5200e20u, 0x00220501u, 0x40420501u,
    0x7e44020eu, 0x7e46020fu, 0x7e48026au, 0x7e4a0209u, 0xd5010027u, 0x00160206u, 0x361c009fu,
    0x301c1c82u, 0xdc6a0000u, 0x0000030eu, 0xdc6a0080u, 0x0000040eu, 0xdc6a0100u, 0x0000050eu,
    0xdc6a0180u, 0x0000070eu, 0xdc6a0200u, 0x0000080eu, 0xdc6a0280u, 0x0000090eu, 0xdc6a0300u,
    0x00000a0eu, 0xdc6a0380u, 0x00000b0eu, 0xdc6a0400u, 0x00000c0eu, 0xdc6a0480u, 0x00000d0eu,
    0xdc6a0500u, 0x00000f0eu, 0xdc6a0580u, 0x0000100eu, 0xdc6a0600u, 0x0000110eu, 0xdc6a0680u,
    0x0000120eu, 0xdc6a0700u, 0x0000130eu, 0xdc6a0780u, 0x0000140eu, 0xdc6a0800u, 0x0000150eu,
    0xdc6a0880u, 0x0000160eu, 0xdc6a0900u, 0x0000170eu, 0xdc6a0980u, 0x0000180eu, 0xdc6a0a00u,
    0x0000190eu, 0xdc6a0a80u, 0x00001a0eu, 0xdc6a0b00u, 0x00001b0eu, 0xdc6a0b80u, 0x00001c0eu,
    0xdc6a0c00u, 0x00001d0eu, 0xdc6a0c80u, 0x00001e0eu, 0xdc6a0d00u, 0x00001f0eu, 0x4a4c1cffu,
    0x00000800u, 0xdc6a0580u, 0x00002026u, 0xdc6a0600u, 0x00002126u, 0xdc6a0680u, 0x00002226u,
    0xdc6a0700u, 0x00002326u, 0xdc6a0780u, 0x00002426u, 0xdc6a0800u, 0x00002526u, 0xdc6a0880u,
    0x00002726u, 0xbfb00000u,
  };
  enum { OUT = 8192 };   /* bytes of output a wave */
  uint32_t *code = diff_code(prog, sizeof prog);
  uint8_t *out = isa_fx_mem(4 * OUT), *ref = malloc(4 * OUT);
  ck_assert_ptr_nonnull(ref);
  uint64_t s = seed ^ 0x6a4eu;
  static struct sim_isa_wave_init init[4];
  unsigned bad = 0;
  for (unsigned r = 0; r < 40; r++) {
    unsigned waves = 1 + r % 4;
    uint32_t s2 = (uint32_t)wset_rnd(&s), s3 = (uint32_t)(wset_rnd(&s) & 1), s5 = (uint32_t)wset_rnd(&s);
    memset(init, 0, sizeof init);
    for (unsigned i = 0; i < waves; i++) {
      struct sim_isa_wave_init *w = &init[i];
      uint64_t o = (uintptr_t)out + (uint64_t)i * OUT;
      w->sgpr[0] = (uint32_t)o;
      w->sgpr[1] = (uint32_t)(o >> 32);
      w->sgpr[2] = r % 3 == 0 ? (uint32_t)wset_rnd(&s) : s2;
      w->sgpr[3] = r % 4 == 1 ? (uint32_t)(wset_rnd(&s) & 1) : s3;
      w->sgpr[4] = r % 5 == 2 && (wset_rnd(&s) & 1) ? (uint32_t)wset_rnd(&s) : 0xffffffffu;
      w->sgpr[5] = s5;
      w->sgpr[6] = r % 2 ? ~s5 : (uint32_t)wset_rnd(&s);
      for (unsigned k = 7; k < 13; k++)
        w->sgpr[k] = (uint32_t)wset_rnd(&s);
      if (r % 2)   /* s[6:7] the same in every wave: v39's S0 may be compared equal */
        w->sgpr[7] = s5 + 7;
      w->sgpr[13] = r % 3 == 1 ? (uint32_t)wset_rnd(&s) : s5 ^ 0x5a5a5a5au;
      w->sgpr[14] = (uint32_t)wset_rnd(&s);
      w->sgpr[15] = (uint32_t)wset_rnd(&s);
      w->sgpr_count = 16;
      w->exec = r % 6 == 5 && i == 1 ? (uint32_t)wset_rnd(&s) | 1 : 0xffffffffu;
      w->vgpr_count = 3;
      for (unsigned l = 0; l < 32; l++) {
        w->vgpr[0][l] = l + 32 * i;
        w->vgpr[1][l] = wset_rnd(&s) % 7 ? (uint32_t)wset_rnd(&s) % 0x50000000u : 0x7fc00001u;
        w->vgpr[2][l] = (uint32_t)wset_rnd(&s) % 0x50000000u;
      }
    }
    struct sim_isa_fault fault[2];
    int rc[2];
    gang_both(code, init, waves, 40, 1024, out, ref, 4 * OUT, fault, rc);
    ck_assert_msg(rc[0] == 0 && rc[1] == 0, "gang run %u (%u waves): %s / %s", r, waves,
                  fault[0].text, fault[1].text);
    bad += !gang_same_out("gang", r, waves, ref, out, waves * OUT, OUT);
  }
  sim_isa_probe_engine(false);
  free(ref);
  ck_assert_msg(bad == 0, "%u wave32 gang runs differ from the reference", bad);
}

/* whether both engines faulted, and alike: kind, pc, address, direction and text (which
 * names the wave that halted on it) */
static bool gang_same_fault(const int rc[2], const struct sim_isa_fault fault[2])
{
  return rc[0] != 0 && rc[1] != 0 && fault[0].kind == fault[1].kind &&
         fault[0].pc == fault[1].pc && fault[0].addr == fault[1].addr &&
         fault[0].write == fault[1].write && !strcmp(fault[0].text, fault[1].text);
}

/* Wave32 gangs' global dword accesses (sim/isa fast.c isa_fast_global_gang): 1-4 wave32
 * waves, pairs of which run global_load_b32/global_store_b32 once for both over their
 * interleaved rows, against the reference engine (each wave alone). The program (llvm-mc-19
 * -mcpu=gfx1100): v_lshlrev_b32 v1, 2, v0; global_load_b32 v2, v1, s[0:1]; global_load_b32
 * v3, v1, s[0:1] offset:4; v_xor_b32 v4, 12, v1; global_load_b32 v5, v4, s[0:1] offset:8
 * (runs of 4 lanes); global_load_b32 v6, v1, s[6:7] (s[6:7] the same in every wave or not);
 * v_add_co_u32 v8, vcc_lo, s0, v1; v_add_co_ci_u32_e64 v9, null, s1, 0, vcc_lo;
 * global_load_b32 v7, v[8:9], off offset:16; v_add_nc_u32 v10, s4, v1; global_load_b32 v11,
 * v10, s[0:1] (s4 1 GiB in one wave of some runs: that wave faults); s_waitcnt vmcnt(0);
 * global_store_b32 v1, vN, s[2:3] offset:512 k for v2, v3, v5 (at v4), v6, v7, v11;
 * global_store_b32 v1, v2, s[8:9] offset:3072 (s[8:9] the same in every wave or not);
 * v_add_co_u32 v12, vcc_lo, s2, v1; v_add_co_ci_u32_e64 v13, null, s3, 0, vcc_lo;
 * global_store_b32 v[12:13], v7, off offset:3584; s_endpgm. Some runs start one wave with a
 * partial EXEC. Fails when a merged access uses the first wave's saddr for the second's lanes
 * (loads from or stores to the wrong wave's place), moves anything before every lane's
 * translation is known good, or loses or misplaces a fault (the run must fault as the
 * reference does, at the same instruction and address). */
static void diff_gang_global(uint64_t seed)
{
  static const uint32_t prog[] = {
    0x30020082u, 0xdc520000u, 0x02000001u, 0xdc520004u, 0x03000001u, 0x3a08028cu, 0xdc520008u,
    0x05000004u, 0xdc520000u, 0x06060001u, 0xd7006a08u, 0x00020200u, 0xd5207c09u, 0x01a90001u,
    0xdc520010u, 0x077c0008u, 0x4a140204u, 0xdc520000u, 0x0b00000au, 0xbf8903f7u, 0xdc6a0000u,
    0x00020201u, 0xdc6a0200u, 0x00020301u, 0xdc6a0400u, 0x00020504u, 0xdc6a0600u, 0x00020601u,
    0xdc6a0800u, 0x00020701u, 0xdc6a0a00u, 0x00020b01u, 0xdc6a0c00u, 0x00080201u, 0xd7006a0cu,
    0x00020202u, 0xd5207c0du, 0x01a90003u, 0xdc6a0e00u, 0x007c070cu, 0xbfb00000u,
  };
  enum { IN = 4096, OUT = 16384 };   /* bytes */
  uint32_t *code = diff_code(prog, sizeof prog);
  uint8_t *in = isa_fx_mem(IN), *out = isa_fx_mem(OUT), *ref = malloc(OUT);
  ck_assert_ptr_nonnull(ref);
  uint64_t s = seed ^ 0x61b0u;
  gang_fill(in, IN, &s);
  static struct sim_isa_wave_init init[4];
  unsigned bad = 0, faults = 0;
  for (unsigned r = 0; r < 40; r++) {
    unsigned waves = 1 + r % 4, faulty = r % 5 == 3 ? (unsigned)(wset_rnd(&s) % waves) : 4;
    memset(init, 0, sizeof init);
    for (unsigned i = 0; i < waves; i++) {
      struct sim_isa_wave_init *w = &init[i];
      uint64_t ib = (uintptr_t)in + (r % 3 == 1 ? 512u + 64u * i : 512u),
               ob = (uintptr_t)out + (r % 2 ? 0u : 4096u + 512u * i);
      w->sgpr[0] = (uint32_t)((uintptr_t)in + 512u);
      w->sgpr[1] = (uint32_t)(((uintptr_t)in + 512u) >> 32);
      w->sgpr[2] = (uint32_t)(uintptr_t)out;
      w->sgpr[3] = (uint32_t)((uintptr_t)out >> 32);
      w->sgpr[4] = i == faulty ? 0x40000000u : 0;
      w->sgpr[6] = (uint32_t)ib;
      w->sgpr[7] = (uint32_t)(ib >> 32);
      w->sgpr[8] = (uint32_t)ob;
      w->sgpr[9] = (uint32_t)(ob >> 32);
      w->sgpr_count = 10;
      w->exec = r % 6 == 5 && i == 1 ? (uint32_t)wset_rnd(&s) | 1 : 0xffffffffu;
      w->vgpr_count = 1;
      for (unsigned l = 0; l < 32; l++)
        w->vgpr[0][l] = l + 32 * i;
    }
    struct sim_isa_fault fault[2];
    int rc[2];
    gang_both(code, init, waves, 16, 0, out, ref, OUT, fault, rc);
    /* which other waves stored first differs by engine: the fault */
    if (faulty < waves) {
      faults += rc[0] != 0;
      if (!gang_same_fault(rc, fault)) {
        fprintf(stderr, "gang global run %u (%u waves, wave %u faults): reference rc %d (%s), "
                "fast rc %d (%s)\n", r, waves, faulty, rc[0], fault[0].text, rc[1], fault[1].text);
        bad++;
      }
      continue;
    }
    ck_assert_msg(rc[0] == 0 && rc[1] == 0, "gang global run %u (%u waves): %s / %s", r, waves,
                  fault[0].text, fault[1].text);
    bad += !gang_same_out("gang global", r, waves, ref, out, OUT, 0);
  }
  sim_isa_probe_engine(false);
  free(ref);
  ck_assert_msg(faults >= 4, "only %u gang global runs faulted", faults);
  ck_assert_msg(bad == 0, "%u wave32 gang global runs differ from the reference", bad);
}

/* Wave32 gangs' scalar instructions (sim/isa decode.c isa_gang_run: a scalar load, wait,
 * hint or branch with fast semantics whose inputs hold the same in both waves runs once, the
 * loaded dwords and the pc copied into the second; other scalar instructions run for each):
 * 1-4 wave32 waves against the reference engine (each wave alone), with SGPRs that differ
 * between the waves. The program (llvm-mc-19 -mcpu=gfx1100): 128 x s_nop 0; v_mov_b32 v3,
 * 0; v_readfirstlane_b32 s8, v0 (the wave's first work-item: differs in every wave);
 * s_lshl_b32 s9, s8, 2; s_add_u32 s10, s2, 7; s_addc_u32 s11, s2, s9 (SCC of the add);
 * s_mul_i32 s12, s2, s3; s_cmp_eq_u32 s3, 0; s_mov_b32 s13, s2 (writes no SCC);
 * s_cselect_b32 s14, 11, 22;
 * s_load_b64 s[16:17], s[4:5], 0x0; s_load_b32 s18, s[4:5], 0x8 (s[4:5] the same or per wave,
 * or in one wave of some runs 1 GiB away: that wave faults there, alone); s_waitcnt; s_xor_b32
 * s19, s16, s8; s_and_b32 s20, s17, s18; s_mov_b32 vcc_lo, s6; s_mov_b32 s21, 0;
 * s_cbranch_vccz 1; s_add_u32 s21, s21, 3; s_and_saveexec_b32 s22, s12 (s2 x s3: zero
 * in the waves whose s3 is); v_mov_b32 v3, s20;
 * s_cbranch_execz 1; s_add_i32 s21, s21, 16; s_or_b32 exec_lo, exec_lo, s22; s_mov_b32 s23,
 * 0; a loop: s_add_u32 s23, s23, 1; s_cmp_lt_u32 s23, s7; s_cbranch_scc1 -3 (s7 the trip count,
 * the same or per wave: the waves leave it apart); s_cmp_lg_u32 s3, 0; s_cbranch_scc1 2;
 * s_add_i32 s24, s23, s9; s_mov_b32 s25, s24; s_or_b32 s26, s2, s13; s_cselect_b32 s27, 5, 6;
 * s_add_u32 s29, s8, 16; s_mov_b32 s28, exec_lo; v_cmpx_gt_u32_e64 s29, v0 (its SGPR differs in
 * every wave: each runs it alone and keeps lanes 0..15); v_mov_b32 v3, 0x7b (must not write
 * lanes 16..31: the gang tests EXEC again after a v_cmpx run per wave); s_mov_b32 exec_lo, s28;
 * then s8..s14, s16..s27, EXEC_LO and v3 stored (global_store_b32 v1, v2, s[0:1] offset:128k,
 * s[0:1] the wave's own rows, v1 = 4 x the lane); s_endpgm. Per run s2, s3, s6 (VCC) and
 * s7 are the same in every wave or not, and one wave may start with a partial EXEC. Fails
 * when a merged scalar instruction runs on inputs that differ (a load's base, a branch's SCC,
 * VCC or EXEC), the second wave misses its loaded dwords, or a fault is lost or raised on the
 * wrong wave. */
static void diff_gang_scalar(uint64_t seed)
{
  static const uint32_t prog[] = {
    0x7e060280u, 0x7e100500u, 0x84098208u, 0x800a8702u, 0x820b0902u, 0x960c0302u, 0xbf068003u,
    0xbe8d0002u, 0x980e968bu, 0xf4040402u, 0xf8000000u, 0xf4000482u, 0xf8000008u, 0xbf89fc07u,
    0x8d130810u, 0x8b141211u, 0xbeea0006u, 0xbe950080u, 0xbfa30001u, 0x80158315u, 0xbe96200cu,
    0x7e060214u, 0xbfa50001u, 0x81159015u, 0x8c7e167eu, 0xbe970080u, 0x80178117u, 0xbf0a0717u,
    0xbfa2fffdu, 0xbf078003u, 0xbfa20002u, 0x81180917u, 0xbe990018u, 0x8c1a0d02u, 0x981b8685u,
    0x801d9008u, 0xbe9c007eu, 0xd4cc007eu, 0x0002001du, 0x7e0602ffu, 0x0000007bu, 0xbefe001cu,
    0x30020082u, 0x360202ffu, 0x0000007cu, 0x7e040208u, 0xdc6a0000u, 0x00000201u, 0x7e040209u,
    0xdc6a0080u, 0x00000201u, 0x7e04020au, 0xdc6a0100u, 0x00000201u, 0x7e04020bu, 0xdc6a0180u,
    0x00000201u, 0x7e04020cu, 0xdc6a0200u, 0x00000201u, 0x7e04020du, 0xdc6a0280u, 0x00000201u,
    0x7e04020eu, 0xdc6a0300u, 0x00000201u, 0x7e040210u, 0xdc6a0380u, 0x00000201u, 0x7e040211u,
    0xdc6a0400u, 0x00000201u, 0x7e040212u, 0xdc6a0480u, 0x00000201u, 0x7e040213u, 0xdc6a0500u,
    0x00000201u, 0x7e040214u, 0xdc6a0580u, 0x00000201u, 0x7e040215u, 0xdc6a0600u, 0x00000201u,
    0x7e040216u, 0xdc6a0680u, 0x00000201u, 0x7e040217u, 0xdc6a0700u, 0x00000201u, 0x7e040218u,
    0xdc6a0780u, 0x00000201u, 0x7e040219u, 0xdc6a0800u, 0x00000201u, 0x7e04021au, 0xdc6a0880u,
    0x00000201u, 0x7e04021bu, 0xdc6a0900u, 0x00000201u, 0x7e04027eu, 0xdc6a0980u, 0x00000201u,
    0xdc6a0a00u, 0x00000301u, 0xbfb00000u,
  };
  enum { IN = 1024, OUT = 4096 };   /* bytes; OUT a wave */
  /* first a block of 128 s_nop (decode.c BLOCK_MAX): its last entry a hint the gang must
   * not step past */
  enum { NOPS = 128 };
  static uint32_t words[NOPS + sizeof prog / 4];
  for (unsigned k = 0; k < NOPS; k++)
    words[k] = 0xbf800000u;
  memcpy(words + NOPS, prog, sizeof prog);
  uint32_t *code = diff_code(words, sizeof words);
  uint8_t *in = isa_fx_mem(IN), *out = isa_fx_mem(4 * OUT), *ref = malloc(4 * OUT);
  ck_assert_ptr_nonnull(ref);
  uint64_t s = seed ^ 0x5ca1u;
  gang_fill(in, IN, &s);
  static struct sim_isa_wave_init init[4];
  unsigned bad = 0, faults = 0;
  for (unsigned r = 0; r < 48; r++) {
    unsigned waves = 1 + r % 4, faulty = r % 5 == 3 ? (unsigned)(wset_rnd(&s) % waves) : 4;
    uint32_t s2 = (uint32_t)wset_rnd(&s), s3 = (uint32_t)(wset_rnd(&s) & 1),
             s6 = r % 7 == 0 ? 0 : r % 7 == 1 ? (uint32_t)wset_rnd(&s) : 0xffffffffu,
             s7 = 1 + (uint32_t)(wset_rnd(&s) % 4);
    memset(init, 0, sizeof init);
    for (unsigned i = 0; i < waves; i++) {
      struct sim_isa_wave_init *w = &init[i];
      uint64_t o = (uintptr_t)out + (uint64_t)i * OUT,
               ib = (uintptr_t)in + (r % 3 == 1 ? 64u * i : 0u) + (i == faulty ? 0x40000000u : 0u);
      w->sgpr[0] = (uint32_t)o;
      w->sgpr[1] = (uint32_t)(o >> 32);
      w->sgpr[2] = r % 3 == 0 ? (uint32_t)wset_rnd(&s) : s2;
      w->sgpr[3] = r % 4 == 1 ? (uint32_t)(wset_rnd(&s) & 1) : s3;
      w->sgpr[4] = (uint32_t)ib;
      w->sgpr[5] = (uint32_t)(ib >> 32);
      /* per wave: zero in some, so that VCCZ differs between the waves */
      w->sgpr[6] = r % 5 == 2 ? (uint32_t)(wset_rnd(&s) & 1 ? wset_rnd(&s) : 0) : s6;
      w->sgpr[7] = r % 4 == 2 ? 1 + (uint32_t)(wset_rnd(&s) % 4) : s7;
      w->sgpr_count = 8;
      w->exec = r % 6 == 5 && i == 1 ? (uint32_t)wset_rnd(&s) | 1 : 0xffffffffu;
      w->vgpr_count = 1;
      for (unsigned l = 0; l < 32; l++)
        w->vgpr[0][l] = l + 32 * i;
    }
    struct sim_isa_fault fault[2];
    int rc[2];
    gang_both(code, init, waves, 8, 0, out, ref, 4 * OUT, fault, rc);
    if (faulty < waves) {
      faults += rc[0] != 0;
      if (!gang_same_fault(rc, fault)) {
        fprintf(stderr, "gang scalar run %u (%u waves, wave %u faults): reference rc %d (%s), "
                "fast rc %d (%s)\n", r, waves, faulty, rc[0], fault[0].text, rc[1], fault[1].text);
        bad++;
      }
      continue;
    }
    ck_assert_msg(rc[0] == 0 && rc[1] == 0, "gang scalar run %u (%u waves): %s / %s", r, waves,
                  fault[0].text, fault[1].text);
    bad += !gang_same_out("gang scalar", r, waves, ref, out, waves * OUT, OUT);
  }
  sim_isa_probe_engine(false);
  free(ref);
  ck_assert_msg(faults >= 4, "only %u gang scalar runs faulted", faults);
  ck_assert_msg(bad == 0, "%u wave32 gang scalar runs differ from the reference", bad);
}

START_TEST(diff_gfx1100)
{
  fx_cfg.gpu_model = "gfx1100";
  fx_open();
  uint8_t target = isa_target_named("gfx1100");
  static const uint8_t opx[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
  static const uint8_t opy[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18 };
  /* s_clause 1, s_delay_alu, s_waitcnt lgkmcnt(0), s_waitcnt_depctr, s_set_inst_prefetch_
   * distance, s_branch/s_cbranch_scc0/scc1/vccz/vccnz/execz/execnz 1; s_and_saveexec_b32 s10,
   * s11; s_or_saveexec_b32 s10, vcc_lo; s_or_b32 exec_lo, exec_lo, s10; s_and_b32 s5, s5,
   * <literal>; s_mov_b32 s0, exec_lo; s_xor_b32 vcc_lo, s10, 7; s_and_b32 s5, s6, -3;
   * s_round_mode 0xd; s_denorm_mode 10 (llvm-mc-19) */
  static const uint32_t sopp[] = { 0xbf850001u, 0xbf870001u, 0xbf89fc07u, 0xbf88fffeu,
                                   0xbf840001u, 0xbfa00001u, 0xbfa10001u, 0xbfa20001u,
                                   0xbfa30001u, 0xbfa40001u, 0xbfa50001u, 0xbfa60001u,
                                   0xbe8a200bu, 0xbe8a226au, 0x8c7e0a7eu, 0x8b05ff05u,
                                   0xbe80007eu, 0x8d6a870au, 0x8b05c306u, 0xbf91000du,
                                   0xbf92000au };
  /* integer compares and v_cmpx (the fast engine takes them under any EXEC; a v_cmpx also
   * writes EXEC): v_cmp_gt_u64_e32 vcc_lo, v[10:11], v[12:13]; v_cmpx_gt_u64_e32 v[12:13],
   * v[10:11]; v_cmp_gt_u64_e64 s10, v[10:11], v[14:15]; v_cmpx_gt_u64_e64 v[10:11], s[10:11];
   * v_cmp_lt_u32_e32 vcc_lo, v10, v11; v_cmpx_ne_u32_e32 7, v12; v_cmp_eq_u64_e64 s12,
   * v[10:11], v[12:13]; v_cmpx_ge_i32_e64 v13, v10; v_cmp_le_i64_e32 vcc_lo, v[12:13],
   * v[10:11]; v_cmpx_eq_u64_e32 v[10:11], v[14:15] (llvm-mc-19); and v_mad_u64_u32 with the
   * carry-out to NULL (no mask: the fast form skips it), an inline-constant addend, and to an
   * SGPR: v[10:11], null, v12, v13, v[14:15]; v[12:13], null, v10, s40, 0; v[10:11], s40, v12,
   * v13, v[10:11] */
  static const uint32_t cmps[][2] = { { 0x7cb8190au, 0 }, { 0x7db8150cu, 0 },
                                      { 0xd45c000au, 0x00021d0au }, { 0xd4dc007eu, 0x0000150au },
                                      { 0x7c92170au, 0 }, { 0x7d9a1887u, 0 },
                                      { 0xd45a000cu, 0x0002190au }, { 0xd4c6007eu, 0x0002150du },
                                      { 0x7ca6150cu, 0 }, { 0x7db41d0au, 0 },
                                      { 0xd6fe7c0au, 0x043a1b0cu }, { 0xd6fe7c0cu, 0x0200510au },
                                      { 0xd6fe280au, 0x042a1b0cu } };
  static uint32_t image[WSET_SLOT / 4];
  for (unsigned k = 0; k < WSET_SLOT / 4; k++)
    image[k] = 0xbfb00000u;   /* s_endpgm */
  static struct diff_ctx d;
  memset(&d, 0, sizeof d);
  const char *seed_env = getenv("DIFF_SEED");
  uint64_t s = seed_env ? strtoull(seed_env, NULL, 0) : 0xd1ff1100ull;
  wset_env_init(&d.e, (const uint8_t *)image, sizeof image, s);
  diff_out_alloc(&d.out[0]);
  diff_out_alloc(&d.out[1]);
  uint32_t *code = isa_fx_mem(64);
  unsigned count = getenv("HSA_TEST_SANITIZED") ? 60 : 300;
  /* s_sendmsg sendmsg(MSG_DEALLOC_VGPRS) (the fast engine's own form), then s_getreg_b32
   * s20, hwreg(HW_REG_STATUS) and s_endpgm: STATUS.NO_VGPRS (bit 24) set on both engines */
  code[0] = 0xbfb60003u;
  code[1] = 0xb894f802u;
  code[2] = 0xbfb00000u;
  for (unsigned pass = 0; pass < 2; pass++) {
    unsigned wave = diff_state(&d, &diff_blank, 620000 + pass, pass ? 3 : 0);
    diff_both(&d, (uintptr_t)code, wave, false, false, "s_sendmsg MSG_DEALLOC_VGPRS", pass ? 3 : 0);
    ck_assert_msg(d.out[0].p.sgpr[20] >> 24 & 1, "reference: STATUS 0x%08x without NO_VGPRS",
                  d.out[0].p.sgpr[20]);
  }
  static const unsigned passes[] = { 3, 5, 1, 4 };
  for (unsigned i = 0; i < count; i++) {
    unsigned n;
    if (i % 8 == 6 || i % 8 == 2) {   /* a hint, s_waitcnt, a branch over one s_endpgm, SALU */
      code[0] = sopp[wset_rnd(&s) % (sizeof sopp / sizeof sopp[0])];
      n = 1;
    } else if (i % 8 == 3) {   /* a compare or v_cmpx */
      unsigned c = (unsigned)(wset_rnd(&s) % (sizeof cmps / sizeof cmps[0]));
      code[0] = cmps[c][0];
      code[1] = cmps[c][1];
      n = cmps[c][1] ? 2 : 1;
    } else if (i % 8 == 7) {   /* v_fmac_f32_e32 */
      code[0] = 0x2bu << 25 | (10 + (uint32_t)(wset_rnd(&s) % 6)) << 17 |
                (10 + (uint32_t)(wset_rnd(&s) % 6)) << 9 | diff_g11_src(&s);
      n = 1;
    } else {
      uint32_t x = opx[wset_rnd(&s) % sizeof opx], y = opy[wset_rnd(&s) % sizeof opy];
      uint32_t dx = 10 + (uint32_t)(wset_rnd(&s) % 6), dy = 10 + (uint32_t)(wset_rnd(&s) % 6);
      code[0] = 0x32u << 26 | x << 22 | y << 17 | (10 + (uint32_t)(wset_rnd(&s) % 6)) << 9 |
                diff_g11_src(&s);
      code[1] = dx << 24 | (dy >> 1) << 17 | (10 + (uint32_t)(wset_rnd(&s) % 6)) << 9 |
                diff_g11_src(&s);
      n = 2;
    }
    code[n] = (uint32_t)wset_rnd(&s);   /* a literal when one is read */
    struct isa_inst in;
    isa_decode(code, 3, 0, target, &in);
    isa_fast_fuse(&in, code + in.size / 4, 1, 4, target);
    ck_assert_msg(in.fast != NULL, "%s (0x%08x 0x%08x) has no fast semantics",
                  in.name ? in.name : "?", code[0], code[1]);
    if (in.pair != NULL)
      free(in.pair);
    code[in.size / 4] = 0xbfb00000u;
    code[in.size / 4 + 1] = 0xbfb00000u;
    for (unsigned k = 0; k < sizeof passes / sizeof passes[0]; k++) {
      unsigned wave = diff_state(&d, &diff_blank, 600000 + i * 8 + k, passes[k]);
      if (wset_rnd(&s) & 1)   /* VCC's low half (a wave32's mask) empty, the high one not */
        d.e.init->vcc &= ~0xffffffffull;
      char what[96];
      snprintf(what, sizeof what, "gfx1100 %s (0x%08x 0x%08x 0x%08x)", in.name ? in.name : "?",
               code[0], code[1], code[2]);
      diff_both(&d, (uintptr_t)code, wave, false, false, what, passes[k]);
    }
  }
  /* v_add_co_u32 (VOP3B) then v_add_co_ci_u32_e64 (mask to NULL, an SGPR or VCC) from
   * registers in a small set, every other pair with an s_delay_alu between them (as clang-19
   * puts it); the pairs isa_fast_pairs accepts run as one 64-bit add (isa_fast_fuse: across
   * the s_delay_alu too, checked by counting the pairs it fuses) */
  static const uint32_t sd0[] = { 40, 42, 106 }, sd1[] = { 124, 124, 40, 44, 106 };
  unsigned fused = 0, npairs = count / 2;
  for (unsigned i = 0; i < npairs; i++) {
    uint32_t m0 = sd0[wset_rnd(&s) % 3], m1 = sd1[wset_rnd(&s) % 5];
    uint32_t cin = wset_rnd(&s) % 4 ? m0 : sd0[wset_rnd(&s) % 3];
    uint32_t s0a = wset_rnd(&s) % 3 ? 41 : 256 + 10 + (uint32_t)(wset_rnd(&s) % 4);
    /* s41 is the SGPR above an s40 mask: fused, but only a wave32 may run the pair as one */
    uint32_t s0b = wset_rnd(&s) % 3 ? 41 + (uint32_t)(wset_rnd(&s) % 2)
                                    : 256 + 10 + (uint32_t)(wset_rnd(&s) % 4);
    code[0] = 0xd7000000u | m0 << 8 | (10 + (uint32_t)(wset_rnd(&s) % 4));
    code[1] = (256 + 10 + (uint32_t)(wset_rnd(&s) % 4)) << 9 | s0a;
    unsigned gap = i & 1;   /* s_delay_alu instid0(VALU_DEP_1) between the two */
    code[2] = 0xbf870001u;
    code[2 + gap] = 0xd5200000u | m1 << 8 | (10 + (uint32_t)(wset_rnd(&s) % 4));
    code[3 + gap] = cin << 18 | (256 + 10 + (uint32_t)(wset_rnd(&s) % 4)) << 9 | s0b;
    code[4 + gap] = 0xbfb00000u;
    code[5 + gap] = 0xbfb00000u;
    struct isa_inst a, b;
    isa_decode(code, 6, 0, target, &a);
    isa_decode(code + 2 + gap, 3, 8 + 4 * gap, target, &b);
    ck_assert_msg(!strncmp(a.name, "v_add_co_u32", 12) && !strncmp(b.name, "v_add_co_ci_u32", 15),
                  "pair %u decodes as %s, %s", i, a.name, b.name);
    bool pairs = isa_fast_pairs(&a, &b);
    isa_fast_fuse(&a, code + 2, 4, 16, target);
    ck_assert_msg((a.pair != NULL) == pairs, "pair %u: isa_fast_fuse %s it%s", i,
                  a.pair ? "fused" : "did not fuse", gap ? " across s_delay_alu" : "");
    free(a.pair);
    fused += pairs;
    for (unsigned k = 0; k < 3; k++) {
      unsigned wave = diff_state(&d, &diff_blank, 700000 + i * 8 + k, passes[k]);
      char what[112];
      snprintf(what, sizeof what, "gfx1100 add pair (0x%08x 0x%08x 0x%08x 0x%08x 0x%08x)",
               code[0], code[1], code[2], code[3], code[4]);
      diff_both(&d, (uintptr_t)code, wave, false, false, what, passes[k]);
    }
  }
  diff_lds_groups(&d, target);
  diff_loops(&d, target);
  diff_gang_scalar(d.e.seed);
  diff_gangs(d.e.seed);
  diff_gang_global(d.e.seed);
  sim_isa_probe_engine(false);
  ck_assert_msg(fused >= npairs / 4, "only %u of %u gfx1100 add pairs fuse", fused, npairs);
  ck_assert_msg(d.mismatches == 0, "gfx1100: %u runs differ between the engines", d.mismatches);
  for (unsigned k = 0; k < 2; k++) {
    free(d.out[k].g);
    free(d.out[k].s);
    free(d.out[k].lds);
  }
  wset_env_free(&d.e);
}
END_TEST

START_TEST(diff_gfx900) { diff_family("gfx900", VALU_GFX900, 0xd1ff900ull); }
END_TEST
START_TEST(diff_gfx90a)
{
  if (getenv("HSA_TEST_SANITIZED") || getenv("HSA_TEST_LIGHT"))
    return;   /* one GPU model in the lighter configurations */
  diff_family("gfx90a", VALU_GFX90A, 0xd1ff90aull);
}
END_TEST

/* gfx942's own VALU and matrix forms, among them the fast v_lshl_add_u64 and v_mov_b64 */
START_TEST(diff_gfx942) { diff_family("gfx942", VALU_GFX942, 0xd1ff942ull); }
END_TEST

/* HSA_SIM_INTERP picks the engine when nothing else did. */
START_TEST(engine_env)
{
  setenv("HSA_SIM_INTERP", "1", 1);
  ck_assert(!isa_fast_enabled());
  sim_isa_probe_engine(false);
  ck_assert(isa_fast_enabled());
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("isa_diff");
  TCase *t = tcase_create("diff");
  tcase_set_timeout(t, 120);
  tcase_add_test(t, diff_gfx900);
  tcase_add_test(t, diff_gfx90a);
  tcase_add_test(t, diff_gfx942);
  tcase_add_test(t, diff_gfx1100);
  tcase_add_test(t, engine_env);
  suite_add_tcase(s, t);
  return s;
}
