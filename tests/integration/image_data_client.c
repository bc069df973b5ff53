/* SPDX-License-Identifier: MIT */
/* image_data_client.c — images' data through the HSA image API, checked against the host:
 * for several formats and geometries, in device memory and in system memory, an image is
 * created over memory sized by hsa_ext_image_data_get_info, a pattern imported, exported back
 * (equal), a region cleared (the region must hold the value encoded on the host, the rest the
 * pattern), a region copied into a second image (equal to the pattern moved on the host); for
 * linear-layout images the bytes in memory are checked at the row pitch the layout implies.
 * Prints "ok N checks" or the first mismatch, exit 1. Runs on any runtime; --rocr expects
 * ROCR 5.2.3's export of 1DA layers, packed whatever the pitches. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsa.h"
#include "hsa_ext_amd.h"
#include "hsa_ext_image.h"

static hsa_agent_t gpu;
static hsa_amd_memory_pool_t vram, sysmem;
static unsigned checks;
static bool rocr_1da_packed;

static hsa_status_t find_gpu(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
  if (type == HSA_DEVICE_TYPE_GPU) {
    *(hsa_agent_t *)data = agent;
    return HSA_STATUS_INFO_BREAK;
  }
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_pool(hsa_amd_memory_pool_t p, void *data) {
  hsa_amd_segment_t seg;
  uint32_t flags = 0;
  bool alloc = false;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg);
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc);
  if (seg != HSA_AMD_SEGMENT_GLOBAL || !alloc) return HSA_STATUS_SUCCESS;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags);
  hsa_amd_memory_pool_t *out = data;
  if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) && !out->handle) *out = p;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t find_sys(hsa_agent_t agent, void *data) {
  hsa_device_type_t type;
  hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type);
  if (type != HSA_DEVICE_TYPE_CPU) return HSA_STATUS_SUCCESS;
  hsa_amd_agent_iterate_memory_pools(agent, find_pool, data);
  return ((hsa_amd_memory_pool_t *)data)->handle ? HSA_STATUS_INFO_BREAK : HSA_STATUS_SUCCESS;
}

#define FAIL(...)                          \
  do {                                     \
    printf("FAIL: " __VA_ARGS__);          \
    printf("\n");                          \
    exit(1);                               \
  } while (0)
#define OK(call)                                                               \
  do {                                                                         \
    hsa_status_t st_ = (call);                                                 \
    if (st_ != HSA_STATUS_SUCCESS) FAIL("%s: status %#x", #call, (unsigned)st_); \
  } while (0)

struct fmt_case {
  const char *name;
  hsa_ext_image_geometry_t geometry;
  uint32_t order, type;
  unsigned elem;
  size_t w, h, d, layers;
  /* clear value (float or int bits) and its encoding, computed by hand from the format */
  uint32_t clear[4];
  uint8_t encoded[16];
};

static float f(uint32_t bits) {
  float x;
  memcpy(&x, &bits, 4);
  return x;
}

static uint32_t fb(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  return b;
}

/* The texel index (x, y, z) of the image's extent for a region offset. */
static void extent(const struct fmt_case *c, size_t *ew, size_t *eh, size_t *ed) {
  *ew = c->w;
  *eh = 1;
  *ed = 1;
  switch (c->geometry) {
  case HSA_EXT_IMAGE_GEOMETRY_2D: *eh = c->h; break;
  case HSA_EXT_IMAGE_GEOMETRY_3D: *eh = c->h; *ed = c->d; break;
  case HSA_EXT_IMAGE_GEOMETRY_1DA: *eh = c->layers; break;
  case HSA_EXT_IMAGE_GEOMETRY_2DA: *eh = c->h; *ed = c->layers; break;
  default: break;
  }
}

static void *alloc(hsa_amd_memory_pool_t pool, size_t size) {
  void *p = NULL;
  OK(hsa_amd_memory_pool_allocate(pool, size, 0, &p));
  OK(hsa_amd_agents_allow_access(1, &gpu, NULL, p));
  return p;
}

/* "raw NAME POOL STEP size=N fnv=H": the FNV-1a hash of an image's bytes in memory (its layout
 * as the runtime wrote it: image_vs_rocr.sh compares ours with ROCR's) */
static void raw_hash(const char *name, hsa_amd_memory_pool_t pool, const char *step,
                     const void *mem, size_t size) {
  uint8_t *raw = malloc(size);
  OK(hsa_memory_copy(raw, mem, size));
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < size; i++) h = (h ^ raw[i]) * 0x100000001b3ull;
  free(raw);
  printf("raw %s %s %s size=%zu fnv=%016llx\n", name, pool.handle == vram.handle ? "vram" : "sys",
         step, size, (unsigned long long)h);
}

