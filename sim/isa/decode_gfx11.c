/* SPDX-License-Identifier: MIT */
/* decode_gfx11.c — the gfx11 (RDNA3) encodings onto the model's instruction shape: opcodes
 * become the gfx9 operation of the same meaning (gfx11_ops.c names it), operand codes the
 * gfx9 numbering (gfx11's NULL 124 and M0 125 swap to the model's 125 and 124), and the
 * fields the format moved go where the gfx9 semantics look for them:
 *   SOP*, SMEM (0x3d: sdata, sbase, 21-bit signed offset, soffset or NULL),
 *   VOP1/VOP2/VOPC and their VOP3 promotions (0x35: literal allowed, 12 bytes), VOP3P (0xcc),
 *   VOPD (0x32: two VALU operations in one instruction), DPP16, DPP8,
 *   DS (0x36), FLAT/GLOBAL/SCRATCH (0x37: seg, sve, saddr NULL = off), MUBUF (0x38), MTBUF
 *   (0x3a, decoded only).
 * v_cmpx writes EXEC only on gfx10+ (sdst is NULL here); the wave's size (wave.h, wave32)
 * picks 32- or 64-bit lane masks when the semantics run. */
#include "isa/exec.h"
#include "isa/gfx11.h"
#include "isa/names.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The decode tables: per family and format, an opcode's gfx11/gfx12 mnemonic (without _e32),
 * its gfx9 opcode (scalar and memory formats) and its VALU descriptor. An entry is resolved
 * by name (gfx11_ops.c/gfx12_ops.c's gfx9 name through opnames.c's tables, valu_named) the
 * first time an instruction with that opcode decodes, not all ~3500 of a family at once: that
 * eager build was ~5.3M host instructions (136k a decoded instruction) inside every process's
 * first gfx11/gfx12 dispatch, which decodes ~35 (issue 24). Once `ready` is set (release,
 * under `lock`), an entry never changes; readers load `ready` with acquire. */
struct ent {
  const char *name;          /* gfx11 mnemonic without _e32; NULL: no such opcode */
  const struct valu_desc *d; /* VALU */
  int16_t op9;               /* gfx9 opcode (scalar and memory formats), -1 = none; 0x4000 |
                                op: gfx12's SALU float; 0x5000 | op: its 16-bit SALU float */
  _Atomic uint8_t ready;
};

static const unsigned tab_size[G11_F_COUNT] = { 128, 32, 256, 128, 128, 256, 256, 64, 256,
                                                1024, 128, 256, 128, 128, 128, 256, 16 };
/* the formats' first entries in a family's row of `ents` (prefix sums of tab_size) */
static const unsigned tab_off[G11_F_COUNT] = { 0, 128, 160, 416, 544, 672, 928, 1184, 1248,
                                               1504, 2528, 2656, 2912, 3040, 3168, 3296, 3552 };
#define TAB_TOTAL 3568u
static struct ent ents[2][TAB_TOTAL];   /* gfx11, gfx12 */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char names_buf[2800][40];
static unsigned names_used;

/* a format's opcode list (gfx11_ops.c, gfx12_ops.c) and the gfx9 names its gfx9 names are in */
struct src {
  const struct g11_op *ops;
  const unsigned *count;
  const char *const *t9;
  unsigned n9;
};
#define SRC(fam, x, t9, n9) { fam##_##x, &fam##_##x##_count, t9, n9 }
#define FAMILY(fam)                                                                          \
  { SRC(fam, sop2, isa_sop2_names, 128), SRC(fam, sopk, isa_sopk_names, 32),                 \
    SRC(fam, sop1, isa_sop1_names, 256), SRC(fam, sopc, isa_sopc_names, 128),                \
    SRC(fam, sopp, isa_sopp_names, 128), SRC(fam, smem, isa_smem_names, 256),                \
    SRC(fam, vop1, NULL, 0), SRC(fam, vop2, NULL, 0), SRC(fam, vopc, NULL, 0),               \
    SRC(fam, vop3, NULL, 0), SRC(fam, vop3p, NULL, 0), SRC(fam, ds, isa_ds_names, 256),      \
    SRC(fam, flat, isa_flat_names, 128), SRC(fam, global, isa_global_names, 128),            \
    SRC(fam, scratch, isa_scratch_names, 128), SRC(fam, mubuf, isa_mubuf_names, 128),        \
    SRC(fam, mtbuf, isa_mtbuf_names, 16) }
static const struct src srcs[2][G11_F_COUNT] = { FAMILY(g11), FAMILY(g12) };
#undef FAMILY
#undef SRC

static int find9(const char *const *t, unsigned n, const char *name)
{
  for (unsigned i = 0; i < n; i++)
    if (t[i] && !strcmp(t[i], name))
      return (int)i;
  return -1;
}

