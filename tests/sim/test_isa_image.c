/* SPDX-License-Identifier: MIT */
/* test_isa_image.c — gfx9 image instructions on sim/isa (exec_mimg.c, image_format.c,
 * sample.c), from code assembled by llvm-mc with T#s and S#s built here from the Vega ISA's
 * "Image Resource" / "Image Sampler" field tables, against host references written here:
 * image_load over the texel formats (8/16/32-bit unorm, snorm, uint, sint, float, f16,
 * 5_6_5, 2_10_10_10, sRGB) with dst_sel swizzles and the row pitch, zero for texels out of
 * range; image_store's conversions (round to nearest even, clamping, integer saturation) and
 * dropped out-of-range stores; image_sample (point and bilinear, normalized and not, wrap,
 * mirror, clamp, border colour; coordinates kept to 8 fraction bits) and _l/_lz, array
 * slices and a 3D trilinear sample; gather4's footprint; d16 and tfe; image_get_resinfo;
 * image_atomic_add; mip levels (load_mip, store_mip, sample_l with MIP_FILTER none, point,
 * linear, sample_cl's clamp) in the LINEAR mip chain of a 2D array, a 3D image and a 1D array. */
#include "kfd_fixture.h"
#include "isa_fixture.h"
#include "image_fixture.h"

#include <math.h>

#define NEED(code) do { if (!(code)) { fprintf(stderr, "llvm-mc missing: skipped\n"); return; } } while (0)

/* A T#: the fields at the positions of the Vega ISA's image resource table. */
struct tdesc {
  uint64_t base;
  unsigned dfmt, nfmt, width, height, depth, pitch, type, sel, last_level, base_array;
};
#define SEL_XYZW (4u | 5u << 3 | 6u << 6 | 7u << 9)
#define SEL_X001 (4u | 0u << 3 | 0u << 6 | 1u << 9)
#define SEL_ZYXW (6u | 5u << 3 | 4u << 6 | 7u << 9)

static void tsharp(uint32_t d[8], const struct tdesc *t)
{
  memset(d, 0, 32);
  d[0] = (uint32_t)(t->base >> 8);
  d[1] = (uint32_t)(t->base >> 40) & 0xff;
  d[1] |= (t->dfmt & 63) << 20 | (t->nfmt & 15) << 26;
  d[2] = (t->width - 1) | (t->height - 1) << 14;
  d[3] = t->sel | t->last_level << 16 | t->type << 28;   /* SW_MODE 0: linear */
  d[4] = (t->depth - 1) | (t->pitch - 1) << 13;
  d[5] = t->base_array;
}

/* An S#: clamp x/y/z, force unnormalized, filters, border colour type; MAX_LOD 15 */
static void ssharp(uint32_t d[4], unsigned clamp, bool unnorm, unsigned filter, unsigned border)
{
  d[0] = clamp | clamp << 3 | clamp << 6 | (unnorm ? 1u << 15 : 0);
  d[1] = 0xfffu << 12;
  d[2] = filter << 20 | filter << 22;
  d[3] = border << 30;
}

/* desc buffer: T# at 0, S# at 0x20, lane l's address dwords at 256 + 16 l, its store data at
 * 1280 + 16 l; out: four dwords per lane (five with tfe: v[8:12] at 32 l) */
struct job {
  uint32_t *desc, *out;
  void *code;
};

static void job_init(struct job *j, const char *inst, bool five)
{
  char src[1024];
  snprintf(src, sizeof src,
           "s_load_dwordx8 s[8:15], s[0:1], 0x0\n"
           "s_load_dwordx4 s[16:19], s[0:1], 0x20\n"
           "v_lshlrev_b32 v3, 4, v0\n"
           "global_load_dwordx4 v[4:7], v3, s[0:1] offset:256\n"
           "global_load_dwordx4 v[12:15], v3, s[0:1] offset:1280\n"
           "v_mov_b32 v8, 0x7f7f7f7f\n"
           "v_mov_b32 v9, 0x7f7f7f7f\n"
           "v_mov_b32 v10, 0x7f7f7f7f\n"
           "v_mov_b32 v11, 0x7f7f7f7f\n"
           "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
           "%s\n"
           "s_waitcnt vmcnt(0)\n"
           "v_lshlrev_b32 v3, %d, v0\n"
           "global_store_dwordx4 v3, v[8:11], s[2:3]\n"
           "%s"
           "s_endpgm\n",
           inst, five ? 5 : 4, five ? "global_store_dword v3, v12, s[2:3] offset:16\n" : "");
  j->code = isa_fx_code(src);
  j->desc = isa_fx_mem(4096);
  j->out = isa_fx_mem(64 * 32);
}

static void job_run(struct job *j)
{
  struct isa_fx_run r;
  isa_fx_setup(&r, j->code, 1, (uintptr_t)j->desc, (uintptr_t)j->out);
  ck_assert_msg(isa_fx_go(&r) == 0, "fault: %s", r.fault.text);
}

static float f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t u32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static float half(uint16_t h)
{
  int e = (h >> 10) & 31, m = h & 1023;
  float v = e ? ldexpf((float)(m | 1024), e - 25) : ldexpf((float)m, -24);
  return h & 0x8000 ? -v : v;
}

static uint32_t rng = 7;
static uint32_t rnd(void) { rng = rng * 1103515245u + 12345u; return rng >> 4; }

/* ---- image_load over the formats ---- */
struct fcase {
  const char *name;
  unsigned dfmt, nfmt, bytes, sel;
};

/* The expected (pre-swizzle) channels of texel bytes p, from the format's definition. */
static void expect(const struct fcase *c, const uint8_t *p, uint32_t o[4])
{
  uint64_t v = 0;
  for (unsigned b = c->bytes; b-- > 0;) v = v << 8 | p[b];
  bool isint = c->nfmt == 4 || c->nfmt == 5;
  o[0] = o[1] = o[2] = 0, o[3] = isint ? 1 : u32(1.0f);
  switch (c->dfmt) {
  case 10:   /* 8_8_8_8 */
    for (int i = 0; i < 4; i++) {
      unsigned x = (v >> (8 * i)) & 0xff;
      o[i] = c->nfmt == 0 ? u32((float)x / 255.0f)
           : c->nfmt == 9 ? u32(i == 3 ? (float)x / 255.0f
                                       : ((float)x / 255.0f <= 0.04045f ? (float)x / 255.0f / 12.92f
                                          : powf(((float)x / 255.0f + 0.055f) / 1.055f, 2.4f)))
           : x;
    }
    break;
  case 2: {  /* 16 snorm */
    float f = (float)(int16_t)v / 32767.0f;
    o[0] = u32(f < -1 ? -1 : f);
    break;
  }
  case 5:    /* 16_16 float */
    o[0] = u32(half((uint16_t)v)), o[1] = u32(half((uint16_t)(v >> 16)));
    break;
  case 4:    /* 32 uint */
    o[0] = (uint32_t)v;
    break;
  case 16:   /* 5_6_5: X in the low bits */
    o[0] = u32((float)(v & 31) / 31.0f), o[1] = u32((float)((v >> 5) & 63) / 63.0f);
    o[2] = u32((float)((v >> 11) & 31) / 31.0f);
    break;
  case 9:    /* 2_10_10_10: X in bits 9:0, W in 31:30 */
    for (int i = 0; i < 3; i++) o[i] = u32((float)((v >> (10 * i)) & 1023) / 1023.0f);
    o[3] = u32((float)((v >> 30) & 3) / 3.0f);
    break;
  case 12:   /* 16_16_16_16 sint */
    for (int i = 0; i < 4; i++) o[i] = (uint32_t)(int32_t)(int16_t)(v >> (16 * i));
    break;
  }
}

