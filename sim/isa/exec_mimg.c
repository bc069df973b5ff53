/* SPDX-License-Identifier: MIT */
/* exec_mimg.c — the gfx9 image instructions (MIMG): image_load[_mip], image_store[_mip],
 * image_get_resinfo, image_sample with _cl/_d/_l/_b/_lz/_o, image_gather4 (same suffixes: the
 * dmask channel of the bilinear footprint's four texels), and the 32-bit image atomics,
 * through the T# (8 SGPRs at srsrc) and S# (4 SGPRs at ssamp); image.h has the descriptor
 * fields, image_format.c the formats, sample.c the filtering.
 *
 * Address VGPRs, in this order, as many as the instruction and the T# TYPE need: offset (_o:
 * 6-bit signed texel offsets in bits 5:0, 13:8, 21:16), bias (_b), derivatives (_d: d/dh of
 * each dimension, then d/dv), the coordinates (x, y, z / slice), then lod (_l), mip (_mip)
 * or clamp (_cl). Loads and stores take integer coordinates; samples take floats,
 * normalized unless the S# sets FORCE_UNNORMALIZED or the instruction `unorm`.
 *
 * Memory: a texel of (x, y, z) of mip level L is at level_base + z * slice_bytes + (y * pitch +
 * x) * bytes, z the depth or the slice (arrays), the level's base and the chain's slice size
 * from img_level_select (addrlib's LINEAR mip chain, gfx9's or gfx10+'s; one level: base + ((z * height + y) *
 * pitch + x) * bytes); every access goes through the VM (isa_mem_fast). That is the hardware's
 * LINEAR swizzle mode; gfx9's tiled modes (SW_MODE 4-6, 8-10, 20-22, 24-26) are addressed by
 * image_swizzle.c's equations (mip chains in addrlib's gfx9 chain and tail; other modes fault);
 * gfx12's (SW_MODE 1-7: 256B/4KB/64KB/256KB_2D, 4KB/64KB/256KB_3D) by image_swizzle_gfx12.c's,
 * gfx11's (256B_D, 4KB_D_X, 64KB/256KB R_X and Z_X, for GB_ADDR_CONFIG 0x545) by
 * image_swizzle_gfx11.c's, one level only. Levels: _mip's
 * VGPR plus BASE_LEVEL for loads and stores; for samples BASE_LEVEL, or with the S#'s
 * MIP_FILTER point/linear the LOD's nearest level or the two around it (clamped to
 * LAST_LEVEL). Loads out of range read a zero texel; stores out of range are dropped.
 * gfx11's MIMG (decode_gfx11.c names it) runs here too: its fields from their gfx11 bits
 * (fields_of), the address VGPRs consecutive or NSA's list, the T#/S# in gfx11's layouts
 * (img_tsharp_decode_gfx11); the T#'s TYPE decides the coordinates, as on gfx9. gfx12's
 * VIMAGE/VSAMPLE (decode_gfx12_image.c) likewise: four listed address VGPRs, the fourth
 * continuing with the rest, gfx12's T#/S# (img_tsharp_decode_gfx12).
 * gfx11's mip chains are gfx10+'s LINEAR chain (img_level_select: the smallest level first,
 * each at its own pitch; gfx12's the same with 128-byte row pitches). Not modelled (fault as
 * ILLEGAL): a16, gfx90a's acc bit, gfx10+'s r128, the depth-compare (_c), get_lod and
 * the _pck forms. */
#include "isa/exec.h"
#include "isa/hostmem.h"
#include "isa/image.h"

#include <math.h>
#include <string.h>

static uint32_t fbits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static float ffrom(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }

struct fetch_ctx {
  struct isa_wave *w;
  const struct img_tsharp *t;
  const struct img_fmt *f;
};

