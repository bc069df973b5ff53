/* SPDX-License-Identifier: MIT */
/* image_fixture.h — the one reader of the addrlib fixtures in tests/fixtures/image/ (numbers
 * AMD's addrlib computed; each file's header says how and describes its lines), for the tests
 * of tests/unit and tests/sim alike: imgfx_read("gfx9_swizzle.txt") gives the file's surfaces
 * (its S lines) in file order, each with its mip levels (L lines) and its samples (the A lines
 * of the mip files, the bare "x y z offset" lines of the swizzle files) in file order. A line
 * that is not of its file's format fails the test with the file's name and the line's number.
 * Header only, as the other fixtures: include once per test program. */
#ifndef TESTS_IMAGE_FIXTURE_H
#define TESTS_IMAGE_FIXTURE_H

#include <check.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the image's geometry, in hsa_ext_image_geometry_t's order of the kinds the fixtures hold */
enum { IMGFX_1D, IMGFX_1DA, IMGFX_2D, IMGFX_2DA, IMGFX_3D };

struct imgfx_level {   /* an L line */
  unsigned level;
  unsigned long long block, tail;     /* gfx9_mips: macroBlockOffset, mipTailOffset */
  unsigned long long offset, pitch;   /* gfx12_mips: the level's offset in a slice, pitch (texels) */
};

struct imgfx_sample {   /* element (x, y, slice z) of mip `level` at byte `off` of the surface */
  unsigned level, x, y, z;
  unsigned long long off;
};

struct imgfx_surface {   /* an S line; a field its file does not have is 0 */
  unsigned line;                      /* the S line's number in the file */
  char chip[16], how[16], type[8];    /* type: the geometry's name, as 1D 1DA 2D 2DA 3D */
  unsigned geo;                       /* IMGFX_1D.. (gfx9's "2D" with slices is TEX_2D: IMGFX_2D) */
  unsigned bpp, w, h, slices, levels; /* the image: slices are layers or depth; levels at least 1 */
  unsigned mode, pitch, pad_h, pad_slices, align, bw, bh, bd, tail;   /* addrlib's answer */
  unsigned chain_w, chain_h, chain_slices, epitch_is_height, in_tail, first_in_tail; /* gfx9_mips */
  unsigned long long size, slice;     /* surfSize, sliceSize */
  uint32_t gb;                        /* the GB_ADDR_CONFIG addrlib had (gfx900, gfx90a, gfx1100) */
  unsigned nlevels, nsamples;
  struct imgfx_level *lv;
  struct imgfx_sample *sample;
};

struct imgfx {
  char path[256];
  unsigned n;
  struct imgfx_surface *s;
};

/* the fixtures' formats (each file's header describes its own) */
enum imgfx_format { IMGFX_SWIZZLE9, IMGFX_SWIZZLE, IMGFX_MIPS9, IMGFX_MIPS12 };

/* room for one more element after the n of v (capacity *cap, in elements of size bytes) */
static __attribute__((unused)) void *imgfx_grow(void *v, unsigned n, unsigned *cap, size_t size)
{
  if (n == *cap) {
    *cap = *cap ? 2 * *cap : 16;
    v = realloc(v, *cap * size);
    ck_assert_msg(v, "out of memory");
  }
  memset((char *)v + n * size, 0, size);
  return v;
}

/* one line of format fmt into f (an S line), or a new level or sample of f; false: malformed.
 * Every field must be there and nothing after the last one (%n: where the fields ended). */
