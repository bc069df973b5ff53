/* SPDX-License-Identifier: MIT */
/* isa.h — the table of AMDGPU instruction set architectures (target IDs) the runtime knows. */
#ifndef CORE_ISA_H
#define CORE_ISA_H

#include <stdbool.h>
#include <stdint.h>

#include "hsa.h"

/* A target feature (sramecc, xnack) of an ISA: a code object may say "any". */
enum core_feature { CORE_FEATURE_UNSUPPORTED, CORE_FEATURE_ANY, CORE_FEATURE_OFF,
                    CORE_FEATURE_ON };

struct core_isa {
  uint32_t major, minor, stepping;
  enum core_feature sramecc, xnack;
  char processor[16];         /* "gfx90a" */
  char target_id[48];         /* "gfx90a:sramecc+:xnack-" */
  char name[72];              /* "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-" */
};

/* The processor name for a version, "gfx" major, minor and stepping as hex digits. */
void core_isa_processor_name(uint32_t major, uint32_t minor, uint32_t stepping, char *buf,
                             unsigned size);
/* Whether the processor has the feature at all (false for unknown processors). */
bool core_isa_supports_sramecc(uint32_t major, uint32_t minor, uint32_t stepping);
bool core_isa_supports_xnack(uint32_t major, uint32_t minor, uint32_t stepping);
/* The registry entry for a version and concrete features (features the processor lacks are
 * ignored); NULL when the processor is not known. */
const struct core_isa *core_isa_find(uint32_t major, uint32_t minor, uint32_t stepping,
                                     enum core_feature sramecc, enum core_feature xnack);
const struct core_isa *core_isa_by_name(const char *name);
/* Handle conversion; from_handle returns NULL for anything that is not a registry entry. */
hsa_isa_t core_isa_handle(const struct core_isa *isa);
const struct core_isa *core_isa_from_handle(hsa_isa_t isa);
/* Code object ISA `code` can run on agent ISA `agent`. */
bool core_isa_compatible(const struct core_isa *code, const struct core_isa *agent);

#endif
