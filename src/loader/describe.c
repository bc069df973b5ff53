/* SPDX-License-Identifier: MIT */
/* describe.c — which loaded code object, and which kernel in it, an address belongs to: for
 * fault messages ("kernel `k` in <URI>") instead of a bare address. */
#include <inttypes.h>
#include <stdio.h>

#include "loader/internal.h"

/* The kernel whose descriptor is `addr`, else the kernel whose code starts nearest below it. */
static const struct ldr_symbol *kernel_at(const struct ldr_lco *l, uint64_t addr, bool *exact) {
  const struct ldr_symbol *best = NULL;
  uint64_t best_entry = 0;
  *exact = false;
  for (unsigned i = 0; i < l->nsyms; i++) {
    const struct ldr_symbol *s = &l->syms[i];
    if (s->kind != HSA_SYMBOL_KIND_KERNEL) continue;
    if (s->address == addr) {
      *exact = true;
      return s;
    }
    uint64_t entry = s->address + (uint64_t)s->k.entry_offset;
    if (entry <= addr && (!best || entry > best_entry)) best = s, best_entry = entry;
  }
  return best;
}

bool ldr_describe_code(uint64_t addr, char *out, size_t size) {
  bool found = false;
  ldr_lock();
  for (struct ldr_executable *e = ldr_executable_first(); e && !found;
       e = ldr_executable_next(e))
    for (const struct ldr_lco *l = ldr_executable_lcos(e); l && !found; l = l->next) {
      if (addr < l->load_base || addr - l->load_base >= l->load_size) continue;
      found = true;
      bool exact;
      const struct ldr_symbol *k = kernel_at(l, addr, &exact);
      const char *uri = l->lm.l_name && *l->lm.l_name ? l->lm.l_name : "(no URI)";
      uint64_t off = addr - l->load_base;
      if (k && exact)
        snprintf(out, size, "kernel `%s` in %s", k->name, uri);
      else if (k)   /* an instruction: how far into the kernel's code, and into the file */
        snprintf(out, size, "kernel `%s` + 0x%" PRIx64 " (offset 0x%" PRIx64 " of %s)", k->name,
                 addr - (k->address + (uint64_t)k->k.entry_offset), off, uri);
      else
        snprintf(out, size, "offset 0x%" PRIx64 " of %s", off, uri);
    }
  ldr_unlock();
  return found;
}
