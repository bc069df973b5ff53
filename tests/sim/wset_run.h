/* SPDX-License-Identifier: MIT */
/* wset_run.h — running one form of the write-set test: random registers (a fixed seed per
 * form), the few inputs an instruction needs to run at all (addresses into guarded buffers,
 * branch targets, small indices), one wave through sim_isa_run_probe, then every register,
 * lane, the LDS and both buffers compared with what the form may write (wset_rules.h).
 * Include after isa_fixture.h. */
#ifndef TESTS_SIM_WSET_RUN_H
#define TESTS_SIM_WSET_RUN_H

#include <stdarg.h>

#include "isa/probe.h"
#include "wset_rules.h"

#define WSET_GBUF (64u << 10)     /* global buffer: s_load/global/flat/buffer targets */
#define WSET_SBUF (256u << 10)    /* the wave's scratch (FLAT_SCRATCH points here) */
#define WSET_LDS (64u << 10)
#define WSET_GBASE 8192u          /* where addresses point inside the global buffer */
#define WSET_MODE 0x3f0u          /* MODE as the kernel default sets it */
#define WSET_SHARED 0x1000000000000ull    /* the apertures FLAT addresses may fall in */
#define WSET_PRIVATE 0x2000000000000ull

struct wset_env {
  uint8_t *code;             /* the image, mapped on the GPU */
  uint8_t *gbuf, *gref;      /* global memory (compared whole) and its pristine copy */
  uint8_t *sbuf, *sref;
  uint8_t *lds, *ldsref;
  struct sim_isa_probe *init, *fin;
  uint64_t seed;
};

