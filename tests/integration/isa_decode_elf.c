/* SPDX-License-Identifier: MIT */
/* isa_decode_elf.c — prints sim/isa's decoding of the .text section of an AMDGPU ELF
 * object, one line per instruction: "<offset hex> <size> <E|-> <text>" (E: the operands are
 * spelled exactly as llvm-objdump spells them), for comparison with llvm-objdump
 * (isa_objdump.sh). Built at test time against libhsa-sim-internal.a.
 *   isa_decode_elf OBJECT [MCPU]     (MCPU: gfx900, gfx906 or gfx90a; default: any gfx9) */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/exec.h"

int main(int argc, char **argv)
{
  if (argc != 2 && argc != 3) {
    fprintf(stderr, "usage: %s OBJECT [MCPU]\n", argv[0]);
    return 2;
  }
  uint8_t target = isa_target_named(argc == 3 ? argv[2] : NULL);
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *img = malloc((size_t)n);
  if (!img || fread(img, 1, (size_t)n, f) != (size_t)n)
    return 2;
  fclose(f);
  Elf64_Ehdr eh;
  memcpy(&eh, img, sizeof eh);
  if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
    return 2;
  Elf64_Shdr strsec;
  memcpy(&strsec, img + eh.e_shoff + (size_t)eh.e_shstrndx * eh.e_shentsize, sizeof strsec);
  for (unsigned i = 0; i < eh.e_shnum; i++) {
    Elf64_Shdr sh;
    memcpy(&sh, img + eh.e_shoff + (size_t)i * eh.e_shentsize, sizeof sh);
    if (strcmp((const char *)img + strsec.sh_offset + sh.sh_name, ".text"))
      continue;
    const unsigned char *text = img + sh.sh_offset;
    uint64_t size = sh.sh_size;
    for (uint64_t off = 0; off + 4 <= size;) {
      uint32_t words[3] = {0, 0, 0};
      unsigned avail = 0;
      for (; avail < 3 && off + 4 * avail + 4 <= size; avail++)
        memcpy(&words[avail], text + off + 4 * avail, 4);
      char buf[200];
      struct isa_inst in;
      isa_decode(words, avail, sh.sh_addr + off, target, &in);
      unsigned len = isa_describe_inst(&in, buf, sizeof buf);
      printf("%llx %u %c %s\n", (unsigned long long)(sh.sh_addr + off), len,
             isa_describe_exact(&in) ? 'E' : '-', buf);
      off += len ? len : 4;
    }
  }
  free(img);
  return 0;
}
