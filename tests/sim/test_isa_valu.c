/* SPDX-License-Identifier: MIT */
/* test_isa_valu.c — the gfx9 VALU (sim/isa decode_vop*.c, exec_v*.c) against llvm-mc's
 * encodings and host arithmetic: instructions are assembled at test time, decoded with
 * isa_decode_valu and run on a hand-built wave; every lane is compared with a result the
 * host computes on its own. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev/catalog.h"
#include "isa/fp.h"
#include "isa/wave.h"

#define LLVM_MC "llvm-mc"
#define NL 64

static uint32_t vgprs[ISA_MAX_VGPRS + 4][NL];
static struct isa_wave W;

/* MODE: IEEE, DX10 clamp and all denormals kept (the kernel default of HIP on gfx9) */
#define MODE_DENORM 0x3f0u
#define MODE_FLUSH 0x300u

static void wave_reset(uint32_t mode)
{
  memset(&W, 0, sizeof W);
  memset(vgprs, 0, sizeof vgprs);
  W.vgpr = vgprs;
  W.exec = ~0ull;
  W.mode = mode;
}

/* deterministic random bits */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* A float with a spread of exponents, some denormals and zeros. */
static uint32_t rnd_f32(void)
{
  uint64_t r = rnd();
  uint32_t sign = (uint32_t)(r >> 63) << 31, mant = (uint32_t)r & 0x7fffff;
  switch ((r >> 32) & 7) {
  case 0: return sign | mant;                               /* denormal */
  case 1: return sign | (uint32_t)((r >> 40) & 7) << 23 | mant;   /* tiny normal */
  default: return sign | (uint32_t)(100 + ((r >> 40) % 56)) << 23 | mant;
  }
}

static double rnd_f64(int lo, int hi)
{
  uint64_t r = rnd();
  uint64_t e = (uint64_t)(1023 + lo + (int)((r >> 52) % (uint64_t)(hi - lo + 1)));
  return fp_d((r & (1ull << 63)) | e << 52 | (rnd() & 0xfffffffffffffull));
}

/* ---- assembling ---- */
struct prog {
  unsigned n;
  struct { uint32_t w[3]; unsigned nw; char text[96]; } inst[32];
};

static void assemble(const char *cpu, const char *text, struct prog *p)
{
  char path[] = "/tmp/test_isa_valuXXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  ck_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
  ck_assert(write(fd, "\n", 1) == 1);
  close(fd);
  char cmd[512];
  /* gfx940 (gfx942's encodings) needs LLVM 15; the default llvm-mc may be older */
  const char *mc = strcmp(cpu, "gfx940") ? LLVM_MC : "/usr/lib/llvm-15/bin/llvm-mc";
  snprintf(cmd, sizeof cmd, "%s -arch=amdgcn -mcpu=%s -show-encoding %s 2>&1", mc, cpu, path);
  FILE *f = popen(cmd, "r");
  ck_assert(f != NULL);
  char line[512];
  memset(p, 0, sizeof *p);
  while (fgets(line, sizeof line, f)) {
    ck_assert_msg(!strstr(line, "error"), "llvm-mc: %s (for %s)", line, text);
    char *e = strstr(line, "encoding: [");
    if (!e)
      continue;
    ck_assert(p->n < 32);
    uint8_t bytes[12];
    unsigned nb = 0;
    for (char *q = e + 11; *q && *q != ']' && nb < 12;) {
      bytes[nb++] = (uint8_t)strtoul(q, &q, 16);
      if (*q == ',') q++;
    }
    ck_assert(nb % 4 == 0);
    p->inst[p->n].nw = nb / 4;
    memcpy(p->inst[p->n].w, bytes, nb);
    char *t = line;
    while (*t == ' ' || *t == '\t') t++;
    snprintf(p->inst[p->n].text, sizeof p->inst[p->n].text, "%.*s", (int)(e - t), t);
    p->n++;
  }
  pclose(f);
  unlink(path);
  ck_assert_msg(p->n > 0, "nothing assembled from %s", text);
}

static uint8_t target_of(const char *cpu)
{
  if (!strcmp(cpu, "gfx906")) return ISA_TARGET_GFX906;
  if (!strcmp(cpu, "gfx90a")) return ISA_TARGET_GFX90A;
  if (!strcmp(cpu, "gfx940")) return ISA_TARGET_GFX942;   /* LLVM 15 spells gfx942 so */
  return ISA_TARGET_GFX900;
}

static void run_prog(const char *cpu, const struct prog *p)
{
  for (unsigned i = 0; i < p->n; i++) {
    struct isa_inst in;
    memset(&in, 0, sizeof in);
    in.target = target_of(cpu);
    int r = isa_decode_valu(p->inst[i].w, p->inst[i].nw, W.pc, &in);
    ck_assert_msg(r == 0, "decode of %s failed: %s", p->inst[i].text, in.name ? in.name : "?");
    ck_assert_uint_eq(in.size, p->inst[i].nw * 4);
    uint64_t pc = W.pc;
    ck_assert_int_eq(in.exec(&W, &in), 0);
    ck_assert(W.pc == pc + in.size);
  }
}

/* assemble and run (several lines allowed) */
static void run(const char *cpu, const char *text)
{
  struct prog p;
  assemble(cpu, text, &p);
  run_prog(cpu, &p);
}

static void set_f32(unsigned v, uint32_t (*gen)(void))
{
  for (unsigned l = 0; l < NL; l++)
    vgprs[v][l] = gen();
}

static void set64(unsigned v, unsigned l, uint64_t x)
{
  vgprs[v][l] = (uint32_t)x;
  vgprs[v + 1][l] = (uint32_t)(x >> 32);
}
static uint64_t get64(unsigned v, unsigned l) { return vgprs[v][l] | (uint64_t)vgprs[v + 1][l] << 32; }

static uint32_t ftz(uint32_t u) { return fp_isdenorm32(u) ? u & 0x80000000u : u; }

/* ---- f32 arithmetic and denormal modes ---- */
START_TEST(f32_arith_denormals)
{
  for (int flush = 0; flush < 2; flush++) {
    wave_reset(flush ? MODE_FLUSH : MODE_DENORM);
    for (int iter = 0; iter < 20; iter++) {
      set_f32(1, rnd_f32); set_f32(2, rnd_f32); set_f32(3, rnd_f32);
      run("gfx900", "v_add_f32 v10, v1, v2\nv_mul_f32 v11, v1, v2\nv_fma_f32 v12, v1, v2, v3\n"
                    "v_sub_f32 v13, v1, v2\nv_mad_f32 v14, v1, v2, v3\nv_mul_f32 v15, 0x3f000000, v1\n"
                    "v_add_f32_e64 v16, -v1, |v2| clamp\nv_mul_f32_e64 v17, v1, v2 mul:2");
      for (unsigned l = 0; l < NL; l++) {
        uint32_t a = vgprs[1][l], b = vgprs[2][l], c = vgprs[3][l];
        if (flush) { a = ftz(a); b = ftz(b); c = ftz(c); }
        float x = fp_f(a), y = fp_f(b), z = fp_f(c);
        uint32_t add = fp_u(x + y), mul = fp_u(x * y), fm = fp_u(fmaf(x, y, z)), sub = fp_u(x - y);
        uint32_t half = fp_u(0.5f * x);
        if (flush) { add = ftz(add); mul = ftz(mul); fm = ftz(fm); sub = ftz(sub); half = ftz(half); }
        volatile float p = fp_f(ftz(vgprs[1][l])) * fp_f(ftz(vgprs[2][l]));
        uint32_t mad = ftz(fp_u(fp_f(ftz(fp_u(p))) + fp_f(ftz(vgprs[3][l]))));
        float cl = -x + fabsf(y);
        cl = isnan(cl) ? 0.0f : cl < 0 ? 0.0f : cl > 1 ? 1.0f : cl;
        uint32_t m2 = fp_u(x * y * 2.0f);
        if (flush) m2 = ftz(fp_u(fp_f(mul) * 2.0f));
        ck_assert_msg(vgprs[10][l] == add, "add lane %u: %08x+%08x got %08x want %08x", l, a, b, vgprs[10][l], add);
        ck_assert_msg(vgprs[11][l] == mul, "mul lane %u", l);
        ck_assert_msg(vgprs[12][l] == fm, "fma lane %u: got %08x want %08x", l, vgprs[12][l], fm);
        ck_assert_msg(vgprs[13][l] == sub, "sub lane %u", l);
        ck_assert_msg(vgprs[14][l] == mad, "mad lane %u: got %08x want %08x", l, vgprs[14][l], mad);
        ck_assert_msg(vgprs[15][l] == half, "literal mul lane %u", l);
        if (!flush || !fp_isdenorm32(fp_u(cl)))
          ck_assert_msg(vgprs[16][l] == (flush ? ftz(fp_u(cl)) : fp_u(cl)) || fabsf(cl) == 0.0f,
                        "clamp lane %u: got %08x want %08x", l, vgprs[16][l], fp_u(cl));
        ck_assert_msg(vgprs[17][l] == m2 || isnan(fp_f(m2)), "omod lane %u", l);
      }
    }
    /* a denormal result is kept or flushed by the output half of the mode */
    for (unsigned l = 0; l < NL; l++) { vgprs[1][l] = 0x00800000u; vgprs[2][l] = 0x3f000000u; }
    run("gfx900", "v_mul_f32 v20, v1, v2");
    ck_assert_uint_eq(vgprs[20][5], flush ? 0u : 0x00400000u);
  }
}
END_TEST

