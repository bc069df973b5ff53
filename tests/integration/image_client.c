/* SPDX-License-Identifier: MIT */
/* image_client.c — image kernels (image_kernels.cl) dispatched through the HSA image API:
 * images made with hsa_ext_image_create (opaque layout) and filled with hsa_ext_image_import,
 * or made with hsa_ext_image_create_with_layout (linear, the host writing the texels at the
 * row pitch it gave); hsa_ext_image_copy and _clear; samplers from hsa_ext_sampler_create, the image and sampler handles as
 * the kernel arguments; results read back from buffers or with hsa_ext_image_export. Every
 * result is compared with a host reference written here from the OpenCL C rules (format
 * conversions, addressing modes, nearest and linear filtering): bit-exact for integer
 * coordinates, nearest sampling and stores; linear filtering (texel-space coordinates snapped
 * to 1/256, the texture unit's sub-texel precision) within 1/256 of the span of the texels it
 * blends per dimension filtered.
 *
 * Mip levels: a 2D rgba8 13x6 image of 3 levels in gfx9's LINEAR mip chain (addrlib's: the
 * level-0 row pitch for all, level i's ceil(6 / 2^i) rows after the levels before), made with
 * hsa_amd_image_create from a T# template with LAST_LEVEL and MAX_MIP 2 (both runtimes), and
 * on a runtime with hsa_ext_image_create_v2 (ours; ROCR 5.2.3 has none) also with 3 levels:
 * its data_get_info_v2 size and T# against the template's; each level written with
 * write_imagef(lod) (image_store_mip) and checked in memory at the chain's offsets, read back
 * with read_imagef(sampler, lod) (image_sample_l; an S# with MIP_FILTER point written here) at
 * lod i and i + 0.3, and on ours through hsa_ext_image_mipmap_array_get_level's image
 * (image_load) and _export. gfx1100: the same through create_v2 alone (no templates there) on a
 * 100x6 image in gfx10+'s LINEAR chain (Gfx11Lib::HwlComputeSurfaceInfoLinear: the smallest
 * level first, each level at its own 256-byte-multiple pitch: 512, 256, 256), its T#'s level
 * fields checked; gfx1201: the same in gfx12's LINEAR chain (the newest ROCR's addrlib: the
 * same offsets, each level's pitch a 128-byte multiple: 512, 256, 128).
 *
 * Runs on either runtime (link it against either libhsa-runtime64). Exit 0: all passed; 1: a
 * mismatch or an API failure; 3: the runtime says it has no image extension. `--probe`: only
 * that question (0 or 3). */
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>

#include "lib/client.h"
#include "hsa/hsa_ext_image.h"

static hsa_agent_t gpu;
static hsa_queue_t *queue;
static hsa_region_t kernarg_region, fine_region;
static hsa_amd_memory_pool_t gpu_pool;
static hsa_executable_t exec;
static hsa_signal_t done;
static int failures, checks;

static void *fine_alloc(size_t n)
{
  void *p = NULL;
  CHECK(hsa_memory_allocate(fine_region, n ? n : 4, &p));
  memset(p, 0, n);
  return p;
}

/* ---- kernel arguments and dispatch ---- */
struct args {
  uint8_t buf[256];
  size_t n;
};

static void arg(struct args *a, const void *v, size_t size)
{
  a->n = (a->n + size - 1) / size * size;
  memcpy(a->buf + a->n, v, size);
  a->n += size;
}
static void arg64(struct args *a, uint64_t v) { arg(a, &v, 8); }
static void arg32(struct args *a, int32_t v) { arg(a, &v, 4); }

static void run(const char *name, struct args *a, uint32_t grid)
{
  struct client_kernel k = client_kernel_named(exec, gpu, name);
  void *ka = NULL;
  size_t size = k.kernarg_size > a->n ? k.kernarg_size : a->n;
  CHECK(hsa_memory_allocate(kernarg_region, size, &ka));
  memset(ka, 0, size);
  memcpy(ka, a->buf, a->n);
  hsa_signal_store_relaxed(done, 1);
  client_dispatch(queue, &k, ka, grid, 64, done);
  if (hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, 60ull * 1000000000ull,
                                HSA_WAIT_STATE_BLOCKED) != 0)
    FAIL("%s: the dispatch did not complete", name);
  hsa_memory_free(ka);
}

/* ---- formats under test ---- */
enum fmt { F_RGBA8, F_R32F, F_RGBA16F, F_R32I, F_RGBA16 };
static const struct {
  const char *name;
  hsa_ext_image_channel_type_t type;
  hsa_ext_image_channel_order_t order;
  unsigned bytes, comps;
} fmts[] = {
  [F_RGBA8] = {"rgba8", HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT8, HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA, 4, 4},
  [F_R32F] = {"r32f", HSA_EXT_IMAGE_CHANNEL_TYPE_FLOAT, HSA_EXT_IMAGE_CHANNEL_ORDER_R, 4, 1},
  [F_RGBA16F] = {"rgba16f", HSA_EXT_IMAGE_CHANNEL_TYPE_HALF_FLOAT, HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA, 8, 4},
  [F_R32I] = {"r32i", HSA_EXT_IMAGE_CHANNEL_TYPE_SIGNED_INT32, HSA_EXT_IMAGE_CHANNEL_ORDER_R, 4, 1},
  [F_RGBA16] = {"rgba16", HSA_EXT_IMAGE_CHANNEL_TYPE_UNORM_INT16, HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA, 8, 4},
};

static float half_to_float(uint16_t h)
{
  unsigned e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(m | 1024), (int)e - 25);
  return (h & 0x8000) ? -v : v;
}

/* nearest-even f32 -> f16, for finite values in the f16 normal range and zero (what the
 * tests write) */
static uint16_t float_to_half(float f)
{
  if (f == 0) return signbit(f) ? 0x8000 : 0;
  int e;
  float m = frexpf(fabsf(f), &e);   /* f = m * 2^e, m in [0.5, 1) */
  uint16_t s = f < 0 ? 0x8000 : 0;
  float mant = rintf(m * 2048.0f);   /* 11 significant bits, ties to even */
  if (mant == 2048.0f) { mant = 1024.0f; e++; }
  return (uint16_t)(s | (uint16_t)((e - 1 + 15) << 10) | ((uint16_t)mant & 1023));
}

/* The texel as read_imagef/read_imagei return it (the OpenCL C conversions). */
static void texel_value(enum fmt f, const uint8_t *t, float out[4], int iout[4])
{
  out[0] = out[1] = out[2] = 0, out[3] = 1;
  iout[0] = iout[1] = iout[2] = 0, iout[3] = 1;
  switch (f) {
  case F_RGBA8: for (int i = 0; i < 4; i++) out[i] = t[i] / 255.0f; break;
  case F_RGBA16:
    for (int i = 0; i < 4; i++) { uint16_t v; memcpy(&v, t + 2 * i, 2); out[i] = v / 65535.0f; }
    break;
  case F_R32F: memcpy(&out[0], t, 4); break;
  case F_RGBA16F:
    for (int i = 0; i < 4; i++) { uint16_t v; memcpy(&v, t + 2 * i, 2); out[i] = half_to_float(v); }
    break;
  case F_R32I: memcpy(&iout[0], t, 4); break;
  }
}

/* write_imagef / write_imagei to the format */
static void texel_encode(enum fmt f, const float v[4], const int iv[4], uint8_t *t)
{
  switch (f) {
  case F_RGBA8:
    for (int i = 0; i < 4; i++) {
      float x = v[i] * 255.0f;
      x = x < 0 ? 0 : x > 255 ? 255 : x;
      t[i] = (uint8_t)rintf(x);
    }
    break;
  case F_RGBA16:
    for (int i = 0; i < 4; i++) {
      float x = v[i] * 65535.0f;
      x = x < 0 ? 0 : x > 65535 ? 65535 : x;
      uint16_t h = (uint16_t)rintf(x);
      memcpy(t + 2 * i, &h, 2);
    }
    break;
  case F_R32F: memcpy(t, &v[0], 4); break;
  case F_RGBA16F:
    for (int i = 0; i < 4; i++) { uint16_t h = float_to_half(v[i]); memcpy(t + 2 * i, &h, 2); }
    break;
  case F_R32I: memcpy(t, &iv[0], 4); break;
  }
}

static uint32_t rng = 12345;
static uint32_t rnd(void) { rng = rng * 1664525u + 1013904223u; return rng >> 8; }

