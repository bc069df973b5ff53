/* SPDX-License-Identifier: MIT */
/* decode_vop.c — VOP1, VOP2, VOPC, VOP3A/B and VOP3P (gfx9), with the SDWA and DPP extra
 * dwords and literals. Operands are normalized so semantics see one shape whatever the
 * encoding: src[0..2] as 9-bit codes (VGPRs at 256+), implicit VCC made explicit
 * (carry-in as src[2], carry-out and VOPC results in sdst), v_mac's accumulator as src[2],
 * v_madmk/madak's constant as a literal source. */
#include "isa/gfx11.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "dev/catalog.h"

#define NOPS 1024u

/* by target: ANY (union), gfx900, gfx906, gfx90a, gfx942 */
#define NTARGETS 5
static const struct valu_desc *table[NTARGETS][NOPS];
static char unknown_text[4][NOPS][40];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void add(const struct valu_desc *d, unsigned n)
{
  static const uint8_t bit[4] = { 0, VALU_GFX900, VALU_GFX906, VALU_GFX90A };
  for (unsigned i = 0; i < n; i++)
    for (unsigned t = 1; t < 4; t++)
      if (d[i].gfx & bit[t])
        table[t][d[i].op] = &d[i];
  for (unsigned i = 0; i < n; i++)   /* gfx942's own meanings */
    if (d[i].gfx & VALU_GFX942)
      table[ISA_TARGET_GFX942][d[i].op] = &d[i];
}

/* The chip a wave runs on (its workgroup's GPU model), ANY when the wave has none. */
static unsigned wave_target(const struct isa_wave *w)
{
  const struct sim_gpu *g = w->group && w->group->wg ? w->group->wg->gpu : NULL;
  if (!g || !g->model)
    return ISA_TARGET_ANY;
  switch (g->model->gfx_target_version) {
  case 90000: return ISA_TARGET_GFX900;
  case 90006: return ISA_TARGET_GFX906;
  case 90010: return ISA_TARGET_GFX90A;
  case 90402: return ISA_TARGET_GFX942;
  default: return ISA_TARGET_ANY;
  }
}

/* Decoded without knowing the chip (target ANY), an opcode that some gfx9 chips lack or
 * read differently picks its semantics when it runs, from the wave's GPU: an opcode the
 * chip does not have faults as illegal there. */
static int by_chip(struct isa_wave *w, const struct isa_inst *in)
{
  unsigned t = wave_target(w);
  const struct valu_desc *d = table[t][in->op];
  if (t == ISA_TARGET_ANY)   /* no GPU (unit tests): the union, gfx906 meanings first */
    d = table[2][in->op] ? table[2][in->op] : table[3][in->op] ? table[3][in->op]
        : table[1][in->op] ? table[1][in->op] : table[4][in->op];
  if (!d)
    return isa_unknown(w, in);
  return d->fn(w, in);
}

static struct valu_desc merged[NOPS];

/* "unknown <format> opcode 0x<op>" (as "%x" prints it) into a 40-byte slot, without
 * snprintf: the ~1600 of them are made at the first decode, inside the first dispatch, where
 * snprintf cost ~1.45M host instructions (7% of reduce_stride's one dispatch, issue 24) */
static void unknown_name(char d[40], const char *format, unsigned op)
{
  static const char hex[] = "0123456789abcdef";
  size_t n = 0;
  for (const char *s = "unknown "; *s; s++)
    d[n++] = *s;
  for (const char *s = format; *s; s++)
    d[n++] = *s;
  for (const char *s = " opcode 0x"; *s; s++)
    d[n++] = *s;
  unsigned shift = 28;
  while (shift && !(op >> shift))
    shift -= 4;
  for (;; shift -= 4) {
    d[n++] = hex[op >> shift & 0xf];
    if (!shift)
      break;
  }
  d[n] = 0;
}