/* gfx11's own VALU operations (exec_gfx11.c) first, then gfx9's */
static const struct valu_desc *valu_named(const char *gfx11, const char *gfx9)
{
  for (unsigned i = 0; i < g11_valu_count; i++)
    if (!strcmp(g11_valu_ops[i].name, gfx11))
      return &g11_valu_ops[i];
  size_t n = strlen(gfx11);   /* exec_rdna.c's names carry no _e32/_e64 */
  if (n > 4 && (!strcmp(gfx11 + n - 4, "_e32") || !strcmp(gfx11 + n - 4, "_e64")))
    n -= 4;
  for (unsigned i = 0; i < g11_rdna_count; i++)
    if (!strncmp(g11_rdna_ops[i].name, gfx11, n) && !g11_rdna_ops[i].name[n])
      return &g11_rdna_ops[i];
  for (unsigned i = 0; i < g11_wmma_count; i++)   /* exec_wmma.c */
    if (!strcmp(g11_wmma_ops[i].name, gfx11))
      return &g11_wmma_ops[i];
  return gfx9 ? valu_find(gfx9) : NULL;
}

static const char *strip(const char *n)
{
  size_t l = strlen(n);
  if (l > 4 && (!strcmp(n + l - 4, "_e32") || !strcmp(n + l - 4, "_e64")) &&
      names_used < sizeof names_buf / sizeof names_buf[0] && l - 4 < sizeof names_buf[0]) {
    char *b = names_buf[names_used++];
    memcpy(b, n, l - 4);
    b[l - 4] = 0;
    return b;
  }
  return n;
}

static struct ent *resolved(unsigned fam, unsigned f, unsigned op);

/* Entry `op` of format `f` (under `lock`): its row of the opcode list, or for a VOP3 opcode
 * without one the VOP3 promotion of VOPC (0x000), VOP2 (0x100) or VOP1 (0x180); then the
 * scalar formats' special cases. */
static void resolve(unsigned fam, unsigned f, unsigned op, struct ent *x)
{
  const struct src *s = &srcs[fam][f];
  const struct g11_op *row = NULL;
  for (unsigned i = 0; i < *s->count; i++)
    if (s->ops[i].op == op)
      row = &s->ops[i];
  x->op9 = -1;
  if (row) {
    x->name = strip(row->name);
    if (s->t9 && row->gfx9)
      x->op9 = (int16_t)find9(s->t9, s->n9, row->gfx9);
    if (f >= G11_F_VOP1 && f <= G11_F_VOP3P)
      x->d = valu_named(x->name, row->gfx9);
  } else if (f == G11_F_VOP3 && op < 0x200 && !(op >= 0x140 && op < 0x180)) {
    const struct ent *p = op < 0x100   ? resolved(fam, G11_F_VOPC, op)
                          : op < 0x180 ? resolved(fam, G11_F_VOP2, op - 0x100)
                                       : resolved(fam, G11_F_VOP1, op - 0x180);
    if (p->name) {
      x->name = p->name;
      x->op9 = p->op9;
      x->d = p->d;
    }
  }
  if (!x->name)
    return;
  if (f == G11_F_SMEM) {
    if (!strcmp(x->name, "s_dcache_inv"))   /* the gfx9 table names it apart (decode_sop.c) */
      x->op9 = 0x20;
    else if (!strcmp(x->name, "s_load_b96"))
      x->op9 = 2;    /* s_load_dwordx4's operation; the decoder moves 3 dwords */
    else if (!strcmp(x->name, "s_buffer_load_b96"))
      x->op9 = 10;
  }
  /* gfx12's SALU float: their own semantics (exec_gfx12.c) */
  if (f <= G11_F_SOPC) {
    if (g12_salu_float(x->name))
      x->op9 = (int16_t)(0x4000 | op);
    else if (g12_salu_half(x->name))   /* exec_rdna_salu.c */
      x->op9 = (int16_t)(0x5000 | op);
  }
}

/* entry `op` of format `f`, resolved (under `lock`) */
static struct ent *resolved(unsigned fam, unsigned f, unsigned op)
{
  struct ent *x = &ents[fam][tab_off[f] + op];
  if (!atomic_load_explicit(&x->ready, memory_order_relaxed)) {
    resolve(fam, f, op, x);
    atomic_store_explicit(&x->ready, 1, memory_order_release);
  }
  return x;
}

static const struct ent *entry(unsigned fam, unsigned f, unsigned op)
{
  struct ent *x = &ents[fam][tab_off[f] + op];
  if (atomic_load_explicit(&x->ready, memory_order_acquire))
    return x;
  pthread_mutex_lock(&lock);
  resolved(fam, f, op);
  pthread_mutex_unlock(&lock);
  return x;
}

/* the entry of the family `in` decodes for */
#define tab(F, op) entry(in->target == ISA_TARGET_GFX1201, (F), (op))

bool g11_decode_entry(uint8_t target, unsigned f, unsigned op, const char **name, int *op9,
                      const struct valu_desc **d)
{
  if (f >= G11_F_COUNT || op >= tab_size[f])
    return false;
  const struct ent *x = entry(target == ISA_TARGET_GFX1201, f, op);
  *name = x->name;
  *op9 = x->op9;
  *d = x->d;
  return x->name != NULL;
}

/* gfx11 scalar operand code -> the model's */
static inline uint16_t sc(unsigned c)
{
  return (uint16_t)(c == 124 ? ISA_OP_NULL : c == 125 ? ISA_OP_M0 : c);
}

