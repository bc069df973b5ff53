/* SPDX-License-Identifier: MIT */
/* wset_rules.h — what an instruction may write, from LLVM's text of it: the explicit
 * destinations are leading operands as llvm-objdump prints them (how many lead is the
 * instruction's "outs" in LLVM's SOPInstructions.td, VOP*Instructions.td, DSInstructions.td,
 * FLATInstructions.td, BUFInstructions.td, SMInstructions.td), the implicit ones come from
 * the table below, each entry with where the fact comes from. */
#ifndef TESTS_SIM_WSET_RULES_H
#define TESTS_SIM_WSET_RULES_H

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wset_forms.h"

enum {
  WR_VCC_LO = 1u << 0, WR_VCC_HI = 1u << 1, WR_EXEC_LO = 1u << 2, WR_EXEC_HI = 1u << 3,
  WR_M0 = 1u << 4, WR_SCC = 1u << 5, WR_MODE = 1u << 6, WR_TRAPSTS = 1u << 7,
  WR_FLAT_SCRATCH = 1u << 8, WR_XNACK = 1u << 9, WR_TTMP = 1u << 10,
  WR_PC = 1u << 11,          /* branches, calls, s_endpgm: the final pc may be anywhere */
  WR_MEM = 1u << 12,         /* memory (global, scratch, LDS) within the footprint */
  WR_MOVRELD = 1u << 13,     /* the SGPR destination is the first operand + M0 */
  WR_WRITELANE = 1u << 14,   /* the VGPR destination's lane S1[5:0], whatever EXEC says */
  WR_SETREG = 1u << 15,      /* the hardware register the hwreg() operand names */
  WR_VCC = WR_VCC_LO | WR_VCC_HI, WR_EXEC = WR_EXEC_LO | WR_EXEC_HI,
};

struct wset_allow {
  uint8_t sgpr[128];         /* 1: the SGPR may change */
  uint8_t vgpr[256];
  unsigned regs;             /* WR_* */
  uint32_t vbits;            /* the bits of a VGPR destination that may change */
  const char *source;        /* where the implicit destinations come from, or NULL */
  char defs[120];            /* the destinations, for messages */
};

/* ---- implicit definitions ---- */
struct wset_implicit {
  const char *pattern;       /* base mnemonic; '*' matches any run of characters */
  unsigned regs;
  const char *source;
};

#define SOP_TD "LLVM SOPInstructions.td Defs"
#define VOPC_TD "LLVM VOPCInstructions.td Defs"
#define ISA_DOC "AMD Vega ISA manual (the opcode's description)"

