/* SPDX-License-Identifier: MIT */
/* operand.c — reading and writing the operands every format shares: SGPRs and the special
 * scalar registers, inline constants (whose bits depend on the operand's type), the
 * literal dword, and per-lane VGPRs. Codes follow the 9-bit VOP3 source numbering. */
#include "isa/wave.h"

/* Inline float constants 240..247 (0.5 -0.5 1.0 -1.0 2.0 -2.0 4.0 -4.0) and 1/(2*pi), per type. */
static const uint16_t inl_f16[9] = {0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400,
                                    0x3118};
static const uint32_t inl_f32[9] = {0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000,
                                    0xc0000000, 0x40800000, 0xc0800000, 0x3e22f983};
static const uint64_t inl_f64[9] = {0x3fe0000000000000ull, 0xbfe0000000000000ull,
                                    0x3ff0000000000000ull, 0xbff0000000000000ull,
                                    0x4000000000000000ull, 0xc000000000000000ull,
                                    0x4010000000000000ull, 0xc010000000000000ull,
                                    0x3fc45f306dc9c882ull};

static inline int64_t inline_int(unsigned code)
{
  return code <= 192 ? (int64_t)code - 128 : 192 - (int64_t)code;
}

/* 64-bit value of a special (non-SGPR, non-constant) register code. */
static uint64_t special64(const struct isa_wave *w, unsigned code)
{
  const struct sim_isa_workgroup *wg = w->group ? w->group->wg : NULL;
  switch (code) {
  case ISA_OP_FLAT_SCR_LO: case ISA_OP_FLAT_SCR_HI: return w->flat_scratch;
  case ISA_OP_XNACK_LO: case ISA_OP_XNACK_HI: return w->xnack_mask;
  case ISA_OP_VCC_LO: case ISA_OP_VCC_HI: return w->vcc;
  case ISA_OP_EXEC_LO: case ISA_OP_EXEC_HI: return w->exec;
  case ISA_OP_M0: return w->m0;
  /* The aperture registers read as 64-bit values; a 32-bit read sees the (zero) low half. */
  case ISA_OP_SHARED_BASE: return wg ? wg->shared_base : 0;
  case ISA_OP_SHARED_LIMIT: return wg ? wg->shared_limit : 0;
  case ISA_OP_PRIVATE_BASE: return wg ? wg->private_base : 0;
  case ISA_OP_PRIVATE_LIMIT: return wg ? wg->private_limit : 0;
  case ISA_OP_VCCZ: return w->vcc == 0;
  case ISA_OP_EXECZ: return w->exec == 0;
  case ISA_OP_SCC: return w->scc;
  default: return 0;
  }
}

uint32_t isa_read_s32(const struct isa_wave *w, const struct isa_inst *in, unsigned code)
{
  if (code <= ISA_OP_SGPR_LAST)
    return w->sgpr[code];
  if (code >= ISA_OP_TTMP0 && code < ISA_OP_TTMP0 + 16)
    return w->ttmp[code - ISA_OP_TTMP0];
  if (code >= ISA_OP_ZERO && code <= 208)
    return (uint32_t)inline_int(code);
  if (code >= ISA_OP_F_HALF && code <= ISA_OP_INV_2PI)
    return inl_f32[code - ISA_OP_F_HALF];
  if (code == ISA_OP_LITERAL)
    return in ? in->literal : 0;
  if (code >= ISA_OP_VGPR0)
    return 0;   /* a VGPR in a scalar slot: decoders refuse it */
  uint64_t v = special64(w, code);
  return (code & 1) && code >= ISA_OP_FLAT_SCR_LO && code <= ISA_OP_EXEC_HI && code != ISA_OP_M0
             ? (uint32_t)(v >> 32) : (uint32_t)v;
}

