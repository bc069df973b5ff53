/* SPDX-License-Identifier: MIT */
/* kcase.c — registry, deterministic inputs, output files and comparison for the corpus. */
#include "kcase.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KC_MAX_CASES 128
static const struct kcase *registry[KC_MAX_CASES];
static size_t registered;
unsigned kc_wave_size = 64;

void kc_register(const struct kcase *cases, size_t n)
{
  for (size_t i = 0; i < n && registered < KC_MAX_CASES; i++) registry[registered++] = &cases[i];
}

size_t kc_count(void) { return registered; }
const struct kcase *kc_at(size_t i) { return i < registered ? registry[i] : NULL; }

const struct kcase *kc_find(const char *name)
{
  for (size_t i = 0; i < registered; i++)
    if (strcmp(registry[i]->name, name) == 0) return registry[i];
  return NULL;
}

size_t kc_type_size(enum kc_type t)
{
  return (t == KC_U32 || t == KC_I32 || t == KC_F32) ? 4 : 8;
}

size_t kc_buf_bytes(const struct kc_buf *b) { return b->count * kc_type_size(b->type); }

/* splitmix64: the same stream on every host, cheap, good enough for test data. */
static uint64_t next(uint64_t *s)
{
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double unit(uint64_t *s) { return (double)(next(s) >> 11) * 0x1p-53; }

void kc_generate(const struct kcase *c, void *const *b)
{
  for (unsigned i = 0; i < c->nbufs; i++) {
    const struct kc_buf *d = &c->bufs[i];
    uint64_t s = c->seed * 1000003u + i + 1;
    memset(b[i], 0, kc_buf_bytes(d));
    if (d->out || d->init == KC_ZERO) continue;
    for (size_t e = 0; e < d->count; e++) {
      uint64_t r = next(&s);
      if (d->init == KC_IOTA) r = e;
      else if (d->init == KC_RANGE) {
        int64_t lo = (int64_t)d->lo, span = (int64_t)d->hi - lo + 1;
        r = (uint64_t)(lo + (int64_t)(r % (uint64_t)span));
      }
      switch (d->type) {
      case KC_U32: case KC_I32: ((uint32_t *)b[i])[e] = (uint32_t)r; break;
      case KC_U64: case KC_I64: ((uint64_t *)b[i])[e] = r; break;
      case KC_F32:
        ((float *)b[i])[e] = d->init == KC_RAND ? (float)(d->lo + (d->hi - d->lo) * unit(&s))
                                                : (float)(int64_t)r;
        break;
      case KC_F64:
        ((double *)b[i])[e] = d->init == KC_RAND ? d->lo + (d->hi - d->lo) * unit(&s)
                                                 : (double)(int64_t)r;
        break;
      }
    }
  }
  if (c->fixup) c->fixup(c, b);
}

/* Distance in units in the last place: map the sign-magnitude bits to an unsigned order. */
static uint64_t ulp32(float a, float b)
{
  if (isnan(a) && isnan(b)) return 0;
  uint32_t x, y;
  memcpy(&x, &a, 4); memcpy(&y, &b, 4);
  x = (x & 0x80000000u) ? ~x : x | 0x80000000u;
  y = (y & 0x80000000u) ? ~y : y | 0x80000000u;
  return x > y ? x - y : y - x;
}

static uint64_t ulp64(double a, double b)
{
  if (isnan(a) && isnan(b)) return 0;
  uint64_t x, y, s = 1ull << 63;
  memcpy(&x, &a, 8); memcpy(&y, &b, 8);
  x = (x & s) ? ~x : x | s;
  y = (y & s) ? ~y : y | s;
  return x > y ? x - y : y - x;
}

size_t kc_compare(const struct kcase *c, void *const *want, void *const *got, unsigned ulp_scale,
                  const char *what)
{
  size_t bad_total = 0;
  for (unsigned i = 0; i < c->nbufs; i++) {
    const struct kc_buf *d = &c->bufs[i];
    if (!d->out) continue;
    size_t bad = 0;
    uint64_t tol = (uint64_t)d->ulp * ulp_scale;
    for (size_t e = 0; e < d->count; e++) {
      char ws[64], gs[64];
      int ok;
      switch (d->type) {
      case KC_F32: {
        float w = ((const float *)want[i])[e], g = ((const float *)got[i])[e];
        ok = ulp32(w, g) <= tol;
        snprintf(ws, sizeof ws, "%.9g", (double)w); snprintf(gs, sizeof gs, "%.9g", (double)g);
        break;
      }
      case KC_F64: {
        double w = ((const double *)want[i])[e], g = ((const double *)got[i])[e];
        ok = ulp64(w, g) <= tol;
        snprintf(ws, sizeof ws, "%.17g", w); snprintf(gs, sizeof gs, "%.17g", g);
        break;
      }
      case KC_U32: case KC_I32: {
        uint32_t w = ((const uint32_t *)want[i])[e], g = ((const uint32_t *)got[i])[e];
        ok = w == g;
        snprintf(ws, sizeof ws, "0x%08" PRIx32, w); snprintf(gs, sizeof gs, "0x%08" PRIx32, g);
        break;
      }
      default: {
        uint64_t w = ((const uint64_t *)want[i])[e], g = ((const uint64_t *)got[i])[e];
        ok = w == g;
        snprintf(ws, sizeof ws, "0x%016" PRIx64, w); snprintf(gs, sizeof gs, "0x%016" PRIx64, g);
        break;
      }
      }
      if (!ok && bad++ == 0)
        fprintf(stderr, "%s: %s: buffer %u element %zu: expected %s, got %s\n", what, c->name, i, e,
                ws, gs);
    }
    if (bad) fprintf(stderr, "%s: %s: buffer %u: %zu of %zu elements wrong\n", what, c->name, i,
                     bad, d->count);
    bad_total += bad;
  }
  return bad_total;
}

int kc_write_outputs(const struct kcase *c, void *const *b, const char *path)
{
  FILE *f = fopen(path, "wb");
  if (!f) { perror(path); return -1; }
  int rc = 0;
  for (unsigned i = 0; i < c->nbufs; i++)
    if (c->bufs[i].out && fwrite(b[i], 1, kc_buf_bytes(&c->bufs[i]), f) != kc_buf_bytes(&c->bufs[i]))
      rc = -1;
  if (fclose(f) != 0) rc = -1;
  if (rc) fprintf(stderr, "%s: write failed\n", path);
  return rc;
}

int kc_read_outputs(const struct kcase *c, void *const *b, const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); return -1; }
  int rc = 0;
  for (unsigned i = 0; i < c->nbufs; i++)
    if (c->bufs[i].out && fread(b[i], 1, kc_buf_bytes(&c->bufs[i]), f) != kc_buf_bytes(&c->bufs[i]))
      rc = -1;
  if (rc == 0 && fgetc(f) != EOF) rc = -1;
  fclose(f);
  if (rc) fprintf(stderr, "%s: not the outputs of case %s (size differs)\n", path, c->name);
  return rc;
}