static int fail(struct isa_inst *in, const char *what)
{
  in->exec = NULL;
  if (!in->name)
    in->name = what;
  return -1;
}

static int literal_at(const uint32_t *w, unsigned avail, unsigned idx, struct isa_inst *in)
{
  if (avail <= idx)
    return -1;
  in->literal = w[idx];
  in->size = (uint8_t)(4 * (idx + 1));
  return 0;
}

/* ---- scalar ---------------------------------------------------------------------------- */
static int sop(const uint32_t *w, unsigned avail, struct isa_inst *in)
{
  uint32_t w0 = w[0];
  const struct ent *e;
  in->size = 4;
  unsigned top9 = w0 >> 23;
  if (top9 == 0x17d) {
    in->fmt = ISA_SOP1;
    e = tab(G11_F_SOP1, (w0 >> 8) & 0xff);
    in->src[0] = sc(w0 & 0xff);
    in->dst = sc((w0 >> 16) & 0x7f);
    in->exec = isa_exec_sop1;
  } else if (top9 == 0x17e) {
    in->fmt = ISA_SOPC;
    e = tab(G11_F_SOPC, (w0 >> 16) & 0x7f);
    in->src[0] = sc(w0 & 0xff);
    in->src[1] = sc((w0 >> 8) & 0xff);
    in->exec = isa_exec_sopc;
  } else if (top9 == 0x17f) {
    in->fmt = ISA_SOPP;
    e = tab(G11_F_SOPP, (w0 >> 16) & 0x7f);
    in->simm = (int16_t)(w0 & 0xffff);
    in->exec = g11_exec_sopp;   /* branches on 32-bit masks; the new no-ops */
  } else if ((w0 >> 28) == 0xb) {
    in->fmt = ISA_SOPK;
    e = tab(G11_F_SOPK, (w0 >> 23) & 0x1f);
    in->dst = sc((w0 >> 16) & 0x7f);
    in->simm = (int16_t)(w0 & 0xffff);
    in->exec = isa_exec_sopk;
    if (e->name && !strcmp(e->name, "s_setreg_imm32_b32") && literal_at(w, avail, 1, in))
      return -1;
  } else {
    in->fmt = ISA_SOP2;
    e = tab(G11_F_SOP2, (w0 >> 23) & 0x7f);
    in->src[0] = sc(w0 & 0xff);
    in->src[1] = sc((w0 >> 8) & 0xff);
    in->dst = sc((w0 >> 16) & 0x7f);
    in->exec = isa_exec_sop2;
  }
  if ((in->src[0] == ISA_OP_LITERAL || in->src[1] == ISA_OP_LITERAL) && literal_at(w, avail, 1, in))
    return -1;
  in->name = e->name;
  if (!e->name)
    return -1;
  in->op = (uint16_t)(e->op9 >= 0 ? e->op9 : 0xffff);
  if (e->op9 >= 0x5000) {
    in->exec = g12_exec_salu_half;
    in->op = (uint16_t)(e->op9 & 0xff);
  } else if (e->op9 >= 0x4000) {
    in->exec = g12_exec_salu_float;
    in->op = (uint16_t)(e->op9 & 0xff);
    if (in->fmt == ISA_SOP2 && (strstr(e->name, "fmaak") || strstr(e->name, "fmamk")) &&
        in->size == 4 && literal_at(w, avail, 1, in))
      return -1;
  } else if (in->fmt == ISA_SOP1 && (strstr(e->name, "exec_b32") || !strncmp(e->name, "s_sendmsg_rtn", 13)))
    in->exec = g11_exec_sop1;   /* wave32's EXEC, messages with a result */
  else if (in->fmt == ISA_SOP1 && !strncmp(e->name, "s_barrier_signal", 16))
    in->exec = g11_exec_nop;    /* gfx12: the wave arrives at s_barrier_wait */
  else if (in->fmt == ISA_SOPK && e->op9 < 0 &&
           (!strncmp(e->name, "s_waitcnt_", 10) || !strcmp(e->name, "s_version")))
    in->exec = g11_exec_nop;
  else if (in->fmt != ISA_SOPP && e->op9 < 0)
    return fail(in, NULL);
  return 0;
}

static int smem(const uint32_t *w, unsigned avail, struct isa_inst *in)
{
  uint32_t w0 = w[0];
  in->fmt = ISA_SMEM;
  in->size = 8;
  if (avail < 2)
    return -1;
  uint32_t w1 = w[1];
  const struct ent *e = tab(G11_F_SMEM, (w0 >> 18) & 0xff);
  in->saddr = (uint16_t)((w0 & 0x3f) << 1);
  in->sdst = in->dst = sc((w0 >> 6) & 0x7f);
  in->glc = (w0 >> 14) & 1;
  in->slc = (w0 >> 13) & 1;   /* dlc: kept for the text */
  in->imm_offset = true;
  in->offset = (int32_t)(w1 << 11) >> 11;
  unsigned so = (w1 >> 25) & 0x7f;
  in->soe = so != 124;
  in->soffset = in->soe ? sc(so) : 0xffff;
  in->name = e->name;
  if (!e->name)
    return -1;
  in->op = (uint16_t)(e->op9 >= 0 ? e->op9 : 0);
  static const uint8_t dw[5] = {1, 2, 4, 8, 16};
  unsigned low = in->op & 7;
  in->dwords = low < 5 ? dw[low] : 1;
  if (e->op9 < 0) {   /* s_gl1_inv, s_atc_probe*: cache hints */
    in->exec = g11_exec_nop;
    return 0;
  }
  in->exec = isa_exec_smem;
  return 0;
}

