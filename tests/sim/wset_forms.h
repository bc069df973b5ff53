/* SPDX-License-Identifier: MIT */
/* wset_forms.h — every opcode sim/isa's gfx9 decoder has a table entry for, as instruction
 * encodings for the write-set test (test_isa_wset.c). The opcodes come from the decoder's
 * tables (names.h, the VALU tables of valu.h); the encodings are built here from the
 * format layouts of the Vega ISA manual, with distinct registers in every field:
 *   destinations  v10 (VGPR), s16 (SGPR, VOP3 sdst, SMEM sdata)
 *   sources       v20, v30, v40; s40, s44
 *   memory        address v20 (v[20:21]), data v30/v40, sbase/V# s[4:7], soffset s8
 * Which fields an instruction uses is LLVM's business: each form carries several candidate
 * encodings (unused fields zero, or not) and the first that llvm-objdump decodes in full
 * is the one that runs (wset_llvm.h). */
#ifndef TESTS_SIM_WSET_FORMS_H
#define TESTS_SIM_WSET_FORMS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/exec.h"
#include "isa/names.h"
#include "isa/valu.h"

#define WSET_MAXCAND 16
#define WSET_SLOT 32u   /* bytes per candidate: the instruction, then s_endpgm words */
#define WSET_ENDPGM 0xbf810000u

enum wset_kind {
  WK_SOP2, WK_SOPK, WK_SOP1, WK_SOPC, WK_SOPP, WK_SMEM,
  WK_VOP2, WK_VOP1, WK_VOPC, WK_VOP3, WK_VOP3P, WK_SDWA, WK_DPP,
  WK_DS, WK_FLAT, WK_GLOBAL, WK_SCRATCH, WK_MUBUF, WK_MTBUF, WK_MIMG, WK_EXP, WK_VINTRP,
  WK_COUNT
};

static const char *const wset_kind_name[WK_COUNT] = {
  "SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP2", "VOP1", "VOPC", "VOP3", "VOP3P",
  "SDWA", "DPP", "DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF", "MIMG", "EXP", "VINTRP"};

static bool wset_is_valu(unsigned kind)
{
  return kind >= WK_VOP2 && kind <= WK_DPP;
}

struct wset_form {
  const char *ours;          /* the decoder's table name of the opcode */
  char variant[12];          /* e32, e64, sdwa, dpp, glc, saddr, ... */
  unsigned kind;             /* enum wset_kind */
  const char *shows;         /* optional variant (a special destination, a literal): it counts
                                only when LLVM decodes it and its text shows this */
  unsigned ncand;
  uint32_t cand[WSET_MAXCAND][3];
  unsigned cand_nw[WSET_MAXCAND];
  bool cand_sdst[WSET_MAXCAND];   /* VOP3: the candidate has an sdst in bits 14:8 */
  unsigned slot;             /* image slot of candidate 0 (candidate i: slot + i) */
  /* filled from llvm-objdump (wset_llvm.h) */
  int chosen;                /* candidate LLVM decodes, -1 for none */
  unsigned size;             /* its size in bytes as LLVM decodes it */
  char text[200];            /* LLVM's text of it */
};

struct wset_list {
  struct wset_form *f;
  unsigned n, cap;
  unsigned slots;
};

static struct wset_form *wset_new(struct wset_list *l, const char *ours, const char *variant,
                                  unsigned kind)
{
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 1024;
    l->f = realloc(l->f, l->cap * sizeof *l->f);
    if (!l->f)
      abort();
  }
  struct wset_form *f = &l->f[l->n++];
  memset(f, 0, sizeof *f);
  f->ours = ours;
  snprintf(f->variant, sizeof f->variant, "%s", variant);
  f->kind = kind;
  f->chosen = -1;
  return f;
}

static void wset_cand(struct wset_form *f, unsigned nw, uint32_t w0, uint32_t w1, uint32_t w2)
{
  if (f->ncand == WSET_MAXCAND)
    abort();
  f->cand[f->ncand][0] = w0;
  f->cand[f->ncand][1] = w1;
  f->cand[f->ncand][2] = w2;
  f->cand_nw[f->ncand++] = nw;
}

