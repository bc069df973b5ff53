/* SPDX-License-Identifier: MIT */
/* elf.c — a code object's ELF structure read with libelf: header checks (EM_AMDGPU,
 * ELFOSABI_AMDGPU_HSA, ABI version = code object version), PT_LOAD segments, notes (the v2
 * "AMD" notes, the v3+ "AMDGPU" msgpack metadata), symbols and dynamic relocations.
 * Every offset and size is checked against the bytes we were given: a code object is input. */
#include <elf.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "amd_hsa_elf.h"
#include "loader/internal.h"

#define NT_AMDGPU_METADATA 32
#define NT_AMD_HSA_METADATA_V2 10

static pthread_once_t elf_once = PTHREAD_ONCE_INIT;
static void elf_init(void) { (void)elf_version(EV_CURRENT); }

static bool range_ok(uint64_t off, uint64_t len, uint64_t size) {
  return off <= size && len <= size - off;
}

static hsa_status_t bad(const char *why) {
  ldr_complain("invalid code object: %s", why);
  return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

/* ---- notes ------------------------------------------------------------------------------ */

struct notes {
  bool have_version;
  uint32_t major, minor;
  const void *isa;            /* NT_AMD_HSA_ISA_VERSION descriptor */
  size_t isa_size;
  const void *md;             /* NT_AMDGPU_METADATA descriptor */
  size_t md_size;
};

static hsa_status_t read_notes(struct ldr_image *img, const uint8_t *p, size_t len,
                               struct notes *n) {
  size_t off = 0;
  while (len - off >= 12) {
    uint32_t namesz, descsz, type;
    memcpy(&namesz, p + off, 4);
    memcpy(&descsz, p + off + 4, 4);
    memcpy(&type, p + off + 8, 4);
    off += 12;
    size_t name_pad = ((size_t)namesz + 3) & ~(size_t)3;
    size_t desc_pad = ((size_t)descsz + 3) & ~(size_t)3;
    if (name_pad > len - off) return bad("note name outside its segment");
    const char *name = (const char *)p + off;
    off += name_pad;
    if (descsz > len - off) return bad("note descriptor outside its segment");
    const uint8_t *desc = p + off;
    off += desc_pad < len - off ? desc_pad : len - off;
    bool amd = namesz == 4 && memcmp(name, "AMD", 4) == 0;
    bool amdgpu = namesz == 7 && memcmp(name, "AMDGPU", 7) == 0;
    if (amd && type == NT_AMD_HSA_CODE_OBJECT_VERSION) {
      if (descsz < 8) return bad("short code object version note");
      memcpy(&n->major, desc, 4);
      memcpy(&n->minor, desc + 4, 4);
      n->have_version = true;
    } else if (amd && type == NT_AMD_HSA_ISA_VERSION) {
      n->isa = desc;
      n->isa_size = descsz;
    } else if (amd && type == NT_AMD_HSA_PRODUCER && descsz >= 12) {
      uint16_t nsz;
      memcpy(&nsz, desc, 2);
      memcpy(&img->producer_major, desc + 4, 4);
      memcpy(&img->producer_minor, desc + 8, 4);
      size_t avail = descsz - 12;
      size_t copy = nsz < avail ? nsz : avail;
      if (copy >= sizeof(img->producer)) copy = sizeof(img->producer) - 1;
      memcpy(img->producer, desc + 12, copy);
      img->producer[copy] = 0;
      img->producer[strnlen(img->producer, copy)] = 0;
    } else if (amdgpu && type == NT_AMDGPU_METADATA) {
      if (n->md) return bad("two metadata notes");
      n->md = desc;
      n->md_size = descsz;
    }
  }
  return HSA_STATUS_SUCCESS;
}

/* ---- symbols and relocations ------------------------------------------------------------ */

static hsa_status_t read_symtab(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh,
                                struct ldr_elf_symbol **out, unsigned *count) {
  Elf_Data *d = elf_getdata(scn, NULL);
  if (!d || !d->d_buf) {
    *out = NULL;
    *count = 0;
    return d || sh->sh_size == 0 ? HSA_STATUS_SUCCESS : bad("unreadable symbol table");
  }
  if (sh->sh_entsize != sizeof(Elf64_Sym)) return bad("symbol table entry size");
  size_t n = d->d_size / sizeof(Elf64_Sym);
  if (n > (1u << 24)) return bad("too many symbols");
  struct ldr_elf_symbol *syms = calloc(n ? n : 1, sizeof(*syms));
  if (!syms) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  size_t shnum = 0;
  elf_getshdrnum(e, &shnum);
  for (size_t i = 0; i < n; i++) {
    GElf_Sym s;
    if (!gelf_getsym(d, (int)i, &s)) {
      free(syms);
      return bad("unreadable symbol");
    }
    const char *name = s.st_name ? elf_strptr(e, sh->sh_link, s.st_name) : "";
    if (!name) {
      free(syms);
      return bad("symbol name outside the string table");
    }
    struct ldr_elf_symbol *y = &syms[i];
    y->name = name;
    y->value = s.st_value;
    y->size = s.st_size;
    y->type = GELF_ST_TYPE(s.st_info);
    y->bind = GELF_ST_BIND(s.st_info);
    y->other = s.st_other;
    y->shndx = s.st_shndx;
    if (s.st_shndx != SHN_UNDEF && s.st_shndx < SHN_LORESERVE) {
      if (s.st_shndx >= shnum) {
        free(syms);
        return bad("symbol in a section that does not exist");
      }
      GElf_Shdr ssh;
      Elf_Scn *sscn = elf_getscn(e, s.st_shndx);
      if (sscn && gelf_getshdr(sscn, &ssh)) {
        y->sec_flags = ssh.sh_flags;
        y->sec_align = ssh.sh_addralign;
      }
    }
  }
  *out = syms;
  *count = (unsigned)n;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t read_relas(struct ldr_image *img, Elf *e, Elf_Scn *scn, const GElf_Shdr *sh,
                               size_t *rsym_link) {
  Elf_Data *d = elf_getdata(scn, NULL);
  if (!d || !d->d_buf) return d || sh->sh_size == 0 ? HSA_STATUS_SUCCESS :
                                                      bad("unreadable relocation section");
  if (sh->sh_entsize != sizeof(Elf64_Rela)) return bad("relocation entry size");
  size_t n = d->d_size / sizeof(Elf64_Rela);
  if (n == 0) return HSA_STATUS_SUCCESS;
  if (*rsym_link && *rsym_link != sh->sh_link)
    return bad("dynamic relocations name two symbol tables");
  if (*rsym_link == 0) {
    Elf_Scn *symscn = elf_getscn(e, sh->sh_link);
    GElf_Shdr ssh;
    if (!symscn || !gelf_getshdr(symscn, &ssh) ||
        (ssh.sh_type != SHT_DYNSYM && ssh.sh_type != SHT_SYMTAB))
      return bad("relocations without a symbol table");
    hsa_status_t st = read_symtab(e, symscn, &ssh, &img->rsyms, &img->nrsyms);
    if (st != HSA_STATUS_SUCCESS) return st;
    *rsym_link = sh->sh_link;
  }
  if (n > (1u << 24) - img->nrelas) return bad("too many relocations");
  struct ldr_rela *r = realloc(img->relas, (img->nrelas + n) * sizeof(*r));
  if (!r) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  img->relas = r;
  for (size_t i = 0; i < n; i++) {
    GElf_Rela ra;
    if (!gelf_getrela(d, (int)i, &ra)) return bad("unreadable relocation");
    struct ldr_rela *x = &img->relas[img->nrelas++];
    x->offset = ra.r_offset;
    x->type = (uint32_t)GELF_R_TYPE(ra.r_info);
    x->sym = (uint32_t)GELF_R_SYM(ra.r_info);
    x->addend = ra.r_addend;
    if (x->sym >= img->nrsyms) return bad("relocation names a symbol that does not exist");
  }
  return HSA_STATUS_SUCCESS;
}

/* ---- the image ---------------------------------------------------------------------------- */

static hsa_status_t parse(struct ldr_image *img, Elf *e) {
  const uint8_t *id = img->data;
  GElf_Ehdr eh;
  if (!gelf_getehdr(e, &eh)) return bad("unreadable ELF header");
  if (eh.e_machine != EM_AMDGPU) {
    ldr_complain("invalid code object: e_machine %u is not EM_AMDGPU (224)", eh.e_machine);
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  if (id[EI_OSABI] != ELFOSABI_AMDGPU_HSA) return bad("OS ABI is not AMDGPU_HSA");
  if (eh.e_type != ET_DYN) return bad("not a shared object (ET_DYN)");
  img->e_flags = eh.e_flags;
  /* libelf quietly drops header tables that do not fit: a cut file must not look smaller. */
  if ((eh.e_phnum && (eh.e_phentsize != sizeof(Elf64_Phdr) ||
                      !range_ok(eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr), img->size))) ||
      (eh.e_shnum && (eh.e_shentsize != sizeof(Elf64_Shdr) ||
                      !range_ok(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), img->size))))
    return bad("header tables outside the file");
  switch (id[EI_ABIVERSION]) {
  case ELFABIVERSION_AMDGPU_HSA_V2: img->version = 2; break;
  case ELFABIVERSION_AMDGPU_HSA_V3: img->version = 3; break;
  case ELFABIVERSION_AMDGPU_HSA_V4: img->version = 4; break;
  case ELFABIVERSION_AMDGPU_HSA_V5: img->version = 5; break;
  case ELFABIVERSION_AMDGPU_HSA_V6: img->version = 6; break;
  default:
    ldr_complain("invalid code object: unsupported ABI version %u", id[EI_ABIVERSION]);
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }

  struct notes notes = {0};
  size_t phnum = 0;
  if (elf_getphdrnum(e, &phnum) != 0) return bad("unreadable program headers");
  if (phnum > 4096) return bad("too many program headers");
  bool saw_note = false;
  for (size_t i = 0; i < phnum; i++) {
    GElf_Phdr ph;
    if (!gelf_getphdr(e, (int)i, &ph)) return bad("unreadable program header");
    if (ph.p_type == PT_LOAD) {
      if (!range_ok(ph.p_offset, ph.p_filesz, img->size)) return bad("segment outside the file");
      if (ph.p_filesz > ph.p_memsz) return bad("segment file size above its memory size");
      if (ph.p_align > 1 && (ph.p_align & (ph.p_align - 1))) return bad("segment alignment");
      struct ldr_load_segment *l = realloc(img->loads, (img->nloads + 1) * sizeof(*l));
      if (!l) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
      img->loads = l;
      l[img->nloads++] = (struct ldr_load_segment){ph.p_vaddr, ph.p_memsz, ph.p_offset,
                                                   ph.p_filesz, ph.p_align, ph.p_flags};
    } else if (ph.p_type == PT_NOTE) {
      if (!range_ok(ph.p_offset, ph.p_filesz, img->size)) return bad("note outside the file");
      hsa_status_t st = read_notes(img, img->data + ph.p_offset, ph.p_filesz, &notes);
      if (st != HSA_STATUS_SUCCESS) return st;
      saw_note = true;
    }
  }

  size_t rsym_link = 0;
  Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
  GElf_Shdr symtab_sh = {0}, dynsym_sh = {0};
  while ((scn = elf_nextscn(e, scn)) != NULL) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh)) return bad("unreadable section header");
    if (sh.sh_type != SHT_NOBITS && !range_ok(sh.sh_offset, sh.sh_size, img->size))
      return bad("section outside the file");
    if (sh.sh_type == SHT_SYMTAB && !symtab) {
      symtab = scn;
      symtab_sh = sh;
    } else if (sh.sh_type == SHT_DYNSYM && !dynsym) {
      dynsym = scn;
      dynsym_sh = sh;
    } else if (sh.sh_type == SHT_NOTE && !saw_note) {
      hsa_status_t st = read_notes(img, img->data + sh.sh_offset, sh.sh_size, &notes);
      if (st != HSA_STATUS_SUCCESS) return st;
    } else if (sh.sh_type == SHT_RELA && sh.sh_info == 0) {
      /* Dynamic relocations (no target section). Static ones (--emit-relocs) were already
       * applied by the linker and cannot be applied again. */
      hsa_status_t st = read_relas(img, e, scn, &sh, &rsym_link);
      if (st != HSA_STATUS_SUCCESS) return st;
    } else if (sh.sh_type == SHT_REL && sh.sh_info == 0 && sh.sh_size) {
      return bad("SHT_REL dynamic relocations (AMDGPU uses SHT_RELA)");
    }
  }
  /* ROCR reads .symtab; LOADER_USE_DYNSYM selects .dynsym; a stripped object has only that. */
  const char *use_dyn = getenv("LOADER_USE_DYNSYM");
  bool prefer_dyn = use_dyn && use_dyn[0] && use_dyn[0] != '0';
  Elf_Scn *table = (prefer_dyn && dynsym) || !symtab ? dynsym : symtab;
  if (table) {
    hsa_status_t st = read_symtab(e, table, table == dynsym ? &dynsym_sh : &symtab_sh,
                                  &img->syms, &img->nsyms);
    if (st != HSA_STATUS_SUCCESS) return st;
  }

  if (img->version == 2) {
    if (!notes.have_version) return bad("code object v2 without a version note");
    if (notes.major != 2) {
      ldr_complain("invalid code object: unsupported code object version %u.%u", notes.major,
                   notes.minor);
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    img->version_minor = notes.minor;
    if (img->nrelas && notes.minor < 1) return bad("dynamic relocations need code object v2.1");
  } else if (notes.md) {
    if (!ldr_metadata_sane(notes.md, notes.md_size)) return bad("malformed AMDGPU metadata note");
    img->md_note = notes.md;
    img->md_size = notes.md_size;
  }
  if (img->nloads == 0) return bad("no loadable segment");
  return ldr_image_target(img, notes.isa, notes.isa_size);
}