START_TEST(f32_minmax_nan)
{
  const uint32_t qnan = 0x7fc00001u, snan = 0x7f800001u, one = 0x3f800000u;
  for (int ieee = 0; ieee < 2; ieee++) {
    wave_reset(ieee ? MODE_DENORM : MODE_DENORM & ~FP_MODE_IEEE);
    uint32_t a[6] = { qnan, one, snan, one, 0x80000000u, 0 };
    uint32_t b[6] = { one, qnan, one, snan, 0, 0x80000000u };
    for (unsigned l = 0; l < 6; l++) { vgprs[1][l] = a[l]; vgprs[2][l] = b[l]; }
    run("gfx900", "v_min_f32 v3, v1, v2\nv_max_f32 v4, v1, v2\nv_min3_f32 v5, v1, v2, v2\n"
                  "v_med3_f32 v6, v1, v2, 2.0");
    ck_assert_uint_eq(vgprs[3][0], one);
    ck_assert_uint_eq(vgprs[3][1], one);
    ck_assert_uint_eq(vgprs[4][0], one);
    if (ieee) {
      ck_assert_uint_eq(vgprs[3][2], snan | 0x00400000u);   /* sNaN quieted */
      ck_assert_uint_eq(vgprs[4][3], snan | 0x00400000u);
    } else {
      ck_assert_uint_eq(vgprs[3][2], one);
      ck_assert_uint_eq(vgprs[4][3], one);
    }
    ck_assert_uint_eq(vgprs[3][4], 0x80000000u);            /* min(-0, +0) = -0 */
    ck_assert_uint_eq(vgprs[3][5], 0x80000000u);
    ck_assert_uint_eq(vgprs[4][4], 0u);
    ck_assert_uint_eq(vgprs[4][5], 0u);
    ck_assert_uint_eq(vgprs[6][4], 0u);                     /* med3(-0, +0, 2) = +0 */
  }
  /* f64 */
  wave_reset(MODE_DENORM);
  set64(2, 0, 0x7ff8000000000000ull); set64(4, 0, fp_ud(2.5));
  run("gfx900", "v_max_f64 v[6:7], v[2:3], v[4:5]\nv_min_f64 v[8:9], v[4:5], v[2:3]");
  ck_assert(fp_d(get64(6, 0)) == 2.5 && fp_d(get64(8, 0)) == 2.5);
}
END_TEST

/* ---- division: LLVM's expansions give correctly rounded quotients ---- */
static const char fdiv64[] =
  "v_div_scale_f64 v[6:7], s[4:5], v[4:5], v[4:5], v[2:3]\n"
  "v_div_scale_f64 v[12:13], vcc, v[2:3], v[4:5], v[2:3]\n"
  "v_rcp_f64_e32 v[8:9], v[6:7]\n"
  "v_fma_f64 v[10:11], -v[6:7], v[8:9], 1.0\n"
  "v_fma_f64 v[8:9], v[8:9], v[10:11], v[8:9]\n"
  "v_fma_f64 v[10:11], -v[6:7], v[8:9], 1.0\n"
  "v_fma_f64 v[8:9], v[8:9], v[10:11], v[8:9]\n"
  "v_mul_f64 v[10:11], v[12:13], v[8:9]\n"
  "v_fma_f64 v[6:7], -v[6:7], v[10:11], v[12:13]\n"
  "v_div_fmas_f64 v[6:7], v[6:7], v[8:9], v[10:11]\n"
  "v_div_fixup_f64 v[14:15], v[6:7], v[4:5], v[2:3]";

static const char fdiv32[] =
  "v_div_scale_f32 v3, s[4:5], v2, v2, v4\n"
  "v_div_scale_f32 v5, vcc, v4, v2, v4\n"
  "v_rcp_f32_e32 v6, v3\n"
  "v_fma_f32 v7, -v3, v6, 1.0\n"
  "v_fma_f32 v6, v7, v6, v6\n"
  "v_mul_f32_e32 v7, v5, v6\n"
  "v_fma_f32 v8, -v3, v7, v5\n"
  "v_fma_f32 v7, v8, v6, v7\n"
  "v_fma_f32 v3, -v3, v7, v5\n"
  "v_div_fmas_f32 v3, v3, v6, v7\n"
  "v_div_fixup_f32 v10, v3, v2, v4";

START_TEST(f64_division_correctly_rounded)
{
  struct prog p;
  assemble("gfx900", fdiv64, &p);
  ck_assert_uint_eq(p.n, 11);
  wave_reset(MODE_DENORM);
  static const double special[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -3.0, 1e-310,
                                    0x1p-1022, 0x1.fffffffffffffp1023, 0x1p-1074, 7.0 };
  unsigned ns = sizeof special / sizeof special[0];
  for (int iter = 0; iter < 400; iter++) {
    double num[NL], den[NL];
    for (unsigned l = 0; l < NL; l++) {
      if (iter == 0) {
        num[l] = special[l % ns];
        den[l] = special[(l / ns + l) % ns];
      } else if (iter < 40) {             /* extreme ranges: overflow, underflow, denormals */
        num[l] = rnd_f64(-1074 + 60, 1023);
        den[l] = rnd_f64(-1022, 1023);
      } else if (iter < 80) {             /* quotients in the denormal range */
        num[l] = rnd_f64(-1000, -900);
        den[l] = rnd_f64(60, 170);
      } else {
        num[l] = rnd_f64(-300, 300);
        den[l] = rnd_f64(-300, 300);
      }
      set64(2, l, fp_ud(num[l]));
      set64(4, l, fp_ud(den[l]));
    }
    W.pc = 0;
    run_prog("gfx900", &p);
    for (unsigned l = 0; l < NL; l++) {
      double want = num[l] / den[l], got = fp_d(get64(14, l));
      if (isnan(want)) {
        ck_assert_msg(isnan(got), "%a / %a: got %a", num[l], den[l], got);
        continue;
      }
      ck_assert_msg(fp_ud(got) == fp_ud(want), "%a / %a: got %a want %a", num[l], den[l], got, want);
    }
  }
}
END_TEST

START_TEST(f32_division_correctly_rounded)
{
  struct prog p;
  assemble("gfx900", fdiv32, &p);
  wave_reset(MODE_DENORM);
  for (int iter = 0; iter < 400; iter++) {
    float num[NL], den[NL];
    for (unsigned l = 0; l < NL; l++) {
      num[l] = fp_f(iter < 40 ? rnd_f32() : (rnd_f32() & 0x83ffffffu) | 0x3c000000u);
      den[l] = fp_f(iter < 40 ? rnd_f32() : (rnd_f32() & 0x83ffffffu) | 0x3c000000u);
      if (iter >= 40 && iter < 80) {     /* quotients in the denormal range */
        num[l] = fp_f((rnd_f32() & 0x807fffffu) | (uint32_t)(1 + rnd() % 20) << 23);
        den[l] = fp_f((rnd_f32() & 0x807fffffu) | (uint32_t)(127 + 5 + rnd() % 20) << 23);
      }
      if (iter == 0 && l < 8) {
        static const float sp[8] = { 0.0f, INFINITY, NAN, -0.0f, 1.0f, 3.0f, 0x1p-149f, 0x1p127f };
        num[l] = sp[l];
        den[l] = sp[(l * 3) % 8];
      }
      vgprs[4][l] = fp_u(num[l]);
      vgprs[2][l] = fp_u(den[l]);
    }
    W.pc = 0;
    run_prog("gfx900", &p);
    for (unsigned l = 0; l < NL; l++) {
      float want = num[l] / den[l], got = fp_f(vgprs[10][l]);
      if (isnan(want))
        ck_assert_msg(isnan(got), "%a / %a", num[l], den[l]);
      else
        ck_assert_msg(fp_u(got) == fp_u(want), "%a / %a: got %a want %a", num[l], den[l], got, want);
    }
  }
}
END_TEST