static void build(void)
{
#define ADD(x) add(valu_##x##_ops, valu_##x##_count)
  ADD(int); ADD(f32); ADD(f64); ADD(f16); ADD(cmp); ADD(cvt); ADD(pk); ADD(misc); ADD(g942); ADD(mai); ADD(fp8);
#undef ADD
  /* gfx942: gfx90a's opcodes where it has none of its own; an entry without a function
   * removes the opcode */
  for (unsigned op = 0; op < NOPS; op++)
    if (!table[4][op])
      table[4][op] = table[3][op];
    else if (!table[4][op]->fn)
      table[4][op] = NULL;
  /* the union: gfx906 meanings first, then what only gfx900, gfx90a or gfx942 has */
  for (unsigned op = 0; op < NOPS; op++) {
    table[0][op] = table[2][op] ? table[2][op] : table[1][op] ? table[1][op]
                 : table[3][op] ? table[3][op] : table[4][op];
    const struct valu_desc *a = table[1][op], *b = table[2][op], *c = table[3][op],
                           *e = table[4][op];
    bool differ = (a && b && a->fn != b->fn) || (b && c && b->fn != c->fn) ||
                  (a && c && a->fn != c->fn) || (c && e && c->fn != e->fn);
    if (table[0][op] && (differ || !a || !b || !c || !e)) {
      merged[op] = *table[0][op];
      merged[op].fn = by_chip;
      merged[op].flags = (uint16_t)((a ? a->flags : 0) | (b ? b->flags : 0) | (c ? c->flags : 0) |
                                    (e ? e->flags : 0));
      table[0][op] = &merged[op];
    }
  }
}

/* the unknown-opcode texts, made at the first decode that needs one (issue 24: the ~1600 of
 * them were ~320k host instructions inside every program's first dispatch) */
static pthread_once_t unknown_once = PTHREAD_ONCE_INIT;
static void build_unknown(void)
{
  for (unsigned op = 0; op < NOPS; op++) {
    unknown_name(unknown_text[0][op], op >= VALU_OP_VOP3P ? "VOP3P" : "VOP3A",
                 op >= VALU_OP_VOP3P ? op - VALU_OP_VOP3P : op);
    if (op < 256) {
      unknown_name(unknown_text[1][op], "VOPC", op);
      unknown_name(unknown_text[2][op], "VOP1", op);
    }
    if (op < 64)
      unknown_name(unknown_text[3][op], "VOP2", op);
  }
}

static int fail(struct isa_inst *out, const char *text)
{
  out->exec = NULL;
  out->name = text;
  return -1;
}

/* fail() with one of the unknown-opcode texts, made first */
static int fail_unknown(struct isa_inst *out, const char *text)
{
  pthread_once(&unknown_once, build_unknown);
  return fail(out, text);
}

/* The SDWA dword (gfx9) of a VOP1/VOP2/VOPC instruction. */
static void sdwa(struct isa_inst *out, uint32_t e, unsigned vsrc1)
{
  out->sdwa = true;
  out->sdwa_src_sgpr[0] = e >> 23 & 1;
  out->sdwa_src_sgpr[1] = e >> 31 & 1;
  out->src[0] = (uint16_t)(out->sdwa_src_sgpr[0] ? (e & 0xff) : ISA_OP_VGPR0 + (e & 0xff));
  if (out->fmt != ISA_VOP1)
    out->src[1] = (uint16_t)(out->sdwa_src_sgpr[1] ? vsrc1 : ISA_OP_VGPR0 + vsrc1);
  out->sdwa_src_sel[0] = e >> 16 & 7;
  out->sdwa_src_sel[1] = e >> 24 & 7;
  out->sdwa_sext = (uint8_t)((e >> 19 & 1) | (e >> 27 & 1) << 1);
  out->sdwa_neg = (uint8_t)((e >> 20 & 1) | (e >> 28 & 1) << 1);
  out->sdwa_abs = (uint8_t)((e >> 21 & 1) | (e >> 29 & 1) << 1);
  out->neg = out->sdwa_neg;
  out->abs = out->sdwa_abs;
  if (out->fmt == ISA_VOPC) {
    out->sdwa_sd = e >> 15 & 1;
    out->sdst = (uint16_t)(out->sdwa_sd ? (e >> 8 & 0x7f) : ISA_OP_VCC_LO);
    out->sdwa_dst_sel = 6;
  } else {
    out->sdwa_dst_sel = e >> 8 & 7;
    out->sdwa_dst_unused = e >> 11 & 3;
    out->sdwa_clamp = e >> 13 & 1;
    out->sdwa_omod = e >> 14 & 3;
    out->clamp = out->sdwa_clamp;
    out->omod = out->sdwa_omod;
  }
}