/* Placing a form's candidates: called after the last wset_cand. */
static void wset_place(struct wset_list *l, struct wset_form *f)
{
  f->slot = l->slots;
  l->slots += f->ncand;
}

/* A literal dword after the instruction (src0 = 255): optional, LLVM shows the value. */
#define WSET_LIT 0x12345678u

static void wset_lit(struct wset_list *l, const char *name, unsigned kind, uint32_t w)
{
  struct wset_form *f = wset_new(l, name, "lit", kind);
  f->shows = "0x12345678";
  wset_cand(f, 2, w, WSET_LIT, 0);
  wset_place(l, f);
}

/* ---- scalar formats ---- */
/* Destinations besides s16 that scalar code writes: M0, half of VCC, EXEC (optional forms:
 * LLVM rejects some, e.g. a 64-bit result in vcc_hi). */
static const struct { const char *name; unsigned code; } wset_sdst[] = {
  {"m0", 124}, {"vcc_hi", 107}, {"exec", 126}};

static void wset_sop(struct wset_list *l)
{
  for (unsigned op = 0; op < 128; op++) {
    if (!isa_sop2_names[op])
      continue;
    struct wset_form *f = wset_new(l, isa_sop2_names[op], "", WK_SOP2);
    uint32_t w = 0x80000000u | op << 23;
    wset_cand(f, 1, w | 16u << 16 | 44u << 8 | 40u, 0, 0);
    wset_cand(f, 1, w | 44u << 8 | 40u, 0, 0);   /* no sdst (s_cbranch_g_fork, s_rfe_restore) */
    wset_place(l, f);
    wset_lit(l, isa_sop2_names[op], WK_SOP2, w | 16u << 16 | 44u << 8 | 255u);
    for (unsigned k = 0; k < sizeof wset_sdst / sizeof wset_sdst[0]; k++) {
      f = wset_new(l, isa_sop2_names[op], wset_sdst[k].name, WK_SOP2);
      f->shows = wset_sdst[k].name;
      wset_cand(f, 1, w | wset_sdst[k].code << 16 | 44u << 8 | 40u, 0, 0);
      wset_place(l, f);
    }
  }
  for (unsigned op = 0; op < 32; op++) {
    if (!isa_sopk_names[op])
      continue;
    struct wset_form *f = wset_new(l, isa_sopk_names[op], "", WK_SOPK);
    uint32_t w = 0xb0000000u | op << 23;
    bool hwreg = op == 17 || op == 18 || op == 20;
    bool branch = op == 16 || op == 21;
    /* hwreg(HW_REG_MODE, 0, 32); branch targets one dword past the next instruction */
    uint32_t simm = hwreg ? 0xf801u : branch ? 1u : 0x1234u;
    if (op == 20)   /* s_setreg_imm32_b32: MODE's bits as the kernel default has them */
      wset_cand(f, 2, w | simm, 0x3f0u, 0);
    wset_cand(f, 1, w | 16u << 16 | simm, 0, 0);
    wset_place(l, f);
    /* s_setreg*: TRAPSTS (writable) and HW_ID (read-only) too, all 32 bits */
    static const struct { const char *name; unsigned id; } hw[] = {{"trapsts", 3}, {"hw_id", 4}};
    for (unsigned k = 0; k < 2 && (op == 18 || op == 20); k++) {
      f = wset_new(l, isa_sopk_names[op], hw[k].name, WK_SOPK);
      wset_cand(f, op == 20 ? 2 : 1, w | (op == 20 ? 0 : 16u << 16) | 0xf800u | hw[k].id, 0x3f0u, 0);
      wset_place(l, f);
    }
    for (unsigned k = 0; k < sizeof wset_sdst / sizeof wset_sdst[0] && op != 20; k++) {
      f = wset_new(l, isa_sopk_names[op], wset_sdst[k].name, WK_SOPK);
      f->shows = wset_sdst[k].name;
      wset_cand(f, 1, w | wset_sdst[k].code << 16 | simm, 0, 0);
      wset_place(l, f);
    }
  }
  for (unsigned op = 0; op < 256; op++) {
    if (!isa_sop1_names[op])
      continue;
    struct wset_form *f = wset_new(l, isa_sop1_names[op], "", WK_SOP1);
    uint32_t w = 0xbe800000u | op << 8;
    wset_cand(f, 1, w | 16u << 16 | 40u, 0, 0);
    wset_cand(f, 1, w | 40u, 0, 0);          /* no sdst (s_setpc_b64, ...) */
    wset_cand(f, 1, w | 16u << 16, 0, 0);    /* no source (s_getpc_b64) */
    wset_place(l, f);
    wset_lit(l, isa_sop1_names[op], WK_SOP1, w | 16u << 16 | 255u);
    /* s_movrel*: SGPR indexing off a special register means nothing */
    for (unsigned k = 0; k < sizeof wset_sdst / sizeof wset_sdst[0] && !(op >= 42 && op <= 45); k++) {
      f = wset_new(l, isa_sop1_names[op], wset_sdst[k].name, WK_SOP1);
      f->shows = wset_sdst[k].name;
      wset_cand(f, 1, w | wset_sdst[k].code << 16 | 40u, 0, 0);
      wset_cand(f, 1, w | wset_sdst[k].code << 16, 0, 0);
      wset_place(l, f);
    }
  }
  for (unsigned op = 0; op < 128; op++) {
    if (!isa_sopc_names[op])
      continue;
    struct wset_form *f = wset_new(l, isa_sopc_names[op], "", WK_SOPC);
    uint32_t w = 0xbf000000u | op << 16;
    wset_cand(f, 1, w | 44u << 8 | 40u, 0, 0);
    wset_cand(f, 1, w | 1u << 8 | 40u, 0, 0);   /* s_set_gpr_idx_on: a mode immediate */
    wset_place(l, f);
    wset_lit(l, isa_sopc_names[op], WK_SOPC, w | 44u << 8 | 255u);
  }
  for (unsigned op = 0; op < 128; op++) {
    if (!isa_sopp_names[op])
      continue;
    struct wset_form *f = wset_new(l, isa_sopp_names[op], "", WK_SOPP);
    uint32_t w = 0xbf800000u | op << 16;
    bool branch = op == 2 || (op >= 4 && op <= 9) || (op >= 23 && op <= 26);
    wset_cand(f, 1, w | (branch ? 1u : 0u), 0, 0);
    wset_cand(f, 1, w | 1u, 0, 0);   /* s_sendmsg: a message id */
    wset_place(l, f);
  }
}