static void run(const struct fmt_case *c, hsa_amd_memory_pool_t pool, bool linear) {
  hsa_ext_image_descriptor_t d;
  memset(&d, 0, sizeof(d));
  d.geometry = c->geometry;
  d.width = c->w;
  d.height = c->h;
  d.depth = c->d;
  d.array_size = c->layers;
  d.format.channel_order = c->order;
  d.format.channel_type = c->type;
  size_t ew, eh, ed;
  extent(c, &ew, &eh, &ed);
  size_t n = ew * eh * ed * c->elem;

  hsa_ext_image_data_info_t info;
  size_t row = (ew * c->elem + 255) / 256 * 256;
  size_t slice = c->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? row : row * eh;
  if (linear)
    OK(hsa_ext_image_data_get_info_with_layout(gpu, &d, HSA_ACCESS_PERMISSION_RW,
                                               HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row, slice, &info));
  else
    OK(hsa_ext_image_data_get_info(gpu, &d, HSA_ACCESS_PERMISSION_RW, &info));
  size_t slices = c->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? eh : ed;
  if (linear && info.size != slice * slices)
    FAIL("%s: linear size %zu, expected %zu", c->name, info.size, slice * slices);
  void *mem[2];
  hsa_ext_image_t img[2];
  for (int i = 0; i < 2; i++) {
    mem[i] = alloc(pool, info.size + info.alignment);
    if ((uintptr_t)mem[i] % info.alignment) FAIL("%s: pool memory not aligned to %zu", c->name, info.alignment);
    if (linear)
      OK(hsa_ext_image_create_with_layout(gpu, &d, mem[i], HSA_ACCESS_PERMISSION_RW,
                                          HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row, slice, &img[i]));
    else
      OK(hsa_ext_image_create(gpu, &d, mem[i], HSA_ACCESS_PERMISSION_RW, &img[i]));
  }
  /* an OPAQUE image's memory starts zeroed, so that its raw bytes (raw_hash) depend only on
   * where the runtime (or ROCR's blit kernels on the GPU) put the texels */
  if (!linear) {
    uint8_t *zero = calloc(1, info.size);
    for (int i = 0; i < 2; i++) OK(hsa_memory_copy(mem[i], zero, info.size));
    free(zero);
  }
  /* host buffers the GPU can reach (ROCR's blit kernels read and write them) */
  uint8_t *pattern = alloc(sysmem, n), *out = alloc(sysmem, n), *expect = malloc(n);
  for (size_t i = 0; i < n; i++) pattern[i] = (uint8_t)(i * 7 + 3 + (i >> 8));
  hsa_ext_image_region_t all = {{0, 0, 0}, {(uint32_t)ew, (uint32_t)eh, (uint32_t)ed}};
  for (int i = 0; i < 2; i++) OK(hsa_ext_image_import(gpu, pattern, 0, 0, img[i], &all));
  memset(out, 0xee, n);
  OK(hsa_ext_image_export(gpu, img[0], out, 0, 0, &all));
  if (memcmp(out, pattern, n)) FAIL("%s: export after import differs", c->name);
  checks++;
  if (!linear) raw_hash(c->name, pool, "import", mem[0], info.size);

  if (linear) {
    /* the bytes in memory, at the layout's pitches */
    uint8_t *raw = malloc(info.size);
    OK(hsa_memory_copy(raw, mem[0], info.size));
    for (size_t z = 0; z < ed; z++)
      for (size_t y = 0; y < eh; y++) {
        size_t at = c->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA ? y * slice : z * slice + y * row;
        if (memcmp(raw + at, pattern + ((z * eh + y) * ew) * c->elem, ew * c->elem))
          FAIL("%s: linear row %zu/%zu not at offset %zu", c->name, y, z, at);
      }
    free(raw);
    checks++;
  }

  /* clear a box inside */
  uint32_t bx = (uint32_t)ew / 4, by = (uint32_t)(eh > 1 ? eh / 3 : 0), bz = (uint32_t)(ed > 1 ? 1 : 0);
  uint32_t bw = (uint32_t)ew / 2, bh = (uint32_t)(eh > 1 ? eh / 2 : 1), bd = (uint32_t)(ed > 1 ? ed - 1 : 1);
  hsa_ext_image_region_t box = {{bx, by, bz}, {bw, bh, bd}};
  OK(hsa_ext_image_clear(gpu, img[0], c->clear, &box));
  memcpy(expect, pattern, n);
  for (size_t z = bz; z < bz + bd; z++)
    for (size_t y = by; y < by + bh; y++)
      for (size_t x = bx; x < bx + bw; x++) memcpy(expect + ((z * eh + y) * ew + x) * c->elem, c->encoded, c->elem);
  OK(hsa_ext_image_export(gpu, img[0], out, 0, 0, &all));
  if (memcmp(out, expect, n)) {
    for (size_t i = 0; i < n; i++)
      if (out[i] != expect[i]) FAIL("%s: after clear byte %zu is %#x, expected %#x", c->name, i, out[i], expect[i]);
  }
  checks++;

  /* copy a box of image 0 (with the cleared part) to another place in image 1 */
  hsa_dim3_t so = {bx, by, bz}, doff = {0, 0, 0}, range = {bw, bh, bd};
  OK(hsa_ext_image_copy(gpu, img[0], &so, img[1], &doff, &range));
  uint8_t *expect1 = malloc(n);
  memcpy(expect1, pattern, n);
  for (size_t z = 0; z < bd; z++)
    for (size_t y = 0; y < bh; y++)
      memcpy(expect1 + ((z * eh + y) * ew) * c->elem,
             expect + (((bz + z) * eh + by + y) * ew + bx) * c->elem, bw * c->elem);
  OK(hsa_ext_image_export(gpu, img[1], out, 0, 0, &all));
  if (memcmp(out, expect1, n)) FAIL("%s: after copy image 1 differs", c->name);
  checks++;
  if (!linear) {
    raw_hash(c->name, pool, "clear", mem[0], info.size);
    raw_hash(c->name, pool, "copy", mem[1], info.size);
  }

  /* export of a sub-box with explicit pitches: gaps keep their bytes */
  /* a 1DA image's layers (the region's y) are slices: they step by the slice pitch (HSA);
   * ROCR 5.2.3 packs them at the region's row width, whatever the pitches (--rocr) */
  bool l1da = c->geometry == HSA_EXT_IMAGE_GEOMETRY_1DA;
  size_t rp = bw * c->elem + 8, sp = l1da ? rp + 24 : rp * bh + 16, len = l1da ? sp * bh : sp * bd;
  if (l1da && rocr_1da_packed) sp = bw * c->elem;
  uint8_t *sub = alloc(sysmem, len);
  memset(sub, 0x5a, len);
  OK(hsa_ext_image_export(gpu, img[1], sub, rp, sp, &box));
  for (size_t z = 0; z < bd; z++)
    for (size_t y = 0; y < bh; y++) {
      size_t at = l1da ? y * sp : z * sp + y * rp;
      if (memcmp(sub + at, expect1 + (((bz + z) * eh + by + y) * ew + bx) * c->elem, bw * c->elem))
        FAIL("%s: pitched export row %zu/%zu differs", c->name, y, z);
      if (!(l1da && rocr_1da_packed) && sub[at + bw * c->elem] != 0x5a)
        FAIL("%s: pitched export wrote a gap", c->name);
    }
  checks++;
  OK(hsa_amd_memory_pool_free(sub));

  for (int i = 0; i < 2; i++) {
    OK(hsa_ext_image_destroy(gpu, img[i]));
    OK(hsa_amd_memory_pool_free(mem[i]));
  }
  OK(hsa_amd_memory_pool_free(pattern));
  OK(hsa_amd_memory_pool_free(out));
  free(expect);
  free(expect1);
}