/* ---- VALU ------------------------------------------------------------------------------ */
static uint16_t vsrc(unsigned c)   /* 9-bit source code */
{
  return c >= 256 ? (uint16_t)c : sc(c);
}

/* The literal (or DPP dword) an instruction's sources call for, at dword `idx`. */
static int extras(const uint32_t *w, unsigned avail, unsigned idx, struct isa_inst *in)
{
  for (unsigned i = 0; i < 3; i++)
    if (in->src[i] == ISA_OP_LITERAL)
      return literal_at(w, avail, idx, in);
  return 0;
}

static void apply_flags(struct isa_inst *in, const struct valu_desc *d)
{
  if (d->flags & VALU_F_MAC)
    in->src[2] = in->dst;
  if (d->flags & VALU_F_NOSRC)
    in->src[0] = in->src[1] = in->src[2] = 0;
}

static int valu(const uint32_t *w, unsigned avail, struct isa_inst *in)
{
  uint32_t w0 = w[0];
  const struct ent *e;
  unsigned dpp_src = 0;
  in->size = 4;
  if ((w0 >> 26) == 0x35) {                           /* VOP3 / VOP3B */
    in->size = 8;
    if (avail < 2)
      return -1;
    uint32_t w1 = w[1];
    unsigned op = (w0 >> 16) & 0x3ff;
    e = tab(G11_F_VOP3, op);
    in->fmt = ISA_VOP3A;
    in->src[0] = vsrc(w1 & 0x1ff);
    in->src[1] = vsrc((w1 >> 9) & 0x1ff);
    in->src[2] = vsrc((w1 >> 18) & 0x1ff);
    in->dst = (uint16_t)(ISA_OP_VGPR0 + (w0 & 0xff));
    in->clamp = (w0 >> 15) & 1;
    in->opsel = (w0 >> 11) & 15;
    in->abs = (w0 >> 8) & 7;
    in->omod = (w1 >> 27) & 3;
    in->neg = (w1 >> 29) & 7;
    in->name = e->name;
    if (!e->name)
      return -1;
    if (in->src[0] == 250 || in->src[0] == 233 || in->src[0] == 234)
      dpp_src = in->src[0];
    else if (extras(w, avail, 2, in))
      return -1;
    const struct valu_desc *d = e->d;
    if (!d)
      return fail(in, NULL);
    in->op = d->op;
    in->exec = d->fn;
    if (op < 0x100) {                                 /* VOPC: the mask to an SGPR */
      in->sdst = strstr(e->name, "v_cmpx") ? ISA_OP_NULL : sc(w0 & 0xff);
      in->dst = 0;
    } else if (d->flags & VALU_F_VOP3B) {
      in->fmt = ISA_VOP3B;
      in->sdst = sc((w0 >> 8) & 0x7f);
      in->abs = 0;
      in->opsel = 0;
    }
    if (d->flags & VALU_F_SDST)
      in->dst = sc(w0 & 0xff);
    if (d->flags & VALU_F_MAC)
      in->src[2] = in->dst;
    if (d->flags & VALU_F_NOSRC)
      in->src[0] = in->src[1] = in->src[2] = 0;
  } else if ((w0 >> 24) == 0xcc) {                    /* VOP3P */
    in->size = 8;
    if (avail < 2)
      return -1;
    uint32_t w1 = w[1];
    e = tab(G11_F_VOP3P, (w0 >> 16) & 0x7f);
    in->fmt = ISA_VOP3P;
    in->src[0] = vsrc(w1 & 0x1ff);
    in->src[1] = vsrc((w1 >> 9) & 0x1ff);
    in->src[2] = vsrc((w1 >> 18) & 0x1ff);
    in->dst = (uint16_t)(ISA_OP_VGPR0 + (w0 & 0xff));
    in->neg_hi = (w0 >> 8) & 7;
    in->opsel = (w0 >> 11) & 7;
    in->opsel_hi = (uint8_t)(((w1 >> 27) & 3) | ((w0 >> 14) & 1) << 2);
    in->clamp = (w0 >> 15) & 1;
    in->neg = (w1 >> 29) & 7;
    in->name = e->name;
    if (!e->name)
      return -1;
    if (extras(w, avail, 2, in))
      return -1;
    if (!e->d)
      return fail(in, NULL);
    in->op = e->d->op;
    in->exec = e->d->fn;
    apply_flags(in, e->d);
  } else {
    unsigned kind = (w0 >> 25) == 0x3f ? 1 : (w0 >> 25) == 0x3e ? 2 : 0;
    in->src[0] = vsrc(w0 & 0x1ff);
    if (kind == 1) {                                  /* VOP1 */
      in->fmt = ISA_VOP1;
      e = tab(G11_F_VOP1, (w0 >> 9) & 0xff);
      in->dst = (uint16_t)(ISA_OP_VGPR0 + ((w0 >> 17) & 0xff));
    } else if (kind == 2) {                           /* VOPC */
      in->fmt = ISA_VOPC;
      e = tab(G11_F_VOPC, (w0 >> 17) & 0xff);
      in->src[1] = (uint16_t)(ISA_OP_VGPR0 + ((w0 >> 9) & 0xff));
      in->sdst = e->name && strstr(e->name, "v_cmpx") ? ISA_OP_NULL : ISA_OP_VCC_LO;
    } else {                                          /* VOP2 */
      in->fmt = ISA_VOP2;
      e = tab(G11_F_VOP2, (w0 >> 25) & 0x3f);
      in->src[1] = (uint16_t)(ISA_OP_VGPR0 + ((w0 >> 9) & 0xff));
      in->dst = (uint16_t)(ISA_OP_VGPR0 + ((w0 >> 17) & 0xff));
    }
    in->name = e->name;
    if (!e->name)
      return -1;
    unsigned s0 = in->src[0];
    if (s0 == 250 || s0 == 233 || s0 == 234) {
      in->size = 8;
      if (avail < 2)
        return -1;
      dpp_src = s0;
    } else if (s0 == ISA_OP_LITERAL && literal_at(w, avail, 1, in)) {
      return -1;
    }
    const struct valu_desc *d = e->d;
    if (!d)
      return fail(in, NULL);
    in->op = d->op;
    in->exec = d->fn;
    if (in->fmt == ISA_VOP2) {
      if (d->flags & VALU_F_CARRYIN)
        in->src[2] = ISA_OP_VCC_LO;
      if (d->flags & VALU_F_CARRYOUT)
        in->sdst = ISA_OP_VCC_LO;
      if (d->flags & (VALU_F_MADMK | VALU_F_MADAK)) {
        if (in->size != 4 || literal_at(w, avail, 1, in))
          return fail(in, NULL);
        if (d->flags & VALU_F_MADMK) {
          in->src[2] = in->src[1];
          in->src[1] = ISA_OP_LITERAL;
        } else {
          in->src[2] = ISA_OP_LITERAL;
        }
      }
    } else if (in->fmt == ISA_VOP1 && (d->flags & VALU_F_SDST)) {
      in->dst = sc((w0 >> 17) & 0xff);
    }
    apply_flags(in, d);
  }
  if (dpp_src) {
    unsigned at = in->size / 4 - 1;   /* the DPP dword follows the instruction's words */
    if (in->fmt == ISA_VOP3A || in->fmt == ISA_VOP3B) {
      in->size = 12;
      at = 2;
    }
    if (avail <= at)
      return -1;
    uint32_t x = w[at];
    in->dpp = true;
    in->src[0] = (uint16_t)(ISA_OP_VGPR0 + (x & 0xff));
    if (dpp_src == 250) {
      in->dpp_ctrl = (x >> 8) & 0x1ff;
      in->dpp_bound_ctrl = (x >> 19) & 1;
      if (in->fmt != ISA_VOP3A && in->fmt != ISA_VOP3B) {
        in->neg = (uint8_t)(((x >> 20) & 1) | ((x >> 22) & 1) << 1);
        in->abs = (uint8_t)(((x >> 21) & 1) | ((x >> 23) & 1) << 1);
      }
      in->dpp_bank_mask = (x >> 24) & 15;
      in->dpp_row_mask = (x >> 28) & 15;
      unsigned c = in->dpp_ctrl;   /* gfx10+: quad_perm, row_shl/shr/ror, row_mirror,
                                      row_half_mirror, row_share, row_xmask (FI ignored) */
      if (!(c <= 0xff || (c >= 0x101 && c <= 0x12f && (c & 15)) || c == 0x140 || c == 0x141 ||
            (c >= 0x150 && c <= 0x16f)))
        in->exec = NULL;
    } else {   /* DPP8: eight 3-bit lane selects, kept in `literal` (DPP8 has none) */
      in->dpp_ctrl = (uint16_t)(VALU_DPP8 | (dpp_src == 234 ? VALU_DPP8_FI : 0));
      in->literal = x >> 8;
      in->dpp_row_mask = in->dpp_bank_mask = 15;
      in->dpp_bound_ctrl = 1;   /* every lane in EXEC is written */
    }
  }
  return 0;
}