static const struct wset_implicit wset_implicit[] = {
  /* SCC from the scalar ALU */
  {"s_add_u32", WR_SCC, SOP_TD}, {"s_sub_u32", WR_SCC, SOP_TD}, {"s_add_i32", WR_SCC, SOP_TD},
  {"s_sub_i32", WR_SCC, SOP_TD}, {"s_addc_u32", WR_SCC, SOP_TD}, {"s_subb_u32", WR_SCC, SOP_TD},
  {"s_min_?32", WR_SCC, SOP_TD}, {"s_max_?32", WR_SCC, SOP_TD},
  {"s_and_b*", WR_SCC, SOP_TD}, {"s_or_b*", WR_SCC, SOP_TD}, {"s_xor_b*", WR_SCC, SOP_TD},
  {"s_xnor_b*", WR_SCC, SOP_TD}, {"s_nand_b*", WR_SCC, SOP_TD}, {"s_nor_b*", WR_SCC, SOP_TD},
  {"s_andn2_b*", WR_SCC, SOP_TD}, {"s_orn2_b*", WR_SCC, SOP_TD},
  {"s_lshl_b*", WR_SCC, SOP_TD}, {"s_lshr_b*", WR_SCC, SOP_TD}, {"s_ashr_i*", WR_SCC, SOP_TD},
  {"s_bfe_*", WR_SCC, SOP_TD}, {"s_absdiff_i32", WR_SCC, SOP_TD},
  {"s_lshl?_add_u32", WR_SCC, SOP_TD},
  {"s_not_b*", WR_SCC, SOP_TD}, {"s_wqm_b*", WR_SCC, SOP_TD}, {"s_bcnt?_i32_b*", WR_SCC, SOP_TD},
  {"s_abs_i32", WR_SCC, SOP_TD},
  {"s_quadmask_b*", WR_SCC, ISA_DOC ": SCC = (D != 0)"},
  {"s_cmp_*", WR_SCC, SOP_TD " (SOPC_Pseudo)"}, {"s_bitcmp*", WR_SCC, SOP_TD " (SOPC_Pseudo)"},
  {"s_setvskip", WR_SCC, SOP_TD " (SOPC_Pseudo)"},
  {"s_cmpk_*", WR_SCC, SOP_TD " (SOPK_SCC)"}, {"s_addk_i32", WR_SCC, SOP_TD},
  /* EXEC */
  {"s_*_saveexec_b64", WR_EXEC | WR_SCC, SOP_TD " = [EXEC, SCC]"},
  {"s_*_wrexec_b64", WR_EXEC | WR_SCC, SOP_TD " = [EXEC, SCC]"},
  {"v_cmpx_*", WR_EXEC, VOPC_TD " (DefExec: EXEC, besides VCC or sdst)"},
  /* M0 and MODE: GPR indexing */
  {"s_set_gpr_idx_on", WR_M0 | WR_MODE, SOP_TD " = [M0, MODE]"},
  {"s_set_gpr_idx_idx", WR_M0 | WR_MODE, SOP_TD " = [M0, MODE]"},
  {"s_set_gpr_idx_mode", WR_M0 | WR_MODE, SOP_TD " = [M0, MODE]"},
  {"s_set_gpr_idx_off", WR_MODE, SOP_TD " = [MODE]"},
  {"s_setreg_b32", WR_SETREG, SOP_TD " = [MODE]; the hwreg() operand names the register"},
  {"s_setreg_imm32_b32", WR_SETREG, SOP_TD " = [MODE]; the hwreg() operand names the register"},
  {"v_clrexcp", WR_TRAPSTS, ISA_DOC ": clears the wave's exception state"},
  /* indexed and lane-selected destinations */
  {"s_movreld_b*", WR_MOVRELD, ISA_DOC ": SGPR[D + M0] = S0 (LLVM lists sdst as a use)"},
  {"v_writelane_b32", WR_WRITELANE, ISA_DOC ": VGPR[lane S1][D] = S0, ignores EXEC"},
  /* program flow */
  {"s_branch", WR_PC, SOP_TD " (isBranch)"}, {"s_cbranch_*", WR_PC, SOP_TD " (isBranch)"},
  {"s_setpc_b64", WR_PC, SOP_TD " (isBranch)"}, {"s_swappc_b64", WR_PC, SOP_TD " (isCall)"},
  {"s_call_b64", WR_PC, SOP_TD " (isCall)"}, {"s_rfe_b64", WR_PC, ISA_DOC ": return from exception"},
  {"s_rfe_restore_b64", WR_PC, ISA_DOC ": return from exception"},
  {"s_cbranch_?_fork", WR_PC | WR_EXEC, ISA_DOC ": fork/join keep masks in SGPRs and EXEC"},
  {"s_cbranch_join", WR_PC | WR_EXEC, ISA_DOC ": fork/join keep masks in SGPRs and EXEC"},
  {"s_endpgm*", WR_PC, SOP_TD " (isReturn): the wave ends at it"},
  {"s_trap", WR_PC | WR_TTMP, ISA_DOC ": enters the trap handler, return state in TTMP0/1"},
};

static bool wset_glob(const char *p, const char *s)
{
  for (; *p; p++, s++) {
    if (*p == '*') {
      for (const char *t = s;; t++) {
        if (wset_glob(p + 1, t))
          return true;
        if (!*t)
          return false;
      }
    }
    if (!*s || (*p != '?' && *p != *s))
      return false;
  }
  return !*s;
}

static unsigned wset_implicit_regs(const char *base, const char **source)
{
  unsigned r = 0;
  for (unsigned i = 0; i < sizeof wset_implicit / sizeof wset_implicit[0]; i++)
    if (wset_glob(wset_implicit[i].pattern, base)) {
      r |= wset_implicit[i].regs;
      if (source)
        *source = wset_implicit[i].source;
    }
  return r;
}

/* ---- LLVM's text ---- */
#define WSET_MAXOPS 8

