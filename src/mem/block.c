/* SPDX-License-Identifier: MIT */
/* block.c — the table of live allocations: records sorted by base address, so any address
 * finds its allocation by binary search (hsa_amd_pointer_info, frees, copies). Locked host
 * memory is also found by its host range, in a short list. */
#include <stdlib.h>
#include <string.h>

#include "mem/internal.h"

pthread_mutex_t mem_mutex = PTHREAD_MUTEX_INITIALIZER;

static struct mem_rec **recs;
static size_t count, cap;
static size_t locked;   /* records of locked memory: host lookups scan only when there are */
/* One past the index of the last record inserted or taken out: where the next one goes or
 * is found when a batch is allocated, or freed, in ascending order (sub-allocation is first
 * fit, so batches are), checked before any search. */
static size_t hint;

/* Index of the first record with base > p. */
static size_t upper(uintptr_t p) {
  if (hint <= count && (hint == 0 || recs[hint - 1]->base <= p) &&
      (hint == count || recs[hint]->base > p))
    return hint;
  size_t lo = 0, hi = count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (recs[mid]->base <= p) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

int mem_table_insert(struct mem_rec *r) {
  if (count == cap) {
    size_t ncap = cap ? cap * 2 : 256;
    struct mem_rec **n = realloc(recs, ncap * sizeof(*n));
    if (!n) return -1;
    recs = n;
    cap = ncap;
  }
  size_t i = upper(r->base);
  memmove(&recs[i + 1], &recs[i], (count - i) * sizeof(*recs));
  recs[i] = r;
  count++;
  hint = i + 1;
  if (r->kind == MEM_KIND_LOCKED) locked++;
  return 0;
}

struct mem_rec *mem_table_take_base(uintptr_t p, enum mem_kind kind) {
  size_t i = upper(p);
  if (i == 0 || recs[i - 1]->base != p || recs[i - 1]->kind != kind) return NULL;
  struct mem_rec *r = recs[--i];
  memmove(&recs[i], &recs[i + 1], (count - i - 1) * sizeof(*recs));
  count--;
  hint = i + 1;   /* the record after r is at i now: the next in an ascending run of frees */
  if (r->kind == MEM_KIND_LOCKED) locked--;
  return r;
}

void mem_table_remove(struct mem_rec *r) {
  size_t i = upper(r->base);
  /* Records with equal bases cannot exist (ranges are disjoint), but look back to be sure. */
  while (i > 0 && recs[i - 1] != r && recs[i - 1]->base == r->base) i--;
  if (i == 0 || recs[i - 1] != r) return;
  i--;
  memmove(&recs[i], &recs[i + 1], (count - i - 1) * sizeof(*recs));
  count--;
  if (r->kind == MEM_KIND_LOCKED) locked--;
}

struct mem_rec *mem_table_find(uintptr_t p) {
  size_t i = upper(p);
  if (i == 0) return NULL;
  struct mem_rec *r = recs[i - 1];
  return p - r->base < (r->size ? r->size : 1) ? r : NULL;
}

struct mem_rec *mem_table_find_base(uintptr_t p) {
  struct mem_rec *r = mem_table_find(p);
  return r && r->base == p ? r : NULL;
}

struct mem_rec *mem_table_find_host(uintptr_t p) {
  /* Locked ranges may overlap: the one starting at p wins, else the first containing it. */
  struct mem_rec *hit = NULL;
  for (size_t i = 0; locked && i < count; i++) {
    struct mem_rec *r = recs[i];
    if (r->kind != MEM_KIND_LOCKED || p - r->host_base >= r->host_size) continue;
    if (r->host_base == p) return r;
    if (!hit) hit = r;
  }
  return hit;
}

struct mem_rec *mem_table_first(void) { return count ? recs[0] : NULL; }

void mem_table_reset(void) {
  free(recs);
  recs = NULL;
  count = cap = locked = hint = 0;
}
