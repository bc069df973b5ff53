/* SPDX-License-Identifier: MIT */
/* describe.c — disassembly-like text of one instruction for traces, fault messages and the
 * decoder's comparison with llvm-objdump: the mnemonic, then the operands spelled as
 * llvm-objdump spells them for the scalar and memory formats (VALU operands are listed
 * plainly). */
#include "isa/exec.h"
#include "isa/gfx11.h"
#include "isa/text.h"

#include <string.h>

/* A scalar/vector operand code of `dwords` registers, llvm-objdump style. */
/* Cache policy bits as llvm-objdump spells them: gfx942 names them sc0/nt/sc1 (scalar
 * loads keep glc); earlier chips glc/slc. */
static void cpol(struct isa_text *o, const struct isa_inst *in)
{
  if (in->target == ISA_TARGET_GFX942) {
    if (in->glc) isa_text_put(o, " sc0");
    if (in->slc) isa_text_put(o, " nt");
    if (in->sc1) isa_text_put(o, " sc1");
    return;
  }
  if (in->glc) isa_text_put(o, " glc");
  if (in->slc) isa_text_put(o, " slc");
}

static void opnd(struct isa_text *o, const struct isa_inst *in, unsigned code, unsigned dwords)
{
  if (isa_text_reg_or_const(o, code, dwords))
    return;
  const char *pair = NULL, *lo = NULL, *hi = NULL;
  switch (code) {
  case ISA_OP_FLAT_SCR_LO: pair = "flat_scratch"; lo = "flat_scratch_lo"; break;
  case ISA_OP_FLAT_SCR_HI: hi = "flat_scratch_hi"; break;
  case ISA_OP_XNACK_LO: pair = "xnack_mask"; lo = "xnack_mask_lo"; break;
  case ISA_OP_XNACK_HI: hi = "xnack_mask_hi"; break;
  case ISA_OP_VCC_LO: pair = "vcc"; lo = "vcc_lo"; break;
  case ISA_OP_VCC_HI: hi = "vcc_hi"; break;
  case ISA_OP_EXEC_LO: pair = "exec"; lo = "exec_lo"; break;
  case ISA_OP_EXEC_HI: hi = "exec_hi"; break;
  case ISA_OP_M0: hi = "m0"; break;
  case ISA_OP_SHARED_BASE: hi = "src_shared_base"; break;
  case ISA_OP_SHARED_LIMIT: hi = "src_shared_limit"; break;
  case ISA_OP_PRIVATE_BASE: hi = "src_private_base"; break;
  case ISA_OP_PRIVATE_LIMIT: hi = "src_private_limit"; break;
  case ISA_OP_POPS_EXITING_WAVE_ID: hi = "src_pops_exiting_wave_id"; break;
  case ISA_OP_VCCZ: hi = "src_vccz"; break;
  case ISA_OP_EXECZ: hi = "src_execz"; break;
  case ISA_OP_SCC: hi = "src_scc"; break;
  case ISA_OP_LITERAL:   /* one an inline constant could have encoded is spelled as that */
    isa_text_literal(o, in, true);
    return;
  default: isa_text_put(o, "<op%u>", code); return;
  }
  isa_text_put(o, "%s", pair && dwords == 2 ? pair : lo ? lo : hi);
}

static bool has(const char *name, const char *s)
{
  return strstr(name, s) != NULL;
}