static uint64_t texel_addr(const struct img_tsharp *t, const struct img_fmt *f, unsigned x,
                           unsigned y, unsigned z)
{
  if (t->swz && t->swz_chain)
    return t->base + img_swizzle_offset_level(t->swz, &t->swl, x, y, z);
  if (t->swz)
    return t->base + img_swizzle_offset(t->swz, x, y, z, t->pitch, t->height);
  return t->base + (uint64_t)z * t->slice_bytes + ((uint64_t)y * t->pitch + x) * f->bytes;
}

static int fetch(void *vctx, int x, int y, int z, uint32_t out[4])
{
  struct fetch_ctx *c = vctx;
  const struct img_fmt *f = c->f;
  uint8_t *p = isa_mem_fast(c->w, texel_addr(c->t, f, (unsigned)x, (unsigned)y, (unsigned)z),
                            f->bytes, false);
  if (!p)
    return -1;
  uint8_t b[16];
  if (f->bytes % 4 == 0) {
    for (unsigned i = 0; i < f->bytes / 4; i++) {
      uint32_t v = isa_ld32(p + 4 * i);
      memcpy(b + 4 * i, &v, 4);
    }
  } else {
    uint32_t v = isa_ld_small(p, f->bytes);
    memcpy(b, &v, 4);
  }
  img_decode(f, b, out);
  return 0;
}

static int store_texel(struct isa_wave *w, const struct img_tsharp *t, const struct img_fmt *f,
                       unsigned x, unsigned y, unsigned z, const uint32_t v[4])
{
  uint8_t *p = isa_mem_fast(w, texel_addr(t, f, x, y, z), f->bytes, true);
  if (!p)
    return -1;
  uint8_t b[16] = {0};
  img_encode(f, v, b);
  if (f->bytes % 4 == 0) {
    for (unsigned i = 0; i < f->bytes / 4; i++) {
      uint32_t d;
      memcpy(&d, b + 4 * i, 4);
      isa_st32(p + 4 * i, d);
    }
  } else {
    uint32_t d = 0;
    memcpy(&d, b, f->bytes);
    isa_st_small(p, d, f->bytes);
  }
  return 0;
}

/* dst_sel: the four result channels from the texel's */
static void swizzle(const struct img_tsharp *t, bool is_int, const uint32_t in[4], uint32_t out[4])
{
  for (unsigned i = 0; i < 4; i++) {
    unsigned s = t->dst_sel[i];
    out[i] = s >= 4 ? in[s - 4] : s == 1 ? (is_int ? 1u : fbits(1.0f)) : 0;
  }
}

/* The four result channels of each lane in EXEC into vdata: the dmask channels (all four
 * for gather4) packed, as halves with d16, and tfe's extra VGPR 0. Written only once every
 * lane has read its texels, so that a fault leaves the registers as they were. */
static void write_back(struct isa_wave *w, uint32_t (*res)[4], unsigned dmask, bool d16,
                       bool is_int, bool all4, unsigned vd, unsigned vdw, bool tfe)
{
  uint32_t (*v)[SIM_ISA_WAVE_SIZE] = w->vgpr;
  ISA_FOR_LANES(w->exec, l) {
    unsigned o = 0;
    for (unsigned ch = 0; ch < 4; ch++) {
      if (!all4 && !(dmask >> ch & 1)) continue;
      if (d16) {
        uint32_t h = is_int ? res[l][ch] & 0xffff : img_f32_to_f16(ffrom(res[l][ch]));
        uint32_t *dst = &v[vd + o / 2][l];
        *dst = (o & 1) ? (*dst & 0xffff) | h << 16 : h;
      } else {
        v[vd + o][l] = res[l][ch];
      }
      o++;
    }
    if (tfe) v[vd + vdw][l] = 0;
  }
}

/* What the instruction's name says about its address and data. */
struct form {
  bool sample, gather, load, store, mip, resinfo, atomic;
  bool o, b, c, d, l, lz, cl;
};

