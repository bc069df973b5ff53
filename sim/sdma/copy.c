/* SPDX-License-Identifier: MIT */
/* copy.c — the COPY packets ROCR and our runtime send: linear (also in its broadcast form),
 * and the linear sub-window (a rectangle of a 3-D array, what hsa_amd_memory_async_copy_rect
 * becomes).
 *
 * COPY_LINEAR, 7 dwords: count (bytes - 1) in dw1 bits 21:0, endian swaps in dw2
 * (dst 17:16, src 25:24), source address dw3-4, destination dw5-6.
 * With the broadcast bit (header bit 27), 9 dwords: the same bytes go to two destinations,
 * dw5-6 and dw7-8; dw2 has a swap field for each (second destination 9:8, first 17:16,
 * source 25:24).
 * COPY_LINEAR_SUB_WINDOW, 13 dwords, in elements of 1 << header bits 31:29 bytes (1..16):
 *   dw1-2 source base; dw3 src x (13:0), y (29:16); dw4 src z (10:0), row pitch - 1 (31:13);
 *   dw5 slice pitch - 1 (27:0); dw6-10 the same for the destination; dw11 width - 1 (13:0),
 *   height - 1 (29:16); dw12 depth - 1 (10:0), endian swaps (dst 17:16, src 25:24).
 * An element (x, y, z) of a side sits at base + ((z0 + z) * slice + (y0 + y) * pitch + x0 + x)
 * elements; both bases are dword aligned (ROCR and Mesa say so of the hardware). Header
 * bit 18 asks for TMZ (encrypted) memory, which no simulated buffer is. */
#include "sdma/sdma.h"

#define TMZ_BIT (1u << 18)

static bool swaps(uint32_t dw) { return (dw & (3u << 16)) || (dw & (3u << 24)); }

static enum sdma_res bad(struct sdma_pkt *p, const char *why)
{
  p->why = why;
  return SDMA_BAD;
}

static enum sdma_res linear(struct sim_gpu *gpu, struct sdma_pkt *p)
{
  const uint32_t *d = p->dw;
  bool broadcast = d[0] & SDMA_COPY_BROADCAST;
  if (swaps(d[2]) || (broadcast && (d[2] & (3u << 8))))
    return bad(p, "COPY_LINEAR endian swap is not modelled");
  /* 22 bits of "bytes - 1" on v4, 30 from v5.2 (gfx10.3+) */
  uint64_t bytes = (uint64_t)(d[1] & (p->ver >= 6 ? 0x3fffffffu : 0x3fffffu)) + 1;
  if (!sdma_move(gpu, sdma_addr(&d[5]), sdma_addr(&d[3]), bytes))
    return SDMA_FAULT;
  if (broadcast && !sdma_move(gpu, sdma_addr(&d[7]), sdma_addr(&d[3]), bytes))
    return SDMA_FAULT;
  return SDMA_DONE;
}

struct side {
  uint64_t base;
  uint64_t x, y, z, pitch, slice;   /* in elements; pitches are the field + 1 */
};

/* v7 (gfx12): wider offsets and rectangle, a 16-bit pitch, a 32-bit slice pitch */
static struct side side_of_v7(const uint32_t *d)
{
  struct side s;
  s.base = sdma_addr(d);
  s.x = d[2] & 0xffff;
  s.y = d[2] >> 16;
  s.z = d[3] & 0x3fff;
  s.pitch = (uint64_t)(d[3] >> 16) + 1;
  s.slice = (uint64_t)d[4] + 1;
  return s;
}

static struct side side_of(const uint32_t *d)
{
  struct side s;
  s.base = sdma_addr(d);
  s.x = d[2] & 0x3fff;
  s.y = (d[2] >> 16) & 0x3fff;
  s.z = d[3] & 0x7ff;
  s.pitch = (uint64_t)(d[3] >> 13) + 1;
  s.slice = (uint64_t)(d[4] & 0xfffffff) + 1;
  return s;
}

static uint64_t row_va(const struct side *s, unsigned e, uint64_t y, uint64_t z)
{
  return s->base + (((s->z + z) * s->slice + (s->y + y) * s->pitch + s->x) << e);
}

static enum sdma_res sub_window(struct sim_gpu *gpu, struct sdma_pkt *p)
{
  const uint32_t *d = p->dw;
  unsigned e = d[0] >> 29;
  if (e > 4)
    return bad(p, "COPY_LINEAR_SUB_WINDOW element size field above 4 (16 bytes)");
  if (p->ver < 7 && swaps(d[12]))
    return bad(p, "COPY_LINEAR_SUB_WINDOW endian swap is not modelled");
  bool v7 = p->ver >= 7;
  struct side src = v7 ? side_of_v7(&d[1]) : side_of(&d[1]);
  struct side dst = v7 ? side_of_v7(&d[6]) : side_of(&d[6]);
  if ((src.base | dst.base) & 3)
    return bad(p, "COPY_LINEAR_SUB_WINDOW base address not dword aligned");
  uint64_t row, height, depth;
  if (v7) {
    row = ((uint64_t)(d[11] & 0xffff) + 1) << e;
    height = (uint64_t)(d[11] >> 16) + 1;
    depth = (uint64_t)(d[12] & 0x3fff) + 1;
  } else {
    row = ((uint64_t)(d[11] & 0x3fff) + 1) << e;
    height = (uint64_t)((d[11] >> 16) & 0x3fff) + 1;
    depth = (uint64_t)(d[12] & 0x7ff) + 1;
  }
  for (uint64_t z = 0; z < depth; z++)
    for (uint64_t y = 0; y < height; y++)
      if (!sdma_move(gpu, row_va(&dst, e, y, z), row_va(&src, e, y, z), row))
        return SDMA_FAULT;
  return SDMA_DONE;
}

enum sdma_res sdma_copy(struct sim_gpu *gpu, struct sdma_pkt *p)
{
  if (p->dw[0] & TMZ_BIT)
    return bad(p, "COPY of TMZ (encrypted) memory is not modelled");
  switch (sdma_sub_op(p->dw[0])) {
  case SDMA_COPY_LINEAR:
    return linear(gpu, p);
  case SDMA_COPY_SUB_WINDOW:
    return sub_window(gpu, p);
  default:   /* sdma.c frames no other */
    return bad(p, "COPY sub-op (tiled, T2T, SOA, dirty-page or physical copy) is not modelled");
  }
}
