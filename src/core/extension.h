/* SPDX-License-Identifier: MIT */
/* extension.h — which HSA extensions this runtime offers, and the registry through which the
 * module that implements an extension provides its function table. */
#ifndef CORE_EXTENSION_H
#define CORE_EXTENSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hsa.h"

/* One extension's function table, defined by the module that implements it (src/loader,
 * src/tools, src/image) and provided by the lifetime (src/runtime.c) before the runtime first opens:
 * core answers the extension queries without knowing any module above it. */
struct core_extension {
  uint16_t id;  /* HSA_EXTENSION_* */
  /* Bytes of the table of version major.minor, what hsa_system_get_extension_table (which
   * takes no length) writes; 0 when there is no such version. */
  size_t (*table_size)(uint16_t version_major, uint16_t version_minor);
  /* At most length bytes of the table of version_major into table. */
  hsa_status_t (*table)(uint16_t version_major, size_t length, void *table);
};

/* Registers ext (a static object); called once per extension, before the first open. */
void core_extension_provide(const struct core_extension *ext);

/* The image extension (src/image) has provided its table. */
bool core_extension_images_available(void);
/* libhsa-amd-aqlprofile64.so can be loaded (ROCR's condition for the AQL profile extension). */
bool core_extension_aqlprofile_available(void);

#endif
