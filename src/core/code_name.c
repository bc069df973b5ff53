/* SPDX-License-Identifier: MIT */
/* code_name.c — the registered code namer (see code_name.h). */
#include "core/code_name.h"

#include <stdatomic.h>

static _Atomic(core_code_namer_fn) namer;

void core_set_code_namer(core_code_namer_fn fn) {
  atomic_store_explicit(&namer, fn, memory_order_release);
}

bool core_name_code(uint64_t addr, char *out, size_t size) {
  core_code_namer_fn fn = atomic_load_explicit(&namer, memory_order_acquire);
  return fn && size && fn(addr, out, size);
}
