/* SPDX-License-Identifier: MIT */
/* text.c — the bounded text buffer and common operand spellings of describe.c and
 * describe_gfx11.c (text.h). */
#include "isa/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void isa_text_put(struct isa_text *o, const char *fmt, ...)
{
  if (o->n >= o->size)
    return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(o->p + o->n, o->size - o->n, fmt, ap);
  va_end(ap);
  if (k > 0)
    o->n = o->n + (unsigned)k < o->size ? o->n + (unsigned)k : o->size - 1;
}

const char *const isa_text_float[9] = {"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0",
                                       "-4.0", "0.15915494"};

bool isa_text_reg_or_const(struct isa_text *o, unsigned code, unsigned dwords)
{
  if (code >= ISA_OP_VGPR0) {
    char c = code >= ISA_OP_AGPR0 ? 'a' : 'v';
    unsigned r = code - (code >= ISA_OP_AGPR0 ? ISA_OP_AGPR0 : ISA_OP_VGPR0);
    if (dwords <= 1) isa_text_put(o, "%c%u", c, r); else isa_text_put(o, "%c[%u:%u]", c, r, r + dwords - 1);
    return true;
  }
  if (code <= ISA_OP_SGPR_LAST) {
    if (dwords <= 1) isa_text_put(o, "s%u", code); else isa_text_put(o, "s[%u:%u]", code, code + dwords - 1);
    return true;
  }
  if (code >= ISA_OP_TTMP0 && code < ISA_OP_TTMP0 + 16) {
    unsigned r = code - ISA_OP_TTMP0;
    if (dwords <= 1) isa_text_put(o, "ttmp%u", r); else isa_text_put(o, "ttmp[%u:%u]", r, r + dwords - 1);
    return true;
  }
  if (code >= ISA_OP_ZERO && code <= 208) {
    isa_text_put(o, "%d", code <= 192 ? (int)code - 128 : 192 - (int)code);
    return true;
  }
  if (code >= ISA_OP_F_HALF && code <= ISA_OP_INV_2PI) {
    isa_text_put(o, "%s", isa_text_float[code - ISA_OP_F_HALF]);
    return true;
  }
  return false;
}

void isa_text_literal(struct isa_text *o, const struct isa_inst *in, bool float_ok)
{
  static const uint32_t fbits[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                    0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
  int32_t v = (int32_t)in->literal;
  if (v >= -16 && v <= 64) {
    isa_text_put(o, "%d", v);
    return;
  }
  for (unsigned i = 0; float_ok && i < 9; i++)
    if (in->literal == fbits[i]) {
      isa_text_put(o, "%s", isa_text_float[i]);
      return;
    }
  isa_text_put(o, "0x%x", in->literal);
}

void isa_text_buffer(struct isa_text *o, const struct isa_inst *in, isa_text_opnd_fn *opnd,
                     void (*format)(struct isa_text *o, const struct isa_inst *in))
{
  bool cmpswap = strstr(in->name, "atomic") && strstr(in->name, "cmpswap");
  opnd(o, in, in->data, cmpswap ? 2 * in->dwords : in->dwords);
  isa_text_put(o, ", ");
  if (in->offen && in->idxen) opnd(o, in, in->addr, 2);
  else if (in->offen || in->idxen) opnd(o, in, in->addr, 1);
  else isa_text_put(o, "off");
  isa_text_put(o, ", ");
  opnd(o, in, in->saddr, 4);
  isa_text_put(o, ", ");
  opnd(o, in, in->soffset, 1);
  if (format)
    format(o, in);
  if (in->idxen) isa_text_put(o, " idxen");
  if (in->offen) isa_text_put(o, " offen");
  if (in->offset) isa_text_put(o, " offset:%d", in->offset);
}

void isa_text_flat(struct isa_text *o, const struct isa_inst *in, isa_text_opnd_fn *opnd,
                   bool scratch_vaddr)
{
  bool atomic = strstr(in->name, "atomic") != NULL, store = strstr(in->name, "store") != NULL;
  bool rtn = atomic ? in->glc : !store;
  unsigned nd = in->dwords;
  unsigned ad = in->fmt == ISA_FLAT || (in->fmt == ISA_GLOBAL && in->saddr == 0x7f) ? 2 : 1;
  unsigned dd = atomic && strstr(in->name, "cmpswap") ? 2 * nd : nd;
  if (rtn) { opnd(o, in, in->dst, nd); isa_text_put(o, ", "); }
  if (in->fmt == ISA_SCRATCH && !scratch_vaddr) isa_text_put(o, "off");
  else opnd(o, in, in->addr, ad);
  if (store || atomic) { isa_text_put(o, ", "); opnd(o, in, in->data, dd); }
  if (in->fmt != ISA_FLAT) {
    isa_text_put(o, ", ");
    if (in->saddr == 0x7f) isa_text_put(o, "off");
    else opnd(o, in, in->saddr, in->fmt == ISA_GLOBAL ? 2 : 1);
  }
  if (in->offset) isa_text_put(o, " offset:%d", in->offset);
}

/* Registers a VALU type token (f64, i32, b16, ubyte0 ...) spans */
static unsigned type_width(const char *t, size_t len)
{
  return len >= 3 && strchr("fiub", t[0]) && t[len - 2] == '6' && t[len - 1] == '4' ? 2 : 1;
}

void isa_text_widths(const char *name, bool ubyte, unsigned *dw, unsigned *sw)
{
  const char *tok[8];
  size_t len[8];
  unsigned k = 0;
  for (const char *p = name; *p && k < 8;) {
    const char *e = strchr(p, '_');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if ((l >= 2 && strchr("fiub", p[0]) && p[1] >= '0' && p[1] <= '9') ||
        (ubyte && l >= 5 && !strncmp(p, "ubyte", 5))) {
      tok[k] = p;
      len[k++] = l;
    }
    if (!e)
      break;
    p = e + 1;
  }
  *dw = *sw = k ? type_width(tok[k - 1], len[k - 1]) : 1;
  if (k >= 2)
    *dw = type_width(tok[k - 2], len[k - 2]);
}
