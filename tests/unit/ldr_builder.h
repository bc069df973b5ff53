/* SPDX-License-Identifier: MIT */
/* ldr_builder.h — builds small AMDGPU code objects in memory, the way lld lays them out
 * (file offsets equal virtual addresses), so loader tests and the fuzzer's seeds need no
 * compiler. Knobs let tests break one thing at a time. Header-only (static functions). */
#ifndef TESTS_LDR_BUILDER_H
#define TESTS_LDR_BUILDER_H

#include <elf.h>
#include <msgpack.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "amd_hsa_kernel_code.h"

#define B_KD_VADDR 0x300u     /* "k.kd" in .rodata */
#define B_TEXT_VADDR 0x1000u  /* "k" (v3+) or the amd_kernel_code_t (v2) */
#define B_DATA_VADDR 0x2000u  /* "v": 16 bytes of data + 16 of bss */
#define B_DATA_FILESZ 0x20u
#define B_DATA_MEMSZ 0x40u
#define B_SIZE 0x3000u        /* section headers from 0x2800 */

struct b_rela { uint64_t offset; uint32_t type, sym; int64_t addend; };

/* Dynamic symbols: 1 "k.kd" (or "k" kernel in v2), 2 "k" FUNC, 3 "v", 4 "ext" (undefined). */
struct b_spec {
  unsigned version;           /* 2..6 */
  uint16_t machine, type;     /* EM_AMDGPU (224), ET_DYN */
  uint8_t abi_version;        /* 0 = from version */
  uint32_t e_flags;           /* 0 = gfx900 with xnack off (v4+) / off (v3) */
  uint32_t isa[3];            /* v2 ISA note */
  bool overlap;               /* make the data segment overlap the code segment */
  uint8_t kd[64];             /* 0s = a default descriptor */
  bool kd_set;
  const void *metadata;       /* msgpack bytes; NULL = a default map; */
  size_t metadata_size;
  bool no_metadata;
  struct b_rela relas[16];
  unsigned nrelas;
};

static void b_put(uint8_t *p, size_t off, const void *src, size_t n) { memcpy(p + off, src, n); }

static void b_default_kd(uint8_t *kd) {
  memset(kd, 0, 64);
  uint32_t group = 256, priv = 32, kernarg = 24;
  int64_t entry = (int64_t)(B_TEXT_VADDR + 0x100) - (int64_t)B_KD_VADDR;   /* s_endpgm */
  uint32_t rsrc1 = 0x002c0041, rsrc2 = 0x00000090;
  uint16_t props = 0x0008;    /* kernarg segment pointer */
  memcpy(kd + 0, &group, 4);
  memcpy(kd + 4, &priv, 4);
  memcpy(kd + 8, &kernarg, 4);
  memcpy(kd + 16, &entry, 8);
  memcpy(kd + 48, &rsrc1, 4);
  memcpy(kd + 52, &rsrc2, 4);
  memcpy(kd + 56, &props, 2);
}

/* The metadata a compiler would write for kernel "k" (24 bytes of kernargs: a pointer, an int
 * and a hidden argument). Caller frees sbuf. */
static void b_default_metadata(msgpack_sbuffer *sbuf) {
  msgpack_sbuffer_init(sbuf);
  msgpack_packer pk;
  msgpack_packer_init(&pk, sbuf, msgpack_sbuffer_write);
#define KEY(s) (msgpack_pack_str(&pk, strlen(s)), msgpack_pack_str_body(&pk, s, strlen(s)))
  msgpack_pack_map(&pk, 3);
  KEY("amdhsa.version");
  msgpack_pack_array(&pk, 2);
  msgpack_pack_uint32(&pk, 1);
  msgpack_pack_uint32(&pk, 1);
  KEY("amdhsa.target");
  KEY("amdgcn-amd-amdhsa--gfx900:xnack-");
  KEY("amdhsa.kernels");
  msgpack_pack_array(&pk, 1);
  msgpack_pack_map(&pk, 11);
  KEY(".name"); KEY("k");
  KEY(".symbol"); KEY("k.kd");
  KEY(".kernarg_segment_size"); msgpack_pack_uint32(&pk, 24);
  KEY(".kernarg_segment_align"); msgpack_pack_uint32(&pk, 8);
  KEY(".group_segment_fixed_size"); msgpack_pack_uint32(&pk, 256);
  KEY(".private_segment_fixed_size"); msgpack_pack_uint32(&pk, 32);
  KEY(".wavefront_size"); msgpack_pack_uint32(&pk, 64);
  KEY(".sgpr_count"); msgpack_pack_uint32(&pk, 12);
  KEY(".vgpr_count"); msgpack_pack_uint32(&pk, 3);
  KEY(".uses_dynamic_stack"); msgpack_pack_false(&pk);
  KEY(".args");
  msgpack_pack_array(&pk, 3);
  const char *kinds[3] = {"global_buffer", "by_value", "hidden_global_offset_x"};
  const uint32_t sizes[3] = {8, 4, 8}, offsets[3] = {0, 8, 16};
  for (int i = 0; i < 3; i++) {
    msgpack_pack_map(&pk, 3);
    KEY(".size"); msgpack_pack_uint32(&pk, sizes[i]);
    KEY(".offset"); msgpack_pack_uint32(&pk, offsets[i]);
    KEY(".value_kind"); KEY(kinds[i]);
  }
#undef KEY
}