hsa_status_t ldr_image_open(struct ldr_image *img, const void *data, size_t size) {
  memset(img, 0, sizeof(*img));
  const uint8_t *id = data;
  if (!data || size < sizeof(Elf64_Ehdr)) return bad("shorter than an ELF header");
  if (memcmp(id, ELFMAG, SELFMAG) != 0) return bad("not an ELF file");
  /* libelf converts foreign byte orders in place, and the bytes may be read-only: refuse
   * anything but what AMDGPU uses before handing them over. */
  if (id[EI_CLASS] != ELFCLASS64 || id[EI_DATA] != ELFDATA2LSB || id[EI_VERSION] != EV_CURRENT)
    return bad("not a little-endian ELF64 file");
  pthread_once(&elf_once, elf_init);
  img->data = data;
  img->size = size;
  Elf *e = elf_memory((char *)(uintptr_t)data, size);
  if (!e) return bad(elf_errmsg(-1));
  hsa_status_t st = elf_kind(e) == ELF_K_ELF ? parse(img, e) : bad("not an ELF file");
  elf_end(e);
  if (st != HSA_STATUS_SUCCESS) ldr_image_close(img);
  return st;
}

void ldr_image_close(struct ldr_image *img) {
  free(img->loads);
  free(img->syms);
  free(img->rsyms);
  free(img->relas);
  memset(img, 0, sizeof(*img));
}