static void swz(unsigned sel, bool isint, const uint32_t in[4], uint32_t out[4])
{
  for (int i = 0; i < 4; i++) {
    unsigned s = (sel >> (3 * i)) & 7;
    out[i] = s >= 4 ? in[s - 4] : s == 1 ? (isint ? 1u : u32(1.0f)) : 0;
  }
}

START_TEST(load_formats)
{
  fx_open();
  static const struct fcase cases[] = {
    {"rgba8 unorm", 10, 0, 4, SEL_XYZW}, {"bgra8 unorm", 10, 0, 4, SEL_ZYXW},
    {"rgba8 uint", 10, 4, 4, SEL_XYZW}, {"rgba8 srgb", 10, 9, 4, SEL_XYZW},
    {"r16 snorm", 2, 1, 2, SEL_X001}, {"rg16 float", 5, 7, 4, 4u | 5u << 3 | 0u << 6 | 1u << 9},
    {"r32 uint", 4, 4, 4, SEL_X001}, {"565 unorm", 16, 0, 2, 4u | 5u << 3 | 6u << 6 | 1u << 9},
    {"2_10_10_10 unorm", 9, 0, 4, SEL_XYZW}, {"rgba16 sint", 12, 5, 8, SEL_XYZW},
  };
  struct job j;
  job_init(&j, "image_load v[8:11], v[4:5], s[8:15] dmask:0xf unorm", false);
  NEED(j.code);
  uint8_t *img = isa_fx_mem(16 * 4 * 8 + 4096);
  for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    const struct fcase *c = &cases[k];
    /* 13 x 4 texels in rows of 16 (the pitch); x 13..15 of each row is out of range */
    for (unsigned i = 0; i < 16 * 4 * c->bytes; i++) img[i] = (uint8_t)rnd();
    if (c->dfmt == 5)   /* finite halves only */
      for (unsigned i = 0; i < 16 * 4; i++) img[4 * i + 1] &= 0x3b, img[4 * i + 3] &= 0xbb;
    struct tdesc t = {(uintptr_t)img, c->dfmt, c->nfmt, 13, 4, 1, 16, 9, c->sel, 0, 0};
    tsharp(j.desc, &t);
    for (unsigned l = 0; l < 64; l++) {
      j.desc[64 + 4 * l] = l % 16;
      j.desc[64 + 4 * l + 1] = l / 16;
    }
    job_run(&j);
    bool isint = c->nfmt == 4 || c->nfmt == 5;
    for (unsigned l = 0; l < 64; l++) {
      uint8_t zero[8] = {0};
      uint32_t raw[4], want[4];
      expect(c, l % 16 < 13 ? img + l * c->bytes : zero, raw);
      swz(c->sel, isint, raw, want);
      for (int i = 0; i < 4; i++) {
        uint32_t got = j.out[4 * l + i];
        if (c->nfmt == 9)
          ck_assert_msg(fabsf(f32(got) - f32(want[i])) <= 1e-6f, "%s lane %u ch %d: %a want %a",
                        c->name, l, i, f32(got), f32(want[i]));
        else
          ck_assert_msg(got == want[i], "%s lane %u ch %d: 0x%x want 0x%x", c->name, l, i, got, want[i]);
      }
    }
  }
}
END_TEST

/* ---- image_store ---- */
START_TEST(store_conversions)
{
  fx_open();
  struct job j;
  job_init(&j, "image_store v[12:15], v[4:5], s[8:15] dmask:0xf unorm", false);
  NEED(j.code);
  uint8_t *img = isa_fx_mem(8192);
  /* rgba8 unorm 8 x 8 in rows of 64 texels: lane l at (l % 10, l / 10); x >= 8 or y >= 8 out
   * of range. Channel values around the rounding points, outside [0, 1] and NaN. */
  static const float vals[] = {0.0f, 1.0f, 0.5f / 255, 1.5f / 255, 2.5f / 255, -0.25f, 3.0f, NAN,
                               0.49f, 127.5f / 255};
  memset(img, 0xee, 8192);
  struct tdesc t = {(uintptr_t)img, 10, 0, 8, 8, 1, 64, 9, SEL_XYZW, 0, 0};
  tsharp(j.desc, &t);
  for (unsigned l = 0; l < 64; l++) {
    j.desc[64 + 4 * l] = l % 10, j.desc[64 + 4 * l + 1] = l / 10;
    for (int i = 0; i < 4; i++) j.desc[320 + 4 * l + i] = u32(vals[(l + 3 * i) % 10]);
  }
  job_run(&j);
  for (unsigned y = 0; y < 8; y++)
    for (unsigned x = 0; x < 64; x++) {
      const uint8_t *p = img + (y * 64 + x) * 4;
      unsigned l = y * 10 + x;
      for (int i = 0; i < 4; i++) {
        uint8_t want = 0xee;
        if (x < 8 && l < 64) {
          float v = vals[(l + 3 * i) % 10];
          v = v != v ? 0 : v < 0 ? 0 : v > 1 ? 1 : v;
          want = (uint8_t)rintf(v * 255);   /* ties to even: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2 */
        }
        ck_assert_msg(p[i] == want, "texel (%u,%u) ch %d: 0x%02x want 0x%02x", x, y, i, p[i], want);
      }
    }
  /* r8 uint saturates; rgba16 float rounds to nearest even */
  memset(img, 0, 8192);
  t = (struct tdesc){(uintptr_t)img, 1, 4, 64, 1, 1, 256, 8, SEL_X001, 0, 0};
  tsharp(j.desc, &t);
  for (unsigned l = 0; l < 64; l++) j.desc[64 + 4 * l] = l, j.desc[320 + 4 * l] = l * 7;
  job_run(&j);
  for (unsigned l = 0; l < 64; l++)
    ck_assert_uint_eq(img[l], l * 7 > 255 ? 255 : l * 7);
  t = (struct tdesc){(uintptr_t)img, 12, 7, 64, 1, 1, 64, 8, SEL_XYZW, 0, 0};
  tsharp(j.desc, &t);
  for (unsigned l = 0; l < 64; l++)
    for (int i = 0; i < 4; i++) j.desc[320 + 4 * l + i] = u32(1.0f + (float)(l * 4 + i) * 0x1p-12f);
  job_run(&j);
  for (unsigned l = 0; l < 64; l++)
    for (int i = 0; i < 4; i++) {
      uint16_t h;
      memcpy(&h, img + 8 * l + 2 * i, 2);
      unsigned k = l * 4 + i;   /* 1 + k/4096: f16 keeps k/4 (ulp 1/1024), ties to even */
      unsigned q = k / 4, r = k % 4, m = q + (r > 2 || (r == 2 && (q & 1)));
      ck_assert_msg(h == 0x3c00 + m, "lane %u ch %d: 0x%04x want 0x%04x", l, i, h, 0x3c00 + m);
    }
}
END_TEST