/* VOPD: X in the instruction's own fields, Y in G11_VOPD_Y_* (exec_gfx11.c runs both). */
static const char *const vopd_names[19] = {
  "v_dual_fmac_f32", "v_dual_fmaak_f32", "v_dual_fmamk_f32", "v_dual_mul_f32", "v_dual_add_f32",
  "v_dual_sub_f32", "v_dual_subrev_f32", "v_dual_mul_dx9_zero_f32", "v_dual_mov_b32",
  "v_dual_cndmask_b32", "v_dual_max_f32", "v_dual_min_f32", "v_dual_dot2acc_f32_f16",
  "v_dual_dot2acc_f32_bf16", NULL, NULL, "v_dual_add_nc_u32", "v_dual_lshlrev_b32",
  "v_dual_and_b32" };

const char *g11_vopd_name(unsigned op)
{
  return op < 19 ? vopd_names[op] : NULL;
}

static int vopd(const uint32_t *w, unsigned avail, struct isa_inst *in)
{
  in->size = 8;
  if (avail < 2)
    return -1;
  uint32_t w0 = w[0], w1 = w[1];
  unsigned opx = (w0 >> 22) & 15, opy = (w0 >> 17) & 31;
  in->fmt = ISA_VOP2;
  in->op = (uint16_t)opx;
  in->src[0] = vsrc(w0 & 0x1ff);
  in->src[1] = (uint16_t)(ISA_OP_VGPR0 + ((w0 >> 9) & 0xff));
  unsigned dx = w1 >> 24;
  in->dst = (uint16_t)(ISA_OP_VGPR0 + dx);
  G11_VOPD_Y_SRC0(in) = vsrc(w1 & 0x1ff);
  G11_VOPD_Y_SRC1(in) = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 9) & 0xff));
  G11_VOPD_Y_DST(in) = (uint16_t)(ISA_OP_VGPR0 + ((((w1 >> 17) & 0x7f) << 1) | ((dx & 1) ^ 1)));
  G11_VOPD_Y_OP(in) = (uint16_t)opy;
  in->name = opx < 14 ? vopd_names[opx] : NULL;
  if (!in->name || opy >= 19 || !vopd_names[opy]) {
    in->name = "unknown VOPD opcode";
    return fail(in, NULL);
  }
  bool lit = in->src[0] == ISA_OP_LITERAL || G11_VOPD_Y_SRC0(in) == ISA_OP_LITERAL ||
             opx == 1 || opx == 2 || opy == 1 || opy == 2;
  if (lit && literal_at(w, avail, 2, in))
    return -1;
  in->exec = g11_exec_vopd;
  return 0;
}