void **kc_alloc(const struct kcase *c)
{
  void **b = calloc(KC_MAX_BUFS, sizeof *b);
  if (!b) return NULL;
  for (unsigned i = 0; i < c->nbufs; i++) {
    b[i] = malloc(kc_buf_bytes(&c->bufs[i]) ? kc_buf_bytes(&c->bufs[i]) : 1);
    if (!b[i]) { kc_free(c, b); return NULL; }
  }
  kc_generate(c, b);
  return b;
}

void kc_free(const struct kcase *c, void **b)
{
  if (!b) return;
  for (unsigned i = 0; i < c->nbufs; i++) free(b[i]);
  free(b);
}

int kc_common_main(int argc, char **argv)
{
  if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
    int all = argc >= 3 && strcmp(argv[2], "--all") == 0;
    for (size_t i = 0; i < registered; i++)
      if (all || !registry[i]->bench)
        printf("%s %s %s\n", registry[i]->name, registry[i]->source, registry[i]->kernel);
    return 0;
  }
  if (argc == 5 && strcmp(argv[1], "--compare") == 0) {
    const struct kcase *c = kc_find(argv[2]);
    if (!c) { fprintf(stderr, "no case %s\n", argv[2]); return 2; }
    void **a = kc_alloc(c), **b = kc_alloc(c);
    int rc = 2;
    if (a && b && kc_read_outputs(c, a, argv[3]) == 0 && kc_read_outputs(c, b, argv[4]) == 0)
      rc = kc_compare(c, a, b, 2, "compare") ? 1 : 0;
    kc_free(c, a); kc_free(c, b);
    return rc;
  }
  return -1;
}
