/* SPDX-License-Identifier: MIT */
/* rect.c — the rectangle of hsa_amd_memory_async_copy_rect: x in bytes, y rows of `pitch`
 * bytes, z planes of `slice` bytes. Its checks are ROCR 5.2.3's, in its order and with its
 * status, because they are what the SDMA engine can do (both runtimes send such copies to
 * it): dword-aligned bases, pitches and slices; every row inside its pitch and, where a
 * slice is given, every plane's rows inside it; a slice for more than one plane. */
#include <string.h>

#include "mem/internal.h"

/* After the width check: the pitch is not 0 here. */
static bool rows_fit(const hsa_pitched_ptr_t *p, const hsa_dim3_t *off, const hsa_dim3_t *range) {
  return p->slice == 0 || off->y + (uint64_t)range->y <= p->slice / p->pitch;
}

hsa_status_t mem_rect_check(const struct mem_rect *r) {
  const hsa_pitched_ptr_t *d = &r->dst, *s = &r->src;
  if ((((uintptr_t)d->base | (uintptr_t)s->base) & 3) || ((d->pitch | s->pitch) & 3) ||
      ((d->slice | s->slice) & 3))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (r->src_off.x + (uint64_t)r->range.x > s->pitch ||
      r->dst_off.x + (uint64_t)r->range.x > d->pitch)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (!rows_fit(s, &r->src_off, &r->range) || !rows_fit(d, &r->dst_off, &r->range))
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (r->range.z > 1 && (s->slice == 0 || d->slice == 0)) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return HSA_STATUS_SUCCESS;
}

uint64_t mem_rect_first(const hsa_pitched_ptr_t *p, const hsa_dim3_t *off) {
  return (uintptr_t)p->base + off->z * (uint64_t)p->slice + off->y * (uint64_t)p->pitch + off->x;
}

uint64_t mem_rect_span(const hsa_pitched_ptr_t *p, const hsa_dim3_t *range) {
  return (range->z - 1) * (uint64_t)p->slice + (range->y - 1) * (uint64_t)p->pitch + range->x;
}

void mem_rect_cpu(const struct mem_rect *r, void *dst, const void *src) {
  for (uint64_t z = 0; z < r->range.z; z++)
    for (uint64_t y = 0; y < r->range.y; y++)
      memmove((char *)dst + z * r->dst.slice + y * r->dst.pitch,
              (const char *)src + z * r->src.slice + y * r->src.pitch, r->range.x);
}
