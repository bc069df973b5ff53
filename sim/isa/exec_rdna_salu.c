/* SPDX-License-Identifier: MIT */
/* exec_rdna_salu.c — gfx12's 16-bit SALU float operations and the SALU IEEE minimum/maximum
 * (the f32 forms are in exec_gfx12.c), and gfx12's sub-dword scalar loads (at the end):
 *   SOP2 s_add/sub/mul/min_num/max_num/minimum/maximum_f16, s_fmac_f16 (D = S0 * S1 + D),
 *   s_minimum/maximum_f32, s_cvt_pk_rtz_f16_f32 (two f32 to two f16, toward zero);
 *   SOP1 s_cvt_f16_f32, s_cvt_f32_f16, s_cvt_hi_f32_f16 (S0[31:16]), s_ceil/floor/trunc/
 *   rndne_f16; SOPC s_cmp_*_f16 (SCC).
 * 16-bit sources are bits 15:0 of the SGPR or literal (inline float constants as f16); a
 * 16-bit result is written to bits
 * 15:0 with bits 31:16 zero (an SGPR is written whole). Arithmetic is exact in double and
 * rounded once to f16 (nearest even); s_fmac_f16 rounds its exact product-sum once too
 * (within double's 53 bits for every f16 input). min_num/max_num return the number when one
 * side is NaN; minimum/maximum return NaN and order -0 below +0. */
#include "isa/exec.h"
#include "isa/gfx11.h"

#include <math.h>
#include <string.h>

static const char *const ops[] = {
  "s_add_f16", "s_sub_f16", "s_mul_f16", "s_min_num_f16", "s_max_num_f16", "s_minimum_f16",
  "s_maximum_f16", "s_fmac_f16", "s_minimum_f32", "s_maximum_f32", "s_cvt_pk_rtz_f16_f32",
  "s_cvt_f16_f32", "s_cvt_f32_f16", "s_cvt_hi_f32_f16", "s_ceil_f16", "s_floor_f16",
  "s_trunc_f16", "s_rndne_f16", "s_cmp_lt_f16", "s_cmp_eq_f16", "s_cmp_le_f16",
  "s_cmp_gt_f16", "s_cmp_lg_f16", "s_cmp_ge_f16", "s_cmp_o_f16", "s_cmp_u_f16",
  "s_cmp_nge_f16", "s_cmp_nlg_f16", "s_cmp_ngt_f16", "s_cmp_nle_f16", "s_cmp_neq_f16",
  "s_cmp_nlt_f16" };

bool g12_salu_half(const char *name)
{
  for (unsigned i = 0; i < sizeof ops / sizeof *ops; i++)
    if (!strcmp(ops[i], name))
      return true;
  return false;
}

/* A double to f16, rounded to nearest even once. */
static uint32_t h_of(double v)
{
  if (isnan(v))
    return 0x7e00u;
  uint32_t s = signbit(v) ? 0x8000u : 0;
  double a = fabs(v);
  if (a == 0)
    return s;
  int e;
  frexp(a, &e);                      /* a = m * 2^e, m in [0.5, 1) */
  int q = e - 11 < -24 ? -24 : e - 11;   /* the quantum: 11 significant bits, denormals 2^-24 */
  double r = nearbyint(ldexp(a, -q)) ;   /* default rounding mode: nearest even */
  double x = ldexp(r, q);
  if (x >= 65520.0 || isinf(a))
    return s | 0x7c00u;
  return s | fp_f32_to_f16((float)x);   /* exact now */
}

static double ieee_minmax(double x, double y, bool max)
{
  if (isnan(x) || isnan(y)) return NAN;
  if (x == y) return (signbit(x) != max) ? x : y;
  return (x < y) != max ? x : y;
}

/* A 16-bit source: an inline float constant (codes 240-248) is its f16 encoding */
static uint32_t rd16(const struct isa_wave *w, const struct isa_inst *in, unsigned i)
{
  static const uint16_t k[9] = { 0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400,
                                 0xc400, 0x3118 };
  unsigned c = in->src[i];
  return c >= 240 && c <= 248 ? k[c - 240] : isa_sread(w, in, c) & 0xffff;
}