/* ---- memory ---------------------------------------------------------------------------- */
static unsigned data_dwords(const char *n)
{
  if (strstr(n, "_d16") && strstr(n, "format_"))   /* packed halves: two per VGPR */
    return (unsigned)(strlen(strstr(n, "format_") + 7) + 1) / 2;
  if (strstr(n, "_b128") || strstr(n, "_xyzw")) return 4;
  if (strstr(n, "_b96") || strstr(n, "_xyz")) return 3;
  if (strstr(n, "_b64") || strstr(n, "_u64") || strstr(n, "_i64") || strstr(n, "_f64") ||
      strstr(n, "_xy") || (strstr(n, "2addr") && !strstr(n, "_b64")))
    return 2;
  return 1;
}

static int mem(const uint32_t *w, unsigned avail, struct isa_inst *in)
{
  uint32_t w0 = w[0], w1;
  unsigned top6 = w0 >> 26;
  const struct ent *e;
  in->size = 8;
  if (avail < 2)
    return -1;
  w1 = w[1];
  switch (top6) {
  case 0x36:                                           /* DS */
    in->fmt = ISA_DS;
    e = tab(G11_F_DS, (w0 >> 18) & 0xff);
    in->offset0 = w0 & 0xff;
    in->offset1 = (w0 >> 8) & 0xff;
    in->offset = (int32_t)(w0 & 0xffff);
    in->gds = (w0 >> 17) & 1;
    in->addr = (uint16_t)(ISA_OP_VGPR0 + (w1 & 0xff));
    in->data = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 8) & 0xff));
    in->data1 = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 16) & 0xff));
    in->dst = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 24) & 0xff));
    if (e->name && strstr(e->name, "cmpstore")) {   /* gfx10+: data0 the new value, data1 the compare */
      uint16_t t = in->data;
      in->data = in->data1;
      in->data1 = t;
    }
    in->exec = isa_exec_ds;
    break;
  case 0x37: {                                         /* FLAT, SCRATCH, GLOBAL */
    in->seg = (w0 >> 16) & 3;
    in->fmt = in->seg == 0 ? ISA_FLAT : in->seg == 1 ? ISA_SCRATCH : ISA_GLOBAL;
    e = tab(in->seg == 0 ? G11_F_FLAT : in->seg == 1 ? G11_F_SCRATCH : G11_F_GLOBAL, (w0 >> 18) & 0x7f);
    in->offset = in->seg == 0 ? (int32_t)(w0 & 0xfff) : (int32_t)(w0 << 19) >> 19;
    in->glc = (w0 >> 14) & 1;
    in->slc = (w0 >> 15) & 1;
    in->sc1 = (w0 >> 13) & 1;   /* dlc */
    in->addr = (uint16_t)(ISA_OP_VGPR0 + (w1 & 0xff));
    in->data = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 8) & 0xff));
    unsigned s = (w1 >> 16) & 0x7f;
    in->saddr = s == 124 ? 0x7f : s;
    in->sve = in->seg == 1 && ((w1 >> 23) & 1);
    in->dst = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 24) & 0xff));
    in->exec = isa_exec_flat;
    break;
  }
  case 0x38:                                           /* MUBUF */
  case 0x3a:                                           /* MTBUF */
    in->fmt = top6 == 0x38 ? ISA_MUBUF : ISA_MTBUF;
    in->offset = (int32_t)(w0 & 0xfff);
    in->slc = (w0 >> 12) & 1;
    in->sc1 = (w0 >> 13) & 1;   /* dlc */
    in->glc = (w0 >> 14) & 1;
    if (top6 == 0x38) {
      in->lds = (w0 >> 16) & 1;
      e = tab(G11_F_MUBUF, (w0 >> 18) & 0xff);
    } else {
      e = tab(G11_F_MTBUF, (w0 >> 15) & 0xf);
      in->dfmt = (w0 >> 19) & 0x7f;   /* the unified format */
    }
    in->addr = (uint16_t)(ISA_OP_VGPR0 + (w1 & 0xff));
    in->data = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 8) & 0xff));
    in->saddr = (uint16_t)(((w1 >> 16) & 0x1f) << 2);
    in->tfe = (w1 >> 21) & 1;
    in->offen = (w1 >> 22) & 1;
    in->idxen = (w1 >> 23) & 1;
    in->soffset = sc((w1 >> 24) & 0xff);
    in->exec = top6 == 0x38 ? isa_exec_mubuf : g11_exec_tbuffer;   /* unified formats */
    break;
  default:
    in->size = 4;
    return -1;
  }
  in->name = e->name;
  if (!e->name)
    return -1;
  in->dwords = (uint8_t)data_dwords(e->name);
  if (e->op9 < 0) {
    if (strstr(e->name, "_inv") || strstr(e->name, "_wb") || strstr(e->name, "ds_nop")) {
      /* buffer_gl0/gl1_inv, global_inv/wb: caches the model does not have */
      in->exec = g11_exec_nop;
      return 0;
    }
    return fail(in, NULL);
  }
  in->op = (uint16_t)e->op9;
  return 0;
}

