/* SPDX-License-Identifier: MIT */
/* describe_gfx11.c — gfx11 instruction text as llvm-objdump-19 --mcpu=gfx1100 prints it
 * (which spells lane masks as wave32 does: one SGPR, vcc_lo), for traces, faults and the
 * decoder's comparison with llvm-objdump. `exact` tells the comparison which forms spell
 * every operand as llvm-objdump does; the others give the mnemonic and operands plainly. */
#include "isa/exec.h"
#include "isa/gfx11.h"
#include "isa/text.h"

#include <string.h>

static bool has(const char *n, const char *s)
{
  return strstr(n, s) != NULL;
}

/* An operand of `dw` registers; `f64` spells a literal as llvm-objdump does for a 64-bit
 * float operand (the high half it stands for) */
static void opnd(struct isa_text *o, const struct isa_inst *in, unsigned code, unsigned dw)
{
  if (isa_text_reg_or_const(o, code, dw))
    return;
  switch (code) {
  case ISA_OP_VCC_LO: isa_text_put(o, "%s", dw == 2 ? "vcc" : "vcc_lo"); return;
  case ISA_OP_VCC_HI: isa_text_put(o, "vcc_hi"); return;
  case ISA_OP_EXEC_LO: isa_text_put(o, "%s", dw == 2 ? "exec" : "exec_lo"); return;
  case ISA_OP_EXEC_HI: isa_text_put(o, "exec_hi"); return;
  case ISA_OP_M0: isa_text_put(o, "m0"); return;
  case ISA_OP_NULL: isa_text_put(o, "null"); return;
  case ISA_OP_SHARED_BASE: isa_text_put(o, "src_shared_base"); return;
  case ISA_OP_SHARED_LIMIT: isa_text_put(o, "src_shared_limit"); return;
  case ISA_OP_PRIVATE_BASE: isa_text_put(o, "src_private_base"); return;
  case ISA_OP_PRIVATE_LIMIT: isa_text_put(o, "src_private_limit"); return;
  case ISA_OP_POPS_EXITING_WAVE_ID: isa_text_put(o, "src_pops_exiting_wave_id"); return;
  case ISA_OP_VCCZ: isa_text_put(o, "src_vccz"); return;
  case ISA_OP_EXECZ: isa_text_put(o, "src_execz"); return;
  case ISA_OP_SCC: isa_text_put(o, "src_scc"); return;
  case ISA_OP_LITERAL:   /* one an inline constant could have encoded is spelled as that */
    isa_text_literal(o, in, dw == 1);
    return;
  default: isa_text_put(o, "<op%u>", code); return;
  }
}

