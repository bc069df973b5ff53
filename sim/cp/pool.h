/* SPDX-License-Identifier: MIT */
/* pool.h — running the work-groups of dispatches on the host threads of one pool (pool.c). */
#ifndef SIM_CP_POOL_H
#define SIM_CP_POOL_H

#include <stdbool.h>
#include <stdint.h>

/* Runs item `item` as `worker` (0 = the calling thread, then 1, 2...); false stops the job. */
typedef bool cp_pool_fn(void *ctx, unsigned worker, uint64_t item);

#define CP_POOL_MAX_THREADS 256u   /* SIM_MAX_THREADS */

/* Runs items 0..count-1 on the calling thread (worker 0) and at most max_workers - 1 helpers
 * of the pool (workers 1..), items in any order, each once; several calls (queues) may run at
 * once and share the helpers. Every item's effects happen before the return. Returns false
 * if an item returned false (items not yet started are then skipped). */
bool cp_pool_run(uint64_t count, unsigned max_workers, cp_pool_fn *fn, void *ctx);
/* How many threads a job may use (helpers start with the first job that uses them). */
unsigned cp_pool_workers(void);
/* The pool's size: `threads=` of the configuration (hsa-sim --threads), else the CPUs the
 * process may run on (at most CP_POOL_MAX_THREADS). */
unsigned cp_pool_threads(void);

#endif