/* MIMG (0x3c): nsa w0[0] (then one more dword of vaddr1..4), dim [4:2], unorm [7], dmask
 * [11:8], slc/dlc/glc [14:12], r128 [15], a16 [16], d16 [17], op [25:18]; vaddr0 w1[7:0],
 * vdata [15:8], srsrc [20:16] (x4), tfe [21], lwe [22], ssamp [30:26] (x4). exec_mimg.c
 * reads the fields from in->words by target. */
static int mimg11(const uint32_t *w, unsigned avail, struct isa_inst *in)
{
  uint32_t w0 = w[0];
  bool nsa = w0 & 1;
  in->fmt = ISA_MIMG;
  in->size = nsa ? 12 : 8;
  if (avail < in->size / 4u)
    return -1;
  uint32_t w1 = w[1];
  unsigned op = (w0 >> 18) & 0xff;
  const char *name = NULL;
  for (unsigned i = 0; i < g11_mimg_count; i++)
    if (g11_mimg[i].op == op)
      name = g11_mimg[i].name;
  in->name = name;
  if (!name)
    return -1;
  in->dmask = (w0 >> 8) & 0xf;
  in->glc = (w0 >> 14) & 1;
  in->slc = (w0 >> 12) & 1;
  in->tfe = (w1 >> 21) & 1;
  in->addr = (uint16_t)(ISA_OP_VGPR0 + (w1 & 0xff));
  in->data = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 8) & 0xff));
  in->saddr = (uint16_t)(((w1 >> 16) & 0x1f) << 2);
  unsigned n = (unsigned)__builtin_popcount(in->dmask ? in->dmask : 1);
  if (!strncmp(name, "image_gather4", 13))
    n = 4;
  if ((w0 >> 17) & 1)
    n = (n + 1) / 2;
  in->dwords = (uint8_t)(n + in->tfe);
  int op9 = find9(isa_mimg_names, 128, name);
  if (op9 < 0)
    return fail(in, NULL);
  in->op = (uint16_t)op9;
  in->exec = isa_exec_mimg;
  return 0;
}

/* ---- gfx12's own layouts ---- */
static int smem12(const uint32_t *w, unsigned avail, struct isa_inst *in)
{
  uint32_t w0 = w[0];
  in->fmt = ISA_SMEM;
  in->size = 8;
  if (avail < 2)
    return -1;
  uint32_t w1 = w[1];
  const struct ent *e = tab(G11_F_SMEM, (w0 >> 13) & 0x3f);
  in->saddr = (uint16_t)((w0 & 0x3f) << 1);
  in->sdst = in->dst = sc((w0 >> 6) & 0x7f);
  in->dfmt = (w0 >> 21) & 0x1f;   /* th, scope: kept for the text */
  in->imm_offset = true;
  in->offset = (int32_t)(w1 << 8) >> 8;
  unsigned so = (w1 >> 25) & 0x7f;
  in->soe = so != 124;
  in->soffset = in->soe ? sc(so) : 0xffff;
  in->name = e->name;
  if (!e->name)
    return -1;
  in->op = (uint16_t)(e->op9 >= 0 ? e->op9 : 0);
  static const uint8_t dw[5] = {1, 2, 4, 8, 16};
  unsigned low = in->op & 7;
  in->dwords = strstr(e->name, "_b96") ? 3 : low < 5 ? dw[low] : 1;
  if (e->op9 < 0) {
    if (strstr(e->name, "prefetch") || strstr(e->name, "atc_probe")) {
      in->exec = g11_exec_nop;
      return 0;
    }
    if (strstr(e->name, "load_u8") || strstr(e->name, "load_i8") || strstr(e->name, "load_u16") ||
        strstr(e->name, "load_i16")) {
      in->dwords = 1;
      in->exec = g12_exec_smem_sub;   /* exec_rdna_salu.c */
      return 0;
    }
    return fail(in, NULL);
  }
  in->exec = isa_exec_smem;
  return 0;
}