static void scalar(struct isa_text *o, const struct isa_inst *in)
{
  const char *n = in->name;
  bool w64 = has(n, "_b64") || has(n, "_i64") || has(n, "_u64") || has(n, "saveexec") ||
             has(n, "wrexec");
  switch (in->fmt) {
  case ISA_SOP1: {
    unsigned d = w64 ? 2 : 1, s = w64 ? 2 : 1;
    if (has(n, "_i32_b64") || has(n, "_i32_i64")) d = 1;
    if (has(n, "bitset") || has(n, "bitreplicate")) s = 1;
    if (has(n, "getpc")) { opnd(o, in, in->dst, 2); return; }
    if (has(n, "setpc") || has(n, "rfe_b64")) { opnd(o, in, in->src[0], 2); return; }
    if (has(n, "cbranch_join") || has(n, "set_gpr_idx_idx")) { opnd(o, in, in->src[0], 1); return; }
    opnd(o, in, in->dst, d);
    isa_text_put(o, ", ");
    opnd(o, in, in->src[0], s);
    return;
  }
  case ISA_SOP2: {
    unsigned d = w64 ? 2 : 1, a = d, b = d;
    if (has(n, "lshl_b64") || has(n, "lshr_b64") || has(n, "ashr_i64") || has(n, "bfe_")) b = 1;
    if (has(n, "bfm_b64")) a = b = 1;
    opnd(o, in, in->dst, d);
    isa_text_put(o, ", ");
    opnd(o, in, in->src[0], a);
    isa_text_put(o, ", ");
    opnd(o, in, in->src[1], b);
    return;
  }
  case ISA_SOPC: {
    unsigned a = w64 ? 2 : 1, b = has(n, "bitcmp") ? 1 : a;
    opnd(o, in, in->src[0], a);
    isa_text_put(o, ", ");
    opnd(o, in, in->src[1], b);
    return;
  }
  case ISA_SOPK:
    if (has(n, "getreg") || has(n, "setreg")) {
      static const char *const hw[20] = {
        [1] = "HW_REG_MODE", [2] = "HW_REG_STATUS", [3] = "HW_REG_TRAPSTS", [4] = "HW_REG_HW_ID",
        [5] = "HW_REG_GPR_ALLOC", [6] = "HW_REG_LDS_ALLOC", [7] = "HW_REG_IB_STS",
        [15] = "HW_REG_SH_MEM_BASES", [16] = "HW_REG_TBA_LO", [17] = "HW_REG_TBA_HI",
        [18] = "HW_REG_TMA_LO", [19] = "HW_REG_TMA_HI"};
      unsigned id = in->simm & 0x3f, off = (in->simm >> 6) & 31, sz = ((in->simm >> 11) & 31) + 1;
      if (has(n, "getreg")) { opnd(o, in, in->dst, 1); isa_text_put(o, ", "); }
      if (id < 20 && hw[id]) isa_text_put(o, "hwreg(%s", hw[id]); else isa_text_put(o, "hwreg(%u", id);
      if (off || sz != 32) isa_text_put(o, ", %u, %u", off, sz);
      isa_text_put(o, ")");
      if (has(n, "imm32")) {
        int32_t v = (int32_t)in->literal;
        if (v >= -16 && v <= 64) isa_text_put(o, ", %d", v); else isa_text_put(o, ", 0x%x", in->literal);
      } else if (has(n, "setreg")) {
        isa_text_put(o, ", ");
        opnd(o, in, in->dst, 1);
      }
      return;
    }
    if (has(n, "call")) { opnd(o, in, in->dst, 2); isa_text_put(o, ", %d", in->simm); return; }
    opnd(o, in, in->dst, 1);
    isa_text_put(o, ", 0x%x", (unsigned)in->simm & 0xffff);
    return;
  case ISA_SOPP:
    if (has(n, "branch")) { isa_text_put(o, "%u", (unsigned)in->simm & 0xffff); return; }
    if (has(n, "waitcnt")) {
      unsigned v = (unsigned)in->simm & 0xffff, vm = (v & 15) | ((v >> 14) & 3) << 4;
      unsigned exp = (v >> 4) & 7, lgkm = (v >> 8) & 15;
      bool any = false;
      if (vm != 63) { isa_text_put(o, "vmcnt(%u)", vm); any = true; }
      if (exp != 7) { isa_text_put(o, "%sexpcnt(%u)", any ? " " : "", exp); any = true; }
      if (lgkm != 15) { isa_text_put(o, "%slgkmcnt(%u)", any ? " " : "", lgkm); any = true; }
      if (!any) isa_text_put(o, "vmcnt(63) expcnt(7) lgkmcnt(15)");
      return;
    }
    if (has(n, "endpgm") || has(n, "barrier") || has(n, "wakeup") || has(n, "icache") ||
        has(n, "ttracedata") || has(n, "set_gpr_idx_off"))
      return;
    isa_text_put(o, "%d", (unsigned)in->simm & 0xffff);
    return;
  case ISA_SMEM: {
    if (has(n, "memtime") || has(n, "memrealtime")) { opnd(o, in, in->sdst, 2); return; }
    if (has(n, "dcache")) return;
    bool buf = has(n, "buffer");
    opnd(o, in, in->sdst, has(n, "cmpswap") ? 2 * in->dwords : in->dwords);
    isa_text_put(o, ", ");
    opnd(o, in, in->saddr, buf ? 4 : 2);
    isa_text_put(o, ", ");
    if (in->imm_offset && in->offset < 0) isa_text_put(o, "-0x%x", (unsigned)-in->offset);
    else if (in->imm_offset) isa_text_put(o, "0x%x", (unsigned)in->offset);
    else opnd(o, in, in->soffset, 1);
    if (in->imm_offset && in->soe && in->soffset != 0xffff) { isa_text_put(o, ", "); opnd(o, in, in->soffset, 1); }
    if (in->glc) isa_text_put(o, " glc");
    return;
  }
  default:
    return;
  }
}

