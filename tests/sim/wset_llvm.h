/* SPDX-License-Identifier: MIT */
/* wset_llvm.h — LLVM's view of the write-set test's encodings: every candidate goes into one
 * image (WSET_SLOT bytes each, padded with s_endpgm), assembled from .long directives by
 * llvm-mc and disassembled by llvm-objdump; a form takes the first candidate LLVM decodes
 * as one instruction covering all of the candidate's words. The same image is the code the
 * simulator runs. */
#ifndef TESTS_SIM_WSET_LLVM_H
#define TESTS_SIM_WSET_LLVM_H

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wset_forms.h"

#ifndef WSET_LLVM_BIN
#define WSET_LLVM_BIN "/usr/lib/llvm-15/bin/"
#endif

/* What llvm-objdump said about one slot. */
struct wset_dis {
  unsigned size;             /* bytes of the instruction at the slot's start, 0 = none */
  char text[200];
};

/* Writes the image's words into `words` (l->slots * WSET_SLOT / 4 of them). */
static void wset_image(const struct wset_list *l, uint32_t *words)
{
  const unsigned per = WSET_SLOT / 4;
  for (unsigned i = 0; i < l->slots * per; i++)
    words[i] = WSET_ENDPGM;
  for (unsigned i = 0; i < l->n; i++) {
    const struct wset_form *f = &l->f[i];
    for (unsigned c = 0; c < f->ncand; c++)
      for (unsigned k = 0; k < f->cand_nw[c]; k++)
        words[(f->slot + c) * per + k] = f->cand[c][k];
  }
}

/* One line of llvm-objdump -d: "\t<text>   // <offset>: <WORD> <WORD>...". Returns the
 * instruction's size in bytes, 0 for other lines. */
static unsigned wset_dis_line(const char *line, unsigned long *off, char *text, size_t tsize)
{
  const char *c = strstr(line, "// ");
  if (!c || line[0] != '\t')
    return 0;
  char *end;
  *off = strtoul(c + 3, &end, 16);
  if (*end != ':')
    return 0;
  unsigned words = 0;
  for (const char *p = end + 1; *p;) {
    while (*p == ' ')
      p++;
    if (!isxdigit((unsigned char)*p))
      break;
    while (isxdigit((unsigned char)*p))
      p++;
    words++;
  }
  const char *t = line + 1;
  size_t n = (size_t)(c - t);
  while (n && t[n - 1] == ' ')
    n--;
  snprintf(text, tsize, "%.*s", (int)n, t);
  return 4 * words;
}

/* Assembles and disassembles the image for `mcpu`; fills dis[slot]. Returns 0, or -1 when the
 * LLVM tools are missing. The raw image is left in *bin (malloc'ed, *bin_len bytes). */
static int wset_llvm(const struct wset_list *l, const char *bin_dir, const char *mcpu,
                     struct wset_dis *dis,
                     uint8_t **bin, size_t *bin_len)
{
  char mc[128], od[128];
  snprintf(mc, sizeof mc, "%sllvm-mc", bin_dir);
  snprintf(od, sizeof od, "%sllvm-objdump", bin_dir);
  if (access(mc, X_OK) || access(od, X_OK))
    return -1;
  char dir[] = "/tmp/wset_XXXXXX";
  if (!mkdtemp(dir))
    abort();
  char s[64], o[64], b[64], d[64], cmd[1600];
  snprintf(s, sizeof s, "%s/a.s", dir);
  snprintf(o, sizeof o, "%s/a.o", dir);
  snprintf(b, sizeof b, "%s/a.bin", dir);
  snprintf(d, sizeof d, "%s/a.dis", dir);
  size_t nwords = (size_t)l->slots * WSET_SLOT / 4;
  uint32_t *words = malloc(nwords * 4);
  if (!words)
    abort();
  wset_image(l, words);
  FILE *f = fopen(s, "w");
  if (!f)
    abort();
  fprintf(f, ".text\n");
  for (size_t i = 0; i < nwords; i++)
    fprintf(f, ".long 0x%08x\n", words[i]);
  fclose(f);
  free(words);
  snprintf(cmd, sizeof cmd,
           "%s -arch=amdgcn -mcpu=%s -filetype=obj -o %s %s && "
           "%sllvm-objcopy -O binary --only-section=.text %s %s && "
           "%s -d --mcpu=%s %s > %s",
           mc, mcpu, o, s, bin_dir, o, b, od, mcpu, o, d);
  if (system(cmd) != 0) {
    fprintf(stderr, "wset: LLVM tools failed: %s\n", cmd);
    abort();
  }
  memset(dis, 0, l->slots * sizeof *dis);
  f = fopen(d, "r");
  char line[512], text[200];
  while (f && fgets(line, sizeof line, f)) {
    unsigned long off;
    unsigned size = wset_dis_line(line, &off, text, sizeof text);
    /* ".long" is objdump's way of saying "no instruction here" */
    if (!size || off % WSET_SLOT || off / WSET_SLOT >= l->slots || !strncmp(text, ".long", 5))
      continue;
    dis[off / WSET_SLOT].size = size;
    snprintf(dis[off / WSET_SLOT].text, sizeof dis->text, "%s", text);
  }
  if (f)
    fclose(f);
  f = fopen(b, "rb");
  if (!f)
    abort();
  *bin_len = (size_t)l->slots * WSET_SLOT;
  *bin = malloc(*bin_len);
  if (!*bin || fread(*bin, 1, *bin_len, f) != *bin_len)
    abort();
  fclose(f);
  unlink(s); unlink(o); unlink(b); unlink(d); rmdir(dir);
  return 0;
}

/* The first candidate of each form that LLVM decodes whole. `pick` may veto a candidate
 * (the VOP3 sdst choice, made from LLVM's name); NULL takes any. */
static void wset_choose(struct wset_list *l, const struct wset_dis *dis,
                        bool (*pick)(const struct wset_form *, unsigned cand, const char *text))
{
  for (unsigned i = 0; i < l->n; i++) {
    struct wset_form *f = &l->f[i];
    f->chosen = -1;
    for (unsigned c = 0; c < f->ncand; c++) {
      const struct wset_dis *x = &dis[f->slot + c];
      if (x->size < 4 * f->cand_nw[c] || (pick && !pick(f, c, x->text)))
        continue;
      f->chosen = (int)c;
      f->size = x->size;
      snprintf(f->text, sizeof f->text, "%s", x->text);
      break;
    }
  }
}

#endif