/* The SMEM name the decoder gives `op`: its table, or the few it names itself (cache and
 * clock instructions, decode_sop.c). */
static const char *wset_smem_name(unsigned op)
{
  if (isa_smem_names[op])
    return isa_smem_names[op];
  uint32_t w[2] = { 0xc0000000u | op << 18, 0 };
  struct isa_inst in;
  isa_decode(w, 2, 0, ISA_TARGET_ANY, &in);
  return in.exec != isa_exec_unknown ? in.name : NULL;
}

static void wset_smem(struct wset_list *l)
{
  for (unsigned op = 0; op < 256; op++) {
    const char *name = wset_smem_name(op);
    if (!name)
      continue;
    bool atomic = op >= 0x40, memory = op < 0x20 || op >= 0x40;
    for (unsigned glc = 0; glc <= (unsigned)atomic; glc++) {
      struct wset_form *f = wset_new(l, name, atomic ? (glc ? "glc" : "noret") : "", WK_SMEM);
      uint32_t w = 0xc0000000u | op << 18 | 1u << 17 | glc << 16;   /* imm offset */
      wset_cand(f, 2, w | 16u << 6 | 2u, 16, 0);   /* sdata s16, sbase s[4:5] / s[4:7] */
      wset_cand(f, 2, w | 2u, 16, 0);              /* no sdata (s_dcache_discard) */
      uint32_t noimm = w & ~(1u << 17);            /* no address: s_memtime, s_dcache_inv */
      wset_cand(f, 2, noimm | 16u << 6, 0, 0);
      wset_cand(f, 2, noimm, 0, 0);
      wset_place(l, f);
      if (!memory)
        continue;
      /* the offset in an SGPR (s8 = 16, the same address) */
      f = wset_new(l, name, atomic ? (glc ? "soff-glc" : "soff-noret") : "soff", WK_SMEM);
      wset_cand(f, 2, (w & ~(1u << 17)) | 16u << 6 | 2u, 8, 0);
      wset_place(l, f);
    }
  }
}