/* ---- scalar ---- */
static bool scalar(struct isa_text *o, const struct isa_inst *in)
{
  const char *n = in->name;
  bool w64 = has(n, "_b64") || has(n, "_i64") || has(n, "_u64");
  switch (in->fmt) {
  case ISA_SOP1: {
    unsigned d = w64 ? 2 : 1, s = w64 ? 2 : 1;
    if (has(n, "_i32_b64") || has(n, "_i32_u64") || has(n, "_i32_i64") || (has(n, "bcnt") && w64)) d = 1;
    if (has(n, "bitset") || has(n, "bitreplicate")) s = 1;
    if (has(n, "getpc")) { opnd(o, in, in->dst, 2); return true; }
    if (has(n, "barrier_signal")) { opnd(o, in, in->src[0], 1); return true; }
    if (has(n, "setpc") || has(n, "rfe_b64")) { opnd(o, in, in->src[0], 2); return true; }
    if (has(n, "sendmsg_rtn")) {
      static const char *const m[6] = {"MSG_RTN_GET_DOORBELL", "MSG_RTN_GET_DDID", "MSG_RTN_GET_TMA",
                                       "MSG_RTN_GET_REALTIME", "MSG_RTN_SAVE_WAVE", "MSG_RTN_GET_TBA"};
      opnd(o, in, in->dst, w64 ? 2 : 1);
      unsigned id = in->src[0];
      if (id >= 0x80 && id <= 0x85) isa_text_put(o, ", sendmsg(%s)", m[id - 0x80]);
      else isa_text_put(o, ", sendmsg(%u)", id);
      return true;
    }
    opnd(o, in, in->dst, d);
    isa_text_put(o, ", ");
    opnd(o, in, in->src[0], s);
    return true;
  }
  case ISA_SOP2: {
    unsigned d = w64 ? 2 : 1, a = d, b = d;
    if (has(n, "fmamk") || has(n, "fmaak")) {
      opnd(o, in, in->dst, 1);
      isa_text_put(o, ", ");
      opnd(o, in, in->src[0], 1);
      if (has(n, "fmamk")) isa_text_put(o, ", 0x%x", in->literal);
      isa_text_put(o, ", ");
      opnd(o, in, in->src[1], 1);
      if (has(n, "fmaak")) isa_text_put(o, ", 0x%x", in->literal);
      return true;
    }
    if (has(n, "lshl_b64") || has(n, "lshr_b64") || has(n, "ashr_i64") || has(n, "bfe_")) b = 1;
    if (has(n, "bfm_b64")) a = b = 1;
    opnd(o, in, in->dst, d);
    isa_text_put(o, ", ");
    opnd(o, in, in->src[0], a);
    isa_text_put(o, ", ");
    opnd(o, in, in->src[1], b);
    return true;
  }
  case ISA_SOPC: {
    unsigned a = w64 ? 2 : 1, b = has(n, "bitcmp") ? 1 : a;
    opnd(o, in, in->src[0], a);
    isa_text_put(o, ", ");
    opnd(o, in, in->src[1], b);
    return true;
  }
  case ISA_SOPK:
    if (has(n, "getreg") || has(n, "setreg"))
      return false;   /* hwreg() names: not spelled */
    if (has(n, "call")) { opnd(o, in, in->dst, 2); isa_text_put(o, ", %d", in->simm); return true; }
    if (has(n, "version")) { isa_text_put(o, "0x%x", (unsigned)in->simm & 0xffff); return true; }
    opnd(o, in, in->dst, 1);
    isa_text_put(o, ", 0x%x", (unsigned)in->simm & 0xffff);
    return true;
  case ISA_SOPP: {
    unsigned v = (unsigned)in->simm & 0xffff;
    if (has(n, "branch")) { isa_text_put(o, "%u", v); return true; }
    if (!strcmp(n, "s_waitcnt")) {
      unsigned vm = (v >> 10) & 63, exp = v & 7, lgkm = (v >> 4) & 63;
      bool any = false;
      if (vm != 63) { isa_text_put(o, "vmcnt(%u)", vm); any = true; }
      if (exp != 7) { isa_text_put(o, "%sexpcnt(%u)", any ? " " : "", exp); any = true; }
      if (lgkm != 63) { isa_text_put(o, "%slgkmcnt(%u)", any ? " " : "", lgkm); any = true; }
      if (!any) isa_text_put(o, "vmcnt(63) expcnt(7) lgkmcnt(63)");
      return true;
    }
    if (!strcmp(n, "s_delay_alu")) {
      static const char *const id[12] = {"NO_DEP", "VALU_DEP_1", "VALU_DEP_2", "VALU_DEP_3",
        "VALU_DEP_4", "TRANS32_DEP_1", "TRANS32_DEP_2", "TRANS32_DEP_3", "FMA_ACCUM_CYCLE_1",
        "SALU_CYCLE_1", "SALU_CYCLE_2", "SALU_CYCLE_3"};
      static const char *const skip[6] = {"SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"};
      unsigned i0 = v & 15, sk = (v >> 4) & 7, i1 = (v >> 7) & 15;
      if (i0 >= 12 || i1 >= 12 || sk >= 6 || (v >> 11))
        return false;
      bool any = false;
      if (i0) { isa_text_put(o, "instid0(%s)", id[i0]); any = true; }
      if (sk) { isa_text_put(o, "%sinstskip(%s)", any ? " | " : "", skip[sk]); any = true; }
      if (i1) { isa_text_put(o, "%sinstid1(%s)", any ? " | " : "", id[i1]); any = true; }
      if (!any) isa_text_put(o, "0");
      return true;
    }
    if (!strcmp(n, "s_sendmsg") || !strcmp(n, "s_sendmsghalt")) {
      if (v == 3) { isa_text_put(o, "sendmsg(MSG_DEALLOC_VGPRS)"); return true; }
      if (v == 1) { isa_text_put(o, "sendmsg(MSG_INTERRUPT)"); return true; }
      return false;
    }
    if (!strcmp(n, "s_waitcnt_depctr"))
      return false;   /* depctr() fields: llvm-objdump spells some as a number */
    if (!strcmp(n, "s_wait_alu"))
      return false;   /* depctr fields */
    if (has(n, "endpgm") || !strcmp(n, "s_barrier") || has(n, "wakeup") || has(n, "icache") ||
        has(n, "code_end") || has(n, "wait_idle") || (has(n, "ttracedata") && !has(n, "imm")))
      return true;
    if (has(n, "clause") || has(n, "prefetch") || has(n, "depctr") || !strncmp(n, "s_wait_", 7) ||
        has(n, "barrier_wait")) {
      isa_text_put(o, "0x%x", v);
      return true;
    }
    isa_text_put(o, "%u", v);
    return true;
  }
  case ISA_SMEM: {
    if (has(n, "inv")) return true;
    bool buf = has(n, "buffer");
    opnd(o, in, in->sdst, in->dwords);
    isa_text_put(o, ", ");
    opnd(o, in, in->saddr, buf ? 4 : 2);
    isa_text_put(o, ", ");
    if (in->soe) {
      opnd(o, in, in->soffset, 1);
      if (in->offset) isa_text_put(o, " offset:0x%x", (unsigned)in->offset & 0x1fffff);
    } else if (in->offset < 0) {
      isa_text_put(o, "-0x%x", (unsigned)-in->offset);
    } else if (in->offset) {
      isa_text_put(o, "0x%x", (unsigned)in->offset);
    } else {
      isa_text_put(o, "%s", in->target == ISA_TARGET_GFX1201 ? "0x0" : "null");
    }
    if (in->target == ISA_TARGET_GFX1201)
      return in->dfmt == 0;   /* th/scope: spelled only when clear */
    if (in->glc) isa_text_put(o, " glc");
    if (in->slc) isa_text_put(o, " dlc");
    return true;
  }
  default:
    return false;
  }
}