uint64_t isa_read_s64(const struct isa_wave *w, const struct isa_inst *in, unsigned code,
                      enum isa_type t)
{
  if (code <= ISA_OP_SGPR_LAST)
    return w->sgpr[code] | (code < ISA_OP_SGPR_LAST ? (uint64_t)w->sgpr[code + 1] << 32 : 0);
  if (code >= ISA_OP_TTMP0 && code < ISA_OP_TTMP0 + 16)
    return w->ttmp[code - ISA_OP_TTMP0] |
           (code + 1 < ISA_OP_TTMP0 + 16 ? (uint64_t)w->ttmp[code + 1 - ISA_OP_TTMP0] << 32 : 0);
  if (code >= ISA_OP_ZERO && code <= 208)
    return (uint64_t)inline_int(code);
  if (code >= ISA_OP_F_HALF && code <= ISA_OP_INV_2PI) {
    unsigned i = code - ISA_OP_F_HALF;
    if (t == ISA_T_F32) return inl_f32[i];
    if (t == ISA_T_F16 || t == ISA_T_I16) return inl_f16[i];
    return inl_f64[i];   /* F64, B64, I64 */
  }
  if (code == ISA_OP_LITERAL) {
    uint32_t l = in ? in->literal : 0;
    /* A 32-bit literal in a 64-bit slot: the high half of a double, sign-extended for a
     * signed integer operand, zero-extended for the others (LLVM relies on exactly this). */
    if (t == ISA_T_F64) return (uint64_t)l << 32;
    if (t == ISA_T_I64) return (uint64_t)(int64_t)(int32_t)l;
    return l;
  }
  if (code >= ISA_OP_VGPR0)
    return 0;
  return special64(w, code);
}

void isa_write_s32(struct isa_wave *w, unsigned code, uint32_t v)
{
  if (code <= ISA_OP_SGPR_LAST) { w->sgpr[code] = v; return; }
  if (code >= ISA_OP_TTMP0 && code < ISA_OP_TTMP0 + 16) { w->ttmp[code - ISA_OP_TTMP0] = v; return; }
  uint64_t *r;
  switch (code) {
  case ISA_OP_M0: w->m0 = v; return;
  case ISA_OP_FLAT_SCR_LO: case ISA_OP_FLAT_SCR_HI: r = &w->flat_scratch; break;
  case ISA_OP_XNACK_LO: case ISA_OP_XNACK_HI: r = &w->xnack_mask; break;
  case ISA_OP_VCC_LO: case ISA_OP_VCC_HI: r = &w->vcc; break;
  case ISA_OP_EXEC_LO: case ISA_OP_EXEC_HI: r = &w->exec; break;
  default: return;   /* constants and read-only registers: writes are dropped */
  }
  if (code & 1)
    *r = (*r & 0xffffffffull) | (uint64_t)v << 32;
  else
    *r = (*r & ~0xffffffffull) | v;
}

void isa_write_s64(struct isa_wave *w, unsigned code, uint64_t v)
{
  switch (code) {
  case ISA_OP_NULL: return;
  case ISA_OP_FLAT_SCR_LO: w->flat_scratch = v; return;
  case ISA_OP_XNACK_LO: w->xnack_mask = v; return;
  case ISA_OP_VCC_LO: w->vcc = v; return;
  case ISA_OP_EXEC_LO: w->exec = v; return;
  default:
    isa_write_s32(w, code, (uint32_t)v);
    isa_write_s32(w, code + 1, (uint32_t)(v >> 32));
  }
}

uint32_t isa_read_v32(const struct isa_wave *w, const struct isa_inst *in, unsigned code,
                      unsigned lane, enum isa_type t)
{
  if (code >= ISA_OP_VGPR0)
    return w->vgpr[code - ISA_OP_VGPR0][lane];
  if (code >= ISA_OP_F_HALF && code <= ISA_OP_INV_2PI) {
    unsigned i = code - ISA_OP_F_HALF;
    if (t == ISA_T_F16 || t == ISA_T_I16) return inl_f16[i];
    if (t == ISA_T_F64 || t == ISA_T_B64 || t == ISA_T_I64) return (uint32_t)(inl_f64[i] >> 32);
    return inl_f32[i];
  }
  return isa_read_s32(w, in, code);
}

uint64_t isa_read_v64(const struct isa_wave *w, const struct isa_inst *in, unsigned code,
                      unsigned lane, enum isa_type t)
{
  if (code >= ISA_OP_VGPR0) {
    unsigned r = code - ISA_OP_VGPR0;
    return w->vgpr[r][lane] | (uint64_t)w->vgpr[r + 1][lane] << 32;
  }
  return isa_read_s64(w, in, code, t);
}