/* Returns a malloc'd code object of B_SIZE bytes. */
static uint8_t *b_build(const struct b_spec *s, size_t *size) {
  uint8_t *p = calloc(1, B_SIZE);
  unsigned v = s->version ? s->version : 4;
  /* Notes at 0x2400 (a PT_NOTE need not be loaded). */
  size_t note_off = 0x2400, note_len = 0;
  msgpack_sbuffer sbuf = {0};
  if (v == 2) {
    uint32_t h[3] = {4, 8, 1};          /* "AMD", code object version 2.1 */
    uint32_t ver[2] = {2, 1};
    b_put(p, note_off, h, 12);
    b_put(p, note_off + 12, "AMD", 4);
    b_put(p, note_off + 16, ver, 8);
    note_len = 24;
    uint8_t isa[16 + 4 + 7 + 1] = {0};  /* vendor "AMD\0", arch "AMDGPU\0" */
    uint16_t vs = 4, as = 7;
    memcpy(isa, &vs, 2);
    memcpy(isa + 2, &as, 2);
    memcpy(isa + 4, s->isa, 12);
    memcpy(isa + 16, "AMD", 4);
    memcpy(isa + 20, "AMDGPU", 7);
    uint32_t h2[3] = {4, 27, 3};
    b_put(p, note_off + note_len, h2, 12);
    b_put(p, note_off + note_len + 12, "AMD", 4);
    b_put(p, note_off + note_len + 16, isa, 27);
    note_len += 16 + 28;
  } else if (!s->no_metadata) {
    const void *md = s->metadata;
    size_t mdn = s->metadata_size;
    if (!md) {
      b_default_metadata(&sbuf);
      md = sbuf.data;
      mdn = sbuf.size;
    }
    uint32_t h[3] = {7, (uint32_t)mdn, 32};
    b_put(p, note_off, h, 12);
    b_put(p, note_off + 12, "AMDGPU\0", 8);
    if (mdn <= 0x3e0) b_put(p, note_off + 20, md, mdn);   /* else truncated on purpose */
    note_len = 20 + ((mdn + 3) & ~(size_t)3);
    if (note_len > 0x3f0) note_len = 0x3f0;
  }
  if (sbuf.data) msgpack_sbuffer_destroy(&sbuf);

  /* .dynstr at 0x2c0, .dynsym at 0x2a0? Keep them apart from the KD: dynsym 0x400, dynstr
   * 0x4a0, rela.dyn 0x500. */
  const char dynstr[] = "\0k.kd\0k\0v\0ext\0";
  b_put(p, 0x4a0, dynstr, sizeof(dynstr));
  Elf64_Sym syms[5];
  memset(syms, 0, sizeof(syms));
  if (v == 2) {
    syms[1] = (Elf64_Sym){.st_name = 6, .st_info = ELF64_ST_INFO(STB_GLOBAL, 10),
                          .st_shndx = 6, .st_value = B_TEXT_VADDR, .st_size = 0x120};
  } else {
    syms[1] = (Elf64_Sym){.st_name = 1, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
                          .st_shndx = 5, .st_value = B_KD_VADDR, .st_size = 64};
  }
  syms[2] = (Elf64_Sym){.st_name = 6, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
                        .st_shndx = 6, .st_value = B_TEXT_VADDR + 0x100, .st_size = 8};
  syms[3] = (Elf64_Sym){.st_name = 8, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
                        .st_shndx = 7, .st_value = B_DATA_VADDR, .st_size = 16};
  syms[4] = (Elf64_Sym){.st_name = 10, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE)};
  b_put(p, 0x400, syms, sizeof(syms));
  Elf64_Rela rel[16];
  for (unsigned i = 0; i < s->nrelas; i++)
    rel[i] = (Elf64_Rela){s->relas[i].offset, ELF64_R_INFO(s->relas[i].sym, s->relas[i].type),
                          s->relas[i].addend};
  b_put(p, 0x500, rel, s->nrelas * sizeof(Elf64_Rela));

  /* The kernel object and code. */
  if (v == 2) {
    amd_kernel_code_t akc;
    memset(&akc, 0, sizeof(akc));
    akc.amd_kernel_code_version_major = 1;
    akc.amd_kernel_code_version_minor = 1;
    akc.amd_machine_kind = 1;
    akc.amd_machine_version_major = 9;
    akc.kernel_code_entry_byte_offset = 256;
    akc.workitem_private_segment_byte_size = 32;
    akc.workgroup_group_segment_byte_size = 256;
    akc.kernarg_segment_byte_size = 24;
    akc.kernarg_segment_alignment = 4;   /* 16 */
    akc.wavefront_size = 6;              /* 64 */
    b_put(p, B_TEXT_VADDR, &akc, 256);
  } else {
    uint8_t kd[64];
    if (s->kd_set) memcpy(kd, s->kd, 64);
    else b_default_kd(kd);
    b_put(p, B_KD_VADDR, kd, 64);
  }
  const uint32_t endpgm[2] = {0xbf810000, 0xbf810000};   /* s_endpgm */
  b_put(p, B_TEXT_VADDR + 0x100, endpgm, 8);
  for (unsigned i = 0; i < 16; i++) p[B_DATA_VADDR + i] = (uint8_t)(0xa0 + i);

  /* Section headers at 0x2800: null, .note, .dynsym, .dynstr, .rela.dyn, .rodata, .text,
   * .data, .shstrtab. */
  const char shstr[] = "\0.note\0.dynsym\0.dynstr\0.rela.dyn\0.rodata\0.text\0.data\0.shstrtab\0";
  b_put(p, 0x2f00, shstr, sizeof(shstr));
  Elf64_Shdr sh[9];
  memset(sh, 0, sizeof(sh));
  sh[1] = (Elf64_Shdr){1, SHT_NOTE, SHF_ALLOC, note_off, note_off, note_len, 0, 0, 4, 0};
  sh[2] = (Elf64_Shdr){7, SHT_DYNSYM, SHF_ALLOC, 0x400, 0x400, sizeof(syms), 3, 1, 8,
                       sizeof(Elf64_Sym)};
  sh[3] = (Elf64_Shdr){15, SHT_STRTAB, SHF_ALLOC, 0x4a0, 0x4a0, sizeof(dynstr), 0, 0, 1, 0};
  sh[4] = (Elf64_Shdr){23, SHT_RELA, SHF_ALLOC, 0x500, 0x500, s->nrelas * sizeof(Elf64_Rela), 2,
                       0, 8, sizeof(Elf64_Rela)};
  sh[5] = (Elf64_Shdr){33, SHT_PROGBITS, SHF_ALLOC, B_KD_VADDR, B_KD_VADDR, 64, 0, 0, 64, 0};
  sh[6] = (Elf64_Shdr){41, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, B_TEXT_VADDR, B_TEXT_VADDR,
                       0x200, 0, 0, 256, 0};
  sh[7] = (Elf64_Shdr){47, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, B_DATA_VADDR, B_DATA_VADDR,
                       B_DATA_FILESZ, 0, 0, 16, 0};
  sh[8] = (Elf64_Shdr){53, SHT_STRTAB, 0, 0, 0x2f00, sizeof(shstr), 0, 0, 1, 0};
  b_put(p, 0x2800, sh, sizeof(sh));

  /* Program headers at 0x40: R (headers, notes, dynsym, rodata), R E (text), RW (data),
   * NOTE. */
  Elf64_Phdr ph[4];
  ph[0] = (Elf64_Phdr){PT_LOAD, PF_R, 0, 0, 0, 0x600, 0x600, 0x1000};
  ph[1] = (Elf64_Phdr){PT_LOAD, PF_R | PF_X, B_TEXT_VADDR, B_TEXT_VADDR, B_TEXT_VADDR, 0x200,
                       0x200, 0x1000};
  uint64_t dv = s->overlap ? B_TEXT_VADDR + 0x100 : B_DATA_VADDR;
  ph[2] = (Elf64_Phdr){PT_LOAD, PF_R | PF_W, B_DATA_VADDR, dv, dv, B_DATA_FILESZ, B_DATA_MEMSZ,
                       0x1000};
  ph[3] = (Elf64_Phdr){PT_NOTE, PF_R, note_off, note_off, note_off, note_len, note_len, 4};
  b_put(p, 0x40, ph, sizeof(ph));

  Elf64_Ehdr eh;
  memset(&eh, 0, sizeof(eh));
  memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_ident[EI_OSABI] = 64;
  eh.e_ident[EI_ABIVERSION] = s->abi_version ? s->abi_version : (uint8_t)(v - 2);
  eh.e_type = s->type ? s->type : ET_DYN;
  eh.e_machine = s->machine ? s->machine : 224;
  eh.e_version = EV_CURRENT;
  eh.e_phoff = 0x40;
  eh.e_shoff = 0x2800;
  eh.e_ehsize = sizeof(eh);
  eh.e_phentsize = sizeof(Elf64_Phdr);
  eh.e_phnum = 4;
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = 9;
  eh.e_shstrndx = 8;
  eh.e_flags = s->e_flags ? s->e_flags : (v == 3 ? 0x2c : v == 2 ? 0x2c : 0x22c);
  b_put(p, 0, &eh, sizeof(eh));
  *size = B_SIZE;
  return p;
}

#endif
