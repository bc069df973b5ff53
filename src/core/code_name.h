/* SPDX-License-Identifier: MIT */
/* code_name.h — naming GPU code by address for messages (a faulting kernel, a PC), without
 * the module that reports a fault (aql) depending on the one that knows code (loader): the
 * loader registers its lookup here. */
#ifndef CORE_CODE_NAME_H
#define CORE_CODE_NAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes a description of the code at `addr` (a kernel object or an instruction address)
 * into out, e.g. "kernel `vadd` in file:///a.co#offset=0&size=4096" for a kernel object,
 * "kernel `vadd` + 0x40 (offset 0x1140 of file:///a.co#offset=0&size=4096)" for code; false
 * when the address is in no loaded code object. */
typedef bool (*core_code_namer_fn)(uint64_t addr, char *out, size_t size);

void core_set_code_namer(core_code_namer_fn fn);
bool core_name_code(uint64_t addr, char *out, size_t size);

#endif
