/* SPDX-License-Identifier: MIT */
/* test_loader.c — the loader's layers without a GPU: ELF/notes/metadata parsing, targets,
 * segment layout, kernel descriptors, symbols and every relocation type, on code objects
 * built in memory (ldr_builder.h), plus malformed inputs, which must be refused (never crash;
 * the sanitizer configuration checks for leaks and overreads). */
#include <check.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "ldr_builder.h"
#include "loader/internal.h"

static struct ldr_image img;

static hsa_status_t open_spec(const struct b_spec *s, uint8_t **bytes) {
  size_t n;
  *bytes = b_build(s, &n);
  return ldr_image_open(&img, *bytes, n);
}

START_TEST(v4_image_parses) {
  struct b_spec s = {.version = 4};
  uint8_t *p;
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(img.version, 4);
  ck_assert_str_eq(img.target, "gfx900:xnack-");
  ck_assert_ptr_nonnull(img.isa);
  ck_assert_str_eq(img.isa->name, "amdgcn-amd-amdhsa--gfx900:xnack-");
  ck_assert_uint_eq(img.nloads, 3);
  ck_assert_uint_eq(img.loads[2].memsz, B_DATA_MEMSZ);
  ck_assert_uint_eq(img.nsyms, 5);
  ck_assert_str_eq(img.syms[1].name, "k.kd");
  ck_assert_str_eq(img.syms[4].name, "ext");
  /* The metadata, as the builder wrote it. */
  ck_assert_ptr_nonnull(img.md_note);
  struct ldr_metadata *md;
  ck_assert_int_eq(ldr_metadata_parse(img.md_note, img.md_size, &md), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(md->version[0], 1);
  ck_assert_str_eq(md->target, "amdgcn-amd-amdhsa--gfx900:xnack-");
  ck_assert_uint_eq(md->nkernels, 1);
  const struct ldr_kernel_md *k = ldr_metadata_kernel(md, "k.kd");
  ck_assert_ptr_nonnull(k);
  ck_assert_str_eq(k->name, "k");
  ck_assert_uint_eq(k->kernarg_size, 24);
  ck_assert_uint_eq(k->kernarg_align, 8);
  ck_assert_uint_eq(k->group_fixed, 256);
  ck_assert_uint_eq(k->private_fixed, 32);
  ck_assert_uint_eq(k->sgpr_count, 12);
  ck_assert_uint_eq(k->vgpr_count, 3);
  ck_assert_uint_eq(k->nargs, 3);
  ck_assert_str_eq(k->args[2].value_kind, "hidden_global_offset_x");
  ck_assert_uint_eq(k->args[1].offset, 8);
  ck_assert_ptr_null(ldr_metadata_kernel(md, "nope.kd"));
  ldr_metadata_free(md);
  ck_assert_uint_eq(ldr_elf_size(p, B_SIZE), 0x2f00 + 64);
  ldr_image_close(&img);
  free(p);
}
END_TEST

/* e_flags -> target ID, per version (AMDGPUUsage's e_flags tables). */
START_TEST(targets_from_e_flags) {
  static const struct { unsigned v; uint32_t flags; const char *target; } cases[] = {
    {3, 0x2c, "gfx900:xnack-"},                 /* v3: bit clear = off */
    {3, 0x12c, "gfx900:xnack+"},
    {3, 0x22f, "gfx906:sramecc+:xnack-"},
    {4, 0x12c, "gfx900"},                       /* xnack any */
    {4, 0x32c, "gfx900:xnack+"},
    {4, 0x52f, "gfx906"},                       /* any/any */
    {4, 0xe3f, "gfx90a:sramecc+:xnack-"},
    {5, 0x036, "gfx1030"},
    {5, 0x04c | 0xc00 | 0x100, "gfx942:sramecc+"},
  };
  for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct b_spec s = {.version = cases[i].v, .e_flags = cases[i].flags};
    uint8_t *p;
    ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
    ck_assert_str_eq(img.target, cases[i].target);
    ck_assert_ptr_nonnull(img.isa);
    ldr_image_close(&img);
    free(p);
  }
}
END_TEST

