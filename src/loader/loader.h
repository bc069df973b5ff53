/* SPDX-License-Identifier: MIT */
/* loader.h — what the rest of the runtime may call in the loader (src/loader): its shutdown
 * and the AMD loader extension's table. Everything else is the loader's own
 * (loader/internal.h). */
#ifndef LOADER_LOADER_H
#define LOADER_LOADER_H

#include <stdint.h>

#include "core/extension.h"

/* Destroys every executable and reader still alive (hsa_shut_down), before memory goes. */
void ldr_shutdown(void);
/* The AMD loader extension's table (loader_ext.c), provided to core by the lifetime. */
extern const struct core_extension ldr_loader_extension;
/* The address of the debugger's list of loaded code objects (_amdgpu_r_debug), which the
 * lifetime hands the kernel (runtime enable). */
uint64_t ldr_debug_list_address(void);

#endif
