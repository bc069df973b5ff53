/* SPDX-License-Identifier: MIT */
/* sdma_rect.c — a rectangle copy as SDMA v4 COPY_LINEAR_SUB_WINDOW packets, for memory the
 * CPU cannot reach. The packet counts in elements of 1, 2, 4, 8 or 16 bytes: the element is
 * the largest that divides the pitches (and slices, when there are planes) and the bytes
 * below each side's dword-aligned base, which the packet takes as an x offset in elements.
 * Its fields bound one packet: width 2^14 elements, height 2^14 rows, depth 2^11 planes,
 * pitch 2^19 and slice 2^28 elements. A rectangle is cut into columns of at most 2^14
 * elements (the last with a smaller element when the width needs it), each column into
 * packets of at most 2^14 rows by 2^11 planes. Rows whose pitch the field cannot hold are
 * sent as planes of one row (2-D), else one row per packet. Pitches and slices are dword
 * multiples (checked before), so every row starts at the same offset within its dword.
 * gfx12 (SDMA v7) has its own layout: width and height 2^16, depth 2^14, pitch 2^16 (its field
 * from bit 16), slice 2^32 elements. */
#include <stdlib.h>

#include "mem/internal.h"

#define OP_COPY_SUB_WINDOW (1u | 4u << 8)
#define PKT_DWORDS 13u
/* What one packet holds: gfx9-gfx11 (SDMA v4-v6) and gfx12 (SDMA v7, whose sub-window has
 * 16-bit offsets, width and height, 14-bit depth, a 16-bit pitch and a 32-bit slice). */
struct limits {
  bool gfx12;
  uint64_t x, y, z, pitch, slice;
};
static const struct limits v4_limits = {false, 1u << 14, 1u << 14, 1u << 11, 1ull << 19, 1ull << 28};
static const struct limits v7_limits = {true, 1u << 16, 1u << 16, 1u << 14, 1ull << 16, 1ull << 32};

/* How the engine walks one column: `rows` rows `rs`/`rd` bytes apart, `planes` planes
 * `ps`/`pd` bytes apart (a stride of a single row or plane is never used). */
struct walk {
  uint64_t rows, planes;
  uint64_t rs, rd, ps, pd;
};

struct out {
  uint32_t *dw;
  size_t n, cap;
  const struct limits *lim;
};

static unsigned low_bits(uint64_t v) {   /* log2 of the largest element dividing v */
  return (unsigned)__builtin_ctzll(v | 16);
}

static bool fits(const struct limits *l, const struct walk *w, unsigned e) {
  return (w->rows == 1 || ((w->rs >> e) <= l->pitch && (w->rd >> e) <= l->pitch)) &&
         (w->planes == 1 || ((w->ps >> e) <= l->slice && (w->pd >> e) <= l->slice));
}

static unsigned walk_element(const struct walk *w) {
  unsigned e = 4;
  if (w->rows > 1 && low_bits(w->rs | w->rd) < e) e = low_bits(w->rs | w->rd);
  if (w->planes > 1 && low_bits(w->ps | w->pd) < e) e = low_bits(w->ps | w->pd);
  return e;
}

static uint32_t field(uint64_t stride, unsigned e) {   /* "minus one"; 0 when never used */
  return (stride >> e) ? (uint32_t)((stride >> e) - 1) : 0;
}