/* ---- vector memory ---- */
static void wset_ds(struct wset_list *l)
{
  for (unsigned op = 0; op < 256; op++) {
    if (!isa_ds_names[op])
      continue;
    struct wset_form *f = wset_new(l, isa_ds_names[op], "", WK_DS);
    uint32_t w = 0xd8000000u | op << 17 | 8u << 8 | 4u;   /* offset0:4 offset1:8 */
    static const uint8_t regs[][4] = {   /* vdst, addr, data0, data1 */
      {10, 20, 30, 40}, {10, 20, 30, 0}, {10, 20, 0, 0}, {0, 20, 30, 40}, {0, 20, 30, 0},
      {10, 0, 0, 0}, {0, 20, 0, 0}};
    for (unsigned k = 0; k < sizeof regs / sizeof regs[0]; k++)
      wset_cand(f, 2, w, (uint32_t)regs[k][0] << 24 | (uint32_t)regs[k][3] << 16 |
                (uint32_t)regs[k][2] << 8 | regs[k][1], 0);
    wset_place(l, f);
  }
}

static void wset_flat(struct wset_list *l)
{
  static const char *const *const tabs[3] = { isa_flat_names, isa_scratch_names, isa_global_names };
  static const unsigned kinds[3] = { WK_FLAT, WK_SCRATCH, WK_GLOBAL };
  /* FLAT: global memory, the LDS aperture, the private aperture; GLOBAL/SCRATCH: addresses
   * in VGPRs or an SGPR base (saddr) */
  static const char *const modes[3][3] = { {"", "lds", "priv"}, {"", "saddr", NULL},
                                           {"", "saddr", NULL} };
  for (unsigned seg = 0; seg < 3; seg++) {
    for (unsigned op = 0; op < 128; op++) {
      const char *name = tabs[seg][op];
      if (!name)
        continue;
      bool atomic = op >= 64;
      for (unsigned md = 0; md < 3 && modes[seg][md]; md++) {
        for (unsigned glc = 0; glc <= (unsigned)atomic; glc++) {
          char v[12];
          snprintf(v, sizeof v, "%s%s", modes[seg][md], atomic ? (glc ? "-glc" : "-noret") : "");
          struct wset_form *f = wset_new(l, name, v, kinds[seg]);
          uint32_t w = 0xdc000000u | op << 18 | glc << 16 | (seg == 1 ? 1u : seg == 2 ? 2u : 0u) << 14 | 16u;
          /* saddr: "off" is 0x7f, but FLAT has no such field (zero) */
          uint32_t saddr = seg == 0 ? 0u : md ? 40u : 0x7fu;
          static const uint8_t regs[][3] = { {10, 20, 30}, {10, 20, 0}, {0, 20, 30}, {10, 0, 0},
                                             {0, 0, 30} };   /* vdst, addr, data */
          for (unsigned k = 0; k < sizeof regs / sizeof regs[0]; k++)
            wset_cand(f, 2, w, (uint32_t)regs[k][0] << 24 | saddr << 16 |
                      (uint32_t)regs[k][2] << 8 | regs[k][1], 0);
          wset_place(l, f);
        }
      }
    }
  }
}

