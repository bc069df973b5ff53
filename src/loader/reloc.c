/* SPDX-License-Identifier: MIT */
/* reloc.c — R_AMDGPU_* dynamic relocations (AMDGPUUsage "Relocation Records") applied to the
 * loaded copy of a code object. S is the symbol's loaded address (or an external variable the
 * application defined), A the addend, P the address being relocated, B the load delta. */
#include <elf.h>
#include <string.h>

#include "loader/internal.h"

enum {
  R_NONE = 0, R_ABS32_LO = 1, R_ABS32_HI = 2, R_ABS64 = 3, R_REL32 = 4, R_REL64 = 5,
  R_ABS32 = 6, R_GOTPCREL = 7, R_GOTPCREL32_LO = 8, R_GOTPCREL32_HI = 9, R_REL32_LO = 10,
  R_REL32_HI = 11, R_RELATIVE64 = 13, R_REL16 = 14,
};

static unsigned width_of(uint32_t type) {
  switch (type) {
  case R_ABS64: case R_REL64: case R_RELATIVE64: return 8;
  case R_ABS32_LO: case R_ABS32_HI: case R_REL32: case R_ABS32: case R_REL32_LO:
  case R_REL32_HI: return 4;
  case R_REL16: return 2;
  default: return 0;
  }
}

hsa_status_t ldr_relocate(const struct ldr_image *img, uint8_t *host, uint64_t base,
                          uint64_t vbase, uint64_t span, ldr_resolve_fn resolve, void *ctx) {
  uint64_t delta = base - vbase;    /* modulo 2^64, as the formulas are */
  for (unsigned i = 0; i < img->nrelas; i++) {
    const struct ldr_rela *r = &img->relas[i];
    if (r->type == R_NONE) continue;
    unsigned w = width_of(r->type);
    if (w == 0) {
      ldr_complain("invalid code object: relocation type %u is not supported at load time%s",
                   r->type, r->type >= R_GOTPCREL && r->type <= R_GOTPCREL32_HI ?
                   " (GOT relocations are resolved by the linker)" : "");
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    if (r->offset < vbase || r->offset - vbase > span || span - (r->offset - vbase) < w) {
      ldr_complain("invalid code object: relocation at 0x%llx outside the loaded segments",
                   (unsigned long long)r->offset);
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    uint64_t S = 0;
    if (r->type != R_RELATIVE64 && r->sym != 0) {
      const struct ldr_elf_symbol *s = &img->rsyms[r->sym];
      if (s->shndx == SHN_UNDEF) {
        S = resolve ? resolve(s->name, ctx) : 0;
        if (!S && s->bind != STB_WEAK) {
          ldr_complain("code object needs \"%s\", which is not defined (define it with "
                       "hsa_executable_agent_global_variable_define before loading)", s->name);
          return HSA_STATUS_ERROR_VARIABLE_UNDEFINED;
        }
      } else if (s->shndx == SHN_ABS) {
        S = s->value;
      } else {
        S = s->value + delta;
      }
    }
    uint64_t A = (uint64_t)r->addend;
    uint64_t P = r->offset + delta;
    uint64_t v;
    switch (r->type) {
    case R_ABS32_LO: v = (S + A) & 0xffffffffu; break;
    case R_ABS32_HI: v = (S + A) >> 32; break;
    case R_ABS64: v = S + A; break;
    case R_REL32: v = S + A - P; break;
    case R_REL64: v = S + A - P; break;
    case R_ABS32: v = S + A; break;
    case R_REL32_LO: v = (S + A - P) & 0xffffffffu; break;
    case R_REL32_HI: v = (S + A - P) >> 32; break;
    case R_RELATIVE64: v = delta + A; break;
    case R_REL16: v = (uint64_t)(((int64_t)(S + A - P) - 4) / 4); break;
    default: return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    uint8_t *dst = host + (r->offset - vbase);
    if (w == 8) {
      memcpy(dst, &v, 8);
    } else if (w == 4) {
      uint32_t v32 = (uint32_t)v;
      memcpy(dst, &v32, 4);
    } else {
      uint16_t v16 = (uint16_t)v;
      memcpy(dst, &v16, 2);
    }
  }
  return HSA_STATUS_SUCCESS;
}