/* ---- conversions at the edges ---- */
START_TEST(conversions_edges)
{
  wave_reset(MODE_DENORM);
  static const float in[] = { NAN, INFINITY, -INFINITY, 3e9f, -3e9f, 2147483520.0f, -2.5f, 2.5f,
                              -0.0f, 4294967040.0f, 65520.0f, 65519.0f, 0x1p-25f, 0x1.8p-24f,
                              1.5f, -1.5f };
  unsigned n = sizeof in / sizeof in[0];
  for (unsigned l = 0; l < NL; l++)
    vgprs[1][l] = fp_u(in[l % n]);
  run("gfx900", "v_cvt_i32_f32 v2, v1\nv_cvt_u32_f32 v3, v1\nv_cvt_f16_f32 v4, v1\n"
                "v_cvt_f64_f32 v[6:7], v1\nv_cvt_i32_f64 v8, v[6:7]\nv_cvt_rpi_i32_f32 v9, v1\n"
                "v_cvt_flr_i32_f32 v10, v1\nv_cvt_f32_f16 v11, v4\nv_cvt_u32_f64 v12, v[6:7]");
  for (unsigned l = 0; l < NL; l++) {
    float x = in[l % n];
    int32_t wi = isnan(x) ? 0 : x >= 2147483647.0f ? INT32_MAX : x <= -2147483648.0f ? INT32_MIN : (int32_t)x;
    uint32_t wu = isnan(x) || x <= 0 ? 0 : x >= 4294967295.0f ? UINT32_MAX : (uint32_t)x;
    ck_assert_msg((int32_t)vgprs[2][l] == wi, "cvt_i32_f32(%a) = %d", x, (int32_t)vgprs[2][l]);
    ck_assert_msg(vgprs[3][l] == wu, "cvt_u32_f32(%a) = %u", x, vgprs[3][l]);
    ck_assert_msg((int32_t)vgprs[8][l] == wi, "cvt_i32_f64(%a)", x);
    ck_assert_msg(vgprs[12][l] == wu, "cvt_u32_f64(%a)", x);
    if (!isnan(x)) {
      ck_assert(fp_d(get64(6, l)) == (double)x);
      _Float16 h = (_Float16)x;
      uint16_t hb;
      memcpy(&hb, &h, 2);
      ck_assert_msg(vgprs[4][l] == hb, "cvt_f16_f32(%a) = %04x want %04x", x, vgprs[4][l], hb);
      ck_assert(fp_f(vgprs[11][l]) == (float)h);
      double r = floor((double)x + 0.5), fl = floor((double)x);
      int32_t wr = r >= 2147483647.0 ? INT32_MAX : r <= -2147483648.0 ? INT32_MIN : (int32_t)r;
      int32_t wf = fl >= 2147483647.0 ? INT32_MAX : fl <= -2147483648.0 ? INT32_MIN : (int32_t)fl;
      ck_assert_int_eq((int32_t)vgprs[9][l], wr);
      ck_assert_int_eq((int32_t)vgprs[10][l], wf);
    } else {
      ck_assert(fp_isnan16(vgprs[4][l]));
    }
  }
  /* 16-bit results zero the high half on gfx9 */
  for (unsigned l = 0; l < NL; l++) vgprs[20][l] = 0xdead0000u;
  run("gfx900", "v_cvt_f16_f32 v20, 1.0");
  ck_assert_uint_eq(vgprs[20][0], 0x3c00u);
  /* pkrtz truncates toward zero */
  W.sgpr[0] = 0x3f800001u;
  for (unsigned l = 0; l < NL; l++) vgprs[25][l] = 0xbf7fffffu;
  run("gfx900", "v_cvt_pkrtz_f16_f32 v21, s0, v25");
  ck_assert_uint_eq(vgprs[21][7], 0x3c00u | 0xbbffu << 16);
  /* cvt_off_f32_i4 */
  for (unsigned l = 0; l < NL; l++) vgprs[22][l] = l & 15;
  run("gfx900", "v_cvt_off_f32_i4 v23, v22");
  for (unsigned l = 0; l < 16; l++)
    ck_assert(fp_f(vgprs[23][l]) == (float)((int)((l ^ 8) - 8)) / 16.0f);
}
END_TEST

/* ---- carries ---- */
START_TEST(add_co_carry)
{
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++) {
    vgprs[1][l] = (uint32_t)rnd();
    vgprs[2][l] = l & 1 ? ~vgprs[1][l] + (uint32_t)(l & 2) : (uint32_t)rnd();
  }
  W.exec = 0xfffffffffffffff0ull;
  W.vcc = ~0ull;
  run("gfx900", "v_add_co_u32 v3, vcc, v1, v2\nv_addc_co_u32 v4, vcc, v1, v2, vcc\n"
                "v_add_co_u32_e64 v5, s[10:11], v1, v2\nv_sub_co_u32_e64 v6, s[12:13], v1, v2\n"
                "v_mad_u64_u32 v[8:9], s[14:15], v1, v2, v[1:2]");
  uint64_t c1 = 0, c2 = 0, c3 = 0, c4 = 0;
  for (unsigned l = 4; l < NL; l++) {
    uint64_t s = (uint64_t)vgprs[1][l] + vgprs[2][l];
    ck_assert_uint_eq(vgprs[3][l], (uint32_t)s);
    ck_assert_uint_eq(vgprs[5][l], (uint32_t)s);
    c1 |= (s >> 32) << l;
    uint64_t s2 = s + (s >> 32);
    ck_assert_uint_eq(vgprs[4][l], (uint32_t)s2);
    c2 |= (s2 >> 32) << l;
    ck_assert_uint_eq(vgprs[6][l], vgprs[1][l] - vgprs[2][l]);
    c3 |= (uint64_t)(vgprs[2][l] > vgprs[1][l]) << l;
    unsigned __int128 m = (unsigned __int128)vgprs[1][l] * vgprs[2][l] +
                          ((uint64_t)vgprs[2][l] << 32 | vgprs[1][l]);
    ck_assert(get64(8, l) == (uint64_t)m);
    c4 |= (uint64_t)(m >> 64 != 0) << l;
  }
  for (unsigned l = 0; l < 4; l++)
    ck_assert_uint_eq(vgprs[3][l], 0);   /* inactive lanes untouched */
  ck_assert(W.vcc == c2);
  ck_assert(((uint64_t)W.sgpr[11] << 32 | W.sgpr[10]) == c1);
  ck_assert(((uint64_t)W.sgpr[13] << 32 | W.sgpr[12]) == c3);
  ck_assert(((uint64_t)W.sgpr[15] << 32 | W.sgpr[14]) == c4);
}
END_TEST

/* ---- DPP ---- */
START_TEST(dpp_row_shr_masks)
{
  for (int bc = 0; bc < 2; bc++) {
    wave_reset(MODE_DENORM);
    for (unsigned l = 0; l < NL; l++) { vgprs[1][l] = 100 + l; vgprs[2][l] = 1000; vgprs[3][l] = 7; }
    W.exec = ~(1ull << 20);   /* lane 20 off: lane 21 reads a disabled lane */
    run("gfx900", bc ? "v_add_u32_dpp v3, v1, v2 row_shr:1 row_mask:0xb bank_mask:0xd bound_ctrl:0"
                     : "v_add_u32_dpp v3, v1, v2 row_shr:1 row_mask:0xb bank_mask:0xd");
    for (unsigned l = 0; l < NL; l++) {
      unsigned row = l / 16, bank = (l / 4) & 3;
      bool enabled = ((0xbu >> row) & 1) && ((0xdu >> bank) & 1) && l != 20;
      bool valid = (l % 16) >= 1 && l - 1 != 20;
      uint32_t want = 7;
      if (enabled && valid) want = 100 + (l - 1) + 1000;
      else if (enabled && bc) want = 1000;   /* bound_ctrl: the source reads 0 */
      ck_assert_msg(vgprs[3][l] == want, "bc %d lane %u: got %u want %u", bc, l, vgprs[3][l], want);
    }
  }
  /* quad_perm, row_mirror, row_bcast:15, wave_shr */
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++) vgprs[1][l] = l;
  run("gfx900", "v_mov_b32_dpp v2, v1 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf\n"
                "v_mov_b32_dpp v3, v1 row_mirror row_mask:0xf bank_mask:0xf\n"
                "v_mov_b32_dpp v4, v1 row_bcast:15 row_mask:0xa bank_mask:0xf\n"
                "v_mov_b32_dpp v5, v1 wave_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0");
  for (unsigned l = 0; l < NL; l++) {
    ck_assert_uint_eq(vgprs[2][l], (l & ~3u) | (3 - (l & 3)));
    ck_assert_uint_eq(vgprs[3][l], (l & ~15u) | (15 - (l & 15)));
    ck_assert_uint_eq(vgprs[4][l], (l / 16) & 1 ? (l & ~15u) - 1 : 0);
    ck_assert_uint_eq(vgprs[5][l], l ? l - 1 : 0);
  }
}
END_TEST

/* ---- SDWA ---- */
START_TEST(sdwa_selects)
{
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++) {
    vgprs[1][l] = (uint32_t)rnd();
    vgprs[2][l] = (uint32_t)rnd();
    vgprs[3][l] = 0x12345678u;
    vgprs[4][l] = 0x12345678u;
  }
  run("gfx900", "v_add_u32_sdwa v3, v1, v2 dst_sel:BYTE_1 dst_unused:UNUSED_PRESERVE "
                "src0_sel:BYTE_2 src1_sel:WORD_1\n"
                "v_mov_b32_sdwa v4, sext(v1) dst_sel:WORD_1 dst_unused:UNUSED_SEXT src0_sel:BYTE_3\n"
                "v_mov_b32_sdwa v5, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1\n"
                "v_cmp_gt_u32_sdwa s[6:7], v1, v2 src0_sel:BYTE_0 src1_sel:BYTE_0\n"
                "v_add_f32_sdwa v6, v1, s3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0 src1_sel:DWORD");
  uint64_t m = 0;
  for (unsigned l = 0; l < NL; l++) {
    uint32_t a = vgprs[1][l], b = vgprs[2][l];
    uint32_t sum = ((a >> 16) & 0xff) + (b >> 16);
    ck_assert_uint_eq(vgprs[3][l], (0x12345678u & ~0xff00u) | (sum & 0xff) << 8);
    int32_t s = (int8_t)(a >> 24);
    ck_assert_uint_eq(vgprs[4][l], ((uint32_t)s & 0xffff) << 16);   /* low half zero, sign above */
    ck_assert_uint_eq(vgprs[5][l], a >> 16);
    m |= (uint64_t)((a & 0xff) > (b & 0xff)) << l;
  }
  ck_assert(((uint64_t)W.sgpr[7] << 32 | W.sgpr[6]) == m);
}
END_TEST