static bool form_of(const char *n, struct form *f)
{
  memset(f, 0, sizeof *f);
  if (!strncmp(n, "image_sample", 12) || !strncmp(n, "image_gather4", 13)) {
    f->sample = true;
    f->gather = n[6] == 'g';
    for (const char *p = n + (f->gather ? 13 : 12); *p == '_';) {
      const char *e = p + 1;
      while (*e && *e != '_') e++;
      size_t len = (size_t)(e - p - 1);
      if (len == 1 && p[1] == 'o') f->o = true;
      else if (len == 1 && p[1] == 'b') f->b = true;
      else if (len == 1 && p[1] == 'c') f->c = true;
      else if (len == 1 && p[1] == 'd') f->d = true;
      else if (len == 1 && p[1] == 'l') f->l = true;
      else if (len == 2 && !strncmp(p + 1, "lz", 2)) f->lz = true;
      else if (len == 2 && !strncmp(p + 1, "cl", 2)) f->cl = true;
      else return false;   /* cd */
      p = e;
    }
    return !f->c;
  }
  if (!strcmp(n, "image_load") || !strcmp(n, "image_load_mip")) {
    f->load = true;
    f->mip = n[10] == '_';
    return true;
  }
  if (!strcmp(n, "image_store") || !strcmp(n, "image_store_mip")) {
    f->store = true;
    f->mip = n[11] == '_';
    return true;
  }
  if (!strcmp(n, "image_get_resinfo"))
    return f->resinfo = true;
  if (!strncmp(n, "image_atomic_", 13))
    return f->atomic = true;
  return false;
}

static int not_modelled(struct isa_wave *w, const struct isa_inst *in, const char *what)
{
  return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, in->pc, false,
                   "%s at 0x%llx: %s is not modelled by hsa-sim", in->name,
                   (unsigned long long)in->pc, what);
}

/* The instruction's fields: gfx9's MIMG or gfx11's (decode_gfx11.c), and the address VGPRs
 * (consecutive from vaddr, or gfx11's NSA list: vaddr0 then the extra dword's bytes). */
struct mimg_f {
  unsigned dmask, vd, rs, ss, nsa;   /* nsa: addresses listed (0: consecutive) */
  bool unorm, glc, a16, tfe, acc, d16, r128, gfx11, gfx12;   /* gfx12: the last listed
                                      address register continues with the rest */
  uint8_t areg[5];
  unsigned va;
};

static unsigned areg(const struct mimg_f *m, unsigned k)
{
  if (m->gfx12 && k >= 4)
    return m->areg[3] + (k - 3);
  return m->nsa ? (k < m->nsa ? m->areg[k] : ISA_MAX_VGPRS) : m->va + k;
}

/* Level of detail of lane l (log2 of the texel footprint), for the mag/min filter choice. */
static float lod_of(const struct isa_wave *w, const struct mimg_f *m, const struct form *fm,
                    const struct img_tsharp *t,
                    const struct img_ssharp *s, unsigned coord0, unsigned nd,
                    bool unnorm, unsigned l, unsigned lod_reg, unsigned bias_reg)
{
  float lod;
  const float size[3] = {(float)t->width, (float)t->height, (float)t->depth};
  if (fm->lz) {
    lod = 0;
  } else if (fm->l) {
    lod = ffrom(w->vgpr[areg(m, lod_reg)][l]);
  } else {
    float dh = 0, dv = 0;
    for (unsigned k = 0; k < nd; k++) {
      float scale = unnorm ? 1 : size[k], a, b;
      if (fm->d) {   /* the given derivatives precede the coordinates */
        a = ffrom(w->vgpr[areg(m, coord0 - 2 * nd + k)][l]);
        b = ffrom(w->vgpr[areg(m, coord0 - nd + k)][l]);
      } else {       /* implicit: differences across the 2x2 quad of lanes */
        unsigned q = l & ~3u;
        a = ffrom(w->vgpr[areg(m, coord0 + k)][q + 1]) - ffrom(w->vgpr[areg(m, coord0 + k)][q]);
        b = ffrom(w->vgpr[areg(m, coord0 + k)][q + 2]) - ffrom(w->vgpr[areg(m, coord0 + k)][q]);
      }
      dh += (a * scale) * (a * scale);
      dv += (b * scale) * (b * scale);
    }
    float rho = sqrtf(dh > dv ? dh : dv);
    lod = rho > 0 ? log2f(rho) : -INFINITY;
  }
  if (fm->b)
    lod += ffrom(w->vgpr[areg(m, bias_reg)][l]);
  lod += (float)s->lod_bias / 256.0f;
  float lo = (float)s->min_lod / 256.0f, hi = (float)s->max_lod / 256.0f;
  if (lod < lo) lod = lo;
  if (lod > hi) lod = hi;
  if (fm->cl) {   /* _cl: the shader's LOD clamp, a lower bound (Vulkan's MinLod) */
    float cl = ffrom(w->vgpr[areg(m, lod_reg)][l]);
    if (lod < cl) lod = cl;
  }
  return lod;
}