/* ---- memory ---- */
/* gfx12: th and scope (in->dfmt = w1[22:18]); false when not spelled exactly */
static bool cpol12(struct isa_text *o, const struct isa_inst *in, bool atomic)
{
  static const char *const scope[4] = {"", " scope:SCOPE_SE", " scope:SCOPE_DEV", " scope:SCOPE_SYS"};
  unsigned th = in->dfmt >> 2;
  if (atomic && th == 1) isa_text_put(o, " th:TH_ATOMIC_RETURN");
  else if (th) return false;
  isa_text_put(o, "%s", scope[in->dfmt & 3]);
  return true;
}

static void cpol(struct isa_text *o, const struct isa_inst *in)
{
  if (in->glc) isa_text_put(o, " glc");
  if (in->slc) isa_text_put(o, " slc");
  if (in->sc1) isa_text_put(o, " dlc");
}

static bool memory(struct isa_text *o, const struct isa_inst *in)
{
  const char *n = in->name;
  switch (in->fmt) {
  case ISA_DS: {
    if (has(n, "swizzle")) {
      opnd(o, in, in->dst, 1);
      isa_text_put(o, ", ");
      opnd(o, in, in->addr, 1);
      unsigned off = (unsigned)in->offset & 0xffff;
      unsigned a = off & 0x1f, r = (off >> 5) & 0x1f, x = (off >> 10) & 0x1f;
      if (off & 0x8000)
        isa_text_put(o, " offset:swizzle(QUAD_PERM,%u,%u,%u,%u)", off & 3, (off >> 2) & 3, (off >> 4) & 3, (off >> 6) & 3);
      else if (a == 0x1f && r == 0 && x && !(x & (x - 1)))
        isa_text_put(o, " offset:swizzle(SWAP,%u)", x);
      else
        return false;
      return true;
    }
    bool two = has(n, "2addr");
    bool rd = has(n, "load") || has(n, "rtn") || has(n, "permute");
    bool nodata = has(n, "load") || has(n, "nop");
    bool data1 = (two && !has(n, "load")) || has(n, "cmpstore") || has(n, "mskor") || has(n, "wrap");
    unsigned dd = (has(n, "_b64") || has(n, "_u64") || has(n, "_i64") || has(n, "_f64")) ? 2 : 1;
    if (has(n, "b96")) dd = 3;
    if (has(n, "b128")) dd = 4;
    bool first = true;
    if (rd) { opnd(o, in, in->dst, two ? 2 * dd : dd); first = false; }
    isa_text_put(o, "%s", first ? "" : ", ");
    opnd(o, in, in->addr, 1);
    if (!nodata) {
      /* cmpstore: the decoder swapped data0/data1 back to gfx9's order */
      bool sw = has(n, "cmpstore");
      isa_text_put(o, ", ");
      opnd(o, in, sw ? in->data1 : in->data, dd);
      if (data1) { isa_text_put(o, ", "); opnd(o, in, sw ? in->data : in->data1, dd); }
    }
    if (two) {
      if (in->offset0) isa_text_put(o, " offset0:%u", in->offset0);
      if (in->offset1) isa_text_put(o, " offset1:%u", in->offset1);
    } else if (in->offset & 0xffff) {
      isa_text_put(o, " offset:%u", (unsigned)in->offset & 0xffff);
    }
    if (in->gds) isa_text_put(o, " gds");
    return true;
  }
  case ISA_FLAT: case ISA_GLOBAL: case ISA_SCRATCH: {
    isa_text_flat(o, in, opnd, in->sve);
    if (in->target == ISA_TARGET_GFX1201)
      return cpol12(o, in, has(n, "atomic"));
    cpol(o, in);
    return true;
  }
  case ISA_MUBUF: {
    if (has(n, "_inv")) return true;
    isa_text_buffer(o, in, opnd, NULL);
    if (in->target == ISA_TARGET_GFX1201)
      return cpol12(o, in, has(n, "atomic"));
    cpol(o, in);
    if (in->lds) isa_text_put(o, " lds");
    if (in->tfe) isa_text_put(o, " tfe");
    return true;
  }
  default:
    return false;
  }
}