/* texel bytes of a random image whose values every format represents exactly */
static void fill(enum fmt f, uint8_t *t, size_t texels)
{
  for (size_t i = 0; i < texels; i++) {
    uint8_t *p = t + i * fmts[f].bytes;
    switch (f) {
    case F_RGBA8: case F_RGBA16:
      for (unsigned b = 0; b < fmts[f].bytes; b++) p[b] = (uint8_t)rnd();
      break;
    case F_R32F: { float x = (float)(int)(rnd() % 2001 - 1000) / 64.0f; memcpy(p, &x, 4); break; }
    case F_RGBA16F:
      for (int c = 0; c < 4; c++) {
        uint16_t h = float_to_half((float)(int)(rnd() % 2001 - 1000) / 128.0f);
        memcpy(p + 2 * c, &h, 2);
      }
      break;
    case F_R32I: { int32_t x = (int32_t)(rnd() * 2654435761u); memcpy(p, &x, 4); break; }
    }
  }
}

/* ---- images ---- */
struct image {
  hsa_ext_image_t h;
  hsa_ext_image_descriptor_t d;
  void *mem;
  enum fmt f;
  unsigned w, hgt, dep;   /* texels: width, height (1 for 1D), depth or layers */
};

static const char *geo_name(hsa_ext_image_geometry_t g)
{
  static const char *const n[] = {"1d", "2d", "3d", "1da", "2da", "1db", "2ddepth", "2dadepth"};
  return (unsigned)g < 8 ? n[g] : "?";
}

/* opaque images made, and those whose T# has a tiled SW_MODE (word3[24:20] on gfx9, gfx11 and
 * gfx12 alike): on gfx1100 and gfx1201 ours tiles as the newest ROCR does (2D kinds and 3D;
 * gfx1201 also small 1D kinds) */
static unsigned opaque_made, opaque_tiled;

static void image_make(struct image *im, hsa_ext_image_geometry_t g, enum fmt f, unsigned w,
                       unsigned h, unsigned d, const uint8_t *texels)
{
  memset(im, 0, sizeof *im);
  im->f = f;
  im->d.geometry = g;
  im->d.width = w;
  im->d.height = g == HSA_EXT_IMAGE_GEOMETRY_1D || g == HSA_EXT_IMAGE_GEOMETRY_1DA ? 0 : h;
  im->d.depth = g == HSA_EXT_IMAGE_GEOMETRY_3D ? d : 0;
  im->d.array_size = g == HSA_EXT_IMAGE_GEOMETRY_1DA || g == HSA_EXT_IMAGE_GEOMETRY_2DA ? d : 0;
  im->d.format.channel_type = fmts[f].type;
  im->d.format.channel_order = fmts[f].order;
  im->w = w, im->hgt = h, im->dep = d;
  hsa_ext_image_data_info_t info;
  CHECK(hsa_ext_image_data_get_info(gpu, &im->d, HSA_ACCESS_PERMISSION_RW, &info));
  if (!info.size || !info.alignment || (info.alignment & (info.alignment - 1)))
    FAIL("data_get_info %s %s: size %zu alignment %zu", geo_name(g), fmts[f].name, info.size, info.alignment);
  CHECK(hsa_amd_memory_pool_allocate(gpu_pool, info.size + info.alignment, 0, &im->mem));
  void *aligned = (void *)(((uintptr_t)im->mem + info.alignment - 1) & ~(uintptr_t)(info.alignment - 1));
  CHECK(hsa_ext_image_create(gpu, &im->d, aligned, HSA_ACCESS_PERMISSION_RW, &im->h));
  opaque_made++;
  if (g != HSA_EXT_IMAGE_GEOMETRY_1DB && ((const uint32_t *)(uintptr_t)im->h.handle)[3] >> 20 & 31)
    opaque_tiled++;
  if (texels) {
    size_t row = (size_t)w * fmts[f].bytes, n = row * h * d;
    void *src = fine_alloc(n);
    memcpy(src, texels, n);
    hsa_ext_image_region_t r = {{0, 0, 0}, {w, h, d}};
    if (g == HSA_EXT_IMAGE_GEOMETRY_1DA) r.range.y = d, r.range.z = 1;
    CHECK(hsa_ext_image_import(gpu, src, row, g == HSA_EXT_IMAGE_GEOMETRY_1DA ? row : row * h, im->h, &r));
    hsa_memory_free(src);
  }
}

static void image_free(struct image *im)
{
  CHECK(hsa_ext_image_destroy(gpu, im->h));
  hsa_amd_memory_pool_free(im->mem);
}