/* ---- VOP3P ---- */
START_TEST(vop3p_opsel)
{
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++) {
    vgprs[1][l] = (uint32_t)rnd();
    vgprs[2][l] = (uint32_t)rnd();
  }
  /* f16 halves that are normal numbers */
  for (unsigned l = 0; l < NL; l++) {
    vgprs[3][l] = (uint32_t)(((rnd() & 0x83ff) | 0x3800) | ((rnd() & 0x83ff) | 0x3c00) << 16);
    vgprs[4][l] = (uint32_t)(((rnd() & 0x83ff) | 0x4000) | ((rnd() & 0x83ff) | 0x3400) << 16);
  }
  run("gfx900", "v_pk_add_u16 v5, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]\n"
                "v_pk_sub_i16 v6, v1, v2\n"
                "v_pk_mul_f16 v7, v3, v4 op_sel:[0,1] op_sel_hi:[1,0] neg_lo:[1,0]\n"
                "v_pk_add_f16 v8, v3, 1.0\n"
                "v_pk_fma_f16 v9, v3, v4, v3 neg_hi:[0,0,1]\n"
                "v_pk_mul_f16 v10, v3, 2.0 op_sel:[0,1] op_sel_hi:[1,0]");   /* clang's (0, 2) */
  for (unsigned l = 0; l < NL; l++) {
    uint32_t a = vgprs[1][l], b = vgprs[2][l];
    uint32_t lo = ((a >> 16) + (b & 0xffff)) & 0xffff, hi = ((a & 0xffff) + (b >> 16)) & 0xffff;
    ck_assert_uint_eq(vgprs[5][l], lo | hi << 16);
    uint32_t slo = (a - b) & 0xffff, shi = ((a >> 16) - (b >> 16)) & 0xffff;
    ck_assert_uint_eq(vgprs[6][l], slo | shi << 16);
    _Float16 x0, x1, y0, y1;
    uint16_t h;
    h = (uint16_t)vgprs[3][l]; memcpy(&x0, &h, 2);
    h = (uint16_t)(vgprs[3][l] >> 16); memcpy(&x1, &h, 2);
    h = (uint16_t)vgprs[4][l]; memcpy(&y0, &h, 2);
    h = (uint16_t)(vgprs[4][l] >> 16); memcpy(&y1, &h, 2);
    _Float16 r0 = (_Float16)(-(float)x0 * (float)y1), r1 = (_Float16)((float)x1 * (float)y0);
    _Float16 a0 = (_Float16)((float)x0 + 1.0f), a1 = x1;   /* the constant's high half is 0 */
    _Float16 f0 = (_Float16)((double)x0 * (double)y0 + (double)x0);
    _Float16 f1 = (_Float16)((double)x1 * (double)y1 - (double)x1);
    uint16_t u0, u1;
    memcpy(&u0, &r0, 2); memcpy(&u1, &r1, 2);
    ck_assert_msg(vgprs[7][l] == (u0 | (uint32_t)u1 << 16), "pk_mul lane %u", l);
    memcpy(&u0, &a0, 2); memcpy(&u1, &a1, 2);
    ck_assert_msg(vgprs[8][l] == (u0 | (uint32_t)u1 << 16), "pk_add const lane %u: %08x", l, vgprs[8][l]);
    memcpy(&u0, &f0, 2); memcpy(&u1, &f1, 2);
    ck_assert_msg(vgprs[9][l] == (u0 | (uint32_t)u1 << 16), "pk_fma lane %u", l);
    _Float16 m0 = (_Float16)((float)x0 * 0.0f), m1 = (_Float16)((float)x1 * 2.0f);
    memcpy(&u0, &m0, 2); memcpy(&u1, &m1, 2);
    ck_assert_msg(vgprs[10][l] == (u0 | (uint32_t)u1 << 16), "pk_mul const lane %u", l);
  }
}
END_TEST

/* ---- compares ---- */
START_TEST(cmpx_exec)
{
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++) { vgprs[1][l] = l; vgprs[2][l] = fp_u((float)l - 10.0f); }
  vgprs[2][3] = 0x7fc00000u;
  W.exec = 0x00ffffffffffff0full;
  run("gfx900", "v_cmpx_gt_u32 vcc, 40, v1");
  uint64_t want = 0x00ffffffffffff0full & ((1ull << 40) - 1);
  ck_assert(W.exec == want);
  ck_assert(W.vcc == want);
  W.exec = ~0ull;
  run("gfx900", "v_cmp_lt_f32_e64 s[20:21], v2, 0\nv_cmp_nge_f32_e64 s[22:23], v2, 0\n"
                "v_cmp_class_f32_e64 s[24:25], v2, 3\nv_cmp_eq_u64_e64 s[26:27], v[1:2], v[1:2]");
  uint64_t lt = ((uint64_t)W.sgpr[21] << 32) | W.sgpr[20];
  uint64_t nge = ((uint64_t)W.sgpr[23] << 32) | W.sgpr[22];
  uint64_t cls = ((uint64_t)W.sgpr[25] << 32) | W.sgpr[24];
  ck_assert(lt == (((1ull << 10) - 1) & ~(1ull << 3)));
  ck_assert(nge == ((1ull << 10) - 1));      /* unordered counts as "not >=" */
  ck_assert(cls == 1ull << 3);              /* quiet NaN class */
  ck_assert(((uint64_t)W.sgpr[27] << 32 | W.sgpr[26]) == ~0ull);
}
END_TEST

/* ---- lane access ---- */
START_TEST(readlane_writelane)
{
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++) vgprs[1][l] = 0x1000 + l;
  W.sgpr[2] = 37 + 64;   /* lane select uses the low 6 bits */
  W.exec = 0xf00ull;
  run("gfx900", "v_readlane_b32 s3, v1, s2\nv_readfirstlane_b32 s4, v1\n"
                "v_writelane_b32 v1, s4, 5\nv_mov_b32 v2, s3\nv_cndmask_b32_e64 v3, 1.0, -2.0, s[6:7]");
  ck_assert_uint_eq(W.sgpr[3], 0x1000 + 37);
  ck_assert_uint_eq(W.sgpr[4], 0x1000 + 8);
  ck_assert_uint_eq(vgprs[1][5], 0x1000 + 8);   /* written though lane 5 is inactive */
  for (unsigned l = 0; l < NL; l++)
    ck_assert_uint_eq(vgprs[2][l], l >= 8 && l < 12 ? 0x1000u + 37 : 0u);
  ck_assert_uint_eq(vgprs[3][9], 0x3f800000u);
  W.exec = 0;
  run("gfx900", "v_readfirstlane_b32 s5, v1");
  ck_assert_uint_eq(W.sgpr[5], 0x1000);
}
END_TEST

/* ---- integer and bit operations against host formulas ---- */
START_TEST(int_ops)
{
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++) {
    vgprs[1][l] = (uint32_t)rnd();
    vgprs[2][l] = (uint32_t)rnd();
    vgprs[3][l] = (uint32_t)rnd() & 0xff00ffffu;   /* a zero byte: masked out of msad */
    for (unsigned i = 4; i < 8; i++) vgprs[i][l] = (uint32_t)rnd() >> 4;
  }
  W.sgpr[8] = 0x0c080703u;
  run("gfx900", "v_bfe_u32 v10, v1, v2, v3\nv_bfe_i32 v11, v1, 5, 7\nv_bfi_b32 v12, v1, v2, v3\n"
                "v_alignbit_b32 v13, v1, v2, v3\nv_perm_b32 v14, v1, v2, s8\n"
                "v_lshl_add_u32 v15, v1, 3, v2\nv_add3_u32 v16, v1, v2, v3\n"
                "v_mad_u32_u24 v17, v1, v2, v3\nv_mul_hi_u32 v18, v1, v2\n"
                "v_mbcnt_lo_u32_b32 v19, -1, 0\nv_mbcnt_hi_u32_b32 v19, -1, v19\n"
                "v_ffbh_u32 v20, v1\nv_bcnt_u32_b32 v21, v1, 1\nv_med3_i32 v22, v1, v2, v3\n"
                "v_sad_u8 v23, v1, v2, v3\nv_xad_u32 v24, v1, v2, v3\n"
                "v_lshlrev_b64 v[26:27], 33, v[1:2]\nv_ashrrev_i16 v28, 3, v1\n"
                "v_add_u32_e64 v29, v1, v2 clamp\nv_mul_lo_u16 v30, v1, v2\n"
                "v_mqsad_u32_u8 v[32:35], v[1:2], v3, v[4:7]");
  for (unsigned l = 0; l < NL; l++) {
    uint32_t a = vgprs[1][l], b = vgprs[2][l], c = vgprs[3][l];
    unsigned off = b & 31, wd = c & 31;
    ck_assert_uint_eq(vgprs[10][l], wd ? (a >> off) & ((1u << wd) - 1) : 0);
    ck_assert_uint_eq(vgprs[11][l], (uint32_t)((int32_t)(a << 20) >> 25));
    ck_assert_uint_eq(vgprs[12][l], (a & b) | (~a & c));
    ck_assert_uint_eq(vgprs[13][l], (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31)));
    uint64_t x = (uint64_t)a << 32 | b;
    uint32_t perm = (uint32_t)(x >> 24 & 0xff) | (uint32_t)(x >> 56 & 0xff) << 8 |
                    ((x >> 15 & 1) ? 0xffu : 0) << 16 | 0u << 24;
    ck_assert_msg(vgprs[14][l] == perm, "perm %08x want %08x", vgprs[14][l], perm);
    ck_assert_uint_eq(vgprs[15][l], (a << 3) + b);
    ck_assert_uint_eq(vgprs[16][l], a + b + c);
    ck_assert_uint_eq(vgprs[17][l], (a & 0xffffff) * (b & 0xffffff) + c);
    ck_assert_uint_eq(vgprs[18][l], (uint32_t)(((uint64_t)a * b) >> 32));
    ck_assert_uint_eq(vgprs[19][l], l);
    ck_assert_uint_eq(vgprs[20][l], a ? (uint32_t)__builtin_clz(a) : ~0u);
    ck_assert_uint_eq(vgprs[21][l], (uint32_t)__builtin_popcount(a) + 1);
    int32_t sa = (int32_t)a, sb = (int32_t)b, sc = (int32_t)c;
    int32_t med = sa > sb ? (sb > sc ? sb : (sa < sc ? sa : sc)) : (sa > sc ? sa : (sb < sc ? sb : sc));
    ck_assert_int_eq((int32_t)vgprs[22][l], med);
    uint32_t sad = c;
    for (int i = 0; i < 32; i += 8) {
      int d = (int)(a >> i & 0xff) - (int)(b >> i & 0xff);
      sad += (uint32_t)(d < 0 ? -d : d);
    }
    ck_assert_uint_eq(vgprs[23][l], sad);
    ck_assert_uint_eq(vgprs[24][l], (a ^ b) + c);
    ck_assert(get64(26, l) == ((uint64_t)b << 32 | a) << 33);
    ck_assert_uint_eq(vgprs[28][l], (uint32_t)((int16_t)a >> 3) & 0xffff);
    uint64_t s = (uint64_t)a + b;
    ck_assert_uint_eq(vgprs[29][l], s > UINT32_MAX ? UINT32_MAX : (uint32_t)s);
    ck_assert_uint_eq(vgprs[30][l], (a * b) & 0xffff);
    uint64_t win = (uint64_t)b << 32 | a;
    for (unsigned i = 0; i < 4; i++) {
      uint32_t m = vgprs[4 + i][l], x4 = (uint32_t)(win >> (8 * i));
      for (int k = 0; k < 32; k += 8)
        if (c >> k & 0xff) {
          int dd = (int)(x4 >> k & 0xff) - (int)(c >> k & 0xff);
          m += (uint32_t)(dd < 0 ? -dd : dd);
        }
      ck_assert_uint_eq(vgprs[32 + i][l], m);
    }
  }
}
END_TEST