START_TEST(v6_generic_target) {
  /* gfx9-generic, generic version 1: runs on gfx900/gfx906, not gfx90a. */
  struct b_spec s = {.version = 6, .e_flags = 0x51 | 0x100 | (1u << 24)};
  uint8_t *p;
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
  ck_assert_str_eq(img.target, "gfx9-generic");
  ck_assert_uint_eq(img.generic_version, 1);
  struct core_agent a = {.kind = CORE_AGENT_GPU};
  a.isa = core_isa_find(9, 0, 6, CORE_FEATURE_ON, CORE_FEATURE_OFF);
  ck_assert(ldr_target_compatible(&img, &a));
  a.isa = core_isa_find(9, 0, 10, CORE_FEATURE_ON, CORE_FEATURE_OFF);
  ck_assert(!ldr_target_compatible(&img, &a));
  ldr_image_close(&img);
  free(p);
  /* A generic target in v5, or without a generic version, is not a code object. */
  s.version = 5;
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  free(p);
  s.version = 6;
  s.e_flags = 0x51 | 0x100;
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  free(p);
}
END_TEST

START_TEST(compatibility_follows_features) {
  struct core_agent a = {.kind = CORE_AGENT_GPU};
  a.isa = core_isa_find(9, 0, 0, CORE_FEATURE_UNSUPPORTED, CORE_FEATURE_OFF);
  struct b_spec s = {.version = 4, .e_flags = 0x12c};   /* xnack any */
  uint8_t *p;
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
  ck_assert(ldr_target_compatible(&img, &a));
  ldr_image_close(&img);
  free(p);
  s.e_flags = 0x32c;                                     /* xnack on */
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
  ck_assert(!ldr_target_compatible(&img, &a));
  ldr_image_close(&img);
  free(p);
  s.e_flags = 0x22f;                                     /* gfx906 on a gfx900 */
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
  ck_assert(!ldr_target_compatible(&img, &a));
  ck_assert(!ldr_target_compatible(&img, NULL));
  ldr_image_close(&img);
  free(p);
}
END_TEST