/* ---- sampling ---- */
/* the host's texel-space sampler over v(x, y) = x + 8 y (8 x 4, r32 float) */
static int addr(unsigned mode, int i, int n)
{
  switch (mode) {
  case 0: return ((i % n) + n) % n;
  case 1: { int m = i < 0 ? -1 - i : i; m %= 2 * n; return m < n ? m : 2 * n - 1 - m; }
  case 2: return i < 0 ? 0 : i >= n ? n - 1 : i;
  default: return i < 0 || i >= n ? -1 : i;
  }
}

static float tex(unsigned mode, int x, int y, float border)
{
  int a = addr(mode, x, 8), b = addr(mode, y, 4);
  return a < 0 || b < 0 ? border : (float)(a + 8 * b);
}

/* texel-space coordinates snap to 1/256 (rounded to nearest) before the texel choice and the
 * weights */
static float ref(unsigned mode, bool linear, float u, float v, float border)
{
  u = rintf(u * 256) / 256, v = rintf(v * 256) / 256;
  if (!linear) return tex(mode, (int)floorf(u), (int)floorf(v), border);
  float uu = u - 0.5f, vv = v - 0.5f;
  int x = (int)floorf(uu), y = (int)floorf(vv);
  float a = uu - floorf(uu), b = vv - floorf(vv);
  return (1 - b) * ((1 - a) * tex(mode, x, y, border) + a * tex(mode, x + 1, y, border)) +
         b * ((1 - a) * tex(mode, x, y + 1, border) + a * tex(mode, x + 1, y + 1, border));
}

START_TEST(sample_modes)
{
  fx_open();
  struct job j;
  job_init(&j, "image_sample_lz v[8:11], v[4:5], s[8:15], s[16:19] dmask:0xf", false);
  NEED(j.code);
  float *img = isa_fx_mem(4096);
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 64; x++) img[y * 64 + x] = x < 8 ? (float)(x + 8 * y) : NAN;
  struct tdesc t = {(uintptr_t)img, 4, 7, 8, 4, 1, 64, 9, SEL_X001, 0, 0};
  static const unsigned modes[] = {2, 0, 1, 6};   /* clamp last texel, wrap, mirror, border */
  for (unsigned mi = 0; mi < 4; mi++)
    for (int linear = 0; linear < 2; linear++)
      for (int unnorm = 0; unnorm < 2; unnorm++) {
        if (unnorm && (modes[mi] == 0 || modes[mi] == 1)) continue;
        tsharp(j.desc, &t);
        ssharp(j.desc + 8, modes[mi], unnorm, (unsigned)linear, 2);   /* opaque white border */
        float us[64], vs[64];
        for (unsigned l = 0; l < 64; l++) {
          /* texel-space coordinates in [-3, 11) x [-2, 6), fractions like 0.3 that the
           * filter's 8 bits cannot hold */
          us[l] = -3.0f + (float)(rnd() % 1400) / 100.0f;
          vs[l] = -2.0f + (float)(rnd() % 800) / 100.0f;
          j.desc[64 + 4 * l] = u32(unnorm ? us[l] : us[l] / 8.0f);
          j.desc[64 + 4 * l + 1] = u32(unnorm ? vs[l] : vs[l] / 4.0f);
        }
        job_run(&j);
        for (unsigned l = 0; l < 64; l++) {
          float u = unnorm ? us[l] : f32(u32(us[l] / 8.0f)) * 8.0f;
          float v = unnorm ? vs[l] : f32(u32(vs[l] / 4.0f)) * 4.0f;
          float want = ref(modes[mi], linear, u, v, 1.0f), got = f32(j.out[4 * l]);
          ck_assert_msg(fabsf(got - want) <= (linear ? 1e-4f : 0), "mode %u linear %d unnorm %d at (%g, %g): %a want %a",
                        modes[mi], linear, unnorm, u, v, got, want);
          ck_assert_uint_eq(j.out[4 * l + 1], 0);
          /* alpha: SEL_1, except the border's own alpha is swizzled away too */
          ck_assert_uint_eq(j.out[4 * l + 3], u32(1.0f));
        }
      }
  /* coordinates keep 8 fraction bits, rounded: u = 1.8 (0.3 past texel 1's centre) becomes
   * 461/256 and blends texels 1 and 2 with 77/256, not 0.3 */
  tsharp(j.desc, &t);
  ssharp(j.desc + 8, 2, true, 1, 0);
  for (unsigned l = 0; l < 64; l++) j.desc[64 + 4 * l] = u32(1.8f), j.desc[64 + 4 * l + 1] = u32(0.5f);
  job_run(&j);
  ck_assert_msg(fabsf(f32(j.out[0]) - (1.0f + 77.0f / 256)) < 1e-6f, "%a", f32(j.out[0]));
}
END_TEST

START_TEST(sample_lod_array_3d)
{
  fx_open();
  /* image_sample_l with an explicit lod picks MAG (lod <= 0) or MIN: point vs linear */
  struct job j;
  job_init(&j, "image_sample_l v[8:11], v[4:6], s[8:15], s[16:19] dmask:0xf", false);
  NEED(j.code);
  float *img = isa_fx_mem(65536);
  for (int i = 0; i < 64 * 4 * 4; i++) img[i] = (float)i;
  struct tdesc t = {(uintptr_t)img, 4, 7, 8, 4, 1, 64, 9, SEL_X001, 0, 0};
  tsharp(j.desc, &t);
  ssharp(j.desc + 8, 2, true, 0, 0);
  j.desc[10] = 0u << 20 | 1u << 22;   /* MAG point, MIN linear */
  for (unsigned l = 0; l < 64; l++) {
    j.desc[64 + 4 * l] = u32(2.0f), j.desc[64 + 4 * l + 1] = u32(1.5f);
    j.desc[64 + 4 * l + 2] = u32(l < 32 ? -1.0f : 1.0f);
  }
  job_run(&j);
  for (unsigned l = 0; l < 64; l++)   /* point: texel (2, 1) = 66; linear: (1.5 + 2) / 2 .. */
    ck_assert_msg(f32(j.out[4 * l]) == (l < 32 ? 66.0f : 65.5f), "lane %u: %g", l, f32(j.out[4 * l]));

  /* a 2D array: the slice coordinate rounds to nearest and clamps to [base, last] */
  struct job a;
  job_init(&a, "image_sample_lz v8, v[4:6], s[8:15], s[16:19] dmask:0x1 da", false);
  struct tdesc ta = {(uintptr_t)img, 4, 7, 8, 4, 3, 64, 13, SEL_X001, 0, 0};
  tsharp(a.desc, &ta);
  ssharp(a.desc + 8, 2, true, 0, 0);
  static const float sl[] = {-2.0f, 0.4f, 0.6f, 1.5f, 2.5f, 7.0f};
  static const int want_sl[] = {0, 0, 1, 2, 2, 2};
  for (unsigned l = 0; l < 64; l++) {
    a.desc[64 + 4 * l] = u32(3.5f), a.desc[64 + 4 * l + 1] = u32(2.5f), a.desc[64 + 4 * l + 2] = u32(sl[l % 6]);
  }
  job_run(&a);
  for (unsigned l = 0; l < 64; l++)   /* texel (3, 2) of slice s: s * 4 rows of 64 */
    ck_assert_msg(f32(a.out[4 * l]) == (float)(want_sl[l % 6] * 256 + 2 * 64 + 3), "lane %u: %g", l, f32(a.out[4 * l]));

  /* 3D trilinear at the centre of 8 texels: their mean */
  struct job k;
  job_init(&k, "image_sample_lz v8, v[4:6], s[8:15], s[16:19] dmask:0x1", false);
  struct tdesc t3 = {(uintptr_t)img, 4, 7, 8, 4, 4, 64, 10, SEL_X001, 0, 0};
  tsharp(k.desc, &t3);
  ssharp(k.desc + 8, 2, true, 1, 0);
  for (unsigned l = 0; l < 64; l++)
    k.desc[64 + 4 * l] = u32(2.0f), k.desc[64 + 4 * l + 1] = u32(1.0f), k.desc[64 + 4 * l + 2] = u32(2.0f);
  job_run(&k);
  /* texels x 1..2, y 0..1, z 1..2: mean of x + 64 y + 256 z = 1.5 + 32 + 384 */
  ck_assert_msg(f32(k.out[0]) == 417.5f, "%g", f32(k.out[0]));
}
END_TEST

