/* SPDX-License-Identifier: MIT */
/* aql.h — user-mode AQL queues (src/aql): what the rest of the runtime needs of them. */
#ifndef AQL_AQL_H
#define AQL_AQL_H

/* Destroys every queue still alive (hsa_shut_down), before signals and memory go. */
void aql_shutdown(void);

/* Queues alive now (all kinds); tests use it to check that destroy forgets them. */

/* Agent dispatch packet `type`s a CPU agent's queue understands (cpu.c). */
enum { AQL_CPU_NOP = 0, AQL_CPU_CALL = 1 };

#endif