int isa_decode_valu(const uint32_t *words, unsigned avail, uint64_t pc, struct isa_inst *out)
{
  pthread_once(&once, build);
  unsigned target = out->target < NTARGETS ? out->target : 0;
  uint32_t w0 = words[0];
  unsigned op, ext = 0;   /* ext: 1 = may carry literal/SDWA/DPP in src0 */
  const char *unk;
  (void)pc;

  if ((w0 >> 26) == 0x34) {                                  /* VOP3A/B, VOP3P */
    out->size = 8;
    if (avail < 2)
      return fail(out, "truncated VOP3 instruction");
    uint32_t w1 = words[1];
    op = w0 >> 16 & 0x3ff;
    out->fmt = op >= VALU_OP_VOP3P ? ISA_VOP3P : ISA_VOP3A;
    unk = unknown_text[0][op];
    out->src[0] = w1 & 0x1ff;
    out->src[1] = w1 >> 9 & 0x1ff;
    out->src[2] = w1 >> 18 & 0x1ff;
    out->dst = (uint16_t)(ISA_OP_VGPR0 + (w0 & 0xff));
    out->clamp = w0 >> 15 & 1;
    out->neg = w1 >> 29 & 7;
    out->opsel = w0 >> 11 & 15;
    if (out->fmt == ISA_VOP3P) {
      out->neg_hi = w0 >> 8 & 7;
      out->opsel = w0 >> 11 & 7;
      out->opsel_hi = (uint8_t)((w1 >> 27 & 3) | (w0 >> 14 & 1) << 2);
    } else {
      out->abs = w0 >> 8 & 7;
      out->omod = w1 >> 27 & 3;
    }
    for (unsigned i = 0; i < 3; i++)
      if (out->src[i] == ISA_OP_LITERAL || out->src[i] == ISA_OP_SDWA ||
          out->src[i] == ISA_OP_DPP)
        return fail(out, "literal, SDWA or DPP operand in a VOP3 encoding (not on gfx9)");
  } else if ((w0 >> 25) == 0x3f) {                           /* VOP1 */
    out->fmt = ISA_VOP1;
    op = VALU_OP_VOP1 + (w0 >> 9 & 0xff);
    unk = unknown_text[2][w0 >> 9 & 0xff];
    out->src[0] = w0 & 0x1ff;
    out->dst = (uint16_t)(ISA_OP_VGPR0 + (w0 >> 17 & 0xff));
    ext = 1;
    if ((w0 >> 9 & 0xff) >= 0x80)    /* would alias the VOP3-only space */
      op = NOPS - 1;
  } else if ((w0 >> 25) == 0x3e) {                           /* VOPC */
    out->fmt = ISA_VOPC;
    op = w0 >> 17 & 0xff;
    unk = unknown_text[1][op];
    out->src[0] = w0 & 0x1ff;
    out->src[1] = (uint16_t)(ISA_OP_VGPR0 + (w0 >> 9 & 0xff));
    out->sdst = ISA_OP_VCC_LO;
    ext = 1;
  } else if (!(w0 >> 31)) {                                  /* VOP2 */
    out->fmt = ISA_VOP2;
    op = VALU_OP_VOP2 + (w0 >> 25 & 0x3f);
    unk = unknown_text[3][w0 >> 25 & 0x3f];
    out->src[0] = w0 & 0x1ff;
    out->src[1] = (uint16_t)(ISA_OP_VGPR0 + (w0 >> 9 & 0xff));
    out->dst = (uint16_t)(ISA_OP_VGPR0 + (w0 >> 17 & 0xff));
    ext = 1;
  } else {
    out->size = 4;
    return fail(out, "not a VALU encoding");
  }

  if (out->size == 0)
    out->size = 4;
  if (ext) {
    unsigned s0 = out->src[0];
    if (s0 == ISA_OP_LITERAL || s0 == ISA_OP_SDWA || s0 == ISA_OP_DPP) {
      out->size = 8;
      if (avail < 2)
        return fail(out, "truncated VALU instruction");
    }
    if (s0 == ISA_OP_LITERAL) {
      out->literal = words[1];
    } else if (s0 == ISA_OP_SDWA) {
      sdwa(out, words[1], (w0 >> 9) & 0xff);
    } else if (s0 == ISA_OP_DPP) {
      uint32_t e = words[1];
      out->dpp = true;
      out->src[0] = (uint16_t)(ISA_OP_VGPR0 + (e & 0xff));
      out->dpp_ctrl = e >> 8 & 0x1ff;
      out->dpp_bound_ctrl = e >> 19 & 1;
      out->neg = (uint8_t)((e >> 20 & 1) | (e >> 22 & 1) << 1);
      out->abs = (uint8_t)((e >> 21 & 1) | (e >> 23 & 1) << 1);
      out->dpp_bank_mask = e >> 24 & 15;
      out->dpp_row_mask = e >> 28 & 15;
      if (!valu_dpp_ctrl_valid(out->dpp_ctrl))
        return fail(out, "illegal DPP control");
    }
  }

  const struct valu_desc *d = table[target][op];
  out->op = (uint16_t)op;
  if (!d)
    return fail_unknown(out, unk);
  out->name = d->name;
  out->exec = d->fn;

  if (out->fmt == ISA_VOP3A) {
    if (d->flags & (VALU_F_MADMK | VALU_F_MADAK | VALU_F_NOVOP3))   /* no VOP3 form */
      return fail_unknown(out, unk);
    if (op < 0x100) {                                        /* VOPC promoted: SGPR-pair result */
      out->sdst = w0 & 0xff;
      out->dst = 0;
    } else if (d->flags & VALU_F_VOP3B) {
      out->fmt = ISA_VOP3B;
      out->sdst = w0 >> 8 & 0x7f;
      out->abs = 0;
      out->opsel = 0;
    }
    if (d->flags & VALU_F_SDST)
      out->dst = w0 & 0xff;
  } else if (out->fmt == ISA_VOP2) {
    if (d->flags & VALU_F_CARRYIN)
      out->src[2] = ISA_OP_VCC_LO;
    if (d->flags & VALU_F_CARRYOUT)
      out->sdst = ISA_OP_VCC_LO;
    if (d->flags & (VALU_F_MADMK | VALU_F_MADAK)) {
      if (out->size != 4 || avail < 2)
        return fail(out, "v_madmk/v_madak with SDWA/DPP or truncated");
      out->size = 8;
      out->literal = words[1];
      if (d->flags & VALU_F_MADMK) {
        out->src[2] = out->src[1];
        out->src[1] = ISA_OP_LITERAL;
      } else {
        out->src[2] = ISA_OP_LITERAL;
      }
    }
  } else if (out->fmt == ISA_VOP1 && (d->flags & VALU_F_SDST)) {
    out->dst = w0 >> 17 & 0xff;
  }
  if (d->flags & VALU_F_MAC)
    out->src[2] = out->dst;
  if (d->flags & VALU_F_NOSRC)
    out->src[0] = out->src[1] = out->src[2] = 0;
  if (d->flags & VALU_F_MAI)
    isa_mai_operands(out, w0, out->size > 4 ? words[1] : 0);
  return 0;
}