START_TEST(d16_tfe_resinfo_atomic)
{
  fx_open();
  uint16_t *img = isa_fx_mem(4096);
  for (int i = 0; i < 64 * 4; i++) img[i] = (uint16_t)(0x3c00 + i);   /* halves 1.0 + i/1024 */
  struct tdesc t = {(uintptr_t)img, 12, 7, 64, 1, 1, 64, 8, SEL_XYZW, 0, 0};
  /* d16: four halves packed in two VGPRs, as stored */
  struct job j;
  job_init(&j, "image_load v[8:9], v4, s[8:15] dmask:0xf unorm d16", false);
  NEED(j.code);
  tsharp(j.desc, &t);
  for (unsigned l = 0; l < 64; l++) j.desc[64 + 4 * l] = l;
  job_run(&j);
  for (unsigned l = 0; l < 64; l++) {
    ck_assert_uint_eq(j.out[4 * l], (uint32_t)img[4 * l] | (uint32_t)img[4 * l + 1] << 16);
    ck_assert_uint_eq(j.out[4 * l + 1], (uint32_t)img[4 * l + 2] | (uint32_t)img[4 * l + 3] << 16);
    ck_assert_uint_eq(j.out[4 * l + 2], 0x7f7f7f7f);   /* untouched */
  }
  /* d16 into the last two of the 64 allocated VGPRs: within the allocation (four channels in
   * two VGPRs), no fault */
  void *last = isa_fx_code("s_load_dwordx8 s[8:15], s[0:1], 0x0\n"
                           "v_mov_b32 v4, v0\n"
                           "s_waitcnt lgkmcnt(0)\n"
                           "image_load v[62:63], v4, s[8:15] dmask:0xf unorm d16\n"
                           "s_waitcnt vmcnt(0)\n"
                           "v_lshlrev_b32 v3, 3, v0\n"
                           "global_store_dwordx2 v3, v[62:63], s[2:3]\n"
                           "s_endpgm\n");
  struct isa_fx_run lr;
  isa_fx_setup(&lr, last, 1, (uintptr_t)j.desc, (uintptr_t)j.out);
  ck_assert_msg(isa_fx_go(&lr) == 0, "fault: %s", lr.fault.text);
  for (unsigned l = 0; l < 64; l++)
    ck_assert_uint_eq(j.out[2 * l], (uint32_t)img[4 * l] | (uint32_t)img[4 * l + 1] << 16);
  /* tfe: one more VGPR, written 0; dmask 0x5 packs x and z */
  struct job f;
  job_init(&f, "image_load v[8:10], v4, s[8:15] dmask:0x5 unorm tfe", true);
  tsharp(f.desc, &t);
  for (unsigned l = 0; l < 64; l++) f.desc[64 + 4 * l] = l;
  job_run(&f);
  for (unsigned l = 0; l < 64; l++) {
    ck_assert_uint_eq(f.out[8 * l], u32(half(img[4 * l])));
    ck_assert_uint_eq(f.out[8 * l + 1], u32(half(img[4 * l + 2])));
    ck_assert_uint_eq(f.out[8 * l + 2], 0);   /* the tfe VGPR */
    ck_assert_uint_eq(f.out[8 * l + 3], 0x7f7f7f7f);
  }
  /* get_resinfo of a 13 x 6 2D image at mip 0: width, height, -, levels */
  struct job r;
  job_init(&r, "image_get_resinfo v[8:11], v4, s[8:15] dmask:0xf unorm", false);
  struct tdesc t2 = {(uintptr_t)img, 10, 0, 13, 6, 1, 64, 9, SEL_XYZW, 0, 0};
  tsharp(r.desc, &t2);
  job_run(&r);
  ck_assert_uint_eq(r.out[0], 13);
  ck_assert_uint_eq(r.out[1], 6);
  ck_assert_uint_eq(r.out[3], 1);
  /* image_atomic_add on a 32-bit uint 1D image: every lane adds to texel l % 4 */
  struct job at;
  job_init(&at, "image_atomic_add v12, v4, s[8:15] dmask:0x1 unorm glc", false);
  uint32_t *cnt = isa_fx_mem(4096);
  struct tdesc t4 = {(uintptr_t)cnt, 4, 4, 4, 1, 1, 64, 8, SEL_X001, 0, 0};
  tsharp(at.desc, &t4);
  for (unsigned l = 0; l < 64; l++) at.desc[64 + 4 * l] = l % 4 + (l >= 60 ? 4 : 0), at.desc[320 + 4 * l] = l;
  /* (glc returns the old value into v12, which the program does not store: memory is checked) */
  job_run(&at);
  uint32_t want[4] = {0, 0, 0, 0};
  for (unsigned l = 0; l < 60; l++) want[l % 4] += l;   /* lanes 60.. are out of range */
  for (int i = 0; i < 4; i++) ck_assert_uint_eq(cnt[i], want[i]);
  ck_assert_uint_eq(cnt[4], 0);
}
END_TEST

/* gather4: the dmask channel (after dst_sel) of the bilinear footprint, x: (i0, j1),
 * y: (i1, j1), z: (i1, j0), w: (i0, j0); border texels take the border colour */
