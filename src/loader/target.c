/* SPDX-License-Identifier: MIT */
/* target.c — which processor and target features a code object is for: e_flags
 * (EF_AMDGPU_MACH + xnack/sramecc bits, code object v3+; generic targets in v6) or the v2 ISA
 * note, mapped the way ROCR maps old "AMD:AMDGPU:maj:min:step" names. Facts from AMDGPUUsage. */
#include <stdio.h>
#include <string.h>

#include "amd_hsa_elf.h"
#include "loader/internal.h"

struct mach { uint8_t mach, major, minor, stepping; };

static const struct mach machs[] = {
  {0x20, 6, 0, 0},  {0x21, 6, 0, 1},  {0x3a, 6, 0, 2},  {0x22, 7, 0, 0},  {0x23, 7, 0, 1},
  {0x24, 7, 0, 2},  {0x25, 7, 0, 3},  {0x26, 7, 0, 4},  {0x3b, 7, 0, 5},  {0x28, 8, 0, 1},
  {0x29, 8, 0, 2},  {0x2a, 8, 0, 3},  {0x3c, 8, 0, 5},  {0x2b, 8, 1, 0},  {0x2c, 9, 0, 0},
  {0x2d, 9, 0, 2},  {0x2e, 9, 0, 4},  {0x2f, 9, 0, 6},  {0x30, 9, 0, 8},  {0x31, 9, 0, 9},
  {0x32, 9, 0, 12}, {0x3f, 9, 0, 10}, {0x40, 9, 4, 0},  {0x4b, 9, 4, 1},  {0x4c, 9, 4, 2},
  {0x4f, 9, 5, 0},  {0x33, 10, 1, 0}, {0x34, 10, 1, 1}, {0x35, 10, 1, 2}, {0x42, 10, 1, 3},
  {0x36, 10, 3, 0}, {0x37, 10, 3, 1}, {0x38, 10, 3, 2}, {0x39, 10, 3, 3}, {0x3e, 10, 3, 4},
  {0x3d, 10, 3, 5}, {0x45, 10, 3, 6}, {0x41, 11, 0, 0}, {0x46, 11, 0, 1}, {0x47, 11, 0, 2},
  {0x44, 11, 0, 3}, {0x43, 11, 5, 0}, {0x4a, 11, 5, 1}, {0x55, 11, 5, 2}, {0x48, 12, 0, 0},
  {0x4e, 12, 0, 1},
};

bool ldr_mach_processor(unsigned mach, uint32_t *major, uint32_t *minor, uint32_t *stepping) {
  for (unsigned i = 0; i < sizeof(machs) / sizeof(machs[0]); i++)
    if (machs[i].mach == mach) {
      *major = machs[i].major;
      *minor = machs[i].minor;
      *stepping = machs[i].stepping;
      return true;
    }
  return false;
}

/* Generic targets (v6): the processors each family covers. */
static bool generic_covers(unsigned family, uint32_t major, uint32_t minor, uint32_t stepping) {
  switch (family) {
  case EF_AMDGPU_MACH_AMDGCN_GFX9_GENERIC:
    return major == 9 && minor == 0 &&
           (stepping == 0 || stepping == 2 || stepping == 4 || stepping == 6 || stepping == 9 ||
            stepping == 12);
  case EF_AMDGPU_MACH_AMDGCN_GFX10_1_GENERIC: return major == 10 && minor == 1 && stepping <= 3;
  case EF_AMDGPU_MACH_AMDGCN_GFX10_3_GENERIC: return major == 10 && minor == 3 && stepping <= 6;
  case EF_AMDGPU_MACH_AMDGCN_GFX11_GENERIC:
    return major == 11 && ((minor == 0 && stepping <= 3) || (minor == 5 && stepping <= 2));
  default: return false;
  }
}

static const char *generic_name(unsigned family) {
  switch (family) {
  case EF_AMDGPU_MACH_AMDGCN_GFX9_GENERIC: return "gfx9-generic";
  case EF_AMDGPU_MACH_AMDGCN_GFX10_1_GENERIC: return "gfx10-1-generic";
  case EF_AMDGPU_MACH_AMDGCN_GFX10_3_GENERIC: return "gfx10-3-generic";
  case EF_AMDGPU_MACH_AMDGCN_GFX11_GENERIC: return "gfx11-generic";
  default: return NULL;
  }
}