/* For the later families' decoders (gfx11.h): the gfx9 operation named `name`, with
 * gfx90a's meaning first (then gfx942's, gfx906's, gfx900's). */
/* valu_find's index: every named operation with a function, by name (FNV-1a, open
 * addressing), the first of gfx90a, gfx942, gfx906, gfx900 to name it. gfx11/gfx12's tables
 * look up their ~600 VALU operations here when first built: a scan of the four tables per
 * name cost ~11M host instructions (~3 ms) at a process's first gfx11 decode. */
#define FIND_SLOTS 8192u   /* > 4 x NOPS: never full */
static const struct valu_desc *find_slot[FIND_SLOTS];
static uint16_t find_key[FIND_SLOTS];   /* the slot's (priority, opcode): the least wins */
static pthread_once_t find_once = PTHREAD_ONCE_INIT;

static unsigned name_hash(const char *n)
{
  uint32_t h = 2166136261u;
  for (; *n; n++)
    h = (h ^ (uint8_t)*n) * 16777619u;
  return h & (FIND_SLOTS - 1);
}

/* Each descriptor once, at the first of gfx90a, gfx942, gfx906, gfx900 whose table holds it
 * at its opcode (none: shadowed, skipped): a name keeps the descriptor of least (that
 * priority, opcode), which is what a scan of gfx90a's table, then gfx942's, ... finds first
 * (valu_find_scan). Every table entry is a descriptor at its own opcode, so none is missed;
 * ~1100 descriptors instead of 4 x 1024 entries, each hashed once (~300k -> ~110k host
 * instructions inside a process's first gfx11/gfx12 dispatch). */