/* MIMG dims as llvm-objdump spells them (gfx11 and gfx12 number them alike) */
static const char *const dims[8] = {"1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY",
                                    "2D_MSAA", "2D_MSAA_ARRAY"};

/* How many address VGPRs an image opcode takes in dim: the dim's coordinates, one more for
 * each of _c _o _b _l _cl _mip, the gradients for _d; get_resinfo one (the mip level) */
static unsigned mimg_addresses(const char *n, unsigned dim)
{
  static const uint8_t coords[8] = {1, 2, 3, 3, 2, 3, 3, 4}, grads[8] = {1, 2, 3, 2, 1, 2, 2, 2};
  if (has(n, "image_get_resinfo"))
    return 1;
  unsigned na = coords[dim];
  for (const char *p = strchr(n + 6, '_'); p; p = strchr(p + 1, '_')) {
    const char *e = strchr(p + 1, '_');
    size_t len = e ? (size_t)(e - p - 1) : strlen(p + 1);
    if (len == 1 && strchr("cobl", p[1])) na++;
    else if (len == 1 && p[1] == 'd') na += 2u * grads[dim];
    else if ((len == 2 && !strncmp(p + 1, "cl", 2)) || (len == 3 && !strncmp(p + 1, "mip", 3)))
      na++;
  }
  return na;
}

/* gfx11 MIMG as llvm-objdump-19 prints it: vdata (dmask's channels, 4 for gather4, halved by
 * d16, one more with tfe), vaddr (consecutive, or NSA's list in brackets: as many as the form
 * and dim need), the T#, the S# (samples, gather4, get_lod), then dmask dim unorm glc slc dlc
 * r128 a16 tfe lwe d16. a16 and the _g16 forms (16-bit packed addresses) are not spelled
 * exactly. */