static void wset_mubuf(struct wset_list *l)
{
  /* offen (vaddr offset), off (no VGPR), idxen (vaddr index, stride 64), swz (off, through a
   * swizzled ADD_TID resource as the private segment buffer is) */
  static const char *const modes[4] = { "", "off", "idxen", "swz" };
  static const uint32_t bits[4] = { 1u << 12, 0, 1u << 13, 0 };
  for (unsigned op = 0; op < 128; op++) {
    if (!isa_mubuf_names[op])
      continue;
    bool atomic = op >= 64, cache = op == 40 || op == 41 || op == 62 || op == 63;
    for (unsigned md = 0; md < (cache ? 1u : 4u); md++) {
      for (unsigned glc = 0; glc <= (unsigned)atomic; glc++) {
        char v[12];
        snprintf(v, sizeof v, "%s%s", modes[md], atomic ? (glc ? "-glc" : "-noret") : "");
        struct wset_form *f = wset_new(l, isa_mubuf_names[op], v, WK_MUBUF);
        /* offset:16; vdata v10, vaddr v20, srsrc s[4:7], soffset s8 */
        uint32_t w = 0xe0000000u | op << 18 | glc << 14 | bits[md] | 16u;
        wset_cand(f, 2, w, 8u << 24 | 1u << 16 | 10u << 8 | (md == 1 || md == 3 ? 0u : 20u), 0);
        wset_cand(f, 2, 0xe0000000u | op << 18, 0, 0);   /* no operands (buffer_wbinvl1) */
        wset_place(l, f);
      }
    }
  }
  for (unsigned op = 0; op < 16; op++) {
    if (!isa_mtbuf_names[op])
      continue;
    struct wset_form *f = wset_new(l, isa_mtbuf_names[op], "", WK_MTBUF);
    /* format 32_32_32_32 (dfmt 14) uint (nfmt 4), offen offset:16 */
    uint32_t w = 0xe8000000u | 4u << 23 | 14u << 19 | op << 15 | 1u << 12 | 16u;
    wset_cand(f, 2, w, 8u << 24 | 1u << 16 | 10u << 8 | 20u, 0);
    wset_place(l, f);
  }
}

/* Graphics formats: the decoder names them, the model runs no EXP/VINTRP; MIMG runs, but the
 * random SGPRs here are no image resource (T# TYPE < 8), so they fault too (test_isa_image.c
 * runs them on real descriptors). */
static void wset_graphics(struct wset_list *l)
{
  for (unsigned op = 0; op < 128; op++) {
    if (!isa_mimg_names[op])
      continue;
    struct wset_form *f = wset_new(l, isa_mimg_names[op], "", WK_MIMG);
    /* dmask 1, unorm; vdata v10, vaddr v20, srsrc s[4:11], ssamp s[12:15] */
    uint32_t w = 0xf0000000u | op << 18 | 1u << 12 | 1u << 8;
    wset_cand(f, 2, w, 3u << 21 | 1u << 16 | 10u << 8 | 20u, 0);
    wset_cand(f, 2, w, 1u << 16 | 10u << 8 | 20u, 0);
    wset_place(l, f);
  }
  struct wset_form *f = wset_new(l, "exp", "", WK_EXP);
  wset_cand(f, 2, 0xc400000fu, 23u << 24 | 22u << 16 | 21u << 8 | 20u, 0);   /* mrt0, 4 VGPRs */
  wset_place(l, f);
  static const char *const interp[3] = { "v_interp_p1_f32", "v_interp_p2_f32", "v_interp_mov_f32" };
  for (unsigned op = 0; op < 3; op++) {
    f = wset_new(l, interp[op], "", WK_VINTRP);
    wset_cand(f, 1, 0xd4000000u | 10u << 18 | op << 16 | (op == 2 ? 0u : 20u), 0, 0);
    wset_place(l, f);
  }
}