static void fields_of(const struct isa_inst *in, struct mimg_f *m)
{
  uint32_t w0 = in->words[0], w1 = in->words[1];
  memset(m, 0, sizeof *m);
  m->dmask = (w0 >> 8) & 15;
  m->va = w1 & 0xff;
  m->vd = (w1 >> 8) & 0xff;
  m->rs = ((w1 >> 16) & 0x1f) * 4;
  if (in->target == ISA_TARGET_GFX1201) {   /* VIMAGE/VSAMPLE (decode_gfx12_image.c) */
    bool samp = (w0 >> 26) == 0x39;
    m->gfx11 = m->gfx12 = true;
    m->dmask = (w0 >> 22) & 15;
    m->vd = w1 & 0xff;
    m->rs = (w1 >> 9) & 0x1ff;
    m->ss = (w1 >> 23) & 0x1ff;
    m->r128 = (w0 >> 4) & 1;
    m->d16 = (w0 >> 5) & 1;
    m->a16 = (w0 >> 6) & 1;
    m->glc = (w1 >> 20) & 1;
    m->unorm = samp && ((w0 >> 13) & 1);
    m->tfe = samp ? (w0 >> 3) & 1 : (w1 >> 23) & 1;
    m->nsa = 4;
    for (unsigned i = 0; i < 4; i++)
      m->areg[i] = (uint8_t)(in->words[2] >> (8 * i));
    return;
  }
  if (in->target == ISA_TARGET_GFX1100) {
    m->gfx11 = true;
    m->unorm = (w0 >> 7) & 1;
    m->glc = (w0 >> 14) & 1;
    m->r128 = (w0 >> 15) & 1;
    m->a16 = (w0 >> 16) & 1;
    m->d16 = (w0 >> 17) & 1;
    m->tfe = (w1 >> 21) & 1;
    m->ss = ((w1 >> 26) & 0x1f) * 4;
    if (w0 & 1) {
      m->nsa = 5;
      m->areg[0] = (uint8_t)m->va;
      for (unsigned i = 0; i < 4; i++)
        m->areg[1 + i] = (uint8_t)(in->words[2] >> (8 * i));
    }
    return;
  }
  bool cdna = in->target == ISA_TARGET_GFX90A || in->target == ISA_TARGET_GFX942;
  m->unorm = (w0 >> 12) & 1;
  m->glc = (w0 >> 13) & 1;
  m->a16 = (w0 >> 15) & 1;
  m->tfe = !cdna && ((w0 >> 16) & 1);
  m->acc = cdna && ((w0 >> 16) & 1);
  m->d16 = (w1 >> 31) & 1;
  m->ss = ((w1 >> 21) & 0x1f) * 4;
}