static __attribute__((unused)) bool imgfx_parse(enum imgfx_format fmt, const char *line,
                                                struct imgfx_surface *f, unsigned *lcap,
                                                unsigned *scap)
{
  static const char *names[5] = {"1D", "1DA", "2D", "2DA", "3D"};
  int end = -1;
  if (line[0] == 'S') {
    f->levels = 1;
    if (fmt == IMGFX_SWIZZLE9)
      sscanf(line, "S %15s %15s %u %7s %u %u %u mode=%u pitch=%u height=%u slices=%u size=%llu "
             "align=%u block=%ux%ux%u tail=%u %n", f->chip, f->how, &f->bpp, f->type, &f->w,
             &f->h, &f->slices, &f->mode, &f->pitch, &f->pad_h, &f->pad_slices, &f->size,
             &f->align, &f->bw, &f->bh, &f->bd, &f->tail, &end);
    else if (fmt == IMGFX_SWIZZLE)
      sscanf(line, "S %15s %15s %7s %u %u %u %u mode=%u pitch=%u height=%u slices=%u slice=%llu "
             "size=%llu align=%u block=%ux%ux%u %n", f->chip, f->how, f->type, &f->bpp, &f->w,
             &f->h, &f->slices, &f->mode, &f->pitch, &f->pad_h, &f->pad_slices, &f->slice,
             &f->size, &f->align, &f->bw, &f->bh, &f->bd, &end);
    else if (fmt == IMGFX_MIPS9)
      sscanf(line, "S %15s %u %7s %u %u %u %u mode=%u pitch=%u height=%u slices=%u "
             "chain=%ux%ux%u epitchIsHeight=%u intail=%u first=%u size=%llu slice=%llu align=%u "
             "block=%ux%ux%u %n", f->chip, &f->bpp, f->type, &f->w, &f->h, &f->slices, &f->levels,
             &f->mode, &f->pitch, &f->pad_h, &f->pad_slices, &f->chain_w, &f->chain_h,
             &f->chain_slices, &f->epitch_is_height, &f->in_tail, &f->first_in_tail, &f->size,
             &f->slice, &f->align, &f->bw, &f->bh, &f->bd, &end);
    else {   /* the geometry as its number */
      sscanf(line, "S %u %u %u %u %u %u %llu %llu %u %n", &f->geo, &f->bpp, &f->w, &f->h,
             &f->slices, &f->levels, &f->size, &f->slice, &f->align, &end);
      if (f->geo < 5)
        strcpy(f->type, names[f->geo]);
    }
    for (f->geo = 0; f->geo < 5 && strcmp(f->type, names[f->geo]); f->geo++)
      ;
    f->gb = !strcmp(f->chip, "gfx900") ? 0x2a114042u : !strcmp(f->chip, "gfx90a") ? 0x24104042u
          : !strcmp(f->chip, "gfx1100") ? 0x545u : 0;
    return end >= 0 && !line[end] && f->geo < 5 && f->levels;
  }
  if (line[0] == 'L' && (fmt == IMGFX_MIPS9 || fmt == IMGFX_MIPS12)) {
    f->lv = imgfx_grow(f->lv, f->nlevels, lcap, sizeof *f->lv);
    struct imgfx_level *l = &f->lv[f->nlevels++];
    if (fmt == IMGFX_MIPS9)
      sscanf(line, "L %u block=%llu tail=%llu %n", &l->level, &l->block, &l->tail, &end);
    else
      sscanf(line, "L %u %llu %llu %n", &l->level, &l->offset, &l->pitch, &end);
    return end >= 0 && !line[end];
  }
  f->sample = imgfx_grow(f->sample, f->nsamples, scap, sizeof *f->sample);
  struct imgfx_sample *a = &f->sample[f->nsamples++];
  if (fmt == IMGFX_SWIZZLE9 || fmt == IMGFX_SWIZZLE)
    sscanf(line, "%u %u %u %llu %n", &a->x, &a->y, &a->z, &a->off, &end);
  else
    sscanf(line, "A %u %u %u %u %llu %n", &a->level, &a->x, &a->y, &a->z, &a->off, &end);
  return end >= 0 && !line[end];
}

/* every surface of tests/fixtures/image/<file>: gfx9_swizzle.txt, gfx11_swizzle.txt,
 * gfx12_swizzle.txt, gfx9_mips.txt or gfx12_mips.txt. Free with imgfx_free. */
static __attribute__((unused)) struct imgfx imgfx_read(const char *file)
{
  static const struct { const char *file; enum imgfx_format fmt; } files[] = {
    {"gfx9_swizzle.txt", IMGFX_SWIZZLE9}, {"gfx11_swizzle.txt", IMGFX_SWIZZLE},
    {"gfx12_swizzle.txt", IMGFX_SWIZZLE}, {"gfx9_mips.txt", IMGFX_MIPS9},
    {"gfx12_mips.txt", IMGFX_MIPS12},
  };
  struct imgfx fx;
  memset(&fx, 0, sizeof fx);
  snprintf(fx.path, sizeof fx.path, "%s/fixtures/image/%s", TEST_SRCDIR, file);
  unsigned k = 0;
  while (k < sizeof files / sizeof files[0] && strcmp(file, files[k].file))
    k++;
  ck_assert_msg(k < sizeof files / sizeof files[0], "%s: no reader for this fixture", fx.path);
  FILE *fp = fopen(fx.path, "r");
  ck_assert_msg(fp, "the fixture %s: %s", fx.path, strerror(errno));
  char line[512];
  unsigned no = 0, cap = 0, lcap = 0, scap = 0;
  while (fgets(line, sizeof line, fp)) {
    no++;
    size_t len = strlen(line);
    ck_assert_msg(len && (line[len - 1] == '\n' || feof(fp)), "%s:%u: too long or with a NUL",
                  fx.path, no);
    if (line[len - 1] == '\n')
      line[len - 1] = '\0';
    if (line[0] == '#')
      continue;
    if (line[0] == 'S') {
      fx.s = imgfx_grow(fx.s, fx.n++, &cap, sizeof *fx.s);
      fx.s[fx.n - 1].line = no;
      lcap = scap = 0;
    }
    ck_assert_msg(fx.n, "%s:%u: a line before the first surface (S): %s", fx.path, no, line);
    ck_assert_msg(imgfx_parse(files[k].fmt, line, &fx.s[fx.n - 1], &lcap, &scap),
                  "%s:%u: not a line of this fixture's format (see its header): %s", fx.path, no,
                  line);
  }
  ck_assert_msg(!ferror(fp), "%s: read error", fx.path);
  fclose(fp);
  ck_assert_msg(fx.n, "%s: no surface", fx.path);
  return fx;
}

static __attribute__((unused)) void imgfx_free(struct imgfx *fx)
{
  for (unsigned i = 0; i < fx->n; i++) {
    free(fx->s[i].lv);
    free(fx->s[i].sample);
  }
  free(fx->s);
  fx->s = NULL;
  fx->n = 0;
}

#endif