/* ---- f64 basics and transcendental-ish ops ---- */
START_TEST(f64_and_misc_f32)
{
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++) {
    set64(2, l, fp_ud(rnd_f64(-20, 20)));
    set64(4, l, fp_ud(rnd_f64(-20, 20)));
    vgprs[10][l] = fp_u((float)(l * 0.125 - 3.0));
  }
  run("gfx900", "v_add_f64 v[6:7], v[2:3], -v[4:5]\nv_fma_f64 v[8:9], v[2:3], v[4:5], v[2:3]\n"
                "v_sin_f32 v11, v10\nv_cos_f32 v12, v10\nv_fract_f32 v13, v10\n"
                "v_ldexp_f64 v[14:15], v[2:3], -3\nv_frexp_exp_i32_f32 v16, v10\n"
                "v_sqrt_f64 v[18:19], |v[2:3]|\nv_rcp_f32 v20, v10");
  for (unsigned l = 0; l < NL; l++) {
    double a = fp_d(get64(2, l)), b = fp_d(get64(4, l));
    float x = fp_f(vgprs[10][l]);
    ck_assert(fp_d(get64(6, l)) == a - b);
    ck_assert(fp_d(get64(8, l)) == fma(a, b, a));
    ck_assert(fabsf(fp_f(vgprs[11][l]) - (float)sin(2 * M_PI * x)) < 1e-6f);
    ck_assert(fabsf(fp_f(vgprs[12][l]) - (float)cos(2 * M_PI * x)) < 1e-6f);
    ck_assert(fp_f(vgprs[13][l]) == x - floorf(x));
    ck_assert(fp_d(get64(14, l)) == a / 8);
    int e = 0;
    frexpf(x, &e);
    ck_assert_int_eq((int32_t)vgprs[16][l], e);
    ck_assert(fp_d(get64(18, l)) == sqrt(fabs(a)));
    ck_assert(fp_u(fp_f(vgprs[20][l])) == fp_u(1.0f / x));
  }
}
END_TEST

/* ---- gfx906 additions ---- */
START_TEST(gfx906_dot_fmac)
{
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++) {
    vgprs[1][l] = (uint32_t)rnd();
    vgprs[2][l] = (uint32_t)rnd();
    vgprs[3][l] = (uint32_t)rnd();
    vgprs[4][l] = vgprs[3][l];
  }
  run("gfx906", "v_dot4_i32_i8 v5, v1, v2, v3\nv_dot2_u32_u16 v6, v1, v2, v3\n"
                "v_xnor_b32 v7, v1, v2\nv_fmac_f32 v4, v1, v2\nv_dot8_u32_u4 v8, v1, v2, v3");
  for (unsigned l = 0; l < NL; l++) {
    uint32_t a = vgprs[1][l], b = vgprs[2][l], c = vgprs[3][l];
    uint32_t s = c;
    uint32_t u = c, u4 = c;
    for (int i = 0; i < 32; i += 8) s += (uint32_t)((int8_t)(a >> i) * (int8_t)(b >> i));
    for (int i = 0; i < 32; i += 16) u += (a >> i & 0xffff) * (b >> i & 0xffff);
    for (int i = 0; i < 32; i += 4) u4 += (a >> i & 15) * (b >> i & 15);
    ck_assert_uint_eq(vgprs[5][l], s);
    ck_assert_uint_eq(vgprs[6][l], u);
    ck_assert_uint_eq(vgprs[7][l], ~(a ^ b));
    float f = fmaf(fp_f(a), fp_f(b), fp_f(c));
    ck_assert(vgprs[4][l] == fp_u(f) || isnan(f));
    ck_assert_uint_eq(vgprs[8][l], u4);
  }
}
END_TEST


/* ---- f16, VOP3 op_sel, mix ---- */
static uint16_t h_of(float f)
{
  _Float16 h = (_Float16)f;
  uint16_t u;
  memcpy(&u, &h, 2);
  return u;
}
static float f_of(uint32_t u)
{
  _Float16 h;
  uint16_t b = (uint16_t)u;
  memcpy(&h, &b, 2);
  return (float)h;
}

START_TEST(f16_ops_opsel_mix)
{
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++) {
    vgprs[1][l] = (uint32_t)(((rnd() & 0x83ff) | 0x3800) | ((rnd() & 0x83ff) | 0x4000) << 16);
    vgprs[2][l] = (uint32_t)(((rnd() & 0x83ff) | 0x3c00) | ((rnd() & 0x83ff) | 0x3400) << 16);
    vgprs[3][l] = fp_u((float)l * 0.75f - 9.0f);
    vgprs[10][l] = vgprs[11][l] = vgprs[12][l] = vgprs[13][l] = 0xabcd0000u | l;
  }
  run("gfx900", "v_add_f16 v10, v1, v2\n"
                "v_mul_f16 v11, v1, v2\n"
                "v_fma_f16 v12, v1, v2, v1 op_sel:[1,1,0,1]\n"
                "v_mac_f16 v13, v1, v2\n"
                "v_mad_mix_f32 v14, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[1,1,0]\n"
                "v_mad_mixhi_f16 v15, v1, v3, v3 op_sel_hi:[1,0,0]\n"
                "v_cvt_f32_f16 v16, v1");
  for (unsigned l = 0; l < NL; l++) {
    uint32_t a = vgprs[1][l], b = vgprs[2][l];
    float a0 = f_of(a), a1 = f_of(a >> 16), b0 = f_of(b), b1 = f_of(b >> 16);
    ck_assert_uint_eq(vgprs[10][l], h_of(a0 + b0));                  /* high half zeroed */
    ck_assert_uint_eq(vgprs[11][l], h_of(a0 * b0));
    float fm = (float)(_Float16)((double)a1 * b1 + a0);
    ck_assert_uint_eq(vgprs[12][l], ((0xabcd0000u | l) & 0xffffu) | (uint32_t)h_of(fm) << 16);
    /* v_mac_f16 keeps the high half, product rounded to f16 then the add */
    float p = f_of(h_of(a0 * b0));
    ck_assert_uint_eq(vgprs[13][l], 0xabcd0000u | h_of(p + f_of(0xabcd0000u | l)));
    volatile float pm = a1 * b0;
    ck_assert_uint_eq(vgprs[14][l], fp_u(pm + fp_f(vgprs[3][l])));
    float c = fp_f(vgprs[3][l]);
    volatile float pm2 = a0 * c;
    ck_assert_uint_eq(vgprs[15][l] >> 16, h_of(pm2 + c));
    ck_assert(fp_f(vgprs[16][l]) == a0);
  }
  /* gfx906: v_fma_mix is fused */
  run("gfx906", "v_fma_mix_f32 v17, v3, v3, -v3");
  for (unsigned l = 0; l < NL; l++) {
    float c = fp_f(vgprs[3][l]);
    ck_assert_uint_eq(vgprs[17][l], fp_u(fmaf(c, c, -c)));
  }
}
END_TEST