START_TEST(gather4_footprint)
{
  fx_open();
  struct job j;
  job_init(&j, "image_gather4_lz v[8:11], v[4:5], s[8:15], s[16:19] dmask:0x2", false);
  NEED(j.code);
  float *img = isa_fx_mem(4096);
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 8; x++) img[2 * (y * 64 + x)] = -1, img[2 * (y * 64 + x) + 1] = (float)(x + 8 * y);
  /* 32_32 float, dst_sel (Y, X, 0, 1): dmask 0x2 picks channel y = the texel's X */
  struct tdesc t = {(uintptr_t)img, 11, 7, 8, 4, 1, 64, 9, 5u | 4u << 3 | 0u << 6 | 1u << 9, 0, 0};
  tsharp(j.desc, &t);
  ssharp(j.desc + 8, 6, true, 1, 2);   /* border, opaque white */
  for (unsigned l = 0; l < 64; l++) {
    j.desc[64 + 4 * l] = u32(l < 32 ? 2.3f : -0.2f);
    j.desc[64 + 4 * l + 1] = u32(l < 32 ? 1.7f : 0.1f);
  }
  job_run(&j);
  static const float inside[4] = {17, 18, 10, 9}, edge[4] = {1, 1, 1, 1};
  for (unsigned l = 0; l < 64; l++)
    for (int k = 0; k < 4; k++) {
      /* (-0.2, 0.1): i0 = -1, j0 = -1: only (0, 0) (the y result) is inside, value -1 */
      float want = l < 32 ? -1 : (k == 1 ? -1 : edge[k]);
      ck_assert_msg(f32(j.out[4 * l + k]) == want, "lane %u result %d: %g want %g", l, k,
                    f32(j.out[4 * l + k]), want);
    }
  (void)inside;
  /* dst_sel X, 0, 0, 1 and dmask 0x1: the texels' second dword is the value */
  t.sel = 5u | 0u << 3 | 0u << 6 | 1u << 9;
  struct job g;
  job_init(&g, "image_gather4_lz v[8:11], v[4:5], s[8:15], s[16:19] dmask:0x1", false);
  tsharp(g.desc, &t);
  ssharp(g.desc + 8, 6, true, 1, 2);
  for (unsigned l = 0; l < 64; l++) g.desc[64 + 4 * l] = u32(2.3f), g.desc[64 + 4 * l + 1] = u32(1.7f);
  job_run(&g);
  for (int k = 0; k < 4; k++)
    ck_assert_msg(f32(g.out[k]) == inside[k], "result %d: %g want %g", k, f32(g.out[k]), inside[k]);
}
END_TEST

/* A load naming a resource that is no image (TYPE < 8) faults with a message, no crash */
/* Mip levels: gfx9 addrlib's LINEAR chain (every level at the level-0 pitch, level i's
 * ceil(H / 2^i) rows after the levels before it, a layer or 3D slice holding the chain of
 * MAX_MIP + 1 levels) through image_load_mip, image_store_mip and image_sample_l with the S#'s
 * MIP_FILTER none, point and linear. Texel values are their own dword offsets. */
static unsigned chain_row(unsigned h, unsigned level)   /* first row of `level` */
{
  unsigned r = 0;
  for (unsigned i = 0; i < level; i++) r += (h + (1u << i) - 1) >> i;
  return r;
}

START_TEST(mip_chain)
{
  fx_open();
  float *img = isa_fx_mem(65536);
  for (int i = 0; i < 16384; i++) img[i] = (float)i;
  /* a 5 x 5 2D array of 2 layers, 3 levels (5x5, 2x2, 1x1: 5 + 3 + 2 rows a layer), R32F */
  struct job j;
  job_init(&j, "image_load_mip v8, v[4:7], s[8:15] dmask:0x1 unorm da", false);
  NEED(j.code);
  struct tdesc t = {(uintptr_t)img, 4, 7, 5, 5, 2, 64, 13, SEL_X001, 2, 0};
  tsharp(j.desc, &t);
  j.desc[5] |= 2u << 28;   /* MAX_MIP */
  for (unsigned l = 0; l < 64; l++) {
    unsigned lv = l % 4, dim = lv < 3 ? 5u >> lv : 1;
    j.desc[64 + 4 * l] = (l / 4) % (dim ? dim : 1);
    j.desc[64 + 4 * l + 1] = (l / 3) % (dim ? dim : 1);
    j.desc[64 + 4 * l + 2] = (l / 2) % 2;
    j.desc[64 + 4 * l + 3] = lv;   /* 3: beyond LAST_LEVEL, reads 0 */
  }
  job_run(&j);
  for (unsigned l = 0; l < 64; l++) {
    uint32_t *a = j.desc + 64 + 4 * l;
    float want = a[3] > 2 ? 0.0f
                          : (float)(a[2] * 10 * 64 + (chain_row(5, a[3]) + a[1]) * 64 + a[0]);
    ck_assert_msg(f32(j.out[4 * l]) == want, "2da lane %u level %u: %g, want %g", l, a[3],
                  f32(j.out[4 * l]), want);
  }
  /* a 4 x 4 x 4 3D image of 3 levels (4 + 2 + 1 rows a slice; level i has 4 >> i slices):
   * image_store_mip of each lane's number at level l % 3 */
  struct job st;
  job_init(&st, "image_store_mip v12, v[4:7], s[8:15] dmask:0x1 unorm", false);
  uint32_t *mem = isa_fx_mem(65536);
  memset(mem, 0xff, 65536);
  struct tdesc t3 = {(uintptr_t)mem, 4, 4, 4, 4, 4, 64, 10, SEL_X001, 2, 0};
  tsharp(st.desc, &t3);
  st.desc[5] |= 2u << 28;
  for (unsigned l = 0; l < 64; l++) {
    unsigned lv = l % 3, n = 4u >> lv;
    st.desc[64 + 4 * l] = (l / 3) % n;
    st.desc[64 + 4 * l + 1] = (l / 5) % n;
    st.desc[64 + 4 * l + 2] = (l / 7) % n;
    st.desc[64 + 4 * l + 3] = lv;
    st.desc[320 + 4 * l] = 1000 + l;
  }
  job_run(&st);
  for (unsigned l = 0; l < 64; l++) {   /* the last lane to a texel wins */
    uint32_t *a = st.desc + 64 + 4 * l;
    unsigned off = a[2] * 7 * 64 + (chain_row(4, a[3]) + a[1]) * 64 + a[0];
    bool later = false;
    for (unsigned k = l + 1; k < 64; k++)
      later |= !memcmp(st.desc + 64 + 4 * k, a, 16);
    if (!later) ck_assert_msg(mem[off] == 1000 + l, "3d lane %u: dword %u = %u", l, off, mem[off]);
  }
  ck_assert_uint_eq(mem[7 * 64 * 4], 0xffffffffu);   /* past the 4 slices: untouched */
  /* a 1D array of 8 x 3 layers, 2 levels: a layer is 2 rows (one a level) */
  struct job o;
  job_init(&o, "image_load_mip v8, v[4:6], s[8:15] dmask:0x1 unorm da", false);
  struct tdesc t1 = {(uintptr_t)img, 4, 7, 8, 1, 3, 64, 12, SEL_X001, 1, 0};
  tsharp(o.desc, &t1);
  o.desc[5] |= 1u << 28;
  for (unsigned l = 0; l < 64; l++)
    o.desc[64 + 4 * l] = l % (l % 2 ? 4 : 8), o.desc[64 + 4 * l + 1] = l % 3, o.desc[64 + 4 * l + 2] = l % 2;
  job_run(&o);
  for (unsigned l = 0; l < 64; l++)
    ck_assert_msg(f32(o.out[4 * l]) == (float)((l % 3) * 128 + (l % 2) * 64 + l % (l % 2 ? 4 : 8)),
                  "1da lane %u: %g", l, f32(o.out[4 * l]));
  /* image_sample_l of a 4 x 4 2D image of 3 levels (rows 0, 4, 6) at (0.1, 0.1), point
   * filters: MIP_FILTER none reads the base level; point the nearest level; linear blends the
   * two around the LOD; a LOD past LAST_LEVEL clamps */
  struct job sm;
  job_init(&sm, "image_sample_l v[8:11], v[4:6], s[8:15], s[16:19] dmask:0xf", false);
  struct tdesc t2 = {(uintptr_t)img, 4, 7, 4, 4, 1, 64, 9, SEL_X001, 2, 0};
  tsharp(sm.desc, &t2);
  sm.desc[5] |= 2u << 28;
  static const float lods[] = {1.0f, 0.4f, 0.6f, 1.4f, 7.0f, 0.5f, 1.25f, -1.0f};
  static const unsigned mf[] = {0, 1, 1, 1, 1, 2, 2, 2};
  const float lv0 = 0.0f, lv1 = 4 * 64, lv2 = 6 * 64;
  const float want[] = {lv0, lv0, lv1, lv1, lv2, (lv0 + lv1) / 2, 0.75f * lv1 + 0.25f * lv2, lv0};
  for (unsigned c = 0; c < 8; c++) {
    ssharp(sm.desc + 8, 2, false, 0, 0);
    sm.desc[10] |= mf[c] << 26;
    for (unsigned l = 0; l < 64; l++) {
      sm.desc[64 + 4 * l] = u32(0.1f), sm.desc[64 + 4 * l + 1] = u32(0.1f);
      sm.desc[64 + 4 * l + 2] = u32(lods[c]);
    }
    job_run(&sm);
    ck_assert_msg(f32(sm.out[0]) == want[c], "sample_l case %u (lod %g, MIP_FILTER %u): %g, want %g",
                  c, lods[c], mf[c], f32(sm.out[0]), want[c]);
  }
  /* image_sample_cl: every lane at the same coordinates (the quad's LOD is -inf, MIN_LOD 0),
   * the clamp VGPR a lower bound on the LOD: 0 reads level 0, 1.0 level 1 (MIP_FILTER point) */
  struct job cl;
  job_init(&cl, "image_sample_cl v[8:11], v[4:6], s[8:15], s[16:19] dmask:0xf", false);
  tsharp(cl.desc, &t2);
  cl.desc[5] |= 2u << 28;
  ssharp(cl.desc + 8, 2, false, 0, 0);
  cl.desc[10] |= 1u << 26;
  for (unsigned l = 0; l < 64; l++) {
    cl.desc[64 + 4 * l] = u32(0.1f), cl.desc[64 + 4 * l + 1] = u32(0.1f);
    cl.desc[64 + 4 * l + 2] = u32(l < 32 ? 0.0f : 1.0f);
  }
  job_run(&cl);
  for (unsigned l = 0; l < 64; l++)
    ck_assert_msg(f32(cl.out[4 * l]) == (l < 32 ? lv0 : lv1), "sample_cl lane %u: %g", l, f32(cl.out[4 * l]));
}
END_TEST