static bool mimg11(struct isa_text *o, const struct isa_inst *in)
{
  uint32_t w0 = in->words[0], w1 = in->words[1];
  const char *n = in->name;
  unsigned dmask = (w0 >> 8) & 15, dim = (w0 >> 2) & 7;
  bool nsa = w0 & 1, a16 = (w0 >> 16) & 1, d16 = (w0 >> 17) & 1, tfe = (w1 >> 21) & 1;
  unsigned nd = (unsigned)__builtin_popcount(dmask ? dmask : 1);
  if (has(n, "image_gather4")) nd = 4;
  if (d16) nd = (nd + 1) / 2;
  nd += tfe;
  bool exact = !a16 && !has(n, "g16");
  unsigned na = mimg_addresses(n, dim);
  bool samp = has(n, "image_sample") || has(n, "image_gather4") || has(n, "image_get_lod");
  opnd(o, in, in->data, nd);
  isa_text_put(o, ", ");
  if (nsa) {
    isa_text_put(o, "[");
    for (unsigned i = 0; i < na && i < 5; i++)
      isa_text_put(o, "%sv%u", i ? ", " : "", i ? (in->words[2] >> (8 * (i - 1))) & 0xff : w1 & 0xff);
    isa_text_put(o, "]");
    exact = exact && na <= 5;
  } else {
    opnd(o, in, in->addr, na);
  }
  isa_text_put(o, ", ");
  opnd(o, in, in->saddr, 8);
  if (samp) {
    isa_text_put(o, ", ");
    opnd(o, in, ((w1 >> 26) & 0x1f) * 4, 4);
  }
  if (dmask) isa_text_put(o, " dmask:0x%x", dmask);
  isa_text_put(o, " dim:SQ_RSRC_IMG_%s", dims[dim]);
  if ((w0 >> 7) & 1) isa_text_put(o, " unorm");
  if ((w0 >> 14) & 1) isa_text_put(o, " glc");
  if ((w0 >> 12) & 1) isa_text_put(o, " slc");
  if ((w0 >> 13) & 1) isa_text_put(o, " dlc");
  if ((w0 >> 15) & 1) isa_text_put(o, " r128");
  if (a16) isa_text_put(o, " a16");
  if (tfe) isa_text_put(o, " tfe");
  if ((w1 >> 22) & 1) isa_text_put(o, " lwe");
  if (d16) isa_text_put(o, " d16");
  return exact;
}

/* gfx12 VIMAGE/VSAMPLE (decode_gfx12_image.c) as llvm-objdump-19 prints them: vdata as for
 * gfx11, the addresses always listed (one without brackets; VSAMPLE's fourth field a range of
 * the rest when the form needs more than four), the T#, the S# (VSAMPLE), then dmask dim
 * unorm th scope r128 a16 tfe lwe d16. The printer's own rule kept: a VIMAGE form that needs
 * more than one address but whose vaddr1..3 fields are all 0 (v0) is printed as its
 * one-address form, with a one-register vdata. */