/* ---- more DPP controls and SDWA sign extension ---- */
START_TEST(dpp_controls_sdwa_sext)
{
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++) vgprs[1][l] = l * 3 + 1000;
  run("gfx900", "v_mov_b32_dpp v2, v1 row_ror:3 row_mask:0xf bank_mask:0xf\n"
                "v_mov_b32_dpp v3, v1 row_half_mirror row_mask:0xf bank_mask:0xf\n"
                "v_mov_b32_dpp v4, v1 row_bcast:31 row_mask:0xc bank_mask:0xf\n"
                "v_mov_b32_dpp v5, v1 wave_rol:1 row_mask:0xf bank_mask:0xf\n"
                "v_mov_b32_dpp v6, v1 row_shl:15 row_mask:0xf bank_mask:0xf bound_ctrl:0\n"
                "v_sub_f32_dpp v7, -v1, |v1| quad_perm:[1,1,1,1] row_mask:0xf bank_mask:0xf");
  for (unsigned l = 0; l < NL; l++) {
    unsigned row = l & ~15u, r = l & 15;
    ck_assert_uint_eq(vgprs[2][l], (row | ((r + 16 - 3) & 15)) * 3 + 1000);
    ck_assert_uint_eq(vgprs[3][l], ((l & ~7u) | (7 - (l & 7))) * 3 + 1000);
    ck_assert_uint_eq(vgprs[4][l], l >= 32 ? 31 * 3 + 1000 : 0u);
    ck_assert_uint_eq(vgprs[5][l], ((l + 1) & 63) * 3 + 1000);
    ck_assert_uint_eq(vgprs[6][l], r == 0 ? (l + 15) * 3 + 1000 : 0u);
    float src = fp_f(((l & ~3u) | 1) * 3 + 1000), own = fp_f(l * 3 + 1000);
    ck_assert_uint_eq(vgprs[7][l], fp_u(-src - fabsf(own)));
  }
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++) { vgprs[1][l] = (uint32_t)rnd(); vgprs[2][l] = (uint32_t)rnd(); }
  run("gfx900", "v_add_u32_sdwa v3, sext(v1), v2 dst_sel:DWORD dst_unused:UNUSED_PAD "
                "src0_sel:BYTE_0 src1_sel:DWORD\n"
                "v_ashrrev_i32_sdwa v4, v2, sext(v1) dst_sel:WORD_0 dst_unused:UNUSED_PAD "
                "src0_sel:BYTE_0 src1_sel:WORD_1");
  for (unsigned l = 0; l < NL; l++) {
    uint32_t a = vgprs[1][l], b = vgprs[2][l];
    ck_assert_uint_eq(vgprs[3][l], (uint32_t)(int8_t)a + b);
    ck_assert_uint_eq(vgprs[4][l], (uint32_t)((int32_t)(int16_t)(a >> 16) >> (b & 31)) & 0xffff);
  }
}
END_TEST

/* ---- rounding modes, legacy multiply, trig_preop, class, packing conversions ---- */
START_TEST(round_modes_and_misc)
{
  /* MODE.FP_ROUND: 1/3 rounds down toward zero and up toward +inf */
  static const uint32_t modes[4] = { 0, 1, 2, 3 };
  for (unsigned m = 0; m < 4; m++) {
    wave_reset(MODE_DENORM | modes[m] | modes[m] << 2);
    for (unsigned l = 0; l < NL; l++) {
      vgprs[1][l] = fp_u(l & 1 ? -1.0f : 1.0f);
      vgprs[2][l] = fp_u(3.0f);
      set64(4, l, fp_ud(l & 1 ? -1.0 : 1.0));
      set64(6, l, fp_ud(3.0));
    }
    /* 1 + 2^-30 does not fit in f32: the mode decides */
    run("gfx900", "v_add_f32 v3, 0x30800000, v1\nv_add_f64 v[8:9], v[4:5], v[6:7]\n"
                  "v_mul_f64 v[10:11], v[4:5], v[6:7]\nv_rndne_f32 v12, 0x40200000");
    for (unsigned l = 0; l < 2; l++) {
      float one = l & 1 ? -1.0f : 1.0f;
      /* one + 2^-30 lies between lo = one and hi = the next float up */
      float lo = one, hi = nextafterf(one, INFINITY);
      float want = m == 0 ? one : m == 1 ? hi : m == 2 ? lo : (one > 0 ? lo : hi);
      ck_assert_msg(fp_f(vgprs[3][l]) == want, "mode %u lane %u: %a", m, l, fp_f(vgprs[3][l]));
      ck_assert(fp_d(get64(10, l)) == 3.0 * (l & 1 ? -1 : 1));
    }
    ck_assert(fp_f(vgprs[12][0]) == 2.0f);   /* rndne is ties-to-even in every mode */
  }
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++) {
    vgprs[1][l] = l & 1 ? 0 : 0x80000000u;
    vgprs[2][l] = l & 2 ? 0x7f800000u : 0x7fc00000u;
    set64(4, l, fp_ud(1.0));
  }
  W.sgpr[0] = 0x437f0000u;
  W.sgpr[1] = 0x12345u;
  W.sgpr[2] = 0x100u;
  run("gfx900", "v_mul_legacy_f32 v3, v1, v2\nv_mul_f32 v4, v1, v2\n"
                "v_trig_preop_f64 v[6:7], v[4:5], 0\nv_trig_preop_f64 v[8:9], v[4:5], 1\n"
                "v_cmp_class_f64_e64 s[10:11], v[4:5], s2\n"
                "v_cvt_pknorm_i16_f32 v10, 0.5, -1.0\nv_cvt_pk_u8_f32 v11, s0, 2, 0\n"
                "v_cvt_pk_u16_u32 v12, s1, 7\nv_sat_pk_u8_i16 v13, 0xff7f0180");
  ck_assert_uint_eq(vgprs[3][0], 0);          /* legacy: 0 * inf and 0 * NaN = 0 */
  ck_assert_uint_eq(vgprs[3][3], 0);
  ck_assert(fp_isnan32(vgprs[4][0]));
  ck_assert(get64(6, 0) == 0x3fe45f306dc9c882ull);   /* 2/pi, first 53 bits */
  double second = fp_d(get64(8, 0));
  ck_assert(second > 0 && second < 0x1p-52);
  ck_assert(((uint64_t)W.sgpr[11] << 32 | W.sgpr[10]) == ~0ull);   /* +normal */
  ck_assert_uint_eq(vgprs[10][0], 0x4000u | 0x8001u << 16);   /* 0.5 -> 16384 (rounded), -1 -> -32767 */
  ck_assert_uint_eq(vgprs[11][0], 0xff0000u);
  ck_assert_uint_eq(vgprs[12][0], 0xffffu | 7u << 16);
  ck_assert_uint_eq(vgprs[13][0], 0x00ffu);   /* 0x0180 -> 255, 0xff7f -> 0 */
}
END_TEST


/* ---- gfx942: v_lshl_add_u64 (shift 0-7 from S1's low bits), v_mov_b64 with DPP; gfx90a's
 * opcodes still there; the new ones illegal on gfx90a ---- */
START_TEST(gfx942_64bit_ops)
{
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++)
    for (unsigned r = 2; r < 8; r++)
      vgprs[r][l] = (uint32_t)rnd();
  for (unsigned l = 0; l < NL; l++)
    vgprs[20][l] = (uint32_t)(rnd() % 5) | 0x40u;   /* bit 6 set: only bits 2:0 count */
  run("gfx940", "v_lshl_add_u64 v[8:9], v[2:3], 3, v[4:5]\n"
                "v_lshl_add_u64 v[14:15], v[2:3], v20, 5\n"
                "v_mov_b64 v[10:11], v[6:7]\n"
                "v_mov_b64_dpp v[12:13], v[2:3] row_newbcast:5 row_mask:0xf bank_mask:0xf\n"
                "v_pk_add_f32 v[16:17], v[6:7], 0");
  for (unsigned l = 0; l < NL; l++) {
    uint64_t a = get64(2, l), c = get64(4, l), b = (uint64_t)vgprs[3][(l & ~15u) | 5] << 32 |
                                                   vgprs[2][(l & ~15u) | 5];
    ck_assert(get64(8, l) == (a << 3) + c);
    ck_assert(get64(14, l) == (a << (vgprs[20][l] & 7)) + 5);
    ck_assert(get64(10, l) == get64(6, l));
    ck_assert(get64(12, l) == b);
  }
  struct prog p;
  assemble("gfx940", "v_lshl_add_u64 v[8:9], v[2:3], 3, v[4:5]", &p);
  struct isa_inst in;
  memset(&in, 0, sizeof in);
  in.target = ISA_TARGET_GFX90A;
  ck_assert_int_ne(isa_decode_valu(p.inst[0].w, p.inst[0].nw, 0, &in), 0);
}
END_TEST