/* ---- VALU: each table entry of the chip in its VOP3 form and, below 0x1c0, in its 32-bit
 * form with SDWA and DPP variants ---- */
#define WSET_V(n) (256u + (n))

/* The VOP3 (or VOP3P) form; `vdst` and `sdst` (bits 14:8, VOP3b only) are the destination
 * fields of this variant. */
static void wset_vop3(struct wset_list *l, const struct valu_desc *d, const char *variant,
                      unsigned vdst, unsigned sdst)
{
  bool p = d->op >= VALU_OP_VOP3P;
  struct wset_form *f = wset_new(l, d->name, variant, p ? WK_VOP3P : WK_VOP3);
  const char *dash = strchr(variant, '-');   /* "e64-vcc": vcc must show */
  f->shows = dash ? dash + 1 : NULL;
  /* unused fields must be zero for LLVM; lane selects must be scalar (LLVM decodes a VGPR
   * there too, which no assembler would write) */
  static const uint16_t srcs[][3] = {
    {WSET_V(20), WSET_V(30), WSET_V(40)}, {WSET_V(20), WSET_V(30), 44},
    {WSET_V(20), WSET_V(30), 0}, {WSET_V(20), 44, 0}, {40, 44, 0}, {WSET_V(20), 0, 0},
    {0, 0, 0}};
  unsigned first = !strcmp(d->name, "v_readlane_b32") ? 3 : !strcmp(d->name, "v_writelane_b32") ? 4 : 0;
  for (unsigned sd = 0; sd < (p ? 1u : 2u); sd++) {
    if (sd == 0 && sdst != 16)   /* an sdst variant: only the VOP3b candidates */
      continue;
    for (unsigned k = first; k < sizeof srcs / sizeof srcs[0]; k++) {
      /* VOP3P: op_sel_hi set for every source (LLVM's default) */
      uint32_t w0 = 0xd0000000u | (uint32_t)d->op << 16 | (p ? 1u << 14 : 0) | sd * sdst << 8 | vdst;
      uint32_t w1 = (uint32_t)srcs[k][2] << 18 | (uint32_t)srcs[k][1] << 9 | srcs[k][0] |
                    (p ? 3u << 27 : 0);
      f->cand_sdst[f->ncand] = sd;
      wset_cand(f, 2, w0, w1, 0);
    }
  }
  f->cand_sdst[f->ncand] = false;
  wset_cand(f, 2, 0xd0000000u | (uint32_t)d->op << 16, 0, 0);   /* v_nop, v_clrexcp */
  wset_place(l, f);
}

static void wset_vop32(struct wset_list *l, const struct valu_desc *d, unsigned mod,
                       unsigned vdst)
{
  static const char *const vn[3] = { "e32", "sdwa", "dpp" };
  unsigned op = d->op, kind = op < 0x100 ? WK_VOPC : op < VALU_OP_VOP1 ? WK_VOP2 : WK_VOP1;
  uint32_t w;
  if (kind == WK_VOPC)
    w = 0x7c000000u | op << 17 | 30u << 9;
  else if (kind == WK_VOP2)
    w = (op - VALU_OP_VOP2) << 25 | vdst << 17 | 30u << 9;
  else
    w = 0x7e000000u | vdst << 17 | (op - VALU_OP_VOP1) << 9;
  for (unsigned sd = 0; sd < (mod == 1 && kind == WK_VOPC ? 2u : 1u); sd++) {
    struct wset_form *f = wset_new(l, d->name, vdst != 10 ? "e32-m0" : sd ? "sdwa-sd" : vn[mod],
                                   mod == 0 ? kind : mod == 1 ? WK_SDWA : WK_DPP);
    f->shows = vdst != 10 ? "m0" : NULL;
    if (mod == 0) {
      wset_cand(f, 1, w | WSET_V(20), 0, 0);
      wset_cand(f, 1, w & ~(0xffu << 17), 0, 0);   /* v_nop, v_clrexcp: no operands */
    } else if (mod == 1) {
      /* dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE, sources whole dwords; VOPC: vcc or s16 */
      uint32_t e = 20u | 6u << 16 | 6u << 24;
      e |= kind == WK_VOPC ? (sd ? 1u << 15 | 16u << 8 : 0) : 5u << 8 | 2u << 11;
      wset_cand(f, 2, w | 0xf9u, e, 0);
      wset_cand(f, 2, w | 0xf9u, e & ~(0xffu << 24), 0);   /* VOP1: no src1 select */
    } else {
      /* row_shr:1 row_mask:0xf bank_mask:0xf */
      wset_cand(f, 2, w | 0xfau, 20u | 0x111u << 8 | 0xffu << 24, 0);
    }
    wset_place(l, f);
  }
  if (mod == 2) {   /* rows 0 and 2, banks 1 and 3 written: quad_perm:[0,1,2,3] */
    struct wset_form *f = wset_new(l, d->name, "dpp-mask", WK_DPP);
    f->shows = "row_mask:0x5";
    wset_cand(f, 2, w | 0xfau, 20u | 0xe4u << 8 | 0xau << 24 | 0x5u << 28, 0);
    wset_place(l, f);
  }
}