/* ---- gfx9 tiled layouts against addrlib (tests/fixtures/image/gfx9_swizzle.txt) ---- */
#include "isa/image.h"

/* A T# of fixture surface f at img (tests/image_fixture.h): its sizes, TYPE, SW_MODE and mip
 * levels (LAST_LEVEL, MAX_MIP), the UINT format of its texel size, PITCH pitch */
static void tsharp_fixture(uint32_t d[8], void *img, const struct imgfx_surface *f, unsigned pitch)
{
  /* uint formats: 8, 16_16... as 8 (1), 16 (2), 32 (4), 32_32 (11), 32_32_32_32 (14) */
  unsigned bytes = f->bpp / 8;
  unsigned dfmt = bytes == 1 ? 1 : bytes == 2 ? 2 : bytes == 4 ? 4 : bytes == 8 ? 11 : 14;
  unsigned type = f->geo == IMGFX_3D ? 10 : f->slices > 1 ? 13 : 9;
  struct tdesc t = {(uintptr_t)img, dfmt, 4, f->w, f->h, f->slices, pitch, type, SEL_XYZW,
                    f->levels - 1, 0};
  tsharp(d, &t);
  d[3] |= f->mode << 20;
  d[5] |= (f->levels - 1) << 28;   /* MAX_MIP */
}

/* img_swizzle against every sample addrlib computed: the block and each byte offset */
START_TEST(swizzle_vs_addrlib)
{
  unsigned samples = 0;
  struct imgfx fx = imgfx_read("gfx9_swizzle.txt");
  ck_assert_uint_ge(fx.n, 300);
  for (unsigned i = 0; i < fx.n; i++) {
    const struct imgfx_surface *f = &fx.s[i];
    struct img_swizzle s;
    ck_assert_msg(img_swizzle_init(&s, f->gb, f->mode, f->geo == IMGFX_3D, f->bpp / 8),
                  "%s mode %u bpp %u %s refused", f->chip, f->mode, f->bpp, f->type);
    ck_assert_msg((1u << s.bw_log2) == f->bw && (1u << s.bh_log2) == f->bh &&
                  (1u << s.bd_log2) == f->bd,
                  "%s mode %u bpp %u %s: block %ux%ux%u, addrlib %ux%ux%u", f->chip, f->mode,
                  f->bpp, f->type, 1u << s.bw_log2, 1u << s.bh_log2, 1u << s.bd_log2, f->bw,
                  f->bh, f->bd);
    /* the _X modes align to the block, the others to 256 bytes (addrlib's base alignment) */
    ck_assert_uint_eq(f->mode >= 20 ? 1u << s.block_log2 : 256u, f->align);
    for (unsigned j = 0; j < f->nsamples; j++, samples++) {
      const struct imgfx_sample *a = &f->sample[j];
      uint64_t o = img_swizzle_offset(&s, a->x, a->y, a->z, f->pitch, f->h);
      ck_assert_msg(o == a->off, "%s %s mode %u bpp %u %s %ux%ux%u: (%u,%u,%u) at %llu, "
                    "addrlib %llu", f->chip, f->how, f->mode, f->bpp, f->type, f->w, f->h,
                    f->slices, a->x, a->y, a->z, (unsigned long long)o, a->off);
    }
  }
  ck_assert_uint_ge(samples, 6000);
  /* modes the model does not address are refused: 256-byte S, R_X, 64KB_T, 16-byte thin Z */
  struct img_swizzle s;
  ck_assert(!img_swizzle_init(&s, 0x2a114042u, 1, false, 4));
  ck_assert(!img_swizzle_init(&s, 0x2a114042u, 23, false, 4));
  ck_assert(!img_swizzle_init(&s, 0x2a114042u, 16, false, 4));
  ck_assert(!img_swizzle_init(&s, 0x2a114042u, 20, false, 16));
  imgfx_free(&fx);
}
END_TEST

