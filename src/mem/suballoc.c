/* SPDX-License-Identifier: MIT */
/* suballoc.c — small allocations share 2 MiB buffer objects (one per kind of memory), so an
 * allocation of a few KiB costs no ioctl once a chunk exists. A chunk is a bitmap of granules
 * (pages for user memory, 64 bytes for the runtime's small objects); first fit. A few empty
 * chunks of each kind are kept, so alloc/free loops stay cheap. */
#include <stdlib.h>
#include <string.h>

#include "mem/internal.h"

struct mem_chunk {
  struct mem_chunk *next;
  struct mem_chunk_key key;
  struct mem_bo *bo;
  uint32_t nbits, used;
  uint32_t low;      /* every granule below it is in use: first fit starts looking here */
  uint64_t bits[];
};

static struct mem_chunk *chunks;

struct mem_bo *mem_chunk_bo(const struct mem_chunk *c) {
  return c->bo;
}

static bool same_key(const struct mem_chunk_key *a, const struct mem_chunk_key *b) {
  return a->region == b->region && a->gpu == b->gpu && a->kfd_flags == b->kfd_flags &&
         a->gpus == b->gpus && a->granule == b->granule;
}

static inline void set_range(struct mem_chunk *c, uint32_t first, uint32_t n, bool on) {
  if (n == 1) {   /* one page: most user allocations */
    if (on) c->bits[first / 64] |= 1ull << (first % 64);
    else c->bits[first / 64] &= ~(1ull << (first % 64));
    return;
  }
  if (first % 64 + n <= 64) {   /* within one word: what small allocations are */
    uint64_t m = (n == 64 ? UINT64_MAX : ((1ull << n) - 1)) << (first % 64);
    if (on) c->bits[first / 64] |= m;
    else c->bits[first / 64] &= ~m;
    return;
  }
  for (uint32_t i = first; i < first + n;) {
    uint32_t w = i / 64, b = i % 64, k = 64 - b < first + n - i ? 64 - b : first + n - i;
    uint64_t m = (k == 64 ? UINT64_MAX : ((1ull << k) - 1)) << b;
    if (on) c->bits[w] |= m;
    else c->bits[w] &= ~m;
    i += k;
  }
}

/* The first granule in [from, limit) whose bit is `value` (limit if none, limit <= nbits), a
 * word at a time. */
static uint32_t next_bit_until(const struct mem_chunk *c, uint32_t from, bool value,
                               uint32_t limit) {
  uint32_t words = (limit + 63) / 64;
  for (uint32_t w = from / 64; w < words; w++) {
    uint64_t x = value ? c->bits[w] : ~c->bits[w];
    if (w == from / 64) x &= UINT64_MAX << (from % 64);
    if (x) {
      uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(x);
      return i < limit ? i : limit;
    }
  }
  return limit;
}

static uint32_t next_bit(const struct mem_chunk *c, uint32_t from, bool value) {
  return next_bit_until(c, from, value, c->nbits);
}

static uint32_t round_up(uint32_t x, uint32_t step) { return (x + step - 1) / step * step; }

/* First run of n free granules starting at a multiple of step; nbits if none. */
static uint32_t find_run(const struct mem_chunk *c, uint32_t n, uint32_t step) {
  if (c->nbits - c->used < n) return c->nbits;
  if (n == 1 && step == 1) return next_bit(c, c->low, false);   /* any free granule is a run */
  uint32_t s = round_up(next_bit(c, c->low, false), step);
  while (s < c->nbits && c->nbits - s >= n) {
    uint32_t used = next_bit_until(c, s, true, s + n);   /* only the run itself matters */
    if (used >= s + n) return s;
    s = round_up(next_bit(c, used, false), step);
  }
  return c->nbits;
}

static struct mem_chunk *new_chunk(const struct mem_chunk_key *key, hsa_status_t *st) {
  uint32_t nbits = MEM_CHUNK_SIZE / key->granule;
  struct mem_chunk *c = calloc(1, sizeof(*c) + (nbits + 63) / 64 * sizeof(uint64_t));
  if (!c) {
    *st = HSA_STATUS_ERROR_OUT_OF_RESOURCES;
    return NULL;
  }
  c->key = *key;
  c->nbits = nbits;
  int numa = -1;
  if (key->region && key->region->owner->kind == CORE_AGENT_CPU)
    numa = (int)key->region->owner->node_id;
  bool visible = !key->region || key->region->heap != CORE_HEAP_FB_PRIVATE;
  c->bo = key->gpu ? mem_bo_device(key->gpu, MEM_CHUNK_SIZE, MEM_CHUNK_SIZE, key->kfd_flags,
                                   visible, key->gpus, st)
                   : mem_bo_system(MEM_CHUNK_SIZE, MEM_CHUNK_SIZE, key->kfd_flags, numa,
                                   key->gpus, st);
  if (!c->bo) {
    free(c);
    return NULL;
  }
  c->next = chunks;
  chunks = c;
  return c;
}

void *mem_suballoc(const struct mem_chunk_key *key, size_t size, size_t align,
                   struct mem_chunk **chunk, struct mem_bo **bo, hsa_status_t *st) {
  uint32_t g = key->granule;
  uint32_t n = (uint32_t)((size + g - 1) / g);
  uint32_t step = align > g ? (uint32_t)(align / g) : 1;
  if (n == 0) n = 1;
  for (struct mem_chunk *c = chunks; c; c = c->next) {
    if (!same_key(&c->key, key)) continue;
    uint32_t s = find_run(c, n, step);
    if (s < c->nbits) {
      set_range(c, s, n, true);
      c->used += n;
      /* still a bound below which all is in use; find_run looks for the free one from it */
      if (s == c->low) c->low = s + n;
      *chunk = c;
      *bo = c->bo;
      return (char *)c->bo->va + (size_t)s * g;
    }
  }
  struct mem_chunk *c = new_chunk(key, st);
  if (!c) return NULL;
  set_range(c, 0, n, true);
  c->used = n;
  c->low = n;
  *chunk = c;
  *bo = c->bo;
  return c->bo->va;
}

/* Empty chunks kept per kind of memory, so batches of allocations do not make and unmake
 * buffer objects each time (ROCR's block allocator keeps its blocks likewise). */
#define KEEP_EMPTY 4

void mem_subfree(struct mem_chunk *c, void *ptr, size_t size) {
  uint32_t g = c->key.granule;
  uint32_t n = (uint32_t)((size + g - 1) / g);
  if (n == 0) n = 1;
  uint32_t s = (uint32_t)(((uintptr_t)ptr - (uintptr_t)c->bo->va) / g);
  set_range(c, s, n, false);
  c->used -= n;
  if (s < c->low) c->low = s;
  if (c->used) return;
  unsigned empty = 0;
  for (struct mem_chunk *o = chunks; o; o = o->next)
    if (o != c && o->used == 0 && same_key(&o->key, &c->key)) empty++;
  if (empty < KEEP_EMPTY) return;
  for (struct mem_chunk **l = &chunks; *l; l = &(*l)->next)
    if (*l == c) {
      *l = c->next;
      break;
    }
  mem_bo_destroy(c->bo);
  free(c);
}

void mem_suballoc_reset(void) {
  while (chunks) {
    struct mem_chunk *c = chunks;
    chunks = c->next;
    mem_bo_destroy(c->bo);
    free(c);
  }
}