static uint64_t wset_rnd(uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static void wset_fill(uint8_t *p, size_t n, uint64_t *s)
{
  for (size_t i = 0; i + 8 <= n; i += 8) {
    uint64_t r = wset_rnd(s);
    memcpy(p + i, &r, 8);
  }
}

static void wset_env_init(struct wset_env *e, const uint8_t *image, size_t len, uint64_t seed)
{
  memset(e, 0, sizeof *e);
  e->seed = seed;
  e->code = isa_fx_mem(len);
  memcpy(e->code, image, len);
  e->gbuf = isa_fx_mem(WSET_GBUF);
  e->sbuf = isa_fx_mem(WSET_SBUF);
  e->gref = malloc(WSET_GBUF);
  e->sref = malloc(WSET_SBUF);
  e->lds = malloc(WSET_LDS);
  e->ldsref = malloc(WSET_LDS);
  e->init = malloc(sizeof *e->init);
  e->fin = malloc(sizeof *e->fin);
  if (!e->gref || !e->sref || !e->lds || !e->ldsref || !e->init || !e->fin)
    abort();
  uint64_t s = seed ^ 0x5bd1e995u;
  wset_fill(e->gref, WSET_GBUF, &s);
  wset_fill(e->sref, WSET_SBUF, &s);
  wset_fill(e->ldsref, WSET_LDS, &s);
}

static void wset_env_free(struct wset_env *e)
{
  free(e->gref);
  free(e->sref);
  free(e->lds);
  free(e->ldsref);
  free(e->init);
  free(e->fin);
}

/* Bytes a memory access of `m` (LLVM's mnemonic) moves per lane from its address. */
static unsigned wset_access_bytes(const char *m)
{
  const char *x = strstr(m, "dwordx");
  if (x)
    return 4u * (unsigned)strtoul(x + 6, NULL, 10);
  if (strstr(m, "format_")) {   /* components of 32 bits here (format 32_32_32_32) */
    size_t n = strlen(m), c = 0;
    while (c < n && c < 4 && strchr("xyzw", m[n - 1 - c]))
      c++;
    return 4u * (unsigned)c;
  }
  if (strstr(m, "_x2")) return 8;
  if (strstr(m, "byte") || strstr(m, "_b8") || strstr(m, "_u8") || strstr(m, "_i8")) return 1;
  if (strstr(m, "short") || strstr(m, "_b16") || strstr(m, "_u16") || strstr(m, "_i16")) return 2;
  if (strstr(m, "_b128")) return 16;
  if (strstr(m, "_b96")) return 12;
  if (strstr(m, "64")) return 8;
  return 4;
}

/* ---- the inputs each kind of instruction needs ---- */
static uint64_t wset_slot_va(const struct wset_env *e, const struct wset_form *f)
{
  return (uintptr_t)e->code + (uint64_t)(f->slot + (unsigned)f->chosen) * WSET_SLOT;
}

static void wset_set64(uint32_t *r, uint64_t v)
{
  r[0] = (uint32_t)v;
  r[1] = (uint32_t)(v >> 32);
}

/* Pass 0: random EXEC, lanes' addresses 64 bytes apart; pass 1: every lane on, addresses
 * consecutive (the paths the model takes for whole waves moving contiguous data); pass 2:
 * no lane on. */
#define WSET_PASSES 3
static void wset_state(struct wset_env *e, const struct wset_form *f, unsigned index,
                       unsigned pass)
{
  struct sim_isa_probe *p = e->init;
  uint64_t s = e->seed + 0x9e3779b97f4a7c15ull * (WSET_PASSES * index + pass + 1);
  wset_fill((uint8_t *)p->sgpr, sizeof p->sgpr, &s);
  wset_fill((uint8_t *)p->ttmp, sizeof p->ttmp, &s);
  wset_fill((uint8_t *)p->vgpr, sizeof p->vgpr, &s);
  p->vcc = wset_rnd(&s);
  p->exec = pass == 1 ? ~0ull : pass == 2 ? 0 : wset_rnd(&s) | 1;   /* pass 0: lane 0, half */
  p->m0 = (uint32_t)wset_rnd(&s);
  p->scc = wset_rnd(&s) & 1;
  p->flat_scratch = (uintptr_t)e->sbuf;
  p->xnack_mask = wset_rnd(&s);
  p->mode = WSET_MODE;
  p->trapsts = 0;
  p->pc = 0;
  p->lds = e->lds;
  memcpy(e->lds, e->ldsref, WSET_LDS);
  memcpy(e->gbuf, e->gref, WSET_GBUF);
  memcpy(e->sbuf, e->sref, WSET_SBUF);

  uint64_t g = (uintptr_t)e->gbuf + WSET_GBASE;
  /* a V# at s[4:7] (base, stride 0, 64 KiB of records, format 32_32_32_32 uint); s[4:5]
   * alone is then the same base as a 64-bit address */
  wset_set64(&p->sgpr[4], g);
  p->sgpr[6] = 0x10000;
  p->sgpr[7] = 14u << 15 | 4u << 12 | 0xfacu;   /* dst_sel x y z w */
  p->sgpr[8] = 16;                              /* soffset */
  const char *m = f->text;
  struct wset_text t;
  wset_parse(m, &t);
  unsigned stride = pass == 1 ? wset_access_bytes(t.base) : 64;
  switch (f->kind) {
  case WK_DS:
    for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++)   /* 16 KiB, 8-byte aligned */
      p->vgpr[20][l] = pass == 1 ? stride * l : (uint32_t)(wset_rnd(&s) % 2048) * 8;
    p->m0 = 0x100 + (uint32_t)(wset_rnd(&s) % 64) * 16;     /* ds_append, addtid: M0[15:0] */
    break;
  case WK_FLAT: case WK_GLOBAL:
    for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++) {
      bool saddr = strstr(f->variant, "saddr") != NULL;
      uint64_t a = saddr ? stride * l : g + stride * l;
      if (!strncmp(f->variant, "lds", 3))    /* LDS bytes as for DS */
        a = WSET_SHARED + (pass == 1 ? stride * l : (uint32_t)(wset_rnd(&s) % 2048) * 8);
      if (!strncmp(f->variant, "priv", 4))   /* private offsets as for SCRATCH */
        a = WSET_PRIVATE + (pass == 1 ? 64 : (uint32_t)(wset_rnd(&s) % 32) * 16);
      p->vgpr[20][l] = (uint32_t)a;
      p->vgpr[21][l] = (uint32_t)(a >> 32);
    }
    wset_set64(&p->sgpr[40], g);
    break;
  case WK_SCRATCH:   /* private offsets: per lane, or the same for all (the usual case) */
    for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++)
      p->vgpr[20][l] = pass == 1 ? 64 : (uint32_t)(wset_rnd(&s) % 32) * 16;
    p->sgpr[40] = 64;
    break;
  case WK_MUBUF: case WK_MTBUF:
    for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++)
      p->vgpr[20][l] = strncmp(f->variant, "idxen", 5) ? stride * l : l;
    if (!strncmp(f->variant, "idxen", 5))   /* 64-byte records */
      p->sgpr[5] |= 64u << 16;
    if (!strncmp(f->variant, "swz", 3)) {   /* element size 4, index stride 64, ADD_TID */
      p->sgpr[5] |= 1u << 31;
      p->sgpr[7] |= 1u << 23 | 3u << 21 | 1u << 19;
    }
    break;
  case WK_SOP1: case WK_SOP2:
    /* indirect branches go 16 bytes into the slot (an s_endpgm); movrel* index by M0 */
    if (strstr(m, "setpc") || strstr(m, "swappc") || strstr(m, "s_rfe"))
      wset_set64(&p->sgpr[40], wset_slot_va(e, f) + 16);
    if (strstr(m, "s_movrel"))
      p->m0 = 3;
    break;
  case WK_SOPK:
    if (strstr(m, "s_setreg_b32"))   /* a MODE value that differs in the rounding bits */
      p->sgpr[16] = WSET_MODE | 5u;
    break;
  default:
    break;
  }
}