static bool mimg12(struct isa_text *o, const struct isa_inst *in)
{
  uint32_t w0 = in->words[0], w1 = in->words[1], w2 = in->words[2];
  const char *n = in->name;
  bool samp = (w0 >> 26) == 0x39;
  unsigned dmask = (w0 >> 22) & 15, dim = w0 & 7, th = (w1 >> 20) & 7, scope = (w1 >> 18) & 3;
  bool a16 = (w0 >> 6) & 1, d16 = (w0 >> 5) & 1, tfe = in->tfe;
  bool atomic = has(n, "image_atomic");
  unsigned nd = (unsigned)__builtin_popcount(dmask ? dmask : 1);
  if (has(n, "image_gather4") || has(n, "image_msaa_load")) nd = 4;
  if (d16) nd = (nd + 1) / 2;
  nd += tfe;
  bool exact = !a16 && !has(n, "g16") && !(atomic && __builtin_popcount(dmask) > 2);
  unsigned na = mimg_addresses(n, dim);
  if (!samp && na > 1 && !(w2 >> 8)) {
    na = 1;
    nd = 1;
  }
  opnd(o, in, in->data, nd);
  isa_text_put(o, ", ");
  if (na == 1) {
    isa_text_put(o, "v%u", w2 & 0xff);
  } else {
    isa_text_put(o, "[");
    for (unsigned i = 0; i < na && i < 4; i++) {
      unsigned r = (w2 >> (8 * i)) & 0xff;
      if (i == 3 && na > 4)
        isa_text_put(o, ", v[%u:%u]", r, r + na - 4);
      else
        isa_text_put(o, "%sv%u", i ? ", " : "", r);
    }
    isa_text_put(o, "]");
    exact = exact && (samp || na <= 4);
  }
  isa_text_put(o, ", ");
  opnd(o, in, in->saddr, 8);
  if (samp && !has(n, "image_msaa_load")) {
    isa_text_put(o, ", ");
    opnd(o, in, (w1 >> 23) & 0x1ff, 4);
  }
  if (dmask) isa_text_put(o, " dmask:0x%x", dmask);
  isa_text_put(o, " dim:SQ_RSRC_IMG_%s", dims[dim]);
  if (samp && (w0 >> 13) & 1) isa_text_put(o, " unorm");
  if (th) {
    bool store = has(n, "image_store");
    if (atomic && th <= 2) isa_text_put(o, " th:TH_ATOMIC_%s", th == 1 ? "RETURN" : "NT");
    else if (!atomic && th <= 2) isa_text_put(o, " th:TH_%s_%s", store ? "STORE" : "LOAD", th == 1 ? "NT" : "HT");
    else exact = false;
  }
  static const char *const sc[4] = {"", " scope:SCOPE_SE", " scope:SCOPE_DEV", " scope:SCOPE_SYS"};
  isa_text_put(o, "%s", sc[scope]);
  if ((w0 >> 4) & 1) isa_text_put(o, " r128");
  if (a16) isa_text_put(o, " a16");
  if (tfe) isa_text_put(o, " tfe");
  if (samp && (w1 >> 8) & 1) isa_text_put(o, " lwe");
  if (d16) isa_text_put(o, " d16");
  return exact;
}

/* ---- VALU ---- */
static void src(struct isa_text *o, const struct isa_inst *in, unsigned i, unsigned width)
{
  bool neg = (in->neg >> i) & 1, abs = (in->abs >> i) & 1;
  isa_text_put(o, "%s%s", neg ? "-" : "", abs ? "|" : "");
  opnd(o, in, in->src[i], width);
  isa_text_put(o, "%s", abs ? "|" : "");
}

static bool carry_in(const char *n)
{
  return has(n, "_co_ci_") || has(n, "cndmask");
}

static const char *const two_src[] = {
  "v_add_f64", "v_mul_f64", "v_min_f64", "v_max_f64", "v_ldexp_f64", "v_ldexp_f32",
  "v_mul_lo_u32", "v_mul_hi_u32", "v_mul_lo_i32", "v_mul_hi_i32", "v_readlane_b32",
  "v_writelane_b32", "v_bcnt_u32_b32", "v_mbcnt_lo_u32_b32", "v_mbcnt_hi_u32_b32",
  "v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64", "v_trig_preop_f64", "v_bfm_b32",
  "v_cvt_pk_norm_i16_f32", "v_cvt_pk_norm_u16_f32", "v_cvt_pk_u16_u32", "v_cvt_pk_i16_i32",
  "v_add_nc_i32", "v_sub_nc_i32", "v_add_nc_i16", "v_sub_nc_i16", "v_add_nc_u16",
  "v_sub_nc_u16", "v_mul_lo_u16", "v_pack_b32_f16", "v_add_co_u32", "v_sub_co_u32",
  "v_subrev_co_u32", "v_lshlrev_b16", "v_lshrrev_b16", "v_ashrrev_i16", "v_max_u16",
  "v_max_i16", "v_min_u16", "v_min_i16", "v_and_b16", "v_or_b16", "v_xor_b16",
  "v_cvt_pk_i16_f32", "v_cvt_pk_u16_f32"};