struct wset_text {
  char mnemonic[48];
  char base[48];             /* without _e32/_e64/_sdwa/_dpp */
  char ops[WSET_MAXOPS][48];
  unsigned nops;
  bool glc;                  /* the glc modifier is printed */
};

/* Splits "mnemonic op, op, op modifiers" at top-level commas (hwreg(a, b) stays whole). */
static void wset_parse(const char *text, struct wset_text *t)
{
  memset(t, 0, sizeof *t);
  const char *p = text;
  size_t n = strcspn(p, " ");
  snprintf(t->mnemonic, sizeof t->mnemonic, "%.*s", (int)n, p);
  snprintf(t->base, sizeof t->base, "%s", t->mnemonic);
  static const char *const sfx[] = { "_e32", "_e64", "_sdwa", "_dpp" };
  for (unsigned i = 0; i < 4; i++) {
    size_t bl = strlen(t->base), sl = strlen(sfx[i]);
    if (bl > sl && !strcmp(t->base + bl - sl, sfx[i]))
      t->base[bl - sl] = 0;
  }
  p += n;
  t->glc = strstr(p, " glc") != NULL;
  while (*p == ' ')
    p++;
  while (*p && t->nops < WSET_MAXOPS) {
    char *o = t->ops[t->nops];
    unsigned k = 0;
    int depth = 0;
    bool last = false;
    for (; *p; p++) {
      if (*p == '(' || *p == '[') depth++;
      if (*p == ')' || *p == ']') depth--;
      if (!depth && *p == ',') { p++; break; }
      if (!depth && *p == ' ' && k) {   /* modifiers follow the last operand */
        last = true;
        break;
      }
      if (k + 1 < sizeof t->ops[0])
        o[k++] = *p;
    }
    o[k] = 0;
    if (k)
      t->nops++;
    while (*p == ' ')
      p++;
    if (last)
      break;
  }
}

/* A register operand into the allowed set; false when `op` is not a register. */
static bool wset_reg(const char *op, struct wset_allow *a)
{
  while (*op == '-' || *op == '|')
    op++;
  unsigned lo = 0, hi = 0;
  char c = op[0];
  bool tuple = op[1] == '[';
  bool parsed = tuple ? sscanf(op + 1, "[%u:%u]", &lo, &hi) == 2
                      : isdigit((unsigned char)op[1]) && sscanf(op + 1, "%u", &lo) == 1;
  if (!tuple)
    hi = lo;
  if (parsed && (c == 'v' || c == 's' || c == 'a') && hi >= lo) {
    for (unsigned r = lo; r <= hi; r++) {
      if (c == 'v' && r < 256) a->vgpr[r] = 1;
      if (c == 'a' && WSET_ACC + r < 256) a->vgpr[WSET_ACC + r] = 1;   /* the unified file */
      if (c == 's' && r < 128) a->sgpr[r] = 1;
    }
    return true;
  }
  static const struct { const char *name; unsigned regs; } special[] = {
    {"vcc_lo", WR_VCC_LO}, {"vcc_hi", WR_VCC_HI}, {"vcc", WR_VCC},
    {"exec_lo", WR_EXEC_LO}, {"exec_hi", WR_EXEC_HI}, {"exec", WR_EXEC}, {"m0", WR_M0},
    {"flat_scratch", WR_FLAT_SCRATCH}, {"xnack_mask", WR_XNACK}, {"ttmp", WR_TTMP},
    {"scc", WR_SCC}};
  for (unsigned i = 0; i < sizeof special / sizeof special[0]; i++)
    if (!strncmp(op, special[i].name, strlen(special[i].name))) {
      a->regs |= special[i].regs;
      return true;
    }
  return false;
}

static bool wset_in(const char *s, const char *const *list)
{
  for (; *list; list++)
    if (!strcmp(s, *list))
      return true;
  return false;
}

