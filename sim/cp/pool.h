/* SPDX-License-Identifier: MIT */
/* pool.h — running the work-groups of a dispatch on several host threads. */
#ifndef SIM_CP_POOL_H
#define SIM_CP_POOL_H

#include <stdbool.h>
#include <stdint.h>

/* Runs item `item` as `worker` (0 = the calling thread, then 1, 2...); false stops the job. */
typedef bool cp_pool_fn(void *ctx, unsigned worker, uint64_t item);

/* Runs items 0..count-1 on at most max_workers threads (items in any order, each once).
 * Returns false if an item returned false (items not yet started are then skipped). */
bool cp_pool_run(uint64_t count, unsigned max_workers, cp_pool_fn *fn, void *ctx);
/* How many threads a job may use (helpers start with the first job that uses them). */
unsigned cp_pool_workers(void);

#endif