/* ds_swizzle_b32's offset in llvm-objdump's swizzle() macro syntax. */
static void swizzle(struct isa_text *o, unsigned off)
{
  if (off & 0x8000) {
    isa_text_put(o, " offset:swizzle(QUAD_PERM,%u,%u,%u,%u)", off & 3, (off >> 2) & 3, (off >> 4) & 3,
        (off >> 6) & 3);
    return;
  }
  unsigned a = off & 0x1f, r = (off >> 5) & 0x1f, x = (off >> 10) & 0x1f;
  if (a == 0x1f && r == 0 && x && !(x & (x - 1))) { isa_text_put(o, " offset:swizzle(SWAP,%u)", x); return; }
  if (a == 0x1f && r == 0 && x && !((x + 1) & x)) { isa_text_put(o, " offset:swizzle(REVERSE,%u)", x + 1); return; }
  unsigned gs = (~a & 0x1f) + 1;
  if (x == 0 && !(gs & (gs - 1)) && gs > 1 && r < gs && (a | (gs - 1)) == 0x1f) {
    isa_text_put(o, " offset:swizzle(BROADCAST,%u,%u)", gs, r);
    return;
  }
  char m[6];
  for (unsigned b = 0; b < 5; b++) {
    unsigned bit = 1u << (4 - b);
    if (!(a & bit)) {
      if (x & bit) { isa_text_put(o, " offset:%u", off); return; }
      m[b] = (r & bit) ? '1' : '0';
    } else {
      if (r & bit) { isa_text_put(o, " offset:%u", off); return; }
      m[b] = (x & bit) ? 'i' : 'p';
    }
  }
  m[5] = 0;
  isa_text_put(o, " offset:swizzle(BITMASK_PERM,\"%s\")", m);
}

/* MTBUF's format as llvm-objdump spells it for gfx9; it leaves out the defaults (8 and UNORM) */
static void mtbuf_format(struct isa_text *o, const struct isa_inst *in)
{
  static const char *const df[16] = {"INVALID", "8", "16", "8_8", "32", "16_16", "10_11_11",
    "11_11_10", "10_10_10_2", "2_10_10_10", "8_8_8_8", "32_32", "16_16_16_16", "32_32_32",
    "32_32_32_32", "RESERVED_15"};
  static const char *const nf[8] = {"UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT",
                                    "RESERVED_6", "FLOAT"};
  if (in->dfmt == 1 && in->nfmt == 0)
    return;
  isa_text_put(o, " format:[");
  if (in->dfmt != 1) isa_text_put(o, "BUF_DATA_FORMAT_%s", df[in->dfmt & 15]);
  if (in->nfmt != 0) isa_text_put(o, "%sBUF_NUM_FORMAT_%s", in->dfmt != 1 ? "," : "", nf[in->nfmt & 7]);
  isa_text_put(o, "]");
}

static void memory(struct isa_text *o, const struct isa_inst *in)
{
  const char *n = in->name;
  switch (in->fmt) {
  case ISA_DS: {
    bool rd = has(n, "read") || has(n, "rtn") || has(n, "swizzle") || has(n, "permute") ||
              has(n, "append") || has(n, "consume");
    bool two = has(n, "2_") || has(n, "2st64");
    bool nodata = has(n, "read") || has(n, "append") || has(n, "consume") || has(n, "nop");
    bool data1 = two || has(n, "cmpst") || has(n, "mskor") || has(n, "wrap");
    unsigned dd = has(n, "64") && !has(n, "st64_b32") ? 2 : 1;
    if (has(n, "b96")) dd = 3;
    if (has(n, "b128")) dd = 4;
    unsigned rdw = two ? 2 * dd : dd;
    bool first = true;
    if (rd) { opnd(o, in, in->dst, rdw); first = false; }
    if (has(n, "swizzle")) {
      isa_text_put(o, ", ");
      opnd(o, in, in->addr, 1);
      swizzle(o, (unsigned)in->offset & 0xffff);
      return;
    }
    if (!has(n, "append") && !has(n, "consume") && !has(n, "addtid")) {
      isa_text_put(o, "%s", first ? "" : ", ");
      opnd(o, in, in->addr, 1);
      first = false;
    }
    if (!nodata) {
      isa_text_put(o, "%s", first ? "" : ", ");
      opnd(o, in, in->data, dd);
      first = false;
      if (data1) { isa_text_put(o, ", "); opnd(o, in, in->data1, dd); }
    }
    if (two) {
      if (in->offset0) isa_text_put(o, " offset0:%u", in->offset0);
      if (in->offset1) isa_text_put(o, " offset1:%u", in->offset1);
    } else if (in->offset & 0xffff) {
      isa_text_put(o, " offset:%u", (unsigned)in->offset & 0xffff);
    }
    if (in->gds) isa_text_put(o, " gds");
    return;
  }
  case ISA_FLAT: case ISA_GLOBAL: case ISA_SCRATCH: {
    bool sv = in->target == ISA_TARGET_GFX942 ? in->sve : in->saddr == 0x7f;
    isa_text_flat(o, in, opnd, sv);
    cpol(o, in);
    return;
  }
  case ISA_MUBUF: case ISA_MTBUF: {
    if (has(n, "wbinvl1") || has(n, "wbl2") || has(n, "invl2") || has(n, "buffer_inv")) {
      if (in->target == ISA_TARGET_GFX942)
        cpol(o, in);
      return;
    }
    isa_text_buffer(o, in, opnd, in->fmt == ISA_MTBUF ? mtbuf_format : NULL);
    cpol(o, in);
    if (in->lds) isa_text_put(o, " lds");
    if (in->tfe) isa_text_put(o, " tfe");
    return;
  }
  default:
    return;
  }
}