/* ---- the memory footprint: bytes a writing form may change ---- */
struct wset_mem {
  uint8_t *ok_g, *ok_s, *ok_l;   /* 1 per byte that may change */
};

static void wset_mark(uint8_t *ok, uint64_t base, uint64_t size, uint64_t a, unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    if (a + i >= base && a + i < base + size)
      ok[a + i - base] = 1;
}

/* Private byte o of lane l, swizzled: dword o / 4 at o / 4 * 256 + l * 4 (AMDGPUUsage's
 * private-address-wavefront), n bytes from `rel` bytes into the buffer `ok` describes. */
static void wset_mark_private(uint8_t *ok, size_t size, uint64_t rel, uint32_t o, unsigned l,
                              unsigned n)
{
  for (unsigned i = 0; i < n; i++) {
    uint64_t b = (uint64_t)o + i, at = rel + (b / 4) * 256 + 4u * l + b % 4;
    if (at < size)
      ok[at] = 1;
  }
}

static void wset_footprint(const struct wset_env *e, const struct wset_form *f,
                           const struct wset_text *t, struct wset_mem *fp)
{
  const struct sim_isa_probe *p = e->init;
  const char *m = t->base;
  unsigned n = wset_access_bytes(m);
  uint64_t gb = (uintptr_t)e->gbuf;
  if (f->kind == WK_SMEM) {   /* sbase (or the V# base) + offset:16 */
    wset_mark(fp->ok_g, gb, WSET_GBUF, gb + WSET_GBASE + 16, n);
    return;
  }
  for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++) {
    if (!((p->exec >> l) & 1))
      continue;
    uint32_t v20 = p->vgpr[20][l];
    switch (f->kind) {
    case WK_DS:
      if (strstr(m, "write2") || strstr(m, "wrxchg2")) {   /* offset0:4 offset1:8 elements */
        unsigned el = strstr(m, "_b64") ? 8 : 4, sc = el * (strstr(m, "st64") ? 64 : 1);
        wset_mark(fp->ok_l, 0, WSET_LDS, v20 + 4ull * sc, el);
        wset_mark(fp->ok_l, 0, WSET_LDS, v20 + 8ull * sc, el);
      } else if (!strcmp(m, "ds_append") || !strcmp(m, "ds_consume")) {
        wset_mark(fp->ok_l, 0, WSET_LDS, (p->m0 & 0xffff) + 0x804u, 4);
      } else if (strstr(m, "addtid")) {
        wset_mark(fp->ok_l, 0, WSET_LDS, (p->m0 & 0xffff) + 0x804u + 4u * l, 4);
      } else {   /* offset:0x804 */
        wset_mark(fp->ok_l, 0, WSET_LDS, v20 + 0x804ull, n);
      }
      break;
    case WK_FLAT: case WK_GLOBAL: {
      uint64_t a = strstr(f->variant, "saddr") ? gb + WSET_GBASE + v20
                                               : (v20 | (uint64_t)p->vgpr[21][l] << 32);
      a += 16;
      if (a >= WSET_PRIVATE && a < WSET_PRIVATE + (1ull << 32))
        wset_mark_private(fp->ok_s, WSET_SBUF, 0, (uint32_t)(a - WSET_PRIVATE), l, n);
      else if (a >= WSET_SHARED && a < WSET_SHARED + (1ull << 32))
        wset_mark(fp->ok_l, 0, WSET_LDS, a - WSET_SHARED, n);
      else
        wset_mark(fp->ok_g, gb, WSET_GBUF, a, n);
      break;
    }
    case WK_SCRATCH:
      wset_mark_private(fp->ok_s, WSET_SBUF, 0,
                        (strstr(f->variant, "saddr") ? p->sgpr[40] : v20) + 16, l, n);
      break;
    case WK_MUBUF: case WK_MTBUF: {   /* base + soffset + (vaddr or index * 64) + offset:16 */
      uint64_t base = gb + WSET_GBASE + p->sgpr[8];
      if (!strncmp(f->variant, "swz", 3))
        wset_mark_private(fp->ok_g, WSET_GBUF, base - gb, 16, l, n);   /* as scratch */
      else if (!strncmp(f->variant, "idxen", 5))
        wset_mark(fp->ok_g, gb, WSET_GBUF, base + 64ull * v20 + 16, n);
      else
        wset_mark(fp->ok_g, gb, WSET_GBUF, base + (strncmp(f->variant, "off", 3) ? v20 : 0) + 16, n);
      break;
    }
    default:
      break;
    }
  }
}