static bool vop3_two(const char *n)
{
  for (unsigned i = 0; i < sizeof two_src / sizeof *two_src; i++)
    if (!strcmp(n, two_src[i]))
      return true;
  return false;
}

static void vopd_half(struct isa_text *o, const struct isa_inst *in, const char *name, uint16_t dst,
                      uint16_t s0, uint16_t s1)
{
  isa_text_put(o, "%s ", name);
  opnd(o, in, dst, 1);
  isa_text_put(o, ", ");
  opnd(o, in, s0, 1);
  if (has(name, "mov_b32"))
    return;
  if (has(name, "fmamk")) { isa_text_put(o, ", 0x%x, ", in->literal); opnd(o, in, s1, 1); return; }
  isa_text_put(o, ", ");
  opnd(o, in, s1, 1);
  if (has(name, "fmaak")) isa_text_put(o, ", 0x%x", in->literal);
}

static bool valu(struct isa_text *o, const struct isa_inst *in, bool *exact)
{
  const char *n = in->name;
  unsigned dw, sw;
  isa_text_widths(n, false, &dw, &sw);
  *exact = true;
  if (in->exec == g11_exec_vopd || !strncmp(n, "v_dual_", 7)) {
    vopd_half(o, in, n, in->dst, in->src[0], in->src[1]);
    isa_text_put(o, " :: ");
    vopd_half(o, in, g11_vopd_name(G11_VOPD_Y_OP(in)), G11_VOPD_Y_DST(in), G11_VOPD_Y_SRC0(in),
              G11_VOPD_Y_SRC1(in));
    return true;
  }
  if (in->dpp || in->fmt == ISA_VOP3P || in->opsel) {
    *exact = false;
    isa_text_put(o, "%s%s ", n, in->dpp ? "_dpp" : "");
    opnd(o, in, in->dst, 1);
    for (unsigned i = 0; i < 3; i++)
      if (in->src[i]) { isa_text_put(o, ", "); opnd(o, in, in->src[i], 1); }
    return true;
  }
  bool cmpx = has(n, "v_cmpx");
  switch (in->fmt) {
  case ISA_VOP1:
    if (!strcmp(n, "v_nop") || !strcmp(n, "v_pipeflush")) { isa_text_put(o, "%s", n); return true; }
    isa_text_put(o, "%s%s ", n, !strcmp(n, "v_readfirstlane_b32") || !strcmp(n, "v_swap_b32") ? "" : "_e32");
    opnd(o, in, in->dst, dw);
    isa_text_put(o, ", ");
    opnd(o, in, in->src[0], sw);
    return true;
  case ISA_VOPC: {
    unsigned s1 = has(n, "class") ? 1 : sw;
    isa_text_put(o, "%s_e32 ", n);
    if (!cmpx) isa_text_put(o, "vcc_lo, ");
    opnd(o, in, in->src[0], sw);
    isa_text_put(o, ", ");
    opnd(o, in, in->src[1], s1);
    return true;
  }
  case ISA_VOP2: {
    bool mk = has(n, "fmamk"), ak = has(n, "fmaak");
    isa_text_put(o, "%s%s ", n, mk || ak ? "" : "_e32");
    if (has(n, "rev_b64") || has(n, "rev_i64")) {   /* gfx12's VOP2 64-bit shifts */
      opnd(o, in, in->dst, 2);
      isa_text_put(o, ", ");
      opnd(o, in, in->src[0], 1);
      isa_text_put(o, ", ");
      opnd(o, in, in->src[1], 2);
      return true;
    }
    opnd(o, in, in->dst, dw);
    if (has(n, "_co_ci_")) isa_text_put(o, ", vcc_lo");
    isa_text_put(o, ", ");
    opnd(o, in, in->src[0], sw);
    if (mk) { isa_text_put(o, ", 0x%x, ", in->literal); opnd(o, in, in->src[2], sw); return true; }
    isa_text_put(o, ", ");
    opnd(o, in, in->src[1], has(n, "ldexp") ? 1 : sw);   /* v_lshlrev_b64: below */
    if (ak) isa_text_put(o, ", 0x%x", in->literal);
    if (carry_in(n)) isa_text_put(o, ", vcc_lo");
    return true;
  }
  case ISA_VOP3A: case ISA_VOP3B: {
    unsigned w[3] = {sw, sw, sw}, ns;
    bool promoted = in->op < 0x1c0 && in->exec != NULL && !has(n, "v_readlane") &&
                    !has(n, "v_writelane");
    /* the VOP3 encoding's opcode: VOPC/VOP2/VOP1 promotions get _e64 */
    unsigned op11 = (in->words[0] >> 16) & 0x3ff;
    promoted = op11 < 0x200;
    isa_text_put(o, "%s%s ", n, promoted ? "_e64" : "");
    if (op11 < 0x100) {                      /* VOPC */
      if (has(n, "class")) w[1] = 1;
      if (!cmpx) { opnd(o, in, in->sdst, 1); isa_text_put(o, ", "); }
      ns = 2;
    } else {
      if (op11 < 0x180) ns = 2;
      else if (op11 < 0x200) ns = !strcmp(n, "v_nop") ? 0 : 1;
      else ns = vop3_two(n) ? 2 : 3;
      if (has(n, "lshlrev_b64") || has(n, "lshrrev_b64") || has(n, "ashrrev_i64")) w[0] = 1;
      if (has(n, "ldexp") || has(n, "trig_preop")) w[1] = 1;
      if (has(n, "64_u32") || has(n, "64_i32")) { dw = 2; w[0] = w[1] = 1; w[2] = 2; }
      if (!strncmp(n, "v_s_", 4)) ns = 1;   /* gfx12: scalar result */
      if (has(n, "readlane") || has(n, "writelane")) { w[0] = w[1] = 1; dw = 1; }
      if (has(n, "_co_ci_") || has(n, "cndmask")) { ns = 2; }
      opnd(o, in, in->dst, dw);
      if (in->fmt == ISA_VOP3B) { isa_text_put(o, ", "); opnd(o, in, in->sdst, 1); }
      if (ns) isa_text_put(o, ", ");
    }
    for (unsigned i = 0; i < ns; i++) {
      if (i) isa_text_put(o, ", ");
      src(o, in, i, w[i]);
    }
    if (op11 >= 0x100 && op11 < 0x180 && carry_in(n)) { isa_text_put(o, ", "); opnd(o, in, in->src[2], 1); }
    if (in->clamp) isa_text_put(o, " clamp");
    static const char *const om[4] = {"", " mul:2", " mul:4", " div:2"};
    isa_text_put(o, "%s", om[in->omod & 3]);
    /* 16-bit operations print op_sel, llvm spells literal f64 operands differently */
    if (has(n, "16") && !has(n, "u32_u16") ) *exact = !in->opsel;
    return true;
  }
  default:
    *exact = false;
    isa_text_put(o, "%s", n);
    return true;
  }
}

unsigned isa_describe_gfx11(const struct isa_inst *in, char *buf, unsigned size, bool *exact)
{
  struct isa_text o = {buf, 0, size};
  *exact = false;
  if (!size)
    return in->size;
  buf[0] = 0;
  if (in->fmt >= ISA_VOP2 && in->fmt <= ISA_VOP3P) {
    valu(&o, in, exact);
    return in->size;
  }
  isa_text_put(&o, "%s", in->name);
  unsigned mark = o.n;
  isa_text_put(&o, " ");
  unsigned before = o.n;
  if (in->fmt <= ISA_SMEM)
    *exact = scalar(&o, in);
  else if (in->fmt >= ISA_DS && in->fmt <= ISA_MUBUF)
    *exact = memory(&o, in);
  else if (in->fmt == ISA_MIMG)
    *exact = in->target == ISA_TARGET_GFX1201 ? mimg12(&o, in) : mimg11(&o, in);
  if (o.n == before) {
    o.n = mark;
    buf[mark] = 0;
  }
  return in->size;
}