/* MIMG as llvm-objdump-15 prints it for gfx9: vdata (dmask's channels, 4 for gather4, halved
 * by d16, one more with tfe; AGPRs with gfx90a's acc bit), vaddr (the dwords of the smallest form of the
 * opcode: 1, plus one for each of _c, _o, _b, _d/_cd), the T#, the S# (samples, gather4,
 * get_lod), then dmask unorm glc slc a16 tfe lwe da d16. */
static void image(struct isa_text *o, const struct isa_inst *in)
{
  uint32_t w0 = in->words[0], w1 = in->words[1];
  const char *n = in->name;
  unsigned dmask = (w0 >> 8) & 15;
  bool cdna = in->target == ISA_TARGET_GFX90A || in->target == ISA_TARGET_GFX942;
  bool tfe = !cdna && ((w0 >> 16) & 1), acc = cdna && ((w0 >> 16) & 1), d16 = w1 >> 31;
  unsigned nd = (unsigned)__builtin_popcount(dmask ? dmask : 1);
  if (has(n, "image_atomic")) {
    bool cmp = has(n, "cmpswap");
    if (cmp ? dmask != 3 && dmask != 15 : dmask != 1 && dmask != 3)
      nd = cmp ? 4 : 1;   /* an invalid dmask: llvm-objdump keeps the default register class */
  } else {
    if (has(n, "image_gather4"))
      nd = 4;   /* one channel of four texels, whatever dmask */
    if (d16)
      nd = (nd + 1) / 2;
  }
  nd += tfe;
  unsigned na = 1;
  bool samp = has(n, "image_sample") || has(n, "image_gather4") || has(n, "image_get_lod");
  if (has(n, "image_sample") || has(n, "image_gather4")) {
    const char *p = strchr(n + 6, '_');
    for (; p; p = strchr(p + 1, '_')) {
      const char *e = strchr(p + 1, '_');
      size_t len = e ? (size_t)(e - p - 1) : strlen(p + 1);
      if ((len == 1 && strchr("cobd", p[1])) || (len == 2 && !strncmp(p + 1, "cd", 2)))
        na++;
    }
  }
  opnd(o, in, (acc ? ISA_OP_AGPR0 : ISA_OP_VGPR0) + ((w1 >> 8) & 0xff), nd);
  isa_text_put(o, ", ");
  opnd(o, in, ISA_OP_VGPR0 + (w1 & 0xff), na);
  isa_text_put(o, ", ");
  opnd(o, in, ((w1 >> 16) & 0x1f) * 4, 8);
  if (samp) {
    isa_text_put(o, ", ");
    opnd(o, in, ((w1 >> 21) & 0x1f) * 4, 4);
  }
  if (dmask) isa_text_put(o, " dmask:0x%x", dmask);
  if ((w0 >> 12) & 1) isa_text_put(o, " unorm");
  if ((w0 >> 13) & 1) isa_text_put(o, " glc");
  if ((w0 >> 25) & 1) isa_text_put(o, " slc");
  if ((w0 >> 15) & 1) isa_text_put(o, " a16");
  if (tfe) isa_text_put(o, " tfe");
  if ((w0 >> 17) & 1) isa_text_put(o, " lwe");
  if ((w0 >> 14) & 1) isa_text_put(o, " da");
  if (d16) isa_text_put(o, " d16");
}

/* The destination and source widths of a VOP1/VOP2/VOPC operation from its name (text.h;
 * gfx9 counts ubyte0..3 as type tokens) */
static void valu_widths(const char *n, unsigned *dw, unsigned *sw)
{
  isa_text_widths(n, true, dw, sw);
  if (strstr(n, "cvt_pk_f32_fp8") || strstr(n, "cvt_pk_f32_bf8"))   /* gfx942: two f32 */
    *dw = 2;
}

static bool ends(const char *n, const char *suffix)
{
  size_t a = strlen(n), b = strlen(suffix);
  return a >= b && !strcmp(n + a - b, suffix);
}

/* The encoding suffix llvm-objdump adds to VALU mnemonics that have both a 32-bit and a
 * VOP3 encoding (the VALU decoder names the operation only). */