static void feature_text(char *buf, size_t size, const char *name, enum core_feature f) {
  if (f == CORE_FEATURE_ON || f == CORE_FEATURE_OFF)
    snprintf(buf, size, ":%s%c", name, f == CORE_FEATURE_ON ? '+' : '-');
  else
    buf[0] = 0;
}

static hsa_status_t set_target(struct ldr_image *img, const char *proc, uint32_t major,
                               uint32_t minor, uint32_t stepping, enum core_feature sramecc,
                               enum core_feature xnack) {
  bool has_s = core_isa_supports_sramecc(major, minor, stepping);
  bool has_x = core_isa_supports_xnack(major, minor, stepping);
  /* A setting the processor cannot have is dropped; no setting for one it has means any
   * (as ROCR: no ":sramecc" in the name). */
  if (!has_s) sramecc = CORE_FEATURE_UNSUPPORTED;
  else if (sramecc == CORE_FEATURE_UNSUPPORTED) sramecc = CORE_FEATURE_ANY;
  if (!has_x) xnack = CORE_FEATURE_UNSUPPORTED;
  else if (xnack == CORE_FEATURE_UNSUPPORTED) xnack = CORE_FEATURE_ANY;
  char s[16], x[16];
  feature_text(s, sizeof(s), "sramecc", sramecc);
  feature_text(x, sizeof(x), "xnack", xnack);
  snprintf(img->target, sizeof(img->target), "%s%s%s", proc, s, x);
  img->isa = img->generic_family ? NULL : core_isa_find(major, minor, stepping, sramecc, xnack);
  if (!img->isa && !img->generic_family) {
    ldr_complain("code object target %s is not a processor this runtime knows", img->target);
    return HSA_STATUS_ERROR_INVALID_ISA_NAME;
  }
  return HSA_STATUS_SUCCESS;
}

/* v2: "AMD:AMDGPU:major:minor:stepping"; odd old steppings meant xnack+ (ROCR's table; v2
 * only ever covered processors up to gfx906 and gfx90c). So v2 gfx906 code runs only on
 * gfx906 boards with SRAM ECC off, as with ROCR. */
