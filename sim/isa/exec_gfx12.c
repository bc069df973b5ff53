/* SPDX-License-Identifier: MIT */
/* exec_gfx12.c — gfx12's SALU float operations (SOP2 s_add_f32 ... s_fmac_f32, SOP1
 * conversions and roundings, SOPC s_cmp_*_f32): IEEE single precision in an SGPR, rounded
 * to nearest even; f32 denormals as MODE says (the VALU's rules, fp.h); s_add_nc_u64,
 * s_sub_nc_u64, s_mul_u64; v_s_* (a transcendental on a scalar, into an SGPR). The f16
 * forms are not modelled (they fault as illegal). */
#include "isa/exec.h"
#include "isa/gfx11.h"

#include <math.h>
#include <string.h>

static const char *const ops[] = {
  "s_add_f32", "s_sub_f32", "s_min_num_f32", "s_max_num_f32", "s_mul_f32", "s_fmaak_f32",
  "s_fmamk_f32", "s_fmac_f32", "s_ceil_f32", "s_floor_f32", "s_trunc_f32", "s_rndne_f32",
  "s_cvt_f32_i32", "s_cvt_f32_u32", "s_cvt_i32_f32", "s_cvt_u32_f32", "s_cmp_lt_f32",
  "s_cmp_eq_f32", "s_cmp_le_f32", "s_cmp_gt_f32", "s_cmp_lg_f32", "s_cmp_ge_f32",
  "s_cmp_o_f32", "s_cmp_u_f32", "s_cmp_nge_f32", "s_cmp_nlg_f32", "s_cmp_ngt_f32",
  "s_cmp_nle_f32", "s_cmp_neq_f32", "s_cmp_nlt_f32",
  "s_add_nc_u64", "s_sub_nc_u64", "s_mul_u64" };   /* and gfx12's 64-bit SALU arithmetic */

bool g12_salu_float(const char *name)
{
  for (unsigned i = 0; i < sizeof ops / sizeof *ops; i++)
    if (!strcmp(ops[i], name))
      return true;
  return false;
}

static float rd(const struct isa_wave *w, const struct isa_inst *in, unsigned i)
{
  return fp_in32(isa_sread(w, in, in->src[i]), w->mode & FP_MODE_DENORM_F32_IN);
}

static uint32_t cvt_sat_i(float f)
{
  if (isnan(f)) return 0;
  if (f >= 2147483648.0f) return 0x7fffffffu;
  if (f <= -2147483648.0f) return 0x80000000u;
  return (uint32_t)(int32_t)f;
}

static uint32_t cvt_sat_u(float f)
{
  if (isnan(f) || f <= 0.0f) return 0;
  if (f >= 4294967296.0f) return 0xffffffffu;
  return (uint32_t)f;
}

/* s_cmp_<cond>_f16/_f32: the condition's name (the part after "cmp_") on two values; f16 and
 * f32 are exact in double, so one comparison serves both widths. */
bool g12_scmp_float(const char *c, double a, double b)
{
  bool u = isnan(a) || isnan(b);
  if (!strncmp(c, "lt_", 3)) return a < b;
  if (!strncmp(c, "eq_", 3)) return a == b;
  if (!strncmp(c, "le_", 3)) return a <= b;
  if (!strncmp(c, "gt_", 3)) return a > b;
  if (!strncmp(c, "lg_", 3)) return a < b || a > b;
  if (!strncmp(c, "ge_", 3)) return a >= b;
  if (!strncmp(c, "o_", 2)) return !u;
  if (!strncmp(c, "u_", 2)) return u;
  if (!strncmp(c, "nge_", 4)) return !(a >= b);
  if (!strncmp(c, "nlg_", 4)) return !(a < b || a > b);
  if (!strncmp(c, "ngt_", 4)) return !(a > b);
  if (!strncmp(c, "nle_", 4)) return !(a <= b);
  if (!strncmp(c, "neq_", 4)) return !(a == b);
  return !(a < b);   /* nlt */
}