static const char *valu_suffix(const struct isa_inst *in)
{
  const char *n = in->name;
  if (ends(n, "_e32") || ends(n, "_e64") || ends(n, "_sdwa") || ends(n, "_dpp"))
    return "";
  if (in->sdwa) return "_sdwa";
  if (in->dpp) return "_dpp";
  switch (in->fmt) {
  case ISA_VOP1: case ISA_VOP2: case ISA_VOPC:
    if (!strcmp(n, "v_nop") || !strcmp(n, "v_readfirstlane_b32") || !strcmp(n, "v_clrexcp") ||
        !strcmp(n, "v_swap_b32") || !strcmp(n, "v_accvgpr_mov_b32") || has(n, "mamk") ||
        has(n, "maak") || has(n, "madmk") ||
        has(n, "madak") || has(n, "fmamk") || has(n, "fmaak"))
      return "";
    return "_e32";
  case ISA_VOP3A: case ISA_VOP3B:
    return in->op < 0x1c0 ? "_e64" : "";
  default:
    return "";
  }
}

/* A decoder's "unknown ..." or "illegal ..." text in place of a mnemonic. */
static bool is_text(const char *n)
{
  return !strncmp(n, "unknown ", 8) || !strncmp(n, "illegal ", 8);
}

/* VOP1/VOP2/VOPC in their 32-bit encodings, spelled as llvm-objdump does; false (and
 * nothing printed) for the forms this does not spell exactly. */
static void vsrc(struct isa_text *o, const struct isa_inst *in, unsigned i, unsigned width);

/* DPP's control, masks and bound_ctrl after the operands. */
static void dpp_tail(struct isa_text *o, const struct isa_inst *in)
{
  unsigned c = in->dpp_ctrl;
  if (c <= 0xff)
    isa_text_put(o, " quad_perm:[%u,%u,%u,%u]", c & 3, (c >> 2) & 3, (c >> 4) & 3, (c >> 6) & 3);
  else if (c >= 0x101 && c <= 0x10f) isa_text_put(o, " row_shl:%u", c & 15);
  else if (c >= 0x111 && c <= 0x11f) isa_text_put(o, " row_shr:%u", c & 15);
  else if (c >= 0x121 && c <= 0x12f) isa_text_put(o, " row_ror:%u", c & 15);
  else if (c == 0x130) isa_text_put(o, " wave_shl:1");
  else if (c == 0x134) isa_text_put(o, " wave_rol:1");
  else if (c == 0x138) isa_text_put(o, " wave_shr:1");
  else if (c == 0x13c) isa_text_put(o, " wave_ror:1");
  else if (c == 0x140) isa_text_put(o, " row_mirror");
  else if (c == 0x141) isa_text_put(o, " row_half_mirror");
  else if (c == 0x142) isa_text_put(o, " row_bcast:15");
  else if (c == 0x143) isa_text_put(o, " row_bcast:31");
  else isa_text_put(o, " dpp_ctrl:0x%x", c);
  isa_text_put(o, " row_mask:0x%x bank_mask:0x%x", in->dpp_row_mask, in->dpp_bank_mask);
  if (in->dpp_bound_ctrl)
    isa_text_put(o, " bound_ctrl:1");
}

static void sdwa_src(struct isa_text *o, const struct isa_inst *in, unsigned i)
{
  bool neg = (in->sdwa_neg >> i) & 1, abs = (in->sdwa_abs >> i) & 1, sext = (in->sdwa_sext >> i) & 1;
  isa_text_put(o, "%s%s%s", sext ? "sext(" : "", neg ? "-" : "", abs ? "|" : "");
  opnd(o, in, in->src[i], 1);
  isa_text_put(o, "%s%s", abs ? "|" : "", sext ? ")" : "");
}

/* SDWA forms of VOP1/VOP2/VOPC (gfx9). */
static bool valu_sdwa(struct isa_text *o, const struct isa_inst *in)
{
  static const char *const sel[8] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1",
                                     "DWORD", "?"};
  static const char *const unused[4] = {"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "?"};
  static const char *const om[4] = {"", " mul:2", " mul:4", " div:2"};
  const char *n = in->name;
  if (in->fmt == ISA_VOPC) {
    if (in->sdwa_sd) opnd(o, in, in->sdst, 2); else isa_text_put(o, "vcc");
    isa_text_put(o, ", ");
    sdwa_src(o, in, 0);
    isa_text_put(o, ", ");
    sdwa_src(o, in, 1);
    if (in->sdwa_clamp) isa_text_put(o, " clamp");
    isa_text_put(o, " src0_sel:%s src1_sel:%s", sel[in->sdwa_src_sel[0] & 7], sel[in->sdwa_src_sel[1] & 7]);
    return true;
  }
  bool carry_out = has(n, "_co_u32") && !has(n, "addc") && !has(n, "subb");
  bool carry_in = has(n, "addc_co") || has(n, "subb_co") || has(n, "subbrev_co");
  bool f8 = has(n, "_fp8") || has(n, "_bf8");   /* gfx942's fp8 conversions: no dst_sel */
  opnd(o, in, in->dst, has(n, "cvt_pk_f32_") ? 2 : 1);
  if (carry_out || carry_in) isa_text_put(o, ", vcc");
  isa_text_put(o, ", ");
  sdwa_src(o, in, 0);
  if (in->fmt == ISA_VOP2) {
    isa_text_put(o, ", ");
    sdwa_src(o, in, 1);
    if (carry_in || has(n, "cndmask")) isa_text_put(o, ", vcc");
  }
  if (in->sdwa_clamp) isa_text_put(o, " clamp");
  isa_text_put(o, "%s", om[in->sdwa_omod & 3]);
  if (f8)
    isa_text_put(o, " src0_sel:%s", sel[in->sdwa_src_sel[0] & 7]);
  else
    isa_text_put(o, " dst_sel:%s dst_unused:%s src0_sel:%s", sel[in->sdwa_dst_sel & 7],
        unused[in->sdwa_dst_unused & 3], sel[in->sdwa_src_sel[0] & 7]);
  if (in->fmt == ISA_VOP2)
    isa_text_put(o, " src1_sel:%s", sel[in->sdwa_src_sel[1] & 7]);
  return true;
}