static hsa_status_t v2_target(struct ldr_image *img, const void *note, size_t size) {
  if (!note || size < 16) {
    ldr_complain("invalid code object: code object v2 without an ISA note");
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  const uint8_t *p = note;
  uint16_t vsz, asz;
  uint32_t major, minor, stepping;
  memcpy(&vsz, p, 2);
  memcpy(&asz, p + 2, 2);
  memcpy(&major, p + 4, 4);
  memcpy(&minor, p + 8, 4);
  memcpy(&stepping, p + 12, 4);
  if ((size_t)vsz + asz > size - 16 || vsz < 3 || asz < 6 || memcmp(p + 16, "AMD", 3) != 0 ||
      memcmp(p + 16 + vsz, "AMDGPU", 6) != 0) {
    ldr_complain("invalid code object: malformed ISA note");
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  static const struct { uint8_t maj, min, step, to_step; bool xnack_on; } map[] = {
    {6, 0, 0, 0, 0}, {6, 0, 1, 1, 0}, {6, 0, 2, 2, 0}, {7, 0, 0, 0, 0}, {7, 0, 1, 1, 0},
    {7, 0, 2, 2, 0}, {7, 0, 3, 3, 0}, {7, 0, 4, 4, 0}, {7, 0, 5, 5, 0}, {8, 0, 1, 1, 1},
    {8, 0, 0, 2, 0}, {8, 0, 2, 2, 0}, {8, 0, 3, 3, 0}, {8, 0, 4, 3, 0}, {8, 0, 5, 5, 0},
    {8, 1, 0, 0, 1}, {9, 0, 0, 0, 0}, {9, 0, 1, 0, 1}, {9, 0, 2, 2, 0}, {9, 0, 3, 2, 1},
    {9, 0, 4, 4, 0}, {9, 0, 5, 4, 1}, {9, 0, 6, 6, 0}, {9, 0, 7, 6, 1}, {9, 0, 12, 12, 0},
  };
  for (unsigned i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
    if (map[i].maj != major || map[i].min != minor || map[i].step != stepping) continue;
    char proc[16];
    core_isa_processor_name(major, minor, map[i].to_step, proc, sizeof(proc));
    enum core_feature x = map[i].xnack_on ? CORE_FEATURE_ON : CORE_FEATURE_OFF;
    /* v2 predates sramecc settings: ROCR reads it as sramecc- where the processor has it. */
    return set_target(img, proc, major, minor, map[i].to_step, CORE_FEATURE_OFF, x);
  }
  ldr_complain("invalid code object: code object v2 for AMD:AMDGPU:%u:%u:%u is not supported "
               "(v2 covers processors up to gfx906 and gfx90c; use -mcode-object-version=4)",
               major, minor, stepping);
  return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

hsa_status_t ldr_image_target(struct ldr_image *img, const void *isa_note, size_t note_size) {
  if (img->version == 2) return v2_target(img, isa_note, note_size);
  unsigned mach = img->e_flags & EF_AMDGPU_MACH;
  uint32_t major = 0, minor = 0, stepping = 0;
  const char *generic = generic_name(mach);
  if (generic) {
    if (img->version < 6) {
      ldr_complain("invalid code object: generic target %s needs code object v6", generic);
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
    img->generic_family = mach;
    img->generic_version = (img->e_flags & EF_AMDGPU_GENERIC_VERSION) >>
                           EF_AMDGPU_GENERIC_VERSION_OFFSET;
    if (img->generic_version == 0) {
      ldr_complain("invalid code object: generic target without a generic version");
      return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
    }
  } else if (!ldr_mach_processor(mach, &major, &minor, &stepping)) {
    ldr_complain("invalid code object: unknown EF_AMDGPU_MACH 0x%x", mach);
    return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  }
  enum core_feature sramecc, xnack;
  if (img->version == 3) {
    /* v3 has one bit each: set means on, clear means off where the processor has it. */
    sramecc = img->e_flags & EF_AMDGPU_FEATURE_SRAMECC_V3 ? CORE_FEATURE_ON : CORE_FEATURE_OFF;
    xnack = img->e_flags & EF_AMDGPU_FEATURE_XNACK_V3 ? CORE_FEATURE_ON : CORE_FEATURE_OFF;
  } else {
    static const enum core_feature v4[4] = {CORE_FEATURE_UNSUPPORTED, CORE_FEATURE_ANY,
                                            CORE_FEATURE_OFF, CORE_FEATURE_ON};
    sramecc = v4[(img->e_flags & EF_AMDGPU_FEATURE_SRAMECC_V4) >> 10];
    xnack = v4[(img->e_flags & EF_AMDGPU_FEATURE_XNACK_V4) >> 8];
  }
  if (generic) {
    char s[16], x[16];
    feature_text(s, sizeof(s), "sramecc", sramecc);
    feature_text(x, sizeof(x), "xnack", xnack);
    snprintf(img->target, sizeof(img->target), "%s%s%s", generic, s, x);
    img->isa = NULL;
    return HSA_STATUS_SUCCESS;
  }
  char proc[16];
  core_isa_processor_name(major, minor, stepping, proc, sizeof(proc));
  return set_target(img, proc, major, minor, stepping, sramecc, xnack);
}

bool ldr_target_compatible(const struct ldr_image *img, const struct core_agent *agent) {
  const struct core_isa *a = agent ? agent->isa : NULL;
  if (!a) return false;
  if (img->isa) return core_isa_compatible(img->isa, a);
  if (!img->generic_family || !generic_covers(img->generic_family, a->major, a->minor,
                                              a->stepping))
    return false;
  /* Features of a generic target follow the same any/on/off rule. */
  unsigned sbits = (img->e_flags & EF_AMDGPU_FEATURE_SRAMECC_V4) >> 10;
  unsigned xbits = (img->e_flags & EF_AMDGPU_FEATURE_XNACK_V4) >> 8;
  if ((sbits == 2 && a->sramecc != CORE_FEATURE_OFF) || (sbits == 3 && a->sramecc != CORE_FEATURE_ON))
    return false;
  if ((xbits == 2 && a->xnack != CORE_FEATURE_OFF) || (xbits == 3 && a->xnack != CORE_FEATURE_ON))
    return false;
  return true;
}