size_t ldr_elf_size(const void *data, size_t limit) {
  Elf64_Ehdr eh;
  if (!data || limit < sizeof(eh)) return 0;
  memcpy(&eh, data, sizeof(eh));
  if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64) return 0;
  const uint8_t *p = data;
  uint64_t end = sizeof(eh);
#define GROW(x) do { uint64_t x_ = (x); if (x_ > end && x_ <= limit) end = x_; } while (0)
  if (eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phnum &&
      range_ok(eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr), limit)) {
    GROW(eh.e_phoff + (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr));
    for (unsigned i = 0; i < eh.e_phnum; i++) {
      Elf64_Phdr ph;
      memcpy(&ph, p + eh.e_phoff + i * sizeof(ph), sizeof(ph));
      if (range_ok(ph.p_offset, ph.p_filesz, limit)) GROW(ph.p_offset + ph.p_filesz);
    }
  }
  if (eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shnum &&
      range_ok(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), limit)) {
    GROW(eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr));
    for (unsigned i = 0; i < eh.e_shnum; i++) {
      Elf64_Shdr sh;
      memcpy(&sh, p + eh.e_shoff + i * sizeof(sh), sizeof(sh));
      if (sh.sh_type != SHT_NOBITS && range_ok(sh.sh_offset, sh.sh_size, limit))
        GROW(sh.sh_offset + sh.sh_size);
    }
  }
#undef GROW
  return (size_t)end;
}