static bool valu32(struct isa_text *o, const struct isa_inst *in)
{
  const char *n = in->name;
  if (in->sdwa && (in->fmt == ISA_VOP1 || in->fmt == ISA_VOP2 || in->fmt == ISA_VOPC))
    return valu_sdwa(o, in);
  if (in->dpp && (in->fmt == ISA_VOP1 || in->fmt == ISA_VOP2) && !has(n, "_co_") &&
      !has(n, "cndmask") && !has(n, "mamk") && !has(n, "maak") && !has(n, "madmk") &&
      !has(n, "madak")) {
    unsigned dw, sw;
    valu_widths(n, &dw, &sw);
    opnd(o, in, in->dst, dw);
    isa_text_put(o, ", ");
    vsrc(o, in, 0, sw);
    if (in->fmt == ISA_VOP2) {
      isa_text_put(o, ", ");
      vsrc(o, in, 1, sw);
    }
    dpp_tail(o, in);
    return true;
  }
  if (in->sdwa || in->dpp || (in->fmt != ISA_VOP1 && in->fmt != ISA_VOP2 && in->fmt != ISA_VOPC))
    return false;
  unsigned dw, sw;
  valu_widths(n, &dw, &sw);
  if (in->fmt == ISA_VOPC) {
    unsigned s1 = has(n, "class") ? 1 : sw;
    isa_text_put(o, "vcc, ");
    opnd(o, in, in->src[0], sw);
    isa_text_put(o, ", ");
    opnd(o, in, in->src[1], s1);
    return true;
  }
  if (in->fmt == ISA_VOP1) {
    if (!strcmp(n, "v_nop") || !strcmp(n, "v_clrexcp"))
      return true;
    opnd(o, in, in->dst, dw);
    isa_text_put(o, ", ");
    opnd(o, in, in->src[0], sw);
    return true;
  }
  bool carry_out = has(n, "_co_u32") && !has(n, "addc") && !has(n, "subb");
  bool carry_in = has(n, "addc_co") || has(n, "subb_co") || has(n, "subbrev_co");
  opnd(o, in, in->dst, dw);
  if (carry_out || carry_in)
    isa_text_put(o, ", vcc");
  isa_text_put(o, ", ");
  opnd(o, in, in->src[0], sw);
  if (has(n, "madmk") || has(n, "fmamk")) {   /* decode moved the VGPR to src[2] */
    isa_text_put(o, ", 0x%x, ", in->literal);
    opnd(o, in, in->src[2], sw);
    return true;
  }
  isa_text_put(o, ", ");
  opnd(o, in, in->src[1], sw);
  if (has(n, "madak") || has(n, "fmaak"))
    isa_text_put(o, ", 0x%x", in->literal);
  if (carry_in || has(n, "cndmask"))
    isa_text_put(o, ", vcc");
  return true;
}

/* VOP3-only operations with two sources (the others have three). */
static bool vop3_two_sources(const char *n)
{
  static const char *const two[] = {
    "v_add_f64", "v_mul_f64", "v_min_f64", "v_max_f64", "v_ldexp_f64", "v_ldexp_f32",
    "v_mul_lo_u32", "v_mul_hi_u32", "v_mul_lo_i32", "v_mul_hi_i32", "v_readlane_b32",
    "v_writelane_b32", "v_bcnt_u32_b32", "v_mbcnt_lo_u32_b32", "v_mbcnt_hi_u32_b32",
    "v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64", "v_trig_preop_f64", "v_bfm_b32",
    "v_cvt_pknorm_i16_f32", "v_cvt_pknorm_u16_f32", "v_cvt_pkrtz_f16_f32", "v_cvt_pk_u16_u32",
    "v_cvt_pk_i16_i32", "v_cvt_pknorm_i16_f16", "v_cvt_pknorm_u16_f16", "v_add_i32",
    "v_sub_i32", "v_add_i16", "v_sub_i16", "v_pack_b32_f16"};
  for (unsigned i = 0; i < sizeof two / sizeof *two; i++)
    if (!strcmp(n, two[i]))
      return true;
  return !strncmp(n, "v_cvt_", 6) && (strstr(n, "fp8_f32") || strstr(n, "bf8_f32"));
}