/* ---- gfx90a: packed f32, v_pk_mov_b32, v_fmac_f64, v_dot2c ---- */
START_TEST(gfx90a_packed_f32)
{
  wave_reset(MODE_DENORM);
  for (unsigned l = 0; l < NL; l++) {
    for (unsigned r = 2; r < 8; r++)
      vgprs[r][l] = fp_u((float)(int)(rnd() % 2000) / 16.0f - 60.0f);
    vgprs[20][l] = (uint32_t)rnd();
    vgprs[21][l] = (uint32_t)rnd();
    vgprs[22][l] = vgprs[23][l] = (uint32_t)rnd();
  }
  uint32_t c0[NL], c1[NL];
  for (unsigned l = 0; l < NL; l++) { c0[l] = vgprs[6][l]; c1[l] = vgprs[7][l]; }
  run("gfx90a", "v_pk_fma_f32 v[8:9], v[2:3], v[4:5], v[6:7]\n"
                "v_pk_mul_f32 v[10:11], v[2:3], v[4:5] op_sel:[1,0] op_sel_hi:[0,1] neg_lo:[0,1]\n"
                "v_pk_add_f32 v[12:13], v[2:3], 1.0\n"
                "v_pk_mov_b32 v[14:15], v[2:3], v[4:5] op_sel:[1,0]\n"
                "v_fmac_f64 v[6:7], v[2:3], v[4:5]\n"
                "v_dot2c_i32_i16 v22, v20, v21");
  for (unsigned l = 0; l < NL; l++) {
    float a0 = fp_f(vgprs[2][l]), a1 = fp_f(vgprs[3][l]), b0 = fp_f(vgprs[4][l]), b1 = fp_f(vgprs[5][l]);
    ck_assert_uint_eq(vgprs[8][l], fp_u(fmaf(a0, b0, fp_f(c0[l]))));
    ck_assert_uint_eq(vgprs[9][l], fp_u(fmaf(a1, b1, fp_f(c1[l]))));
    double da = fp_d((uint64_t)vgprs[3][l] << 32 | vgprs[2][l]), db = fp_d((uint64_t)vgprs[5][l] << 32 | vgprs[4][l]);
    ck_assert(get64(6, l) == fp_ud(fma(da, db, fp_d((uint64_t)c1[l] << 32 | c0[l]))));
    ck_assert_uint_eq(vgprs[10][l], fp_u(a1 * -b0));
    ck_assert_uint_eq(vgprs[11][l], fp_u(a0 * b1));
    ck_assert_uint_eq(vgprs[12][l], fp_u(a0 + 1.0f));
    ck_assert_uint_eq(vgprs[13][l], fp_u(a1 + 1.0f));
    ck_assert_uint_eq(vgprs[14][l], vgprs[3][l]);
    ck_assert_uint_eq(vgprs[15][l], vgprs[4][l]);
    uint32_t x = vgprs[20][l], y = vgprs[21][l];
    uint32_t dot = vgprs[23][l] + (uint32_t)((int16_t)x * (int16_t)y) +
                   (uint32_t)((int16_t)(x >> 16) * (int16_t)(y >> 16));
    ck_assert_uint_eq(vgprs[22][l], dot);
  }
  run("gfx90a", "v_mov_b32_dpp v30, v20 row_newbcast:5 row_mask:0xf bank_mask:0xf");
  for (unsigned l = 0; l < NL; l++)
    ck_assert_uint_eq(vgprs[30][l], vgprs[20][(l & ~15u) | 5]);
}
END_TEST


/* Decoded for no chip in particular (as the code cache does), VOP2 0x04 runs as
 * v_fmac_f64 on a gfx90a wave and as v_mul_legacy_f32 on gfx900. */
START_TEST(chip_dependent_opcode)
{
  struct prog p;
  assemble("gfx90a", "v_fmac_f64 v[6:7], v[2:3], v[4:5]", &p);
  static const char *chips[2] = { "gfx90a", "gfx900" };
  for (int k = 0; k < 2; k++) {
    wave_reset(MODE_DENORM);
    struct sim_gpu gpu;
    struct sim_isa_workgroup wg;
    struct isa_group g;
    memset(&gpu, 0, sizeof gpu);
    memset(&wg, 0, sizeof wg);
    memset(&g, 0, sizeof g);
    gpu.model = sim_catalog_find(chips[k]);
    ck_assert(gpu.model != NULL);
    wg.gpu = &gpu;
    g.wg = &wg;
    W.group = &g;
    for (unsigned l = 0; l < NL; l++) {
      set64(2, l, fp_ud(1.5)); set64(4, l, fp_ud(2.0)); set64(6, l, fp_ud(0.25));
      if (k == 1) { vgprs[2][l] = fp_u(3.0f); vgprs[4][l] = fp_u(0.5f); }
    }
    struct isa_inst in;
    memset(&in, 0, sizeof in);   /* target ANY */
    ck_assert_int_eq(isa_decode_valu(p.inst[0].w, p.inst[0].nw, 0, &in), 0);
    ck_assert_int_eq(in.exec(&W, &in), 0);
    if (k == 0)
      ck_assert(fp_d(get64(6, 0)) == 3.25);
    else {   /* v_mul_legacy_f32 v6, v2, v4 */
      ck_assert_uint_eq(vgprs[6][0], fp_u(1.5f));
      ck_assert_uint_eq(vgprs[7][0], (uint32_t)(fp_ud(0.25) >> 32));
    }
    /* gfx906's v_xnor_b32 is an illegal instruction on a gfx900 wave */
    struct prog q;
    assemble("gfx906", "v_xnor_b32 v1, v2, v3", &q);
    memset(&in, 0, sizeof in);
    ck_assert_int_eq(isa_decode_valu(q.inst[0].w, q.inst[0].nw, 0, &in), 0);
    int r = in.exec(&W, &in);
    if (k == 0) {
      ck_assert_int_eq(r, 0);
    } else {
      ck_assert_int_eq(r, -1);
      ck_assert_int_eq(W.fault.kind, SIM_ISA_FAULT_ILLEGAL);
    }
  }
}
END_TEST


/* ---- a table of 32-bit operations: v10 = op(v1, v2, v3) against a host formula ---- */
typedef uint32_t host3(uint32_t a, uint32_t b, uint32_t c, unsigned lane);
static uint32_t h_ubyte2(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return fp_u((float)(a >> 16 & 0xff)); }
static uint32_t h_mulhi_i24(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
  return (uint32_t)((uint64_t)((int64_t)((int32_t)(a << 8) >> 8) * ((int32_t)(b << 8) >> 8)) >> 32);
}
static uint32_t h_alignbyte(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
  return (uint32_t)(((uint64_t)a << 32 | b) >> (8 * (c & 3)));
}
static uint32_t h_lerp(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
  uint32_t d = 0;
  for (int i = 0; i < 32; i += 8)
    d |= (((a >> i & 0xff) + (b >> i & 0xff) + (c >> i & 1)) >> 1) << i;
  return d;
}
static uint32_t h_sad_hi(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
  uint32_t s = 0;
  for (int i = 0; i < 32; i += 8) {
    int d = (int)(a >> i & 0xff) - (int)(b >> i & 0xff);
    s += (uint32_t)(d < 0 ? -d : d);
  }
  return (s << 16) + c;
}
static uint32_t h_max3_i16(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
  int m = (int16_t)a > (int16_t)b ? (int16_t)a : (int16_t)b;
  return (uint32_t)(m > (int16_t)c ? m : (int16_t)c) & 0xffff;
}
static uint32_t h_min_i32(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (int32_t)a < (int32_t)b ? a : b; }
static uint32_t h_ashr(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (uint32_t)((int32_t)b >> (a & 31)); }
static uint32_t h_bfrev(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
  uint32_t r = 0;
  for (int i = 0; i < 32; i++) r |= (a >> i & 1) << (31 - i);
  return r;
}
static uint32_t h_ffbl(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return a ? (uint32_t)__builtin_ctz(a) : ~0u; }
static uint32_t h_ffbh_i32(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
  for (int i = 30; i >= 0; i--)
    if ((a >> i & 1) != (a >> 31)) return (uint32_t)(31 - i);
  return ~0u;
}
static uint32_t h_mul_hi_i32(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
  return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32);
}
static uint32_t h_bfm(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return ((1u << (a & 31)) - 1) << (b & 31); }
static uint32_t h_sub_co_rev(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return b - a; }
static uint32_t h_and_or(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (a & b) | c; }
static uint32_t h_add_lshl(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (a + b) << (c & 31); }
static uint32_t h_cvt_f32_i32(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return fp_u((float)(int32_t)a); }
static uint32_t h_cvt_f32_u32(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return fp_u((float)a); }
static uint32_t h_subrev_u16(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (b - a) & 0xffff; }
static uint32_t h_lshr_b16(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (b & 0xffff) >> (a & 15); }
static uint32_t h_mad_i32_i16(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
  return (uint32_t)((int16_t)a * (int16_t)b) + c;
}
static uint32_t h_mad_u16(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (a * b + c) & 0xffff; }
static uint32_t h_cndmask(uint32_t a, uint32_t b, uint32_t c, unsigned l) { return (0x5555aaaa0f0fu >> l & 1) ? b : a; }
static uint32_t h_mbcnt(uint32_t a, uint32_t b, uint32_t c, unsigned l)
{
  return (uint32_t)__builtin_popcount(a & (l >= 32 ? ~0u : (1u << l) - 1)) + b;
}