static void note(bool ok, const char *what, size_t i, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void note(bool ok, const char *what, size_t i, const char *fmt, ...)
{
  checks++;
  if (ok) return;
  if (failures++ < 20) {
    printf("FAIL %s: element %zu: ", what, i);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
  }
}

/* ---- integer-coordinate reads of every texel ---- */
static void test_load(hsa_ext_image_geometry_t g, enum fmt f, unsigned w, unsigned h, unsigned d)
{
  size_t n = (size_t)w * h * d;
  uint8_t *tex = malloc(n * fmts[f].bytes);
  fill(f, tex, n);
  struct image im;
  image_make(&im, g, f, w, h, d, tex);
  void *out = fine_alloc(n * 16);
  struct args a = {{0}, 0};
  arg64(&a, im.h.handle);
  arg64(&a, (uint64_t)(uintptr_t)out);
  const char *k;
  switch (g) {
  case HSA_EXT_IMAGE_GEOMETRY_1D: k = "load1d"; break;
  case HSA_EXT_IMAGE_GEOMETRY_1DB: k = "load1db"; break;
  case HSA_EXT_IMAGE_GEOMETRY_3D: k = "load3d"; arg32(&a, (int)w); arg32(&a, (int)h); break;
  case HSA_EXT_IMAGE_GEOMETRY_1DA: k = "load1da"; arg32(&a, (int)w); break;
  case HSA_EXT_IMAGE_GEOMETRY_2DA: k = "load2da"; arg32(&a, (int)w); arg32(&a, (int)h); break;
  default: k = f == F_R32I ? "load2di" : "load2d"; arg32(&a, (int)w); break;
  }
  run(k, &a, (uint32_t)n);
  char what[64];
  snprintf(what, sizeof what, "%s %s %s %ux%ux%u", k, geo_name(g), fmts[f].name, w, h, d);
  for (size_t i = 0; i < n; i++) {
    float ref[4];
    int iref[4];
    texel_value(f, tex + i * fmts[f].bytes, ref, iref);
    if (f == F_R32I) {
      const int *got = (const int *)out + 4 * i;
      note(!memcmp(got, iref, 16), what, i, "got (%d %d %d %d) want (%d %d %d %d)", got[0], got[1],
           got[2], got[3], iref[0], iref[1], iref[2], iref[3]);
    } else {
      const float *got = (const float *)out + 4 * i;
      note(!memcmp(got, ref, 16), what, i, "got (%a %a %a %a) want (%a %a %a %a)", got[0], got[1],
           got[2], got[3], ref[0], ref[1], ref[2], ref[3]);
    }
  }
  printf("ok %s (%zu texels)\n", what, n);
  hsa_memory_free(out);
  image_free(&im);
  free(tex);
}

/* ---- sampling: the host reference ---- */
struct samp {
  hsa_ext_sampler_coordinate_mode_t coord;
  hsa_ext_sampler_addressing_mode_t addr;
  hsa_ext_sampler_filter_mode_t filter;
};

static const char *samp_name(const struct samp *s, char *buf, size_t n)
{
  static const char *const am[] = {"undef", "edge", "border", "repeat", "mirror"};
  snprintf(buf, n, "%s/%s/%s", s->coord ? "norm" : "unnorm", am[s->addr],
           s->filter ? "linear" : "nearest");
  return buf;
}

/* the texel (x, y, z) of im's data with the addressing mode's border (OpenCL: (0,0,0,0), or
 * (0,0,0,1) for formats without alpha); i[k] < 0 marks the border */
static void ref_texel(const struct image *im, const uint8_t *tex, const int i[3], float out[4], int iout[4])
{
  if (i[0] < 0 || i[1] < 0 || i[2] < 0) {
    bool alpha = fmts[im->f].comps == 4;
    out[0] = out[1] = out[2] = 0, out[3] = alpha ? 0 : 1;
    iout[0] = iout[1] = iout[2] = 0, iout[3] = alpha ? 0 : 1;
    return;
  }
  size_t idx = ((size_t)i[2] * im->hgt + (size_t)i[1]) * im->w + (size_t)i[0];
  texel_value(im->f, tex + idx * fmts[im->f].bytes, out, iout);
}

/* The texel-space coordinate as the texture unit holds it: 8 fraction bits, rounded to
 * nearest (D3D's sub-texel precision; the tolerance the OpenCL C spec leaves to devices).
 * Nearest sampling needs none: the device library floors the coordinate to the texel's
 * edge before it samples, so the exact OpenCL rule holds. */
static float snap(float u) { return rintf(u * 256.0f) / 256.0f; }

/* OpenCL C 2.0 section 8.2/8.3: nearest and linear addressing of one coordinate (linear with
 * the texel-space coordinate snapped). Returns the texel index (or -1 for the border) for
 * nearest; for linear i0, i1 and the weight a. */
static int nearest_index(const struct samp *s, float c, int n)
{
  float u;
  int i;
  switch (s->addr) {
  case HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT:
    u = (c - floorf(c)) * (float)n;
    i = (int)floorf(u);
    return i > n - 1 ? i - n : i;
  case HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT: {
    float sp = fabsf(c - 2.0f * rintf(0.5f * c));
    i = (int)floorf(sp * (float)n);
    return i < n - 1 ? i : n - 1;
  }
  default:
    u = s->coord ? c * (float)n : c;
    i = (int)floorf(u);
    if (s->addr == HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE)
      return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
    return i < 0 || i >= n ? -1 : i;
  }
}

static void linear_index(const struct samp *s, float c, int n, int *i0, int *i1, float *a)
{
  float u;
  switch (s->addr) {
  case HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT:
    u = snap((c - floorf(c)) * (float)n);
    *i0 = (int)floorf(u - 0.5f);
    *i1 = *i0 + 1;
    if (*i0 < 0) *i0 += n;
    if (*i1 > n - 1) *i1 -= n;
    break;
  case HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT: {
    float sp = fabsf(c - 2.0f * rintf(0.5f * c));
    u = snap(sp * (float)n);
    *i0 = (int)floorf(u - 0.5f);
    *i1 = *i0 + 1;
    if (*i0 < 0) *i0 = 0;
    if (*i1 > n - 1) *i1 = n - 1;
    break;
  }
  default:
    u = snap(s->coord ? c * (float)n : c);
    *i0 = (int)floorf(u - 0.5f);
    *i1 = *i0 + 1;
    if (s->addr == HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE) {
      *i0 = *i0 < 0 ? 0 : *i0 > n - 1 ? n - 1 : *i0;
      *i1 = *i1 < 0 ? 0 : *i1 > n - 1 ? n - 1 : *i1;
    } else {
      if (*i0 < 0 || *i0 >= n) *i0 = -1;
      if (*i1 < 0 || *i1 >= n) *i1 = -1;
    }
    break;
  }
  *a = (u - 0.5f) - floorf(u - 0.5f);
}

/* the reference of one sample; *span: how far apart the blended texels lie and *dims the
 * dimensions filtered (the linear tolerance: each dimension's weight may lose up to 1/256) */
static void ref_sample(const struct image *im, const uint8_t *tex, const struct samp *s,
                       const float c[4], float out[4], int iout[4], float *span, unsigned *dims)
{
  hsa_ext_image_geometry_t g = im->d.geometry;
  unsigned nd = g == HSA_EXT_IMAGE_GEOMETRY_1D || g == HSA_EXT_IMAGE_GEOMETRY_1DA ? 1
              : g == HSA_EXT_IMAGE_GEOMETRY_3D ? 3 : 2;
  int size[3] = {(int)im->w, (int)im->hgt, (int)im->dep};
  int layer = 0;
  bool arr = g == HSA_EXT_IMAGE_GEOMETRY_1DA || g == HSA_EXT_IMAGE_GEOMETRY_2DA;
  if (arr) {
    float l = rintf(c[nd]);
    layer = l < 0 ? 0 : l > (float)(im->dep - 1) ? (int)im->dep - 1 : (int)l;
  }
  *span = 0;
  *dims = nd;
  if (s->filter == HSA_EXT_SAMPLER_FILTER_MODE_NEAREST) {
    int i[3] = {0, 0, layer};
    if (g == HSA_EXT_IMAGE_GEOMETRY_1DA) i[1] = 0;
    for (unsigned k = 0; k < nd; k++)
      i[k] = nearest_index(s, c[k], size[k]);
    if (arr && nd == 1) { i[2] = layer; i[1] = i[1] < 0 ? -1 : 0; }
    ref_texel(im, tex, i, out, iout);
    return;
  }
  int i0[3] = {0, 0, layer}, i1[3] = {0, 0, layer};
  float a[3] = {0, 0, 0};
  for (unsigned k = 0; k < nd; k++)
    linear_index(s, c[k], size[k], &i0[k], &i1[k], &a[k]);
  float lo[4] = {INFINITY, INFINITY, INFINITY, INFINITY}, hi[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
  for (int ch = 0; ch < 4; ch++) out[ch] = 0;
  for (unsigned q = 0; q < (1u << nd); q++) {
    int at[3] = {0, 0, layer};
    float wgt = 1;
    for (unsigned k = 0; k < nd; k++) {
      bool b = (q >> k) & 1;
      at[k] = b ? i1[k] : i0[k];
      wgt *= b ? a[k] : 1 - a[k];
    }
    float t[4];
    int it[4];
    ref_texel(im, tex, at, t, it);
    for (int ch = 0; ch < 4; ch++) {
      out[ch] += wgt * t[ch];
      if (t[ch] < lo[ch]) lo[ch] = t[ch];
      if (t[ch] > hi[ch]) hi[ch] = t[ch];
    }
  }
  for (int ch = 0; ch < 4; ch++)
    if (hi[ch] - lo[ch] > *span) *span = hi[ch] - lo[ch];
}

/* coordinates: a grid off the texel edges (odd multiples of 1/1024: with power-of-two sizes
 * up to 32 never on a texel edge, where OpenCL's mirror formula and the hardware's texel-space
 * mirror pick different texels, and with filter weights the 8 fraction bits hold exactly)
 * and random ones, both reaching past the edges */
static void coords(const struct image *im, const struct samp *s, float *c, size_t n)
{
  float size[3] = {(float)im->w, (float)im->hgt, (float)im->dep};
  for (size_t i = 0; i < n; i++) {
    for (int k = 0; k < 4; k++) {
      float x;
      if (i % 2 == 0)
        x = (float)(2 * (int)(rnd() % 1024) - 511) / 1024.0f;   /* odd multiples of 1/1024 in [-0.5, 1.5) */
      else
        x = (float)(rnd() % 100000) / 50000.0f - 0.5f;
      c[4 * i + k] = s->coord || k == 3 ? x : x * size[k < 3 ? k : 0];
    }
    /* the layer of an array: an integer-ish coordinate in [-1, layers] */
    hsa_ext_image_geometry_t g = im->d.geometry;
    if (g == HSA_EXT_IMAGE_GEOMETRY_1DA) c[4 * i + 1] = (float)(rnd() % (im->dep + 2)) - 1 + (i % 3) * 0.3f;
    if (g == HSA_EXT_IMAGE_GEOMETRY_2DA) c[4 * i + 2] = (float)(rnd() % (im->dep + 2)) - 1 + (i % 3) * 0.3f;
  }
}

static void test_sample(hsa_ext_image_geometry_t g, enum fmt f, unsigned w, unsigned h, unsigned d,
                        const struct samp *sp, unsigned nsamp)
{
  size_t texels = (size_t)w * h * d, n = 256;
  uint8_t *tex = malloc(texels * fmts[f].bytes);
  fill(f, tex, texels);
  struct image im;
  image_make(&im, g, f, w, h, d, tex);
  float *c = fine_alloc(n * 16);
  void *out = fine_alloc(n * 16);
  for (unsigned si = 0; si < nsamp; si++) {
    const struct samp *s = &sp[si];
    hsa_ext_sampler_descriptor_t sd = {s->coord, s->filter, s->addr};
    hsa_ext_sampler_t smp;
    CHECK(hsa_ext_sampler_create(gpu, &sd, &smp));
    coords(&im, s, c, n);
    struct args a = {{0}, 0};
    arg64(&a, im.h.handle);
    arg64(&a, smp.handle);
    arg64(&a, (uint64_t)(uintptr_t)c);
    arg64(&a, (uint64_t)(uintptr_t)out);
    const char *k = g == HSA_EXT_IMAGE_GEOMETRY_1D ? "sample1d" : g == HSA_EXT_IMAGE_GEOMETRY_3D ? "sample3d"
                  : g == HSA_EXT_IMAGE_GEOMETRY_1DA ? "sample1da" : g == HSA_EXT_IMAGE_GEOMETRY_2DA ? "sample2da"
                  : f == F_R32I ? "sample2di" : "sample2d";
    run(k, &a, (uint32_t)n);
    char what[96], sn[40];
    snprintf(what, sizeof what, "%s %s %s %s", k, geo_name(g), fmts[f].name, samp_name(s, sn, sizeof sn));
    for (size_t i = 0; i < n; i++) {
      float ref[4], span;
      int iref[4];
      unsigned dims;
      ref_sample(&im, tex, s, c + 4 * i, ref, iref, &span, &dims);
      if (f == F_R32I) {
        const int *got = (const int *)out + 4 * i;
        note(!memcmp(got, iref, 16), what, i, "at (%a %a %a) got (%d %d %d %d) want (%d %d %d %d)",
             c[4 * i], c[4 * i + 1], c[4 * i + 2], got[0], got[1], got[2], got[3], iref[0], iref[1],
             iref[2], iref[3]);
        continue;
      }
      const float *got = (const float *)out + 4 * i;
      bool ok = true;
      for (int ch = 0; ch < 4; ch++) {
        if (s->filter == HSA_EXT_SAMPLER_FILTER_MODE_NEAREST)
          ok &= !memcmp(&got[ch], &ref[ch], 4);
        else
          ok &= fabsf(got[ch] - ref[ch]) <= (float)dims * span / 256.0f + 1e-5f * (1 + fabsf(ref[ch]));
      }
      note(ok, what, i, "at (%a %a %a) got (%a %a %a %a) want (%a %a %a %a)", c[4 * i], c[4 * i + 1],
           c[4 * i + 2], got[0], got[1], got[2], got[3], ref[0], ref[1], ref[2], ref[3]);
    }
    printf("ok %s (%zu samples)\n", what, n);
    CHECK(hsa_ext_sampler_destroy(gpu, smp));
  }
  hsa_memory_free(c);
  hsa_memory_free(out);
  image_free(&im);
  free(tex);
}

/* ---- stores, read back with hsa_ext_image_export ---- */
static void test_store(hsa_ext_image_geometry_t g, enum fmt f, unsigned w, unsigned h, unsigned d)
{
  size_t n = (size_t)w * h * d, bytes = n * fmts[f].bytes;
  struct image im;
  image_make(&im, g, f, w, h, d, NULL);
  float *v = fine_alloc(n * 16);
  uint8_t *want = calloc(1, bytes);
  for (size_t i = 0; i < n; i++) {
    float *x = v + 4 * i;
    int *ix = (int *)x;
    for (int ch = 0; ch < 4; ch++) {
      if (f == F_R32I) ix[ch] = (int)(rnd() * 2654435761u);
      else if (f == F_RGBA8 || f == F_RGBA16) x[ch] = (float)(rnd() % 1400) / 1000.0f - 0.2f;   /* clamps too */
      else x[ch] = (float)((int)(rnd() % 4001) - 2000) / 256.0f;
    }
    texel_encode(f, x, ix, want + i * fmts[f].bytes);
  }
  struct args a = {{0}, 0};
  arg64(&a, im.h.handle);
  arg64(&a, (uint64_t)(uintptr_t)v);
  if (g != HSA_EXT_IMAGE_GEOMETRY_1DB) arg32(&a, (int)w);
  if (g != HSA_EXT_IMAGE_GEOMETRY_2D && g != HSA_EXT_IMAGE_GEOMETRY_1DB) arg32(&a, (int)h);
  const char *k = g == HSA_EXT_IMAGE_GEOMETRY_3D ? "store3d" : g == HSA_EXT_IMAGE_GEOMETRY_2DA ? "store2da"
                : g == HSA_EXT_IMAGE_GEOMETRY_1DB ? "store1db" : f == F_R32I ? "store2di" : "store2d";
  run(k, &a, (uint32_t)n);
  uint8_t *back = fine_alloc(bytes);
  size_t row = (size_t)w * fmts[f].bytes;
  hsa_ext_image_region_t r = {{0, 0, 0}, {w, h, d}};
  CHECK(hsa_ext_image_export(gpu, im.h, back, row, row * h, &r));
  char what[64];
  snprintf(what, sizeof what, "%s %s %s %ux%ux%u", k, geo_name(g), fmts[f].name, w, h, d);
  for (size_t i = 0; i < n; i++) {
    const uint8_t *gb = back + i * fmts[f].bytes, *wb = want + i * fmts[f].bytes;
    char gs[40] = "", ws[40] = "";
    for (unsigned b = 0; b < fmts[f].bytes; b++) {
      snprintf(gs + 2 * b, 3, "%02x", gb[b]);
      snprintf(ws + 2 * b, 3, "%02x", wb[b]);
    }
    note(!memcmp(gb, wb, fmts[f].bytes), what, i, "stored %s want %s (from %a %a %a %a)", gs, ws,
         v[4 * i], v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]);
  }
  printf("ok %s export (%zu texels)\n", what, n);
  hsa_memory_free(back);
  hsa_memory_free(v);
  free(want);
  image_free(&im);
}

/* ---- hsa_ext_image_copy and hsa_ext_image_clear (the runtime's blit kernels) ---- */
static void test_copy_clear(void)
{
  unsigned w = 11, h = 6;
  enum fmt f = F_RGBA8;
  size_t n = (size_t)w * h;
  uint8_t *a = malloc(n * 4), *b = malloc(n * 4), *want = malloc(n * 4);
  fill(f, a, n);
  fill(f, b, n);
  struct image src, dst;
  image_make(&src, HSA_EXT_IMAGE_GEOMETRY_2D, f, w, h, 1, a);
  image_make(&dst, HSA_EXT_IMAGE_GEOMETRY_2D, f, w, h, 1, b);
  /* copy src (2..8, 1..4) to dst at (3, 2); then clear dst (0..3, 0..1) to a colour */
  hsa_dim3_t so = {2, 1, 0}, dof = {3, 2, 0}, range = {6, 3, 1};
  CHECK(hsa_ext_image_copy(gpu, src.h, &so, dst.h, &dof, &range));
  float colour[4] = {0.25f, 1.0f, 0.0f, 0.5f};
  hsa_ext_image_region_t cr = {{0, 0, 0}, {3, 1, 1}};
  CHECK(hsa_ext_image_clear(gpu, dst.h, colour, &cr));
  memcpy(want, b, n * 4);
  for (unsigned y = 0; y < range.y; y++)
    memcpy(want + ((y + dof.y) * w + dof.x) * 4, a + ((y + so.y) * w + so.x) * 4, range.x * 4);
  uint8_t cb[4];
  int dummy[4] = {0, 0, 0, 0};
  texel_encode(f, colour, dummy, cb);
  for (unsigned x = 0; x < 3; x++) memcpy(want + x * 4, cb, 4);
  uint8_t *back = fine_alloc(n * 4);
  hsa_ext_image_region_t r = {{0, 0, 0}, {w, h, 1}};
  CHECK(hsa_ext_image_export(gpu, dst.h, back, (size_t)w * 4, (size_t)w * 4 * h, &r));
  for (size_t i = 0; i < n; i++)
    note(!memcmp(back + 4 * i, want + 4 * i, 4), "image_copy + image_clear rgba8 11x6", i,
         "texel %02x%02x%02x%02x want %02x%02x%02x%02x", back[4 * i], back[4 * i + 1], back[4 * i + 2],
         back[4 * i + 3], want[4 * i], want[4 * i + 1], want[4 * i + 2], want[4 * i + 3]);
  printf("ok image_copy + image_clear rgba8 11x6\n");
  hsa_memory_free(back);
  image_free(&src);
  image_free(&dst);
  free(a);
  free(b);
  free(want);
}

/* ---- the linear layout: the host writes texels at the row pitch it chose ---- */
/* gfx1100 and gfx1201: an opaque 100x37 rgba8 image is tiled as the newest ROCR's addrlib
 * says (tests/fixtures/image/gfx11_swizzle.txt: SW_64KB_R_X for hsa-sim's gfx1100; gfx12_swizzle.txt:
 * 64KB_2D), 65,536 bytes aligned to 64 KiB, and hsa_ext_image_import puts texels at the byte
 * offsets addrlib gives there (four of the fixture's samples each) */
static void test_tiled_bytes(const char *cpu)
{
  bool g11 = !strcmp(cpu, "gfx1100"), g12 = !strcmp(cpu, "gfx1201");
  if (!g11 && !g12)
    return;
  static const unsigned s11[4][3] = {{99, 36, 35988}, {8, 25, 25352}, {19, 15, 17084}, {84, 24, 49472}};
  static const unsigned s12[4][3] = {{99, 36, 45204}, {86, 20, 36048}, {92, 10, 35680}, {64, 34, 36896}};
  const unsigned (*smp)[3] = g11 ? s11 : s12;
  const unsigned w = 100, h = 37;
  uint8_t *tx = malloc((size_t)w * h * 4);
  for (unsigned y = 0; y < h; y++)
    for (unsigned x = 0; x < w; x++) {
      uint8_t *t = tx + ((size_t)y * w + x) * 4;
      t[0] = (uint8_t)x, t[1] = (uint8_t)y, t[2] = (uint8_t)(x ^ y), t[3] = 0xa5;
    }
  struct image im;
  image_make(&im, HSA_EXT_IMAGE_GEOMETRY_2D, F_RGBA8, w, h, 1, tx);
  free(tx);
  hsa_ext_image_data_info_t info;
  CHECK(hsa_ext_image_data_get_info(gpu, &im.d, HSA_ACCESS_PERMISSION_RW, &info));
  note(info.size == 65536 && info.alignment == 65536, "tiled 100x37 data_get_info", 0,
       "size %zu alignment %zu, want 65536 65536", info.size, info.alignment);
  unsigned mode = ((const uint32_t *)(uintptr_t)im.h.handle)[3] >> 20 & 31;
  note(mode == (g11 ? 27u : 3u), "tiled 100x37 SW_MODE", 0, "%u", mode);
  uint8_t *raw = fine_alloc(65536);
  void *base = (void *)(((uintptr_t)im.mem + 65535) & ~(uintptr_t)65535);
  CHECK(hsa_memory_copy(raw, base, 65536));
  for (unsigned i = 0; i < 4; i++) {
    unsigned x = smp[i][0], y = smp[i][1];
    const uint8_t *t = raw + smp[i][2];
    note(t[0] == x && t[1] == y && t[2] == (uint8_t)(x ^ y) && t[3] == 0xa5, "tiled 100x37 bytes", i,
         "(%u, %u) at byte %u: %02x %02x %02x %02x", x, y, smp[i][2], t[0], t[1], t[2], t[3]);
  }
  hsa_memory_free(raw);
  image_free(&im);
  printf("ok tiled bytes: %s\n", cpu);
}

static void test_linear(void)
{
  unsigned w = 19, h = 5;
  enum fmt f = F_RGBA8;
  size_t pitch = ((size_t)w * 4 + 255) / 256 * 256;   /* gfx9's linear rows: 256-byte multiples */
  hsa_ext_image_descriptor_t d = {HSA_EXT_IMAGE_GEOMETRY_2D, w, h, 0, 0,
                                  {fmts[f].type, fmts[f].order}};
  hsa_ext_image_data_info_t info;
  CHECK(hsa_ext_image_data_get_info_with_layout(gpu, &d, HSA_ACCESS_PERMISSION_RW,
                                                HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, pitch, pitch * h, &info));
  uint8_t *mem = fine_alloc(info.size + info.alignment);
  uint8_t *base = (uint8_t *)(((uintptr_t)mem + info.alignment - 1) & ~(uintptr_t)(info.alignment - 1));
  uint8_t *tex = malloc((size_t)w * h * 4);
  fill(f, tex, (size_t)w * h);
  for (unsigned y = 0; y < h; y++)
    memcpy(base + y * pitch, tex + (size_t)y * w * 4, (size_t)w * 4);
  hsa_ext_image_t img;
  CHECK(hsa_ext_image_create_with_layout(gpu, &d, base, HSA_ACCESS_PERMISSION_RW,
                                         HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, pitch, pitch * h, &img));
  float *out = fine_alloc((size_t)w * h * 16);
  struct args a = {{0}, 0};
  arg64(&a, img.handle);
  arg64(&a, (uint64_t)(uintptr_t)out);
  arg32(&a, (int)w);
  run("load2d", &a, w * h);
  for (size_t i = 0; i < (size_t)w * h; i++) {
    float ref[4];
    int iref[4];
    texel_value(f, tex + 4 * i, ref, iref);
    note(!memcmp(out + 4 * i, ref, 16), "linear load2d rgba8 19x5", i, "got (%a %a %a %a)",
         out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]);
  }
  /* a store lands at the host's pitch */
  float *v = fine_alloc((size_t)w * h * 16);
  for (size_t i = 0; i < (size_t)w * h * 4; i++) v[i] = (float)(rnd() % 256) / 255.0f;
  struct args b = {{0}, 0};
  arg64(&b, img.handle);
  arg64(&b, (uint64_t)(uintptr_t)v);
  arg32(&b, (int)w);
  run("store2d", &b, w * h);
  for (unsigned y = 0; y < h; y++)
    for (unsigned x = 0; x < w; x++) {
      uint8_t want[4];
      int dummy[4] = {0, 0, 0, 0};
      texel_encode(f, v + 4 * ((size_t)y * w + x), dummy, want);
      note(!memcmp(base + y * pitch + 4 * x, want, 4), "linear store2d rgba8 19x5", (size_t)y * w + x,
           "memory %02x%02x%02x%02x", base[y * pitch + 4 * x], base[y * pitch + 4 * x + 1],
           base[y * pitch + 4 * x + 2], base[y * pitch + 4 * x + 3]);
    }
  printf("ok linear rgba8 19x5 (row pitch %zu): load2d, store2d at the host's pitch\n", pitch);
  CHECK(hsa_ext_image_destroy(gpu, img));
  hsa_memory_free(v);
  hsa_memory_free(out);
  hsa_memory_free(mem);
  free(tex);
}