static void find_add(const struct valu_desc *v, unsigned n)
{
  static const unsigned order[4] = { ISA_TARGET_GFX90A, ISA_TARGET_GFX942, ISA_TARGET_GFX906,
                                     ISA_TARGET_GFX900 };
  for (unsigned j = 0; j < n; j++) {
    const struct valu_desc *d = &v[j];
    if (!d->fn || !d->name || d->op >= NOPS)
      continue;
    unsigned k = 0;
    while (k < 4 && table[order[k]][d->op] != d)
      k++;
    if (k == 4)
      continue;
    uint16_t key = (uint16_t)(k * NOPS + d->op);
    unsigned i = name_hash(d->name);
    while (find_slot[i] && strcmp(find_slot[i]->name, d->name))
      i = (i + 1) & (FIND_SLOTS - 1);
    if (!find_slot[i] || key < find_key[i]) {
      find_slot[i] = d;
      find_key[i] = key;
    }
  }
}

static void find_build(void)
{
  pthread_once(&once, build);
#define ADD(x) find_add(valu_##x##_ops, valu_##x##_count)
  ADD(int); ADD(f32); ADD(f64); ADD(f16); ADD(cmp); ADD(cvt); ADD(pk); ADD(misc); ADD(g942); ADD(mai); ADD(fp8);
#undef ADD
}

const struct valu_desc *valu_find(const char *name)
{
  pthread_once(&find_once, find_build);
  for (unsigned i = name_hash(name); find_slot[i]; i = (i + 1) & (FIND_SLOTS - 1))
    if (!strcmp(find_slot[i]->name, name))
      return find_slot[i];
  return NULL;
}

/* valu_find as a scan of the four tables, in the same order: the reference test_isa_gfx11
 * checks the index against */
const struct valu_desc *valu_find_scan(const char *name)
{
  pthread_once(&once, build);
  static const unsigned order[4] = { ISA_TARGET_GFX90A, ISA_TARGET_GFX942, ISA_TARGET_GFX906,
                                     ISA_TARGET_GFX900 };
  for (unsigned k = 0; k < 4; k++)
    for (unsigned op = 0; op < NOPS; op++) {
      const struct valu_desc *d = table[order[k]][op];
      if (d && d->fn && !strcmp(d->name, name))
        return d;
    }
  return NULL;
}