START_TEST(v2_notes_and_kernel_code) {
  struct b_spec s = {.version = 2, .isa = {9, 0, 0}};
  uint8_t *p;
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(img.version, 2);
  ck_assert_uint_eq(img.version_minor, 1);
  ck_assert_str_eq(img.target, "gfx900:xnack-");
  struct ldr_layout lay;
  ck_assert_int_eq(ldr_layout(&img, &lay), HSA_STATUS_SUCCESS);
  uint8_t *host = malloc(lay.span);
  ldr_copy_segments(&img, &lay, host, false);
  struct ldr_executable e = {0};
  struct ldr_symbol *syms;
  unsigned n;
  ck_assert_int_eq(ldr_symbols_build(&e, &img, &lay, host, 0x100000, NULL, &syms, &n),
                   HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(n, 2);   /* the kernel "k" and the variable "v" */
  ck_assert_str_eq(syms[0].name, "k");
  ck_assert_int_eq(syms[0].kind, HSA_SYMBOL_KIND_KERNEL);
  ck_assert_uint_eq(syms[0].address, 0x100000 + B_TEXT_VADDR);
  ck_assert_uint_eq(syms[0].k.kernarg_size, 24);
  ck_assert_uint_eq(syms[0].k.kernarg_align, 16);
  ck_assert_uint_eq(syms[0].k.group_size, 256);
  ck_assert_uint_eq(syms[0].k.private_size, 32);
  ck_assert_uint_eq(syms[0].k.wavefront_size, 64);
  for (unsigned i = 0; i < n; i++) free(syms[i].name);
  free(syms);
  free(host);
  ldr_image_close(&img);
  free(p);
  /* 9:0:1 is the old name of gfx900 with XNACK on; 9:0:10 (gfx90a) was never v2. */
  s.isa[2] = 1;
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
  ck_assert_str_eq(img.target, "gfx900:xnack+");
  ldr_image_close(&img);
  free(p);
  s.isa[2] = 10;
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  free(p);
}
END_TEST

START_TEST(layout_and_symbols) {
  struct b_spec s = {.version = 5};
  uint8_t *p;
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
  struct ldr_layout lay;
  ck_assert_int_eq(ldr_layout(&img, &lay), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(lay.vbase, 0);
  ck_assert_uint_eq(lay.span, B_DATA_VADDR + B_DATA_MEMSZ);
  ck_assert_uint_eq(lay.align, 0x1000);
  /* Program-scope variables may take GiBs (bss): only the address space limits the span. */
  uint64_t memsz = img.loads[2].memsz;
  img.loads[2].memsz = 3ull << 30;
  ck_assert_int_eq(ldr_layout(&img, &lay), HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(lay.span, B_DATA_VADDR + (3ull << 30));
  img.loads[2].memsz = 1ull << 47;
  ck_assert_int_eq(ldr_layout(&img, &lay), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  img.loads[2].memsz = memsz;
  ck_assert_int_eq(ldr_layout(&img, &lay), HSA_STATUS_SUCCESS);
  uint8_t *host = malloc(lay.span);
  memset(host, 0x5a, lay.span);
  ldr_copy_segments(&img, &lay, host, false);
  /* File bytes where they belong, zeros in between and in the bss. */
  ck_assert_uint_eq(host[B_DATA_VADDR + 3], 0xa3);
  ck_assert_uint_eq(host[B_DATA_VADDR + B_DATA_FILESZ + 1], 0);
  ck_assert_uint_eq(host[0x900], 0);
  ck_assert_int_eq(memcmp(host + B_KD_VADDR, p + B_KD_VADDR, 64), 0);
  struct ldr_executable e = {0};
  struct ldr_symbol *syms;
  unsigned n;
  const uint64_t base = 0x7f0000000000ull;
  ck_assert_int_eq(ldr_symbols_build(&e, &img, &lay, host, base, NULL, &syms, &n),
                   HSA_STATUS_SUCCESS);
  ck_assert_uint_eq(n, 2);
  ck_assert_str_eq(syms[0].name, "k.kd");
  ck_assert_uint_eq(syms[0].address, base + B_KD_VADDR);
  ck_assert_uint_eq(syms[0].k.kernarg_size, 24);
  ck_assert_uint_eq(syms[0].k.kernarg_align, 16);
  ck_assert_uint_eq(syms[0].k.group_size, 256);
  ck_assert_uint_eq(syms[0].k.private_size, 32);
  ck_assert_str_eq(syms[1].name, "v");
  ck_assert_int_eq(syms[1].kind, HSA_SYMBOL_KIND_VARIABLE);
  ck_assert_uint_eq(syms[1].address, base + B_DATA_VADDR);
  ck_assert_uint_eq(syms[1].var_size, 16);
  ck_assert_uint_eq(syms[1].var_align, 16);
  ck_assert(!syms[1].is_const);
  /* Attributes through the API's switch. */
  uint32_t u = 0;
  uint64_t obj = 0;
  ck_assert_int_eq(ldr_symbol_info(&syms[0], HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &u), 0);
  ck_assert_uint_eq(u, 4);
  char name[8] = {0};
  ck_assert_int_eq(ldr_symbol_info(&syms[0], HSA_EXECUTABLE_SYMBOL_INFO_NAME, name), 0);
  ck_assert_str_eq(name, "k.kd");
  ck_assert_int_eq(ldr_symbol_info(&syms[0], HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &obj), 0);
  ck_assert_uint_eq(obj, base + B_KD_VADDR);
  ck_assert_int_eq(ldr_symbol_info(&syms[0], HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &u),
                   HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ck_assert_int_eq(ldr_symbol_info(&syms[1], HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE,
                                   &u), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  for (unsigned i = 0; i < n; i++) free(syms[i].name);
  free(syms);
  free(host);
  ldr_image_close(&img);
  free(p);
}
END_TEST

/* Every relocation type against host-computed values (AMDGPUUsage formulas). */
static uint64_t resolve_ext(const char *name, void *ctx) {
  return strcmp(name, "ext") == 0 ? *(uint64_t *)ctx : 0;
}

START_TEST(relocations_every_type) {
  const uint64_t base = 0x12345678000ull, ext = 0xabcdef012340ull;
  const uint64_t S_v = base + B_DATA_VADDR;    /* symbol 3 */
  struct b_spec s = {.version = 4};
  const uint64_t off = 0x1180;                 /* in .text, like code referring to data */
  struct b_rela r[] = {
    {off + 0, 1, 3, 8},      /* ABS32_LO */
    {off + 4, 2, 3, 8},      /* ABS32_HI */
    {off + 8, 3, 3, -4},     /* ABS64 */
    {off + 16, 4, 3, 0},     /* REL32 */
    {off + 24, 5, 3, 16},    /* REL64 */
    {off + 32, 6, 3, 2},     /* ABS32 */
    {off + 36, 10, 3, 4},    /* REL32_LO */
    {off + 40, 11, 3, 4},    /* REL32_HI */
    {off + 48, 13, 0, 0x40}, /* RELATIVE64 */
    {off + 56, 14, 3, 0},    /* REL16 */
    {off + 64, 3, 4, 1},     /* ABS64 of the external */
    {off + 72, 0, 0, 0},     /* NONE */
  };
  memcpy(s.relas, r, sizeof(r));
  s.nrelas = sizeof(r) / sizeof(r[0]);
  uint8_t *p;
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
  struct ldr_layout lay;
  ck_assert_int_eq(ldr_layout(&img, &lay), HSA_STATUS_SUCCESS);
  uint8_t *host = malloc(lay.span);
  ldr_copy_segments(&img, &lay, host, false);
  uint64_t e = ext;
  ck_assert_int_eq(ldr_relocate(&img, host, base, lay.vbase, lay.span, resolve_ext, &e),
                   HSA_STATUS_SUCCESS);
  uint32_t w32;
  uint64_t w64;
  uint16_t w16;
  const uint64_t P = base + off;
#define AT32(o) (memcpy(&w32, host + off + (o), 4), w32)
#define AT64(o) (memcpy(&w64, host + off + (o), 8), w64)
  ck_assert_uint_eq(AT32(0), (uint32_t)(S_v + 8));
  ck_assert_uint_eq(AT32(4), (uint32_t)((S_v + 8) >> 32));
  ck_assert_uint_eq(AT64(8), S_v - 4);
  ck_assert_uint_eq(AT32(16), (uint32_t)(S_v - (P + 16)));
  ck_assert_uint_eq(AT64(24), S_v + 16 - (P + 24));
  ck_assert_uint_eq(AT32(32), (uint32_t)(S_v + 2));
  ck_assert_uint_eq(AT32(36), (uint32_t)(S_v + 4 - (P + 36)));
  ck_assert_uint_eq(AT32(40), (uint32_t)((S_v + 4 - (P + 40)) >> 32));
  ck_assert_uint_eq(AT64(48), base + 0x40);
  memcpy(&w16, host + off + 56, 2);
  ck_assert_uint_eq(w16, (uint16_t)(((int64_t)(S_v - (P + 56)) - 4) / 4));
  ck_assert_uint_eq(AT64(64), ext + 1);
  ck_assert_uint_eq(AT64(72), 0);   /* NONE wrote nothing */
#undef AT32
#undef AT64
  /* Without the external: VARIABLE_UNDEFINED. */
  ck_assert_int_eq(ldr_relocate(&img, host, base, lay.vbase, lay.span, NULL, NULL),
                   HSA_STATUS_ERROR_VARIABLE_UNDEFINED);
  free(host);
  ldr_image_close(&img);
  free(p);
}
END_TEST

START_TEST(relocations_refused) {
  static const struct b_rela bad[] = {
    {0x1180, 7, 3, 0},              /* GOTPCREL: the linker's job */
    {0x1180, 99, 3, 0},             /* unknown */
    {B_DATA_VADDR + B_DATA_MEMSZ - 4, 3, 3, 0},   /* 8 bytes at 4 before the end */
    {0x100000, 3, 3, 0},            /* far outside */
  };
  for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    struct b_spec s = {.version = 4, .nrelas = 1};
    s.relas[0] = bad[i];
    uint8_t *p;
    ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
    struct ldr_layout lay;
    ck_assert_int_eq(ldr_layout(&img, &lay), HSA_STATUS_SUCCESS);
    uint8_t *host = malloc(lay.span);
    ldr_copy_segments(&img, &lay, host, false);
    ck_assert_int_eq(ldr_relocate(&img, host, 0x10000, lay.vbase, lay.span, NULL, NULL),
                     HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
    free(host);
    ldr_image_close(&img);
    free(p);
  }
  /* A relocation naming a symbol beyond the table is refused when parsing. */
  struct b_spec s = {.version = 4, .nrelas = 1};
  s.relas[0] = (struct b_rela){0x1180, 3, 9, 0};
  uint8_t *p;
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  free(p);
}
END_TEST

START_TEST(kernel_descriptor_checks) {
  uint8_t kd[64];
  struct ldr_kernel_info k;
  b_default_kd(kd);
  ck_assert(ldr_kd_read(kd, &k));
  ck_assert_uint_eq(k.kernarg_size, 24);
  ck_assert_int_eq(k.entry_offset, B_TEXT_VADDR + 0x100 - B_KD_VADDR);
  ck_assert_uint_eq(k.wavefront_size, 64);
  ck_assert(!k.dynamic_callstack);
  kd[57] |= 0x0c;   /* wave32 + dynamic stack */
  ck_assert(ldr_kd_read(kd, &k));
  ck_assert_uint_eq(k.wavefront_size, 32);
  ck_assert(k.dynamic_callstack);
  static const unsigned reserved[] = {12, 15, 24, 30, 43, 60, 63};
  for (unsigned i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++) {
    b_default_kd(kd);
    kd[reserved[i]] = 1;
    ck_assert_msg(!ldr_kd_read(kd, &k), "reserved byte %u accepted", reserved[i]);
  }
  b_default_kd(kd);
  kd[56] |= 0x80;   /* reserved property bit 7 */
  ck_assert(!ldr_kd_read(kd, &k));
  b_default_kd(kd);
  memset(kd + 16, 0, 8);   /* no entry */
  ck_assert(!ldr_kd_read(kd, &k));
  b_default_kd(kd);
  kd[3] = 0x40;            /* 1 GiB of LDS */
  ck_assert(!ldr_kd_read(kd, &k));
  /* A descriptor with a reserved bit makes the whole code object invalid. */
  struct b_spec s = {.version = 4, .kd_set = true};
  b_default_kd(s.kd);
  s.kd[40] = 7;
  uint8_t *p;
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
  struct ldr_layout lay;
  ck_assert_int_eq(ldr_layout(&img, &lay), HSA_STATUS_SUCCESS);
  uint8_t *host = malloc(lay.span);
  ldr_copy_segments(&img, &lay, host, false);
  struct ldr_executable e = {0};
  struct ldr_symbol *syms;
  unsigned n;
  ck_assert_int_eq(ldr_symbols_build(&e, &img, &lay, host, 0, NULL, &syms, &n),
                   HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  /* ENABLE_WAVEFRONT_SIZE32 is reserved on gfx9 (the default target, gfx900): refused; on
   * gfx1100 (EF_AMDGPU_MACH 0x41) it is a wave32 kernel, and wave64 ones load there too. */
  b_default_kd(s.kd);
  s.kd[57] |= 0x04;
  ldr_image_close(&img);
  free(p);
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
  ldr_copy_segments(&img, &lay, host, false);
  ck_assert_int_eq(ldr_symbols_build(&e, &img, &lay, host, 0, NULL, &syms, &n),
                   HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  for (unsigned w32 = 0; w32 < 2; w32++) {
    struct b_spec s11 = {.version = 4, .kd_set = true, .e_flags = 0x41};
    b_default_kd(s11.kd);
    if (w32) s11.kd[57] |= 0x04;
    ldr_image_close(&img);
    free(p);
    ck_assert_int_eq(open_spec(&s11, &p), HSA_STATUS_SUCCESS);
    ldr_copy_segments(&img, &lay, host, false);
    ck_assert_int_eq(ldr_symbols_build(&e, &img, &lay, host, 0, NULL, &syms, &n),
                     HSA_STATUS_SUCCESS);
    ck_assert_uint_eq(syms[0].k.wavefront_size, w32 ? 32 : 64);
    for (unsigned i = 0; i < n; i++) free(syms[i].name);
    free(syms);
  }
  /* An entry outside the executable segment too. */
  b_default_kd(s.kd);
  int64_t entry = (int64_t)B_DATA_VADDR - B_KD_VADDR;
  memcpy(s.kd + 16, &entry, 8);
  ldr_image_close(&img);
  free(p);
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
  ldr_copy_segments(&img, &lay, host, false);
  ck_assert_int_eq(ldr_symbols_build(&e, &img, &lay, host, 0, NULL, &syms, &n),
                   HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  free(host);
  ldr_image_close(&img);
  free(p);
}
END_TEST

START_TEST(bad_headers_refused) {
  struct b_spec cases[] = {
    {.version = 4, .machine = 62},          /* EM_X86_64 */
    {.version = 4, .abi_version = 9},       /* no such code object version */
    {.version = 4, .type = ET_REL},
    {.version = 4, .e_flags = 0xfe},        /* unknown processor */
    {.version = 4, .overlap = true},
  };
  static const hsa_status_t want[] = {
    HSA_STATUS_ERROR_INVALID_CODE_OBJECT, HSA_STATUS_ERROR_INVALID_CODE_OBJECT,
    HSA_STATUS_ERROR_INVALID_CODE_OBJECT, HSA_STATUS_ERROR_INVALID_CODE_OBJECT,
    HSA_STATUS_SUCCESS /* parses; the layout refuses it */,
  };
  for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    uint8_t *p;
    ck_assert_int_eq(open_spec(&cases[i], &p), want[i]);
    if (want[i] == HSA_STATUS_SUCCESS) {
      struct ldr_layout lay;
      ck_assert_int_eq(ldr_layout(&img, &lay), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
      ldr_image_close(&img);
    }
    free(p);
  }
  /* Not ELF, big-endian, 32-bit, NULL. */
  uint8_t *p;
  size_t n;
  p = b_build(&(struct b_spec){.version = 4}, &n);
  p[EI_DATA] = ELFDATA2MSB;
  ck_assert_int_eq(ldr_image_open(&img, p, n), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  p[EI_DATA] = ELFDATA2LSB;
  p[EI_CLASS] = ELFCLASS32;
  ck_assert_int_eq(ldr_image_open(&img, p, n), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  p[0] = 0;
  ck_assert_int_eq(ldr_image_open(&img, p, n), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ck_assert_int_eq(ldr_image_open(&img, NULL, 0), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  free(p);
}
END_TEST

START_TEST(bad_metadata_refused) {
  /* Shapes a load refuses: not a map, counts beyond the bytes (msgpack-c would allocate them),
   * truncated, the never-used byte 0xc1. */
  static const uint8_t not_map[] = {0x93, 1, 2, 3};
  static const uint8_t huge[] = {0x81, 0xa1, 'k', 0xdd, 0xff, 0xff, 0xff, 0xff};
  static const uint8_t truncated[] = {0x83, 0xae, 'a', 'm', 'd'};
  static const uint8_t c1[] = {0x81, 0xa1, 'k', 0xc1};
  const struct { const void *p; size_t n; } cases[] = {
    {not_map, sizeof(not_map)}, {huge, sizeof(huge)}, {truncated, sizeof(truncated)},
    {c1, sizeof(c1)},
  };
  for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    struct b_spec s = {.version = 4, .metadata = cases[i].p, .metadata_size = cases[i].n};
    uint8_t *p;
    ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
    free(p);
    struct ldr_metadata *md = NULL;
    ck_assert_int_eq(ldr_metadata_parse(cases[i].p, cases[i].n, &md),
                     HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
    ck_assert_ptr_null(md);
  }
  /* Well-formed msgpack that is not valid metadata: a kernel without .symbol, a kernarg size
   * that is a string. The parser refuses them. */
  static const uint8_t no_symbol[] = {0x81, 0xae, 'a', 'm', 'd', 'h', 's', 'a', '.', 'k', 'e',
                                      'r', 'n', 'e', 'l', 's', 0x91, 0x81, 0xa5, '.', 'n', 'a',
                                      'm', 'e', 0xa1, 'k'};
  static const uint8_t str_size[] = {0x81, 0xae, 'a', 'm', 'd', 'h', 's', 'a', '.', 'k', 'e',
                                     'r', 'n', 'e', 'l', 's', 0x91, 0x83, 0xa5, '.', 'n', 'a',
                                     'm', 'e', 0xa1, 'k', 0xa7, '.', 's', 'y', 'm', 'b', 'o', 'l',
                                     0xa4, 'k', '.', 'k', 'd', 0xb5, '.', 'k', 'e', 'r', 'n', 'a',
                                     'r', 'g', '_', 's', 'e', 'g', 'm', 'e', 'n', 't', '_', 's',
                                     'i', 'z', 'e', 0xa2, '2', '4'};
  struct ldr_metadata *md = NULL;
  ck_assert_int_eq(ldr_metadata_parse(no_symbol, sizeof(no_symbol), &md),
                   HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ck_assert_int_eq(ldr_metadata_parse(str_size, sizeof(str_size), &md),
                   HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  /* No metadata at all is fine (ROCR does not need it). */
  struct b_spec s = {.version = 4, .no_metadata = true};
  uint8_t *p;
  ck_assert_int_eq(open_spec(&s, &p), HSA_STATUS_SUCCESS);
  ck_assert_ptr_null(img.md_note);
  ldr_image_close(&img);
  free(p);
}
END_TEST

/* Every truncation of a valid code object is refused, never read past. */
START_TEST(truncations_refused) {
  size_t n;
  uint8_t *full = b_build(&(struct b_spec){.version = 4}, &n);
  for (size_t len = 0; len < n; len += (len < 0x200 ? 1 : 61)) {
    uint8_t *p = malloc(len ? len : 1);
    memcpy(p, full, len);
    hsa_status_t st = ldr_image_open(&img, p, len);
    /* Cutting into unused padding may leave a loadable object; never a crash or overread. */
    if (st == HSA_STATUS_SUCCESS) ldr_image_close(&img);
    else ck_assert_int_eq(st, HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
    if (len < 0x2800 + 9 * 64) ck_assert_int_ne(st, HSA_STATUS_SUCCESS);
    free(p);
  }
  free(full);
}
END_TEST

/* Random byte corruption: the parser and the symbol/relocation stages must survive it. */
START_TEST(corruptions_survive) {
  size_t n;
  uint8_t *full = b_build(&(struct b_spec){.version = 4, .nrelas = 2,
                                           .relas = {{B_DATA_VADDR, 3, 3, 0},
                                                     {B_DATA_VADDR + 8, 13, 0, 0}}}, &n);
  unsigned seed = 12345;
  for (int iter = 0; iter < 3000; iter++) {
    uint8_t *p = malloc(n);
    memcpy(p, full, n);
    int flips = 1 + iter % 8;
    for (int f = 0; f < flips; f++) {
      seed = seed * 1103515245u + 12345u;
      size_t at = (seed >> 8) % n;
      /* Mostly hit the headers and tables, where it matters. */
      if (iter % 3 == 0) at %= 0x600;
      else if (iter % 3 == 1) at = 0x2800 + at % (9 * 64);
      p[at] ^= (uint8_t)(1u << ((seed >> 4) & 7));
    }
    if (ldr_image_open(&img, p, n) == HSA_STATUS_SUCCESS) {
      struct ldr_layout lay;
      if (ldr_layout(&img, &lay) == HSA_STATUS_SUCCESS) {
        uint8_t *host = ldr_host_image(lay.span);   /* corrupted sizes may ask for TiBs */
        if (!host) {
          ldr_image_close(&img);
          free(p);
          continue;
        }
        ldr_copy_segments(&img, &lay, host, true);
        struct ldr_executable e = {0};
        struct ldr_symbol *syms;
        unsigned ns;
        if (ldr_symbols_build(&e, &img, &lay, host, 0x1000000, NULL, &syms, &ns) ==
            HSA_STATUS_SUCCESS) {
          for (unsigned i = 0; i < ns; i++) free(syms[i].name);
          free(syms);
        }
        ldr_relocate(&img, host, 0x1000000, lay.vbase, lay.span, NULL, NULL);
        ldr_host_image_free(host, lay.span);
      }
      ldr_image_close(&img);
    }
    free(p);
  }
  free(full);
}
END_TEST

Suite *test_suite(void) {
  setenv("HSA_LOADER_QUIET", "1", 1);   /* thousands of refusals below, on purpose */
  Suite *s = suite_create("loader");
  TCase *t = tcase_create("parse");
  tcase_set_timeout(t, 60);
  tcase_add_test(t, v4_image_parses);
  tcase_add_test(t, targets_from_e_flags);
  tcase_add_test(t, v6_generic_target);
  tcase_add_test(t, compatibility_follows_features);
  tcase_add_test(t, v2_notes_and_kernel_code);
  tcase_add_test(t, layout_and_symbols);
  tcase_add_test(t, relocations_every_type);
  tcase_add_test(t, relocations_refused);
  tcase_add_test(t, kernel_descriptor_checks);
  tcase_add_test(t, bad_headers_refused);
  tcase_add_test(t, bad_metadata_refused);
  tcase_add_test(t, truncations_refused);
  tcase_add_test(t, corruptions_survive);
  suite_add_tcase(s, t);
  return s;
}