int isa_exec_mimg(struct isa_wave *w, const struct isa_inst *in)
{
  struct mimg_f m;
  fields_of(in, &m);
  unsigned dmask = m.dmask, vd = m.vd, rs = m.rs, ss = m.ss;
  bool unorm = m.unorm, glc = m.glc, tfe = m.tfe, d16 = m.d16;
  struct form fm;
  if (!in->name || !form_of(in->name, &fm))
    return isa_unknown(w, in);
  if (m.a16) return not_modelled(w, in, "a16 (16-bit addresses)");
  if (m.acc) return not_modelled(w, in, "image data in AGPRs");
  if (m.r128) return not_modelled(w, in, "r128 (a 4-dword image resource)");

  uint32_t td[8], sd[4] = {0, 0, 0, 0};
  for (unsigned i = 0; i < 8; i++)
    td[i] = w->sgpr[(rs + i) % ISA_MAX_SGPRS];
  if (fm.sample)
    for (unsigned i = 0; i < 4; i++)
      sd[i] = w->sgpr[(ss + i) % ISA_MAX_SGPRS];
  struct img_tsharp t;
  struct img_ssharp s;
  struct img_fmt f;
  if (m.gfx12) {
    img_tsharp_decode_gfx12(td, &t);
    img_ssharp_decode_gfx12(sd, &s);
  } else if (m.gfx11) {
    img_tsharp_decode_gfx11(td, &t);
    img_ssharp_decode_gfx11(sd, &s);
  } else {
    img_tsharp_decode(td, &t);
    img_ssharp_decode(sd, &s);
  }
  if (t.type < IMG_TYPE_1D)
    return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, in->pc, false,
                     "%s at 0x%llx: s[%u:%u] is not an image resource (TYPE %u)", in->name,
                     (unsigned long long)in->pc, rs, rs + 7, t.type);
  if (!fm.resinfo && !img_fmt_of(t.dfmt, t.nfmt, &f))
    return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, in->pc, false,
                     "%s at 0x%llx: image format DATA_FORMAT %u NUM_FORMAT %u is not modelled",
                     in->name, (unsigned long long)in->pc, t.dfmt, t.nfmt);
  if (t.type == IMG_TYPE_CUBE || t.type >= IMG_TYPE_2D_MSAA)
    return not_modelled(w, in, "a cube or multisampled image");
  if (!t.pitch)   /* gfx11's 3D and arrays: addrlib's linear pitch, rows of 256-byte multiples */
    t.pitch = img_linear_pitch(t.width, f.bytes);
  struct img_swizzle swz;
  if (!m.gfx11 && !m.gfx12 && t.sw_mode && !fm.resinfo) {   /* gfx9's tiled layouts */
    const struct sim_gpu *g = w->group && w->group->wg ? w->group->wg->gpu : NULL;
    uint32_t gb = g && g->model ? sim_gb_addr_config(g->model) : 0x2a114042u;
    if (!img_swizzle_init(&swz, gb, t.sw_mode, t.type == IMG_TYPE_3D, f.bytes))
      return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, in->pc, false,
                       "%s at 0x%llx: SW_MODE %u of %u-byte texels is not modelled by hsa-sim "
                       "(gfx9 tiled images: SW_4KB/64KB_Z/S/D and their _X forms)", in->name,
                       (unsigned long long)in->pc, t.sw_mode, f.bytes);
    t.swz = &swz;   /* a mip chain: img_level_select places each level (image_swizzle.c) */
  } else if (m.gfx11 && t.sw_mode && !fm.resinfo) {   /* gfx11's and gfx12's tiled layouts */
    const struct sim_gpu *g = w->group && w->group->wg ? w->group->wg->gpu : NULL;
    uint32_t gb = g && g->model ? sim_gb_addr_config(g->model) : 0x545u;
    if (m.gfx12 ? !img_swizzle_init_gfx12(&swz, t.sw_mode, f.bytes)
                : !img_swizzle_init_gfx11(&swz, gb, t.sw_mode, f.bytes))
      return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, in->pc, false,
                       "%s at 0x%llx: SW_MODE %u of %u-byte texels is not modelled by hsa-sim "
                       "(gfx12 tiled images: 256B/4KB/64KB/256KB_2D, 4KB/64KB/256KB_3D; gfx11: "
                       "256B_D, 4KB_D_X, 64KB/256KB_R_X and _Z_X for GB_ADDR_CONFIG 0x545)",
                       in->name, (unsigned long long)in->pc, t.sw_mode, f.bytes);
    if (t.max_mip || t.last_level)
      return not_modelled(w, in, "a gfx11/gfx12 tiled mip chain");
    /* the rows are whole blocks: the width rounded up (the T#'s PITCH is not read) */
    t.pitch = (t.width + (1u << swz.bw_log2) - 1) >> swz.bw_log2 << swz.bw_log2;
    t.swz = &swz;
  }
  const struct img_tsharp t0 = t;   /* the resource from level 0 */
  if (!fm.resinfo)                  /* t: the base level, whose size the LOD is measured in */
    img_level_select(&t, f.bytes, t.base_level);

  unsigned nd = t.coords - (t.array ? 1u : 0u);   /* filtered dimensions */
  unsigned ndata = (unsigned)__builtin_popcount(dmask);
  /* address layout */
  unsigned k = 0, off_reg = 0, bias_reg = 0, coord0, lod_reg;
  if (fm.o) off_reg = k++;
  if (fm.b) bias_reg = k++;
  if (fm.d) k += 2 * nd;
  coord0 = k;
  k += t.coords;
  lod_reg = k;
  if (fm.l || fm.mip || fm.cl) k++;
  if (fm.resinfo) { coord0 = 0; lod_reg = 0; k = 1; }
  if (fm.gather)
    ndata = 4;   /* one channel (dmask's lowest) of four texels */
  unsigned vdw = fm.atomic ? (strstr(in->name, "cmpswap") ? 2u : 1u)
                           : d16 ? (ndata + 1) / 2 : (ndata ? ndata : 1);
  unsigned aend = 0;
  for (unsigned i = 0; i < k; i++)
    if (areg(&m, i) + 1 > aend) aend = areg(&m, i) + 1;
  if (aend > ISA_MAX_VGPRS || vd + vdw + tfe > ISA_MAX_VGPRS ||
      aend > w->vgpr_alloc || vd + vdw + tfe > w->vgpr_alloc)
    return isa_fault(w, SIM_ISA_FAULT_ILLEGAL, in->pc, false,
                     "%s at 0x%llx names VGPRs beyond the %u allocated", in->name,
                     (unsigned long long)in->pc, w->vgpr_alloc);
  uint32_t (*v)[SIM_ISA_WAVE_SIZE] = w->vgpr;
  unsigned base_array = t.array ? t.base_array : 0;
  struct fetch_ctx ctx = {w, &t, &f};
  uint32_t res[SIM_ISA_WAVE_SIZE][4];

  if (fm.resinfo) {
    ISA_FOR_LANES(w->exec, l) {
      unsigned mip = v[areg(&m, 0)][l];
      unsigned levels = t.last_level >= t.base_level ? t.last_level - t.base_level + 1 : 1;
      uint32_t r[4] = {0, 0, 0, levels};
      if (mip < levels && t.base_level + mip < 16) {
        unsigned sh = t.base_level + mip;
        r[0] = t.width >> sh ? t.width >> sh : 1;
        r[1] = t.type == IMG_TYPE_1D_ARRAY ? t.depth : t.height >> sh ? t.height >> sh : 1;
        r[2] = t.type == IMG_TYPE_3D ? (t.depth >> sh ? t.depth >> sh : 1)
               : t.type == IMG_TYPE_2D_ARRAY ? t.depth : 0;
        if (t.type == IMG_TYPE_1D || t.type == IMG_TYPE_1D_ARRAY) r[2] = 0;
        if (t.type == IMG_TYPE_1D) r[1] = 0;
      }
      unsigned o = 0;
      for (unsigned c = 0; c < 4; c++)
        if (dmask >> c & 1)
          v[vd + o++][l] = r[c];
      if (tfe) v[vd + o][l] = 0;
    }
    w->pc += in->size;
    return 0;
  }

  if (fm.load || fm.store || fm.atomic) {
    ISA_FOR_LANES(w->exec, l) {
      unsigned c[3] = {0, 0, 0};
      for (unsigned i = 0; i < t.coords; i++)
        c[i] = v[areg(&m, coord0 + i)][l];
      /* x, y and z (the depth, or the slice of an array) */
      unsigned x = c[0], y = t.type == IMG_TYPE_1D_ARRAY ? 0 : c[1];
      unsigned z = t.type == IMG_TYPE_1D_ARRAY ? c[1] : c[2];
      bool in_range = true;
      struct img_tsharp lt = t;   /* the level addressed */
      if (fm.mip) {
        uint32_t mip = v[areg(&m, lod_reg)][l];
        if ((uint64_t)t.base_level + mip > t.last_level) {
          in_range = false;
        } else if (mip) {
          lt = t0;
          img_level_select(&lt, f.bytes, t.base_level + mip);
        }
      }
      in_range = in_range && x < lt.width && y < lt.height;
      in_range = in_range && (uint64_t)z + base_array < lt.depth;
      z += base_array;
      ctx.t = &lt;
      if (fm.atomic) {
        unsigned op = in->op - 16;
        if (f.bytes != 4 || f.comps != 1 || !f.is_int)
          return not_modelled(w, in, "an image atomic on a format other than 32-bit UINT/SINT");
        uint32_t old = 0;
        if (in_range) {
          uint8_t *p = isa_mem_fast(w, texel_addr(&lt, &f, x, y, z), 4, true);
          if (!p) return -1;
          old = isa_atomic32(op, (uint32_t *)(void *)p, v[vd][l], op == ISA_AT_CMPSWAP ? v[vd + 1][l] : 0);
        }
        if (glc) v[vd][l] = old;
        continue;
      }
      if (fm.store) {
        if (!in_range) continue;
        uint32_t data[4] = {0, 0, 0, 0}, mem[4] = {0, 0, 0, 0};
        unsigned o = 0;
        for (unsigned ch = 0; ch < 4; ch++) {
          if (!(dmask >> ch & 1)) continue;
          uint32_t d = d16 ? (v[vd + o / 2][l] >> (16 * (o & 1))) & 0xffff : v[vd + o][l];
          if (d16) d = f.is_int ? (f.nfmt == 5 ? (uint32_t)(int32_t)(int16_t)d : d)
                                : fbits(img_f16_to_f32((uint16_t)d));
          data[ch] = d;
          o++;
        }
        for (unsigned ch = 0; ch < 4; ch++)   /* dst_sel read backwards */
          for (unsigned i = 0; i < 4; i++)
            if (t.dst_sel[i] == 4 + ch) { mem[ch] = data[i]; break; }
        if (store_texel(w, &lt, &f, x, y, z, mem)) return -1;
        continue;
      }
      uint32_t tx[4] = {0, 0, 0, 0};
      if (in_range) {
        if (fetch(&ctx, (int)x, (int)y, (int)z, tx)) return -1;
      } else {
        uint8_t zero[16] = {0};
        img_decode(&f, zero, tx);
      }
      swizzle(&t, f.is_int, tx, res[l]);
    }
    if (fm.load)
      write_back(w, res, dmask, d16, f.is_int, false, vd, vdw, tfe);
    w->pc += in->size;
    return 0;
  }

  /* samples */
  bool unnorm = unorm || s.force_unnorm;
  ISA_FOR_LANES(w->exec, l) {
    float lod = lod_of(w, &m, &fm, &t, &s, coord0, nd, unnorm, l, lod_reg, bias_reg);
    if (lod < (float)t.min_lod / 256.0f) lod = (float)t.min_lod / 256.0f;   /* T#'s MIN_LOD */
    unsigned filt = lod > 0 ? s.min_filter : s.mag_filter;
    bool linear = filt & 1;
    /* the levels: BASE_LEVEL without a MIP_FILTER; else the nearest (point) or the two
     * around the LOD (linear), from BASE_LEVEL, at most LAST_LEVEL */
    unsigned lv[2] = {t.base_level, t.base_level};
    float mfrac = 0;
    if (s.mip_filter && t.last_level > t.base_level) {
      float ml = lod > 0 ? lod : 0;   /* (NaN: 0) */
      if (ml > 15) ml = 15;
      if (s.mip_filter == 2 && !f.is_int) {
        lv[0] += (unsigned)floorf(ml);
        mfrac = ml - floorf(ml);
      } else {
        lv[0] += (unsigned)floorf(ml + 0.5f);
      }
      if (lv[0] >= t.last_level) {
        lv[0] = t.last_level;
        mfrac = 0;
      }
      lv[1] = lv[0] + 1;
    }
    int offs[3] = {0, 0, 0};
    if (fm.o) {
      uint32_t ov = v[areg(&m, off_reg)][l];
      for (unsigned i = 0; i < 3; i++)
        offs[i] = (int)((ov >> (8 * i)) << 26) >> 26;
    }
    int slice = 0;
    if (t.array) {
      float x = rintf(ffrom(v[areg(&m, coord0 + nd)][l]));
      int last = (int)t.depth - 1, first = (int)base_array;
      float sl = x + (float)first;
      slice = !(sl > (float)first) ? first : sl > (float)last ? last : (int)sl;
    }
    float acc[4] = {0, 0, 0, 0};
    uint32_t tx[4];
    for (unsigned lk = 0; lk < (mfrac > 0 ? 2u : 1u); lk++) {
      struct img_tsharp lt = t;
      if (lv[lk] != t.base_level) {
        lt = t0;
        img_level_select(&lt, f.bytes, lv[lk]);
      }
      ctx.t = &lt;
      const float size[3] = {(float)lt.width, (float)lt.height, (float)lt.depth};
      float cf[3] = {0, 0, 0};
      for (unsigned i = 0; i < nd; i++) {
        float x = ffrom(v[areg(&m, coord0 + i)][l]);
        cf[i] = (unnorm ? x : x * size[i]) + (float)offs[i];
      }
      if (fm.gather) {
        uint32_t q[4][4], sw[4];
        unsigned ch = dmask ? (unsigned)__builtin_ctz(dmask) : 0;
        if (img_gather(&lt, &s, &f, cf, slice, fetch, &ctx, q))
          return -1;
        for (unsigned g = 0; g < 4; g++) {
          swizzle(&t, f.is_int, q[g], sw);
          res[l][g] = sw[ch];
        }
        break;   /* one level: the nearest */
      }
      if (img_sample(&lt, &s, &f, cf, slice, linear, fetch, &ctx, tx))
        return -1;
      float wgt = lk ? mfrac : 1 - mfrac;
      for (unsigned i = 0; i < 4; i++)
        acc[i] += wgt * ffrom(tx[i]);
    }
    if (fm.gather)
      continue;
    if (mfrac > 0)   /* trilinear: the two levels blended in f32 */
      for (unsigned i = 0; i < 4; i++)
        tx[i] = fbits(acc[i]);
    swizzle(&t, f.is_int, tx, res[l]);
  }
  write_back(w, res, dmask, d16, f.is_int, fm.gather, vd, vdw, tfe);
  w->pc += in->size;
  return 0;
}