static bool add(struct out *o, uint64_t s, uint64_t d, unsigned e, uint64_t n,
                const struct walk *w, uint64_t rows, uint64_t planes) {
  if (o->n == o->cap) {
    size_t cap = o->cap ? o->cap * 2 : 16;
    uint32_t *p = realloc(o->dw, cap * PKT_DWORDS * sizeof(uint32_t));
    if (!p) return false;
    o->dw = p;
    o->cap = cap;
  }
  uint32_t *p = o->dw + o->n++ * PKT_DWORDS;
  uint64_t sb = s & ~3ull, db = d & ~3ull;
  p[0] = OP_COPY_SUB_WINDOW | (uint32_t)e << 29;
  p[1] = (uint32_t)sb;
  p[2] = (uint32_t)(sb >> 32);
  unsigned pitch_at = o->lim->gfx12 ? 16 : 13;   /* the pitch field's low bit */
  p[3] = (uint32_t)((s & 3) >> e);
  p[4] = field(w->rs, e) << pitch_at;
  p[5] = field(w->ps, e);
  p[6] = (uint32_t)db;
  p[7] = (uint32_t)(db >> 32);
  p[8] = (uint32_t)((d & 3) >> e);
  p[9] = field(w->rd, e) << pitch_at;
  p[10] = field(w->pd, e);
  p[11] = (uint32_t)(n - 1) | (uint32_t)(rows - 1) << 16;
  p[12] = (uint32_t)(planes - 1);
  return true;
}

/* One column of n elements of 1 << e bytes starting at s and d, walked as w. */
static bool column(struct out *o, uint64_t s, uint64_t d, unsigned e, uint64_t n,
                   const struct walk *w) {
  const struct limits *l = o->lim;
  for (uint64_t z = 0; z < w->planes; z += l->z)
    for (uint64_t y = 0; y < w->rows; y += l->y) {
      uint64_t rows = w->rows - y < l->y ? w->rows - y : l->y;
      uint64_t planes = w->planes - z < l->z ? w->planes - z : l->z;
      if (!add(o, s + z * w->ps + y * w->rs, d + z * w->pd + y * w->rd, e, n, w, rows, planes))
        return false;
    }
  return true;
}

/* The column in the first walk that can hold its strides with element e, else row by row. */
static bool column_any(struct out *o, const struct mem_rect *r, uint64_t s, uint64_t d,
                       unsigned e, uint64_t n) {
  struct walk full = {r->range.y, r->range.z, r->src.pitch, r->dst.pitch,
                      r->src.slice, r->dst.slice};
  if (fits(o->lim, &full, e)) return column(o, s, d, e, n, &full);
  struct walk rows_as_planes = {1, r->range.y, 0, 0, r->src.pitch, r->dst.pitch};
  if (r->range.z == 1 && fits(o->lim, &rows_as_planes, e)) return column(o, s, d, e, n, &rows_as_planes);
  struct walk one = {1, 1, 0, 0, 0, 0};
  for (uint64_t z = 0; z < r->range.z; z++)
    for (uint64_t y = 0; y < r->range.y; y++)
      if (!column(o, s + z * r->src.slice + y * r->src.pitch,
                  d + z * r->dst.slice + y * r->dst.pitch, e, n, &one))
        return false;
  return true;
}

hsa_status_t mem_sdma_rect(const struct core_agent *gpu, const struct mem_rect *r) {
  uint64_t s0 = mem_rect_first(&r->src, &r->src_off), d0 = mem_rect_first(&r->dst, &r->dst_off);
  struct walk full = {r->range.y, r->range.z, r->src.pitch, r->dst.pitch,
                      r->src.slice, r->dst.slice};
  unsigned e_max = walk_element(&full);
  struct out o = {NULL, 0, 0,
                  gpu && gpu->isa && gpu->isa->major >= 12 ? &v7_limits : &v4_limits};
  bool ok = true;
  for (uint64_t x = 0; ok && x < r->range.x;) {
    uint64_t s = s0 + x, d = d0 + x, left = r->range.x - x;
    unsigned e = low_bits((s | d) & 3);
    if (e > e_max) e = e_max;
    while (e && (left >> e) == 0) e--;
    uint64_t n = left >> e;
    if (n > o.lim->x) n = o.lim->x;
    ok = column_any(&o, r, s, d, e, n);
    x += n << e;
  }
  hsa_status_t st = ok ? mem_sdma_packets(gpu, o.dw, o.n, PKT_DWORDS)
                       : HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  free(o.dw);
  return st;
}
