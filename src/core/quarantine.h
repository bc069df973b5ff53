/* SPDX-License-Identifier: MIT */
/* quarantine.h — freeing a host record whose address is a handle users hold (signal groups,
 * executables, code object readers, code objects, agents across hsa_shut_down). The block
 * stays allocated for a while, so malloc cannot give its address to the next object of the
 * kind: a stale handle then matches no live record and is refused, instead of reaching the
 * object that would have reused the address. */
#ifndef CORE_QUARANTINE_H
#define CORE_QUARANTINE_H

#include <stddef.h>

/* The last CORE_QUARANTINE_BLOCKS blocks passed here, up to CORE_QUARANTINE_BYTES in all,
 * are kept; older ones are freed. Thread-safe; the blocks outlive hsa_shut_down. */
#define CORE_QUARANTINE_BLOCKS 256u
#define CORE_QUARANTINE_BYTES (64u << 20)
void core_free_later(void *p, size_t bytes);

#endif