/* VFLAT/VGLOBAL/VSCRATCH (0x3b) and VBUFFER (0x31): 12 bytes, 24-bit offsets */
static int vmem12(const uint32_t *w, unsigned avail, struct isa_inst *in)
{
  uint32_t w0 = w[0];
  in->size = 12;
  if (avail < 3)
    return -1;
  uint32_t w1 = w[1], w2 = w[2];
  const struct ent *e;
  in->glc = (w1 >> 20) & 1;            /* th[0]: returns the pre-op value for atomics */
  in->dfmt = (w1 >> 18) & 0x1f;        /* th, scope: for the text */
  in->offset = (int32_t)w2 >> 8;
  in->addr = (uint16_t)(ISA_OP_VGPR0 + (w2 & 0xff));
  in->data = (uint16_t)(ISA_OP_VGPR0 + ((w1 >> 23) & 0xff));
  in->dst = (uint16_t)(ISA_OP_VGPR0 + (w1 & 0xff));
  if ((w0 >> 26) == 0x3b) {
    in->seg = (w0 >> 24) & 3;
    in->fmt = in->seg == 0 ? ISA_FLAT : in->seg == 1 ? ISA_SCRATCH : ISA_GLOBAL;
    e = tab(in->seg == 0 ? G11_F_FLAT : in->seg == 1 ? G11_F_SCRATCH : G11_F_GLOBAL, (w0 >> 14) & 0x7f);
    unsigned s = w0 & 0x7f;
    in->saddr = s == 124 ? 0x7f : s;
    in->sve = in->seg == 1 && ((w1 >> 17) & 1);
    in->exec = isa_exec_flat;
  } else {
    in->fmt = ISA_MUBUF;
    unsigned op = (w0 >> 14) & 0xff;
    e = tab(G11_F_MUBUF, op);
    if (op >= 0x80)
      in->fmt = ISA_MTBUF;
    in->soffset = sc(w0 & 0x7f);
    in->saddr = (uint16_t)((w1 >> 9) & 0x7f);
    in->nfmt = (w1 >> 23) & 0x7f;       /* tbuffer's format */
    in->data = (uint16_t)(ISA_OP_VGPR0 + (w1 & 0xff));
    in->dst = in->data;
    in->tfe = (w0 >> 22) & 1;
    in->offen = (w1 >> 30) & 1;
    in->idxen = (w1 >> 31) & 1;
    if (in->offset < 0)
      in->offset &= 0xffffff;          /* unsigned in VBUFFER */
    in->exec = in->fmt == ISA_MUBUF ? isa_exec_mubuf : g11_exec_tbuffer;
  }
  in->name = e->name;
  if (!e->name)
    return -1;
  in->dwords = (uint8_t)data_dwords(e->name);
  if (e->op9 < 0) {
    if (strstr(e->name, "_inv") || strstr(e->name, "_wb")) {
      in->exec = g11_exec_nop;
      return 0;
    }
    if (in->fmt == ISA_MTBUF)   /* gfx9's MUBUF names lack tbuffer: by name (exec_rdna.c) */
      return 0;
    return fail(in, NULL);
  }
  in->op = (uint16_t)e->op9;
  return 0;
}

int isa_decode_gfx11(const uint32_t *w, unsigned avail, uint64_t pc, struct isa_inst *in)
{
  (void)pc;
  uint32_t w0 = w[0];
  unsigned top6 = w0 >> 26;
  if ((w0 >> 30) == 2)
    return sop(w, avail, in);
  bool g12 = in->target == ISA_TARGET_GFX1201;
  if (top6 == 0x3d)
    return g12 ? smem12(w, avail, in) : smem(w, avail, in);
  if (g12 && (top6 == 0x3b || top6 == 0x31))
    return vmem12(w, avail, in);
  if (g12 && (top6 == 0x34 || top6 == 0x39))
    return g12_decode_image(w, avail, in);   /* VIMAGE, VSAMPLE: decode_gfx12_image.c */
  if (top6 == 0x32)
    return vopd(w, avail, in);
  if (!g12 && top6 == 0x3c)
    return mimg11(w, avail, in);
  if (!(w0 >> 31) || top6 == 0x35 || (w0 >> 24) == 0xcc)
    return valu(w, avail, in);
  return mem(w, avail, in);
}