static void wset_valu(struct wset_list *l, unsigned gfx_bit)
{
#define TAB(x) { valu_##x##_ops, &valu_##x##_count }
  static const struct { const struct valu_desc *d; const unsigned *n; } tabs[] = {
    TAB(int), TAB(f32), TAB(f64), TAB(f16), TAB(cmp), TAB(cvt), TAB(pk), TAB(misc) };
#undef TAB
  for (unsigned t = 0; t < sizeof tabs / sizeof tabs[0]; t++)
    for (unsigned i = 0; i < *tabs[t].n; i++) {
      const struct valu_desc *d = &tabs[t].d[i];
      if (!(d->gfx & gfx_bit))
        continue;
      bool scalar_dst = d->flags & VALU_F_SDST;   /* v_readlane, v_readfirstlane */
      if (!(d->flags & (VALU_F_MADMK | VALU_F_MADAK | VALU_F_NOVOP3))) {
        wset_vop3(l, d, "e64", 10, 16);
        /* results in VCC, EXEC, M0 as compilers write them */
        if (d->op < 0x100) {
          wset_vop3(l, d, "e64-vcc", 106, 16);
          wset_vop3(l, d, "e64-exec", 126, 16);
        }
        if (d->flags & VALU_F_VOP3B)
          wset_vop3(l, d, "e64-vcc", 10, 106);
        if (scalar_dst)
          wset_vop3(l, d, "e64-m0", 124, 16);
      }
      if (d->op < 0x1c0)
        for (unsigned mod = 0; mod < 3; mod++)
          wset_vop32(l, d, mod, 10);
      if (d->op < 0x1c0 && scalar_dst)
        wset_vop32(l, d, 0, 124);
      if (d->op < 0x1c0) {   /* the 32-bit form with a literal source */
        unsigned op = d->op;
        uint32_t w = op < 0x100 ? 0x7c000000u | op << 17 | 30u << 9
                   : op < VALU_OP_VOP1 ? (op - VALU_OP_VOP2) << 25 | 10u << 17 | 30u << 9
                   : 0x7e000000u | 10u << 17 | (op - VALU_OP_VOP1) << 9;
        wset_lit(l, d->name, op < 0x100 ? WK_VOPC : op < VALU_OP_VOP1 ? WK_VOP2 : WK_VOP1,
                 w | 255u);
      }
    }
}

/* Every form of a gfx9 chip; `valu_bit` picks the chip's VALU table entries. */
static void wset_gfx9_forms(struct wset_list *l, unsigned valu_bit)
{
  wset_sop(l);
  wset_smem(l);
  wset_ds(l);
  wset_flat(l);
  wset_mubuf(l);
  wset_graphics(l);
  wset_valu(l, valu_bit);
}

#endif