int g12_exec_salu_float(struct isa_wave *w, const struct isa_inst *in)
{
  const char *n = in->name + 2;   /* past "s_" */
  if (strstr(n, "_u64")) {        /* 64-bit integer: SCC unchanged */
    uint64_t x = isa_read_s64(w, in, in->src[0], ISA_T_B64), y = isa_read_s64(w, in, in->src[1], ISA_T_B64);
    isa_write_s64(w, in->dst, n[0] == 'a' ? x + y : n[0] == 's' ? x - y : x * y);
    w->pc += in->size;
    return 0;
  }
  bool dout = w->mode & FP_MODE_DENORM_F32_OUT;
  float a = rd(w, in, 0), f = 0;
  uint32_t d;
  if (!strncmp(n, "cmp_", 4)) {
    float b = rd(w, in, 1);
    w->scc = g12_scmp_float(n + 4, a, b);
    w->pc += in->size;
    return 0;
  }
  if (!strcmp(n, "cvt_f32_i32")) f = (float)(int32_t)isa_sread(w, in, in->src[0]);
  else if (!strcmp(n, "cvt_f32_u32")) f = (float)isa_sread(w, in, in->src[0]);
  else if (!strcmp(n, "cvt_i32_f32")) { d = cvt_sat_i(a); goto out; }
  else if (!strcmp(n, "cvt_u32_f32")) { d = cvt_sat_u(a); goto out; }
  else if (!strcmp(n, "ceil_f32")) f = ceilf(a);
  else if (!strcmp(n, "floor_f32")) f = floorf(a);
  else if (!strcmp(n, "trunc_f32")) f = truncf(a);
  else if (!strcmp(n, "rndne_f32")) f = rintf(a);
  else {
    float b = rd(w, in, 1);
    if (!strcmp(n, "add_f32")) f = a + b;
    else if (!strcmp(n, "sub_f32")) f = a - b;
    else if (!strcmp(n, "mul_f32")) f = a * b;
    else if (!strcmp(n, "min_num_f32")) f = fminf(a, b);
    else if (!strcmp(n, "max_num_f32")) f = fmaxf(a, b);
    else if (!strcmp(n, "fmac_f32"))
      f = fmaf(a, b, fp_in32(isa_sread(w, in, in->dst), w->mode & FP_MODE_DENORM_F32_IN));
    else if (!strcmp(n, "fmaak_f32")) f = fmaf(a, b, fp_in32(in->literal, w->mode & FP_MODE_DENORM_F32_IN));
    else if (!strcmp(n, "fmamk_f32")) f = fmaf(a, fp_in32(in->literal, w->mode & FP_MODE_DENORM_F32_IN), b);
    else return isa_unknown(w, in);
  }
  d = fp_out32(f, dout);
out:
  isa_swrite(w, in->dst, d);
  w->pc += in->size;
  return 0;
}

/* v_s_exp/log/rcp/rsq/sqrt_f32: VOP3 on a scalar source with an SGPR result (gfx12) */
int g12_exec_v_s_f32(struct isa_wave *w, const struct isa_inst *in)
{
  float a = fp_in32(isa_read_s32(w, in, in->src[0]), w->mode & FP_MODE_DENORM_F32_IN), f;
  if (in->abs & 1) a = fabsf(a);
  if (in->neg & 1) a = -a;
  const char *n = in->name + 4;   /* past "v_s_" */
  if (!strncmp(n, "exp", 3)) f = exp2f(a);
  else if (!strncmp(n, "log", 3)) f = log2f(a);
  else if (!strncmp(n, "rcp", 3)) f = 1.0f / a;
  else if (!strncmp(n, "rsq", 3)) f = 1.0f / sqrtf(a);
  else f = sqrtf(a);
  if (in->clamp) f = f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
  isa_swrite(w, in->dst, fp_out32(f, w->mode & FP_MODE_DENORM_F32_OUT));
  w->pc += in->size;
  return 0;
}