/* hsa_amd_image_create with, as template, the T# of an image this runtime made: the new
 * image's T# is the template's with its own address (and the template's metadata offset 0
 * made absolute), and its data goes through import/export. */
static void amd_template(void) {
  hsa_ext_image_descriptor_t d;
  memset(&d, 0, sizeof(d));
  d.geometry = HSA_EXT_IMAGE_GEOMETRY_2D;
  d.width = 40;
  d.height = 12;
  d.format.channel_order = HSA_EXT_IMAGE_CHANNEL_ORDER_RGBA;
  d.format.channel_type = HSA_EXT_IMAGE_CHANNEL_TYPE_UNSIGNED_INT8;
  size_t row = 256, n = 40 * 12 * 4;
  hsa_ext_image_data_info_t info;
  OK(hsa_ext_image_data_get_info_with_layout(gpu, &d, HSA_ACCESS_PERMISSION_RW,
                                             HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row, row * 12, &info));
  void *m1 = alloc(vram, info.size), *m2 = alloc(vram, info.size);
  hsa_ext_image_t a, b;
  OK(hsa_ext_image_create_with_layout(gpu, &d, m1, HSA_ACCESS_PERMISSION_RW,
                                      HSA_EXT_IMAGE_DATA_LAYOUT_LINEAR, row, row * 12, &a));
  const uint32_t *ta = (const uint32_t *)(uintptr_t)a.handle;
  union { hsa_amd_image_descriptor_t d; uint32_t words[2 + 8]; } layout;
  uint32_t chip = 0;
  OK(hsa_agent_get_info(gpu, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_CHIP_ID, &chip));
  layout.d.version = 1;
  layout.d.deviceID = 0x1002u << 16 | chip;
  memcpy(&layout.words[2], ta, 32);
  OK(hsa_amd_image_create(gpu, &d, &layout.d, m2, HSA_ACCESS_PERMISSION_RW, &b));
  const uint32_t *tb = (const uint32_t *)(uintptr_t)b.handle;
  uint64_t va = (uint64_t)(uintptr_t)m2;
  if (tb[0] != (uint32_t)(va >> 8) || (tb[1] & 0xff) != ((va >> 40) & 0xff))
    FAIL("amd image: base address words %#x %#x for %p", tb[0], tb[1], m2);
  for (int i = 1; i < 7; i++) {
    uint32_t mask = i == 1 ? ~0xffu : i == 5 ? ~(0xffu << 17) : ~0u;
    if ((tb[i] & mask) != (ta[i] & mask)) FAIL("amd image: T# word %d %#x, template %#x", i, tb[i], ta[i]);
  }
  if (ta[7] != 0 || tb[7] != (uint32_t)(va >> 8)) FAIL("amd image: metadata word %#x (template %#x)", tb[7], ta[7]);
  uint8_t *pattern = alloc(sysmem, n), *out = alloc(sysmem, n);
  for (size_t i = 0; i < n; i++) pattern[i] = (uint8_t)(i * 13 + 1);
  hsa_ext_image_region_t all = {{0, 0, 0}, {40, 12, 1}};
  OK(hsa_ext_image_import(gpu, pattern, 0, 0, b, &all));
  OK(hsa_ext_image_export(gpu, b, out, 0, 0, &all));
  if (memcmp(out, pattern, n)) FAIL("amd image: export after import differs");
  checks += 2;
  /* a tiled template: an OPAQUE image's T# (gfx9: ROCR's SW_MODE and PITCH) over other
   * memory; import/export through it, its raw bytes compared with ROCR's (raw lines) */
  hsa_ext_image_descriptor_t dt = d;
  dt.width = 70;
  dt.height = 33;
  size_t nt = 70 * 33 * 4;
  hsa_ext_image_data_info_t ti;
  OK(hsa_ext_image_data_get_info(gpu, &dt, HSA_ACCESS_PERMISSION_RW, &ti));
  void *m3 = alloc(vram, ti.size), *m4 = alloc(vram, ti.size);
  if ((uintptr_t)m3 % ti.alignment || (uintptr_t)m4 % ti.alignment)
    FAIL("amd image: pool memory not aligned to %zu", ti.alignment);
  uint8_t *zero = calloc(1, ti.size), *pt = alloc(sysmem, nt), *ot = alloc(sysmem, nt);
  OK(hsa_memory_copy(m4, zero, ti.size));
  free(zero);
  hsa_ext_image_t c3, e4;
  OK(hsa_ext_image_create(gpu, &dt, m3, HSA_ACCESS_PERMISSION_RW, &c3));
  memcpy(&layout.words[2], (const void *)(uintptr_t)c3.handle, 32);
  OK(hsa_amd_image_create(gpu, &dt, &layout.d, m4, HSA_ACCESS_PERMISSION_RW, &e4));
  for (size_t i = 0; i < nt; i++) pt[i] = (uint8_t)(i * 5 + 7 + (i >> 9));
  hsa_ext_image_region_t allt = {{0, 0, 0}, {70, 33, 1}};
  OK(hsa_ext_image_import(gpu, pt, 0, 0, e4, &allt));
  OK(hsa_ext_image_export(gpu, e4, ot, 0, 0, &allt));
  if (memcmp(ot, pt, nt)) FAIL("amd image: export after import through an opaque template differs");
  raw_hash("template 2D RGBA uint8", vram, "import", m4, ti.size);
  checks++;
  OK(hsa_ext_image_destroy(gpu, c3));
  OK(hsa_ext_image_destroy(gpu, e4));
  OK(hsa_amd_memory_pool_free(m3));
  OK(hsa_amd_memory_pool_free(m4));
  OK(hsa_amd_memory_pool_free(pt));
  OK(hsa_amd_memory_pool_free(ot));
  OK(hsa_ext_image_destroy(gpu, a));
  OK(hsa_ext_image_destroy(gpu, b));
  OK(hsa_amd_memory_pool_free(m1));
  OK(hsa_amd_memory_pool_free(m2));
  OK(hsa_amd_memory_pool_free(pattern));
  OK(hsa_amd_memory_pool_free(out));
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  rocr_1da_packed = argc > 1 && strcmp(argv[1], "--rocr") == 0;
  OK(hsa_init());
  hsa_iterate_agents(find_gpu, &gpu);
  hsa_amd_agent_iterate_memory_pools(gpu, find_pool, &vram);
  hsa_iterate_agents(find_sys, &sysmem);
  if (!vram.handle || !sysmem.handle) FAIL("no device or system pool");
#define T(x) HSA_EXT_IMAGE_CHANNEL_TYPE_##x
#define O(x) HSA_EXT_IMAGE_CHANNEL_ORDER_##x
  /* Clear values and their encodings, worked out by hand: unorm8 0.5 -> round(127.5) = 128,
   * 1.0 -> 255, 0.25 -> round(63.75) = 64, 0 -> 0; half 1.5 = 0x3e00, -2 = 0xc000;
   * snorm16 -0.5 -> round(-16383.5) = -16384 (0xc000, ties to even... both give 0xc000). */
  struct fmt_case cases[] = {
      {"2D RGBA unorm8", HSA_EXT_IMAGE_GEOMETRY_2D, O(RGBA), T(UNORM_INT8), 4, 37, 19, 0, 0,
       {fb(0.5f), fb(1.0f), fb(0.25f), fb(0.0f)}, {128, 255, 64, 0}},
      {"2D BGRA unorm8", HSA_EXT_IMAGE_GEOMETRY_2D, O(BGRA), T(UNORM_INT8), 4, 20, 8, 0, 0,
       {fb(0.5f), fb(1.0f), fb(0.25f), fb(0.0f)}, {64, 255, 128, 0}},
      {"3D R float", HSA_EXT_IMAGE_GEOMETRY_3D, O(R), T(FLOAT), 4, 9, 7, 5, 0,
       {fb(-3.25f), 0, 0, 0}, {0x00, 0x00, 0x50, 0xc0}},
      {"2DA RG half", HSA_EXT_IMAGE_GEOMETRY_2DA, O(RG), T(HALF_FLOAT), 4, 16, 6, 0, 3,
       {fb(1.5f), fb(-2.0f), 0, 0}, {0x00, 0x3e, 0x00, 0xc0}},
      {"1DA RGBA uint32", HSA_EXT_IMAGE_GEOMETRY_1DA, O(RGBA), T(UNSIGNED_INT32), 16, 70, 0, 0, 4,
       {1, 0xdeadbeef, 7, 0xffffffff}, {1, 0, 0, 0, 0xef, 0xbe, 0xad, 0xde, 7, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}},
      {"1D R snorm16", HSA_EXT_IMAGE_GEOMETRY_1D, O(R), T(SNORM_INT16), 2, 300, 0, 0, 0,
       {fb(-0.5f), 0, 0, 0}, {0x00, 0xc0}},
      {"2D RGB 565", HSA_EXT_IMAGE_GEOMETRY_2D, O(RGB), T(UNORM_SHORT_565), 2, 33, 4, 0, 0,
       /* r 1.0 -> 31, g 0.5 -> round(31.5) = 32, b 0 -> 0: 31<<11 | 32<<5 = 0xfc00 */
       {fb(1.0f), fb(0.5f), fb(0.0f), 0}, {0x00, 0xfc}},
      {"2D RGBA sint8", HSA_EXT_IMAGE_GEOMETRY_2D, O(RGBA), T(SIGNED_INT8), 4, 8, 8, 0, 0,
       /* saturated: 300 -> 127, -300 -> -128 */
       {300, (uint32_t)-300, 5, (uint32_t)-1}, {0x7f, 0x80, 0x05, 0xff}},
  };
  (void)f;
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    run(&cases[i], vram, false);
    run(&cases[i], sysmem, false);
    run(&cases[i], vram, true);
  }
  amd_template();
  printf("ok %u checks\n", checks);
  hsa_shut_down();
  return 0;
}