/* ---- comparing ---- */
struct wset_result {
  bool fault;
  char fault_text[160];
  char bad[400];             /* what changed that may not; empty when none */
};

static void wset_bad(struct wset_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void wset_bad(struct wset_result *r, const char *fmt, ...)
{
  size_t k = strlen(r->bad);
  if (k + 4 >= sizeof r->bad)
    return;
  va_list ap;
  va_start(ap, fmt);
  if (k)
    r->bad[k++] = ' ';
  vsnprintf(r->bad + k, sizeof r->bad - k, fmt, ap);
  va_end(ap);
}

static void wset_mem_check(struct wset_result *r, const char *what, const uint8_t *now,
                           const uint8_t *ref, size_t size, const uint8_t *ok, uint64_t va)
{
  if (!memcmp(now, ref, size))
    return;
  for (size_t i = 0; i < size; i++)
    if (now[i] != ref[i] && !(ok && ok[i])) {
      wset_bad(r, "%s+0x%zx(0x%llx)", what, i, (unsigned long long)(va + i));
      return;
    }
}

/* Runs form `index` and compares. `a` is the allowed set (wset_allowed). */
static void wset_run(struct wset_env *e, const struct wset_form *f, unsigned index,
                     unsigned pass, struct wset_allow *a, struct wset_result *r)
{
  memset(r, 0, sizeof *r);
  wset_state(e, f, index, pass);
  struct sim_isa_probe *p = e->init, *q = e->fin;
  uint64_t slot = wset_slot_va(e, f);
  struct sim_isa_workgroup wg;
  struct sim_isa_wave_init wi;
  memset(&wg, 0, sizeof wg);
  memset(&wi, 0, sizeof wi);
  wg.gpu = sim_gpu(0);
  wg.code_entry = slot;
  wg.wave_count = 1;
  wg.wave_size = 64;
  wg.waves = &wi;
  wg.sgpr_alloc = 102;
  wg.vgpr_alloc = 256;
  wg.lds_bytes = WSET_LDS;
  wg.rsrc1 = 1u << 21 | 1u << 23 | 0xf0u << 12;
  wg.rsrc3 = WSET_ACC / 4 - 1;   /* ACCUM_OFFSET: AGPR a0 is row WSET_ACC */
  wg.scratch_base = (uintptr_t)e->sbuf;
  wg.scratch_per_wave = WSET_SBUF;
  /* the apertures sit where no test address goes */
  wg.shared_base = WSET_SHARED;
  wg.shared_limit = wg.shared_base + 0xffffffffull;
  wg.private_base = WSET_PRIVATE;
  wg.private_limit = wg.private_base + 0xffffffffull;
  wg.tba = slot + 16;   /* s_trap: a handler that ends the wave */
  memcpy(q, p, sizeof *q);
  q->lds = e->lds;
  struct sim_isa_fault fault;
  /* a wave halted by s_sethalt/s_sendmsghalt stopped after the instruction: not a fault */
  if (sim_isa_run_probe(&wg, q, &fault) != 0 && fault.kind != SIM_ISA_HALTED) {
    r->fault = true;
    snprintf(r->fault_text, sizeof r->fault_text, "%s", fault.text);
    if (q->pc == slot)
      memset(a, 0, sizeof *a);   /* a faulting instruction may write nothing */
    /* else it ran and the wave faulted at its successor (a branch target): its writes stand */
  }

  /* indexed and lane-selected destinations, resolved against the initial state */
  struct wset_text t;
  wset_parse(f->text, &t);
  if (a->regs & WR_MOVRELD && t.nops) {
    struct wset_allow x;
    memset(&x, 0, sizeof x);
    wset_reg(t.ops[0], &x);
    for (unsigned i = 0; i < 128; i++)
      if (x.sgpr[i] && i + p->m0 < 128)
        a->sgpr[i + p->m0] = 1;
  }
  uint64_t lanes = p->exec & wset_dpp_lanes(f->text);
  if (a->regs & WR_WRITELANE && t.nops >= 3) {
    unsigned sel = 0;
    if (sscanf(t.ops[2], "s%u", &sel) == 1 && sel < 102)
      lanes = 1ull << (p->sgpr[sel] & 63);
  }

  for (unsigned i = 0; i < SIM_ISA_PROBE_SGPRS; i++)
    if (q->sgpr[i] != p->sgpr[i] && !a->sgpr[i])
      wset_bad(r, "s%u", i);
  for (unsigned i = 0; i < 16; i++)
    if (q->ttmp[i] != p->ttmp[i] && !(a->regs & WR_TTMP))
      wset_bad(r, "ttmp%u", i);
#define REG(field, bit, name)                                         \
  if (q->field != p->field && !(a->regs & (bit)))                     \
    wset_bad(r, name);
#define HALVES(field, lo, hi, nlo, nhi)                               \
  if ((uint32_t)q->field != (uint32_t)p->field && !(a->regs & (lo)))  \
    wset_bad(r, nlo);                                                 \
  if ((q->field >> 32) != (p->field >> 32) && !(a->regs & (hi)))      \
    wset_bad(r, nhi);
  HALVES(vcc, WR_VCC_LO, WR_VCC_HI, "vcc_lo", "vcc_hi")
  HALVES(exec, WR_EXEC_LO, WR_EXEC_HI, "exec_lo", "exec_hi")
  REG(m0, WR_M0, "m0")
  REG(scc, WR_SCC, "scc")
  REG(mode, WR_MODE, "mode")
  REG(trapsts, WR_TRAPSTS, "trapsts")
  REG(flat_scratch, WR_FLAT_SCRATCH, "flat_scratch")
  REG(xnack_mask, WR_XNACK, "xnack_mask")
#undef REG
#undef HALVES
  for (unsigned v = 0; v < SIM_ISA_PROBE_VGPRS; v++) {
    if (!memcmp(q->vgpr[v], p->vgpr[v], sizeof q->vgpr[v]))
      continue;
    uint64_t changed = 0;
    for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++)
      changed |= (uint64_t)(q->vgpr[v][l] != p->vgpr[v][l]) << l;
    uint32_t bits = 0;
    for (unsigned l = 0; l < SIM_ISA_WAVE_SIZE; l++)
      bits |= q->vgpr[v][l] ^ p->vgpr[v][l];
    if (!a->vgpr[v])
      wset_bad(r, "v%u", v);
    else if (changed & ~lanes)
      wset_bad(r, "v%u[lane %d, not written]", v, __builtin_ctzll(changed & ~lanes));
    else if (bits & ~a->vbits)
      wset_bad(r, "v%u[bits 0x%x, kept]", v, bits & ~a->vbits);
  }
  uint64_t end = slot + f->size;
  if (!r->fault && !(a->regs & WR_PC) && q->pc != end)
    wset_bad(r, "pc(+%lld, not +%u)", (long long)(q->pc - slot), f->size);
  if (!r->fault && a->regs & WR_PC && (q->pc < slot || q->pc >= slot + WSET_SLOT))
    wset_bad(r, "pc(outside the slot: +%lld)", (long long)(q->pc - slot));
  if (r->fault && q->pc != slot && !(a->regs & WR_PC))
    wset_bad(r, "pc(faulted at +%lld, after an instruction that does not branch)",
             (long long)(q->pc - slot));

  struct wset_mem fp = {0};
  bool differ = memcmp(e->gbuf, e->gref, WSET_GBUF) || memcmp(e->sbuf, e->sref, WSET_SBUF) ||
                memcmp(e->lds, e->ldsref, WSET_LDS);
  if (differ && a->regs & WR_MEM) {
    fp.ok_g = calloc(1, WSET_GBUF);
    fp.ok_s = calloc(1, WSET_SBUF);
    fp.ok_l = calloc(1, WSET_LDS);
    if (!fp.ok_g || !fp.ok_s || !fp.ok_l)
      abort();
    wset_footprint(e, f, &t, &fp);
  }
  if (differ) {
    wset_mem_check(r, "global", e->gbuf, e->gref, WSET_GBUF, fp.ok_g, (uintptr_t)e->gbuf);
    wset_mem_check(r, "scratch", e->sbuf, e->sref, WSET_SBUF, fp.ok_s, (uintptr_t)e->sbuf);
    wset_mem_check(r, "lds", e->lds, e->ldsref, WSET_LDS, fp.ok_l, 0);
  }
  free(fp.ok_g);
  free(fp.ok_s);
  free(fp.ok_l);
}

#endif