START_TEST(int_op_table)
{
  static const struct { const char *text; host3 *f; uint32_t keep_hi; } ops[] = {
    { "v_cvt_f32_ubyte2 v10, v1", h_ubyte2, 0 },
    { "v_mul_hi_i32_i24 v10, v1, v2", h_mulhi_i24, 0 },
    { "v_alignbyte_b32 v10, v1, v2, v3", h_alignbyte, 0 },
    { "v_lerp_u8 v10, v1, v2, v3", h_lerp, 0 },
    { "v_sad_hi_u8 v10, v1, v2, v3", h_sad_hi, 0 },
    { "v_max3_i16 v10, v1, v2, v3", h_max3_i16, 0 },
    { "v_min_i32 v10, v1, v2", h_min_i32, 0 },
    { "v_ashrrev_i32 v10, v1, v2", h_ashr, 0 },
    { "v_bfrev_b32 v10, v1", h_bfrev, 0 },
    { "v_ffbl_b32 v10, v1", h_ffbl, 0 },
    { "v_ffbh_i32 v10, v1", h_ffbh_i32, 0 },
    { "v_mul_hi_i32 v10, v1, v2", h_mul_hi_i32, 0 },
    { "v_bfm_b32 v10, v1, v2", h_bfm, 0 },
    { "v_subrev_co_u32 v10, vcc, v1, v2", h_sub_co_rev, 0 },
    { "v_and_or_b32 v10, v1, v2, v3", h_and_or, 0 },
    { "v_add_lshl_u32 v10, v1, v2, v3", h_add_lshl, 0 },
    { "v_cvt_f32_i32 v10, v1", h_cvt_f32_i32, 0 },
    { "v_cvt_f32_u32 v10, v1", h_cvt_f32_u32, 0 },
    { "v_subrev_u16 v10, v1, v2", h_subrev_u16, 0 },
    { "v_lshrrev_b16 v10, v1, v2", h_lshr_b16, 0 },
    { "v_mad_i32_i16 v10, v1, v2, v3", h_mad_i32_i16, 0 },
    { "v_mad_u16 v10, v1, v2, v3", h_mad_u16, 0xffff0000u },
    { "v_cndmask_b32 v10, v1, v2, vcc", h_cndmask, 0 },
    { "v_mbcnt_lo_u32_b32 v10, v1, v2", h_mbcnt, 0 },
  };
  for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    wave_reset(MODE_DENORM);
    W.vcc = 0x5555aaaa0f0full;
    for (unsigned l = 0; l < NL; l++) {
      vgprs[1][l] = (uint32_t)rnd();
      vgprs[2][l] = (uint32_t)rnd();
      vgprs[3][l] = (uint32_t)rnd();
      vgprs[10][l] = 0xdeadbeefu;
    }
    if (!strncmp(ops[k].text, "v_cvt_f32", 9))   /* values where rounding shows */
      for (unsigned l = 0; l < NL; l++) vgprs[1][l] |= 0x01000001u;
    run("gfx900", ops[k].text);
    for (unsigned l = 0; l < NL; l++) {
      uint32_t want = ops[k].f(vgprs[1][l], vgprs[2][l], vgprs[3][l], l) | (0xdeadbeefu & ops[k].keep_hi);
      ck_assert_msg(vgprs[10][l] == want, "%s lane %u: %08x %08x %08x -> %08x, want %08x", ops[k].text,
                    l, vgprs[1][l], vgprs[2][l], vgprs[3][l], vgprs[10][l], want);
    }
  }
}
END_TEST

/* ---- decoding: unknown opcodes fail, names agree with llvm-mc ---- */
START_TEST(unknown_opcode_reported)
{
  uint32_t w[2] = { 0xd1f00000u | 0x3ffu << 16, 0x00020100u };   /* VOP3 0x3ff */
  struct isa_inst in;
  memset(&in, 0, sizeof in);
  w[0] = 0xd0000000u | (0x2f0u << 16);                           /* VOP3 0x2f0: none */
  ck_assert_int_eq(isa_decode_valu(w, 2, 0, &in), -1);
  ck_assert(in.exec == NULL);
  ck_assert_str_eq(in.name, "unknown VOP3A opcode 0x2f0");
  memset(&in, 0, sizeof in);
  w[0] = 0x7e000000u | 0x7fu << 9 | 0x101u;                      /* VOP1 0x7f: none */
  ck_assert_int_eq(isa_decode_valu(w, 1, 0, &in), -1);
  ck_assert_str_eq(in.name, "unknown VOP1 opcode 0x7f");
  /* gfx906-only on gfx900 */
  memset(&in, 0, sizeof in);
  in.target = ISA_TARGET_GFX900;
  w[0] = (0x3du << 25) | 0x101u;                                  /* v_xnor_b32 */
  ck_assert_int_eq(isa_decode_valu(w, 1, 0, &in), -1);
  ck_assert_str_eq(in.name, "unknown VOP2 opcode 0x3d");
}
END_TEST

/* Every VOP3 opcode (which covers the VOP1/VOP2/VOPC opcode spaces) decodes to the name
 * llvm-mc disassembles, or fails exactly where llvm-mc has no instruction. */
static void names_match(const char *cpu)
{
  char path[] = "/tmp/test_isa_valu_dXXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "w");
  /* each opcode with one, two and three sources: llvm-mc wants unused fields zero */
  static const uint32_t w1s[3] = { 0x101u, 0x101u | 0x102u << 9, 0x101u | 0x102u << 9 | 0x103u << 18 };
  for (unsigned op = 0; op < 0x380; op++) {
    uint32_t w0 = 0xd0000000u | op << 16 | 3;
    fprintf(f, "0x07 0x00 0x80 0xbf\n");   /* s_nop 7 as a separator */
    for (int k = 0; k < 3; k++) {
      for (int i = 0; i < 4; i++) fprintf(f, "0x%02x ", w0 >> (8 * i) & 0xff);
      for (int i = 0; i < 4; i++) fprintf(f, "0x%02x ", w1s[k] >> (8 * i) & 0xff);
      fprintf(f, "\n");
    }
  }
  fprintf(f, "0x07 0x00 0x80 0xbf\n");
  fclose(f);
  char cmd[512];
  snprintf(cmd, sizeof cmd, LLVM_MC " -disassemble -show-encoding -arch=amdgcn -mcpu=%s %s 2>/dev/null",
           cpu, path);
  FILE *p = popen(cmd, "r");
  char line[256];
  static char names[0x380][64];
  memset(names, 0, sizeof names);
  int op = -1;
  while (fgets(line, sizeof line, p)) {
    char name[64];
    if (sscanf(line, " %63s", name) != 1 || name[0] == '.')
      continue;
    if (!strcmp(name, "s_nop")) { op++; continue; }
    /* only an 8-byte decoding is the VOP3 word (else llvm-mc skipped it and went on) */
    const char *enc = strstr(line, "encoding: [");
    unsigned commas = 0;
    for (const char *c = enc; c && *c && *c != ']'; c++) commas += *c == ',';
    if (op >= 0 && op < 0x380 && !names[op][0] && commas == 7) {
      char *e = strstr(name, "_e64");
      if (e) *e = 0;
      snprintf(names[op], sizeof names[op], "%s", name);
    }
  }
  pclose(p);
  unlink(path);
  ck_assert_int_eq(op, 0x380);
  unsigned checked = 0;
  for (unsigned o = 0; o < 0x380; o++) {
    uint32_t w[2] = { 0xd0000000u | o << 16 | 3, 0x101u | 0x102u << 9 };
    struct isa_inst in;
    memset(&in, 0, sizeof in);
    in.target = target_of(cpu);
    int r = isa_decode_valu(w, 2, 0, &in);
    if (!names[o][0] || !strncmp(names[o], "v_interp", 8) || !strncmp(names[o], "v_screen", 8) ||
        !strncmp(names[o], "v_mfma", 6) ||
        !strncmp(names[o], "v_accvgpr", 9) || !strncmp(names[o], "v_dot2c", 7) ||
        !strncmp(names[o], "v_dot4c", 7) || !strncmp(names[o], "v_dot8c", 7) ||
        !strncmp(names[o], "v_pk_fmac", 9) || !strncmp(names[o], "v_mov_b64", 9)) {
      bool nosrc = r == 0 && (!strcmp(in.name, "v_nop") || !strcmp(in.name, "v_clrexcp"));
      if (!names[o][0] && !nosrc)   /* llvm-mc wants their unused VOP3 fields zero */
        ck_assert_msg(r == -1, "%s: 0x%x decodes as %s, llvm-mc knows none", cpu, o, in.name);
      continue;
    }
    ck_assert_msg(r == 0, "%s: 0x%x (%s) not decoded: %s", cpu, o, names[o], in.name);
    ck_assert_msg(!strcmp(in.name, names[o]), "%s: 0x%x is %s, we say %s", cpu, o, names[o], in.name);
    checked++;
  }
  ck_assert_uint_gt(checked, 350);
}

START_TEST(decode_names_gfx900) { names_match("gfx900"); }
END_TEST
START_TEST(decode_names_gfx906) { names_match("gfx906"); }
END_TEST
START_TEST(decode_names_gfx90a) { names_match("gfx90a"); }
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("isa_valu");
  TCase *t = tcase_create("valu");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, unknown_opcode_reported);
  tcase_add_test(t, decode_names_gfx900);
  tcase_add_test(t, decode_names_gfx906);
  tcase_add_test(t, decode_names_gfx90a);
  tcase_add_test(t, f32_arith_denormals);
  tcase_add_test(t, f32_minmax_nan);
  tcase_add_test(t, f64_division_correctly_rounded);
  tcase_add_test(t, f32_division_correctly_rounded);
  tcase_add_test(t, conversions_edges);
  tcase_add_test(t, add_co_carry);
  tcase_add_test(t, dpp_row_shr_masks);
  tcase_add_test(t, sdwa_selects);
  tcase_add_test(t, vop3p_opsel);
  tcase_add_test(t, cmpx_exec);
  tcase_add_test(t, readlane_writelane);
  tcase_add_test(t, int_ops);
  tcase_add_test(t, f64_and_misc_f32);
  tcase_add_test(t, gfx906_dot_fmac);
  tcase_add_test(t, f16_ops_opsel_mix);
  tcase_add_test(t, dpp_controls_sdwa_sext);
  tcase_add_test(t, round_modes_and_misc);
  tcase_add_test(t, gfx90a_packed_f32);
  tcase_add_test(t, gfx942_64bit_ops);
  tcase_add_test(t, chip_dependent_opcode);
  tcase_add_test(t, int_op_table);
  suite_add_tcase(s, t);
  return s;
}