/* How many leading operands LLVM's instruction defines ("outs"), by format and mnemonic. */
static unsigned wset_explicit_defs(unsigned kind, const struct wset_text *t)
{
  const char *m = t->base;
  bool atomic = strstr(m, "atomic") != NULL;
  switch (kind) {
  case WK_SOP2: {
    static const char *const none[] = { "s_cbranch_g_fork", "s_rfe_restore_b64", NULL };
    return wset_in(m, none) ? 0 : 1;
  }
  case WK_SOP1: {   /* SOP1_1, SOP1_0_32(R), SOP1_*_movreld have no outs */
    static const char *const none[] = { "s_setpc_b64", "s_rfe_b64", "s_cbranch_join",
                                        "s_set_gpr_idx_idx", "s_movreld_b32", "s_movreld_b64", NULL };
    return wset_in(m, none) ? 0 : 1;
  }
  case WK_SOPK: {   /* s_cmpk_*, s_setreg_*, s_cbranch_i_fork read their sdst field */
    static const char *const one[] = { "s_movk_i32", "s_cmovk_i32", "s_addk_i32", "s_mulk_i32",
                                       "s_getreg_b32", "s_call_b64", NULL };
    return wset_in(m, one) ? 1 : 0;
  }
  case WK_SOPC: case WK_SOPP: case WK_EXP:
    return 0;
  case WK_SMEM:
    return !strncmp(m, "s_load", 6) || !strncmp(m, "s_buffer_load", 13) ||
           !strncmp(m, "s_scratch_load", 14) || !strcmp(m, "s_memtime") ||
           !strcmp(m, "s_memrealtime") || (atomic && t->glc);
  case WK_DS: {
    static const char *const ret[] = { "ds_swizzle_b32", "ds_permute_b32", "ds_bpermute_b32",
                                       "ds_append", "ds_consume", NULL };
    return !strncmp(m, "ds_read", 7) || strstr(m, "_rtn_") || wset_in(m, ret);
  }
  case WK_FLAT: case WK_GLOBAL: case WK_SCRATCH: case WK_MUBUF: case WK_MTBUF:
    return strstr(m, "_load_") || (atomic && t->glc);
  case WK_MIMG:
    return strstr(m, "_load") || strstr(m, "_sample") || strstr(m, "_gather") ||
           strstr(m, "_get_") || (atomic && t->glc);
  case WK_VINTRP:
    return 1;
  default: {   /* VALU: the result, and a carry-out / VOP3b sdst / swapped source after it */
    static const char *const two[] = {   /* VOP2b/VOP3b profiles, VOP_SWAP_I32 */
      "v_add_co_u32", "v_sub_co_u32", "v_subrev_co_u32", "v_addc_co_u32", "v_subb_co_u32",
      "v_subbrev_co_u32", "v_div_scale_f32", "v_div_scale_f64", "v_mad_u64_u32",
      "v_mad_i64_i32", "v_swap_b32", NULL };
    if (!t->nops)
      return 0;
    return wset_in(m, two) ? 2 : 1;
  }
  }
}

/* Registers the form's source fields hold (wset_forms.h): a destination there means the
 * rules above are wrong for this instruction. */
static bool wset_source_reg(const char *op)
{
  static const char *const src[] = { "v20", "v[20:", "v30", "v[30:", "v40", "v[40:", "s40",
                                     "s[40:", "s44", "s[44:", "s[4:", "s8", NULL };
  for (const char *const *s = src; *s; s++)
    if (!strncmp(op, *s, strlen(*s)) && (!isdigit((unsigned char)op[strlen(*s)])))
      return true;
  return false;
}

/* The bits of its VGPR destination an instruction writes: all, but half for the d16 loads
 * (the other half kept: "D16" in the Vega ISA manual), v_mad_mix{lo,hi} (LLVM ties vdst_in),
 * and SDWA's dst_sel with dst_unused:UNUSED_PRESERVE (the other bits kept). */
static uint32_t wset_vgpr_bits(const struct wset_form *f, const struct wset_text *t)
{
  const char *m = t->base;
  bool load = strstr(m, "load_") || !strncmp(m, "ds_read", 7);
  if (load && strstr(m, "_d16_hi") && !strstr(m, "format"))
    return 0xffff0000u;
  if (load && strstr(m, "_d16") && !strstr(m, "format"))
    return 0x0000ffffu;
  if (strstr(m, "_mixlo_"))
    return 0x0000ffffu;
  if (strstr(m, "_mixhi_"))
    return 0xffff0000u;
  if (f->kind == WK_SDWA && strstr(f->text, "dst_unused:UNUSED_PRESERVE")) {
    static const struct { const char *sel; uint32_t bits; } sels[] = {
      {"dst_sel:BYTE_0", 0xffu}, {"dst_sel:BYTE_1", 0xff00u}, {"dst_sel:BYTE_2", 0xff0000u},
      {"dst_sel:BYTE_3", 0xff000000u}, {"dst_sel:WORD_0", 0xffffu},
      {"dst_sel:WORD_1", 0xffff0000u}};
    for (unsigned i = 0; i < sizeof sels / sizeof sels[0]; i++)
      if (strstr(f->text, sels[i].sel))
        return sels[i].bits;
  }
  return ~0u;
}