static void vsrc(struct isa_text *o, const struct isa_inst *in, unsigned i, unsigned width)
{
  bool neg = (in->neg >> i) & 1, abs = (in->abs >> i) & 1;
  isa_text_put(o, "%s%s", neg ? "-" : "", abs ? "|" : "");
  opnd(o, in, in->src[i], width);
  isa_text_put(o, "%s", abs ? "|" : "");
}

/* A per-source bit list like op_sel:[1,0,0]. */
static void bits(struct isa_text *o, const char *what, unsigned v, unsigned n)
{
  isa_text_put(o, " %s:[", what);
  for (unsigned i = 0; i < n; i++)
    isa_text_put(o, "%s%u", i ? "," : "", (v >> i) & 1);
  isa_text_put(o, "]");
}

/* VOP3P (packed 16-bit and dot products); not the mix or gfx90a packed-f32 forms. */
static bool valu_packed(struct isa_text *o, const struct isa_inst *in)
{
  const char *n = in->name;
  if (has(n, "mix") || (has(n, "_f32") && !has(n, "dot")) || has(n, "_b32") || in->dpp ||
      in->sdwa)
    return false;
  unsigned nsrc = has(n, "dot") || has(n, "fma") || has(n, "mad") ? 3 : 2;
  unsigned all = (1u << nsrc) - 1;
  opnd(o, in, in->dst, 1);
  for (unsigned i = 0; i < nsrc; i++) {
    isa_text_put(o, ", ");
    opnd(o, in, in->src[i], 1);
  }
  if (in->opsel & all) bits(o, "op_sel", in->opsel, nsrc);
  if ((in->opsel_hi & all) != all) bits(o, "op_sel_hi", in->opsel_hi, nsrc);
  if (in->neg & all) bits(o, "neg_lo", in->neg, nsrc);
  if (in->neg_hi & all) bits(o, "neg_hi", in->neg_hi, nsrc);
  if (in->clamp) isa_text_put(o, " clamp");
  return true;
}

/* VOP3A/VOP3B without op_sel, spelled as llvm-objdump does; false when not attempted. */
static bool valu_mai(struct isa_text *o, const struct isa_inst *in);
static bool valu64(struct isa_text *o, const struct isa_inst *in)
{
  const char *n = in->name;
  if (in->fmt == ISA_VOP3P && has(n, "v_accvgpr_")) {
    opnd(o, in, in->dst, 1);
    isa_text_put(o, ", ");
    opnd(o, in, in->src[0], 1);
    return true;
  }
  if (in->fmt == ISA_VOP3P && (has(n, "v_mfma") || has(n, "v_smfmac")))
    return valu_mai(o, in);
  if (in->fmt == ISA_VOP3P)
    return valu_packed(o, in);
  if ((in->fmt != ISA_VOP3A && in->fmt != ISA_VOP3B) || in->opsel || has(n, "interp") ||
      has(n, "mad_mix") || has(n, "fma_mix"))
    return false;
  unsigned dw, sw;
  valu_widths(n, &dw, &sw);
  unsigned w[3] = {sw, sw, sw}, nsrc;
  bool sdst = in->fmt == ISA_VOP3B, mask_src2 = false;
  if (in->op < 0x100) {   /* VOPC */
    nsrc = 2;
    if (has(n, "class")) w[1] = 1;
    opnd(o, in, in->sdst, 2);
    isa_text_put(o, ", ");
    goto srcs;
  } else if (in->op < 0x140) {   /* VOP2 */
    nsrc = 2;
    if (has(n, "cndmask") || has(n, "addc_co") || has(n, "subb_co") || has(n, "subbrev_co"))
      mask_src2 = true;
  } else if (in->op < 0x1c0) {   /* VOP1 */
    nsrc = has(n, "v_nop") || has(n, "clrexcp") ? 0 : 1;
  } else {
    nsrc = vop3_two_sources(n) ? 2 : 3;
    if (has(n, "lshlrev_b64") || has(n, "lshrrev_b64") || has(n, "ashrrev_i64")) w[0] = 1;
    if (has(n, "lshl_add_u64")) w[1] = 1;
    if (has(n, "ldexp_f64") || has(n, "trig_preop")) w[1] = 1;
    if (has(n, "mad_u64_u32") || has(n, "mad_i64_i32")) { dw = 2; w[0] = w[1] = 1; w[2] = 2; }
    if (has(n, "readlane") || has(n, "writelane")) w[0] = w[1] = 1;
  }
  if (has(n, "readlane")) {
    opnd(o, in, in->dst, 1);
  } else {
    opnd(o, in, in->dst, dw);
  }
  if (sdst) { isa_text_put(o, ", "); opnd(o, in, in->sdst, 2); }
  if (nsrc) isa_text_put(o, ", ");
srcs:
  for (unsigned i = 0; i < nsrc; i++) {
    if (i) isa_text_put(o, ", ");
    vsrc(o, in, i, w[i]);
  }
  if (mask_src2) { isa_text_put(o, ", "); opnd(o, in, in->src[2], 2); }
  if (in->clamp) isa_text_put(o, " clamp");
  static const char *const om[4] = {"", " mul:2", " mul:4", " div:2"};
  isa_text_put(o, "%s", om[in->omod & 3]);
  return true;
}