int g12_exec_salu_half(struct isa_wave *w, const struct isa_inst *in)
{
  const char *n = in->name + 2;   /* past "s_" */
  bool f32src = strstr(n, "_f32") != NULL;   /* minimum/maximum_f32, the conversions from f32 */
  uint32_t u0 = f32src || !strcmp(n, "cvt_hi_f32_f16") ? isa_sread(w, in, in->src[0]) : rd16(w, in, 0);
  double a = fp_f16_to_f32(u0 & 0xffff), b = 0;
  if (in->fmt != ISA_SOP1)
    b = fp_f16_to_f32(rd16(w, in, 1));
  uint32_t d;
  if (!strncmp(n, "cmp_", 4)) {
    w->scc = g12_scmp_float(n + 4, a, b);
    w->pc += in->size;
    return 0;
  }
  if (!strcmp(n, "minimum_f32") || !strcmp(n, "maximum_f32")) {
    float x = fp_f(u0), y = fp_f(isa_sread(w, in, in->src[1]));
    double v = ieee_minmax(x, y, n[1] == 'a');
    d = isnan(v) ? 0x7fc00000u : fp_u((float)v);
  } else if (!strcmp(n, "cvt_pk_rtz_f16_f32")) {
    d = fp_f32_to_f16_rtz(fp_f(u0)) | fp_f32_to_f16_rtz(fp_f(isa_sread(w, in, in->src[1]))) << 16;
  } else if (!strcmp(n, "cvt_f16_f32")) {
    d = h_of(fp_f(u0));
  } else if (!strcmp(n, "cvt_f32_f16")) {
    d = fp_u(fp_f16_to_f32(u0 & 0xffff));
  } else if (!strcmp(n, "cvt_hi_f32_f16")) {
    d = fp_u(fp_f16_to_f32(u0 >> 16));
  } else if (!strcmp(n, "ceil_f16")) {
    d = h_of(ceil(a));
  } else if (!strcmp(n, "floor_f16")) {
    d = h_of(floor(a));
  } else if (!strcmp(n, "trunc_f16")) {
    d = h_of(trunc(a));
  } else if (!strcmp(n, "rndne_f16")) {
    d = h_of(nearbyint(a));
  } else if (!strcmp(n, "add_f16")) {
    d = h_of(a + b);
  } else if (!strcmp(n, "sub_f16")) {
    d = h_of(a - b);
  } else if (!strcmp(n, "mul_f16")) {
    d = h_of(a * b);
  } else if (!strcmp(n, "min_num_f16")) {
    d = h_of(fmin(a, b));
  } else if (!strcmp(n, "max_num_f16")) {
    d = h_of(fmax(a, b));
  } else if (!strcmp(n, "minimum_f16") || !strcmp(n, "maximum_f16")) {
    d = h_of(ieee_minmax(a, b, n[1] == 'a'));
  } else if (!strcmp(n, "fmac_f16")) {
    d = h_of(fma(a, b, fp_f16_to_f32(isa_sread(w, in, in->dst) & 0xffff)));
  } else {
    return isa_unknown(w, in);
  }
  isa_swrite(w, in->dst, d);
  w->pc += in->size;
  return 0;
}

/* gfx12's sub-dword scalar loads: s_load_u8/i8/u16/i16 at base + offset + soffset (a byte
 * address, not rounded down to a dword), s_buffer_load_* from the V#'s base with the
 * offsets checked against NUM_RECORDS (out of range reads 0); zero or sign extended to the
 * SGPR. A naturally aligned access is one host load of its width. */
int g12_exec_smem_sub(struct isa_wave *w, const struct isa_inst *in)
{
  const char *n = in->name;
  bool buffer = !strncmp(n, "s_buffer_", 9), sign = strstr(n, "_i8") || strstr(n, "_i16");
  unsigned bytes = strstr(n, "16") ? 2 : 1;
  uint32_t off = (uint32_t)in->offset, soff = 0, v = 0;
  if (in->soe && in->soffset != 0xffff)
    soff = (uint32_t)isa_read_s32(w, in, in->soffset);
  uint64_t addr;
  bool in_range = true;
  if (buffer) {
    uint32_t d0 = w->sgpr[in->saddr & 0x7f], d1 = w->sgpr[(in->saddr + 1) & 0x7f];
    uint32_t d2 = w->sgpr[(in->saddr + 2) & 0x7f];
    uint64_t o = (uint64_t)off + soff;
    addr = (d0 | (uint64_t)(d1 & 0xffff) << 32) + o;
    in_range = o + bytes <= d2;
  } else {
    addr = isa_read_s64(w, in, in->saddr, ISA_T_B64) + (uint64_t)(int64_t)in->offset + soff;
  }
  if (in_range) {
    const void *p = isa_mem_fast(w, addr, bytes, false);
    if (!p)
      return -1;
    if (bytes == 1) {
      v = __atomic_load_n((const uint8_t *)p, __ATOMIC_RELAXED);
      if (sign) v = (uint32_t)(int32_t)(int8_t)v;
    } else {
      uint16_t h;
      if (!(addr & 1))
        h = __atomic_load_n((const uint16_t *)p, __ATOMIC_RELAXED);
      else
        memcpy(&h, p, 2);
      v = sign ? (uint32_t)(int32_t)(int16_t)h : h;
    }
  }
  isa_write_s32(w, in->sdst, v);
  w->pc += in->size;
  return 0;
}