/* DPP's row_mask and bank_mask: lanes in disabled rows (16 lanes) or banks (4 lanes of each
 * row) are not written; nor, without bound_ctrl, lanes whose source lane is outside the row
 * (row_shr:n: the first n of each row). */
static uint64_t wset_dpp_lanes(const char *text)
{
  const char *r = strstr(text, "row_mask:"), *b = strstr(text, "bank_mask:");
  const char *sh = strstr(text, "row_shr:");
  unsigned rm = r ? (unsigned)strtoul(r + 9, NULL, 16) : 0xf;
  unsigned bm = b ? (unsigned)strtoul(b + 10, NULL, 16) : 0xf;
  unsigned shr = sh && !strstr(text, "bound_ctrl") ? (unsigned)strtoul(sh + 8, NULL, 0) : 0;
  uint64_t m = 0;
  for (unsigned l = 0; l < 64; l++)
    if ((rm >> (l / 16) & 1) && (bm >> (l / 4 % 4) & 1) && l % 16 >= shr)
      m |= 1ull << l;
  return m;
}

/* The allowed write set of a form from LLVM's text. Returns NULL, or why it cannot be
 * derived (a rule/operand inconsistency: a bug in these tables, reported as a failure). */
static const char *wset_allowed(const struct wset_form *f, struct wset_allow *a)
{
  static char why[160];
  struct wset_text t;
  memset(a, 0, sizeof *a);
  wset_parse(f->text, &t);
  unsigned n = wset_explicit_defs(f->kind, &t);
  if (n > t.nops)
    return "fewer operands than destinations";
  size_t k = 0;
  for (unsigned i = 0; i < n; i++) {
    if (!wset_reg(t.ops[i], a)) {
      snprintf(why, sizeof why, "destination operand '%s' is not a register", t.ops[i]);
      return why;
    }
    if (wset_source_reg(t.ops[i]) && strcmp(t.base, "v_swap_b32")) {
      snprintf(why, sizeof why, "destination operand '%s' is a source field", t.ops[i]);
      return why;
    }
    k += (size_t)snprintf(a->defs + k, sizeof a->defs - k, "%s%s", k ? " " : "", t.ops[i]);
    if (k >= sizeof a->defs)
      k = sizeof a->defs - 1;
  }
  a->vbits = wset_vgpr_bits(f, &t);
  unsigned imp = wset_implicit_regs(t.base, &a->source);
  a->regs |= imp;
  if (imp & WR_SETREG) {   /* s_setreg*: hwreg(HW_REG_MODE...) or hwreg(HW_REG_TRAPSTS...) */
    if (strstr(f->text, "HW_REG_MODE")) a->regs |= WR_MODE;
    if (strstr(f->text, "HW_REG_TRAPSTS")) a->regs |= WR_TRAPSTS;
  }
  if (imp & WR_MOVRELD && t.nops)   /* resolved against M0 by the runner */
    snprintf(a->defs + k, sizeof a->defs - k, "%s%s+m0", k ? " " : "", t.ops[0]);
  /* memory: stores, atomics, LDS writes */
  const char *m = t.base;
  bool mem = false;
  switch (f->kind) {
  case WK_DS:
    mem = strncmp(m, "ds_read", 7) && strcmp(m, "ds_swizzle_b32") && strcmp(m, "ds_permute_b32") &&
          strcmp(m, "ds_bpermute_b32") && strcmp(m, "ds_nop");
    break;
  case WK_SMEM: case WK_FLAT: case WK_GLOBAL: case WK_SCRATCH: case WK_MUBUF: case WK_MTBUF:
  case WK_MIMG:
    mem = strstr(m, "store") || strstr(m, "atomic");
    break;
  default:
    break;
  }
  if (mem)
    a->regs |= WR_MEM;
  return NULL;
}

#endif