/* image_store then image_load through tiled T#s (the modes ROCR picks on gfx900): each
 * stored texel lands at addrlib's offset and loads back */
START_TEST(tiled_store_load)
{
  fx_open();
  struct job st, ld;
  job_init(&st, "image_store v[12:15], v[4:6], s[8:15] dmask:0xf unorm", false);
  NEED(st.code);
  job_init(&ld, "image_load v[8:11], v[4:6], s[8:15] dmask:0xf unorm", false);
  NEED(ld.code);
  struct imgfx fx = imgfx_read("gfx9_swizzle.txt");
  static const struct { unsigned bpp, w, h, s; const char *type; unsigned mode; } pick[] = {
    {32, 257, 129, 1, "2D", 22}, {8, 1024, 768, 1, "2D", 26}, {128, 33, 17, 3, "2D", 22},
    {16, 100, 37, 5, "2D", 22}, {64, 100, 37, 1, "2D", 26}, {8, 33, 20, 9, "3D", 20},
    {32, 64, 64, 64, "3D", 24}, {128, 100, 37, 5, "3D", 26}, {64, 77, 45, 19, "3D", 21},
  };
  unsigned tested = 0;
  for (unsigned p = 0; p < sizeof pick / sizeof pick[0]; p++) {
    const struct imgfx_surface *f = NULL;
    for (unsigned i = 0; i < fx.n && !f; i++)
      if (!strcmp(fx.s[i].chip, "gfx900") && fx.s[i].bpp == pick[p].bpp && fx.s[i].w == pick[p].w &&
          fx.s[i].h == pick[p].h && fx.s[i].slices == pick[p].s &&
          !strcmp(fx.s[i].type, pick[p].type) && fx.s[i].mode == pick[p].mode)
        f = &fx.s[i];
    ck_assert_msg(f, "fixture surface %u", p);
    const struct imgfx_sample *a = f->sample;
    unsigned n = f->nsamples;
    ck_assert_msg(n && n <= 64, "fixture surface %u: %u samples", p, n);
    unsigned bytes = f->bpp / 8;
    uint8_t *img = isa_fx_mem(f->size);
    memset(img, 0, f->size);
    tsharp_fixture(st.desc, img, f, f->pitch);
    memset(st.desc + 64, 0, 64 * 16);
    for (unsigned l = 0; l < 64; l++) {
      unsigned j = l % n;
      st.desc[64 + 4 * l] = a[j].x, st.desc[64 + 4 * l + 1] = a[j].y;
      st.desc[64 + 4 * l + 2] = a[j].z;
      for (unsigned c = 0; c < 4; c++)
        st.desc[320 + 4 * l + c] = (j * 4 + c + 1) & (bytes == 1 ? 0x7f : 0x7fff);
    }
    job_run(&st);
    /* a coordinate sampled twice holds the value of the last lane that stored it */
    unsigned win[64];
    for (unsigned j = 0; j < n; j++) {
      win[j] = j;
      for (unsigned l = 0; l < 64; l++)
        if (a[l % n].x == a[j].x && a[l % n].y == a[j].y && a[l % n].z == a[j].z)
          win[j] = l % n;
    }
    for (unsigned j = 0; j < n; j++, tested++) {
      const uint8_t *q = img + a[j].off;
      unsigned comps = bytes <= 4 ? 1 : bytes / 4;
      for (unsigned c = 0; c < comps; c++) {
        uint32_t got = 0;
        memcpy(&got, q + 4 * c, bytes < 4 ? bytes : 4);
        ck_assert_msg(got == ((win[j] * 4 + c + 1) & (bytes == 1 ? 0x7f : 0x7fff)),
                      "mode %u bpp %u %s: (%u,%u,%u) at %llu ch %u holds %u", f->mode, f->bpp,
                      f->type, a[j].x, a[j].y, a[j].z, a[j].off, c, got);
      }
    }
    memcpy(ld.desc, st.desc, 4096);
    job_run(&ld);
    for (unsigned l = 0; l < n; l++)
      ck_assert_msg(ld.out[4 * l] == ((win[l] * 4 + 1) & (bytes == 1 ? 0x7f : 0x7fff)),
                    "mode %u bpp %u: load (%u,%u,%u) = %u", f->mode, f->bpp, a[l].x, a[l].y,
                    a[l].z, ld.out[4 * l]);
  }
  ck_assert_uint_ge(tested, 150);
  /* a mode the model does not address faults with its number */
  struct tdesc t = {(uintptr_t)isa_fx_mem(4096), 4, 4, 8, 8, 1, 8, 9, SEL_XYZW, 0, 0};
  tsharp(ld.desc, &t);
  ld.desc[3] |= 23u << 20;   /* SW_4KB_R_X */
  struct isa_fx_run r;
  isa_fx_setup(&r, ld.code, 1, (uintptr_t)ld.desc, (uintptr_t)ld.out);
  ck_assert_int_ne(isa_fx_go(&r), 0);
  ck_assert_msg(strstr(r.fault.text, "SW_MODE 23"), "%s", r.fault.text);
  imgfx_free(&fx);
}
END_TEST

START_TEST(bad_resource_faults)
{
  fx_open();
  void *code = isa_fx_code("s_mov_b64 s[8:9], 0\ns_mov_b64 s[10:11], 0\ns_mov_b64 s[12:13], 0\n"
                           "s_mov_b64 s[14:15], 0\nimage_load v[4:7], v0, s[8:15] dmask:0xf unorm\ns_endpgm\n");
  NEED(code);
  struct isa_fx_run r;
  isa_fx_setup(&r, code, 1, 0, 0);
  ck_assert_int_ne(isa_fx_go(&r), 0);
  ck_assert_msg(strstr(r.fault.text, "not an image resource"), "%s", r.fault.text);
}
END_TEST

/* gfx9 tiled mip chains against addrlib (tests/fixtures/image/gfx9_mips.txt): every level's
 * place (img_swizzle_chain) and every sample's byte offset (img_swizzle_offset_level) */