/* ---- mip levels ---- */
static void test_mip(const char *cpu)
{
  enum { H = 6, L = 3 };
  const enum fmt f = F_RGBA8;
  bool gfx9 = !strncmp(cpu, "gfx9", 4), gfx12 = !strncmp(cpu, "gfx12", 5);
  /* gfx9: 13 texels, every level at the level-0 pitch (one 256-byte row), rows 6, 3, 2 in
   * order. gfx11 (gfx10+'s chain, Gfx11Lib::HwlComputeSurfaceInfoLinear): 100 texels, level i
   * ceil(100 / 2^i) texels at its own 256-byte-multiple pitch (512, 256, 256), rows 6, 3, 2,
   * the smallest level first: level 2 at 0, level 1 at 2 x 256, level 0 at 5 x 256. gfx12
   * (the newest ROCR's addrlib, tests/fixtures/image/gfx12_mips.txt): the same offsets, but
   * each level's pitch is rounded up to 128 bytes only (512, 256, 128). */
  const unsigned W = gfx9 ? 13 : 100, maxl = gfx9 ? 4 : 7;
  const unsigned lw[L] = {W, W / 2, W / 4}, lh[L] = {6, 3, 1};
  const size_t lpitch[L] = {gfx9 ? 256 : 512, 256, gfx12 ? 128 : 256};
  const size_t off[L] = {gfx9 ? 0 : 5 * 256, gfx9 ? 6 * 256 : 2 * 256, gfx9 ? 9 * 256 : 0};
  const size_t size = gfx9 ? 11 * 256 : 17 * 256;
  if (!gfx9 && !dlsym(RTLD_DEFAULT, "hsa_ext_image_create_v2")) {   /* no templates on gfx11 */
    printf("ok mip: skipped on %s (no hsa_ext_image_create_v2)\n", cpu);
    return;
  }
  uint8_t *mem = fine_alloc(size + 256);
  uint8_t *base = (uint8_t *)(((uintptr_t)mem + 255) & ~(uintptr_t)255);
  hsa_ext_image_descriptor_t d = {HSA_EXT_IMAGE_GEOMETRY_2D, W, H, 0, 0, {fmts[f].type, fmts[f].order}};
  /* the T# template (Vega ISA "Image Resource"): 8_8_8_8 UNORM, 13x6, LAST_LEVEL 2, 2D,
   * PITCH 64 texels, MAX_MIP 2 */
  uint32_t chip = 0;
  CHECK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &chip));
  hsa_amd_image_descriptor_t *tl = calloc(1, sizeof(*tl) + 8 * sizeof(uint32_t));
  tl->version = 1;
  tl->deviceID = 0x1002u << 16 | chip;
  uint32_t *t = tl->data;
  t[1] = 10u << 20;
  t[2] = (W - 1) | (H - 1) << 14;
  t[3] = 4 | 5 << 3 | 6 << 6 | 7 << 9 | (L - 1) << 16 | 9u << 28;
  t[4] = (256 / 4 - 1) << 13;
  t[5] = (uint32_t)(L - 1) << 28;
  hsa_ext_image_t img = {0};
  if (gfx9) CHECK(hsa_amd_image_create(gpu, &d, tl, base, HSA_ACCESS_PERMISSION_RW, &img));
  const char *what = "mip template";
  /* ours: hsa_ext_image_create_v2 with 3 levels must give the template's T# and size */
  typedef hsa_status_t (*info_v2_fn)(hsa_agent_t, const hsa_ext_image_descriptor_v2_t *,
                                     hsa_access_permission_t, hsa_ext_image_data_info_t *);
  typedef hsa_status_t (*create_v2_fn)(hsa_agent_t, const hsa_ext_image_descriptor_v2_t *,
                                       const void *, hsa_access_permission_t, hsa_ext_image_t *);
  typedef hsa_status_t (*level_fn)(hsa_agent_t, const hsa_ext_image_t *, uint32_t,
                                   const hsa_ext_image_descriptor_v2_t *, hsa_ext_image_t *);
  info_v2_fn info_v2 = (info_v2_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "hsa_ext_image_data_get_info_v2");
  create_v2_fn create_v2 = (create_v2_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "hsa_ext_image_create_v2");
  level_fn get_level = (level_fn)(uintptr_t)dlsym(RTLD_DEFAULT, "hsa_ext_image_mipmap_array_get_level");
  hsa_ext_image_descriptor_v2_t d2 = {HSA_EXT_IMAGE_GEOMETRY_2D, W, H, 0, 0, {fmts[f].type, fmts[f].order}, L};
  hsa_ext_image_t tiled_chain = {0};
  uint8_t *tmem = NULL;
  uint8_t *tbase = NULL;
  if (info_v2 && create_v2 && get_level && gfx9) {   /* the tiled chain's own memory */
    tmem = fine_alloc(8192);
    tbase = (uint8_t *)(((uintptr_t)tmem + 4095) & ~(uintptr_t)4095);
  }
  if (info_v2 && create_v2 && get_level) {
    hsa_ext_image_data_info_t info;
    CHECK(info_v2(gpu, &d2, HSA_ACCESS_PERMISSION_RW, &info));
    /* gfx9: ours tiles the chain (the opaque layout) in ROCR's mode for the image, as addrlib's
     * Gfx9Lib lays a chain out (tests/fixtures/image/gfx9_mips.txt): 13x6 rgba8, 3 levels in
     * SW_4KB_D_X, all of it in one 4 KiB mip-tail block */
    note(info.size == (gfx9 ? 4096 : size) && info.alignment == (gfx9 ? 4096 : 256),
         "mip data_get_info_v2", 0, "size %zu alignment %zu, want %zu %u", info.size,
         info.alignment, gfx9 ? (size_t)4096 : size, gfx9 ? 4096 : 256);
    d2.mipmap_levels = maxl + 1;   /* 13x6 has 4 levels at most, 100x6 7 */
    note(info_v2(gpu, &d2, HSA_ACCESS_PERMISSION_RW, &info) == HSA_STATUS_ERROR_INVALID_ARGUMENT,
         "mip data_get_info_v2 5 levels", 0, "accepted");
    /* other geometries' chains (rgba8, 256-byte rows): 3D 4x4x4 x 3 levels: 4 + 2 + 1 rows a
     * slice; 1DA 8 x 3 layers x 2 levels: 2 rows a layer; 2DA 5x5 x 2 layers x 3 levels:
     * 5 + 3 + 2 rows a layer. gfx9 tiles 3D (SW_4KB_Z_X: one 8x16x8 block) and 2DA (one
     * 4 KiB block a layer), addrlib's sizes; 1D kinds stay linear. */
    static const struct { hsa_ext_image_geometry_t g; size_t w, h, dep, arr, lv, size; } other[] = {
      {HSA_EXT_IMAGE_GEOMETRY_3D, 4, 4, 4, 0, 3, 7 * 256 * 4},
      {HSA_EXT_IMAGE_GEOMETRY_1DA, 8, 0, 0, 3, 2, 2 * 256 * 3},
      {HSA_EXT_IMAGE_GEOMETRY_2DA, 5, 5, 0, 2, 3, 10 * 256 * 2},
    };
    for (unsigned i = 0; i < 3; i++) {
      hsa_ext_image_descriptor_v2_t o = {other[i].g, other[i].w, other[i].h, other[i].dep, other[i].arr,
                                         {fmts[f].type, fmts[f].order}, other[i].lv};
      CHECK(info_v2(gpu, &o, HSA_ACCESS_PERMISSION_RW, &info));
      size_t want = gfx9 && i != 1 ? (i == 0 ? 4096 : 8192) : other[i].size;
      note(info.size == want, "mip data_get_info_v2 geometries", i, "size %zu, want %zu",
           info.size, want);
    }
    /* a 2DA level: import into level 1 (2x2 x 2 layers) lands at rows 5..6 of each layer
     * (gfx11: rows 2..3, after level 2's two; gfx12: there, in 128-byte rows) */
    {
      hsa_ext_image_descriptor_v2_t o = {HSA_EXT_IMAGE_GEOMETRY_2DA, 5, 5, 0, 2, {fmts[f].type, fmts[f].order}, 3};
      uint8_t *amem = fine_alloc(8192 + 4096), *src = fine_alloc(16 * 2);
      uint8_t *abase = (uint8_t *)(((uintptr_t)amem + 4095) & ~(uintptr_t)4095);
      for (int k = 0; k < 32; k++) src[k] = (uint8_t)(k + 1);
      hsa_ext_image_t arr, lvl;
      CHECK(create_v2(gpu, &o, abase, HSA_ACCESS_PERMISSION_RW, &arr));
      CHECK(get_level(gpu, &arr, 1, &o, &lvl));
      hsa_ext_image_region_t r = {{0, 0, 0}, {2, 2, 2}};
      CHECK(hsa_ext_image_import(gpu, src, 8, 16, lvl, &r));
      /* gfx9 (tiled): level 1's texels back through export, levels 0 and 2 still zero */
      uint8_t back[32];
      memset(back, 0xee, sizeof back);
      CHECK(hsa_ext_image_export(gpu, lvl, back, 8, 16, &r));
      note(!memcmp(back, src, 32), "mip 2da level 1 export", 0, "not what was imported");
      for (unsigned lv = 0; gfx9 && lv < 3; lv += 2) {
        hsa_ext_image_t other_lv;
        uint8_t zero[5 * 5 * 4 * 2];
        memset(zero, 0xee, sizeof zero);
        hsa_ext_image_region_t rr = {{0, 0, 0}, {5u >> lv, 5u >> lv, 2}};
        CHECK(get_level(gpu, &arr, lv, &o, &other_lv));
        CHECK(hsa_ext_image_export(gpu, other_lv, zero, 0, 0, &rr));
        size_t nz = (size_t)(5u >> lv) * (5u >> lv) * 4 * 2;
        for (size_t k = 0; k < nz; k++)
          note(zero[k] == 0, "mip 2da other levels untouched", lv * 1000 + k, "byte 0x%02x", zero[k]);
        CHECK(hsa_ext_image_destroy(gpu, other_lv));
      }
      for (unsigned z = 0; !gfx9 && z < 2; z++)
        for (unsigned y = 0; y < 2; y++) {
          size_t o1 = z * 2560 + 2 * 256 + y * (gfx12 ? 128 : 256);
          note(!memcmp(abase + o1, src + z * 16 + y * 8, 8) && abase[o1 + 8] == 0,
               "mip 2da level 1 import", z * 2 + y, "row %u of layer %u not at the chain's offset",
               y, z);
        }
      CHECK(hsa_ext_image_destroy(gpu, lvl));
      CHECK(hsa_ext_image_destroy(gpu, arr));
      hsa_memory_free(src);
      hsa_memory_free(amem);
    }
    d2.mipmap_levels = L;
    hsa_ext_image_t img2;
    CHECK(create_v2(gpu, &d2, gfx9 ? tbase : base, HSA_ACCESS_PERMISSION_RW, &img2));
    const uint32_t *a = (const uint32_t *)(uintptr_t)img.handle, *b = (const uint32_t *)(uintptr_t)img2.handle;
    /* words 0-4 and MAX_MIP (the template's words 5 and 7 also carry its metadata address) */
    /* gfx9: the template's words but SW_MODE (22, SW_4KB_D_X) and PITCH (the chain's 32) */
    for (int i = 0; gfx9 && i < 6; i++) {
      uint32_t m = i == 5 ? 0xf0000000u : 0xffffffffu;
      uint32_t want = i == 0 ? (uint32_t)((uintptr_t)tbase >> 8)
                    : i == 1 ? (a[1] & ~0xffu) | ((uint32_t)((uint64_t)(uintptr_t)tbase >> 40) & 0xffu)
                    : i == 3 ? (a[3] & ~(0x1fu << 20)) | 22u << 20
                    : i == 4 ? (a[4] & ~(0xffffu << 13)) | 31u << 13 : a[i];
      note((want & m) == (b[i] & m), "mip create_v2 T#", (size_t)i, "word %d 0x%08x, want 0x%08x",
           i, b[i], want);
    }
    /* gfx11 (the RDNA3 ISA's table): the chain's address, MAX_MIP word1[19:16] 2, BASE_LEVEL
     * word3[15:12] 0, LAST_LEVEL [19:16] 2, word4 0 (no PITCH: each level has the hardware's) */
    /* gfx12 (Mesa's gfx12 fields): MAX_MIP word1[16:12], BASE_LEVEL [29:25], LAST_LEVEL
     * word3[19:15], word4 0 */
    if (gfx12)
      note(b[0] == (uint32_t)((uintptr_t)base >> 8) && ((b[1] >> 12) & 31) == L - 1 &&
           ((b[1] >> 25) & 31) == 0 && ((b[3] >> 15) & 31) == L - 1 && b[4] == 0,
           "mip create_v2 gfx12 T#", 0, "words 0x%08x 0x%08x 0x%08x 0x%08x", b[0], b[1], b[3], b[4]);
    else if (!gfx9)
      note(b[0] == (uint32_t)((uintptr_t)base >> 8) && ((b[1] >> 16) & 15) == L - 1 &&
           ((b[3] >> 12) & 0xff) == (L - 1) << 4 && b[4] == 0, "mip create_v2 gfx11 T#", 0,
           "words 0x%08x 0x%08x 0x%08x 0x%08x", b[0], b[1], b[3], b[4]);
    if (gfx9) {   /* tiled: a round trip through each level below; the template carries on */
      tiled_chain = img2;
    } else {
      img = img2;
      what = "mip create_v2";
    }
  }
  /* S#: clamp to the last texel, normalized, point filters, MIP_FILTER point, MAX_LOD 15.99 */
  uint32_t *samp = fine_alloc(16);
  samp[0] = 2 | 2 << 3 | 2 << 6;
  samp[1] = gfx12 ? 4095u << 13 : 4095u << 12;   /* gfx12: MAX_LOD word1[25:13] */
  samp[2] = 1u << 26;
  uint8_t *ref = malloc(size);
  memset(ref, 0, size);
  for (unsigned l = 0; l < L; l++) {
    size_t n = (size_t)lw[l] * lh[l];
    float *v = fine_alloc(n * 16);
    for (size_t i = 0; i < n * 4; i++) v[i] = (float)(rnd() % 256) / 255.0f;
    for (size_t i = 0; i < n; i++) {
      int dummy[4] = {0, 0, 0, 0};
      texel_encode(f, v + 4 * i, dummy, ref + off[l] + (i / lw[l]) * lpitch[l] + 4 * (i % lw[l]));
    }
    struct args a = {{0}, 0};
    arg64(&a, img.handle);
    arg64(&a, (uint64_t)(uintptr_t)v);
    arg32(&a, (int)lw[l]);
    arg32(&a, (int)l);
    run("store2d_mip", &a, (uint32_t)n);
    hsa_memory_free(v);
  }
  /* every byte of the chain: the texels where addrlib puts them, the padding untouched */
  for (size_t i = 0; i < size; i++)
    note(base[i] == ref[i], "mip store2d_mip memory", i, "byte 0x%02x, want 0x%02x", base[i], ref[i]);
  bool sample_l = strcmp(cpu, "gfx90a") != 0;   /* (the kernel is not built for gfx90a) */
  for (unsigned l = 0; sample_l && l < L; l++)
    for (int frac = 0; frac < 2; frac++) {
      size_t n = (size_t)lw[l] * lh[l];
      float *o = fine_alloc(n * 16);
      struct args a = {{0}, 0};
      arg64(&a, img.handle);
      arg64(&a, (uint64_t)(uintptr_t)samp);
      arg64(&a, (uint64_t)(uintptr_t)o);
      arg32(&a, (int)lw[l]);
      arg32(&a, (int)lh[l]);
      float lod = (float)l + (frac ? 0.3f : 0.0f);
      arg(&a, &lod, 4);
      run("sample2d_lod", &a, (uint32_t)n);
      for (size_t i = 0; i < n; i++) {
        float want[4];
        int iw[4];
        texel_value(f, ref + off[l] + (i / lw[l]) * lpitch[l] + 4 * (i % lw[l]), want, iw);
        note(!memcmp(o + 4 * i, want, 16), frac ? "mip sample2d_lod l+0.3" : "mip sample2d_lod", i,
             "level %u got (%a %a %a %a)", l, o[4 * i], o[4 * i + 1], o[4 * i + 2], o[4 * i + 3]);
      }
      hsa_memory_free(o);
    }
  if (info_v2 && create_v2 && get_level && !tiled_chain.handle) {
    /* level 1 as an image of its own: image_load through its T#, and _export (gfx9's tiled
     * chain: below) */
    hsa_ext_image_t l1;
    CHECK(get_level(gpu, &img, 1, &d2, &l1));
    size_t n = (size_t)lw[1] * lh[1];
    float *o = fine_alloc(n * 16);
    struct args a = {{0}, 0};
    arg64(&a, l1.handle);
    arg64(&a, (uint64_t)(uintptr_t)o);
    arg32(&a, (int)lw[1]);
    run("load2d", &a, (uint32_t)n);
    uint8_t *ex = fine_alloc(n * 4);
    hsa_ext_image_region_t r = {{0, 0, 0}, {lw[1], lh[1], 1}};
    CHECK(hsa_ext_image_export(gpu, l1, ex, 0, 0, &r));
    for (size_t i = 0; i < n; i++) {
      const uint8_t *tx = ref + off[1] + (i / lw[1]) * lpitch[1] + 4 * (i % lw[1]);
      float want[4];
      int iw[4];
      texel_value(f, tx, want, iw);
      note(!memcmp(o + 4 * i, want, 16), "mip level 1 load2d", i, "got (%a %a %a %a)",
           o[4 * i], o[4 * i + 1], o[4 * i + 2], o[4 * i + 3]);
      note(!memcmp(ex + 4 * i, tx, 4), "mip level 1 export", i, "got %02x%02x%02x%02x",
           ex[4 * i], ex[4 * i + 1], ex[4 * i + 2], ex[4 * i + 3]);
    }
    hsa_ext_image_t beyond = {0};
    note(get_level(gpu, &img, L, &d2, &beyond) == HSA_STATUS_ERROR_INVALID_ARGUMENT,
         "mip get_level beyond the last level", 0, "accepted");
    CHECK(hsa_ext_image_destroy(gpu, l1));
    hsa_memory_free(ex);
    hsa_memory_free(o);
  }
  if (tiled_chain.handle) {
    /* gfx9's tiled chain: each level written by store2d_mip (hsa-sim addresses the chain and
     * its mip tail), read back by the host through the level image (export: the runtime's
     * addressing of the same chain) and by sample2d_lod */
    for (unsigned l = 0; l < L; l++) {
      size_t n = (size_t)lw[l] * lh[l];
      float *v = fine_alloc(n * 16);
      uint8_t *want = malloc(n * 4), *ex = fine_alloc(n * 4);
      for (size_t i = 0; i < n * 4; i++) v[i] = (float)(rnd() % 256) / 255.0f;
      for (size_t i = 0; i < n; i++) {
        int dummy[4] = {0, 0, 0, 0};
        texel_encode(f, v + 4 * i, dummy, want + 4 * i);
      }
      struct args a = {{0}, 0};
      arg64(&a, tiled_chain.handle);
      arg64(&a, (uint64_t)(uintptr_t)v);
      arg32(&a, (int)lw[l]);
      arg32(&a, (int)l);
      run("store2d_mip", &a, (uint32_t)n);
      hsa_ext_image_t li;
      CHECK(get_level(gpu, &tiled_chain, l, &d2, &li));
      hsa_ext_image_region_t r = {{0, 0, 0}, {lw[l], lh[l], 1}};
      CHECK(hsa_ext_image_export(gpu, li, ex, 0, 0, &r));
      for (size_t i = 0; i < n; i++)
        note(!memcmp(ex + 4 * i, want + 4 * i, 4), "mip tiled store2d_mip, export", l * 1000 + i,
             "level %u texel %zu: %02x%02x%02x%02x", l, i, ex[4 * i], ex[4 * i + 1], ex[4 * i + 2],
             ex[4 * i + 3]);
      if (sample_l) {
        float *o = fine_alloc(n * 16);
        struct args b = {{0}, 0};
        arg64(&b, tiled_chain.handle);
        arg64(&b, (uint64_t)(uintptr_t)samp);
        arg64(&b, (uint64_t)(uintptr_t)o);
        arg32(&b, (int)lw[l]);
        arg32(&b, (int)lh[l]);
        float lod = (float)l;
        arg(&b, &lod, 4);
        run("sample2d_lod", &b, (uint32_t)n);
        for (size_t i = 0; i < n; i++) {
          float wv[4];
          int iw[4];
          texel_value(f, want + 4 * i, wv, iw);
          note(!memcmp(o + 4 * i, wv, 16), "mip tiled sample2d_lod", l * 1000 + i,
               "level %u got (%a %a %a %a)", l, o[4 * i], o[4 * i + 1], o[4 * i + 2], o[4 * i + 3]);
        }
        hsa_memory_free(o);
      }
      CHECK(hsa_ext_image_destroy(gpu, li));
      hsa_memory_free(v);
      hsa_memory_free(ex);
      free(want);
    }
    hsa_ext_image_t beyond = {0};
    note(get_level(gpu, &tiled_chain, L, &d2, &beyond) == HSA_STATUS_ERROR_INVALID_ARGUMENT,
         "mip get_level beyond the last level", 0, "accepted");
    CHECK(hsa_ext_image_destroy(gpu, tiled_chain));
    hsa_memory_free(tmem);
    printf("ok mip: gfx9 tiled chain (SW_4KB_D_X, mip tail) written by store2d_mip, read by export "
           "and sample2d_lod\n");
  }
  printf("ok %s rgba8 %ux6, 3 levels (chain %zu bytes): store2d_mip at addrlib's offsets, "
         "%s%s\n", what, W, size, sample_l ? "sample2d_lod at lod i and i + 0.3" : "(no sample_l on gfx90a)",
         get_level ? ", level 1 by get_level: load2d, export" : "");
  CHECK(hsa_ext_image_destroy(gpu, img));
  free(ref);
  free(tl);
  hsa_memory_free(samp);
  hsa_memory_free(mem);
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s kernels.co | --probe\n", argv[0]);
    return 2;
  }
  CHECK(hsa_init());
  bool images = false;
  if (hsa_system_extension_supported(HSA_EXTENSION_IMAGES, 1, 0, &images) != HSA_STATUS_SUCCESS || !images) {
    printf("images not implemented: hsa_system_extension_supported(HSA_EXTENSION_IMAGES) says no\n");
    hsa_shut_down();
    return 3;
  }
  if (!strcmp(argv[1], "--probe")) {   /* only the question above */
    printf("images supported\n");
    CHECK(hsa_shut_down());
    return 0;
  }
  struct client_agents ag = {{0}, {0}};
  CHECK(hsa_iterate_agents(client_pick_agents, &ag));
  gpu = ag.gpu;
  if (!gpu.handle) FAIL("no GPU agent");
  struct client_regions rg = {{0}, {0}};
  CHECK(hsa_agent_iterate_regions(gpu, client_pick_regions, &rg));
  if (!rg.fine.handle) CHECK(hsa_agent_iterate_regions(ag.cpu, client_pick_regions, &rg));
  kernarg_region = rg.kernarg, fine_region = rg.fine;
  if (!kernarg_region.handle || !fine_region.handle) FAIL("no kernarg or fine-grained region");
  CHECK(hsa_amd_agent_iterate_memory_pools(gpu, client_pick_pool, &gpu_pool));
  if (!gpu_pool.handle) FAIL("no GPU memory pool");
  client_load(gpu, argv[1], &exec);
  CHECK(hsa_queue_create(gpu, 256, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &queue));
  CHECK(hsa_signal_create(1, 0, NULL, &done));

  /* integer-coordinate reads over each geometry and format (odd sizes: rows shorter than
   * the pitch) */
  test_load(HSA_EXT_IMAGE_GEOMETRY_2D, F_RGBA8, 13, 7, 1);
  test_load(HSA_EXT_IMAGE_GEOMETRY_2D, F_R32F, 9, 5, 1);
  test_load(HSA_EXT_IMAGE_GEOMETRY_2D, F_RGBA16F, 7, 6, 1);
  test_load(HSA_EXT_IMAGE_GEOMETRY_2D, F_R32I, 11, 3, 1);
  test_load(HSA_EXT_IMAGE_GEOMETRY_2D, F_RGBA16, 5, 4, 1);
  test_load(HSA_EXT_IMAGE_GEOMETRY_1D, F_RGBA8, 37, 1, 1);
  test_load(HSA_EXT_IMAGE_GEOMETRY_3D, F_RGBA8, 6, 5, 4);
  test_load(HSA_EXT_IMAGE_GEOMETRY_1DA, F_R32F, 10, 1, 3);
  test_load(HSA_EXT_IMAGE_GEOMETRY_2DA, F_RGBA16F, 5, 3, 4);
  test_load(HSA_EXT_IMAGE_GEOMETRY_1DB, F_RGBA8, 70, 1, 1);   /* a buffer resource: *_format */
  test_load(HSA_EXT_IMAGE_GEOMETRY_1DB, F_RGBA16F, 33, 1, 1);

  /* samplers: every addressing mode with normalized coordinates, the clamps unnormalized,
   * nearest and linear */
  static const struct samp all[] = {
    {HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED, HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE, HSA_EXT_SAMPLER_FILTER_MODE_NEAREST},
    {HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED, HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER, HSA_EXT_SAMPLER_FILTER_MODE_NEAREST},
    {HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED, HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT, HSA_EXT_SAMPLER_FILTER_MODE_NEAREST},
    {HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED, HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT, HSA_EXT_SAMPLER_FILTER_MODE_NEAREST},
    {HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED, HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE, HSA_EXT_SAMPLER_FILTER_MODE_NEAREST},
    {HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED, HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER, HSA_EXT_SAMPLER_FILTER_MODE_NEAREST},
    {HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED, HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE, HSA_EXT_SAMPLER_FILTER_MODE_LINEAR},
    {HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED, HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER, HSA_EXT_SAMPLER_FILTER_MODE_LINEAR},
    {HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED, HSA_EXT_SAMPLER_ADDRESSING_MODE_REPEAT, HSA_EXT_SAMPLER_FILTER_MODE_LINEAR},
    {HSA_EXT_SAMPLER_COORDINATE_MODE_NORMALIZED, HSA_EXT_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT, HSA_EXT_SAMPLER_FILTER_MODE_LINEAR},
    {HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED, HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE, HSA_EXT_SAMPLER_FILTER_MODE_LINEAR},
    {HSA_EXT_SAMPLER_COORDINATE_MODE_UNNORMALIZED, HSA_EXT_SAMPLER_ADDRESSING_MODE_CLAMP_TO_BORDER, HSA_EXT_SAMPLER_FILTER_MODE_LINEAR},
  };
  const unsigned nall = sizeof all / sizeof all[0];
  /* power-of-two sizes: the repeat and mirror formulas of OpenCL C and the hardware's
   * texel-space wrap then agree exactly */
  test_sample(HSA_EXT_IMAGE_GEOMETRY_2D, F_RGBA8, 8, 4, 1, all, nall);
  test_sample(HSA_EXT_IMAGE_GEOMETRY_2D, F_R32F, 16, 8, 1, all, nall);
  test_sample(HSA_EXT_IMAGE_GEOMETRY_2D, F_RGBA16F, 4, 4, 1, all + 6, 4);
  test_sample(HSA_EXT_IMAGE_GEOMETRY_2D, F_R32I, 8, 8, 1, all, 6);
  test_sample(HSA_EXT_IMAGE_GEOMETRY_1D, F_RGBA8, 32, 1, 1, all, nall);
  test_sample(HSA_EXT_IMAGE_GEOMETRY_3D, F_RGBA8, 4, 4, 4, all, nall);
  /* an odd size with the clamping modes: texel-space coordinates are no binary fractions
   * (the library's floor(c * w) / w for nearest must still come back as texel k) */
  const struct samp clamps[] = {all[0], all[1], all[4], all[5], all[6], all[7], all[10], all[11]};
  test_sample(HSA_EXT_IMAGE_GEOMETRY_2D, F_RGBA8, 7, 5, 1, clamps, 8);
  test_sample(HSA_EXT_IMAGE_GEOMETRY_1DA, F_RGBA8, 16, 1, 3, all + 6, 2);
  test_sample(HSA_EXT_IMAGE_GEOMETRY_2DA, F_R32F, 8, 4, 3, all + 6, 2);

  /* stores */
  test_store(HSA_EXT_IMAGE_GEOMETRY_2D, F_RGBA8, 13, 7, 1);
  test_store(HSA_EXT_IMAGE_GEOMETRY_2D, F_RGBA16F, 6, 5, 1);
  test_store(HSA_EXT_IMAGE_GEOMETRY_2D, F_R32F, 9, 4, 1);
  test_store(HSA_EXT_IMAGE_GEOMETRY_2D, F_R32I, 7, 3, 1);
  test_store(HSA_EXT_IMAGE_GEOMETRY_2D, F_RGBA16, 5, 5, 1);
  test_store(HSA_EXT_IMAGE_GEOMETRY_3D, F_RGBA8, 5, 4, 3);
  test_store(HSA_EXT_IMAGE_GEOMETRY_2DA, F_R32F, 6, 3, 2);
  test_store(HSA_EXT_IMAGE_GEOMETRY_1DB, F_RGBA8, 70, 1, 1);

  test_copy_clear();
  test_linear();
  char name[64] = "";
  CHECK(hsa_agent_get_info(gpu, HSA_AGENT_INFO_NAME, name));
  test_mip(name);
  test_tiled_bytes(name);
  printf("ok tiled: %u of %u opaque images\n", opaque_tiled, opaque_made);
  if (!strncmp(name, "gfx12", 5) || !strncmp(name, "gfx11", 5))   /* the kernels above ran on tiled images */
    note(opaque_tiled * 2 > opaque_made, "tiled opaque images on gfx11/gfx12", 0, "%u of %u",
         opaque_tiled, opaque_made);

  CHECK(hsa_signal_destroy(done));
  CHECK(hsa_queue_destroy(queue));
  CHECK(hsa_executable_destroy(exec));
  CHECK(hsa_shut_down());
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