/* MFMA: D, A, B, C with their register ranges, then CBSZ/ABID/BLGP (gfx942's f64: NEG). */
static bool valu_mai(struct isa_text *o, const struct isa_inst *in)
{
  unsigned dw[4];   /* D, A, B, C (v_smfmac: the index) */
  bool neg;
  if (!isa_mai_shape(in, dw, &neg))
    return false;
  opnd(o, in, in->dst, dw[0]);
  isa_text_put(o, ", ");
  opnd(o, in, in->src[0], dw[1]);
  isa_text_put(o, ", ");
  opnd(o, in, in->src[1], dw[2]);
  isa_text_put(o, ", ");
  opnd(o, in, in->src[2], in->src[2] >= ISA_OP_VGPR0 ? dw[3] : 1);
  unsigned cbsz = (in->words[0] >> 8) & 7, abid = (in->words[0] >> 11) & 15, blgp = in->words[1] >> 29;
  if (cbsz) isa_text_put(o, " cbsz:%u", cbsz);
  if (abid) isa_text_put(o, " abid:%u", abid);
  if (blgp && neg) bits(o, "neg", blgp, 3);
  else if (blgp) isa_text_put(o, " blgp:%u", blgp);
  return true;
}

bool isa_describe_exact(const struct isa_inst *in)
{
  if (!in->name || is_text(in->name))
    return false;
  if (in->target >= ISA_TARGET_GFX1100) {
    char scratch[200];
    bool exact = false;
    isa_describe_gfx11(in, scratch, sizeof scratch, &exact);
    return exact;
  }
  if (in->fmt == ISA_SOPP && has(in->name, "sendmsg"))
    return false;   /* message ids are printed as numbers */
  if (in->fmt <= ISA_SMEM || (in->fmt >= ISA_DS && in->fmt <= ISA_MIMG))
    return true;
  char scratch[160];
  if (in->sdwa || in->dpp || in->fmt == ISA_VOP1 || in->fmt == ISA_VOP2 || in->fmt == ISA_VOPC) {
    struct isa_text t = {scratch, 0, sizeof scratch};
    return valu32(&t, in);
  }
  struct isa_text o = {scratch, 0, sizeof scratch};
  return valu64(&o, in);   /* the VOP3 forms it spells */
}

unsigned isa_describe_inst(const struct isa_inst *in, char *buf, unsigned size)
{
  if (!buf || !size)
    return in->size;
  struct isa_text o = {buf, 0, size};
  buf[0] = 0;
  if (in->target >= ISA_TARGET_GFX1100 && in->name && !is_text(in->name)) {
    bool exact;
    return isa_describe_gfx11(in, buf, size, &exact);
  }
  if (!in->name || is_text(in->name)) {
    isa_text_put(&o, ".long 0x%08x", in->words[0]);
    return in->size;
  }
  isa_text_put(&o, "%s%s", in->name, in->fmt >= ISA_VOP2 && in->fmt <= ISA_VOP3P ? valu_suffix(in) : "");
  unsigned mark = o.n;
  isa_text_put(&o, " ");
  unsigned before = o.n;
  if (in->fmt <= ISA_SMEM) {
    scalar(&o, in);
  } else if (in->fmt >= ISA_DS && in->fmt <= ISA_MTBUF) {
    memory(&o, in);
  } else if (in->fmt == ISA_MIMG) {
    image(&o, in);
  } else if (!valu32(&o, in) && !valu64(&o, in)) {
    bool first = true;
    if (in->dst) { opnd(&o, in, in->dst, 1); first = false; }
    for (unsigned i = 0; i < 3; i++)
      if (in->src[i]) { isa_text_put(&o, "%s", first ? "" : ", "); opnd(&o, in, in->src[i], 1); first = false; }
  }
  if (o.n == before) {   /* no operands */
    o.n = mark;
    buf[mark] = 0;
  }
  return in->size;
}

unsigned sim_isa_describe(struct sim_gpu *gpu, uint64_t va, char *buf, unsigned size)
{
  struct isa_inst in;
  if (isa_decode_at(gpu, va, &in))
    return 0;
  unsigned n = isa_describe_inst(&in, buf, size);
  return in.exec == isa_exec_unknown && (!in.name || is_text(in.name)) ? 0 : n;
}