START_TEST(swizzle_mips_vs_addrlib)
{
  unsigned samples = 0;
  struct imgfx fx = imgfx_read("gfx9_mips.txt");
  struct img_swizzle swz;
  struct img_swizzle_level lv;
  memset(&swz, 0, sizeof swz);
  memset(&lv, 0, sizeof lv);
  for (unsigned i = 0; i < fx.n; i++) {
    const struct imgfx_surface *f = &fx.s[i];
    bool tex3d = f->geo == IMGFX_3D;
    ck_assert(img_swizzle_init(&swz, f->gb, f->mode, tex3d, f->bpp / 8));
    for (unsigned k = 0; k < f->nlevels; k++) {
      const struct imgfx_level *m = &f->lv[k];
      img_swizzle_chain(&swz, f->w, f->h, f->slices, tex3d, f->levels, m->level, &lv);
      ck_assert_msg(lv.pitch == f->chain_w && lv.height == f->chain_h && lv.tail == m->tail,
                    "level %u: chain %ux%u tail %u (%s %u %s %ux%ux%u, %u levels)", m->level,
                    lv.pitch, lv.height, lv.tail, f->chip, f->bpp, f->type, f->w, f->h, f->slices,
                    f->levels);
      /* the samples of this level (they follow its L line in the fixture) */
      for (unsigned j = 0; j < f->nsamples; j++) {
        const struct imgfx_sample *a = &f->sample[j];
        if (a->level != m->level)
          continue;
        uint64_t got = img_swizzle_offset_level(&swz, &lv, a->x, a->y, a->z);
        ck_assert_msg(got == a->off, "level %u (%u,%u,%u): %llu, addrlib %llu (%s %u %s %ux%ux%u, "
                      "%u levels)", a->level, a->x, a->y, a->z, (unsigned long long)got, a->off,
                      f->chip, f->bpp, f->type, f->w, f->h, f->slices, f->levels);
        samples++;
      }
    }
  }
  ck_assert_uint_ge(samples, 7000);
  imgfx_free(&fx);
}
END_TEST

/* image_store_mip then image_load_mip through tiled mip chains (gfx900, 32-bit texels): for a
 * few chains of tests/fixtures/image/gfx9_mips.txt, lanes store their number at up to 9
 * samples of every level; each lands at addrlib's offset and loads back */
START_TEST(tiled_mip_store_load)
{
  fx_open();
  static const struct { unsigned w, h, s, levels; const char *type; } pick[] = {
    {100, 37, 1, 7, "2D"}, {16, 300, 1, 9, "2D"}, {100, 37, 3, 7, "2D"}, {40, 30, 20, 6, "3D"},
    {300, 10, 3, 9, "3D"},
  };
  unsigned tested = 0;
  for (unsigned p = 0; p < sizeof pick / sizeof pick[0]; p++) {
    struct imgfx fx = imgfx_read("gfx9_mips.txt");
    const struct imgfx_surface *f = NULL;
    for (unsigned i = 0; i < fx.n && !f; i++)
      if (!strcmp(fx.s[i].chip, "gfx900") && fx.s[i].bpp == 32 && fx.s[i].w == pick[p].w &&
          fx.s[i].h == pick[p].h && fx.s[i].slices == pick[p].s &&
          fx.s[i].levels == pick[p].levels && !strcmp(fx.s[i].type, pick[p].type))
        f = &fx.s[i];
    /* up to 9 samples of each level, 64 in all */
    unsigned n = 0, per = 0, cur = 99;
    unsigned x[64], y[64], z[64], lv[64];
    unsigned long long off[64];
    for (unsigned j = 0; f && j < f->nsamples; j++) {
      const struct imgfx_sample *a = &f->sample[j];
      if (a->level != cur) {
        cur = a->level;
        per = 0;
      }
      if (per++ < 9 && n < 64) {
        x[n] = a->x, y[n] = a->y, z[n] = a->z, lv[n] = a->level, off[n] = a->off;
        n++;
      }
    }
    ck_assert_msg(f && n, "fixture chain %u", p);
    struct imgfx_surface chain = *f;   /* the surface without its levels and samples */
    chain.lv = NULL;
    chain.sample = NULL;
    imgfx_free(&fx);
    bool is3d = !strcmp(pick[p].type, "3D"), arr = !is3d && pick[p].s > 1;
    bool four = is3d || arr;
    struct job st, ld;
    job_init(&st, four ? (arr ? "image_store_mip v12, v[4:7], s[8:15] dmask:0x1 unorm da"
                              : "image_store_mip v12, v[4:7], s[8:15] dmask:0x1 unorm")
                       : "image_store_mip v12, v[4:6], s[8:15] dmask:0x1 unorm", false);
    NEED(st.code);
    job_init(&ld, four ? (arr ? "image_load_mip v8, v[4:7], s[8:15] dmask:0x1 unorm da"
                              : "image_load_mip v8, v[4:7], s[8:15] dmask:0x1 unorm")
                       : "image_load_mip v8, v[4:6], s[8:15] dmask:0x1 unorm", false);
    NEED(ld.code);
    uint8_t *img = isa_fx_mem(chain.size);
    memset(img, 0, chain.size);
    /* 32 UINT; PITCH: the chain's (hsa-sim derives the chain from the sizes and levels) */
    tsharp_fixture(st.desc, img, &chain, 1);
    memset(st.desc + 64, 0, 64 * 16);
    for (unsigned l = 0; l < 64; l++) {
      unsigned j = l % n;
      st.desc[64 + 4 * l] = x[j], st.desc[64 + 4 * l + 1] = y[j];
      st.desc[64 + 4 * l + 2] = four ? z[j] : lv[j];
      st.desc[64 + 4 * l + 3] = four ? lv[j] : 0;
      st.desc[320 + 4 * l] = j + 1;
    }
    job_run(&st);
    for (unsigned j = 0; j < n; j++, tested++) {
      uint32_t got;
      memcpy(&got, img + off[j], 4);
      unsigned win = j;   /* a texel sampled twice holds the last lane's number */
      for (unsigned k = 0; k < n; k++)
        if (off[k] == off[j])
          win = k;
      ck_assert_msg(got == win + 1, "mode %u %s %ux%ux%u level %u (%u,%u,%u) at %llu holds %u",
                    chain.mode, pick[p].type, pick[p].w, pick[p].h, pick[p].s, lv[j], x[j], y[j], z[j],
                    off[j], got);
    }
    memcpy(ld.desc, st.desc, 4096);
    job_run(&ld);
    for (unsigned l = 0; l < n; l++) {
      unsigned win = l;
      for (unsigned k = 0; k < n; k++)
        if (off[k] == off[l])
          win = k;
      ck_assert_msg(ld.out[4 * l] == win + 1, "load level %u (%u,%u,%u) = %u", lv[l], x[l], y[l],
                    z[l], ld.out[4 * l]);
    }
  }
  ck_assert_uint_ge(tested, 150);
}
END_TEST

Suite *test_suite(void)
{
  Suite *s = suite_create("isa_image");
  TCase *t = tcase_create("image");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, load_formats);
  tcase_add_test(t, store_conversions);
  tcase_add_test(t, sample_modes);
  tcase_add_test(t, sample_lod_array_3d);
  tcase_add_test(t, d16_tfe_resinfo_atomic);
  tcase_add_test(t, gather4_footprint);
  tcase_add_test(t, mip_chain);
  tcase_add_test(t, bad_resource_faults);
  tcase_add_test(t, swizzle_vs_addrlib);
  tcase_add_test(t, tiled_store_load);
  tcase_add_test(t, swizzle_mips_vs_addrlib);
  tcase_add_test(t, tiled_mip_store_load);
  suite_add_tcase(s, t);
  return s;
}
